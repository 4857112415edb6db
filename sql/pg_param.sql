--
-- pg_param: parameterized foreign paths.  With use_remote_estimate, a join
-- clause goes to the remote with the outer row's value as a parameter, so
-- a nested loop looks rows up by key (one small statement per outer row)
-- rather than reading the whole table for each; the remote's plan of the
-- lookup, asked with the value unknown to it, costs the path.  Every
-- answer is compared with the same query on local copies of the tables.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
CREATE SCHEMA param;
SET search_path = param, public;

SELECT multi_fdw_exec('pg_remote', $$
  DROP TABLE IF EXISTS public.pp_ps, public.pp_part;
  CREATE TABLE public.pp_ps (partkey int, suppkey int, qty int,
                             cost numeric(12,2), note text,
                             PRIMARY KEY (partkey, suppkey));
  INSERT INTO public.pp_ps
    SELECT p, s, (p * 7 + s) % 100, ((p + s) % 1000) / 10.0,
           CASE WHEN p % 3 = 0 THEN 'n' || (p % 50) END
    FROM generate_series(1, 20000) p, generate_series(1, 4) s;
  CREATE TABLE public.pp_part (partkey int PRIMARY KEY, name text);
  INSERT INTO public.pp_part
    SELECT p, CASE WHEN p % 500 = 0 THEN 'forest ' ELSE 'plain ' END || p
    FROM generate_series(1, 20000) p;
  ANALYZE public.pp_ps, public.pp_part$$);

CREATE FOREIGN TABLE pp_ps (partkey int, suppkey int, qty int,
                            cost numeric(12,2), note text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pp_ps',
                            use_remote_estimate 'true');
CREATE FOREIGN TABLE pp_part (partkey int, name text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pp_part',
                            use_remote_estimate 'true');
CREATE TABLE pp_ps_local AS SELECT * FROM pp_ps;
CREATE TABLE pp_part_local AS SELECT * FROM pp_part;
ALTER TABLE pp_ps_local ADD PRIMARY KEY (partkey, suppkey);
ALTER TABLE pp_part_local ADD PRIMARY KEY (partkey);
ANALYZE pp_ps_local, pp_part_local;

-- the outer side: a local table of a few keys, a NULL and a missing one
CREATE TABLE pp_keys (k int, big bigint, tag text);
INSERT INTO pp_keys SELECT g * 97 % 20000 + 1, g * 97 % 20000 + 1, 't' || g
  FROM generate_series(1, 6) g;
INSERT INTO pp_keys VALUES (NULL, NULL, 'null'), (99999, 99999, 'missing');
ANALYZE pp_keys;

-- a plan as EXPLAIN VERBOSE prints it, but for the side of an equality the
-- planner derived from an equivalence class, which it writes first on 15
-- and second since 16
CREATE FUNCTION plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    RETURN NEXT regexp_replace(l, '\((\$\d+::\w+) = (\w+|\(\w+\)::\w+)\)',
                               '(\2 = \1)', 'g');
  END LOOP;
END $f$;

-- the lookups themselves, not a dependent join's key list; and plans that
-- read the same on every version (no Memoize node)
SET multi_fdw.dependent_join = off;
SET enable_memoize = off;

-- a join on the key: a nested loop over the parameterized scan
SELECT plan($$SELECT k.tag, ps.suppkey, ps.qty FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.k$$);
SELECT count(*), sum(ps.qty), count(DISTINCT k.tag)
  FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.k;
SELECT count(*) FROM (
  (SELECT k.tag, ps.suppkey, ps.qty FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.k
   EXCEPT ALL
   SELECT k.tag, ps.suppkey, ps.qty FROM pp_keys k JOIN pp_ps_local ps ON ps.partkey = k.k)
  UNION ALL
  (SELECT k.tag, ps.suppkey, ps.qty FROM pp_keys k JOIN pp_ps_local ps ON ps.partkey = k.k
   EXCEPT ALL
   SELECT k.tag, ps.suppkey, ps.qty FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.k)) d;

-- one remote statement per outer row that reaches the scan (8 keys)
SELECT multi_fdw_stats_reset();
SELECT count(*) FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.k;
SELECT statements FROM multi_fdw_stats WHERE server = 'pg_remote';

