--
-- pg_kept: the statements the libpq transport keeps prepared on its
-- connection (pq_transport.c) after the remote table changes under them.
--
-- PostgreSQL refuses to run a named statement whose result changed shape
-- ("cached plan must not change result type", 0A000, raised while the
-- statement is bound, before it runs; it aborts the remote transaction
-- like any error).  Such a statement is prepared again under a new name
-- and run again once, where the remote can be put back as it was: the
-- statement opened the remote transaction, or a savepoint went just before
-- it -- the core's, or the one the transport puts in front of a kept
-- statement that returns rows at its first use since the remote could
-- have changed (pq_replan.c).  No error reaches the user unless the
-- statement no longer fits the table (a column it names is gone).  Before,
-- every later transaction failed until multi_fdw_disconnect(); then, a
-- statement after other remote work of its transaction failed once.
--
\set SHOW_CONTEXT errors
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD
CREATE SCHEMA kept_pg;
SET search_path = kept_pg, public;
SET statement_timeout = '10s';

-- another session on the same remote, for changes behind the gateway's back
CREATE SERVER kept_other FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER kept_other
  OPTIONS (user :'pg_user', password :'pg_password');

SELECT multi_fdw_exec('pg_remote', 'DROP TABLE IF EXISTS public.kept_r, public.kept_c');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.kept_r (id int PRIMARY KEY, a int, b text);
  CREATE TABLE public.kept_c (id int, a int, b text)$$);
