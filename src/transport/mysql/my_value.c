/*-------------------------------------------------------------------------
 *
 * my_value.c
 *		The mysql transport's result columns: how each is bound for a
 *		fetch, and the conversion of its values to PostgreSQL's text form.
 *
 * Part of the mysql transport (see my_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only Connector/C's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MfmyColKind
mfmy_col_kind(const MYSQL_FIELD *f)
{
	switch (f->type)
	{
		case MYSQL_TYPE_TINY:
		case MYSQL_TYPE_SHORT:
		case MYSQL_TYPE_INT24:
		case MYSQL_TYPE_LONG:
		case MYSQL_TYPE_LONGLONG:
		case MYSQL_TYPE_YEAR:
			return (f->flags & UNSIGNED_FLAG) ? MFMY_COL_UINT : MFMY_COL_INT;
		case MYSQL_TYPE_FLOAT:
			return MFMY_COL_FLOAT;
		case MYSQL_TYPE_DOUBLE:
			return MFMY_COL_DOUBLE;
		case MYSQL_TYPE_DATE:
		case MYSQL_TYPE_NEWDATE:
			return MFMY_COL_DATE;
		case MYSQL_TYPE_DATETIME:
		case MYSQL_TYPE_TIMESTAMP:
		case MYSQL_TYPE_DATETIME2:
		case MYSQL_TYPE_TIMESTAMP2:
			return MFMY_COL_DATETIME;
		case MYSQL_TYPE_TIME:
		case MYSQL_TYPE_TIME2:
			return MFMY_COL_TIME;
		case MYSQL_TYPE_BIT:
			return MFMY_COL_BIT;
		case MYSQL_TYPE_STRING:
		case MYSQL_TYPE_VAR_STRING:
		case MYSQL_TYPE_VARCHAR:
		case MYSQL_TYPE_TINY_BLOB:
		case MYSQL_TYPE_MEDIUM_BLOB:
		case MYSQL_TYPE_LONG_BLOB:
		case MYSQL_TYPE_BLOB:
		case MYSQL_TYPE_GEOMETRY:
			/* charset 63 is "binary": bytes, not characters */
			if (f->charsetnr == 63 && !(f->flags & (ENUM_FLAG | SET_FLAG)))
				return MFMY_COL_BYTES;
			return MFMY_COL_TEXT;
		default:
			/* DECIMAL, JSON, ENUM, SET, NULL: their text is what we want */
			return MFMY_COL_TEXT;
	}
}

/* The columns' buffers and names, and the columns themselves. */
void
mfmy_free_columns(MfResult *res)
{
	if (res->cols)
		for (int c = 0; c < res->ncols; c++)
		{
			free(res->cols[c].buf);
			free(res->cols[c].name);
		}
	free(res->cols);
	res->cols = NULL;
}

/* Bind the result columns; ncols and cols set up from the metadata. */
bool
mfmy_bind_columns(MfResult *res, MfError *err)
{
	MYSQL_RES  *meta = mysql_stmt_result_metadata(res->st);
	MYSQL_FIELD *fields;
	int			n;

	if (meta == NULL)
	{
		if (mysql_stmt_errno(res->st) != 0)
			mfmy_stmt_error(res->conn, res->st, MF_STEP_FETCH, err);
		else
			mfmy_fail(res->conn, err, MF_STEP_FETCH, "42804",
					  "the remote statement returns no columns");
		return false;
	}
	n = (int) mysql_num_fields(meta);
	fields = mysql_fetch_fields(meta);
	res->ncols = n;
	res->cols = calloc(n > 0 ? n : 1, sizeof(MfmyCol));
	res->bind = calloc(n > 0 ? n : 1, sizeof(MYSQL_BIND));
	if (res->cols == NULL || res->bind == NULL)
	{
		mysql_free_result(meta);
		mfmy_oom(res->conn, MF_STEP_FETCH, err);
		return false;
	}

	for (int c = 0; c < n; c++)
	{
		MfmyCol    *col = &res->cols[c];
		MYSQL_BIND *b = &res->bind[c];

		col->kind = mfmy_col_kind(&fields[c]);
		col->bits = fields[c].length;
		col->name = strdup(fields[c].name);
		b->length = &col->length;
		b->is_null = &col->is_null;
		b->error = &col->error;
		switch (col->kind)
		{
			case MFMY_COL_INT:
			case MFMY_COL_UINT:
				b->buffer_type = MYSQL_TYPE_LONGLONG;
				b->buffer = &col->num.i;
				b->is_unsigned = (col->kind == MFMY_COL_UINT);
				break;
			case MFMY_COL_FLOAT:
				b->buffer_type = MYSQL_TYPE_FLOAT;
				b->buffer = &col->num.f;
				break;
			case MFMY_COL_DOUBLE:
				b->buffer_type = MYSQL_TYPE_DOUBLE;
				b->buffer = &col->num.d;
				break;
			case MFMY_COL_DATE:
				b->buffer_type = MYSQL_TYPE_DATE;
				b->buffer = &col->num.t;
				break;
			case MFMY_COL_DATETIME:
				b->buffer_type = MYSQL_TYPE_DATETIME;
				b->buffer = &col->num.t;
				break;
			case MFMY_COL_TIME:
				b->buffer_type = MYSQL_TYPE_TIME;
				b->buffer = &col->num.t;
				break;
			case MFMY_COL_TEXT:
			case MFMY_COL_BYTES:
			case MFMY_COL_BIT:
				col->cap = fields[c].length + 1;
				if (col->cap < 16)
					col->cap = 16;
				if (col->cap > MFMY_STRING_START)
					col->cap = MFMY_STRING_START;
				col->buf = malloc(col->cap);
				if (col->buf == NULL)
				{
					mysql_free_result(meta);
					mfmy_oom(res->conn, MF_STEP_FETCH, err);
					return false;
				}
				b->buffer_type = col->kind == MFMY_COL_TEXT ?
					MYSQL_TYPE_STRING : MYSQL_TYPE_BLOB;
				b->buffer = col->buf;
				b->buffer_length = col->cap;
				break;
		}
	}
	mysql_free_result(meta);

	if (mysql_stmt_bind_result(res->st, res->bind))
	{
		mfmy_stmt_error(res->conn, res->st, MF_STEP_FETCH, err);
		return false;
	}
	return true;
}

