/*-------------------------------------------------------------------------
 *
 * twophase.c
 *		Committing a local transaction that wrote to several servers as one:
 *		two-phase commit with PostgreSQL's PREPARE TRANSACTION and MySQL's
 *		XA, a decision record that the local commit makes durable, and the
 *		resolution of what was left in doubt.
 *
 * At pre-commit, when the transaction wrote to two or more servers, or to
 * one server and local tables, and multi_fdw.two_phase_commit is not off:
 *
 *	1. every written server with two_phase_commit 'on' prepares its
 *	   transaction under an id "mf_<system id>_<xid>_<user mapping>_<time>";
 *	2. the ids go into the extension's table multi_fdw_decision, in the
 *	   local transaction: the local commit is the decision;
 *	3. a written server that cannot prepare, if there is one, commits (the
 *	   last resource: if it fails, nothing else is committed);
 *	4. servers only read from commit without preparing;
 *	5. after the local commit (mf_twophase_commit) every prepared
 *	   transaction is committed.  A failure there is a WARNING: the
 *	   transaction is in doubt until multi_fdw_resolve() ends it.
 *
 * Any failure before the local commit rolls everything back, the prepared
 * transactions with ROLLBACK PREPARED / XA ROLLBACK.  The resolver commits
 * a remote prepared transaction of this gateway whose decision row exists,
 * leaves alone one whose local transaction is still running, and rolls
 * back the others (their local transaction aborted, or never committed).
 *
 * A MySQL server that may be prepared opens its remote transaction with XA
 * START under the id at once (XA cannot adopt a transaction already
 * begun), so such a transaction gets a local transaction id from its start.
 *
 * multi_fdw.two_phase_fault (superuser only) makes the protocol fail at a
 * named point, for the tests: see mf_fault.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>
#include <unistd.h>

#include "access/htup_details.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_user_mapping.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "foreign/foreign.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "remote/remote.h"
#include "remote/connection_int.h"
#include "remote/twophase_int.h"

typedef enum MfTwoPhaseMode
{
	MF_2PC_OFF,
	MF_2PC_AUTO,
	MF_2PC_REQUIRED
} MfTwoPhaseMode;

static const struct config_enum_entry mf_2pc_modes[] = {
	{"off", MF_2PC_OFF, false},
	{"auto", MF_2PC_AUTO, false},
	{"required", MF_2PC_REQUIRED, false},
	{NULL, 0, false}
};

static int	mf_2pc_mode = MF_2PC_AUTO;
static char *mf_2pc_fault = NULL;

/*
 * Ids committed remotely whose decision rows can go: deleted by the next
 * transaction that records decisions, or by the resolver.
 */
static List *mf_done_gids = NIL;

/* This transaction's id was assigned for an XA START, not by a local write. */
static bool mf_xid_for_xa = false;

static const char *mf_twophase_begin_sql(MfConnEntry *entry);
static void mf_twophase_pre_commit(HTAB *connections);
static void mf_twophase_commit(HTAB *connections);
static void mf_twophase_abort_all(HTAB *connections);

static const MfTwophaseHooks mf_twophase_hooks = {
	.begin_sql = mf_twophase_begin_sql,
	.pre_commit = mf_twophase_pre_commit,
	.commit = mf_twophase_commit,
	.abort_all = mf_twophase_abort_all,
};

