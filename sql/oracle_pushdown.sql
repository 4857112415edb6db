--
-- oracle_pushdown: aggregates, GROUP BY, ORDER BY and LIMIT that the
-- oracle dialect ships, executed by the MariaDB stand-in in Oracle mode
-- (the server ora_real of oracle_batch).  Only what Oracle computes as
-- PostgreSQL does, in a spelling Oracle takes, is shipped; see
-- docs/pushdown.md.  Each answer is compared, value by value in text form,
-- with the same query on a local copy of the rows.
--
CREATE SCHEMA ora_pd;
SET search_path = ora_pd, public;
SELECT multi_fdw_exec('ora_real', 'DROP TABLE IF EXISTS "pd"');
SELECT multi_fdw_exec('ora_real', $$
  CREATE TABLE "pd" ("id" NUMBER(9) PRIMARY KEY, "a" NUMBER(9),
                      "b" NUMBER(9), "i" NUMBER(10), "big" NUMBER(19),
                      "s" NUMBER(5), "n" NUMBER(12,3), "f" DOUBLE,
                      "d" DATE, "ts" DATETIME(6), "t" VARCHAR2(20))$$);
CREATE FOREIGN TABLE pd (id int, a int, b int, i int, big bigint,
  s smallint, n numeric(12,3), f float8, d date, ts timestamp, t text)
  SERVER ora_real OPTIONS (table_name 'pd');
\i sql/pushdown_battery.sql

RESET search_path;
DROP SCHEMA ora_pd CASCADE;
SELECT multi_fdw_exec('ora_real', 'DROP TABLE "pd"');
