/*-------------------------------------------------------------------------
 *
 * multi_fdw.h
 *		The core's declarations, grouped by the file that defines them, so
 *		that this header reads as a map of the extension.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MULTI_FDW_H
#define MULTI_FDW_H

#include "postgres.h"

#include "compat.h"
#include "dialect.h"
#include "foreign/foreign.h"
#include "foreign/fdwapi.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "nodes/execnodes.h"
#include "nodes/pathnodes.h"
#include "utils/resowner.h"
#include "transport.h"
#include "utils/relcache.h"

/* ---------------------------------------------------------------------
 * registry.c: dialects and transports by name
 * ---------------------------------------------------------------------
 */
extern const MfDialect *mf_find_dialect(const char *name);
extern const MfTransport *mf_find_transport(const char *name);
extern const MfTransport *mf_transport_at(int i);
extern const MfConnKeyword *mf_transport_keyword(const MfTransport *transport,
												 const char *name);
extern bool mf_transport_allowed(const MfDialect *dialect,
								 const MfTransport *transport);
extern const MfTransport *mf_transport_carrier(void);
extern const char *mf_dialect_list(void);
extern const char *mf_transport_list(void);

/* ---------------------------------------------------------------------
 * option.c: the option table, validation, resolved options
 * ---------------------------------------------------------------------
 */
typedef enum MfInsertMethod
{
	MF_INSERT_AUTO = 0,
	MF_INSERT_VALUES,
	MF_INSERT_ROW,
	MF_INSERT_COPY,
	MF_INSERT_PIPELINE,
	MF_INSERT_ARRAY
} MfInsertMethod;

/* Options of a server, with the table's overriding them where allowed. */
typedef struct MfOptions
{
	Oid			serverid;
	char	   *servername;
	const MfDialect *dialect;
	const MfTransport *transport;
	int			batch_size;
	int64		batch_bytes;
	int			fetch_size;
	int			pipeline_depth; /* statements in flight at once */
	MfInsertMethod insert_method;
	bool		updatable;
	bool		truncatable;
	bool		keep_connections;
	bool		parallel_commit;	/* COMMIT sent to it and the others at
									 * once, the answers read after */
	bool		parallel_abort; /* the same for ROLLBACK */
	bool		async_capable;	/* scans may run under an async Append */
	char	   *session_sql;	/* replaces the dialect's session setup;
								 * NULL: the dialect's */
	bool		two_phase_commit;	/* its transactions may be prepared */
	List	   *extensions;		/* OIDs of the extensions the remote has */
	bool		use_remote_estimate;	/* ask the remote planner */
	bool		pushdown;		/* sorts, aggregates and limits may be sent
								 * (conditions always are) */
	bool		dependent_join; /* other inputs' keys may be shipped to it
								 * (depjoin.c) */
	int			dependent_join_max_keys;	/* 0: the GUC's */
	double		fdw_startup_cost;	/* of opening a remote query */
	double		fdw_tuple_cost; /* of moving one row across */
	MfSampleMethod analyze_sampling;	/* how ANALYZE asks for its sample */
	/* table level only */
	char	   *schema_name;	/* NULL: the dialect's default */
	char	   *table_name;		/* NULL: the local name */
} MfOptions;

extern void mf_get_options(Oid serverid, Oid relid, MfOptions *opts);
extern void mf_get_table_options(Oid relid, MfOptions *opts);
extern void mf_options_init(void);
extern char *mf_column_name(Oid relid, AttrNumber attnum);
extern bool mf_column_is_key(Oid relid, AttrNumber attnum);
extern bool mf_column_flag(Oid relid, AttrNumber attnum, const char *name);
extern const char *mf_insert_method_name(MfInsertMethod method);
extern const char *mf_sample_method_name(MfSampleMethod method);
extern void mf_connection_params(ForeignServer *server, UserMapping *user,
								 const MfTransport *transport,
								 List **keys, List **values);
extern bool mf_password_required(UserMapping *user);
extern bool mf_remote_requires_password(ForeignServer *server);
extern bool mf_parse_bool(DefElem *d);

/* ---------------------------------------------------------------------
 * appname.c: application_name with postgres_fdw's escapes
 * ---------------------------------------------------------------------
 */
extern void mf_appname_init(void);
extern char *mf_expand_application_name(const char *fmt);
extern char *mf_application_name_for(const char *option);

/* ---------------------------------------------------------------------
 * connection.c: the connection cache and remote transactions
 * ---------------------------------------------------------------------
 */
