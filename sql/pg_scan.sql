--
-- pg_scan: reading through pg_remote.  The remote tables are made with
-- multi_fdw_exec; the remote session's search_path is pg_catalog, so every
-- name there is qualified.  The remote database outlives pg_regress's, so
-- each run starts by dropping what an earlier run left.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.scan_t, public.scan_grp$$);
SELECT multi_fdw_exec('pg_remote', $$DROP SCHEMA IF EXISTS "Scan Schema" CASCADE$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.scan_t (id int PRIMARY KEY, grp int, name text, val numeric,
                              ts timestamptz, d date)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.scan_t
  SELECT i, i % 7, CASE WHEN i % 10 = 0 THEN NULL ELSE 'n' || i END, i * 1.5,
         '2024-01-01 00:00:00+00'::timestamptz + i * interval '1 hour',
         date '2024-01-01' + i
    FROM generate_series(1, 100) i$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.scan_grp (grp int, label text)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.scan_grp VALUES (0, 'zero'), (1, 'one'), (2, 'two'), (3, NULL)$$);
SELECT multi_fdw_exec('pg_remote', $$CREATE SCHEMA "Scan Schema"$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE "Scan Schema"."Odd Table" ("Key" int, "Mixed Case" text, "a""b" text)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO "Scan Schema"."Odd Table" VALUES (1, 'one', 'x'), (2, '', NULL),
                                               (3, NULL, 'z')$$);

CREATE FOREIGN TABLE scan_t (id int, grp int, name text, val numeric,
                             ts timestamptz, d date)
  SERVER pg_remote OPTIONS (fetch_size '7');
CREATE FOREIGN TABLE scan_grp (grp int, label text) SERVER pg_remote;
-- a local copy to compare with
CREATE TABLE scan_copy AS SELECT * FROM scan_t;

-- ===================================================================
-- every row once, fetch_size rows at a time (counted here: pushdown
-- 'false' keeps the aggregates from being computed remotely)
-- ===================================================================
ALTER FOREIGN TABLE scan_t OPTIONS (ADD pushdown 'false');
SELECT count(*), count(DISTINCT id), sum(id), min(id), max(id) FROM scan_t;
SELECT count(*) AS missing_or_extra
  FROM scan_t s FULL JOIN generate_series(1, 100) g(i) ON s.id = g.i
 WHERE s.id IS NULL OR g.i IS NULL;
ALTER FOREIGN TABLE scan_t OPTIONS (SET fetch_size '1');
SELECT count(*), sum(id) FROM scan_t;
ALTER FOREIGN TABLE scan_t OPTIONS (SET fetch_size '100');
SELECT count(*), sum(id) FROM scan_t;
ALTER FOREIGN TABLE scan_t OPTIONS (SET fetch_size '7');
ALTER FOREIGN TABLE scan_t OPTIONS (DROP pushdown);
-- the values survive the trip
SELECT * FROM scan_t WHERE id IN (1, 10, 99) ORDER BY id;
SELECT (SELECT array_agg(t ORDER BY id) FROM scan_t t)::text =
       (SELECT array_agg(c ORDER BY id) FROM scan_copy c)::text AS same_rows;

