/*-------------------------------------------------------------------------
 *
 * oracle.c
 *		The Oracle dialect (over ODBC).
 *
 * What this dialect assumes about the remote session: session_setup_sql is
 * NULL, because the test stand-in for Oracle is MariaDB in Oracle mode,
 * which has no ALTER SESSION.  A real Oracle session needs, for values to
 * travel as text the way both sides read them:
 *
 *   ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS'
 *   ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'YYYY-MM-DD HH24:MI:SS.FF6'
 *   ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT =
 *       'YYYY-MM-DD HH24:MI:SS.FF6TZH:TZM'
 *   ALTER SESSION SET NLS_NUMERIC_CHARACTERS = '.,'
 *   ALTER SESSION SET TIME_ZONE = '+00:00'
 *
 * (one statement each: Oracle runs one statement per call).  They are to
 * come from the odbc transport's connection options / server options until
 * they can be tried against a real Oracle; that ground is untested.
 *
 * Things to know about Oracle's SQL that shape this file:
 * - A string literal never needs backslash handling, but '' is NULL: an
 *   empty string cannot be stored or compared, and a local empty string
 *   sent as a constant matches nothing.  The remote cannot hold empty
 *   strings anyway, so what we read back is already NULL.
 * - There is no multi-row VALUES, no DEFAULT VALUES and no RELEASE
 *   SAVEPOINT.
 * - Transactions start implicitly with the first statement; the odbc
 *   transport turns autocommit off, so no BEGIN is sent.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "deparse/dialect_shared.h"

static void
mforacle_quote_ident(StringInfo buf, const char *ident)
{
	mf_quote_ident_with(buf, ident, '"', '"');
}

/*
 * One row: plain VALUES.  Several rows: Oracle has no multi-row VALUES, so
 * the rows come from a UNION ALL over DUAL.  The WITH goes after the column
 * list (it is part of the INSERT's subquery; Oracle does not take it before
 * INSERT).  Only the first branch names its columns, which is all a UNION
 * needs; the names are the target columns, already quoted.
 *
 *   INSERT INTO t ("a", "b") WITH x AS (SELECT ? "a", ? "b" FROM DUAL
 *   UNION ALL SELECT ?, ? FROM DUAL) SELECT * FROM x
 *
 * Zero columns: Oracle has no DEFAULT VALUES, and VALUES (DEFAULT) is only
 * right for a one-column table; the core must not send a zero-column
 * insert to this dialect, this is only a readable failure if it does.
 */
static void
mforacle_deparse_insert(StringInfo buf, const char *table,
						const char *const *columns, int ncols, int nrows,
						bool do_nothing, MfMarkerStyle markers)
{
	int			n = 1;
	size_t		estimate;
	size_t		collen = 0;
	int			row;
	int			col;

	if (ncols == 0)
	{
		appendStringInfo(buf, "INSERT INTO %s VALUES (DEFAULT)", table);
		return;
	}

	appendStringInfo(buf, "INSERT INTO %s (", table);
	for (col = 0; col < ncols; col++)
	{
		if (col > 0)
			appendStringInfoString(buf, ", ");
		appendStringInfoString(buf, columns[col]);
		collen += strlen(columns[col]) + 4;
	}
	appendStringInfoChar(buf, ')');

	if (nrows == 1)
	{
		appendStringInfoString(buf, " VALUES (");
		for (col = 0; col < ncols; col++)
		{
			if (col > 0)
				appendStringInfoString(buf, ", ");
			mf_append_marker(buf, markers, n++);
		}
		appendStringInfoChar(buf, ')');
		return;
	}

	/*
	 * a marker and ", " per value, " FROM DUAL UNION ALL SELECT " per row;
	 * only a hint, the appends grow the buffer if it is short
	 */
	estimate = collen + (size_t) nrows *
		((size_t) ncols * (markers == MF_MARKERS_NUMBERED ? 13 : 3) + 30) + 64;
	if (estimate < (size_t) (MaxAllocSize - buf->len - 1))
		enlargeStringInfo(buf, (int) estimate);

	appendStringInfoString(buf, " WITH x AS (SELECT ");
	for (col = 0; col < ncols; col++)
	{
		if (col > 0)
			appendStringInfoString(buf, ", ");
		mf_append_marker(buf, markers, n++);
		appendStringInfo(buf, " %s", columns[col]);
	}
	appendStringInfoString(buf, " FROM DUAL");

	for (row = 1; row < nrows; row++)
	{
		appendStringInfoString(buf, " UNION ALL SELECT ");
		for (col = 0; col < ncols; col++)
		{
			if (col > 0)
				appendStringInfoString(buf, ", ");
			mf_append_marker(buf, markers, n++);
		}
		appendStringInfoString(buf, " FROM DUAL");
	}
	appendStringInfoString(buf, ") SELECT * FROM x");
}

