/*-------------------------------------------------------------------------
 *
 * my_wire.c
 *		The mysql transport's wire: errors, the non-blocking call
 *		wrappers and their waits, cancel.
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
 * Errors
 * ---------------------------------------------------------------------
 */

static bool
mfmy_lost_code(unsigned int code)
{
	return code == CR_SERVER_GONE_ERROR || code == CR_SERVER_LOST ||
		code == CR_SERVER_LOST_EXTENDED;
}

void
mfmy_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
			 const char *message)
{
	mf_error_fail(err, step, sqlstate, conn != NULL && conn->broken, message);
}

/* An error the library reported, on the connection or on a statement. */
void
mfmy_error(MfConn *conn, MfStep step, unsigned int code,
			  const char *sqlstate, const char *message, MfError *err)
{
	bool		lost = mfmy_lost_code(code) || conn->broken;

	if (lost)
		conn->broken = true;
	conn->unsure = true;
	if (sqlstate == NULL || sqlstate[0] == '\0' ||
		strcmp(sqlstate, "00000") == 0)
		sqlstate = lost ? "08006" : "XX000";
	if (message == NULL || message[0] == '\0')
		message = lost ? "connection to the remote server was lost" :
			"the remote server gave no error message";
	mf_error_clear(err);
	mf_error_set(err, step, sqlstate, (long) code, "%s", message);
	err->conn_lost = lost;
}

void
mfmy_conn_error(MfConn *conn, MfStep step, MfError *err)
{
	const char *state = mysql_sqlstate(conn->my);

	/* our local-infile handler refused what the server asked for */
	if (mysql_errno(conn->my) == MFMY_INFILE_REFUSED &&
		conn->load.refusal[0] != '\0' &&
		strcmp(mysql_error(conn->my), conn->load.refusal) == 0)
		state = "42501";
	mfmy_error(conn, step, mysql_errno(conn->my), state,
				  mysql_error(conn->my), err);
}

void
mfmy_stmt_error(MfConn *conn, MYSQL_STMT *st, MfStep step, MfError *err)
{
	unsigned int code = mysql_stmt_errno(st);

	/*
	 * An error packet that arrives while the rows of a statement without a
	 * cursor are read off the socket (an overflow in the tenth row) is left
	 * on the connection's handle, not the statement's.
	 */
	if (code == 0 && conn->my != NULL && mysql_errno(conn->my) != 0)
	{
		mfmy_error(conn, step, mysql_errno(conn->my), mysql_sqlstate(conn->my),
				   mysql_error(conn->my), err);
		return;
	}
	mfmy_error(conn, step, code, mysql_stmt_sqlstate(st),
				  mysql_stmt_error(st), err);
}

void
mfmy_oom(MfConn *conn, MfStep step, MfError *err)
{
	mfmy_fail(conn, err, step, "53200", "out of memory");
}

