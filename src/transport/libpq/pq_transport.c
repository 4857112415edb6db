/*-------------------------------------------------------------------------
 *
 * pq_transport.c
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
 * This file connects, prepares and runs statements and transactions, and
 * holds the routine table; pq_int.h lists the other files of the
 * transport.  All of them are on the transport side of the wall (see
 * transport.h): no PostgreSQL server header, only libpq-fe.h.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
/* POLLRDHUP (Linux): the walled build does not get PostgreSQL's CPPFLAGS */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "pq_int.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------------
 * Bookkeeping of statements and results
 * ---------------------------------------------------------------------
 */

void
mfpq_stmt_free(MfStmt *stmt)
{
	MF_LIST_REMOVE(stmt->conn->stmts, stmt);
	stmt->conn->nstmts--;
	free(stmt->sql);
	free(stmt);
}

/* Free every statement and result without a word to the server. */
static void
mfpq_free_all(MfConn *conn)
{
	while (conn->stmts)
		mfpq_stmt_free(conn->stmts);
	while (conn->results)
		mfpq_free_result(conn->results);
}

/* ---------------------------------------------------------------------
 * Connection and transactions
 * ---------------------------------------------------------------------
 */

/*
 * A new link with the keywords of params (and the keywords the transport
 * adds), or NULL and err filled.
 */
PGconn *
mfpq_open_link(const MfConnParams *params, MfError *err)
{
	const char **keys;
	const char **values;
	bool		has_fallback = false;
	bool		has_sslcert = false;
	PGconn	   *pg;
	int			n = 0;

	keys = malloc((params->n + 3) * sizeof(char *));
	values = malloc((params->n + 3) * sizeof(char *));
	if (keys == NULL || values == NULL)
	{
		free(keys);
		free(values);
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}

	for (int i = 0; i < params->n; i++)
	{
		if (params->keys[i] == NULL)
			continue;
		/* built with libpq 18's headers, run with an older one */
		if (strcmp(params->keys[i], "scram_client_key") == 0 &&
			PQlibVersion() < 180000)
		{
			free(keys);
			free(values);
			mf_error_set(err, MF_STEP_CONNECT, "0A000", 0,
						 "SCRAM pass-through needs libpq 18 or later; the loaded libpq is %d",
						 PQlibVersion());
			return NULL;
		}
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
		return NULL;
	}
	return pg;
}

/*
 * The remote's NOTICE, WARNING and INFO go to the core's on_message (the
 * default receiver would print them on the gateway's stderr); LOG and
 * DEBUG, which a remote sends only when its session is told to, do not.
 */
static void
mfpq_notice(void *arg, const PGresult *res)
{
	MfConn	   *conn = arg;
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);
	MfMessage	m;

	if (conn->kept.on_message == NULL || severity == NULL)
		return;
	if (strcmp(severity, "WARNING") == 0)
		m.level = MF_MSG_WARNING;
	else if (strcmp(severity, "NOTICE") == 0)
		m.level = MF_MSG_NOTICE;
	else if (strcmp(severity, "INFO") == 0)
		m.level = MF_MSG_INFO;
	else
		return;
	m.sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	m.message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	m.detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	m.hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
	if (m.message != NULL)
		(void) conn->kept.on_message(conn->kept.message_arg, &m);
}

/* A new link's messages go where the connection's go. */
void
mfpq_watch_messages(MfConn *conn)
{
	(void) PQsetNoticeReceiver(conn->pg, mfpq_notice, conn);
}

static MfConn *
mfpq_connect(const MfConnParams *params, MfError *err)
{
	MfConn	   *conn;

	mf_error_clear(err);
	conn = calloc(1, sizeof(MfConn));
	if (conn == NULL || !mf_params_keep(&conn->kept, params))
	{
		free(conn);
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}
	conn->settle = mfpq_finish_ahead;
	conn->wire = MF_WIRE_OF(params);
	conn->pg = mfpq_open_link(params, err);
	if (conn->pg == NULL)
	{
		mf_params_free(&conn->kept);
		free(conn);
		return NULL;
	}
	mfpq_watch_messages(conn);
	return conn;
}

