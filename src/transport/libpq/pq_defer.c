/*-------------------------------------------------------------------------
 *
 * pq_defer.c
 *		What the libpq transport sends with the next request rather than on
 *		its own, and requests of the extended protocol in one exchange.
 *
 * Some commands need no answer of their own: the remote transaction's
 * START TRANSACTION, the core's SAVEPOINT and RELEASE (transport.h's
 * defer), the CLOSE of a cursor the core is done with, and the DEALLOCATE
 * of a statement the cache let go.  Each would cost a round
 * trip, which on a short transaction is most of its time; instead they wait
 * here and go in front of the next command, in the same simple-protocol
 * message or the same pipeline, in the order they came.  Their errors are
 * that command's: none of them can fail in a healthy transaction.
 *
 * What may go depends on the remote transaction's state when the next
 * command leaves: in a failed transaction a CLOSE or DEALLOCATE would fail
 * too and take the command (a ROLLBACK TO SAVEPOINT) with it, so a CLOSE is
 * dropped there (the cursor is gone with the transaction, or harmless until
 * it ends) and a DEALLOCATE waits for a healthy one.  When the transaction
 * ends, its CLOSEs are moot, and a begin still waiting means the remote
 * never saw the transaction at all: there is nothing to commit.
 *
 * A simple-protocol message is parsed whole before any of its commands
 * runs, so a syntax error in the request fails the commands in front of it
 * too.  A SAVEPOINT that never ran would make the core's ROLLBACK TO fail
 * and lose the transaction, so savepoints share a simple-protocol message
 * only with the transaction's begin: when such a message fails before any
 * command of it ran, the remote is where it was before (outside a
 * transaction) and what went waits again (mfpq_later_failed).  Otherwise
 * they go in an exchange of their own first, or the request goes in a
 * pipeline, where each command is parsed and run in turn.
 *
 * Part of the libpq transport (see pq_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only libpq-fe.h.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "pq_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* May this waiting command go in front of a command sent now? */
static bool
mfpq_later_goes(MfConn *conn, const MfpqLater *later)
{
	PGTransactionStatusType ts = PQtransactionStatus(conn->pg);

	switch (later->kind)
	{
		case MFPQ_LATER_BEGIN:
			return true;
		case MFPQ_LATER_SAVEPOINT:
			/* inside the transaction, or right after its begin */
			return ts == PQTRANS_INTRANS ||
				(ts == PQTRANS_IDLE && mfpq_begin_waiting(conn));
		case MFPQ_LATER_CLOSE:
			return ts == PQTRANS_INTRANS;
		case MFPQ_LATER_DEALLOCATE:
			return ts == PQTRANS_INTRANS || ts == PQTRANS_IDLE;
	}
	return false;
}

/* Drop the waiting commands of one kind. */
static void
mfpq_later_drop(MfConn *conn, MfpqLaterKind kind)
{
	int			kept = 0;

	for (int i = 0; i < conn->nlater; i++)
		if (conn->later[i].kind != kind)
			conn->later[kept++] = conn->later[i];
	conn->nlater = kept;
}

/*
 * Settle what is waiting before a command leaves: in a failed transaction,
 * or outside one (it ended without a word from us), the CLOSEs are
 * dropped.  Returns how many would go with it.
 */
static int
mfpq_later_ready(MfConn *conn)
{
	PGTransactionStatusType ts = PQtransactionStatus(conn->pg);
	int			n = 0;

	conn->nwent = 0;
	if (ts == PQTRANS_INERROR || ts == PQTRANS_IDLE)
		mfpq_later_drop(conn, MFPQ_LATER_CLOSE);
	for (int i = 0; i < conn->nlater; i++)
	{
		conn->later[i].going = mfpq_later_goes(conn, &conn->later[i]);
		if (conn->later[i].going)
			n++;
	}
	return n;
}

/*
 * Forget the ones that went (mfpq_later_ready chose them), but for what
 * went in front of this request (conn->went, which pq_replan.c reads when
 * the request fails); the others keep their order.
 */
