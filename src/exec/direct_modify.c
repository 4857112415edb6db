/*-------------------------------------------------------------------------
 *
 * direct_modify.c
 *		An UPDATE or DELETE sent whole, as one remote statement, when every
 *		clause and every new value can be evaluated remotely.
 *
 * The statement's text is deparse_stmt.c's (mf_deparse_direct_modify).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/appendinfo.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "exec/exec.h"

/* fdw_private of a direct UPDATE/DELETE ForeignScan, by position */
enum MfDirectPrivate
{
	MF_DIRECT_SQL,
	MF_DIRECT_SET_PROCESSED
};

typedef struct MfDirectState
{
	MfConnEntry *entry;
	char	   *sql;
	bool		set_processed;
	List	   *param_exprs;
	int			nparams;
	FmgrInfo   *param_flinfo;
	bool		params_need_modes;	/* their output depends on settings */
	MfTypeClass *param_classes;
	Oid		   *param_types;
	bool		done;
	MfNodeStats stats;
} MfDirectState;

/* The ForeignScan of rtindex right under the ModifyTable, if there is one. */
static ForeignScan *
mf_find_target_scan(ModifyTable *plan, Index rtindex, int subplan_index)
{
	Plan	   *sub = outerPlan(plan);

	/* a Result may compute the new values above an Append of partitions */
	if (IsA(sub, Result) && outerPlan(sub) != NULL && IsA(outerPlan(sub), Append))
		sub = outerPlan(sub);
	if (IsA(sub, Append))
	{
		List	   *children = ((Append *) sub)->appendplans;

		if (subplan_index >= list_length(children))
			return NULL;
		sub = list_nth(children, subplan_index);
	}
	if (IsA(sub, ForeignScan) &&
		bms_is_member(rtindex, ((ForeignScan *) sub)->fs_relids))
		return (ForeignScan *) sub;
	return NULL;
}

bool
mfPlanDirectModify(PlannerInfo *root, ModifyTable *plan, Index resultRelation,
				   int subplan_index)
{
	CmdType		operation = plan->operation;
	ForeignScan *fscan;
	RelOptInfo *baserel;
	MfRelInfo  *fpinfo;
	Relation	rel;
	const MfDialect *dialect;
	List	   *tlist = NIL;
	List	   *target_attrs = NIL;
	List	   *params_list = NIL;
	char	   *sql;
	ListCell   *lc,
			   *lc2;

	if (operation != CMD_UPDATE && operation != CMD_DELETE)
		return false;
	if (plan->returningLists != NIL)
		return false;
	fscan = mf_find_target_scan(plan, resultRelation, subplan_index);
	if (fscan == NULL || fscan->scan.scanrelid != resultRelation)
		return false;
	/* anything checked locally would be skipped */
	if (fscan->scan.plan.qual != NIL)
		return false;

	baserel = root->simple_rel_array[resultRelation];
	fpinfo = baserel->fdw_private;
	dialect = fpinfo->opts.dialect;

	if (operation == CMD_UPDATE)
	{
		get_translated_update_targetlist(root, resultRelation, &tlist,
										 &target_attrs);
		/* the new values are the first entries, one per updated column */
		forboth(lc, tlist, lc2, target_attrs)
		{
			TargetEntry *tle = lfirst_node(TargetEntry, lc);

			if (!mf_is_foreign_expr(root, baserel, tle->expr))
				return false;
		}
	}

	rel = table_open(root->simple_rte_array[resultRelation]->relid, NoLock);
	/* the row by row path checks where the rows go (partition_guard.c) */
	if (operation == CMD_UPDATE && mf_update_sets_partition_key(rel, target_attrs, tlist))
	{
		table_close(rel, NoLock);
		return false;
	}
	sql = mf_deparse_direct_modify(root, baserel, rel, dialect, operation,
								   tlist, target_attrs,
								   fpinfo->final_remote_exprs, &params_list);
	table_close(rel, NoLock);

	fscan->operation = operation;
	fscan->resultRelation = resultRelation;
	fscan->fdw_exprs = params_list;
	fscan->fdw_private = list_make2(makeString(sql),
									makeBoolean(plan->canSetTag));
	return true;
}

