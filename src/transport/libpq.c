/*-------------------------------------------------------------------------
 *
 * libpq.c
 *		The transport to remote PostgreSQL servers, through libpq.
 *
 * Every command goes out through libpq's asynchronous calls and every wait
 * for the server goes through mf_wait_socket, so that a user's cancel
 * reaches the remote statement instead of leaving the backend stuck inside
 * libpq.  After any command, every PGresult is read until libpq reports the
 * connection idle again: a connection is never handed back with results
 * still pending.
 *
 * The connection stays in libpq's blocking mode.  Sending therefore happens
 * inside libpq, which reads incoming data while it waits to write and so
 * cannot deadlock against a server that is itself busy writing (as in a
 * pipeline); only waits for the server's answer are interruptible.  A COPY
 * is the exception: its data can fill the socket while the server does not
 * read (it waits on a lock, or is stopped), so the connection is
 * non-blocking from copy_begin until the COPY is over and every wait to
 * write goes through mf_wait_socket too.
 *
 * This file is on the transport side of the wall (see transport.h): no
 * PostgreSQL server header, only libpq-fe.h.
 *
 *-------------------------------------------------------------------------
 */
/* POLLRDHUP (Linux): the walled build does not get PostgreSQL's CPPFLAGS */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "transport.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

/*
 * How long to wait for a cancelled or abandoned command to wind down before
 * giving up on the connection.
 */
#define MFPQ_SETTLE_MS		30000

/*
 * The same after a user's cancel in the middle of a COPY.  The server takes
 * the rest of the data at once when the cancel reaches it; one that still
 * reads nothing is stopped or gone, and the user is waiting.
 */
#define MFPQ_COPY_SETTLE_MS	2000

/* Large enough for "mf_s" or "mf_c" and any unsigned long. */
#define MFPQ_NAME_LEN		32

/* PQputCopyData takes an int length. */
#define MFPQ_COPY_CHUNK		(64 * 1024 * 1024)

#define MFPQ_DEFAULT_FETCH	100

#define MFPQ_ABORT_REASON	"multi_fdw abandoned the COPY"

struct MfConn
{
	PGconn	   *pg;
	unsigned long next_id;		/* numbers statement and cursor names */
	MfStmt	   *stmts;			/* live prepared statements */
	MfResult   *results;		/* live results and cursors */
	bool		dealloc_due;	/* prepared statements may exist remotely
								 * that no MfStmt tracks any more */
	bool		broken;			/* a command could not be wound down */
	bool		in_copy;		/* between copy_begin and copy_end */
	bool		interrupted;	/* the last wait ended in a user cancel */
	MfResult   *pending;		/* the result whose FETCH is out, if any */

	/* pipeline bookkeeping */
	long		pl_sent;		/* statements sent since pipeline_begin */
	long		pl_taken;		/* statements whose results were read */
	int			pl_syncs;		/* sync points sent but not yet read back */
	bool		pl_failed;		/* a statement of this pipeline failed */
	MfError		pl_error;		/* ... and this was its error */

	char		version[64];
};

struct MfStmt
{
	MfConn	   *conn;
	MfStmt	   *prev;
	MfStmt	   *next;
	int			nparams;
	char		name[MFPQ_NAME_LEN];
};

struct MfResult
{
	MfConn	   *conn;
	MfResult   *prev;
	MfResult   *next;
	PGresult   *batch;			/* rows of the current fetch */
	PGresult   *ahead;			/* rows fetched ahead (async_poll) */
	bool		pending;		/* a FETCH was sent, its answer not read */
	int			requested;		/* rows asked for by that FETCH */
	bool		is_cursor;		/* false: rows of an executed statement */
	bool		at_end;			/* no more rows, no need to ask */
	int			fetch_size;
	int			ncols;			/* -1 until the first batch is known */
	char		name[MFPQ_NAME_LEN];
};

