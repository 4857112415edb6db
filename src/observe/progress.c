/*-------------------------------------------------------------------------
 *
 * progress.c
 *		multi_fdw_progress: each backend's foreign tables being read or
 *		written now, with their rows so far.
 *
 * Shared memory holds one block per backend (MaxBackends of them, found
 * by the backend's number), with a few rows each: a statement may read
 * and write several foreign tables at once (INSERT ... SELECT, a
 * partitioned target).  Only the owning backend writes its block, once
 * per batch (stats.c publishes), so there is no lock: the writer bumps a
 * change count before and after, and a reader copies the block again
 * until it saw an even count that did not move, as pg_stat_activity's
 * readers do.
 *
 * It needs the library in shared_preload_libraries; without it the view
 * is an error that says so (as pg_stat_statements is), rather than an
 * empty result that would pass for "nothing is running".
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "commands/dbcommands.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "observe/observe.h"

/* tables one backend reads or writes at once that are shown */
#define MF_PROGRESS_ROWS	8

typedef struct MfProgressRow
{
	uint64		ticket;			/* 0: free */
	Oid			userid;
	Oid			relid;
	char		server[NAMEDATALEN];
	char		relation[2 * NAMEDATALEN + 8];	/* schema-qualified, quoted */
	CmdType		operation;
	MfInsertMethod method;
	int64		rows_sent;
	int64		rows_received;
	TimestampTz started;
} MfProgressRow;

typedef struct MfProgressBlock
{
	uint32		changecount;	/* odd while the owner writes */
	int			pid;
	Oid			dbid;
	MfProgressRow rows[MF_PROGRESS_ROWS];
} MfProgressBlock;

static MfProgressBlock *mf_progress = NULL;
static uint64 mf_next_ticket = 0;

Size
mf_progress_shmem_size(void)
{
	return mul_size(MaxBackends, sizeof(MfProgressBlock));
}

/* under AddinShmemInitLock, from stats.c's startup hook */
void
mf_progress_shmem_init(void)
{
	bool		found;

	mf_progress = ShmemInitStruct("multi_fdw progress",
								  mf_progress_shmem_size(), &found);
	if (!found)
		memset(mf_progress, 0, mf_progress_shmem_size());
}

static MfProgressBlock *
mf_my_block(void)
{
	int			i = mf_backend_index();

	return mf_progress != NULL && i >= 0 ? &mf_progress[i] : NULL;
}

static void
mf_write_begin(volatile MfProgressBlock *b)
{
	b->changecount++;
	pg_write_barrier();
}

static void
mf_write_end(volatile MfProgressBlock *b)
{
	pg_write_barrier();
	b->changecount++;
}

/*
 * A row for a node that starts reading or writing rel; -1 when this
 * backend shows as many already.  The ticket tells the row's owner from a
 * later one, should an abort have freed it meanwhile.
 */
int
mf_progress_begin(const char *server, Oid userid, Relation rel,
				  CmdType operation, uint64 *ticket)
{
	volatile MfProgressBlock *b = mf_my_block();
	char	   *relation;

	*ticket = 0;
	if (b == NULL)
		return -1;
	relation = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
										  RelationGetRelationName(rel));
	for (int i = 0; i < MF_PROGRESS_ROWS; i++)
	{
		volatile MfProgressRow *r = &b->rows[i];

		if (r->ticket != 0)
			continue;
		mf_write_begin(b);
		b->pid = MyProcPid;
		b->dbid = MyDatabaseId;
		r->ticket = *ticket = ++mf_next_ticket;
		r->userid = userid;
		r->relid = RelationGetRelid(rel);
		strlcpy((char *) r->server, server, NAMEDATALEN);
		strlcpy((char *) r->relation, relation, sizeof(r->relation));
		r->operation = operation;
		r->method = MF_INSERT_AUTO;
		r->rows_sent = 0;
		r->rows_received = 0;
		r->started = GetCurrentTimestamp();
		mf_write_end(b);
		return i;
	}
	return -1;
}

void
mf_progress_update(int row, uint64 ticket, const MfCounters *c,
				   MfInsertMethod method)
{
	volatile MfProgressBlock *b = mf_my_block();
	volatile MfProgressRow *r;

	if (b == NULL || row < 0 || row >= MF_PROGRESS_ROWS)
		return;
	r = &b->rows[row];
	if (r->ticket != ticket)
		return;
	mf_write_begin(b);
	r->rows_sent = c->c[MF_C_ROWS_SENT];
	r->rows_received = c->c[MF_C_ROWS_RECEIVED];
	r->method = method;
	mf_write_end(b);
}

