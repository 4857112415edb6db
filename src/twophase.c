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

#include "multi_fdw.h"
#include "connection_int.h"

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

void
mf_twophase_init(void)
{
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

static void
mf_gid_prefix(char *buf, size_t len)
{
	snprintf(buf, len, "mf_%016llx_%x_",
			 (unsigned long long) GetSystemIdentifier(), MyDatabaseId);
}

/*
 * The database: its decision table is the one that counts.  The local
 * transaction id and the time tell the resolver whether the transaction is
 * still running (a crash that lost a transaction id's WAL hands the id out
 * again, to a transaction that began later), and the time makes the id
 * unique even then.  All in hex, to fit MySQL's 64 bytes.
 */
void
mf_twophase_gid(MfConnEntry *entry, char *gid)
{
	TransactionId xid = XidFromFullTransactionId(GetTopFullTransactionId());
	char		prefix[48];

	mf_gid_prefix(prefix, sizeof(prefix));
	snprintf(gid, MF_GID_LEN, "%s%x_%x_%llx", prefix, xid, entry->key,
			 (unsigned long long) GetCurrentTimestamp());
}

/* Parse a gid of this gateway's database; false for anyone else's. */
static bool
mf_parse_gid(const char *gid, TransactionId *xid, Oid *umid, TimestampTz *made)
{
	char		prefix[48];
	unsigned int x;
	unsigned int u;
	unsigned long long t;
	char		tail;

	mf_gid_prefix(prefix, sizeof(prefix));
	if (strncmp(gid, prefix, strlen(prefix)) != 0)
		return false;
	if (sscanf(gid + strlen(prefix), "%x_%x_%llx%c", &x, &u, &t, &tail) != 3)
		return false;
	*xid = (TransactionId) x;
	*umid = (Oid) u;
	*made = (TimestampTz) t;
	return true;
}

static bool
mf_can_prepare(MfConnEntry *entry)
{
	return entry->two_phase && entry->dialect->prepare_fmt != NULL &&
		entry->transport->sql_transaction_control &&
		(entry->dialect->xa_start_fmt == NULL || entry->xa_open);
}

const char *
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
static char *
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

void
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

	/* the decisions first: they count once the local transaction commits */
	foreach(lc, can)
	{
		entry = lfirst(lc);
		if (!entry->xa_open)
			mf_twophase_gid(entry, entry->gid);
	}
	mf_record_decisions(can);

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
void
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
			continue;
		}
		{
			MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

			mf_done_gids = lappend(mf_done_gids, pstrdup(entry->gid));
			MemoryContextSwitchTo(old);
		}
	}
}

/*
 * The local transaction aborts: the servers with parallel_abort whose
 * transaction is neither prepared nor XA get their ROLLBACK at once, the
 * others in turn (mf_twophase_abort).  Connections whose state is unknown
 * are left out: they are dropped.
 */
void
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
			continue;			/* state unknown: dropped */
		if (entry->parallel_abort && !entry->prepared && !entry->xa_open &&
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

/* The local transaction aborts: end the remote one, prepared or not. */
void
mf_twophase_abort(MfConnEntry *entry)
{
	MfError		err;
	char	   *sql;

	mf_xid_for_xa = false;
	if (!entry->prepared && !entry->xa_open)
	{
		mf_abort_remote(entry);
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
	}
	entry->prepared = false;
	entry->xa_open = false;
}

/* ---------------------------------------------------------------------
 * In doubt: listing and resolving
 * ---------------------------------------------------------------------
 */

typedef struct MfInDoubt
{
	char	   *server;
	char	   *gid;
	const char *decision;		/* commit, rollback, in progress */
	const char *action;			/* what resolving did; NULL when listing */
} MfInDoubt;

/* Run a query through SPI as it is (superuser functions only). */
static int
mf_spi(const char *sql, int nargs, Oid *types, Datum *values, bool read_only)
{
	return SPI_execute_with_args(sql, nargs, types, values, NULL, read_only, 0);
}

/*
 * Is the transaction that made an id still running?  A transaction with its
 * id that began before the id was made; one that began later got the id
 * again after a crash.
 */
static bool
mf_still_running(TransactionId xid, TimestampTz made)
{
	Oid			types[2] = {TEXTOID, TIMESTAMPTZOID};
	Datum		values[2];

	if (!TransactionIdIsInProgress(xid))
		return false;
	values[0] = CStringGetTextDatum(psprintf("%u", xid));
	values[1] = TimestampTzGetDatum(made);
	return mf_spi("SELECT 1 FROM pg_catalog.pg_stat_activity"
				  " WHERE backend_xid::pg_catalog.text OPERATOR(pg_catalog.=) $1"
				  " AND xact_start OPERATOR(pg_catalog.<=) $2",
				  2, types, values, true) == SPI_OK_SELECT && SPI_processed > 0;
}

static bool
mf_decision_exists(const char *gid)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(gid)};

	return mf_spi(psprintf("SELECT 1 FROM %s WHERE gid OPERATOR(pg_catalog.=) $1", mf_decision_table()),
				  1, types, values, true) == SPI_OK_SELECT && SPI_processed > 0;
}