bool
mfmy_usable(MfConn *conn, MfStep step, MfError *err)
{
	/* a LOAD DATA stream still open is ended first (see mfmy_load_cut) */
	if (conn->settle != NULL)
		conn->settle(conn);
	if (conn->broken || conn->my == NULL)
	{
		conn->broken = true;
		mfmy_fail(conn, err, step, "08006",
					 "connection to the remote server was lost");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------------
 * Waiting, cancelling
 * ---------------------------------------------------------------------
 */

/*
 * Ask the server to stop the session's current statement: KILL QUERY from
 * a second connection with the same parameters.  The session survives,
 * its statement fails with ER_QUERY_INTERRUPTED.
 */
bool
mfmy_kill_query(MfConn *conn, MfError *err)
{
	MYSQL	   *side;
	char		sql[64];
	bool		ok;

	side = mfmy_open(&conn->info, NULL, NULL, MFMY_KILL_TIMEOUT, err);
	if (side == NULL)
	{
		err->step = MF_STEP_CANCEL;
		return false;
	}
	snprintf(sql, sizeof(sql), "KILL QUERY %lu", conn->thread_id);
	ok = mysql_real_query(side, sql, strlen(sql)) == 0;
	if (!ok)
	{
		mf_error_set(err, MF_STEP_CANCEL, "08001", (long) mysql_errno(side),
					 "%s", mysql_error(side));
	}
	mysql_close(side);
	return ok;
}

/*
 * The link cannot be watched any more: cut it, so that the library's next
 * read fails at once and the command in flight ends in an error.
 */
static void
mfmy_cut(MfmyOp *op, int sock)
{
	op->cut = true;
	op->conn->broken = true;
	if (sock >= 0)
		(void) shutdown(sock, SHUT_RDWR);
}

/*
 * Wait for what the library asked for and return the status to continue
 * with.  A user's cancel kills the remote statement and switches to a
 * bounded wait of our own for its end (the core's wait would keep
 * reporting the cancel).  Never fails: when the wait is impossible the
 * link is cut and the library finds out by itself.
 */
int
mfmy_wait(MfmyOp *op, int status)
{
	MfConn	   *conn = op->conn;
	int			sock = (int) mysql_get_socket(conn->my);
	bool		for_write = (status & MYSQL_WAIT_WRITE) != 0;
	int			ready = for_write ? MYSQL_WAIT_WRITE : MYSQL_WAIT_READ;

	if (op->cut)
		return ready;
	if (sock < 0)
	{
		mfmy_cut(op, sock);
		return ready;
	}

	if ((status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE)) == 0)
	{
		/* only a timeout: the library's own, never set by us */
		long long	until = mf_now_ms() + mysql_get_timeout_value_ms(conn->my);

		(void) mf_poll_until(sock, false, until);
		return MYSQL_WAIT_TIMEOUT;
	}

	if (!op->cancelled)
	{
		long long	t0 = mf_now_us();
		int			rc = mf_wait_socket(sock, for_write);

		conn->wire->wait_us += (unsigned long long) (mf_now_us() - t0);

		if (rc > 0)
			return ready;
		if (rc < 0)
		{
			mfmy_cut(op, sock);
			return ready;
		}

		/* the user cancelled: stop the remote statement, then wind down */
		mfmy_op_stop(op);
		if (op->cut)
			return ready;
	}
	{
		long long	t0 = mf_now_us();

		if (!mf_poll_until(sock, for_write, op->deadline))
			mfmy_cut(op, sock);
		conn->wire->wait_us += (unsigned long long) (mf_now_us() - t0);
	}
	return ready;
}

/*
 * Stop the command in flight as a cancel does: KILL QUERY, then a bounded
 * wait of mfmy_wait's for what the killed statement still sends; the link
 * is cut when the kill cannot be sent.
 */
void
mfmy_op_stop(MfmyOp *op)
{
	MfError		ignored;

	op->cancelled = true;
	op->deadline = mf_now_ms() + MFMY_SETTLE_MS;
	mf_error_clear(&ignored);
	if (!mfmy_kill_query(op->conn, &ignored))
		mfmy_cut(op, (int) mysql_get_socket(op->conn->my));
}

/*
 * An abort winds down the command in flight, whose outcome no longer
 * matters.  No cancel reaches mfmy_wait then (the one being processed is
 * spent, and the abort holds off new ones), so a command that waits on
 * the server (a row lock) would hold the abort as long as it waits: unless
 * its answer is already there, it is stopped now.
 */
void
mfmy_op_abandon(MfmyOp *op)
{
	int			sock;

	if (op->cancelled || op->cut || op->conn->my == NULL)
		return;
	sock = (int) mysql_get_socket(op->conn->my);
	if (sock < 0 || mf_poll_until(sock, false, mf_now_ms() + 1))
		return;
	mfmy_op_stop(op);
}

void
mfmy_op_start(MfmyOp *op, MfConn *conn)
{
	op->conn = conn;
	op->cancelled = false;
	op->cut = false;
	op->deadline = 0;
}

/*
 * After a command: a cancel or a cut link overrides whatever the command
 * itself came to.  Returns false with err filled when either happened.
 */
bool
mfmy_op_interrupted(MfmyOp *op, MfStep step, MfError *err)
{
	if (op->cancelled || op->cut)
		op->conn->unsure = true;
	if (op->cancelled)
	{
		mfmy_fail(op->conn, err, step, "57014",
					 "canceling statement due to user request");
		return true;
	}
	if (op->cut)
	{
		mfmy_fail(op->conn, err, step, "08006",
					 "could not wait for the remote server");
		err->conn_lost = true;
		return true;
	}
	return false;
}

/*
 * The non-blocking calls, each run to its end.  They return what their
 * blocking twins return.
 */
int
mfmy_real_query(MfmyOp *op, const char *sql, unsigned long len)
{
	int			ret = 1;
	int			status;

	op->conn->wire->round_trips++;
	op->conn->wire->bytes_sent += len;
	op->conn->sent = true;
	status = mysql_real_query_start(&ret, op->conn->my, sql, len);

	while (status)
		status = mysql_real_query_cont(&ret, op->conn->my, mfmy_wait(op, status));
	if (ret == 0)
		op->conn->heard = true;
	return ret;
}

MYSQL_RES *
mfmy_store_result(MfmyOp *op)
{
	MYSQL_RES  *ret = NULL;
	int			status = mysql_store_result_start(&ret, op->conn->my);

	while (status)
		status = mysql_store_result_cont(&ret, op->conn->my, mfmy_wait(op, status));
	return ret;
}

int
mfmy_next_result(MfmyOp *op)
{
	int			ret = -1;
	int			status = mysql_next_result_start(&ret, op->conn->my);

	while (status)
		status = mysql_next_result_cont(&ret, op->conn->my, mfmy_wait(op, status));
	return ret;
}

/* the two halves of mfmy_real_query, for several servers at once */
int
mfmy_send_query(MfmyOp *op, const char *sql, unsigned long len)
{
	int			ret = 1;
	int			status;

	/* the round trip is counted when its answer is read */
	op->conn->wire->bytes_sent += len;
	op->conn->sent = true;
	status = mysql_send_query_start(&ret, op->conn->my, sql, len);

	while (status)
		status = mysql_send_query_cont(&ret, op->conn->my, mfmy_wait(op, status));
	return ret;
}

my_bool
mfmy_read_query_result(MfmyOp *op)
{
	my_bool		ret = 1;
	int			status;

	op->conn->wire->round_trips++;
	status = mysql_read_query_result_start(&ret, op->conn->my);

	while (status)
		status = mysql_read_query_result_cont(&ret, op->conn->my,
											  mfmy_wait(op, status));
	if (ret == 0)
		op->conn->heard = true;
	return ret;
}

my_bool
mfmy_commit_call(MfmyOp *op, bool commit)
{
	my_bool		ret = 1;
	int			status;

	op->conn->wire->round_trips++;
	op->conn->sent = true;
	status = commit ? mysql_commit_start(&ret, op->conn->my) :
		mysql_rollback_start(&ret, op->conn->my);

	while (status)
		status = commit ?
			mysql_commit_cont(&ret, op->conn->my, mfmy_wait(op, status)) :
			mysql_rollback_cont(&ret, op->conn->my, mfmy_wait(op, status));
	return ret;
}

int
mfmy_stmt_prepare(MfmyOp *op, MYSQL_STMT *st, const char *sql)
{
	int			ret = 1;
	int			status;

	op->conn->wire->round_trips++;
	op->conn->wire->bytes_sent += strlen(sql);
	op->conn->sent = true;
	status = mysql_stmt_prepare_start(&ret, st, sql, strlen(sql));

	while (status)
		status = mysql_stmt_prepare_cont(&ret, st, mfmy_wait(op, status));
	if (ret == 0)
		op->conn->heard = true;
	return ret;
}

int
mfmy_stmt_execute(MfmyOp *op, MYSQL_STMT *st)
{
	int			ret = 1;
	int			status;

	op->conn->wire->round_trips++;
	op->conn->sent = true;
	status = mysql_stmt_execute_start(&ret, st);

	while (status)
		status = mysql_stmt_execute_cont(&ret, st, mfmy_wait(op, status));
	if (ret == 0)
		op->conn->heard = true;
	return ret;
}

int
mfmy_stmt_fetch(MfmyOp *op, MYSQL_STMT *st)
{
	int			ret = 1;
	int			status = mysql_stmt_fetch_start(&ret, st);

	while (status)
		status = mysql_stmt_fetch_cont(&ret, st, mfmy_wait(op, status));
	return ret;
}

/*
 * Forget a statement's rows on the client; rows of a result read without a
 * cursor that are still on their way are read and dropped (no request: the
 * rest of an answer).
 */
my_bool
mfmy_stmt_free_result(MfmyOp *op, MYSQL_STMT *st)
{
	my_bool		ret = 1;
	int			status = mysql_stmt_free_result_start(&ret, st);

	while (status)
		status = mysql_stmt_free_result_cont(&ret, st, mfmy_wait(op, status));
	return ret;
}

/*
 * The results a statement has after the one read, all read and dropped so
 * that the link is in step again: a procedure's CALL ends with a status of
 * its own, and may return more than one set of rows.  The sets of rows
 * among them are counted; -1: an error, the statement's.  A statement
 * without more (every one but a CALL) costs nothing here.
 */
int
mfmy_stmt_drain_results(MfmyOp *op, MYSQL_STMT *st)
{
	int			sets = 0;

	while (mysql_stmt_more_results(st))
	{
		int			ret = 1;
		int			status;

		(void) mfmy_stmt_free_result(op, st);
		status = mysql_stmt_next_result_start(&ret, st);
		while (status)
			status = mysql_stmt_next_result_cont(&ret, st, mfmy_wait(op, status));
		if (ret > 0)
			return -1;
		if (ret < 0)
			break;
		if (mysql_stmt_field_count(st) > 0)
			sets++;
	}
	(void) mfmy_stmt_free_result(op, st);
	return sets;
}

/*
 * Does the session have a transaction open, as the server's last answer
 * said?  (Only an answer that is not an error says.)
 */
bool
mfmy_in_transaction(MfConn *conn)
{
	unsigned int status = 0;

	if (conn->my == NULL ||
		mariadb_get_infov(conn->my, MARIADB_CONNECTION_SERVER_STATUS, &status))
		return true;
	return (status & SERVER_STATUS_IN_TRANS) != 0;
}

int
mfmy_stmt_store(MfmyOp *op, MYSQL_STMT *st)
{
	int			ret = 1;
	int			status = mysql_stmt_store_result_start(&ret, st);

	while (status)
		status = mysql_stmt_store_result_cont(&ret, st, mfmy_wait(op, status));
	return ret;
}

/*
 * Close a statement handle: COM_STMT_CLOSE, which has no answer.  The link
 * must be in step first, for Connector/C would otherwise read what another
 * statement's stream still sends as this one's.  On a lost link the handle
 * is detached first (closing the connection does that), so that closing it
 * does not talk to a server that is gone.
 */
void
mfmy_close_handle(MfConn *conn, MYSQL_STMT *st)
{
	if (st == NULL)
		return;
	if (!conn->broken && conn->my != NULL && conn->settle != NULL)
		conn->settle(conn);
	if (conn->broken && conn->my != NULL)
	{
		mysql_close(conn->my);
		conn->my = NULL;
	}
	if (conn->my != NULL)
	{
		MfmyOp		op;
		my_bool		ret = 0;
		int			status;

		mfmy_op_start(&op, conn);
		status = mysql_stmt_close_start(&ret, st);
		while (status)
			status = mysql_stmt_close_cont(&ret, st, mfmy_wait(&op, status));
		if (op.cut)
			conn->broken = true;
	}
	else
		(void) mysql_stmt_close(st);
}

/* ---------------------------------------------------------------------
 * Opening a connection, reading what a command reports
 * ---------------------------------------------------------------------
 */

/*
 * A connected handle, or NULL with err filled.  infile_conn: the main
 * connection, prepared for the *_start / *_cont calls and for our own LOAD
 * DATA LOCAL INFILE, whose handler serve installs; NULL (and serve NULL)
 * for the side connection of a cancel.
 */
MYSQL *
mfmy_open(const MfmyConnInfo *ci, MfmyServeFn serve, MfConn *infile_conn,
		  unsigned int timeout, MfError *err)
{
	MYSQL	   *my = mysql_init(NULL);
	bool		nonblock = infile_conn != NULL;
	unsigned int infile = infile_conn != NULL ? 1 : 0;
	my_bool		yes = 1;
	my_bool		no = 0;
	bool		ok = true;

	if (my == NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}

	/*
	 * The server must never make this process read one of its files.  The
	 * main connection says it can send a local file, for our own LOAD
	 * DATA, but its handler serves only the rows of the LOAD DATA it is
	 * running, under the name it issued for it, and refuses anything else
	 * (serve: mfmy_infile_serve); the library's own handler, which opens
	 * files, is never installed.  The side connection of a cancel says no.
	 */
	ok &= mysql_optionsv(my, MYSQL_OPT_LOCAL_INFILE, &infile) == 0;
	if (infile_conn != NULL)
		serve(my, infile_conn);
	ok &= mysql_optionsv(my, MYSQL_OPT_RECONNECT, &no) == 0;
	ok &= mysql_optionsv(my, MYSQL_SET_CHARSET_NAME,
						 ci->character_set ? ci->character_set : "utf8mb4") == 0;
	if (timeout == 0)
		timeout = ci->connect_timeout;
	if (timeout > 0)
		ok &= mysql_optionsv(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout) == 0;
	if (ci->init_command)
		ok &= mysql_optionsv(my, MYSQL_INIT_COMMAND, ci->init_command) == 0;

	/*
	 * A non-superuser's login must succeed by its password alone: over TCP
	 * (a socket would let unix_socket authentication take this process's
	 * OS user instead), and only with plugins that prove the password
	 * (not GSSAPI's ticket of this host, not PAM's dialog).  An account
	 * without a password refuses the non-empty one the core insists on.
	 */
	if (ci->password_only)
	{
		unsigned int tcp = MYSQL_PROTOCOL_TCP;

		ok &= mysql_optionsv(my, MYSQL_OPT_PROTOCOL, &tcp) == 0;
		ok &= mysql_optionsv(my, MARIADB_OPT_RESTRICTED_AUTH,
							 "mysql_native_password,client_ed25519,"
							 "caching_sha2_password,sha256_password") == 0;
	}

	if (ci->ssl_mode != MFMY_SSL_DISABLED)
	{
		if (ci->ssl_key)
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_KEY, ci->ssl_key) == 0;
		if (ci->ssl_cert)
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_CERT, ci->ssl_cert) == 0;
		if (ci->ssl_ca)
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_CA, ci->ssl_ca) == 0;
	}
	switch (ci->ssl_mode)
	{
		case MFMY_SSL_DEFAULT:
		case MFMY_SSL_PREFERRED:
			break;
		case MFMY_SSL_DISABLED:
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_ENFORCE, &no) == 0;
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &no) == 0;
			break;
		case MFMY_SSL_REQUIRED:
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_ENFORCE, &yes) == 0;
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &no) == 0;
			break;
		case MFMY_SSL_VERIFY_CA:
		case MFMY_SSL_VERIFY_IDENTITY:
			/* Connector/C checks the chain and the host name together */
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_ENFORCE, &yes) == 0;
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &yes) == 0;
			break;
	}
	if (nonblock)
		ok &= mysql_optionsv(my, MYSQL_OPT_NONBLOCK, 0) == 0;

	if (!ok)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", 0,
					 "could not set the connection options: %s",
					 mysql_error(my)[0] ? mysql_error(my) : "refused by the client library");
		mysql_close(my);
		return NULL;
	}

	/*
	 * No CLIENT_FOUND_ROWS: an update that changes nothing (the dialect's
	 * ON DUPLICATE KEY no-op) must count 0 rows.  No multi-statements.
	 */
	if (mysql_real_connect(my, ci->host, ci->user, ci->password, ci->database,
						   ci->port, ci->unix_socket, CLIENT_MULTI_RESULTS) == NULL)
	{
		const char *state = mysql_sqlstate(my);

		/* "HY000" says nothing; a connection that failed is class 08 */
		if (state == NULL || state[0] == '\0' || strncmp(state, "HY", 2) == 0 ||
			strcmp(state, "00000") == 0)
			state = "08001";
		mf_error_set(err, MF_STEP_CONNECT, state, (long) mysql_errno(my), "%s",
					 mysql_error(my)[0] ? mysql_error(my) :
					 "could not connect to the remote server");
		mysql_close(my);
		return NULL;
	}

	/*
	 * Some Connector/C versions take MYSQL_OPT_SSL_ENFORCE alone as a wish
	 * and go on in clear text with a server that has no TLS: check.
	 */
	if (ci->ssl_mode >= MFMY_SSL_REQUIRED && mysql_get_ssl_cipher(my) == NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", 0,
					 "ssl_mode \"%s\" needs an encrypted connection, and the server does not offer one",
					 ci->ssl_mode == MFMY_SSL_REQUIRED ? "required" :
					 ci->ssl_mode == MFMY_SSL_VERIFY_CA ? "verify_ca" :
					 "verify_identity");
		mysql_close(my);
		return NULL;
	}

	/*
	 * The session speaks utf8mb4 whatever the handshake's character_set
	 * said: every character of our UTF-8 text fits (MySQL's "utf8" stops
	 * at three bytes).  Unlike SET NAMES, this tells the library too.
	 */
	if (mysql_set_character_set(my, "utf8mb4") != 0)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", (long) mysql_errno(my),
					 "could not set the session's character set to utf8mb4: %s",
					 mysql_error(my));
		mysql_close(my);
		return NULL;
	}
	return my;
}

