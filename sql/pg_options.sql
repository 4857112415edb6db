--
-- pg_options: option validation in every context (server, user mapping,
-- foreign table, column), and the password rules for non-superusers.
--
-- The SQLSTATE is shown with \echo :LAST_ERROR_SQLSTATE where it matters
-- (VERBOSITY verbose would also print the C source line, which moves with
-- every edit of src/).
--

-- ===================================================================
-- servers
-- ===================================================================

-- the dialect is required
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw;
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw OPTIONS (host 'h');

-- unknown dialect and transport name the valid ones
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw OPTIONS (dialect 'db2');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'jdbc');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw OPTIONS (dialect '');

-- a native library speaks its own dialect only; ODBC speaks them all
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'libpq');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'mysql');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', transport 'libpq');
CREATE SERVER opt_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'x');
CREATE SERVER opt_mysql FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'mysql', host 'h', unix_socket '/tmp/s',
           ssl_mode 'REQUIRED', character_set 'utf8mb4');

-- a connection keyword of another transport
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', dbname 'x');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', unix_socket '/tmp/s');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', database 'x');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', sslmode 'require');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', dbname 'x');

-- misspelled options: the closest valid one is suggested
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batchsize '10');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', dbnme 'x');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', fetchsize '10');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dilect 'postgres');
-- options of another context are unknown here (user is a user mapping's);
-- with nothing close, the valid ones are listed
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', user 'x');

-- integers: range and syntax
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '0');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '1000001');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '-5');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size 'ten');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '10x');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '1.5');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '99999999999999999999');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_bytes '1023');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_bytes '1073741825');
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', fetch_size '0');
-- the bounds themselves are valid
CREATE SERVER opt_bounds FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', batch_size '1000000', batch_bytes '1024',
           fetch_size '1');
ALTER SERVER opt_bounds OPTIONS (SET batch_size '1', SET batch_bytes '1073741824',
                                 SET fetch_size '10000000');

-- booleans
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', updatable 'maybe');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', keep_connections '2');
CREATE SERVER opt_bool FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', updatable 'off', keep_connections 'ON');
-- the usual spellings, as for PostgreSQL's own boolean settings
ALTER SERVER opt_bool OPTIONS (SET updatable 'yes');
ALTER SERVER opt_bool OPTIONS (SET updatable 'no');
ALTER SERVER opt_bool OPTIONS (SET keep_connections '1');
ALTER SERVER opt_bool OPTIONS (SET keep_connections '0');

-- insert_method: auto, values, row or copy, in any case
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', insert_method 'bulk');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', insert_method '');
ALTER SERVER opt_bool OPTIONS (ADD insert_method 'auto');
ALTER SERVER opt_bool OPTIONS (SET insert_method 'values');
ALTER SERVER opt_bool OPTIONS (SET insert_method 'ROW');
ALTER SERVER opt_bool OPTIONS (SET insert_method 'Copy');
-- ssl_mode of the mysql transport is checked the same way
CREATE SERVER opt_s FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', ssl_mode 'sometimes');

-- the wrapper itself takes no options
ALTER FOREIGN DATA WRAPPER multi_fdw OPTIONS (dialect 'postgres');
\echo :LAST_ERROR_SQLSTATE

-- ===================================================================
-- ALTER SERVER revalidates the whole set
-- ===================================================================
CREATE SERVER opt_alt FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host 'h', dbname 'd');
-- dbname is libpq's: the server cannot become a mysql one ...
ALTER SERVER opt_alt OPTIONS (SET dialect 'mysql');
-- ... nor go through ODBC ...
ALTER SERVER opt_alt OPTIONS (ADD transport 'odbc');
-- ... nor lose its dialect
ALTER SERVER opt_alt OPTIONS (DROP dialect);
ALTER SERVER opt_alt OPTIONS (ADD batch_size '0');
ALTER SERVER opt_alt OPTIONS (ADD batchsize '10');
-- core checks of SET/ADD/DROP themselves
ALTER SERVER opt_alt OPTIONS (SET fetch_size '10');
ALTER SERVER opt_alt OPTIONS (ADD host 'h2');
ALTER SERVER opt_alt OPTIONS (DROP port);
-- nothing changed
SELECT srvoptions FROM pg_foreign_server WHERE srvname = 'opt_alt';
-- in one command, it works: drop dbname, then the dialect can change
ALTER SERVER opt_alt OPTIONS (DROP dbname, SET dialect 'mysql', ADD database 'd',
                              ADD fetch_size '50');
