--
-- pg_fastpath: the bulk paths to PostgreSQL and their failure modes.
-- COPY kept open across batches and finished early when a scan needs the
-- connection; pipelined INSERT with exact ON CONFLICT counts; errors in the
-- middle of a COPY and of a pipeline leaving nothing remotely; COPY into
-- foreign tables and foreign partitions; pipelined UPDATE/DELETE; scans
-- reading ahead and asynchronous Append.
--
\set SHOW_CONTEXT always
SELECT multi_fdw_exec('pg_remote', $$
  DROP SCHEMA IF EXISTS fast_r CASCADE;
  CREATE SCHEMA fast_r;
  CREATE TABLE fast_r.src (a int PRIMARY KEY, t text);
  CREATE TABLE fast_r.dst (a int PRIMARY KEY, t text);
  CREATE TABLE fast_r.parent (id int PRIMARY KEY);
  CREATE TABLE fast_r.child (id int PRIMARY KEY, parent int REFERENCES fast_r.parent);
  CREATE TABLE fast_r.part_a (a int PRIMARY KEY, k text);
  CREATE TABLE fast_r.part_b (a int PRIMARY KEY, k text)$$);
CREATE SCHEMA fast;
SET search_path = fast, public;
CREATE FOREIGN TABLE src (a int, t text) SERVER pg_remote
  OPTIONS (schema_name 'fast_r', fetch_size '700');
CREATE FOREIGN TABLE dst (a int, t text) SERVER pg_remote
  OPTIONS (schema_name 'fast_r');
CREATE FOREIGN TABLE parent (id int) SERVER pg_remote
  OPTIONS (schema_name 'fast_r');
CREATE FOREIGN TABLE child (id int, parent int) SERVER pg_remote
  OPTIONS (schema_name 'fast_r');
CREATE FUNCTION remote_count(tab text) RETURNS bigint LANGUAGE sql
  AS $$ SELECT multi_fdw_exec('pg_remote', 'SELECT 1 FROM fast_r.' || tab) $$;

-- COPY is what auto sends, and EXPLAIN says so
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dst SELECT a, t FROM src;
INSERT INTO src SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT remote_count('src');

-- A scan and an open COPY on one connection: the scan of src (fetching 700
-- rows at a time, reading ahead) and the COPY into dst (open across
-- batches of 1000) take turns, each finishing the other's stream first.
INSERT INTO dst SELECT a, upper(t) FROM src;
SELECT count(*), sum(a), min(t), max(t) FROM dst;

-- a remote error in the middle of a COPY: the remote SQLSTATE, the row of
-- the statement that failed, and nothing of the statement left
INSERT INTO dst SELECT g, 'new' FROM generate_series(5001, 7000) g
  UNION ALL SELECT 42, 'duplicate';
