/*-------------------------------------------------------------------------
 *
 * connection_list.c
 *		multi_fdw_get_connections: the session's cached connections, as
 *		postgres_fdw_get_connections lists its own.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"

#include "remote/connection_int.h"

PG_FUNCTION_INFO_V1(multi_fdw_get_connections);
PG_FUNCTION_INFO_V1(multi_fdw_get_connections_1_1);

/*
 * The session's connections, as the SQL version of the extension declares
 * them: 1.0's six columns, or 1.1's nine (PostgreSQL 18 postgres_fdw's
 * used_in_xact, closed and remote_backend_pid added).  closed is asked of
 * the transport only with check_conn, and is NULL where it cannot tell.
 */
#define MF_CONN_COLS_1_0	6
#define MF_CONN_COLS_1_1	9

static void
mf_list_connections(FunctionCallInfo fcinfo, int ncols, bool check_conn)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HTAB	   *connections = mf_connection_cache();
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;

	InitMaterializedSRF(fcinfo, 0);
	if (connections == NULL)
		return;

	hash_seq_init(&scan, connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		Datum		values[MF_CONN_COLS_1_1];
		bool		nulls[MF_CONN_COLS_1_1] = {0};
		const MfTransport *tr = entry->transport;

		if (entry->conn == NULL)
			continue;
		values[0] = CStringGetTextDatum(entry->servername);
		values[1] = CStringGetTextDatum(entry->username);
		values[2] = CStringGetTextDatum(entry->dialect->name);
		values[3] = CStringGetTextDatum(tr->name);
		values[4] = BoolGetDatum(!entry->invalidated &&
								 !tr->is_broken(entry->conn));
		values[5] = BoolGetDatum(entry->xact_depth > 0);
		if (ncols >= MF_CONN_COLS_1_1)
		{
			int			closed = check_conn && tr->peer_closed ?
				tr->peer_closed(entry->conn) : -1;
			unsigned long pid = tr->remote_session ?
				tr->remote_session(entry->conn) : 0;

			values[6] = values[5];
			values[7] = BoolGetDatum(closed > 0);
			nulls[7] = closed < 0;
			values[8] = Int64GetDatum((int64) pid);
			nulls[8] = pid == 0;
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}

/* 1.0: server_name, user_name, dialect, transport, valid, in_transaction */
Datum
multi_fdw_get_connections(PG_FUNCTION_ARGS)
{
	mf_list_connections(fcinfo, MF_CONN_COLS_1_0, false);
	PG_RETURN_VOID();
}

/* 1.1: (check_conn) and used_in_xact, closed, remote_backend_pid too */
Datum
multi_fdw_get_connections_1_1(PG_FUNCTION_ARGS)
{
	mf_list_connections(fcinfo, MF_CONN_COLS_1_1, PG_GETARG_BOOL(0));
	PG_RETURN_VOID();
}
