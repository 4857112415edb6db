--
-- pg_batch: batched INSERT through foreign tables on a PostgreSQL server
--
-- Every remote table of this suite lives in the remote schema batch_r and
-- logs each INSERT statement it receives (with the number of rows the
-- statement inserted) into batch_r.stmt_log, through a statement trigger
-- with a transition table.  That log shows how rows were grouped into
-- statements.
--
-- insert_method auto (the default) sends batches through one COPY for a
-- PostgreSQL remote, and through multi-row INSERT ... VALUES statements when
-- COPY cannot be used (ON CONFLICT); the tables below that check how rows
-- are grouped into VALUES statements ask for insert_method 'values'.
--
CREATE SCHEMA batch;
SET search_path = batch, public;

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS batch_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA batch_r');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.stmt_log (id serial PRIMARY KEY, tab text, nrows int)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE FUNCTION batch_r.log_stmt() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    INSERT INTO batch_r.stmt_log (tab, nrows)
      SELECT TG_TABLE_NAME, count(*) FROM newrows;
    RETURN NULL;
  END $f$ $$);
-- add the logging trigger to a remote table
CREATE FUNCTION log_inserts(tab text) RETURNS void LANGUAGE sql AS $$
  SELECT multi_fdw_exec('pg_remote', format(
    'CREATE TRIGGER log_stmt AFTER INSERT ON batch_r.%I
       REFERENCING NEW TABLE AS newrows
       FOR EACH STATEMENT EXECUTE FUNCTION batch_r.log_stmt()', tab));
$$;

CREATE FOREIGN TABLE stmt_log (id int, tab text, nrows int)
  SERVER pg_remote OPTIONS (schema_name 'batch_r');
-- the statements each table received, in order, then forget them
CREATE VIEW stmts AS
  SELECT tab, count(*) AS statements, sum(nrows) AS total_rows,
         string_agg(nrows::text, ',' ORDER BY id) AS rows_per_statement
    FROM stmt_log GROUP BY tab ORDER BY tab;
CREATE FUNCTION clear_log() RETURNS void LANGUAGE sql AS $$
  SELECT multi_fdw_exec('pg_remote', 'TRUNCATE batch_r.stmt_log');
$$;

-- how many remote rows satisfy a condition, counted on the remote side
CREATE FUNCTION remote_count(tab text, cond text DEFAULT 'true') RETURNS bigint
LANGUAGE sql AS $$
  SELECT multi_fdw_exec('pg_remote',
                        format('SELECT FROM batch_r.%I WHERE %s', tab, cond));
$$;

--
-- 10,000 rows with the default batching
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.big (id int PRIMARY KEY, v text NOT NULL, n numeric)$$);
SELECT log_inserts('big');
CREATE FOREIGN TABLE big (id int, v text, n numeric)
  SERVER pg_remote OPTIONS (schema_name 'batch_r');

EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO big SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
INSERT INTO big SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 10000) g;
\echo inserted :ROW_COUNT
SELECT remote_count('big');
-- sums computed by the remote server itself: 1 means the condition holds
SELECT multi_fdw_exec('pg_remote', $$
  SELECT FROM batch_r.big
  HAVING count(*) = 10000 AND sum(id) = 50005000 AND sum(n) = 75007500
     AND count(DISTINCT v) = 10000 AND min(v) = 'row 1'$$) AS remote_sums_ok;
-- and read back through the foreign table
SELECT count(*), sum(id), sum(n), min(id), max(id),
       bool_and(v = 'row ' || id) AS v_matches
  FROM big;
SELECT * FROM stmts;
SELECT clear_log();

--
-- batch_size 1 and batch_size 1000 give identical data, through each
-- insert method
--
SELECT multi_fdw_exec('pg_remote', format(
  'CREATE TABLE batch_r.%I (id int, t text, d date, f float8, b bool)', tab))
  FROM unnest(ARRAY['by_one', 'by_row', 'by_values', 'by_copy']) tab;
SELECT log_inserts(tab)
  FROM unnest(ARRAY['by_one', 'by_row', 'by_values', 'by_copy']) tab;
CREATE FOREIGN TABLE by_one (id int, t text, d date, f float8, b bool)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', batch_size '1');
CREATE FOREIGN TABLE by_row (id int, t text, d date, f float8, b bool)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', insert_method 'row');
CREATE FOREIGN TABLE by_values (id int, t text, d date, f float8, b bool)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', batch_size '1000',
                            insert_method 'values');
