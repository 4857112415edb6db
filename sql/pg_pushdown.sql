--
-- pg_pushdown: aggregates, GROUP BY/HAVING, ORDER BY and LIMIT/OFFSET of
-- one foreign table computed by the remote PostgreSQL, and what stays
-- here.  Every answer is compared with the same query on a local copy of
-- the data, value by value in text form (so that a scale or a type that
-- came out differently shows), in order where the query orders.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.pd_t$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.pd_t (id int, a int, b int, big bigint, c text,
                            n numeric, d date)$$);
-- NULL-heavy, duplicate-heavy, mixed-case and accented text
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.pd_t
  SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE i % 7 END,
         CASE WHEN i % 3 = 0 THEN NULL ELSE (i * 37) % 50 - 10 END,
         i * 100000000000,
         (ARRAY[NULL, 'Beta', 'beta', 'Délta', 'delta', 'alpha'])[i % 6 + 1],
         CASE WHEN i % 4 = 0 THEN NULL ELSE i * 0.25 END,
         date '2024-01-01' + i % 9
    FROM generate_series(1, 200) i$$);

CREATE FOREIGN TABLE pd_t (id int, a int, b int, big bigint, c text,
                           n numeric, d date)
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE TABLE pd_copy AS SELECT * FROM pd_t;

-- q on the foreign table and on the copy: the same rows (in the same
-- order when ordered), and the remote SQL that q sent
CREATE FUNCTION pd_agree(q text, ordered boolean DEFAULT false,
                         OUT same boolean, OUT remote text)
LANGUAGE sql AS $$
  SELECT same, remote FROM mf_agree(q, replace(q, 'pd_t', 'pd_copy'), ordered)
$$;

-- ===================================================================
-- aggregates without GROUP BY
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), sum(b) FROM pd_t;
SELECT * FROM pd_agree($$SELECT count(*), count(a), count(DISTINCT a), sum(a),
  sum(b), sum(big), avg(a), avg(b), avg(n), min(b), max(b), min(d), max(n)
  FROM pd_t$$);
-- sum(int4) is a bigint, sum(int8) a numeric, avg a numeric of full scale
SELECT pg_typeof(sum(a)), pg_typeof(sum(big)), avg(a), sum(n) FROM pd_t;
-- no rows at all: one row, count 0 and NULLs
SELECT * FROM pd_agree($$SELECT count(*), count(b), sum(b), avg(b), min(c)
  FROM pd_t WHERE a > 1000$$);
SELECT * FROM pd_agree($$SELECT count(*) FILTER (WHERE b > 0),
  sum(b) FILTER (WHERE c = 'beta'), stddev(b), var_pop(a), bool_and(b > -20)
  FROM pd_t$$);
-- an expression over aggregates goes whole
SELECT * FROM pd_agree($$SELECT sum(b) * 2 + count(*) FROM pd_t$$);
-- a constant is computed here, the aggregate there
EXPLAIN (VERBOSE, COSTS OFF) SELECT 'x', count(*) FROM pd_t;

-- ===================================================================
-- GROUP BY and HAVING
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a % 100, count(*) FROM pd_t GROUP BY 1;
SELECT * FROM pd_agree($$SELECT a, count(*), sum(b), avg(n), min(c), max(c)
  FROM pd_t GROUP BY a$$);
SELECT * FROM pd_agree($$SELECT a % 3, d, count(*) FROM pd_t GROUP BY 1, 2$$);
-- text groups under the default collation, as postgres_fdw ships them
SELECT * FROM pd_agree($$SELECT c, count(*), count(DISTINCT a) FROM pd_t
  GROUP BY c$$);
-- a grouping column not in the output
SELECT * FROM pd_agree($$SELECT count(*) FROM pd_t GROUP BY a, c$$);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, count(*) FROM pd_t GROUP BY a HAVING count(*) > 20 AND a > 1;
SELECT * FROM pd_agree($$SELECT a, count(*) FROM pd_t GROUP BY a
  HAVING count(*) > 20 AND a > 1$$);
-- a HAVING condition with a function that is not shipped (gcd(x, x),
-- which is |x|) stays here; its aggregate goes
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM pd_t GROUP BY a HAVING gcd(sum(b), sum(b)) > 60;
SELECT * FROM pd_agree($$SELECT a FROM pd_t GROUP BY a HAVING gcd(sum(b), sum(b)) > 60$$);
-- a WHERE condition that stays here keeps the aggregation here too
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pd_t WHERE gcd(b, b) > 5;
SELECT * FROM pd_agree($$SELECT count(*) FROM pd_t WHERE gcd(b, b) > 5$$);
-- (16+ would sort the input of an aggregate with its own ORDER BY or
-- DISTINCT below it, which then asks the scan for that order: the plans are
-- made the same on every version)
DO $$BEGIN
  PERFORM pg_catalog.set_config('enable_presorted_aggregate', 'off', false);
