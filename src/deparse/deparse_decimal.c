/*-------------------------------------------------------------------------
 *
 * deparse_decimal.c
 *		Is the remote's decimal arithmetic ours for this expression?
 *
 * PostgreSQL's numeric keeps every digit: a product has the scale of its
 * factors' scales summed, a sum the larger scale, whatever their size.
 * A remote DECIMAL has limits (MariaDB: 65 digits in all, 38 after the
 * point, MySQL's multiply 30, the mysql dialect's limit; SQL Server: 38
 * in all, with scales cut down to 6 beyond that; Oracle: 38 significant
 * digits) and cuts silently where a result passes
 * them: 1e-20 * 1e-20 is 0 on MariaDB, and "n * n > 0" drops the row.
 * Where the results do fit, both sides compute the same exact value.
 *
 * So numeric arithmetic (+, -, *, prefix - and +) is shipped to such a
 * dialect only where the precision and scale of each step are known and
 * fit: from the typmods of the columns (numeric(p,s); an integer column in
 * numeric arithmetic comes cast, and a cast is of unknown size),
 * from the digits of constants, by the rules both sides share (a sum has
 * max(s1, s2) decimals and one digit more than its widest operand; a
 * product p1 + p2 digits of which s1 + s2 decimals).  An unconstrained
 * numeric column, a parameter, anything else of unknown size keeps the
 * arithmetic here.  Division, avg and the like never fit: our scale
 * depends on the values, the remote's on div_precision_increment.
 *
 * A numeric constant is shipped only within the limits too: MariaDB reads
 * a literal of more than 65 digits as a DOUBLE (so a comparison with it is
 * inexact), and Oracle rounds one to 38 digits.
 *
 * The local typmod is taken to be the remote column's, as IMPORT FOREIGN
 * SCHEMA declares it.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "deparse/deparse_int.h"

/* The size of a decimal value: digits in all, and after the point. */
typedef struct MfDecimalShape
{
	int			digits;
	int			scale;
} MfDecimalShape;

/* The digits of a number as PostgreSQL prints it; false if not one. */
static bool
mf_decimal_text_shape(const char *s, MfDecimalShape *shape)
{
	int			whole = 0;
	int			scale = 0;
	bool		leading = true;

	if (*s == '-' || *s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
	{
		if (*s != '0')
			leading = false;
		if (!leading)
			whole++;
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			scale++;
	if (*s != '\0')
		return false;			/* NaN, Infinity, an exponent */
	shape->digits = Max(whole + scale, 1);
	shape->scale = scale;
	return true;
}

/* The size of an integer type's values. */
static bool
mf_integer_shape(Oid typid, MfDecimalShape *shape)
{
	shape->scale = 0;
	switch (typid)
	{
		case INT2OID:
			shape->digits = 5;
			return true;
		case INT4OID:
			shape->digits = 10;
			return true;
		case INT8OID:
			shape->digits = 19;
			return true;
		default:
			return false;
	}
}

/* The size of a constant's value. */
static bool
mf_const_shape(Const *c, MfDecimalShape *shape)
{
	Oid			typoutput;
	bool		isvarlena;

	if (c->constisnull)
	{
		shape->digits = 1;
		shape->scale = 0;
		return true;
	}
	if (c->consttype != NUMERICOID)
		return mf_integer_shape(c->consttype, shape);
	getTypeOutputInfo(c->consttype, &typoutput, &isvarlena);
	return mf_decimal_text_shape(OidOutputFunctionCall(typoutput,
													   c->constvalue),
								 shape);
}

/*
 * The size of expr's values, where it is known: false for anything of
 * unknown size.
 */
static bool
mf_decimal_shape(Node *node, MfDecimalShape *shape)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	if (node == NULL)
		return false;

	switch (nodeTag(node))
	{
		case T_Var:
			{
				Var		   *var = (Var *) node;
				int32		typmod = var->vartypmod - VARHDRSZ;

				if (var->vartype != NUMERICOID)
					return mf_integer_shape(var->vartype, shape);
				/* numeric(p,s); -1: unconstrained, of unknown size */
				if (var->vartypmod < VARHDRSZ)
					return false;
				shape->digits = (typmod >> 16) & 0xffff;
				shape->scale = typmod & 0x7ff;
				/*
				 * Since PostgreSQL 15 the scale may be negative (p digits,
				 * then zeros) or above p (zeros after the point first).
				 */
				if (shape->scale & 0x400)
				{
					shape->digits += 0x800 - shape->scale;
					shape->scale = 0;
				}
				shape->digits = Max(shape->digits, shape->scale);
				return true;
			}
		case T_Const:
			return mf_const_shape((Const *) node, shape);
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) node;
				const char *name;
				MfDecimalShape l;
				MfDecimalShape r;

				/* an integer result fits its type, or fails on both sides */
				if (op->opresulttype != NUMERICOID)
					return mf_integer_shape(op->opresulttype, shape);
				if (op->opno >= FirstGenbkiObjectId)
					return false;
				name = get_opname(op->opno);
				if (name == NULL)
					return false;
				if (list_length(op->args) == 1)
					return (strcmp(name, "-") == 0 || strcmp(name, "+") == 0) &&
						mf_decimal_shape(linitial(op->args), shape);
				if (!mf_decimal_shape(linitial(op->args), &l) ||
					!mf_decimal_shape(lsecond(op->args), &r))
					return false;
				if (strcmp(name, "+") == 0 || strcmp(name, "-") == 0)
				{
					shape->scale = Max(l.scale, r.scale);
					shape->digits = shape->scale + 1 +
						Max(l.digits - l.scale, r.digits - r.scale);
					return true;
				}
				if (strcmp(name, "*") == 0)
				{
					shape->digits = l.digits + r.digits;
					shape->scale = l.scale + r.scale;
					return true;
				}
				return false;
			}
		default:
			return false;
	}
}

