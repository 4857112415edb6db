--
-- odbc_mysql: the mysql dialect over the odbc transport, through MariaDB
-- Connector/ODBC (driver "MariaDB" and DSN "mf_my" of the test bed's
-- $ODBCSYSINI/odbcinst.ini and odbc.ini), against the test bed's MariaDB.
--
-- Runs after pg_init (which creates the extension).  Creates its own
-- servers, tables and roles and drops them at the end.  A driver that
-- cannot load makes the first statements fail: nothing is skipped.
-- Connection errors are shown tersely, since the driver's detail names
-- hosts and ports; SQLSTATEs are shown through :LAST_ERROR_SQLSTATE.
--
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD
\getenv odbc_sysini ODBCSYSINI

SELECT :'odbc_sysini' <> '' AS odbcsysini_set, :'my_port' ~ '^[0-9]+$' AS port_set;

-- ---------------------------------------------------------------------
-- connecting: by DSN, by registered driver name
-- ---------------------------------------------------------------------
CREATE SERVER odbc_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_my
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('odbc_my', 'SELECT 1');
SELECT server_name, dialect, transport, valid, in_transaction
  FROM multi_fdw_get_connections() WHERE server_name = 'odbc_my';

CREATE SERVER odbc_my_drv FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_my_drv
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('odbc_my_drv', 'SELECT 1');

-- the session as the dialect sets it up (the character set is the
-- driver's: the wide calls give utf8mb4), still so after a rollback;
-- autocommit off
BEGIN;
SELECT multi_fdw_exec('odbc_my', $$SELECT 1 FROM DUAL WHERE @@autocommit = 0$$) AS autocommit_off;
ROLLBACK;
SELECT multi_fdw_exec('odbc_my', $$
  SELECT 1 FROM DUAL
   WHERE @@character_set_client = 'utf8mb4'
     AND @@time_zone = '+00:00'
     AND FIND_IN_SET('STRICT_ALL_TABLES', @@sql_mode)
     AND FIND_IN_SET('NO_BACKSLASH_ESCAPES', @@sql_mode)
     AND FIND_IN_SET('ANSI_QUOTES', @@sql_mode)$$) AS session_ok;

-- a database name that tries to add another attribute stays one value
CREATE SERVER odbc_my_inject FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database 'mfremote;UID=root');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_my_inject
  OPTIONS (user :'my_user', password :'my_password');
\set VERBOSITY terse
SELECT multi_fdw_exec('odbc_my_inject', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
DROP SERVER odbc_my_inject CASCADE;
-- a wrong password
CREATE SERVER odbc_my_badpw FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_my_badpw
  OPTIONS (user :'my_user', password 'wrong;password={x=1');
\set VERBOSITY terse
SELECT multi_fdw_exec('odbc_my_badpw', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
DROP SERVER odbc_my_badpw CASCADE;

-- ---------------------------------------------------------------------
-- security: a non-superuser and the options that load libraries
-- ---------------------------------------------------------------------
DROP ROLE IF EXISTS regress_mf_odbc_my_user;
CREATE ROLE regress_mf_odbc_my_user;
GRANT USAGE ON FOREIGN DATA WRAPPER multi_fdw TO regress_mf_odbc_my_user;
SET ROLE regress_mf_odbc_my_user;
CREATE SERVER odbc_my_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc',
           odbc_driver '/usr/lib/x86_64-linux-gnu/odbc/libmaodbc.so');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER odbc_my_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_driver 'MariaDB',
           odbc_attributes 'PLUGIN_DIR=/tmp');
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER odbc_my_user FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_my_user
  OPTIONS (user :'my_user', password :'my_password');
