/*-------------------------------------------------------------------------
 *
 * estimate.c
 *		A scan's size and cost as the remote planner sees them
 *		(use_remote_estimate), as postgres_fdw asks for them.
 *
 * The remote is asked to EXPLAIN the SELECT the scan would send, with the
 * conditions that need no parameter (a parameter's value is not known at
 * plan time).  Its row count and width replace the local guess; its costs,
 * plus fdw_startup_cost and fdw_tuple_cost for each row that crosses, are
 * the path's costs.  Conditions checked locally are then costed on top.
 * Planning connects to the remote, through the user's mapping.  Not while
 * a query expected to go whole is planned (whole_query.c sets
 * mf_estimates_deferred): the remote would estimate, a statement at a
 * time, the plan that the whole query replaces.
 *
 * ANALYZE's remote sampling lives here too, because it starts from the
 * remote's own estimate of the table's size, as postgres_fdw 16 does: the
 * share of rows to ask for is the sample ANALYZE wants over the remote's
 * row count, so that only about that many rows cross the network.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <stdlib.h>

#include "access/table.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"

#include "plan/plan.h"

/* planning a query expected to go whole: no estimates asked for */
bool		mf_estimates_deferred = false;

/* The remote conditions that can be sent without a parameter. */
static List *
mf_estimate_conditions(PlannerInfo *root, RelOptInfo *baserel, List *conds)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, conds)
	{
		StringInfoData scratch;
		List	   *params = NIL;

		initStringInfo(&scratch);
		mf_deparse_conditions(&scratch, root, baserel, list_make1(lfirst(lc)),
							  "", &params);
		if (params == NIL)
			result = lappend(result, lfirst(lc));
		pfree(scratch.data);
	}
	return result;
}

/*
 * The remote planner's estimate of sql (a SELECT without parameters):
 * its rows, width and costs.  what names the relation in an error.
 */
void
mf_ask_remote_estimate(MfRelInfo *fpinfo, const char *sql, const char *what,
					   double *rows, int *width, Cost *startup, Cost *total)
{
	const MfDialect *dialect = fpinfo->opts.dialect;
	MfConnEntry *entry;
	const MfTransport *tr;
	StringInfoData explain;
	MfStmt	   *stmt;
	MfResult   *res = NULL;
	MfError		err;
	long		affected;
	bool		parsed = false;

	if (dialect->explain_prefix == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("use_remote_estimate is not supported by dialect %s",
						dialect->name)));
	initStringInfo(&explain);
	appendStringInfo(&explain, "%s%s", dialect->explain_prefix, sql);

	entry = mf_get_connection(fpinfo->user, &fpinfo->opts);
	mf_claim_connection(entry, NULL);
	tr = mf_conn_transport(entry);
	mf_error_clear(&err);
	stmt = tr->prepare(mf_conn(entry), explain.data, 0, NULL, &err);
	if (stmt == NULL)
		mf_raise_error(ERROR, entry, &err, explain.data);
	if (!tr->execute(stmt, NULL, &affected, &res, &err))
	{
		tr->stmt_close(stmt);
		mf_raise_error(ERROR, entry, &err, explain.data);
	}
	*rows = 0;
	*width = 0;
	*startup = *total = 0;
	if (res != NULL)
	{
		int			n = tr->fetch(res, &err);

		if (n > 0)
			parsed = dialect->parse_explain(tr->value(res, 0, 0), rows,
											width, startup, total);
		tr->result_close(res);
	}
	tr->stmt_close(stmt);
	if (!parsed)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_ERROR),
				 errmsg("could not read the remote estimate of %s", what),
				 errcontext("remote SQL on server \"%s\": %s",
							fpinfo->opts.servername, explain.data)));
}

/*
 * Fill fpinfo's rows, width and costs from the remote's plan of the scan
 * of baserel.
 */
