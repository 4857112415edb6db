/*-------------------------------------------------------------------------
 *
 * upper.c
 *		Planning what comes after the scan of one foreign table so that the
 *		remote does it: sorted scans, aggregation and grouping, the final
 *		sort and LIMIT/OFFSET.
 *
 * The stages follow postgres_fdw's: a sorted path of the foreign table for
 * the query's pathkeys (GetForeignPaths), then GetForeignUpperPaths for
 * UPPERREL_GROUP_AGG (a grouped relation computed remotely), for
 * UPPERREL_ORDERED (its sort) and for UPPERREL_FINAL (the LIMIT, with the
 * sort below it).  Each upper relation's fdw_private says whether a later
 * stage may build on it.  What may be shipped is deparse_upper.c's and the
 * dialect's business; the option pushdown 'false' turns all of it off,
 * leaving the scan as it was: its conditions, and the row cap that a scan
 * straight under a Limit sends along (scan.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "plan/plan.h"

/*
 * What a remote sort is assumed to add to a scan when the remote is not
 * asked (postgres_fdw's guess): little, so that a sort the remote can do
 * goes there, where an index may serve it.
 */
#define MF_SORT_MULTIPLIER	1.05

/* ---------------------------------------------------------------------
 * Sorted scans
 * ---------------------------------------------------------------------
 */

/* A path of rel sorted by pathkeys: a table's scan or a join's. */
static void
mf_add_sorted_path(PlannerInfo *root, RelOptInfo *rel, List *pathkeys)
{
	MfRelInfo  *fpinfo = rel->fdw_private;

	if (IS_JOIN_REL(rel))
		add_path(rel, (Path *)
				 mf_create_foreign_join_path(root, rel, fpinfo->rows,
											 fpinfo->startup_cost * MF_SORT_MULTIPLIER,
											 fpinfo->total_cost * MF_SORT_MULTIPLIER,
											 pathkeys));
	else
		add_path(rel, (Path *)
				 mf_create_foreignscan_path(root, rel, fpinfo->rows,
											fpinfo->startup_cost * MF_SORT_MULTIPLIER,
											fpinfo->total_cost * MF_SORT_MULTIPLIER,
											pathkeys, rel->lateral_relids, NIL));
}

/*
 * Sorted paths: for the query's own order, and, with use_remote_estimate,
 * for each order a merge join with another relation could use (one key
 * each, as postgres_fdw makes them: without the remote's estimates, a
 * guess per order is not worth the paths).  A partition's members are
 * left alone.
 */
void
mf_add_sorted_paths(PlannerInfo *root, RelOptInfo *baserel)
{
	MfRelInfo  *fpinfo = baserel->fdw_private;
	ListCell   *lc;

	fpinfo->qp_is_pushdown_safe = false;
	if (!fpinfo->pushdown_safe ||
		(baserel->reloptkind != RELOPT_BASEREL &&
		 baserel->reloptkind != RELOPT_JOINREL))
		return;

	if (root->query_pathkeys != NIL)
	{
		bool		ok = true;

		foreach(lc, root->query_pathkeys)
		{
			if (!mf_pathkey_shippable(root, lfirst(lc), baserel, NULL))
			{
				ok = false;
				break;
			}
		}
		if (ok)
		{
			fpinfo->qp_is_pushdown_safe = true;
			mf_add_sorted_path(root, baserel, root->query_pathkeys);
		}
	}

	if (!fpinfo->opts.use_remote_estimate || !baserel->has_eclass_joins)
		return;
	foreach(lc, root->eq_classes)
	{
		EquivalenceClass *ec = lfirst(lc);
		PathKey    *pathkey;

		if (ec->ec_has_volatile || ec->ec_opfamilies == NIL ||
			!eclass_useful_for_merging(root, ec, baserel))
			continue;
		pathkey = mf_make_ascending_pathkey(root, ec);
		/* the query's order, first key and all, is there already */
		if (fpinfo->qp_is_pushdown_safe &&
			linitial(root->query_pathkeys) == pathkey)
			continue;
		if (mf_pathkey_shippable(root, pathkey, baserel, NULL))
			mf_add_sorted_path(root, baserel, list_make1(pathkey));
	}
}

