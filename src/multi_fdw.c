/*-------------------------------------------------------------------------
 *
 * multi_fdw.c
 *		The handler: which callback of the FDW API lives where.
 *
 * Scans are planned in plan/scan_plan.c and run in exec/scan.c,
 * modifications planned in plan/modify_plan.c and run in exec/modify.c
 * (batched inserts through exec/buffer.c) or sent whole by
 * exec/direct_modify.c, IMPORT FOREIGN SCHEMA is in exec/import.c;
 * multi_fdw_exec, below, checks its statement in remote/exec_guard.c;
 * multi_fdw_query, which returns rows, is exec/remote_query.c.
 * Every remote conversation goes through a transport (src/transport/) and
 * every piece of SQL through deparse/ and a dialect (dialects/), which the
 * handler registers as the library loads (docs/architecture.md: the
 * layers, and why the registry does not name them itself).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"

#include "exec/exec.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	/* the dialects, in the order lists name them (registry.c) */
	mf_register_dialect(&mf_dialect_postgres);
	mf_register_dialect(&mf_dialect_mysql);
	mf_register_dialect(&mf_dialect_sqlserver);
	mf_register_dialect(&mf_dialect_oracle);

	mf_install_wait();
	mf_options_init();
	mf_stats_init();
	mf_twophase_init();
	mf_resolver_init();
	mf_depjoin_exec_init();		/* before the planner's hook that names it */
	mf_depjoin_init();
	mf_whole_query_init();
	mf_run_extent_init();
	mf_jit_choice_init();
	mf_appname_init();
}

PG_FUNCTION_INFO_V1(multi_fdw_handler);

Datum
multi_fdw_handler(PG_FUNCTION_ARGS)
{
	FdwRoutine *routine = makeNode(FdwRoutine);

	/* scans */
	routine->GetForeignRelSize = mfGetForeignRelSize;
	routine->GetForeignPaths = mfGetForeignPaths;
	routine->GetForeignPlan = mfGetForeignPlan;
	routine->BeginForeignScan = mfBeginForeignScan;
	routine->IterateForeignScan = mfIterateForeignScan;
	routine->ReScanForeignScan = mfReScanForeignScan;
	routine->EndForeignScan = mfEndForeignScan;
	routine->ExplainForeignScan = mfExplainForeignScan;
	routine->AnalyzeForeignTable = mfAnalyzeForeignTable;
	routine->GetForeignJoinPaths = mfGetForeignJoinPaths;
	routine->GetForeignUpperPaths = mfGetForeignUpperPaths;

	/* several servers read at once under an Append */
	routine->IsForeignPathAsyncCapable = mfIsForeignPathAsyncCapable;
	routine->ForeignAsyncRequest = mfForeignAsyncRequest;
	routine->ForeignAsyncConfigureWait = mfForeignAsyncConfigureWait;
	routine->ForeignAsyncNotify = mfForeignAsyncNotify;

	/* modifications */
	routine->AddForeignUpdateTargets = mfAddForeignUpdateTargets;
	routine->PlanForeignModify = mfPlanForeignModify;
	routine->BeginForeignModify = mfBeginForeignModify;
	routine->ExecForeignInsert = mfExecForeignInsert;
	routine->ExecForeignBatchInsert = mfExecForeignBatchInsert;
	routine->GetForeignModifyBatchSize = mfGetForeignModifyBatchSize;
	routine->ExecForeignUpdate = mfExecForeignUpdate;
	routine->ExecForeignDelete = mfExecForeignDelete;
	routine->EndForeignModify = mfEndForeignModify;
	routine->BeginForeignInsert = mfBeginForeignInsert;
	routine->EndForeignInsert = mfEndForeignInsert;
	routine->IsForeignRelUpdatable = mfIsForeignRelUpdatable;
	routine->PlanDirectModify = mfPlanDirectModify;
	routine->BeginDirectModify = mfBeginDirectModify;
	routine->IterateDirectModify = mfIterateDirectModify;
	routine->EndDirectModify = mfEndDirectModify;
	routine->ExplainForeignModify = mfExplainForeignModify;
	routine->ExplainDirectModify = mfExplainDirectModify;

	/* IMPORT FOREIGN SCHEMA */
	routine->ImportForeignSchema = mfImportForeignSchema;
	routine->ExecForeignTruncate = mfExecForeignTruncate;

	PG_RETURN_POINTER(routine);
}

/*
 * multi_fdw_exec(server, sql): one statement on a server, as the current
 * user's mapping, inside the remote transaction tied to the local one.
 * Using it needs USAGE on the server, as a foreign table on it would.
 */
PG_FUNCTION_INFO_V1(multi_fdw_exec);

Datum
multi_fdw_exec(PG_FUNCTION_ARGS)
{
	char	   *servername = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	ForeignServer *server;
	MfOptions	opts;
	MfConnEntry *entry;
	long		rows = 0;

	server = mf_user_statement_server("multi_fdw_exec", servername, sql, &opts);
	entry = mf_get_connection(GetUserMapping(GetUserId(), server->serverid), &opts);
	mf_check_statement_size(entry, "multi_fdw_exec", sql, 0, NULL, NULL);
	mf_exec_user_statement(entry, sql, &rows);
	PG_RETURN_INT64(rows);
}
