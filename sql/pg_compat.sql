--
-- pg_compat: postgres_fdw's answers for row locks, constants beside
-- columns of another remote type, TRUNCATE, and postgres_fdw's options.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
CREATE SCHEMA compat;
SET search_path = compat, public;

\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

SELECT multi_fdw_exec('pg_remote',
  'DROP SCHEMA IF EXISTS compat_r, compat_ext CASCADE');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE SCHEMA compat_r;
  CREATE TABLE compat_r.lk (id int PRIMARY KEY, v text);
  INSERT INTO compat_r.lk SELECT g, 'v' || g FROM generate_series(1, 4) g;
  CREATE TYPE compat_r.mood AS ENUM ('sad', 'ok', 'happy');
  CREATE TABLE compat_r.en (id int, c8 compat_r.mood, vc varchar(10));
  INSERT INTO compat_r.en VALUES (1, 'sad', 'a'), (2, 'happy', 'b');
  CREATE TYPE compat_r.cs AS ENUM ('b', 'a', 'B');
  CREATE TABLE compat_r.en2 (id int, c compat_r.cs, arr compat_r.cs[],
                             ch compat_r.cs);
  INSERT INTO compat_r.en2 VALUES (1, 'b', '{b}', 'b'), (2, 'a', '{a}', 'a'),
                                  (3, 'B', '{B}', 'B')$$);

-- a second server on the same remote: its own connection, so its locks
-- are another remote transaction's
CREATE SERVER pg_other FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_other
  OPTIONS (user :'pg_user', password :'pg_password');

CREATE FOREIGN TABLE lk (id int, v text)
  SERVER pg_remote OPTIONS (schema_name 'compat_r');
CREATE FOREIGN TABLE lk_other (id int, v text)
  SERVER pg_other OPTIONS (schema_name 'compat_r', table_name 'lk');
CREATE TABLE loc (id int);
INSERT INTO loc VALUES (1), (2);

-- ===================================================================
-- row locks: the strength and wait policy the query asked for
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM lk FOR SHARE;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM lk FOR KEY SHARE;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM lk FOR NO KEY UPDATE;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM lk FOR UPDATE NOWAIT;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM lk FOR SHARE SKIP LOCKED;
-- FOR UPDATE OF a local table locks no foreign row
EXPLAIN (VERBOSE, COSTS OFF)
SELECT * FROM loc JOIN lk USING (id) FOR UPDATE OF loc;
-- ... and FOR UPDATE OF the foreign one does
EXPLAIN (VERBOSE, COSTS OFF)
SELECT * FROM loc JOIN lk USING (id) FOR UPDATE OF lk;
-- an UPDATE of a local table joined to a foreign one locks no foreign row
EXPLAIN (VERBOSE, COSTS OFF)
UPDATE loc SET id = loc.id FROM lk WHERE lk.id = loc.id;

-- a foreign partition that an UPDATE of its parent changes row by row
SELECT multi_fdw_exec('pg_remote',
  'CREATE TABLE compat_r.part1 (a int, b text)');
CREATE TABLE pt (a int, b text) PARTITION BY LIST (a);
CREATE FOREIGN TABLE pt1 PARTITION OF pt FOR VALUES IN (1)
  SERVER pg_remote OPTIONS (schema_name 'compat_r', table_name 'part1');
EXPLAIN (VERBOSE, COSTS OFF) UPDATE pt SET b = md5(b) WHERE a = 1;

-- what the remote does with them: another transaction holds row 1
SET statement_timeout = '10s';
BEGIN;
SELECT * FROM lk_other WHERE id = 1 FOR SHARE;
-- two share locks do not conflict
SELECT * FROM lk WHERE id = 1 FOR SHARE NOWAIT;
-- joined to a local table locked FOR UPDATE, the foreign row is not locked
SELECT loc.id, lk.v FROM loc JOIN lk USING (id) ORDER BY 1 FOR UPDATE OF loc;
-- SKIP LOCKED skips the remote row that another transaction locked
SELECT * FROM lk_other WHERE id = 2 FOR UPDATE;
SELECT * FROM lk ORDER BY id FOR UPDATE SKIP LOCKED;
-- NOWAIT fails at once on it
SELECT * FROM lk WHERE id = 2 FOR UPDATE NOWAIT;
ROLLBACK;
RESET statement_timeout;

