/*-------------------------------------------------------------------------
 *
 * jit_choice.c
 *		Whether the executor compiles a plan's expressions (JIT), judged on
 *		the gateway's own share of the plan's cost.
 *
 * PostgreSQL compiles a plan's expressions when the plan's total cost is
 * over jit_above_cost, optimizes and inlines them over two higher
 * thresholds (standard_planner): the total stands for the work of this
 * backend, which compiling would speed up.  Under a foreign scan most of
 * the cost is the remote's work: a statement there, or one per run of a
 * correlated subquery, each costed as a remote statement.  A plan that
 * reads a few hundred rows could then cost millions, and its compilation,
 * with inlining and optimization, took 174 ms of a query that ran in 350
 * (TPC-H's Q20 across two servers), to speed up nothing the gateway does.
 *
 * So before the executor starts (ExecutorStart_hook: the planner's hook
 * is not there for a session's first query, planned while the library
 * loads), the cost of the work of multi_fdw's own nodes (foreign scans,
 * the dependent join: their cost less a tuple's cost per row they return,
 * with what the subqueries in their conditions cost) is taken off the
 * total, and each threshold is asked again of what is left.  A flag the
 * planner did not set is never set here; a plan without such a node keeps
 * its flags.  The work of a scan rescanned by a nested loop, or of a
 * subquery run by a local node, is counted once: the share taken off is
 * at most the remote's, so compilation is never dropped where the local
 * work alone would have asked for it.
 *
 * The same hook, once the plan's nodes are made, links each nested loop
 * whose outer side is a scan of ours to its inner side's scans, which are
 * then read ahead for each batch of the outer rows (read_ahead.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "jit/jit.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"

#include "exec/exec.h"
#include "plan/depjoin_int.h"

static ExecutorStart_hook_type prev_executor_start = NULL;

/* multi_fdw's own node: a foreign scan of its servers, a dependent join */
static bool
mf_own_node(Plan *plan)
{
	if (IsA(plan, ForeignScan))
	{
		Oid			serverid = ((ForeignScan *) plan)->fs_server;

		return OidIsValid(serverid) &&
			GetFdwRoutineByServerId(serverid)->GetForeignRelSize ==
			mfGetForeignRelSize;
	}
	if (IsA(plan, CustomScan))
	{
		const CustomScanMethods *m = ((CustomScan *) plan)->methods;

		return m != NULL && m->CustomName != NULL &&
			strcmp(m->CustomName, MF_DEPJOIN_SCAN_NAME) == 0;
	}
	return false;
}

/* the walk over a plan: its statement, and each subquery's share once */
typedef struct MfShareWalk
{
	PlannedStmt *stmt;
	double	   *subplan_share;	/* by plan_id - 1; < 0: not yet known */
} MfShareWalk;

static double mf_remote_share(Plan *plan, MfShareWalk *w);

/*
 * The remote share of a subquery, computed once however many nodes run it
 * (PostgreSQL copies one into the conditions of every partition).
 */
static double
mf_subplan_share(int plan_id, MfShareWalk *w)
{
	Plan	   *sub;

	if (plan_id < 1 || plan_id > list_length(w->stmt->subplans))
		return 0;
	if (w->subplan_share[plan_id - 1] >= 0)
		return w->subplan_share[plan_id - 1];
	w->subplan_share[plan_id - 1] = 0;	/* a subquery never runs itself */
	sub = list_nth(w->stmt->subplans, plan_id - 1);
	if (sub != NULL)
		w->subplan_share[plan_id - 1] = mf_remote_share(sub, w);
	return w->subplan_share[plan_id - 1];
}

typedef struct MfExprShare
{
	MfShareWalk *w;
	double		share;			/* the remote share of its subqueries */
	bool		local;			/* a subquery mostly the gateway's work */
} MfExprShare;

static bool
mf_expr_share(Node *node, MfExprShare *e)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubPlan))
	{
		SubPlan    *sp = (SubPlan *) node;
		double		share = mf_subplan_share(sp->plan_id, e->w);
		Plan	   *sub = sp->plan_id >= 1 &&
			sp->plan_id <= list_length(e->w->stmt->subplans) ?
			list_nth(e->w->stmt->subplans, sp->plan_id - 1) : NULL;

		e->share += share;
		if (sub != NULL && share < sub->total_cost * 0.9)
			e->local = true;
	}
	return expression_tree_walker(node, mf_expr_share, (void *) e);
}

/* the subqueries of a node's own expressions */
static void
mf_node_exprs(Plan *plan, MfExprShare *e)
{
	(void) mf_expr_share((Node *) plan->targetlist, e);
	(void) mf_expr_share((Node *) plan->qual, e);
	if (IsA(plan, NestLoop) || IsA(plan, MergeJoin) || IsA(plan, HashJoin))
		(void) mf_expr_share((Node *) ((Join *) plan)->joinqual, e);
}

