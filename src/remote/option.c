/*-------------------------------------------------------------------------
 *
 * option.c
 *		The one table of multi_fdw's options and their validation (the
 *		resolved options of a server and foreign table: option_read.c).
 *
 * Every option is described once: multi_fdw's own in mf_options[] (where
 * it may appear, what kind of value it takes), the connection keywords in
 * the routine table of each transport that takes them (MfConnKeyword).
 * The validator and the readers (option_read.c) both work from the table
 * the two make, so a name or a range is never checked in two places.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/reloptions.h"
#include "access/xact.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "commands/extension.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

#include "remote/remote.h"
#include "remote/option_int.h"

/* where an option may appear */
#define MF_CTX_SERVER	0x01
#define MF_CTX_USER		0x02
#define MF_CTX_TABLE	0x04
#define MF_CTX_COLUMN	0x08


/* in the order of MfSampleMethod; postgres_fdw 16's values */
static const char *const mf_sample_methods[] = {"off", "auto", "random",
"system", "bernoulli", NULL};
#define CORE(name, ctx, kind, min, max, vals) {name, ctx, kind, min, max, vals, false, false}

/*
 * The connection keywords of every transport built in go where these
 * stand: first those only a user mapping takes (the credentials), then
 * the rest, each once, in the order of the transports and their tables.
 */
#define KEYWORDS(ctx) {NULL, ctx, MF_OPT_KEYWORDS, 0, 0, NULL, true, false}

static const MfOptionDef mf_options[] = {
	/* what the server is and how it is reached */
	CORE("dialect", MF_CTX_SERVER, MF_OPT_DIALECT, 0, 0, NULL),
	CORE("transport", MF_CTX_SERVER, MF_OPT_TRANSPORT, 0, 0, NULL),

	/* loading, reading, writing */
	CORE("batch_size", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_INT, 1, 1000000, NULL),
	CORE("batch_bytes", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_INT, 1024,
		 INT64CONST(1073741824), NULL),
	CORE("fetch_size", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_INT, 1, 10000000, NULL),
	CORE("pipeline_depth", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_INT, 1, 1000, NULL),
	CORE("insert_method", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_ENUM, 0, 0,
		 mf_insert_method_names),
	CORE("updatable", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),
	CORE("truncatable", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),
	CORE("keep_connections", MF_CTX_SERVER, MF_OPT_BOOL, 0, 0, NULL),
	CORE("async_capable", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),
	CORE("keep_rescan_rows", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),
	CORE("session_sql", MF_CTX_SERVER, MF_OPT_STRING, 0, 0, NULL),
	CORE("two_phase_commit", MF_CTX_SERVER, MF_OPT_BOOL, 0, 0, NULL),
	CORE("parallel_commit", MF_CTX_SERVER, MF_OPT_BOOL, 0, 0, NULL),
	CORE("parallel_abort", MF_CTX_SERVER, MF_OPT_BOOL, 0, 0, NULL),
	CORE("relay_messages", MF_CTX_SERVER, MF_OPT_BOOL, 0, 0, NULL),

	/* planning, with postgres_fdw's names and defaults */
	CORE("extensions", MF_CTX_SERVER, MF_OPT_STRING, 0, 0, NULL),
	CORE("use_remote_estimate", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),
	CORE("pushdown", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),
	CORE("dependent_join", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),
	CORE("dependent_join_max_keys", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_INT, 1,
		 PG_INT32_MAX, NULL),
	CORE("fdw_startup_cost", MF_CTX_SERVER, MF_OPT_REAL, 0, 0, NULL),
	CORE("fdw_tuple_cost", MF_CTX_SERVER, MF_OPT_REAL, 0, 0, NULL),
	CORE("analyze_sampling", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_ENUM, 0, 0,
		 mf_sample_methods),
	CORE("restore_stats", MF_CTX_SERVER | MF_CTX_TABLE, MF_OPT_BOOL, 0, 0, NULL),

	/* naming the remote table and its columns */
	CORE("schema_name", MF_CTX_TABLE, MF_OPT_STRING, 0, 0, NULL),
	CORE("table_name", MF_CTX_TABLE, MF_OPT_STRING, 0, 0, NULL),
	CORE("column_name", MF_CTX_COLUMN, MF_OPT_STRING, 0, 0, NULL),
	CORE("key", MF_CTX_COLUMN, MF_OPT_BOOL, 0, 0, NULL),
	CORE("text_pushdown", MF_CTX_COLUMN, MF_OPT_BOOL, 0, 0, NULL),
	CORE("sum_pushdown", MF_CTX_COLUMN, MF_OPT_BOOL, 0, 0, NULL),
	CORE("text_bytes", MF_CTX_COLUMN, MF_OPT_BOOL, 0, 0, NULL),
	CORE("remote_charset", MF_CTX_COLUMN, MF_OPT_STRING, 0, 0, NULL),

	/* user mapping */
	KEYWORDS(MF_CTX_USER),
	CORE("password_required", MF_CTX_USER, MF_OPT_BOOL, 0, 0, NULL),
	CORE("use_scram_passthrough", MF_CTX_SERVER | MF_CTX_USER, MF_OPT_BOOL, 0, 0, NULL),
	CORE("remote_requires_password", MF_CTX_SERVER, MF_OPT_BOOL, 0, 0, NULL),

	/* the transports' connection keywords */
	KEYWORDS(MF_CTX_SERVER),
};

