--
-- sqlserver_tds: the sqlserver dialect through the real FreeTDS ODBC
-- driver (TDS 7.4) to the test bed's TDS endpoint, which stands in for
-- SQL Server: it runs prepared statements and parameter arrays against
-- its own storage, enforces SQL Server's 1000-row and 2100-parameter
-- limits with SQL Server's error numbers, and fails the Nth statement on
-- demand (EXEC mf_fail_after @n = N, @error = E).  The dialect's own
-- session setup (SET ANSI_NULLS ON; ...) runs here as it would on SQL
-- Server.
--
\getenv tds_host MF_TDS_HOST
\getenv tds_port MF_TDS_PORT
\getenv tds_db MF_TDS_DB
\getenv tds_user MF_TDS_USER
\getenv tds_password MF_TDS_PASSWORD

CREATE SERVER ms_tds FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', host :'tds_host',
           port :'tds_port', database :'tds_db',
           odbc_attributes 'TDS_Version=7.4');
CREATE USER MAPPING FOR CURRENT_USER SERVER ms_tds
  OPTIONS (user :'tds_user', password :'tds_password');
SELECT multi_fdw_exec('ms_tds', 'EXEC mf_reset');
SELECT server_name, dialect, transport, valid
  FROM multi_fdw_get_connections() WHERE server_name = 'ms_tds';

CREATE SCHEMA ms_tds;
SET search_path = ms_tds, public;

-- a wrong password is SQL Server's login failure, 28000
CREATE SERVER ms_tds_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', host :'tds_host',
           port :'tds_port', database :'tds_db',
           odbc_attributes 'TDS_Version=7.4');
CREATE USER MAPPING FOR CURRENT_USER SERVER ms_tds_bad
  OPTIONS (user :'tds_user', password 'wrong');
\set VERBOSITY terse
SELECT multi_fdw_exec('ms_tds_bad', 'SELECT 1');
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
DROP USER MAPPING FOR CURRENT_USER SERVER ms_tds_bad;
DROP SERVER ms_tds_bad;

--
-- the limits: at most 1000 rows in a VALUES list, and 2100 parameters a
-- request of which FreeTDS's sp_prepexec takes 3
--
-- the endpoint refuses what SQL Server refuses
SELECT multi_fdw_exec('ms_tds', 'CREATE TABLE [dbo].[lim1] ([id] int NOT NULL PRIMARY KEY)');
SELECT multi_fdw_exec('ms_tds', 'INSERT INTO [lim1] ([id]) VALUES ' ||
  string_agg('(' || g || ')', ', ')) FROM generate_series(1, 1001) g;
\echo :LAST_ERROR_SQLSTATE
-- one column: 5000 rows go as five 1000-row statements
CREATE FOREIGN TABLE lim1 (id int) SERVER ms_tds
  OPTIONS (table_name 'lim1', insert_method 'values', batch_size '5000');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO lim1 SELECT g FROM generate_series(1, 5000) g;
INSERT INTO lim1 SELECT g FROM generate_series(1, 5000) g;
\echo inserted :ROW_COUNT
SELECT count(*), sum(id) FROM lim1;
-- ten columns: 2090 parameters, 209 rows a statement, pass with FreeTDS's
-- three on top (2093 <= 2100)
SELECT multi_fdw_exec('ms_tds', 'CREATE TABLE [lim10] ([c1] int NOT NULL PRIMARY KEY, [c2] int, [c3] int, [c4] int, [c5] int, [c6] int, [c7] int, [c8] int, [c9] int, [c10] int)');
CREATE FOREIGN TABLE lim10 (c1 int, c2 int, c3 int, c4 int, c5 int, c6 int,
  c7 int, c8 int, c9 int, c10 int)
  SERVER ms_tds OPTIONS (table_name 'lim10', insert_method 'values');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO lim10 SELECT g, g, g, g, g, g, g, g, g, g FROM generate_series(1, 1000) g;
