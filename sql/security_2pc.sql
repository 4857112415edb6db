--
-- security_2pc: code that runs on someone else's behalf -- the two-phase
-- decision record (as the table's owner), the in-doubt functions and the
-- resolver (as a superuser) -- never runs the caller's operators or
-- functions.  An attacker who is not a superuser plants look-alikes of
-- pg_catalog's operators and functions in a schema of her own, puts it
-- first in search_path and commits two-phase transactions; a superuser
-- then lists and resolves with the same hostile search_path.  Each trap
-- says so with a NOTICE and tries to make her superuser: no NOTICE may
-- appear, and she must end as she began.
--
-- Runs after pg_init.  Creates its own roles, servers and tables and drops
-- them at the end.
--
\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

DROP ROLE IF EXISTS regress_mf_alice;
CREATE ROLE regress_mf_alice;
GRANT USAGE ON FOREIGN DATA WRAPPER multi_fdw TO regress_mf_alice;
CREATE SCHEMA regress_mf_alice AUTHORIZATION regress_mf_alice;
CREATE SCHEMA regress_mf_alice_imp AUTHORIZATION regress_mf_alice;

SELECT multi_fdw_exec('pg_remote', 'DROP TABLE IF EXISTS public.sec2_t');
SELECT multi_fdw_exec('pg_remote', 'CREATE TABLE public.sec2_t (id int)');
SELECT multi_fdw_exec('pg_remote', 'GRANT ALL ON public.sec2_t TO PUBLIC');
CREATE SERVER sec2_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port', dbname :'pg_db',
           two_phase_commit 'on');
GRANT USAGE ON FOREIGN SERVER sec2_pg TO regress_mf_alice;

-- ---------------------------------------------------------------------
-- the attacker's look-alikes
-- ---------------------------------------------------------------------
SET ROLE regress_mf_alice;
CREATE USER MAPPING FOR CURRENT_USER SERVER sec2_pg
  OPTIONS (user :'pg_user', password :'pg_password');
CREATE FOREIGN TABLE regress_mf_alice.sec2_t (id int) SERVER sec2_pg
  OPTIONS (schema_name 'public', table_name 'sec2_t');
