/*-------------------------------------------------------------------------
 *
 * depjoin_exec.c
 *		The dependent join at run time: X held a batch at a time, its keys
 *		sent to F's server, F's rows matched as they come (depjoin.c plans
 *		it and says why).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "common/hashfn.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/typcache.h"

#include "exec/exec.h"
#include "exec/depjoin_state.h"

/* ---------------------------------------------------------------------
 * Execution
 * ---------------------------------------------------------------------
 */

/* MfKeyGroup and MfDepJoinState: depjoin_int.h */

static Node *mf_depjoin_create_state(CustomScan *cscan);
static void mf_depjoin_next_batch(MfDepJoinState *st);

/* The column of F's remote rows a Var of F's conditions reads, or -1. */
static int
mf_depjoin_f_column(Var *var, void *arg)
{
	MfDepJoinState *st = arg;

	if (var->varno != INDEX_VAR || var->varattno < 1 ||
		var->varattno > st->nmap || st->map[var->varattno - 1] > 0)
		return -1;
	return mf_attr_position(st->reader.retrieved_attrs,
							-st->map[var->varattno - 1]);
}

/* Row r of F's current batch, column col, as text. */
static const char *
mf_depjoin_f_value(void *arg, int row, int col)
{
	MfDepJoinState *st = arg;

	return mf_held_value(&st->held, st->tr, st->res, row, col);
}

