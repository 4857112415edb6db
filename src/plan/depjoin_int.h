/*-------------------------------------------------------------------------
 *
 * depjoin_int.h
 *		What the dependent join's planning (depjoin.c) and execution
 *		(depjoin_exec.c) share: the plan's private list and the limits.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DEPJOIN_INT_H
#define MF_DEPJOIN_INT_H

#include "nodes/extensible.h"

#include "plan/plan.h"

/*
 * Keys per statement where they go as lists: about a fetch, or where the
 * transport streams any result (no cursor exchanges), ten times that;
 * never more than the dialect's list or the statement's parameters take.
 */
#define MF_DEPJOIN_LIST		1000
#define MF_DEPJOIN_LIST_STREAMED	10000

/* columns of one key: the equalities of the join shipped together */
#define MF_DEPJOIN_MAX_COLS	4

/* custom_private of the dependent join's CustomPath, by position */
enum MfDepJoinPathPrivate
{
	MF_DJP_JOINTYPE,			/* JOIN_INNER, _LEFT, _SEMI, _ANTI (Integer) */
	MF_DJP_F_RELIDS,			/* F's range table indexes (ints): a table's
								 * one, or a join's */
	MF_DJP_KEYS,				/* the key's RestrictInfos, a column each */
	MF_DJP_RESTRICT				/* the join's restrictlist */
};

/* custom_private of the plan, by position */
enum MfDepJoinPrivate
{
	MF_DJ_JOINTYPE,				/* JOIN_INNER, _LEFT, _SEMI, _ANTI (Integer) */
	MF_DJ_F_RTI,				/* F's range table index at planning (of a
								 * join F, its first table's, whose server
								 * and user are all of its tables') */
	MF_DJ_MIN_RTI,				/* the smallest of custom_relids then */
	MF_DJ_SQL,					/* F's SELECT, its WHERE open for the keys */
	MF_DJ_HAS_WHERE,			/* the SELECT has a WHERE already (Boolean) */
	MF_DJ_KEY_SQL,				/* F's key columns, as the remote names
								 * them (Strings) */
	MF_DJ_RETRIEVED,			/* F's attnums the SELECT returns (of a
								 * join F, 1..n of MF_DJ_F_TLIST) */
	MF_DJ_X_KEY,				/* X's key columns: their positions in X's
								 * tlist (ints) */
	MF_DJ_F_KEY,				/* F's key columns: their attnums (ints), or
								 * positions in MF_DJ_F_TLIST */
	MF_DJ_KEY_OP,				/* F's equality per column (Oids): the
								 * join's, or F's type's for integers of
								 * two types */
	MF_DJ_X_TYPE,				/* X's type per column (Oids) */
	MF_DJ_KEY_COLL,				/* the join's collation per column (Oids):
								 * deterministic or none */
	MF_DJ_MAP,					/* per scan tlist entry: X's column (> 0) or
								 * F's attnum negated */
	MF_DJ_NQUALS,				/* join conditions at the head of
								 * custom_exprs, the keys' equalities
								 * (MF_DJ_NKEY_QUALS of them) first; F's
								 * own conditions (MF_DJ_NF_QUALS of them)
								 * and F's parameters follow */
	MF_DJ_NKEY_QUALS,
	MF_DJ_NF_QUALS,				/* F's conditions checked here */
	MF_DJ_RANGE,				/* the dialect orders the key exactly
								 * (Boolean): the fallback may be a range */
	MF_DJ_FETCH_SIZE,
	MF_DJ_ARRAYS,				/* the keys go as arrays (Boolean) */
	MF_DJ_ROW_IN,				/* (a, b) IN ((..), ..) (Boolean) */
	MF_DJ_MAX_KEYS,				/* F's dependent_join_max_keys, 0: the GUC;
								 * -n: the least of n and the GUC */
	MF_DJ_F_TLIST,				/* a join F's columns (TargetEntries), the
								 * tuple its rows are read into; NIL: F is
								 * a table, read into its own tuple */
	MF_DJ_NPRIVATE				/* (their number) */
};

/* The key: the join's equalities of a column of F and one of X. */
typedef struct MfDepJoinKey
{
	int			ncols;
	RestrictInfo *ri[MF_DEPJOIN_MAX_COLS];
	List	   *fvars;			/* F's columns */
	List	   *xvars;			/* X's columns */
} MfDepJoinKey;

/* depjoin_cost.c */
extern void mf_depjoin_cost(PlannerInfo *root, CustomPath *cpath,
							RelOptInfo *frel, Path *xpath, MfDepJoinKey *key,
							double joinrows);
extern double mf_depjoin_table_distinct(PlannerInfo *root, RelOptInfo *frel,
										List *fvars);
extern int	mf_next_table(PlannerInfo *root, Relids relids, int r);
extern int	mf_depjoin_f_max_keys(PlannerInfo *root, RelOptInfo *frel);

/* keys one statement takes where they go as lists (not arrays) */
extern int	mf_depjoin_keys_per_statement(const MfDialect *dialect,
										  const MfTransport *transport,
										  int ncols, int nparams);

/* the join type as EXPLAIN names it */
extern const char *mf_join_type_name(JoinType jointype);

/* multi_fdw.dependent_join_max_keys */
extern int	mf_depjoin_max_keys;

/* the name its executor registers its CustomScanMethods by (depjoin_exec.c) */
#define MF_DEPJOIN_SCAN_NAME	"multi_fdw dependent join"

#endif							/* MF_DEPJOIN_INT_H */
