/*-------------------------------------------------------------------------
 *
 * mysql.c
 *		The MySQL / MariaDB dialect.
 *
 * What this dialect assumes about the remote session (session_setup_sql,
 * one SET statement because the connection does not allow several
 * statements in one request):
 *
 * - (the character set is the client library's business: the mysql
 *   transport sets utf8mb4, an ODBC driver its own)
 * - time_zone = '+00:00': TIMESTAMP columns are read and written in UTC.
 *   The core hands us timestamptz values already converted to UTC text.
 * - sql_mode:
 *   STRICT_ALL_TABLES, NO_ZERO_IN_DATE, NO_ZERO_DATE,
 *   ERROR_FOR_DIVISION_BY_ZERO: bad data raises an error instead of being
 *   silently truncated, clamped or turned into a zero date, as PostgreSQL
 *   would do.
 *   NO_ENGINE_SUBSTITUTION: never quietly create a table in another engine.
 *   NO_BACKSLASH_ESCAPES: a backslash in a literal is an ordinary
 *   character.  Literals do not depend on it all the same: one that holds
 *   a backslash is written in hex (mfmysql_quote_literal), which means
 *   the same in every sql_mode.
 *   ANSI_QUOTES: "x" is an identifier, not a string; harmless, since we
 *   quote identifiers with backticks and strings with single quotes, and
 *   it keeps a stray double-quoted name from silently becoming a string.
 *   NO_UNSIGNED_SUBTRACTION: subtracting from an UNSIGNED column may give
 *   a negative number, as it does on our side (where such a column is a
 *   wider signed type), instead of an out-of-range error.
 *
 * A server's session_sql replaces this setup; session_check_sql then
 * makes sure that it kept the modes above that values depend on, and the
 * utf8mb4 character set (under gbk or sjis a backtick or quote can be the
 * second byte of a character, and quoting would break), so that it cannot
 * weaken them unseen.
 *
 * Transactions: "START TRANSACTION" in the session's isolation level
 * (REPEATABLE READ by default).  MySQL cannot name the level in START
 * TRANSACTION, and "SET TRANSACTION ...; START TRANSACTION" would be two
 * statements, so a serializable local transaction does not get a
 * serializable remote one.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"

#include "deparse/dialect_shared.h"

static void
mfmysql_quote_ident(StringInfo buf, const char *ident)
{
	mf_quote_ident_with(buf, ident, '`', '`');
}

/*
 * do_nothing: a no-op update of the first column on a duplicate key.  MySQL
 * reports such a row as 0 rows affected, so the counts stay right, and
 * unlike INSERT IGNORE it does not also turn data errors (a too-long string,
 * a NULL in a NOT NULL column) into warnings.
 *
 * MySQL has no DEFAULT VALUES; "() VALUES ()" is its spelling.  With no
 * column to name in ON DUPLICATE KEY UPDATE, IGNORE is the only way to skip
 * a duplicate there, and with no data supplied it has no data error to
 * swallow.
 */
static void
mfmysql_deparse_insert(StringInfo buf, const char *table,
					   const char *const *columns, int ncols, int nrows,
					   bool do_nothing, MfMarkerStyle markers)
{
	if (ncols == 0)
	{
		appendStringInfo(buf, "INSERT %sINTO %s () VALUES ()",
						 do_nothing ? "IGNORE " : "", table);
		return;
	}

	if (do_nothing)
	{
		StringInfoData suffix;

		initStringInfo(&suffix);
		appendStringInfo(&suffix, " ON DUPLICATE KEY UPDATE %s = %s",
						 columns[0], columns[0]);
		mf_deparse_values_insert(buf, table, columns, ncols, nrows, markers,
								 "INSERT INTO", suffix.data);
		pfree(suffix.data);
	}
	else
		mf_deparse_values_insert(buf, table, columns, ncols, nrows, markers,
								 "INSERT INTO", "");
}

/*
 * The bulk stream: LOAD DATA LOCAL INFILE of rows in PostgreSQL's COPY text
 * format, which the transport serves from memory under the file name it
 * puts in place of the ?.  Both formats end lines with \n, separate fields
 * with a tab and escape with a backslash, and both read \N as NULL; the
 * core escapes only backslash, tab, newline and carriage return, which
 * LOAD DATA reads back the same.  The separators are written in hex: the
 * session's NO_BACKSLASH_ESCAPES would read '\t' as two characters.
 *
 * Values whose PostgreSQL text MySQL would not take as it is go into a
 * user variable and are converted by SET:
 * - booleans ('t' / 'f') become 1 / 0 (also what a BIT(1) column takes);
 * - bytea ('\x' and hex digits) is unhexed into the bytes;
 * - bit strings become the number they spell (both branches of the IF
 *   are numbers, or the server would store the digits' characters); one
 *   of more than 64 digits overflows the conversion and fails;
 * - timestamptz, written in UTC by the core, loses its "+00";
 * - dates, times and timestamps are CAST: a value MySQL cannot take then
 *   warns "Incorrect datetime value" (1292, SQLSTATE 22007), as an INSERT
 *   would, instead of the "Data truncated" (1265) of a column stored from
 *   text under IGNORE, which also means a string too long.
 * Everything else (numbers, dates, times, text, json, uuid) is stored from
 * its text by the server's own conversion, as a bound string would be.
 *
 * LOCAL implies IGNORE: MySQL turns duplicate keys and bad values into
 * warnings, because it cannot stop the client's stream half way.  The
 * transport turns those warnings back into errors (and checks the row
 * count), and the remote transaction is rolled back with the local one.
 */
