--
-- oracle_modify: reads, UPDATE / DELETE by key columns, transactions and
-- savepoints, Oracle's error numbers, and IMPORT FOREIGN SCHEMA, through
-- the odbc transport into the Oracle stand-in (see oracle_batch).
--
CREATE SCHEMA ora_mod;
SET search_path = ora_mod, public;

SELECT multi_fdw_exec('ora_real', 'DROP TABLE IF EXISTS "om"');
SELECT multi_fdw_exec('ora_real', $$
  CREATE TABLE "om" ("k1" NUMBER(9) NOT NULL, "k2" VARCHAR2(10) NOT NULL,
                     "val" NUMBER(9), "note" VARCHAR2(40),
                     PRIMARY KEY ("k1", "k2"))$$);
CREATE FOREIGN TABLE om (k1 int OPTIONS (key 'true'),
                         k2 text OPTIONS (key 'true'), val int, note text)
  SERVER ora_real OPTIONS (table_name 'om');
INSERT INTO om SELECT g / 10, 'k' || (g % 10), g, 'note ' || g
  FROM generate_series(0, 999) g;

--
-- reads: pushdown and FETCH FIRST
--
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k1, k2, val FROM om WHERE val BETWEEN 10 AND 14 ORDER BY val;
SELECT k1, k2, val FROM om WHERE val BETWEEN 10 AND 14 ORDER BY val;
EXPLAIN (VERBOSE, COSTS OFF) SELECT val FROM om WHERE k1 = 5 LIMIT 3;
SELECT count(*) FROM (SELECT val FROM om WHERE k1 = 5 LIMIT 3) s;
-- a small fetch_size streams the same rows
ALTER FOREIGN TABLE om OPTIONS (ADD fetch_size '7');
SELECT count(*), sum(val) FROM om;
ALTER FOREIGN TABLE om OPTIONS (DROP fetch_size);

--
-- UPDATE and DELETE find rows by the key columns
--
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE om SET note = 'changed' WHERE val % 100 = 7;
UPDATE om SET note = 'changed' WHERE val % 100 = 7;
\echo updated :ROW_COUNT
SELECT k1, k2, val, note FROM om WHERE note = 'changed' ORDER BY val;
-- a condition that is not shipped: rows are fetched, then updated by key
UPDATE om SET val = val + 1000 WHERE note || '' LIKE 'note 99_';
\echo updated :ROW_COUNT
DELETE FROM om WHERE val >= 1000;
\echo deleted :ROW_COUNT
DELETE FROM om WHERE k2 = 'k9';
\echo deleted :ROW_COUNT
SELECT count(*) FROM om;
-- without a key column there is nothing to find a row by
CREATE FOREIGN TABLE om_nokey (k1 int, k2 text, val int)
  SERVER ora_real OPTIONS (table_name 'om');
UPDATE om_nokey SET val = 0;
\echo :LAST_ERROR_SQLSTATE

--
-- transactions: the remote one follows the local one
--
BEGIN;
INSERT INTO om VALUES (5000, 'a', 1, 'in xact');
SAVEPOINT sp;
INSERT INTO om VALUES (5001, 'a', 1, 'rolled back');
ROLLBACK TO SAVEPOINT sp;
INSERT INTO om VALUES (5002, 'a', 1, 'kept');
COMMIT;
SELECT k1, note FROM om WHERE k1 >= 5000 ORDER BY k1;
BEGIN;
DELETE FROM om WHERE k1 >= 5000;
INSERT INTO om VALUES (6000, 'a', 1, 'never');
ROLLBACK;
SELECT k1, note FROM om WHERE k1 >= 5000 ORDER BY k1;
-- a failed statement inside a savepoint: the rest of the transaction goes on
BEGIN;
INSERT INTO om VALUES (7000, 'a', 1, 'before');
SAVEPOINT sp;
INSERT INTO om VALUES (7001, 'a', 1, 'x'), (7000, 'a', 1, 'duplicate');
ROLLBACK TO SAVEPOINT sp;
INSERT INTO om VALUES (7002, 'a', 1, 'after');
COMMIT;
SELECT k1, note FROM om WHERE k1 >= 7000 ORDER BY k1;