CREATE FOREIGN TABLE kept_r (id int OPTIONS (key 'true'), a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_r');
-- the same table for multi-row INSERTs, for the pipeline, and for a scan
-- read through a cursor a few rows at a time
CREATE FOREIGN TABLE kept_rb (id int OPTIONS (key 'true'), a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_r', insert_method 'values');
CREATE FOREIGN TABLE kept_rp (id int OPTIONS (key 'true'), a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_r', insert_method 'pipeline');
CREATE FOREIGN TABLE kept_rs (id int OPTIONS (key 'true'), a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_r', fetch_size '2');
-- no key column: rows are found again by their ctid
CREATE FOREIGN TABLE kept_c (id int, a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_c');

-- a local function: keeps an UPDATE or DELETE from going whole to the
-- remote, so that it runs row by row (PL/pgSQL, never inlined)
CREATE FUNCTION local_true(n bigint) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN true; END $$;

-- every kind of kept statement: in a transaction of its own each
-- (kept_all), or all in one transaction after a scan opened it (kept_txn)
CREATE PROCEDURE kept_all(i int) LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  INSERT INTO kept_r VALUES (i, i, 'r') RETURNING * INTO r;
  COMMIT;
  INSERT INTO kept_r VALUES (i + 100, i, 'n');
  COMMIT;
  INSERT INTO kept_rb VALUES (i + 200, i, 'b'), (i + 300, i, 'b');
  COMMIT;
  INSERT INTO kept_rp VALUES (i + 400, i, 'p');
  COMMIT;
  UPDATE kept_r SET a = a + 1 WHERE id = i AND local_true(a) RETURNING * INTO r;
  COMMIT;
  UPDATE kept_r SET a = a + 1 WHERE id = i + 100 AND local_true(a);
  COMMIT;
  DELETE FROM kept_r WHERE id = i + 200 AND local_true(a) RETURNING * INTO r;
  COMMIT;
  DELETE FROM kept_r WHERE id = i + 300 AND local_true(a);
  COMMIT;
  UPDATE kept_r SET b = b || 'd' WHERE id = i;
  COMMIT;
  PERFORM * FROM kept_r WHERE id = i;
  COMMIT;
  INSERT INTO kept_c VALUES (i, i, 'c'), (i + 500, i, 'c');
  COMMIT;
  UPDATE kept_c SET a = a + 1 WHERE id = i AND local_true(a) RETURNING * INTO r;
  COMMIT;
  DELETE FROM kept_c WHERE id = i + 500 AND local_true(a) RETURNING * INTO r;
  COMMIT;
END $$;

CREATE FUNCTION kept_txn(i int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
  s text;
BEGIN
  SELECT count(*) INTO s FROM kept_r;
  INSERT INTO kept_r VALUES (i, i, 'r') RETURNING a INTO r;
  s := s || ' ' || r.a;
  INSERT INTO kept_r VALUES (i + 100, i, 'n');
  INSERT INTO kept_rb VALUES (i + 200, i, 'b'), (i + 300, i, 'b');
  INSERT INTO kept_rp VALUES (i + 400, i, 'p');
  UPDATE kept_r SET a = a + 1 WHERE id = i AND local_true(a) RETURNING a INTO r;
  s := s || ' ' || r.a;
  UPDATE kept_r SET a = a + 1 WHERE id = i + 100 AND local_true(a);
  DELETE FROM kept_r WHERE id = i + 200 AND local_true(a) RETURNING a INTO r;
  s := s || ' ' || r.a;
  DELETE FROM kept_r WHERE id = i + 300 AND local_true(a);
  UPDATE kept_r SET b = b || 'd' WHERE id = i;
  SELECT a INTO r FROM kept_r WHERE id = i;
  s := s || ' ' || r.a;
  INSERT INTO kept_c VALUES (i, i, 'c'), (i + 500, i, 'c');
  UPDATE kept_c SET a = a + 1 WHERE id = i AND local_true(a) RETURNING a INTO r;
  s := s || ' ' || r.a;
  DELETE FROM kept_c WHERE id = i + 500 AND local_true(a) RETURNING a INTO r;
  RETURN s || ' ' || r.a;
END $$;

CALL kept_all(1);
CALL kept_all(2);
SELECT kept_txn(3);
SELECT kept_txn(4);

-- a column's type changes under the RETURNING lists: every statement runs
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE bigint');
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_c ALTER COLUMN a TYPE bigint');
CALL kept_all(5);
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE int');
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_c ALTER COLUMN a TYPE int');
SELECT kept_txn(6);
-- by another session, between two transactions
SELECT multi_fdw_exec('kept_other', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE bigint');
SELECT multi_fdw_exec('kept_other', 'ALTER TABLE public.kept_c ALTER COLUMN a TYPE bigint');
SELECT kept_txn(7);
SELECT multi_fdw_exec('kept_other', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE int');
SELECT multi_fdw_exec('kept_other', 'ALTER TABLE public.kept_c ALTER COLUMN a TYPE int');
CALL kept_all(8);

-- in a transaction that already did remote work, whose work stays
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE bigint');
BEGIN;
INSERT INTO kept_r VALUES (50, 5, 'r');
INSERT INTO kept_r VALUES (51, 5, 'r') RETURNING *;
UPDATE kept_r SET a = a + 1 WHERE id = 51 AND local_true(a) RETURNING *;
COMMIT;
-- the change made in the same remote transaction, through its connection
BEGIN;
SELECT count(*) FROM kept_r;
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE int');
INSERT INTO kept_r VALUES (52, 5, 'r') RETURNING *;
DELETE FROM kept_r WHERE id = 50 AND local_true(a) RETURNING *;
COMMIT;
-- every row of one UPDATE by key, each read through a cursor two at a
-- time: the first statement, rolled back to the savepoint in front of it
-- and run again, leaves the cursor where it was
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE bigint');
UPDATE kept_rs SET a = a + 10 WHERE id BETWEEN 1 AND 8 AND local_true(a) RETURNING id, a;

-- under the core's savepoints
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE int');
BEGIN;
SELECT count(*) FROM kept_r;
SAVEPOINT s1;
INSERT INTO kept_r VALUES (60, 6, 'r') RETURNING *;
RELEASE SAVEPOINT s1;
SAVEPOINT s2;
UPDATE kept_r SET a = a + 1 WHERE id = 60 AND local_true(a) RETURNING *;
ROLLBACK TO SAVEPOINT s2;
SAVEPOINT s3;
DELETE FROM kept_r WHERE id = 52 AND local_true(a) RETURNING *;
RELEASE SAVEPOINT s3;
COMMIT;

-- a column added, renamed or dropped where no kept statement names it
-- changes nothing PostgreSQL cannot plan again by itself
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ADD COLUMN c int');
CALL kept_all(9);
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r RENAME COLUMN c TO d');
SELECT kept_txn(10);
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r DROP COLUMN d');
CALL kept_all(11);
SELECT kept_txn(12);

-- one a kept statement names: an error that names the column and the
-- server, until the table fits again
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r RENAME COLUMN b TO bb');
INSERT INTO kept_r VALUES (70, 7, 'r') RETURNING *;
BEGIN;
SELECT count(*) FROM kept_r;
UPDATE kept_r SET a = a + 1 WHERE id = 1 AND local_true(a) RETURNING *;
ROLLBACK;
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r RENAME COLUMN bb TO b');
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r DROP COLUMN b');
INSERT INTO kept_r VALUES (70, 7, 'r') RETURNING *;
DELETE FROM kept_r WHERE id = 1 AND local_true(a) RETURNING *;
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ADD COLUMN b text');
SELECT multi_fdw_exec('pg_remote', $$UPDATE public.kept_r SET b = 'x'$$);
CALL kept_all(13);
SELECT kept_txn(14);

SELECT * FROM kept_r ORDER BY id;
SELECT * FROM kept_c ORDER BY id;

RESET statement_timeout;
DROP USER MAPPING FOR CURRENT_USER SERVER kept_other;
DROP SERVER kept_other;
DROP SCHEMA kept_pg CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE public.kept_r, public.kept_c');
