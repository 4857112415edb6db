/*-------------------------------------------------------------------------
 *
 * odbc_transport.c
 *		The transport to databases reached through unixODBC: psqlODBC,
 *		MariaDB Connector/ODBC, FreeTDS and other ODBC 3 drivers.
 *
 * Connecting: the connection string is assembled from the server's and
 * user mapping's options (odbc_dsn, odbc_driver, host, port, database,
 * user, password, odbc_attributes) in odbc_option.c, which also says who
 * may set which of them.
 *
 * Text: every call that carries text uses the driver's wide (UTF-16) entry
 * points, converted from and to UTF-8 here, so that neither the driver
 * manager's nor the driver's idea of a client character set matters.
 * Non-text values are bound with their own C types (see mfodbc_bind_params).
 *
 * Parameters: ODBC marks them with ?, so the core writes its statements
 * with ? markers (.markers below), one per value in the order of the
 * values: the SQL goes to the driver as it is given, never read here
 * (apart from the LOCAL INFILE guard of odbc_option.c).
 *
 * Transactions: autocommit is off from connect on; a statement run
 * outside a remote transaction (the dialect's session set-up) is committed
 * at once, so that a later rollback cannot undo it; begin runs the
 * dialect's begin_sql (if any); commit and rollback are SQLEndTran.
 *
 * Reading: a query reads fetch_size rows per fetch; the driver is asked not
 * to buffer the whole result where it can be told (psqlODBC:
 * UseDeclareFetch=1, Fetch=N: a server-side cursor).  Each value comes back
 * as text in PostgreSQL's input form (see mfodbc_store_value).
 *
 * Parameter arrays (execute_array) run a prepared statement for many sets
 * of values in one SQLExecute with column-wise binding, where the driver
 * has them (probed once per connection).  Drivers disagree on what an
 * error in the middle of an array does (FreeTDS carries on and returns
 * SQL_SUCCESS_WITH_INFO): any set whose status is not a success makes the
 * whole call a failure, and the core rolls the remote transaction back.
 *
 * Limits: the statements of the core are bound by mf_transport_odbc's
 * max_params (7498: what psqlODBC can describe under any libpq, see
 * there; no driver takes more than 65535); a parameter array is cut into
 * calls of at most MFODBC_ARRAY_MAX sets to bound its memory.
 *
 * Waiting: ODBC calls block inside the driver.  A call that may wait on
 * the server (executing, fetching) is watched by a thread of the
 * connection's that calls SQLCancel once the user cancels (odbc_cancel.c);
 * with a driver that honours it, the call then returns and the cancel is
 * reported as 57014.
 *
 * This file connects, runs transactions and holds the routine table;
 * odbc_int.h lists the other files of the transport and what they share.
 *
 * This file is on the transport side of the wall (see transport.h): no
 * PostgreSQL server header, only unixODBC's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "odbc_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------
 * Objects and their lists
 * ---------------------------------------------------------------------
 */

static void
mfodbc_free_all(MfConn *conn)
{
	while (conn->results)
		mfodbc_free_result(conn->results);
	while (conn->stmts)
		mfodbc_free_stmt(conn->stmts);
}

/* ---------------------------------------------------------------------
 * Connecting
 * ---------------------------------------------------------------------
 */

static bool mfodbc_set_autocommit(MfConn *conn, bool on, MfError *err);
static void mfodbc_disconnect(MfConn *conn);

static void
mfodbc_probe_driver(MfConn *conn)
{
	char		name[128] = "";
	char		dbms[64] = "";
	char		ver[64] = "";
	SQLSMALLINT len;
	SQLUINTEGER su = 0;

	if (SQL_SUCCEEDED(SQLGetInfo(conn->dbc, SQL_DRIVER_NAME, name,
								 sizeof(name), &len)))
	{
		for (char *c = name; *c; c++)
			*c = (char) tolower((unsigned char) *c);
		if (strstr(name, "psqlodbc"))
			conn->driver = MFODBC_PSQLODBC;
		else if (strstr(name, "maodbc") || strstr(name, "mariadb"))
			conn->driver = MFODBC_MARIADB;
		else if (strstr(name, "tdsodbc"))
			conn->driver = MFODBC_FREETDS;
	}
	(void) SQLGetInfo(conn->dbc, SQL_DBMS_NAME, dbms, sizeof(dbms), &len);
	(void) SQLGetInfo(conn->dbc, SQL_DBMS_VER, ver, sizeof(ver), &len);
	snprintf(conn->version, sizeof(conn->version), "%s %s", dbms, ver);

	if (SQL_SUCCEEDED(SQLGetInfo(conn->dbc, SQL_SCHEMA_USAGE, &su,
								 sizeof(su), &len)))
		conn->use_catalogs = (su & SQL_SU_DML_STATEMENTS) == 0;
	else
		conn->use_catalogs = false;
}