static void
mf_depjoin_begin(CustomScanState *node, EState *estate, int eflags)
{
	MfDepJoinState *st = (MfDepJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *priv = cscan->custom_private;
	int			nquals = intVal(list_nth(priv, MF_DJ_NQUALS));
	int			nf_quals = intVal(list_nth(priv, MF_DJ_NF_QUALS));
	Index		frti = intVal(list_nth(priv, MF_DJ_F_RTI)) +
		bms_next_member(cscan->custom_relids, -1) -
		intVal(list_nth(priv, MF_DJ_MIN_RTI));
	RangeTblEntry *rte = exec_rt_fetch(frti, estate);
	List	   *ops = list_nth(priv, MF_DJ_KEY_OP);
	ListCell   *lc;
	List	   *map = list_nth(priv, MF_DJ_MAP);
	List	   *f_tlist = list_nth(priv, MF_DJ_F_TLIST);
	TupleDesc	fdesc;
	int			i = 0;

	st->jointype = intVal(list_nth(priv, MF_DJ_JOINTYPE));
	st->ncols = list_length(ops);
	Assert(st->ncols >= 1 && st->ncols <= MF_DEPJOIN_MAX_COLS);
	for (int c = 0; c < st->ncols; c++)
	{
		st->x_key[c] = list_nth_int(list_nth(priv, MF_DJ_X_KEY), c);
		st->f_key[c] = list_nth_int(list_nth(priv, MF_DJ_F_KEY), c);
		st->key_sql[c] = strVal(list_nth(list_nth(priv, MF_DJ_KEY_SQL), c));
		st->x_type[c] = list_nth_oid(list_nth(priv, MF_DJ_X_TYPE), c);
	}
	st->sql = strVal(list_nth(priv, MF_DJ_SQL));
	st->has_where = boolVal(list_nth(priv, MF_DJ_HAS_WHERE));
	st->range_ok = boolVal(list_nth(priv, MF_DJ_RANGE));
	st->fetch_size = intVal(list_nth(priv, MF_DJ_FETCH_SIZE));
	st->max_keys = intVal(list_nth(priv, MF_DJ_MAX_KEYS));
	/* 0: the GUC's; negative: a join's tables' least and the GUC's */
	if (st->max_keys <= 0)
		st->max_keys = st->max_keys == 0 ? mf_depjoin_max_keys :
			Min(-st->max_keys, mf_depjoin_max_keys);
	st->nmap = list_length(map);
	st->map = palloc(sizeof(int) * Max(st->nmap, 1));
	foreach(lc, map)
		st->map[i++] = lfirst_int(lc);

	i = 0;
	foreach(lc, cscan->custom_exprs)
	{
		ExprState  *es = ExecInitExpr(lfirst(lc), &node->ss.ps);

		if (i < nquals)
			st->join_quals = lappend(st->join_quals, es);
		else if (i < nquals + nf_quals)
			st->f_quals = lappend(st->f_quals, es);
		else
			st->param_exprs = lappend(st->param_exprs, es);
		i++;
	}
	st->nparams = list_length(st->param_exprs);

	st->child = ExecInitNode(linitial(cscan->custom_plans), estate, eflags);
	node->custom_ps = list_make1(st->child);
	st->xslot = MakeSingleTupleTableSlot(ExecGetResultType(st->child),
										 &TTSOpsMinimalTuple);
	st->phase = MF_DJ_START;
	st->strategy = "keys";

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;

	/* F's rows: a table's, or a join's of the columns it returns */
	if (f_tlist == NIL)
	{
		st->frel = table_open(rte->relid, AccessShareLock);
		fdesc = RelationGetDescr(st->frel);
	}
	else
		fdesc = ExecTypeFromTL(f_tlist);
	st->fslot = MakeSingleTupleTableSlot(fdesc, &TTSOpsHeapTuple);
	mf_row_reader_init(&st->reader, fdesc, list_nth(priv, MF_DJ_RETRIEVED),
					   estate->es_query_cxt);
	mf_held_init(&st->held, estate->es_query_cxt);
	st->reader.held = &st->held;
	{
		MfOptions	opts;
		Oid			userid = mf_exec_rte_userid(estate, rte);

		mf_get_table_options(rte->relid, &opts);
		st->entry = mf_get_connection(GetUserMapping(userid, opts.serverid),
									  &opts);
		st->tr = mf_conn_transport(st->entry);
	}
	mf_stats_node_begin(&st->stats, st->entry, st->frel, CMD_SELECT);

	for (int c = 0; c < st->ncols; c++)
	{
		Form_pg_attribute att = TupleDescAttr(fdesc, st->f_key[c] - 1);
		Oid			opno = list_nth_oid(ops, c);
		Oid			lhash;
		Oid			rhash;
		Oid			typoutput;
		bool		isvarlena;

		st->key_type[c] = att->atttypid;
		st->key_collation[c] = list_nth_oid(list_nth(priv, MF_DJ_KEY_COLL), c);
		get_typlenbyval(att->atttypid, &st->key_len[c], &st->key_byval[c]);
		fmgr_info(get_opcode(opno), &st->eq_fn[c]);
		if (!get_op_hash_functions(opno, &lhash, &rhash))
			elog(ERROR, "the dependent join's equality has no hash function");
		fmgr_info(lhash, &st->hash_fn[c]);
		getTypeOutputInfo(att->atttypid, &typoutput, &isvarlena);
		fmgr_info(typoutput, &st->key_out[c]);
	}
	st->xcxt = AllocSetContextCreate(estate->es_query_cxt,
									 "multi_fdw dependent join",
									 ALLOCSET_DEFAULT_SIZES);
	st->send_cxt = AllocSetContextCreate(estate->es_query_cxt,
										 "multi_fdw dependent join statement",
										 ALLOCSET_DEFAULT_SIZES);
	/* F's conditions' subqueries, read ahead for each batch of F's rows */
	if (nf_quals > 0)
		st->primer = mf_primer_create(&node->ss.ps,
									  list_copy_head(list_copy_tail(cscan->custom_exprs,
																	nquals),
													 nf_quals),
									  st->entry, mf_depjoin_f_column, st);
}

/*
 * The bytes a request of sql and its values 0 .. n - 1 counts against the
 * remote's cap, as transport.h's max_packet says: its text and its values
 * together, so that the prepare and the execute both fit.
 */
static size_t
mf_depjoin_values_bytes(const char **values, int from, int to)
{
	size_t		bytes = 0;

	for (int v = from; v < to; v++)
		bytes += MF_PACKET_VALUE_OVERHEAD + (values[v] ? strlen(values[v]) : 0);
	return bytes;
}

/*
 * The keys of one statement as the dialect takes them, appended to sql:
 * one array per column (PostgreSQL), a list of values or of rows of
 * values, or for a dialect without rows of values, equalities ORed.  A
 * list stops before the key that would take the request past budget bytes
 * (0: no cap; the first key always goes, one that cannot fit is the
 * remote's error to give); the keys taken are returned.
 */
static int
mf_depjoin_key_list(MfDepJoinState *st, StringInfo sql, const char **values,
					MfTypeClass *classes, int *nvalues, int first, int nkeys,
					size_t budget)
{
	const MfDialect *dialect = mf_conn_dialect(st->entry);
	MfMarkerStyle markers = st->tr->markers;
	int			i = *nvalues;
	size_t		vbytes = mf_depjoin_values_bytes(values, 0, i) +
		MF_PACKET_REQUEST_OVERHEAD;

	if (dialect->supports_arrays)
	{
		/* one array of every key per column */
		Oid			array_types[MF_DEPJOIN_MAX_COLS];

		for (int c = 0; c < st->ncols; c++)
			array_types[c] = get_array_type(st->key_type[c]);
		mf_deparse_key_arrays(sql, dialect, markers, st->key_sql, array_types,
							  st->ncols, i + 1);
		for (int c = 0; c < st->ncols; c++)
		{
			Datum	   *elems = palloc(sizeof(Datum) * nkeys);
			int16		typlen;
			bool		typbyval;
			char		typalign;
			ArrayType  *arr;

			for (int g = 0; g < nkeys; g++)
				elems[g] = st->groups[first + g].key[c];
			get_typlenbyvalalign(st->key_type[c], &typlen, &typbyval, &typalign);
			arr = construct_array(elems, nkeys, st->key_type[c], st->key_len[c],
								  st->key_byval[c], typalign);
			values[i] = OidOutputFunctionCall(F_ARRAY_OUT, PointerGetDatum(arr));
			classes[i++] = MF_TYPE_TEXT;
			pfree(elems);
		}
	}
	else
	{
		/*
		 * k IN (v, ...), (k1, k2) IN ((v1, v2), ...), or where the dialect
		 * has no rows of values, (k1 = v1 AND k2 = v2) OR ...
		 */
		bool		ored = st->ncols > 1 && !dialect->supports_row_in;

		mf_deparse_key_list_open(sql, st->key_sql, st->ncols, ored);
		for (int k = 0; k < nkeys; k++)
		{
			int			len = sql->len;
			int			i0 = i;

			mf_deparse_key_list_item(sql, dialect, markers, st->key_sql,
									 st->key_type, st->ncols, ored, k == 0,
									 i + 1);
			for (int c = 0; c < st->ncols; c++)
			{
				values[i] = OutputFunctionCall(&st->key_out[c],
											   st->groups[first + k].key[c]);
				mf_check_param_value(dialect, mf_conn_server_name(st->entry),
									 st->key_type[c], values[i]);
				classes[i++] = mf_type_class(st->key_type[c]);
			}
			vbytes += mf_depjoin_values_bytes(values, i0, i);
			if (budget > 0 && k > 0 && (size_t) sql->len + vbytes > budget)
			{
				/* this key waits for the next statement */
				sql->len = len;
				sql->data[len] = '\0';
				i = i0;
				nkeys = k;
				break;
			}
		}
		mf_deparse_key_list_close(sql, ored);
	}
	*nvalues = i;
	return nkeys;
}

/*
 * The next statement: F's SELECT with the keys from stmt_first_key on (in
 * arrays, or at most keys_per_stmt of them), a range of the first key
 * column, or none.
 */
static void
mf_depjoin_send(MfDepJoinState *st)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	const MfDialect *dialect = mf_conn_dialect(st->entry);
	MfMarkerStyle markers = st->tr->markers;
	StringInfoData sql;
	const char **values;
	MfTypeClass *classes;
	int			nkeys = 0;
	int			nvalues;
	int			nestlevel;
	int			i = 0;
	ListCell   *lc;
	MfError		err;
	size_t		budget = 0;
	MemoryContext old;

	if (!st->whole && !st->ranged)
	{
		int			per_stmt = mf_depjoin_keys_per_statement(dialect, st->tr,
															 st->ncols,
															 st->nparams);

		if (dialect->supports_arrays)
			nkeys = st->ngroups;
		else if (per_stmt > 0)
			nkeys = Min(per_stmt, st->ngroups - st->stmt_first_key);
		else
		{
			st->whole = true;
			st->strategy = st->frel ? "whole table (no parameters left for keys)" :
				"whole join (no parameters left for keys)";
		}
		/* the remote's cap on a request, which asking may need an exchange for */
		if (nkeys > 0 && !dialect->supports_arrays)
			budget = mf_packet_limit(st->entry, st);
	}

	/* what the last statement was sent with goes; this one's stays until the next */
	MemoryContextReset(st->send_cxt);
	old = MemoryContextSwitchTo(st->send_cxt);
	nvalues = st->nparams + (st->ranged ? 2 :
							 dialect->supports_arrays ? (nkeys > 0 ? st->ncols : 0) :
							 nkeys * st->ncols);
	values = palloc0(sizeof(char *) * Max(nvalues, 1));
	classes = palloc0(sizeof(MfTypeClass) * Max(nvalues, 1));

	/* F's own parameters, then the keys */
	foreach(lc, st->param_exprs)
	{
		ExprState  *es = lfirst(lc);
		bool		isnull;
		Datum		d = ExecEvalExpr(es, econtext, &isnull);
		Oid			typoutput;
		bool		isvarlena;

		getTypeOutputInfo(exprType((Node *) es->expr), &typoutput, &isvarlena);
		nestlevel = mf_set_transmission_modes();
		values[i] = isnull ? NULL : OidOutputFunctionCall(typoutput, d);
		mf_reset_transmission_modes(nestlevel);
		mf_check_param_value(dialect, mf_conn_server_name(st->entry),
							 exprType((Node *) es->expr), values[i]);
		classes[i] = mf_type_class(exprType((Node *) es->expr));
		i++;
	}

	initStringInfo(&sql);
	appendStringInfoString(&sql, st->sql);
	nestlevel = mf_set_transmission_modes();
	if (st->ranged)
	{
		Datum		lo = st->groups[0].key[0];
		Datum		hi = st->groups[0].key[0];
		TypeCacheEntry *tc = lookup_type_cache(st->key_type[0], TYPECACHE_CMP_PROC_FINFO);

		for (int g = 1; g < st->ngroups; g++)
		{
			Datum		k = st->groups[g].key[0];

			if (DatumGetInt32(FunctionCall2Coll(&tc->cmp_proc_finfo, st->key_collation[0], k, lo)) < 0)
				lo = k;
			if (DatumGetInt32(FunctionCall2Coll(&tc->cmp_proc_finfo, st->key_collation[0], k, hi)) > 0)
				hi = k;
		}
		mf_deparse_key_range(&sql, dialect, markers, st->key_sql[0],
							 st->key_type[0], st->has_where, i + 1);
		values[i] = OutputFunctionCall(&st->key_out[0], lo);
		mf_check_param_value(dialect, mf_conn_server_name(st->entry),
							 st->key_type[0], values[i]);
		classes[i++] = mf_type_class(st->key_type[0]);
		values[i] = OutputFunctionCall(&st->key_out[0], hi);
		mf_check_param_value(dialect, mf_conn_server_name(st->entry),
							 st->key_type[0], values[i]);
		classes[i++] = mf_type_class(st->key_type[0]);
		st->keys_shipped += 2;
	}
	else if (nkeys > 0)
	{
		mf_deparse_keys_begin(&sql, st->has_where);
		nkeys = mf_depjoin_key_list(st, &sql, values, classes, &i,
									st->stmt_first_key, nkeys, budget);
		mf_deparse_keys_end(&sql);
		st->keys_shipped += nkeys;
	}
	mf_reset_transmission_modes(nestlevel);
	st->stmt_first_key += nkeys;
	MemoryContextSwitchTo(old);

	mf_stats_node_use(&st->stats);
	mf_claim_connection(st->entry, st);
	mf_stats_count(st->entry, MF_C_STATEMENTS, 1);
	mf_error_clear(&err);
	/*
	 * A list of keys asks for about as many rows, a small result when they
	 * fit a fetch, or whatever their number where the transport streams
	 * any result as cheaply (the rows are read through before the next
	 * statement); a range or the whole table may be big.
	 */
	st->res = st->tr->query(mf_conn(st->entry), sql.data, i, values, classes,
							nkeys > 0 && !st->whole && !st->ranged ?
							(st->tr->streams_any_result ?
							 mf_read(MF_READ_FEW, st->fetch_size) :
							 mf_scan_read(st->fetch_size, nkeys)) :
							mf_read(MF_READ_CURSOR, st->fetch_size), &err);
	if (st->res == NULL)
		mf_raise_error(ERROR, st->entry, &err, sql.data);
	st->statements++;
	st->res_rows = st->res_pos = 0;
	st->cand = -1;
}

