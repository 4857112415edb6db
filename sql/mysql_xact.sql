--
-- mysql_xact: the remote MariaDB transaction follows the local one:
-- commit, rollback, savepoints, and statements that fail half way (InnoDB
-- undoes a failed statement whole).
--
-- committed() reads the remote table through another server (my_xpeer,
-- keep_connections off: a new connection each time), so it sees only what
-- the remote has committed.
--
CREATE SCHEMA my_xact;
SET search_path = my_xact, public;

\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD

CREATE SERVER my_xpeer FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db', keep_connections 'off');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_xpeer
  OPTIONS (user :'my_user', password :'my_password');

-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS xact_t');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE xact_t (id int PRIMARY KEY, v varchar(20) NOT NULL) ENGINE=InnoDB$$);

CREATE FOREIGN TABLE t (id int OPTIONS (key 'true'), v text)
  SERVER my_real OPTIONS (table_name 'xact_t');
CREATE FOREIGN TABLE peer_t (id int, v text)
  SERVER my_xpeer OPTIONS (table_name 'xact_t');

-- the ids committed on the remote, read through the other server
CREATE FUNCTION committed() RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM peer_t;
$$;
-- the ids this transaction sees through my_real
CREATE FUNCTION mine() RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM t;
$$;

--
-- ROLLBACK and COMMIT
--
BEGIN;
INSERT INTO t VALUES (1, 'one'), (2, 'two');
INSERT INTO t SELECT g, 'batch' FROM generate_series(100, 199) g;
SELECT count(*) FROM t;
SELECT committed();
ROLLBACK;
SELECT mine(), committed();
SELECT multi_fdw_exec('my_real', 'SELECT 1 FROM xact_t') AS remote_rows;

BEGIN;
INSERT INTO t VALUES (1, 'one'), (2, 'two');
SELECT mine(), committed();
COMMIT;
SELECT mine(), committed();

-- UPDATE and DELETE are rolled back too
BEGIN;
UPDATE t SET v = 'changed';
DELETE FROM t WHERE id = 2;
SELECT * FROM t ORDER BY id;
ROLLBACK;
SELECT * FROM t ORDER BY id;

-- a local error after remote work: the remote work is undone
BEGIN;
INSERT INTO t VALUES (3, 'three');
SELECT 1 / 0;
COMMIT;
SELECT mine(), committed();

--
-- savepoints
--
BEGIN;
INSERT INTO t VALUES (10, 'kept');
SAVEPOINT a;
INSERT INTO t VALUES (11, 'undone');
UPDATE t SET v = 'undone too' WHERE id = 10;
SELECT * FROM t WHERE id >= 10 ORDER BY id;
ROLLBACK TO SAVEPOINT a;
SELECT * FROM t WHERE id >= 10 ORDER BY id;
INSERT INTO t VALUES (12, 'after');
SAVEPOINT b;
DELETE FROM t WHERE id = 10;
ROLLBACK TO a;
SELECT * FROM t WHERE id >= 10 ORDER BY id;
COMMIT;
SELECT mine(), committed();

-- nested savepoints, released and rolled back
BEGIN;
INSERT INTO t VALUES (30, 'level 1');
SAVEPOINT s1;
INSERT INTO t VALUES (31, 'level 2');
SAVEPOINT s2;
INSERT INTO t VALUES (32, 'level 3');
SAVEPOINT s3;
INSERT INTO t VALUES (33, 'level 4');
ROLLBACK TO s3;
SELECT mine();
RELEASE s2;
ROLLBACK TO s1;
SELECT mine();
INSERT INTO t VALUES (34, 'level 2 again');
SAVEPOINT s4;
INSERT INTO t VALUES (35, 'level 3 again');
RELEASE s4;
COMMIT;
SELECT mine(), committed();

