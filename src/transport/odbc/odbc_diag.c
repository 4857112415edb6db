/*-------------------------------------------------------------------------
 *
 * odbc_diag.c
 *		The odbc transport's text and errors: UTF-8 to UTF-16 and back,
 *		and the driver's diagnostics as an MfError.
 *
 * Part of the odbc transport (see odbc_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only unixODBC's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "odbc_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------
 * UTF-8 and UTF-16
 * ---------------------------------------------------------------------
 */

/* UTF-8 (len bytes, or up to NUL when len < 0) to a malloc'd UTF-16 string */
SQLWCHAR *
mfodbc_to_wide(const char *s, long len, SQLLEN *outlen)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		n = len < 0 ? strlen(s) : (size_t) len;
	SQLWCHAR   *w = malloc((n + 1) * sizeof(SQLWCHAR));
	size_t		o = 0;
	size_t		i = 0;

	if (w == NULL)
		return NULL;
	while (i < n)
	{
		uint32_t	c = p[i];
		int			extra = 0;

		if (c < 0x80)
			extra = 0;
		else if ((c & 0xE0) == 0xC0)
		{
			c &= 0x1F;
			extra = 1;
		}
		else if ((c & 0xF0) == 0xE0)
		{
			c &= 0x0F;
			extra = 2;
		}
		else if ((c & 0xF8) == 0xF0)
		{
			c &= 0x07;
			extra = 3;
		}
		else
		{
			c = 0xFFFD;
			extra = -1;
		}
		i++;
		for (int k = 0; k < extra; k++)
		{
			if (i >= n || (p[i] & 0xC0) != 0x80)
			{
				c = 0xFFFD;
				break;
			}
			c = (c << 6) | (p[i] & 0x3F);
			i++;
		}
		if (c >= 0x10000)
		{
			c -= 0x10000;
			w[o++] = (SQLWCHAR) (0xD800 + (c >> 10));
			w[o++] = (SQLWCHAR) (0xDC00 + (c & 0x3FF));
		}
		else
			w[o++] = (SQLWCHAR) c;
	}
	w[o] = 0;
	if (outlen)
		*outlen = (SQLLEN) o;
	return w;
}

/*
 * UTF-16 (n units) to UTF-8 in dst, which has room for 3 * n + 1 bytes;
 * returns the bytes written (NUL-terminated).
 */
size_t
mfodbc_from_wide(const SQLWCHAR *w, size_t n, char *dst)
{
	size_t		o = 0;

	for (size_t i = 0; i < n; i++)
	{
		uint32_t	c = w[i];

		if (c >= 0xD800 && c < 0xDC00 && i + 1 < n &&
			w[i + 1] >= 0xDC00 && w[i + 1] < 0xE000)
		{
			c = 0x10000 + ((c - 0xD800) << 10) + (w[i + 1] - 0xDC00);
			i++;
		}
		else if (c >= 0xD800 && c < 0xE000)
			c = 0xFFFD;
		if (c < 0x80)
			dst[o++] = (char) c;
		else if (c < 0x800)
		{
			dst[o++] = (char) (0xC0 | (c >> 6));
			dst[o++] = (char) (0x80 | (c & 0x3F));
		}
		else if (c < 0x10000)
		{
			dst[o++] = (char) (0xE0 | (c >> 12));
			dst[o++] = (char) (0x80 | ((c >> 6) & 0x3F));
			dst[o++] = (char) (0x80 | (c & 0x3F));
		}
		else
		{
			dst[o++] = (char) (0xF0 | (c >> 18));
			dst[o++] = (char) (0x80 | ((c >> 12) & 0x3F));
			dst[o++] = (char) (0x80 | ((c >> 6) & 0x3F));
			dst[o++] = (char) (0x80 | (c & 0x3F));
		}
	}
	dst[o] = '\0';
	return o;
}

/* ---------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------
 */

static bool
mfodbc_lost_state(const char *state)
{
	return strncmp(state, "08", 2) == 0 || strcmp(state, "HYT01") == 0;
}

/* Drop the "[vendor][driver]" prefixes drivers put before their message. */
static const char *
mfodbc_strip_prefixes(const char *m)
{
	while (*m == '[')
	{
		const char *close = strchr(m, ']');

		if (close == NULL)
			break;
		m = close + 1;
	}
	while (*m == ' ')
		m++;
	return m;
}

/*
 * psqlODBC hands on the server's report as one text: "ERROR:  message",
 * then "DETAIL:  ..." and "HINT:  ..." lines, then ";\n" and a line of its
 * own ("Error while executing the query", "The connection has been lost").
 * Put each part where it belongs.
 */
