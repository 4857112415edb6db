/*-------------------------------------------------------------------------
 *
 * deparse_expr.c
 *		An expression that deparse_ship.c found shippable, written down in
 *		the dialect's grammar: columns, constants, parameters and the
 *		placeholders of values computed locally, operators, functions,
 *		aggregates; and a relation's conditions as a WHERE list.
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
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
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

static void mf_deparse_call(const char *name, List *args, bool coalesce,
							MfDeparseCxt *cxt);
static void mf_deparse_func(FuncExpr *f, MfDeparseCxt *cxt);
static void mf_deparse_case(CaseExpr *ce, MfDeparseCxt *cxt);

/* ---------------------------------------------------------------------
 * Expressions
 * ---------------------------------------------------------------------
 */
/*
 * A parameter's marker.  A numbered marker reuses the number of an equal
 * expression; a positional one takes a parameter of its own, so that
 * params_list holds one value per marker, in the order they appear (the
 * expressions are written left to right, and nothing is written out of
 * that order).  Without a params_list (a query the remote is asked to
 * estimate) the value is written as one the remote cannot know.
 */
static void
mf_deparse_placeholder(Node *node, MfDeparseCxt *cxt)
{
	const MfDialect *d = cxt->dialect;
	int			number = 0;
	ListCell   *lc;

	/* no parameter list: a query for the remote to estimate, not to run */
	if (cxt->params_list == NULL)
	{
		Assert(d->deparse_unknown_value != NULL);
		d->deparse_unknown_value(cxt->buf, exprType(node), exprTypmod(node));
		return;
	}
	if (cxt->markers == MF_MARKERS_NUMBERED)
	{
		int			i = 1;

		foreach(lc, *cxt->params_list)
		{
			if (equal(lfirst(lc), node))
			{
				number = i;
				break;
			}
			i++;
		}
	}
	if (number == 0)
	{
		*cxt->params_list = lappend(*cxt->params_list, node);
		number = list_length(*cxt->params_list);
	}

	/* a subquery's nested form: the number alone, between marks */
	if (mf_deparse_nesting())
	{
		appendStringInfo(cxt->buf, "%c%d%c", MF_NESTED_MARK, number,
						 MF_NESTED_MARK);
		return;
	}
	mf_append_marker(cxt->buf, cxt->markers, number);
	if (d->cast_param)
		d->cast_param(cxt->buf, exprType(node), exprTypmod(node));
}

static void
mf_deparse_const(Const *c, MfDeparseCxt *cxt, bool beside_column)
{
	char	   *value;

	if (c->constisnull)
	{
		appendStringInfoString(cxt->buf, "NULL");
		return;
	}
	value = mf_const_text(c);

	if (beside_column && cxt->dialect->deparse_const_beside_column)
	{
		cxt->dialect->deparse_const_beside_column(cxt->buf, c->consttype,
												  c->consttypmod, value);
		return;
	}
	if (cxt->dialect->deparse_const)
	{
		cxt->dialect->deparse_const(cxt->buf, c->consttype, c->consttypmod, value);
		return;
	}
	switch (mf_type_class(c->consttype))
	{
		case MF_TYPE_INT:
		case MF_TYPE_NUMERIC:
		case MF_TYPE_FLOAT:
			appendStringInfo(cxt->buf, value[0] == '-' ? "(%s)" : "%s", value);
			break;
		case MF_TYPE_BOOL:
			appendStringInfoString(cxt->buf, value[0] == 't' ? "1" : "0");
			break;
		default:
			cxt->dialect->quote_literal(cxt->buf, value);
			break;
	}
}

/*
 * A column of the scanned table, seen through at most an implicit
 * binary-compatible cast (varchar compared as text), which prints as the
 * column itself.
 */
static bool
mf_is_plain_column(Node *node, MfDeparseCxt *cxt)
{
	if (IsA(node, RelabelType) &&
		((RelabelType *) node)->relabelformat == COERCE_IMPLICIT_CAST &&
		!mf_relabel_changes_meaning((RelabelType *) node))
		node = (Node *) ((RelabelType *) node)->arg;
	return IsA(node, Var) && mf_var_is_scanned((Var *) node, cxt);
}