ALTER SERVER opt_alt OPTIONS (ADD transport 'odbc', SET dialect 'oracle',
                              ADD odbc_dsn 'ora');
ALTER SERVER opt_alt OPTIONS (SET transport 'mysql');
SELECT srvoptions FROM pg_foreign_server WHERE srvname = 'opt_alt';

-- ===================================================================
-- foreign tables and columns
-- ===================================================================
CREATE FOREIGN TABLE opt_ft (a int, b text) SERVER pg_remote
  OPTIONS (batch_size '500', batch_bytes '65536', fetch_size '100',
           insert_method 'row', updatable 'false', schema_name 's',
           table_name 't');
-- server-only and unknown options
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (dialect 'mysql');
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (keep_connections 'on');
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (host 'h');
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (tablename 't');
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (schema 's');
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (batch_size '0');
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (fetch_size 'all');
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (updatable 'sure');
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (insert_method 'rows');
-- names must not be empty
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (table_name '');
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE opt_bad (a int) SERVER pg_remote OPTIONS (schema_name '');
-- columns: column_name and key only
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (colum_name 'x')) SERVER pg_remote;
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (keys 'true')) SERVER pg_remote;
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (fetch_size '10')) SERVER pg_remote;
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (xyzzy '10')) SERVER pg_remote;
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (key 'perhaps')) SERVER pg_remote;
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (column_name '')) SERVER pg_remote;
CREATE FOREIGN TABLE opt_cols (a int OPTIONS (column_name 'A', key 'true'),
                               b int OPTIONS (key 'off')) SERVER pg_remote;

-- ALTER FOREIGN TABLE OPTIONS: ADD, SET and DROP are checked
ALTER FOREIGN TABLE opt_ft OPTIONS (SET fetch_size '0');
ALTER FOREIGN TABLE opt_ft OPTIONS (SET insert_method 'bulk');
ALTER FOREIGN TABLE opt_ft OPTIONS (ADD fetchsize '10');
ALTER FOREIGN TABLE opt_ft OPTIONS (ADD fetch_size '10');
ALTER FOREIGN TABLE opt_ft OPTIONS (DROP keep_connections);
ALTER FOREIGN TABLE opt_ft OPTIONS (SET fetch_size '7', DROP batch_bytes,
                                    SET insert_method 'VALUES', DROP schema_name);
SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'opt_ft'::regclass;
ALTER FOREIGN TABLE opt_cols ALTER COLUMN b OPTIONS (SET key 'maybe');
ALTER FOREIGN TABLE opt_cols ALTER COLUMN b OPTIONS (ADD column_nam 'B');
ALTER FOREIGN TABLE opt_cols ALTER COLUMN b OPTIONS (SET key 'on', ADD column_name 'B');
ALTER FOREIGN TABLE opt_cols ALTER COLUMN a OPTIONS (DROP key);
SELECT attname, attfdwoptions FROM pg_attribute
 WHERE attrelid = 'opt_cols'::regclass AND attnum > 0 ORDER BY attnum;

-- ===================================================================
-- user mappings
-- ===================================================================
CREATE USER MAPPING FOR PUBLIC SERVER opt_bounds OPTIONS (usr 'x');
\echo :LAST_ERROR_SQLSTATE
CREATE USER MAPPING FOR PUBLIC SERVER opt_bounds OPTIONS (passwd 'x');
CREATE USER MAPPING FOR PUBLIC SERVER opt_bounds OPTIONS (host 'x');
CREATE USER MAPPING FOR PUBLIC SERVER opt_bounds OPTIONS (password_required 'nope');
CREATE USER MAPPING FOR PUBLIC SERVER opt_bounds
  OPTIONS (user 'u', password 'p', sslcert 'c', sslkey 'k', password_required 'true');
