--
-- mysql_sampling: ANALYZE of a MariaDB table asks for a sample,
-- WHERE RAND() < fraction (MySQL has no TABLESAMPLE), through the mysql
-- transport and through ODBC.
--
-- The share asked for is ANALYZE's target (3,000 rows at
-- default_statistics_target 10) over the remote's TABLE_ROWS.  That is
-- InnoDB's estimate, which moves with its persistent statistics, so the
-- table here is MyISAM, whose count is exact: 3,000 of 10,000 is 0.3.
-- The statement sent is shown by a DEBUG1 message.
--
SELECT multi_fdw_exec('my_real', 'DROP VIEW IF EXISTS sample_my_v');
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS sample_my');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE sample_my (id int PRIMARY KEY, grp int) ENGINE=MyISAM$$);
SELECT multi_fdw_exec('my_real', $$
  INSERT INTO sample_my SELECT seq, seq % 10 FROM seq_1_to_10000$$);
SELECT multi_fdw_exec('my_real', 'CREATE VIEW sample_my_v AS SELECT * FROM sample_my');

CREATE FOREIGN TABLE sample_my (id int, grp int) SERVER my_real;
CREATE FOREIGN TABLE sample_my_v (id int, grp int) SERVER my_real;
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD
CREATE SERVER sample_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER sample_odbc
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE sample_my_odbc (id int, grp int)
  SERVER sample_odbc OPTIONS (table_name 'sample_my');
SET default_statistics_target = 10;

SET client_min_messages = debug1;
-- auto: a random number per row
ANALYZE sample_my;
ALTER FOREIGN TABLE sample_my OPTIONS (ADD analyze_sampling 'random');
ANALYZE sample_my;
-- the same through MariaDB's ODBC driver
ANALYZE sample_my_odbc;
-- off, and a view (TABLE_ROWS is NULL): every row
ALTER FOREIGN TABLE sample_my OPTIONS (SET analyze_sampling 'off');
ANALYZE sample_my;
ANALYZE sample_my_v;
RESET client_min_messages;

-- a foreign table's option is checked against its server's dialect when
-- ANALYZE runs (its own validation does not know the server)
ALTER FOREIGN TABLE sample_my OPTIONS (SET analyze_sampling 'bernoulli');
ANALYZE sample_my;
ALTER FOREIGN TABLE sample_my OPTIONS (DROP analyze_sampling);

-- sampled: the size is TABLE_ROWS, the statistics come from the sample
ANALYZE sample_my;
SELECT reltuples FROM pg_class WHERE relname = 'sample_my';
SELECT attname, null_frac, n_distinct FROM pg_stats
 WHERE schemaname = 'public' AND tablename = 'sample_my' ORDER BY attname;

RESET default_statistics_target;
DROP FOREIGN TABLE sample_my, sample_my_v;
DROP SERVER sample_odbc CASCADE;
SELECT multi_fdw_exec('my_real', 'DROP VIEW sample_my_v');
SELECT multi_fdw_exec('my_real', 'DROP TABLE sample_my');

-- ANALYZE imports the statistics of a remote PostgreSQL only
-- (pg_restore_stats): a server of a dialect that cannot read the remote's
-- refuses restore_stats on, takes it off
CREATE SERVER rs_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', restore_stats 'true');
CREATE SERVER rs_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', restore_stats 'false');
DROP SERVER rs_ms;
