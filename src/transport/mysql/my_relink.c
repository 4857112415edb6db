/*-------------------------------------------------------------------------
 *
 * my_relink.c
 *		The mysql transport's link to the server: opened at connect, and
 *		opened again under a transaction's first request when that request
 *		meets a dead session.
 *
 * The session runs with autocommit off, so a transaction costs no START
 * TRANSACTION: its first statement opens it (my_transport.c).  Before it,
 * the core looks at the socket (peer_closed) and replaces a link the
 * server has closed; but a session may die after that look, or its end
 * may not show on the socket yet (a network path that drops the link
 * without a word).  The first request then fails with the link, where a
 * START TRANSACTION of its own would have failed alone and the core would
 * have connected again, as postgres_fdw does.  This file does that here,
 * under the request:
 *
 *	- only when the server has answered nothing since the transaction
 *	  began (conn->heard), so that nothing of it reached a live session:
 *	  one that answered and died later fails the statement, as it would
 *	  have with a START TRANSACTION of its own;
 *	- once: the request is sent again on the new link, and any failure of
 *	  that is the error;
 *	- with the same connection keywords, the core's set-up of the session
 *	  run again (kit_session.c) and the isolation level the transaction
 *	  set; the handles the core holds are prepared again on the new link,
 *	  the others the cache kept are let go (my_cache.c), and what the
 *	  transport knew of the old server (max_allowed_packet, local_infile,
 *	  bulk execution) is read again.
 *
 * A LOAD DATA stream is not sent again: its rows have gone.
 *
 * Part of the mysql transport (see my_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only Connector/C's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <stdio.h>
#include <string.h>

/*
 * Does the server take bulk execution (MariaDB 10.2 and later)?  A MariaDB
 * server clears CLIENT_MYSQL and says so in its extended capabilities;
 * Connector/C refuses a bulk execution to any other.
 */
static bool
mfmy_bulk_supported(MYSQL *my)
{
	unsigned long caps = 0;
	unsigned long ext = 0;

	if (mariadb_get_infov(my, MARIADB_CONNECTION_SERVER_CAPABILITIES, &caps) ||
		mariadb_get_infov(my, MARIADB_CONNECTION_EXTENDED_SERVER_CAPABILITIES,
						  &ext))
		return false;
	return (caps & CLIENT_MYSQL) == 0 &&
		(ext & (unsigned long) (MARIADB_CLIENT_STMT_BULK_OPERATIONS >> 32)) != 0;
}

/*
 * A new link for conn, with conn->info, autocommit off; conn's facts of
 * the server (bulk, thread_id) are those of the new one.  NULL, err
 * filled, on failure.
 */
MYSQL *
mfmy_link(MfConn *conn, MfError *err)
{
	MYSQL	   *my = mfmy_open(&conn->info, mfmy_infile_serve, conn, 0, err);

	if (my == NULL)
		return NULL;

	/*
	 * Every statement runs in a transaction, which its first statement
	 * opens (see mfmy_begin).  What the session set-up then runs outside
	 * a transaction reads no table, or else mfmy_begin commits it before
	 * the first transaction, as START TRANSACTION would.
	 */
	if (mysql_autocommit(my, 0) != 0)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", (long) mysql_errno(my),
					 "could not turn autocommit off: %s", mysql_error(my));
		mysql_close(my);
		return NULL;
	}
	conn->thread_id = mysql_thread_id(my);
	conn->bulk = mfmy_bulk_supported(my);
	return my;
}

/* The new session, set up as the old one was.  false, err filled. */
static bool
mfmy_relink_setup(MfConn *conn, const char *level, MfError *err)
{
	char		sql[80];

	if (!mf_session_replay(conn, &mf_transport_mysql, &conn->kept, err))
		return false;
	if (level != NULL)
	{
		snprintf(sql, sizeof(sql),
				 "SET SESSION TRANSACTION ISOLATION LEVEL %s", level);
		if (!mf_transport_mysql.exec(conn, sql, NULL, err))
			return false;
	}
	if (conn->read_only &&
		!mf_transport_mysql.exec(conn, "SET SESSION TRANSACTION READ ONLY",
								 NULL, err))
		return false;
	return mfmy_cache_relink(conn, err);
}

/*
 * A request of the transaction failed with err.  When the link was lost
 * before the server answered anything of the transaction, a new link
 * replaces it: true, and the caller sends the request again.  false: err
 * is the error to report (with what failed on the way, when connecting
 * again did).
 */
bool
mfmy_relink(MfConn *conn, MfError *err)
{
	MfError		why;
	const char *level = conn->iso_level;

	if (conn->heard || !conn->broken || conn->kept.n == 0 ||
		conn->load.open || conn->load.in_flight)
		return false;
	why = *err;
	mf_error_clear(err);

	/* the handles of the old link are only freed from here on */
	if (conn->my != NULL)
		mysql_close(conn->my);
	conn->my = mfmy_link(conn, err);
	if (conn->my == NULL)
		goto fail;

	conn->broken = false;
	conn->streaming = NULL;
	conn->max_packet = 0;
	conn->load.server_allows = -1;
	conn->iso_level = NULL;
	conn->wire->reconnects++;

	/* the set-up must not look like the transaction's first request */
	conn->heard = true;
	if (!mfmy_relink_setup(conn, level, err))
	{
		conn->broken = true;
		goto fail;
	}
	conn->iso_level = level;
	conn->sent = false;
	conn->unsure = false;
	conn->heard = false;
	mf_error_clear(err);
	return true;

fail:
	mf_error_relink_failed(err, &why);
	return false;
}

/*
 * The routine table's entries that may carry a transaction's first
 * request: each sends it once more on a new link if the first went down
 * with the old one.
 */
MfStmt *
mfmy_prepare_retry(MfConn *conn, const char *sql, int nparams,
				   const MfTypeClass *classes, MfError *err)
{
	MfStmt	   *stmt = mfmy_prepare(conn, sql, nparams, classes, err);

	if (stmt == NULL && mfmy_relink(conn, err))
		stmt = mfmy_prepare(conn, sql, nparams, classes, err);
	return stmt;
}

bool
mfmy_execute_retry(MfStmt *stmt, const char *const *values,
				   long *rows_affected, MfResult **result, MfError *err)
{
	if (mfmy_execute(stmt, values, rows_affected, result, err))
		return true;
	return mfmy_relink(stmt->conn, err) &&
		mfmy_execute(stmt, values, rows_affected, result, err);
}

bool
mfmy_execute_array_retry(MfStmt *stmt, int nsets, const char *const *values,
						 long *rows_affected, MfError *err)
{
	if (mfmy_execute_array(stmt, nsets, values, rows_affected, err))
		return true;
	return mfmy_relink(stmt->conn, err) &&
		mfmy_execute_array(stmt, nsets, values, rows_affected, err);
}

MfResult *
mfmy_query_retry(MfConn *conn, const char *sql, int nparams,
				 const char *const *values, const MfTypeClass *classes,
				 MfRead read, MfError *err)
{
	MfResult   *res = mfmy_query(conn, sql, nparams, values, classes,
								 read, err);

	if (res == NULL && mfmy_relink(conn, err))
		res = mfmy_query(conn, sql, nparams, values, classes, read, err);
	return res;
}