static void
mfpq_disconnect(MfConn *conn)
{
	if (conn == NULL)
		return;
	mfpq_free_all(conn);
	PQfinish(conn->pg);
	mf_params_free(&conn->kept);
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
mfpq_exec_once(MfConn *conn, const char *sql, long *rows_affected,
			   MfError *err)
{
	PGresult   *last;

	if (rows_affected)
		*rows_affected = 0;
	if (!mfpq_usable(conn, MF_STEP_EXEC, err))
		return false;
	if (!mfpq_command(conn, sql, MF_STEP_EXEC, &last, err))
	{
		mfpq_new_span(conn);
		return false;
	}
	mfpq_exec_span(conn, sql, last);
	if (rows_affected)
		*rows_affected = mfpq_rows(last);
	PQclear(last);
	return true;
}

/* ... once more on a new link if the first went down with it (pq_relink.c) */
static bool
mfpq_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err)
{
	if (mfpq_exec_once(conn, sql, rows_affected, err))
		return true;
	return mfpq_relink(conn, err) &&
		mfpq_exec_once(conn, sql, rows_affected, err);
}

/*
 * The begin goes with the transaction's first command (pq_defer.c): a
 * transaction costs no exchange of its own, and one in which nothing was
 * sent costs none at all.
 */
static bool
mfpq_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	const char *sql = begin_sql ? begin_sql : "START TRANSACTION";

	if (!mfpq_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	mfpq_new_span(conn);
	if (mfpq_begin_waiting(conn))
		return true;
	if (PQtransactionStatus(conn->pg) == PQTRANS_IDLE &&
		mfpq_defer(conn, MFPQ_LATER_BEGIN, sql))
		return true;
	return mfpq_command(conn, sql, MF_STEP_TRANSACTION, NULL, err);
}

/* The core's SAVEPOINT and RELEASE go with the next request too. */
static bool
mfpq_defer_savepoint(MfConn *conn, const char *sql)
{
	PGTransactionStatusType ts = PQtransactionStatus(conn->pg);

	if (mfpq_is_broken(conn) || conn->in_copy ||
		PQpipelineStatus(conn->pg) != PQ_PIPELINE_OFF)
		return false;
	if (!(ts == PQTRANS_INTRANS ||
		  (ts == PQTRANS_IDLE && mfpq_begin_waiting(conn))))
		return false;
	return mfpq_defer(conn, MFPQ_LATER_SAVEPOINT, sql);
}

/*
 * COMMIT of a transaction that already failed succeeds as a ROLLBACK:
 * without this check a lost error would pass as committed work.
 */
