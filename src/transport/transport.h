/*-------------------------------------------------------------------------
 *
 * transport.h
 *		The transport interface: how multi_fdw talks to a client library.
 *
 * A transport knows a client library (libpq, libmysqlclient, unixODBC) and
 * nothing of PostgreSQL's server internals.  This header is the wall between
 * the two sides: it includes no PostgreSQL header, and the files that
 * implement a transport must not either (libpq's is allowed libpq-fe.h only).
 * Transports never raise PostgreSQL errors and never longjmp: every
 * operation that can fail fills an MfError and returns false (or NULL, or
 * -1), and the core raises it once, in error.c.
 *
 * Memory: transports allocate with malloc and free what they allocate.  The
 * core guarantees that every object a transport hands out is given back
 * (closed, finished or forgotten through forget_all) before the connection
 * is dropped, even when the local transaction aborts.
 *
 * Values travel as text in PostgreSQL's output format (bytea in hex form,
 * booleans as t/f, timestamps in ISO form); a NULL pointer is SQL NULL.
 * Each parameter also carries an MfTypeClass so that a transport can bind
 * it with the right client-library type.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_TRANSPORT_H
#define MF_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>

/* ---------------------------------------------------------------------
 * The error record
 * ---------------------------------------------------------------------
 */

#define MF_ERR_MESSAGE_LEN	2048
#define MF_ERR_TEXT_LEN		1024

/* The step of the conversation that failed; shown in the error context. */
typedef enum MfStep
{
	MF_STEP_CONNECT,
	MF_STEP_EXEC,
	MF_STEP_PREPARE,
	MF_STEP_EXECUTE,
	MF_STEP_FETCH,
	MF_STEP_COPY,
	MF_STEP_PIPELINE,
	MF_STEP_CANCEL,
	MF_STEP_TRANSACTION
} MfStep;

typedef struct MfError
{
	char		sqlstate[6];	/* five characters and a NUL; "" if none */
	long		native_code;	/* the library's or server's own number; 0 if none */
	MfStep		step;
	bool		conn_lost;		/* the connection cannot be used any more */
	long		row;			/* 1-based row of the statement's input that
								 * failed, 0 when unknown */
	char		message[MF_ERR_MESSAGE_LEN];
	char		detail[MF_ERR_TEXT_LEN];
	char		hint[MF_ERR_TEXT_LEN];
	char		context[MF_ERR_TEXT_LEN];	/* remote context, if the server
											 * gave one */
} MfError;

/* Clear a record before a transport fills it. */
extern void mf_error_clear(MfError *err);

/* printf into err->message (truncating); sets step. */
extern void mf_error_set(MfError *err, MfStep step, const char *sqlstate,
						 long native_code, const char *fmt,...)
			__attribute__((format(printf, 5, 6)));

/* Copy a string into one of the record's fixed buffers, truncating. */
extern void mf_error_copy(char *dst, size_t dstlen, const char *src);

/* ---------------------------------------------------------------------
 * Waiting
 *
 * A transport that waits for the server (rather than blocking inside its
 * client library) waits through mf_wait_socket, which the core points at a
 * latch-based wait when the extension loads.  It returns 1 when the socket
 * is ready, 0 when the user asked to cancel (the transport then cancels the
 * remote statement, reads what is left and reports SQLSTATE 57014), and -1
 * on a failure of the wait itself.  It never longjmps.
 * ---------------------------------------------------------------------
 */
typedef int (*MfWaitFn) (int sock, bool for_write);
extern MfWaitFn mf_wait_socket;

/*
 * Whether the user asked to stop (a cancel or a termination is pending),
 * for a transport whose library blocks inside its calls and can only be
 * stopped from another thread (ODBC's SQLCancel).  Safe to call from any
 * thread: it only reads the backend's flags, which the core points it at
 * when the extension loads; until then it says false.
 */
typedef bool (*MfInterruptPendingFn) (void);
extern MfInterruptPendingFn mf_interrupt_pending;

/* A monotonic clock in ms, and a wait bounded by a deadline on it. */
extern long long mf_now_ms(void);
/* the same clock in microseconds, for wait times */
extern long long mf_now_us(void);
extern bool mf_poll_until(int sock, bool for_write, long long deadline);

/* ---------------------------------------------------------------------
 * Values and their classes
 * ---------------------------------------------------------------------
 */

