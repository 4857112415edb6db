/*-------------------------------------------------------------------------
 *
 * deparse_subquery.c
 *		A subquery written inside a table's condition: a correlated scalar
 *		or EXISTS SubPlan whose plan is one of our scans of the same server
 *		under the same user mapping is sent as part of the outer table's
 *		query, so that the remote runs it once per row where it is, not
 *		once per row here with a round trip each.
 *
 *		The inner scan's planning keeps, beside its SQL, the same SQL in
 *		its nested form (mf_deparse_nesting_begin): every column qualified
 *		by its relation's alias rN (N >= 1) and each parameter's marker
 *		written MF_NESTED_MARK n MF_NESTED_MARK.  The outer query gives
 *		its table the alias r0 and writes, in place of each marker, the
 *		outer expression the SubPlan passes for that parameter, qualified
 *		by r0.  So no name of the subquery can be taken for an outer one
 *		or the other way round, whatever the tables' and columns' names.
 *
 *		Also here: the widening casts of integers (int2 to int4, int8 and
 *		numeric, int4 to int8 and numeric, int8 to numeric) that such a
 *		comparison needs, whose value is the same on both sides for every
 *		remote value a read here would accept.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "deparse/deparse_int.h"
#include "plan/scan_int.h"

/* nested form being written (1), or written and not usable (2), or not (0) */
static int	mf_nesting = 0;

void
mf_deparse_nesting_begin(void)
{
	Assert(mf_nesting == 0);
	mf_nesting = 1;
}

/* Ends the nested form; false if what was written may not be used. */
bool
mf_deparse_nesting_end(void)
{
	bool		ok = mf_nesting == 1;

	mf_nesting = 0;
	return ok;
}

/*
 * May a scan keep the nested form it wrote beside its plain SQL?  Only if
 * the nesting held (no subquery of its own was written), both forms took
 * the same parameters, and no constant of the plain SQL holds the mark
 * (so that every mark of the nested form is one the deparser wrote).
 */
bool
mf_deparse_nested_usable(bool held, const char *plain_sql, List *plain_params,
						 List *nested_params)
{
	return held && strchr(plain_sql, MF_NESTED_MARK) == NULL &&
		equal(plain_params, nested_params);
}

bool
mf_deparse_nesting(void)
{
	return mf_nesting != 0;
}

/* Something that cannot be nested was written: the nested form is void. */
static void
mf_deparse_nesting_refuse(void)
{
	if (mf_nesting != 0)
		mf_nesting = 2;
}

/* ---------------------------------------------------------------------
 * Widening casts
 * ---------------------------------------------------------------------
 */

/* The SQL type name of a widening cast's result, or NULL. */
static const char *
mf_widening_cast_type(FuncExpr *f)
{
	if (f->funcformat != COERCE_IMPLICIT_CAST &&
		f->funcformat != COERCE_EXPLICIT_CAST)
		return NULL;
	switch (f->funcid)
	{
		case F_INT4_INT2:
			return "integer";
		case F_INT8_INT2:
		case F_INT8_INT4:
			return "bigint";
		case F_NUMERIC_INT2:
		case F_NUMERIC_INT4:
		case F_NUMERIC_INT8:
			return "numeric";
		default:
			return NULL;
	}
}

bool
mf_widening_cast_shippable(FuncExpr *f, MfDeparseCxt *cxt)
{
	return cxt->dialect->nested_subqueries &&
		list_length(f->args) == 1 && mf_widening_cast_type(f) != NULL;
}

void
mf_deparse_widening_cast(FuncExpr *f, MfDeparseCxt *cxt)
{
	appendStringInfoChar(cxt->buf, '(');
	mf_deparse_node(linitial(f->args), cxt);
	appendStringInfo(cxt->buf, ")::%s", mf_widening_cast_type(f));
}

/* ---------------------------------------------------------------------
 * Subqueries
 * ---------------------------------------------------------------------
 */

/* Does any condition (RestrictInfos or clauses) hold a SubPlan? */
bool
mf_conds_have_subqueries(List *conds)
{
	ListCell   *lc;

	foreach(lc, conds)
	{
		Node	   *n = lfirst(lc);

		if (IsA(n, RestrictInfo))
			n = (Node *) ((RestrictInfo *) n)->clause;
		if (contain_subplans(n))
			return true;
	}
	return false;
}

