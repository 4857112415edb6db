/*-------------------------------------------------------------------------
 *
 * my_infile.c
 *		The mysql transport's bulk stream: LOAD DATA LOCAL INFILE served
 *		from memory.
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
 * LOAD DATA LOCAL INFILE: the bulk stream
 *
 * The dialect writes "LOAD DATA LOCAL INFILE ? INTO TABLE ...".  Each LOAD
 * DATA gets a file name of our own in place of the ?, and the handler that
 * mfmy_open installed serves the held rows under that name, once, while
 * that statement runs.  Any other request of the server (another name, a
 * second request, a request during any other statement) is refused: the
 * server cannot make this process read a file, nor read rows twice.
 *
 * LOCAL implies IGNORE on the server: a duplicate key or a bad value is a
 * warning and the row is skipped or adjusted, since the server cannot stop
 * the client's stream half way.  So a LOAD DATA that ends with a warning
 * (not a note) fails with that warning as its error, and one that stored
 * another number of rows than it was sent fails too; the core then rolls
 * the remote transaction (or savepoint) back, which undoes it.
 * ---------------------------------------------------------------------
 */

static int
mfmy_infile_init(void **ptr, const char *name, void *userdata)
{
	MfConn	   *conn = userdata;
	MfmyLoad   *ld = &conn->load;

	*ptr = conn;
	if (!ld->armed || name == NULL || strcmp(name, ld->name) != 0)
	{
		snprintf(ld->refusal, sizeof(ld->refusal),
				 "refused the server's request for the local file \"%.200s\": multi_fdw sends only the rows of its own LOAD DATA",
				 name ? name : "");
		return 1;
	}
	ld->armed = false;			/* served once */
	ld->data_pos = 0;
	return 0;
}

static int
mfmy_infile_read(void *ptr, char *buf, unsigned int len)
{
	MfmyLoad   *ld = &((MfConn *) ptr)->load;
	size_t		n = ld->data_len - ld->data_pos;

	if (n > len)
		n = len;
	memcpy(buf, ld->data + ld->data_pos, n);
	ld->data_pos += n;
	if (n == 0)
		ld->eof = true;
	return (int) n;
}

static void
mfmy_infile_end(void *ptr)
{
	(void) ptr;
}

static int
mfmy_infile_error(void *ptr, char *buf, unsigned int len)
{
	MfmyLoad   *ld = &((MfConn *) ptr)->load;

	snprintf(buf, len, "%s", ld->refusal[0] ? ld->refusal :
			 "the local-infile handler failed");
	return MFMY_INFILE_REFUSED;
}

/*
 * Install on my the handler above, serving conn's LOAD DATA rows (the
 * serve argument of mfmy_open, before the connection is made).
 */
void
mfmy_infile_serve(MYSQL *my, MfConn *conn)
{
	mysql_set_local_infile_handler(my, mfmy_infile_init, mfmy_infile_read,
								   mfmy_infile_end, mfmy_infile_error, conn);
}

/*
 * Does the server allow LOAD DATA LOCAL (@@local_infile)?  Asked once per
 * connection (the rule is at MfmyLoad.server_allows).
 */
bool
mfmy_copy_available(MfConn *conn)
{
	MfmyLoad   *ld = &conn->load;
	static const char sql[] = "SELECT @@local_infile";

	if (ld->server_allows < 0 && !ld->open && !ld->in_flight &&
		!conn->broken && conn->my != NULL)
	{
		MfmyOp		op;
		MYSQL_RES  *r = NULL;

		mfmy_stream_spill(conn);
		mfmy_op_start(&op, conn);
		ld->server_allows = 0;
		if (mfmy_real_query(&op, sql, sizeof(sql) - 1) == 0 &&
			(r = mfmy_store_result(&op)) != NULL)
		{
			MYSQL_ROW	row = mysql_fetch_row(r);

			if (row != NULL && row[0] != NULL && strcmp(row[0], "1") == 0)
				ld->server_allows = 1;
		}
		if (r != NULL)
			mysql_free_result(r);
		if (op.cancelled || op.cut)
			ld->server_allows = -1;	/* ask again next time */
	}
	return ld->server_allows == 1;
}

/* Forget the stream: what is held is dropped. */
static void
mfmy_load_close(MfConn *conn)
{
	MfmyLoad   *ld = &conn->load;

	ld->open = false;
	ld->armed = false;
	ld->hold_len = 0;
	ld->hold_rows = 0;
	free(ld->tail);
	ld->tail = NULL;
}

/*
 * The first warning of a LOAD DATA that is not a note, as an error; false
 * when there is none.  The notes before it are relayed (my_messages.c).
 */
