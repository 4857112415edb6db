/*-------------------------------------------------------------------------
 *
 * join.c
 *		Joins of foreign tables of one server sent whole, as one remote
 *		query (GetForeignJoinPaths), and what EXPLAIN says of the relations
 *		a remote query covers.
 *
 * The planner offers a join here only when both sides are foreign
 * relations of the same server read through the same user mapping.  It is
 * sent when the remote computes exactly the rows the local join would:
 *
 *	- the dialect writes the join type (join_types): inner, left, right;
 *	  full where the remote has it; semi and anti joins as [NOT] EXISTS;
 *	- every condition of an outer, semi or anti join's own ON clause can
 *	  be shipped, and so can every condition of each side: a row a side
 *	  would have filtered here cannot be joined remotely first.  An inner
 *	  join's conditions, or those applied after an outer join (WHERE), that
 *	  cannot be shipped are checked here on the joined rows;
 *	- its output is plain columns: no system column or placeholder (an
 *	  expression of a nullable side computed below the join), and no
 *	  whole-row reference unless the dialect writes it (whole_row: the
 *	  remote's ROW(...), NULL where an outer join null-extends the table;
 *	  deparse_join.c);
 *	- no row of it is locked or re-checked: a SELECT without FOR UPDATE
 *	  that is not the target of an UPDATE or DELETE.  (Such a join would
 *	  need the rows of each side again in an EvalPlanQual recheck, which a
 *	  joined remote row does not give.)
 *	- a full join's sides are filtered by nothing (deparse_join.c: no
 *	  place would filter them alone).
 *
 * A join sent whole may be sorted, grouped and limited remotely as a
 * foreign table is (upper.c); the SQL is deparse_join.c's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "plan/plan.h"

/*
 * Are all of exprs columns of the joined tables that the remote query can
 * return: ordinary ones, and whole rows where the dialect writes them?
 */
static bool
mf_plain_columns(List *exprs, Relids allowed, const MfDialect *dialect)
{
	List	   *vars = pull_var_clause((Node *) exprs, PVC_INCLUDE_PLACEHOLDERS);
	ListCell   *lc;

	foreach(lc, vars)
	{
		Var		   *var = lfirst(lc);

		if (!IsA(var, Var) || var->varlevelsup != 0 ||
			!bms_is_member(var->varno, allowed))
			return false;
		if (var->varattno < 0 || (var->varattno == 0 && !dialect->whole_row))
			return false;
	}
	return true;
}

static bool
mf_join_ok(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
		   RelOptInfo *innerrel, JoinType jointype, JoinPathExtraData *extra)
{
	MfRelInfo  *fpinfo = joinrel->fdw_private;
	MfRelInfo  *ofpinfo = outerrel->fdw_private;
	MfRelInfo  *ifpinfo = innerrel->fdw_private;
	ListCell   *lc;

	if (ofpinfo == NULL || ifpinfo == NULL ||
		!ofpinfo->pushdown_safe || !ifpinfo->pushdown_safe)
		return false;
	if (jointype != JOIN_INNER && jointype != JOIN_LEFT &&
		jointype != JOIN_RIGHT && jointype != JOIN_FULL &&
		jointype != JOIN_SEMI && jointype != JOIN_ANTI)
		return false;
	if ((fpinfo->opts.dialect->join_types & MF_JOIN_BIT(jointype)) == 0)
		return false;
	if (root->rowMarks != NIL ||
		bms_overlap(joinrel->relids, root->all_result_relids) ||
		!bms_is_empty(joinrel->lateral_relids))
		return false;
	/* a side whose rows are filtered here must be joined here */
	if (ofpinfo->local_conds != NIL || ifpinfo->local_conds != NIL)
		return false;
	if (jointype == JOIN_FULL &&
		(mf_join_has_conds(outerrel) || mf_join_has_conds(innerrel)))
		return false;

	fpinfo->jointype = jointype;
	fpinfo->join_outer = outerrel;
	fpinfo->join_inner = innerrel;
	fpinfo->hidden_relids = bms_union(ofpinfo->hidden_relids,
									  ifpinfo->hidden_relids);
	if (jointype == JOIN_SEMI || jointype == JOIN_ANTI)
		fpinfo->hidden_relids = bms_add_members(fpinfo->hidden_relids,
												innerrel->relids);
	foreach(lc, extra->restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		bool		pushed = RINFO_IS_PUSHED_DOWN(ri, joinrel->relids);
		bool		ship;

		/* a gating Result above a foreign join is not made: keep it here */
		if (ri->pseudoconstant)
			return false;
		ship = mf_is_foreign_expr(root, joinrel, ri->clause);
		if (jointype == JOIN_INNER)
		{
			if (ship)
				fpinfo->join_conds = lappend(fpinfo->join_conds, ri);
			else
				fpinfo->local_conds = lappend(fpinfo->local_conds, ri);
		}
		else if (!pushed ||
				 ((jointype == JOIN_SEMI || jointype == JOIN_ANTI) &&
				  !bms_is_subset(ri->clause_relids, outerrel->relids)))
		{
			/*
			 * The join's own condition (for a semi join, an equality the
			 * planner derived from it too): only the remote can apply it.
			 */
			if (!ship)
				return false;
			fpinfo->join_conds = lappend(fpinfo->join_conds, ri);
		}
		else if (ship)
			fpinfo->remote_conds = lappend(fpinfo->remote_conds, ri);
		else
			fpinfo->local_conds = lappend(fpinfo->local_conds, ri);
	}

	/* a semi or anti join gives its outer side's columns alone */
	if (!mf_plain_columns(joinrel->reltarget->exprs,
						  (jointype == JOIN_SEMI || jointype == JOIN_ANTI) ?
						  outerrel->relids : joinrel->relids,
						  fpinfo->opts.dialect))
		return false;
	foreach(lc, fpinfo->local_conds)
	{
		if (!mf_plain_columns(list_make1(lfirst_node(RestrictInfo, lc)->clause),
							  joinrel->relids, fpinfo->opts.dialect))
			return false;
	}
	return true;
}