#undef CORE
#undef KEYWORDS


static const char *
mf_context_name(int ctx)
{
	switch (ctx)
	{
		case MF_CTX_SERVER:
			return "foreign server";
		case MF_CTX_USER:
			return "user mapping";
		case MF_CTX_TABLE:
			return "foreign table";
		case MF_CTX_COLUMN:
			return "column of a foreign table";
		default:
			return "foreign-data wrapper";
	}
}

/* the option table: mf_options with the transports' keywords in place */
static MfOptionDef *mf_all_options;
static int	mf_n_all_options;

static int
mf_kw_contexts(int where)
{
	return ((where & MF_KW_SERVER) ? MF_CTX_SERVER : 0) |
		((where & MF_KW_USER) ? MF_CTX_USER : 0);
}

/* Add the keywords that belong at a KEYWORDS(ctx) entry, once each. */
static void
mf_add_keywords(int ctx, int *n)
{
	const MfTransport *t;

	for (int i = 0; (t = mf_transport_at(i)) != NULL; i++)
	{
		for (const MfConnKeyword *kw = t->keywords; kw->name; kw++)
		{
			int			kctx = mf_kw_contexts(kw->where);
			MfOptionDef *def = NULL;

			/* the credentials' place is the user mapping's entry */
			if ((kctx == MF_CTX_USER) != (ctx == MF_CTX_USER))
				continue;
			for (int k = 0; k < *n && def == NULL; k++)
				if (mf_all_options[k].conn_keyword &&
					strcmp(mf_all_options[k].name, kw->name) == 0)
					def = &mf_all_options[k];
			if (def == NULL)
			{
				def = &mf_all_options[(*n)++];
				def->name = kw->name;
				def->kind = kw->values ? MF_OPT_ENUM : MF_OPT_STRING;
				def->values = kw->values;
				def->conn_keyword = true;
			}
			def->contexts |= kctx;
			def->superuser_only |= kw->superuser_only;
		}
	}
}

static void
mf_build_options(void)
{
	int			cap = lengthof(mf_options);
	int			n = 0;
	const MfTransport *t;

	if (mf_all_options != NULL)
		return;
	for (int i = 0; (t = mf_transport_at(i)) != NULL; i++)
		for (const MfConnKeyword *kw = t->keywords; kw->name; kw++)
			cap++;
	mf_all_options = MemoryContextAllocZero(TopMemoryContext,
											cap * sizeof(MfOptionDef));
	for (size_t i = 0; i < lengthof(mf_options); i++)
	{
		if (mf_options[i].kind == MF_OPT_KEYWORDS)
			mf_add_keywords(mf_options[i].contexts, &n);
		else
			mf_all_options[n++] = mf_options[i];
	}
	mf_n_all_options = n;
}