CREATE FOREIGN TABLE by_copy (id int, t text, d date, f float8, b bool)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', batch_size '1000',
                            insert_method 'copy');
-- text with quotes, a backslash, a tab, a newline and a carriage return
CREATE TABLE src_data AS
  SELECT g AS id,
         CASE WHEN g % 7 = 0 THEN NULL
              ELSE repeat(chr(97 + g % 26), g % 11) || E'''"\\\t\n\r' || g END AS t,
         CASE WHEN g % 5 = 0 THEN NULL ELSE date '2000-01-01' + g END AS d,
         CASE WHEN g % 3 = 0 THEN NULL ELSE g / 7.0::float8 END AS f,
         CASE WHEN g % 4 = 0 THEN NULL ELSE g % 2 = 0 END AS b
    FROM generate_series(1, 1500) g;

EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO by_one SELECT * FROM src_data;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO by_row SELECT * FROM src_data;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO by_values SELECT * FROM src_data;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO by_copy SELECT * FROM src_data;
INSERT INTO by_one SELECT * FROM src_data;
\echo inserted :ROW_COUNT
INSERT INTO by_row SELECT * FROM src_data;
\echo inserted :ROW_COUNT
INSERT INTO by_values SELECT * FROM src_data;
\echo inserted :ROW_COUNT
INSERT INTO by_copy SELECT * FROM src_data;
\echo inserted :ROW_COUNT
SELECT tab, statements, total_rows,
       CASE WHEN statements < 10 THEN rows_per_statement END AS rows_per_statement
  FROM stmts;
-- identical data, compared in both directions
(SELECT * FROM by_one EXCEPT SELECT * FROM src_data)
UNION ALL
(SELECT * FROM src_data EXCEPT SELECT * FROM by_one);
(SELECT * FROM by_row EXCEPT SELECT * FROM src_data)
UNION ALL
(SELECT * FROM src_data EXCEPT SELECT * FROM by_row);
(SELECT * FROM by_values EXCEPT SELECT * FROM src_data)
UNION ALL
(SELECT * FROM src_data EXCEPT SELECT * FROM by_values);
(SELECT * FROM by_copy EXCEPT SELECT * FROM src_data)
UNION ALL
(SELECT * FROM src_data EXCEPT SELECT * FROM by_copy);
-- the remote has the same text, byte for byte
SELECT tab, remote_count(tab, $$strpos(t, E'''"\\\t\n\r') > 0$$) AS special_chars
  FROM unnest(ARRAY['by_one', 'by_row', 'by_values', 'by_copy']) tab;
SELECT clear_log();

-- reading a foreign table of the same server while inserting: the scan and
-- the inserts share one connection (small fetches force many turns)
ALTER FOREIGN TABLE by_one OPTIONS (ADD fetch_size '100');
SELECT multi_fdw_exec('pg_remote', format('TRUNCATE batch_r.%I', tab))
  FROM unnest(ARRAY['by_values', 'by_copy']) tab;
SELECT clear_log();
INSERT INTO by_copy SELECT * FROM by_one;
\echo inserted :ROW_COUNT
INSERT INTO by_values SELECT * FROM by_one;
\echo inserted :ROW_COUNT
-- a table into itself: only the rows that were there before are read
INSERT INTO by_copy SELECT id + 10000, t, d, f, b FROM by_copy;
\echo inserted :ROW_COUNT
SELECT tab, statements, total_rows FROM stmts;
(SELECT * FROM by_copy EXCEPT
   (SELECT * FROM src_data UNION ALL
    SELECT id + 10000, t, d, f, b FROM src_data))
UNION ALL
((SELECT * FROM src_data UNION ALL
  SELECT id + 10000, t, d, f, b FROM src_data) EXCEPT SELECT * FROM by_copy);
(SELECT * FROM by_values EXCEPT SELECT * FROM src_data)
UNION ALL
(SELECT * FROM src_data EXCEPT SELECT * FROM by_values);
SELECT clear_log();

--
-- A statement has at most 65535 parameters: 100 columns with batch_size
-- 1000 gives statements of 655 rows (each executor batch of 1000 rows
-- leaves as one statement of 655 rows and one of 345)
--
SELECT multi_fdw_exec('pg_remote',
  format('CREATE TABLE batch_r.wide (%s)',
         string_agg(format('c%s int', i), ', ' ORDER BY i)))
  FROM generate_series(1, 100) i;
