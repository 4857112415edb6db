--
-- pg_xjoin_keys: join keys the dependent join must not ship, and the
-- answers it gives instead.  A join whose equality is of a nondeterministic
-- collation ('ABC' = 'abc') is not one of bytes: its keys are neither
-- grouped here by their bytes nor shipped (a build without ICU has no such
-- collation: pg_xjoin_keys_1.out).  A type without an array type
-- (int[]) cannot go as the array PostgreSQL takes.
--
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.xkr$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.xkr (id int PRIMARY KEY, code text, tags int[])$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.xkr VALUES (1, 'Beta', '{1,2}'), (2, 'beta', '{3}'),
    (3, 'alpha', NULL), (4, 'BETA', '{1,2}')$$);
CREATE FOREIGN TABLE xkr (id int, code text, tags int[])
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE TABLE lxkr AS SELECT * FROM xkr;
ANALYZE xkr, lxkr;
-- does the plan of q have a dependent join?
CREATE FUNCTION xk_dep(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    IF line ~ 'dependent join' THEN
      RETURN true;
    END IF;
  END LOOP;
  RETURN false;
END$$;

-- int[] keys: joined, not shipped as an array of arrays
CREATE TABLE xka (tags int[], tag text);
INSERT INTO xka VALUES ('{1,2}', 'a'), ('{3}', 'b'), ('{9}', 'none');
ANALYZE xka;
SELECT xk_dep('SELECT xka.tag, xkr.id FROM xka JOIN xkr ON xkr.tags = xka.tags');
SELECT xka.tag, xkr.id FROM xka JOIN xkr ON xkr.tags = xka.tags ORDER BY 1, 2;

DO $$
BEGIN
  CREATE COLLATION xj_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END$$;
SELECT EXISTS (SELECT FROM pg_collation WHERE collname = 'xj_ci') AS has_icu \gset
\if :has_icu
CREATE TABLE xkc (t text COLLATE xj_ci);
INSERT INTO xkc VALUES ('BETA'), ('Alpha'), ('gamma');
ANALYZE xkc;
-- the join's equality is xj_ci's (a collation of its own beats the
-- default): keys of no byte-wise equality, so no dependent join on them
SELECT xk_dep('SELECT xkc.t, xkr.id FROM xkc JOIN xkr ON xkr.code = xkc.t');
SELECT xkc.t, xkr.id FROM xkc JOIN xkr ON xkr.code = xkc.t ORDER BY 1, 2;
SELECT xkc.t, lxkr.id FROM xkc JOIN lxkr ON lxkr.code = xkc.t ORDER BY 1, 2;
SELECT * FROM xkc WHERE NOT EXISTS (SELECT 1 FROM xkr WHERE xkr.code = xkc.t) ORDER BY 1;
-- a deterministic collation of the join's own is byte-wise: shipped
SELECT xk_dep('SELECT xkc.t, xkr.id FROM xkc JOIN xkr ON xkr.code = xkc.t COLLATE "C"');
SELECT xkc.t, xkr.id FROM xkc JOIN xkr ON xkr.code = xkc.t COLLATE "C" ORDER BY 1, 2;
DROP TABLE xkc;
DROP COLLATION xj_ci;
\else
\echo 'this build has no ICU: no nondeterministic collation to join under'
\endif

RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;
DROP FUNCTION xk_dep;
DROP TABLE xka, lxkr;
DROP FOREIGN TABLE xkr;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.xkr$$);