-- the other dialects: MySQL/MariaDB, Oracle, and SQL Server's refusal
CREATE FOREIGN TABLE my_lk (id int, v text) SERVER my_remote;
CREATE FOREIGN TABLE ora_lk (id int, v text) SERVER ora_remote;
CREATE FOREIGN TABLE ms_lk (id int OPTIONS (key 'true'), v text)
  SERVER ms_remote;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM my_lk FOR SHARE;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM my_lk FOR UPDATE SKIP LOCKED;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM my_lk FOR KEY SHARE NOWAIT;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM ora_lk FOR SHARE;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM ora_lk FOR UPDATE NOWAIT;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM ms_lk FOR UPDATE;
-- rows SQL Server is to update are still read, unlocked
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM ms_lk WHERE v || 'x' = 'ax';

-- ===================================================================
-- a constant beside a column whose remote type differs
-- ===================================================================
CREATE FOREIGN TABLE en (id int, c8 text, vc varchar(10))
  SERVER pg_remote OPTIONS (schema_name 'compat_r');
-- the literal stays untyped, so the remote reads it as its enum
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en WHERE c8 = 'happy';
SELECT id FROM en WHERE c8 = 'happy';
SELECT id FROM en WHERE 'sad' = c8;
SELECT id FROM en WHERE c8 <> 'sad' AND c8 IS NOT NULL;
-- ordering: the remote orders an enum by its labels' positions (sad < ok
-- < happy), we order the text; wherever the remote orders the column (<,
-- >, ORDER BY, min and max) it goes cast to text, and the answers are ours
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en WHERE c8 > 'ok';
SELECT id FROM en WHERE c8 > 'ok';
SELECT id FROM en WHERE c8 <= 'ok' OR c8 < vc;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, c8 FROM en ORDER BY c8 LIMIT 5;
SELECT id, c8 FROM en ORDER BY c8 LIMIT 5;
EXPLAIN (VERBOSE, COSTS OFF) SELECT min(c8), max(c8) FROM en;
SELECT min(c8), max(c8) FROM en;
-- the same for a column of its own collation (the cast is named it: an
-- enum's text takes the remote's default collation), a text array, a
-- char(n), the pattern operators; each answer beside the same rows here
CREATE FOREIGN TABLE en2 (id int, c text, arr text[], ch char(1))
  SERVER pg_remote OPTIONS (schema_name 'compat_r');
CREATE FOREIGN TABLE en2_icu (id int, c text COLLATE "en-x-icu")
  SERVER pg_remote OPTIONS (schema_name 'compat_r', table_name 'en2');
CREATE TABLE en2_here AS SELECT * FROM en2;
CREATE TABLE en2_icu_here (id int, c text COLLATE "en-x-icu");
INSERT INTO en2_icu_here SELECT id, c FROM en2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en2_icu WHERE c > 'a';
SELECT (SELECT array_agg(id ORDER BY id) FROM en2_icu WHERE c > 'a') AS remote,
       (SELECT array_agg(id ORDER BY id) FROM en2_icu_here WHERE c > 'a') AS here;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en2_icu ORDER BY c;
SELECT (SELECT array_agg(id) FROM (SELECT id FROM en2_icu ORDER BY c) s) AS remote,
       (SELECT array_agg(id) FROM (SELECT id FROM en2_icu_here ORDER BY c) s) AS here;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en2 WHERE arr > '{a}' OR ch > 'a';
SELECT (SELECT array_agg(id ORDER BY id) FROM en2 WHERE arr > '{a}') AS remote,
       (SELECT array_agg(id ORDER BY id) FROM en2_here WHERE arr > '{a}') AS here;
SELECT (SELECT array_agg(id) FROM (SELECT id FROM en2 ORDER BY arr) s) AS remote,
       (SELECT array_agg(id) FROM (SELECT id FROM en2_here ORDER BY arr) s) AS here;
SELECT (SELECT array_agg(id ORDER BY id) FROM en2 WHERE ch > 'a') AS remote,
       (SELECT array_agg(id ORDER BY id) FROM en2_here WHERE ch > 'a') AS here;
