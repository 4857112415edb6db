/*-------------------------------------------------------------------------
 *
 * scan_memo.c
 *		The rows of a rescanned foreign scan, kept by the values of its
 *		parameters, so that a rescan with values seen before is answered
 *		here instead of by another remote statement.
 *
 * A correlated subquery over a foreign table runs its scan again for each
 * outer row, with the outer row's values as the remote statement's
 * parameters; a nested loop rescans its inner side the same way.  Where
 * outer rows repeat values (TPC-H's Q2 asks for the cheapest supplier's
 * cost once per partsupp row, four rows to a part), each repeat was a
 * round trip for the same answer.  PostgreSQL's Memoize node does this for
 * a nested loop's parameterized inner side, but never for a SubPlan.
 *
 * What is kept is the remote rows as the remote sent them, in text: each
 * replay converts them again, as a read would, so that a value our column
 * refuses fails where a read would fail (never for a row nobody asked
 * for), and a conversion that depends on a setting sees the setting of the
 * moment.  The node's local conditions and projection run again on each.
 *
 * The rows are as the remote would send them again only while nothing has
 * changed there: the remote statement holds only what the dialect ships
 * (never a volatile expression), and the remote transaction is the
 * statement's.  What changes them through the gateway advances the remote
 * data epoch (remote/data_epoch.c: an INSERT, UPDATE, DELETE, COPY or
 * TRUNCATE begun, a statement of the user's through multi_fdw_exec, a
 * rolled-back savepoint, a transaction's end): rows kept under another
 * epoch are dropped.  A remote object that is volatile itself (a view of
 * nextval()) is the user's to exclude: keep_rescan_rows 'false'.
 *
 * Rows are kept only from a scan's first rescan on (a scan that runs once
 * copies nothing), only for a whole answer (read to its end, or stopped
 * early with the rest already here or on the wire: scan.c), and only
 * while all that one scan keeps stays within hash_mem, as for Memoize and
 * a hash join (its memory context, the hash table's included); past it,
 * new values are read from the remote as before.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "executor/nodeHash.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "exec/exec.h"

typedef struct MfMemoKey
{
	char	   *bytes;			/* the parameters' values, written out */
	Size		len;
} MfMemoKey;

struct MfMemoEntry
{
	MfMemoKey	key;			/* first: dynahash's key */
	char	 ***rows;			/* each row's ncols values, NULL for NULL,
								 * in one chunk with the text */
	int			nrows;
	int			cap;
	bool		complete;		/* the scan reached its end */
};

struct MfScanMemo
{
	MemoryContext cxt;
	HTAB	   *entries;
	int			ncols;
	uint64		epoch;			/* the remote data epoch of what is kept */
	Size		used;			/* bytes of the chunks kept */
	Size		limit;
	StringInfoData key;			/* the current rescan's key */
	MfMemoEntry *recording;		/* rows being kept as they are read */
	MfMemoEntry *replaying;		/* rows being handed out again */
	int			replay_pos;
	long		hits;
};

static uint32
mf_memo_hash(const void *key, Size keysize)
{
	const MfMemoKey *k = key;

	return hash_bytes((const unsigned char *) k->bytes, (int) k->len);
}

static int
mf_memo_match(const void *key1, const void *key2, Size keysize)
{
	const MfMemoKey *a = key1;
	const MfMemoKey *b = key2;

	return a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0 ? 0 : 1;
}

static void
mf_memo_new_table(MfScanMemo *m)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(MfMemoKey);
	ctl.entrysize = sizeof(MfMemoEntry);
	ctl.hash = mf_memo_hash;
	ctl.match = mf_memo_match;
	ctl.hcxt = m->cxt;
	m->entries = hash_create("multi_fdw rescan rows", 64, &ctl,
							 HASH_ELEM | HASH_FUNCTION | HASH_COMPARE |
							 HASH_CONTEXT);
	m->used = 0;
	m->epoch = mf_remote_data_epoch();
}

MfScanMemo *
mf_memo_create(MemoryContext parent, int ncols)
{
	MfScanMemo *m;

	m = MemoryContextAllocZero(parent, sizeof(MfScanMemo));
	m->cxt = AllocSetContextCreate(parent, "multi_fdw rescan rows",
								   ALLOCSET_DEFAULT_SIZES);
	m->ncols = ncols;
	m->limit = get_hash_memory_limit();
	m->key.data = MemoryContextAlloc(parent, 64);
	m->key.maxlen = 64;
	resetStringInfo(&m->key);
	mf_memo_new_table(m);
	return m;
}

