/*-------------------------------------------------------------------------
 *
 * connection.c
 *		The connection cache and the remote transactions tied to local ones.
 *
 * One connection per user mapping, kept for the session.  The first use
 * inside a local transaction opens a remote one; every subtransaction level
 * reached since gets a remote savepoint.  Commit and abort of the local
 * transaction (and subtransaction) commit or roll back the remote ones.
 *
 * A connection may have one owner of an unfinished stream (an open COPY, a
 * pipeline with results pending).  Anyone else who wants the connection
 * claims it first, and the owner finishes its stream.  On abort the stream
 * is ended by the transport, without calling the owner, whose memory may
 * already be gone.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/xact.h"
#include "catalog/pg_user_mapping.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "remote/remote.h"
#include "remote/connection_int.h"

/*
 * How a transaction ends on the remotes is twophase.c's to say: it sits
 * beside this file and sets these as the library loads
 * (mf_twophase_init), so that the two never call each other in a circle.
 */
static const MfTwophaseHooks *mf_twophase_hooks = NULL;

void
mf_conn_set_twophase_hooks(const MfTwophaseHooks *hooks)
{
	mf_twophase_hooks = hooks;
}

static HTAB *mf_connections = NULL;

/* The cache itself, for the SQL functions that list it (connection_list.c) */
HTAB *
mf_connection_cache(void)
{
	return mf_connections;
}

static void mf_disconnect(MfConnEntry *entry);
static bool mf_xact_got_connection = false;

static void mf_xact_callback(XactEvent event, void *arg);
static void mf_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
								SubTransactionId parentSubid, void *arg);
static void mf_inval_callback(Datum arg, int cacheid, uint32 hashvalue);

/* Say goodbye to every server when the backend exits, rather than vanish. */
static void
mf_exit_callback(int code, Datum arg)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;

	hash_seq_init(&scan, mf_connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
		if (entry->conn != NULL)
			mf_disconnect(entry);
}

void
mf_connection_init(void)
{
	HASHCTL		ctl;

	if (mf_connections != NULL)
		return;
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(MfConnEntry);
	mf_connections = hash_create("multi_fdw connections", 8, &ctl,
								 HASH_ELEM | HASH_BLOBS);

	RegisterXactCallback(mf_xact_callback, NULL);
	RegisterSubXactCallback(mf_subxact_callback, NULL);
	CacheRegisterSyscacheCallback(FOREIGNSERVEROID, mf_inval_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(USERMAPPINGOID, mf_inval_callback, (Datum) 0);
	before_shmem_exit(mf_exit_callback, (Datum) 0);
}

static void
mf_disconnect(MfConnEntry *entry)
{
	if (entry->conn != NULL)
	{
		entry->transport->disconnect(entry->conn);
		entry->conn = NULL;
	}
	entry->xact_depth = 0;
	entry->read_only_depth = 0;
	entry->changing_xact_state = false;
	entry->stream_owner = NULL;
	entry->stream_finish = NULL;
	/* what it was told goes with it (remote_facts.c) */
	if (entry->facts_cxt != NULL)
		MemoryContextReset(entry->facts_cxt);
	entry->remembered = NIL;
}

/* Connect, enforce the password rule, and set the session up. */
/*
 * Run one session-setup statement; on failure drop the half-set-up
 * connection, so that the next use starts over, and raise the error.
 */
static void
mf_session_exec(MfConnEntry *entry, const char *sql)
{
	MfError		err;

	mf_error_clear(&err);
	if (!entry->transport->exec(entry->conn, sql, NULL, &err))
	{
		MfError		copy = err;

		mf_disconnect(entry);
		mf_report_error(ERROR, entry->servername, entry->dialect, &copy, sql);
	}
}

/*
 * After a server's own session_sql: ask the session whether it still has
 * what the dialect relies on (see session_check_sql), so that session_sql
 * cannot weaken it unseen.
 */
static void
mf_session_check(MfConnEntry *entry)
{
	const char *sql = entry->dialect->session_check_sql;
	MfResult   *res;
	MfError		err;
	char	   *missing = NULL;
	int			n;

	if (sql == NULL)
		return;
	mf_error_clear(&err);
	res = entry->transport->query(entry->conn, sql, 0, NULL, NULL,
								  mf_read(MF_READ_CURSOR, 1), &err);
	n = res != NULL ? entry->transport->fetch(res, &err) : -1;
	if (n > 0)
	{
		const char *v = entry->transport->value(res, 0, 0);

		if (v != NULL && v[0] != '\0')
			missing = pstrdup(v);
	}
	if (res != NULL)
		entry->transport->result_close(res);
	if (n < 0)
	{
		MfError		copy = err;

		mf_disconnect(entry);
		mf_report_error(ERROR, entry->servername, entry->dialect, &copy, sql);
	}
	if (missing != NULL)
	{
		mf_disconnect(entry);
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("session_sql of server \"%s\" leaves out what the %s dialect relies on: %s",
						entry->servername, entry->dialect->name, missing),
				 errhint("Keep these settings in session_sql, as the dialect's own set-up has them.")));
	}
}

