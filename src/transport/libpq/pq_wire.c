/*-------------------------------------------------------------------------
 *
 * pq_wire.c
 *		The libpq transport's wire: errors, waiting for the server's
 *		answers, cancel and winding down.
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
 * Errors
 * ---------------------------------------------------------------------
 */

bool
mfpq_is_broken(MfConn *conn)
{
	return conn->broken || PQstatus(conn->pg) == CONNECTION_BAD;
}

/* Is the remote session in a transaction?  libpq knows without asking. */
MfXactState
mfpq_xact_state(MfConn *conn)
{
	switch (PQtransactionStatus(conn->pg))
	{
		case PQTRANS_IDLE:
			return MF_XS_IDLE;
		case PQTRANS_ACTIVE:
		case PQTRANS_INTRANS:
		case PQTRANS_INERROR:
			return MF_XS_OPEN;
		default:
			return MF_XS_UNKNOWN;
	}
}

/* libpq's messages end in a newline that would show up in the report. */
void
mfpq_set_text(char *dst, size_t dstlen, const char *src)
{
	size_t		len;

	mf_error_copy(dst, dstlen, src);
	len = strlen(dst);
	while (len > 0 && (dst[len - 1] == '\n' || dst[len - 1] == ' '))
		dst[--len] = '\0';
}

void
mfpq_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
		  const char *message)
{
	mf_error_fail(err, step, sqlstate, conn != NULL && mfpq_is_broken(conn),
				  message);
}

/* A failure that libpq reports on the connection rather than in a result. */
void
mfpq_conn_error(MfConn *conn, MfStep step, MfError *err)
{
	bool		lost = mfpq_is_broken(conn);

	mfpq_fail(conn, err, step, lost ? "08006" : "XX000", "");
	mfpq_set_text(err->message, sizeof(err->message),
				  PQerrorMessage(conn->pg));
	if (err->message[0] == '\0')
		mf_error_copy(err->message, sizeof(err->message),
					  lost ? "connection to the remote server was lost" :
					  "could not send the command to the remote server");
}

void
mfpq_result_error(MfConn *conn, const PGresult *res, MfStep step,
				  MfError *err)
{
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *severity = PQresultErrorField(res,
											  PG_DIAG_SEVERITY_NONLOCALIZED);

	/*
	 * A FATAL error ends the remote session (pg_terminate_backend, a
	 * shutdown), though libpq may not have seen the socket close yet.
	 */
	if (severity != NULL &&
		(strcmp(severity, "FATAL") == 0 || strcmp(severity, "PANIC") == 0))
		conn->broken = true;
	conn->plan_changed = mfpq_plan_changed(res);

	mf_error_clear(err);
	err->step = step;
	err->conn_lost = mfpq_is_broken(conn);
	if (sqlstate == NULL || sqlstate[0] == '\0')
		sqlstate = err->conn_lost ? "08006" : "XX000";
	mf_error_copy(err->sqlstate, sizeof(err->sqlstate), sqlstate);

	if (primary != NULL && primary[0] != '\0')
		mfpq_set_text(err->message, sizeof(err->message), primary);
	else
	{
		mfpq_set_text(err->message, sizeof(err->message),
					  PQresultErrorMessage(res));
		if (err->message[0] == '\0')
			mfpq_set_text(err->message, sizeof(err->message),
						  PQerrorMessage(conn->pg));
		if (err->message[0] == '\0')
			mf_error_copy(err->message, sizeof(err->message),
						  "the remote server gave no error message");
	}
	mfpq_set_text(err->detail, sizeof(err->detail),
				  PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL));
	mfpq_set_text(err->hint, sizeof(err->hint),
				  PQresultErrorField(res, PG_DIAG_MESSAGE_HINT));
	mfpq_set_text(err->context, sizeof(err->context),
				  PQresultErrorField(res, PG_DIAG_CONTEXT));
}

/*
 * Commands are refused while the connection is mid-COPY or pipelining: a
 * result read now would belong to the other conversation.
 */
bool
mfpq_usable(MfConn *conn, MfStep step, MfError *err)
{
	/* a FETCH read ahead is finished first (mfpq_finish_ahead) */
	if (conn->settle != NULL && !conn->settle(conn, err))
		return false;
	if (mfpq_is_broken(conn))
	{
		mfpq_fail(conn, err, step, "08006",
				  "connection to the remote server was lost");
		return false;
	}
	if (conn->in_copy)
	{
		mfpq_fail(conn, err, step, "XX000",
				  "the remote connection is in the middle of a COPY");
		return false;
	}
	if (PQpipelineStatus(conn->pg) != PQ_PIPELINE_OFF)
	{
		mfpq_fail(conn, err, step, "XX000",
				  "the remote connection is in pipeline mode");
		return false;
	}
	return true;
}

