--
-- pg_join: joins of foreign tables of one server sent to the remote
-- PostgreSQL as one query (inner, left, right, full, semi, anti), with
-- sorts, aggregates and limits over them, and the joins that stay here.
-- Every answer is compared with the same query on local copies of the
-- data, value by value in text form, in order where the query orders.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.pja, public.pjb, public.pjc$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.pja (id int PRIMARY KEY, a int, c text)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.pjb (id int, ja int, b int, t text)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.pjc (id int, jb int, x int)$$);
-- NULL join keys on both sides, keys without a partner on both sides,
-- duplicates, mixed-case and accented text
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.pja
  SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE i % 7 END,
         (ARRAY[NULL, 'Beta', 'beta', 'Délta', 'delta', 'alpha'])[i % 6 + 1]
    FROM generate_series(1, 60) i$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.pjb
  SELECT i, CASE WHEN i % 6 = 0 THEN NULL ELSE i % 80 END,
         CASE WHEN i % 4 = 0 THEN NULL ELSE i % 11 END,
         (ARRAY['Beta', 'beta', NULL, 'alpha'])[i % 4 + 1]
    FROM generate_series(1, 150) i$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.pjc
  SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE i % 170 END, i % 4
    FROM generate_series(1, 100) i$$);

CREATE FOREIGN TABLE pja (id int, a int, c text)
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE FOREIGN TABLE pjb (id int, ja int, b int, t text)
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE FOREIGN TABLE pjc (id int, jb int, x int)
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE TABLE lja AS SELECT * FROM pja;
CREATE TABLE ljb AS SELECT * FROM pjb;
CREATE TABLE ljc AS SELECT * FROM pjc;
ANALYZE pja, pjb, pjc, lja, ljb, ljc;

-- q on the foreign tables and on the copies: the same rows (in the same
-- order when ordered), and the Relations and remote SQL that q sent
-- (NULL when it sent no join)
CREATE FUNCTION pj_agree(q text, ordered boolean DEFAULT false,
                         OUT same boolean, OUT relations text, OUT remote text)
LANGUAGE sql AS $$
  SELECT * FROM mf_agree(q, regexp_replace(q, '\mpj([abc])\M', 'lj\1', 'g'), ordered, '% r1%')
$$;
DO $$BEGIN
  PERFORM pg_catalog.set_config('enable_presorted_aggregate', 'off', false);
EXCEPTION WHEN undefined_object THEN NULL;
END$$;

-- ===================================================================
-- inner joins
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.id, pjb.b FROM pja JOIN pjb ON pja.id = pjb.ja WHERE pja.a > 2;
SELECT * FROM pj_agree($$SELECT pja.id, pja.c, pjb.b FROM pja JOIN pjb ON pja.id = pjb.ja
  WHERE pja.a > 2 AND pjb.b < 8$$);
-- a condition of both tables that is not an equality, and one on text
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id FROM pja JOIN pjb
  ON pja.id = pjb.ja AND pja.a < pjb.b AND pja.c = pjb.t$$);
-- an inner join's condition that cannot be shipped is checked here (gcd(x,
-- x), which is |x|, is a function the postgres dialect keeps here)
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id FROM pja JOIN pjb
  ON pja.id = pjb.ja AND gcd(pja.a, pja.a) = pjb.b$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.id FROM pja JOIN pjb
  ON pja.id = pjb.ja AND gcd(pja.a, pja.a) = pjb.b;
-- a join without a condition
SELECT * FROM pj_agree($$SELECT count(*), sum(pja.id * pjc.x) FROM pja, pjc
  WHERE pja.a = 3 AND pjc.x = 1$$);
-- three tables
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id, pjc.id FROM pja
  JOIN pjb ON pja.id = pjb.ja JOIN pjc ON pjc.jb = pjb.id WHERE pjc.x <> 2$$);

-- ===================================================================
-- outer joins: the nullable side's conditions go in its ON clause, the
-- preserved side's in the WHERE
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb ON pja.id = pjb.ja AND pjb.b > 3
   WHERE pja.a > 2;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja AND pjb.b > 3 WHERE pja.a > 2$$);
-- a condition of the nullable side in the WHERE is applied after the join
SELECT * FROM pj_agree($$SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja WHERE pjb.b IS DISTINCT FROM 3$$);
-- ... COALESCE there too, true on the null-extended rows
SELECT * FROM pj_agree($$SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja WHERE coalesce(pjb.b, 0) < 5$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja WHERE coalesce(pjb.b, 0) < 5;
-- ... and when it cannot be shipped: checked here on the joined rows
SELECT * FROM pj_agree($$SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja WHERE gcd(coalesce(pjb.b, 0), 3) < 2$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja WHERE gcd(coalesce(pjb.b, 0), 3) < 2;
-- a join condition that cannot be shipped keeps the outer join here
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja AND gcd(pjb.b, pjb.b) = pja.a;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja AND gcd(pjb.b, pjb.b) = pja.a$$);
-- right joins
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id FROM pja RIGHT JOIN pjb
  ON pja.id = pjb.ja AND pja.a > 1 WHERE pjb.b < 9$$);
