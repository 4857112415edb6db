/* multi_fdw--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION multi_fdw" to load this file. \quit

CREATE FUNCTION multi_fdw_handler()
RETURNS fdw_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FUNCTION multi_fdw_validator(text[], oid)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FOREIGN DATA WRAPPER multi_fdw
  HANDLER multi_fdw_handler
  VALIDATOR multi_fdw_validator;

-- The connections this session holds: one per (server, user mapping).
CREATE FUNCTION multi_fdw_get_connections(
    OUT server_name text, OUT user_name text, OUT dialect text,
    OUT transport text, OUT valid boolean, OUT in_transaction boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL RESTRICTED;

-- Close this session's connections to one server; false if there was none.
CREATE FUNCTION multi_fdw_disconnect(text)
RETURNS bool
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL RESTRICTED;

-- Close all of this session's connections; false if there was none.
CREATE FUNCTION multi_fdw_disconnect_all()
RETURNS bool
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL RESTRICTED;

-- Run one statement on a server, inside the remote transaction tied to the
-- local one, as the current user's mapping; returns the rows it affected.
CREATE FUNCTION multi_fdw_exec(server text, sql text)
RETURNS bigint
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL UNSAFE;

-- Two-phase commit (docs/transactions.md).  The decisions: one row for each
-- remote transaction prepared by a local transaction that committed, until
-- the remote one is committed too.  Written by multi_fdw itself, as the
-- table's owner; nobody else may touch it.
CREATE TABLE multi_fdw_decision (
    gid text PRIMARY KEY,
    umid oid NOT NULL,
    serverid oid NOT NULL,
    decided_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON multi_fdw_decision FROM PUBLIC;

-- The remote prepared transactions of this gateway, with the local decision
-- (commit, rollback, or in progress while their local transaction runs).
CREATE FUNCTION multi_fdw_in_doubt(server text DEFAULT NULL,
    OUT server_name text, OUT gid text, OUT decision text, OUT action text)
RETURNS SETOF record
AS 'MODULE_PATHNAME'
LANGUAGE C CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE VIEW multi_fdw_in_doubt AS
  SELECT server_name, gid, decision FROM multi_fdw_in_doubt();

-- Commit or roll back each of them as its decision says; what was done.
CREATE FUNCTION multi_fdw_resolve(server text DEFAULT NULL,
    OUT server_name text, OUT gid text, OUT decision text, OUT action text)
RETURNS SETOF record
AS 'MODULE_PATHNAME'
LANGUAGE C CALLED ON NULL INPUT PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION multi_fdw_in_doubt(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION multi_fdw_resolve(text) FROM PUBLIC;
REVOKE ALL ON multi_fdw_in_doubt FROM PUBLIC;
