/*-------------------------------------------------------------------------
 *
 * whole_query.c
 *		A query sent whole: every relation of it, its subqueries' and
 *		derived tables' included, a foreign table of one server read as
 *		one user, and every part of it one the remote computes.
 *
 * Such a query is one remote statement, which the remote plans with its
 * own statistics and indexes and runs at its own speed (its parallel
 * workers too: the statement is read without a cursor); nothing of it is
 * joined, grouped or checked here.  So once grouping planning reaches the
 * final relation of the top query level (create_upper_paths_hook,
 * UPPERREL_FINAL), the query the planner made of it is written whole
 * (deparse/deparse_query.c) and, when every part of it can go, a foreign
 * path of it replaces every other path of the final relation: the
 * remote's plan of the whole is taken to be better than any plan of ours
 * that moves rows between the two.  multi_fdw.whole_queries (on) turns it
 * off; a table or server with pushdown 'false' is never in one.
 *
 * The scan's rows are the final target list's entries, junk ones too, in
 * order (fdw_scan_tlist), so the ForeignScan is the plan.  Its server and
 * user are in its fdw_private (MF_SCAN_SERVER, MF_SCAN_USER), since its
 * user may be a view owner's that no relation of the top level is read
 * as.  The user is the one every relation is read as: the
 * current user, or one view owner for every relation.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_aggregate.h"
#include "catalog/pg_class.h"
#include "foreign/fdwapi.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/planner.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

#include "plan/plan.h"
#include "plan/scan_int.h"

static bool mf_whole_queries = true;

/* ours, but for GetForeignPlan: the final relation's plan is the query's */
static FdwRoutine *mf_whole_routine = NULL;
static create_upper_paths_hook_type prev_upper_paths_hook = NULL;
static planner_hook_type prev_planner_hook = NULL;

/* the query being planned went whole (its final relation's path) */
static bool mf_whole_made = false;

/* The path's fdw_private, by position */
enum MfWholePrivate
{
	MF_WHOLE_TAG,				/* String "whole query" */
	MF_WHOLE_SQL,				/* String */
	MF_WHOLE_PARAMS,			/* List of expressions sent */
	MF_WHOLE_SERVER,			/* Integer: the server's Oid */
	MF_WHOLE_USER,				/* Integer: the user's Oid, 0: current */
	MF_WHOLE_RELATIONS,			/* String, for EXPLAIN's Relations */
	MF_WHOLE_NPRIVATE
};

#define MF_WHOLE_TAG_TEXT "whole query"

static ForeignScan *mf_whole_query_plan(PlannerInfo *root, RelOptInfo *rel,
										Oid foreigntableid, ForeignPath *path,
										List *tlist, List *scan_clauses,
										Plan *outer_plan);

/* What every foreign table of the query must share. */
typedef struct MfWholeCheck
{
	bool		first;
	Oid			serverid;
	Oid			umid;
	Oid			userid;			/* a view owner's, or 0 */
	bool		has_current;	/* a table read as the current user */
	StringInfoData names;		/* "public.t1 a, public.t2" */
	List	   *named;			/* the relations in names */
} MfWholeCheck;

/*
 * May this foreign table be in the whole query?  One of ours (the
 * planner's state of it is ours), under pushdown, of a dialect that sends
 * whole queries, of the same server, user mapping and user as the others.
 */
