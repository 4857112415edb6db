--
-- odbc_exchanges: what a short transaction costs through the ODBC
-- transport, counted by multi_fdw_stats.round_trips (each driver call that
-- waits for the server: SQLExecDirect, SQLPrepare where the driver
-- prepares on the server, SQLExecute, a fetch, SQLEndTran).  psqlODBC to
-- the remote PostgreSQL, and MariaDB's driver under the sqlserver dialect.
-- A count that grows here is an exchange that came back.
--
CREATE SCHEMA oxch;
SET search_path = oxch, public;

\getenv my_host MF_MY_HOST
\getenv my_port MF_MY_PORT
\getenv my_db MF_MY_DB
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

CREATE SERVER oxch_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg');
CREATE USER MAPPING FOR CURRENT_USER SERVER oxch_pg
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE SERVER oxch_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', transport 'odbc', odbc_driver 'MariaDB',
           host :'my_host', port :'my_port', database :'my_db',
           session_sql 'SET SESSION sql_mode = ''MSSQL,STRICT_ALL_TABLES,NO_BACKSLASH_ESCAPES'', time_zone = ''+00:00''');
CREATE USER MAPPING FOR CURRENT_USER SERVER oxch_ms
  OPTIONS (user :'my_user', password :'my_password');

SELECT multi_fdw_exec('oxch_pg', 'DROP TABLE IF EXISTS public.oxch_acct, public.oxch_hist');
SELECT multi_fdw_exec('oxch_pg',
  'CREATE TABLE public.oxch_acct (id int PRIMARY KEY, bal bigint NOT NULL)');
SELECT multi_fdw_exec('oxch_pg',
  'INSERT INTO public.oxch_acct SELECT g, 0 FROM generate_series(1, 10) g');
SELECT multi_fdw_exec('oxch_pg', 'CREATE TABLE public.oxch_hist (acct int, delta int)');
SELECT multi_fdw_exec('oxch_ms', 'DROP TABLE IF EXISTS oxch_acct, oxch_hist');
SELECT multi_fdw_exec('oxch_ms',
  'CREATE TABLE oxch_acct (id int PRIMARY KEY, bal bigint NOT NULL)');
SELECT multi_fdw_exec('oxch_ms',
  'INSERT INTO oxch_acct VALUES (1, 0), (2, 0), (3, 0)');
SELECT multi_fdw_exec('oxch_ms', 'CREATE TABLE oxch_hist (acct int, delta int)');

CREATE FOREIGN TABLE pg_acct (id int, bal bigint)
  SERVER oxch_pg OPTIONS (schema_name 'public', table_name 'oxch_acct');
CREATE FOREIGN TABLE pg_hist (acct int, delta int)
  SERVER oxch_pg OPTIONS (schema_name 'public', table_name 'oxch_hist');
CREATE FOREIGN TABLE ms_acct (id int OPTIONS (key 'true'), bal bigint)
  SERVER oxch_ms OPTIONS (table_name 'oxch_acct');
CREATE FOREIGN TABLE ms_hist (acct int, delta int)
  SERVER oxch_ms OPTIONS (table_name 'oxch_hist');

-- the exchanges with a server since the last call, which starts the count again
CREATE FUNCTION trips(srv text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  SELECT round_trips INTO n FROM multi_fdw_stats WHERE server = srv;
  PERFORM multi_fdw_stats_reset(srv);
  RETURN coalesce(n, 0);
END $$;

-- the short transaction, warm (the first run connects and prepares)
BEGIN;
SELECT bal FROM pg_acct WHERE id = 1;
UPDATE pg_acct SET bal = bal + 1 WHERE id = 1;
INSERT INTO pg_hist VALUES (1, 1);
COMMIT;
SELECT trips('oxch_pg') > 0 AS connected;
BEGIN;
SELECT bal FROM pg_acct WHERE id = 2;
UPDATE pg_acct SET bal = bal + 1 WHERE id = 2;
INSERT INTO pg_hist VALUES (2, 1);
COMMIT;
SELECT trips('oxch_pg') AS pg_short_transaction;

BEGIN;
SELECT bal FROM ms_acct WHERE id = 1;
UPDATE ms_acct SET bal = bal + 1 WHERE id = 1;
INSERT INTO ms_hist VALUES (1, 1);
COMMIT;
SELECT trips('oxch_ms') > 0 AS connected;
BEGIN;
SELECT bal FROM ms_acct WHERE id = 2;
UPDATE ms_acct SET bal = bal + 1 WHERE id = 2;
INSERT INTO ms_hist VALUES (2, 1);
COMMIT;
SELECT trips('oxch_ms') AS ms_short_transaction;

-- three lookups
BEGIN;
SELECT bal FROM pg_acct WHERE id = 1;
SELECT bal FROM pg_acct WHERE id = 2;
SELECT bal FROM pg_acct WHERE id = 3;
COMMIT;
SELECT trips('oxch_pg') AS pg_three_lookups;
BEGIN;
SELECT bal FROM ms_acct WHERE id = 1;
SELECT bal FROM ms_acct WHERE id = 2;
SELECT bal FROM ms_acct WHERE id = 3;
COMMIT;
SELECT trips('oxch_ms') AS ms_three_lookups;

-- a transaction that sends nothing
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM pg_acct;
CLOSE c;
COMMIT;
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM ms_acct;
CLOSE c;
COMMIT;
SELECT trips('oxch_pg') AS pg_nothing_sent, trips('oxch_ms') AS ms_nothing_sent;

-- what arrived
SELECT id, bal FROM pg_acct ORDER BY id LIMIT 3;
SELECT * FROM pg_hist ORDER BY acct;
SELECT id, bal FROM ms_acct ORDER BY id;
SELECT * FROM ms_hist ORDER BY acct;

DROP SCHEMA oxch CASCADE;
SELECT multi_fdw_exec('oxch_pg', 'DROP TABLE public.oxch_acct, public.oxch_hist');
SELECT multi_fdw_exec('oxch_ms', 'DROP TABLE oxch_acct, oxch_hist');
DROP USER MAPPING FOR CURRENT_USER SERVER oxch_pg;
DROP USER MAPPING FOR CURRENT_USER SERVER oxch_ms;
DROP SERVER oxch_pg;
DROP SERVER oxch_ms;
