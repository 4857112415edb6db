--
-- pushdown_battery: the queries oracle_pushdown and sqlserver_pushdown both
-- ask of a foreign table pd (id, a, b, i, big, s, n, f, d, ts, t) of their
-- dialect, in their own schema first on search_path: its rows, a local
-- copy pd_copy, pd_agree() comparing a query's answer with the copy's, and
-- the aggregates, GROUP BY, ORDER BY and LIMIT the dialect ships or keeps
-- here.  Not a suite of its own: each of the two includes it (\i, from the
-- source tree's root, where pg_regress runs).  Plans are printed through
-- mf_explain where versions print them differently.
--
INSERT INTO pd
SELECT g,
       CASE WHEN g % 5 = 0 THEN NULL ELSE g % 7 END,
       CASE WHEN g % 3 = 0 THEN NULL ELSE (g * 37) % 50 - 10 END,
       CASE WHEN g % 4 = 0 THEN NULL WHEN g % 2 = 0 THEN 2147483647
            ELSE -2147483648 + g END,
       CASE WHEN g % 6 = 0 THEN NULL WHEN g % 2 = 0 THEN 9223372036854775807
            ELSE -9223372036854775807 + g * 1000 END,
       CASE WHEN g % 8 = 0 THEN NULL ELSE g % 11 - 5 END,
       CASE WHEN g % 4 = 1 THEN NULL ELSE round((g * 1.37) % 20 - 5, 2) END,
       CASE WHEN g % 5 = 2 THEN NULL ELSE ((g * 7) % 13 - 6) * 0.25 END,
       CASE WHEN g % 7 = 3 THEN NULL WHEN g = 50 THEN date '9999-12-31'
            WHEN g = 51 THEN date '1000-01-01' ELSE date '2024-01-01' + g % 9 END,
       CASE WHEN g % 8 = 5 THEN NULL
            ELSE timestamp '2024-02-29 12:00:00.123456'
                 + g % 17 * interval '37 minutes 1.5 seconds' END,
       (ARRAY[NULL, 'Beta', 'beta', 'alpha', 'alpha ', 'Délta'])[g % 6 + 1]
  FROM generate_series(1, 120) g;

CREATE TABLE pd_copy AS SELECT * FROM pd;
CREATE FUNCTION pd_agree(q text, ordered boolean DEFAULT false,
                         OUT same boolean, OUT remote text)
LANGUAGE sql AS $$
  SELECT same, remote FROM mf_agree(q, regexp_replace(q, '\mpd\M', 'pd_copy', 'g'), ordered)
$$;
-- (16+ would sort the input of an aggregate with its own ORDER BY or
-- DISTINCT below it, which then asks the scan for that order: the plans are
-- made the same on every version)
DO $$BEGIN
  PERFORM pg_catalog.set_config('enable_presorted_aggregate', 'off', false);
EXCEPTION WHEN undefined_object THEN NULL;
END$$;

-- COUNT, SUM of integers, MIN and MAX of integers, floats, dates and
-- timestamps go; the sums of i and big are far beyond int4 and int8
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), sum(b) FROM pd;
SELECT * FROM pd_agree($$SELECT count(*), count(a), count(DISTINCT a), sum(a),
  sum(b), sum(DISTINCT b), sum(i), sum(big), sum(s), min(b), max(b), min(big),
  max(big), min(f), max(f), min(d), max(d), min(ts), max(ts) FROM pd$$);
SELECT sum(i), sum(big) FROM pd;
-- no rows: count 0, the rest NULL
SELECT * FROM pd_agree($$SELECT count(*), sum(b), max(d) FROM pd WHERE a > 1000$$);
-- stay here: avg, numeric sum/min/max (the scale), text, statistics,
-- bool_and, FILTER
EXPLAIN (VERBOSE, COSTS OFF) SELECT avg(a) FROM pd;
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(n) FROM pd;
SELECT * FROM mf_explain($$EXPLAIN (VERBOSE, COSTS OFF) SELECT min(n) FROM pd$$);
SELECT * FROM mf_explain($$EXPLAIN (VERBOSE, COSTS OFF) SELECT max(t) FROM pd$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT t) FROM pd;
EXPLAIN (VERBOSE, COSTS OFF) SELECT stddev(a) FROM pd;
EXPLAIN (VERBOSE, COSTS OFF) SELECT bool_and(a > 0) FROM pd;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FILTER (WHERE b > 0) FROM pd;
SELECT * FROM pd_agree($$SELECT avg(a), sum(n), min(n), max(t),
  count(DISTINCT t), stddev(a), bool_and(a > 0),
  count(*) FILTER (WHERE b > 0) FROM pd$$);
-- count(t) counts non-NULL values: no text comparison
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(t) FROM pd;
SELECT * FROM pd_agree($$SELECT count(t) FROM pd$$);

-- GROUP BY names the expressions (no positions there); HAVING goes along
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, d, count(*), sum(b) FROM pd GROUP BY a, d HAVING count(*) > 1;
SELECT * FROM pd_agree($$SELECT a, d, count(*), sum(b) FROM pd GROUP BY a, d
  HAVING count(*) > 1 AND sum(b) IS NOT NULL$$);
