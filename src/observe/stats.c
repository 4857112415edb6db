/*-------------------------------------------------------------------------
 *
 * stats.c
 *		Counters per foreign server and user: the multi_fdw_stats view,
 *		multi_fdw_stats_reset(), and the per-node figures of EXPLAIN
 *		ANALYZE.
 *
 * Counting is split by who can see the work.  The transports count round
 * trips, bytes, rows received and time waited into the MfWireStats of the
 * connection (transport.h); the core counts statements, rows sent,
 * batches and errors.  Both land in one slot per (server, user) in this
 * backend's memory, so that counting a row or a batch is an addition and
 * nothing else.  The slot's totals only grow; what was passed on is
 * remembered (flushed), and a flush passes on the difference:
 *
 *	- with multi_fdw in shared_preload_libraries, into a shared hash
 *	  keyed by (database, server, user), under a spinlock per entry (the
 *	  LWLock only guards the hash's shape), so that every backend sees the
 *	  cluster's figures (scope 'cluster');
 *	- without it, into the slot's own session figures (scope 'session').
 *
 * A flush happens when a node publishes (each batch of an insert, each
 * fetch of a scan), when it ends, and at the end of the transaction (for
 * the COMMIT's round trip): never per row.
 *
 * A plan node's own figures come from the same totals: the slot knows
 * which node used the connection last, and when another one starts using
 * it, what happened since goes to the first.  An abort frees nodes
 * without ending them, so (sub)transaction aborts forget the nodes
 * without touching them.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_database.h"
#include "commands/dbcommands.h"
#include "foreign/foreign.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "observe/observe.h"

/* what last_error keeps of a message */
#define MF_LAST_ERROR_LEN	256

typedef struct MfStatsKey
{
	Oid			dbid;
	Oid			serverid;
	Oid			userid;
} MfStatsKey;

/* what a flush passes on, and what the view shows of one entry */
typedef struct MfStatsFigures
{
	MfCounters	c;
	char		last_error[MF_LAST_ERROR_LEN];	/* "" when none */
	TimestampTz last_error_time;
	TimestampTz stats_reset;
} MfStatsFigures;

struct MfStatsSlot
{
	MfStatsKey	key;			/* the hash key: dbid is this database */
	char		servername[NAMEDATALEN];
	MfWireStats wire;			/* the transports count here */
	MfCounters	core;			/* the core counts here */
	MfCounters	flushed;		/* the totals at the last flush */
	MfStatsFigures session;		/* without the preload: the view's figures */
	int64		connects;
	bool		error_due;		/* an error not flushed yet */
	char		last_error[MF_LAST_ERROR_LEN];
	TimestampTz last_error_time;

	MfNodeStats *node;			/* the node that used the connection last */
	MfCounters	node_mark;		/* the totals when it began to */
	MfNodeStats *nodes;			/* the nodes begun and not ended */
};

typedef struct MfSharedEntry
{
	MfStatsKey	key;
	slock_t		mutex;			/* guards everything below */
	char		servername[NAMEDATALEN];
	MfStatsFigures f;
} MfSharedEntry;

typedef struct MfSharedStats
{
	LWLock	   *lock;			/* the hash's entries, not their figures */
} MfSharedStats;

static int	mf_stats_max = 1000;
static HTAB *mf_slots = NULL;
static MfSharedStats *mf_shared = NULL;
static HTAB *mf_shared_hash = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void mf_stats_flush(MfStatsSlot *slot);

/* ---------------------------------------------------------------------
 * Shared memory
 * ---------------------------------------------------------------------
 */

static Size
mf_stats_shmem_size(void)
{
	return add_size(MAXALIGN(sizeof(MfSharedStats)),
					hash_estimate_size(mf_stats_max, sizeof(MfSharedEntry)));
}

static void
mf_stats_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(mf_stats_shmem_size());
	RequestAddinShmemSpace(mf_progress_shmem_size());
	RequestNamedLWLockTranche("multi_fdw_stats", 1);
}

