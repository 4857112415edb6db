/*-------------------------------------------------------------------------
 *
 * twophase_resolve.c
 *		What two-phase commit left in doubt: listing it
 *		(multi_fdw_in_doubt) and ending it as the local decision says
 *		(multi_fdw_resolve, the resolver worker).
 *
 * What is in doubt is what this gateway's log holds (twophase_log.c): every
 * remote transaction it was about to prepare and has not seen end.  Nothing
 * is listed from the remotes, so an id that someone else prepared there,
 * even one spelled like ours, is never this gateway's business.  Its
 * decision: commit when the decision table has its row (the local
 * transaction committed), in progress while the local transaction runs,
 * rollback otherwise.
 *
 * Resolving connects through the user mapping that made the transaction,
 * for that transaction alone, under that mapping's user's rules (a
 * non-superuser's password), and never through a superuser's mapping of a
 * server that a non-superuser owns: that owner chose the server's host
 * and its session_sql, which would run with the superuser's credentials.
 * Such a transaction is left for the superuser to end (the action says
 * so).  Each id is ended in a subtransaction of its own: one that fails is
 * a WARNING and the others go on.
 *
 * Everything here runs with the search_path pinned (run_as.c) and names
 * every object with its schema.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_user_mapping.h"
#include "executor/spi.h"
#include "foreign/foreign.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "pgstat.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "remote/remote.h"
#include "remote/connection_int.h"
#include "remote/twophase_int.h"

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
	/* pg_stat_activity as it is now, not as this transaction first read it */
	pgstat_clear_snapshot();
	values[0] = CStringGetTextDatum(psprintf("%u", xid));
	values[1] = TimestampTzGetDatum(made);
	return mf_spi("SELECT 1 FROM pg_catalog.pg_stat_activity"
				  " WHERE backend_xid::pg_catalog.text OPERATOR(pg_catalog.=) $1"
				  " AND xact_start OPERATOR(pg_catalog.<=) $2",
				  2, types, values, true) == SPI_OK_SELECT && SPI_processed > 0;
}

/*
 * Does the decision row exist?  Read with a snapshot taken now, not the
 * statement's: a transaction that committed while this pass ran (after it
 * was found not running) must be seen committed.
 */
static bool
mf_decision_exists(const char *gid)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(gid)};
	bool		found;

	PushActiveSnapshot(GetLatestSnapshot());
	found = mf_spi(psprintf("SELECT 1 FROM %s WHERE gid OPERATOR(pg_catalog.=) $1",
							mf_decision_table()),
				   1, types, values, true) == SPI_OK_SELECT && SPI_processed > 0;
	PopActiveSnapshot();
	return found;
}

/*
 * Is the session that logged an intent still there, and has it not left
 * the intent to the resolver?  Then it is still ending the transaction
 * itself (between its local commit and its COMMIT PREPARED), and a MySQL
 * XA transaction could not be ended from here while it holds it.
 */
static bool
mf_session_at_work(const MfIntent *in)
{
	Oid			types[2] = {INT4OID, TIMESTAMPTZOID};
	Datum		values[2];

	if (in->handed || in->pid == 0 || in->pid == MyProcPid)
		return false;
	pgstat_clear_snapshot();
	values[0] = Int32GetDatum(in->pid);
	values[1] = TimestampTzGetDatum(in->started);
	return mf_spi("SELECT 1 FROM pg_catalog.pg_stat_activity"
				  " WHERE pid OPERATOR(pg_catalog.=) $1"
				  " AND backend_start OPERATOR(pg_catalog.=) $2",
				  2, types, values, true) == SPI_OK_SELECT && SPI_processed > 0;
}

/*
 * The decision of an id: in progress while the transaction that made it
 * runs, or its session is still ending it; else commit when its decision
 * row exists.  In that order: a transaction that ends between the two
 * looks running, or committed, never rolled back by mistake.
 */
static const char *
mf_decision(const MfIntent *in, TransactionId xid, TimestampTz made)
{
	if (mf_still_running(xid, made) || mf_session_at_work(in))
		return "in progress";
	return mf_decision_exists(in->gid) ? "commit" : "rollback";
}

