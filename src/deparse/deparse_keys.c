/*-------------------------------------------------------------------------
 *
 * deparse_keys.c
 *		The dependent join's key conditions, as each dialect takes them:
 *		what depjoin_exec.c appends to F's SELECT for the keys of one
 *		statement (their values go as parameters, computed there), and
 *		what EXPLAIN shows of it.
 *
 * Forms: one array per key column (k = ANY ($1), (k1, k2) IN (SELECT *
 * FROM unnest($1, $2))); a list of values or rows of values (k IN ($1,
 * ...), (k1, k2) IN (($1, $2), ...)); equalities ORed where a dialect has
 * no rows of values ((k1 = $1 AND k2 = $2) OR ...); a range of the first
 * key column (k >= $1 AND k <= $2).
 *
 * And a rescanned scan's statement run for many sets of its parameters at
 * once (mf_deparse_keyed, for exec/read_ahead.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"

#include "deparse/deparse.h"
#include "deparse/deparse_int.h"

/* Parameter n's marker, cast where the dialect needs the type said. */
static void
mf_key_marker(StringInfo sql, const MfDialect *dialect, MfMarkerStyle markers,
			  int n, Oid typid)
{
	mf_append_marker(sql, markers, n);
	if (dialect->cast_param)
		dialect->cast_param(sql, typid, -1);
}

/* " AND (" or " WHERE (": the keys' condition opens after F's SELECT. */
void
mf_deparse_keys_begin(StringInfo sql, bool has_where)
{
	appendStringInfo(sql, " %s (", has_where ? "AND" : "WHERE");
}

void
mf_deparse_keys_end(StringInfo sql)
{
	appendStringInfoChar(sql, ')');
}

/*
 * The key columns compared with one array each, parameters first_param
 * on (array_types: the arrays' types).
 */
void
mf_deparse_key_arrays(StringInfo sql, const MfDialect *dialect,
					  MfMarkerStyle markers, char *const *key_sql,
					  const Oid *array_types, int ncols, int first_param)
{
	if (ncols == 1)
		appendStringInfo(sql, "%s = ANY (", key_sql[0]);
	else
	{
		appendStringInfoChar(sql, '(');
		for (int c = 0; c < ncols; c++)
			appendStringInfo(sql, "%s%s", c > 0 ? ", " : "", key_sql[c]);
		appendStringInfoString(sql, ") IN (SELECT * FROM unnest(");
	}
	for (int c = 0; c < ncols; c++)
	{
		if (c > 0)
			appendStringInfoString(sql, ", ");
		mf_key_marker(sql, dialect, markers, first_param + c, array_types[c]);
	}
	appendStringInfoString(sql, ncols == 1 ? ")" : "))");
}

/* The start of a list of keys: "k IN (", "(k1, k2) IN (", or nothing. */
void
mf_deparse_key_list_open(StringInfo sql, char *const *key_sql, int ncols,
						 bool ored)
{
	if (ored)
		return;
	appendStringInfoString(sql, ncols > 1 ? "(" : "");
	for (int c = 0; c < ncols; c++)
		appendStringInfo(sql, "%s%s", c > 0 ? ", " : "", key_sql[c]);
	appendStringInfoString(sql, ncols > 1 ? ") IN (" : " IN (");
}

/*
 * One key of a list, its values the parameters first_param on: "$1",
 * "($1, $2)", or ORed, "(k1 = $1 AND k2 = $2)"; after a separator unless
 * it is the list's first.
 */
void
mf_deparse_key_list_item(StringInfo sql, const MfDialect *dialect,
						 MfMarkerStyle markers, char *const *key_sql,
						 const Oid *key_types, int ncols, bool ored,
						 bool first, int first_param)
{
	if (!first)
		appendStringInfoString(sql, ored ? " OR " : ", ");
	if (ncols > 1)
		appendStringInfoChar(sql, '(');
	for (int c = 0; c < ncols; c++)
	{
		if (ored)
			appendStringInfo(sql, "%s%s = ", c > 0 ? " AND " : "", key_sql[c]);
		else if (c > 0)
			appendStringInfoString(sql, ", ");
		mf_key_marker(sql, dialect, markers, first_param + c, key_types[c]);
	}
	if (ncols > 1)
		appendStringInfoChar(sql, ')');
}

void
mf_deparse_key_list_close(StringInfo sql, bool ored)
{
	if (!ored)
		appendStringInfoChar(sql, ')');
}

