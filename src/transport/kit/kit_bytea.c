/*-------------------------------------------------------------------------
 *
 * kit_bytea.c
 *		bytea's text forms, for the transports: decoding a parameter to
 *		bytes and writing bytes back in hex form.
 *
 * The core hands transports bytea in hex form (it forces bytea_output =
 * hex while it prints values); the escape form is decoded too, so that no
 * transport binds a value it cannot read.
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "transport/kit/kit.h"

#include <string.h>

int
mf_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long
mf_bytea_decode(const char *text, char *out, size_t cap)
{
	const char *s = text;
	size_t		o = 0;

	if (s[0] == '\\' && s[1] == 'x')
	{
		for (s += 2; *s; s++)
		{
			int			hi,
						lo;

			if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
				continue;
			hi = mf_hex_value(s[0]);
			lo = hi < 0 ? -1 : mf_hex_value(s[1]);
			if (lo < 0 || o >= cap)
				return -1;
			out[o++] = (char) (hi * 16 + lo);
			s++;
		}
	}
	else
	{
		while (*s)
		{
			if (o >= cap)
				return -1;
			if (s[0] != '\\')
				out[o++] = *s++;
			else if (s[1] == '\\')
			{
				out[o++] = '\\';
				s += 2;
			}
			else if (s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
					 s[3] >= '0' && s[3] <= '7')
			{
				out[o++] = (char) (((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
								   (s[3] - '0'));
				s += 4;
			}
			else
				return -1;
		}
	}
	return (long) o;
}

void
mf_hex_encode(char *dst, const unsigned char *src, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++)
	{
		*dst++ = digits[src[i] >> 4];
		*dst++ = digits[src[i] & 15];
	}
}