/*
 * The statements that make a new session read and write values the way
 * the deparser assumes: the dialect's setup, or the server's session_sql
 * instead of it.  session_sql may hold several statements separated by
 * semicolons; each is sent on its own, because some servers (Oracle) run
 * one statement per call.  A semicolon inside quotes does not separate.
 */
static List *
mf_session_statements(const MfOptions *opts)
{
	List	   *stmts = NIL;
	const char *p;
	const char *start;
	char		quote = 0;

	if (opts->session_sql == NULL)
	{
		if (opts->dialect->session_setup_sql != NULL)
			stmts = list_make1(pstrdup(opts->dialect->session_setup_sql));
		return stmts;
	}

	start = opts->session_sql;
	for (p = start;; p++)
	{
		if (quote != 0 && *p == quote)
			quote = 0;
		else if (quote == 0 && (*p == '\'' || *p == '"' || *p == '`'))
			quote = *p;
		else if (*p == '\0' || (quote == 0 && *p == ';'))
		{
			const char *s = start;
			const char *e = p;

			while (s < e && isspace((unsigned char) *s))
				s++;
			while (e > s && isspace((unsigned char) e[-1]))
				e--;
			if (e > s)
				stmts = lappend(stmts, pnstrdup(s, e - s));
			start = p + 1;
		}
		if (*p == '\0')
			break;
	}
	return stmts;
}

/* Set a new session up (mf_session_statements) and check session_sql. */
static void
mf_session_setup(MfConnEntry *entry, const MfOptions *opts, List *stmts)
{
	ListCell   *lc;

	foreach(lc, stmts)
		mf_session_exec(entry, lfirst(lc));
	if (opts->session_sql != NULL)
		mf_session_check(entry);
}