-- refused until a superuser vouches that the remote checks the password
SELECT multi_fdw_exec('odbc_my_user', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
ALTER SERVER odbc_my_user OPTIONS (ADD remote_requires_password 'true');
SET ROLE regress_mf_odbc_my_user;
SELECT multi_fdw_exec('odbc_my_user', 'SELECT 1');
-- LOAD DATA LOCAL would make the driver send a file of this host: refused
-- whoever asks, however it is spelt
SELECT multi_fdw_exec('odbc_my_user', $$LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE odbc_infile$$);
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('odbc_my_user', $$load data low_priority local/**/infile '/etc/passwd' into table odbc_infile$$);
SELECT multi_fdw_exec('odbc_my_user', $$/*!LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE odbc_infile*/$$);
SELECT multi_fdw_exec('odbc_my_user', $$LOAD DATA /*!50000 LOCAL*/ INFILE '/etc/passwd' INTO TABLE odbc_infile$$);
SELECT multi_fdw_exec('odbc_my_user', $$LOAD DATA LOCAL/*!*/INFILE '/etc/passwd' INTO TABLE odbc_infile$$);
SELECT multi_fdw_exec('odbc_my_user', $$LOAD DATA /*M!100000 LOCAL */ INFILE '/etc/passwd' INTO TABLE odbc_infile$$);
RESET ROLE;
SELECT multi_fdw_exec('odbc_my', $$LOAD XML LOCAL
  INFILE '/etc/passwd' INTO TABLE odbc_infile$$);
\echo :LAST_ERROR_SQLSTATE
-- a comment marker inside a literal, or a dash pair MySQL does not read
-- as a comment, does not hide the words from the check: under
-- multi-statements (a superuser's OPTION) the second statement would run
ALTER SERVER odbc_my OPTIONS (ADD odbc_attributes 'OPTION=67108864');
SELECT multi_fdw_exec('odbc_my', $$SELECT '#'; LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE odbc_infile$$);
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('odbc_my', $$SELECT 1--1; LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE odbc_infile$$);
SELECT multi_fdw_exec('odbc_my', $$SELECT '/*'; LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE odbc_infile; SELECT '*/'$$);
-- the same for transaction control, which the ODBC drivers cannot report
-- afterwards: MySQL's 1--1 is no comment, so the COMMIT after it would end
-- the remote transaction and keep the INSERT the local ROLLBACK undoes
SELECT multi_fdw_exec('odbc_my', 'CREATE TABLE IF NOT EXISTS odbc_guard (i int) ENGINE=InnoDB');
BEGIN;
SELECT multi_fdw_exec('odbc_my', 'INSERT INTO odbc_guard VALUES (1)');
SELECT multi_fdw_exec('odbc_my', 'DO 1--1; COMMIT');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT multi_fdw_exec('odbc_my', 'SELECT * FROM odbc_guard') AS rows_kept;
-- a procedure that commits (made by the remote's DBA, out of the words'
-- sight): the session is asked before and after (@@in_transaction), so
-- ending the transaction the INSERT opened is an error.  The remote did
-- commit the INSERT, as it was told to; the local transaction cannot.
\! mariadb --no-defaults --socket="$MF_MY_SOCKET" -uroot "$MF_MY_DB" -e "CREATE OR REPLACE PROCEDURE odbc_guard_commit() COMMIT; CREATE OR REPLACE PROCEDURE odbc_guard_count() SELECT 1 FROM DUAL WHERE 0; GRANT EXECUTE ON PROCEDURE odbc_guard_commit TO mfapp@'127.0.0.1', mfapp@localhost; GRANT EXECUTE ON PROCEDURE odbc_guard_count TO mfapp@'127.0.0.1', mfapp@localhost"
BEGIN;
SELECT multi_fdw_exec('odbc_my', 'INSERT INTO odbc_guard VALUES (2)');
SELECT multi_fdw_exec('odbc_my', 'CALL odbc_guard_count()');
SELECT multi_fdw_exec('odbc_my', 'CALL odbc_guard_commit()');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT multi_fdw_exec('odbc_my', 'SELECT * FROM odbc_guard') AS rows_committed_by_the_procedure;
-- the connection was dropped: the next transaction has a new one
SELECT multi_fdw_exec('odbc_my', 'CALL odbc_guard_count()');
-- a statement after which the session no longer answers the question (a
-- setting hides it) is an error at once: nothing after it goes unchecked
BEGIN;
SELECT multi_fdw_exec('odbc_my', 'INSERT INTO odbc_guard VALUES (4)');
SELECT multi_fdw_exec('odbc_my', 'SET SESSION sql_select_limit = 0');
SELECT multi_fdw_exec('odbc_my', 'CALL odbc_guard_commit()');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT multi_fdw_exec('odbc_my', 'SELECT * FROM odbc_guard WHERE i = 4') AS rows_kept;
-- DDL after a write commits it implicitly (MySQL's rule): the same error;
-- DDL first in a transaction opens nothing to lose and runs
BEGIN;
SELECT multi_fdw_exec('odbc_my', 'INSERT INTO odbc_guard VALUES (3)');
SELECT multi_fdw_exec('odbc_my', 'CREATE TABLE odbc_guard2 (i int)');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT multi_fdw_exec('odbc_my', 'SELECT * FROM odbc_guard') AS rows_committed_by_the_ddl;
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE odbc_guard2');
SELECT multi_fdw_exec('odbc_my', 'DROP PROCEDURE odbc_guard_commit');
SELECT multi_fdw_exec('odbc_my', 'DROP PROCEDURE odbc_guard_count');
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE odbc_guard');
ALTER SERVER odbc_my OPTIONS (DROP odbc_attributes);
DROP SERVER odbc_my_user CASCADE;
REVOKE USAGE ON FOREIGN DATA WRAPPER multi_fdw FROM regress_mf_odbc_my_user;
DROP ROLE regress_mf_odbc_my_user;

-- ---------------------------------------------------------------------
-- types, both ways
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE IF EXISTS odbc_types');
SELECT multi_fdw_exec('odbc_my', $$
  CREATE TABLE odbc_types (id int PRIMARY KEY, i2 smallint, i8 bigint,
    f4 float, f8 double, n decimal(20,6), b boolean, t mediumtext,
    vc varchar(10), c char(3), bin varbinary(200), blb longblob, d date,
    tm time(6), dt datetime(6), ts timestamp(6) NULL, bits bit(8),
    j json, u char(36)) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE odbc_my_types (id int OPTIONS (key 'true'), i2 smallint,
    i8 bigint, f4 real, f8 double precision, n numeric(20,6), b boolean,
    t text, vc varchar(10), c char(3), bin bytea, blb bytea, d date,
    tm time, dt timestamp, ts timestamptz, bits text, j json, u uuid)
  SERVER odbc_my OPTIONS (table_name 'odbc_types');
INSERT INTO odbc_my_types (id, i2, i8, f4, f8, n, b, t, vc, c, bin, blb, d,
                           tm, dt, ts, j, u) VALUES
  (1, -32768, 9223372036854775807, 1.5, 0.1, 12345678901234.123456, true,
   'héllo ☃ 😀 ''quoted'' "dq" \ back', 'vär', 'ab', '\x00ff10deadbeef',
   '\x0102', '2024-02-29', '23:59:59.999999', '2024-01-02 03:04:05.123456',
   '2024-01-02 03:04:05.5+02', '{"a": [1, 2]}',
   'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
  (2, 0, -1, -2.5, 1e300, -0.5, false, '', '', '', '\x', '\x',
   '1000-01-01', '00:00', '1970-01-01 00:00', '1999-12-31 23:59:59.999999-08',
   'null', NULL),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL);
SELECT multi_fdw_exec('odbc_my', $$UPDATE odbc_types SET bits = b'10100101' WHERE id = 1$$);
SELECT * FROM odbc_my_types ORDER BY id;
-- the remote holds what was sent
SELECT multi_fdw_exec('odbc_my', $$
  SELECT 1 FROM odbc_types WHERE id = 1
    AND t = 'héllo ☃ 😀 ''quoted'' "dq" \ back' AND hex(bin) = '00FF10DEADBEEF'
    AND ts = '2024-01-02 01:04:05.5' AND n = 12345678901234.123456
    AND f8 = 0.1 AND b = 1 AND CHAR_LENGTH(t) = 30$$) AS row1_ok;
-- values as parameters of pushed-down conditions
SELECT id FROM odbc_my_types WHERE i8 = 9223372036854775807;
SELECT id FROM odbc_my_types WHERE d = '2024-02-29'::date;
SELECT id FROM odbc_my_types WHERE dt = '2024-01-02 03:04:05.123456'::timestamp;
-- long values
INSERT INTO odbc_my_types (id, t, blb)
  SELECT 4, repeat('ü€😀', 20000), decode(repeat('00ff', 50000), 'hex');
SELECT id, length(t), md5(t) = md5(repeat('ü€😀', 20000)) AS t_ok,
       length(blb), blb = decode(repeat('00ff', 50000), 'hex') AS blb_ok
  FROM odbc_my_types WHERE id = 4;

-- ---------------------------------------------------------------------
-- scans: pushdown, small fetches, a scan and an update interleaved
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE IF EXISTS odbc_scan');
SELECT multi_fdw_exec('odbc_my', $$
  CREATE TABLE odbc_scan (id int PRIMARY KEY, k int, note varchar(20)) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('odbc_my', $$
  INSERT INTO odbc_scan SELECT seq, seq % 7, CONCAT('row ', seq) FROM seq_1_to_1000$$);
CREATE FOREIGN TABLE odbc_my_scan (id int OPTIONS (key 'true'), k int, note text)
  SERVER odbc_my OPTIONS (table_name 'odbc_scan', fetch_size '7');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, note FROM odbc_my_scan WHERE k = 3 AND id < 50;
SELECT id, note FROM odbc_my_scan WHERE k = 3 AND id < 50 ORDER BY id;
SELECT count(*), sum(id), min(note), max(note) FROM odbc_my_scan;
PREPARE q(int) AS SELECT count(*) FROM odbc_my_scan WHERE k = $1;
EXECUTE q(2);
SELECT a.id, b.id FROM odbc_my_scan a JOIN odbc_my_scan b ON a.id = b.id + 500
 WHERE a.id <= 505 ORDER BY 1;

-- ---------------------------------------------------------------------
-- batches: VALUES statements and parameter arrays
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE IF EXISTS odbc_batch');
SELECT multi_fdw_exec('odbc_my', $$
  CREATE TABLE odbc_batch (a int PRIMARY KEY, b int) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE odbc_my_batch (a int OPTIONS (key 'true'), b int)
  SERVER odbc_my OPTIONS (table_name 'odbc_batch', insert_method 'values',
                          batch_size '50000');
-- 3749 rows per statement: the transport's ceiling, under the dialect's
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(1, 10) g;
INSERT INTO odbc_my_batch SELECT g, -g FROM generate_series(1, 40000) g;
SELECT count(*), sum(a), sum(b) FROM odbc_my_batch;
SELECT multi_fdw_exec('odbc_my', 'TRUNCATE TABLE odbc_batch');
-- parameter arrays (MariaDB's driver sends them as one bulk execution)
ALTER FOREIGN TABLE odbc_my_batch OPTIONS (SET insert_method 'array', SET batch_size '10000');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(1, 10) g;
CREATE FOREIGN TABLE odbc_my_batch_auto (a int OPTIONS (key 'true'), b int)
  SERVER odbc_my OPTIONS (table_name 'odbc_batch');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO odbc_my_batch_auto SELECT g, g FROM generate_series(1, 10) g;
DROP FOREIGN TABLE odbc_my_batch_auto;
CREATE FUNCTION odbc_rows(sql text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  EXECUTE sql;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;
SELECT odbc_rows('INSERT INTO odbc_my_batch SELECT g, g * 2 FROM generate_series(1, 25000) g');
SELECT count(*), sum(a), sum(b) FROM odbc_my_batch;
-- ON CONFLICT DO NOTHING: the rows skipped are not counted
SELECT odbc_rows('INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(24990, 25010) g ON CONFLICT DO NOTHING');
SELECT count(*) FROM odbc_my_batch;
-- wide rows: each call stays under half the server's max_allowed_packet
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE IF EXISTS odbc_wide');
SELECT multi_fdw_exec('odbc_my', 'CREATE TABLE odbc_wide (a int PRIMARY KEY, t mediumtext) ENGINE=InnoDB');
CREATE FOREIGN TABLE odbc_my_wide (a int OPTIONS (key 'true'), t text)
  SERVER odbc_my OPTIONS (table_name 'odbc_wide', insert_method 'array');
SELECT odbc_rows($$INSERT INTO odbc_my_wide SELECT g, repeat('x', 100000) FROM generate_series(1, 300) g$$);
SELECT count(*), sum(length(t)) FROM odbc_my_wide;
DROP FOREIGN TABLE odbc_my_wide;
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE odbc_wide');
-- a failure in the middle of an array leaves nothing of the statement
SELECT multi_fdw_exec('odbc_my', 'TRUNCATE TABLE odbc_batch');
SELECT multi_fdw_exec('odbc_my', 'INSERT INTO odbc_batch VALUES (12345, 0)');
INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(1, 20000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*), sum(a) FROM odbc_my_batch;
-- a NULL where NOT NULL is wanted, in the middle of an array
INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(20001, 20100) g
  UNION ALL SELECT NULL, 1 UNION ALL SELECT 30000, 1;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*), sum(a) FROM odbc_my_batch;
-- inside a transaction, a subtransaction's failure undoes only its own
BEGIN;
INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(1, 100) g;
SAVEPOINT s1;
INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(12300, 12400) g;
ROLLBACK TO SAVEPOINT s1;
INSERT INTO odbc_my_batch SELECT g, g FROM generate_series(101, 150) g;
COMMIT;
SELECT count(*), sum(a) FROM odbc_my_batch;

-- ---------------------------------------------------------------------
-- transactions and savepoints
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_my', 'TRUNCATE TABLE odbc_batch');
BEGIN;
INSERT INTO odbc_my_batch VALUES (1, 1);
SELECT in_transaction FROM multi_fdw_get_connections() WHERE server_name = 'odbc_my';
ROLLBACK;
SELECT count(*) FROM odbc_my_batch;
BEGIN;
INSERT INTO odbc_my_batch VALUES (1, 1);
SAVEPOINT a;
INSERT INTO odbc_my_batch VALUES (2, 2);
SAVEPOINT b;
INSERT INTO odbc_my_batch VALUES (3, 3);
ROLLBACK TO SAVEPOINT b;
RELEASE SAVEPOINT a;
INSERT INTO odbc_my_batch VALUES (4, 4);
COMMIT;
SELECT * FROM odbc_my_batch ORDER BY a;
BEGIN;
INSERT INTO odbc_my_batch VALUES (5, 5);
INSERT INTO odbc_my_batch VALUES (1, 1);
COMMIT;
SELECT * FROM odbc_my_batch ORDER BY a;

-- ---------------------------------------------------------------------
-- errors: native codes mapped by the dialect (the driver says 23000)
-- ---------------------------------------------------------------------
INSERT INTO odbc_my_batch VALUES (1, 1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO odbc_my_batch VALUES (NULL, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('odbc_my', 'SELEC 1');
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE odbc_my_missing (a int)
  SERVER odbc_my OPTIONS (table_name 'no_such_table');
SELECT * FROM odbc_my_missing;
\echo :LAST_ERROR_SQLSTATE
DROP FOREIGN TABLE odbc_my_missing;
SELECT multi_fdw_exec('odbc_my', 'INSERT INTO odbc_batch VALUES (99999999999, 1)');
\echo :LAST_ERROR_SQLSTATE

-- ---------------------------------------------------------------------
-- UPDATE and DELETE by key columns
-- ---------------------------------------------------------------------
-- a constant goes whole, and int4 arithmetic inside its range guard
-- (MariaDB computes in 64 bits); guarded arithmetic inside guarded
-- arithmetic is computed here and the rows updated by key
EXPLAIN (VERBOSE, COSTS OFF) UPDATE odbc_my_batch SET b = 0 WHERE a >= 2;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE odbc_my_batch SET b = b + 10 WHERE a >= 2;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE odbc_my_batch SET b = (b + 5) + 5 WHERE a >= 2;
SELECT odbc_rows('UPDATE odbc_my_batch SET b = (b + 5) + 5 WHERE a >= 2');
EXPLAIN (VERBOSE, COSTS OFF) UPDATE odbc_my_batch SET b = b * 100 WHERE a::text || '' = '4';
SELECT odbc_rows($$UPDATE odbc_my_batch SET b = b * 100 WHERE a::text || '' = '4'$$);
SELECT odbc_rows($$DELETE FROM odbc_my_batch WHERE a::text || '' = '1'$$);
SELECT * FROM odbc_my_batch ORDER BY a;
-- row by row during a scan of the same connection
UPDATE odbc_my_scan SET note = note || '!' WHERE id::text || '' < '105' AND id < 110;
SELECT id, note FROM odbc_my_scan WHERE id BETWEEN 99 AND 110 ORDER BY id;
DELETE FROM odbc_my_batch;
SELECT count(*) FROM odbc_my_batch;

-- ---------------------------------------------------------------------
-- IMPORT FOREIGN SCHEMA through ODBC's catalog functions
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE IF EXISTS odbc_imp1, odbc_imp_2');
SELECT multi_fdw_exec('odbc_my', $$
  CREATE TABLE odbc_imp1 (id int PRIMARY KEY, name varchar(20) NOT NULL,
    price decimal(10,2) DEFAULT 0, note text, flag tinyint(1) DEFAULT 1,
    created datetime(6), raw varbinary(16), big bigint unsigned, d date,
    f double, u int unsigned) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('odbc_my', $$
  CREATE TABLE odbc_imp_2 (k1 int, k2 int, v float, PRIMARY KEY (k1, k2)) ENGINE=InnoDB$$);
CREATE SCHEMA odbc_my_local;
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (odbc_imp1, odbc_imp_2)
  FROM SERVER odbc_my INTO odbc_my_local;
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
       pg_get_expr(d.adbin, d.adrelid) AS def, a.attfdwoptions
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
 WHERE c.relnamespace = 'odbc_my_local'::regnamespace
 ORDER BY c.relname, a.attnum;
SELECT relname, ftoptions FROM pg_foreign_table JOIN pg_class ON oid = ftrelid
 WHERE relnamespace = 'odbc_my_local'::regnamespace ORDER BY relname;
INSERT INTO odbc_my_local.odbc_imp1 (id, name, price, flag) VALUES (1, 'one', 1.5, 1);
UPDATE odbc_my_local.odbc_imp1 SET note = 'n' WHERE name || '' = 'one';
SELECT id, name, price, note, flag FROM odbc_my_local.odbc_imp1;
IMPORT FOREIGN SCHEMA no_such_db FROM SERVER odbc_my INTO odbc_my_local;
\echo :LAST_ERROR_SQLSTATE
DROP SCHEMA odbc_my_local CASCADE;

-- ---------------------------------------------------------------------
-- clean up
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('odbc_my', 'DROP TABLE odbc_imp1, odbc_imp_2, odbc_types, odbc_scan, odbc_batch');
DROP FUNCTION odbc_rows(text);
DROP SERVER odbc_my CASCADE;
DROP SERVER odbc_my_drv CASCADE;