-- full joins; one whose sides have conditions stays here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.id, pjb.id FROM pja FULL JOIN pjb ON pja.id = pjb.ja;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id FROM pja FULL JOIN pjb
  ON pja.id = pjb.ja AND pja.a < pjb.b$$);
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id FROM pja FULL JOIN pjb
  ON pja.id = pjb.ja WHERE pja.id IS NULL OR pjb.b > 5$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.id
  FROM (SELECT * FROM pja WHERE a > 2) pja FULL JOIN pjb ON pja.id = pjb.ja;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id
  FROM (SELECT * FROM pja WHERE a > 2) pja FULL JOIN pjb ON pja.id = pjb.ja$$);
-- nested: an inner join on the nullable side of a left join, and a left
-- join on the nullable side of another
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.id, pjc.id FROM pja
  LEFT JOIN (pjb JOIN pjc ON pjc.jb = pjb.id AND pjc.x > 0) ON pja.id = pjb.ja
 WHERE pja.a <> 4;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id, pjc.id FROM pja
  LEFT JOIN (pjb JOIN pjc ON pjc.jb = pjb.id AND pjc.x > 0) ON pja.id = pjb.ja
 WHERE pja.a <> 4$$);
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id, pjc.id FROM pja
  LEFT JOIN (pjb LEFT JOIN pjc ON pjc.jb = pjb.id AND pjc.x > 1)
    ON pja.id = pjb.ja AND pjb.b > 2$$);
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id, pjc.id FROM pja
  FULL JOIN pjb ON pja.id = pjb.ja LEFT JOIN pjc ON pjc.jb = pjb.id$$);

-- ===================================================================
-- semi and anti joins: EXISTS, IN, NOT EXISTS, and a left join that
-- keeps the rows without a partner
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM pja
 WHERE EXISTS (SELECT 1 FROM pjb WHERE pjb.ja = pja.id AND pjb.b = 1);
SELECT * FROM pj_agree($$SELECT * FROM pja
 WHERE EXISTS (SELECT 1 FROM pjb WHERE pjb.ja = pja.id AND pjb.b = 1)$$);
SELECT * FROM pj_agree($$SELECT * FROM pja
 WHERE id IN (SELECT ja FROM pjb WHERE b > 6) AND a > 1$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM pja
 WHERE NOT EXISTS (SELECT 1 FROM pjb WHERE pjb.ja = pja.id);
SELECT * FROM pj_agree($$SELECT * FROM pja
 WHERE NOT EXISTS (SELECT 1 FROM pjb WHERE pjb.ja = pja.id AND pjb.b > 2)$$);
SELECT * FROM pj_agree($$SELECT pja.* FROM pja LEFT JOIN pjb ON pjb.ja = pja.id
 WHERE pjb.id IS NULL$$);
-- a semi join inside an inner one
SELECT * FROM pj_agree($$SELECT pja.id, pjc.id FROM pja JOIN pjc ON pjc.jb = pja.id
 WHERE EXISTS (SELECT 1 FROM pjb WHERE pjb.ja = pja.id)$$);
-- sorted by the outer side's key, which the planner knows equal to the
-- inner side's: only the outer side's column is in scope outside EXISTS
SELECT * FROM pj_agree($$SELECT pja.id, pja.a FROM pja
 WHERE EXISTS (SELECT 1 FROM pjb WHERE pjb.ja = pja.id) ORDER BY pja.id LIMIT 5 OFFSET 2$$, true);
-- NOT IN is not an anti join (a NULL in the list changes its answer)
SELECT * FROM pj_agree($$SELECT * FROM pja WHERE id NOT IN (SELECT ja FROM pjb)$$);

-- ===================================================================
-- sorts, limits and aggregates over a join
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.b, pjc.x FROM pja
  JOIN pjb ON pja.id = pjb.ja LEFT JOIN pjc ON pjc.jb = pjb.id
 ORDER BY pja.id, pjb.b DESC, pjc.x LIMIT 5;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.b, pjc.x FROM pja
  JOIN pjb ON pja.id = pjb.ja LEFT JOIN pjc ON pjc.jb = pjb.id
 ORDER BY pja.id, pjb.b DESC, pjc.x, pjb.id, pjc.id LIMIT 5 OFFSET 3$$, true);
