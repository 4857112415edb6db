/*-------------------------------------------------------------------------
 *
 * kit_wire.c
 *		What crossed the wire, counted for the core's statistics: the sink a
 *		connection counts into until the core gives it its own, the bytes of
 *		values sent and of rows received.
 *
 * This file sits on the transport side of the wall (see transport.h): it
 * includes no PostgreSQL header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "transport/kit/kit.h"

#include <string.h>

MfWireStats mf_wire_sink;

unsigned long long
mf_values_bytes(const char *const *values, int n)
{
	unsigned long long bytes = 0;

	for (int i = 0; i < n; i++)
		if (values[i] != NULL)
			bytes += strlen(values[i]);
	return bytes;
}

void
mf_wire_count_rows(MfWireStats *wire, MfResult *res, int nrows, int ncols,
				   MfValueFn value)
{
	unsigned long long bytes = 0;

	if (nrows <= 0)
		return;
	for (int r = 0; r < nrows; r++)
		for (int c = 0; c < ncols; c++)
		{
			const char *v = value(res, r, c);

			if (v != NULL)
				bytes += strlen(v);
		}
	wire->rows_received += (unsigned long long) nrows;
	wire->bytes_received += bytes;
}