static bool
mf_whole_rel_ok(PlannerInfo *root, RelOptInfo *rel, void *arg)
{
	MfWholeCheck *check = arg;
	MfRelInfo  *fpinfo = rel->fdw_private;
	RangeTblEntry *rte;
	char	   *name;

	if (rel->fdwroutine == NULL ||
		rel->fdwroutine->GetForeignRelSize != mfGetForeignRelSize ||
		fpinfo == NULL || fpinfo->user == NULL ||
		!fpinfo->opts.pushdown || !fpinfo->opts.dialect->whole_queries)
		return false;
	if (check->first)
	{
		check->first = false;
		check->serverid = fpinfo->opts.serverid;
		check->umid = fpinfo->user->umid;
	}
	else if (check->serverid != fpinfo->opts.serverid ||
			 check->umid != fpinfo->user->umid)
		return false;

	/*
	 * One user: the current user (0), or one view owner.  A table read as
	 * the current user beside one read as a view owner who is the current
	 * user is read as that owner, by a plan made again for another current
	 * user (dependsOnRole), as the planner's own joins of foreign tables.
	 */
	if (OidIsValid(rel->userid))
	{
		if (OidIsValid(check->userid) && check->userid != rel->userid)
			return false;
		check->userid = rel->userid;
	}
	else
		check->has_current = true;
	if (check->has_current && OidIsValid(check->userid) &&
		check->userid != GetUserId())
		return false;

	/* for EXPLAIN, as the query names it */
	if (list_member_ptr(check->named, rel))
		return true;
	check->named = lappend(check->named, rel);
	rte = planner_rt_fetch(rel->relid, root);
	name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(rte->relid)),
									  get_rel_name(rte->relid));
	appendStringInfo(&check->names, "%s%s", check->names.len > 0 ? ", " : "",
					 name);
	if (rte->eref != NULL && strcmp(rte->eref->aliasname,
									get_rel_name(rte->relid)) != 0)
		appendStringInfo(&check->names, " %s",
						 quote_identifier(rte->eref->aliasname));
	return true;
}

/*
 * Does a query, or any query inside it, read a function in FROM?  The
 * planner writes a SQL function's body in its place (in a derived table's
 * planned copy only), whose relations a derived table's query lacks.
 */
static bool
mf_reads_function(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, RangeTblEntry))
		return ((RangeTblEntry *) node)->rtekind == RTE_FUNCTION;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, mf_reads_function, context,
								 QTW_EXAMINE_RTES_BEFORE);
	return expression_tree_walker(node, mf_reads_function, context);
}

/*
 * The derived tables of the top level: their relations come into the
 * plan's range table, which the executor checks the privileges of, a
 * cached plan locks and depends on, when their SubqueryScans are met;
 * there are none now.  As unplanned subqueries' they are taken from their
 * queries instead (set_plan_references, flatten_unplanned_rtes), which
 * must then hold every relation of their planned forms: no function in
 * FROM, whose body only the planned form has.  False: a derived table
 * reads one.
 */
static bool
mf_derived_rels_checked(PlannerInfo *root, bool unplan)
{
	for (int rti = 1; rti < root->simple_rel_array_size; rti++)
	{
		RelOptInfo *rel = root->simple_rel_array[rti];
		RangeTblEntry *rte;

		if (rel == NULL || rel->rtekind != RTE_SUBQUERY)
			continue;
		rte = root->simple_rte_array[rti];
		if (!unplan && (rte->subquery == NULL ||
						mf_reads_function((Node *) rte->subquery, NULL)))
			return false;
		if (unplan)
			rel->subroot = NULL;
	}
	return true;
}

/* Does a value sent (fdw_exprs), or a part of one, equal a target? */
static bool
mf_meets_target(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (list_member((List *) context, node))
		return true;
	return expression_tree_walker(node, mf_meets_target, context);
}

/*
 * A value sent that is, or holds, an entry of the final target list would
 * be fixed by the plan's set-up (set_foreignscan_references) into a
 * reference to the scan's row, and computed where there is none yet.
 */
static bool
mf_params_meet_targets(List *params, List *targets)
{
	return mf_meets_target((Node *) params, targets);
}