/*
 * One operand; a constant beside a column of its type may stay untyped,
 * as may the array of constants of ANY (any) beside a column of its
 * elements' type.
 */
static void
mf_deparse_operand(Node *arg, Node *other, bool any, MfDeparseCxt *cxt)
{
	if (IsA(arg, Const) && other != NULL &&
		(any ? get_element_type(exprType(arg)) : exprType(arg)) == exprType(other) &&
		mf_is_plain_column(other, cxt))
		mf_deparse_const((Const *) arg, cxt, true);
	else
		mf_deparse_node(arg, cxt);
}

/*
 * An operator's name; one outside pg_catalog (an extension's) qualified,
 * since the remote's search_path is pg_catalog alone.
 */
char *
mf_operator_name(Oid opno)
{
	HeapTuple	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	Form_pg_operator form;
	char	   *name;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	form = (Form_pg_operator) GETSTRUCT(tup);
	if (form->oprnamespace == PG_CATALOG_NAMESPACE)
		name = pstrdup(NameStr(form->oprname));
	else
		name = psprintf("OPERATOR(%s.%s)",
						quote_identifier(get_namespace_name(form->oprnamespace)),
						NameStr(form->oprname));
	ReleaseSysCache(tup);
	return name;
}

/*
 * A column of the scanned relation, seen through binary-compatible casts,
 * that the remote compares as ours only through the dialect's
 * compare_cast (a text column over a remote enum), or NULL.
 */
static Var *
mf_compared_column(Node *node, MfDeparseCxt *cxt)
{
	Node	   *arg = mf_strip_relabel(node);

	if (arg == NULL || !IsA(arg, Var) || !mf_var_is_scanned((Var *) arg, cxt) ||
		mf_compare_cast(cxt->dialect, ((Var *) arg)->vartype) == NULL)
		return NULL;
	return (Var *) arg;
}

/*
 * node where the remote compares it under collation collid (InvalidOid:
 * only for equality): a column of the scanned relation cast as the
 * dialect says (mf_append_compared), anything else as it is.
 */
void
mf_deparse_compared(Node *node, Oid collid, MfDeparseCxt *cxt)
{
	Var		   *var = mf_compared_column(node, cxt);
	StringInfo	buf = cxt->buf;
	StringInfoData col;

	if (var == NULL)
	{
		mf_deparse_node(node, cxt);
		return;
	}
	initStringInfo(&col);
	cxt->buf = &col;
	mf_deparse_var(var, cxt);
	cxt->buf = buf;
	mf_append_compared(buf, col.data, var->vartype, collid, var->varcollid,
					   cxt->dialect);
	pfree(col.data);
}

/*
 * Does the operator order its operands: <, <=, >, >=, and the pattern
 * operators of text_pattern_ops?
 */
static bool
mf_ordering_operator(const char *opname)
{
	static const char *const ordering[] = {
		"<", "<=", ">", ">=", "~<~", "~<=~", "~>=~", "~>~"
	};

	for (size_t i = 0; i < lengthof(ordering); i++)
		if (strcmp(opname, ordering[i]) == 0)
			return true;
	return false;
}

/* A value computed here and sent as a parameter (or its marker's estimate). */
static bool
mf_is_sent_value(Node *node, MfDeparseCxt *cxt)
{
	node = mf_strip_relabel(node);
	return node != NULL &&
		(IsA(node, Param) || mf_cxt_local_param(node, cxt));
}

/*
 * One operand of a binary operator (the array of ANY for the right one
 * where any): a column of ours goes through the dialect's compare_cast
 * where the operator orders (under the operator's collation) or the other
 * operand is a parameter, whose type the cast makes the remote's operand
 * match; a constant beside a column may stay untyped.
 */