void
mf_twophase_init(void)
{
	mf_conn_set_twophase_hooks(&mf_twophase_hooks);
	DefineCustomEnumVariable("multi_fdw.two_phase_commit",
							 "When a transaction that wrote to several servers commits through two-phase commit.",
							 "off: never; auto: when every written server but one can prepare; required: fail a commit that cannot be atomic.",
							 &mf_2pc_mode, MF_2PC_AUTO, mf_2pc_modes,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("multi_fdw.two_phase_fault",
							   "For tests: where two-phase commit fails on purpose.",
							   "fail_prepare, fail_last_resource, crash_before_local_commit, crash_after_local_commit, sleep_after_local_commit.",
							   &mf_2pc_fault, "", PGC_SUSET, GUC_NOT_IN_SAMPLE,
							   NULL, NULL, NULL);
}

/*
 * A failure on purpose at a named point: an ERROR, or the backend dying at
 * once (SIGKILL), as a crash of the gateway would.
 */
static void
mf_fault(const char *point)
{
	if (mf_2pc_fault == NULL || strcmp(mf_2pc_fault, point) != 0)
		return;
	if (strncmp(point, "sleep_", 6) == 0)
	{
		pg_usleep(5 * 1000000L);
		return;
	}
	if (strncmp(point, "crash_", 6) == 0)
	{
		kill(MyProcPid, SIGKILL);
		for (;;)
			pause();
	}
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("multi_fdw.two_phase_fault: %s", point)));
}

static bool
mf_can_prepare(MfConnEntry *entry)
{
	return entry->two_phase && entry->dialect->prepare_fmt != NULL &&
		entry->transport->sql_transaction_control &&
		(entry->dialect->xa_start_fmt == NULL || entry->xa_open);
}

static const char *
mf_twophase_begin_sql(MfConnEntry *entry)
{
	if (mf_2pc_mode == MF_2PC_OFF || !entry->two_phase ||
		entry->dialect->xa_start_fmt == NULL ||
		!entry->transport->sql_transaction_control)
		return NULL;
	if (!TransactionIdIsValid(GetTopTransactionIdIfAny()))
		mf_xid_for_xa = true;
	mf_twophase_gid(entry, entry->gid);
	return psprintf(entry->dialect->xa_start_fmt, entry->gid);
}

/* ---------------------------------------------------------------------
 * parallel_commit, parallel_abort
 * ---------------------------------------------------------------------
 */

/*
 * One transaction statement for each of several servers: sent to those
 * whose option asks for it (and whose transport can) all at once, the
 * answers read after, so that the remotes' waits overlap; the others in
 * turn, the usual way.  COMMIT, ROLLBACK, PREPARE and XA statements are
 * spelled alike in every dialect whose transport ends transactions by SQL.
 */
typedef struct MfXactStep
{
	MfConnEntry *entry;
	char	   *sql;
	bool		commit;			/* a COMMIT: one that rolled back fails */
	bool		rollback;		/* a ROLLBACK: in turn, the transport's
								 * own, which first ends a stream */
	bool		sent;			/* waiting for exec_finish */
	bool		send_failed;
	bool		skipped;		/* not run: an earlier one failed */
	bool		ok;
	MfError		err;
} MfXactStep;

static MfXactStep *
mf_xact_step(List **steps, MfConnEntry *entry, char *sql, bool commit)
{
	MfXactStep *st = palloc0(sizeof(MfXactStep));

	st->entry = entry;
	st->sql = sql;
	st->commit = commit;
	*steps = lappend(*steps, st);
	return st;
}

/* The usual way: commit by the transport's own call, the rest by exec. */
static bool
mf_xact_step_blocking(MfXactStep *st)
{
	const MfTransport *tr = st->entry->transport;

	if (st->commit)
		return tr->commit(st->entry->conn, &st->err);
	if (st->rollback)
		return tr->rollback(st->entry->conn, &st->err);
	return tr->exec(st->entry->conn, st->sql, NULL, &st->err);
}

/*
 * Run every step; abort: parallel_abort is the option that counts, else
 * parallel_commit.  The steps sent at once go first; then the others in
 * turn, stopping at the first that fails when stop_at_failure, as without
 * the options (what is not committed yet is rolled back by the abort that
 * follows); then the answers of the first.  Nothing raises here: a step
 * that failed leaves its connection marked as changing its transaction
 * state (dropped when the transaction ends).
 */
