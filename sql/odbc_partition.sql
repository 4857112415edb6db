--
-- odbc_partition: a local partitioned table whose partitions are foreign
-- tables on odbc servers of three dialects -- sqlserver and oracle over
-- the test bed's MariaDB stand-ins (MSSQL and ORACLE modes, as in
-- sqlserver_batch and oracle_batch), mysql over MariaDB Connector/ODBC
-- (DSN mf_my, as in odbc_mysql) -- and one local partition.  Rows routed
-- by INSERT (batched, one by one with RETURNING, INSERT ... SELECT) and by
-- COPY into the parent, UPDATE and DELETE across the partitions (sent
-- whole, and row by row by key), an UPDATE that moves rows from one
-- partition to another.  After each step the remote tables are read
-- through a server of the mysql transport, not through the odbc path
-- under test, and compared with what the parent shows.
--
-- Runs after pg_init.  Creates its own servers and tables and drops them.
--
\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD

CREATE SCHEMA opart;
SET search_path = opart, public;

CREATE SERVER opart_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db',
           session_sql 'SET SESSION sql_mode = ''MSSQL,STRICT_ALL_TABLES,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
CREATE SERVER opart_ora FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'oracle', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db',
           session_sql 'SET SESSION sql_mode = ''ORACLE,STRICT_ALL_TABLES,EMPTY_STRING_IS_NULL,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
CREATE SERVER opart_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
-- the checker: the mysql transport, reading what the others wrote
CREATE SERVER opart_check FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host :'my_host', port :'my_port',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER opart_ms
  OPTIONS (user :'my_user', password :'my_password');
CREATE USER MAPPING FOR CURRENT_USER SERVER opart_ora
  OPTIONS (user :'my_user', password :'my_password');
CREATE USER MAPPING FOR CURRENT_USER SERVER opart_my
  OPTIONS (user :'my_user', password :'my_password');
CREATE USER MAPPING FOR CURRENT_USER SERVER opart_check
  OPTIONS (user :'my_user', password :'my_password');

SELECT multi_fdw_exec('opart_check', 'DROP TABLE IF EXISTS opart_ms_t, opart_ora_t, opart_my_t');
SELECT multi_fdw_exec('opart_ms', $$
  CREATE TABLE [opart_ms_t] ([id] int PRIMARY KEY, [region] nvarchar(8) NOT NULL,
                             [v] nvarchar(40), [n] decimal(12,2))$$);
SELECT multi_fdw_exec('opart_ora', $$
  CREATE TABLE "opart_ora_t" ("id" NUMBER(10) PRIMARY KEY, "region" VARCHAR2(8) NOT NULL,
                              "v" VARCHAR2(40), "n" NUMBER(12,2))$$);
SELECT multi_fdw_exec('opart_my', $$
  CREATE TABLE "opart_my_t" ("id" int PRIMARY KEY, "region" varchar(8) NOT NULL,
                             "v" varchar(40), "n" decimal(12,2)) ENGINE=InnoDB$$);

CREATE TABLE parent (id int NOT NULL, region text NOT NULL, v text, n numeric(12,2))
  PARTITION BY LIST (region);
CREATE FOREIGN TABLE p_ms PARTITION OF parent FOR VALUES IN ('ms')
  SERVER opart_ms OPTIONS (table_name 'opart_ms_t', batch_size '7');
CREATE FOREIGN TABLE p_ora PARTITION OF parent FOR VALUES IN ('ora')
  SERVER opart_ora OPTIONS (table_name 'opart_ora_t', batch_size '7');
CREATE FOREIGN TABLE p_my PARTITION OF parent FOR VALUES IN ('my')
  SERVER opart_my OPTIONS (table_name 'opart_my_t', batch_size '7');
CREATE TABLE p_local PARTITION OF parent DEFAULT;
ALTER FOREIGN TABLE p_ms ALTER COLUMN id OPTIONS (ADD key 'true');
ALTER FOREIGN TABLE p_ora ALTER COLUMN id OPTIONS (ADD key 'true');
ALTER FOREIGN TABLE p_my ALTER COLUMN id OPTIONS (ADD key 'true');