-- ===================================================================
-- pushed and local conditions give the answers the local copy gives
-- ===================================================================
CREATE FUNCTION scan_agree(cond text, OUT nrows bigint, OUT same boolean,
                           OUT pushed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  remote_ids int[];
  local_ids int[];
  line text;
BEGIN
  EXECUTE 'SELECT array_agg(id ORDER BY id) FROM scan_t WHERE ' || cond INTO remote_ids;
  EXECUTE 'SELECT array_agg(id ORDER BY id) FROM scan_copy WHERE ' || cond INTO local_ids;
  nrows := coalesce(cardinality(remote_ids), 0);
  same := remote_ids IS NOT DISTINCT FROM local_ids;
  pushed := false;
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM scan_t WHERE ' || cond LOOP
    IF line ~ 'Remote SQL: .* WHERE ' THEN
      pushed := true;
    END IF;
  END LOOP;
END
$$;
SELECT cond, (scan_agree(cond)).*
  FROM (VALUES ('grp = 3'),
               ('name IS NULL'),
               ('name IS NOT NULL AND val > 100'),
               ('grp = 1 OR grp = 2 OR name IS NULL'),
               ('NOT (grp = 1 OR grp = 2)'),
               ('NOT (name = ''n5'')'),
               ('id IN (1, 5, 50, 500)'),
               ('name IN (''n1'', ''n2'', ''x'')'),
               ('name LIKE ''n1%'''),
               ('val = 1.5 * grp'),
               ('val > 10.25 AND val <= 30'),
               ('ts > ''2024-01-03 00:00:00+00'''),
               ('d BETWEEN ''2024-02-01'' AND ''2024-02-10'''),
               ('ts < now() - interval ''1 year'''),
               ('d > current_date - 36500'),
               ('md5(name) < ''8'''),
               ('name = ''n5'' COLLATE "C"'),
               ('grp <> 0 AND random() >= 0'),
               ('abs(grp - 3) = 1')) v(cond);
-- the same under another DateStyle and time zone: values still mean the same
SET datestyle = 'SQL, DMY';
SET timezone = 'Asia/Tokyo';
SELECT cond, (scan_agree(cond)).*
  FROM (VALUES ('d = ''2024-02-01'''),
               ('d < ''05/01/2024'''),
               ('ts >= ''2024-01-02 09:00:00+09'''),
               ('ts > now() - interval ''100 years''')) v(cond);
SELECT id, ts, d FROM scan_t WHERE id = 31;
RESET datestyle;
RESET timezone;
-- x NOT IN (...) is x <> ALL (...)
SELECT count(*) FROM scan_t WHERE id NOT IN (1, 2, 3);
SELECT count(*) FROM scan_t WHERE name <> ALL (ARRAY['n1', 'n2']);

-- ===================================================================
-- joins
-- ===================================================================
-- two foreign tables
SELECT g.label, count(*) AS n, sum(t.id) AS ids
  FROM scan_t t JOIN scan_grp g ON t.grp = g.grp
 GROUP BY g.label ORDER BY g.label NULLS FIRST;
-- a foreign and a local table
CREATE TABLE scan_local (grp int, note text);
INSERT INTO scan_local VALUES (4, 'four'), (5, 'five'), (9, 'nine');
SELECT l.note, count(t.id) AS n
  FROM scan_local l LEFT JOIN scan_t t ON t.grp = l.grp
 GROUP BY l.note ORDER BY l.note;
-- one foreign table twice: two cursors on one connection, interleaved
SELECT count(*), sum(a.id) FROM scan_t a JOIN scan_t b ON a.id = b.id + 1;
SELECT count(*) FROM scan_t a JOIN scan_t b ON a.grp = b.grp AND a.id < b.id;
SELECT count(*) AS connections FROM multi_fdw_get_connections();

-- ===================================================================
-- rescans
-- ===================================================================
-- a correlated subquery: a new parameter for each outer row, while the
-- outer scan's own cursor is half read
SELECT a.id, (SELECT b.name FROM scan_t b WHERE b.id = a.id + 1) AS next_name
  FROM scan_t a WHERE a.id % 20 = 5 ORDER BY a.id;
-- a prepared statement's parameter, in a generic plan
PREPARE scan_prep(int) AS SELECT count(*), min(id) FROM scan_t WHERE grp = $1;
SET plan_cache_mode = force_generic_plan;
EXECUTE scan_prep(3);
EXECUTE scan_prep(6);
EXECUTE scan_prep(NULL);
-- a parameter used twice and numbered out of order: libpq's markers are
-- numbered, so the one used twice is written twice as the same number
PREPARE scan_prep2(int, int) AS
  SELECT count(*), min(id), max(id) FROM scan_t
   WHERE id < $2 AND (grp = $1 OR id = $1 * 10 OR id = $1);
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE scan_prep2(3, 50);
EXECUTE scan_prep2(3, 50);
SELECT count(*), min(id), max(id) FROM scan_copy
 WHERE id < 50 AND (grp = 3 OR id = 30 OR id = 3);
DEALLOCATE scan_prep2;
RESET plan_cache_mode;
DEALLOCATE scan_prep;
-- LATERAL, with a LIMIT that leaves each inner scan unfinished
SELECT l.grp, s.id
  FROM scan_local l,
       LATERAL (SELECT id FROM scan_t WHERE grp = l.grp ORDER BY id LIMIT 2) s
 ORDER BY l.grp, s.id;
SELECT l.grp, s.n
  FROM scan_local l,
       LATERAL (SELECT count(*) AS n FROM scan_t WHERE grp = l.grp OFFSET 0) s
 ORDER BY l.grp;
-- pulled up into a join: the condition on l.grp is checked here
SELECT l.grp, s.id
  FROM scan_local l, LATERAL (SELECT id FROM scan_t WHERE grp = l.grp AND id < 20) s
 ORDER BY l.grp, s.id;
-- a nested loop that rescans the inner foreign scan without parameters:
-- the rows of its first rescan are kept, and the next rescans use them
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SELECT public.mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
  SELECT count(*) FROM scan_local l LEFT JOIN scan_grp g ON g.grp < l.grp$$);
