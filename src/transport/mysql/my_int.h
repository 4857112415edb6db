/*-------------------------------------------------------------------------
 *
 * my_int.h
 *		What the files of the mysql transport share: its limits, its
 *		connection, statement and result structs, and the functions one
 *		file calls in another.
 *
 * The files, by concern: my_wire.c (errors, the non-blocking call
 * wrappers, cancel), my_cache.c (the connection's prepared statements),
 * my_stmt.c (binding, execute, bulk arrays), my_value.c (result columns
 * and their conversion to text), my_fetch.c (cursors, streamed results),
 * my_infile.c (LOAD DATA from memory), my_relink.c (opening the link, and
 * a new one under a transaction's first request), my_transport.c
 * (connecting, transactions, the routine table).  Each calls only into
 * those listed before it, except through the connection's settle hook and
 * the routine table (my_relink.c sets a new session up through it).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_MY_INT_H
#define MF_MY_INT_H

#include "transport/transport.h"
#include "transport/kit/kit.h"

#include <stdint.h>

#include <mysql.h>
#include <errmsg.h>
#include <mysqld_error.h>
/* How long to wait for a killed statement to wind down. */
#define MFMY_SETTLE_MS		30000

/* Connect timeout of the side connection that sends KILL QUERY. */
#define MFMY_KILL_TIMEOUT	10

#define MFMY_DEFAULT_FETCH	100

/*
 * Most rows one fetch of a streamed result (a small one, read without a
 * server-side cursor) hands over: a wrong estimate costs memory only up to
 * this per batch.
 */
#define MFMY_STREAM_BATCH	1000

/*
 * Most rows a small query by the text protocol holds (my_text.c): beyond
 * them the planner was wrong, and the query goes the prepared way.
 */
#define MFMY_TEXT_MAX_ROWS	10000
#define MFMY_TEXT_GIVE_UP	8

/*
 * The prepared statements a connection keeps for reuse: at most this many,
 * with at most this much SQL text between them (a batch INSERT of many rows
 * has a long text, and the server keeps as much for it).  A statement
 * longer than a quarter of the bytes is not kept.
 */
#define MFMY_CACHE_MAX		64
#define MFMY_CACHE_BYTES	(4UL * 1024 * 1024)

/* First buffer for a string column; longer values are fetched apart. */
#define MFMY_STRING_START	256
/* Largest buffer a string column keeps between rows. */
#define MFMY_STRING_KEEP	(64 * 1024)

/*
 * Most sets of values in one bulk execution.  It bounds the memory of the
 * parameter arrays (about 40 bytes per value); one packet of 10,000 sets
 * already costs the round trip next to nothing.
 */
#define MFMY_ARRAY_MAX_SETS	10000

/* What a bulk packet holds besides its values, rounded up generously. */
#define MFMY_BULK_OVERHEAD	1024

/* max_allowed_packet when the server will not say: MySQL 5.6's default. */
#define MFMY_PACKET_FALLBACK	(4UL * 1024 * 1024)

/*
 * Bytes of rows one LOAD DATA carries (about 70,000 rows of two integers).
 * The next one is filled while the server works on this one, so memory is
 * about twice this.  Measured on two CPUs: 256 kB to 1 MB are equally fast,
 * 16 MB loses the overlap (15 % slower, as slow as parameter arrays).
 */
#define MFMY_LOAD_BYTES		(1024UL * 1024)

/* The statement the dialect writes; ? stands for the file name. */
#define MFMY_LOAD_PREFIX	"LOAD DATA LOCAL INFILE ?"

/* The error our local-infile handler reports when it refuses a request. */
#define MFMY_INFILE_REFUSED	2000	/* CR_UNKNOWN_ERROR */

/* ssl_mode, in the order of option.c's list */
typedef enum MfmySslMode
{
	MFMY_SSL_DEFAULT = -1,
	MFMY_SSL_DISABLED = 0,
	MFMY_SSL_PREFERRED,
	MFMY_SSL_REQUIRED,
	MFMY_SSL_VERIFY_CA,
	MFMY_SSL_VERIFY_IDENTITY
} MfmySslMode;

