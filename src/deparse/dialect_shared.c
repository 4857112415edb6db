/*-------------------------------------------------------------------------
 *
 * dialect_shared.c
 *		Helpers several dialects share: parameter markers, quoting, the
 *		VALUES-list INSERT, numbers and times, the import filter, remote
 *		type spellings.
 *
 * String literals are written the standard SQL way, quotes doubled and
 * backslashes left alone.  That is only correct because every dialect's
 * session treats backslashes in literals as ordinary characters (MySQL
 * through NO_BACKSLASH_ESCAPES, PostgreSQL through
 * standard_conforming_strings, SQL Server and Oracle always); a dialect
 * that cannot promise this must write its own quote_literal.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "lib/stringinfo.h"
#include "utils/memutils.h"

#include "catalog/pg_type.h"
#include "deparse/dialect_shared.h"
#include "nodes/parsenodes.h"

/*
 * The marker of the number-th (1-based) parameter of a statement, in the
 * style of the transport that sends it: the one place that writes one, so
 * that no transport has to read SQL to find its markers.  A positional
 * marker takes the value of its place, not of its number: callers number
 * parameters in the order their markers appear, and give a value used
 * twice two parameters (mf_deparse_placeholder, mf_marker's formats).
 */
void
mf_append_marker(StringInfo buf, MfMarkerStyle markers, int number)
{
	Assert(number >= 1);
	if (markers == MF_MARKERS_NUMBERED)
		appendStringInfo(buf, "$%d", number);
	else
		appendStringInfoChar(buf, '?');
}

/* The same, palloc'd, for a fixed query written as a format. */
char *
mf_marker(MfMarkerStyle markers, int number)
{
	StringInfoData buf;

	initStringInfo(&buf);
	mf_append_marker(&buf, markers, number);
	return buf.data;
}

/*
 * A dialect's catalog query, a format with a %s for the marker of each of
 * its nparams parameters (one or two), with the markers written in.
 */
char *
mf_deparse_catalog_query(const char *fmt, MfMarkerStyle markers, int nparams)
{
	Assert(nparams == 1 || nparams == 2);
	if (nparams == 1)
		return psprintf(fmt, mf_marker(markers, 1));
	return psprintf(fmt, mf_marker(markers, 1), mf_marker(markers, 2));
}

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
 * A batch statement can carry tens of thousands of markers, so the
 * buffer is grown once up front and each marker is appended in
 * constant time: the whole statement is built in linear time.
 */
void
mf_deparse_values_insert(StringInfo buf, const char *table,
						 const char *const *columns, int ncols,
						 int nrows, MfMarkerStyle markers,
						 const char *prefix, const char *suffix)
{
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
	 * A numbered marker is at most "$" and the ten digits of an int; each
	 * one is followed by ", " or "), (".  Only a hint: the appends below
	 * still grow the buffer if it is wrong.
	 */
	phlen = (markers == MF_MARKERS_NUMBERED ? 11 : 1) + 4;
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
			mf_append_marker(buf, markers, n);
		}
		appendStringInfoChar(buf, ')');
	}
	appendStringInfoString(buf, suffix);
}

/*
 * "TRUNCATE TABLE t" for remotes that take one table at a time and no
 * CASCADE.
 */
void
mf_deparse_truncate_table(StringInfo buf, const char *table)
{
	appendStringInfo(buf, "TRUNCATE TABLE %s", table);
}

/*
 * NOWAIT and SKIP LOCKED, spelt alike by PostgreSQL, MySQL 8, MariaDB 10.6
 * and Oracle after their lock clauses.
 */