-- the remote tables as the mysql transport reads them
CREATE FOREIGN TABLE chk_ms (id int, region text, v text, n numeric)
  SERVER opart_check OPTIONS (table_name 'opart_ms_t');
CREATE FOREIGN TABLE chk_ora (id int, region text, v text, n numeric)
  SERVER opart_check OPTIONS (table_name 'opart_ora_t');
CREATE FOREIGN TABLE chk_my (id int, region text, v text, n numeric)
  SERVER opart_check OPTIONS (table_name 'opart_my_t');
CREATE VIEW remote AS
  SELECT 'ms' AS t, * FROM chk_ms
  UNION ALL SELECT 'ora', * FROM chk_ora
  UNION ALL SELECT 'my', * FROM chk_my;
-- every remote row is in the parent, in its own partition, and every
-- foreign partition's row is remote: the count of rows that differ (0)
CREATE FUNCTION differ() RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM (
    (SELECT t, id, region, v, n FROM remote
     EXCEPT ALL
     SELECT region, id, region, v, n FROM parent WHERE region IN ('ms', 'ora', 'my'))
    UNION ALL
    (SELECT region, id, region, v, n FROM parent WHERE region IN ('ms', 'ora', 'my')
     EXCEPT ALL
     SELECT t, id, region, v, n FROM remote)) d;
$$;
-- a summary per remote table: rows, sum of ids, sum of n, a hash of all
CREATE VIEW remote_summary AS
  SELECT t, count(*) AS rows, sum(id) AS ids, sum(n) AS n,
         md5(string_agg(id || ':' || region || ':' || coalesce(v, '-') || ':' ||
                        coalesce(n::text, '-'), ',' ORDER BY id)) AS hash
    FROM remote GROUP BY t ORDER BY t;

--
-- INSERT routed into the partitions: a few rows, then an INSERT ... SELECT
-- of 300 rows (over batch_size 7, so batches and a last short one)
--
INSERT INTO parent VALUES (1, 'ms', 'one', 1.5), (2, 'ora', 'two', 2.25),
  (3, 'my', 'three', NULL), (4, 'local', 'four', 4), (5, 'ms', NULL, -5);
SELECT * FROM remote ORDER BY t, id;
SELECT tableoid::regclass, * FROM parent ORDER BY id;
INSERT INTO parent
  SELECT g, (ARRAY['ms', 'ora', 'my', 'local'])[g % 4 + 1], 'row ' || g, g / 4.0
    FROM generate_series(100, 399) g;
SELECT * FROM remote_summary;
SELECT differ();
SELECT region, count(*) FROM parent GROUP BY region ORDER BY region;

-- one by one, with RETURNING
INSERT INTO parent VALUES (6, 'ora', 'six', 6), (7, 'my', 'seven', 7),
  (8, 'ms', 'eight', 8) RETURNING tableoid::regclass, *;
SELECT * FROM remote WHERE id BETWEEN 6 AND 8 ORDER BY id;

-- a failing row rolls back the rows routed before it, on every server
INSERT INTO parent VALUES (9, 'ms', 'nine', 9), (10, 'ora', 'ten', 10),
  (1, 'ms', 'duplicate', 0);
SELECT count(*) FROM remote WHERE id IN (9, 10);

--
-- COPY into the parent: the rows go to their partitions
--
COPY parent FROM stdin;
500	ms	copy 500	5.5
501	ora	copy 501	\N
502	my	copy 502	502
503	local	copy 503	503
504	ms	tab	\N
505	ora	copy 505	0.01
\.
SELECT * FROM remote WHERE id >= 500 ORDER BY id;
SELECT * FROM p_local WHERE id >= 500;
SELECT * FROM remote_summary;
SELECT differ();

