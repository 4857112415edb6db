/*-------------------------------------------------------------------------
 *
 * my_stmt.c
 *		The mysql transport's statements: binding parameters, prepare
 *		and execute, parameter arrays (bulk execution).
 *
 * Part of the mysql transport (see my_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only Connector/C's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
/* ---------------------------------------------------------------------
 * Parameters
 * ---------------------------------------------------------------------
 */

bool
mfmy_params_init(MfmyParams *p, int n, const MfTypeClass *classes)
{
	size_t		k = n > 0 ? (size_t) n : 1;

	memset(p, 0, sizeof(*p));
	p->n = n;
	p->classes = calloc(k, sizeof(MfTypeClass));
	p->bind = calloc(k, sizeof(MYSQL_BIND));
	p->length = calloc(k, sizeof(unsigned long));
	p->is_null = calloc(k, sizeof(my_bool));
	p->ints = calloc(k, sizeof(long long));
	p->dbls = calloc(k, sizeof(double));
	p->tiny = calloc(k, sizeof(signed char));
	p->owned = calloc(k, sizeof(char *));
	if (!p->classes || !p->bind || !p->length || !p->is_null || !p->ints ||
		!p->dbls || !p->tiny || !p->owned)
		return false;
	for (int i = 0; i < n; i++)
		p->classes[i] = classes ? classes[i] : MF_TYPE_TEXT;
	return true;
}

static void
mfmy_params_release(MfmyParams *p)
{
	if (p->owned == NULL)
		return;
	for (int i = 0; i < p->n; i++)
	{
		free(p->owned[i]);
		p->owned[i] = NULL;
	}
}

void
mfmy_params_free(MfmyParams *p)
{
	mfmy_params_release(p);
	free(p->classes);
	free(p->bind);
	free(p->length);
	free(p->is_null);
	free(p->ints);
	free(p->dbls);
	free(p->tiny);
	free(p->owned);
	memset(p, 0, sizeof(*p));
}

/*
 * bytea's text form to raw bytes (see mf_bytea_decode).  NULL on a
 * malformed value or no memory.
 */
static char *
mfmy_decode_bytea(const char *s, unsigned long *len)
{
	size_t		n = strlen(s);
	char	   *out = malloc(n + 1);
	long		got;

	if (out == NULL)
		return NULL;
	got = mf_bytea_decode(s, out, n);
	if (got < 0)
	{
		free(out);
		return NULL;
	}
	*len = (unsigned long) got;
	return out;
}

/* A value PostgreSQL prints but MySQL has no number for (NaN, Infinity). */
static bool
mfmy_special_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return (*s < '0' || *s > '9') && *s != '.';
}

/*
 * Bind one set of values.  The texts themselves are pointed at, not
 * copied; they must live until the statement has run.
 */
