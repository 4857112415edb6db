/*-------------------------------------------------------------------------
 *
 * depjoin.c
 *		The dependent join: a join of a multi_fdw foreign table F with any
 *		other input X (a local table, a foreign table of another server or
 *		wrapper, a join already sent to one server) that runs X first and
 *		reads from F only the rows whose join key X has.
 *
 * A selective join across servers otherwise costs the rows that exist:
 * the planner hashes all of F, or asks it once per row of X.  Here the
 * distinct non-NULL keys of X are shipped in the remote query itself
 * (key = ANY($n) as one array where the dialect has arrays, else IN lists
 * of at most MF_DEPJOIN_LIST keys per statement), and the few rows that
 * come back are joined here.  The keys are only a filter: every join
 * condition is checked here again on the rows that come back, so a remote
 * whose equality is looser than ours (a case-insensitive collation) costs
 * rows, not correctness; a key is shipped only where the dialect ships the
 * same comparison in a WHERE clause, so that no matching row is left out.
 *
 * Execution: X is read and held (its rows, grouped by key in a hash
 * table); the remote rows of F stream through and are matched against it.
 * An inner join gives each match as it comes; a left or anti join gives
 * the rows of X without a match at the end, a semi join those with one.
 * X is held at most hash memory (work_mem x hash_mem_multiplier) at a time:
 * a bigger X is joined a batch at a time, each batch asking F for its own
 * keys.  Every row of a batch meets every row of F with its key, so a
 * batch's unmatched rows have no match at all and the outer, semi and
 * anti joins stay exact; a key in several batches is asked for again.
 * More keys than dependent_join_max_keys (the foreign table's or server's
 * option, else the GUC multi_fdw.dependent_join_max_keys) fall back at run time
 * to a range (min <= key <= max) where the dialect compares the type by
 * order exactly, else to reading F whole: a bad estimate costs time, never
 * the answer.
 *
 * Planned through set_join_pathlist_hook as a CustomScan whose one child
 * is X's plan; multi_fdw.dependent_join = off, or the option
 * dependent_join 'false' of F or its server, turns it off.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"

#include "plan/plan.h"
#include "plan/depjoin_int.h"

static bool mf_depjoin_enabled = true;
int			mf_depjoin_max_keys = 100000;
static set_join_pathlist_hook_type prev_join_pathlist_hook = NULL;

/* ---------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------
 */

/*
 * Can rel be F: a foreign table of ours, or a join of ours that join.c
 * sends to one server whole, with nothing of it checked here (its rows
 * then come from one remote SELECT, to whose WHERE the keys are added).
 */
static bool
mf_is_our_rel(RelOptInfo *rel)
{
	MfRelInfo  *fpinfo = rel->fdw_private;

	if (rel->fdwroutine == NULL ||
		rel->fdwroutine->GetForeignRelSize != mfGetForeignRelSize ||
		fpinfo == NULL)
		return false;
	if (rel->reloptkind == RELOPT_BASEREL)
		return rel->rtekind == RTE_RELATION;
	return rel->reloptkind == RELOPT_JOINREL && fpinfo->pushdown_safe &&
		fpinfo->local_conds == NIL;
}

/*
 * Would the dialect ship "fcol <op> value" for a value computed here?
 * The comparison the keys make remotely, with X's side as a parameter.
 */
static bool
mf_key_shippable(PlannerInfo *root, RelOptInfo *frel, Oid opno, Var *fvar)
{
	Param	   *p = makeNode(Param);
	Expr	   *test;

	p->paramkind = PARAM_EXTERN;
	p->paramid = 1;
	p->paramtype = fvar->vartype;
	p->paramtypmod = -1;
	p->paramcollid = fvar->varcollid;
	p->location = -1;
	test = make_opclause(opno, BOOLOID, false, (Expr *) fvar, (Expr *) p,
						 InvalidOid, fvar->varcollid);
	fix_opfuncids((Node *) test);
	return mf_is_foreign_expr(root, frel, test);
}

