--
-- pg_facts: what the gateway learns of a remote table (has it BEFORE ROW
-- INSERT triggers that may skip rows?  is it a table?) lasts as long as the
-- remote transaction it was asked in, so that a trigger or a relation
-- changed since by another session is seen by the next statement; and an
-- INSERT's row count is the remote's for every insert method, or the
-- method is refused.
--
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

CREATE SCHEMA facts;
SET search_path = facts, public;

-- another session on the same remote, for changes behind the gateway's back
CREATE SERVER facts_other FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER facts_other
  OPTIONS (user :'pg_user', password :'pg_password');

SELECT multi_fdw_exec('facts_other', $$
  DROP SCHEMA IF EXISTS facts_r CASCADE;
  CREATE SCHEMA facts_r;
  CREATE TABLE facts_r.t (id int);
  CREATE TABLE facts_r.u (id int);
  CREATE TABLE facts_r.w (id int, v text);
  INSERT INTO facts_r.w VALUES (1, 'a'), (2, 'b');
  CREATE FUNCTION facts_r.skip_odd() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    IF NEW.id % 2 = 1 THEN
      RETURN NULL;
    END IF;
    RETURN NEW;
  END $f$ $$);
CREATE FOREIGN TABLE t (id int) SERVER pg_remote
  OPTIONS (schema_name 'facts_r');
CREATE FOREIGN TABLE u (id int) SERVER pg_remote
  OPTIONS (schema_name 'facts_r');
CREATE FOREIGN TABLE w (id int, v text) SERVER pg_remote
  OPTIONS (schema_name 'facts_r');

-- no trigger yet: COPY streams the rows, and the gateway has asked
COPY t FROM STDIN;
1
2
\.
\echo stored :ROW_COUNT
-- another session adds a trigger that skips odd ids
SELECT multi_fdw_exec('facts_other', $$
  CREATE TRIGGER skip_odd BEFORE INSERT ON facts_r.t
    FOR EACH ROW EXECUTE FUNCTION facts_r.skip_odd()$$);
-- the next statements see it: their counts are the rows stored
COPY t FROM STDIN;
3
4
5
\.
\echo stored :ROW_COUNT
INSERT INTO t SELECT g FROM generate_series(6, 15) g;
\echo stored :ROW_COUNT
SELECT count(*) FROM t;

-- a method named that counts rows before the remote's triggers run is
-- refused; a pipeline is read to its end with each batch, and so counts
-- what each statement stored
ALTER FOREIGN TABLE t OPTIONS (ADD insert_method 'copy');
INSERT INTO t SELECT g FROM generate_series(16, 25) g;
\echo stored :ROW_COUNT
-- (18 reports the refusal before the first row, earlier versions at it:
-- the context line is left out)
\set SHOW_CONTEXT never
COPY t FROM STDIN;
16
\.
\set SHOW_CONTEXT errors
\echo stored :ROW_COUNT
ALTER FOREIGN TABLE t OPTIONS (SET insert_method 'pipeline', ADD batch_size '3');
INSERT INTO t SELECT g FROM generate_series(16, 1015) g;
\echo stored :ROW_COUNT
-- COPY hands rows over one by one: each is sent on its own
COPY t FROM STDIN;
1016
1017
1018
\.
\echo stored :ROW_COUNT
ALTER FOREIGN TABLE t OPTIONS (SET insert_method 'values');
COPY t FROM STDIN;
1019
1020
1021
\.
\echo stored :ROW_COUNT
SELECT count(*) FROM t;

-- a trigger created through the gateway's own connection, in the same
-- transaction, is seen too (multi_fdw_exec may change what was learnt)
BEGIN;
INSERT INTO u SELECT g FROM generate_series(1, 100) g;
\echo stored :ROW_COUNT
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TRIGGER skip_odd BEFORE INSERT ON facts_r.u
    FOR EACH ROW EXECUTE FUNCTION facts_r.skip_odd()$$);
INSERT INTO u SELECT g FROM generate_series(101, 200) g;
\echo stored :ROW_COUNT
COMMIT;
-- and one that a rolled-back savepoint brings back
BEGIN;
SAVEPOINT s;
SELECT multi_fdw_exec('pg_remote', 'DROP TRIGGER skip_odd ON facts_r.u');
INSERT INTO u SELECT g FROM generate_series(201, 210) g;
\echo stored :ROW_COUNT
ROLLBACK TO s;
INSERT INTO u SELECT g FROM generate_series(211, 220) g;
\echo stored :ROW_COUNT
COMMIT;
SELECT count(*) FROM u;