static bool
mfmy_params_bind(MfConn *conn, MfmyParams *p, const char *const *values,
					MfStep step, MfError *err)
{
	mfmy_params_release(p);
	memset(p->bind, 0, sizeof(MYSQL_BIND) * (p->n > 0 ? p->n : 1));

	for (int i = 0; i < p->n; i++)
	{
		MYSQL_BIND *b = &p->bind[i];
		const char *v = values ? values[i] : NULL;
		size_t		len;

		b->length = &p->length[i];
		b->is_null = &p->is_null[i];
		p->is_null[i] = (v == NULL);
		if (v == NULL)
		{
			b->buffer_type = MYSQL_TYPE_NULL;
			continue;
		}
		len = strlen(v);

		/* by default the server converts the text */
		b->buffer_type = MYSQL_TYPE_STRING;
		b->buffer = (void *) v;
		b->buffer_length = (unsigned long) len;
		p->length[i] = (unsigned long) len;

		switch (p->classes[i])
		{
			case MF_TYPE_BYTES:
				{
					unsigned long n = 0;
					char	   *raw = mfmy_decode_bytea(v, &n);

					if (raw == NULL)
					{
						mfmy_fail(conn, err, step, "22P02",
									 "invalid bytea value for a MySQL parameter");
						return false;
					}
					p->owned[i] = raw;
					b->buffer_type = MYSQL_TYPE_BLOB;
					b->buffer = raw;
					b->buffer_length = n;
					p->length[i] = n;
				}
				break;

			case MF_TYPE_BOOL:
				p->tiny[i] = (v[0] == 't' || v[0] == 'T' || v[0] == '1' ||
							  v[0] == 'y' || v[0] == 'Y') ? 1 : 0;
				b->buffer_type = MYSQL_TYPE_TINY;
				b->buffer = &p->tiny[i];
				break;

			case MF_TYPE_INT:
				{
					char	   *end;

					/*
					 * As a number, not a string: MySQL compares an integer
					 * column with a string in double precision.
					 */
					errno = 0;
					p->ints[i] = strtoll(v, &end, 10);
					if (errno == 0 && end != v && *end == '\0')
					{
						b->buffer_type = MYSQL_TYPE_LONGLONG;
						b->buffer = &p->ints[i];
					}
				}
				break;

			case MF_TYPE_FLOAT:
				if (!mfmy_special_number(v))
				{
					char	   *end;

					errno = 0;
					p->dbls[i] = strtod(v, &end);
					if (end != v && *end == '\0')
					{
						b->buffer_type = MYSQL_TYPE_DOUBLE;
						b->buffer = &p->dbls[i];
					}
				}
				break;

			case MF_TYPE_BITS:
				/* binary digits, as the BIT column's number */
				if (len > 0 && len <= 64 && strspn(v, "01") == len)
				{
					unsigned long long bits = 0;

					for (size_t k = 0; k < len; k++)
						bits = (bits << 1) | (unsigned long long) (v[k] - '0');
					p->ints[i] = (long long) bits;
					b->buffer_type = MYSQL_TYPE_LONGLONG;
					b->buffer = &p->ints[i];
					b->is_unsigned = 1;
				}
				break;

			case MF_TYPE_NUMERIC:
				/* exact: the digits travel as a DECIMAL */
				if (!mfmy_special_number(v))
					b->buffer_type = MYSQL_TYPE_NEWDECIMAL;
				break;

			case MF_TYPE_TIMESTAMPTZ:

				/*
				 * The core writes it in UTC; the session's time zone is UTC
				 * and MySQL does not take the offset.
				 */
				if (len > 6 && strcmp(v + len - 6, "+00:00") == 0)
					p->length[i] = (unsigned long) (len - 6);
				else if (len > 3 && strcmp(v + len - 3, "+00") == 0)
					p->length[i] = (unsigned long) (len - 3);
				b->buffer_length = p->length[i];
				break;

			default:
				break;
		}
	}
	return true;
}

/* ---------------------------------------------------------------------
 * Prepared statements
 * ---------------------------------------------------------------------
 */

MfStmt *
mfmy_prepare(MfConn *conn, const char *sql, int nparams,
				const MfTypeClass *classes, MfError *err)
{
	MfStmt	   *stmt;

	if (!mfmy_usable(conn, MF_STEP_PREPARE, err))
		return NULL;
	stmt = calloc(1, sizeof(MfStmt));
	if (stmt == NULL || !mfmy_params_init(&stmt->params, nparams, classes))
	{
		if (stmt)
			mfmy_params_free(&stmt->params);
		free(stmt);
		mfmy_oom(conn, MF_STEP_PREPARE, err);
		return NULL;
	}
	stmt->conn = conn;
	stmt->handle = mfmy_cache_take(conn, sql, nparams, false,
								   MF_STEP_PREPARE, err);
	if (stmt->handle == NULL)
	{
		mfmy_params_free(&stmt->params);
		free(stmt);
		return NULL;
	}
	stmt->st = stmt->handle->st;
	MF_LIST_PUSH(conn->stmts, stmt);
	return stmt;
}

