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
 * and the next use prepares the text under a new name.  The execution that
 * failed is run again, once, prepared afresh, only where the remote can be
 * put back exactly where it was before the request that failed:
 *
 *	- the request opened the remote transaction (its deferred START
 *	  TRANSACTION went in front of it): the transaction held nothing else,
 *	  so it is rolled back, and its begin and savepoints wait again to go
 *	  in front of the retry;
 *	- a SAVEPOINT went in front of it, last of the core's savepoint
 *	  commands: the transaction is rolled back to that savepoint, which
 *	  undoes exactly the failed request;
 *	- the remote is outside a transaction after the failure (the statement
 *	  ran on its own): nothing is left to undo.
 *
 * Anywhere else the failure has aborted a remote transaction that did
 * other work, which only the core may roll back: the error is the user's,
 * and the next transaction prepares the statement again.  A pipeline
 * (insert_method 'pipeline') does not know which of its statements failed:
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
	return true;
}
