/*-------------------------------------------------------------------------
 *
 * scan.c
 *		Reading foreign tables: remote rows turned into tuples, execution
 *		(read-ahead, async Append), EXPLAIN.  The planning is scan_plan.c's.
 *
 * A scan sends one SELECT of the columns the query needs, with the WHERE
 * clauses the dialect can express, and reads its rows fetch_size at a time
 * through the transport.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "executor/execAsync.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "optimizer/cost.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/prep.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/sampling.h"

#include "exec/exec.h"
#include "exec/scan_state.h"
#include "plan/scan_int.h"



/* ---------------------------------------------------------------------
 * Turning remote rows into tuples
 * ---------------------------------------------------------------------
 */

typedef struct MfConvErrorCxt
{
	Relation	rel;
	AttrNumber	attnum;
} MfConvErrorCxt;

static void
mf_conversion_error_callback(void *arg)
{
	MfConvErrorCxt *cxt = arg;

	if (cxt->rel != NULL && cxt->attnum > 0)
		errcontext("column \"%s\" of foreign table \"%s\"",
				   NameStr(TupleDescAttr(RelationGetDescr(cxt->rel), cxt->attnum - 1)->attname),
				   RelationGetRelationName(cxt->rel));
}

void
mf_row_reader_init(MfRowReader *reader, TupleDesc tupdesc,
				   List *retrieved_attrs, MemoryContext parent)
{
	reader->attinmeta = TupleDescGetAttInMetadata(tupdesc);
	reader->retrieved_attrs = retrieved_attrs;
	reader->temp_cxt = AllocSetContextCreate(parent, "multi_fdw row",
											 ALLOCSET_SMALL_SIZES);
	reader->held = NULL;
}

/*
 * One remote row as a heap tuple in target (which may be the reader's own
 * per-row context: it is reset first).
 */
HeapTuple
mf_row_reader_form(MfRowReader *reader, const MfTransport *tr, MfResult *res,
				   int row, MemoryContext target, Relation rel)
{
	MemoryContextReset(reader->temp_cxt);
	return mf_row_reader_form_texts(reader,
									mf_row_reader_texts(reader, tr, res, row),
									target, rel);
}

/*
 * One remote row's values as text, in the reader's per-row context (valid
 * until the next row is formed): one per retrieved column, NULL for NULL.
 */
const char **
mf_row_reader_texts(MfRowReader *reader, const MfTransport *tr, MfResult *res,
					int row)
{
	int			n = list_length(reader->retrieved_attrs);
	const char **texts = MemoryContextAlloc(reader->temp_cxt,
											sizeof(char *) * Max(n, 1));

	for (int col = 0; col < n; col++)
		texts[col] = mf_held_value(reader->held, tr, res, row, col);
	return texts;
}

