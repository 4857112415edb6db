--
-- pg_init: runs first.  The extension, and the servers and user mappings
-- that the later suites use.
--
-- The remote PostgreSQL's coordinates come from the test bed's environment
-- (t/testbed/start exports MF_PG_*).  psql echoes each command as typed,
-- with the :'variable' references, so no host-specific value (the port
-- differs between machines) reaches the expected output.
--
CREATE EXTENSION multi_fdw;

\getenv pg_host MF_PG_HOST
\getenv pg_port MF_PG_PORT
\getenv pg_db MF_PG_DB
\getenv pg_user MF_PG_USER
\getenv pg_password MF_PG_PASSWORD

-- all five are set (a missing one would leave the reference unexpanded)
SELECT :'pg_host' <> '' AS host_set, :'pg_port' ~ '^[0-9]+$' AS port_set,
       :'pg_db' <> '' AS db_set, :'pg_user' <> '' AS user_set,
       :'pg_password' <> '' AS password_set;

-- the remote PostgreSQL, reached over libpq (the postgres dialect's default)
CREATE SERVER pg_remote FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host :'pg_host', port :'pg_port',
           dbname :'pg_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_remote
  OPTIONS (user :'pg_user', password :'pg_password');

-- Servers of the other dialects, for deparse tests: EXPLAIN without ANALYZE
-- never connects, so these point at nothing.
CREATE SERVER my_remote FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host '127.0.0.1', port '3306', database 'mfremote');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_remote
  OPTIONS (user 'mfapp', password 'mfsecret');

CREATE SERVER ms_remote FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', host '127.0.0.1',
           port '1433', database 'mfremote');
CREATE USER MAPPING FOR CURRENT_USER SERVER ms_remote
  OPTIONS (user 'mfapp', password 'mfsecret');

CREATE SERVER ora_remote FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'oracle', odbc_dsn 'mforacle');
CREATE USER MAPPING FOR CURRENT_USER SERVER ora_remote
  OPTIONS (user 'mfapp', password 'mfsecret');

-- what was created
SELECT s.srvname, w.fdwname,
       (SELECT option_value FROM pg_options_to_table(s.srvoptions)
         WHERE option_name = 'dialect') AS dialect,
       (SELECT count(*) FROM pg_user_mappings m
         WHERE m.srvid = s.oid AND m.usename = current_user) AS mappings
  FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
 ORDER BY s.srvname;

-- sanity: the remote answers through multi_fdw_exec (a SELECT reports the
-- rows it returned), and the session now holds one connection to it
SELECT multi_fdw_exec('pg_remote', 'SELECT 1');
SELECT multi_fdw_exec('pg_remote', 'SELECT * FROM pg_catalog.generate_series(1, 3)');
SELECT server_name, user_name = current_user AS mine, dialect, transport, valid,
       in_transaction
  FROM multi_fdw_get_connections();

-- EXPLAIN as every supported PostgreSQL prints it, for the suites whose
-- plans differ between versions only in how they are printed: an InitPlan's
-- output parameters ("InitPlan 1 (returns $0)" and "$0" until 16,
-- "InitPlan 1" and "(InitPlan 1).col1" since 17: printed as 17 does),
-- EXPLAIN ANALYZE's row counts ("rows=3", "rows=3.00" since 18) and a
-- node's Disabled (shown since 18).  A YAML or JSON plan comes a line per
-- row.  Ask for BUFFERS OFF with ANALYZE: 18 shows buffers by default.
CREATE FUNCTION public.mf_explain(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  plan text;
  line text;
  lines text[] := '{}';
  m text[];
  p text;
  col int;
  params jsonb := '{}';
BEGIN
  FOR plan IN EXECUTE query LOOP
    lines := lines || string_to_array(plan, E'\n');
  END LOOP;
  FOREACH line IN ARRAY lines LOOP
    m := regexp_match(line, '^\s*InitPlan (\d+) \(returns ([$0-9,]+)\)$');
    CONTINUE WHEN m IS NULL;
    col := 0;
    FOREACH p IN ARRAY string_to_array(m[2], ',') LOOP
      col := col + 1;
      params := params || jsonb_build_object(p, format('(InitPlan %s).col%s', m[1], col));
    END LOOP;
  END LOOP;
  FOREACH line IN ARRAY lines LOOP
    CONTINUE WHEN line ~ '^\s*"?Disabled"?: (true|false),?$';
    line := regexp_replace(line, '^(\s*InitPlan \d+) \(returns [$0-9,]+\)$', '\1');
    IF line !~ 'Remote SQL' THEN
      FOR p IN SELECT k FROM jsonb_object_keys(params) k ORDER BY length(k) DESC LOOP
        line := replace(line, p, params ->> p);
      END LOOP;
    END IF;
    line := regexp_replace(line, '\mrows=(\d+)\.00\M', 'rows=\1', 'g');
    line := regexp_replace(line, '("?Actual Rows"?: \d+)\.0+\M', '\1', 'g');
    RETURN NEXT line;
  END LOOP;
END
$$;

-- Does q give what local_q gives over local copies of its tables (in the
-- same order when ordered), and what does EXPLAIN VERBOSE show of it: the
-- Relations of its pushed joins, and its Remote SQL lines (those that are
-- LIKE remote_like), each joined by ' | '.  The pushdown suites compare
-- every query they ship this way.
CREATE FUNCTION public.mf_agree(q text, local_q text, ordered boolean,
                                remote_like text DEFAULT '%',
                                OUT same boolean, OUT relations text,
                                OUT remote text)
LANGUAGE plpgsql AS $$
DECLARE
  agg text := CASE WHEN ordered THEN 'array_agg(x)' ELSE 'array_agg(x ORDER BY x)' END;
  mine text[];
  theirs text[];
  line text;
BEGIN
  EXECUTE format('SELECT %s FROM (SELECT s::text AS x FROM (%s) s) y', agg, q)
    INTO mine;
  EXECUTE format('SELECT %s FROM (SELECT s::text AS x FROM (%s) s) y', agg,
                 local_q)
    INTO theirs;
  same := mine IS NOT DISTINCT FROM theirs;
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    IF line LIKE '%Relations:%' THEN
      relations := concat_ws(' | ', relations,
                             regexp_replace(line, '^.*Relations: ', ''));
    END IF;
    IF line LIKE '%Remote SQL:%' AND line LIKE remote_like THEN
      remote := concat_ws(' | ', remote,
                          regexp_replace(line, '^.*Remote SQL: ', ''));
    END IF;
  END LOOP;
END
$$;
