--
-- pg_xact: the remote transaction follows the local one: commit, rollback,
-- savepoints, errors inside subtransactions, and the connection functions.
--
-- committed() counts the rows of the remote table in a fresh remote
-- transaction of another connection (server xact_peer), so it sees only
-- what the remote has committed.
--
CREATE SCHEMA xact;
SET search_path = xact, public;

\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

CREATE SERVER xact_peer FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db', keep_connections 'off');
CREATE USER MAPPING FOR CURRENT_USER SERVER xact_peer
  OPTIONS (user :'pg_user', password :'pg_password');

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS xact_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA xact_r');
SELECT multi_fdw_exec('pg_remote',
  'CREATE TABLE xact_r.t (id int PRIMARY KEY, v text)');

CREATE FOREIGN TABLE t (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'xact_r');
CREATE FOREIGN TABLE peer_t (id int, v text)
  SERVER xact_peer OPTIONS (schema_name 'xact_r', table_name 't');

-- the ids committed on the remote, read through the other server
CREATE FUNCTION committed() RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM peer_t;
$$;
-- the ids this transaction sees through pg_remote
CREATE FUNCTION mine() RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM t;
$$;
-- this session's connections (the user name depends on the machine)
CREATE VIEW conns AS
  SELECT server_name, valid, in_transaction
    FROM multi_fdw_get_connections() ORDER BY server_name;

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
SELECT multi_fdw_exec('pg_remote', 'SELECT FROM xact_r.t') AS remote_rows;

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
SELECT mine();

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
-- the savepoint is still there: roll back to it again
SAVEPOINT b;
DELETE FROM t WHERE id = 10;
ROLLBACK TO a;
SELECT * FROM t WHERE id >= 10 ORDER BY id;
COMMIT;
SELECT mine(), committed();

-- RELEASE keeps the work, and a later rollback of the whole still undoes it
BEGIN;
SAVEPOINT a;
INSERT INTO t VALUES (20, 'released');
RELEASE SAVEPOINT a;
SELECT mine();
ROLLBACK;
SELECT mine();
BEGIN;
SAVEPOINT a;
INSERT INTO t VALUES (20, 'released');
RELEASE a;
COMMIT;
SELECT mine(), committed();

-- nested savepoints
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

-- savepoints taken before the connection is first used
BEGIN;
SAVEPOINT early1;
SAVEPOINT early2;
INSERT INTO t VALUES (40, 'deep');
ROLLBACK TO early1;
INSERT INTO t VALUES (41, 'shallow');
RELEASE early1;
COMMIT;
SELECT mine(), committed();

--
-- errors inside subtransactions
--
-- a duplicate key, one row
BEGIN;
INSERT INTO t VALUES (50, 'first');
SAVEPOINT s;
INSERT INTO t VALUES (50, 'duplicate');
ROLLBACK TO s;
INSERT INTO t VALUES (51, 'continued');
COMMIT;
SELECT * FROM t WHERE id >= 50 ORDER BY id;

-- a duplicate key in the middle of a batched INSERT (through COPY)
BEGIN;
SAVEPOINT s;
INSERT INTO t SELECT g, 'batch' FROM generate_series(1000, 2999) g
  UNION ALL SELECT 51, 'dup';
ROLLBACK TO s;
INSERT INTO t SELECT g, 'batch' FROM generate_series(1000, 1009) g;
COMMIT;
SELECT count(*), min(id), max(id) FROM t WHERE id >= 1000;

-- the same through INSERT ... VALUES statements
ALTER FOREIGN TABLE t OPTIONS (ADD insert_method 'values');
BEGIN;
SAVEPOINT s;
INSERT INTO t SELECT g, 'batch' FROM generate_series(2000, 3999) g
  UNION ALL SELECT 51, 'dup';
ROLLBACK TO s;
INSERT INTO t SELECT g, 'batch' FROM generate_series(2000, 2009) g;
COMMIT;
ALTER FOREIGN TABLE t OPTIONS (DROP insert_method);
SELECT count(*), min(id), max(id) FROM t WHERE id >= 2000;

