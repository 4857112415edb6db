/*-------------------------------------------------------------------------
 *
 * remote.h
 *		The remote layer: the dialect and transport registry, options,
 *		connections and remote transactions, two-phase commit and its
 *		resolver, errors.  Below it only observe/ and the transports.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_REMOTE_H
#define MF_REMOTE_H

#include "postgres.h"

#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "nodes/pathnodes.h"
#include "utils/relcache.h"

#include "observe/observe.h"
#include "remote/dialect.h"

/* ---------------------------------------------------------------------
 * registry.c: dialects and transports by name
 * ---------------------------------------------------------------------
 */
extern void mf_register_dialect(const MfDialect *dialect);
extern const MfDialect *mf_find_dialect(const char *name);
extern const MfTransport *mf_find_transport(const char *name);
extern const MfTransport *mf_transport_at(int i);
extern const MfConnKeyword *mf_transport_keyword(const MfTransport *transport,
												 const char *name);
extern bool mf_transport_allowed(const MfDialect *dialect,
								 const MfTransport *transport);
extern const MfTransport *mf_transport_carrier(void);
extern const char *mf_dialect_list(void);
extern const char *mf_transport_list(void);
extern int	mf_max_params(const MfDialect *dialect, const MfTransport *transport);

/* ---------------------------------------------------------------------
 * option.c: the option table, validation, resolved options
 * ---------------------------------------------------------------------
 */
/* Options of a server, with the table's overriding them where allowed. */
typedef struct MfOptions
{
	Oid			serverid;
	char	   *servername;
	const MfDialect *dialect;
	const MfTransport *transport;
	int			batch_size;
	int64		batch_bytes;
	int			fetch_size;
	int			pipeline_depth; /* statements in flight at once */
	MfInsertMethod insert_method;
	bool		updatable;
	bool		truncatable;
	bool		keep_connections;
	bool		parallel_commit;	/* COMMIT sent to it and the others at
									 * once, the answers read after */
	bool		parallel_abort; /* the same for ROLLBACK */
	bool		relay_messages;	/* the remote's NOTICEs and WARNINGs reach
								 * the client (error.c) */
	bool		async_capable;	/* scans may run under an async Append */
	bool		keep_rescan_rows;	/* a rescan's rows kept by its
									 * parameters (exec/scan_memo.c) */
	char	   *session_sql;	/* replaces the dialect's session setup;
								 * NULL: the dialect's */
	bool		two_phase_commit;	/* its transactions may be prepared */
	List	   *extensions;		/* OIDs of the extensions the remote has */
	bool		use_remote_estimate;	/* ask the remote planner */
	bool		pushdown;		/* sorts, aggregates and limits may be sent
								 * (conditions always are) */
	bool		dependent_join; /* other inputs' keys may be shipped to it
								 * (depjoin.c) */
	int			dependent_join_max_keys;	/* 0: the GUC's */
	double		fdw_startup_cost;	/* of opening a remote query */
	double		fdw_tuple_cost; /* of moving one row across */
	MfSampleMethod analyze_sampling;	/* how ANALYZE asks for its sample */
	bool		restore_stats;	/* ANALYZE imports the remote's statistics
								 * where the dialect can (analyze_import.c) */
	/* table level only */
	char	   *schema_name;	/* NULL: the dialect's default */
	char	   *table_name;		/* NULL: the local name */
} MfOptions;

extern void mf_get_options(Oid serverid, Oid relid, MfOptions *opts);
extern void mf_get_table_options(Oid relid, MfOptions *opts);
extern void mf_options_init(void);
extern char *mf_column_name(Oid relid, AttrNumber attnum);
extern bool mf_column_is_key(Oid relid, AttrNumber attnum);
extern bool mf_column_flag(Oid relid, AttrNumber attnum, const char *name);
extern const char *mf_column_option(Oid relid, AttrNumber attnum,
									const char *name);
extern bool mf_charset_name(const char *value);
extern const char *mf_sample_method_name(MfSampleMethod method);
extern void mf_connection_params(ForeignServer *server, UserMapping *user,
								 const MfTransport *transport,
								 List **keys, List **values);
extern bool mf_password_required(UserMapping *user);
extern bool mf_remote_requires_password(ForeignServer *server);
/* scram_pass.c */
extern bool mf_use_scram_passthrough(ForeignServer *server, UserMapping *user);
extern bool mf_scram_passthrough_params(ForeignServer *server,
										UserMapping *user,
										const MfTransport *transport,
										List **keys, List **values);
extern bool mf_parse_bool(DefElem *d);
extern bool mf_sample_possible(const MfDialect *dialect,
							   MfSampleMethod method);
extern void mf_check_sample_method(const MfDialect *dialect,
								   MfSampleMethod method);

/* ---------------------------------------------------------------------
 * appname.c: application_name with postgres_fdw's escapes
 * ---------------------------------------------------------------------
 */
extern void mf_appname_init(void);
extern char *mf_expand_application_name(const char *fmt);
extern char *mf_application_name_for(const char *option);

/* ---------------------------------------------------------------------
 * connection.c: the connection cache and remote transactions
 * ---------------------------------------------------------------------
 */
typedef struct MfConnEntry MfConnEntry;

/*
 * The owner of an unfinished stream on a connection (an open COPY, a
 * pipeline with results pending) is asked to finish it before anyone else
 * uses the connection.
 */
