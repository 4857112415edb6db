--
-- stats: the counters of multi_fdw_stats, multi_fdw_stats_reset() and the
-- figures EXPLAIN ANALYZE shows, in every dialect.  The gateway of the
-- test bed has no preload, so the counters are this session's (scope
-- 'session') and multi_fdw_progress says it needs the preload;
-- t/016_stats_preload.pl runs a gateway with it.
--
-- Each dialect gets a server of its own here, so that its counters start
-- at zero.  Known loads give exact figures: 10,000 rows at batch_size
-- 1,000 by values are 10 statements and 10 batches.  A round trip is a
-- wait for the remote's answer (docs/monitoring.md says which per
-- transport); the counts below include the remote BEGIN and COMMIT.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD

CREATE SCHEMA st;
SET search_path = st, public;

CREATE SERVER st_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db', batch_size '1000');
CREATE USER MAPPING FOR CURRENT_USER SERVER st_pg
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE SERVER st_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db', batch_size '1000');
CREATE USER MAPPING FOR CURRENT_USER SERVER st_my
  OPTIONS (user :'my_user', password :'my_password');
CREATE SERVER st_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db',
           batch_size '1000',
           session_sql 'SET SESSION sql_mode = ''MSSQL,STRICT_ALL_TABLES,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
CREATE USER MAPPING FOR CURRENT_USER SERVER st_ms
  OPTIONS (user :'my_user', password :'my_password');
CREATE SERVER st_ora FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'oracle', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db',
           batch_size '1000',
           session_sql 'SET SESSION sql_mode = ''ORACLE,STRICT_ALL_TABLES,EMPTY_STRING_IS_NULL,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
CREATE USER MAPPING FOR CURRENT_USER SERVER st_ora
  OPTIONS (user :'my_user', password :'my_password');

-- the view's figures for a server, the time columns as booleans
CREATE VIEW figures AS
  SELECT server, user_name = current_user AS mine, statements, rows_sent,
         rows_received, batches, round_trips, bytes_sent, bytes_received,
         remote_wait_time > 0 AS waited, errors, reconnects, values_rows,
         row_rows, copy_rows, pipeline_rows, array_rows, last_error,
         last_error_time IS NOT NULL AS has_error_time, scope
    FROM multi_fdw_stats;

-- no counters before any connection; the columns the issue asks for
SELECT * FROM multi_fdw_stats WHERE server LIKE 'st\_%';
SELECT count(*) AS columns FROM information_schema.columns
 WHERE table_name = 'multi_fdw_stats'
   AND column_name IN ('server', 'user_name', 'statements', 'rows_sent',
       'rows_received', 'batches', 'round_trips', 'bytes_sent',
       'bytes_received', 'remote_wait_time', 'errors', 'reconnects',
       'last_error', 'last_error_time', 'stats_reset', 'scope');
-- progress needs the preload
SELECT * FROM multi_fdw_progress;

--
-- postgres, through libpq
--
SELECT multi_fdw_exec('st_pg', 'DROP TABLE IF EXISTS public.st_t');
SELECT multi_fdw_exec('st_pg',
  'CREATE TABLE public.st_t (id int PRIMARY KEY, v text)');
CREATE FOREIGN TABLE pg_t (id int, v text)
  SERVER st_pg OPTIONS (schema_name 'public', table_name 'st_t',
                        insert_method 'values');
-- the connection is made and the session set up: start from zero
SELECT multi_fdw_stats_reset('st_pg');
SELECT * FROM figures WHERE server = 'st_pg';

-- 10,000 rows at 1,000 a statement: 10 statements, 10 batches; 14 round
-- trips: BEGIN, whether the table has triggers that may skip rows (asked
-- once per connection), the prepare, 10 executes, COMMIT
INSERT INTO pg_t SELECT i, 'v' || i FROM generate_series(1, 10000) i;
SELECT * FROM figures WHERE server = 'st_pg';
SELECT multi_fdw_stats_reset('st_pg');

-- a scan: one statement; the count is computed remotely, so one row comes
-- back; round trips: BEGIN, DECLARE with its first FETCH, CLOSE, COMMIT
SELECT count(*) FROM pg_t WHERE id <= 10;
SELECT server, statements, rows_received, round_trips, bytes_received
  FROM figures WHERE server = 'st_pg';
SELECT multi_fdw_stats_reset('st_pg');

-- copy: one statement, one batch per executor batch of 1,000 rows
ALTER FOREIGN TABLE pg_t OPTIONS (SET insert_method 'copy');
INSERT INTO pg_t SELECT i, 'w' FROM generate_series(10001, 12500) i;
SELECT server, statements, rows_sent, batches, round_trips, copy_rows,
       values_rows FROM figures WHERE server = 'st_pg';
