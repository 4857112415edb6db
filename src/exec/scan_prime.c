/*-------------------------------------------------------------------------
 *
 * scan_prime.c
 *		A correlated subquery's scan read for many outer rows' values in one
 *		statement, before the subquery asks: the rows go into the scan's
 *		kept rows (scan_memo.c), where each rescan then finds them.
 *
 * A correlated subquery over a foreign table of one server, in a local
 * condition of a node reading another server's rows (TPC-H's Q20: for
 * each partsupp row of a MariaDB, half the sum of its lineitem rows on a
 * PostgreSQL), runs one remote statement per outer row: 760 statements,
 * each a round trip, where the outer node already holds the rows whose
 * values they will take.  That node (subplan_prime.c) hands the values of
 * the rows it has just read to mf_scan_prime, which reads the answers for
 * all the sets of values not yet kept in one statement of the dialect's
 * keyed form (deparse_keys.c, mf_deparse_keyed): the scan's own nested
 * form run once per set, each answer beside the set's number.  Each
 * answer is the scan's own statement's for those values, since it is
 * that statement, in the same remote transaction.
 *
 * A set of values that no rescan asks for after all costs remote work, no
 * wrong answer: an answer is only ever used for the values it was read
 * for.  The rules of the kept rows hold: hash_mem bounds them, and a
 * change through the gateway (the remote data epoch) drops them.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "foreign/fdwapi.h"
#include "nodes/nodeFuncs.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "deparse/deparse.h"
#include "exec/exec.h"
#include "exec/scan_state.h"

/* sets of values in one statement, at most */
#define MF_PRIME_MAX_SETS	1000

/*
 * Is ps one of our scans that a SubPlan setting par_params may prime from
 * a node reading through outer_entry?  Where it is, param_index[i] (of
 * nparams) is the position in par_params of the scan's parameter i.  Only
 * a scan whose every parameter is one of the SubPlan's, whose rows may be
 * kept, whose dialect has the keyed form and whose nested form promises
 * no order; on another connection than the outer node's, whose rows it
 * may be reading (the keyed statement would have them read into memory).
 */
bool
mf_scan_primable(PlanState *ps, List *par_params, MfConnEntry *outer_entry,
				 int **param_index, int *nparams)
{
	ForeignScanState *node;
	ForeignScan *fsplan;
	MfScanState *st;
	ListCell   *lc;
	int			i = 0;

	if (!IsA(ps, ForeignScanState))
		return false;
	node = (ForeignScanState *) ps;
	if (node->fdwroutine == NULL ||
		node->fdwroutine->IterateForeignScan != mfIterateForeignScan ||
		node->fdw_state == NULL)
		return false;
	st = node->fdw_state;
	fsplan = (ForeignScan *) ps->plan;
	if (!st->memo_ok || st->nparams == 0 || st->entry == outer_entry ||
		!mf_conn_dialect(st->entry)->keyed_rescans ||
		!mf_scan_nested_keyable(fsplan))
		return false;
	*param_index = palloc(sizeof(int) * st->nparams);
	foreach(lc, fsplan->fdw_exprs)
	{
		Param	   *p = lfirst(lc);
		int			pos = -1;
		ListCell   *pc;

		if (!IsA(p, Param) || p->paramkind != PARAM_EXEC ||
			!OidIsValid(get_array_type(p->paramtype)))
			return false;
		foreach(pc, par_params)
			if (lfirst_int(pc) == p->paramid)
				pos = foreach_current_index(pc);
		if (pos < 0)
			return false;
		(*param_index)[i++] = pos;
	}
	*nparams = st->nparams;
	return true;
}

