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
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/table.h"
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

#include "multi_fdw.h"

/* keys per IN list where the dialect has no arrays (Oracle's limit) */
#define MF_DEPJOIN_LIST		1000

static bool mf_depjoin_enabled = true;
static int	mf_depjoin_max_keys = 100000;
static set_join_pathlist_hook_type prev_join_pathlist_hook = NULL;

/* custom_private of the plan, by position */
enum MfDepJoinPrivate
{
	MF_DJ_JOINTYPE,				/* JOIN_INNER, _LEFT, _SEMI, _ANTI (Integer) */
	MF_DJ_F_RTI,				/* F's range table index at planning */
	MF_DJ_MIN_RTI,				/* the smallest of custom_relids then */
	MF_DJ_SQL,					/* F's SELECT, its WHERE open for the keys */
	MF_DJ_HAS_WHERE,			/* the SELECT has a WHERE already (Boolean) */
	MF_DJ_KEY_SQL,				/* F's key column, as the remote names it */
	MF_DJ_RETRIEVED,			/* F's attnums the SELECT returns */
	MF_DJ_X_KEY,				/* X's key: its position in X's tlist */
	MF_DJ_F_KEY,				/* F's key: its attnum */
	MF_DJ_KEY_OP,				/* the join's equality operator */
	MF_DJ_MAP,					/* per scan tlist entry: X's column (> 0) or
								 * F's attnum negated */
	MF_DJ_NQUALS,				/* join conditions at the head of
								 * custom_exprs; F's parameters follow */
	MF_DJ_RANGE,				/* the dialect orders the key exactly
								 * (Boolean): the fallback may be a range */
	MF_DJ_FETCH_SIZE,
	MF_DJ_ARRAYS,				/* the keys go as one array (Boolean) */
	MF_DJ_MAX_KEYS				/* F's dependent_join_max_keys, 0: the GUC */
};

/* ---------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------
 */

static Node *
mf_strip(Node *node)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
}

/* Is rel a foreign table of ours, read without anything checked here? */
static bool
mf_is_our_table(RelOptInfo *rel)
{
	return rel->reloptkind == RELOPT_BASEREL &&
		rel->rtekind == RTE_RELATION &&
		rel->fdwroutine != NULL &&
		rel->fdwroutine->GetForeignRelSize == mfGetForeignRelSize &&
		rel->fdw_private != NULL;
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

typedef struct MfDepJoinKey
{
	RestrictInfo *ri;
	Var		   *fvar;			/* F's column */
	Var		   *xvar;			/* X's column */
	Oid			opno;
} MfDepJoinKey;

/* A hashable equality of one column of F and one of X, of one type. */
static bool
mf_find_key(PlannerInfo *root, RelOptInfo *frel, RelOptInfo *xrel,
			List *restrictlist, MfDepJoinKey *key)
{
	ListCell   *lc;

	foreach(lc, restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		OpExpr	   *op;
		Node	   *l;
		Node	   *r;
		Var		   *fv;
		Var		   *xv;

		if (!IsA(ri->clause, OpExpr) || !OidIsValid(ri->hashjoinoperator))
			continue;
		op = (OpExpr *) ri->clause;
		if (list_length(op->args) != 2)
			continue;
		l = mf_strip(linitial(op->args));
		r = mf_strip(lsecond(op->args));
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
			fv->varlevelsup != 0 || xv->varlevelsup != 0 ||
			fv->vartype != xv->vartype)
			continue;
		if (!mf_key_shippable(root, frel, op->opno, fv))
			continue;
		key->ri = ri;
		key->fvar = fv;
		key->xvar = xv;
		key->opno = op->opno;
		return true;
	}
	return false;
}

/* The distinct keys X is expected to have, and the rows of F they meet. */
static void
mf_depjoin_cost(PlannerInfo *root, CustomPath *cpath, RelOptInfo *frel,
				Path *xpath, MfDepJoinKey *key, double joinrows)
{
	MfRelInfo  *fpinfo = frel->fdw_private;
	double		nkeys;
	double		fdistinct;
	double		frows;
	double		stmts;
	double		xbytes;
	double		batches;
	double		batch_keys;
	Cost		remote;

	nkeys = estimate_num_groups(root, list_make1(key->xvar), xpath->rows,
								NULL, NULL);
	fdistinct = estimate_num_groups(root, list_make1(key->fvar),
									Max(fpinfo->rows, 1), NULL, NULL);
	/*
	 * An X bigger than the hash memory goes in batches, each asking for its
	 * own keys: a key may be asked for, and its rows of F read, once per
	 * batch it is in.
	 */
	xbytes = xpath->rows * (MAXALIGN(xpath->pathtarget->width) +
							MAXALIGN(SizeofMinimalTupleHeader) + 32);
	batches = Max(1.0, ceil(xbytes / (double) get_hash_memory_limit()));
	batch_keys = Min(nkeys, ceil(xpath->rows / batches));
	frows = clamp_row_est(fpinfo->rows *
						  Min(1.0, batch_keys / Max(fdistinct, 1)) * batches);
	stmts = batches * (fpinfo->opts.dialect->supports_arrays ? 1 :
					   ceil(batch_keys / MF_DEPJOIN_LIST));

	/*
	 * The remote is assumed to find the keys no slower than by reading
	 * its table once per statement; the rows found cross the network.
	 */
	remote = stmts * (fpinfo->opts.fdw_startup_cost + fpinfo->remote_cost);
	cpath->path.rows = joinrows;
	cpath->path.startup_cost = xpath->total_cost + remote +
		cpu_tuple_cost * xpath->rows;
	cpath->path.total_cost = cpath->path.startup_cost +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost) * frows +
		fpinfo->opts.fdw_startup_cost * ceil(frows / fpinfo->opts.fetch_size) / 10.0 +
		cpu_operator_cost * (frows + xpath->rows) +
		cpu_tuple_cost * joinrows;
}

