--
-- mysql_errors: MariaDB's errors reach the user with the SQLSTATE the
-- mysql dialect maps their native code to, the server's message, the
-- native code in the detail, and the remote statement in the context.
--
-- After each error, \echo :LAST_ERROR_SQLSTATE shows its SQLSTATE.
--
CREATE SCHEMA my_errs;
SET search_path = my_errs, public;
\set SHOW_CONTEXT errors

\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD

-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS errs_child');
RESET client_min_messages;
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS errs_parent');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE errs_parent (id int PRIMARY KEY) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', 'INSERT INTO errs_parent VALUES (1), (2)');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE errs_child (
    id int PRIMARY KEY,
    name varchar(20) NOT NULL,
    parent int,
    small smallint,
    price decimal(5,2),
    code varchar(3),
    day date,
    FOREIGN KEY (parent) REFERENCES errs_parent (id)
  ) ENGINE=InnoDB$$);
-- the local table is more permissive than the remote one
CREATE FOREIGN TABLE t (id int OPTIONS (key 'true'), name text, parent int,
                        small int, price numeric, code text, day text)
  SERVER my_real OPTIONS (table_name 'errs_child');
INSERT INTO t VALUES (1, 'one', 1, 1, 1.5, 'abc', '2024-01-01');

-- unique_violation (1062)
INSERT INTO t (id, name) VALUES (1, 'again');
\echo :LAST_ERROR_SQLSTATE
-- not_null_violation (1048)
INSERT INTO t (id, name) VALUES (2, NULL);
\echo :LAST_ERROR_SQLSTATE
-- string_data_right_truncation (1406)
INSERT INTO t (id, name, code) VALUES (2, 'two', 'abcd');
\echo :LAST_ERROR_SQLSTATE
-- numeric_value_out_of_range (1264)
INSERT INTO t (id, name, small) VALUES (2, 'two', 40000);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t (id, name, price) VALUES (2, 'two', 1000);
\echo :LAST_ERROR_SQLSTATE
-- foreign_key_violation (1452)
INSERT INTO t (id, name, parent) VALUES (2, 'two', 3);
\echo :LAST_ERROR_SQLSTATE
-- and on the other side of the key (1451)
SELECT multi_fdw_exec('my_real', 'DELETE FROM errs_parent WHERE id = 1');
\echo :LAST_ERROR_SQLSTATE
-- invalid_datetime_format (1292)
INSERT INTO t (id, name, day) VALUES (2, 'two', '2024-02-30');
\echo :LAST_ERROR_SQLSTATE
-- a bad value for a number (1366)
INSERT INTO t (id, name, small) VALUES (2, 'two', NULL), (3, 'three', NULL);
UPDATE t SET small = NULL WHERE id = 2;
SELECT multi_fdw_exec('my_real', $$UPDATE errs_child SET small = 'many' WHERE id = 2$$);
\echo :LAST_ERROR_SQLSTATE
-- division_by_zero (1365, strict mode with ERROR_FOR_DIVISION_BY_ZERO)
SELECT multi_fdw_exec('my_real', 'UPDATE errs_child SET small = 1 / 0 WHERE id = 2');
\echo :LAST_ERROR_SQLSTATE

-- in a batch: the statement's first row and its size in the context
INSERT INTO t (id, name) SELECT g, 'batch ' || g FROM generate_series(10, 19) g
  UNION ALL SELECT 1, 'dup';
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM t WHERE id >= 10;
-- a data error names its row: MariaDB counts the sets of a bulk execution
INSERT INTO t (id, name, code) SELECT g, 'batch ' || g,
    CASE WHEN g = 16 THEN 'abcd' ELSE 'ab' END
  FROM generate_series(10, 19) g;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM t WHERE id >= 10;
-- an UPDATE sent whole, and one row by row
UPDATE t SET code = code || 'x' WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE t SET code = code || 'x' WHERE id = 1 AND md5(name) <> '';
\echo :LAST_ERROR_SQLSTATE

-- statements the remote cannot run
SELECT multi_fdw_exec('my_real', 'SELEC 1');
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE missing (id int) SERVER my_real OPTIONS (table_name 'no_such_table');
SELECT * FROM missing;
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE wrong_col (id int, nope text)
  SERVER my_real OPTIONS (table_name 'errs_child');
SELECT * FROM wrong_col;
\echo :LAST_ERROR_SQLSTATE

