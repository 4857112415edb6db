/* multi_fdw 1.1 -> 1.2 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION multi_fdw UPDATE TO '1.2'" to load this file. \quit

-- Counters per foreign server and user (docs/monitoring.md): cluster-wide
-- when multi_fdw is in shared_preload_libraries (scope 'cluster'), else
-- this session's (scope 'session').
CREATE FUNCTION multi_fdw_stats(
    OUT serverid oid, OUT server text, OUT userid oid, OUT user_name text,
    OUT dbid oid, OUT database text,
    OUT statements bigint, OUT rows_sent bigint, OUT rows_received bigint,
    OUT batches bigint, OUT round_trips bigint,
    OUT bytes_sent bigint, OUT bytes_received bigint,
    OUT remote_wait_time double precision,
    OUT errors bigint, OUT reconnects bigint,
    OUT values_rows bigint, OUT row_rows bigint, OUT copy_rows bigint,
    OUT pipeline_rows bigint, OUT array_rows bigint,
    OUT last_error text, OUT last_error_time timestamptz,
    OUT stats_reset timestamptz, OUT scope text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'multi_fdw_stats'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE VIEW multi_fdw_stats AS SELECT * FROM multi_fdw_stats();
GRANT SELECT ON multi_fdw_stats TO PUBLIC;

-- Resetting is a superuser's, or whoever is granted it (as
-- pg_stat_statements_reset).
CREATE FUNCTION multi_fdw_stats_reset(server text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'multi_fdw_stats_reset'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL RESTRICTED;
REVOKE ALL ON FUNCTION multi_fdw_stats_reset(text) FROM PUBLIC;

-- What each backend reads or writes now; needs the preload.
CREATE FUNCTION multi_fdw_progress(
    OUT pid integer, OUT database text, OUT user_name text, OUT server text,
    OUT relid oid, OUT relation text, OUT operation text,
    OUT insert_method text, OUT rows_sent bigint, OUT rows_received bigint,
    OUT rows_per_second double precision, OUT started timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'multi_fdw_progress'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE VIEW multi_fdw_progress AS SELECT * FROM multi_fdw_progress();
GRANT SELECT ON multi_fdw_progress TO PUBLIC;
