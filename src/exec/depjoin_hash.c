/*-------------------------------------------------------------------------
 *
 * depjoin_hash.c
 *		The dependent join's hash table: a batch of X's rows held in groups
 *		by key, and the group an F row's key finds (depjoin_exec.c runs the
 *		join around it).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/tuptable.h"
#include "utils/datum.h"
#include "utils/memutils.h"

#include "exec/exec.h"
#include "exec/depjoin_state.h"

/*
 * The hash of a key's values, and whether it has them all: a key with a
 * NULL matches nothing.
 */
static bool
mf_depjoin_hash(MfDepJoinState *st, const Datum *values, const bool *nulls,
				uint32 *hash)
{
	uint32		h = 0;

	for (int c = 0; c < st->ncols; c++)
	{
		if (nulls[c])
			return false;
		h = hash_combine(h, DatumGetUInt32(FunctionCall1Coll(&st->hash_fn[c],
															 st->key_collation[c],
															 values[c])));
	}
	*hash = h;
	return true;
}

/* The group of the key, or -1. */
static int
mf_depjoin_find(MfDepJoinState *st, const Datum *values, uint32 h)
{
	if (st->nbuckets == 0)
		return -1;
	for (int g = st->buckets[h & (st->nbuckets - 1)]; g >= 0; g = st->groups[g].next_group)
	{
		int			c;

		if (st->groups[g].hash != h)
			continue;
		for (c = 0; c < st->ncols; c++)
		{
			if (!DatumGetBool(FunctionCall2Coll(&st->eq_fn[c], st->key_collation[c],
												st->groups[g].key[c], values[c])))
				break;
		}
		if (c == st->ncols)
			return g;
	}
	return -1;
}

/*
 * X's integer key as F's integer type: false when out of its range (no
 * row of F can then be equal).
 */
static bool
mf_depjoin_as_f_type(Oid xtype, Oid ftype, Datum *value)
{
	int64		v = xtype == INT2OID ? DatumGetInt16(*value) :
		xtype == INT4OID ? DatumGetInt32(*value) : DatumGetInt64(*value);

	switch (ftype)
	{
		case INT2OID:
			if (v < PG_INT16_MIN || v > PG_INT16_MAX)
				return false;
			*value = Int16GetDatum((int16) v);
			return true;
		case INT4OID:
			if (v < PG_INT32_MIN || v > PG_INT32_MAX)
				return false;
			*value = Int32GetDatum((int32) v);
			return true;
		default:
			*value = Int64GetDatum(v);
			return true;
	}
}

/* Hold a row of X, in its key's group (a new group for a new key). */
void
mf_depjoin_hold(MfDepJoinState *st, TupleTableSlot *slot)
{
	MemoryContext old = MemoryContextSwitchTo(st->xcxt);
	Datum		values[MF_DEPJOIN_MAX_COLS];
	bool		nulls[MF_DEPJOIN_MAX_COLS];
	int			row = st->nx;
	uint32		h;

	if (st->nx == st->xcap)
	{
		st->xcap = Max(64, st->xcap * 2);
		st->xrows = st->xrows ? repalloc_huge(st->xrows, sizeof(MinimalTuple) * st->xcap) :
			palloc(sizeof(MinimalTuple) * st->xcap);
		st->next_row = st->next_row ? repalloc_huge(st->next_row, sizeof(int) * st->xcap) :
			palloc(sizeof(int) * st->xcap);
		st->matched = st->matched ? repalloc_huge(st->matched, sizeof(bool) * st->xcap) :
			palloc(sizeof(bool) * st->xcap);
	}
	st->xrows[row] = ExecCopySlotMinimalTuple(slot);
	st->xbytes += GetMemoryChunkSpace(st->xrows[row]) +
		sizeof(MinimalTuple) + sizeof(int) + sizeof(bool);
	st->next_row[row] = -1;
	st->matched[row] = false;
	st->nx++;

	for (int c = 0; c < st->ncols; c++)
	{
		values[c] = slot_getattr(slot, st->x_key[c], &nulls[c]);
		if (!nulls[c] && st->x_type[c] != st->key_type[c] &&
			!mf_depjoin_as_f_type(st->x_type[c], st->key_type[c], &values[c]))
			nulls[c] = true;
	}

	/* a key with a NULL matches nothing: the row is only in the tail */
	if (mf_depjoin_hash(st, values, nulls, &h))
	{
		int			g;

		if (st->ngroups * 2 >= st->nbuckets)
		{
			/* grow the buckets and put every group in again */
			int			nb = Max(1024, st->nbuckets * 4);

			st->buckets = st->buckets ? repalloc_huge(st->buckets, sizeof(int) * nb) :
				palloc(sizeof(int) * nb);
			st->nbuckets = nb;
			for (int b = 0; b < nb; b++)
				st->buckets[b] = -1;
			for (int k = 0; k < st->ngroups; k++)
			{
				int			b = st->groups[k].hash & (nb - 1);

				st->groups[k].next_group = st->buckets[b];
				st->buckets[b] = k;
			}
		}
		g = mf_depjoin_find(st, values, h);
		if (g < 0)
		{
			int			b = h & (st->nbuckets - 1);

			if (st->ngroups == st->gcap)
			{
				st->gcap = Max(64, st->gcap * 2);
				st->groups = st->groups ? repalloc_huge(st->groups, sizeof(MfKeyGroup) * st->gcap) :
					palloc(sizeof(MfKeyGroup) * st->gcap);
			}
			g = st->ngroups++;
			st->xbytes += sizeof(MfKeyGroup) + 2 * sizeof(int);
			for (int c = 0; c < st->ncols; c++)
			{
				st->groups[g].key[c] = datumCopy(values[c], st->key_byval[c],
												 st->key_len[c]);
				if (!st->key_byval[c])
					st->xbytes += GetMemoryChunkSpace(DatumGetPointer(st->groups[g].key[c]));
			}
			st->groups[g].hash = h;
			st->groups[g].first_row = -1;
			st->groups[g].next_group = st->buckets[b];
			st->buckets[b] = g;
		}
		st->next_row[row] = st->groups[g].first_row;
		st->groups[g].first_row = row;
	}
	MemoryContextSwitchTo(old);
}

/* The group of X's rows whose key the F row in fslot has, or -1. */
int
mf_depjoin_probe(MfDepJoinState *st)
{
	Datum		values[MF_DEPJOIN_MAX_COLS];
	bool		nulls[MF_DEPJOIN_MAX_COLS];
	uint32		h;

	for (int c = 0; c < st->ncols; c++)
		values[c] = slot_getattr(st->fslot, st->f_key[c], &nulls[c]);
	if (!mf_depjoin_hash(st, values, nulls, &h))
		return -1;
	return mf_depjoin_find(st, values, h);
}
