/*-------------------------------------------------------------------------
 *
 * read_ahead.c
 *		Values read ahead: a rescanned scan (a correlated subquery's, a
 *		nested loop's inner side) read for many outer rows' values in one
 *		statement, before the rescans ask; the rows go into the scan's
 *		kept rows (scan_memo.c), where each rescan then finds them.
 *
 * A correlated subquery over a foreign table of one server, in a local
 * condition of a node reading another server's rows (TPC-H's Q20: for
 * each partsupp row of a MariaDB, half the sum of its lineitem rows on a
 * PostgreSQL), runs one remote statement per outer row: 760 statements,
 * each a round trip, where the outer node already holds the rows whose
 * values they will take.  A nested loop over one of our scans rescans its
 * parameterized inner side the same way.
 *
 * The outer side (first half of this file): a node of ours that reads
 * remote rows (a table's or join's scan, a dependent join's F) hands the
 * values of each batch of rows it reads to the scans that will take them:
 * those of a scalar (or ARRAY) SubPlan that the first of its local
 * conditions evaluates for each row (mf_primer_create, mf_primer_walk),
 * whose every argument is a column of the node's remote rows, of an
 * integer type; and those of an inner or left nested loop's inner side
 * whose outer side the node is, without local conditions (linked at
 * ExecutorStart, mf_prime_link_nestloops).  Never past a Limit or an
 * Append on the way to the scans.  The values are taken as the remote sent them,
 * before any conversion, so that a row nobody asks for never fails here:
 * a value is used only where it is an integer written as the scan would
 * write it (no sign but a minus, no leading zero, within its type's
 * range); any other row is left to its own rescan.
 *
 * The scan's side (second half): mf_scan_prime reads the answers for all
 * the sets of values not yet kept in one statement of the dialect's keyed
 * form (deparse_keys.c, mf_deparse_keyed): the scan's own nested form run
 * once per set, each answer beside the set's number.  Each answer is the
 * scan's own statement's for those values, since it is that statement,
 * in the same remote transaction, and a rescan uses an answer only for
 * the values it was read for: a value used so is the text the scan would
 * send for that row.
 *
 * A value whose rescan never comes (a condition before the subquery's
 * was false, a Limit above stopped) costs only the remote's work; where
 * the subquery fails for it, the keyed statement is rolled back to its
 * savepoint (remote/savepoint_guard.c) and the rescans read for
 * themselves, failing if and where the query would.  Such a value does
 * reach the subquery's server, as a key shipped by a dependent join may.
 * The rules of the kept rows hold: hash_mem bounds them, and a change
 * through the gateway (the remote data epoch) drops them.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "nodes/nodeFuncs.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "deparse/deparse.h"
#include "exec/exec.h"
#include "exec/scan_state.h"

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
	/*
	 * Not under a Limit (a rescan reads a few of the rows that reading ahead
	 * would read all of), nor an Append (whose pruning at each rescan may
	 * leave a server out that reading ahead would send every value to).
	 */
	if (IsA(ps, LimitState) || IsA(ps, AppendState) ||
		IsA(ps, MergeAppendState))
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
 * The SubPlans that every row evaluates: in a condition, under operators
 * and functions, whose arguments are all evaluated; never under CASE,
 * AND, OR, COALESCE and the like, which may leave them out.  Only those that read
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
	/*
	 * The first condition only: every row read evaluates it, where a later
	 * one sees only the rows the earlier ones let through.  The planner puts
	 * a security_barrier view's conditions first, and the values of the
	 * rows they hide must go nowhere.
	 */
	if (exprs != NIL)
		(void) mf_primer_walk(linitial(exprs), &b);
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
	/*
	 * An inner or left join only (a semi or anti join stops at the first
	 * match); and an outer scan without local conditions, so that every row
	 * it reads goes to the loop: a condition of a security_barrier view's
	 * is one, and values of the rows it hides must go nowhere.
	 */
	if (IsA(ps, NestLoopState) &&
		(((Join *) ps->plan)->jointype == JOIN_INNER ||
		 ((Join *) ps->plan)->jointype == JOIN_LEFT) &&
		outerPlanState(ps)->plan->qual == NIL)
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

/* =====================================================================
 * The scan's side: reading the values' answers
 * =====================================================================
 */

