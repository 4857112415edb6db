/*-------------------------------------------------------------------------
 *
 * deparse_ship.c
 *		What may be evaluated remotely: the shippability walk over an
 *		expression (types, operators and their guards, functions of
 *		shipped extensions, aggregates), and the split of a relation's
 *		conditions into remote and local ones.  Collations are
 *		deparse_collate.c's, exact decimals deparse_decimal.c's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/dependency.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/bytea.h"
#include "miscadmin.h"
#include "utils/float.h"
#include "pgtime.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "deparse/deparse_int.h"

/*
 * Does the object belong to one of the extensions that the server's
 * extensions option says the remote has too (postgres_fdw's rule)?
 */
static bool
mf_in_shipped_extension(MfDeparseCxt *cxt, Oid classid, Oid objid)
{
	List	   *extensions;

	if (cxt->baserel == NULL || cxt->baserel->fdw_private == NULL)
		return false;
	extensions = ((MfRelInfo *) cxt->baserel->fdw_private)->opts.extensions;
	return extensions != NIL &&
		list_member_oid(extensions, getExtensionOfObject(classid, objid));
}

static bool
mf_type_shippable(MfDeparseCxt *cxt, Oid typid)
{
	return cxt->dialect->type_shippable(typid) ||
		mf_in_shipped_extension(cxt, TypeRelationId, typid);
}

/* A constant int2, int4 or int8 other than zero. */
static bool
mf_const_is_nonzero_integer(Const *c)
{
	switch (c->consttype)
	{
		case INT2OID:
			return DatumGetInt16(c->constvalue) != 0;
		case INT4OID:
			return DatumGetInt32(c->constvalue) != 0;
		case INT8OID:
			return DatumGetInt64(c->constvalue) != 0;
		default:
			return false;
	}
}

/*
 * Is this an int2/int4 + - * (or prefix -) that the dialect computes wider
 * and ships inside its range guard (range_guard_piece)?  If so, [min, max]
 * is our result type's range.
 */
bool
mf_op_guard_range(MfDeparseCxt *cxt, Oid opno, int64 *min, int64 *max)
{
	HeapTuple	tup;
	Form_pg_operator form;
	const char *name;
	bool		guarded;

	if (cxt->dialect->range_guard_piece == NULL || opno >= FirstGenbkiObjectId)
		return false;
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	form = (Form_pg_operator) GETSTRUCT(tup);
	name = NameStr(form->oprname);
	guarded = (form->oprleft == INT2OID || form->oprleft == INT4OID ||
			   (form->oprleft == InvalidOid && strcmp(name, "-") == 0)) &&
		(form->oprright == INT2OID || form->oprright == INT4OID) &&
		(form->oprresult == INT2OID || form->oprresult == INT4OID) &&
		(strcmp(name, "+") == 0 || strcmp(name, "-") == 0 ||
		 strcmp(name, "*") == 0);
	if (guarded)
	{
		*min = form->oprresult == INT2OID ? PG_INT16_MIN : PG_INT32_MIN;
		*max = form->oprresult == INT2OID ? PG_INT16_MAX : PG_INT32_MAX;
	}
	ReleaseSysCache(tup);
	return guarded;
}

/* No operand needs a guard of its own (the guard repeats its operation). */
static bool
mf_operands_unguarded(MfDeparseCxt *cxt, List *args)
{
	ListCell   *lc;
	int64		min;
	int64		max;

	foreach(lc, args)
	{
		Node	   *arg = mf_strip_relabel(lfirst(lc));

		if (IsA(arg, OpExpr) &&
			mf_op_guard_range(cxt, ((OpExpr *) arg)->opno, &min, &max))
			return false;
	}
	return true;
}

