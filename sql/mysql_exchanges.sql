--
-- mysql_exchanges: the remote exchanges (round trips: a request and the
-- wait for its answer) that short transactions cost through the mysql
-- transport, exactly, as multi_fdw_stats counts them.  A count that grows
-- is an exchange that came back.
--
-- What each costs, once the connection has prepared its statements (they
-- are kept per connection, so each case runs once before it is counted):
--   a transaction's begin                  nothing (autocommit is off: the
--                                          first statement opens it)
--   a query read through a cursor          its execute and one FETCH
--   a query the planner expects small      its execute (fetch_size < 0)
--   an UPDATE or DELETE sent whole         one
--   a prepared INSERT, UPDATE by key       its execute
--   COMMIT, ROLLBACK                       one, none when no transaction
--                                          was opened on the server
--   a savepoint                            SAVEPOINT, and RELEASE or
--                                          ROLLBACK TO plus RELEASE
--   two-phase commit                       XA START, XA END, XA COMMIT ONE
--                                          PHASE (XA PREPARE and XA COMMIT
--                                          when several servers wrote)
-- The scans here read through a cursor unless the core asks for a small
-- result.
--
CREATE SCHEMA my_xch;
SET search_path = my_xch, public;

\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD

CREATE SERVER my_xch FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_xch
  OPTIONS (user :'my_user', password :'my_password');

-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_xch', 'DROP TABLE IF EXISTS xch_acct, xch_hist');
RESET client_min_messages;
SELECT multi_fdw_exec('my_xch', $$
  CREATE TABLE xch_acct (id int PRIMARY KEY, bal bigint NOT NULL) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_xch', $$
  INSERT INTO xch_acct SELECT seq, 0 FROM seq_1_to_10$$);
SELECT multi_fdw_exec('my_xch', $$
  CREATE TABLE xch_hist (id int AUTO_INCREMENT PRIMARY KEY, acct int,
                         delta bigint) ENGINE=InnoDB$$);

CREATE FOREIGN TABLE acct (id int OPTIONS (key 'true'), bal bigint)
  SERVER my_xch OPTIONS (table_name 'xch_acct');
CREATE FOREIGN TABLE hist (acct int, delta bigint)
  SERVER my_xch OPTIONS (table_name 'xch_hist');
CREATE TABLE ids (id int);
INSERT INTO ids VALUES (1), (2), (3);
ANALYZE ids;

-- the lines of a plan that say what runs where, whatever the version of
-- PostgreSQL prints beside them
CREATE FUNCTION plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    IF l ~ '(Remote SQL|Foreign|Nested Loop|Seq Scan|SubPlan|Join Filter|One-Time)'
       AND l !~ 'Output:' THEN
      RETURN NEXT l;
    END IF;
  END LOOP;
END $$;

-- the counts of the server since the last reset
CREATE VIEW exchanges AS
  SELECT round_trips, statements FROM multi_fdw_stats WHERE server = 'my_xch';

--
-- the short transaction: a lookup, an UPDATE sent whole, an INSERT of one
-- row, COMMIT (the UPDATE and the INSERT one exchange each)
--
SELECT plan('UPDATE acct SET bal = bal + 1 WHERE id = 3');
BEGIN;
SELECT bal FROM acct WHERE id = 3;
UPDATE acct SET bal = bal + 1 WHERE id = 3;
INSERT INTO hist (acct, delta) VALUES (3, 1);
END;
BEGIN;
SELECT bal FROM acct WHERE id = 3;
UPDATE acct SET bal = bal + 1 WHERE id = 3;
INSERT INTO hist (acct, delta) VALUES (3, 1);
END;
SELECT multi_fdw_stats_reset();
BEGIN;
SELECT bal FROM acct WHERE id = 3;
UPDATE acct SET bal = bal + 1 WHERE id = 3;
INSERT INTO hist (acct, delta) VALUES (3, 1);
END;
SELECT * FROM exchanges;
-- and it committed
SELECT multi_fdw_exec('my_xch', $$
  SELECT 1 FROM xch_acct WHERE id = 3 AND bal = 3$$) AS committed;
SELECT count(*) FROM hist WHERE acct = 3;

--
-- an empty transaction costs nothing; nor does one that opened the remote
-- transaction and sent nothing (the scan is set up, a one-time filter keeps
-- it from running)
--
SELECT multi_fdw_stats_reset();
BEGIN;
COMMIT;
SELECT * FROM exchanges;
SELECT plan('SELECT * FROM acct WHERE now() IS NULL');
SELECT multi_fdw_stats_reset();
BEGIN;
SELECT * FROM acct WHERE now() IS NULL;
SELECT server_name, in_transaction FROM multi_fdw_get_connections()
 WHERE server_name = 'my_xch';
