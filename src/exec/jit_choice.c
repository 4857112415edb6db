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
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

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

static double mf_remote_share(Plan *plan, PlannedStmt *stmt);

/* The children a node runs, whatever its kind. */
static List *
mf_plan_children(Plan *plan)
{
	List	   *children = NIL;

	if (plan->lefttree != NULL)
		children = lappend(children, plan->lefttree);
	if (plan->righttree != NULL)
		children = lappend(children, plan->righttree);
	switch (nodeTag(plan))
	{
		case T_Append:
			children = list_concat(children, ((Append *) plan)->appendplans);
			break;
		case T_MergeAppend:
			children = list_concat(children,
								   ((MergeAppend *) plan)->mergeplans);
			break;
		case T_SubqueryScan:
			children = lappend(children, ((SubqueryScan *) plan)->subplan);
			break;
		case T_CustomScan:
			children = list_concat(children,
								   ((CustomScan *) plan)->custom_plans);
			break;
		default:
			break;
	}
	return children;
}

typedef struct MfShareWalk
{
	PlannedStmt *stmt;
	double		share;
} MfShareWalk;

/* the remote share of each subquery an expression runs */
static bool
mf_subplans_share(Node *node, MfShareWalk *w)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubPlan))
	{
		SubPlan    *sp = (SubPlan *) node;

		if (sp->plan_id >= 1 && sp->plan_id <= list_length(w->stmt->subplans))
		{
			Plan	   *sub = list_nth(w->stmt->subplans, sp->plan_id - 1);

			if (sub != NULL)
				w->share += mf_remote_share(sub, w->stmt);
		}
	}
	return expression_tree_walker(node, mf_subplans_share, (void *) w);
}

/*
 * The part of plan's cost that is the remotes' work, counted once per
 * node: an own node's cost less a tuple's per row it returns and less its
 * children's (their own shares are added), its conditions' subqueries
 * included (a correlated one counts its runs in the node's cost); another
 * node's subqueries and children.  Never more than the plan's total.
 */
static double
mf_remote_share(Plan *plan, PlannedStmt *stmt)
{
	MfShareWalk w = {stmt, 0};
	List	   *children;
	ListCell   *lc;

	check_stack_depth();
	children = mf_plan_children(plan);
	if (mf_own_node(plan))
	{
		double		own = plan->total_cost - plan->plan_rows * cpu_tuple_cost;

		foreach(lc, children)
			own -= ((Plan *) lfirst(lc))->total_cost;
		w.share = Max(own, 0);
	}
	else
	{
		(void) mf_subplans_share((Node *) plan->targetlist, &w);
		(void) mf_subplans_share((Node *) plan->qual, &w);
		if (IsA(plan, NestLoop) || IsA(plan, MergeJoin) || IsA(plan, HashJoin))
			(void) mf_subplans_share((Node *) ((Join *) plan)->joinqual, &w);
	}
	foreach(lc, children)
		w.share += mf_remote_share(lfirst(lc), stmt);
	foreach(lc, plan->initPlan)
		(void) mf_subplans_share(lfirst(lc), &w);
	return Min(w.share, plan->total_cost);
}

/* The planner's flags, less those the gateway's own share does not ask for. */
static int
mf_jit_flags(PlannedStmt *stmt)
{
	int			flags = stmt->jitFlags;
	double		local;

	if (!(flags & PGJIT_PERFORM) || stmt->planTree == NULL)
		return flags;
	local = stmt->planTree->total_cost - mf_remote_share(stmt->planTree, stmt);
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
