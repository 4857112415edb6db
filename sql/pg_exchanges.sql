--
-- pg_exchanges: what a short transaction costs in exchanges with a remote
-- PostgreSQL (round_trips of multi_fdw_stats: each wait for an answer).
-- A direct client needs one per statement plus its BEGIN and COMMIT; the
-- gateway sends its begin with the first statement, a cursor's CLOSE with
-- the next one, and prepares a statement once per connection, so that it
-- needs one per statement plus the COMMIT.  Any exchange that comes back
-- changes a count here.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
CREATE SCHEMA xch;
SET search_path = xch, public;

\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

CREATE SERVER xch_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db', application_name 'mf_xch');
CREATE USER MAPPING FOR CURRENT_USER SERVER xch_pg
  OPTIONS (user :'pg_user', password :'pg_password');

SELECT multi_fdw_exec('xch_pg', 'DROP SCHEMA IF EXISTS xch_r CASCADE');
SELECT multi_fdw_exec('xch_pg', 'CREATE SCHEMA xch_r');
SELECT multi_fdw_exec('xch_pg',
  'CREATE TABLE xch_r.acct (id int PRIMARY KEY, bal bigint NOT NULL)');
SELECT multi_fdw_exec('xch_pg',
  'INSERT INTO xch_r.acct SELECT g, 0 FROM generate_series(1, 100) g');
SELECT multi_fdw_exec('xch_pg', 'CREATE TABLE xch_r.hist (acct int, delta int)');
-- the remote session's own prepared statements, seen through itself
SELECT multi_fdw_exec('xch_pg',
  'CREATE VIEW xch_r.prepared AS SELECT count(*) AS n FROM pg_prepared_statements');

IMPORT FOREIGN SCHEMA xch_r FROM SERVER xch_pg INTO xch;

-- the exchanges since the last call, which starts the count again
CREATE FUNCTION trips() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  SELECT round_trips INTO n FROM multi_fdw_stats WHERE server = 'xch_pg';
  PERFORM multi_fdw_stats_reset('xch_pg');
  RETURN coalesce(n, 0);
END $$;

-- the short transaction of a bank: a lookup, an update, an insert.  The
-- first run connects and prepares; the second is what every later one
-- costs: four exchanges (the begin travels with the SELECT, the cursor's
-- CLOSE with the UPDATE, the INSERT is a statement prepared already)
BEGIN;
SELECT bal FROM acct WHERE id = 1;
UPDATE acct SET bal = bal + 10 WHERE id = 1;
INSERT INTO hist (acct, delta) VALUES (1, 10);
COMMIT;
SELECT trips() > 0 AS connected;
BEGIN;
SELECT bal FROM acct WHERE id = 2;
UPDATE acct SET bal = bal + 20 WHERE id = 2;
INSERT INTO hist (acct, delta) VALUES (2, 20);
COMMIT;
SELECT trips() AS short_transaction;
SELECT id, bal FROM acct WHERE id <= 3 ORDER BY id;
SELECT * FROM hist ORDER BY acct;
SELECT trips() >= 0 AS reset;

-- three lookups: three exchanges and the COMMIT
BEGIN;
SELECT bal FROM acct WHERE id = 1;
SELECT bal FROM acct WHERE id = 2;
SELECT bal FROM acct WHERE id = 3;
COMMIT;
SELECT trips() AS three_lookups;

-- a statement on its own: with its begin, then its commit
INSERT INTO hist (acct, delta) VALUES (3, 30);
SELECT trips() AS one_insert;
UPDATE acct SET bal = bal - 1 WHERE id = 3;
SELECT trips() AS one_update;

-- a transaction that sends nothing costs nothing, committed or not
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM acct;
CLOSE c;
COMMIT;
SELECT trips() AS nothing_sent;
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM acct;
ROLLBACK;
SELECT trips() AS nothing_rolled_back;

-- a rollback after a lookup: the lookup (with the begin), the ROLLBACK
BEGIN;
SELECT bal FROM acct WHERE id = 1;
ROLLBACK;
SELECT trips() AS lookup_rollback;

-- a generic plan's UPDATE: its statement is prepared once per connection,
-- each execution is one exchange (and the commit one)
PREPARE upd(int, int) AS UPDATE acct SET bal = bal + $2 WHERE id = $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE upd(4, 1);
EXECUTE upd(4, 1);
SELECT trips() > 0 AS first_execute;
EXECUTE upd(4, 1);
EXECUTE upd(5, 1);
SELECT trips() AS two_generic_updates;
PREPARE look(int) AS SELECT bal FROM acct WHERE id = $1;
EXECUTE look(4);
SELECT trips() AS generic_lookup;
RESET plan_cache_mode;
DEALLOCATE upd;
DEALLOCATE look;

-- a rescan of a parameterised scan: one exchange each (the old cursor's
-- CLOSE goes with the next DECLARE)
CREATE TABLE keys (k int);
INSERT INTO keys VALUES (1), (2), (3), (4), (5);
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k, (SELECT bal FROM acct WHERE id = k) FROM keys;
SELECT trips() >= 0 AS reset;
BEGIN;
SELECT k, (SELECT bal FROM acct WHERE id = k) FROM keys ORDER BY k;
COMMIT;
SELECT trips() AS five_rescans;