static void
mf_whole_query_paths(PlannerInfo *root, UpperRelationKind stage,
					 RelOptInfo *input_rel, RelOptInfo *output_rel,
					 void *extra)
{
	MfWholeCheck check = {.first = true};
	StringInfoData sql;
	List	   *params = NIL;
	RelOptInfo *first_rel = NULL;
	MfRelInfo  *fpinfo;
	Node	   *priv[MF_WHOLE_NPRIVATE];
	List	   *fdw_private = NIL;
	Path	   *cheapest;
	ForeignPath *path;
	Query	   *parse = root->parse;

	if (prev_upper_paths_hook)
		prev_upper_paths_hook(root, stage, input_rel, output_rel, extra);
	if (!mf_whole_queries || stage != UPPERREL_FINAL ||
		root->parent_root != NULL || parse->commandType != CMD_SELECT ||
		parse->hasModifyingCTE || parse->rowMarks != NIL ||
		output_rel->pathlist == NIL)
		return;

	if (!mf_derived_rels_checked(root, false))
		return;
	initStringInfo(&check.names);
	initStringInfo(&sql);
	if (!mf_deparse_whole_query(&sql, root, mf_whole_rel_ok, &check,
								&first_rel, &params) ||
		mf_params_meet_targets(params, root->upper_targets[UPPERREL_FINAL]->exprs))
		return;
	fpinfo = first_rel->fdw_private;

	priv[MF_WHOLE_TAG] = (Node *) makeString(MF_WHOLE_TAG_TEXT);
	priv[MF_WHOLE_SQL] = (Node *) makeString(sql.data);
	priv[MF_WHOLE_PARAMS] = (Node *) params;
	priv[MF_WHOLE_SERVER] = (Node *) makeInteger((int) check.serverid);
	priv[MF_WHOLE_USER] = (Node *) makeInteger((int) check.userid);
	priv[MF_WHOLE_RELATIONS] = (Node *) makeString(check.names.data);
	for (int i = 0; i < MF_WHOLE_NPRIVATE; i++)
		fdw_private = lappend(fdw_private, priv[i]);

	/*
	 * The remote's plan of the whole replaces ours: its rows are the final
	 * ones, one exchange away.  The local estimate of their number stays.
	 */
	cheapest = linitial(output_rel->pathlist);
	path = mf_create_foreign_upper_path(root, output_rel,
										root->upper_targets[UPPERREL_FINAL],
										cheapest->rows,
										fpinfo->opts.fdw_startup_cost,
										fpinfo->opts.fdw_startup_cost +
										cheapest->rows * fpinfo->opts.fdw_tuple_cost,
										root->sort_pathkeys, fdw_private);
	output_rel->pathlist = NIL;
	output_rel->partial_pathlist = NIL;
	add_path(output_rel, (Path *) path);
	mf_whole_made = true;

	/* the scan is the plan: planned here (mf_whole_query_plan), of ours */
	if (mf_whole_routine == NULL)
	{
		mf_whole_routine = MemoryContextAlloc(TopMemoryContext,
											  sizeof(FdwRoutine));
		memcpy(mf_whole_routine, first_rel->fdwroutine, sizeof(FdwRoutine));
		mf_whole_routine->GetForeignPlan = mf_whole_query_plan;
	}
	output_rel->fdwroutine = mf_whole_routine;
	output_rel->serverid = check.serverid;
	output_rel->userid = check.userid;

	/*
	 * Initplans run remotely inside the statement, not here; unless the
	 * final target list names their values (a select list's subquery),
	 * which it does only for the scan's tuple, where they stay unrun.
	 */
	if (!mf_contains_exec_param((Node *) root->upper_targets[UPPERREL_FINAL]->exprs))
		root->init_plans = NIL;
	if (check.has_current && OidIsValid(check.userid))
		root->glob->dependsOnRole = true;
	mf_derived_rels_checked(root, true);
}

/*
 * A window function the whole query computes remotely is in the scan's
 * target list only to give its output column a type; nothing evaluates
 * it here.  EXPLAIN VERBOSE, though, prints it, and from PostgreSQL 18 on
 * prints a window function by the name of its WindowAgg node's window,
 * found among the plan's ancestors: a ForeignScan has none, and EXPLAIN
 * failed ("could not find window clause for winref").  So the plan names
 * each one as a call of the same function on the same arguments, of the
 * same type and collation (an aggregate's as an aggregate, with its * and
 * FILTER), on every version alike: EXPLAIN shows it so, and its OVER
 * clause in the Remote SQL.  The scan is the top of the
 * plan: no node above it looks for the window function itself.
 */
