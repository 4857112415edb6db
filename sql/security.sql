--
-- security: what a user who is not a superuser may not do through
-- multi_fdw, transport by transport (docs/security.md has the rules), and
-- that a superuser still may where it makes sense.
--
-- Runs after pg_init, mysql_init, odbc_pg and odbc_mysql.  Creates its own
-- roles, servers and tables and drops them at the end.  Connection errors
-- are shown tersely, since a driver's detail names hosts and ports.
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
\getenv my_socket MF_MY_SOCKET
\getenv bed MF_TMP

DROP ROLE IF EXISTS regress_mf_sec;
CREATE ROLE regress_mf_sec;
GRANT USAGE ON FOREIGN DATA WRAPPER multi_fdw TO regress_mf_sec;

-- ---------------------------------------------------------------------
-- an empty password is no password: never the gateway's own .pgpass
-- ---------------------------------------------------------------------
-- the gateway's home (the test bed's folder) gets a .pgpass that knows the
-- remote's password
\! printf '%s:%s:%s:%s:%s\n' "$MF_PG_HOST" "$MF_PG_PORT" "$MF_PG_DB" "$MF_PG_USER" "$MF_PG_PASSWORD" > "$MF_TMP/.pgpass" && chmod 600 "$MF_TMP/.pgpass" && { [ "$(id -u)" -ne 0 ] || chown mfdw: "$MF_TMP/.pgpass"; }
CREATE SERVER sec_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port', dbname :'pg_db');
GRANT USAGE ON FOREIGN SERVER sec_pg TO regress_mf_sec;
-- a superuser without a password: libpq reads the .pgpass, as for
-- postgres_fdw (it is the superuser's own host)
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_pg OPTIONS (user :'pg_user');
SELECT multi_fdw_exec('sec_pg', 'SELECT 1');
SET ROLE regress_mf_sec;
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_pg
  OPTIONS (user :'pg_user', password '');
SELECT multi_fdw_exec('sec_pg', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
-- a real password works
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_pg
  OPTIONS (SET password :'pg_password');
SELECT multi_fdw_exec('sec_pg', 'SELECT 1');
RESET ROLE;
\! rm -f "$MF_TMP/.pgpass"

-- root reaches the test bed's MariaDB over its socket without a password:
-- the superuser's way in to make accounts
CREATE SERVER sec_my_root FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host 'localhost', unix_socket :'my_socket');
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_my_root OPTIONS (user 'root');

-- mysql: an empty password would reach a password-less account
SELECT multi_fdw_exec('sec_my_root', $$CREATE USER IF NOT EXISTS 'mf_nopw'@'%'$$) IS NOT NULL AS created;
CREATE SERVER sec_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port');
GRANT USAGE ON FOREIGN SERVER sec_my TO regress_mf_sec;
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_my OPTIONS (user 'mf_nopw');
SELECT multi_fdw_exec('sec_my', 'SELECT 1');
SET ROLE regress_mf_sec;
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_my
  OPTIONS (user 'mf_nopw', password '');
SELECT multi_fdw_exec('sec_my', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
-- and a made-up one is refused by the account
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_my OPTIONS (SET password 'x');
\set VERBOSITY terse
SELECT multi_fdw_exec('sec_my', 'SELECT 1');
\set VERBOSITY default
RESET ROLE;
DROP SERVER sec_my CASCADE;
SELECT multi_fdw_exec('sec_my_root', $$DROP USER 'mf_nopw'@'%'$$) IS NOT NULL AS dropped;

-- ---------------------------------------------------------------------
-- mysql: a non-superuser's login goes by its password alone, never by the
-- socket's peer identity (unix_socket authentication as the gateway's OS
-- user, mfdw in the test bed)
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('sec_my_root', $$CREATE USER IF NOT EXISTS 'mfdw'@'localhost' IDENTIFIED VIA unix_socket$$) IS NOT NULL AS created;
CREATE SERVER sec_my_sock FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host 'localhost', port :'my_port',
           unix_socket :'my_socket');