-- LEFT JOIN: the NULL and the missing key keep their row
SELECT k.tag, count(ps.suppkey) FROM pp_keys k LEFT JOIN pp_ps ps ON ps.partkey = k.k
  WHERE k.k IS NULL OR k.k > 19000 OR k.tag IN ('missing', 't1')
  GROUP BY k.tag ORDER BY k.tag;

-- a key of another integer type: sent as its own type, compared remotely
SELECT plan($$SELECT k.tag, ps.suppkey FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.big$$);
SELECT count(*), sum(ps.suppkey) FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.big;

-- a join clause with a condition of its own, and a remote filter
SELECT plan($$SELECT k.tag, ps.qty FROM pp_keys k JOIN pp_ps ps
  ON ps.partkey = k.k AND ps.suppkey < k.k % 4 + 2 WHERE ps.qty > 10$$);
SELECT count(*), sum(ps.qty) FROM pp_keys k JOIN pp_ps ps
  ON ps.partkey = k.k AND ps.suppkey < k.k % 4 + 2 WHERE ps.qty > 10;
SELECT count(*), sum(ps.qty) FROM pp_keys k JOIN pp_ps_local ps
  ON ps.partkey = k.k AND ps.suppkey < k.k % 4 + 2 WHERE ps.qty > 10;

-- EXISTS and NOT EXISTS: semi and anti joins over the lookup
SELECT count(*) FROM pp_keys k
  WHERE EXISTS (SELECT 1 FROM pp_ps ps WHERE ps.partkey = k.k AND ps.qty > 50);
SELECT count(*) FROM pp_keys k
  WHERE EXISTS (SELECT 1 FROM pp_ps_local ps WHERE ps.partkey = k.k AND ps.qty > 50);
SELECT count(*) FROM pp_keys k
  WHERE NOT EXISTS (SELECT 1 FROM pp_ps ps WHERE ps.partkey = k.k AND ps.qty > 50);
SELECT count(*) FROM pp_keys k
  WHERE NOT EXISTS (SELECT 1 FROM pp_ps_local ps WHERE ps.partkey = k.k AND ps.qty > 50);

-- the shape of TPC-H's Q20: few parts picked first, partsupp looked up per
-- part, the correlated sum run for those rows only
SET multi_fdw.dependent_join = on;
EXPLAIN (COSTS OFF)
SELECT ps.suppkey, count(*) FROM pp_ps ps
  WHERE ps.partkey IN (SELECT partkey FROM pp_part WHERE name LIKE 'forest%')
    AND ps.qty > (SELECT 0.5 * sum(x.qty) / 4 FROM pp_ps x
                  WHERE x.partkey = ps.partkey AND x.suppkey = ps.suppkey)
  GROUP BY ps.suppkey ORDER BY ps.suppkey;
SELECT ps.suppkey, count(*) FROM pp_ps ps
  WHERE ps.partkey IN (SELECT partkey FROM pp_part WHERE name LIKE 'forest%')
    AND ps.qty > (SELECT 0.5 * sum(x.qty) / 4 FROM pp_ps x
                  WHERE x.partkey = ps.partkey AND x.suppkey = ps.suppkey)
  GROUP BY ps.suppkey ORDER BY ps.suppkey;
SELECT ps.suppkey, count(*) FROM pp_ps_local ps
  WHERE ps.partkey IN (SELECT partkey FROM pp_part_local WHERE name LIKE 'forest%')
    AND ps.qty > (SELECT 0.5 * sum(x.qty) / 4 FROM pp_ps_local x
                  WHERE x.partkey = ps.partkey AND x.suppkey = ps.suppkey)
  GROUP BY ps.suppkey ORDER BY ps.suppkey;