static void
mf_deparse_op_operand(Node *arg, Node *other, bool ordering, Oid inputcollid,
					  bool any, MfDeparseCxt *cxt)
{
	if (mf_compared_column(arg, cxt) != NULL &&
		(ordering || mf_is_sent_value(other, cxt)))
		mf_deparse_compared(arg, ordering ? inputcollid : InvalidOid, cxt);
	else
		mf_deparse_operand(arg, other, any, cxt);
}

/*
 * node written where one of the dialect's text formats (text_bytes_fmt and
 * the others, one %s) wraps it: through text_convert_fmt first, or through
 * text_native_fmt if it is a column in text_native_charset already.
 */
void
mf_deparse_text_through(Node *node, const char *fmt, MfDeparseCxt *cxt)
{
	StringInfo	buf = cxt->buf;
	StringInfoData operand;
	StringInfoData inner;
	const char *first = mf_text_native_column(node, cxt) ?
		cxt->dialect->text_native_fmt : cxt->dialect->text_convert_fmt;

	initStringInfo(&operand);
	initStringInfo(&inner);
	cxt->buf = &inner;
	mf_deparse_node(node, cxt);
	cxt->buf = buf;
	appendStringInfo(&operand, first != NULL ? first : "%s", inner.data);
	appendStringInfo(buf, fmt, operand.data);
	pfree(inner.data);
	pfree(operand.data);
}

/*
 * An operand of = or <> on text that the dialect compares byte for byte
 * (mf_text_bytes_equality), through its format.
 */
static void
mf_deparse_text_bytes(Node *arg, bool trimmed, MfDeparseCxt *cxt)
{
	mf_deparse_text_through(arg, trimmed ? cxt->dialect->text_trimmed_bytes_fmt :
							cxt->dialect->text_bytes_fmt, cxt);
}

/*
 * An IN list (or NOT IN) of a column compared as bytes with constants, as
 * mf_array_op_expanded spells it ("c = v1 OR c = v2 ..."): written as
 * one IN, the column converted once rather than once per value (MySQL
 * then searches the sorted values).  The same answer in SQL's three
 * values.  false: e is not such a list.
 */
static bool
mf_deparse_text_bytes_in(Node *e, MfDeparseCxt *cxt)
{
	BoolExpr   *b = (BoolExpr *) e;
	Node	   *column = NULL;
	bool		trimmed = false;
	ListCell   *lc;

	if (!IsA(e, BoolExpr) || b->boolop == NOT_EXPR || list_length(b->args) < 2)
		return false;
	foreach(lc, b->args)
	{
		OpExpr	   *op = lfirst(lc);
		const char *opname;

		if (!IsA(op, OpExpr) ||
			mf_text_marked_equality(op->opno, op->inputcollid, op->args, cxt) ||
			!mf_text_bytes_equality(op->opno, op->inputcollid, op->args, cxt,
									&trimmed) ||
			(column != NULL && !equal(column, linitial(op->args))))
			return false;
		opname = get_opname(op->opno);
		if (opname == NULL ||
			strcmp(opname, b->boolop == OR_EXPR ? "=" : "<>") != 0)
			return false;
		column = linitial(op->args);
	}
	appendStringInfoChar(cxt->buf, '(');
	mf_deparse_text_bytes(column, trimmed, cxt);
	appendStringInfoString(cxt->buf, b->boolop == OR_EXPR ? " IN (" : " NOT IN (");
	foreach(lc, b->args)
	{
		if (lc != list_head(b->args))
			appendStringInfoString(cxt->buf, ", ");
		mf_deparse_text_bytes(lsecond(((OpExpr *) lfirst(lc))->args), trimmed,
							  cxt);
	}
	appendStringInfoString(cxt->buf, "))");
	return true;
}