SELECT (SELECT max(ch) FROM en2) AS remote, (SELECT max(ch) FROM en2_here) AS here;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en2 WHERE c ~>~ 'a';
SELECT (SELECT array_agg(id ORDER BY id) FROM en2 WHERE c ~>~ 'a') AS remote,
       (SELECT array_agg(id ORDER BY id) FROM en2_here WHERE c ~>~ 'a') AS here;
-- an IN list of constants stays untyped as a single constant does; a
-- parameter goes typed, and the column beside it cast (before: "operator
-- does not exist: compat_r.cs = text")
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en2 WHERE c IN ('a', 'B');
SELECT array_agg(id ORDER BY id) FROM en2 WHERE c IN ('a', 'B');
SELECT array_agg(id ORDER BY id) FROM en2 WHERE ch IN ('a', 'B');
SET plan_cache_mode = force_generic_plan;
PREPARE en2_eq(text) AS SELECT id FROM en2 WHERE c = $1;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE en2_eq('a');
EXECUTE en2_eq('a');
PREPARE en2_any(text[]) AS SELECT id FROM en2 WHERE c = ANY ($1) ORDER BY id;
EXECUTE en2_any('{a,B}');
RESET plan_cache_mode;
-- a dependent join's keys: the column cast, so a list of text keys works,
-- and a key range orders as here
CREATE TABLE en2_keys (c text);
INSERT INTO en2_keys VALUES ('a'), ('B');
ANALYZE en2_keys;
SET multi_fdw.dependent_join = on;
EXPLAIN (VERBOSE, COSTS OFF) SELECT t.id FROM en2_keys k JOIN en2 t ON t.c = k.c;
SELECT array_agg(t.id ORDER BY t.id) FROM en2_keys k JOIN en2 t ON t.c = k.c;
SET multi_fdw.dependent_join_max_keys = 1;
SELECT array_agg(t.id ORDER BY t.id) FROM en2_keys k JOIN en2 t ON t.c = k.c;
RESET multi_fdw.dependent_join_max_keys;
RESET multi_fdw.dependent_join;
-- varchar compared as text, through its implicit cast
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en WHERE vc = 'b';
SELECT id FROM en WHERE vc = 'b';
-- a constant of another type than the column keeps its cast
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en WHERE id = 2::bigint;
-- beside a column inside an expression it is untyped too; beside the
-- expression it keeps its cast (as postgres_fdw writes them)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM en WHERE c8 || 'x' = 'happyx';
-- other dialects are unchanged
CREATE FOREIGN TABLE my_en (id int, c8 text OPTIONS (text_pushdown 'true'))
  SERVER my_remote;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM my_en WHERE c8 = 'happy';

-- ===================================================================
-- TRUNCATE
-- ===================================================================
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE compat_r.tp (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v int);
  CREATE TABLE compat_r.tc (p int REFERENCES compat_r.tp);
  CREATE TABLE compat_r.tx (v int);
  CREATE TABLE compat_r.tx2 (v int);
  INSERT INTO compat_r.tp (v) SELECT g FROM generate_series(1, 3) g;
  INSERT INTO compat_r.tc VALUES (1), (2);
  INSERT INTO compat_r.tx VALUES (1);
  INSERT INTO compat_r.tx2 VALUES (1)$$);
CREATE FOREIGN TABLE tp (id int, v int) SERVER pg_remote
  OPTIONS (schema_name 'compat_r');
CREATE FOREIGN TABLE tc (p int) SERVER pg_remote
  OPTIONS (schema_name 'compat_r');
CREATE FOREIGN TABLE tx (v int) SERVER pg_remote
  OPTIONS (schema_name 'compat_r');
CREATE FOREIGN TABLE tx_other (v int) SERVER pg_other
  OPTIONS (schema_name 'compat_r', table_name 'tx2');
