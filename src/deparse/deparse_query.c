/*-------------------------------------------------------------------------
 *
 * deparse_query.c
 *		A whole query in the remote's SQL: every relation of it, its
 *		subqueries' included, on one server (plan/whole_query.c decides
 *		when).
 *
 * The query is written from the planner's own form of it, as grouping
 * planned it (root->parse after preprocessing): its join tree, where an
 * EXISTS or IN the planner made a semi or anti join is one again; its
 * derived tables (a subquery in FROM the planner did not pull up), from
 * their own planner states; and its SubPlans, each from its subquery's
 * planner state, a correlated one with the outer expressions it is passed
 * in place of its parameters, an uncorrelated one (an initplan) in place
 * of the parameter that holds its value.  So the remote computes
 * everything, in one statement.
 *
 * A derived table's planned form is not quite the query's: the planner
 * copies into it the outer conditions on its outputs (harmless: they are
 * written outside too) and then makes NULL an output nothing else reads.
 * An outer expression that reads such an output keeps the query to its
 * ordinary plan (mf_query_output_kept).
 *
 * Every relation of a level is aliased q<level>r<index>, every output of
 * a derived table c<resno>, so no name of one scope can be taken for one
 * of another.  Expressions go through the deparser of conditions
 * (mf_expr_shippable, mf_deparse_node) with cxt->level set, which makes
 * a column one of the level's relations and a parameter one of the
 * level's subquery (deparse.c, deparse_ship.c, deparse_expr.c).
 *
 * Window functions go with their OVER clauses written in place: the
 * built-in ones and aggregates, over keys compared and sorted as we do,
 * in a frame without RANGE offsets.
 *
 * Anything else keeps the query to the ordinary plan: set operations,
 * grouping sets, DISTINCT ON, WITH TIES, row locks, an
 * inheritance or UNION ALL tree, a relation of a kind but a foreign table
 * or a derived table (LATERAL, VALUES, a function), a security barrier (its
 * conditions must be checked before the user's, and the remote orders
 * conditions as it likes), a semi or anti join below an outer join or
 * whose inner relations' columns are read outside it, a GROUP BY or ORDER
 * BY key that is a constant (it would be read as a column's position) or
 * holds a subquery, a sort that is not its type's default order, a LIMIT
 * that is not a constant, an ANY or ALL subquery of strings or under a
 * collation.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "access/transam.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "deparse/deparse_int.h"
#include "deparse/deparse_query_int.h"

/* A subquery's text, as written in one level (checked, then written) */
typedef struct MfSubqueryText
{
	SubPlan    *subplan;
	int			level;
	char	   *text;			/* NULL: it cannot go */
} MfSubqueryText;

static bool mf_query_node_shippable(Node *node, MfDeparseCxt *cxt);
static void mf_query_deparse_node(Node *node, MfDeparseCxt *cxt);

/* A context for the expressions of level. */
static void
mf_query_cxt(MfDeparseCxt *cxt, MfQueryWrite *w, MfQueryLevel *level,
			 StringInfo buf, bool aggregates)
{
	memset(cxt, 0, sizeof(*cxt));
	cxt->root = level->root;
	cxt->baserel = w->first_rel;
	cxt->relid = InvalidOid;
	cxt->qualify = true;
	cxt->dialect = mf_rel_dialect(w->first_rel);
	cxt->markers = mf_rel_markers(w->first_rel);
	cxt->buf = buf;
	cxt->params_list = w->params_list;
	cxt->aggregates = aggregates;
	cxt->level = level;
	cxt->query_write = w;
}

/* Check, then write: false (and nothing written) when it cannot go. */
static bool
mf_query_expr(Node *node, MfQueryWrite *w, MfQueryLevel *level,
			  StringInfo buf, bool aggregates, bool selected)
{
	MfDeparseCxt cxt;

	mf_query_cxt(&cxt, w, level, buf, aggregates);
	if (!mf_expr_shippable(node, &cxt) ||
		(!selected && mf_cxt_local_param(node, &cxt)))
		return false;
	if (selected)
		mf_deparse_selected(node, &cxt);
	else
		mf_deparse_node(node, &cxt);
	return true;
}