SELECT multi_fdw_stats_reset('st_pg');

-- pipeline: 3 statements of 1,000, 2,000 rows at most in flight, one sync
ALTER FOREIGN TABLE pg_t OPTIONS (SET insert_method 'pipeline');
INSERT INTO pg_t SELECT i, 'p' FROM generate_series(12501, 15500) i;
SELECT server, statements, rows_sent, batches, round_trips, pipeline_rows
  FROM figures WHERE server = 'st_pg';
SELECT multi_fdw_stats_reset('st_pg');

-- row by row: each row a statement and its round trip
ALTER FOREIGN TABLE pg_t OPTIONS (SET insert_method 'row');
INSERT INTO pg_t SELECT i, 'r' FROM generate_series(15501, 15503) i;
SELECT server, statements, rows_sent, rows_received, batches, round_trips,
       row_rows FROM figures WHERE server = 'st_pg';

-- EXPLAIN ANALYZE: the node's own figures (no BEGIN, no COMMIT)
ALTER FOREIGN TABLE pg_t OPTIONS (SET insert_method 'values');
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO pg_t SELECT i, 'e' FROM generate_series(20001, 22000) i$$);
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT * FROM pg_t WHERE id > 20000$$);
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
UPDATE pg_t SET v = 'u' WHERE id > 21990$$);
ALTER FOREIGN TABLE pg_t OPTIONS (SET insert_method 'copy');
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF, FORMAT YAML)
INSERT INTO pg_t SELECT i, 'c' FROM generate_series(22001, 22100) i$$);
-- a scan and a modification on one connection are told apart
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
UPDATE pg_t SET v = v || length(v)::text WHERE id > 22090$$);

-- errors: a failing load counts its error, and says what it was
SELECT multi_fdw_stats_reset('st_pg');
INSERT INTO pg_t VALUES (1, 'dup');
SELECT server, statements, errors, last_error, has_error_time
  FROM figures WHERE server = 'st_pg';

-- reconnects: the remote ends the session, the next statement connects
SELECT multi_fdw_stats_reset('st_pg');
SELECT remote_backend_pid AS st_pid FROM multi_fdw_get_connections()
 WHERE server_name = 'st_pg' \gset
SELECT multi_fdw_exec('pg_remote',
  format('SELECT pg_terminate_backend(%s)', :st_pid)) AS killed;
SELECT pg_sleep(0.2);
SELECT count(*) FROM pg_t WHERE id <= 3;
SELECT server, reconnects FROM figures WHERE server = 'st_pg';

--
-- mysql, through libmysqlclient
--
SELECT multi_fdw_exec('st_my', 'DROP TABLE IF EXISTS st_t');
SELECT multi_fdw_exec('st_my',
  'CREATE TABLE st_t (id int PRIMARY KEY, v varchar(20))');
CREATE FOREIGN TABLE my_t (id int OPTIONS (key 'true'), v text)
  SERVER st_my OPTIONS (table_name 'st_t', insert_method 'values');
SELECT multi_fdw_stats_reset('st_my');
INSERT INTO my_t SELECT i, 'v' || i FROM generate_series(1, 10000) i;
SELECT * FROM figures WHERE server = 'st_my';
SELECT multi_fdw_stats_reset('st_my');
SELECT count(*) FROM my_t WHERE id <= 10;
SELECT server, statements, rows_received, round_trips, bytes_received
  FROM figures WHERE server = 'st_my';
SELECT multi_fdw_stats_reset('st_my');
ALTER FOREIGN TABLE my_t OPTIONS (SET insert_method 'array');
INSERT INTO my_t SELECT i, 'a' FROM generate_series(10001, 12500) i;
SELECT server, statements, rows_sent, batches, round_trips, array_rows
  FROM figures WHERE server = 'st_my';
SELECT multi_fdw_stats_reset('st_my');
INSERT INTO my_t VALUES (1, 'dup');
SELECT server, errors, last_error FROM figures WHERE server = 'st_my';
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO my_t SELECT i, 'e' FROM generate_series(20001, 22000) i$$);
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
DELETE FROM my_t WHERE id > 21995$$);

--
-- sqlserver and oracle, through ODBC (MariaDB in MSSQL and Oracle mode)
--
SELECT multi_fdw_exec('st_ms', 'DROP TABLE IF EXISTS st_ms_t');
SELECT multi_fdw_exec('st_ms',
  'CREATE TABLE st_ms_t (id int PRIMARY KEY, v varchar(20))');
