--
-- mysql_update: UPDATE and DELETE on foreign tables of a MariaDB server.
-- MySQL rows have no ctid: they are found by the columns marked key 'true'
-- (IMPORT FOREIGN SCHEMA marks the primary key).  A statement is sent
-- whole when every condition and new value can be evaluated remotely, else
-- row by row, each row found by its key.
--
-- The command tag counts the rows found, as PostgreSQL does, also when an
-- UPDATE sets the values a row already had (MySQL itself would count only
-- the rows it changed).
--
CREATE SCHEMA my_upd;
SET search_path = my_upd, public;

-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS upd_items');
RESET client_min_messages;
-- touched counts the updates of a row: a remote trigger keeps it
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE upd_items (id int PRIMARY KEY, name varchar(40) NOT NULL,
                          qty int, price decimal(10,2), note text,
                          remote_label varchar(20),
                          touched int NOT NULL DEFAULT 0) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER upd_items_touch BEFORE UPDATE ON upd_items
    FOR EACH ROW SET NEW.touched = OLD.touched + 1$$);

CREATE FOREIGN TABLE items (
  id int OPTIONS (key 'true'), name text, qty int, price numeric(10,2),
  note text, label text OPTIONS (column_name 'remote_label'),
  touched int DEFAULT 0)
  SERVER my_real OPTIONS (table_name 'upd_items');

-- how many remote rows match a remote condition
CREATE FUNCTION remote_count(cond text) RETURNS bigint LANGUAGE sql AS $$
  SELECT multi_fdw_exec('my_real', format('SELECT 1 FROM upd_items WHERE %s', cond));
$$;

-- a local function: never shipped (and PL/pgSQL, so never inlined)
CREATE FUNCTION is_lucky(n int) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN n % 7 = 0; END $$;

-- the lines of a plan that say what is sent
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
UPDATE items SET qty = 0, note = NULL WHERE id <= 5;
-- int4 arithmetic, which MariaDB does in 64 bits, goes inside its range
-- guard (mysql_pushdown): the whole UPDATE is one statement, and an
-- overflow fails as ours does
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET qty = qty + 1 WHERE id <= 5;
UPDATE items SET qty = qty + 1 WHERE id <= 5;
SELECT id, qty FROM items WHERE id <= 5 ORDER BY id;
BEGIN;
UPDATE items SET qty = 2147483647 WHERE id = 1;
UPDATE items SET qty = qty + 1 WHERE id <= 5;
ROLLBACK;
SELECT id, qty FROM items WHERE id <= 5 ORDER BY id;
\echo updated :ROW_COUNT
SELECT id, qty, touched FROM items WHERE id <= 6 ORDER BY id;

-- several columns, constants and expressions of the row
UPDATE items SET qty = qty * 2, note = 'big', label = 'L'
 WHERE qty >= 150 AND note IS NOT NULL;
\echo updated :ROW_COUNT
SELECT remote_count($$remote_label = 'L' AND note = 'big'$$) AS remote_big;

-- rows set to the values they had still count, as in PostgreSQL
UPDATE items SET qty = qty WHERE id <= 3;
\echo updated :ROW_COUNT
SELECT id, touched FROM items WHERE id <= 3 ORDER BY id;

-- a value computed here once travels as a parameter
SELECT public.mf_explain($$EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET qty = (SELECT max(new_qty) FROM picks) WHERE id = 20$$);
UPDATE items SET qty = (SELECT max(new_qty) FROM picks) WHERE id = 20;
\echo updated :ROW_COUNT
SELECT id, qty FROM items WHERE id = 20;

-- nothing matches
UPDATE items SET qty = 0 WHERE id > 1000;
\echo updated :ROW_COUNT

--
-- row by row, by the key: a condition or a value only PostgreSQL can
-- compute (text comparisons are never shipped to MySQL: its collations
-- compare differently)
--
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET note = 'named' WHERE name = 'item 7';
UPDATE items SET note = 'named' WHERE name = 'item 7';
\echo updated :ROW_COUNT
SELECT id, name, note, touched FROM items WHERE id = 7;