/* Whether a clean-up statement may be sent at all. */
bool
mfpq_can_talk(MfConn *conn)
{
	PGTransactionStatusType ts;

	if (mfpq_is_broken(conn) || conn->in_copy ||
		PQpipelineStatus(conn->pg) != PQ_PIPELINE_OFF)
		return false;
	ts = PQtransactionStatus(conn->pg);
	return ts == PQTRANS_IDLE || ts == PQTRANS_INTRANS ||
		ts == PQTRANS_INERROR;
}

long
mfpq_rows(const PGresult *res)
{
	const char *tuples = res ? PQcmdTuples((PGresult *) res) : "";

	return tuples[0] ? strtol(tuples, NULL, 10) : 0;
}

/* ---------------------------------------------------------------------
 * Waiting, cancelling, winding down
 * ---------------------------------------------------------------------
 */

bool
mfpq_send_cancel(MfConn *conn, char *errbuf, int errlen)
{
	PGcancel   *cancel = PQgetCancel(conn->pg);
	char		buf[256];
	bool		ok;

	if (cancel == NULL)
	{
		if (errbuf)
			snprintf(errbuf, errlen, "could not create a cancel request");
		return false;
	}
	buf[0] = '\0';
	ok = PQcancel(cancel, buf, sizeof(buf)) == 1;
	PQfreeCancel(cancel);
	if (!ok && errbuf)
		snprintf(errbuf, errlen, "%s", buf);
	return ok;
}

/*
 * The COPY is over and nothing is left to send: back to blocking mode, in
 * which the other commands are written.
 */
void
mfpq_copy_over(MfConn *conn)
{
	conn->in_copy = false;
	if (PQisnonblocking(conn->pg) && PQsetnonblocking(conn->pg, 0) != 0)
		conn->broken = true;
}

static bool
mfpq_drain_copy_out(PGconn *pg, long long deadline)
{
	for (;;)
	{
		char	   *buf = NULL;
		int			n = PQgetCopyData(pg, &buf, 1);

		if (n > 0)
		{
			PQfreemem(buf);
			continue;
		}
		if (n < 0)
			return n == -1;
		if (!mf_poll_until(PQsocket(pg), false, deadline) || !PQconsumeInput(pg))
			return false;
	}
}

/*
 * Bring the connection back to idle, discarding whatever is in flight: the
 * rest of a COPY, a pipeline, results nobody will read.  Bounded in time;
 * when it fails the connection is marked broken.
 */
bool
mfpq_settle_within(MfConn *conn, int ms)
{
	PGconn	   *pg = conn->pg;
	long long	deadline = mf_now_ms() + ms;
	int			idle_nulls = 0;

	if (mfpq_is_broken(conn))
		goto fail;

	if (PQpipelineStatus(pg) != PQ_PIPELINE_OFF && conn->pl_syncs == 0)
	{
		if (!PQpipelineSync(pg))
			goto fail;
		conn->pl_syncs++;
	}

	for (;;)
	{
		PGresult   *res;
		int			rc;
		bool		ok = true;

		if (mf_now_ms() >= deadline)
			goto fail;
		while ((rc = PQflush(pg)) == 1)
		{
			if (!PQconsumeInput(pg) || !mf_poll_until(PQsocket(pg), true, deadline))
				goto fail;
		}
		if (rc < 0)
			goto fail;
		while (PQisBusy(pg))
		{
			if (!mf_poll_until(PQsocket(pg), false, deadline) || !PQconsumeInput(pg))
				goto fail;
		}

		res = PQgetResult(pg);
		if (res == NULL)
		{
			/*
			 * In a pipeline, NULL only separates one statement from another;
			 * two in a row mean libpq has nothing left, sync or not.
			 */
			if (PQpipelineStatus(pg) == PQ_PIPELINE_OFF)
				break;
			if (conn->pl_syncs > 0 && ++idle_nulls < 2)
				continue;
			if (!PQexitPipelineMode(pg))
				goto fail;
			break;
		}
		idle_nulls = 0;

		switch (PQresultStatus(res))
		{
			case PGRES_COPY_IN:
				ok = PQputCopyEnd(pg, MFPQ_ABORT_REASON) == 1;
				break;
			case PGRES_COPY_OUT:
				ok = mfpq_drain_copy_out(pg, deadline);
				break;
			case PGRES_COPY_BOTH:
				ok = false;
				break;
			case PGRES_PIPELINE_SYNC:
				conn->pl_syncs--;
				break;
			default:
				break;
		}
		PQclear(res);
		if (!ok)
			goto fail;
	}

	mfpq_copy_over(conn);
	conn->pl_sent = conn->pl_taken = 0;
	conn->pl_syncs = 0;
	conn->pl_failed = false;
	return true;

fail:
	/* non-blocking stays: PQfinish must not wait on a server that is stuck */
	conn->broken = true;
	conn->in_copy = false;
	return false;
}

