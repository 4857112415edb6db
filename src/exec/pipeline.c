/*-------------------------------------------------------------------------
 *
 * pipeline.c
 *		Prepared statements sent without waiting for each answer.
 *
 * A pipeline keeps at most `depth` statements unanswered, reads results as
 * they come and counts the rows they report.  While it is open it is the
 * connection's stream: anyone else who needs the connection makes it read
 * every answer and leave pipeline mode first (mf_claim_connection).  An
 * error in any statement is raised as soon as its result is read; the local
 * transaction then aborts and the remote one with it, so nothing of the
 * statement stays remotely.
 *
 * Used by batched INSERT (buffer.c) and by the per-row statements of an
 * UPDATE or DELETE that could not be sent whole (modify.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "exec/exec.h"

static void mf_pipeline_finish_cb(void *arg);

void
mf_pipeline_init(MfPipeline *pl, MfConnEntry *entry, int depth, const char *sql)
{
	memset(pl, 0, sizeof(*pl));
	pl->entry = entry;
	pl->depth = Max(depth, 1);
	pl->sql = sql;
}

/* Read the results that are there (wait: at least one); adds to pl->rows. */
static void
mf_pipeline_collect(MfPipeline *pl, bool wait)
{
	const MfTransport *tr = mf_conn_transport(pl->entry);

	while (pl->in_flight > 0)
	{
		MfError		err;
		long		rows = 0;
		int			rc;

		mf_error_clear(&err);
		rc = tr->pipeline_collect(mf_conn(pl->entry), wait, &rows, &err);
		if (rc < 0)
			mf_raise_error(ERROR, pl->entry, &err, pl->sql);
		if (rc == 0)
			break;
		pl->in_flight--;
		pl->rows += rows;
		if (pl->processed != NULL && rows == 0)
			pl->skipped++;
		wait = false;
	}
}

/* Send one more statement, opening the pipeline if needed. */
void
mf_pipeline_send(MfPipeline *pl, MfStmt *stmt, const char *const *values)
{
	const MfTransport *tr = mf_conn_transport(pl->entry);
	MfError		err;

	mf_error_clear(&err);
	if (!pl->open)
	{
		mf_set_stream_owner(pl->entry, pl, mf_pipeline_finish_cb);
		if (!tr->pipeline_begin(mf_conn(pl->entry), &err))
		{
			mf_clear_stream_owner(pl->entry, pl);
			mf_raise_error(ERROR, pl->entry, &err, pl->sql);
		}
		pl->open = true;
	}
	if (!tr->pipeline_send(stmt, values, &err))
		mf_raise_error(ERROR, pl->entry, &err, pl->sql);
	pl->in_flight++;

	mf_pipeline_collect(pl, false);
	if (pl->in_flight >= pl->depth)
		mf_pipeline_collect(pl, true);
}

/* Rows reported by the results read so far, and not handed out before. */
long
mf_pipeline_take(MfPipeline *pl)
{
	long		rows = pl->rows;

	pl->rows = 0;
	return rows;
}

/*
 * Read every answer and leave pipeline mode; returns the rows not handed
 * out yet.  After it, the count of everything sent is exact.
 */
long
mf_pipeline_sync(MfPipeline *pl)
{
	MfError		err;

	if (pl->open)
	{
		while (pl->in_flight > 0)
			mf_pipeline_collect(pl, true);
		pl->open = false;
		mf_clear_stream_owner(pl->entry, pl);
		mf_error_clear(&err);
		if (!mf_conn_transport(pl->entry)->pipeline_end(mf_conn(pl->entry), &err))
			mf_raise_error(ERROR, pl->entry, &err, pl->sql);
	}
	return mf_pipeline_take(pl);
}

/* Someone else wants the connection: the rows wait in pl->rows. */
static void
mf_pipeline_finish_cb(void *arg)
{
	MfPipeline *pl = arg;

	pl->rows += mf_pipeline_sync(pl);
	if (pl->processed != NULL)
	{
		uint64		n = Min((uint64) pl->skipped, *pl->processed);

		*pl->processed -= n;
		pl->skipped = 0;
	}
}