/* c1 AND c2 ... of an implicit-AND list (or one expression) */
bool
mf_query_conds(Node *quals, MfQueryWrite *w, MfQueryLevel *level,
			   StringInfo buf, bool aggregates, bool *first)
{
	List	   *list = IsA(quals, List) ? (List *) quals : list_make1(quals);
	ListCell   *lc;

	foreach(lc, list)
	{
		appendStringInfoString(buf, *first ? "" : " AND ");
		*first = false;
		if (!mf_query_expr(lfirst(lc), w, level, buf, aggregates, false))
			return false;
	}
	return true;
}

/* ---------------------------------------------------------------------
 * A level: SELECT ... FROM ... WHERE ... GROUP BY ... ORDER BY ... LIMIT
 * ---------------------------------------------------------------------
 */

/*
 * A GROUP BY or ORDER BY key: written as itself, never a constant (the
 * remote would read an integer as a position).
 */
static bool
mf_query_key(StringInfo buf, SortGroupClause *sgc, List *tlist,
			 MfQueryWrite *w, MfQueryLevel *level, bool aggregates,
			 bool ordering)
{
	Node	   *expr = (Node *) get_sortgroupclause_expr(sgc, tlist);
	Oid			type = exprType(expr);
	TypeCacheEntry *tc = NULL;
	MfDeparseCxt cxt;

	if (IsA(mf_strip_relabel(expr), Const) ||
		(!ordering && contain_subplans(expr)))
		return false;
	/* compared as we compare; sorted in the type's own order (its <) */
	mf_query_cxt(&cxt, w, level, buf, aggregates);
	if (!mf_comparison_shippable(&cxt, expr, exprCollation(expr), ordering))
		return false;
	if (ordering)
	{
		tc = lookup_type_cache(type, TYPECACHE_LT_OPR | TYPECACHE_GT_OPR);
		if (sgc->sortop != tc->lt_opr && sgc->sortop != tc->gt_opr)
			return false;
	}
	if (!ordering)
		return mf_query_expr(expr, w, level, buf, aggregates, false);

	/* sorted as we sort: a string column as the remote compares it */
	if (!mf_expr_shippable(expr, &cxt) || mf_cxt_local_param(expr, &cxt))
		return false;
	mf_deparse_compared(expr, exprCollation(expr), &cxt);
	appendStringInfo(buf, "%s NULLS %s",
						 sgc->sortop == tc->lt_opr ? " ASC" : " DESC",
						 sgc->nulls_first ? "FIRST" : "LAST");
	return true;
}

/* LIMIT or OFFSET n: a constant, or nothing */
static bool
mf_query_limit(StringInfo buf, const char *word, Node *count)
{
	Const	   *c;

	if (count == NULL)
		return true;
	if (!IsA(count, Const) || ((Const *) count)->consttype != INT8OID)
		return false;
	c = (Const *) count;
	if (!c->constisnull)
		appendStringInfo(buf, " %s " INT64_FORMAT, word,
						 DatumGetInt64(c->constvalue));
	return true;
}

/*
 * The select list of a level in its role; a subquery's value must be its
 * one entry that is not junk.
 */
static bool
mf_query_select(StringInfo buf, List *tlist, MfQueryWrite *w,
				MfQueryLevel *level, bool aggregates, MfQueryRole role)
{
	ListCell   *lc;
	int			n = 0;

	if (role == MF_QUERY_EXISTS)
	{
		appendStringInfoString(buf, "NULL");
		return true;
	}
	foreach(lc, tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (tle->resjunk && role != MF_QUERY_TOP)
			continue;
		if (n++ > 0)
			appendStringInfoString(buf, ", ");
		if (role != MF_QUERY_TOP && IsA(tle->expr, Const) &&
			((Const *) tle->expr)->constisnull)
		{
			/* with its type: the remote would take a bare NULL for text */
			const MfDialect *dialect = mf_rel_dialect(w->first_rel);

			if (dialect->cast_param == NULL)
				return false;
			appendStringInfoString(buf, "NULL");
			dialect->cast_param(buf, ((Const *) tle->expr)->consttype,
								((Const *) tle->expr)->consttypmod);
		}
		else if (!mf_query_expr((Node *) tle->expr, w, level, buf, aggregates,
								role == MF_QUERY_TOP))
			return false;
		if (role == MF_QUERY_DERIVED)
			appendStringInfo(buf, " AS c%d", tle->resno);
	}
	if (n == 0)
		appendStringInfoString(buf, "NULL");
	return role != MF_QUERY_VALUE || n == 1;
}

