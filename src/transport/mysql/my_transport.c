/*-------------------------------------------------------------------------
 *
 * my_transport.c
 *		The transport to MySQL and MariaDB, through MariaDB Connector/C's
 *		libmysqlclient API.
 *
 * Every command that waits for the server goes out through Connector/C's
 * non-blocking calls (the *_start / *_cont pairs), and every wait goes
 * through mf_wait_socket, so that a user's cancel reaches the remote
 * statement: a KILL QUERY is sent from a second, short-lived connection,
 * the statement is read to its end, and the transport reports SQLSTATE
 * 57014.  Connecting itself blocks, bounded by connect_timeout.
 *
 * Statements with parameters are prepared and run in the binary protocol;
 * each parameter is bound from its text form according to its class
 * (bytea decoded to raw bytes, booleans as 1/0, numbers as numbers, the
 * rest as strings that the server converts under its strict sql_mode).
 *
 * A prepared statement can also run for many sets of values at once
 * (execute_array): MariaDB's bulk execution sends them column-wise in one
 * COM_STMT_BULK_EXECUTE packet, split where the server's
 * max_allowed_packet asks for it; a server without bulk execution (MySQL,
 * MariaDB before 10.2) gets the sets one by one.
 *
 * Queries run as prepared statements with a server-side read-only cursor:
 * execute only opens it, and each fetch brings fetch_size rows, so memory
 * stays bounded and other statements may run on the connection between
 * two fetches.  A query the planner expects to be small runs without a
 * cursor, its rows read as they come in the execute's own exchange (see
 * mfmy_query).  Every value comes back as text in PostgreSQL's input
 * format (see mfmy_store_value).  Prepared statements are kept per
 * connection for their next use (my_cache.c).
 *
 * The session is set up by the dialect (utf8mb4, UTC, strict sql_mode);
 * this file turns autocommit off, never lets the server ask for a local
 * file (LOAD DATA LOCAL INFILE), and never asks for "found rows" instead
 * of affected rows.
 *
 * Transactions cost no exchange of their own: with autocommit off, the
 * first statement of a transaction opens it on the server, and a COMMIT
 * or ROLLBACK is sent only when something may have opened one (see
 * mfmy_begin and mfmy_end).
 *
 * This file connects, runs plain commands and transactions, and holds the
 * routine table; my_int.h lists the other files of the transport.  All of
 * them are on the transport side of the wall (see transport.h): no
 * PostgreSQL server header, only Connector/C's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <errno.h>
#include <limits.h>
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
 * Connecting
 * ---------------------------------------------------------------------
 */

static void
mfmy_free_info(MfmyConnInfo *ci)
{
	free(ci->host);
	free(ci->database);
	free(ci->unix_socket);
	free(ci->user);
	if (ci->password)
		memset(ci->password, 0, strlen(ci->password));
	free(ci->password);
	free(ci->ssl_key);
	free(ci->ssl_cert);
	free(ci->ssl_ca);
	free(ci->init_command);
	free(ci->character_set);
	memset(ci, 0, sizeof(*ci));
}

