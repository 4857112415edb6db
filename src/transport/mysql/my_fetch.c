/*-------------------------------------------------------------------------
 *
 * my_fetch.c
 *		The mysql transport's queries: server-side cursors, results
 *		streamed off the socket, and fetch (the values' conversion to
 *		PostgreSQL's text form is my_value.c's).
 *
 * Part of the mysql transport (see my_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only Connector/C's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
/* ---------------------------------------------------------------------
 * Queries read through server-side cursors
 * ---------------------------------------------------------------------
 */

/*
 * A query's rows come one of three ways.  MF_READ_CURSOR: through a
 * server-side cursor, rows per COM_STMT_FETCH, so that memory stays
 * bounded and other statements may run on the connection between two
 * fetches.  MF_READ_FEW: the planner expects a small result (at most
 * rows), so no cursor: the rows follow the execute's answer in
 * its own exchange and are read off the socket as the core fetches them,
 * a batch at a time, so memory stays bounded even when the estimate is
 * wrong; the core reads the rest itself before another command needs the
 * connection (holds_link), and one that comes first all the same has at
 * most MF_STREAM_SPILL_MAX of it read into memory (mfmy_stream_spill).
 * MF_READ_WHOLE: a small result read whole at once (XA RECOVER takes no
 * cursor: asked for one on a statement other than a SELECT, Connector/C
 * falls out of step with the server).
 */
MfResult *
mfmy_query(MfConn *conn, const char *sql, int nparams,
		   const char *const *values, const MfTypeClass *classes,
		   MfRead read, MfError *err)
{
	MfResult   *res;
	MfmyOp		op;
	bool		ok;
	bool		want_cursor = read.mode == MF_READ_CURSOR;
	bool		few = read.mode == MF_READ_FEW;

	if (!mfmy_usable(conn, MF_STEP_FETCH, err))
		return NULL;
	res = calloc(1, sizeof(MfResult));
	if (res == NULL)
	{
		mfmy_oom(conn, MF_STEP_FETCH, err);
		return NULL;
	}
	res->conn = conn;
	MF_LIST_PUSH(conn->results, res);
	if (want_cursor && read.rows > 0)
		res->fetch_size = read.rows;
	else if (few && read.rows > MFMY_STREAM_BATCH - 1)
		res->fetch_size = MFMY_STREAM_BATCH;
	else if (few && 1 + read.rows > MFMY_DEFAULT_FETCH)
		res->fetch_size = 1 + read.rows;	/* one more: the end comes too */
	else
		res->fetch_size = MFMY_DEFAULT_FETCH;
	if (!mfmy_params_init(&res->params, nparams, classes))
	{
		mfmy_free_result(res);
		mfmy_oom(conn, MF_STEP_FETCH, err);
		return NULL;
	}

	/*
	 * A small result of a text not prepared yet: by COM_QUERY in one
	 * exchange where its values print exactly (my_text.c).  At most ten
	 * times the rows the planner expects are held.  Not a statement of the
	 * user's: declined, it would run a second time.
	 */
	if (few && nparams == 0 && !read.as_written &&
		!mfmy_cache_has(conn, sql, 0, false) &&
		(conn->text_declined < MFMY_TEXT_GIVE_UP ||
		 ++conn->text_declined % MFMY_TEXT_GIVE_UP == 0))
	{
		int			rc = mfmy_text_query(res, sql,
										 read.rows > MFMY_TEXT_MAX_ROWS / 10 ?
										 MFMY_TEXT_MAX_ROWS : 10 * read.rows,
										 err);

		if (rc > 0)
			return res;
		if (rc < 0)
		{
			mfmy_free_result(res);
			return NULL;
		}
	}
	res->handle = mfmy_cache_take(conn, sql, nparams, want_cursor,
								  MF_STEP_FETCH, err);
	if (res->handle == NULL)
	{
		mfmy_free_result(res);
		return NULL;
	}
	/* a second time when the server wants it prepared again (my_cache.c) */
	for (int tries = 0;; tries++)
	{
		unsigned long prefetch = (unsigned long) res->fetch_size;

		res->st = res->handle->st;
		if (want_cursor &&
			mysql_stmt_attr_set(res->st, STMT_ATTR_PREFETCH_ROWS, &prefetch))
		{
			mfmy_stmt_error(conn, res->st, MF_STEP_FETCH, err);
			mfmy_cache_spoil(res->handle);
			mfmy_free_result(res);
			return NULL;
		}
		mfmy_op_start(&op, conn);
		ok = mfmy_run(&op, res->st, &res->params, values, MF_STEP_FETCH, err);
		if (ok || tries > 0 ||
			!mfmy_cache_retake(conn, &res->handle, MF_STEP_FETCH, err))
			break;
	}
	res->st = res->handle->st;
	if (!ok && !mfmy_cache_refused(res->st))
		mfmy_cache_spoil(res->handle);

	/* an execute closes the cursor the handle had left open */
	res->handle->cursor_left_open = false;
	res->cursor = ok && (conn->my->server_status & SERVER_STATUS_CURSOR_EXISTS);
	/* a cursor's rows were made at its execute: their notes with it */
	if (res->cursor && !op.cancelled && !op.cut)
		mfmy_relay_warnings(conn, (unsigned int) mysql_stmt_warning_count(res->st));
	if (ok && !res->cursor && mysql_stmt_field_count(res->st) > 0)
	{
		if (few)
		{
			res->stream = true;
			conn->streaming = res;
		}

		/*
		 * Without a cursor (read whole, or a server that would not open
		 * one) the rows are on the wire already: read them all now, so
		 * that the connection is free.
		 */
		else if (mfmy_stmt_store(&op, res->st) != 0)
		{
			mfmy_stmt_error(conn, res->st, MF_STEP_FETCH, err);
			mfmy_cache_spoil(res->handle);
			ok = false;
		}
	}
	if (mfmy_op_interrupted(&op, MF_STEP_FETCH, err))
	{
		mfmy_cache_spoil(res->handle);
		ok = false;
	}
	if (ok && !mfmy_bind_columns(res, err))
	{
		mfmy_cache_spoil(res->handle);
		ok = false;
	}
	if (!ok)
	{
		mfmy_free_result(res);
		return NULL;
	}
	return res;
}

