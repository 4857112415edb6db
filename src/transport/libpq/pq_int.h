/*-------------------------------------------------------------------------
 *
 * pq_int.h
 *		What the files of the libpq transport share: its limits, its
 *		connection, statement and result structs, and the functions one
 *		file calls in another.
 *
 *		pq_wire.c		errors, waiting for the server, cancel
 *		pq_defer.c		commands that go with the next request; requests
 *						of the extended protocol in one exchange
 *		pq_fetch.c		queries through cursors, reading ahead
 *		pq_small.c		small results, read off the wire without a cursor
 *		pq_stream.c		COPY and the pipeline
 *		pq_replan.c		kept statements the remote's DDL made stale
 *		pq_relink.c		a new link under a transaction's first request
 *		pq_transport.c	connecting, prepared statements, transactions;
 *						the routine table
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * server header, only libpq-fe.h.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_PQ_INT_H
#define MF_PQ_INT_H

#include "transport/transport.h"
#include "transport/kit/kit.h"

#include <libpq-fe.h>

/*
 * How long to wait for a cancelled or abandoned command to wind down before
 * giving up on the connection.
 */
#define MFPQ_SETTLE_MS		30000

/*
 * The same after a user's cancel in the middle of a COPY.  The server takes
 * the rest of the data at once when the cancel reaches it; one that still
 * reads nothing is stopped or gone, and the user is waiting.
 */
#define MFPQ_COPY_SETTLE_MS	2000

/* Large enough for "mf_s" or "mf_c" and any unsigned long. */
#define MFPQ_NAME_LEN		32

/* PQputCopyData takes an int length. */
#define MFPQ_COPY_CHUNK		(64 * 1024 * 1024)

#define MFPQ_DEFAULT_FETCH	100

#define MFPQ_ABORT_REASON	"multi_fdw abandoned the COPY"

/* A command that goes with the next request (pq_defer.c). */
typedef enum MfpqLaterKind
{
	MFPQ_LATER_BEGIN,			/* the remote transaction's start */
	MFPQ_LATER_SAVEPOINT,		/* SAVEPOINT or RELEASE, from the core */
	MFPQ_LATER_CLOSE,			/* a cursor's CLOSE */
	MFPQ_LATER_DEALLOCATE		/* a prepared statement's DEALLOCATE */
} MfpqLaterKind;

/* START TRANSACTION ISOLATION LEVEL ..., CLOSE and DEALLOCATE of our names */
#define MFPQ_LATER_LEN		96

/*
 * Commands that may wait: a begin, the CLOSEs of one transaction's
 * cursors, a few DEALLOCATEs.  When full, the next one is sent at once.
 */
#define MFPQ_LATER_MAX		32

typedef struct MfpqLater
{
	MfpqLaterKind kind;
	bool		going;			/* chosen to go with the request now leaving */
	char		sql[MFPQ_LATER_LEN];
} MfpqLater;

/* Sends the commands of one request of the extended protocol. */
typedef int (*MfpqSendFn) (MfConn *conn, void *arg);

struct MfConn
{
	PGconn	   *pg;
	unsigned long next_id;		/* numbers statement and cursor names */
	MfStmt	   *stmts;			/* prepared statements, the most recently
								 * used first */
	int			nstmts;
	MfResult   *results;		/* live results and cursors */
	bool		dealloc_due;	/* prepared statements may exist remotely
								 * that no MfStmt tracks */
	bool		broken;			/* a command could not be wound down */
	bool		in_copy;		/* between copy_begin and copy_end */
	bool		interrupted;	/* the last wait ended in a user cancel */
	MfResult   *pending;		/* the result whose FETCH is out, if any */
	MfResult   *streaming;		/* the small result whose rows may still
								 * come off the wire, if any (pq_small.c) */

	/*
	 * Brings the connection back in step before any other command: a FETCH
	 * sent ahead has its answer read (mfpq_finish_ahead).  A hook, so that
	 * the command path needs nothing of the fetch code.  false, err
	 * filled, when reading it failed.
	 */
	bool		(*settle) (MfConn *conn, MfError *err);

