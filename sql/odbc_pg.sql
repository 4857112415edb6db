--
-- odbc_pg: the postgres dialect over the odbc transport, through psqlODBC
-- (unixODBC, driver "PostgreSQL" and DSN "mf_pg" of the test bed's
-- $ODBCSYSINI/odbcinst.ini and odbc.ini).
--
-- Runs after pg_init (which creates the extension).  Creates its own
-- servers, tables and roles and drops them at the end.  A driver that
-- cannot load makes the first statements fail: nothing is skipped.
-- Connection errors are shown tersely, since the driver's detail names
-- hosts and ports; SQLSTATEs are shown through :LAST_ERROR_SQLSTATE.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD
\getenv odbc_sysini ODBCSYSINI

SELECT :'odbc_sysini' <> '' AS odbcsysini_set, :'pg_port' ~ '^[0-9]+$' AS port_set;

-- ---------------------------------------------------------------------
-- connecting: by DSN, by registered driver name
-- ---------------------------------------------------------------------
CREATE SERVER odbc_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT multi_fdw_exec('odbc_pg', 'SELECT 1');
SELECT server_name, dialect, transport, valid, in_transaction
  FROM multi_fdw_get_connections() WHERE server_name = 'odbc_pg';

CREATE SERVER odbc_pg_drv FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'PostgreSQL',
           host :'pg_host', port :'pg_port', database :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg_drv
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT multi_fdw_exec('odbc_pg_drv', 'SELECT 1');

-- the session as the dialect sets it up, still so after a rollback (the
-- set-up, run outside a remote transaction, is committed at once)
BEGIN;
SELECT multi_fdw_exec('odbc_pg', 'SELECT 1');
ROLLBACK;
SELECT multi_fdw_exec('odbc_pg', $$
  SELECT 1 WHERE current_setting('search_path') = 'pg_catalog'
    AND current_setting('TimeZone') = 'UTC'
    AND current_setting('DateStyle') = 'ISO, MDY'
    AND current_setting('extra_float_digits') = '3'$$) AS session_ok;

-- neither a DSN nor a driver
CREATE SERVER odbc_pg_none FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg_none
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT multi_fdw_exec('odbc_pg_none', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
-- an unknown DSN
\set VERBOSITY terse
ALTER SERVER odbc_pg_none OPTIONS (ADD odbc_dsn 'no_such_dsn');
SELECT multi_fdw_exec('odbc_pg_none', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
DROP SERVER odbc_pg_none CASCADE;

-- the FreeTDS driver loads too (no SQL Server here: refused at once)
CREATE SERVER odbc_tds FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', host '127.0.0.1',
           port '1', odbc_attributes 'TDS_Version=7.4');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_tds
  OPTIONS (user 'sa', password 'secret');
SELECT multi_fdw_exec('odbc_tds', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
DROP SERVER odbc_tds CASCADE;

-- ---------------------------------------------------------------------
-- the connection string: values cannot add attributes
-- ---------------------------------------------------------------------
-- a database name that tries to add another attribute stays one value:
-- no such database
CREATE SERVER odbc_pg_inject FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'PostgreSQL',
           host :'pg_host', port :'pg_port', database 'mfremote;Database=postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg_inject
  OPTIONS (user :'pg_user', password :'pg_password');
\set VERBOSITY terse
SELECT multi_fdw_exec('odbc_pg_inject', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
ALTER SERVER odbc_pg_inject OPTIONS (SET database 'mfremote}; Database={postgres');
SELECT multi_fdw_exec('odbc_pg_inject', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
DROP SERVER odbc_pg_inject CASCADE;

-- odbc_attributes: key=value pairs; the values travel in braces
CREATE SERVER odbc_pg_attr FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes 'ConnSettings=SET application_name = ''a{b=c d'';;');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg_attr
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT multi_fdw_exec('odbc_pg_attr', $$
  SELECT 1 WHERE current_setting('application_name') = 'a{b=c d'$$) AS braces_ok;
DROP SERVER odbc_pg_attr CASCADE;

-- malformed attributes are refused when the option is set
CREATE SERVER odbc_pg_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes 'Fetch');
CREATE SERVER odbc_pg_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes 'Fetch=10;{x}=1');
CREATE SERVER odbc_pg_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes '=1');
-- ODBC keywords belong to the odbc transport
CREATE SERVER odbc_pg_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', odbc_dsn 'mf_pg');