/*
 * How a value should be bound.  The text form is always PostgreSQL's; the
 * class tells a transport which client type to bind it as and how to read a
 * column of that kind back into PostgreSQL's text form.
 */
typedef enum MfTypeClass
{
	MF_TYPE_TEXT = 0,			/* character data, and anything unknown */
	MF_TYPE_BOOL,				/* 't' / 'f' */
	MF_TYPE_INT,				/* integral */
	MF_TYPE_FLOAT,				/* binary floating point incl. NaN/Infinity */
	MF_TYPE_NUMERIC,			/* exact decimal */
	MF_TYPE_BYTES,				/* bytea: text form is \x followed by hex */
	MF_TYPE_DATE,				/* YYYY-MM-DD */
	MF_TYPE_TIME,				/* HH:MM:SS[.ffffff] */
	MF_TYPE_TIMESTAMP,			/* YYYY-MM-DD HH:MM:SS[.ffffff] */
	MF_TYPE_TIMESTAMPTZ,		/* the same with a +HH[:MM] offset */
	MF_TYPE_UUID,
	MF_TYPE_JSON,
	MF_TYPE_BITS				/* bit / bit varying: binary digits */
} MfTypeClass;

/*
 * How the SQL a transport is given marks its parameters.  0 is no style,
 * so that a routine table that forgot to say fails its check.
 */
typedef enum MfMarkerStyle
{
	/*
	 * $1, $2 ... (libpq): a marker names its parameter, which may be
	 * written again where the same value is used twice.
	 */
	MF_MARKERS_NUMBERED = 1,

	/*
	 * ? (the MySQL protocol, ODBC): the n-th marker of the statement takes
	 * the n-th value, and a value used twice is bound twice.  The library
	 * reads every ? outside quotes as a marker, so an operator spelt with
	 * one (jsonb's ?, ?|, ?&) cannot be sent: the deparser keeps such
	 * conditions local.
	 */
	MF_MARKERS_POSITIONAL
} MfMarkerStyle;

/* ---------------------------------------------------------------------
 * What a transport counts of its conversation
 *
 * The core gives every connection one of these (MfConnParams.wire) and
 * reads it for its statistics (stats.c); the transport only adds to it,
 * from the backend's own thread.  Only a transport sees the wire, so it
 * is the one that counts:
 *
 *	round_trips		each time it sent a request and waited for the answer
 *					to it (a command, a prepare, an execute, a FETCH, a
 *					COPY's start and end, a pipeline's sync)
 *	bytes_sent		statement text, parameter values and COPY data handed
 *					to the client library (payload, not protocol framing)
 *	bytes_received	the values of the rows it handed to the core, in their
 *					text form
 *	rows_received	rows its fetch handed to the core
 *	wait_us			time spent waiting on the server's socket (or inside
 *					a blocking library call that waits on it), microseconds
 *	reconnects		links it replaced by itself, under a transaction's
 *					first request (see begin)
 * ---------------------------------------------------------------------
 */
typedef struct MfWireStats
{
	unsigned long long round_trips;
	unsigned long long bytes_sent;
	unsigned long long bytes_received;
	unsigned long long rows_received;
	unsigned long long wait_us;
	unsigned long long reconnects;
} MfWireStats;

/* ---------------------------------------------------------------------
 * Opaque objects owned by the transport
 * ---------------------------------------------------------------------
 */
typedef struct MfConn MfConn;		/* one connection */
typedef struct MfStmt MfStmt;		/* one prepared statement */
typedef struct MfResult MfResult;	/* rows coming back: a cursor or the
									 * result of a statement */

/*
 * Connection keywords, as the core gathered them from the options: those of
 * the server and user mapping that the option table gives to this
 * transport, plus client_encoding, the local database's encoding, which
 * the core always adds.
 */
/*
 * A message of the remote's that is not an error (PostgreSQL's NOTICE,
 * WARNING, INFO), handed to the core as it arrives: the core relays it
 * to the client at the same level.  The strings are the transport's, valid
 * during the call; NULL: none.  The core returns whether it takes more in
 * the current statement (a cap); called with msg NULL it only says so, for
 * a transport that would spend an exchange to read them (MariaDB).
 */
typedef enum MfMessageLevel
{
	MF_MSG_INFO,
	MF_MSG_NOTICE,
	MF_MSG_WARNING
} MfMessageLevel;