bool
mf_query_write(StringInfo buf, MfQueryWrite *w, PlannerInfo *root,
			   MfQueryLevel *outer, SubPlan *subplan, MfQueryRole role)
{
	Query	   *parse = root->parse;
	List	   *tlist = root->processed_tlist != NIL ?
		root->processed_tlist : parse->targetList;
	MfQueryLevel level = {.root = root,.id = w->next_id++,.outer = outer,
		.subplan = subplan,.node_shippable = mf_query_node_shippable,
	.deparse_node = mf_query_deparse_node};
	bool		grouped = parse->hasAggs || parse->groupClause != NIL ||
		root->hasHavingQual;
	bool		first = true;
	bool		junk = false;
	ListCell   *lc;

	if (parse->commandType != CMD_SELECT || parse->setOperations != NULL ||
		parse->hasTargetSRFs ||
		parse->groupingSets != NIL || parse->rowMarks != NIL ||
		parse->cteList != NIL || parse->hasDistinctOn ||
		parse->limitOption == LIMIT_OPTION_WITH_TIES ||
		root->append_rel_list != NIL || root->placeholder_list != NIL ||
		root->qual_security_level > 0)
		return false;
	foreach(lc, parse->rtable)
	{
		RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

		if (rte->securityQuals != NIL || rte->security_barrier)
			return false;
	}
	if (!mf_query_semis_closed(root))
		return false;
	foreach(lc, tlist)
		junk |= lfirst_node(TargetEntry, lc)->resjunk;
	/* DISTINCT over the junk entries too would be another DISTINCT */
	if (parse->distinctClause != NIL && role == MF_QUERY_TOP && junk)
		return false;

	appendStringInfoString(buf, "SELECT ");
	if (parse->distinctClause != NIL && role != MF_QUERY_EXISTS)
	{
		StringInfoData scratch;

		/* each key compared as we compare it */
		initStringInfo(&scratch);
		foreach(lc, parse->distinctClause)
			if (!mf_query_key(&scratch, lfirst_node(SortGroupClause, lc),
							  tlist, w, &level, grouped, false))
				return false;
		appendStringInfoString(buf, "DISTINCT ");
	}
	if (!mf_query_select(buf, tlist, w, &level, grouped, role))
		return false;

	if (!mf_query_from_where(buf, w, &level))
		return false;

	/*
	 * An aggregate's query, or one with a HAVING, is one group without a
	 * GROUP BY: so says GROUP BY (), which its SQL may no longer show (a
	 * HAVING true folded away, an aggregate nothing reads replaced by
	 * NULL, a select list EXISTS does not write).
	 */
	if (parse->groupClause == NIL && grouped &&
		(role == MF_QUERY_EXISTS ||
		 !(contain_agg_clause((Node *) tlist) ||
		   contain_agg_clause(parse->havingQual))))
		appendStringInfoString(buf, " GROUP BY ()");
	if (parse->groupClause != NIL)
	{
		appendStringInfoString(buf, " GROUP BY ");
		first = true;
		foreach(lc, parse->groupClause)
		{
			appendStringInfoString(buf, first ? "" : ", ");
			first = false;
			if (!mf_query_key(buf, lfirst_node(SortGroupClause, lc), tlist,
							  w, &level, false, false))
				return false;
		}
	}
	if (parse->havingQual != NULL)
	{
		appendStringInfoString(buf, " HAVING ");
		first = true;
		if (!mf_query_conds(parse->havingQual, w, &level, buf, true, &first))
			return false;
	}

	if (parse->sortClause != NIL && role != MF_QUERY_EXISTS)
	{
		appendStringInfoString(buf, " ORDER BY ");
		first = true;
		foreach(lc, parse->sortClause)
		{
			appendStringInfoString(buf, first ? "" : ", ");
			first = false;
			if (!mf_query_key(buf, lfirst_node(SortGroupClause, lc), tlist,
							  w, &level, grouped, true))
				return false;
		}
	}
	return mf_query_limit(buf, "LIMIT", parse->limitCount) &&
		mf_query_limit(buf, "OFFSET", parse->limitOffset);
}

/* ---------------------------------------------------------------------
 * Window functions (from the expression walks)
 * ---------------------------------------------------------------------
 */

/* the built-in window functions, computed by the remote as here */
static const char *const mf_window_functions[] = {
	"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
	"lag", "lead", "first_value", "last_value", "nth_value"
};

