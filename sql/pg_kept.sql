--
-- pg_kept: the statements the libpq transport keeps prepared on its
-- connection (pq_transport.c) after the remote table changes under them.
--
-- PostgreSQL refuses to run a named statement whose result changed shape
-- ("cached plan must not change result type", 0A000): such a statement is
-- prepared again under a new name and run again where the remote can be
-- put back as it was (the statement opened the remote transaction, or a
-- savepoint went just before it), and otherwise fails once, the next
-- transaction preparing it afresh (pq_replan.c).  Before, every later
-- transaction failed until multi_fdw_disconnect().
--
\set SHOW_CONTEXT errors
CREATE SCHEMA kept_pg;
SET search_path = kept_pg, public;
SET statement_timeout = '10s';

SELECT multi_fdw_exec('pg_remote', 'DROP TABLE IF EXISTS public.kept_r');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.kept_r (id int PRIMARY KEY, a int, b text)$$);
CREATE FOREIGN TABLE kept_r (id int OPTIONS (key 'true'), a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_r');
-- the same table for multi-row INSERTs and for the pipeline
CREATE FOREIGN TABLE kept_rb (id int OPTIONS (key 'true'), a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_r', insert_method 'values');
CREATE FOREIGN TABLE kept_rp (id int OPTIONS (key 'true'), a int, b text)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'kept_r', insert_method 'pipeline');

-- a local function: keeps an UPDATE or DELETE from going whole to the
-- remote, so that it runs by key (PL/pgSQL, never inlined)
CREATE FUNCTION local_true(n int) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN true; END $$;

-- every kind of kept statement, each in a transaction of its own
CREATE PROCEDURE kept_all(i int) LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  INSERT INTO kept_r VALUES (i, i, 'r') RETURNING * INTO r;
  COMMIT;
  INSERT INTO kept_r VALUES (i + 1000, i, 'n');
  COMMIT;
  INSERT INTO kept_rb VALUES (i + 2000, i, 'b'), (i + 3000, i, 'b');
  COMMIT;
  INSERT INTO kept_rp VALUES (i + 4000, i, 'p');
  COMMIT;
  UPDATE kept_r SET a = a + 1 WHERE id = i AND local_true(a) RETURNING * INTO r;
  COMMIT;
  DELETE FROM kept_r WHERE id = i + 1000 AND local_true(a) RETURNING * INTO r;
  COMMIT;
END $$;
CALL kept_all(1);
CALL kept_all(2);

-- a column's type changes under the RETURNING lists: a statement that
-- opens its remote transaction (the INSERTs) is prepared and run again;
-- one that follows the scan of its rows (the UPDATE and DELETE by key)
-- fails once, and the next transaction prepares it again
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE bigint');
CALL kept_all(3);
CALL kept_all(4);
CALL kept_all(5);

-- in a transaction that already did remote work: the statement fails
-- once; the next transaction prepares it again
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE int');
BEGIN;
SELECT count(*) FROM kept_r;
INSERT INTO kept_r VALUES (50, 5, 'r') RETURNING *;
ROLLBACK;
INSERT INTO kept_r VALUES (50, 5, 'r') RETURNING *;
BEGIN;
SELECT count(*) FROM kept_r;
UPDATE kept_r SET a = a + 1 WHERE id = 50 AND local_true(a) RETURNING *;
COMMIT;

-- under a savepoint that went just before it: the INSERT is rolled back
-- to it and run again (the UPDATE and DELETE were prepared afresh above)
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ALTER COLUMN a TYPE bigint');
BEGIN;
SELECT count(*) FROM kept_r;
SAVEPOINT s1;
INSERT INTO kept_r VALUES (60, 6, 'r') RETURNING *;
RELEASE SAVEPOINT s1;
SAVEPOINT s2;
UPDATE kept_r SET a = a + 1 WHERE id = 60 AND local_true(a) RETURNING *;
ROLLBACK TO SAVEPOINT s2;
SAVEPOINT s3;
DELETE FROM kept_r WHERE id = 50 AND local_true(a) RETURNING *;
RELEASE SAVEPOINT s3;
COMMIT;

-- a column added, renamed or dropped where no kept statement names it
-- changes nothing PostgreSQL cannot plan again by itself
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r ADD COLUMN c int');
CALL kept_all(7);
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r RENAME COLUMN c TO d');
CALL kept_all(8);
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r DROP COLUMN d');
CALL kept_all(9);
-- one a kept statement names: an error until the table fits again
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r RENAME COLUMN b TO bb');
INSERT INTO kept_r VALUES (100, 10, 'r') RETURNING *;
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE public.kept_r RENAME COLUMN bb TO b');
CALL kept_all(10);

SELECT * FROM kept_r ORDER BY id;

RESET statement_timeout;
DROP SCHEMA kept_pg CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE public.kept_r');