-- the trap: says who ran it, and tries to make her superuser
CREATE FUNCTION regress_mf_alice.trap(what text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE 'trap % ran as %', what, current_user;
  BEGIN
    EXECUTE 'ALTER ROLE regress_mf_alice SUPERUSER';
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'trap % could not escalate: %', what, SQLERRM;
  END;
END $$;
CREATE FUNCTION regress_mf_alice.eq_text(text, text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN PERFORM regress_mf_alice.trap('text = text');
  RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR regress_mf_alice.= (LEFTARG = text, RIGHTARG = text,
  FUNCTION = regress_mf_alice.eq_text);
CREATE FUNCTION regress_mf_alice.eq_oid(oid, oid) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN PERFORM regress_mf_alice.trap('oid = oid');
  RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR regress_mf_alice.= (LEFTARG = oid, RIGHTARG = oid,
  FUNCTION = regress_mf_alice.eq_oid);
CREATE FUNCTION regress_mf_alice.eq_name(name, name) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN PERFORM regress_mf_alice.trap('name = name');
  RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR regress_mf_alice.= (LEFTARG = name, RIGHTARG = name,
  FUNCTION = regress_mf_alice.eq_name);
CREATE FUNCTION regress_mf_alice.le_tstz(timestamptz, timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN PERFORM regress_mf_alice.trap('timestamptz <= timestamptz');
  RETURN $1 OPERATOR(pg_catalog.<=) $2; END $$;
CREATE OPERATOR regress_mf_alice.<= (LEFTARG = timestamptz, RIGHTARG = timestamptz,
  FUNCTION = regress_mf_alice.le_tstz);
CREATE FUNCTION regress_mf_alice.lower(text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN PERFORM regress_mf_alice.trap('lower'); RETURN pg_catalog.lower($1); END $$;
CREATE FUNCTION regress_mf_alice.count_sfunc(bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN PERFORM regress_mf_alice.trap('count'); RETURN $1 + 1; END $$;
CREATE AGGREGATE regress_mf_alice.count(*) (SFUNC = regress_mf_alice.count_sfunc,
  STYPE = bigint, INITCOND = '0');

-- ---------------------------------------------------------------------
-- her commits record their decisions as the decision table's owner
-- ---------------------------------------------------------------------
SET search_path = regress_mf_alice, pg_catalog;
BEGIN;
CREATE TEMP TABLE sec2_local (id int) ON COMMIT DROP;
INSERT INTO sec2_local VALUES (1);
INSERT INTO sec2_t VALUES (1);
COMMIT;
-- the second commit deletes the first one's decision (gid = $1)
BEGIN;
CREATE TEMP TABLE sec2_local2 (id int) ON COMMIT DROP;
INSERT INTO sec2_local2 VALUES (2);
INSERT INTO sec2_t VALUES (2);
COMMIT;
-- a third, in a subtransaction-heavy shape
BEGIN;
CREATE TEMP TABLE sec2_local (id int) ON COMMIT DROP;
INSERT INTO sec2_local VALUES (3);
SAVEPOINT s;
INSERT INTO sec2_t VALUES (3);
RELEASE SAVEPOINT s;
COMMIT;
RESET search_path;
SELECT id FROM regress_mf_alice.sec2_t ORDER BY id;
RESET ROLE;
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_mf_alice';

-- ---------------------------------------------------------------------
-- a superuser lists and resolves with her schema first in search_path
-- ---------------------------------------------------------------------
SET search_path = regress_mf_alice, pg_catalog, public;
SELECT server_name, decision FROM multi_fdw_in_doubt() WHERE server_name OPERATOR(pg_catalog.=) 'sec2_pg';
SELECT server_name, action FROM multi_fdw_resolve() WHERE server_name OPERATOR(pg_catalog.=) 'sec2_pg';
SELECT server_name, action FROM multi_fdw_resolve('sec2_pg');
-- and the other paths that run for someone: the counters, the superuser's
-- ANALYZE of her table (PostgreSQL runs it as her), and an import (the
-- test's own queries name pg_catalog's functions: her search_path is the
-- one in force)
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS counted FROM public.multi_fdw_stats();
ANALYZE regress_mf_alice.sec2_t;
RESET search_path;
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_mf_alice';
SET ROLE regress_mf_alice;
SET search_path = regress_mf_alice, pg_catalog;
SELECT DISTINCT user_name FROM public.multi_fdw_stats();
SELECT public.multi_fdw_stats_reset();
SELECT * FROM public.multi_fdw_in_doubt;
IMPORT FOREIGN SCHEMA public LIMIT TO (sec2_t) FROM SERVER sec2_pg
  INTO regress_mf_alice_imp;
SELECT pg_catalog.count(*) FROM regress_mf_alice_imp.sec2_t;
RESET search_path;
RESET ROLE;
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_mf_alice';

-- ---------------------------------------------------------------------
-- a server she owns, pointing back at this very gateway (which trusts its
-- own host), with a session_sql of her choosing and a mapping she made for
-- the superuser: listing and resolving never connect through it, nor
-- does the superuser's own use of it
-- ---------------------------------------------------------------------
SELECT current_user AS su \gset
\getenv gw_port PGPORT
SET ROLE regress_mf_alice;
CREATE SERVER sec2_loop FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '127.0.0.1', port :'gw_port',
           dbname 'contrib_regression', two_phase_commit 'on',
           session_sql 'ALTER ROLE regress_mf_alice SUPERUSER');
CREATE USER MAPPING FOR :"su" SERVER sec2_loop OPTIONS (user :'su');
RESET ROLE;
SELECT server_name, decision FROM multi_fdw_in_doubt();
SELECT server_name, action FROM multi_fdw_resolve();
SELECT server_name, action FROM multi_fdw_resolve('sec2_loop');
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_mf_alice';
SELECT multi_fdw_exec('sec2_loop', 'SELECT 1');
\echo :LAST_ERROR_SQLSTATE
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_mf_alice';
DROP SERVER sec2_loop CASCADE;

-- ---------------------------------------------------------------------
-- multi_fdw_exec refuses transaction control: the remote transaction is
-- the local one's, and a PREPARE TRANSACTION under a forged id would be
-- left for nobody to resolve
-- ---------------------------------------------------------------------
CREATE FUNCTION pg_temp.try_exec(srv text, stmt text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM multi_fdw_exec(srv, stmt);
  RETURN 'ran';
EXCEPTION
  WHEN active_sql_transaction THEN RETURN 'refused: ' || SQLERRM;
  WHEN OTHERS THEN RETURN 'remote error ' || SQLSTATE;
END $$;
SELECT s AS statement, pg_temp.try_exec('pg_remote', s) AS result
  FROM (VALUES ('COMMIT'), ('commit work'), ('ROLLBACK'), ('END'),
               ('end transaction'), ('ABORT'), ('BEGIN'),
               ('begin isolation level serializable'), ('START TRANSACTION'),
               ('SAVEPOINT s'), ('RELEASE SAVEPOINT s'),
               ('PREPARE TRANSACTION ''mf_0000000000000000_1_2_3_4'''),
               ('COMMIT PREPARED ''mf_x'''), ('SELECT 1; COMMIT'),
               ('/* hidden? */ COMMIT'), ('SELECT 1 /* /* */ ; COMMIT */'),
               (E'SELECT ''x\\''; COMMIT; --'''),
               ('SELECT 1'), ('SELECT ''commit'''), ('SELECT 1 -- rollback'),
               ('SELECT 1 AS "begin"'), ('SELECT $$COMMIT$$'),
               ('BEGIN x; END;'), ('SELECT 1 # COMMIT'),
               (E'--\rCOMMIT'),
               (E'SELECT E''\\'''', ''x\\'' ; COMMIT; --'''),
               ('SELECT 1 AS [a]]'' ] COMMIT --'''),
               ('END AND CHAIN'), ('end and no chain'),
               ('SET TRANSACTION READ WRITE'),
               ('SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE'),
               ('SET transaction_read_only = off'),
               ('RESET transaction_read_only'),
               ('SET LOCAL transaction_isolation = ''read committed'''),
               ('SET default_transaction_read_only = off'),
               ('SET search_path = public'),
               ('SET "transaction_read_only" = off'),
               ('RESET "transaction_read_only"'),
               ('SET U&"\0074ransaction_read_only" = off'),
               ('SET transaction_read_only TO off'),
               ('SELECT 1 AS begin; END'),
               ('SELECT 1 AS begin FROM pg_catalog.pg_class LIMIT 1; END'),
               ('CREATE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END'),
               ('SET search_path = transactions_archive'),
               ('SET application_name = transaction_loader'),
               ('SET search_path TO tx_data'),
               ('SET "search_path" = public')) AS v(s);
SELECT s AS statement, pg_temp.try_exec('my_real', s) AS result
  FROM (VALUES ('XA START ''mf_x'''), ('XA RECOVER'), ('SET autocommit = 1'),
               ('SET @@autocommit=1'), ('SET SESSION autocommit = 0'),
               ('BEGIN'), ('BEGIN WORK'), ('/*!COMMIT*/'), ('DO 1--1; COMMIT'),
               ('/*M!100000 ROLLBACK */'), ('DO 1'),
               ('SELECT ''rollback'''), ('SET @x = 1'),
               ('SET @@session.`autocommit` = 1'),
               ('SET SESSION TRANSACTION READ WRITE'),
               ('SET @@session.transaction_read_only = 0'),
               ('SET tx_read_only = 0'), ('SET completion_type = 1'),
               ('SET @@SESSION.tx_isolation = ''READ-COMMITTED'''),
               ('SET @tx_count = 1'), ('SET @transaction_id = 1'),
               ('SET `tx_read_only` = 0'), ('SET SESSION "tx_read_only"=0'),
               ('SET @a = 1, @@tx_read_only = 0'),
               ('SET @@session.`transaction_read_only` = 0'),
               -- last: its failure commits implicitly and ends the connection
               ('CREATE TRIGGER t BEFORE INSERT ON x FOR EACH ROW BEGIN SET @a = 1; END')) AS v(s);
-- what no reading of the text sees, the remote's own word after the
-- statement does: a COMMIT built at run time ends the transaction, which
-- is an error (and the connection is dropped)
SELECT multi_fdw_exec('my_real', 'CREATE TABLE IF NOT EXISTS sec2_x (i int) ENGINE=InnoDB');
BEGIN;
SELECT multi_fdw_exec('my_real', 'INSERT INTO sec2_x VALUES (1)');
SELECT multi_fdw_exec('my_real', 'SET @q = CONCAT(''COM'', ''MIT'')');
SELECT multi_fdw_exec('my_real', 'PREPARE s FROM @q');
SELECT multi_fdw_exec('my_real', 'EXECUTE s');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
-- on PostgreSQL's side a COMMIT in a DO block is refused by its words
-- (the remote would refuse it too, inside a transaction block)
BEGIN;
SELECT multi_fdw_exec('pg_remote', 'SELECT 1');
SELECT multi_fdw_exec('pg_remote', 'DO $$BEGIN COMMIT; END$$');
ROLLBACK;
SELECT multi_fdw_exec('my_real', 'DROP TABLE sec2_x');

-- ---------------------------------------------------------------------
-- clean up
-- ---------------------------------------------------------------------
DROP SCHEMA regress_mf_alice CASCADE;
DROP SCHEMA regress_mf_alice_imp CASCADE;
DROP SERVER sec2_pg CASCADE;
SELECT multi_fdw_exec('pg_remote', 'DROP TABLE public.sec2_t');
REVOKE USAGE ON FOREIGN DATA WRAPPER multi_fdw FROM regress_mf_alice;
DROP ROLE regress_mf_alice;
