/*-------------------------------------------------------------------------
 *
 * modify.c
 *		Executing INSERT, UPDATE and DELETE on foreign tables, row by row
 *		or in batches.
 *
 * INSERT goes through the buffering core (buffer.c) whenever nothing needs
 * each row's result: the executor hands rows over in batches
 * (ExecForeignBatchInsert) and they leave as multi-row statements.  With
 * RETURNING, WITH CHECK OPTION or row triggers, each row is one statement,
 * and the row as the remote stored it comes back (stored_row.c).
 *
 * UPDATE and DELETE find the row again by the dialect's row identity (ctid
 * for PostgreSQL, the key columns elsewhere).  Their planning is in
 * modify_plan.c; an UPDATE or DELETE sent whole is direct_modify.c's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/appendinfo.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "exec/exec.h"
#include "plan/modify_int.h"

/*
 * An INSERT the planner expects to send at most this many rows goes under
 * auto as one prepared INSERT, not a COPY: one exchange instead of two.
 * One, since beyond it a COPY's error names the row that failed, and a
 * multi-row INSERT's cannot.
 */
#define MF_INSERT_FEW_ROWS	1

typedef struct MfModifyState
{
	Relation	rel;
	MfConnEntry *entry;
	const MfTransport *tr;
	const MfDialect *dialect;
	MfOptions	opts;
	CmdType		operation;

	char	   *sql;			/* one-row statement */
	MfStmt	   *stmt;			/* it, prepared on first use */
	char	   *sql_unpruned;	/* for a row whose partition key is NULL */
	MfStmt	   *stmt_unpruned;	/* it, prepared with stmt */
	bool		unpruned_only;	/* ... and for every row: the keys the plan
								 * names are no longer the remote's */
	int			nprune;			/* partition key columns ending the
								 * identity (rowid.c) */
	char	   *pruned_old;		/* the setting pruned_begin_sql replaced */
	List	   *target_attrs;
	List	   *identity_attrs;
	List	   *returning_attrs;	/* columns of the stored row read back */
	bool		do_nothing;
	char	   *reread_sql;		/* they are read by this (stored_row.c);
								 * NULL: the statement returns them */
	List	   *reread_params;
	MfStmt	   *reread_stmt;	/* it, prepared on first use */

	AttrNumber *identity_junk;	/* junk columns holding the identity */
	FmgrInfo   *out_functions;	/* targets, then identity columns */
	bool		values_need_modes;	/* their output depends on settings */
	MfTypeClass *classes;
	int			nparams;

	MfInsertBuffer *buffer;		/* batched INSERT */
	MfInsertMethod insert_method;	/* its method; MF_INSERT_AUTO until
									 * decided (mf_modify_insert_method) */
	bool		few_rows;		/* an INSERT the planner expects to send at
								 * most MF_INSERT_FEW_ROWS rows */
	bool		rows_one_by_one;	/* COPY into the table: the remote may
									 * skip rows, so each row's count is
									 * read (see mfExecForeignInsert) */
	bool		pipelined;		/* per-row UPDATE/DELETE sent without waiting */
	bool		check_partition;	/* an UPDATE that sets a column of the
									 * partition's constraint */
	MfPipeline	pipeline;
	MfRowReader reader;			/* RETURNING */
	MemoryContext temp_cxt;

	/* one-row statements: the remote's cap on a request (0: none) */
	bool		packet_known;
	size_t		packet_limit;
	long		rows_seen;		/* rows of the statement so far */

	MfNodeStats stats;			/* EXPLAIN ANALYZE, progress (stats.c) */
} MfModifyState;

/* ---------------------------------------------------------------------
 * Execution
 * ---------------------------------------------------------------------
 */

/*
 * Who the remote sees: the checkAsUser of the target's range table entry.
 * A partition that rows are routed into has none of its own (index 0): its
 * root's counts.
 */
static Oid
mf_modify_userid(EState *estate, ResultRelInfo *rinfo)
{
	return mf_result_rel_userid(rinfo, estate);
}

