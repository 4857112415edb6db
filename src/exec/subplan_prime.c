/*-------------------------------------------------------------------------
 *
 * subplan_prime.c
 *		The outer side of priming (scan_prime.c): a node of ours that reads
 *		remote rows and checks a correlated subquery on each hands the
 *		values the subquery will take from the rows it has just read to
 *		the subquery's scans, which read all their answers in one
 *		statement.
 *
 * Which subqueries: a scalar (or ARRAY) SubPlan that the node's local
 * conditions evaluate for each row (mf_primer_walk), whose every argument
 * is a column of the node's remote rows, of an integer type, and whose
 * plan holds scans of ours that mf_scan_primable accepts; and the inner
 * side of a nested loop over one of our scans (below).  The
 * values are taken as the remote sent them, before any conversion, so
 * that a row nobody asks for never fails here: a value is used only where
 * it is an integer written as the scan would write it (no sign but a
 * minus, no leading zero, within its type's range); any other row is left
 * to its own rescan.  A value used so is the text the scan would send for
 * that row, so its answer is found there; one the rescan does not take
 * after all (a condition before the subquery's was false, a Limit above
 * stopped) cost only the remote's work, and where the subquery fails for
 * it, the statement is rolled back to its savepoint and the rescans read
 * for themselves (scan_prime.c).  Such a value does reach the subquery's
 * server, as a key shipped by a dependent join may.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>

#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "utils/memutils.h"

#include "exec/exec.h"

/* one scan of a SubPlan, and where each of its parameters' values is */
typedef struct MfPrimeTarget
{
	ForeignScanState *scan;
	int			nparams;
	int		   *column;			/* in the outer node's remote rows */
	Oid		   *type;			/* int2, int4 or int8 */
} MfPrimeTarget;

struct MfPrimer
{
	List	   *targets;
	MemoryContext cxt;			/* reset after each priming */
};

typedef struct MfPrimerBuild
{
	PlanState  *outer;
	MfConnEntry *outer_entry;
	MfPrimeColumnFn column_of;
	void	   *arg;
	List	   *targets;
	/* the parameters being looked at, and their values' columns */
	List	   *par_params;
	int		   *arg_column;
	Oid		   *arg_type;
} MfPrimerBuild;

/* Each scan of the SubPlan's plan that may be primed becomes a target. */
static bool
mf_primer_find_scans(PlanState *ps, void *context)
{
	MfPrimerBuild *b = context;
	int		   *param_index;
	int			nparams;

	if (ps == NULL)
		return false;
	if (mf_scan_primable(ps, b->par_params, b->outer_entry,
						 &param_index, &nparams))
	{
		MfPrimeTarget *t = palloc(sizeof(MfPrimeTarget));

		t->scan = (ForeignScanState *) ps;
		t->nparams = nparams;
		t->column = palloc(sizeof(int) * nparams);
		t->type = palloc(sizeof(Oid) * nparams);
		for (int i = 0; i < nparams; i++)
		{
			t->column[i] = b->arg_column[param_index[i]];
			t->type[i] = b->arg_type[param_index[i]];
		}
		b->targets = lappend(b->targets, t);
		return false;
	}
	return planstate_tree_walker(ps, mf_primer_find_scans, context);
}

/*
 * Parameters par_params, set from args (Vars of the outer node's rows, or
 * anything else, which leaves them out), on which the scans under search
 * may depend: each scan that depends on them alone becomes a target.
 */
static void
mf_primer_params(MfPrimerBuild *b, List *par_params, List *args,
				 PlanState *search)
{
	ListCell   *lc;
	int			i = 0;

	if (par_params == NIL || list_length(args) != list_length(par_params))
		return;
	b->arg_column = palloc(sizeof(int) * list_length(args));
	b->arg_type = palloc(sizeof(Oid) * list_length(args));
	foreach(lc, args)
	{
		Var		   *var = lfirst(lc);

		if (!IsA(var, Var) ||
			(var->vartype != INT2OID && var->vartype != INT4OID &&
			 var->vartype != INT8OID))
			return;
		b->arg_column[i] = b->column_of(var, b->arg);
		b->arg_type[i] = var->vartype;
		if (b->arg_column[i] < 0)
			return;
		i++;
	}
	b->par_params = par_params;
	(void) mf_primer_find_scans(search, b);
}

/* A SubPlan of the conditions: its state's plan, its arguments. */
static void
mf_primer_subplan(MfPrimerBuild *b, SubPlan *subplan)
{
	SubPlanState *sstate = NULL;
	ListCell   *lc;

	foreach(lc, b->outer->subPlan)
	{
		SubPlanState *s = lfirst(lc);

		if (s->subplan->plan_id == subplan->plan_id)
			sstate = s;
	}
	if (sstate != NULL && sstate->planstate != NULL)
		mf_primer_params(b, subplan->parParam, subplan->args,
						 sstate->planstate);
}

/*
 * The SubPlans that every row evaluates (unless a condition before them is
 * false): in the conditions' list, and under operators and functions,
 * whose arguments are all evaluated; never under CASE, AND, OR,
 * COALESCE and the like, which may leave them out.  Only those that read
 * all their rows for each value (a scalar or ARRAY subquery; EXISTS, IN
 * and the like stop at a row that settles them).
 */
static bool
mf_primer_walk(Node *node, MfPrimerBuild *b)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubPlan))
	{
		SubPlan    *subplan = (SubPlan *) node;

		if (subplan->subLinkType == EXPR_SUBLINK ||
			subplan->subLinkType == ARRAY_SUBLINK)
			mf_primer_subplan(b, subplan);
		return false;
	}
	if (IsA(node, List) || IsA(node, OpExpr) || IsA(node, FuncExpr) ||
		IsA(node, RelabelType) || IsA(node, CoerceViaIO) ||
		IsA(node, NullTest) || IsA(node, BooleanTest))
		return expression_tree_walker(node, mf_primer_walk, b);
	return false;
}