static bool
mf_operator_shippable(MfDeparseCxt *cxt, Oid opno, Oid opfuncid,
					  Oid inputcollid, List *args)
{
	int64		min;
	int64		max;

	HeapTuple	tup;
	Form_pg_operator form;
	bool		ok;

	if (func_volatile(opfuncid) != PROVOLATILE_IMMUTABLE)
		return false;
	if (!mf_collation_safe(inputcollid, args))
		return false;
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	form = (Form_pg_operator) GETSTRUCT(tup);

	/*
	 * The dialect judges built-ins by name; a shipped extension's operator
	 * is the remote's own.
	 */
	if (opno >= FirstGenbkiObjectId)
		ok = mf_in_shipped_extension(cxt, OperatorRelationId, opno);
	else
		ok = cxt->dialect->operator_shippable(NameStr(form->oprname),
											  form->oprleft, form->oprright,
											  inputcollid) ||
			(mf_op_guard_range(cxt, opno, &min, &max) &&
			 mf_operands_unguarded(cxt, args));

	/*
	 * Where x % 0 is NULL rather than an error, % is the same only with a
	 * divisor known not to be zero: a non-null constant other than 0.
	 */
	if (ok && cxt->dialect->zero_divisor_gives_null &&
		strcmp(NameStr(form->oprname), "%") == 0)
	{
		Node	   *divisor = list_length(args) == 2 ?
			mf_strip_relabel(lsecond(args)) : NULL;

		ok = divisor != NULL && IsA(divisor, Const) &&
			!((Const *) divisor)->constisnull &&
			mf_const_is_nonzero_integer((Const *) divisor);
	}

	if (ok && strchr(NameStr(form->oprname), '?') != NULL &&
		cxt->baserel != NULL && cxt->baserel->fdw_private != NULL &&
		mf_rel_markers(cxt->baserel) == MF_MARKERS_POSITIONAL)
		ok = false;
	ReleaseSysCache(tup);
	return ok;
}

/* ---------------------------------------------------------------------
 * Aggregates
 * ---------------------------------------------------------------------
 */

const MfAggregate *
mf_find_aggregate(const MfDialect *dialect, Oid aggfnoid, Oid argtype)
{
	char	   *name;

	if (aggfnoid >= FirstGenbkiObjectId)
		return NULL;
	name = get_func_name(aggfnoid);
	if (name == NULL)
		return NULL;
	for (int i = 0; i < dialect->n_aggregates; i++)
	{
		const MfAggregate *a = &dialect->aggregates[i];

		if (strcmp(a->name, name) == 0 &&
			(a->argtype == InvalidOid || a->argtype == argtype))
			return a;
	}
	return NULL;
}

/* The one argument of agg, NULL for agg(*); false when there are more. */
bool
mf_aggref_arg(Aggref *agg, Node **arg)
{
	ListCell   *lc;

	*arg = NULL;
	foreach(lc, agg->args)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (tle->resjunk)
			continue;
		if (*arg != NULL)
			return false;
		*arg = (Node *) tle->expr;
	}
	return agg->aggstar ? *arg == NULL : *arg != NULL;
}

bool
mf_aggref_shippable(Aggref *agg, MfDeparseCxt *cxt)
{
	const MfDialect *d = cxt->dialect;
	const MfAggregate *a;
	Node	   *arg;
	bool		ok;

	/* plain aggregates only: no partial, ordered-set or sorted input */
	if (agg->aggsplit != AGGSPLIT_SIMPLE || agg->aggkind != AGGKIND_NORMAL ||
		agg->aggorder != NIL || agg->aggdirectargs != NIL ||
		agg->aggvariadic || agg->agglevelsup != 0)
		return false;
	if (agg->aggfilter != NULL && !d->aggregate_filter)
		return false;
	if (!mf_aggref_arg(agg, &arg))
		return false;
	a = mf_find_aggregate(d, agg->aggfnoid,
						  arg ? exprType(arg) : InvalidOid);
	if (a == NULL || (agg->aggdistinct != NIL && !a->distinct))
		return false;
	if (!d->type_shippable(agg->aggtype))
		return false;
	/* fetched as sum and count only as a whole output of the grouping */
	if (a->sum_count && cxt->whole != agg)
		return false;
	if (a->exact_decimal && !mf_decimal_sum_exact(arg, cxt))
		return false;

	/* no aggregate inside an aggregate */
	cxt->aggregates = false;
	ok = mf_expr_shippable(arg, cxt) &&
		mf_expr_shippable((Node *) agg->aggfilter, cxt);
	cxt->aggregates = true;
	if (!ok || (arg != NULL && mf_is_local_param(arg, d)))
		return false;

	if (arg != NULL && !mf_collation_safe(agg->inputcollid, list_make1(arg)))
		return false;
	if (arg != NULL && a->orders &&
		!mf_comparison_shippable(cxt, arg, agg->inputcollid, true))
		return false;
	if (arg != NULL && agg->aggdistinct != NIL &&
		!mf_comparison_shippable(cxt, arg, agg->inputcollid, false))
		return false;
	return true;
}