SELECT * FROM pj_agree($$SELECT pjb.b, pja.a FROM pja RIGHT JOIN pjb
  ON pja.id = pjb.ja ORDER BY pjb.b NULLS FIRST, pja.a DESC NULLS LAST,
  pjb.id$$, true);
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.c, count(*), sum(pjb.b)
  FROM pja JOIN pjb ON pja.id = pjb.ja GROUP BY pja.c;
SELECT * FROM pj_agree($$SELECT pja.c, count(*), count(pjb.b), sum(pjb.b),
  avg(pjb.b), min(pjb.t), max(pja.a) FROM pja LEFT JOIN pjb ON pja.id = pjb.ja
  GROUP BY pja.c HAVING count(*) > 1$$);
SELECT * FROM pj_agree($$SELECT pjb.b, count(DISTINCT pja.a) FROM pja
  JOIN pjb ON pja.id = pjb.ja GROUP BY pjb.b ORDER BY 2 DESC, 1 LIMIT 4$$, true);
SELECT * FROM pj_agree($$SELECT count(*), sum(pjc.x) FROM pja
  FULL JOIN pjb ON pja.id = pjb.ja FULL JOIN pjc ON pjc.jb = pjb.id$$);
-- a condition of the join checked here keeps the aggregate here
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pja JOIN pjb
  ON pja.id = pjb.ja AND gcd(pja.a, pja.a) = pjb.b;

-- ===================================================================
-- whole rows and system columns
-- ===================================================================
-- a whole row goes as ROW(its columns), NULL where an outer join
-- null-extends its table (a row of NULLs is another value): the joins of
-- one server stay one remote query, not a join here of two scans (or a
-- dependent join, which used to crash on such a row: see pg_xjoin)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja, pja.id, pjb.ja FROM pja LEFT JOIN pjb ON pja.id = pjb.ja
   WHERE pjb.ja BETWEEN 10 AND 30 ORDER BY 2;
SELECT * FROM pj_agree($$SELECT pja, pja.id, pjb.ja FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja WHERE pjb.ja BETWEEN 10 AND 30 ORDER BY 2, 3$$, true);
SELECT * FROM pj_agree($$SELECT pja, pjb.b FROM pja JOIN pjb ON pja.id = pjb.ja$$);
SELECT * FROM pj_agree($$SELECT pja.id, pjb FROM pja LEFT JOIN pjb
  ON pja.id = pjb.ja AND pjb.b > 5$$);
SELECT * FROM pj_agree($$SELECT pja, pjb, pjc FROM pja FULL JOIN pjb
  ON pja.id = pjb.ja FULL JOIN pjc ON pjc.jb = pjb.id$$);
SELECT * FROM pj_agree($$SELECT pjb, pja.c FROM pja RIGHT JOIN pjb
  ON pja.id = pjb.ja AND pja.a > 2$$);
-- of the outer side of a semi or anti join, and in a condition checked here
SELECT * FROM pj_agree($$SELECT pja FROM pja
  WHERE NOT EXISTS (SELECT 1 FROM pjb WHERE pjb.ja = pja.id)$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.id FROM pja JOIN pjb
  ON pja.id = pjb.ja AND pja::text < pjb::text;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.id FROM pja JOIN pjb
  ON pja.id = pjb.ja AND pja::text < pjb::text$$);
-- the columns as declared here: their order, their remote names, none
-- dropped; read back as the foreign table's row type
CREATE FOREIGN TABLE pjb_w (t text, gone int, tb int OPTIONS (column_name 'b'),
  id int) SERVER pg_remote OPTIONS (table_name 'pjb');
ALTER FOREIGN TABLE pjb_w DROP COLUMN gone;
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb_w FROM pja JOIN pjb_w
  ON pja.id = pjb_w.id WHERE pja.id < 4;
SELECT pja.id, pjb_w, (pjb_w).tb FROM pja JOIN pjb_w ON pja.id = pjb_w.id
 WHERE pja.id < 4 ORDER BY 1;
SELECT (SELECT array_agg(w::text ORDER BY w::text) FROM pja JOIN pjb_w w ON pja.id = w.id) =
       (SELECT array_agg(ROW(t, b, id)::text ORDER BY ROW(t, b, id)::text)
          FROM ljb WHERE id IN (SELECT id FROM lja)) AS same;
DROP FOREIGN TABLE pjb_w;
-- a system column keeps the join here: its two scans read it
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.tableoid::regclass, pja.id, pjb.id FROM pja JOIN pjb ON pja.id = pjb.ja;
SELECT pja.tableoid::regclass, pjb.tableoid::regclass, count(*)
  FROM pja JOIN pjb ON pja.id = pjb.ja GROUP BY 1, 2;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.ctid, pjb.id FROM pja JOIN pjb ON pja.id = pjb.ja;