/* sets of values in one statement, at most */
#define MF_PRIME_MAX_SETS	1000

/*
 * Is ps one of our scans that a SubPlan setting par_params may prime from
 * a node reading through outer_entry?  Where it is, param_index[i] (of
 * nparams) is the position in par_params of the scan's parameter i.  Only
 * a scan whose every parameter is one of the SubPlan's, whose rows may be
 * kept, whose dialect has the keyed form and whose nested form promises
 * no order; on another connection than the outer node's, whose rows it
 * may be reading (the keyed statement would have them read into memory).
 */
bool
mf_scan_primable(PlanState *ps, List *par_params, MfConnEntry *outer_entry,
				 int **param_index, int *nparams)
{
	ForeignScanState *node;
	ForeignScan *fsplan;
	MfScanState *st;
	ListCell   *lc;
	int			i = 0;
	int			ncols;

	if (!IsA(ps, ForeignScanState))
		return false;
	node = (ForeignScanState *) ps;
	if (node->fdwroutine == NULL ||
		node->fdwroutine->GetForeignRelSize != mfGetForeignRelSize ||
		node->fdw_state == NULL)
		return false;
	st = node->fdw_state;
	fsplan = (ForeignScan *) ps->plan;
	if (fsplan->operation != CMD_SELECT)
		return false;
	if (!st->memo_ok || st->nparams == 0 || st->entry == outer_entry ||
		!mf_conn_dialect(st->entry)->keyed_rescans ||
		!mf_scan_nested_keyable(fsplan) ||
		mf_scan_nested_sql(fsplan, &ncols) == NULL ||
		ncols != list_length(st->reader.retrieved_attrs))
		return false;
	*param_index = palloc(sizeof(int) * st->nparams);
	foreach(lc, fsplan->fdw_exprs)
	{
		Param	   *p = lfirst(lc);
		int			pos = -1;
		ListCell   *pc;

		if (!IsA(p, Param) || p->paramkind != PARAM_EXEC ||
			!OidIsValid(get_array_type(p->paramtype)))
			return false;
		foreach(pc, par_params)
			if (lfirst_int(pc) == p->paramid)
				pos = foreach_current_index(pc);
		if (pos < 0)
			return false;
		(*param_index)[i++] = pos;
	}
	*nparams = st->nparams;
	return true;
}

