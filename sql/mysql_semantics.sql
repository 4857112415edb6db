--
-- mysql_semantics: on MariaDB, local check options, AFTER ROW triggers and
-- RETURNING see the row as the remote stored it (its triggers, defaults,
-- ON UPDATE clauses and AUTO_INCREMENT change it), as pg_semantics shows
-- for PostgreSQL.  MariaDB 10.5+ returns it with INSERT and DELETE ...
-- RETURNING; an UPDATE (and an INSERT that skips duplicates) reads it
-- again by the key columns in the same remote transaction.
--
CREATE SCHEMA my_sem;
SET search_path = my_sem, public;

SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS ms_rem, ms_auto');
-- the remote adds 10 to f1 of every row it stores, and stamps an update
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE ms_rem (id int PRIMARY KEY, f1 int, f2 varchar(40),
    changed datetime NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP)
  ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER ms_rem_bi BEFORE INSERT ON ms_rem FOR EACH ROW
  SET NEW.f1 = NEW.f1 + 10$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER ms_rem_bu BEFORE UPDATE ON ms_rem FOR EACH ROW
  SET NEW.f1 = NEW.f1 + 10$$);
-- keys the remote makes, and a default it fills in
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE ms_auto (id int AUTO_INCREMENT PRIMARY KEY, v int NOT NULL,
    note varchar(20) NOT NULL DEFAULT 'remote default') ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  CREATE TRIGGER ms_auto_bi BEFORE INSERT ON ms_auto FOR EACH ROW
  SET NEW.note = COALESCE(NEW.note, 'from trigger')$$);

CREATE FOREIGN TABLE rem (id int OPTIONS (key 'true'), f1 int, f2 text,
                          changed timestamp)
  SERVER my_real OPTIONS (table_name 'ms_rem');
CREATE FOREIGN TABLE auto (id int OPTIONS (key 'true'), v int, note text)
  SERVER my_real OPTIONS (table_name 'ms_auto');