static MfModifyState *
mf_modify_state(EState *estate, ResultRelInfo *rinfo, CmdType operation,
				char *sql, List *target_attrs, List *identity_attrs,
				List *returning_attrs, bool do_nothing, Plan *subplan,
				char *sql_unpruned, int nprune, char *reread_sql,
				List *reread_params, char *sql_plain)
{
	MfModifyState *st = palloc0(sizeof(MfModifyState));
	Relation	rel = rinfo->ri_RelationDesc;
	Oid			userid = mf_modify_userid(estate, rinfo);
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			i = 0;
	ListCell   *lc;

	st->rel = rel;
	st->operation = operation;
	st->sql = sql;
	st->target_attrs = target_attrs;
	st->identity_attrs = identity_attrs;
	st->returning_attrs = returning_attrs;
	st->do_nothing = do_nothing;
	st->check_partition = operation == CMD_UPDATE &&
		mf_update_sets_partition_key(rel, target_attrs, NIL);
	st->sql_unpruned = nprune > 0 ? sql_unpruned : NULL;
	st->nprune = nprune;
	st->reread_sql = reread_sql != NULL && reread_sql[0] != '\0' ?
		reread_sql : NULL;
	st->reread_params = reread_params;
	mf_get_table_options(RelationGetRelid(rel), &st->opts);
	st->entry = mf_get_connection(GetUserMapping(userid, st->opts.serverid),
								  &st->opts);
	st->tr = mf_conn_transport(st->entry);
	st->dialect = mf_conn_dialect(st->entry);
	mf_conn_mark_written(st->entry);
	mf_stats_node_begin(&st->stats, st->entry, rel, operation);

	/* planned both ways: the server says which, before anything is sent */
	if (sql_plain != NULL && sql_plain[0] != '\0')
	{
		if (mf_stored_row_server_returns(st->entry, operation, do_nothing))
			st->reread_sql = NULL;
		else if (st->reread_sql == NULL)
			mf_stored_row_no_key(rel, st->dialect);
		else
			st->sql = sql_plain;
	}
	st->temp_cxt = AllocSetContextCreate(estate->es_query_cxt,
										 "multi_fdw modify",
										 ALLOCSET_SMALL_SIZES);

	st->nparams = list_length(target_attrs) + list_length(identity_attrs);
	st->out_functions = palloc0(sizeof(FmgrInfo) * Max(st->nparams, 1));
	st->classes = palloc0(sizeof(MfTypeClass) * Max(st->nparams, 1));
	foreach(lc, list_concat_copy(target_attrs, identity_attrs))
	{
		int			attnum = lfirst_int(lc);
		Oid			typid = attnum == SelfItemPointerAttributeNumber ? TIDOID :
			attnum == MF_REMOTE_TABLEOID_ATTNO ? XIDOID :
			TupleDescAttr(tupdesc, attnum - 1)->atttypid;
		Oid			typoutput;
		bool		isvarlena;

		getTypeOutputInfo(typid, &typoutput, &isvarlena);
		fmgr_info(typoutput, &st->out_functions[i]);
		st->classes[i] = mf_type_class(typid);
		i++;
	}
	st->values_need_modes = mf_outputs_need_modes(st->out_functions,
												  st->nparams);

	/* where the row identity arrives among the subplan's junk columns */
	if (identity_attrs != NIL)
	{
		st->identity_junk = palloc(sizeof(AttrNumber) * list_length(identity_attrs));
		i = 0;
		foreach(lc, identity_attrs)
		{
			int			attnum = lfirst_int(lc);
			char	   *name = attnum == SelfItemPointerAttributeNumber ? "ctid" :
				attnum == MF_REMOTE_TABLEOID_ATTNO ? "mf_tableoid" :
				i >= list_length(identity_attrs) - nprune ?
				mf_rowid_prune_name(rel, attnum) :
				psprintf("mf_key_%d", attnum);

			st->identity_junk[i] = ExecFindJunkAttributeInTlist(subplan->targetlist,
																name);
			if (!AttributeNumberIsValid(st->identity_junk[i]))
				elog(ERROR, "could not find junk column \"%s\"", name);
			i++;
		}
	}

	if (returning_attrs != NIL)
		mf_row_reader_init(&st->reader, tupdesc, returning_attrs,
						   estate->es_query_cxt);
	return st;
}