-- a text column declared over a remote enum: its constants go untyped
-- and work; a text join key sent as a parameter goes as text, and the
-- column beside it cast to text (the remote enum has no operator for a
-- text parameter; before, such a key was never sent)
SELECT multi_fdw_exec('pg_remote', $$
  DROP TABLE IF EXISTS public.pp_mood;
  DROP TYPE IF EXISTS public.pp_mood_t;
  CREATE TYPE public.pp_mood_t AS ENUM ('sad', 'ok', 'happy');
  CREATE TABLE public.pp_mood (id int PRIMARY KEY, m public.pp_mood_t);
  INSERT INTO public.pp_mood
    SELECT g, (ARRAY['sad', 'ok', 'happy'])[g % 3 + 1]::public.pp_mood_t
    FROM generate_series(1, 3000) g;
  ANALYZE public.pp_mood$$);
CREATE FOREIGN TABLE pp_mood (id int, m text) SERVER pg_remote
  OPTIONS (schema_name 'public', table_name 'pp_mood',
           use_remote_estimate 'true');
CREATE TABLE pp_moods (m text);
INSERT INTO pp_moods VALUES ('ok'), ('happy');
ANALYZE pp_moods;
SELECT count(*) FROM pp_mood WHERE m = 'happy' AND id < 10;
SET multi_fdw.dependent_join = off;
CREATE TABLE pp_mood_ids (m text, i int);
INSERT INTO pp_mood_ids VALUES ('ok', 4), ('happy', 5), ('sad', 5);
ANALYZE pp_mood_ids;
SET enable_mergejoin = off;
SET enable_hashjoin = off;
SELECT plan($$SELECT k.i, t.m FROM pp_mood_ids k JOIN pp_mood t ON t.m = k.m AND t.id = k.i$$);
SELECT k.i, t.m FROM pp_mood_ids k JOIN pp_mood t ON t.m = k.m AND t.id = k.i
  ORDER BY 1;
RESET enable_mergejoin;
RESET enable_hashjoin;
SELECT count(*) FROM pp_moods k JOIN pp_mood t ON t.m = k.m;
SELECT count(*) FROM pp_mood a JOIN pp_mood b ON a.m = b.m
  WHERE a.id < 4 AND b.id < 4;
-- a merge join over the remote's sort: the sort is the text's (the
-- column goes cast to text where the remote orders it), or the join would
-- miss rows (0 instead of 1 before)
SELECT count(*) FROM pp_moods k JOIN pp_mood t ON t.m = k.m AND t.id = length(k.m);
SET multi_fdw.dependent_join = on;

-- with Memoize allowed the answers are the same
SET enable_memoize = on;
SET multi_fdw.dependent_join = off;
SELECT count(*), sum(ps.qty) FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.k;

-- without use_remote_estimate there is no estimate of a lookup, and no
-- parameterized path: the key goes as a hash join's, the table read once
ALTER FOREIGN TABLE pp_ps OPTIONS (SET use_remote_estimate 'false');
EXPLAIN (COSTS OFF)
SELECT k.tag, ps.suppkey FROM pp_keys k JOIN pp_ps ps ON ps.partkey = k.k;