/*
 * Bind the parameters and run the statement, under op: the caller reads
 * what the statement sends and then asks op whether a cancel came.
 */
bool
mfmy_run(MfmyOp *op, MYSQL_STMT *st, MfmyParams *params,
			const char *const *values, MfStep step, MfError *err)
{
	MfConn	   *conn = op->conn;
	int			rc;

	if (!mfmy_params_bind(conn, params, values, step, err))
		return false;
	conn->wire->bytes_sent += mf_values_bytes(values, params->n);
	if (params->n > 0 && mysql_stmt_bind_param(st, params->bind))
	{
		mfmy_stmt_error(conn, st, step, err);
		mfmy_params_release(params);
		return false;
	}
	rc = mfmy_stmt_execute(op, st);
	mfmy_params_release(params);
	if (rc != 0)
	{
		mfmy_stmt_error(conn, st, step, err);
		return false;
	}
	return true;
}

bool
mfmy_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
				MfResult **result, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	MfmyOp		op;
	bool		ok;

	if (rows_affected)
		*rows_affected = 0;
	if (result)
		*result = NULL;
	if (!mfmy_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	mfmy_op_start(&op, conn);
	ok = mfmy_run(&op, stmt->st, &stmt->params, values, MF_STEP_EXECUTE,
					 err);
	/* the server wants it prepared again: once more, afresh (my_cache.c) */
	if (!ok && mfmy_cache_retake(conn, &stmt->handle, MF_STEP_EXECUTE, err))
	{
		stmt->st = stmt->handle->st;
		mfmy_op_start(&op, conn);
		ok = mfmy_run(&op, stmt->st, &stmt->params, values, MF_STEP_EXECUTE,
					  err);
	}
	if (!ok && !mfmy_cache_refused(stmt->st))
		mfmy_cache_spoil(stmt->handle);

	/*
	 * Rows of a statement that returns some (RETURNING) are read whole, so
	 * that the connection is free; dropped unless they are wanted.
	 */
	if (ok && mysql_stmt_field_count(stmt->st) > 0)
	{
		ok = mfmy_stmt_store(&op, stmt->st) == 0;
		if (!ok)
		{
			mfmy_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
			mfmy_cache_spoil(stmt->handle);
		}
		if (ok && result && !mfmy_op_interrupted(&op, MF_STEP_EXECUTE, err))
		{
			/* the rows are stored: the link is free */
			mfmy_relay_warnings(conn, (unsigned int) mysql_stmt_warning_count(stmt->st));
			*result = mfmy_stmt_result(stmt, err);
			return *result != NULL;
		}
		(void) mysql_stmt_free_result(stmt->st);
	}
	else if (ok && rows_affected)
		*rows_affected = mfmy_rows(conn->my,
									  mysql_stmt_affected_rows(stmt->st));
	if (mfmy_op_interrupted(&op, MF_STEP_EXECUTE, err))
	{
		mfmy_cache_spoil(stmt->handle);
		return false;
	}
	if (ok)
		mfmy_relay_warnings(conn, (unsigned int) mysql_stmt_warning_count(stmt->st));
	return ok;
}

/* ---------------------------------------------------------------------
 * Parameter arrays (bulk execution)
 * ---------------------------------------------------------------------
 */

