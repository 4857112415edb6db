/*-------------------------------------------------------------------------
 *
 * pq_small.c
 *		The libpq transport's small results: a query the planner expects to
 *		return few rows runs without a cursor, its rows read off the wire.
 *
 * A cursor costs the remote more than a cursor's bookkeeping: PostgreSQL
 * never runs a cursor's query (or a portal fetched a few rows at a time) in
 * parallel, so an aggregate, a GROUP BY or a top-N over a large table,
 * which returns few rows, is computed by one remote process where a plain
 * query gets the remote's parallel workers.  A small result therefore goes
 * as a plain query in single-row mode, with what waits to go in front of
 * it (pq_defer.c) in the same message: one exchange, no CLOSE to send
 * later.
 *
 * Memory stays bounded when the estimate is wrong: rows are read off the
 * wire a batch at a time, as the core fetches them, and each row's values
 * are copied into the batch's own buffer.  While rows are still on the
 * wire the connection is busy (holds_link): before anything else uses it
 * the core reads the rest into a tuplestore of its own.  Should a command
 * come first all the same, the rest is read into a second buffer, up to
 * MF_STREAM_SPILL_MAX (mfpq_small_spill), which the next fetches then
 * hand over.  A result closed before its end has the rest read and
 * dropped, since cancelling would fail the remote transaction; a cursor
 * closed while another result streams has its CLOSE wait (pq_fetch.c).
 *
 * A query without parameters is one simple-protocol message with what goes
 * in front of it.  One with parameters is an extended-protocol request:
 * alone when nothing waits to go in front, else a pipeline of those
 * commands and the query with one sync, single-row mode set for the query
 * once the results of the commands before it are read.
 *
 * Part of the libpq transport (see pq_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only libpq-fe.h.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "pq_int.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more row of ncols values and len bytes. */
static bool
mfpq_rows_reserve(MfpqRows *rows, int ncols, size_t len)
{
	if (rows->nrows >= rows->rows_cap)
	{
		int			cap = rows->rows_cap > 0 ? rows->rows_cap * 2 : 64;
		long	   *off = realloc(rows->off, (size_t) cap * ncols * sizeof(long));

		if (off == NULL)
			return false;
		rows->off = off;
		rows->rows_cap = cap;
	}
	if (rows->len + len > rows->cap)
	{
		size_t		cap = rows->cap > 0 ? rows->cap : 8192;
		char	   *data;

		while (cap < rows->len + len)
			cap *= 2;
		data = realloc(rows->data, cap);
		if (data == NULL)
			return false;
		rows->data = data;
		rows->cap = cap;
	}
	return true;
}

/* Copy the one row of a single-row result. */
static bool
mfpq_rows_add(MfpqRows *rows, const PGresult *row, int ncols)
{
	size_t		len = 0;
	long	   *off;

	for (int c = 0; c < ncols; c++)
		if (!PQgetisnull(row, 0, c))
			len += (size_t) PQgetlength(row, 0, c) + 1;
	if (!mfpq_rows_reserve(rows, ncols, len))
		return false;
	off = rows->off + (size_t) rows->nrows * ncols;
	for (int c = 0; c < ncols; c++)
	{
		size_t		n;

		if (PQgetisnull(row, 0, c))
		{
			off[c] = -1;
			continue;
		}
		n = (size_t) PQgetlength(row, 0, c);
		off[c] = (long) rows->len;
		memcpy(rows->data + rows->len, PQgetvalue(row, 0, c), n);
		rows->data[rows->len + n] = '\0';
		rows->len += n + 1;
	}
	rows->nrows++;
	return true;
}

static void
mfpq_rows_reset(MfpqRows *rows)
{
	rows->nrows = 0;
	rows->len = 0;
}

static void
mfpq_rows_free(MfpqRows *rows)
{
	free(rows->off);
	free(rows->data);
	memset(rows, 0, sizeof(*rows));
}

/* May rows of res still come off the wire (the connection streams it)? */
static bool
mfpq_small_on_wire(const MfResult *res)
{
	return res->conn->streaming == res;
}

/* The transport's holds_link: rows of res are still to come off the wire. */
bool
mfpq_small_holds_link(MfResult *res)
{
	return mfpq_small_on_wire(res);
}

/*
 * rows_all_read for a small result: off the wire, and nothing it read off
 * it (a spill) left to hand over.
 */
bool
mfpq_small_all_read(MfResult *res)
{
	return !mfpq_small_on_wire(res) && !res->first_kept &&
		res->spill_next >= res->spill.nrows && !res->stream_failed;
}

/* Nothing more will come off the wire for res. */
static void
mfpq_small_off_wire(MfResult *res)
{
	if (mfpq_small_on_wire(res))
		res->conn->streaming = NULL;
}

/* The first error of the stream is the one its reader gets. */
static void
mfpq_small_failed(MfResult *res, const MfError *err)
{
	if (!res->stream_failed)
		res->stream_err = *err;
	res->stream_failed = true;
}

/*
 * Read the next row off the wire into rows: 1 a row, 0 the end (or an
 * error, kept in res->stream_err: the stream is over either way).
 */
