/*-------------------------------------------------------------------------
 *
 * deparse_upper.c
 *		SQL text for what comes after the scan of one foreign table:
 *		aggregates, GROUP BY and HAVING, ORDER BY.
 *
 * Shipping any of it rests on one question: does the remote compare the
 * values as we do?  Grouping and DISTINCT need its equality, a sort and
 * min/max its order, and NULL placement must come out as ours.  For text
 * the answer depends on collations.  The postgres dialect follows
 * postgres_fdw: the default collation, or a column's own, is assumed to
 * be the remote's too.  Dialects whose text comparisons depend on a
 * collation we cannot see (text_equality_by_option: MySQL) compare a
 * column only when it carries text_pushdown, and order it only when the
 * local collation orders by code point as that byte-wise remote collation
 * does (C, POSIX, C.UTF-8).
 *
 * Which aggregates are shipped, and how they are spelled, is the
 * dialect's table (dialect.h); this file writes them.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "deparse/deparse_int.h"


/*
 * Does node name, outside an aggregate, a column that may be a GROUP BY
 * key grouped through the dialect's group_trimmed_fmt (under whatever
 * collation the key has)?  The remote selects such a key as that
 * expression and groups by its position: the column itself is no name
 * there after the grouping.
 */
static bool
mf_names_trimmed_key(Node *node, MfDeparseCxt *cxt)
{
	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
		return false;
	if (IsA(node, Var))
		return mf_group_trimmed_column(node, cxt);
	return expression_tree_walker(node, mf_names_trimmed_key, cxt);
}

/*
 * May expr, of the grouped relation over scanrel, be computed remotely
 * (in a HAVING condition, a sort key)?  output: it is a whole output of
 * the grouping, in the remote select list, where an aggregate fetched as
 * sum and count may be (MfAggregate.sum_count).  One that would be sent
 * as a parameter is no use in a select list.
 */
bool
mf_is_upper_expr(PlannerInfo *root, RelOptInfo *scanrel, Expr *expr,
				 bool output)
{
	MfDeparseCxt cxt;

	mf_deparse_cxt_init(&cxt, root, scanrel, NULL, NULL);
	cxt.aggregates = true;
	if (output && IsA(expr, Aggref))
		cxt.whole = (Aggref *) expr;
	if (root->parse->groupClause != NIL &&
		mf_names_trimmed_key((Node *) expr, &cxt))
		return false;
	return mf_expr_shippable((Node *) expr, &cxt);
}

/* May the remote GROUP BY expr as we would? */
bool
mf_grouping_key_shippable(PlannerInfo *root, RelOptInfo *scanrel, Expr *expr)
{
	MfDeparseCxt cxt;

	mf_deparse_cxt_init(&cxt, root, scanrel, NULL, NULL);
	if (cxt.dialect->group_by_expressions && !contain_var_clause((Node *) expr))
		return false;
	if (mf_group_trimmed_key((Node *) expr, &cxt))
		return true;
	return mf_expr_shippable((Node *) expr, &cxt) &&
		!mf_is_local_param((Node *) expr, cxt.dialect) &&
		!IsA(expr, Param) &&
		mf_comparison_shippable(&cxt, (Node *) expr, exprCollation((Node *) expr),
								false);
}

/* ---------------------------------------------------------------------
 * Sorting
 * ---------------------------------------------------------------------
 */
/*
 * A member of ec that is an expression of the scanned relation alone, of
 * the tables whose columns its remote query can name: not those inside a
 * semi or anti join's EXISTS.
 */
static EquivalenceMember *
mf_em_for_rel(PlannerInfo *root, EquivalenceClass *ec, RelOptInfo *rel)
{
	Relids		hidden = ((MfRelInfo *) rel->fdw_private)->hidden_relids;
	ListCell   *lc;

	foreach(lc, ec->ec_members)
	{
		EquivalenceMember *em = lfirst(lc);

		if (em->em_is_child || em->em_is_const ||
			bms_is_empty(em->em_relids) ||
			!bms_is_subset(em->em_relids, rel->relids) ||
			bms_overlap(em->em_relids, hidden))
			continue;
		if (mf_is_foreign_expr(root, rel, em->em_expr) &&
			!mf_is_local_param((Node *) em->em_expr,
							   ((MfRelInfo *) rel->fdw_private)->opts.dialect))
			return em;
	}
	return NULL;
}