static void
mf_connect(MfConnEntry *entry, UserMapping *user, const MfOptions *opts)
{
	ForeignServer *server = GetForeignServer(user->serverid);
	List	   *keys;
	List	   *values;
	MfConnParams params;
	const char **k;
	const char **v;
	int			i = 0;
	ListCell   *lk,
			   *lv;
	MfError		err;
	bool		check_password = !superuser_arg(user->userid) &&
		mf_password_required(user);
	List	   *setup = mf_session_statements(opts);
	const char **setup_sql;

	/*
	 * A server's owner decides where its connections go and what they run
	 * as they begin (session_sql, init_command, libpq's options): a
	 * superuser's credentials must not follow the choices of an owner who
	 * is not one (the remote may be this very gateway, trusting its host).
	 */
	if (superuser_arg(user->userid) && !superuser_arg(server->owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("a superuser's user mapping cannot be used with server \"%s\", which a non-superuser owns",
						server->servername),
				 errdetail("The server's owner decides where its connections go and what they run as they begin."),
				 errhint("Make a superuser the owner of the server, or use it as a role that is not a superuser.")));

	mf_connection_params(server, user, opts->transport, &keys, &values);
	/* the keys of a SCRAM login stand for the password (scram_pass.c) */
	params.password_only = check_password;
	if (mf_scram_passthrough_params(server, user, opts->transport, &keys, &values))
		check_password = false;

	if (check_password)
	{
		bool		has_password = false;

		/*
		 * An empty password is no password: the client library would fill
		 * it in from this host's own store (.pgpass, a service file, the
		 * driver's DSN) on the mapping's behalf.
		 */
		forboth(lk, keys, lv, values)
		{
			const MfConnKeyword *kw = mf_transport_keyword(opts->transport,
														   lfirst(lk));

			if (kw != NULL && kw->secret && ((char *) lfirst(lv))[0] != '\0')
				has_password = true;
		}
		if (!has_password)
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
					 errmsg("password is required to connect to server \"%s\"",
							server->servername),
					 errdetail("Non-superusers must provide a non-empty password in the user mapping."),
					 mf_use_scram_passthrough(server, user) ?
					 errhint("use_scram_passthrough passes on the keys of a SCRAM login; this session did not log in with SCRAM.") : 0));

		/*
		 * A transport that cannot see whether the remote used the password
		 * (ODBC) must not let a non-superuser borrow the remote's trust of
		 * this host: only a superuser can vouch for the remote.
		 */
		if (opts->transport->used_password == NULL &&
			!mf_remote_requires_password(server))
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
					 errmsg("non-superuser cannot connect to server \"%s\" through transport \"%s\"",
							server->servername, opts->transport->name),
					 errdetail("Transport \"%s\" cannot tell whether the remote server checked the password.",
							   opts->transport->name),
					 errhint("A superuser who knows that the remote server asks every login through this server for its password can set the server option remote_requires_password to true.")));
	}

	k = palloc(sizeof(char *) * list_length(keys));
	v = palloc(sizeof(char *) * list_length(keys));
	forboth(lk, keys, lv, values)
	{
		k[i] = lfirst(lk);
		v[i] = lfirst(lv);
		i++;
	}
	params.n = i;
	params.keys = k;
	params.values = v;
	entry->stats = mf_stats_slot(user->serverid, user->userid,
								 server->servername);
	params.wire = mf_stats_wire(entry->stats);
	params.on_message = opts->relay_messages ? mf_relay_message : NULL;
	params.message_arg = entry;
	entry->relayed = 0;

	/* kept by a transport that reconnects under a deferred begin */
	setup_sql = palloc(sizeof(char *) * (list_length(setup) + 1));
	i = 0;
	foreach(lk, setup)
		setup_sql[i++] = lfirst(lk);
	params.nsetup = i;
	params.setup = setup_sql;
	params.setup_check = opts->session_sql != NULL ?
		opts->dialect->session_check_sql : NULL;

	mf_error_clear(&err);
	entry->dialect = opts->dialect;
	entry->transport = opts->transport;
	entry->two_phase = opts->two_phase_commit;
	entry->conn = entry->transport->connect(&params, &err);
	if (entry->conn == NULL)
	{
		bool		lost;
		const char *state = err.native_code != 0 ?
		mf_dialect_sqlstate(entry->dialect, err.native_code, &lost) : NULL;

		if (state == NULL)
			state = err.sqlstate[0] ? err.sqlstate : "08001";
		mf_stats_error(entry->stats, err.message);
		ereport(ERROR,
				(errcode(MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4])),
				 errmsg("could not connect to server \"%s\"", server->servername),
				 errdetail_internal("%s", err.message)));
	}

	/*
	 * A non-superuser must not borrow the remote's trust of this host, so
	 * the server must actually have asked for the password.
	 */
	if (check_password && entry->transport->used_password != NULL &&
		!entry->transport->used_password(entry->conn))
	{
		mf_disconnect(entry);
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required to connect to server \"%s\"",
						server->servername),
				 errdetail("Non-superuser cannot connect if the server does not request a password."),
				 errhint("Target server's authentication method must be changed or set password_required=false in the user mapping attributes.")));
	}

	mf_stats_connected(entry->stats);
	mf_session_setup(entry, opts, setup);
	mf_xact_probe_check(entry);
}

/*
 * A SAVEPOINT or RELEASE cannot fail in a healthy remote transaction: it goes
 * with the next request where the transport can (psql's ON_ERROR_ROLLBACK
 * wraps every statement in one).  A ROLLBACK TO can fail and goes at once.
 */
bool
mf_defer_or_exec(MfConnEntry *entry, const char *sql, MfError *err)
{
	mf_claim_connection(entry, NULL);	/* rows on the wire are read first */
	if (entry->transport->defer != NULL &&
		entry->transport->defer(entry->conn, sql))
		return true;
	return entry->transport->exec(entry->conn, sql, NULL, err);
}

/*
 * A local transaction that became read-only after its remote one opened
 * (SET TRANSACTION READ ONLY, in it or in a subtransaction) makes the
 * remote one read-only too, where the remote can change it, with the next
 * request.  A subtransaction rolled back takes the local setting back, and
 * the remote's with its savepoint (read_only_depth, mf_subxact_callback).
 */