/*
 * May node, a constant or an operator of the expression being shipped,
 * be computed by the remote's decimals as we compute it?  Only numeric
 * constants and operators with a numeric result are in question; their
 * operands are judged when the walk reaches them.
 */
bool
mf_decimal_exact(Node *node, MfDeparseCxt *cxt)
{
	const MfDialect *d = cxt->dialect;
	MfDecimalShape shape;

	if (d->decimal_max_digits <= 0 || exprType(node) != NUMERICOID)
		return true;
	if (!IsA(node, Const) && !IsA(node, OpExpr))
		return true;
	return mf_decimal_shape(node, &shape) &&
		shape.digits <= d->decimal_max_digits &&
		shape.scale <= d->decimal_max_scale;
}

/* Does node read a numeric column not marked sum_pushdown? */
static bool
mf_decimal_column_unmarked(Node *node, MfDeparseCxt *cxt)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		return var->vartype == NUMERICOID &&
			(!mf_var_is_scanned(var, cxt) ||
			 !mf_column_flag(mf_var_relid(var, cxt), var->varattno,
							 "sum_pushdown"));
	}
	return expression_tree_walker(node, mf_decimal_column_unmarked, cxt);
}

/*
 * May the remote's SUM of arg, a numeric, be ours (and avg's sum)?  Both
 * add exactly, and the sum has the argument's scale on both sides, where
 * the remote's result has room: MariaDB's SUM of a DECIMAL of p digits is a
 * DECIMAL of p + 22, up to its 65, and cuts a sum beyond that silently.
 * So the argument's size must be known (deparse_decimal's rules, from the
 * typmods of its columns) and leave MF_SUM_ROW_DIGITS digits for the
 * number of rows summed (fewer than 10^18).  And the columns' values must
 * be those the remote adds: every numeric column the argument reads is
 * marked sum_pushdown, the promise that the remote column is a DECIMAL of
 * the column's own precision and scale (IMPORT sets it on one).
 */
#define MF_SUM_ROW_DIGITS	18

bool
mf_decimal_sum_exact(Node *arg, MfDeparseCxt *cxt)
{
	const MfDialect *d = cxt->dialect;
	MfDecimalShape shape;

	if (arg == NULL || exprType(arg) != NUMERICOID ||
		mf_decimal_column_unmarked(arg, cxt))
		return false;
	if (!mf_decimal_shape(arg, &shape))
		return false;
	return d->decimal_max_digits <= 0 ||
		(shape.digits + MF_SUM_ROW_DIGITS <= d->decimal_max_digits &&
		 shape.scale <= d->decimal_max_scale);
}
