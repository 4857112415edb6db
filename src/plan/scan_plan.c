/*-------------------------------------------------------------------------
 *
 * scan_plan.c
 *		Planning a read of a foreign table: its size and paths, the lock it
 *		takes, and the ForeignScan with its remote SELECT, for a table and
 *		(through mf_upper_plan, mf_scan_private) for an upper rel or a join.
 *
 * A scan sends one SELECT of the columns the query needs, with the WHERE
 * clauses the dialect can express, and reads its rows fetch_size at a time
 * through the transport (scan.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "executor/execAsync.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/prep.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/sampling.h"

#include "plan/plan.h"
#include "plan/scan_int.h"

/* ---------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------
 */

/* Move the conditions holding a subquery from remote to local. */
static void
mf_subqueries_stay_local(List **remote_conds, List **local_conds)
{
	List	   *keep = NIL;
	ListCell   *lc;

	foreach(lc, *remote_conds)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (contain_subplans((Node *) ri->clause))
			*local_conds = lappend(*local_conds, ri);
		else
			keep = lappend(keep, ri);
	}
	*remote_conds = keep;
}

void
mfGetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	MfRelInfo  *fpinfo = palloc0(sizeof(MfRelInfo));
	Oid			userid = OidIsValid(baserel->userid) ? baserel->userid : GetUserId();
	ListCell   *lc;
	double		retrieved;

	baserel->fdw_private = fpinfo;
	mf_get_table_options(foreigntableid, &fpinfo->opts);
	if (mf_estimates_deferred)
		fpinfo->opts.use_remote_estimate = false;
	fpinfo->user = GetUserMapping(userid, fpinfo->opts.serverid);
	fpinfo->pushdown_safe = fpinfo->opts.pushdown;

	mf_classify_conditions(root, baserel, baserel->baserestrictinfo,
						   &fpinfo->remote_conds, &fpinfo->local_conds);

	/*
	 * A subquery sent in a condition would run on rows that a condition
	 * checked here rejects, and there fail (more than one row) where the
	 * local plan never runs it: with local conditions it stays here too.
	 * And it names this table's columns by the table's alias in its own
	 * query (deparse_expr.c, mf_deparse_subplan): no join or grouping may
	 * take the table into a larger one.
	 */
	if (fpinfo->local_conds != NIL)
		mf_subqueries_stay_local(&fpinfo->remote_conds, &fpinfo->local_conds);
	if (mf_conds_have_subqueries(fpinfo->remote_conds))
		fpinfo->pushdown_safe = false;

	/* the columns the query reads, and those the local checks need */
	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid,
				   &fpinfo->attrs_used);
	foreach(lc, fpinfo->local_conds)
		pull_varattnos((Node *) lfirst_node(RestrictInfo, lc)->clause,
					   baserel->relid, &fpinfo->attrs_used);

	fpinfo->local_conds_sel = clauselist_selectivity(root, fpinfo->local_conds,
													 baserel->relid, JOIN_INNER,
													 NULL);
	cost_qual_eval(&fpinfo->local_conds_cost, fpinfo->local_conds, root);

	/* never analyzed: assume ten pages of rows of the estimated width */
	if (baserel->tuples < 0)
	{
		baserel->pages = 10;
		baserel->tuples = (10 * BLCKSZ) /
			(baserel->reltarget->width + MAXALIGN(SizeofHeapTupleHeader));
	}
	set_baserel_size_estimates(root, baserel);

	/*
	 * Rows that cross the network are those the remote conditions let
	 * through; each costs a transfer, and every fetch_size of them a round
	 * trip.  (Not rows divided by the local conditions' share: rows was
	 * rounded up to one first, and a selective local filter made that more
	 * rows than the table has.)
	 */
	retrieved = clamp_row_est(baserel->tuples *
							  clauselist_selectivity(root, fpinfo->remote_conds,
													 baserel->relid, JOIN_INNER,
													 NULL));
	fpinfo->rows = baserel->rows;
	fpinfo->retrieved = retrieved;
	fpinfo->remote_cost = seq_page_cost * baserel->pages +
		cpu_tuple_cost * baserel->tuples;
	fpinfo->startup_cost = fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup;
	fpinfo->total_cost = fpinfo->startup_cost + fpinfo->remote_cost +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost +
		 fpinfo->local_conds_cost.per_tuple) * retrieved +
		fpinfo->opts.fdw_startup_cost *
		ceil(retrieved / fpinfo->opts.fetch_size) / 10.0;

	if (fpinfo->opts.use_remote_estimate)
		mf_remote_estimate(root, baserel, foreigntableid, fpinfo);
}

