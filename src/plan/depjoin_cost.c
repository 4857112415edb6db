/*-------------------------------------------------------------------------
 *
 * depjoin_cost.c
 *		What a dependent join costs (depjoin.c plans it): the keys X is
 *		expected to have, the rows of F they bring, the statements that
 *		ask for them and what the remote does for each.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "nodes/nodeFuncs.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "plan/plan.h"
#include "plan/depjoin_int.h"

/* 0: the table's own parameters leave no room for a key */
int
mf_depjoin_keys_per_statement(const MfDialect *dialect,
							  const MfTransport *transport, int ncols, int nparams)
{
	int			max_params = mf_max_params(dialect, transport);
	int			keys = transport != NULL && transport->streams_any_result ?
		MF_DEPJOIN_LIST_STREAMED : MF_DEPJOIN_LIST;

	if (dialect->max_in_list > 0)
		keys = Min(keys, dialect->max_in_list);
	if (max_params > 0)
		keys = Min(keys, (max_params - nparams) / ncols);
	return Max(0, keys);
}

/*
 * Do the columns attnos of table rti (a base rel of F) hold every column
 * marked key 'true' (the remote's primary key, as IMPORT FOREIGN SCHEMA
 * marks it)?  The remote then finds each value by its index, not by
 * reading its table.
 */
static bool
mf_covers_remote_key(PlannerInfo *root, Index rti, Bitmapset *attnos)
{
	RelOptInfo *rel = find_base_rel(root, rti);
	Oid			relid = planner_rt_fetch(rti, root)->relid;
	bool		any = false;

	for (AttrNumber a = 1; a <= rel->max_attr; a++)
	{
		if (!mf_column_flag(relid, a, "key"))
			continue;
		any = true;
		if (!bms_is_member(a, attnos))
			return false;
	}
	return any;
}

/* What finding n values by the index of table rel costs the remote. */
static Cost
mf_descents_cost(RelOptInfo *rel, double n)
{
	return n * (cpu_index_tuple_cost + 2.0 * cpu_operator_cost *
				ceil(log2(Max(rel->tuples, 1.0) + 1.0)));
}

/*
 * The columns of table rti that F's join conditions (a join F's, at every
 * level) equal to a column of another of its tables.
 */
static Bitmapset *
mf_joined_columns(RelOptInfo *rel, int rti, Bitmapset *cols)
{
	MfRelInfo  *fpinfo = rel->fdw_private;
	ListCell   *lc;

	if (IS_SIMPLE_REL(rel))
		return cols;
	foreach(lc, fpinfo->join_conds)
	{
		OpExpr	   *op = (OpExpr *) lfirst_node(RestrictInfo, lc)->clause;
		Node	   *l;
		Node	   *r;

		if (!IsA(op, OpExpr) || list_length(op->args) != 2 ||
			!op_mergejoinable(op->opno, exprType(linitial(op->args))))
			continue;
		l = mf_strip_relabel(linitial(op->args));
		r = mf_strip_relabel(lsecond(op->args));
		if (!IsA(l, Var) || !IsA(r, Var) ||
			((Var *) l)->varno == ((Var *) r)->varno)
			continue;
		if ((int) ((Var *) l)->varno == rti)
			cols = bms_add_member(cols, ((Var *) l)->varattno);
		if ((int) ((Var *) r)->varno == rti)
			cols = bms_add_member(cols, ((Var *) r)->varattno);
	}
	cols = mf_joined_columns(fpinfo->join_outer, rti, cols);
	return mf_joined_columns(fpinfo->join_inner, rti, cols);
}

/*
 * The distinct values of F's key columns in all of F (at least one): their
 * statistics, not estimate_num_groups, which scales them down to F's rows after every
 * condition, and a selective condition checked here (a function of ours)
 * would have made each key seem to bring all of F.
 */
double
mf_depjoin_table_distinct(PlannerInfo *root, RelOptInfo *frel, List *fvars)
{
	double		ndistinct = 1.0;
	ListCell   *lc;

	foreach(lc, fvars)
	{
		VariableStatData vardata;
		bool		isdefault;

		examine_variable(root, (Node *) lfirst(lc), 0, &vardata);
		ndistinct *= get_variable_numdistinct(&vardata, &isdefault);
		ReleaseVariableStats(vardata);
	}
	/* a join has no rows of its own: those it sends, its conditions applied */
	return Max(1.0, Min(ndistinct,
						Max(IS_SIMPLE_REL(frel) ? frel->tuples :
							((MfRelInfo *) frel->fdw_private)->retrieved, 1.0)));
}

/*
 * The next of relids after r that is a table (16+ counts a join's outer
 * joins among its relids, which are none), or -1.
 */
int
mf_next_table(PlannerInfo *root, Relids relids, int r)
{
	while ((r = bms_next_member(relids, r)) >= 0)
	{
		if (r < root->simple_rel_array_size && root->simple_rel_array[r] != NULL)
			return r;
	}
	return -1;
}

/*
 * F's dependent_join_max_keys, 0 for none (the GUC's, at run time): of a
 * join, its tables' least, negated where one of them has none (the least
 * of it and the GUC's).
 */