const MfOptionDef *
mf_lookup_option(const char *name)
{
	mf_build_options();
	for (int i = 0; i < mf_n_all_options; i++)
		if (strcmp(mf_all_options[i].name, name) == 0)
			return &mf_all_options[i];
	return NULL;
}

/*
 * An unknown option: name the closest valid one, or list them all when
 * nothing is close, as postgres_fdw does.
 */
static void
mf_unknown_option(const char *name, int ctx)
{
	const char *best = NULL;
	int			best_dist = INT_MAX;
	StringInfoData valid;

	mf_build_options();
	initStringInfo(&valid);
	for (int i = 0; i < mf_n_all_options; i++)
	{
		const MfOptionDef *def = &mf_all_options[i];
		int			d;

		if (!(def->contexts & ctx))
			continue;
		appendStringInfo(&valid, "%s%s", valid.len > 0 ? ", " : "",
						 def->name);
		d = varstr_levenshtein_less_equal(name, strlen(name),
										  def->name, strlen(def->name),
										  1, 1, 1, 3, true);
		if (d < best_dist)
		{
			best_dist = d;
			best = def->name;
		}
	}

	if (best != NULL && best_dist <= 3 && best_dist < (int) strlen(name))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
				 errmsg("invalid option \"%s\" for a %s", name,
						mf_context_name(ctx)),
				 errhint("Perhaps you meant the option \"%s\".", best)));
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
			 errmsg("invalid option \"%s\" for a %s", name, mf_context_name(ctx)),
			 valid.len > 0 ? errhint("Valid options in this context are: %s.",
									 valid.data) : 0));
}

int64
mf_parse_int(const MfOptionDef *def, const char *value)
{
	char	   *end;
	int64		v;

	errno = 0;
	v = strtoi64(value, &end, 10);
	while (*end == ' ')
		end++;
	if (errno != 0 || end == value || *end != '\0')
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"%s\": \"%s\"", def->name, value),
				 errhint("The value must be an integer.")));
	if (v < def->min || v > def->max)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("value %s is out of range for option \"%s\"", value, def->name),
				 errdetail("Valid values are between " INT64_FORMAT " and " INT64_FORMAT ".",
						   def->min, def->max)));
	return v;
}

double
mf_parse_real(const MfOptionDef *def, const char *value)
{
	double		v;

	if (!parse_real(value, &v, 0, NULL) || isnan(v) || v < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"%s\": \"%s\"", def->name, value),
				 errhint("The value must be a number greater than or equal to zero.")));
	return v;
}

int
mf_parse_enum(const MfOptionDef *def, const char *value)
{
	StringInfoData valid;

	for (int i = 0; def->values[i] != NULL; i++)
		if (pg_strcasecmp(def->values[i], value) == 0)
			return i;

	initStringInfo(&valid);
	for (int i = 0; def->values[i] != NULL; i++)
		appendStringInfo(&valid, "%s%s", i > 0 ? ", " : "", def->values[i]);
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid value for option \"%s\": \"%s\"", def->name, value),
			 errhint("Valid values are: %s.", valid.data)));
	return -1;
}

/* true/false, on/off, yes/no, 1/0 */
bool
mf_parse_bool(DefElem *d)
{
	bool		result;

	if (!parse_bool(defGetString(d), &result))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"%s\": \"%s\"", d->defname,
						defGetString(d)),
				 errhint("Valid values are true, false, on, off, yes, no, 1 and 0.")));
	return result;
}

const MfDialect *
mf_parse_dialect(const char *value)
{
	const MfDialect *d = mf_find_dialect(value);

	if (d == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("unknown dialect \"%s\"", value),
				 errhint("Valid dialects are: %s.", mf_dialect_list())));
	return d;
}

const MfTransport *
mf_parse_transport(const char *value)
{
	const MfTransport *t = mf_find_transport(value);

	if (t == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("unknown transport \"%s\"", value),
				 errhint("Valid transports are: %s.", mf_transport_list())));
	return t;
}