/* Is plan this table's own foreign scan (under projections and Appends)? */
static bool
mf_plan_is_own_scan(Plan *plan, Index rti)
{
	ListCell   *lc;

	if (plan == NULL)
		return false;
	if (IsA(plan, Result))
		return mf_plan_is_own_scan(outerPlan(plan), rti);
	if (IsA(plan, Append))
	{
		foreach(lc, ((Append *) plan)->appendplans)
			if (mf_plan_is_own_scan(lfirst(lc), rti))
				return true;
		return false;
	}
	return IsA(plan, ForeignScan) && ((ForeignScan *) plan)->scan.scanrelid == rti;
}

/*
 * Per-row UPDATE and DELETE statements can be pipelined when nothing needs
 * each one's answer: no RETURNING and no AFTER ROW trigger on the table,
 * and the rows come straight from the table's own scan, which reads every
 * answer at its end, before the executor's count is final (see
 * MfPipeline.processed).  Under a join the same row may come twice, and
 * the join may outlive the scan: each statement then waits for its count.
 */
static bool
mf_can_pipeline_rows(MfModifyState *st, ModifyTableState *mtstate,
					 ResultRelInfo *rinfo)
{
	TriggerDesc *trig = rinfo->ri_TrigDesc;

	if (st->operation == CMD_INSERT || st->returning_attrs != NIL ||
		st->tr->pipeline_begin == NULL)
		return false;
	if (trig && (trig->trig_update_after_row || trig->trig_delete_after_row))
		return false;
	return mf_plan_is_own_scan(outerPlanState(mtstate)->plan,
							   rinfo->ri_RangeTableIndex);
}

void
mfBeginForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo,
					 List *fdw_private, int subplan_index, int eflags)
{
	MfModifyState *st;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	mf_remote_data_changed();	/* rows kept for rescans are out of date */
	st = rinfo->ri_FdwState =
		mf_modify_state(mtstate->ps.state, rinfo, mtstate->operation,
						strVal(list_nth(fdw_private, MF_MOD_SQL)),
						list_nth(fdw_private, MF_MOD_TARGET_ATTRS),
						list_nth(fdw_private, MF_MOD_IDENTITY_ATTRS),
						list_nth(fdw_private, MF_MOD_RETURNING_ATTRS),
						boolVal(list_nth(fdw_private, MF_MOD_DO_NOTHING)),
						outerPlanState(mtstate)->plan,
						strVal(list_nth(fdw_private, MF_MOD_SQL_UNPRUNED)),
						intVal(list_nth(fdw_private, MF_MOD_NPRUNE)),
						strVal(list_nth(fdw_private, MF_MOD_REREAD_SQL)),
						list_nth(fdw_private, MF_MOD_REREAD_PARAMS),
						strVal(list_nth(fdw_private, MF_MOD_SQL_PLAIN)));
	st->few_rows = st->operation == CMD_INSERT &&
		outerPlanState(mtstate)->plan->plan_rows <= MF_INSERT_FEW_ROWS;
	/* what planning asked of the remote, asked again (rowid.c) */
	st->unpruned_only =
		!mf_rowid_check_exec(st->rel, mf_modify_userid(mtstate->ps.state, rinfo),
							 st->dialect, st->identity_attrs, st->nprune);
	if (mf_can_pipeline_rows(st, mtstate, rinfo))
	{
		st->pipelined = true;
		/* a fetch_size of rows read ahead are at most that many statements */
		mf_pipeline_init(&st->pipeline, st->entry,
						 Max(st->opts.batch_size, st->opts.fetch_size), st->sql);
		if (mtstate->canSetTag)
			st->pipeline.processed = &mtstate->ps.state->es_processed;
	}
}

/*
 * Rows routed into a foreign partition, or copied into a foreign table:
 * the same machinery, planned here since the planner never saw them.
 */
