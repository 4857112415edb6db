/*-------------------------------------------------------------------------
 *
 * odbc_int.h
 *		What the files of the odbc transport share: its objects, and the
 *		helpers that more than one of them calls.
 *
 *		odbc_transport.c	connections, transactions; the routine table
 *		odbc_stmt.c		statements: their list, prepare, direct execution
 *		odbc_diag.c		UTF-8 and UTF-16, diagnostics as error records
 *		odbc_fetch.c	results: fetching, values as PostgreSQL text
 *		odbc_exec.c		executing prepared statements, parameter arrays
 *		odbc_bind.c		parameters bound by class (C and SQL types)
 *		odbc_catalog.c	IMPORT FOREIGN SCHEMA through the catalog functions
 *		odbc_option.c	who may set which option; the connection string
 *		odbc_cancel.c	the watcher thread that cancels blocking calls
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * server header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_ODBC_INT_H
#define MF_ODBC_INT_H

#include "transport/transport.h"
#include "transport/kit/kit.h"

#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>

/* the driver, as far as its quirks go */
typedef enum MfodbcDriver
{
	MFODBC_OTHER,
	MFODBC_PSQLODBC,
	MFODBC_MARIADB,
	MFODBC_FREETDS
} MfodbcDriver;

typedef struct MfodbcWatch MfodbcWatch;

struct MfConn
{
	SQLHENV		env;
	SQLHDBC		dbc;
	bool		connected;
	bool		broken;
	bool		in_xact;		/* autocommit is off */
	bool		xact_sent;		/* a statement went in this transaction */
	MfodbcDriver driver;
	char		version[160];
	bool		use_catalogs;	/* MySQL: a schema is a catalog */

	/*
	 * Probed once per connection (mfodbc_probe_arrays): what the driver
	 * does with parameter arrays is the driver's, and MariaDB's session
	 * max_allowed_packet is read-only, fixed when the session starts.
	 */
	bool		arrays_probed;
	bool		arrays_ok;		/* the driver takes parameter arrays */
	bool		arrays_native;	/* ... in one round trip */
	SQLUINTEGER parc;			/* SQL_PARAM_ARRAY_ROW_COUNTS */
	size_t		array_budget;	/* bytes of values per SQLExecute */
	size_t		max_packet;		/* MariaDB's max_allowed_packet; 0: none known */

	MfStmt	   *stmts;
	MfResult   *results;

	MfodbcWatch *watch;			/* cancels blocking calls; see odbc_cancel.c */
	MfMessageFn on_message;		/* the remote's messages (odbc_diag.c) */
	void	   *message_arg;
	bool		watch_failed;	/* its thread could not start */

	MfWireStats *wire;			/* the core's counters (transport.h) */
	long long	call_start_us;	/* when the watched call began */
};

struct MfStmt
{
	MfConn	   *conn;
	SQLHSTMT	h;
	int			nparams;		/* values per set: the statement's markers */
	MfTypeClass *classes;		/* per parameter */
	MfStmt	   *prev,
			   *next;
};

typedef struct MfodbcCol
{
	SQLSMALLINT type;
	bool		bits;			/* MySQL BIT(n), reported as binary */
	SQLULEN		size;
	char	   *name;			/* the remote's name for it, UTF-8
								 * (malloc'd); NULL: not known */
} MfodbcCol;

struct MfResult
{
	MfConn	   *conn;
	SQLHSTMT	h;				/* NULL: rows held in memory (catalog) */
	bool		owns_handle;
	MfStmt	   *params;			/* statement of a query with parameters */
	int			ncols;
	MfodbcCol  *cols;
	int			fetch_size;
	bool		done;
	bool		one_set;		/* a statement of the user's: a further
								 * set of rows after the first is an error */

	/* the current batch (kit_rows.c) */
	MfRows		rows;

	/* in-memory rows (catalog results): all handed out by the first fetch */
	int			mem_rows;

	MfResult   *prev,
			   *next;
};


/* one parameter bound column-wise for nsets sets */
typedef struct MfodbcBind
{
	SQLSMALLINT ctype;
	SQLSMALLINT sqltype;
	SQLULEN		colsize;
	SQLSMALLINT digits;
	SQLLEN		width;			/* bytes per element */
	char	   *buf;
	SQLLEN	   *ind;
} MfodbcBind;

typedef struct MfodbcBinds
{
	int			n;
	MfodbcBind *b;
} MfodbcBinds;

