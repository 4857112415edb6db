--
-- pg_update: UPDATE and DELETE on foreign tables of a PostgreSQL server,
-- sent whole when every condition and new value can be evaluated remotely
-- (Foreign Update / Foreign Delete), else row by row through the ctid of
-- each row the scan found.
--
CREATE SCHEMA upd;
SET search_path = upd, public;

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS upd_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA upd_r');
-- touched counts the updates of a row: a remote trigger keeps it
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE upd_r.items (id int PRIMARY KEY, name text NOT NULL, qty int,
                            price numeric(10,2), note text, remote_label text,
                            touched int NOT NULL DEFAULT 0)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE FUNCTION upd_r.touch() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    NEW.touched := OLD.touched + 1;
    RETURN NEW;
  END $f$ $$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TRIGGER touch BEFORE UPDATE ON upd_r.items
    FOR EACH ROW EXECUTE FUNCTION upd_r.touch()$$);

CREATE FOREIGN TABLE items (
  id int, name text, qty int, price numeric(10,2), note text,
  label text OPTIONS (column_name 'remote_label'), touched int DEFAULT 0)
  SERVER pg_remote OPTIONS (schema_name 'upd_r');

-- the rows as the remote has them, and how many match a remote condition
CREATE FUNCTION remote_count(cond text) RETURNS bigint LANGUAGE sql AS $$
  SELECT multi_fdw_exec('pg_remote', format('SELECT FROM upd_r.items WHERE %s', cond));
$$;

-- a local function: never shipped (and PL/pgSQL, so never inlined)
CREATE FUNCTION is_lucky(n int) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN n % 7 = 0; END $$;

-- the lines of a plan that say what is sent (join plans vary otherwise)
CREATE FUNCTION remote_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    IF line ~ '^\s*(->  )?(Update|Delete|Foreign|Remote SQL)' THEN
      RETURN NEXT regexp_replace(line, '^\s*(->  )?', '');
    END IF;
  END LOOP;
END $$;

CREATE TABLE picks (id int, new_qty int);
INSERT INTO picks VALUES (2, 200), (4, 400), (99, 9900);

INSERT INTO items (id, name, qty, price, note)
  SELECT g, 'item ' || g, g * 10, g * 1.25, 'n' || g FROM generate_series(1, 20) g;
SELECT count(*), sum(qty), sum(price) FROM items;

--
-- sent whole
--
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET qty = qty + 1 WHERE id <= 5;
UPDATE items SET qty = qty + 1 WHERE id <= 5;
\echo updated :ROW_COUNT
SELECT id, qty, touched FROM items WHERE id <= 6 ORDER BY id;

-- several columns at once, constants and expressions of the row
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET name = name || ' (big)', qty = qty * 2, note = 'big'
 WHERE qty >= 150 AND note IS NOT NULL;
UPDATE items SET name = name || ' (big)', qty = qty * 2, note = 'big'
 WHERE qty >= 150 AND note IS NOT NULL;
\echo updated :ROW_COUNT
SELECT id, name, qty, note FROM items WHERE id >= 14 ORDER BY id;

-- a column whose remote name differs (column_name)
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET label = 'even' WHERE id % 2 = 0 AND label IS NULL;
UPDATE items SET label = 'even' WHERE id % 2 = 0 AND label IS NULL;
\echo updated :ROW_COUNT
SELECT remote_count($$remote_label = 'even'$$) AS remote_labels;
SELECT id, label FROM items WHERE label = 'even' AND id < 5 OR id = 5 ORDER BY id;

-- setting NULL
UPDATE items SET note = NULL, label = NULL WHERE id IN (3, 4);
\echo updated :ROW_COUNT
SELECT remote_count('id IN (3, 4) AND note IS NULL AND remote_label IS NULL') AS nulled;
SELECT id, note, label FROM items WHERE id IN (3, 4) ORDER BY id;

-- a value computed here once (a sub-select) travels as a parameter
SELECT public.mf_explain($$EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET qty = (SELECT max(new_qty) FROM picks) WHERE id = 20$$);
UPDATE items SET qty = (SELECT max(new_qty) FROM picks) WHERE id = 20;
\echo updated :ROW_COUNT
SELECT id, qty FROM items WHERE id = 20;

