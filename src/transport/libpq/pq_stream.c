/*-------------------------------------------------------------------------
 *
 * pq_stream.c
 *		The libpq transport's streams: COPY FROM STDIN and the pipeline
 *		of prepared statements.
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
 * COPY FROM STDIN
 * ---------------------------------------------------------------------
 */

/*
 * The server names the failing input line in its context, as
 * "COPY tablename, line 123" possibly followed by ", column x: ...".
 */
static long
mfpq_copy_line(const char *context)
{
	const char *line = context;

	while (line != NULL && *line != '\0')
	{
		const char *eol = strchr(line, '\n');

		if (strncmp(line, "COPY ", 5) == 0)
		{
			const char *p = line;

			while ((p = strstr(p, ", line ")) != NULL &&
				   (eol == NULL || p < eol))
			{
				char	   *end;
				long		n;

				p += 7;
				n = strtol(p, &end, 10);
				if (end > p && n > 0 &&
					(*end == '\0' || *end == '\n' || *end == ',' || *end == ':'))
					return n;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return 0;
}

static bool
mfpq_copy_begin_once(MfConn *conn, const char *sql, MfError *err)
{
	PGresult   *res;
	char	   *text;
	int			sent;

	if (!mfpq_usable(conn, MF_STEP_COPY, err))
		return false;
	/* the transaction's begin goes in the same message */
	if (!mfpq_later_simple(conn, MF_STEP_COPY, err))
		return false;
	text = mfpq_later_text(conn, sql);
	if (text == NULL)
	{
		mfpq_fail(conn, err, MF_STEP_COPY, "53200", "out of memory");
		return false;
	}
	conn->wire->bytes_sent += strlen(text);
	conn->wire->round_trips++;
	sent = PQsendQuery(conn->pg, text);
	mfpq_later_free(text, sql);
	if (!sent)
	{
		mfpq_conn_error(conn, MF_STEP_COPY, err);
		return false;
	}
	if (!mfpq_flush(conn, MF_STEP_COPY, err))
		return false;

	/* the answers of what went in front come first */
	for (;;)
	{
		if (!mfpq_await(conn, MF_STEP_COPY, err))
		{
			mfpq_later_failed(conn);
			return false;
		}
		res = PQgetResult(conn->pg);
		if (res == NULL || PQresultStatus(res) != PGRES_COMMAND_OK)
			break;
		mfpq_later_answered(conn);
		PQclear(res);
	}
	if (res != NULL && PQresultStatus(res) == PGRES_COPY_IN)
	{
		conn->ncarried = 0;
		PQclear(res);
		conn->in_copy = true;
		if (PQsetnonblocking(conn->pg, 1) != 0)
		{
			mfpq_conn_error(conn, MF_STEP_COPY, err);
			(void) mfpq_settle(conn);
			err->conn_lost = mfpq_is_broken(conn);
			return false;
		}
		return true;
	}

	if (res != NULL && (PQresultStatus(res) == PGRES_FATAL_ERROR ||
						PQresultStatus(res) == PGRES_BAD_RESPONSE))
		mfpq_result_error(conn, res, MF_STEP_COPY, err);
	else
		mfpq_fail(conn, err, MF_STEP_COPY, "XX000",
				  "the statement did not start a COPY FROM STDIN");
	PQclear(res);
	mfpq_later_failed(conn);

	/* whatever the statement turned out to be, read the rest of it */
	if (!mfpq_settle(conn))
		err->conn_lost = true;
	return false;
}

bool
mfpq_copy_send(MfConn *conn, const char *buf, size_t len, MfError *err)
{
	conn->wire->bytes_sent += len;
	while (len > 0)
	{
		int			chunk;
		int			rc;

		chunk = len > MFPQ_COPY_CHUNK ? MFPQ_COPY_CHUNK : (int) len;
		rc = PQputCopyData(conn->pg, buf, chunk);

		if (rc > 0)
		{
			buf += chunk;
			len -= chunk;
		}
		else if (rc < 0)
		{
			/* the COPY cannot be resumed, nor reliably wound down */
			conn->broken = true;
			mfpq_conn_error(conn, MF_STEP_COPY, err);
			return false;
		}

		/*
		 * Non-blocking libpq keeps what the socket does not take: without
		 * this wait its buffer would grow by every row the server does not
		 * read.
		 */
		if (!mfpq_flush(conn, MF_STEP_COPY, err))
			return false;
	}
	return true;
}

bool
mfpq_copy_end(MfConn *conn, const char *abort_reason, long *rows,
			  MfError *err)
{
	PGresult   *last;
	int			rc;
	bool		ok;

	if (rows)
		*rows = 0;
	conn->interrupted = false;
	while ((rc = PQputCopyEnd(conn->pg, abort_reason)) == 0)
	{
		if (!mfpq_wait(conn, true, MF_STEP_COPY, err))
			return false;
	}

	/*
	 * Still a COPY until its answer is read: a cancel while the server has
	 * not taken the last rows settles within a COPY's bound.
	 */
	ok = mfpq_finish(conn, rc > 0, MF_STEP_COPY, &last, err);
	if (rc > 0 && !mfpq_is_broken(conn))
		mfpq_copy_over(conn);
	if (!ok)
	{
		err->row = mfpq_copy_line(err->context);

		/*
		 * The server answers an abandoned COPY with query_canceled; that is
		 * what was asked for, unless a real row error came first.
		 */
		if (abort_reason != NULL && !conn->interrupted && !err->conn_lost &&
			strcmp(err->sqlstate, "57014") == 0)
			return true;
		return false;
	}
	if (rows)
		*rows = mfpq_rows(last);
	PQclear(last);
	return true;
}

/* ... once more on a new link if the first went down with it (pq_relink.c) */
bool
mfpq_copy_begin(MfConn *conn, const char *sql, MfError *err)
{
	if (mfpq_copy_begin_once(conn, sql, err))
		return true;
	return mfpq_relink(conn, err) && mfpq_copy_begin_once(conn, sql, err);
}

/* ---------------------------------------------------------------------
 * Pipelines of prepared statements
 * ---------------------------------------------------------------------
 */

bool
mfpq_pipeline_begin(MfConn *conn, MfError *err)
{
	/*
	 * What waits (the transaction's begin) goes on its own: the pipeline's
	 * results are counted statement by statement.  A pipeline is for many
	 * rows; one exchange more does not show.
	 */
	if (!mfpq_usable(conn, MF_STEP_PIPELINE, err))
		return false;
	if (!mfpq_later_flush(conn, MF_STEP_PIPELINE, err) &&
		!(mfpq_relink(conn, err) &&
		  mfpq_later_flush(conn, MF_STEP_PIPELINE, err)))
		return false;
	if (!PQenterPipelineMode(conn->pg))
	{
		mfpq_conn_error(conn, MF_STEP_PIPELINE, err);
		return false;
	}
	conn->pl_sent = conn->pl_taken = 0;
	conn->pl_syncs = 0;
	conn->pl_failed = false;
	return true;
}

bool
mfpq_pipeline_send(MfStmt *stmt, const char *const *values, MfError *err)
{
	MfConn	   *conn = stmt->conn;

	if (PQpipelineStatus(conn->pg) == PQ_PIPELINE_OFF)
	{
		mfpq_fail(conn, err, MF_STEP_PIPELINE, "XX000",
				  "the remote connection is not in pipeline mode");
		return false;
	}
	conn->wire->bytes_sent += mf_values_bytes(values, stmt->nparams);
	if (!PQsendQueryPrepared(conn->pg, stmt->name, stmt->nparams, values,
							 NULL, NULL, 0))
	{
		mfpq_conn_error(conn, MF_STEP_PIPELINE, err);
		return false;
	}
	conn->pl_sent++;

	/* without a flush request the server would hold results until a sync */
	if (!PQsendFlushRequest(conn->pg))
	{
		mfpq_conn_error(conn, MF_STEP_PIPELINE, err);
		return false;
	}
	return mfpq_flush(conn, MF_STEP_PIPELINE, err);
}

static void
mfpq_note_failure(MfConn *conn, const MfError *err)
{
	if (!conn->pl_failed)
	{
		conn->pl_error = *err;
		conn->pl_failed = true;
	}
}

/* Read the results of the next statement in the pipeline. */
static MfpqTake
mfpq_take_one(MfConn *conn, bool wait, long *rows_affected, MfError *err)
{
	PGconn	   *pg = conn->pg;
	MfpqTake	outcome = MFPQ_TAKEN;
	bool		got = false;

	if (!wait)
	{
		if (!PQconsumeInput(pg))
		{
			mfpq_conn_error(conn, MF_STEP_PIPELINE, err);
			return MFPQ_BROKEN;
		}
		if (PQisBusy(pg))
			return MFPQ_NOT_READY;
	}

	for (;;)
	{
		PGresult   *res;

		if (!mfpq_await(conn, MF_STEP_PIPELINE, err))
			return MFPQ_BROKEN;
		res = PQgetResult(pg);
		if (res == NULL)
			break;

		switch (PQresultStatus(res))
		{
			case PGRES_COMMAND_OK:
			case PGRES_TUPLES_OK:
				if (rows_affected)
					*rows_affected = mfpq_rows(res);
				break;
			case PGRES_PIPELINE_ABORTED:
				if (outcome == MFPQ_TAKEN)
					outcome = MFPQ_SKIPPED;
				break;
			case PGRES_PIPELINE_SYNC:
				/* no NULL follows a sync: everything before it is read */
				PQclear(res);
				conn->pl_syncs--;
				conn->pl_taken = conn->pl_sent;
				return got ? outcome : MFPQ_NONE;
			default:
				if (outcome != MFPQ_STMT_FAILED)
					mfpq_result_error(conn, res, MF_STEP_PIPELINE, err);
				/* which statement it was is not known here: all go */
				if (conn->plan_changed)
					mfpq_stale_all(conn);
				outcome = MFPQ_STMT_FAILED;
				break;
		}
		got = true;
		PQclear(res);
	}

	if (!got)
	{
		conn->pl_taken = conn->pl_sent;
		return MFPQ_NONE;
	}
	conn->pl_taken++;
	return outcome;
}

int
mfpq_pipeline_collect(MfConn *conn, bool wait, long *rows_affected,
					  MfError *err)
{
	if (rows_affected)
		*rows_affected = 0;
	if (PQpipelineStatus(conn->pg) == PQ_PIPELINE_OFF)
		return 0;

	while (conn->pl_taken < conn->pl_sent)
	{
		switch (mfpq_take_one(conn, wait, rows_affected, err))
		{
			case MFPQ_TAKEN:
				return 1;
			case MFPQ_SKIPPED:
				continue;
			case MFPQ_STMT_FAILED:
				mfpq_note_failure(conn, err);
				return -1;
			case MFPQ_BROKEN:
				return -1;
			case MFPQ_NOT_READY:
			case MFPQ_NONE:
				return 0;
		}
	}
	return 0;
}

/*
 * Sync, read what is left and leave pipeline mode.  The pipeline's first
 * statement error is returned here even when collect already reported it,
 * so that a caller cannot lose it by ending the pipeline early.
 */
bool
mfpq_pipeline_end(MfConn *conn, MfError *err)
{
	PGconn	   *pg = conn->pg;
	int			idle_nulls = 0;
	bool		failed;

	if (PQpipelineStatus(pg) == PQ_PIPELINE_OFF)
		return true;
	if (!PQpipelineSync(pg))
	{
		mfpq_conn_error(conn, MF_STEP_PIPELINE, err);
		return false;
	}
	conn->pl_syncs++;

	/*
	 * A pipeline is one round trip per sync.  Stalls when it is full show
	 * in the wait time, not here: whether an answer is in yet when asked
	 * for differs from run to run, and the count should not.
	 */
	conn->wire->round_trips++;

	while (conn->pl_taken < conn->pl_sent && conn->pl_syncs > 0)
	{
		MfpqTake	outcome = mfpq_take_one(conn, true, NULL, err);

		if (outcome == MFPQ_BROKEN)
			return false;
		if (outcome == MFPQ_STMT_FAILED)
			mfpq_note_failure(conn, err);
	}

	while (conn->pl_syncs > 0)
	{
		PGresult   *res;
		ExecStatusType status;

		if (!mfpq_await(conn, MF_STEP_PIPELINE, err))
			return false;
		res = PQgetResult(pg);
		if (res == NULL)
		{
			/* a second NULL in a row means libpq has nothing queued */
			if (++idle_nulls > 1)
				break;
			continue;
		}
		idle_nulls = 0;
		status = PQresultStatus(res);
		if (status == PGRES_PIPELINE_SYNC)
			conn->pl_syncs--;
		else if (status != PGRES_PIPELINE_ABORTED &&
				 status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
		{
			mfpq_result_error(conn, res, MF_STEP_PIPELINE, err);
			mfpq_note_failure(conn, err);
		}
		PQclear(res);
	}

	if (!PQexitPipelineMode(pg))
	{
		mfpq_conn_error(conn, MF_STEP_PIPELINE, err);
		return false;
	}
	failed = conn->pl_failed;
	if (failed)
		*err = conn->pl_error;
	conn->pl_sent = conn->pl_taken = 0;
	conn->pl_syncs = 0;
	conn->pl_failed = false;
	return !failed;
}