/* A heap tuple in target of one remote row's values as text. */
HeapTuple
mf_row_reader_form_texts(MfRowReader *reader, const char *const *texts,
						 MemoryContext target, Relation rel)
{
	TupleDesc	tupdesc = reader->attinmeta->tupdesc;
	MemoryContext old;
	Datum	   *values;
	bool	   *nulls;
	ItemPointer ctid = NULL;
	TransactionId remote_tableoid = InvalidTransactionId;
	HeapTuple	tuple;
	ErrorContextCallback errcb;
	MfConvErrorCxt errcxt = {rel, 0};
	ListCell   *lc;
	int			col = 0;
	int			prev = 0;

	old = MemoryContextSwitchTo(reader->temp_cxt);
	values = palloc0(sizeof(Datum) * tupdesc->natts);
	nulls = palloc(sizeof(bool) * tupdesc->natts);
	memset(nulls, true, sizeof(bool) * tupdesc->natts);

	errcb.callback = mf_conversion_error_callback;
	errcb.arg = &errcxt;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;

	foreach(lc, reader->retrieved_attrs)
	{
		int			attnum = lfirst_int(lc);
		const char *text = texts[col++];

		errcxt.attnum = attnum;
		if (attnum == MF_SUM_COUNT_ATTNO && prev > 0)
		{
			/* the count of the sum before it: their quotient, as avg's */
			if (!nulls[prev - 1] && text != NULL && strcmp(text, "0") != 0)
				values[prev - 1] =
					DirectFunctionCall2(numeric_div, values[prev - 1],
										DirectFunctionCall3(numeric_in,
															CStringGetDatum(text),
															ObjectIdGetDatum(InvalidOid),
															Int32GetDatum(-1)));
			else
				nulls[prev - 1] = true;
		}
		else if (attnum > 0)
		{
			AttInMetadata *m = reader->attinmeta;

			values[attnum - 1] = InputFunctionCall(&m->attinfuncs[attnum - 1],
												   (char *) text,
												   m->attioparams[attnum - 1],
												   m->atttypmods[attnum - 1]);
			nulls[attnum - 1] = (text == NULL);
			prev = attnum;
		}
		else if (attnum == SelfItemPointerAttributeNumber && text != NULL)
			ctid = (ItemPointer) DatumGetPointer(DirectFunctionCall1(tidin,
																	 CStringGetDatum(text)));
		else if (attnum == MF_REMOTE_TABLEOID_ATTNO && text != NULL)
			remote_tableoid = DatumGetObjectId(DirectFunctionCall1(oidin,
																   CStringGetDatum(text)));
	}
	error_context_stack = errcb.previous;

	MemoryContextSwitchTo(target);
	tuple = heap_form_tuple(tupdesc, values, nulls);
	if (ctid)
		tuple->t_self = *ctid;
	/* other system columns mean nothing for a remote row */
	HeapTupleHeaderSetXmax(tuple->t_data, remote_tableoid);
	HeapTupleHeaderSetXmin(tuple->t_data, InvalidTransactionId);
	HeapTupleHeaderSetCmin(tuple->t_data, InvalidTransactionId);
	MemoryContextSwitchTo(old);
	return tuple;
}

/* Store a remote row in slot; it stays valid until the next call. */
void
mf_row_reader_store(MfRowReader *reader, const MfTransport *tr, MfResult *res,
					int row, TupleTableSlot *slot)
{
	HeapTuple	tuple;

	ExecClearTuple(slot);
	tuple = mf_row_reader_form(reader, tr, res, row, reader->temp_cxt, NULL);
	/* the slot may be virtual: a partitioned root's, say, which keeps no tid */
	ExecForceStoreHeapTuple(tuple, slot, false);
	slot->tts_tid = tuple->t_self;
}


/* ---------------------------------------------------------------------
 * Execution
 * ---------------------------------------------------------------------
 */

