--
-- remote_query: multi_fdw_query(server, sql [, params ...]), a query run on
-- the remote as written, its rows typed by the column definition list,
-- through each transport: libpq, MariaDB Connector/C, and ODBC to both
-- PostgreSQL (psqlODBC) and MariaDB (Connector/ODBC).
--
-- Runs after pg_init (which creates the extension).  Creates its own
-- servers, tables and roles and drops them at the end.
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

CREATE SERVER rq_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER rq_pg
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE SERVER rq_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER rq_my
  OPTIONS (user :'my_user', password :'my_password');
CREATE SERVER rq_odbc_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg');
CREATE USER MAPPING FOR CURRENT_USER SERVER rq_odbc_pg
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE SERVER rq_odbc_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER rq_odbc_my
  OPTIONS (user :'my_user', password :'my_password');

-- ---------------------------------------------------------------------
-- rows, typed by the column definition list, on each transport
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('rq_pg', $$
  CREATE TABLE public.rq_t (id int PRIMARY KEY, name text, price numeric(12,4),
                            day date, at timestamptz, raw bytea, f float8)$$);
SELECT multi_fdw_exec('rq_pg', $$
  INSERT INTO public.rq_t VALUES
    (1, 'one', 1.5, '2026-01-31', '2026-01-31 10:00:00+00', '\x00ff', 0.1),
    (2, 'two''s', -12345678.1234, '0044-03-15 BC', NULL, '', 1e300),
    (3, NULL, NULL, NULL, NULL, NULL, NULL)$$);
SET timezone = 'UTC';
SELECT * FROM multi_fdw_query('rq_pg',
  'SELECT id, name, price, day, at, raw, f FROM public.rq_t ORDER BY id')
  AS t(id int, name text, price numeric, day date, at timestamptz,
       raw bytea, f float8);

SELECT multi_fdw_exec('rq_my', 'DROP TABLE IF EXISTS rq_t');
SELECT multi_fdw_exec('rq_my', $$
  CREATE TABLE rq_t (id int PRIMARY KEY, name varchar(20), price decimal(12,4),
                     day date, at datetime(6), raw varbinary(10), f double)$$);
SELECT multi_fdw_exec('rq_my', $$
  INSERT INTO rq_t VALUES
    (1, 'one', 1.5, '2026-01-31', '2026-01-31 10:00:00.5', x'00ff', 0.1),
    (2, 'two''s', -12345678.1234, '1000-03-15', NULL, '', 1e300),
    (3, NULL, NULL, NULL, NULL, NULL, NULL)$$);
SELECT * FROM multi_fdw_query('rq_my',
  'SELECT id, name, price, day, at, raw, f FROM rq_t ORDER BY id')
  AS t(id int, name text, price numeric, day date, at timestamp,
       raw bytea, f float8);
SELECT * FROM multi_fdw_query('rq_odbc_pg',
  'SELECT id, name, price, day, raw, f FROM public.rq_t ORDER BY id')
  AS t(id int, name text, price numeric, day date, raw bytea, f float8);
SELECT * FROM multi_fdw_query('rq_odbc_my',
  'SELECT id, name, price, day, at, raw, f FROM rq_t ORDER BY id')
  AS t(id int, name text, price numeric, day date, at timestamp,
       raw bytea, f float8);