static void
mfodbc_split_psqlodbc(MfError *err)
{
	char		buf[MF_ERR_MESSAGE_LEN];
	char	   *m = buf;
	char	   *p;
	static const char *const levels[] = {"ERROR:", "FATAL:", "PANIC:",
	"WARNING:", "NOTICE:", "INFO:", NULL};

	mf_error_copy(buf, sizeof(buf), err->message);
	if ((p = strstr(m, ";\n")) != NULL)
		*p = '\0';
	for (int i = 0; levels[i]; i++)
		if (strncmp(m, levels[i], strlen(levels[i])) == 0)
		{
			m += strlen(levels[i]);
			while (*m == ' ')
				m++;
			break;
		}
	if ((p = strstr(m, "\nHINT:")) != NULL)
	{
		const char *h = p + 6;

		while (*h == ' ')
			h++;
		mf_error_copy(err->hint, sizeof(err->hint), h);
		*p = '\0';
	}
	if ((p = strstr(m, "\nDETAIL:")) != NULL)
	{
		const char *d = p + 8;

		while (*d == ' ')
			d++;
		mf_error_copy(err->detail, sizeof(err->detail), d);
		*p = '\0';
	}
	/* the hint and detail lines carry their own line breaks */
	for (char *c = err->hint + strlen(err->hint); c > err->hint && c[-1] == '\n';)
		*--c = '\0';
	for (char *c = err->detail + strlen(err->detail); c > err->detail && c[-1] == '\n';)
		*--c = '\0';
	p = m + strlen(m);
	while (p > m && p[-1] == '\n')
		*--p = '\0';
	mf_error_copy(err->message, sizeof(err->message), m);
}

void
mfodbc_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
			const char *message)
{
	mf_error_fail(err, step, sqlstate, conn != NULL && conn->broken, message);
}

void
mfodbc_oom(MfConn *conn, MfStep step, MfError *err)
{
	mfodbc_fail(conn, err, step, "53200", "out of memory");
}

/*
 * Fill err from the diagnostic records of a handle: the first record gives
 * SQLSTATE, native code and message; later ones go to the detail.
 */
void
mfodbc_diag(MfConn *conn, SQLSMALLINT htype, SQLHANDLE h, MfStep step,
			MfError *err)
{
	SQLWCHAR	wstate[6];
	SQLWCHAR	wmsg[1024];
	SQLINTEGER	native = 0;
	SQLSMALLINT len = 0;
	char		state[6] = "";
	char		msg[3 * 1024 + 1];
	char		detail[MF_ERR_TEXT_LEN] = "";
	char		lost_state[6] = "";
	char		lost_msg[MF_ERR_TEXT_LEN] = "";
	bool		lost = false;
	bool		found = false;

	mf_error_clear(err);
	for (SQLSMALLINT rec = 1; rec <= 5; rec++)
	{
		SQLINTEGER	nat = 0;
		char		st[6];
		SQLRETURN	rc;

		len = 0;
		rc = SQLGetDiagRecW(htype, h, rec, wstate, &nat, wmsg,
							(SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)), &len);
		if (!SQL_SUCCEEDED(rc))
			break;
		if (len < 0)
			len = 0;
		if (len >= (SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)))
			len = (SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)) - 1;
		for (int i = 0; i < 5; i++)
			st[i] = (char) (wstate[i] < 0x80 ? wstate[i] : '?');
		st[5] = '\0';
		mfodbc_from_wide(wmsg, (size_t) len, msg);
		if (mfodbc_lost_state(st) && !lost)
		{
			lost = true;
			memcpy(lost_state, st, 6);
			mf_error_copy(lost_msg, sizeof(lost_msg), mfodbc_strip_prefixes(msg));
		}
		if (!found)
		{
			/*
			 * The first record that is not a mere warning is the error;
			 * drivers put warnings (01xxx) first at times.
			 */
			memcpy(state, st, 6);
			native = nat;
			mf_error_copy(err->message, sizeof(err->message),
						  mfodbc_strip_prefixes(msg));
			found = strncmp(st, "01", 2) != 0;
		}
		else if (strncmp(st, "01", 2) != 0 && detail[0] == '\0')
			mf_error_copy(detail, sizeof(detail), mfodbc_strip_prefixes(msg));
	}
	if (state[0] == '\0')
	{
		memcpy(state, lost ? "08006" : "XX000", 6);
		mf_error_copy(err->message, sizeof(err->message),
					  "the ODBC driver failed without a diagnostic record");
	}

	/*
	 * A lost link may hide behind a first record from the driver that is
	 * about something else (one from the server, with its number, stays
	 * the error): the lost link is the error, the first record the detail.
	 */
	if (lost && lost_state[0] != '\0' && !mfodbc_lost_state(state) &&
		conn != NULL && native == 0)
	{
		mf_error_copy(detail, sizeof(detail), err->message);
		mf_error_copy(err->message, sizeof(err->message), lost_msg);
		memcpy(state, lost_state, 6);
		native = 0;
	}
	else if (!lost && conn != NULL && conn->connected && htype != SQL_HANDLE_ENV)
	{
		/* or behind no 08 record at all: ask the driver about the link */
		SQLUINTEGER dead = SQL_CD_FALSE;

		if (SQL_SUCCEEDED(SQLGetConnectAttr(conn->dbc, SQL_ATTR_CONNECTION_DEAD,
											&dead, 0, NULL)) &&
			dead == SQL_CD_TRUE)
		{
			lost = true;
			memcpy(state, "08006", 6);
			native = 0;
		}
	}

	/* psqlODBC's native number is its own, not the server's */
	if (conn != NULL && conn->driver == MFODBC_PSQLODBC)
		native = 0;
	memcpy(err->sqlstate, state, 6);
	err->native_code = native;
	err->step = step;
	if (lost && conn != NULL)
		conn->broken = true;
	err->conn_lost = lost || (conn != NULL && conn->broken);
	if (detail[0] != '\0' && strcmp(detail, err->message) != 0)
		mf_error_copy(err->detail, sizeof(err->detail), detail);
	if (conn != NULL && conn->driver == MFODBC_PSQLODBC)
		mfodbc_split_psqlodbc(err);
}