/* The aggregate a window aggregate computes, as an Aggref. */
static Aggref *
mf_window_aggref(WindowFunc *wf)
{
	Aggref	   *agg = makeNode(Aggref);
	ListCell   *lc;

	agg->aggfnoid = wf->winfnoid;
	agg->aggtype = wf->wintype;
	agg->aggcollid = wf->wincollid;
	agg->inputcollid = wf->inputcollid;
	foreach(lc, wf->args)
		agg->args = lappend(agg->args,
							makeTargetEntry(lfirst(lc),
											list_length(agg->args) + 1,
											NULL, false));
	agg->aggfilter = wf->aggfilter;
	agg->aggstar = wf->winstar;
	agg->aggkind = AGGKIND_NORMAL;
	agg->aggsplit = AGGSPLIT_SIMPLE;
	agg->location = -1;
	return agg;
}

/* A window function's own part, name(args), checked; NULL: it cannot go. */
static bool
mf_window_call_shippable(WindowFunc *wf, MfDeparseCxt *cxt)
{
	const MfDialect *d = cxt->dialect;
	char	   *name;
	ListCell   *lc;

	if (wf->winagg)
	{
		Aggref	   *agg = mf_window_aggref(wf);
		const MfAggregate *a;
		Node	   *arg;

		/* as mf_aggref_shippable, an aggregate of the grouping inside */
		if (!mf_aggref_arg(agg, &arg) ||
			(wf->aggfilter != NULL && !d->aggregate_filter))
			return false;
		a = mf_find_aggregate(d, agg->aggfnoid,
							  arg ? exprType(arg) : InvalidOid);
		if (a == NULL || a->sum_count || a->exact_decimal ||
			!d->type_shippable(wf->wintype) ||
			!mf_expr_shippable(arg, cxt) ||
			!mf_expr_shippable((Node *) wf->aggfilter, cxt))
			return false;
		return arg == NULL ||
			(!mf_is_local_param(arg, d) &&
			 mf_collation_safe(wf->inputcollid, list_make1(arg)) &&
			 (!a->orders ||
			  mf_comparison_shippable(cxt, arg, wf->inputcollid, true)));
	}
	if (wf->winfnoid >= FirstGenbkiObjectId || wf->aggfilter != NULL ||
		!d->type_shippable(wf->wintype))
		return false;
	name = get_func_name(wf->winfnoid);
	for (size_t i = 0; i < lengthof(mf_window_functions); i++)
	{
		if (name == NULL || strcmp(name, mf_window_functions[i]) != 0)
			continue;
		foreach(lc, wf->args)
			if (!mf_expr_shippable(lfirst(lc), cxt) ||
				mf_is_local_param(lfirst(lc), d))
				return false;
		return true;
	}
	return false;
}

/* One bound of a frame: its offset a constant, as LIMIT's */
static bool
mf_window_bound(StringInfo buf, int options, int unbounded, int current,
				int preceding, int following, Node *offset,
				const char *unbounded_word)
{
	if (options & unbounded)
		appendStringInfo(buf, "UNBOUNDED %s", unbounded_word);
	else if (options & current)
		appendStringInfoString(buf, "CURRENT ROW");
	else if (options & (preceding | following))
	{
		if (offset == NULL || !IsA(offset, Const) ||
			((Const *) offset)->consttype != INT8OID ||
			((Const *) offset)->constisnull)
			return false;
		appendStringInfo(buf, INT64_FORMAT " %s",
						 DatumGetInt64(((Const *) offset)->constvalue),
						 (options & preceding) ? "PRECEDING" : "FOLLOWING");
	}
	else
		return false;
	return true;
}

/*
 * OVER (PARTITION BY ... ORDER BY ... frame) of a window clause: its keys
 * compared and sorted as we do (mf_query_key), a frame of ROWS or GROUPS
 * with constant offsets, or of RANGE without (RANGE with offsets adds
 * them to the sort key by its type's own arithmetic).
 */
