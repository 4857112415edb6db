/*-------------------------------------------------------------------------
 *
 * postgres.c
 *		The PostgreSQL dialect.
 *
 * What this dialect assumes about the remote session (session_setup_sql):
 *
 * - search_path = pg_catalog: operators, functions and type names in the
 *   statements we send resolve to the built-ins, never to a same-named
 *   object a remote user created.  The flip side is that every user table
 *   must be qualified with its schema, which the deparser does.
 * - timezone = 'UTC', datestyle = ISO, intervalstyle = postgres,
 *   extra_float_digits = 3: values travel as text in both directions, so
 *   the remote must print and parse dates, intervals and floats exactly
 *   as our side's input and output functions do.  Constants reach
 *   deparse_const in PostgreSQL's ISO output form (timestamptz with its
 *   offset), which the remote parses the same whatever its own settings.
 * - standard_conforming_strings is on (the default since 9.1) so '...'
 *   literals take backslashes literally; quote_literal still writes E''
 *   whenever a backslash is present so that a server configured otherwise
 *   reads the same string.
 *
 * Transactions are opened REPEATABLE READ (or SERIALIZABLE when the local
 * one is), as postgres_fdw does: all the remote statements of one local
 * transaction then see one consistent snapshot.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/transam.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "deparse/dialect_shared.h"
#include "postgres_int.h"


static void
mfpg_quote_ident(StringInfo buf, const char *ident)
{
	appendStringInfoString(buf, quote_identifier(ident));
}

static void
mfpg_quote_literal(StringInfo buf, const char *str)
{
	const char *p;

	if (strchr(str, '\\') != NULL)
		appendStringInfoChar(buf, 'E');
	appendStringInfoChar(buf, '\'');
	for (p = str; *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			appendStringInfoChar(buf, *p);
		appendStringInfoChar(buf, *p);
	}
	appendStringInfoChar(buf, '\'');
}

/*
 * As postgres_fdw: the key-less strengths are sent as their stronger
 * forms, which every remote version has, and which lock at least as much.
 * Unlike postgres_fdw, NOWAIT and SKIP LOCKED are sent too, so that the
 * remote rows are skipped or refused as the query asked rather than waited
 * for.
 */
static bool
mfpg_deparse_lock(StringInfo buf, LockClauseStrength strength,
				  LockWaitPolicy wait)
{
	appendStringInfoString(buf, strength == LCS_FORKEYSHARE ||
						   strength == LCS_FORSHARE ?
						   " FOR SHARE" : " FOR UPDATE");
	return mf_append_wait_policy(buf, wait);
}

/* The top node of EXPLAIN's text form: "... (cost=0.00..22.70 rows=1270 width=36)". */
static bool
mfpg_parse_explain(const char *line, double *rows, int *width,
				   double *startup, double *total)
{
	const char *p = line ? strstr(line, "(cost=") : NULL;

	return p != NULL &&
		sscanf(p, "(cost=%lf..%lf rows=%lf width=%d)",
			   startup, total, rows, width) == 4;
}

/* As postgres_fdw writes it: every choice spelt out. */
static const char *
mfpg_deparse_truncate(StringInfo buf, const char *const *tables, int ntables,
					  bool restart_seqs, bool cascade)
{
	appendStringInfoString(buf, "TRUNCATE ");
	for (int i = 0; i < ntables; i++)
		appendStringInfo(buf, "%s%s", i > 0 ? ", " : "", tables[i]);
	appendStringInfoString(buf, restart_seqs ? " RESTART IDENTITY" :
						   " CONTINUE IDENTITY");
	appendStringInfoString(buf, cascade ? " CASCADE" : " RESTRICT");
	return NULL;
}

/* postgres_fdw 16's three ways: a random number per row, or TABLESAMPLE */
static bool
mfpg_deparse_sample(StringInfo buf, MfSampleMethod method, double fraction)
{
	switch (method)
	{
		case MF_SAMPLE_RANDOM:
			appendStringInfoString(buf, " WHERE pg_catalog.random() < ");
			mf_append_fraction(buf, fraction);
			return true;
		case MF_SAMPLE_SYSTEM:
		case MF_SAMPLE_BERNOULLI:
			appendStringInfoString(buf, method == MF_SAMPLE_SYSTEM ?
								   " TABLESAMPLE SYSTEM(" :
								   " TABLESAMPLE BERNOULLI(");
			mf_append_fraction(buf, 100.0 * fraction);
			appendStringInfoChar(buf, ')');
			return true;
		default:
			return false;
	}
}