static Node *
mf_window_stand_in(Node *node, void *context)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, WindowFunc))
	{
		WindowFunc *wf = (WindowFunc *) node;
		List	   *args = (List *) mf_window_stand_in((Node *) wf->args,
													   context);
		Aggref	   *agg;
		ListCell   *lc;

		if (!wf->winagg)
			return (Node *) makeFuncExpr(wf->winfnoid, wf->wintype, args,
										 wf->wincollid, wf->inputcollid,
										 COERCE_EXPLICIT_CALL);
		/* an aggregate as one: count(*), its FILTER */
		agg = makeNode(Aggref);
		agg->aggfnoid = wf->winfnoid;
		agg->aggtype = wf->wintype;
		agg->aggcollid = wf->wincollid;
		agg->inputcollid = wf->inputcollid;
		foreach(lc, args)
		{
			agg->aggargtypes = lappend_oid(agg->aggargtypes,
										   exprType(lfirst(lc)));
			agg->args = lappend(agg->args,
								makeTargetEntry(lfirst(lc),
												list_length(agg->args) + 1,
												NULL, false));
		}
		agg->aggfilter = (Expr *) mf_window_stand_in((Node *) wf->aggfilter,
													 context);
		agg->aggstar = wf->winstar;
		agg->aggkind = AGGKIND_NORMAL;
		agg->aggsplit = AGGSPLIT_SIMPLE;
		agg->aggno = agg->aggtransno = -1;
		agg->location = wf->location;
		return (Node *) agg;
	}
	return expression_tree_mutator(node, mf_window_stand_in, context);
}

/*
 * The ForeignScan of a whole query (GetForeignPlan of the final
 * relation): its rows are the final target list.
 */
static ForeignScan *
mf_whole_query_plan(PlannerInfo *root, RelOptInfo *rel, Oid foreigntableid,
					ForeignPath *path, List *tlist, List *scan_clauses,
					Plan *outer_plan)
{
	List	   *priv = path->fdw_private;
	MfOptions	opts;
	List	   *scan_private;
	List	   *retrieved = NIL;
	List	   *params = list_nth(priv, MF_WHOLE_PARAMS);
	ListCell   *lc;

	if (list_length(priv) != MF_WHOLE_NPRIVATE ||
		!IsA(linitial(priv), String) ||
		strcmp(strVal(linitial(priv)), MF_WHOLE_TAG_TEXT) != 0)
		elog(ERROR, "a whole query's plan was asked for another path");

	mf_get_options((Oid) intVal(list_nth(priv, MF_WHOLE_SERVER)), InvalidOid,
				   &opts);
	for (int i = 1; i <= list_length(tlist); i++)
		retrieved = lappend_int(retrieved, i);
	/*
	 * Read without a cursor (mf_scan_private's grouped read), under which
	 * the remote never runs a query in parallel: TPC-H's Q15, expected to return 10,000 rows at SF 1,
	 * returns one, and took 1.5 times the remote's time through one.  A
	 * run that may stop before the end (a cursor's FETCH, PL/pgSQL's
	 * SELECT INTO) reads it through one after all (exec/run_extent.c),
	 * which is decided when it runs, as PostgreSQL's own parallel workers
	 * are: the query's first planning in a session may have no planner_hook
	 * of ours to tell a cursor's query apart (the library loads during it).
	 */
	scan_private = mf_scan_private(strVal(list_nth(priv, MF_WHOLE_SQL)),
								   retrieved, &opts, path->path.rows,
								   list_make1(list_nth(priv, MF_WHOLE_RELATIONS)),
								   true,
								   NULL, false);
	lfirst(list_nth_cell(scan_private, MF_SCAN_SERVER)) =
		list_nth(priv, MF_WHOLE_SERVER);
	lfirst(list_nth_cell(scan_private, MF_SCAN_USER)) =
		list_nth(priv, MF_WHOLE_USER);

	/* the values sent, computed when the scan begins */
	foreach(lc, params)
		lfirst(lc) = expression_planner(lfirst(lc));
	tlist = (List *) mf_window_stand_in((Node *) tlist, NULL);
	return make_foreignscan(tlist, NIL, 0, params, scan_private,
							copyObject(tlist), NIL, NULL);
}

/* ---------------------------------------------------------------------
 * A query expected to go whole is planned without remote estimates
 * ---------------------------------------------------------------------
 */

/* What every relation of a query expected to go whole shares. */
typedef struct MfExpected
{
	Oid			serverid;
	bool		estimates;		/* one of them has use_remote_estimate */
} MfExpected;

/*
 * Does a relation of the query, at any depth, keep it from going whole by
 * what it is: not a foreign table of ours of one server, under pushdown, of
 * a dialect that sends whole queries; or a function, VALUES, a CTE?
 */