static bool
mfmy_load_warning(MfConn *conn, MfError *err)
{
	static const char sql[] = "SHOW WARNINGS";
	MfmyOp		op;
	MYSQL_RES  *r;
	MYSQL_ROW	row;
	bool		found = false;

	mfmy_op_start(&op, conn);
	if (mfmy_real_query(&op, sql, sizeof(sql) - 1) != 0 ||
		(r = mfmy_store_result(&op)) == NULL)
	{
		mfmy_conn_error(conn, MF_STEP_COPY, err);
		(void) mfmy_op_interrupted(&op, MF_STEP_COPY, err);
		return true;
	}
	while ((row = mysql_fetch_row(r)) != NULL)
	{
		unsigned long code = 0;

		if (mysql_num_fields(r) < 3 || row[0] == NULL)
			continue;
		/* a note is no failure: relayed, as any statement's */
		if (strcasecmp(row[0], "Note") == 0)
		{
			(void) mfmy_relay_row(conn, row);
			continue;
		}
		(void) mfmy_parse_uint(row[1] ? row[1] : "", UINT_MAX, &code);
		mfmy_error(conn, MF_STEP_COPY, (unsigned int) code, "HY000",
					  row[2], err);
		found = true;
		break;
	}
	mysql_free_result(r);
	if (mfmy_op_interrupted(&op, MF_STEP_COPY, err))
		return true;
	return found;
}

/* The answer of the LOAD DATA that just ended. */
static bool
mfmy_load_result(MfConn *conn, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	unsigned long long stored = 0;
	unsigned int warnings = 0;

	if (mfmy_op_interrupted(&ld->op, MF_STEP_COPY, err))
		return false;
	if (ld->ret == 0)
	{
		/* read before SHOW WARNINGS replaces them */
		stored = mysql_affected_rows(conn->my);
		warnings = mysql_warning_count(conn->my);
	}
	if (ld->ret != 0)
		mfmy_conn_error(conn, MF_STEP_COPY, err);
	else if (warnings > 0 && mfmy_load_warning(conn, err))
		;
	else if (stored != (unsigned long long) ld->data_rows)
		mf_error_set(err, MF_STEP_COPY, "XX000", 0,
					 "LOAD DATA stored %llu of the %ld rows it was sent",
					 stored, ld->data_rows);
	else
	{
		ld->rows_done += ld->data_rows;
		return true;
	}
	if (!err->conn_lost)
	{
		long		row = mfmy_bulk_row(err->message,
										   ld->data_rows > INT_MAX ? INT_MAX :
										   (int) ld->data_rows);

		if (row > 0)
			err->row = ld->rows_done + row;
	}
	return false;
}

/*
 * Carry the LOAD DATA in flight on.  Unless to_end, return as soon as all
 * its rows are written: the server works on them meanwhile.
 */
static bool
mfmy_load_drive(MfConn *conn, bool to_end, MfError *err)
{
	MfmyLoad   *ld = &conn->load;

	while (ld->status != 0)
	{
		if (!to_end && ld->eof && !ld->op.cancelled && !ld->op.cut &&
			(ld->status & MYSQL_WAIT_READ) && !(ld->status & MYSQL_WAIT_WRITE))
			return true;
		ld->status = mysql_real_query_cont(&ld->ret, conn->my,
										   mfmy_wait(&ld->op, ld->status));
	}
	ld->in_flight = false;
	ld->armed = false;
	return mfmy_load_result(conn, err);
}

/* Send the held rows as the next LOAD DATA (none may be in flight). */
static bool
mfmy_load_start(MfConn *conn, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	char	   *swap = ld->data;
	size_t		swap_cap = ld->data_cap;
	size_t		len;

	ld->data = ld->hold;
	ld->data_cap = ld->hold_cap;
	ld->data_len = ld->hold_len;
	ld->data_rows = ld->hold_rows;
	ld->data_pos = 0;
	ld->hold = swap;
	ld->hold_cap = swap_cap;
	ld->hold_len = 0;
	ld->hold_rows = 0;

	ld->counter++;
	snprintf(ld->name, sizeof(ld->name), "multi_fdw-load-%010lu-%06lu.tsv",
			 conn->thread_id, ld->counter);
	free(ld->sql);
	len = strlen("LOAD DATA LOCAL INFILE ''") + strlen(ld->name) +
		strlen(ld->tail) + 1;
	ld->sql = malloc(len);
	if (ld->sql == NULL)
	{
		mfmy_oom(conn, MF_STEP_COPY, err);
		return false;
	}
	snprintf(ld->sql, len, "LOAD DATA LOCAL INFILE '%s'%s", ld->name, ld->tail);

	ld->armed = true;
	ld->eof = false;
	ld->refusal[0] = '\0';
	ld->ret = 1;
	mfmy_op_start(&ld->op, conn);
	ld->in_flight = true;
	conn->wire->round_trips++;
	conn->sent = true;
	conn->heard = true;			/* not sent again (my_relink.c) */
	conn->wire->bytes_sent += strlen(ld->sql) + ld->data_len;
	ld->status = mysql_real_query_start(&ld->ret, conn->my, ld->sql,
										(unsigned long) strlen(ld->sql));
	return mfmy_load_drive(conn, false, err);
}