-- nothing matches
UPDATE items SET qty = 0 WHERE id > 1000;
\echo updated :ROW_COUNT
-- the key itself
UPDATE items SET id = id + 100 WHERE id = 19;
\echo updated :ROW_COUNT
SELECT id, name FROM items WHERE id IN (19, 119);

--
-- row by row: a condition checked here, a new value computed here, or a
-- join with a local table
--
-- text || integer is only stable (it calls the integer's output function)
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET note = 'was ' || qty WHERE id IN (9, 10);
UPDATE items SET note = 'was ' || qty WHERE id IN (9, 10);
\echo updated :ROW_COUNT
SELECT id, qty, note FROM items WHERE id IN (9, 10) ORDER BY id;
-- so is the rounding of a value to the column's numeric(10,2)
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET price = price * 2.5 WHERE id >= 15;
UPDATE items SET price = price * 2.5 WHERE id >= 15;
\echo updated :ROW_COUNT
SELECT id, price FROM items WHERE id >= 14 ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET note = 'md5 match' WHERE md5(name) = md5('item 7');
UPDATE items SET note = 'md5 match' WHERE md5(name) = md5('item 7');
\echo updated :ROW_COUNT
SELECT id, name, note, touched FROM items WHERE id = 7;

-- a local function beside a remote condition: only the local part stays here
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET qty = -qty WHERE is_lucky(id) AND id < 100;
UPDATE items SET qty = -qty WHERE is_lucky(id) AND id < 100;
\echo updated :ROW_COUNT
SELECT id, qty FROM items WHERE qty < 0 ORDER BY id;

SELECT remote_plan($$
  UPDATE items i SET qty = p.new_qty, label = 'picked' FROM picks p WHERE i.id = p.id$$);
UPDATE items i SET qty = p.new_qty, label = 'picked' FROM picks p WHERE i.id = p.id;
\echo updated :ROW_COUNT
SELECT id, qty, label FROM items WHERE id IN (2, 4, 99) ORDER BY id;
SELECT remote_count($$remote_label = 'picked'$$) AS picked;

--
-- RETURNING, for a remote-only condition and for a local one: the rows
-- come back as the remote stored them (touched is set by its trigger)
--
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET qty = qty + 1000 WHERE id IN (1, 2) RETURNING id, qty, touched;
WITH u AS (
  UPDATE items SET qty = qty + 1000 WHERE id IN (1, 2) RETURNING id, qty, touched)
SELECT * FROM u ORDER BY id;
UPDATE items SET note = 'ret' WHERE md5(name) = md5('item 1') RETURNING *;
WITH u AS (
  UPDATE items i SET note = 'joined' FROM picks p WHERE i.id = p.id
    RETURNING i.id, i.note, i.label, p.new_qty)
SELECT * FROM u ORDER BY id;
-- the whole row and an expression
UPDATE items SET price = 0.5 WHERE id = 5 RETURNING items, price * 4 AS four;

--
-- DELETE
--
EXPLAIN (VERBOSE, COSTS OFF)
DELETE FROM items WHERE id >= 17;
DELETE FROM items WHERE id >= 17;
\echo deleted :ROW_COUNT
SELECT remote_count('id >= 17') AS left_over;

EXPLAIN (VERBOSE, COSTS OFF)
DELETE FROM items WHERE md5(name) = md5('item 16 (big)');
DELETE FROM items WHERE md5(name) = md5('item 16 (big)');
\echo deleted :ROW_COUNT

SELECT remote_plan('DELETE FROM items i USING picks p WHERE i.id = p.id');
DELETE FROM items i USING picks p WHERE i.id = p.id;
\echo deleted :ROW_COUNT

-- RETURNING on both paths
WITH d AS (DELETE FROM items WHERE id IN (14, 15) RETURNING id, name, touched)
SELECT * FROM d ORDER BY id;
DELETE FROM items WHERE is_lucky(id) RETURNING *;
SELECT id, name, qty, note, label, touched FROM items ORDER BY id;

-- all the rows
DELETE FROM items;
\echo deleted :ROW_COUNT
SELECT count(*) FROM items;
SELECT remote_count('true') AS remote_rows;
DELETE FROM items;
\echo deleted :ROW_COUNT

--
-- a partitioned table with a foreign partition and a local one
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE upd_r.part_a (id int, k text, v int)$$);
CREATE TABLE parted (id int, k text, v int) PARTITION BY LIST (k);
CREATE FOREIGN TABLE parted_a PARTITION OF parted FOR VALUES IN ('a')
  SERVER pg_remote OPTIONS (schema_name 'upd_r', table_name 'part_a');