/* ---------------------------------------------------------------------
 * Grouping and aggregation
 * ---------------------------------------------------------------------
 */

/* Add expr to the remote select list unless an equal one is there. */
static List *
mf_tlist_add(List *tlist, Expr *expr)
{
	return add_to_flat_tlist(tlist, list_make1(expr));
}

/*
 * What an output or HAVING condition computed here over the grouped rows
 * reads: its aggregates, which must then be shipped (added to *tlist),
 * and its plain columns, grouping columns fetched already.  Anything else
 * that only an Agg node can evaluate (GROUPING(), a placeholder) keeps
 * the grouping here: the ForeignScan above the remote groups is no Agg.
 */
static bool
mf_add_computed_inputs(PlannerInfo *root, RelOptInfo *scanrel, Expr *expr,
					   List **tlist)
{
	ListCell   *lc;

	foreach(lc, pull_var_clause((Node *) expr, PVC_INCLUDE_AGGREGATES |
								PVC_INCLUDE_PLACEHOLDERS))
	{
		Expr	   *v = lfirst(lc);

		if (IsA(v, Var))
			continue;
		if (!IsA(v, Aggref) || !mf_is_upper_expr(root, scanrel, v, true))
			return false;
		*tlist = mf_tlist_add(*tlist, v);
	}
	return true;
}

/*
 * Can the grouping be computed remotely, and with what select list?
 * Every GROUP BY expression must be shipped, and the aggregates of every
 * other output and of the HAVING conditions that stay here; an output
 * that is not shipped whole is computed here from those.
 */
static bool
mf_grouping_ok(PlannerInfo *root, RelOptInfo *grouped_rel, Node *having)
{
	Query	   *parse = root->parse;
	MfRelInfo  *fpinfo = grouped_rel->fdw_private;
	RelOptInfo *scanrel = fpinfo->scanrel;
	PathTarget *target = grouped_rel->reltarget;
	List	   *tlist = NIL;
	ListCell   *lc;
	int			i = 0;

	if (parse->groupingSets != NIL)
		return false;
	/* rows the scan would filter here must be gone before aggregating */
	if (((MfRelInfo *) scanrel->fdw_private)->local_conds != NIL)
		return false;

	foreach(lc, target->exprs)
	{
		Expr	   *expr = lfirst(lc);
		Index		sgref = get_pathtarget_sortgroupref(target, i);

		i++;
		if (sgref != 0 &&
			get_sortgroupref_clause_noerr(sgref, parse->groupClause) != NULL)
		{
			TargetEntry *tle;

			if (!mf_grouping_key_shippable(root, scanrel, expr))
				return false;

			/*
			 * Duplicates stay: two equal expressions under different
			 * sortgrouprefs are two entries of the grouping target.
			 */
			tle = makeTargetEntry(expr, list_length(tlist) + 1, NULL, false);
			tle->ressortgroupref = sgref;
			tlist = lappend(tlist, tle);
		}
		else if (contain_agg_clause((Node *) expr) &&
				 mf_is_upper_expr(root, scanrel, expr, true))
			tlist = mf_tlist_add(tlist, expr);
		else
		{
			/*
			 * Computed here from what is fetched: its aggregates must be
			 * shipped; its plain columns are grouping columns, already in.
			 * An expression of no column or aggregate (a constant) is
			 * computed here too.
			 */
			if (!mf_add_computed_inputs(root, scanrel, expr, &tlist))
				return false;
		}
	}

	/* HAVING conditions go along where they can, else stay here */
	foreach(lc, (List *) having)
	{
		Expr	   *expr = lfirst(lc);

		if (mf_is_upper_expr(root, scanrel, expr, false))
			fpinfo->remote_conds = lappend(fpinfo->remote_conds, expr);
		else
		{
			fpinfo->local_conds = lappend(fpinfo->local_conds, expr);
			if (!mf_add_computed_inputs(root, scanrel, expr, &tlist))
				return false;
		}
	}

	fpinfo->grouped_tlist = tlist;
	return true;
}