static bool
mfmy_same(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
	{
		char		x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a;
		char		y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

/*
 * The keywords the option table gives to this transport, plus the local
 * database's encoding.  Fills err and returns false on a bad value.
 */
static bool
mfmy_read_params(const MfConnParams *params, MfmyConnInfo *ci,
					MfError *err)
{
	static const char *const ssl_modes[] = {"disabled", "preferred",
	"required", "verify_ca", "verify_identity"};
	char	  **slot;

	memset(ci, 0, sizeof(*ci));
	ci->ssl_mode = MFMY_SSL_DEFAULT;
	ci->password_only = params->password_only;

	for (int i = 0; i < params->n; i++)
	{
		const char *k = params->keys[i];
		const char *v = params->values[i];
		unsigned long n;

		if (k == NULL || v == NULL)
			continue;
		slot = NULL;
		if (strcmp(k, "host") == 0)
			slot = &ci->host;
		else if (strcmp(k, "database") == 0)
			slot = &ci->database;
		else if (strcmp(k, "unix_socket") == 0)
			slot = &ci->unix_socket;
		else if (strcmp(k, "user") == 0)
			slot = &ci->user;
		else if (strcmp(k, "password") == 0)
			slot = &ci->password;
		else if (strcmp(k, "ssl_key") == 0)
			slot = &ci->ssl_key;
		else if (strcmp(k, "ssl_cert") == 0)
			slot = &ci->ssl_cert;
		else if (strcmp(k, "ssl_ca") == 0)
			slot = &ci->ssl_ca;
		else if (strcmp(k, "init_command") == 0)
			slot = &ci->init_command;
		else if (strcmp(k, "character_set") == 0)
			slot = &ci->character_set;
		else if (strcmp(k, "zero_date") == 0)
			ci->zero_date_error = strcasecmp(v, "error") == 0;
		else if (strcmp(k, "port") == 0)
		{
			if (!mfmy_parse_uint(v, 65535, &n))
			{
				mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
							 "invalid port \"%s\": expected a number from 0 to 65535",
							 v);
				return false;
			}
			ci->port = (unsigned int) n;
		}
		else if (strcmp(k, "connect_timeout") == 0)
		{
			if (!mfmy_parse_uint(v, INT_MAX, &n))
			{
				mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
							 "invalid connect_timeout \"%s\": expected a number of seconds",
							 v);
				return false;
			}
			ci->connect_timeout = (unsigned int) n;
		}
		else if (strcmp(k, "ssl_mode") == 0)
		{
			ci->ssl_mode = MFMY_SSL_DEFAULT;
			for (int m = 0; m < 5; m++)
				if (mfmy_same(v, ssl_modes[m]))
					ci->ssl_mode = (MfmySslMode) m;
			if (ci->ssl_mode == MFMY_SSL_DEFAULT)
			{
				mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
							 "invalid ssl_mode \"%s\"", v);
				return false;
			}
		}
		else if (strcmp(k, "client_encoding") == 0)
		{
			/*
			 * The session is always utf8mb4 and values cross as they are:
			 * the local side must be UTF-8 too.
			 */
			if (!mfmy_same(v, "UTF8") && !mfmy_same(v, "UTF-8"))
			{
				mf_error_set(err, MF_STEP_CONNECT, "0A000", 0,
							 "the local database must use the UTF8 encoding to reach MySQL or MariaDB (its encoding is %s)",
							 v);
				return false;
			}
		}

		if (slot != NULL)
		{
			free(*slot);
			*slot = strdup(v);
			if (*slot == NULL)
			{
				mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
				return false;
			}
		}
	}
	return true;
}

/*
 * The connection's settle hook: whatever stream holds the link gives way
 * to the next command.
 */
static void
mfmy_settle(MfConn *conn)
{
	mfmy_load_cut(conn);
	mfmy_stream_spill(conn);
}

static MfConn *
mfmy_connect(const MfConnParams *params, MfError *err)
{
	MfConn	   *conn;

	mf_error_clear(err);
	conn = calloc(1, sizeof(MfConn));
	if (conn == NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}
	if (!mfmy_read_params(params, &conn->info, err))
	{
		mfmy_free_info(&conn->info);
		free(conn);
		return NULL;
	}

	conn->load.server_allows = -1;
	conn->settle = mfmy_settle;
	conn->wire = MF_WIRE_OF(params);
	conn->heard = true;			/* no transaction yet (my_relink.c) */
	if (!mf_params_keep(&conn->kept, params))
	{
		mfmy_free_info(&conn->info);
		free(conn);
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}
	conn->my = mfmy_link(conn, err);
	if (conn->my == NULL)
	{
		mfmy_free_info(&conn->info);
		mf_params_free(&conn->kept);
		free(conn);
		return NULL;
	}
	return conn;
}

/* ---------------------------------------------------------------------
 * Bookkeeping
 * ---------------------------------------------------------------------
 */

static void
mfmy_free_all(MfConn *conn)
{
	while (conn->results)
		mfmy_free_result(conn->results);
	/* the stream went with its result: what it kept parked goes too */
	conn->streaming = NULL;
	mfmy_unpark(conn);
	while (conn->stmts)
		mfmy_free_stmt(conn->stmts);
}

/* ---------------------------------------------------------------------
 * Connection and transactions
 * ---------------------------------------------------------------------
 */