EXCEPTION WHEN undefined_object THEN NULL;
END$$;
-- an aggregate with its own ORDER BY, and grouping sets, stay here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT string_agg(c, ',' ORDER BY c) FROM pd_t;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, count(*) FROM pd_t GROUP BY ROLLUP (a);
-- a collation that is neither the default nor the column's stays here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT min(c COLLATE "C") FROM pd_t;
-- GROUPING() is computed by an Agg node alone: where the output, a HAVING
-- condition or the sort asks for it, the grouping stays here (it used to
-- go, and the Foreign Scan above it failed: "GroupingFunc found in non-Agg
-- plan node")
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, sum(b), grouping(a) FROM pd_t WHERE a < 3 GROUP BY a;
SELECT * FROM pd_agree($$SELECT a, sum(b), grouping(a) FROM pd_t WHERE a < 3
  GROUP BY a$$);
SELECT * FROM pd_agree($$SELECT a, sum(b) + grouping(a) FROM pd_t GROUP BY a$$);
SELECT * FROM pd_agree($$SELECT a, count(*) FROM pd_t GROUP BY a
  HAVING grouping(a) = 0 AND count(*) > 25$$);
SELECT * FROM pd_agree($$SELECT a, count(*) FROM pd_t GROUP BY a
  ORDER BY grouping(a), a NULLS FIRST$$, true);
-- grouping sets, ROLLUP and CUBE stay here, with their GROUPING()
SELECT * FROM pd_agree($$SELECT a, d, count(*), grouping(a, d) FROM pd_t
  WHERE a < 2 GROUP BY CUBE (a, d)$$);
SELECT * FROM pd_agree($$SELECT a, sum(b) FROM pd_t
  GROUP BY GROUPING SETS ((a), ())$$);

-- ===================================================================
-- ORDER BY and LIMIT/OFFSET
-- ===================================================================
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM pd_t ORDER BY b DESC LIMIT 10;
SELECT * FROM pd_agree($$SELECT id, b FROM pd_t ORDER BY b DESC, id LIMIT 10$$,
                       true);
SELECT * FROM pd_agree($$SELECT id, b FROM pd_t ORDER BY b NULLS FIRST, id
  LIMIT 5 OFFSET 3$$, true);
SELECT * FROM pd_agree($$SELECT id, a FROM pd_t ORDER BY a DESC NULLS LAST, id$$,
                       true);
SELECT * FROM pd_agree($$SELECT id, c FROM pd_t ORDER BY c, id DESC$$, true);
SELECT * FROM pd_agree($$SELECT id FROM pd_t ORDER BY id OFFSET 195$$, true);
SELECT * FROM pd_agree($$SELECT id FROM pd_t LIMIT 0$$, true);
-- a LIMIT without ORDER BY goes as written, without a Limit node here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_t LIMIT 3 OFFSET 2;
-- the sort of a grouped relation, and its limit
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, count(*) FROM pd_t GROUP BY a ORDER BY count(*) DESC, a LIMIT 3;
SELECT * FROM pd_agree($$SELECT a, count(*) FROM pd_t GROUP BY a
  ORDER BY count(*) DESC, a NULLS FIRST LIMIT 3$$, true);
SELECT * FROM pd_agree($$SELECT c, sum(b) FROM pd_t GROUP BY c
  ORDER BY sum(b) NULLS FIRST, c$$, true);
-- sorted by a collation of its own: the sort stays here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_t ORDER BY c COLLATE "C", id;
-- a sort key that cannot be shipped: sort and limit stay here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_t ORDER BY gcd(b, b), id LIMIT 2;
-- a local condition: the sort goes, the limit stays
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pd_t WHERE gcd(b, b) > 3 ORDER BY id LIMIT 2;
SELECT * FROM pd_agree($$SELECT id FROM pd_t WHERE gcd(b, b) > 3 ORDER BY id LIMIT 2$$,
                       true);
-- WITH TIES: the rows tied with the last one come too.  The local Limit
-- node decides, over a remote query that no LIMIT cuts (one used to, and
-- the ties were lost); with an OFFSET too
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM pd_t WHERE id > 150 ORDER BY a FETCH FIRST 2 ROWS WITH TIES;
SELECT * FROM pd_agree($$SELECT a FROM pd_t WHERE id > 150 ORDER BY a
  FETCH FIRST 2 ROWS WITH TIES$$, true);
SELECT * FROM pd_agree($$SELECT a FROM pd_t ORDER BY a NULLS FIRST
  OFFSET 3 ROWS FETCH FIRST 1 ROW WITH TIES$$, true);
SELECT * FROM pd_agree($$SELECT a, count(*) FROM pd_t GROUP BY a
  ORDER BY count(*) DESC FETCH FIRST 1 ROW WITH TIES$$, true);
-- LIMIT ALL and LIMIT NULL are no limit; the OFFSET goes alone
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_t ORDER BY id LIMIT ALL OFFSET 197;
SELECT * FROM pd_agree($$SELECT id FROM pd_t ORDER BY id LIMIT ALL OFFSET 197$$, true);
SELECT * FROM pd_agree($$SELECT id FROM pd_t ORDER BY id LIMIT NULL OFFSET 198$$, true);
-- a LIMIT that is an expression computed at run time stays here, and caps
-- no remote query: a cached plan serves another value of it (one used to
-- be capped at the value it had when planned)
SET mf.lim = '2';
PREPARE pd_lim AS SELECT id FROM pd_t ORDER BY id
  LIMIT current_setting('mf.lim')::int;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pd_lim;
EXECUTE pd_lim;
SET mf.lim = '4';
EXECUTE pd_lim;
DEALLOCATE pd_lim;
RESET mf.lim;
PREPARE pd_lim AS SELECT id FROM pd_t WHERE a = 1
  LIMIT current_setting('mf.lim', true)::int;
SET mf.lim = '1';
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pd_lim;
SELECT count(*) FROM pd_t WHERE a = 1;
SET mf.lim = '3';
CREATE TEMP TABLE pd_got AS EXECUTE pd_lim;
SELECT count(*) FROM pd_got;
DROP TABLE pd_got;
DEALLOCATE pd_lim;
RESET mf.lim;
-- a LIMIT that is a parameter of a generic plan stays here
PREPARE pd_top(bigint) AS SELECT id FROM pd_t ORDER BY id LIMIT $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pd_top(2);
EXECUTE pd_top(2);
RESET plan_cache_mode;
DEALLOCATE pd_top;
-- FOR UPDATE: the sort goes, the lock with it; the limit stays here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_t ORDER BY id LIMIT 1 FOR UPDATE;
-- an alias shows in Relations
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pd_t p WHERE p.a = 1;

-- ===================================================================
-- pushdown 'false': the plans of before, the same answers
-- ===================================================================
ALTER FOREIGN TABLE pd_t OPTIONS (ADD pushdown 'false');
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), sum(b) FROM pd_t;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a FROM pd_t ORDER BY b DESC LIMIT 10;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_t LIMIT 3 OFFSET 2;
SELECT * FROM pd_agree($$SELECT a, count(*), sum(b) FROM pd_t GROUP BY a$$);
ALTER FOREIGN TABLE pd_t OPTIONS (DROP pushdown);
-- the server's option, and the table's over it
ALTER SERVER pg_remote OPTIONS (ADD pushdown 'false');
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pd_t;
ALTER FOREIGN TABLE pd_t OPTIONS (ADD pushdown 'true');
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pd_t;
ALTER FOREIGN TABLE pd_t OPTIONS (DROP pushdown);
ALTER SERVER pg_remote OPTIONS (DROP pushdown);
ALTER FOREIGN TABLE pd_t OPTIONS (ADD pushdown 'maybe');