void
mfGetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	MfRelInfo  *fpinfo = baserel->fdw_private;

	add_path(baserel, (Path *)
			 mf_create_foreignscan_path(root, baserel, fpinfo->rows,
										fpinfo->startup_cost, fpinfo->total_cost,
										NIL, baserel->lateral_relids, NIL));
	mf_add_sorted_paths(root, baserel);
	mf_add_param_paths(root, baserel);
}

/*
 * How the rows read must be locked on the remote: FOR UPDATE when they are
 * about to be updated or deleted, else as this relation's own rowmark asks,
 * as postgres_fdw decides.  A rowmark of strength LCS_NONE (the relation is
 * joined to one named in FOR UPDATE OF, or to an UPDATE's target) only
 * lets the executor fetch the row again, and locks nothing.
 */
static LockClauseStrength
mf_scan_lock(PlannerInfo *root, RelOptInfo *baserel, LockWaitPolicy *wait)
{
	MfRelInfo  *fpinfo = baserel->fdw_private;
	PlanRowMark *rc;

	*wait = LockWaitBlock;
	if (bms_is_member(baserel->relid, root->all_result_relids) &&
		(root->parse->commandType == CMD_UPDATE ||
		 root->parse->commandType == CMD_DELETE))
	{
		/* a dialect without a lock clause reads them unlocked */
		return fpinfo->opts.dialect->deparse_lock != NULL ?
			LCS_FORUPDATE : LCS_NONE;
	}
	rc = get_plan_rowmark(root->rowMarks, baserel->relid);
	if (rc == NULL || rc->strength == LCS_NONE)
		return LCS_NONE;
	*wait = rc->waitPolicy;
	return rc->strength;
}

/* What a scan's SQL is written from: for its plain and its nested form. */
typedef struct MfSqlParts
{
	PlannerInfo *root;
	RelOptInfo *rel;
	Relation	table;			/* a table's scan: the foreign table */
	ForeignPath *path;
	List	   *sent_exprs;		/* a table's scan: its remote conditions */
	List	   *local_exprs;	/* and those checked here */
	bool		has_limit;
	LockClauseStrength lock;	/* a table's scan: its rows' lock */
	LockWaitPolicy wait;
} MfSqlParts;

typedef void (*MfSqlWriter) (StringInfo sql, MfSqlParts *parts,
							 List **retrieved_attrs, List **params_list);

/*
 * The nested form of a scan's SQL (deparse_expr.c, mf_deparse_subplan),
 * for the condition of an outer query's table to take the scan in as a
 * subquery, and for the keyed statement that reads a rescanned scan for
 * many values at once (deparse_keys.c, mf_deparse_keyed): kept where the
 * scan is a subquery's own (an outer query level exists) or a nested
 * loop's parameterized inner side, the dialect can nest, nothing is
 * locked, and each marker stands for a parameter from an outer query or
 * the loop (PARAM_EXEC: a SubPlan or the loop passes it).  NULL otherwise.
 */
