/*-------------------------------------------------------------------------
 *
 * sqlserver.c
 *		The Microsoft SQL Server dialect (T-SQL over ODBC, e.g. FreeTDS).
 *
 * What this dialect assumes about the remote session (session_setup_sql):
 *
 * - ANSI_NULLS, QUOTED_IDENTIFIER, ANSI_WARNINGS, ARITHABORT ON: the
 *   standard behaviour, which PostgreSQL has too: x = NULL is never true,
 *   "x" is an identifier, and overflow, division by zero and string
 *   truncation are errors instead of NULLs or silently cut values.  (They
 *   are also required for indexed views and computed-column indexes.)
 * - DATEFORMAT ymd: date strings in PostgreSQL's ISO order are read as
 *   year-month-day whatever the login's language says.
 * - XACT_ABORT OFF: a failing statement does not doom the whole remote
 *   transaction, so a savepoint can still be rolled back to.  A batch
 *   INSERT that fails part way may leave its earlier rows in place in the
 *   remote transaction; that is fine because the local error aborts the
 *   local transaction, which rolls the remote one back (or rolls back to
 *   the statement's savepoint).
 *
 * Transactions: the odbc transport switches autocommit off, which makes
 * SQL Server open a transaction implicitly; no BEGIN is sent.
 *
 * Backslashes are ordinary characters in T-SQL literals, and text is sent
 * as N'...' so that characters outside the database's code page survive.
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

#include "deparse/dialect_shared.h"

static void
mfmssql_quote_ident(StringInfo buf, const char *ident)
{
	mf_quote_ident_with(buf, ident, '[', ']');
}

static void
mfmssql_quote_literal(StringInfo buf, const char *str)
{
	appendStringInfoChar(buf, 'N');
	mf_quote_literal_sql(buf, str);
}

/*
 * do_nothing is not supported (supports_do_nothing is false, so the core
 * never asks); T-SQL would need a MERGE or a NOT EXISTS per row.
 */
static void
mfmssql_deparse_insert(StringInfo buf, const char *table,
					   const char *const *columns, int ncols, int nrows,
					   bool do_nothing, MfMarkerStyle markers)
{
	mf_deparse_values_insert(buf, table, columns, ncols, nrows, markers,
							 "INSERT INTO", "");
}

/*
 * T-SQL has no LIMIT.  OFFSET/FETCH needs an ORDER BY: where the query
 * has none, ORDER BY (SELECT NULL) is the conventional "any order".  FETCH
 * refuses zero rows, so a limit of 0 skips past any possible row instead
 * (TOP 0 would need to go after SELECT, out of our reach).
 */
static void
mfmssql_deparse_limit_offset(StringInfo buf, int64 count, int64 offset,
							 bool ordered)
{
	if (!ordered)
		appendStringInfoString(buf, " ORDER BY (SELECT NULL)");
	if (count == 0)
	{
		appendStringInfoString(buf, " OFFSET 9223372036854775807 ROWS");
		return;
	}
	appendStringInfo(buf, " OFFSET " INT64_FORMAT " ROWS", offset);
	if (count > 0)
		appendStringInfo(buf, " FETCH NEXT " INT64_FORMAT " ROWS ONLY", count);
}

static void
mfmssql_deparse_limit(StringInfo buf, int64 count, bool ordered)
{
	mfmssql_deparse_limit_offset(buf, Max(count, 0), 0, ordered);
}

/*
 * What SQL Server computes as PostgreSQL does, value and type.
 *
 * COUNT is an int: where a group has more than 2,147,483,647 rows SQL
 * Server fails with an arithmetic overflow (22003) where we would answer;
 * it never answers wrongly.  COUNT_BIG would be a bigint as ours, but the
 * MariaDB stand-in that proves the deparse has no COUNT_BIG.
 *
 * SUM of an int is an int there, which overflows where our bigint does
 * not, and SUM of a bigint a bigint where ours is a numeric; the argument
 * is cast to DECIMAL(38,0) first, whose SUM is a DECIMAL(38,0): exact for
 * any sum of int2, int4 or int8 values that a table can hold.
 *
 * MIN and MAX return one of their values, where SQL Server orders them as
 * we do (the core checks the order): integers, float8, dates and
 * timestamps.  Not numeric: the result's scale is the remote column's,
 * where ours is that of the values our column's typmod made.  Left out:
 * AVG (of an int it is an int, truncated), the statistics, bool_and/or.
 */