SELECT log_inserts('wide');
DO $$
BEGIN
  EXECUTE format('CREATE FOREIGN TABLE wide (%s) SERVER pg_remote
                    OPTIONS (schema_name ''batch_r'', batch_size ''1000'',
                             insert_method ''values'')',
                 (SELECT string_agg(format('c%s int', i), ', ' ORDER BY i)
                    FROM generate_series(1, 100) i));
END $$;
-- row g holds g * 1000 + i in column ci
DO $$
BEGIN
  EXECUTE format('CREATE TABLE wide_src AS SELECT %s FROM generate_series(1, 2000) g',
                 (SELECT string_agg(format('g * 1000 + %s AS c%s', i, i), ', ' ORDER BY i)
                    FROM generate_series(1, 100) i));
END $$;
SELECT count(*), sum(c1), sum(c100) FROM wide_src;

EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO wide SELECT * FROM wide_src;
INSERT INTO wide SELECT * FROM wide_src;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT remote_count('wide');
SELECT remote_count('wide', 'c1 = c2 - 1 AND c100 = c1 + 99 AND c1 % 1000 = 1');
(SELECT * FROM wide EXCEPT SELECT * FROM wide_src)
UNION ALL
(SELECT * FROM wide_src EXCEPT SELECT * FROM wide);
SELECT clear_log();
-- COPY has no parameters: one statement
SELECT multi_fdw_exec('pg_remote', 'TRUNCATE batch_r.wide');
ALTER FOREIGN TABLE wide OPTIONS (SET insert_method 'copy');
INSERT INTO wide SELECT * FROM wide_src;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
(SELECT * FROM wide EXCEPT SELECT * FROM wide_src)
UNION ALL
(SELECT * FROM wide_src EXCEPT SELECT * FROM wide);
SELECT clear_log();

--
-- batch_bytes caps the bytes held: wide rows force extra statements
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.fat (id int, payload text)$$);
SELECT log_inserts('fat');
CREATE FOREIGN TABLE fat (id int, payload text)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', batch_bytes '1024',
                            insert_method 'values');
-- 600 bytes a row: a statement holds two rows (the third would pass 1024)
INSERT INTO fat SELECT g, repeat(chr(64 + g), 600) FROM generate_series(1, 9) g;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT id, length(payload), left(payload, 3) FROM fat ORDER BY id;
SELECT remote_count('fat', 'length(payload) = 600');
-- through COPY, rows are sent every 1024 bytes, into one COPY statement
SELECT clear_log();
ALTER FOREIGN TABLE fat OPTIONS (SET insert_method 'copy');
INSERT INTO fat SELECT g, repeat(chr(64 + g), 600) FROM generate_series(10, 18) g;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT remote_count('fat', 'length(payload) = 600');
-- below the minimum
ALTER FOREIGN TABLE fat OPTIONS (SET batch_bytes '1023');
SELECT clear_log();

--
-- the remainder: 2,345 rows with batch_size 1000
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.rest (id int PRIMARY KEY, v int)$$);
SELECT log_inserts('rest');
CREATE FOREIGN TABLE rest (id int, v int)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', batch_size '1000',
                            insert_method 'values');
INSERT INTO rest SELECT g, g * 2 FROM generate_series(1, 2345) g;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT count(*), sum(id), sum(v) FROM rest;
SELECT remote_count('rest', 'v = id * 2');
-- a second statement with a different remainder on the same table
INSERT INTO rest SELECT g, g * 2 FROM generate_series(2346, 2350) g;
SELECT * FROM stmts;
SELECT count(*), max(id) FROM rest;
SELECT clear_log();

--
-- NULL in every column, batched and not
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.nulls (a int, b text, c numeric, d date, e bool,
                              f jsonb, g int[], h bytea, i timestamptz)$$);
SELECT log_inserts('nulls');
CREATE FOREIGN TABLE nulls (a int, b text, c numeric, d date, e bool,
                            f jsonb, g int[], h bytea, i timestamptz)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', insert_method 'copy');
CREATE FOREIGN TABLE nulls_values (a int, b text, c numeric, d date, e bool,
                                   f jsonb, g int[], h bytea, i timestamptz)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', table_name 'nulls',
                            insert_method 'values');
-- through COPY
INSERT INTO nulls SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM generate_series(1, 2);
INSERT INTO nulls VALUES (1, '', 0, '2020-02-29', false, 'null', '{NULL}', '\x', NULL),
                         (NULL, 'NULL', NULL, NULL, NULL, NULL, '{}', NULL, NULL);
