/*-------------------------------------------------------------------------
 *
 * subplan_prime.c
 *		The outer side of priming (scan_prime.c): a node of ours that reads
 *		remote rows and checks a correlated subquery on each hands the
 *		values the subquery will take from the rows it has just read to
 *		the subquery's scans, which read all their answers in one
 *		statement.
 *
 * Which subqueries: a SubPlan in the node's local conditions whose every
 * argument is a column of the node's remote rows, of an integer type, and
 * whose plan holds scans of ours that mf_scan_primable accepts.  The
 * values are taken as the remote sent them, before any conversion, so
 * that a row nobody asks for never fails here: a value is used only where
 * it is an integer written as the scan would write it (no sign but a
 * minus, no leading zero, within its type's range); any other row is left
 * to its own rescan.  A value used so is the text the scan would send for
 * that row, so its answer is found there; one the rescan does not take
 * after all (a condition before the subquery's was false) cost only the
 * remote's work.
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
	/* the SubPlan being looked at */
	SubPlan    *subplan;
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
	if (mf_scan_primable(ps, b->subplan->parParam, b->outer_entry,
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

/* A SubPlan of the conditions: its state, when its arguments qualify. */
static void
mf_primer_subplan(MfPrimerBuild *b, SubPlan *subplan)
{
	SubPlanState *sstate = NULL;
	ListCell   *lc;
	int			i = 0;

	if (subplan->parParam == NIL ||
		list_length(subplan->args) != list_length(subplan->parParam))
		return;
	foreach(lc, b->outer->subPlan)
	{
		SubPlanState *s = lfirst(lc);

		if (s->subplan->plan_id == subplan->plan_id)
			sstate = s;
	}
	if (sstate == NULL || sstate->planstate == NULL)
		return;
	b->arg_column = palloc(sizeof(int) * list_length(subplan->args));
	b->arg_type = palloc(sizeof(Oid) * list_length(subplan->args));
	foreach(lc, subplan->args)
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
	b->subplan = subplan;
	(void) mf_primer_find_scans(sstate->planstate, b);
}

static bool
mf_primer_walk(Node *node, MfPrimerBuild *b)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubPlan))
		mf_primer_subplan(b, (SubPlan *) node);
	return expression_tree_walker(node, mf_primer_walk, b);
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
	MfPrimer   *p;

	b.outer = outer;
	b.outer_entry = outer_entry;
	b.column_of = column_of;
	b.arg = arg;
	(void) mf_primer_walk((Node *) exprs, &b);
	if (b.targets == NIL)
		return NULL;
	p = palloc(sizeof(MfPrimer));
	p->targets = b.targets;
	p->cxt = AllocSetContextCreate(CurrentMemoryContext, "multi_fdw primer",
								   ALLOCSET_SMALL_SIZES);
	return p;
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
