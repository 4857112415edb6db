/*-------------------------------------------------------------------------
 *
 * kit_error.c
 *		The error record, shared by every transport.
 *
 * This file sits on the transport side of the wall (see transport.h): it
 * includes no PostgreSQL header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "transport/kit/kit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * A truncated message must not end in the middle of a multibyte character:
 * the core hands these strings to ereport, and a dangling lead byte would
 * turn the report itself into an encoding error.  Back up over UTF-8
 * continuation bytes and the lead byte they belong to.
 */
static void
mf_trim_partial_char(char *buf, size_t len)
{
	size_t		end = len;

	while (end > 0 && ((unsigned char) buf[end - 1] & 0xC0) == 0x80)
		end--;
	if (end > 0 && ((unsigned char) buf[end - 1] & 0xC0) == 0xC0)
	{
		unsigned char lead = (unsigned char) buf[end - 1];
		size_t		need;

		if ((lead & 0xE0) == 0xC0)
			need = 2;
		else if ((lead & 0xF0) == 0xE0)
			need = 3;
		else
			need = 4;
		/* the character is whole if all its continuation bytes survived */
		if (len - (end - 1) >= need)
			return;
		buf[end - 1] = '\0';
	}
}

/*
 * Clearing runs before every statement and, on the streaming paths, before
 * every row, so it empties the text buffers by their first byte rather than
 * wiping several kilobytes each time; everything that writes them ends what
 * it wrote with a NUL (mf_error_copy, mf_error_set).
 */
void
mf_error_clear(MfError *err)
{
	err->sqlstate[0] = '\0';
	err->native_code = 0;
	err->step = 0;
	err->conn_lost = false;
	err->row = 0;
	err->message[0] = '\0';
	err->detail[0] = '\0';
	err->hint[0] = '\0';
	err->context[0] = '\0';
}

void
mf_error_set(MfError *err, MfStep step, const char *sqlstate,
			 long native_code, const char *fmt,...)
{
	va_list		ap;
	int			n;

	err->step = step;
	err->native_code = native_code;
	mf_error_copy(err->sqlstate, sizeof(err->sqlstate), sqlstate);

	va_start(ap, fmt);
	n = vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);

	if (n < 0)
		err->message[0] = '\0';
	else if ((size_t) n >= sizeof(err->message))
		mf_trim_partial_char(err->message, sizeof(err->message) - 1);
}

void
mf_error_copy(char *dst, size_t dstlen, const char *src)
{
	size_t		len;

	if (dstlen == 0)
		return;
	if (src == NULL)
	{
		dst[0] = '\0';
		return;
	}

	len = strlen(src);
	if (len < dstlen)
	{
		memcpy(dst, src, len + 1);
		return;
	}
	memcpy(dst, src, dstlen - 1);
	dst[dstlen - 1] = '\0';
	mf_trim_partial_char(dst, dstlen - 1);
}

void
mf_error_fail(MfError *err, MfStep step, const char *sqlstate,
			  bool conn_lost, const char *message)
{
	mf_error_clear(err);
	mf_error_set(err, step, sqlstate, 0, "%s", message);
	err->conn_lost = conn_lost;
}

bool
mf_text_without_nul(const char *text, size_t len, int c, MfError *err)
{
	if (memchr(text, '\0', len) == NULL)
		return true;
	mf_error_text_nul(err, c);
	return false;
}

void
mf_error_text_nul(MfError *err, int c)
{
	mf_error_clear(err);
	mf_error_set(err, MF_STEP_FETCH, "22021", 0,
				 "column %d of the remote row holds a NUL byte, which a PostgreSQL text value cannot hold",
				 c + 1);
	mf_error_copy(err->hint, sizeof(err->hint),
				  "Read the column as bytea, or select it without its NUL bytes (REPLACE(x, CHAR(0), '')).");
}

void
mf_error_spill_limit(MfError *err)
{
	mf_error_clear(err);
	mf_error_set(err, MF_STEP_FETCH, "54000", 0,
				 "more than %zu MB of a remote result would have been read ahead into memory",
				 MF_STREAM_SPILL_MAX / (1024 * 1024));
	mf_error_copy(err->detail, sizeof(err->detail),
				  "Another statement needed the connection before the rest of the result was read; the rest was dropped.");
}