static void
mfmysql_deparse_copy(StringInfo buf, const char *table,
					 const char *const *columns, const MfTypeClass *classes,
					 int ncols)
{
	StringInfoData set;

	initStringInfo(&set);
	appendStringInfo(buf, "LOAD DATA LOCAL INFILE ? INTO TABLE %s"
					 " CHARACTER SET utf8mb4"
					 " FIELDS TERMINATED BY X'09' ESCAPED BY X'5C'"
					 " LINES TERMINATED BY X'0A' (", table);
	for (int i = 0; i < ncols; i++)
	{
		const char *conv;

		switch (classes[i])
		{
			case MF_TYPE_BOOL:
				conv = "(@c%d = 't')";
				break;
			case MF_TYPE_BYTES:
				conv = "UNHEX(SUBSTRING(@c%d, 3))";
				break;
			case MF_TYPE_BITS:
				conv = "IF(CHAR_LENGTH(@c%1$d) <= 64,"
					" CAST(CONV(@c%1$d, 2, 10) AS UNSIGNED),"
					" CAST(@c%1$d AS UNSIGNED))";
				break;
			case MF_TYPE_TIMESTAMPTZ:
				conv = "CAST(IF(RIGHT(@c%1$d, 3) = '+00',"
					" LEFT(@c%1$d, CHAR_LENGTH(@c%1$d) - 3), @c%1$d)"
					" AS DATETIME(6))";
				break;
			case MF_TYPE_TIMESTAMP:
				conv = "CAST(@c%d AS DATETIME(6))";
				break;
			case MF_TYPE_DATE:
				conv = "CAST(@c%d AS DATE)";
				break;
			case MF_TYPE_TIME:
				conv = "CAST(@c%d AS TIME(6))";
				break;
			default:
				conv = NULL;
				break;
		}
		if (i > 0)
			appendStringInfoString(buf, ", ");
		if (conv == NULL)
		{
			appendStringInfoString(buf, columns[i]);
			continue;
		}
		appendStringInfo(buf, "@c%d", i + 1);
		appendStringInfoString(&set, set.len == 0 ? " SET " : ", ");
		appendStringInfo(&set, "%s = ", columns[i]);
		appendStringInfo(&set, conv, i + 1);
	}
	appendStringInfoChar(buf, ')');
	appendBinaryStringInfo(buf, set.data, set.len);
	pfree(set.data);
}

/*
 * The session's isolation level (MySQL's START TRANSACTION names none);
 * read-only as the local transaction is (the transport sets the session's
 * access mode when it changes rather than send this).
 */
static const char *
mfmysql_begin_sql(bool serializable, bool read_only, bool deferrable)
{
	return read_only ? "START TRANSACTION READ ONLY" : "START TRANSACTION";
}

/*
 * MariaDB has INSERT ... RETURNING since 10.5 and DELETE ... RETURNING
 * since 10.0, UPDATE none; MySQL has none at all.  Its servers name
 * themselves "10.11.6-MariaDB-...", or behind the old protocol's mask
 * "5.5.5-10.11.6-MariaDB-..."; an ODBC driver puts the product's name
 * first ("MariaDB 10.11.0006").  An INSERT that skips duplicates (the
 * no-op ON DUPLICATE KEY UPDATE) returns the row it skipped too, so its
 * stored row is read again by key, and only when the count says a row
 * was inserted.
 */
static bool
mfmysql_returning_on(CmdType operation, bool do_nothing,
					 const char *server_version)
{
	const char *v = server_version;
	long		major;
	long		minor;
	char	   *end;

	/* while planning: some server can, so both ways are planned */
	if (v == NULL)
		return (operation == CMD_INSERT && !do_nothing) ||
			operation == CMD_DELETE;
	if (strstr(v, "MariaDB") == NULL)
		return false;
	if (strstr(v, "5.5.5-") != NULL)
		v = strstr(v, "5.5.5-") + 6;
	while (*v != '\0' && !isdigit((unsigned char) *v))
		v++;
	major = strtol(v, &end, 10);
	minor = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
	if (operation == CMD_INSERT)
		return !do_nothing && (major > 10 || (major == 10 && minor >= 5));
	if (operation == CMD_DELETE)
		return major >= 10;
	return false;
}