static void
mfpg_deparse_insert(StringInfo buf, const char *table,
					const char *const *columns, int ncols, int nrows,
					bool do_nothing, MfMarkerStyle markers)
{
	mf_deparse_values_insert(buf, table, columns, ncols, nrows, markers,
							 "INSERT INTO",
							 do_nothing ? " ON CONFLICT DO NOTHING" : "");
}

/*
 * Repeatable read at least, as postgres_fdw opens them, so that the scans
 * of one local statement see one snapshot; read-only and deferrable as the
 * local transaction is (DEFERRABLE matters only to a serializable
 * read-only one).
 */
static const char *
mfpg_begin_sql(bool serializable, bool read_only, bool deferrable)
{
	if (!serializable)
		return read_only ?
			"START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY" :
			"START TRANSACTION ISOLATION LEVEL REPEATABLE READ";
	if (!read_only)
		return "START TRANSACTION ISOLATION LEVEL SERIALIZABLE";
	return deferrable ?
		"START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE" :
		"START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY";
}

static void
mfpg_deparse_limit(StringInfo buf, int64 count, bool ordered)
{
	appendStringInfo(buf, " LIMIT " INT64_FORMAT, count);
}

static void
mfpg_deparse_limit_offset(StringInfo buf, int64 count, int64 offset,
						  bool ordered)
{
	if (count >= 0)
		appendStringInfo(buf, " LIMIT " INT64_FORMAT, count);
	if (offset > 0)
		appendStringInfo(buf, " OFFSET " INT64_FORMAT, offset);
}

/*
 * The same PostgreSQL computes the same aggregate: every built-in one that
 * multi_fdw knows how to write (one argument or *, no ORDER BY inside).
 */
static const MfAggregate mfpg_aggregates[] = {
	{"count", InvalidOid, "count", true, false},
	{"sum", InvalidOid, "sum", true, false},
	{"avg", InvalidOid, "avg", true, false},
	{"min", InvalidOid, "min", true, true},
	{"max", InvalidOid, "max", true, true},
	{"bool_and", InvalidOid, "bool_and", true, false},
	{"bool_or", InvalidOid, "bool_or", true, false},
	{"every", InvalidOid, "every", true, false},
	{"stddev", InvalidOid, "stddev", true, false},
	{"stddev_samp", InvalidOid, "stddev_samp", true, false},
	{"stddev_pop", InvalidOid, "stddev_pop", true, false},
	{"variance", InvalidOid, "variance", true, false},
	{"var_samp", InvalidOid, "var_samp", true, false},
	{"var_pop", InvalidOid, "var_pop", true, false},
};

/* the object-identifier types whose text is a local catalog name */
static bool
mfpg_is_reg_type(Oid typid)
{
	switch (typid)
	{
		case REGPROCOID:
		case REGPROCEDUREOID:
		case REGOPEROID:
		case REGOPERATOROID:
		case REGCLASSOID:
		case REGTYPEOID:
		case REGCOLLATIONOID:
		case REGCONFIGOID:
		case REGDICTIONARYOID:
		case REGNAMESPACEOID:
		case REGROLEOID:
			return true;
		default:
			return false;
	}
}

/*
 * Built-in types only: a user-defined type may not exist remotely, or may
 * exist under the same name with a different meaning.  The reg* types are
 * built in but name objects of our catalog ('t'::regclass), which the
 * remote would look up in its own (under search_path pg_catalog at that).
 */
static bool
mfpg_type_shippable(Oid typid)
{
	Oid			elemtype;

	if (typid >= FirstGenbkiObjectId || mfpg_is_reg_type(typid))
		return false;
	elemtype = get_element_type(typid);
	if (OidIsValid(elemtype) && mfpg_is_reg_type(elemtype))
		return false;
	return true;
}

/*
 * The core has already established that the operator and its function are
 * built-in and immutable, so it computes the same thing on any PostgreSQL.
 */
static bool
mfpg_operator_shippable(const char *opname, Oid left, Oid right,
						Oid inputcollid)
{
	return true;
}