/*
 * Would size more bytes go past hash_mem?  What is kept is counted in the
 * sizes of its chunks; the context's blocks (the hash table's among them,
 * a bucket and an entry per value) bound it from above, as for HashAgg.
 */
static bool
mf_memo_over(MfScanMemo *m, Size size)
{
	return m->used + size > m->limit ||
		MemoryContextMemAllocated(m->cxt, true) + size > m->limit;
}

/* The values as one string: each a kind byte, then its length and bytes. */
static void
mf_memo_make_key(MfScanMemo *m, int nparams, const char **values)
{
	/* the buffer grows in its own context (repalloc) */
	resetStringInfo(&m->key);
	for (int i = 0; i < nparams; i++)
	{
		if (values[i] == NULL)
			appendStringInfoChar(&m->key, 'N');
		else
		{
			uint32		len = (uint32) strlen(values[i]);

			appendStringInfoChar(&m->key, 'V');
			appendBinaryStringInfo(&m->key, (const char *) &len, sizeof(len));
			appendBinaryStringInfo(&m->key, values[i], len);
		}
	}
}

static void
mf_memo_drop(MfScanMemo *m, MfMemoEntry *e)
{
	MfMemoKey	key = e->key;

	for (int i = 0; i < e->nrows; i++)
	{
		m->used -= GetMemoryChunkSpace(e->rows[i]);
		pfree(e->rows[i]);
	}
	if (e->rows != NULL)
	{
		m->used -= GetMemoryChunkSpace(e->rows);
		pfree(e->rows);
	}
	hash_search(m->entries, &key, HASH_REMOVE, NULL);
	m->used -= GetMemoryChunkSpace(key.bytes);
	pfree(key.bytes);
}

/*
 * An empty entry for the current key (m->key, not in the table), or NULL
 * where there is no room for it.
 */
static MfMemoEntry *
mf_memo_new_entry(MfScanMemo *m)
{
	MfMemoKey	key;
	MfMemoEntry *e;
	bool		found;

	if (mf_memo_over(m, m->key.len + sizeof(MfMemoEntry)))
		return NULL;
	key.len = m->key.len;
	key.bytes = MemoryContextAlloc(m->cxt, Max(key.len, 1));
	memcpy(key.bytes, m->key.data, key.len);
	m->used += GetMemoryChunkSpace(key.bytes);
	e = hash_search(m->entries, &key, HASH_ENTER, &found);
	Assert(!found);
	e->rows = NULL;
	e->nrows = e->cap = 0;
	e->complete = false;
	return e;
}

/*
 * A rescan with these values: true when its rows are kept (mf_memo_next
 * hands them out); else the caller reads them from the remote, and they are
 * kept as they come (mf_memo_record) if there is room.
 */
bool
mf_memo_begin(MfScanMemo *m, int nparams, const char **values)
{
	MfMemoKey	key;
	MfMemoEntry *e;

	mf_memo_abandon(m);

	/* the remote's rows may have changed since: start afresh */
	if (m->epoch != mf_remote_data_epoch())
	{
		MemoryContextReset(m->cxt);
		mf_memo_new_table(m);
	}

	mf_memo_make_key(m, nparams, values);
	key.bytes = m->key.data;
	key.len = m->key.len;
	e = hash_search(m->entries, &key, HASH_FIND, NULL);
	if (e != NULL && e->complete)
	{
		m->replaying = e;
		m->replay_pos = 0;
		m->hits++;
		return true;
	}
	/* an entry left unfilled (its priming statement failed) goes */
	if (e != NULL)
		mf_memo_drop(m, e);
	m->recording = mf_memo_new_entry(m);
	return false;
}

/* The next kept row's values (ncols of them), or NULL at the end. */
const char *const *
mf_memo_next(MfScanMemo *m)
{
	Assert(m->replaying != NULL);
	if (m->replay_pos >= m->replaying->nrows)
		return NULL;
	return (const char *const *) m->replaying->rows[m->replay_pos++];
}

bool
mf_memo_recording(MfScanMemo *m)
{
	return m != NULL && m->recording != NULL;
}

bool
mf_memo_replaying(MfScanMemo *m)
{
	return m != NULL && m->replaying != NULL;
}