SELECT l.grp, count(g.grp), string_agg(g.label, ',' ORDER BY g.grp)
  FROM scan_local l LEFT JOIN scan_grp g ON g.grp < l.grp GROUP BY l.grp ORDER BY 1;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- ===================================================================
-- ORDER BY and LIMIT are done here
-- ===================================================================
SELECT id, name, val FROM scan_t ORDER BY val DESC LIMIT 3;
SELECT id FROM scan_t WHERE grp = 6 ORDER BY id OFFSET 2 LIMIT 3;
SELECT name FROM scan_t ORDER BY name DESC NULLS LAST LIMIT 2;

-- ===================================================================
-- column_name, schema_name, table_name; NULLs and empty strings
-- ===================================================================
CREATE FOREIGN TABLE scan_named (ident int OPTIONS (column_name 'id'),
                                 label text OPTIONS (column_name 'name'))
  SERVER pg_remote OPTIONS (table_name 'scan_t');
EXPLAIN (VERBOSE, COSTS OFF) SELECT label FROM scan_named WHERE ident < 4;
SELECT label FROM scan_named WHERE ident < 4 ORDER BY ident;
CREATE FOREIGN TABLE scan_odd (k int OPTIONS (column_name 'Key'),
                               "Mixed Case" text, ab text OPTIONS (column_name 'a"b'))
  SERVER pg_remote OPTIONS (schema_name 'Scan Schema', table_name 'Odd Table');
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM scan_odd WHERE "Mixed Case" IS NOT NULL;
SELECT k, "Mixed Case", "Mixed Case" IS NULL AS mc_null, ab, ab IS NULL AS ab_null
  FROM scan_odd ORDER BY k;
SELECT count(*) FILTER (WHERE name IS NULL) AS null_names,
       count(*) FILTER (WHERE name = '') AS empty_names FROM scan_t;
-- a parameter that is NULL matches nothing
SELECT count(*) FROM scan_t WHERE id = (SELECT NULL::int);
SELECT count(*) FROM scan_t WHERE name = (SELECT 'n5');
-- a remote value that does not fit the local type
CREATE FOREIGN TABLE scan_badtype (id int, name int) SERVER pg_remote
  OPTIONS (table_name 'scan_t');
SELECT * FROM scan_badtype WHERE id = 1;
-- a scan that fails half way in a subtransaction leaves the connection usable
BEGIN;
SAVEPOINT s;
SELECT * FROM scan_badtype;
ROLLBACK TO SAVEPOINT s;
SELECT count(*) FROM scan_t;
COMMIT;
-- a local cursor over a foreign scan (7 rows a fetch), with other scans in
-- between; the remote table was filled in id order
BEGIN;
DECLARE scan_cur CURSOR FOR SELECT id FROM scan_t;
FETCH 2 FROM scan_cur;
SELECT count(*) FROM scan_t WHERE grp = 1;
FETCH 10 FROM scan_cur;
SELECT count(*) FROM scan_grp;
FETCH 3 FROM scan_cur;
COMMIT;