/* Arrays for sets sets of the statement's parameters. */
static bool
mfmy_array_reserve(MfStmt *stmt, int sets)
{
	MfmyArray  *a = &stmt->array;
	size_t		n = (size_t) stmt->params.n;
	size_t		k;

	if (a->cap >= sets)
		return true;
	mfmy_array_free(a, stmt->params.n);
	k = n * (size_t) sets;
	a->bind = calloc(n, sizeof(MYSQL_BIND));
	a->as_number = calloc(n, sizeof(bool));
	a->ind = calloc(k, sizeof(char));
	a->len = calloc(k, sizeof(unsigned long));
	a->ptr = calloc(k, sizeof(char *));
	a->num = calloc(k, sizeof(MfmyNum));
	a->tiny = calloc(k, sizeof(signed char));
	a->owned = calloc(k, sizeof(char *));
	if (!a->bind || !a->as_number || !a->ind || !a->len || !a->ptr ||
		!a->num || !a->tiny || !a->owned)
	{
		mfmy_array_free(a, stmt->params.n);
		return false;
	}
	a->cap = sets;
	return true;
}

static void
mfmy_array_release(MfmyArray *a, int nparams, int sets)
{
	for (int p = 0; p < nparams; p++)
		for (int k = 0; k < sets; k++)
		{
			size_t		slot = (size_t) p * a->cap + k;

			free(a->owned[slot]);
			a->owned[slot] = NULL;
		}
}

/* Bytes a length-encoded length takes in the protocol. */
static size_t
mfmy_lenenc_size(size_t len)
{
	return len < 251 ? 1 : len < 65536 ? 3 : len < 16777216 ? 4 : 9;
}

/*
 * The server's max_allowed_packet, read once per connection: a bulk packet
 * larger than that would be refused, and the session with it.
 */
bool
mfmy_read_max_packet(MfConn *conn, MfError *err)
{
	static const char sql[] = "SELECT @@max_allowed_packet";
	MfmyOp		op;
	MYSQL_RES  *r = NULL;
	bool		ok;

	if (conn->max_packet > 0)
		return true;
	mfmy_op_start(&op, conn);
	ok = mfmy_real_query(&op, sql, sizeof(sql) - 1) == 0;
	if (ok)
	{
		r = mfmy_store_result(&op);
		ok = r != NULL;
	}
	if (!ok)
		mfmy_conn_error(conn, MF_STEP_EXECUTE, err);
	else
	{
		MYSQL_ROW	row = mysql_fetch_row(r);
		unsigned long v = 0;

		if (row == NULL || row[0] == NULL ||
			!mfmy_parse_uint(row[0], ULONG_MAX, &v) || v < 1024)
			v = MFMY_PACKET_FALLBACK;
		conn->max_packet = v;
	}
	if (r != NULL)
		mysql_free_result(r);
	if (mfmy_op_interrupted(&op, MF_STEP_EXECUTE, err))
		return false;
	return ok;
}

/*
 * One value of a set into its slot of the arrays, by the parameter's class:
 * a number stored as one while every value of the column so far is one
 * (a->as_number), bytes decoded, a time zone offset of UTC cut.  False on
 * a bytea value that does not decode.
 */
static bool
mfmy_array_value(MfmyArray *a, MfTypeClass cls, int p,
				 size_t slot, const char *v, size_t len)
{
	switch (cls)
	{
		case MF_TYPE_BYTES:
			{
				unsigned long raw_len = 0;
				char	   *raw = mfmy_decode_bytea(v, &raw_len);

				if (raw == NULL)
					return false;
				a->owned[slot] = raw;
				a->ptr[slot] = raw;
				a->len[slot] = raw_len;
			}
			break;

		case MF_TYPE_BOOL:
			a->tiny[slot] = (v[0] == 't' || v[0] == 'T' || v[0] == '1' ||
							 v[0] == 'y' || v[0] == 'Y') ? 1 : 0;
			break;

		case MF_TYPE_INT:
			if (a->as_number[p])
			{
				char	   *end;

				errno = 0;
				a->num[slot].i = strtoll(v, &end, 10);
				if (errno != 0 || end == v || *end != '\0')
					a->as_number[p] = false;
			}
			break;

		case MF_TYPE_FLOAT:
			if (a->as_number[p])
			{
				char	   *end;

				if (mfmy_special_number(v))
					a->as_number[p] = false;
				else
				{
					a->num[slot].d = strtod(v, &end);
					if (end == v || *end != '\0')
						a->as_number[p] = false;
				}
			}
			break;

		case MF_TYPE_BITS:
			if (a->as_number[p])
			{
				if (len > 0 && len <= 64 && strspn(v, "01") == len)
				{
					unsigned long long bits = 0;

					for (size_t i = 0; i < len; i++)
						bits = (bits << 1) | (unsigned long long) (v[i] - '0');
					a->num[slot].i = (long long) bits;
				}
				else
					a->as_number[p] = false;
			}
			break;

		case MF_TYPE_NUMERIC:
			if (mfmy_special_number(v))
				a->as_number[p] = false;
			break;

		case MF_TYPE_TIMESTAMPTZ:
			/* in UTC, like the session: MySQL takes no offset */
			if (len > 6 && strcmp(v + len - 6, "+00:00") == 0)
				a->len[slot] = (unsigned long) (len - 6);
			else if (len > 3 && strcmp(v + len - 3, "+00") == 0)
				a->len[slot] = (unsigned long) (len - 3);
			break;

		default:
			break;
	}
	return true;
}