static MfConn *
mfodbc_connect(const MfConnParams *params, MfError *err)
{
	MfConn	   *conn;
	char	   *cs;
	SQLWCHAR   *wcs;
	SQLRETURN	rc;

	mf_error_clear(err);
	cs = mfodbc_conn_string(params, err);
	if (cs == NULL)
		return NULL;
	conn = calloc(1, sizeof(MfConn));
	wcs = mfodbc_to_wide(cs, -1, NULL);
	memset(cs, 0, strlen(cs));	/* it holds the password */
	free(cs);
	if (conn == NULL || wcs == NULL)
	{
		free(conn);
		free(wcs);
		mfodbc_fail(NULL, err, MF_STEP_CONNECT, "53200", "out of memory");
		return NULL;
	}
	conn->wire = MF_WIRE_OF(params);
	conn->on_message = params->on_message;
	conn->message_arg = params->message_arg;

	if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &conn->env)))
	{
		free(conn);
		free(wcs);
		mfodbc_fail(NULL, err, MF_STEP_CONNECT, "08001",
					"could not allocate an ODBC environment");
		return NULL;
	}
	(void) SQLSetEnvAttr(conn->env, SQL_ATTR_ODBC_VERSION,
						 (SQLPOINTER) SQL_OV_ODBC3, 0);
	if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, conn->env, &conn->dbc)))
	{
		mfodbc_diag(NULL, SQL_HANDLE_ENV, conn->env, MF_STEP_CONNECT, err);
		(void) SQLFreeHandle(SQL_HANDLE_ENV, conn->env);
		free(conn);
		free(wcs);
		return NULL;
	}
	rc = SQLDriverConnectW(conn->dbc, NULL, wcs, SQL_NTS, NULL, 0, NULL,
						   SQL_DRIVER_NOPROMPT);
	for (SQLWCHAR *c = wcs; *c; c++)
		*c = 0;
	free(wcs);
	if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_diag(NULL, SQL_HANDLE_DBC, conn->dbc, MF_STEP_CONNECT, err);
		err->conn_lost = false;
		if (strncmp(err->sqlstate, "08", 2) != 0 &&
			strncmp(err->sqlstate, "28", 2) != 0)
			memcpy(err->sqlstate, "08001", 6);
		(void) SQLFreeHandle(SQL_HANDLE_DBC, conn->dbc);
		(void) SQLFreeHandle(SQL_HANDLE_ENV, conn->env);
		free(conn);
		return NULL;
	}
	conn->connected = true;
	mfodbc_probe_driver(conn);
	if (!mfodbc_set_autocommit(conn, false, err))
	{
		err->step = MF_STEP_CONNECT;
		mfodbc_disconnect(conn);
		return NULL;
	}
	return conn;
}

static void
mfodbc_disconnect(MfConn *conn)
{
	if (conn == NULL)
		return;
	mfodbc_watch_free(conn);
	mfodbc_free_all(conn);
	if (conn->connected)
	{
		/* SQLDisconnect refuses a connection with a transaction open */
		if (!conn->broken)
			(void) SQLEndTran(SQL_HANDLE_DBC, conn->dbc, SQL_ROLLBACK);
		(void) SQLDisconnect(conn->dbc);
	}
	if (conn->dbc != SQL_NULL_HDBC)
		(void) SQLFreeHandle(SQL_HANDLE_DBC, conn->dbc);
	if (conn->env != SQL_NULL_HENV)
		(void) SQLFreeHandle(SQL_HANDLE_ENV, conn->env);
	free(conn);
}

/* The driver's own view, which costs no round trip. */
static bool
mfodbc_is_broken(MfConn *conn)
{
	SQLUINTEGER dead = SQL_CD_FALSE;

	if (conn->broken || !conn->connected)
		return true;
	if (SQL_SUCCEEDED(SQLGetConnectAttr(conn->dbc, SQL_ATTR_CONNECTION_DEAD,
										&dead, 0, NULL)) && dead == SQL_CD_TRUE)
		conn->broken = true;
	return conn->broken;
}

static const char *
mfodbc_server_version(MfConn *conn)
{
	return conn->version;
}

/* ---------------------------------------------------------------------
 * Transactions
 * ---------------------------------------------------------------------
 */

static bool
mfodbc_set_autocommit(MfConn *conn, bool on, MfError *err)
{
	if (!SQL_SUCCEEDED(SQLSetConnectAttr(conn->dbc, SQL_ATTR_AUTOCOMMIT,
										 (SQLPOINTER) (uintptr_t) (on ? SQL_AUTOCOMMIT_ON :
																   SQL_AUTOCOMMIT_OFF),
										 SQL_IS_UINTEGER)))
	{
		mfodbc_diag(conn, SQL_HANDLE_DBC, conn->dbc, MF_STEP_TRANSACTION, err);
		return false;
	}
	return true;
}