static const MfAggregate mfmssql_aggregates[] = {
	{"count", InvalidOid, "COUNT", true, false, NULL},
	{"sum", INT2OID, "SUM", true, false, "DECIMAL(38,0)"},
	{"sum", INT4OID, "SUM", true, false, "DECIMAL(38,0)"},
	{"sum", INT8OID, "SUM", true, false, "DECIMAL(38,0)"},
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
 * One table per TRUNCATE TABLE, no CASCADE (a referenced table is refused
 * by the remote).  It always reseeds IDENTITY, so both RESTART and
 * CONTINUE IDENTITY get that.  T-SQL's TRUNCATE is transactional.
 */
static const char *
mfmssql_deparse_truncate(StringInfo buf, const char *const *tables,
						 int ntables, bool restart_seqs, bool cascade)
{
	if (cascade)
		return "CASCADE";
	mf_deparse_truncate_table(buf, tables[0]);
	return NULL;
}

static const MfErrorMap mfmssql_errors[] = {
	{2627, "23505", false},		/* unique constraint violation */
	{2601, "23505", false},		/* duplicate key in unique index */
	{547, "23503", false},		/* foreign key (or check) constraint */
	{515, "23502", false},		/* NULL into a NOT NULL column */
	{8152, "22001", false},		/* string or binary data truncated */
	{2628, "22001", false},		/* the same, naming the column (2019+) */
	{8115, "22003", false},		/* arithmetic overflow */
	{220, "22003", false},		/* arithmetic overflow for a type */
	{8134, "22012", false},		/* divide by zero */
	{241, "22007", false},		/* conversion failed for a date/time */
	{245, "22P02", false},		/* conversion failed for a number */
	{1205, "40P01", false},		/* chosen as deadlock victim */
	{3960, "40001", false},		/* snapshot isolation update conflict */
	{208, "42P01", false},		/* invalid object name */
	{207, "42703", false},		/* invalid column name */
	{102, "42601", false},		/* incorrect syntax */
	{229, "42501", false},		/* permission denied */
	{18456, "28000", false},	/* login failed */
	{4060, "3D000", false},		/* cannot open database */
};

static bool
mfmssql_type_shippable(Oid typid)
{
	switch (typid)
	{
		case BOOLOID:
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
		case DATEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case TIMEOID:
		case UUIDOID:
			return true;
		default:
			return mf_is_number_type(typid);
	}
}

/*
 * Comparisons of numbers, of dates and times, and equality of uuids.  Not
 * text (SQL Server compares by the column's collation, usually case-
 * insensitive and blind to trailing spaces), not uuid ordering (SQL Server
 * orders uniqueidentifier by its last six bytes first), and not timestamptz
 * against a date or timestamp (we compare those in our session's time
 * zone, SQL Server as if the plain one were UTC).
 */
static bool
mfmssql_operator_shippable(const char *opname, Oid left, Oid right,
						   Oid inputcollid)
{
	if (!mf_builtin_comparison(opname))
		return false;

	if (mf_is_number_type(left) && mf_is_number_type(right))
		return true;
	if (mf_comparable_times(left, right))
		return true;
	if (left == UUIDOID && right == UUIDOID)
		return strcmp(opname, "=") == 0 || strcmp(opname, "<>") == 0;
	return false;
}

/*
 * T-SQL reads 0.1 as an exact decimal and 0.1e0 as a float (our float8);
 * a real is cast so that "real_col = 0.1" compares in single precision on
 * both sides.  Signed numbers are parenthesised so that no "--" (a
 * comment) can form.
 *
 * Dates and times are cast from a plain string: the cast reads the ISO
 * form regardless of the language, compares as datetime2 with any of
 * SQL Server's date types, and keeps all six fractional digits, which
 * comparing with a datetime column directly would reject.  datetimeoffset
 * wants the offset as +hh:mm, PostgreSQL prints +hh when the minutes are
 * zero.
 */
static void
mfmssql_deparse_const(StringInfo buf, Oid typid, int32 typmod,
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
			{
				/* NaN, Infinity: not shippable, an error is what we want */
				mfmssql_quote_literal(buf, value);
			}
			else if (typid == FLOAT4OID)
				appendStringInfo(buf, "CAST(%s AS real)", value);
			else
				mf_append_number(buf, value, typid == FLOAT8OID);
			break;

		case BOOLOID:
			appendStringInfoChar(buf,
								 (value[0] == 't' || value[0] == 'T') ?
								 '1' : '0');
			break;

		case DATEOID:
			appendStringInfoString(buf, "CAST(");
			mf_quote_literal_sql(buf, value);
			appendStringInfoString(buf, " AS date)");
			break;

		case TIMESTAMPOID:
			appendStringInfoString(buf, "CAST(");
			mf_quote_literal_sql(buf, value);
			appendStringInfoString(buf, " AS datetime2)");
			break;

		case TIMEOID:
			appendStringInfoString(buf, "CAST(");
			mf_quote_literal_sql(buf, value);
			appendStringInfoString(buf, " AS time)");
			break;

		case TIMESTAMPTZOID:
			{
				size_t		len = strlen(value);

				appendStringInfoString(buf, "CAST(");
				if (len > 3 &&
					(value[len - 3] == '+' || value[len - 3] == '-') &&
					isdigit((unsigned char) value[len - 2]) &&
					isdigit((unsigned char) value[len - 1]))
				{
					char	   *full = psprintf("%s:00", value);

					mf_quote_literal_sql(buf, full);
					pfree(full);
				}
				else
					mf_quote_literal_sql(buf, value);
				appendStringInfoString(buf, " AS datetimeoffset)");
			}
			break;

		case UUIDOID:
			appendStringInfoString(buf, "CAST(");
			mf_quote_literal_sql(buf, value);
			appendStringInfoString(buf, " AS uniqueidentifier)");
			break;

		default:
			mfmssql_quote_literal(buf, value);
			break;
	}
}