void
mf_progress_end(int row, uint64 ticket)
{
	volatile MfProgressBlock *b = mf_my_block();

	if (b == NULL || row < 0 || row >= MF_PROGRESS_ROWS ||
		b->rows[row].ticket != ticket)
		return;
	mf_write_begin(b);
	b->rows[row].ticket = 0;
	mf_write_end(b);
}

/* an abort: every row of this backend goes */
void
mf_progress_end_all(void)
{
	volatile MfProgressBlock *b = mf_my_block();

	if (b == NULL)
		return;
	mf_write_begin(b);
	for (int i = 0; i < MF_PROGRESS_ROWS; i++)
		b->rows[i].ticket = 0;
	mf_write_end(b);
}

/* A consistent copy of a block that another backend may be writing. */
static void
mf_read_block(volatile MfProgressBlock *b, MfProgressBlock *copy)
{
	for (;;)
	{
		uint32		before = b->changecount;
		uint32		after;

		pg_read_barrier();
		memcpy(copy, (const MfProgressBlock *) b, sizeof(MfProgressBlock));
		pg_read_barrier();
		after = b->changecount;
		if (before == after && (before & 1) == 0)
			return;
		CHECK_FOR_INTERRUPTS();
	}
}

static const char *
mf_operation_name(CmdType operation)
{
	switch (operation)
	{
		case CMD_INSERT:
			return "insert";
		case CMD_UPDATE:
			return "update";
		case CMD_DELETE:
			return "delete";
		default:
			return "scan";
	}
}

enum
{
	MF_PV_PID,
	MF_PV_DATABASE,
	MF_PV_USER,
	MF_PV_SERVER,
	MF_PV_RELID,
	MF_PV_RELATION,
	MF_PV_OPERATION,
	MF_PV_METHOD,
	MF_PV_ROWS_SENT,
	MF_PV_ROWS_RECEIVED,
	MF_PV_RATE,
	MF_PV_STARTED,
	MF_PV_NCOLS
};

PG_FUNCTION_INFO_V1(multi_fdw_progress);

Datum
multi_fdw_progress(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		read_all = has_privs_of_role(GetUserId(),
											 ROLE_PG_READ_ALL_STATS);
	TimestampTz now = GetCurrentTimestamp();
	MfProgressBlock copy;

	if (mf_progress == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("multi_fdw_progress must be loaded via \"shared_preload_libraries\""),
				 errhint("Without it, multi_fdw_stats shows this session's counters.")));

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < MaxBackends; i++)
	{
		mf_read_block(&mf_progress[i], &copy);
		for (int j = 0; j < MF_PROGRESS_ROWS; j++)
		{
			MfProgressRow *r = &copy.rows[j];
			Datum		values[MF_PV_NCOLS];
			bool		nulls[MF_PV_NCOLS];
			char	   *name;
			long		secs;
			int			usecs;
			double		elapsed;

			if (r->ticket == 0)
				continue;
			memset(nulls, 0, sizeof(nulls));
			values[MF_PV_PID] = Int32GetDatum(copy.pid);
			name = get_database_name(copy.dbid);
			values[MF_PV_DATABASE] = name ? CStringGetTextDatum(name) : (Datum) 0;
			nulls[MF_PV_DATABASE] = name == NULL;
			name = GetUserNameFromId(r->userid, true);
			values[MF_PV_USER] = name ? CStringGetTextDatum(name) : (Datum) 0;
			nulls[MF_PV_USER] = name == NULL;

			/* like pg_stat_progress_*: what another user does is theirs */
			if (!read_all && r->userid != GetUserId())
			{
				for (int k = MF_PV_SERVER; k < MF_PV_NCOLS; k++)
					nulls[k] = true;
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
									 values, nulls);
				continue;
			}
			values[MF_PV_SERVER] = CStringGetTextDatum(r->server);
			values[MF_PV_RELID] = ObjectIdGetDatum(r->relid);
			values[MF_PV_RELATION] = CStringGetTextDatum(r->relation);
			values[MF_PV_OPERATION] = CStringGetTextDatum(mf_operation_name(r->operation));
			if (r->method != MF_INSERT_AUTO)
				values[MF_PV_METHOD] = CStringGetTextDatum(mf_insert_method_name(r->method));
			else
				nulls[MF_PV_METHOD] = true;
			values[MF_PV_ROWS_SENT] = Int64GetDatum(r->rows_sent);
			values[MF_PV_ROWS_RECEIVED] = Int64GetDatum(r->rows_received);
			TimestampDifference(r->started, now, &secs, &usecs);
			elapsed = (double) secs + usecs / 1000000.0;
			values[MF_PV_RATE] =
				Float8GetDatum(elapsed > 0 ?
							   (double) (r->rows_sent + r->rows_received) / elapsed :
							   0.0);
			values[MF_PV_STARTED] = TimestampTzGetDatum(r->started);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values,
								 nulls);
		}
	}
	return (Datum) 0;
}