void
mfBeginForeignScan(ForeignScanState *node, int eflags)
{
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	MfScanState *st;
	RangeTblEntry *rte;
	Oid			userid;
	MfOptions	opts;
	Index		rti = fsplan->scan.scanrelid;
	TupleDesc	tupdesc;
	int			i = 0;
	ListCell   *lc;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;

	st = palloc0(sizeof(MfScanState));
	node->fdw_state = st;

	/* a join's or grouping's rows are those of its remote select list */
	if (rti > 0)
		tupdesc = RelationGetDescr(node->ss.ss_currentRelation);
	else
	{
		rti = mf_fscan_first_base_relid(fsplan);
		tupdesc = node->ss.ss_ScanTupleSlot->tts_tupleDescriptor;
	}
	if (intVal(list_nth(fsplan->fdw_private, MF_SCAN_SERVER)) != 0)
	{
		/* a whole query (whole_query.c): its server and user */
		Oid			user = (Oid) intVal(list_nth(fsplan->fdw_private,
												 MF_SCAN_USER));

		userid = OidIsValid(user) ? user : GetUserId();
		mf_get_options((Oid) intVal(list_nth(fsplan->fdw_private,
											 MF_SCAN_SERVER)),
					   InvalidOid, &opts);
	}
	else
	{
		rte = exec_rt_fetch(rti, estate);
		userid = mf_fscan_userid(fsplan, estate, rti);
		mf_get_table_options(rte->relid, &opts);
	}
	st->entry = mf_get_connection(GetUserMapping(userid, opts.serverid), &opts);
	st->tr = mf_conn_transport(st->entry);
	mf_stats_node_begin(&st->stats, st->entry, node->ss.ss_currentRelation,
						CMD_SELECT);

	st->sql = strVal(list_nth(fsplan->fdw_private, MF_SCAN_SQL));
	st->fetch_size = intVal(list_nth(fsplan->fdw_private, MF_SCAN_FETCH_SIZE));
	st->open_read = mf_read((MfReadMode) intVal(list_nth(fsplan->fdw_private,
														 MF_SCAN_READ_MODE)),
							st->fetch_size);
	st->read_ahead = st->tr->async_send != NULL;
	st->next_fetch = st->fetch_size;
	mf_row_reader_init(&st->reader, tupdesc,
					   list_nth(fsplan->fdw_private, MF_SCAN_RETRIEVED_ATTRS),
					   estate->es_query_cxt);
	mf_held_init(&st->held, estate->es_query_cxt);
	st->reader.held = &st->held;

	st->nparams = list_length(fsplan->fdw_exprs);
	st->param_exprs = ExecInitExprList(fsplan->fdw_exprs, (PlanState *) node);
	st->param_flinfo = palloc0(sizeof(FmgrInfo) * Max(st->nparams, 1));
	st->param_values = palloc0(sizeof(char *) * Max(st->nparams, 1));
	st->param_datums = palloc0(sizeof(Datum) * Max(st->nparams, 1));
	st->param_nulls = palloc0(sizeof(bool) * Max(st->nparams, 1));
	st->param_classes = palloc0(sizeof(MfTypeClass) * Max(st->nparams, 1));
	st->param_types = palloc0(sizeof(Oid) * Max(st->nparams, 1));
	foreach(lc, fsplan->fdw_exprs)
	{
		Oid			typefnoid;
		bool		isvarlena;

		getTypeOutputInfo(exprType(lfirst(lc)), &typefnoid, &isvarlena);
		fmgr_info(typefnoid, &st->param_flinfo[i]);
		st->param_classes[i] = mf_type_class(exprType(lfirst(lc)));
		st->param_types[i] = exprType(lfirst(lc));
		i++;
	}
	st->params_need_modes = mf_outputs_need_modes(st->param_flinfo,
												  st->nparams);

	/*
	 * Rows kept for rescans: not under an async Append (whose requests
	 * read batches themselves), and not where rows are locked or are about
	 * to be changed (each read must lock, and see the statement's changes).
	 */
	st->memo_ok = opts.keep_rescan_rows &&
		!fsplan->scan.plan.async_capable &&
		estate->es_plannedstmt->rowMarks == NIL &&
		estate->es_plannedstmt->commandType == CMD_SELECT &&
		!estate->es_plannedstmt->hasModifyingCTE;
	/* subqueries of the local conditions, read ahead (read_ahead.c) */
	if (!fsplan->scan.plan.async_capable)
		mf_scan_primer_init(node);
}

