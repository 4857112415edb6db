--
-- pg_sampling: ANALYZE asks the remote for a sample (analyze_sampling, as
-- in postgres_fdw 16) instead of reading every row.
--
-- The statement ANALYZE sends is shown by a DEBUG1 message, so each case
-- below fails if the sample clause is missing or wrong.  The remote table
-- is ANALYZEd there first: the share asked for is ANALYZE's target sample
-- over the remote's reltuples, exact here (every page is read).  With
-- default_statistics_target 10 the target is 3,000 rows: 3,000 of 10,000
-- is 30 percent.  A sampled ANALYZE takes the table's size from the
-- remote's estimate; the rows in the sample itself are random and not
-- shown.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
SELECT multi_fdw_exec('pg_remote', $$DROP VIEW IF EXISTS public.sample_v$$);
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.sample_t, public.sample_small$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.sample_t (id int PRIMARY KEY, grp int)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.sample_t SELECT i, i % 10 FROM generate_series(1, 10000) i$$);
SELECT multi_fdw_exec('pg_remote', $$CREATE VIEW public.sample_v AS SELECT * FROM public.sample_t$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.sample_small AS SELECT * FROM public.sample_t WHERE id <= 100$$);
SELECT multi_fdw_exec('pg_remote', $$ANALYZE public.sample_t$$);
SELECT multi_fdw_exec('pg_remote', $$ANALYZE public.sample_small$$);

-- the remote's statistics are not imported here (pg_restore_stats)
CREATE FOREIGN TABLE sample_t (id int, grp int) SERVER pg_remote
  OPTIONS (restore_stats 'false');
CREATE FOREIGN TABLE sample_v (id int, grp int) SERVER pg_remote
  OPTIONS (restore_stats 'false');
CREATE FOREIGN TABLE sample_small (id int, grp int) SERVER pg_remote
  OPTIONS (restore_stats 'false');
SET default_statistics_target = 10;

-- ===================================================================
-- the option's values
-- ===================================================================
-- postgres_fdw's values, any case; anything else is refused, naming the
-- option and the valid values
ALTER FOREIGN TABLE sample_t OPTIONS (ADD analyze_sampling 'often');
ALTER FOREIGN TABLE sample_t OPTIONS (ADD analyze_sampling '');
ALTER SERVER pg_remote OPTIONS (ADD analyze_sampling 'tablesample');
CREATE SERVER sample_bad FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', analyze_sampling 'yes');
-- allowed on a server and a foreign table, nowhere else
CREATE USER MAPPING FOR PUBLIC SERVER pg_remote OPTIONS (analyze_sampling 'off');
-- a dialect without an exact equivalent of a method refuses it: MySQL has
-- no TABLESAMPLE, SQL Server none that draws single rows
CREATE SERVER sample_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', analyze_sampling 'system');
CREATE SERVER sample_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', analyze_sampling 'bernoulli');
CREATE SERVER sample_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', analyze_sampling 'system');
CREATE SERVER sample_ora FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'oracle', analyze_sampling 'BERNOULLI');
CREATE SERVER sample_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', analyze_sampling 'random');
DROP SERVER sample_my, sample_ms, sample_ora;

-- ===================================================================
-- what ANALYZE sends
-- ===================================================================
SET client_min_messages = debug1;
-- auto: BERNOULLI, postgres_fdw's choice for a remote table on 9.5 or later
ANALYZE sample_t;
ALTER FOREIGN TABLE sample_t OPTIONS (ADD analyze_sampling 'System');
ANALYZE sample_t;
ALTER FOREIGN TABLE sample_t OPTIONS (SET analyze_sampling 'bernoulli');
ANALYZE sample_t;
ALTER FOREIGN TABLE sample_t OPTIONS (SET analyze_sampling 'random');
ANALYZE sample_t;
-- off: every row
ALTER FOREIGN TABLE sample_t OPTIONS (SET analyze_sampling 'off');
ANALYZE sample_t;
-- the table's option overrides the server's
ALTER FOREIGN TABLE sample_t OPTIONS (DROP analyze_sampling);
ALTER SERVER pg_remote OPTIONS (ADD analyze_sampling 'random');
ANALYZE sample_t;
ALTER FOREIGN TABLE sample_t OPTIONS (ADD analyze_sampling 'auto');
ANALYZE sample_t;
ALTER SERVER pg_remote OPTIONS (DROP analyze_sampling);
ALTER FOREIGN TABLE sample_t OPTIONS (DROP analyze_sampling);
-- a bigger target asks for a bigger share
ALTER FOREIGN TABLE sample_t ALTER COLUMN grp SET STATISTICS 20;
ANALYZE sample_t;
ALTER FOREIGN TABLE sample_t ALTER COLUMN grp SET STATISTICS -1;
-- no sampling where every row is wanted anyway: a table no bigger than
-- the sample, a view (no reltuples), a table the remote never analyzed
ANALYZE sample_small;
ANALYZE sample_v;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.sample_small$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.sample_small AS SELECT * FROM public.sample_t$$);
ANALYZE sample_small;
RESET client_min_messages;

-- ===================================================================
-- what ANALYZE found
-- ===================================================================
-- sampled: the size is the remote's estimate, 10,000
ANALYZE sample_t;
SELECT relname, reltuples FROM pg_class
 WHERE relname IN ('sample_t', 'sample_v', 'sample_small') ORDER BY relname;
SELECT attname, null_frac, n_distinct FROM pg_stats
 WHERE schemaname = 'public' AND tablename = 'sample_t' AND attname = 'grp';
-- the planner's estimate follows
EXPLAIN (COSTS ON) SELECT * FROM sample_t;

RESET default_statistics_target;
DROP FOREIGN TABLE sample_t, sample_v, sample_small;
SELECT multi_fdw_exec('pg_remote', $$DROP VIEW public.sample_v$$);
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.sample_t, public.sample_small$$);
