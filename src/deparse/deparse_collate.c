/*-------------------------------------------------------------------------
 *
 * deparse_collate.c
 *		Does the remote compare text as we do?  The collation rules of
 *		what is shipped: conditions, grouping, DISTINCT, sorting, min/max.
 *
 * The postgres dialect follows postgres_fdw: an expression whose
 * collation is the default one, or a column's own, is compared remotely
 * under the remote column's collation, assumed to be the same.  Dialects
 * whose text comparisons depend on a collation we cannot see
 * (text_equality_by_option: MySQL, SQL Server) compare a column only when
 * it carries text_pushdown, the promise that the remote compares it byte
 * for byte; they order it only when the local collation orders by code
 * point as that byte-wise remote collation does (C, POSIX, C.UTF-8).  A
 * dialect with text_bytes_fmt (MySQL) also compares any text column by
 * = and <>, its operands written as their bytes (mf_text_bytes_equality).
 *
 * Either way the local collation must be deterministic.  A
 * nondeterministic one ('ABC' = 'abc' under an ICU collation of strength
 * 2, a column's or one named by COLLATE) makes strings equal that differ
 * in bytes: no byte-wise remote groups or compares them so, and a remote
 * PostgreSQL's column need not have it.  What compares under it stays
 * here.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "deparse/deparse_int.h"

static bool mf_catalog_operator(Oid opno);

/*
 * Are strings equal under the collation only when their bytes are?  The
 * database's default collation always is (PostgreSQL 15 allows no other).
 */
static bool
mf_collation_deterministic(Oid collid)
{
	return !OidIsValid(collid) || collid == DEFAULT_COLLATION_OID ||
		get_collation_isdeterministic(collid);
}

/*
 * A collation is safe when it is deterministic and the default one (both
 * sides are assumed to share it, as postgres_fdw assumes) or comes from a
 * column of the foreign table, whose remote twin is assumed to sort the
 * same way.
 */
bool
mf_collation_safe(Oid inputcollid, List *args)
{
	ListCell   *lc;

	if (!OidIsValid(inputcollid) || inputcollid == DEFAULT_COLLATION_OID)
		return true;
	if (!mf_collation_deterministic(inputcollid))
		return false;
	foreach(lc, args)
	{
		Node	   *arg = mf_strip_relabel(lfirst(lc));

		if (arg && IsA(arg, Var) && ((Var *) arg)->varcollid == inputcollid)
			return true;
	}
	return false;
}

/*
 * = or <> on text that the dialect would refuse for fear of its collation,
 * shipped because a column involved is marked text_pushdown (and nothing
 * else involved is a column that is not), under a deterministic local
 * collation: equal there means equal bytes, as on the remote.  Only where
 * the remote compares without padding (text_grouping_by_option: MySQL's
 * NO PAD collations; SQL Server's '=' ignores trailing spaces under every
 * collation, so a mark cannot make it byte-wise), and not with character
 * (bpchar) operators, which ignore trailing spaces here.
 */
bool
mf_text_equality_shippable(OpExpr *op, MfDeparseCxt *cxt)
{
	return mf_text_marked_equality(op->opno, op->inputcollid, op->args, cxt);
}

/* The same, of an operator's parts. */
bool
mf_text_marked_equality(Oid opno, Oid inputcollid, List *args,
						MfDeparseCxt *cxt)
{
	const char *opname;
	bool		marked = false;
	ListCell   *lc;
	Oid			left;
	Oid			right;

	if (!cxt->dialect->text_equality_by_option ||
		!cxt->dialect->text_grouping_by_option || list_length(args) != 2 ||
		!mf_collation_deterministic(inputcollid))
		return false;
	op_input_types(opno, &left, &right);
	if (left == BPCHAROID || right == BPCHAROID)
		return false;
	/* text's own = and <>, not an operator of that name someone defined */
	opname = get_opname(opno);
	if (opname == NULL || !mf_catalog_operator(opno) ||
		(get_opcode(opno) != F_TEXTEQ && get_opcode(opno) != F_TEXTNE))
		return false;
	foreach(lc, args)
	{
		Node	   *arg = mf_strip_relabel(lfirst(lc));

		if (!mf_is_text_type(exprType(arg)))
			return false;
		if (IsA(arg, Var))
		{
			Var		   *var = (Var *) arg;

			if (!mf_var_is_scanned(var, cxt) ||
				!mf_column_flag(mf_var_relid(var, cxt), var->varattno,
								"text_pushdown"))
				return false;
			marked = true;
		}
		else if (!mf_expr_shippable(arg, cxt))
			return false;
	}
	return marked;
}