--
-- Oracle's error numbers: the stand-in raises them from a trigger
-- (MariaDB's SIGNAL with MYSQL_ERRNO), the dialect's table maps them
--
SELECT multi_fdw_exec('ora_real', 'DROP TABLE IF EXISTS "oerr"');
SELECT multi_fdw_exec('ora_real', 'CREATE TABLE "oerr" ("code" NUMBER(9), "v" NUMBER(9))');
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER oerr_bi BEFORE INSERT ON oerr FOR EACH ROW
  BEGIN
    DECLARE e INT DEFAULT NEW.code;
    IF e > 0 THEN
      SIGNAL SQLSTATE 'HY000'
        SET MYSQL_ERRNO = e, MESSAGE_TEXT = 'ORA error raised by the test';
    END IF;
  END$$);
CREATE FOREIGN TABLE oerr (code int, v int) SERVER ora_real
  OPTIONS (table_name 'oerr');
CREATE FUNCTION ora_error(code int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO oerr VALUES (0, 1), (code, 2);
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;
SELECT code, ora_error(code) AS sqlstate
  FROM (VALUES (1), (2291), (2292), (1400), (12899), (1438), (8177), (60))
       AS c(code);
-- the statement's first row went too
SELECT count(*) FROM oerr;
-- through parameter arrays, a set failing in the middle leaves nothing
INSERT INTO oerr SELECT CASE WHEN g = 500 THEN 1 ELSE 0 END, g
  FROM generate_series(1, 1000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM oerr;
-- and by the WITH form
ALTER FOREIGN TABLE oerr OPTIONS (ADD insert_method 'values');
INSERT INTO oerr SELECT CASE WHEN g = 500 THEN 1400 ELSE 0 END, g
  FROM generate_series(1, 1000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM oerr;
-- the error names the server and shows the remote's message
INSERT INTO oerr VALUES (1, 1);

--
-- IMPORT FOREIGN SCHEMA through the ODBC catalog functions
--
SELECT multi_fdw_exec('ora_real', 'DROP TABLE IF EXISTS "oimp"');
SELECT multi_fdw_exec('ora_real', $$
  CREATE TABLE "oimp" ("id" NUMBER(9) PRIMARY KEY, "big" NUMBER(18),
    "amount" NUMBER(12,2), "name" VARCHAR2(30) NOT NULL, "d" DATE,
    "ts" DATETIME(6), "r" RAW(16), "b" BLOB, "c" CLOB, "f" DOUBLE)$$);
CREATE SCHEMA ora_imp;
\getenv my_db MF_MY_DB
IMPORT FOREIGN SCHEMA :"my_db" LIMIT TO (oimp)
  FROM SERVER ora_real INTO ora_imp;
SELECT attname, format_type(atttypid, atttypmod), attnotnull,
       array_to_string(attfdwoptions, ',') AS options
  FROM pg_attribute
 WHERE attrelid = 'ora_imp.oimp'::regclass AND attnum > 0 ORDER BY attnum;
INSERT INTO ora_imp.oimp (id, name, amount) VALUES (1, 'imported', 12.5);
SELECT id, name, amount FROM ora_imp.oimp;
UPDATE ora_imp.oimp SET amount = 13 WHERE id = 1;
SELECT id, name, amount FROM ora_imp.oimp;

-- a read-only local transaction sends SET TRANSACTION READ ONLY first: a
-- write through multi_fdw_exec fails remotely; the next transaction is
-- read-write
SELECT multi_fdw_exec('ora_real', 'CREATE TABLE "oro" (id int)');
BEGIN READ ONLY;
SELECT multi_fdw_exec('ora_real', 'INSERT INTO "oro" VALUES (1)');
ROLLBACK;
SELECT multi_fdw_exec('ora_real', 'INSERT INTO "oro" VALUES (2)');
SELECT multi_fdw_exec('ora_real', 'DROP TABLE "oro"');

-- clean up
SELECT multi_fdw_exec('ora_real', 'DROP TABLE "om"');
SELECT multi_fdw_exec('ora_real', 'DROP TABLE "oerr"');
SELECT multi_fdw_exec('ora_real', 'DROP TABLE "oimp"');
DROP SCHEMA ora_mod, ora_imp CASCADE;