static bool
mf_window_spec(StringInfo buf, WindowClause *wc, MfDeparseCxt *cxt)
{
	MfQueryLevel *level = cxt->level;
	List	   *tlist = level->root->processed_tlist != NIL ?
		level->root->processed_tlist : level->root->parse->targetList;
	int			fo = wc->frameOptions;
	ListCell   *lc;

	appendStringInfoString(buf, " OVER (");
	foreach(lc, wc->partitionClause)
	{
		appendStringInfoString(buf, lc == list_head(wc->partitionClause) ?
							   "PARTITION BY " : ", ");
		if (!mf_query_key(buf, lfirst_node(SortGroupClause, lc), tlist,
						  cxt->query_write, level, cxt->aggregates, false))
			return false;
	}
	foreach(lc, wc->orderClause)
	{
		appendStringInfoString(buf, lc != list_head(wc->orderClause) ? ", " :
							   wc->partitionClause != NIL ? " ORDER BY " :
							   "ORDER BY ");
		if (!mf_query_key(buf, lfirst_node(SortGroupClause, lc), tlist,
						  cxt->query_write, level, cxt->aggregates, true))
			return false;
	}
	if (fo & FRAMEOPTION_NONDEFAULT)
	{
		if (fo & FRAMEOPTION_RANGE)
		{
			if (fo & (FRAMEOPTION_START_OFFSET | FRAMEOPTION_END_OFFSET))
				return false;
			appendStringInfoString(buf, " RANGE ");
		}
		else if (fo & FRAMEOPTION_ROWS)
			appendStringInfoString(buf, " ROWS ");
		else if (fo & FRAMEOPTION_GROUPS)
			appendStringInfoString(buf, " GROUPS ");
		else
			return false;
		if (fo & FRAMEOPTION_BETWEEN)
			appendStringInfoString(buf, "BETWEEN ");
		if (!mf_window_bound(buf, fo, FRAMEOPTION_START_UNBOUNDED_PRECEDING,
							 FRAMEOPTION_START_CURRENT_ROW,
							 FRAMEOPTION_START_OFFSET_PRECEDING,
							 FRAMEOPTION_START_OFFSET_FOLLOWING,
							 wc->startOffset, "PRECEDING"))
			return false;
		if (fo & FRAMEOPTION_BETWEEN)
		{
			appendStringInfoString(buf, " AND ");
			if (!mf_window_bound(buf, fo, FRAMEOPTION_END_UNBOUNDED_FOLLOWING,
								 FRAMEOPTION_END_CURRENT_ROW,
								 FRAMEOPTION_END_OFFSET_PRECEDING,
								 FRAMEOPTION_END_OFFSET_FOLLOWING,
								 wc->endOffset, "FOLLOWING"))
				return false;
		}
		if (fo & FRAMEOPTION_EXCLUDE_CURRENT_ROW)
			appendStringInfoString(buf, " EXCLUDE CURRENT ROW");
		else if (fo & FRAMEOPTION_EXCLUDE_GROUP)
			appendStringInfoString(buf, " EXCLUDE GROUP");
		else if (fo & FRAMEOPTION_EXCLUDE_TIES)
			appendStringInfoString(buf, " EXCLUDE TIES");
	}
	appendStringInfoChar(buf, ')');
	return true;
}

/*
 * A window function of cxt's level, written into cxt->buf (when it can
 * go; check alone: into a scratch buffer).  Not one the planner gave a
 * run condition (a WHERE on its value moved into it, which SQL cannot
 * say there).
 */
static bool
mf_window_func(WindowFunc *wf, MfDeparseCxt *cxt, bool check)
{
	WindowClause *wc = NULL;
	StringInfo	buf = cxt->buf;
	StringInfoData scratch;
	ListCell   *lc;
	bool		ok;

	foreach(lc, cxt->level->root->parse->windowClause)
		if (lfirst_node(WindowClause, lc)->winref == wf->winref)
			wc = lfirst_node(WindowClause, lc);
#if PG_VERSION_NUM >= 170000
	if (wf->runCondition != NIL)
		return false;
#else
	if (wc != NULL && wc->runCondition != NIL)
		return false;
#endif
	if (wc == NULL || (check && !mf_window_call_shippable(wf, cxt)))
		return false;
	if (check)
	{
		initStringInfo(&scratch);
		cxt->buf = &scratch;
	}
	else if (wf->winagg)
		mf_deparse_aggref(mf_window_aggref(wf), cxt);
	else
	{
		appendStringInfo(cxt->buf, "%s(", get_func_name(wf->winfnoid));
		foreach(lc, wf->args)
		{
			if (lc != list_head(wf->args))
				appendStringInfoString(cxt->buf, ", ");
			mf_deparse_compared(lfirst(lc), InvalidOid, cxt);
		}
		appendStringInfoChar(cxt->buf, ')');
	}
	ok = mf_window_spec(cxt->buf, wc, cxt);
	cxt->buf = buf;
	return ok;
}

/* ---------------------------------------------------------------------
 * Subqueries and their parameters (from the expression walks)
 * ---------------------------------------------------------------------
 */

