--
-- mysql_compat: row locks and TRUNCATE on MariaDB, as pg_compat does them
-- on PostgreSQL.
--
CREATE SCHEMA my_compat;
SET search_path = my_compat, public;

SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS mc_lk, mc_t, mc_u');
SELECT multi_fdw_exec('my_real',
  'CREATE TABLE mc_lk (id int PRIMARY KEY, v varchar(10)) ENGINE=InnoDB');
SELECT multi_fdw_exec('my_real',
  'INSERT INTO mc_lk VALUES (1, ''a''), (2, ''b''), (3, ''c'')');
SELECT multi_fdw_exec('my_real',
  'CREATE TABLE mc_t (id int AUTO_INCREMENT PRIMARY KEY, v int) ENGINE=InnoDB');
SELECT multi_fdw_exec('my_real', 'INSERT INTO mc_t (v) VALUES (1), (2)');
SELECT multi_fdw_exec('my_real', 'CREATE TABLE mc_u (v int) ENGINE=InnoDB');
SELECT multi_fdw_exec('my_real', 'INSERT INTO mc_u VALUES (1)');

CREATE FOREIGN TABLE mc_lk (id int OPTIONS (key 'true'), v text) SERVER my_real;
CREATE FOREIGN TABLE mc_t (id int, v int) SERVER my_real;
CREATE FOREIGN TABLE mc_u (v int) SERVER my_real;

-- ===================================================================
-- row locks
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM mc_lk FOR SHARE;
SELECT * FROM mc_lk WHERE id = 1 FOR SHARE;
SELECT * FROM mc_lk WHERE id = 2 FOR KEY SHARE NOWAIT;
SELECT * FROM mc_lk ORDER BY id FOR UPDATE SKIP LOCKED;
-- against another connection's locks: a second server, its own connection
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD
CREATE SERVER my_other FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_other
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE mc_lk_other (id int, v text) SERVER my_other
  OPTIONS (table_name 'mc_lk');
BEGIN;
SELECT * FROM mc_lk_other WHERE id = 1 FOR SHARE;
SELECT * FROM mc_lk WHERE id = 1 FOR SHARE NOWAIT;
SELECT * FROM mc_lk_other WHERE id = 2 FOR UPDATE;
SELECT * FROM mc_lk ORDER BY id FOR UPDATE SKIP LOCKED;
SELECT * FROM mc_lk WHERE id = 2 FOR UPDATE NOWAIT;
ROLLBACK;

-- ===================================================================
-- TRUNCATE: one table per statement, AUTO_INCREMENT restarts
-- ===================================================================
TRUNCATE mc_t, mc_u;
SELECT (SELECT count(*) FROM mc_t) AS mc_t, (SELECT count(*) FROM mc_u) AS mc_u;
INSERT INTO mc_u VALUES (2);
SELECT multi_fdw_exec('my_real', 'INSERT INTO mc_t (v) VALUES (9)');
SELECT id, v FROM mc_t;
-- DDL that commits on MariaDB: refused in a transaction block
BEGIN;
INSERT INTO mc_u VALUES (3);
TRUNCATE mc_u;
ROLLBACK;
-- ... and after other work of the same transaction on that server
CREATE FUNCTION mc_fill_and_truncate() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mc_u VALUES (4);
  TRUNCATE mc_u;
END $$;
SELECT mc_fill_and_truncate();
SELECT v FROM mc_u;
TRUNCATE mc_u CASCADE;
ALTER FOREIGN TABLE mc_u OPTIONS (ADD truncatable 'false');
TRUNCATE mc_u;
ALTER FOREIGN TABLE mc_u OPTIONS (DROP truncatable);
TRUNCATE mc_u RESTART IDENTITY;
SELECT count(*) FROM mc_u;

DROP SCHEMA my_compat CASCADE;
DROP SERVER my_other CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE mc_lk, mc_t, mc_u');