static void
mf_scan_open(ForeignScanState *node, MfScanState *st)
{
	ExprContext *econtext = node->ss.ps.ps_ExprContext;
	MemoryContext old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
	MfError		err;
	MfRead		read;
	int			i = 0;
	int			nestlevel;
	ListCell   *lc;

	/*
	 * Evaluate under the user's settings (a cast of text or date to
	 * timestamptz depends on them), then write the values under the
	 * remote's.
	 */
	foreach(lc, st->param_exprs)
	{
		st->param_datums[i] = ExecEvalExpr(lfirst(lc), econtext,
										   &st->param_nulls[i]);
		i++;
	}
	nestlevel = mf_set_transmission_modes_if(st->params_need_modes);
	for (i = 0; i < st->nparams; i++)
		st->param_values[i] = st->param_nulls[i] ? NULL :
			OutputFunctionCall(&st->param_flinfo[i], st->param_datums[i]);
	mf_reset_transmission_modes(nestlevel);
	for (i = 0; i < st->nparams; i++)
		mf_check_param_value(mf_conn_dialect(st->entry),
							 mf_conn_server_name(st->entry),
							 st->param_types[i], st->param_values[i]);
	MemoryContextSwitchTo(old);

	/*
	 * A rescan with values seen before: the rows kept then, no statement.
	 * Kept from the first rescan on: a scan that runs once copies nothing.
	 */
	if ((st->rescans > 0 || st->memo != NULL) && st->memo_ok)
	{
		if (st->memo == NULL)
			st->memo = mf_memo_create(node->ss.ps.state->es_query_cxt,
									  list_length(st->reader.retrieved_attrs));
		if (mf_memo_begin(st->memo, st->nparams, st->param_values))
		{
			st->replay = true;
			return;
		}
	}

	/*
	 * A result read without a cursor for more rows than one fetch brings
	 * (for the remote's parallel workers) is read through one when this
	 * run may stop before its end (run_extent.c).
	 */
	read = st->open_read;
	if (read.mode == MF_READ_FEW && !mf_run_reads_all() &&
		node->ss.ps.plan->plan_rows > st->fetch_size)
		read = mf_read(MF_READ_CURSOR, st->fetch_size);

	mf_stats_node_use(&st->stats);
	mf_claim_connection(st->entry, st);
	mf_stats_count(st->entry, MF_C_STATEMENTS, 1);
	mf_error_clear(&err);
	if (st->rescan_result != NULL)
	{
		/* a rescan: the old query is closed as the new one opens */
		MfResult   *old = st->rescan_result;

		st->rescan_result = NULL;
		if (st->tr->requery != NULL)
			st->result = st->tr->requery(old, st->sql, st->nparams,
										 st->param_values, st->param_classes,
										 read, &err);
		else
		{
			st->tr->result_close(old);
			st->result = st->tr->query(mf_conn(st->entry), st->sql,
									   st->nparams, st->param_values,
									   st->param_classes,
									   read, &err);
		}
	}
	else
		st->result = st->tr->query(mf_conn(st->entry), st->sql, st->nparams,
								   st->param_values, st->param_classes,
								   read, &err);
	if (st->result == NULL)
		mf_raise_error(ERROR, st->entry, &err, st->sql);
	st->nrows = st->next_row = 0;
	st->eof = false;
	st->next_fetch = st->fetch_size;
}

/* ---------------------------------------------------------------------
 * Reading ahead
 *
 * After each batch arrives, the next one is asked for at once, so the
 * network works while the executor consumes this one: a scan no longer waits
 * a round trip per fetch.  Batches grow from fetch_size to
 * MF_FETCH_GROWTH times it, which bounds what is held (two batches).  While
 * the request is out the connection is busy, so the scan is its stream
 * owner: anyone else who needs it makes the scan read the answer first.
 * ---------------------------------------------------------------------
 */
#define MF_FETCH_GROWTH		8

/* The request is out: read its answer (someone else needs the connection). */
static void
mf_scan_finish_cb(void *arg)
{
	MfScanState *st = arg;
	MfError		err;

	st->request_out = false;
	mf_error_clear(&err);
	if (st->tr->async_poll(st->result, true, &err) < 0)
		mf_raise_error(ERROR, st->entry, &err, st->sql);
	st->ahead_ready = true;
}

