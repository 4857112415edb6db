/*-------------------------------------------------------------------------
 *
 * option_read.c
 *		The resolved options of a server and foreign table, read once per
 *		transaction; column options; the connection keywords handed to a
 *		transport.
 *
 * The values were checked by the validator (option.c) when they were set;
 * reading them again parses them with the same functions, so a name or a
 * range is never checked in two places.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "foreign/fdwapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "remote/option_int.h"

/* ---------------------------------------------------------------------
 * Reading resolved options
 * ---------------------------------------------------------------------
 */

/* Apply one option of a server or a table to opts. */
static void
mf_apply_option(MfOptions *opts, DefElem *d)
{
	const MfOptionDef *def = mf_lookup_option(d->defname);
	const char *name = d->defname;

	if (def == NULL || def->conn_keyword)
		return;
	if (strcmp(name, "dialect") == 0)
		opts->dialect = mf_parse_dialect(defGetString(d));
	else if (strcmp(name, "transport") == 0)
		opts->transport = mf_parse_transport(defGetString(d));
	else if (strcmp(name, "batch_size") == 0)
		opts->batch_size = (int) mf_parse_int(def, defGetString(d));
	else if (strcmp(name, "batch_bytes") == 0)
		opts->batch_bytes = mf_parse_int(def, defGetString(d));
	else if (strcmp(name, "fetch_size") == 0)
		opts->fetch_size = (int) mf_parse_int(def, defGetString(d));
	else if (strcmp(name, "pipeline_depth") == 0)
		opts->pipeline_depth = (int) mf_parse_int(def, defGetString(d));
	else if (strcmp(name, "insert_method") == 0)
		opts->insert_method = (MfInsertMethod) mf_parse_enum(def, defGetString(d));
	else if (strcmp(name, "updatable") == 0)
		opts->updatable = mf_parse_bool(d);
	else if (strcmp(name, "truncatable") == 0)
		opts->truncatable = mf_parse_bool(d);
	else if (strcmp(name, "keep_connections") == 0)
		opts->keep_connections = mf_parse_bool(d);
	else if (strcmp(name, "parallel_commit") == 0)
		opts->parallel_commit = mf_parse_bool(d);
	else if (strcmp(name, "parallel_abort") == 0)
		opts->parallel_abort = mf_parse_bool(d);
	else if (strcmp(name, "relay_messages") == 0)
		opts->relay_messages = mf_parse_bool(d);
	else if (strcmp(name, "async_capable") == 0)
		opts->async_capable = mf_parse_bool(d);
	else if (strcmp(name, "keep_rescan_rows") == 0)
		opts->keep_rescan_rows = mf_parse_bool(d);
	else if (strcmp(name, "session_sql") == 0)
		opts->session_sql = defGetString(d);
	else if (strcmp(name, "two_phase_commit") == 0)
		opts->two_phase_commit = mf_parse_bool(d);
	else if (strcmp(name, "extensions") == 0)
		opts->extensions = mf_extension_list(defGetString(d), false);
	else if (strcmp(name, "use_remote_estimate") == 0)
		opts->use_remote_estimate = mf_parse_bool(d);
	else if (strcmp(name, "pushdown") == 0)
		opts->pushdown = mf_parse_bool(d);
	else if (strcmp(name, "dependent_join") == 0)
		opts->dependent_join = mf_parse_bool(d);
	else if (strcmp(name, "dependent_join_max_keys") == 0)
		opts->dependent_join_max_keys = (int) mf_parse_int(def, defGetString(d));
	else if (strcmp(name, "fdw_startup_cost") == 0)
		opts->fdw_startup_cost = mf_parse_real(def, defGetString(d));
	else if (strcmp(name, "fdw_tuple_cost") == 0)
		opts->fdw_tuple_cost = mf_parse_real(def, defGetString(d));
	else if (strcmp(name, "restore_stats") == 0)
		opts->restore_stats = mf_parse_bool(d);
	else if (strcmp(name, "analyze_sampling") == 0)
		opts->analyze_sampling = (MfSampleMethod) mf_parse_enum(def, defGetString(d));
	else if (strcmp(name, "schema_name") == 0)
		opts->schema_name = defGetString(d);
	else if (strcmp(name, "table_name") == 0)
		opts->table_name = defGetString(d);
}

/*
 * The options in force for a server and, when relid is valid, one of its
 * foreign tables (whose options override the server's), read from the
 * catalog.  What it points to is allocated in the current memory context.
 */