static void
mf_stats_shmem_startup(void)
{
	bool		found;
	HASHCTL		ctl;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	mf_shared = ShmemInitStruct("multi_fdw stats", sizeof(MfSharedStats),
								&found);
	if (!found)
		mf_shared->lock = &(GetNamedLWLockTranche("multi_fdw_stats"))->lock;
	ctl.keysize = sizeof(MfStatsKey);
	ctl.entrysize = sizeof(MfSharedEntry);
	mf_shared_hash = ShmemInitHash("multi_fdw stats hash", mf_stats_max,
								   mf_stats_max, &ctl,
								   HASH_ELEM | HASH_BLOBS);
	mf_progress_shmem_init();
	LWLockRelease(AddinShmemInitLock);
}

/* Are the counters cluster-wide (the library was preloaded)? */
bool
mf_stats_shared(void)
{
	return mf_shared != NULL;
}

static void mf_stats_xact_callback(XactEvent event, void *arg);
static void mf_stats_subxact_callback(SubXactEvent event,
									  SubTransactionId mySubid,
									  SubTransactionId parentSubid,
									  void *arg);

void
mf_stats_init(void)
{
	/* a setting of the postmaster's can only come with the preload */
	if (process_shared_preload_libraries_in_progress)
	{
		DefineCustomIntVariable("multi_fdw.stats_max",
								"Entries (database, server, user) the cluster-wide counters keep.",
								"Counts for further entries are dropped until a reset.",
								&mf_stats_max, 1000, 10, INT_MAX / 2,
								PGC_POSTMASTER, 0, NULL, NULL, NULL);
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = mf_stats_shmem_request;
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = mf_stats_shmem_startup;
	}
	RegisterXactCallback(mf_stats_xact_callback, NULL);
	RegisterSubXactCallback(mf_stats_subxact_callback, NULL);
}

/* ---------------------------------------------------------------------
 * The backend's slots
 * ---------------------------------------------------------------------
 */

MfStatsSlot *
mf_stats_slot(Oid serverid, Oid userid, const char *servername)
{
	MfStatsKey	key;
	MfStatsSlot *slot;
	bool		found;

	if (mf_slots == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(MfStatsKey);
		ctl.entrysize = sizeof(MfStatsSlot);
		mf_slots = hash_create("multi_fdw stats", 8, &ctl,
							   HASH_ELEM | HASH_BLOBS);
	}
	memset(&key, 0, sizeof(key));
	key.dbid = MyDatabaseId;
	key.serverid = serverid;
	key.userid = userid;
	slot = hash_search(mf_slots, &key, HASH_ENTER, &found);
	if (!found)
	{
		memset((char *) slot + sizeof(MfStatsKey), 0,
			   sizeof(MfStatsSlot) - sizeof(MfStatsKey));
		slot->session.stats_reset = GetCurrentTimestamp();
	}
	strlcpy(slot->servername, servername, NAMEDATALEN);
	return slot;
}

MfWireStats *
mf_stats_wire(MfStatsSlot *slot)
{
	return &slot->wire;
}

/* The totals so far: the core's counts and the transports'. */
static void
mf_stats_total(MfStatsSlot *slot, MfCounters *t)
{
	*t = slot->core;
	t->c[MF_C_ROUND_TRIPS] += (int64) slot->wire.round_trips;
	t->c[MF_C_BYTES_SENT] += (int64) slot->wire.bytes_sent;
	t->c[MF_C_BYTES_RECEIVED] += (int64) slot->wire.bytes_received;
	t->c[MF_C_ROWS_RECEIVED] += (int64) slot->wire.rows_received;
	t->c[MF_C_WAIT_US] += (int64) slot->wire.wait_us;
	/* links a transport replaced by itself (transport.h's begin) */
	t->c[MF_C_RECONNECTS] += (int64) slot->wire.reconnects;
}

/* A session's second connection to the same server and user is a reconnect. */
void
mf_stats_connected(MfStatsSlot *slot)
{
	if (slot->connects++ > 0)
		slot->core.c[MF_C_RECONNECTS]++;
}