/*
 * The OIDs of the extensions a comma-separated list names; one that is not
 * installed here is skipped, with a WARNING when warn (as postgres_fdw).
 */
List *
mf_extension_list(const char *value, bool warn)
{
	List	   *names;
	List	   *oids = NIL;
	ListCell   *lc;

	if (!SplitIdentifierString(pstrdup(value), ',', &names))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"extensions\": \"%s\"", value),
				 errhint("The value must be a comma-separated list of extension names.")));
	foreach(lc, names)
	{
		Oid			oid = get_extension_oid(lfirst(lc), true);

		if (OidIsValid(oid))
			oids = lappend_oid(oids, oid);
		else if (warn)
			ereport(WARNING,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("extension \"%s\" is not installed",
							(char *) lfirst(lc))));
	}
	return oids;
}

/* A character set's name as MySQL spells them: [A-Za-z0-9_]{1,64}. */
bool
mf_charset_name(const char *value)
{
	size_t		n = strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
						   "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n > 0 && n <= 64 && value[n] == '\0';
}

/* Check one value against its definition; raises on a bad one. */
static void
mf_check_value(const MfOptionDef *def, DefElem *d)
{
	const char *value = defGetString(d);

	switch (def->kind)
	{
		case MF_OPT_INT:
			(void) mf_parse_int(def, value);
			break;
		case MF_OPT_REAL:
			(void) mf_parse_real(def, value);
			break;
		case MF_OPT_BOOL:
			(void) mf_parse_bool(d);
			break;
		case MF_OPT_ENUM:
			(void) mf_parse_enum(def, value);
			break;
		case MF_OPT_DIALECT:
			(void) mf_parse_dialect(value);
			break;
		case MF_OPT_TRANSPORT:
			(void) mf_parse_transport(value);
			break;
		case MF_OPT_KEYWORDS:
			break;
		case MF_OPT_STRING:
			if (strcmp(def->name, "extensions") == 0)
			{
				(void) mf_extension_list(value, true);
				break;
			}
			if (!def->conn_keyword && value[0] == '\0')
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("option \"%s\" must not be empty", def->name)));
			if (strcmp(def->name, "remote_charset") == 0 &&
				!mf_charset_name(value))
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("invalid value for option \"%s\": \"%s\"",
								def->name, value),
						 errhint("A character set's name: letters, digits and underscores, at most 64.")));
			break;
	}
}

/* The dialect and transport a server's options name; NULL where none. */
static void
mf_server_names(List *options, const char **dialect, const char **transport)
{
	ListCell   *lc;

	*dialect = NULL;
	*transport = NULL;
	foreach(lc, options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, "dialect") == 0)
			*dialect = defGetString(d);
		else if (strcmp(d->defname, "transport") == 0)
			*transport = defGetString(d);
	}
}

/*
 * A server's options as a whole: the dialect is required, the transport
 * must be able to speak it, and every connection keyword must belong to
 * that transport.
 */