GRANT USAGE ON FOREIGN SERVER sec_my_sock TO regress_mf_sec;
-- a superuser may use the host's identity
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_my_sock OPTIONS (user 'mfdw');
SELECT multi_fdw_exec('sec_my_sock', 'SELECT 1');
-- a non-superuser, whatever the password, does not get in by the socket
SET ROLE regress_mf_sec;
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_my_sock
  OPTIONS (user 'mfdw', password 'anything');
\set VERBOSITY terse
SELECT multi_fdw_exec('sec_my_sock', 'SELECT 1');
\set VERBOSITY default
RESET ROLE;
SELECT multi_fdw_exec('sec_my_root', $$DROP USER 'mfdw'@'localhost'$$) IS NOT NULL AS dropped;
DROP SERVER sec_my_sock CASCADE;
DROP SERVER sec_my_root CASCADE;

-- ---------------------------------------------------------------------
-- options that name a file of this host are a superuser's, everywhere
-- ---------------------------------------------------------------------
SET ROLE regress_mf_sec;
CREATE SERVER sec_file FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', sslrootcert '/etc/ssl/certs/ca-certificates.crt');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER sec_file FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', sslcrl '/tmp/x');
CREATE SERVER sec_file FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', ssl_ca '/tmp/ca.pem');
CREATE SERVER sec_file FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', unix_socket '/tmp/mysqld.sock');
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_pg OPTIONS (ADD sslcert '/tmp/x.crt');
\echo :LAST_ERROR_SQLSTATE
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_pg OPTIONS (ADD sslkey '/tmp/x.key');
RESET ROLE;
-- a superuser may; then the non-superuser can change nothing of it
ALTER USER MAPPING FOR regress_mf_sec SERVER sec_pg OPTIONS (ADD sslkey '/tmp/x.key');
SET ROLE regress_mf_sec;
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_pg OPTIONS (SET password 'other');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP SERVER sec_pg CASCADE;

-- ---------------------------------------------------------------------
-- ODBC: drivers by their registered names, attributes from an allow-list
-- ---------------------------------------------------------------------
SET ROLE regress_mf_sec;
-- a bare library name that the loader would find
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'libsqlite3odbc.so');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'SQLite3');
-- attributes that load a library, write a file or change the session
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'PostgreSQL',
           odbc_attributes 'LoadExt=/tmp/evil.so');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'PostgreSQL',
           odbc_attributes 'Port=5432; Debug=1;CommLog=1');
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'PostgreSQL',
           odbc_attributes 'ConnSettings=SET standard_conforming_strings = off');
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_driver 'MariaDB',
           odbc_attributes 'SSLCA=/tmp/ca.pem');
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_driver 'MariaDB',
           odbc_attributes 'NOLOCALINFILE=0');
-- what only says where and how to connect is anyone's
CREATE SERVER sec_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'PostgreSQL',
           host :'pg_host', database :'pg_db',
           odbc_attributes 'Port=5432; SSLmode = disable; Fetch=50');
ALTER SERVER sec_odbc OPTIONS (SET odbc_attributes 'Port=5432;UseDeclareFetch=0');
-- but remote_requires_password is not
ALTER SERVER sec_odbc OPTIONS (ADD remote_requires_password 'true');
\echo :LAST_ERROR_SQLSTATE
ALTER SERVER sec_odbc OPTIONS (ADD remote_requires_password 'false');
RESET ROLE;
-- a superuser may set any attribute and name any library
ALTER SERVER sec_odbc OPTIONS (SET odbc_attributes 'Port=5432;Debug=0');
ALTER SERVER sec_odbc OPTIONS (SET odbc_driver 'libsqlite3odbc.so');
DROP SERVER sec_odbc CASCADE;

-- ODBC: no value can add an attribute, for any driver's parser: FreeTDS
-- ends braces at the first "};", whatever came before
\getenv tds_host MF_TDS_HOST
\getenv tds_port MF_TDS_PORT
\getenv tds_db MF_TDS_DB
\getenv tds_user MF_TDS_USER
\getenv tds_password MF_TDS_PASSWORD
CREATE SERVER sec_tds FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', host :'tds_host',
           port :'tds_port', database :'tds_db',
           odbc_attributes 'TDS_Version=7.4', remote_requires_password 'true');
