/* multi_fdw 1.2 -> 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION multi_fdw UPDATE TO '1.3'" to load this file. \quit

-- Run a query on a server as written, inside the remote transaction tied to
-- the local one, as the current user's mapping, and return its rows, typed
-- by the column definition list; the arguments after the query are its
-- parameters ($1 or ?, as the remote writes them).  Rows are streamed into
-- the result's tuplestore (work_mem, then a temporary file).  Not STRICT: a
-- parameter may be NULL (a NULL server or query is an error).
CREATE FUNCTION multi_fdw_query(server text, sql text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'multi_fdw_query'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION multi_fdw_query(server text, sql text, VARIADIC params "any")
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'multi_fdw_query'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- The same for ad-hoc use, without a column definition list: each row one
-- json object, keyed by the remote's column names in their order, each
-- value the remote's text as a JSON string (SQL NULL as null).
CREATE FUNCTION multi_fdw_query_json(server text, sql text)
RETURNS SETOF json
AS 'MODULE_PATHNAME', 'multi_fdw_query_json'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION multi_fdw_query_json(server text, sql text, VARIADIC params "any")
RETURNS SETOF json
AS 'MODULE_PATHNAME', 'multi_fdw_query_json'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