/*
 * Is the equality of a column of F and one of X a key, and with which of
 * F's own equalities are its keys compared remotely?  Of one type, the
 * join's own.  Of two integer types, equal by the integer family's
 * operator (int4 = int8): X's keys then go as F's type, exactly, and one
 * out of its range cannot match and is not shipped.
 */
static bool
mf_key_types(Oid opno, Oid ftype, Oid xtype, Oid *fopno)
{
	if (ftype == xtype)
	{
		*fopno = opno;
		return true;
	}
	if ((ftype != INT2OID && ftype != INT4OID && ftype != INT8OID) ||
		(xtype != INT2OID && xtype != INT4OID && xtype != INT8OID) ||
		get_op_opfamily_strategy(opno, INTEGER_BTREE_FAM_OID) != BTEqualStrategyNumber)
		return false;
	*fopno = lookup_type_cache(ftype, TYPECACHE_EQ_OPR)->eq_opr;
	return OidIsValid(*fopno);
}

/*
 * A join's key is one column, of one of its tables, which the remote
 * filters first (by an index) and joins after: one array the remote's
 * planner counts (= ANY), not rows of unnest() that it takes for 100 and
 * plans the join around (TPC-H Q9's pairs went from 0.28 s in two
 * statements to 0.34 s in one).  The column whose keys select the least of
 * F; the others' equalities are checked here.
 */
static void
mf_one_column_key(PlannerInfo *root, RelOptInfo *frel, RelOptInfo *xrel,
				  MfDepJoinKey *key)
{
	int			best = 0;
	double		best_share = 0;

	for (int c = 0; c < key->ncols; c++)
	{
		double		share;

		share = Min(1.0, estimate_num_groups(root, list_make1(list_nth(key->xvars, c)),
											 xrel->rows, NULL, NULL) /
					mf_depjoin_table_distinct(root, frel,
											  list_make1(list_nth(key->fvars, c))));
		if (c == 0 || share < best_share)
		{
			best = c;
			best_share = share;
		}
	}
	key->ri[0] = key->ri[best];
	key->fvars = list_make1(list_nth(key->fvars, best));
	key->xvars = list_make1(list_nth(key->xvars, best));
	key->ncols = 1;
}

/*
 * The hashable equalities of one column of F and one of X, of one type,
 * that the dialect ships: as many as a key may have, in the order of the
 * join's conditions.
 */