static void
mf_check_server(List *options)
{
	const char *dialect_name;
	const char *transport_name;
	const MfDialect *dialect = NULL;
	const MfTransport *transport = NULL;
	ListCell   *lc;

	mf_server_names(options, &dialect_name, &transport_name);
	if (dialect_name != NULL)
		dialect = mf_parse_dialect(dialect_name);
	if (transport_name != NULL)
		transport = mf_parse_transport(transport_name);

	if (dialect == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
				 errmsg("a multi_fdw server needs the option \"dialect\""),
				 errhint("Valid dialects are: %s.", mf_dialect_list())));
	if (transport == NULL)
		transport = mf_find_transport(dialect->default_transport);
	if (!mf_transport_allowed(dialect, transport))
	{
		const MfTransport *carrier = mf_transport_carrier();

		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("dialect \"%s\" cannot be used with transport \"%s\"",
						dialect->name, transport->name),
				 carrier == NULL ||
				 strcmp(dialect->default_transport, carrier->name) == 0 ?
				 errhint("Use transport \"%s\".", dialect->default_transport) :
				 errhint("Use transport \"%s\" or \"%s\".",
						 dialect->default_transport, carrier->name)));
	}

	foreach(lc, options)
	{
		DefElem    *d = lfirst(lc);
		const MfOptionDef *def = mf_lookup_option(d->defname);
		MfError		err;

		if (strcmp(d->defname, "two_phase_commit") == 0 && mf_parse_bool(d) &&
			(dialect->prepare_fmt == NULL || !transport->sql_transaction_control))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("a server of dialect \"%s\" through transport \"%s\" cannot take part in two-phase commit",
							dialect->name, transport->name),
					 dialect->prepare_fmt == NULL ?
					 errdetail("The dialect has no way to prepare a transaction.") :
					 errdetail("The transport keeps the remote transaction's state itself.")));
		if (strcmp(d->defname, "use_scram_passthrough") == 0 &&
			mf_parse_bool(d) && !transport->scram_passthrough)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("transport \"%s\" cannot use SCRAM pass-through",
							transport->name),
					 errdetail("Only transport \"libpq\" can, with libpq 18 or later.")));
		if (strcmp(d->defname, "use_remote_estimate") == 0 &&
			dialect->explain_prefix == NULL && mf_parse_bool(d))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("use_remote_estimate is not supported by dialect %s",
							dialect->name)));
		if (strcmp(d->defname, "restore_stats") == 0 &&
			dialect->stats_import_fmt == NULL && mf_parse_bool(d))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("restore_stats is not supported by dialect %s",
							dialect->name),
					 errdetail("Only a remote PostgreSQL's statistics can be imported; ANALYZE samples the remote table.")));
		if (strcmp(d->defname, "analyze_sampling") == 0)
			mf_check_sample_method(dialect,
								   (MfSampleMethod) mf_parse_enum(def, defGetString(d)));
		if (strcmp(d->defname, "extensions") == 0 && !dialect->extension_objects)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("option \"extensions\" is not valid for dialect \"%s\"",
							dialect->name),
					 errdetail("PostgreSQL's extensions exist only on a remote PostgreSQL.")));
		if (!def->conn_keyword)
			continue;
		if (mf_transport_keyword(transport, d->defname) == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("option \"%s\" is not valid for transport \"%s\"",
							d->defname, transport->name)));
		mf_error_clear(&err);
		if (transport->check_option != NULL &&
			!transport->check_option(d->defname, defGetString(d), superuser(),
									 &err))
			ereport(ERROR,
					(errcode(MAKE_SQLSTATE(err.sqlstate[0], err.sqlstate[1],
										   err.sqlstate[2], err.sqlstate[3],
										   err.sqlstate[4])),
					 errmsg_internal("%s", err.message),
					 err.detail[0] ? errdetail_internal("%s", err.detail) : 0,
					 err.hint[0] ? errhint("%s", err.hint) : 0));
	}
}

/*
 * Raises the error of mf_find_transport when the server names a transport,
 * or a dialect whose default transport, that this build left out.
 */
static void
mf_check_transport_built(List *options)
{
	const char *dialect_name;
	const char *transport;
	const MfDialect *dialect;

	mf_server_names(options, &dialect_name, &transport);
	dialect = dialect_name ? mf_find_dialect(dialect_name) : NULL;
	if (transport == NULL && dialect != NULL)
		transport = dialect->default_transport;
	if (transport != NULL)
		(void) mf_find_transport(transport);
}

PG_FUNCTION_INFO_V1(multi_fdw_validator);