/* Fill the scan slot from an X row and an F row (NULL: null-extended). */
static TupleTableSlot *
mf_depjoin_form(MfDepJoinState *st, int xrow, bool with_f)
{
	TupleTableSlot *scan = st->css.ss.ss_ScanTupleSlot;

	ExecClearTuple(scan);
	ExecStoreMinimalTuple(st->xrows[xrow], st->xslot, false);
	slot_getallattrs(st->xslot);
	if (with_f)
		slot_getallattrs(st->fslot);
	for (int k = 0; k < st->nmap; k++)
	{
		int			m = st->map[k];

		if (m > 0)
		{
			scan->tts_values[k] = st->xslot->tts_values[m - 1];
			scan->tts_isnull[k] = st->xslot->tts_isnull[m - 1];
		}
		else if (with_f)
		{
			scan->tts_values[k] = st->fslot->tts_values[-m - 1];
			scan->tts_isnull[k] = st->fslot->tts_isnull[-m - 1];
		}
		else
		{
			scan->tts_values[k] = (Datum) 0;
			scan->tts_isnull[k] = true;
		}
	}
	return ExecStoreVirtualTuple(scan);
}

/*
 * Fill the scan slot from the F row alone, for F's own conditions (which
 * read none of X's columns).
 */
static TupleTableSlot *
mf_depjoin_form_f(MfDepJoinState *st)
{
	TupleTableSlot *scan = st->css.ss.ss_ScanTupleSlot;

	ExecClearTuple(scan);
	slot_getallattrs(st->fslot);
	for (int k = 0; k < st->nmap; k++)
	{
		int			m = st->map[k];

		scan->tts_values[k] = m > 0 ? (Datum) 0 : st->fslot->tts_values[-m - 1];
		scan->tts_isnull[k] = m > 0 ? true : st->fslot->tts_isnull[-m - 1];
	}
	return ExecStoreVirtualTuple(scan);
}