/* What reading one pipelined statement's results came to. */
typedef enum MfpqTake
{
	MFPQ_TAKEN,					/* it succeeded */
	MFPQ_SKIPPED,				/* it was skipped after an earlier error */
	MFPQ_STMT_FAILED,			/* it failed on the server */
	MFPQ_NOT_READY,				/* nothing to read yet (no wait asked) */
	MFPQ_NONE,					/* nothing is outstanding */
	MFPQ_BROKEN					/* the pipeline is gone: cancel or lost link */
} MfpqTake;


/* ---------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------
 */

static bool
mfpq_is_broken(MfConn *conn)
{
	return conn->broken || PQstatus(conn->pg) == CONNECTION_BAD;
}

/* libpq's messages end in a newline that would show up in the report. */
static void
mfpq_set_text(char *dst, size_t dstlen, const char *src)
{
	size_t		len;

	mf_error_copy(dst, dstlen, src);
	len = strlen(dst);
	while (len > 0 && (dst[len - 1] == '\n' || dst[len - 1] == ' '))
		dst[--len] = '\0';
}

static void
mfpq_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
		  const char *message)
{
	mf_error_clear(err);
	mf_error_set(err, step, sqlstate, 0, "%s", message);
	if (conn != NULL)
		err->conn_lost = mfpq_is_broken(conn);
}

/* A failure that libpq reports on the connection rather than in a result. */
static void
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

static void
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
static int	mfpq_async_poll(MfResult *res, bool wait, MfError *err);