typedef struct MfConnEntry MfConnEntry;

/*
 * The owner of an unfinished stream on a connection (an open COPY, a
 * pipeline with results pending) is asked to finish it before anyone else
 * uses the connection.
 */
typedef void (*MfStreamFinish) (void *arg);

extern MfConnEntry *mf_get_connection(UserMapping *user, const MfOptions *opts);
extern bool mf_conn_xact_open(UserMapping *user);
extern MfConn *mf_conn(MfConnEntry *entry);
extern const MfTransport *mf_conn_transport(MfConnEntry *entry);
extern const MfDialect *mf_conn_dialect(MfConnEntry *entry);
extern const char *mf_conn_server_name(MfConnEntry *entry);
extern struct MfStatsSlot *mf_conn_stats(MfConnEntry *entry);
extern void mf_conn_mark_written(MfConnEntry *entry);

/* remote_facts.c: what the remote says of its tables, for one transaction */
extern bool mf_conn_ask_about_table(MfConnEntry *entry, const char *query_fmt,
									const char *table, bool answer);
extern List *mf_conn_ask_rows(MfConnEntry *entry, const char *sql,
							  const char *table, int ncols);
extern bool mf_conn_remembered(MfConnEntry *entry, const char *question,
							   const char *table, bool *value);
extern void mf_conn_remember(MfConnEntry *entry, const char *question,
							 const char *table, bool value);
extern bool mf_conn_remembered_names(MfConnEntry *entry, const char *question,
									 const char *table, bool stale_ok,
									 List **names);
extern void mf_conn_remember_names(MfConnEntry *entry, const char *question,
								   const char *table, List *names);
extern void mf_conn_forget_facts(MfConnEntry *entry);
extern void mf_conn_drop_facts(MfConnEntry *entry);

/* partition_guard.c: an UPDATE does not move a row out of a foreign partition */
extern bool mf_update_sets_partition_key(Relation rel, List *target_attrs,
										 List *new_values);

/* exec_guard.c */
extern bool mf_sql_controls_transaction(const char *sql, const char **what);
extern void mf_exec_user_statement(MfConnEntry *entry, const char *sql, long *rows);
extern void mf_xact_probe_check(MfConnEntry *entry);

/* run_as.c: SQL run on someone else's behalf, with a pinned search_path */
typedef struct MfRunAs
{
	Oid			save_userid;
	int			save_sec;
	int			nestlevel;
} MfRunAs;
extern void mf_run_as_begin(MfRunAs *ra, Oid role);
extern void mf_run_as_end(MfRunAs *ra);

/* twophase.c, resolver.c */
extern void mf_twophase_init(void);
extern void mf_resolver_init(void);
extern MfConnEntry *mf_connect_private(UserMapping *user, const MfOptions *opts);
extern void mf_disconnect_private(MfConnEntry *entry);
extern void mf_claim_connection(MfConnEntry *entry, void *owner);
extern void mf_set_stream_owner(MfConnEntry *entry, void *owner,
								MfStreamFinish finish);
extern void mf_clear_stream_owner(MfConnEntry *entry, void *owner);
extern bool mf_conn_has_other_owner(MfConnEntry *entry, void *owner);
extern void mf_conn_exec(MfConnEntry *entry, const char *sql, long *rows);
extern void mf_connection_init(void);
pg_noreturn extern void mf_raise_error(int elevel, MfConnEntry *entry,
										const MfError *err, const char *sql);

/* ---------------------------------------------------------------------
 * error.c: the one place that turns a transport's error into ereport
 * ---------------------------------------------------------------------
 */
extern const char *mf_dialect_sqlstate(const MfDialect *dialect,
									   long native_code, bool *conn_lost);
extern void mf_report_error(int elevel, const char *servername,
							const MfDialect *dialect, const MfError *err,
							const char *sql);
extern void mf_install_wait(void);

/* ---------------------------------------------------------------------
 * deparse.c: SQL text from plans, through the dialect
 * ---------------------------------------------------------------------
 */

/*
 * What the planner learns about one foreign relation (fdw_private): a
 * foreign table, a join of foreign tables of one server (join.c), or an
 * upper relation over either (upper.c), which keeps its HAVING conditions
 * as plain expressions in remote_conds and local_conds.
 */