static void
mf_xact_run_steps(List *steps, bool abort, bool stop_at_failure)
{
	bool		failed = false;
	ListCell   *lc;

	foreach(lc, steps)
	{
		MfXactStep *st = lfirst(lc);
		MfConnEntry *entry = st->entry;
		const MfTransport *tr = entry->transport;
		bool		parallel = abort ? entry->parallel_abort : entry->parallel_commit;

		mf_error_clear(&st->err);
		if (parallel && tr->exec_send != NULL && tr->sql_transaction_control)
		{
			int			rc;

			entry->changing_xact_state = true;
			rc = tr->exec_send(entry->conn, st->sql, &st->err);
			st->sent = rc > 0;
			st->send_failed = rc < 0;
			if (rc == 0)
				entry->changing_xact_state = false;
		}
	}
	foreach(lc, steps)
	{
		MfXactStep *st = lfirst(lc);

		if (st->sent || st->send_failed)
			continue;
		if (failed)
		{
			st->skipped = true;
			continue;
		}
		st->entry->changing_xact_state = true;
		st->ok = mf_xact_step_blocking(st);
		failed = !st->ok && stop_at_failure;
	}
	foreach(lc, steps)
	{
		MfXactStep *st = lfirst(lc);

		if (st->sent)
			st->ok = st->entry->transport->exec_finish(st->entry->conn,
													   st->commit, &st->err);
		if (st->ok)
			st->entry->changing_xact_state = false;
	}
}

/* The first step that failed raises its error; the others have been read. */
static void
mf_xact_raise_first(List *steps)
{
	ListCell   *lc;

	foreach(lc, steps)
	{
		MfXactStep *st = lfirst(lc);

		if (!st->ok && !st->skipped)
			mf_raise_error(ERROR, st->entry, &st->err, st->sql);
	}
}

/*
 * XA END for the entries with an XA transaction open, the first round of
 * committing or preparing them (XA END must be answered first).  The
 * transaction stays the abort's to roll back as XA until the next round
 * succeeds.
 */
static void
mf_xa_end_all(List *entries)
{
	List	   *ends = NIL;
	ListCell   *lc;

	foreach(lc, entries)
	{
		MfConnEntry *entry = lfirst(lc);

		if (entry->xa_open)
			mf_xact_step(&ends, entry, psprintf(entry->dialect->xa_end_fmt, entry->gid),
						 false);
	}
	mf_xact_run_steps(ends, false, true);
	mf_xact_raise_first(ends);
}

/*
 * Commit without preparing, every entry of the list: COMMIT, or XA END
 * and XA COMMIT ONE PHASE (a second round, for XA END must be answered
 * first).
 */
static void
mf_commit_one_phase_all(List *entries)
{
	List	   *commits = NIL;
	ListCell   *lc;

	mf_xa_end_all(entries);
	foreach(lc, entries)
	{
		MfConnEntry *entry = lfirst(lc);

		if (entry->xa_open)
			mf_xact_step(&commits, entry,
						 psprintf(entry->dialect->xa_commit_one_phase_fmt, entry->gid),
						 false);
		else
			mf_xact_step(&commits, entry, "COMMIT", true);
	}
	mf_xact_run_steps(commits, false, true);

	/* an XA transaction not committed is still the abort's to roll back */
	foreach(lc, commits)
	{
		MfXactStep *st = lfirst(lc);

		if (st->ok)
			st->entry->xa_open = false;
	}
	mf_xact_raise_first(commits);
}

/*
 * Prepare every entry of the list (entry->gid set): XA END first where an
 * XA transaction is open.  Those that prepared are marked so before any
 * error is raised, for the abort to roll them back.
 */
static void
mf_prepare_all(List *entries)
{
	List	   *prepares = NIL;
	ListCell   *lc;

	mf_xa_end_all(entries);
	foreach(lc, entries)
	{
		MfConnEntry *entry = lfirst(lc);

		mf_xact_step(&prepares, entry,
					 psprintf(entry->dialect->prepare_fmt, entry->gid), false);
	}
	mf_xact_run_steps(prepares, false, true);
	foreach(lc, prepares)
	{
		MfXactStep *st = lfirst(lc);

		if (st->ok)
		{
			st->entry->prepared = true;
			st->entry->xa_open = false;
		}
	}
	mf_xact_raise_first(prepares);
}

/* ---------------------------------------------------------------------
 * The decision table
 * ---------------------------------------------------------------------
 */