-- a lock wait that times out (1205) while another connection holds the row
CREATE SERVER my_errpeer FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db', init_command 'SET SESSION innodb_lock_wait_timeout = 1');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_errpeer
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE peer_t (id int OPTIONS (key 'true'), name text)
  SERVER my_errpeer OPTIONS (table_name 'errs_child');
BEGIN;
UPDATE t SET name = 'locked' WHERE id = 1;
UPDATE peer_t SET name = 'waits' WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT id, name FROM t WHERE id = 1;

-- a cancel (here statement_timeout) stops the remote statement with a
-- KILL QUERY from a side connection; the connection stays usable
SET statement_timeout = '500ms';
SELECT multi_fdw_exec('my_real', 'SELECT SLEEP(20)');
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('my_real', $$
  CREATE OR REPLACE VIEW errs_slow AS SELECT seq, SLEEP(1) AS s FROM seq_1_to_20$$);
CREATE FOREIGN TABLE slow (seq int, s int) SERVER my_real OPTIONS (table_name 'errs_slow');
SELECT sum(s) FROM slow;
\echo :LAST_ERROR_SQLSTATE
RESET statement_timeout;
SELECT multi_fdw_exec('my_real', 'SELECT 1');
SELECT server_name, valid FROM multi_fdw_get_connections()
 WHERE server_name = 'my_real';
-- the remote session ran nothing after the cancel (one row when idle)
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM information_schema.PROCESSLIST
   WHERE USER = CURRENT_USER() AND INFO LIKE '%SLEEP%' AND ID <> CONNECTION_ID()$$)
  AS still_sleeping;

-- a lost connection: the remote session is killed from another one
CREATE FOREIGN TABLE my_conn_id (id bigint)
  SERVER my_real OPTIONS (table_name 'errs_conn_id');
SELECT multi_fdw_exec('my_real', $$
  CREATE OR REPLACE VIEW errs_conn_id AS SELECT CONNECTION_ID() AS id$$);
-- KILL returns before the session is gone: wait until the server lists it
-- no more
CREATE FUNCTION wait_gone(victim bigint) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..100 LOOP
    IF multi_fdw_exec('my_errpeer', format(
         'SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = %s', victim)) = 0
    THEN
      PERFORM pg_sleep(0.1);
      RETURN true;
    END IF;
    PERFORM pg_sleep(0.1);
  END LOOP;
  RETURN false;
END $$;
SELECT id AS victim FROM my_conn_id \gset
SELECT multi_fdw_exec('my_errpeer', format('KILL %s', :victim));
SELECT wait_gone(:victim);
-- between transactions the loss is noticed and the connection replaced
SELECT id, name FROM t WHERE id = 1;
SELECT id <> :victim AS new_session FROM my_conn_id;
-- inside a transaction it is an error, and the transaction cannot go on
BEGIN;
SELECT id AS victim FROM my_conn_id \gset
SELECT multi_fdw_exec('my_errpeer', format('KILL %s', :victim));
SELECT wait_gone(:victim);
SELECT id, name FROM t WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT server_name, valid FROM multi_fdw_get_connections()
 WHERE server_name = 'my_real';
-- the next statement reconnects
SELECT id, name FROM t WHERE id = 1;
SELECT server_name, valid FROM multi_fdw_get_connections()
 WHERE server_name = 'my_real';

-- ---------------------------------------------------------------------
-- the server's notes and warnings, read after a statement whose answer
-- counted some: a Note as NOTICE, a Warning as WARNING, with the
-- server's number; from a statement of the user's, a scan read to its
-- end, an INSERT; what MariaDB did not keep is counted; none with
-- relay_messages off
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS errs_not_there');
SELECT * FROM multi_fdw_query('my_real', 'SELECT 1/0, 2') AS t(z int, two int);
SELECT multi_fdw_exec('my_real', 'DROP VIEW IF EXISTS errs_warn_view');
SELECT multi_fdw_exec('my_real',
  'CREATE VIEW errs_warn_view AS SELECT seq, 1/(seq - seq) AS z FROM seq_1_to_7');
CREATE FOREIGN TABLE errs_warn_view (seq int, z int)
  SERVER my_real OPTIONS (table_name 'errs_warn_view');