SELECT count(DISTINCT pja.ctid), count(*) FROM pja JOIN pjb ON pja.id = pjb.ja;
-- a whole row in an aggregate or a grouping key: the join goes, the
-- grouping stays here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja, count(pjb) FROM pja JOIN pjb ON pja.id = pjb.ja GROUP BY pja;
SELECT * FROM pj_agree($$SELECT pja, count(pjb) FROM pja JOIN pjb
  ON pja.id = pjb.ja GROUP BY pja$$);

-- ===================================================================
-- what keeps a join here
-- ===================================================================
-- a condition of one side checked here
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id, pjb.b FROM pja JOIN pjb
  ON pja.id = pjb.ja WHERE gcd(pja.a, pja.a) = 2;
-- row locks and UPDATE ... FROM: the rows are fetched again by table
EXPLAIN (VERBOSE, COSTS OFF) SELECT pja.id FROM pja JOIN pjb
  ON pja.id = pjb.ja FOR UPDATE OF pja;
BEGIN;
EXPLAIN (VERBOSE, COSTS OFF)
  UPDATE pjb SET b = pjb.b + 100 FROM pja WHERE pja.id = pjb.ja AND pja.a = 3;
UPDATE pjb SET b = pjb.b + 100 FROM pja WHERE pja.id = pjb.ja AND pja.a = 3;
UPDATE ljb SET b = ljb.b + 100 FROM lja WHERE lja.id = ljb.ja AND lja.a = 3;
SELECT * FROM pj_agree($$SELECT * FROM pjb$$);
ROLLBACK;
-- pushdown 'false' on one table
ALTER FOREIGN TABLE pjb OPTIONS (ADD pushdown 'false');
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.id, pjb.b FROM pja JOIN pjb ON pja.id = pjb.ja;
ALTER FOREIGN TABLE pjb OPTIONS (DROP pushdown);
-- a local table
CREATE TABLE pj_local (id int);
INSERT INTO pj_local VALUES (1), (2), (3);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.id FROM pja JOIN pj_local l ON l.id = pja.id;

-- ===================================================================
-- parameters: numbered markers in the ON clause, the EXISTS and the WHERE
-- ===================================================================
SET plan_cache_mode = force_generic_plan;
PREPARE pj_q(int, int, int) AS
  SELECT pja.id, pjb.b FROM pja LEFT JOIN pjb ON pja.id = pjb.ja AND pjb.b > $1
   WHERE pja.a < $2
     AND EXISTS (SELECT 1 FROM pjc WHERE pjc.jb = pja.id AND pjc.x <> $3)
   ORDER BY 1, 2;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pj_q(3, 5, 1);
CREATE TEMP TABLE pj_got AS EXECUTE pj_q(3, 5, 1);
SELECT (SELECT array_agg(g::text ORDER BY g::text) FROM pj_got g) IS NOT DISTINCT FROM
       (SELECT array_agg(s::text ORDER BY s::text) FROM (
          SELECT lja.id, ljb.b FROM lja LEFT JOIN ljb ON lja.id = ljb.ja AND ljb.b > 3
           WHERE lja.a < 5
             AND EXISTS (SELECT 1 FROM ljc WHERE ljc.jb = lja.id AND ljc.x <> 1)) s)
       AS same;
DEALLOCATE pj_q;
RESET plan_cache_mode;

-- use_remote_estimate asks the remote to plan the join too
ALTER SERVER pg_remote OPTIONS (ADD use_remote_estimate 'true');
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.id, pjb.b FROM pja JOIN pjb ON pja.id = pjb.ja WHERE pjb.b = 2;
SELECT * FROM pj_agree($$SELECT pja.id, pjb.b FROM pja JOIN pjb ON pja.id = pjb.ja
  WHERE pjb.b = 2$$);
-- ... and offers the orders a merge join with a local table could use
-- (with the dependent join off: see pg_xjoin)
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET multi_fdw.dependent_join = off;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT pja.id, l.id FROM pja JOIN pj_local l ON l.id = pja.id;
SELECT pja.id, l.id FROM pja JOIN pj_local l ON l.id = pja.id ORDER BY 1;
RESET enable_hashjoin;
RESET enable_nestloop;
RESET multi_fdw.dependent_join;
ALTER SERVER pg_remote OPTIONS (DROP use_remote_estimate);

DROP TABLE pj_local, lja, ljb, ljc;
DROP FOREIGN TABLE pja, pjb, pjc;
DROP FUNCTION pj_agree;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.pja, public.pjb, public.pjc$$);
