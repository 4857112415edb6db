--
-- mysql_init: the MariaDB server the mysql_* suites use, reached through
-- the mysql transport (MariaDB Connector/C), and what connecting does.
--
-- Runs after the pg_* suites, in the same database.  The server's
-- coordinates come from the test bed's environment (t/testbed/start
-- exports MF_MY_*); psql echoes the :'variable' references as typed, so no
-- host-specific value reaches the expected output.  Connection errors are
-- shown tersely: their detail is the client library's text, which names
-- hosts and ports.
--
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD
\getenv my_socket MF_MY_SOCKET

SELECT :'my_host' <> '' AS host_set, :'my_port' ~ '^[0-9]+$' AS port_set,
       :'my_db' <> '' AS db_set, :'my_user' <> '' AS user_set,
       :'my_password' <> '' AS password_set, :'my_socket' <> '' AS socket_set;

-- the MariaDB server, over TCP (the mysql dialect's default transport)
CREATE SERVER my_real FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_real
  OPTIONS (user :'my_user', password :'my_password');

-- the remote answers; a query reports the rows it returned
SELECT multi_fdw_exec('my_real', 'SELECT 1');
SELECT multi_fdw_exec('my_real', 'SELECT seq FROM seq_1_to_5');
SELECT server_name, dialect, transport, valid, in_transaction
  FROM multi_fdw_get_connections() WHERE server_name = 'my_real';

-- the session as the dialect and the transport set it up: utf8mb4, UTC,
-- strict sql_mode, autocommit off (each check returns one row when true)
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM DUAL
   WHERE @@character_set_client = 'utf8mb4'
     AND @@character_set_results = 'utf8mb4'
     AND @@time_zone = '+00:00'
     AND @@autocommit = 0$$) AS session_ok;
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM DUAL
   WHERE FIND_IN_SET('STRICT_ALL_TABLES', @@sql_mode)
     AND FIND_IN_SET('NO_ZERO_DATE', @@sql_mode)
     AND FIND_IN_SET('NO_BACKSLASH_ESCAPES', @@sql_mode)
     AND FIND_IN_SET('ANSI_QUOTES', @@sql_mode)$$) AS sql_mode_ok;

-- a foreign table on a remote table
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS init_t');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE init_t (id int PRIMARY KEY, name varchar(20)) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO init_t VALUES (1, 'one'), (2, 'two'), (3, NULL)$$);
CREATE FOREIGN TABLE my_init_t (id int, name text)
  SERVER my_real OPTIONS (table_name 'init_t');
SELECT * FROM my_init_t ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF) SELECT name FROM my_init_t WHERE id >= 2;
SELECT name FROM my_init_t WHERE id >= 2 ORDER BY id;

-- the client never lets the server read one of its files: LOAD DATA LOCAL
-- is refused (the test bed's server refuses it too)
\set VERBOSITY terse
SELECT multi_fdw_exec('my_real', $$
  LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE init_t$$);
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default

-- over the unix socket (host localhost, as Connector/C reads it)
CREATE SERVER my_sock FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host 'localhost', unix_socket :'my_socket',
           database :'my_db', connect_timeout '10');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_sock
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('my_sock', 'SELECT 1 FROM DUAL WHERE @@hostname <> ''''');

-- init_command runs when the connection opens
CREATE SERVER my_initcmd FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db', init_command 'SET @mf_marker = 42',
           character_set 'utf8mb4');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_initcmd
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('my_initcmd', 'SELECT 1 FROM DUAL WHERE @mf_marker = 42');

-- options of other transports are refused, values are checked
CREATE SERVER my_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', dbname 'x');
CREATE SERVER my_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', ssl_mode 'sometimes');

-- connection failures, with their SQLSTATEs
\set VERBOSITY terse
CREATE SERVER my_badpw FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_badpw
  OPTIONS (user :'my_user', password 'wrong');
SELECT multi_fdw_exec('my_badpw', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE

CREATE SERVER my_nodb FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database 'no_such_database');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_nodb
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('my_nodb', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE

-- the test bed's server has no TLS: requiring it fails
CREATE SERVER my_tls FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db', ssl_mode 'required');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_tls
  OPTIONS (user :'my_user', password :'my_password');
\set VERBOSITY default
SELECT multi_fdw_exec('my_tls', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY terse
ALTER SERVER my_tls OPTIONS (SET ssl_mode 'verify_identity');
SELECT multi_fdw_exec('my_tls', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE

CREATE SERVER my_badport FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port 'x1',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_badport
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('my_badport', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default

DROP SERVER my_badpw, my_nodb, my_tls, my_badport CASCADE;

-- the good connections are still there
SELECT server_name, valid FROM multi_fdw_get_connections()
 WHERE server_name LIKE 'my%' ORDER BY server_name;

-- a local database that is not UTF8 cannot reach MySQL: the session is
-- utf8mb4 and values cross as they are
CREATE DATABASE mf_my_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'
  TEMPLATE template0;
\c mf_my_latin1
CREATE EXTENSION multi_fdw;
CREATE SERVER my_latin1 FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_latin1
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('my_latin1', 'SELECT 1');
\c contrib_regression
DROP DATABASE mf_my_latin1;