static CustomPathMethods mf_depjoin_path_methods;

static void
mf_depjoin_consider(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *frel,
					RelOptInfo *xrel, JoinType jointype,
					JoinPathExtraData *extra)
{
	MfRelInfo  *fpinfo = frel->fdw_private;
	MfDepJoinKey key;
	Path	   *xpath = xrel->cheapest_total_path;
	CustomPath *cpath;
	ListCell   *lc;

	if (!fpinfo->opts.pushdown || !fpinfo->opts.dependent_join ||
		fpinfo->local_conds != NIL)
		return;
	if (xpath == NULL || PATH_REQ_OUTER(xpath) != NULL ||
		!bms_is_empty(joinrel->lateral_relids))
		return;
	foreach(lc, extra->restrictlist)
	{
		if (lfirst_node(RestrictInfo, lc)->pseudoconstant)
			return;
	}
	if (!mf_find_key(root, frel, xrel, extra->restrictlist, &key))
		return;
	/* plain columns out: F's are read into a slot of its own */
	foreach(lc, joinrel->reltarget->exprs)
	{
		if (!IsA(lfirst(lc), Var))
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
	cpath->custom_private = list_make4(makeInteger(jointype),
									   makeInteger(frel->relid),
									   key.ri, extra->restrictlist);
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
			if (mf_is_our_table(innerrel))
				mf_depjoin_consider(root, joinrel, innerrel, outerrel,
									JOIN_INNER, extra);
			if (mf_is_our_table(outerrel))
				mf_depjoin_consider(root, joinrel, outerrel, innerrel,
									JOIN_INNER, extra);
			break;
		case JOIN_LEFT:
		case JOIN_SEMI:
		case JOIN_ANTI:
			if (mf_is_our_table(innerrel))
				mf_depjoin_consider(root, joinrel, innerrel, outerrel,
									jointype, extra);
			break;
		case JOIN_RIGHT:
			if (mf_is_our_table(outerrel))
				mf_depjoin_consider(root, joinrel, outerrel, innerrel,
									JOIN_LEFT, extra);
			break;
		default:
			break;
	}
}