/* One array's text: the sets' values of parameter param, quoted. */
static const char *
mf_prime_array(const char **values, int nparams, int param, const int *sets,
			   int nsets)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int s = 0; s < nsets; s++)
	{
		const char *v = values[sets[s] * nparams + param];

		if (s > 0)
			appendStringInfoChar(&buf, ',');
		if (v == NULL)
		{
			appendStringInfoString(&buf, "NULL");
			continue;
		}
		appendStringInfoChar(&buf, '"');
		for (; *v != '\0'; v++)
		{
			if (*v == '"' || *v == '\\')
				appendStringInfoChar(&buf, '\\');
			appendStringInfoChar(&buf, *v);
		}
		appendStringInfoChar(&buf, '"');
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/*
 * Read the answers of sets (entries: theirs to fill) in one statement,
 * inside a remote savepoint (remote/savepoint_guard.c): a value of the
 * batch may be one the query never asks the subquery for, and the
 * subquery may fail for it where no rescan would have run.  On failure
 * the sets' entries go, the transaction is back where it was, and the
 * scan reads ahead no more: each rescan then reads for itself, and fails
 * if and where the query would.  false then.
 */
static bool
mf_prime_run(ForeignScanState *node, MfScanState *st, const char **values,
			 const int *sets, MfMemoEntry **entries, int nsets)
{
	const char **arrays = palloc(sizeof(char *) * st->nparams);
	MfTypeClass *classes = palloc(sizeof(MfTypeClass) * st->nparams);
	int			ncols = list_length(st->reader.retrieved_attrs);
	const char **row = palloc(sizeof(char *) * Max(ncols, 1));
	MfResult   *res;
	MfError		err;
	int			n = 0;
	int			kept = 0;
	bool		no_room = false;

	for (int i = 0; i < st->nparams; i++)
	{
		arrays[i] = mf_prime_array(values, st->nparams, i, sets, nsets);
		classes[i] = MF_TYPE_TEXT;
	}
	mf_stats_node_use(&st->stats);
	/* whoever reads on this link (this scan's rows too) reads to the end */
	mf_claim_connection(st->entry, &st->keyed_sql);
	if (!mf_guard_begin(st->entry))
	{
		st->prime_off = true;
		for (int s = 0; s < nsets; s++)
			mf_memo_prime_end(st->memo, entries[s], false);
		return false;
	}
	mf_stats_count(st->entry, MF_C_STATEMENTS, 1);
	st->prime_statements++;
	mf_error_clear(&err);
	res = st->tr->query(mf_conn(st->entry), st->keyed_sql, st->nparams,
						arrays, classes, mf_read(MF_READ_FEW, st->fetch_size),
						&err);
	while (res != NULL && (n = st->tr->fetch(res, &err)) > 0)
	{
		for (int r = 0; r < n; r++)
		{
			const char *num = st->tr->value(res, r, 0);
			long		k = num != NULL ? strtol(num, NULL, 10) : 0;

			if (k < 1 || k > nsets)
			{
				st->tr->result_close(res);
				elog(ERROR, "a keyed statement's row names set %s of %d",
					 num != NULL ? num : "NULL", nsets);
			}
			if (entries[k - 1] == NULL)
				continue;		/* no room for this set's rows */
			for (int c = 0; c < ncols; c++)
				row[c] = st->tr->value(res, r, c + 1);
			if (!mf_memo_prime_row(st->memo, entries[k - 1], row))
			{
				entries[k - 1] = NULL;
				no_room = true;
			}
		}
		CHECK_FOR_INTERRUPTS();
	}
	if (res != NULL)
		st->tr->result_close(res);
	mf_stats_node_publish(&st->stats);
	if (res == NULL || n < 0)
	{
		/*
		 * The remote's error is dropped: a rescan meets it if it must.  Not
		 * one that ends the transaction or the session (a serialization
		 * failure, a deadlock, a lost link, a shutdown): that is raised.
		 */
		if (strncmp(err.sqlstate, "40", 2) == 0 ||
			strncmp(err.sqlstate, "08", 2) == 0 ||
			strncmp(err.sqlstate, "57", 2) == 0 || err.conn_lost)
			mf_raise_error(ERROR, st->entry, &err, st->keyed_sql);
		mf_guard_end(st->entry, &err, st->keyed_sql);
		st->prime_off = true;
		for (int s = 0; s < nsets; s++)
			if (entries[s] != NULL)
				mf_memo_prime_end(st->memo, entries[s], false);
		return false;
	}
	mf_guard_end(st->entry, NULL, NULL);
	for (int s = 0; s < nsets; s++)
		if (entries[s] != NULL)
		{
			mf_memo_prime_end(st->memo, entries[s], true);
			kept++;
		}
	st->primed += kept;
	/* past hash_mem: what is read ahead would be read twice */
	if (no_room)
		st->prime_off = true;
	return true;
}

/*
 * Read the answers for nsets sets of values (nsets * the scan's nparams
 * texts, as the scan's own statement would send them; NULL for NULL) that
 * are not kept yet, into the kept rows.
 */
void
mf_scan_prime(ForeignScanState *node, int nsets, const char **values)
{
	MfScanState *st = node->fdw_state;
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;
	MemoryContext cxt;
	MemoryContext old;
	int		   *sets;
	MfMemoEntry **entries;
	int			n = 0;

	/*
	 * Not under SERIALIZABLE: the rows read for values nobody asks for would
	 * take the remote's predicate locks, and fail commits for nothing.
	 */
	if (!st->memo_ok || st->prime_off || IsolationIsSerializable())
		return;
	if (st->memo == NULL)
		st->memo = mf_memo_create(node->ss.ps.state->es_query_cxt,
								  list_length(st->reader.retrieved_attrs));
	if (st->keyed_sql == NULL)
	{
		int			ncols;
		const char *nested = mf_scan_nested_sql(fsplan, &ncols);
		MemoryContext q = MemoryContextSwitchTo(node->ss.ps.state->es_query_cxt);

		st->array_types = palloc(sizeof(Oid) * st->nparams);
		for (int i = 0; i < st->nparams; i++)
			st->array_types[i] = get_array_type(st->param_types[i]);
		st->keyed_sql = mf_deparse_keyed(nested, mf_conn_dialect(st->entry),
										 st->tr->markers, st->array_types,
										 st->nparams);
		MemoryContextSwitchTo(q);
		if (st->keyed_sql == NULL)
		{
			st->memo_ok = false;	/* malformed: never again */
			return;
		}
	}

	cxt = AllocSetContextCreate(CurrentMemoryContext, "multi_fdw priming",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	sets = palloc(sizeof(int) * Min(nsets, MF_PRIME_MAX_SETS));
	entries = palloc(sizeof(MfMemoEntry *) * Min(nsets, MF_PRIME_MAX_SETS));
	for (int s = 0; s < nsets; s++)
	{
		const char **set = values + s * st->nparams;
		MfMemoEntry *e;

		for (int i = 0; i < st->nparams; i++)
			mf_check_param_value(mf_conn_dialect(st->entry),
								 mf_conn_server_name(st->entry),
								 st->param_types[i], set[i]);
		/* NULL: kept (or being read: a repeat of this batch) or no room */
		e = mf_memo_prime_entry(st->memo, st->nparams, set);
		if (e == NULL)
			continue;
		sets[n] = s;
		entries[n++] = e;
		if (n == MF_PRIME_MAX_SETS)
		{
			if (!mf_prime_run(node, st, values, sets, entries, n) ||
				st->prime_off)
				break;
			n = 0;
		}
	}
	if (n > 0 && !st->prime_off)
		mf_prime_run(node, st, values, sets, entries, n);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

/* ---------------------------------------------------------------------
 * The scan as the outer node: its local conditions' subqueries
 * ---------------------------------------------------------------------
 */

/* The column of the scan's remote rows a Var of its conditions reads. */
static int
mf_scan_var_column(Var *var, void *arg)
{
	ForeignScanState *node = arg;
	MfScanState *st = node->fdw_state;
	Index		scanrelid = ((ForeignScan *) node->ss.ps.plan)->scan.scanrelid;

	if (var->varno != (scanrelid > 0 ? (int) scanrelid : INDEX_VAR) ||
		var->varattno < 1 || var->varlevelsup != 0)
		return -1;
	return mf_attr_position(st->reader.retrieved_attrs, var->varattno);
}

/* Row r of the scan's current batch, column col, as text. */
static const char *
mf_scan_row_value(void *arg, int row, int col)
{
	MfScanState *st = arg;

	return mf_held_value(&st->held, st->tr, st->result, row, col);
}

/* The scan's primer, where its local conditions have subqueries to prime. */
void
mf_scan_primer_init(ForeignScanState *node)
{
	MfScanState *st = node->fdw_state;

	if (node->ss.ps.plan->qual != NIL && node->ss.ps.subPlan != NIL)
		st->primer = mf_primer_create(&node->ss.ps, node->ss.ps.plan->qual,
									  st->entry, mf_scan_var_column, node);
}

/*
 * A nested loop's outer side, if it is one of our scans: the inner side's
 * scans that take the loop's parameters (par_params, set from args: the
 * outer scan's output expressions) are read ahead for its batches.
 */
void
mf_scan_prime_inner(PlanState *outer, PlanState *inner, List *par_params,
					List *args)
{
	ForeignScanState *node;
	MfScanState *st;

	if (!IsA(outer, ForeignScanState))
		return;
	node = (ForeignScanState *) outer;
	if (node->fdwroutine == NULL ||
		node->fdwroutine->GetForeignRelSize != mfGetForeignRelSize ||
		node->fdw_state == NULL || outer->plan->async_capable)
		return;
	st = node->fdw_state;
	mf_primer_add_inner(&st->primer, outer, inner, par_params, args,
						st->entry, mf_scan_var_column, node);
}

/* A batch of the scan's rows has come: their subqueries' values. */
void
mf_scan_prime_batch(MfScanState *st)
{
	/* (rows held for another's sake come one at a time: never read ahead) */
	if (st->primer != NULL && !st->replay && !st->held.reading &&
		st->nrows - st->next_row >= 2)
		mf_primer_prime(st->primer, mf_scan_row_value, st, st->next_row,
						st->nrows);
}
