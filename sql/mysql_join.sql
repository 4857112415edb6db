--
-- mysql_join: joins of MariaDB tables sent as one query (inner, left,
-- right, semi, anti; MariaDB has no FULL JOIN), and what stays here.
-- Text join conditions depend on the remote collation: only columns
-- marked text_pushdown are compared there (two columns compared as bytes
-- would be a join the remote runs row by row).  Every answer is compared with
-- the same query on local copies, value by value in text form.
--
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS mja, mjb, mjc');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE mja (id int PRIMARY KEY, a int,
                    ci varchar(20) COLLATE utf8mb4_general_ci,
                    nb varchar(20) COLLATE utf8mb4_nopad_bin) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE mjb (id int PRIMARY KEY, ja int, b int,
                    ci varchar(20) COLLATE utf8mb4_general_ci,
                    nb varchar(20) COLLATE utf8mb4_nopad_bin,
                    d date) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE mjc (id int PRIMARY KEY, jb int, x int) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO mja
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 60)
  SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE i % 7 END,
         ELT(i % 6 + 1, NULL, 'Beta', 'beta', 'Délta', 'delta', 'alpha'),
         ELT(i % 6 + 1, NULL, 'Beta', 'beta', 'Délta', 'delta', 'alpha')
    FROM s$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO mjb
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 150)
  SELECT i, CASE WHEN i % 6 = 0 THEN NULL ELSE i % 80 END,
         CASE WHEN i % 4 = 0 THEN NULL ELSE i % 11 END,
         ELT(i % 4 + 1, 'BETA', 'beta', NULL, 'alpha'),
         ELT(i % 4 + 1, 'BETA', 'beta', NULL, 'alpha'),
         DATE '2024-01-01' + INTERVAL (i % 9) DAY
    FROM s$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO mjc
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 100)
  SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE i % 170 END, i % 4 FROM s$$);
CREATE SCHEMA my_pj;
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (mja, mjb, mjc) FROM SERVER my_real
  INTO my_pj;
SET search_path = my_pj, public;
CREATE TABLE lja AS SELECT * FROM mja;
CREATE TABLE ljb AS SELECT * FROM mjb;
CREATE TABLE ljc AS SELECT * FROM mjc;
ANALYZE mja, mjb, mjc, lja, ljb, ljc;

CREATE FUNCTION mj_agree(q text, ordered boolean DEFAULT false,
                         OUT same boolean, OUT relations text, OUT remote text)
LANGUAGE sql AS $$
  SELECT * FROM mf_agree(q, regexp_replace(q, '\mmj([abc])\M', 'lj\1', 'g'), ordered, '% r1%')
$$;
DO $$BEGIN
  PERFORM pg_catalog.set_config('enable_presorted_aggregate', 'off', false);
EXCEPTION WHEN undefined_object THEN NULL;
END$$;

-- inner, left and right joins on numbers, with the sides' conditions
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT mja.id, mjb.b FROM mja JOIN mjb ON mja.id = mjb.ja WHERE mja.a > 2;
SELECT * FROM mj_agree($$SELECT mja.id, mjb.b, mjb.d FROM mja JOIN mjb
  ON mja.id = mjb.ja AND mja.a < mjb.b WHERE mja.a > 2$$);
SELECT * FROM mj_agree($$SELECT mja.id, mjb.b FROM mja LEFT JOIN mjb
  ON mja.id = mjb.ja AND mjb.b > 3 WHERE mja.a > 2$$);
SELECT * FROM mj_agree($$SELECT mja.id, mjb.id FROM mja RIGHT JOIN mjb
  ON mja.id = mjb.ja AND mja.a > 1 WHERE mjb.b < 9$$);
SELECT * FROM mj_agree($$SELECT mja.id, mjb.id, mjc.id FROM mja
  LEFT JOIN (mjb JOIN mjc ON mjc.jb = mjb.id AND mjc.x > 0) ON mja.id = mjb.ja
 WHERE mja.a <> 4$$);
SELECT * FROM mj_agree($$SELECT count(*), sum(mja.id * mjc.x) FROM mja, mjc
  WHERE mja.a = 3 AND mjc.x = 1$$);
-- no FULL JOIN in MariaDB: it stays here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT mja.id, mjb.id FROM mja FULL JOIN mjb ON mja.id = mjb.ja;
SELECT * FROM mj_agree($$SELECT mja.id, mjb.id FROM mja FULL JOIN mjb
  ON mja.id = mjb.ja$$);
-- semi and anti joins
SELECT * FROM mj_agree($$SELECT * FROM mja
 WHERE EXISTS (SELECT 1 FROM mjb WHERE mjb.ja = mja.id AND mjb.b = 1)$$);
SELECT * FROM mj_agree($$SELECT * FROM mja
 WHERE NOT EXISTS (SELECT 1 FROM mjb WHERE mjb.ja = mja.id AND mjb.b > 2)$$);