/* The scan subplan is, if it is one of ours; NULL otherwise. */
static ForeignScan *
mf_subplan_scan(SubPlan *subplan, MfDeparseCxt *cxt, PlannerInfo **subroot)
{
	Plan	   *plan;

	if (cxt->root == NULL || cxt->root->glob == NULL ||
		subplan->plan_id < 1 ||
		subplan->plan_id > list_length(cxt->root->glob->subplans))
		return NULL;
	plan = list_nth(cxt->root->glob->subplans, subplan->plan_id - 1);
	*subroot = list_nth(cxt->root->glob->subroots, subplan->plan_id - 1);
	if (plan == NULL || !IsA(plan, ForeignScan) || *subroot == NULL)
		return NULL;
	return (ForeignScan *) plan;
}

/* The nested form the scan's planning kept, or NULL. */
static const char *
mf_scan_nested_sql(ForeignScan *fs)
{
	Node	   *n;

	if (list_length(fs->fdw_private) < MF_SCAN_NPRIVATE)
		return NULL;
	n = list_nth(fs->fdw_private, MF_SCAN_NESTED_SQL);
	return n != NULL && IsA(n, String) ? strVal(n) : NULL;
}

/* The position in subplan->parParam of the parameter a marker stands for. */
static int
mf_subplan_param_index(SubPlan *subplan, ForeignScan *fs, int marker)
{
	Param	   *p;
	ListCell   *lc;
	int			i = 0;

	if (marker < 1 || marker > list_length(fs->fdw_exprs))
		return -1;
	p = list_nth(fs->fdw_exprs, marker - 1);
	if (!IsA(p, Param) || p->paramkind != PARAM_EXEC)
		return -1;
	foreach(lc, subplan->parParam)
	{
		if (lfirst_int(lc) == p->paramid)
			return i;
		i++;
	}
	return -1;
}

/*
 * May subplan be written inside the condition of cxt's relation?  Only a
 * plain table's (not a join's or a grouping's, whose columns have their
 * own aliases), not one the statement changes or locks; a scalar subquery
 * (its one column the remote's own value, nothing checked or computed
 * here) or an EXISTS; every parameter one the SubPlan passes, from an
 * expression that may itself be sent.
 */