SELECT * FROM pd_agree($$SELECT n, count(*), min(ts) FROM pd GROUP BY n$$);
SELECT * FROM pd_agree($$SELECT f, count(DISTINCT d) FROM pd GROUP BY f$$);
SELECT * FROM pd_agree($$SELECT b, count(*) FROM pd GROUP BY b HAVING max(big) > 0$$);
-- text and arithmetic stay here
EXPLAIN (VERBOSE, COSTS OFF) SELECT t, count(*) FROM pd GROUP BY t;
SELECT * FROM pd_agree($$SELECT t, count(*) FROM pd GROUP BY t$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT a % 3, count(*) FROM pd GROUP BY 1;
SELECT * FROM pd_agree($$SELECT a % 3, count(*) FROM pd GROUP BY 1$$);

-- ORDER BY: a key CASE WHEN x IS NULL ... puts the NULLs where ours go
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd ORDER BY b DESC LIMIT 10;
SELECT * FROM pd_agree($$SELECT id, b FROM pd ORDER BY b DESC, id LIMIT 10$$, true);
SELECT * FROM pd_agree($$SELECT id, a FROM pd ORDER BY a, id$$, true);
SELECT * FROM pd_agree($$SELECT id, a FROM pd ORDER BY a NULLS FIRST, id DESC$$,
                       true);
SELECT * FROM pd_agree($$SELECT id, a FROM pd ORDER BY a DESC NULLS LAST, id$$,
                       true);
SELECT * FROM pd_agree($$SELECT id, big, f FROM pd ORDER BY f DESC, big, id$$, true);
SELECT * FROM pd_agree($$SELECT id, d, ts FROM pd ORDER BY d NULLS FIRST, ts DESC, id
  LIMIT 20$$, true);
SELECT * FROM pd_agree($$SELECT id, n FROM pd ORDER BY n, id DESC LIMIT 15$$, true);
-- text is sorted here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd ORDER BY t, id;
SELECT * FROM pd_agree($$SELECT id, t FROM pd ORDER BY t, id$$, true);
-- LIMIT and OFFSET, with and without a remote ORDER BY
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd ORDER BY id OFFSET 115;
SELECT * FROM pd_agree($$SELECT id FROM pd ORDER BY id OFFSET 115$$, true);
SELECT * FROM pd_agree($$SELECT id FROM pd ORDER BY id LIMIT 0$$, true);
SELECT * FROM pd_agree($$SELECT id FROM pd ORDER BY id DESC LIMIT 3 OFFSET 4$$, true);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT count(*) FROM (SELECT id FROM pd LIMIT 7 OFFSET 110) s;
SELECT count(*) FROM (SELECT id FROM pd LIMIT 7 OFFSET 110) s;
SELECT count(*) FROM (SELECT id FROM pd LIMIT 0) s;
SELECT count(*) FROM (SELECT id FROM pd OFFSET 118) s;
-- WITH TIES is never shipped nor made a cap: the rows tied with the last
-- one come too (a LIMIT used to cut them)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a FROM pd WHERE id > 60 ORDER BY a FETCH FIRST 2 ROWS WITH TIES;
SELECT * FROM pd_agree($$SELECT a FROM pd WHERE id > 60 ORDER BY a
  FETCH FIRST 2 ROWS WITH TIES$$, true);
SELECT * FROM pd_agree($$SELECT a FROM pd ORDER BY a NULLS FIRST
  OFFSET 3 ROWS FETCH FIRST 1 ROW WITH TIES$$, true);
-- a LIMIT computed at run time caps nothing: the cached plan serves
-- another value (it used to be capped at the one it was planned with)
SET mf.lim = '2';
PREPARE pd_lim AS SELECT id FROM pd ORDER BY id
  LIMIT current_setting('mf.lim')::int;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pd_lim;
SET mf.lim = '4';
EXECUTE pd_lim;
DEALLOCATE pd_lim;
RESET mf.lim;
-- a join of two of its tables with a whole row in it is not sent whole:
-- the remote has no row value PostgreSQL would read back as a record.
-- Here the dependent join reads x first; the whole row is x's own
EXPLAIN (COSTS OFF) SELECT x, y.id FROM pd x JOIN pd y ON x.id = y.a
  WHERE y.id < 20;
SELECT * FROM pd_agree($$SELECT x, y.id FROM pd x JOIN pd y ON x.id = y.a
  WHERE y.id < 20$$);
-- the sort and limit of a grouped relation
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, sum(b) FROM pd GROUP BY a ORDER BY sum(b) DESC, a LIMIT 3;
SELECT * FROM pd_agree($$SELECT a, sum(b) FROM pd GROUP BY a
  ORDER BY sum(b) DESC, a LIMIT 3$$, true);
SELECT * FROM pd_agree($$SELECT a, count(*) FROM pd GROUP BY a
  ORDER BY a NULLS FIRST$$, true);
SELECT * FROM pd_agree($$SELECT b, min(d) FROM pd GROUP BY b
  ORDER BY min(d) DESC, b DESC OFFSET 2$$, true);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT count(*) FROM (SELECT a FROM pd GROUP BY a LIMIT 2) s;
SELECT count(*) FROM (SELECT a FROM pd GROUP BY a LIMIT 2) s;
-- a constant of more than 38 digits (Oracle rounds it to 38, SQL Server
-- refuses it, the MariaDB stand-ins drop the digits beyond 81): the
-- comparison stays here
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd
  WHERE n > -2.2600000000000000000000000000000000000000000000000000000000000000000000000000000000001;
SELECT * FROM pd_agree($$SELECT id FROM pd
  WHERE n > -2.2600000000000000000000000000000000000000000000000000000000000000000000000000000000001$$);
-- 38 digits go
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd
  WHERE n > -2.260000000000000000000000000000000001;
-- pushdown 'false' leaves all of it here
ALTER FOREIGN TABLE pd OPTIONS (ADD pushdown 'false');
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), sum(b) FROM pd;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd ORDER BY b DESC LIMIT 10;
ALTER FOREIGN TABLE pd OPTIONS (DROP pushdown);

DROP FUNCTION pd_agree(text, boolean);
DROP TABLE pd_copy;