/* The SubPlan of root's level or above whose initplan sets paramid. */
static SubPlan *
mf_query_initplan(MfQueryLevel *level, int paramid)
{
	for (; level != NULL; level = level->outer)
	{
		ListCell   *lc;

		foreach(lc, level->root->init_plans)
		{
			SubPlan    *sp = lfirst_node(SubPlan, lc);

			if (list_member_int(sp->setParam, paramid))
				return sp;
		}
	}
	return NULL;
}

/*
 * A PARAM_EXEC parameter seen in level: the outer expression the SubPlan
 * of level or of a level around it passes for it (a subquery two levels
 * down may read the outermost query's columns), and *outer_level, where
 * that expression is written; or NULL.
 */
static Node *
mf_query_param_arg(MfQueryLevel *level, Param *p, MfQueryLevel **outer_level)
{
	for (; level != NULL; level = level->outer)
	{
		ListCell   *lc1;
		ListCell   *lc2;

		if (level->subplan == NULL)
			continue;
		forboth(lc1, level->subplan->parParam, lc2, level->subplan->args)
		{
			if (lfirst_int(lc1) == p->paramid)
			{
				*outer_level = level->outer;
				return lfirst(lc2);
			}
		}
	}
	return NULL;
}

/* The text of a subquery of cxt's level, or NULL where it cannot go. */
static char *
mf_query_subplan_text(SubPlan *subplan, MfDeparseCxt *cxt)
{
	MfQueryWrite *w = cxt->query_write;
	PlannerInfo *subroot;
	StringInfoData buf;
	MfQueryRole role;
	MfSubqueryText *t;
	ListCell   *lc;

	if (subplan->plan_id < 1 ||
		subplan->plan_id > list_length(cxt->root->glob->subroots))
		return NULL;
	switch (subplan->subLinkType)
	{
		case EXISTS_SUBLINK:
			role = MF_QUERY_EXISTS;
			break;
		case EXPR_SUBLINK:
		case ANY_SUBLINK:
		case ALL_SUBLINK:
			role = MF_QUERY_VALUE;
			break;
		default:
			return NULL;
	}
	foreach(lc, w->texts)
	{
		MfSubqueryText *known = lfirst(lc);

		if (known->subplan == subplan && known->level == cxt->level->id)
			return known->text;
	}
	subroot = list_nth(cxt->root->glob->subroots, subplan->plan_id - 1);
	initStringInfo(&buf);
	t = palloc(sizeof(MfSubqueryText));
	t->subplan = subplan;
	t->level = cxt->level->id;
	t->text = mf_query_write(&buf, w, subroot, cxt->level,
							 subplan->parParam != NIL ? subplan : NULL, role) ?
		buf.data : NULL;
	w->texts = lappend(w->texts, t);
	return t->text;
}

/*
 * x op ANY/ALL (subquery): the SubPlan's test, op(x, the subquery's one
 * value); else NULL.
 */
static OpExpr *
mf_query_any_test(SubPlan *subplan, Node **lefthand)
{
	OpExpr	   *op;
	Node	   *right;

	if (subplan->testexpr == NULL || !IsA(subplan->testexpr, OpExpr) ||
		list_length(subplan->paramIds) != 1)
		return NULL;
	op = (OpExpr *) subplan->testexpr;
	if (list_length(op->args) != 2)
		return NULL;
	right = mf_strip_relabel(lsecond(op->args));
	if (!IsA(right, Param) || ((Param *) right)->paramkind != PARAM_EXEC ||
		((Param *) right)->paramid != linitial_int(subplan->paramIds))
		return NULL;
	*lefthand = linitial(op->args);
	return op;
}

/*
 * Does the derived table's output var reads still hold its value?  The
 * planner makes NULL an output nothing reads but the outer conditions it
 * copied into the derived table (remove_unused_subquery_outputs, on its
 * copy of the subquery); the outer conditions, written too, read it still.
 */
static bool
mf_query_output_kept(PlannerInfo *root, Var *var)
{
	RangeTblEntry *rte = rt_fetch(var->varno, root->parse->rtable);
	RelOptInfo *rel;
	TargetEntry *planned;
	TargetEntry *asked;

	rel = var->varno < root->simple_rel_array_size ?
		root->simple_rel_array[var->varno] : NULL;
	if (rel == NULL || rel->subroot == NULL || rte->subquery == NULL)
		return false;
	planned = get_tle_by_resno(rel->subroot->processed_tlist != NIL ?
							   rel->subroot->processed_tlist :
							   rel->subroot->parse->targetList,
							   var->varattno);
	asked = get_tle_by_resno(rte->subquery->targetList, var->varattno);
	if (planned == NULL || asked == NULL || planned->resjunk ||
		asked->resjunk)
		return false;
	return !(IsA(planned->expr, Const) &&
			 ((Const *) planned->expr)->constisnull) ||
		(IsA(asked->expr, Const) && ((Const *) asked->expr)->constisnull);
}

