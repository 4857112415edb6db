--
-- pg_whole: a query whose every relation is a foreign table of one server,
-- read as one user, and every part of which the remote computes, goes as
-- one remote statement: joins, EXISTS and IN as semi and anti joins,
-- correlated and uncorrelated subqueries, derived tables, views, GROUP BY,
-- HAVING, ORDER BY, LIMIT.  Every answer is compared with the same query
-- on local copies of the data.
--
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.wq_c, public.wq_o, public.wq_n$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.wq_c (id int PRIMARY KEY, name text, grp int, nation int)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.wq_o (id int PRIMARY KEY, cid int, amount numeric(10,2),
                            d date, status char(1))$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.wq_n (k int, name text)$$);
-- NULLs everywhere a join, IN or NOT IN could meet one
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.wq_c
  SELECT g, CASE WHEN g % 9 = 0 THEN NULL ELSE 'c' || g END,
         CASE WHEN g % 7 = 0 THEN NULL ELSE g % 4 END,
         CASE WHEN g % 11 = 0 THEN NULL ELSE g % 5 END
    FROM generate_series(1, 60) g;
  INSERT INTO public.wq_o
  SELECT g, CASE WHEN g % 13 = 0 THEN NULL ELSE g % 70 END,
         CASE WHEN g % 8 = 0 THEN NULL ELSE (g * 37 % 500) / 4.0 END,
         date '2024-01-01' + g % 40,
         (ARRAY['F', 'O', 'P', NULL])[g % 4 + 1]
    FROM generate_series(1, 300) g;
  INSERT INTO public.wq_n VALUES (0, 'zero'), (1, 'one'), (2, 'two'),
    (3, NULL), (NULL, 'none')$$);

CREATE FOREIGN TABLE wq_c (id int, name text, grp int, nation int)
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE FOREIGN TABLE wq_o (id int, cid int, amount numeric(10,2), d date,
                           status char(1))
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE FOREIGN TABLE wq_n (k int, name text)
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE TABLE lq_c AS SELECT * FROM wq_c;
CREATE TABLE lq_o AS SELECT * FROM wq_o;
CREATE TABLE lq_n AS SELECT * FROM wq_n;
ANALYZE wq_c, wq_o, wq_n, lq_c, lq_o, lq_n;

-- q on the foreign tables and on the copies: the same rows (in the same
-- order when ordered), and whether q went whole
CREATE FUNCTION wq_agree(q text, ordered boolean DEFAULT false,
                         OUT same boolean, OUT whole boolean)
LANGUAGE sql AS $$
  SELECT same, coalesce(relations LIKE 'Query on %', false)
    FROM mf_agree(q, replace(q, 'wq_', 'lq_'), ordered)
$$;

-- ===================================================================
-- what goes whole
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT c.grp, count(*), sum(o.amount) FROM wq_c c JOIN wq_o o ON o.cid = c.id
   WHERE o.d < '2024-01-20' GROUP BY c.grp HAVING count(*) > 2
   ORDER BY 3 DESC NULLS LAST, 1 LIMIT 3;
-- EXISTS and NOT EXISTS: the planner's semi and anti joins, as EXISTS
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT c.id FROM wq_c c
   WHERE EXISTS (SELECT 1 FROM wq_o o WHERE o.cid = c.id AND o.status = 'F')
     AND NOT EXISTS (SELECT 1 FROM wq_o o WHERE o.cid = c.id AND o.amount > 100);
-- a correlated scalar subquery, with its outer column in place
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT o.id FROM wq_o o
   WHERE o.amount > (SELECT avg(o2.amount) FROM wq_o o2 WHERE o2.cid = o.cid);
-- an uncorrelated one (an initplan) inside the statement too
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT count(*) FROM wq_o WHERE amount > (SELECT avg(amount) FROM wq_o);
-- a derived table the planner keeps (its GROUP BY), as its planned form
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT n, count(*) FROM (SELECT c.id, count(o.id) FROM wq_c c
                             LEFT JOIN wq_o o ON o.cid = c.id GROUP BY c.id) s (id, n)
   GROUP BY n ORDER BY 2 DESC, 1;