void
mfBeginForeignInsert(ModifyTableState *mtstate, ResultRelInfo *rinfo)
{
	ModifyTable *plan = mtstate ? (ModifyTable *) mtstate->ps.plan : NULL;
	Relation	rel = rinfo->ri_RelationDesc;
	MfMarkerStyle markers;
	const MfDialect *dialect = mf_modify_dialect(rel, &markers);
	OnConflictAction on_conflict = plan ? plan->onConflictAction : ONCONFLICT_NONE;
	List	   *target_attrs = mf_modify_columns(rel, true);
	MfStoredRow sr;

	mf_remote_data_changed();	/* rows kept for rescans are out of date */
	if (rinfo->ri_FdwState != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot route tuples into foreign table \"%s\" while it is being updated",
						RelationGetRelationName(rel))));
	mf_check_insert_features(rel, dialect, on_conflict);
	mf_stored_row_plan(&sr, rel, dialect, markers, CMD_INSERT,
					   rinfo->ri_returningList,
					   rinfo->ri_WithCheckOptions != NIL,
					   on_conflict == ONCONFLICT_NOTHING, target_attrs, NIL);

	rinfo->ri_FdwState =
		mf_modify_state(mtstate->ps.state, rinfo, CMD_INSERT,
						mf_deparse_insert(rel, dialect, markers, target_attrs, 1,
										  on_conflict == ONCONFLICT_NOTHING,
										  sr.returning ? sr.attrs : NIL),
						target_attrs, NIL, sr.attrs,
						on_conflict == ONCONFLICT_NOTHING, NULL, NULL, 0,
						sr.reread_sql, sr.reread_params,
						sr.server_decides ?
						mf_deparse_insert(rel, dialect, markers, target_attrs, 1,
										  on_conflict == ONCONFLICT_NOTHING,
										  NIL) : NULL);
}

/* Does anything need each inserted row's result? */
static bool
mf_needs_row_results(ResultRelInfo *rinfo)
{
	return rinfo->ri_projectReturning != NULL ||
		rinfo->ri_WithCheckOptions != NIL ||
		(rinfo->ri_TrigDesc &&
		 (rinfo->ri_TrigDesc->trig_insert_before_row ||
		  rinfo->ri_TrigDesc->trig_insert_after_row));
}

/* batch_size 1 asks for one row per statement, whatever the method */
static bool
mf_row_at_a_time(const MfOptions *opts)
{
	return opts->insert_method == MF_INSERT_ROW || opts->batch_size <= 1;
}

/* columns an INSERT sends: every one but dropped and generated ones */
static int
mf_insert_ncols(Relation rel)
{
	return list_length(mf_modify_columns(rel, true));
}

/*
 * The batched INSERT's method, decided once per statement.  auto chose
 * without knowing the server: one that refuses the stream, or would run
 * parameter arrays row by row, gets the next best.  Asking may talk to the
 * server, so nobody else's stream may be open meanwhile.
 */
static MfInsertMethod
mf_modify_insert_method(MfModifyState *st)
{
	if (st->insert_method == MF_INSERT_AUTO && st->few_rows &&
		st->opts.insert_method == MF_INSERT_AUTO)
	{
		/*
		 * A row is one INSERT, prepared once per connection: one exchange,
		 * where a COPY costs two (and the check for triggers that COPY
		 * needs costs more).  Its count is the remote's.
		 */
		st->insert_method = MF_INSERT_VALUES;
	}
	else if (st->insert_method == MF_INSERT_AUTO)
	{
		MfInsertMethod method = mf_resolve_insert_method(&st->opts, st->do_nothing,
														  list_length(st->target_attrs));

		mf_claim_connection(st->entry, NULL);
		method = mf_connected_insert_method(&st->opts, method, st->entry,
											st->rel,
											list_length(st->target_attrs),
											st->do_nothing);
		st->insert_method = method;
	}
	return st->insert_method;
}

/*
 * The executor's batch: 1 when each row's result is needed (RETURNING,
 * WITH CHECK OPTION, row triggers) or the user asked for row-at-a-time,
 * else what the insert method wants (buffer.c).
 */
int
mfGetForeignModifyBatchSize(ResultRelInfo *rinfo)
{
	MfModifyState *st = rinfo->ri_FdwState;
	MfOptions	opts;
	bool		do_nothing;
	int			ncols;

	if (mf_needs_row_results(rinfo))
		return 1;

	if (st != NULL)
	{
		opts = st->opts;
		do_nothing = st->do_nothing;
		ncols = list_length(st->target_attrs);
	}
	else
	{
		mf_get_table_options(RelationGetRelid(rinfo->ri_RelationDesc), &opts);
		do_nothing = false;
		ncols = mf_insert_ncols(rinfo->ri_RelationDesc);
	}
	if (mf_row_at_a_time(&opts))
		return 1;
	return mf_executor_batch_size(&opts,
								  st != NULL ? mf_modify_insert_method(st) :
								  mf_resolve_insert_method(&opts, do_nothing, ncols),
								  ncols);
}