static bool
mf_keeps_apart(Node *node, void *context)
{
	MfExpected *e = context;

	if (node == NULL)
		return false;
	if (IsA(node, RangeTblEntry))
	{
		RangeTblEntry *rte = (RangeTblEntry *) node;
		MfOptions	opts;
		Oid			serverid;
		FdwRoutine *routine;

		if (rte->rtekind == RTE_SUBQUERY || rte->rtekind == RTE_JOIN ||
			rte->rtekind == RTE_RESULT)
			return false;
#if PG_VERSION_NUM >= 180000
		/* a grouped level's entry for its grouping expressions */
		if (rte->rtekind == RTE_GROUP)
			return false;
#endif
		if (rte->rtekind != RTE_RELATION ||
			rte->relkind != RELKIND_FOREIGN_TABLE)
			return true;
		serverid = GetForeignServerIdByRelId(rte->relid);
		routine = GetFdwRoutineByServerId(serverid);
		if (routine->GetForeignRelSize != mfGetForeignRelSize ||
			(OidIsValid(e->serverid) && e->serverid != serverid))
			return true;
		e->serverid = serverid;
		mf_get_table_options(rte->relid, &opts);
		if (!opts.pushdown || !opts.dialect->whole_queries)
			return true;
		e->estimates |= opts.use_remote_estimate;
		return false;
	}
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, mf_keeps_apart, context,
								 QTW_EXAMINE_RTES_BEFORE);
	return expression_tree_walker(node, mf_keeps_apart, context);
}

static PlannedStmt *
mf_plan(Query *parse, const char *query_string, int cursorOptions,
		ParamListInfo boundParams)
{
	if (prev_planner_hook)
		return prev_planner_hook(parse, query_string, cursorOptions,
								 boundParams);
	return standard_planner(parse, query_string, cursorOptions, boundParams);
}

/*
 * Planning with use_remote_estimate asks the remote to estimate each scan,
 * join and aggregate the planner considers, a statement each; a query that
 * goes whole replaces that plan with the remote's own, and the estimates
 * were asked for nothing (TPC-H's Q5 spent more on them than on running).
 * A query whose every relation is a foreign table of one server that sends
 * whole queries, one of them with use_remote_estimate, is planned without
 * them first; should it not go whole after all (a part the remote cannot
 * compute, two users), it is planned again, from a copy, with them.
 */
static PlannedStmt *
mf_whole_planner(Query *parse, const char *query_string, int cursorOptions,
				 ParamListInfo boundParams)
{
	bool		save_deferred = mf_estimates_deferred;
	bool		save_made = mf_whole_made;
	MfExpected	e = {InvalidOid, false};
	Query	   *volatile copy = NULL;
	PlannedStmt *result;

	if (mf_whole_queries && parse->commandType == CMD_SELECT &&
		!parse->hasModifyingCTE && parse->rowMarks == NIL &&
		parse->utilityStmt == NULL &&
		!mf_keeps_apart((Node *) parse, &e) && e.estimates)
		copy = copyObject(parse);
	PG_TRY();
	{
		mf_estimates_deferred = copy != NULL;
		mf_whole_made = false;
		result = mf_plan(parse, query_string, cursorOptions, boundParams);
		if (copy != NULL && !mf_whole_made)
		{
			mf_estimates_deferred = false;
			result = mf_plan(copy, query_string, cursorOptions, boundParams);
		}
	}
	PG_FINALLY();
	{
		mf_estimates_deferred = save_deferred;
		mf_whole_made = save_made;
	}
	PG_END_TRY();
	return result;
}

void
mf_whole_query_init(void)
{
	DefineCustomBoolVariable("multi_fdw.whole_queries",
							 "Sends a query whose every relation is on one server, and every part of which the remote can compute, as one remote statement.",
							 NULL, &mf_whole_queries, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	if (create_upper_paths_hook != mf_whole_query_paths)
	{
		prev_upper_paths_hook = create_upper_paths_hook;
		create_upper_paths_hook = mf_whole_query_paths;
	}
	if (planner_hook != mf_whole_planner)
	{
		prev_planner_hook = planner_hook;
		planner_hook = mf_whole_planner;
	}
}