static void
mf_follow_read_only(MfConnEntry *entry)
{
	const char *sql = entry->dialect->read_only_sql;
	MfError		err;

	if (!XactReadOnly || entry->read_only_depth > 0 || sql == NULL ||
		entry->xa_open)
		return;
	mf_error_clear(&err);
	entry->changing_xact_state = true;
	if (!mf_defer_or_exec(entry, sql, &err))
		mf_raise_error(ERROR, entry, &err, sql);
	entry->changing_xact_state = false;
	entry->read_only_depth = entry->xact_depth;
}

/*
 * Open the remote transaction and savepoints up to the local level.
 * reused: the connection comes from the cache rather than from this call.
 */
static void
mf_begin_remote_xact(MfConnEntry *entry, bool reused, UserMapping *user,
					 const MfOptions *opts)
{
	int			curlevel = GetCurrentTransactionNestLevel();
	MfError		err;

	mf_error_clear(&err);
	if (entry->xact_depth <= 0)
	{
		const char *sql = entry->dialect->begin_sql ?
		entry->dialect->begin_sql(IsolationIsSerializable(), XactReadOnly,
								  XactDeferrable) : NULL;
		const char *xa_sql = mf_twophase_hooks->begin_sql(entry);

		/* a server that may be prepared opens its XA transaction at once */
		if (xa_sql != NULL)
			sql = xa_sql;
		entry->written = false;
		entry->prepared = false;
		entry->xa_open = false;
		entry->intent_logged = false;

		entry->changing_xact_state = true;
		if (!entry->transport->begin(entry->conn, sql, &err))
		{
			/*
			 * A cached connection may have died while idle (the remote
			 * restarted).  Nothing of this transaction has been sent on it
			 * yet, so a new connection loses nothing: reconnect once, as
			 * postgres_fdw does.  A fresh connection that cannot begin
			 * would fail again.
			 */
			if (!reused || !(err.conn_lost ||
							 entry->transport->is_broken(entry->conn)))
				mf_raise_error(ERROR, entry, &err,
							   sql ? sql : "(begin transaction)");
			ereport(DEBUG1,
					(errmsg_internal("multi_fdw: reconnecting to server \"%s\": %s",
									 entry->servername, err.message)));
			mf_disconnect(entry);
			mf_connect(entry, user, opts);
			mf_error_clear(&err);
			entry->changing_xact_state = true;
			if (!entry->transport->begin(entry->conn, sql, &err))
				mf_raise_error(ERROR, entry, &err,
							   sql ? sql : "(begin transaction)");
		}
		entry->changing_xact_state = false;
		entry->xa_open = xa_sql != NULL;
		entry->xact_depth = 1;
		entry->read_only_depth = XactReadOnly && xa_sql == NULL ? 1 : 0;
	}

	while (entry->xact_depth < curlevel)
	{
		char		sql[64];

		snprintf(sql, sizeof(sql), entry->dialect->savepoint_fmt,
				 entry->xact_depth + 1);
		entry->changing_xact_state = true;
		if (!mf_defer_or_exec(entry, sql, &err))
			mf_raise_error(ERROR, entry, &err, sql);
		entry->changing_xact_state = false;
		entry->xact_depth++;
	}
	mf_follow_read_only(entry);
}

/*
 * The connection for a user mapping, connected and inside a remote
 * transaction at the current local level.
 */