-- a local error while a COPY into the remote is still open
BEGIN;
INSERT INTO t VALUES (60, 'before');
SAVEPOINT s;
INSERT INTO t SELECT g, (1 / (g - 4500))::text FROM generate_series(3000, 5000) g;
ROLLBACK TO s;
SELECT count(*) FROM t WHERE id >= 3000;
INSERT INTO t VALUES (61, 'after');
COMMIT;
SELECT * FROM t WHERE id BETWEEN 60 AND 69 ORDER BY id;
-- and outside a transaction block
INSERT INTO t SELECT g, (1 / (g - 4500))::text FROM generate_series(3000, 5000) g;
SELECT count(*) FROM t WHERE id >= 3000;
SELECT * FROM conns;

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
SELECT * FROM t WHERE id BETWEEN 70 AND 79 ORDER BY id;

-- an error without a savepoint aborts everything
BEGIN;
INSERT INTO t VALUES (80, 'lost');
INSERT INTO t VALUES (50, 'duplicate');
SELECT 1;
ROLLBACK;
SELECT count(*) FROM t WHERE id = 80;

-- the remote refuses the commit itself (a deferred constraint)
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE xact_r.deferred (id int,
    CONSTRAINT deferred_id UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)$$);
CREATE FOREIGN TABLE deferred (id int) SERVER pg_remote OPTIONS (schema_name 'xact_r');
BEGIN;
INSERT INTO deferred VALUES (1);
INSERT INTO deferred VALUES (1);
INSERT INTO t VALUES (90, 'not committed');
COMMIT;
SELECT count(*) FROM deferred;
SELECT count(*) FROM t WHERE id = 90;

--
-- the connection functions
--
SELECT multi_fdw_disconnect_all();
SELECT * FROM conns;
SELECT count(*) FROM t;
SELECT * FROM conns;
BEGIN;
-- not used yet in this transaction
SELECT * FROM conns;
SELECT count(*) FROM t;
SELECT * FROM conns;
-- in use: kept, with a warning
SELECT multi_fdw_disconnect('pg_remote');
SELECT multi_fdw_disconnect_all();
SELECT * FROM conns;
COMMIT;
SELECT * FROM conns;
SELECT multi_fdw_disconnect('pg_remote');
SELECT * FROM conns;
-- nothing left to close
SELECT multi_fdw_disconnect('pg_remote');
SELECT multi_fdw_disconnect_all();
SELECT multi_fdw_disconnect('no_such_server');
-- a server that is not multi_fdw's
CREATE FOREIGN DATA WRAPPER xact_other_fdw;
CREATE SERVER xact_other FOREIGN DATA WRAPPER xact_other_fdw;
SELECT multi_fdw_disconnect('xact_other');
SELECT multi_fdw_exec('xact_other', 'SELECT 1');

-- keep_connections 'off' (server xact_peer): closed once the transaction ends
BEGIN;
SELECT count(*) FROM peer_t;
SELECT count(*) FROM t;
SELECT * FROM conns;
COMMIT;
SELECT * FROM conns;
SELECT count(*) FROM peer_t;
SELECT * FROM conns;
-- also after a rollback
BEGIN;
SELECT count(*) FROM peer_t;
ROLLBACK;
SELECT * FROM conns;
-- turned on: kept
ALTER SERVER xact_peer OPTIONS (SET keep_connections 'on');
SELECT count(*) FROM peer_t;
SELECT * FROM conns;
ALTER SERVER xact_peer OPTIONS (SET keep_connections 'off');
SELECT * FROM conns;

--
-- PREPARE TRANSACTION is refused once a foreign table was used
--
BEGIN;
INSERT INTO t VALUES (95, 'prepared?');
PREPARE TRANSACTION 'mf_xact_test';
SELECT count(*) FROM t WHERE id = 95;
SELECT * FROM conns;

--
-- the remote transaction's isolation follows the local one
--
CREATE FUNCTION remote_isolation() RETURNS text LANGUAGE sql AS $$
  SELECT CASE
    WHEN multi_fdw_exec('pg_remote', $q$SELECT WHERE current_setting('transaction_isolation') = 'repeatable read'$q$) = 1
      THEN 'repeatable read'
    WHEN multi_fdw_exec('pg_remote', $q$SELECT WHERE current_setting('transaction_isolation') = 'serializable'$q$) = 1
      THEN 'serializable'
    ELSE 'other' END;
$$;
SELECT remote_isolation();
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT remote_isolation();
COMMIT;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT remote_isolation();
COMMIT;

-- one snapshot for the whole local transaction, even while another remote
-- session commits rows (through dblink, straight to the remote server)
CREATE EXTENSION dblink SCHEMA xact;
SELECT format('host=%s port=%s dbname=%s user=%s password=%s',
              :'pg_host', :'pg_port', :'pg_db', :'pg_user', :'pg_password')
  AS remote_conninfo \gset
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT count(*) FROM t;
SELECT dblink_exec(:'remote_conninfo',
  'INSERT INTO xact_r.t SELECT g, ''concurrent'' FROM generate_series(500, 504) g');