/* What connecting needs, kept to open the side connection of a cancel. */
typedef struct MfmyConnInfo
{
	char	   *host;
	unsigned int port;
	char	   *database;
	char	   *unix_socket;
	char	   *user;
	char	   *password;
	char	   *ssl_key;
	char	   *ssl_cert;
	char	   *ssl_ca;
	MfmySslMode ssl_mode;
	unsigned int connect_timeout;	/* 0: the library's default */
	char	   *init_command;
	char	   *character_set;
	bool		zero_date_error;	/* zero_date 'error': refuse, not NULL */
	bool		password_only;	/* see MfConnParams */
} MfmyConnInfo;

/* One command's conversation with the server (see mfmy_wait). */
typedef struct MfmyOp
{
	MfConn	   *conn;
	bool		cancelled;		/* the user asked to cancel meanwhile */
	bool		cut;			/* the link was cut: the wait failed */
	long long	deadline;		/* of the wind-down after a cancel */
} MfmyOp;

/*
 * The bulk stream (copy_begin / copy_send / copy_end): rows in COPY text
 * format are held, and every MFMY_LOAD_BYTES of them leave as one LOAD
 * DATA LOCAL INFILE whose "file" is served from memory by our local-infile
 * handler.  The statement runs with the non-blocking calls: once all its
 * rows are written, the call returns and the server works on them while
 * the next rows are held; the answer is read before the next LOAD DATA,
 * at copy_end, or before any other command.
 */
typedef struct MfmyLoad
{
	bool		open;			/* between copy_begin and copy_end */
	char	   *tail;			/* the statement after its file name */
	char	   *hold;			/* rows held for the next LOAD DATA */
	size_t		hold_len;
	size_t		hold_cap;
	long		hold_rows;
	long		rows_done;		/* rows of the LOAD DATAs answered so far */

	/* the LOAD DATA in flight */
	bool		in_flight;
	MfmyOp		op;
	int			status;			/* what the non-blocking call waits for */
	int			ret;
	char	   *sql;
	char	   *data;			/* its rows; swapped with hold */
	size_t		data_len;
	size_t		data_cap;
	size_t		data_pos;		/* served so far */
	long		data_rows;

	/* the handler: the one name it serves, and whether it may now */
	char		name[96];
	bool		armed;			/* a LOAD DATA of ours is waiting for it */
	bool		eof;			/* every byte has been served */
	bool		cut_short;		/* another command ended the stream */
	unsigned long counter;		/* names issued on this connection */
	char		refusal[512];	/* why the handler refused, "" if it did not */

	/*
	 * @@local_infile: -1 not asked yet.  Asked once per connection: the
	 * variable is global and the server checks it at every LOAD DATA
	 * LOCAL, so one turned OFF since makes the statement fail with the
	 * server's clear error, and one turned ON since leaves auto on array
	 * or values (slower, same rows and counts) until the next connection.
	 */
	int			server_allows;
} MfmyLoad;

/*
 * One prepared statement handle of a connection, kept for the next use of
 * the same SQL (see my_cache.c).  A handle prepared for a server-side
 * cursor is never used without one, nor the other way round: Connector/C
 * keeps a handle's cursor state once it has had a cursor.
 */
typedef struct MfmyCached
{
	struct MfmyCached *prev;	/* the connection's handles, most recently */
	struct MfmyCached *next;	/* used first */
	MYSQL_STMT *st;
	char	   *sql;
	size_t		len;
	uint32_t	hash;
	int			nparams;
	bool		cursor;			/* prepared for a server-side cursor */
	bool		in_use;			/* lent to a statement or a query */
	bool		bad;			/* failed in a way that may leave it out of
								 * step: closed when given back */
	bool		cursor_left_open;	/* its cursor was left before its end:
									 * closed when the transaction ends */
} MfmyCached;