static CustomScanMethods mf_depjoin_scan_methods;

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
	JoinType	jointype = intVal(linitial(best_path->custom_private));
	Index		frti = intVal(lsecond(best_path->custom_private));
	RestrictInfo *keyri = lthird(best_path->custom_private);
	List	   *restrictlist = lfourth(best_path->custom_private);
	RelOptInfo *frel = find_base_rel(root, frti);
	MfRelInfo  *fpinfo = frel->fdw_private;
	Plan	   *xplan = linitial(custom_plans);
	List	   *join_quals = NIL;
	List	   *other_quals = NIL;
	List	   *scan_tlist;
	List	   *map = NIL;
	List	   *retrieved;
	List	   *params = NIL;
	Bitmapset  *fattrs = NULL;
	Relation	frelation;
	StringInfoData sql;
	StringInfoData keysql;
	OpExpr	   *op = (OpExpr *) keyri->clause;
	Node	   *l = mf_strip(linitial(op->args));
	Var		   *fvar;
	Var		   *xvar;
	TargetEntry *xtle;
	ListCell   *lc;
	int			x_key;
	int			nquals;
	bool		range;

	(void) clauses;
	if (bms_is_member(((Var *) l)->varno, frel->relids))
	{
		fvar = (Var *) l;
		xvar = (Var *) mf_strip(lsecond(op->args));
	}
	else
	{
		xvar = (Var *) l;
		fvar = (Var *) mf_strip(lsecond(op->args));
	}

	/*
	 * Conditions of the join itself are checked as rows are matched;
	 * those after an outer join (WHERE) on the rows it gives.
	 */
	foreach(lc, restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (jointype != JOIN_INNER && RINFO_IS_PUSHED_DOWN(ri, rel->relids) &&
			(jointype == JOIN_LEFT ||
			 !bms_overlap(ri->clause_relids, frel->relids)))
			other_quals = lappend(other_quals, ri->clause);
		else
			join_quals = lappend(join_quals, ri->clause);
	}

	/* the scan tuple: every column the output and the conditions need */
	scan_tlist = mf_add_vars(NIL, (Node *) rel->reltarget->exprs);
	scan_tlist = mf_add_vars(scan_tlist, (Node *) other_quals);
	scan_tlist = mf_add_vars(scan_tlist, (Node *) join_quals);
	join_quals = (List *) mf_as_scanned((Node *) join_quals, scan_tlist);
	other_quals = (List *) mf_as_scanned((Node *) other_quals, scan_tlist);
	xtle = mf_tlist_column(xplan->targetlist, xvar);
	if (xtle == NULL)
		elog(ERROR, "the key of the dependent join is not in its input");
	x_key = xtle->resno;
	foreach(lc, scan_tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);
		Var		   *v = (Var *) tle->expr;

		if (!IsA(v, Var))
			elog(ERROR, "unexpected expression in the dependent join's columns");
		if (bms_is_member(v->varno, frel->relids))
		{
			fattrs = bms_add_member(fattrs,
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
	fattrs = bms_add_member(fattrs,
							fvar->varattno - FirstLowInvalidHeapAttributeNumber);

	/* F's SELECT: its own conditions, then the keys (added at run time) */
	frelation = table_open(planner_rt_fetch(frti, root)->relid, NoLock);
	initStringInfo(&sql);
	mf_deparse_select(&sql, root, frel, frelation, fattrs, fpinfo->remote_conds,
					  LCS_NONE, LockWaitBlock, &retrieved, &params);
	initStringInfo(&keysql);
	mf_deparse_column(&keysql, RelationGetRelid(frelation), fvar->varattno,
					  fpinfo->opts.dialect);
	table_close(frelation, NoLock);
	/* a fallback range needs the remote's order to be ours */
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
	cscan->custom_exprs = list_concat(list_copy(join_quals), params);
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_relids = bms_copy(rel->relids);
	cscan->methods = &mf_depjoin_scan_methods;
	{
		List	   *priv = NIL;

		priv = lappend(priv, makeInteger(jointype));
		priv = lappend(priv, makeInteger(frti));
		priv = lappend(priv, makeInteger(bms_next_member(rel->relids, -1)));
		priv = lappend(priv, makeString(sql.data));
		priv = lappend(priv, makeBoolean(fpinfo->remote_conds != NIL));
		priv = lappend(priv, makeString(keysql.data));
		priv = lappend(priv, retrieved);
		priv = lappend(priv, makeInteger(x_key));
		priv = lappend(priv, makeInteger(fvar->varattno));
		priv = lappend(priv, makeInteger(op->opno));
		priv = lappend(priv, map);
		priv = lappend(priv, makeInteger(nquals));
		priv = lappend(priv, makeBoolean(range));
		priv = lappend(priv, makeInteger(fpinfo->opts.fetch_size));
		priv = lappend(priv, makeBoolean(fpinfo->opts.dialect->supports_arrays));
		priv = lappend(priv, makeInteger(fpinfo->opts.dependent_join_max_keys));
		cscan->custom_private = priv;
	}
	return (Plan *) cscan;
}

/* ---------------------------------------------------------------------
 * Execution
 * ---------------------------------------------------------------------
 */

/* The rows of X with one key, in a chain; the groups in hash buckets. */
typedef struct MfKeyGroup
{
	Datum		key;
	uint32		hash;
	int			first_row;		/* index into xrows */
	int			next_group;		/* in the bucket, -1 at the end */
} MfKeyGroup;

typedef enum MfDepJoinPhase
{
	MF_DJ_START,
	MF_DJ_REMOTE,				/* matching rows of F as they come */
	MF_DJ_TAIL,					/* X's rows with (semi) or without (left,
								 * anti) a match */
	MF_DJ_DONE
} MfDepJoinPhase;

typedef struct MfDepJoinState
{
	CustomScanState css;
	PlanState  *child;			/* X */
	JoinType	jointype;
	int			x_key;
	AttrNumber	f_key;
	int		   *map;
	int			nmap;
	List	   *join_quals;		/* ExprStates, on the scan tuple */
	List	   *param_exprs;	/* F's own parameters */
	int			nparams;
	bool		range_ok;
	int			max_keys;
	int			fetch_size;
	char	   *sql;
	bool		has_where;
	char	   *key_sql;

	/* the remote side */
	Relation	frel;
	MfConnEntry *entry;
	const MfTransport *tr;
	MfRowReader reader;
	TupleTableSlot *fslot;
	TupleTableSlot *xslot;
	FmgrInfo	eq_fn;
	FmgrInfo	hash_fn;
	FmgrInfo	key_out;
	Oid			key_type;
	Oid			key_collation;

	/* X, held */
	MemoryContext xcxt;
	MinimalTuple *xrows;
	int		   *next_row;		/* in its key group, -1 at the end */
	bool	   *matched;
	int			nx;
	int			xcap;
	MfKeyGroup *groups;
	int			ngroups;
	int			gcap;
	int		   *buckets;
	int			nbuckets;
	size_t		xbytes;			/* what the batch holds, as hash joins count */
	bool		x_more;			/* X has rows beyond this batch */

	/* iteration */
	MfDepJoinPhase phase;
	int			stmt_first_key; /* the next statement's first key */
	bool		whole;			/* one statement, without keys */
	bool		ranged;
	MfResult   *res;
	int			res_rows;
	int			res_pos;
	int			cand;			/* the X row to try next for the F row */
	int			tail_pos;

	/* what EXPLAIN ANALYZE reports */
	long		keys_shipped;
	long		statements;
	long		rows_fetched;
	long		batches;
	char	   *strategy;
} MfDepJoinState;

static Node *mf_depjoin_create_state(CustomScan *cscan);
static void mf_depjoin_next_batch(MfDepJoinState *st);

static void
mf_depjoin_begin(CustomScanState *node, EState *estate, int eflags)
{
	MfDepJoinState *st = (MfDepJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *priv = cscan->custom_private;
	int			nquals = intVal(list_nth(priv, MF_DJ_NQUALS));
	Index		frti = intVal(list_nth(priv, MF_DJ_F_RTI)) +
		bms_next_member(cscan->custom_relids, -1) -
		intVal(list_nth(priv, MF_DJ_MIN_RTI));
	RangeTblEntry *rte = exec_rt_fetch(frti, estate);
	Oid			opno = intVal(list_nth(priv, MF_DJ_KEY_OP));
	Oid			lhash;
	Oid			rhash;
	Oid			typoutput;
	bool		isvarlena;
	ListCell   *lc;
	List	   *map = list_nth(priv, MF_DJ_MAP);
	int			i = 0;

	st->jointype = intVal(list_nth(priv, MF_DJ_JOINTYPE));
	st->x_key = intVal(list_nth(priv, MF_DJ_X_KEY));
	st->f_key = intVal(list_nth(priv, MF_DJ_F_KEY));
	st->sql = strVal(list_nth(priv, MF_DJ_SQL));
	st->has_where = boolVal(list_nth(priv, MF_DJ_HAS_WHERE));
	st->key_sql = strVal(list_nth(priv, MF_DJ_KEY_SQL));
	st->range_ok = boolVal(list_nth(priv, MF_DJ_RANGE));
	st->fetch_size = intVal(list_nth(priv, MF_DJ_FETCH_SIZE));
	st->max_keys = intVal(list_nth(priv, MF_DJ_MAX_KEYS));
	if (st->max_keys == 0)
		st->max_keys = mf_depjoin_max_keys;
	st->nmap = list_length(map);
	st->map = palloc(sizeof(int) * Max(st->nmap, 1));
	foreach(lc, map)
		st->map[i++] = lfirst_int(lc);

	i = 0;
	foreach(lc, cscan->custom_exprs)
	{
		ExprState  *es = ExecInitExpr(lfirst(lc), &node->ss.ps);

		if (i++ < nquals)
			st->join_quals = lappend(st->join_quals, es);
		else
			st->param_exprs = lappend(st->param_exprs, es);
	}
	st->nparams = list_length(st->param_exprs);

	st->child = ExecInitNode(linitial(cscan->custom_plans), estate, eflags);
	node->custom_ps = list_make1(st->child);
	st->xslot = MakeSingleTupleTableSlot(ExecGetResultType(st->child),
										 &TTSOpsMinimalTuple);
	st->phase = MF_DJ_START;
	st->strategy = "keys";

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;

	st->frel = table_open(rte->relid, AccessShareLock);
	st->fslot = MakeSingleTupleTableSlot(RelationGetDescr(st->frel),
										 &TTSOpsHeapTuple);
	mf_row_reader_init(&st->reader, RelationGetDescr(st->frel),
					   list_nth(priv, MF_DJ_RETRIEVED), estate->es_query_cxt);
	{
		MfOptions	opts;
		Oid			userid = mf_exec_rte_userid(estate, rte);

		mf_get_table_options(rte->relid, &opts);
		st->entry = mf_get_connection(GetUserMapping(userid, opts.serverid),
									  &opts);
		st->tr = mf_conn_transport(st->entry);
	}

	st->key_type = TupleDescAttr(RelationGetDescr(st->frel), st->f_key - 1)->atttypid;
	st->key_collation = TupleDescAttr(RelationGetDescr(st->frel), st->f_key - 1)->attcollation;
	fmgr_info(get_opcode(opno), &st->eq_fn);
	if (!get_op_hash_functions(opno, &lhash, &rhash))
		elog(ERROR, "the dependent join's equality has no hash function");
	fmgr_info(lhash, &st->hash_fn);
	getTypeOutputInfo(st->key_type, &typoutput, &isvarlena);
	fmgr_info(typoutput, &st->key_out);
	st->xcxt = AllocSetContextCreate(estate->es_query_cxt,
									 "multi_fdw dependent join",
									 ALLOCSET_DEFAULT_SIZES);
}

/* Hold a row of X, in its key's group (a new group for a new key). */
static void
mf_depjoin_hold(MfDepJoinState *st, TupleTableSlot *slot)
{
	MemoryContext old = MemoryContextSwitchTo(st->xcxt);
	bool		isnull;
	Datum		key = slot_getattr(slot, st->x_key, &isnull);
	int			row = st->nx;

	if (st->nx == st->xcap)
	{
		st->xcap = Max(64, st->xcap * 2);
		st->xrows = st->xrows ? repalloc_huge(st->xrows, sizeof(MinimalTuple) * st->xcap) :
			palloc(sizeof(MinimalTuple) * st->xcap);
		st->next_row = st->next_row ? repalloc_huge(st->next_row, sizeof(int) * st->xcap) :
			palloc(sizeof(int) * st->xcap);
		st->matched = st->matched ? repalloc_huge(st->matched, sizeof(bool) * st->xcap) :
			palloc(sizeof(bool) * st->xcap);
	}
	st->xrows[row] = ExecCopySlotMinimalTuple(slot);
	st->xbytes += GetMemoryChunkSpace(st->xrows[row]) +
		sizeof(MinimalTuple) + sizeof(int) + sizeof(bool);
	st->next_row[row] = -1;
	st->matched[row] = false;
	st->nx++;

	/* a NULL key matches nothing: the row is only in the tail */
	if (!isnull)
	{
		int16		typlen;
		bool		typbyval;
		uint32		h;
		int			g;

		get_typlenbyval(st->key_type, &typlen, &typbyval);
		h = DatumGetUInt32(FunctionCall1Coll(&st->hash_fn, st->key_collation, key));
		if (st->ngroups * 2 >= st->nbuckets)
		{
			/* grow the buckets and put every group in again */
			int			nb = Max(1024, st->nbuckets * 4);

			st->buckets = st->buckets ? repalloc_huge(st->buckets, sizeof(int) * nb) :
				palloc(sizeof(int) * nb);
			st->nbuckets = nb;
			for (int b = 0; b < nb; b++)
				st->buckets[b] = -1;
			for (int k = 0; k < st->ngroups; k++)
			{
				int			b = st->groups[k].hash & (nb - 1);

				st->groups[k].next_group = st->buckets[b];
				st->buckets[b] = k;
			}
		}
		for (g = st->buckets[h & (st->nbuckets - 1)]; g >= 0; g = st->groups[g].next_group)
		{
			if (st->groups[g].hash == h &&
				DatumGetBool(FunctionCall2Coll(&st->eq_fn, st->key_collation,
											   st->groups[g].key, key)))
				break;
		}
		if (g < 0)
		{
			int			b = h & (st->nbuckets - 1);

			if (st->ngroups == st->gcap)
			{
				st->gcap = Max(64, st->gcap * 2);
				st->groups = st->groups ? repalloc_huge(st->groups, sizeof(MfKeyGroup) * st->gcap) :
					palloc(sizeof(MfKeyGroup) * st->gcap);
			}
			g = st->ngroups++;
			st->groups[g].key = datumCopy(key, typbyval, typlen);
			st->xbytes += sizeof(MfKeyGroup) + 2 * sizeof(int) +
				(typbyval ? 0 : GetMemoryChunkSpace(DatumGetPointer(st->groups[g].key)));
			st->groups[g].hash = h;
			st->groups[g].first_row = -1;
			st->groups[g].next_group = st->buckets[b];
			st->buckets[b] = g;
		}
		st->next_row[row] = st->groups[g].first_row;
		st->groups[g].first_row = row;
	}
	MemoryContextSwitchTo(old);
}

/* The group of X's rows whose key equals F's value, or -1. */
static int
mf_depjoin_probe(MfDepJoinState *st, Datum value)
{
	uint32		h;

	if (st->nbuckets == 0)
		return -1;
	h = DatumGetUInt32(FunctionCall1Coll(&st->hash_fn, st->key_collation, value));
	for (int g = st->buckets[h & (st->nbuckets - 1)]; g >= 0; g = st->groups[g].next_group)
	{
		if (st->groups[g].hash == h &&
			DatumGetBool(FunctionCall2Coll(&st->eq_fn, st->key_collation,
										   st->groups[g].key, value)))
			return g;
	}
	return -1;
}

static char *
mf_depjoin_key_text(MfDepJoinState *st, Datum key)
{
	return OutputFunctionCall(&st->key_out, key);
}

/*
 * The next statement: F's SELECT with the keys from stmt_first_key on (an
 * array, or an IN list of MF_DEPJOIN_LIST), a range, or none.
 */
static void
mf_depjoin_send(MfDepJoinState *st)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	const MfDialect *dialect = mf_conn_dialect(st->entry);
	MfMarkerStyle markers = st->tr->markers;
	StringInfoData sql;
	const char **values;
	MfTypeClass *classes;
	int			nkeys = 0;
	int			nvalues;
	int			nestlevel;
	int			i = 0;
	ListCell   *lc;
	MfError		err;

	if (!st->whole && !st->ranged)
		nkeys = dialect->supports_arrays ? st->ngroups :
			Min(MF_DEPJOIN_LIST, st->ngroups - st->stmt_first_key);
	nvalues = st->nparams + (st->ranged ? 2 : dialect->supports_arrays && nkeys > 0 ? 1 : nkeys);
	values = palloc0(sizeof(char *) * Max(nvalues, 1));
	classes = palloc0(sizeof(MfTypeClass) * Max(nvalues, 1));

	/* F's own parameters, then the keys */
	foreach(lc, st->param_exprs)
	{
		ExprState  *es = lfirst(lc);
		bool		isnull;
		Datum		d = ExecEvalExpr(es, econtext, &isnull);
		Oid			typoutput;
		bool		isvarlena;

		getTypeOutputInfo(exprType((Node *) es->expr), &typoutput, &isvarlena);
		nestlevel = mf_set_transmission_modes();
		values[i] = isnull ? NULL : OidOutputFunctionCall(typoutput, d);
		mf_reset_transmission_modes(nestlevel);
		classes[i] = mf_type_class(exprType((Node *) es->expr));
		i++;
	}

	initStringInfo(&sql);
	appendStringInfoString(&sql, st->sql);
	nestlevel = mf_set_transmission_modes();
	if (st->ranged)
	{
		Datum		lo = st->groups[0].key;
		Datum		hi = st->groups[0].key;
		TypeCacheEntry *tc = lookup_type_cache(st->key_type, TYPECACHE_CMP_PROC_FINFO);

		for (int g = 1; g < st->ngroups; g++)
		{
			Datum		k = st->groups[g].key;

			if (DatumGetInt32(FunctionCall2Coll(&tc->cmp_proc_finfo, st->key_collation, k, lo)) < 0)
				lo = k;
			if (DatumGetInt32(FunctionCall2Coll(&tc->cmp_proc_finfo, st->key_collation, k, hi)) > 0)
				hi = k;
		}
		appendStringInfo(&sql, " %s (%s >= ", st->has_where ? "AND" : "WHERE", st->key_sql);
		mf_append_marker(&sql, markers, i + 1);
		if (dialect->cast_param)
			dialect->cast_param(&sql, st->key_type, -1);
		appendStringInfo(&sql, " AND %s <= ", st->key_sql);
		mf_append_marker(&sql, markers, i + 2);
		if (dialect->cast_param)
			dialect->cast_param(&sql, st->key_type, -1);
		appendStringInfoChar(&sql, ')');
		values[i] = mf_depjoin_key_text(st, lo);
		classes[i++] = mf_type_class(st->key_type);
		values[i] = mf_depjoin_key_text(st, hi);
		classes[i++] = mf_type_class(st->key_type);
		st->keys_shipped += 2;
	}
	else if (nkeys > 0 && dialect->supports_arrays)
	{
		/* one array of every key */
		Datum	   *elems = palloc(sizeof(Datum) * nkeys);
		int16		typlen;
		bool		typbyval;
		char		typalign;
		ArrayType  *arr;
		Oid			arrtype = get_array_type(st->key_type);

		for (int g = 0; g < nkeys; g++)
			elems[g] = st->groups[g].key;
		get_typlenbyvalalign(st->key_type, &typlen, &typbyval, &typalign);
		arr = construct_array(elems, nkeys, st->key_type, typlen, typbyval, typalign);
		appendStringInfo(&sql, " %s (%s = ANY (", st->has_where ? "AND" : "WHERE", st->key_sql);
		mf_append_marker(&sql, markers, i + 1);
		if (dialect->cast_param)
			dialect->cast_param(&sql, arrtype, -1);
		appendStringInfoString(&sql, "))");
		values[i] = OidOutputFunctionCall(F_ARRAY_OUT, PointerGetDatum(arr));
		classes[i++] = MF_TYPE_TEXT;
		st->keys_shipped += nkeys;
	}
	else if (nkeys > 0)
	{
		appendStringInfo(&sql, " %s (%s IN (", st->has_where ? "AND" : "WHERE", st->key_sql);
		for (int k = 0; k < nkeys; k++)
		{
			if (k > 0)
				appendStringInfoString(&sql, ", ");
			mf_append_marker(&sql, markers, i + 1);
			if (dialect->cast_param)
				dialect->cast_param(&sql, st->key_type, -1);
			values[i] = mf_depjoin_key_text(st, st->groups[st->stmt_first_key + k].key);
			classes[i++] = mf_type_class(st->key_type);
		}
		appendStringInfoString(&sql, "))");
		st->keys_shipped += nkeys;
	}
	mf_reset_transmission_modes(nestlevel);
	st->stmt_first_key += nkeys;

	mf_claim_connection(st->entry, st);
	mf_error_clear(&err);
	/*
	 * A list of keys asks for about as many rows, a small result when they
	 * fit a fetch; a range or the whole table may be big.
	 */
	st->res = st->tr->query(mf_conn(st->entry), sql.data, i, values, classes,
							nkeys > 0 && !st->whole && !st->ranged ?
							mf_small_fetch_size(st->fetch_size, nkeys) :
							st->fetch_size, &err);
	if (st->res == NULL)
		mf_raise_error(ERROR, st->entry, &err, sql.data);
	st->statements++;
	st->res_rows = st->res_pos = 0;
	st->cand = -1;
}

/* Fill the scan slot from an X row and an F row (NULL: null-extended). */
static TupleTableSlot *
mf_depjoin_form(MfDepJoinState *st, int xrow, bool with_f)
{
	TupleTableSlot *scan = st->css.ss.ss_ScanTupleSlot;

	ExecClearTuple(scan);
	ExecStoreMinimalTuple(st->xrows[xrow], st->xslot, false);
	slot_getallattrs(st->xslot);
	if (with_f)
		slot_getallattrs(st->fslot);
	for (int k = 0; k < st->nmap; k++)
	{
		int			m = st->map[k];

		if (m > 0)
		{
			scan->tts_values[k] = st->xslot->tts_values[m - 1];
			scan->tts_isnull[k] = st->xslot->tts_isnull[m - 1];
		}
		else if (with_f)
		{
			scan->tts_values[k] = st->fslot->tts_values[-m - 1];
			scan->tts_isnull[k] = st->fslot->tts_isnull[-m - 1];
		}
		else
		{
			scan->tts_values[k] = (Datum) 0;
			scan->tts_isnull[k] = true;
		}
	}
	return ExecStoreVirtualTuple(scan);
}

static bool
mf_depjoin_quals(MfDepJoinState *st, TupleTableSlot *scan)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	ListCell   *lc;

	econtext->ecxt_scantuple = scan;
	foreach(lc, st->join_quals)
	{
		bool		isnull;
		Datum		d = ExecEvalExprSwitchContext(lfirst(lc), econtext, &isnull);

		if (isnull || !DatumGetBool(d))
			return false;
	}
	return true;
}

