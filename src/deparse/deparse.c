/*-------------------------------------------------------------------------
 *
 * deparse.c
 *		SQL text for the remote side, built from plans through the dialect:
 *		what every expression walk shares (its context, the relation's
 *		dialect, type classes, the transmission modes, parameters).
 *
 * deparse_ship.c decides what may be evaluated remotely and
 * deparse_expr.c writes it down (the statements around the conditions
 * are deparse_stmt.c's, joins deparse_join.c's, upper relations
 * deparse_upper.c's);
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
#include "nodes/makefuncs.h"
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

const MfDialect *
mf_rel_dialect(RelOptInfo *baserel)
{
	return ((MfRelInfo *) baserel->fdw_private)->opts.dialect;
}

MfMarkerStyle
mf_rel_markers(RelOptInfo *baserel)
{
	return ((MfRelInfo *) baserel->fdw_private)->opts.transport->markers;
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
 * Does node hold a CaseTestExpr that it does not evaluate itself: a simple
 * CASE's value, seen from one of its conditions (CASE x WHEN 1: the
 * condition is CaseTestExpr = 1)?  A CASE's own conditions, and an array
 * coercion's element expression, read their own.
 */
static bool
mf_reads_case_value(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, CaseTestExpr))
		return true;
	if (IsA(node, CaseExpr) && ((CaseExpr *) node)->arg != NULL)
	{
		CaseExpr   *ce = (CaseExpr *) node;
		ListCell   *lc;

		foreach(lc, ce->args)
			if (mf_reads_case_value((Node *) lfirst_node(CaseWhen, lc)->result,
									context))
				return true;
		return mf_reads_case_value((Node *) ce->arg, context) ||
			mf_reads_case_value((Node *) ce->defresult, context);
	}
	if (IsA(node, ArrayCoerceExpr))
		return mf_reads_case_value((Node *) ((ArrayCoerceExpr *) node)->arg,
								   context);
	return expression_tree_walker(node, mf_reads_case_value, context);
}

/*
 * Computed here once per scan and sent as a parameter: reads no column of
 * any relation nor a CASE's value, calls nothing volatile, returns one
 * value.
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
		!expression_returns_set(node) &&
		!mf_reads_case_value(node, NULL);
}

static bool
mf_exec_param_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXEC)
		return true;
	return expression_tree_walker(node, mf_exec_param_walker, context);
}

/* Does node read a PARAM_EXEC parameter (a subquery's, a loop's)? */
bool
mf_contains_exec_param(Node *node)
{
	return mf_exec_param_walker(node, NULL);
}

/*
 * mf_is_local_param where cxt writes: not in a part of a CASE that may not
 * be evaluated (cxt->conditional), which computed in advance could fail
 * where the query does not; in a whole query (cxt->level), not an
 * expression of a subquery's parameters, whose values the remote knows
 * and we do not when the scan begins.
 */
bool
mf_cxt_local_param(Node *node, MfDeparseCxt *cxt)
{
	return cxt->conditional == 0 && mf_is_local_param(node, cxt->dialect) &&
		(cxt->level == NULL || !mf_contains_exec_param(node));
}

/* text or varchar, or an array of them: the same values, compared alike */
static bool
mf_textual(Oid type)
{
	Oid			elem = get_element_type(type);

	if (OidIsValid(elem))
		type = getBaseType(elem);
	return type == TEXTOID || type == VARCHAROID;
}

/*
 * Does a binary-compatible relabelling change what the value means: how
 * it compares or what a function makes of it?  varchar as text does not;
 * text as char(n) does (its trailing blanks stop counting), int4 as oid
 * does (it compares unsigned), xml as text does.  A domain over the same
 * type does not.
 */
bool
mf_relabel_changes_meaning(RelabelType *r)
{
	Oid			to = getBaseType(r->resulttype);
	Oid			from = getBaseType(exprType((Node *) r->arg));

	return to != from && !(mf_textual(to) && mf_textual(from) &&
						   OidIsValid(get_element_type(to)) ==
						   OidIsValid(get_element_type(from)));
}