/* odbc_diag.c */
extern SQLWCHAR *mfodbc_to_wide(const char *s, long len, SQLLEN *outlen);
extern size_t mfodbc_from_wide(const SQLWCHAR *w, size_t n, char *dst);
extern void mfodbc_fail(MfConn *conn, MfError *err, MfStep step,
						const char *sqlstate, const char *message);
extern void mfodbc_oom(MfConn *conn, MfStep step, MfError *err);
extern void mfodbc_diag(MfConn *conn, SQLSMALLINT htype, SQLHANDLE h,
						MfStep step, MfError *err);
/* a statement's informational records, kept for the core (odbc_diag.c) */
#define MFODBC_INFO_MAX 100
typedef struct MfodbcInfo
{
	int			n;
	struct MfodbcInfoRec *recs;
} MfodbcInfo;
extern void mfodbc_info_take(MfConn *conn, SQLHSTMT h, SQLRETURN rc,
							 MfodbcInfo *info);
extern void mfodbc_info_give(MfConn *conn, MfodbcInfo *info);
extern void mfodbc_stmt_diag(MfConn *conn, SQLHSTMT h, MfStep step,
							 MfError *err);
extern bool mfodbc_usable(MfConn *conn, MfStep step, MfError *err);
extern bool mfodbc_ready(MfConn *conn, MfStep step, MfError *err);

/* odbc_option.c */
extern const MfConnKeyword mfodbc_keywords[];
extern bool mfodbc_check_option(const char *key, const char *value,
								bool superuser, MfError *err);
extern char *mfodbc_conn_string(const MfConnParams *params, MfError *err);
extern bool mfodbc_sql_allowed(const char *sql, MfStep step, MfError *err);

/* odbc_bind.c */
extern bool mfodbc_bind_params(MfStmt *s, int nsets, const char *const *values,
							   MfodbcBinds *bs, MfStep step, MfError *err);
extern void mfodbc_binds_free(MfodbcBinds *bs);

/* odbc_cancel.c */
extern void mfodbc_watch(MfConn *conn, SQLHSTMT h);
extern bool mfodbc_unwatch(MfConn *conn);
extern void mfodbc_unwatch_error(MfConn *conn, bool ok, MfStep step,
								 MfError *err);
extern void mfodbc_watch_free(MfConn *conn);

/* odbc_catalog.c */
extern MfResult *mfodbc_catalog_columns(MfConn *conn, const char *schema,
										MfError *err);

/* odbc_fetch.c */
extern void mfodbc_free_result(MfResult *r);
extern MfResult *mfodbc_new_result(MfConn *conn, SQLHSTMT h, bool owns,
								   int rows);
extern bool mfodbc_describe(MfResult *r, MfError *err);
extern int mfodbc_fetch(MfResult *res, MfError *err);
extern int mfodbc_ncolumns(MfResult *res);
extern const char *mfodbc_column_name(MfResult *res, int col);
extern MfResult *mfodbc_query(MfConn *conn, const char *sql, int nparams,
							  const char *const *values, const MfTypeClass *classes,
							  MfRead read, MfError *err);
extern void mfodbc_result_close(MfResult *res);
extern bool mfodbc_store_value(MfResult *r, int c, size_t *off, MfError *err);
extern const char *mfodbc_value(MfResult *res, int row, int col);

/* odbc_exec.c */
extern bool mfodbc_arrays_native(MfConn *conn);
extern bool mfodbc_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
						   MfResult **result, MfError *err);
extern bool mfodbc_execute_array(MfStmt *stmt, int nsets, const char *const *values,
								 long *rows_affected, MfError *err);
extern bool mfodbc_max_packet(MfConn *conn, size_t *bytes, MfError *err);

/* odbc_stmt.c */
extern void mfodbc_free_stmt(MfStmt *s);
extern bool mfodbc_exec_direct(MfConn *conn, const char *sql, MfStep step, long *rows,
							   MfError *err);
extern bool mfodbc_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err);
extern MfStmt *mfodbc_prepare(MfConn *conn, const char *sql, int nparams,
							  const MfTypeClass *classes, MfError *err);
extern void mfodbc_stmt_close(MfStmt *stmt);
extern MfStmt *mfodbc_new_stmt(MfConn *conn, const char *sql, int nparams,
							   const MfTypeClass *classes, MfStep step, MfError *err);
extern bool mfodbc_drain(MfConn *conn, SQLHSTMT h, MfStep step, long *rows, MfError *err);

#endif							/* MF_ODBC_INT_H */