/*
 * The parameters of a one-row statement, as text, in temp_cxt.  *unpruned:
 * a partition key value is NULL, so the row goes by st->sql_unpruned, whose
 * parameters are the same but for the keys at the end.
 */
static const char **
mf_row_params(MfModifyState *st, TupleTableSlot *slot, TupleTableSlot *planSlot,
			  bool *unpruned)
{
	const char **values = palloc(sizeof(char *) * Max(st->nparams, 1));
	int			i = 0;
	int			j = 0;
	ListCell   *lc;

	if (slot != NULL)
		slot_getallattrs(slot);
	foreach(lc, st->target_attrs)
	{
		int			attnum = lfirst_int(lc);

		values[i] = slot->tts_isnull[attnum - 1] ? NULL :
			OutputFunctionCall(&st->out_functions[i], slot->tts_values[attnum - 1]);
		i++;
	}
	foreach(lc, st->identity_attrs)
	{
		bool		isnull;
		Datum		d = ExecGetJunkAttribute(planSlot, st->identity_junk[j], &isnull);

		if (isnull && j >= list_length(st->identity_attrs) - st->nprune)
		{
			*unpruned = true;
			values[i++] = NULL;
			j++;
			continue;
		}
		if (isnull)
			elog(ERROR, "row identity of a foreign table row is NULL");
		values[i] = OutputFunctionCall(&st->out_functions[i], d);
		i++;
		j++;
	}
	return values;
}

/* The stored row, read again by key into slot (stored_row.c). */
static bool
mf_stored_row_reread_in(MfModifyState *st, const char **values,
						TupleTableSlot *slot)
{
	MemoryContext old = MemoryContextSwitchTo(st->temp_cxt);
	bool		found;

	found = mf_stored_row_reread(st->entry, st->rel, st->operation,
								 &st->reread_stmt, st->reread_sql,
								 st->reread_params, values, st->classes,
								 &st->reader, slot);
	MemoryContextSwitchTo(old);
	return found;
}

/* Run the one-row statement; the row read back, if any, lands in slot. */
static TupleTableSlot *
mf_execute_row(MfModifyState *st, TupleTableSlot *slot, TupleTableSlot *planSlot)
{
	MemoryContext old = MemoryContextSwitchTo(st->temp_cxt);
	const char **values;
	MfResult   *res = NULL;
	MfError		err;
	long		rows = 0;
	int			nestlevel;
	bool		unpruned = false;
	MfStmt	   *stmt;

	MemoryContextReset(st->temp_cxt);
	nestlevel = mf_set_transmission_modes_if(st->values_need_modes);
	values = mf_row_params(st, st->target_attrs ? slot : NULL, planSlot,
						   &unpruned);
	mf_reset_transmission_modes(nestlevel);
	MemoryContextSwitchTo(old);

	mf_stats_node_use(&st->stats);
	mf_claim_connection(st->entry, st->pipelined ? (void *) &st->pipeline : st);
	if (!st->packet_known)
	{
		st->packet_limit = mf_packet_limit(st->entry, st->pipelined ?
										   (void *) &st->pipeline : st);
		st->packet_known = true;
	}
	st->rows_seen++;
	for (int i = 0; i < list_length(st->target_attrs); i++)
		mf_check_storable(st->entry, st->rel, list_nth_int(st->target_attrs, i),
						  st->classes[i], values[i], st->rows_seen);
	if (st->packet_limit > 0)
		mf_check_packet(st->entry, st->packet_limit,
						mf_row_wire_bytes(st->classes, values, st->nparams),
						st->rows_seen);
	mf_error_clear(&err);
	if (st->stmt == NULL)
	{
		st->stmt = st->tr->prepare(mf_conn(st->entry), st->sql, st->nparams,
								   st->classes, &err);
		if (st->stmt == NULL)
			mf_raise_error(ERROR, st->entry, &err, st->sql);
		/* both before the pipeline opens: nothing is prepared within it */
		if (st->sql_unpruned != NULL)
		{
			st->pruned_old = mf_rowid_generic_begin(st->entry, st->dialect,
													 GetMemoryChunkContext(st));
			st->stmt_unpruned = st->tr->prepare(mf_conn(st->entry),
												st->sql_unpruned,
												st->nparams - st->nprune,
												st->classes, &err);
			if (st->stmt_unpruned == NULL)
				mf_raise_error(ERROR, st->entry, &err, st->sql_unpruned);
		}
	}
	stmt = unpruned || st->unpruned_only ? st->stmt_unpruned : st->stmt;

	/* a row about to be deleted is read while it is there */
	if (st->reread_sql != NULL && st->operation == CMD_DELETE &&
		!mf_stored_row_reread_in(st, values, slot))
		return NULL;
	mf_stats_count(st->entry, MF_C_STATEMENTS, 1);
	if (st->operation == CMD_INSERT)
	{
		mf_stats_count_rows(st->entry, MF_INSERT_ROW, 1);
		if (st->stats.method == MF_INSERT_AUTO)
			st->stats.method = MF_INSERT_ROW;
	}
	else
		mf_stats_count(st->entry, MF_C_ROWS_SENT, 1);
	/* a row is a round trip or less: others see every hundredth */
	if (st->rows_seen % 100 == 0)
		mf_stats_node_publish(&st->stats);
	if (st->pipelined)
	{
		/*
		 * The row was read FOR UPDATE in this remote transaction and is
		 * found by its ctid or key: the statement touches it, so the slot
		 * is returned without waiting for the answer.
		 */
		mf_pipeline_send(&st->pipeline, stmt, values);
		return slot;
	}
	if (!st->tr->execute(stmt, values, &rows,
						 st->returning_attrs && st->reread_sql == NULL ?
						 &res : NULL, &err))
		mf_raise_error(ERROR, st->entry, &err, st->sql);

	if (res != NULL)
	{
		int			n = st->tr->fetch(res, &err);

		if (n > 0)
			mf_row_reader_store(&st->reader, st->tr, res, 0, slot);
		st->tr->result_close(res);
		if (n < 0)
			mf_raise_error(ERROR, st->entry, &err, st->sql);
		/* some transports count no rows for a statement that returns some */
		rows = n;
	}
	if (rows > 0 && st->reread_sql != NULL && st->operation != CMD_DELETE)
		(void) mf_stored_row_reread_in(st, values, slot);
	return rows > 0 ? slot : NULL;
}

