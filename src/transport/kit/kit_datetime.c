/*-------------------------------------------------------------------------
 *
 * kit_datetime.c
 *		Dates and timestamps in PostgreSQL's ISO text form, for the
 *		transports: parsing a parameter, writing a fetched value.
 *
 * The core hands transports dates as YYYY-MM-DD and timestamps in ISO
 * form, with timestamptz in UTC (it forces DateStyle ISO and the zone
 * while it prints values); a value it cannot have printed that way (BC,
 * infinity) is refused here, and the transport sends it as text.
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "transport/kit/kit.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool
mf_parse_date(const char *s, MfDateTime *dt, const char **rest)
{
	int			y,
				mo,
				da,
				n = 0;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &da, &n) != 3 || n != 10)
		return false;
	memset(dt, 0, sizeof(*dt));
	dt->year = y;
	dt->month = mo;
	dt->day = da;
	*rest = s + n;
	return true;
}

/* days since 1970-01-01 of a civil date, and back (proleptic Gregorian) */
static long
mf_days_from_civil(long y, long m, long d)
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
mf_civil_from_days(long z, long *y, long *m, long *d)
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

bool
mf_parse_timestamp(const char *s, bool tz, MfDateTime *ts)
{
	MfDateTime	d;
	const char *p;
	int			h,
				mi,
				se,
				n = 0;
	unsigned long frac = 0;
	int			fdigits = 0;
	long		offset = 0;

	if (!mf_parse_date(s, &d, &p))
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
		long		secs = mf_days_from_civil(d.year, d.month, d.day) * 86400L +
			h * 3600L + mi * 60L + se - offset;
		long		days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
		long		rem = secs - days * 86400;
		long		y,
					m,
					dd;

		mf_civil_from_days(days, &y, &m, &dd);
		if (y < 1 || y > 9999)
			return false;
		d.year = (int) y;
		d.month = (int) m;
		d.day = (int) dd;
		h = (int) (rem / 3600);
		mi = (int) (rem % 3600 / 60);
		se = (int) (rem % 60);
	}
	ts->year = d.year;
	ts->month = d.month;
	ts->day = d.day;
	ts->hour = h;
	ts->minute = mi;
	ts->second = se;
	ts->nanos = frac;
	return true;
}

int
mf_format_date(char *buf, size_t cap, const MfDateTime *dt)
{
	return snprintf(buf, cap, "%04d-%02d-%02d", dt->year, dt->month, dt->day);
}

int
mf_format_timestamp_utc(char *buf, size_t cap, const MfDateTime *dt,
						bool trim)
{
	char		frac[16] = "";
	unsigned long usec = dt->nanos / 1000;

	if (usec > 0)
	{
		int			l;

		snprintf(frac, sizeof(frac), ".%06lu", usec);
		l = (int) strlen(frac);
		while (trim && l > 2 && frac[l - 1] == '0')
			frac[--l] = '\0';
	}
	return snprintf(buf, cap, "%04d-%02d-%02d %02d:%02d:%02d%s+00",
					dt->year, dt->month, dt->day, dt->hour, dt->minute,
					dt->second, frac);
}