-- ===================================================================
-- ANALYZE
-- ===================================================================
SELECT reltuples FROM pg_class WHERE oid = 'scan_t'::regclass;
-- (not VERBOSE: since 18 it reports buffer and WAL figures that vary;
-- reltuples and the statistics below show the sample)
ANALYZE scan_t;
SELECT reltuples FROM pg_class WHERE oid = 'scan_t'::regclass;
SELECT attname, null_frac, n_distinct FROM pg_stats
 WHERE schemaname = 'public' AND tablename = 'scan_t' ORDER BY attname;
-- the planner's estimates follow
CREATE FUNCTION scan_rows(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
  RETURN plan->0->'Plan'->>'Plan Rows';
END
$$;
SELECT scan_rows('SELECT * FROM scan_t') AS all_rows,
       scan_rows('SELECT * FROM scan_t WHERE grp = 3') AS grp_3,
       scan_rows('SELECT * FROM scan_t WHERE name IS NULL') AS null_name;
ANALYZE scan_odd;
SELECT attname, null_frac FROM pg_stats
 WHERE schemaname = 'public' AND tablename = 'scan_odd' ORDER BY attname;

-- ===================================================================
-- inside a transaction, a scan sees the transaction's own changes
-- ===================================================================
BEGIN;
INSERT INTO scan_t (id, grp, name) VALUES (101, 0, 'new one'), (102, 0, 'new two');
SELECT multi_fdw_exec('pg_remote', $$UPDATE public.scan_t SET name = 'changed' WHERE id = 1$$);
SELECT count(*), max(id) FROM scan_t;
SELECT id, name FROM scan_t WHERE id IN (1, 101, 102) ORDER BY id;
SELECT t.id, g.label FROM scan_t t JOIN scan_grp g USING (grp) WHERE t.id > 100 ORDER BY 1;
ROLLBACK;
SELECT count(*), max(id) FROM scan_t;
SELECT name FROM scan_t WHERE id = 1;
-- and a savepoint rolled back takes its rows away again
BEGIN;
INSERT INTO scan_t (id, grp) VALUES (103, 0);
SAVEPOINT s;
INSERT INTO scan_t (id, grp) VALUES (104, 0);
SELECT array_agg(id ORDER BY id) FROM scan_t WHERE id > 100;
ROLLBACK TO SAVEPOINT s;
SELECT array_agg(id ORDER BY id) FROM scan_t WHERE id > 100;
ROLLBACK;

-- ===================================================================
-- LIMIT: sent to the remote only when the scan's rows go straight to it
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM scan_t LIMIT 3;
SELECT count(*) FROM (SELECT id FROM scan_t LIMIT 3) s;
-- with OFFSET the remote stops at LIMIT + OFFSET rows
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM scan_t WHERE grp = 1 LIMIT 2 OFFSET 5;
SELECT count(*) FROM (SELECT id FROM scan_t WHERE grp = 1 LIMIT 2 OFFSET 5) s;
-- not when something in between needs every row: a local condition, a
-- join with a local relation, a local aggregate or DISTINCT, row locking
-- (ORDER BY, aggregates and joins of one server's tables now go with the
-- LIMIT: see pg_pushdown, pg_join)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM scan_t ORDER BY id LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM scan_t WHERE random() >= 0 LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT t.id FROM scan_t t JOIN (VALUES (1), (2)) g(grp) USING (grp) LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT t.id FROM scan_t t JOIN scan_grp g USING (grp) LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM scan_t LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT grp FROM scan_t LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM scan_t LIMIT 3 FOR UPDATE;
-- a limit that is not a constant stays local
SELECT public.mf_explain($$EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM scan_t LIMIT (SELECT 2)$$);

-- ===================================================================
-- small results: no cursor, the rows read off the wire a batch at a time
-- ===================================================================
-- ANALYZE saw 5 rows, so every scan of scan_small is planned as one fetch
-- of 10; the remote then gets 1,000, read 10 at a time in one exchange
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.scan_small$$);
SELECT multi_fdw_exec('pg_remote', $$CREATE TABLE public.scan_small (id int, pad text)$$);
SELECT multi_fdw_exec('pg_remote', $$INSERT INTO public.scan_small
  SELECT i, repeat('x', i % 50) FROM generate_series(1, 5) i$$);
