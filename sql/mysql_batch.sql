--
-- mysql_batch: batched INSERT into MariaDB.  auto picks the array method
-- (a one-row INSERT run for the whole batch by MariaDB's bulk execution);
-- values sends multi-row INSERT ... VALUES statements.  The mysql
-- transport has no COPY and no pipeline.
--
-- The remote session counts the INSERT statements it ran (Com_insert in
-- information_schema.SESSION_STATUS); read through a foreign table on the
-- same connection, the counter shows how rows were grouped into statements.
--
CREATE SCHEMA my_batch;
SET search_path = my_batch, public;

CREATE FOREIGN TABLE session_status (variable_name text, variable_value text)
  SERVER my_real OPTIONS (schema_name 'information_schema',
                          table_name 'SESSION_STATUS');
-- INSERT statements the remote session has run so far
CREATE FUNCTION remote_inserts() RETURNS bigint LANGUAGE sql AS $$
  SELECT variable_value::bigint FROM session_status
   WHERE variable_name = 'COM_INSERT';
$$;
-- statements run since the last call
CREATE TABLE mark (n bigint);
INSERT INTO mark VALUES (0);
CREATE FUNCTION statements_since() RETURNS bigint LANGUAGE sql AS $$
  WITH now AS (SELECT remote_inserts() AS n),
       upd AS (UPDATE mark SET n = (SELECT n FROM now) RETURNING 0)
  SELECT (SELECT n FROM now) - (SELECT n FROM mark) FROM upd;
$$;
-- the counter counts: one INSERT on the same connection is 1
SELECT statements_since() IS NOT NULL AS primed;
SELECT multi_fdw_exec('my_real', 'CREATE TEMPORARY TABLE counter_probe (i int)');
SELECT multi_fdw_exec('my_real', 'INSERT INTO counter_probe VALUES (1)');
SELECT statements_since() AS counter_works;
SELECT multi_fdw_exec('my_real', 'DROP TEMPORARY TABLE counter_probe');

--
-- 10,000 rows with the default batching: batch_size 1000.  auto would
-- stream them with LOAD DATA, but the test bed's server has local_infile
-- OFF: they go as parameter arrays (EXPLAIN, which does not connect,
-- names both)
--
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS batch_big');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE batch_big (id int PRIMARY KEY, v varchar(30) NOT NULL,
                          n decimal(12,1)) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE big (id int, v text, n numeric)
  SERVER my_real OPTIONS (table_name 'batch_big');

EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO big SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
SELECT statements_since() >= 0 AS reset;
INSERT INTO big SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT statements_since() AS insert_statements;
-- sums computed by the remote server itself: 1 row when they hold
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM batch_big
  HAVING count(*) = 10000 AND sum(id) = 50005000 AND sum(n) = 75007500
     AND count(DISTINCT v) = 10000 AND min(v) = 'row 1'$$) AS remote_sums_ok;
-- and read back through the foreign table
SELECT count(*), sum(id), sum(n), min(id), max(id),
       bool_and(v = 'row ' || id) AS v_matches
  FROM big;

-- a smaller batch_size on the table: a bulk call carries batch_size x
-- pipeline_depth (3,000 x 8) rows, so 10,000 rows take one
SELECT multi_fdw_exec('my_real', 'TRUNCATE TABLE batch_big');
ALTER FOREIGN TABLE big OPTIONS (ADD batch_size '3000');
SELECT statements_since() >= 0 AS reset;
INSERT INTO big SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT statements_since() AS insert_statements;
SELECT count(*), sum(id) FROM big;

-- one row per statement
ALTER FOREIGN TABLE big OPTIONS (ADD insert_method 'row');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO big SELECT g, 'row ' || g, NULL FROM generate_series(10001, 10005) g;
SELECT statements_since() >= 0 AS reset;
INSERT INTO big SELECT g, 'row ' || g, NULL FROM generate_series(10001, 10005) g;
\echo inserted :ROW_COUNT
SELECT statements_since() AS insert_statements;
SELECT * FROM big WHERE id > 10000 ORDER BY id;

-- multi-row INSERT ... VALUES: 10,000 rows in statements of 1,000
ALTER FOREIGN TABLE big OPTIONS (SET insert_method 'values', DROP batch_size);
SELECT multi_fdw_exec('my_real', 'TRUNCATE TABLE batch_big');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO big SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
SELECT statements_since() >= 0 AS reset;
INSERT INTO big SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT statements_since() AS insert_statements;
SELECT count(*), sum(id), sum(n), bool_and(v = 'row ' || id) AS v_matches FROM big;
ALTER FOREIGN TABLE big OPTIONS (ADD batch_size '3000');

-- COPY is LOAD DATA LOCAL INFILE for MySQL, which the test bed's server
-- refuses (local_infile OFF; mysql_infile turns it on); no pipelines
ALTER FOREIGN TABLE big OPTIONS (SET insert_method 'copy');
INSERT INTO big VALUES (20000, 'x', 1);
ALTER FOREIGN TABLE big OPTIONS (SET insert_method 'pipeline');
INSERT INTO big VALUES (20000, 'x', 1);
ALTER FOREIGN TABLE big OPTIONS (DROP insert_method, DROP batch_size);

--
-- A statement has at most 65535 placeholders: with insert_method
-- 'values', 100 columns and the default batch_size of 1000 give
-- statements of 655 rows.  The array method has one row's placeholders
-- and runs batch_size x pipeline_depth (8,000) sets per bulk execution.
--
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS batch_wide');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real',
  format('CREATE TABLE batch_wide (%s, PRIMARY KEY (c1)) ENGINE=InnoDB',
         string_agg(format('c%s int NOT NULL', i), ', ' ORDER BY i)))
  FROM generate_series(1, 100) i;