typedef struct MfRelInfo
{
	MfOptions	opts;
	List	   *remote_conds;	/* RestrictInfos evaluated remotely */
	List	   *local_conds;	/* RestrictInfos checked here */
	List	   *final_remote_exprs; /* the remote clauses of the chosen plan */
	Bitmapset  *attrs_used;		/* columns the query needs */
	Selectivity local_conds_sel;
	QualCost	local_conds_cost;
	double		rows;
	int			width;
	Cost		startup_cost;
	Cost		total_cost;
	Cost		remote_cost;	/* of the remote computing the rows, before
								 * any crosses the network */
	UserMapping *user;

	/*
	 * A join (join.c): remote_conds are then the conditions applied after
	 * it (WHERE), join_conds those of its ON clause; a semi or anti join
	 * writes join_conds into its EXISTS.
	 */
	JoinType	jointype;
	RelOptInfo *join_outer;
	RelOptInfo *join_inner;
	List	   *join_conds;
	Relids		hidden_relids;	/* tables inside a semi or anti join's
								 * EXISTS: their columns are not in scope */

	/* upper relations (upper.c) */
	bool		pushdown_safe;	/* a later stage may build on this one */
	bool		qp_is_pushdown_safe;	/* a foreign table: the query's
										 * pathkeys can be sent */
	UpperRelationKind stage;
	RelOptInfo *outerrel;		/* the relation this one is over */
	RelOptInfo *scanrel;		/* the foreign table read */
	List	   *grouped_tlist;	/* a grouping: the remote select list */
} MfRelInfo;

/* fdw_private of a path of upper.c, by position */
enum MfPathPrivate
{
	MF_PATH_FINAL_SORT,			/* ORDER BY of the query's sort (Boolean) */
	MF_PATH_LIMIT				/* LIMIT/OFFSET of the query (Boolean) */
};

extern void mf_classify_conditions(PlannerInfo *root, RelOptInfo *baserel,
								   List *input_conds, List **remote_conds,
								   List **local_conds);
extern bool mf_is_foreign_expr(PlannerInfo *root, RelOptInfo *baserel,
							   Expr *expr);
/* rowid.c */
extern List *mf_key_columns(Relation rel, bool missing_ok);
extern bool mf_rowid_check_exec(Relation rel, Oid userid,
								const MfDialect *dialect,
								List *identity_attrs, int nprune);
extern void mf_rowid_check_target(Relation rel, Oid userid,
								  const MfDialect *dialect);
extern List *mf_rowid_prune_attrs(Relation rel, Oid userid,
								  const MfDialect *dialect, bool stale_ok);
extern char *mf_rowid_prune_name(Relation rel, AttrNumber attnum);
extern void mf_rowid_add_targets(PlannerInfo *root, Index rtindex,
								 Relation rel, const MfDialect *dialect,
								 Oid userid);
extern char *mf_rowid_generic_begin(MfConnEntry *entry, const MfDialect *dialect,
									MemoryContext cxt);
extern void mf_rowid_generic_end(MfConnEntry *entry, const MfDialect *dialect,
								 const char *old);
extern List *mf_rowid_identity_attrs(Relation rel, const MfDialect *dialect,
									 Oid userid, List *subplan_tlist,
									 int *nprune);

extern void mf_deparse_relation(StringInfo buf, Relation rel,
								const MfDialect *dialect);
extern void mf_deparse_column(StringInfo buf, Oid relid, AttrNumber attnum,
							  const MfDialect *dialect);
extern void mf_deparse_select(StringInfo buf, PlannerInfo *root,
							  RelOptInfo *baserel, Relation rel,
							  Bitmapset *attrs_used, List *remote_conds,
							  LockClauseStrength lock, LockWaitPolicy wait,
							  List **retrieved_attrs, List **params_list);
extern void mf_deparse_conditions(StringInfo buf, PlannerInfo *root,
								  RelOptInfo *baserel, List *conds,
								  const char *keyword, List **params_list);
extern void mf_deparse_expr(StringInfo buf, PlannerInfo *root,
							RelOptInfo *baserel, Expr *expr,
							List **params_list);
extern char *mf_deparse_insert(Relation rel, const MfDialect *dialect,
							   MfMarkerStyle markers, List *target_attrs,
							   int nrows, bool do_nothing,
							   List *returning_attrs);
extern char *mf_deparse_copy(Relation rel, const MfDialect *dialect,
							 List *target_attrs);
/* deparse_keys.c */
extern void mf_deparse_keys_begin(StringInfo sql, bool has_where);
extern void mf_deparse_keys_end(StringInfo sql);
extern void mf_deparse_key_arrays(StringInfo sql, const MfDialect *dialect,
								  MfMarkerStyle markers, char *const *key_sql,
								  const Oid *array_types, int ncols,
								  int first_param);