static bool
mfmy_arena_printf(MfResult *res, size_t *off, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

static bool
mfmy_arena_printf(MfResult *res, size_t *off, const char *fmt,...)
{
	va_list		ap;
	int			n;

	if (!mf_rows_reserve_text(&res->rows, 128))
		return false;
	va_start(ap, fmt);
	n = vsnprintf(res->rows.text + res->rows.text_len, 128, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= 128)
		return false;
	*off = res->rows.text_len;
	res->rows.text_len += (size_t) n + 1;
	return true;
}

/*
 * A date-time as PostgreSQL reads it.  The session's time zone is UTC, so
 * DATETIME and TIMESTAMP values alike are marked +00: a local timestamptz
 * reads the instant that was written (the core writes timestamptz in UTC),
 * and a local timestamp ignores the offset.
 */
static bool
mfmy_store_time(MfResult *res, MfmyCol *col, size_t *off)
{
	const MYSQL_TIME *t = &col->num.t;
	MfDateTime	dt = {(int) t->year, (int) t->month, (int) t->day,
	(int) t->hour, (int) t->minute, (int) t->second,
	t->second_part * 1000};
	char		v[64];
	char		frac[16] = "";

	switch (col->kind)
	{
		case MFMY_COL_DATE:
			mf_format_date(v, sizeof(v), &dt);
			return mfmy_arena_printf(res, off, "%s", v);
		case MFMY_COL_DATETIME:
			mf_format_timestamp_utc(v, sizeof(v), &dt, false);
			return mfmy_arena_printf(res, off, "%s", v);
		default:
			if (t->second_part > 0)
				snprintf(frac, sizeof(frac), ".%06lu", t->second_part);
			return mfmy_arena_printf(res, off, "%s%02u:%02u:%02u%s",
										t->neg ? "-" : "",
										t->day * 24 + t->hour,
										t->minute, t->second, frac);
	}
}

/* bytes as bytea's hex form */
bool
mfmy_store_hex(MfResult *res, const unsigned char *data, size_t len,
				  size_t *off)
{
	char	   *p;

	if (!mf_rows_reserve_text(&res->rows, 2 * len + 3))
		return false;
	p = res->rows.text + res->rows.text_len;
	*off = res->rows.text_len;
	*p++ = '\\';
	*p++ = 'x';
	mf_hex_encode(p, data, len);
	p[2 * len] = '\0';
	res->rows.text_len += 2 * len + 3;
	return true;
}

/*
 * A BIT(n) value as n binary digits, which is how PostgreSQL's bit varying
 * reads it (and boolean reads BIT(1)'s 0 or 1).
 */
bool
mfmy_store_bits(MfResult *res, const unsigned char *data, size_t len,
				   unsigned long width, size_t *off)
{
	char	   *p;

	if (width == 0 || width > 64)
		width = 64;
	if (!mf_rows_reserve_text(&res->rows, width + 1))
		return false;
	p = res->rows.text + res->rows.text_len;
	*off = res->rows.text_len;
	for (unsigned long i = 0; i < width; i++)
	{
		unsigned long bit = width - 1 - i;	/* from the most significant */
		size_t		byte = bit / 8;
		int			v = 0;

		/* data is big-endian: its last byte holds bits 0..7 */
		if (byte < len)
			v = (data[len - 1 - byte] >> (bit % 8)) & 1;
		p[i] = v ? '1' : '0';
	}
	p[width] = '\0';
	res->rows.text_len += width + 1;
	return true;
}

/* A string value longer than the column's buffer: fetched apart. */
static bool
mfmy_fetch_long(MfResult *res, int c, MfError *err)
{
	MfConn	   *conn = res->conn;
	MfmyCol    *col = &res->cols[c];
	unsigned long len = col->length;
	MYSQL_BIND	b;

	if (conn->scratch_cap < (unsigned long) len + 1)
	{
		char	   *p = realloc(conn->scratch, (size_t) len + 1);

		if (p == NULL)
		{
			mfmy_oom(conn, MF_STEP_FETCH, err);
			return false;
		}
		conn->scratch = p;
		conn->scratch_cap = len + 1;
	}
	memset(&b, 0, sizeof(b));
	b.buffer_type = res->bind[c].buffer_type;
	b.buffer = conn->scratch;
	b.buffer_length = len + 1;
	b.length = &col->length;
	b.is_null = &col->is_null;
	if (mysql_stmt_fetch_column(res->st, &b, (unsigned int) c, 0))
	{
		mfmy_stmt_error(conn, res->st, MF_STEP_FETCH, err);
		return false;
	}
	col->length = len;
	return true;
}

/*
 * Make the column's buffer big enough for values like this one, up to a
 * limit: later rows then come in without a second request.
 */
static void
mfmy_grow_column(MfResult *res, int c, unsigned long len)
{
	MfmyCol    *col = &res->cols[c];
	unsigned long cap = col->cap;
	char	   *p;

	while (cap < len + 1 && cap < MFMY_STRING_KEEP)
		cap *= 2;
	if (cap > MFMY_STRING_KEEP)
		cap = MFMY_STRING_KEEP;
	if (cap <= col->cap)
		return;
	p = realloc(col->buf, cap);
	if (p == NULL)
		return;
	col->buf = p;
	col->cap = cap;
	res->bind[c].buffer = p;
	res->bind[c].buffer_length = cap;
}

/* One column of the row just fetched, as text in the arena. */
bool
mfmy_store_value(MfResult *res, int c, size_t *off, bool *rebind,
					MfError *err)
{
	MfmyCol    *col = &res->cols[c];
	const unsigned char *data;
	size_t		len;
	bool		ok = true;

	*off = MF_ROWS_NULL;
	if (col->is_null)
		return true;

	switch (col->kind)
	{
		case MFMY_COL_INT:
			ok = mfmy_arena_printf(res, off, "%lld", col->num.i);
			break;
		case MFMY_COL_UINT:
			ok = mfmy_arena_printf(res, off, "%llu",
									  (unsigned long long) col->num.i);
			break;
		case MFMY_COL_FLOAT:
			/* enough digits to read back the same float */
			ok = mfmy_arena_printf(res, off, "%.9g", (double) col->num.f);
			break;
		case MFMY_COL_DOUBLE:
			ok = mfmy_arena_printf(res, off, "%.17g", col->num.d);
			break;
		case MFMY_COL_DATE:
		case MFMY_COL_DATETIME:
			/*
			 * A zero date, or one with a zero part, is no date at all: NULL,
			 * or an error when the server says zero_date 'error'.
			 */
			if (col->num.t.month == 0 || col->num.t.day == 0)
			{
				if (!res->conn->info.zero_date_error)
					return true;
				mf_error_set(err, MF_STEP_FETCH, "22008", 0,
							 "zero date %04u-%02u-%02u in column %d has no PostgreSQL value",
							 col->num.t.year, col->num.t.month, col->num.t.day,
							 c + 1);
				mf_error_copy(err->hint, sizeof(err->hint),
							  "Read it as NULL with the server option zero_date 'null'.");
				return false;
			}
			ok = mfmy_store_time(res, col, off);
			break;
		case MFMY_COL_TIME:
			ok = mfmy_store_time(res, col, off);
			break;
		case MFMY_COL_TEXT:
		case MFMY_COL_BYTES:
		case MFMY_COL_BIT:
			data = (const unsigned char *) col->buf;
			len = col->length;
			if (col->error || len > col->cap)
			{
				if (!mfmy_fetch_long(res, c, err))
					return false;
				data = (const unsigned char *) res->conn->scratch;
				mfmy_grow_column(res, c, col->length);
				*rebind = true;
			}
			if (col->kind == MFMY_COL_BYTES)
				ok = mfmy_store_hex(res, data, len, off);
			else if (col->kind == MFMY_COL_BIT)
				ok = mfmy_store_bits(res, data, len, col->bits, off);
			else if (!mf_text_without_nul((const char *) data, len, c, err))
				return false;
			else if ((ok = mf_rows_reserve_text(&res->rows, len + 1)))
			{
				*off = res->rows.text_len;
				memcpy(res->rows.text + res->rows.text_len, data, len);
				res->rows.text[res->rows.text_len + len] = '\0';
				res->rows.text_len += len + 1;
			}
			break;
	}
	if (!ok)
		mfmy_oom(res->conn, MF_STEP_FETCH, err);
	return ok;
}
