--
-- pg_semantics: the answers postgres_fdw gives, where applications rely on
-- them: local triggers and check options see the row as the remote stored
-- it, RETURNING ctid is the remote's, and the command tag counts the rows
-- that were changed, not the statements that were sent.
--
CREATE SCHEMA sem;
SET search_path = sem, public;

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS sem_r CASCADE');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE SCHEMA sem_r;
  CREATE TABLE sem_r.rem (f1 int, f2 text);
  -- the remote adds 10 to f1 of every row it stores
  CREATE FUNCTION sem_r.plus10() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN NEW.f1 := NEW.f1 + 10; RETURN NEW; END $f$;
  CREATE TRIGGER plus10 BEFORE INSERT OR UPDATE ON sem_r.rem
    FOR EACH ROW EXECUTE FUNCTION sem_r.plus10();
  -- a table whose remote trigger skips the update and delete of every third id
  CREATE TABLE sem_r.skip (id int PRIMARY KEY, v int);
  CREATE FUNCTION sem_r.skip3() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    IF OLD.id % 3 = 0 THEN RETURN NULL; END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END $f$;
  CREATE TRIGGER skip3 BEFORE UPDATE OR DELETE ON sem_r.skip
    FOR EACH ROW EXECUTE FUNCTION sem_r.skip3();
  INSERT INTO sem_r.skip SELECT g, 0 FROM generate_series(1, 30) g;
  CREATE TABLE sem_r.bar (f1 int PRIMARY KEY, f2 int);
  INSERT INTO sem_r.bar SELECT g, g FROM generate_series(1, 6) g$$);

CREATE FOREIGN TABLE rem (f1 int, f2 text)
  SERVER pg_remote OPTIONS (schema_name 'sem_r');
CREATE FOREIGN TABLE skip (id int, v int)
  SERVER pg_remote OPTIONS (schema_name 'sem_r');
CREATE FOREIGN TABLE bar (f1 int, f2 int)
  SERVER pg_remote OPTIONS (schema_name 'sem_r');

-- ---------------------------------------------------------------------
-- WITH CHECK OPTION is checked against the row as stored
-- ---------------------------------------------------------------------
CREATE VIEW small_f1 AS SELECT * FROM rem WHERE f1 < 5 WITH CHECK OPTION;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO small_f1 VALUES (0, 'x');
-- sent as 0, stored as 10: the view forbids it
INSERT INTO small_f1 VALUES (0, 'x');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO small_f1 VALUES (0, 'a'), (1, 'b');
SELECT count(*) FROM rem;
-- the same through an UPDATE
INSERT INTO rem VALUES (-20, 'low');
SELECT * FROM rem;
UPDATE small_f1 SET f2 = 'u' WHERE f1 = -10 AND random() >= 0;
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM rem;

-- ---------------------------------------------------------------------
-- local triggers: BEFORE ROW changes reach the remote, AFTER ROW triggers
-- see the stored row
-- ---------------------------------------------------------------------
CREATE FUNCTION note_f2() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN NEW.f2 := NEW.f2 || ' (trigger)'; RETURN NEW; END $$;
CREATE TRIGGER note_f2 BEFORE UPDATE ON rem FOR EACH ROW EXECUTE FUNCTION note_f2();
EXPLAIN (VERBOSE, COSTS OFF) UPDATE rem SET f1 = 5;
UPDATE rem SET f1 = 5;
SELECT * FROM rem;
DROP TRIGGER note_f2 ON rem;

CREATE FUNCTION show_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE NOTICE '% %: %', TG_WHEN, TG_OP, NEW; RETURN NEW; END $$;
CREATE TRIGGER show_new AFTER INSERT OR UPDATE ON rem
  FOR EACH ROW EXECUTE FUNCTION show_new();
INSERT INTO rem VALUES (1, 'ins');
UPDATE rem SET f1 = 2 WHERE f2 = 'ins';
COPY rem FROM STDIN;
3	copied
\.
DROP TRIGGER show_new ON rem;