/*
 * The rows a prepared statement just returned (INSERT ... RETURNING),
 * already stored on the client: read through its own handle, which stays
 * the statement's.
 */
MfResult *
mfmy_stmt_result(MfStmt *stmt, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	MfResult   *res = calloc(1, sizeof(MfResult));

	if (res == NULL)
	{
		(void) mysql_stmt_free_result(stmt->st);
		mfmy_oom(conn, MF_STEP_EXECUTE, err);
		return NULL;
	}
	res->conn = conn;
	res->st = stmt->st;
	res->borrowed = stmt;
	MF_LIST_PUSH(conn->results, res);
	res->fetch_size = MFMY_DEFAULT_FETCH;
	if (!mfmy_bind_columns(res, err))
	{
		mfmy_free_result(res);
		return NULL;
	}
	return res;
}

/*
 * The rest of a streamed result goes unread (read off the socket and
 * dropped, which sends nothing), so that the link is in step again.
 */
static void
mfmy_stream_end(MfResult *res)
{
	MfConn	   *conn = res->conn;

	res->at_end = true;
	if (conn->streaming == res)
		conn->streaming = NULL;
	if (conn->my != NULL && !conn->broken)
	{
		MfmyOp		op;

		mfmy_op_start(&op, conn);
		if (mfmy_stmt_free_result(&op, res->st) || op.cut)
			conn->broken = conn->broken || op.cut;
		/* a CALL's status, and any other set of rows, are dropped too */
		if (!conn->broken && mysql_stmt_more_results(res->st))
		{
			if (mfmy_stmt_drain_results(&op, res->st) < 0 || op.cut)
				conn->broken = true;
			if (res->handle != NULL)
				mfmy_cache_spoil(res->handle);
		}
	}
	mfmy_unpark(conn);
}

