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

/* Parse "YYYY-MM-DD"; false for anything else (BC, infinity). */
static bool
mfodbc_parse_date(const char *s, SQL_DATE_STRUCT *d, const char **rest)
{
	int			y,
				mo,
				da,
				n = 0;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &da, &n) != 3 || n != 10)
		return false;
	d->year = (SQLSMALLINT) y;
	d->month = (SQLUSMALLINT) mo;
	d->day = (SQLUSMALLINT) da;
	*rest = s + n;
	return true;
}

/* days since 1970-01-01 of a civil date, and back (proleptic Gregorian) */
static long
mfodbc_days(long y, long m, long d)
{
	long		era,
				yoe,
				doy,
				doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void
mfodbc_civil(long z, long *y, long *m, long *d)
{
	long		era,
				doe,
				yoe,
				doy,
				mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp + (mp < 10 ? 3 : -9);
	*y = yoe + era * 400 + (*m <= 2);
}

/*
 * Parse "YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM[:SS]]]" into a timestamp in
 * UTC (the remote session's zone) when tz; false for other forms.
 */
static bool
mfodbc_parse_timestamp(const char *s, bool tz, SQL_TIMESTAMP_STRUCT *ts)
{
	SQL_DATE_STRUCT d;
	const char *p;
	int			h,
				mi,
				se,
				n = 0;
	unsigned long frac = 0;
	int			fdigits = 0;
	long		offset = 0;

	if (!mfodbc_parse_date(s, &d, &p))
		return false;
	if (*p != ' ' && *p != 'T')
		return false;
	p++;
	if (sscanf(p, "%2d:%2d:%2d%n", &h, &mi, &se, &n) != 3 || n != 8)
		return false;
	p += n;
	if (*p == '.')
	{
		p++;
		while (isdigit((unsigned char) *p))
		{
			if (fdigits < 9)
			{
				frac = frac * 10 + (*p - '0');
				fdigits++;
			}
			p++;
		}
	}
	while (fdigits < 9)
	{
		frac *= 10;
		fdigits++;
	}
	if (*p == '+' || *p == '-')
	{
		int			sign = *p == '-' ? -1 : 1;
		int			oh = 0,
					om = 0,
					os = 0;

		p++;
		if (sscanf(p, "%2d%n", &oh, &n) != 1)
			return false;
		p += n;
		if (*p == ':')
		{
			if (sscanf(p + 1, "%2d%n", &om, &n) != 1)
				return false;
			p += 1 + n;
			if (*p == ':')
			{
				if (sscanf(p + 1, "%2d%n", &os, &n) != 1)
					return false;
				p += 1 + n;
			}
		}
		offset = sign * (oh * 3600L + om * 60L + os);
	}
	if (*p != '\0')
		return false;
	if (!tz)
		offset = 0;
	if (offset != 0)
	{
		long		secs = mfodbc_days(d.year, d.month, d.day) * 86400L +
			h * 3600L + mi * 60L + se - offset;
		long		days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
		long		rem = secs - days * 86400;
		long		y,
					m,
					dd;

		mfodbc_civil(days, &y, &m, &dd);
		if (y < 1 || y > 9999)
			return false;
		d.year = (SQLSMALLINT) y;
		d.month = (SQLUSMALLINT) m;
		d.day = (SQLUSMALLINT) dd;
		h = (int) (rem / 3600);
		mi = (int) (rem % 3600 / 60);
		se = (int) (rem % 60);
	}
	ts->year = d.year;
	ts->month = d.month;
	ts->day = d.day;
	ts->hour = (SQLUSMALLINT) h;
	ts->minute = (SQLUSMALLINT) mi;
	ts->second = (SQLUSMALLINT) se;
	ts->fraction = (SQLUINTEGER) frac;
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
					SQL_DATE_STRUCT d;
					const char *rest;

					if (!mfodbc_parse_date(v, &d, &rest) || *rest != '\0')
						ok = false;
				}
				break;
			case MF_TYPE_TIMESTAMP:
			case MF_TYPE_TIMESTAMPTZ:
				{
					SQL_TIMESTAMP_STRUCT ts;

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
				size_t		l = (strlen(v) - 2) / 2;

				for (size_t i = 0; i < l; i++)
				{
					int			hi = mf_hex_value(v[2 + 2 * i]);
					int			lo = mf_hex_value(v[3 + 2 * i]);

					if (hi < 0 || lo < 0)
					{
						mfodbc_fail(conn, err, step, "22P02",
									"invalid hexadecimal data in a bytea parameter");
						return false;
					}
					dst[i] = (char) (hi * 16 + lo);
				}
				*ind = (SQLLEN) l;
			}
			break;
		case MFODBC_R_DATE:
			{
				SQL_DATE_STRUCT d;
				const char *rest;

				(void) mfodbc_parse_date(v, &d, &rest);
				memcpy(dst, &d, sizeof(d));
				*ind = sizeof(d);
			}
			break;
		case MFODBC_R_TIMESTAMP:
			{
				SQL_TIMESTAMP_STRUCT ts;

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
					SQL_DATE_STRUCT d;
					const char *rest;

					(void) mfodbc_parse_date(v, &d, &rest);
					l = snprintf(dst, 32, "%04d-%02u-%02u",
								 d.year, d.month, d.day);
				}
				else
				{
					SQL_TIMESTAMP_STRUCT ts;

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
 * set by set), column-wise.  Each parameter's class decides its C and SQL
 * types; a value that does not fit them (a date "infinity", a NaN numeric)
 * makes its column travel as text for the whole call.
 */
bool
mfodbc_bind_params(MfStmt *s, int nsets, const char *const *values,
				   MfodbcBinds *bs, MfStep step, MfError *err)
{
	MfConn	   *conn = s->conn;

	bs->n = 0;
	bs->b = calloc(s->nmarkers > 0 ? s->nmarkers : 1, sizeof(MfodbcBind));
	if (bs->b == NULL)
	{
		mfodbc_oom(conn, step, err);
		return false;
	}
	bs->n = s->nmarkers;

	for (int m = 0; m < s->nmarkers; m++)
	{
		MfodbcBind *b = &bs->b[m];
		int			p = s->map ? s->map[m] : m;
		MfTypeClass cls;
		MfodbcShape sh;
		MfodbcRepr	repr;

		if (p < 0 || p >= s->nparams)
		{
			mfodbc_fail(conn, err, step, "07002",
						"a placeholder of the statement has no parameter");
			return false;
		}
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

		if (!SQL_SUCCEEDED(SQLBindParameter(s->h, (SQLUSMALLINT) (m + 1),
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
