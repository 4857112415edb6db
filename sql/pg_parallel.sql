--
-- pg_parallel: parallel_commit and parallel_abort.  Two servers on the
-- same remote, each its own connection and remote transaction.  Their
-- commits are slowed by a deferred constraint trigger that sleeps a second
-- and notes when it ran: committed in turn, the second starts after the
-- first ended; in parallel, both start at once.
--
CREATE SCHEMA par;
SET search_path = par, public;

\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS par_r CASCADE');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE SCHEMA par_r;
  CREATE TABLE par_r.t1 (id int PRIMARY KEY, v int CHECK (v >= 0));
  CREATE TABLE par_r.t2 (id int PRIMARY KEY, v int);
  CREATE TABLE par_r.ran (tab text, at timestamptz);
  CREATE FUNCTION par_r.slow_commit() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    INSERT INTO par_r.ran VALUES (TG_TABLE_NAME, clock_timestamp());
    PERFORM pg_catalog.pg_sleep(1);
    RETURN NULL;
  END $f$;
  CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON par_r.t1
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION par_r.slow_commit();
  CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON par_r.t2
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION par_r.slow_commit();
  CREATE TABLE par_r.later (id int PRIMARY KEY REFERENCES par_r.t2 DEFERRABLE INITIALLY DEFERRED)$$);

CREATE SERVER par_a FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port', dbname :'pg_db');
CREATE SERVER par_b FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port', dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER par_a
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE USER MAPPING FOR CURRENT_USER SERVER par_b
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE FOREIGN TABLE t1 (id int, v int) SERVER par_a OPTIONS (schema_name 'par_r');
CREATE FOREIGN TABLE t2 (id int, v int) SERVER par_b OPTIONS (schema_name 'par_r');
CREATE FOREIGN TABLE later (id int) SERVER par_b OPTIONS (schema_name 'par_r');
CREATE FOREIGN TABLE ran (tab text, at timestamptz) SERVER pg_remote
  OPTIONS (schema_name 'par_r');

-- boolean options of the server only, as in postgres_fdw
CREATE FOREIGN TABLE bad (id int) SERVER par_a OPTIONS (parallel_commit 'true');
ALTER SERVER par_a OPTIONS (ADD parallel_commit 'maybe');

-- in turn (the default): the second commit starts a second after the first
BEGIN;
INSERT INTO t1 VALUES (1, 1);
INSERT INTO t2 VALUES (1, 1);
COMMIT;
SELECT max(at) - min(at) >= interval '0.9 s' AS one_after_the_other FROM ran;
SELECT multi_fdw_exec('pg_remote', 'TRUNCATE par_r.ran');

-- in parallel: both at once
ALTER SERVER par_a OPTIONS (ADD parallel_commit 'true');
ALTER SERVER par_b OPTIONS (ADD parallel_commit 'true');
BEGIN;
INSERT INTO t1 VALUES (2, 2);
INSERT INTO t2 VALUES (2, 2);
COMMIT;
SELECT count(*) AS commits, max(at) - min(at) < interval '0.5 s' AS at_once FROM ran;
SELECT * FROM t1 ORDER BY id;
SELECT * FROM t2 ORDER BY id;

-- a commit that fails on one server: its error, and the sessions go on.
-- The other server's commit stands: without two-phase commit a commit
-- across servers is not atomic, in parallel or not
BEGIN;
INSERT INTO t1 VALUES (3, 3);
INSERT INTO later VALUES (99);
COMMIT;
\echo :LAST_ERROR_SQLSTATE
SELECT id FROM t1 ORDER BY id;
SELECT count(*) FROM later;

-- parallel_abort: both remote transactions roll back
ALTER SERVER par_a OPTIONS (ADD parallel_abort 'true');
ALTER SERVER par_b OPTIONS (ADD parallel_abort 'true');
BEGIN;
INSERT INTO t1 VALUES (5, 5);
INSERT INTO t2 VALUES (5, 5);
ROLLBACK;
SELECT id FROM t1 ORDER BY id;
SELECT id FROM t2 ORDER BY id;
-- an abort after a remote error on one of them
BEGIN;
INSERT INTO t2 VALUES (6, 6);
INSERT INTO t1 VALUES (6, -1);
ROLLBACK;
SELECT id FROM t1 ORDER BY id;
SELECT id FROM t2 ORDER BY id;
SELECT server_name, valid FROM multi_fdw_get_connections()
 WHERE server_name LIKE 'par_%' ORDER BY 1;

-- with two-phase commit: prepared at once and committed at once
ALTER SERVER par_a OPTIONS (ADD two_phase_commit 'on');
ALTER SERVER par_b OPTIONS (ADD two_phase_commit 'on');
SELECT multi_fdw_exec('pg_remote', 'TRUNCATE par_r.ran');
BEGIN;
INSERT INTO t1 VALUES (7, 7);
INSERT INTO t2 VALUES (7, 7);
COMMIT;
SELECT count(*) AS prepares, max(at) - min(at) < interval '0.5 s' AS at_once FROM ran;
SELECT id FROM t1 ORDER BY id;
SELECT id FROM t2 ORDER BY id;
SELECT count(*) AS in_doubt FROM multi_fdw_in_doubt;

DROP SCHEMA par CASCADE;
DROP SERVER par_a, par_b CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA par_r CASCADE');
