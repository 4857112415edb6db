/*-------------------------------------------------------------------------
 *
 * pq_replan.c
 *		The libpq transport's kept statements that the remote's DDL made
 *		stale: dropped, and prepared and run again where that is safe.
 *
 * A statement is prepared once per connection and kept (pq_transport.c).
 * When a table it uses changes on the remote so that its result changes
 * shape (ALTER TABLE ... ALTER COLUMN ... TYPE under an INSERT ...
 * RETURNING, a column added under a RETURNING *), PostgreSQL refuses to
 * run the named statement again: "cached plan must not change result
 * type", SQLSTATE 0A000, raised by RevalidateCachedQuery while it binds
 * the statement, before the statement has done anything.  The name is
 * then useless for good: every later execution fails the same way.  (A
 * change that leaves the result's shape alone, a column added to a table
 * without RETURNING or a type changed under a parameter, PostgreSQL plans
 * again by itself.)
 *
 * So a statement that fails this way is never found again by prepare: its
 * name is let go (its DEALLOCATE waits for a healthy transaction, pq_defer.c)
 * and the next use prepares the text under a new name.  The error is an
 * ERROR like any other: inside the remote transaction it aborts the
 * transaction, although the statement did nothing.  The execution that
 * failed is run again, once, prepared afresh, only where the remote can be
 * put back exactly where it was before the request that failed:
 *
 *	- the request opened the remote transaction (its deferred START
 *	  TRANSACTION went in front of it): the transaction held nothing else,
 *	  so it is rolled back, and its begin and savepoints wait again to go
 *	  in front of the retry;
 *	- a SAVEPOINT went in front of it, last of the savepoint commands: the
 *	  transaction is rolled back to that savepoint, which undoes exactly
 *	  the failed request;
 *	- the remote is outside a transaction after the failure (the statement
 *	  ran on its own): nothing is left to undo.
 *
 * The second case is made to hold wherever the failure can happen.  Only a
 * statement that returns rows can fail this way (one without a result has
 * no result type to change), and only at its first run since the remote's
 * tables could last change under it: a statement that was prepared or ran
 * in the remote transaction holds a lock on its tables until the
 * transaction ends, so that no other session's DDL can commit meanwhile.
 * What starts a new span in which they can change (conn->span): a remote
 * transaction's begin, a statement of the user's own on the connection
 * (multi_fdw_exec: it may be the DDL itself), a ROLLBACK TO (the locks
 * taken since the savepoint are gone).  So such a statement, at its first
 * run in a span inside a remote transaction that is already open, goes
 * with a savepoint of its own in front of it (MFPQ_GUARD_SAVEPOINT) and
 * its RELEASE right after it, in the same pipeline: no round trip more,
 * and a subtransaction on the remote only then.  A statement of the
 * transaction's first request needs none (the first case).  Statements
 * without a result, and later runs in the span, go as before.
 *
 * A pipeline (insert_method 'pipeline') runs statements without a result
 * only; should one fail so all the same, the pipeline does not know which:
 * every kept statement of the connection is let go, and none is retried.
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

/* Is res the error of a kept statement whose plan no longer fits? */
bool
mfpq_plan_changed(const PGresult *res)
{
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *func = PQresultErrorField(res, PG_DIAG_SOURCE_FUNCTION);

	return sqlstate != NULL && strcmp(sqlstate, "0A000") == 0 &&
		func != NULL && strcmp(func, "RevalidateCachedQuery") == 0;
}

/*
 * The statement is let go of: prepare no longer finds it, and it is freed
 * when the core gives its handles back (mfpq_cache_trim).
 */
void
mfpq_stale(MfStmt *stmt)
{
	stmt->stale = true;
}

void
mfpq_stale_all(MfConn *conn)
{
	for (MfStmt *stmt = conn->stmts; stmt; stmt = stmt->next)
		stmt->stale = true;
}

/* The remote's tables may have changed since (see the top of the file). */
void
mfpq_new_span(MfConn *conn)
{
	conn->span++;
}

/*
 * A statement of the user's own, or the core's ROLLBACK TO, ran through
 * exec and answered last.  Only one INSERT, UPDATE, DELETE or MERGE (no
 * semicolon: a single statement) leaves the remote's tables as they were
 * (it holds their locks, too); anything else may be DDL, or undo locks.
 */
void
mfpq_exec_span(MfConn *conn, const char *sql, const PGresult *last)
{
	static const char *const dml[] = {"INSERT ", "UPDATE ", "DELETE ", "MERGE "};
	const char *tag = last ? PQcmdStatus((PGresult *) last) : NULL;

	if (tag != NULL && strchr(sql, ';') == NULL)
		for (int i = 0; i < (int) (sizeof(dml) / sizeof(dml[0])); i++)
			if (strncmp(tag, dml[i], strlen(dml[i])) == 0)
				return;
	mfpq_new_span(conn);
}