-- a correlated subquery run again with a value seen before is answered
-- from the rows kept for it (TPC-H's Q2 asks once per partsupp row, four
-- to a part): 44 outer rows with 7 values (a NULL and a missing key among
-- them), two subqueries, 16 remote statements instead of 88 (the rows are
-- kept from a scan's first rescan on: the first value is read twice)
SET multi_fdw.dependent_join = off;
CREATE TABLE pp_outer AS
  SELECT (g % 5) * 1000 + 1 AS k, g FROM generate_series(1, 40) g;
INSERT INTO pp_outer VALUES (NULL, 41), (NULL, 42), (99999, 43), (99999, 44);
ANALYZE pp_outer;
CREATE FUNCTION pp_here(int) RETURNS int LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN $1; END $$;
CREATE FUNCTION kept(q text) RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ 'Rescans From Kept Rows' THEN
      RETURN NEXT trim(l);
    END IF;
  END LOOP;
END $f$;
SELECT multi_fdw_stats_reset();
SELECT count(*), sum(m), sum(n) FROM (
  SELECT o.g, (SELECT min(ps.cost) FROM pp_ps ps WHERE ps.partkey = o.k) m,
         (SELECT count(*) FROM pp_ps ps WHERE ps.partkey = o.k AND ps.qty > 9) n
  FROM pp_outer o) s;
SELECT statements FROM multi_fdw_stats WHERE server = 'pg_remote';
SELECT count(*), sum(m), sum(n) FROM (
  SELECT o.g, (SELECT min(ps.cost) FROM pp_ps_local ps WHERE ps.partkey = o.k) m,
         (SELECT count(*) FROM pp_ps_local ps WHERE ps.partkey = o.k AND ps.qty > 9) n
  FROM pp_outer o) s;
SELECT kept($$SELECT o.g, (SELECT min(ps.cost) FROM pp_ps ps WHERE ps.partkey = o.k) FROM pp_outer o$$);
-- the rows kept are the remote's: a filter checked here runs on each again
SELECT sum((SELECT count(*) FROM pp_ps ps
            WHERE ps.partkey = o.k AND pp_here(ps.qty) > o.g)) FROM pp_outer o;
SELECT sum((SELECT count(*) FROM pp_ps_local ps
            WHERE ps.partkey = o.k AND pp_here(ps.qty) > o.g)) FROM pp_outer o;
-- EXISTS stops at the first row; the rest of a small answer, which the
-- close would read anyway, is read into the rows kept (8 statements)
SELECT multi_fdw_stats_reset();
SELECT count(*) FILTER (WHERE e), count(*) FROM (
  SELECT EXISTS (SELECT 1 FROM pp_ps ps WHERE ps.partkey = o.k AND pp_here(ps.qty) > 0) e
  FROM pp_outer o) s;
SELECT statements FROM multi_fdw_stats WHERE server = 'pg_remote';
-- past hash_mem new values are read from the remote each time (the 8,000
-- rows of a range do not fit in 64kB), and the answer is the same
SET work_mem = '64kB';
SELECT multi_fdw_stats_reset();
SELECT sum((SELECT sum(pp_here(ps.qty)) FROM pp_ps ps
            WHERE ps.partkey BETWEEN o.k AND o.k + 1999)) FROM pp_outer o;
SELECT statements FROM multi_fdw_stats WHERE server = 'pg_remote';
RESET work_mem;
SELECT multi_fdw_stats_reset();
SELECT sum((SELECT sum(pp_here(ps.qty)) FROM pp_ps ps
            WHERE ps.partkey BETWEEN o.k AND o.k + 1999)) FROM pp_outer o;
SELECT statements FROM multi_fdw_stats WHERE server = 'pg_remote';
SELECT sum((SELECT sum(pp_here(ps.qty)) FROM pp_ps_local ps
            WHERE ps.partkey BETWEEN o.k AND o.k + 1999)) FROM pp_outer o;
-- rows locked by the statement are read anew each time (each read locks)
SELECT multi_fdw_stats_reset();
SELECT count(*), sum(m) FROM (
  SELECT (SELECT min(ps.cost) FROM pp_ps ps WHERE ps.partkey = o.k) m
  FROM pp_outer o FOR UPDATE OF o) s;
SELECT statements FROM multi_fdw_stats WHERE server = 'pg_remote';

-- the rows are kept as the remote sent them and converted when used: a
-- row our column refuses (100000 in a smallint) fails only where a read
-- would, never because a Limit or EXISTS left it unread
SELECT multi_fdw_exec('pg_remote', $$
  DROP TABLE IF EXISTS public.pp_memo;
  CREATE TABLE public.pp_memo (k int, n int, x int, v text);
  INSERT INTO public.pp_memo VALUES (1, 1, 5, 'a'), (1, 2, 100000, 'b'),
    (2, 1, 7, 'c'), (2, 2, 8, 'd')$$);
CREATE FOREIGN TABLE pp_memo (k int, n int, x smallint, v text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pp_memo');
SELECT o.i, (SELECT x FROM pp_memo m WHERE m.k = o.k AND pp_here(m.n) = 1 LIMIT 1)
  FROM (VALUES (1, 1), (2, 2), (3, 1), (4, 2)) o(i, k) ORDER BY o.i;
SELECT o.i, EXISTS (SELECT 1 FROM pp_memo m
                    WHERE m.k = 1 AND m.n < o.k + 5 AND pp_here(m.n) = 1)
  FROM (VALUES (1, 1), (2, 1), (3, 1)) o(i, k) ORDER BY o.i;
-- ... and the row refused is refused again each time it is asked for
SELECT o.i, (SELECT max(x) FROM pp_memo m WHERE m.k = o.k)
  FROM (VALUES (1, 2), (2, 1)) o(i, k);
SELECT o.i, (SELECT max(x) FROM pp_memo m WHERE m.k = o.k)
  FROM (VALUES (1, 2), (2, 2), (3, 1)) o(i, k);
-- a change made through the gateway between two uses drops what was kept:
-- a cursor reads the change after an UPDATE, and not after its rollback
BEGIN;
DECLARE c CURSOR FOR
  SELECT o.i, (SELECT string_agg(v, ',' ORDER BY n) FROM pp_memo m WHERE m.k = o.k)
  FROM (VALUES (1, 1), (2, 2), (3, 1), (4, 2), (5, 1), (6, 2)) o(i, k);
FETCH 2 FROM c;
UPDATE pp_memo SET v = upper(v) WHERE k IN (1, 2) AND n = 1;
FETCH 2 FROM c;
SAVEPOINT s;
UPDATE pp_memo SET v = 'dirty' WHERE k = 1;
ROLLBACK TO s;
FETCH 2 FROM c;
ROLLBACK;
-- a remote object that is volatile itself (a view of nextval()): the
-- table's keep_rescan_rows 'false' reads it anew on each rescan
SELECT multi_fdw_exec('pg_remote', $$
  DROP VIEW IF EXISTS public.pp_seq_v; DROP SEQUENCE IF EXISTS public.pp_seq;
  CREATE SEQUENCE public.pp_seq;
  CREATE VIEW public.pp_seq_v AS
    SELECT g AS k, nextval('public.pp_seq') AS n FROM generate_series(1, 3) g$$);
CREATE FOREIGN TABLE pp_seq_v (k int, n bigint)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pp_seq_v',
                            keep_rescan_rows 'false');
SELECT count(DISTINCT (SELECT n FROM pp_seq_v v WHERE v.k = o.k))
  FROM (VALUES (1, 1), (2, 1), (3, 1), (4, 1)) o(i, k);
ALTER FOREIGN TABLE pp_seq_v OPTIONS (SET keep_rescan_rows 'true');
SELECT count(DISTINCT (SELECT n FROM pp_seq_v v WHERE v.k = o.k))
  FROM (VALUES (1, 1), (2, 1), (3, 1), (4, 1)) o(i, k);
ALTER FOREIGN TABLE pp_seq_v OPTIONS (SET keep_rescan_rows 'maybe');
SELECT multi_fdw_exec('pg_remote', $$DROP VIEW public.pp_seq_v;
  DROP SEQUENCE public.pp_seq; DROP TABLE public.pp_memo$$);

-- A correlated subquery of a table's condition, over a table of the same
-- server under the same user mapping, goes inside the table's remote
-- query: the outer table is r0, the subquery's tables r1.., so a table
-- joined to itself (pp_ps as ps and as x) keeps its two sides apart.
SET multi_fdw.dependent_join = off;
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD
EXPLAIN (VERBOSE, COSTS OFF)
SELECT ps.partkey, ps.suppkey FROM pp_ps ps
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x
                  WHERE x.partkey = ps.partkey AND x.suppkey < ps.suppkey)
    AND ps.partkey < 40;