/*
 * psqlODBC's record of a statement's notices: each "LEVEL: message", its
 * "DETAIL: " line after it, the notices of one statement joined by ';'
 * into one text, without their SQLSTATEs or hints.  Each is relayed on its
 * own, at its level.  (The joins cannot be told from a ';' in a message
 * followed by such a word: the remote may then pass one notice of its own
 * for two, as it could send two.)  false: the core takes no more.
 */
static bool
mfodbc_relay_psqlodbc(MfConn *conn, char *text)
{
	static const char *const starts[] = {";WARNING: ", ";NOTICE: ", ";INFO: ", NULL};
	char	   *p = text;

	while (p != NULL && *p != '\0')
	{
		char	   *next = NULL;
		MfError		parts;
		MfMessage	m;

		/* the next notice's start, if another follows */
		for (int i = 0; starts[i]; i++)
		{
			char	   *q = strstr(p, starts[i]);

			if (q != NULL && (next == NULL || q < next))
				next = q;
		}
		if (next != NULL)
			*next++ = '\0';
		memset(&m, 0, sizeof(m));
		m.level = strncmp(p, "WARNING:", 8) == 0 ? MF_MSG_WARNING :
			strncmp(p, "INFO:", 5) == 0 ? MF_MSG_INFO : MF_MSG_NOTICE;
		mf_error_clear(&parts);
		mf_error_copy(parts.message, sizeof(parts.message), p);
		mfodbc_split_psqlodbc(&parts);
		m.message = parts.message;
		m.detail = parts.detail[0] ? parts.detail : NULL;
		m.hint = parts.hint[0] ? parts.hint : NULL;
		if (!conn->on_message(conn->message_arg, &m))
		{
			/* more were there than the core takes: it says so, once */
			if (next != NULL)
				(void) conn->on_message(conn->message_arg, NULL);
			return false;
		}
		p = next;
	}
	return true;
}

/* one diagnostic record kept for the core (mfodbc_info_take) */
struct MfodbcInfoRec
{
	char		state[6];
	SQLINTEGER	native;
	char	   *msg;
};

/*
 * A statement that succeeded "with info": the server's messages about it
 * (SQL Server's PRINT and RAISERROR up to severity 10, PostgreSQL's
 * NOTICEs and WARNINGs through psqlODBC) are its diagnostic records,
 * copied here at once, before any other call on the handle clears them,
 * and handed to the core by mfodbc_info_give once the handle is settled
 * (the core's relay is PostgreSQL code, which must not run between a call
 * and its bookkeeping).  The driver's own word about a value (01004
 * truncated, 01S07 fractions cut) belongs to a fetch, not to an
 * execution, and is not kept.  psqlODBC hands one text (a statement's
 * notices joined) in pieces, a record each: they are joined again.
 */
