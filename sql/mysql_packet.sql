--
-- mysql_packet: MariaDB refuses a request over its max_allowed_packet and
-- drops the session with it, whatever batch_bytes says.  Multi-row
-- INSERTs are cut under the server's real limit, and a row that cannot
-- fit is refused before anything of it is sent, naming the server, the
-- limit and the row.  The test bed's server keeps the default, 16 MB,
-- which is also batch_bytes' default.
--
CREATE SCHEMA my_packet;
SET search_path = my_packet, public;

SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM DUAL WHERE @@max_allowed_packet = 16777216$$) AS limit_is_16mb;

SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS packet_wide');
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE packet_wide (id int PRIMARY KEY, t longtext, b longblob)$$);
CREATE FOREIGN TABLE wide_values (id int, t text, b bytea)
  SERVER my_real OPTIONS (table_name 'packet_wide', insert_method 'values');
CREATE FOREIGN TABLE wide_array (id int, t text, b bytea)
  SERVER my_real OPTIONS (table_name 'packet_wide', insert_method 'array');
CREATE FOREIGN TABLE wide_row (id int, t text, b bytea)
  SERVER my_real OPTIONS (table_name 'packet_wide', insert_method 'row');
-- what the remote holds, counted by the remote itself
CREATE FUNCTION remote_rows() RETURNS bigint LANGUAGE sql AS $$
  SELECT multi_fdw_exec('my_real', 'SELECT id FROM packet_wide')
$$;

-- 1,000 rows of 17 kB: 16.6 MB in all, more than one request may carry
-- (one statement of 1,000 rows used to be refused: batch_bytes is 16 MB)
INSERT INTO wide_values
  SELECT g, repeat(chr(97 + g % 26), 17408), NULL FROM generate_series(1, 1000) g;
\echo inserted :ROW_COUNT
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM packet_wide
  HAVING count(*) = 1000 AND sum(length(t)) = 17408000
     AND sum(t = repeat(char(97 + id % 26), 17408)) = 1000$$) AS remote_rows_exact;
SELECT multi_fdw_exec('my_real', 'TRUNCATE packet_wide');

-- bytea goes decoded: 10 MB of bytes is 20 MB of hex text, and still fits
INSERT INTO wide_values
  SELECT 1, NULL, decode(repeat('00ff5c', 3500000), 'hex');
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM packet_wide WHERE length(b) = 10500000
     AND b = REPEAT(UNHEX('00FF5C'), 3500000)$$) AS bytes_exact;
SELECT multi_fdw_exec('my_real', 'TRUNCATE packet_wide');

-- a row over the limit, by each method: the error names the row and the
-- limit, the connection survives, and nothing stays on the remote
INSERT INTO wide_values
  SELECT g, repeat('x', CASE WHEN g = 3 THEN 16777200 ELSE 10 END), NULL
    FROM generate_series(1, 4) g;
SELECT remote_rows();
INSERT INTO wide_array
  SELECT g, repeat('x', CASE WHEN g = 2 THEN 16777200 ELSE 10 END), NULL
    FROM generate_series(1, 3) g;
SELECT remote_rows();
INSERT INTO wide_row
  SELECT g, repeat('x', CASE WHEN g = 2 THEN 16777200 ELSE 10 END), NULL
    FROM generate_series(1, 3) g;
SELECT remote_rows();
-- a single bytea value that alone exceeds the limit
INSERT INTO wide_array VALUES (1, NULL, decode(repeat('ab', 16777300), 'hex'));
SELECT remote_rows();
SELECT server_name, valid FROM multi_fdw_get_connections()
 WHERE server_name = 'my_real';

-- the same through MariaDB's ODBC driver, which sends values in the same
-- binary protocol
\getenv my_user MF_MY_USER
\getenv my_password MF_MY_PASSWORD
CREATE SERVER odbc_packet FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_packet
  OPTIONS (user :'my_user', password :'my_password');
CREATE FOREIGN TABLE odbc_values (id int, t text, b bytea)
  SERVER odbc_packet OPTIONS (table_name 'packet_wide', insert_method 'values');
CREATE FOREIGN TABLE odbc_array (id int, t text, b bytea)
  SERVER odbc_packet OPTIONS (table_name 'packet_wide', insert_method 'array');
CREATE FOREIGN TABLE odbc_row (id int, t text, b bytea)
  SERVER odbc_packet OPTIONS (table_name 'packet_wide', insert_method 'row');
INSERT INTO odbc_values
  SELECT g, repeat(chr(97 + g % 26), 17408), NULL FROM generate_series(1, 1000) g;
\echo inserted :ROW_COUNT
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM packet_wide
  HAVING count(*) = 1000 AND sum(length(t)) = 17408000$$) AS remote_rows_exact;
SELECT multi_fdw_exec('my_real', 'TRUNCATE packet_wide');
INSERT INTO odbc_values
  SELECT g, repeat('x', CASE WHEN g = 2 THEN 16777200 ELSE 10 END), NULL
    FROM generate_series(1, 2) g;
INSERT INTO odbc_array
  SELECT g, repeat('x', CASE WHEN g = 3 THEN 16777200 ELSE 10 END), NULL
    FROM generate_series(1, 3) g;
INSERT INTO odbc_row
  SELECT g, repeat('x', CASE WHEN g = 2 THEN 16777200 ELSE 10 END), NULL
    FROM generate_series(1, 2) g;
SELECT remote_rows();
SELECT server_name, valid FROM multi_fdw_get_connections()
 WHERE server_name = 'odbc_packet';
DROP SERVER odbc_packet CASCADE;

SELECT multi_fdw_exec('my_real', 'DROP TABLE packet_wide');
DROP SCHEMA my_packet CASCADE;
RESET search_path;