-- savepoints: what waits for the next command never breaks a ROLLBACK TO
-- (a CLOSE is dropped in a failed transaction, where it would fail too).
-- SAVEPOINT and RELEASE go with the next command; the ROLLBACK TO, which
-- can fail, on its own: the lookups, the failed INSERT's prepare and
-- execution, the ROLLBACK TO and the COMMIT
BEGIN;
SELECT bal FROM acct WHERE id = 1;
SAVEPOINT a;
SELECT bal FROM acct WHERE id = 2;
INSERT INTO acct VALUES (1, 0);
ROLLBACK TO a;
SELECT bal FROM acct WHERE id = 3;
COMMIT;
SELECT trips() AS with_savepoint;

-- an error in the statement the begin travels with is that statement's;
-- the next transaction is a new one
CREATE FOREIGN TABLE missing (id int) SERVER xch_pg
  OPTIONS (schema_name 'xch_r', table_name 'no_such_table');
BEGIN;
SELECT * FROM missing;
COMMIT;
SELECT bal FROM acct WHERE id = 1;
SELECT trips() AS error_then_lookup;

-- the cache keeps 64 statements: more distinct ones push the oldest out,
-- their DEALLOCATE going with later commands
DO $$
BEGIN
  FOR i IN 1..80 LOOP
    EXECUTE format('INSERT INTO xch.hist (acct, delta) VALUES (%s, 0)', 100 + i);
  END LOOP;
END $$;
SELECT n <= 65 AS bounded FROM prepared;
SELECT count(*) FROM hist WHERE acct > 100;

-- a kept statement that returns rows, at its first use in a transaction
-- after other remote work, runs under a savepoint of its own (pq_replan.c):
-- the SAVEPOINT and its RELEASE travel with it, no exchange more (three:
-- the SELECT with the begin, the INSERT, the COMMIT)
INSERT INTO hist (acct, delta) VALUES (9, 9) RETURNING delta;
SELECT trips() > 0 AS prepared;
BEGIN;
SELECT bal FROM acct WHERE id = 9;
INSERT INTO hist (acct, delta) VALUES (9, 9) RETURNING delta;
COMMIT;
SELECT trips();
-- a generic plan of an UPDATE by ctid asks at each execution, once per
-- remote transaction, whether the remote relation is still a table
-- (rowid.c): one exchange more than the UPDATE's own
SET plan_cache_mode = force_generic_plan;
PREPARE hist_upd(int) AS UPDATE hist SET delta = delta + 1 WHERE acct = $1 AND random() >= 0;
EXECUTE hist_upd(9);
SELECT trips() > 0 AS planned;
EXECUTE hist_upd(9);
SELECT trips();
DEALLOCATE hist_upd;
RESET plan_cache_mode;

-- a grouped query shipped whole is read off the wire without a cursor,
-- however many groups are expected: the remote never runs a cursor's
-- query in parallel, and an aggregate is what its workers speed up
-- (TPC-H's Q13).  The remote's pg_cursors, read inside the query, says
-- whether the query runs under a DECLARE (a plain query's portal is not
-- listed).  4,950 groups expected and read: no cursor.  A join without
-- grouping, on libpq, keeps its cursor by its estimate.
SELECT multi_fdw_exec('xch_pg', $$CREATE VIEW xch_r.cur AS
  SELECT g, (SELECT count(*) FROM pg_catalog.pg_cursors)::int AS n
  FROM pg_catalog.generate_series(1, 100) g$$);
CREATE FOREIGN TABLE cur (g int, n int) SERVER xch_pg
  OPTIONS (schema_name 'xch_r', table_name 'cur');
SELECT max(n) AS cursors, count(*) FROM (SELECT a.id, c.g, max(c.n) AS n
  FROM acct a JOIN cur c ON c.g < a.id GROUP BY a.id, c.g OFFSET 0) s;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT a.id, c.g, max(c.n) AS n FROM acct a JOIN cur c ON c.g < a.id
  GROUP BY a.id, c.g;
SELECT max(n) AS cursors, count(*) FROM (SELECT c.n FROM acct a JOIN cur c
  ON c.g < a.id OFFSET 0) s;
SELECT trips() >= 0 AS reset;

-- a remote that restarted while the connection was idle: the next
-- transaction reconnects (the socket says so) rather than failing its
-- first statement
SELECT multi_fdw_exec('pg_remote',
  $$SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE application_name = 'mf_xch'$$) >= 0
  AS terminated;
SELECT pg_sleep(0.2);
SELECT trips() >= 0 AS reset;
SELECT bal FROM acct WHERE id = 1;
SELECT reconnects, errors FROM multi_fdw_stats WHERE server = 'xch_pg';

DROP SCHEMA xch CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA xch_r CASCADE');
DROP USER MAPPING FOR CURRENT_USER SERVER xch_pg;
DROP SERVER xch_pg;