--
-- statements that fail half way leave nothing
--
-- a duplicate key at the end of 2,500 rows: the first two statements of
-- 1,000 rows went in before the third failed; the local statement fails
-- and the remote transaction is rolled back whole
INSERT INTO t SELECT g, 'batch' FROM generate_series(1000, 3499) g
  UNION ALL SELECT 1, 'dup';
SELECT count(*) FROM t WHERE id >= 1000;
SELECT multi_fdw_exec('my_real', 'SELECT 1 FROM xact_t WHERE id >= 1000') AS remote_rows;

-- a NULL in the middle of one statement: InnoDB undoes the statement
INSERT INTO t SELECT g, CASE WHEN g = 1500 THEN NULL ELSE 'x' END
  FROM generate_series(1000, 1999) g;
SELECT count(*) FROM t WHERE id >= 1000;

-- inside a savepoint: only the subtransaction's work goes
BEGIN;
INSERT INTO t VALUES (50, 'before');
SAVEPOINT s;
INSERT INTO t SELECT g, 'batch' FROM generate_series(1000, 3499) g
  UNION ALL SELECT 50, 'dup';
ROLLBACK TO s;
SELECT count(*) FROM t WHERE id >= 1000;
INSERT INTO t VALUES (51, 'after');
COMMIT;
SELECT * FROM t WHERE id BETWEEN 50 AND 59 ORDER BY id;
SELECT committed();

-- a PL/pgSQL exception block is a subtransaction too
DO $$
BEGIN
  INSERT INTO t VALUES (70, 'in block');
  BEGIN
    INSERT INTO t VALUES (71, 'inner');
    INSERT INTO t VALUES (70, 'duplicate');
  EXCEPTION WHEN unique_violation THEN
    RAISE NOTICE 'caught %', SQLSTATE;
  END;
  INSERT INTO t VALUES (72, 'after block');
END $$;
SELECT * FROM t WHERE id >= 70 AND id < 80 ORDER BY id;

-- a local error after the first batch of the statement went out
BEGIN;
INSERT INTO t VALUES (80, 'before');
SAVEPOINT s;
INSERT INTO t SELECT g, (1 / (g - 2500))::text FROM generate_series(1000, 3000) g;
ROLLBACK TO s;
SELECT count(*) FROM t WHERE id >= 1000;
COMMIT;
SELECT mine(), committed();

--
-- MySQL ends the transaction implicitly before any DDL: remote work done
-- before a CREATE TABLE sent through multi_fdw_exec is committed even if
-- the local transaction then rolls back.  multi_fdw_exec sees that the
-- remote left the transaction and says so (the row stays committed)
--
BEGIN;
INSERT INTO t VALUES (90, 'before ddl');
SELECT multi_fdw_exec('my_real', 'CREATE TABLE xact_ddl (id int) ENGINE=InnoDB');
ROLLBACK;
SELECT * FROM t WHERE id = 90;
SELECT multi_fdw_exec('my_real', 'DROP TABLE xact_ddl');
DELETE FROM t WHERE id = 90;

-- parallel_commit and parallel_abort: MariaDB and PostgreSQL committed
-- and rolled back at once (the statements cross in the network)
CREATE SERVER my_par FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port', database :'my_db',
           parallel_commit 'true', parallel_abort 'true');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_par
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE par_t (id int OPTIONS (key 'true'), v text)
  SERVER my_par OPTIONS (table_name 'xact_t');
ALTER SERVER pg_remote OPTIONS (ADD parallel_commit 'true', ADD parallel_abort 'true');
SELECT multi_fdw_exec('pg_remote', 'CREATE TABLE public.my_par_pg (id int)');
CREATE FOREIGN TABLE par_pg (id int) SERVER pg_remote
  OPTIONS (schema_name 'public', table_name 'my_par_pg');