EXPLAIN (VERBOSE, COSTS OFF)
UPDATE items SET qty = -qty WHERE is_lucky(id) AND id < 100;
UPDATE items SET qty = -qty WHERE is_lucky(id) AND id < 100;
\echo updated :ROW_COUNT
SELECT id, qty FROM items WHERE qty < 0 ORDER BY id;

-- the same values again, row by row: counted too
UPDATE items SET name = name WHERE is_lucky(id);
\echo updated :ROW_COUNT

UPDATE items SET note = 'was ' || qty WHERE id IN (9, 10);
\echo updated :ROW_COUNT
SELECT id, qty, note FROM items WHERE id IN (9, 10) ORDER BY id;

SELECT remote_plan($$
  UPDATE items i SET qty = p.new_qty, label = 'picked' FROM picks p WHERE i.id = p.id$$);
UPDATE items i SET qty = p.new_qty, label = 'picked' FROM picks p WHERE i.id = p.id;
\echo updated :ROW_COUNT
SELECT id, qty, label FROM items WHERE id IN (2, 4, 99) ORDER BY id;

-- the key itself
UPDATE items SET id = id + 100 WHERE id = 19;
\echo updated :ROW_COUNT
SELECT id, name FROM items WHERE id IN (19, 119) ORDER BY id;

-- RETURNING: MariaDB has none for UPDATE, the row is read back by its key
UPDATE items SET qty = 1 WHERE id = 1 RETURNING id;

--
-- DELETE
--
EXPLAIN (VERBOSE, COSTS OFF)
DELETE FROM items WHERE id >= 17;
DELETE FROM items WHERE id >= 17;
\echo deleted :ROW_COUNT
SELECT remote_count('id >= 17') AS left_over;

EXPLAIN (VERBOSE, COSTS OFF)
DELETE FROM items WHERE name = 'item 16';
DELETE FROM items WHERE name = 'item 16';
\echo deleted :ROW_COUNT

SELECT remote_plan('DELETE FROM items i USING picks p WHERE i.id = p.id');
DELETE FROM items i USING picks p WHERE i.id = p.id;
\echo deleted :ROW_COUNT
SELECT id, name, qty, note, label, touched FROM items ORDER BY id;

DELETE FROM items;
\echo deleted :ROW_COUNT
SELECT remote_count('true') AS remote_rows;

--
-- a key of two columns
--
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS upd_pairs');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE upd_pairs (a int, b varchar(10), v int,
                          PRIMARY KEY (a, b)) ENGINE=InnoDB$$);
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (upd_pairs) FROM SERVER my_real INTO my_upd;
SELECT attname, attfdwoptions FROM pg_attribute
 WHERE attrelid = 'upd_pairs'::regclass AND attnum > 0 ORDER BY attnum;
INSERT INTO upd_pairs SELECT g % 3, 'k' || (g / 3), g FROM generate_series(0, 11) g;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE upd_pairs SET v = v * 100 WHERE b = 'k1';
UPDATE upd_pairs SET v = v * 100 WHERE b = 'k1';
\echo updated :ROW_COUNT
DELETE FROM upd_pairs WHERE b = 'k2' AND is_lucky(v + 1);
\echo deleted :ROW_COUNT
SELECT * FROM upd_pairs ORDER BY b, a;

--
-- without a key column: a clear error, whichever way the statement would
-- have gone
--
CREATE FOREIGN TABLE nokey (id int, name text, qty int)
  SERVER my_real OPTIONS (table_name 'upd_items');
INSERT INTO nokey VALUES (1, 'one', 1), (2, 'two', 2);
UPDATE nokey SET qty = qty + 1 WHERE id = 1;
\echo updated :ROW_COUNT
DELETE FROM nokey WHERE id = 2;
\echo deleted :ROW_COUNT
UPDATE nokey SET qty = 0 WHERE name = 'one';
DELETE FROM nokey WHERE is_lucky(id + 6);
SELECT id, name, qty FROM nokey ORDER BY id;