/*
 * A member of ec that the grouped relation computes as one of the query's
 * sort expressions.
 */
static EquivalenceMember *
mf_em_for_target(PlannerInfo *root, EquivalenceClass *ec,
				 RelOptInfo *grouped_rel, RelOptInfo *scanrel)
{
	PathTarget *target = grouped_rel->reltarget;
	ListCell   *lc;
	int			i = 0;

	foreach(lc, target->exprs)
	{
		Expr	   *expr = lfirst(lc);
		Index		sgref = get_pathtarget_sortgroupref(target, i);
		ListCell   *lc2;

		i++;
		if (sgref == 0 ||
			get_sortgroupref_clause_noerr(sgref, root->parse->sortClause) == NULL)
			continue;
		while (expr && IsA(expr, RelabelType))
			expr = ((RelabelType *) expr)->arg;
		foreach(lc2, ec->ec_members)
		{
			EquivalenceMember *em = lfirst(lc2);
			Expr	   *em_expr = em->em_expr;

			if (em->em_is_const || em->em_is_child)
				continue;
			while (em_expr && IsA(em_expr, RelabelType))
				em_expr = ((RelabelType *) em_expr)->arg;
			if (equal(em_expr, expr) &&
				mf_is_upper_expr(root, scanrel, em->em_expr, false) &&
				!mf_is_local_param((Node *) em->em_expr,
								   ((MfRelInfo *) scanrel->fdw_private)->opts.dialect))
				return em;
		}
	}
	return NULL;
}

static EquivalenceMember *
mf_pathkey_em(PlannerInfo *root, PathKey *pathkey, RelOptInfo *scanrel,
			  RelOptInfo *grouped_rel)
{
	return grouped_rel ?
		mf_em_for_target(root, pathkey->pk_eclass, grouped_rel, scanrel) :
		mf_em_for_rel(root, pathkey->pk_eclass, scanrel);
}

/*
 * May the remote sort by pathkey, the rows of scanrel or, when grouped_rel
 * is set, of the grouping over it, in our order with our NULL placement?
 * Only the default order of the key's type is shipped (no USING).
 */
bool
mf_pathkey_shippable(PlannerInfo *root, PathKey *pathkey, RelOptInfo *scanrel,
					 RelOptInfo *grouped_rel)
{
	EquivalenceClass *ec = pathkey->pk_eclass;
	EquivalenceMember *em;
	TypeCacheEntry *typentry;
	MfDeparseCxt cxt;

	mf_deparse_cxt_init(&cxt, root, scanrel, NULL, NULL);
	if (cxt.dialect->nulls_order == MF_NULLS_UNKNOWN || ec->ec_has_volatile)
		return false;
	em = mf_pathkey_em(root, pathkey, scanrel, grouped_rel);
	if (em == NULL)
		return false;
	typentry = lookup_type_cache(em->em_datatype, TYPECACHE_BTREE_OPFAMILY);
	if (pathkey->pk_opfamily != typentry->btree_opf)
		return false;
	cxt.aggregates = grouped_rel != NULL;
	return mf_comparison_shippable(&cxt, (Node *) em->em_expr,
								   ec->ec_collation, true);
}

/*
 * Append the sort key that puts the NULLs of x first or last: "x IS NULL"
 * sorts false before true, and so does the CASE that dialects without
 * boolean values get.
 */
static void
mf_deparse_nulls_key(MfDeparseCxt *cxt, Expr *expr, bool nulls_first)
{
	StringInfo	buf = cxt->buf;

	if (cxt->dialect->nulls_key_case)
	{
		appendStringInfoString(buf, "CASE WHEN ");
		mf_deparse_node((Node *) expr, cxt);
		appendStringInfoString(buf, nulls_first ?
							   " IS NULL THEN 0 ELSE 1 END, " :
							   " IS NULL THEN 1 ELSE 0 END, ");
		return;
	}
	mf_deparse_node((Node *) expr, cxt);
	appendStringInfoString(buf, nulls_first ? " IS NULL DESC, " : " IS NULL, ");
}