/*
 * x op ANY (array constant), for a dialect without arrays: the same test
 * spelled with the operator alone, "x op c1 OR x op c2 ..." (op ALL: AND),
 * which has the same answer in SQL's three values (a NULL element makes
 * an unmatched x NULL either way).  So an IN list (x = ANY), and a NOT IN
 * (x <> ALL), go wherever each comparison would go, by the same rules.
 * NULL for anything else: an array that is not a constant (a parameter),
 * NULL or empty, or longer than MF_ARRAY_EXPANDED_MAX.
 */
#define MF_ARRAY_EXPANDED_MAX	1000

Node *
mf_array_op_expanded(ScalarArrayOpExpr *op)
{
	Node	   *x = linitial(op->args);
	Node	   *a = mf_strip_relabel(lsecond(op->args));
	Const	   *arr;
	Oid			elemtype;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	List	   *ors = NIL;

	if (!IsA(a, Const) || ((Const *) a)->constisnull)
		return NULL;
	arr = (Const *) a;
	elemtype = get_element_type(arr->consttype);
	if (!OidIsValid(elemtype))
		return NULL;
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	deconstruct_array(DatumGetArrayTypeP(arr->constvalue), elemtype, typlen,
					  typbyval, typalign, &elems, &nulls, &n);
	if (n == 0 || n > MF_ARRAY_EXPANDED_MAX)
		return NULL;
	for (int i = 0; i < n; i++)
	{
		Const	   *c = makeConst(elemtype, -1, arr->constcollid, typlen,
								  elems[i], nulls[i], typbyval);
		OpExpr	   *e = (OpExpr *) make_opclause(op->opno, BOOLOID, false,
												 (Expr *) x, (Expr *) c,
												 InvalidOid, op->inputcollid);

		e->opfuncid = op->opfuncid;
		ors = lappend(ors, e);
	}
	if (n == 1)
		return linitial(ors);
	return (Node *) makeBoolExpr(op->useOr ? OR_EXPR : AND_EXPR, ors, -1);
}

/* ---------------------------------------------------------------------
 * Subqueries inside a condition, and the casts they need (written by
 * deparse_expr.c)
 * ---------------------------------------------------------------------
 */

/* A widening cast, where the dialect writes casts (its cast_param). */
bool
mf_widening_cast_shippable(FuncExpr *f, MfDeparseCxt *cxt)
{
	return cxt->dialect->cast_param != NULL && mf_is_widening_cast(f);
}

/*
 * A string, or an array of strings (text, varchar, char(n), name, "char"):
 * the remote column behind it may be another string type that compares
 * otherwise (char(n) ignores trailing blanks), and a subquery's value or
 * argument is compared as the remote's own, with no parameter's cast.
 */
static bool
mf_stringlike_type(Oid type)
{
	Oid			base = getBaseType(type);
	Oid			elem = get_element_type(base);
	char		category;
	bool		preferred;

	if (OidIsValid(elem))
		base = getBaseType(elem);
	get_type_category_preferred(base, &category, &preferred);
	return category == TYPCATEGORY_STRING;
}

/*
 * May subplan be written inside the condition of cxt's relation?  Only a
 * plain table's (not a join's or a grouping's, whose columns have their
 * own aliases), not one the statement changes or locks; a scalar subquery
 * (its one column the remote's own value, nothing checked or computed
 * here, one row at most, not a string) or an EXISTS; every parameter
 * one the SubPlan passes, from an expression that may itself be sent.
 */
