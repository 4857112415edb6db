--
-- oracle_batch: the oracle dialect over the odbc transport, batched INSERT.
--
-- No Oracle server can run here; the stand-in is MariaDB in Oracle mode
-- (sql_mode ORACLE, STRICT_ALL_TABLES, EMPTY_STRING_IS_NULL, set on every
-- connection by the server's session_sql) reached through MariaDB's ODBC
-- driver.  Like Oracle it has DUAL and double-quoted identifiers, takes
-- the WITH clause after INSERT's column list and refuses it before INSERT.
-- What it cannot show (upper-casing of unquoted names, NLS settings,
-- Oracle's own driver) is listed in docs/oracle.md.
--
-- The multi-row form: INSERT INTO t (c1, c2) WITH x AS (SELECT ? "c1",
-- ? "c2" FROM DUAL UNION ALL SELECT ?, ? FROM DUAL ...) SELECT * FROM x,
-- at most 65535 binds per statement.
--
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD

CREATE SERVER ora_real FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'oracle', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db',
           session_sql 'SET SESSION sql_mode = ''ORACLE,STRICT_ALL_TABLES,EMPTY_STRING_IS_NULL,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
CREATE USER MAPPING FOR CURRENT_USER SERVER ora_real
  OPTIONS (user :'my_user', password :'my_password');

-- the session is in Oracle mode (one row when it is)
SELECT multi_fdw_exec('ora_real', $$
  SELECT 1 FROM DUAL WHERE @@sql_mode LIKE '%ORACLE%'
     AND @@sql_mode LIKE '%EMPTY_STRING_IS_NULL%' AND @@autocommit = 0$$)
  AS oracle_mode;
SELECT server_name, dialect, transport, valid
  FROM multi_fdw_get_connections() WHERE server_name = 'ora_real';

CREATE SCHEMA ora_batch;
SET search_path = ora_batch, public;

SELECT multi_fdw_exec('ora_real', 'DROP TABLE IF EXISTS "ob"');
SELECT multi_fdw_exec('ora_real', $$
  CREATE TABLE "ob" ("id" NUMBER(10) PRIMARY KEY, "v" VARCHAR2(30) NOT NULL,
                     "n" NUMBER(12,1))$$);
-- like Oracle, the stand-in refuses WITH before INSERT
SELECT multi_fdw_exec('ora_real', $$
  WITH x AS (SELECT 1 "id", 'a' "v", 1 "n" FROM DUAL)
  INSERT INTO "ob" SELECT * FROM x$$);
\echo :LAST_ERROR_SQLSTATE

-- the remote session's statement counters, read on the same connection:
-- a multi-row INSERT of this dialect is an INSERT ... SELECT
CREATE FOREIGN TABLE session_status (variable_name text, variable_value text)
  SERVER ora_real OPTIONS (schema_name 'information_schema',
                           table_name 'SESSION_STATUS');
CREATE FUNCTION remote_inserts() RETURNS bigint LANGUAGE sql AS $$
  SELECT sum(variable_value::bigint)::bigint FROM session_status
   WHERE variable_name IN ('COM_INSERT', 'COM_INSERT_SELECT');
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
SELECT multi_fdw_exec('ora_real', 'CREATE TEMPORARY TABLE counter_probe (i int)');
SELECT multi_fdw_exec('ora_real', 'INSERT INTO counter_probe VALUES (1)');
SELECT statements_since() AS counter_works;
SELECT multi_fdw_exec('ora_real', 'DROP TEMPORARY TABLE counter_probe');

CREATE FOREIGN TABLE ob (id int, v text, n numeric)
  SERVER ora_real OPTIONS (table_name 'ob');

--
-- values: the WITH ... UNION ALL form, batch_size rows per statement
--
ALTER FOREIGN TABLE ob OPTIONS (ADD insert_method 'values');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO ob SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 3) g;
SELECT statements_since() >= 0 AS reset;
INSERT INTO ob SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT statements_since() AS insert_statements;
SELECT multi_fdw_exec('ora_real', $$
  SELECT 1 FROM "ob"
  HAVING count(*) = 10000 AND sum("id") = 50005000 AND sum("n") = 75007500
     AND count(DISTINCT "v") = 10000$$) AS remote_sums_ok;
SELECT count(*), sum(id), sum(n), bool_and(v = 'row ' || id) AS v_matches
  FROM ob;

-- three columns: the odbc transport takes at most 7498 parameters a
-- statement (what psqlODBC can describe; the dialect alone would allow
-- 65535), so a 30,000-row batch is sent as 12 statements of 2499 rows and
-- one of 12
SELECT multi_fdw_exec('ora_real', 'TRUNCATE TABLE "ob"');
ALTER FOREIGN TABLE ob OPTIONS (ADD batch_size '30000');
SELECT statements_since() >= 0 AS reset;
INSERT INTO ob SELECT g, 'row ' || g, g FROM generate_series(1, 30000) g;
\echo inserted :ROW_COUNT
SELECT statements_since() AS insert_statements;
SELECT count(*), sum(id), min(id), max(id) FROM ob;

-- a failure in the middle of a multi-row statement leaves nothing of it
SELECT multi_fdw_exec('ora_real', 'TRUNCATE TABLE "ob"');
INSERT INTO ob SELECT g, 'row ' || g, g FROM generate_series(1, 5000) g
  UNION ALL SELECT 2500, 'duplicate', 0;
SELECT count(*) FROM ob;
INSERT INTO ob SELECT g, CASE WHEN g = 7000 THEN NULL ELSE 'x' END, g
  FROM generate_series(1, 10000) g;
SELECT count(*) FROM ob;

--
-- array: one single-row INSERT run for the whole batch with ODBC
-- parameter arrays; auto picks it
--
ALTER FOREIGN TABLE ob OPTIONS (DROP insert_method, DROP batch_size);
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO ob SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 3) g;
INSERT INTO ob SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT count(*), sum(id), sum(n), bool_and(v = 'row ' || id) AS v_matches
  FROM ob;