/*
 * Append " ORDER BY ..." for pathkeys that mf_pathkey_shippable accepted.
 * A dialect that sorts NULLs low without a NULLS clause gets a key
 * "x IS NULL" before x wherever ours differ from its own placement; one
 * whose placement is not to be relied on (MF_NULLS_KEY) gets it always.
 */
void
mf_deparse_order_by(StringInfo buf, PlannerInfo *root, RelOptInfo *scanrel,
					RelOptInfo *grouped_rel, List *pathkeys,
					List **params_list)
{
	MfDeparseCxt cxt;
	ListCell   *lc;
	bool		first = true;
	int			nestlevel;

	mf_deparse_cxt_init(&cxt, root, scanrel, buf, params_list);
	cxt.aggregates = grouped_rel != NULL;
	nestlevel = mf_set_transmission_modes();
	foreach(lc, pathkeys)
	{
		PathKey    *pathkey = lfirst(lc);
		EquivalenceMember *em = mf_pathkey_em(root, pathkey, scanrel,
											  grouped_rel);
		bool		desc = mf_pathkey_descending(pathkey);

		if (em == NULL)
			elog(ERROR, "could not find pathkey item to sort");
		appendStringInfoString(buf, first ? " ORDER BY " : ", ");
		first = false;
		if ((cxt.dialect->nulls_order == MF_NULLS_LOW &&
			 pathkey->pk_nulls_first == desc) ||
			cxt.dialect->nulls_order == MF_NULLS_KEY)
			mf_deparse_nulls_key(&cxt, em->em_expr, pathkey->pk_nulls_first);
		mf_deparse_compared((Node *) em->em_expr,
							pathkey->pk_eclass->ec_collation, &cxt);
		appendStringInfoString(buf, desc ? " DESC" : " ASC");
		if (cxt.dialect->nulls_order == MF_NULLS_CLAUSE)
			appendStringInfoString(buf, pathkey->pk_nulls_first ?
								   " NULLS FIRST" : " NULLS LAST");
	}
	mf_reset_transmission_modes(nestlevel);
}

/* ---------------------------------------------------------------------
 * The grouped query
 * ---------------------------------------------------------------------
 */
/* Is tle a GROUP BY key grouped through the dialect's group_trimmed_fmt? */
static bool
mf_grouped_trimmed(TargetEntry *tle, Query *parse, MfDeparseCxt *cxt)
{
	return tle->ressortgroupref != 0 &&
		get_sortgroupref_clause_noerr(tle->ressortgroupref,
									  parse->groupClause) != NULL &&
		mf_group_trimmed_key((Node *) tle->expr, cxt);
}

/* Such a key, through the format. */
static void
mf_deparse_group_trimmed(Node *expr, MfDeparseCxt *cxt)
{
	mf_deparse_text_through(expr, cxt->dialect->group_trimmed_fmt, cxt);
}

/*
 * Append SELECT <tlist> FROM <table> WHERE <the scan's remote conditions>
 * GROUP BY ... HAVING <having>, for the grouped relation over one foreign
 * table.  GROUP BY names positions of the select list, where every
 * grouping expression is.  retrieved_attrs numbers the select list; an
 * aggregate fetched as sum and count takes two remote columns, the second
 * marked MF_SUM_COUNT_ATTNO (scan.c divides them).
 */