Datum
multi_fdw_validator(PG_FUNCTION_ARGS)
{
	List	   *options = untransformRelOptions(PG_GETARG_DATUM(0));
	Oid			catalog = PG_GETARG_OID(1);
	int			ctx;
	ListCell   *lc;

	switch (catalog)
	{
		case ForeignServerRelationId:
			ctx = MF_CTX_SERVER;
			break;
		case UserMappingRelationId:
			ctx = MF_CTX_USER;
			break;
		case ForeignTableRelationId:
			ctx = MF_CTX_TABLE;
			break;
		case AttributeRelationId:
			ctx = MF_CTX_COLUMN;
			break;
		default:
			/* the wrapper itself takes no options */
			ctx = 0;
			break;
	}

	/*
	 * A server whose transport this build left out is told so before its
	 * keywords are taken for unknown options.
	 */
	if (ctx == MF_CTX_SERVER)
		mf_check_transport_built(options);

	foreach(lc, options)
	{
		DefElem    *d = lfirst(lc);
		const MfOptionDef *def = mf_lookup_option(d->defname);

		if (def == NULL || !(def->contexts & ctx))
			mf_unknown_option(d->defname, ctx);
		mf_check_value(def, d);

		/*
		 * As postgres_fdw does for sslcert and sslkey: checked on every
		 * CREATE and ALTER, which see all the options, so that a
		 * non-superuser can neither set such an option nor change anything
		 * else of an object that has one.
		 */
		if (def->superuser_only && !superuser())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("only a superuser may set the option \"%s\"",
							d->defname),
					 errdetail("It names a file of the server host.")));

#if PG_VERSION_NUM < 180000
		if (strcmp(d->defname, "use_scram_passthrough") == 0 && mf_parse_bool(d))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("use_scram_passthrough needs PostgreSQL 18 or later"),
					 errdetail("This gateway runs PostgreSQL %s, which keeps no keys of a SCRAM login to pass on.",
							   PG_VERSION)));
#endif

		/*
		 * A superuser's word that the remote checks every login's password,
		 * for a transport that cannot see it (ODBC): the same rule.
		 */
		if (strcmp(d->defname, "remote_requires_password") == 0 &&
			mf_parse_bool(d) && !superuser())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("remote_requires_password=true is superuser-only"),
					 errhint("Servers with the remote_requires_password option set to true may only be created or modified by a superuser.")));

		/*
		 * Turning the password requirement off lets a mapping borrow the
		 * remote's trust of this host: only a superuser may decide that.
		 */
		if (strcmp(d->defname, "password_required") == 0 &&
			!mf_parse_bool(d) && !superuser())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("password_required=false is superuser-only"),
					 errhint("User mappings with the password_required option set to false may only be created or modified by the superuser.")));
	}

	if (ctx == MF_CTX_SERVER)
		mf_check_server(options);

	PG_RETURN_VOID();
}

const char *
mf_sample_method_name(MfSampleMethod method)
{
	return mf_sample_methods[method];
}

/* Can the dialect sample exactly by method?  OFF and AUTO always can. */
bool
mf_sample_possible(const MfDialect *dialect, MfSampleMethod method)
{
	StringInfoData scratch;
	bool		ok;

	if (method == MF_SAMPLE_OFF || method == MF_SAMPLE_AUTO)
		return true;
	if (dialect->sample_estimate_fmt == NULL)
		return false;
	initStringInfo(&scratch);
	ok = dialect->deparse_sample(&scratch, method, 0.5);
	pfree(scratch.data);
	return ok;
}

/*
 * Refuse a method the dialect has no exact equivalent for: from the
 * validator when a server names it, from ANALYZE when a foreign table does
 * (a table's options are validated without its server's dialect).
 */
void
mf_check_sample_method(const MfDialect *dialect, MfSampleMethod method)
{
	StringInfoData valid;

	if (mf_sample_possible(dialect, method))
		return;
	initStringInfo(&valid);
	for (int m = MF_SAMPLE_OFF; m <= MF_SAMPLE_BERNOULLI; m++)
		if (mf_sample_possible(dialect, (MfSampleMethod) m))
			appendStringInfo(&valid, "%s%s", valid.len > 0 ? ", " : "",
							 mf_sample_method_name((MfSampleMethod) m));
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid value for option \"analyze_sampling\": \"%s\" is not supported by dialect %s",
					mf_sample_method_name(method), dialect->name),
			 errhint("Valid values for dialect %s are: %s.", dialect->name,
					 valid.data)));
}
