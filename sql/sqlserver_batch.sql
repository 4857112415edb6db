--
-- sqlserver_batch: the sqlserver dialect's T-SQL, executed by MariaDB in
-- MSSQL mode through MariaDB's ODBC driver: bracketed identifiers,
-- multi-row VALUES with bound parameters (at most 1000 rows and 2090
-- parameters per statement), parameter arrays, types, SQL Server's error
-- numbers.  MariaDB's MSSQL mode has no SAVE TRANSACTION, DATETIME2 or
-- SET options of T-SQL, so the server's session_sql replaces the
-- dialect's setup; savepoints, SQL Server's own types and its limits are
-- checked against the TDS endpoint (sqlserver_tds).
--
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD

CREATE SERVER ms_maria FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db',
           session_sql 'SET SESSION sql_mode = ''MSSQL,STRICT_ALL_TABLES,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
CREATE USER MAPPING FOR CURRENT_USER SERVER ms_maria
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('ms_maria', $$
  SELECT 1 FROM DUAL WHERE @@sql_mode LIKE '%MSSQL%'$$) AS mssql_mode;

CREATE SCHEMA ms_batch;
SET search_path = ms_batch, public;

SELECT multi_fdw_exec('ms_maria', 'DROP TABLE IF EXISTS [mb]');
SELECT multi_fdw_exec('ms_maria', $$
  CREATE TABLE [mb] ([id] int PRIMARY KEY, [v] nvarchar(30) NOT NULL,
                     [n] decimal(12,1))$$);

CREATE FOREIGN TABLE session_status (variable_name text, variable_value text)
  SERVER ms_maria OPTIONS (schema_name 'information_schema',
                           table_name 'SESSION_STATUS');
CREATE FUNCTION remote_inserts() RETURNS bigint LANGUAGE sql AS $$
  SELECT variable_value::bigint FROM session_status
   WHERE variable_name = 'COM_INSERT';
$$;
CREATE TABLE mark (n bigint);
INSERT INTO mark VALUES (0);
CREATE FUNCTION statements_since() RETURNS bigint LANGUAGE sql AS $$
  WITH now AS (SELECT remote_inserts() AS n),
       upd AS (UPDATE mark SET n = (SELECT n FROM now) RETURNING 0)
  SELECT (SELECT n FROM now) - (SELECT n FROM mark) FROM upd;
$$;
-- the counter counts: one INSERT on the same connection is 1
SELECT statements_since() IS NOT NULL AS primed;
SELECT multi_fdw_exec('ms_maria', 'CREATE TEMPORARY TABLE counter_probe (i int)');
SELECT multi_fdw_exec('ms_maria', 'INSERT INTO counter_probe VALUES (1)');
SELECT statements_since() AS counter_works;
SELECT multi_fdw_exec('ms_maria', 'DROP TEMPORARY TABLE counter_probe');

CREATE FOREIGN TABLE mb (id int, v text, n numeric)
  SERVER ms_maria OPTIONS (table_name 'mb');

--
-- values: three columns, so 2090 parameters hold 696 rows a statement
--
ALTER FOREIGN TABLE mb OPTIONS (ADD insert_method 'values');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO mb SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 3) g;
SELECT statements_since() >= 0 AS reset;
INSERT INTO mb SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
-- 10 batches of 1000 rows, each sent as 696 + 304
SELECT statements_since() AS insert_statements;
SELECT count(*), sum(id), sum(n), bool_and(v = 'row ' || id) AS v_matches
  FROM mb;

-- one column: the 1000-row cap of a VALUES list decides, not parameters
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE IF EXISTS [mb1]');
SELECT multi_fdw_exec('ms_maria', 'CREATE TABLE [mb1] ([id] int PRIMARY KEY)');
CREATE FOREIGN TABLE mb1 (id int) SERVER ms_maria
  OPTIONS (table_name 'mb1', insert_method 'values', batch_size '5000');
SELECT statements_since() >= 0 AS reset;
INSERT INTO mb1 SELECT g FROM generate_series(1, 5000) g;
SELECT statements_since() AS insert_statements;
SELECT count(*), sum(id) FROM mb1;

-- a failure in the middle of a statement leaves nothing of it
SELECT multi_fdw_exec('ms_maria', 'TRUNCATE TABLE [mb]');
INSERT INTO mb SELECT g, 'row ' || g, g FROM generate_series(1, 2000) g
  UNION ALL SELECT 1500, 'duplicate', 0;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM mb;

--
-- array (auto): parameter arrays, and a failing set in the middle
--
ALTER FOREIGN TABLE mb OPTIONS (DROP insert_method);
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO mb SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 3) g;
INSERT INTO mb SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT count(*), sum(id), sum(n) FROM mb;
SELECT multi_fdw_exec('ms_maria', 'TRUNCATE TABLE [mb]');
INSERT INTO mb SELECT g, 'row ' || g, g FROM generate_series(1, 1000) g
  UNION ALL SELECT 7, 'duplicate', 0;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM mb;

