/*-------------------------------------------------------------------------
 *
 * deparse.c
 *		SQL text for the remote side, built from plans through the dialect.
 *
 * This file decides what may be evaluated remotely and writes it down
 * (the statements around the conditions are deparse_stmt.c's);
 * every piece of grammar (quoting, literals, the batch INSERT shape,
 * limits) comes from the server's dialect, and the style of parameter
 * markers from its transport ($1 or ?), so that the SQL shown by EXPLAIN
 * is the SQL sent and no transport rewrites it.
 *
 * What it assumes of the remote session: the dialect's session_setup_sql
 * has made values read and sent in text form mean the same on both sides
 * (time zone, date style, float digits, strict modes), and for PostgreSQL
 * the search_path is pg_catalog, so built-in operators and types resolve
 * to themselves and user tables are always schema-qualified.
 *
 * What is shipped: Vars of the scanned relation, constants and parameters
 * of types the dialect accepts, built-in immutable operators the dialect
 * agrees to (comparisons first of all), AND/OR/NOT, IS [NOT] NULL, and for
 * dialects with arrays x op ANY (array).  A sub-expression that reads no
 * column and has no volatile function (now() - interval '1 day', a stable
 * function of constants) is computed locally once per scan and sent as a
 * parameter, so the condition around it can still be shipped.  Everything
 * else is checked locally.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/dependency.h"
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

#include "deparse_int.h"

static const MfDialect *
mf_rel_dialect(RelOptInfo *baserel)
{
	return ((MfRelInfo *) baserel->fdw_private)->opts.dialect;
}

static MfMarkerStyle
mf_rel_markers(RelOptInfo *baserel)
{
	return ((MfRelInfo *) baserel->fdw_private)->opts.transport->markers;
}

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

MfTypeClass
mf_type_class(Oid typid)
{
	switch (getBaseType(typid))
	{
		case BOOLOID:
			return MF_TYPE_BOOL;
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
			return MF_TYPE_INT;
		case FLOAT4OID:
		case FLOAT8OID:
			return MF_TYPE_FLOAT;
		case NUMERICOID:
			return MF_TYPE_NUMERIC;
		case BYTEAOID:
			return MF_TYPE_BYTES;
		case DATEOID:
			return MF_TYPE_DATE;
		case TIMEOID:
			return MF_TYPE_TIME;
		case TIMESTAMPOID:
			return MF_TYPE_TIMESTAMP;
		case TIMESTAMPTZOID:
			return MF_TYPE_TIMESTAMPTZ;
		case UUIDOID:
			return MF_TYPE_UUID;
		case JSONOID:
		case JSONBOID:
			return MF_TYPE_JSON;
		case BITOID:
		case VARBITOID:
			return MF_TYPE_BITS;
		default:
			return MF_TYPE_TEXT;
	}
}

/*
 * Values are turned into text under the settings the remote session was
 * given (ISO dates, UTC, exact floats) and in the one bytea form the
 * transports decode (hex), whatever the local user chose, so that the
 * remote reads back the same value.  Returns the GUC nest level to
 * hand to mf_reset_transmission_modes.
 */
