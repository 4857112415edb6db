/*-------------------------------------------------------------------------
 *
 * plan.h
 *		The plan layer: sizes, paths and plans of scans, joins, upper
 *		relations and modifications, costing, the dependent join's paths.
 *		Below it deparse/ (the SQL a plan carries), remote/ and observe/.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_PLAN_H
#define MF_PLAN_H

#include "postgres.h"

#include "foreign/fdwapi.h"
#include "nodes/pathnodes.h"

#include "deparse/deparse.h"

/* fdw_private of a path of upper.c, by position */
enum MfPathPrivate
{
	MF_PATH_FINAL_SORT,			/* ORDER BY of the query's sort (Boolean) */
	MF_PATH_LIMIT				/* LIMIT/OFFSET of the query (Boolean) */
};

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
/* ---------------------------------------------------------------------
 * scan_plan.c: the size, paths and plan of a foreign table's scan
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
extern MfRead mf_scan_read(int fetch_size, double rows);
extern int	mf_attr_position(List *attrs, int attnum);
extern List *mf_scan_private(char *sql, List *retrieved_attrs,
							 const MfOptions *opts,
							 double rows, List *relations, bool grouped,
							 char *nested_sql, bool unordered);

/* ---------------------------------------------------------------------
 * upper.c: sorts, aggregates and limits sent with the scan
 * ---------------------------------------------------------------------
 */
extern void mf_add_sorted_paths(PlannerInfo *root, RelOptInfo *baserel);
extern void mfGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
								   RelOptInfo *input_rel,
								   RelOptInfo *output_rel, void *extra);
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

/* depjoin.c: joins with other inputs by shipping their keys */
extern void mf_depjoin_init(void);

/* whole_query.c: a query sent whole */
extern void mf_whole_query_init(void);
extern void mf_explain_relations(ForeignScan *fsplan, List *tree,
								 ExplainState *es);

/* param_path.c: join clauses sent with the outer values as parameters */
extern void mf_add_param_paths(PlannerInfo *root, RelOptInfo *baserel);
extern Expr *mf_outer_vars_as_params(Expr *expr, Relids relids, List **vars);
extern List *mf_outer_params_to_vars(List *params_list, List *vars);
extern bool mf_outer_vars_sendable(List *vars, const MfDialect *dialect);

/* ---------------------------------------------------------------------
 * modify_plan.c: INSERT, UPDATE and DELETE planned
 * ---------------------------------------------------------------------
 */
extern void mfAddForeignUpdateTargets(PlannerInfo *root, Index rtindex,
									  RangeTblEntry *target_rte,
									  Relation target_relation);
extern List *mfPlanForeignModify(PlannerInfo *root, ModifyTable *plan,
								 Index resultRelation, int subplan_index);
extern int	mfIsForeignRelUpdatable(Relation rel);

/* ---------------------------------------------------------------------
 * stored_row_plan.c: how the row as the remote stored it is read back
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

/* ---------------------------------------------------------------------
 * estimate.c: use_remote_estimate, ANALYZE's remote sample
 * ---------------------------------------------------------------------
 */
extern bool mf_estimates_deferred;

/*
 * A remote's row count taken as at most this: no table reaches it, the
 * counters' int64 holds it, and pg_class's float4 reltuples stays finite.
 */
#define MF_REMOTE_ROWS_MAX	1e15

extern void mf_remote_estimate(PlannerInfo *root, RelOptInfo *baserel,
							   Oid relid, MfRelInfo *fpinfo);
extern void mf_ask_remote_estimate(MfRelInfo *fpinfo, const char *sql,
								   const char *what, double *rows, int *width,
								   Cost *startup, Cost *total);
extern MfSampleMethod mf_analyze_sample(MfConnEntry *entry, Relation rel,
										const MfOptions *opts, int targrows,
										double *reltuples, double *fraction);

#endif							/* MF_PLAN_H */