	/* pipeline bookkeeping */
	long		pl_sent;		/* statements sent since pipeline_begin */
	long		pl_taken;		/* statements whose results were read */
	int			pl_syncs;		/* sync points sent but not yet read back */
	bool		pl_failed;		/* a statement of this pipeline failed */
	MfError		pl_error;		/* ... and this was its error */

	/* commands that go in front of the next request (pq_defer.c) */
	MfpqLater	later[MFPQ_LATER_MAX];
	int			nlater;
	/* ... and those that went in front of the last one */
	MfpqLater	went[MFPQ_LATER_MAX];
	int			nwent;

	/* the last error was a kept statement's stale plan (pq_replan.c) */
	bool		plan_changed;

	/*
	 * Counts the spans in which the remote's tables cannot change under a
	 * kept statement that ran in it (pq_replan.c): a new one begins with
	 * each remote transaction, each statement of the user's own and each
	 * ROLLBACK TO.
	 */
	unsigned long span;

	/* results at the end of this pipeline that are not the request's */
	int			pl_trailing;

	/*
	 * The transaction's begin went with the request now out and the server
	 * has answered none of it yet (pq_relink.c).
	 */
	bool		begin_out;

	/* the keywords and the set-up, to connect again (pq_relink.c) */
	MfKeptParams kept;

	/*
	 * Those that went in front of the simple-protocol message now out, and
	 * how many of its commands the server has answered: a syntax error
	 * anywhere in the message fails it whole, and those that went then
	 * never ran (mfpq_later_failed).
	 */
	MfpqLater	carried[MFPQ_LATER_MAX];
	int			ncarried;
	int			carried_ran;

	char		version[64];

	MfWireStats *wire;			/* the core's counters (transport.h) */
};

/*
 * A statement prepared on the server, kept for the connection's life: the
 * core's handles to the same text share it (refs), and one no handle
 * holds stays cached until MFPQ_CACHE_MAX newer ones push it out.
 */
struct MfStmt
{
	MfConn	   *conn;
	MfStmt	   *prev;
	MfStmt	   *next;
	int			nparams;
	int			refs;			/* handles the core holds */
	bool		stale;			/* the remote refused its plan: prepare
								 * finds it no more (pq_replan.c) */
	bool		returns_rows;	/* its last run returned a result (or it
								 * has not run yet) */
	unsigned long span;			/* conn->span when it was last prepared or
								 * ran (pq_replan.c) */
	char	   *sql;			/* the text it was prepared from: its key */
	char		name[MFPQ_NAME_LEN];
};

/*
 * The savepoint a kept statement that returns rows runs under at its first
 * use in a span (pq_replan.c); the core's are named s1, s2, ...
 */
#define MFPQ_GUARD_SAVEPOINT	"SAVEPOINT mf_kept"
#define MFPQ_GUARD_RELEASE		"RELEASE SAVEPOINT mf_kept"

/* Prepared statements a connection keeps (mfpq_prepare). */
#define MFPQ_CACHE_MAX		64

/* Rows copied out of single-row results (pq_small.c). */
typedef struct MfpqRows
{
	int			nrows;
	int			rows_cap;
	long	   *off;			/* nrows x ncols offsets into data, -1 NULL */
	char	   *data;			/* the values, each NUL-terminated */
	size_t		len;
	size_t		cap;
} MfpqRows;

struct MfResult
{
	MfConn	   *conn;
	MfResult   *prev;
	MfResult   *next;
	PGresult   *batch;			/* rows of the current fetch */
	PGresult   *ahead;			/* rows fetched ahead (async_poll) */
	bool		pending;		/* a FETCH was sent, its answer not read */
	int			requested;		/* rows asked for by that FETCH */
	bool		is_cursor;		/* false: rows of an executed statement */
	bool		at_end;			/* no more rows, no need to ask */
	int			fetch_size;
	int			ncols;			/* -1 until the first batch is known */
	char	  **names;			/* a stream's column names (malloc'd) */
	char		name[MFPQ_NAME_LEN];

