/*-------------------------------------------------------------------------
 *
 * remote_facts.c
 *		What the remote says of its tables, and how long it is believed.
 *
 * Some decisions need a fact about the remote table that only its catalog
 * knows: may a BEFORE ROW INSERT trigger or a rule skip rows (buffer.c:
 * COPY and a pipeline read late would count rows the remote does not
 * store)?  Is the relation a table, with a ctid (rowid.c: otherwise rows
 * are not found again by it)?  Which columns partition it (rowid.c)?  Each
 * fact is the answer to one of the dialect's catalog queries about one
 * table, asked the first time it is needed and remembered on the
 * connection.
 *
 * The rule for asking again: a fact lasts as long as the remote
 * transaction it was asked in, and no longer than
 *
 *	- the end of that transaction, committed or rolled back: the next one
 *	  asks again, so that another session's CREATE TRIGGER, or a table
 *	  replaced by a view, is seen by the next statement;
 *	- a rolled-back remote savepoint: what was asked after it may describe
 *	  DDL that the rollback undid;
 *	- a statement of the user's own sent through the connection
 *	  (multi_fdw_exec): it may be the DDL that changes the answer.
 *
 * Within one remote transaction nothing else can change the answer as the
 * catalog query sees it: the postgres dialect's transactions are
 * REPEATABLE READ or SERIALIZABLE, so every query of the transaction reads
 * the catalog as of its first statement, and asking again per statement
 * would cost a round trip to learn the same thing.  The price is one
 * exchange per remote transaction that needs the fact (a bulk INSERT or
 * COPY, a row-by-row UPDATE or DELETE by ctid), where the answer used to
 * be kept for the connection's life.
 *
 * A plan is a cache of such answers too: planning asks them (rowid.c: is
 * the relation a table, which columns partition it) and writes the
 * statement by them, and a generic plan is used again in later
 * transactions.  So a statement that runs by a plan asks again as it
 * begins (mf_rowid_check_exec, from BeginForeignModify), under the same
 * rule: in the transaction that planned it the answers are at hand, and a
 * later one pays the exchange it would have paid to plan.  What the answer
 * changes is decided there, at execution: the error for a relation that
 * is no longer a table, the statement without partition key columns that
 * are no longer the remote's.  Facts that decide a count (the INSERT
 * triggers above) are asked at execution only, never kept in a plan.
 *
 * What the remote's DDL does to the statements a transport keeps prepared
 * is the transport's to handle, with the rule written where they are kept
 * (pq_replan.c, my_cache.c).
 *
 * Facts about the server rather than a table are kept by the transports,
 * each with its own rule written where it is cached (the mysql
 * transport's max_allowed_packet, @@local_infile and bulk execution; the
 * odbc transport's parameter array support and budget).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "remote/connection_int.h"

/* an answer of the remote about one of its tables (mf_conn_remember) */
typedef struct MfRemembered
{
	const char *question;		/* the dialect's catalog query */
	char	   *table;			/* its parameter: the quoted remote name */
	uint64		epoch;			/* entry->facts_epoch when it was asked */
	bool		value;			/* a yes-or-no answer */
	List	   *names;			/* or the names it listed */
} MfRemembered;

/*
 * What the connection was told lives in its facts_cxt, which connection.c
 * empties when the connection goes.  The rule above is kept by
 * facts_epoch: connection.c and exec_guard.c advance it where an answer
 * goes out of date (mf_conn_forget_facts), and an out-of-date answer is
 * kept only as a hint, for a choice that no count or row depends on
 * (mf_conn_remembered_names with stale_ok).
 */

static MfRemembered *
mf_conn_recall(MfConnEntry *entry, const char *question, const char *table,
			   bool stale_ok)
{
	ListCell   *lc;

	foreach(lc, entry->remembered)
	{
		MfRemembered *r = lfirst(lc);

		if (r->question == question && strcmp(r->table, table) == 0)
			return stale_ok || r->epoch == entry->facts_epoch ? r : NULL;
	}
	return NULL;
}