SELECT q, (wq_agree(q, ordered)).*
  FROM (VALUES
    ($$SELECT c.grp, count(*), sum(o.amount) FROM wq_c c JOIN wq_o o ON o.cid = c.id
       WHERE o.d < '2024-01-20' GROUP BY c.grp HAVING count(*) > 2
       ORDER BY 3 DESC NULLS LAST, 1 LIMIT 3$$, true),
    ($$SELECT c.id, o.id FROM wq_c c LEFT JOIN wq_o o ON o.cid = c.id AND o.status = 'O'$$, false),
    ($$SELECT c.id, o.id FROM wq_c c FULL JOIN wq_o o ON o.cid = c.id$$, false),
    ($$SELECT c.id, o.id FROM wq_o o RIGHT JOIN wq_c c ON o.cid = c.id WHERE c.grp = 1$$, false),
    ($$SELECT c.id FROM wq_c c
       WHERE EXISTS (SELECT 1 FROM wq_o o WHERE o.cid = c.id AND o.status = 'F')
         AND NOT EXISTS (SELECT 1 FROM wq_o o WHERE o.cid = c.id AND o.amount > 100)$$, false),
    ($$SELECT id FROM wq_c WHERE nation IN (SELECT k FROM wq_n)$$, false),
    -- NOT IN with a NULL among the values: no row
    ($$SELECT id FROM wq_c WHERE nation NOT IN (SELECT k FROM wq_n)$$, false),
    ($$SELECT id FROM wq_c WHERE nation NOT IN (SELECT k FROM wq_n WHERE k IS NOT NULL)$$, false),
    ($$SELECT o.id FROM wq_o o
       WHERE o.amount > (SELECT avg(o2.amount) FROM wq_o o2 WHERE o2.cid = o.cid)$$, false),
    ($$SELECT count(*) FROM wq_o WHERE amount > (SELECT avg(amount) FROM wq_o)$$, false),
    ($$SELECT id, (SELECT max(amount) FROM wq_o WHERE cid = c.id) FROM wq_c c$$, false),
    ($$SELECT n, count(*) FROM (SELECT c.id, count(o.id) FROM wq_c c
                                 LEFT JOIN wq_o o ON o.cid = c.id GROUP BY c.id) s (id, n)
       GROUP BY n ORDER BY 2 DESC, 1$$, true),
    -- two levels of subqueries, the inner one correlated with the middle one
    ($$SELECT c.id FROM wq_c c WHERE c.id IN
        (SELECT o.cid FROM wq_o o WHERE o.amount >
           (SELECT 0.5 * avg(o2.amount) FROM wq_o o2 WHERE o2.status = o.status))$$, false),
    ($$SELECT DISTINCT grp, nation FROM wq_c$$, false),
    ($$SELECT status, d FROM wq_o ORDER BY status NULLS FIRST, d DESC, id LIMIT 7 OFFSET 3$$, true),
    ($$SELECT c.name, n.name FROM wq_c c, wq_n n WHERE c.nation = n.k AND c.grp <> 2$$, false),
    ($$SELECT extract(dow FROM d), count(*),
              sum(CASE WHEN status = 'F' THEN amount ELSE 0 END) FROM wq_o
       GROUP BY 1 ORDER BY 1$$, true),
    -- a stable value, computed here once and sent as a parameter
    ($$SELECT count(*) FROM wq_o WHERE d > current_date - 36500$$, false)
  ) v(q, ordered);

-- a view of the same server, as its owner (here the current user)
CREATE VIEW wq_v (cid, total) AS SELECT cid, sum(amount) FROM wq_o GROUP BY cid;
CREATE VIEW lq_v (cid, total) AS SELECT cid, sum(amount) FROM lq_o GROUP BY cid;
SELECT * FROM wq_agree($$SELECT c.name, v.total FROM wq_c c, wq_v v WHERE v.cid = c.id
  AND v.total = (SELECT max(total) FROM wq_v)$$);

