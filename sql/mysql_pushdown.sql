--
-- mysql_pushdown: what is evaluated by MySQL and what stays here.
-- Text comparisons depend on the remote collation (case, accents, trailing
-- spaces).  = and <> (and IN lists) of a column of character strings
-- (text_bytes, which IMPORT sets) with a constant or parameter go as
-- comparisons of their UTF-8 bytes, CAST(CONVERT(x USING utf8mb4) AS
-- BINARY) (without CONVERT on a utf8mb4 column: remote_charset, which
-- IMPORT sets too), whatever the collation, LIKE under utf8mb4_bin; a column marked
-- text_pushdown is compared as it is: IMPORT marks those whose collation
-- compares byte for byte (binary, *_nopad_bin), and a user may mark
-- others.  Ordering goes only over marked columns.
--
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS pd');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE pd (id int PRIMARY KEY,
                   ci varchar(20) COLLATE utf8mb4_general_ci,
                   pb varchar(20) COLLATE utf8mb4_bin,
                   nb varchar(20) COLLATE utf8mb4_nopad_bin,
                   vb varbinary(20), n int, d date) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO pd VALUES
    (1, 'Abc', 'Abc', 'Abc', 'Abc', 10, '2024-01-01'),
    (2, 'abc', 'abc', 'abc', 'abc', 20, '2024-02-01'),
    (3, 'abc ', 'abc ', 'abc ', 'abc ', 30, '2024-03-01'),
    (4, 'ábc', 'ábc', 'ábc', 'ábc', NULL, NULL)$$);
CREATE SCHEMA my_pd;
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (pd) FROM SERVER my_real INTO my_pd;
SET search_path = my_pd, public;
-- only the no-pad binary collation is marked
SELECT attname, attfdwoptions FROM pg_attribute
 WHERE attrelid = 'pd'::regclass AND attnum > 0 ORDER BY attnum;

-- a case-insensitive column: MySQL would say 'Abc' = 'abc' and
-- 'abc ' = 'abc'; compared as bytes there, our answer
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE ci = 'abc';
SELECT id FROM pd WHERE ci = 'abc' ORDER BY id;
SELECT id FROM pd WHERE ci <> 'abc' ORDER BY id;
SELECT id FROM pd WHERE ci = 'ábc' ORDER BY id;
SELECT id FROM pd WHERE ci IN ('Abc', 'abc ') ORDER BY id;
-- a value sent as a parameter, the same
PREPARE pd_ci(text) AS SELECT id FROM pd WHERE ci = $1 ORDER BY id;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pd_ci('abc');
EXECUTE pd_ci('abc');
EXECUTE pd_ci('ABC');
RESET plan_cache_mode;
DEALLOCATE pd_ci;
-- character(n) compares without trailing spaces, over a remote VARCHAR
-- that keeps them: both sides trimmed there
CREATE FOREIGN TABLE pd_ch (id int, ch char(20) OPTIONS (column_name 'ci', text_bytes 'true'))
  SERVER my_real OPTIONS (table_name 'pd');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_ch WHERE ch = 'abc';
SELECT id FROM pd_ch WHERE ch = 'abc' ORDER BY id;
SELECT id FROM pd_ch WHERE ch = 'abc   '::char(6) ORDER BY id;
SELECT id FROM pd_ch WHERE ch <> 'Abc' ORDER BY id;
DROP FOREIGN TABLE pd_ch;
-- a column in another character set is converted to utf8mb4 first (IMPORT
-- records the set in remote_charset); one in utf8mb4 is not (above)
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS pd_l1');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE pd_l1 (id int PRIMARY KEY, la varchar(20) CHARACTER SET latin1,
                      lc char(10) CHARACTER SET latin1,
                      lu varchar(20) CHARACTER SET utf8mb3) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO pd_l1 VALUES (1, 'ábc', 'ábc', 'ábc'), (2, 'ABC', 'abc', 'ABC'),
                           (3, 'abc ', 'abc', 'abc '), (4, 'Ábc', 'Ábc', 'Ábc')$$);
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (pd_l1) FROM SERVER my_real INTO my_pd;
SELECT attname, attfdwoptions FROM pg_attribute
 WHERE attrelid = 'pd_l1'::regclass AND attnum > 0 ORDER BY attnum;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT lc, count(*) FROM pd_l1 WHERE la = 'ábc' OR la LIKE 'A%' GROUP BY lc;
