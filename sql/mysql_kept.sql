--
-- mysql_kept: the statements the mysql transport keeps prepared on its
-- connection (my_cache.c) stay usable after any remote error, and after
-- a change of the remote table's definition.
--
-- Each kind of kept statement runs once (prepared and kept), then fails
-- on the remote, then runs again.  A handle left out of step by the
-- failure would make its next execute wait for an answer that never
-- comes (an INSERT ... RETURNING after a duplicate key did, until the
-- connection was lost): the statement_timeout turns such a hang into an
-- error.
--
\set SHOW_CONTEXT errors
CREATE SCHEMA my_kept;
SET search_path = my_kept, public;
SET statement_timeout = '10s';

SELECT multi_fdw_exec('my_real', 'DROP VIEW IF EXISTS kept_v');
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS kept_s, kept_dup, kept_t, kept_d');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE kept_t (id int PRIMARY KEY, v varchar(5) NOT NULL,
                       n int CHECK (n >= 0)) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE kept_t (id int OPTIONS (key 'true'), v text, n int)
  SERVER my_real OPTIONS (table_name 'kept_t');

-- a local function: keeps an UPDATE or DELETE from going whole to the
-- remote, so that it runs by key (PL/pgSQL, never inlined)
CREATE FUNCTION local_true(n int) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN n IS NOT NULL; END $$;

-- INSERT ... RETURNING: after a duplicate key, a NOT NULL, a CHECK and a
-- too long value
INSERT INTO kept_t VALUES (1, 'a', 1) RETURNING *;
INSERT INTO kept_t VALUES (1, 'a', 1) RETURNING *;
INSERT INTO kept_t VALUES (2, 'b', 2) RETURNING *;
INSERT INTO kept_t VALUES (3, NULL, 3) RETURNING *;
INSERT INTO kept_t VALUES (3, 'c', 3) RETURNING *;
INSERT INTO kept_t VALUES (4, 'd', -4) RETURNING *;
INSERT INTO kept_t VALUES (4, 'd', 4) RETURNING *;
INSERT INTO kept_t VALUES (5, 'toolong', 5) RETURNING *;
INSERT INTO kept_t VALUES (5, 'e', 5) RETURNING *;

-- INSERT without RETURNING
INSERT INTO kept_t VALUES (6, 'f', 6);
INSERT INTO kept_t VALUES (6, 'f', 6);
INSERT INTO kept_t VALUES (7, 'g', 7);
INSERT INTO kept_t VALUES (8, 'toolong', 8);
INSERT INTO kept_t VALUES (8, 'h', 8);

-- several rows in one statement
INSERT INTO kept_t VALUES (9, 'i', 9), (1, 'dup', 1);
INSERT INTO kept_t VALUES (9, 'i', 9), (10, 'j', 10);

-- UPDATE by key, with and without RETURNING
UPDATE kept_t SET n = n + 1 WHERE id = 1 AND local_true(n) RETURNING *;
UPDATE kept_t SET n = -1 WHERE id = 1 AND local_true(n) RETURNING *;
UPDATE kept_t SET n = n + 1 WHERE id = 1 AND local_true(n) RETURNING *;
UPDATE kept_t SET v = 'toolong' WHERE id = 2 AND local_true(n);
UPDATE kept_t SET v = 'bb' WHERE id = 2 AND local_true(n);
UPDATE kept_t SET id = 3 WHERE id = 2 AND local_true(n);
UPDATE kept_t SET id = 11 WHERE id = 2 AND local_true(n);

-- DELETE by key, refused by a foreign key, then allowed
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE kept_dup (id int PRIMARY KEY,
                         FOREIGN KEY (id) REFERENCES kept_t (id)) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', 'INSERT INTO kept_dup VALUES (3)');
DELETE FROM kept_t WHERE id = 4 AND local_true(n) RETURNING *;
DELETE FROM kept_t WHERE id = 3 AND local_true(n) RETURNING *;
DELETE FROM kept_t WHERE id = 5 AND local_true(n) RETURNING *;
DELETE FROM kept_t WHERE id = 3 AND local_true(n);
DELETE FROM kept_t WHERE id = 6 AND local_true(n);

SELECT * FROM kept_t ORDER BY id;

