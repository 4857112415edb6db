/*-------------------------------------------------------------------------
 *
 * exec.h
 *		The exec layer: scans, modifications, the buffering core and its
 *		flush strategies, pipelines, the dependent join's executor, ANALYZE,
 *		TRUNCATE and IMPORT FOREIGN SCHEMA.  It runs what plan/ decided,
 *		with deparse/'s SQL, over remote/'s connections.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_EXEC_H
#define MF_EXEC_H

#include "postgres.h"

#include "foreign/fdwapi.h"
#include "funcapi.h"
#include "nodes/execnodes.h"
#include "utils/resowner.h"

#include "plan/plan.h"

/* ---------------------------------------------------------------------
 * scan.c: reading foreign tables
 * ---------------------------------------------------------------------
 */
extern void mfBeginForeignScan(ForeignScanState *node, int eflags);
extern TupleTableSlot *mfIterateForeignScan(ForeignScanState *node);
extern void mfReScanForeignScan(ForeignScanState *node);
extern void mfEndForeignScan(ForeignScanState *node);
extern void mfExplainForeignScan(ForeignScanState *node, ExplainState *es);
extern bool mfIsForeignPathAsyncCapable(ForeignPath *path);
extern void mfForeignAsyncRequest(AsyncRequest *areq);
extern void mfForeignAsyncConfigureWait(AsyncRequest *areq);
extern void mfForeignAsyncNotify(AsyncRequest *areq);
extern bool mfAnalyzeForeignTable(Relation relation,
								  AcquireSampleRowsFunc *func,
								  BlockNumber *totalpages);
/* analyze_import.c: ANALYZE from the remote's own statistics */
extern bool mf_import_remote_stats(Relation rel, int elevel,
								   double *totalrows);

/* run_extent.c: whether the executor's run asks for every row at once */
extern bool mf_run_reads_all(void);
extern void mf_run_extent_init(void);

/* jit_choice.c: JIT judged on the gateway's own share of a plan's cost */
extern void mf_jit_choice_init(void);

/* Reads rows of a remote query into slots: shared by scans and modify. */
typedef struct MfRowReader
{
	AttInMetadata *attinmeta;
	List	   *retrieved_attrs;	/* attnums (0 < n) or
									 * SelfItemPointerAttributeNumber */
	MemoryContext temp_cxt;
	struct MfHeldRows *held;	/* where rows read ahead wait (held_rows.c);
								 * NULL: none */
} MfRowReader;

extern void mf_row_reader_init(MfRowReader *reader, TupleDesc tupdesc,
							   List *retrieved_attrs, MemoryContext parent);
extern HeapTuple mf_row_reader_form(MfRowReader *reader, const MfTransport *tr,
								   MfResult *res, int row, MemoryContext target,
								   Relation rel);
extern const char **mf_row_reader_texts(MfRowReader *reader,
										const MfTransport *tr, MfResult *res,
										int row);
extern HeapTuple mf_row_reader_form_texts(MfRowReader *reader,
										  const char *const *texts,
										  MemoryContext target, Relation rel);
extern void mf_row_reader_store(MfRowReader *reader, const MfTransport *tr,
								MfResult *res, int row, TupleTableSlot *slot);

/* ---------------------------------------------------------------------
 * scan_memo.c: a rescanned scan's rows kept by its parameters' values
 * ---------------------------------------------------------------------
 */
typedef struct MfScanMemo MfScanMemo;

extern MfScanMemo *mf_memo_create(MemoryContext parent, int ncols);
extern bool mf_memo_begin(MfScanMemo *m, int nparams, const char **values);
extern const char *const *mf_memo_next(MfScanMemo *m);
extern bool mf_memo_recording(MfScanMemo *m);
extern bool mf_memo_replaying(MfScanMemo *m);
extern void mf_memo_record(MfScanMemo *m, const char *const *values);
extern void mf_memo_finish(MfScanMemo *m);
extern void mf_memo_abandon(MfScanMemo *m);
extern long mf_memo_hits(MfScanMemo *m);
typedef struct MfMemoEntry MfMemoEntry;
extern MfMemoEntry *mf_memo_prime_entry(MfScanMemo *m, int nparams,
										const char **values);