SELECT lc, count(*) FROM pd_l1 WHERE la = 'ábc' OR la LIKE 'A%' GROUP BY lc ORDER BY lc;
SELECT id FROM pd_l1 WHERE lc = 'abc' ORDER BY id;
-- utf8mb3 is not utf8mb4: converted
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_l1 WHERE lu = 'ábc';
SELECT id FROM pd_l1 WHERE lu = 'ábc' OR lu = 'abc ' ORDER BY id;
-- the option names a character set, nothing else
ALTER FOREIGN TABLE pd_l1 ALTER COLUMN la OPTIONS (SET remote_charset 'utf8mb4 x');
ALTER FOREIGN TABLE pd_l1 ALTER COLUMN la OPTIONS (SET remote_charset '');
-- a column said to be utf8mb4 that is not (changed on the remote since
-- the IMPORT): an error there, not its latin1 bytes compared with utf8mb4's
ALTER FOREIGN TABLE pd_l1 ALTER COLUMN la OPTIONS (SET remote_charset 'utf8mb4');
\set VERBOSITY terse
SELECT id FROM pd_l1 WHERE la = 'ábc';
SELECT id FROM pd_l1 WHERE la LIKE 'A%';
\set VERBOSITY default
DROP FOREIGN TABLE pd_l1;
SELECT multi_fdw_exec('my_real', 'DROP TABLE pd_l1');
-- a PAD SPACE binary column: MySQL would say 'abc ' = 'abc'; bytes there
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE pb = 'abc';
SELECT id FROM pd WHERE pb = 'abc' ORDER BY id;
-- a pattern goes, matched by character under utf8mb4_bin: case and
-- trailing spaces count, _ is one character, backslash escapes; an
-- ordering stays here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE ci LIKE 'a%' OR ci > 'b';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE ci NOT LIKE '_b\c';
CREATE TABLE pd_copy AS SELECT * FROM pd;
SELECT p, (SELECT same FROM mf_agree(format('SELECT id FROM pd WHERE ci LIKE %L', p),
                                     format('SELECT id FROM pd_copy WHERE ci LIKE %L', p), false)),
       (SELECT same FROM mf_agree(format('SELECT id FROM pd WHERE ci NOT LIKE %L', p),
                                  format('SELECT id FROM pd_copy WHERE ci NOT LIKE %L', p), false)),
       (SELECT array_agg(id ORDER BY id) FROM pd WHERE ci LIKE p) AS ids
  FROM unnest(ARRAY['a%', 'A%', '_bc', 'abc', 'abc ', '%c', '%c%', 'ab\c', 'ab\%',
                    '\_bc', '', '%']) p;
-- a pattern that ends in a lone backslash, a parameter, a character(n)
-- column (matched with its padding here) stay here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE ci LIKE 'ab\';
SELECT count(*) FROM pd WHERE ci LIKE 'ab\';
CREATE FOREIGN TABLE pd_ch2 (id int, ch char(20) OPTIONS (column_name 'ci', text_bytes 'true'))
  SERVER my_real OPTIONS (table_name 'pd');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_ch2 WHERE ch LIKE 'abc';
DROP FOREIGN TABLE pd_ch2;
DROP TABLE pd_copy;
-- what a local text column shows of a remote number, time or byte string
-- is our text of it, not the remote's: without text_bytes (IMPORT sets it
-- on character columns only) it is compared here, and a column with a
-- constant only (a join on two would be one the remote runs row by row)
CREATE FOREIGN TABLE pd_nt (id int, n text, d text, vb text)
  SERVER my_real OPTIONS (table_name 'pd');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_nt WHERE n = '10' OR d = '2024-01-01';
SELECT id FROM pd_nt WHERE vb = '\x616263' ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id FROM pd a JOIN pd b ON a.ci = b.ci;
DROP FOREIGN TABLE pd_nt;
-- text's own =, not an operator of that name from another schema
CREATE SCHEMA pd_ops;
CREATE FUNCTION pd_ops.eq(text, text) RETURNS boolean
  LANGUAGE sql IMMUTABLE
  AS 'SELECT pg_catalog.lower($1) OPERATOR(pg_catalog.=) pg_catalog.lower($2)';
CREATE OPERATOR pd_ops.= (LEFTARG = text, RIGHTARG = text, FUNCTION = pd_ops.eq);
SET search_path = pd_ops, pg_catalog, my_pd, public;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE ci = 'abc';
SELECT id FROM pd WHERE ci = 'abc' ORDER BY id;
SET search_path = my_pd, public;
DROP SCHEMA pd_ops CASCADE;
-- the no-pad binary column: shipped, same answer
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE nb = 'abc';
SELECT id FROM pd WHERE nb = 'abc' ORDER BY id;
SELECT id FROM pd WHERE nb <> 'abc' ORDER BY id;
-- ordering comparisons still depend on the local collation: checked here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE nb < 'b';
-- the user may vouch for a column
ALTER FOREIGN TABLE pd ALTER COLUMN pb OPTIONS (ADD text_pushdown 'true');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE pb = 'abc';
-- numbers and dates go; NULL tests go; a function stays
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pd WHERE n > 10 AND d < '2024-03-01' AND n IS NOT NULL
    AND abs(n) = 20;