static void
mf_read_options(Oid serverid, Oid relid, MfOptions *opts)
{
	ForeignServer *server = GetForeignServer(serverid);
	ListCell   *lc;

	memset(opts, 0, sizeof(*opts));
	opts->serverid = serverid;
	opts->servername = server->servername;
	opts->batch_size = MF_DEFAULT_BATCH_SIZE;
	opts->batch_bytes = MF_DEFAULT_BATCH_BYTES;
	opts->fetch_size = MF_DEFAULT_FETCH_SIZE;
	opts->pipeline_depth = MF_DEFAULT_PIPELINE_DEPTH;
	opts->insert_method = MF_INSERT_AUTO;
	opts->updatable = true;
	opts->truncatable = true;
	opts->fdw_startup_cost = MF_DEFAULT_FDW_STARTUP_COST;
	opts->fdw_tuple_cost = MF_DEFAULT_FDW_TUPLE_COST;
	opts->keep_connections = true;
	opts->relay_messages = true;
	opts->pushdown = true;
	opts->dependent_join = true;
	opts->keep_rescan_rows = true;
	opts->analyze_sampling = MF_SAMPLE_AUTO;
	opts->restore_stats = true;

	foreach(lc, server->options)
		mf_apply_option(opts, lfirst(lc));
	if (OidIsValid(relid))
	{
		ForeignTable *table = GetForeignTable(relid);

		foreach(lc, table->options)
			mf_apply_option(opts, lfirst(lc));
	}

	if (opts->dialect == NULL)	/* the validator makes this impossible */
		elog(ERROR, "server \"%s\" has no dialect", server->servername);
	if (opts->transport == NULL)
		opts->transport = mf_find_transport(opts->dialect->default_transport);
	if (opts->transport->converts_datetimes &&
		opts->dialect->datetimes_as_text != NULL)
		opts->dialect = opts->dialect->datetimes_as_text();
}

/*
 * The options, read once per transaction.  Planning and running one short
 * statement asks for a table's options half a dozen times (each callback,
 * the deparser, the row identity, the modify state), and each reading is
 * two catalog lookups, their option arrays taken apart and every option
 * matched by name: for a short transaction a tenth of the gateway's work.
 * The readings are kept in TopTransactionContext, so that a change to a
 * server or foreign table in this transaction (its invalidation forgets
 * them all) never frees what a caller still holds; they go with the
 * transaction.
 */
typedef struct MfOptionsKey
{
	Oid			serverid;
	Oid			relid;
} MfOptionsKey;

typedef struct MfOptionsEntry
{
	MfOptionsKey key;
	MfOptions	opts;
} MfOptionsEntry;

static HTAB *mf_options_cache = NULL;

/*
 * Column options (the remote name, key, text_pushdown) are asked for once
 * per column per callback as well: the deparser alone asks for every
 * column it names.  They are kept the same way, and forgotten on any
 * change to a pg_attribute row.
 */
typedef struct MfColumnKey
{
	Oid			relid;
	AttrNumber	attnum;
} MfColumnKey;

typedef struct MfColumnEntry
{
	MfColumnKey key;
	List	   *options;
	char	   *remote_name;
} MfColumnEntry;

static HTAB *mf_columns_cache = NULL;

static void
mf_options_forget(Datum arg, int cacheid, uint32 hashvalue)
{
	mf_options_cache = NULL;
	mf_columns_cache = NULL;
}

static void
mf_options_xact_end(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PARALLEL_ABORT || event == XACT_EVENT_PREPARE)
	{
		mf_options_cache = NULL;
		mf_columns_cache = NULL;
	}
}

void
mf_options_init(void)
{
	CacheRegisterSyscacheCallback(FOREIGNSERVEROID, mf_options_forget, (Datum) 0);
	CacheRegisterSyscacheCallback(FOREIGNTABLEREL, mf_options_forget, (Datum) 0);
	CacheRegisterSyscacheCallback(ATTNUM, mf_options_forget, (Datum) 0);
	RegisterXactCallback(mf_options_xact_end, NULL);
}

void
mf_get_options(Oid serverid, Oid relid, MfOptions *opts)
{
	MfOptionsKey key;
	MfOptionsEntry *entry;
	MemoryContext old;
	MfOptions	read;

	if (!IsTransactionState())
	{
		mf_read_options(serverid, relid, opts);
		return;
	}
	if (mf_options_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(MfOptionsKey);
		ctl.entrysize = sizeof(MfOptionsEntry);
		ctl.hcxt = TopTransactionContext;
		mf_options_cache = hash_create("multi_fdw options", 16, &ctl,
									   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	memset(&key, 0, sizeof(key));
	key.serverid = serverid;
	key.relid = relid;
	entry = hash_search(mf_options_cache, &key, HASH_FIND, NULL);
	if (entry == NULL)
	{
		old = MemoryContextSwitchTo(TopTransactionContext);
		mf_read_options(serverid, relid, &read);
		MemoryContextSwitchTo(old);
		/* reading may have invalidated the cache (a catalog lookup does) */
		if (mf_options_cache == NULL)
		{
			*opts = read;
			return;
		}
		entry = hash_search(mf_options_cache, &key, HASH_ENTER, NULL);
		entry->opts = read;
	}
	*opts = entry->opts;
}

/*
 * The options of a foreign table and its server.  The server's OID comes
 * from the table's catalog row alone: GetForeignTable would also take the
 * table's option array apart, which the cache above spares.
 */
void
mf_get_table_options(Oid relid, MfOptions *opts)
{
	mf_get_options(GetForeignServerIdByRelId(relid), relid, opts);
}

/* The options of a column and its remote name: its column_name or its own. */
static void
mf_read_column(Oid relid, AttrNumber attnum, List **options, char **remote_name)
{
	ListCell   *lc;

	*options = GetForeignColumnOptions(relid, attnum);
	foreach(lc, *options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, "column_name") == 0)
		{
			*remote_name = defGetString(d);
			return;
		}
	}
	*remote_name = get_attname(relid, attnum, false);
}