/*
 * Oracle 12c's row limiting clause, after the ORDER BY if there is one
 * (none is needed).  FETCH FIRST 0 ROWS ONLY returns no row.
 */
static void
mforacle_deparse_limit_offset(StringInfo buf, int64 count, int64 offset,
							  bool ordered)
{
	if (offset > 0)
		appendStringInfo(buf, " OFFSET " INT64_FORMAT " ROWS", offset);
	if (count >= 0)
		appendStringInfo(buf, " FETCH FIRST " INT64_FORMAT " ROWS ONLY", count);
}

/*
 * Oracle opens a transaction with its first statement; a read-only local
 * one makes that statement SET TRANSACTION READ ONLY, which must come
 * first (and the MariaDB stand-in reads as the next transaction's mode).
 * Otherwise nothing is sent: autocommit off opens it.
 */
static const char *
mforacle_begin_sql(bool serializable, bool read_only, bool deferrable)
{
	return read_only ? "SET TRANSACTION READ ONLY" : NULL;
}

static void
mforacle_deparse_limit(StringInfo buf, int64 count, bool ordered)
{
	mforacle_deparse_limit_offset(buf, count, 0, ordered);
}

/*
 * What Oracle computes as PostgreSQL does, value and type.  COUNT and SUM
 * are NUMBERs, exact decimals of 38 digits: more than any count, and than
 * any sum of int2, int4 or int8 values a table can hold (read back as our
 * bigint or numeric).  MIN and MAX return one of their values, where
 * Oracle orders them as we do (the core checks the order): integers,
 * float8, dates and timestamps.  Not numeric: a NUMBER keeps no trailing
 * zeros, so min(n) would come back as 1.5 where ours, of values our
 * column's typmod made, is 1.500000; nor SUM of numeric, for the same
 * reason.  AVG is a NUMBER rounded to 38 digits, ours has another scale;
 * the statistics use other algorithms; text stays local (NLS_SORT, and ''
 * being NULL).
 */
static const MfAggregate mforacle_aggregates[] = {
	{"count", InvalidOid, "COUNT", true, false, NULL},
	{"sum", INT2OID, "SUM", true, false, NULL},
	{"sum", INT4OID, "SUM", true, false, NULL},
	{"sum", INT8OID, "SUM", true, false, NULL},
	{"min", INT2OID, "MIN", true, true, NULL},
	{"min", INT4OID, "MIN", true, true, NULL},
	{"min", INT8OID, "MIN", true, true, NULL},
	{"min", FLOAT8OID, "MIN", true, true, NULL},
	{"min", DATEOID, "MIN", true, true, NULL},
	{"min", TIMESTAMPOID, "MIN", true, true, NULL},
	{"max", INT2OID, "MAX", true, true, NULL},
	{"max", INT4OID, "MAX", true, true, NULL},
	{"max", INT8OID, "MAX", true, true, NULL},
	{"max", FLOAT8OID, "MAX", true, true, NULL},
	{"max", DATEOID, "MAX", true, true, NULL},
	{"max", TIMESTAMPOID, "MAX", true, true, NULL},
};

/*
 * Oracle has no shared row lock: FOR SHARE is sent as FOR UPDATE, which
 * keeps the rows from changing as asked, and also blocks other lockers.
 */
static bool
mforacle_deparse_lock(StringInfo buf, LockClauseStrength strength,
					  LockWaitPolicy wait)
{
	appendStringInfoString(buf, " FOR UPDATE");
	return mf_append_wait_policy(buf, wait);
}

/*
 * One table per TRUNCATE TABLE.  Oracle's CASCADE reaches only children
 * whose foreign keys say ON DELETE CASCADE, and its TRUNCATE leaves
 * identity columns where they were: PostgreSQL's CASCADE and RESTART
 * IDENTITY are refused rather than half done.
 */
