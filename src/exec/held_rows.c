/*-------------------------------------------------------------------------
 *
 * held_rows.c
 *		The rows of a small result read ahead of their reader, held in a
 *		tuplestore: in memory up to work_mem, then in a temporary file.
 *
 * A result the planner expects to be small is read without a cursor where
 * the transport can (libpq's single-row mode, MySQL's streamed result):
 * its rows stay on the wire until the reader fetches them, and the
 * connection can carry nothing else meanwhile.  When someone else needs
 * the connection first (a nested loop rescanning another table of the same
 * server, an UPDATE through it during the scan, a dependent join's next
 * key list), the rest of the rows must be read now.  The transport hands
 * them up a batch at a time, as to any reader, and they are kept here, on
 * the executor's side of the wall, where work_mem and temp_file_limit
 * bound them; the reader then takes them from here, one row per fetch,
 * before the transport's end.
 *
 * The reader registers its watch as the connection's stream owner after
 * each fetch that leaves rows on the wire (mf_held_watch); a claim of the
 * connection by anyone else then calls mf_held_finish_cb, which drains the
 * result.  The values are kept as text, converted when the reader forms
 * its row, as they would have been.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/tuplestore.h"

#include "exec/exec.h"

void
mf_held_init(MfHeldRows *h, MemoryContext cxt)
{
	memset(h, 0, sizeof(*h));
	h->cxt = cxt;
	h->owner = CurrentResourceOwner;
	h->row_cxt = AllocSetContextCreate(cxt, "multi_fdw held row",
									   ALLOCSET_SMALL_SIZES);
}

/* Put one row of the transport's current batch into the store. */
static void
mf_held_put(MfHeldRows *h, const MfTransport *tr, MfResult *res, int row,
			Datum *values, bool *nulls)
{
	MemoryContext old = MemoryContextSwitchTo(h->row_cxt);

	for (int c = 0; c < h->ncols; c++)
	{
		const char *v = tr->value(res, row, c);

		nulls[c] = (v == NULL);
		values[c] = v == NULL ? (Datum) 0 : CStringGetTextDatum(v);
	}
	MemoryContextSwitchTo(old);
	tuplestore_putvalues(h->store, h->desc, values, nulls);
	MemoryContextReset(h->row_cxt);
}

/*
 * Read the rest of res into the store: rows first..nrows-1 of the batch the
 * reader holds, then every batch to the end.  An error of the transport is
 * kept for the fetch that reaches it, as the transport would have.
 */
static void
mf_held_drain(MfHeldRows *h, const MfTransport *tr, MfResult *res, int first,
			  int nrows)
{
	MemoryContext old = MemoryContextSwitchTo(h->cxt);
	ResourceOwner oldowner = CurrentResourceOwner;
	Datum	   *values;
	bool	   *nulls;
	MfError		err;
	int			n;

	/* the reader's own context and resource owner keep the store */
	CurrentResourceOwner = h->owner;
	if (h->store == NULL)
	{
		h->ncols = tr->ncolumns(res);
		if (h->ncols < 0)
			h->ncols = 0;
		h->desc = CreateTemplateTupleDesc(h->ncols);
		for (int c = 0; c < h->ncols; c++)
			TupleDescInitEntry(h->desc, (AttrNumber) (c + 1), NULL, TEXTOID,
							   -1, 0);
		h->store = tuplestore_begin_heap(false, false, work_mem);
		h->slot = MakeSingleTupleTableSlot(h->desc, &TTSOpsMinimalTuple);
		h->values = palloc0(sizeof(char *) * Max(h->ncols, 1));
	}
	CurrentResourceOwner = oldowner;
	values = palloc(sizeof(Datum) * Max(h->ncols, 1));
	nulls = palloc(sizeof(bool) * Max(h->ncols, 1));

	/* cut short by an error of ours: the rows would be lost */
	h->lost = true;
	CurrentResourceOwner = h->owner;
	for (int row = first; row < nrows; row++)
		mf_held_put(h, tr, res, row, values, nulls);
	mf_error_clear(&err);
	while ((n = tr->fetch(res, &err)) > 0)
	{
		CHECK_FOR_INTERRUPTS();
		for (int row = 0; row < n; row++)
			mf_held_put(h, tr, res, row, values, nulls);
	}
	CurrentResourceOwner = oldowner;
	if (n < 0)
	{
		h->failed = true;
		h->err = err;
	}
	h->lost = false;
	pfree(values);
	pfree(nulls);
	MemoryContextSwitchTo(old);
}

