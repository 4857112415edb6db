--
-- pg_import: IMPORT FOREIGN SCHEMA from a PostgreSQL server
--
SET search_path = public;

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS imp_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA imp_r');
-- a table with a column of each common type
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.all_types (
    c_int2 int2, c_int4 int4 NOT NULL, c_int8 int8, c_num numeric,
    c_num_10_2 numeric(10,2), c_float4 float4, c_float8 float8,
    c_text text, c_varchar varchar(20), c_char char(3), c_bytea bytea,
    c_bool bool, c_date date, c_ts timestamp(3), c_tstz timestamptz,
    c_interval interval, c_time time, c_uuid uuid, c_json json,
    c_jsonb jsonb, c_int_arr int4[], c_text_arr text[], c_inet inet,
    c_cidr cidr, c_mac macaddr, c_range int4range, c_bit bit(4),
    c_varbit varbit(8), c_money money, c_tsvector tsvector)$$);
-- defaults: constants are declared locally, function calls are not
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.defaults (
    id serial PRIMARY KEY,
    created timestamptz NOT NULL DEFAULT now(),
    today date DEFAULT CURRENT_DATE,
    status text NOT NULL DEFAULT 'new',
    qty int DEFAULT 42,
    neg int DEFAULT -1,
    price numeric(8,2) DEFAULT 1.50,
    flag bool DEFAULT true,
    quoted text DEFAULT 'it''s',
    day date DEFAULT '2000-01-01',
    arr int4[] DEFAULT '{1,2}',
    sum_expr int DEFAULT (1 + 2),
    nothing text DEFAULT NULL,
    lowered text DEFAULT lower('ABC'))$$);
-- a primary key over two columns, a view on it
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.keyed (a int, b text, c int, PRIMARY KEY (a, b))$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE VIEW imp_r.keyed_view AS SELECT a, b, c * 2 AS c2 FROM imp_r.keyed$$);
-- no columns at all; a dropped column
SELECT multi_fdw_exec('pg_remote', 'CREATE TABLE imp_r.no_columns ()');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.dropped (a int, gone text, b int)$$);
SELECT multi_fdw_exec('pg_remote', 'ALTER TABLE imp_r.dropped DROP COLUMN gone');
-- names that need quoting
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r."Mixed Case" ("Select" int, "with space" text,
                                   "quote""d" text, "ÜberCol" int)$$);
-- a column computed by the remote
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.generated (a int, doubled int GENERATED ALWAYS AS (a * 2) STORED)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO imp_r.keyed VALUES (1, 'one', 10), (2, 'two', 20)$$);

-- what was imported: the columns, and the options of tables and columns
CREATE FUNCTION imported(nsp text)
RETURNS TABLE (table_name name, col name, type text, not_null bool,
               default_value text, options text[])
LANGUAGE sql AS $$
  SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
         a.attnotnull, pg_get_expr(d.adbin, d.adrelid), a.attfdwoptions
    FROM pg_class c
    JOIN pg_foreign_table ft ON ft.ftrelid = c.oid
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
   WHERE c.relnamespace = nsp::regnamespace
   ORDER BY c.relname COLLATE "C", a.attnum;
$$;
CREATE FUNCTION imported_tables(nsp text)
RETURNS TABLE (table_name name, server name, options text[])
LANGUAGE sql AS $$
  SELECT c.relname, s.srvname, ft.ftoptions
    FROM pg_class c
    JOIN pg_foreign_table ft ON ft.ftrelid = c.oid
    JOIN pg_foreign_server s ON s.oid = ft.ftserver
   WHERE c.relnamespace = nsp::regnamespace
   ORDER BY c.relname COLLATE "C";
$$;

--
-- the whole schema
--
CREATE SCHEMA imp_all;
IMPORT FOREIGN SCHEMA imp_r EXCEPT (generated) FROM SERVER pg_remote INTO imp_all;
SELECT * FROM imported_tables('imp_all');
SELECT * FROM imported('imp_all');

