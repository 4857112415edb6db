/*-------------------------------------------------------------------------
 *
 * param_path.c
 *		Parameterized paths of a foreign table: join clauses sent to the
 *		remote with the outer relation's values as parameters, so that a
 *		nested loop looks rows up on the remote instead of reading the
 *		whole table again for each outer row.
 *
 * As postgres_fdw does, the paths are built only where the remote can
 * say what such a lookup costs (use_remote_estimate, on a dialect with
 * remote estimates): without an index on the remote a lookup is a full
 * scan per outer row, and only the remote knows which it is.  Each path
 * is costed by the remote's plan of its query, the outer values written
 * as values it cannot know (the dialect's deparse_unknown_value).
 *
 * A clause is tried with every column of another relation replaced by a
 * placeholder parameter (mf_outer_vars_as_params), which is what the
 * executor will send in its place: the shippability rules see a parameter
 * of the column's type and collation, as for a prepared statement's $1.
 * In the plan the placeholders become those columns again
 * (mf_outer_params_to_vars), which the planner then turns into the nested
 * loop's parameters.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "catalog/pg_type.h"
#include "utils/lsyscache.h"

#include "plan/plan.h"

/*
 * A placeholder's paramid: below any the planner gives (which start at
 * 0), position i of the columns it stands for at -1 - i.
 */
#define MF_OUTER_PARAMID(i)		(-1 - (i))
#define MF_OUTER_INDEX(paramid)	(-1 - (paramid))

typedef struct MfOuterCxt
{
	Relids		relids;			/* the scanned relation's */
	List	  **vars;			/* the columns replaced, by position */
} MfOuterCxt;

static Node *
mf_outer_mutator(Node *node, MfOuterCxt *cxt)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varlevelsup == 0 &&
		!bms_is_member(((Var *) node)->varno, cxt->relids))
	{
		Var		   *var = (Var *) node;
		Param	   *p = makeNode(Param);
		int			i = 0;
		ListCell   *lc;

		foreach(lc, *cxt->vars)
		{
			if (equal(lfirst(lc), var))
				break;
			i++;
		}
		if (lc == NULL)
			*cxt->vars = lappend(*cxt->vars, copyObject(var));
		p->paramkind = PARAM_EXEC;
		p->paramid = MF_OUTER_PARAMID(i);
		p->paramtype = var->vartype;
		p->paramtypmod = var->vartypmod;
		p->paramcollid = var->varcollid;
		p->location = -1;
		return (Node *) p;
	}
	return expression_tree_mutator(node, mf_outer_mutator, cxt);
}

/*
 * expr with each column of a relation other than relids' replaced by a
 * placeholder parameter; *vars collects the columns (shared by the
 * clauses of one scan, so that each column has one placeholder).
 */
Expr *
mf_outer_vars_as_params(Expr *expr, Relids relids, List **vars)
{
	MfOuterCxt	cxt;

	cxt.relids = relids;
	cxt.vars = vars;
	return (Expr *) mf_outer_mutator((Node *) expr, &cxt);
}

static Node *
mf_outer_unmutator(Node *node, List *vars)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXEC &&
		((Param *) node)->paramid < 0)
		return copyObject(list_nth(vars,
								   MF_OUTER_INDEX(((Param *) node)->paramid)));
	return expression_tree_mutator(node, mf_outer_unmutator, vars);
}

/*
 * The values a scan's markers stand for, with each placeholder made the
 * column it replaced again, wherever it is in them (a marker may stand for
 * an expression computed locally from it, k % 4 + 2): the planner makes
 * those columns the nested loop's parameters.
 */
List *
mf_outer_params_to_vars(List *params_list, List *vars)
{
	if (vars == NIL)
		return params_list;
	return (List *) mf_outer_unmutator((Node *) params_list, vars);
}

/*
 * May these outer columns be sent as parameters?  A parameter is sent
 * with its local type (the postgres dialect casts it, $1::text), so a
 * column of ours beside it goes through the dialect's compare_cast (a
 * text column declared over a remote enum or uuid has no operator for a
 * text parameter).  Not those of another string type (name, "char", an
 * extension's), which has no such cast: a clause comparing one stays a
 * filter here.
 */
bool
mf_outer_vars_sendable(List *vars, const MfDialect *dialect)
{
	ListCell   *lc;

	foreach(lc, vars)
	{
		Var		   *var = lfirst(lc);
		char		category;
		bool		preferred;

		get_type_category_preferred(getBaseType(var->vartype), &category,
									&preferred);
		if ((category == TYPCATEGORY_STRING || category == TYPCATEGORY_UNKNOWN) &&
			mf_compare_cast(dialect, var->vartype) == NULL)
			return false;
	}
	return true;
}

/* May clause, a join clause of baserel, be sent with the outer values? */
static bool
mf_join_clause_shippable(PlannerInfo *root, RelOptInfo *baserel,
						 RestrictInfo *rinfo)
{
	List	   *vars = NIL;
	Expr	   *clause;

	if (!join_clause_is_movable_to(rinfo, baserel))
		return false;
	clause = mf_outer_vars_as_params(rinfo->clause, baserel->relids, &vars);
	return mf_outer_vars_sendable(vars,
								  ((MfRelInfo *) baserel->fdw_private)->opts.dialect) &&
		mf_is_foreign_cond(root, baserel, clause);
}