/* The buffer of a batched insert, made on first use. */
static MfInsertBuffer *
mf_insert_buffer(EState *estate, MfModifyState *st)
{
	if (st->buffer == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(estate->es_query_cxt);
		MfInsertMethod method = mf_modify_insert_method(st);

		st->buffer = mf_buffer_create(st->entry, st->rel, &st->opts,
									  st->target_attrs, st->do_nothing, method);
		st->stats.method = method;
		MemoryContextSwitchTo(old);
	}
	return st->buffer;
}

/*
 * One row.  PostgreSQL 15 calls this row by row for COPY into a foreign
 * table and for rows routed by COPY into foreign partitions: when nothing
 * needs the row's result, it is held and sent with the others, and the
 * statement's end (EndForeignInsert) sends the rest.
 */
TupleTableSlot *
mfExecForeignInsert(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
					TupleTableSlot *planSlot)
{
	MfModifyState *st = rinfo->ri_FdwState;
	MfInsertBuffer *buf;
	int			nestlevel;

	mf_stats_node_use(&st->stats);
	if (st->returning_attrs != NIL || st->do_nothing ||
		mf_needs_row_results(rinfo) || mf_row_at_a_time(&st->opts))
		return mf_execute_row(st, slot, planSlot);

	/*
	 * COPY counts the rows this returns, before a buffer sends them: into a
	 * remote whose triggers may skip rows, each is sent on its own, so
	 * that a skipped one is NULL (whatever the method: none is exact).
	 */
	(void) mf_modify_insert_method(st);
	if (st->buffer == NULL && !st->rows_one_by_one)
		st->rows_one_by_one = mf_remote_may_skip_rows(st->entry, st->rel);
	if (st->rows_one_by_one)
		return mf_execute_row(st, slot, planSlot);

	buf = mf_insert_buffer(estate, st);
	if (mf_buffer_full(buf))
	{
		(void) mf_buffer_flush(buf);
		(void) mf_buffer_sync(buf);
		mf_stats_node_publish(&st->stats);
	}
	nestlevel = mf_set_transmission_modes_if(buf->values_need_modes);
	mf_buffer_add(buf, slot);
	mf_reset_transmission_modes(nestlevel);
	return slot;
}