static char *
mf_nested_sql(MfSqlParts *parts, MfSqlWriter write, const char *plain_sql,
			  List *plain_params)
{
	MfRelInfo  *fpinfo = parts->rel->fdw_private;
	StringInfoData sql;
	List	   *retrieved_attrs;
	List	   *params_list = NIL;
	bool		held = false;
	ListCell   *lc;

	if ((parts->root->parent_root == NULL &&
		 parts->path->path.param_info == NULL) || plain_params == NIL ||
		!fpinfo->opts.dialect->nested_subqueries || parts->lock != LCS_NONE)
		return NULL;
	foreach(lc, plain_params)
	{
		Param	   *p = lfirst(lc);

		if (!IsA(p, Param) || p->paramkind != PARAM_EXEC)
			return NULL;
	}

	initStringInfo(&sql);
	mf_deparse_nesting_begin();
	PG_TRY();
	{
		write(&sql, parts, &retrieved_attrs, &params_list);
	}
	PG_FINALLY();
	{
		held = mf_deparse_nesting_end();
	}
	PG_END_TRY();
	if (!mf_deparse_nested_usable(held, plain_sql, plain_params, params_list))
		return NULL;
	return sql.data;
}

/* The SQL of a grouped relation, or of its sort or limit. */
static void
mf_upper_sql(StringInfo sql, MfSqlParts *parts, List **retrieved_attrs,
			 List **params_list)
{
	MfRelInfo  *fpinfo = parts->rel->fdw_private;

	mf_deparse_grouped_select(sql, parts->root, parts->rel,
							  fpinfo->grouped_tlist, fpinfo->remote_conds,
							  retrieved_attrs, params_list);
	if (parts->path->path.pathkeys != NIL)
		mf_deparse_order_by(sql, parts->root, fpinfo->scanrel, parts->rel,
							parts->path->path.pathkeys, params_list);
	if (parts->has_limit)
		mf_deparse_limit_clause(sql, parts->root, fpinfo->opts.dialect,
								parts->path->path.pathkeys != NIL);
}

/* The SQL of a table's own scan. */
static void
mf_table_sql(StringInfo sql, MfSqlParts *parts, List **retrieved_attrs,
			 List **params_list)
{
	MfRelInfo  *fpinfo = parts->rel->fdw_private;
	List	   *pathkeys = parts->path->path.pathkeys;
	int64		limit;

	mf_deparse_select(sql, parts->root, parts->rel, parts->table,
					  fpinfo->attrs_used, parts->sent_exprs, LCS_NONE,
					  parts->wait, retrieved_attrs, params_list);
	if (pathkeys != NIL)
		mf_deparse_order_by(sql, parts->root, parts->rel, NULL, pathkeys,
							params_list);
	if (parts->has_limit)
		mf_deparse_limit_clause(sql, parts->root, fpinfo->opts.dialect,
								pathkeys != NIL);
	else
	{
		limit = mf_remote_limit(parts->root, parts->rel, pathkeys,
								parts->local_exprs,
								parts->lock != LCS_NONE);
		if (limit > 0)
			fpinfo->opts.dialect->deparse_limit(sql, limit, pathkeys != NIL);
	}
	if (parts->lock != LCS_NONE)
		mf_deparse_lock_clause(sql, parts->table, fpinfo->opts.dialect,
							   parts->lock, parts->wait);
}

/* The plan of a grouped relation, or of its sort or limit (upper.c). */
static ForeignScan *
mf_upper_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
			  List *tlist, Plan *outer_plan, bool has_limit)
{
	MfRelInfo  *fpinfo = rel->fdw_private;
	List	   *retrieved_attrs;
	List	   *params_list = NIL;
	StringInfoData sql;
	MfSqlParts	parts = {.root = root,.rel = rel,.path = best_path,
	.has_limit = has_limit,.lock = LCS_NONE,.wait = LockWaitBlock};

	initStringInfo(&sql);
	mf_upper_sql(&sql, &parts, &retrieved_attrs, &params_list);
	return make_foreignscan(tlist, fpinfo->local_conds, 0, params_list,
							mf_scan_private(sql.data, retrieved_attrs,
											&fpinfo->opts,
											best_path->path.rows,
											mf_relations_tree(root, rel),
											fpinfo->grouped_tlist != NIL,
											mf_nested_sql(&parts, mf_upper_sql,
														  sql.data,
														  params_list),
											best_path->path.pathkeys == NIL),
							fpinfo->grouped_tlist, NIL, outer_plan);
}

