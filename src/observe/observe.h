/*-------------------------------------------------------------------------
 *
 * observe.h
 *		The observe layer: counters per foreign server and user (stats.c)
 *		and what each backend is reading or writing now (progress.c).  The
 *		layers above report to it through these calls; it calls none of
 *		theirs.  See docs/monitoring.md.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_OBSERVE_H
#define MF_OBSERVE_H

#include "postgres.h"

#include "nodes/nodes.h"
#include "utils/relcache.h"

#include "compat.h"
#include "transport/transport.h"

/* How rows were sent: an insert's method, counted and shown by name */
typedef enum MfInsertMethod
{
	MF_INSERT_AUTO = 0,
	MF_INSERT_VALUES,
	MF_INSERT_ROW,
	MF_INSERT_COPY,
	MF_INSERT_PIPELINE,
	MF_INSERT_ARRAY
} MfInsertMethod;

extern const char *const mf_insert_method_names[];	/* NULL-terminated */
extern const char *mf_insert_method_name(MfInsertMethod method);

typedef enum MfCounter
{
	MF_C_STATEMENTS,			/* data statements: a scan's query, an
								 * INSERT of a batch, a COPY, a row's
								 * UPDATE/DELETE, a direct modification, a
								 * statement of multi_fdw_exec or
								 * multi_fdw_query */
	MF_C_ROWS_SENT,				/* rows handed over to be written */
	MF_C_ROWS_RECEIVED,			/* rows the transports handed over */
	MF_C_BATCHES,				/* flushes of the insert buffer */
	MF_C_ROUND_TRIPS,			/* the transports' (transport.h) */
	MF_C_BYTES_SENT,
	MF_C_BYTES_RECEIVED,
	MF_C_WAIT_US,
	MF_C_ERRORS,				/* remote errors raised, failed connects */
	MF_C_RECONNECTS,			/* connections made again by a session */
	MF_C_ROWS_VALUES,			/* rows sent by each insert method */
	MF_C_ROWS_ROW,
	MF_C_ROWS_COPY,
	MF_C_ROWS_PIPELINE,
	MF_C_ROWS_ARRAY,
	MF_NCOUNTERS
} MfCounter;

typedef struct MfCounters
{
	int64		c[MF_NCOUNTERS];
} MfCounters;

/* One (server, user)'s counts in this backend; see stats.c. */
typedef struct MfStatsSlot MfStatsSlot;

/*
 * What one plan node did on its connection, for EXPLAIN ANALYZE and for
 * its progress row.  The traffic of a connection goes to the node that
 * used it last (mf_stats_node_use), so that a scan and a modification
 * sharing a connection are told apart.
 */
typedef struct MfNodeStats
{
	MfStatsSlot *slot;			/* NULL: not counted (EXPLAIN only) */
	MfCounters	c;
	MfInsertMethod method;		/* an insert's resolved method, or AUTO */
	int			progress;		/* its row in progress.c, -1: none */
	uint64		ticket;			/* ... while the row still has this ticket */
	struct MfNodeStats *next;	/* the slot's nodes in progress */
} MfNodeStats;

extern void mf_stats_init(void);
extern MfStatsSlot *mf_stats_slot(Oid serverid, Oid userid,
								  const char *servername);
extern MfWireStats *mf_stats_wire(MfStatsSlot *slot);
extern void mf_stats_connected(MfStatsSlot *slot);
extern void mf_stats_error(MfStatsSlot *slot, const char *message);
extern void mf_stats_slot_count(MfStatsSlot *slot, MfCounter counter,
								int64 n);
extern void mf_stats_slot_count_rows(MfStatsSlot *slot, MfInsertMethod method,
									 int64 rows);
extern void mf_stats_node_begin_slot(MfNodeStats *ns, MfStatsSlot *slot,
									 Relation rel, CmdType operation);
extern void mf_stats_node_use_slow(MfNodeStats *ns);
extern void mf_stats_node_publish(MfNodeStats *ns);
extern void mf_stats_node_end(MfNodeStats *ns);
extern void mf_stats_explain(MfNodeStats *ns, ExplainState *es);
extern void mf_stats_xact_end(void);
extern bool mf_stats_shared(void);

/* the node is about to talk on its connection: its traffic from now on */
static inline void
mf_stats_node_use(MfNodeStats *ns)
{
	if (ns->slot != NULL)
		mf_stats_node_use_slow(ns);
}

/* progress.c */
extern Size mf_progress_shmem_size(void);
extern void mf_progress_shmem_init(void);
extern int	mf_progress_begin(const char *server, Oid userid, Relation rel,
							  CmdType operation, uint64 *ticket);
extern void mf_progress_update(int row, uint64 ticket, const MfCounters *c,
							   MfInsertMethod method);
extern void mf_progress_end(int row, uint64 ticket);
extern void mf_progress_end_all(void);

#endif							/* MF_OBSERVE_H */