SELECT id FROM pd WHERE n > 10 AND d < '2024-03-01' AND n IS NOT NULL
    AND abs(n) = 20;
-- a parameter from a nested loop
SELECT l.x, (SELECT id FROM pd WHERE n = l.x) FROM (VALUES (10), (30), (40)) l(x);
-- a LIMIT straight above the scan goes along; above a local condition not
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE n > 5 LIMIT 2 OFFSET 1;
SELECT count(*) FROM (SELECT id FROM pd WHERE n > 5 LIMIT 2 OFFSET 1) s;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE abs(n) > 5 LIMIT 2;

RESET search_path;
DROP SCHEMA my_pd CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE pd');

-- ===================================================================
-- Aggregates, GROUP BY, ORDER BY and LIMIT: only where MariaDB computes
-- what PostgreSQL would.  Each answer is compared, value by value in text
-- form, with the same query on a local copy.
-- ===================================================================
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS pa');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE pa (id int PRIMARY KEY, a int, b int, big bigint,
                   ci varchar(20) COLLATE utf8mb4_general_ci,
                   nb varchar(20) COLLATE utf8mb4_nopad_bin,
                   d date) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO pa
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 120)
  SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE i % 7 END,
         CASE WHEN i % 3 = 0 THEN NULL ELSE (i * 37) % 50 - 10 END,
         i * 100000000000,
         ELT(i % 6 + 1, NULL, 'Beta', 'beta', 'Délta', 'delta', 'alpha'),
         ELT(i % 6 + 1, NULL, 'Beta', 'beta', 'Délta', 'delta', 'alpha'),
         DATE '2024-01-01' + INTERVAL (i % 9) DAY
    FROM s$$);
CREATE SCHEMA my_pa;
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (pa) FROM SERVER my_real INTO my_pa;
SET search_path = my_pa, public;
CREATE TABLE pa_copy AS SELECT * FROM pa;
CREATE FUNCTION pa_agree(q text, ordered boolean DEFAULT false,
                         OUT same boolean, OUT remote text)
LANGUAGE sql AS $$
  SELECT same, remote FROM mf_agree(q, replace(q, 'pa', 'pa_copy'), ordered)
$$;

-- COUNT, SUM of integers, MIN and MAX of numbers and dates go
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), sum(b) FROM pa;
SELECT * FROM pa_agree($$SELECT count(*), count(a), count(DISTINCT a), sum(a),
  sum(b), sum(big), min(b), max(b), min(d), max(d) FROM pa$$);