static void
mfpg_append_cast(StringInfo buf, Oid typid, int32 typmod)
{
	/*
	 * A type that is not built in (an extension's) is qualified: the
	 * remote's search_path is pg_catalog alone.
	 */
	appendStringInfo(buf, "::%s",
					 format_type_extended(typid, typmod,
										  FORMAT_TYPE_TYPEMOD_GIVEN |
										  (typid >= FirstGenbkiObjectId ?
										   FORMAT_TYPE_FORCE_QUALIFY : 0)));
}

/*
 * An array of numbers, booleans or bit strings: beside a column it keeps
 * its cast, as its elements would alone (mfpg_append_const).
 */
static bool
mfpg_typed_elements(Oid typid)
{
	switch (get_element_type(typid))
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case FLOAT4OID:
		case FLOAT8OID:
		case NUMERICOID:
		case BOOLOID:
		case BITOID:
		case VARBITOID:
			return true;
		default:
			return false;
	}
}

/*
 * A constant must come out with the type it has locally, or the remote
 * parser may pick a different operator: 1 is an integer, 1.5 a numeric, so
 * "x / 2" with a numeric 2 would turn into an integer division and
 * "real_col = 0.1" with a real 0.1 into a comparison in double precision.
 * Hence numbers are written bare but cast unless the bare spelling already
 * has the right type (an int4, a numeric that has a point and no typmod).
 */
static void
mfpg_append_const(StringInfo buf, Oid typid, int32 typmod, const char *value,
				  bool beside_column)
{
	switch (typid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case FLOAT4OID:
		case FLOAT8OID:
		case NUMERICOID:
			if (mf_plain_number(value))
			{
				bool		needcast;

				mf_append_number(buf, value, false);

				if (typid == INT4OID)
					needcast = false;
				else if (typid == NUMERICOID)
					needcast = typmod >= 0 ||
						strpbrk(value, ".eE") == NULL;
				else
					needcast = true;
				if (needcast)
					mfpg_append_cast(buf, typid, typmod);
			}
			else
			{
				/* NaN, Infinity, -Infinity */
				mfpg_quote_literal(buf, value);
				mfpg_append_cast(buf, typid, typmod);
			}
			break;

		case BOOLOID:
			appendStringInfoString(buf,
								   (value[0] == 't' || value[0] == 'T') ?
								   "true" : "false");
			break;

		case BITOID:
		case VARBITOID:
			/* bit output is only 0s and 1s: nothing to escape */
			appendStringInfo(buf, "B'%s'", value);
			mfpg_append_cast(buf, typid, typmod);
			break;

		case UNKNOWNOID:
			mfpg_quote_literal(buf, value);
			break;

		default:
			mfpg_quote_literal(buf, value);
			if (!beside_column || mfpg_typed_elements(typid))
				mfpg_append_cast(buf, typid, typmod);
			break;
	}
}

static void
mfpg_deparse_const(StringInfo buf, Oid typid, int32 typmod, const char *value)
{
	mfpg_append_const(buf, typid, typmod, value, false);
}

/*
 * A quoted literal compared with a column stays untyped, as postgres_fdw
 * writes it: the remote parser then gives it the type of the remote
 * column, which may differ from the local one (a text column over a remote
 * enum), and picks that type's operator.  Numbers, booleans and bit
 * strings are not quoted literals and keep their casts.
 */
static void
mfpg_deparse_const_beside_column(StringInfo buf, Oid typid, int32 typmod,
								 const char *value)
{
	mfpg_append_const(buf, typid, typmod, value, true);
}

/*
 * Casting every parameter makes the remote parser resolve operators
 * exactly as the local one did instead of guessing from context.
 */
static void
mfpg_cast_param(StringInfo buf, Oid typid, int32 typmod)
{
	mfpg_append_cast(buf, typid, typmod);
}

/*
 * A string column compared as ours: a no-op on a remote column of the
 * same type, which keeps its index; a remote enum or uuid behind a text
 * column compares as text.  char(n) keeps its type (trailing blanks do
 * not count).
 */
static const char *
mfpg_compare_cast(Oid basetype)
{
	switch (basetype)
	{
		case TEXTOID:
		case VARCHAROID:
			return "text";
		case BPCHAROID:
			return "bpchar";
		case TEXTARRAYOID:
		case VARCHARARRAYOID:
			return "text[]";
		case BPCHARARRAYOID:
			return "bpchar[]";
		default:
			return NULL;
	}
}

