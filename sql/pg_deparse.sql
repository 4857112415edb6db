--
-- pg_deparse: the SQL each dialect sends, shown by EXPLAIN (VERBOSE, COSTS
-- OFF).  EXPLAIN without ANALYZE never connects, so the tables on
-- my_remote, ms_remote and ora_remote need no remote server, and those on
-- pg_remote no remote table.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;

-- one table per server: a is the key column of the key-based dialects
CREATE FOREIGN TABLE dp_pg (a int, b text, c timestamptz, d numeric, e float8,
                            f boolean, g date)
  SERVER pg_remote;
CREATE FOREIGN TABLE dp_my (a int OPTIONS (key 'true'), b text, c timestamptz,
                            d numeric, e float8, f boolean, g date)
  SERVER my_remote;
CREATE FOREIGN TABLE dp_ms (a int OPTIONS (key 'true'), b text, c timestamptz,
                            d numeric, e float8, f boolean, g date)
  SERVER ms_remote;
CREATE FOREIGN TABLE dp_ora (a int OPTIONS (key 'true'), b text, c timestamptz,
                             d numeric, e float8, f boolean, g date)
  SERVER ora_remote;
CREATE TABLE dp_local (x int, y text);

-- the lines of an EXPLAIN that match a pattern (for plans too wide to show)
CREATE FUNCTION dp_explain(query text, pattern text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || query LOOP
    IF line ~ pattern THEN
      RETURN NEXT line;
    END IF;
  END LOOP;
END
$$;

-- ===================================================================
-- SELECT on postgres: pruning, pushdown, parameters
-- ===================================================================
-- only the columns needed are fetched; none at all for count(*)
EXPLAIN (VERBOSE, COSTS OFF) SELECT b FROM dp_pg;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM dp_pg;
EXPLAIN (VERBOSE, COSTS OFF) SELECT t FROM dp_pg t;
-- comparisons, AND, OR, NOT, IS [NOT] NULL, IN as = ANY; NOT IN (<> ALL) is
-- checked here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE a = 1 AND b IS NULL AND d IS NOT NULL;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE (a > 10 OR a < -5) AND NOT (b <> 'x');
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE a IN (1, 2, 3) AND b IN ('p', 'q');
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_pg WHERE a NOT IN (1, 2);
-- constants keep their local type
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE d > 1.5 AND e < 2.5 AND a <> -1 AND f = true
    AND b LIKE 'it''s\%';
-- date and time constants travel in ISO form, timestamptz in UTC, whatever
-- the local settings (pg_regress runs with Postgres, MDY and Los Angeles)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE c > '2024-01-01 00:00:00+00' AND g = '2024-02-01';
SET datestyle = 'SQL, DMY';
SET timezone = 'Asia/Tokyo';
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE c > '2024-01-01 00:00:00+00' AND g = '2024-02-01';
RESET datestyle;
RESET timezone;
-- a stable expression is computed once here and sent as a parameter
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE c > now() - interval '1 day';
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE a = length(current_user) AND g > current_date - 7;
-- parameters of a prepared statement (in a generic plan), and from an outer
-- query: a correlated subquery, an InitPlan, a LATERAL subquery (the
-- parameter of a nested loop)
PREPARE dp_prep(int) AS SELECT b FROM dp_pg WHERE a = $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE dp_prep(5);
RESET plan_cache_mode;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE dp_prep(5);
DEALLOCATE dp_prep;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT x, (SELECT sum(d) FROM dp_pg WHERE a = l.x AND e > l.x) FROM dp_local l;
SELECT public.mf_explain($$EXPLAIN (VERBOSE, COSTS OFF)
  SELECT b FROM dp_pg WHERE a = (SELECT max(x) FROM dp_local)$$);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT l.x, s.b FROM dp_local l,
    LATERAL (SELECT b FROM dp_pg WHERE a = l.x OFFSET 0) s;
-- what stays local: functions of columns, volatile functions, a user
-- function of a column (of constants it is computed here and sent), a
-- non-default collation; the rest is still pushed
CREATE FUNCTION dp_udf(int) RETURNS int LANGUAGE plpgsql STABLE
  AS 'BEGIN RETURN $1 + 1; END';
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE md5(b) = 'x' AND a = 1;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE e > random() AND a > 0;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE dp_udf(a) = 5 AND a = dp_udf(4);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE b = 'x' COLLATE "C";
-- ORDER BY and LIMIT go too (see pg_pushdown)
EXPLAIN (VERBOSE, COSTS OFF) SELECT a, b FROM dp_pg ORDER BY a LIMIT 3;

-- ===================================================================
-- SELECT on mysql, sqlserver, oracle
-- ===================================================================
-- numbers are compared remotely, text never (collations differ); no
-- arrays, so IN stays local; placeholders are ?
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, b FROM dp_my
   WHERE a = 1 AND b IS NULL AND (d > 1.5 OR e < 2.5) AND NOT (a = -1) AND b = 'x';
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, b FROM dp_ms
   WHERE a = 1 AND b IS NULL AND (d > 1.5 OR e < 2.5) AND NOT (a = -1) AND b = 'x';
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, b FROM dp_ora
   WHERE a = 1 AND b IS NULL AND (d > 1.5 OR e < 2.5) AND NOT (a = -1) AND b = 'x';
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_my WHERE a IN (1, 2, 3);
-- arithmetic: mysql ships + - * on exact numbers, the others none
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_my WHERE a + 1 > d * 2 AND e - 1 > 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_ms WHERE a + 1 > 2;
-- a stable expression as a parameter; each ? is its own parameter
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_my WHERE c > now() - interval '1 day' AND c < now();
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_ms WHERE c > now() - interval '1 day' AND a = length('abc');
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_ora WHERE g > current_date - 1 AND a = length('abc');
-- date and time constants in each dialect's spelling
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_my WHERE c > '2024-01-01 00:00:00+00' AND g = '2024-02-01';
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_ms WHERE c > '2024-01-01 00:00:00+00' AND g = '2024-02-01';
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_ora WHERE g = '2024-02-01';
-- NaN and the infinities have no spelling outside postgres: kept here (mysql
-- would read 'Infinity' as 0 and compare with that)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_my WHERE e < 'Infinity' AND d <> 'NaN' AND c > '-infinity' AND a = 1;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM dp_pg WHERE e < 'Infinity' AND d <> 'NaN' AND c > '-infinity' AND a = 1;
-- T-SQL has no boolean expressions: a bit column is not a condition
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_ms WHERE a > 0 AND f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_ms WHERE NOT f OR a = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_my WHERE f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_ora WHERE f;

-- ===================================================================
-- quoting of awkward names, column_name, schema_name, table_name
-- ===================================================================
-- one awkward table per dialect, each name hard for its own quoting
CREATE FOREIGN TABLE "dp odd" ("my col" int, "q""uote" int, "back`tick" int,
  "br]acket" int, plain int OPTIONS (column_name 'Remote Col')) SERVER pg_remote;
CREATE FOREIGN TABLE "dp`odd" ("my col" int OPTIONS (key 'true'), "q""uote" int,
  "back`tick" int, "br]acket" int, plain int OPTIONS (column_name 'Remote`Col'))
  SERVER my_remote;
CREATE FOREIGN TABLE "dp]odd" ("my col" int OPTIONS (key 'true'), "q""uote" int,
  "back`tick" int, "br]acket" int, plain int OPTIONS (column_name 'Remote]Col'))
  SERVER ms_remote;
CREATE FOREIGN TABLE "dp""odd" ("my col" int OPTIONS (key 'true'), "q""uote" int,
  "back`tick" int, "br]acket" int, plain int OPTIONS (column_name 'Remote"Col'))
  SERVER ora_remote;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM "dp odd" WHERE "my col" = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM "dp`odd" WHERE "back`tick" = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM "dp]odd" WHERE "br]acket" = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM "dp""odd" WHERE "q""uote" = 1;
-- schema_name and table_name replace the local names
ALTER FOREIGN TABLE "dp odd" OPTIONS (ADD schema_name 'Odd Schema', ADD table_name 'Odd"Table');
ALTER FOREIGN TABLE "dp`odd" OPTIONS (ADD schema_name 'my`db', ADD table_name 't`x');
ALTER FOREIGN TABLE "dp]odd" OPTIONS (ADD schema_name 'dbo', ADD table_name 't]x');
ALTER FOREIGN TABLE "dp""odd" OPTIONS (ADD schema_name 'MF"APP', ADD table_name 'T X');
EXPLAIN (VERBOSE, COSTS OFF) SELECT plain FROM "dp odd" WHERE plain = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT plain FROM "dp`odd" WHERE plain = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT plain FROM "dp]odd" WHERE plain = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT plain FROM "dp""odd" WHERE plain = 1;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO "dp`odd" VALUES (1, 2, 3, 4, 5);
-- without schema_name: postgres names the local schema, the others none
ALTER FOREIGN TABLE "dp odd" OPTIONS (DROP schema_name);
ALTER FOREIGN TABLE "dp`odd" OPTIONS (DROP schema_name);
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM "dp odd" WHERE "my col" = 1;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM "dp`odd" WHERE "my col" = 1;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE "dp]odd" SET plain = 0 WHERE "br]acket" = 1;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE "dp""odd" SET plain = dp_udf(plain);

-- ===================================================================
-- INSERT: the statement, the method and the rows per statement
-- ===================================================================
CREATE FOREIGN TABLE dp_ins3 (a int, b text, c date) SERVER pg_remote;
-- auto: COPY where the remote has it (postgres), batch_size rows a batch
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ins3 VALUES (1, 'x', '2024-01-01');
-- values: batch_size 1000 with 3 columns, 1000 rows per statement
ALTER FOREIGN TABLE dp_ins3 OPTIONS (ADD insert_method 'values');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ins3 SELECT x, y, NULL FROM dp_local;
-- RETURNING needs each row back as stored, which only one-row statements
-- read: a bulk method named for the table is refused, auto sends one row
-- per statement
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ins3 VALUES (1, 'x', NULL) RETURNING a;
ALTER FOREIGN TABLE dp_ins3 OPTIONS (DROP insert_method);
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ins3 VALUES (1, 'x', NULL) RETURNING a;
ALTER FOREIGN TABLE dp_ins3 OPTIONS (ADD insert_method 'values');
-- so does a row trigger
CREATE FUNCTION dp_trig() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER dp_ins3_row BEFORE INSERT ON dp_ins3 FOR EACH ROW EXECUTE FUNCTION dp_trig();
SELECT dp_explain('INSERT INTO dp_ins3 VALUES (1, ''x'', NULL)', 'Method|Rows per|Batch');
DROP TRIGGER dp_ins3_row ON dp_ins3;
-- and insert_method 'row'; batch_size applies per table
ALTER FOREIGN TABLE dp_ins3 OPTIONS (SET insert_method 'row');
SELECT dp_explain('INSERT INTO dp_ins3 VALUES (1, ''x'', NULL)', 'Method|Rows per|Batch');
ALTER FOREIGN TABLE dp_ins3 OPTIONS (SET insert_method 'values', ADD batch_size '50');
SELECT dp_explain('INSERT INTO dp_ins3 VALUES (1, ''x'', NULL)', 'Method|Rows per|Batch');
ALTER FOREIGN TABLE dp_ins3 OPTIONS (SET insert_method 'copy');
SELECT dp_explain('INSERT INTO dp_ins3 VALUES (1, ''x'', NULL)', 'Method|Rows per|Batch');
ALTER FOREIGN TABLE dp_ins3 OPTIONS (SET insert_method 'auto', DROP batch_size);
-- generated columns are not sent
CREATE FOREIGN TABLE dp_gen (a int, b int GENERATED ALWAYS AS (a * 2) STORED, c text)
  SERVER pg_remote;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_gen (a, c) VALUES (1, 'x');
ALTER FOREIGN TABLE dp_gen OPTIONS (ADD insert_method 'values');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_gen (a, c) VALUES (1, 'x');

-- 100 columns: 65535 parameters / 100 = 655 rows per statement on
-- postgres, 2090 / 100 = 20 on sqlserver
DO $$
BEGIN
  EXECUTE format('CREATE FOREIGN TABLE dp_wide (%s) SERVER pg_remote'
                 ' OPTIONS (insert_method ''values'')',
                 (SELECT string_agg(format('c%s int', i), ', ' ORDER BY i)
                    FROM generate_series(1, 100) i));
  EXECUTE format('CREATE FOREIGN TABLE dp_wide_ms (%s) SERVER ms_remote'
                 ' OPTIONS (insert_method ''values'')',
                 (SELECT string_agg(format('c%s int', i), ', ' ORDER BY i)
                    FROM generate_series(1, 100) i));
END
$$;
SELECT dp_explain('INSERT INTO dp_wide (c1) VALUES (1)', 'Method|Rows per');
SELECT dp_explain('INSERT INTO dp_wide_ms (c1) VALUES (1)', 'Method|Rows per');
-- sqlserver: at most 1000 rows in a VALUES list, 2090 parameters (auto
-- would take the odbc transport's parameter arrays: values is pinned)
CREATE FOREIGN TABLE dp_ms1 (a int) SERVER ms_remote
  OPTIONS (batch_size '5000', insert_method 'values');
CREATE FOREIGN TABLE dp_ms2 (a int, b int) SERVER ms_remote
  OPTIONS (insert_method 'values');
CREATE FOREIGN TABLE dp_ms3 (a int, b int, c int) SERVER ms_remote
  OPTIONS (insert_method 'values');
SELECT dp_explain('INSERT INTO dp_ms1 VALUES (1)', 'Method|Rows per');
SELECT dp_explain('INSERT INTO dp_ms2 VALUES (1, 2)', 'Method|Rows per');
SELECT dp_explain('INSERT INTO dp_ms3 VALUES (1, 2, 3)', 'Method|Rows per');
-- each dialect's INSERT (auto: odbc has parameter arrays)
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_my VALUES (1, 'x');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ms VALUES (1, 'x');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ora VALUES (1, 'x');
-- MariaDB returns the inserted row where it has INSERT ... RETURNING
-- (10.5+); elsewhere the row is read back by its key.  Plain EXPLAIN
-- does not connect, so it shows both
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_my VALUES (1) RETURNING a;

-- copy is postgres's COPY and mysql's LOAD DATA LOCAL INFILE; sqlserver
-- has no bulk stream
CREATE FOREIGN TABLE dp_my_copy (a int) SERVER my_remote OPTIONS (insert_method 'copy');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_my_copy VALUES (1);
DROP FOREIGN TABLE dp_my_copy;
CREATE FOREIGN TABLE dp_ms_copy (a int) SERVER ms_remote OPTIONS (insert_method 'copy');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ms_copy VALUES (1);
\echo :LAST_ERROR_SQLSTATE
DROP FOREIGN TABLE dp_ms_copy;

-- ON CONFLICT DO NOTHING: postgres and mysql can say it (auto uses VALUES,
-- COPY cannot skip a row)
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ins3 VALUES (1) ON CONFLICT DO NOTHING;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_my VALUES (1) ON CONFLICT DO NOTHING;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ms VALUES (1) ON CONFLICT DO NOTHING;
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ora VALUES (1) ON CONFLICT DO NOTHING;
ALTER FOREIGN TABLE dp_ins3 OPTIONS (SET insert_method 'copy');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_ins3 VALUES (1) ON CONFLICT DO NOTHING;

-- ===================================================================
-- UPDATE and DELETE: whole, or row by row through ctid or the key
-- ===================================================================
-- everything can be said remotely: one statement
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_pg SET b = 'y', d = d + 1 WHERE a = 1;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_pg SET c = now() WHERE a > 5;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_pg WHERE a IN (1, 2);
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_pg;
-- a new value or a condition that is local: fetch, then row by row by ctid
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_pg SET b = md5(b) WHERE a = 1;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_pg WHERE md5(b) = 'x';
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_pg WHERE a = 1 RETURNING a, b;
EXPLAIN (VERBOSE, COSTS OFF)
  UPDATE dp_pg SET b = l.y FROM dp_local l WHERE dp_pg.a = l.x;
-- the key-based dialects
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_my SET d = d + 1 WHERE a = 1;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_my SET b = md5(b) WHERE a = 1;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_my WHERE b = 'x';
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_ms SET b = 'y' WHERE a < 0;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_ms WHERE b = 'x';
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_ora SET e = 0.5 WHERE a = 1;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_ora SET b = md5(b);
-- a key of two columns
ALTER FOREIGN TABLE dp_ora ALTER COLUMN g OPTIONS (ADD key 'true');
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_ora WHERE md5(b) = 'x';
ALTER FOREIGN TABLE dp_ora ALTER COLUMN g OPTIONS (DROP key);
-- SQL Server's OUTPUT is not sent: the row is read by its key before it
-- is deleted
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_ms WHERE a = 1 RETURNING a;
-- no key column: a clear error
CREATE FOREIGN TABLE dp_nokey (a int, b text) SERVER my_remote;
EXPLAIN (VERBOSE, COSTS OFF) UPDATE dp_nokey SET b = 'x' WHERE a = 1;
\echo :LAST_ERROR_SQLSTATE
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_nokey;
CREATE FOREIGN TABLE dp_nokey_ora (a int, b text) SERVER ora_remote;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM dp_nokey_ora WHERE a = 1;
-- INSERT needs no key
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_nokey VALUES (1, 'x');
-- updatable 'false' refuses all three
ALTER FOREIGN TABLE dp_nokey OPTIONS (ADD updatable 'false');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_nokey VALUES (1, 'x');

-- a remote name longer than the dialect allows is refused, never cut
-- (mysql 64 bytes, oracle 128; a remote PostgreSQL would shorten it to
-- 63 and could reach another table)
CREATE FOREIGN TABLE dp_longname (a int) SERVER my_remote
  OPTIONS (table_name 'x23456789012345678901234567890123456789012345678901234567890123456789');
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_longname;
\echo :LAST_ERROR_SQLSTATE
ALTER FOREIGN TABLE dp_longname OPTIONS (SET table_name 'x234567890123456789012345678901234567890123456789012345678901234');
ALTER FOREIGN TABLE dp_longname ALTER COLUMN a OPTIONS (ADD column_name 'y23456789012345678901234567890123456789012345678901234567890123456789');
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM dp_longname;
CREATE FOREIGN TABLE dp_longname_pg (a int) SERVER pg_remote
  OPTIONS (schema_name 'public', table_name 'x234567890123456789012345678901234567890123456789012345678901234');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dp_longname_pg VALUES (1);

-- clean up
DROP FOREIGN TABLE dp_longname, dp_longname_pg;
DROP FOREIGN TABLE dp_pg, dp_my, dp_ms, dp_ora, "dp odd", "dp`odd", "dp]odd",
  "dp""odd", dp_ins3, dp_gen, dp_wide, dp_wide_ms, dp_ms1, dp_ms2, dp_ms3, dp_nokey,
  dp_nokey_ora;
DROP TABLE dp_local;
DROP FUNCTION dp_explain(text, text);
DROP FUNCTION dp_udf(int);
DROP FUNCTION dp_trig();