CREATE FOREIGN TABLE scan_small (id int, pad text) SERVER pg_remote
  OPTIONS (fetch_size '10', pushdown 'false');
ANALYZE scan_small;
SELECT multi_fdw_exec('pg_remote', $$INSERT INTO public.scan_small
  SELECT i, repeat('x', i % 50) FROM generate_series(6, 1000) i$$);
SELECT public.mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
  SELECT * FROM scan_small$$);
SELECT count(*), sum(id), sum(length(pad)) FROM scan_small;
-- another scan needs the connection half-way: the rest is read into
-- memory first, and handed over in order
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SELECT count(*), sum(s.id), sum(t.id)
  FROM scan_small s JOIN scan_t t ON t.grp = s.id % 7 WHERE s.id <= 25;
SELECT count(*), sum(s.id), sum(t.id)
  FROM scan_small s JOIN scan_small t ON t.id = s.id + 500 WHERE s.id <= 30;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;
-- closed before its end: the rest is read and dropped, the connection
-- and the transaction go on
BEGIN;
SELECT id FROM scan_small LIMIT 3;
SELECT count(*) FROM scan_small WHERE id > 990;
COMMIT;
-- an error after rows have come is the scan's error; the next
-- transaction is clean
SELECT count(*) FROM scan_small WHERE 1000 / (id - 600) > -2000;
SELECT count(*) FROM scan_small WHERE id < 600;
-- a local error while rows are still on the wire: the remote command
-- is stopped and the transaction rolled back
CREATE FUNCTION scan_fail_at(v int) RETURNS int LANGUAGE plpgsql AS
$$BEGIN IF v = 20 THEN RAISE EXCEPTION 'stop at %', v; END IF; RETURN v; END$$;
SELECT sum(scan_fail_at(id)) FROM scan_small;
BEGIN;
SELECT count(*) FROM scan_small;
SELECT sum(scan_fail_at(id)) FROM scan_small;
ROLLBACK;
SELECT count(*), max(id) FROM scan_small;
-- with parameters (a generic plan): an extended-protocol request, in a
-- pipeline behind the transaction's begin when it is the first
SET plan_cache_mode = force_generic_plan;
PREPARE scan_small_q(int) AS
  SELECT count(*), sum(s.id), sum(t.id)
    FROM scan_small s JOIN scan_t t ON t.grp = s.id % 7 WHERE s.id <= $1;
PREPARE scan_small_div(int) AS
  SELECT count(*) FROM scan_small WHERE 1000 / (id - $1) > -2000;
BEGIN;
EXECUTE scan_small_q(25);
EXECUTE scan_small_q(25);
COMMIT;
BEGIN;
EXECUTE scan_small_div(600);
ROLLBACK;
BEGIN;
SELECT count(*) FROM scan_small WHERE id > 990;
EXECUTE scan_small_div(2000);
COMMIT;
DEALLOCATE scan_small_q;
DEALLOCATE scan_small_div;
RESET plan_cache_mode;
DROP FUNCTION scan_fail_at(int);
DROP FOREIGN TABLE scan_small;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.scan_small$$);

-- ===================================================================
-- clean up
-- ===================================================================
DROP FOREIGN TABLE scan_t, scan_grp, scan_named, scan_odd, scan_badtype;
DROP TABLE scan_copy, scan_local;
DROP FUNCTION scan_agree(text);
DROP FUNCTION scan_rows(text);
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.scan_t, public.scan_grp$$);
SELECT multi_fdw_exec('pg_remote', $$DROP SCHEMA "Scan Schema" CASCADE$$);
