/*-------------------------------------------------------------------------
 *
 * scram_pass.c
 *		SCRAM pass-through (postgres_fdw's use_scram_passthrough, PostgreSQL
 *		18): a session that logged in to the gateway with SCRAM reaches a
 *		remote PostgreSQL with the keys of that login instead of a password
 *		stored in a user mapping.
 *
 * The keys (the ClientKey and ServerKey of the role's SCRAM secret) are
 * handed to libpq (scram_client_key, scram_server_key), which then needs
 * no password; the remote must hold the same secret (the same salt and
 * iteration count) for the role the mapping logs in as, and the
 * connection is made with require_auth=scram-sha-256, so that no other
 * way in is taken.
 *
 * Stricter than postgres_fdw: the keys let whoever receives the exchange
 * log in as the session's role wherever the same secret is used, this
 * gateway included, so they go only
 *	- from the role that logged in, as itself: not inside a SECURITY
 *	  DEFINER function or after SET ROLE, where the mapping used is
 *	  another role's (whose owner would otherwise reach the remote as the
 *	  caller), nor in a security-restricted operation;
 *	- to a server that a superuser or that role owns: the server's owner
 *	  decides where the connection goes.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/defrem.h"
#include "miscadmin.h"
#include "utils/acl.h"
#if PG_VERSION_NUM >= 180000
#include "common/base64.h"
#include "libpq/libpq-be.h"
#endif

#include "remote/remote.h"

/* The option, the server's word first, then the user mapping's. */
bool
mf_use_scram_passthrough(ForeignServer *server, UserMapping *user)
{
	ListCell   *lc;

	foreach(lc, server->options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, "use_scram_passthrough") == 0)
			return defGetBoolean(d);
	}
	foreach(lc, user->options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, "use_scram_passthrough") == 0)
			return defGetBoolean(d);
	}
	return false;
}

#if PG_VERSION_NUM >= 180000
/* A key as libpq takes it: base64, palloc'd. */
static char *
mf_scram_key_text(const uint8 *key, int len)
{
	int			size = pg_b64_enc_len(len);
	char	   *text = palloc0(size + 1);

	if (pg_b64_encode(key, len, text, size) < 0)
		elog(ERROR, "could not encode a SCRAM key");
	return text;
}
#endif

/*
 * For a connection to server through user's mapping: when the option asks
 * for it and the session has keys, they go with the connection's keywords
 * (appended to keys and values, with require_auth): true.  false: the
 * connection is made as it would be without the option (a password in
 * the mapping, or the error that there is none).
 */
bool
mf_scram_passthrough_params(ForeignServer *server, UserMapping *user,
							const MfTransport *transport,
							List **keys, List **values)
{
	if (!mf_use_scram_passthrough(server, user))
		return false;
	if (!transport->scram_passthrough)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("server \"%s\" cannot use SCRAM pass-through",
						server->servername),
				 errdetail("SCRAM pass-through needs transport \"libpq\" in a gateway built for PostgreSQL 18 or later; the server uses transport \"%s\".",
						   transport->name)));
#if PG_VERSION_NUM >= 180000
	if (MyProcPort == NULL || !MyProcPort->has_scram_keys)
		return false;
	if (GetUserId() != GetSessionUserId() || InSecurityRestrictedOperation())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("SCRAM pass-through to server \"%s\" is used only as the role that logged in",
						server->servername),
				 errdetail("The keys are those of role \"%s\"; the current role is \"%s\".",
						   GetUserNameFromId(GetSessionUserId(), false),
						   GetUserNameFromId(GetUserId(), false))));
	if (!superuser_arg(server->owner) && server->owner != GetSessionUserId())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("SCRAM pass-through needs server \"%s\" to be owned by a superuser or by you",
						server->servername),
				 errdetail("Its owner decides where the connection goes, and the keys let whoever receives them log in as you wherever the same password is used.")));
	*keys = lappend(*keys, "scram_client_key");
	*values = lappend(*values,
					  mf_scram_key_text(MyProcPort->scram_ClientKey,
										sizeof(MyProcPort->scram_ClientKey)));
	*keys = lappend(*keys, "scram_server_key");
	*values = lappend(*values,
					  mf_scram_key_text(MyProcPort->scram_ServerKey,
										sizeof(MyProcPort->scram_ServerKey)));
	/* last: it overrides any require_auth of the options */
	*keys = lappend(*keys, "require_auth");
	*values = lappend(*values, "scram-sha-256");
	return true;
#else
	return false;
#endif
}
