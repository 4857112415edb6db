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
 * Planning connects to the remote, through the user's mapping.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"

#include "multi_fdw.h"

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
 * Fill fpinfo's rows, width and costs from the remote's plan of the scan
 * of baserel.
 */
void
mf_remote_estimate(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
				   MfRelInfo *fpinfo)
{
	const MfDialect *dialect = fpinfo->opts.dialect;
	MfConnEntry *entry;
	const MfTransport *tr;
	Relation	rel;
	StringInfoData sql;
	List	   *retrieved;
	List	   *params = NIL;
	MfStmt	   *stmt;
	MfResult   *res = NULL;
	MfError		err;
	long		affected;
	double		rows = 0;
	int			width = 0;
	Cost		startup = 0;
	Cost		total = 0;
	bool		parsed = false;

	if (dialect->explain_prefix == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("use_remote_estimate is not supported by dialect %s",
						dialect->name)));

	initStringInfo(&sql);
	appendStringInfoString(&sql, dialect->explain_prefix);
	rel = table_open(relid, NoLock);
	mf_deparse_select(&sql, root, baserel, rel, fpinfo->attrs_used,
					  mf_estimate_conditions(root, baserel, fpinfo->remote_conds),
					  LCS_NONE, LockWaitBlock, &retrieved, &params);
	table_close(rel, NoLock);

	entry = mf_get_connection(fpinfo->user, &fpinfo->opts);
	mf_claim_connection(entry, NULL);
	tr = mf_conn_transport(entry);
	mf_error_clear(&err);
	stmt = tr->prepare(mf_conn(entry), sql.data, 0, NULL, &err);
	if (stmt == NULL)
		mf_raise_error(ERROR, entry, &err, sql.data);
	if (!tr->execute(stmt, NULL, &affected, &res, &err))
	{
		tr->stmt_close(stmt);
		mf_raise_error(ERROR, entry, &err, sql.data);
	}
	if (res != NULL)
	{
		int			n = tr->fetch(res, &err);

		if (n > 0)
			parsed = dialect->parse_explain(tr->value(res, 0, 0), &rows,
											&width, &startup, &total);
		tr->result_close(res);
	}
	tr->stmt_close(stmt);
	if (!parsed)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_ERROR),
				 errmsg("could not read the remote estimate of foreign table \"%s\"",
						get_rel_name(relid)),
				 errcontext("remote SQL on server \"%s\": %s",
							fpinfo->opts.servername, sql.data)));

	/*
	 * The remote's rows are those its conditions let through; the local
	 * conditions keep a share of them.
	 */
	baserel->rows = clamp_row_est(rows * fpinfo->local_conds_sel);
	baserel->reltarget->width = width;
	fpinfo->rows = baserel->rows;
	fpinfo->startup_cost = startup + fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup;
	fpinfo->total_cost = total + fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost +
		 fpinfo->local_conds_cost.per_tuple) * rows;
}