static void
mf_scan_send_ahead(MfScanState *st)
{
	MfError		err;
	int			rows = st->next_fetch;

	if (!st->read_ahead || st->eof || st->request_out || st->ahead_ready ||
		mf_held_watching(&st->held))
		return;
	st->next_fetch = Min(st->next_fetch * 2, st->fetch_size * MF_FETCH_GROWTH);
	mf_stats_node_use(&st->stats);
	mf_set_stream_owner(st->entry, st, mf_scan_finish_cb);
	mf_error_clear(&err);
	if (!st->tr->async_send(st->result, rows, &err))
	{
		mf_clear_stream_owner(st->entry, st);
		mf_raise_error(ERROR, st->entry, &err, st->sql);
	}
	st->request_out = true;
}

/* Has the answer to the request arrived?  Never waits. */
static bool
mf_scan_ahead_arrived(MfScanState *st)
{
	MfError		err;
	int			rc;

	/* rows on the wire come with the fetch (and wait for it) */
	if (st->ahead_ready || mf_held_watching(&st->held))
		return true;
	if (!st->request_out)
		return false;
	mf_error_clear(&err);
	rc = st->tr->async_poll(st->result, false, &err);
	if (rc < 0)
	{
		st->request_out = false;
		mf_clear_stream_owner(st->entry, st);
		mf_raise_error(ERROR, st->entry, &err, st->sql);
	}
	if (rc == 0)
		return false;
	st->request_out = false;
	st->ahead_ready = true;
	mf_clear_stream_owner(st->entry, st);
	return true;
}

/*
 * The next batch: the one read ahead, or a FETCH now; then ask for more.
 * Without use_link the batch must be one already read (ahead_ready): it is
 * taken without touching the connection, and nothing more is asked for.
 */
static void
mf_scan_next_batch(MfScanState *st, bool use_link)
{
	MfError		err;

	Assert(use_link || st->ahead_ready);
	mf_stats_node_use(&st->stats);
	if (use_link)
	{
		mf_held_unwatch(&st->held);
		mf_claim_connection(st->entry, st);
	}
	mf_error_clear(&err);
	st->nrows = mf_held_fetch(&st->held, st->tr, st->result, &err);
	st->request_out = st->ahead_ready = false;
	mf_clear_stream_owner(st->entry, st);
	if (st->nrows < 0)
		mf_raise_error(ERROR, st->entry, &err, st->sql);
	st->next_row = 0;
	if (st->nrows == 0)
		st->eof = true;
	else if (use_link &&
			 !mf_held_watch(&st->held, st->entry, st->tr, st->result,
							&st->nrows, &st->next_row))
		mf_scan_send_ahead(st);
	mf_stats_node_publish(&st->stats);
}

static TupleTableSlot *
mf_scan_store_next(ForeignScanState *node, MfScanState *st)
{
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	const char **texts;

	ExecClearTuple(slot);
	MemoryContextReset(st->reader.temp_cxt);
	texts = mf_row_reader_texts(&st->reader, st->tr, st->result,
								st->next_row++);
	if (mf_memo_recording(st->memo))
		mf_memo_record(st->memo, texts);
	ExecStoreHeapTuple(mf_row_reader_form_texts(&st->reader, texts,
												st->reader.temp_cxt,
												node->ss.ss_currentRelation),
					   slot, false);
	return slot;
}

/* A rescan answered from the rows kept: the next one, or the end. */
static TupleTableSlot *
mf_scan_replay_next(ForeignScanState *node, MfScanState *st)
{
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	const char *const *texts = mf_memo_next(st->memo);

	ExecClearTuple(slot);
	if (texts == NULL)
		return slot;
	MemoryContextReset(st->reader.temp_cxt);
	return ExecStoreHeapTuple(mf_row_reader_form_texts(&st->reader, texts,
													   st->reader.temp_cxt,
													   node->ss.ss_currentRelation),
							  slot, false);
}

