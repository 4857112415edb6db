/*-------------------------------------------------------------------------
 *
 * odbc_bind.c
 *		The odbc transport's parameters: each bound column-wise, for one set
 *		or a whole parameter array, with the C and SQL types its class asks
 *		for (see docs/odbc.md).
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * server header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "odbc_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------
 * Binding parameters
 * ---------------------------------------------------------------------
 */


void
mfodbc_binds_free(MfodbcBinds *bs)
{
	for (int i = 0; i < bs->n; i++)
	{
		free(bs->b[i].buf);
		free(bs->b[i].ind);
	}
	free(bs->b);
	bs->b = NULL;
	bs->n = 0;
}

/* a date or timestamp parsed by the kit, as ODBC's structs */
static bool
mfodbc_parse_date(const char *s, SQL_DATE_STRUCT *d, const char **rest)
{
	MfDateTime	dt;

	if (!mf_parse_date(s, &dt, rest))
		return false;
	d->year = (SQLSMALLINT) dt.year;
	d->month = (SQLUSMALLINT) dt.month;
	d->day = (SQLUSMALLINT) dt.day;
	return true;
}

static bool
mfodbc_parse_timestamp(const char *s, bool tz, SQL_TIMESTAMP_STRUCT *ts)
{
	MfDateTime	dt;

	if (!mf_parse_timestamp(s, tz, &dt))
		return false;
	ts->year = (SQLSMALLINT) dt.year;
	ts->month = (SQLUSMALLINT) dt.month;
	ts->day = (SQLUSMALLINT) dt.day;
	ts->hour = (SQLUSMALLINT) dt.hour;
	ts->minute = (SQLUSMALLINT) dt.minute;
	ts->second = (SQLUSMALLINT) dt.second;
	ts->fraction = (SQLUINTEGER) dt.nanos;
	return true;
}

static bool
mfodbc_parse_int(const char *s, SQLBIGINT *out)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		return false;
	*out = (SQLBIGINT) v;
	return true;
}

/* precision and scale of a plain decimal number; false for NaN and such */
static bool
mfodbc_decimal_shape(const char *s, int *precision, int *scale)
{
	const char *p = s;
	int			before = 0,
				after = 0;

	if (*p == '-' || *p == '+')
		p++;
	while (*p == '0' && isdigit((unsigned char) p[1]))
		p++;
	while (isdigit((unsigned char) *p))
	{
		before++;
		p++;
	}
	if (*p == '.')
	{
		p++;
		while (isdigit((unsigned char) *p))
		{
			after++;
			p++;
		}
	}
	if (*p != '\0' || before + after == 0)
		return false;
	*precision = before + after;
	*scale = after;
	return true;
}

/* the representation a parameter is bound in */
typedef enum MfodbcRepr
{
	MFODBC_R_WCHAR,
	MFODBC_R_CHAR,				/* ASCII text with an SQL type */
	MFODBC_R_BIGINT,
	MFODBC_R_BIT,
	MFODBC_R_BINARY,
	MFODBC_R_DATE,
	MFODBC_R_TIMESTAMP,
	MFODBC_R_ISO,				/* a date or timestamp as ISO text */
	MFODBC_R_BITS				/* a bit string as the number it spells */
} MfodbcRepr;

/* what every set's value of one parameter allows */
typedef struct MfodbcShape
{
	size_t		maxlen;			/* longest text */
	int			maxprec;		/* numeric: digits and scale that fit all */
	int			maxscale;
	bool		ok;				/* all fit the class's own C type */
} MfodbcShape;