-- a superuser may turn the password requirement off
ALTER USER MAPPING FOR PUBLIC SERVER opt_bounds OPTIONS (SET password_required 'false');

-- ===================================================================
-- non-superusers and passwords
-- ===================================================================
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_mf_opt_user;
RESET client_min_messages;
CREATE ROLE regress_mf_opt_user;
GRANT USAGE ON FOREIGN SERVER pg_remote TO regress_mf_opt_user;
GRANT USAGE ON FOREIGN SERVER opt_bounds TO regress_mf_opt_user;
CREATE FOREIGN TABLE opt_remote_ft (x int) SERVER pg_remote
  OPTIONS (schema_name 'pg_catalog', table_name 'pg_am');
GRANT SELECT ON opt_remote_ft TO regress_mf_opt_user;

SET ROLE regress_mf_opt_user;
-- password_required false is the superuser's call, on CREATE and ALTER
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_remote
  OPTIONS (user 'mfapp', password_required 'false');
\echo :LAST_ERROR_SQLSTATE
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_remote OPTIONS (user 'mfapp');
ALTER USER MAPPING FOR CURRENT_USER SERVER pg_remote
  OPTIONS (ADD password_required 'off');
-- 'true' is harmless
ALTER USER MAPPING FOR CURRENT_USER SERVER pg_remote
  OPTIONS (ADD password_required 'true');