/* One type per parameter, for all the sets of the arrays. */
static void
mfmy_array_bind(MfmyArray *a, const MfmyParams *pp, int n)
{
	memset(a->bind, 0, sizeof(MYSQL_BIND) * (size_t) n);
	for (int p = 0; p < n; p++)
	{
		MYSQL_BIND *b = &a->bind[p];
		size_t		col = (size_t) p * a->cap;

		b->u.indicator = a->ind + col;
		b->buffer_type = MYSQL_TYPE_STRING;
		b->buffer = a->ptr + col;
		b->length = a->len + col;
		switch (pp->classes[p])
		{
			case MF_TYPE_BYTES:
				b->buffer_type = MYSQL_TYPE_BLOB;
				break;
			case MF_TYPE_BOOL:
				b->buffer_type = MYSQL_TYPE_TINY;
				b->buffer = a->tiny + col;
				break;
			case MF_TYPE_INT:
			case MF_TYPE_BITS:
				if (a->as_number[p])
				{
					b->buffer_type = MYSQL_TYPE_LONGLONG;
					b->buffer = a->num + col;
					b->is_unsigned = pp->classes[p] == MF_TYPE_BITS;
				}
				break;
			case MF_TYPE_FLOAT:
				if (a->as_number[p])
				{
					b->buffer_type = MYSQL_TYPE_DOUBLE;
					b->buffer = a->num + col;
				}
				break;
			case MF_TYPE_NUMERIC:
				if (a->as_number[p])
					b->buffer_type = MYSQL_TYPE_NEWDECIMAL;
				break;
			default:
				break;
		}
	}
}

/*
 * Fill the arrays with the sets from first on, as many as fit in one
 * packet of budget bytes (at least one) and in the arrays; *sets is how
 * many.  Binds them by the same rules as mfmy_params_bind, except that
 * a parameter has one type for all its sets: a column of numbers with one
 * value that is not a number (NaN, Infinity, a bit string longer than 64)
 * goes as text, which the server converts or refuses.
 */