/*
 * The remote reads both sides and joins them (hashing both, at worst);
 * the joined rows cross the network, each fetch a round trip, and those
 * checked here are costed on top.
 */
static void
mf_join_cost(PlannerInfo *root, RelOptInfo *joinrel)
{
	MfRelInfo  *fpinfo = joinrel->fdw_private;
	MfRelInfo  *ofpinfo = fpinfo->join_outer->fdw_private;
	MfRelInfo  *ifpinfo = fpinfo->join_inner->fdw_private;
	double		retrieved;

	fpinfo->local_conds_sel = clauselist_selectivity(root, fpinfo->local_conds,
													 0, JOIN_INNER, NULL);
	cost_qual_eval(&fpinfo->local_conds_cost, fpinfo->local_conds, root);
	fpinfo->rows = joinrel->rows;
	/* as a scan's (scan_plan.c): never more than the inputs' pairs */
	retrieved = clamp_row_est(Min(joinrel->rows / Max(fpinfo->local_conds_sel, 1e-10),
								  ofpinfo->rows * ifpinfo->rows));
	fpinfo->width = joinrel->reltarget->width;

	fpinfo->remote_cost = ofpinfo->remote_cost + ifpinfo->remote_cost +
		cpu_tuple_cost * (ofpinfo->rows + ifpinfo->rows) +
		cpu_operator_cost * list_length(fpinfo->join_conds) * ofpinfo->rows +
		cpu_tuple_cost * retrieved;

	if (fpinfo->opts.use_remote_estimate)
	{
		StringInfoData sql;
		List	   *retrieved_attrs;
		List	   *params = NIL;

		initStringInfo(&sql);
		mf_deparse_join_select(&sql, root, joinrel, mf_join_scan_tlist(joinrel),
							   &retrieved_attrs, &params);
		/* a parameter's value is not known yet: keep the local guess */
		if (params == NIL)
		{
			double		rows;
			int			width;
			Cost		startup;
			Cost		total;

			mf_ask_remote_estimate(fpinfo, sql.data, "a join", &rows, &width,
								   &startup, &total);
			retrieved = clamp_row_est(rows);
			fpinfo->rows = clamp_row_est(rows * fpinfo->local_conds_sel);
			fpinfo->remote_cost = total;
		}
	}

	fpinfo->retrieved = retrieved;
	fpinfo->startup_cost = fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup;
	fpinfo->total_cost = fpinfo->startup_cost + fpinfo->remote_cost +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost +
		 fpinfo->local_conds_cost.per_tuple) * retrieved +
		fpinfo->opts.fdw_startup_cost *
		ceil(retrieved / fpinfo->opts.fetch_size) / 10.0;
}

void
mfGetForeignJoinPaths(PlannerInfo *root, RelOptInfo *joinrel,
					  RelOptInfo *outerrel, RelOptInfo *innerrel,
					  JoinType jointype, JoinPathExtraData *extra)
{
	MfRelInfo  *fpinfo;
	MfRelInfo  *ofpinfo = outerrel->fdw_private;

	/*
	 * The first pair of sides decides for the join (as in postgres_fdw);
	 * a semi join's de-duplicated side (JOIN_UNIQUE_*) is not a join type
	 * of its own, and must not decide before the semi join itself.
	 */
	if (joinrel->fdw_private != NULL || ofpinfo == NULL ||
		jointype == JOIN_UNIQUE_OUTER || jointype == JOIN_UNIQUE_INNER)
		return;
	fpinfo = palloc0(sizeof(MfRelInfo));
	joinrel->fdw_private = fpinfo;
	fpinfo->opts = ofpinfo->opts;
	fpinfo->user = ofpinfo->user;
	fpinfo->pushdown_safe = false;
	if (!mf_join_ok(root, joinrel, outerrel, innerrel, jointype, extra))
		return;
	fpinfo->pushdown_safe = true;
	mf_join_cost(root, joinrel);

	add_path(joinrel, (Path *)
			 mf_create_foreign_join_path(root, joinrel, fpinfo->rows,
										 fpinfo->startup_cost,
										 fpinfo->total_cost, NIL));
	mf_add_sorted_paths(root, joinrel);
}