typedef struct MfMessage
{
	MfMessageLevel level;
	const char *sqlstate;
	const char *message;
	const char *detail;
	const char *hint;
} MfMessage;

typedef bool (*MfMessageFn) (void *arg, const MfMessage *msg);

typedef struct MfConnParams
{
	int			n;
	const char *const *keys;
	const char *const *values;

	/*
	 * The connection is a non-superuser's: the remote must check the user
	 * mapping's password, and the transport must offer no other credential
	 * of this host (a socket's peer identity, a Kerberos ticket, a driver's
	 * stored password) that could let it in instead.
	 */
	bool		password_only;

	/* where the connection counts its traffic; NULL: nowhere */
	MfWireStats *wire;

	/*
	 * The session's set-up, which the core runs itself after connect:
	 * nsetup statements without rows, then setup_check (NULL: none), a
	 * query whose first value, when not empty, names what the session
	 * lacks.  A transport that replaces a lost link by itself (see begin)
	 * keeps them, with the keywords, and runs them on the new session.
	 */
	int			nsetup;
	const char *const *setup;
	const char *setup_check;

	/*
	 * Where the remote's messages go (MfMessage), with message_arg; NULL:
	 * they are dropped.  A transport that connects again by itself keeps
	 * it.  It may be called during any call of the transport's that reads
	 * from the remote, and never raises.
	 */
	MfMessageFn on_message;
	void	   *message_arg;
} MfConnParams;

/* ---------------------------------------------------------------------
 * The transport routine table
 *
 * Required members come first; a transport may leave the optional ones
 * NULL and the core will not choose a method that needs them.
 * ---------------------------------------------------------------------
 */
typedef MfConn *(*MfConnectFn) (const MfConnParams *params, MfError *err);
typedef void (*MfDisconnectFn) (MfConn *conn);
typedef bool (*MfIsBrokenFn) (MfConn *conn);
typedef bool (*MfExecFn) (MfConn *conn, const char *sql, long *rows_affected,
						  MfError *err);
typedef bool (*MfBeginFn) (MfConn *conn, const char *begin_sql, MfError *err);

/*
 * A statement without parameters or rows, sent without waiting for the
 * answer: 1 sent, 0 not now (the connection is busy with a stream or a
 * command; nothing was done and the caller uses exec), -1 failed.
 * exec_finish then waits for the answer and reads it; commit: the statement
 * was a COMMIT, and a COMMIT that only rolled back a failed transaction is
 * an error (40000), as with commit.
 */
typedef int (*MfExecSendFn) (MfConn *conn, const char *sql, MfError *err);
typedef bool (*MfExecFinishFn) (MfConn *conn, bool commit, MfError *err);
typedef bool (*MfEndFn) (MfConn *conn, MfError *err);
typedef MfStmt *(*MfPrepareFn) (MfConn *conn, const char *sql, int nparams,
								const MfTypeClass *classes, MfError *err);
typedef bool (*MfExecuteFn) (MfStmt *stmt, const char *const *values,
							 long *rows_affected, MfResult **result,
							 MfError *err);
typedef void (*MfStmtCloseFn) (MfStmt *stmt);
/*
 * How a query's rows are read (MfTransport.query): the core's choice, from
 * what the planner expects of the result.
 */
typedef enum MfReadMode
{
	MF_READ_CURSOR,				/* through a server-side cursor, rows at a
								 * time (0: the transport's default), so
								 * that memory stays bounded and other
								 * statements may run on the connection
								 * between two fetches */
	MF_READ_FEW,				/* the planner expects at most rows rows:
								 * the first ones may come in the request's
								 * own exchange (no cursor, or one opened and
								 * fetched at once), read rows at a time;
								 * memory stays bounded if it is wrong */
	MF_READ_WHOLE				/* a small result read whole at once, without
								 * a cursor where the transport can do
								 * without one (rows unused) */
} MfReadMode;

typedef struct MfRead
{
	MfReadMode	mode;
	int			rows;
	bool		as_written;		/* a statement of the user's
								 * (multi_fdw_query), with MF_READ_FEW: it
								 * goes as one statement, exactly once (no
								 * second try another way when its answer
								 * turns out not to suit: it may write),
								 * and its rows are streamed */
} MfRead;