/*
 * Is the operator one of pg_catalog's, whose name says what its function
 * does (=, <>, ~~), as the deparser writes it?  Not one of another schema
 * that is named so, whatever it calls.
 */
static bool
mf_catalog_operator(Oid opno)
{
	HeapTuple	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	bool		result;

	if (!HeapTupleIsValid(tup))
		return false;
	result = ((Form_pg_operator) GETSTRUCT(tup))->oprnamespace == PG_CATALOG_NAMESPACE;
	ReleaseSysCache(tup);
	return result;
}

/*
 * Is var a column of the scanned relation marked text_bytes: the remote
 * column holds character strings, which the transport reads as they are
 * (not numbers, times or bytes a local text column shows in its own way)?
 */
static bool
mf_text_bytes_column(Node *node, MfDeparseCxt *cxt)
{
	Var		   *var = (Var *) node;

	return node != NULL && IsA(node, Var) && mf_var_is_scanned(var, cxt) &&
		var->varattno > 0 &&
		mf_column_flag(mf_var_relid(var, cxt), var->varattno, "text_bytes");
}

/*
 * Is node a column whose remote_charset option names the dialect's
 * text_native_charset, whose bytes need no conversion?  The option is the
 * table owner's word, as text_bytes is.
 */
bool
mf_text_native_column(Node *node, MfDeparseCxt *cxt)
{
	Var		   *var;
	const char *charset;

	node = mf_strip_relabel(node);
	var = (Var *) node;
	if (cxt->dialect->text_native_charset == NULL ||
		!mf_text_bytes_column(node, cxt))
		return false;
	charset = mf_column_option(mf_var_relid(var, cxt), var->varattno,
							   "remote_charset");
	return charset != NULL &&
		pg_strcasecmp(charset, cxt->dialect->text_native_charset) == 0;
}

/*
 * = or <> on text that the dialect compares byte for byte through its
 * text_bytes_fmt (mf_deparse_op writes the operands so): under a
 * deterministic local collation, equal strings are equal bytes here as
 * there.  One operand is a column marked text_bytes, the other a constant
 * or a value sent as a parameter: two columns would make the remote join
 * on an expression no index or hash serves, row by row.  Of text's and
 * character(n)'s own operators (*trimmed: character(n)'s).  Not for a
 * column marked text_pushdown, which mf_text_equality_shippable sends as
 * it is.
 */
bool
mf_text_bytes_equality(Oid opno, Oid inputcollid, List *args,
					   MfDeparseCxt *cxt, bool *trimmed)
{
	RegProcedure code;
	Node	   *first;
	Node	   *second;
	Node	   *value;

	if (cxt->dialect->text_bytes_fmt == NULL || list_length(args) != 2 ||
		!OidIsValid(inputcollid) ||
		!mf_collation_deterministic(inputcollid))
		return false;
	code = get_opcode(opno);
	if (!mf_catalog_operator(opno) ||
		(code != F_TEXTEQ && code != F_TEXTNE && code != F_BPCHAREQ &&
		 code != F_BPCHARNE))
		return false;
	first = mf_strip_relabel(linitial(args));
	second = mf_strip_relabel(lsecond(args));
	if (mf_text_bytes_column(first, cxt))
		value = second;
	else if (mf_text_bytes_column(second, cxt))
		value = first;
	else
		return false;
	if (value == NULL || !mf_is_text_type(exprType(value)) ||
		!(IsA(value, Const) || IsA(value, Param) ||
		  mf_cxt_local_param(value, cxt)) ||
		!mf_expr_shippable(value, cxt))
		return false;
	*trimmed = code == F_BPCHAREQ || code == F_BPCHARNE;
	return true;
}