/*
 * Before stmt runs: true when it goes under a savepoint of its own, now
 * waiting to go in front of it; the caller sends MFPQ_GUARD_RELEASE right
 * after it, in the same pipeline (see the top of the file).
 */
bool
mfpq_guard(MfStmt *stmt)
{
	MfConn	   *conn = stmt->conn;

	if (!stmt->returns_rows || stmt->span == conn->span || conn->in_copy ||
		PQpipelineStatus(conn->pg) != PQ_PIPELINE_OFF ||
		PQtransactionStatus(conn->pg) != PQTRANS_INTRANS)
		return false;
	return mfpq_defer(conn, MFPQ_LATER_SAVEPOINT, MFPQ_GUARD_SAVEPOINT);
}

/*
 * stmt ran, and last is its answer: until the span ends its tables cannot
 * change under it.
 */
void
mfpq_ran(MfStmt *stmt, const PGresult *last)
{
	stmt->span = stmt->conn->span;
	stmt->returns_rows = last == NULL ||
		PQresultStatus(last) == PGRES_TUPLES_OK;
}

/*
 * Put the remote back where it was before the request that just failed,
 * from what went in front of it; false when that cannot be done (see the
 * top of the file).
 */
static bool
mfpq_rewind(MfConn *conn, MfError *err)
{
	PGTransactionStatusType ts = PQtransactionStatus(conn->pg);
	const MfpqLater *savepoint = NULL;
	bool		began = false;
	char		sql[MFPQ_LATER_LEN + 16];

	if (ts == PQTRANS_IDLE)
		return true;
	if (ts != PQTRANS_INERROR)
		return false;
	for (int i = 0; i < conn->nwent; i++)
	{
		if (conn->went[i].kind == MFPQ_LATER_BEGIN)
			began = true;
		else if (conn->went[i].kind == MFPQ_LATER_SAVEPOINT)
			savepoint = &conn->went[i];
	}

	if (began)
	{
		MfpqLater	went[MFPQ_LATER_MAX];
		int			nwent = conn->nwent;

		memcpy(went, conn->went, sizeof(MfpqLater) * (size_t) nwent);
		if (!mfpq_command(conn, "ROLLBACK", MF_STEP_TRANSACTION, NULL, err))
			return false;
		mfpq_new_span(conn);
		/* the begin first (mfpq_defer puts it there), then the savepoints */
		for (int i = 0; i < nwent; i++)
			if ((went[i].kind == MFPQ_LATER_BEGIN ||
				 went[i].kind == MFPQ_LATER_SAVEPOINT) &&
				!mfpq_defer(conn, went[i].kind, went[i].sql))
			{
				/* no room: the transaction can no longer be the core's */
				conn->broken = true;
				mfpq_fail(conn, err, MF_STEP_TRANSACTION, "08006",
						  "could not start the remote transaction again");
				return false;
			}
		return true;
	}

	/* "SAVEPOINT name", not a RELEASE: the request is all it holds */
	if (savepoint == NULL || strncmp(savepoint->sql, "SAVEPOINT ", 10) != 0)
		return false;
	snprintf(sql, sizeof(sql), "ROLLBACK TO %s", savepoint->sql);
	return mfpq_command(conn, sql, MF_STEP_TRANSACTION, NULL, err);
}

/*
 * The execution of stmt just failed with err.  When its plan went stale,
 * the statement is let go of, and where the remote can be put back as it
 * was, prepared again under a new name: true, and the caller runs it once
 * more.  false: err is the error to report (the first one, or what failed
 * on the way back).
 */
bool
mfpq_replan(MfStmt *stmt, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	MfError		why;
	char		sql[MFPQ_NAME_LEN + 16];

	if (!conn->plan_changed || mfpq_is_broken(conn))
		return false;
	conn->plan_changed = false;
	why = *err;
	mf_error_clear(err);
	if (!mfpq_rewind(conn, err))
	{
		/*
		 * The core holds the statement until it lets go; then it goes, with
		 * its DEALLOCATE (mfpq_cache_trim).
		 */
		mfpq_stale(stmt);
		if (err->message[0] == '\0')
			*err = why;
		return false;
	}

	/* the old name goes with the next request, the text gets a new one */
	snprintf(sql, sizeof(sql), "DEALLOCATE %s", stmt->name);
	if (!mfpq_defer(conn, MFPQ_LATER_DEALLOCATE, sql))
		conn->dealloc_due = true;
	snprintf(stmt->name, sizeof(stmt->name), "mf_s%lu", ++conn->next_id);
	conn->wire->bytes_sent += strlen(stmt->sql);
	if (!mfpq_extended(conn, mfpq_send_prepare, stmt, MF_STEP_PREPARE, NULL,
					   err))
	{
		conn->dealloc_due = true;
		mfpq_stale(stmt);
		return false;
	}
	stmt->span = conn->span;
	return true;
}
