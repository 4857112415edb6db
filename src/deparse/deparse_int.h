/*-------------------------------------------------------------------------
 *
 * deparse_int.h
 *		What the deparse files share: the context of one expression
 *		walk, and the walks themselves.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DEPARSE_INT_H
#define MF_DEPARSE_INT_H

#include "deparse/deparse.h"

/*
 * One level of a whole query being written (deparse_query.c): a SELECT
 * and its planner state; a subquery's level knows the SubPlan whose
 * parameters it reads and the level that passes them.
 */
struct MfDeparseCxt;

typedef struct MfQueryLevel
{
	PlannerInfo *root;
	int			id;				/* its relations are q<id>r<index> */
	struct MfQueryLevel *outer;
	SubPlan    *subplan;		/* NULL: no parameters from outside */

	/*
	 * The nodes a whole query reads its own way (columns of its levels,
	 * parameters, subqueries): may one go, and its text (deparse_query.c,
	 * called through these so that the walks of conditions need not know
	 * it).
	 */
	bool		(*node_shippable) (Node *node, struct MfDeparseCxt *cxt);
	void		(*deparse_node) (Node *node, struct MfDeparseCxt *cxt);
} MfQueryLevel;

typedef struct MfDeparseCxt
{
	PlannerInfo *root;
	RelOptInfo *baserel;		/* the relation scanned: a foreign table, or
								 * a join of foreign tables (join.c) */
	Oid			relid;			/* a foreign table's; InvalidOid for a join */
	bool		qualify;		/* columns written as rN.col: a join's */
	const MfDialect *dialect;
	MfMarkerStyle markers;		/* the server's transport's */
	StringInfo	buf;
	List	  **params_list;
	bool		aggregates;		/* aggregates may appear: the expressions
								 * of a grouped relation */
	bool		outer_alias;	/* columns written as r0.col: an outer
								 * expression inside a subquery */
	bool		conditions;		/* a table's own conditions (WHERE), where a
								 * subquery may go (mf_is_foreign_cond) */
	int			conditional;	/* inside a part of a CASE or COALESCE that
								 * may not be evaluated: nothing computed
								 * here in advance */
	MfQueryLevel *level;		/* writing a whole query: the level whose
								 * expression this is (NULL otherwise) */
	struct MfQueryWrite *query_write;	/* and what its levels share */
	Aggref	   *whole;			/* the aggregate that is a whole output of
								 * the grouping, where one fetched as sum
								 * and count (MfAggregate.sum_count) may be */
} MfDeparseCxt;

/* deparse.c: what every walk shares */
extern const MfDialect *mf_rel_dialect(RelOptInfo *baserel);
extern MfMarkerStyle mf_rel_markers(RelOptInfo *baserel);
extern char *mf_const_text(Const *c);
extern void mf_deparse_cxt_init(MfDeparseCxt *cxt, PlannerInfo *root,
								RelOptInfo *baserel, StringInfo buf,
								List **params_list);
extern bool mf_is_local_param(Node *node, const MfDialect *dialect);
extern bool mf_cxt_local_param(Node *node, MfDeparseCxt *cxt);
extern bool mf_is_text_type(Oid typid);
extern bool mf_var_is_scanned(Var *var, MfDeparseCxt *cxt);
extern Oid	mf_var_relid(Var *var, MfDeparseCxt *cxt);

/* deparse_ship.c: what may be sent */
extern bool mf_expr_shippable(Node *node, MfDeparseCxt *cxt);
extern char *mf_operator_name(Oid opno);
extern bool mf_builtin_cast_shippable(FuncExpr *f, MfDeparseCxt *cxt);
extern bool mf_builtin_call_shippable(FuncExpr *f, MfDeparseCxt *cxt);
extern Node *mf_case_when_value(CaseExpr *ce, Expr *cond);
extern Node *mf_array_op_expanded(ScalarArrayOpExpr *op);
extern bool mf_op_guard_range(MfDeparseCxt *cxt, Oid opno, int64 *min,
							  int64 *max);
extern const MfAggregate *mf_find_aggregate(const MfDialect *dialect,
											Oid aggfnoid, Oid argtype);
extern bool mf_aggref_arg(Aggref *agg, Node **arg);
extern bool mf_aggref_shippable(Aggref *agg, MfDeparseCxt *cxt);

/* deparse_expr.c: what is sent, written */
extern void mf_deparse_node(Node *node, MfDeparseCxt *cxt);
extern void mf_deparse_text_through(Node *node, const char *fmt,
									MfDeparseCxt *cxt);
extern void mf_deparse_selected(Node *node, MfDeparseCxt *cxt);
extern bool mf_deparse_sum_count(Node *node, MfDeparseCxt *cxt);
extern void mf_deparse_var(Var *var, MfDeparseCxt *cxt);
extern void mf_deparse_aggref(Aggref *agg, MfDeparseCxt *cxt);
extern void mf_deparse_compared(Node *node, Oid collid, MfDeparseCxt *cxt);

/* deparse_expr.c: subqueries inside a condition */
#define MF_NESTED_MARK '\x01'	/* around a parameter's number in the
								 * nested form of a scan's SQL */
extern bool mf_deparse_nesting(void);
extern void mf_deparse_nesting_refuse(void);
extern bool mf_is_widening_cast(FuncExpr *f);
extern ForeignScan *mf_subplan_scan(SubPlan *subplan, MfDeparseCxt *cxt,
									PlannerInfo **subroot);
extern bool mf_subplan_shippable(SubPlan *subplan, MfDeparseCxt *cxt);
extern void mf_deparse_subplan(SubPlan *subplan, MfDeparseCxt *cxt);
extern bool mf_widening_cast_shippable(FuncExpr *f, MfDeparseCxt *cxt);
extern void mf_deparse_cast(FuncExpr *f, MfDeparseCxt *cxt);

/* deparse_collate.c */
extern bool mf_collation_safe(Oid inputcollid, List *args);
extern bool mf_text_equality_shippable(OpExpr *op, MfDeparseCxt *cxt);
extern bool mf_text_marked_equality(Oid opno, Oid inputcollid, List *args,
									MfDeparseCxt *cxt);
extern bool mf_group_trimmed_key(Node *expr, MfDeparseCxt *cxt);
extern bool mf_group_trimmed_column(Node *expr, MfDeparseCxt *cxt);
extern bool mf_text_like(Oid opno, Oid inputcollid, List *args,
						 MfDeparseCxt *cxt, bool *negated);
extern bool mf_text_bytes_equality(Oid opno, Oid inputcollid, List *args,
								   MfDeparseCxt *cxt, bool *trimmed);
extern bool mf_text_native_column(Node *node, MfDeparseCxt *cxt);
extern bool mf_comparison_shippable(MfDeparseCxt *cxt, Node *expr, Oid collid,
									bool ordering);

/* deparse_decimal.c */
extern bool mf_decimal_exact(Node *node, MfDeparseCxt *cxt);
extern bool mf_decimal_sum_exact(Node *arg, MfDeparseCxt *cxt);


#endif							/* MF_DEPARSE_INT_H */