/*
 * INFORMATION_SCHEMA gives the parts of a type separately; they are put
 * back together the way a column definition spells them ("nvarchar(50)",
 * "varchar(max)", "decimal(10,2)", "datetime2(7)") for map_type.  The
 * views cover the current database only, which is the one the connection
 * names.  Booleans come back as 't'/'f'.
 */
static void
mfmssql_import_query(StringInfo buf, const MfImportFilter *filter)
{
	appendStringInfoString(buf,
						   "SELECT t.TABLE_NAME, c.COLUMN_NAME,"
						   " CASE"
						   " WHEN c.DATA_TYPE IN ('char', 'varchar', 'nchar',"
						   " 'nvarchar', 'binary', 'varbinary')"
						   " THEN c.DATA_TYPE + '(' + CASE"
						   " WHEN c.CHARACTER_MAXIMUM_LENGTH = -1 THEN 'max'"
						   " ELSE CAST(c.CHARACTER_MAXIMUM_LENGTH AS varchar(11))"
						   " END + ')'"
						   " WHEN c.DATA_TYPE IN ('decimal', 'numeric')"
						   " THEN c.DATA_TYPE + '('"
						   " + CAST(c.NUMERIC_PRECISION AS varchar(11)) + ','"
						   " + CAST(c.NUMERIC_SCALE AS varchar(11)) + ')'"
						   " WHEN c.DATA_TYPE IN ('datetime2', 'datetimeoffset',"
						   " 'time')"
						   " THEN c.DATA_TYPE + '('"
						   " + CAST(c.DATETIME_PRECISION AS varchar(11)) + ')'"
						   " ELSE c.DATA_TYPE END,"
						   " CASE WHEN c.IS_NULLABLE = 'NO' THEN 't' ELSE 'f' END,"
						   " c.COLUMN_DEFAULT,"
						   " CASE WHEN EXISTS (SELECT 1"
						   " FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS k"
						   " JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE u"
						   " ON u.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA"
						   " AND u.CONSTRAINT_NAME = k.CONSTRAINT_NAME"
						   " WHERE k.CONSTRAINT_TYPE = 'PRIMARY KEY'"
						   " AND k.TABLE_SCHEMA = c.TABLE_SCHEMA"
						   " AND k.TABLE_NAME = c.TABLE_NAME"
						   " AND u.TABLE_SCHEMA = c.TABLE_SCHEMA"
						   " AND u.TABLE_NAME = c.TABLE_NAME"
						   " AND u.COLUMN_NAME = c.COLUMN_NAME)"
						   " THEN 't' ELSE 'f' END"
						   " FROM INFORMATION_SCHEMA.TABLES t"
						   " LEFT JOIN INFORMATION_SCHEMA.COLUMNS c"
						   " ON c.TABLE_SCHEMA = t.TABLE_SCHEMA"
						   " AND c.TABLE_NAME = t.TABLE_NAME"
						   " WHERE t.TABLE_TYPE IN ('BASE TABLE', 'VIEW')"
						   " AND t.TABLE_SCHEMA = ");
	mfmssql_quote_literal(buf, filter->remote_schema);

	mf_import_name_filter(buf, filter, "t.TABLE_NAME", mfmssql_quote_literal, "1 = 0");

	appendStringInfoString(buf, " ORDER BY t.TABLE_NAME, c.ORDINAL_POSITION");
}