static MfColumnEntry *
mf_column_entry(Oid relid, AttrNumber attnum, MfColumnEntry *scratch)
{
	MfColumnKey key;
	MfColumnEntry *entry;
	MemoryContext old;
	List	   *options;
	char	   *remote_name;

	memset(&key, 0, sizeof(key));
	key.relid = relid;
	key.attnum = attnum;
	if (!IsTransactionState())
	{
		mf_read_column(relid, attnum, &scratch->options, &scratch->remote_name);
		return scratch;
	}
	if (mf_columns_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(MfColumnKey);
		ctl.entrysize = sizeof(MfColumnEntry);
		ctl.hcxt = TopTransactionContext;
		mf_columns_cache = hash_create("multi_fdw column options", 64, &ctl,
									   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	entry = hash_search(mf_columns_cache, &key, HASH_FIND, NULL);
	if (entry != NULL)
		return entry;
	old = MemoryContextSwitchTo(TopTransactionContext);
	mf_read_column(relid, attnum, &options, &remote_name);
	MemoryContextSwitchTo(old);
	/* as for the options: the reading may have forgotten the cache */
	if (mf_columns_cache == NULL)
	{
		scratch->options = options;
		scratch->remote_name = remote_name;
		return scratch;
	}
	entry = hash_search(mf_columns_cache, &key, HASH_ENTER, NULL);
	entry->options = options;
	entry->remote_name = remote_name;
	return entry;
}

/* The remote name of a column: its column_name option or its local name. */
char *
mf_column_name(Oid relid, AttrNumber attnum)
{
	MfColumnEntry scratch;

	return mf_column_entry(relid, attnum, &scratch)->remote_name;
}

/* A boolean option of a list, dflt when absent. */
static bool
mf_option_flag(List *options, const char *name, bool dflt)
{
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, name) == 0)
			return mf_parse_bool(d);
	}
	return dflt;
}

/* A boolean column option, false when absent. */
bool
mf_column_flag(Oid relid, AttrNumber attnum, const char *name)
{
	MfColumnEntry scratch;

	return mf_option_flag(mf_column_entry(relid, attnum, &scratch)->options,
						  name, false);
}

/* A column option's text, NULL when absent. */
const char *
mf_column_option(Oid relid, AttrNumber attnum, const char *name)
{
	MfColumnEntry scratch;
	ListCell   *lc;

	foreach(lc, mf_column_entry(relid, attnum, &scratch)->options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, name) == 0)
			return defGetString(d);
	}
	return NULL;
}

bool
mf_column_is_key(Oid relid, AttrNumber attnum)
{
	return mf_column_flag(relid, attnum, "key");
}

/*
 * The connection keywords for a transport: every server and user mapping
 * option that the table gives to it, plus the local encoding.
 */
void
mf_connection_params(ForeignServer *server, UserMapping *user,
					 const MfTransport *transport, List **keys, List **values)
{
	List	   *all = list_concat_copy(server->options, user->options);
	const char *appname = NULL;
	ListCell   *lc;

	*keys = NIL;
	*values = NIL;
	foreach(lc, all)
	{
		DefElem    *d = lfirst(lc);

		if (mf_transport_keyword(transport, d->defname) == NULL)
			continue;
		if (strcmp(d->defname, "application_name") == 0)
		{
			appname = defGetString(d);
			continue;
		}
		*keys = lappend(*keys, d->defname);
		*values = lappend(*values, defGetString(d));
	}

	/* with its escapes expanded, and multi_fdw.application_name first */
	if (mf_transport_keyword(transport, "application_name") != NULL)
	{
		char	   *v = mf_application_name_for(appname);

		if (v != NULL)
		{
			*keys = lappend(*keys, "application_name");
			*values = lappend(*values, v);
		}
	}
	*keys = lappend(*keys, "client_encoding");
	*values = lappend(*values, (char *) GetDatabaseEncodingName());
}

/*
 * Has a superuser declared that the remote checks every login's password?
 * (the option can only be true if a superuser set it)
 */
bool
mf_remote_requires_password(ForeignServer *server)
{
	return mf_option_flag(server->options, "remote_requires_password", false);
}

bool
mf_password_required(UserMapping *user)
{
	return mf_option_flag(user->options, "password_required", true);
}
