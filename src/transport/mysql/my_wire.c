/*-------------------------------------------------------------------------
 *
 * my_wire.c
 *		The mysql transport's wire: errors, the non-blocking call
 *		wrappers and their waits, cancel.
 *
 * Part of the mysql transport (see my_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only Connector/C's.
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
	mfmy_error(conn, step, mysql_stmt_errno(st), mysql_stmt_sqlstate(st),
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

	side = mfmy_open(&conn->info, NULL, MFMY_KILL_TIMEOUT, err);
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
		int			rc = mf_wait_socket(sock, for_write);

		if (rc > 0)
			return ready;
		if (rc < 0)
		{
			mfmy_cut(op, sock);
			return ready;
		}

		/* the user cancelled: stop the remote statement, then wind down */
		{
			MfError		ignored;

			op->cancelled = true;
			op->deadline = mf_now_ms() + MFMY_SETTLE_MS;
			mf_error_clear(&ignored);
			if (!mfmy_kill_query(conn, &ignored))
			{
				mfmy_cut(op, sock);
				return ready;
			}
		}
	}
	if (!mf_poll_until(sock, for_write, op->deadline))
		mfmy_cut(op, sock);
	return ready;
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
	int			status = mysql_real_query_start(&ret, op->conn->my, sql, len);

	while (status)
		status = mysql_real_query_cont(&ret, op->conn->my, mfmy_wait(op, status));
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

my_bool
mfmy_commit_call(MfmyOp *op, bool commit)
{
	my_bool		ret = 1;
	int			status = commit ? mysql_commit_start(&ret, op->conn->my) :
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
	int			status = mysql_stmt_prepare_start(&ret, st, sql, strlen(sql));

	while (status)
		status = mysql_stmt_prepare_cont(&ret, st, mfmy_wait(op, status));
	return ret;
}

int
mfmy_stmt_execute(MfmyOp *op, MYSQL_STMT *st)
{
	int			ret = 1;
	int			status = mysql_stmt_execute_start(&ret, st);

	while (status)
		status = mysql_stmt_execute_cont(&ret, st, mfmy_wait(op, status));
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
 * Close a statement handle.  On a lost link the handle is detached first
 * (closing the connection does that), so that closing it does not talk to
 * a server that is gone.
 */
void
mfmy_close_handle(MfConn *conn, MYSQL_STMT *st)
{
	if (st == NULL)
		return;
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