-- ---------------------------------------------------------------------
-- security: what loads a native library is a superuser's decision
-- ---------------------------------------------------------------------
DROP ROLE IF EXISTS regress_mf_odbc_user;
CREATE ROLE regress_mf_odbc_user;
GRANT USAGE ON FOREIGN DATA WRAPPER multi_fdw TO regress_mf_odbc_user;
SET ROLE regress_mf_odbc_user;
-- a driver path
CREATE SERVER odbc_pg_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc',
           odbc_driver '/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so');
\echo :LAST_ERROR_SQLSTATE
-- Driver=, FileDSN=, SaveFile= in the attributes, in any case
CREATE SERVER odbc_pg_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes 'Fetch=10;Driver=/tmp/evil.so');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER odbc_pg_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes ' dRiVeR =PostgreSQL');
CREATE SERVER odbc_pg_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes 'FILEDSN=/tmp/x.dsn');
CREATE SERVER odbc_pg_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg',
           odbc_attributes 'savefile=/tmp/x.dsn');
-- a registered driver name is allowed, and so is a DSN
CREATE SERVER odbc_pg_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_driver 'PostgreSQL',
           host :'pg_host', port :'pg_port', database :'pg_db');
-- a password is required
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg_user
  OPTIONS (user :'pg_user');
SELECT multi_fdw_exec('odbc_pg_user', 'SELECT 1');
ALTER USER MAPPING FOR CURRENT_USER SERVER odbc_pg_user
  OPTIONS (ADD password :'pg_password');