/*
 * What an UPDATE counts.  Without CLIENT_FOUND_ROWS the server reports the
 * rows it changed, and a row set to the values it already had is not
 * among them; PostgreSQL counts every row the UPDATE found, and its info
 * line ("Rows matched: N  Changed: M  Warnings: W") says how many.  Other
 * statements report affected rows, which is what the dialect's no-op ON
 * DUPLICATE KEY UPDATE relies on.
 */
long
mfmy_rows(MYSQL *my, unsigned long long affected)
{
	const char *info = mysql_info(my);
	const char *m;

	if (info != NULL && (m = strstr(info, "Rows matched: ")) != NULL)
		return strtol(m + 14, NULL, 10);
	if (affected == (unsigned long long) -1)
		return 0;
	return affected > (unsigned long long) LONG_MAX ? LONG_MAX : (long) affected;
}

bool
mfmy_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char	   *end;
	unsigned long v;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	while (*end == ' ')
		end++;
	if (errno != 0 || *end != '\0' || v > max)
		return false;
	*out = v;
	return true;
}

/*
 * Is the session in a transaction?  The server's status flags of its last
 * answer say: autocommit on is outside any (the session runs with it off);
 * IN_TRANS is set once a statement touched a transactional table, so
 * without it the session may or may not have begun one.
 */
MfXactState
mfmy_xact_state(MfConn *conn)
{
	if (conn->my == NULL)
		return MF_XS_UNKNOWN;
	if (conn->my->server_status & SERVER_STATUS_AUTOCOMMIT)
		return MF_XS_IDLE;
	if (conn->my->server_status & SERVER_STATUS_IN_TRANS)
		return MF_XS_OPEN;
	return MF_XS_UNKNOWN;
}