extern void mf_deparse_key_list_open(StringInfo sql, char *const *key_sql,
									 int ncols, bool ored);
extern void mf_deparse_key_list_item(StringInfo sql, const MfDialect *dialect,
									 MfMarkerStyle markers,
									 char *const *key_sql,
									 const Oid *key_types, int ncols,
									 bool ored, bool first, int first_param);
extern void mf_deparse_key_list_close(StringInfo sql, bool ored);
extern void mf_deparse_key_range(StringInfo sql, const MfDialect *dialect,
								 MfMarkerStyle markers, const char *key_sql,
								 Oid key_type, bool has_where,
								 int first_param);
extern char *mf_deparse_keys_explain(const char *select, bool has_where,
									 List *key_sql, bool arrays, bool row_in);

extern void mf_check_param_value(const MfDialect *dialect,
								 const char *servername, Oid typid,
								 const char *value);
extern char *mf_deparse_reread(Relation rel, const MfDialect *dialect,
							   MfMarkerStyle markers, List *attrs,
							   List *keys, bool after_insert);
extern char *mf_deparse_direct_modify(PlannerInfo *root, RelOptInfo *baserel,
									  Relation rel, const MfDialect *dialect,
									  CmdType operation, List *tlist,
									  List *target_attrs, List *remote_conds,
									  List **params_list);
extern char *mf_deparse_update(Relation rel, const MfDialect *dialect,
							   MfMarkerStyle markers, List *target_attrs,
							   List *identity_attrs, List *returning_attrs);
extern char *mf_deparse_delete(Relation rel, const MfDialect *dialect,
							   MfMarkerStyle markers, List *identity_attrs,
							   List *returning_attrs);
extern void mf_deparse_returning(StringInfo buf, Relation rel,
								 const MfDialect *dialect, List *attrs);
extern void mf_remote_table_name(Relation rel, const MfDialect *dialect,
								 const char **schema, const char **table);
extern void mf_deparse_analyze(StringInfo buf, Relation rel,
							   const MfDialect *dialect, List **retrieved_attrs);
extern MfTypeClass mf_type_class(Oid typid);
/*
 * The remote row's tableoid, for the postgres dialect's row identity, rides
 * in the scan tuple's xmin: a remote row has no local xmin, and the
 * executor sets tableoid itself to the foreign table's.  Fetched as the
 * remote "tableoid" whenever a query asks for xmin.
 */
#define MF_REMOTE_TABLEOID_ATTNO	MaxTransactionIdAttributeNumber

extern int	mf_set_transmission_modes(void);
extern void mf_reset_transmission_modes(int nestlevel);
extern int	mf_set_transmission_modes_if(bool needed);
extern bool mf_outputs_need_modes(const FmgrInfo *fns, int n);

/* deparse_join.c */
extern void mf_deparse_from_where(StringInfo buf, PlannerInfo *root,
								  RelOptInfo *scanrel, List **params_list);
extern bool mf_join_has_conds(RelOptInfo *rel);
extern void mf_deparse_join_select(StringInfo buf, PlannerInfo *root,
								   RelOptInfo *joinrel, List *tlist,
								   List **retrieved_attrs,
								   List **params_list);

/* deparse_upper.c */
extern bool mf_is_upper_expr(PlannerInfo *root, RelOptInfo *scanrel,
							 Expr *expr);
extern bool mf_grouping_key_shippable(PlannerInfo *root, RelOptInfo *scanrel,
									  Expr *expr);
extern bool mf_pathkey_shippable(PlannerInfo *root, PathKey *pathkey,
								 RelOptInfo *scanrel, RelOptInfo *grouped_rel);
extern void mf_deparse_order_by(StringInfo buf, PlannerInfo *root,
								RelOptInfo *scanrel, RelOptInfo *grouped_rel,
								List *pathkeys, List **params_list);
extern void mf_deparse_grouped_select(StringInfo buf, PlannerInfo *root,
									  RelOptInfo *grouped_rel, List *tlist,
									  List *having, List **retrieved_attrs,
									  List **params_list);
extern void mf_deparse_lock_clause(StringInfo buf, Relation rel,
								   const MfDialect *dialect,
								   LockClauseStrength lock,
								   LockWaitPolicy wait);