MfConnEntry *
mf_get_connection(UserMapping *user, const MfOptions *opts)
{
	MfConnEntry *entry;
	bool		found;
	bool		reused;

	mf_connection_init();

	entry = hash_search(mf_connections, &user->umid, HASH_ENTER, &found);
	if (!found)
	{
		entry->conn = NULL;
		entry->xact_depth = 0;
		entry->read_only_depth = 0;
		entry->changing_xact_state = false;
		entry->written = false;
		entry->xa_open = false;
		entry->prepared = false;
		entry->intent_logged = false;
		entry->stream_owner = NULL;
		entry->stream_finish = NULL;
		entry->remembered = NIL;
		entry->facts_cxt = NULL;
		entry->facts_epoch = 0;
		entry->stats = NULL;
	}

	/* A connection whose options changed is replaced once it is idle. */
	if (entry->conn != NULL && entry->invalidated && entry->xact_depth == 0)
		mf_disconnect(entry);

	/*
	 * A connection lost outside a transaction is replaced silently.  A
	 * transport may send the begin with the transaction's first statement,
	 * when it is too late to reconnect, so a remote that closed the link
	 * while we were idle (it restarted) is noticed now, from the socket.
	 */
	if (entry->conn != NULL && entry->xact_depth == 0 &&
		(entry->transport->is_broken(entry->conn) ||
		 (entry->transport->peer_closed != NULL &&
		  entry->transport->peer_closed(entry->conn) == 1)))
		mf_disconnect(entry);

	reused = entry->conn != NULL;
	if (entry->conn == NULL)
	{
		entry->key = user->umid;
		entry->serverid = user->serverid;
		strlcpy(entry->servername, opts->servername, NAMEDATALEN);
		strlcpy(entry->username,
				OidIsValid(user->userid) ? GetUserNameFromId(user->userid, false)
				: "public", NAMEDATALEN);
		entry->invalidated = false;
		entry->keep_connections = opts->keep_connections;
		entry->parallel_commit = opts->parallel_commit;
		entry->parallel_abort = opts->parallel_abort;
		entry->server_hashvalue =
			GetSysCacheHashValue1(FOREIGNSERVEROID, ObjectIdGetDatum(user->serverid));
		entry->mapping_hashvalue =
			GetSysCacheHashValue1(USERMAPPINGOID, ObjectIdGetDatum(user->umid));
		mf_connect(entry, user, opts);
	}
	else if (entry->changing_xact_state || entry->transport->is_broken(entry->conn))
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_EXCEPTION),
				 errmsg("connection to server \"%s\" was lost", entry->servername),
				 errdetail("The remote transaction cannot go on; roll back and retry.")));

	mf_xact_got_connection = true;
	mf_begin_remote_xact(entry, reused, user, opts);
	return entry;
}

/*
 * A connection of its own, outside the cache and outside any remote
 * transaction (for ending another session's prepared transaction, which
 * cannot be done inside one): the password rules and the session set-up as
 * for any other.  mf_disconnect_private ends it.
 */
MfConnEntry *
mf_connect_private(UserMapping *user, const MfOptions *opts)
{
	MfConnEntry *entry = palloc0(sizeof(MfConnEntry));

	entry->key = user->umid;
	entry->serverid = user->serverid;
	strlcpy(entry->servername, opts->servername, NAMEDATALEN);
	mf_connect(entry, user, opts);
	return entry;
}

void
mf_disconnect_private(MfConnEntry *entry)
{
	mf_disconnect(entry);
	if (entry->facts_cxt != NULL)
		MemoryContextDelete(entry->facts_cxt);
	pfree(entry);
}

/* This transaction changes rows through the connection (twophase.c). */
void
mf_conn_mark_written(MfConnEntry *entry)
{
	entry->written = true;
}

/*
 * Has the local transaction already opened a remote one on this user
 * mapping's connection, which may hold work of it?
 */
bool
mf_conn_xact_open(UserMapping *user)
{
	MfConnEntry *entry;

	if (mf_connections == NULL)
		return false;
	entry = hash_search(mf_connections, &user->umid, HASH_FIND, NULL);
	return entry != NULL && entry->conn != NULL && entry->xact_depth > 0;
}

MfConn *
mf_conn(MfConnEntry *entry)
{
	return entry->conn;
}

const MfTransport *
mf_conn_transport(MfConnEntry *entry)
{
	return entry->transport;
}

const MfDialect *
mf_conn_dialect(MfConnEntry *entry)
{
	return entry->dialect;
}

MfStatsSlot *
mf_conn_stats(MfConnEntry *entry)
{
	return entry->stats;
}

const char *
mf_conn_server_name(MfConnEntry *entry)
{
	return entry->servername;
}

/*
 * About to use the connection: if someone else has a stream open on it, ask
 * them to finish first.
 */
void
mf_claim_connection(MfConnEntry *entry, void *owner)
{
	if (entry->stream_owner != NULL && entry->stream_owner != owner)
	{
		void	   *prev = entry->stream_owner;
		MfStreamFinish finish = entry->stream_finish;

		entry->stream_owner = NULL;
		entry->stream_finish = NULL;
		finish(prev);
	}
}

void
mf_set_stream_owner(MfConnEntry *entry, void *owner, MfStreamFinish finish)
{
	mf_claim_connection(entry, owner);
	entry->stream_owner = owner;
	entry->stream_finish = finish;
}

/* Is owner the one holding an unfinished stream on it (NULL: nobody)? */
bool
mf_conn_owned_by(MfConnEntry *entry, void *owner)
{
	return entry->stream_owner == owner;
}