extern bool mf_memo_prime_row(MfScanMemo *m, MfMemoEntry *e,
							  const char *const *values);
extern void mf_memo_prime_end(MfScanMemo *m, MfMemoEntry *e, bool complete);

/* ---------------------------------------------------------------------
 * read_ahead.c: a rescanned scan read for many values in one statement,
 * and the node whose rows give the values
 * ---------------------------------------------------------------------
 */
extern bool mf_scan_primable(PlanState *ps, List *par_params,
							 MfConnEntry *outer_entry, int **param_index,
							 int *nparams);
extern void mf_scan_prime(ForeignScanState *node, int nsets,
						  const char **values);

typedef struct MfPrimer MfPrimer;
typedef int (*MfPrimeColumnFn) (Var *var, void *arg);
typedef const char *(*MfPrimeValueFn) (void *arg, int row, int col);

extern MfPrimer *mf_primer_create(PlanState *outer, List *exprs,
								  MfConnEntry *outer_entry,
								  MfPrimeColumnFn column_of, void *arg);
extern void mf_primer_prime(MfPrimer *p, MfPrimeValueFn value, void *arg,
							int from, int to);
extern void mf_primer_add_inner(MfPrimer **p, PlanState *outer,
								PlanState *inner, List *par_params,
								List *args, MfConnEntry *outer_entry,
								MfPrimeColumnFn column_of, void *arg);
extern void mf_scan_prime_inner(PlanState *outer, PlanState *inner,
								List *par_params, List *args);
extern void mf_prime_link_nestloops(PlanState *top);

/* ---------------------------------------------------------------------
 * held_rows.c: a small result's rows read ahead of their reader, when
 * someone else needs the connection, kept in a tuplestore
 * ---------------------------------------------------------------------
 */
typedef struct MfHeldRows
{
	MemoryContext cxt;			/* the reader's: the store lives here */
	ResourceOwner owner;		/* ... and its temporary file here */
	MemoryContext row_cxt;		/* the held row handed out */
	Tuplestorestate *store;		/* NULL: nothing held */
	TupleDesc	desc;			/* ncols text columns */
	TupleTableSlot *slot;
	int			ncols;
	char	  **values;			/* the held row handed out; NULL: SQL NULL */
	bool		reading;		/* the reader's batch is that row */
	bool		watching;		/* the stream owner of the connection */
	bool		failed;			/* the transport failed while draining ... */
	MfError		err;			/* ... with this: the fetch's error after
								 * the held rows */
	bool		lost;			/* a drain was cut short by an error */
	/* what the watch drains, and the reader's batch and place in it */
	MfConnEntry *entry;
	const MfTransport *tr;
	MfResult   *res;
	int		   *nrows;
	int		   *next_row;
} MfHeldRows;

extern void mf_held_init(MfHeldRows *h, MemoryContext cxt);
extern bool mf_held_watch(MfHeldRows *h, MfConnEntry *entry,
						  const MfTransport *tr, MfResult *res, int *nrows,
						  int *next_row);
extern bool mf_held_watching(MfHeldRows *h);
extern void mf_held_unwatch(MfHeldRows *h);
extern int	mf_held_fetch(MfHeldRows *h, const MfTransport *tr, MfResult *res,
						  MfError *err);
extern const char *mf_held_value(MfHeldRows *h, const MfTransport *tr,
								 MfResult *res, int row, int col);
extern void mf_held_reset(MfHeldRows *h);

/* ---------------------------------------------------------------------
 * modify.c: INSERT, UPDATE, DELETE, direct modification
 * ---------------------------------------------------------------------
 */
extern void mfBeginForeignModify(ModifyTableState *mtstate,
								 ResultRelInfo *rinfo, List *fdw_private,
								 int subplan_index, int eflags);
extern TupleTableSlot *mfExecForeignInsert(EState *estate, ResultRelInfo *rinfo,
										   TupleTableSlot *slot,
										   TupleTableSlot *planSlot);
