/*-------------------------------------------------------------------------
 *
 * mysql.c
 *		The transport to MySQL and MariaDB, through libmysqlclient
 *		(not built yet).
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

#define MFMYSQL_NOT_BUILT "the mysql transport is not built yet"

static void
mfmysql_not_built(MfError *err, MfStep step)
{
	mf_error_clear(err);
	mf_error_set(err, step, "0A000", 0, "%s", MFMYSQL_NOT_BUILT);
}

static MfConn *
mfmysql_connect(const MfConnParams *params, MfError *err)
{
	mfmysql_not_built(err, MF_STEP_CONNECT);
	return NULL;
}

static void
mfmysql_disconnect(MfConn *conn)
{
}

/* There is no link, so there is nothing worth keeping. */
static bool
mfmysql_is_broken(MfConn *conn)
{
	return true;
}

static bool
mfmysql_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err)
{
	if (rows_affected)
		*rows_affected = 0;
	mfmysql_not_built(err, MF_STEP_EXEC);
	return false;
}

static bool
mfmysql_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	mfmysql_not_built(err, MF_STEP_TRANSACTION);
	return false;
}

static bool
mfmysql_end(MfConn *conn, MfError *err)
{
	mfmysql_not_built(err, MF_STEP_TRANSACTION);
	return false;
}

static MfStmt *
mfmysql_prepare(MfConn *conn, const char *sql, int nparams,
				const MfTypeClass *classes, MfError *err)
{
	mfmysql_not_built(err, MF_STEP_PREPARE);
	return NULL;
}

static bool
mfmysql_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
				MfResult **result, MfError *err)
{
	if (rows_affected)
		*rows_affected = 0;
	if (result)
		*result = NULL;
	mfmysql_not_built(err, MF_STEP_EXECUTE);
	return false;
}

static void
mfmysql_stmt_close(MfStmt *stmt)
{
}

static MfResult *
mfmysql_query(MfConn *conn, const char *sql, int nparams,
			  const char *const *values, const MfTypeClass *classes,
			  int fetch_size, MfError *err)
{
	mfmysql_not_built(err, MF_STEP_FETCH);
	return NULL;
}

static int
mfmysql_fetch(MfResult *res, MfError *err)
{
	mfmysql_not_built(err, MF_STEP_FETCH);
	return -1;
}

static int
mfmysql_ncolumns(MfResult *res)
{
	return -1;
}

static const char *
mfmysql_value(MfResult *res, int row, int col)
{
	return NULL;
}

static void
mfmysql_result_close(MfResult *res)
{
}

static bool
mfmysql_cancel(MfConn *conn, MfError *err)
{
	mfmysql_not_built(err, MF_STEP_CANCEL);
	return false;
}

static void
mfmysql_forget_all(MfConn *conn)
{
}

const MfTransport mf_transport_mysql = {
	.name = "mysql",

	.connect = mfmysql_connect,
	.disconnect = mfmysql_disconnect,
	.is_broken = mfmysql_is_broken,
	.exec = mfmysql_exec,
	.begin = mfmysql_begin,
	.commit = mfmysql_end,
	.rollback = mfmysql_end,
	.prepare = mfmysql_prepare,
	.execute = mfmysql_execute,
	.stmt_close = mfmysql_stmt_close,
	.query = mfmysql_query,
	.fetch = mfmysql_fetch,
	.ncolumns = mfmysql_ncolumns,
	.value = mfmysql_value,
	.result_close = mfmysql_result_close,
	.cancel = mfmysql_cancel,
	.forget_all = mfmysql_forget_all,
};
