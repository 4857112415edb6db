/*-------------------------------------------------------------------------
 *
 * pq_int.h
 *		What the files of the libpq transport share: its limits, its
 *		connection, statement and result structs, and the functions one
 *		file calls in another.
 *
 *		pq_wire.c		errors, waiting for the server, cancel
 *		pq_fetch.c		queries through cursors, reading ahead
 *		pq_stream.c		COPY and the pipeline
 *		pq_transport.c	connecting, prepared statements, transactions;
 *						the routine table
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * server header, only libpq-fe.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_PQ_INT_H
#define MF_PQ_INT_H

#include "transport.h"
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

struct MfConn
{
	PGconn	   *pg;
	unsigned long next_id;		/* numbers statement and cursor names */
	MfStmt	   *stmts;			/* live prepared statements */
	MfResult   *results;		/* live results and cursors */
	bool		dealloc_due;	/* prepared statements may exist remotely
								 * that no MfStmt tracks any more */
	bool		broken;			/* a command could not be wound down */
	bool		in_copy;		/* between copy_begin and copy_end */
	bool		interrupted;	/* the last wait ended in a user cancel */
	MfResult   *pending;		/* the result whose FETCH is out, if any */

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

	char		version[64];

	MfWireStats *wire;			/* the core's counters (transport.h) */
};

struct MfStmt
{
	MfConn	   *conn;
	MfStmt	   *prev;
	MfStmt	   *next;
	int			nparams;
	char		name[MFPQ_NAME_LEN];
};

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
	char		name[MFPQ_NAME_LEN];
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
extern void mfpq_result_error(MfConn *conn, const PGresult *res, MfStep step,
							  MfError *err);
extern long mfpq_rows(const PGresult *res);
extern bool mfpq_send_cancel(MfConn *conn, char *errbuf, int errlen);
extern void mfpq_set_text(char *dst, size_t dstlen, const char *src);
extern bool mfpq_settle(MfConn *conn);
extern bool mfpq_settle_within(MfConn *conn, int ms);
extern bool mfpq_usable(MfConn *conn, MfStep step, MfError *err);
extern bool mfpq_wait(MfConn *conn, bool for_write, MfStep step, MfError *err);

/* pq_fetch.c */
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
							int fetch_size, MfError *err);
extern MfResult *mfpq_requery(MfResult *old, const char *sql, int nparams,
							  const char *const *values,
							  const MfTypeClass *classes, int fetch_size,
							  MfError *err);
extern void mfpq_result_close(MfResult *res);
extern const char *mfpq_value(MfResult *res, int row, int col);

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
