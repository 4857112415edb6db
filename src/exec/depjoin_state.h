/*-------------------------------------------------------------------------
 *
 * depjoin_state.h
 *		The dependent join's execution state (depjoin_exec.c): X's rows
 *		grouped by key, the batch of keys shipped, F's statement.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DEPJOIN_STATE_H
#define MF_DEPJOIN_STATE_H

#include "exec/exec.h"
#include "nodes/extensible.h"
#include "plan/depjoin_int.h"

/* The rows of X with one key, in a chain; the groups in hash buckets. */
typedef struct MfKeyGroup
{
	Datum		key[MF_DEPJOIN_MAX_COLS];	/* its columns' values */
	uint32		hash;
	int			first_row;		/* index into xrows */
	int			next_group;		/* in the bucket, -1 at the end */
} MfKeyGroup;

typedef enum MfDepJoinPhase
{
	MF_DJ_START,
	MF_DJ_REMOTE,				/* matching rows of F as they come */
	MF_DJ_TAIL,					/* X's rows with (semi) or without (left,
								 * anti) a match */
	MF_DJ_DONE
} MfDepJoinPhase;

typedef struct MfDepJoinState
{
	CustomScanState css;
	PlanState  *child;			/* X */
	JoinType	jointype;
	int			ncols;			/* the key's columns */
	int			x_key[MF_DEPJOIN_MAX_COLS];	/* in X's tuple */
	AttrNumber	f_key[MF_DEPJOIN_MAX_COLS];	/* F's attnums */
	char	   *key_sql[MF_DEPJOIN_MAX_COLS];	/* as the remote names them */
	int		   *map;
	int			nmap;
	List	   *join_quals;		/* ExprStates, on the scan tuple */
	List	   *f_quals;		/* F's own, on the scan tuple of an F row */
	MfPrimer   *primer;			/* their subqueries' scans (read_ahead.c) */
	List	   *param_exprs;	/* F's own parameters */
	int			nparams;
	bool		range_ok;
	int			max_keys;
	int			fetch_size;
	char	   *sql;
	bool		has_where;

	/* the remote side */
	Relation	frel;
	MfConnEntry *entry;
	const MfTransport *tr;
	MfRowReader reader;
	MfHeldRows	held;			/* F's rows read ahead for another's sake */
	TupleTableSlot *fslot;
	TupleTableSlot *xslot;
	MfNodeStats stats;			/* EXPLAIN ANALYZE, the counters (stats.c) */
	FmgrInfo	eq_fn[MF_DEPJOIN_MAX_COLS];
	FmgrInfo	hash_fn[MF_DEPJOIN_MAX_COLS];
	FmgrInfo	key_out[MF_DEPJOIN_MAX_COLS];
	Oid			key_type[MF_DEPJOIN_MAX_COLS];	/* F's */
	Oid			x_type[MF_DEPJOIN_MAX_COLS];	/* X's, another integer type */
	Oid			key_collation[MF_DEPJOIN_MAX_COLS];
	int16		key_len[MF_DEPJOIN_MAX_COLS];
	bool		key_byval[MF_DEPJOIN_MAX_COLS];

	/* X, held */
	MemoryContext xcxt;
	MemoryContext send_cxt;		/* a statement's text and values, until the
								 * next */
	MinimalTuple *xrows;
	int		   *next_row;		/* in its key group, -1 at the end */
	bool	   *matched;
	int			nx;
	int			xcap;
	MfKeyGroup *groups;
	int			ngroups;
	int			gcap;
	int		   *buckets;
	int			nbuckets;
	size_t		xbytes;			/* what the batch holds, as hash joins count */
	bool		x_more;			/* X has rows beyond this batch */

	/* iteration */
	MfDepJoinPhase phase;
	int			stmt_first_key; /* the next statement's first key */
	bool		whole;			/* one statement, without keys */
	bool		ranged;
	MfResult   *res;
	int			res_rows;
	int			res_pos;
	int			cand;			/* the X row to try next for the F row */
	int			tail_pos;

	/* what EXPLAIN ANALYZE reports: sums over rescans, but batches */
	long		keys_shipped;
	long		statements;		/* sent so far, over every scan */
	long		f_rows_removed;	/* rows of F its own conditions removed */
	long		scan_batches;	/* of this scan */
	long		batches;		/* the most of any one scan */
	char	   *strategy;
} MfDepJoinState;

/* depjoin_hash.c: X's rows by key */
extern void mf_depjoin_hold(MfDepJoinState *st, TupleTableSlot *slot);
extern int	mf_depjoin_probe(MfDepJoinState *st);

#endif							/* MF_DEPJOIN_STATE_H */