static bool
mf_depjoin_quals(MfDepJoinState *st, TupleTableSlot *scan, List *quals)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	ListCell   *lc;

	/* the tuples it compares live in xcxt and the reader's context */
	ResetExprContext(econtext);
	econtext->ecxt_scantuple = scan;
	foreach(lc, quals)
	{
		bool		isnull;
		Datum		d = ExecEvalExprSwitchContext(lfirst(lc), econtext, &isnull);

		if (isnull || !DatumGetBool(d))
			return false;
	}
	return true;
}

/*
 * Read X up to its end or the hash memory, whichever comes first, and
 * choose how F is to be asked for this batch's keys.
 */
static void
mf_depjoin_start(MfDepJoinState *st)
{
	PlanState  *x = st->child;
	size_t		limit = get_hash_memory_limit();

	st->x_more = false;
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(x);

		if (TupIsNull(slot))
			break;
		CHECK_FOR_INTERRUPTS();
		mf_depjoin_hold(st, slot);
		if (st->xbytes >= limit)
		{
			st->x_more = true;
			break;
		}
	}
	st->scan_batches++;
	st->batches = Max(st->batches, st->scan_batches);
	if (st->ngroups == 0)
	{
		/* no key: nothing of F can match */
		if (st->statements == 0)
			st->strategy = "no keys";
		st->phase = MF_DJ_TAIL;
		return;
	}
	if (st->statements == 0 || strcmp(st->strategy, "no keys") == 0)
		st->strategy = "keys";
	if (st->ngroups > st->max_keys)
	{
		if (st->range_ok)
		{
			st->ranged = true;
			st->strategy = "range (more keys than dependent_join_max_keys)";
		}
		else
		{
			st->whole = true;
			st->strategy = st->frel ? "whole table (more keys than dependent_join_max_keys)" :
				"whole join (more keys than dependent_join_max_keys)";
		}
	}
	mf_depjoin_send(st);
	st->phase = MF_DJ_REMOTE;
}