/* May this node of a whole query's expression go (query mode)? */
static bool
mf_query_node_shippable(Node *node, MfDeparseCxt *cxt)
{
	switch (nodeTag(node))
	{
		case T_Var:
			{
				Var		   *var = (Var *) node;
				RangeTblEntry *rte;

				if (var->varlevelsup != 0 || var->varattno <= 0 ||
					var->varno < 1 ||
					var->varno > list_length(cxt->root->parse->rtable))
					return false;
				rte = rt_fetch(var->varno, cxt->root->parse->rtable);
				if (rte->rtekind == RTE_SUBQUERY)
					return mf_query_output_kept(cxt->root, var);
				return rte->rtekind == RTE_RELATION;
			}
		case T_Param:
			{
				Param	   *p = (Param *) node;
				MfQueryLevel *outer = NULL;
				Node	   *arg;
				MfDeparseCxt ocxt;
				SubPlan    *init;
				char		category;
				bool		preferred;

				if (p->paramkind == PARAM_EXTERN)
					return true;
				if (p->paramkind != PARAM_EXEC)
					return false;
				arg = mf_query_param_arg(cxt->level, p, &outer);
				if (arg != NULL)
				{
					mf_query_cxt(&ocxt, cxt->query_write, outer, cxt->buf,
								 false);
					return mf_expr_shippable(arg, &ocxt);
				}
				/* an initplan's value: not a string (as a scalar SubPlan's) */
				get_type_category_preferred(getBaseType(p->paramtype),
											&category, &preferred);
				if (category == TYPCATEGORY_STRING)
					return false;
				init = mf_query_initplan(cxt->level, p->paramid);
				return init != NULL && list_length(init->setParam) == 1 &&
					(init->subLinkType == EXPR_SUBLINK ||
					 init->subLinkType == EXISTS_SUBLINK) &&
					mf_query_subplan_text(init, cxt) != NULL;
			}
		case T_SubPlan:
			{
				SubPlan    *sp = (SubPlan *) node;
				Node	   *left;
				OpExpr	   *op;
				char		category;
				bool		preferred;
				ListCell   *lc;

				if (mf_query_subplan_text(sp, cxt) == NULL)
					return false;
				foreach(lc, sp->args)
					if (!mf_expr_shippable(lfirst(lc), cxt))
						return false;
				/*
				 * A scalar subquery's value is the remote's column type:
				 * not a string, which a column of ours beside it would be
				 * cast to compare as (mf_deparse_compared).
				 */
				if (sp->subLinkType == EXPR_SUBLINK)
				{
					get_type_category_preferred(getBaseType(sp->firstColType),
												&category, &preferred);
					return category != TYPCATEGORY_STRING;
				}
				if (sp->subLinkType != ANY_SUBLINK &&
					sp->subLinkType != ALL_SUBLINK)
					return true;
				op = mf_query_any_test(sp, &left);
				if (op == NULL || !mf_expr_shippable(left, cxt))
					return false;

				/*
				 * A built-in immutable operator of no collation, on values
				 * that are not strings: the remote compares the subquery's
				 * values, of its own column types, as we do (a string
				 * column could be another type there, compared otherwise).
				 */
				get_type_category_preferred(getBaseType(exprType(left)),
											&category, &preferred);
				if (category == TYPCATEGORY_STRING)
					return false;
				get_type_category_preferred(getBaseType(exprType(lsecond(op->args))),
											&category, &preferred);
				return category != TYPCATEGORY_STRING &&
					op->opno < FirstGenbkiObjectId &&
					!OidIsValid(op->inputcollid) &&
					func_volatile(op->opfuncid) == PROVOLATILE_IMMUTABLE;
			}
		case T_AlternativeSubPlan:
			return mf_query_node_shippable(linitial(((AlternativeSubPlan *) node)->subplans),
										   cxt);
		case T_WindowFunc:
			return mf_window_func((WindowFunc *) node, cxt, true);
		default:
			return false;
	}
}