TupleTableSlot **
mfExecForeignBatchInsert(EState *estate, ResultRelInfo *rinfo,
						 TupleTableSlot **slots, TupleTableSlot **planSlots,
						 int *numSlots)
{
	MfModifyState *st = rinfo->ri_FdwState;
	long		inserted = 0;
	int			nestlevel;
	MfInsertBuffer *buf;

	mf_stats_node_use(&st->stats);
	buf = mf_insert_buffer(estate, st);

	nestlevel = mf_set_transmission_modes_if(buf->values_need_modes);
	for (int i = 0; i < *numSlots; i++)
	{
		if (mf_buffer_full(buf))
			inserted += mf_buffer_flush(buf);
		mf_buffer_add(buf, slots[i]);
	}
	mf_reset_transmission_modes(nestlevel);
	inserted += mf_buffer_flush(buf);

	/*
	 * A pipeline stays open across calls where every row sent is inserted
	 * or the statement fails; with DO NOTHING, or into a remote whose
	 * triggers may skip rows, it is read to its end now, so that the count
	 * is the remote's (mf_buffer_counts_late).
	 */
	if (mf_buffer_counts_late(buf))
	{
		mf_stats_node_publish(&st->stats);
		return slots;
	}
	inserted += mf_buffer_sync(buf);
	*numSlots = (int) inserted;
	mf_stats_node_publish(&st->stats);
	return slots;
}

TupleTableSlot *
mfExecForeignUpdate(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
					TupleTableSlot *planSlot)
{
	MfModifyState *st = rinfo->ri_FdwState;

	/* the row may not leave its partition (partition_guard.c) */
	if (st->check_partition)
		(void) ExecPartitionCheck(rinfo, slot, estate, true);
	return mf_execute_row(st, slot, planSlot);
}

TupleTableSlot *
mfExecForeignDelete(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
					TupleTableSlot *planSlot)
{
	return mf_execute_row(rinfo->ri_FdwState, slot, planSlot);
}

static void
mf_end_modify(EState *estate, MfModifyState *st)
{
	if (st == NULL)
		return;
	mf_stats_node_use(&st->stats);
	if (st->buffer != NULL)
	{
		MfInsertBuffer *buf = st->buffer;

		st->buffer = NULL;
		mf_buffer_destroy(buf);
	}
	if (st->pipelined)
		(void) mf_pipeline_sync(&st->pipeline);
	if (st->stmt != NULL)
	{
		st->tr->stmt_close(st->stmt);
		st->stmt = NULL;
	}
	if (st->stmt_unpruned != NULL)
	{
		st->tr->stmt_close(st->stmt_unpruned);
		st->stmt_unpruned = NULL;
	}
	if (st->reread_stmt != NULL)
	{
		st->tr->stmt_close(st->reread_stmt);
		st->reread_stmt = NULL;
	}
	if (st->pruned_old != NULL)
	{
		char	   *old = st->pruned_old;

		st->pruned_old = NULL;
		mf_rowid_generic_end(st->entry, st->dialect, old);
	}
	mf_stats_node_end(&st->stats);
}

void
mfEndForeignModify(EState *estate, ResultRelInfo *rinfo)
{
	mf_end_modify(estate, rinfo->ri_FdwState);
}

void
mfEndForeignInsert(EState *estate, ResultRelInfo *rinfo)
{
	mf_end_modify(estate, rinfo->ri_FdwState);
}

