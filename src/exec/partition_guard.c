/*-------------------------------------------------------------------------
 *
 * partition_guard.c
 *		An UPDATE may not move a row out of a foreign partition.
 *
 * PostgreSQL moves a row whose partition key an UPDATE changes from a
 * local partition to the partition it now belongs to; a row of a foreign
 * partition it hands to the FDW as it is, and checks no constraint of it.
 * Updated in place, such a row would stay on the remote of its old
 * partition with a key of another: a query that prunes partitions by that
 * key would no longer find it.  So when an UPDATE sets a column of a
 * foreign partition's constraint, each new row must still satisfy it
 * (modify.c checks, with PostgreSQL's error for a partition that cannot
 * move a row), and such an UPDATE is not sent whole to the remote, where
 * no one would check, unless its new values are constants that satisfy
 * the constraint.  An UPDATE of other columns is not checked: a remote
 * whose rows already break the constraint is the remote's business, as
 * for any constraint of a foreign table.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "partitioning/partdesc.h"
#include "utils/partcache.h"
#include "utils/rel.h"

#include "exec/exec.h"

typedef struct MfKeySubst
{
	List	   *attrs;			/* attribute numbers set */
	List	   *values;			/* their new values, Consts or NULL */
	bool		missing;		/* a Var of the constraint has no Const */
} MfKeySubst;

static Node *
mf_key_subst(Node *node, MfKeySubst *ctx)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varlevelsup == 0)
	{
		ListCell   *a,
				   *v;

		forboth(a, ctx->attrs, v, ctx->values)
		{
			if (lfirst_int(a) == ((Var *) node)->varattno && lfirst(v) != NULL)
				return copyObject(lfirst(v));
		}
		ctx->missing = true;
		return node;
	}
	return expression_tree_mutator(node, mf_key_subst, ctx);
}

/*
 * Does an UPDATE of rel that sets target_attrs (attribute numbers) to
 * new_values (TargetEntry list in the same order, or NIL: unknown) set a
 * column of rel's partition constraint, such that a row may have to leave
 * the partition?  Constants that satisfy the constraint keep every row in
 * it (SET k = 'a' on the partition of 'a').
 */
bool
mf_update_sets_partition_key(Relation rel, List *target_attrs, List *new_values)
{
	List	   *qual;
	Bitmapset  *used = NULL;
	MfKeySubst	ctx = {NIL, NIL, false};
	bool		sets_key = false;
	ListCell   *lc;
	int			i = 0;
	Node	   *e;

	if (!rel->rd_rel->relispartition || target_attrs == NIL)
		return false;
	qual = RelationGetPartitionQual(rel);
	pull_varattnos((Node *) qual, 1, &used);
	foreach(lc, target_attrs)
	{
		int			attno = lfirst_int(lc);
		Node	   *value = NULL;

		if (!bms_is_member(attno - FirstLowInvalidHeapAttributeNumber, used))
		{
			i++;
			continue;
		}
		sets_key = true;
		if (new_values != NIL)
		{
			value = eval_const_expressions(NULL, (Node *)
										   lfirst_node(TargetEntry,
													   list_nth_cell(new_values, i))->expr);
			if (!IsA(value, Const))
				value = NULL;
		}
		ctx.attrs = lappend_int(ctx.attrs, attno);
		ctx.values = lappend(ctx.values, value);
		i++;
	}
	if (!sets_key || new_values == NIL)
		return sets_key;
	e = mf_key_subst((Node *) make_ands_explicit(qual), &ctx);
	if (ctx.missing)
		return true;
	e = eval_const_expressions(NULL, e);
	return !(IsA(e, Const) && !((Const *) e)->constisnull &&
			 DatumGetBool(((Const *) e)->constvalue));
}
