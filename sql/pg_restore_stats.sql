--
-- pg_restore_stats: ANALYZE of a foreign table imports the remote's own
-- statistics (restore_stats, on by default for a remote PostgreSQL, as in
-- postgres_fdw 19) instead of sampling its rows, where every analyzed
-- column has them under the same built-in type; otherwise it samples.
--
-- Imported and sampled statistics are told apart by the row count: the
-- remote analyzed rs_t at 20,000 rows and got 1,000 more since, so an
-- import says 20,000 and a sample of every row (analyze_sampling 'off')
-- 21,000.
--
SET multi_fdw.whole_queries = off;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.rs_t, public.rs_fresh, public.rs_case, public.rs_inh CASCADE$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.rs_t (id int PRIMARY KEY, grp int, name text, d date,
                            price numeric(10,2), note text, tags int[])
    WITH (autovacuum_enabled = false)$$);
-- grp: 200 values, the small ones common; note: NULL in two rows of three
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.rs_t
  SELECT i, (i * i) % 200, 'name ' || (i % 3000), DATE '2026-01-01' + i % 700,
         (i % 5000) / 7.0, CASE WHEN i % 3 = 0 THEN 'n' || i END, ARRAY[i % 4]
    FROM generate_series(1, 20000) i$$);
SELECT multi_fdw_exec('pg_remote', $$ANALYZE public.rs_t$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.rs_t SELECT i, 7, 'late', NULL, 0, NULL, NULL
    FROM generate_series(20001, 21000) i$$);
-- never analyzed there (autovacuum would, in a while)
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.rs_fresh WITH (autovacuum_enabled = false)
      AS SELECT id, grp FROM public.rs_t$$);
-- ordered by bytes there; half the values start with a capital
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.rs_case (id int, v text COLLATE "C")$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.rs_case
  SELECT i, CASE WHEN i % 2 = 0 THEN upper(md5(i::text)) ELSE md5(i::text) END
    FROM generate_series(1, 5000) i
  UNION ALL SELECT 0, 'common' FROM generate_series(1, 500)$$);
SELECT multi_fdw_exec('pg_remote', $$ANALYZE public.rs_case$$);
-- an inheritance parent, analyzed: its own statistics leave out the child
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.rs_inh (id int, grp int) WITH (autovacuum_enabled = false)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.rs_inh_c () INHERITS (public.rs_inh) WITH (autovacuum_enabled = false)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.rs_inh SELECT i, i FROM generate_series(1, 100) i$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.rs_inh_c SELECT i, i FROM generate_series(1, 200) i$$);
SELECT multi_fdw_exec('pg_remote', $$ANALYZE public.rs_inh$$);

-- the remote's pg_stats, read through a foreign table of its own
CREATE FOREIGN TABLE rs_remote_stats (
  schemaname name, tablename name, attname name, null_frac real,
  avg_width int, n_distinct real, most_common_vals text,
  most_common_freqs real[], histogram_bounds text, correlation real)
  SERVER pg_remote OPTIONS (schema_name 'pg_catalog', table_name 'pg_stats');

-- ===================================================================
-- the option
-- ===================================================================
-- a boolean, on a server or a foreign table (other dialects: the end of
-- mysql_sampling)
ALTER FOREIGN TABLE rs_remote_stats OPTIONS (ADD restore_stats 'perhaps');
CREATE USER MAPPING FOR PUBLIC SERVER pg_remote OPTIONS (restore_stats 'on');

-- ===================================================================
-- imported
-- ===================================================================
CREATE FOREIGN TABLE rs_t (id int, grp int, name text, d date,
                           price numeric(10,2), note text)
  SERVER pg_remote OPTIONS (table_name 'rs_t');