static void
mf_decision_forget(const char *gid)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(gid)};

	(void) mf_spi(psprintf("DELETE FROM %s WHERE gid OPERATOR(pg_catalog.=) $1",
						   mf_decision_table()),
				  1, types, values, false);
}

/*
 * The user mapping of an intent, as its transaction's user found it (a
 * PUBLIC mapping counts as that user's, as when it connected), when it is
 * still the server's and still the one that user gets; else NULL.
 */
static UserMapping *
mf_mapping_of(const MfIntent *in)
{
	HeapTuple	tup = SearchSysCache1(USERMAPPINGOID, ObjectIdGetDatum(in->umid));
	Form_pg_user_mapping um;
	UserMapping *user = NULL;
	Oid			userid;

	if (!HeapTupleIsValid(tup))
		return NULL;
	um = (Form_pg_user_mapping) GETSTRUCT(tup);
	userid = OidIsValid(in->userid) ? in->userid : um->umuser;
	if (um->umserver == in->serverid)
	{
		PG_TRY();
		{
			user = GetUserMapping(userid, um->umserver);
		}
		PG_CATCH();
		{
			ReleaseSysCache(tup);
			PG_RE_THROW();
		}
		PG_END_TRY();
		if (user->umid != in->umid)
			user = NULL;
	}
	ReleaseSysCache(tup);
	return user;
}

/* mf_resolve_one's work on its private connection */
static const char *
mf_resolve_on(MfConnEntry *conn, const MfDialect *dialect,
			  ForeignServer *server, const MfIntent *in, bool commit)
{
	MfError		err;
	char	   *sql;

	mf_error_clear(&err);
	if (dialect->resolve_setup_sql != NULL &&
		!mf_conn_transport(conn)->exec(mf_conn(conn), dialect->resolve_setup_sql,
									   NULL, &err))
		mf_raise_error(ERROR, conn, &err, dialect->resolve_setup_sql);
	sql = psprintf(commit ? dialect->commit_prepared_fmt :
				   dialect->rollback_prepared_fmt, in->gid);
	if (!mf_conn_transport(conn)->exec(mf_conn(conn), sql, NULL, &err))
	{
		if (dialect->prepared_missing_sqlstate != NULL &&
			strcmp(err.sqlstate, dialect->prepared_missing_sqlstate) == 0)
		{
			if (commit)
				ereport(WARNING,
						(errmsg("the remote transaction %s on server \"%s\" was to be committed, but the remote has no such prepared transaction",
								in->gid, server->servername),
						 errdetail("It was committed already, or someone else ended it on the remote.")));
			return commit ? "not found: committed already, or ended on the remote" :
				"already ended";
		}
		mf_raise_error(ERROR, conn, &err, sql);
	}
	return commit ? "committed" : "rolled back";
}

/*
 * End one prepared transaction through the mapping that made it; what was
 * done.  An id the remote does not know: "already ended" when rolling back
 * (a crash may come between the log and the PREPARE); a WARNING when
 * committing, for then someone else ended it, or it was committed and the
 * log's line saying so was lost.
 */
static const char *
mf_resolve_one(ForeignServer *server, const MfIntent *in, bool commit)
{
	UserMapping *user = mf_mapping_of(in);
	MfOptions	opts;
	const MfDialect *dialect;
	MfConnEntry *conn;
	const char *volatile result = NULL;

	if (user == NULL)
		return "failed: its user mapping is gone";
	if (OidIsValid(user->userid) && superuser_arg(user->userid) &&
		!superuser_arg(server->owner))
		return "left alone: made through a superuser's mapping of a server a non-superuser owns; end it on the remote";
	mf_get_options(server->serverid, InvalidOid, &opts);
	/* the dialect's own set-up, never the owner's session_sql, to end it */
	opts.session_sql = NULL;
	dialect = opts.dialect;
	if (dialect->commit_prepared_fmt == NULL || !opts.transport->sql_transaction_control)
		return "failed: the server can no longer prepare transactions";
	conn = mf_connect_private(user, &opts);
	/* the connection is this function's own: it goes however this ends */
	PG_TRY();
	{
		result = mf_resolve_on(conn, dialect, server, in, commit);
	}
	PG_FINALLY();
	{
		mf_disconnect_private(conn);
	}
	PG_END_TRY();
	return result;
}

