/*-------------------------------------------------------------------------
 *
 * odbc_fetch.c
 *		The odbc transport's results: fetching rows and converting each
 *		value to PostgreSQL's text form.
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

#define MFODBC_DEFAULT_FETCH	100

/* ---------------------------------------------------------------------
 * Results
 * ---------------------------------------------------------------------
 */

bool
mfodbc_describe(MfResult *r, MfError *err)
{
	SQLSMALLINT n = 0;

	if (!SQL_SUCCEEDED(SQLNumResultCols(r->h, &n)))
	{
		mfodbc_stmt_diag(r->conn, r->h, MF_STEP_FETCH, err);
		return false;
	}
	r->ncols = n;
	r->cols = calloc(n > 0 ? n : 1, sizeof(MfodbcCol));
	if (r->cols == NULL)
	{
		mfodbc_oom(r->conn, MF_STEP_FETCH, err);
		return false;
	}
	for (SQLSMALLINT c = 0; c < n; c++)
	{
		SQLWCHAR	name[256];
		SQLSMALLINT nlen,
					type = SQL_VARCHAR,
					digits,
					nullable;
		SQLULEN		size;

		if (!SQL_SUCCEEDED(SQLDescribeColW(r->h, (SQLUSMALLINT) (c + 1), name,
										   256, &nlen, &type, &size, &digits,
										   &nullable)))
		{
			type = SQL_VARCHAR;
			size = 0;
			nlen = -1;
		}
		if (nlen >= 0)
		{
			size_t		n = (size_t) (nlen < 255 ? nlen : 255);

			if ((r->cols[c].name = malloc(3 * n + 1)) != NULL)
				mfodbc_from_wide(name, n, r->cols[c].name);
		}
		r->cols[c].type = type;
		r->cols[c].size = size;
		if (type == SQL_BINARY || type == SQL_VARBINARY)
		{
			char		tname[64] = "";
			SQLSMALLINT tlen = 0;

			if (SQL_SUCCEEDED(SQLColAttribute(r->h, (SQLUSMALLINT) (c + 1),
											  SQL_DESC_TYPE_NAME, tname,
											  sizeof(tname), &tlen, NULL)) &&
				strcasecmp(tname, "bit") == 0)
				r->cols[c].bits = true;
		}
	}
	return true;
}

/* Does "YYYY-MM-DD HH:MM:SS[.f]..." (len bytes) end in a zone or era? */
static bool
mfodbc_has_offset(const char *s, size_t len)
{
	for (size_t i = 19; i < len; i++)
		if (s[i] == '+' || s[i] == '-' || isalpha((unsigned char) s[i]))
			return true;
	return false;
}

/* how reading one value went */
typedef enum MfodbcGet
{
	MFODBC_GOT,
	MFODBC_GET_FAILED,			/* the driver's diagnostics say why */
	MFODBC_GET_NUL,				/* a string with a NUL byte */
	MFODBC_GET_OOM
} MfodbcGet;

/* MySQL BIT(n): the bits as binary digits, n of them */
static MfodbcGet
mfodbc_get_bits(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	unsigned char data[64];
	size_t		nbits;
	size_t		start;

	rc = SQLGetData(h, col, SQL_C_BINARY, data, sizeof(data), &ind);
	if (!SQL_SUCCEEDED(rc))
		return MFODBC_GET_FAILED;
	if (ind == SQL_NULL_DATA)
	{
		*off = MF_ROWS_NULL;
		return MFODBC_GOT;
	}
	if (ind < 0 || ind > (SQLLEN) sizeof(data))
		ind = sizeof(data);
	nbits = (size_t) ind * 8;
	if (r->cols[c].size > 0 && r->cols[c].size < nbits)
		nbits = r->cols[c].size;
	if (!mf_rows_reserve_text(&r->rows, nbits + 1))
		return MFODBC_GET_OOM;
	start = r->rows.text_len;
	for (size_t i = 0; i < nbits; i++)
	{
		size_t		bit = (size_t) ind * 8 - nbits + i;

		r->rows.text[r->rows.text_len++] =
			(data[bit / 8] & (0x80 >> (bit % 8))) ? '1' : '0';
	}
	r->rows.text[r->rows.text_len++] = '\0';
	*off = start;
	return MFODBC_GOT;
}

