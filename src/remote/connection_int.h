/*-------------------------------------------------------------------------
 *
 * connection_int.h
 *		The connection cache's entry, shared by connection.c (the cache and
 *		the remote transactions) and twophase.c (preparing them).  Nothing
 *		else looks inside an entry but the files of remote/ that keep
 *		its state (remote_facts.c, exec_guard.c, twophase_*.c): the rest
 *		of the core uses the accessors of remote.h.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_CONNECTION_INT_H
#define MF_CONNECTION_INT_H

#include "remote/remote.h"

/*
 * "mf_<gateway identity>_<database>_<xid>_<user mapping>_<time>" in hex:
 * fits MySQL's 64-byte gtrid (twophase_log.c)
 */
#define MF_GID_LEN	64

struct MfConnEntry
{
	Oid			key;			/* user mapping OID: the hash key */
	MfConn	   *conn;			/* NULL when not connected */
	const MfDialect *dialect;
	const MfTransport *transport;
	Oid			serverid;
	char		servername[NAMEDATALEN];
	char		username[NAMEDATALEN];
	int			xact_depth;		/* 0: no remote transaction, 1: open, >1:
								 * savepoints */
	int			read_only_depth;	/* the level from which the remote
									 * transaction is read-only; 0: it is not */
	bool		changing_xact_state;	/* a transaction command was cut
										 * short: the state is unknown */
	bool		invalidated;	/* options changed: reconnect when idle */
	bool		keep_connections;
	bool		parallel_commit;	/* the server's options of that name */
	bool		parallel_abort;
	uint32		server_hashvalue;
	uint32		mapping_hashvalue;

	/* what the remote said of its tables, for one remote transaction */
	List	   *remembered;		/* of MfRemembered, in facts_cxt
								 * (remote_facts.c) */
	MemoryContext facts_cxt;	/* NULL until something is remembered */
	uint64		facts_epoch;	/* answers of an older one are out of date */

	/* the session cannot say whether it is in a transaction: the
	 * dialect's xact_open_sql did not answer on connecting (exec_guard.c) */
	bool		xact_probe_failed;

	/* two-phase commit (twophase.c) */
	bool		written;		/* this transaction changed remote rows */
	bool		two_phase;		/* the server's two_phase_commit */
	bool		xa_open;		/* an XA transaction was started with gid */
	bool		prepared;		/* gid is prepared, waiting for the decision */
	bool		intent_logged;	/* gid is in the log (twophase_log.c) */
	char		gid[MF_GID_LEN];

	/* the remote's messages relayed in the current statement (error.c) */
	TimestampTz relayed_in;		/* the statement's start */
	int			relayed;

	/* where its traffic is counted (stats.c); NULL until it connects */
	MfStatsSlot *stats;

	/* the stream in progress, if any */
	void	   *stream_owner;
	MfStreamFinish stream_finish;
	MfStep		stream_kind;	/* MF_STEP_COPY or MF_STEP_PIPELINE */
};

/* connection.c */
extern void mf_abort_remote(MfConnEntry *entry);
extern HTAB *mf_connection_cache(void);
extern bool mf_defer_or_exec(MfConnEntry *entry, const char *sql,
							 MfError *err);

/*
 * Forget what the connection was told of its tables (remote_facts.c's
 * rule): every answer is out of date from now on.  Never raises: called
 * from the transaction callbacks.
 */
static inline void
mf_conn_forget_facts(MfConnEntry *entry)
{
	entry->facts_epoch++;
	mf_remote_data_changed();
}

/*
 * What the transaction callbacks of connection.c ask of twophase.c, which
 * registers them at load (mf_twophase_init): the SQL that opens a remote
 * transaction that may be prepared (NULL: the dialect's own BEGIN), and
 * the ends of the local transaction.
 */
typedef struct MfTwophaseHooks
{
	const char *(*begin_sql) (MfConnEntry *entry);
	void		(*pre_commit) (HTAB *connections);
	void		(*commit) (HTAB *connections);
	void		(*abort_all) (HTAB *connections);
} MfTwophaseHooks;

extern void mf_conn_set_twophase_hooks(const MfTwophaseHooks *hooks);

/* twophase.c */
extern void mf_twophase_gid(MfConnEntry *entry, char *gid);
extern void mf_twophase_abort(MfConnEntry *entry);

#endif							/* MF_CONNECTION_INT_H */