static const char *
mforacle_deparse_truncate(StringInfo buf, const char *const *tables,
						  int ntables, bool restart_seqs, bool cascade)
{
	if (cascade)
		return "CASCADE";
	if (restart_seqs)
		return "RESTART IDENTITY";
	mf_deparse_truncate_table(buf, tables[0]);
	return NULL;
}

static const MfErrorMap mforacle_errors[] = {
	{1, "23505", false},		/* ORA-00001 unique constraint violated */
	{2291, "23503", false},		/* parent key not found */
	{2292, "23503", false},		/* child record found */
	{1400, "23502", false},		/* cannot insert NULL */
	{1407, "23502", false},		/* cannot update to NULL */
	{12899, "22001", false},	/* value too large for column */
	{1438, "22003", false},		/* value larger than precision allows */
	{1476, "22012", false},		/* divisor is equal to zero */
	{1722, "22P02", false},		/* invalid number */
	{8177, "40001", false},		/* cannot serialize access */
	{60, "40P01", false},		/* deadlock detected */
	{942, "42P01", false},		/* table or view does not exist */
	{904, "42703", false},		/* invalid identifier */
	{1031, "42501", false},		/* insufficient privileges */
	{1017, "28000", false},		/* invalid username/password */
	{3113, "08006", true},		/* end-of-file on communication channel */
	{3114, "08006", true},		/* not connected to Oracle */
	{3135, "08006", true},		/* connection lost contact */
};

static bool
mforacle_type_shippable(Oid typid)
{
	switch (typid)
	{
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
		case DATEOID:
		case TIMESTAMPOID:
			return true;
		default:
			return mf_is_number_type(typid);
	}
}

/*
 * Comparisons of numbers and of dates.  Text is never compared remotely:
 * Oracle's result depends on NLS_COMP/NLS_SORT, and '' being NULL changes
 * what = and <> return.
 */
static bool
mforacle_operator_shippable(const char *opname, Oid left, Oid right,
							Oid inputcollid)
{
	if (!mf_builtin_comparison(opname))
		return false;
	if (mf_is_number_type(left) && mf_is_number_type(right))
		return true;
	if ((left == DATEOID || left == TIMESTAMPOID) &&
		(right == DATEOID || right == TIMESTAMPOID))
		return true;
	return false;
}

/*
 * A real (float4) constant is not sent: written bare, Oracle reads it as a
 * NUMBER and compares it with a BINARY_FLOAT column in the wider type, so
 * 3.4028233e38 no longer equals the column's value rounded to a real.
 * Such a condition is checked here.  Other numbers: finite ones.
 */
static bool
mforacle_const_shippable(Oid typid, const char *value)
{
	if (typid == FLOAT4OID)
		return false;
	return mf_const_finite(typid, value);
}

/*
 * Numbers bare, parenthesised when signed: "x - -1" could otherwise come
 * out as "x --1", which Oracle reads as a comment.  Dates and timestamps
 * as ANSI DATE '...' / TIMESTAMP '...' literals, whose format is fixed
 * whatever the NLS settings; PostgreSQL's ISO output is the form they
 * take.  Booleans as 1/0, Oracle's usual NUMBER(1) flags.
 */
static void
mforacle_deparse_const(StringInfo buf, Oid typid, int32 typmod,
					   const char *value)
{
	switch (typid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case NUMERICOID:
		case FLOAT4OID:
		case FLOAT8OID:
			if (!mf_plain_number(value))
				mf_quote_literal_sql(buf, value);	/* NaN: not shipped */
			else
				mf_append_number(buf, value, false);
			break;

		case BOOLOID:
			appendStringInfoChar(buf,
								 (value[0] == 't' || value[0] == 'T') ?
								 '1' : '0');
			break;

		case DATEOID:
			appendStringInfoString(buf, "DATE ");
			mf_quote_literal_sql(buf, value);
			break;

		case TIMESTAMPOID:
			appendStringInfoString(buf, "TIMESTAMP ");
			mf_quote_literal_sql(buf, value);
			break;

		default:
			mf_quote_literal_sql(buf, value);
			break;
	}
}