/* Answer the LOAD DATA in flight, then send the held rows; final: wait. */
static bool
mfmy_load_flush(MfConn *conn, bool final, MfError *err)
{
	MfmyLoad   *ld = &conn->load;

	if (ld->in_flight && !mfmy_load_drive(conn, true, err))
		return false;
	if (ld->hold_len > 0 && !mfmy_load_start(conn, err))
		return false;
	if (final && ld->in_flight && !mfmy_load_drive(conn, true, err))
		return false;
	return true;
}

/*
 * Whatever state the stream is in, bring the connection back in step: the
 * LOAD DATA in flight is read to its end (its outcome no longer matters:
 * the transaction is being rolled back), the held rows are dropped.  One
 * that has not answered yet is stopped first (mfmy_op_abandon): it may
 * wait on a row lock for as long as the server's lock wait timeout, and
 * no cancel would end that wait.
 */
void
mfmy_load_settle(MfConn *conn)
{
	MfmyLoad   *ld = &conn->load;

	if (ld->in_flight)
	{
		MfError		ignored;

		mf_error_clear(&ignored);
		if (conn->my == NULL)
			ld->in_flight = false;
		else
		{
			mfmy_op_abandon(&ld->op);
			(void) mfmy_load_drive(conn, true, &ignored);
		}
	}
	mfmy_load_close(conn);
}

/*
 * The connection's settle hook: another command comes while a stream is
 * open.  Its held rows are dropped (abort paths: the core ends a stream
 * before anyone else uses the connection); should that ever happen
 * otherwise, the stream's copy_end fails rather than report rows that never
 * arrived.
 */
void
mfmy_load_cut(MfConn *conn)
{
	if (conn->load.in_flight || conn->load.open)
	{
		conn->load.cut_short = true;
		mfmy_load_settle(conn);
	}
}

bool
mfmy_copy_begin(MfConn *conn, const char *sql, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	size_t		plen = strlen(MFMY_LOAD_PREFIX);

	mf_error_clear(err);
	if (!mfmy_usable(conn, MF_STEP_COPY, err))
		return false;
	if (strncmp(sql, MFMY_LOAD_PREFIX, plen) != 0)
	{
		mfmy_fail(conn, err, MF_STEP_COPY, "XX000",
					 "the bulk stream of the mysql transport needs a statement that starts with \""
					 MFMY_LOAD_PREFIX "\"");
		return false;
	}
	if (!mfmy_copy_available(conn))
	{
		mfmy_fail(conn, err, MF_STEP_COPY, "0A000",
					 "the remote server does not allow LOAD DATA LOCAL INFILE (its local_infile is OFF)");
		return false;
	}
	ld->tail = strdup(sql + plen);
	if (ld->tail == NULL)
	{
		mfmy_oom(conn, MF_STEP_COPY, err);
		return false;
	}
	ld->open = true;
	ld->cut_short = false;
	ld->hold_len = 0;
	ld->hold_rows = 0;
	ld->rows_done = 0;
	return true;
}

bool
mfmy_copy_send(MfConn *conn, const char *buf, size_t len, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	const char *p = buf;
	const char *end = buf + len;

	mf_error_clear(err);
	if (!ld->open)
	{
		mfmy_fail(conn, err, MF_STEP_COPY, "XX000",
					 "no LOAD DATA stream is open");
		return false;
	}
	if (ld->hold_len + len > ld->hold_cap)
	{
		size_t		cap = ld->hold_cap ? ld->hold_cap : MFMY_LOAD_BYTES + 128 * 1024;
		char	   *grown;

		while (cap < ld->hold_len + len)
			cap *= 2;
		grown = realloc(ld->hold, cap);
		if (grown == NULL)
		{
			mfmy_load_settle(conn);
			mfmy_oom(conn, MF_STEP_COPY, err);
			return false;
		}
		ld->hold = grown;
		ld->hold_cap = cap;
	}
	memcpy(ld->hold + ld->hold_len, buf, len);
	ld->hold_len += len;
	/* COPY text escapes newlines inside values: each one ends a row */
	while (p < end && (p = memchr(p, '\n', (size_t) (end - p))) != NULL)
	{
		ld->hold_rows++;
		p++;
	}

	if (ld->hold_len >= MFMY_LOAD_BYTES && !mfmy_load_flush(conn, false, err))
	{
		mfmy_load_settle(conn);
		return false;
	}
	return true;
}

bool
mfmy_copy_end(MfConn *conn, const char *abort_reason, long *rows,
				 MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	bool		ok;

	if (rows)
		*rows = 0;
	mf_error_clear(err);
	if (!ld->open && !ld->in_flight)
	{
		bool		cut = ld->cut_short && abort_reason == NULL;

		ld->cut_short = false;
		if (cut)
			mfmy_fail(conn, err, MF_STEP_COPY, "XX000",
						 "the LOAD DATA stream was ended by another command before its rows were sent");
		return !cut;
	}
	if (abort_reason != NULL)
	{
		mfmy_load_settle(conn);
		return true;
	}
	ok = mfmy_load_flush(conn, true, err);
	if (ok && rows)
		*rows = ld->rows_done;
	mfmy_load_settle(conn);
	return ok;
}