static void
mf_decision_forget(const char *gid)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(gid)};

	(void) mf_spi(psprintf("DELETE FROM %s WHERE gid OPERATOR(pg_catalog.=) $1", mf_decision_table()),
				  1, types, values, false);
}

/* The user mapping behind an id, or NULL when it is gone. */
static UserMapping *
mf_mapping_by_oid(Oid umid)
{
	HeapTuple	tup = SearchSysCache1(USERMAPPINGOID, ObjectIdGetDatum(umid));
	Form_pg_user_mapping um;
	UserMapping *user;

	if (!HeapTupleIsValid(tup))
		return NULL;
	um = (Form_pg_user_mapping) GETSTRUCT(tup);
	user = GetUserMapping(um->umuser, um->umserver);
	ReleaseSysCache(tup);
	return user;
}

/*
 * The prepared transactions of this gateway on one server, through a
 * connection of the server's first user mapping that connects.
 */
static List *
mf_list_prepared(ForeignServer *server, const MfOptions *opts)
{
	const MfDialect *dialect = opts->dialect;
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(server->serverid)};
	List	   *gids = NIL;
	MfConnEntry *conn = NULL;
	uint64		nmap;

	if (mf_spi("SELECT umid FROM pg_catalog.pg_user_mappings WHERE srvid OPERATOR(pg_catalog.=) $1 ORDER BY umid",
			   1, types, values, true) != SPI_OK_SELECT)
		elog(ERROR, "could not read the user mappings of server \"%s\"",
			 server->servername);
	nmap = SPI_processed;
	for (uint64 i = 0; i < nmap && conn == NULL; i++)
	{
		bool		isnull;
		Oid			umid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
														  SPI_tuptable->tupdesc,
														  1, &isnull));
		UserMapping *user = mf_mapping_by_oid(umid);

		if (user != NULL)
			conn = mf_connect_private(user, opts);
	}
	if (conn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("server \"%s\" has no user mapping to list its prepared transactions with",
						server->servername)));

	{
		const MfTransport *tr = mf_conn_transport(conn);
		const char *begin = dialect->begin_sql ? dialect->begin_sql(false) : NULL;
		MfResult   *res;
		MfError		err;
		int			n;
		char		prefix[48];

		mf_gid_prefix(prefix, sizeof(prefix));
		mf_error_clear(&err);
		if (!tr->begin(mf_conn(conn), begin, &err))
			mf_raise_error(ERROR, conn, &err, begin ? begin : "(begin transaction)");
		res = tr->query(mf_conn(conn), dialect->list_prepared_sql, 0, NULL, NULL,
						0, &err);
		if (res == NULL)
			mf_raise_error(ERROR, conn, &err, dialect->list_prepared_sql);
		while ((n = tr->fetch(res, &err)) > 0)
			for (int row = 0; row < n; row++)
			{
				const char *gid = tr->value(res, row, dialect->list_prepared_col);

				/* XA RECOVER's data is binary: it comes as bytea text */
				if (gid != NULL && gid[0] == '\\' && gid[1] == 'x')
					gid = text_to_cstring(DatumGetByteaPP(DirectFunctionCall1(byteain,
																			  CStringGetDatum(gid))));
				if (gid != NULL && strncmp(gid, prefix, strlen(prefix)) == 0)
					gids = lappend(gids, pstrdup(gid));
			}
		tr->result_close(res);
		if (n < 0)
			mf_raise_error(ERROR, conn, &err, dialect->list_prepared_sql);
		(void) tr->commit(mf_conn(conn), &err);
	}
	mf_disconnect_private(conn);
	return gids;
}