int
mf_set_transmission_modes(void)
{
	int			nestlevel = NewGUCNestLevel();

	if (DateStyle != USE_ISO_DATES)
		(void) set_config_option("datestyle", "ISO", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
	if (IntervalStyle != INTSTYLE_POSTGRES)
		(void) set_config_option("intervalstyle", "postgres", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	if (extra_float_digits < 3)
		(void) set_config_option("extra_float_digits", "3", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	if (strcmp(pg_get_timezone_name(session_timezone), "UTC") != 0)
		(void) set_config_option("timezone", "UTC", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
	/* every transport decodes bytea from the hex form alone */
	if (bytea_output != BYTEA_OUTPUT_HEX)
		(void) set_config_option("bytea_output", "hex", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	return nestlevel;
}

void
mf_reset_transmission_modes(int nestlevel)
{
	if (nestlevel >= 0)
		AtEOXact_GUC(true, nestlevel);
}

/*
 * Does this output function write the same text whatever the settings the
 * transmission modes pin (datestyle, intervalstyle, extra_float_digits,
 * timezone, bytea_output)?  The modes' save and restore of settings (and
 * the report of a changed timezone they set off) is a measurable part of
 * a short statement whose values are all integers or text.
 */
static bool
mf_output_is_fixed(Oid fnoid)
{
	switch (fnoid)
	{
		case F_BOOLOUT:
		case F_BPCHAROUT:
		case F_CHAROUT:
		case F_INT2OUT:
		case F_INT4OUT:
		case F_INT8OUT:
		case F_NAMEOUT:
		case F_NUMERIC_OUT:
		case F_OIDOUT:
		case F_TEXTOUT:
		case F_TIDOUT:
		case F_UUID_OUT:
		case F_VARCHAROUT:
		case F_XIDOUT:
			return true;
		default:
			return false;
	}
}

/* Do values written by these output functions need the modes? */
bool
mf_outputs_need_modes(const FmgrInfo *fns, int n)
{
	for (int i = 0; i < n; i++)
		if (!mf_output_is_fixed(fns[i].fn_oid))
			return true;
	return false;
}

/* The modes only when needed: -1, for mf_reset_transmission_modes, if not. */
int
mf_set_transmission_modes_if(bool needed)
{
	return needed ? mf_set_transmission_modes() : -1;
}

/* ---------------------------------------------------------------------
 * Shippability
 * ---------------------------------------------------------------------
 */

/*
 * Computed here once per scan and sent as a parameter: reads no column of
 * any relation, calls nothing volatile, returns one value.
 */
bool
mf_is_local_param(Node *node, const MfDialect *dialect)
{
	if (node == NULL || IsA(node, Const) || IsA(node, Param))
		return false;
	if (!dialect->type_shippable(exprType(node)))
		return false;
	return !contain_var_clause(node) &&
		!contain_volatile_functions(node) &&
		!contain_subplans(node) &&
		!contain_agg_clause(node) &&
		!contain_window_function(node) &&
		!expression_returns_set(node);
}

/* The expression under any binary-compatible relabelling. */
Node *
mf_strip_relabel(Node *node)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
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
static bool
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

/* A non-null constant's text, written under the transmission modes. */
static char *
mf_const_text(Const *c)
{
	Oid			typoutput;
	bool		isvarlena;
	int			nestlevel;
	char	   *value;

	getTypeOutputInfo(c->consttype, &typoutput, &isvarlena);
	nestlevel = mf_set_transmission_modes_if(!mf_output_is_fixed(typoutput));
	value = OidOutputFunctionCall(typoutput, c->constvalue);
	mf_reset_transmission_modes(nestlevel);
	return value;
}

bool
mf_is_text_type(Oid typid)
{
	return typid == TEXTOID || typid == VARCHAROID || typid == BPCHAROID;
}

/*
 * An ordinary column of one of the foreign tables scanned (not a system
 * column, not a whole row, not of an outer query).
 */
bool
mf_var_is_scanned(Var *var, MfDeparseCxt *cxt)
{
	return var->varlevelsup == 0 && var->varattno > 0 &&
		bms_is_member(var->varno, cxt->baserel->relids);
}

/* The foreign table a column of the scanned relation belongs to. */
Oid
mf_var_relid(Var *var, MfDeparseCxt *cxt)
{
	if (OidIsValid(cxt->relid))
		return cxt->relid;
	return planner_rt_fetch(var->varno, cxt->root)->relid;
}

bool
mf_expr_shippable(Node *node, MfDeparseCxt *cxt)
{
	ListCell   *lc;

	if (node == NULL)
		return true;

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

				return (p->paramkind == PARAM_EXTERN ||
						p->paramkind == PARAM_EXEC) &&
					mf_type_shippable(cxt, p->paramtype);
			}
		case T_RelabelType:
			return mf_expr_shippable((Node *) ((RelabelType *) node)->arg, cxt);
		case T_FuncExpr:
			{
				/* only the immutable functions of a shipped extension */
				FuncExpr   *f = (FuncExpr *) node;

				if (f->funcformat != COERCE_EXPLICIT_CALL || f->funcvariadic ||
					!mf_in_shipped_extension(cxt, ProcedureRelationId, f->funcid) ||
					func_volatile(f->funcid) != PROVOLATILE_IMMUTABLE ||
					!mf_collation_safe(f->inputcollid, f->args) ||
					!mf_type_shippable(cxt, f->funcresulttype))
					break;
				foreach(lc, f->args)
					if (!mf_expr_shippable(lfirst(lc), cxt))
						return false;
				return true;
			}
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) node;

				if (mf_text_equality_shippable(op, cxt))
					return true;
				if (!mf_operator_shippable(cxt, op->opno, op->opfuncid,
										   op->inputcollid, op->args) ||
					!mf_decimal_exact(node, cxt))
					break;
				foreach(lc, op->args)
					if (!mf_expr_shippable(lfirst(lc), cxt))
						return false;
				return true;
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *op = (ScalarArrayOpExpr *) node;

				if (!cxt->dialect->supports_arrays || !op->useOr ||
					!mf_operator_shippable(cxt, op->opno, op->opfuncid,
										   op->inputcollid, op->args))
					break;
				foreach(lc, op->args)
					if (!mf_expr_shippable(lfirst(lc), cxt))
						return false;
				return true;
			}
		case T_BoolExpr:
			foreach(lc, ((BoolExpr *) node)->args)
				if (!mf_expr_shippable(lfirst(lc), cxt))
					return false;
			return true;
		case T_NullTest:
			if (((NullTest *) node)->argisrow)
				break;
			return mf_expr_shippable((Node *) ((NullTest *) node)->arg, cxt);
		case T_Aggref:
			return cxt->aggregates && mf_aggref_shippable((Aggref *) node, cxt);
		default:
			break;
	}
	return mf_is_local_param(node, cxt->dialect);
}

void
mf_deparse_cxt_init(MfDeparseCxt *cxt, PlannerInfo *root, RelOptInfo *baserel,
					StringInfo buf, List **params_list)
{
	memset(cxt, 0, sizeof(*cxt));
	cxt->root = root;
	cxt->baserel = baserel;
	if (IS_SIMPLE_REL(baserel))
		cxt->relid = planner_rt_fetch(baserel->relid, root)->relid;
	else
		cxt->qualify = true;
	cxt->dialect = mf_rel_dialect(baserel);
	cxt->markers = mf_rel_markers(baserel);
	cxt->buf = buf;
	cxt->params_list = params_list;
}

bool
mf_is_foreign_expr(PlannerInfo *root, RelOptInfo *baserel, Expr *expr)
{
	MfDeparseCxt cxt;

	mf_deparse_cxt_init(&cxt, root, baserel, NULL, NULL);
	return mf_expr_shippable((Node *) expr, &cxt);
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

		if (mf_is_foreign_expr(root, baserel, ri->clause))
			*remote_conds = lappend(*remote_conds, ri);
		else
			*local_conds = lappend(*local_conds, ri);
	}
}