bool
mf_subplan_shippable(SubPlan *subplan, MfDeparseCxt *cxt)
{
	PlannerInfo *subroot;
	ForeignScan *fs;
	const char *nested;
	MfRelInfo  *outer = cxt->baserel->fdw_private;
	MfRelInfo  *inner;
	RelOptInfo *innerrel;
	ListCell   *lc;
	int			relid;

	if (!cxt->dialect->nested_subqueries || !OidIsValid(cxt->relid) ||
		cxt->aggregates || mf_deparse_nesting() || outer == NULL)
		return false;
	if (cxt->root->rowMarks != NIL ||
		bms_is_member(cxt->baserel->relid, cxt->root->all_result_relids))
		return false;
	if ((subplan->subLinkType != EXPR_SUBLINK &&
		 subplan->subLinkType != EXISTS_SUBLINK) ||
		subplan->useHashTable || subplan->testexpr != NULL ||
		subplan->setParam != NIL ||
		list_length(subplan->parParam) != list_length(subplan->args))
		return false;
	fs = mf_subplan_scan(subplan, cxt, &subroot);
	if (fs == NULL || fs->fs_server != outer->opts.serverid ||
		fs->scan.plan.qual != NIL || fs->scan.plan.initPlan != NIL ||
		fs->operation != CMD_SELECT)
		return false;
	nested = mf_scan_nested_sql(fs);
	if (nested == NULL)
		return false;

	/* the same user mapping: the same credentials, the same connection */
	relid = bms_next_member(fs->fs_relids, -1);
	if (relid <= 0 || relid >= subroot->simple_rel_array_size)
		return false;
	innerrel = subroot->simple_rel_array[relid];
	if (innerrel == NULL || innerrel->fdw_private == NULL)
		return false;
	inner = innerrel->fdw_private;

	/*
	 * The same user mapping, and the same user: the executor chooses each
	 * scan's mapping again by its user (a view's owner, or whoever runs a
	 * cached plan), so equal mappings at planning prove nothing otherwise.
	 */
	if (innerrel->userid != cxt->baserel->userid ||
		inner->user == NULL || outer->user == NULL ||
		inner->user->umid != outer->user->umid ||
		inner->user->serverid != outer->user->serverid)
		return false;

	/* a scalar subquery: the remote's one column, as it is */
	if (subplan->subLinkType == EXPR_SUBLINK)
	{
		List	   *attrs = list_nth(fs->fdw_private, MF_SCAN_RETRIEVED_ATTRS);
		TargetEntry *tle;
		Node	   *value;

		if (list_length(attrs) != 1 || fs->scan.plan.targetlist == NIL)
			return false;
		tle = linitial_node(TargetEntry, fs->scan.plan.targetlist);
		value = (Node *) tle->expr;
		if (mf_select_cast(cxt->dialect, exprType(value)) != NULL)
			return false;

		/*
		 * Before set_plan_references: a table's scan returns its column, a
		 * grouping's the expression its remote select list computes.
		 */
		if (fs->scan.scanrelid > 0)
		{
			Var		   *var = (Var *) value;

			if (!IsA(var, Var) || var->varlevelsup != 0 ||
				(Index) var->varno != fs->scan.scanrelid ||
				var->varattno != linitial_int(attrs))
				return false;
		}
		else if (list_length(fs->fdw_scan_tlist) != 1 ||
				 !equal(value, linitial_node(TargetEntry,
											 fs->fdw_scan_tlist)->expr))
			return false;
		if (!cxt->dialect->type_shippable(exprType(value)))
			return false;
	}

	/* every marker a parameter the SubPlan passes */
	foreach(lc, fs->fdw_exprs)
	{
		Param	   *p = lfirst(lc);

		if (!IsA(p, Param) || p->paramkind != PARAM_EXEC ||
			!list_member_int(subplan->parParam, p->paramid))
			return false;
	}
	/*
	 * Each value goes as the outer expression itself, compared as the
	 * remote's types compare: not a text value, which a parameter sends
	 * as text and the remote column may hold as another type (char(n),
	 * whose comparison ignores trailing blanks, an enum).
	 */
	foreach(lc, subplan->args)
		if (mf_is_text_type(getBaseType(exprType(lfirst(lc)))) ||
			!mf_expr_shippable(lfirst(lc), cxt))
			return false;
	return true;
}

/*
 * Write subplan (mf_subplan_shippable said yes): the nested form, each
 * marker replaced by the outer expression in parentheses, its columns
 * qualified by r0 (the alias mf_deparse_select gives the outer table).
 */
void
mf_deparse_subplan(SubPlan *subplan, MfDeparseCxt *cxt)
{
	PlannerInfo *subroot;
	ForeignScan *fs = mf_subplan_scan(subplan, cxt, &subroot);
	const char *p = fs != NULL ? mf_scan_nested_sql(fs) : NULL;
	bool		outer_alias = cxt->outer_alias;

	if (p == NULL)
		elog(ERROR, "a subquery that cannot be sent was to be sent");
	mf_deparse_nesting_refuse();
	appendStringInfoString(cxt->buf, subplan->subLinkType == EXISTS_SUBLINK ?
						   "EXISTS (" : "(");
	while (*p != '\0')
	{
		const char *end;
		int			marker;
		int			i;

		if (*p != MF_NESTED_MARK)
		{
			appendStringInfoChar(cxt->buf, *p++);
			continue;
		}
		marker = (int) strtol(p + 1, (char **) &end, 10);
		if (*end != MF_NESTED_MARK)
			elog(ERROR, "a subquery's nested form is malformed");
		i = mf_subplan_param_index(subplan, fs, marker);
		if (i < 0)
			elog(ERROR, "a subquery's parameter %d is not the SubPlan's", marker);
		appendStringInfoChar(cxt->buf, '(');
		cxt->outer_alias = true;
		mf_deparse_node(list_nth(subplan->args, i), cxt);
		cxt->outer_alias = outer_alias;
		appendStringInfoChar(cxt->buf, ')');
		p = end + 1;
	}
	appendStringInfoChar(cxt->buf, ')');
}