/*
 * Autocommit is off for the whole session (set at connect).  begin runs
 * begin_sql (if any) as the transaction's first statement, so that its
 * isolation level applies (psqlODBC puts its own BEGIN in front, which
 * START TRANSACTION only warns about before any query).  It runs at once:
 * the driver hides its socket, so a connection the remote closed while it
 * was idle shows only when something is sent, and this is the moment the
 * core can still reconnect.  Without begin_sql nothing is sent, and a
 * transaction through which no statement went ends without a call to the
 * driver.
 */
static bool
mfodbc_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	mf_error_clear(err);
	if (!mfodbc_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	conn->in_xact = true;
	conn->xact_sent = false;
	if (begin_sql != NULL &&
		!mfodbc_exec_direct(conn, begin_sql, MF_STEP_TRANSACTION, NULL, err))
	{
		MfError		keep = *err;

		(void) SQLEndTran(SQL_HANDLE_DBC, conn->dbc, SQL_ROLLBACK);
		conn->in_xact = false;
		*err = keep;
		return false;
	}
	return true;
}

static bool
mfodbc_end(MfConn *conn, bool commit, MfError *err)
{
	SQLRETURN	rc;

	mf_error_clear(err);
	if (conn->in_xact && !conn->xact_sent)
	{
		conn->in_xact = false;
		return true;
	}
	if (!mfodbc_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	conn->wire->round_trips++;
	rc = SQLEndTran(SQL_HANDLE_DBC, conn->dbc, commit ? SQL_COMMIT : SQL_ROLLBACK);
	if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_diag(conn, SQL_HANDLE_DBC, conn->dbc, MF_STEP_TRANSACTION, err);
		return false;
	}
	conn->in_xact = false;
	return true;
}

static bool
mfodbc_commit(MfConn *conn, MfError *err)
{
	return mfodbc_end(conn, true, err);
}

static bool
mfodbc_rollback(MfConn *conn, MfError *err)
{
	return mfodbc_end(conn, false, err);
}

/* Calls block in the driver: only a statement of this connection can be
 * asked to stop, which SQLCancel does for the ones still open. */
static bool
mfodbc_cancel(MfConn *conn, MfError *err)
{
	mf_error_clear(err);
	if (!mfodbc_usable(conn, MF_STEP_CANCEL, err))
		return false;
	for (MfStmt *s = conn->stmts; s; s = s->next)
		(void) SQLCancel(s->h);
	for (MfResult *r = conn->results; r; r = r->next)
		if (r->h != SQL_NULL_HSTMT)
			(void) SQLCancel(r->h);
	return true;
}

static void
mfodbc_forget_all(MfConn *conn)
{
	mfodbc_free_all(conn);
}

const MfTransport mf_transport_odbc = {
	.name = "odbc",
	.keywords = mfodbc_keywords,
	.carries_any_dialect = true,
	.converts_datetimes = true,

	/*
	 * psqlODBC describes each prepared statement, and the answer (4 bytes
	 * a parameter) must stay under the 30000 bytes that libpq 16.13 and
	 * 18.3 take from a ParameterDescription message: above 7498 parameters
	 * the connection is lost ("lost synchronization with server").  The
	 * driver uses the libpq the backend has loaded, multi_fdw's: that of
	 * the PostgreSQL it was built for.  Debian's libpq 15.20 takes more
	 * (psqlODBC itself fails at 32768), but which libpq is loaded is not
	 * the transport's to know.  No driver takes over 65535.
	 */
	.max_params = 7498,
	.markers = MF_MARKERS_POSITIONAL,
	.max_packet_setting = "max_allowed_packet",

	.connect = mfodbc_connect,
	.disconnect = mfodbc_disconnect,
	.is_broken = mfodbc_is_broken,
	.exec = mfodbc_exec,
	.begin = mfodbc_begin,
	.commit = mfodbc_commit,
	.rollback = mfodbc_rollback,
	.prepare = mfodbc_prepare,
	.execute = mfodbc_execute,
	.stmt_close = mfodbc_stmt_close,
	.query = mfodbc_query,
	.fetch = mfodbc_fetch,
	.ncolumns = mfodbc_ncolumns,
	.value = mfodbc_value,
	.result_close = mfodbc_result_close,
	.column_name = mfodbc_column_name,
	.cancel = mfodbc_cancel,
	.forget_all = mfodbc_forget_all,

	.server_version = mfodbc_server_version,
	.used_password = NULL,		/* ODBC does not say: see connection.c */
	.check_option = mfodbc_check_option,
	.execute_array = mfodbc_execute_array,
	.arrays_native = mfodbc_arrays_native,
	.catalog_columns = mfodbc_catalog_columns,
	.max_packet = mfodbc_max_packet,
};