static void
mfpq_later_sent(MfConn *conn)
{
	int			kept = 0;

	conn->nwent = 0;
	for (int i = 0; i < conn->nlater; i++)
		if (!conn->later[i].going)
			conn->later[kept++] = conn->later[i];
		else
		{
			/* unanswered until the server says a word (pq_relink.c) */
			if (conn->later[i].kind == MFPQ_LATER_BEGIN)
				conn->begin_out = true;
			conn->went[conn->nwent++] = conn->later[i];
		}
	conn->nlater = kept;
}

/*
 * Queue a command to go with the next request.  A begin goes first, before
 * anything left over from the last transaction.  false: there is no room
 * (the caller sends it now).
 */
bool
mfpq_defer(MfConn *conn, MfpqLaterKind kind, const char *sql)
{
	MfpqLater  *slot;

	if (conn->nlater >= MFPQ_LATER_MAX || strlen(sql) >= MFPQ_LATER_LEN)
		return false;
	if (kind == MFPQ_LATER_BEGIN)
	{
		memmove(&conn->later[1], &conn->later[0],
				conn->nlater * sizeof(MfpqLater));
		slot = &conn->later[0];
	}
	else
		slot = &conn->later[conn->nlater];
	conn->nlater++;
	slot->kind = kind;
	memcpy(slot->sql, sql, strlen(sql) + 1);
	return true;
}

/* Is the transaction's begin still waiting (the remote has seen nothing)? */
bool
mfpq_begin_waiting(MfConn *conn)
{
	return conn->nlater > 0 && conn->later[0].kind == MFPQ_LATER_BEGIN;
}

/*
 * The remote transaction is over (or, with a begin still waiting, never
 * was): its begin, savepoints and CLOSEs go, DEALLOCATEs wait for the next
 * one.
 */
void
mfpq_later_xact_over(MfConn *conn)
{
	conn->begin_out = false;
	mfpq_later_drop(conn, MFPQ_LATER_BEGIN);
	mfpq_later_drop(conn, MFPQ_LATER_SAVEPOINT);
	mfpq_later_drop(conn, MFPQ_LATER_CLOSE);
}

/* Everything waiting is moot (DEALLOCATE ALL went, or the link is gone). */
void
mfpq_later_clear(MfConn *conn)
{
	conn->nlater = 0;
}

/* Does a SAVEPOINT or RELEASE wait to go with the next request? */
bool
mfpq_later_holds_savepoint(MfConn *conn)
{
	for (int i = 0; i < conn->nlater; i++)
		if (conn->later[i].kind == MFPQ_LATER_SAVEPOINT)
			return true;
	return false;
}

/*
 * The commands chosen to go now leave in a simple-protocol message: they
 * are remembered until its answer says whether they ran.
 */
static void
mfpq_later_carry(MfConn *conn)
{
	conn->ncarried = 0;
	conn->carried_ran = 0;
	for (int i = 0; i < conn->nlater; i++)
		if (conn->later[i].going)
			conn->carried[conn->ncarried++] = conn->later[i];
}

/*
 * A command of the request now out was answered: in a simple-protocol
 * message, one of those that went in front of it ran; in any request,
 * the session that took the transaction's begin was alive.
 */
void
mfpq_later_answered(MfConn *conn)
{
	conn->carried_ran++;
	conn->begin_out = false;
}

/*
 * The simple-protocol message now out failed.  If none of its commands
 * ran (a syntax error fails it whole), those that went in front of it are
 * waiting again, in their order, before anything queued since: the
 * transaction's begin among them, so the remote is still outside a
 * transaction, as the queue says.
 */
void
mfpq_later_failed(MfConn *conn)
{
	int			n = conn->ncarried;

	conn->ncarried = 0;
	if (n == 0 || conn->carried_ran > 0 || conn->nlater + n > MFPQ_LATER_MAX)
		return;
	memmove(&conn->later[n], &conn->later[0],
			conn->nlater * sizeof(MfpqLater));
	memcpy(&conn->later[0], &conn->carried[0], n * sizeof(MfpqLater));
	conn->nlater += n;
}

/*
 * Savepoints that would go in a simple-protocol message without the
 * transaction's begin go first, in an exchange of their own (see the top
 * of the file).  false, err filled, when that failed.
 */