/* binary data as bytea's hex form */
static MfodbcGet
mfodbc_get_binary(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	unsigned char chunk[8192];
	size_t		start;
	bool		first = true;

	start = r->rows.text_len;
	for (;;)
	{
		size_t		got;

		rc = SQLGetData(h, col, SQL_C_BINARY, chunk, sizeof(chunk), &ind);
		if (rc == SQL_NO_DATA)
			break;
		if (!SQL_SUCCEEDED(rc))
			return MFODBC_GET_FAILED;
		if (ind == SQL_NULL_DATA)
		{
			*off = MF_ROWS_NULL;
			return MFODBC_GOT;
		}
		if (first)
		{
			if (!mf_rows_reserve_text(&r->rows, 3))
				return MFODBC_GET_OOM;
			r->rows.text[r->rows.text_len++] = '\\';
			r->rows.text[r->rows.text_len++] = 'x';
			first = false;
		}
		got = (ind == SQL_NO_TOTAL || ind > (SQLLEN) sizeof(chunk)) ?
			sizeof(chunk) : (size_t) ind;
		if (!mf_rows_reserve_text(&r->rows, got * 2 + 1))
			return MFODBC_GET_OOM;
		mf_hex_encode(r->rows.text + r->rows.text_len, chunk, got);
		r->rows.text_len += 2 * got;
		if (rc == SQL_SUCCESS)
			break;
	}
	if (first)
	{
		if (!mf_rows_reserve_text(&r->rows, 3))
			return MFODBC_GET_OOM;
		r->rows.text[r->rows.text_len++] = '\\';
		r->rows.text[r->rows.text_len++] = 'x';
	}
	r->rows.text[r->rows.text_len++] = '\0';
	*off = start;
	return MFODBC_GOT;
}

/*
 * SQL_BIT as t / f, read as SQL_C_BIT: as text, MariaDB's driver hands a
 * BIT(1) over as its raw byte (0x01), not as "1".
 */
static MfodbcGet
mfodbc_get_bit(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	unsigned char v = 0;

	rc = SQLGetData(h, col, SQL_C_BIT, &v, sizeof(v), &ind);
	if (!SQL_SUCCEEDED(rc))
		return MFODBC_GET_FAILED;
	if (ind == SQL_NULL_DATA)
	{
		*off = MF_ROWS_NULL;
		return MFODBC_GOT;
	}
	return mf_rows_add_text(&r->rows, v ? "t" : "f", 1, off) ?
		MFODBC_GOT : MFODBC_GET_OOM;
}

/*
 * SQL_REAL read as SQL_C_FLOAT and written with the 9 significant digits
 * that give a float4 back exactly: as text, MariaDB's driver writes 6
 * (16777216 as 1.67772e+07).
 */
static MfodbcGet
mfodbc_get_real(MfResult *r, int c, size_t *off)
{
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	float		v = 0;
	char		text[32];

	rc = SQLGetData(r->h, (SQLUSMALLINT) (c + 1), SQL_C_FLOAT, &v, sizeof(v), &ind);
	if (!SQL_SUCCEEDED(rc))
		return MFODBC_GET_FAILED;
	if (ind == SQL_NULL_DATA)
	{
		*off = MF_ROWS_NULL;
		return MFODBC_GOT;
	}
	snprintf(text, sizeof(text), "%.9g", (double) v);
	return mf_rows_add_text(&r->rows, text, strlen(text), off) ?
		MFODBC_GOT : MFODBC_GET_OOM;
}

/*
 * A timestamp from its struct, in the session's zone (UTC); date_only: a
 * date column, read through the same struct (ODBC converts), written
 * without its time.  FreeTDS's own text of a date has no leading zeros in
 * the year ("1-01-01"), which PostgreSQL reads as another date.
 */
static MfodbcGet
mfodbc_get_timestamp(MfResult *r, int c, size_t *off, bool date_only)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	SQL_TIMESTAMP_STRUCT ts;
	MfDateTime	dt;
	char		v[64];
	int			len;

	rc = SQLGetData(h, col, SQL_C_TYPE_TIMESTAMP, &ts, sizeof(ts), &ind);
	if (!SQL_SUCCEEDED(rc))
		return MFODBC_GET_FAILED;
	if (ind == SQL_NULL_DATA)
	{
		*off = MF_ROWS_NULL;
		return MFODBC_GOT;
	}
	dt.year = ts.year;
	dt.month = ts.month;
	dt.day = ts.day;
	dt.hour = ts.hour;
	dt.minute = ts.minute;
	dt.second = ts.second;
	dt.nanos = ts.fraction;
	if (date_only)
		len = mf_format_date(v, sizeof(v), &dt);
	else
		len = mf_format_timestamp_utc(v, sizeof(v), &dt, true);
	return mf_rows_add_text(&r->rows, v, (size_t) len, off) ? MFODBC_GOT : MFODBC_GET_OOM;
}