/* The sum of fn over the children a node runs, whatever its kind. */
static double
mf_over_children(Plan *plan, double (*fn) (Plan *, MfShareWalk *),
				 MfShareWalk *w)
{
	double		sum = 0;
	List	   *more = NIL;
	ListCell   *lc;

	if (plan->lefttree != NULL)
		sum += fn(plan->lefttree, w);
	if (plan->righttree != NULL)
		sum += fn(plan->righttree, w);
	if (IsA(plan, Append))
		more = ((Append *) plan)->appendplans;
	else if (IsA(plan, MergeAppend))
		more = ((MergeAppend *) plan)->mergeplans;
	else if (IsA(plan, CustomScan))
		more = ((CustomScan *) plan)->custom_plans;
	else if (IsA(plan, SubqueryScan))
		sum += fn(((SubqueryScan *) plan)->subplan, w);
	foreach(lc, more)
		sum += fn(lfirst(lc), w);
	return sum;
}

static double
mf_total_cost(Plan *plan, MfShareWalk *w)
{
	return plan->total_cost;
}

/*
 * The part of plan's cost that is the remotes' work: an own node's cost
 * less a tuple's per row it returns and less its children's (whose shares
 * are added), the runs of its conditions' subqueries included (a
 * correlated one is costed in the node once per run) unless one of them
 * is mostly the gateway's work (a subquery over a local table: the node's
 * own cost is then not counted); another node's subqueries, once each,
 * and its children.  Never more than the plan's total.
 */
static double
mf_remote_share(Plan *plan, MfShareWalk *w)
{
	MfExprShare e = {w, 0, false};
	double		share = 0;
	ListCell   *lc;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	mf_node_exprs(plan, &e);
	if (mf_own_node(plan))
	{
		if (!e.local)
			share = Max(plan->total_cost - plan->plan_rows * cpu_tuple_cost -
						mf_over_children(plan, mf_total_cost, w), 0);
	}
	else
	{
		share = e.share;
		foreach(lc, plan->initPlan)
			share += mf_subplan_share(((SubPlan *) lfirst(lc))->plan_id, w);
	}
	share += mf_over_children(plan, mf_remote_share, w);
	return Min(share, plan->total_cost);
}

/* Does the statement read a foreign table at all? */
static bool
mf_reads_foreign(PlannedStmt *stmt)
{
	ListCell   *lc;

	foreach(lc, stmt->rtable)
	{
		RangeTblEntry *rte = lfirst(lc);

		if (rte->rtekind == RTE_RELATION &&
			rte->relkind == RELKIND_FOREIGN_TABLE)
			return true;
	}
	return false;
}

/* The planner's flags, less those the gateway's own share does not ask for. */
static int
mf_jit_flags(PlannedStmt *stmt)
{
	int			flags = stmt->jitFlags;
	double		local;

	MfShareWalk w;
	int			n;

	if (!(flags & PGJIT_PERFORM) || stmt->planTree == NULL ||
		!mf_reads_foreign(stmt))
		return flags;
	w.stmt = stmt;
	n = Max(list_length(stmt->subplans), 1);
	w.subplan_share = palloc(n * sizeof(double));
	for (int i = 0; i < n; i++)
		w.subplan_share[i] = -1;
	local = stmt->planTree->total_cost - mf_remote_share(stmt->planTree, &w);
	pfree(w.subplan_share);
	if (local >= stmt->planTree->total_cost)
		return flags;
	if (jit_above_cost >= 0 && local <= jit_above_cost)
		return PGJIT_NONE;
	if (jit_optimize_above_cost >= 0 && local <= jit_optimize_above_cost)
		flags &= ~PGJIT_OPT3;
	if (jit_inline_above_cost >= 0 && local <= jit_inline_above_cost)
		flags &= ~PGJIT_INLINE;
	return flags;
}

static void
mf_executor_start(QueryDesc *queryDesc, int eflags)
{
	PlannedStmt *stmt = queryDesc->plannedstmt;
	int			save = stmt->jitFlags;

	/* the plan may be a cached one's: its own flags are put back */
	stmt->jitFlags = mf_jit_flags(stmt);
	PG_TRY();
	{
		if (prev_executor_start)
			prev_executor_start(queryDesc, eflags);
		else
			standard_ExecutorStart(queryDesc, eflags);
		/* also: nested loops whose inner side is read ahead (read_ahead.c) */
		if (!(eflags & EXEC_FLAG_EXPLAIN_ONLY) && queryDesc->planstate != NULL &&
			mf_reads_foreign(stmt))
		{
			MemoryContext old = MemoryContextSwitchTo(queryDesc->estate->es_query_cxt);

			mf_prime_link_nestloops(queryDesc->planstate);
			MemoryContextSwitchTo(old);
		}
	}
	PG_FINALLY();
	{
		stmt->jitFlags = save;
	}
	PG_END_TRY();
}

void
mf_jit_choice_init(void)
{
	if (ExecutorStart_hook != mf_executor_start)
	{
		prev_executor_start = ExecutorStart_hook;
		ExecutorStart_hook = mf_executor_start;
	}
}