SELECT count(*) FROM t;
SELECT count(*) FROM t WHERE v = 'concurrent';
COMMIT;
SELECT count(*) FROM t WHERE v = 'concurrent';

-- A remote error in the statement that carried a deferred SAVEPOINT (a
-- syntax error fails the whole message it travels in): the savepoint exists
-- all the same, and ROLLBACK TO it keeps the remote transaction going.
-- First with the remote transaction already open, then with its begin
-- travelling in the same message, then with a RELEASE waiting too.
BEGIN;
SELECT count(*) FROM t;
SAVEPOINT a;
SELECT multi_fdw_exec('pg_remote', 'SELEC 1');
ROLLBACK TO SAVEPOINT a;
INSERT INTO t VALUES (700, 'after syntax error');
SELECT count(*) FROM t WHERE id = 700;
COMMIT;
BEGIN;
SAVEPOINT a;
SELECT multi_fdw_exec('pg_remote', 'SELEC 1');
ROLLBACK TO SAVEPOINT a;
INSERT INTO t VALUES (701, 'begin in the message');
COMMIT;
BEGIN;
SELECT count(*) FROM t WHERE id BETWEEN 700 AND 799;
SAVEPOINT a;
INSERT INTO t VALUES (702, 'rolled back');
SAVEPOINT b;
SELECT count(*) FROM t WHERE id BETWEEN 700 AND 799;
RELEASE SAVEPOINT b;
SELECT multi_fdw_exec('pg_remote', 'SELEC 1');
ROLLBACK TO SAVEPOINT a;
INSERT INTO t VALUES (703, 'nested');
COMMIT;
SELECT id, v FROM t WHERE id BETWEEN 700 AND 799 ORDER BY id;
SELECT server_name, valid, in_transaction FROM multi_fdw_get_connections()
 WHERE server_name = 'pg_remote';

-- ===================================================================
-- the local transaction's access mode: a READ ONLY one opens its remote
-- transaction READ ONLY (DEFERRABLE too under SERIALIZABLE), and one that
-- turns read-only later makes its remote one read-only with the next
-- request, undone with a subtransaction rolled back
-- ===================================================================
SELECT multi_fdw_exec('pg_remote', $$CREATE VIEW xact_r.mode AS
  SELECT current_setting('transaction_read_only') AS ro,
         current_setting('transaction_isolation') AS iso,
         current_setting('transaction_deferrable') AS def$$);
CREATE FOREIGN TABLE mode (ro text, iso text, def text)
  SERVER pg_remote OPTIONS (schema_name 'xact_r');
SELECT * FROM mode;
BEGIN READ ONLY;
SELECT * FROM mode;
-- a write through the wrapper's own function fails remotely
SELECT multi_fdw_exec('pg_remote', 'INSERT INTO xact_r.t VALUES (850, ''no'')');
ROLLBACK;
BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE;
SELECT * FROM mode;
COMMIT;
BEGIN;
SELECT * FROM mode;
SAVEPOINT a;
SET TRANSACTION READ ONLY;
SELECT * FROM mode;
ROLLBACK TO SAVEPOINT a;
SELECT * FROM mode;
INSERT INTO t VALUES (851, 'read-write again');
SET TRANSACTION READ ONLY;
SELECT * FROM mode;
COMMIT;
SELECT id, v FROM t WHERE id BETWEEN 850 AND 859 ORDER BY id;
-- a write through a foreign table fails here, with nothing sent
SELECT multi_fdw_stats_reset();
BEGIN READ ONLY;
INSERT INTO t VALUES (852, 'no');
ROLLBACK;
BEGIN READ ONLY;
UPDATE t SET v = 'no' WHERE id = 851;
ROLLBACK;
BEGIN READ ONLY;
DELETE FROM t WHERE id = 851;
ROLLBACK;
SELECT statements, round_trips FROM multi_fdw_stats WHERE server = 'pg_remote';

-- clean up
\set VERBOSITY terse
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA xact_r CASCADE');
DROP SCHEMA xact CASCADE;
DROP USER MAPPING FOR CURRENT_USER SERVER xact_peer;
DROP SERVER xact_peer;
DROP SERVER xact_other;
DROP FOREIGN DATA WRAPPER xact_other_fdw;
