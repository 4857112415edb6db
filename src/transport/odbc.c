/*-------------------------------------------------------------------------
 *
 * odbc.c
 *		The transport to databases reached through unixODBC (not built yet).
 *
 * Until the real transport lands, this table fills every required member
 * with a routine that refuses politely: connect fails with SQLSTATE 0A000,
 * and since nothing can be reached without a connection the others only
 * guard against a core that calls them anyway.  The optional members stay
 * NULL, so the core never picks a method that needs them.
 *
 * This file is on the transport side of the wall (see transport.h): no
 * PostgreSQL server header.
 *
 *-------------------------------------------------------------------------
 */
#include "transport.h"

#include <stddef.h>

#define MFODBC_NOT_BUILT "the odbc transport is not built yet"

static void
mfodbc_not_built(MfError *err, MfStep step)
{
	mf_error_clear(err);
	mf_error_set(err, step, "0A000", 0, "%s", MFODBC_NOT_BUILT);
}

static MfConn *
mfodbc_connect(const MfConnParams *params, MfError *err)
{
	mfodbc_not_built(err, MF_STEP_CONNECT);
	return NULL;
}

static void
mfodbc_disconnect(MfConn *conn)
{
}

/* There is no link, so there is nothing worth keeping. */
static bool
mfodbc_is_broken(MfConn *conn)
{
	return true;
}

static bool
mfodbc_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err)
{
	if (rows_affected)
		*rows_affected = 0;
	mfodbc_not_built(err, MF_STEP_EXEC);
	return false;
}

static bool
mfodbc_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	mfodbc_not_built(err, MF_STEP_TRANSACTION);
	return false;
}

static bool
mfodbc_end(MfConn *conn, MfError *err)
{
	mfodbc_not_built(err, MF_STEP_TRANSACTION);
	return false;
}

static MfStmt *
mfodbc_prepare(MfConn *conn, const char *sql, int nparams,
			   const MfTypeClass *classes, MfError *err)
{
	mfodbc_not_built(err, MF_STEP_PREPARE);
	return NULL;
}

static bool
mfodbc_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
			   MfResult **result, MfError *err)
{
	if (rows_affected)
		*rows_affected = 0;
	if (result)
		*result = NULL;
	mfodbc_not_built(err, MF_STEP_EXECUTE);
	return false;
}

static void
mfodbc_stmt_close(MfStmt *stmt)
{
}

static MfResult *
mfodbc_query(MfConn *conn, const char *sql, int nparams,
			 const char *const *values, const MfTypeClass *classes,
			 int fetch_size, MfError *err)
{
	mfodbc_not_built(err, MF_STEP_FETCH);
	return NULL;
}

static int
mfodbc_fetch(MfResult *res, MfError *err)
{
	mfodbc_not_built(err, MF_STEP_FETCH);
	return -1;
}

static int
mfodbc_ncolumns(MfResult *res)
{
	return -1;
}

static const char *
mfodbc_value(MfResult *res, int row, int col)
{
	return NULL;
}

static void
mfodbc_result_close(MfResult *res)
{
}

static bool
mfodbc_cancel(MfConn *conn, MfError *err)
{
	mfodbc_not_built(err, MF_STEP_CANCEL);
	return false;
}

static void
mfodbc_forget_all(MfConn *conn)
{
}

const MfTransport mf_transport_odbc = {
	.name = "odbc",

	.connect = mfodbc_connect,
	.disconnect = mfodbc_disconnect,
	.is_broken = mfodbc_is_broken,
	.exec = mfodbc_exec,
	.begin = mfodbc_begin,
	.commit = mfodbc_end,
	.rollback = mfodbc_end,
	.prepare = mfodbc_prepare,
	.execute = mfodbc_execute,
	.stmt_close = mfodbc_stmt_close,
	.query = mfodbc_query,
	.fetch = mfodbc_fetch,
	.ncolumns = mfodbc_ncolumns,
	.value = mfodbc_value,
	.result_close = mfodbc_result_close,
	.cancel = mfodbc_cancel,
	.forget_all = mfodbc_forget_all,
};