/*
 * End one prepared transaction from a session of its own user mapping.  One
 * that no longer exists (ended meanwhile) is "already ended".
 */
static const char *
mf_resolve_one(const MfOptions *opts, const char *gid, Oid umid, bool commit)
{
	const MfDialect *dialect = opts->dialect;
	UserMapping *user = mf_mapping_by_oid(umid);
	MfConnEntry *conn;
	MfError		err;
	char	   *sql;

	if (user == NULL)
		return "failed: its user mapping is gone";
	conn = mf_connect_private(user, opts);
	mf_error_clear(&err);
	if (dialect->resolve_setup_sql != NULL &&
		!mf_conn_transport(conn)->exec(mf_conn(conn), dialect->resolve_setup_sql,
									   NULL, &err))
		mf_raise_error(ERROR, conn, &err, dialect->resolve_setup_sql);
	sql = psprintf(commit ? dialect->commit_prepared_fmt :
				   dialect->rollback_prepared_fmt, gid);
	if (!mf_conn_transport(conn)->exec(mf_conn(conn), sql, NULL, &err))
	{
		if (dialect->prepared_missing_sqlstate != NULL &&
			strcmp(err.sqlstate, dialect->prepared_missing_sqlstate) == 0)
		{
			mf_disconnect_private(conn);
			return "already ended";
		}
		mf_raise_error(ERROR, conn, &err, sql);
	}
	mf_disconnect_private(conn);
	return commit ? "committed" : "rolled back";
}

/* One server's part of mf_in_doubt: rows are added to *result. */
static void
mf_in_doubt_server(ForeignServer *server, const MfOptions *opts, bool resolve,
				   List **result)
{
	List	   *gids = mf_list_prepared(server, opts);
	ListCell   *lg;
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(server->serverid)};
	List	   *done = NIL;

	foreach(lg, gids)
	{
		const char *gid = lfirst(lg);
		MfInDoubt  *d = palloc0(sizeof(MfInDoubt));
		TransactionId xid;
		Oid			umid;
		TimestampTz made;

		if (!mf_parse_gid(gid, &xid, &umid, &made))
			continue;
		/* another foreign server on the same remote made it */
		{
			UserMapping *user = mf_mapping_by_oid(umid);

			if (user != NULL && user->serverid != server->serverid)
				continue;
		}
		d->server = pstrdup(server->servername);
		d->gid = pstrdup(gid);
		d->decision = mf_decision_exists(gid) ? "commit" :
			mf_still_running(xid, made) ?
			"in progress" : "rollback";
		if (resolve && strcmp(d->decision, "in progress") != 0)
		{
			d->action = mf_resolve_one(opts, gid, umid,
									   strcmp(d->decision, "commit") == 0);
			mf_decision_forget(gid);
		}
		*result = lappend(*result, d);
	}
	if (!resolve)
		return;

	/*
	 * A decision whose transaction was not listed was most likely carried
	 * out already; committing it again says so for sure ("already ended")
	 * before its row goes.
	 */
	if (mf_spi(psprintf("SELECT gid, umid FROM %s WHERE serverid OPERATOR(pg_catalog.=) $1",
						mf_decision_table()), 1, types, values, true) != SPI_OK_SELECT)
		return;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *g = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		char	   *u = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);
		bool		listed = false;

		foreach(lg, gids)
			if (strcmp(lfirst(lg), g) == 0)
				listed = true;
		if (!listed)
			done = lappend(done, list_make2(g, u));
	}
	foreach(lg, done)
	{
		List	   *pair = lfirst(lg);
		char	   *g = linitial(pair);
		const char *action = mf_resolve_one(opts, g, atooid(lsecond(pair)), true);

		if (strcmp(action, "already ended") != 0)
		{
			MfInDoubt  *d = palloc0(sizeof(MfInDoubt));

			d->server = pstrdup(server->servername);
			d->gid = g;
			d->decision = "commit";
			d->action = action;
			*result = lappend(*result, d);
		}
		mf_decision_forget(g);
	}
}

