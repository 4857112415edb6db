--
-- oracle_types: every mapped type round-trips exactly through the odbc
-- transport into the Oracle stand-in (see oracle_batch), by both batch
-- forms, and bad values get the SQLSTATE the remote gives them.
--
-- The stand-in stores Oracle's types as MariaDB's: NUMBER(p,s) as
-- decimal, VARCHAR2 as varchar, DATE as datetime (a date with a time, as
-- in Oracle), RAW as varbinary, BLOB/CLOB as longblob/longtext.
-- TIMESTAMP with a fraction is declared DATETIME(6), which is what
-- MariaDB's Oracle mode has for it.
--
CREATE SCHEMA ora_types;
SET search_path = ora_types, public;

SELECT multi_fdw_exec('ora_real', 'DROP TABLE IF EXISTS "ot"');
SELECT multi_fdw_exec('ora_real', $$
  CREATE TABLE "ot" ("id" NUMBER(9) PRIMARY KEY, "n" NUMBER(38,10),
    "i" NUMBER(18), "v" VARCHAR2(100), "d" DATE, "ts" DATETIME(6),
    "r" RAW(16), "b" BLOB, "c" CLOB, "f" DOUBLE)$$);
CREATE FOREIGN TABLE ot (id int, n numeric(38,10), i bigint,
  v varchar(100), d timestamp(0), ts timestamp(6), r bytea, b bytea,
  c text, f float8)
  SERVER ora_real OPTIONS (table_name 'ot');

CREATE TABLE expected (LIKE ot);
INSERT INTO expected VALUES
  (1, 1234567890123456789012345678.0123456789, 999999999999999999,
   'plain ascii', '2024-02-29 23:59:59', '2024-02-29 12:34:56.123456',
   '\x00ff10', '\x00', 'short', 1.5e300),
  (2, -0.0000000001, -999999999999999999, 'héllo wörld ✓ 日本 😀',
   '1000-01-01 00:00:00', '1000-01-01 00:00:00.000001',
   '\x0102030405060708090a0b0c0d0e0f10', '\xdeadbeef', 'ünïcødé ✓', -2.5e-300),
  (3, 0, 0, 'quote '' and "double" and \ backslash', '9999-12-31 23:59:59',
   '9999-12-31 23:59:59.999999', '\x', NULL, repeat('long clob ', 20000), 0),
  (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (5, 42, 7, E'tab\there\nnewline', '2000-01-01 00:00:00',
   '1970-01-01 00:00:00', '\x7f', decode(repeat('00ff', 50000), 'hex'),
   '', 3.141592653589793);
-- '' is NULL in Oracle, for text and for RAW; the stand-in
-- (EMPTY_STRING_IS_NULL) agrees
UPDATE expected SET c = NULL WHERE id = 5;
UPDATE expected SET r = NULL WHERE id = 3;

-- through parameter arrays (auto)
INSERT INTO ot SELECT * FROM expected;
SELECT count(*) AS differ FROM
  ((SELECT * FROM ot EXCEPT SELECT * FROM expected)
   UNION ALL (SELECT * FROM expected EXCEPT SELECT * FROM ot)) d;
SELECT id, n, i, v, d, ts, r, length(b) AS b_len, length(c) AS c_len, f
  FROM ot ORDER BY id;

-- through the WITH ... UNION ALL form
SELECT multi_fdw_exec('ora_real', 'TRUNCATE TABLE "ot"');
-- The stand-in types a parameter in a SELECT list as text in the
-- connection's character set, and the columns of a UNION of parameters
-- as CHAR: RAW/BLOB bytes that are not UTF-8 and trailing blanks do not
-- survive this form there (Oracle binds them as RAW and VARCHAR2/CLOB).
-- Everything else is exact.
ALTER FOREIGN TABLE ot OPTIONS (ADD insert_method 'values');
INSERT INTO ot SELECT * FROM expected;
SELECT count(*) AS differ FROM
  ((SELECT id, n, i, v, d, ts, f FROM ot
    EXCEPT SELECT id, n, i, v, d, ts, f FROM expected)
   UNION ALL (SELECT id, n, i, v, d, ts, f FROM expected
    EXCEPT SELECT id, n, i, v, d, ts, f FROM ot)) d;
SELECT e.id, o.r IS NOT DISTINCT FROM e.r AS r_same,
       o.b IS NOT DISTINCT FROM e.b AS b_same,
       o.c IS NOT DISTINCT FROM e.c AS c_same
  FROM ot o JOIN expected e USING (id) ORDER BY e.id;

-- one row at a time
SELECT multi_fdw_exec('ora_real', 'TRUNCATE TABLE "ot"');
ALTER FOREIGN TABLE ot OPTIONS (SET insert_method 'row');
INSERT INTO ot SELECT * FROM expected;
SELECT count(*) AS differ FROM
  ((SELECT * FROM ot EXCEPT SELECT * FROM expected)
   UNION ALL (SELECT * FROM expected EXCEPT SELECT * FROM ot)) d;
ALTER FOREIGN TABLE ot OPTIONS (DROP insert_method);

-- conditions on each type are shipped and select the same rows
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM ot WHERE n > 0 AND i = 7 AND d < '2001-01-01' AND f > 3;
SELECT id FROM ot WHERE n > 0 AND i = 7 AND d < '2001-01-01' AND f > 3;
SELECT id FROM ot WHERE ts = '2024-02-29 12:34:56.123456';
SELECT id FROM ot WHERE r = '\x7f';

-- bad values: the SQLSTATE the remote gives, and nothing of the batch
-- is left (declared loosely here, so that the remote is the one to refuse)
CREATE FOREIGN TABLE ot_loose (id int, n numeric, i numeric, v text, r bytea)
  SERVER ora_real OPTIONS (table_name 'ot');
INSERT INTO ot_loose (id, v) VALUES (10, 'ok'), (11, repeat('x', 101));
\echo :LAST_ERROR_SQLSTATE
INSERT INTO ot_loose (id, n) VALUES (10, 1), (11, 1e30);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO ot_loose (id, r) VALUES (10, '\x00'), (11, decode(repeat('ab', 17), 'hex'));
\echo :LAST_ERROR_SQLSTATE
INSERT INTO ot_loose (id, i) VALUES (10, 1), (11, 1e18);
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM ot WHERE id >= 10;

SELECT multi_fdw_exec('ora_real', 'DROP TABLE "ot"');
DROP SCHEMA ora_types CASCADE;