TupleTableSlot *
mfIterateForeignScan(ForeignScanState *node)
{
	MfScanState *st = node->fdw_state;

	if (st->result == NULL && !st->replay)
		mf_scan_open(node, st);
	if (st->replay)
		return mf_scan_replay_next(node, st);

	while (st->next_row >= st->nrows)
	{
		/*
		 * At the end, the row statements that an UPDATE or DELETE
		 * pipelined on this connection are answered before the executor
		 * ends its count: those that changed nothing come off it.
		 */
		if (st->eof && !node->ss.ps.async_capable)
			mf_claim_connection(st->entry, st);
		/* under an async Append, the next batch is mf_async_produce's job */
		if (st->eof || node->ss.ps.async_capable)
		{
			if (st->eof && st->memo != NULL)
				mf_memo_finish(st->memo);
			return ExecClearTuple(node->ss.ss_ScanTupleSlot);
		}
		mf_scan_next_batch(st, true);
		/* the batch's values for subqueries and loops (read_ahead.c) */
		mf_scan_prime_batch(st);
	}
	return mf_scan_store_next(node, st);
}

/* ---------------------------------------------------------------------
 * Asynchronous execution under an Append: several servers read at once
 * ---------------------------------------------------------------------
 */

bool
mfIsForeignPathAsyncCapable(ForeignPath *path)
{
	MfRelInfo  *fpinfo = path->path.parent->fdw_private;

	return fpinfo->opts.async_capable &&
		fpinfo->opts.transport->async_send != NULL;
}

/*
 * Scans that share a connection under one Append follow postgres_fdw's
 * rules, for its reasons.  A socket is in the Append's wait set at most
 * once, added by the scan that owns the link (its FETCH is out).  Once
 * anything is in the set, nothing more runs in it but the adding of
 * sockets: a scan's local conditions may use a connection (a SubPlan, a
 * function that queries), and their claim would read the very answer a
 * registered socket waits for, which then never comes (the wait lasts
 * until a cancel or a timeout, or for good on minor releases whose Append
 * does not wait on the latch too).  So the first of our scans to be asked
 * in a round, while the set is still empty, settles all of them: hands
 * over the rows already read, asks for the next batch where the link is
 * free.  While the set is built, no scan takes a link another scan of the
 * Append holds either: that one waits in the set, or is asked next.
 */

/*
 * Give the Append a row if there is one, or the end; else leave the request
 * pending.  Rows go through the node itself, so local conditions and
 * projection apply as for a synchronous scan.  With use_link the next
 * batch is asked for (taking the connection if need be); without it only
 * a batch already read is used.
 */
static void
mf_async_produce(AsyncRequest *areq, bool use_link)
{
	ForeignScanState *node = (ForeignScanState *) areq->requestee;
	MfScanState *st = node->fdw_state;

	if (st->result == NULL)
		mf_scan_open(node, st);
	for (;;)
	{
		TupleTableSlot *result;

		if (st->next_row >= st->nrows && !st->eof)
		{
			if (use_link)
			{
				mf_scan_send_ahead(st);
				if (!mf_scan_ahead_arrived(st))
				{
					ExecAsyncRequestPending(areq);
					return;
				}
			}
			else if (!st->ahead_ready)
			{
				ExecAsyncRequestPending(areq);
				return;
			}
			mf_scan_next_batch(st, use_link);
			continue;
		}
		result = areq->requestee->ExecProcNodeReal(areq->requestee);
		if (!TupIsNull(result) || st->eof)
		{
			ExecAsyncRequestDone(areq, result);
			return;
		}
		/* the rest of the batch failed the local conditions */
	}
}

void
mfForeignAsyncRequest(AsyncRequest *areq)
{
	mf_async_produce(areq, true);
}

/* The multi_fdw scan of an async request of an Append, or NULL. */
static MfScanState *
mf_async_scan_of(AsyncRequest *areq)
{
	PlanState  *ps = areq->requestee;
	ForeignScanState *fs;

	if (!IsA(ps, ForeignScanState))
		return NULL;
	fs = (ForeignScanState *) ps;
	if (fs->fdwroutine == NULL ||
		fs->fdwroutine->ForeignAsyncConfigureWait != mfForeignAsyncConfigureWait)
		return NULL;
	return fs->fdw_state;
}