bool
mf_subplan_shippable(SubPlan *subplan, MfDeparseCxt *cxt)
{
	PlannerInfo *subroot;
	ForeignScan *fs;
	const char *nested;
	int			ncols;
	MfRelInfo  *outer = cxt->baserel->fdw_private;
	MfRelInfo  *inner;
	RelOptInfo *innerrel;
	ListCell   *lc;
	int			relid;

	if (!cxt->dialect->nested_subqueries || !OidIsValid(cxt->relid) ||
		!cxt->conditions ||
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
	nested = mf_scan_nested_sql(fs, &ncols);
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
		TargetEntry *tle;
		Node	   *value;

		if (ncols != 1 || fs->scan.plan.targetlist == NIL)
			return false;
		tle = linitial_node(TargetEntry, fs->scan.plan.targetlist);
		value = (Node *) tle->expr;
		/* read as the remote's own text (mf_select_cast): not its value */
		if (cxt->dialect->select_as_text != NULL &&
			cxt->dialect->select_as_text(getBaseType(exprType(value))) != NULL)
			return false;

		/*
		 * One row at most, always: an aggregate without GROUP BY.  A
		 * subquery of more rows fails, and the remote would run it on rows
		 * that nothing here reads (under an EXISTS, or a LIMIT kept here),
		 * failing a query that does not fail here.  Before
		 * set_plan_references, the scan's first output is the expression
		 * its remote select list computes.
		 */
		if (fs->scan.scanrelid != 0 || !subroot->parse->hasAggs ||
			subroot->parse->groupClause != NIL ||
			subroot->parse->groupingSets != NIL ||
			subroot->parse->hasTargetSRFs ||
			list_length(fs->fdw_scan_tlist) != 1 ||
			!equal(value, linitial_node(TargetEntry, fs->fdw_scan_tlist)->expr))
			return false;
		if (!cxt->dialect->type_shippable(exprType(value)) ||
			mf_stringlike_type(exprType(value)))
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
	 * remote's types compare: not a string, which a parameter sends with
	 * its type and the remote column may hold as another (char(n), whose
	 * comparison ignores trailing blanks).
	 */
	foreach(lc, subplan->args)
		if (mf_stringlike_type(exprType(lfirst(lc))) ||
			!mf_expr_shippable(lfirst(lc), cxt))
			return false;
	return true;
}

/* ---------------------------------------------------------------------
 * Built-in functions, casts and conditional expressions
 * ---------------------------------------------------------------------
 */

/*
 * A built-in cast of one value (int4 to numeric, a char(n) as text) that
 * the dialect computes as we do (cast_shippable), written as the value and
 * the dialect's cast (cast_param).  Not a length coercion (varchar(n) of
 * an assignment fails where an explicit cast cuts), which has more
 * arguments.
 */
bool
mf_builtin_cast_shippable(FuncExpr *f, MfDeparseCxt *cxt)
{
	return cxt->dialect->cast_shippable != NULL &&
		cxt->dialect->cast_param != NULL &&
		(f->funcformat == COERCE_IMPLICIT_CAST ||
		 f->funcformat == COERCE_EXPLICIT_CAST) &&
		list_length(f->args) == 1 && f->funcid < FirstGenbkiObjectId &&
		!f->funcretset &&
		func_volatile(f->funcid) == PROVOLATILE_IMMUTABLE &&
		mf_type_shippable(cxt, f->funcresulttype) &&
		cxt->dialect->cast_shippable(exprType(linitial(f->args)),
									 f->funcresulttype);
}

/*
 * A call of a built-in function that the dialect says the remote computes
 * as we do (function_shippable), written by its name: a plain call, or
 * one of SQL's syntax (SUBSTRING(x FROM 1 FOR 2), EXTRACT(YEAR FROM d)).
 * The caller checks volatility, collation, result type and arguments.
 */
bool
mf_builtin_call_shippable(FuncExpr *f, MfDeparseCxt *cxt)
{
	return cxt->dialect->function_shippable != NULL &&
		f->funcid < FirstGenbkiObjectId &&
		(f->funcformat == COERCE_EXPLICIT_CALL ||
		 f->funcformat == COERCE_SQL_SYNTAX) &&
		cxt->dialect->function_shippable(f->funcid);
}

/*
 * A simple CASE's condition (CASE x WHEN v: the planner's CaseTestExpr =
 * v), written again as "WHEN v": the operator must be an equality whose
 * two inputs are of one type, the type of x and of v as they are written
 * (a string column cast to text: mf_deparse_compared), so that the remote
 * compares them with it.  The value v, or NULL.
 */
Node *
mf_case_when_value(CaseExpr *ce, Expr *cond)
{
	OpExpr	   *op;
	Node	   *test;
	Oid			left;
	Oid			right;
	const char *name;

	if (!IsA(cond, OpExpr) || list_length(((OpExpr *) cond)->args) != 2)
		return NULL;
	op = (OpExpr *) cond;
	test = mf_strip_relabel(linitial(op->args));
	if (!IsA(test, CaseTestExpr))
		return NULL;
	op_input_types(op->opno, &left, &right);
	name = get_opname(op->opno);
	if (name == NULL || strcmp(name, "=") != 0 || left != right ||
		!(getBaseType(exprType((Node *) ce->arg)) == left ||
		  (mf_is_text_type(left) &&
		   mf_is_text_type(getBaseType(exprType((Node *) ce->arg))))))
		return NULL;
	if (exprType(mf_strip_relabel(lsecond(op->args))) != left &&
		!(mf_is_text_type(left) &&
		  mf_is_text_type(exprType(mf_strip_relabel(lsecond(op->args))))))
		return NULL;
	return lsecond(op->args);
}

/*
 * CASE: written as it is, its value once (CASE x WHEN v ...).  What it may
 * not evaluate (a result, a condition after the first, the default) is
 * conditional: nothing in it is computed here in advance (cxt->conditional),
 * as it would be for every row, taken or not, and fail where the query
 * does not (a division by zero in a branch no row takes).
 */
static bool
mf_case_shippable(CaseExpr *ce, MfDeparseCxt *cxt)
{
	ListCell   *lc;
	bool		ok;

	if (!cxt->dialect->conditional_expressions ||
		!mf_type_shippable(cxt, ce->casetype))
		return false;
	ok = ce->arg == NULL ||
		(!contain_subplans((Node *) ce->arg) &&
		 mf_expr_shippable((Node *) ce->arg, cxt));
	foreach(lc, ce->args)
	{
		CaseWhen   *w = lfirst_node(CaseWhen, lc);
		Node	   *cond = (Node *) w->expr;

		if (!ok)
			break;
		if (ce->arg != NULL &&
			(cond = mf_case_when_value(ce, w->expr)) == NULL)
			return false;
		if (lc != list_head(ce->args))
			cxt->conditional++;
		ok = mf_expr_shippable(cond, cxt);
		if (lc != list_head(ce->args))
			cxt->conditional--;
		cxt->conditional++;
		ok = ok && mf_expr_shippable((Node *) w->result, cxt);
		cxt->conditional--;
	}
	cxt->conditional++;
	ok = ok && mf_expr_shippable((Node *) ce->defresult, cxt);
	cxt->conditional--;
	return ok;
}

/* May every argument go? */
static bool
mf_args_shippable(List *args, MfDeparseCxt *cxt)
{
	ListCell   *lc;

	foreach(lc, args)
		if (!mf_expr_shippable(lfirst(lc), cxt))
			return false;
	return true;
}

bool
mf_expr_shippable(Node *node, MfDeparseCxt *cxt)
{
	ListCell   *lc;

	if (node == NULL)
		return true;
	if (cxt->level != NULL &&
		(IsA(node, Param) || IsA(node, SubPlan) ||
		 IsA(node, AlternativeSubPlan) || IsA(node, WindowFunc)))
		return cxt->level->node_shippable(node, cxt);

	switch (nodeTag(node))
	{
		case T_Var:
			{
				Var		   *var = (Var *) node;

				/* only ordinary columns of the scanned relation */
				if (var->vartype == BOOLOID && !cxt->dialect->boolean_conditions)
					break;
				return mf_var_is_scanned(var, cxt) &&
					mf_type_shippable(cxt, var->vartype);
			}
		case T_Const:
			{
				Const	   *c = (Const *) node;

				if (!mf_type_shippable(cxt, c->consttype))
					return false;
				if (c->constisnull || cxt->dialect->const_shippable == NULL)
					return mf_decimal_exact(node, cxt);
				return cxt->dialect->const_shippable(c->consttype,
													 mf_const_text(c)) &&
					mf_decimal_exact(node, cxt);
			}
		case T_Param:
			{
				Param	   *p = (Param *) node;

				/*
				 * A PARAM_EXEC one may be an initplan's, run when the scan
				 * begins: not where the query may never evaluate it.
				 */
				return (p->paramkind == PARAM_EXTERN ||
						(p->paramkind == PARAM_EXEC && cxt->conditional == 0)) &&
					mf_type_shippable(cxt, p->paramtype);
			}
		case T_RelabelType:
			{
				RelabelType *r = (RelabelType *) node;

				/* one that changes the meaning is written as a cast */
				if (mf_relabel_changes_meaning(r) &&
					(cxt->dialect->cast_param == NULL ||
					 !mf_type_shippable(cxt, getBaseType(r->resulttype))))
					break;
				return mf_expr_shippable((Node *) r->arg, cxt);
			}
		case T_FuncExpr:
			{
				/* only the immutable functions of a shipped extension */
				FuncExpr   *f = (FuncExpr *) node;

				if (mf_widening_cast_shippable(f, cxt) ||
					mf_builtin_cast_shippable(f, cxt))
					return mf_expr_shippable(linitial(f->args), cxt);
				if (f->funcretset || f->funcvariadic ||
					func_volatile(f->funcid) != PROVOLATILE_IMMUTABLE ||
					!mf_collation_safe(f->inputcollid, f->args) ||
					!mf_type_shippable(cxt, f->funcresulttype))
					break;
				if (!(f->funcformat == COERCE_EXPLICIT_CALL &&
					  mf_in_shipped_extension(cxt, ProcedureRelationId,
											  f->funcid)) &&
					!mf_builtin_call_shippable(f, cxt))
					break;
				return mf_args_shippable(f->args, cxt);
			}
		case T_CaseExpr:
			return mf_case_shippable((CaseExpr *) node, cxt);
		case T_CoalesceExpr:
			{
				bool		ok = true;

				if (!cxt->dialect->conditional_expressions ||
					!mf_type_shippable(cxt, ((CoalesceExpr *) node)->coalescetype))
					break;
				/* past the first, an argument is conditional (CASE's) */
				foreach(lc, ((CoalesceExpr *) node)->args)
				{
					cxt->conditional += lc != list_head(((CoalesceExpr *) node)->args);
					ok = ok && mf_expr_shippable(lfirst(lc), cxt);
				}
				cxt->conditional -= list_length(((CoalesceExpr *) node)->args) - 1;
				return ok;
			}
		case T_NullIfExpr:
			{
				NullIfExpr *op = (NullIfExpr *) node;

				if (!cxt->dialect->conditional_expressions ||
					!mf_type_shippable(cxt, op->opresulttype) ||
					!mf_operator_shippable(cxt, op->opno, op->opfuncid,
										   op->inputcollid, op->args))
					break;
				return mf_args_shippable(op->args, cxt);
			}
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) node;

				bool		trimmed;
				bool		negated;

				if (mf_text_equality_shippable(op, cxt) ||
					mf_text_bytes_equality(op->opno, op->inputcollid,
										   op->args, cxt, &trimmed) ||
					mf_text_like(op->opno, op->inputcollid, op->args, cxt,
								 &negated))
					return true;
				if (!mf_operator_shippable(cxt, op->opno, op->opfuncid,
										   op->inputcollid, op->args) ||
					!mf_decimal_exact(node, cxt))
					break;
				return mf_args_shippable(op->args, cxt);
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *op = (ScalarArrayOpExpr *) node;

				if (!cxt->dialect->supports_arrays)
				{
					Node	   *e = mf_array_op_expanded(op);

					return e != NULL && mf_expr_shippable(e, cxt);
				}
				if (!op->useOr ||
					!mf_operator_shippable(cxt, op->opno, op->opfuncid,
										   op->inputcollid, op->args))
					break;
				return mf_args_shippable(op->args, cxt);
			}
		case T_BoolExpr:
			return mf_args_shippable(((BoolExpr *) node)->args, cxt);
		case T_NullTest:
			if (((NullTest *) node)->argisrow)
				break;
			return mf_expr_shippable((Node *) ((NullTest *) node)->arg, cxt);
		case T_Aggref:
			return cxt->aggregates && mf_aggref_shippable((Aggref *) node, cxt);
		case T_SubPlan:
			return mf_subplan_shippable((SubPlan *) node, cxt);
		default:
			break;
	}
	return mf_cxt_local_param(node, cxt);
}