/* No room for this rescan's rows: they are read from the remote each time. */
static void
mf_memo_give_up(MfScanMemo *m)
{
	MfMemoEntry *e = m->recording;

	m->recording = NULL;
	mf_memo_drop(m, e);
}

/*
 * Keep a row's ncols values in e; false, with e dropped, where there is no
 * room (past hash_mem).
 */
static bool
mf_memo_add_row(MfScanMemo *m, MfMemoEntry *e, const char *const *values)
{
	Size		size = sizeof(char *) * m->ncols;
	char	  **row;
	char	   *p;

	for (int c = 0; c < m->ncols; c++)
		if (values[c] != NULL)
			size += strlen(values[c]) + 1;
	if (e->nrows == e->cap)
	{
		int			cap = e->cap == 0 ? 8 : e->cap * 2;
		char	 ***rows;

		if (mf_memo_over(m, sizeof(char **) * (Size) cap + size))
		{
			mf_memo_drop(m, e);
			return false;
		}
		rows = MemoryContextAllocHuge(m->cxt, sizeof(char **) * (Size) cap);
		if (e->rows != NULL)
		{
			memcpy(rows, e->rows, sizeof(char **) * e->nrows);
			m->used -= GetMemoryChunkSpace(e->rows);
			pfree(e->rows);
		}
		e->rows = rows;
		e->cap = cap;
		m->used += GetMemoryChunkSpace(rows);
	}
	if (mf_memo_over(m, size))
	{
		mf_memo_drop(m, e);
		return false;
	}
	row = MemoryContextAllocHuge(m->cxt, size);
	p = (char *) (row + m->ncols);
	for (int c = 0; c < m->ncols; c++)
	{
		if (values[c] == NULL)
			row[c] = NULL;
		else
		{
			size_t		len = strlen(values[c]) + 1;

			memcpy(p, values[c], len);
			row[c] = p;
			p += len;
		}
	}
	e->rows[e->nrows++] = row;
	m->used += GetMemoryChunkSpace(row);
	return true;
}

/* A row read from the remote, its ncols values: kept if this rescan's are. */
void
mf_memo_record(MfScanMemo *m, const char *const *values)
{
	if (m->recording != NULL && !mf_memo_add_row(m, m->recording, values))
		m->recording = NULL;
}

/* The scan reached its end: the rows kept are all of them. */
void
mf_memo_finish(MfScanMemo *m)
{
	if (m->recording != NULL)
		m->recording->complete = true;
	m->recording = NULL;
}

/* A rescan (or the end) before the scan's end: its partial rows go. */
void
mf_memo_abandon(MfScanMemo *m)
{
	if (m->recording != NULL)
		mf_memo_give_up(m);
	m->replaying = NULL;
}

/* ---------------------------------------------------------------------
 * Priming: rows read for values before any rescan asks for them
 * (read_ahead.c), one entry per set of values, filled in any order
 * ---------------------------------------------------------------------
 */

/*
 * An entry to fill for these values, or NULL where they have one already
 * (or one is being read) or there is no room.
 */
MfMemoEntry *
mf_memo_prime_entry(MfScanMemo *m, int nparams, const char **values)
{
	MfMemoKey	key;

	if (m->epoch != mf_remote_data_epoch() && m->recording == NULL &&
		m->replaying == NULL)
	{
		MemoryContextReset(m->cxt);
		mf_memo_new_table(m);
	}
	if (m->epoch != mf_remote_data_epoch())
		return NULL;
	mf_memo_make_key(m, nparams, values);
	key.bytes = m->key.data;
	key.len = m->key.len;
	if (hash_search(m->entries, &key, HASH_FIND, NULL) != NULL)
		return NULL;
	return mf_memo_new_entry(m);
}

/* A row for e; false, with e dropped, where there is no room. */
bool
mf_memo_prime_row(MfScanMemo *m, MfMemoEntry *e, const char *const *values)
{
	return mf_memo_add_row(m, e, values);
}

/* e holds all its rows now; or (complete false) its statement failed. */
void
mf_memo_prime_end(MfScanMemo *m, MfMemoEntry *e, bool complete)
{
	if (complete)
		e->complete = true;
	else
		mf_memo_drop(m, e);
}

long
mf_memo_hits(MfScanMemo *m)
{
	return m == NULL ? 0 : m->hits;
}