-- scans of a remote view whose rows fail from the one where a subquery
-- returns two rows: each runs once, fails half way, then runs again
SELECT multi_fdw_exec('my_real', 'CREATE TABLE kept_s (k int)');
SELECT multi_fdw_exec('my_real', 'INSERT INTO kept_s VALUES (5)');
SELECT multi_fdw_exec('my_real', $$
  CREATE VIEW kept_v AS
    SELECT t.id, (SELECT s.k FROM kept_s s WHERE s.k <= t.id) AS k
      FROM kept_t t$$);
CREATE FOREIGN TABLE kept_v (id int, k int)
  SERVER my_real OPTIONS (table_name 'kept_v');
-- through a cursor, a few rows at a time
CREATE FOREIGN TABLE kept_vc (id int, k int)
  SERVER my_real OPTIONS (table_name 'kept_v', fetch_size '2');
-- the keys of a dependent join
CREATE TABLE kept_keys (id int);
INSERT INTO kept_keys VALUES (1), (3), (7), (8), (9), (10);
ANALYZE kept_keys;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF)
  SELECT kept_keys.id, kept_v.k FROM kept_keys JOIN kept_v USING (id);

SELECT * FROM kept_v ORDER BY id;
SELECT * FROM kept_vc ORDER BY id;
SELECT * FROM kept_v WHERE id >= (SELECT 2) ORDER BY id;
SELECT kept_keys.id, k FROM kept_keys JOIN kept_v USING (id) ORDER BY 1;
SELECT multi_fdw_exec('my_real', 'INSERT INTO kept_s VALUES (6)');
SELECT * FROM kept_v ORDER BY id;
SELECT * FROM kept_vc ORDER BY id;
SELECT * FROM kept_v WHERE id >= (SELECT 2) ORDER BY id;
SELECT kept_keys.id, k FROM kept_keys JOIN kept_v USING (id) ORDER BY 1;
SELECT multi_fdw_exec('my_real', 'DELETE FROM kept_s WHERE k = 6');
SELECT * FROM kept_v ORDER BY id;
SELECT * FROM kept_vc ORDER BY id;
SELECT * FROM kept_v WHERE id >= (SELECT 2) ORDER BY id;
SELECT kept_keys.id, k FROM kept_keys JOIN kept_v USING (id) ORDER BY 1;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;

-- a change of the remote table: MariaDB prepares a kept statement again
-- by itself (ER_NEED_REPREPARE, 1615, when it cannot: then the transport
-- prepares it afresh and runs it once more, my_cache.c); one that no
-- longer fits the table fails with an error that names the column and the
-- server, and is prepared afresh once the table fits again
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE kept_d (id int PRIMARY KEY, a int, b varchar(10)) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE kept_d (id int OPTIONS (key 'true'), a int, b text)
  SERVER my_real OPTIONS (table_name 'kept_d');
-- the same table for several rows in one statement, and for scans through
-- a cursor a few rows at a time
CREATE FOREIGN TABLE kept_db (id int OPTIONS (key 'true'), a int, b text)
  SERVER my_real OPTIONS (table_name 'kept_d', insert_method 'values');
CREATE FOREIGN TABLE kept_dc (id int OPTIONS (key 'true'), a int, b text)
  SERVER my_real OPTIONS (table_name 'kept_d', fetch_size '2');
-- every kind of kept statement, once each: in a transaction of its own
-- each (kept_all), or all in one transaction after a scan (kept_txn)
CREATE PROCEDURE kept_all(i int) LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  INSERT INTO kept_d VALUES (i, i, 'r' || i) RETURNING * INTO r;
  COMMIT;
  INSERT INTO kept_d VALUES (i + 100, i, 'n' || i);
  COMMIT;
  INSERT INTO kept_db VALUES (i + 200, i, 'b'), (i + 300, i, 'b');
  COMMIT;
  UPDATE kept_d SET a = a + 1 WHERE id = i AND local_true(a) RETURNING * INTO r;
  COMMIT;
  UPDATE kept_d SET a = a + 1 WHERE id = i + 100 AND local_true(a);
  COMMIT;
  DELETE FROM kept_d WHERE id = i + 200 AND local_true(a) RETURNING * INTO r;
  COMMIT;
  DELETE FROM kept_d WHERE id = i + 300 AND local_true(a);
  COMMIT;
  UPDATE kept_d SET b = b || 'd' WHERE id = i;
  COMMIT;
  PERFORM count(*) FROM (SELECT * FROM kept_d WHERE id = i OFFSET 0) s;
  COMMIT;
  PERFORM count(*) FROM (SELECT * FROM kept_dc WHERE id >= i OFFSET 0) s;
  COMMIT;