static inline MfRead
mf_read(MfReadMode mode, int rows)
{
	MfRead		r;

	r.mode = mode;
	r.rows = rows;
	r.as_written = false;
	return r;
}

typedef MfResult *(*MfQueryFn) (MfConn *conn, const char *sql, int nparams,
								const char *const *values,
								const MfTypeClass *classes, MfRead read,
								MfError *err);
typedef int (*MfFetchFn) (MfResult *res, MfError *err);
typedef int (*MfNColumnsFn) (MfResult *res);
typedef const char *(*MfValueFn) (MfResult *res, int row, int col);
typedef void (*MfResultCloseFn) (MfResult *res);
typedef const char *(*MfColumnNameFn) (MfResult *res, int col);
typedef MfResult *(*MfRequeryFn) (MfResult *old, const char *sql, int nparams,
								  const char *const *values,
								  const MfTypeClass *classes, MfRead read,
								  MfError *err);
typedef bool (*MfCancelFn) (MfConn *conn, MfError *err);
typedef bool (*MfHoldsLinkFn) (MfResult *res);
typedef bool (*MfRowsAllReadFn) (MfResult *res);

/*
 * optional (with holds_link): nobody will read the rows of the stream
 * still on the wire, if any (the subtransaction that was reading them
 * rolled back): they are read and dropped, so that the link is in step
 * for the next command, and the result, which stays to be closed, gives
 * an error if it is fetched from.
 */
typedef void (*MfDropStreamFn) (MfConn *conn);

/* Whether the remote session is inside a transaction, as far as it says. */
typedef enum MfXactState
{
	MF_XS_UNKNOWN,				/* the client library cannot tell */
	MF_XS_IDLE,					/* outside any transaction (or autocommit) */
	MF_XS_OPEN					/* inside one */
} MfXactState;
typedef MfXactState (*MfXactStateFn) (MfConn *conn);
typedef void (*MfForgetAllFn) (MfConn *conn);
typedef void (*MfSessionUnsureFn) (MfConn *conn);
typedef bool (*MfSessionKeptFn) (MfConn *conn, MfError *err);
typedef const char *(*MfServerVersionFn) (MfConn *conn);
typedef bool (*MfUsedPasswordFn) (MfConn *conn);

/*
 * optional: check one of this transport's connection keywords as CREATE or
 * ALTER SERVER gives it, before anything connects.  superuser: whether the
 * user setting it is one.  Refuses (false, err filled: SQLSTATE 42501 for
 * what only a superuser may set, 22023 for a malformed value) what could
 * make the server process load a library or open a file of this host.
 */
typedef bool (*MfCheckOptionFn) (const char *key, const char *value,
								 bool superuser, MfError *err);

/* optional: bulk stream (COPY FROM STDIN and the like) */
typedef bool (*MfCopyBeginFn) (MfConn *conn, const char *sql, MfError *err);
typedef bool (*MfCopySendFn) (MfConn *conn, const char *buf, size_t len,
							  MfError *err);
typedef bool (*MfCopyEndFn) (MfConn *conn, const char *abort_reason,
							 long *rows, MfError *err);

/*
 * optional: may this connection open a bulk stream now?  (MySQL's LOAD DATA
 * LOCAL needs the server's local_infile; the transport asks the server
 * once per connection.)  NULL: it may whenever copy_begin is there.  When
 * it may not, auto sends the rows another way.
 */
typedef bool (*MfCopyAvailableFn) (MfConn *conn);

/*
 * optional: parameter arrays.  Execute a prepared statement once for each of
 * nsets sets of values (values holds nsets * nparams texts, set by set) in
 * as few round trips as the library allows (MariaDB's bulk execution, ODBC
 * parameter arrays).  rows_affected is the total.  On error, err->row is the
 * 1-based set that failed when the library says; nothing of the call may be
 * assumed applied, and the core rolls the remote transaction back.
 */
typedef bool (*MfExecuteArrayFn) (MfStmt *stmt, int nsets,
								  const char *const *values,
								  long *rows_affected, MfError *err);

/*
 * optional: does this connection run parameter arrays in one round trip?
 * (MariaDB does, MySQL does not.)  NULL: it does whenever execute_array is
 * there.  When it does not, the core sends multi-row statements instead.
 */
typedef bool (*MfArraysNativeFn) (MfConn *conn);