static TupleTableSlot *
mf_depjoin_next(ScanState *node)
{
	MfDepJoinState *st = (MfDepJoinState *) node;
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	MfError		err;

next_batch:
	if (st->phase == MF_DJ_START)
		mf_depjoin_start(st);

	while (st->phase == MF_DJ_REMOTE)
	{
		/* the next candidate X row for the current F row */
		while (st->cand >= 0)
		{
			int			xrow = st->cand;
			TupleTableSlot *scan;

			st->cand = st->next_row[xrow];
			if (st->jointype == JOIN_SEMI && st->matched[xrow])
				continue;
			scan = mf_depjoin_form(st, xrow, true);
			if (!mf_depjoin_quals(st, scan, st->join_quals))
				continue;
			st->matched[xrow] = true;
			if (st->jointype == JOIN_INNER || st->jointype == JOIN_LEFT)
				return scan;
		}

		/* the next F row */
		if (st->res_pos >= st->res_rows)
		{
			mf_error_clear(&err);
			mf_stats_node_use(&st->stats);
			st->res_rows = mf_held_fetch(&st->held, st->tr, st->res, &err);
			if (st->res_rows < 0)
				mf_raise_error(ERROR, st->entry, &err, st->sql);
			st->res_pos = 0;
			(void) mf_held_watch(&st->held, st->entry, st->tr, st->res,
								 &st->res_rows, &st->res_pos);
			/* a batch of keys' rows: their subqueries, read ahead */
			if (st->primer != NULL && !st->whole && !st->ranged &&
				!st->held.reading)
				mf_primer_prime(st->primer, mf_depjoin_f_value, st, 0,
								st->res_rows);
			if (st->res_rows == 0)
			{
				st->tr->result_close(st->res);
				st->res = NULL;
				mf_stats_node_publish(&st->stats);
				if (!st->whole && !st->ranged && st->stmt_first_key < st->ngroups)
					mf_depjoin_send(st);
				else
					st->phase = MF_DJ_TAIL;
				continue;
			}
		}
		CHECK_FOR_INTERRUPTS();
		/*
		 * the last row's probe and checks are done with: the probe's hash
		 * and equality functions may allocate (numeric keys do), and a row
		 * without a partner returns nothing that would reset this memory
		 * (a range read streams many)
		 */
		ResetExprContext(econtext);
		mf_row_reader_store(&st->reader, st->tr, st->res, st->res_pos++,
							st->fslot);
		{
			MemoryContext old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
			int			g = mf_depjoin_probe(st);

			MemoryContextSwitchTo(old);
			/* F is never the side kept without a partner */
			if (g < 0)
				continue;
			/*
			 * F's own conditions, on the rows with a partner only: a range or
			 * a whole-table read, or a remote comparing more loosely, brings
			 * rows that a correlated subquery need not run for
			 */
			if (st->f_quals != NIL &&
				!mf_depjoin_quals(st, mf_depjoin_form_f(st), st->f_quals))
			{
				st->f_rows_removed++;
				continue;
			}
			st->cand = st->groups[g].first_row;
		}
	}

	while (st->phase == MF_DJ_TAIL)
	{
		int			xrow = st->tail_pos++;

		if (xrow >= st->nx)
		{
			st->phase = MF_DJ_DONE;
			break;
		}
		if (st->jointype == JOIN_INNER)
		{
			st->phase = MF_DJ_DONE;
			break;
		}
		switch (st->jointype)
		{
			case JOIN_LEFT:
			case JOIN_ANTI:
				if (!st->matched[xrow])
					return mf_depjoin_form(st, xrow, false);
				break;
			case JOIN_SEMI:
				if (st->matched[xrow])
					return mf_depjoin_form(st, xrow, false);
				break;
			default:
				elog(ERROR, "unexpected join type of a dependent join: %d",
					 (int) st->jointype);
		}
	}
	if (st->phase == MF_DJ_DONE && st->x_more)
	{
		mf_depjoin_next_batch(st);
		goto next_batch;
	}
	return ExecClearTuple(node->ss_ScanTupleSlot);
}

