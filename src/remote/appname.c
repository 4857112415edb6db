/*-------------------------------------------------------------------------
 *
 * appname.c
 *		The application_name a remote session shows, as postgres_fdw 15
 *		sends it.
 *
 * The multi_fdw.application_name setting wins over the server's
 * application_name option.  Either may hold escapes that name this
 * session, so that a remote DBA can find the gateway backend behind a
 * remote one: %a the local application_name, %c the session ID (as
 * log_line_prefix's %c), %C cluster_name, %d the database, %p the
 * process ID, %u the user, %% a percent sign.  Other escapes are dropped.
 * A value that comes out empty gives way to the next one, and in the end
 * to the transport's fallback ("multi_fdw").
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "utils/guc.h"

#include "remote/remote.h"

static char *mf_application_name = NULL;

void
mf_appname_init(void)
{
	DefineCustomStringVariable("multi_fdw.application_name",
							   "The application_name of remote sessions, with escapes for this session.",
							   "Overrides the server option application_name; %a, %c, %C, %d, %p and %u are replaced.",
							   &mf_application_name,
							   NULL,
							   PGC_USERSET,
							   0,
							   NULL, NULL, NULL);
	MarkGUCPrefixReserved("multi_fdw");
}

char *
mf_expand_application_name(const char *fmt)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (const char *p = fmt; *p != '\0'; p++)
	{
		if (*p != '%')
		{
			appendStringInfoChar(&buf, *p);
			continue;
		}
		p++;
		switch (*p)
		{
			case '\0':
				return buf.data;
			case '%':
				appendStringInfoChar(&buf, '%');
				break;
			case 'a':
				appendStringInfoString(&buf, application_name);
				break;
			case 'c':
				appendStringInfo(&buf, "%lx.%x", (long) MyStartTime, MyProcPid);
				break;
			case 'C':
				appendStringInfoString(&buf, cluster_name);
				break;
			case 'd':
				appendStringInfoString(&buf, get_database_name(MyDatabaseId));
				break;
			case 'p':
				appendStringInfo(&buf, "%d", MyProcPid);
				break;
			case 'u':
				/* the login's user, as the connection's port names it */
				appendStringInfoString(&buf,
									   GetUserNameFromId(GetAuthenticatedUserId(),
														 false));
				break;
			default:
				break;
		}
	}
	return buf.data;
}

/*
 * The application_name to send, given the server's option (NULL: none);
 * NULL when neither gives a non-empty one.
 */
char *
mf_application_name_for(const char *option)
{
	const char *candidates[] = {mf_application_name, option};

	for (size_t i = 0; i < lengthof(candidates); i++)
	{
		char	   *v;

		if (candidates[i] == NULL || candidates[i][0] == '\0')
			continue;
		v = mf_expand_application_name(candidates[i]);
		if (v[0] != '\0')
			return v;
	}
	return NULL;
}