static void
mfmysql_deparse_limit(StringInfo buf, int64 count, bool ordered)
{
	appendStringInfo(buf, " LIMIT " INT64_FORMAT, count);
}

/* MySQL has no OFFSET without LIMIT: the largest count stands for none */
static void
mfmysql_deparse_limit_offset(StringInfo buf, int64 count, int64 offset,
							 bool ordered)
{
	if (count >= 0)
		appendStringInfo(buf, " LIMIT " INT64_FORMAT, count);
	else if (offset > 0)
		appendStringInfoString(buf, " LIMIT 18446744073709551615");
	if (offset > 0)
		appendStringInfo(buf, " OFFSET " INT64_FORMAT, offset);
}

/*
 * What MySQL computes as PostgreSQL does.  COUNT is a BIGINT either way.
 * SUM of integers is an exact DECIMAL with no fraction: the value of
 * PostgreSQL's bigint (int2, int4) or numeric (int8) sum.  AVG itself is
 * a DECIMAL with 4 more decimals where ours has as many as numeric
 * division gives: avg of integers is fetched as SUM and COUNT and divided
 * here (sum_count).  MIN and MAX return one of the values compared, which
 * the core allows only where MySQL orders them as we do.  SUM and AVG of
 * numeric (AVG as SUM and COUNT too) only over columns marked
 * sum_pushdown, which IMPORT sets on an exact DECIMAL(p,s) read as
 * numeric(p,s) (the remote sums the column's own values, which need not be
 * those our typmod reads: a DECIMAL(10,4), a DOUBLE under a local
 * numeric(10,2)), where the sum has room (deparse_decimal.c).  Left out:
 * SUM and AVG of floats (the order of the additions differs), the
 * statistics (another algorithm).
 */
static const MfAggregate mfmysql_aggregates[] = {
	{"count", InvalidOid, "COUNT", true, false},
	{"sum", INT2OID, "SUM", true, false},
	{"sum", INT4OID, "SUM", true, false},
	{"sum", INT8OID, "SUM", true, false},
	{"avg", INT2OID, "SUM", true, false, NULL, true},
	{"avg", INT4OID, "SUM", true, false, NULL, true},
	{"avg", INT8OID, "SUM", true, false, NULL, true},
	{"sum", NUMERICOID, "SUM", true, false, NULL, false, true},
	{"avg", NUMERICOID, "SUM", true, false, NULL, true, true},
	{"min", InvalidOid, "MIN", true, true},
	{"max", InvalidOid, "MAX", true, true},
};

/*
 * The 2xxx numbers come from the client library and are the same for
 * MySQL and MariaDB; the server numbers below 1900 are shared by both too.
 */
/*
 * LOCK IN SHARE MODE is the share lock both MySQL and MariaDB read; FOR
 * SHARE is MySQL 8's only.  NOWAIT and SKIP LOCKED follow it on MariaDB
 * 10.6+ (MySQL 8 takes them only after FOR SHARE, and refuses this
 * spelling with a syntax error).
 */
static bool
mfmysql_deparse_lock(StringInfo buf, LockClauseStrength strength,
					 LockWaitPolicy wait)
{
	appendStringInfoString(buf, strength == LCS_FORKEYSHARE ||
						   strength == LCS_FORSHARE ?
						   " LOCK IN SHARE MODE" : " FOR UPDATE");
	return mf_append_wait_policy(buf, wait);
}

/*
 * One table per TRUNCATE TABLE, no CASCADE (a referenced table is refused
 * by the remote).  It always restarts AUTO_INCREMENT, so both RESTART and
 * CONTINUE IDENTITY get that.
 */
static const char *
mfmysql_deparse_truncate(StringInfo buf, const char *const *tables,
						 int ntables, bool restart_seqs, bool cascade)
{
	if (cascade)
		return "CASCADE";
	mf_deparse_truncate_table(buf, tables[0]);
	return NULL;
}