/*
 * After the rows of a CALL, what the statement sent besides: its status
 * and any other set of rows, read and dropped (the handle is not used
 * again, its columns are the last set's).  A further set of rows is an
 * error: one is read, and the statement's caller would not learn that
 * there were others.
 */
static bool
mfmy_more_results(MfResult *res, MfError *err)
{
	MfConn	   *conn = res->conn;
	MfmyOp		op;
	int			sets;

	mfmy_op_start(&op, conn);
	sets = mfmy_stmt_drain_results(&op, res->st);
	if (res->handle != NULL)
		mfmy_cache_spoil(res->handle);
	if (mfmy_op_interrupted(&op, MF_STEP_FETCH, err))
		return false;
	if (sets < 0)
	{
		mfmy_stmt_error(conn, res->st, MF_STEP_FETCH, err);
		return false;
	}
	if (sets > 0)
	{
		mfmy_fail(conn, err, MF_STEP_FETCH, "0A000",
				  "the statement returned more than one set of rows; only one is read");
		return false;
	}
	return true;
}

/*
 * Read up to limit rows into the current batch, after those it holds.
 * The rows the batch had before stay.
 */
static int
mfmy_read_rows(MfResult *res, int limit, MfError *err)
{
	MfConn	   *conn = res->conn;
	int			first = res->rows.nrows;

	while (res->rows.nrows - first < limit)
	{
		MfmyOp		op;
		int			rc;
		bool		rebind = false;
		size_t	   *row;

		mfmy_op_start(&op, conn);
		rc = mfmy_stmt_fetch(&op, res->st);
		if (mfmy_op_interrupted(&op, MF_STEP_FETCH, err))
		{
			res->at_end = true;
			return -1;
		}
		if (rc == MYSQL_NO_DATA)
		{
			/*
			 * The notes and warnings of the rows' making: a stream's are
			 * counted on the EOF packet just read (before anything else
			 * is); a stored result's by the library.  A cursor's came
			 * with its execute, the rows of a statement of ours (a
			 * RETURNING) with theirs: relayed there.
			 */
			unsigned int warnings = 0;

			if (res->stream)
				warnings = mfmy_eof_warnings(conn->my);
			else if (!res->cursor && res->borrowed == NULL)
				warnings = (unsigned int) mysql_stmt_warning_count(res->st);
			res->at_end = true;
			res->read_to_end = true;
			if (mysql_stmt_more_results(res->st) &&
				!mfmy_more_results(res, err))
				return -1;
			if (conn->streaming == res)
			{
				conn->streaming = NULL;
				mfmy_unpark(conn);
			}
			mfmy_relay_warnings(conn, warnings);
			break;
		}
		if (rc != 0 && rc != MYSQL_DATA_TRUNCATED)
		{
			mfmy_stmt_error(conn, res->st, MF_STEP_FETCH, err);
			return -1;
		}
		/* room for the row's offsets, grown as rows come */
		if (res->rows.nrows >= res->rows.rows_cap)
		{
			int			cap = res->rows.rows_cap > 0 ? res->rows.rows_cap * 2 : 64;

			if (cap - first > limit)
				cap = first + limit;
			if (!mf_rows_reserve(&res->rows, cap, res->ncols))
			{
				mfmy_oom(conn, MF_STEP_FETCH, err);
				return -1;
			}
		}
		row = res->rows.offsets + (size_t) res->rows.nrows * res->ncols;
		for (int c = 0; c < res->ncols; c++)
			if (!mfmy_store_value(res, c, &row[c], &rebind, err))
				return -1;
		if (rebind && mysql_stmt_bind_result(res->st, res->bind))
		{
			mfmy_stmt_error(conn, res->st, MF_STEP_FETCH, err);
			return -1;
		}
		res->rows.nrows++;
	}
	return res->rows.nrows;
}

