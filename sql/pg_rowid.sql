--
-- pg_rowid: how a row-by-row UPDATE or DELETE finds its row again on a
-- remote PostgreSQL.  ctid is unique only within one table, so rows are
-- found by (tableoid, ctid): under a partitioned table or an inheritance
-- parent, the children's first rows all have ctid (0,1).  A remote view has
-- no ctid: its rows are found by the columns marked key 'true', and
-- without them the statement is refused while planning.
--
CREATE SCHEMA rid;
SET search_path = rid, public;

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS rid_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA rid_r');
-- three partitions with one row each: three rows at (0,1)
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE rid_r.parted (id int, part int, v text) PARTITION BY LIST (part);
  CREATE TABLE rid_r.parted_1 PARTITION OF rid_r.parted FOR VALUES IN (1);
  CREATE TABLE rid_r.parted_2 PARTITION OF rid_r.parted FOR VALUES IN (2);
  CREATE TABLE rid_r.parted_3 PARTITION OF rid_r.parted FOR VALUES IN (3);
  INSERT INTO rid_r.parted VALUES (1, 1, 'one'), (2, 2, 'two'), (3, 3, 'three');
  CREATE TABLE rid_r.parent (id int, v text);
  CREATE TABLE rid_r.child () INHERITS (rid_r.parent);
  INSERT INTO rid_r.parent VALUES (1, 'parent');
  INSERT INTO rid_r.child VALUES (2, 'child');
  CREATE TABLE rid_r.base (id int PRIMARY KEY, v text);
  INSERT INTO rid_r.base VALUES (1, 'a'), (2, 'b');
  CREATE VIEW rid_r.vw AS SELECT id, v FROM rid_r.base$$);
-- where the rows are, as the remote sees them
SELECT multi_fdw_exec('pg_remote', $$
  CREATE VIEW rid_r.where_rows AS
    SELECT 'parted' AS t, id, ctid::text AS ctid, tableoid::regclass::text AS rel, v FROM rid_r.parted
    UNION ALL
    SELECT 'parent', id, ctid::text, tableoid::regclass::text, v FROM rid_r.parent$$);
CREATE FOREIGN TABLE where_rows (t text, id int, ctid_text text OPTIONS (column_name 'ctid'),
  rel text, v text) SERVER pg_remote OPTIONS (schema_name 'rid_r');
SELECT * FROM where_rows ORDER BY t, id;

CREATE FOREIGN TABLE parted (id int, part int, v text)
  SERVER pg_remote OPTIONS (schema_name 'rid_r');
CREATE FOREIGN TABLE parent (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'rid_r');

-- a local volatile condition: the statement cannot be sent whole
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE parted SET v = 'changed' WHERE id = 2 AND random() >= 0;
UPDATE parted SET v = 'changed' WHERE id = 2 AND random() >= 0;
\echo updated :ROW_COUNT
SELECT id, rel, v FROM where_rows WHERE t = 'parted' ORDER BY id;
DELETE FROM parted WHERE id = 3 AND random() >= 0;
\echo deleted :ROW_COUNT
SELECT id, rel, v FROM where_rows WHERE t = 'parted' ORDER BY id;
-- pipelined: several rows, each by its own (tableoid, ctid)
UPDATE parted SET v = v || '!' WHERE random() >= 0;
\echo updated :ROW_COUNT
SELECT id, rel, v FROM where_rows WHERE t = 'parted' ORDER BY id;

-- an inheritance parent and its child, both rows at (0,1)
UPDATE parent SET v = 'changed' WHERE id = 1 AND random() >= 0;
\echo updated :ROW_COUNT
DELETE FROM parent WHERE id = 2 AND random() >= 0;
\echo deleted :ROW_COUNT
SELECT id, rel, v FROM where_rows WHERE t = 'parent' ORDER BY id;

-- a remote view without key columns: refused while planning, naming the
-- table and the option
CREATE FOREIGN TABLE vw (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'rid_r');
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE vw SET v = 'x' WHERE random() >= 0;
\echo :LAST_ERROR_SQLSTATE
DELETE FROM vw WHERE random() >= 0;
-- sent whole, it needs no row identity
UPDATE vw SET v = 'whole' WHERE id = 1;
\echo updated :ROW_COUNT
-- with a key column, row by row works, and finds the row by the key
ALTER FOREIGN TABLE vw ALTER COLUMN id OPTIONS (ADD key 'true');
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE vw SET v = 'by key' WHERE id = 2 AND random() >= 0;
UPDATE vw SET v = 'by key' WHERE id = 2 AND random() >= 0;
\echo updated :ROW_COUNT
DELETE FROM vw WHERE id = 1 AND random() >= 0;
\echo deleted :ROW_COUNT
SELECT * FROM vw ORDER BY id;

-- a remote relation that does not exist: the statement's own error
CREATE FOREIGN TABLE missing (id int) SERVER pg_remote OPTIONS (schema_name 'rid_r');
\set VERBOSITY terse
DELETE FROM missing WHERE random() >= 0;
\set VERBOSITY default

DROP SCHEMA rid CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA rid_r CASCADE');
