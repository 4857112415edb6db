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

#include "multi_fdw.h"

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
} MfDeparseCxt;

/* deparse.c */
extern void mf_deparse_cxt_init(MfDeparseCxt *cxt, PlannerInfo *root,
								RelOptInfo *baserel, StringInfo buf,
								List **params_list);
extern bool mf_expr_shippable(Node *node, MfDeparseCxt *cxt);
extern void mf_deparse_node(Node *node, MfDeparseCxt *cxt);
extern bool mf_is_local_param(Node *node, const MfDialect *dialect);
extern bool mf_is_text_type(Oid typid);
extern bool mf_var_is_scanned(Var *var, MfDeparseCxt *cxt);
extern Oid	mf_var_relid(Var *var, MfDeparseCxt *cxt);
extern Node *mf_strip_relabel(Node *node);

/* deparse_join.c */
extern void mf_deparse_var(Var *var, MfDeparseCxt *cxt);

/* deparse_collate.c */
extern bool mf_collation_safe(Oid inputcollid, List *args);
extern bool mf_text_equality_shippable(OpExpr *op, MfDeparseCxt *cxt);
extern bool mf_comparison_shippable(MfDeparseCxt *cxt, Node *expr, Oid collid,
									bool ordering);

/* deparse_decimal.c */
extern bool mf_decimal_exact(Node *node, MfDeparseCxt *cxt);

/* deparse_upper.c */
extern bool mf_aggref_shippable(Aggref *agg, MfDeparseCxt *cxt);
extern void mf_deparse_aggref(Aggref *agg, MfDeparseCxt *cxt);

#endif							/* MF_DEPARSE_INT_H */
