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

-- The old partition key goes with (tableoid, ctid), so that the remote
-- visits only the partition holding the row: its generic plan (which the
-- gateway asks for while such statements run) prunes the others.
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE rid_r.plan_check (plan text)$$);
SELECT multi_fdw_exec('pg_remote', $q$
  DO $do$
  DECLARE line text;
  BEGIN
    SET LOCAL plan_cache_mode = force_generic_plan;
    PREPARE upd(text, oid, tid, int) AS
      UPDATE rid_r.parted SET v = $1 WHERE tableoid = $2 AND ctid = $3 AND part = $4;
    FOR line IN EXECUTE $e$EXPLAIN (COSTS OFF) EXECUTE upd('x', 0, '(0,1)', 2)$e$ LOOP
      INSERT INTO rid_r.plan_check VALUES (line);
    END LOOP;
    DEALLOCATE upd;
  END $do$$q$);
CREATE FOREIGN TABLE plan_check (plan text) SERVER pg_remote OPTIONS (schema_name 'rid_r');
-- (18 lists only the partitions left among the Update targets: only the
-- scans are shown)
SELECT plan FROM plan_check WHERE plan !~ '^ *Update on';

-- a row moved to another partition by its key, and rows whose key is NULL
-- (found by tableoid and ctid alone), in a two-level tree: a list of
-- regions, one of them hashed again by id, the NULL region a list itself
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE rid_r.tree (id int, region text, v text) PARTITION BY LIST (region);
  CREATE TABLE rid_r.tree_eu PARTITION OF rid_r.tree FOR VALUES IN ('eu')
    PARTITION BY HASH (id);
  CREATE TABLE rid_r.tree_eu_0 PARTITION OF rid_r.tree_eu FOR VALUES WITH (MODULUS 2, REMAINDER 0);
  CREATE TABLE rid_r.tree_eu_1 PARTITION OF rid_r.tree_eu FOR VALUES WITH (MODULUS 2, REMAINDER 1);
  CREATE TABLE rid_r.tree_us PARTITION OF rid_r.tree FOR VALUES IN ('us');
  CREATE TABLE rid_r.tree_none PARTITION OF rid_r.tree FOR VALUES IN (NULL);
  INSERT INTO rid_r.tree VALUES (1, 'eu', 'a'), (2, 'eu', 'b'), (3, 'us', 'c'),
    (4, NULL, 'd'), (NULL, NULL, 'e');
  CREATE VIEW rid_r.tree_rows AS
    SELECT id, region, ctid::text AS ctid, tableoid::regclass::text AS rel, v FROM rid_r.tree$$);
CREATE FOREIGN TABLE tree (id int, area text OPTIONS (column_name 'region'), v text)
  SERVER pg_remote OPTIONS (schema_name 'rid_r');
CREATE FOREIGN TABLE tree_rows (id int, region text, ctid_text text OPTIONS (column_name 'ctid'),
  rel text, v text) SERVER pg_remote OPTIONS (schema_name 'rid_r');
SELECT * FROM tree_rows ORDER BY rel, id;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE tree SET v = v || '+' WHERE random() >= 0;
UPDATE tree SET v = v || '+' WHERE random() >= 0;
\echo updated :ROW_COUNT
UPDATE tree SET area = 'us' WHERE id = 2 AND random() >= 0;
\echo moved :ROW_COUNT
UPDATE tree SET v = 'null key' WHERE id = 4 AND random() >= 0;
\echo updated :ROW_COUNT
SELECT id, region, rel, v FROM tree_rows ORDER BY rel, id;
DELETE FROM tree WHERE v LIKE 'e%' AND random() >= 0;
\echo deleted :ROW_COUNT
DELETE FROM tree WHERE id = 1 AND random() >= 0;
\echo deleted :ROW_COUNT
SELECT id, region, rel, v FROM tree_rows ORDER BY rel, id;
-- the statements' setting does not outlive them
SELECT multi_fdw_exec('pg_remote', $$
  CREATE VIEW rid_r.setting AS SELECT current_setting('plan_cache_mode') AS mode$$);
CREATE FOREIGN TABLE setting (mode text) SERVER pg_remote OPTIONS (schema_name 'rid_r');
BEGIN;
UPDATE tree SET v = v WHERE random() >= 0;
SELECT mode FROM setting;
COMMIT;

-- a local partitioned table of foreign partitions, one of them over the
-- remote tree: each child its own identity.  loc_parted's key column is
-- text over the remote's integer: its value would not be the remote's
-- exactly, so that child goes by (tableoid, ctid) alone
CREATE TABLE loc (id int, area text, v text) PARTITION BY LIST (area);
CREATE FOREIGN TABLE loc_tree PARTITION OF loc FOR VALUES IN ('us')
  SERVER pg_remote OPTIONS (schema_name 'rid_r', table_name 'tree');
ALTER FOREIGN TABLE loc_tree ALTER COLUMN area OPTIONS (column_name 'region');
CREATE FOREIGN TABLE loc_parted (id int, v text, area text)
  SERVER pg_remote OPTIONS (schema_name 'rid_r', table_name 'parted');
ALTER FOREIGN TABLE loc_parted ALTER COLUMN area OPTIONS (column_name 'part');
ALTER TABLE loc ATTACH PARTITION loc_parted FOR VALUES IN ('1', '2');
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE loc SET v = v || '#' WHERE random() >= 0;
UPDATE loc SET v = v || '#' WHERE random() >= 0;
\echo updated :ROW_COUNT
SELECT id, region, rel, v FROM tree_rows ORDER BY rel, id;
SELECT id, rel, v FROM where_rows WHERE t = 'parted' ORDER BY id;
DROP TABLE loc;

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
