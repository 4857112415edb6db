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
 * The remote statement holds only what the dialect ships, which never
 * includes a volatile expression, and within one statement the rows it
 * would return for the same values are the same: the remote transaction
 * is the one the statement started (the statement's own changes through
 * the gateway aside, which a local table's scan would not see either).
 * What is kept is the remote rows as formed tuples; the node's local
 * conditions and projection run again on each, as for rows read anew.
 *
 * Rows are kept only from the first rescan on (a scan that is never
 * rescanned copies nothing), only for a scan that reached its end (a
 * subquery under EXISTS or LIMIT stops early: those rows are dropped), and
 * only while all that is kept stays within hash_mem, as for Memoize and a
 * hash join; past it, new values are read from the remote as before.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
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

typedef struct MfMemoEntry
{
	MfMemoKey	key;			/* first: dynahash's key */
	HeapTuple  *rows;
	int			nrows;
	int			cap;
	bool		complete;		/* the scan reached its end */
} MfMemoEntry;

struct MfScanMemo
{
	MemoryContext cxt;
	HTAB	   *entries;
	Size		used;			/* bytes of keys and rows kept */
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

MfScanMemo *
mf_memo_create(MemoryContext parent)
{
	MfScanMemo *m;
	HASHCTL		ctl;
	MemoryContext cxt;

	cxt = AllocSetContextCreate(parent, "multi_fdw rescan rows",
								ALLOCSET_DEFAULT_SIZES);
	m = MemoryContextAllocZero(cxt, sizeof(MfScanMemo));
	m->cxt = cxt;
	m->limit = get_hash_memory_limit();
	ctl.keysize = sizeof(MfMemoKey);
	ctl.entrysize = sizeof(MfMemoEntry);
	ctl.hash = mf_memo_hash;
	ctl.match = mf_memo_match;
	ctl.hcxt = cxt;
	m->entries = hash_create("multi_fdw rescan rows", 64, &ctl,
							 HASH_ELEM | HASH_FUNCTION | HASH_COMPARE |
							 HASH_CONTEXT);
	{
		MemoryContext old = MemoryContextSwitchTo(cxt);

		initStringInfo(&m->key);
		MemoryContextSwitchTo(old);
	}
	return m;
}

/* The values as one string: each a kind byte, then its length and bytes. */
static void
mf_memo_make_key(MfScanMemo *m, int nparams, const char **values)
{
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
		m->used -= HEAPTUPLESIZE + e->rows[i]->t_len;
		heap_freetuple(e->rows[i]);
	}
	if (e->rows != NULL)
	{
		m->used -= e->cap * sizeof(HeapTuple);
		pfree(e->rows);
	}
	hash_search(m->entries, &key, HASH_REMOVE, NULL);
	m->used -= key.len + sizeof(MfMemoEntry);
	pfree(key.bytes);
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
	bool		found;

	mf_memo_abandon(m);
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
	if (m->used + key.len + sizeof(MfMemoEntry) > m->limit)
		return false;
	key.bytes = MemoryContextAlloc(m->cxt, key.len + 1);
	memcpy(key.bytes, m->key.data, key.len);
	e = hash_search(m->entries, &key, HASH_ENTER, &found);
	Assert(!found);
	e->rows = NULL;
	e->nrows = e->cap = 0;
	e->complete = false;
	m->used += key.len + sizeof(MfMemoEntry);
	m->recording = e;
	return false;
}

/* The next kept row, or NULL at the end. */
HeapTuple
mf_memo_next(MfScanMemo *m)
{
	Assert(m->replaying != NULL);
	if (m->replay_pos >= m->replaying->nrows)
		return NULL;
	return m->replaying->rows[m->replay_pos++];
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

/* A row read from the remote: kept if this rescan's rows are. */
void
mf_memo_record(MfScanMemo *m, HeapTuple tuple)
{
	MfMemoEntry *e = m->recording;
	Size		size;

	if (e == NULL)
		return;
	size = HEAPTUPLESIZE + tuple->t_len;
	if (e->nrows == e->cap)
	{
		int			cap = e->cap == 0 ? 4 : e->cap * 2;

		size += (cap - e->cap) * sizeof(HeapTuple);
		if (m->used + size > m->limit)
		{
			/* no room: these values are read from the remote each time */
			m->recording = NULL;
			mf_memo_drop(m, e);
			return;
		}
		e->rows = e->rows == NULL ?
			MemoryContextAlloc(m->cxt, cap * sizeof(HeapTuple)) :
			repalloc(e->rows, cap * sizeof(HeapTuple));
		m->used += (cap - e->cap) * sizeof(HeapTuple);
		e->cap = cap;
		size = HEAPTUPLESIZE + tuple->t_len;
	}
	if (m->used + size > m->limit)
	{
		m->recording = NULL;
		mf_memo_drop(m, e);
		return;
	}
	{
		MemoryContext old = MemoryContextSwitchTo(m->cxt);

		e->rows[e->nrows++] = heap_copytuple(tuple);
		MemoryContextSwitchTo(old);
	}
	m->used += size;
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
		mf_memo_drop(m, m->recording);
	m->recording = NULL;
	m->replaying = NULL;
}

long
mf_memo_hits(MfScanMemo *m)
{
	return m == NULL ? 0 : m->hits;
}