static bool
mfpq_later_savepoints_alone(MfConn *conn, MfStep step, MfError *err)
{
	bool		begin_goes = false;
	bool		savepoint_goes = false;
	char	   *text;
	size_t		len = 1;
	int			sent;

	if (mfpq_later_ready(conn) == 0)
		return true;
	for (int i = 0; i < conn->nlater; i++)
	{
		if (!conn->later[i].going)
			continue;
		if (conn->later[i].kind == MFPQ_LATER_BEGIN)
			begin_goes = true;
		if (conn->later[i].kind == MFPQ_LATER_SAVEPOINT)
			savepoint_goes = true;
		len += strlen(conn->later[i].sql) + 2;
	}
	if (begin_goes || !savepoint_goes)
		return true;
	text = malloc(len);
	if (text == NULL)
	{
		mfpq_fail(conn, err, step, "53200", "out of memory");
		return false;
	}
	text[0] = '\0';
	for (int i = 0; i < conn->nlater; i++)
		if (conn->later[i].going)
		{
			strcat(text, conn->later[i].sql);
			strcat(text, "; ");
		}
	mfpq_later_sent(conn);
	conn->ncarried = 0;
	conn->wire->bytes_sent += strlen(text);
	sent = PQsendQuery(conn->pg, text);
	free(text);
	return mfpq_finish(conn, sent, step, NULL, err);
}

/*
 * The simple-protocol text of sql with what goes in front of it, as one
 * message: sql itself when nothing does, else malloc'd (mfpq_later_free).
 * The waiting commands count as sent from here on.  NULL: out of memory.
 * The caller has sent savepoints that may not go with it
 * (mfpq_later_simple).
 */
char *
mfpq_later_text(MfConn *conn, const char *sql)
{
	size_t		len = strlen(sql) + 1;
	char	   *text;
	char	   *p;

	conn->ncarried = 0;
	if (mfpq_later_ready(conn) == 0)
		return (char *) sql;
	for (int i = 0; i < conn->nlater; i++)
		if (conn->later[i].going)
			len += strlen(conn->later[i].sql) + 2;
	text = malloc(len);
	if (text == NULL)
		return NULL;
	p = text;
	for (int i = 0; i < conn->nlater; i++)
	{
		if (!conn->later[i].going)
			continue;
		p += sprintf(p, "%s; ", conn->later[i].sql);
	}
	strcpy(p, sql);
	mfpq_later_carry(conn);
	mfpq_later_sent(conn);
	return text;
}

/*
 * Before a simple-protocol message: what may not go in it goes now.
 * false, err filled, when that failed.
 */
bool
mfpq_later_simple(MfConn *conn, MfStep step, MfError *err)
{
	return mfpq_later_savepoints_alone(conn, step, err);
}

/*
 * Send sql in the simple protocol with what goes in front of it, without
 * waiting for the answer.  false, err filled, when it could not go.
 */
bool
mfpq_later_send(MfConn *conn, const char *sql, MfStep step, MfError *err)
{
	char	   *text;
	int			sent;

	if (!mfpq_later_simple(conn, step, err))
		return false;
	text = mfpq_later_text(conn, sql);
	if (text == NULL)
	{
		mfpq_fail(conn, err, step, "53200", "out of memory");
		return false;
	}
	conn->wire->bytes_sent += strlen(text);
	sent = PQsendQuery(conn->pg, text);
	mfpq_later_free(text, sql);
	if (!sent)
	{
		mfpq_conn_error(conn, step, err);
		return false;
	}
	return true;
}

void
mfpq_later_free(const char *text, const char *sql)
{
	if (text != sql)
		free((char *) text);
}

/*
 * In pipeline mode: send what goes in front of the request as commands of
 * their own.  false when libpq refused one.
 */