void
mf_stats_error(MfStatsSlot *slot, const char *message)
{
	if (slot == NULL)
		return;
	slot->core.c[MF_C_ERRORS]++;
	strlcpy(slot->last_error, message, MF_LAST_ERROR_LEN);
	slot->last_error_time = GetCurrentTimestamp();
	slot->error_due = true;
}

/* the option insert_method's values, in the order of MfInsertMethod */
const char *const mf_insert_method_names[] = {"auto", "values", "row", "copy",
"pipeline", "array", NULL};

const char *
mf_insert_method_name(MfInsertMethod method)
{
	return mf_insert_method_names[method];
}

void
mf_stats_slot_count(MfStatsSlot *slot, MfCounter counter, int64 n)
{
	if (slot != NULL)
		slot->core.c[counter] += n;
}

/* rows handed over in a batch, by the method that sent them */
void
mf_stats_slot_count_rows(MfStatsSlot *slot, MfInsertMethod method, int64 rows)
{
	MfCounter	by;

	if (slot == NULL)
		return;
	switch (method)
	{
		case MF_INSERT_ROW:
			by = MF_C_ROWS_ROW;
			break;
		case MF_INSERT_COPY:
			by = MF_C_ROWS_COPY;
			break;
		case MF_INSERT_PIPELINE:
			by = MF_C_ROWS_PIPELINE;
			break;
		case MF_INSERT_ARRAY:
			by = MF_C_ROWS_ARRAY;
			break;
		default:
			by = MF_C_ROWS_VALUES;
			break;
	}
	slot->core.c[MF_C_ROWS_SENT] += rows;
	slot->core.c[by] += rows;
}

/* ---------------------------------------------------------------------
 * Plan nodes
 * ---------------------------------------------------------------------
 */

/* What happened on the connection since the node began to use it is its. */
static void
mf_stats_fold(MfStatsSlot *slot)
{
	MfCounters	t;

	if (slot->node == NULL)
		return;
	mf_stats_total(slot, &t);
	for (int i = 0; i < MF_NCOUNTERS; i++)
	{
		slot->node->c.c[i] += t.c[i] - slot->node_mark.c[i];
		slot->node_mark.c[i] = t.c[i];
	}
}

void
mf_stats_node_begin_slot(MfNodeStats *ns, MfStatsSlot *slot, Relation rel,
						 CmdType operation)
{
	memset(ns, 0, sizeof(*ns));
	ns->progress = -1;
	ns->method = MF_INSERT_AUTO;
	if (slot == NULL)
		return;
	ns->slot = slot;
	ns->next = slot->nodes;
	slot->nodes = ns;
	if (mf_shared != NULL && rel != NULL)
		ns->progress = mf_progress_begin(slot->servername, slot->key.userid,
										 rel, operation, &ns->ticket);
}

void
mf_stats_node_use_slow(MfNodeStats *ns)
{
	MfStatsSlot *slot = ns->slot;

	if (slot->node == ns)
		return;
	mf_stats_fold(slot);
	if (slot->node == NULL)
		mf_stats_total(slot, &slot->node_mark);
	slot->node = ns;
}

/* A batch is done: the node's figures where others can see them. */
void
mf_stats_node_publish(MfNodeStats *ns)
{
	MfStatsSlot *slot = ns->slot;

	if (slot == NULL)
		return;
	if (slot->node == ns)
		mf_stats_fold(slot);
	if (ns->progress >= 0)
		mf_progress_update(ns->progress, ns->ticket, &ns->c, ns->method);
	mf_stats_flush(slot);
}

void
mf_stats_node_end(MfNodeStats *ns)
{
	MfStatsSlot *slot = ns->slot;
	MfNodeStats **p;

	if (slot == NULL)
		return;
	if (slot->node == ns)
	{
		mf_stats_fold(slot);
		slot->node = NULL;
	}
	for (p = &slot->nodes; *p != NULL; p = &(*p)->next)
		if (*p == ns)
		{
			*p = ns->next;
			break;
		}
	if (ns->progress >= 0)
		mf_progress_end(ns->progress, ns->ticket);
	ns->progress = -1;
	mf_stats_flush(slot);
	ns->slot = NULL;
}