static const MfErrorMap mfmysql_errors[] = {
	{1062, "23505", false},		/* ER_DUP_ENTRY */
	{1586, "23505", false},		/* ER_DUP_ENTRY_WITH_KEY_NAME */
	{1216, "23503", false},		/* ER_NO_REFERENCED_ROW */
	{1217, "23503", false},		/* ER_ROW_IS_REFERENCED */
	{1451, "23503", false},		/* ER_ROW_IS_REFERENCED_2 */
	{1452, "23503", false},		/* ER_NO_REFERENCED_ROW_2 */
	{1048, "23502", false},		/* ER_BAD_NULL_ERROR */
	{1364, "23502", false},		/* ER_NO_DEFAULT_FOR_FIELD */
	{1406, "22001", false},		/* ER_DATA_TOO_LONG */
	{1265, "22001", false},		/* WARN_DATA_TRUNCATED: LOAD DATA's too long */
	{1263, "23502", false},		/* ER_WARN_NULL_TO_NOTNULL: LOAD DATA's NULL */
	{4025, "23514", false},		/* ER_CONSTRAINT_FAILED: CHECK, json_valid */
	{1264, "22003", false},		/* ER_WARN_DATA_OUT_OF_RANGE */
	/* ER_DATA_OUT_OF_RANGE: a range guard's (mfmysql_range_guard_piece) */
	{1690, "22003", false, "18446744073709551615 + (", "integer out of range"},
	{1690, "22003", false},		/* ER_DATA_OUT_OF_RANGE */
	{1365, "22012", false},		/* ER_DIVISION_BY_ZERO */
	{1292, "22007", false},		/* ER_TRUNCATED_WRONG_VALUE (dates) */
	{1366, "22P02", false},		/* ER_TRUNCATED_WRONG_VALUE_FOR_FIELD */
	{1205, "40001", false},		/* ER_LOCK_WAIT_TIMEOUT */
	{1213, "40P01", false},		/* ER_LOCK_DEADLOCK */
	{1146, "42P01", false},		/* ER_NO_SUCH_TABLE */
	{1054, "42703", false},		/* ER_BAD_FIELD_ERROR */
	{1064, "42601", false},		/* ER_PARSE_ERROR */
	{1142, "42501", false},		/* ER_TABLEACCESS_DENIED_ERROR */
	{1044, "42501", false},		/* ER_DBACCESS_DENIED_ERROR: no rights on it */
	{1045, "28000", false},		/* ER_ACCESS_DENIED_ERROR */
	{1049, "3D000", false},		/* ER_BAD_DB_ERROR */
	{1040, "53300", false},		/* ER_CON_COUNT_ERROR */
	{1317, "57014", false},		/* ER_QUERY_INTERRUPTED */
	{2002, "08001", true},		/* CR_CONNECTION_ERROR */
	{2003, "08001", true},		/* CR_CONN_HOST_ERROR */
	{2006, "08006", true},		/* CR_SERVER_GONE_ERROR */
	{2013, "08006", true},		/* CR_SERVER_LOST */
	{2055, "08006", true},		/* CR_SERVER_LOST_EXTENDED */
};

static bool
mfmysql_type_shippable(Oid typid)
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
			return true;
		default:
			return mf_is_number_type(typid);
	}
}

/*
 * Numbers whose arithmetic MySQL does as we do.  Not real: MySQL computes
 * with FLOAT in double precision, so "real_col = 0.1" is false there and
 * true here.
 */
static bool
mfmysql_exact_number(Oid typid)
{
	return typid != FLOAT4OID && mf_is_number_type(typid);
}

/*
 * Whether our arithmetic on these operands is int2 or int4 arithmetic:
 * MySQL computes all integer arithmetic in 64 bits, so where ours
 * overflows and raises an error (2147483647 + 1, -(-2147483648)) MySQL
 * answers, and a WHERE or a SUM shipped there would count rows we refuse.
 * Such an operation goes inside a range guard instead (below).  With an
 * int8 or numeric side we widen as MySQL does, and an int8 overflow is an
 * error on both sides.
 */
static bool
mfmysql_narrow_int(Oid typid)
{
	return typid == INT2OID || typid == INT4OID;
}

/*
 * The guard of an int2/int4 operation X (range_guard_piece):
 *   IF(X IS NULL OR X BETWEEN min AND max, X,
 *      18446744073709551615 + (X IS NOT NULL))
 * Out of range, the last branch overflows BIGINT UNSIGNED: error 1690,
 * SQLSTATE 22003, as our "integer out of range".  It depends on X so that
 * it is never folded as a constant; IF evaluates only the branch taken.
 */
static const char *
mfmysql_range_guard_piece(int i, int64 min, int64 max)
{
	switch (i)
	{
		case 0:
			return "IF(";
		case 1:
			return " IS NULL OR ";
		case 2:
			return psprintf(" BETWEEN " INT64_FORMAT " AND " INT64_FORMAT ", ",
							min, max);
		case 3:
			return ", 18446744073709551615 + (";
		case 4:
			return " IS NOT NULL))";
		default:
			return NULL;
	}
}

/*
 * Integer % truncates as ours does (the sign of the dividend), keeps an
 * integer type and cannot overflow; by zero it gives NULL, so the core
 * ships it only with a constant divisor (zero_divisor_gives_null).  / is
 * DECIMAL division there.
 */
static bool
mfmysql_integer(Oid typid)
{
	return typid == INT2OID || typid == INT4OID || typid == INT8OID;
}

/*
 * Text comparisons are not shipped here: MySQL compares strings by the
 * column's collation (usually case-insensitive and ignoring trailing
 * spaces), so even = does not give our answer; the core ships = and <>
 * byte for byte (text_bytes_fmt, deparse_collate.c).  Numeric + - * said yes
 * to here go only where their sizes fit DECIMAL (decimal_max_digits,
 * deparse_decimal.c).
 */
