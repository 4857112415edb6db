/*-------------------------------------------------------------------------
 *
 * deparse_join.c
 *		SQL text of a join of foreign tables that join.c decided to send:
 *		its FROM clause, where each condition goes, and its select list.
 *
 * Every table of a join is written with the alias rN, N its range table
 * index, and every column as rN.col, so that no two tables' columns can be
 * confused.  A condition goes where it filters the same rows as here:
 *
 *	- an inner join's own conditions in its ON clause, its sides' below it;
 *	- a left join's ON clause takes the conditions of its inner (nullable)
 *	  side too: filtering that side first and joining after is the same as
 *	  joining on both (a right join the same, mirrored); the preserved
 *	  side's conditions may go after the join, to the WHERE, since its rows
 *	  come out of the join unchanged;
 *	- a full join has no side whose conditions could move: join.c ships
 *	  one only when neither side has any;
 *	- a semi or anti join is written as its outer side with a condition
 *	  [NOT] EXISTS (SELECT NULL FROM <inner side> WHERE <join conditions>),
 *	  which is what the executor's semi and anti joins compute.
 *
 * Conditions are written in the order they appear in the text, so that
 * positional parameter markers (?) meet their values in params_list.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "nodes/nodeFuncs.h"
#include "parser/parsetree.h"
#include "utils/rel.h"

#include "deparse/deparse_int.h"

static void mf_join_from(RelOptInfo *rel, MfDeparseCxt *cxt);
static void mf_join_conds(RelOptInfo *rel, MfDeparseCxt *cxt, bool *first,
						  const char *keyword);

/* One condition (a RestrictInfo or an expression) after the ones before. */

static void
mf_join_cond(Node *cond, MfDeparseCxt *cxt, bool *first, const char *keyword)
{
	if (IsA(cond, RestrictInfo))
		cond = (Node *) ((RestrictInfo *) cond)->clause;
	appendStringInfoString(cxt->buf, *first ? keyword : " AND ");
	*first = false;
	mf_deparse_node(cond, cxt);
}

static void
mf_join_cond_list(List *conds, MfDeparseCxt *cxt, bool *first,
				  const char *keyword)
{
	ListCell   *lc;

	foreach(lc, conds)
		mf_join_cond(lfirst(lc), cxt, first, keyword);
}

/*
 * Would rel's rows be filtered by conditions outside its FROM text?  A
 * full join's sides must not be.
 */
bool
mf_join_has_conds(RelOptInfo *rel)
{
	MfRelInfo  *fpinfo = rel->fdw_private;

	if (fpinfo->remote_conds != NIL)
		return true;
	if (IS_SIMPLE_REL(rel))
		return false;
	switch (fpinfo->jointype)
	{
		case JOIN_INNER:
			return mf_join_has_conds(fpinfo->join_outer) ||
				mf_join_has_conds(fpinfo->join_inner);
		case JOIN_LEFT:
			return mf_join_has_conds(fpinfo->join_outer);
		case JOIN_RIGHT:
			return mf_join_has_conds(fpinfo->join_inner);
		case JOIN_SEMI:
		case JOIN_ANTI:
			return true;		/* the EXISTS */
		default:
			return false;
	}
}

/*
 * The conditions that filter rel's rows from outside its FROM text: a
 * table's own, and those its joins pass up (see the head comment).
 */
static void
mf_join_conds(RelOptInfo *rel, MfDeparseCxt *cxt, bool *first,
			  const char *keyword)
{
	MfRelInfo  *fpinfo = rel->fdw_private;

	if (!IS_SIMPLE_REL(rel))
	{
		switch (fpinfo->jointype)
		{
			case JOIN_INNER:
				mf_join_conds(fpinfo->join_outer, cxt, first, keyword);
				mf_join_conds(fpinfo->join_inner, cxt, first, keyword);
				break;
			case JOIN_LEFT:
				mf_join_conds(fpinfo->join_outer, cxt, first, keyword);
				break;
			case JOIN_RIGHT:
				mf_join_conds(fpinfo->join_inner, cxt, first, keyword);
				break;
			case JOIN_SEMI:
			case JOIN_ANTI:
				{
					bool		inner_first = true;

					mf_join_conds(fpinfo->join_outer, cxt, first, keyword);
					appendStringInfoString(cxt->buf, *first ? keyword : " AND ");
					*first = false;
					appendStringInfoString(cxt->buf,
										   fpinfo->jointype == JOIN_ANTI ?
										   "(NOT EXISTS (SELECT NULL FROM " :
										   "(EXISTS (SELECT NULL FROM ");
					mf_join_from(fpinfo->join_inner, cxt);
					mf_join_cond_list(fpinfo->join_conds, cxt, &inner_first,
									  " WHERE ");
					mf_join_conds(fpinfo->join_inner, cxt, &inner_first,
								  " WHERE ");
					appendStringInfoString(cxt->buf, "))");
					break;
				}
			default:
				break;
		}
	}
	mf_join_cond_list(fpinfo->remote_conds, cxt, first, keyword);
}