/* mf_in_doubt_server in a subtransaction: a failure is a WARNING. */
static void
mf_in_doubt_try(ForeignServer *server, const MfOptions *opts, bool resolve,
				List **result)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		mf_in_doubt_server(server, opts, resolve, result);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		ereport(WARNING,
				(errmsg("could not resolve the prepared transactions of server \"%s\": %s",
						server->servername, edata->message)));
		FreeErrorData(edata);
	}
	PG_END_TRY();
}

/*
 * Every server's prepared transactions of this gateway with the local
 * decision; resolve: end them too.  A server that cannot be reached is a
 * WARNING and the others go on (each server in a subtransaction).
 */
static List *
mf_in_doubt(const char *only, bool resolve)
{
	ForeignDataWrapper *fdw = GetForeignDataWrapperByName("multi_fdw", false);
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(fdw->fdwid)};
	List	   *servers = NIL;
	List	  **result = palloc0(sizeof(List *));
	ListCell   *lc;
	MfRunAs		ra;

	/* the caller's search_path must not name what runs here */
	mf_run_as_begin(&ra, InvalidOid);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (mf_spi("SELECT oid FROM pg_catalog.pg_foreign_server WHERE srvfdw OPERATOR(pg_catalog.=) $1 ORDER BY srvname",
			   1, types, values, true) != SPI_OK_SELECT)
		elog(ERROR, "could not read the foreign servers");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		servers = lappend_oid(servers,
							  DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
															 SPI_tuptable->tupdesc,
															 1, &isnull)));
	}

	foreach(lc, servers)
	{
		ForeignServer *server = GetForeignServer(lfirst_oid(lc));
		MfOptions	opts;

		if (only != NULL && strcmp(only, server->servername) != 0)
			continue;
		mf_get_options(server->serverid, InvalidOid, &opts);
		if (opts.dialect->list_prepared_sql == NULL ||
			!opts.transport->sql_transaction_control)
			continue;
		/* only servers that prepare, unless named: the others have none */
		if (only == NULL && !opts.two_phase_commit)
			continue;
		mf_in_doubt_try(server, &opts, resolve, result);
	}
	SPI_finish();
	mf_run_as_end(&ra);
	return *result;
}

static Datum
mf_in_doubt_srf(FunctionCallInfo fcinfo, bool resolve)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const char *only = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	List	   *rows;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	rows = mf_in_doubt(only, resolve);
	foreach(lc, rows)
	{
		MfInDoubt  *d = lfirst(lc);
		Datum		values[4];
		bool		nulls[4] = {false, false, false, false};

		values[0] = CStringGetTextDatum(d->server);
		values[1] = CStringGetTextDatum(d->gid);
		values[2] = CStringGetTextDatum(d->decision);
		if (d->action != NULL)
			values[3] = CStringGetTextDatum(d->action);
		else
			nulls[3] = true;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(multi_fdw_in_doubt);
PG_FUNCTION_INFO_V1(multi_fdw_resolve);

/* The remote prepared transactions of this gateway, with their decision. */
Datum
multi_fdw_in_doubt(PG_FUNCTION_ARGS)
{
	return mf_in_doubt_srf(fcinfo, false);
}

/* The same, each one committed or rolled back as its decision says. */
Datum
multi_fdw_resolve(PG_FUNCTION_ARGS)
{
	return mf_in_doubt_srf(fcinfo, true);
}
