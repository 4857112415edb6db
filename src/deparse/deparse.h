/*-------------------------------------------------------------------------
 *
 * deparse.h
 *		The deparse layer: every byte of remote SQL the core writes, through
 *		the dialect's hooks, and the rules of what may be sent.  Below it
 *		remote/ (options, the dialects' table) and observe/.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DEPARSE_H
#define MF_DEPARSE_H

#include "postgres.h"

#include "nodes/pathnodes.h"
#include "utils/relcache.h"

#include "deparse/dialect_shared.h"
#include "remote/remote.h"

/* ---------------------------------------------------------------------
 * SQL text from plans, through the dialect (deparse*.c)
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
	double		retrieved;		/* rows the remote sends: before local_conds */
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

extern void mf_classify_conditions(PlannerInfo *root, RelOptInfo *baserel,
								   List *input_conds, List **remote_conds,
								   List **local_conds);
extern bool mf_is_foreign_expr(PlannerInfo *root, RelOptInfo *baserel,
							   Expr *expr);
extern bool mf_is_foreign_cond(PlannerInfo *root, RelOptInfo *baserel,
							   Expr *expr);

/* deparse.c: does a binary-compatible cast change what a value means? */
extern bool mf_relabel_changes_meaning(RelabelType *r);
extern Node *mf_strip_relabel(Node *node);
extern bool mf_contains_exec_param(Node *node);

/* a whole query (deparse_query.c): may this foreign table be in it? */
typedef bool (*MfQueryRelCheck) (PlannerInfo *root, RelOptInfo *rel,
								 void *arg);
extern bool mf_deparse_whole_query(StringInfo buf, PlannerInfo *root,
								   MfQueryRelCheck rel_ok, void *rel_ok_arg,
								   RelOptInfo **first_rel, List **params_list);

/* a scan's SQL in the form a subquery is sent in (deparse.c) */
extern void mf_deparse_nesting_begin(void);
extern bool mf_deparse_nesting_end(void);
extern bool mf_deparse_nested_usable(bool held, const char *plain_sql,
									 List *plain_params, List *nested_params);
extern bool mf_conds_have_subqueries(List *conds);
extern Node *mf_nested_private(char *nested_sql, int ncols, bool keyable);

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
/* deparse_keys.c: the key lists of a dependent join */
extern void mf_append_compared(StringInfo buf, const char *sql, Oid type,
							   Oid collid, Oid colcoll,
							   const MfDialect *dialect);
extern const char *mf_compare_cast(const MfDialect *dialect, Oid type);
extern const char *mf_select_cast(const MfDialect *dialect, Oid typid);

/*
 * The name of a select-list item cast to text (mf_select_cast): not the
 * column's own, since an ORDER BY of the column's bare name would take the
 * output column (the text) over the input column (the value).
 */
#define MF_SELECTED_TEXT_ALIAS "\"multi_fdw text\""
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
extern char *mf_deparse_keyed(const char *nested_sql, const MfDialect *dialect,
							  MfMarkerStyle markers, const Oid *array_types,
							  int nparams);
extern bool mf_scan_nested_keyable(ForeignScan *fs);
extern const char *mf_scan_nested_sql(ForeignScan *fs, int *ncols);

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

/*
 * In a grouped scan's retrieved_attrs: this remote column is the count of
 * the output before it, whose remote column was the sum; the output is
 * their quotient (an avg fetched as SUM and COUNT: deparse_upper.c).
 */
#define MF_SUM_COUNT_ATTNO	FirstLowInvalidHeapAttributeNumber

extern int	mf_set_transmission_modes(void);
extern void mf_reset_transmission_modes(int nestlevel);
extern int	mf_set_transmission_modes_if(bool needed);
extern bool mf_outputs_need_modes(const FmgrInfo *fns, int n);

/* deparse_join.c */
extern void mf_deparse_from_where(StringInfo buf, PlannerInfo *root,
								  RelOptInfo *scanrel, List **params_list);
extern bool mf_join_has_conds(RelOptInfo *rel);
extern void mf_deparse_join_column(StringInfo buf, PlannerInfo *root, Var *var,
								   const MfDialect *dialect);
extern void mf_deparse_join_select(StringInfo buf, PlannerInfo *root,
								   RelOptInfo *joinrel, List *tlist,
								   List **retrieved_attrs,
								   List **params_list);
extern const char *mf_join_name(JoinType jointype);

/* deparse_upper.c */
extern bool mf_is_upper_expr(PlannerInfo *root, RelOptInfo *scanrel,
							 Expr *expr, bool output);
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
extern bool mf_limit_values(PlannerInfo *root, int64 *count, int64 *offset);
extern void mf_deparse_limit_clause(StringInfo buf, PlannerInfo *root,
									const MfDialect *dialect, bool ordered);
extern void mf_deparse_lock_clause(StringInfo buf, Relation rel,
								   const MfDialect *dialect,
								   LockClauseStrength lock,
								   LockWaitPolicy wait);


#endif							/* MF_DEPARSE_H */