static void
mf_explain_modify_plan(ModifyTableState *mtstate, ResultRelInfo *rinfo,
					   List *fdw_private, ExplainState *es)
{
	Relation	rel = rinfo->ri_RelationDesc;
	List	   *target_attrs = list_nth(fdw_private, MF_MOD_TARGET_ATTRS);
	bool		do_nothing = boolVal(list_nth(fdw_private, MF_MOD_DO_NOTHING));
	int			batch;
	MfOptions	opts;
	MfInsertMethod method;
	MfInsertMethod fallback = MF_INSERT_COPY;

	MfModifyState *st = rinfo->ri_FdwState;
	const char *sql = strVal(list_nth(fdw_private, MF_MOD_SQL));
	const char *reread = strVal(list_nth(fdw_private, MF_MOD_REREAD_SQL));
	const char *reread_label = "Remote SQL for the stored row";

	/*
	 * Once the statement began, what it sends; before, for a dialect whose
	 * servers differ, RETURNING and what replaces it where the server has
	 * none (plain EXPLAIN does not connect).
	 */
	if (st != NULL)
	{
		sql = st->sql;
		reread = st->reread_sql ? st->reread_sql : "";
	}
	else if (strVal(list_nth(fdw_private, MF_MOD_SQL_PLAIN))[0] != '\0')
		reread_label = "Remote SQL for the stored row without RETURNING";

	if (mtstate->operation != CMD_INSERT)
	{
		const char *unpruned = strVal(list_nth(fdw_private, MF_MOD_SQL_UNPRUNED));

		ExplainPropertyText("Remote SQL", sql, es);
		if (unpruned[0] != '\0')
			ExplainPropertyText("Remote SQL for a NULL partition key", unpruned, es);
		if (reread[0] != '\0')
			ExplainPropertyText(reread_label, reread, es);
		return;
	}

	/* what will really be sent, as the executor will decide it */
	mf_get_table_options(RelationGetRelid(rel), &opts);
	method = mf_needs_row_results(rinfo) || mf_row_at_a_time(&opts) ?
		MF_INSERT_ROW :
		mf_resolve_insert_method(&opts, do_nothing, list_length(target_attrs));
	batch = opts.batch_size;

	/*
	 * EXPLAIN ANALYZE: what the statement used, once the server was asked
	 * (see mf_connected_insert_method).  Plain EXPLAIN does not connect: it
	 * shows auto's choice, and for a stream the server may refuse, what
	 * would be used instead.
	 */
	if (method != MF_INSERT_ROW && rinfo->ri_FdwState != NULL &&
		((MfModifyState *) rinfo->ri_FdwState)->insert_method != MF_INSERT_AUTO)
		method = ((MfModifyState *) rinfo->ri_FdwState)->insert_method;
	else if (method == MF_INSERT_COPY && opts.insert_method == MF_INSERT_AUTO &&
			 opts.transport->copy_available != NULL)
		fallback = mf_resolve_insert_method(&opts, true,
											list_length(target_attrs));

	if (method == MF_INSERT_COPY)
	{
		ExplainPropertyText("Remote SQL",
							mf_deparse_copy(rel, opts.dialect, target_attrs), es);
		ExplainPropertyText("Insert Method", "copy", es);
		ExplainPropertyInteger("Batch Size", NULL, batch, es);
		if (fallback != MF_INSERT_COPY)
			ExplainPropertyText("Without Stream", mf_insert_method_name(fallback), es);
	}
	else if (method == MF_INSERT_ARRAY)
	{
		ExplainPropertyText("Remote SQL", sql, es);
		ExplainPropertyText("Insert Method", "array", es);
		ExplainPropertyInteger("Parameter Sets", NULL,
							   mf_executor_batch_size(&opts, method,
													  list_length(target_attrs)),
							   es);
	}
	else
	{
		ExplainPropertyText("Remote SQL", sql, es);
		ExplainPropertyText("Insert Method", mf_insert_method_name(method), es);
		ExplainPropertyInteger("Rows per Statement", NULL,
							   method == MF_INSERT_ROW ? 1 :
							   mf_rows_per_statement(opts.dialect, opts.transport,
													 list_length(target_attrs), batch),
							   es);
		if (method == MF_INSERT_PIPELINE)
			ExplainPropertyInteger("Pipeline Depth", NULL, opts.pipeline_depth, es);
	}
	if (reread[0] != '\0')
		ExplainPropertyText(reread_label, reread, es);
}

void
mfExplainForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo,
					   List *fdw_private, int subplan_index, ExplainState *es)
{
	MfModifyState *st = rinfo->ri_FdwState;

	if (es->verbose)
		mf_explain_modify_plan(mtstate, rinfo, fdw_private, es);
	if (es->analyze && st != NULL)
	{
		/*
		 * The executor is done with the node but has not ended it: the
		 * COPY's end and a pipeline's last answers are read now, so that
		 * the figures are the statement's whole cost.
		 */
		mf_stats_node_use(&st->stats);
		if (st->buffer != NULL)
			mf_buffer_finish(st->buffer);
		if (st->pipelined)
			(void) mf_pipeline_sync(&st->pipeline);
		mf_stats_explain(&st->stats, es);
	}
}