/*
 * The cost of grouping remotely: the remote reads the table, groups and
 * aggregates, and only the groups cross the network.
 */
static void
mf_grouping_cost(PlannerInfo *root, RelOptInfo *grouped_rel)
{
	MfRelInfo  *fpinfo = grouped_rel->fdw_private;
	RelOptInfo *scanrel = fpinfo->scanrel;
	MfRelInfo  *sfpinfo = scanrel->fdw_private;
	Query	   *parse = root->parse;
	AggClauseCosts aggcosts;
	double		input_rows = sfpinfo->rows;
	double		groups = 1;
	int			ngroupcols = list_length(parse->groupClause);
	Cost		remote;

	memset(&aggcosts, 0, sizeof(aggcosts));
	if (parse->hasAggs)
		get_agg_clause_costs(root, AGGSPLIT_SIMPLE, &aggcosts);
	if (parse->groupClause != NIL)
		groups = estimate_num_groups(root,
									 get_sortgrouplist_exprs(parse->groupClause,
															 fpinfo->grouped_tlist),
									 input_rows, NULL, NULL);

	remote = sfpinfo->remote_cost +
		aggcosts.transCost.startup +
		aggcosts.transCost.per_tuple * input_rows +
		cpu_operator_cost * ngroupcols * input_rows +
		aggcosts.finalCost.startup;

	fpinfo->local_conds_sel = clauselist_selectivity(root, fpinfo->local_conds,
													 0, JOIN_INNER, NULL);
	cost_qual_eval(&fpinfo->local_conds_cost, fpinfo->local_conds, root);

	fpinfo->rows = clamp_row_est(groups * fpinfo->local_conds_sel);
	fpinfo->retrieved = clamp_row_est(groups);
	fpinfo->startup_cost = fpinfo->opts.fdw_startup_cost + remote +
		fpinfo->local_conds_cost.startup;
	fpinfo->total_cost = fpinfo->startup_cost +
		(aggcosts.finalCost.per_tuple + cpu_tuple_cost) * groups +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost +
		 fpinfo->local_conds_cost.per_tuple) * groups;
}

static void
mf_add_grouping_paths(PlannerInfo *root, RelOptInfo *input_rel,
					  RelOptInfo *grouped_rel, GroupPathExtraData *extra)
{
	Query	   *parse = root->parse;
	MfRelInfo  *fpinfo = grouped_rel->fdw_private;

	if (!parse->groupClause && !parse->groupingSets && !parse->hasAggs &&
		!root->hasHavingQual)
		return;
	/* a foreign table or a join sent whole, and whole groups of it */
	if ((!IS_SIMPLE_REL(input_rel) && !IS_JOIN_REL(input_rel)) ||
		extra->patype == PARTITIONWISE_AGGREGATE_PARTIAL)
		return;
	fpinfo->scanrel = input_rel;
	if (!mf_grouping_ok(root, grouped_rel, extra->havingQual))
		return;
	fpinfo->pushdown_safe = true;
	mf_grouping_cost(root, grouped_rel);

	add_path(grouped_rel, (Path *)
			 mf_create_foreign_upper_path(root, grouped_rel,
										  grouped_rel->reltarget,
										  fpinfo->rows, fpinfo->startup_cost,
										  fpinfo->total_cost, NIL, NIL));
}

/* ---------------------------------------------------------------------
 * The final sort and LIMIT
 * ---------------------------------------------------------------------
 */