-- the answers of the same queries over local copies: a grouping's value
-- (an empty group's NULL too), an EXISTS that is no semi join (under OR,
-- on no equality, so not hashed either), and a NOT EXISTS; a scalar
-- subquery that is not an aggregate without GROUP BY stays here (it may
-- have more rows than one, and the remote would run it on rows nothing
-- here reads: under an EXISTS, or a LIMIT kept here)
SELECT ps.partkey, ps.suppkey FROM pp_ps ps
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x
                  WHERE x.partkey = ps.partkey AND x.suppkey < ps.suppkey)
    AND ps.partkey < 40
EXCEPT ALL
SELECT ps.partkey, ps.suppkey FROM pp_ps_local ps
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps_local x
                  WHERE x.partkey = ps.partkey AND x.suppkey < ps.suppkey)
    AND ps.partkey < 40;
SELECT count(*) FROM pp_ps ps
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x
                  WHERE x.partkey = ps.partkey AND x.suppkey < ps.suppkey)
    AND ps.partkey < 40;
SELECT count(*) FROM pp_ps_local ps
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps_local x
                  WHERE x.partkey = ps.partkey AND x.suppkey < ps.suppkey)
    AND ps.partkey < 40;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps
  WHERE ps.partkey < 3000 AND
    ((SELECT p.name FROM pp_part p WHERE p.partkey = ps.partkey) LIKE 'forest%'
     OR (SELECT x.note FROM pp_ps x
         WHERE x.partkey = ps.partkey AND x.suppkey = ps.suppkey) IS NULL);