-- the imported tables can be read and written
SELECT * FROM imp_all.keyed ORDER BY a;
SELECT * FROM imp_all.keyed_view ORDER BY a;
SELECT * FROM imp_all.no_columns;
INSERT INTO imp_all.keyed VALUES (3, 'three', 30);
UPDATE imp_all.keyed SET c = c + 1 WHERE a = 3;
SELECT * FROM imp_all.keyed ORDER BY a;
INSERT INTO imp_all.all_types VALUES
  (1, 2, 3, 4.5, 6.78, 9.5, 10.25, 'text', 'varchar', 'chr', '\xdeadbeef',
   true, '2024-02-29', '2024-02-29 12:34:56.789', '2024-02-29 12:34:56+00',
   '1 day 2 hours', '12:34:56', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
   '{"a": 1}', '{"b": 2}', '{1,2,NULL}', '{"x","y z"}', '10.0.0.1',
   '10.0.0.0/8', '08:00:2b:01:02:03', '[1,5)', B'1010', B'101', 12.34,
   'fat cat');
SELECT * FROM imp_all.all_types;
SELECT multi_fdw_exec('pg_remote', $$
  SELECT FROM imp_r.all_types WHERE c_bytea = '\xdeadbeef' AND c_range = '[1,5)'
     AND c_text_arr = '{"x","y z"}' AND c_bit = B'1010'$$) AS found;
INSERT INTO imp_all."Mixed Case" VALUES (1, 'space', 'quote', 2);
SELECT * FROM imp_all."Mixed Case";
SELECT "Select", "quote""d" FROM imp_all."Mixed Case" WHERE "with space" = 'space';
INSERT INTO imp_all.dropped VALUES (1, 2);
SELECT * FROM imp_all.dropped;
-- imported defaults apply here; what the remote computes (serial, now())
-- must be given
INSERT INTO imp_all.defaults (id, created) VALUES (1, '2024-01-01 00:00:00+00');
SELECT id, status, qty, neg, price, flag, quoted, day, arr, sum_expr, nothing, lowered
  FROM imp_all.defaults;
INSERT INTO imp_all.defaults (status) VALUES ('no id');
-- a column the remote generates: the imported table takes rows, and the
-- remote computes the column
CREATE SCHEMA imp_gen;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (generated) FROM SERVER pg_remote INTO imp_gen;
-- the remote's generation expression comes along, so inserts never send it
SELECT attname, attgenerated FROM pg_attribute
 WHERE attrelid = 'imp_gen.generated'::regclass AND attnum > 0 ORDER BY attnum;
INSERT INTO imp_gen.generated (a) VALUES (21);
INSERT INTO imp_gen.generated (a) SELECT g FROM generate_series(1, 3) g;
SELECT a, doubled FROM imp_gen.generated ORDER BY a;

--
-- LIMIT TO and EXCEPT
--
CREATE SCHEMA imp_some;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (keyed, "Mixed Case", no_such_table)
  FROM SERVER pg_remote INTO imp_some;
SELECT * FROM imported_tables('imp_some');
-- names are matched exactly: mixed case needs its quotes
IMPORT FOREIGN SCHEMA imp_r LIMIT TO ("KEYED", mixed_case)
  FROM SERVER pg_remote INTO imp_some;
SELECT * FROM imported_tables('imp_some');
CREATE SCHEMA imp_except;
IMPORT FOREIGN SCHEMA imp_r EXCEPT (all_types, defaults, "Mixed Case", generated)
  FROM SERVER pg_remote INTO imp_except;
SELECT * FROM imported_tables('imp_except');
-- importing again where the tables exist
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (keyed) FROM SERVER pg_remote INTO imp_some;

--
-- options
--
CREATE SCHEMA imp_opts;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (defaults)
  FROM SERVER pg_remote INTO imp_opts
  OPTIONS (import_default 'false', import_not_null 'false');
SELECT * FROM imported('imp_opts');
DROP FOREIGN TABLE imp_opts.defaults;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (defaults)
  FROM SERVER pg_remote INTO imp_opts
  OPTIONS (import_default 'true', import_not_null 'false', import_keys 'true');
SELECT col, not_null, default_value FROM imported('imp_opts');
DROP FOREIGN TABLE imp_opts.defaults;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (defaults)
  FROM SERVER pg_remote INTO imp_opts OPTIONS (import_default 'false');