void
mf_remote_estimate(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
				   MfRelInfo *fpinfo)
{
	Relation	rel;
	StringInfoData sql;
	List	   *retrieved;
	List	   *params = NIL;
	double		rows;
	int			width;
	Cost		startup;
	Cost		total;

	initStringInfo(&sql);
	rel = table_open(relid, NoLock);
	mf_deparse_select(&sql, root, baserel, rel, fpinfo->attrs_used,
					  mf_estimate_conditions(root, baserel, fpinfo->remote_conds),
					  LCS_NONE, LockWaitBlock, &retrieved, &params);
	table_close(rel, NoLock);
	mf_ask_remote_estimate(fpinfo, sql.data,
						   psprintf("foreign table \"%s\"", get_rel_name(relid)),
						   &rows, &width, &startup, &total);

	/*
	 * The remote's rows are those its conditions let through; the local
	 * conditions keep a share of them.
	 */
	baserel->rows = clamp_row_est(rows * fpinfo->local_conds_sel);
	baserel->reltarget->width = width;
	fpinfo->rows = baserel->rows;
	fpinfo->retrieved = clamp_row_est(rows);
	fpinfo->remote_cost = total;
	fpinfo->startup_cost = startup + fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup;
	fpinfo->total_cost = total + fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost +
		 fpinfo->local_conds_cost.per_tuple) * rows;
}

/* ---------------------------------------------------------------------
 * ANALYZE's remote sample (analyze_sampling)
 * ---------------------------------------------------------------------
 */

/*
 * How ANALYZE reads rel: the method, and in *fraction the share of rows
 * to ask for; MF_SAMPLE_OFF to read every row.  *reltuples is the
 * remote's estimate of the row count, the table's size when sampled.
 */
MfSampleMethod
mf_analyze_sample(MfConnEntry *entry, Relation rel, const MfOptions *opts,
				  int targrows, double *reltuples, double *fraction)
{
	const MfDialect *dialect = opts->dialect;
	const MfTransport *tr = mf_conn_transport(entry);
	MfSampleMethod method = opts->analyze_sampling;
	MfTypeClass classes[2] = {MF_TYPE_TEXT, MF_TYPE_TEXT};
	const char *values[2];
	const char *fmt = dialect->sample_estimate_fmt;
	char	   *sql;
	bool		can_tablesample = false;
	MfResult   *res;
	MfError		err;
	int			n;

	*reltuples = -1;
	*fraction = 1;
	mf_check_sample_method(dialect, method);
	if (method == MF_SAMPLE_OFF || fmt == NULL)
		return MF_SAMPLE_OFF;

	sql = mf_deparse_catalog_query(fmt, tr->markers, 2);
	mf_remote_table_name(rel, dialect, &values[0], &values[1]);
	mf_claim_connection(entry, NULL);
	mf_error_clear(&err);
	res = tr->query(mf_conn(entry), sql, 2, values, classes,
					mf_read(MF_READ_WHOLE, 0), &err);
	n = res == NULL ? -1 : tr->fetch(res, &err);

	/*
	 * A remote without the catalog the dialect expects (a server that only
	 * speaks the dialect): auto reads every row, as without an estimate; a
	 * method the user named is an error.
	 */
	if (n < 0 && method == MF_SAMPLE_AUTO && !err.conn_lost)
	{
		if (res != NULL)
			tr->result_close(res);
		mf_report_error(DEBUG1, mf_conn_server_name(entry), dialect, &err, sql);
		return MF_SAMPLE_OFF;
	}
	if (res == NULL)
		mf_raise_error(ERROR, entry, &err, sql);
	if (n > 0)
	{
		const char *rows = tr->value(res, 0, 0);
		const char *sampleable = tr->value(res, 0, 1);

		if (rows != NULL)
		{
			double		r = strtod(rows, NULL);

			/*
			 * nan or inf would make no sample, or no SQL; a huge count
			 * would be stored as an infinite reltuples
			 */
			if (isfinite(r))
				*reltuples = Min(r, MF_REMOTE_ROWS_MAX);
		}
		can_tablesample = sampleable != NULL &&
			(sampleable[0] == 't' || sampleable[0] == '1');
	}
	tr->result_close(res);
	if (n < 0)
		mf_raise_error(ERROR, entry, &err, sql);

	/*
	 * auto: the dialect's best where the relation allows it, else a random
	 * number per row (a view), which at least spares the network.
	 */
	if (method == MF_SAMPLE_AUTO)
	{
		method = can_tablesample ? dialect->sample_auto : MF_SAMPLE_RANDOM;
		if (!mf_sample_possible(dialect, method))
			return MF_SAMPLE_OFF;
	}

	/*
	 * No estimate (never analyzed, a view), or a table no bigger than the
	 * sample: every row is wanted anyway.
	 */
	if (*reltuples <= 0 || targrows >= *reltuples)
		return MF_SAMPLE_OFF;
	*fraction = targrows / *reltuples;
	return method;
}