static bool
mf_is_foreign(PlannerInfo *root, RelOptInfo *baserel, Expr *expr,
			  bool conditions)
{
	MfDeparseCxt cxt;

	mf_deparse_cxt_init(&cxt, root, baserel, NULL, NULL);
	cxt.conditions = conditions;
	return mf_expr_shippable((Node *) expr, &cxt);
}

bool
mf_is_foreign_expr(PlannerInfo *root, RelOptInfo *baserel, Expr *expr)
{
	return mf_is_foreign(root, baserel, expr, false);
}

/*
 * The same for a condition of the relation's own query (WHERE), the one
 * place a subquery may be written inside it (mf_subplan_shippable): not a
 * sort key, a grouping key or a new value, whose query does not name the
 * outer table r0.
 */
bool
mf_is_foreign_cond(PlannerInfo *root, RelOptInfo *baserel, Expr *expr)
{
	return mf_is_foreign(root, baserel, expr, true);
}

void
mf_classify_conditions(PlannerInfo *root, RelOptInfo *baserel,
					   List *input_conds, List **remote_conds,
					   List **local_conds)
{
	ListCell   *lc;

	*remote_conds = NIL;
	*local_conds = NIL;
	foreach(lc, input_conds)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (mf_is_foreign_cond(root, baserel, ri->clause))
			*remote_conds = lappend(*remote_conds, ri);
		else
			*local_conds = lappend(*local_conds, ri);
	}
}