static bool
mf_find_key(PlannerInfo *root, RelOptInfo *frel, RelOptInfo *xrel,
			List *restrictlist, MfDepJoinKey *key)
{
	ListCell   *lc;

	key->ncols = 0;
	key->fvars = key->xvars = NIL;

	foreach(lc, restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		OpExpr	   *op;
		Node	   *l;
		Node	   *r;
		Var		   *fv;
		Var		   *xv;
		Oid			fopno;

		if (!IsA(ri->clause, OpExpr) || !OidIsValid(ri->hashjoinoperator))
			continue;
		op = (OpExpr *) ri->clause;
		if (list_length(op->args) != 2)
			continue;
		l = mf_strip_relabel(linitial(op->args));
		r = mf_strip_relabel(lsecond(op->args));
		if (!IsA(l, Var) || !IsA(r, Var))
			continue;
		if (bms_is_member(((Var *) l)->varno, frel->relids))
		{
			fv = (Var *) l;
			xv = (Var *) r;
		}
		else
		{
			fv = (Var *) r;
			xv = (Var *) l;
		}
		if (!bms_is_member(fv->varno, frel->relids) ||
			!bms_is_member(xv->varno, xrel->relids) ||
			fv->varattno <= 0 || xv->varattno <= 0 ||
			fv->varlevelsup != 0 || xv->varlevelsup != 0)
			continue;
		if (!mf_key_types(op->opno, fv->vartype, xv->vartype, &fopno) ||
			!mf_key_shippable(root, frel, fopno, fv))
			continue;

		/*
		 * The keys go as the remote compares the column, not through the
		 * dialect's text_bytes_fmt, by which a text equality passes the
		 * test above: text keys only to a column marked text_pushdown,
		 * which compares as we do.  Another may hold what our text shows
		 * otherwise (a FLOAT, a DATETIME), or refuse a key its character
		 * set cannot hold.  And never character(n) keys: equal here
		 * without their trailing spaces, which a NO PAD collation keeps
		 * (a local char(n) key is padded).
		 */
		if (((MfRelInfo *) frel->fdw_private)->opts.dialect->text_bytes_fmt != NULL &&
			(getBaseType(fv->vartype) == BPCHAROID ||
			 ((getBaseType(fv->vartype) == TEXTOID ||
			   getBaseType(fv->vartype) == VARCHAROID) &&
			  !mf_column_flag(planner_rt_fetch(fv->varno, root)->relid,
							  fv->varattno, "text_pushdown"))))
			continue;

		/*
		 * Keys are grouped here and compared remotely by equality of
		 * their bytes: the join's own equality must be that, not one of a
		 * nondeterministic collation ('ABC' = 'abc').
		 */
		if (OidIsValid(op->inputcollid) &&
			!get_collation_isdeterministic(op->inputcollid))
			continue;
		/* arrays of the keys: a type that has none stays out */
		if (((MfRelInfo *) frel->fdw_private)->opts.dialect->supports_arrays &&
			!OidIsValid(get_array_type(fv->vartype)))
			continue;
		key->ri[key->ncols++] = ri;
		key->fvars = lappend(key->fvars, fv);
		key->xvars = lappend(key->xvars, xv);
		if (key->ncols == MF_DEPJOIN_MAX_COLS)
			break;
	}
	if (key->ncols > 1 && !IS_SIMPLE_REL(frel))
		mf_one_column_key(root, frel, xrel, key);
	return key->ncols > 0;
}

static CustomPathMethods mf_depjoin_path_methods;

/* Are the columns of F that node reads all ordinary ones? */
static bool
mf_depjoin_f_columns_ok(RelOptInfo *frel, Node *node)
{
	ListCell   *lc;

	foreach(lc, pull_var_clause(node, PVC_RECURSE_PLACEHOLDERS))
	{
		Var		   *v = lfirst(lc);

		if (bms_is_member(v->varno, frel->relids) && v->varattno <= 0)
			return false;
	}
	return true;
}

/*
 * The dependent join of F and X, if it can be one; unique: X is a semi
 * join's inner side, made unique on the semi join's columns first (and
 * the join then an inner one), as the planner's own joins do it, so that
 * X's few keys are shipped to an F on the semi join's outer side.
 */