CREATE FOREIGN TABLE ms_t (id int OPTIONS (key 'true'), v text)
  SERVER st_ms OPTIONS (table_name 'st_ms_t', insert_method 'values');
SELECT multi_fdw_stats_reset('st_ms');
INSERT INTO ms_t SELECT i, 'v' || i FROM generate_series(1, 10000) i;
SELECT * FROM figures WHERE server = 'st_ms';
SELECT multi_fdw_stats_reset('st_ms');
SELECT count(*) FROM ms_t WHERE id <= 10;
SELECT server, statements, rows_received, round_trips, bytes_received
  FROM figures WHERE server = 'st_ms';
SELECT multi_fdw_stats_reset('st_ms');
INSERT INTO ms_t VALUES (1, 'dup');
SELECT server, errors, last_error FROM figures WHERE server = 'st_ms';
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO ms_t SELECT i, 'e' FROM generate_series(20001, 22000) i$$);

SELECT multi_fdw_exec('st_ora', 'DROP TABLE IF EXISTS "ST_ORA_T"');
SELECT multi_fdw_exec('st_ora',
  'CREATE TABLE "ST_ORA_T" ("ID" int PRIMARY KEY, "V" varchar(20))');
CREATE FOREIGN TABLE ora_t (id int OPTIONS (column_name 'ID', key 'true'),
                            v text OPTIONS (column_name 'V'))
  SERVER st_ora OPTIONS (table_name 'ST_ORA_T', insert_method 'values');
SELECT multi_fdw_stats_reset('st_ora');
INSERT INTO ora_t SELECT i, 'v' || i FROM generate_series(1, 10000) i;
SELECT * FROM figures WHERE server = 'st_ora';
SELECT multi_fdw_stats_reset('st_ora');
SELECT count(*) FROM ora_t WHERE id <= 10;
SELECT server, statements, rows_received, round_trips, bytes_received
  FROM figures WHERE server = 'st_ora';
SELECT multi_fdw_stats_reset('st_ora');
INSERT INTO ora_t VALUES (1, 'dup');
SELECT server, errors, last_error FROM figures WHERE server = 'st_ora';
SELECT * FROM mf_explain($$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO ora_t SELECT i, 'e' FROM generate_series(20001, 22000) i$$);

--
-- reset: one server's, then all; stats_reset moves
--
SELECT stats_reset AS before_reset FROM multi_fdw_stats
 WHERE server = 'st_my' \gset
SELECT multi_fdw_stats_reset('st_my');
SELECT server, statements, errors, last_error,
       stats_reset > :'before_reset' AS moved
  FROM multi_fdw_stats WHERE server LIKE 'st\_%' ORDER BY server;
SELECT multi_fdw_stats_reset();
SELECT server, statements + rows_sent + rows_received + batches + round_trips
       + bytes_sent + bytes_received + errors + reconnects AS total
  FROM multi_fdw_stats WHERE server LIKE 'st\_%' ORDER BY server;
SELECT multi_fdw_stats_reset('no_such_server');

--
-- a non-superuser: reset is refused unless granted; another user's rows
-- (its servers, names and traffic) are not shown at all, as
-- pg_stat_activity hides them, unless granted pg_read_all_stats
--
SELECT multi_fdw_stats_reset('st_pg');
INSERT INTO pg_t VALUES (1, 'secret value');
CREATE ROLE st_user LOGIN;
GRANT USAGE ON SCHEMA st TO st_user;
GRANT SELECT ON figures TO st_user;
SET ROLE st_user;
SELECT server, mine, errors, last_error FROM figures
 WHERE server = 'st_pg';
SELECT multi_fdw_stats_reset();
RESET ROLE;
GRANT EXECUTE ON FUNCTION multi_fdw_stats_reset(text) TO st_user;
GRANT pg_read_all_stats TO st_user;
SET ROLE st_user;
SELECT server, mine, errors, last_error FROM figures
 WHERE server = 'st_pg';
SELECT multi_fdw_stats_reset('st_pg');
RESET ROLE;
SELECT server, errors FROM figures WHERE server = 'st_pg';

RESET ROLE;
DROP OWNED BY st_user;
DROP ROLE st_user;
SELECT multi_fdw_exec('st_pg', 'DROP TABLE public.st_t');
SELECT multi_fdw_exec('st_my', 'DROP TABLE st_t');
SELECT multi_fdw_exec('st_ms', 'DROP TABLE st_ms_t');
SELECT multi_fdw_exec('st_ora', 'DROP TABLE "ST_ORA_T"');
SET client_min_messages = warning;
DROP SCHEMA st CASCADE;
DROP SERVER st_pg, st_my, st_ms, st_ora CASCADE;