-- ---------------------------------------------------------------------
-- WITH CHECK OPTION is checked against the row as stored
-- ---------------------------------------------------------------------
CREATE VIEW small_f1 AS SELECT * FROM rem WHERE f1 < 5 WITH CHECK OPTION;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO small_f1 VALUES (1, 0, 'x');
-- sent as 0, stored as 10: the view forbids it
INSERT INTO small_f1 VALUES (1, 0, 'x');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO small_f1 VALUES (1, 0, 'a'), (2, 1, 'b');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM rem;
-- the same through an UPDATE, which reads the row back by its key
INSERT INTO rem VALUES (3, -20, 'low');
SELECT id, f1, f2 FROM rem;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE small_f1 SET f2 = 'u' WHERE f1 = -10 AND random() >= 0;
-- stored as 0: allowed
UPDATE small_f1 SET f2 = 'u' WHERE f1 = -10 AND random() >= 0;
SELECT id, f1, f2 FROM rem;
-- stored as 10: forbidden, and nothing changed (terse: the failing row
-- holds the remote's time of the update)
\set VERBOSITY terse
UPDATE small_f1 SET f2 = 'v' WHERE f1 = 0 AND random() >= 0;
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT id, f1, f2 FROM rem;

-- ---------------------------------------------------------------------
-- local AFTER ROW triggers see the stored row
-- ---------------------------------------------------------------------
CREATE FUNCTION show_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE '% %: id %, f1 %, f2 %, changed %', TG_WHEN, TG_OP,
    NEW.id, NEW.f1, NEW.f2, NEW.changed IS NOT NULL;
  RETURN NEW;
END $$;
CREATE TRIGGER show_new AFTER INSERT OR UPDATE ON rem
  FOR EACH ROW EXECUTE FUNCTION show_new();
INSERT INTO rem VALUES (4, 1, 'ins');
UPDATE rem SET f2 = 'upd' WHERE id = 4;
COPY rem (id, f1, f2) FROM STDIN;
5	3	copied
\.
-- auto sends them one by one, a bulk method named for the table is refused
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO rem SELECT g, g, 'bulk' FROM generate_series(6, 8) g;
ALTER FOREIGN TABLE rem OPTIONS (ADD insert_method 'values');
INSERT INTO rem SELECT g, g, 'bulk' FROM generate_series(6, 8) g;
COPY rem (id, f1, f2) FROM STDIN;
6	6	copied
\.
ALTER FOREIGN TABLE rem OPTIONS (SET insert_method 'array');
INSERT INTO rem SELECT g, g, 'bulk' FROM generate_series(6, 8) g;
ALTER FOREIGN TABLE rem OPTIONS (SET insert_method 'row');
INSERT INTO rem SELECT g, g, 'row' FROM generate_series(6, 7) g;
ALTER FOREIGN TABLE rem OPTIONS (DROP insert_method);
DROP TRIGGER show_new ON rem;
-- nothing needs the stored row: the rows go in bulk as before
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO rem SELECT g, g, 'bulk' FROM generate_series(8, 9) g;

-- ---------------------------------------------------------------------
-- RETURNING gives the stored values
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('my_real', 'DELETE FROM ms_rem');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO rem VALUES (10, 1, 'one') RETURNING *;
INSERT INTO rem VALUES (10, 1, 'one') RETURNING id, f1, f2, changed;
-- once connected the server's version decides: this one has RETURNING
SELECT public.mf_explain($$EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO rem VALUES (9, 1, 'nine') RETURNING id$$);
SELECT public.mf_explain($$EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
DELETE FROM rem WHERE id = 9 RETURNING id$$);
INSERT INTO rem VALUES (11, 2, 'two'), (12, 3, 'three') RETURNING id, f1, f2;
UPDATE rem SET f2 = 'two!' WHERE id = 11
  RETURNING id, f1, f2, changed IS NOT NULL AS stamped;
-- a new key value: the row is read back by it
UPDATE rem SET id = 13 WHERE id = 12 AND random() >= 0 RETURNING id, f1, f2;
EXPLAIN (VERBOSE, COSTS OFF)
DELETE FROM rem WHERE f2 = 'one' AND random() >= 0 RETURNING *;
DELETE FROM rem WHERE f2 = 'one' AND random() >= 0 RETURNING id, f1, f2;
DELETE FROM rem WHERE id = 11 RETURNING id, f1, f2;
SELECT id, f1, f2 FROM rem ORDER BY id;

-- rows routed into a foreign partition: the same
CREATE TABLE parted (id int, f1 int, f2 text, changed timestamp)
  PARTITION BY RANGE (id);
CREATE FOREIGN TABLE parted_rem PARTITION OF parted
  FOR VALUES FROM (100) TO (200) SERVER my_real
  OPTIONS (table_name 'ms_rem');
ALTER FOREIGN TABLE parted_rem ALTER COLUMN id OPTIONS (ADD key 'true');
INSERT INTO parted VALUES (100, 1, 'routed') RETURNING id, f1, f2;
CREATE VIEW parted_small AS SELECT * FROM parted WHERE f1 < 5
  WITH CHECK OPTION;
INSERT INTO parted_small VALUES (101, 0, 'routed');
\echo :LAST_ERROR_SQLSTATE
UPDATE parted SET f2 = 'moved' WHERE id = 100 RETURNING id, f1, f2;
SELECT id, f1, f2 FROM rem ORDER BY id;

-- the key AUTO_INCREMENT made, the default and the trigger's value
INSERT INTO auto (v) VALUES (1) RETURNING *;
INSERT INTO auto (v, note) VALUES (2, 'sent') RETURNING *;
INSERT INTO auto (v) SELECT g FROM generate_series(3, 4) g RETURNING id, v, note;
-- a duplicate skipped returns nothing, a row inserted is read back by key
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO auto VALUES (1, 9, 'dup') ON CONFLICT DO NOTHING RETURNING *;
INSERT INTO auto VALUES (1, 9, 'dup') ON CONFLICT DO NOTHING RETURNING *;
INSERT INTO auto (v) VALUES (5) ON CONFLICT DO NOTHING RETURNING *;
SELECT id, v, note FROM auto ORDER BY id;

-- without a key column, INSERT and DELETE still return the stored row
CREATE FOREIGN TABLE auto_nokey (id int, v int, note text)
  SERVER my_real OPTIONS (table_name 'ms_auto');
INSERT INTO auto_nokey (v) VALUES (6) RETURNING *;
-- RETURNING ctid: a MariaDB row has none
INSERT INTO auto (v) VALUES (7) RETURNING ctid;

-- ---------------------------------------------------------------------
-- values MariaDB cannot spell (a date before year 1, NaN, an infinity):
-- as constants they stay here, as parameters they are refused, never read
-- by the remote as other values ('4713-01-01 BC' as a year AD, 'NaN' as 0)
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS ms_vals');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE ms_vals (id int PRIMARY KEY, d date, f double) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO ms_vals VALUES (1, '0001-01-01', 0), (2, '2024-01-01', 1.5),
                             (3, '4713-06-01', -2)$$);
CREATE FOREIGN TABLE vals (id int OPTIONS (key 'true'), d date, f float8)
  SERVER my_real OPTIONS (table_name 'ms_vals');
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM vals WHERE d > '4713-01-01 BC' AND d < '4713-01-01';
SELECT id FROM vals WHERE d > '4713-01-01 BC' AND d < '4713-01-01' ORDER BY id;
SELECT id FROM vals WHERE f <> 'NaN' ORDER BY id;
SET plan_cache_mode = force_generic_plan;
PREPARE vals_d(date) AS SELECT id FROM vals WHERE d < $1 ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE vals_d('2000-01-01');
EXECUTE vals_d('2000-01-01');
EXECUTE vals_d('4713-12-31 BC');
\echo :LAST_ERROR_SQLSTATE
PREPARE vals_f(float8) AS SELECT id FROM vals WHERE f = $1 ORDER BY id;
EXECUTE vals_f(0);
EXECUTE vals_f('NaN');
EXECUTE vals_f('-Infinity');
RESET plan_cache_mode;
DEALLOCATE vals_d;
DEALLOCATE vals_f;
SELECT multi_fdw_exec('my_real', 'DROP TABLE ms_vals');

DROP SCHEMA my_sem CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE ms_rem, ms_auto');
