/*-------------------------------------------------------------------------
 *
 * registry.c
 *		The dialects and transports multi_fdw knows, by name.
 *
 * A server names a dialect and (optionally) a transport.  A transport that
 * carries any dialect (ODBC) can take any of them; each native library
 * speaks its own dialect only.
 *
 * The dialects sit above this layer (they write SQL with deparse/'s
 * pieces): the handler registers them as the library loads
 * (mf_register_dialect from _PG_init), so that nothing here refers to
 * them.  The transports sit below and are named here directly.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "remote/remote.h"

#define MF_MAX_DIALECTS 8

/* in the order registered, which is the order lists name them in */
static const MfDialect *mf_dialects[MF_MAX_DIALECTS];
static int	mf_ndialects = 0;

/*
 * Every transport multi_fdw knows, built in or not: a build may leave out
 * the ones whose client library it lacks (make WITH_MYSQL=no,
 * WITH_ODBC=no), and a server naming one of those is told so.
 */
typedef struct MfTransportEntry
{
	const char *name;
	const MfTransport *transport;	/* NULL: not built */
	const char *make_flag;		/* what left it out */
} MfTransportEntry;

static const MfTransportEntry mf_transports[] = {
	{"libpq", &mf_transport_libpq, NULL},
#ifdef MF_WITH_MYSQL
	{"mysql", &mf_transport_mysql, NULL},
#else
	{"mysql", NULL, "WITH_MYSQL=no"},
#endif
#ifdef MF_WITH_ODBC
	{"odbc", &mf_transport_odbc, NULL},
#else
	{"odbc", NULL, "WITH_ODBC=no"},
#endif
};

/* Catch a routine table with a required member missing at first use. */
static void
mf_dialect_check(const MfDialect *d)
{
	Assert(d->name && d->default_transport);
	Assert(d->quote_ident && d->quote_literal);
	Assert(d->deparse_insert && d->deparse_limit);
	Assert(d->savepoint_fmt && d->rollback_to_savepoint_fmt);
	Assert(d->type_shippable && d->operator_shippable);
	Assert(d->import_query && d->map_type && d->default_importable);
	(void) d;
}

static void
mf_transport_check(const MfTransport *t)
{
	Assert(t->name && t->connect && t->disconnect && t->is_broken);
	Assert(t->exec && t->begin && t->commit && t->rollback);
	Assert(t->prepare && t->execute && t->stmt_close);
	Assert(t->query && t->fetch && t->ncolumns && t->value && t->result_close);
	Assert(t->cancel && t->forget_all);
	Assert(t->keywords);
	Assert(t->markers == MF_MARKERS_NUMBERED ||
		   t->markers == MF_MARKERS_POSITIONAL);
	(void) t;
}

/*
 * A dialect the handler knows; at library load only.  Once is enough: a
 * load whose _PG_init failed half-way runs it again.
 */
void
mf_register_dialect(const MfDialect *dialect)
{
	for (int i = 0; i < mf_ndialects; i++)
		if (mf_dialects[i] == dialect)
			return;
	if (mf_ndialects >= MF_MAX_DIALECTS)
		elog(ERROR, "too many multi_fdw dialects");
	mf_dialects[mf_ndialects++] = dialect;
}

const MfDialect *
mf_find_dialect(const char *name)
{
	for (int i = 0; i < mf_ndialects; i++)
	{
		if (strcmp(mf_dialects[i]->name, name) == 0)
		{
			mf_dialect_check(mf_dialects[i]);
			return mf_dialects[i];
		}
	}
	return NULL;
}

/*
 * The transport of that name; NULL when there is none.  One that this
 * build left out is an error.
 */
const MfTransport *
mf_find_transport(const char *name)
{
	for (size_t i = 0; i < lengthof(mf_transports); i++)
	{
		const MfTransportEntry *e = &mf_transports[i];

		if (strcmp(e->name, name) != 0)
			continue;
		if (e->transport == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("transport \"%s\" is not built into this multi_fdw",
							name),
					 errdetail("multi_fdw was built with %s.", e->make_flag),
					 errhint("Build it with the transport's client library installed and without %s.",
							 e->make_flag)));
		mf_transport_check(e->transport);
		return e->transport;
	}
	return NULL;
}

/* The i-th transport built in, from 0; NULL past the last. */
const MfTransport *
mf_transport_at(int i)
{
	for (size_t k = 0; k < lengthof(mf_transports); k++)
	{
		if (mf_transports[k].transport == NULL)
			continue;
		if (i-- == 0)
			return mf_transports[k].transport;
	}
	return NULL;
}

/* That transport's keyword of that name, NULL if it takes no such keyword. */
const MfConnKeyword *
mf_transport_keyword(const MfTransport *transport, const char *name)
{
	for (const MfConnKeyword *kw = transport->keywords; kw->name; kw++)
		if (strcmp(kw->name, name) == 0)
			return kw;
	return NULL;
}

bool
mf_transport_allowed(const MfDialect *dialect, const MfTransport *transport)
{
	if (transport->carries_any_dialect)
		return true;
	return strcmp(dialect->default_transport, transport->name) == 0;
}

/* The first transport built in that carries any dialect; NULL if none. */
const MfTransport *
mf_transport_carrier(void)
{
	const MfTransport *t;

	for (int i = 0; (t = mf_transport_at(i)) != NULL; i++)
		if (t->carries_any_dialect)
			return t;
	return NULL;
}

static const char *
mf_name_list(const char *const *names, int n)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < n; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "", names[i]);
	return buf.data;
}

const char *
mf_dialect_list(void)
{
	const char *names[MF_MAX_DIALECTS];

	for (int i = 0; i < mf_ndialects; i++)
		names[i] = mf_dialects[i]->name;
	return mf_name_list(names, mf_ndialects);
}

const char *
mf_transport_list(void)
{
	const char *names[lengthof(mf_transports)];
	int			n = 0;
	const MfTransport *t;

	while ((t = mf_transport_at(n)) != NULL)
		names[n++] = t->name;
	return mf_name_list(names, n);
}

/*
 * Bind parameters one statement may carry, 0 for no limit: the dialect's,
 * or fewer where the client library takes fewer (the odbc transport: 7,498).
 */
int
mf_max_params(const MfDialect *dialect, const MfTransport *transport)
{
	int			max_params = dialect->max_params;

	if (transport != NULL && transport->max_params > 0 &&
		(max_params <= 0 || transport->max_params < max_params))
		max_params = transport->max_params;
	return Max(max_params, 0);
}