/*
 * Text, in UTF-16 pieces.  A piece may end between the two halves of
 * a surrogate pair, so a trailing high surrogate waits for the next
 * piece before it is decoded.
 */
static MfodbcGet
mfodbc_get_text(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLSMALLINT type = r->cols[c].type;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	SQLWCHAR	chunk[4097];
	size_t		start = r->rows.text_len;
	size_t		carry = 0;

	for (;;)
	{
		size_t		units;

		rc = SQLGetData(h, col, SQL_C_WCHAR, chunk + carry,
						(SQLLEN) (sizeof(chunk) - carry * sizeof(SQLWCHAR)), &ind);
		if (rc == SQL_NO_DATA)
			break;
		if (!SQL_SUCCEEDED(rc))
			return MFODBC_GET_FAILED;
		if (ind == SQL_NULL_DATA)
		{
			*off = MF_ROWS_NULL;
			return MFODBC_GOT;
		}
		if (ind == SQL_NO_TOTAL ||
			ind >= (SQLLEN) (sizeof(chunk) - carry * sizeof(SQLWCHAR)))
			units = sizeof(chunk) / sizeof(SQLWCHAR) - 1;
		else
			units = carry + (size_t) ind / sizeof(SQLWCHAR);
		carry = 0;
		if (rc == SQL_SUCCESS_WITH_INFO && units > 0 &&
			chunk[units - 1] >= 0xD800 && chunk[units - 1] < 0xDC00)
		{
			units--;
			carry = 1;
		}
		if (!mf_rows_reserve_text(&r->rows, units * 3 + 1))
			return MFODBC_GET_OOM;
		r->rows.text_len += mfodbc_from_wide(chunk, units, r->rows.text + r->rows.text_len);
		if (carry)
			chunk[0] = chunk[units];
		if (rc == SQL_SUCCESS)
			break;
	}
	if (!mf_rows_reserve_text(&r->rows, carry * 3 + 1))
		return MFODBC_GET_OOM;
	if (carry)
		r->rows.text_len += mfodbc_from_wide(chunk, 1, r->rows.text + r->rows.text_len);
	if (memchr(r->rows.text + start, '\0', r->rows.text_len - start) != NULL)
		return MFODBC_GET_NUL;

	/*
	 * psqlODBC hands a timestamptz over as the session's (UTC) wall
	 * time without its offset: say which zone it is in.  A timestamp
	 * without time zone ignores the offset on input.
	 */
	if ((type == SQL_TYPE_TIMESTAMP || type == SQL_TIMESTAMP) &&
		r->rows.text_len - start >= 19 &&
		isdigit((unsigned char) r->rows.text[start]) &&
		!mfodbc_has_offset(r->rows.text + start, r->rows.text_len - start))
	{
		if (!mf_rows_reserve_text(&r->rows, 4))
			return MFODBC_GET_OOM;
		memcpy(r->rows.text + r->rows.text_len, "+00", 3);
		r->rows.text_len += 3;
	}
	r->rows.text[r->rows.text_len++] = '\0';
	*off = start;
	return MFODBC_GOT;
}

/*
 * Read column c of the current row into the arena, in PostgreSQL's input
 * form: bytea as \x hex, bits as t/f, reals with all their digits, timestamps (other than psqlODBC's,
 * which come as the server's text) as ISO with their fraction and +00
 * (the session's zone), the rest as the driver's text in UTF-8.
 */