static void
mfodbc_survey(MfTypeClass cls, int nsets, int nparams, int p,
			  const char *const *values, MfodbcShape *sh)
{
	size_t		maxlen = 0;
	int			maxprec = 1,
				maxscale = 0;
	bool		ok = true;

	for (int r = 0; r < nsets; r++)
	{
		const char *v = values[(size_t) r * nparams + p];
		size_t		len;

		if (v == NULL)
			continue;
		len = strlen(v);
		if (len > maxlen)
			maxlen = len;
		switch (cls)
		{
			case MF_TYPE_INT:
				{
					SQLBIGINT	x;

					if (!mfodbc_parse_int(v, &x))
						ok = false;
				}
				break;
			case MF_TYPE_NUMERIC:
				{
					int			pr,
								sc;

					if (!mfodbc_decimal_shape(v, &pr, &sc) || pr > 38)
						ok = false;
					else
					{
						if (pr - sc > maxprec - maxscale)
							maxprec = maxscale + (pr - sc);
						if (sc > maxscale)
						{
							maxprec += sc - maxscale;
							maxscale = sc;
						}
					}
				}
				break;
			case MF_TYPE_DATE:
				{
					SQL_DATE_STRUCT d = {0};
					const char *rest;

					if (!mfodbc_parse_date(v, &d, &rest) || *rest != '\0')
						ok = false;
				}
				break;
			case MF_TYPE_TIMESTAMP:
			case MF_TYPE_TIMESTAMPTZ:
				{
					SQL_TIMESTAMP_STRUCT ts = {0};

					if (!mfodbc_parse_timestamp(v, cls == MF_TYPE_TIMESTAMPTZ, &ts))
						ok = false;
				}
				break;
			case MF_TYPE_BYTES:
				if (v[0] != '\\' || v[1] != 'x' || (len - 2) % 2 != 0)
					ok = false;
				break;
			case MF_TYPE_BITS:
				if (len == 0 || len > 64 || strspn(v, "01") != len)
					ok = false;
				break;
			default:
				break;
		}
	}


	sh->maxlen = maxlen;
	sh->maxprec = maxprec;
	sh->maxscale = maxscale;
	sh->ok = ok;
}

/* the C type and slot width of a representation (mfodbc_choose) */
static void
mfodbc_ctype(MfodbcRepr repr, size_t maxlen, MfodbcBind *b)
{
	switch (repr)
	{
		case MFODBC_R_WCHAR:
			b->ctype = SQL_C_WCHAR;
			b->width = (SQLLEN) ((maxlen + 1) * sizeof(SQLWCHAR));
			break;
		case MFODBC_R_CHAR:
			b->ctype = SQL_C_CHAR;
			b->width = (SQLLEN) (maxlen + 1);
			break;
		case MFODBC_R_BIGINT:
			b->ctype = SQL_C_SBIGINT;
			b->width = sizeof(SQLBIGINT);
			break;
		case MFODBC_R_BIT:
			b->ctype = SQL_C_BIT;
			b->width = 1;
			break;
		case MFODBC_R_BITS:
			b->ctype = SQL_C_UBIGINT;
			b->width = sizeof(SQLUBIGINT);
			break;
		case MFODBC_R_BINARY:
			b->ctype = SQL_C_BINARY;
			b->width = (SQLLEN) (maxlen > 2 ? (maxlen - 2) / 2 : 1);
			break;
		case MFODBC_R_DATE:
			b->ctype = SQL_C_TYPE_DATE;
			b->width = sizeof(SQL_DATE_STRUCT);
			break;
		case MFODBC_R_TIMESTAMP:
			b->ctype = SQL_C_TYPE_TIMESTAMP;
			b->width = sizeof(SQL_TIMESTAMP_STRUCT);
			break;
		case MFODBC_R_ISO:
			b->ctype = SQL_C_CHAR;
			b->width = 32;
			break;
	}
}