int
mf_depjoin_f_max_keys(PlannerInfo *root, RelOptInfo *frel)
{
	int			max_keys = 0;
	bool		unset = false;

	if (IS_SIMPLE_REL(frel))
		return ((MfRelInfo *) frel->fdw_private)->opts.dependent_join_max_keys;
	for (int r = mf_next_table(root, frel->relids, -1); r >= 0;
		 r = mf_next_table(root, frel->relids, r))
	{
		int			m = ((MfRelInfo *) find_base_rel(root, r)->fdw_private)->opts.dependent_join_max_keys;

		if (m <= 0)
			unset = true;
		else if (max_keys == 0 || m < max_keys)
			max_keys = m;
	}
	return unset ? -max_keys : max_keys;
}

/*
 * What one statement of batch_keys keys costs the remote, which finds
 * them by reading F's table once, or where they are its primary key by a
 * descent of its index each.  Of a join F, the key's table so; each of the
 * others read once, or, where F's join conditions give its primary key,
 * one descent per row the keys bring (rows): the remote filters the key's
 * table first and joins its few rows, as a chain of dependent joins would,
 * in one statement.
 */
static Cost
mf_depjoin_f_remote_cost(PlannerInfo *root, RelOptInfo *frel,
						 MfDepJoinKey *key, double batch_keys, double rows)
{
	int			key_rti = (int) ((Var *) linitial(key->fvars))->varno;
	Bitmapset  *key_cols = NULL;
	Cost		cost = 0;
	int			r = -1;
	ListCell   *lc;

	foreach(lc, key->fvars)
		key_cols = bms_add_member(key_cols, ((Var *) lfirst(lc))->varattno);
	while ((r = mf_next_table(root, frel->relids, r)) >= 0)
	{
		RelOptInfo *rel = find_base_rel(root, r);
		Cost		table = ((MfRelInfo *) rel->fdw_private)->remote_cost;

		if (r == key_rti && mf_covers_remote_key(root, r, key_cols))
			table = Min(table, mf_descents_cost(rel, batch_keys));
		else if (r != key_rti &&
				 mf_covers_remote_key(root, r, mf_joined_columns(frel, r, NULL)))
			table = Min(table, mf_descents_cost(rel, rows));
		cost += table;
	}
	return cost;
}

/*
 * The distinct keys X is expected to have, and the rows of F they meet:
 * their share of the rows the remote sends (F's remote conditions
 * applied), before F's conditions checked here.
 */
void
mf_depjoin_cost(PlannerInfo *root, CustomPath *cpath, RelOptInfo *frel,
				Path *xpath, MfDepJoinKey *key, double joinrows)
{
	MfRelInfo  *fpinfo = frel->fdw_private;
	double		nkeys;
	double		fdistinct;
	double		frows;
	double		fetched;
	double		stmts;
	double		xbytes;
	double		batches;
	double		batch_keys;
	Cost		remote;

	nkeys = estimate_num_groups(root, key->xvars, xpath->rows, NULL, NULL);
	fdistinct = mf_depjoin_table_distinct(root, frel, key->fvars);
	/*
	 * An X bigger than the hash memory goes in batches, each asking for its
	 * own keys: a key may be asked for, and its rows of F read, once per
	 * batch it is in.
	 */
	xbytes = xpath->rows * (MAXALIGN(xpath->pathtarget->width) +
							MAXALIGN(SizeofMinimalTupleHeader) + 32);
	batches = Max(1.0, ceil(xbytes / (double) get_hash_memory_limit()));
	batch_keys = Min(nkeys, ceil(xpath->rows / batches));
	fetched = clamp_row_est(fpinfo->retrieved *
							Min(1.0, batch_keys / fdistinct) * batches);
	/* and those F's conditions checked here keep */
	frows = clamp_row_est(fetched * fpinfo->local_conds_sel);
	stmts = batches * (fpinfo->opts.dialect->supports_arrays ? 1 :
					   ceil(batch_keys /
							Max(1, mf_depjoin_keys_per_statement(fpinfo->opts.dialect,
																 fpinfo->opts.transport,
																 key->ncols, 0))));

	/*
	 * The remote is assumed to find the keys no slower than by reading its
	 * table once per statement, or, where they are its primary key, by a
	 * descent of its index per key; the rows found cross the network.
	 */
	remote = stmts * mf_depjoin_f_remote_cost(root, frel, key,
											  batch_keys * batches / stmts,
											  fetched / stmts);
	remote += stmts * fpinfo->opts.fdw_startup_cost;
	cpath->path.rows = joinrows;
	cpath->path.startup_cost = xpath->total_cost + remote +
		cpu_tuple_cost * xpath->rows;
	cpath->path.startup_cost += fpinfo->local_conds_cost.startup;
	cpath->path.total_cost = cpath->path.startup_cost +
		(fpinfo->opts.fdw_tuple_cost + cpu_tuple_cost +
		 fpinfo->local_conds_cost.per_tuple) * fetched +
		fpinfo->opts.fdw_startup_cost * ceil(fetched / fpinfo->opts.fetch_size) / 10.0 +
		cpu_operator_cost * (frows + xpath->rows) +
		cpu_tuple_cost * joinrows;
}