/*
 * How a query of fetch_size rows per fetch is read when the planner
 * expects rows: a few, in the query's own exchange, when no more rows are
 * expected than one fetch brings (transport.h); else through a cursor.
 */
MfRead
mf_scan_read(int fetch_size, double rows)
{
	return mf_read(rows <= fetch_size ? MF_READ_FEW : MF_READ_CURSOR,
				   fetch_size);
}

/*
 * The same for a query shipped whole (a join, an aggregate, a sort or a
 * limit over them: relations is its tree), which the remote's parallel
 * workers may make faster, and which it never runs in parallel under a
 * cursor.  A grouped query (an aggregate, a GROUP BY) is read without one
 * however many rows it is expected to return: its rows are few as a rule,
 * and an estimate of groups is often far off (TPC-H's Q13); where there
 * are many after all, they are read off the wire a batch at a time all
 * the same (transport.h).  Any other query shipped whole is read so where
 * the transport reads any result off the wire at no more cost per row
 * than a cursor (streams_any_result).  Memory stays bounded either way:
 * held_rows.c takes the rest when another statement needs the connection.
 * A table's own scan keeps its cursor by the estimate.
 */
static MfRead
mf_plan_read(const MfOptions *opts, double rows, List *relations,
			 bool grouped)
{
	if (relations != NIL &&
		(grouped || (opts->transport != NULL &&
					 opts->transport->streams_any_result)))
		return mf_read(MF_READ_FEW, opts->fetch_size);
	return mf_scan_read(opts->fetch_size, rows);
}

/* A ForeignScan's fdw_private, by the names MfScanPrivate gives. */
/*
 * The position of attnum in attrs (a remote statement's retrieved_attrs,
 * its columns in the order it returns them), -1 when absent.
 */
int
mf_attr_position(List *attrs, int attnum)
{
	ListCell   *lc;

	foreach(lc, attrs)
		if (lfirst_int(lc) == attnum)
			return foreach_current_index(lc);
	return -1;
}

List *
mf_scan_private(char *sql, List *retrieved_attrs, const MfOptions *opts,
				double rows, List *relations, bool grouped, char *nested_sql,
				bool unordered)
{
	Node	   *priv[MF_SCAN_NPRIVATE];
	List	   *list = NIL;
	int			fetch_size = opts->fetch_size;

	priv[MF_SCAN_SQL] = (Node *) makeString(sql);
	priv[MF_SCAN_RETRIEVED_ATTRS] = (Node *) retrieved_attrs;
	priv[MF_SCAN_READ_MODE] =
		(Node *) makeInteger(mf_plan_read(opts, rows, relations, grouped).mode);
	priv[MF_SCAN_FETCH_SIZE] = (Node *) makeInteger(fetch_size);
	priv[MF_SCAN_RELATIONS] = (Node *) relations;
	priv[MF_SCAN_SERVER] = (Node *) makeInteger(0);
	priv[MF_SCAN_USER] = (Node *) makeInteger(0);
	priv[MF_SCAN_NESTED_SQL] = mf_nested_private(nested_sql,
												 list_length(retrieved_attrs),
												 unordered);
	for (int i = 0; i < MF_SCAN_NPRIVATE; i++)
		list = lappend(list, priv[i]);
	return list;
}