static void
mf_deparse_op(Oid opno, Oid inputcollid, List *args, MfDeparseCxt *cxt,
			  bool any)
{
	char	   *opname = mf_operator_name(opno);
	bool		ordering = mf_ordering_operator(opname);
	bool		trimmed;
	bool		negated;

	/* a pattern the dialect matches through its text_like_fmt */
	if (!any && mf_text_like(opno, inputcollid, args, cxt, &negated))
	{
		appendStringInfoChar(cxt->buf, '(');
		mf_deparse_text_through(linitial(args), cxt->dialect->text_like_fmt,
								cxt);
		appendStringInfoString(cxt->buf, negated ? " NOT LIKE " : " LIKE ");
		mf_deparse_node(lsecond(args), cxt);
		if (cxt->dialect->text_like_escape != NULL)
			appendStringInfoString(cxt->buf, cxt->dialect->text_like_escape);
		appendStringInfoChar(cxt->buf, ')');
		return;
	}

	/* columns marked text_pushdown alone compare as they are */
	if (!any && list_length(args) == 2 &&
		!mf_text_marked_equality(opno, inputcollid, args, cxt) &&
		mf_text_bytes_equality(opno, inputcollid, args, cxt, &trimmed))
	{
		appendStringInfoChar(cxt->buf, '(');
		mf_deparse_text_bytes(linitial(args), trimmed, cxt);
		appendStringInfo(cxt->buf, " %s ", opname);
		mf_deparse_text_bytes(lsecond(args), trimmed, cxt);
		appendStringInfoChar(cxt->buf, ')');
		return;
	}

	appendStringInfoChar(cxt->buf, '(');
	if (list_length(args) == 2)
	{
		mf_deparse_op_operand(linitial(args), lsecond(args), ordering,
							  inputcollid, false, cxt);
		appendStringInfo(cxt->buf, " %s ", opname);
		if (any)
			appendStringInfoString(cxt->buf, "ANY (");
		mf_deparse_op_operand(lsecond(args), linitial(args), ordering,
							  inputcollid, any, cxt);
		if (any)
			appendStringInfoChar(cxt->buf, ')');
	}
	else
	{
		appendStringInfoString(cxt->buf, opname);
		appendStringInfoChar(cxt->buf, ' ');
		mf_deparse_node(llast(args), cxt);
	}
	appendStringInfoChar(cxt->buf, ')');
}

/*
 * A column of the scanned relation: rN.col in a join.  A whole row of a
 * joined table, which only a join's select list asks for (join.c, where
 * the dialect has whole_row), is ROW(rN.c1, rN.c2, ...) of its columns as
 * declared here, in their order, which record_in reads as the table's row
 * type; under CASE WHEN (rN.*)::text IS NOT NULL, so that it is NULL where
 * an outer join null-extends the table, and not a row of NULLs (the text
 * of a remote row is NULL only then), as postgres_fdw writes it.
 */
void
mf_deparse_var(Var *var, MfDeparseCxt *cxt)
{
	Relation	rel;
	TupleDesc	tupdesc;
	bool		first = true;

	if (cxt->level != NULL)
	{
		cxt->level->deparse_node((Node *) var, cxt);
		return;
	}

	if (var->varattno != 0)
	{
		if (cxt->outer_alias)
			appendStringInfoString(cxt->buf, "r0.");
		else if (cxt->qualify)
			appendStringInfo(cxt->buf, "r%d.", var->varno);
		mf_deparse_column(cxt->buf, mf_var_relid(var, cxt), var->varattno,
						  cxt->dialect);
		return;
	}
	if (!cxt->qualify || !cxt->dialect->whole_row)
		elog(ERROR, "a whole-row reference is not shipped to dialect %s",
			 cxt->dialect->name);

	rel = table_open(mf_var_relid(var, cxt), NoLock);
	tupdesc = RelationGetDescr(rel);
	appendStringInfo(cxt->buf, "CASE WHEN (r%d.*)::text IS NOT NULL THEN ROW(",
					 var->varno);
	for (int i = 1; i <= tupdesc->natts; i++)
	{
		if (TupleDescAttr(tupdesc, i - 1)->attisdropped)
			continue;
		if (!first)
			appendStringInfoString(cxt->buf, ", ");
		appendStringInfo(cxt->buf, "r%d.", var->varno);
		mf_deparse_column(cxt->buf, RelationGetRelid(rel), i, cxt->dialect);
		first = false;
	}
	appendStringInfoString(cxt->buf, ") END");
	table_close(rel, NoLock);
}