ANALYZE rs_t;
-- the row count, and every figure of every column, are the remote's (the
-- remote's text comes in ISO dates)
SET datestyle = ISO;
SELECT relname, reltuples FROM pg_class WHERE relname = 'rs_t';
SELECT l.attname,
       l.null_frac = r.null_frac AS null_frac,
       l.avg_width = r.avg_width AS avg_width,
       l.n_distinct = r.n_distinct AS n_distinct,
       l.most_common_vals::text IS NOT DISTINCT FROM r.most_common_vals AS mcv,
       l.most_common_freqs IS NOT DISTINCT FROM r.most_common_freqs AS mcf,
       l.histogram_bounds::text IS NOT DISTINCT FROM r.histogram_bounds AS hist,
       l.correlation IS NOT DISTINCT FROM r.correlation AS corr,
       cardinality(l.most_common_vals::text::text[]) AS n_mcv,
       cardinality(l.histogram_bounds::text::text[]) AS n_hist
  FROM pg_stats l
  JOIN rs_remote_stats r ON r.schemaname = 'public' AND r.tablename = 'rs_t'
                        AND r.attname = l.attname
 WHERE l.schemaname = 'public' AND l.tablename = 'rs_t'
 ORDER BY l.attname;

-- the planner's estimates follow: grp = 0 is one of the common values
EXPLAIN (COSTS ON) SELECT * FROM rs_t WHERE grp = 0;

-- no more than the local statistics target asks for: the remote's most
-- common values first, its histogram thinned from first bound to last
SET default_statistics_target = 10;
ANALYZE rs_t;
SELECT l.attname,
       cardinality(l.most_common_vals::text::text[]) AS n_mcv,
       (l.most_common_vals::text::text[])
         = (r.most_common_vals::text[])[1:10] AS first_mcvs,
       l.most_common_freqs = r.most_common_freqs[1:10] AS first_freqs,
       cardinality(l.histogram_bounds::text::text[]) AS n_hist,
       (l.histogram_bounds::text::text[])[1] = (r.histogram_bounds::text[])[1]
         AND (l.histogram_bounds::text::text[])[11]
             = (r.histogram_bounds::text[])[cardinality(r.histogram_bounds::text[])]
         AS ends
  FROM pg_stats l
  JOIN rs_remote_stats r ON r.schemaname = 'public' AND r.tablename = 'rs_t'
                        AND r.attname = l.attname
 WHERE l.schemaname = 'public' AND l.tablename = 'rs_t'
 ORDER BY l.attname;
RESET default_statistics_target;
RESET datestyle;

-- a column's n_distinct wins over the remote's figure
ALTER FOREIGN TABLE rs_t ALTER COLUMN grp SET (n_distinct = 123);
ANALYZE rs_t;
SELECT n_distinct FROM pg_stats WHERE tablename = 'rs_t' AND attname = 'grp';
ALTER FOREIGN TABLE rs_t ALTER COLUMN grp RESET (n_distinct);

-- a column whose statistics target is 0 is not asked for, nor given any
CREATE FOREIGN TABLE rs_t_tags (id int, tags int[])
  SERVER pg_remote OPTIONS (table_name 'rs_t', analyze_sampling 'off');
ALTER FOREIGN TABLE rs_t_tags ALTER COLUMN tags SET STATISTICS 0;
ANALYZE rs_t_tags;
SELECT attname, cardinality(histogram_bounds::text::text[]) AS n_hist
  FROM pg_stats WHERE tablename = 'rs_t_tags' ORDER BY attname;
SELECT relname, reltuples FROM pg_class WHERE relname = 'rs_t_tags';