static int
mfpq_small_next(MfResult *res, MfpqRows *rows)
{
	MfConn	   *conn = res->conn;

	while (mfpq_small_on_wire(res))
	{
		PGresult   *r;
		MfError		err;

		mf_error_clear(&err);
		if (!mfpq_await(conn, MF_STEP_FETCH, &err))
		{
			/* a cancel or a lost link: the connection is settled or gone */
			mfpq_small_failed(res, &err);
			mfpq_later_failed(conn);
			mfpq_small_off_wire(res);
			break;
		}
		r = PQgetResult(conn->pg);
		if (r == NULL && res->pipelined &&
			PQpipelineStatus(conn->pg) == PQ_PIPELINE_OFF)
		{
			/* someone ended the pipeline, and read the rest with it */
			res->pipelined = false;
			mfpq_small_off_wire(res);
			break;
		}
		if (r == NULL)
		{
			if (res->pipelined && res->lead > 0)
			{
				/* the commands in front are done: now the query's rows */
				if (--res->lead == 0)
					(void) PQsetSingleRowMode(conn->pg);
				continue;
			}
			if (res->pipelined)
				continue;		/* the query is done: its sync follows */
			mfpq_small_off_wire(res);
			break;
		}
		switch (PQresultStatus(r))
		{
			case PGRES_PIPELINE_SYNC:
				PQclear(r);
				conn->pl_syncs--;
				res->pipelined = false;
				if (!PQexitPipelineMode(conn->pg))
				{
					mfpq_conn_error(conn, MF_STEP_FETCH, &err);
					mfpq_small_failed(res, &err);
				}
				mfpq_small_off_wire(res);
				return 0;
			case PGRES_PIPELINE_ABORTED:
				/* skipped after an error in front: that error is the one */
				break;
			case PGRES_SINGLE_TUPLE:
				conn->ncarried = 0;
				if (res->ncols < 0)
				{
					res->ncols = PQnfields(r);
					mfpq_keep_names(res, r);
				}
				if (!mfpq_rows_add(rows, r, res->ncols))
				{
					PQclear(r);
					mfpq_fail(conn, &err, MF_STEP_FETCH, "53200",
							  "out of memory");
					mfpq_small_failed(res, &err);
					(void) mfpq_settle(conn);
					mfpq_small_off_wire(res);
					return 0;
				}
				PQclear(r);
				return 1;
			case PGRES_TUPLES_OK:
				/* the end of the rows, and their description if none came */
				conn->ncarried = 0;
				if (res->ncols < 0)
				{
					res->ncols = PQnfields(r);
					mfpq_keep_names(res, r);
				}
				break;
			case PGRES_COMMAND_OK:
			case PGRES_EMPTY_QUERY:
				/* what went in front: a begin, a savepoint, a CLOSE */
				mfpq_later_answered(conn);
				break;
			default:
				mfpq_result_error(conn, r, MF_STEP_FETCH, &err);
				mfpq_small_failed(res, &err);
				mfpq_later_failed(conn);
				break;
		}
		PQclear(r);
	}
	return 0;
}

/*
 * Send a query with parameters, and what waits to go in front of it: in a
 * pipeline when something does (res->lead commands before the query).
 */
static bool
mfpq_small_send_params(MfConn *conn, MfResult *res, const char *sql,
					   int nparams, const char *const *values, MfError *err)
{
	PGconn	   *pg = conn->pg;
	int			waiting = conn->nlater;

	conn->wire->bytes_sent += strlen(sql) + mf_values_bytes(values, nparams);
	if (waiting == 0)
	{
		if (PQsendQueryParams(pg, sql, nparams, NULL, values, NULL, NULL, 0))
			return true;
		mfpq_conn_error(conn, MF_STEP_FETCH, err);
		return false;
	}
	if (!PQenterPipelineMode(pg) || !mfpq_later_pipelined(conn))
	{
		mfpq_conn_error(conn, MF_STEP_FETCH, err);
		(void) mfpq_settle(conn);
		return false;
	}
	res->lead = waiting - conn->nlater;
	if (!PQsendQueryParams(pg, sql, nparams, NULL, values, NULL, NULL, 0) ||
		!PQpipelineSync(pg))
	{
		mfpq_conn_error(conn, MF_STEP_FETCH, err);
		(void) mfpq_settle(conn);
		return false;
	}
	conn->pl_syncs++;
	res->pipelined = true;
	return true;
}

/*
 * Send sql with what waits in front of it, in single-row mode, and wait
 * for its first row or its end, so that an error in it (or in what went
 * in front) is the opening's, as with a cursor.
 */