static void
mf_add_ordered_paths(PlannerInfo *root, RelOptInfo *input_rel,
					 RelOptInfo *ordered_rel)
{
	MfRelInfo  *ifpinfo = input_rel->fdw_private;
	MfRelInfo  *fpinfo = ordered_rel->fdw_private;
	ListCell   *lc;

	if (root->parse->hasTargetSRFs)
		return;

	/*
	 * Over the foreign table or join itself the sorted path is already
	 * there (the query's pathkeys were its sort's); the final stage may use
	 * it.
	 */
	if (IS_SIMPLE_REL(input_rel) || IS_JOIN_REL(input_rel))
	{
		fpinfo->pushdown_safe = ifpinfo->qp_is_pushdown_safe;
		return;
	}
	if (ifpinfo->stage != UPPERREL_GROUP_AGG)
		return;
	foreach(lc, root->sort_pathkeys)
	{
		if (!mf_pathkey_shippable(root, lfirst(lc), ifpinfo->scanrel,
								  input_rel))
			return;
	}
	fpinfo->pushdown_safe = true;
	add_path(ordered_rel, (Path *)
			 mf_create_foreign_upper_path(root, input_rel,
										  root->upper_targets[UPPERREL_ORDERED],
										  ifpinfo->rows,
										  ifpinfo->startup_cost * MF_SORT_MULTIPLIER,
										  ifpinfo->total_cost * MF_SORT_MULTIPLIER,
										  root->sort_pathkeys,
										  list_make2(makeBoolean(true),
													 makeBoolean(false))));
}

/*
 * How many rows the remote query may stop at, or 0 for all of them,
 * when the planner kept the query's Limit node (a LIMIT that upper.c sent
 * as the query says replaces it).
 *
 * A LIMIT (plus OFFSET) is sent along when the scan's rows go straight to
 * the query's Limit node: a SELECT of this one relation (or of one
 * append relation whose members this is), with no ORDER BY or one that
 * the remote sorts by (min/max as a top-1 subquery, say), every
 * condition evaluated remotely and no row locking.  The planner's
 * limit_tuples already says no when grouping, aggregates, DISTINCT,
 * window functions or set-returning functions come in between.  The local
 * Limit node stays: the remote one only saves sending rows nobody reads.
 */
int64
mf_remote_limit(PlannerInfo *root, RelOptInfo *baserel, List *pathkeys,
				List *local_exprs, bool locks)
{
	Query	   *parse = root->parse;
	Relids		top = IS_OTHER_REL(baserel) ? baserel->top_parent_relids :
	baserel->relids;
	int64		count;
	int64		offset;

	/*
	 * The planner's limit_tuples is an estimate: it folds parameters and
	 * stable functions to their values at planning, which a cached plan
	 * outlives, and counts WITH TIES as a plain LIMIT.  Only constants
	 * make a cap, and only for a LIMIT that rows past it cannot join.
	 */
	if (parse->commandType != CMD_SELECT || root->limit_tuples <= 0 ||
		parse->limitOption != LIMIT_OPTION_COUNT ||
		!mf_limit_values(root, &count, &offset) || count < 0 ||
		count > PG_INT64_MAX / 2 - offset)
		return 0;
	/* rows sorted here would all be needed; rows sorted there are not */
	if (root->query_pathkeys != NIL &&
		!pathkeys_contained_in(root->query_pathkeys, pathkeys))
		return 0;
	if (parse->rowMarks != NIL || local_exprs != NIL)
		return 0;
	if (!bms_equal(root->all_baserels, top) || locks)
		return 0;
	return Max(count + offset, 1);
}