-- ---------------------------------------------------------------------
-- parameters: in the remote's own markers, written in its formats
-- whatever the local settings, NULL kept, VARIADIC arrays spread
-- ---------------------------------------------------------------------
SET datestyle = 'SQL, DMY';
SET extra_float_digits = -3;
SELECT * FROM multi_fdw_query('rq_pg',
  'SELECT id, name FROM public.rq_t WHERE day = $1 OR f = $2 OR name = $3 ORDER BY id',
  date '2026-01-31', 1e300::float8, NULL::text) AS t(id int, name text);
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT $1::text, $2::text, $3::text',
  VARIADIC ARRAY['a', NULL, 'c']) AS t(a text, b text, c text);
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT 1', VARIADIC NULL::int[])
  AS t(one int);
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT $1::text || ''!''', 'unknown literal')
  AS t(s text);
SELECT * FROM multi_fdw_query('rq_my',
  'SELECT id, name FROM rq_t WHERE day = ? OR f = ? OR name <=> ? ORDER BY id',
  date '2026-01-31', 1e300::float8, NULL::text) AS t(id int, name text);
SELECT * FROM multi_fdw_query('rq_odbc_pg',
  'SELECT id FROM public.rq_t WHERE day = ? ORDER BY id', date '2026-01-31')
  AS t(id int);
SELECT * FROM multi_fdw_query('rq_odbc_my',
  'SELECT id FROM rq_t WHERE price = ? ORDER BY id', -12345678.1234)
  AS t(id int);
RESET datestyle;
RESET extra_float_digits;
-- a value the dialect cannot write is refused, not sent as another
SELECT * FROM multi_fdw_query('rq_my', 'SELECT ?', 'NaN'::float8) AS t(f float8);
SELECT * FROM multi_fdw_query('rq_my', 'SELECT ?', date '4713-01-01 BC')
  AS t(d date);

-- ---------------------------------------------------------------------
-- what does not fit: errors name the column or server, nothing is lost
-- ---------------------------------------------------------------------
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT 1, 2') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my', 'SELECT 1') AS t(a int, b int);
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT ''x''') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my', 'SELECT 70000') AS t(a int2);
SELECT * FROM multi_fdw_query(NULL, 'SELECT 1') AS t(a int);
SELECT * FROM multi_fdw_query('rq_pg', NULL) AS t(a int);
SELECT * FROM multi_fdw_query('no_such_server', 'SELECT 1') AS t(a int);
SELECT multi_fdw_query('rq_pg', 'SELECT 1');
-- a remote error, before rows and after some: the remote's SQLSTATE
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT * FROM no_such_table') AS t(a int);
SELECT * FROM multi_fdw_query('rq_pg',
  'SELECT 10 / (5 - g) FROM generate_series(1, 10) g') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my', 'SELECT * FROM no_such_table') AS t(a int);
-- a statement without rows: no columns
SELECT * FROM multi_fdw_query('rq_pg', 'CREATE TEMP TABLE rq_x (a int)') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my', 'DO 1') AS t(a int);
-- one statement: a second is the remote's error (the extended protocol,
-- a prepared statement), never run
SELECT * FROM multi_fdw_query('rq_pg',
  'SELECT 1; INSERT INTO public.rq_t (id) VALUES (99)') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my',
  'SELECT 1; INSERT INTO rq_t (id) VALUES (99)') AS t(a int);
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT count(*) FROM public.rq_t WHERE id = 99')
  AS t(n int);
-- through ODBC the driver decides: psqlODBC runs statements given at
-- once, and a second set of rows is an error rather than dropped
SELECT * FROM multi_fdw_query('rq_odbc_pg', 'SELECT 1; SELECT 2') AS t(a int);
-- a procedure's rows: its status after them is read too; a second set of
-- rows is an error
SELECT multi_fdw_exec('rq_my', 'DROP PROCEDURE IF EXISTS rq_p1');
SELECT multi_fdw_exec('rq_my', 'DROP PROCEDURE IF EXISTS rq_p2');
SELECT multi_fdw_exec('rq_my',
  'CREATE PROCEDURE rq_p1() SELECT 1 AS a UNION ALL SELECT 2');
SELECT multi_fdw_exec('rq_my',
  'CREATE PROCEDURE rq_p2() BEGIN SELECT 1 AS a; SELECT 2 AS b; END');
SELECT * FROM multi_fdw_query('rq_my', 'CALL rq_p1()') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my', 'CALL rq_p1()') AS t(a int) LIMIT 1;
SELECT * FROM multi_fdw_query('rq_my', 'CALL rq_p2()') AS t(a int);
SELECT * FROM multi_fdw_query('rq_odbc_my', 'CALL rq_p1()') AS t(a int);
SELECT * FROM multi_fdw_query('rq_odbc_my', 'CALL rq_p2()') AS t(a int);
-- a statement larger than MariaDB's max_allowed_packet is refused before
-- it is sent, naming the setting (the server would drop the session)
SELECT * FROM multi_fdw_query('rq_my', 'SELECT length(?)',
  repeat('x', 17000000)) AS t(n int);