void
mf_clear_stream_owner(MfConnEntry *entry, void *owner)
{
	if (entry->stream_owner == owner)
	{
		entry->stream_owner = NULL;
		entry->stream_finish = NULL;
	}
}

/* Run one statement with no rows, raising any error. */
void
mf_conn_exec(MfConnEntry *entry, const char *sql, long *rows)
{
	MfError		err;

	mf_claim_connection(entry, NULL);
	mf_error_clear(&err);
	if (!entry->transport->exec(entry->conn, sql, rows, &err))
		mf_raise_error(ERROR, entry, &err, sql);
}

/* ---------------------------------------------------------------------
 * Transaction callbacks
 * ---------------------------------------------------------------------
 */

/* End the remote transaction after a local abort; never raises. */
void
mf_abort_remote(MfConnEntry *entry)
{
	MfError		err;

	entry->stream_owner = NULL;
	entry->stream_finish = NULL;
	if (entry->conn == NULL)
		return;
	mf_error_clear(&err);
	if (entry->transport->is_broken(entry->conn) ||
		!entry->transport->rollback(entry->conn, &err))
	{
		if (!entry->transport->is_broken(entry->conn))
			mf_report_error(WARNING, entry->servername, entry->dialect, &err,
							"ROLLBACK");
		entry->changing_xact_state = true;	/* drop it below */
	}
}

static void
mf_xact_callback(XactEvent event, void *arg)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;

	if (!mf_xact_got_connection)
		return;

	switch (event)
	{
		case XACT_EVENT_PARALLEL_PRE_COMMIT:
		case XACT_EVENT_PRE_COMMIT:
			/* prepares where it must, commits the rest (twophase.c) */
			mf_twophase_hooks->pre_commit(mf_connections);
			return;
		case XACT_EVENT_PRE_PREPARE:
			hash_seq_init(&scan, mf_connections);
			while ((entry = hash_seq_search(&scan)) != NULL)
				if (entry->conn != NULL && entry->xact_depth > 0)
					ereport(ERROR,
							(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
							 errmsg("cannot PREPARE a transaction that has used multi_fdw foreign tables")));
			return;
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_COMMIT:
			/* the decision is made: commit what was prepared */
			mf_twophase_hooks->commit(mf_connections);
			break;
		case XACT_EVENT_PREPARE:
			break;
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_ABORT:
			mf_twophase_hooks->abort_all(mf_connections);
			break;
	}

	/* The transaction is over: release per-transaction state. */
	hash_seq_init(&scan, mf_connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry->conn == NULL)
			continue;
		if (entry->xact_depth > 0)
			entry->transport->forget_all(entry->conn);
		entry->xact_depth = 0;
		entry->read_only_depth = 0;
		mf_conn_forget_facts(entry);	/* remote_facts.c's rule */
		entry->stream_owner = NULL;
		entry->stream_finish = NULL;

		if (entry->changing_xact_state || entry->invalidated ||
			!entry->keep_connections ||
			entry->transport->is_broken(entry->conn))
			mf_disconnect(entry);
	}
	mf_xact_got_connection = false;
	mf_stats_xact_end();
}