extern TupleTableSlot **mfExecForeignBatchInsert(EState *estate,
												 ResultRelInfo *rinfo,
												 TupleTableSlot **slots,
												 TupleTableSlot **planSlots,
												 int *numSlots);
extern int	mfGetForeignModifyBatchSize(ResultRelInfo *rinfo);
extern TupleTableSlot *mfExecForeignUpdate(EState *estate, ResultRelInfo *rinfo,
										   TupleTableSlot *slot,
										   TupleTableSlot *planSlot);
extern TupleTableSlot *mfExecForeignDelete(EState *estate, ResultRelInfo *rinfo,
										   TupleTableSlot *slot,
										   TupleTableSlot *planSlot);
extern void mfEndForeignModify(EState *estate, ResultRelInfo *rinfo);
extern void mfBeginForeignInsert(ModifyTableState *mtstate,
								 ResultRelInfo *rinfo);
extern void mfEndForeignInsert(EState *estate, ResultRelInfo *rinfo);
extern bool mfPlanDirectModify(PlannerInfo *root, ModifyTable *plan,
							   Index resultRelation, int subplan_index);
extern void mfBeginDirectModify(ForeignScanState *node, int eflags);
extern TupleTableSlot *mfIterateDirectModify(ForeignScanState *node);
extern void mfEndDirectModify(ForeignScanState *node);
extern void mfExplainForeignModify(ModifyTableState *mtstate,
								   ResultRelInfo *rinfo, List *fdw_private,
								   int subplan_index, ExplainState *es);
extern void mfExplainDirectModify(ForeignScanState *node,
								  ExplainState *es);

/* depjoin_exec.c: the dependent join's executor */
extern void mf_depjoin_exec_init(void);

/* ---------------------------------------------------------------------
 * stored_row.c: the row as the remote stored it, read back
 * ---------------------------------------------------------------------
 */
extern bool mf_stored_row_server_returns(MfConnEntry *entry,
										 CmdType operation, bool do_nothing);
extern bool mf_stored_row_reread(MfConnEntry *entry, Relation rel,
								 CmdType operation, MfStmt **stmt,
								 const char *sql, List *params,
								 const char *const *values,
								 const MfTypeClass *classes,
								 MfRowReader *reader, TupleTableSlot *slot);

/* ---------------------------------------------------------------------
 * pipeline.c: prepared statements in flight without waiting
 * ---------------------------------------------------------------------
 */
typedef struct MfPipeline
{
	MfConnEntry *entry;
	const char *sql;			/* the statement, for error context */
	int			depth;			/* most statements unanswered at once */
	bool		open;
	int			in_flight;
	long		rows;			/* reported by results read, not handed out */

	/*
	 * Row statements that each should change one row (UPDATE/DELETE by row
	 * identity) were counted by the executor when sent; those whose answer
	 * says they changed none (a remote trigger skipped the row) are taken
	 * off the executor's count when the scan claims the connection back,
	 * by which time the executor has counted every row it was given.  NULL:
	 * no count to correct.
	 */
	uint64	   *processed;
	long		skipped;		/* answered with no row, not taken off yet */
} MfPipeline;

extern void mf_pipeline_init(MfPipeline *pl, MfConnEntry *entry, int depth,
							 const char *sql);
extern void mf_pipeline_send(MfPipeline *pl, MfStmt *stmt,
							 const char *const *values);
extern long mf_pipeline_take(MfPipeline *pl);
extern long mf_pipeline_sync(MfPipeline *pl);

/* ---------------------------------------------------------------------
 * buffer.c: the shared buffering core for inserts
 * ---------------------------------------------------------------------
 */