struct MfConn
{
	MYSQL	   *my;
	MfmyConnInfo info;
	unsigned long thread_id;	/* the session's id, for KILL QUERY */
	MfStmt	   *stmts;			/* live prepared statements */
	MfResult   *results;		/* live queries */
	MfmyCached *cache;			/* prepared handles, in use or kept */
	int			ncached;
	size_t		cached_bytes;	/* their SQL text */

	/*
	 * The query whose rows are being read off the socket as they come (a
	 * small result, no server-side cursor); until it has been read to its
	 * end the link carries nothing else.  The core reads the rest itself
	 * before it sends another command (holds_link); any other command
	 * first reads what is left into memory, up to MF_STREAM_SPILL_MAX
	 * (the settle hook).  Meanwhile nothing that would touch the link
	 * happens on the side: results closed are parked, handles to close
	 * wait in the cache (mfmy_unpark).
	 */
	MfResult   *streaming;
	MfResult   *parked;			/* closed while another result streamed:
								 * their handles go back once it is over */
	bool		tidy_due;		/* handles to close waited for the stream
								 * (mfmy_cache_tidy) */

	/*
	 * Small queries by the text protocol declined in a row (my_text.c):
	 * past MFMY_TEXT_GIVE_UP, only one in MFMY_TEXT_GIVE_UP is tried, so
	 * that a workload of FLOAT columns does not pay an exchange more each.
	 */
	unsigned int text_declined;

	/*
	 * The transaction as the transport sees it.  The session runs with
	 * autocommit off, so a transaction starts with its first statement:
	 * sent says whether anything went out since begin, unsure whether a
	 * command failed since then (an error packet carries no server status,
	 * and a statement that failed may have opened a transaction all the
	 * same).  Otherwise the server's SERVER_STATUS_IN_TRANS says whether
	 * there is a transaction to end.
	 */
	bool		sent;
	bool		unsure;
	/*
	 * The server answered something since the transaction began, or
	 * something went that is not sent again (a LOAD DATA): a lost link is
	 * no longer replaced under the request (my_relink.c).
	 */
	bool		heard;
	/* the keywords and the set-up, to connect again (my_relink.c) */
	MfKeptParams kept;

	/*
	 * The isolation level set for the session when begin_sql asked for
	 * one (NULL: the session's own, which iso_orig holds once read).
	 */
	const char *iso_level;
	char		iso_orig[32];
	bool		read_only;		/* the session's access mode set READ ONLY */
	bool		modes_unsure;	/* a statement of the user's ran since:
								 * iso_level and read_only are set again */
	bool		broken;			/* the link is known to be lost */
	char	   *scratch;		/* long values fetched apart */
	unsigned long scratch_cap;
	/*
	 * Facts about the server, kept for the connection: neither can change
	 * under it.  bulk comes from the handshake's capabilities; the session
	 * value of max_allowed_packet is read-only, fixed from the global one
	 * when the session starts.
	 */
	bool		bulk;			/* the server takes COM_STMT_BULK_EXECUTE */
	unsigned long max_packet;	/* its max_allowed_packet; 0 until read */
	MfmyLoad	load;

	/*
	 * Brings the connection back in step before any other command: a LOAD
	 * DATA stream still open is ended (mfmy_load_cut), a streamed result is
	 * read into memory (mfmy_stream_spill, bounded; then what waited for
	 * it is released, mfmy_unpark).  A hook, so that the command path
	 * needs nothing of the streams' code.
	 */
	void		(*settle) (MfConn *conn);
	char		version[64];

	MfWireStats *wire;			/* the core's counters (transport.h) */
};

/* The parameters of one statement, bound from their text forms. */
typedef struct MfmyParams
{
	int			n;
	MfTypeClass *classes;
	MYSQL_BIND *bind;
	unsigned long *length;
	my_bool    *is_null;
	long long  *ints;
	double	   *dbls;
	signed char *tiny;
	char	  **owned;			/* decoded bytea, freed before the next use */
} MfmyParams;