BEGIN;
INSERT INTO par_t VALUES (95, 'parallel');
INSERT INTO par_pg VALUES (95);
COMMIT;
SELECT committed(), (SELECT count(*) FROM par_pg) AS pg_rows;
BEGIN;
INSERT INTO par_t VALUES (96, 'rolled back');
INSERT INTO par_pg VALUES (96);
ROLLBACK;
SELECT committed(), (SELECT count(*) FROM par_pg) AS pg_rows;
-- a remote error in the transaction: the abort still ends both
BEGIN;
INSERT INTO par_pg VALUES (97);
INSERT INTO par_t VALUES (95, 'duplicate');
ROLLBACK;
SELECT committed(), (SELECT count(*) FROM par_pg) AS pg_rows;
DELETE FROM par_t WHERE id = 95;
ALTER SERVER pg_remote OPTIONS (DROP parallel_commit, DROP parallel_abort);
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE public.my_par_pg');
DROP SERVER my_par CASCADE;
DROP FOREIGN TABLE par_pg;

-- A remote syntax error right after a SAVEPOINT: ROLLBACK TO it keeps
-- the remote transaction going, whether the transaction had sent anything
-- before or the savepoint was its first statement.
BEGIN;
SELECT mine();
SAVEPOINT a;
SELECT multi_fdw_exec('my_real', 'SELEC 1');
ROLLBACK TO SAVEPOINT a;
INSERT INTO t VALUES (700, 'after syntax error');
COMMIT;
BEGIN;
SAVEPOINT a;
SELECT multi_fdw_exec('my_real', 'SELEC 1');
ROLLBACK TO SAVEPOINT a;
INSERT INTO t VALUES (701, 'first statement');
COMMIT;
SELECT committed();
DELETE FROM t WHERE id >= 700;

-- a local READ ONLY transaction opens a READ ONLY remote one (the
-- session's access mode, set as it changes); the next is read-write again
BEGIN READ ONLY;
SELECT count(*) FROM t;
SELECT multi_fdw_exec('my_real', 'INSERT INTO xact_t VALUES (702, ''no'')');
ROLLBACK;
BEGIN;
INSERT INTO t VALUES (702, 'read-write again');
COMMIT;
SELECT id, v FROM t WHERE id >= 700 ORDER BY id;
DELETE FROM t WHERE id >= 700;
-- a statement of the user's that changes the session's access mode where
-- the guard cannot read it (a prepared statement's text) is an error in a
-- READ ONLY transaction (the mode is read after it: 25006), and does not
-- make the next READ ONLY transaction a read-write one either: after a
-- statement of the user's the mode is set again at the next begin
BEGIN READ ONLY;
SELECT count(*) FROM t;
SELECT multi_fdw_exec('my_real',
  'PREPARE s FROM ''SET SESSION TRANSACTION READ WRITE''');
SELECT multi_fdw_exec('my_real', 'EXECUTE s');
SELECT multi_fdw_exec('my_real', 'DEALLOCATE PREPARE s');
COMMIT;
BEGIN READ ONLY;
SELECT multi_fdw_exec('my_real', 'INSERT INTO xact_t VALUES (703, ''no'')');
ROLLBACK;
BEGIN READ ONLY;
SELECT count(*) FROM t WHERE id = 703;
COMMIT;
-- and a read-write transaction after it is one
BEGIN;
SELECT multi_fdw_exec('my_real',
  'PREPARE s FROM ''SET SESSION TRANSACTION READ ONLY''');
SELECT multi_fdw_exec('my_real', 'EXECUTE s');
SELECT multi_fdw_exec('my_real', 'DEALLOCATE PREPARE s');
COMMIT;
INSERT INTO t VALUES (704, 'read-write');
SELECT id, v FROM t WHERE id >= 700 ORDER BY id;
DELETE FROM t WHERE id >= 700;

-- the connection is healthy, and outside a transaction between statements
SELECT server_name, valid, in_transaction FROM multi_fdw_get_connections()
 WHERE server_name IN ('my_real', 'my_xpeer') ORDER BY server_name;
SELECT mine(), committed();