static bool
mf_depjoin_recheck(ScanState *node, TupleTableSlot *slot)
{
	(void) node;
	(void) slot;
	return true;
}

static TupleTableSlot *
mf_depjoin_exec(CustomScanState *node)
{
	return ExecScan(&node->ss, mf_depjoin_next, mf_depjoin_recheck);
}

static void
mf_depjoin_release(MfDepJoinState *st)
{
	mf_held_reset(&st->held);
	if (st->res != NULL)
	{
		st->tr->result_close(st->res);
		st->res = NULL;
	}
	if (st->xcxt != NULL)
		MemoryContextReset(st->xcxt);
	st->xrows = NULL;
	st->next_row = NULL;
	st->matched = NULL;
	st->groups = NULL;
	st->buckets = NULL;
	st->nx = st->xcap = st->ngroups = st->gcap = st->nbuckets = 0;
	st->xbytes = 0;
}

/* Forget a batch of X and what was asked for it; X is read on. */
static void
mf_depjoin_next_batch(MfDepJoinState *st)
{
	mf_depjoin_release(st);
	st->phase = MF_DJ_START;
	st->stmt_first_key = 0;
	st->whole = st->ranged = false;
	st->tail_pos = 0;
	st->cand = -1;
	st->x_more = false;
}

static void
mf_depjoin_end(CustomScanState *node)
{
	MfDepJoinState *st = (MfDepJoinState *) node;

	if (st->entry != NULL)
		mf_stats_node_use(&st->stats);
	mf_depjoin_release(st);
	if (st->entry != NULL)
		mf_stats_node_end(&st->stats);
	ExecEndNode(st->child);
	if (st->fslot)
		ExecDropSingleTupleTableSlot(st->fslot);
	if (st->xslot)
		ExecDropSingleTupleTableSlot(st->xslot);
	if (st->frel)
		table_close(st->frel, AccessShareLock);
}