void
mf_deparse_aggref(Aggref *agg, MfDeparseCxt *cxt)
{
	Node	   *arg;
	const MfAggregate *a;

	if (!mf_aggref_arg(agg, &arg))
		elog(ERROR, "aggregate of several arguments is not shipped");
	a = mf_find_aggregate(cxt->dialect, agg->aggfnoid,
						  arg ? exprType(arg) : InvalidOid);
	if (a == NULL || a->sum_count)
		elog(ERROR, "aggregate %u is not shipped", agg->aggfnoid);

	appendStringInfo(cxt->buf, "%s(", a->remote);
	if (agg->aggdistinct != NIL)
		appendStringInfoString(cxt->buf, "DISTINCT ");
	if (arg == NULL)
		appendStringInfoChar(cxt->buf, '*');
	else if (a->arg_cast != NULL)
	{
		appendStringInfoString(cxt->buf, "CAST(");
		mf_deparse_node(arg, cxt);
		appendStringInfo(cxt->buf, " AS %s)", a->arg_cast);
	}
	else if (a->orders)
		mf_deparse_compared(arg, agg->inputcollid, cxt);
	else
		mf_deparse_node(arg, cxt);
	if (agg->aggfilter != NULL)
	{
		appendStringInfoString(cxt->buf, ") FILTER (WHERE ");
		mf_deparse_node((Node *) agg->aggfilter, cxt);
	}
	appendStringInfoChar(cxt->buf, ')');
}

/*
 * An output of a grouping that is an aggregate the dialect fetches as sum
 * and count (avg): written as the two, "SUM(x), COUNT(x)", DISTINCT and
 * FILTER on both; false (nothing written) for any other.
 */
bool
mf_deparse_sum_count(Node *node, MfDeparseCxt *cxt)
{
	Aggref	   *agg;
	Node	   *arg;
	const MfAggregate *a;

	if (!IsA(node, Aggref))
		return false;
	agg = (Aggref *) node;
	if (!mf_aggref_arg(agg, &arg) || arg == NULL)
		return false;
	a = mf_find_aggregate(cxt->dialect, agg->aggfnoid, exprType(arg));
	if (a == NULL || !a->sum_count)
		return false;
	for (int part = 0; part < 2; part++)
	{
		appendStringInfo(cxt->buf, "%s%s(%s", part == 0 ? "" : ", ",
						 part == 0 ? a->remote : "COUNT",
						 agg->aggdistinct != NIL ? "DISTINCT " : "");
		mf_deparse_node(arg, cxt);
		if (agg->aggfilter != NULL)
		{
			appendStringInfoString(cxt->buf, ") FILTER (WHERE ");
			mf_deparse_node((Node *) agg->aggfilter, cxt);
		}
		appendStringInfoChar(cxt->buf, ')');
	}
	return true;
}

/*
 * An item of a select list: cast to text where the dialect wants the
 * remote's own text of its type (select_as_text).
 */
void
mf_deparse_selected(Node *node, MfDeparseCxt *cxt)
{
	const char *cast = mf_select_cast(cxt->dialect, exprType(node));

	if (cast == NULL)
	{
		mf_deparse_node(node, cxt);
		return;
	}
	appendStringInfoChar(cxt->buf, '(');
	mf_deparse_node(node, cxt);
	appendStringInfo(cxt->buf, ")::%s AS %s", cast, MF_SELECTED_TEXT_ALIAS);
}