/*
 * Over a driver that converts dates and timestamps itself (psqlODBC, which
 * drops a BC date's era and turns infinity into 9999-12-31): selected as
 * the server's own text, in the session's ISO style and UTC.
 */
static const char *
mfpg_select_as_text(Oid basetype)
{
	switch (basetype)
	{
		case DATEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return "text";
		default:
			return NULL;
	}
}

static const MfDialect *
mfpg_datetimes_as_text(void)
{
	static MfDialect dialect;
	static bool made = false;

	if (!made)
	{
		dialect = mf_dialect_postgres;
		dialect.select_as_text = mfpg_select_as_text;
		dialect.datetimes_as_text = NULL;
		made = true;
	}
	return &dialect;
}

/*
 * A value the remote's planner does not know while it plans: the result
 * of an uncorrelated sub-select, which it plans as a parameter (as
 * postgres_fdw writes its estimates' parameters).
 */
static void
mfpg_deparse_unknown_value(StringInfo buf, Oid typid, int32 typmod)
{
	appendStringInfoString(buf, "((SELECT NULL");
	mfpg_append_cast(buf, typid, typmod);
	appendStringInfoChar(buf, ')');
	mfpg_append_cast(buf, typid, typmod);
	appendStringInfoChar(buf, ')');
}

/*
 * One row per column, and one row with a NULL column for a relation that
 * has none (hence the LEFT JOIN), so that such a table is imported too.
 * format_type() runs under search_path = pg_catalog, so it qualifies every
 * type that does not live in pg_catalog.
 */
static void
mfpg_import_query(StringInfo buf, const MfImportFilter *filter)
{
	appendStringInfoString(buf,
						   "SELECT c.relname, a.attname,"
						   " pg_catalog.format_type(a.atttypid, a.atttypmod),"
						   " a.attnotnull,"
						   " pg_catalog.pg_get_expr(d.adbin, d.adrelid),"
						   " EXISTS (SELECT 1 FROM pg_catalog.pg_index i"
						   " WHERE i.indrelid = c.oid AND i.indisprimary"
						   " AND a.attnum = ANY (i.indkey)),"
						   " a.attgenerated = 's',"
						   " NULL,"
						   " CASE WHEN a.attcollation <> t.typcollation"
						   " THEN pg_catalog.quote_ident(cn.nspname) || '.' ||"
						   " pg_catalog.quote_ident(co.collname) END"
						   " FROM pg_catalog.pg_namespace n"
						   " LEFT JOIN pg_catalog.pg_class c"
						   " ON n.oid = c.relnamespace"
						   " AND c.relkind IN ('r', 'v', 'f', 'm', 'p')");
	/* partitions come in through their parent, unless named */
	if (filter->list_type != FDW_IMPORT_SCHEMA_LIMIT_TO)
		appendStringInfoString(buf, " AND NOT c.relispartition");
	mf_import_name_filter(buf, filter, "c.relname", mfpg_quote_literal, "false");
	appendStringInfoString(buf,
						   " LEFT JOIN pg_catalog.pg_attribute a"
						   " ON a.attrelid = c.oid AND a.attnum > 0"
						   " AND NOT a.attisdropped"
						   " LEFT JOIN pg_catalog.pg_attrdef d"
						   " ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
						   " LEFT JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
						   " LEFT JOIN pg_catalog.pg_collation co"
						   " ON co.oid = a.attcollation"
						   " LEFT JOIN pg_catalog.pg_namespace cn"
						   " ON cn.oid = co.collnamespace"
						   " WHERE n.nspname = ");
	mfpg_quote_literal(buf, filter->remote_schema);
	appendStringInfoString(buf, " ORDER BY c.relname, a.attnum");
}

/* format_type() output is already a valid local type name */
static char *
mfpg_map_type(const char *remote_type)
{
	return pstrdup(remote_type);
}

/* ---- default_importable: a small recogniser for constant defaults ---- */

static void
mfpg_skip_space(const char **p)
{
	while (isspace((unsigned char) **p))
		(*p)++;
}

static bool
mfpg_ident_char(char c)
{
	return isalnum((unsigned char) c) || c == '_' || c == '$' ||
		(unsigned char) c >= 0x80;
}