static void
mf_depjoin_rescan(CustomScanState *node)
{
	MfDepJoinState *st = (MfDepJoinState *) node;

	/* closing the open result is this node's traffic */
	if (st->entry != NULL)
		mf_stats_node_use(&st->stats);
	mf_depjoin_next_batch(st);
	st->scan_batches = 0;
	/*
	 * X is this node's child, not its lefttree: the executor's own rescan
	 * does not tell it which outer parameters changed (a SubPlan's, say),
	 * and without that a Hash Join under it would keep its old table.
	 */
	if (node->ss.ps.chgParam != NULL)
		UpdateChangedParamSet(st->child, node->ss.ps.chgParam);
	ExecReScan(st->child);
}

static void
mf_depjoin_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	MfDepJoinState *st = (MfDepJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *priv = cscan->custom_private;
	bool		arrays = boolVal(list_nth(priv, MF_DJ_ARRAYS));
	bool		row_in = boolVal(list_nth(priv, MF_DJ_ROW_IN));
	List	   *key_sql = list_nth(priv, MF_DJ_KEY_SQL);

	ExplainPropertyText("Join Type",
						mf_join_type_name(intVal(list_nth(priv, MF_DJ_JOINTYPE))), es);
	/*
	 * The join's conditions besides the keys', as a Hash Join's Join
	 * Filter, and F's own checked here, as a scan's Filter
	 */
	{
		int			nquals = intVal(list_nth(priv, MF_DJ_NQUALS));
		int			nkey_quals = intVal(list_nth(priv, MF_DJ_NKEY_QUALS));
		int			nf_quals = intVal(list_nth(priv, MF_DJ_NF_QUALS));
		List	   *context = NIL;

		if (nquals > nkey_quals || nf_quals > 0)
			context = set_deparse_context_plan(es->deparse_cxt,
											   node->ss.ps.plan, ancestors);
		if (nquals > nkey_quals)
		{
			List	   *jq = list_copy_head(list_copy_tail(cscan->custom_exprs,
														   nkey_quals),
											nquals - nkey_quals);

			ExplainPropertyText("Join Filter",
								deparse_expression((Node *) make_ands_explicit(jq),
												   context, es->verbose, false),
								es);
		}
		if (nf_quals > 0)
		{
			List	   *fq = list_copy_head(list_copy_tail(cscan->custom_exprs, nquals),
											nf_quals);

			ExplainPropertyText("Local Filter",
								deparse_expression((Node *) make_ands_explicit(fq),
												   context, es->verbose, false),
								es);
		}
	}
	if (es->verbose)
	{
		ExplainPropertyText("Remote SQL",
							mf_deparse_keys_explain(strVal(list_nth(priv, MF_DJ_SQL)),
													boolVal(list_nth(priv, MF_DJ_HAS_WHERE)),
													key_sql, arrays, row_in),
							es);
	}
	if (es->analyze)
	{
		ExplainPropertyText("Keys Strategy", st->strategy, es);
		ExplainPropertyInteger("Keys Shipped", NULL, st->keys_shipped, es);
		if (st->f_quals != NIL)
			ExplainPropertyInteger("Remote Rows Removed by Local Filter", NULL,
								   st->f_rows_removed, es);
		/*
		 * as a hash join, batches only when X did not fit its memory: the
		 * most any one scan needed, not a sum over rescans
		 */
		if (st->batches > 1)
			ExplainPropertyInteger("Batches", NULL, st->batches, es);
		if (st->entry != NULL)
			mf_stats_explain(&st->stats, es);
	}
}