static bool
mfpq_usable(MfConn *conn, MfStep step, MfError *err)
{
	/* a FETCH read ahead is finished first: its answer is on the wire */
	if (conn->pending != NULL && mfpq_async_poll(conn->pending, true, err) < 0)
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
static bool
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

static long
mfpq_rows(const PGresult *res)
{
	const char *tuples = res ? PQcmdTuples((PGresult *) res) : "";

	return tuples[0] ? strtol(tuples, NULL, 10) : 0;
}


/* ---------------------------------------------------------------------
 * Waiting, cancelling, winding down
 * ---------------------------------------------------------------------
 */

static bool
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
static void
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
static bool
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

static bool
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

static bool
mfpq_wait(MfConn *conn, bool for_write, MfStep step, MfError *err)
{
	int			sock = PQsocket(conn->pg);
	int			rc;

	if (sock < 0)
	{
		mfpq_conn_error(conn, step, err);
		return false;
	}
	rc = mf_wait_socket(sock, for_write);
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

static bool
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
static bool
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
static bool
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
	if (!mfpq_flush(conn, step, err))
		return false;

	for (;;)
	{
		PGresult   *res;

		if (!mfpq_await(conn, step, err))
		{
			PQclear(keep);
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
				PQclear(keep);
				keep = res;
				continue;
			case PGRES_COPY_IN:
			case PGRES_COPY_OUT:
			case PGRES_COPY_BOTH:
				PQclear(res);
				PQclear(keep);
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

	if (failed || last == NULL)
		PQclear(keep);
	else
		*last = keep;
	return !failed;
}

/* One statement in the simple protocol. */
static bool
mfpq_command(MfConn *conn, const char *sql, MfStep step, PGresult **last,
			 MfError *err)
{
	return mfpq_finish(conn, PQsendQuery(conn->pg, sql), step, last, err);
}


/* ---------------------------------------------------------------------
 * Bookkeeping of statements and results
 * ---------------------------------------------------------------------
 */

static void
mfpq_unlink_stmt(MfStmt *stmt)
{
	if (stmt->prev)
		stmt->prev->next = stmt->next;
	else
		stmt->conn->stmts = stmt->next;
	if (stmt->next)
		stmt->next->prev = stmt->prev;
}

static void
mfpq_unlink_result(MfResult *res)
{
	if (res->prev)
		res->prev->next = res->next;
	else
		res->conn->results = res->next;
	if (res->next)
		res->next->prev = res->prev;
}

static MfResult *
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
	res->next = conn->results;
	if (conn->results)
		conn->results->prev = res;
	conn->results = res;
	return res;
}

static void
mfpq_free_result(MfResult *res)
{
	mfpq_unlink_result(res);
	if (res->conn->pending == res)
		res->conn->pending = NULL;
	PQclear(res->batch);
	PQclear(res->ahead);
	free(res);
}

/* Free every statement and result without a word to the server. */
static void
mfpq_free_all(MfConn *conn)
{
	if (conn->stmts)
		conn->dealloc_due = true;
	while (conn->stmts)
	{
		MfStmt	   *stmt = conn->stmts;

		mfpq_unlink_stmt(stmt);
		free(stmt);
	}
	while (conn->results)
		mfpq_free_result(conn->results);
}


/* ---------------------------------------------------------------------
 * Connection and transactions
 * ---------------------------------------------------------------------
 */

static MfConn *
mfpq_connect(const MfConnParams *params, MfError *err)
{
	const char **keys;
	const char **values;
	bool		has_fallback = false;
	bool		has_sslcert = false;
	MfConn	   *conn;
	PGconn	   *pg;
	int			n = 0;

	mf_error_clear(err);
	keys = malloc((params->n + 3) * sizeof(char *));
	values = malloc((params->n + 3) * sizeof(char *));
	conn = calloc(1, sizeof(MfConn));
	if (keys == NULL || values == NULL || conn == NULL)
	{
		free(keys);
		free(values);
		free(conn);
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}

	for (int i = 0; i < params->n; i++)
	{
		if (params->keys[i] == NULL)
			continue;
		if (strcmp(params->keys[i], "fallback_application_name") == 0)
			has_fallback = true;
		if (strcmp(params->keys[i], "sslcert") == 0)
			has_sslcert = true;
		keys[n] = params->keys[i];
		values[n] = params->values[i];
		n++;
	}
	if (!has_fallback)
	{
		keys[n] = "fallback_application_name";
		values[n] = "multi_fdw";
		n++;
	}

	/*
	 * A password_only connection must not present this host's own client
	 * certificate (~/.postgresql/postgresql.crt) to a remote that asks for
	 * one: a path below a file that is no folder makes libpq go on
	 * without any.
	 */
	if (params->password_only && !has_sslcert)
	{
		keys[n] = "sslcert";
		values[n] = "/dev/null/no-client-certificate";
		n++;
	}
	keys[n] = NULL;
	values[n] = NULL;

	/*
	 * dbname is taken literally, never expanded as a connection string: an
	 * option value must not smuggle in other keywords.  libpq itself honours
	 * connect_timeout when one is given.
	 */
	pg = PQconnectdbParams(keys, values, 0);
	free(keys);
	free(values);

	if (pg == NULL || PQstatus(pg) != CONNECTION_OK)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", 0, "%s",
					 pg ? "" : "out of memory");
		if (pg)
			mfpq_set_text(err->message, sizeof(err->message),
						  PQerrorMessage(pg));
		if (err->message[0] == '\0')
			mf_error_copy(err->message, sizeof(err->message),
						  "could not connect to the remote server");
		PQfinish(pg);
		free(conn);
		return NULL;
	}

	conn->pg = pg;
	return conn;
}

static void
mfpq_disconnect(MfConn *conn)
{
	if (conn == NULL)
		return;
	mfpq_free_all(conn);
	PQfinish(conn->pg);
	free(conn);
}

static bool
mfpq_broken(MfConn *conn)
{
	return mfpq_is_broken(conn);
}

static unsigned long
mfpq_remote_session(MfConn *conn)
{
	int			pid = PQbackendPID(conn->pg);

	return pid > 0 ? (unsigned long) pid : 0;
}

/*
 * A server that ends the session sends its FATAL error and closes the
 * socket: the hang-up shows without reading anything.  A message alone
 * (a notice, a FETCH's answer) is not a close.
 */