-- a failing set in the middle of an array leaves nothing of the call
SELECT multi_fdw_exec('ora_real', 'TRUNCATE TABLE "ob"');
INSERT INTO ob SELECT g, 'row ' || g, g FROM generate_series(1, 999) g
  UNION ALL SELECT 3, 'duplicate', 0;
SELECT count(*) FROM ob;
INSERT INTO ob SELECT g, 'row ' || g, g FROM generate_series(1, 1000) g;
SELECT count(*) FROM ob;

--
-- row: one statement per row
--
SELECT multi_fdw_exec('ora_real', 'TRUNCATE TABLE "ob"');
ALTER FOREIGN TABLE ob OPTIONS (ADD batch_size '1');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO ob VALUES (1, 'one', 1);
SELECT statements_since() >= 0 AS reset;
INSERT INTO ob SELECT g, 'row ' || g, g FROM generate_series(1, 20) g;
SELECT statements_since() AS insert_statements;
SELECT count(*) FROM ob;
ALTER FOREIGN TABLE ob OPTIONS (DROP batch_size);

-- Oracle stores '' as NULL: a NOT NULL column refuses it, a nullable one
-- gives NULL back
INSERT INTO ob VALUES (100, '', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('ora_real', 'CREATE TABLE "oe" ("id" NUMBER(5), "s" VARCHAR2(5))');
CREATE FOREIGN TABLE oe (id int, s text) SERVER ora_real OPTIONS (table_name 'oe');
INSERT INTO oe VALUES (1, ''), (2, 'a'), (3, NULL);
SELECT id, s, s IS NULL AS is_null FROM oe ORDER BY id;

-- ON CONFLICT DO NOTHING has no Oracle counterpart here
INSERT INTO oe VALUES (4, 'b') ON CONFLICT DO NOTHING;
\echo :LAST_ERROR_SQLSTATE

-- clean up
SELECT multi_fdw_exec('ora_real', 'DROP TABLE "ob"');
SELECT multi_fdw_exec('ora_real', 'DROP TABLE "oe"');
DROP SCHEMA ora_batch CASCADE;