-- 7 warnings; MariaDB keeps max_error_count of them (64, here 3)
SELECT multi_fdw_exec('my_real', 'SET SESSION max_error_count = 3');
SELECT count(*), count(z) FROM errs_warn_view;
SELECT multi_fdw_exec('my_real', 'SET SESSION max_error_count = DEFAULT');
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS errs_warn_ins');
-- a DECIMAL rounds what it stores with a note (1265), even in strict mode
SELECT multi_fdw_exec('my_real', 'CREATE TABLE errs_warn_ins (a decimal(5,1))');
CREATE FOREIGN TABLE errs_warn_ins (a numeric)
  SERVER my_real OPTIONS (table_name 'errs_warn_ins');
INSERT INTO errs_warn_ins VALUES (1.5);
INSERT INTO errs_warn_ins VALUES (1.25), (2.25);
ALTER FOREIGN TABLE errs_warn_ins OPTIONS (ADD insert_method 'values');
INSERT INTO errs_warn_ins VALUES (3.25);
ALTER FOREIGN TABLE errs_warn_ins OPTIONS (DROP insert_method);
SELECT a FROM errs_warn_ins ORDER BY a;
ALTER SERVER my_real OPTIONS (ADD relay_messages 'false');
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS errs_not_there');
SELECT count(*), count(z) FROM errs_warn_view;
INSERT INTO errs_warn_ins VALUES (4.25);
ALTER SERVER my_real OPTIONS (DROP relay_messages);
-- a statement that returns rows (INSERT ... RETURNING) relays its notes
-- once; after 100 in a statement no more are read (no SHOW WARNINGS)
CREATE FOREIGN TABLE errs_warn_ret (id int OPTIONS (key 'true'), a numeric)
  SERVER my_real OPTIONS (table_name 'errs_warn_ret');
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS errs_warn_ret');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real',
  'CREATE TABLE errs_warn_ret (id int PRIMARY KEY, a decimal(5,1))');
INSERT INTO errs_warn_ret VALUES (1, 1.25), (2, 2.25) RETURNING a;
INSERT INTO errs_warn_ret SELECT g, 0.25 FROM generate_series(3, 150) g;
SELECT multi_fdw_stats_reset('my_real');
\set VERBOSITY terse
SET client_min_messages = notice;
UPDATE errs_warn_ret SET a = a + 0.05;
\set VERBOSITY default
-- the begin, the scan, the prepare, 150 UPDATEs and 100 SHOW WARNINGS
SELECT statements, round_trips FROM multi_fdw_stats WHERE server = 'my_real';
DROP FOREIGN TABLE errs_warn_ret;
SELECT multi_fdw_exec('my_real', 'DROP TABLE errs_warn_ret');
-- a character the client's encoding lacks
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP PROCEDURE IF EXISTS errs_sig');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $q$CREATE PROCEDURE errs_sig()
  BEGIN
    DECLARE m varchar(20) DEFAULT CONCAT(CONVERT(_ucs2 0x0416 USING utf8mb4), ' ok');
    SIGNAL SQLSTATE '01000' SET MESSAGE_TEXT = m;
  END$q$);
SET client_encoding = 'LATIN1';
SELECT multi_fdw_exec('my_real', 'CALL errs_sig()');
RESET client_encoding;
SELECT multi_fdw_exec('my_real', 'DROP PROCEDURE errs_sig');
DROP FOREIGN TABLE errs_warn_view, errs_warn_ins;
SELECT multi_fdw_exec('my_real', 'DROP VIEW errs_warn_view');
SELECT multi_fdw_exec('my_real', 'DROP TABLE errs_warn_ins');

-- ---------------------------------------------------------------------
-- a string with a NUL byte has no PostgreSQL text value: refused (22021),
-- not cut at the NUL; as bytes it reads whole
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('my_real', 'CREATE TABLE errs_nul (id int, t varchar(10), b varbinary(10))');
SELECT multi_fdw_exec('my_real',
  'INSERT INTO errs_nul VALUES (1, CONCAT(''a'', CHAR(0), ''b''), CONCAT(''a'', CHAR(0), ''b''))');
CREATE FOREIGN TABLE errs_nul (id int, t text, b bytea)
  SERVER my_real OPTIONS (table_name 'errs_nul');
SELECT id, t FROM errs_nul;
SELECT id, b FROM errs_nul;
SELECT * FROM multi_fdw_query('my_real', 'SELECT t FROM errs_nul') AS x(t text);
SELECT * FROM multi_fdw_query('my_real', 'SELECT REPLACE(t, CHAR(0), '''') FROM errs_nul') AS x(t text);
DROP FOREIGN TABLE errs_nul;
SELECT multi_fdw_exec('my_real', 'DROP TABLE errs_nul');