static bool
mfmysql_operator_shippable(const char *opname, Oid left, Oid right,
						   Oid inputcollid)
{
	bool		arith = (strcmp(opname, "+") == 0 ||
						 strcmp(opname, "-") == 0 ||
						 strcmp(opname, "*") == 0);

	if (left == InvalidOid)
		return strcmp(opname, "-") == 0 && mfmysql_exact_number(right) &&
			!mfmysql_narrow_int(right);

	if (mfmysql_exact_number(left) && mfmysql_exact_number(right))
		return mf_builtin_comparison(opname) ||
			(arith && !(mfmysql_narrow_int(left) && mfmysql_narrow_int(right))) ||
			(strcmp(opname, "%") == 0 && mfmysql_integer(left) &&
			 mfmysql_integer(right));

	if (mf_comparable_times(left, right))
		return mf_builtin_comparison(opname);

	return false;
}

/*
 * Numbers are bare, in parentheses when signed ("x - -1" is fine in MySQL,
 * but "x --1" after some rewrite would be a comment).  A float gets an
 * exponent because MySQL reads 0.1 as an exact DECIMAL and 0.1e0 as a
 * DOUBLE, which is what our float8 is.  Special values (NaN, Infinity)
 * have no MySQL spelling; the core does not ship them, and quoting them
 * makes MySQL raise an error rather than guess.
 *
 * Date and time values are quoted strings, which MySQL converts to the
 * compared column's type.  A timestamptz arrives as UTC text; MySQL does
 * not accept the "+00" offset PostgreSQL prints (MariaDB not at all, MySQL
 * only from 8.0.19), and since the session is in UTC it can simply go.
 */
/*
 * A string literal.  Without NO_BACKSLASH_ESCAPES (a session_sql that
 * dropped it, a proxy that resets sql_mode) a backslash would escape the
 * next character, and "\'" would end the literal early; a hex string with
 * the utf8mb4 introducer is the same text in every mode, and, unlike
 * CONVERT(), still a literal to the collation rules.
 */
static void
mfmysql_quote_literal(StringInfo buf, const char *str)
{
	const char *utf8;

	if (strchr(str, '\\') == NULL)
	{
		mf_quote_literal_sql(buf, str);
		return;
	}
	utf8 = pg_server_to_any(str, strlen(str), PG_UTF8);
	appendStringInfoString(buf, "_utf8mb4 X'");
	for (const unsigned char *p = (const unsigned char *) utf8; *p; p++)
		appendStringInfo(buf, "%02X", *p);
	appendStringInfoChar(buf, '\'');
}

static void
mfmysql_deparse_const(StringInfo buf, Oid typid, int32 typmod,
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
			if (mf_plain_number(value))
				mf_append_number(buf, value,
								 typid == FLOAT4OID || typid == FLOAT8OID);
			else
				mfmysql_quote_literal(buf, value);
			break;

		case BOOLOID:
			appendStringInfoChar(buf,
								 (value[0] == 't' || value[0] == 'T') ?
								 '1' : '0');
			break;

		case TIMESTAMPTZOID:
			{
				size_t		len = strlen(value);
				char	   *copy = pstrdup(value);

				if (len > 6 && strcmp(value + len - 6, "+00:00") == 0)
					copy[len - 6] = '\0';
				else if (len > 3 && strcmp(value + len - 3, "+00") == 0)
					copy[len - 3] = '\0';
				mfmysql_quote_literal(buf, copy);
				pfree(copy);
			}
			break;

		default:
			mfmysql_quote_literal(buf, value);
			break;
	}
}

/*
 * information_schema works on MySQL and MariaDB alike.  TABLES is the
 * driving table so that the listing does not depend on column privileges;
 * MariaDB's system-versioned tables are ordinary tables to us.  The
 * comparisons yield 1/0 (NULL for the column-less row that cannot happen
 * in MySQL but keeps the LEFT JOIN honest).  COLUMN_KEY is 'PRI' also for
 * the first NOT NULL unique key of a table that has no primary key, which
 * MySQL itself treats as the primary key.
 */