/*
 * Read X up to its end or the hash memory, whichever comes first, and
 * choose how F is to be asked for this batch's keys.
 */
static void
mf_depjoin_start(MfDepJoinState *st)
{
	PlanState  *x = st->child;
	size_t		limit = get_hash_memory_limit();

	st->x_more = false;
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(x);

		if (TupIsNull(slot))
			break;
		CHECK_FOR_INTERRUPTS();
		mf_depjoin_hold(st, slot);
		if (st->xbytes >= limit)
		{
			st->x_more = true;
			break;
		}
	}
	st->batches++;
	if (st->ngroups == 0)
	{
		/* no key: nothing of F can match */
		if (st->statements == 0)
			st->strategy = "no keys";
		st->phase = MF_DJ_TAIL;
		return;
	}
	if (st->statements == 0 || strcmp(st->strategy, "no keys") == 0)
		st->strategy = "keys";
	if (st->ngroups > st->max_keys)
	{
		if (st->range_ok)
		{
			st->ranged = true;
			st->strategy = "range (more keys than dependent_join_max_keys)";
		}
		else
		{
			st->whole = true;
			st->strategy = "whole table (more keys than dependent_join_max_keys)";
		}
	}
	mf_depjoin_send(st);
	st->phase = MF_DJ_REMOTE;
}