/* Consume a keyword (case-insensitively) that is not the prefix of a word. */
static bool
mfpg_eat_word(const char **p, const char *word)
{
	size_t		len = strlen(word);

	if (pg_strncasecmp(*p, word, len) != 0 || mfpg_ident_char((*p)[len]))
		return false;
	*p += len;
	return true;
}

static bool
mfpg_eat_number(const char **p)
{
	const char *s = *p;

	/* 1e5x is not a number followed by something: it is not a number */
	if (!mf_eat_number(&s) || mfpg_ident_char(*s))
		return false;
	*p = s;
	return true;
}

/* '...' with doubled quotes, or E'...' where a backslash escapes too */
static bool
mfpg_eat_literal(const char **p)
{
	const char *s = *p;
	bool		escapes = false;

	if (*s == 'E' || *s == 'e')
	{
		escapes = true;
		s++;
	}
	if (*s != '\'')
		return false;
	s++;
	for (;;)
	{
		if (*s == '\0')
			return false;
		if (escapes && *s == '\\')
		{
			if (s[1] == '\0')
				return false;
			s += 2;
			continue;
		}
		if (*s == '\'')
		{
			if (s[1] == '\'')
			{
				s += 2;
				continue;
			}
			break;
		}
		s++;
	}
	*p = s + 1;
	return true;
}

static bool
mfpg_eat_name(const char **p)
{
	const char *s = *p;

	if (*s == '"')
	{
		s++;
		for (;;)
		{
			if (*s == '\0')
				return false;
			if (*s == '"')
			{
				if (s[1] != '"')
					break;
				s++;
			}
			s++;
		}
		*p = s + 1;
		return true;
	}
	if (!(isalpha((unsigned char) *s) || *s == '_' ||
		  (unsigned char) *s >= 0x80))
		return false;
	while (mfpg_ident_char(*s))
		s++;
	*p = s;
	return true;
}

/*
 * A type name as format_type() prints it: a possibly qualified name, then
 * any of the words that multi-word type names are made of ("double
 * precision", "timestamp(3) with time zone", "interval day to second"),
 * typmods made of digits only, and array brackets.  Any other word
 * (COLLATE, AT, AND, ...) is rejected, and so is anything in parentheses
 * that is not a number list: nothing here can call a function.
 */
static bool
mfpg_eat_type(const char **p)
{
	static const char *const words[] = {
		"precision", "varying", "with", "without", "time", "zone", "to",
		"year", "month", "day", "hour", "minute", "second"
	};
	const char *s = *p;

	if (!mfpg_eat_name(&s))
		return false;
	while (*s == '.')
	{
		s++;
		if (!mfpg_eat_name(&s))
			return false;
	}

	for (;;)
	{
		const char *t = s;
		size_t		i;
		bool		found = false;

		mfpg_skip_space(&t);
		if (*t == '(')
		{
			t++;
			mfpg_skip_space(&t);
			if (!isdigit((unsigned char) *t))
				return false;
			while (isdigit((unsigned char) *t) || *t == ',' || *t == ' ')
				t++;
			if (*t != ')')
				return false;
			s = t + 1;
			continue;
		}
		if (*t == '[')
		{
			t++;
			while (isdigit((unsigned char) *t))
				t++;
			if (*t != ']')
				return false;
			s = t + 1;
			continue;
		}
		for (i = 0; i < lengthof(words); i++)
		{
			if (mfpg_eat_word(&t, words[i]))
			{
				found = true;
				break;
			}
		}
		if (!found)
			break;
		s = t;
	}
	*p = s;
	return true;
}

/* constant := ( '(' constant ')' | atom ) { '::' type } */
static bool
mfpg_eat_constant(const char **p, int depth)
{
	const char *s = *p;

	if (depth > 16)
		return false;

	mfpg_skip_space(&s);
	if (*s == '(')
	{
		s++;
		if (!mfpg_eat_constant(&s, depth + 1))
			return false;
		mfpg_skip_space(&s);
		if (*s != ')')
			return false;
		s++;
	}
	else if (!(mfpg_eat_number(&s) ||
			   mfpg_eat_literal(&s) ||
			   mfpg_eat_word(&s, "NULL") ||
			   mfpg_eat_word(&s, "true") ||
			   mfpg_eat_word(&s, "false")))
		return false;

	for (;;)
	{
		const char *t = s;

		mfpg_skip_space(&t);
		if (t[0] != ':' || t[1] != ':')
			break;
		t += 2;
		mfpg_skip_space(&t);
		if (!mfpg_eat_type(&t))
			return false;
		s = t;
	}
	mfpg_skip_space(&s);
	*p = s;
	return true;
}