static void
mfmysql_import_query(StringInfo buf, const MfImportFilter *filter)
{
	appendStringInfoString(buf,
						   "SELECT t.TABLE_NAME, c.COLUMN_NAME, c.COLUMN_TYPE,"
						   " c.IS_NULLABLE = 'NO', c.COLUMN_DEFAULT,"
						   " c.COLUMN_KEY = 'PRI',"
						   " 0,"
						   /* byte for byte, trailing spaces included */
						   /* utf8mb4: it holds any value of ours */
						   " (c.COLLATION_NAME = 'binary'"
						   " OR (RIGHT(c.COLLATION_NAME, 10) = '_nopad_bin'"
						   " AND c.CHARACTER_SET_NAME = 'utf8mb4')),"
						   /*
							* no COLLATE clause; an exact, signed DECIMAL(p,s)
							* (MySQL refuses a negative difference of
							* UNSIGNED ones)
							*/
						   " NULL, (c.DATA_TYPE = 'decimal'"
						   " AND c.COLUMN_TYPE NOT LIKE '%unsigned%'),"
						   /* characters, not bytes (text_bytes) */
						   " (c.CHARACTER_SET_NAME IS NOT NULL"
						   " AND c.CHARACTER_SET_NAME <> 'binary'),"
						   " c.CHARACTER_SET_NAME"
						   " FROM information_schema.TABLES t"
						   " LEFT JOIN information_schema.COLUMNS c"
						   " ON c.TABLE_SCHEMA = t.TABLE_SCHEMA"
						   " AND c.TABLE_NAME = t.TABLE_NAME"
						   " WHERE t.TABLE_TYPE IN"
						   " ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED')"
						   " AND t.TABLE_SCHEMA = ");
	mfmysql_quote_literal(buf, filter->remote_schema);

	mf_import_name_filter(buf, filter, "t.TABLE_NAME", mfmysql_quote_literal, "1 = 0");

	appendStringInfoString(buf, " ORDER BY t.TABLE_NAME, c.ORDINAL_POSITION");
}

/*
 * COLUMN_TYPE is "int(11) unsigned zerofill" and the like: only unsigned
 * among the words after the arguments changes the mapping (zerofill and
 * MariaDB's "/ * mariadb-5.3 * /" marks do not).
 */
static bool
mfmysql_is_unsigned(const MfRemoteType *t)
{
	const char *w = t->rest;

	while ((w = strstr(w, "unsigned")) != NULL)
	{
		if ((w == t->rest || w[-1] == ' ') && (w[8] == '\0' || w[8] == ' '))
			return true;
		w += 8;
	}
	return false;
}

/*
 * The local type is always built from the parsed numbers, never by copying
 * the remote text, so nothing the remote says ends up in our DDL verbatim.
 * Integer types widen when unsigned so that every value fits.
 */
static char *
mfmysql_map_type(const char *remote_type)
{
	MfRemoteType t;
	const char *n;
	bool		is_unsigned;

	if (!mf_parse_remote_type(remote_type, &t))
		return NULL;
	n = t.name;
	is_unsigned = mfmysql_is_unsigned(&t);

	if (strcmp(n, "enum") == 0 || strcmp(n, "set") == 0)
		return pstrdup("text");
	if (t.nargs < 0)
		return NULL;

	if (strcmp(n, "tinyint") == 0)
		return pstrdup(t.nargs == 1 && t.args[0] == 1 ? "boolean" : "smallint");
	if (strcmp(n, "smallint") == 0)
		return pstrdup(is_unsigned ? "integer" : "smallint");
	if (strcmp(n, "mediumint") == 0)
		return pstrdup("integer");
	if (strcmp(n, "int") == 0 || strcmp(n, "integer") == 0)
		return pstrdup(is_unsigned ? "bigint" : "integer");
	if (strcmp(n, "bigint") == 0)
		return pstrdup(is_unsigned ? "numeric(20,0)" : "bigint");
	if (strcmp(n, "decimal") == 0 || strcmp(n, "numeric") == 0 ||
		strcmp(n, "dec") == 0 || strcmp(n, "fixed") == 0)
	{
		if (t.nargs == 2 && t.args[0] >= 1 && t.args[0] <= 1000)
			return psprintf("numeric(%d,%d)", t.args[0], t.args[1]);
		if (t.nargs == 1 && t.args[0] >= 1 && t.args[0] <= 1000)
			return psprintf("numeric(%d,0)", t.args[0]);
		return pstrdup("numeric");
	}
	if (strcmp(n, "float") == 0)
		return pstrdup("real");
	if (strcmp(n, "double") == 0 || strcmp(n, "real") == 0)
		return pstrdup("double precision");
	if (strcmp(n, "char") == 0 || strcmp(n, "varchar") == 0)
		return mf_map_char_type(n[0] != 'c', &t);
	if (strcmp(n, "tinytext") == 0 || strcmp(n, "text") == 0 ||
		strcmp(n, "mediumtext") == 0 || strcmp(n, "longtext") == 0)
		return pstrdup("text");
	if (strcmp(n, "binary") == 0 || strcmp(n, "varbinary") == 0 ||
		strcmp(n, "tinyblob") == 0 || strcmp(n, "blob") == 0 ||
		strcmp(n, "mediumblob") == 0 || strcmp(n, "longblob") == 0)
		return pstrdup("bytea");
	if (strcmp(n, "date") == 0)
		return pstrdup("date");
	if (strcmp(n, "datetime") == 0 || strcmp(n, "timestamp") == 0 ||
		strcmp(n, "time") == 0)
	{
		const char *local = (strcmp(n, "time") == 0) ? "time" : "timestamp";
		const char *zone = (strcmp(n, "timestamp") == 0) ?
			"with time zone" : "without time zone";

		if (t.nargs == 1 && t.args[0] <= 6)
			return psprintf("%s(%d) %s", local, t.args[0], zone);
		return psprintf("%s %s", local, zone);
	}
	if (strcmp(n, "year") == 0)
		return pstrdup("smallint");
	if (strcmp(n, "json") == 0)
		return pstrdup("json");
	if (strcmp(n, "bit") == 0)
	{
		if (t.nargs == 0 || (t.nargs == 1 && t.args[0] == 1))
			return pstrdup("boolean");
		if (t.nargs == 1 && t.args[0] >= 1)
			return psprintf("bit varying(%d)", t.args[0]);
		return NULL;
	}
	return NULL;
}