static void
mfmy_disconnect(MfConn *conn)
{
	if (conn == NULL)
		return;

	mfmy_load_settle(conn);
	free(conn->load.hold);
	free(conn->load.data);
	free(conn->load.sql);

	/* statements closed after their connection are only freed */
	if (conn->my != NULL)
	{
		mysql_close(conn->my);
		conn->my = NULL;
	}
	mfmy_free_all(conn);
	mfmy_cache_clear(conn);
	mfmy_free_info(&conn->info);
	mf_params_free(&conn->kept);
	free(conn->scratch);
	free(conn);
}

/*
 * Between commands the server sends nothing unasked, except to say that it
 * is closing the session (killed, timed out, shut down): a socket with
 * something to read, or hung up, means the link is gone.  Not while a
 * result is streamed: its rows are what there is to read.
 */
static bool
mfmy_is_broken(MfConn *conn)
{
	struct pollfd pfd;

	if (conn->broken || conn->my == NULL)
		return true;
	if (conn->streaming != NULL)
		return false;
	pfd.fd = (int) mysql_get_socket(conn->my);
	if (pfd.fd < 0)
		return conn->broken = true;
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) > 0 &&
		(pfd.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) != 0)
		conn->broken = true;
	return conn->broken;
}

/* the server sends nothing unasked: is_broken's look at the socket says it */
static int
mfmy_peer_closed(MfConn *conn)
{
	return mfmy_is_broken(conn) ? 1 : 0;
}

/* the session's connection id (CONNECTION_ID(), what KILL takes) */
static unsigned long
mfmy_remote_session(MfConn *conn)
{
	return conn->my != NULL ? mysql_thread_id(conn->my) : 0;
}

/*
 * Read and drop every result a statement produced, so that the connection
 * is in step with the server again.  Also after a cancel: what the killed
 * statement still sends must be read before anything else is.
 */
static bool
mfmy_drain(MfmyOp *op, MfStep step, long *rows, MfError *err)
{
	MfConn	   *conn = op->conn;

	for (;;)
	{
		int			more;

		if (mysql_field_count(conn->my) > 0)
		{
			MYSQL_RES  *r = mfmy_store_result(op);

			if (r == NULL)
			{
				mfmy_conn_error(conn, step, err);
				return false;
			}
			/* a query reports the rows it returned, as with libpq */
			if (rows)
				*rows = (long) mysql_num_rows(r);
			mysql_free_result(r);
		}
		else if (rows)
			*rows = mfmy_rows(conn->my, mysql_affected_rows(conn->my));

		if (!mysql_more_results(conn->my))
			return true;
		more = mfmy_next_result(op);
		if (more > 0)
		{
			mfmy_conn_error(conn, step, err);
			return false;
		}
		if (more < 0)
			return true;
	}
}

/*
 * One statement in the text protocol.  A cancel or a cut link overrides
 * what the statement came to, once it has been read to its end.
 */
bool
mfmy_command(MfConn *conn, const char *sql, MfStep step, long *rows,
				MfError *err)
{
	MfmyOp		op;
	bool		ok;

	if (!mfmy_usable(conn, step, err))
		return false;
	mfmy_op_start(&op, conn);
	ok = mfmy_real_query(&op, sql, (unsigned long) strlen(sql)) == 0;
	if (!ok)
		mfmy_conn_error(conn, step, err);
	else
		ok = mfmy_drain(&op, step, rows, err);
	if (mfmy_op_interrupted(&op, step, err))
		return false;
	return ok;
}

static bool
mfmy_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err)
{
	if (rows_affected)
		*rows_affected = 0;
	if (!mfmy_command(conn, sql, MF_STEP_EXEC, rows_affected, err) &&
	/* once more on a new link if the first went down with it */
		!(mfmy_relink(conn, err) &&
		  mfmy_command(conn, sql, MF_STEP_EXEC, rows_affected, err)))
		return false;
	mfmy_relay_warnings(conn, mysql_warning_count(conn->my));
	return true;
}

/* The transaction is over on the server: the next begins afresh. */
static void
mfmy_xact_done(MfConn *conn)
{
	conn->sent = false;
	conn->unsure = false;
	conn->heard = false;
}

/*
 * Is there a transaction to end?  None when nothing was sent since begin,
 * nor when the server's last answer says none is open (the statements
 * read or wrote no transactional table, or the last of them committed
 * implicitly, as DDL does) and no command failed since, for an error
 * packet says nothing of the transaction.
 */