void
mf_deparse_node(Node *node, MfDeparseCxt *cxt)
{
	ListCell   *lc;

	if (mf_cxt_local_param(node, cxt))
	{
		mf_deparse_placeholder(node, cxt);
		return;
	}
	if (cxt->level != NULL &&
		(IsA(node, Var) || IsA(node, SubPlan) ||
		 IsA(node, AlternativeSubPlan) || IsA(node, WindowFunc) ||
		 (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXEC)))
	{
		cxt->level->deparse_node(node, cxt);
		return;
	}

	switch (nodeTag(node))
	{
		case T_Var:
			mf_deparse_var((Var *) node, cxt);
			break;
		case T_Const:
			mf_deparse_const((Const *) node, cxt, false);
			break;
		case T_Param:
			mf_deparse_placeholder(node, cxt);
			break;
		case T_RelabelType:
			{
				RelabelType *r = (RelabelType *) node;

				/* the cast written where it changes the meaning */
				if (!mf_relabel_changes_meaning(r))
				{
					mf_deparse_node((Node *) r->arg, cxt);
					break;
				}
				appendStringInfoChar(cxt->buf, '(');
				mf_deparse_node((Node *) r->arg, cxt);
				appendStringInfoChar(cxt->buf, ')');
				cxt->dialect->cast_param(cxt->buf, getBaseType(r->resulttype), -1);
				break;
			}
		case T_FuncExpr:
			if (mf_widening_cast_shippable((FuncExpr *) node, cxt) ||
				mf_builtin_cast_shippable((FuncExpr *) node, cxt))
				mf_deparse_cast((FuncExpr *) node, cxt);
			else
				mf_deparse_func((FuncExpr *) node, cxt);
			break;
		case T_CaseExpr:
			mf_deparse_case((CaseExpr *) node, cxt);
			break;
		case T_CoalesceExpr:
			mf_deparse_call("COALESCE", ((CoalesceExpr *) node)->args, true,
							cxt);
			break;
		case T_NullIfExpr:
			mf_deparse_call("NULLIF", ((NullIfExpr *) node)->args, false, cxt);
			break;
		case T_SubPlan:
			mf_deparse_subplan((SubPlan *) node, cxt);
			break;
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) node;
				int64		min;
				int64		max;
				const char *piece;

				if (!mf_op_guard_range(cxt, op->opno, &min, &max))
				{
					mf_deparse_op(op->opno, op->inputcollid, op->args, cxt, false);
					break;
				}
				for (int i = 0;
					 (piece = cxt->dialect->range_guard_piece(i, min, max)) != NULL;
					 i++)
				{
					if (i > 0)
						mf_deparse_op(op->opno, op->inputcollid, op->args, cxt, false);
					appendStringInfoString(cxt->buf, piece);
				}
				break;
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *op = (ScalarArrayOpExpr *) node;

				if (!cxt->dialect->supports_arrays)
				{
					Node	   *e = mf_array_op_expanded(op);

					if (e == NULL)
						elog(ERROR, "array comparison is not shipped");
					if (!mf_deparse_text_bytes_in(e, cxt))
						mf_deparse_node(e, cxt);
					break;
				}
				if (!op->useOr)
					elog(ERROR, "ALL (array) is not shipped");
				mf_deparse_op(op->opno, op->inputcollid, op->args, cxt, true);
				break;
			}
		case T_BoolExpr:
			{
				BoolExpr   *b = (BoolExpr *) node;
				const char *sep = b->boolop == AND_EXPR ? " AND " : " OR ";
				bool		first = true;

				if (b->boolop == NOT_EXPR)
				{
					appendStringInfoString(cxt->buf, "(NOT ");
					mf_deparse_node(linitial(b->args), cxt);
					appendStringInfoChar(cxt->buf, ')');
					break;
				}
				appendStringInfoChar(cxt->buf, '(');
				foreach(lc, b->args)
				{
					if (!first)
						appendStringInfoString(cxt->buf, sep);
					mf_deparse_node(lfirst(lc), cxt);
					first = false;
				}
				appendStringInfoChar(cxt->buf, ')');
				break;
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) node;

				appendStringInfoChar(cxt->buf, '(');
				mf_deparse_node((Node *) nt->arg, cxt);
				appendStringInfoString(cxt->buf, nt->nulltesttype == IS_NULL ?
									   " IS NULL)" : " IS NOT NULL)");
				break;
			}
		case T_Aggref:
			mf_deparse_aggref((Aggref *) node, cxt);
			break;
		default:
			elog(ERROR, "unsupported expression type for deparse: %d",
				 (int) nodeTag(node));
	}
}

