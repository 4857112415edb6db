/*-------------------------------------------------------------------------
 *
 * pq_fetch.c
 *		The libpq transport's queries: cursors, fetch, and reading the
 *		next batch ahead.
 *
 * Part of the libpq transport (see pq_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only libpq-fe.h.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "pq_int.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------------
 * Queries read through cursors
 * ---------------------------------------------------------------------
 */

typedef struct MfpqCursorOpen
{
	const char *declare;
	const char *fetch;
	int			nparams;
	const char *const *values;
} MfpqCursorOpen;

/* the DECLARE with its parameters, then the FETCH */
static int
mfpq_send_cursor_open(MfConn *conn, void *arg)
{
	MfpqCursorOpen *co = arg;

	return PQsendQueryParams(conn->pg, co->declare, co->nparams, NULL,
							 co->values, NULL, NULL, 0) &&
		PQsendQueryParams(conn->pg, co->fetch, 0, NULL, NULL, NULL, NULL, 0);
}

/*
 * Open res's cursor for sql and fetch its first batch in one exchange, with
 * what waits to go with the next request (the transaction's begin, the
 * CLOSE of the cursor a rescan replaces) in front.  Without parameters the
 * commands are one simple-protocol message; with them, a pipeline of
 * extended-protocol commands and one sync.
 */
static bool
mfpq_cursor_open(MfConn *conn, MfResult *res, const char *sql, int nparams,
				 const char *const *values, MfError *err)
{
	PGresult   *first = NULL;
	size_t		len = strlen(sql) + 2 * MFPQ_NAME_LEN + 64;
	char	   *text = malloc(len);
	char		fetch[MFPQ_NAME_LEN + 48];
	bool		ok;

	if (text == NULL)
	{
		mfpq_fail(conn, err, MF_STEP_FETCH, "53200", "out of memory");
		return false;
	}
	snprintf(fetch, sizeof(fetch), "FETCH %d FROM %s", res->fetch_size,
			 res->name);
	/* savepoints go in a pipeline, where the DECLARE cannot undo them */
	if (nparams == 0 && !mfpq_later_holds_savepoint(conn))
	{
		snprintf(text, len, "DECLARE %s CURSOR FOR %s; %s", res->name, sql,
				 fetch);
		ok = mfpq_command(conn, text, MF_STEP_FETCH, &first, err);
	}
	else
	{
		MfpqCursorOpen co = {text, fetch, nparams, values};

		snprintf(text, len, "DECLARE %s CURSOR FOR %s", res->name, sql);
		conn->wire->bytes_sent += strlen(text) + strlen(fetch) +
			mf_values_bytes(values, nparams);
		ok = mfpq_pipelined(conn, mfpq_send_cursor_open, &co, MF_STEP_FETCH,
							&first, err);
	}
	free(text);
	if (ok && (first == NULL || PQresultStatus(first) != PGRES_TUPLES_OK))
	{
		mfpq_fail(conn, err, MF_STEP_FETCH, "XX000",
				  "FETCH returned no rows description");
		ok = false;
	}
	if (!ok)
	{
		PQclear(first);
		return false;
	}
	/* the first batch waits as if it had been read ahead */
	res->ahead = first;
	res->requested = res->fetch_size;
	return true;
}

/*
 * A cursor the core is done with: its CLOSE goes with the next request (or
 * not at all, if the transaction ends first).  Outside a healthy
 * transaction the cursor is already gone, or will be when it ends.
 */
static void
mfpq_cursor_done(MfResult *res)
{
	MfConn	   *conn = res->conn;
	char		sql[MFPQ_NAME_LEN + 16];
	MfError		ignored;

	if (!res->is_cursor)
		return;
	snprintf(sql, sizeof(sql), "CLOSE %s", res->name);
	/* while a small result streams, the link is busy: the CLOSE waits */
	if (conn->streaming != NULL)
	{
		(void) mfpq_defer(conn, MFPQ_LATER_CLOSE, sql);
		return;
	}
	if (!mfpq_can_talk(conn) ||
		PQtransactionStatus(conn->pg) != PQTRANS_INTRANS)
		return;
	if (!mfpq_defer(conn, MFPQ_LATER_CLOSE, sql))
		(void) mfpq_command(conn, sql, MF_STEP_FETCH, NULL, &ignored);
}

/* A cursor's result, not opened yet. */
static MfResult *
mfpq_cursor_result(MfConn *conn, MfRead read, MfError *err)
{
	MfResult   *res = mfpq_new_result(conn, err);

	if (res == NULL)
		return NULL;
	res->is_cursor = true;
	/* a whole result comes through a cursor too, the default at a time */
	res->fetch_size = read.mode != MF_READ_WHOLE && read.rows > 0 ?
		read.rows : MFPQ_DEFAULT_FETCH;
	snprintf(res->name, sizeof(res->name), "mf_c%lu", ++conn->next_id);
	return res;
}