GRANT USAGE ON FOREIGN SERVER sec_tds TO regress_mf_sec;
SET ROLE regress_mf_sec;
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_tds
  OPTIONS (user :'tds_user', password 'x};DumpFile=/tmp/mf_sec_dump;PWD=mfsecret;');
\set VERBOSITY terse
SELECT multi_fdw_exec('sec_tds', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
\! test -e /tmp/mf_sec_dump && echo "the dump file was written" || echo "no dump file"
-- without a user name FreeTDS would try the host's Kerberos ticket
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_tds
  OPTIONS (DROP user, SET password :'tds_password');
\set VERBOSITY terse
SELECT multi_fdw_exec('sec_tds', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
-- with both, a non-superuser gets in: the remote checks the password
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_tds OPTIONS (ADD user :'tds_user');
SELECT multi_fdw_exec('sec_tds', 'SELECT 1');
RESET ROLE;
-- a server's option is checked when it is set
ALTER SERVER sec_tds OPTIONS (SET database 'mfdb};Port={1');
\echo :LAST_ERROR_SQLSTATE
DROP SERVER sec_tds CASCADE;

-- ---------------------------------------------------------------------
-- mysql: a constant cannot leave its literal, whatever the sql_mode
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS sec_names');
SELECT multi_fdw_exec('my_real', $$CREATE TABLE sec_names (id int PRIMARY KEY,
  name varchar(20) COLLATE utf8mb4_bin)$$);
SELECT multi_fdw_exec('my_real', $$INSERT INTO sec_names VALUES (1, 'alice'), (2, 'x\''y')$$);
CREATE FOREIGN TABLE sec_names (id int, name varchar(20) OPTIONS (text_pushdown 'true'))
  SERVER my_real OPTIONS (table_name 'sec_names');
-- a backslash goes in hex: the same text with or without NO_BACKSLASH_ESCAPES
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM sec_names WHERE name = $$\' OR 1=1 -- $$;
SELECT id FROM sec_names WHERE name = $$\' OR 1=1 -- $$;
SELECT id FROM sec_names WHERE name = $$x\'y$$;
SELECT id FROM sec_names WHERE name = 'alice';
-- a session_sql that drops what the dialect relies on is refused
CREATE SERVER sec_my_mode FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port', database :'my_db',
           session_sql 'SET SESSION sql_mode = ''STRICT_ALL_TABLES''');
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_my_mode
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE sec_names_mode (id int, name varchar(20) OPTIONS (text_pushdown 'true'))
  SERVER sec_my_mode OPTIONS (table_name 'sec_names');
SELECT id FROM sec_names_mode WHERE name = $$\' OR 1=1 -- $$;
\echo :LAST_ERROR_SQLSTATE
-- nor may it change the character set (under gbk a quote or a backtick can
-- be the second byte of a character)
ALTER SERVER sec_my_mode OPTIONS (SET session_sql
  'SET SESSION sql_mode = ''STRICT_ALL_TABLES,NO_ZERO_DATE,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''; SET NAMES gbk');
SELECT id FROM sec_names_mode WHERE name = 'alice';
-- one that keeps them is fine
ALTER SERVER sec_my_mode OPTIONS (SET session_sql
  'SET SESSION sql_mode = ''STRICT_ALL_TABLES,NO_ZERO_DATE,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
SELECT id FROM sec_names_mode WHERE name = $$x\'y$$;
DROP SERVER sec_my_mode CASCADE;
DROP FOREIGN TABLE sec_names;
SELECT multi_fdw_exec('my_real', 'DROP TABLE sec_names');

-- ---------------------------------------------------------------------
-- bytea reaches the remote exactly, whatever bytea_output says
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS sec_bytes');
SELECT multi_fdw_exec('my_real', 'CREATE TABLE sec_bytes (id int PRIMARY KEY, b longblob)');
CREATE FOREIGN TABLE sec_bytes (id int, b bytea) SERVER my_real
  OPTIONS (table_name 'sec_bytes');
SET bytea_output = 'escape';
INSERT INTO sec_bytes VALUES (1, '\x5c3031'), (2, 'abc'),
  (3, (SELECT string_agg(set_byte('\x00'::bytea, 0, i), '') FROM generate_series(0, 255) i));
ALTER FOREIGN TABLE sec_bytes OPTIONS (ADD insert_method 'values');
INSERT INTO sec_bytes VALUES (4, '\x5c3031'), (5, 'abc');
ALTER FOREIGN TABLE sec_bytes OPTIONS (SET insert_method 'row');
INSERT INTO sec_bytes VALUES (6, '\x5c3031');
RESET bytea_output;
-- read on the remote: each row counts once when it holds the right bytes
SELECT multi_fdw_exec('my_real', $$SELECT id FROM sec_bytes WHERE
     (id IN (1, 4, 6) AND HEX(b) = '5C3031')
  OR (id IN (2, 5) AND HEX(b) = '616263')
  OR (id = 3 AND LENGTH(b) = 256 AND MD5(b) = '$$ ||
  md5((SELECT string_agg(set_byte('\x00'::bytea, 0, i), '') FROM generate_series(0, 255) i)) || $$')$$) AS exact_rows;
DROP FOREIGN TABLE sec_bytes;
SELECT multi_fdw_exec('my_real', 'DROP TABLE sec_bytes');

-- ---------------------------------------------------------------------
-- two-phase commit: a non-superuser's commit records its decision, but
-- nobody else may read or change the decisions, resolve or inject faults
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE IF EXISTS public.sec_2pc');
SELECT multi_fdw_exec('pg_remote', 'CREATE TABLE public.sec_2pc (id int)');
SELECT multi_fdw_exec('pg_remote', 'GRANT ALL ON public.sec_2pc TO PUBLIC');
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS sec_2pc');
SELECT multi_fdw_exec('my_real', 'CREATE TABLE sec_2pc (id int)');
CREATE SERVER sec_2pc_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port', dbname :'pg_db',
           two_phase_commit 'on');
CREATE SERVER sec_2pc_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port', database :'my_db',
           two_phase_commit 'on');
GRANT USAGE ON FOREIGN SERVER sec_2pc_pg, sec_2pc_my TO regress_mf_sec;
CREATE USER MAPPING FOR regress_mf_sec SERVER sec_2pc_pg
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE USER MAPPING FOR regress_mf_sec SERVER sec_2pc_my
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE sec_2pc_p (id int) SERVER sec_2pc_pg
  OPTIONS (schema_name 'public', table_name 'sec_2pc');
CREATE FOREIGN TABLE sec_2pc_m (id int) SERVER sec_2pc_my
  OPTIONS (table_name 'sec_2pc');
GRANT ALL ON sec_2pc_p, sec_2pc_m TO regress_mf_sec;
SET ROLE regress_mf_sec;
BEGIN;
INSERT INTO sec_2pc_p VALUES (1);
INSERT INTO sec_2pc_m VALUES (1);
COMMIT;
SELECT count(*) FROM sec_2pc_p;
SELECT count(*) FROM sec_2pc_m;
SELECT count(*) FROM multi_fdw_decision;
\echo :LAST_ERROR_SQLSTATE
DELETE FROM multi_fdw_decision;
SELECT * FROM multi_fdw_in_doubt;
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM multi_fdw_resolve();
\echo :LAST_ERROR_SQLSTATE
SET multi_fdw.two_phase_fault = 'crash_after_local_commit';
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
-- the superuser sees nothing left in doubt
SELECT * FROM multi_fdw_in_doubt WHERE server_name LIKE 'sec_2pc%';
DROP SERVER sec_2pc_pg, sec_2pc_my CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE public.sec_2pc');
SELECT multi_fdw_exec('my_real', 'DROP TABLE sec_2pc');

REVOKE USAGE ON FOREIGN DATA WRAPPER multi_fdw FROM regress_mf_sec;
DROP ROLE regress_mf_sec;