SELECT multi_fdw_exec('rq_my',
  'SELECT ''' || repeat('x', 17000000) || '''');
-- the connections are fine after all that
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT 1') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my', 'SELECT 1') AS t(a int);
SELECT * FROM multi_fdw_query('rq_odbc_pg', 'SELECT 1') AS t(a int);
SELECT * FROM multi_fdw_query('rq_odbc_my', 'SELECT 1') AS t(a int);
SELECT multi_fdw_exec('rq_my', 'DROP PROCEDURE rq_p1');
SELECT multi_fdw_exec('rq_my', 'DROP PROCEDURE rq_p2');

-- ---------------------------------------------------------------------
-- transaction control is refused before anything is sent; the query is
-- the local transaction's, and runs once
-- ---------------------------------------------------------------------
SELECT * FROM multi_fdw_query('rq_pg', 'COMMIT') AS t(a int);
SELECT * FROM multi_fdw_query('rq_my', 'SELECT 1; ROLLBACK') AS t(a int);
SELECT * FROM multi_fdw_query('rq_odbc_my', 'XA END ''x''') AS t(a int);
BEGIN;
SELECT * FROM multi_fdw_query('rq_pg',
  'INSERT INTO public.rq_t (id, name) VALUES (10, ''ten'') RETURNING id, name')
  AS t(id int, name text);
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT count(*) FROM public.rq_t')
  AS t(n int);
ROLLBACK;
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT count(*) FROM public.rq_t')
  AS t(n int);
BEGIN;
SELECT * FROM multi_fdw_query('rq_my',
  'INSERT INTO rq_t (id, name) VALUES (10, ''ten'') RETURNING id, name')
  AS t(id int, name text);
SELECT * FROM multi_fdw_query('rq_my', 'SELECT count(*) FROM rq_t') AS t(n int);
COMMIT;
SELECT * FROM multi_fdw_query('rq_my', 'SELECT count(*), sum(id = 10) FROM rq_t')
  AS t(n int, tens int);
-- a read-only transaction is read-only on the remote too, and a statement
-- that would change that is refused as transaction control
BEGIN READ ONLY;
SELECT * FROM multi_fdw_query('rq_pg',
  'INSERT INTO public.rq_t (id) VALUES (11) RETURNING id') AS t(id int);
ROLLBACK;
BEGIN READ ONLY;
SELECT * FROM multi_fdw_query('rq_pg',
  'SET TRANSACTION READ WRITE; INSERT INTO public.rq_t (id) VALUES (11) RETURNING id')
  AS t(id int);
ROLLBACK;
-- a statement that ends the transaction where no reading of its text sees
-- it (a MariaDB procedure that commits, made from a built text) is that
-- error, even when its columns (none) are not the column definition list's
SELECT multi_fdw_exec('rq_my', 'DROP PROCEDURE IF EXISTS rq_c');
SELECT multi_fdw_exec('rq_my',
  'SET @q = CONCAT(''CREATE PROCEDURE rq_c() COM'', ''MIT'')');
SELECT multi_fdw_exec('rq_my', 'PREPARE s FROM @q');
SELECT multi_fdw_exec('rq_my', 'EXECUTE s');
BEGIN;
SELECT multi_fdw_exec('rq_my', 'INSERT INTO rq_t (id) VALUES (13)');
SELECT * FROM multi_fdw_query('rq_my', 'CALL rq_c()') AS t(a int);
ROLLBACK;
SELECT multi_fdw_exec('rq_my', 'DELETE FROM rq_t WHERE id = 13');
SELECT multi_fdw_exec('rq_my', 'DROP PROCEDURE rq_c');
-- under a savepoint: an error rolls back to it, the transaction goes on
BEGIN;
SELECT * FROM multi_fdw_query('rq_pg',
  'INSERT INTO public.rq_t (id) VALUES (12) RETURNING id') AS t(id int);
SAVEPOINT s;
SELECT * FROM multi_fdw_query('rq_pg',
  'SELECT 10 / (5 - g) FROM generate_series(1, 10) g') AS t(a int);
ROLLBACK TO s;
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT id FROM public.rq_t WHERE id = 12')
  AS t(id int);