static void
mf_depjoin_consider(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *frel,
					RelOptInfo *xrel, JoinType jointype,
					JoinPathExtraData *extra, bool unique)
{
	MfRelInfo  *fpinfo = frel->fdw_private;
	MfDepJoinKey key;
	Path	   *xpath = xrel->cheapest_total_path;
	CustomPath *cpath;
	ListCell   *lc;

	if (!fpinfo->opts.pushdown || !fpinfo->opts.dependent_join)
		return;
	/* a join's: each of its tables' own options allow it */
	for (int r = mf_next_table(root, frel->relids, -1); r >= 0;
		 r = mf_next_table(root, frel->relids, r))
	{
		MfRelInfo  *tpinfo = find_base_rel(root, r)->fdw_private;

		if (!tpinfo->opts.pushdown || !tpinfo->opts.dependent_join)
			return;
	}
	/*
	 * F's own conditions the remote cannot check are checked here, on each
	 * row of F the keys bring that has a partner (a correlated subquery's
	 * for those rows, not for all of F): on its plain columns only.  Not a
	 * pseudoconstant (no column of F: a gate the planner puts above F's
	 * scan, which this join replaces), and nothing volatile (a row of F
	 * read once per batch of X must get one answer).
	 */
	if (contain_volatile_functions((Node *) fpinfo->local_conds))
		return;
	foreach(lc, fpinfo->local_conds)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Node	   *clause = (Node *) rinfo->clause;

		ListCell   *lc2;

		if (rinfo->pseudoconstant || !mf_depjoin_f_columns_ok(frel, clause))
			return;
		foreach(lc2, pull_var_clause(clause, PVC_INCLUDE_PLACEHOLDERS))
		{
			if (!IsA(lfirst(lc2), Var))
				return;
		}
	}
	if (xpath == NULL || PATH_REQ_OUTER(xpath) != NULL ||
		!bms_is_empty(joinrel->lateral_relids))
		return;
	if (unique)
	{
		xpath = (Path *) create_unique_path(root, xrel, xpath, extra->sjinfo);
		if (xpath == NULL)
			return;
	}
	foreach(lc, extra->restrictlist)
	{
		if (lfirst_node(RestrictInfo, lc)->pseudoconstant)
			return;
	}
	if (!mf_find_key(root, frel, xrel, extra->restrictlist, &key))
		return;
	/*
	 * Plain columns out: F's are read into a slot of its own, whose
	 * ordinary columns alone the scan tuple takes (no whole row of F, no
	 * system column: its remote rows have neither).
	 */
	foreach(lc, joinrel->reltarget->exprs)
	{
		if (!IsA(lfirst(lc), Var))
			return;
	}
	if (!mf_depjoin_f_columns_ok(frel, (Node *) joinrel->reltarget->exprs))
		return;
	foreach(lc, extra->restrictlist)
	{
		if (!mf_depjoin_f_columns_ok(frel, (Node *) lfirst_node(RestrictInfo, lc)->clause))
			return;
	}

	cpath = makeNode(CustomPath);
	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = joinrel;
	cpath->path.pathtarget = joinrel->reltarget;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = false;
	cpath->path.parallel_workers = 0;
	cpath->path.pathkeys = NIL;
	cpath->flags = 0;
	cpath->custom_paths = list_make1(xpath);
	{
		List	   *keyris = NIL;
		List	   *frelids = NIL;
		int			r = -1;

		for (int c = 0; c < key.ncols; c++)
			keyris = lappend(keyris, key.ri[c]);
		while ((r = bms_next_member(frel->relids, r)) >= 0)
			frelids = lappend_int(frelids, r);
		/* in the order of enum MfDepJoinPathPrivate */
		cpath->custom_private = list_make4(makeInteger(jointype), frelids,
										   keyris, extra->restrictlist);
	}
	cpath->methods = &mf_depjoin_path_methods;
	mf_depjoin_cost(root, cpath, frel, xpath, &key, joinrel->rows);
	add_path(joinrel, (Path *) cpath);
}

static void
mf_depjoin_hook(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
				RelOptInfo *innerrel, JoinType jointype,
				JoinPathExtraData *extra)
{
	if (prev_join_pathlist_hook)
		prev_join_pathlist_hook(root, joinrel, outerrel, innerrel, jointype,
								extra);
	if (!mf_depjoin_enabled || root->rowMarks != NIL ||
		bms_overlap(joinrel->relids, root->all_result_relids))
		return;

	switch (jointype)
	{
		case JOIN_INNER:
			if (mf_is_our_rel(innerrel))
				mf_depjoin_consider(root, joinrel, innerrel, outerrel,
									JOIN_INNER, extra, false);
			if (mf_is_our_rel(outerrel))
				mf_depjoin_consider(root, joinrel, outerrel, innerrel,
									JOIN_INNER, extra, false);
			break;
		case JOIN_LEFT:
		case JOIN_SEMI:
		case JOIN_ANTI:
			if (mf_is_our_rel(innerrel))
				mf_depjoin_consider(root, joinrel, innerrel, outerrel,
									jointype, extra, false);
			break;
		case JOIN_RIGHT:
			if (mf_is_our_rel(outerrel))
				mf_depjoin_consider(root, joinrel, outerrel, innerrel,
									JOIN_LEFT, extra, false);
			break;
		case JOIN_UNIQUE_OUTER:
			/* F IN (SELECT key FROM X): X's distinct keys to F */
			if (mf_is_our_rel(innerrel))
				mf_depjoin_consider(root, joinrel, innerrel, outerrel,
									JOIN_INNER, extra, true);
			break;
		case JOIN_UNIQUE_INNER:
			if (mf_is_our_rel(outerrel))
				mf_depjoin_consider(root, joinrel, outerrel, innerrel,
									JOIN_INNER, extra, true);
			break;
		default:
			break;
	}
}