/*
 * Built from the parsed numbers only, so no remote text reaches our DDL.
 * Date/time precisions are dropped: SQL Server allows seven fractional
 * digits, PostgreSQL six, and the default keeps all that we can.
 */
static char *
mfmssql_map_type(const char *remote_type)
{
	MfRemoteType t;
	const char *n;

	if (!mf_parse_remote_type(remote_type, &t) || t.nargs < 0)
		return NULL;
	if (t.rest[0] != '\0')
		return mf_map_standard_type(&t);
	n = t.name;

	if (strcmp(n, "bit") == 0)
		return pstrdup("boolean");
	if (strcmp(n, "tinyint") == 0 || strcmp(n, "smallint") == 0)
		return pstrdup("smallint");
	if (strcmp(n, "int") == 0)
		return pstrdup("integer");
	if (strcmp(n, "bigint") == 0)
		return pstrdup("bigint");
	if (strcmp(n, "decimal") == 0 || strcmp(n, "numeric") == 0)
	{
		if (t.nargs == 2 && t.args[0] >= 1 && t.args[0] <= 1000)
			return psprintf("numeric(%d,%d)", t.args[0], t.args[1]);
		if (t.nargs == 1 && t.args[0] >= 1 && t.args[0] <= 1000)
			return psprintf("numeric(%d,0)", t.args[0]);
		return pstrdup("numeric(18,0)");	/* SQL Server's default */
	}
	if (strcmp(n, "money") == 0)
		return pstrdup("numeric(19,4)");
	if (strcmp(n, "smallmoney") == 0)
		return pstrdup("numeric(10,4)");
	if (strcmp(n, "float") == 0)
	{
		/* float(1..24) is SQL Server's real */
		if (t.nargs == 1 && t.args[0] >= 1 && t.args[0] <= 24)
			return pstrdup("real");
		return pstrdup("double precision");
	}
	if (strcmp(n, "real") == 0)
		return pstrdup("real");
	if (strcmp(n, "char") == 0 || strcmp(n, "nchar") == 0)
		return mf_map_char_type(false, &t);
	if (strcmp(n, "varchar") == 0 || strcmp(n, "nvarchar") == 0)
		return mf_map_char_type(true, &t);
	if (strcmp(n, "text") == 0 || strcmp(n, "ntext") == 0)
		return pstrdup("text");
	if (strcmp(n, "date") == 0)
		return pstrdup("date");
	if (strcmp(n, "time") == 0)
		return pstrdup("time without time zone");
	if (strcmp(n, "datetime") == 0 || strcmp(n, "datetime2") == 0 ||
		strcmp(n, "smalldatetime") == 0)
		return pstrdup("timestamp without time zone");
	if (strcmp(n, "datetimeoffset") == 0)
		return pstrdup("timestamp with time zone");
	if (strcmp(n, "uniqueidentifier") == 0)
		return pstrdup("uuid");
	if (strcmp(n, "binary") == 0 || strcmp(n, "varbinary") == 0 ||
		strcmp(n, "image") == 0)
		return pstrdup("bytea");
	/* what a driver reports for a database that is not SQL Server */
	return mf_map_standard_type(&t);
}