COMMIT;
SELECT * FROM multi_fdw_query('rq_pg', 'DELETE FROM public.rq_t WHERE id = 12 RETURNING id')
  AS t(id int);

-- ---------------------------------------------------------------------
-- beside a scan of the same server: the scan's rows are set aside while
-- the query runs on the connection, once per outer row
-- ---------------------------------------------------------------------
CREATE FOREIGN TABLE rq_ft (id int, name text)
  SERVER rq_pg OPTIONS (schema_name 'public', table_name 'rq_t');
SELECT f.id, q.* FROM rq_ft f,
  LATERAL multi_fdw_query('rq_pg', 'SELECT $1::int * 2, current_setting(''application_name'') <> ''''',
                          f.id) AS q(twice int, named bool)
 ORDER BY f.id;
CREATE FOREIGN TABLE rq_my_ft (id int, name text)
  SERVER rq_my OPTIONS (table_name 'rq_t');
SELECT f.id, q.* FROM rq_my_ft f,
  LATERAL multi_fdw_query('rq_my', 'SELECT ? * 2', f.id) AS q(twice int)
 ORDER BY f.id;

-- ---------------------------------------------------------------------
-- many rows come streamed: the count of rows, and the counters
-- ---------------------------------------------------------------------
SELECT multi_fdw_stats_reset();
SELECT count(*), sum(g) FROM multi_fdw_query('rq_pg',
  'SELECT g FROM generate_series(1, 200000) g') AS t(g bigint);
SELECT count(*), sum(seq) FROM multi_fdw_query('rq_my',
  'SELECT seq FROM seq_1_to_200000') AS t(seq bigint);
SELECT count(*) FROM multi_fdw_query('rq_odbc_pg',
  'SELECT g FROM generate_series(1, 50000) g') AS t(g bigint);
SELECT count(*) FROM multi_fdw_query('rq_odbc_my',
  'SELECT seq FROM seq_1_to_50000') AS t(seq bigint);
SELECT server, statements, rows_received FROM multi_fdw_stats
 WHERE server LIKE 'rq%' ORDER BY server;

-- ---------------------------------------------------------------------
-- the json form: one object a row, keyed by the remote's column names in
-- their order (a name twice kept twice), values as the remote's text,
-- NULL as null, on each transport; streamed as the record form is
-- ---------------------------------------------------------------------
SELECT * FROM multi_fdw_query_json('rq_pg',
  'SELECT id, name, price, day, raw, f, 0 AS id FROM public.rq_t ORDER BY 1');
SELECT * FROM multi_fdw_query_json('rq_my',
  'SELECT id, name, price, day, at, raw, f, 0 AS id FROM rq_t ORDER BY 1');
-- (psqlODBC converts dates itself: BC is lost, docs/odbc.md; not selected)
SELECT * FROM multi_fdw_query_json('rq_odbc_pg',
  'SELECT id, name, price, raw, f, 0 AS id FROM public.rq_t ORDER BY 1');
SELECT * FROM multi_fdw_query_json('rq_odbc_my',
  'SELECT id, name, price, day, at, raw, f, 0 AS id FROM rq_t ORDER BY 1');
-- names and values that JSON must escape, in the database's encoding
SELECT multi_fdw_query_json('rq_pg',
  $q$SELECT E'a"b\\c\td\u00e9' AS "Wé ""q""", NULL::int AS " ", 1 AS "?column?"$q$);
SELECT multi_fdw_query_json('rq_my',
  $q$SELECT 'a"b\c' AS `Wé "q"`, NULL AS n, CHAR(9 USING utf8mb4) AS tab$q$);
SELECT multi_fdw_query_json('rq_odbc_my', $q$SELECT 'é' AS `Wé`$q$);
-- parameters, VARIADIC too; a value read back with ->> and a cast
SELECT j->>'g' AS g, (j->>'p')::date AS p
  FROM multi_fdw_query_json('rq_pg',
    'SELECT g, $1::date AS p FROM generate_series(1, 3) g', date '2026-02-28') j;
SELECT * FROM multi_fdw_query_json('rq_my', 'SELECT ? AS a, ? AS b',
  VARIADIC ARRAY['x', NULL]);
SELECT * FROM multi_fdw_query_json('rq_pg', 'SELECT 1 AS one WHERE false');
SELECT count(*), sum((j->>'g')::bigint) FROM multi_fdw_query_json('rq_pg',
  'SELECT g FROM generate_series(1, 100000) g') j;
SELECT count(*) FROM multi_fdw_query_json('rq_odbc_my',
  'SELECT seq FROM seq_1_to_20000');
-- in the select list too
SELECT multi_fdw_query_json('rq_my', 'SELECT 1 AS a UNION ALL SELECT 2');
-- what it refuses: no columns, transaction control, NULL arguments
SELECT * FROM multi_fdw_query_json('rq_pg', 'CREATE TEMP TABLE rq_x (a int)');
SELECT * FROM multi_fdw_query_json('rq_odbc_pg', 'SET LOCAL work_mem = ''1MB''');
SELECT * FROM multi_fdw_query_json('rq_my', 'DO 1');
SELECT * FROM multi_fdw_query_json('rq_my', 'COMMIT');
SELECT * FROM multi_fdw_query_json('rq_pg', NULL);
SELECT * FROM multi_fdw_query_json(NULL, 'SELECT 1');