/*
 * Queries are read through cursors, opened in one exchange; a small result
 * is read without one (pq_small.c).
 */
static MfResult *
mfpq_query_once(MfConn *conn, const char *sql, int nparams,
				const char *const *values, MfRead read, MfError *err)
{
	MfResult   *res;

	if (!mfpq_usable(conn, MF_STEP_FETCH, err))
		return NULL;
	if (read.mode == MF_READ_FEW)
	{
		res = mfpq_new_result(conn, err);
		if (res == NULL)
			return NULL;
		res->fetch_size = read.rows > 0 ? read.rows : MFPQ_DEFAULT_FETCH;
		if (!mfpq_small_open(conn, res, sql, nparams, values,
							 read.as_written, err))
		{
			mfpq_free_result(res);
			return NULL;
		}
		return res;
	}
	res = mfpq_cursor_result(conn, read, err);
	if (res == NULL)
		return NULL;
	if (!mfpq_cursor_open(conn, res, sql, nparams, values, err))
	{
		mfpq_free_result(res);
		return NULL;
	}
	return res;
}

/* ... once more on a new link if the first went down with it (pq_relink.c) */
MfResult *
mfpq_query(MfConn *conn, const char *sql, int nparams,
		   const char *const *values, const MfTypeClass *classes,
		   MfRead read, MfError *err)
{
	MfResult   *res;

	(void) classes;
	res = mfpq_query_once(conn, sql, nparams, values, read, err);
	if (res == NULL && mfpq_relink(conn, err))
		res = mfpq_query_once(conn, sql, nparams, values, read, err);
	return res;
}

/*
 * A rescan: the old cursor is closed in the same exchange that opens the
 * new one, so that a parameterised scan costs one round trip per rescan.
 */
MfResult *
mfpq_requery(MfResult *old, const char *sql, int nparams,
			 const char *const *values, const MfTypeClass *classes,
			 MfRead read, MfError *err)
{
	MfConn	   *conn = old->conn;

	mfpq_result_close(old);
	return mfpq_query(conn, sql, nparams, values, classes, read, err);
}

static int
mfpq_fetch_batch(MfResult *res, MfError *err)
{
	MfConn	   *conn = res->conn;
	char		sql[MFPQ_NAME_LEN + 48];
	PGresult   *batch;
	int			n;

	if (res->stream)
		return mfpq_small_fetch(res, err);
	if (!res->is_cursor)
	{
		/* an executed statement's rows: all of them once, then nothing */
		if (!res->at_end)
		{
			res->at_end = true;
			return res->batch ? PQntuples(res->batch) : 0;
		}
		PQclear(res->batch);
		res->batch = NULL;
		return 0;
	}

	PQclear(res->batch);
	res->batch = NULL;

	/* a batch asked for ahead: take it, waiting for it if need be */
	if (res->pending && mfpq_async_poll(res, true, err) < 0)
		return -1;
	if (res->ahead != NULL)
	{
		res->batch = res->ahead;
		res->ahead = NULL;
		res->ncols = PQnfields(res->batch);
		n = PQntuples(res->batch);
		if (n < res->requested)
			res->at_end = true;
		return n;
	}
	if (res->at_end)
		return 0;

	if (!mfpq_usable(conn, MF_STEP_FETCH, err))
		return -1;
	snprintf(sql, sizeof(sql), "FETCH %d FROM %s", res->fetch_size,
			 res->name);
	if (!mfpq_command(conn, sql, MF_STEP_FETCH, &batch, err))
		return -1;
	if (batch == NULL || PQresultStatus(batch) != PGRES_TUPLES_OK)
	{
		PQclear(batch);
		mfpq_fail(conn, err, MF_STEP_FETCH, "XX000",
				  "FETCH returned no rows description");
		return -1;
	}

	res->batch = batch;
	res->ncols = PQnfields(batch);
	n = PQntuples(batch);
	/* a short batch is the last one: spare the round trip that says so */
	if (n < res->fetch_size)
		res->at_end = true;
	return n;
}

/* The transport's rows_all_read: the last batch fetched was the last. */
bool
mfpq_rows_all_read(MfResult *res)
{
	if (res->stream)
		return mfpq_small_all_read(res);
	return res->at_end && !res->pending && res->ahead == NULL;
}

/* A batch, counted as it is handed over. */
int
mfpq_fetch(MfResult *res, MfError *err)
{
	int			n = mfpq_fetch_batch(res, err);

	if (n > 0)
		mf_wire_count_rows(res->conn->wire, res, n, res->ncols, mfpq_value);
	return n;
}

int
mfpq_ncolumns(MfResult *res)
{
	return res->ncols;
}