/*
 * Forget every node: an abort frees them without their end.  Their
 * progress rows go too (progress.c's, which are this backend's).
 */
static void
mf_stats_forget_nodes(void)
{
	HASH_SEQ_STATUS scan;
	MfStatsSlot *slot;

	if (mf_shared != NULL)
		mf_progress_end_all();
	if (mf_slots == NULL)
		return;
	hash_seq_init(&scan, mf_slots);
	while ((slot = hash_seq_search(&scan)) != NULL)
	{
		slot->node = NULL;
		slot->nodes = NULL;
	}
}

/* EXPLAIN ANALYZE: what this node cost on the remote */
void
mf_stats_explain(MfNodeStats *ns, ExplainState *es)
{
	const int64 *c = ns->c.c;

	if (ns->slot != NULL && ns->slot->node == ns)
		mf_stats_fold(ns->slot);
	if (es->format == EXPLAIN_FORMAT_TEXT)
	{
		appendStringInfoSpaces(es->str, es->indent * 2);
		appendStringInfo(es->str,
						 "Remote: statements=" INT64_FORMAT
						 " round trips=" INT64_FORMAT
						 " rows sent=" INT64_FORMAT
						 " received=" INT64_FORMAT
						 " bytes sent=" INT64_FORMAT
						 " received=" INT64_FORMAT "\n",
						 c[MF_C_STATEMENTS], c[MF_C_ROUND_TRIPS],
						 c[MF_C_ROWS_SENT], c[MF_C_ROWS_RECEIVED],
						 c[MF_C_BYTES_SENT], c[MF_C_BYTES_RECEIVED]);
	}
	else
	{
		ExplainPropertyInteger("Remote Statements", NULL,
							   c[MF_C_STATEMENTS], es);
		ExplainPropertyInteger("Remote Round Trips", NULL,
							   c[MF_C_ROUND_TRIPS], es);
		ExplainPropertyInteger("Remote Rows Sent", NULL,
							   c[MF_C_ROWS_SENT], es);
		ExplainPropertyInteger("Remote Rows Received", NULL,
							   c[MF_C_ROWS_RECEIVED], es);
		ExplainPropertyInteger("Remote Bytes Sent", NULL,
							   c[MF_C_BYTES_SENT], es);
		ExplainPropertyInteger("Remote Bytes Received", NULL,
							   c[MF_C_BYTES_RECEIVED], es);
	}
	/* a time is never the same twice: only where the user asked for times */
	if (es->timing)
		ExplainPropertyFloat("Remote Wait Time", "ms",
							 (double) c[MF_C_WAIT_US] / 1000.0, 3, es);
	if (ns->method != MF_INSERT_AUTO)
		ExplainPropertyText("Insert Method Used",
							mf_insert_method_name(ns->method), es);
}

/* ---------------------------------------------------------------------
 * Flushing
 * ---------------------------------------------------------------------
 */

static void
mf_figures_add(MfStatsFigures *f, const MfCounters *delta, MfStatsSlot *slot)
{
	for (int i = 0; i < MF_NCOUNTERS; i++)
		f->c.c[i] += delta->c[i];
	if (slot->error_due)
	{
		memcpy(f->last_error, slot->last_error, MF_LAST_ERROR_LEN);
		f->last_error_time = slot->last_error_time;
	}
}

static MfSharedEntry *
mf_shared_entry(const MfStatsKey *key, const char *servername)
{
	MfSharedEntry *e;
	bool		found;

	LWLockAcquire(mf_shared->lock, LW_SHARED);
	e = hash_search(mf_shared_hash, key, HASH_FIND, NULL);
	LWLockRelease(mf_shared->lock);
	if (e != NULL)
		return e;

	LWLockAcquire(mf_shared->lock, LW_EXCLUSIVE);
	e = hash_search(mf_shared_hash, key, HASH_ENTER_NULL, &found);
	if (e != NULL && !found)
	{
		SpinLockInit(&e->mutex);
		strlcpy(e->servername, servername, NAMEDATALEN);
		memset(&e->f, 0, sizeof(e->f));
		e->f.stats_reset = GetCurrentTimestamp();
	}
	LWLockRelease(mf_shared->lock);
	return e;
}