SELECT count(*) FROM pp_ps ps
  WHERE ps.partkey < 3000 AND
    ((SELECT p.name FROM pp_part p WHERE p.partkey = ps.partkey) LIKE 'forest%'
     OR (SELECT x.note FROM pp_ps x
         WHERE x.partkey = ps.partkey AND x.suppkey = ps.suppkey) IS NULL);
SELECT count(*) FROM pp_ps_local ps
  WHERE ps.partkey < 3000 AND
    ((SELECT p.name FROM pp_part_local p WHERE p.partkey = ps.partkey) LIKE 'forest%'
     OR (SELECT x.note FROM pp_ps_local x
         WHERE x.partkey = ps.partkey AND x.suppkey = ps.suppkey) IS NULL);
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps
  WHERE ps.partkey < 2000 AND (ps.qty > 95 OR
    EXISTS (SELECT 1 FROM pp_part p WHERE p.partkey >= ps.partkey
            AND p.partkey <= ps.partkey AND p.name LIKE 'forest%'));
SELECT count(*) FROM pp_ps ps
  WHERE ps.partkey < 2000 AND (ps.qty > 95 OR
    EXISTS (SELECT 1 FROM pp_part p WHERE p.partkey >= ps.partkey
            AND p.partkey <= ps.partkey AND p.name LIKE 'forest%'));
SELECT count(*) FROM pp_ps_local ps
  WHERE ps.partkey < 2000 AND (ps.qty > 95 OR
    EXISTS (SELECT 1 FROM pp_part_local p WHERE p.partkey >= ps.partkey
            AND p.partkey <= ps.partkey AND p.name LIKE 'forest%'));
SELECT count(*) FROM pp_ps ps
  WHERE ps.partkey < 2000 AND (ps.qty > 95 OR
    NOT EXISTS (SELECT 1 FROM pp_part p WHERE p.partkey >= ps.partkey
                AND p.partkey <= ps.partkey AND p.name LIKE 'plain%'));
SELECT count(*) FROM pp_ps_local ps
  WHERE ps.partkey < 2000 AND (ps.qty > 95 OR
    NOT EXISTS (SELECT 1 FROM pp_part_local p WHERE p.partkey >= ps.partkey
                AND p.partkey <= ps.partkey AND p.name LIKE 'plain%'));