/*
 * The data dictionary query; the MariaDB stand-in has no ALL_TAB_COLUMNS,
 * so this is not exercised by the tests.  The type is put back together
 * the way a column definition spells it (DATA_TYPE already carries the
 * precision of TIMESTAMP and INTERVAL types).  A NUMBER declared as
 * INTEGER has no precision and scale 0: it is reported as NUMBER(38,0).
 * Tables in the recycle bin (BIN$...) are skipped.  DATA_DEFAULT is a
 * LONG, which may be selected but not used in any expression.
 */
static void
mforacle_import_query(StringInfo buf, const MfImportFilter *filter)
{
	appendStringInfoString(buf,
						   "SELECT c.TABLE_NAME, c.COLUMN_NAME,"
						   " CASE"
						   " WHEN c.DATA_TYPE = 'NUMBER'"
						   " AND c.DATA_PRECISION IS NOT NULL"
						   " THEN 'NUMBER(' || c.DATA_PRECISION || ','"
						   " || NVL(c.DATA_SCALE, 0) || ')'"
						   " WHEN c.DATA_TYPE = 'NUMBER' AND c.DATA_SCALE = 0"
						   " THEN 'NUMBER(38,0)'"
						   " WHEN c.DATA_TYPE IN ('VARCHAR2', 'NVARCHAR2',"
						   " 'CHAR', 'NCHAR')"
						   " THEN c.DATA_TYPE || '(' || c.CHAR_LENGTH || ')'"
						   " WHEN c.DATA_TYPE = 'RAW'"
						   " THEN 'RAW(' || c.DATA_LENGTH || ')'"
						   " ELSE c.DATA_TYPE END,"
						   " CASE WHEN c.NULLABLE = 'N' THEN 't' ELSE 'f' END,"
						   " c.DATA_DEFAULT,"
						   " CASE WHEN EXISTS (SELECT 1"
						   " FROM ALL_CONSTRAINTS k"
						   " JOIN ALL_CONS_COLUMNS u"
						   " ON u.OWNER = k.OWNER"
						   " AND u.CONSTRAINT_NAME = k.CONSTRAINT_NAME"
						   " WHERE k.CONSTRAINT_TYPE = 'P'"
						   " AND k.OWNER = c.OWNER"
						   " AND k.TABLE_NAME = c.TABLE_NAME"
						   " AND u.TABLE_NAME = c.TABLE_NAME"
						   " AND u.COLUMN_NAME = c.COLUMN_NAME)"
						   " THEN 't' ELSE 'f' END"
						   " FROM ALL_TAB_COLUMNS c"
						   " WHERE c.TABLE_NAME NOT LIKE 'BIN$%'"
						   " AND c.OWNER = ");
	mf_quote_literal_sql(buf, filter->remote_schema);

	if (filter->list_type == FDW_IMPORT_SCHEMA_LIMIT_TO ||
		filter->list_type == FDW_IMPORT_SCHEMA_EXCEPT)
	{
		bool		except = (filter->list_type == FDW_IMPORT_SCHEMA_EXCEPT);

		if (filter->table_names == NIL)
		{
			if (!except)
				appendStringInfoString(buf, " AND 1 = 0");
		}
		else
		{
			ListCell   *lc;
			bool		first = true;

			/* an IN list takes at most 1000 items: OR the chunks */
			appendStringInfo(buf, " AND %s(c.TABLE_NAME IN (",
							 except ? "NOT " : "");
			foreach(lc, filter->table_names)
			{
				if (!first)
				{
					if (foreach_current_index(lc) % 1000 == 0)
						appendStringInfoString(buf,
											   ") OR c.TABLE_NAME IN (");
					else
						appendStringInfoString(buf, ", ");
				}
				first = false;
				mf_quote_literal_sql(buf, (const char *) lfirst(lc));
			}
			appendStringInfoString(buf, "))");
		}
	}

	appendStringInfoString(buf, " ORDER BY c.TABLE_NAME, c.COLUMN_ID");
}

/*
 * Built from the parsed numbers only, so no remote text reaches our DDL.
 * Integral NUMBERs get the smallest integer type that holds every value of
 * their precision.  Oracle allows nine fractional digits in a timestamp,
 * PostgreSQL six.
 */