COMMIT;
SELECT * FROM exchanges;
SELECT multi_fdw_stats_reset();
BEGIN;
SELECT * FROM acct WHERE now() IS NULL;
ROLLBACK;
SELECT * FROM exchanges;

--
-- a read-only transaction of three point lookups: the COMMIT ends the
-- snapshot the lookups opened
--
BEGIN;
SELECT bal FROM acct WHERE id = 1;
SELECT bal FROM acct WHERE id = 2;
SELECT bal FROM acct WHERE id = 4;
COMMIT;
SELECT multi_fdw_stats_reset();
BEGIN;
SELECT bal FROM acct WHERE id = 1;
SELECT bal FROM acct WHERE id = 2;
SELECT bal FROM acct WHERE id = 4;
COMMIT;
SELECT * FROM exchanges;

-- the same with a generic plan: one remote statement, with a parameter,
-- prepared once for the three
SET plan_cache_mode = force_generic_plan;
PREPARE lookup(int) AS SELECT bal FROM acct WHERE id = $1;
SELECT plan('EXECUTE lookup(1)');
SELECT multi_fdw_stats_reset();
BEGIN;
EXECUTE lookup(5);
EXECUTE lookup(6);
EXECUTE lookup(7);
COMMIT;
SELECT * FROM exchanges;
SELECT multi_fdw_stats_reset();
BEGIN;
EXECUTE lookup(5);
EXECUTE lookup(6);
EXECUTE lookup(7);
COMMIT;
SELECT * FROM exchanges;
DEALLOCATE lookup;
RESET plan_cache_mode;

--
-- rescans: a subquery that runs once per outer row with a new parameter,
-- and the inner side of a nested loop, each on the statement prepared for
-- the first run (each run is one execute and one FETCH; COMMIT ends the
-- snapshot)
--
SELECT plan('SELECT i.id, (SELECT bal FROM acct a WHERE a.id = i.id) FROM ids i');
SELECT i.id, (SELECT bal FROM acct a WHERE a.id = i.id) FROM ids i ORDER BY i.id;
SELECT multi_fdw_stats_reset();
SELECT i.id, (SELECT bal FROM acct a WHERE a.id = i.id) FROM ids i ORDER BY i.id;
SELECT * FROM exchanges;
SELECT plan($$SELECT i.id, s.bal FROM ids i,
  LATERAL (SELECT bal FROM acct a WHERE a.id = i.id OFFSET 0) s$$);
SELECT i.id, s.bal FROM ids i,
  LATERAL (SELECT bal FROM acct a WHERE a.id = i.id OFFSET 0) s ORDER BY i.id;
SELECT multi_fdw_stats_reset();
SELECT i.id, s.bal FROM ids i,
  LATERAL (SELECT bal FROM acct a WHERE a.id = i.id OFFSET 0) s ORDER BY i.id;
SELECT * FROM exchanges;

--
-- a rollback: the UPDATE and the ROLLBACK, and nothing of it stays
--
BEGIN;
UPDATE acct SET bal = bal + 1 WHERE id = 8;
ROLLBACK;
SELECT multi_fdw_stats_reset();
BEGIN;
UPDATE acct SET bal = bal + 1 WHERE id = 8;
ROLLBACK;
SELECT * FROM exchanges;
SELECT bal FROM acct WHERE id = 8;

-- a statement that fails is followed by a ROLLBACK even when it was the
-- first (the server may have opened the transaction all the same); the
-- statement stays prepared
BEGIN;
INSERT INTO acct VALUES (1, 0);
ROLLBACK;
SELECT multi_fdw_stats_reset();
BEGIN;
INSERT INTO acct VALUES (1, 0);
ROLLBACK;
SELECT * FROM exchanges;

--
-- savepoints: SAVEPOINT when the subtransaction first uses the server,
-- ROLLBACK TO and RELEASE when it ends (after ROLLBACK TO the savepoint
-- is still there, in a new subtransaction: released here before the
-- server is used again)
--
BEGIN;
UPDATE acct SET bal = bal + 1 WHERE id = 9;
SAVEPOINT a;
UPDATE acct SET bal = bal + 100 WHERE id = 9;
ROLLBACK TO SAVEPOINT a;
RELEASE SAVEPOINT a;
SELECT bal FROM acct WHERE id = 9;
COMMIT;
SELECT multi_fdw_stats_reset();
BEGIN;
UPDATE acct SET bal = bal + 1 WHERE id = 9;
SAVEPOINT a;
UPDATE acct SET bal = bal + 100 WHERE id = 9;
ROLLBACK TO SAVEPOINT a;
RELEASE SAVEPOINT a;
SELECT bal FROM acct WHERE id = 9;
COMMIT;
SELECT * FROM exchanges;
SELECT bal FROM acct WHERE id = 9;
-- a savepoint released
SELECT multi_fdw_stats_reset();
BEGIN;
SAVEPOINT b;
UPDATE acct SET bal = bal + 1 WHERE id = 9;
RELEASE SAVEPOINT b;
COMMIT;
SELECT * FROM exchanges;
SELECT bal FROM acct WHERE id = 9;