static bool
mfmy_xact_to_end(MfConn *conn)
{
	return conn->sent && (conn->unsure || mfmy_in_transaction(conn));
}

static bool
mfmy_is_end_sql(const char *sql)
{
	return strcasecmp(sql, "COMMIT") == 0 || strcasecmp(sql, "ROLLBACK") == 0;
}

/*
 * MySQL's COMMIT cannot turn into a rollback silently: a statement that
 * failed in the transaction was rolled back alone (or the whole transaction
 * with it, reported then), so commit needs no check of its own.  A COMMIT
 * or ROLLBACK with nothing to end is not sent: 0 makes the core call
 * commit or rollback, which send nothing either.
 */
static int
mfmy_exec_send(MfConn *conn, const char *sql, MfError *err)
{
	MfmyOp		op;
	bool		ok;

	if (strcasecmp(sql, "ROLLBACK") == 0)
		mfmy_stream_discard(conn);
	if (!mfmy_usable(conn, MF_STEP_TRANSACTION, err))
		return -1;
	if (mfmy_is_end_sql(sql) && !mfmy_xact_to_end(conn))
		return 0;
	mfmy_op_start(&op, conn);
	ok = mfmy_send_query(&op, sql, (unsigned long) strlen(sql)) == 0;
	if (mfmy_op_interrupted(&op, MF_STEP_TRANSACTION, err))
		return -1;
	if (!ok)
	{
		mfmy_conn_error(conn, MF_STEP_TRANSACTION, err);
		return -1;
	}
	return 1;
}

static bool
mfmy_exec_finish(MfConn *conn, bool commit, MfError *err)
{
	MfmyOp		op;
	bool		ok;

	mfmy_op_start(&op, conn);
	ok = mfmy_read_query_result(&op) == 0;
	if (!ok)
		mfmy_conn_error(conn, MF_STEP_TRANSACTION, err);
	else
		ok = mfmy_drain(&op, MF_STEP_TRANSACTION, NULL, err);
	if (mfmy_op_interrupted(&op, MF_STEP_TRANSACTION, err))
		return false;
	if (ok && commit)
		mfmy_xact_done(conn);
	return ok;
}

/*
 * COMMIT or ROLLBACK, sent only when there is a transaction to end.  A
 * ROLLBACK drops a streamed result that is still coming rather than read
 * it in; a COMMIT reads it in (mfmy_usable), in case it is still wanted.
 */