/*
 * The core declares an importable default exactly as the remote reports
 * it, so the answer is whether that text is a constant PostgreSQL reads
 * the same way.  SQL Server wraps every default in parentheses: ((0)),
 * ((-1.5)), ('abc'), (NULL) are valid PostgreSQL as they stand; (N'abc')
 * is not, and (getdate()) or (newid()) are function calls, evaluated here
 * they would use our clock.
 */
static bool
mfmssql_default_importable(const char *remote_default)
{
	const char *p = remote_default;
	int			depth = 0;

	if (p == NULL)
		return false;

	for (;;)
	{
		while (isspace((unsigned char) *p))
			p++;
		if (*p != '(')
			break;
		depth++;
		p++;
	}

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
	else if (pg_strncasecmp(p, "NULL", 4) == 0)
		p += 4;
	else
	{
		bool		digits = false;

		if (*p == '-' || *p == '+')
			p++;
		while (isdigit((unsigned char) *p))
		{
			p++;
			digits = true;
		}
		if (*p == '.')
		{
			p++;
			while (isdigit((unsigned char) *p))
			{
				p++;
				digits = true;
			}
		}
		if (!digits)
			return false;
		if (*p == 'e' || *p == 'E')
		{
			p++;
			if (*p == '+' || *p == '-')
				p++;
			if (!isdigit((unsigned char) *p))
				return false;
			while (isdigit((unsigned char) *p))
				p++;
		}
	}

	for (;;)
	{
		while (isspace((unsigned char) *p))
			p++;
		if (*p != ')')
			break;
		depth--;
		p++;
	}
	return depth == 0 && *p == '\0';
}

/*
 * SQL Server's TABLESAMPLE takes whole pages (SYSTEM); rows one by one are
 * drawn with a random number per row, NEWID() because RAND() alone is
 * evaluated once per statement.  There is no row-level TABLESAMPLE, so
 * bernoulli has no exact equivalent.
 */
static bool
mfmssql_deparse_sample(StringInfo buf, MfSampleMethod method, double fraction)
{
	switch (method)
	{
		case MF_SAMPLE_RANDOM:
			appendStringInfoString(buf, " WHERE RAND(CHECKSUM(NEWID())) < ");
			mf_append_fraction(buf, fraction);
			return true;
		case MF_SAMPLE_SYSTEM:
			appendStringInfoString(buf, " TABLESAMPLE SYSTEM (");
			mf_append_fraction(buf, 100.0 * fraction);
			appendStringInfoString(buf, " PERCENT)");
			return true;
		default:
			return false;
	}
}

