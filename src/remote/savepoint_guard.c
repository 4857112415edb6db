/*-------------------------------------------------------------------------
 *
 * savepoint_guard.c
 *		A statement of the core's own that may fail without failing the
 *		query: run inside a remote savepoint, rolled back to on failure.
 *
 * A subquery's values read ahead (exec/read_ahead.c) are a guess: some of
 * them may be values the query never evaluates the subquery for (a
 * condition before it was false, a Limit stopped the query), and the
 * subquery may fail for one of them (a division by it, a cast) where the
 * statements of the rescans would not have run.  Such a statement goes
 * after a savepoint of its own, which costs no exchange where the
 * transport sends it in front of the statement (transport.h, defer); its
 * release goes in front of the next request the same way.  When it fails,
 * the remote transaction is rolled back to the savepoint (an exchange),
 * and the caller goes on without what the statement would have read.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "remote/connection_int.h"

/*
 * The savepoint of the guarded statement, at the level after the remote
 * transaction's own: named as the next subtransaction's would be, which
 * it is released before.  false where the dialect has no savepoints or
 * the connection is between transaction states: then the statement is
 * not to run.  A SAVEPOINT sent at once that fails is raised: the remote
 * transaction cannot go on.
 */
bool
mf_guard_begin(MfConnEntry *entry)
{
	char		sql[64];
	MfError		err;

	if (entry->dialect->savepoint_fmt == NULL ||
		entry->dialect->release_savepoint_fmt == NULL ||
		entry->dialect->rollback_to_savepoint_fmt == NULL ||
		entry->xact_depth < 1 || entry->changing_xact_state)
		return false;
	snprintf(sql, sizeof(sql), entry->dialect->savepoint_fmt,
			 entry->xact_depth + 1);
	mf_error_clear(&err);
	if (!mf_defer_or_exec(entry, sql, &err))
		mf_raise_error(ERROR, entry, &err, sql);
	return true;
}

/*
 * The guarded statement is over: failed (its error in failed, with the
 * statement's text), the remote transaction goes back to the savepoint;
 * either way the savepoint is released.  Where the transaction cannot go
 * back, the statement's own error is raised, and the connection is left
 * for the transaction's end to reset, as a failed subtransaction's is.
 */
void
mf_guard_end(MfConnEntry *entry, const MfError *failed, const char *stmt)
{
	char		sql[64];
	MfError		err;

	mf_error_clear(&err);
	if (failed != NULL)
	{
		snprintf(sql, sizeof(sql), entry->dialect->rollback_to_savepoint_fmt,
				 entry->xact_depth + 1);
		mf_claim_connection(entry, NULL);
		entry->changing_xact_state = true;
		if (failed->conn_lost ||
			!entry->transport->exec(entry->conn, sql, NULL, &err))
			mf_raise_error(ERROR, entry, (MfError *) failed, stmt);
		entry->changing_xact_state = false;
	}
	snprintf(sql, sizeof(sql), entry->dialect->release_savepoint_fmt,
			 entry->xact_depth + 1);
	if (!mf_defer_or_exec(entry, sql, &err))
	{
		entry->changing_xact_state = true;
		mf_raise_error(ERROR, entry, &err, sql);
	}
}