bool
mf_append_wait_policy(StringInfo buf, LockWaitPolicy wait)
{
	switch (wait)
	{
		case LockWaitBlock:
			break;
		case LockWaitSkip:
			appendStringInfoString(buf, " SKIP LOCKED");
			break;
		case LockWaitError:
			appendStringInfoString(buf, " NOWAIT");
			break;
	}
	return true;
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
 * For dialects that cannot spell NaN, an infinity (of numbers, dates or
 * timestamps) or a date before year 1 (PostgreSQL's "... BC", which MySQL
 * reads as a year AD with a warning and SQL Server refuses): such a
 * constant is not shipped, so the condition around it is evaluated locally
 * rather than compared against something else remotely.
 */
bool
mf_const_finite(Oid typid, const char *value)
{
	const char *v = value;

	if ((typid == DATEOID || typid == TIMESTAMPOID || typid == TIMESTAMPTZOID) &&
		strstr(value, " BC") != NULL)
		return false;
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
 * Append a plain number (mf_plain_number) as a numeric constant, in
 * parentheses when signed so that no "--" (a comment) can form next to a
 * minus.  float_exponent: add "e0" where the number has no exponent, for
 * remotes that read 0.1 as an exact decimal and 0.1e0 as a double.
 */
void
mf_append_number(StringInfo buf, const char *value, bool float_exponent)
{
	bool		signed_ = (value[0] == '-' || value[0] == '+');

	appendStringInfo(buf, "%s%s%s%s",
					 signed_ ? "(" : "",
					 value,
					 (float_exponent && strpbrk(value, "eE") == NULL) ? "e0" : "",
					 signed_ ? ")" : "");
}

/*
 * Date/time types that compare the same way on both sides: a date or
 * timestamp with either, a timestamptz or a time with its own kind only.
 * A timestamptz against a plain one is compared in our session's time zone
 * here and in UTC there.
 */
bool
mf_comparable_times(Oid left, Oid right)
{
	if ((left == DATEOID || left == TIMESTAMPOID) &&
		(right == DATEOID || right == TIMESTAMPOID))
		return true;
	if (left == TIMESTAMPTZOID && right == TIMESTAMPTZOID)
		return true;
	if (left == TIMEOID && right == TIMEOID)
		return true;
	return false;
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

/*
 * A sampling fraction or percentage as a plain decimal that every dialect
 * reads: six significant digits however small it is (a huge table's share
 * would print as 0.000000 with a fixed six decimals, and sample nothing).
 */
void
mf_append_fraction(StringInfo buf, double fraction)
{
	int			digits = 6;

	for (double x = fraction; x > 0 && x < 0.1 && digits < 20; x *= 10)
		digits++;
	appendStringInfo(buf, "%.*f", digits, fraction);
}

/*
 * A remote catalog's type spelling, split into the parts the dialects map
 * from: "int(11) unsigned" gives name "int", args {11}, rest "unsigned";
 * "NUMBER(*,2)" gives "number", {-1, 2}; "nvarchar(max)" sets is_max;
 * "VARCHAR2(10 CHAR)" drops the length unit; "enum('a','b')" has nargs -1
 * (the arguments are not numbers).  Names and words are lower-cased.
 * False when the text is not a type spelling at all.
 */
bool
mf_parse_remote_type(const char *text, MfRemoteType *t)
{
	const char *p = text;
	int			len = 0;

	memset(t, 0, sizeof(*t));
	if (p == NULL)
		return false;

	while (isspace((unsigned char) *p))
		p++;
	while (isalnum((unsigned char) *p) || *p == '_')
	{
		if (len >= (int) sizeof(t->name) - 1)
			return false;
		t->name[len++] = pg_ascii_tolower((unsigned char) *p);
		p++;
	}
	if (len == 0)
		return false;
	t->name[len] = '\0';

	while (isspace((unsigned char) *p))
		p++;
	if (*p == '(')
	{
		const char *open = p;

		p++;
		while (isspace((unsigned char) *p))
			p++;
		if (pg_strncasecmp(p, "max", 3) == 0 && !isalnum((unsigned char) p[3]))
		{
			t->is_max = true;
			p += 3;
		}
		else
		{
			for (;;)
			{
				long		v = 0;
				bool		neg = false;

				while (isspace((unsigned char) *p))
					p++;
				if (*p == '*')
				{
					v = -1;
					p++;
				}
				else
				{
					if (*p == '-')
					{
						neg = true;
						p++;
					}
					if (!isdigit((unsigned char) *p) || t->nargs >= 2)
					{
						t->nargs = -1;
						break;
					}
					while (isdigit((unsigned char) *p))
					{
						if (v < 100000000)
							v = v * 10 + (*p - '0');
						p++;
					}
					if (neg)
						v = -v;
				}
				t->args[t->nargs++] = (int) v;
				while (isspace((unsigned char) *p))
					p++;
				/* Oracle's length units */
				if ((pg_strncasecmp(p, "byte", 4) == 0 ||
					 pg_strncasecmp(p, "char", 4) == 0) &&
					!isalnum((unsigned char) p[4]))
					p += 4;
				while (isspace((unsigned char) *p))
					p++;
				if (*p != ',')
					break;
				p++;
			}
		}
		if (t->nargs == -1)
		{
			/* skip to the closing parenthesis, over quoted strings */
			char		quote = 0;

			for (p = open + 1; *p != '\0'; p++)
			{
				if (quote != 0)
				{
					if (*p == quote)
						quote = 0;
				}
				else if (*p == '\'' || *p == '"')
					quote = *p;
				else if (*p == ')')
					break;
			}
		}
		while (isspace((unsigned char) *p))
			p++;
		if (*p != ')')
			return false;
		p++;
	}

	/* the remaining words, lower-cased, one space apart */
	len = 0;
	for (;;)
	{
		while (isspace((unsigned char) *p))
			p++;
		if (*p == '\0')
			break;
		if (len > 0)
		{
			if (len >= (int) sizeof(t->rest) - 1)
				return false;
			t->rest[len++] = ' ';
		}
		while (*p != '\0' && !isspace((unsigned char) *p))
		{
			if (len >= (int) sizeof(t->rest) - 1)
				return false;
			t->rest[len++] = pg_ascii_tolower((unsigned char) *p);
			p++;
		}
	}
	t->rest[len] = '\0';
	return true;
}

/* "character varying(n)" or "character varying", n within PostgreSQL's range */
char *
mf_map_char_type(bool varying, const MfRemoteType *t)
{
	const char *local = varying ? "character varying" : "character";

	if (t->is_max)
		return pstrdup("text");
	if (t->nargs == 1 && t->args[0] >= 1 && t->args[0] <= 10485760)
		return psprintf("%s(%d)", local, t->args[0]);
	return pstrdup(local);
}

/*
 * The standard SQL and ODBC type names, as a driver's catalog functions
 * (SQLColumns' TYPE_NAME) report them when the database behind the driver
 * is not the one the dialect was written for: a dialect's map_type falls
 * back on this.  Built from the parsed numbers only.
 */
char *
mf_map_standard_type(const MfRemoteType *t)
{
	const char *n = t->name;

	if (t->rest[0] != '\0' && strcmp(t->rest, "unsigned") != 0 &&
		strcmp(t->rest, "precision") != 0)
		return NULL;
	if (strcmp(n, "bit") == 0 && (t->nargs <= 0 || t->args[0] == 1))
		return pstrdup("boolean");
	if (strcmp(n, "boolean") == 0 || strcmp(n, "bool") == 0)
		return pstrdup("boolean");
	if (strcmp(n, "tinyint") == 0 || strcmp(n, "smallint") == 0)
		return pstrdup(strcmp(t->rest, "unsigned") == 0 && n[0] == 's' ?
					   "integer" : "smallint");
	if (strcmp(n, "int") == 0 || strcmp(n, "integer") == 0)
		return pstrdup(strcmp(t->rest, "unsigned") == 0 ? "bigint" : "integer");
	if (strcmp(n, "bigint") == 0)
		return pstrdup(strcmp(t->rest, "unsigned") == 0 ?
					   "numeric(20,0)" : "bigint");
	if (strcmp(n, "decimal") == 0 || strcmp(n, "numeric") == 0 ||
		strcmp(n, "number") == 0)
	{
		if (t->nargs >= 1 && t->args[0] >= 1 && t->args[0] <= 1000)
			return psprintf("numeric(%d,%d)", t->args[0],
							t->nargs == 2 ? t->args[1] : 0);
		return pstrdup("numeric");
	}
	if (strcmp(n, "real") == 0)
		return pstrdup("real");
	if (strcmp(n, "float") == 0 || strcmp(n, "double") == 0)
		return pstrdup("double precision");
	if (strcmp(n, "char") == 0 || strcmp(n, "nchar") == 0)
		return mf_map_char_type(false, t);
	if (strcmp(n, "varchar") == 0 || strcmp(n, "nvarchar") == 0 ||
		strcmp(n, "varchar2") == 0 || strcmp(n, "nvarchar2") == 0)
		return mf_map_char_type(true, t);
	if (strcmp(n, "text") == 0 || strcmp(n, "tinytext") == 0 ||
		strcmp(n, "mediumtext") == 0 || strcmp(n, "longtext") == 0 ||
		strcmp(n, "clob") == 0)
		return pstrdup("text");
	if (strcmp(n, "date") == 0)
		return pstrdup("date");
	if (strcmp(n, "time") == 0)
		return pstrdup("time without time zone");
	if (strcmp(n, "datetime") == 0 || strcmp(n, "timestamp") == 0)
		return pstrdup("timestamp without time zone");
	if (strcmp(n, "binary") == 0 || strcmp(n, "varbinary") == 0 ||
		strcmp(n, "blob") == 0 || strcmp(n, "tinyblob") == 0 ||
		strcmp(n, "mediumblob") == 0 || strcmp(n, "longblob") == 0 ||
		strcmp(n, "raw") == 0)
		return pstrdup("bytea");
	return NULL;
}