static void
mf_stats_flush(MfStatsSlot *slot)
{
	MfCounters	t;
	MfCounters	delta;
	bool		any = slot->error_due;

	mf_stats_total(slot, &t);
	for (int i = 0; i < MF_NCOUNTERS; i++)
	{
		delta.c[i] = t.c[i] - slot->flushed.c[i];
		any |= delta.c[i] != 0;
	}
	if (!any)
		return;

	if (mf_shared != NULL)
	{
		MfSharedEntry *e = mf_shared_entry(&slot->key, slot->servername);

		/* a full hash drops the counts: better than blocking the load */
		if (e != NULL)
		{
			SpinLockAcquire(&e->mutex);
			mf_figures_add(&e->f, &delta, slot);
			SpinLockRelease(&e->mutex);
		}
	}
	else
		mf_figures_add(&slot->session, &delta, slot);
	slot->flushed = t;
	slot->error_due = false;
}

static void
mf_stats_flush_all(void)
{
	HASH_SEQ_STATUS scan;
	MfStatsSlot *slot;

	if (mf_slots == NULL)
		return;
	hash_seq_init(&scan, mf_slots);
	while ((slot = hash_seq_search(&scan)) != NULL)
		mf_stats_flush(slot);
}

/*
 * The transaction's end: the COMMIT's traffic is counted (the nodes ended
 * before it), and after an abort the nodes are gone.  Called by
 * connection.c once its own callback has ended the remote transactions.
 */
void
mf_stats_xact_end(void)
{
	mf_stats_flush_all();
}

static void
mf_stats_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
		mf_stats_forget_nodes();
}

static void
mf_stats_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
						  SubTransactionId parentSubid, void *arg)
{
	/*
	 * A node of the outer levels may still be running; forgetting it only
	 * loses it what happens until it next uses its connection.
	 */
	if (event == SUBXACT_EVENT_ABORT_SUB)
		mf_stats_forget_nodes();
}

/* ---------------------------------------------------------------------
 * The view and the reset
 * ---------------------------------------------------------------------
 */

/* Columns of multi_fdw_stats(), in order. */
enum
{
	MF_SV_SERVERID,
	MF_SV_SERVER,
	MF_SV_USERID,
	MF_SV_USER,
	MF_SV_DBID,
	MF_SV_DATABASE,
	MF_SV_STATEMENTS,
	MF_SV_ROWS_SENT,
	MF_SV_ROWS_RECEIVED,
	MF_SV_BATCHES,
	MF_SV_ROUND_TRIPS,
	MF_SV_BYTES_SENT,
	MF_SV_BYTES_RECEIVED,
	MF_SV_WAIT,
	MF_SV_ERRORS,
	MF_SV_RECONNECTS,
	MF_SV_ROWS_VALUES,
	MF_SV_ROWS_ROW,
	MF_SV_ROWS_COPY,
	MF_SV_ROWS_PIPELINE,
	MF_SV_ROWS_ARRAY,
	MF_SV_LAST_ERROR,
	MF_SV_LAST_ERROR_TIME,
	MF_SV_STATS_RESET,
	MF_SV_SCOPE,
	MF_SV_NCOLS
};

/* May the current user see what user's errors say? */
static bool
mf_stats_may_read(Oid userid)
{
	return userid == GetUserId() ||
		has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_STATS);
}

/*
 * May the current user see a row at all?  pg_stat_activity's rule: another
 * role's servers, names and traffic, and those of a database the user may
 * not connect to, only with the privileges of pg_read_all_stats.
 */
