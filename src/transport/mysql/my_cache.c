/*-------------------------------------------------------------------------
 *
 * my_cache.c
 *		The mysql transport's prepared statements, kept per connection so
 *		that a statement is prepared once and not once per use.
 *
 * A short transaction runs the same few statements again and again (a
 * lookup by key, the UPDATE of a row, the INSERT of one), and a rescan
 * runs its query once per outer row: preparing each use and closing it
 * after would cost a COM_STMT_PREPARE round trip every time.  So prepare
 * and query borrow a handle from the connection's list, keyed by the SQL
 * text, its number of parameters and whether it reads through a
 * server-side cursor, and give it back when they are done; it is closed
 * only when the list is full (the least recently used first), when it
 * failed in a way that may leave it out of step, and with the connection.
 * Closing sends COM_STMT_CLOSE, which the server does not answer, so it
 * costs no round trip either.
 *
 * A handle given back is ready for its next execute: its rows have been
 * read to their end or dropped (mysql_stmt_free_result), and a server-side
 * cursor left before its end is closed by the server when the handle runs
 * again; such a cursor holds a temporary table on the server, so handles
 * left that way are closed when the transaction ends.  No
 * mysql_stmt_reset, which would cost a round trip of its own.
 *
 * A handle whose statement failed is not kept (mfmy_cache_spoil, at each
 * entry point of the transport that runs a handle): it is closed when
 * given back and the next use of its SQL prepares it again, one round
 * trip on a path that is rare.  The one failure that keeps it is the
 * server's refusal of the execute itself (mfmy_cache_refused: a duplicate
 * key on a plain INSERT), whose error is the whole answer.  After any
 * other, Connector/C's view of the handle cannot be trusted to be ready:
 * an INSERT ... RETURNING that fails on a duplicate key sends its column
 * definitions, then the error where the rows would be, so that
 * mysql_stmt_store_result fails and leaves the handle "executed" with no
 * rows; the next mysql_stmt_execute then reads the socket for the rest of
 * that result, which never comes, and waits until cancelled.
 *
 * What a remote table's definition changes does not matter: the server
 * prepares the statement again by itself when a table it uses has changed
 * (MariaDB does it on every COM_STMT_EXECUTE after DDL, with the result's
 * new column definitions, which Connector/C takes), and a statement that
 * no longer fits the table (a column it names is gone) fails with the
 * server's error, which names the column, and closes the handle as above.
 * The server gives up preparing again after a few tries (the tables kept
 * changing under it) and answers ER_NEED_REPREPARE, before the statement
 * did anything; a MySQL transaction goes on after a statement's error.
 * Then the handle is closed, and the statement is prepared afresh and run
 * once more (mfmy_cache_retake): the user sees no error.  Nothing else is
 * retried, since nothing else says the statement had no effect.
 *
 * Part of the mysql transport (see my_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only Connector/C's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a, enough to skip most of the texts that differ */
static uint32_t
mfmy_hash(const char *s, size_t len)
{
	uint32_t	h = 2166136261u;

	for (size_t i = 0; i < len; i++)
	{
		h ^= (unsigned char) s[i];
		h *= 16777619u;
	}
	return h;
}

static void
mfmy_cache_unlink(MfConn *conn, MfmyCached *h)
{
	MF_LIST_REMOVE(conn->cache, h);
	conn->ncached--;
	conn->cached_bytes -= h->len;
}

static void
mfmy_cache_free(MfConn *conn, MfmyCached *h)
{
	mfmy_cache_unlink(conn, h);
	mfmy_close_handle(conn, h->st);
	free(h->sql);
	free(h);
}

/*
 * Close the least recently used handles that nobody holds until the list
 * is within its bounds again.
 */
static void
mfmy_cache_trim(MfConn *conn)
{
	MfmyCached *last = conn->cache;

	if (last == NULL)
		return;
	while (last->next != NULL)
		last = last->next;
	while (last != NULL &&
		   (conn->ncached > MFMY_CACHE_MAX ||
			conn->cached_bytes > MFMY_CACHE_BYTES))
	{
		MfmyCached *prev = last->prev;

		if (!last->in_use)
			mfmy_cache_free(conn, last);
		last = prev;
	}
}

/* Close every handle that nobody holds; how many there were. */
static int
mfmy_cache_drop_idle(MfConn *conn)
{
	MfmyCached *h = conn->cache;
	int			n = 0;

	while (h != NULL)
	{
		MfmyCached *next = h->next;

		if (!h->in_use)
		{
			mfmy_cache_free(conn, h);
			n++;
		}
		h = next;
	}
	return n;
}