INSERT INTO lim10 SELECT g, g, g, g, g, g, g, g, g, g FROM generate_series(1, 1000) g;
\echo inserted :ROW_COUNT
SELECT count(*), sum(c1 + c10) FROM lim10;

--
-- batches: values and parameter arrays (auto)
--
SELECT multi_fdw_exec('ms_tds', $$
  CREATE TABLE [dbo].[tb] ([id] int NOT NULL PRIMARY KEY,
    [v] nvarchar(30) NOT NULL, [n] decimal(12,1) NULL)$$);
CREATE FOREIGN TABLE tb (id int OPTIONS (key 'true'), v text, n numeric)
  SERVER ms_tds OPTIONS (schema_name 'dbo', table_name 'tb');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO tb SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 3) g;
INSERT INTO tb SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT count(*), sum(id), sum(n), bool_and(v = 'row ' || id) AS v_matches
  FROM tb;
-- FreeTDS carries on after a failing set (SQL_SUCCESS_WITH_INFO); the
-- transport still fails the call and nothing of it stays
SELECT multi_fdw_exec('ms_tds', 'TRUNCATE TABLE [dbo].[tb]');
SELECT multi_fdw_exec('ms_tds', 'EXEC mf_fail_after @n = 3, @error = 2627');
INSERT INTO tb SELECT g, 'row ' || g, g FROM generate_series(1, 10) g;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM tb;
-- a real duplicate in the middle of a 1000-set array
INSERT INTO tb SELECT g, 'row ' || g, g FROM generate_series(1, 999) g
  UNION ALL SELECT 5, 'duplicate', 0;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM tb;
-- and in the middle of a multi-row VALUES
ALTER FOREIGN TABLE tb OPTIONS (ADD insert_method 'values');
INSERT INTO tb SELECT g, 'row ' || g, g FROM generate_series(1, 999) g
  UNION ALL SELECT 5, 'duplicate', 0;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM tb;
ALTER FOREIGN TABLE tb OPTIONS (DROP insert_method);