/*
 * optional: the remote catalog for IMPORT FOREIGN SCHEMA, read through the
 * library's own catalog calls (ODBC's SQLTables / SQLColumns /
 * SQLPrimaryKeys) rather than the dialect's query.  The rows follow enum
 * MfImportColumn of dialect.h (at least up to the key column), ordered by
 * table and column position; a table without columns is one row with a
 * NULL column, a schema without tables one row with a NULL table, and a
 * schema that does not exist gives no row.  The type is the remote's name
 * with its size and scale where the type takes them ("varchar(20)",
 * "decimal(10,2)").
 */
typedef MfResult *(*MfCatalogColumnsFn) (MfConn *conn, const char *schema,
										 MfError *err);

/*
 * optional: the server's cap on one request, in bytes (MySQL's
 * max_allowed_packet), read once per connection; *bytes 0: no cap.  A
 * request the server finds too large is refused and the session dropped
 * with it, so the core never sends one: it cuts multi-row statements under
 * the cap and refuses a row that cannot fit.  It counts a request of n
 * values as the bytes they are sent as (a bytea decoded) plus
 * n * MF_PACKET_VALUE_OVERHEAD + MF_PACKET_REQUEST_OVERHEAD; a transport
 * with this member sends no request larger than that (parameter arrays
 * split by the transport itself may hold several such rows).
 */
typedef bool (*MfMaxPacketFn) (MfConn *conn, size_t *bytes, MfError *err);

/*
 * optional: the remote's own number for this session (PostgreSQL's backend
 * pid, MySQL's connection id), 0 when it has none.  Asks nothing of the
 * server.
 */
typedef unsigned long (*MfRemoteSessionFn) (MfConn *conn);

/*
 * optional: has the remote closed the link (the server ended the session,
 * or its host went away with the socket told)?  1 yes, 0 no, -1 cannot
 * tell on this platform.  Looks at the socket without waiting and reads
 * nothing from it.
 */
typedef int (*MfPeerClosedFn) (MfConn *conn);

#define MF_PACKET_VALUE_OVERHEAD	12	/* MySQL: type, length, NULL bit */
#define MF_PACKET_REQUEST_OVERHEAD	64	/* MySQL: command, statement, flags */

/*
 * optional: queue a statement that returns nothing and cannot fail in a
 * healthy remote transaction (SAVEPOINT, RELEASE SAVEPOINT) to go in front
 * of the next request instead of in an exchange of its own; if the
 * transaction ends first, its end takes the statement's place.  false:
 * not queued (no room, or the transaction is not healthy); the caller
 * sends it with exec.
 */
typedef bool (*MfDeferFn) (MfConn *conn, const char *sql);

/* optional: pipelining of prepared statements */
typedef bool (*MfPipelineBeginFn) (MfConn *conn, MfError *err);
typedef bool (*MfPipelineSendFn) (MfStmt *stmt, const char *const *values,
								  MfError *err);
typedef int (*MfPipelineCollectFn) (MfConn *conn, bool wait, long *rows_affected,
									MfError *err);
typedef bool (*MfPipelineEndFn) (MfConn *conn, MfError *err);

/*
 * optional: reading a query's next rows in the background.  async_send asks
 * for the next batch of up to rows rows and returns at once; the current
 * batch stays readable.  async_poll reads the answer: 1 when it is in (the
 * next fetch returns it without a round trip and without using the
 * connection, which another may hold by then), 0 when it is not yet (only
 * when wait is false), -1 on error.  While a request is out the connection
 * is busy: the core makes its owner finish it (async_poll with wait) before
 * anyone else uses the connection, and the transport does the same before
 * any other command as a last resort.
 */
typedef bool (*MfAsyncSendFn) (MfResult *res, int rows, MfError *err);
typedef int (*MfAsyncSocketFn) (MfConn *conn);
typedef int (*MfAsyncPollFn) (MfResult *res, bool wait, MfError *err);

/*
 * A connection keyword the transport takes from a server's or user
 * mapping's options.  The core's option table is its own options plus the
 * keywords of every transport built in; the validator refuses a keyword on
 * a server whose transport does not list it, and the connection gets only
 * the keywords its transport lists.
 */
#define MF_KW_SERVER	0x01	/* may be an option of a server */
#define MF_KW_USER		0x02	/* may be an option of a user mapping */