static char *
mforacle_map_type(const char *remote_type)
{
	MfRemoteType t;
	const char *n;

	if (!mf_parse_remote_type(remote_type, &t) || t.nargs < 0)
		return NULL;
	n = t.name;

	if (strcmp(n, "timestamp") == 0)
	{
		int			prec = (t.nargs == 1) ? Min(t.args[0], 6) : 6;
		const char *zone;

		if (t.rest[0] == '\0')
			zone = "without time zone";
		else if (strcmp(t.rest, "with time zone") == 0 ||
				 strcmp(t.rest, "with local time zone") == 0)
			zone = "with time zone";
		else
			return NULL;
		if (prec < 0)
			return NULL;
		return psprintf("timestamp(%d) %s", prec, zone);
	}
	if (strcmp(n, "long") == 0 && t.nargs == 0)
	{
		if (t.rest[0] == '\0')
			return pstrdup("text");
		if (strcmp(t.rest, "raw") == 0)
			return pstrdup("bytea");
		return NULL;
	}
	if (t.rest[0] != '\0')
		return mf_map_standard_type(&t);

	if (strcmp(n, "number") == 0)
	{
		int			p,
					s;

		if (t.nargs == 0)
			return pstrdup("numeric");
		p = t.args[0];
		s = (t.nargs == 2) ? t.args[1] : 0;
		if (p == -1)
			p = 38;				/* NUMBER(*,s) */
		if (p < 1 || p > 1000 || s < -1000 || s > 1000)
			return NULL;
		if (s == 0)
		{
			if (p <= 4)
				return pstrdup("smallint");
			if (p <= 9)
				return pstrdup("integer");
			if (p <= 18)
				return pstrdup("bigint");
			return psprintf("numeric(%d)", p);
		}
		/* PostgreSQL 15 accepts negative scales and scales above p too */
		return psprintf("numeric(%d,%d)", p, s);
	}
	if (strcmp(n, "float") == 0 || strcmp(n, "binary_double") == 0)
		return pstrdup("double precision");
	if (strcmp(n, "binary_float") == 0)
		return pstrdup("real");
	if (strcmp(n, "varchar2") == 0 || strcmp(n, "nvarchar2") == 0)
		return mf_map_char_type(true, &t);
	if (strcmp(n, "char") == 0 || strcmp(n, "nchar") == 0)
		return mf_map_char_type(false, &t);
	if (strcmp(n, "clob") == 0 || strcmp(n, "nclob") == 0)
		return pstrdup("text");
	if (strcmp(n, "date") == 0)
		return pstrdup("timestamp(0) without time zone");	/* has a time */
	if (strcmp(n, "raw") == 0 || strcmp(n, "blob") == 0)
		return pstrdup("bytea");
	/* what a driver reports for a database that is not Oracle */
	return mf_map_standard_type(&t);
}

/*
 * DATA_DEFAULT is the default's text as it was written, often with
 * trailing blanks or a newline.  Only a number or a quoted literal is
 * declared locally: SYSDATE, sequences and other expressions would be
 * evaluated on our side.  Oracle's '' is NULL; declared locally it is an
 * empty string, which Oracle stores as NULL all the same.
 */
static bool
mforacle_default_importable(const char *remote_default)
{
	const char *p = remote_default;

	if (p == NULL)
		return false;
	while (isspace((unsigned char) *p))
		p++;

	if (*p == '\'')
	{
		p++;
		for (;;)
		{
			if (*p == '\0')
				return false;
			if (*p == '\'')
			{
				if (p[1] != '\'')
					break;
				p++;
			}
			p++;
		}
		p++;
	}
	else
	{
		const char *start = p;
		const char *end;
		char	   *copy;
		bool		ok;

		end = p;
		while (*end && !isspace((unsigned char) *end))
			end++;
		copy = pnstrdup(start, end - start);
		ok = mf_plain_number(copy);
		pfree(copy);
		if (!ok)
			return false;
		p = end;
	}

	while (isspace((unsigned char) *p))
		p++;
	return *p == '\0';
}

/*
 * Oracle's SAMPLE draws rows (BERNOULLI), SAMPLE BLOCK pages (SYSTEM);
 * its percentage must stay under 100, which a fraction below 1 does, and
 * at or above 0.000001.
 */