/*
 * MariaDB reports a default as an SQL expression: 'abc', 0, NULL,
 * current_timestamp().  Only constants are declared locally; a function
 * would be evaluated here with our clock instead of the remote's.
 *
 * MySQL 8 reports string defaults without quotes, so a bare number may
 * really be a string: it is only accepted in a spelling that reads back as
 * the same text (no sign, exponent or leading zero: 007 would become 7).
 * Quoted literals with a backslash are refused, since whether it was an
 * escape on the remote side cannot be told from the text.
 */
static bool
mfmysql_default_importable(const char *remote_default)
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
			if (*p == '\0' || *p == '\\')
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
	else if (isdigit((unsigned char) *p) ||
			 (*p == '-' && isdigit((unsigned char) p[1])))
	{
		bool		negative = (*p == '-');
		bool		nonzero = false;

		if (negative)
			p++;
		if (p[0] == '0' && isdigit((unsigned char) p[1]))
			return false;
		while (isdigit((unsigned char) *p))
			nonzero |= (*p++ != '0');
		if (*p == '.')
		{
			p++;
			if (!isdigit((unsigned char) *p))
				return false;
			while (isdigit((unsigned char) *p))
				nonzero |= (*p++ != '0');
		}
		/* "-0" would read back as "0" */
		if (negative && !nonzero)
			return false;
	}
	else
		return false;

	while (isspace((unsigned char) *p))
		p++;
	return *p == '\0';
}

/*
 * MySQL and MariaDB have no TABLESAMPLE: a random number per row is the
 * only exact way, and it still spares the network all other rows.
 */
static bool
mfmysql_deparse_sample(StringInfo buf, MfSampleMethod method, double fraction)
{
	if (method != MF_SAMPLE_RANDOM)
		return false;
	appendStringInfoString(buf, " WHERE RAND() < ");
	mf_append_fraction(buf, fraction);
	return true;
}