-- no rows: count 0, the rest NULL
SELECT * FROM pa_agree($$SELECT count(*), sum(b), max(d) FROM pa WHERE a > 1000$$);
-- avg of integers: MariaDB's has 4 decimals, ours as many as numeric
-- division gives: its SUM and COUNT go, the division is done here (as
-- PostgreSQL's avg divides its sum by its count); DISTINCT too
EXPLAIN (VERBOSE, COSTS OFF) SELECT avg(a), avg(DISTINCT b) FROM pa;
SELECT * FROM pa_agree($$SELECT avg(a), avg(b), avg(big), avg(DISTINCT a),
  count(*) FROM pa$$);
SELECT * FROM pa_agree($$SELECT avg(a) FROM pa WHERE a > 1000$$);
-- only as a whole output: inside an expression, a HAVING or a sort the
-- avg is computed here from the sum and count fetched
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d, avg(a) * 2 FROM pa GROUP BY d HAVING avg(b) > 10 ORDER BY avg(a);
SELECT * FROM pa_agree($$SELECT d, avg(a) * 2, avg(b) FROM pa GROUP BY d
  HAVING avg(b) > 10 ORDER BY avg(a), d$$, true);
-- a grouping key after an avg is at its remote position (GROUP BY 3)
SELECT * FROM pa_agree($$SELECT avg(a), d, count(*) FROM pa GROUP BY d$$);
-- sorted by an avg, with a LIMIT: the sort is done here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d, avg(a) FROM pa GROUP BY d ORDER BY avg(a) DESC, d LIMIT 3;
SELECT * FROM pa_agree($$SELECT d, avg(a) FROM pa GROUP BY d
  ORDER BY avg(a) DESC NULLS LAST, d LIMIT 3$$, true);
SELECT * FROM pa_agree($$SELECT d, avg(b) FROM pa GROUP BY d ORDER BY 2, 1$$, true);
-- FILTER has no MariaDB spelling
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FILTER (WHERE b > 0) FROM pa;
-- (16+ would sort the input of an aggregate with its own ORDER BY or
-- DISTINCT below it, which then asks the scan for that order: the plans are
-- made the same on every version)
DO $$BEGIN
  PERFORM pg_catalog.set_config('enable_presorted_aggregate', 'off', false);
EXCEPTION WHEN undefined_object THEN NULL;
END$$;
-- text under a case-insensitive collation: 'Beta' and 'beta' are one
-- value there; min, max, GROUP BY and DISTINCT stay here
EXPLAIN (VERBOSE, COSTS OFF) SELECT min(ci), count(DISTINCT ci) FROM pa;
SELECT * FROM pa_agree($$SELECT min(ci), max(ci), count(DISTINCT ci) FROM pa$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT ci, count(*) FROM pa GROUP BY ci;
SELECT * FROM pa_agree($$SELECT ci, count(*) FROM pa GROUP BY ci$$);
-- the byte-wise column (text_pushdown) goes
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT nb, count(*), min(nb), count(DISTINCT nb) FROM pa GROUP BY nb;
SELECT * FROM pa_agree($$SELECT nb, count(*), min(nb), max(nb),
  count(DISTINCT nb) FROM pa GROUP BY nb$$);
-- MariaDB's % gives NULL where ours raises division by zero: it goes with
-- a constant divisor other than zero (negative values keep the dividend's
-- sign on both), and stays here with a column or a zero; / gives a
-- DECIMAL there and stays here
EXPLAIN (VERBOSE, COSTS OFF) SELECT a % 3, count(*) FROM pa GROUP BY 1;
SELECT * FROM pa_agree($$SELECT a % 3, count(*) FROM pa GROUP BY 1$$);
SELECT * FROM pa_agree($$SELECT b % -7, count(*) FROM pa GROUP BY 1$$);
-- IN and NOT IN lists of constants: MariaDB gets each comparison, the
-- same answer in SQL's three values (a NULL in the list included); text
-- only where the column compares byte for byte (nb, not ci); not a list
-- from a parameter, nor one of more than 1,000
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pa WHERE a IN (1, 3, 5) AND b NOT IN (2, 4) AND d IN ('2024-01-02', '2024-01-04');
SELECT * FROM pa_agree($$SELECT id FROM pa WHERE a IN (1, 3, 5) AND b NOT IN (2, 4)
  AND d IN ('2024-01-02', '2024-01-04')$$);
SELECT * FROM pa_agree($$SELECT id, a IN (1, NULL), a NOT IN (1, NULL) FROM pa$$);
SELECT * FROM pa_agree($$SELECT count(*) FROM pa WHERE a NOT IN (1, NULL)$$);
SELECT * FROM pa_agree($$SELECT count(*) FROM pa WHERE big = ANY ('{100000000000, 200000000000}')$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa WHERE ci IN ('Beta', 'alpha');
SELECT * FROM pa_agree($$SELECT id FROM pa WHERE ci IN ('Beta', 'alpha')$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa WHERE nb IN ('Beta', 'alpha');
SELECT * FROM pa_agree($$SELECT id FROM pa WHERE nb IN ('Beta', 'alpha')$$);
-- character(n) compares and groups without its trailing spaces, MariaDB's
-- NO PAD collation with them: a bpchar comparison stays here, even on a
-- text_pushdown column ('Beta' and 'Beta  ' are one value here)
SELECT multi_fdw_exec('my_real', 'INSERT INTO pa (id, nb) VALUES (1001, ''Beta  '')');
CREATE FOREIGN TABLE pa_ch (id int, nb char(20) OPTIONS (text_pushdown 'true'))
  SERVER my_real OPTIONS (schema_name 'mfremote', table_name 'pa');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa_ch WHERE nb IN ('Beta', 'x');
SELECT id FROM pa_ch WHERE nb IN ('Beta', 'x') ORDER BY id LIMIT 3;
SELECT count(*) FROM pa_ch WHERE nb = 'Beta';
EXPLAIN (VERBOSE, COSTS OFF) SELECT nb, count(*) FROM pa_ch GROUP BY nb;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa WHERE nb = 'Beta'::bpchar;
SELECT count(*) FROM pa WHERE nb = 'Beta'::bpchar;
-- grouped as we group character(n), by its bytes without trailing
-- spaces (utf8mb4_bin pads as bpchar does), under any remote collation:
-- 'Beta' and 'Beta  ' one group, 'Beta' and 'beta' two
CREATE FOREIGN TABLE pa_cc (id int, ci char(20) OPTIONS (text_bytes 'true'),
                            nb char(20) OPTIONS (text_bytes 'true'))
  SERVER my_real OPTIONS (schema_name 'mfremote', table_name 'pa');
CREATE TABLE pa_cc_copy AS SELECT * FROM pa_cc;
EXPLAIN (VERBOSE, COSTS OFF) SELECT ci, count(*) FROM pa_cc GROUP BY ci;
SELECT same FROM mf_agree($$SELECT ci, nb, count(*) FROM pa_cc GROUP BY ci, nb$$,
  $$SELECT ci, nb, count(*) FROM pa_cc_copy GROUP BY ci, nb$$, false);
SELECT nb, count(*) FROM pa_cc WHERE nb LIKE 'Beta%' GROUP BY nb;
-- but not ordered, nor counted DISTINCT there; a HAVING condition that
-- names the key stays here (the remote groups by the expression's position)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT ci, count(DISTINCT nb) FROM pa_cc GROUP BY ci ORDER BY ci;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT ci, count(*) FROM pa_cc GROUP BY ci HAVING count(*) > 1 OR ci = 'Beta';
SELECT same FROM mf_agree(
  $$SELECT ci, count(*) FROM pa_cc GROUP BY ci HAVING count(*) > 20 OR ci = 'Beta'$$,
  $$SELECT ci, count(*) FROM pa_cc_copy GROUP BY ci HAVING count(*) > 20 OR ci = 'Beta'$$,
  false);
-- a column whose remote_charset is utf8mb4 (IMPORT records it) goes
-- without CONVERT, the same answers
ALTER FOREIGN TABLE pa_cc ALTER COLUMN ci OPTIONS (ADD remote_charset 'utf8mb4'),
  ALTER COLUMN nb OPTIONS (ADD remote_charset 'UTF8MB4');
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT ci, count(*) FROM pa_cc WHERE nb IN ('Beta', 'delta') GROUP BY ci;
SELECT same FROM mf_agree(
  $$SELECT ci, count(*) FROM pa_cc WHERE nb IN ('Beta', 'delta') GROUP BY ci$$,
  $$SELECT ci, count(*) FROM pa_cc_copy WHERE nb IN ('Beta', 'delta') GROUP BY ci$$,
  false);
SELECT same FROM mf_agree($$SELECT ci, nb, count(*) FROM pa_cc GROUP BY ci, nb$$,
  $$SELECT ci, nb, count(*) FROM pa_cc_copy GROUP BY ci, nb$$, false);
DROP TABLE pa_cc_copy;
DROP FOREIGN TABLE pa_cc;
DROP FOREIGN TABLE pa_ch;
SELECT multi_fdw_exec('my_real', 'DELETE FROM pa WHERE id = 1001');
PREPARE pa_in(int[]) AS SELECT count(*) FROM pa WHERE a = ANY ($1);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pa_in('{1,2}');
EXECUTE pa_in('{1,2}');
RESET plan_cache_mode;
DEALLOCATE pa_in;
SELECT format('SELECT count(*) FROM pa WHERE a IN (%s)',
              string_agg(g::text, ', ')) AS q FROM generate_series(1, 1001) g \gset
SELECT * FROM pa_agree(:'q');
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pa WHERE a % b = 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pa WHERE a % 0 = 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(a / 2) FROM pa;
-- MariaDB adds, subtracts and multiplies integers in 64 bits: int4 arithmetic
-- that overflows here would be answered there, so it goes inside a range
-- guard that fails as ours does ("integer out of range", 22003); one that
-- needs a guard inside another stays here (the guard repeats its operand);
-- with an int8 side (an overflow is an error on both sides) it goes bare
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa WHERE a + 2147483647 > 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(a * 2), max(-b) FROM pa;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa WHERE big - a > 0 AND -big < 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa WHERE (a + 1) * 2 > 0;
SELECT count(*) FROM pa WHERE a + 2147483647 > 0;
SELECT * FROM pa_agree($$SELECT sum(a * 2), max(-b), min(a - 7), count(*) FILTER (WHERE a + b > 3) FROM pa$$);
SELECT * FROM pa_agree($$SELECT id, a + 1 FROM pa WHERE a * 3 > -100 AND b - 1 < 1000$$);
-- grouping by numbers and HAVING
SELECT * FROM pa_agree($$SELECT a, d, count(*), sum(b) FROM pa GROUP BY a, d
  HAVING count(*) > 1 AND sum(b) IS NOT NULL$$);

-- ORDER BY: MariaDB puts NULLs first ascending, so a key "x IS NULL"
-- makes them come last where ours do
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa ORDER BY b DESC LIMIT 10;
SELECT * FROM pa_agree($$SELECT id, b FROM pa ORDER BY b DESC, id LIMIT 10$$, true);
SELECT * FROM pa_agree($$SELECT id, a FROM pa ORDER BY a, id$$, true);
-- MariaDB's own placement needs no key
SELECT * FROM pa_agree($$SELECT id, a FROM pa ORDER BY a NULLS FIRST, id DESC$$,
                       true);
SELECT * FROM pa_agree($$SELECT id, a FROM pa ORDER BY a DESC NULLS LAST, id$$,
                       true);
-- text: the case-insensitive column is sorted here, the byte-wise one there
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa ORDER BY ci, id;
SELECT * FROM pa_agree($$SELECT id, ci FROM pa ORDER BY ci, id$$, true);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa ORDER BY nb, id;
SELECT * FROM pa_agree($$SELECT id, nb FROM pa ORDER BY nb, id$$, true);
-- OFFSET alone: MariaDB needs a LIMIT before it
SELECT * FROM pa_agree($$SELECT id FROM pa ORDER BY id OFFSET 115$$, true);
-- WITH TIES is never shipped nor made a cap: the rows tied with the last
-- one come too (a LIMIT used to cut them)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM pa WHERE id > 60 ORDER BY a FETCH FIRST 2 ROWS WITH TIES;
SELECT * FROM pa_agree($$SELECT a FROM pa WHERE id > 60 ORDER BY a
  FETCH FIRST 2 ROWS WITH TIES$$, true);
SELECT * FROM pa_agree($$SELECT a FROM pa ORDER BY a NULLS FIRST
  OFFSET 3 ROWS FETCH FIRST 1 ROW WITH TIES$$, true);
-- a LIMIT computed at run time caps nothing: the cached plan serves
-- another value (it used to be capped at the one it was planned with)
SET mf.lim = '2';
PREPARE pa_lim AS SELECT id FROM pa ORDER BY id
  LIMIT current_setting('mf.lim')::int;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pa_lim;
SET mf.lim = '4';
EXECUTE pa_lim;
DEALLOCATE pa_lim;
RESET mf.lim;
-- the sort and limit of a grouped relation
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, sum(b) FROM pa GROUP BY a ORDER BY sum(b) DESC, a LIMIT 3;
SELECT * FROM pa_agree($$SELECT a, sum(b) FROM pa GROUP BY a
  ORDER BY sum(b) DESC, a LIMIT 3$$, true);
SELECT * FROM pa_agree($$SELECT a, count(*) FROM pa GROUP BY a
  ORDER BY a NULLS FIRST$$, true);
-- pushdown 'false' leaves all of it here
ALTER SERVER my_real OPTIONS (ADD pushdown 'false');
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), sum(b) FROM pa;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pa ORDER BY b DESC LIMIT 10;
ALTER SERVER my_real OPTIONS (DROP pushdown);

DROP FUNCTION pa_agree(text, boolean);
DROP TABLE pa_copy;
RESET search_path;
DROP SCHEMA my_pa CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE pa');

-- ===================================================================
-- Decimal arithmetic.  MariaDB's DECIMAL holds 65 digits, 38 after the
-- point (MySQL's multiply keeps 30, the dialect's limit), and cuts a
-- result beyond that (1e-20 * 1e-20 is 0 there): numeric
-- + - * go only where the size of each step is known (numeric(p,s)
-- columns, constants by their digits) and fits.
-- ===================================================================
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS pdec');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE pdec (id int PRIMARY KEY, n decimal(40,20), m decimal(10,2),
                     u decimal(65,30), w decimal(65,0)) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO pdec VALUES
    (1, 1e-20, 1.5, 1e-20,
     99999999999999999999999999999999999999999999999999999999999999999),
    (2, -1e-20, -2.25, 0.5, 1),
    (3, 0.00000000000000000003, 0.01, 3, NULL),
    (4, 123.5, 99999999.99, NULL, -5)$$);
CREATE SCHEMA my_dec;
SET search_path = my_dec, public;
-- u is declared without a typmod: the size of its values is not known here
CREATE FOREIGN TABLE pdec (id int OPTIONS (key 'true'), n numeric(40,20), m numeric(10,2),
  u numeric, w numeric(65,0)) SERVER my_real OPTIONS (table_name 'pdec');
CREATE TABLE pdec_copy AS SELECT * FROM pdec;
CREATE FUNCTION pdec_agree(q text, ordered boolean DEFAULT false,
                           OUT same boolean, OUT remote text)
LANGUAGE sql AS $$
  SELECT same, remote
    FROM mf_agree(q, regexp_replace(q, '\mpdec\M', 'pdec_copy', 'g'), ordered)
$$;
-- a product of 40 decimals: here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pdec WHERE n * n > 0;
SELECT * FROM pdec_agree($$SELECT id FROM pdec WHERE n * n > 0$$);
-- 22 decimals and 50 digits, a sum of 41 digits: there
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pdec WHERE n * m > 0 AND -(n + m) < 1000;
SELECT * FROM pdec_agree($$SELECT id FROM pdec WHERE n * m > 0
  AND -(n + m) < 1000$$);
-- seven factors of numeric(10,2): 70 digits, here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pdec WHERE m * m * m * m * m * m * m > 1;
-- an unconstrained column: its arithmetic stays here (u * u has 60
-- decimals there); a plain comparison of it goes
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pdec WHERE u * u > 0;
SELECT * FROM pdec_agree($$SELECT id FROM pdec WHERE u * u > 0$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pdec WHERE u > 0.25;
-- a constant of more than 65 digits: MariaDB drops those beyond 81
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pdec
  WHERE w < 99999999999999999999999999999999999999999999999999999999999999999.000000000000000000001;
SELECT * FROM pdec_agree($$SELECT id FROM pdec
  WHERE w < 99999999999999999999999999999999999999999999999999999999999999999.000000000000000000001$$);
-- sum and avg of numeric stay here unless the columns are marked
-- sum_pushdown: the remote adds the column's own values, which need not be
-- those our typmod reads (a DECIMAL(10,4) or a DOUBLE under a numeric(10,2))
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT sum(m), avg(m), sum(n), avg(n * m), sum(m * m * m) FROM pdec;
SELECT * FROM pdec_agree($$SELECT sum(m), avg(m), sum(n), avg(n), sum(n * m),
  avg(n * m), sum(m * m * m), avg(DISTINCT m), count(*) FROM pdec$$);
-- marked (the remote columns are DECIMAL(40,20) and DECIMAL(10,2), as
-- IMPORT marks them): the sum goes where its argument's size leaves 18
-- digits of MariaDB's 65 for the number of rows; avg as SUM and COUNT,
-- divided here
ALTER FOREIGN TABLE pdec ALTER COLUMN n OPTIONS (ADD sum_pushdown 'true'),
  ALTER COLUMN m OPTIONS (ADD sum_pushdown 'true'),
  ALTER COLUMN u OPTIONS (ADD sum_pushdown 'true'),
  ALTER COLUMN w OPTIONS (ADD sum_pushdown 'true');
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT sum(m), avg(m), sum(n), avg(n), sum(m * m * m), sum(DISTINCT m),
         sum(m * (1 - m)) FROM pdec;
SELECT * FROM pdec_agree($$SELECT sum(m), avg(m), sum(n), avg(n),
  sum(m * m * m), sum(DISTINCT m), avg(DISTINCT m), sum(m * (1 - m)),
  avg(m * 2 + id), count(*) FROM pdec$$);
SELECT * FROM pdec_agree($$SELECT sum(m), avg(n) FROM pdec WHERE id > 10$$);
SELECT * FROM pdec_agree($$SELECT id % 2, sum(m), avg(n), count(*) FROM pdec
  GROUP BY 1$$);
-- in a HAVING and a sort too; the avg there stays here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id % 2, sum(n) FROM pdec GROUP BY 1 HAVING sum(m) > 0 ORDER BY sum(n);
SELECT * FROM pdec_agree($$SELECT id % 2, sum(n) FROM pdec GROUP BY 1
  HAVING sum(m) > 0 ORDER BY sum(n)$$, true);
-- n * m has 50 digits, m seven times 70, w 65, u an unknown size: here
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(n * m) FROM pdec;
EXPLAIN (VERBOSE, COSTS OFF) SELECT avg(m * m * m * m * m * m * m) FROM pdec;
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(w) FROM pdec;
EXPLAIN (VERBOSE, COSTS OFF) SELECT avg(u) FROM pdec;
SELECT * FROM pdec_agree($$SELECT sum(n * m), sum(w), avg(w), sum(u), avg(u)
  FROM pdec$$);
-- one column of the argument unmarked: here
ALTER FOREIGN TABLE pdec ALTER COLUMN m OPTIONS (DROP sum_pushdown);
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(n), sum(n + m) FROM pdec;
ALTER FOREIGN TABLE pdec ALTER COLUMN n OPTIONS (DROP sum_pushdown),
  ALTER COLUMN u OPTIONS (DROP sum_pushdown),
  ALTER COLUMN w OPTIONS (DROP sum_pushdown);
-- grouping by, aggregating and sorting such a product
EXPLAIN (VERBOSE, COSTS OFF) SELECT n * n, count(*) FROM pdec GROUP BY 1;
SELECT * FROM pdec_agree($$SELECT n * n, count(*) FROM pdec GROUP BY 1$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT n * m, count(*) FROM pdec GROUP BY 1;
SELECT * FROM pdec_agree($$SELECT n * m, count(*) FROM pdec GROUP BY 1$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT max(n * n) FROM pdec WHERE id < 4;
SELECT * FROM pdec_agree($$SELECT max(n * n), min(n * n) FROM pdec
  WHERE id < 4$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pdec ORDER BY n * n, id;
-- a join condition
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a.id, b.id FROM pdec a JOIN pdec b ON a.n * b.n < 0;
SELECT * FROM pdec_agree($$SELECT a.id, b.id FROM pdec a
  JOIN pdec b ON a.n * b.n < 0$$);
-- a DELETE whose condition stays here is not sent whole
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM pdec WHERE n * n = 0;
DELETE FROM pdec WHERE n * n = 0;
SELECT count(*) FROM pdec;

DROP FUNCTION pdec_agree(text, boolean);
DROP TABLE pdec_copy;
RESET search_path;
DROP SCHEMA my_dec CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP TABLE pdec');

-- ===================================================================
-- A nondeterministic local collation says 'Beta' = 'beta', which no
-- byte-wise remote column does, whatever text_pushdown promises of it:
-- what compares under it (a column's, or COLLATE's) stays here.
-- ===================================================================
CREATE COLLATION my_ci (provider = icu, locale = 'und-u-ks-level2',
                        deterministic = false);
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS pci');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE pci (id int PRIMARY KEY,
                    t varchar(20) COLLATE utf8mb4_nopad_bin) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO pci VALUES (1, 'Beta'), (2, 'beta'), (3, 'BETA'), (4, 'alpha'),
                         (5, 'Alpha'), (6, NULL)$$);
CREATE SCHEMA my_ci;
SET search_path = my_ci, public;
-- the remote column twice: under the nondeterministic collation, and
-- under the default one
CREATE FOREIGN TABLE pci (id int OPTIONS (key 'true'),
  ci text OPTIONS (column_name 't', text_pushdown 'true') COLLATE my_ci,
  t text OPTIONS (text_pushdown 'true'))
  SERVER my_real OPTIONS (table_name 'pci');
CREATE TABLE pci_copy AS SELECT * FROM pci;
CREATE FUNCTION pci_agree(q text, ordered boolean DEFAULT false,
                          OUT same boolean, OUT remote text)
LANGUAGE sql AS $$
  SELECT same, remote
    FROM mf_agree(q, regexp_replace(q, '\mpci\M', 'pci_copy', 'g'), ordered)
$$;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pci WHERE ci = 'beta';
SELECT * FROM pci_agree($$SELECT id FROM pci WHERE ci = 'beta'$$);
SELECT * FROM pci_agree($$SELECT id FROM pci WHERE ci <> 'beta'$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pci WHERE t = 'beta';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pci WHERE t = 'beta' COLLATE my_ci;
SELECT * FROM pci_agree($$SELECT id FROM pci WHERE t = 'beta' COLLATE my_ci$$);
-- GROUP BY, DISTINCT, min and max
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pci GROUP BY ci;
SELECT * FROM pci_agree($$SELECT count(*) FROM pci GROUP BY ci$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT ci) FROM pci;
SELECT * FROM pci_agree($$SELECT count(DISTINCT ci) FROM pci$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pci GROUP BY t COLLATE my_ci;
SELECT * FROM pci_agree($$SELECT count(*) FROM pci GROUP BY t COLLATE my_ci$$);
SELECT * FROM pci_agree($$SELECT count(DISTINCT t COLLATE my_ci) FROM pci$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), count(DISTINCT t) FROM pci GROUP BY t;
EXPLAIN (VERBOSE, COSTS OFF) SELECT min(ci) FROM pci;
-- a join condition
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, b.id FROM pci a JOIN pci b ON a.ci = b.ci;
SELECT * FROM pci_agree($$SELECT a.id, b.id FROM pci a JOIN pci b ON a.ci = b.ci$$);
-- a DELETE whose condition stays here is not sent whole
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM pci WHERE ci = 'alpha';
BEGIN;
DELETE FROM pci WHERE ci = 'alpha';
SELECT id, t FROM pci ORDER BY id;
ROLLBACK;

DROP FUNCTION pci_agree(text, boolean);
DROP TABLE pci_copy;
RESET search_path;
DROP SCHEMA my_ci CASCADE;
DROP COLLATION my_ci;
SELECT multi_fdw_exec('my_real', 'DROP TABLE pci');