/*
 * The entry of tlist for the column var is, whatever outer joins may
 * have made it NULL (16+ marks that on the Var: a column of F is nullable
 * in the join's output and not in its own ON clause).
 */
static TargetEntry *
mf_tlist_column(List *tlist, Var *var)
{
	ListCell   *lc;

	foreach(lc, tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);
		Var		   *v = (Var *) tle->expr;

		if (IsA(v, Var) && v->varno == var->varno &&
			v->varattno == var->varattno && v->varlevelsup == var->varlevelsup)
			return tle;
	}
	return NULL;
}

/* Append the columns of node to the scan tlist, each column once. */
static List *
mf_add_vars(List *tlist, Node *node)
{
	ListCell   *lc;

	foreach(lc, pull_var_clause(node, PVC_RECURSE_PLACEHOLDERS))
	{
		Var		   *v = lfirst(lc);

		if (!IsA(v, Var))
			elog(ERROR, "unexpected expression in the dependent join's columns");
		if (mf_tlist_column(tlist, v) == NULL)
			tlist = lappend(tlist, makeTargetEntry((Expr *) copyObject(v),
												   list_length(tlist) + 1,
												   NULL, false));
	}
	return tlist;
}

/* The position of var in a join F's columns, added if not there yet. */
static int
mf_f_tlist_column(List **f_tlist, Var *var)
{
	TargetEntry *tle = mf_tlist_column(*f_tlist, var);

	if (tle == NULL)
	{
		tle = makeTargetEntry((Expr *) copyObject(var),
							  list_length(*f_tlist) + 1, NULL, false);
		*f_tlist = lappend(*f_tlist, tle);
	}
	return tle->resno;
}

/*
 * Where each column of the dependent join's scan tuple comes from: X's
 * column (its resno, > 0) or F's (minus its attnum), F's going into
 * *fattrs as the SELECT must read them; of a join F, minus its position
 * in *f_tlist, the columns the join's SELECT returns.
 */
static List *
mf_depjoin_map(List *scan_tlist, RelOptInfo *frel, Plan *xplan,
			   Bitmapset **fattrs, List **f_tlist)
{
	List	   *map = NIL;
	ListCell   *lc;

	foreach(lc, scan_tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);
		Var		   *v = (Var *) tle->expr;

		if (!IsA(v, Var))
			elog(ERROR, "unexpected expression in the dependent join's columns");
		if (bms_is_member(v->varno, frel->relids))
		{
			/* mf_depjoin_consider declined any other column of F */
			if (v->varattno <= 0)
				elog(ERROR, "the dependent join reads no whole row or system column of its foreign table");
			if (!IS_SIMPLE_REL(frel))
			{
				map = lappend_int(map, -mf_f_tlist_column(f_tlist, v));
				continue;
			}
			*fattrs = bms_add_member(*fattrs,
									 v->varattno - FirstLowInvalidHeapAttributeNumber);
			map = lappend_int(map, -v->varattno);
		}
		else
		{
			TargetEntry *x = mf_tlist_column(xplan->targetlist, v);

			if (x == NULL)
				elog(ERROR, "a column of the dependent join is not in its input");
			map = lappend_int(map, x->resno);
		}
	}
	return map;
}