-- without a password in the mapping, no connection is even tried
SELECT multi_fdw_exec('pg_remote', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM opt_remote_ft;
RESET ROLE;

-- a superuser's password_required 'false' lets the mapping try without one;
-- the remote wants a password over TCP, so it still fails (terse: the
-- detail would name the host and port)
ALTER USER MAPPING FOR regress_mf_opt_user SERVER pg_remote
  OPTIONS (SET password_required 'false');
SET ROLE regress_mf_opt_user;
\set VERBOSITY terse
SELECT multi_fdw_exec('pg_remote', 'SELECT 1');
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;

-- with the password it works, as the non-superuser
\getenv pg_password MF_PG_PASSWORD
ALTER USER MAPPING FOR regress_mf_opt_user SERVER pg_remote
  OPTIONS (DROP password_required, ADD password :'pg_password');
SET ROLE regress_mf_opt_user;
SELECT multi_fdw_exec('pg_remote', 'SELECT 1');
SELECT count(*) > 0 AS has_rows FROM opt_remote_ft;
SELECT server_name, user_name FROM multi_fdw_get_connections() ORDER BY 1, 2;
-- USAGE on the server is needed for multi_fdw_exec
SELECT multi_fdw_exec('ms_remote', 'SELECT 1');
RESET ROLE;

-- a password in the mapping is not enough when the remote does not ask for
-- it: over its unix socket the remote trusts everyone
\getenv pg_sockdir MF_SOCKDIR
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
CREATE SERVER opt_trust FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_sockdir', port :'pg_port', dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER opt_trust OPTIONS (user :'pg_user');
CREATE USER MAPPING FOR regress_mf_opt_user SERVER opt_trust
  OPTIONS (user :'pg_user', password 'not checked');
GRANT USAGE ON FOREIGN SERVER opt_trust TO regress_mf_opt_user;
-- a superuser may borrow the trust
SELECT multi_fdw_exec('opt_trust', 'SELECT 1');
SET ROLE regress_mf_opt_user;
SELECT multi_fdw_exec('opt_trust', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
-- unless a superuser turned the requirement off for the mapping
ALTER USER MAPPING FOR regress_mf_opt_user SERVER opt_trust
  OPTIONS (ADD password_required 'false');
SET ROLE regress_mf_opt_user;
SELECT multi_fdw_exec('opt_trust', 'SELECT 1');
RESET ROLE;

-- ===================================================================
-- session_sql: statements run on every new connection instead of the
-- dialect's own session setup, one at a time, split at semicolons that
-- are not inside quotes
-- ===================================================================
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD
CREATE SERVER opt_sess FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db',
           session_sql 'SET application_name = ''mf;sess'' ; ; SET TimeZone = ''UTC''');
CREATE USER MAPPING FOR CURRENT_USER SERVER opt_sess
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT multi_fdw_exec('pg_remote', $$CREATE TABLE public.opt_sess_t (
  id int, app text DEFAULT current_setting('application_name'),
  tz text DEFAULT current_setting('TimeZone'))$$);
CREATE FOREIGN TABLE opt_sess_ft (id int, app text, tz text)
  SERVER opt_sess OPTIONS (schema_name 'public', table_name 'opt_sess_t');
CREATE FOREIGN TABLE opt_sess_in (id int)
  SERVER opt_sess OPTIONS (schema_name 'public', table_name 'opt_sess_t');
INSERT INTO opt_sess_in VALUES (1);
SELECT * FROM opt_sess_ft;
-- a statement the remote refuses names the server and the statement, and
-- the connection is not kept half set up
ALTER SERVER opt_sess OPTIONS (SET session_sql 'SET no_such_setting = 1');
SELECT * FROM opt_sess_ft;
\echo :LAST_ERROR_SQLSTATE
-- changing the option reconnects with the new setup
ALTER SERVER opt_sess OPTIONS (SET session_sql 'SET application_name = ''second''');
INSERT INTO opt_sess_in VALUES (2);
SELECT * FROM opt_sess_ft ORDER BY id;
-- it replaces the dialect's own setup, so it cannot be empty
ALTER SERVER opt_sess OPTIONS (SET session_sql '');
\echo :LAST_ERROR_SQLSTATE
-- it is a server option only
CREATE FOREIGN TABLE opt_sess_bad (id int) SERVER opt_sess
  OPTIONS (session_sql 'SET x = 1');
\echo :LAST_ERROR_SQLSTATE
DROP FOREIGN TABLE opt_sess_ft, opt_sess_in;
DROP USER MAPPING FOR CURRENT_USER SERVER opt_sess;
DROP SERVER opt_sess;
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE public.opt_sess_t');

-- two_phase_commit: only where the remote can prepare and the transport
-- lets the core end the transaction itself (docs/transactions.md)
CREATE SERVER opt_2pc_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', two_phase_commit 'on');
CREATE SERVER opt_2pc_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', two_phase_commit 'on');
CREATE SERVER opt_2pc_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg', two_phase_commit 'on');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER opt_2pc_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', two_phase_commit 'on');
CREATE SERVER opt_2pc_off FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', two_phase_commit 'off');
SET multi_fdw.two_phase_commit = 'sometimes';
SET multi_fdw.two_phase_fault = 'crash_after_local_commit';
SET ROLE regress_mf_opt_user;
SET multi_fdw.two_phase_fault = 'crash_after_local_commit';
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
RESET multi_fdw.two_phase_fault;
DROP SERVER IF EXISTS opt_2pc_pg, opt_2pc_my, opt_2pc_off;

-- ===================================================================
-- clean up
-- ===================================================================
SELECT multi_fdw_disconnect_all();
DROP FOREIGN TABLE opt_ft, opt_cols, opt_remote_ft;
DROP USER MAPPING FOR CURRENT_USER SERVER opt_trust;
DROP USER MAPPING FOR regress_mf_opt_user SERVER opt_trust;
DROP USER MAPPING FOR regress_mf_opt_user SERVER pg_remote;
DROP USER MAPPING FOR PUBLIC SERVER opt_bounds;
DROP SERVER opt_odbc, opt_mysql, opt_bool, opt_alt, opt_bounds, opt_trust;
REVOKE USAGE ON FOREIGN SERVER pg_remote FROM regress_mf_opt_user;
DROP ROLE regress_mf_opt_user;
