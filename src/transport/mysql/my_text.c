/*-------------------------------------------------------------------------
 *
 * my_text.c
 *		A small query without parameters through the text protocol.
 *
 * A query whose text the connection has not prepared (one that carries its
 * values as literals, as every statement of a client on the simple
 * protocol does) costs a prepare and an execution, two exchanges, where
 * COM_QUERY costs one.  But the text protocol sends every value as the
 * server prints it, and for some types that is not the value: a FLOAT is
 * printed to 6 digits, a zero date as 0000-00-00.  So the query goes by
 * COM_QUERY only when the planner expects a small result (MF_READ_FEW),
 * and its rows are taken only when every column is of a kind whose printed
 * form is exact (integers, decimals, character and byte strings, bits,
 * JSON, ENUM, SET), and there are few enough of them to hold (a wrong
 * estimate must not fill the memory): otherwise the answer is read to its
 * end and dropped, and the query goes the prepared way after all, at the
 * cost of the exchange.
 *
 * Part of the mysql transport (see my_int.h); on the transport side of the
 * wall: no PostgreSQL server header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <stdlib.h>
#include <string.h>

static MYSQL_ROW
mfmy_fetch_row(MfmyOp *op, MYSQL_RES *r)
{
	MYSQL_ROW	row = NULL;
	int			status = mysql_fetch_row_start(&row, r);

	while (status)
		status = mysql_fetch_row_cont(&row, r, mfmy_wait(op, status));
	return row;
}

static void
mfmy_free_text_result(MfmyOp *op, MYSQL_RES *r)
{
	int			status = mysql_free_result_start(r);

	while (status)
		status = mysql_free_result_cont(r, mfmy_wait(op, status));
}

/* Is the printed form of this column's values the value itself? */
static bool
mfmy_text_exact(MfmyColKind kind)
{
	switch (kind)
	{
		case MFMY_COL_INT:
		case MFMY_COL_UINT:
		case MFMY_COL_TEXT:
		case MFMY_COL_BYTES:
		case MFMY_COL_BIT:
			return true;
		default:
			return false;
	}
}

/* One value of the row, as the binary path would have stored it. */
static bool
mfmy_text_store(MfResult *res, int c, const char *data, unsigned long len,
				size_t *off)
{
	MfmyCol    *col = &res->cols[c];

	*off = MF_ROWS_NULL;
	if (data == NULL)
		return true;
	if (col->kind == MFMY_COL_BYTES)
		return mfmy_store_hex(res, (const unsigned char *) data, len, off);
	if (col->kind == MFMY_COL_BIT)
		return mfmy_store_bits(res, (const unsigned char *) data, len,
							   col->bits, off);
	return mf_rows_add_text(&res->rows, data, len, off);
}

/*
 * Run sql by COM_QUERY into res (set up by mfmy_query: no handle yet) and
 * hold all its rows as one batch.  1: done; 0: declined (the rows were
 * dropped; the caller runs it prepared); -1: error.
 */
int
mfmy_text_query(MfResult *res, const char *sql, int max_rows, MfError *err)
{
	MfConn	   *conn = res->conn;
	MfmyOp		op;
	MYSQL_RES  *r;
	MYSQL_FIELD *fields;
	MYSQL_ROW	row;
	bool		exact = true;
	int			rc = 1;

	mfmy_op_start(&op, conn);
	if (mfmy_real_query(&op, sql, (unsigned long) strlen(sql)) != 0)
	{
		if (!mfmy_op_interrupted(&op, MF_STEP_FETCH, err))
			mfmy_conn_error(conn, MF_STEP_FETCH, err);
		return -1;
	}

	/*
	 * A cancel that came while the server computed the result may still
	 * have let it finish (a KILL QUERY only cuts SLEEP short): its rows
	 * are on their way and are read to the end below all the same.
	 */
	r = mysql_use_result(conn->my);
	if (r == NULL)
	{
		if (!mfmy_op_interrupted(&op, MF_STEP_FETCH, err))
			mfmy_fail(conn, err, MF_STEP_FETCH, "XX000",
					  "the query returned no rows description");
		return -1;
	}

	res->ncols = (int) mysql_num_fields(r);
	fields = mysql_fetch_fields(r);
	res->cols = calloc(res->ncols > 0 ? res->ncols : 1, sizeof(MfmyCol));
	if (res->cols == NULL)
	{
		mfmy_oom(conn, MF_STEP_FETCH, err);
		rc = -1;
	}
	for (int c = 0; rc > 0 && c < res->ncols; c++)
	{
		res->cols[c].kind = mfmy_col_kind(&fields[c]);
		res->cols[c].bits = fields[c].length;
		res->cols[c].name = strdup(fields[c].name);
		if (!mfmy_text_exact(res->cols[c].kind))
			exact = false;
	}
	if (!exact)
		rc = 0;

	while ((row = mfmy_fetch_row(&op, r)) != NULL)
	{
		unsigned long *lengths;
		size_t	   *offsets;

		if (rc <= 0)
			continue;			/* read to the end, for the link's sake */
		if (res->rows.nrows >= max_rows)
		{
			rc = 0;
			continue;
		}
		if (res->rows.nrows >= res->rows.rows_cap &&
			!mf_rows_reserve(&res->rows, res->rows.rows_cap > 0 ?
							 res->rows.rows_cap * 2 : 16, res->ncols))
		{
			mfmy_oom(conn, MF_STEP_FETCH, err);
			rc = -1;
			continue;
		}
		lengths = mysql_fetch_lengths(r);
		offsets = res->rows.offsets + (size_t) res->rows.nrows * res->ncols;
		for (int c = 0; rc > 0 && c < res->ncols; c++)
		{
			/* a NUL byte in a string: declined, the prepared way refuses it */
			if (res->cols[c].kind == MFMY_COL_TEXT && row[c] != NULL &&
				memchr(row[c], '\0', lengths[c]) != NULL)
				rc = 0;
			else if (!mfmy_text_store(res, c, row[c], lengths[c], &offsets[c]))
			{
				mfmy_oom(conn, MF_STEP_FETCH, err);
				rc = -1;
			}
		}
		if (rc > 0)
			res->rows.nrows++;
	}
	if (mfmy_op_interrupted(&op, MF_STEP_FETCH, err))
		rc = -1;
	else if (mysql_errno(conn->my) != 0)
	{
		/* an error met at a later row (an overflow) ends the result */
		if (rc >= 0)
			mfmy_conn_error(conn, MF_STEP_FETCH, err);
		rc = -1;
	}
	mfmy_free_text_result(&op, r);

	if (rc > 0)
		mfmy_relay_warnings(conn, mysql_warning_count(conn->my));
	if (rc == 0)
		conn->text_declined++;
	else if (rc > 0)
		conn->text_declined = 0;
	if (rc > 0)
	{
		/* the rows wait for the first fetch, as a stream's read ahead */
		res->spill = res->rows;
		memset(&res->rows, 0, sizeof(res->rows));
		res->spilled = true;
		res->at_end = true;
		res->read_to_end = true;
	}
	else
	{
		/* as if nothing had come: the caller starts afresh */
		mfmy_free_columns(res);
		res->ncols = 0;
		mf_rows_clear(&res->rows);
	}
	return rc;
}
