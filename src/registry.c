/*-------------------------------------------------------------------------
 *
 * registry.c
 *		The dialects and transports multi_fdw knows, by name.
 *
 * A server names a dialect and (optionally) a transport.  Any dialect can
 * go through ODBC; each native library speaks its own dialect only.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "multi_fdw.h"

static const MfDialect *const mf_dialects[] = {
	&mf_dialect_postgres,
	&mf_dialect_mysql,
	&mf_dialect_sqlserver,
	&mf_dialect_oracle,
};

static const MfTransport *const mf_transports[] = {
	&mf_transport_libpq,
	&mf_transport_mysql,
	&mf_transport_odbc,
};

/* Catch a routine table with a required member missing at first use. */
static void
mf_dialect_check(const MfDialect *d)
{
	Assert(d->name && d->default_transport);
	Assert(d->quote_ident && d->quote_literal && d->placeholder_fmt);
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
	(void) t;
}

const MfDialect *
mf_find_dialect(const char *name)
{
	for (size_t i = 0; i < lengthof(mf_dialects); i++)
	{
		if (strcmp(mf_dialects[i]->name, name) == 0)
		{
			mf_dialect_check(mf_dialects[i]);
			return mf_dialects[i];
		}
	}
	return NULL;
}

const MfTransport *
mf_find_transport(const char *name)
{
	for (size_t i = 0; i < lengthof(mf_transports); i++)
	{
		if (strcmp(mf_transports[i]->name, name) == 0)
		{
			mf_transport_check(mf_transports[i]);
			return mf_transports[i];
		}
	}
	return NULL;
}

bool
mf_transport_allowed(const MfDialect *dialect, const MfTransport *transport)
{
	if (transport == &mf_transport_odbc)
		return true;
	return strcmp(dialect->default_transport, transport->name) == 0;
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
	const char *names[lengthof(mf_dialects)];

	for (size_t i = 0; i < lengthof(mf_dialects); i++)
		names[i] = mf_dialects[i]->name;
	return mf_name_list(names, lengthof(mf_dialects));
}

const char *
mf_transport_list(void)
{
	const char *names[lengthof(mf_transports)];

	for (size_t i = 0; i < lengthof(mf_transports); i++)
		names[i] = mf_transports[i]->name;
	return mf_name_list(names, lengthof(mf_transports));
}