static int
mfpq_peer_closed(MfConn *conn)
{
#ifdef POLLRDHUP
	struct pollfd pfd;

	if (mfpq_is_broken(conn))
		return 1;
	pfd.fd = PQsocket(conn->pg);
	if (pfd.fd < 0)
		return 1;
	pfd.events = POLLRDHUP;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) < 0)
		return -1;
	return (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
#else
	return mfpq_is_broken(conn) ? 1 : -1;
#endif
}

static bool
mfpq_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err)
{
	PGresult   *last;

	if (rows_affected)
		*rows_affected = 0;
	if (!mfpq_usable(conn, MF_STEP_EXEC, err) ||
		!mfpq_command(conn, sql, MF_STEP_EXEC, &last, err))
		return false;
	if (rows_affected)
		*rows_affected = mfpq_rows(last);
	PQclear(last);
	return true;
}

static bool
mfpq_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	if (!mfpq_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	return mfpq_command(conn, begin_sql ? begin_sql : "START TRANSACTION",
						MF_STEP_TRANSACTION, NULL, err);
}

static bool
mfpq_commit(MfConn *conn, MfError *err)
{
	PGresult   *last;
	bool		rolled_back;

	if (!mfpq_usable(conn, MF_STEP_TRANSACTION, err) ||
		!mfpq_command(conn, "COMMIT", MF_STEP_TRANSACTION, &last, err))
		return false;

	/*
	 * COMMIT of a transaction that already failed succeeds as a ROLLBACK:
	 * without this check a lost error would pass as committed work.
	 */
	rolled_back = last && strcmp(PQcmdStatus(last), "ROLLBACK") == 0;
	PQclear(last);
	if (rolled_back)
	{
		mfpq_fail(conn, err, MF_STEP_TRANSACTION, "40000",
				  "the remote transaction had failed and was rolled back");
		return false;
	}
	return true;
}

static bool
mfpq_rollback(MfConn *conn, MfError *err)
{
	PGconn	   *pg = conn->pg;
	PGTransactionStatusType ts;

	if (mfpq_is_broken(conn))
	{
		mfpq_fail(conn, err, MF_STEP_TRANSACTION, "08006",
				  "connection to the remote server was lost");
		return false;
	}

	/* a FETCH read ahead dies with the transaction: settle drops its answer */
	if (conn->pending != NULL)
	{
		conn->pending->pending = false;
		conn->pending = NULL;
	}

	if (conn->in_copy || PQpipelineStatus(pg) != PQ_PIPELINE_OFF ||
		PQtransactionStatus(pg) == PQTRANS_ACTIVE)
	{
		bool		in_copy = conn->in_copy;

		/*
		 * Work still running is about to be rolled back: stop it first.  A
		 * COPY is stopped too, since the server may not be reading the data
		 * that has to go before the CopyFail (it waits on a lock).
		 */
		if (in_copy || PQtransactionStatus(pg) == PQTRANS_ACTIVE ||
			conn->pl_taken < conn->pl_sent)
			(void) mfpq_send_cancel(conn, NULL, 0);
		if (!mfpq_settle_within(conn, in_copy ? MFPQ_COPY_SETTLE_MS :
								MFPQ_SETTLE_MS))
		{
			mfpq_fail(conn, err, MF_STEP_TRANSACTION, "08006",
					  "could not end the remote command in progress");
			return false;
		}
	}

	ts = PQtransactionStatus(pg);
	if (ts == PQTRANS_IDLE)
		return true;
	return mfpq_command(conn, "ROLLBACK", MF_STEP_TRANSACTION, NULL, err);
}

static bool
mfpq_cancel(MfConn *conn, MfError *err)
{
	char		buf[256];

	if (mfpq_send_cancel(conn, buf, sizeof(buf)))
		return true;
	mfpq_fail(conn, err, MF_STEP_CANCEL, "08001", "");
	mfpq_set_text(err->message, sizeof(err->message), buf);
	if (err->message[0] == '\0')
		mf_error_copy(err->message, sizeof(err->message),
					  "could not send a cancel request");
	return false;
}