/* One target relation's insert machinery (per partition when routing). */
typedef struct MfInsertBuffer
{
	MfConnEntry *entry;
	Relation	rel;
	const MfDialect *dialect;
	const MfTransport *transport;
	List	   *target_attrs;	/* attnums sent, in order */
	int			ncols;
	MfTypeClass *classes;		/* per column */
	FmgrInfo   *out_functions;	/* per column */
	bool		values_need_modes;	/* their output depends on settings */
	bool		do_nothing;
	MfInsertMethod method;		/* resolved: never AUTO */
	int			rows_per_stmt;	/* rows held before they are sent */
	int64		batch_bytes;

	/* values: rows waiting to be sent, as text, in buf_cxt */
	MemoryContext buf_cxt;
	char	  **values;			/* rows_per_stmt * ncols */
	int			nrows;
	int64		nbytes;

	/* values: one prepared statement for a full batch, one for the rest */
	MfStmt	   *full_stmt;
	MfStmt	   *part_stmt;
	int			part_rows;

	/* pipeline: the statements sent whose results are not all read */
	MfPipeline	pipeline;
	bool		count_each_batch;	/* read to its end with each batch */

	/* copy: rows already encoded, and the stream they go into */
	StringInfoData chunk;
	char	   *copy_sql;
	bool		copy_open;
	long		copy_base;		/* rows of the statement sent before this
								 * COPY began */

	long		rows_sent;		/* rows of this statement sent so far */

	/* values, pipeline, array: the remote's cap on one request; 0: none */
	size_t		packet_limit;
	size_t	   *row_wire;		/* values, pipeline under a cap: each held
								 * row's bytes in a request */
} MfInsertBuffer;

extern MfInsertBuffer *mf_buffer_create(MfConnEntry *entry, Relation rel,
										const MfOptions *opts,
										List *target_attrs, bool do_nothing,
										MfInsertMethod method);
extern int	mf_rows_per_statement(const MfDialect *dialect,
								  const MfTransport *transport, int ncols,
								  int batch_size);
extern void mf_buffer_add(MfInsertBuffer *buf, TupleTableSlot *slot);
extern bool mf_buffer_full(MfInsertBuffer *buf);
extern long mf_buffer_flush(MfInsertBuffer *buf);
extern long mf_buffer_sync(MfInsertBuffer *buf);
extern bool mf_buffer_counts_late(MfInsertBuffer *buf);
extern void mf_buffer_finish(MfInsertBuffer *buf);
extern void mf_buffer_destroy(MfInsertBuffer *buf);
extern MfInsertMethod mf_resolve_insert_method(const MfOptions *opts,
											   bool do_nothing, int ncols);
extern bool mf_remote_may_skip_rows(MfConnEntry *entry, Relation rel);
extern MfInsertMethod mf_connected_insert_method(const MfOptions *opts,
												 MfInsertMethod method,
												 MfConnEntry *entry,
												 Relation rel, int ncols,
												 bool do_nothing);
extern int	mf_executor_batch_size(const MfOptions *opts, MfInsertMethod method,
								   int ncols);
extern char *mf_buffer_sql(MfInsertBuffer *buf, int nrows);
extern size_t mf_packet_limit(MfConnEntry *entry, void *owner);
extern size_t mf_row_wire_bytes(const MfTypeClass *classes,
								const char *const *values, int n);
extern void mf_check_packet(MfConnEntry *entry, size_t limit, size_t need,
							long row);
extern void mf_check_statement_size(MfConnEntry *entry, const char *fn,
									const char *sql, int nparams,
									const MfTypeClass *classes,
									const char *const *values);
extern void mf_check_storable(MfConnEntry *entry, Relation rel, int attnum,
							  MfTypeClass cls, const char *value, long row);
/* ---------------------------------------------------------------------
 * partition_guard.c: an UPDATE does not move a row out of a foreign
 * partition
 * ---------------------------------------------------------------------
 */
extern bool mf_update_sets_partition_key(Relation rel, List *target_attrs,
										 List *new_values);

/* ---------------------------------------------------------------------
 * truncate.c
 * ---------------------------------------------------------------------
 */
extern void mfExecForeignTruncate(List *rels, DropBehavior behavior,
								  bool restart_seqs);

/* ---------------------------------------------------------------------
 * import.c
 * ---------------------------------------------------------------------
 */
extern List *mfImportForeignSchema(ImportForeignSchemaStmt *stmt,
								   Oid serverOid);

#endif							/* MF_EXEC_H */