bool
mfodbc_store_value(MfResult *r, int c, size_t *off, MfError *err)
{
	SQLSMALLINT type = r->cols[c].type;
	MfodbcGet	got;

	if (r->cols[c].bits)
		got = mfodbc_get_bits(r, c, off);
	else if (type == SQL_BINARY || type == SQL_VARBINARY || type == SQL_LONGVARBINARY)
		got = mfodbc_get_binary(r, c, off);
	else if (type == SQL_BIT)
		got = mfodbc_get_bit(r, c, off);
	else if (type == SQL_REAL)
		got = mfodbc_get_real(r, c, off);
	else if ((type == SQL_TYPE_TIMESTAMP || type == SQL_TIMESTAMP) &&
			 r->conn->driver != MFODBC_PSQLODBC)
		got = mfodbc_get_timestamp(r, c, off, false);
	else if (type == SQL_TYPE_DATE && r->conn->driver == MFODBC_FREETDS)
		got = mfodbc_get_timestamp(r, c, off, true);
	else
		got = mfodbc_get_text(r, c, off);

	if (got == MFODBC_GET_FAILED)
		mfodbc_stmt_diag(r->conn, r->h, MF_STEP_FETCH, err);
	else if (got == MFODBC_GET_NUL)
		mf_error_text_nul(err, c);
	else if (got == MFODBC_GET_OOM)
		mfodbc_oom(r->conn, MF_STEP_FETCH, err);
	return got == MFODBC_GOT;
}

MfResult *
mfodbc_new_result(MfConn *conn, SQLHSTMT h, bool owns, int rows)
{
	MfResult   *r = calloc(1, sizeof(MfResult));

	if (r == NULL)
		return NULL;
	r->conn = conn;
	r->h = h;
	r->owns_handle = owns;
	r->fetch_size = rows > 0 ? rows : MFODBC_DEFAULT_FETCH;
	MF_LIST_PUSH(conn->results, r);
	return r;
}

static MfResult *
mfodbc_query_taking(MfConn *conn, const char *sql, int nparams,
					const char *const *values, const MfTypeClass *classes,
					MfRead read, MfError *err, MfodbcInfo *info)
{
	MfResult   *r;
	SQLRETURN	rc;

	mf_error_clear(err);
	if (!mfodbc_ready(conn, MF_STEP_FETCH, err))
		return NULL;
	/* a small result is read as any other, rows at a time */
	r = mfodbc_new_result(conn, SQL_NULL_HSTMT, true,
						  read.mode == MF_READ_WHOLE ? 0 : read.rows);
	if (r == NULL)
	{
		mfodbc_oom(conn, MF_STEP_FETCH, err);
		return NULL;
	}
	r->params = mfodbc_new_stmt(conn, sql, nparams, classes, MF_STEP_FETCH, err);
	if (r->params == NULL)
	{
		mfodbc_free_result(r);
		return NULL;
	}
	/* the result owns the statement's handle from now on */
	r->h = r->params->h;
	{
		MfodbcBinds bs = {0};

		if (!mfodbc_bind_params(r->params, 1, values, &bs, MF_STEP_FETCH, err))
		{
			mfodbc_binds_free(&bs);
			r->params->h = SQL_NULL_HSTMT;
			mfodbc_free_result(r);
			return NULL;
		}
		conn->wire->round_trips++;
		mfodbc_watch(conn, r->h);
		rc = SQLExecute(r->h);
		mfodbc_info_take(conn, r->h, rc, info);
		if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
			mfodbc_stmt_diag(conn, r->h, MF_STEP_FETCH, err);
		mfodbc_unwatch_error(conn, SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA,
							 MF_STEP_FETCH, err);
		(void) SQLFreeStmt(r->h, SQL_RESET_PARAMS);
		mfodbc_binds_free(&bs);
	}
	r->params->h = SQL_NULL_HSTMT;
	r->one_set = read.as_written;
	if (rc == SQL_NO_DATA)
		r->done = true;
	else if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_free_result(r);
		return NULL;
	}
	if (!mfodbc_describe(r, err))
	{
		mfodbc_free_result(r);
		return NULL;
	}
	if (r->ncols == 0)
		r->done = true;
	return r;
}

/* The server's messages about it go to the core once the result is set. */
MfResult *
mfodbc_query(MfConn *conn, const char *sql, int nparams,
			 const char *const *values, const MfTypeClass *classes,
			 MfRead read, MfError *err)
{
	MfodbcInfo	info = {0};
	MfResult   *r;

	r = mfodbc_query_taking(conn, sql, nparams, values, classes, read, err,
							&info);
	mfodbc_info_give(conn, &info);
	return r;
}

/*
 * After the rows of a statement of the user's, what else it returned: a
 * driver may run several statements given at once (psqlODBC does) or
 * return a procedure's status after its rows.  Row counts are passed over;
 * a further set of rows is an error, since one is read and the caller
 * would not learn that there were others.
 */
