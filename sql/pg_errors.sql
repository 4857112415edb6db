--
-- pg_errors: errors of the remote PostgreSQL reach the user with their
-- SQLSTATE, message, detail and hint, and with a context naming the remote
-- statement (and for batches, the row of the statement's input).
--
-- After each error, \echo :LAST_ERROR_SQLSTATE shows its SQLSTATE (the
-- verbose form of the messages would also show source lines of the
-- extension, which change with every edit).
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
CREATE SCHEMA errs;
SET search_path = errs, public;
\set SHOW_CONTEXT errors

\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS errs_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA errs_r');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE errs_r.parent (id int PRIMARY KEY)$$);
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO errs_r.parent VALUES (1), (2)$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE errs_r.t (
    id int PRIMARY KEY,
    name text NOT NULL,
    qty int CHECK (qty > 0),
    parent int REFERENCES errs_r.parent,
    small int2,
    price numeric(5,2),
    code varchar(3),
    word text)$$);
-- the local table is more permissive than the remote one
CREATE FOREIGN TABLE t (id int, name text, qty int, parent int, small int,
                        price numeric, code text, word text)
  SERVER pg_remote OPTIONS (schema_name 'errs_r');
CREATE FOREIGN TABLE t_values (id int, name text, qty int, parent int, small int,
                               price numeric, code text, word text)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 't',
                            insert_method 'values');
CREATE FUNCTION remote_rows() RETURNS bigint LANGUAGE sql AS $$
  SELECT multi_fdw_exec('pg_remote', 'SELECT FROM errs_r.t');
$$;
INSERT INTO t (id, name, qty, parent) VALUES (1, 'one', 1, 1), (2, 'two', 2, 2);

--
-- unique violation
--
INSERT INTO t (id, name) VALUES (1, 'again');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t_values (id, name) VALUES (1, 'again');
\echo :LAST_ERROR_SQLSTATE
-- inside a batch of 1000 rows: the row is named, and none of them stays
INSERT INTO t (id, name) SELECT CASE WHEN g = 500 THEN 2 ELSE g + 100 END, 'b'
  FROM generate_series(1, 1000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();
INSERT INTO t_values (id, name) SELECT CASE WHEN g = 500 THEN 2 ELSE g + 100 END, 'b'
  FROM generate_series(1, 1000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();
-- in the third batch of a statement: the earlier batches are gone too
INSERT INTO t (id, name) SELECT CASE WHEN g = 2500 THEN 1 ELSE g + 100 END, 'b'
  FROM generate_series(1, 3000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();
INSERT INTO t_values (id, name) SELECT CASE WHEN g = 2500 THEN 1 ELSE g + 100 END, 'b'
  FROM generate_series(1, 3000) g;
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();
-- while the rows come from a foreign table of the same server: its scan
-- ends the COPY every 100 rows, the error still names the statement's row
CREATE FOREIGN TABLE source (id int)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', fetch_size '100');
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE errs_r.source AS
    SELECT CASE WHEN g = 250 THEN 1 ELSE g + 100 END AS id
      FROM generate_series(1, 400) g$$);
CREATE FOREIGN TABLE t_small_batches (id int, name text)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 't', batch_size '50');
INSERT INTO t_small_batches SELECT id, 'from source' FROM source;
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();
-- two rows of the same statement collide with each other
INSERT INTO t (id, name) VALUES (10, 'x'), (11, 'y'), (10, 'z');
\echo :LAST_ERROR_SQLSTATE
-- by UPDATE
UPDATE t SET id = 1 WHERE id = 2;
\echo :LAST_ERROR_SQLSTATE

--
-- not-null, check and foreign key constraints
--
INSERT INTO t (id, name) VALUES (20, 'ok'), (21, 'ok'), (22, NULL);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t_values (id, name) VALUES (20, 'ok'), (21, 'ok'), (22, NULL);
\echo :LAST_ERROR_SQLSTATE
UPDATE t SET name = NULL WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t (id, name, qty) VALUES (30, 'ok', 1), (31, 'bad', 0);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t_values (id, name, qty) VALUES (30, 'ok', 1), (31, 'bad', 0);
\echo :LAST_ERROR_SQLSTATE
UPDATE t SET qty = qty - 5;
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t (id, name, parent) VALUES (40, 'orphan', 99);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t_values (id, name, parent) VALUES (40, 'orphan', 99);
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();

--
-- values the remote column cannot hold
--
-- numeric out of range: the remote column is int2, and numeric(5,2)
INSERT INTO t (id, name, small) VALUES (50, 'big', 40000);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t_values (id, name, small) VALUES (50, 'big', 40000);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t (id, name, price) VALUES (51, 'dear', 12345.678);
\echo :LAST_ERROR_SQLSTATE
UPDATE t SET price = 1000 WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
-- string too long: the remote column is varchar(3)
INSERT INTO t (id, name, code) VALUES (52, 'long', 'abcd');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t_values (id, name, code) VALUES (52, 'long', 'abcd');
\echo :LAST_ERROR_SQLSTATE
UPDATE t SET code = 'abcd' WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();

--
-- errors of expressions evaluated remotely
--
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM t WHERE 10 / (id - 2) > 0;
SELECT id FROM t WHERE 10 / (id - 2) > 0;
\echo :LAST_ERROR_SQLSTATE
UPDATE t SET qty = qty / (id - 1);
\echo :LAST_ERROR_SQLSTATE
SELECT id FROM t WHERE qty * 2147483647 > 0;
\echo :LAST_ERROR_SQLSTATE

--
-- the remote table or column is not there
--
CREATE FOREIGN TABLE missing_table (id int)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 'no_such_table');
SELECT * FROM missing_table;
\echo :LAST_ERROR_SQLSTATE
INSERT INTO missing_table VALUES (1);
\echo :LAST_ERROR_SQLSTATE
DELETE FROM missing_table;
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE missing_schema (id int)
  SERVER pg_remote OPTIONS (schema_name 'no_such_schema', table_name 't');
