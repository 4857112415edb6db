/*-------------------------------------------------------------------------
 *
 * deparse_query_int.h
 *		What the writers of a whole query share: deparse_query.c (a level's
 *		SELECT, its expressions and subqueries) and deparse_query_from.c
 *		(a level's FROM and WHERE).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DEPARSE_QUERY_INT_H
#define MF_DEPARSE_QUERY_INT_H

#include "deparse/deparse_int.h"

/* What one whole query's writing shares across its levels. */
typedef struct MfQueryWrite
{
	MfQueryRelCheck rel_ok;		/* may this foreign table be in it? */
	void	   *rel_ok_arg;
	RelOptInfo *first_rel;		/* the first foreign table met */
	int			next_id;		/* the next level's number */
	List	  **params_list;	/* values sent (PARAM_EXTERN) */
	List	   *texts;			/* MfSubqueryText: each subquery written once */
} MfQueryWrite;

/* How a level's select list is written. */
typedef enum MfQueryRole
{
	MF_QUERY_TOP,				/* every entry, junk ones too: the scan's */
	MF_QUERY_DERIVED,			/* a derived table: AS c<resno>, no junk */
	MF_QUERY_VALUE,				/* a scalar or ANY subquery: its one value */
	MF_QUERY_EXISTS				/* SELECT NULL */
} MfQueryRole;

/* deparse_query.c */
extern bool mf_query_write(StringInfo buf, MfQueryWrite *w, PlannerInfo *root,
						   MfQueryLevel *outer, SubPlan *subplan,
						   MfQueryRole role);
extern bool mf_query_conds(Node *quals, MfQueryWrite *w, MfQueryLevel *level,
						   StringInfo buf, bool aggregates, bool *first);

/* deparse_query_from.c */
extern bool mf_query_semis_closed(PlannerInfo *root);
extern bool mf_query_from_where(StringInfo buf, MfQueryWrite *w,
								MfQueryLevel *level);

#endif							/* MF_DEPARSE_QUERY_INT_H */
