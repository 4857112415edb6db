/*-------------------------------------------------------------------------
 *
 * kit_session.c
 *		What a transport keeps to connect again by itself: a copy of the
 *		connection keywords and of the session's set-up, and the set-up
 *		run on a new session.
 *
 * A transport that sends a transaction's begin with its first request
 * (transport.h's begin) replaces a link found dead under that request, as
 * the core replaces one whose begin failed.  The new session must be what
 * the core made of the first: the same keywords, and the set-up the core
 * ran after connect (MfConnParams' setup and setup_check), run here
 * through the transport's own routines.
 *
 * This file sits on the transport side of the wall (see transport.h): it
 * includes no PostgreSQL header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "transport/kit/kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
mf_kept_dup(const char *s, bool *ok)
{
	char	   *d;

	if (s == NULL)
		return NULL;
	d = strdup(s);
	if (d == NULL)
		*ok = false;
	return d;
}

/* A copy of params, in malloc'd memory; false when out of memory. */
bool
mf_params_keep(MfKeptParams *kept, const MfConnParams *params)
{
	bool		ok = true;

	memset(kept, 0, sizeof(*kept));
	kept->password_only = params->password_only;
	kept->wire = params->wire;
	kept->on_message = params->on_message;
	kept->message_arg = params->message_arg;
	kept->keys = calloc((size_t) params->n + 1, sizeof(char *));
	kept->values = calloc((size_t) params->n + 1, sizeof(char *));
	kept->setup = calloc((size_t) params->nsetup + 1, sizeof(char *));
	if (kept->keys == NULL || kept->values == NULL || kept->setup == NULL)
		ok = false;
	for (int i = 0; ok && i < params->n; i++)
	{
		kept->keys[i] = mf_kept_dup(params->keys[i], &ok);
		kept->values[i] = mf_kept_dup(params->values[i], &ok);
		kept->n = i + 1;
	}
	for (int i = 0; ok && i < params->nsetup; i++)
	{
		kept->setup[i] = mf_kept_dup(params->setup[i], &ok);
		kept->nsetup = i + 1;
	}
	if (ok)
		kept->setup_check = mf_kept_dup(params->setup_check, &ok);
	if (!ok)
		mf_params_free(kept);
	return ok;
}

/* The keywords of a copy, as connect takes them (pointing into kept). */
void
mf_params_view(const MfKeptParams *kept, MfConnParams *params)
{
	memset(params, 0, sizeof(*params));
	params->n = kept->n;
	params->keys = (const char *const *) kept->keys;
	params->values = (const char *const *) kept->values;
	params->password_only = kept->password_only;
	params->wire = kept->wire;
	params->on_message = kept->on_message;
	params->message_arg = kept->message_arg;
	params->nsetup = kept->nsetup;
	params->setup = (const char *const *) kept->setup;
	params->setup_check = kept->setup_check;
}

/* Free a copy; the password is wiped first. */
void
mf_params_free(MfKeptParams *kept)
{
	for (int i = 0; i < kept->n; i++)
	{
		if (kept->values[i] != NULL)
			memset(kept->values[i], 0, strlen(kept->values[i]));
		free(kept->keys[i]);
		free(kept->values[i]);
	}
	for (int i = 0; i < kept->nsetup; i++)
		free(kept->setup[i]);
	free(kept->keys);
	free(kept->values);
	free(kept->setup);
	free(kept->setup_check);
	memset(kept, 0, sizeof(*kept));
}

/*
 * Set a new session up as the core set up the first one: its statements,
 * then its check.  false, err filled, when one failed or the check names
 * something the session lacks.
 */
bool
mf_session_replay(MfConn *conn, const MfTransport *tr,
				  const MfKeptParams *kept, MfError *err)
{
	MfResult   *res;
	const char *missing;
	int			n;

	for (int i = 0; i < kept->nsetup; i++)
		if (!tr->exec(conn, kept->setup[i], NULL, err))
			return false;
	if (kept->setup_check == NULL)
		return true;
	res = tr->query(conn, kept->setup_check, 0, NULL, NULL,
					mf_read(MF_READ_CURSOR, 1), err);
	if (res == NULL)
		return false;
	n = tr->fetch(res, err);
	missing = n > 0 ? tr->value(res, 0, 0) : NULL;
	if (missing != NULL && missing[0] != '\0')
	{
		mf_error_set(err, MF_STEP_CONNECT, "HV024", 0,
					 "the new session leaves out what the dialect relies on: %s",
					 missing);
		n = -1;
	}
	tr->result_close(res);
	return n >= 0;
}

/*
 * A new link under a request that met a dead one could not be made: the
 * error is the request's (why), and what connecting again said is its
 * detail (err holds it on entry).
 */
void
mf_error_relink_failed(MfError *err, const MfError *why)
{
	char		detail[MF_ERR_TEXT_LEN];

	snprintf(detail, sizeof(detail), "Connecting again failed: %s",
			 err->message);
	*err = *why;
	mf_error_copy(err->detail, sizeof(err->detail), detail);
}