--
-- two-phase commit: the XA statements are sent as they are (XA START
-- opens the transaction at once), and the transaction ends on the server
--
CREATE SERVER my_xch2 FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db', two_phase_commit 'on');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_xch2
  OPTIONS (user :'my_user', password :'my_password');
CREATE SERVER my_xch3 FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db', two_phase_commit 'on');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_xch3
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE acct2 (id int OPTIONS (key 'true'), bal bigint)
  SERVER my_xch2 OPTIONS (table_name 'xch_acct');
CREATE FOREIGN TABLE hist3 (acct int, delta bigint)
  SERVER my_xch3 OPTIONS (table_name 'xch_hist');
CREATE VIEW exchanges_2pc AS
  SELECT server, round_trips, statements FROM multi_fdw_stats
   WHERE server IN ('my_xch2', 'my_xch3') ORDER BY server;
-- one server written: committed in one phase
BEGIN;
UPDATE acct2 SET bal = bal + 1 WHERE id = 10;
COMMIT;
SELECT multi_fdw_stats_reset();
BEGIN;
UPDATE acct2 SET bal = bal + 1 WHERE id = 10;
COMMIT;
SELECT * FROM exchanges_2pc;
-- two servers written: prepared, then committed
BEGIN;
UPDATE acct2 SET bal = bal + 1 WHERE id = 10;
INSERT INTO hist3 VALUES (10, 1);
COMMIT;
SELECT multi_fdw_stats_reset();
BEGIN;
UPDATE acct2 SET bal = bal + 1 WHERE id = 10;
INSERT INTO hist3 VALUES (10, 1);
COMMIT;
SELECT * FROM exchanges_2pc;
SELECT bal FROM acct WHERE id = 10;
SELECT count(*) FROM hist WHERE acct = 10;
-- and rolled back
BEGIN;
UPDATE acct2 SET bal = bal + 1 WHERE id = 10;
INSERT INTO hist3 VALUES (10, 1);
ROLLBACK;
SELECT bal FROM acct WHERE id = 10;
SELECT count(*) FROM hist WHERE acct = 10;
-- nothing is left prepared on the server
SELECT multi_fdw_exec('my_xch', 'XA RECOVER') AS prepared_left;

--
-- lookups whose values are literals (the simple protocol's): one exchange
-- each by the text protocol, where the values print exactly; a FLOAT does
-- not, so such a lookup is read out, dropped and prepared (three
-- exchanges), and after eight of those in a row only one in eight tries
-- the text protocol again
--
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_xch', 'DROP TABLE IF EXISTS xch_f');
RESET client_min_messages;
SELECT multi_fdw_exec('my_xch',
  'CREATE TABLE xch_f (id int PRIMARY KEY, f float, n decimal(10,3), t varchar(10))');
SELECT multi_fdw_exec('my_xch',
  'INSERT INTO xch_f SELECT seq, seq / 3, seq / 7, concat(''t'', seq) FROM seq_1_to_40');
CREATE FOREIGN TABLE xf (id int, f real, n numeric, t text)
  SERVER my_xch OPTIONS (table_name 'xch_f');
SELECT n, t FROM xf WHERE id = 1;
SELECT multi_fdw_stats_reset();
DO $$
DECLARE
  v text;
BEGIN
  FOR k IN 1..10 LOOP
    EXECUTE format('SELECT n || t FROM my_xch.xf WHERE id = %s', k) INTO v;
  END LOOP;
END $$;
SELECT * FROM exchanges;
SELECT multi_fdw_stats_reset();
DO $$
DECLARE
  v real;
BEGIN
  FOR k IN 1..24 LOOP
    EXECUTE format('SELECT f FROM my_xch.xf WHERE id = %s', k) INTO v;
  END LOOP;
END $$;
SELECT * FROM exchanges;
-- the values, by either way
SELECT id, f, n, t FROM xf WHERE id = 3;
SELECT id, n, t FROM xf WHERE id = 3;
SELECT multi_fdw_exec('my_xch', 'DROP TABLE xch_f');

DROP SCHEMA my_xch CASCADE;
DROP SERVER my_xch, my_xch2, my_xch3 CASCADE;
