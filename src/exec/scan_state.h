/*-------------------------------------------------------------------------
 *
 * scan_state.h
 *		A foreign scan's execution state, shared by scan.c (reading) and
 *		read_ahead.c (rows read ahead for a subquery's or a loop's values).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_SCAN_STATE_H
#define MF_SCAN_STATE_H

#include "exec/exec.h"

typedef struct MfScanState
{
	MfConnEntry *entry;
	const MfTransport *tr;
	char	   *sql;
	int			fetch_size;
	MfRead		open_read;		/* how the query is read (transport.h) */
	MfResult   *result;			/* NULL until the first row is wanted */
	MfResult   *rescan_result;	/* a rescan's old result, closed when the
								 * new query opens */
	int			nrows;			/* rows of the current fetch */
	int			next_row;
	bool		eof;

	/* reading ahead: the next batch is asked for before this one is used */
	bool		read_ahead;		/* the transport can */
	bool		request_out;	/* asked for, answer not read yet */
	bool		ahead_ready;	/* answer read, waiting in the transport */
	int			next_fetch;		/* rows to ask for next time */

	/* parameters computed here and sent with the query */
	List	   *param_exprs;
	FmgrInfo   *param_flinfo;
	bool		params_need_modes;	/* their output depends on settings */
	const char **param_values;
	Datum	   *param_datums;
	bool	   *param_nulls;
	MfTypeClass *param_classes;
	Oid		   *param_types;
	int			nparams;

	/* rescans answered from rows kept by their parameters (scan_memo.c) */
	bool		memo_ok;		/* nothing forbids it */
	int			rescans;
	MfScanMemo *memo;			/* NULL until the first rescan */
	bool		replay;			/* this rescan's rows come from memo */

	/* rows read for many values at once, before rescans ask (read_ahead.c) */
	char	   *keyed_sql;		/* NULL until the first priming */
	Oid		   *array_types;
	long		primed;			/* sets of values read so */
	long		prime_statements;
	bool		prime_off;		/* one failed, or ran out of room: no more */
	MfPrimer   *primer;			/* the scan's own conditions' subqueries,
								 * read ahead for each batch */

	MfRowReader reader;
	MfHeldRows	held;			/* rows read ahead for another's sake */
	MfNodeStats stats;			/* EXPLAIN ANALYZE, progress (stats.c) */
} MfScanState;

extern void mf_scan_primer_init(ForeignScanState *node);
extern void mf_scan_prime_batch(MfScanState *st);

#endif							/* MF_SCAN_STATE_H */