static bool
mfpq_committed(MfConn *conn, PGresult *last, MfError *err)
{
	bool		rolled_back = last && strcmp(PQcmdStatus(last), "ROLLBACK") == 0;

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
mfpq_commit(MfConn *conn, MfError *err)
{
	PGresult   *last;
	bool		begun;

	if (!mfpq_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	/* the COMMIT closes the cursors: their CLOSEs need not go */
	begun = !mfpq_begin_waiting(conn);
	mfpq_later_xact_over(conn);
	if (!begun)
		return true;
	if (!mfpq_command(conn, "COMMIT", MF_STEP_TRANSACTION, &last, err))
		return false;
	return mfpq_committed(conn, last, err);
}

static int
mfpq_exec_send(MfConn *conn, const char *sql, MfError *err)
{
	/* what waits to go with the next request goes with exec's */
	if (conn->in_copy || PQpipelineStatus(conn->pg) != PQ_PIPELINE_OFF ||
		PQtransactionStatus(conn->pg) == PQTRANS_ACTIVE || conn->nlater > 0)
		return 0;
	if (!mfpq_usable(conn, MF_STEP_TRANSACTION, err))
		return -1;
	mfpq_new_span(conn);
	conn->wire->bytes_sent += strlen(sql);
	if (!PQsendQuery(conn->pg, sql))
	{
		mfpq_conn_error(conn, MF_STEP_TRANSACTION, err);
		return -1;
	}
	return mfpq_flush(conn, MF_STEP_TRANSACTION, err) ? 1 : -1;
}

static bool
mfpq_exec_finish(MfConn *conn, bool commit, MfError *err)
{
	PGresult   *last;

	if (!mfpq_finish(conn, 1, MF_STEP_TRANSACTION, &last, err))
		return false;
	if (commit)
		return mfpq_committed(conn, last, err);
	PQclear(last);
	return true;
}

static bool
mfpq_rollback(MfConn *conn, MfError *err)
{
	PGconn	   *pg = conn->pg;
	PGTransactionStatusType ts;

	/* a begin still waiting: the remote never saw the transaction */
	mfpq_later_xact_over(conn);
	if (mfpq_is_broken(conn))
	{
		mfpq_fail(conn, err, MF_STEP_TRANSACTION, "08006",
				  "connection to the remote server was lost");
		return false;
	}

	/* rows still on the wire go with the command (pq_small.c) */
	mfpq_small_abandon(conn);

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

/*
 * The transaction is over: results go, and the handles to prepared
 * statements the core still held (an error cut it short) are let go of;
 * the statements stay cached.
 */
static void mfpq_cache_trim(MfConn *conn);

static void
mfpq_forget_all(MfConn *conn)
{
	while (conn->results)
		mfpq_free_result(conn->results);
	for (MfStmt *stmt = conn->stmts; stmt; stmt = stmt->next)
		stmt->refs = 0;
	mfpq_later_xact_over(conn);
	mfpq_cache_trim(conn);

	if (!conn->dealloc_due)
		return;
	if (mfpq_can_talk(conn) &&
		PQtransactionStatus(conn->pg) == PQTRANS_IDLE)
	{
		MfError		ignored;

		/*
		 * A PREPARE cut short may have left a statement on the server that
		 * nothing here knows: without this a long session would keep piling
		 * them up.  It takes the cached ones with it.
		 */
		mfpq_later_clear(conn);
		if (mfpq_command(conn, "DEALLOCATE ALL", MF_STEP_PREPARE, NULL,
						 &ignored))
			conn->dealloc_due = false;
		while (conn->stmts)
			mfpq_stmt_free(conn->stmts);
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

int
mfpq_send_prepare(MfConn *conn, void *arg)
{
	MfStmt	   *stmt = arg;

	/*
	 * No parameter types: the server infers them from context, and the SQL
	 * the dialect writes casts wherever context is not enough.
	 */
	return PQsendPrepare(conn->pg, stmt->name, stmt->sql, stmt->nparams,
						 NULL);
}

/*
 * Let go of the least recently used statements beyond the cache's size
 * that no handle holds: their DEALLOCATE goes with the next request.
 */
static void
mfpq_cache_trim(MfConn *conn)
{
	MfStmt	   *stmt = conn->stmts;

	while (stmt && stmt->next)
		stmt = stmt->next;
	while (stmt)
	{
		MfStmt	   *prev = stmt->prev;

		if (stmt->refs == 0 &&
			(stmt->stale || conn->nstmts > MFPQ_CACHE_MAX))
		{
			char		sql[MFPQ_NAME_LEN + 16];

			snprintf(sql, sizeof(sql), "DEALLOCATE %s", stmt->name);
			if (!mfpq_defer(conn, MFPQ_LATER_DEALLOCATE, sql))
				conn->dealloc_due = true;
			mfpq_stmt_free(stmt);
		}
		stmt = prev;
	}
}

/*
 * A statement is prepared once per connection: the same text again (the
 * next transaction's INSERT, a generic plan's UPDATE) is the cached one,
 * with no exchange at all.
 */
static MfStmt *
mfpq_prepare_once(MfConn *conn, const char *sql, int nparams, MfError *err)
{
	MfStmt	   *stmt;

	if (!mfpq_usable(conn, MF_STEP_PREPARE, err))
		return NULL;
	for (stmt = conn->stmts; stmt; stmt = stmt->next)
	{
		if (!stmt->stale && stmt->nparams == nparams &&
			strcmp(stmt->sql, sql) == 0)
		{
			MF_LIST_REMOVE(conn->stmts, stmt);
			MF_LIST_PUSH(conn->stmts, stmt);
			stmt->refs++;
			return stmt;
		}
	}

	stmt = calloc(1, sizeof(MfStmt));
	if (stmt != NULL)
		stmt->sql = strdup(sql);
	if (stmt == NULL || stmt->sql == NULL)
	{
		free(stmt);
		mfpq_fail(conn, err, MF_STEP_PREPARE, "53200", "out of memory");
		return NULL;
	}
	stmt->conn = conn;
	stmt->nparams = nparams;
	stmt->returns_rows = true;	/* until its first run says */
	stmt->span = conn->span;
	snprintf(stmt->name, sizeof(stmt->name), "mf_s%lu", ++conn->next_id);
	conn->wire->bytes_sent += strlen(sql);
	if (!mfpq_extended(conn, mfpq_send_prepare, stmt, MF_STEP_PREPARE, NULL,
					   err))
	{
		/* a cancel may have come after the server had prepared it */
		conn->dealloc_due = true;
		free(stmt->sql);
		free(stmt);
		return NULL;
	}

	stmt->refs = 1;
	MF_LIST_PUSH(conn->stmts, stmt);
	conn->nstmts++;
	mfpq_cache_trim(conn);
	return stmt;
}

/* ... once more on a new link if the first went down with it (pq_relink.c) */
static MfStmt *
mfpq_prepare(MfConn *conn, const char *sql, int nparams,
			 const MfTypeClass *classes, MfError *err)
{
	MfStmt	   *stmt;

	(void) classes;
	stmt = mfpq_prepare_once(conn, sql, nparams, err);
	if (stmt == NULL && mfpq_relink(conn, err))
		stmt = mfpq_prepare_once(conn, sql, nparams, err);
	return stmt;
}

typedef struct MfpqExecute
{
	MfStmt	   *stmt;
	const char *const *values;
	bool		release;		/* under a savepoint of its own (pq_replan.c) */
} MfpqExecute;

static int
mfpq_send_execute(MfConn *conn, void *arg)
{
	MfpqExecute *ex = arg;

	if (!PQsendQueryPrepared(conn->pg, ex->stmt->name, ex->stmt->nparams,
							 ex->values, NULL, NULL, 0))
		return 0;
	return !ex->release ||
		PQsendQueryParams(conn->pg, MFPQ_GUARD_RELEASE, 0, NULL, NULL, NULL,
						  NULL, 0);
}

/*
 * One run of a prepared statement; under its own savepoint, it and the
 * RELEASE go in one pipeline, whose last result is the RELEASE's.
 */
static bool
mfpq_run_prepared(MfConn *conn, MfpqExecute *ex, PGresult **last,
				  MfError *err)
{
	bool		ok;

	conn->wire->bytes_sent += mf_values_bytes(ex->values, ex->stmt->nparams);
	if (!ex->release)
		return mfpq_extended(conn, mfpq_send_execute, ex, MF_STEP_EXECUTE,
							 last, err);
	conn->pl_trailing = 1;
	ok = mfpq_pipelined(conn, mfpq_send_execute, ex, MF_STEP_EXECUTE, last,
						err);
	conn->pl_trailing = 0;
	return ok;
}

static bool
mfpq_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
			 MfResult **result, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	MfpqExecute ex = {stmt, values, false};
	PGresult   *last;
	MfResult   *res;

	if (rows_affected)
		*rows_affected = 0;
	if (result)
		*result = NULL;
	if (!mfpq_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	conn->plan_changed = false;
	ex.release = mfpq_guard(stmt);
	if (!mfpq_run_prepared(conn, &ex, &last, err))
	{
		/*
		 * A plan the remote's DDL made stale (pq_replan.c; the savepoint,
		 * rolled back to, still in place), or a link found dead by the
		 * transaction's first request (pq_relink.c): once more.
		 */
		if (!mfpq_replan(stmt, err) && !mfpq_relink(conn, err))
			return false;
		if (!mfpq_run_prepared(conn, &ex, &last, err))
			return false;
	}
	mfpq_ran(stmt, last);

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

/* The handle goes; the statement stays cached for the next one. */
static void
mfpq_stmt_close(MfStmt *stmt)
{
	if (stmt->refs > 0)
		stmt->refs--;
	mfpq_cache_trim(stmt->conn);
}

/*
 * The connection keywords: libpq's own, passed on as they are.  The file
 * ones are a superuser's, as postgres_fdw has them.
 */
#define MFPQ_KW(name)		{name, MF_KW_SERVER, false, false, NULL}
#define MFPQ_KW_FILE(name, where)	{name, where, false, true, NULL}

static const MfConnKeyword mfpq_keywords[] = {
	{"user", MF_KW_USER, false, false, NULL},
	{"password", MF_KW_USER, true, false, NULL},
	MFPQ_KW("host"),
	MFPQ_KW("port"),
	MFPQ_KW("connect_timeout"),
	MFPQ_KW("hostaddr"),
	MFPQ_KW("dbname"),
	MFPQ_KW("options"),
	MFPQ_KW("application_name"),
	MFPQ_KW("keepalives"),
	MFPQ_KW("keepalives_idle"),
	MFPQ_KW("keepalives_interval"),
	MFPQ_KW("keepalives_count"),
	MFPQ_KW("tcp_user_timeout"),
	MFPQ_KW("target_session_attrs"),
	MFPQ_KW("sslmode"),
	MFPQ_KW("sslcompression"),
	MFPQ_KW_FILE("sslcert", MF_KW_SERVER | MF_KW_USER),
	MFPQ_KW_FILE("sslkey", MF_KW_SERVER | MF_KW_USER),
	/* unlocks sslkey, which only a superuser names */
	{"sslpassword", MF_KW_USER, false, false, NULL},
	/* a definition in a service file of this host: a superuser's */
	MFPQ_KW_FILE("service", MF_KW_SERVER),
	MFPQ_KW_FILE("sslrootcert", MF_KW_SERVER),
	MFPQ_KW_FILE("sslcrl", MF_KW_SERVER),
	MFPQ_KW_FILE("sslcrldir", MF_KW_SERVER),
	MFPQ_KW("sslsni"),
	MFPQ_KW("ssl_min_protocol_version"),
	MFPQ_KW("ssl_max_protocol_version"),
	MFPQ_KW("requirepeer"),
	MFPQ_KW("gssencmode"),
	MFPQ_KW("krbsrvname"),
	MFPQ_KW("gsslib"),
	MFPQ_KW("channel_binding"),
	{NULL}
};

const MfTransport mf_transport_libpq = {
	.name = "libpq",
	.keywords = mfpq_keywords,
	.markers = MF_MARKERS_NUMBERED,
	.sql_transaction_control = true,
#ifdef LIBPQ_HAS_FULL_PROTOCOL_VERSION	/* libpq 18: scram_client_key */
	.scram_passthrough = true,
#endif

	.connect = mfpq_connect,
	.disconnect = mfpq_disconnect,
	.is_broken = mfpq_broken,
	.exec = mfpq_exec,
	.begin = mfpq_begin,
	.commit = mfpq_commit,
	.exec_send = mfpq_exec_send,
	.exec_finish = mfpq_exec_finish,
	.rollback = mfpq_rollback,
	.prepare = mfpq_prepare,
	.execute = mfpq_execute,
	.stmt_close = mfpq_stmt_close,
	.query = mfpq_query,
	.fetch = mfpq_fetch,
	.ncolumns = mfpq_ncolumns,
	.value = mfpq_value,
	.result_close = mfpq_result_close,
	.column_name = mfpq_column_name,
	.requery = mfpq_requery,
	.defer = mfpq_defer_savepoint,
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
	.holds_link = mfpq_small_holds_link,
	.rows_all_read = mfpq_rows_all_read,
	.drop_stream = mfpq_small_drop,
	.xact_state = mfpq_xact_state,
};