-- through INSERT ... VALUES
INSERT INTO nulls_values SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM generate_series(1, 2);
INSERT INTO nulls_values VALUES (2, '', 0, '2020-02-29', false, 'null', '{NULL}', '\x', NULL),
                                (NULL, 'NULL', NULL, NULL, NULL, NULL, '{}', NULL, NULL);
-- one row alone
INSERT INTO nulls VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
SELECT * FROM stmts;
-- the remote counts rows where every column is NULL: 5
SELECT remote_count('nulls', 'a IS NULL AND b IS NULL AND c IS NULL AND d IS NULL
  AND e IS NULL AND f IS NULL AND g IS NULL AND h IS NULL AND i IS NULL');
-- the string 'NULL', the JSON null, an array of NULL: not NULLs
SELECT remote_count('nulls', $$b = 'NULL'$$) AS text_null,
       remote_count('nulls', $$f = 'null'::jsonb$$) AS json_null,
       remote_count('nulls', $$g = '{NULL}'$$) AS array_of_null,
       remote_count('nulls', $$b = ''$$) AS empty_string;
SELECT count(*) AS total, count(a) AS a, count(b) AS b, count(c) AS c,
       count(d) AS d, count(e) AS e, count(f) AS f, count(g) AS g,
       count(h) AS h, count(i) AS i
  FROM nulls;
SELECT * FROM nulls WHERE a IS NOT NULL OR b IS NOT NULL ORDER BY a, b;
SELECT clear_log();

--
-- ON CONFLICT DO NOTHING: the command tag counts only inserted rows
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.uniq (id int PRIMARY KEY, v text)$$);
SELECT log_inserts('uniq');
CREATE FOREIGN TABLE uniq (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'batch_r');
CREATE FOREIGN TABLE uniq_by_row (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', table_name 'uniq',
                            batch_size '1');
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO batch_r.uniq SELECT g * 2, 'old' FROM generate_series(1, 10) g$$);
SELECT clear_log();
-- batched: ids 1..25, of which the 10 even ones up to 20 exist
INSERT INTO uniq SELECT g, 'new' FROM generate_series(1, 25) g ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT v, count(*) FROM uniq GROUP BY v ORDER BY v;
-- duplicates inside one statement: only the first of each is inserted
INSERT INTO uniq SELECT 100 + g % 3, 'dup ' || g FROM generate_series(1, 9) g
  ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT * FROM uniq WHERE id >= 100 ORDER BY id;
-- everything conflicts: INSERT 0 0
INSERT INTO uniq SELECT g, 'again' FROM generate_series(1, 25) g ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
-- row by row
SELECT clear_log();
INSERT INTO uniq_by_row SELECT g, 'row' FROM generate_series(20, 30) g
  ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
INSERT INTO uniq_by_row VALUES (30, 'x') ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
INSERT INTO uniq_by_row VALUES (31, 'x') ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT v, count(*) FROM uniq GROUP BY v ORDER BY v;
-- across several batches of 1000, with conflicts in each
INSERT INTO uniq SELECT g, 'many' FROM generate_series(1, 3000) g
  ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT count(*) FROM uniq;
-- a conflict target or DO UPDATE cannot be used on a foreign table
INSERT INTO uniq VALUES (1, 'x') ON CONFLICT (id) DO NOTHING;
INSERT INTO uniq VALUES (1, 'x') ON CONFLICT (id) DO UPDATE SET v = 'y';
-- without DO NOTHING the conflict is an error
INSERT INTO uniq VALUES (1, 'x');
-- COPY knows no ON CONFLICT: auto falls back to VALUES (above), copy refuses
ALTER FOREIGN TABLE uniq OPTIONS (ADD insert_method 'copy');
INSERT INTO uniq VALUES (1, 'x') ON CONFLICT DO NOTHING;
INSERT INTO uniq VALUES (5000, 'copy');
\echo inserted :ROW_COUNT
SELECT clear_log();

--
-- RETURNING: one statement per row, and the rows as the remote stored them
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.ret (id int, v text, note text)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE FUNCTION batch_r.ret_upper() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    NEW.v := upper(NEW.v);
    NEW.note := 'seen remotely';
    RETURN NEW;
  END $f$ $$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TRIGGER ret_upper BEFORE INSERT ON batch_r.ret
    FOR EACH ROW EXECUTE FUNCTION batch_r.ret_upper()$$);
SELECT log_inserts('ret');
CREATE FOREIGN TABLE ret (id int, v text, note text)
  SERVER pg_remote OPTIONS (schema_name 'batch_r');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO ret SELECT g, 'v' || g FROM generate_series(1, 3) g RETURNING *;