static TupleTableSlot *
mf_depjoin_next(ScanState *node)
{
	MfDepJoinState *st = (MfDepJoinState *) node;
	MfError		err;

next_batch:
	if (st->phase == MF_DJ_START)
		mf_depjoin_start(st);

	while (st->phase == MF_DJ_REMOTE)
	{
		/* the next candidate X row for the current F row */
		while (st->cand >= 0)
		{
			int			xrow = st->cand;
			TupleTableSlot *scan;

			st->cand = st->next_row[xrow];
			if (st->jointype == JOIN_SEMI && st->matched[xrow])
				continue;
			scan = mf_depjoin_form(st, xrow, true);
			if (!mf_depjoin_quals(st, scan))
				continue;
			st->matched[xrow] = true;
			if (st->jointype == JOIN_INNER || st->jointype == JOIN_LEFT)
				return scan;
		}

		/* the next F row */
		if (st->res_pos >= st->res_rows)
		{
			mf_error_clear(&err);
			st->res_rows = st->tr->fetch(st->res, &err);
			if (st->res_rows < 0)
				mf_raise_error(ERROR, st->entry, &err, st->sql);
			st->res_pos = 0;
			if (st->res_rows == 0)
			{
				st->tr->result_close(st->res);
				st->res = NULL;
				if (!st->whole && !st->ranged && st->stmt_first_key < st->ngroups)
					mf_depjoin_send(st);
				else
					st->phase = MF_DJ_TAIL;
				continue;
			}
		}
		CHECK_FOR_INTERRUPTS();
		mf_row_reader_store(&st->reader, st->tr, st->res, st->res_pos++,
							st->fslot);
		st->rows_fetched++;
		{
			bool		isnull;
			Datum		v = slot_getattr(st->fslot, st->f_key, &isnull);
			int			g = isnull ? -1 : mf_depjoin_probe(st, v);

			st->cand = g >= 0 ? st->groups[g].first_row : -1;
		}
	}

	while (st->phase == MF_DJ_TAIL)
	{
		int			xrow = st->tail_pos++;

		if (xrow >= st->nx)
		{
			st->phase = MF_DJ_DONE;
			break;
		}
		if (st->jointype == JOIN_INNER)
		{
			st->phase = MF_DJ_DONE;
			break;
		}
		switch (st->jointype)
		{
			case JOIN_LEFT:
			case JOIN_ANTI:
				if (!st->matched[xrow])
					return mf_depjoin_form(st, xrow, false);
				break;
			case JOIN_SEMI:
				if (st->matched[xrow])
					return mf_depjoin_form(st, xrow, false);
				break;
			default:
				elog(ERROR, "unexpected join type of a dependent join: %d",
					 (int) st->jointype);
		}
	}
	if (st->phase == MF_DJ_DONE && st->x_more)
	{
		mf_depjoin_next_batch(st);
		goto next_batch;
	}
	return ExecClearTuple(node->ss_ScanTupleSlot);
}