	/* a small result read without a cursor (pq_small.c) */
	bool		stream;
	bool		first_kept;		/* rows holds what the opening read */
	bool		pipelined;		/* sent in a pipeline: its sync is to come */
	int			lead;			/* commands in front whose results remain */
	MfpqRows	rows;			/* the batch read off the wire */
	MfpqRows	spill;			/* the rest, read when the link was needed */
	int			spill_next;		/* the spill's first row not handed over */
	const MfpqRows *view;		/* the current batch: rows or part of spill */
	int			view_first;
	int			view_rows;
	bool		stream_failed;
	MfError		stream_err;		/* ... and why: the next fetch's error */
};

/* What reading one pipelined statement's results came to. */
typedef enum MfpqTake
{
	MFPQ_TAKEN,					/* it succeeded */
	MFPQ_SKIPPED,				/* it was skipped after an earlier error */
	MFPQ_STMT_FAILED,			/* it failed on the server */
	MFPQ_NOT_READY,				/* nothing to read yet (no wait asked) */
	MFPQ_NONE,					/* nothing is outstanding */
	MFPQ_BROKEN					/* the pipeline is gone: cancel or lost link */
} MfpqTake;



/* pq_wire.c */
extern bool mfpq_await(MfConn *conn, MfStep step, MfError *err);
extern bool mfpq_can_talk(MfConn *conn);
extern bool mfpq_command(MfConn *conn, const char *sql, MfStep step, PGresult **last,
						 MfError *err);
extern void mfpq_conn_error(MfConn *conn, MfStep step, MfError *err);
extern void mfpq_copy_over(MfConn *conn);
extern void mfpq_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
					  const char *message);
extern bool mfpq_finish(MfConn *conn, int sent, MfStep step, PGresult **last,
						MfError *err);
extern bool mfpq_flush(MfConn *conn, MfStep step, MfError *err);
extern bool mfpq_is_broken(MfConn *conn);
extern MfXactState mfpq_xact_state(MfConn *conn);
extern void mfpq_result_error(MfConn *conn, const PGresult *res, MfStep step,
							  MfError *err);
extern long mfpq_rows(const PGresult *res);
extern bool mfpq_send_cancel(MfConn *conn, char *errbuf, int errlen);
extern void mfpq_set_text(char *dst, size_t dstlen, const char *src);
extern bool mfpq_settle(MfConn *conn);
extern bool mfpq_settle_within(MfConn *conn, int ms);
extern bool mfpq_usable(MfConn *conn, MfStep step, MfError *err);
extern bool mfpq_wait(MfConn *conn, bool for_write, MfStep step, MfError *err);

/* pq_defer.c */
extern bool mfpq_begin_waiting(MfConn *conn);
extern bool mfpq_defer(MfConn *conn, MfpqLaterKind kind, const char *sql);
extern bool mfpq_extended(MfConn *conn, MfpqSendFn send, void *arg, MfStep step,
						  PGresult **last, MfError *err);
extern bool mfpq_pipelined(MfConn *conn, MfpqSendFn send, void *arg, MfStep step,
						   PGresult **last, MfError *err);
extern void mfpq_later_clear(MfConn *conn);
extern bool mfpq_later_flush(MfConn *conn, MfStep step, MfError *err);
extern void mfpq_later_free(const char *text, const char *sql);
extern bool mfpq_later_send(MfConn *conn, const char *sql, MfStep step,
							MfError *err);
extern bool mfpq_later_simple(MfConn *conn, MfStep step, MfError *err);
extern bool mfpq_later_pipelined(MfConn *conn);
extern void mfpq_later_answered(MfConn *conn);
extern void mfpq_later_failed(MfConn *conn);
extern bool mfpq_later_holds_savepoint(MfConn *conn);
extern char *mfpq_later_text(MfConn *conn, const char *sql);
extern void mfpq_later_xact_over(MfConn *conn);
extern bool mfpq_pipeline_finish(MfConn *conn, MfStep step, PGresult **last,
								 MfError *err);