/* A handle prepared on the server, or NULL with err filled. */
static MYSQL_STMT *
mfmy_prepare_handle(MfConn *conn, const char *sql, int nparams, bool cursor,
					MfStep step, MfError *err)
{
	MYSQL_STMT *st;
	MfmyOp		op;
	int			rc;

	st = mysql_stmt_init(conn->my);
	if (st == NULL)
	{
		mfmy_oom(conn, step, err);
		return NULL;
	}
	if (cursor)
	{
		unsigned long type = CURSOR_TYPE_READ_ONLY;

		if (mysql_stmt_attr_set(st, STMT_ATTR_CURSOR_TYPE, &type))
		{
			mfmy_stmt_error(conn, st, step, err);
			mfmy_close_handle(conn, st);
			return NULL;
		}
	}

	mfmy_op_start(&op, conn);
	rc = mfmy_stmt_prepare(&op, st, sql);
	if (mfmy_op_interrupted(&op, step, err))
	{
		mfmy_close_handle(conn, st);
		return NULL;
	}
	if (rc != 0)
	{
		mfmy_stmt_error(conn, st, step, err);
		mfmy_close_handle(conn, st);
		return NULL;
	}
	if ((int) mysql_stmt_param_count(st) != nparams)
	{
		mf_error_clear(err);
		mf_error_set(err, step, "XX000", 0,
					 "the remote statement has %lu parameters, %d were given",
					 mysql_stmt_param_count(st), nparams);
		mfmy_close_handle(conn, st);
		return NULL;
	}
	return st;
}

/* Is a handle for sql kept, free for use? */
bool
mfmy_cache_has(MfConn *conn, const char *sql, int nparams, bool cursor)
{
	size_t		len = strlen(sql);
	uint32_t	hash = mfmy_hash(sql, len);

	for (MfmyCached *h = conn->cache; h != NULL; h = h->next)
		if (!h->in_use && !h->bad && h->hash == hash && h->len == len &&
			h->nparams == nparams && h->cursor == cursor &&
			memcmp(h->sql, sql, len) == 0)
			return true;
	return false;
}

/*
 * A handle for sql, ready to execute: one kept from an earlier use when
 * there is one free, else a new one prepared now.  NULL with err filled.
 * The caller makes sure the link is in step (mfmy_usable) and gives the
 * handle back with mfmy_cache_give.
 */
MfmyCached *
mfmy_cache_take(MfConn *conn, const char *sql, int nparams, bool cursor,
				MfStep step, MfError *err)
{
	size_t		len = strlen(sql);
	uint32_t	hash = mfmy_hash(sql, len);
	MfmyCached *h;

	for (h = conn->cache; h != NULL; h = h->next)
	{
		if (h->in_use || h->bad || h->hash != hash || h->len != len ||
			h->nparams != nparams || h->cursor != cursor ||
			memcmp(h->sql, sql, len) != 0)
			continue;
		MF_LIST_REMOVE(conn->cache, h);
		MF_LIST_PUSH(conn->cache, h);
		h->in_use = true;
		return h;
	}

	h = calloc(1, sizeof(MfmyCached));
	if (h == NULL || (h->sql = malloc(len + 1)) == NULL)
	{
		free(h);
		mfmy_oom(conn, step, err);
		return NULL;
	}
	memcpy(h->sql, sql, len + 1);
	h->len = len;
	h->hash = hash;
	h->nparams = nparams;
	h->cursor = cursor;
	h->st = mfmy_prepare_handle(conn, sql, nparams, cursor, step, err);

	/*
	 * The server counts every session's prepared statements against one
	 * limit (max_prepared_stmt_count): when kept ones take it, they go
	 * first, and the prepare is tried once more.
	 */
	if (h->st == NULL && err->native_code == ER_MAX_PREPARED_STMT_COUNT_REACHED &&
		!conn->broken && mfmy_cache_drop_idle(conn) > 0)
	{
		mf_error_clear(err);
		h->st = mfmy_prepare_handle(conn, sql, nparams, cursor, step, err);
	}
	if (h->st == NULL)
	{
		free(h->sql);
		free(h);
		return NULL;
	}
	h->in_use = true;
	MF_LIST_PUSH(conn->cache, h);
	conn->ncached++;
	conn->cached_bytes += len;
	mfmy_cache_trim(conn);
	return h;
}

/*
 * A statement on the handle failed in a way that may leave the handle out
 * of step (a row of its result did not come, the user cancelled it, the
 * library failed...): the handle is closed when it is given back, never
 * run again.  See the top of the file.
 */
void
mfmy_cache_spoil(MfmyCached *h)
{
	if (h != NULL)
		h->bad = true;
}

/*
 * Did the server refuse the handle's execute itself (a duplicate key on a
 * plain INSERT)?  Its error was the whole answer, and Connector/C leaves
 * the handle as it was: it may run again.  Not so for a server that no
 * longer knows the statement or wants it prepared again, for a statement
 * killed by a cancel, nor for a failure of the library (a code of its
 * own).
 */