-- ---------------------------------------------------------------------
-- RETURNING ctid is the remote row's
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('pg_remote', 'TRUNCATE sem_r.rem');
INSERT INTO rem VALUES (1, 'one') RETURNING ctid, f1, f2;
INSERT INTO rem VALUES (2, 'two') RETURNING ctid;
UPDATE rem SET f2 = 'two!' WHERE f2 = 'two' AND random() >= 0 RETURNING ctid, f2;
DELETE FROM rem WHERE f2 = 'one' AND random() >= 0 RETURNING ctid, f1;

-- ---------------------------------------------------------------------
-- the command tag: rows changed, not statements sent
-- ---------------------------------------------------------------------
-- pipelined row statements (a local volatile condition), a remote trigger
-- that skips every third row: 30 rows found, 20 changed
UPDATE skip SET v = v + 1 WHERE random() >= 0;
\echo updated :ROW_COUNT
SELECT multi_fdw_exec('pg_remote', 'SELECT 1 FROM sem_r.skip WHERE v = 1') AS changed_remotely;
DELETE FROM skip WHERE random() >= 0;
\echo deleted :ROW_COUNT
SELECT multi_fdw_exec('pg_remote', 'SELECT 1 FROM sem_r.skip') AS left_remotely;
-- INSERT into a table whose remote trigger skips every third row: auto
-- sends multi-row statements, whose counts are the remote's; the streamed
-- methods, named: copy, which would count the rows sent, is refused, and a
-- pipeline reads each batch's answers, whose counts are the remote's
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE sem_r.ins (id int, v text);
  CREATE FUNCTION sem_r.skip3_ins() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN IF NEW.id % 3 = 0 THEN RETURN NULL; END IF; RETURN NEW; END $f$;
  CREATE TRIGGER skip3_ins BEFORE INSERT ON sem_r.ins
    FOR EACH ROW EXECUTE FUNCTION sem_r.skip3_ins()$$);
CREATE FOREIGN TABLE ins (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'sem_r');
CREATE FUNCTION remote_ins() RETURNS bigint LANGUAGE sql
  AS $$ SELECT multi_fdw_exec('pg_remote', 'SELECT 1 FROM sem_r.ins') $$;
SELECT public.mf_explain($$EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO ins SELECT g, 'auto' FROM generate_series(1, 30) g$$);
SELECT remote_ins();
INSERT INTO ins SELECT g, 'auto' FROM generate_series(1, 30) g;
\echo inserted :ROW_COUNT
SELECT remote_ins();
COPY ins FROM STDIN;
1	copy
2	copy
3	copy
\.
\echo copied :ROW_COUNT
SELECT remote_ins();
ALTER FOREIGN TABLE ins OPTIONS (ADD insert_method 'copy');
INSERT INTO ins SELECT g, 'copy' FROM generate_series(1, 3) g;
ALTER FOREIGN TABLE ins OPTIONS (SET insert_method 'pipeline');
INSERT INTO ins SELECT g, 'pipeline' FROM generate_series(1, 3) g;
\echo inserted :ROW_COUNT
ALTER FOREIGN TABLE ins OPTIONS (SET insert_method 'values');
INSERT INTO ins SELECT g, 'values' FROM generate_series(1, 30) g;
\echo inserted :ROW_COUNT
ALTER FOREIGN TABLE ins OPTIONS (SET insert_method 'row');
INSERT INTO ins SELECT g, 'row' FROM generate_series(1, 30) g;
\echo inserted :ROW_COUNT
-- a table without such triggers still streams
SELECT public.mf_explain($$EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO bar SELECT g, g FROM generate_series(101, 130) g$$);

-- a row that the join finds twice is updated once and counted once
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE bar SET f2 = f2 + 100
  FROM (SELECT 1 AS f1 UNION ALL SELECT 2 UNION ALL SELECT 2 UNION ALL
        SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6) ss
 WHERE bar.f1 = ss.f1;
UPDATE bar SET f2 = f2 + 100
  FROM (SELECT 1 AS f1 UNION ALL SELECT 2 UNION ALL SELECT 2 UNION ALL
        SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6) ss
 WHERE bar.f1 = ss.f1;
\echo updated :ROW_COUNT
SELECT * FROM bar ORDER BY f1;

DROP SCHEMA sem CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA sem_r CASCADE');
