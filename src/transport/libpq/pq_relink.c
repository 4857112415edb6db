/*-------------------------------------------------------------------------
 *
 * pq_relink.c
 *		A transaction's first request that meets a dead session: a new
 *		link, and the request again.
 *
 * The remote transaction's START TRANSACTION travels with its first
 * request (pq_defer.c).  Before it, the core looks at the socket
 * (peer_closed) and replaces a link the server has closed; but a session
 * may die after that look, or its end may not show on the socket yet
 * (pg_terminate_backend returns before the backend has gone; a network
 * path drops the link without a word).  The first request then fails with
 * the link, where a START TRANSACTION of its own would have failed alone
 * and the core would have connected again and begun once more, as
 * postgres_fdw does.  This file does that here, under the request:
 *
 *	- only when the request carried the transaction's begin and the server
 *	  answered none of it (conn->begin_out), so that nothing of the remote
 *	  transaction had reached a live session: a session that answered the
 *	  begin and died later (killed during the statement) fails the
 *	  statement, as it would have without the deferral;
 *	- once: the caller sends the request again, on the new link, and any
 *	  failure of that is the error;
 *	- with the same keywords and password rule as the first connect, and
 *	  the core's set-up of the session run again (kit_session.c);
 *	- the statements the core holds are prepared again under their names;
 *	  the others the cache kept are forgotten, as are the DEALLOCATEs and
 *	  CLOSEs meant for the old session.  The begin and the savepoints that
 *	  went with the request wait again to go with it.
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
#include <string.h>

/*
 * The begin and the savepoints that went with the failed request, in
 * their order, into queue; how many.
 */
static int
mfpq_relink_queue(MfConn *conn, MfpqLater *queue)
{
	const MfpqLater *from = conn->went;
	int			nfrom = conn->nwent;
	int			n = 0;

	/* a simple-protocol message that failed whole put them back already */
	if (mfpq_begin_waiting(conn))
	{
		from = conn->later;
		nfrom = conn->nlater;
	}
	for (int i = 0; i < nfrom; i++)
		if (from[i].kind == MFPQ_LATER_BEGIN ||
			from[i].kind == MFPQ_LATER_SAVEPOINT)
			queue[n++] = from[i];
	return n;
}

/*
 * The new session, set up as the old one was: the core's set-up, then the
 * statements the core holds, prepared again.  false, err filled.
 */
static bool
mfpq_relink_setup(MfConn *conn, MfError *err)
{
	MfStmt	   *stmt = conn->stmts;

	if (!mf_session_replay(conn, &mf_transport_libpq, &conn->kept, err))
		return false;
	while (stmt != NULL)
	{
		MfStmt	   *next = stmt->next;

		if (stmt->refs == 0)
			mfpq_stmt_free(stmt);
		else if (!mfpq_extended(conn, mfpq_send_prepare, stmt,
								MF_STEP_PREPARE, NULL, err))
			return false;
		stmt = next;
	}
	return true;
}

/*
 * The request that carried the transaction's begin failed with err.  When
 * the link was lost before the server answered any of it, a new link
 * replaces it: true, and the caller sends the request again.  false: err
 * is the error to report (with what failed on the way, when connecting
 * again did).
 */
bool
mfpq_relink(MfConn *conn, MfError *err)
{
	MfpqLater	queue[MFPQ_LATER_MAX];
	int			nqueue;
	MfConnParams params;
	MfError		why;
	PGconn	   *pg;

	if (!conn->begin_out || !mfpq_is_broken(conn) || conn->kept.n == 0)
		return false;
	conn->begin_out = false;
	why = *err;
	nqueue = mfpq_relink_queue(conn, queue);

	mf_error_clear(err);
	mf_params_view(&conn->kept, &params);
	pg = mfpq_open_link(&params, err);
	if (pg != NULL && params.password_only && !PQconnectionUsedPassword(pg))
	{
		PQfinish(pg);
		pg = NULL;
		mf_error_set(err, MF_STEP_CONNECT, "2F003", 0,
					 "the server did not request a password");
	}
	if (pg == NULL)
		goto fail;

	/* nothing of the old session carries over */
	PQfinish(conn->pg);
	conn->pg = pg;
	mfpq_watch_messages(conn);
	conn->broken = false;
	conn->in_copy = false;
	conn->interrupted = false;
	conn->pending = NULL;
	conn->streaming = NULL;
	conn->pl_sent = conn->pl_taken = 0;
	conn->pl_syncs = 0;
	conn->pl_failed = false;
	conn->plan_changed = false;
	conn->dealloc_due = false;
	conn->nlater = conn->nwent = conn->ncarried = 0;
	conn->wire->reconnects++;

	if (!mfpq_relink_setup(conn, err))
	{
		conn->broken = true;
		goto fail;
	}
	memcpy(conn->later, queue, sizeof(MfpqLater) * (size_t) nqueue);
	conn->nlater = nqueue;
	mf_error_clear(err);
	return true;

fail:
	mf_error_relink_failed(err, &why);
	return false;
}