static bool
mfmy_end(MfConn *conn, bool commit, MfError *err)
{
	MfmyOp		op;
	my_bool		failed;

	if (!commit)
		mfmy_stream_discard(conn);
	if (!mfmy_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	if (!mfmy_xact_to_end(conn))
	{
		mfmy_xact_done(conn);
		return true;
	}
	mfmy_op_start(&op, conn);
	failed = mfmy_commit_call(&op, commit);
	if (mfmy_op_interrupted(&op, MF_STEP_TRANSACTION, err))
		return false;
	if (failed)
	{
		mfmy_conn_error(conn, MF_STEP_TRANSACTION, err);
		return false;
	}
	mfmy_xact_done(conn);
	return true;
}

static bool
mfmy_commit(MfConn *conn, MfError *err)
{
	return mfmy_end(conn, true, err);
}

static bool
mfmy_rollback(MfConn *conn, MfError *err)
{
	return mfmy_end(conn, false, err);
}

/* ---------------------------------------------------------------------
 * Beginning a transaction
 * ---------------------------------------------------------------------
 */


/* Skip white space and one word (case aside), if it is the next one. */
static bool
mfmy_word(const char **p, const char *word)
{
	const char *s = *p;
	size_t		n = strlen(word);

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (strncasecmp(s, word, n) != 0 ||
		(s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
		(s[n] >= '0' && s[n] <= '9') || s[n] == '_')
		return false;
	*p = s + n;
	return true;
}

/*
 * Does begin_sql do nothing but open a transaction, perhaps in an isolation
 * level of its own?  "START TRANSACTION", or "SET TRANSACTION ISOLATION
 * LEVEL x", alone or followed by "; START TRANSACTION" (MySQL's START
 * TRANSACTION cannot name a level), which may end in READ ONLY.  *level:
 * that level, NULL for the session's own; *read_only: READ ONLY was said.
 * Anything else (XA START, WITH CONSISTENT SNAPSHOT) is a statement to
 * send.
 */
static bool
mfmy_implicit_begin(const char *sql, const char **level, bool *read_only)
{
	const char *p = sql;

	*level = NULL;
	*read_only = false;
	if (sql == NULL)
		return true;
	if (mfmy_word(&p, "SET"))
	{
		if (!mfmy_word(&p, "TRANSACTION") || !mfmy_word(&p, "ISOLATION") ||
			!mfmy_word(&p, "LEVEL"))
			return false;
		if (mfmy_word(&p, "READ"))
		{
			if (mfmy_word(&p, "UNCOMMITTED"))
				*level = mfmy_levels[0];
			else if (mfmy_word(&p, "COMMITTED"))
				*level = mfmy_levels[1];
			else
				return false;
		}
		else if (mfmy_word(&p, "REPEATABLE") && mfmy_word(&p, "READ"))
			*level = mfmy_levels[2];
		else if (mfmy_word(&p, "SERIALIZABLE"))
			*level = mfmy_levels[3];
		else
			return false;
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (*p == ';')
		{
			p++;
			(void) (mfmy_word(&p, "START") && mfmy_word(&p, "TRANSACTION"));
		}
	}
	else if (!mfmy_word(&p, "START") || !mfmy_word(&p, "TRANSACTION"))
		return false;
	if (mfmy_word(&p, "READ"))
	{
		if (!mfmy_word(&p, "ONLY"))
			return false;
		*read_only = true;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ';')
		p++;
	return *p == '\0';
}

/*
 * Open a remote transaction, in the next request rather than an exchange
 * of its own: with autocommit off, the first statement opens it, so a
 * plain START TRANSACTION is not sent at all.  What begin_sql says beyond
 * that (XA START for two-phase commit) is sent as it is.
 */
static bool
mfmy_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	const char *level;
	bool		read_only;
	bool		implicit = mfmy_implicit_begin(begin_sql, &level, &read_only);

	if (!mfmy_usable(conn, MF_STEP_TRANSACTION, err))
		return false;

	/*
	 * No exchange tells now whether the server closed the link while the
	 * connection was idle (restarted, timed out): the socket does, and the
	 * core then reconnects, as it does when a START TRANSACTION fails.
	 */
	if (mfmy_is_broken(conn))
	{
		mfmy_fail(conn, err, MF_STEP_TRANSACTION, "08006",
				  "connection to the remote server was lost");
		return false;
	}

	/*
	 * A transaction that something outside ours opened (a session_sql
	 * that reads a table) is committed first, as START TRANSACTION would,
	 * so that ours does not go on in it with its snapshot.
	 */
	if (conn->unsure || mfmy_in_transaction(conn))
	{
		conn->sent = true;
		if (!mfmy_end(conn, true, err))
			return false;
	}

	if (implicit)
	{
		if (conn->modes_unsure ? !mfmy_set_modes(conn, level, read_only, err) :
			(!mfmy_set_isolation(conn, level, err) ||
			 !mfmy_set_read_only(conn, read_only, err)))
			return false;
		mfmy_xact_done(conn);
		return true;
	}
	mfmy_xact_done(conn);
	return mfmy_command(conn, begin_sql, MF_STEP_TRANSACTION, NULL, err);
}

static bool
mfmy_cancel(MfConn *conn, MfError *err)
{
	mf_error_clear(err);
	if (conn->my == NULL)
	{
		mfmy_fail(conn, err, MF_STEP_CANCEL, "08006",
					 "connection to the remote server was lost");
		return false;
	}
	return mfmy_kill_query(conn, err);
}

/*
 * The transaction is over: every statement and cursor goes.  Their handles
 * stay prepared in the connection's cache, except those whose cursor was
 * left open (see mfmy_cache_xact_end).
 */
static void
mfmy_forget_all(MfConn *conn)
{
	if (conn->load.in_flight || conn->load.open)
		mfmy_load_settle(conn);
	mfmy_free_all(conn);
	mfmy_cache_xact_end(conn);
}

static const char *
mfmy_server_version(MfConn *conn)
{
	const char *v;

	if (conn->my == NULL)
		return NULL;
	v = mysql_get_server_info(conn->my);
	if (v == NULL)
		return NULL;
	mf_error_copy(conn->version, sizeof(conn->version), v);
	return conn->version;
}

/* A password_only connection could log in by its password alone. */
static bool
mfmy_used_password(MfConn *conn)
{
	return conn->info.password_only;
}

/* MariaDB's bulk execution, not plain MySQL: one round trip per call */
static bool
mfmy_arrays_native(MfConn *conn)
{
	return conn->bulk;
}

/*
 * The cap on a request.  Read before anything is sent for an INSERT, so
 * that the core can cut statements under it; a LOAD DATA is never open
 * then (the core has claimed the connection).
 */
static bool
mfmy_max_packet(MfConn *conn, size_t *bytes, MfError *err)
{
	if (!mfmy_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	if (!mfmy_read_max_packet(conn, err) &&
		!(mfmy_relink(conn, err) && mfmy_read_max_packet(conn, err)))
		return false;
	*bytes = conn->max_packet;
	return true;
}

/*
 * The connection keywords (read by mfmy_read_params).  The ones naming a
 * file of this host are a superuser's.
 */
static const char *const mfmy_ssl_modes[] = {"disabled", "preferred",
"required", "verify_ca", "verify_identity", NULL};
static const char *const mfmy_zero_dates[] = {"null", "error", NULL};

#define MFMY_KW(name)		{name, MF_KW_SERVER, false, false, NULL}
#define MFMY_KW_FILE(name)	{name, MF_KW_SERVER, false, true, NULL}

static const MfConnKeyword mfmy_keywords[] = {
	{"user", MF_KW_USER, false, false, NULL},
	{"password", MF_KW_USER, true, false, NULL},
	MFMY_KW("host"),
	MFMY_KW("port"),
	MFMY_KW("connect_timeout"),
	MFMY_KW("database"),
	MFMY_KW_FILE("unix_socket"),
	MFMY_KW_FILE("ssl_key"),
	MFMY_KW_FILE("ssl_cert"),
	MFMY_KW_FILE("ssl_ca"),
	{"ssl_mode", MF_KW_SERVER, false, false, mfmy_ssl_modes},
	MFMY_KW("init_command"),
	{"zero_date", MF_KW_SERVER, false, false, mfmy_zero_dates},
	MFMY_KW("character_set"),
	{NULL}
};

const MfTransport mf_transport_mysql = {
	.name = "mysql",
	.sql_transaction_control = true,
	.keywords = mfmy_keywords,
	.markers = MF_MARKERS_POSITIONAL,
	.max_packet_setting = "max_allowed_packet",
	.streams_any_result = true,

	.connect = mfmy_connect,
	.disconnect = mfmy_disconnect,
	.is_broken = mfmy_is_broken,
	.exec = mfmy_exec,
	.begin = mfmy_begin,
	.commit = mfmy_commit,
	.exec_send = mfmy_exec_send,
	.exec_finish = mfmy_exec_finish,
	.rollback = mfmy_rollback,
	.prepare = mfmy_prepare_retry,
	.execute = mfmy_execute_retry,
	.stmt_close = mfmy_stmt_close,
	.query = mfmy_query_retry,
	.fetch = mfmy_fetch,
	.ncolumns = mfmy_ncolumns,
	.value = mfmy_value,
	.result_close = mfmy_result_close,
	.column_name = mfmy_column_name,
	.cancel = mfmy_cancel,
	.forget_all = mfmy_forget_all,
	.session_unsure = mfmy_session_unsure,
	.session_kept = mfmy_session_kept,

	.server_version = mfmy_server_version,
	.used_password = mfmy_used_password,
	.execute_array = mfmy_execute_array_retry,
	.arrays_native = mfmy_arrays_native,
	.copy_available = mfmy_copy_available,
	.copy_begin = mfmy_copy_begin,
	.copy_send = mfmy_copy_send,
	.copy_end = mfmy_copy_end,
	.max_packet = mfmy_max_packet,
	.remote_session = mfmy_remote_session,
	.peer_closed = mfmy_peer_closed,
	.holds_link = mfmy_holds_link,
	.drop_stream = mfmy_stream_discard,
	.xact_state = mfmy_xact_state,
};