static bool
mfmy_array_fill(MfStmt *stmt, int nsets, const char *const *values,
				   int first, size_t budget, int *sets, MfError *err)
{
	MfmyArray  *a = &stmt->array;
	MfmyParams *pp = &stmt->params;
	int			n = pp->n;
	size_t		bytes = 0;
	int			k;

	for (int p = 0; p < n; p++)
		a->as_number[p] = true;

	for (k = 0; k < a->cap && first + k < nsets; k++)
	{
		const char *const *set = values + (size_t) (first + k) * n;
		size_t		set_bytes = 0;

		/* what this set adds to the packet, an upper bound */
		for (int p = 0; p < n; p++)
		{
			size_t		slot = (size_t) p * a->cap + k;
			size_t		len;

			if (set[p] == NULL)
			{
				set_bytes += 1;
				continue;
			}
			len = strlen(set[p]);
			a->len[slot] = (unsigned long) len;
			len += mfmy_lenenc_size(len);
			set_bytes += 1 + (len > 8 ? len : 8);
		}
		if (k > 0 && bytes + set_bytes > budget)
			break;
		bytes += set_bytes;

		for (int p = 0; p < n; p++)
		{
			size_t		slot = (size_t) p * a->cap + k;
			const char *v = set[p];
			size_t		len;

			if (v == NULL)
			{
				a->ind[slot] = STMT_INDICATOR_NULL;
				a->ptr[slot] = NULL;
				a->len[slot] = 0;
				continue;
			}
			a->ind[slot] = STMT_INDICATOR_NONE;
			a->ptr[slot] = (char *) v;
			len = a->len[slot];

			if (!mfmy_array_value(a, pp->classes[p], p, slot, v, len))
			{
				mfmy_array_release(a, n, k + 1);
				mfmy_fail(stmt->conn, err, MF_STEP_EXECUTE, "22P02",
						  "invalid bytea value for a MySQL parameter");
				err->row = first + k + 1;
				return false;
			}
		}
	}
	*sets = k;
	mfmy_array_bind(a, pp, n);
	return true;
}

/*
 * The set of a bulk packet that failed, 1-based, when the server's message
 * names it: MariaDB counts the rows of a bulk execution by set, and data
 * errors end in "at row N".  0 when it does not say (a duplicate key).
 */
long
mfmy_bulk_row(const char *message, int sets)
{
	const char *last = NULL;
	unsigned long row;

	for (const char *p = strstr(message, " at row "); p != NULL;
		 p = strstr(p + 1, " at row "))
		last = p;
	if (last == NULL || !mfmy_parse_uint(last + 8, (unsigned long) sets, &row))
		return 0;
	return (long) row;
}

/*
 * Run the statement for the sets one at a time: servers without bulk
 * execution, and statements without parameters.
 */
static bool
mfmy_execute_each(MfStmt *stmt, int nsets, const char *const *values,
					 long *rows_affected, MfError *err)
{
	for (int k = 0; k < nsets; k++)
	{
		long		rows = 0;

		if (!mfmy_execute(stmt, values ? values + (size_t) k * stmt->params.n : NULL,
							 &rows, NULL, err))
		{
			if (!err->conn_lost && strcmp(err->sqlstate, "57014") != 0)
				err->row = k + 1;
			return false;
		}
		*rows_affected += rows;
	}
	return true;
}