INSERT INTO ret SELECT g, 'v' || g FROM generate_series(1, 3) g RETURNING *;
INSERT INTO ret VALUES (4, 'abc') RETURNING id, v || '!' AS shout;
INSERT INTO ret VALUES (5, 'def'), (6, NULL) RETURNING note, ret;
SELECT * FROM stmts;
-- without RETURNING the batch is one statement
INSERT INTO ret SELECT g, 'w' || g FROM generate_series(7, 9) g;
SELECT * FROM ret ORDER BY id;
SELECT clear_log();

-- a remote trigger that skips rows: values and row count the rows
-- inserted; copy, named, is refused, since it would count the rows sent
-- (auto would not pick it here: see pg_semantics; pg_facts has the rest)
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.skipping (id int)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE FUNCTION batch_r.skip_odd() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    IF NEW.id % 2 = 1 THEN
      RETURN NULL;
    END IF;
    RETURN NEW;
  END $f$ $$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TRIGGER skip_odd BEFORE INSERT ON batch_r.skipping
    FOR EACH ROW EXECUTE FUNCTION batch_r.skip_odd()$$);
CREATE FOREIGN TABLE skipping (id int)
  SERVER pg_remote OPTIONS (schema_name 'batch_r', insert_method 'copy');
INSERT INTO skipping SELECT g FROM generate_series(1, 10) g;
\echo inserted :ROW_COUNT
ALTER FOREIGN TABLE skipping OPTIONS (SET insert_method 'values');
INSERT INTO skipping SELECT g FROM generate_series(1, 10) g;
\echo inserted :ROW_COUNT
ALTER FOREIGN TABLE skipping OPTIONS (SET insert_method 'row');
INSERT INTO skipping SELECT g FROM generate_series(1, 10) g;
\echo inserted :ROW_COUNT
SELECT count(*) FROM skipping;

--
-- A BEFORE ROW trigger on the foreign table: no batching, fires per row
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.trig (id int, v text)$$);
SELECT log_inserts('trig');
CREATE FOREIGN TABLE trig (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'batch_r');
CREATE FUNCTION trig_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE 'before insert of id %', NEW.id;
  IF NEW.id = 3 THEN
    RETURN NULL;			-- skip this row
  END IF;
  NEW.v := NEW.v || ' (trigger)';
  RETURN NEW;
END $$;
CREATE TRIGGER trig_before BEFORE INSERT ON trig
  FOR EACH ROW EXECUTE FUNCTION trig_before();
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO trig SELECT g, 'v' || g FROM generate_series(1, 5) g;
INSERT INTO trig SELECT g, 'v' || g FROM generate_series(1, 5) g;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT * FROM trig ORDER BY id;
-- once the trigger is gone, batching is back
DROP TRIGGER trig_before ON trig;
SELECT clear_log();
INSERT INTO trig SELECT g, 'v' || g FROM generate_series(6, 10) g;
SELECT * FROM stmts;
SELECT clear_log();

--
-- Partitioned tables whose partitions are foreign tables
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.part_east (id int, region text, v int)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.part_west (id int, region text, v int)$$);
SELECT log_inserts('part_east');
SELECT log_inserts('part_west');
CREATE TABLE sales (id int, region text, v int) PARTITION BY LIST (region);
CREATE FOREIGN TABLE sales_east PARTITION OF sales FOR VALUES IN ('east')
  SERVER pg_remote OPTIONS (schema_name 'batch_r', table_name 'part_east');
CREATE FOREIGN TABLE sales_west PARTITION OF sales FOR VALUES IN ('west')
  SERVER pg_remote OPTIONS (schema_name 'batch_r', table_name 'part_west',
                            batch_size '400');
-- rows alternate between the partitions: each has its own batches
INSERT INTO sales
  SELECT g, CASE WHEN g % 2 = 0 THEN 'east' ELSE 'west' END, g
    FROM generate_series(1, 3000) g;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT tableoid::regclass, region, count(*), sum(v) FROM sales
  GROUP BY 1, 2 ORDER BY 1;
SELECT remote_count('part_east', $$region = 'east' AND id % 2 = 0$$) AS east,
       remote_count('part_west', $$region = 'west' AND id % 2 = 1$$) AS west;
