--
-- ext_update: the extension's SQL versions.  CREATE EXTENSION at 1.0,
-- ALTER EXTENSION UPDATE to 1.1 and then to the current version, and what
-- each added: 1.1 the connection function's columns of PostgreSQL 18's
-- postgres_fdw (used_in_xact, closed, remote_backend_pid), on every
-- PostgreSQL version; 1.2 the counters (multi_fdw_stats, its reset) and
-- multi_fdw_progress; 1.3 multi_fdw_query.
--
-- Runs in a database of its own (mf_ext_update), so that the extension can
-- be created at an old version; it is dropped at the end.
--
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

CREATE DATABASE mf_ext_update;
\c mf_ext_update
SET client_min_messages = warning;

CREATE EXTENSION multi_fdw VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'multi_fdw';

CREATE SERVER up_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER up_pg
  OPTIONS (user :'pg_user', password :'pg_password');
-- another session to the same remote, to watch and end the first one
CREATE SERVER up_pg_peer FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER up_pg_peer
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE SERVER up_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER up_my
  OPTIONS (user :'my_user', password :'my_password');
CREATE SERVER up_my_peer FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER up_my_peer
  OPTIONS (user :'my_user', password :'my_password');

-- 1.0's function: six columns
SELECT multi_fdw_exec('up_pg', 'SELECT 1');
SELECT * FROM multi_fdw_get_connections() WHERE false;
SELECT server_name, user_name = current_user AS mine, dialect, transport,
       valid, in_transaction
  FROM multi_fdw_get_connections();

ALTER EXTENSION multi_fdw UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'multi_fdw';
-- 1.2's objects are not there yet
SELECT to_regclass('multi_fdw_stats') IS NULL AS no_stats_view;
SELECT * FROM multi_fdw_get_connections() WHERE false;

-- the connection made under 1.0 is still there; closed is NULL unless
-- check_conn asks
SELECT server_name, user_name = current_user AS mine, valid, in_transaction,
       used_in_xact, closed, remote_backend_pid > 0 AS has_pid
  FROM multi_fdw_get_connections();
SELECT server_name, closed FROM multi_fdw_get_connections(check_conn => true);

-- remote_backend_pid is the remote's own number for the session:
-- pg_backend_pid() there, CONNECTION_ID() on MariaDB
SELECT multi_fdw_exec('up_pg',
  'CREATE OR REPLACE VIEW public.mf_up_pid AS SELECT pg_backend_pid() AS pid');
CREATE FOREIGN TABLE up_pid (pid bigint)
  SERVER up_pg OPTIONS (schema_name 'public', table_name 'mf_up_pid');
SELECT multi_fdw_exec('up_my',
  'CREATE OR REPLACE VIEW mf_up_id AS SELECT CONNECTION_ID() AS id');
CREATE FOREIGN TABLE up_id (id bigint)
  SERVER up_my OPTIONS (table_name 'mf_up_id');
-- used_in_xact (in_transaction under its postgres_fdw name): the
-- connections this transaction uses
BEGIN;
SELECT pid AS up_pg_pid FROM up_pid \gset
SELECT id AS up_my_id FROM up_id \gset
SELECT server_name, used_in_xact, in_transaction,
       remote_backend_pid = CASE server_name WHEN 'up_pg' THEN :up_pg_pid
                                             ELSE :up_my_id END AS same_session
  FROM multi_fdw_get_connections() ORDER BY server_name;
COMMIT;
SELECT server_name, used_in_xact FROM multi_fdw_get_connections()
 ORDER BY server_name;

-- the remote ends the sessions: closed says so when asked.  In one
-- transaction, since its end drops a connection the transport knows to be
-- lost (mysql's, which looks at its socket)
BEGIN;
SELECT multi_fdw_exec('up_pg_peer',
  format('SELECT pg_terminate_backend(%s)', :up_pg_pid)) AS terminated;
SELECT multi_fdw_exec('up_my_peer', format('KILL %s', :up_my_id)) AS killed;
DO $$
BEGIN
  FOR i IN 1..100 LOOP
    EXIT WHEN (SELECT count(*) FILTER (WHERE closed)
                 FROM multi_fdw_get_connections(true)
                WHERE server_name IN ('up_pg', 'up_my')) = 2;
    PERFORM pg_sleep(0.1);
  END LOOP;
END
$$;
SELECT server_name, closed FROM multi_fdw_get_connections(true)
 ORDER BY server_name;
COMMIT;
SELECT server_name, valid, closed FROM multi_fdw_get_connections(true)
 ORDER BY server_name;
-- the next use connects again, to a new session
SELECT pid AS up_pg_pid2 FROM up_pid \gset
SELECT :up_pg_pid2 <> :up_pg_pid AS new_session,
       remote_backend_pid = :up_pg_pid2 AS same_session, closed
  FROM multi_fdw_get_connections(true) WHERE server_name = 'up_pg';

-- 1.2: the counters, reset only by a superuser unless granted
ALTER EXTENSION multi_fdw UPDATE TO '1.2';
SELECT extversion FROM pg_extension WHERE extname = 'multi_fdw';
SELECT to_regproc('multi_fdw_query') IS NULL AS no_query_function;
SELECT * FROM multi_fdw_stats WHERE false;
SELECT * FROM multi_fdw_progress WHERE false;
SELECT has_function_privilege('public', 'multi_fdw_stats_reset(text)',
                              'EXECUTE') AS public_may_reset,
       has_table_privilege('public', 'multi_fdw_stats', 'SELECT') AS public_reads;
SELECT multi_fdw_stats_reset('up_pg');
SELECT pid = :up_pg_pid2 AS same FROM up_pid;
SELECT server, statements, rows_received, scope FROM multi_fdw_stats
 WHERE server = 'up_pg';


-- 1.3: multi_fdw_query, with and without parameters, counted
ALTER EXTENSION multi_fdw UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'multi_fdw';
SELECT * FROM multi_fdw_query('up_pg', 'SELECT 1, ''one''') AS t(n int, s text);
SELECT * FROM multi_fdw_query('up_my', 'SELECT ? + 1', 41) AS t(n int);
SELECT server, statements FROM multi_fdw_stats
 WHERE server IN ('up_pg', 'up_my') ORDER BY server;

SELECT multi_fdw_exec('up_pg_peer', 'DROP VIEW public.mf_up_pid');
SELECT multi_fdw_exec('up_my_peer', 'DROP VIEW mf_up_id');
\c contrib_regression
DROP DATABASE mf_ext_update WITH (FORCE);