\echo :LAST_ERROR_SQLSTATE
SELECT remote_count('dst');
INSERT INTO dst VALUES (9001, E'tab\there'), (9002, NULL), (9003, 'bad\'), (9001, 'again');
\echo :LAST_ERROR_SQLSTATE
SELECT remote_count('dst');

-- the pipeline: several multi-row INSERTs in flight per executor batch
ALTER FOREIGN TABLE dst OPTIONS (ADD insert_method 'pipeline',
                                 ADD batch_size '100', ADD pipeline_depth '4');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO dst SELECT a, t FROM src;
INSERT INTO dst SELECT g, 'p' FROM generate_series(10001, 12345) g;
SELECT remote_count('dst');
-- ON CONFLICT DO NOTHING counts what the remote inserted (1000 of 2000)
INSERT INTO dst SELECT g, 'p' FROM generate_series(11346, 13345) g
  ON CONFLICT DO NOTHING;
SELECT remote_count('dst');
-- an error in the middle of a pipeline: surfaced before the statement
-- ends, and none of its rows stay remotely
INSERT INTO dst SELECT g, 'r' FROM generate_series(20001, 21000) g
  UNION ALL SELECT 10500, 'duplicate'
  UNION ALL SELECT g, 'r' FROM generate_series(21001, 22000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM dst WHERE a > 20000;
-- auto picks the pipeline for ON CONFLICT, which COPY cannot do
ALTER FOREIGN TABLE dst OPTIONS (DROP insert_method);
EXPLAIN (VERBOSE, COSTS OFF)
  INSERT INTO dst SELECT a, t FROM src ON CONFLICT DO NOTHING;
INSERT INTO dst SELECT g, 'q' FROM generate_series(13001, 14000) g
  ON CONFLICT DO NOTHING;
-- and inside a transaction, the savepoint keeps what came before
BEGIN;
INSERT INTO dst SELECT g, 's' FROM generate_series(30001, 30500) g;
SAVEPOINT sp;
INSERT INTO dst SELECT g, 's' FROM generate_series(30501, 31000) g
  UNION ALL SELECT 30001, 'duplicate';
ROLLBACK TO SAVEPOINT sp;
INSERT INTO dst SELECT g, 's' FROM generate_series(31001, 31100) g;
COMMIT;
SELECT count(*) FROM dst WHERE a > 30000;
ALTER FOREIGN TABLE dst OPTIONS (DROP batch_size, DROP pipeline_depth);

-- COPY into a foreign table is batched through the same machinery
COPY dst (a) FROM PROGRAM 'seq 40001 45000' (FORMAT csv);
SELECT count(*), min(a), max(a), count(t) FROM dst WHERE a > 40000;
COPY dst (a, t) FROM STDIN (FORMAT csv);
50001,"comma, inside"
50002,"quote "" inside"
50003,
50004,"line
break"
\.
SELECT a, t FROM dst WHERE a > 50000 ORDER BY a;
-- a bad row in a COPY names its line
COPY dst (a, t) FROM STDIN (FORMAT csv);
50010,fine
50001,duplicate
\.
SELECT count(*) FROM dst WHERE a >= 50010;

-- COPY into a partitioned table with foreign partitions
CREATE TABLE parted (a int, k text) PARTITION BY LIST (k);
CREATE FOREIGN TABLE parted_a PARTITION OF parted FOR VALUES IN ('a')
  SERVER pg_remote OPTIONS (schema_name 'fast_r', table_name 'part_a');
CREATE FOREIGN TABLE parted_b PARTITION OF parted FOR VALUES IN ('b')
  SERVER pg_remote OPTIONS (schema_name 'fast_r', table_name 'part_b');
CREATE TABLE parted_local PARTITION OF parted FOR VALUES IN ('l');
COPY parted FROM PROGRAM 'seq 1 3000 | awk ''{ print $1 "," substr("abl", $1 % 3 + 1, 1) }''' (FORMAT csv);
SELECT tableoid::regclass, count(*), min(a), max(a) FROM parted GROUP BY 1 ORDER BY 1;
SELECT remote_count('part_a'), remote_count('part_b');
-- and INSERT routing, batched per partition
INSERT INTO parted SELECT g, substr('abl', g % 3 + 1, 1) FROM generate_series(3001, 6000) g;
SELECT tableoid::regclass, count(*) FROM parted GROUP BY 1 ORDER BY 1;

-- UPDATE and DELETE that cannot be sent whole: per-row statements,
-- pipelined; the scan's fetches take the connection back in between
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM src WHERE md5(t) <> '' AND a <= 2000;
DELETE FROM src WHERE md5(t) <> '' AND a <= 2000;
SELECT count(*), min(a) FROM src;
UPDATE src SET t = t || '!' WHERE md5(t) <> '' AND a <= 3000;
SELECT count(*) FILTER (WHERE t LIKE '%!') AS changed, count(*) FROM src;
-- a failing row statement in the pipeline leaves nothing of the statement
INSERT INTO parent SELECT g FROM generate_series(1, 100) g;
INSERT INTO child VALUES (1, 50);
DELETE FROM parent WHERE md5(id::text) <> '';
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM parent;
-- RETURNING needs each answer: not pipelined, still right
DELETE FROM parent WHERE md5(id::text) <> '' AND id > 95 RETURNING id;

-- scans under an async Append: partitions read at the same time
ALTER FOREIGN TABLE parted_a OPTIONS (ADD async_capable 'true');
ALTER FOREIGN TABLE parted_b OPTIONS (ADD async_capable 'true');
EXPLAIN (COSTS OFF) SELECT count(*) FROM parted;
SELECT count(*), sum(a) FROM parted;
SELECT k, count(*) FROM parted WHERE a % 7 = 0 GROUP BY k ORDER BY k;
SELECT count(*) FROM parted p JOIN src s USING (a) WHERE p.k <> 'l';
SELECT a, k FROM parted WHERE a BETWEEN 10 AND 14 ORDER BY a;
-- several async scans of one table share its connection: only the scan
-- whose FETCH is out waits on the socket, and while the Append builds its
-- wait set none takes the link from another (a filter checked here that
-- rejects whole batches keeps each scan asking; this once failed with
-- "epoll_ctl() failed: File exists", the socket added twice)
CREATE FOREIGN TABLE src_async (a int, t text) SERVER pg_remote
  OPTIONS (schema_name 'fast_r', table_name 'src', fetch_size '50',
           async_capable 'true');
CREATE FUNCTION here(int) RETURNS int LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN $1; END $$;
EXPLAIN (COSTS OFF) SELECT count(*), sum(a) FROM (
  SELECT a FROM src_async WHERE here(a) > 4990
  UNION ALL SELECT a FROM src_async WHERE here(a) > 4980
  UNION ALL SELECT a FROM src_async WHERE here(a) > 4970) s;
SELECT count(*), sum(a) FROM (
  SELECT a FROM src_async WHERE here(a) > 4990
  UNION ALL SELECT a FROM src_async WHERE here(a) > 4980
  UNION ALL SELECT a FROM src_async WHERE here(a) > 4970) s;
SELECT count(*), sum(a) FROM (
  SELECT a FROM src_async WHERE here(a) % 1000 = 0
  UNION ALL SELECT a FROM src_async WHERE here(a) % 999 = 0
  UNION ALL SELECT a FROM src_async WHERE here(a) % 998 = 0
  UNION ALL SELECT a FROM src_async WHERE here(a) % 500 = 0) s;
-- a filter checked here that queries the same server: it runs only while
-- no socket is in the Append's wait set, since its claim of the link would
-- read the answer a registered scan waits for (this failed with the same
-- error, or waited until a timeout); the remote view is slow, so that
-- FETCHes are still out when the Append builds its set
SELECT multi_fdw_exec('pg_remote', $$CREATE VIEW fast_r.src_slow AS
  SELECT a, t FROM fast_r.src WHERE a % 10 <> 0 OR pg_sleep(0.001) IS NOT NULL$$);
CREATE FOREIGN TABLE src_slow (a int, t text) SERVER pg_remote
  OPTIONS (schema_name 'fast_r', table_name 'src_slow', fetch_size '50',
           async_capable 'true');
CREATE FUNCTION probe(int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  IF $1 % 50 = 0 THEN SELECT count(*) INTO n FROM fast.dst WHERE a = $1; END IF;
  RETURN CASE WHEN $1 % 500 = 0 THEN 1 ELSE 0 END;
END $$;
SET statement_timeout = '60s';
SELECT count(*), sum(a) FROM (
  SELECT a FROM src_slow WHERE here(a) % 97 > 95
  UNION ALL SELECT a FROM src_slow WHERE probe(a) > 0) s;
SELECT count(*), sum(a) FROM (
  SELECT a FROM src_slow WHERE here(a) % 97 > 95
  UNION ALL SELECT a FROM src_slow s2
    WHERE CASE WHEN s2.a % 50 = 0
               THEN (SELECT count(*) FROM dst WHERE dst.a = s2.a % 7) ELSE 0 END
          + CASE WHEN s2.a % 500 = 0 THEN 1 ELSE 0 END > 0) s;
RESET statement_timeout;
-- the same answers read without the Append's asynchrony
SELECT count(*), sum(a) FROM (
  SELECT a FROM src WHERE here(a) > 4990
  UNION ALL SELECT a FROM src WHERE here(a) > 4980
  UNION ALL SELECT a FROM src WHERE here(a) > 4970
  UNION ALL SELECT -a FROM src WHERE here(a) % 1000 = 0
  UNION ALL SELECT -a FROM src WHERE here(a) % 999 = 0
  UNION ALL SELECT -a FROM src WHERE here(a) % 998 = 0
  UNION ALL SELECT -a FROM src WHERE here(a) % 500 = 0) s GROUP BY a > 0
  ORDER BY 1 DESC;
SELECT count(*), sum(a) FROM (
  SELECT a FROM src WHERE here(a) % 97 > 95
  UNION ALL SELECT a FROM src WHERE probe(a) > 0) s;
SELECT count(*), sum(a) FROM (
  SELECT a FROM src WHERE here(a) % 97 > 95
  UNION ALL SELECT a FROM src s2
    WHERE CASE WHEN s2.a % 50 = 0
               THEN (SELECT count(*) FROM dst WHERE dst.a = s2.a % 7) ELSE 0 END
          + CASE WHEN s2.a % 500 = 0 THEN 1 ELSE 0 END > 0) s;

RESET search_path;
DROP SCHEMA fast CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA fast_r CASCADE');
