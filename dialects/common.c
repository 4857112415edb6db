/*-------------------------------------------------------------------------
 *
 * common.c
 *		Helpers several dialects share: quoting, the VALUES-list INSERT,
 *		and the lookup in a dialect's table of native error numbers.
 *
 * String literals are written the standard SQL way, quotes doubled and
 * backslashes left alone.  That is only correct because every dialect's
 * session treats backslashes in literals as ordinary characters (MySQL
 * through NO_BACKSLASH_ESCAPES, PostgreSQL through
 * standard_conforming_strings, SQL Server and Oracle always); a dialect
 * that cannot promise this must write its own quote_literal.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "lib/stringinfo.h"
#include "utils/memutils.h"

#include "catalog/pg_type.h"
#include "dialect.h"
#include "nodes/parsenodes.h"

/*
 * Wrap ident in open/close; an embedded close character is doubled, which
 * is how all of our remote grammars escape it ("", ``, ]]).
 */
void
mf_quote_ident_with(StringInfo buf, const char *ident, char open, char close)
{
	const char *p;

	appendStringInfoChar(buf, open);
	for (p = ident; *p; p++)
	{
		if (*p == close)
			appendStringInfoChar(buf, close);
		appendStringInfoChar(buf, *p);
	}
	appendStringInfoChar(buf, close);
}

void
mf_quote_literal_sql(StringInfo buf, const char *str)
{
	const char *p;

	appendStringInfoChar(buf, '\'');
	for (p = str; *p; p++)
	{
		if (*p == '\'')
			appendStringInfoChar(buf, '\'');
		appendStringInfoChar(buf, *p);
	}
	appendStringInfoChar(buf, '\'');
}

/*
 * <prefix> <table>(<c1>, <c2>) VALUES (<p1>, <p2>), (<p3>, <p4>)<suffix>
 *
 * A batch statement can carry tens of thousands of placeholders, so the
 * buffer is grown once up front and each placeholder is appended in
 * constant time: the whole statement is built in linear time.
 */
void
mf_deparse_values_insert(StringInfo buf, const char *table,
						 const char *const *columns, int ncols,
						 int nrows, const char *placeholder_fmt,
						 const char *prefix, const char *suffix)
{
	bool		numbered = (strchr(placeholder_fmt, '%') != NULL);
	size_t		phlen;
	size_t		estimate;
	int			n = 1;
	int			row;
	int			col;

	appendStringInfo(buf, "%s %s", prefix, table);

	if (ncols == 0)
	{
		appendStringInfo(buf, " DEFAULT VALUES%s", suffix);
		return;
	}

	appendStringInfoChar(buf, '(');
	for (col = 0; col < ncols; col++)
	{
		if (col > 0)
			appendStringInfoString(buf, ", ");
		appendStringInfoString(buf, columns[col]);
	}
	appendStringInfoString(buf, ") VALUES ");

	/*
	 * A numbered placeholder is at most the format plus the ten digits of
	 * an int; each one is followed by ", " or "), (".  Only a hint: the
	 * appends below still grow the buffer if it is wrong.
	 */
	phlen = strlen(placeholder_fmt) + (numbered ? 10 : 0) + 4;
	estimate = (size_t) nrows * (size_t) ncols * phlen + strlen(suffix) + 1;
	if (estimate < (size_t) (MaxAllocSize - buf->len - 1))
		enlargeStringInfo(buf, (int) estimate);

	for (row = 0; row < nrows; row++)
	{
		appendStringInfoString(buf, row > 0 ? ", (" : "(");
		for (col = 0; col < ncols; col++, n++)
		{
			if (col > 0)
				appendStringInfoString(buf, ", ");
			if (numbered)
				appendStringInfo(buf, placeholder_fmt, n);
			else
				appendStringInfoString(buf, placeholder_fmt);
		}
		appendStringInfoChar(buf, ')');
	}
	appendStringInfoString(buf, suffix);
}

/*
 * The six comparisons that mean the same thing in every SQL dialect for
 * numbers and dates.  The parser has already turned != into <>.
 */