/*
 * The join conditions are checked on the scan tuple, where each column is
 * once: their columns are made the scan tuple's (the same column, marked
 * as the join's output marks it).
 */
static Node *
mf_as_scanned(Node *node, List *scan_tlist)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var))
	{
		TargetEntry *tle = mf_tlist_column(scan_tlist, (Var *) node);

		return (Node *) copyObject(tle ? tle->expr : (Expr *) node);
	}
	return expression_tree_mutator(node, mf_as_scanned, scan_tlist);
}

static Plan *
mf_depjoin_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	List	   *path_priv = best_path->custom_private;
	JoinType	jointype = intVal(list_nth(path_priv, MF_DJP_JOINTYPE));
	List	   *frelids = list_nth(path_priv, MF_DJP_F_RELIDS);
	List	   *keyris = list_nth(path_priv, MF_DJP_KEYS);
	List	   *restrictlist = list_nth(path_priv, MF_DJP_RESTRICT);
	Index		frti;
	RelOptInfo *frel;
	MfRelInfo  *fpinfo;
	Plan	   *xplan = linitial(custom_plans);
	List	   *join_quals = NIL;
	List	   *other_quals = NIL;
	List	   *f_quals;
	List	   *scan_tlist;
	List	   *map = NIL;
	List	   *retrieved;
	List	   *params = NIL;
	Bitmapset  *fattrs = NULL;
	Relation	frelation;
	StringInfoData sql;
	List	   *fvars = NIL;
	List	   *xvars = NIL;
	List	   *ops = NIL;
	List	   *x_types = NIL;
	List	   *colls = NIL;
	List	   *x_keys = NIL;
	List	   *f_keys = NIL;
	List	   *key_sqls = NIL;
	List	   *f_tlist = NIL;
	Var		   *fvar;
	ListCell   *lc;
	ListCell   *lc2;
	int			nquals;
	int			nkey_quals = 0;
	bool		range;
	Node	   *priv[MF_DJ_NPRIVATE];

	(void) clauses;
	if (list_length(frelids) == 1)
		frel = find_base_rel(root, linitial_int(frelids));
	else
	{
		Relids		relids = NULL;

		foreach(lc, frelids)
			relids = bms_add_member(relids, lfirst_int(lc));
		frel = find_join_rel(root, relids);
		if (frel == NULL)
			elog(ERROR, "the dependent join's foreign join is not planned");
	}
	/* a join's options and user: its first table's (join.c's checks) */
	frti = mf_next_table(root, frel->relids, -1);
	fpinfo = frel->fdw_private;
	foreach(lc, keyris)
	{
		OpExpr	   *op = (OpExpr *) lfirst_node(RestrictInfo, lc)->clause;
		Node	   *l = mf_strip_relabel(linitial(op->args));
		Node	   *r = mf_strip_relabel(lsecond(op->args));
		bool		f_left = bms_is_member(((Var *) l)->varno, frel->relids);
		Var		   *fv = (Var *) (f_left ? l : r);
		Var		   *xv = (Var *) (f_left ? r : l);
		Oid			fopno;

		if (!mf_key_types(op->opno, fv->vartype, xv->vartype, &fopno))
			elog(ERROR, "the dependent join's key is not of comparable types");
		fvars = lappend(fvars, fv);
		xvars = lappend(xvars, xv);
		ops = lappend_oid(ops, fopno);
		x_types = lappend_oid(x_types, xv->vartype);
		colls = lappend_oid(colls, op->inputcollid);
		f_keys = lappend_int(f_keys, fv->varattno);
		fattrs = bms_add_member(fattrs,
								fv->varattno - FirstLowInvalidHeapAttributeNumber);
	}
	fvar = linitial(fvars);

	/*
	 * Conditions of the join itself are checked as rows are matched, the
	 * keys' equalities first (EXPLAIN shows the others as Join Filter);
	 * those after an outer join (WHERE) on the rows it gives.
	 */
	foreach(lc, restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (jointype != JOIN_INNER && RINFO_IS_PUSHED_DOWN(ri, rel->relids) &&
			(jointype == JOIN_LEFT ||
			 !bms_overlap(ri->clause_relids, frel->relids)))
			other_quals = lappend(other_quals, ri->clause);
		else if (list_member_ptr(keyris, ri))
			join_quals = list_insert_nth(join_quals, nkey_quals++, ri->clause);
		else
			join_quals = lappend(join_quals, ri->clause);
	}

	/* F's own conditions not sent: checked on each row of F as it comes */
	f_quals = extract_actual_clauses(fpinfo->local_conds, false);

	/* the scan tuple: every column the output and the conditions need */
	scan_tlist = mf_add_vars(NIL, (Node *) rel->reltarget->exprs);
	scan_tlist = mf_add_vars(scan_tlist, (Node *) other_quals);
	scan_tlist = mf_add_vars(scan_tlist, (Node *) join_quals);
	scan_tlist = mf_add_vars(scan_tlist, (Node *) f_quals);
	join_quals = (List *) mf_as_scanned((Node *) join_quals, scan_tlist);
	other_quals = (List *) mf_as_scanned((Node *) other_quals, scan_tlist);
	f_quals = (List *) mf_as_scanned((Node *) f_quals, scan_tlist);
	foreach(lc, xvars)
	{
		TargetEntry *xtle = mf_tlist_column(xplan->targetlist, lfirst(lc));

		if (xtle == NULL)
			elog(ERROR, "the key of the dependent join is not in its input");
		x_keys = lappend_int(x_keys, xtle->resno);
	}
	map = mf_depjoin_map(scan_tlist, frel, xplan, &fattrs, &f_tlist);

	/*
	 * F's SELECT: its own conditions, then the keys (added at run time); a
	 * join's keys are its columns' positions in what it returns, each
	 * column named rN.col (deparse_join.c).
	 */
	initStringInfo(&sql);
	if (IS_SIMPLE_REL(frel))
	{
		frelation = table_open(planner_rt_fetch(frti, root)->relid, NoLock);
		mf_deparse_select(&sql, root, frel, frelation, fattrs,
						  fpinfo->remote_conds, LCS_NONE, LockWaitBlock,
						  &retrieved, &params);
		table_close(frelation, NoLock);
	}
	else
	{
		f_keys = NIL;
		foreach(lc, fvars)
			f_keys = lappend_int(f_keys, mf_f_tlist_column(&f_tlist, lfirst(lc)));
		mf_deparse_join_select(&sql, root, frel, f_tlist, &retrieved, &params);
	}
	/* each key column as the remote compares it as ours (a string one cast) */
	forboth(lc, fvars, lc2, colls)
	{
		Var		   *fv = lfirst(lc);
		StringInfoData col;
		StringInfoData keysql;

		initStringInfo(&col);
		if (IS_SIMPLE_REL(frel))
			mf_deparse_column(&col, planner_rt_fetch(fv->varno, root)->relid,
							  fv->varattno, fpinfo->opts.dialect);
		else
			mf_deparse_join_column(&col, root, fv, fpinfo->opts.dialect);
		initStringInfo(&keysql);
		mf_append_compared(&keysql, col.data, fv->vartype, lfirst_oid(lc2),
						   fv->varcollid, fpinfo->opts.dialect);
		key_sqls = lappend(key_sqls, makeString(keysql.data));
	}
	/* a fallback range (of the first column) needs the remote's order to be ours */
	{
		TypeCacheEntry *tc = lookup_type_cache(fvar->vartype,
											   TYPECACHE_LT_OPR | TYPECACHE_GT_OPR);

		range = OidIsValid(tc->lt_opr) && OidIsValid(tc->gt_opr) &&
			mf_key_shippable(root, frel, get_negator(tc->lt_opr), fvar) &&
			mf_key_shippable(root, frel, get_negator(tc->gt_opr), fvar);
	}

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = other_quals;
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	nquals = list_length(join_quals);
	cscan->custom_exprs = list_concat(list_concat(list_copy(join_quals),
												  f_quals), params);
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_relids = bms_copy(rel->relids);
	cscan->methods = GetCustomScanMethods(MF_DEPJOIN_SCAN_NAME, false);
	priv[MF_DJ_JOINTYPE] = (Node *) makeInteger(jointype);
	priv[MF_DJ_F_RTI] = (Node *) makeInteger(frti);
	priv[MF_DJ_MIN_RTI] = (Node *) makeInteger(bms_next_member(rel->relids, -1));
	priv[MF_DJ_SQL] = (Node *) makeString(sql.data);
	priv[MF_DJ_HAS_WHERE] = (Node *) makeBoolean(IS_SIMPLE_REL(frel) ?
												 fpinfo->remote_conds != NIL :
												 mf_join_has_conds(frel));
	priv[MF_DJ_KEY_SQL] = (Node *) key_sqls;
	priv[MF_DJ_RETRIEVED] = (Node *) retrieved;
	priv[MF_DJ_X_KEY] = (Node *) x_keys;
	priv[MF_DJ_F_KEY] = (Node *) f_keys;
	priv[MF_DJ_KEY_OP] = (Node *) ops;
	priv[MF_DJ_X_TYPE] = (Node *) x_types;
	priv[MF_DJ_KEY_COLL] = (Node *) colls;
	priv[MF_DJ_MAP] = (Node *) map;
	priv[MF_DJ_NQUALS] = (Node *) makeInteger(nquals);
	priv[MF_DJ_NKEY_QUALS] = (Node *) makeInteger(nkey_quals);
	priv[MF_DJ_NF_QUALS] = (Node *) makeInteger(list_length(f_quals));
	priv[MF_DJ_RANGE] = (Node *) makeBoolean(range);
	priv[MF_DJ_FETCH_SIZE] = (Node *) makeInteger(fpinfo->opts.fetch_size);
	priv[MF_DJ_ARRAYS] = (Node *) makeBoolean(fpinfo->opts.dialect->supports_arrays);
	priv[MF_DJ_ROW_IN] = (Node *) makeBoolean(fpinfo->opts.dialect->supports_row_in);
	priv[MF_DJ_MAX_KEYS] = (Node *) makeInteger(mf_depjoin_f_max_keys(root, frel));
	priv[MF_DJ_F_TLIST] = (Node *) f_tlist;
	cscan->custom_private = NIL;
	for (int i = 0; i < MF_DJ_NPRIVATE; i++)
		cscan->custom_private = lappend(cscan->custom_private, priv[i]);
	return (Plan *) cscan;
}