DO $$
BEGIN
  EXECUTE format('CREATE FOREIGN TABLE wide (%s) SERVER my_real
                    OPTIONS (table_name %L)',
                 (SELECT string_agg(format('c%s int', i), ', ' ORDER BY i)
                    FROM generate_series(1, 100) i), 'batch_wide');
  EXECUTE format('CREATE TABLE wide_src AS SELECT %s FROM generate_series(1, 2000) g',
                 (SELECT string_agg(format('g + %s AS c%s', i - 1, i), ', ' ORDER BY i)
                    FROM generate_series(1, 100) i));
END $$;
SELECT count(*), sum(c1), sum(c100) FROM wide_src;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO wide SELECT * FROM wide_src;
SELECT statements_since() >= 0 AS reset;
INSERT INTO wide SELECT * FROM wide_src;
\echo inserted :ROW_COUNT
-- one bulk execution
SELECT statements_since() AS insert_statements;
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM batch_wide WHERE c2 = c1 + 1 AND c100 = c1 + 99$$);
(SELECT * FROM wide EXCEPT SELECT * FROM wide_src)
UNION ALL
(SELECT * FROM wide_src EXCEPT SELECT * FROM wide);
SELECT multi_fdw_exec('my_real', 'TRUNCATE TABLE batch_wide');
ALTER FOREIGN TABLE wide OPTIONS (ADD insert_method 'values');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO wide SELECT * FROM wide_src;
SELECT statements_since() >= 0 AS reset;
INSERT INTO wide SELECT * FROM wide_src;
\echo inserted :ROW_COUNT
-- 655 + 655 + 655 + 35
SELECT statements_since() AS insert_statements;
(SELECT * FROM wide EXCEPT SELECT * FROM wide_src)
UNION ALL
(SELECT * FROM wide_src EXCEPT SELECT * FROM wide);

--
-- A bulk execution is one packet, which the server takes up to its
-- max_allowed_packet (16 MB here): 20 rows of 1 MB held in one batch go
-- out as two bulk executions
--
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM DUAL WHERE @@max_allowed_packet = 16777216$$) AS packet_16mb;
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS batch_mb');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE batch_mb (id int PRIMARY KEY, body mediumtext) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE mb_rows (id int, body text)
  SERVER my_real OPTIONS (table_name 'batch_mb', batch_bytes '100000000');
SELECT statements_since() >= 0 AS reset;
INSERT INTO mb_rows SELECT g, repeat(chr(65 + g % 26), 1000000)
  FROM generate_series(1, 20) g;
\echo inserted :ROW_COUNT
SELECT statements_since() AS insert_statements;
SELECT count(*), sum(length(body)),
       bool_and(body = repeat(chr(65 + id % 26), 1000000)) AS bodies_match
  FROM mb_rows;
SELECT multi_fdw_exec('my_real', 'DROP TABLE batch_mb');

--
-- batch_bytes caps the bytes held: long rows force extra statements
--
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS batch_long');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE batch_long (id int PRIMARY KEY, body mediumtext) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE long_rows (id int, body text)
  SERVER my_real OPTIONS (table_name 'batch_long', batch_bytes '100000');
SELECT statements_since() >= 0 AS reset;
INSERT INTO long_rows SELECT g, repeat(chr(65 + g % 26), 30000)
  FROM generate_series(1, 20) g;
\echo inserted :ROW_COUNT
-- about 4 rows fit in 100,000 bytes
SELECT statements_since() AS insert_statements;
SELECT count(*), sum(length(body)),
       bool_and(body = repeat(chr(65 + id % 26), 30000)) AS bodies_match
  FROM long_rows;

--
-- ON CONFLICT DO NOTHING: a no-op ON DUPLICATE KEY UPDATE; the command
-- tag counts only the rows inserted
--
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS batch_uniq');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE batch_uniq (id int PRIMARY KEY, v varchar(20)) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE uniq (id int, v text)
  SERVER my_real OPTIONS (table_name 'batch_uniq', batch_size '10');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO uniq SELECT g, 'new' FROM generate_series(1, 25) g ON CONFLICT DO NOTHING;
INSERT INTO uniq SELECT g, 'new' FROM generate_series(1, 25) g ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
-- duplicates within one statement: the first wins
INSERT INTO uniq SELECT 100 + g % 3, 'dup ' || g FROM generate_series(1, 9) g
  ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT * FROM uniq WHERE id >= 100 ORDER BY id;
-- every row already there
INSERT INTO uniq SELECT g, 'again' FROM generate_series(1, 25) g ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
-- some new, some not, across several statements
INSERT INTO uniq SELECT g, 'mixed' FROM generate_series(20, 40) g
  ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT v, count(*) FROM uniq GROUP BY v ORDER BY v;
-- one row at a time, the same counts
ALTER FOREIGN TABLE uniq OPTIONS (ADD insert_method 'row');
INSERT INTO uniq SELECT g, 'row' FROM generate_series(38, 45) g
  ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT v, count(*) FROM uniq GROUP BY v ORDER BY v;
-- without ON CONFLICT, a duplicate is an error and nothing of the
-- statement stays
INSERT INTO uniq SELECT g, 'fails' FROM generate_series(44, 50) g;
SELECT count(*) FROM uniq WHERE v = 'fails';
