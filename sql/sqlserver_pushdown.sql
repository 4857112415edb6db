--
-- sqlserver_pushdown: aggregates, GROUP BY, ORDER BY and LIMIT that the
-- sqlserver dialect ships, executed by the MariaDB stand-in in MSSQL mode
-- (the server ms_maria of sqlserver_batch).  Only what SQL Server computes
-- as PostgreSQL does, in a spelling SQL Server takes, is shipped; see
-- docs/pushdown.md.  Each answer is compared, value by value in text form,
-- with the same query on a local copy of the rows.
--
CREATE SCHEMA ms_pd;
SET search_path = ms_pd, public;
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE IF EXISTS [pd]');
SELECT multi_fdw_exec('ms_maria', $$
  CREATE TABLE [pd] ([id] int PRIMARY KEY, [a] int, [b] int, [i] int,
                      [big] bigint, [s] smallint, [n] decimal(12,3),
                      [f] double, [d] date, [ts] datetime(6),
                      [t] nvarchar(20))$$);
CREATE FOREIGN TABLE pd (id int, a int, b int, i int, big bigint,
  s smallint, n numeric(12,3), f float8, d date, ts timestamp, t text)
  SERVER ms_maria OPTIONS (table_name 'pd');
\i sql/pushdown_battery.sql

-- SQL Server compares text by the column's collation, and pads with
-- spaces under every one ('alpha' = 'alpha '): even for a column marked
-- text_pushdown, =, grouping and sorting stay here
ALTER FOREIGN TABLE pd ALTER COLUMN t OPTIONS (ADD text_pushdown 'true');
EXPLAIN (VERBOSE, COSTS OFF) SELECT t, count(*) FROM pd WHERE t = 'beta' OR t = 'alpha' GROUP BY t;
SELECT * FROM mf_explain($$EXPLAIN (VERBOSE, COSTS OFF) SELECT min(t) FROM pd$$);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd ORDER BY t, id LIMIT 3;
ALTER FOREIGN TABLE pd ALTER COLUMN t OPTIONS (DROP text_pushdown);
-- text under a nondeterministic local collation ('Beta' = 'beta') stays
-- here, even for a byte-wise column marked text_pushdown
CREATE COLLATION ms_ci (provider = icu, locale = 'und-u-ks-level2',
                        deterministic = false);
SELECT multi_fdw_exec('ms_maria', $$
  CREATE TABLE [msc] ([id] int PRIMARY KEY,
    [t] varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin)$$);
SELECT multi_fdw_exec('ms_maria', $$
  INSERT INTO [msc] VALUES (1, 'Beta'), (2, 'beta'), (3, 'alpha')$$);
CREATE FOREIGN TABLE msc (id int,
  t text OPTIONS (text_pushdown 'true') COLLATE ms_ci)
  SERVER ms_maria OPTIONS (table_name 'msc');
CREATE TABLE msc_copy AS SELECT * FROM msc;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM msc WHERE t = 'beta';
SELECT same FROM mf_agree($$SELECT id FROM msc WHERE t = 'beta'$$,
  $$SELECT id FROM msc_copy WHERE t = 'beta'$$, false);
DROP TABLE msc_copy;
DROP FOREIGN TABLE msc;
DROP COLLATION ms_ci;
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE [msc]');

RESET search_path;
DROP SCHEMA ms_pd CASCADE;
SELECT multi_fdw_exec('ms_maria', 'DROP TABLE [pd]');