bool
mf_conn_remembered(MfConnEntry *entry, const char *question,
				   const char *table, bool *value)
{
	MfRemembered *r = mf_conn_recall(entry, question, table, false);

	if (r != NULL)
		*value = r->value;
	return r != NULL;
}

/* stale_ok: an answer of an earlier remote transaction will do */
bool
mf_conn_remembered_names(MfConnEntry *entry, const char *question,
						 const char *table, bool stale_ok, List **names)
{
	MfRemembered *r = mf_conn_recall(entry, question, table, stale_ok);

	if (r != NULL)
		*names = r->names;
	return r != NULL;
}

static void
mf_conn_remember_fact(MfConnEntry *entry, const char *question,
					  const char *table, bool value, List *names)
{
	MfRemembered *r = mf_conn_recall(entry, question, table, true);
	MemoryContext old;
	ListCell   *lc;

	if (entry->facts_cxt == NULL)
		entry->facts_cxt = AllocSetContextCreate(TopMemoryContext,
												 "multi_fdw remote facts",
												 ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(entry->facts_cxt);
	/* an out-of-date answer is replaced: one entry per question and table */
	if (r == NULL)
	{
		r = palloc0(sizeof(MfRemembered));
		r->question = question;
		r->table = pstrdup(table);
		entry->remembered = lappend(entry->remembered, r);
	}
	list_free_deep(r->names);
	r->names = NIL;
	r->epoch = entry->facts_epoch;
	r->value = value;
	foreach(lc, names)
		r->names = lappend(r->names, pstrdup(lfirst(lc)));
	MemoryContextSwitchTo(old);
}

void
mf_conn_remember(MfConnEntry *entry, const char *question, const char *table,
				 bool value)
{
	mf_conn_remember_fact(entry, question, table, value, NIL);
}

void
mf_conn_remember_names(MfConnEntry *entry, const char *question,
					   const char *table, List *names)
{
	mf_conn_remember_fact(entry, question, table, false, names);
}

/*
 * A catalog question about one of the remote's tables: sql, a dialect's
 * catalog query with the marker of its one parameter written in
 * (mf_deparse_catalog_query), gets the table's quoted name there and
 * answers in one row; true when the first value is "t", answer when there
 * is no row.  The connection must be free of streams (mf_claim_connection).
 */
bool
mf_conn_ask_about_table(MfConnEntry *entry, const char *sql,
						const char *table, bool answer)
{
	List	   *rows = mf_conn_ask_rows(entry, sql, table, 1);

	if (rows != NIL)
		answer = ((char *) linitial(rows))[0] == 't';
	list_free_deep(rows);
	return answer;
}

/*
 * The first ncols values of every row of a catalog query about a table (as
 * for mf_conn_ask_about_table), row after row, palloc'd in the
 * current context; a row with a NULL among them is left out.
 */
List *
mf_conn_ask_rows(MfConnEntry *entry, const char *sql, const char *table,
				 int ncols)
{
	MfTypeClass classes[1] = {MF_TYPE_TEXT};
	const char *values[1] = {table};
	List	   *names = NIL;
	MfResult   *res;
	MfError		err;
	int			n;

	mf_error_clear(&err);
	res = entry->transport->query(entry->conn, sql, 1, values, classes,
								  mf_read(MF_READ_WHOLE, 0), &err);
	if (res == NULL)
		mf_raise_error(ERROR, entry, &err, sql);
	while ((n = entry->transport->fetch(res, &err)) > 0)
	{
		for (int i = 0; i < n; i++)
		{
			List	   *row = NIL;

			for (int c = 0; c < ncols; c++)
			{
				const char *v = entry->transport->value(res, i, c);

				if (v == NULL)
					break;
				row = lappend(row, pstrdup(v));
			}
			if (list_length(row) == ncols)
				names = list_concat(names, row);
		}
	}
	entry->transport->result_close(res);
	if (n < 0)
		mf_raise_error(ERROR, entry, &err, sql);
	return names;
}