SELECT * FROM mj_agree($$SELECT * FROM mja WHERE id NOT IN (SELECT ja FROM mjb)$$);
-- sorted by the outer side's key, which the planner knows equal to the
-- inner side's: only the outer side's column is in scope outside EXISTS
SELECT * FROM mj_agree($$SELECT mja.id, mja.a FROM mja
 WHERE EXISTS (SELECT 1 FROM mjb WHERE mjb.ja = mja.id) ORDER BY mja.id LIMIT 5 OFFSET 2$$, true);


-- text: a case-insensitive collation would join 'Beta' with 'BETA' and
-- 'beta'; the join stays here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT mja.id, mjb.id FROM mja JOIN mjb ON mja.ci = mjb.ci;
SELECT * FROM mj_agree($$SELECT mja.id, mjb.id FROM mja JOIN mjb ON mja.ci = mjb.ci$$);
-- the byte-wise columns (text_pushdown from IMPORT) join there
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT mja.id, mjb.id FROM mja JOIN mjb ON mja.nb = mjb.nb;
SELECT * FROM mj_agree($$SELECT mja.id, mjb.id FROM mja JOIN mjb ON mja.nb = mjb.nb$$);
SELECT * FROM mj_agree($$SELECT mja.id, mjb.id FROM mja LEFT JOIN mjb
  ON mja.nb = mjb.nb AND mja.id = mjb.ja$$);
-- one marked column against one that is not: here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT mja.id, mjb.id FROM mja JOIN mjb ON mja.nb = mjb.ci;

-- sorts (NULLs placed by IS NULL keys), limits and aggregates over a join
EXPLAIN (VERBOSE, COSTS OFF) SELECT mja.id, mjb.b FROM mja JOIN mjb
  ON mja.id = mjb.ja ORDER BY mjb.b DESC, mja.id LIMIT 5;
SELECT * FROM mj_agree($$SELECT mja.id, mjb.b FROM mja JOIN mjb
  ON mja.id = mjb.ja ORDER BY mjb.b DESC, mja.id, mjb.id LIMIT 5 OFFSET 2$$, true);
SELECT * FROM mj_agree($$SELECT mjb.b, mja.a FROM mja RIGHT JOIN mjb
  ON mja.id = mjb.ja ORDER BY mjb.b NULLS FIRST, mja.a DESC NULLS LAST,
  mjb.id$$, true);
EXPLAIN (VERBOSE, COSTS OFF) SELECT mjb.b, count(*), sum(mja.a)
  FROM mja JOIN mjb ON mja.id = mjb.ja GROUP BY mjb.b;
SELECT * FROM mj_agree($$SELECT mjb.b, count(*), count(mja.a), sum(mja.a),
  min(mjb.d), max(mja.a) FROM mja LEFT JOIN mjb ON mja.id = mjb.ja
  GROUP BY mjb.b HAVING count(*) > 1$$);
SELECT * FROM mj_agree($$SELECT mja.nb, count(*) FROM mja JOIN mjb
  ON mja.id = mjb.ja GROUP BY mja.nb$$);

-- a whole row or a system column keeps the join here: MariaDB has no
-- row value whose text PostgreSQL would read back as a record (and the
-- dependent join reads no whole row of its foreign table either)
EXPLAIN (COSTS OFF) SELECT mja, mjb.b FROM mja JOIN mjb ON mja.id = mjb.ja;
SELECT * FROM mj_agree($$SELECT mja, mjb.b FROM mja JOIN mjb ON mja.id = mjb.ja$$);
SELECT * FROM mj_agree($$SELECT mja.id, mjb FROM mja LEFT JOIN mjb
  ON mja.id = mjb.ja AND mjb.b > 5$$);
EXPLAIN (COSTS OFF) SELECT mja.tableoid::regclass, mjb.b FROM mja
  JOIN mjb ON mja.id = mjb.ja;

-- parameters: positional markers in the ON clause, the EXISTS and the
-- WHERE meet their values in the order they are written
SET plan_cache_mode = force_generic_plan;
PREPARE mj_q(int, int, int) AS
  SELECT mja.id, mjb.b FROM mja LEFT JOIN mjb ON mja.id = mjb.ja AND mjb.b > $1
   WHERE mja.a < $2
     AND EXISTS (SELECT 1 FROM mjc WHERE mjc.jb = mja.id AND mjc.x <> $3);
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE mj_q(3, 5, 1);
CREATE TEMP TABLE mj_got AS EXECUTE mj_q(3, 5, 1);
SELECT (SELECT array_agg(g::text ORDER BY g::text) FROM mj_got g) IS NOT DISTINCT FROM
       (SELECT array_agg(s::text ORDER BY s::text) FROM (
          SELECT lja.id, ljb.b FROM lja LEFT JOIN ljb ON lja.id = ljb.ja AND ljb.b > 3
           WHERE lja.a < 5
             AND EXISTS (SELECT 1 FROM ljc WHERE ljc.jb = lja.id AND ljc.x <> 1)) s)
       AS same, (SELECT count(*) FROM mj_got) AS n;
DEALLOCATE mj_q;
RESET plan_cache_mode;

RESET search_path;
DROP SCHEMA my_pj CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE mja, mjb, mjc');