/* Someone else claims the connection: the rest of the rows come here. */
static void
mf_held_finish_cb(void *arg)
{
	MfHeldRows *h = arg;

	h->watching = false;
	if (h->tr->holds_link != NULL && h->tr->holds_link(h->res))
	{
		mf_held_drain(h, h->tr, h->res, *h->next_row, *h->nrows);
		*h->nrows = *h->next_row = 0;
	}
}

/*
 * After a fetch: if rows of res are still on the wire, watch the
 * connection for anyone else who needs it.  nrows and next_row are the
 * reader's batch and its position in it (the drain takes the rest of the
 * batch and empties it).  true: watching.
 */
bool
mf_held_watch(MfHeldRows *h, MfConnEntry *entry, const MfTransport *tr,
			  MfResult *res, int *nrows, int *next_row)
{
	if (tr->holds_link == NULL || !tr->holds_link(res))
		return false;
	h->entry = entry;
	h->tr = tr;
	h->res = res;
	h->nrows = nrows;
	h->next_row = next_row;
	mf_set_stream_owner(entry, h, mf_held_finish_cb);
	h->watching = true;
	return true;
}

/* Is the watch on (rows of the reader's result still on the wire)? */
bool
mf_held_watching(MfHeldRows *h)
{
	return h->watching;
}

/* The reader is about to use the connection itself: no drain for it. */
void
mf_held_unwatch(MfHeldRows *h)
{
	if (h->watching)
	{
		mf_clear_stream_owner(h->entry, h);
		h->watching = false;
	}
}

/* The store and what reads it go (the rows were all handed over). */
static void
mf_held_drop(MfHeldRows *h)
{
	if (h->store != NULL)
	{
		tuplestore_end(h->store);
		h->store = NULL;
	}
	if (h->slot != NULL)
	{
		ExecDropSingleTupleTableSlot(h->slot);
		h->slot = NULL;
	}
	if (h->desc != NULL)
	{
		FreeTupleDesc(h->desc);
		h->desc = NULL;
	}
	if (h->values != NULL)
	{
		pfree(h->values);
		h->values = NULL;
	}
}

/*
 * The next batch: one held row while there are any, else the transport's
 * next batch.  As the transport's fetch: rows now available, 0 at the end,
 * -1 and err filled on error.
 */
int
mf_held_fetch(MfHeldRows *h, const MfTransport *tr, MfResult *res,
			  MfError *err)
{
	mf_held_unwatch(h);
	if (h->lost)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("rows read ahead of a foreign scan were lost to an earlier error")));
	h->reading = false;
	MemoryContextReset(h->row_cxt);
	if (h->store != NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(h->cxt);
		bool		got;

		/* a row read back from the file is the slot's, freed in h->cxt */
		got = tuplestore_gettupleslot(h->store, true, false, h->slot);
		MemoryContextSwitchTo(old);
		if (got)
		{
			old = MemoryContextSwitchTo(h->row_cxt);
			slot_getallattrs(h->slot);
			for (int c = 0; c < h->ncols; c++)
				h->values[c] = h->slot->tts_isnull[c] ? NULL :
					TextDatumGetCString(h->slot->tts_values[c]);
			MemoryContextSwitchTo(old);
			h->reading = true;
			return 1;
		}
		mf_held_drop(h);
	}
	if (h->failed)
	{
		h->failed = false;
		*err = h->err;
		return -1;
	}
	return tr->fetch(res, err);
}

/*
 * The value of the current held row, when the reader's batch is one
 * (h->reading); else the transport's.
 */
const char *
mf_held_value(MfHeldRows *h, const MfTransport *tr, MfResult *res, int row,
			  int col)
{
	if (h != NULL && h->reading)
		return col >= 0 && col < h->ncols ? h->values[col] : NULL;
	return tr->value(res, row, col);
}

/* The reader is done with its result (closed, or a rescan): drop it all. */
void
mf_held_reset(MfHeldRows *h)
{
	mf_held_unwatch(h);
	mf_held_drop(h);
	h->reading = false;
	h->failed = false;
	h->lost = false;
}