/* The schema of the extension's objects: its handler function's. */
static Oid
mf_extension_schema(void)
{
	ForeignDataWrapper *fdw = GetForeignDataWrapperByName("multi_fdw", false);

	return get_func_namespace(fdw->fdwhandler);
}

/* multi_fdw_decision, qualified */
char *
mf_decision_table(void)
{
	return quote_qualified_identifier(get_namespace_name(mf_extension_schema()),
									  "multi_fdw_decision");
}

/*
 * Become the owner of the decision table, so that any user's commit can
 * record its decision in a table nobody else may write; with the search
 * path pinned and as a restricted operation (run_as.c), for the caller's
 * names must not run with the owner's rights.
 */
static void
mf_as_table_owner_begin(MfRunAs *ra)
{
	Oid			relid = get_relname_relid("multi_fdw_decision",
										  mf_extension_schema());
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!OidIsValid(relid) || !HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	mf_run_as_begin(ra, owner);
}

/* Record the prepared ids, and drop the rows of ids already committed. */
static void
mf_record_decisions(List *prepared)
{
	char	   *table = mf_decision_table();
	MfRunAs		ra;
	ListCell   *lc;

	mf_as_table_owner_begin(&ra);
	PushActiveSnapshot(GetTransactionSnapshot());
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	foreach(lc, prepared)
	{
		MfConnEntry *entry = lfirst(lc);
		Oid			argtypes[3] = {TEXTOID, OIDOID, OIDOID};
		Datum		args[3];

		args[0] = CStringGetTextDatum(entry->gid);
		args[1] = ObjectIdGetDatum(entry->key);
		args[2] = ObjectIdGetDatum(entry->serverid);
		if (SPI_execute_with_args(psprintf("INSERT INTO %s (gid, umid, serverid) VALUES ($1, $2, $3)", table),
								  3, argtypes, args, NULL, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "could not record the two-phase commit decision");
	}
	foreach(lc, mf_done_gids)
	{
		Oid			argtypes[1] = {TEXTOID};
		Datum		args[1];

		args[0] = CStringGetTextDatum((char *) lfirst(lc));
		(void) SPI_execute_with_args(psprintf("DELETE FROM %s WHERE gid OPERATOR(pg_catalog.=) $1", table),
									 1, argtypes, args, NULL, false, 0);
	}
	SPI_finish();
	PopActiveSnapshot();
	mf_run_as_end(&ra);
	list_free_deep(mf_done_gids);
	mf_done_gids = NIL;
}

/* ---------------------------------------------------------------------
 * The protocol
 * ---------------------------------------------------------------------
 */

static char *
mf_server_names(List *entries)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, entries)
		appendStringInfo(&buf, "%s\"%s\"", buf.len > 0 ? ", " : "",
						 ((MfConnEntry *) lfirst(lc))->servername);
	return buf.data;
}

