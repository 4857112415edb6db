/*-------------------------------------------------------------------------
 *
 * run_extent.c
 *		Whether the executor's run that reads a scan asks for every row.
 *
 * A result the planner chose to read without a cursor, so that the
 * remote's parallel workers may compute it (a query shipped whole, a
 * grouping: plan/scan_plan.c, mf_plan_read), is read to its end even when
 * its reader stops early: the rows left on the wire are read and dropped,
 * since cancelling the statement would fail the remote transaction.  That
 * costs the whole result where a few rows were wanted, and a remote error
 * in a row nobody asked for (a division by zero further on) fails the
 * remote transaction.  Readers that stop early are common: PL/pgSQL's
 * SELECT ... INTO runs its plan for one row (two with STRICT), a SQL
 * function's set is read a row at a time, a protocol-level portal a fetch
 * size at a time, a cursor as its FETCHes ask.
 *
 * PostgreSQL draws the same line for its own parallel workers: a run with
 * a row count, or a run of a plan already run in part, never uses them
 * (ExecutePlan, QueryDesc.already_executed).  So each ExecutorRun is
 * watched (ExecutorRun_hook) and a scan opened in it asks
 * mf_run_reads_all(): whether this run is one call for every row.  When it is not, such a result is read through a cursor
 * after all (exec/scan.c, mf_scan_open).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"

#include "exec/exec.h"

static ExecutorRun_hook_type prev_executor_run = NULL;

/* the innermost run going on asks for every row at once */
static bool mf_reads_all = false;

bool
mf_run_reads_all(void)
{
	return mf_reads_all;
}

#if PG_VERSION_NUM >= 180000
static void
mf_executor_run(QueryDesc *queryDesc, ScanDirection direction, uint64 count)
#else
static void
mf_executor_run(QueryDesc *queryDesc, ScanDirection direction, uint64 count,
				bool execute_once)
#endif
{
	bool		save = mf_reads_all;

	/*
	 * ExecutePlan's test for parallel workers, before it runs (the
	 * execute_once of 15 to 17 is ignored by their current releases)
	 */
	mf_reads_all = count == 0 && !queryDesc->already_executed;
	PG_TRY();
	{
#if PG_VERSION_NUM >= 180000
		if (prev_executor_run)
			prev_executor_run(queryDesc, direction, count);
		else
			standard_ExecutorRun(queryDesc, direction, count);
#else
		if (prev_executor_run)
			prev_executor_run(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
#endif
	}
	PG_FINALLY();
	{
		mf_reads_all = save;
	}
	PG_END_TRY();
}

void
mf_run_extent_init(void)
{
	if (ExecutorRun_hook != mf_executor_run)
	{
		prev_executor_run = ExecutorRun_hook;
		ExecutorRun_hook = mf_executor_run;
	}
}
