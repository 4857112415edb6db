--
-- mysql_infile: insert_method 'copy' for MySQL, that is LOAD DATA LOCAL
-- INFILE fed from memory by the transport's own local-infile handler.
--
-- Runs after mysql_types (it reuses my_types.types_l, its rows of every
-- type).  The test bed's MariaDB starts with local_infile OFF; a server
-- my_root (root over the socket) turns it on and off.  Each change is seen
-- by a new connection: multi_fdw asks the server once per connection.
--
\getenv my_socket MF_MY_SOCKET
\getenv my_db MF_MY_DB
CREATE SCHEMA my_infile;
SET search_path = my_infile, public;
SET TimeZone = 'America/New_York';

CREATE SERVER my_root FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host 'localhost', unix_socket :'my_socket',
           database :'my_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_root OPTIONS (user 'root');
CREATE FUNCTION local_infile(on_off text) RETURNS void LANGUAGE sql AS $$
  SELECT multi_fdw_exec('my_root', 'SET GLOBAL local_infile = ' || on_off);
  SELECT multi_fdw_disconnect('my_real');
$$;

SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS infile_t');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE infile_t (id int PRIMARY KEY, v varchar(10) NOT NULL,
                         n int) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE t (id int, v text, n int)
  SERVER my_real OPTIONS (table_name 'infile_t');
CREATE FOREIGN TABLE t_copy (id int, v text, n int)
  SERVER my_real OPTIONS (table_name 'infile_t', insert_method 'copy');

-- ===================================================================
-- The server refuses local infile: auto falls back to parameter arrays,
-- an explicit copy fails
-- ===================================================================
SELECT local_infile('0');
-- plain EXPLAIN does not connect: auto's choice, and what is used
-- without the stream
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO t SELECT g, 'x', g FROM generate_series(1, 3) g;
-- EXPLAIN ANALYZE shows what the statement used
SELECT public.mf_explain($$EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO t SELECT g, 'x', g FROM generate_series(1, 3) g$$);
SELECT count(*) FROM t;
INSERT INTO t_copy VALUES (10, 'x', 1);
\echo :LAST_ERROR_SQLSTATE
-- ON CONFLICT cannot be streamed at all
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO t VALUES (1, 'x', 1) ON CONFLICT DO NOTHING;
INSERT INTO t_copy VALUES (1, 'x', 1) ON CONFLICT DO NOTHING;
SELECT multi_fdw_exec('my_real', 'DELETE FROM infile_t');

-- ===================================================================
-- The server allows it: auto streams
-- ===================================================================
SELECT local_infile('1');
SELECT public.mf_explain($$EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
INSERT INTO t SELECT g, 'x', g FROM generate_series(1, 3) g$$);
-- counts are exact, in one statement of many LOAD DATAs (1 MB each)
INSERT INTO t SELECT g, 'row ' || g, g FROM generate_series(4, 200000) g;
\echo inserted :ROW_COUNT
SELECT count(*), sum(id), sum(n), count(DISTINCT v) FROM t;
-- the remote counts them too (one row when true)
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM DUAL WHERE (SELECT count(*) FROM infile_t) = 200000$$) AS counted;
-- ON CONFLICT still goes through parameter arrays, and counts what it
-- inserted
INSERT INTO t VALUES (1, 'x', 1), (200001, 'new', 1) ON CONFLICT DO NOTHING;
\echo inserted :ROW_COUNT
SELECT multi_fdw_exec('my_real', 'DELETE FROM infile_t');

-- ===================================================================
-- The handler serves only its own LOAD DATA
-- ===================================================================
-- a statement of the user's asking for one of the gateway's files
\set VERBOSITY terse
SELECT multi_fdw_exec('my_real', $$
  LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE infile_t$$);
\echo :LAST_ERROR_SQLSTATE
-- a name shaped like the handler's, but not issued for this statement
SELECT multi_fdw_exec('my_real', $$
  LOAD DATA LOCAL INFILE 'multi_fdw-load-1-1.tsv' INTO TABLE infile_t$$);
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
-- the connection is in step afterwards
SELECT multi_fdw_exec('my_real', 'SELECT 1');
SELECT count(*) FROM t;

-- ===================================================================
-- Values that need care in the text format
-- ===================================================================
INSERT INTO t VALUES
  (1, E'tab\there', 1), (2, E'nl\nx', 2), (3, E'cr\rx', 3),
  (4, E'back\\\\', 4), (5, '\N', 5), (6, '', 6), (7, 'NULL', NULL),
  (8, E'\\t', 8), (9, 'ü😀', 9);
SELECT id, v, length(v) AS len, n FROM t ORDER BY id;
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM infile_t WHERE id = 5 AND v = '\N'$$) AS backslash_n_stored;
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM infile_t WHERE id = 6 AND v = '' AND n = 6$$) AS empty_stored;
SELECT multi_fdw_exec('my_real', 'DELETE FROM infile_t');