const MfDialect mf_dialect_sqlserver = {
	.name = "sqlserver",
	.default_transport = "odbc",

	.quote_ident = mfmssql_quote_ident,
	.quote_literal = mfmssql_quote_literal,
	.deparse_insert = mfmssql_deparse_insert,

	/*
	 * SQL Server takes 2100 parameters per request, and FreeTDS's ODBC
	 * driver spends some of them on its own sp_prepexec call; the headroom
	 * is a guess until the tests pin the exact number down.
	 */
	.max_params = 2090,
	.max_rows_per_insert = 1000,	/* the limit of a VALUES list */
	.max_ident_bytes = 128,

	.savepoint_fmt = "SAVE TRANSACTION s%d",
	.release_savepoint_fmt = NULL,	/* T-SQL cannot release a savepoint */
	.rollback_to_savepoint_fmt = "ROLLBACK TRANSACTION s%d",

	.session_setup_sql = "SET ANSI_NULLS ON; SET QUOTED_IDENTIFIER ON;"
	" SET ANSI_WARNINGS ON; SET ARITHABORT ON; SET DATEFORMAT ymd;"
	" SET XACT_ABORT OFF",
	/* SQL Server has no read-only transaction: a read-only local one
	 * opens an ordinary remote one (writes are refused here already) */
	.begin_sql = NULL,
	/* a plain SELECT opens no implicit transaction */
	.xact_open_sql = "SELECT CASE WHEN @@TRANCOUNT > 0 THEN CAST(CURRENT_TRANSACTION_ID() AS varchar(20)) END",
	.deparse_limit = mfmssql_deparse_limit,
	.deparse_limit_offset = mfmssql_deparse_limit_offset,
	.aggregates = mfmssql_aggregates,
	.n_aggregates = lengthof(mfmssql_aggregates),
	.aggregate_filter = false,

	/*
	 * NULLs sort low and there is no NULLS clause (the ORDER BY page of
	 * the T-SQL reference); the MariaDB stand-in sorts them low too.
	 */
	.nulls_order = MF_NULLS_LOW,
	.nulls_key_case = true,
	.group_by_expressions = true,

	.error_map = mfmssql_errors,
	.n_error_map = lengthof(mfmssql_errors),

	/*
	 * SQL Server has FULL JOIN too, but the test bed's stand-in (MariaDB)
	 * has not, so nothing would prove its deparse: it stays here.
	 */
	.join_types = MF_JOINS_COMMON | MF_JOIN_BIT(JOIN_SEMI) |
	MF_JOIN_BIT(JOIN_ANTI),

	.row_identity = MF_ROWID_KEY,
	.supports_returning = false,
	.supports_do_nothing = false,
	.supports_arrays = false,
	.supports_row_in = false,
	.boolean_conditions = false,
	.const_shippable = mf_const_finite,
	.text_equality_by_option = true,
	.text_grouping_by_option = false,

	/*
	 * T-SQL locks with table hints (WITH (UPDLOCK)), not a clause: rows to
	 * be updated are read unlocked, SELECT FOR UPDATE/SHARE is refused.
	 */
	.deparse_lock = NULL,
	.deparse_truncate = mfmssql_deparse_truncate,
	.truncate_max_tables = 1,
	.truncate_commits = false,
	/* unqualified names resolve in the login's default schema (dbo) */
	.default_schema_is_local = false,

	/*
	 * The rows of the heap or clustered index; a view has none (NULL).
	 * auto draws rows, not pages: a page sample of a small or clustered
	 * table gives poor statistics.
	 */
	.sample_estimate_fmt = "SELECT SUM(p.rows), 'f' FROM sys.partitions p"
	" WHERE p.object_id = OBJECT_ID(QUOTENAME(COALESCE(%s, SCHEMA_NAME()))"
	" + N'.' + QUOTENAME(%s)) AND p.index_id IN (0, 1)",
	.deparse_sample = mfmssql_deparse_sample,
	.sample_auto = MF_SAMPLE_RANDOM,

	.type_shippable = mfmssql_type_shippable,
	.operator_shippable = mfmssql_operator_shippable,
	.decimal_max_digits = 38,
	.decimal_max_scale = 38,
	.deparse_const = mfmssql_deparse_const,
	.cast_param = NULL,			/* the bare marker */

	.import_query = mfmssql_import_query,
	.map_type = mfmssql_map_type,
	.default_importable = mfmssql_default_importable,
};