/*
 * A range of the first key column, bounds the parameters first_param and
 * first_param + 1, after F's SELECT.
 */
void
mf_deparse_key_range(StringInfo sql, const MfDialect *dialect,
					 MfMarkerStyle markers, const char *key_sql, Oid key_type,
					 bool has_where, int first_param)
{
	appendStringInfo(sql, " %s (%s >= ", has_where ? "AND" : "WHERE", key_sql);
	mf_key_marker(sql, dialect, markers, first_param, key_type);
	appendStringInfo(sql, " AND %s <= ", key_sql);
	mf_key_marker(sql, dialect, markers, first_param + 1, key_type);
	appendStringInfoChar(sql, ')');
}

/*
 * What EXPLAIN VERBOSE shows of the statements: F's SELECT with the form
 * of their keys' condition, the keys themselves as <keys>.
 */
char *
mf_deparse_keys_explain(const char *select, bool has_where, List *key_sql,
						bool arrays, bool row_in)
{
	StringInfoData sql;
	StringInfoData cols;
	ListCell   *lc;

	initStringInfo(&cols);
	foreach(lc, key_sql)
		appendStringInfo(&cols, "%s%s", cols.len > 0 ? ", " : "", strVal(lfirst(lc)));
	initStringInfo(&sql);
	appendStringInfo(&sql, "%s %s (", select, has_where ? "AND" : "WHERE");
	if (list_length(key_sql) == 1)
		appendStringInfo(&sql, "%s %s", cols.data,
						 arrays ? "= ANY (<keys>)" : "IN (<keys>)");
	else if (arrays)
		appendStringInfo(&sql, "(%s) IN (SELECT * FROM unnest(<keys>))", cols.data);
	else if (row_in)
		appendStringInfo(&sql, "(%s) IN (<keys>)", cols.data);
	else
	{
		appendStringInfoChar(&sql, '(');
		foreach(lc, key_sql)
			appendStringInfo(&sql, "%s%s = <key>", foreach_current_index(lc) > 0 ? " AND " : "",
							 strVal(lfirst(lc)));
		appendStringInfoString(&sql, ") OR ...");
	}
	appendStringInfoChar(&sql, ')');
	return sql.data;
}

/*
 * The statement of a scan rescanned with many sets of its parameters
 * (exec/read_ahead.c), for a dialect with keyed_rescans: the scan's nested
 * form (scan_plan.c, mf_nested_sql: every column qualified by its rN, each
 * marker MF_NESTED_MARK n MF_NESTED_MARK) run once per row of one array
 * per parameter, each row's answer beside its number:
 *
 *	 SELECT mf_k.n, mf_s.* FROM unnest($1::t1[], ...) WITH ORDINALITY
 *	   AS mf_k(p1, ..., n) CROSS JOIN LATERAL (<nested form>) AS mf_s
 *
 * with marker i written mf_k.p<i>.  Each row's answer is the scan's own
 * statement's for those values, since it is that statement; the arrays'
 * types are array_types.  NULL where the nested form names a parameter
 * it has not.
 */
char *
mf_deparse_keyed(const char *nested_sql, const MfDialect *dialect,
				 MfMarkerStyle markers, const Oid *array_types, int nparams)
{
	StringInfoData sql;
	const char *p = nested_sql;

	Assert(dialect->keyed_rescans && nparams > 0);
	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT mf_k.n, mf_s.* FROM unnest(");
	for (int i = 0; i < nparams; i++)
	{
		if (i > 0)
			appendStringInfoString(&sql, ", ");
		mf_key_marker(&sql, dialect, markers, i + 1, array_types[i]);
	}
	appendStringInfoString(&sql, ") WITH ORDINALITY AS mf_k(");
	for (int i = 0; i < nparams; i++)
		appendStringInfo(&sql, "p%d, ", i + 1);
	appendStringInfoString(&sql, "n) CROSS JOIN LATERAL (");
	while (*p != '\0')
	{
		char	   *end;
		long		marker;

		if (*p != MF_NESTED_MARK)
		{
			appendStringInfoChar(&sql, *p++);
			continue;
		}
		marker = strtol(p + 1, &end, 10);
		if (*end != MF_NESTED_MARK || marker < 1 || marker > nparams)
			return NULL;
		appendStringInfo(&sql, "mf_k.p%ld", marker);
		p = end + 1;
	}
	appendStringInfoString(&sql, ") AS mf_s");
	return sql.data;
}
