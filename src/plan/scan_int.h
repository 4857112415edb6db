/*-------------------------------------------------------------------------
 *
 * scan_int.h
 *		What the planning (scan_plan.c) and the execution (scan.c) of a
 *		foreign scan share: its fdw_private, by position.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCAN_INT_H
#define SCAN_INT_H

/* fdw_private of a ForeignScan, by position */
enum MfScanPrivate
{
	MF_SCAN_SQL,				/* remote SELECT (String) */
	MF_SCAN_RETRIEVED_ATTRS,	/* attnums it returns (List of Integer) */
	MF_SCAN_READ_MODE,			/* how the rows are read (Integer,
								 * MfReadMode: a cursor, or a few in the
								 * query's own exchange) */
	MF_SCAN_FETCH_SIZE,			/* rows per fetch (Integer) */
	MF_SCAN_RELATIONS,			/* a join's or grouping's relations, for
								 * EXPLAIN (join.c); NIL: a table's scan */
	MF_SCAN_SERVER,				/* the server of a whole query (Integer,
								 * an Oid; 0: the first base relation's) */
	MF_SCAN_USER,				/* the user a whole query is read as
								 * (Integer, an Oid; 0: the current user) */
	MF_SCAN_NESTED_SQL,			/* the same SQL for an outer query's
								 * condition to take in, or NULL
								 * (mf_nested_private: the last item,
								 * where the deparser reads it) */
	MF_SCAN_NPRIVATE			/* (their number) */
};

#endif							/* SCAN_INT_H */