--
-- SQL Server's error numbers, from real violations and injected
--
INSERT INTO tb VALUES (1, 'one', 1);
INSERT INTO tb VALUES (1, 'again', 1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO tb VALUES (2, NULL, 1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO tb VALUES (2, repeat('x', 31), 1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO tb VALUES (2, 'big', 123456789012.5);
\echo :LAST_ERROR_SQLSTATE
CREATE FUNCTION ms_error(code int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM multi_fdw_exec('ms_tds',
    format('EXEC mf_fail_after @n = 2, @error = %s', code));
  INSERT INTO ms_tds.tb VALUES (100, 'a', 1), (101, 'b', 2);
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;
SELECT code, ms_error(code) AS sqlstate
  FROM (VALUES (2627), (2601), (547), (515), (8152), (2628), (8115),
               (1205)) AS c(code);
SELECT count(*) FROM tb WHERE id >= 100;

--
-- transactions and savepoints (SAVE TRANSACTION / ROLLBACK TRANSACTION)
--
BEGIN;
INSERT INTO tb VALUES (200, 'in xact', 1);
SAVEPOINT sp;
INSERT INTO tb VALUES (201, 'rolled back', 1);
ROLLBACK TO SAVEPOINT sp;
INSERT INTO tb VALUES (202, 'kept', 1);
COMMIT;
SELECT id, v FROM tb WHERE id >= 200 ORDER BY id;
BEGIN;
DELETE FROM tb WHERE id >= 200;
INSERT INTO tb VALUES (300, 'never', 1);
ROLLBACK;
SELECT id, v FROM tb WHERE id >= 200 ORDER BY id;

--
-- reads, UPDATE and DELETE by key
--
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, n FROM tb WHERE n > 1 LIMIT 5;
SELECT count(*) FROM (SELECT id, n FROM tb WHERE n > 1 LIMIT 5) s;
UPDATE tb SET v = 'changed' WHERE id = 202;
SELECT id, v FROM tb WHERE id = 202;
DELETE FROM tb WHERE id >= 200;
\echo deleted :ROW_COUNT
SELECT count(*) FROM tb;

--
-- every mapped type round-trips exactly, by both batch forms
--
SELECT multi_fdw_exec('ms_tds', $$
  CREATE TABLE [dbo].[tt] ([id] int NOT NULL PRIMARY KEY, [bt] bit,
    [ti] tinyint, [si] smallint, [bi] bigint, [de] decimal(38,10),
    [fl] float, [re] real, [nv] nvarchar(50), [vc] varchar(50),
    [nm] nvarchar(max), [da] date, [tm] time(6), [d2] datetime2(6),
    [dto] datetimeoffset(6), [ui] uniqueidentifier, [vb] varbinary(100),
    [vm] varbinary(max))$$);
CREATE FOREIGN TABLE tt (id int, bt boolean, ti smallint, si smallint,
  bi bigint, de numeric(38,10), fl float8, re float4, nv text, vc text,
  nm text, da date, tm time, d2 timestamp, dto timestamptz, ui uuid,
  vb bytea, vm bytea)
  SERVER ms_tds OPTIONS (schema_name 'dbo', table_name 'tt');
SET timezone = 'UTC';
CREATE TABLE tt_expected (LIKE tt);
INSERT INTO tt_expected VALUES
  (1, true, 255, 32767, 9223372036854775807,
   1234567890123456789012345678.0123456789, 1.5e300, 3.25, 'héllo ✓ 日本 😀',
   'ascii', repeat('long ✓ ', 5000), '2024-02-29', '23:59:59.999999',
   '2024-02-29 12:34:56.123456', '2024-02-29 12:34:56.123456+05:30',
   'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\x00ff10',
   decode(repeat('00ff', 40000), 'hex')),
  (2, false, 0, -32768, -9223372036854775808, -0.0000000001, -2.5e-300,
   -1.5, 'quote '' ] [ brackets', '', 'trailing  ', '0001-01-01',
   '00:00:00', '0001-01-01 00:00:00', '9999-12-30 23:59:59.999999-08',
   '00000000-0000-0000-0000-000000000000', '\x', '\x'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO tt SELECT * FROM tt_expected;
SELECT count(*) AS differ FROM
  ((SELECT * FROM tt EXCEPT SELECT * FROM tt_expected)
   UNION ALL (SELECT * FROM tt_expected EXCEPT SELECT * FROM tt)) d;
SELECT multi_fdw_exec('ms_tds', 'TRUNCATE TABLE [dbo].[tt]');
ALTER FOREIGN TABLE tt OPTIONS (ADD insert_method 'values');
INSERT INTO tt SELECT * FROM tt_expected;
SELECT count(*) AS differ FROM
  ((SELECT * FROM tt EXCEPT SELECT * FROM tt_expected)
   UNION ALL (SELECT * FROM tt_expected EXCEPT SELECT * FROM tt)) d;
SELECT id, bt, ti, bi, de, nv, d2, dto, ui, vb, length(nm), length(vm)
  FROM tt ORDER BY id;
-- conditions on dates, times and uuids are shipped with explicit casts
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM tt WHERE d2 < '2025-01-01' AND da = '2024-02-29'
   AND ui = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
SELECT id FROM tt WHERE d2 < '2025-01-01' AND da = '2024-02-29'
   AND ui = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
RESET timezone;

--
-- IMPORT FOREIGN SCHEMA through the ODBC catalog functions (FreeTDS runs
-- sp_columns and sp_pkeys)
--
CREATE SCHEMA ms_imp;
IMPORT FOREIGN SCHEMA dbo LIMIT TO (tt, tb) FROM SERVER ms_tds INTO ms_imp;
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
       a.attnotnull, array_to_string(a.attfdwoptions, ',') AS options
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relnamespace = 'ms_imp'::regnamespace AND a.attnum > 0
 ORDER BY c.relname, a.attnum;
SELECT count(*) FROM ms_imp.tt;

-- clean up
SELECT multi_fdw_exec('ms_tds', 'EXEC mf_reset');
DROP SCHEMA ms_tds, ms_imp CASCADE;