SELECT col, not_null, default_value FROM imported('imp_opts');
-- a remote default holding a backslash, read here without standard
-- conforming strings, would open a string that runs on over the next
-- columns' text: refused, never written as it is; with them, imported
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.backslash (a text DEFAULT '\', b int)$$);
SET standard_conforming_strings = off;
SET escape_string_warning = off;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (backslash) FROM SERVER pg_remote INTO imp_opts;
RESET escape_string_warning;
RESET standard_conforming_strings;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (backslash) FROM SERVER pg_remote INTO imp_opts;
SELECT col, default_value FROM imported('imp_opts') WHERE table_name = 'backslash';
DROP FOREIGN TABLE imp_opts.backslash;
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE imp_r.backslash');
-- bad options
IMPORT FOREIGN SCHEMA imp_r FROM SERVER pg_remote INTO imp_opts
  OPTIONS (import_defaults 'false');
IMPORT FOREIGN SCHEMA imp_r FROM SERVER pg_remote INTO imp_opts
  OPTIONS (import_default 'maybe');
SELECT * FROM imported_tables('imp_opts');

--
-- what is not there
--
CREATE SCHEMA imp_none;
-- a remote schema that does not exist: an error naming it, as postgres_fdw gives
IMPORT FOREIGN SCHEMA no_such_schema FROM SERVER pg_remote INTO imp_none;
SELECT count(*) FROM imported_tables('imp_none');
-- an empty remote schema
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA imp_empty');
IMPORT FOREIGN SCHEMA imp_empty FROM SERVER pg_remote INTO imp_none;
SELECT count(*) FROM imported_tables('imp_none');
-- a local schema that does not exist
IMPORT FOREIGN SCHEMA imp_r FROM SERVER pg_remote INTO no_such_local_schema;
-- a server that does not exist
IMPORT FOREIGN SCHEMA imp_r FROM SERVER no_such_server INTO imp_none;
-- a remote schema whose name needs quoting
SELECT multi_fdw_exec('pg_remote', $$CREATE SCHEMA "Imp Quoted"$$);
SELECT multi_fdw_exec('pg_remote', $$CREATE TABLE "Imp Quoted"."T" (x int)$$);
SELECT multi_fdw_exec('pg_remote', $$INSERT INTO "Imp Quoted"."T" VALUES (7)$$);
IMPORT FOREIGN SCHEMA "Imp Quoted" FROM SERVER pg_remote INTO imp_none;
SELECT * FROM imported_tables('imp_none');
SELECT * FROM imp_none."T";
-- a partitioned table and its partitions
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.parted (k int, v text) PARTITION BY RANGE (k)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.parted_1 PARTITION OF imp_r.parted FOR VALUES FROM (0) TO (10)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE imp_r.parted_2 PARTITION OF imp_r.parted FOR VALUES FROM (10) TO (20)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO imp_r.parted VALUES (1, 'a'), (11, 'b')$$);
CREATE SCHEMA imp_parts;
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (parted, parted_1, parted_2)
  FROM SERVER pg_remote INTO imp_parts;
SELECT * FROM imported_tables('imp_parts');
SELECT * FROM imp_parts.parted ORDER BY k;
INSERT INTO imp_parts.parted VALUES (2, 'routed remotely');
SELECT * FROM imp_parts.parted_1 ORDER BY k;
-- a remote type that does not exist here
SELECT multi_fdw_exec('pg_remote', $$CREATE TYPE imp_r.mood AS ENUM ('happy', 'sad')$$);
SELECT multi_fdw_exec('pg_remote', $$CREATE TABLE imp_r.moods (id int, m imp_r.mood)$$);
IMPORT FOREIGN SCHEMA imp_r LIMIT TO (moods) FROM SERVER pg_remote INTO imp_none;

-- clean up
\set VERBOSITY terse
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA imp_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA imp_empty CASCADE');
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA "Imp Quoted" CASCADE');
DROP SCHEMA imp_all, imp_gen, imp_some, imp_except, imp_opts, imp_none, imp_parts CASCADE;
DROP FUNCTION imported(text), imported_tables(text);