/*
 * The expression under any relabelling that does not change its meaning
 * (mf_relabel_changes_meaning): the same value, compared alike.
 */
Node *
mf_strip_relabel(Node *node)
{
	while (node && IsA(node, RelabelType) &&
		   !mf_relabel_changes_meaning((RelabelType *) node))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
}

/* A non-null constant's text, written under the transmission modes. */
char *
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
	if (cxt->level != NULL)
		return cxt->level->node_shippable((Node *) var, cxt);
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

void
mf_deparse_cxt_init(MfDeparseCxt *cxt, PlannerInfo *root, RelOptInfo *baserel,
					StringInfo buf, List **params_list)
{
	memset(cxt, 0, sizeof(*cxt));
	cxt->root = root;
	cxt->baserel = baserel;
	if (IS_SIMPLE_REL(baserel))
		cxt->relid = planner_rt_fetch(baserel->relid, root)->relid;
	/* a join's columns, and every column of a subquery's nested form */
	cxt->qualify = !IS_SIMPLE_REL(baserel) || mf_deparse_nesting();
	cxt->dialect = mf_rel_dialect(baserel);
	cxt->markers = mf_rel_markers(baserel);
	cxt->buf = buf;
	cxt->params_list = params_list;
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

/* ---------------------------------------------------------------------
 * Subqueries inside a condition: what deciding (deparse_ship.c) and
 * writing them (deparse_expr.c) share, and the nested form's state
 * ---------------------------------------------------------------------
 */

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
void
mf_deparse_nesting_refuse(void)
{
	if (mf_nesting != 0)
		mf_nesting = 2;
}

/*
 * Is f a cast that widens an integer (int2 to int4, int8 or numeric, int4
 * to int8 or numeric, int8 to numeric)?  Its value is the same on both
 * sides for every remote value a read here accepts.
 */
bool
mf_is_widening_cast(FuncExpr *f)
{
	if ((f->funcformat != COERCE_IMPLICIT_CAST &&
		 f->funcformat != COERCE_EXPLICIT_CAST) || list_length(f->args) != 1)
		return false;
	switch (f->funcid)
	{
		case F_INT4_INT2:
		case F_INT8_INT2:
		case F_INT8_INT4:
		case F_NUMERIC_INT2:
		case F_NUMERIC_INT4:
		case F_NUMERIC_INT8:
			return true;
		default:
			return false;
	}
}

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
ForeignScan *
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

/*
 * A scan's nested form, as its planning keeps it: the last item of its
 * fdw_private, (nested SQL, number of columns it returns, whether it
 * promises no order: mf_scan_nested_keyable), or NULL.
 */
Node *
mf_nested_private(char *nested_sql, int ncols, bool keyable)
{
	if (nested_sql == NULL)
		return NULL;
	return (Node *) list_make3(makeString(nested_sql), makeInteger(ncols),
							   makeBoolean(keyable));
}

/* The nested form the scan's planning kept, or NULL; its columns' number. */
const char *
mf_scan_nested_sql(ForeignScan *fs, int *ncols)
{
	List	   *n;

	if (fs->fdw_private == NIL)
		return NULL;
	n = llast(fs->fdw_private);
	if (n == NULL || !IsA(n, List) || list_length(n) != 3 ||
		!IsA(linitial(n), String) || !IsA(lsecond(n), Integer))
		return NULL;
	*ncols = intVal(lsecond(n));
	return strVal(linitial(n));
}

/*
 * May the nested form be run for many sets of parameters at once
 * (mf_deparse_keyed)?  Only where the scan promises no order of its rows,
 * which the keyed statement would not keep.
 */
bool
mf_scan_nested_keyable(ForeignScan *fs)
{
	int			ncols;

	return mf_scan_nested_sql(fs, &ncols) != NULL &&
		IsA(lthird(llast(fs->fdw_private)), Boolean) &&
		boolVal(lthird(llast(fs->fdw_private)));
}