-- stays here: a value the subquery computes from the outer row here
-- (ps.partkey + 1 is sent as a parameter of the subquery's own scan)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps
  WHERE ps.cost < (SELECT x.cost FROM pp_ps x
                   WHERE x.partkey = ps.partkey + 1 AND x.suppkey = ps.suppkey)
    AND ps.partkey < 100;
-- TPC-H's Q17 shape: the subquery reads the outer table's partner (p),
-- a join clause; in a parameterized lookup of pp_ps it goes inside the
-- lookup's query with the partner's value as the parameter
ALTER FOREIGN TABLE pp_ps OPTIONS (SET use_remote_estimate 'true');
SELECT count(*), sum(ps.qty) FROM pp_part p JOIN pp_ps ps ON ps.partkey = p.partkey
  WHERE p.name LIKE 'forest%'
    AND ps.qty < (SELECT 0.9 * avg(x.qty) FROM pp_ps x WHERE x.partkey = p.partkey);
SELECT count(*), sum(ps.qty) FROM pp_part_local p JOIN pp_ps_local ps ON ps.partkey = p.partkey
  WHERE p.name LIKE 'forest%'
    AND ps.qty < (SELECT 0.9 * avg(x.qty) FROM pp_ps_local x WHERE x.partkey = p.partkey);
-- and beside a join clause checked here (pp_here), the subquery is
-- checked here too, on a column (cost) nothing else reads
SELECT count(*), sum(ps.qty) FROM pp_part p JOIN pp_ps ps
    ON ps.partkey = p.partkey AND pp_here(ps.suppkey) <> p.partkey % 4
  WHERE p.name LIKE 'forest%'
    AND ps.cost > (SELECT 0.5 * avg(x.cost) FROM pp_ps x WHERE x.partkey = ps.partkey);
SELECT count(*), sum(ps.qty) FROM pp_part_local p JOIN pp_ps_local ps
    ON ps.partkey = p.partkey AND pp_here(ps.suppkey) <> p.partkey % 4
  WHERE p.name LIKE 'forest%'
    AND ps.cost > (SELECT 0.5 * avg(x.cost) FROM pp_ps_local x WHERE x.partkey = ps.partkey);
ALTER FOREIGN TABLE pp_ps OPTIONS (SET use_remote_estimate 'false');
-- a scalar subquery of more than one row fails here (21000)
\set VERBOSITY sqlstate
SELECT count(*) FROM pp_ps ps
  WHERE ps.cost < (SELECT x.cost FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
SELECT count(*) FROM pp_ps_local ps
  WHERE ps.cost < (SELECT x.cost FROM pp_ps_local x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
\set VERBOSITY default
-- stays here: a subquery with a constant holding the nested form's mark
-- (chr(1)), a subquery over another server (even of the same remote), a
-- subquery with a value computed here, a table that is locked, updated,
-- or joined on the remote
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps
  WHERE ps.qty > (SELECT sum(x.qty) FROM pp_ps x
                  WHERE x.partkey = ps.partkey AND x.note <> chr(1) || '1' || chr(1))
    AND ps.partkey < 10;
CREATE SERVER pp_other FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER pp_other
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE FOREIGN TABLE pp_part_other (partkey int, name text)
  SERVER pp_other OPTIONS (schema_name 'public', table_name 'pp_part');
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps
  WHERE ps.partkey < 2000 AND ps.suppkey <= (SELECT count(*) FROM pp_part_other p
    WHERE p.partkey >= ps.partkey AND p.partkey <= ps.partkey
      AND p.name LIKE 'forest%');
SELECT count(*) FROM pp_ps ps
  WHERE ps.partkey < 2000 AND ps.suppkey <= (SELECT count(*) FROM pp_part_other p
    WHERE p.partkey >= ps.partkey AND p.partkey <= ps.partkey
      AND p.name LIKE 'forest%');
SELECT count(*) FROM pp_ps_local ps
  WHERE ps.partkey < 2000 AND ps.suppkey <= (SELECT count(*) FROM pp_part_local p
    WHERE p.partkey >= ps.partkey AND p.partkey <= ps.partkey
      AND p.name LIKE 'forest%');
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps
  WHERE ps.qty > (SELECT pp_here(sum(x.qty)::int) FROM pp_ps x
                  WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT ps.suppkey FROM pp_ps ps
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10 FOR UPDATE;
BEGIN;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE pp_ps ps SET note = note || '!'
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
UPDATE pp_ps ps SET note = note || '!'
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
ROLLBACK;
SELECT count(*) FROM pp_ps_local ps
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps_local x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps JOIN pp_part p ON p.partkey = ps.partkey
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
SELECT count(*) FROM pp_ps ps JOIN pp_part p ON p.partkey = ps.partkey
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
SELECT count(*) FROM pp_ps_local ps JOIN pp_part_local p ON p.partkey = ps.partkey
  WHERE ps.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps_local x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 10;
-- stays here: a subquery of another user than the outer table's (read
-- through a view of another owner: the executor picks each scan's user
-- mapping by its user, whoever plans), a text value from the outer row
-- (the remote column may be char(n), compared without trailing blanks),
-- and a table with a condition checked here (the subquery would run on
-- rows that condition rejects: here, a subquery of two rows)
CREATE ROLE regress_pp_owner;
GRANT USAGE ON SCHEMA param TO regress_pp_owner;
GRANT SELECT ON pp_ps TO regress_pp_owner;
GRANT USAGE ON FOREIGN SERVER pg_remote TO regress_pp_owner;
CREATE USER MAPPING FOR regress_pp_owner SERVER pg_remote
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE VIEW pp_ps_v AS SELECT * FROM pp_ps;
ALTER VIEW pp_ps_v OWNER TO regress_pp_owner;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps_v v
  WHERE v.qty > (SELECT 0.5 * sum(x.qty) FROM pp_ps x WHERE x.partkey = v.partkey)
    AND v.partkey < 10;
DROP VIEW pp_ps_v;
DROP USER MAPPING FOR regress_pp_owner SERVER pg_remote;
REVOKE ALL ON pp_ps FROM regress_pp_owner;
REVOKE ALL ON SCHEMA param FROM regress_pp_owner;
REVOKE ALL ON FOREIGN SERVER pg_remote FROM regress_pp_owner;
DROP ROLE regress_pp_owner;
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.pp_o2 (k int, c char(3));
  CREATE TABLE public.pp_i2 (k int, c text);
  INSERT INTO public.pp_o2 VALUES (1, 'a'), (2, 'b');
  INSERT INTO public.pp_i2 VALUES (1, 'a  '), (2, 'b')$$);
CREATE FOREIGN TABLE pp_o2 (k int, c text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pp_o2');
CREATE FOREIGN TABLE pp_i2 (k int, c text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pp_i2');
SELECT k FROM pp_o2 o WHERE 1 = (SELECT count(*) FROM pp_i2 i WHERE i.c = o.c)
  ORDER BY k;
CREATE TABLE pp_o2_local AS SELECT * FROM pp_o2;
CREATE TABLE pp_i2_local AS SELECT * FROM pp_i2;
SELECT k FROM pp_o2_local o
  WHERE 1 = (SELECT count(*) FROM pp_i2_local i WHERE i.c = o.c) ORDER BY k;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.pp_o2, public.pp_i2$$);
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM pp_ps ps
  WHERE pp_here(ps.partkey) NOT IN (1, 5)
    AND ps.cost = (SELECT x.cost FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 7;
SELECT count(*) FROM pp_ps ps
  WHERE pp_here(ps.partkey) > 100
    AND ps.cost = (SELECT x.cost FROM pp_ps x WHERE x.partkey = ps.partkey)
    AND ps.partkey < 7;
DROP FOREIGN TABLE pp_part_other;
DROP USER MAPPING FOR CURRENT_USER SERVER pp_other;
DROP SERVER pp_other;

-- JIT is judged on the gateway's own share of a plan's cost: a plan whose
-- cost is the remote's work (the remote statements of a correlated
-- subquery, each costed as one) is not compiled, where a local plan over
-- the same threshold is.  Where this server cannot compile at all
-- (PostgreSQL built without LLVM), both lines say true regardless.
CREATE FUNCTION pp_jit_used(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  j jsonb;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || q INTO j;
  RETURN (j -> 0) ? 'JIT';
END $$;
SET jit = on;
SET jit_above_cost = 5000;
SET jit_optimize_above_cost = -1;
SET jit_inline_above_cost = -1;
SELECT NOT pg_jit_available() OR NOT pp_jit_used($$
  SELECT count(*) FROM pp_part p
   WHERE p.partkey < (SELECT max(ps.qty) FROM pp_ps ps
                       WHERE ps.partkey = p.partkey AND ps.note <> p.name)$$)
  AS remote_work_not_compiled;
SELECT NOT pg_jit_available() OR pp_jit_used($$
  SELECT count(*) FROM generate_series(1, 400000) g WHERE g % 7 = 3$$)
  AS local_work_compiled;
RESET jit_above_cost;
RESET jit_optimize_above_cost;
RESET jit_inline_above_cost;
RESET jit;
DROP FUNCTION pp_jit_used(text);

RESET enable_memoize;
RESET multi_fdw.dependent_join;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.pp_ps, public.pp_part, public.pp_mood;
  DROP TYPE public.pp_mood_t$$);
DROP SCHEMA param CASCADE;