/* Is the link held by one of our scans of this Append (or its held rows)? */
static bool
mf_async_owner_in_append(AppendState *append, MfConnEntry *entry)
{
	int			i = -1;

	while ((i = bms_next_member(append->as_asyncplans, i)) >= 0)
	{
		MfScanState *other = mf_async_scan_of(append->as_asyncrequests[i]);

		if (other != NULL &&
			(mf_conn_owned_by(entry, other) ||
			 mf_conn_owned_by(entry, &other->held)))
			return true;
	}
	return false;
}

/*
 * May this scan take its connection now, to ask for its next batch?  Yes
 * when it is free or its own.  Not when another scan of this Append holds
 * it: that one waits in this set, or is asked for a row next.  When the
 * holder is outside the Append (a scan whose read-ahead is out), only if
 * nothing else could wake the Append up.
 */
static bool
mf_async_may_take_link(MfScanState *st, AppendState *append)
{
	if (mf_conn_owned_by(st->entry, NULL) ||
		mf_conn_owned_by(st->entry, st) ||
		mf_conn_owned_by(st->entry, &st->held))
		return true;
	if (mf_async_owner_in_append(append, st->entry))
		return false;
	return bms_is_empty(append->as_needrequest) &&
		GetNumRegisteredWaitEvents(append->as_eventset) <= 1;
}

/*
 * A pending request, while the wait set is empty: the rows already read
 * (someone claimed the link and read the answer) are handed over, the
 * link left alone; then, if the request is still pending and may take the
 * link, the next batch is asked for.
 */
static void
mf_async_settle(AsyncRequest *areq, MfScanState *st)
{
	AppendState *requestor = (AppendState *) areq->requestor;

	if (st->next_row < st->nrows || st->eof || mf_scan_ahead_arrived(st))
	{
		areq->callback_pending = false;
		mf_async_produce(areq, false);
		ExecAsyncResponse(areq);
		if (!areq->callback_pending)
			return;
	}
	if (!st->request_out && mf_async_may_take_link(st, requestor))
	{
		areq->callback_pending = false;
		mf_async_produce(areq, true);
		ExecAsyncResponse(areq);
	}
}

void
mfForeignAsyncConfigureWait(AsyncRequest *areq)
{
	MfScanState *st = ((ForeignScanState *) areq->requestee)->fdw_state;
	AppendState *requestor = (AppendState *) areq->requestor;
	WaitEventSet *set = requestor->as_eventset;

	/* the set is empty: settle every pending scan of ours (see above) */
	if (GetNumRegisteredWaitEvents(set) <= 1)
	{
		int			i = -1;

		while ((i = bms_next_member(requestor->as_asyncplans, i)) >= 0)
		{
			AsyncRequest *other = requestor->as_asyncrequests[i];
			MfScanState *ost = mf_async_scan_of(other);

			if (ost != NULL && other->callback_pending)
				mf_async_settle(other, ost);
		}
	}

	/* still pending: a FETCH of this scan is out, wait for its answer */
	if (areq->callback_pending && st->request_out &&
		mf_conn_owned_by(st->entry, st))
		AddWaitEventToSet(set, WL_SOCKET_READABLE,
						  st->tr->async_socket(mf_conn(st->entry)), NULL,
						  areq);
}

void
mfForeignAsyncNotify(AsyncRequest *areq)
{
	mf_async_produce(areq, true);
}

/*
 * Close the scan's query; with keep, where the transport can, hand it to
 * the next mf_scan_open, which closes it in the exchange that opens the
 * new one (until then the remote cursor stays open, which holds nothing
 * the connection needs).  A small result whose rows are still on the
 * wire is not kept: it does hold the connection, and with no reader left
 * to take its rows (held_rows.c) the next statement of another scan would
 * have the transport read them all into memory.  Closed now, they are
 * read and dropped, as the requery would have done.
 */