static void
mf_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
					SubTransactionId parentSubid, void *arg)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;
	int			curlevel;

	if (!(event == SUBXACT_EVENT_PRE_COMMIT_SUB ||
		  event == SUBXACT_EVENT_ABORT_SUB))
		return;
	if (!mf_xact_got_connection)
		return;

	curlevel = GetCurrentTransactionNestLevel();
	hash_seq_init(&scan, mf_connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		char		sql[100];
		MfError		err;

		if (entry->conn == NULL || entry->xact_depth < curlevel)
			continue;
		if (entry->xact_depth > curlevel)
			elog(ERROR, "missed cleaning up remote subtransaction at level %d",
				 entry->xact_depth);

		mf_error_clear(&err);
		if (event == SUBXACT_EVENT_PRE_COMMIT_SUB)
		{
			mf_claim_connection(entry, NULL);
			if (entry->dialect->release_savepoint_fmt != NULL)
			{
				snprintf(sql, sizeof(sql), entry->dialect->release_savepoint_fmt,
						 curlevel);
				entry->changing_xact_state = true;
				if (!mf_defer_or_exec(entry, sql, &err))
					mf_raise_error(ERROR, entry, &err, sql);
				entry->changing_xact_state = false;
			}
		}
		else if (!entry->changing_xact_state)
		{
			/*
			 * A stream cut short by the error is ended first, so that the
			 * remote session accepts the ROLLBACK TO.  Rows still on the
			 * wire were the aborted subtransaction's (a savepoint claims
			 * the connection: the rows of an outer level's scan went to
			 * its tuplestore then), and its reader is gone: they are
			 * dropped, not read into memory for nobody.
			 */
			if (entry->transport->drop_stream != NULL)
				entry->transport->drop_stream(entry->conn);
			if (entry->stream_owner != NULL)
			{
				entry->stream_owner = NULL;
				entry->stream_finish = NULL;
				if (entry->transport->copy_end != NULL)
					(void) entry->transport->copy_end(entry->conn,
													  "subtransaction aborted",
													  NULL, &err);
				if (entry->transport->pipeline_end != NULL)
					(void) entry->transport->pipeline_end(entry->conn, &err);
				mf_error_clear(&err);
			}
			snprintf(sql, sizeof(sql), entry->dialect->rollback_to_savepoint_fmt,
					 curlevel);
			mf_conn_forget_facts(entry);	/* DDL since may be undone */
			entry->changing_xact_state = true;
			if (entry->transport->exec(entry->conn, sql, NULL, &err))
			{
				entry->changing_xact_state = false;
				if (entry->dialect->release_savepoint_fmt != NULL)
				{
					snprintf(sql, sizeof(sql),
							 entry->dialect->release_savepoint_fmt, curlevel);
					if (!mf_defer_or_exec(entry, sql, &err))
						entry->changing_xact_state = true;
				}
			}
		}
		entry->xact_depth--;
		/* a read-only mode set in the subtransaction: kept, or undone */
		if (entry->read_only_depth > entry->xact_depth)
			entry->read_only_depth = event == SUBXACT_EVENT_PRE_COMMIT_SUB ?
				entry->xact_depth : 0;
	}
}

/*
 * A server or user mapping changed: its connections are replaced when they
 * are next idle.
 */
static void
mf_inval_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;

	hash_seq_init(&scan, mf_connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry->conn == NULL)
			continue;
		if (hashvalue == 0 ||
			(cacheid == FOREIGNSERVEROID && entry->server_hashvalue == hashvalue) ||
			(cacheid == USERMAPPINGOID && entry->mapping_hashvalue == hashvalue))
		{
			if (entry->xact_depth == 0)
				mf_disconnect(entry);
			else
				entry->invalidated = true;
		}
	}
}

/* ---------------------------------------------------------------------
 * SQL-callable functions
 * ---------------------------------------------------------------------
 */

PG_FUNCTION_INFO_V1(multi_fdw_disconnect);
PG_FUNCTION_INFO_V1(multi_fdw_disconnect_all);

/*
 * Close connections of one server (or all).  One in use by the current
 * transaction is kept, with a warning, as postgres_fdw does.
 */
static bool
mf_disconnect_cached(const char *servername)
{
	HASH_SEQ_STATUS scan;
	MfConnEntry *entry;
	bool		result = false;

	if (mf_connections == NULL)
		return false;
	hash_seq_init(&scan, mf_connections);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry->conn == NULL)
			continue;
		if (servername != NULL && strcmp(entry->servername, servername) != 0)
			continue;
		if (entry->xact_depth > 0)
			ereport(WARNING,
					(errmsg("cannot close connection for server \"%s\" because it is still in use",
							entry->servername)));
		else
		{
			mf_disconnect(entry);
			result = true;
		}
	}
	return result;
}

Datum
multi_fdw_disconnect(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ForeignServer *server = GetForeignServerByName(name, false);

	PG_RETURN_BOOL(mf_disconnect_cached(server->servername));
}

Datum
multi_fdw_disconnect_all(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(mf_disconnect_cached(NULL));
}

/*
 * Raise err for a connection.  A lost connection cannot carry on this
 * transaction: it is marked broken so that it is dropped at its end and
 * the next statement reconnects.
 */
void
mf_raise_error(int elevel, MfConnEntry *entry, const MfError *err,
			   const char *sql)
{
	if (entry != NULL && elevel >= ERROR)
		mf_stats_error(entry->stats, err->message);
	mf_report_error(elevel,
					entry ? mf_conn_server_name(entry) : NULL,
					entry ? mf_conn_dialect(entry) : NULL, err, sql);
	pg_unreachable();
}