void
mf_deparse_grouped_select(StringInfo buf, PlannerInfo *root,
						  RelOptInfo *grouped_rel, List *tlist, List *having,
						  List **retrieved_attrs, List **params_list)
{
	MfRelInfo  *fpinfo = grouped_rel->fdw_private;
	RelOptInfo *scanrel = fpinfo->scanrel;
	Query	   *parse = root->parse;
	MfDeparseCxt cxt;
	ListCell   *lc;
	int			i = 0;
	int			ncols = 0;
	int		   *position = palloc0(sizeof(int) * (list_length(tlist) + 1));

	mf_deparse_cxt_init(&cxt, root, scanrel, buf, params_list);
	cxt.aggregates = true;

	*retrieved_attrs = NIL;
	appendStringInfoString(buf, "SELECT ");
	foreach(lc, tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (i > 0)
			appendStringInfoString(buf, ", ");
		*retrieved_attrs = lappend_int(*retrieved_attrs, ++i);
		position[tle->resno] = ++ncols;
		if (mf_deparse_sum_count((Node *) tle->expr, &cxt))
		{
			*retrieved_attrs = lappend_int(*retrieved_attrs, MF_SUM_COUNT_ATTNO);
			ncols++;
		}
		else if (mf_grouped_trimmed(tle, parse, &cxt))
			mf_deparse_group_trimmed((Node *) tle->expr, &cxt);
		else
			mf_deparse_selected((Node *) tle->expr, &cxt);
	}
	if (i == 0)
		appendStringInfoString(buf, "NULL");

	mf_deparse_from_where(buf, root, scanrel, params_list);

	if (parse->groupClause != NIL)
	{
		bool		first = true;

		appendStringInfoString(buf, " GROUP BY ");
		foreach(lc, parse->groupClause)
		{
			SortGroupClause *grp = lfirst_node(SortGroupClause, lc);
			TargetEntry *tle = get_sortgroupref_tle(grp->tleSortGroupRef, tlist);

			if (!first)
				appendStringInfoString(buf, ", ");
			/* a key selected as text is grouped by itself, not its text */
			if (mf_grouped_trimmed(tle, parse, &cxt) &&
				cxt.dialect->group_by_expressions)
				mf_deparse_group_trimmed((Node *) tle->expr, &cxt);
			else if (cxt.dialect->group_by_expressions ||
					 mf_select_cast(cxt.dialect, exprType((Node *) tle->expr)) != NULL)
				mf_deparse_node((Node *) tle->expr, &cxt);
			else
				appendStringInfo(buf, "%d", position[tle->resno]);
			first = false;
		}
	}

	if (having != NIL)
	{
		bool		first = true;

		foreach(lc, having)
		{
			appendStringInfoString(buf, first ? " HAVING " : " AND ");
			mf_deparse_node(lfirst(lc), &cxt);
			first = false;
		}
	}
}

/*
 * The query's LIMIT and OFFSET when both are constants (or absent):
 * count -1 for no limit.  A parameter (a generic plan's $1) stays with
 * the local Limit node.
 */
bool
mf_limit_values(PlannerInfo *root, int64 *count, int64 *offset)
{
	Node	   *c = root->parse->limitCount;
	Node	   *o = root->parse->limitOffset;

	*count = -1;
	*offset = 0;
	if (c != NULL)
	{
		if (!IsA(c, Const))
			return false;
		if (!((Const *) c)->constisnull)
			*count = DatumGetInt64(((Const *) c)->constvalue);
		if (!((Const *) c)->constisnull && *count < 0)
			return false;		/* the local Limit node raises the error */
	}
	if (o != NULL)
	{
		if (!IsA(o, Const))
			return false;
		if (!((Const *) o)->constisnull)
			*offset = DatumGetInt64(((Const *) o)->constvalue);
		if (*offset < 0)
			return false;
	}
	return true;
}

/*
 * The query's LIMIT and OFFSET, appended to a query that sends them
 * (ordered: it has an ORDER BY), in the dialect's words.  The path was
 * built only where mf_limit_values said yes.
 */
void
mf_deparse_limit_clause(StringInfo buf, PlannerInfo *root,
						const MfDialect *dialect, bool ordered)
{
	int64		count;
	int64		offset;

	if (!mf_limit_values(root, &count, &offset))
		elog(ERROR, "LIMIT is not shipped");
	dialect->deparse_limit_offset(buf, count, offset, ordered);
}