/*
 * A GROUP BY key that the dialect groups through its group_trimmed_fmt: a
 * character(n) column of the scanned relation under a deterministic
 * collation, whose values are equal here when their bytes are, trailing
 * spaces aside.
 */
bool
mf_group_trimmed_key(Node *expr, MfDeparseCxt *cxt)
{
	return mf_group_trimmed_column(expr, cxt) &&
		mf_collation_deterministic(exprCollation(expr));
}

/* The same but for the collation: a column that may be such a key. */
bool
mf_group_trimmed_column(Node *expr, MfDeparseCxt *cxt)
{
	Node	   *arg = mf_strip_relabel(expr);

	return cxt->dialect->group_trimmed_fmt != NULL &&
		mf_text_bytes_column(arg, cxt) &&
		getBaseType(exprType(arg)) == BPCHAROID &&
		getBaseType(exprType(expr)) == BPCHAROID;
}

/*
 * LIKE or NOT LIKE (textlike, textnlike) of a text column of the scanned
 * relation with a constant pattern, which the dialect matches through its
 * text_like_fmt as we match it under a deterministic collation: character
 * by character, case and trailing spaces counting, backslash escaping.
 * character(n) matches here with its padding (bpcharlike), which a remote
 * CHAR does not keep: not that.  A pattern that ends in a lone backslash
 * is left here, where it matches nothing.  *negated: NOT LIKE.
 */
bool
mf_text_like(Oid opno, Oid inputcollid, List *args, MfDeparseCxt *cxt,
			 bool *negated)
{
	RegProcedure code;
	Node	   *subject;
	Node	   *pattern;
	char	   *p;
	size_t		n;
	int			backslashes = 0;

	if (cxt->dialect->text_like_fmt == NULL || list_length(args) != 2 ||
		!OidIsValid(inputcollid) || !mf_collation_deterministic(inputcollid))
		return false;
	code = get_opcode(opno);
	if (!mf_catalog_operator(opno) ||
		(code != F_TEXTLIKE && code != F_TEXTNLIKE))
		return false;
	subject = mf_strip_relabel(linitial(args));
	pattern = mf_strip_relabel(lsecond(args));
	if (!mf_text_bytes_column(subject, cxt) ||
		getBaseType(exprType(subject)) == BPCHAROID)
		return false;
	if (pattern == NULL || !IsA(pattern, Const) ||
		((Const *) pattern)->constisnull ||
		getBaseType(((Const *) pattern)->consttype) != TEXTOID)
		return false;
	p = TextDatumGetCString(((Const *) pattern)->constvalue);
	n = strlen(p);
	while (n > 0 && p[n - 1] == '\\')
	{
		backslashes++;
		n--;
	}
	pfree(p);
	if (backslashes % 2 == 1)
		return false;
	*negated = code == F_TEXTNLIKE;
	return true;
}

/* Does the collation order strings by code point (byte-wise in UTF-8)? */
static bool
mf_collation_bytewise(Oid collid)
{
	HeapTuple	tup;
	char		provider;
	Datum		datum;
	bool		isnull;
	char	   *name = NULL;

	if (collid == C_COLLATION_OID)
		return true;
	if (!OidIsValid(collid))
		return false;
	if (collid == DEFAULT_COLLATION_OID)
	{
		tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
		if (!HeapTupleIsValid(tup))
			return false;
		provider = ((Form_pg_database) GETSTRUCT(tup))->datlocprovider;
		datum = SysCacheGetAttr(DATABASEOID, tup, Anum_pg_database_datcollate,
								&isnull);
	}
	else
	{
		tup = SearchSysCache1(COLLOID, ObjectIdGetDatum(collid));
		if (!HeapTupleIsValid(tup))
			return false;
		provider = ((Form_pg_collation) GETSTRUCT(tup))->collprovider;
		datum = SysCacheGetAttr(COLLOID, tup, Anum_pg_collation_collcollate,
								&isnull);
	}
	if (!isnull && provider == COLLPROVIDER_LIBC)
		name = TextDatumGetCString(datum);
	ReleaseSysCache(tup);

	/* glibc's C.UTF-8 sorts by code point, as the C locale sorts bytes */
	return name != NULL &&
		(strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 ||
		 pg_strcasecmp(name, "C.UTF-8") == 0 ||
		 pg_strcasecmp(name, "C.utf8") == 0);
}