--
-- UPDATE across the partitions, by key (the scans take the conditions)
--
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE parent SET v = 'updated', n = n + 1 WHERE id BETWEEN 150 AND 157;
UPDATE parent SET v = 'updated', n = n + 1 WHERE id BETWEEN 150 AND 157;
SELECT * FROM remote WHERE id BETWEEN 148 AND 159 ORDER BY id;
-- and row by row: a condition checked locally
UPDATE parent SET v = v || '!', n = n + 1 WHERE id % 10 = 0;
SELECT * FROM remote WHERE id % 10 = 0 AND id < 200 ORDER BY id;
SELECT * FROM remote_summary;
SELECT differ();

-- row by row, by key: the condition is a local function
CREATE FUNCTION local_pick(i int) RETURNS boolean LANGUAGE plpgsql AS
  $$ BEGIN RETURN i % 7 = 3; END $$;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE parent SET n = -n WHERE local_pick(id);
UPDATE parent SET n = -n WHERE local_pick(id);
SELECT * FROM remote WHERE id IN (3, 101, 115, 122, 129, 136) ORDER BY id;
SELECT * FROM remote_summary;
SELECT differ();

-- rows that move: from the local partition into a foreign one,
-- PostgreSQL deletes the row and routes it (p_my itself is updated whole:
-- its rows get the key they have)
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE parent SET region = 'my' WHERE id = 4;
UPDATE parent SET region = 'my' WHERE id = 4;
SELECT tableoid::regclass, * FROM parent WHERE id = 4;
SELECT * FROM remote WHERE id = 4;
-- out of a foreign partition it cannot move a row: it hands the new row
-- to the FDW in place, which would leave it on its old remote with the key
-- of another partition.  Refused, row by row and sent whole (a statement
-- pruned to one partition, or on the partition itself)
UPDATE parent SET region = 'ora', v = 'moved' WHERE id IN (1, 8);
UPDATE parent SET region = 'local' WHERE id = 2;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE parent SET region = 'ms' WHERE region = 'ora' AND id = 2;
UPDATE parent SET region = 'ms' WHERE region = 'ora' AND id = 2;
UPDATE p_my SET region = 'ms' WHERE id = 3;
-- a key the row keeps, and other columns, are updated (whole when it can)
UPDATE parent SET region = 'ora', v = 'kept' WHERE id = 2;
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE parent SET v = 'whole' WHERE region = 'ora' AND id = 2;
UPDATE parent SET v = 'whole' WHERE region = 'ora' AND id = 2;
-- a move by hand: DELETE ... RETURNING, then INSERT into the parent
WITH gone AS (DELETE FROM parent WHERE id IN (1, 8) RETURNING *)
INSERT INTO parent SELECT id, 'ora', 'moved', n FROM gone;
SELECT tableoid::regclass, * FROM parent WHERE id IN (1, 2, 3, 4, 8) ORDER BY id;
SELECT * FROM remote WHERE id IN (1, 2, 3, 4, 8) ORDER BY id;
SELECT differ();

--
-- DELETE across the partitions: sent whole, then row by row
--
EXPLAIN (VERBOSE, COSTS OFF)
DELETE FROM parent WHERE id >= 390;
DELETE FROM parent WHERE id >= 390;
DELETE FROM parent WHERE local_pick(id) AND id > 300;
SELECT * FROM remote_summary;
SELECT differ();
SELECT count(*) FROM parent;

-- in a transaction that rolls back, nothing stays on any server
BEGIN;
DELETE FROM parent WHERE id < 200;
INSERT INTO parent VALUES (900, 'ms', 'gone', 0), (901, 'ora', 'gone', 0),
  (902, 'my', 'gone', 0);
ROLLBACK;
SELECT * FROM remote_summary;
SELECT differ();

-- ---------------------------------------------------------------------
-- clean up
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('opart_check', 'DROP TABLE opart_ms_t, opart_ora_t, opart_my_t');
RESET search_path;
DROP SCHEMA opart CASCADE;
DROP SERVER opart_ms, opart_ora, opart_my, opart_check CASCADE;