static void
mfpq_forget_all(MfConn *conn)
{
	mfpq_free_all(conn);

	if (!conn->dealloc_due)
		return;
	if (mfpq_can_talk(conn) &&
		PQtransactionStatus(conn->pg) == PQTRANS_IDLE)
	{
		MfError		ignored;

		/*
		 * Prepared statements outlive transactions; without this a long
		 * session would keep piling them up on the server.
		 */
		if (mfpq_command(conn, "DEALLOCATE ALL", MF_STEP_PREPARE, NULL,
						 &ignored))
			conn->dealloc_due = false;
	}
}

static const char *
mfpq_server_version(MfConn *conn)
{
	const char *v = PQparameterStatus(conn->pg, "server_version");

	if (v == NULL)
		return NULL;
	mf_error_copy(conn->version, sizeof(conn->version), v);
	return conn->version;
}

static bool
mfpq_used_password(MfConn *conn)
{
	return PQconnectionUsedPassword(conn->pg) != 0;
}


/* ---------------------------------------------------------------------
 * Prepared statements
 * ---------------------------------------------------------------------
 */

static MfStmt *
mfpq_prepare(MfConn *conn, const char *sql, int nparams,
			 const MfTypeClass *classes, MfError *err)
{
	MfStmt	   *stmt;

	if (!mfpq_usable(conn, MF_STEP_PREPARE, err))
		return NULL;
	stmt = calloc(1, sizeof(MfStmt));
	if (stmt == NULL)
	{
		mfpq_fail(conn, err, MF_STEP_PREPARE, "53200", "out of memory");
		return NULL;
	}
	stmt->conn = conn;
	stmt->nparams = nparams;
	snprintf(stmt->name, sizeof(stmt->name), "mf_s%lu", ++conn->next_id);

	/*
	 * No parameter types: the server infers them from context, and the SQL
	 * the dialect writes casts wherever context is not enough.
	 */
	if (!mfpq_finish(conn, PQsendPrepare(conn->pg, stmt->name, sql, nparams,
										 NULL),
					 MF_STEP_PREPARE, NULL, err))
	{
		/* a cancel may have come after the server had prepared it */
		conn->dealloc_due = true;
		free(stmt);
		return NULL;
	}

	stmt->next = conn->stmts;
	if (conn->stmts)
		conn->stmts->prev = stmt;
	conn->stmts = stmt;
	return stmt;
}

static bool
mfpq_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
			 MfResult **result, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	PGresult   *last;
	MfResult   *res;

	if (rows_affected)
		*rows_affected = 0;
	if (result)
		*result = NULL;
	if (!mfpq_usable(conn, MF_STEP_EXECUTE, err) ||
		!mfpq_finish(conn, PQsendQueryPrepared(conn->pg, stmt->name,
											   stmt->nparams, values,
											   NULL, NULL, 0),
					 MF_STEP_EXECUTE, &last, err))
		return false;

	if (rows_affected)
		*rows_affected = mfpq_rows(last);
	if (result == NULL || last == NULL ||
		PQresultStatus(last) != PGRES_TUPLES_OK)
	{
		PQclear(last);
		return true;
	}

	res = mfpq_new_result(conn, err);
	if (res == NULL)
	{
		err->step = MF_STEP_EXECUTE;
		PQclear(last);
		return false;
	}
	res->batch = last;
	res->ncols = PQnfields(last);
	*result = res;
	return true;
}

static void
mfpq_stmt_close(MfStmt *stmt)
{
	MfConn	   *conn = stmt->conn;

	/*
	 * In an aborted transaction DEALLOCATE would only fail; leave the
	 * statement to the DEALLOCATE ALL that forget_all sends once the
	 * transaction is over.
	 */
	if (mfpq_can_talk(conn) &&
		PQtransactionStatus(conn->pg) != PQTRANS_INERROR)
	{
		char		sql[MFPQ_NAME_LEN + 16];
		MfError		ignored;

		snprintf(sql, sizeof(sql), "DEALLOCATE %s", stmt->name);
		if (!mfpq_command(conn, sql, MF_STEP_PREPARE, NULL, &ignored))
			conn->dealloc_due = true;
	}
	else
		conn->dealloc_due = true;

	mfpq_unlink_stmt(stmt);
	free(stmt);
}