CREATE TABLE parted_b PARTITION OF parted FOR VALUES IN ('b');
INSERT INTO parted SELECT g, CASE WHEN g <= 5 THEN 'a' ELSE 'b' END, g
  FROM generate_series(1, 10) g;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE parted SET v = v * 10;
UPDATE parted SET v = v * 10;
\echo updated :ROW_COUNT
SELECT tableoid::regclass, * FROM parted ORDER BY id;
-- a row moved from the local partition into the foreign one
UPDATE parted SET k = 'a' WHERE id = 6 AND k = 'b';
\echo updated :ROW_COUNT
SELECT tableoid::regclass, * FROM parted WHERE id = 6;
SELECT multi_fdw_exec('pg_remote', 'SELECT FROM upd_r.part_a WHERE id = 6') AS remote_rows;
-- the same while the foreign partition is itself a target of the UPDATE
UPDATE parted SET k = 'a', v = v + 1 WHERE id = 7;
\echo updated :ROW_COUNT
SELECT tableoid::regclass, * FROM parted WHERE id IN (6, 7) ORDER BY id;
-- RETURNING through the partitioned table
WITH u AS (UPDATE parted SET v = v + 1 WHERE id IN (2, 8)
             RETURNING tableoid::regclass AS part, *)
SELECT * FROM u ORDER BY id;
DELETE FROM parted WHERE v > 30;
\echo deleted :ROW_COUNT
SELECT tableoid::regclass, * FROM parted ORDER BY id;

--
-- updatable 'false', on the server and on the table
--
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD
CREATE SERVER upd_readonly FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db', updatable 'false');
CREATE USER MAPPING FOR CURRENT_USER SERVER upd_readonly
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO upd_r.items (id, name) VALUES (1, 'one'), (2, 'two')$$);
CREATE FOREIGN TABLE ro_items (id int, name text)
  SERVER upd_readonly OPTIONS (schema_name 'upd_r', table_name 'items');
SELECT * FROM ro_items ORDER BY id;
UPDATE ro_items SET name = 'x';
DELETE FROM ro_items;
INSERT INTO ro_items VALUES (3, 'three');
-- the table may say otherwise
ALTER FOREIGN TABLE ro_items OPTIONS (ADD updatable 'true');
UPDATE ro_items SET name = 'uno' WHERE id = 1;
\echo updated :ROW_COUNT
-- and the table alone
ALTER FOREIGN TABLE items OPTIONS (ADD updatable 'false');
UPDATE items SET name = 'x';
UPDATE items SET name = 'x' WHERE md5(name) = '';
DELETE FROM items WHERE id = 1;
INSERT INTO items (id, name) VALUES (3, 'three');
COPY items (id, name) FROM STDIN;
4	four
\.
-- nothing changed
SELECT id, name FROM items ORDER BY id;
ALTER FOREIGN TABLE items OPTIONS (SET updatable 'true');
DELETE FROM items WHERE id = 2;
\echo deleted :ROW_COUNT
-- an invalid value
ALTER FOREIGN TABLE items OPTIONS (SET updatable 'maybe');

-- clean up
\set VERBOSITY terse
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA upd_r CASCADE');
DROP SCHEMA upd CASCADE;
DROP USER MAPPING FOR CURRENT_USER SERVER upd_readonly;
DROP SERVER upd_readonly;