-- a remote collation that sorts otherwise: the common values are kept,
-- the histogram and the correlation (of the remote's order) are not
CREATE FOREIGN TABLE rs_case (id int, v text COLLATE "und-x-icu")
  SERVER pg_remote OPTIONS (table_name 'rs_case');
ANALYZE rs_case;
SELECT attname, most_common_vals::text AS mcv,
       histogram_bounds IS NULL AS no_hist, correlation IS NULL AS no_corr
  FROM pg_stats WHERE tablename = 'rs_case' AND attname = 'v';
-- under the remote's collation all of it is kept
ALTER FOREIGN TABLE rs_case ALTER COLUMN v TYPE text COLLATE "C";
ANALYZE rs_case;
SELECT attname, cardinality(histogram_bounds::text::text[]) AS n_hist,
       correlation IS NULL AS no_corr
  FROM pg_stats WHERE tablename = 'rs_case' AND attname = 'v';

-- ===================================================================
-- sampled
-- ===================================================================
-- each case says why at ANALYZE's level (VERBOSE: INFO; not shown here,
-- where the catalog caches' DEBUG messages would come between); the
-- sample reads every row and counts 21,000 of them
-- the remote never analyzed the table
CREATE FOREIGN TABLE rs_fresh (id int, grp int)
  SERVER pg_remote OPTIONS (table_name 'rs_fresh');
ANALYZE rs_fresh;
-- a local type that is not the remote's
CREATE FOREIGN TABLE rs_t_text (id int, grp text)
  SERVER pg_remote OPTIONS (table_name 'rs_t', analyze_sampling 'off');
ANALYZE rs_t_text;
-- an array (its analysis has slots of its own)
ALTER FOREIGN TABLE rs_t_tags ALTER COLUMN tags SET STATISTICS -1;
ANALYZE rs_t_tags;
-- an OID alias names the remote's objects
CREATE FOREIGN TABLE rs_t_oid (id int, grp regclass)
  SERVER pg_remote OPTIONS (table_name 'rs_t', analyze_sampling 'off');
ALTER FOREIGN TABLE rs_t_oid ALTER COLUMN grp SET STATISTICS 0;
ALTER FOREIGN TABLE rs_t_oid ALTER COLUMN id TYPE regclass;
ANALYZE rs_t_oid;
-- extended statistics are built from a sample
CREATE FOREIGN TABLE rs_t_ext (id int, grp int)
  SERVER pg_remote OPTIONS (table_name 'rs_t', analyze_sampling 'off');
CREATE STATISTICS rs_t_ext_s ON id, grp FROM rs_t_ext;
ANALYZE rs_t_ext;
-- a remote inheritance parent: its scan reads its child too
CREATE FOREIGN TABLE rs_inh (id int, grp int)
  SERVER pg_remote OPTIONS (table_name 'rs_inh', analyze_sampling 'off');
ANALYZE rs_inh;
-- the option off
CREATE FOREIGN TABLE rs_t_off (id int, grp int)
  SERVER pg_remote OPTIONS (table_name 'rs_t', restore_stats 'false',
                            analyze_sampling 'off');
ANALYZE rs_t_off;
-- off on the server, on for the table: imported
ALTER SERVER pg_remote OPTIONS (ADD restore_stats 'off');
CREATE FOREIGN TABLE rs_t_on (id int, grp int)
  SERVER pg_remote OPTIONS (table_name 'rs_t', restore_stats 'on');
ANALYZE rs_t_on;
ALTER SERVER pg_remote OPTIONS (DROP restore_stats);
SELECT relname, reltuples FROM pg_class
 WHERE relname IN ('rs_fresh', 'rs_t_text', 'rs_t_tags', 'rs_t_oid',
                   'rs_t_ext', 'rs_inh', 'rs_t_off', 'rs_t_on')
 ORDER BY relname;
SELECT statistics_name, n_distinct IS NOT NULL AS built
  FROM pg_stats_ext WHERE tablename = 'rs_t_ext';

-- a foreign partition: ANALYZE of the partitioned table imports the
-- partition's own statistics, and samples its rows for the parent's
CREATE TABLE rs_parent (id int, grp int) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE rs_part PARTITION OF rs_parent FOR VALUES FROM (1) TO (100000)
  SERVER pg_remote OPTIONS (table_name 'rs_t', analyze_sampling 'off');
ANALYZE rs_parent;
SELECT relname, reltuples FROM pg_class
 WHERE relname IN ('rs_parent', 'rs_part') ORDER BY relname;
SELECT tablename, inherited, attname, n_distinct
  FROM pg_stats WHERE tablename IN ('rs_parent', 'rs_part')
 ORDER BY tablename, attname;

DROP TABLE rs_parent;
DROP FOREIGN TABLE rs_t, rs_t_tags, rs_t_text, rs_t_oid, rs_t_ext, rs_t_off,
  rs_t_on, rs_fresh, rs_case, rs_inh, rs_remote_stats;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.rs_t, public.rs_fresh, public.rs_case, public.rs_inh CASCADE$$);