/*
 * One intent: its decision, and when resolving, its end.  In a
 * subtransaction: a failure is a WARNING and leaves the intent open.
 */
static MfInDoubt *
mf_in_doubt_one(const MfIntent *in, const char *only, bool resolve)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	MfInDoubt  *volatile d = palloc0(sizeof(MfInDoubt));
	TransactionId xid;
	Oid			umid;
	TimestampTz made;

	if (!mf_parse_gid(in->gid, &xid, &umid, &made) || umid != in->umid)
		return NULL;			/* not this gateway's database's */
	d->gid = pstrdup(in->gid);

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		ForeignServer *server = GetForeignServerExtended(in->serverid,
														 FSV_MISSING_OK);

		if (server == NULL)
		{
			d->server = psprintf("(dropped server %u)", in->serverid);
			d->decision = mf_decision(in, xid, made);
			if (resolve)
				d->action = "failed: its server is gone; end it on the remote";
		}
		else if (only != NULL && strcmp(only, server->servername) != 0)
			d = NULL;
		else
		{
			d->server = pstrdup(server->servername);
			d->decision = mf_decision(in, xid, made);
			if (resolve && strcmp(d->decision, "in progress") != 0)
			{
				d->action = mf_resolve_one(server, in,
										   strcmp(d->decision, "commit") == 0);
				if (strncmp(d->action, "left alone", 10) != 0 &&
					strncmp(d->action, "failed", 6) != 0)
				{
					mf_decision_forget(in->gid);
					mf_intents_done(in->gid);
				}
			}
		}
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		char	   *server;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		/* a cancel or a shutdown is for the whole pass, not this id */
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
			ReThrowError(edata);
		/* named with its server: the one that cannot be used is found */
		server = (d != NULL && d->server != NULL) ? d->server :
			psprintf("(server %u)", in->serverid);
		ereport(WARNING,
				(errmsg("could not resolve the remote transaction %s on server \"%s\": %s",
						in->gid, server, edata->message)));
		if (d != NULL)
		{
			d->server = server;
			if (d->decision == NULL)
				d->decision = "unknown";
			d->action = psprintf("failed: %s", edata->message);
		}
		FreeErrorData(edata);
	}
	PG_END_TRY();
	return d;
}

/*
 * Decisions whose transaction the log no longer holds as open: it ended
 * (the log's line is there, or was compacted away) before the row could
 * go.  Their rows go now.
 */
static void
mf_forget_ended_decisions(List *open)
{
	List	   *gone = NIL;
	ListCell   *lc;

	if (mf_spi(psprintf("SELECT gid FROM %s", mf_decision_table()),
			   0, NULL, NULL, true) != SPI_OK_SELECT)
		return;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *g = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		TransactionId xid;
		Oid			umid;
		TimestampTz made;
		bool		listed = false;

		/* another database's, or another identity's: not ours to judge */
		if (!mf_parse_gid(g, &xid, &umid, &made))
			continue;
		foreach(lc, open)
			if (strcmp(((MfIntent *) lfirst(lc))->gid, g) == 0)
				listed = true;
		if (!listed)
			gone = lappend(gone, g);
	}
	foreach(lc, gone)
		mf_decision_forget(lfirst(lc));
}

/* Every open intent of this database with its decision; resolve: end them. */
static List *
mf_in_doubt(const char *only, bool resolve)
{
	MemoryContext cxt = CurrentMemoryContext;
	List	   *open;
	List	   *result = NIL;
	ListCell   *lc;
	MfRunAs		ra;

	/* the caller's search_path must not name what runs here */
	mf_run_as_begin(&ra, InvalidOid);
	if (resolve)
		mf_intents_compact(true);
	open = mf_intents_open();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/*
	 * The rows, and the strings they point to, are the caller's: not in
	 * SPI's procedure context, which SPI_finish frees before they are read.
	 */
	MemoryContextSwitchTo(cxt);
	foreach(lc, open)
	{
		MfInDoubt  *d = mf_in_doubt_one(lfirst(lc), only, resolve);

		if (d != NULL)
			result = lappend(result, d);
	}
	if (resolve && only == NULL)
		mf_forget_ended_decisions(mf_intents_open());
	SPI_finish();
	mf_run_as_end(&ra);
	return result;
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

/* The remote transactions this gateway left in doubt, with the decision. */
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