static CustomPathMethods mf_depjoin_path_methods = {
	.CustomName = "multi_fdw dependent join",
	.PlanCustomPath = mf_depjoin_plan,
};

void
mf_depjoin_init(void)
{
	DefineCustomBoolVariable("multi_fdw.dependent_join",
							 "Joins a foreign table to another input by shipping the other input's keys.",
							 NULL, &mf_depjoin_enabled, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("multi_fdw.dependent_join_max_keys",
							"Most distinct keys a dependent join ships; beyond, it reads a range of keys or the whole table.",
							NULL, &mf_depjoin_max_keys, 100000, 1, INT_MAX,
							PGC_USERSET, 0, NULL, NULL, NULL);
	if (set_join_pathlist_hook != mf_depjoin_hook)
	{
		prev_join_pathlist_hook = set_join_pathlist_hook;
		set_join_pathlist_hook = mf_depjoin_hook;
	}
}

/* The join type as EXPLAIN names it (depjoin_exec.c). */
const char *
mf_join_type_name(JoinType jointype)
{
	switch (jointype)
	{
		case JOIN_INNER:
			return "Inner";
		case JOIN_LEFT:
			return "Left";
		case JOIN_SEMI:
			return "Semi";
		case JOIN_ANTI:
			return "Anti";
		default:
			return "?";
	}
}