/* ---------------------------------------------------------------------
 * Expressions
 * ---------------------------------------------------------------------
 */

/*
 * A parameter's marker.  A numbered marker reuses the number of an equal
 * expression; a positional one takes a parameter of its own, so that
 * params_list holds one value per marker, in the order they appear (the
 * expressions are written left to right, and nothing is written out of
 * that order).
 */
static void
mf_deparse_placeholder(Node *node, MfDeparseCxt *cxt)
{
	const MfDialect *d = cxt->dialect;
	int			number = 0;
	ListCell   *lc;

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
		((RelabelType *) node)->relabelformat == COERCE_IMPLICIT_CAST)
		node = (Node *) ((RelabelType *) node)->arg;
	return IsA(node, Var) && mf_var_is_scanned((Var *) node, cxt);
}

/* One operand; a constant beside a column of its type may stay untyped. */
static void
mf_deparse_operand(Node *arg, Node *other, MfDeparseCxt *cxt)
{
	if (IsA(arg, Const) && other != NULL &&
		exprType(arg) == exprType(other) && mf_is_plain_column(other, cxt))
		mf_deparse_const((Const *) arg, cxt, true);
	else
		mf_deparse_node(arg, cxt);
}

/*
 * An operator's name; one outside pg_catalog (an extension's) qualified,
 * since the remote's search_path is pg_catalog alone.
 */
