/*-------------------------------------------------------------------------
 *
 * run_as.c
 *		Running catalog queries and SQL on someone else's behalf: as the
 *		owner of the extension's tables, or as a superuser (the resolver
 *		worker, the in-doubt functions), never with the caller's names.
 *
 * What the caller controls must not reach code that runs with more rights
 * than the caller's (the CVE-2018-1058 class): the search_path is pinned to
 * "pg_catalog, pg_temp" for as long as the switch lasts, and a change of
 * role is a SECURITY_RESTRICTED_OPERATION, as PostgreSQL's own maintenance
 * commands run a table owner's code.  Every statement run inside still
 * names its relations, functions and operators with their schema: the
 * pinned path is the second wall, not the first.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/guc.h"

#include "remote/remote.h"

/*
 * Begin: as role (InvalidOid: stay the current user, but with the pinned
 * path).  The switch ends with mf_run_as_end, or with the (sub)transaction
 * when an error escapes: PostgreSQL restores the user and the GUC level.
 */
void
mf_run_as_begin(MfRunAs *ra, Oid role)
{
	int			sec;

	GetUserIdAndSecContext(&ra->save_userid, &ra->save_sec);
	sec = ra->save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION;
	if (OidIsValid(role))
		SetUserIdAndSecContext(role, sec);	/* SECURITY_RESTRICTED_OPERATION */
	ra->nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
}

void
mf_run_as_end(MfRunAs *ra)
{
	AtEOXact_GUC(false, ra->nestlevel);
	/* back to the caller's own context (no SECURITY_RESTRICTED_OPERATION to add) */
	SetUserIdAndSecContext(ra->save_userid, ra->save_sec);
}
