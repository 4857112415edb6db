/*-------------------------------------------------------------------------
 *
 * deparse_query_from.c
 *		The FROM and WHERE of one level of a whole query (deparse_query.c
 *		writes the rest): its foreign tables, its derived tables, its
 *		joins, and its semi and anti joins as [NOT] EXISTS again.
 *
 * The level's join tree is the planner's, after preprocessing.  A semi or
 * anti join goes only where everything above it is an inner join, and
 * only when nothing outside it reads its right side's columns
 * (mf_query_semis_closed).  A WHERE condition the planner copied into a
 * derived table is written there only (mf_query_copied_cond).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "parser/parsetree.h"
#include "utils/rel.h"

#include "deparse/deparse_query_int.h"

/* What the FROM clause of one SELECT gathers besides its items. */
typedef struct MfFromScope
{
	StringInfoData where;		/* conditions for its WHERE */
	bool		first_where;
} MfFromScope;

static bool mf_query_from_item(StringInfo buf, Node *item, MfQueryWrite *w,
							   MfQueryLevel *level, MfFromScope *scope,
							   bool inner, bool *first_item);

/* One relation: a foreign table or a derived table, and its alias. */
static bool
mf_query_rel(StringInfo buf, int rti, MfQueryWrite *w, MfQueryLevel *level)
{
	PlannerInfo *root = level->root;
	RangeTblEntry *rte = rt_fetch(rti, root->parse->rtable);
	RelOptInfo *rel;

	/* a relation the planner removed (a useless join's) has no state */
	rel = rti < root->simple_rel_array_size ? root->simple_rel_array[rti] : NULL;
	if (rel == NULL || rel->reloptkind != RELOPT_BASEREL)
		return false;
	if (rte->rtekind == RTE_RELATION)
	{
		Relation	r;

		if (rte->tablesample != NULL || rte->relkind != RELKIND_FOREIGN_TABLE ||
			rel->fdw_private == NULL || !w->rel_ok(root, rel, w->rel_ok_arg))
			return false;
		r = table_open(rte->relid, NoLock);
		mf_deparse_relation(buf, r, mf_rel_dialect(rel));
		table_close(r, NoLock);
	}
	else if (rte->rtekind == RTE_SUBQUERY && !rte->lateral &&
			 !rte->security_barrier && rel->subroot != NULL)
	{
		/* its relations are the plan's: whole_query.c sees to it */
		appendStringInfoChar(buf, '(');
		if (!mf_query_write(buf, w, rel->subroot, level, NULL,
							MF_QUERY_DERIVED))
			return false;
		appendStringInfoChar(buf, ')');
	}
	else
		return false;
	appendStringInfo(buf, " q%dr%d", level->id, rti);
	return true;
}

/*
 * A semi or anti join (an EXISTS, NOT EXISTS or IN the planner made one):
 * its left side among the items, its right side and conditions as
 * [NOT] EXISTS (SELECT NULL FROM right WHERE conditions) in the WHERE.
 * Only where everything above it is an inner join, which a filter of the
 * left side's rows commutes with.
 */
static bool
mf_query_semi(StringInfo buf, JoinExpr *j, MfQueryWrite *w,
			  MfQueryLevel *level, MfFromScope *scope, bool *first_item)
{
	MfFromScope inner;
	StringInfoData sub;
	bool		first = true;
	bool		ok;

	if (!mf_query_from_item(buf, j->larg, w, level, scope, true, first_item))
		return false;
	initStringInfo(&sub);
	initStringInfo(&inner.where);
	inner.first_where = true;
	ok = mf_query_from_item(&sub, j->rarg, w, level, &inner, true, &first);
	if (ok && j->quals != NULL)
		ok = mf_query_conds(j->quals, w, level, &inner.where, false,
							&inner.first_where);
	if (!ok)
		return false;
	appendStringInfoString(&scope->where, scope->first_where ? "" : " AND ");
	scope->first_where = false;
	appendStringInfo(&scope->where, "%sEXISTS (SELECT NULL%s%s",
					 j->jointype == JOIN_ANTI ? "NOT " : "",
					 sub.len > 0 ? " FROM " : "", sub.data);
	if (!inner.first_where)
		appendStringInfo(&scope->where, " WHERE %s", inner.where.data);
	appendStringInfoChar(&scope->where, ')');
	return true;
}

/*
 * One item of a FROM list, after ", " unless it is the first: inner (no
 * outer join above it) says where a semi join may be.
 */