/*
 * The columns a join's remote query returns: those needed above it and by
 * its conditions checked here.
 */
List *
mf_join_scan_tlist(RelOptInfo *rel)
{
	MfRelInfo  *fpinfo = rel->fdw_private;
	List	   *tlist;
	ListCell   *lc;

	tlist = add_to_flat_tlist(NIL,
							  pull_var_clause((Node *) rel->reltarget->exprs,
											  PVC_RECURSE_PLACEHOLDERS));
	foreach(lc, fpinfo->local_conds)
		tlist = add_to_flat_tlist(tlist,
								  pull_var_clause((Node *) lfirst_node(RestrictInfo, lc)->clause,
												  PVC_RECURSE_PLACEHOLDERS));
	return tlist;
}

ForeignScan *
mf_join_plan(PlannerInfo *root, RelOptInfo *joinrel, ForeignPath *best_path,
			 List *tlist, Plan *outer_plan, bool has_limit)
{
	MfRelInfo  *fpinfo = joinrel->fdw_private;
	List	   *scan_tlist = mf_join_scan_tlist(joinrel);
	List	   *retrieved_attrs;
	List	   *params_list = NIL;
	StringInfoData sql;

	initStringInfo(&sql);
	mf_deparse_join_select(&sql, root, joinrel, scan_tlist, &retrieved_attrs,
						   &params_list);
	if (best_path->path.pathkeys != NIL)
		mf_deparse_order_by(&sql, root, joinrel, NULL,
							best_path->path.pathkeys, &params_list);
	if (has_limit)
		mf_deparse_limit_clause(&sql, root, fpinfo->opts.dialect,
								best_path->path.pathkeys != NIL);
	return make_foreignscan(tlist,
							extract_actual_clauses(fpinfo->local_conds, false),
							0, params_list,
							mf_scan_private(sql.data, retrieved_attrs,
											&fpinfo->opts,
											best_path->path.rows,
											mf_relations_tree(root, joinrel),
											false, NULL, false),
							scan_tlist, NIL, outer_plan);
}

/*
 * What EXPLAIN's "Relations" line describes, kept in the plan: a table as
 * its range table index, a join as (name, outer, inner), an aggregation
 * as ("Aggregate on", input).  The indexes are the planner's: EXPLAIN
 * shifts them as the plan's own relids were.
 */
List *
mf_relations_tree(PlannerInfo *root, RelOptInfo *rel)
{
	MfRelInfo  *fpinfo = rel->fdw_private;

	if (IS_SIMPLE_REL(rel))
		return list_make1(makeInteger(rel->relid));
	if (IS_UPPER_REL(rel))
		return list_make2(makeString("Aggregate on"),
						  mf_relations_tree(root, fpinfo->scanrel));
	return list_make3(makeString((char *) mf_join_name(fpinfo->jointype)),
					  mf_relations_tree(root, fpinfo->join_outer),
					  mf_relations_tree(root, fpinfo->join_inner));
}

static int
mf_tree_min_relid(List *tree)
{
	int			min = INT_MAX;
	ListCell   *lc;

	if (list_length(tree) == 1)
		return intVal(linitial(tree));
	for_each_from(lc, tree, 1)
		min = Min(min, mf_tree_min_relid(lfirst(lc)));
	return min;
}

static void
mf_tree_text(StringInfo buf, List *tree, int offset, ExplainState *es)
{
	if (list_length(tree) == 1)
	{
		Index		rti = intVal(linitial(tree)) + offset;
		RangeTblEntry *rte = rt_fetch(rti, es->rtable);
		char	   *refname = list_nth(es->rtable_names, rti - 1);
		char	   *relname = get_rel_name(rte->relid);

		appendStringInfo(buf, "%s.%s",
						 quote_identifier(get_namespace_name(get_rel_namespace(rte->relid))),
						 quote_identifier(relname));
		if (refname != NULL && strcmp(refname, relname) != 0)
			appendStringInfo(buf, " %s", quote_identifier(refname));
		return;
	}
	if (list_length(tree) == 2)
	{
		appendStringInfo(buf, "%s (", strVal(linitial(tree)));
		mf_tree_text(buf, lsecond(tree), offset, es);
		appendStringInfoChar(buf, ')');
		return;
	}
	appendStringInfoChar(buf, '(');
	mf_tree_text(buf, lsecond(tree), offset, es);
	appendStringInfo(buf, ") %s (", strVal(linitial(tree)));
	mf_tree_text(buf, lthird(tree), offset, es);
	appendStringInfoChar(buf, ')');
}

/*
 * "Relations: (public.t1 a) INNER JOIN (public.t2 b)", or "Aggregate on
 * (...)", as postgres_fdw shows them.
 */
void
mf_explain_relations(ForeignScan *fsplan, List *tree, ExplainState *es)
{
	StringInfoData buf;
	int			offset = (int) mf_fscan_first_base_relid(fsplan) -
		mf_tree_min_relid(tree);

	initStringInfo(&buf);
	mf_tree_text(&buf, tree, offset, es);
	ExplainPropertyText("Relations", buf.data, es);
}