static bool
mf_stats_may_see(const MfStatsKey *key)
{
	Oid			me = GetUserId();

	if (has_privs_of_role(me, ROLE_PG_READ_ALL_STATS))
		return true;
	if (!has_privs_of_role(me, key->userid))
		return false;
	/* a dropped database: nobody but pg_read_all_stats sees its rows */
	if (key->dbid != MyDatabaseId &&
		!SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(key->dbid)))
		return false;
	return key->dbid == MyDatabaseId ||
		mf_database_aclcheck(key->dbid, me, ACL_CONNECT) == ACLCHECK_OK;
}

/* The server's name now, where it is this database's; else as counted. */
static char *
mf_stats_server_name(Oid dbid, Oid serverid, const char *counted)
{
	if (dbid == MyDatabaseId)
	{
		ForeignServer *server = GetForeignServerExtended(serverid,
														 FSV_MISSING_OK);

		if (server != NULL)
			return server->servername;
	}
	return pstrdup(counted);
}

static void
mf_stats_put_row(Tuplestorestate *ts, TupleDesc desc, const MfStatsKey *key,
				 const char *servername, const MfStatsFigures *f,
				 const char *scope)
{
	Datum		values[MF_SV_NCOLS];
	bool		nulls[MF_SV_NCOLS];
	const int64 *c = f->c.c;
	char	   *user;
	char	   *db;
	static const struct
	{
		int			col;
		MfCounter	counter;
	}			ints[] =
	{
		{MF_SV_STATEMENTS, MF_C_STATEMENTS},
		{MF_SV_ROWS_SENT, MF_C_ROWS_SENT},
		{MF_SV_ROWS_RECEIVED, MF_C_ROWS_RECEIVED},
		{MF_SV_BATCHES, MF_C_BATCHES},
		{MF_SV_ROUND_TRIPS, MF_C_ROUND_TRIPS},
		{MF_SV_BYTES_SENT, MF_C_BYTES_SENT},
		{MF_SV_BYTES_RECEIVED, MF_C_BYTES_RECEIVED},
		{MF_SV_ERRORS, MF_C_ERRORS},
		{MF_SV_RECONNECTS, MF_C_RECONNECTS},
		{MF_SV_ROWS_VALUES, MF_C_ROWS_VALUES},
		{MF_SV_ROWS_ROW, MF_C_ROWS_ROW},
		{MF_SV_ROWS_COPY, MF_C_ROWS_COPY},
		{MF_SV_ROWS_PIPELINE, MF_C_ROWS_PIPELINE},
		{MF_SV_ROWS_ARRAY, MF_C_ROWS_ARRAY},
	};

	if (!mf_stats_may_see(key))
		return;
	memset(nulls, 0, sizeof(nulls));
	values[MF_SV_SERVERID] = ObjectIdGetDatum(key->serverid);
	values[MF_SV_SERVER] = CStringGetTextDatum(mf_stats_server_name(key->dbid,
																	key->serverid,
																	servername));
	values[MF_SV_USERID] = ObjectIdGetDatum(key->userid);
	user = GetUserNameFromId(key->userid, true);
	if (user != NULL)
		values[MF_SV_USER] = CStringGetTextDatum(user);
	else
		nulls[MF_SV_USER] = true;
	values[MF_SV_DBID] = ObjectIdGetDatum(key->dbid);
	db = get_database_name(key->dbid);
	if (db != NULL)
		values[MF_SV_DATABASE] = CStringGetTextDatum(db);
	else
		nulls[MF_SV_DATABASE] = true;
	for (int i = 0; i < (int) lengthof(ints); i++)
		values[ints[i].col] = Int64GetDatum(c[ints[i].counter]);
	values[MF_SV_WAIT] = Float8GetDatum((double) c[MF_C_WAIT_US] / 1000.0);

	/* an error's text may quote another user's data */
	if (f->last_error[0] == '\0')
		nulls[MF_SV_LAST_ERROR] = nulls[MF_SV_LAST_ERROR_TIME] = true;
	else
	{
		values[MF_SV_LAST_ERROR] =
			CStringGetTextDatum(mf_stats_may_read(key->userid) ?
								f->last_error : "<insufficient privilege>");
		values[MF_SV_LAST_ERROR_TIME] = TimestampTzGetDatum(f->last_error_time);
	}
	values[MF_SV_STATS_RESET] = TimestampTzGetDatum(f->stats_reset);
	values[MF_SV_SCOPE] = CStringGetTextDatum(scope);
	tuplestore_putvalues(ts, desc, values, nulls);
}