static void
mf_scan_close(MfScanState *st, bool keep)
{
	mf_held_reset(&st->held);
	if (st->rescan_result != NULL)
	{
		st->tr->result_close(st->rescan_result);
		st->rescan_result = NULL;
	}
	if (st->result != NULL)
	{
		/* closing reads any answer still out, so the link is free after */
		mf_clear_stream_owner(st->entry, st);
		if (keep && st->tr->requery != NULL &&
			!(st->tr->holds_link != NULL && st->tr->holds_link(st->result)))
			st->rescan_result = st->result;
		else
			st->tr->result_close(st->result);
		st->result = NULL;
	}
	st->request_out = st->ahead_ready = false;
	st->nrows = st->next_row = 0;
	st->eof = false;
}

/*
 * Rescanned before its end (a Limit above it, EXISTS): where the rest of
 * the rows is here (the last batch) or on the wire, which the close would
 * read and drop anyway (a small result read without a cursor), it goes
 * into the rows kept, so that the answer for these values is whole.  A
 * cursor's rest would cost more exchanges: its rows are not kept.
 */
static void
mf_scan_memo_rest(ForeignScanState *node, MfScanState *st)
{
	if (st->result == NULL ||
		!((st->tr->holds_link != NULL && st->tr->holds_link(st->result)) ||
		  (st->tr->rows_all_read != NULL &&
		   st->tr->rows_all_read(st->result))))
		return;
	while (mf_memo_recording(st->memo))
	{
		/* kept as text, not converted: nobody asked for these rows */
		if (st->next_row < st->nrows)
		{
			MemoryContextReset(st->reader.temp_cxt);
			mf_memo_record(st->memo,
						   mf_row_reader_texts(&st->reader, st->tr, st->result,
											   st->next_row++));
			continue;
		}
		if (st->eof)
		{
			mf_memo_finish(st->memo);
			break;
		}
		mf_scan_next_batch(st, true);
	}
}

void
mfReScanForeignScan(ForeignScanState *node)
{
	MfScanState *st = node->fdw_state;

	/* parameters may have changed: run the query again (or replay it) */
	if (st->result != NULL || st->replay)
		st->rescans++;
	if (mf_memo_recording(st->memo))
		mf_scan_memo_rest(node, st);
	if (st->memo != NULL)
		mf_memo_abandon(st->memo);
	st->replay = false;
	mf_scan_close(st, true);
}

void
mfEndForeignScan(ForeignScanState *node)
{
	MfScanState *st = node->fdw_state;

	if (st == NULL)
		return;
	mf_stats_node_use(&st->stats);
	mf_scan_close(st, false);
	mf_stats_node_end(&st->stats);
}

void
mfExplainForeignScan(ForeignScanState *node, ExplainState *es)
{
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;

	List	   *relations = list_nth(fsplan->fdw_private, MF_SCAN_RELATIONS);

	if (intVal(list_nth(fsplan->fdw_private, MF_SCAN_SERVER)) != 0)
		ExplainPropertyText("Relations",
							psprintf("Query on (%s)", strVal(linitial(relations))),
							es);
	else if (relations != NIL)
		mf_explain_relations(fsplan, relations, es);
	if (es->verbose)
		ExplainPropertyText("Remote SQL",
							strVal(list_nth(fsplan->fdw_private, MF_SCAN_SQL)),
							es);
	if (es->analyze && node->fdw_state != NULL)
	{
		MfScanState *st = node->fdw_state;

		mf_stats_explain(&st->stats, es);
		if (mf_memo_hits(st->memo) > 0)
			ExplainPropertyInteger("Rescans From Kept Rows", NULL,
								   mf_memo_hits(st->memo), es);
		if (st->prime_statements > 0)
		{
			ExplainPropertyInteger("Values Read Ahead", NULL, st->primed, es);
			ExplainPropertyInteger("Read-Ahead Statements", NULL,
								   st->prime_statements, es);
		}
	}
}