-- the remote refuses a referenced table alone (RESTRICT, as postgres_fdw)
TRUNCATE tp;
-- both in one remote statement
TRUNCATE tp, tc;
SELECT (SELECT count(*) FROM tp) AS tp, (SELECT count(*) FROM tc) AS tc;
-- CONTINUE IDENTITY by default, RESTART IDENTITY when asked
SELECT multi_fdw_exec('pg_remote', 'INSERT INTO compat_r.tp (v) VALUES (0)');
SELECT id FROM tp;
TRUNCATE tp, tc RESTART IDENTITY;
SELECT multi_fdw_exec('pg_remote', 'INSERT INTO compat_r.tp (v) VALUES (0)');
SELECT id FROM tp;
-- CASCADE reaches the remote's referencing tables
SELECT multi_fdw_exec('pg_remote', 'INSERT INTO compat_r.tc VALUES (1)');
TRUNCATE tp CASCADE;
SELECT (SELECT count(*) FROM tp) AS tp, (SELECT count(*) FROM tc) AS tc;
-- inside the remote transaction: a local rollback undoes it
BEGIN;
TRUNCATE tx;
SELECT count(*) FROM tx;
ROLLBACK;
SELECT count(*) FROM tx;
-- tables of two servers, with a local one
CREATE TABLE tloc (v int);
INSERT INTO tloc VALUES (1);
TRUNCATE tx, tx_other, tloc;
SELECT (SELECT count(*) FROM tx) AS tx, (SELECT count(*) FROM tx_other) AS tx2,
       (SELECT count(*) FROM tloc) AS tloc;
-- truncatable: on the table, on the server, the table's winning
ALTER FOREIGN TABLE tx OPTIONS (ADD truncatable 'false');
TRUNCATE tx;
ALTER SERVER pg_other OPTIONS (ADD truncatable 'false');
TRUNCATE tx_other;
ALTER FOREIGN TABLE tx_other OPTIONS (ADD truncatable 'true');
TRUNCATE tx_other;
ALTER SERVER pg_other OPTIONS (DROP truncatable);
ALTER FOREIGN TABLE tx OPTIONS (SET truncatable 'yes');
TRUNCATE tx;
ALTER FOREIGN TABLE tx OPTIONS (SET truncatable 'maybe');
-- the other dialects, refused before anything is sent: more than they
-- can say (these servers point at nothing)
CREATE FOREIGN TABLE ora_t (v int) SERVER ora_remote;
CREATE FOREIGN TABLE ms_t (v int) SERVER ms_remote;
TRUNCATE ora_t RESTART IDENTITY;
TRUNCATE ora_t CASCADE;
TRUNCATE ms_t CASCADE;
BEGIN;
TRUNCATE ora_t;
ROLLBACK;