-- a row for no partition
INSERT INTO sales VALUES (0, 'north', 0);
SELECT clear_log();
-- COPY routes rows into the foreign partitions too
COPY sales FROM STDIN (FORMAT csv);
7001,east,1
7002,west,2
7003,east,3
7004,west,4
7005,east,5
\.
\echo copied :ROW_COUNT
SELECT tab, total_rows FROM stmts;
SELECT tableoid::regclass, * FROM sales WHERE id > 7000 ORDER BY id;
SELECT clear_log();

-- a partitioned table with a local partition beside a foreign one
CREATE TABLE mixed (id int, region text, v int) PARTITION BY LIST (region);
CREATE TABLE mixed_local PARTITION OF mixed FOR VALUES IN ('local');
CREATE FOREIGN TABLE mixed_remote PARTITION OF mixed FOR VALUES IN ('east')
  SERVER pg_remote OPTIONS (schema_name 'batch_r', table_name 'part_east');
INSERT INTO mixed
  SELECT g, CASE WHEN g % 3 = 0 THEN 'local' ELSE 'east' END, -g
    FROM generate_series(1, 1500) g;
\echo inserted :ROW_COUNT
SELECT * FROM stmts;
SELECT tableoid::regclass, region, count(*), sum(v) FROM mixed
  GROUP BY 1, 2 ORDER BY 1;
SELECT remote_count('part_east', 'v < 0');
-- RETURNING through the partitioned tables: rows come back from the remote
INSERT INTO sales VALUES (9001, 'east', 1), (9002, 'west', 2) RETURNING tableoid::regclass, *;
INSERT INTO mixed VALUES (5001, 'local', 1), (5002, 'east', 2) RETURNING tableoid::regclass, *;
SELECT clear_log();

--
-- COPY FROM STDIN into a foreign table
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.copied (id int PRIMARY KEY, t text, n numeric, d date)$$);
SELECT log_inserts('copied');
CREATE FOREIGN TABLE copied (id int, t text, n numeric, d date)
  SERVER pg_remote OPTIONS (schema_name 'batch_r');
COPY copied FROM STDIN;
1	plain	1.5	2024-01-01
2	tab\there	-0.001	1999-12-31
3	new\nline	\N	\N
4	back\\slash 'quote'	100000000000000000000.5	2000-02-29
5		0	0001-01-01
\.
\echo copied :ROW_COUNT
COPY copied (id, t) FROM STDIN (FORMAT csv);
6,"csv, with comma"
7,"csv ""quoted"""
\.
SELECT * FROM stmts;
SELECT * FROM copied ORDER BY id;
SELECT remote_count('copied', $$t = E'tab\there' OR t = E'new\nline'
  OR t = E'back\\slash ''quote''' OR t = '' OR t = 'csv "quoted"'$$);
-- an error in the middle of a COPY leaves nothing behind
COPY copied FROM STDIN;
8	ok	1	2024-01-01
1	duplicate	1	2024-01-01
\.
SELECT count(*) FROM copied;
SELECT clear_log();

--
-- Columns the INSERT omits: the local default when there is one, else NULL
-- (a remote default is not applied: every column is sent)
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE batch_r.defs (id int,
                             a text DEFAULT 'remote a',
                             b text DEFAULT 'remote b',
                             c int NOT NULL DEFAULT 42)$$);
CREATE FOREIGN TABLE defs (id int,
                           a text DEFAULT 'local a',
                           b text,
                           c int)
  SERVER pg_remote OPTIONS (schema_name 'batch_r');
INSERT INTO defs (id, c) VALUES (1, 1);
INSERT INTO defs (id, c) SELECT g, g FROM generate_series(2, 4) g;
INSERT INTO defs VALUES (5, DEFAULT, DEFAULT, 5);
INSERT INTO defs (id, a, b, c) VALUES (6, NULL, 'given', 6);
SELECT * FROM defs ORDER BY id;
SELECT remote_count('defs', $$a = 'local a' AND b IS NULL$$) AS local_default,
       remote_count('defs', $$a = 'remote a' OR b = 'remote b'$$) AS remote_default;
-- a remote NOT NULL column whose only default is remote: NULL is sent
\set VERBOSITY terse
INSERT INTO defs (id) VALUES (7);
\set VERBOSITY default
-- a local default on that column makes it work
ALTER FOREIGN TABLE defs ALTER COLUMN c SET DEFAULT 7;
INSERT INTO defs (id) VALUES (7);
INSERT INTO defs DEFAULT VALUES;
SELECT * FROM defs WHERE id IS NULL OR id = 7 ORDER BY id;

-- clean up
\set VERBOSITY terse
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA batch_r CASCADE');
DROP SCHEMA batch CASCADE;