bool
mfpq_settle(MfConn *conn)
{
	return mfpq_settle_within(conn, MFPQ_SETTLE_MS);
}

/* The user cancelled while we waited: stop the remote side and wind down. */
static void
mfpq_interrupt(MfConn *conn, MfStep step, MfError *err)
{
	(void) mfpq_send_cancel(conn, NULL, 0);
	(void) mfpq_settle_within(conn, conn->in_copy ? MFPQ_COPY_SETTLE_MS :
							  MFPQ_SETTLE_MS);
	conn->interrupted = true;
	mfpq_fail(conn, err, step, "57014",
			  "canceling statement due to user request");
}

bool
mfpq_wait(MfConn *conn, bool for_write, MfStep step, MfError *err)
{
	int			sock = PQsocket(conn->pg);
	int			rc;

	if (sock < 0)
	{
		mfpq_conn_error(conn, step, err);
		return false;
	}
	{
		long long	t0 = mf_now_us();

		rc = mf_wait_socket(sock, for_write);
		conn->wire->wait_us += (unsigned long long) (mf_now_us() - t0);
	}
	if (rc > 0)
		return true;
	if (rc == 0)
		mfpq_interrupt(conn, step, err);
	else
	{
		/* a command is in flight and we cannot watch it any more */
		conn->broken = true;
		mfpq_fail(conn, err, step, "08006",
				  "could not wait for the remote server");
	}
	return false;
}

bool
mfpq_flush(MfConn *conn, MfStep step, MfError *err)
{
	for (;;)
	{
		int			rc = PQflush(conn->pg);

		if (rc == 0)
			return true;
		if (rc < 0)
		{
			mfpq_conn_error(conn, step, err);
			return false;
		}

		/*
		 * Take in what the server has sent, so that it is not blocked on us
		 * while we wait to write to it.
		 */
		if (!PQconsumeInput(conn->pg))
		{
			mfpq_conn_error(conn, step, err);
			return false;
		}
		if (!mfpq_wait(conn, true, step, err))
			return false;
	}
}

/* Wait until a result can be read without blocking inside libpq. */
bool
mfpq_await(MfConn *conn, MfStep step, MfError *err)
{
	while (PQisBusy(conn->pg))
	{
		if (!mfpq_wait(conn, false, step, err))
			return false;
		if (!PQconsumeInput(conn->pg))
		{
			mfpq_conn_error(conn, step, err);
			return false;
		}
	}
	return true;
}

/*
 * Finish a command whose send call returned "sent": flush it, wait for the
 * server and read every result until libpq reports the command done.  The
 * first error wins; on success the last result is handed back through
 * "last" when the caller wants it (and cleared otherwise).
 */
bool
mfpq_finish(MfConn *conn, int sent, MfStep step, PGresult **last,
			MfError *err)
{
	PGresult   *keep = NULL;
	bool		failed = false;

	if (last)
		*last = NULL;
	if (!sent)
	{
		mfpq_conn_error(conn, step, err);
		return false;
	}
	conn->wire->round_trips++;
	if (!mfpq_flush(conn, step, err))
		return false;

	for (;;)
	{
		PGresult   *res;

		if (!mfpq_await(conn, step, err))
		{
			PQclear(keep);
			mfpq_later_failed(conn);
			return false;
		}
		res = PQgetResult(conn->pg);
		if (res == NULL)
			break;

		switch (PQresultStatus(res))
		{
			case PGRES_COMMAND_OK:
			case PGRES_TUPLES_OK:
			case PGRES_EMPTY_QUERY:
				mfpq_later_answered(conn);
				PQclear(keep);
				keep = res;
				continue;
			case PGRES_COPY_IN:
			case PGRES_COPY_OUT:
			case PGRES_COPY_BOTH:
				PQclear(res);
				PQclear(keep);
				conn->ncarried = 0;
				(void) mfpq_settle(conn);
				if (!failed)
					mfpq_fail(conn, err, step, "0A000",
							  "a COPY cannot run here");
				return false;
			default:
				if (!failed)
					mfpq_result_error(conn, res, step, err);
				failed = true;
				break;
		}
		PQclear(res);
	}

	if (failed)
		mfpq_later_failed(conn);
	conn->ncarried = 0;
	if (failed || last == NULL)
		PQclear(keep);
	else
		*last = keep;
	return !failed;
}

/* One statement in the simple protocol, with what goes in front of it. */
bool
mfpq_command(MfConn *conn, const char *sql, MfStep step, PGresult **last,
			 MfError *err)
{
	if (last)
		*last = NULL;
	return mfpq_later_send(conn, sql, step, err) &&
		mfpq_finish(conn, 1, step, last, err);
}