static bool
mf_query_from_item(StringInfo buf, Node *item, MfQueryWrite *w,
				   MfQueryLevel *level, MfFromScope *scope, bool inner,
				   bool *first_item)
{
	if (IsA(item, FromExpr))
	{
		FromExpr   *f = (FromExpr *) item;
		ListCell   *lc;

		/* a list below a semi join: its items here, its quals in WHERE */
		if (!inner)
			return false;
		foreach(lc, f->fromlist)
			if (!mf_query_from_item(buf, lfirst(lc), w, level, scope, true,
									first_item))
				return false;
		return f->quals == NULL ||
			mf_query_conds(f->quals, w, level, &scope->where, false,
						   &scope->first_where);
	}
	if (IsA(item, JoinExpr) &&
		(((JoinExpr *) item)->jointype == JOIN_SEMI ||
		 ((JoinExpr *) item)->jointype == JOIN_ANTI))
		return inner && mf_query_semi(buf, (JoinExpr *) item, w, level,
									  scope, first_item);

	/* FROM nothing (SELECT 1): the planner's RTE_RESULT, written as none */
	if (IsA(item, RangeTblRef) &&
		rt_fetch(((RangeTblRef *) item)->rtindex,
				 level->root->parse->rtable)->rtekind == RTE_RESULT)
		return inner;
	if (!*first_item)
		appendStringInfoString(buf, ", ");
	*first_item = false;
	if (IsA(item, RangeTblRef))
		return mf_query_rel(buf, ((RangeTblRef *) item)->rtindex, w, level);
	if (IsA(item, JoinExpr))
	{
		JoinExpr   *j = (JoinExpr *) item;
		const char *type;
		bool		first = true;
		bool		first_cond = true;
		bool		inner_join = j->jointype == JOIN_INNER;
		MfFromScope side;

		switch (j->jointype)
		{
			case JOIN_INNER:
				type = "INNER";
				break;
			case JOIN_LEFT:
				type = "LEFT";
				break;
			case JOIN_RIGHT:
				type = "RIGHT";
				break;
			case JOIN_FULL:
				type = "FULL";
				break;
			default:
				return false;
		}
		/* a side's own WHERE conditions (a list's) belong in the ON */
		initStringInfo(&side.where);
		side.first_where = true;
		/* each side an item at least (not FROM nothing, not a semi join) */
		appendStringInfoChar(buf, '(');
		if (!mf_query_from_item(buf, j->larg, w, level, &side,
								inner && inner_join, &first) || first)
			return false;
		appendStringInfo(buf, " %s JOIN ", type);
		first = true;
		if (!mf_query_from_item(buf, j->rarg, w, level, &side,
								inner && inner_join, &first) || first)
			return false;
		if (!side.first_where && !inner_join)
			return false;
		appendStringInfoString(buf, " ON ");
		if (j->quals != NULL &&
			!mf_query_conds(j->quals, w, level, buf, false, &first_cond))
			return false;
		if (!side.first_where)
		{
			appendStringInfoString(buf, first_cond ? "" : " AND ");
			appendStringInfoString(buf, side.where.data);
			first_cond = false;
		}
		if (first_cond)
			appendStringInfoString(buf, "true");
		appendStringInfoChar(buf, ')');
		return true;
	}
	return false;
}

/* The range table indexes a join tree's items cover. */
static void
mf_query_item_relids(Node *item, Bitmapset **relids)
{
	ListCell   *lc;

	if (IsA(item, RangeTblRef))
		*relids = bms_add_member(*relids, ((RangeTblRef *) item)->rtindex);
	else if (IsA(item, JoinExpr))
	{
		mf_query_item_relids(((JoinExpr *) item)->larg, relids);
		mf_query_item_relids(((JoinExpr *) item)->rarg, relids);
	}
	else if (IsA(item, FromExpr))
		foreach(lc, ((FromExpr *) item)->fromlist)
			mf_query_item_relids(lfirst(lc), relids);
}

/*
 * The relations a level reads outside its semi and anti joins' right
 * sides (the quals and outputs of everything but the semi join itself),
 * and those right sides: they must not meet.  A LEFT JOIN whose right side
 * must be NULL (WHERE b.id IS NULL) is an anti join the planner made, and
 * its WHERE still names b, which EXISTS does not bring into scope.
 */