SELECT * FROM missing_schema;
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE missing_column (id int, nope text OPTIONS (column_name 'no_such_col'))
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 't');
SELECT * FROM missing_column;
\echo :LAST_ERROR_SQLSTATE
-- a column not read is not asked for
SELECT id FROM missing_column ORDER BY id;
UPDATE missing_column SET nope = 'x';
\echo :LAST_ERROR_SQLSTATE
-- a remote hint, kept: the column exists under another name
CREATE FOREIGN TABLE typo_column (id int, nam text)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 't');
SELECT nam FROM typo_column;
\echo :LAST_ERROR_SQLSTATE

--
-- a remote value this side cannot read: the column and table are named
--
SELECT multi_fdw_exec('pg_remote', $$
  UPDATE errs_r.t SET word = CASE id WHEN 1 THEN '42' ELSE 'abc' END$$);
CREATE FOREIGN TABLE wrong_type (id int, word int)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 't');
SELECT id, word FROM wrong_type WHERE id = 1;
SELECT id, word FROM wrong_type ORDER BY id;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM wrong_type;
-- through RETURNING
UPDATE wrong_type SET id = id WHERE id = 2 RETURNING *;
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE wrong_date (id int, name date)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 't');
SELECT * FROM wrong_date;
\echo :LAST_ERROR_SQLSTATE

--
-- message, detail, hint and SQLSTATE of the remote's own RAISE
--
SELECT multi_fdw_exec('pg_remote', $$
  CREATE FUNCTION errs_r.refuse() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    IF NEW.name = 'refused' THEN
      RAISE EXCEPTION 'row % refused by the remote', NEW.id
        USING DETAIL = 'Names like "refused" are not accepted.',
              HINT = 'Choose another name.',
              ERRCODE = 'MF042';
    END IF;
    RETURN NEW;
  END $f$ $$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON errs_r.t
    FOR EACH ROW EXECUTE FUNCTION errs_r.refuse()$$);
INSERT INTO t (id, name) VALUES (60, 'fine'), (61, 'refused');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO t_values (id, name) VALUES (60, 'fine'), (61, 'refused');
\echo :LAST_ERROR_SQLSTATE
UPDATE t SET name = 'refused' WHERE id = 2;
\echo :LAST_ERROR_SQLSTATE
SELECT multi_fdw_exec('pg_remote', $$
  DO $d$ BEGIN RAISE EXCEPTION 'plain failure' USING HINT = 'hint only'; END $d$ $$);
\echo :LAST_ERROR_SQLSTATE
-- a syntax error in the remote statement
SELECT multi_fdw_exec('pg_remote', 'SELEC 1');
\echo :LAST_ERROR_SQLSTATE
-- a long statement is cut in the context
INSERT INTO t_values (id, name) SELECT g + 1000, CASE WHEN g = 200 THEN NULL ELSE 'x' END
  FROM generate_series(1, 200) g;
\echo :LAST_ERROR_SQLSTATE
SELECT remote_rows();