/* ---------------------------------------------------------------------
 * upper.c: sorts, aggregates and limits sent with the scan
 * ---------------------------------------------------------------------
 */
extern void mf_add_sorted_paths(PlannerInfo *root, RelOptInfo *baserel);
extern void mfGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
								   RelOptInfo *input_rel,
								   RelOptInfo *output_rel, void *extra);
extern bool mf_limit_values(PlannerInfo *root, int64 *count, int64 *offset);
extern int64 mf_remote_limit(PlannerInfo *root, RelOptInfo *baserel,
							 List *pathkeys, List *local_exprs, bool locks);

/* ---------------------------------------------------------------------
 * join.c: joins of foreign tables of one server sent whole
 * ---------------------------------------------------------------------
 */
extern void mfGetForeignJoinPaths(PlannerInfo *root, RelOptInfo *joinrel,
								  RelOptInfo *outerrel, RelOptInfo *innerrel,
								  JoinType jointype, JoinPathExtraData *extra);
extern ForeignScan *mf_join_plan(PlannerInfo *root, RelOptInfo *joinrel,
								 ForeignPath *best_path, List *tlist,
								 Plan *outer_plan, bool has_limit);
extern List *mf_join_scan_tlist(RelOptInfo *rel);
extern List *mf_relations_tree(PlannerInfo *root, RelOptInfo *rel);
extern const char *mf_join_name(JoinType jointype);

/* depjoin.c: joins with other inputs by shipping their keys */
extern void mf_depjoin_init(void);
extern void mf_explain_relations(ForeignScan *fsplan, List *tree,
								 ExplainState *es);

/* ---------------------------------------------------------------------
 * scan.c: reading foreign tables
 * ---------------------------------------------------------------------
 */
extern void mfGetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel,
								Oid foreigntableid);
extern void mfGetForeignPaths(PlannerInfo *root, RelOptInfo *baserel,
							  Oid foreigntableid);
extern ForeignScan *mfGetForeignPlan(PlannerInfo *root, RelOptInfo *baserel,
									 Oid foreigntableid, ForeignPath *best_path,
									 List *tlist, List *scan_clauses,
									 Plan *outer_plan);
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
extern MfRead mf_scan_read(int fetch_size, double rows);
extern List *mf_scan_private(char *sql, List *retrieved_attrs, int fetch_size,
							 double rows, List *relations);

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
extern void mf_row_reader_store(MfRowReader *reader, const MfTransport *tr,
								MfResult *res, int row, TupleTableSlot *slot);

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
extern void mfAddForeignUpdateTargets(PlannerInfo *root, Index rtindex,
									  RangeTblEntry *target_rte,
									  Relation target_relation);
extern List *mfPlanForeignModify(PlannerInfo *root, ModifyTable *plan,
								 Index resultRelation, int subplan_index);
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
extern int	mfIsForeignRelUpdatable(Relation rel);
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

/* ---------------------------------------------------------------------
 * stored_row.c: the row as the remote stored it, read back
 * ---------------------------------------------------------------------
 */
typedef struct MfStoredRow
{
	List	   *attrs;			/* columns read back; NIL: none needed */
	bool		returning;		/* by the statement's RETURNING, where the
								 * server has it */
	bool		server_decides; /* which of the two, the server's version
								 * says */
	char	   *reread_sql;		/* by this SELECT by key where it has not
								 * (NULL: none, or no key column) */
	List	   *reread_params;	/* its markers' values: positions among the
								 * statement's parameters */
} MfStoredRow;

extern bool mf_stored_row_needed(Relation rel, CmdType operation,
								 List *returning_list, bool check_option);
extern void mf_stored_row_plan(MfStoredRow *sr, Relation rel,
							   const MfDialect *dialect, MfMarkerStyle markers,
							   CmdType operation,
							   List *returning_list, bool check_option,
							   bool do_nothing, List *target_attrs,
							   List *identity_attrs);
pg_noreturn extern void mf_stored_row_no_key(Relation rel,
											 const MfDialect *dialect);
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
extern int	mf_max_params(const MfDialect *dialect, const MfTransport *transport);
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
extern void mf_check_storable(MfConnEntry *entry, Relation rel, int attnum,
							  MfTypeClass cls, const char *value, long row);

/* ---------------------------------------------------------------------
 * stats.c: counters per foreign server and user; progress.c: what each
 * backend is reading or writing now.  See docs/monitoring.md.
 * ---------------------------------------------------------------------
 */