static bool
mf_depjoin_recheck(ScanState *node, TupleTableSlot *slot)
{
	(void) node;
	(void) slot;
	return true;
}

static TupleTableSlot *
mf_depjoin_exec(CustomScanState *node)
{
	return ExecScan(&node->ss, mf_depjoin_next, mf_depjoin_recheck);
}

static void
mf_depjoin_release(MfDepJoinState *st)
{
	if (st->res != NULL)
	{
		st->tr->result_close(st->res);
		st->res = NULL;
	}
	if (st->xcxt != NULL)
		MemoryContextReset(st->xcxt);
	st->xrows = NULL;
	st->next_row = NULL;
	st->matched = NULL;
	st->groups = NULL;
	st->buckets = NULL;
	st->nx = st->xcap = st->ngroups = st->gcap = st->nbuckets = 0;
	st->xbytes = 0;
}

/* Forget a batch of X and what was asked for it; X is read on. */
static void
mf_depjoin_next_batch(MfDepJoinState *st)
{
	mf_depjoin_release(st);
	st->phase = MF_DJ_START;
	st->stmt_first_key = 0;
	st->whole = st->ranged = false;
	st->tail_pos = 0;
	st->cand = -1;
	st->x_more = false;
}

static void
mf_depjoin_end(CustomScanState *node)
{
	MfDepJoinState *st = (MfDepJoinState *) node;

	mf_depjoin_release(st);
	ExecEndNode(st->child);
	if (st->fslot)
		ExecDropSingleTupleTableSlot(st->fslot);
	if (st->xslot)
		ExecDropSingleTupleTableSlot(st->xslot);
	if (st->frel)
		table_close(st->frel, AccessShareLock);
}