/*
 * Only constants are declared locally: a function call (nextval(), now())
 * would run on our side, with our sequences and our clock, and its result
 * would overwrite what the remote default would have produced.
 */
static bool
mfpg_default_importable(const char *remote_default)
{
	const char *p = remote_default;

	if (remote_default == NULL)
		return false;
	if (!mfpg_eat_constant(&p, 0))
		return false;
	return *p == '\0';
}

/* COPY keeps the column list so that omitted columns take their defaults */
static void
mfpg_deparse_copy(StringInfo buf, const char *table, const char *const *columns,
				  const MfTypeClass *classes, int ncols)
{
	appendStringInfo(buf, "COPY %s(", table);
	for (int i = 0; i < ncols; i++)
		appendStringInfo(buf, "%s%s", i > 0 ? ", " : "", columns[i]);
	appendStringInfoString(buf, ") FROM STDIN");
}

const MfDialect mf_dialect_postgres = {
	.name = "postgres",
	.default_transport = "libpq",

	.quote_ident = mfpg_quote_ident,
	.quote_literal = mfpg_quote_literal,
	.deparse_insert = mfpg_deparse_insert,
	.deparse_copy = mfpg_deparse_copy,

	.max_params = 65535,
	.max_rows_per_insert = 0,
	.max_ident_bytes = 63,		/* a stock server's NAMEDATALEN - 1 */

	.savepoint_fmt = "SAVEPOINT s%d",
	.release_savepoint_fmt = "RELEASE SAVEPOINT s%d",
	.rollback_to_savepoint_fmt = "ROLLBACK TO SAVEPOINT s%d",

	.session_setup_sql = "SET search_path = pg_catalog; SET timezone = 'UTC';"
	" SET datestyle = ISO; SET intervalstyle = postgres;"
	" SET extra_float_digits = 3",
	.begin_sql = mfpg_begin_sql,
	.read_only_sql = "SET TRANSACTION READ ONLY",
	/* none needed: PostgreSQL ends a transaction block only by the words
	 * exec_guard.c reads (a procedure's or DO block's COMMIT fails in one) */
	.xact_open_sql = NULL,
	.deparse_limit = mfpg_deparse_limit,
	.deparse_limit_offset = mfpg_deparse_limit_offset,
	.compare_cast = mfpg_compare_cast,
	.datetimes_as_text = mfpg_datetimes_as_text,
	.begin_atomic_blocks = true,
	.aggregates = mfpg_aggregates,
	.n_aggregates = lengthof(mfpg_aggregates),
	.aggregate_filter = true,
	.nulls_order = MF_NULLS_CLAUSE,
	.join_types = MF_JOINS_COMMON | MF_JOIN_BIT(JOIN_FULL) |
	MF_JOIN_BIT(JOIN_SEMI) | MF_JOIN_BIT(JOIN_ANTI),
	.whole_row = true,

	/* libpq reports SQLSTATEs itself */
	.error_map = NULL,
	.n_error_map = 0,

	.prepare_fmt = "PREPARE TRANSACTION '%s'",
	.commit_prepared_fmt = "COMMIT PREPARED '%s'",
	.rollback_prepared_fmt = "ROLLBACK PREPARED '%s'",
	.list_prepared_sql = "SELECT gid FROM pg_catalog.pg_prepared_xacts"
	" WHERE database = pg_catalog.current_database()",
	.list_prepared_col = 0,
	.prepared_missing_sqlstate = "42704",

	.row_identity = MF_ROWID_CTID,
	.ctid_check_fmt = "SELECT c.relkind IN ('r', 'p') FROM pg_catalog.pg_class c"
	" WHERE c.oid = pg_catalog.to_regclass(%s)",
	.partition_key_fmt = "SELECT DISTINCT a.attname::pg_catalog.text,"
	" pg_catalog.format_type(a.atttypid, a.atttypmod)"
	" FROM pg_catalog.pg_partition_tree(pg_catalog.to_regclass(%s)) t"
	" JOIN pg_catalog.pg_partitioned_table p ON p.partrelid = t.relid"
	" JOIN pg_catalog.pg_attribute a ON a.attrelid = p.partrelid"
	" AND a.attnum = ANY (p.partattrs::pg_catalog.int2[])",
	.pruned_begin_sql = "SELECT pg_catalog.current_setting('plan_cache_mode'),"
	" pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true)",
	.pruned_end_fmt = "SELECT pg_catalog.set_config('plan_cache_mode', '%s', true)",
	/* the name is read once, in q, for the marker to appear once */
	.insert_skip_check_fmt = "SELECT EXISTS (SELECT FROM pg_catalog.pg_trigger t"
	" WHERE (t.tgrelid = q.rel OR t.tgrelid IN"
	" (SELECT p.relid FROM pg_catalog.pg_partition_tree(q.rel) p))"
	" AND NOT t.tgisinternal AND t.tgenabled <> 'D'"
	" AND (t.tgtype::pg_catalog.int4 & 7) = 7)"	/* ROW, BEFORE, INSERT */
	" OR EXISTS (SELECT FROM pg_catalog.pg_rewrite r"
	" WHERE r.ev_class = q.rel AND r.ev_type = '3')"
	" FROM (SELECT pg_catalog.to_regclass(%s) AS rel) q",
	.supports_returning = true,
	.supports_do_nothing = true,
	.supports_arrays = true,
	.nested_subqueries = true,
	.keyed_rescans = true,
	.whole_queries = true,
	.conditional_expressions = true,
	.supports_row_in = true,
	.boolean_conditions = true,

	.deparse_lock = mfpg_deparse_lock,
	.deparse_truncate = mfpg_deparse_truncate,
	.explain_prefix = "EXPLAIN ",

	/*
	 * As postgres_fdw: the remote's reltuples (-1 before its first VACUUM
	 * or ANALYZE); TABLESAMPLE needs 9.5 and a relation with storage.
	 */
	.sample_estimate_fmt = "SELECT c.reltuples,"
	" c.relkind IN ('r', 'm', 'p')"
	" AND pg_catalog.current_setting('server_version_num')::pg_catalog.int4 >= 90500"
	" FROM pg_catalog.pg_class c"
	" JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
	" WHERE n.nspname = %s AND c.relname = %s",
	.deparse_sample = mfpg_deparse_sample,
	.sample_auto = MF_SAMPLE_BERNOULLI,

	/*
	 * pg_stats shows only the columns the remote user may read, and is
	 * everyone's unless the remote's administrator took it away.
	 */
	.stats_readable_sql = "SELECT pg_catalog.has_table_privilege("
	"'pg_catalog.pg_stats', 'SELECT')",
	.stats_import_fmt = "SELECT a.attname, tn.nspname, t.typname, c.reltuples,"
	" s.attname IS NOT NULL, s.null_frac, s.avg_width, s.n_distinct,"
	" s.most_common_vals::pg_catalog.text,"
	" s.most_common_freqs::pg_catalog.text,"
	" s.histogram_bounds::pg_catalog.text, s.correlation,"
	" c.relkind NOT IN ('r', 'm') OR c.relhassubclass"
	" FROM pg_catalog.pg_class c"
	" JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
	" JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid"
	" JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
	" JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace"
	" LEFT JOIN pg_catalog.pg_stats s ON s.schemaname = n.nspname"
	" AND s.tablename = c.relname AND s.attname = a.attname"
	" AND NOT s.inherited"
	" WHERE n.nspname = %s AND c.relname = %s"
	" AND a.attnum > 0 AND NOT a.attisdropped",
	.extension_objects = true,
	.parse_explain = mfpg_parse_explain,
	.truncate_max_tables = 0,
	.truncate_commits = false,
	/* the remote search_path is pg_catalog: tables must be qualified */
	.default_schema_is_local = true,

	.type_shippable = mfpg_type_shippable,
	.operator_shippable = mfpg_operator_shippable,
	.function_shippable = mfpg_function_shippable,
	.cast_shippable = mfpg_cast_shippable,
	.deparse_const = mfpg_deparse_const,
	.deparse_const_beside_column = mfpg_deparse_const_beside_column,
	.cast_param = mfpg_cast_param,
	.deparse_unknown_value = mfpg_deparse_unknown_value,

	.import_query = mfpg_import_query,
	.import_reports_schema = true,
	.map_type = mfpg_map_type,
	.default_importable = mfpg_default_importable,
};