const char *
mfpq_value(MfResult *res, int row, int col)
{
	if (res->stream)
		return mfpq_small_value(res, row, col);
	/* PQgetisnull also answers 1 for a row or column out of range */
	if (res->batch == NULL || PQgetisnull(res->batch, row, col))
		return NULL;
	return PQgetvalue(res->batch, row, col);
}

void
mfpq_result_close(MfResult *res)
{
	if (res->pending)
	{
		MfError		ignored;

		(void) mfpq_async_poll(res, true, &ignored);
	}
	mfpq_cursor_done(res);
	mfpq_free_result(res);
}

/* ---------------------------------------------------------------------
 * Reading ahead
 * ---------------------------------------------------------------------
 */

bool
mfpq_async_send(MfResult *res, int rows, MfError *err)
{
	MfConn	   *conn = res->conn;
	char		sql[MFPQ_NAME_LEN + 48];

	if (!res->is_cursor || res->at_end || res->pending || res->ahead != NULL)
		return true;
	if (!mfpq_usable(conn, MF_STEP_FETCH, err))
		return false;
	res->requested = rows > 0 ? rows : res->fetch_size;
	snprintf(sql, sizeof(sql), "FETCH %d FROM %s", res->requested, res->name);
	if (!mfpq_later_send(conn, sql, MF_STEP_FETCH, err))
		return false;
	if (!mfpq_flush(conn, MF_STEP_FETCH, err))
		return false;
	res->pending = true;
	conn->pending = res;
	return true;
}

int
mfpq_async_poll(MfResult *res, bool wait, MfError *err)
{
	MfConn	   *conn = res->conn;
	PGresult   *batch;

	/* a small result's rows are read by the fetch (pq_small.c) */
	if (!res->pending)
		return 1;
	if (!wait)
	{
		if (!PQconsumeInput(conn->pg))
		{
			res->pending = false;
			conn->pending = NULL;
			mfpq_conn_error(conn, MF_STEP_FETCH, err);
			return -1;
		}
		if (PQisBusy(conn->pg))
			return 0;
	}
	/* the answer is in (or we wait for it): read it to the end */
	res->pending = false;
	conn->pending = NULL;
	if (!mfpq_finish(conn, 1, MF_STEP_FETCH, &batch, err))
		return -1;
	if (batch == NULL || PQresultStatus(batch) != PGRES_TUPLES_OK)
	{
		PQclear(batch);
		mfpq_fail(conn, err, MF_STEP_FETCH, "XX000",
				  "FETCH returned no rows description");
		return -1;
	}
	res->ahead = batch;
	return 1;
}

int
mfpq_async_socket(MfConn *conn)
{
	return PQsocket(conn->pg);
}

/*
 * The connection's settle hook: a FETCH sent ahead is read before any
 * other command, since its answer is on the wire.
 */
bool
mfpq_finish_ahead(MfConn *conn, MfError *err)
{
	mfpq_small_spill(conn);
	return conn->pending == NULL || mfpq_async_poll(conn->pending, true, err) >= 0;
}

/* ---------------------------------------------------------------------
 * Results and the connection's list of them
 * ---------------------------------------------------------------------
 */

MfResult *
mfpq_new_result(MfConn *conn, MfError *err)
{
	MfResult   *res = calloc(1, sizeof(MfResult));

	if (res == NULL)
	{
		mfpq_fail(conn, err, MF_STEP_FETCH, "53200", "out of memory");
		return NULL;
	}
	res->conn = conn;
	res->ncols = -1;
	MF_LIST_PUSH(conn->results, res);
	return res;
}

/*
 * A stream's column names, kept from the result that described them (its
 * rows are copied and the result cleared).  Without memory for them the
 * names are not known, which only column_name's callers see.
 */
void
mfpq_keep_names(MfResult *res, const PGresult *r)
{
	int			n = PQnfields(r);

	if (res->names != NULL || n <= 0 || (res->names = calloc(n, sizeof(char *))) == NULL)
		return;
	for (int c = 0; c < n; c++)
		res->names[c] = strdup(PQfname(r, c));
}

const char *
mfpq_column_name(MfResult *res, int col)
{
	if (col < 0 || col >= res->ncols)
		return NULL;
	if (res->names != NULL)
		return res->names[col];
	return res->batch != NULL ? PQfname(res->batch, col) : NULL;
}

void
mfpq_free_result(MfResult *res)
{
	if (res->names != NULL)
	{
		for (int c = 0; c < res->ncols; c++)
			free(res->names[c]);
		free(res->names);
	}
	if (res->stream)
		mfpq_small_free(res);
	MF_LIST_REMOVE(res->conn->results, res);
	if (res->conn->pending == res)
		res->conn->pending = NULL;
	PQclear(res->batch);
	PQclear(res->ahead);
	free(res);
}