void
mf_deparse_expr(StringInfo buf, PlannerInfo *root, RelOptInfo *baserel,
				Expr *expr, List **params_list)
{
	MfDeparseCxt cxt;

	mf_deparse_cxt_init(&cxt, root, baserel, buf, params_list);
	mf_deparse_node((Node *) expr, &cxt);
}

/* Append " <keyword> c1 AND c2 ..." for a list of RestrictInfos or Exprs. */
void
mf_deparse_conditions(StringInfo buf, PlannerInfo *root, RelOptInfo *baserel,
					  List *conds, const char *keyword, List **params_list)
{
	ListCell   *lc;
	bool		first = true;

	foreach(lc, conds)
	{
		Expr	   *expr = lfirst(lc);

		if (IsA(expr, RestrictInfo))
			expr = ((RestrictInfo *) expr)->clause;
		appendStringInfoString(buf, first ? keyword : " AND ");
		mf_deparse_expr(buf, root, baserel, expr, params_list);
		first = false;
	}
}

/* ---------------------------------------------------------------------
 * Casts, function calls and conditional expressions
 * ---------------------------------------------------------------------
 */

/* (x), then the dialect's cast to the result type, as after a marker */
void
mf_deparse_cast(FuncExpr *f, MfDeparseCxt *cxt)
{
	appendStringInfoChar(cxt->buf, '(');
	mf_deparse_node(linitial(f->args), cxt);
	appendStringInfoChar(cxt->buf, ')');
	cxt->dialect->cast_param(cxt->buf, f->funcresulttype, -1);
}

/*
 * A value among others of which the remote picks one (a CASE's result,
 * COALESCE's or NULLIF's argument): a string column as the remote
 * compares it (mf_deparse_compared: a remote enum behind a text column
 * cast to text, so that its value is of the type of a text constant beside
 * it); a NULL with its type, which the remote would otherwise take for
 * text where every value is NULL.
 */
static void
mf_deparse_choice(Node *node, MfDeparseCxt *cxt)
{
	if (IsA(node, Const) && ((Const *) node)->constisnull &&
		cxt->dialect->cast_param != NULL)
	{
		appendStringInfoString(cxt->buf, "NULL");
		cxt->dialect->cast_param(cxt->buf, ((Const *) node)->consttype,
								 ((Const *) node)->consttypmod);
		return;
	}
	mf_deparse_compared(node, InvalidOid, cxt);
}

/*
 * COALESCE(a, b, ...) or NULLIF(a, b).  COALESCE's arguments past the
 * first are conditional (deparse_ship.c, mf_case_shippable).
 */
static void
mf_deparse_call(const char *name, List *args, bool coalesce,
				MfDeparseCxt *cxt)
{
	ListCell   *lc;

	appendStringInfo(cxt->buf, "%s(", name);
	foreach(lc, args)
	{
		bool		later = coalesce && lc != list_head(args);

		if (lc != list_head(args))
			appendStringInfoString(cxt->buf, ", ");
		cxt->conditional += later;
		mf_deparse_choice(lfirst(lc), cxt);
		cxt->conditional -= later;
	}
	appendStringInfoChar(cxt->buf, ')');
}

/*
 * EXTRACT(field FROM x)'s field, when it is a constant word: SQL's syntax,
 * which every PostgreSQL reads (EXTRACT is a function only since 14).
 */
static const char *
mf_extract_field(FuncExpr *f)
{
	Const	   *field;
	char	   *word;

	if (f->funcformat != COERCE_SQL_SYNTAX || list_length(f->args) != 2 ||
		strcmp(get_func_name(f->funcid), "extract") != 0 ||
		!IsA(linitial(f->args), Const))
		return NULL;
	field = linitial_node(Const, f->args);
	if (field->constisnull || field->consttype != TEXTOID)
		return NULL;
	word = TextDatumGetCString(field->constvalue);
	for (const char *p = word; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			  *p == '_'))
			return NULL;
	return *word != '\0' ? word : NULL;
}

/*
 * A call of a shipped function, by its qualified name: a built-in one
 * the dialect ships (deparse_ship.c) or a listed extension's.  A string
 * column goes as the remote compares it (mf_deparse_compared: a remote
 * enum behind a text column is cast to text), so that the remote picks
 * the function we call; without its collation's name, which the remote
 * need not have and which none of the functions shipped depends on.
 */