static void
mf_add_final_paths(PlannerInfo *root, RelOptInfo *input_rel,
				   RelOptInfo *final_rel, FinalPathExtraData *extra)
{
	Query	   *parse = root->parse;
	MfRelInfo  *ifpinfo = input_rel->fdw_private;
	MfRelInfo  *fpinfo = final_rel->fdw_private;
	List	   *pathkeys = NIL;
	bool		has_final_sort = false;
	double		rows;
	Cost		startup_cost;
	Cost		total_cost;
	int64		count;
	int64		offset;

	/*
	 * A LIMIT of a plain SELECT.  Row locks are left to the scan and the
	 * local LockRows node, and WITH TIES to the local Limit node.
	 */
	if (parse->commandType != CMD_SELECT || !extra->limit_needed ||
		parse->rowMarks != NIL || parse->hasTargetSRFs ||
		parse->limitOption == LIMIT_OPTION_WITH_TIES)
		return;
	if (fpinfo->opts.dialect->deparse_limit_offset == NULL ||
		!mf_limit_values(root, &count, &offset))
		return;

	if (IS_UPPER_REL(input_rel) && ifpinfo->stage == UPPERREL_ORDERED)
	{
		input_rel = ifpinfo->outerrel;
		ifpinfo = input_rel->fdw_private;
		has_final_sort = true;
		pathkeys = root->sort_pathkeys;
	}
	else if (root->sort_pathkeys != NIL)
		return;					/* the sort stays here, so must the limit */
	if (!IS_SIMPLE_REL(input_rel) && !IS_JOIN_REL(input_rel) &&
		ifpinfo->stage != UPPERREL_GROUP_AGG)
		return;
	/* rows filtered here after the remote's limit would be too few */
	if (ifpinfo->local_conds != NIL)
		return;
	fpinfo->pushdown_safe = true;

	rows = ifpinfo->rows;
	startup_cost = ifpinfo->startup_cost;
	total_cost = ifpinfo->total_cost;
	if (has_final_sort)
	{
		startup_cost *= MF_SORT_MULTIPLIER;
		total_cost *= MF_SORT_MULTIPLIER;
	}
	adjust_limit_rows_costs(&rows, &startup_cost, &total_cost,
							extra->offset_est, extra->count_est);

	/*
	 * The local Limit node over a scan is priced the same, but reads the
	 * rows it skips across the network: prefer the remote limit.
	 */
	total_cost -= (total_cost - startup_cost) * 0.05;

	add_path(final_rel, (Path *)
			 mf_create_foreign_upper_path(root, input_rel,
										  root->upper_targets[UPPERREL_FINAL],
										  rows, startup_cost, total_cost,
										  pathkeys,
										  list_make2(makeBoolean(has_final_sort),
													 makeBoolean(true))));
}

void
mfGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
					   RelOptInfo *input_rel, RelOptInfo *output_rel,
					   void *extra)
{
	MfRelInfo  *ifpinfo = input_rel->fdw_private;
	MfRelInfo  *fpinfo;

	/* a join of a foreign table and a local one has no fdw_private */
	if (ifpinfo == NULL || !ifpinfo->pushdown_safe)
		return;
	if ((stage != UPPERREL_GROUP_AGG && stage != UPPERREL_ORDERED &&
		 stage != UPPERREL_FINAL) || output_rel->fdw_private != NULL)
		return;

	fpinfo = palloc0(sizeof(MfRelInfo));
	fpinfo->opts = ifpinfo->opts;
	fpinfo->user = ifpinfo->user;
	fpinfo->stage = stage;
	fpinfo->outerrel = input_rel;
	fpinfo->scanrel = (IS_SIMPLE_REL(input_rel) || IS_JOIN_REL(input_rel)) ?
		input_rel : ifpinfo->scanrel;
	output_rel->fdw_private = fpinfo;

	switch (stage)
	{
		case UPPERREL_GROUP_AGG:
			mf_add_grouping_paths(root, input_rel, output_rel,
								  (GroupPathExtraData *) extra);
			break;
		case UPPERREL_ORDERED:
			mf_add_ordered_paths(root, input_rel, output_rel);
			break;
		case UPPERREL_FINAL:
			mf_add_final_paths(root, input_rel, output_rel,
							   (FinalPathExtraData *) extra);
			break;
		default:
			break;
	}
}