-- a server whose name the client's encoding lacks: the relayed message
-- names it in U+XXXX, as its text, and is no error
CREATE SERVER "rq_Жpg" FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER "rq_Жpg"
  OPTIONS (user :'pg_user', password :'pg_password');
SET client_encoding = 'LATIN1';
SELECT multi_fdw_exec(srvname,
  $q$DO $x$BEGIN RAISE NOTICE 'from a server of another alphabet'; END$x$$q$)
  FROM pg_foreign_server WHERE srvname LIKE 'rq\__pg';
RESET client_encoding;
DROP SERVER "rq_Жpg" CASCADE;

-- ---------------------------------------------------------------------
-- a user that is not a superuser: USAGE, a mapping with a password
-- ---------------------------------------------------------------------
CREATE ROLE regress_mf_rq_user;
SET ROLE regress_mf_rq_user;
SET search_path = evil, public;
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT 1') AS t(a int);
RESET ROLE;
GRANT USAGE ON FOREIGN SERVER rq_pg TO regress_mf_rq_user;
SET ROLE regress_mf_rq_user;
-- no user mapping: 42704 (PostgreSQL 17 names the server in the message)
\set VERBOSITY sqlstate
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT 1') AS t(a int);
\set VERBOSITY default
RESET ROLE;
CREATE USER MAPPING FOR regress_mf_rq_user SERVER rq_pg
  OPTIONS (user :'pg_user');
SET ROLE regress_mf_rq_user;
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT 1') AS t(a int);
RESET ROLE;
ALTER USER MAPPING FOR regress_mf_rq_user SERVER rq_pg
  OPTIONS (ADD password :'pg_password');
SET ROLE regress_mf_rq_user;
SELECT * FROM multi_fdw_query('rq_pg', 'SELECT current_user = $1', :'pg_user')
  AS t(remote_user_is_mapped bool);
SELECT multi_fdw_query_json('rq_pg', 'SELECT current_user = $1 AS mapped',
  :'pg_user');
-- the remote's messages reach a user who is not a superuser too
SELECT multi_fdw_exec('rq_pg',
  $q$DO $x$BEGIN RAISE NOTICE 'to whoever ran it'; END$x$$q$);
RESET ROLE;
REVOKE USAGE ON FOREIGN SERVER rq_pg FROM regress_mf_rq_user;
SET ROLE regress_mf_rq_user;
SELECT multi_fdw_query_json('rq_pg', 'SELECT 1');
RESET ROLE;
RESET search_path;

-- ---------------------------------------------------------------------
-- clean up
-- ---------------------------------------------------------------------
DROP FOREIGN TABLE rq_ft, rq_my_ft;
SELECT multi_fdw_exec('rq_pg', 'DROP TABLE public.rq_t');
SELECT multi_fdw_exec('rq_my', 'DROP TABLE rq_t');
DROP SERVER rq_pg, rq_my, rq_odbc_pg, rq_odbc_my CASCADE;
DROP ROLE regress_mf_rq_user;
RESET timezone;