/* ---------------------------------------------------------------------
 * Queries read through cursors
 * ---------------------------------------------------------------------
 */

static MfResult *
mfpq_query(MfConn *conn, const char *sql, int nparams,
		   const char *const *values, const MfTypeClass *classes,
		   int fetch_size, MfError *err)
{
	MfResult   *res;
	char	   *declare;
	size_t		len;
	bool		ok;

	if (!mfpq_usable(conn, MF_STEP_FETCH, err))
		return NULL;
	res = mfpq_new_result(conn, err);
	if (res == NULL)
		return NULL;
	res->is_cursor = true;
	res->fetch_size = fetch_size > 0 ? fetch_size : MFPQ_DEFAULT_FETCH;
	snprintf(res->name, sizeof(res->name), "mf_c%lu", ++conn->next_id);

	len = strlen(sql) + 2 * MFPQ_NAME_LEN + 64;
	declare = malloc(len);
	if (declare == NULL)
	{
		mfpq_free_result(res);
		mfpq_fail(conn, err, MF_STEP_FETCH, "53200", "out of memory");
		return NULL;
	}
	if (nparams == 0)
	{
		PGresult   *first = NULL;

		/*
		 * Without parameters the first FETCH rides along in the same
		 * simple-protocol message: one round trip opens the cursor and
		 * brings the first batch, which waits as if read ahead.
		 */
		snprintf(declare, len, "DECLARE %s CURSOR FOR %s; FETCH %d FROM %s",
				 res->name, sql, res->fetch_size, res->name);
		ok = mfpq_finish(conn, PQsendQuery(conn->pg, declare), MF_STEP_FETCH,
						 &first, err);
		if (ok && (first == NULL || PQresultStatus(first) != PGRES_TUPLES_OK))
		{
			PQclear(first);
			mfpq_fail(conn, err, MF_STEP_FETCH, "XX000",
					  "FETCH returned no rows description");
			ok = false;
		}
		if (ok)
		{
			res->ahead = first;
			res->requested = res->fetch_size;
		}
	}
	else
	{
		snprintf(declare, len, "DECLARE %s CURSOR FOR %s", res->name, sql);
		ok = mfpq_finish(conn, PQsendQueryParams(conn->pg, declare, nparams, NULL,
												 values, NULL, NULL, 0),
						 MF_STEP_FETCH, NULL, err);
	}
	free(declare);
	if (!ok)
	{
		mfpq_free_result(res);
		return NULL;
	}
	return res;
}

