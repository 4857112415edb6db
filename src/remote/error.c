/*-------------------------------------------------------------------------
 *
 * error.c
 *		The one place where a transport's error record becomes a PostgreSQL
 *		error, and the wait that lets transports notice a cancel.
 *
 * The SQLSTATE is the dialect's mapping of the native code when it has
 * one (MySQL, SQL Server and Oracle report numbers), else the SQLSTATE the
 * remote sent (PostgreSQL passes its own through), else a connection or
 * FDW error.  The remote message, detail and hint are kept as they came;
 * the native code goes in the detail and the statement in the context.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "access/xact.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/memutils.h"
#include "utils/timeout.h"
#include "utils/wait_event.h"

#include "remote/remote.h"
#include "remote/connection_int.h"

/* the most of a server's messages relayed in one statement */
#define MF_RELAYED_MAX	100

/* the longest text of a relayed message's part */
#define MF_RELAYED_TEXT_MAX	4000

/* longest statement text quoted in an error context */
#define MF_CONTEXT_SQL_LEN	1000

static int
mf_sqlstate_code(const char *s)
{
	return MAKE_SQLSTATE(s[0], s[1], s[2], s[3], s[4]);
}

static bool
mf_valid_sqlstate(const char *s)
{
	if (strlen(s) != 5)
		return false;
	for (int i = 0; i < 5; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	/* "00000" and the generic ODBC/MySQL classes say nothing useful */
	return strcmp(s, "00000") != 0 && strncmp(s, "HY", 2) != 0;
}

static const char *
mf_step_name(MfStep step)
{
	switch (step)
	{
		case MF_STEP_CONNECT:
			return "connecting";
		case MF_STEP_EXEC:
			return "running";
		case MF_STEP_PREPARE:
			return "preparing";
		case MF_STEP_EXECUTE:
			return "executing";
		case MF_STEP_FETCH:
			return "fetching from";
		case MF_STEP_COPY:
			return "copying through";
		case MF_STEP_PIPELINE:
			return "pipelining";
		case MF_STEP_CANCEL:
			return "canceling";
		case MF_STEP_TRANSACTION:
			return "ending the transaction with";
	}
	return "running";
}

/*
 * A transport that stopped because our wait saw a pending interrupt only
 * knows that it was asked to cancel; why is in the backend's flags, read
 * here as ProcessInterrupts reads them.  The cancel is consumed: this error
 * is what it turns into, so it must not be reported a second time.
 * Returns NULL when no cancel of ours is pending (the remote cancelled on
 * its own, or interrupts are held off and the flag must stay).
 */
static const char *
mf_take_cancel_reason(int elevel)
{
	if (elevel < ERROR || !QueryCancelPending || QueryCancelHoldoffCount != 0)
		return NULL;
	QueryCancelPending = false;
	if (get_timeout_indicator(STATEMENT_TIMEOUT, true))
		return "canceling statement due to statement timeout";
	return "canceling statement due to user request";
}

/*
 * The SQLSTATE a dialect's error table gives a native error code, NULL
 * when it has none.
 *
 * *conn_lost is only ever raised, never cleared: the caller passes in what
 * the transport already knows, and an entry can only add that the error
 * means the connection is gone.
 *
 * The tables are a few dozen entries long and only consulted when a
 * statement has already failed, so a linear search is fine.
 */
static const MfErrorMap *
mf_dialect_error(const MfDialect *dialect, long native_code,
				 const char *message)
{
	for (int i = 0; i < dialect->n_error_map; i++)
	{
		const MfErrorMap *entry = &dialect->error_map[i];

		if (entry->native_code != native_code)
			continue;
		if (entry->when_message_has == NULL ||
			(message != NULL && strstr(message, entry->when_message_has) != NULL))
			return entry;
	}
	return NULL;
}

const char *
mf_dialect_sqlstate(const MfDialect *dialect, long native_code,
					bool *conn_lost)
{
	const MfErrorMap *entry = mf_dialect_error(dialect, native_code, NULL);

	if (entry == NULL)
		return NULL;
	if (conn_lost && entry->conn_lost)
		*conn_lost = true;
	return entry->sqlstate;
}

/*
 * Report err at elevel.  servername and dialect may be NULL; sql is the
 * statement that failed, or NULL.
 */
void
mf_report_error(int elevel, const char *servername, const MfDialect *dialect,
				const MfError *err, const char *sql)
{
	const char *mapped = NULL;
	const char *own_message = NULL;
	bool		lost = err->conn_lost;
	int			code;
	char		shortsql[MF_CONTEXT_SQL_LEN + 4];
	const char *cancel_reason = NULL;

	if (dialect != NULL && err->native_code != 0)
	{
		const MfErrorMap *entry = mf_dialect_error(dialect, err->native_code,
												   err->message);

		if (entry != NULL)
		{
			mapped = entry->sqlstate;
			own_message = entry->message;
			if (entry->conn_lost)
				lost = true;
		}
	}

	if (mapped != NULL)
		code = mf_sqlstate_code(mapped);
	else if (mf_valid_sqlstate(err->sqlstate))
		code = mf_sqlstate_code(err->sqlstate);
	else if (lost)
		code = ERRCODE_CONNECTION_FAILURE;
	else
		code = ERRCODE_FDW_ERROR;

	if (sql != NULL)
	{
		strlcpy(shortsql, sql, MF_CONTEXT_SQL_LEN + 1);
		if (strlen(sql) > MF_CONTEXT_SQL_LEN)
			strcat(shortsql, "...");
	}

	if (servername == NULL)
		servername = "?";

	if (code == ERRCODE_QUERY_CANCELED)
	{
		/* a termination is processed as such, not as this cancel */
		if (elevel >= ERROR && ProcDiePending)
			CHECK_FOR_INTERRUPTS();
		cancel_reason = mf_take_cancel_reason(elevel);
	}

	if (lost && mapped == NULL && !mf_valid_sqlstate(err->sqlstate))
		ereport(elevel,
				(errcode(code),
				 errmsg("connection to server \"%s\" was lost", servername),
				 errdetail_internal("%s", err->message),
				 sql ? errcontext("remote SQL on server \"%s\": %s",
								  servername, shortsql) : 0));
	else if (lost)
		ereport(elevel,
				(errcode(code),
				 errmsg("connection to server \"%s\" was lost: %s", servername,
						cancel_reason ? cancel_reason : err->message),
				 err->detail[0] ? errdetail_internal("%s", err->detail) : 0,
				 sql ? errcontext("remote SQL on server \"%s\": %s",
								  servername, shortsql) : 0));
	else
		ereport(elevel,
				(errcode(code),
				 cancel_reason ? errmsg_internal("%s", cancel_reason) :
				 own_message ? errmsg_internal("%s", own_message) :
				 errmsg_internal("%s", err->message[0] ? err->message :
								 "unknown error"),
				 own_message ? errdetail_internal("%s (remote error code %ld)",
												  err->message, err->native_code) :
				 err->detail[0] ? errdetail_internal("%s", err->detail) :
				 err->native_code != 0 ?
				 errdetail_internal("Remote error code %ld.", err->native_code) : 0,
				 err->hint[0] ? errhint("%s", err->hint) : 0,
				 err->row > 0 ?
				 errcontext("row %ld of the statement's input", err->row) : 0,
				 err->context[0] ? errcontext("remote context: %s", err->context) : 0,
				 sql ? errcontext("%s remote SQL on server \"%s\": %s",
								  mf_step_name(err->step), servername,
								  shortsql) : 0));
}

/*
 * The wait keeps a few wait-event sets (latch, postmaster death, one
 * socket) from one wait to the next.  Building a set for every wait, as
 * WaitLatchOrSocket does, costs an epoll instance, two registrations and a
 * close per exchange: several percent of a short statement's CPU on the
 * gateway.  A set is known by its socket's descriptor and inode, since a
 * connection closed and another opened on the same descriptor number is a
 * different socket, whose registration the kernel dropped with the old one.
 */
#define MF_WAIT_SETS	4

typedef struct MfWaitSet
{
	WaitEventSet *set;
	int			sock;			/* -1: matches nothing, rebuild on reuse */
	dev_t		dev;
	ino_t		ino;
	Latch	   *latch;
	uint32		events;			/* what the socket's entry waits for */
} MfWaitSet;

#define MF_WAIT_SOCKET_POS	2	/* latch, postmaster death, then the socket */

static MfWaitSet mf_wait_sets[MF_WAIT_SETS];
static int	mf_wait_next;		/* the slot a new socket takes */

/* the set for sock waiting for events, or NULL if sock cannot be examined */
static WaitEventSet *
mf_wait_set_for(int sock, uint32 events)
{
	struct stat st;
	MfWaitSet  *ws;

	if (fstat(sock, &st) != 0)
		return NULL;
	for (int i = 0; i < MF_WAIT_SETS; i++)
	{
		ws = &mf_wait_sets[i];
		if (ws->set == NULL || ws->sock != sock || ws->dev != st.st_dev ||
			ws->ino != st.st_ino || ws->latch != MyLatch)
			continue;
		if (ws->events != events)
		{
			/* an error here leaves the slot matching nothing */
			ws->sock = -1;
			ModifyWaitEvent(ws->set, MF_WAIT_SOCKET_POS, events, NULL);
			ws->events = events;
			ws->sock = sock;
		}
		return ws->set;
	}

	ws = &mf_wait_sets[mf_wait_next];
	mf_wait_next = (mf_wait_next + 1) % MF_WAIT_SETS;
	if (ws->set != NULL)
		FreeWaitEventSet(ws->set);
	ws->sock = -1;
	ws->set = mf_create_wait_event_set(3);
	AddWaitEventToSet(ws->set, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(ws->set, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET,
					  NULL, NULL);
	AddWaitEventToSet(ws->set, events, sock, NULL, NULL);
	ws->dev = st.st_dev;
	ws->ino = st.st_ino;
	ws->latch = MyLatch;
	ws->events = events;
	ws->sock = sock;
	return ws->set;
}

/*
 * The wait transports use: the socket or the latch.  A pending cancel or
 * termination is reported (0) rather than processed, so that no longjmp
 * crosses the transport's code; the core processes it once the transport
 * has returned.
 */
static int
mf_latch_wait(int sock, bool for_write)
{
	uint32		events = for_write ? WL_SOCKET_WRITEABLE : WL_SOCKET_READABLE;

	for (;;)
	{
		WaitEventSet *set;
		int			rc;

		if (QueryCancelPending || ProcDiePending)
			return 0;
		set = mf_wait_set_for(sock, events);
		if (set != NULL)
		{
			WaitEvent	occurred;

			rc = WaitEventSetWait(set, -1L, &occurred, 1, PG_WAIT_EXTENSION)
				> 0 ? (int) occurred.events : 0;
		}
		else					/* WaitLatchOrSocket reports the bad socket */
			rc = WaitLatchOrSocket(MyLatch,
								   WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | events,
								   sock, -1L, PG_WAIT_EXTENSION);
		if (rc & WL_LATCH_SET)
			ResetLatch(MyLatch);
		if (rc & (WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE))
			return 1;
	}
}

/*
 * Read from a transport's watcher thread as well: plain loads of flags
 * that only the main thread's signal handlers set.
 */
static bool
mf_pending_interrupt(void)
{
	return QueryCancelPending || ProcDiePending;
}

void
mf_install_wait(void)
{
	mf_wait_socket = mf_latch_wait;
	mf_interrupt_pending = mf_pending_interrupt;
}

/*
 * A part of a remote message, made fit to be shown: the remote chose its
 * text, and the client must not be shown what the gateway did not mean
 * (a line that reads as another server's message) nor fail to take it.
 * Bytes that are not a character of the database's encoding become '?';
 * control characters a space (a detail and a hint keep their line
 * breaks); where the client's encoding is not the database's, characters
 * beyond ASCII are written as U+XXXX (UTF-8) or '?', since a character
 * the client's encoding lacks would make the report itself an error; and
 * at most MF_RELAYED_TEXT_MAX bytes are kept.
 */
static char *
mf_relay_text(const char *s, bool lines)
{
	int			db = GetDatabaseEncoding();
	bool		ascii_only = pg_get_client_encoding() != db;
	StringInfoData out;
	const char *end;

	if (s == NULL)
		return NULL;
	end = s + strlen(s);
	initStringInfo(&out);
	while (s < end && out.len < MF_RELAYED_TEXT_MAX)
	{
		unsigned char c = (unsigned char) *s;
		int			len;

		if (c < 0x80)
		{
			appendStringInfoChar(&out, (c < 0x20 && !(lines && c == '\n')) ||
								 c == 0x7f ? ' ' : (char) c);
			s++;
			continue;
		}
		len = pg_encoding_verifymbchar(db, s, end - s);
		if (len <= 0)
		{
			appendStringInfoChar(&out, '?');
			s++;
			continue;
		}
		if (!ascii_only)
			appendBinaryStringInfo(&out, s, len);
		else if (db == PG_UTF8)
			appendStringInfo(&out, "U+%04X",
							 (unsigned int) utf8_to_unicode((const unsigned char *) s));
		else
			appendStringInfoChar(&out, '?');
		s += len;
	}
	if (s < end)
		appendStringInfoString(&out, "...");
	return out.data;
}

/*
 * A message of the remote's that is not an error (a transport's
 * on_message, set when the server's relay_messages is on): to the client
 * at its own level, named after the server, with its SQLSTATE, detail and
 * hint, each made fit to be shown (mf_relay_text), the server's name too
 * (a name the client's encoding lacks would make the report an error).  At most
 * MF_RELAYED_MAX per connection and local statement (a remote loop that
 * warns for every row must not flood the client), then one word that the
 * rest are not shown; false once that is so (msg NULL: the transport has
 * more and asks whether to read them).
 * Called from inside the transports: nothing here raises an error (elevel
 * below ERROR, and no text the client could refuse).
 */
bool
mf_relay_message(void *arg, const MfMessage *msg)
{
	MfConnEntry *entry = arg;
	TimestampTz stmt = GetCurrentStatementStartTimestamp();
	int			elevel;

	if (entry->relayed_in != stmt)
	{
		entry->relayed_in = stmt;
		entry->relayed = 0;
	}
	/* a transport that has more asks first: they would not be shown */
	if (msg == NULL && entry->relayed < MF_RELAYED_MAX)
		return true;
	if (++entry->relayed > MF_RELAYED_MAX)
	{
		if (entry->relayed == MF_RELAYED_MAX + 1)
			ereport(NOTICE,
					(errmsg("further messages of server \"%s\" in this statement are not shown",
							mf_relay_text(entry->servername, false))));
		return false;
	}
	elevel = msg->level == MF_MSG_WARNING ? WARNING :
		msg->level == MF_MSG_INFO ? INFO : NOTICE;
	ereport(elevel,
			(msg->sqlstate != NULL && mf_valid_sqlstate(msg->sqlstate) ?
			 errcode(mf_sqlstate_code(msg->sqlstate)) : 0,
			 errmsg_internal("server \"%s\": %s",
							 mf_relay_text(entry->servername, false),
							 mf_relay_text(msg->message, false)),
			 msg->detail != NULL ?
			 errdetail_internal("%s", mf_relay_text(msg->detail, true)) : 0,
			 msg->hint != NULL ?
			 errhint("%s", mf_relay_text(msg->hint, true)) : 0));
	return entry->relayed < MF_RELAYED_MAX;
}