/* The FROM text of rel: "table rN", or a parenthesised join. */
static void
mf_join_from(RelOptInfo *rel, MfDeparseCxt *cxt)
{
	MfRelInfo  *fpinfo = rel->fdw_private;
	bool		first = true;

	if (IS_SIMPLE_REL(rel))
	{
		Relation	r = table_open(planner_rt_fetch(rel->relid, cxt->root)->relid,
								   NoLock);

		mf_deparse_relation(cxt->buf, r, cxt->dialect);
		table_close(r, NoLock);
		appendStringInfo(cxt->buf, " r%d", rel->relid);
		return;
	}
	if (fpinfo->jointype == JOIN_SEMI || fpinfo->jointype == JOIN_ANTI)
	{
		mf_join_from(fpinfo->join_outer, cxt);
		return;
	}

	appendStringInfoChar(cxt->buf, '(');
	mf_join_from(fpinfo->join_outer, cxt);
	if (fpinfo->jointype == JOIN_INNER && fpinfo->join_conds == NIL)
	{
		/* an inner join's sides' conditions go up: nothing to join on */
		appendStringInfoString(cxt->buf, " CROSS JOIN ");
		mf_join_from(fpinfo->join_inner, cxt);
		appendStringInfoChar(cxt->buf, ')');
		return;
	}
	appendStringInfo(cxt->buf, " %s ", mf_join_name(fpinfo->jointype));
	mf_join_from(fpinfo->join_inner, cxt);
	appendStringInfoString(cxt->buf, " ON (");
	mf_join_cond_list(fpinfo->join_conds, cxt, &first, "");
	if (fpinfo->jointype == JOIN_LEFT)
		mf_join_conds(fpinfo->join_inner, cxt, &first, "");
	else if (fpinfo->jointype == JOIN_RIGHT)
		mf_join_conds(fpinfo->join_outer, cxt, &first, "");
	if (first)
		appendStringInfoString(cxt->buf, "1 = 1");
	appendStringInfoString(cxt->buf, "))");
}

/*
 * Append " FROM ... WHERE ..." for scanrel: a foreign table (its name and
 * its remote conditions, unqualified) or a join.
 */
void
mf_deparse_from_where(StringInfo buf, PlannerInfo *root, RelOptInfo *scanrel,
					  List **params_list)
{
	MfDeparseCxt cxt;
	bool		first = true;

	mf_deparse_cxt_init(&cxt, root, scanrel, buf, params_list);
	appendStringInfoString(buf, " FROM ");
	if (IS_SIMPLE_REL(scanrel))
	{
		Relation	rel = table_open(cxt.relid, NoLock);

		mf_deparse_relation(buf, rel, cxt.dialect);
		table_close(rel, NoLock);
		/* a subquery's nested form qualifies its columns (cxt.qualify) */
		if (mf_deparse_nesting())
			appendStringInfo(buf, " r%d", scanrel->relid);
	}
	else
		mf_join_from(scanrel, &cxt);
	mf_join_conds(scanrel, &cxt, &first, " WHERE ");
}

/* A column of one of a join's tables, as the join's SELECT names it: rN.col. */
void
mf_deparse_join_column(StringInfo buf, PlannerInfo *root, Var *var,
					   const MfDialect *dialect)
{
	appendStringInfo(buf, "r%d.", var->varno);
	mf_deparse_column(buf, planner_rt_fetch(var->varno, root)->relid,
					  var->varattno, dialect);
}

/*
 * Append the SELECT of a join: its select list is tlist (the scan's
 * fdw_scan_tlist, columns only), numbered 1.. in retrieved_attrs.
 */
void
mf_deparse_join_select(StringInfo buf, PlannerInfo *root, RelOptInfo *joinrel,
					   List *tlist, List **retrieved_attrs, List **params_list)
{
	MfDeparseCxt cxt;
	ListCell   *lc;
	int			i = 0;

	mf_deparse_cxt_init(&cxt, root, joinrel, buf, params_list);
	*retrieved_attrs = NIL;
	appendStringInfoString(buf, "SELECT ");
	foreach(lc, tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (i > 0)
			appendStringInfoString(buf, ", ");
		mf_deparse_selected((Node *) tle->expr, &cxt);
		*retrieved_attrs = lappend_int(*retrieved_attrs, ++i);
	}
	if (i == 0)
		appendStringInfoString(buf, "NULL");
	mf_deparse_from_where(buf, root, joinrel, params_list);
}

/* ---------------------------------------------------------------------
 * EXPLAIN: the relations a remote query covers
 * ---------------------------------------------------------------------
 */

/* "INNER JOIN" and so on: as SQL, and in EXPLAIN's Relations line */
const char *
mf_join_name(JoinType jointype)
{
	switch (jointype)
	{
		case JOIN_INNER:
			return "INNER JOIN";
		case JOIN_LEFT:
			return "LEFT JOIN";
		case JOIN_RIGHT:
			return "RIGHT JOIN";
		case JOIN_FULL:
			return "FULL JOIN";
		case JOIN_SEMI:
			return "SEMI JOIN";
		case JOIN_ANTI:
			return "ANTI JOIN";
		default:
			return "JOIN";
	}
}
