/* multi_fdw 1.0 -> 1.1 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION multi_fdw UPDATE TO '1.1'" to load this file. \quit

-- The connection function gains PostgreSQL 18 postgres_fdw's columns, on
-- every PostgreSQL version: used_in_xact (the same as in_transaction),
-- closed (whether the remote closed the link; NULL unless check_conn) and
-- remote_backend_pid (PostgreSQL's backend pid, MySQL's connection id).
DROP FUNCTION multi_fdw_get_connections();
CREATE FUNCTION multi_fdw_get_connections(
    check_conn boolean DEFAULT false,
    OUT server_name text, OUT user_name text, OUT dialect text,
    OUT transport text, OUT valid boolean, OUT in_transaction boolean,
    OUT used_in_xact boolean, OUT closed boolean,
    OUT remote_backend_pid bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'multi_fdw_get_connections_1_1'
LANGUAGE C STRICT PARALLEL RESTRICTED;