-- ===================================================================
-- a nondeterministic collation, the column's or COLLATE's ('Beta' =
-- 'beta'): its comparisons, groups and DISTINCT stay here, whatever the
-- remote column's collation is
-- ===================================================================
CREATE COLLATION pd_ci (provider = icu, locale = 'und-u-ks-level2',
                        deterministic = false);
CREATE FOREIGN TABLE pd_ci_t (id int, c text COLLATE pd_ci)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pd_t');
CREATE TABLE pd_ci_copy AS SELECT * FROM pd_ci_t;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_ci_t WHERE c = 'beta';
SELECT same FROM mf_agree($$SELECT id FROM pd_ci_t WHERE c = 'beta'$$,
  $$SELECT id FROM pd_ci_copy WHERE c = 'beta'$$, false);
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), count(DISTINCT c) FROM pd_ci_t GROUP BY c;
SELECT same FROM mf_agree($$SELECT count(*), count(DISTINCT c) FROM pd_ci_t GROUP BY c$$,
  $$SELECT count(*), count(DISTINCT c) FROM pd_ci_copy GROUP BY c$$, false);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd_t WHERE c = 'beta' COLLATE pd_ci;
SELECT * FROM pd_agree($$SELECT id FROM pd_t WHERE c = 'beta' COLLATE pd_ci$$);
SELECT * FROM pd_agree($$SELECT count(*) FROM pd_t GROUP BY c COLLATE pd_ci$$);
-- the default collation still goes
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT c) FROM pd_t WHERE c = 'beta';
DROP TABLE pd_ci_copy;
DROP FOREIGN TABLE pd_ci_t;
DROP COLLATION pd_ci;

DROP FUNCTION pd_agree(text, boolean);
DROP TABLE pd_copy;
DROP FOREIGN TABLE pd_t;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.pd_t$$);