static void
mf_deparse_func(FuncExpr *f, MfDeparseCxt *cxt)
{
	const char *field = mf_extract_field(f);
	ListCell   *lc;

	if (field != NULL)
	{
		appendStringInfo(cxt->buf, "EXTRACT(%s FROM ", field);
		mf_deparse_node(lsecond(f->args), cxt);
		appendStringInfoChar(cxt->buf, ')');
		return;
	}
	appendStringInfo(cxt->buf, "%s.%s(",
					 quote_identifier(get_namespace_name(get_func_namespace(f->funcid))),
					 quote_identifier(get_func_name(f->funcid)));
	foreach(lc, f->args)
	{
		if (lc != list_head(f->args))
			appendStringInfoString(cxt->buf, ", ");
		mf_deparse_compared(lfirst(lc), InvalidOid, cxt);
	}
	appendStringInfoChar(cxt->buf, ')');
}

/*
 * (CASE [x] WHEN c THEN r ... ELSE d END), x written once, as in
 * deparse_ship.c's mf_case_shippable, with the same parts conditional.
 */
static void
mf_deparse_case(CaseExpr *ce, MfDeparseCxt *cxt)
{
	ListCell   *lc;

	appendStringInfoString(cxt->buf, "(CASE");
	if (ce->arg != NULL)
	{
		appendStringInfoChar(cxt->buf, ' ');
		mf_deparse_compared((Node *) ce->arg, InvalidOid, cxt);
	}
	foreach(lc, ce->args)
	{
		CaseWhen   *w = lfirst_node(CaseWhen, lc);
		Node	   *cond = ce->arg != NULL ?
			mf_case_when_value(ce, w->expr) : (Node *) w->expr;
		bool		later = lc != list_head(ce->args);

		if (cond == NULL)
			elog(ERROR, "a CASE that cannot be sent was to be sent");
		appendStringInfoString(cxt->buf, " WHEN ");
		cxt->conditional += later;
		if (ce->arg != NULL)
			mf_deparse_compared(cond, InvalidOid, cxt);
		else
			mf_deparse_node(cond, cxt);
		cxt->conditional -= later;
		appendStringInfoString(cxt->buf, " THEN ");
		cxt->conditional++;
		mf_deparse_choice((Node *) w->result, cxt);
		cxt->conditional--;
	}
	if (ce->defresult != NULL)
	{
		appendStringInfoString(cxt->buf, " ELSE ");
		cxt->conditional++;
		mf_deparse_choice((Node *) ce->defresult, cxt);
		cxt->conditional--;
	}
	appendStringInfoString(cxt->buf, " END)");
}

/* ---------------------------------------------------------------------
 * Subqueries inside a table's condition (deparse_ship.c decides which)
 * ---------------------------------------------------------------------
 *
 * A correlated scalar or EXISTS SubPlan whose plan is one of our scans of
 * the same server, mapping and user is written inside the outer table's
 * query, from the nested form the inner scan's planning kept (scan_plan.c
 * mf_nested_sql): every column qualified by its relation's rN (N >= 1),
 * each marker written MF_NESTED_MARK n MF_NESTED_MARK.  The outer table is
 * r0 (deparse_stmt.c), and each marker becomes the outer expression the
 * SubPlan passes for it, qualified by r0, so that no name of either side
 * can be taken for one of the other.
 */

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
 * Write subplan (mf_subplan_shippable said yes): the nested form, each
 * marker replaced by the outer expression in parentheses, its columns
 * qualified by r0 (the alias mf_deparse_select gives the outer table).
 */
void
mf_deparse_subplan(SubPlan *subplan, MfDeparseCxt *cxt)
{
	PlannerInfo *subroot;
	ForeignScan *fs = mf_subplan_scan(subplan, cxt, &subroot);
	int			ncols;
	const char *p = fs != NULL ? mf_scan_nested_sql(fs, &ncols) : NULL;
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
