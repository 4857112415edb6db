/*-------------------------------------------------------------------------
 *
 * depjoin_int.h
 *		What the dependent join's planning (depjoin.c) and execution
 *		(depjoin_exec.c) share: the plan's private list and the limits.
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DEPJOIN_INT_H
#define MF_DEPJOIN_INT_H

#include "nodes/extensible.h"

/* keys per IN list where the dialect has no arrays (Oracle's limit) */
#define MF_DEPJOIN_LIST		1000

/* custom_private of the plan, by position */
enum MfDepJoinPrivate
{
	MF_DJ_JOINTYPE,				/* JOIN_INNER, _LEFT, _SEMI, _ANTI (Integer) */
	MF_DJ_F_RTI,				/* F's range table index at planning */
	MF_DJ_MIN_RTI,				/* the smallest of custom_relids then */
	MF_DJ_SQL,					/* F's SELECT, its WHERE open for the keys */
	MF_DJ_HAS_WHERE,			/* the SELECT has a WHERE already (Boolean) */
	MF_DJ_KEY_SQL,				/* F's key column, as the remote names it */
	MF_DJ_RETRIEVED,			/* F's attnums the SELECT returns */
	MF_DJ_X_KEY,				/* X's key: its position in X's tlist */
	MF_DJ_F_KEY,				/* F's key: its attnum */
	MF_DJ_KEY_OP,				/* the join's equality operator */
	MF_DJ_MAP,					/* per scan tlist entry: X's column (> 0) or
								 * F's attnum negated */
	MF_DJ_NQUALS,				/* join conditions at the head of
								 * custom_exprs; F's parameters follow */
	MF_DJ_RANGE,				/* the dialect orders the key exactly
								 * (Boolean): the fallback may be a range */
	MF_DJ_FETCH_SIZE,
	MF_DJ_ARRAYS,				/* the keys go as one array (Boolean) */
	MF_DJ_MAX_KEYS				/* F's dependent_join_max_keys, 0: the GUC */
};

/* multi_fdw.dependent_join_max_keys */
extern int	mf_depjoin_max_keys;

/* the plan's methods, whose state depjoin_exec.c makes and runs */
extern CustomScanMethods mf_depjoin_scan_methods;

#endif							/* MF_DEPJOIN_INT_H */