static void
mf_twophase_pre_commit(HTAB *connections)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;
	List	   *active = NIL;
	List	   *can = NIL;
	List	   *cannot = NIL;
	List	   *readers = NIL;		/* read only: committed last */

	/*
	 * A local write assigns the transaction id, unless an XA START did it
	 * first: then what tells is the WAL written (pruning a page while
	 * reading writes some too, which only costs a needless prepare).
	 */
	bool		local_wrote = mf_xid_for_xa ?
		XactLastRecEnd != InvalidXLogRecPtr :
		TransactionIdIsValid(GetTopTransactionIdIfAny());
	int			nwritten;
	ListCell   *lc;

	mf_xid_for_xa = false;
	hash_seq_init(&scan, connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry->conn == NULL || entry->xact_depth == 0)
			continue;
		/* finish streams first: their rows belong to the commit */
		mf_claim_connection(entry, NULL);
		active = lappend(active, entry);
		if (!entry->written)
			readers = lappend(readers, entry);
		else if (mf_can_prepare(entry))
			can = lappend(can, entry);
		else
			cannot = lappend(cannot, entry);
	}

	nwritten = list_length(can) + list_length(cannot);
	if (mf_2pc_mode == MF_2PC_OFF ||
		!(nwritten >= 2 || (nwritten == 1 && local_wrote)) ||
		(can == NIL && mf_2pc_mode != MF_2PC_REQUIRED))
	{
		mf_commit_one_phase_all(active);
		return;
	}

	if (list_length(cannot) > 1 || (can == NIL && cannot != NIL))
	{
		if (mf_2pc_mode == MF_2PC_REQUIRED)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("cannot commit atomically: servers %s cannot prepare their transactions",
							mf_server_names(cannot)),
					 errhint("Set two_phase_commit 'on' on servers whose remote can prepare, or multi_fdw.two_phase_commit to auto.")));
		ereport(WARNING,
				(errmsg("the commit is not atomic: servers %s cannot prepare their transactions",
						mf_server_names(cannot)),
				 errdetail("At most one written server that cannot prepare can be committed safely, after the others have prepared.")));
	}

	/*
	 * PostgreSQL checks a serializable transaction for conflicts after the
	 * pre-commit callbacks (and queues its NOTIFYs): a last resource
	 * committed here stays committed if that check then fails the local
	 * commit, while the prepared ones roll back.
	 */
	if (cannot != NIL && IsolationIsSerializable())
	{
		if (mf_2pc_mode == MF_2PC_REQUIRED)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("cannot commit atomically: server %s cannot prepare, and a serializable transaction may still fail after it committed",
							mf_server_names(cannot)),
					 errhint("Set two_phase_commit 'on' on the server if its remote can prepare, or commit under REPEATABLE READ.")));
		ereport(WARNING,
				(errmsg("the commit is not atomic: server %s commits before PostgreSQL's serialization check",
						mf_server_names(cannot)),
				 errdetail("If that check fails the local commit, the prepared servers roll back and this one stays committed.")));
	}

	/* the decisions first: they count once the local transaction commits */
	foreach(lc, can)
	{
		entry = lfirst(lc);
		if (!entry->xa_open)
			mf_twophase_gid(entry, entry->gid);
	}
	mf_record_decisions(can);

	/* on disk before any PREPARE: the resolver ends only what it logged */
	mf_intents_log(can);
	foreach(lc, can)
		((MfConnEntry *) lfirst(lc))->intent_logged = true;
	mf_prepare_all(can);
	mf_fault("fail_prepare");

	/* the local commit must be on disk before any COMMIT PREPARED */
	ForceSyncCommit();

	if (cannot != NIL)
	{
		mf_fault("fail_last_resource");
		mf_commit_one_phase_all(cannot);
	}
	mf_commit_one_phase_all(readers);
	mf_fault("crash_before_local_commit");
}

/*
 * After the local commit: commit every prepared transaction.  Nothing here
 * may raise: the local transaction is committed already.
 */
static void
mf_twophase_commit(HTAB *connections)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;
	List	   *steps = NIL;
	ListCell   *lc;

	hash_seq_init(&scan, connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry->conn == NULL || !entry->prepared)
			continue;
		entry->prepared = false;
		mf_xact_step(&steps, entry,
					 psprintf(entry->dialect->commit_prepared_fmt, entry->gid),
					 false);
	}
	if (steps == NIL)
		return;
	mf_fault("crash_after_local_commit");
	mf_fault("sleep_after_local_commit");

	mf_xact_run_steps(steps, false, false);
	foreach(lc, steps)
	{
		MfXactStep *st = lfirst(lc);

		entry = st->entry;
		if (!st->ok)
		{
			mf_report_error(WARNING, entry->servername, entry->dialect,
							&st->err, st->sql);
			ereport(WARNING,
					(errmsg("the remote transaction %s on server \"%s\" is in doubt",
							entry->gid, entry->servername),
					 errdetail("The local transaction committed; the remote one is prepared."),
					 errhint("Run multi_fdw_resolve() to commit it once the server is reachable.")));
			entry->intent_logged = false;
			mf_intents_hand_over(entry->gid);
			continue;
		}
		entry->intent_logged = false;
		{
			MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

			mf_done_gids = lappend(mf_done_gids, pstrdup(entry->gid));
			MemoryContextSwitchTo(old);
		}
		mf_intents_done_quietly(entry->gid);
	}
}