const MfDialect mf_dialect_mysql = {
	.name = "mysql",
	.default_transport = "mysql",

	.quote_ident = mfmysql_quote_ident,
	.quote_literal = mfmysql_quote_literal,
	.deparse_insert = mfmysql_deparse_insert,
	.deparse_copy = mfmysql_deparse_copy,

	.max_params = 65535,
	.max_rows_per_insert = 0,
	.max_ident_bytes = 64,

	.savepoint_fmt = "SAVEPOINT s%d",
	.release_savepoint_fmt = "RELEASE SAVEPOINT s%d",
	.rollback_to_savepoint_fmt = "ROLLBACK TO SAVEPOINT s%d",

	.session_setup_sql = "SET time_zone = '+00:00',"
	" sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
	"ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,NO_BACKSLASH_ESCAPES,"
	"ANSI_QUOTES,NO_UNSIGNED_SUBTRACTION'",
	.session_check_sql = "SELECT CONCAT_WS(', ',"
	" IF(FIND_IN_SET('STRICT_ALL_TABLES', @@SESSION.sql_mode) > 0, NULL,"
	" 'sql_mode STRICT_ALL_TABLES'),"
	" IF(FIND_IN_SET('NO_ZERO_DATE', @@SESSION.sql_mode) > 0, NULL,"
	" 'sql_mode NO_ZERO_DATE'),"
	" IF(FIND_IN_SET('NO_BACKSLASH_ESCAPES', @@SESSION.sql_mode) > 0, NULL,"
	" 'sql_mode NO_BACKSLASH_ESCAPES'),"
	" IF(@@SESSION.time_zone IN ('+00:00', 'UTC'), NULL, 'time_zone +00:00'),"
	" IF(@@SESSION.character_set_client = 'utf8mb4' AND"
	" @@SESSION.character_set_connection = 'utf8mb4', NULL,"
	" 'character set utf8mb4'))",
	.begin_sql = mfmysql_begin_sql,
	/*
	 * MariaDB's (MySQL has neither: not asked there).  The session names
	 * no transaction; the GTID of its last commit tells one committed
	 * since, where the binary log is on.
	 */
	.xact_open_sql = "SELECT IF(@@in_transaction, CONCAT('1/', @@last_gtid), NULL)",
	.deparse_limit = mfmysql_deparse_limit,
	.deparse_limit_offset = mfmysql_deparse_limit_offset,
	.aggregates = mfmysql_aggregates,
	.n_aggregates = lengthof(mfmysql_aggregates),
	.nulls_order = MF_NULLS_LOW,
	/* no FULL JOIN in MySQL or MariaDB */
	.join_types = MF_JOINS_COMMON | MF_JOIN_BIT(JOIN_SEMI) |
	MF_JOIN_BIT(JOIN_ANTI),

	.error_map = mfmysql_errors,
	.n_error_map = lengthof(mfmysql_errors),

	.prepare_fmt = "XA PREPARE '%s'",
	.commit_prepared_fmt = "XA COMMIT '%s'",
	.rollback_prepared_fmt = "XA ROLLBACK '%s'",
	.xa_start_fmt = "XA START '%s'",
	.xa_end_fmt = "XA END '%s'",
	.xa_commit_one_phase_fmt = "XA COMMIT '%s' ONE PHASE",
	.list_prepared_sql = "XA RECOVER",
	.list_prepared_col = 3,
	.prepared_missing_sqlstate = "XAE04",	/* XAER_NOTA */
	/* another session's XA COMMIT counts as outside work under autocommit 0 */
	.resolve_setup_sql = "SET autocommit = 1",

	.row_identity = MF_ROWID_KEY,
	.supports_returning = false,
	.returning_on = mfmysql_returning_on,
	.generated_key_sql = "LAST_INSERT_ID()",
	.supports_do_nothing = true,
	.supports_arrays = false,
	.supports_row_in = true,
	.boolean_conditions = true,
	.const_shippable = mf_const_finite,
	.text_equality_by_option = true,

	/*
	 * The UTF-8 bytes of an operand, as a binary string: compared byte by
	 * byte, trailing spaces included, whatever its column's character set
	 * and collation (case-insensitive and padding by default).  CHAR's
	 * values come without trailing spaces, but a local character(n) may
	 * be a remote VARCHAR: RTRIM, as character(n) compares here.
	 */
	.text_bytes_fmt = "CAST(%s AS BINARY)",
	.text_trimmed_bytes_fmt = "CAST(RTRIM(%s) AS BINARY)",
	/* utf8mb4_bin compares bytes and pads with spaces, as bpchar does */
	.group_trimmed_fmt = "%s",
	/* LIKE under utf8mb4_bin: per character, case-sensitive, NO PAD */
	.text_like_fmt = "%s",
	/*
	 * Each operand of those formats goes in utf8mb4 under utf8mb4_bin; a
	 * column whose remote_charset (IMPORT reads it) is utf8mb4 already
	 * without CONVERT, which costs MariaDB a copy per row even to the
	 * same set.  Its COLLATE fails (error 1253) should the column be in
	 * another set after all (changed since the IMPORT), rather than
	 * comparing its bytes in that set with a constant's in utf8mb4.
	 */
	.text_convert_fmt = "CONVERT(%s USING utf8mb4) COLLATE utf8mb4_bin",
	.text_native_fmt = "%s COLLATE utf8mb4_bin",
	.text_native_charset = "utf8mb4",
	/* MySQL has no default escape under NO_BACKSLASH_ESCAPES */
	.text_like_escape = " ESCAPE _utf8mb4 X'5C'",
	.text_grouping_by_option = true,
	.no_negative_zero = true,

	.deparse_lock = mfmysql_deparse_lock,
	.deparse_truncate = mfmysql_deparse_truncate,
	.truncate_max_tables = 1,
	.truncate_commits = true,
	/* the connection names the database, which is MySQL's schema */
	.default_schema_is_local = false,

	/*
	 * TABLE_ROWS is exact for MyISAM and Aria, InnoDB's estimate from its
	 * persistent statistics, and NULL for a view.
	 */
	.sample_estimate_fmt = "SELECT TABLE_ROWS, 'f' FROM information_schema.TABLES"
	" WHERE TABLE_SCHEMA = COALESCE(%s, DATABASE()) AND TABLE_NAME = %s",
	.deparse_sample = mfmysql_deparse_sample,
	.sample_auto = MF_SAMPLE_RANDOM,

	.type_shippable = mfmysql_type_shippable,
	.zero_divisor_gives_null = true,
	.operator_shippable = mfmysql_operator_shippable,
	.range_guard_piece = mfmysql_range_guard_piece,
	.decimal_max_digits = 65,
	.decimal_max_scale = 30,	/* MariaDB's 38; MySQL's multiply cuts at 30 */
	.deparse_const = mfmysql_deparse_const,
	.cast_param = NULL,			/* the bare marker */

	.import_query = mfmysql_import_query,
	.map_type = mfmysql_map_type,
	.default_importable = mfmysql_default_importable,
};