/* the C and SQL types of one parameter, from its class and shape */
static MfodbcRepr
mfodbc_choose(MfTypeClass cls, const MfodbcShape *sh, MfodbcDriver driver,
			  MfodbcBind *b)
{
	size_t		maxlen = sh->maxlen;
	int			maxprec = sh->maxprec,
				maxscale = sh->maxscale;
	bool		ok = sh->ok;
	MfodbcRepr	repr;

	switch (cls)
	{
		case MF_TYPE_INT:
			/*
			 * psqlODBC writes every parameter back as text for libpq:
			 * an integer goes to it as the text it already is.
			 */
			repr = (ok && driver != MFODBC_PSQLODBC) ? MFODBC_R_BIGINT : MFODBC_R_CHAR;
			b->sqltype = ok ? SQL_BIGINT : SQL_NUMERIC;
			b->colsize = ok ? 19 : (maxlen > 0 ? maxlen : 1);
			break;
		case MF_TYPE_BOOL:
			repr = MFODBC_R_BIT;
			b->sqltype = SQL_BIT;
			b->colsize = 1;
			break;
		case MF_TYPE_FLOAT:
			repr = MFODBC_R_CHAR;
			b->sqltype = SQL_DOUBLE;
			b->colsize = 15;
			break;
		case MF_TYPE_NUMERIC:
			repr = MFODBC_R_CHAR;
			if (ok)
			{
				b->sqltype = SQL_NUMERIC;
				b->colsize = maxprec;
				b->digits = (SQLSMALLINT) maxscale;
			}
			else
			{
				b->sqltype = SQL_VARCHAR;
				b->colsize = maxlen > 0 ? maxlen : 1;
			}
			break;
		case MF_TYPE_BYTES:
			repr = ok ? MFODBC_R_BINARY : MFODBC_R_WCHAR;
			b->sqltype = ok ? (maxlen / 2 > 8000 ? SQL_LONGVARBINARY : SQL_VARBINARY) :
				SQL_WVARCHAR;
			b->colsize = ok ? (maxlen > 2 ? (maxlen - 2) / 2 : 1) : (maxlen ? maxlen : 1);
			break;
		case MF_TYPE_DATE:
		case MF_TYPE_TIMESTAMP:
		case MF_TYPE_TIMESTAMPTZ:
			if (ok && driver == MFODBC_FREETDS)
			{
				/*
				 * FreeTDS turns a date struct before 1753 into the wrong
				 * day (it counts days differently one way than the other),
				 * so it gets the date as ISO text the server converts.
				 */
				repr = MFODBC_R_ISO;
				b->sqltype = SQL_VARCHAR;
				b->colsize = 26;
			}
			else if (cls == MF_TYPE_DATE)
			{
				repr = ok ? MFODBC_R_DATE : MFODBC_R_CHAR;
				b->sqltype = ok ? SQL_TYPE_DATE : SQL_VARCHAR;
				b->colsize = ok ? 10 : (maxlen ? maxlen : 1);
			}
			else
			{
				repr = ok ? MFODBC_R_TIMESTAMP : MFODBC_R_CHAR;
				b->sqltype = ok ? SQL_TYPE_TIMESTAMP : SQL_VARCHAR;
				b->colsize = ok ? 26 : (maxlen ? maxlen : 1);
				b->digits = ok ? 6 : 0;
			}
			break;
		case MF_TYPE_TIME:

			/*
			 * SQL_TIME_STRUCT has no fraction, and MariaDB's driver
			 * fails without a word on text bound as SQL_TYPE_TIME:
			 * the server converts the text.
			 */
			repr = MFODBC_R_CHAR;
			b->sqltype = SQL_VARCHAR;
			b->colsize = maxlen > 0 ? maxlen : 1;
			break;
		case MF_TYPE_BITS:
			if (ok && driver == MFODBC_MARIADB)
			{
				/*
				 * MariaDB takes text for a BIT(n) column as bytes ('101'
				 * is three bytes, too long for BIT(8)), and a number as
				 * its bits.
				 */
				repr = MFODBC_R_BITS;
				b->sqltype = SQL_BIGINT;
				b->colsize = 20;
				break;
			}
			/* FALLTHROUGH */
		default:

			/*
			 * SQL_WVARCHAR however long: the drivers size it themselves,
			 * except FreeTDS, which declares it nvarchar(4000) and cuts
			 * what is longer; SQL_WLONGVARCHAR is its nvarchar(max).
			 */
			repr = MFODBC_R_WCHAR;
			b->sqltype = (driver == MFODBC_FREETDS && maxlen > 4000) ?
				SQL_WLONGVARCHAR : SQL_WVARCHAR;
			b->colsize = maxlen > 0 ? maxlen : 1;
			break;
	}

	mfodbc_ctype(repr, maxlen, b);
	return repr;
}