-- ODBC cannot tell whether the remote checked the password: refused
SELECT multi_fdw_exec('odbc_pg_user', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
-- only a superuser may vouch for the remote
ALTER SERVER odbc_pg_user OPTIONS (ADD remote_requires_password 'true');
\echo :LAST_ERROR_SQLSTATE
-- changing the server to a driver path is refused too
ALTER SERVER odbc_pg_user OPTIONS (SET odbc_driver '/tmp/evil.so');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
ALTER SERVER odbc_pg_user OPTIONS (ADD remote_requires_password 'true');
SET ROLE regress_mf_odbc_user;
SELECT multi_fdw_exec('odbc_pg_user', 'SELECT 1');
-- once vouched for, the server is the superuser's to change
ALTER SERVER odbc_pg_user OPTIONS (ADD fetch_size '10');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
ALTER SERVER odbc_pg_user OPTIONS (DROP remote_requires_password);
-- a superuser may name a path
ALTER SERVER odbc_pg_user OPTIONS (SET odbc_driver '/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg_user
  OPTIONS (user :'pg_user', password :'pg_password');
-- but a superuser's mapping is not used while a non-superuser owns the
-- server (docs/security.md): it becomes the superuser's first
SELECT multi_fdw_exec('odbc_pg_user', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
ALTER SERVER odbc_pg_user OWNER TO CURRENT_USER;
SELECT multi_fdw_exec('odbc_pg_user', 'SELECT 1');
DROP SERVER odbc_pg_user CASCADE;
REVOKE USAGE ON FOREIGN DATA WRAPPER multi_fdw FROM regress_mf_odbc_user;
DROP ROLE regress_mf_odbc_user;

-- ---------------------------------------------------------------------
-- types, both ways
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE IF EXISTS public.odbc_types');
SELECT multi_fdw_exec('odbc_pg', $$
  CREATE TABLE public.odbc_types (id int PRIMARY KEY, i2 smallint, i8 bigint,
    f4 real, f8 double precision, n numeric(20,6), nn numeric, b boolean,
    t text, vc varchar(10), c char(3), by bytea, d date, tm time,
    ts timestamp, tstz timestamptz, u uuid, j json, jb jsonb)$$);
CREATE FOREIGN TABLE odbc_types (id int, i2 smallint, i8 bigint,
    f4 real, f8 double precision, n numeric(20,6), nn numeric, b boolean,
    t text, vc varchar(10), c char(3), by bytea, d date, tm time,
    ts timestamp, tstz timestamptz, u uuid, j json, jb jsonb)
  SERVER odbc_pg OPTIONS (schema_name 'public', table_name 'odbc_types');
INSERT INTO odbc_types VALUES
  (1, -32768, 9223372036854775807, 1.5, 0.1, 12345678901234.123456,
   123456789012345678901234567890.123456789, true,
   'héllo ☃ 😀 ''quoted'' "dq" \ back', 'vär', 'ab', '\x00ff10deadbeef',
   '2024-02-29', '23:59:59.999999', '2024-01-02 03:04:05.123456',
   '2024-01-02 03:04:05.5+02', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
   '{"a": [1, 2]}', '{"b": null}'),
  (2, 0, -1, '-Infinity', 'NaN', -0.5, 'NaN', false, '', '', '', '\x',
   '0001-01-01', '00:00', '1970-01-01 00:00', '1999-12-31 23:59:59.999999-08',
   NULL, 'null', '[]'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL);
SELECT * FROM odbc_types ORDER BY id;
-- jsonb's ? would read as a parameter marker over ODBC: checked here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM odbc_types WHERE jb ? 'b';
SELECT id FROM odbc_types WHERE jb ? 'b';
-- the remote holds what was sent
SELECT multi_fdw_exec('odbc_pg', $$
  SELECT 1 FROM public.odbc_types WHERE id = 1
    AND t = 'héllo ☃ 😀 ''quoted'' "dq" \ back' AND by = '\x00ff10deadbeef'
    AND tstz = '2024-01-02 01:04:05.5+00' AND n = 12345678901234.123456
    AND f8 = 0.1 AND b AND u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'$$) AS row1_ok;
-- values as parameters of a pushed-down condition
SELECT id FROM odbc_types WHERE t = 'héllo ☃ 😀 ''quoted'' "dq" \ back';
SELECT id FROM odbc_types WHERE tstz = '2024-01-02 01:04:05.5+00'::timestamptz;
SELECT id FROM odbc_types WHERE by = '\x00ff10deadbeef'::bytea;
SELECT id FROM odbc_types WHERE d = '2024-02-29'::date AND b;
-- a long text and a long bytea
INSERT INTO odbc_types (id, t, by)
  SELECT 4, repeat('ü€😀', 20000), decode(repeat('00ff', 50000), 'hex');
SELECT id, length(t), md5(t) = md5(repeat('ü€😀', 20000)) AS t_ok,
       length(by), by = decode(repeat('00ff', 50000), 'hex') AS by_ok
  FROM odbc_types WHERE id = 4;

-- ---------------------------------------------------------------------
-- scans: pushdown, small fetches
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE IF EXISTS public.odbc_scan');
SELECT multi_fdw_exec('odbc_pg', $$
  CREATE TABLE public.odbc_scan AS
    SELECT g AS id, g % 7 AS k, 'row ' || g AS note FROM generate_series(1, 1000) g$$);
CREATE FOREIGN TABLE odbc_scan (id int, k int, note text)
  SERVER odbc_pg OPTIONS (schema_name 'public', table_name 'odbc_scan',
                          fetch_size '7');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, note FROM odbc_scan WHERE k = 3 AND id < 50;
SELECT id, note FROM odbc_scan WHERE k = 3 AND id < 50 ORDER BY id;
SELECT count(*), sum(id), min(note), max(note) FROM odbc_scan;
-- a parameter of the remote query
PREPARE q(int) AS SELECT count(*) FROM odbc_scan WHERE k = $1;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q(2);
EXECUTE q(2);
-- a generic plan whose parameter is used twice, numbered out of order:
-- ODBC's markers are positional, one ? per use, bound in the order they
-- appear
PREPARE q2(int, int) AS
  SELECT count(*), min(id), max(id) FROM odbc_scan
   WHERE id < $2 AND (k = $1 OR id = $1 * 10 OR id = $1 OR note = 'row ' || $1);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q2(3, 50);
EXECUTE q2(3, 50);
RESET plan_cache_mode;
DEALLOCATE q2;
-- two scans of one connection at once
SELECT a.id, b.id FROM odbc_scan a JOIN odbc_scan b ON a.id = b.id + 500
 WHERE a.id <= 505 ORDER BY 1;

-- a remote syntax error right after a SAVEPOINT: ROLLBACK TO it keeps the
-- remote transaction going, whether the savepoint was the transaction's
-- first statement or not
BEGIN;
SELECT count(*) FROM odbc_scan WHERE id = 1;
SAVEPOINT a;
SELECT multi_fdw_exec('odbc_pg', 'SELEC 1');
ROLLBACK TO SAVEPOINT a;
SELECT count(*) FROM odbc_scan WHERE id = 2;
COMMIT;
BEGIN;
SAVEPOINT a;
SELECT multi_fdw_exec('odbc_pg', 'SELEC 1');
ROLLBACK TO SAVEPOINT a;
SELECT count(*) FROM odbc_scan WHERE id = 3;
COMMIT;

-- ---------------------------------------------------------------------
-- batches: VALUES statements under the odbc transport's 7498-parameter
-- ceiling (psqlODBC's statement description must fit libpq's 30000 bytes)
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE IF EXISTS public.odbc_batch');
SELECT multi_fdw_exec('odbc_pg', 'CREATE TABLE public.odbc_batch (a int PRIMARY KEY, b int)');
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE IF EXISTS public.odbc_batch1');
SELECT multi_fdw_exec('odbc_pg', 'CREATE TABLE public.odbc_batch1 (a int PRIMARY KEY)');
CREATE FOREIGN TABLE odbc_batch (a int, b int)
  SERVER odbc_pg OPTIONS (schema_name 'public', table_name 'odbc_batch',
                          insert_method 'values', batch_size '50000');
CREATE FOREIGN TABLE odbc_batch1 (a int)
  SERVER odbc_pg OPTIONS (schema_name 'public', table_name 'odbc_batch1',
                          insert_method 'values', batch_size '50000');
-- two columns: 3749 rows (7498 parameters) per statement
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_batch SELECT g, g FROM generate_series(1, 10) g;
INSERT INTO odbc_batch SELECT g, -g FROM generate_series(1, 40000) g;
SELECT count(*), sum(a), sum(b) FROM odbc_batch;
-- one column: exactly 7498 parameters per statement, then the rest
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_batch1 SELECT g FROM generate_series(1, 10) g;
INSERT INTO odbc_batch1 SELECT g FROM generate_series(1, 7498) g;
INSERT INTO odbc_batch1 SELECT g FROM generate_series(7499, 70000) g;
SELECT count(*), sum(a) FROM odbc_batch1;
-- over libpq the same table takes 65535 parameters per statement
CREATE FOREIGN TABLE odbc_batch1_libpq (a int)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'odbc_batch1',
                            insert_method 'values', batch_size '100000');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_batch1_libpq SELECT g FROM generate_series(1, 10) g;
DROP FOREIGN TABLE odbc_batch1_libpq;

-- ---------------------------------------------------------------------
-- parameter arrays
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'TRUNCATE public.odbc_batch');
ALTER FOREIGN TABLE odbc_batch OPTIONS (SET insert_method 'array', SET batch_size '10000');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_batch SELECT g, g FROM generate_series(1, 10) g;
-- auto plans arrays, but psqlODBC runs them as one INSERT per set, so
-- the rows go as multi-row VALUES (the count shows they arrived)
CREATE FOREIGN TABLE odbc_batch_auto (a int, b int)
  SERVER odbc_pg OPTIONS (schema_name 'public', table_name 'odbc_batch');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_batch_auto SELECT g, g FROM generate_series(1, 10) g;
INSERT INTO odbc_batch_auto SELECT g, g FROM generate_series(100001, 103000) g;
SELECT count(*) FROM odbc_batch WHERE a > 100000;
SELECT multi_fdw_exec('odbc_pg', 'TRUNCATE public.odbc_batch');
INSERT INTO odbc_batch SELECT g, g * 2 FROM generate_series(1, 25000) g;
SELECT count(*), sum(a), sum(b) FROM odbc_batch;
-- a failure in the middle of an array leaves nothing of the statement
SELECT multi_fdw_exec('odbc_pg', 'TRUNCATE public.odbc_batch');
SELECT multi_fdw_exec('odbc_pg', 'INSERT INTO public.odbc_batch VALUES (12345, 0)');
INSERT INTO odbc_batch SELECT g, g FROM generate_series(1, 20000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*), sum(a) FROM odbc_batch;
-- ... and inside a transaction, a subtransaction's failure only its own
BEGIN;
INSERT INTO odbc_batch SELECT g, g FROM generate_series(1, 100) g;
SAVEPOINT s1;
INSERT INTO odbc_batch SELECT g, g FROM generate_series(12300, 12400) g;
ROLLBACK TO SAVEPOINT s1;
INSERT INTO odbc_batch SELECT g, g FROM generate_series(101, 150) g;
COMMIT;
SELECT count(*), sum(a) FROM odbc_batch;
-- the rows an array call reports are the rows inserted; ON CONFLICT DO
-- NOTHING's skipped rows are not counted
CREATE FUNCTION odbc_rows(sql text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  EXECUTE sql;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;
SELECT odbc_rows('INSERT INTO odbc_batch SELECT g, g FROM generate_series(20001, 32500) g');
SELECT odbc_rows('INSERT INTO odbc_batch SELECT g, g FROM generate_series(140, 160) g ON CONFLICT DO NOTHING');
SELECT count(*) FROM odbc_batch;
SELECT odbc_rows('UPDATE odbc_batch SET b = 0 WHERE a > 32000');
SELECT odbc_rows('DELETE FROM odbc_batch WHERE a > 20000');
DROP FOREIGN TABLE odbc_batch_auto;

-- ---------------------------------------------------------------------
-- transactions and savepoints
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'TRUNCATE public.odbc_batch');
BEGIN;
INSERT INTO odbc_batch VALUES (1, 1);
SELECT in_transaction FROM multi_fdw_get_connections() WHERE server_name = 'odbc_pg';
ROLLBACK;
SELECT count(*) FROM odbc_batch;
BEGIN;
INSERT INTO odbc_batch VALUES (1, 1);
SAVEPOINT a;
INSERT INTO odbc_batch VALUES (2, 2);
SAVEPOINT b;
INSERT INTO odbc_batch VALUES (3, 3);
ROLLBACK TO SAVEPOINT b;
RELEASE SAVEPOINT a;
INSERT INTO odbc_batch VALUES (4, 4);
COMMIT;
SELECT * FROM odbc_batch ORDER BY a;
-- an error rolls the remote transaction back; the connection stays usable
BEGIN;
INSERT INTO odbc_batch VALUES (5, 5);
INSERT INTO odbc_batch VALUES (1, 1);
COMMIT;
SELECT * FROM odbc_batch ORDER BY a;
-- the remote sees REPEATABLE READ
BEGIN;
SELECT multi_fdw_exec('odbc_pg', $$
  SELECT 1 WHERE current_setting('transaction_isolation') = 'repeatable read'$$) AS rr;
COMMIT;

-- ---------------------------------------------------------------------
-- errors: the remote SQLSTATE comes through
-- ---------------------------------------------------------------------
INSERT INTO odbc_batch VALUES (1, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('odbc_pg', 'SELECT 1/0');
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('odbc_pg', 'SELEC 1');
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE odbc_missing (a int)
  SERVER odbc_pg OPTIONS (schema_name 'public', table_name 'no_such_table');
SELECT * FROM odbc_missing;
\echo :LAST_ERROR_SQLSTATE
DROP FOREIGN TABLE odbc_missing;
INSERT INTO odbc_batch VALUES (NULL, 1);
\echo :LAST_ERROR_SQLSTATE

-- ---------------------------------------------------------------------
-- UPDATE and DELETE
-- ---------------------------------------------------------------------
-- whole statements
EXPLAIN (VERBOSE, COSTS OFF) UPDATE odbc_batch SET b = b + 10 WHERE a >= 2;
UPDATE odbc_batch SET b = b + 10 WHERE a >= 2;
-- row by row (by ctid): a condition that only runs here
EXPLAIN (VERBOSE, COSTS OFF) UPDATE odbc_batch SET b = b * 100 WHERE a::text || '' = '4';
UPDATE odbc_batch SET b = b * 100 WHERE a::text || '' = '4';
DELETE FROM odbc_batch WHERE a::text || '' = '1';
SELECT * FROM odbc_batch ORDER BY a;
DELETE FROM odbc_batch;
SELECT count(*) FROM odbc_batch;

-- ---------------------------------------------------------------------
-- IMPORT FOREIGN SCHEMA through ODBC's catalog functions
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'DROP SCHEMA IF EXISTS odbc_imp CASCADE');
SELECT multi_fdw_exec('odbc_pg', 'DROP SCHEMA IF EXISTS odbc_imp_empty CASCADE');
SELECT multi_fdw_exec('odbc_pg', 'CREATE SCHEMA odbc_imp');
SELECT multi_fdw_exec('odbc_pg', 'CREATE SCHEMA odbc_imp_empty');
SELECT multi_fdw_exec('odbc_pg', $$
  CREATE TABLE odbc_imp.t1 (id int PRIMARY KEY, name varchar(20) NOT NULL,
    price numeric(10,2) DEFAULT 0, note text, flag boolean DEFAULT true,
    created timestamp, raw bytea, big bigint, d date, nn numeric,
    vv varchar, ch char(4), ts3 timestamptz(3), u uuid, ia int[])$$);
SELECT multi_fdw_exec('odbc_pg', $$
  CREATE TABLE odbc_imp.t_2 (k1 int, k2 int, v double precision,
    PRIMARY KEY (k1, k2))$$);
SELECT multi_fdw_exec('odbc_pg', 'CREATE TABLE odbc_imp.tx (a int)');
SELECT multi_fdw_exec('odbc_pg', $$
  INSERT INTO odbc_imp.t1 VALUES (1, 'one', 1.50, 'n', true,
    '2024-01-01 10:00', '\x01', 5, '2024-01-01', 1.23456789, repeat('v', 300),
    'abcd', '2024-01-01 10:00:00.123+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    '{1,2}')$$);
CREATE SCHEMA odbc_local;
IMPORT FOREIGN SCHEMA odbc_imp EXCEPT (tx) FROM SERVER odbc_pg INTO odbc_local;
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
       pg_get_expr(d.adbin, d.adrelid) AS def, a.attfdwoptions
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
 WHERE c.relnamespace = 'odbc_local'::regnamespace
 ORDER BY c.relname, a.attnum;
SELECT relname, ftoptions FROM pg_foreign_table JOIN pg_class ON oid = ftrelid
 WHERE relnamespace = 'odbc_local'::regnamespace ORDER BY relname;
SELECT id, name, price, note, flag, created, raw, big, d, nn, length(vv), ch,
       ts3, u, ia FROM odbc_local.t1;
IMPORT FOREIGN SCHEMA odbc_imp LIMIT TO (tx) FROM SERVER odbc_pg INTO odbc_local;
SELECT relname FROM pg_class WHERE relnamespace = 'odbc_local'::regnamespace ORDER BY 1;
-- a schema with no table imports nothing; a missing one is an error
IMPORT FOREIGN SCHEMA odbc_imp_empty FROM SERVER odbc_pg INTO odbc_local;
IMPORT FOREIGN SCHEMA no_such_schema FROM SERVER odbc_pg INTO odbc_local;
\echo :LAST_ERROR_SQLSTATE
DROP SCHEMA odbc_local CASCADE;

-- ---------------------------------------------------------------------
-- dates and timestamps psqlODBC cannot hold (it reads them into a
-- structure first: a BC date lost its era, infinity became 9999-12-31,
-- years past 9999 became 0000-00-00) come as the server's text, selected
-- so, in scans, joins, aggregates, RETURNING and ANALYZE; the same values
-- as through libpq, under a local time zone that is not the remote's
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'CREATE TABLE public.odbc_dt (id int PRIMARY KEY,
  d date, ts timestamp, tz timestamptz, da date[])');
SELECT multi_fdw_exec('odbc_pg', $$INSERT INTO public.odbc_dt VALUES
  (1, '0044-03-15 BC', '0044-03-15 12:00:01.5 BC', '2020-01-01 10:00:00.123456+00',
   '{2020-01-01,0001-01-01 BC}'),
  (2, 'infinity', 'infinity', '-infinity', NULL),
  (3, '5874897-12-31', '294276-12-31 23:59:59.999999', '2000-06-30 23:59:59+00', NULL),
  (4, '2024-02-29', '2024-02-29 00:00:00', '2024-02-29 12:00:00+00', NULL),
  (6, '10000-01-01', '10000-01-01 00:00:00', '10000-01-01 00:00:00+00', NULL)$$);
CREATE FOREIGN TABLE odbc_dt (id int, d date, ts timestamp, tz timestamptz,
  da date[]) SERVER odbc_pg OPTIONS (table_name 'odbc_dt');
CREATE FOREIGN TABLE odbc_dt_pq (id int, d date, ts timestamp, tz timestamptz,
  da date[]) SERVER pg_remote OPTIONS (table_name 'odbc_dt');
SET timezone = 'America/New_York';
SELECT * FROM odbc_dt ORDER BY id;
SELECT (SELECT array_agg(t ORDER BY id)::text FROM odbc_dt t) =
       (SELECT array_agg(t ORDER BY id)::text FROM odbc_dt_pq t) AS same_as_libpq;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM odbc_dt WHERE d < '2000-01-01';
SELECT * FROM odbc_dt WHERE d < '2000-01-01';
EXPLAIN (VERBOSE, COSTS OFF) SELECT d, count(*) FROM odbc_dt GROUP BY d ORDER BY d;
SELECT d, count(*) FROM odbc_dt GROUP BY d ORDER BY d;
SELECT min(d), max(ts), min(tz) FROM odbc_dt;
-- the value, not its text, is sorted: the cast item is named apart, so
-- that ORDER BY d still means the column (10000-01-01 sorts after
-- 2024-02-29, whose text is greater)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, d FROM odbc_dt WHERE d < '20000-01-01' ORDER BY d DESC LIMIT 1;
SELECT id, d FROM odbc_dt WHERE d < '20000-01-01' ORDER BY d DESC LIMIT 1;
SELECT max(d), max(ts) FROM odbc_dt WHERE d < '20000-01-01';
SELECT a.id, b.d, b.tz FROM odbc_dt a JOIN odbc_dt b ON a.id = b.id ORDER BY 1;
BEGIN;
UPDATE odbc_dt SET ts = '0001-01-01 00:00:00 BC' WHERE id = 4 RETURNING *;
INSERT INTO odbc_dt VALUES (5, '0100-01-01 BC', '-infinity', 'infinity') RETURNING *;
ROLLBACK;
ANALYZE odbc_dt;
SELECT histogram_bounds::text FROM pg_stats
 WHERE tablename = 'odbc_dt' AND attname = 'd';
RESET timezone;
DROP FOREIGN TABLE odbc_dt, odbc_dt_pq;
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE public.odbc_dt');

-- ---------------------------------------------------------------------
-- the server's notices: psqlODBC joins a statement's into one record;
-- each is relayed at its level, with its detail; a scan's too; none with
-- relay_messages off; psqlODBC's warning about its own BEGIN is not one
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE IF EXISTS public.odbc_not_there');
SELECT multi_fdw_exec('odbc_pg', $q$DO $x$BEGIN
  RAISE NOTICE 'first %', 1 USING DETAIL = 'its detail';
  RAISE WARNING 'careful';
  RAISE INFO 'for your information';
END$x$$q$);
SELECT multi_fdw_exec('odbc_pg', $q$
  CREATE FUNCTION public.odbc_noisy(i int) RETURNS int LANGUAGE plpgsql AS
  $x$BEGIN RAISE NOTICE 'row %', i; RETURN i; END$x$$q$);
SELECT multi_fdw_exec('odbc_pg', $q$
  CREATE VIEW public.odbc_noisy_rows AS
  SELECT public.odbc_noisy(g) AS i FROM generate_series(1, 3) g$q$);
CREATE FOREIGN TABLE odbc_noisy_rows (i int)
  SERVER odbc_pg OPTIONS (schema_name 'public', table_name 'odbc_noisy_rows');
SELECT count(*) FROM odbc_noisy_rows;
ALTER SERVER odbc_pg OPTIONS (ADD relay_messages 'false');
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE IF EXISTS public.odbc_not_there');
SELECT count(*) FROM odbc_noisy_rows;
ALTER SERVER odbc_pg OPTIONS (DROP relay_messages);
DROP FOREIGN TABLE odbc_noisy_rows;
SELECT multi_fdw_exec('odbc_pg', 'DROP VIEW public.odbc_noisy_rows');
-- 150 notices: 100 shown, then one word that the rest are not
SELECT * FROM multi_fdw_query('odbc_pg',
  'SELECT count(public.odbc_noisy(g)) FROM generate_series(1, 150) g') AS t(n bigint);
-- a notice longer than psqlODBC's pieces of a record is one notice
SELECT multi_fdw_exec('odbc_pg', $q$DO $x$BEGIN
  RAISE NOTICE '%', repeat('0123456789', 110) || ' end';
END$x$$q$);
SELECT multi_fdw_exec('odbc_pg', 'DROP FUNCTION public.odbc_noisy(int)');
-- psqlODBC hands a notice's text as "NOTICE: msg\nDETAIL: ..."; an empty
-- DETAIL line at the end of it, a line break, a character the client's
-- encoding lacks
SELECT multi_fdw_exec('odbc_pg', $q$DO $x$BEGIN
  RAISE NOTICE E'a\nDETAIL:';
  RAISE NOTICE E'one\nserver "elsewhere": forged';
END$x$$q$);
SET client_encoding = 'LATIN1';
SELECT multi_fdw_exec('odbc_pg', $q$DO $x$BEGIN RAISE WARNING E'\u0416'; END$x$$q$);
RESET client_encoding;

-- ---------------------------------------------------------------------
-- clean up
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_pg', 'DROP SCHEMA odbc_imp CASCADE');
SELECT multi_fdw_exec('odbc_pg', 'DROP SCHEMA odbc_imp_empty CASCADE');
SELECT multi_fdw_exec('odbc_pg', 'DROP TABLE public.odbc_types, public.odbc_scan, public.odbc_batch, public.odbc_batch1');
DROP FUNCTION odbc_rows(text);
DROP SERVER odbc_pg CASCADE;
DROP SERVER odbc_pg_drv CASCADE;