-- ===================================================================
-- Every type round trips exactly as through parameter arrays
-- ===================================================================
CREATE FUNCTION make_remote(name text) RETURNS void LANGUAGE sql AS $$
  SELECT multi_fdw_exec('my_real', format('DROP TABLE IF EXISTS %s', name));
  SELECT multi_fdw_exec('my_real', format('CREATE TABLE %s LIKE types_values', name));
$$;
SELECT make_remote('types_copy');
SELECT make_remote('types_array');
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (types_copy, types_array)
  FROM SERVER my_real INTO my_infile;
ALTER FOREIGN TABLE types_copy OPTIONS (ADD insert_method 'copy');
ALTER FOREIGN TABLE types_array OPTIONS (ADD insert_method 'array');
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO types_copy SELECT * FROM my_types.types_l;
INSERT INTO types_copy SELECT * FROM my_types.types_l;
\echo inserted :ROW_COUNT
INSERT INTO types_array SELECT * FROM my_types.types_l;
\echo inserted :ROW_COUNT
-- rows only on one side, compared as text: 0 everywhere
SELECT method,
  (SELECT count(*) FROM (SELECT l::text FROM my_types.types_l l
     EXCEPT ALL SELECT r::text FROM types_copy r) d) AS local_only_copy,
  (SELECT count(*) FROM (SELECT r::text FROM types_copy r
     EXCEPT ALL SELECT l::text FROM my_types.types_l l) d) AS copy_only,
  (SELECT count(*) FROM (SELECT r::text FROM types_copy r
     EXCEPT ALL SELECT a::text FROM types_array a) d) AS copy_not_array
  FROM (VALUES ('copy')) m(method);
-- and stored the same remotely, byte for byte (one row when true)
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM DUAL WHERE NOT EXISTS (
    SELECT * FROM types_copy c LEFT JOIN types_array a
      ON a.id = c.id AND a.ti <=> c.ti AND a.tiu <=> c.tiu AND a.biu <=> c.biu
     AND a.bo <=> c.bo AND a.bt <=> c.bt AND a.de <=> c.de AND a.fl <=> c.fl
     AND a.db <=> c.db AND BINARY a.vc <=> BINARY c.vc
     AND BINARY a.tx <=> BINARY c.tx AND a.vb <=> c.vb AND a.bl <=> c.bl
     AND a.bn <=> c.bn AND a.d <=> c.d AND a.dt <=> c.dt AND a.ts <=> c.ts
     AND a.tm <=> c.tm AND a.y <=> c.y AND a.js <=> c.js AND a.en <=> c.en
     AND a.st <=> c.st
    WHERE a.id IS NULL)$$) AS same_bytes;
SELECT id, bo, bt, vb = my_types.all_bytes() AS vb_all, length(bl) AS bl_len,
       ts FROM types_copy ORDER BY id;
-- bit strings become the column's number
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS types_odd2');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE types_odd2 (id int PRIMARY KEY, b9 bit(9), b64 bit(64))$$);
CREATE FOREIGN TABLE odd_copy (id int, b9 bit varying(9), b64 bit varying(64))
  SERVER my_real OPTIONS (table_name 'types_odd2', insert_method 'copy');
INSERT INTO odd_copy VALUES (1, B'101', B'1000000000000000000000000000000000000000000000000000000000000001'),
  (2, NULL, B'0');
SELECT * FROM odd_copy ORDER BY id;
SELECT multi_fdw_exec('my_real', 'SELECT 1 FROM types_odd2 WHERE id = 1 AND b9 = 5 AND b64 = 9223372036854775809');

-- ===================================================================
-- Bad values: LOAD DATA LOCAL makes them warnings on the server, and the
-- transport makes the warnings errors; the SQLSTATE is the one the same
-- value gets through parameter arrays, and nothing stays
-- ===================================================================
CREATE FUNCTION try(tab text, cols text, vals text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO %I (id, %s) SELECT g, %s FROM generate_series(100, 103) g',
                 tab, cols, vals);
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;
CREATE TABLE bad (cols text, vals text);
INSERT INTO bad VALUES
  ('tiu', 'CASE WHEN g = 102 THEN -1 ELSE 1 END'),
  ('i', 'CASE WHEN g = 102 THEN 2147483648 ELSE 1 END'),
  ('d', $$CASE WHEN g = 102 THEN '0044-03-15 BC'::date ELSE '2020-01-01' END$$),
  ('dt', $$CASE WHEN g = 102 THEN 'infinity'::timestamp ELSE '2020-01-01' END$$),
  ('fl', $$CASE WHEN g = 102 THEN 'NaN'::real ELSE 1 END$$),
  ('db', $$CASE WHEN g = 102 THEN 'Infinity'::float8 ELSE 1 END$$),
  ('de', $$CASE WHEN g = 102 THEN 'NaN'::numeric ELSE 1 END$$),
  ('en', $$CASE WHEN g = 102 THEN 'huge' ELSE 'small' END$$),
  ('vc', $$CASE WHEN g = 102 THEN repeat('x', 51) ELSE 'x' END$$),
  ('ch', $$CASE WHEN g = 102 THEN 'toolong' ELSE 'x' END$$),
  ('bn', $$CASE WHEN g = 102 THEN '\x0102030405'::bytea ELSE '\x01'::bytea END$$),
  ('js', $$CASE WHEN g = 102 THEN '{"a": 1}' ELSE 'x' END$$);