/* one value into its slot; *ind gets its length */
static bool
mfodbc_fill(MfodbcRepr repr, MfTypeClass cls, const char *v, char *dst,
			SQLLEN *ind, MfConn *conn, MfStep step, MfError *err)
{
	switch (repr)
	{
		case MFODBC_R_WCHAR:
			{
				SQLLEN		wl = 0;
				SQLWCHAR   *w = mfodbc_to_wide(v, -1, &wl);

				if (w == NULL)
				{
					mfodbc_oom(conn, step, err);
					return false;
				}
				memcpy(dst, w, (size_t) (wl + 1) * sizeof(SQLWCHAR));
				free(w);
				*ind = wl * (SQLLEN) sizeof(SQLWCHAR);
			}
			break;
		case MFODBC_R_CHAR:
			{
				size_t		l = strlen(v);

				memcpy(dst, v, l + 1);
				*ind = (SQLLEN) l;
			}
			break;
		case MFODBC_R_BIGINT:
			{
				SQLBIGINT	x = 0;

				(void) mfodbc_parse_int(v, &x);
				memcpy(dst, &x, sizeof(x));
				*ind = sizeof(x);
			}
			break;
		case MFODBC_R_BITS:
			{
				SQLUBIGINT	x = 0;

				for (const char *c = v; *c; c++)
					x = (x << 1) | (SQLUBIGINT) (*c - '0');
				memcpy(dst, &x, sizeof(x));
				*ind = sizeof(x);
			}
			break;
		case MFODBC_R_BIT:
			*(unsigned char *) dst =
				(v[0] == 't' || v[0] == 'T' || v[0] == '1' ||
				 v[0] == 'y' || v[0] == 'Y' ||
				 strcasecmp(v, "on") == 0) ? 1 : 0;
			*ind = 1;
			break;
		case MFODBC_R_BINARY:
			{
				/* the slot holds what the hex form of v decodes to */
				size_t		n = strlen(v);
				long		l = mf_bytea_decode(v, dst, n > 2 ? (n - 2) / 2 : 0);

				if (l < 0)
				{
					mfodbc_fail(conn, err, step, "22P02",
								"invalid hexadecimal data in a bytea parameter");
					return false;
				}
				*ind = (SQLLEN) l;
			}
			break;
		case MFODBC_R_DATE:
			{
				SQL_DATE_STRUCT d = {0};
				const char *rest;

				(void) mfodbc_parse_date(v, &d, &rest);
				memcpy(dst, &d, sizeof(d));
				*ind = sizeof(d);
			}
			break;
		case MFODBC_R_TIMESTAMP:
			{
				SQL_TIMESTAMP_STRUCT ts = {0};

				(void) mfodbc_parse_timestamp(v, cls == MF_TYPE_TIMESTAMPTZ, &ts);
				memcpy(dst, &ts, sizeof(ts));
				*ind = sizeof(ts);
			}
			break;
		case MFODBC_R_ISO:
			{
				int			l;

				if (cls == MF_TYPE_DATE)
				{
					SQL_DATE_STRUCT d = {0};
					const char *rest;

					(void) mfodbc_parse_date(v, &d, &rest);
					l = snprintf(dst, 32, "%04d-%02u-%02u",
								 d.year, d.month, d.day);
				}
				else
				{
					SQL_TIMESTAMP_STRUCT ts = {0};

					/* a timestamptz comes out in UTC, as with the struct */
					(void) mfodbc_parse_timestamp(v, cls == MF_TYPE_TIMESTAMPTZ, &ts);
					l = snprintf(dst, 32, "%04d-%02u-%02u %02u:%02u:%02u.%06lu",
								 ts.year, ts.month, ts.day, ts.hour,
								 ts.minute, ts.second,
								 (unsigned long) (ts.fraction / 1000));
				}
				*ind = (SQLLEN) l;
			}
			break;
	}
	return true;
}

/*
 * Bind every marker of h for nsets sets of values (values: nsets * nparams,
 * set by set, the p-th value of a set for the p-th marker), column-wise.  Each parameter's class decides its C and SQL
 * types; a value that does not fit them (a date "infinity", a NaN numeric)
 * makes its column travel as text for the whole call.
 */
bool
mfodbc_bind_params(MfStmt *s, int nsets, const char *const *values,
				   MfodbcBinds *bs, MfStep step, MfError *err)
{
	MfConn	   *conn = s->conn;

	conn->wire->bytes_sent += mf_values_bytes(values,
											  nsets * s->nparams);
	bs->n = 0;
	bs->b = calloc(s->nparams > 0 ? s->nparams : 1, sizeof(MfodbcBind));
	if (bs->b == NULL)
	{
		mfodbc_oom(conn, step, err);
		return false;
	}
	bs->n = s->nparams;

	for (int p = 0; p < s->nparams; p++)
	{
		MfodbcBind *b = &bs->b[p];
		MfTypeClass cls;
		MfodbcShape sh;
		MfodbcRepr	repr;

		cls = s->classes ? s->classes[p] : MF_TYPE_TEXT;
		mfodbc_survey(cls, nsets, s->nparams, p, values, &sh);
		repr = mfodbc_choose(cls, &sh, conn->driver, b);

		b->buf = calloc((size_t) nsets, (size_t) b->width);
		b->ind = calloc((size_t) nsets, sizeof(SQLLEN));
		if (b->buf == NULL || b->ind == NULL)
		{
			mfodbc_oom(conn, step, err);
			return false;
		}
		for (int r = 0; r < nsets; r++)
		{
			const char *v = values[(size_t) r * s->nparams + p];

			if (v == NULL)
				b->ind[r] = SQL_NULL_DATA;
			else if (!mfodbc_fill(repr, cls, v, b->buf + (size_t) r * b->width,
								  &b->ind[r], conn, step, err))
				return false;
		}

		if (!SQL_SUCCEEDED(SQLBindParameter(s->h, (SQLUSMALLINT) (p + 1),
											SQL_PARAM_INPUT, b->ctype,
											b->sqltype, b->colsize, b->digits,
											b->buf, b->width, b->ind)))
		{
			mfodbc_stmt_diag(conn, s->h, step, err);
			return false;
		}
	}
	return true;
}