-- a relation that stops being a table is seen by the next statement: a row
-- is no longer found by its ctid, and the error says what to do
UPDATE w SET v = 'c' WHERE id = 1 AND random() >= 0;
SELECT multi_fdw_exec('facts_other', $$
  ALTER TABLE facts_r.w RENAME TO w_data;
  CREATE VIEW facts_r.w AS SELECT * FROM facts_r.w_data$$);
UPDATE w SET v = 'd' WHERE id = 1 AND random() >= 0;
SELECT * FROM w ORDER BY id;

-- a generic plan, reused in later transactions, asks again at execution
-- what it was planned with (the rule of remote_facts.c): row triggers
-- created since decide the counts, and the relation must still be a table
SET plan_cache_mode = force_generic_plan;
SELECT multi_fdw_exec('facts_other', $$
  CREATE TABLE facts_r.g (id int, v text);
  INSERT INTO facts_r.g SELECT i, 'a' FROM generate_series(1, 6) i;
  CREATE FUNCTION facts_r.keep_odd() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    IF OLD.id % 2 = 1 THEN
      RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    RETURN NEW;
  END $f$ $$);
CREATE FOREIGN TABLE g (id int, v text) SERVER pg_remote
  OPTIONS (schema_name 'facts_r');
PREPARE g_upd(int, text) AS UPDATE g SET v = $2 WHERE id <= $1 AND random() >= 0;
PREPARE g_del(int) AS DELETE FROM g WHERE id <= $1 AND random() >= 0;
PREPARE g_ins(int) AS INSERT INTO g SELECT i, 'i' FROM generate_series($1, $1 + 3) i;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE g_upd(2, 'b');
EXECUTE g_upd(2, 'b');
\echo updated :ROW_COUNT
EXECUTE g_ins(10);
\echo inserted :ROW_COUNT
SELECT multi_fdw_exec('facts_other', $$
  CREATE TRIGGER keep_odd BEFORE UPDATE OR DELETE ON facts_r.g
    FOR EACH ROW EXECUTE FUNCTION facts_r.keep_odd();
  CREATE TRIGGER skip_odd BEFORE INSERT ON facts_r.g
    FOR EACH ROW EXECUTE FUNCTION facts_r.skip_odd()$$);
EXECUTE g_upd(4, 'c');
\echo updated :ROW_COUNT
EXECUTE g_del(4);
\echo deleted :ROW_COUNT
EXECUTE g_ins(20);
\echo inserted :ROW_COUNT
SELECT * FROM g ORDER BY id;
-- the table replaced by a view: the error says what to do
SELECT multi_fdw_exec('facts_other', $$
  ALTER TABLE facts_r.g RENAME TO g_data;
  CREATE VIEW facts_r.g AS SELECT * FROM facts_r.g_data$$);
EXECUTE g_upd(6, 'd');
EXECUTE g_del(6);
DEALLOCATE g_upd;
DEALLOCATE g_del;
DEALLOCATE g_ins;

-- a partition key the plan's statement finds rows by: a table replaced
-- since by one without it is changed by tableoid and ctid alone (its p,
-- more precise than the local column, would match no row)
SELECT multi_fdw_exec('facts_other', $$
  CREATE TABLE facts_r.gp (p real, v text) PARTITION BY LIST (p);
  CREATE TABLE facts_r.gp1 PARTITION OF facts_r.gp FOR VALUES IN (1);
  INSERT INTO facts_r.gp VALUES (1, 'a')$$);
CREATE FOREIGN TABLE gp (p real, v text) SERVER pg_remote
  OPTIONS (schema_name 'facts_r');
PREPARE gp_upd(text) AS UPDATE gp SET v = $1 WHERE random() >= 0;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE gp_upd('b');
EXECUTE gp_upd('b');
\echo updated :ROW_COUNT
SELECT multi_fdw_exec('facts_other', $$
  DROP TABLE facts_r.gp;
  CREATE TABLE facts_r.gp (p double precision, v text);
  INSERT INTO facts_r.gp VALUES (0.123456789, 'a')$$);
EXECUTE gp_upd('c');
\echo updated :ROW_COUNT
SELECT multi_fdw_exec('facts_other', 'SELECT 1 FROM facts_r.gp WHERE v = ''c''');
DEALLOCATE gp_upd;
RESET plan_cache_mode;

DROP USER MAPPING FOR CURRENT_USER SERVER facts_other;
DROP SERVER facts_other;
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA facts_r CASCADE');
DROP SCHEMA facts CASCADE;
