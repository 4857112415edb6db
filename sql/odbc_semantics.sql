--
-- odbc_semantics: check options, AFTER ROW triggers and RETURNING see the
-- row as the remote stored it through the ODBC stand-ins (see
-- oracle_batch, sqlserver_batch), as mysql_semantics shows through the
-- mysql transport.  Oracle's RETURNING INTO and SQL Server's OUTPUT are
-- not sent (the stand-ins cannot run them): the row is read again by its
-- key columns in the same remote transaction.  The mysql dialect through
-- MariaDB's ODBC driver uses MariaDB's RETURNING where it has one.
--
CREATE SCHEMA odbc_sem;
SET search_path = odbc_sem, public;

SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS os_rem');
-- the remote adds 10 to f1 of every row it stores (created in MariaDB's
-- own mode: the stand-ins' modes have no trigger syntax of their own)
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE os_rem (id int PRIMARY KEY, f1 int, f2 varchar(40))
  ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER os_rem_bi BEFORE INSERT ON os_rem FOR EACH ROW
  SET NEW.f1 = NEW.f1 + 10$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER os_rem_bu BEFORE UPDATE ON os_rem FOR EACH ROW
  SET NEW.f1 = NEW.f1 + 10$$);

CREATE FUNCTION show_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE '% % on %: %', TG_WHEN, TG_OP, TG_TABLE_NAME, NEW;
  RETURN NEW;
END $$;

-- =====================================================================
-- oracle
-- =====================================================================
CREATE FOREIGN TABLE o_rem (id int OPTIONS (key 'true'), f1 int, f2 text)
  SERVER ora_real OPTIONS (table_name 'os_rem');
CREATE VIEW o_small AS SELECT * FROM o_rem WHERE f1 < 5 WITH CHECK OPTION;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO o_small VALUES (1, 0, 'x');
-- sent as 0, stored as 10: the view forbids it
INSERT INTO o_small VALUES (1, 0, 'x');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM o_rem;
INSERT INTO o_rem VALUES (3, -20, 'low');
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE o_small SET f2 = 'u' WHERE f1 = -10 AND random() >= 0;
-- stored as 0: allowed; then as 10: forbidden
UPDATE o_small SET f2 = 'u' WHERE f1 = -10 AND random() >= 0;
UPDATE o_small SET f2 = 'v' WHERE f1 = 0 AND random() >= 0;
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM o_rem ORDER BY id;

-- local AFTER ROW triggers see the stored row
CREATE TRIGGER show_new AFTER INSERT OR UPDATE ON o_rem
  FOR EACH ROW EXECUTE FUNCTION show_new();
INSERT INTO o_rem VALUES (4, 1, 'ins');
UPDATE o_rem SET f2 = 'upd' WHERE id = 4;
COPY o_rem FROM STDIN;
5	3	copied
\.
DROP TRIGGER show_new ON o_rem;

-- RETURNING: the stored values, read back after INSERT and UPDATE (by
-- the new key), before DELETE
INSERT INTO o_rem VALUES (10, 1, 'one') RETURNING *;
UPDATE o_rem SET id = 11, f2 = 'eleven' WHERE id = 10 RETURNING *;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM o_rem WHERE id = 11 RETURNING *;
DELETE FROM o_rem WHERE id = 11 RETURNING *;
SELECT * FROM o_rem ORDER BY id;

-- a key the remote generates cannot be found again (Oracle would need
-- RETURNING INTO): the row is not checked against the row as sent
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS os_auto');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE os_auto (id int AUTO_INCREMENT PRIMARY KEY, v int)
  ENGINE=InnoDB$$);
CREATE FOREIGN TABLE o_auto (id int OPTIONS (key 'true'), v int)
  SERVER ora_real OPTIONS (table_name 'os_auto');
INSERT INTO o_auto (v) VALUES (1) RETURNING *;
INSERT INTO o_auto VALUES (7, 1) RETURNING *;
-- without key columns the row cannot be read back at all: refused while
-- planning, before anything is sent
CREATE FOREIGN TABLE o_nokey (id int, f1 int, f2 text)
  SERVER ora_real OPTIONS (table_name 'os_rem');
INSERT INTO o_nokey VALUES (20, 1, 'x') RETURNING f1;
CREATE VIEW o_nokey_small AS SELECT * FROM o_nokey WHERE f1 < 5
  WITH CHECK OPTION;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO o_nokey_small VALUES (20, 1, 'x');
-- nothing needs the stored row: inserted as before
INSERT INTO o_nokey VALUES (20, 1, 'x');
SELECT * FROM o_rem WHERE id = 20;

-- =====================================================================
-- sqlserver
-- =====================================================================
SELECT multi_fdw_exec('my_real', 'DELETE FROM os_rem');
CREATE FOREIGN TABLE s_rem (id int OPTIONS (key 'true'), f1 int, f2 text)
  SERVER ms_maria OPTIONS (table_name 'os_rem');
CREATE VIEW s_small AS SELECT * FROM s_rem WHERE f1 < 5 WITH CHECK OPTION;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO s_small VALUES (1, 0, 'x');
INSERT INTO s_small VALUES (1, 0, 'x');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO s_rem VALUES (3, -20, 'low');
UPDATE s_small SET f2 = 'u' WHERE f1 = -10 AND random() >= 0;
UPDATE s_small SET f2 = 'v' WHERE f1 = 0 AND random() >= 0;
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM s_rem ORDER BY id;

CREATE TRIGGER show_new AFTER INSERT OR UPDATE ON s_rem
  FOR EACH ROW EXECUTE FUNCTION show_new();
INSERT INTO s_rem VALUES (4, 1, 'ins');
UPDATE s_rem SET f2 = 'upd' WHERE id = 4;
DROP TRIGGER show_new ON s_rem;

EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO s_rem VALUES (10, 1, 'one') RETURNING *;
INSERT INTO s_rem VALUES (10, 1, 'one') RETURNING *;
UPDATE s_rem SET f2 = 'ten' WHERE id = 10 RETURNING *;
DELETE FROM s_rem WHERE id = 10 RETURNING *;
SELECT * FROM s_rem ORDER BY id;

-- =====================================================================
-- mysql through MariaDB's ODBC driver: RETURNING for INSERT and DELETE,
-- a read-back by key for UPDATE
-- =====================================================================
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD
CREATE SERVER odbc_sem_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_sem_my
  OPTIONS (user :'my_user', password :'my_password');
SELECT multi_fdw_exec('my_real', 'DELETE FROM os_rem');
CREATE FOREIGN TABLE m_rem (id int OPTIONS (key 'true'), f1 int, f2 text)
  SERVER odbc_sem_my OPTIONS (table_name 'os_rem');
CREATE VIEW m_small AS SELECT * FROM m_rem WHERE f1 < 5 WITH CHECK OPTION;
INSERT INTO m_small VALUES (1, 0, 'x');
\echo :LAST_ERROR_SQLSTATE
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO m_rem VALUES (10, 1, 'one') RETURNING *;
INSERT INTO m_rem VALUES (10, 1, 'one') RETURNING *;
UPDATE m_rem SET f2 = 'ten' WHERE id = 10 RETURNING *;
DELETE FROM m_rem WHERE id = 10 RETURNING *;
SELECT count(*) FROM m_rem;

DROP SCHEMA odbc_sem CASCADE;
DROP SERVER odbc_sem_my CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE os_rem, os_auto');