static bool
mforacle_deparse_sample(StringInfo buf, MfSampleMethod method, double fraction)
{
	switch (method)
	{
		case MF_SAMPLE_RANDOM:
			appendStringInfoString(buf, " WHERE DBMS_RANDOM.VALUE < ");
			mf_append_fraction(buf, fraction);
			return true;
		case MF_SAMPLE_SYSTEM:
		case MF_SAMPLE_BERNOULLI:
			appendStringInfoString(buf, method == MF_SAMPLE_SYSTEM ?
								   " SAMPLE BLOCK (" : " SAMPLE (");
			mf_append_fraction(buf, Max(100.0 * fraction, 0.000001));
			appendStringInfoChar(buf, ')');
			return true;
		default:
			return false;
	}
}

const MfDialect mf_dialect_oracle = {
	.name = "oracle",
	.default_transport = "odbc",

	.quote_ident = mforacle_quote_ident,
	.quote_literal = mf_quote_literal_sql,
	.deparse_insert = mforacle_deparse_insert,

	.max_params = 65535,
	.max_rows_per_insert = 0,
	.max_in_list = 1000,		/* ORA-01795 */
	.max_ident_bytes = 128,		/* 12.2 and later; 30 before */

	.savepoint_fmt = "SAVEPOINT s%d",
	.release_savepoint_fmt = NULL,	/* Oracle has no RELEASE SAVEPOINT */
	.rollback_to_savepoint_fmt = "ROLLBACK TO SAVEPOINT s%d",

	.session_setup_sql = NULL,	/* see the top of the file */
	.begin_sql = mforacle_begin_sql,
	/* NULL until the transaction's first change */
	.xact_open_sql = "SELECT SYS.DBMS_TRANSACTION.LOCAL_TRANSACTION_ID FROM SYS.DUAL",
	.deparse_limit = mforacle_deparse_limit,
	.deparse_limit_offset = mforacle_deparse_limit_offset,
	.aggregates = mforacle_aggregates,
	.n_aggregates = lengthof(mforacle_aggregates),
	.aggregate_filter = false,

	/*
	 * Oracle sorts NULLs high and has NULLS FIRST/LAST; the MariaDB
	 * stand-in sorts them low and has no NULLS clause.  A key that places
	 * them goes before every sort key, exact on both.
	 */
	.nulls_order = MF_NULLS_KEY,
	.nulls_key_case = true,
	.group_by_expressions = true,

	.error_map = mforacle_errors,
	.n_error_map = lengthof(mforacle_errors),

	/*
	 * Oracle has FULL JOIN too, but the test bed's stand-in (MariaDB)
	 * has not, so nothing would prove its deparse: it stays here.
	 */
	.join_types = MF_JOINS_COMMON | MF_JOIN_BIT(JOIN_SEMI) |
	MF_JOIN_BIT(JOIN_ANTI),

	.row_identity = MF_ROWID_KEY,
	.supports_returning = false,
	.supports_do_nothing = false,
	.supports_arrays = false,
	.supports_row_in = true,
	.boolean_conditions = false,
	.const_shippable = mforacle_const_shippable,

	/* not combinable with FETCH FIRST (ORA-02014) */
	.deparse_lock = mforacle_deparse_lock,
	.deparse_truncate = mforacle_deparse_truncate,
	.truncate_max_tables = 1,
	.truncate_commits = true,
	/* unqualified names resolve in the connecting user's schema */
	.default_schema_is_local = false,

	/*
	 * NUM_ROWS comes from the optimizer statistics (NULL until they are
	 * gathered); ALL_TABLES lists tables only, so a view is read whole.
	 */
	.sample_estimate_fmt = "SELECT NUM_ROWS, 't' FROM ALL_TABLES"
	" WHERE OWNER = COALESCE(%s, USER) AND TABLE_NAME = %s",
	.deparse_sample = mforacle_deparse_sample,
	.sample_auto = MF_SAMPLE_BERNOULLI,

	.type_shippable = mforacle_type_shippable,
	.operator_shippable = mforacle_operator_shippable,
	.decimal_max_digits = 38,
	.decimal_max_scale = 38,
	.deparse_const = mforacle_deparse_const,
	.cast_param = NULL,			/* the bare marker */

	.import_query = mforacle_import_query,
	.map_type = mforacle_map_type,
	.default_importable = mforacle_default_importable,
};