void
mfBeginDirectModify(ForeignScanState *node, int eflags)
{
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	RangeTblEntry *rte = exec_rt_fetch(fsplan->resultRelation, estate);
	Oid			userid = mf_fscan_userid(fsplan, estate, fsplan->resultRelation);
	MfDirectState *st;
	MfOptions	opts;
	int			i = 0;
	ListCell   *lc;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	mf_remote_data_changed();	/* rows kept for rescans are out of date */
	st = palloc0(sizeof(MfDirectState));
	node->fdw_state = st;
	mf_get_table_options(rte->relid, &opts);
	st->entry = mf_get_connection(GetUserMapping(userid, opts.serverid), &opts);
	mf_conn_mark_written(st->entry);
	mf_stats_node_begin(&st->stats, st->entry,
						node->resultRelInfo ? node->resultRelInfo->ri_RelationDesc :
						node->ss.ss_currentRelation, fsplan->operation);
	st->sql = strVal(list_nth(fsplan->fdw_private, MF_DIRECT_SQL));
	st->set_processed = boolVal(list_nth(fsplan->fdw_private, MF_DIRECT_SET_PROCESSED));
	st->nparams = list_length(fsplan->fdw_exprs);
	st->param_exprs = ExecInitExprList(fsplan->fdw_exprs, (PlanState *) node);
	st->param_flinfo = palloc0(sizeof(FmgrInfo) * Max(st->nparams, 1));
	st->param_classes = palloc0(sizeof(MfTypeClass) * Max(st->nparams, 1));
	st->param_types = palloc0(sizeof(Oid) * Max(st->nparams, 1));
	foreach(lc, fsplan->fdw_exprs)
	{
		Oid			typoutput;
		bool		isvarlena;

		getTypeOutputInfo(exprType(lfirst(lc)), &typoutput, &isvarlena);
		fmgr_info(typoutput, &st->param_flinfo[i]);
		st->param_classes[i] = mf_type_class(exprType(lfirst(lc)));
		st->param_types[i] = exprType(lfirst(lc));
		i++;
	}
	st->params_need_modes = mf_outputs_need_modes(st->param_flinfo,
												  st->nparams);
}

TupleTableSlot *
mfIterateDirectModify(ForeignScanState *node)
{
	MfDirectState *st = node->fdw_state;
	EState	   *estate = node->ss.ps.state;
	const MfTransport *tr = mf_conn_transport(st->entry);
	MfError		err;
	long		rows = 0;

	if (!st->done)
	{
		mf_stats_node_use(&st->stats);
		mf_claim_connection(st->entry, st);
		mf_stats_count(st->entry, MF_C_STATEMENTS, 1);
		mf_error_clear(&err);
		if (st->nparams == 0)
		{
			if (!tr->exec(mf_conn(st->entry), st->sql, &rows, &err))
				mf_raise_error(ERROR, st->entry, &err, st->sql);
		}
		else
		{
			ExprContext *econtext = node->ss.ps.ps_ExprContext;
			const char **values = palloc(sizeof(char *) * st->nparams);
			MfStmt	   *stmt;
			bool		ok;
			int			i = 0;
			ListCell   *lc;

			Datum	   *datums = palloc(sizeof(Datum) * st->nparams);
			bool	   *nulls = palloc(sizeof(bool) * st->nparams);
			int			nestlevel;

			/* evaluated under the user's settings, written under the remote's */
			foreach(lc, st->param_exprs)
			{
				datums[i] = ExecEvalExpr(lfirst(lc), econtext, &nulls[i]);
				i++;
			}
			nestlevel = mf_set_transmission_modes_if(st->params_need_modes);
			for (i = 0; i < st->nparams; i++)
				values[i] = nulls[i] ? NULL :
					OutputFunctionCall(&st->param_flinfo[i], datums[i]);
			mf_reset_transmission_modes(nestlevel);
			for (i = 0; i < st->nparams; i++)
				mf_check_param_value(mf_conn_dialect(st->entry),
									 mf_conn_server_name(st->entry),
									 st->param_types[i], values[i]);
			stmt = tr->prepare(mf_conn(st->entry), st->sql, st->nparams,
							   st->param_classes, &err);
			if (stmt == NULL)
				mf_raise_error(ERROR, st->entry, &err, st->sql);
			ok = tr->execute(stmt, values, &rows, NULL, &err);
			if (!ok)
			{
				MfError		copy = err;

				tr->stmt_close(stmt);
				mf_raise_error(ERROR, st->entry, &copy, st->sql);
			}
			tr->stmt_close(stmt);
		}
		st->done = true;
		if (st->set_processed)
			estate->es_processed += rows;
		mf_stats_node_publish(&st->stats);
	}
	return ExecClearTuple(node->ss.ss_ScanTupleSlot);
}

void
mfEndDirectModify(ForeignScanState *node)
{
	MfDirectState *st = node->fdw_state;

	if (st != NULL)
		mf_stats_node_end(&st->stats);
}

void
mfExplainDirectModify(ForeignScanState *node, ExplainState *es)
{
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;

	if (es->verbose)
		ExplainPropertyText("Remote SQL",
							strVal(list_nth(fsplan->fdw_private, MF_DIRECT_SQL)),
							es);
	if (es->analyze && node->fdw_state != NULL)
		mf_stats_explain(&((MfDirectState *) node->fdw_state)->stats, es);
}