void
mfodbc_info_take(MfConn *conn, SQLHSTMT h, SQLRETURN rc, MfodbcInfo *info)
{
	info->n = 0;
	info->recs = NULL;
	if (rc != SQL_SUCCESS_WITH_INFO || conn == NULL || conn->on_message == NULL)
		return;
	for (SQLSMALLINT rec = 1; rec <= MFODBC_INFO_MAX; rec++)
	{
		SQLWCHAR	wstate[6];
		SQLWCHAR	wmsg[1024];
		SQLINTEGER	native = 0;
		SQLSMALLINT len = 0;
		struct MfodbcInfoRec *r;

		if (!SQL_SUCCEEDED(SQLGetDiagRecW(SQL_HANDLE_STMT, h, rec, wstate,
										  &native, wmsg,
										  (SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)),
										  &len)))
			break;
		if (info->recs == NULL &&
			(info->recs = calloc(MFODBC_INFO_MAX, sizeof(*info->recs))) == NULL)
			break;
		r = &info->recs[info->n];
		for (int i = 0; i < 5; i++)
			r->state[i] = (char) (wstate[i] < 0x80 ? wstate[i] : '?');
		r->state[5] = '\0';
		if (strcmp(r->state, "01004") == 0 || strcmp(r->state, "01S07") == 0)
			continue;
		if (len < 0)
			len = 0;
		if (len >= (SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)))
		{
			/* a longer text: read the record again, whole */
			SQLWCHAR   *whole = malloc(((size_t) len + 1) * sizeof(SQLWCHAR));
			SQLSMALLINT len2 = 0;

			if (whole != NULL &&
				SQL_SUCCEEDED(SQLGetDiagRecW(SQL_HANDLE_STMT, h, rec, wstate,
											 &native, whole,
											 (SQLSMALLINT) (len + 1), &len2)) &&
				len2 >= 0 && len2 <= len &&
				(r->msg = malloc(3 * (size_t) len2 + 1)) != NULL)
				mfodbc_from_wide(whole, (size_t) len2, r->msg);
			free(whole);
		}
		else if ((r->msg = malloc(3 * (size_t) len + 1)) != NULL)
			mfodbc_from_wide(wmsg, (size_t) len, r->msg);
		if (r->msg == NULL)
			break;
		r->native = native;
		/* psqlODBC's text comes in pieces of 1,023 characters, a record each */
		if (conn->driver == MFODBC_PSQLODBC && info->n > 0)
		{
			struct MfodbcInfoRec *first = &info->recs[0];
			size_t		had = strlen(first->msg);
			char	   *joined = realloc(first->msg, had + strlen(r->msg) + 1);

			if (joined != NULL)
			{
				strcpy(joined + had, r->msg);
				first->msg = joined;
			}
			free(r->msg);
			r->msg = NULL;
			if (joined == NULL)
				break;
			continue;
		}
		info->n++;
	}
}

/*
 * The records taken, to the core: class 01 a WARNING, the rest a NOTICE,
 * each with its SQLSTATE and the server's native code (psqlODBC's: at the
 * level each names, without a SQLSTATE or number); freed.
 */
void
mfodbc_info_give(MfConn *conn, MfodbcInfo *info)
{
	bool		more = true;

	for (int i = 0; i < info->n; i++)
	{
		struct MfodbcInfoRec *r = &info->recs[i];
		char		detail[64];
		MfMessage	m;

		if (!more)
		{
			/* more were there than the core takes: it says so, once */
			(void) conn->on_message(conn->message_arg, NULL);
			break;
		}
		if (conn->driver == MFODBC_PSQLODBC)
			more = mfodbc_relay_psqlodbc(conn, r->msg);
		else
		{
			memset(&m, 0, sizeof(m));
			m.level = strncmp(r->state, "01", 2) == 0 ? MF_MSG_WARNING : MF_MSG_NOTICE;
			m.sqlstate = r->state;
			m.message = mfodbc_strip_prefixes(r->msg);
			if (r->native != 0)
			{
				snprintf(detail, sizeof(detail), "Remote message code %d.",
						 (int) r->native);
				m.detail = detail;
			}
			more = conn->on_message(conn->message_arg, &m);
		}
	}
	for (int i = 0; i < info->n; i++)
		free(info->recs[i].msg);
	free(info->recs);
	info->n = 0;
	info->recs = NULL;
}

void
mfodbc_stmt_diag(MfConn *conn, SQLHSTMT h, MfStep step, MfError *err)
{
	mfodbc_diag(conn, SQL_HANDLE_STMT, h, step, err);
}

bool
mfodbc_usable(MfConn *conn, MfStep step, MfError *err)
{
	if (conn == NULL || conn->broken || !conn->connected)
	{
		if (conn != NULL)
			conn->broken = true;
		mfodbc_fail(conn, err, step, "08006",
					"connection to the remote server was lost");
		return false;
	}
	return true;
}