SELECT cols, try('types_copy', cols, vals) AS copy, try('types_array', cols, vals) AS array
  FROM bad ORDER BY cols;
SELECT count(*) FROM types_copy WHERE id >= 100;
-- the error itself, with the row it names
INSERT INTO types_copy (id, tiu) SELECT g, CASE WHEN g = 102 THEN -1 ELSE 1 END
  FROM generate_series(100, 103) g;

-- a note is no error: rounding to the column's scale, as in an INSERT
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS infile_dec');
SELECT multi_fdw_exec('my_real', 'CREATE TABLE infile_dec (id int PRIMARY KEY, d decimal(5,2))');
CREATE FOREIGN TABLE dec_copy (id int, d numeric)
  SERVER my_real OPTIONS (table_name 'infile_dec', insert_method 'copy');
CREATE FOREIGN TABLE dec_array (id int, d numeric)
  SERVER my_real OPTIONS (table_name 'infile_dec', insert_method 'array');
INSERT INTO dec_copy VALUES (1, 1.234), (2, 2.5);
INSERT INTO dec_array VALUES (3, 1.234);
SELECT * FROM dec_copy ORDER BY id;
SELECT multi_fdw_exec('my_real', 'DROP TABLE infile_dec');

-- NOT NULL and duplicate keys, also within one LOAD DATA
INSERT INTO t SELECT g, CASE WHEN g = 5 THEN NULL ELSE 'x' END, g FROM generate_series(1, 10) g;
INSERT INTO t SELECT g % 7, 'x', g FROM generate_series(1, 10) g;
SELECT count(*) FROM t;
INSERT INTO t VALUES (1, 'x', 1);
INSERT INTO t SELECT g, 'x', g FROM generate_series(100000, 100010) g UNION ALL SELECT 1, 'dup', 1;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM t;
SELECT multi_fdw_exec('my_real', 'DELETE FROM infile_t');

-- ===================================================================
-- Transactions: the rows are the transaction's
-- ===================================================================
BEGIN;
INSERT INTO t SELECT g, 'a', g FROM generate_series(1, 1000) g;
SAVEPOINT s;
INSERT INTO t SELECT g, 'b', g FROM generate_series(1001, 2000) g;
SELECT count(*) FROM t;
ROLLBACK TO s;
SELECT count(*) FROM t;
-- a failing statement in a subtransaction takes only its own rows
SAVEPOINT s2;
INSERT INTO t SELECT g, 'c', g FROM generate_series(2001, 3000) g UNION ALL SELECT 1, 'dup', 1;
ROLLBACK TO s2;
SELECT count(*) FROM t;
COMMIT;
SELECT count(*), min(id), max(id) FROM t;
BEGIN;
INSERT INTO t SELECT g, 'd', g FROM generate_series(5001, 6000) g;
ROLLBACK;
SELECT count(*) FROM t;
SELECT multi_fdw_exec('my_real', 'DELETE FROM infile_t');

-- ===================================================================
-- More than max_allowed_packet in one statement (16 MB here)
-- ===================================================================
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS infile_big');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE infile_big (id int PRIMARY KEY, t longtext) ENGINE=InnoDB$$);
CREATE FOREIGN TABLE big (id int, t text)
  SERVER my_real OPTIONS (table_name 'infile_big', insert_method 'copy');
INSERT INTO big SELECT g, repeat(chr(64 + g), 1000000) FROM generate_series(1, 20) g;
\echo inserted :ROW_COUNT
SELECT count(*), sum(length(t)), count(DISTINCT left(t, 1)) FROM big;
SELECT multi_fdw_exec('my_real', 'DROP TABLE infile_big');

-- ===================================================================
-- COPY into the foreign table
-- ===================================================================
COPY t FROM STDIN;
1	one	1
2	tab\there	2
3	\\N	3
4	back\\slash	\N
\.
SELECT id, v, n FROM t ORDER BY id;
COPY t (id, v) FROM STDIN;
5	five
1	dup
\.
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM t;
-- COPY's other escapes (\b \f \v, octal, hex) are read by PostgreSQL and
-- reach MySQL as the characters they stand for
COPY t FROM STDIN;
6	a\bb\fc\vd\101\x42	6
\.
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM infile_t WHERE id = 6 AND HEX(v) = '6108620C630B644142'$$) AS escapes_stored;
COPY t FROM STDIN (FORMAT csv);
10,"a,b",10
11,"",11
\.
SELECT id, v, n FROM t WHERE id >= 10 ORDER BY id;

-- back to the test bed's setting
SELECT multi_fdw_exec('my_real', 'DROP TABLE infile_t, types_copy, types_array, types_odd2');
SELECT local_infile('0');
DROP SERVER my_root CASCADE;
DROP SCHEMA my_infile CASCADE;