static void
mf_query_semi_sides(Node *item, Bitmapset **inside, List **outside)
{
	ListCell   *lc;

	if (IsA(item, JoinExpr))
	{
		JoinExpr   *j = (JoinExpr *) item;

		if (j->jointype == JOIN_SEMI || j->jointype == JOIN_ANTI)
		{
			mf_query_item_relids(j->rarg, inside);
			mf_query_semi_sides(j->larg, inside, outside);
			return;
		}
		*outside = lappend(*outside, j->quals);
		mf_query_semi_sides(j->larg, inside, outside);
		mf_query_semi_sides(j->rarg, inside, outside);
	}
	else if (IsA(item, FromExpr))
	{
		*outside = lappend(*outside, ((FromExpr *) item)->quals);
		foreach(lc, ((FromExpr *) item)->fromlist)
			mf_query_semi_sides(lfirst(lc), inside, outside);
	}
}

bool
mf_query_semis_closed(PlannerInfo *root)
{
	Bitmapset  *inside = NULL;
	List	   *outside = NIL;
	Bitmapset  *read;
	ListCell   *lc;

	mf_query_semi_sides((Node *) root->parse->jointree, &inside, &outside);
	if (inside == NULL)
		return true;
	outside = lappend(outside, root->processed_tlist != NIL ?
					  root->processed_tlist : root->parse->targetList);
	outside = lappend(outside, root->parse->havingQual);
	read = NULL;
	foreach(lc, outside)
		read = bms_add_members(read, pull_varnos(root, lfirst(lc)));
	return !bms_overlap(read, inside);
}

/*
 * Is cond, an item of the WHERE of level's query, a condition the planner
 * copied into a derived table (set_subquery_pathlist)?  There it is
 * written, and outside it may read an output the planner made NULL after
 * (remove_unused_subquery_outputs); written twice, an initplan in it would
 * run twice.  So it is when it reads one derived table only, which no
 * join of the level makes NULL or filters (an outer, semi or anti join,
 * above which such a condition would be checked), and none of that
 * table's own conditions is left to check here: each went into it (none
 * goes when one cannot: a LIMIT in it, a condition of a volatile
 * function).  A condition the planner folded into an equivalence class
 * comes back as one of the table's own, and goes in or stays likewise.
 */
static bool
mf_query_copied_cond(PlannerInfo *root, Node *cond)
{
	Relids		varnos = pull_varnos(root, cond);
	int			rti;
	RelOptInfo *rel;
	ListCell   *lc;

	if (!bms_get_singleton_member(varnos, &rti) ||
		rti >= root->simple_rel_array_size ||
		(rel = root->simple_rel_array[rti]) == NULL ||
		rel->reloptkind != RELOPT_BASEREL || rel->rtekind != RTE_SUBQUERY ||
		rel->subroot == NULL || rel->baserestrictinfo != NIL ||
		contain_volatile_functions(cond))
		return false;
	foreach(lc, root->join_info_list)
	{
		SpecialJoinInfo *sj = lfirst(lc);

		if (bms_is_member(rti, sj->min_righthand) ||
			bms_is_member(rti, sj->syn_righthand) ||
			bms_is_member(rti, sj->min_lefthand) ||
			bms_is_member(rti, sj->syn_lefthand))
			return false;
	}
	return true;
}

/*
 * " FROM items WHERE conditions" of level's query (nothing for a query of
 * no relation), with the conditions semi and anti joins and lists add.
 */
bool
mf_query_from_where(StringInfo buf, MfQueryWrite *w, MfQueryLevel *level)
{
	Query	   *parse = level->root->parse;
	MfFromScope scope;
	StringInfoData from;
	bool		first = true;
	ListCell   *lc;

	initStringInfo(&scope.where);
	initStringInfo(&from);
	scope.first_where = true;
	foreach(lc, parse->jointree->fromlist)
		if (!mf_query_from_item(&from, lfirst(lc), w, level, &scope, true,
								&first))
			return false;
	if (from.len > 0)
		appendStringInfo(buf, " FROM %s", from.data);
	if (parse->jointree->quals != NULL)
	{
		Node	   *quals = parse->jointree->quals;

		foreach(lc, IsA(quals, List) ? (List *) quals : list_make1(quals))
			if (!mf_query_copied_cond(level->root, lfirst(lc)) &&
				!mf_query_conds(lfirst(lc), w, level, &scope.where, false,
								&scope.first_where))
				return false;
	}
	if (!scope.first_where)
		appendStringInfo(buf, " WHERE %s", scope.where.data);
	return true;
}