/* The current batch and the rows read ahead change places. */
static void
mfmy_spill_swap(MfResult *res)
{
	MfRows		cur = res->rows;

	res->rows = res->spill;
	res->spill = cur;
}

/*
 * The connection's settle hook, for a streamed result: another command
 * needs the link and the core has not taken the rows (it does,
 * held_rows.c; this is the last resort), so the rest of them are read now
 * and held for the core's next fetches, while the batch it is reading
 * stays as it is; at most MF_STREAM_SPILL_MAX of them, past which the
 * rest is read and dropped.  A failure is kept for the fetch that reaches
 * it.
 */
void
mfmy_stream_spill(MfConn *conn)
{
	MfResult   *res = conn->streaming;

	if (res == NULL)
		return;
	if (conn->my == NULL || conn->broken)
	{
		mfmy_stream_end(res);
		return;
	}
	conn->streaming = NULL;
	mfmy_spill_swap(res);
	mf_rows_clear(&res->rows);
	mf_error_clear(&res->spill_err);
	while (!res->read_to_end)
	{
		if (mfmy_read_rows(res, MFMY_STREAM_BATCH, &res->spill_err) < 0)
		{
			res->spill_failed = true;
			mfmy_stream_end(res);
			break;
		}
		if (res->rows.text_cap + (size_t) res->rows.rows_cap *
			(size_t) (res->ncols > 0 ? res->ncols : 1) * sizeof(size_t) >
			MF_STREAM_SPILL_MAX)
		{
			mfmy_stream_end(res);
			res->rows.nrows = 0;
			mf_error_spill_limit(&res->spill_err);
			res->spill_failed = true;
			break;
		}
	}
	mfmy_spill_swap(res);
	res->spilled = true;
	mfmy_unpark(conn);
}

/* The transport's holds_link: rows of res are still on the socket. */
bool
mfmy_holds_link(MfResult *res)
{
	return res->conn->streaming == res;
}

/*
 * Before a ROLLBACK, and the transport's drop_stream (a subtransaction
 * rolled back): a streamed result is read and dropped rather than read
 * into memory, since nothing will read it; fetched after all, it fails.
 */
void
mfmy_stream_discard(MfConn *conn)
{
	MfResult   *res = conn->streaming;

	if (res == NULL)
		return;
	mfmy_stream_end(res);
	mf_error_fail(&res->spill_err, MF_STEP_FETCH, "XX000", false,
				  "the rest of the remote result was dropped with the (sub)transaction that read it");
	res->spill_failed = true;
}

static int
mfmy_fetch_batch(MfResult *res, MfError *err)
{
	MfConn	   *conn = res->conn;

	mf_rows_clear(&res->rows);
	if (res->spilled)
	{
		mfmy_spill_swap(res);
		res->spilled = false;
		if (res->rows.nrows > 0)
			return res->rows.nrows;
	}
	if (res->spill_failed)
	{
		res->spill_failed = false;
		*err = res->spill_err;
		return -1;
	}
	if (res->at_end)
		return 0;

	/*
	 * A cursor's next rows are a request of their own; a stream's are on
	 * their way (nothing else may run before them); stored rows are here.
	 */
	if (res->cursor)
	{
		if (!mfmy_usable(conn, MF_STEP_FETCH, err))
			return -1;
	}
	else if (res->stream && (conn->broken || conn->my == NULL))
	{
		res->at_end = true;
		if (conn->streaming == res)
			conn->streaming = NULL;
		mfmy_unpark(conn);
		mfmy_fail(conn, err, MF_STEP_FETCH, "08006",
				  "connection to the remote server was lost");
		return -1;
	}

	if (mfmy_read_rows(res, res->fetch_size, err) < 0)
	{
		if (res->stream)
			mfmy_stream_end(res);
		return -1;
	}
	return res->rows.nrows;
}