--
-- connections that fail
--
-- the detail comes from libpq and names the port: shown with the port
-- replaced
CREATE FUNCTION connect_error(srv text)
RETURNS TABLE (code text, message text, detail text)
LANGUAGE plpgsql AS $$
DECLARE
  d text;
BEGIN
  PERFORM multi_fdw_exec(srv, 'SELECT 1');
  code := 'no error';
  RETURN NEXT;
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                          d = PG_EXCEPTION_DETAIL;
  detail := regexp_replace(d, 'port [0-9]+', 'port PORT', 'g');
  RETURN NEXT;
END $$;
CREATE SERVER errs_closed FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '127.0.0.1', port '1', dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER errs_closed
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT * FROM connect_error('errs_closed');
CREATE FOREIGN TABLE on_closed (id int) SERVER errs_closed;
SELECT * FROM on_closed;
\echo :LAST_ERROR_SQLSTATE
CREATE SERVER errs_badpw FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port', dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER errs_badpw
  OPTIONS (user :'pg_user', password 'wrong password');
SELECT * FROM connect_error('errs_badpw');
CREATE SERVER errs_nodb FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname 'no_such_database');
CREATE USER MAPPING FOR CURRENT_USER SERVER errs_nodb
  OPTIONS (user :'pg_user', password :'pg_password');
SELECT * FROM connect_error('errs_nodb');
-- a failed connection leaves nothing behind, and the next one works
SELECT server_name, valid FROM multi_fdw_get_connections() ORDER BY 1;
ALTER USER MAPPING FOR CURRENT_USER SERVER errs_badpw
  OPTIONS (SET password :'pg_password');
SELECT * FROM connect_error('errs_badpw');
SELECT server_name, valid FROM multi_fdw_get_connections() ORDER BY 1;

-- ---------------------------------------------------------------------
-- the remote's NOTICE, WARNING and INFO reach the client at their level,
-- named after the server, with SQLSTATE, detail and hint; at most 100 per
-- statement; none with relay_messages off
-- ---------------------------------------------------------------------
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE IF EXISTS errs_r.not_there');
SELECT multi_fdw_exec('pg_remote', $q$DO $x$BEGIN
  RAISE WARNING 'careful' USING ERRCODE = '01999', DETAIL = 'a detail',
                                HINT = 'a hint';
  RAISE INFO 'for your information';
END$x$$q$);
-- from a scan's query too, and with a count: 100 shown of 150
SELECT multi_fdw_exec('pg_remote', $q$
  CREATE FUNCTION errs_r.noisy(i int) RETURNS int LANGUAGE plpgsql AS
  $x$BEGIN RAISE NOTICE 'row %', i; RETURN i; END$x$$q$);
SELECT multi_fdw_exec('pg_remote', $q$
  CREATE VIEW errs_r.noisy_rows AS
  SELECT errs_r.noisy(g) AS i FROM generate_series(1, 150) g$q$);
CREATE FOREIGN TABLE noisy_rows (i int)
  SERVER pg_remote OPTIONS (schema_name 'errs_r', table_name 'noisy_rows');
SELECT count(*) FROM noisy_rows;
ALTER SERVER pg_remote OPTIONS (ADD relay_messages 'false');
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE IF EXISTS errs_r.not_there');
SELECT count(*) FROM noisy_rows;
ALTER SERVER pg_remote OPTIONS (DROP relay_messages);
ALTER SERVER pg_remote OPTIONS (ADD relay_messages 'sometimes');
-- the remote chose the text: a line break in a message does not start a
-- line of its own, a detail keeps its lines; a client whose encoding lacks
-- a character gets U+XXXX for what is not ASCII, not an error
SELECT multi_fdw_exec('pg_remote', $q$DO $x$BEGIN
  RAISE NOTICE E'one\nserver "elsewhere": forged' USING DETAIL = E'line 1\nline 2';
END$x$$q$);
SET client_encoding = 'LATIN1';
SELECT multi_fdw_exec('pg_remote', $q$DO $x$BEGIN
  RAISE WARNING E'\u0416 and caf\u00e9';
END$x$$q$);
RESET client_encoding;

-- clean up
\set VERBOSITY terse
SELECT multi_fdw_disconnect_all();
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA errs_r CASCADE');
DROP SCHEMA errs CASCADE;
DROP USER MAPPING FOR CURRENT_USER SERVER errs_closed;
DROP USER MAPPING FOR CURRENT_USER SERVER errs_badpw;
DROP USER MAPPING FOR CURRENT_USER SERVER errs_nodb;
DROP SERVER errs_closed, errs_badpw, errs_nodb;