static int
mfpq_fetch(MfResult *res, MfError *err)
{
	MfConn	   *conn = res->conn;
	char		sql[MFPQ_NAME_LEN + 48];
	PGresult   *batch;
	int			n;

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

static int
mfpq_ncolumns(MfResult *res)
{
	return res->ncols;
}

static const char *
mfpq_value(MfResult *res, int row, int col)
{
	/* PQgetisnull also answers 1 for a row or column out of range */
	if (res->batch == NULL || PQgetisnull(res->batch, row, col))
		return NULL;
	return PQgetvalue(res->batch, row, col);
}

static void
mfpq_result_close(MfResult *res)
{
	MfConn	   *conn = res->conn;

	if (res->pending)
	{
		MfError		ignored;

		(void) mfpq_async_poll(res, true, &ignored);
	}

	/*
	 * Outside a healthy transaction the cursor is already gone, or will be
	 * when the transaction ends.
	 */
	if (res->is_cursor && mfpq_can_talk(conn) &&
		PQtransactionStatus(conn->pg) == PQTRANS_INTRANS)
	{
		char		sql[MFPQ_NAME_LEN + 16];
		MfError		ignored;

		snprintf(sql, sizeof(sql), "CLOSE %s", res->name);
		(void) mfpq_command(conn, sql, MF_STEP_FETCH, NULL, &ignored);
	}
	mfpq_free_result(res);
}


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
mfpq_copy_begin(MfConn *conn, const char *sql, MfError *err)
{
	PGresult   *res;

	if (!mfpq_usable(conn, MF_STEP_COPY, err))
		return false;
	if (!PQsendQuery(conn->pg, sql))
	{
		mfpq_conn_error(conn, MF_STEP_COPY, err);
		return false;
	}
	if (!mfpq_flush(conn, MF_STEP_COPY, err) ||
		!mfpq_await(conn, MF_STEP_COPY, err))
		return false;

	res = PQgetResult(conn->pg);
	if (res != NULL && PQresultStatus(res) == PGRES_COPY_IN)
	{
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

	/* whatever the statement turned out to be, read the rest of it */
	if (!mfpq_settle(conn))
		err->conn_lost = true;
	return false;
}

static bool
mfpq_copy_send(MfConn *conn, const char *buf, size_t len, MfError *err)
{
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

static bool
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


/* ---------------------------------------------------------------------
 * Pipelines of prepared statements
 * ---------------------------------------------------------------------
 */

static bool
mfpq_pipeline_begin(MfConn *conn, MfError *err)
{
	if (!mfpq_usable(conn, MF_STEP_PIPELINE, err))
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

static bool
mfpq_pipeline_send(MfStmt *stmt, const char *const *values, MfError *err)
{
	MfConn	   *conn = stmt->conn;

	if (PQpipelineStatus(conn->pg) == PQ_PIPELINE_OFF)
	{
		mfpq_fail(conn, err, MF_STEP_PIPELINE, "XX000",
				  "the remote connection is not in pipeline mode");
		return false;
	}
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

static int
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
static bool
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


/* ---------------------------------------------------------------------
 * Reading ahead
 * ---------------------------------------------------------------------
 */

static bool
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
	if (!PQsendQuery(conn->pg, sql))
	{
		mfpq_conn_error(conn, MF_STEP_FETCH, err);
		return false;
	}
	if (!mfpq_flush(conn, MF_STEP_FETCH, err))
		return false;
	res->pending = true;
	conn->pending = res;
	return true;
}

static int
mfpq_async_poll(MfResult *res, bool wait, MfError *err)
{
	MfConn	   *conn = res->conn;
	PGresult   *batch;

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

static int
mfpq_async_socket(MfConn *conn)
{
	return PQsocket(conn->pg);
}

const MfTransport mf_transport_libpq = {
	.name = "libpq",

	.connect = mfpq_connect,
	.disconnect = mfpq_disconnect,
	.is_broken = mfpq_broken,
	.exec = mfpq_exec,
	.begin = mfpq_begin,
	.commit = mfpq_commit,
	.rollback = mfpq_rollback,
	.prepare = mfpq_prepare,
	.execute = mfpq_execute,
	.stmt_close = mfpq_stmt_close,
	.query = mfpq_query,
	.fetch = mfpq_fetch,
	.ncolumns = mfpq_ncolumns,
	.value = mfpq_value,
	.result_close = mfpq_result_close,
	.cancel = mfpq_cancel,
	.forget_all = mfpq_forget_all,

	.server_version = mfpq_server_version,
	.used_password = mfpq_used_password,
	.copy_begin = mfpq_copy_begin,
	.copy_send = mfpq_copy_send,
	.copy_end = mfpq_copy_end,
	.pipeline_begin = mfpq_pipeline_begin,
	.pipeline_send = mfpq_pipeline_send,
	.pipeline_collect = mfpq_pipeline_collect,
	.pipeline_end = mfpq_pipeline_end,
	.async_send = mfpq_async_send,
	.async_socket = mfpq_async_socket,
	.async_poll = mfpq_async_poll,
	.remote_session = mfpq_remote_session,
	.peer_closed = mfpq_peer_closed,
};