/* One 8-byte slot of a column of numbers: LONGLONG or DOUBLE. */
typedef union MfmyNum
{
	long long	i;
	double		d;
} MfmyNum;

/*
 * The parameter arrays of a bulk execution, column-wise: the value of
 * parameter p in set k is at [p * cap + k].  Connector/C reads numbers
 * from contiguous arrays of their size and strings through an array of
 * pointers with an array of lengths; an indicator per value marks NULLs.
 */
typedef struct MfmyArray
{
	int			cap;			/* sets the arrays hold; 0: none yet */
	MYSQL_BIND *bind;			/* one per parameter */
	bool	   *as_number;		/* per parameter: bound as a number */
	char	   *ind;
	unsigned long *len;
	char	  **ptr;			/* text, or decoded bytes */
	MfmyNum    *num;
	signed char *tiny;
	char	  **owned;			/* decoded bytea, freed after each packet */
} MfmyArray;

struct MfStmt
{
	MfConn	   *conn;
	MfStmt	   *prev;
	MfStmt	   *next;
	MfmyCached *handle;			/* borrowed from the connection's cache */
	MYSQL_STMT *st;				/* handle->st */
	MfmyParams	params;
	MfmyArray	array;
};

/* How a result column is fetched and turned into text. */
typedef enum MfmyColKind
{
	MFMY_COL_INT,
	MFMY_COL_UINT,
	MFMY_COL_FLOAT,
	MFMY_COL_DOUBLE,
	MFMY_COL_DATE,
	MFMY_COL_DATETIME,
	MFMY_COL_TIME,
	MFMY_COL_TEXT,
	MFMY_COL_BYTES,
	MFMY_COL_BIT
} MfmyColKind;

typedef struct MfmyCol
{
	MfmyColKind kind;
	unsigned long bits;			/* width of a BIT column */
	union
	{
		long long	i;
		double		d;
		float		f;
		MYSQL_TIME	t;
	}			num;
	char	   *buf;			/* string columns */
	unsigned long cap;
	unsigned long length;
	my_bool		is_null;
	my_bool		error;
	char	   *name;			/* the remote's name for it (malloc'd);
								 * NULL: no memory was there for it */
} MfmyCol;

struct MfResult
{
	MfConn	   *conn;
	MfResult   *prev;
	MfResult   *next;
	MYSQL_STMT *st;
	MfmyCached *handle;			/* the cached handle of a query of our own */
	MfStmt	   *borrowed;		/* the prepared statement whose rows these
								 * are (its handle is not ours to close);
								 * NULL: a query of our own */
	MfmyParams	params;
	int			fetch_size;
	int			ncols;
	MfmyCol    *cols;
	MYSQL_BIND *bind;
	bool		at_end;
	bool		cursor;			/* rows come fetch_size at a time: one
								 * COM_STMT_FETCH per batch */
	bool		stream;			/* rows are read off the socket as they
								 * come, in the execute's own exchange */
	bool		read_to_end;	/* the server said there are no more rows */

	/*
	 * A streamed result read to its end ahead of the core, for another
	 * command: its rows wait here for the next fetch, and an error met
	 * while reading them is that fetch's.
	 */
	bool		spilled;
	MfRows		spill;			/* rows read ahead into memory */
	bool		spill_failed;
	MfError		spill_err;

	/* the current batch (kit_rows.c) */
	MfRows		rows;
};

/* installs a connection's local-infile handler (mfmy_infile_serve) */
typedef void (*MfmyServeFn) (MYSQL *my, MfConn *conn);

/* my_value.c, for my_fetch.c and my_text.c */
extern MfmyColKind mfmy_col_kind(const MYSQL_FIELD *f);
extern bool mfmy_store_hex(MfResult *res, const unsigned char *data, size_t len,
						   size_t *off);
extern bool mfmy_store_bits(MfResult *res, const unsigned char *data, size_t len,
							unsigned long width, size_t *off);
extern bool mfmy_store_value(MfResult *res, int c, size_t *off, bool *rebind,
							 MfError *err);