PG_FUNCTION_INFO_V1(multi_fdw_stats);

Datum
multi_fdw_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	mf_stats_flush_all();

	if (mf_shared != NULL)
	{
		HASH_SEQ_STATUS scan;
		MfSharedEntry *e;
		List	   *copies = NIL;
		ListCell   *lc;

		/* copied under the locks, turned into rows (catalog reads) after */
		LWLockAcquire(mf_shared->lock, LW_SHARED);
		hash_seq_init(&scan, mf_shared_hash);
		while ((e = hash_seq_search(&scan)) != NULL)
		{
			MfSharedEntry *copy = palloc(sizeof(MfSharedEntry));

			SpinLockAcquire(&e->mutex);
			memcpy(copy, e, sizeof(MfSharedEntry));
			SpinLockRelease(&e->mutex);
			copies = lappend(copies, copy);
		}
		LWLockRelease(mf_shared->lock);
		foreach(lc, copies)
		{
			MfSharedEntry *copy = lfirst(lc);

			mf_stats_put_row(rsinfo->setResult, rsinfo->setDesc, &copy->key,
							 copy->servername, &copy->f, "cluster");
		}
	}
	else if (mf_slots != NULL)
	{
		HASH_SEQ_STATUS scan;
		MfStatsSlot *slot;

		hash_seq_init(&scan, mf_slots);
		while ((slot = hash_seq_search(&scan)) != NULL)
			mf_stats_put_row(rsinfo->setResult, rsinfo->setDesc, &slot->key,
							 slot->servername, &slot->session, "session");
	}
	return (Datum) 0;
}

static void
mf_figures_reset(MfStatsFigures *f, TimestampTz now)
{
	memset(f, 0, sizeof(*f));
	f->stats_reset = now;
}

/*
 * multi_fdw_stats_reset(server): every entry of the server (in this
 * database), or every entry when NULL.  Superuser only unless granted
 * (the extension script revokes it from PUBLIC).
 */
PG_FUNCTION_INFO_V1(multi_fdw_stats_reset);

Datum
multi_fdw_stats_reset(PG_FUNCTION_ARGS)
{
	Oid			serverid = InvalidOid;
	TimestampTz now = GetCurrentTimestamp();

	if (!PG_ARGISNULL(0))
		serverid = GetForeignServerByName(text_to_cstring(PG_GETARG_TEXT_PP(0)),
										  false)->serverid;

	/* what this backend counted before the reset is reset too */
	mf_stats_flush_all();

	if (mf_shared != NULL)
	{
		HASH_SEQ_STATUS scan;
		MfSharedEntry *e;

		LWLockAcquire(mf_shared->lock, LW_SHARED);
		hash_seq_init(&scan, mf_shared_hash);
		while ((e = hash_seq_search(&scan)) != NULL)
		{
			if (OidIsValid(serverid) &&
				(e->key.serverid != serverid || e->key.dbid != MyDatabaseId))
				continue;
			SpinLockAcquire(&e->mutex);
			mf_figures_reset(&e->f, now);
			SpinLockRelease(&e->mutex);
		}
		LWLockRelease(mf_shared->lock);
	}
	else if (mf_slots != NULL)
	{
		HASH_SEQ_STATUS scan;
		MfStatsSlot *slot;

		hash_seq_init(&scan, mf_slots);
		while ((slot = hash_seq_search(&scan)) != NULL)
			if (!OidIsValid(serverid) || slot->key.serverid == serverid)
				mf_figures_reset(&slot->session, now);
	}
	PG_RETURN_VOID();
}