/* A batch, counted as it is handed over. */
int
mfmy_fetch(MfResult *res, MfError *err)
{
	int			n;

	/*
	 * The server sends a cursor's rows fetch_size at a time, as many as a
	 * batch takes: a batch of a cursor not known to be over is one request.
	 * (Counted so, not by whether the library had to wait, which varies.)
	 * The rows of a stream came with the execute's answer.
	 */
	if (res->cursor && !res->at_end)
		res->conn->wire->round_trips++;
	n = mfmy_fetch_batch(res, err);
	if (n < 0)
		mfmy_cache_spoil(res->borrowed != NULL ? res->borrowed->handle :
						 res->handle);
	if (n > 0)
		mf_wire_count_rows(res->conn->wire, res, n, res->ncols, mfmy_value);
	return n;
}

int
mfmy_ncolumns(MfResult *res)
{
	return res->ncols;
}

const char *
mfmy_column_name(MfResult *res, int col)
{
	if (res->cols == NULL || col < 0 || col >= res->ncols)
		return NULL;
	return res->cols[col].name;
}

const char *
mfmy_value(MfResult *res, int row, int col)
{
	return mf_rows_value(&res->rows, res->ncols, row, col);
}

void
mfmy_result_close(MfResult *res)
{
	mfmy_free_result(res);
}

/* ---------------------------------------------------------------------
 * The connection's list of results
 * ---------------------------------------------------------------------
 */

/*
 * A query of our own gives its handle back to the connection's cache; its
 * rows are dropped on the client first (a stream's rest read and dropped),
 * so that the handle can run again without a reset.
 */
static void
mfmy_release_result(MfResult *res)
{
	MfConn	   *conn = res->conn;

	if (res->borrowed != NULL)
		(void) mysql_stmt_free_result(res->st);
	else if (res->handle != NULL)
	{
		if (res->cursor && !res->read_to_end)
			res->handle->cursor_left_open = true;
		(void) mysql_stmt_free_result(res->st);
		mfmy_cache_give(conn, res->handle);
	}
	mfmy_params_free(&res->params);
	mfmy_free_columns(res);
	free(res->bind);
	mf_rows_free(&res->rows);
	mf_rows_free(&res->spill);
	free(res);
}

/*
 * A result is closed.  While another one's stream holds the link, its
 * handle cannot be given back yet: Connector/C would take that stream for
 * this handle's rows and drop it (mysql_stmt_free_result reads whatever
 * the link carries), and reading the stream into memory first is what
 * must not happen.  So a query of our own waits, parked, until the stream
 * is over (mfmy_unpark); only a statement's rows (RETURNING, read at once
 * after the execute the core claims the link for) still have the stream
 * read in, bounded, first.
 */
void
mfmy_free_result(MfResult *res)
{
	MfConn	   *conn = res->conn;

	MF_LIST_REMOVE(conn->results, res);
	if (res->stream && !res->at_end)
		mfmy_stream_end(res);
	if (conn->streaming == res)
	{
		conn->streaming = NULL;
		mfmy_unpark(conn);
	}
	if (conn->streaming != NULL && res->borrowed == NULL &&
		res->handle != NULL && !conn->broken && conn->my != NULL)
	{
		MF_LIST_PUSH(conn->parked, res);
		return;
	}
	if (conn->streaming != NULL && (res->borrowed != NULL || res->handle != NULL))
		mfmy_stream_spill(conn);
	mfmy_release_result(res);
}

/*
 * No stream holds the link (any more): the results parked meanwhile give
 * their handles back, and the handles that were to be closed are.
 */
void
mfmy_unpark(MfConn *conn)
{
	MfResult   *res;

	if (conn->streaming != NULL)
		return;
	while ((res = conn->parked) != NULL)
	{
		MF_LIST_REMOVE(conn->parked, res);
		mfmy_release_result(res);
	}
	if (conn->tidy_due)
	{
		conn->tidy_due = false;
		mfmy_cache_tidy(conn);
	}
}