bool
mf_builtin_comparison(const char *opname)
{
	static const char *const comparisons[] = {
		"=", "<>", "<", ">", "<=", ">="
	};
	size_t		i;

	for (i = 0; i < lengthof(comparisons); i++)
	{
		if (strcmp(opname, comparisons[i]) == 0)
			return true;
	}
	return false;
}

/*
 * *conn_lost is only ever raised, never cleared: the caller passes in what
 * the transport already knows, and an entry can only add that the error
 * means the connection is gone.
 *
 * The tables are a few dozen entries long and only consulted when a
 * statement has already failed, so a linear search is fine.
 */
const char *
mf_dialect_sqlstate(const MfDialect *dialect, long native_code,
					bool *conn_lost)
{
	int			i;

	for (i = 0; i < dialect->n_error_map; i++)
	{
		const MfErrorMap *entry = &dialect->error_map[i];

		if (entry->native_code == native_code)
		{
			if (conn_lost && entry->conn_lost)
				*conn_lost = true;
			return entry->sqlstate;
		}
	}
	return NULL;
}

/*
 * For dialects that cannot spell NaN or an infinity (of numbers, dates or
 * timestamps): such a constant is not shipped, so the condition around it is
 * evaluated locally rather than compared against something else remotely.
 */
bool
mf_const_finite(Oid typid, const char *value)
{
	const char *v = value;

	if (*v == '-' || *v == '+')
		v++;
	return pg_strcasecmp(v, "nan") != 0 && pg_strcasecmp(v, "infinity") != 0 &&
		pg_strcasecmp(v, "inf") != 0;
}

/*
 * Skip a number as SQL lexers read a numeric constant:
 * [sign] digits [. digits] [e [sign] digits].  Advances *p past it and says
 * whether there was one; special values (NaN, Infinity) are not numbers.
 */
bool
mf_eat_number(const char **p)
{
	const char *s = *p;
	bool		digits = false;

	if (*s == '+' || *s == '-')
		s++;
	while (isdigit((unsigned char) *s))
	{
		s++;
		digits = true;
	}
	if (*s == '.')
	{
		s++;
		while (isdigit((unsigned char) *s))
		{
			s++;
			digits = true;
		}
	}
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E')
	{
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char) *s))
			return false;
		while (isdigit((unsigned char) *s))
			s++;
	}
	*p = s;
	return true;
}

/* Is s exactly one such number? */
bool
mf_plain_number(const char *s)
{
	return mf_eat_number(&s) && *s == '\0';
}

/*
 * IMPORT FOREIGN SCHEMA's LIMIT TO / EXCEPT as a condition on the catalog
 * column that holds the table name: " AND column [NOT] IN ('a', 'b')".
 * An empty LIMIT TO imports nothing; "nothing" is the dialect's false.
 */
void
mf_import_name_filter(StringInfo buf, const MfImportFilter *filter,
					  const char *column,
					  void (*quote) (StringInfo buf, const char *str),
					  const char *nothing)
{
	bool		except = (filter->list_type == FDW_IMPORT_SCHEMA_EXCEPT);
	ListCell   *lc;
	bool		first = true;

	if (filter->list_type != FDW_IMPORT_SCHEMA_LIMIT_TO && !except)
		return;
	if (filter->table_names == NIL)
	{
		/* the grammar never gives an empty list, but be exact anyway */
		if (!except)
			appendStringInfo(buf, " AND %s", nothing);
		return;
	}
	appendStringInfo(buf, " AND %s %sIN (", column, except ? "NOT " : "");
	foreach(lc, filter->table_names)
	{
		if (!first)
			appendStringInfoString(buf, ", ");
		first = false;
		quote(buf, (const char *) lfirst(lc));
	}
	appendStringInfoChar(buf, ')');
}

/* A number type every dialect has a counterpart for. */
bool
mf_is_number_type(Oid typid)
{
	switch (typid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case FLOAT4OID:
		case FLOAT8OID:
		case NUMERICOID:
			return true;
		default:
			return false;
	}
}