extern bool mfmy_bind_columns(MfResult *res, MfError *err);
extern void mfmy_free_columns(MfResult *res);

/* my_text.c */
extern int	mfmy_text_query(MfResult *res, const char *sql, int max_rows,
							MfError *err);

/* my_wire.c */
extern bool mfmy_parse_uint(const char *s, unsigned long max, unsigned long *out);
extern long mfmy_rows(MYSQL *my, unsigned long long affected);
extern MYSQL *mfmy_open(const MfmyConnInfo *ci, MfmyServeFn serve,
						MfConn *infile_conn, unsigned int timeout,
						MfError *err);
extern void mfmy_close_handle(MfConn *conn, MYSQL_STMT *st);
extern my_bool mfmy_commit_call(MfmyOp *op, bool commit);
extern int	mfmy_send_query(MfmyOp *op, const char *sql, unsigned long len);
extern my_bool mfmy_read_query_result(MfmyOp *op);
extern void mfmy_conn_error(MfConn *conn, MfStep step, MfError *err);
extern void mfmy_error(MfConn *conn, MfStep step, unsigned int code,
					   const char *sqlstate, const char *message, MfError *err);
extern void mfmy_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
					  const char *message);
extern bool mfmy_kill_query(MfConn *conn, MfError *err);
extern int mfmy_next_result(MfmyOp *op);
extern void mfmy_oom(MfConn *conn, MfStep step, MfError *err);
extern bool mfmy_op_interrupted(MfmyOp *op, MfStep step, MfError *err);
extern void mfmy_op_start(MfmyOp *op, MfConn *conn);
extern void mfmy_op_stop(MfmyOp *op);
extern void mfmy_op_abandon(MfmyOp *op);
extern int mfmy_real_query(MfmyOp *op, const char *sql, unsigned long len);
extern void mfmy_stmt_error(MfConn *conn, MYSQL_STMT *st, MfStep step, MfError *err);
extern int mfmy_stmt_execute(MfmyOp *op, MYSQL_STMT *st);
extern int mfmy_stmt_fetch(MfmyOp *op, MYSQL_STMT *st);
extern my_bool mfmy_stmt_free_result(MfmyOp *op, MYSQL_STMT *st);
extern int	mfmy_stmt_drain_results(MfmyOp *op, MYSQL_STMT *st);
extern bool mfmy_in_transaction(MfConn *conn);
extern int mfmy_stmt_prepare(MfmyOp *op, MYSQL_STMT *st, const char *sql);
extern int mfmy_stmt_store(MfmyOp *op, MYSQL_STMT *st);
extern MYSQL_RES *mfmy_store_result(MfmyOp *op);
extern bool mfmy_usable(MfConn *conn, MfStep step, MfError *err);
extern int mfmy_wait(MfmyOp *op, int status);

/* my_cache.c */
extern bool mfmy_cache_has(MfConn *conn, const char *sql, int nparams, bool cursor);
extern MfmyCached *mfmy_cache_take(MfConn *conn, const char *sql, int nparams,
								   bool cursor, MfStep step, MfError *err);
extern void mfmy_cache_give(MfConn *conn, MfmyCached *h);
extern void mfmy_cache_spoil(MfmyCached *h);
extern bool mfmy_cache_refused(MYSQL_STMT *st);
extern bool mfmy_cache_retake(MfConn *conn, MfmyCached **h, MfStep step,
							  MfError *err);
extern void mfmy_cache_xact_end(MfConn *conn);
extern void mfmy_cache_clear(MfConn *conn);
extern bool mfmy_cache_relink(MfConn *conn, MfError *err);
extern void mfmy_cache_tidy(MfConn *conn);

/* my_stmt.c */
extern void mfmy_array_free(MfmyArray *a, int nparams);
extern void mfmy_free_stmt(MfStmt *stmt);
extern long mfmy_bulk_row(const char *message, int sets);
extern bool mfmy_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
						 MfResult **result, MfError *err);
extern bool mfmy_execute_array(MfStmt *stmt, int nsets, const char *const *values,
							   long *rows_affected, MfError *err);