--
-- types that MSSQL mode has: bit, tinyint..bigint, decimal, float/real
-- (MariaDB's FLOAT is single precision: T-SQL's float is its DOUBLE),
-- nvarchar/varchar, date, time, datetime(6), varbinary
--
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE IF EXISTS [mt]');
SELECT multi_fdw_exec('ms_maria', $$
  CREATE TABLE [mt] ([id] int PRIMARY KEY, [bt] bit, [ti] tinyint unsigned,
    [si] smallint, [bi] bigint, [de] decimal(38,10), [fl] double, [re] real,
    [nv] nvarchar(50), [vc] varchar(50), [da] date, [tm] time(6),
    [dt] datetime(6), [vb] varbinary(100))$$);
CREATE FOREIGN TABLE mt (id int, bt boolean, ti smallint, si smallint,
  bi bigint, de numeric(38,10), fl float8, re float4, nv text, vc text,
  da date, tm time, dt timestamp, vb bytea)
  SERVER ms_maria OPTIONS (table_name 'mt');
CREATE TABLE mt_expected (LIKE mt);
INSERT INTO mt_expected VALUES
  (1, true, 255, 32767, 9223372036854775807,
   1234567890123456789012345678.0123456789, 1.5e300, 3.25, 'héllo ✓ 日本',
   'ascii', '2024-02-29', '23:59:59.999999', '2024-02-29 12:34:56.123456',
   '\x00ff10'),
  (2, false, 0, -32768, -9223372036854775808, -0.0000000001, -2.5e-300,
   -1.5, 'quote '' ] [ brackets', '', '1000-01-01', '00:00:00',
   '1000-01-01 00:00:00', '\x'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL);
INSERT INTO mt SELECT * FROM mt_expected;
SELECT count(*) AS differ FROM
  ((SELECT * FROM mt EXCEPT SELECT * FROM mt_expected)
   UNION ALL (SELECT * FROM mt_expected EXCEPT SELECT * FROM mt)) d;
SELECT multi_fdw_exec('ms_maria', 'TRUNCATE TABLE [mt]');
ALTER FOREIGN TABLE mt OPTIONS (ADD insert_method 'values');
INSERT INTO mt SELECT * FROM mt_expected;
SELECT count(*) AS differ FROM
  ((SELECT * FROM mt EXCEPT SELECT * FROM mt_expected)
   UNION ALL (SELECT * FROM mt_expected EXCEPT SELECT * FROM mt)) d;
SELECT id, bt, ti, bi, de, nv, dt, vb FROM mt ORDER BY id;
-- pushdown in T-SQL, and a limit as OFFSET / FETCH NEXT
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM mt WHERE bi > 0 AND id < 3 LIMIT 1;
SELECT id FROM mt WHERE bi > 0 AND id < 3 LIMIT 1;

--
-- SQL Server's error numbers, raised by a trigger on the stand-in
--
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE IF EXISTS [merr]');
SELECT multi_fdw_exec('ms_maria', 'CREATE TABLE [merr] ([code] int, [v] int)');
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER merr_bi BEFORE INSERT ON merr FOR EACH ROW
  BEGIN
    DECLARE e INT DEFAULT NEW.code;
    IF e > 0 THEN
      SIGNAL SQLSTATE 'HY000'
        SET MYSQL_ERRNO = e, MESSAGE_TEXT = 'SQL Server error raised by the test';
    END IF;
  END$$);
CREATE FOREIGN TABLE merr (code int, v int) SERVER ms_maria
  OPTIONS (table_name 'merr');
-- (one statement each: MSSQL mode has no SAVE TRANSACTION, so no
-- subtransaction can catch them here)
INSERT INTO merr VALUES (0, 1), (2627, 2);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO merr VALUES (0, 1), (2601, 2);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO merr VALUES (0, 1), (547, 2);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO merr VALUES (0, 1), (515, 2);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO merr VALUES (0, 1), (8152, 2);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO merr VALUES (0, 1), (2628, 2);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO merr VALUES (0, 1), (8115, 2);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO merr VALUES (0, 1), (1205, 2);
\echo :LAST_ERROR_SQLSTATE
-- the statements' first rows went too
SELECT count(*) FROM merr;

-- ANALYZE: the stand-in has no sys.partitions to estimate the size from,
-- so auto reads every row; a method named is refused with the remote's
-- error
ANALYZE mb;
SELECT reltuples >= 0 AS analyzed FROM pg_class WHERE relname = 'mb';
ALTER FOREIGN TABLE mb OPTIONS (ADD analyze_sampling 'random');
\set VERBOSITY terse
ANALYZE mb;
\set VERBOSITY default
ALTER FOREIGN TABLE mb OPTIONS (DROP analyze_sampling);

-- clean up
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE [mb]');
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE [mb1]');
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE [mt]');
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE [merr]');
DROP SCHEMA ms_batch CASCADE;
