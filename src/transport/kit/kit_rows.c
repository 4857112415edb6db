/*-------------------------------------------------------------------------
 *
 * kit_rows.c
 *		A batch of rows as their values' texts, one after another in one
 *		buffer, found by offset: how the mysql and odbc transports hold
 *		what a fetch brought until the core has read it.
 *
 * This file sits on the transport side of the wall (see transport.h): it
 * includes no PostgreSQL header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "transport/kit/kit.h"

#include <stdlib.h>
#include <string.h>

/* Room for the offsets of nrows rows of ncols columns in all. */
bool
mf_rows_reserve(MfRows *rows, int nrows, int ncols)
{
	size_t	   *p;

	if (nrows <= rows->rows_cap)
		return true;
	p = realloc(rows->offsets, (size_t) nrows *
				(size_t) (ncols > 0 ? ncols : 1) * sizeof(size_t));
	if (p == NULL)
		return false;
	rows->offsets = p;
	rows->rows_cap = nrows;
	return true;
}

/* Room for len more bytes of text. */
bool
mf_rows_reserve_text(MfRows *rows, size_t len)
{
	size_t		need = rows->text_len + len;

	if (need > rows->text_cap)
	{
		size_t		cap = rows->text_cap ? rows->text_cap : 8192;
		char	   *p;

		while (cap < need)
			cap *= 2;
		p = realloc(rows->text, cap);
		if (p == NULL)
			return false;
		rows->text = p;
		rows->text_cap = cap;
	}
	return true;
}

/* len bytes of s as the next text, NUL-terminated; its offset in *off. */
bool
mf_rows_add_text(MfRows *rows, const char *s, size_t len, size_t *off)
{
	if (!mf_rows_reserve_text(rows, len + 1))
		return false;
	*off = rows->text_len;
	memcpy(rows->text + rows->text_len, s, len);
	rows->text[rows->text_len + len] = '\0';
	rows->text_len += len + 1;
	return true;
}

/* The text of a value (NULL for SQL NULL or out of range). */
const char *
mf_rows_value(const MfRows *rows, int ncols, int row, int col)
{
	size_t		off;

	if (row < 0 || row >= rows->nrows || col < 0 || col >= ncols)
		return NULL;
	off = rows->offsets[(size_t) row * ncols + col];
	return off == MF_ROWS_NULL ? NULL : rows->text + off;
}

/* An empty batch, its memory kept for the next one. */
void
mf_rows_clear(MfRows *rows)
{
	rows->nrows = 0;
	rows->text_len = 0;
}

void
mf_rows_free(MfRows *rows)
{
	free(rows->offsets);
	free(rows->text);
	memset(rows, 0, sizeof(*rows));
}