static char *
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

/* A call of a shipped extension's function, by its qualified name. */
static void
mf_deparse_func(FuncExpr *f, MfDeparseCxt *cxt)
{
	ListCell   *lc;
	bool		first = true;

	appendStringInfo(cxt->buf, "%s.%s(",
					 quote_identifier(get_namespace_name(get_func_namespace(f->funcid))),
					 quote_identifier(get_func_name(f->funcid)));
	foreach(lc, f->args)
	{
		if (!first)
			appendStringInfoString(cxt->buf, ", ");
		mf_deparse_node(lfirst(lc), cxt);
		first = false;
	}
	appendStringInfoChar(cxt->buf, ')');
}

static void
mf_deparse_op(Oid opno, List *args, MfDeparseCxt *cxt, bool any)
{
	char	   *opname = mf_operator_name(opno);

	appendStringInfoChar(cxt->buf, '(');
	if (list_length(args) == 2)
	{
		mf_deparse_operand(linitial(args), any ? NULL : lsecond(args), cxt);
		appendStringInfo(cxt->buf, " %s ", opname);
		if (any)
			appendStringInfoString(cxt->buf, "ANY (");
		mf_deparse_operand(lsecond(args), any ? NULL : linitial(args), cxt);
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

void
mf_deparse_node(Node *node, MfDeparseCxt *cxt)
{
	ListCell   *lc;

	if (mf_is_local_param(node, cxt->dialect))
	{
		mf_deparse_placeholder(node, cxt);
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
			mf_deparse_node((Node *) ((RelabelType *) node)->arg, cxt);
			break;
		case T_FuncExpr:
			mf_deparse_func((FuncExpr *) node, cxt);
			break;
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) node;
				int64		min;
				int64		max;
				const char *piece;

				if (!mf_op_guard_range(cxt, op->opno, &min, &max))
				{
					mf_deparse_op(op->opno, op->args, cxt, false);
					break;
				}
				for (int i = 0;
					 (piece = cxt->dialect->range_guard_piece(i, min, max)) != NULL;
					 i++)
				{
					if (i > 0)
						mf_deparse_op(op->opno, op->args, cxt, false);
					appendStringInfoString(cxt->buf, piece);
				}
				break;
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *op = (ScalarArrayOpExpr *) node;

				if (!op->useOr)
					elog(ERROR, "ALL (array) is not shipped");
				mf_deparse_op(op->opno, op->args, cxt, true);
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

/*
 * A parameter's value, as the remote is to read it in a condition: a value
 * a dialect that keeps such constants here cannot spell (NaN, an
 * infinity, a date before year 1: mf_const_finite) is refused, since the
 * remote would compare against another value (MySQL reads 'NaN' as 0 and
 * '4713-01-01 BC' as a year AD) and answer wrongly.  The plan shipped the
 * condition before the value was known.
 */
void
mf_check_param_value(const MfDialect *dialect, const char *servername,
					 Oid typid, const char *value)
{
	if (value == NULL || dialect->const_shippable == NULL ||
		mf_const_finite(typid, value))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("value \"%s\" of type %s cannot be sent to server \"%s\"",
					value, format_type_be(typid), servername),
			 errdetail("The %s dialect has no spelling for it, and the remote would compare against another value.",
					   dialect->name),
			 errhint("Compare it locally: use a constant instead of a parameter, or set the foreign table's option pushdown to false.")));
}