/* mfmy_execute_array's bulk executions, on a connection ready for them */
static bool
mfmy_execute_bulk(MfStmt *stmt, int nsets, const char *const *values,
				  long *rows_affected, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	int			n = stmt->params.n;
	size_t		budget;
	MfmyOp		op;
	int			first = 0;

	if (!mfmy_read_max_packet(conn, err))
		return false;
	budget = conn->max_packet > MFMY_BULK_OVERHEAD + 4 * (size_t) n ?
		conn->max_packet - MFMY_BULK_OVERHEAD - 4 * (size_t) n : 1;
	if (!mfmy_array_reserve(stmt, nsets < MFMY_ARRAY_MAX_SETS ?
							   nsets : MFMY_ARRAY_MAX_SETS))
	{
		mfmy_oom(conn, MF_STEP_EXECUTE, err);
		return false;
	}

	mfmy_op_start(&op, conn);
	while (first < nsets)
	{
		unsigned int size;
		unsigned int none = 0;
		int			sets = 0;
		int			rc;
		bool		ok = true;

		if (!mfmy_array_fill(stmt, nsets, values, first, budget, &sets, err))
			return false;
		size = (unsigned int) sets;
		if (mysql_stmt_attr_set(stmt->st, STMT_ATTR_ARRAY_SIZE, &size) ||
			mysql_stmt_bind_param(stmt->st, stmt->array.bind))
		{
			mfmy_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
			ok = false;
		}
		else
		{
			conn->wire->bytes_sent +=
				mf_values_bytes(values + (size_t) first * stmt->params.n,
								sets * stmt->params.n);
			rc = mfmy_stmt_execute(&op, stmt->st);
			if (rc != 0)
			{
				mfmy_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
				if (!err->conn_lost)
				{
					long		row = sets == 1 ? 1 :
						mfmy_bulk_row(err->message, sets);

					if (row > 0)
						err->row = first + row;
				}
				ok = false;
			}
			else if (mysql_stmt_field_count(stmt->st) > 0)
			{
				/* rows nobody asked for: drop them */
				if (mfmy_stmt_store(&op, stmt->st) != 0)
				{
					mfmy_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
					mfmy_cache_spoil(stmt->handle);
					ok = false;
				}
				(void) mysql_stmt_free_result(stmt->st);
			}
			else
				*rows_affected += mfmy_rows(conn->my,
											   mysql_stmt_affected_rows(stmt->st));
		}

		/* the one-set path binds afresh and must find no array */
		(void) mysql_stmt_attr_set(stmt->st, STMT_ATTR_ARRAY_SIZE, &none);
		mfmy_array_release(&stmt->array, n, sets);
		if (mfmy_op_interrupted(&op, MF_STEP_EXECUTE, err))
			return false;
		if (!ok)
			return false;
		first += sets;
	}
	return true;
}

/*
 * The statement once for each of nsets sets of values, in as few bulk
 * executions as max_allowed_packet allows.  The server runs the sets of a
 * packet in order and stops at the first that fails; which one it was is
 * known when the packet held one set or the message names its row.
 */
bool
mfmy_execute_array(MfStmt *stmt, int nsets, const char *const *values,
					  long *rows_affected, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	int			n = stmt->params.n;

	*rows_affected = 0;
	if (nsets <= 0)
		return true;
	if (!mfmy_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	if (!conn->bulk || n == 0 || nsets == 1 || values == NULL)
		return mfmy_execute_each(stmt, nsets, values, rows_affected, err);
	if (!mfmy_execute_bulk(stmt, nsets, values, rows_affected, err))
	{
		if (!mfmy_cache_refused(stmt->st))
			mfmy_cache_spoil(stmt->handle);
		return false;
	}
	/* the last packet's: the session keeps no more */
	mfmy_relay_warnings(conn, (unsigned int) mysql_stmt_warning_count(stmt->st));
	return true;
}

/* The handle goes back to the connection's cache, still prepared. */
void
mfmy_stmt_close(MfStmt *stmt)
{
	mfmy_free_stmt(stmt);
}

/* ---------------------------------------------------------------------
 * The connection's list of statements
 * ---------------------------------------------------------------------
 */

void
mfmy_array_free(MfmyArray *a, int nparams)
{
	if (a->owned != NULL)
		for (size_t i = 0; i < (size_t) nparams * (size_t) a->cap; i++)
			free(a->owned[i]);
	free(a->bind);
	free(a->as_number);
	free(a->ind);
	free(a->len);
	free(a->ptr);
	free(a->num);
	free(a->tiny);
	free(a->owned);
	memset(a, 0, sizeof(*a));
}

void
mfmy_free_stmt(MfStmt *stmt)
{
	MfResult   *res = stmt->conn->results;

	/* rows still read through its handle go first */
	while (res != NULL)
	{
		MfResult   *next = res->next;

		if (res->borrowed == stmt)
			mfmy_free_result(res);
		res = next;
	}
	MF_LIST_REMOVE(stmt->conn->stmts, stmt);
	mfmy_cache_give(stmt->conn, stmt->handle);
	mfmy_array_free(&stmt->array, stmt->params.n);
	mfmy_params_free(&stmt->params);
	free(stmt);
}