-- a parameter of a generic plan goes as one
SET plan_cache_mode = force_generic_plan;
PREPARE wq_p(int) AS SELECT count(*) FROM wq_o o JOIN wq_c c ON c.id = o.cid WHERE c.grp = $1;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE wq_p(1);
EXECUTE wq_p(1);
SELECT count(*) FROM lq_o o JOIN lq_c c ON c.id = o.cid WHERE c.grp = 1;
DEALLOCATE wq_p;
RESET plan_cache_mode;

-- an error of the remote's names its statement
SELECT count(*) FROM wq_o WHERE amount / (id - 5) > 0;

-- ===================================================================
-- found by review: each of these went wrong once
-- ===================================================================
SELECT q, (wq_agree(q, ordered)).*
  FROM (VALUES
    -- a select list entry that is a value sent (it was fixed into a
    -- reference to the scan's row, and computed before there was one)
    ($$SELECT current_date IS NOT NULL, id FROM wq_c$$, false),
    -- one group without GROUP BY: a HAVING folded away, an aggregate
    -- under EXISTS, a scalar subquery's HAVING
    ($$SELECT 1 FROM wq_c HAVING true$$, false),
    ($$SELECT 1 FROM wq_c WHERE id > 1000 HAVING 1 = 1$$, false),
    ($$SELECT id FROM wq_c c WHERE EXISTS (SELECT max(amount) FROM wq_o o WHERE o.cid = c.id + 1000)$$, false),
    ($$SELECT id, (SELECT 1 FROM wq_o o WHERE o.cid = c.id + 1000 HAVING true) FROM wq_c c$$, false),
    -- a LEFT JOIN the planner made an anti join, whose WHERE names its
    -- right side (its join key, which must be NULL): not whole
    ($$SELECT c.id FROM wq_c c LEFT JOIN wq_o o ON o.cid = c.id WHERE o.cid IS NULL$$, false),
    -- the same of another column: a left join, whole
    ($$SELECT c.id, o.id FROM wq_c c LEFT JOIN wq_o o ON o.cid = c.id WHERE o.id IS NULL$$, false),
    -- an uncorrelated subquery in the select list
    ($$SELECT id, (SELECT max(amount) FROM wq_o) FROM wq_c$$, false),
    -- GROUP BY a correlated subquery: not whole
    ($$SELECT (SELECT count(*) FROM wq_o o WHERE o.cid = c.id) AS n, count(*) FROM wq_c c GROUP BY 1$$, false),
    -- NOT IN of strings: not whole (the remote's column could be another type)
    ($$SELECT id FROM wq_c WHERE name NOT IN (SELECT name FROM wq_n WHERE name IS NOT NULL)$$, false),
    -- a condition the planner copies into a derived table, on an output
    -- it then makes NULL (nothing else reads it): not whole
    ($$SELECT * FROM (SELECT DISTINCT grp FROM wq_c) s$$, false),
    ($$SELECT s.g FROM (SELECT grp AS g, max(name) m FROM wq_c GROUP BY grp) s WHERE s.m > 'c3'$$, false),
    -- a scalar subquery of a string beside a column: not whole
    ($$SELECT id FROM wq_c WHERE name < (SELECT max(name) FROM wq_n)$$, false)
  ) v(q, ordered);
-- a sort under a column's own collation, and of a text column over a
-- remote integer, as we sort
CREATE FOREIGN TABLE wq_cc (id int, name text COLLATE "C")
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'wq_c');
CREATE FOREIGN TABLE wq_ct (id text, name text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'wq_c');
CREATE TABLE lq_cc AS SELECT * FROM wq_cc;
CREATE TABLE lq_ct AS SELECT * FROM wq_ct;
EXPLAIN (VERBOSE, COSTS OFF) SELECT name FROM wq_cc ORDER BY name DESC LIMIT 5;
SELECT q, (wq_agree(q, true)).*
  FROM (VALUES ($$SELECT name FROM wq_cc ORDER BY name DESC NULLS LAST LIMIT 5$$),
               ($$SELECT id FROM wq_ct ORDER BY id LIMIT 5$$)) v(q);

-- derived tables (subqueries in FROM the planner keeps), whole
SELECT q, (wq_agree(q, ordered)).*
  FROM (VALUES
    -- the outer condition, copied into it, on an output that stays
    ($$SELECT s.g, s.m FROM (SELECT grp AS g, max(name) m FROM wq_c GROUP BY grp) s
       WHERE s.m > 'c3'$$, false),
    ($$SELECT s.g FROM (SELECT grp AS g, count(*) n FROM wq_c GROUP BY grp) s
       WHERE s.g > 1$$, false),
    -- IN over a grouped subquery (TPC-H's Q18): a semi join to it
    ($$SELECT c.id, c.name FROM wq_c c
       WHERE c.id IN (SELECT cid FROM wq_o GROUP BY cid HAVING sum(amount) > 300)$$, false),
    -- nested, with LIMIT, ORDER BY of an output not selected, DISTINCT
    ($$SELECT b.g, b.n FROM (SELECT g, count(*) n FROM
         (SELECT grp g, nation FROM wq_c ORDER BY id LIMIT 100) a GROUP BY g) b$$, false),
    ($$SELECT * FROM (SELECT DISTINCT grp FROM wq_c ORDER BY grp DESC LIMIT 3) s$$, false),
    ($$SELECT * FROM (SELECT name FROM wq_c ORDER BY id DESC LIMIT 4) s$$, false),
    -- a left join to a grouped one: its count NULL where no group matches
    ($$SELECT c.id, s.n FROM wq_c c
       LEFT JOIN (SELECT cid, count(*) n FROM wq_o GROUP BY cid) s ON s.cid = c.id$$, false),
    -- in a correlated subquery, reading the outermost query
    ($$SELECT id, (SELECT count(*) FROM (SELECT o.id FROM wq_o o WHERE o.cid = c.id
                                          LIMIT 5) s) FROM wq_c c$$, false),
    ($$SELECT id FROM wq_c c WHERE EXISTS
        (SELECT 1 FROM (SELECT cid, max(amount) m FROM wq_o GROUP BY cid) s
          WHERE s.cid = c.id AND s.m > 100)$$, false),
    -- an aggregate over all of one, and one of its outputs a constant
    ($$SELECT count(*), sum(n) FROM (SELECT cid, count(*) n FROM wq_o GROUP BY cid) s$$, false),
    ($$SELECT s.one, count(*) FROM (SELECT 1 AS one, id FROM wq_c LIMIT 50) s GROUP BY s.one$$, false),
    -- an output that is NULL, with its type (the remote's would be text)
    ($$SELECT s.n + 1, s.g FROM (SELECT grp g, NULL::int AS n FROM wq_c GROUP BY grp) s$$, false),
    ($$SELECT c.id FROM wq_c c WHERE c.nation = (SELECT NULL::int FROM wq_n LIMIT 1) OR c.id < 3$$, false),
    -- a text column over a remote integer, compared outside as text
    ($$SELECT * FROM (SELECT id FROM wq_ct LIMIT 100) s WHERE s.id < '5'$$, false),
    ($$SELECT * FROM (SELECT id FROM wq_ct GROUP BY id) s ORDER BY s.id LIMIT 5$$, true),
    -- conditions on one: copied into it (written there only), or not
    -- (a left join's nullable side, a LIMIT, an equivalence)
    ($$SELECT c.id, s.n FROM wq_c c
       LEFT JOIN (SELECT cid, count(*) n FROM wq_o GROUP BY cid) s ON s.cid = c.id
       WHERE s.n IS NULL$$, false),
    ($$SELECT c.id FROM wq_c c
       LEFT JOIN (SELECT cid, max(amount) m FROM wq_o GROUP BY cid) s ON s.cid = c.id
       WHERE coalesce(s.m, 0) < 50$$, false),
    ($$SELECT s.id FROM (SELECT id, grp FROM wq_c ORDER BY id LIMIT 20) s WHERE s.grp = 1$$, false),
    ($$SELECT s.n FROM (SELECT grp, nation, count(*) n FROM wq_c GROUP BY grp, nation) s
       WHERE s.grp = s.nation$$, false),
    ($$SELECT s.n FROM (SELECT grp, count(*) n FROM wq_c GROUP BY grp) s WHERE 2 = s.grp$$, false),
    ($$SELECT c.id FROM wq_c c, (SELECT cid, sum(amount) t FROM wq_o GROUP BY cid) s
       WHERE s.cid = c.id AND s.t > (SELECT avg(amount) * 4 FROM wq_o) AND c.grp <> 1$$, false)
  ) v(q, ordered);
-- contradicting conditions: the same rows (from 17 on the planner finds
-- the level empty, and the query stays local)
SELECT (wq_agree($$SELECT s.n FROM (SELECT grp, count(*) n FROM wq_c GROUP BY grp) s
                    WHERE s.grp = 2 AND s.grp = 3$$, false)).same AS contradiction_same;
-- a condition copied into a derived table is written there, once (its
-- initplan would run twice)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT c.name, s.total FROM wq_c c, (SELECT cid, sum(amount) total FROM wq_o GROUP BY cid) s
   WHERE s.cid = c.id AND s.total = (SELECT max(amount) FROM wq_o);

-- window functions, with their OVER clauses in place (lag, whose frame
-- no version's planner rewrites: from 16 on rank()'s becomes ROWS)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT c.grp, sum(o.amount), lag(sum(o.amount)) OVER (ORDER BY sum(o.amount) DESC),
         sum(sum(o.amount)) OVER () FROM wq_c c JOIN wq_o o ON o.cid = c.id GROUP BY c.grp;
-- under the Materialize a scrollable cursor puts on top, alike
EXPLAIN (VERBOSE, COSTS OFF)
  DECLARE wq_scroll SCROLL CURSOR FOR
  SELECT id, count(*) OVER (PARTITION BY cid) FROM wq_o ORDER BY id;
SELECT q, (wq_agree(q, ordered)).*
  FROM (VALUES
    ($$SELECT id, rank() OVER (ORDER BY amount NULLS FIRST), dense_rank() OVER (ORDER BY amount DESC)
       FROM wq_o$$, false),
    ($$SELECT id, cid, row_number() OVER (PARTITION BY cid ORDER BY id),
              count(*) OVER (PARTITION BY cid), sum(amount) OVER (PARTITION BY cid ORDER BY id)
       FROM wq_o ORDER BY id$$, true),
    ($$SELECT id, lag(amount) OVER w, lead(amount, 2, 0) OVER w, first_value(d) OVER w,
              last_value(d) OVER w, nth_value(status, 2) OVER w
       FROM wq_o WINDOW w AS (PARTITION BY cid ORDER BY id ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING)$$, false),
    ($$SELECT id, sum(amount) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
                                     EXCLUDE CURRENT ROW),
              avg(amount) OVER (ORDER BY d GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
              max(amount) OVER (ORDER BY d RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)
       FROM wq_o$$, false),
    ($$SELECT o.id, ntile(4) OVER (ORDER BY o.id), percent_rank() OVER (ORDER BY amount, o.id),
              cume_dist() OVER (ORDER BY grp) FROM wq_o o JOIN wq_c c ON c.id = o.cid$$, false),
    ($$SELECT c.grp, sum(o.amount), rank() OVER (ORDER BY sum(o.amount) DESC),
              sum(sum(o.amount)) OVER () FROM wq_c c JOIN wq_o o ON o.cid = c.id GROUP BY c.grp$$, false),
    ($$SELECT id, count(*) FILTER (WHERE status = 'F') OVER (PARTITION BY cid) FROM wq_o$$, false),
    -- the top three of each group, through a derived table
    ($$SELECT * FROM (SELECT cid, id, row_number() OVER (PARTITION BY cid ORDER BY amount DESC, id) AS rn
                       FROM wq_o) s WHERE s.rn <= 3 ORDER BY cid, rn$$, true),
    ($$SELECT * FROM (SELECT cid, id, rank() OVER (PARTITION BY cid ORDER BY amount) AS r
                       FROM wq_o) s WHERE s.cid < 5 AND s.r = 1$$, false),
    -- sorted by a string: as we sort it (a text column over a remote
    -- integer, as text)
    ($$SELECT name, rank() OVER (ORDER BY name) FROM wq_c$$, false),
    ($$SELECT id, row_number() OVER (ORDER BY id) FROM wq_ct$$, false),
    -- a RANGE with offsets: not whole
    ($$SELECT id, sum(amount) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM wq_o$$, false)
  ) v(q, ordered);
DROP TABLE lq_cc, lq_ct;
DROP FOREIGN TABLE wq_cc, wq_ct;
-- a security barrier keeps the query to the ordinary plan: its condition
-- must be checked before the user's, which the remote would order as it
-- likes (1 / (id - 3) fails on a row the view hides)
CREATE VIEW wq_sb WITH (security_barrier) AS SELECT id, name FROM wq_c WHERE grp = 1;
CREATE VIEW lq_sb WITH (security_barrier) AS SELECT id, name FROM lq_c WHERE grp = 1;
SELECT * FROM wq_agree($$SELECT id FROM wq_sb WHERE 1 / (id - 3) > 0$$);
DROP VIEW wq_sb, lq_sb;
-- a generic plan's parameter in the select list
SET plan_cache_mode = force_generic_plan;
PREPARE wq_q(int) AS SELECT $1, count(*) FROM wq_c WHERE grp = $1 GROUP BY $1;
EXECUTE wq_q(2);
DEALLOCATE wq_q;
RESET plan_cache_mode;
-- a role without SELECT on a table of a subquery is refused, as by the
-- ordinary plan; also through a function of its own that reads the table
-- (its body is read as the role's)
CREATE ROLE regress_wq_reader;
GRANT USAGE ON FOREIGN SERVER pg_remote TO regress_wq_reader;
GRANT SELECT ON wq_c TO regress_wq_reader;
CREATE USER MAPPING FOR regress_wq_reader SERVER pg_remote
  OPTIONS (user :'pg_user', password :'pg_password');
SET ROLE regress_wq_reader;
SELECT count(*) FROM (SELECT k FROM wq_n LIMIT 3) s;
CREATE FUNCTION pg_temp.wq_steal() RETURNS SETOF wq_n LANGUAGE sql STABLE
  AS 'SELECT * FROM wq_n';
SELECT count(*) FROM (SELECT * FROM pg_temp.wq_steal() LIMIT 3) s;
SELECT count(*) FROM wq_c WHERE nation IN (SELECT k FROM pg_temp.wq_steal());
SELECT count(*) FROM wq_c WHERE nation IN (SELECT k FROM wq_n);
SELECT count(*) FROM wq_c c WHERE EXISTS (SELECT 1 FROM wq_o o WHERE o.cid = c.id);
RESET ROLE;
DROP FUNCTION pg_temp.wq_steal();
DROP USER MAPPING FOR regress_wq_reader SERVER pg_remote;
REVOKE ALL ON wq_c FROM regress_wq_reader;
REVOKE USAGE ON FOREIGN SERVER pg_remote FROM regress_wq_reader;
DROP ROLE regress_wq_reader;

-- a whole query is read without a cursor, under which the remote never
-- runs a query in parallel, unless the gateway's query is a cursor's
-- (here 300 rows expected, over the 10 of fetch_size: once read through
-- one); the remote's pg_cursors tells
SELECT multi_fdw_exec('pg_remote', $$CREATE VIEW public.wq_cursors AS
  SELECT count(*)::int AS n FROM pg_cursors$$);
CREATE FOREIGN TABLE wq_cursors (n int) SERVER pg_remote OPTIONS (schema_name 'public');
ALTER SERVER pg_remote OPTIONS (ADD fetch_size '10');
SELECT DISTINCT k.n AS remote_cursors FROM wq_o o, wq_cursors k;
BEGIN;
DECLARE wq_cur CURSOR FOR SELECT k.n AS remote_cursors FROM wq_o o, wq_cursors k;
FETCH 1 FROM wq_cur;
COMMIT;
-- nor when the run that reads it may stop early: PL/pgSQL's SELECT INTO
-- asks for one row, a SQL function's set is read a row at a time
DO $$
DECLARE v int;
BEGIN
  SELECT k.n INTO v FROM wq_o o, wq_cursors k;
  RAISE NOTICE 'remote cursors under SELECT INTO: %', v;
END $$;
CREATE FUNCTION wq_lazy() RETURNS SETOF int LANGUAGE sql STABLE
  AS $$ SELECT k.n FROM wq_o o, wq_cursors k $$;
SELECT wq_lazy() AS remote_cursors LIMIT 2;
DROP FUNCTION wq_lazy();
-- so a remote error in a row nobody asked for is not met: row 250 of 300
-- divides by zero, and the first row alone is read
DO $$
DECLARE v int;
BEGIN
  SELECT 1 / (250 - id) INTO v FROM wq_o ORDER BY id;
  RAISE NOTICE 'first row: %', v;
END $$;
SELECT count(*) FROM wq_o WHERE id > 290;
ALTER SERVER pg_remote OPTIONS (DROP fetch_size);
DROP FOREIGN TABLE wq_cursors;
SELECT multi_fdw_exec('pg_remote', $$DROP VIEW public.wq_cursors$$);

-- use_remote_estimate: a query expected to go whole is planned without
-- the remote's estimates (no exchange before it runs); one that does not
-- go after all is planned again with them
ALTER FOREIGN TABLE wq_c OPTIONS (ADD use_remote_estimate 'true');
ALTER FOREIGN TABLE wq_o OPTIONS (ADD use_remote_estimate 'true');
CREATE FUNCTION wq_planning_trips(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  before bigint;
  after bigint;
BEGIN
  SELECT coalesce(sum(round_trips), 0) INTO before FROM multi_fdw_stats WHERE server = 'pg_remote';
  EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
  SELECT coalesce(sum(round_trips), 0) INTO after FROM multi_fdw_stats WHERE server = 'pg_remote';
  RETURN after - before;
END $$;
SELECT wq_planning_trips($$SELECT c.grp, count(*) FROM wq_c c JOIN wq_o o ON o.cid = c.id
                             WHERE o.d < '2024-01-20' GROUP BY c.grp$$) AS whole_trips;
SELECT wq_planning_trips($$SELECT upper(c.name), count(*) FROM wq_c c JOIN wq_o o ON o.cid = c.id
                             WHERE o.d < '2024-01-20' GROUP BY 1$$) > 0 AS estimated;
SELECT q, (wq_agree(q)).*
  FROM (VALUES
    ($$SELECT c.grp, count(*) FROM wq_c c JOIN wq_o o ON o.cid = c.id
        WHERE o.d < '2024-01-20' GROUP BY c.grp$$),
    ($$SELECT upper(c.name), count(*) FROM wq_c c JOIN wq_o o ON o.cid = c.id
        WHERE o.d < '2024-01-20' GROUP BY 1$$)) v(q);
ALTER FOREIGN TABLE wq_c OPTIONS (DROP use_remote_estimate);
ALTER FOREIGN TABLE wq_o OPTIONS (DROP use_remote_estimate);
DROP FUNCTION wq_planning_trips(text);

-- ===================================================================
-- what keeps a query to its ordinary plan
-- ===================================================================
CREATE SERVER pg_remote_2 FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port', dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_remote_2
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE FOREIGN TABLE wq_n2 (k int, name text)
  SERVER pg_remote_2 OPTIONS (schema_name 'public', table_name 'wq_n');
CREATE FOREIGN TABLE wq_o_np (id int, cid int, amount numeric(10,2), d date,
                              status char(1))
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'wq_o', pushdown 'false');
CREATE VIEW lq_n2 AS SELECT * FROM lq_n;
CREATE VIEW lq_o_np AS SELECT * FROM lq_o;
SELECT q, (wq_agree(q)).*
  FROM (VALUES
    -- a local table
    ($$SELECT c.id FROM wq_c c JOIN lq_n n ON n.k = c.nation$$),
    -- another server
    ($$SELECT c.id FROM wq_c c JOIN wq_n2 n ON n.k = c.nation$$),
    -- a table with pushdown 'false'
    ($$SELECT count(*) FROM wq_o_np$$),
    -- what the remote would compute otherwise: a case mapping
    ($$SELECT upper(name) FROM wq_c c WHERE EXISTS (SELECT 1 FROM wq_o o WHERE o.cid = c.id)$$),
    -- set operations, row locks
    ($$SELECT cid FROM wq_o UNION SELECT id FROM wq_c$$),
    ($$SELECT id FROM wq_c WHERE grp = 1 FOR UPDATE$$)
  ) v(q);
SET multi_fdw.whole_queries = off;
SELECT * FROM wq_agree($$SELECT count(*) FROM wq_o o JOIN wq_c c ON c.id = o.cid$$);
RESET multi_fdw.whole_queries;

-- ===================================================================
-- the user: every relation read as one, the current user or one view
-- owner; a view of another owner beside a table of ours stays apart
-- ===================================================================
CREATE ROLE regress_wq_owner;
CREATE USER MAPPING FOR regress_wq_owner SERVER pg_remote
  OPTIONS (user :'pg_user', password :'pg_password');
GRANT SELECT ON wq_o TO regress_wq_owner;
CREATE VIEW wq_ov AS SELECT cid, amount FROM wq_o;
ALTER VIEW wq_ov OWNER TO regress_wq_owner;
CREATE VIEW lq_ov AS SELECT cid, amount FROM lq_o;
-- the view alone: whole, as its owner (its aliases' numbers, which follow
-- the range table, differ between PostgreSQL versions: not shown)
EXPLAIN (COSTS OFF) SELECT count(*) FROM wq_ov;
SELECT * FROM wq_agree($$SELECT cid, sum(amount) FROM wq_ov GROUP BY cid$$);
-- with a table read as the current user: not whole
SELECT * FROM wq_agree($$SELECT count(*) FROM wq_ov v JOIN wq_c c ON c.id = v.cid$$);
DROP VIEW wq_ov, lq_ov;
REVOKE SELECT ON wq_o FROM regress_wq_owner;
DROP USER MAPPING FOR regress_wq_owner SERVER pg_remote;
DROP ROLE regress_wq_owner;

DROP VIEW wq_v, lq_v, lq_n2, lq_o_np;
DROP FOREIGN TABLE wq_n2, wq_o_np;
DROP USER MAPPING FOR CURRENT_USER SERVER pg_remote_2;
DROP SERVER pg_remote_2;
DROP FUNCTION wq_agree(text, boolean);
DROP TABLE lq_c, lq_o, lq_n;
DROP FOREIGN TABLE wq_c, wq_o, wq_n;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.wq_c, public.wq_o, public.wq_n$$);
