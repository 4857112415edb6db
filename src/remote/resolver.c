/*-------------------------------------------------------------------------
 *
 * resolver.c
 *		A background worker that resolves what two-phase commit left in
 *		doubt, when multi_fdw is in shared_preload_libraries.
 *
 * Every multi_fdw.resolver_naptime seconds it runs multi_fdw_resolve() in
 * the database multi_fdw.resolver_database (the decision table it judges
 * by is that database's), as the bootstrap superuser.  A server it cannot
 * reach is a WARNING in the log, and is tried again next time.  Without
 * the worker, multi_fdw_resolve() is how (docs/transactions.md).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"

#include "remote/remote.h"

static char *mf_resolver_database = NULL;
static int	mf_resolver_naptime = 10;

PGDLLEXPORT void multi_fdw_resolver_main(Datum arg);

void
mf_resolver_init(void)
{
	BackgroundWorker bgw;

	DefineCustomStringVariable("multi_fdw.resolver_database",
							   "The database whose in-doubt transactions the resolver worker resolves.",
							   NULL, &mf_resolver_database, "postgres",
							   PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("multi_fdw.resolver_naptime",
							"Time between two runs of the resolver worker.",
							NULL, &mf_resolver_naptime, 10, 1, 3600,
							PGC_SIGHUP, GUC_UNIT_S, NULL, NULL, NULL);
	if (!process_shared_preload_libraries_in_progress)
		return;

	memset(&bgw, 0, sizeof(bgw));
	bgw.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	bgw.bgw_start_time = BgWorkerStart_RecoveryFinished;
	bgw.bgw_restart_time = 10;
	snprintf(bgw.bgw_library_name, BGW_MAXLEN, "multi_fdw");
	snprintf(bgw.bgw_function_name, BGW_MAXLEN, "multi_fdw_resolver_main");
	snprintf(bgw.bgw_name, BGW_MAXLEN, "multi_fdw resolver");
	snprintf(bgw.bgw_type, BGW_MAXLEN, "multi_fdw resolver");
	RegisterBackgroundWorker(&bgw);
}

/* One pass: multi_fdw_resolve() where the extension is installed. */
static void
mf_resolver_pass(void)
{
	MfRunAs		ra;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	/* a superuser's session: nobody's names but pg_catalog's */
	mf_run_as_begin(&ra, InvalidOid);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "multi_fdw_resolve()");

	if (SPI_execute("SELECT n.nspname FROM pg_catalog.pg_extension e"
					" JOIN pg_catalog.pg_namespace n"
					" ON n.oid OPERATOR(pg_catalog.=) e.extnamespace"
					" WHERE e.extname OPERATOR(pg_catalog.=) 'multi_fdw'", true, 1) == SPI_OK_SELECT &&
		SPI_processed == 1)
	{
		char	   *schema = SPI_getvalue(SPI_tuptable->vals[0],
										  SPI_tuptable->tupdesc, 1);

		(void) SPI_execute(psprintf("SELECT pg_catalog.count(*) FROM %s.multi_fdw_resolve(NULL::pg_catalog.text)",
									quote_identifier(schema)), false, 0);
	}

	SPI_finish();
	PopActiveSnapshot();
	mf_run_as_end(&ra);
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
}

void
multi_fdw_resolver_main(Datum arg)
{
	char	   *database;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	database = pstrdup(mf_resolver_database);
	BackgroundWorkerInitializeConnection(database, NULL, 0);

	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			/* another database: start again there (bgw_restart_time) */
			if (strcmp(database, mf_resolver_database) != 0)
			{
				ereport(LOG,
						(errmsg("multi_fdw resolver: multi_fdw.resolver_database is now \"%s\", restarting",
								mf_resolver_database)));
				proc_exit(1);
			}
		}
		mf_resolver_pass();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 mf_resolver_naptime * 1000L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}