/* The targets found, added to *p (made where there is none yet). */
static void
mf_primer_keep(MfPrimer **p, List *targets)
{
	if (targets == NIL)
		return;
	if (*p == NULL)
	{
		*p = palloc(sizeof(MfPrimer));
		(*p)->targets = NIL;
		(*p)->cxt = AllocSetContextCreate(CurrentMemoryContext,
										  "multi_fdw primer",
										  ALLOCSET_SMALL_SIZES);
	}
	(*p)->targets = list_concat((*p)->targets, targets);
}

/*
 * The primer of a node (outer, reading through outer_entry) whose local
 * conditions are exprs (as planned), or NULL where none of their
 * subqueries may be primed.  column_of(var, arg): the column of the
 * node's remote rows that a Var of exprs reads, or -1.
 */
MfPrimer *
mf_primer_create(PlanState *outer, List *exprs, MfConnEntry *outer_entry,
				 MfPrimeColumnFn column_of, void *arg)
{
	MfPrimerBuild b = {0};
	MfPrimer   *p = NULL;

	b.outer = outer;
	b.outer_entry = outer_entry;
	b.column_of = column_of;
	b.arg = arg;
	(void) mf_primer_walk((Node *) exprs, &b);
	mf_primer_keep(&p, b.targets);
	return p;
}

/*
 * The inner side (inner) of a nested loop whose outer side is the node
 * (outer): its scans that take the loop's parameters (par_params, from
 * the outer node's rows' Vars args) become targets of *p.
 */
void
mf_primer_add_inner(MfPrimer **p, PlanState *outer, PlanState *inner,
					List *par_params, List *args, MfConnEntry *outer_entry,
					MfPrimeColumnFn column_of, void *arg)
{
	MfPrimerBuild b = {0};

	b.outer = outer;
	b.outer_entry = outer_entry;
	b.column_of = column_of;
	b.arg = arg;
	mf_primer_params(&b, par_params, args, inner);
	mf_primer_keep(p, b.targets);
}

/*
 * Is text an integer of type as its output function writes it?  Then it is
 * the text a scan's statement would send for the value.
 */
static bool
mf_prime_integer(const char *text, Oid type)
{
	const char *p = text;
	char	   *end;
	long long	v;

	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] != '\0') ||
		(*p == '0' && p != text))
		return false;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	if (type == INT2OID)
		return v >= PG_INT16_MIN && v <= PG_INT16_MAX;
	if (type == INT4OID)
		return v >= PG_INT32_MIN && v <= PG_INT32_MAX;
	return true;
}

/*
 * The node has read rows from..to-1 of res (value: how it reads a row's
 * column as text): each target's scan reads the answers for their values.
 */
void
mf_primer_prime(MfPrimer *p, MfPrimeValueFn value, void *arg, int from,
				int to)
{
	ListCell   *lc;

	if (to - from < 2)
		return;					/* one row: its rescan reads it as well */
	foreach(lc, p->targets)
	{
		MfPrimeTarget *t = lfirst(lc);
		MemoryContext old = MemoryContextSwitchTo(p->cxt);
		const char **values = palloc(sizeof(char *) * t->nparams * (to - from));
		int			nsets = 0;

		for (int r = from; r < to; r++)
		{
			const char **set = values + nsets * t->nparams;
			bool		ok = true;

			for (int i = 0; i < t->nparams && ok; i++)
			{
				const char *v = value(arg, r, t->column[i]);

				ok = v != NULL && mf_prime_integer(v, t->type[i]);
				set[i] = ok ? pstrdup(v) : NULL;
			}
			if (ok)
				nsets++;
		}
		if (nsets >= 2)
			mf_scan_prime(t->scan, nsets, values);
		MemoryContextSwitchTo(old);
		MemoryContextReset(p->cxt);
	}
}

/* ---------------------------------------------------------------------
 * Nested loops whose outer side is a scan of ours: the inner side's
 * parameterized scans read ahead for each batch of the outer rows
 * (ExecutorStart, exec/jit_choice.c, after the plan's nodes are made)
 * ---------------------------------------------------------------------
 */

static bool
mf_prime_link_walk(PlanState *ps, void *context)
{
	if (ps == NULL)
		return false;
	if (IsA(ps, NestLoopState))
	{
		NestLoop   *nl = (NestLoop *) ps->plan;
		PlanState  *outer = outerPlanState(ps);
		List	   *params = NIL;
		List	   *args = NIL;
		ListCell   *lc;

		foreach(lc, nl->nestParams)
		{
			NestLoopParam *nlp = lfirst(lc);
			TargetEntry *tle = NULL;

			if (nlp->paramval->varno == OUTER_VAR &&
				nlp->paramval->varattno >= 1 &&
				nlp->paramval->varattno <= list_length(outer->plan->targetlist))
				tle = list_nth(outer->plan->targetlist,
							   nlp->paramval->varattno - 1);
			params = lappend_int(params, nlp->paramno);
			args = lappend(args, tle != NULL ? (Node *) tle->expr : (Node *) nlp);
		}
		if (params != NIL)
			mf_scan_prime_inner(outer, innerPlanState(ps), params, args);
	}
	return planstate_tree_walker(ps, mf_prime_link_walk, context);
}

/* Link each nested loop of the plan whose outer side may prime its inner. */
void
mf_prime_link_nestloops(PlanState *top)
{
	(void) mf_prime_link_walk(top, NULL);
}
