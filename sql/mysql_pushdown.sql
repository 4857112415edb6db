--
-- mysql_pushdown: what is evaluated by MySQL and what stays here.
-- Text comparisons depend on the remote collation (case, accents, trailing
-- spaces), so they are shipped only for columns marked text_pushdown:
-- IMPORT marks those whose collation compares byte for byte (binary,
-- *_nopad_bin), and a user may mark others.
--
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS pd');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE pd (id int PRIMARY KEY,
                   ci varchar(20) COLLATE utf8mb4_general_ci,
                   pb varchar(20) COLLATE utf8mb4_bin,
                   nb varchar(20) COLLATE utf8mb4_nopad_bin,
                   vb varbinary(20), n int, d date) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO pd VALUES
    (1, 'Abc', 'Abc', 'Abc', 'Abc', 10, '2024-01-01'),
    (2, 'abc', 'abc', 'abc', 'abc', 20, '2024-02-01'),
    (3, 'abc ', 'abc ', 'abc ', 'abc ', 30, '2024-03-01'),
    (4, 'ábc', 'ábc', 'ábc', 'ábc', NULL, NULL)$$);
CREATE SCHEMA my_pd;
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (pd) FROM SERVER my_real INTO my_pd;
SET search_path = my_pd, public;
-- only the no-pad binary collation is marked
SELECT attname, attfdwoptions FROM pg_attribute
 WHERE attrelid = 'pd'::regclass AND attnum > 0 ORDER BY attnum;

-- a case-insensitive column: MySQL would say 'Abc' = 'abc'; checked here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE ci = 'abc';
SELECT id FROM pd WHERE ci = 'abc' ORDER BY id;
-- a PAD SPACE binary column: MySQL would say 'abc ' = 'abc'; checked here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE pb = 'abc';
SELECT id FROM pd WHERE pb = 'abc' ORDER BY id;
-- the no-pad binary column: shipped, same answer
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE nb = 'abc';
SELECT id FROM pd WHERE nb = 'abc' ORDER BY id;
SELECT id FROM pd WHERE nb <> 'abc' ORDER BY id;
-- ordering comparisons still depend on the local collation: checked here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE nb < 'b';
-- the user may vouch for a column
ALTER FOREIGN TABLE pd ALTER COLUMN pb OPTIONS (ADD text_pushdown 'true');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE pb = 'abc';
-- numbers and dates go; NULL tests go; a function stays
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pd WHERE n > 10 AND d < '2024-03-01' AND n IS NOT NULL
    AND abs(n) = 20;
SELECT id FROM pd WHERE n > 10 AND d < '2024-03-01' AND n IS NOT NULL
    AND abs(n) = 20;
-- a parameter from a nested loop
SELECT l.x, (SELECT id FROM pd WHERE n = l.x) FROM (VALUES (10), (30), (40)) l(x);
-- a LIMIT straight above the scan goes along; above a local condition not
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE n > 5 LIMIT 2 OFFSET 1;
SELECT count(*) FROM (SELECT id FROM pd WHERE n > 5 LIMIT 2 OFFSET 1) s;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE abs(n) > 5 LIMIT 2;

RESET search_path;
DROP SCHEMA my_pd CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE pd');