-- ===================================================================
-- postgres_fdw's options
-- ===================================================================
-- fdw_startup_cost and fdw_tuple_cost, on servers only (as postgres_fdw)
CREATE FUNCTION compat_cost(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  EXECUTE 'EXPLAIN ' || q INTO l;
  RETURN substring(l FROM 'cost=([0-9.]+\.\.[0-9.]+)');
END $$;
SELECT compat_cost('SELECT * FROM lk_other');
ALTER SERVER pg_other OPTIONS (ADD fdw_startup_cost '1000', ADD fdw_tuple_cost '1.5');
SELECT compat_cost('SELECT * FROM lk_other');
ALTER SERVER pg_other OPTIONS (SET fdw_startup_cost '-1');
ALTER SERVER pg_other OPTIONS (SET fdw_tuple_cost 'cheap');
\set VERBOSITY terse
ALTER FOREIGN TABLE lk_other OPTIONS (ADD fdw_startup_cost '1');
\set VERBOSITY default
ALTER SERVER pg_other OPTIONS (DROP fdw_startup_cost, DROP fdw_tuple_cost);

-- sslpassword belongs to a user mapping; libpq takes it
ALTER USER MAPPING FOR CURRENT_USER SERVER pg_other
  OPTIONS (ADD sslpassword 'unused');
SELECT count(*) FROM lk_other;
\set VERBOSITY terse
ALTER SERVER pg_other OPTIONS (ADD sslpassword 'x');
\set VERBOSITY default

-- service names a definition in a file of this host: a superuser's
CREATE SERVER pg_svc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', service 'mf_no_such_service');
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_svc
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT multi_fdw_exec('pg_svc', 'SELECT 1');
CREATE ROLE regress_mf_compat;
GRANT USAGE ON FOREIGN DATA WRAPPER multi_fdw TO regress_mf_compat;
SET ROLE regress_mf_compat;
CREATE SERVER pg_svc2 FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', service 'mf_no_such_service');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP USER MAPPING FOR CURRENT_USER SERVER pg_svc;
DROP SERVER pg_svc;
REVOKE USAGE ON FOREIGN DATA WRAPPER multi_fdw FROM regress_mf_compat;
DROP ROLE regress_mf_compat;

-- application_name: its escapes, and multi_fdw.application_name first
CREATE FOREIGN TABLE remote_act (application_name text, pid int)
  SERVER pg_remote
  OPTIONS (schema_name 'pg_catalog', table_name 'pg_stat_activity');
SET application_name = 'compat_app';
ALTER SERVER pg_other
  OPTIONS (ADD application_name 'mfc|%a|%u|%d|%p|%C|%c|%%|%z|');
SELECT count(*) FROM lk_other;
-- (the remote keeps 63 bytes of it: a longer user or cluster name than the
-- test bed's, as under pg_virtualenv, cuts the end off)
SELECT a.application_name = left(format('mfc|compat_app|%s|%s|%s|%s|%s|%%||',
         session_user, current_database(), pg_backend_pid(),
         current_setting('cluster_name'),
         (SELECT to_hex(trunc(extract(epoch FROM backend_start))::bigint) || '.' ||
                 to_hex(pid)
            FROM pg_stat_activity WHERE pid = pg_backend_pid())), 63) AS expanded
  FROM remote_act a WHERE a.application_name LIKE 'mfc|%';
SET multi_fdw.application_name = 'mfg-%p';
SELECT multi_fdw_disconnect('pg_other');
SELECT count(*) FROM lk_other;
SELECT application_name = 'mfg-' || pg_backend_pid() AS from_setting
  FROM remote_act WHERE application_name LIKE 'mf_-%';
-- a setting that expands to nothing gives way to the server's option
SET multi_fdw.application_name = '%z';
SELECT multi_fdw_disconnect('pg_other');
SELECT count(*) FROM lk_other;
SELECT count(*) FROM remote_act WHERE application_name LIKE 'mfc|compat_app|%';
RESET multi_fdw.application_name;
RESET application_name;
ALTER SERVER pg_other OPTIONS (DROP application_name);

-- use_remote_estimate: the remote planner's rows
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE compat_r.est (id int, g int);
  INSERT INTO compat_r.est SELECT i, i % 5 FROM generate_series(1, 1000) i;
  ANALYZE compat_r.est$$);
CREATE FOREIGN TABLE est (id int, g int) SERVER pg_remote
  OPTIONS (schema_name 'compat_r');
CREATE FUNCTION compat_rows(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  EXECUTE 'EXPLAIN ' || q INTO l;
  RETURN substring(l FROM 'rows=([0-9]+)');
END $$;
SELECT compat_rows('SELECT * FROM est WHERE g = 3');
ALTER FOREIGN TABLE est OPTIONS (ADD use_remote_estimate 'true');
SELECT compat_rows('SELECT * FROM est WHERE g = 3');
SELECT compat_rows('SELECT * FROM est');
-- a local condition's selectivity applies on top of the remote's rows
SELECT compat_rows('SELECT * FROM est WHERE g = 3 AND id::text = md5(''x'')');
-- a condition whose value is a parameter is left out of the remote EXPLAIN
SELECT compat_rows('SELECT * FROM est WHERE g = (SELECT 3)');
-- on the server, the table's option winning
ALTER FOREIGN TABLE est OPTIONS (DROP use_remote_estimate);
ALTER SERVER pg_remote OPTIONS (ADD use_remote_estimate 'true');
SELECT compat_rows('SELECT * FROM est WHERE g = 3');
ALTER FOREIGN TABLE est OPTIONS (ADD use_remote_estimate 'false');
SELECT compat_rows('SELECT * FROM est WHERE g = 3');
ALTER SERVER pg_remote OPTIONS (DROP use_remote_estimate);
-- a dialect whose remote gives no estimate says so
ALTER SERVER my_remote OPTIONS (ADD use_remote_estimate 'true');
ALTER FOREIGN TABLE my_lk OPTIONS (ADD use_remote_estimate 'true');
EXPLAIN SELECT * FROM my_lk;

-- extensions: an extension's immutable operators and functions, and its
-- types, shipped by qualified names to a remote that has it too
CREATE SCHEMA compat_ext;
CREATE EXTENSION citext SCHEMA compat_ext;
SELECT multi_fdw_exec('pg_remote', $$
  CREATE SCHEMA compat_ext;
  CREATE EXTENSION citext SCHEMA compat_ext;
  CREATE TABLE compat_r.ci (id int, c compat_ext.citext);
  INSERT INTO compat_r.ci VALUES (1, 'Abc'), (2, 'xBz')$$);
CREATE FOREIGN TABLE ci (id int, c compat_ext.citext) SERVER pg_other
  OPTIONS (schema_name 'compat_r');
SET search_path = compat, compat_ext, public;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ci WHERE c = 'ABC';
ALTER SERVER pg_other OPTIONS (ADD extensions 'citext');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ci WHERE c = 'ABC';
SELECT id FROM ci WHERE c = 'ABC';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ci WHERE citext_cmp(c, 'XBZ') = 0;
SELECT id FROM ci WHERE citext_cmp(c, 'XBZ') = 0;
-- a function inlined into built-ins stays local, as built-in functions do
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ci WHERE strpos(c, 'b') = 2;
SET search_path = compat, public;
-- names not installed here are skipped, with a warning
ALTER SERVER pg_other OPTIONS (SET extensions 'citext, compat_missing');
ALTER SERVER pg_other OPTIONS (SET extensions 'citext,');
ALTER SERVER pg_other OPTIONS (DROP extensions);
ALTER SERVER my_remote OPTIONS (ADD extensions 'citext');

-- import_collate: a collation other than the type's comes along
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE compat_r.coll (a text COLLATE "C", b text, c int)$$);
CREATE SCHEMA compat_imp;
IMPORT FOREIGN SCHEMA compat_r LIMIT TO (coll) FROM SERVER pg_remote
  INTO compat_imp;
SELECT attname, collname FROM pg_attribute
  LEFT JOIN pg_collation co ON co.oid = attcollation
 WHERE attrelid = 'compat_imp.coll'::regclass AND attnum > 0 ORDER BY attnum;
DROP FOREIGN TABLE compat_imp.coll;
IMPORT FOREIGN SCHEMA compat_r LIMIT TO (coll) FROM SERVER pg_remote
  INTO compat_imp OPTIONS (import_collate 'false');
SELECT attname, collname FROM pg_attribute
  LEFT JOIN pg_collation co ON co.oid = attcollation
 WHERE attrelid = 'compat_imp.coll'::regclass AND attnum > 0 ORDER BY attnum;
-- a name that needs quotes, a dot inside them: written again from its
-- parts, each quoted (nothing else the remote says reaches the statement)
SELECT multi_fdw_exec('pg_remote', $$
  CREATE COLLATION compat_r."Odd ""c"".x" FROM "C"$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE compat_r.coll2 (a text COLLATE compat_r."Odd ""c"".x")$$);
CREATE SCHEMA compat_r;
CREATE COLLATION compat_r."Odd ""c"".x" FROM "C";
IMPORT FOREIGN SCHEMA compat_r LIMIT TO (coll2) FROM SERVER pg_remote
  INTO compat_imp;
SELECT attname, collname FROM pg_attribute
  LEFT JOIN pg_collation co ON co.oid = attcollation
 WHERE attrelid = 'compat_imp.coll2'::regclass AND attnum > 0 ORDER BY attnum;
DROP SCHEMA compat_imp CASCADE;
DROP SCHEMA compat_r CASCADE;

-- ===================================================================
-- clean up
-- ===================================================================
SET client_min_messages = warning;
DROP SCHEMA compat CASCADE;
DROP SCHEMA compat_ext CASCADE;
DROP SERVER pg_other CASCADE;
RESET client_min_messages;
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA compat_r, compat_ext CASCADE');