/* The parameterization clause would give baserel, if any; into *ppis. */
static void
mf_note_parameterization(PlannerInfo *root, RelOptInfo *baserel,
						 RestrictInfo *rinfo, List **ppis)
{
	Relids		required_outer;

	if (!mf_join_clause_shippable(root, baserel, rinfo))
		return;
	required_outer = bms_union(rinfo->clause_relids, baserel->lateral_relids);
	required_outer = bms_del_member(required_outer, baserel->relid);
	if (bms_is_empty(required_outer))
		return;
	*ppis = list_append_unique_ptr(*ppis,
								   get_baserel_parampathinfo(root, baserel,
															 required_outer));
}

/* One member of an equivalence class at a time, as postgres_fdw asks. */
typedef struct MfEcArg
{
	Expr	   *current;		/* the member being tried */
	List	   *already_used;	/* those tried before */
} MfEcArg;

static bool
mf_ec_member_matches(PlannerInfo *root, RelOptInfo *rel, EquivalenceClass *ec,
					 EquivalenceMember *em, void *arg)
{
	MfEcArg    *state = arg;
	Expr	   *expr = em->em_expr;

	if (state->current != NULL)
		return equal(expr, state->current);
	if (list_member(state->already_used, expr))
		return false;
	state->current = expr;
	return true;
}

/*
 * The remote's estimate of baserel's scan with the join clauses of ppi
 * that can be sent, the outer values unknown to it: rows, startup and
 * total cost as the scan's path has them.
 */
static void
mf_param_estimate(PlannerInfo *root, RelOptInfo *baserel,
				  ParamPathInfo *ppi, double *rows, Cost *startup,
				  Cost *total)
{
	MfRelInfo  *fpinfo = baserel->fdw_private;
	RangeTblEntry *rte = planner_rt_fetch(baserel->relid, root);
	List	   *conds = list_copy(fpinfo->remote_conds);
	List	   *vars = NIL;
	Selectivity local_sel = fpinfo->local_conds_sel;
	List	   *retrieved;
	Relation	rel;
	StringInfoData sql;
	double		remote_rows;
	int			width;
	Cost		remote_startup;
	Cost		remote_total;
	ListCell   *lc;

	foreach(lc, ppi->ppi_clauses)
	{
		RestrictInfo *rinfo = lfirst(lc);
		Expr	   *clause = mf_outer_vars_as_params(rinfo->clause,
													 baserel->relids, &vars);

		if (mf_join_clause_shippable(root, baserel, rinfo))
			conds = lappend(conds, clause);
		else
			local_sel *= clause_selectivity(root, (Node *) rinfo, 0,
											JOIN_INNER, NULL);
	}
	initStringInfo(&sql);
	rel = table_open(rte->relid, NoLock);
	/* no parameter list: every parameter is written as an unknown value */
	mf_deparse_select(&sql, root, baserel, rel, fpinfo->attrs_used, conds,
					  LCS_NONE, LockWaitBlock, &retrieved, NULL);
	table_close(rel, NoLock);
	mf_ask_remote_estimate(fpinfo, sql.data,
						   psprintf("foreign table \"%s\"",
									get_rel_name(rte->relid)),
						   &remote_rows, &width, &remote_startup,
						   &remote_total);
	*rows = clamp_row_est(remote_rows * local_sel);
	*startup = remote_startup + fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup;
	*total = remote_total + fpinfo->opts.fdw_startup_cost +
		fpinfo->local_conds_cost.startup +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost +
		 fpinfo->local_conds_cost.per_tuple) * remote_rows;
}

/*
 * Add baserel's parameterized paths: one per set of outer relations that
 * a shippable join clause needs, from the join clauses proper and from
 * the equalities its equivalence classes imply.
 */
void
mf_add_param_paths(PlannerInfo *root, RelOptInfo *baserel)
{
	MfRelInfo  *fpinfo = baserel->fdw_private;
	List	   *ppis = NIL;
	ListCell   *lc;

	if (!fpinfo->opts.use_remote_estimate ||
		fpinfo->opts.dialect->explain_prefix == NULL ||
		fpinfo->opts.dialect->deparse_unknown_value == NULL)
		return;

	foreach(lc, baserel->joininfo)
		mf_note_parameterization(root, baserel, lfirst(lc), &ppis);

	if (baserel->has_eclass_joins)
	{
		MfEcArg		arg;

		arg.already_used = NIL;
		for (;;)
		{
			List	   *clauses;

			arg.current = NULL;
			clauses = generate_implied_equalities_for_column(root, baserel,
															 mf_ec_member_matches,
															 &arg,
															 baserel->lateral_referencers);
			if (arg.current == NULL)
				break;
			foreach(lc, clauses)
				mf_note_parameterization(root, baserel, lfirst(lc), &ppis);
			arg.already_used = lappend(arg.already_used, arg.current);
		}
	}

	foreach(lc, ppis)
	{
		ParamPathInfo *ppi = lfirst(lc);
		double		rows;
		Cost		startup;
		Cost		total;

		mf_param_estimate(root, baserel, ppi, &rows, &startup, &total);
		/* every path of one parameterization has the same rows */
		ppi->ppi_rows = rows;
		add_path(baserel, (Path *)
				 mf_create_foreignscan_path(root, baserel, rows, startup,
											total, NIL, ppi->ppi_req_outer,
											NIL));
	}
}