bool
mfpq_small_open(MfConn *conn, MfResult *res, const char *sql, int nparams,
				const char *const *values, bool one_statement, MfError *err)
{
	/*
	 * Savepoints and a query the server might not parse: a pipeline; a
	 * statement of the user's too, so that it is one statement (the
	 * extended protocol takes no more).
	 */
	if (nparams > 0 || one_statement || mfpq_later_holds_savepoint(conn))
	{
		if (!mfpq_small_send_params(conn, res, sql, nparams, values, err))
			return false;
	}
	else if (!mfpq_later_send(conn, sql, MF_STEP_FETCH, err))
		return false;
	/* in a pipeline with commands in front, set when the query comes up */
	if (!(res->pipelined && res->lead > 0) && !PQsetSingleRowMode(conn->pg))
	{
		(void) mfpq_settle(conn);
		res->pipelined = false;
		mfpq_fail(conn, err, MF_STEP_FETCH, "XX000",
				  "could not read the remote rows one at a time");
		return false;
	}
	conn->wire->round_trips++;
	res->stream = true;
	conn->streaming = res;
	if (!mfpq_flush(conn, MF_STEP_FETCH, err))
	{
		mfpq_small_off_wire(res);
		return false;
	}

	/* the first row waits for the first fetch, which adds to it */
	(void) mfpq_small_next(res, &res->rows);
	res->first_kept = true;
	if (res->stream_failed && res->rows.nrows == 0)
	{
		*err = res->stream_err;
		return false;
	}
	return true;
}

/*
 * The next batch: the first one tops up the row its opening read; later
 * ones take what a spill read into memory, then rows off the wire, up to
 * fetch_size each.  An error that came after rows is the next fetch's.
 */
int
mfpq_small_fetch(MfResult *res, MfError *err)
{
	MfpqRows   *spill = &res->spill;

	res->view = &res->rows;
	res->view_first = 0;
	if (res->first_kept)
		res->first_kept = false;
	else if (res->spill_next < spill->nrows)
	{
		int			n = spill->nrows - res->spill_next;

		if (n > res->fetch_size)
			n = res->fetch_size;
		res->view = spill;
		res->view_first = res->spill_next;
		res->view_rows = n;
		res->spill_next += n;
		return n;
	}
	else
	{
		/* a spill reads everything: once handed over, nothing is left */
		if (spill->nrows > 0)
		{
			mfpq_rows_free(spill);
			res->spill_next = 0;
		}
		mfpq_rows_reset(&res->rows);
	}

	while (res->rows.nrows < res->fetch_size &&
		   mfpq_small_next(res, &res->rows) == 1)
		;
	res->view_rows = res->rows.nrows;
	if (res->view_rows == 0 && res->stream_failed)
	{
		*err = res->stream_err;
		return -1;
	}
	return res->view_rows;
}

/* The value of a row of the current batch, NULL for SQL NULL. */
const char *
mfpq_small_value(MfResult *res, int row, int col)
{
	const MfpqRows *v = res->view;
	long		off;

	if (v == NULL || row < 0 || row >= res->view_rows || col < 0 ||
		col >= res->ncols)
		return NULL;
	off = v->off[(size_t) (res->view_first + row) * res->ncols + col];
	return off < 0 ? NULL : v->data + off;
}

/*
 * Another command needs the connection, and the core has not taken the
 * rest of the rows (it does, held_rows.c; this is the last resort): they
 * are read now into the spill buffer, while the batch the core is reading
 * stays.  At most MF_STREAM_SPILL_MAX of them: past it the rest is read
 * and dropped, and the reader's next fetch fails instead.
 */
void
mfpq_small_spill(MfConn *conn)
{
	MfResult   *res = conn->streaming;
	MfpqRows   *spill;

	if (res == NULL)
		return;
	spill = &res->spill;
	while (mfpq_small_next(res, spill) == 1)
	{
		MfError		err;

		if (spill->cap + (size_t) spill->rows_cap * res->ncols * sizeof(long) <=
			MF_STREAM_SPILL_MAX)
			continue;
		mfpq_small_off_wire(res);
		(void) mfpq_settle(conn);
		mfpq_rows_free(spill);
		res->spill_next = 0;
		mf_error_spill_limit(&err);
		mfpq_small_failed(res, &err);
		break;
	}
}

/*
 * The transport's drop_stream: nobody will read the rows still on the
 * wire.  They are read and dropped as when the result is closed, and the
 * result fails if it is fetched from after all.
 */
void
mfpq_small_drop(MfConn *conn)
{
	MfResult   *res = conn->streaming;
	MfError		err;

	if (res == NULL)
		return;
	mfpq_small_off_wire(res);
	(void) mfpq_settle(conn);
	res->pipelined = false;
	mfpq_rows_free(&res->spill);
	res->spill_next = 0;
	mf_error_fail(&err, MF_STEP_FETCH, "XX000", false,
				  "the rest of the remote result was dropped with the (sub)transaction that read it");
	mfpq_small_failed(res, &err);
}

/*
 * Before a ROLLBACK: the rows still on the wire are dropped with the
 * command (the caller cancels and settles it), not read.
 */
void
mfpq_small_abandon(MfConn *conn)
{
	if (conn->streaming != NULL)
		mfpq_small_off_wire(conn->streaming);
}

/*
 * The result goes: rows still on the wire are read and dropped, so that
 * the connection is free for the next command.
 */
void
mfpq_small_free(MfResult *res)
{
	if (mfpq_small_on_wire(res))
	{
		mfpq_small_off_wire(res);
		(void) mfpq_settle(res->conn);
	}
	mfpq_rows_free(&res->rows);
	mfpq_rows_free(&res->spill);
}