/*
 * The local transaction aborts: the servers with parallel_abort whose
 * transaction is neither prepared nor XA get their ROLLBACK at once, the
 * others in turn (mf_twophase_abort).  Connections whose state is unknown
 * are left out: they are dropped.
 */
static void
mf_twophase_abort_all(HTAB *connections)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;
	List	   *steps = NIL;
	List	   *others = NIL;
	ListCell   *lc;

	mf_xid_for_xa = false;
	hash_seq_init(&scan, connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry->conn == NULL || entry->xact_depth == 0)
			continue;
		if (entry->changing_xact_state && !entry->prepared)
		{
			/* state unknown: dropped; what it logged is the resolver's */
			if (entry->intent_logged)
			{
				entry->intent_logged = false;
				mf_intents_hand_over(entry->gid);
			}
			continue;
		}
		if (entry->parallel_abort && !entry->prepared && !entry->xa_open &&
			!entry->intent_logged &&
			!entry->transport->is_broken(entry->conn))
		{
			MfXactStep *st = mf_xact_step(&steps, entry, "ROLLBACK", false);

			st->rollback = true;
			entry->stream_owner = NULL;
			entry->stream_finish = NULL;
		}
		else
			others = lappend(others, entry);
	}
	mf_xact_run_steps(steps, true, false);
	foreach(lc, steps)
	{
		MfXactStep *st = lfirst(lc);

		if (st->ok)
			continue;
		if (!st->entry->transport->is_broken(st->entry->conn))
			mf_report_error(WARNING, st->entry->servername, st->entry->dialect,
							&st->err, "ROLLBACK");
		st->entry->changing_xact_state = true;	/* drop it */
	}
	foreach(lc, others)
		mf_twophase_abort(lfirst(lc));
}

/*
 * The local transaction aborts: end the remote one, prepared or not.  One
 * logged before its PREPARE is marked ended in the log only when it surely
 * is: a PREPARE whose answer was lost may have prepared it.
 */
void
mf_twophase_abort(MfConnEntry *entry)
{
	MfError		err;
	char	   *sql;
	bool		logged = entry->intent_logged;

	mf_xid_for_xa = false;
	entry->intent_logged = false;
	if (!entry->prepared && !entry->xa_open)
	{
		mf_abort_remote(entry);
		if (logged && !entry->changing_xact_state &&
			!entry->transport->is_broken(entry->conn))
			mf_intents_done_quietly(entry->gid);
		else if (logged)
			mf_intents_hand_over(entry->gid);	/* a lost PREPARE's answer */
		return;
	}
	entry->stream_owner = NULL;
	entry->stream_finish = NULL;
	mf_error_clear(&err);
	if (entry->xa_open)
	{
		/* ending it may fail when it already ended: the rollback says */
		sql = psprintf(entry->dialect->xa_end_fmt, entry->gid);
		(void) entry->transport->exec(entry->conn, sql, NULL, &err);
		mf_error_clear(&err);
	}
	sql = psprintf(entry->dialect->rollback_prepared_fmt, entry->gid);
	if (!entry->transport->exec(entry->conn, sql, NULL, &err))
	{
		if (!entry->transport->is_broken(entry->conn))
			mf_report_error(WARNING, entry->servername, entry->dialect, &err, sql);
		if (entry->prepared)
			ereport(WARNING,
					(errmsg("the remote transaction %s on server \"%s\" is left prepared",
							entry->gid, entry->servername),
					 errhint("Run multi_fdw_resolve() to roll it back once the server is reachable.")));
		entry->changing_xact_state = true;	/* drop the connection */
		if (logged)
			mf_intents_hand_over(entry->gid);
	}
	else if (logged)
		mf_intents_done_quietly(entry->gid);
	entry->prepared = false;
	entry->xa_open = false;
}