/*
 * May the remote compare the values of expr, under collation collid, as
 * we do: by equality (grouping, DISTINCT) or, with ordering, by order
 * (sorting, min, max)?
 */
bool
mf_comparison_shippable(MfDeparseCxt *cxt, Node *expr, Oid collid,
						bool ordering)
{
	Oid			typid = getBaseType(exprType(expr));
	Node	   *arg = expr;

	arg = mf_strip_relabel(arg);

	if (mf_is_text_type(typid) && cxt->dialect->text_equality_by_option)
	{
		Var		   *var = (Var *) arg;

		/* character(n) groups and sorts without its trailing spaces */
		if (!cxt->dialect->text_grouping_by_option ||
			!mf_collation_deterministic(collid) || typid == BPCHAROID)
			return false;
		if (!IsA(arg, Var) || !mf_var_is_scanned(var, cxt) ||
			!mf_column_flag(mf_var_relid(var, cxt), var->varattno,
							"text_pushdown"))
			return false;
		return !ordering || mf_collation_bytewise(collid);
	}
	if (!mf_collation_safe(collid, list_make1(expr)))
		return false;
	return cxt->dialect->operator_shippable(ordering ? "<" : "=", typid,
											typid, collid);
}

/*
 * The SQL of a column of ours, sql, where the remote compares it (see the
 * dialect's compare_cast): cast to the remote type that compares as ours,
 * under the comparison's collation collid.  A collation other than the
 * default is named, qualified, since the cast of a remote enum takes the
 * remote's default collation, and a comparison under the default
 * collation of a column that has its own names "default" (see
 * postgres_fdw's rule in the file's head: a remote text column's own
 * collation is taken to be the local column's, colcoll).  InvalidOid as
 * collid: an equality, which a deterministic collation makes byte-wise
 * whatever it is.  Written as it is where the dialect has no cast for
 * the type.
 */
void
mf_append_compared(StringInfo buf, const char *sql, Oid type, Oid collid,
				   Oid colcoll, const MfDialect *dialect)
{
	const char *cast = mf_compare_cast(dialect, type);
	HeapTuple	tup;

	if (cast == NULL)
	{
		appendStringInfoString(buf, sql);
		return;
	}
	appendStringInfo(buf, "(%s)::%s", sql, cast);
	if (!OidIsValid(collid))
		return;
	if (collid == DEFAULT_COLLATION_OID)
	{
		if (OidIsValid(colcoll) && colcoll != DEFAULT_COLLATION_OID)
			appendStringInfoString(buf, " COLLATE pg_catalog.\"default\"");
		return;
	}
	tup = SearchSysCache1(COLLOID, ObjectIdGetDatum(collid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for collation %u", collid);
	appendStringInfo(buf, " COLLATE %s.%s",
					 quote_identifier(get_namespace_name(((Form_pg_collation) GETSTRUCT(tup))->collnamespace)),
					 quote_identifier(NameStr(((Form_pg_collation) GETSTRUCT(tup))->collname)));
	ReleaseSysCache(tup);
}

/* The cast of mf_append_compared for a column of type type, or NULL. */
const char *
mf_compare_cast(const MfDialect *dialect, Oid type)
{
	if (dialect->compare_cast == NULL || !OidIsValid(type))
		return NULL;
	return dialect->compare_cast(getBaseType(type));
}