/* pq_replan.c */
extern bool mfpq_guard(MfStmt *stmt);
extern void mfpq_new_span(MfConn *conn);
extern void mfpq_exec_span(MfConn *conn, const char *sql, const PGresult *last);
extern bool mfpq_plan_changed(const PGresult *res);
extern bool mfpq_replan(MfStmt *stmt, MfError *err);
extern void mfpq_ran(MfStmt *stmt, const PGresult *last);
extern void mfpq_stale(MfStmt *stmt);
extern void mfpq_stale_all(MfConn *conn);

/* pq_relink.c */
extern bool mfpq_relink(MfConn *conn, MfError *err);

/* pq_transport.c */
extern PGconn *mfpq_open_link(const MfConnParams *params, MfError *err);
extern void mfpq_watch_messages(MfConn *conn);
extern int	mfpq_send_prepare(MfConn *conn, void *arg);
extern void mfpq_stmt_free(MfStmt *stmt);

/* pq_fetch.c */
extern void mfpq_keep_names(MfResult *res, const PGresult *r);
extern const char *mfpq_column_name(MfResult *res, int col);
extern void mfpq_free_result(MfResult *res);
extern MfResult *mfpq_new_result(MfConn *conn, MfError *err);
extern bool mfpq_finish_ahead(MfConn *conn, MfError *err);
extern int mfpq_async_poll(MfResult *res, bool wait, MfError *err);
extern bool mfpq_async_send(MfResult *res, int rows, MfError *err);
extern int mfpq_async_socket(MfConn *conn);
extern int mfpq_fetch(MfResult *res, MfError *err);
extern int mfpq_ncolumns(MfResult *res);
extern MfResult *mfpq_query(MfConn *conn, const char *sql, int nparams,
							const char *const *values, const MfTypeClass *classes,
							MfRead read, MfError *err);
extern MfResult *mfpq_requery(MfResult *old, const char *sql, int nparams,
							  const char *const *values,
							  const MfTypeClass *classes, MfRead read,
							  MfError *err);
extern void mfpq_result_close(MfResult *res);
extern const char *mfpq_value(MfResult *res, int row, int col);

/* pq_small.c */
extern void mfpq_small_abandon(MfConn *conn);
extern void mfpq_small_drop(MfConn *conn);
extern int mfpq_small_fetch(MfResult *res, MfError *err);
extern bool mfpq_small_holds_link(MfResult *res);
extern bool mfpq_small_all_read(MfResult *res);
extern bool mfpq_rows_all_read(MfResult *res);
extern void mfpq_small_free(MfResult *res);
extern bool mfpq_small_open(MfConn *conn, MfResult *res, const char *sql,
							int nparams, const char *const *values,
							bool one_statement, MfError *err);
extern void mfpq_small_spill(MfConn *conn);
extern const char *mfpq_small_value(MfResult *res, int row, int col);

/* pq_stream.c */
extern bool mfpq_copy_begin(MfConn *conn, const char *sql, MfError *err);
extern bool mfpq_copy_end(MfConn *conn, const char *abort_reason, long *rows,
						  MfError *err);
extern bool mfpq_copy_send(MfConn *conn, const char *buf, size_t len, MfError *err);
extern bool mfpq_pipeline_begin(MfConn *conn, MfError *err);
extern int mfpq_pipeline_collect(MfConn *conn, bool wait, long *rows_affected,
								 MfError *err);
extern bool mfpq_pipeline_end(MfConn *conn, MfError *err);
extern bool mfpq_pipeline_send(MfStmt *stmt, const char *const *values, MfError *err);

/* pq_transport.c */

#endif							/* MF_PQ_INT_H */