bool
mfpq_later_pipelined(MfConn *conn)
{
	/* each command of a pipeline runs whatever comes after it */
	conn->ncarried = 0;
	if (mfpq_later_ready(conn) == 0)
		return true;
	for (int i = 0; i < conn->nlater; i++)
	{
		if (!conn->later[i].going)
			continue;
		conn->wire->bytes_sent += strlen(conn->later[i].sql);
		if (!PQsendQueryParams(conn->pg, conn->later[i].sql, 0, NULL, NULL,
							   NULL, NULL, 0))
			return false;
	}
	mfpq_later_sent(conn);
	return true;
}

/* Send what is waiting now, in an exchange of its own. */
bool
mfpq_later_flush(MfConn *conn, MfStep step, MfError *err)
{
	if (!mfpq_later_savepoints_alone(conn, step, err))
		return false;
	if (mfpq_later_ready(conn) == 0)
		return true;
	return mfpq_command(conn, "", step, NULL, err);
}

/*
 * Read a pipeline's answers up to its sync and leave pipeline mode.  The
 * first error wins; on success the last result with a status of success
 * is handed back through last (the request's: it went last), or the one
 * before it when a command went after the request (conn->pl_trailing).
 */
bool
mfpq_pipeline_finish(MfConn *conn, MfStep step, PGresult **last,
					 MfError *err)
{
	PGconn	   *pg = conn->pg;
	PGresult   *keep = NULL;
	PGresult   *before = NULL;	/* the success before keep */
	bool		failed = false;
	int			idle_nulls = 0;

	for (;;)
	{
		PGresult   *res;

		if (!mfpq_await(conn, step, err))
		{
			PQclear(keep);
			PQclear(before);
			return false;
		}
		res = PQgetResult(pg);
		if (res == NULL)
		{
			/* NULL separates statements; two in a row: nothing is left */
			if (++idle_nulls > 1)
				break;
			continue;
		}
		idle_nulls = 0;
		switch (PQresultStatus(res))
		{
			case PGRES_PIPELINE_SYNC:
				PQclear(res);
				goto done;
			case PGRES_COMMAND_OK:
			case PGRES_TUPLES_OK:
			case PGRES_EMPTY_QUERY:
				mfpq_later_answered(conn);
				PQclear(before);
				before = keep;
				keep = res;
				continue;
			case PGRES_PIPELINE_ABORTED:
				break;
			default:
				if (!failed)
					mfpq_result_error(conn, res, step, err);
				failed = true;
				break;
		}
		PQclear(res);
	}
done:
	/* a command that went after the request answered last (pl_trailing) */
	if (conn->pl_trailing > 0)
	{
		PQclear(keep);
		keep = before;
	}
	else
		PQclear(before);
	if (!PQexitPipelineMode(pg))
	{
		if (!failed)
			mfpq_conn_error(conn, step, err);
		failed = true;
	}
	if (failed || last == NULL)
		PQclear(keep);
	else
		*last = keep;
	return !failed;
}

/*
 * Commands of the extended protocol (send issues them, any number) in one
 * exchange, a pipeline with one sync, with what waits in front of them.
 * The last result of success comes back through last.
 */
bool
mfpq_pipelined(MfConn *conn, MfpqSendFn send, void *arg, MfStep step,
			   PGresult **last, MfError *err)
{
	PGconn	   *pg = conn->pg;

	if (last)
		*last = NULL;
	conn->wire->round_trips++;
	if (!PQenterPipelineMode(pg) || !mfpq_later_pipelined(conn) ||
		!send(conn, arg) || !PQpipelineSync(pg))
	{
		mfpq_conn_error(conn, step, err);
		(void) mfpq_settle(conn);
		return false;
	}
	return mfpq_flush(conn, step, err) &&
		mfpq_pipeline_finish(conn, step, last, err);
}

/*
 * One command of the extended protocol in one exchange: alone when nothing
 * waits to go in front of it, else pipelined with it.  As mfpq_finish for
 * the rest.
 */
bool
mfpq_extended(MfConn *conn, MfpqSendFn send, void *arg, MfStep step,
			  PGresult **last, MfError *err)
{
	if (mfpq_later_ready(conn) == 0)
	{
		if (last)
			*last = NULL;
		return mfpq_finish(conn, send(conn, arg), step, last, err);
	}
	return mfpq_pipelined(conn, send, arg, step, last, err);
}