bool
mfmy_cache_refused(MYSQL_STMT *st)
{
	unsigned int code = mysql_stmt_errno(st);

	return code != 0 && code < CR_MIN_ERROR &&
		code != ER_UNKNOWN_STMT_HANDLER && code != ER_NEED_REPREPARE &&
		code != ER_QUERY_INTERRUPTED;
}

/*
 * The server refused to run the statement of *h until it is prepared again
 * (ER_NEED_REPREPARE, see the top of the file): *h, spoiled, goes back and
 * a handle prepared afresh takes its place.  true: the caller runs it
 * once more.  false: another error, or the prepare failed (err then says
 * why: a column the statement names may be gone); *h is the caller's to
 * give back.
 */
bool
mfmy_cache_retake(MfConn *conn, MfmyCached **h, MfStep step, MfError *err)
{
	MfmyCached *old = *h;
	MfmyCached *fresh;

	if (old == NULL || conn->broken || conn->my == NULL ||
		mysql_stmt_errno(old->st) != ER_NEED_REPREPARE)
		return false;
	mfmy_cache_spoil(old);
	mf_error_clear(err);
	fresh = mfmy_cache_take(conn, old->sql, old->nparams, old->cursor, step,
							err);
	if (fresh == NULL)
		return false;
	mfmy_cache_give(conn, old);
	*h = fresh;
	return true;
}

/*
 * A handle is done with: kept for the next use of its SQL, or closed when
 * it failed, when its text is too long to keep, or when the link is gone.
 */
void
mfmy_cache_give(MfConn *conn, MfmyCached *h)
{
	if (h == NULL)
		return;
	h->in_use = false;
	if (conn->broken || conn->my == NULL)
		mfmy_cache_free(conn, h);
	else
		mfmy_cache_tidy(conn);
}

/*
 * Close the handles that are not to be kept (failed, or too long a text)
 * and those beyond the list's bounds; unless a stream holds the link, for
 * closing one would read the stream first: they wait until it is over
 * (mfmy_unpark).
 */
void
mfmy_cache_tidy(MfConn *conn)
{
	MfmyCached *h = conn->cache;

	if (conn->streaming != NULL && !conn->broken && conn->my != NULL)
	{
		conn->tidy_due = true;
		return;
	}
	while (h != NULL)
	{
		MfmyCached *next = h->next;

		if (!h->in_use && (h->bad || h->len > MFMY_CACHE_BYTES / 4))
			mfmy_cache_free(conn, h);
		h = next;
	}
	mfmy_cache_trim(conn);
}

/*
 * The remote transaction is over: the cursors left open in it go, with
 * their handles (no round trip), so that the server does not keep their
 * temporary tables until the handle's next use.
 */
void
mfmy_cache_xact_end(MfConn *conn)
{
	MfmyCached *h = conn->cache;

	while (h != NULL)
	{
		MfmyCached *next = h->next;

		if (!h->in_use && (h->cursor_left_open || h->bad))
			mfmy_cache_free(conn, h);
		h = next;
	}
}

/*
 * The link was replaced (my_relink.c): the handles nobody holds go, those
 * held are prepared again on the new link, and the statements and results
 * that use them follow.  The old link is closed already, so closing a
 * handle of it only frees it.  false, err filled, when a prepare failed.
 */
bool
mfmy_cache_relink(MfConn *conn, MfError *err)
{
	MfmyCached *h = conn->cache;
	bool		ok = true;

	while (h != NULL)
	{
		MfmyCached *next = h->next;

		if (!h->in_use)
			mfmy_cache_free(conn, h);
		else
		{
			(void) mysql_stmt_close(h->st);
			h->cursor_left_open = false;
			h->st = NULL;
			if (ok)
				h->st = mfmy_prepare_handle(conn, h->sql, h->nparams,
											h->cursor, MF_STEP_PREPARE, err);
			/* one that failed is closed when given back */
			h->bad = h->st == NULL;
			ok = ok && h->st != NULL;
		}
		h = next;
	}
	for (MfStmt *stmt = conn->stmts; stmt != NULL; stmt = stmt->next)
		stmt->st = stmt->handle->st;
	for (MfResult *res = conn->results; res != NULL; res = res->next)
		if (res->handle != NULL)
			res->st = res->handle->st;
		else if (res->borrowed != NULL)
			res->st = res->borrowed->st;
	return ok;
}

/* Every handle goes (the connection is being dropped). */
void
mfmy_cache_clear(MfConn *conn)
{
	while (conn->cache != NULL)
		mfmy_cache_free(conn, conn->cache);
}