static CustomExecMethods mf_depjoin_exec_methods = {
	.CustomName = "multi_fdw dependent join",
	.BeginCustomScan = mf_depjoin_begin,
	.ExecCustomScan = mf_depjoin_exec,
	.EndCustomScan = mf_depjoin_end,
	.ReScanCustomScan = mf_depjoin_rescan,
	.ExplainCustomScan = mf_depjoin_explain,
};

static Node *
mf_depjoin_create_state(CustomScan *cscan)
{
	MfDepJoinState *st = palloc0(sizeof(MfDepJoinState));

	(void) cscan;
	NodeSetTag(st, T_CustomScanState);
	st->css.methods = &mf_depjoin_exec_methods;
	st->cand = -1;
	return (Node *) st;
}

static const CustomScanMethods mf_depjoin_scan_methods = {
	.CustomName = MF_DEPJOIN_SCAN_NAME,
	.CreateCustomScanState = mf_depjoin_create_state,
};

/*
 * The plan (depjoin.c) finds these by name, as a plan read back by a
 * parallel worker does: the executor is above the planner and the
 * planner never names it.
 */
void
mf_depjoin_exec_init(void)
{
	if (GetCustomScanMethods(MF_DEPJOIN_SCAN_NAME, true) == NULL)
		RegisterCustomScanMethods(&mf_depjoin_scan_methods);
}