END $$;
CREATE FUNCTION kept_txn(i int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
  s text;
BEGIN
  SELECT count(*) INTO s FROM kept_dc;
  INSERT INTO kept_d VALUES (i, i, 'r' || i) RETURNING * INTO r;
  s := s || ' ' || r.a || r.b;
  INSERT INTO kept_d VALUES (i + 100, i, 'n' || i);
  INSERT INTO kept_db VALUES (i + 200, i, 'b'), (i + 300, i, 'b');
  UPDATE kept_d SET a = a + 1 WHERE id = i AND local_true(a) RETURNING * INTO r;
  s := s || ' ' || r.a || r.b;
  UPDATE kept_d SET a = a + 1 WHERE id = i + 100 AND local_true(a);
  DELETE FROM kept_d WHERE id = i + 200 AND local_true(a) RETURNING * INTO r;
  s := s || ' ' || r.a || r.b;
  DELETE FROM kept_d WHERE id = i + 300 AND local_true(a);
  UPDATE kept_d SET b = b || 'd' WHERE id = i;
  SELECT * INTO r FROM kept_d WHERE id = i;
  s := s || ' ' || r.a || r.b;
  SELECT count(*) INTO r FROM kept_dc WHERE id >= i;
  RETURN s || ' ' || r.count;
END $$;
CALL kept_all(1);
SELECT kept_txn(2);
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d ADD COLUMN c int');
CALL kept_all(3);
SELECT kept_txn(4);
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d MODIFY a bigint');
CALL kept_all(5);
SELECT kept_txn(6);
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d DROP COLUMN c');
CALL kept_all(7);
SELECT kept_txn(8);
-- the results' columns change type and width under the kept statements
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d MODIFY a varchar(30), MODIFY b text');
SELECT multi_fdw_exec('my_real', $$UPDATE kept_d SET b = CONCAT(b, REPEAT('w', 40))$$);
CALL kept_all(9);
SELECT kept_txn(10);
SELECT id, a, length(b) FROM kept_dc ORDER BY id;
SELECT multi_fdw_exec('my_real', $$UPDATE kept_d SET b = LEFT(b, 4)$$);
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d MODIFY a int, MODIFY b varchar(10)');
-- in a transaction that already did remote work, whose work stays (DDL
-- commits a MySQL transaction: multi_fdw_exec refuses it inside one)
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d ADD COLUMN c int FIRST');
BEGIN;
INSERT INTO kept_t VALUES (50, 'x', 5);
INSERT INTO kept_d VALUES (50, 5, 'r') RETURNING *;
UPDATE kept_d SET a = a + 1 WHERE id = 50 AND local_true(a) RETURNING *;
DELETE FROM kept_d WHERE id = 1 AND local_true(a) RETURNING *;
COMMIT;
SELECT count(*) FROM kept_t WHERE id = 50;
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d DROP COLUMN c');
-- a column a statement names, renamed or dropped: an error until the
-- table fits again
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d CHANGE b b2 varchar(10)');
CALL kept_all(11);
UPDATE kept_d SET a = a + 1 WHERE id = 50 AND local_true(a);
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d CHANGE b2 b varchar(10)');
CALL kept_all(12);
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d DROP COLUMN a');
SELECT kept_txn(13);
SELECT multi_fdw_exec('my_real', 'ALTER TABLE kept_d ADD COLUMN a int AFTER id');
SELECT multi_fdw_exec('my_real', 'UPDATE kept_d SET a = id');
CALL kept_all(14);
SELECT kept_txn(15);
SELECT * FROM kept_d ORDER BY id;

RESET statement_timeout;
DROP SCHEMA my_kept CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP VIEW kept_v');
SELECT multi_fdw_exec('my_real', 'DROP TABLE kept_s, kept_dup, kept_t, kept_d');