static bool
mfodbc_no_more_sets(MfResult *res, MfError *err)
{
	for (;;)
	{
		SQLSMALLINT ncols = 0;
		SQLRETURN	rc;

		mfodbc_watch(res->conn, res->h);
		rc = SQLMoreResults(res->h);
		if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
			mfodbc_stmt_diag(res->conn, res->h, MF_STEP_FETCH, err);
		mfodbc_unwatch_error(res->conn, SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA,
							 MF_STEP_FETCH, err);
		if (rc == SQL_NO_DATA)
			return true;
		if (!SQL_SUCCEEDED(rc))
			return false;
		if (SQL_SUCCEEDED(SQLNumResultCols(res->h, &ncols)) && ncols > 0)
		{
			(void) SQLFreeStmt(res->h, SQL_CLOSE);
			mfodbc_fail(res->conn, err, MF_STEP_FETCH, "0A000",
						"the statement returned more than one set of rows; only one is read");
			return false;
		}
	}
}

static int
mfodbc_fetch_batch(MfResult *res, MfError *err)
{
	int			n = 0;

	mf_error_clear(err);
	mf_rows_clear(&res->rows);

	if (res->h == SQL_NULL_HSTMT)
	{
		/* rows held in memory: all of them, once */
		if (res->done)
			return 0;
		res->done = true;
		res->rows.nrows = res->mem_rows;
		return res->mem_rows;
	}
	if (res->done)
		return 0;
	if (!mf_rows_reserve(&res->rows, res->fetch_size, res->ncols))
	{
		mfodbc_oom(res->conn, MF_STEP_FETCH, err);
		return -1;
	}
	while (n < res->fetch_size)
	{
		SQLRETURN	rc;

		mfodbc_watch(res->conn, res->h);
		rc = SQLFetch(res->h);
		if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
			mfodbc_stmt_diag(res->conn, res->h, MF_STEP_FETCH, err);
		mfodbc_unwatch_error(res->conn, SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA,
							 MF_STEP_FETCH, err);
		if (rc == SQL_NO_DATA)
		{
			res->done = true;
			if (res->one_set && !mfodbc_no_more_sets(res, err))
				return -1;
			(void) SQLFreeStmt(res->h, SQL_CLOSE);
			break;
		}
		if (!SQL_SUCCEEDED(rc))
			return -1;
		for (int c = 0; c < res->ncols; c++)
			if (!mfodbc_store_value(res, c, &res->rows.offsets[(size_t) n * res->ncols + c], err))
				return -1;
		n++;
	}
	res->rows.nrows = n;
	return n;
}

/*
 * A batch, counted as it is handed over.  The driver decides when it reads
 * from the server, so a fetch is no round trip of ours; its time inside
 * the driver is waiting all the same.
 */
int
mfodbc_fetch(MfResult *res, MfError *err)
{
	int			n = mfodbc_fetch_batch(res, err);

	if (n > 0)
		mf_wire_count_rows(res->conn->wire, res, n, res->ncols, mfodbc_value);
	return n;
}

int
mfodbc_ncolumns(MfResult *res)
{
	return res->ncols;
}

const char *
mfodbc_column_name(MfResult *res, int col)
{
	if (res->cols == NULL || col < 0 || col >= res->ncols)
		return NULL;
	return res->cols[col].name;
}

const char *
mfodbc_value(MfResult *res, int row, int col)
{
	return mf_rows_value(&res->rows, res->ncols, row, col);
}

void
mfodbc_result_close(MfResult *res)
{
	if (res != NULL)
		mfodbc_free_result(res);
}

/* ---------------------------------------------------------------------
 * The connection's list of results
 * ---------------------------------------------------------------------
 */

void
mfodbc_free_result(MfResult *r)
{
	MF_LIST_REMOVE(r->conn->results, r);
	if (r->h != SQL_NULL_HSTMT)
	{
		if (r->owns_handle)
			(void) SQLFreeHandle(SQL_HANDLE_STMT, r->h);
		else
			(void) SQLFreeStmt(r->h, SQL_CLOSE);
	}
	if (r->params)
		mfodbc_free_stmt(r->params);
	if (r->cols)
		for (int c = 0; c < r->ncols; c++)
			free(r->cols[c].name);
	free(r->cols);
	mf_rows_free(&r->rows);
	free(r);
}