typedef struct MfConnKeyword
{
	const char *name;
	int			where;			/* MF_KW_SERVER and/or MF_KW_USER */
	bool		secret;			/* a credential: a non-empty one is what a
								 * non-superuser's mapping must carry */
	bool		superuser_only; /* names a file or a library of this host */
	const char *const *values;	/* the values it takes (any case),
								 * NULL-terminated; NULL: any text */
} MfConnKeyword;

typedef struct MfTransport
{
	const char *name;

	/* its connection keywords, ended by an entry with a NULL name */
	const MfConnKeyword *keywords;

	/*
	 * It can carry any dialect (ODBC); otherwise only the dialects whose
	 * default transport it is.
	 */
	bool		carries_any_dialect;

	/*
	 * Bind parameters one statement of this transport may carry, whatever
	 * the dialect allows; 0: no limit of its own.  A constant, so that
	 * EXPLAIN can show the rows per statement without connecting.
	 */
	int			max_params;

	/*
	 * How a statement of this transport marks its parameters: the core
	 * writes every marker in this style (mf_append_marker), so that the
	 * transport sends the SQL as it gets it and never reads it.  Required.
	 */
	MfMarkerStyle markers;

	/*
	 * The core may end the remote transaction with statements of its own
	 * (PREPARE TRANSACTION, XA ...) through exec, and the session follows.
	 * False where the library keeps its own transaction state (ODBC's
	 * SQLEndTran): such a server cannot take part in two-phase commit.
	 */
	bool		sql_transaction_control;

	/* the server setting max_packet reads, named in errors; NULL: none */
	const char *max_packet_setting;

	/*
	 * The driver reads date and timestamp values into a structure of its
	 * own before they become text, and loses what the structure cannot
	 * hold (psqlODBC: a BC date's era, infinity, years past 9999): the
	 * core then uses the dialect's datetimes_as_text, which has the remote
	 * send them as text.
	 */
	bool		converts_datetimes;

	/*
	 * It can log in with the keys of the session's own SCRAM login instead
	 * of a password (libpq 18's scram_client_key and scram_server_key): the
	 * option use_scram_passthrough (remote/scram_pass.c).
	 */
	bool		scram_passthrough;

	/*
	 * A result asked for as a few rows (MF_READ_FEW) costs no more per
	 * row than one read through a cursor, however big it turns out: the
	 * core may ask so for a result it reads through at once (a dependent
	 * join's key lists), saving the cursor's exchanges.
	 */
	bool		streams_any_result;

	/* required */
	MfConnectFn connect;		/* NULL and err filled on failure */
	MfDisconnectFn disconnect;	/* frees everything; never fails */
	MfIsBrokenFn is_broken;		/* true once the link is known to be lost */
	MfExecFn exec;				/* one statement, no parameters, no rows */
	MfBeginFn begin;			/* open a remote transaction; begin_sql is the
								 * dialect's statement, or NULL when the
								 * dialect leaves it to the transport.  It
								 * may send nothing yet: begin_sql may
								 * travel with (or be implicit in) the next
								 * request, whose error an error in it then
								 * is, and commit or rollback of a
								 * transaction in which nothing was sent
								 * send nothing either.  A transport that
								 * defers it must do what the core does
								 * when a begin of its own fails on a lost
								 * link: when that request finds the
								 * session gone before the server answered
								 * any of it, the transport connects again
								 * (the same keywords, password rule and
								 * set-up of MfConnParams, the statements
								 * the core holds prepared again), sends
								 * the request once more and counts a
								 * reconnect.  Any later loss is an error:
								 * a remote transaction that has begun is
								 * never moved to another session */
	MfEndFn commit;
	MfEndFn rollback;
	MfPrepareFn prepare;
	MfExecuteFn execute;		/* values: one per parameter; result may be
								 * NULL when no rows are wanted */
	MfStmtCloseFn stmt_close;	/* deallocates remotely when it still can */
	MfQueryFn query;			/* a query returning rows, read as read
								 * says (MfReadMode) */
	MfFetchFn fetch;			/* rows now available (0 at the end), -1 on
								 * error; values of the previous batch are
								 * gone */
	MfNColumnsFn ncolumns;
	MfValueFn value;			/* text value of the current batch, NULL for
								 * SQL NULL */
	MfResultCloseFn result_close;
	MfCancelFn cancel;			/* ask the server to stop what it is doing */
	MfForgetAllFn forget_all;	/* free every statement and result still
								 * open; the remote transaction is over */

	/* optional */
	MfServerVersionFn server_version;
	MfUsedPasswordFn used_password;	/* did the server check the password
									 * of a password_only connection?
									 * NULL: the transport cannot tell, so
									 * a non-superuser needs a server that
									 * a superuser marked with
									 * remote_requires_password */
	MfCheckOptionFn check_option;
	MfExecuteArrayFn execute_array;
	MfArraysNativeFn arrays_native;
	MfCopyAvailableFn copy_available;
	MfCopyBeginFn copy_begin;
	MfCopySendFn copy_send;
	MfCopyEndFn copy_end;		/* abort_reason non-NULL cancels the COPY */
	MfPipelineBeginFn pipeline_begin;
	MfPipelineSendFn pipeline_send;
	MfPipelineCollectFn pipeline_collect;	/* 1 result taken, 0 none ready
											 * (wait=false) or none left, -1
											 * error */
	MfPipelineEndFn pipeline_end;
	MfExecSendFn exec_send;		/* with exec_finish: the transaction
								 * statements of several servers at once
								 * (parallel_commit, parallel_abort);
								 * only with sql_transaction_control */
	MfExecFinishFn exec_finish;
	MfAsyncSendFn async_send;
	MfAsyncSocketFn async_socket;	/* the socket to wait on */
	MfAsyncPollFn async_poll;
	MfCatalogColumnsFn catalog_columns;
	MfMaxPacketFn max_packet;
	MfRemoteSessionFn remote_session;
	MfPeerClosedFn peer_closed;
	MfDeferFn	defer;
	MfHoldsLinkFn holds_link;	/* are rows of this result (a small one,
								 * read without a cursor) still on the
								 * wire, so that the connection carries
								 * nothing else until they are read?  The
								 * core then reads the rest itself before
								 * anyone else uses the connection and
								 * keeps it on its side (held_rows.c).
								 * Closing another result or statement
								 * meanwhile must not need the link.  A
								 * command the core sends without taking
								 * the rows first finds at most
								 * MF_STREAM_SPILL_MAX of them kept by the
								 * transport.  NULL: never */
	MfRowsAllReadFn rows_all_read;	/* are all the result's rows in the
									 * batch last fetched (the next fetch
									 * returns none, without an exchange)?
									 * NULL: cannot tell */
	MfDropStreamFn drop_stream;
	MfXactStateFn xact_state;	/* the remote's own word on whether it is in
								 * a transaction, without an exchange; read
								 * around a statement of the user's
								 * (multi_fdw_exec) to see whether it ended
								 * the transaction.  NULL: cannot tell */
	MfSessionUnsureFn session_unsure;	/* a statement of the user's is
										 * about to run (multi_fdw_exec,
										 * multi_fdw_query): what the
										 * transport set in the session for
										 * the transactions to come (an
										 * isolation level, an access mode)
										 * may not stay so; it is set again
										 * before the next one.  NULL: the
										 * transport sets nothing there */
	MfSessionKeptFn session_kept;	/* after a statement of the user's:
									 * is the access mode the transport
									 * set (READ ONLY) still the
									 * session's?  false: err says not, or
									 * why it could not tell.  NULL: the
									 * remote keeps it in the transaction
									 * itself */
	MfColumnNameFn column_name; /* the name the remote gave column col
								 * of the result (0-based), once its
								 * columns are known (the first fetch);
								 * NULL, or NULL returned: not known */
	MfRequeryFn requery;		/* result_close(old) and query() in one
								 * exchange: a rescan with new parameters;
								 * old is gone even on error.  NULL: the
								 * two calls */
} MfTransport;

/*
 * The most a transport reads into its own memory of a stream's rows (see
 * holds_link) when a command needs the link before the core took them: a
 * last resort, since the core takes them first (held_rows.c), where
 * work_mem and temp_file_limit apply.  Past it the rest is read and
 * dropped, and the stream's reader gets SQLSTATE 54000
 * (mf_error_spill_limit) instead of rows.
 */
#define MF_STREAM_SPILL_MAX		((size_t) 4 * 1024 * 1024)

/* the transports, defined in src/transport/ */
extern const MfTransport mf_transport_libpq;
extern const MfTransport mf_transport_mysql;
extern const MfTransport mf_transport_odbc;

#endif							/* MF_TRANSPORT_H */