/* Write a node mf_query_node_shippable said yes to. */
static void
mf_query_deparse_node(Node *node, MfDeparseCxt *cxt)
{
	switch (nodeTag(node))
	{
		case T_Var:
			{
				Var		   *var = (Var *) node;
				RangeTblEntry *rte = rt_fetch(var->varno, cxt->root->parse->rtable);

				appendStringInfo(cxt->buf, "q%dr%d.", cxt->level->id, var->varno);
				if (rte->rtekind == RTE_RELATION)
					mf_deparse_column(cxt->buf, rte->relid, var->varattno,
									  cxt->dialect);
				else
					appendStringInfo(cxt->buf, "c%d", var->varattno);
				return;
			}
		case T_Param:
			{
				Param	   *p = (Param *) node;
				MfQueryLevel *outer = NULL;
				Node	   *arg;

				if (p->paramkind == PARAM_EXTERN)
					break;
				arg = mf_query_param_arg(cxt->level, p, &outer);
				if (arg != NULL)
				{
					MfDeparseCxt ocxt;

					mf_query_cxt(&ocxt, cxt->query_write, outer, cxt->buf,
								 false);
					appendStringInfoChar(cxt->buf, '(');
					mf_deparse_node(arg, &ocxt);
					appendStringInfoChar(cxt->buf, ')');
					return;
				}
				mf_query_deparse_node((Node *) mf_query_initplan(cxt->level,
																 p->paramid),
									  cxt);
				return;
			}
		case T_SubPlan:
			{
				SubPlan    *sp = (SubPlan *) node;
				char	   *text = mf_query_subplan_text(sp, cxt);
				Node	   *left;
				OpExpr	   *op;

				if (text == NULL)
					break;
				if (sp->subLinkType == EXISTS_SUBLINK)
				{
					appendStringInfo(cxt->buf, "EXISTS (%s)", text);
					return;
				}
				if (sp->subLinkType == EXPR_SUBLINK)
				{
					appendStringInfo(cxt->buf, "(%s)", text);
					return;
				}
				op = mf_query_any_test(sp, &left);
				appendStringInfoChar(cxt->buf, '(');
				mf_deparse_node(left, cxt);
				appendStringInfo(cxt->buf, " %s %s (%s))",
								 mf_operator_name(op->opno),
								 sp->subLinkType == ANY_SUBLINK ? "ANY" : "ALL",
								 text);
				return;
			}
		case T_AlternativeSubPlan:
			mf_query_deparse_node(linitial(((AlternativeSubPlan *) node)->subplans),
								  cxt);
			return;
		case T_WindowFunc:
			if (mf_window_func((WindowFunc *) node, cxt, false))
				return;
			break;
		default:
			break;
	}
	elog(ERROR, "a part of a query that cannot be sent was to be sent");
}

/*
 * The first foreign table of the query, depth first through its derived
 * tables: its server's dialect writes every expression.
 */
static bool
mf_query_first_rel(PlannerInfo *root, MfQueryWrite *w)
{
	for (int rti = 1; rti < root->simple_rel_array_size; rti++)
	{
		RelOptInfo *rel = root->simple_rel_array[rti];

		if (rel == NULL || rel->reloptkind != RELOPT_BASEREL)
			continue;
		if (rel->rtekind == RTE_RELATION && rel->fdw_private != NULL &&
			w->rel_ok(root, rel, w->rel_ok_arg))
		{
			w->first_rel = rel;
			return true;
		}
		if (rel->rtekind == RTE_SUBQUERY && rel->subroot != NULL &&
			mf_query_first_rel(rel->subroot, w))
			return true;
	}
	return false;
}

/*
 * The whole query root plans, written into buf, when every part of it
 * can go and rel_ok accepts each of its foreign tables (all of them on
 * one server, as one user: the caller's rule).  *first_rel: the foreign
 * table whose server's dialect wrote it.
 */
bool
mf_deparse_whole_query(StringInfo buf, PlannerInfo *root,
					   MfQueryRelCheck rel_ok, void *rel_ok_arg,
					   RelOptInfo **first_rel, List **params_list)
{
	MfQueryWrite w = {.rel_ok = rel_ok,.rel_ok_arg = rel_ok_arg,
	.first_rel = NULL,.next_id = 1,.params_list = params_list};

	if (!mf_query_first_rel(root, &w) ||
		!mf_query_write(buf, &w, root, NULL, NULL, MF_QUERY_TOP))
		return false;
	*first_rel = w.first_rel;
	return true;
}