/* One array's text: the sets' values of parameter param, quoted. */
static const char *
mf_prime_array(const char **values, int nparams, int param, const int *sets,
			   int nsets)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int s = 0; s < nsets; s++)
	{
		const char *v = values[sets[s] * nparams + param];

		if (s > 0)
			appendStringInfoChar(&buf, ',');
		if (v == NULL)
		{
			appendStringInfoString(&buf, "NULL");
			continue;
		}
		appendStringInfoChar(&buf, '"');
		for (; *v != '\0'; v++)
		{
			if (*v == '"' || *v == '\\')
				appendStringInfoChar(&buf, '\\');
			appendStringInfoChar(&buf, *v);
		}
		appendStringInfoChar(&buf, '"');
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/*
 * Read the answers of sets (entries: theirs to fill) in one statement,
 * inside a remote savepoint (remote/savepoint_guard.c): a value of the
 * batch may be one the query never asks the subquery for, and the
 * subquery may fail for it where no rescan would have run.  On failure
 * the sets' entries go, the transaction is back where it was, and the
 * scan reads ahead no more: each rescan then reads for itself, and fails
 * if and where the query would.  false then.
 */
static bool
mf_prime_run(ForeignScanState *node, MfScanState *st, const char **values,
			 const int *sets, MfMemoEntry **entries, int nsets)
{
	const char **arrays = palloc(sizeof(char *) * st->nparams);
	MfTypeClass *classes = palloc(sizeof(MfTypeClass) * st->nparams);
	int			ncols = list_length(st->reader.retrieved_attrs);
	const char **row = palloc(sizeof(char *) * Max(ncols, 1));
	MfResult   *res;
	MfError		err;
	int			n = 0;
	int			kept = 0;
	bool		no_room = false;

	for (int i = 0; i < st->nparams; i++)
	{
		arrays[i] = mf_prime_array(values, st->nparams, i, sets, nsets);
		classes[i] = MF_TYPE_TEXT;
	}
	mf_stats_node_use(&st->stats);
	/* whoever reads on this link (this scan's rows too) reads to the end */
	mf_claim_connection(st->entry, &st->keyed_sql);
	if (!mf_guard_begin(st->entry))
	{
		st->prime_off = true;
		for (int s = 0; s < nsets; s++)
			mf_memo_prime_end(st->memo, entries[s], false);
		return false;
	}
	mf_stats_count(st->entry, MF_C_STATEMENTS, 1);
	st->prime_statements++;
	mf_error_clear(&err);
	res = st->tr->query(mf_conn(st->entry), st->keyed_sql, st->nparams,
						arrays, classes, mf_read(MF_READ_FEW, st->fetch_size),
						&err);
	while (res != NULL && (n = st->tr->fetch(res, &err)) > 0)
	{
		for (int r = 0; r < n; r++)
		{
			const char *num = st->tr->value(res, r, 0);
			long		k = num != NULL ? strtol(num, NULL, 10) : 0;

			if (k < 1 || k > nsets)
			{
				st->tr->result_close(res);
				elog(ERROR, "a keyed statement's row names set %s of %d",
					 num != NULL ? num : "NULL", nsets);
			}
			if (entries[k - 1] == NULL)
				continue;		/* no room for this set's rows */
			for (int c = 0; c < ncols; c++)
				row[c] = st->tr->value(res, r, c + 1);
			if (!mf_memo_prime_row(st->memo, entries[k - 1], row))
			{
				entries[k - 1] = NULL;
				no_room = true;
			}
		}
		CHECK_FOR_INTERRUPTS();
	}
	if (res != NULL)
		st->tr->result_close(res);
	mf_stats_node_publish(&st->stats);
	if (res == NULL || n < 0)
	{
		/* the remote's error is dropped: a rescan meets it if it must */
		mf_guard_end(st->entry, true);
		st->prime_off = true;
		for (int s = 0; s < nsets; s++)
			if (entries[s] != NULL)
				mf_memo_prime_end(st->memo, entries[s], false);
		return false;
	}
	mf_guard_end(st->entry, false);
	for (int s = 0; s < nsets; s++)
		if (entries[s] != NULL)
		{
			mf_memo_prime_end(st->memo, entries[s], true);
			kept++;
		}
	st->primed += kept;
	/* past hash_mem: what is read ahead would be read twice */
	if (no_room)
		st->prime_off = true;
	return true;
}

/*
 * Read the answers for nsets sets of values (nsets * the scan's nparams
 * texts, as the scan's own statement would send them; NULL for NULL) that
 * are not kept yet, into the kept rows.
 */
void
mf_scan_prime(ForeignScanState *node, int nsets, const char **values)
{
	MfScanState *st = node->fdw_state;
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;
	MemoryContext cxt;
	MemoryContext old;
	int		   *sets;
	MfMemoEntry **entries;
	int			n = 0;

	if (!st->memo_ok || st->prime_off)
		return;
	if (st->memo == NULL)
		st->memo = mf_memo_create(node->ss.ps.state->es_query_cxt,
								  list_length(st->reader.retrieved_attrs));
	if (st->keyed_sql == NULL)
	{
		int			ncols;
		const char *nested = mf_scan_nested_sql(fsplan, &ncols);
		MemoryContext q = MemoryContextSwitchTo(node->ss.ps.state->es_query_cxt);

		st->array_types = palloc(sizeof(Oid) * st->nparams);
		for (int i = 0; i < st->nparams; i++)
			st->array_types[i] = get_array_type(st->param_types[i]);
		st->keyed_sql = mf_deparse_keyed(nested, mf_conn_dialect(st->entry),
										 st->tr->markers, st->array_types,
										 st->nparams);
		MemoryContextSwitchTo(q);
		if (st->keyed_sql == NULL)
		{
			st->memo_ok = false;	/* malformed: never again */
			return;
		}
	}

	cxt = AllocSetContextCreate(CurrentMemoryContext, "multi_fdw priming",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	sets = palloc(sizeof(int) * Min(nsets, MF_PRIME_MAX_SETS));
	entries = palloc(sizeof(MfMemoEntry *) * Min(nsets, MF_PRIME_MAX_SETS));
	for (int s = 0; s < nsets; s++)
	{
		const char **set = values + s * st->nparams;
		MfMemoEntry *e;

		for (int i = 0; i < st->nparams; i++)
			mf_check_param_value(mf_conn_dialect(st->entry),
								 mf_conn_server_name(st->entry),
								 st->param_types[i], set[i]);
		/* NULL: kept (or being read: a repeat of this batch) or no room */
		e = mf_memo_prime_entry(st->memo, st->nparams, set);
		if (e == NULL)
			continue;
		sets[n] = s;
		entries[n++] = e;
		if (n == MF_PRIME_MAX_SETS)
		{
			if (!mf_prime_run(node, st, values, sets, entries, n) ||
				st->prime_off)
				break;
			n = 0;
		}
	}
	if (n > 0 && !st->prime_off)
		mf_prime_run(node, st, values, sets, entries, n);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

/* ---------------------------------------------------------------------
 * The scan as the outer node: its local conditions' subqueries
 * ---------------------------------------------------------------------
 */

/* The column of the scan's remote rows a Var of its conditions reads. */
static int
mf_scan_var_column(Var *var, void *arg)
{
	ForeignScanState *node = arg;
	MfScanState *st = node->fdw_state;
	Index		scanrelid = ((ForeignScan *) node->ss.ps.plan)->scan.scanrelid;
	ListCell   *lc;

	if (var->varno != (scanrelid > 0 ? (int) scanrelid : INDEX_VAR) ||
		var->varattno < 1 || var->varlevelsup != 0)
		return -1;
	foreach(lc, st->reader.retrieved_attrs)
		if (lfirst_int(lc) == var->varattno)
			return foreach_current_index(lc);
	return -1;
}

/* Row r of the scan's current batch, column col, as text. */
static const char *
mf_scan_row_value(void *arg, int row, int col)
{
	MfScanState *st = arg;

	return mf_held_value(&st->held, st->tr, st->result, row, col);
}

/* The scan's primer, where its local conditions have subqueries to prime. */
void
mf_scan_primer_init(ForeignScanState *node)
{
	MfScanState *st = node->fdw_state;

	if (node->ss.ps.plan->qual != NIL && node->ss.ps.subPlan != NIL)
		st->primer = mf_primer_create(&node->ss.ps, node->ss.ps.plan->qual,
									  st->entry, mf_scan_var_column, node);
}

/*
 * A nested loop's outer side, if it is one of our scans: the inner side's
 * scans that take the loop's parameters (par_params, set from args: the
 * outer scan's output expressions) are read ahead for its batches.
 */
void
mf_scan_prime_inner(PlanState *outer, PlanState *inner, List *par_params,
					List *args)
{
	ForeignScanState *node;
	MfScanState *st;

	if (!IsA(outer, ForeignScanState))
		return;
	node = (ForeignScanState *) outer;
	if (node->fdwroutine == NULL ||
		node->fdwroutine->IterateForeignScan != mfIterateForeignScan ||
		node->fdw_state == NULL || outer->plan->async_capable)
		return;
	st = node->fdw_state;
	mf_primer_add_inner(&st->primer, outer, inner, par_params, args,
						st->entry, mf_scan_var_column, node);
}

/* A batch of the scan's rows has come: their subqueries' values. */
void
mf_scan_prime_batch(MfScanState *st)
{
	if (st->primer != NULL && !st->replay && st->nrows - st->next_row >= 2)
		mf_primer_prime(st->primer, mf_scan_row_value, st, st->next_row,
						st->nrows);
}