typedef enum MfCounter
{
	MF_C_STATEMENTS,			/* data statements: a scan's query, an
								 * INSERT of a batch, a COPY, a row's
								 * UPDATE/DELETE, a direct modification */
	MF_C_ROWS_SENT,				/* rows handed over to be written */
	MF_C_ROWS_RECEIVED,			/* rows the transports handed over */
	MF_C_BATCHES,				/* flushes of the insert buffer */
	MF_C_ROUND_TRIPS,			/* the transports' (transport.h) */
	MF_C_BYTES_SENT,
	MF_C_BYTES_RECEIVED,
	MF_C_WAIT_US,
	MF_C_ERRORS,				/* remote errors raised, failed connects */
	MF_C_RECONNECTS,			/* connections made again by a session */
	MF_C_ROWS_VALUES,			/* rows sent by each insert method */
	MF_C_ROWS_ROW,
	MF_C_ROWS_COPY,
	MF_C_ROWS_PIPELINE,
	MF_C_ROWS_ARRAY,
	MF_NCOUNTERS
} MfCounter;

typedef struct MfCounters
{
	int64		c[MF_NCOUNTERS];
} MfCounters;

/* One (server, user)'s counts in this backend; see stats.c. */
typedef struct MfStatsSlot MfStatsSlot;

/*
 * What one plan node did on its connection, for EXPLAIN ANALYZE and for
 * its progress row.  The traffic of a connection goes to the node that
 * used it last (mf_stats_node_use), so that a scan and a modification
 * sharing a connection are told apart.
 */
typedef struct MfNodeStats
{
	MfStatsSlot *slot;			/* NULL: not counted (EXPLAIN only) */
	MfCounters	c;
	MfInsertMethod method;		/* an insert's resolved method, or AUTO */
	int			progress;		/* its row in progress.c, -1: none */
	uint64		ticket;			/* ... while the row still has this ticket */
	struct MfNodeStats *next;	/* the slot's nodes in progress */
} MfNodeStats;

extern void mf_stats_init(void);
extern MfStatsSlot *mf_stats_slot(Oid serverid, Oid userid,
								  const char *servername);
extern MfWireStats *mf_stats_wire(MfStatsSlot *slot);
extern void mf_stats_connected(MfStatsSlot *slot);
extern void mf_stats_error(MfStatsSlot *slot, const char *message);
extern void mf_stats_count(MfConnEntry *entry, MfCounter counter, int64 n);
extern void mf_stats_count_rows(MfConnEntry *entry, MfInsertMethod method,
								int64 rows);
extern void mf_stats_node_begin(MfNodeStats *ns, MfConnEntry *entry,
								Relation rel, CmdType operation);
extern void mf_stats_node_use_slow(MfNodeStats *ns);
extern void mf_stats_node_publish(MfNodeStats *ns);
extern void mf_stats_node_end(MfNodeStats *ns);
extern void mf_stats_explain(MfNodeStats *ns, ExplainState *es);
extern void mf_stats_xact_end(void);
extern bool mf_stats_shared(void);

/* the node is about to talk on its connection: its traffic from now on */
static inline void
mf_stats_node_use(MfNodeStats *ns)
{
	if (ns->slot != NULL)
		mf_stats_node_use_slow(ns);
}

/* progress.c */
extern Size mf_progress_shmem_size(void);
extern void mf_progress_shmem_init(void);
extern int	mf_progress_begin(const char *server, Oid userid, Relation rel,
							  CmdType operation, uint64 *ticket);
extern void mf_progress_update(int row, uint64 ticket, const MfCounters *c,
							   MfInsertMethod method);
extern void mf_progress_end(int row, uint64 ticket);
extern void mf_progress_end_all(void);

/* ---------------------------------------------------------------------
 * estimate.c: use_remote_estimate, ANALYZE's remote sample
 * ---------------------------------------------------------------------
 */
extern void mf_remote_estimate(PlannerInfo *root, RelOptInfo *baserel,
							   Oid relid, MfRelInfo *fpinfo);
extern void mf_ask_remote_estimate(MfRelInfo *fpinfo, const char *sql,
								   const char *what, double *rows, int *width,
								   Cost *startup, Cost *total);
extern void mf_check_sample_method(const MfDialect *dialect,
								   MfSampleMethod method);
extern MfSampleMethod mf_analyze_sample(MfConnEntry *entry, Relation rel,
										const MfOptions *opts, int targrows,
										double *reltuples, double *fraction);

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

#endif							/* MULTI_FDW_H */