extern void mfmy_params_free(MfmyParams *p);
extern bool mfmy_params_init(MfmyParams *p, int n, const MfTypeClass *classes);
extern MfStmt *mfmy_prepare(MfConn *conn, const char *sql, int nparams,
							const MfTypeClass *classes, MfError *err);
extern bool mfmy_read_max_packet(MfConn *conn, MfError *err);
extern bool mfmy_run(MfmyOp *op, MYSQL_STMT *st, MfmyParams *params,
					 const char *const *values, MfStep step, MfError *err);
extern void mfmy_stmt_close(MfStmt *stmt);

/* my_fetch.c */
extern void mfmy_free_result(MfResult *res);
extern int mfmy_fetch(MfResult *res, MfError *err);
extern int mfmy_ncolumns(MfResult *res);
extern const char *mfmy_column_name(MfResult *res, int col);
extern MfResult *mfmy_query(MfConn *conn, const char *sql, int nparams,
							const char *const *values, const MfTypeClass *classes,
							MfRead read, MfError *err);
extern void mfmy_result_close(MfResult *res);
extern MfResult *mfmy_stmt_result(MfStmt *stmt, MfError *err);
extern const char *mfmy_value(MfResult *res, int row, int col);
extern void mfmy_stream_spill(MfConn *conn);
extern void mfmy_stream_discard(MfConn *conn);
extern void mfmy_unpark(MfConn *conn);
extern bool mfmy_holds_link(MfResult *res);
extern MfXactState mfmy_xact_state(MfConn *conn);

/* my_infile.c */
extern bool mfmy_copy_available(MfConn *conn);
extern bool mfmy_copy_begin(MfConn *conn, const char *sql, MfError *err);
extern bool mfmy_copy_end(MfConn *conn, const char *abort_reason, long *rows,
						  MfError *err);
extern bool mfmy_copy_send(MfConn *conn, const char *buf, size_t len, MfError *err);
extern void mfmy_load_cut(MfConn *conn);
extern void mfmy_infile_serve(MYSQL *my, MfConn *conn);
extern void mfmy_load_settle(MfConn *conn);

/* my_relink.c */
extern MYSQL *mfmy_link(MfConn *conn, MfError *err);
extern bool mfmy_relink(MfConn *conn, MfError *err);
extern MfStmt *mfmy_prepare_retry(MfConn *conn, const char *sql, int nparams,
								  const MfTypeClass *classes, MfError *err);
extern bool mfmy_execute_retry(MfStmt *stmt, const char *const *values,
							   long *rows_affected, MfResult **result,
							   MfError *err);
extern bool mfmy_execute_array_retry(MfStmt *stmt, int nsets,
									 const char *const *values,
									 long *rows_affected, MfError *err);
extern MfResult *mfmy_query_retry(MfConn *conn, const char *sql, int nparams,
								  const char *const *values,
								  const MfTypeClass *classes, MfRead read,
								  MfError *err);

/* my_modes.c: the session's isolation level and access mode */
extern const char *const mfmy_levels[4];
extern bool mfmy_command(MfConn *conn, const char *sql, MfStep step,
						 long *rows, MfError *err);
extern bool mfmy_read_isolation(MfConn *conn, MfError *err);
extern bool mfmy_set_isolation(MfConn *conn, const char *level, MfError *err);
extern bool mfmy_set_read_only(MfConn *conn, bool read_only, MfError *err);
extern bool mfmy_set_modes(MfConn *conn, const char *level, bool read_only,
						   MfError *err);
extern bool mfmy_session_kept(MfConn *conn, MfError *err);
extern void mfmy_session_unsure(MfConn *conn);

/* my_messages.c: the notes and warnings a statement left, relayed */
extern void mfmy_relay_warnings(MfConn *conn, unsigned int count);
extern unsigned int mfmy_eof_warnings(MYSQL *my);
extern bool mfmy_relay_row(MfConn *conn, MYSQL_ROW row);

#endif							/* MF_MY_INT_H */