static void
mf_depjoin_rescan(CustomScanState *node)
{
	MfDepJoinState *st = (MfDepJoinState *) node;

	mf_depjoin_next_batch(st);
	ExecReScan(st->child);
}

static const char *
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

static void
mf_depjoin_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	MfDepJoinState *st = (MfDepJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *priv = cscan->custom_private;
	bool		arrays = boolVal(list_nth(priv, MF_DJ_ARRAYS));

	(void) ancestors;
	ExplainPropertyText("Join Type",
						mf_join_type_name(intVal(list_nth(priv, MF_DJ_JOINTYPE))), es);
	if (es->verbose)
	{
		StringInfoData sql;

		initStringInfo(&sql);
		appendStringInfo(&sql, "%s %s (%s %s)",
						 strVal(list_nth(priv, MF_DJ_SQL)),
						 boolVal(list_nth(priv, MF_DJ_HAS_WHERE)) ? "AND" : "WHERE",
						 strVal(list_nth(priv, MF_DJ_KEY_SQL)),
						 arrays ? "= ANY (<keys>)" : "IN (<keys>)");
		ExplainPropertyText("Remote SQL", sql.data, es);
	}
	if (es->analyze)
	{
		ExplainPropertyText("Keys Strategy", st->strategy, es);
		ExplainPropertyInteger("Keys Shipped", NULL, st->keys_shipped, es);
		ExplainPropertyInteger("Remote Statements", NULL, st->statements, es);
		ExplainPropertyInteger("Remote Rows", NULL, st->rows_fetched, es);
		/* as a hash join, batches only when X did not fit its memory */
		if (st->batches > 1)
			ExplainPropertyInteger("Batches", NULL, st->batches, es);
	}
}

static CustomExecMethods mf_depjoin_exec_methods = {
	.CustomName = "multi_fdw dependent join",
	.BeginCustomScan = mf_depjoin_begin,
	.ExecCustomScan = mf_depjoin_exec,
	.EndCustomScan = mf_depjoin_end,
	.ReScanCustomScan = mf_depjoin_rescan,
	.ExplainCustomScan = mf_depjoin_explain,
};

static Node *
mf_depjoin_create_state(CustomScan *cscan)
{
	MfDepJoinState *st = palloc0(sizeof(MfDepJoinState));

	(void) cscan;
	NodeSetTag(st, T_CustomScanState);
	st->css.methods = &mf_depjoin_exec_methods;
	st->cand = -1;
	return (Node *) st;
}

static CustomScanMethods mf_depjoin_scan_methods = {
	.CustomName = "multi_fdw dependent join",
	.CreateCustomScanState = mf_depjoin_create_state,
};

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
	RegisterCustomScanMethods(&mf_depjoin_scan_methods);
	prev_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = mf_depjoin_hook;
}