typedef void (*MfStreamFinish) (void *arg);

extern MfConnEntry *mf_get_connection(UserMapping *user, const MfOptions *opts);
extern bool mf_conn_xact_open(UserMapping *user);
extern MfConn *mf_conn(MfConnEntry *entry);
extern const MfTransport *mf_conn_transport(MfConnEntry *entry);
extern const MfDialect *mf_conn_dialect(MfConnEntry *entry);
extern const char *mf_conn_server_name(MfConnEntry *entry);
extern struct MfStatsSlot *mf_conn_stats(MfConnEntry *entry);
extern void mf_conn_mark_written(MfConnEntry *entry);

/* remote_facts.c: what the remote says of its tables, for one transaction */
extern bool mf_conn_ask_about_table(MfConnEntry *entry, const char *sql,
									const char *table, bool answer);
extern List *mf_conn_ask_rows(MfConnEntry *entry, const char *sql,
							  const char *table, int ncols);
extern bool mf_conn_remembered(MfConnEntry *entry, const char *question,
							   const char *table, bool *value);
extern void mf_conn_remember(MfConnEntry *entry, const char *question,
							 const char *table, bool value);
extern bool mf_conn_remembered_names(MfConnEntry *entry, const char *question,
									 const char *table, bool stale_ok,
									 List **names);
extern void mf_conn_remember_names(MfConnEntry *entry, const char *question,
								   const char *table, List *names);

/* exec_guard.c */
extern bool mf_sql_controls_transaction(const char *sql, bool atomic_only,
										const char **what);
extern ForeignServer *mf_user_statement_server(const char *fn,
											   const char *servername,
											   const char *sql,
											   MfOptions *opts);
extern void mf_exec_user_statement(MfConnEntry *entry, const char *sql, long *rows);

/* what a statement of the user's found of the remote transaction */
typedef struct MfUserStatement
{
	MfXactState before;			/* the transport's word */
	bool		probe;			/* the session is asked too */
	char	   *id_before;		/* its answer */
} MfUserStatement;

extern void mf_user_statement_begin(MfConnEntry *entry, MfUserStatement *us);
extern void mf_user_statement_end(MfConnEntry *entry, MfUserStatement *us,
								  bool ok, MfError *err, const char *sql);
extern void mf_xact_probe_check(MfConnEntry *entry);

/* run_as.c: SQL run on someone else's behalf, with a pinned search_path */
typedef struct MfRunAs
{
	Oid			save_userid;
	int			save_sec;
	int			nestlevel;
} MfRunAs;
extern void mf_run_as_begin(MfRunAs *ra, Oid role);
extern void mf_run_as_end(MfRunAs *ra);

/* twophase.c, resolver.c */
extern void mf_twophase_init(void);
extern void mf_resolver_init(void);
extern MfConnEntry *mf_connect_private(UserMapping *user, const MfOptions *opts);
extern void mf_disconnect_private(MfConnEntry *entry);
extern void mf_claim_connection(MfConnEntry *entry, void *owner);
/* savepoint_guard.c: a statement that may fail without failing the query */
extern bool mf_guard_begin(MfConnEntry *entry);
extern void mf_guard_end(MfConnEntry *entry, const MfError *failed,
						 const char *stmt);
extern void mf_set_stream_owner(MfConnEntry *entry, void *owner,
								MfStreamFinish finish);
extern void mf_clear_stream_owner(MfConnEntry *entry, void *owner);
extern bool mf_conn_owned_by(MfConnEntry *entry, void *owner);

/*
 * The remote data epoch: advanced by whatever may change the rows a remote
 * query returns within the remote transaction as the gateway sees it (see
 * data_epoch.c); rows kept under an older one are out of date.
 */
extern uint64 mf_remote_data_epoch(void);
extern void mf_remote_data_changed(void);
extern void mf_conn_exec(MfConnEntry *entry, const char *sql, long *rows);
extern void mf_connection_init(void);
pg_noreturn extern void mf_raise_error(int elevel, MfConnEntry *entry,
										const MfError *err, const char *sql);

/* ---------------------------------------------------------------------
 * error.c: the one place that turns a transport's error into ereport
 * ---------------------------------------------------------------------
 */
extern const char *mf_dialect_sqlstate(const MfDialect *dialect,
									   long native_code, bool *conn_lost);
extern void mf_report_error(int elevel, const char *servername,
							const MfDialect *dialect, const MfError *err,
							const char *sql);
extern void mf_install_wait(void);
extern bool mf_relay_message(void *arg, const MfMessage *msg);

/*
 * The connection's counters (observe/): what its traffic and statements
 * add to.  NULL until it connects.
 */
static inline void
mf_stats_count(MfConnEntry *entry, MfCounter counter, int64 n)
{
	mf_stats_slot_count(mf_conn_stats(entry), counter, n);
}

static inline void
mf_stats_count_rows(MfConnEntry *entry, MfInsertMethod method, int64 rows)
{
	mf_stats_slot_count_rows(mf_conn_stats(entry), method, rows);
}

static inline void
mf_stats_node_begin(MfNodeStats *ns, MfConnEntry *entry, Relation rel,
					CmdType operation)
{
	mf_stats_node_begin_slot(ns, mf_conn_stats(entry), rel, operation);
}

#endif							/* MF_REMOTE_H */