ForeignScan *
mfGetForeignPlan(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid,
				 ForeignPath *best_path, List *tlist, List *scan_clauses,
				 Plan *outer_plan)
{
	MfRelInfo  *fpinfo = baserel->fdw_private;
	List	   *remote_exprs = NIL;
	List	   *sent_exprs = NIL;	/* remote_exprs as written: outer columns
									 * as placeholders */
	List	   *outer_vars = NIL;
	List	   *local_exprs = NIL;
	List	   *retrieved_attrs;
	List	   *params_list = NIL;
	StringInfoData sql;
	Relation	rel;
	bool		has_limit = false;
	MfSqlParts	parts;
	char	   *nested;
	ListCell   *lc;

	if (best_path->fdw_private != NIL)
		has_limit = boolVal(list_nth(best_path->fdw_private, MF_PATH_LIMIT));
	if (IS_UPPER_REL(baserel))
		return mf_upper_plan(root, baserel, best_path, tlist, outer_plan,
							 has_limit);
	if (IS_JOIN_REL(baserel))
		return mf_join_plan(root, baserel, best_path, tlist, outer_plan,
							has_limit);

	foreach(lc, scan_clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		Expr	   *sent;
		List	   *clause_vars;

		if (ri->pseudoconstant)
			continue;
		if (list_member_ptr(fpinfo->remote_conds, ri))
		{
			remote_exprs = lappend(remote_exprs, ri->clause);
			sent_exprs = lappend(sent_exprs, ri->clause);
			continue;
		}
		if (list_member_ptr(fpinfo->local_conds, ri))
		{
			local_exprs = lappend(local_exprs, ri->clause);
			continue;
		}
		/* a join clause of a parameterized path (param_path.c) */
		clause_vars = NIL;
		sent = mf_outer_vars_as_params(ri->clause, baserel->relids,
									   &clause_vars);
		if (mf_outer_vars_sendable(clause_vars, fpinfo->opts.dialect) &&
			mf_is_foreign_cond(root, baserel,
							   (sent = mf_outer_vars_as_params(ri->clause,
															   baserel->relids,
															   &outer_vars))))
		{
			remote_exprs = lappend(remote_exprs, ri->clause);
			sent_exprs = lappend(sent_exprs, sent);
		}
		else
			local_exprs = lappend(local_exprs, ri->clause);
	}

	/*
	 * A subquery stays with conditions checked here (a join clause of a
	 * parameterized path may be one): it is checked here too, on columns
	 * the remote query must then return.
	 */
	if (local_exprs != NIL)
	{
		List	   *keep = NIL;
		List	   *keep_sent = NIL;
		ListCell   *lc2;

		forboth(lc, remote_exprs, lc2, sent_exprs)
		{
			if (contain_subplans(lfirst(lc)))
			{
				local_exprs = lappend(local_exprs, lfirst(lc));
				pull_varattnos(lfirst(lc), baserel->relid, &fpinfo->attrs_used);
			}
			else
			{
				keep = lappend(keep, lfirst(lc));
				keep_sent = lappend(keep_sent, lfirst(lc2));
			}
		}
		remote_exprs = keep;
		sent_exprs = keep_sent;
	}

	/* kept for a direct UPDATE or DELETE built on this scan */
	fpinfo->final_remote_exprs = remote_exprs;

	rel = table_open(foreigntableid, NoLock);
	initStringInfo(&sql);
	parts.root = root;
	parts.rel = baserel;
	parts.table = rel;
	parts.path = best_path;
	parts.sent_exprs = sent_exprs;
	parts.has_limit = has_limit;
	parts.lock = mf_scan_lock(root, baserel, &parts.wait);
	parts.local_exprs = local_exprs;
	mf_table_sql(&sql, &parts, &retrieved_attrs, &params_list);
	nested = mf_nested_sql(&parts, mf_table_sql, sql.data, params_list);
	table_close(rel, NoLock);

	/* the outer columns the markers stand for: the loop's parameters */
	params_list = mf_outer_params_to_vars(params_list, outer_vars);
	return make_foreignscan(tlist, local_exprs, baserel->relid, params_list,
							mf_scan_private(sql.data, retrieved_attrs,
											&fpinfo->opts,
											best_path->path.rows, NIL, false,
											nested,
											best_path->path.pathkeys == NIL),
							NIL, remote_exprs, outer_plan);
}
