/*-------------------------------------------------------------------------
 *
 * odbc_stmt.c
 *		The odbc transport's statements: the connection's list of them,
 *		prepare, statements run directly and draining their results.
 *
 * The SQL is sent as the core wrote it: its parameter markers are ?, one
 * per value in the order of the values (mf_transport_odbc.markers).
 *
 * Part of the odbc transport (see odbc_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only unixODBC's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "odbc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------
 * The connection's list of statements
 * ---------------------------------------------------------------------
 */

void
mfodbc_free_stmt(MfStmt *s)
{
	MF_LIST_REMOVE(s->conn->stmts, s);
	if (s->h != SQL_NULL_HSTMT)
		(void) SQLFreeHandle(SQL_HANDLE_STMT, s->h);
	free(s->classes);
	free(s);
}
/* ---------------------------------------------------------------------
 * Statements
 * ---------------------------------------------------------------------
 */

MfStmt *
mfodbc_new_stmt(MfConn *conn, const char *sql, int nparams,
				const MfTypeClass *classes, MfStep step, MfError *err)
{
	MfStmt	   *s = calloc(1, sizeof(MfStmt));
	SQLWCHAR   *w;
	SQLRETURN	rc;

	if (s == NULL)
	{
		mfodbc_oom(conn, step, err);
		return NULL;
	}
	if (!mfodbc_sql_allowed(sql, step, err))
	{
		free(s);
		return NULL;
	}
	s->conn = conn;
	s->nparams = nparams;
	MF_LIST_PUSH(conn->stmts, s);
	if (nparams > 0)
	{
		s->classes = malloc(sizeof(MfTypeClass) * nparams);
		if (s->classes == NULL)
		{
			mfodbc_free_stmt(s);
			mfodbc_oom(conn, step, err);
			return NULL;
		}
		for (int i = 0; i < nparams; i++)
			s->classes[i] = classes ? classes[i] : MF_TYPE_TEXT;
	}
	if (nparams > mf_transport_odbc.max_params)
	{
		mfodbc_free_stmt(s);
		mfodbc_fail(conn, err, step, "54000", "too many parameters for an ODBC statement");
		snprintf(err->detail, sizeof(err->detail),
				 "ODBC drivers take at most %d parameters per statement.",
				 mf_transport_odbc.max_params);
		return NULL;
	}

	if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, conn->dbc, &s->h)))
	{
		mfodbc_diag(conn, SQL_HANDLE_DBC, conn->dbc, step, err);
		s->h = SQL_NULL_HSTMT;
		mfodbc_free_stmt(s);
		return NULL;
	}
	w = mfodbc_to_wide(sql, -1, NULL);
	if (w == NULL)
	{
		mfodbc_free_stmt(s);
		mfodbc_oom(conn, step, err);
		return NULL;
	}
	conn->wire->bytes_sent += strlen(sql);
	rc = SQLPrepareW(s->h, w, SQL_NTS);
	free(w);
	if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_stmt_diag(conn, s->h, step, err);
		mfodbc_free_stmt(s);
		return NULL;
	}
	return s;
}

/*
 * The connection may carry a statement: usable, and the statement counts
 * as sent in the transaction (a transaction through which none went ends
 * without a call to the driver, mfodbc_end).
 */
bool
mfodbc_ready(MfConn *conn, MfStep step, MfError *err)
{
	if (!mfodbc_usable(conn, step, err))
		return false;
	if (conn->in_xact)
		conn->xact_sent = true;
	return true;
}

MfStmt *
mfodbc_prepare(MfConn *conn, const char *sql, int nparams,
			   const MfTypeClass *classes, MfError *err)
{
	mf_error_clear(err);
	if (!mfodbc_ready(conn, MF_STEP_PREPARE, err))
		return NULL;
	return mfodbc_new_stmt(conn, sql, nparams, classes, MF_STEP_PREPARE, err);
}

void
mfodbc_stmt_close(MfStmt *stmt)
{
	if (stmt != NULL)
		mfodbc_free_stmt(stmt);
}

/*
 * Read the row counts of an executed statement, and any result sets that
 * came with it (dropped).  With per-set counts (SQL_PARC_BATCH) each set
 * is a result of its own.
 */
bool
mfodbc_drain(MfConn *conn, SQLHSTMT h, MfStep step, long *rows, MfError *err)
{
	SQLRETURN	rc;

	for (;;)
	{
		SQLSMALLINT ncols = 0;
		SQLLEN		count = 0;

		(void) SQLNumResultCols(h, &ncols);
		if (ncols > 0)
		{
			while ((rc = SQLFetch(h)) == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO)
				*rows += 1;
			if (rc != SQL_NO_DATA)
			{
				mfodbc_stmt_diag(conn, h, step, err);
				(void) SQLFreeStmt(h, SQL_CLOSE);
				return false;
			}
		}
		else if (SQL_SUCCEEDED(SQLRowCount(h, &count)) && count > 0)
			*rows += (long) count;

		rc = SQLMoreResults(h);
		if (rc == SQL_NO_DATA)
			break;
		if (!SQL_SUCCEEDED(rc))
		{
			mfodbc_stmt_diag(conn, h, step, err);
			(void) SQLFreeStmt(h, SQL_CLOSE);
			return false;
		}
	}
	(void) SQLFreeStmt(h, SQL_CLOSE);
	return true;
}

bool
mfodbc_exec_direct(MfConn *conn, const char *sql, MfStep step, long *rows,
				   MfError *err)
{
	SQLHSTMT	h;
	SQLWCHAR   *w;
	SQLRETURN	rc;
	long		n = 0;
	bool		ok = true;
	MfodbcInfo	info;

	if (rows)
		*rows = 0;
	if (!mfodbc_ready(conn, step, err) || !mfodbc_sql_allowed(sql, step, err))
		return false;
	if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, conn->dbc, &h)))
	{
		mfodbc_diag(conn, SQL_HANDLE_DBC, conn->dbc, step, err);
		return false;
	}
	w = mfodbc_to_wide(sql, -1, NULL);
	if (w == NULL)
	{
		(void) SQLFreeHandle(SQL_HANDLE_STMT, h);
		mfodbc_oom(conn, step, err);
		return false;
	}
	conn->wire->round_trips++;
	conn->wire->bytes_sent += strlen(sql);
	mfodbc_watch(conn, h);
	rc = SQLExecDirectW(h, w, SQL_NTS);
	free(w);
	/* not the begin's: psqlODBC's own BEGIN has gone before it */
	mfodbc_info_take(conn, h, step == MF_STEP_TRANSACTION ? SQL_SUCCESS : rc,
					 &info);
	if (rc == SQL_NO_DATA)
		ok = true;
	else if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_stmt_diag(conn, h, step, err);
		ok = false;
	}
	else
		ok = mfodbc_drain(conn, h, step, &n, err);
	mfodbc_unwatch_error(conn, ok, step, err);
	(void) SQLFreeHandle(SQL_HANDLE_STMT, h);
	mfodbc_info_give(conn, &info);
	if (ok && rows)
		*rows = n;
	return ok;
}

bool
mfodbc_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err)
{
	bool		ok;

	mf_error_clear(err);
	ok = mfodbc_exec_direct(conn, sql, MF_STEP_EXEC, rows_affected, err);

	/*
	 * Outside a remote transaction (the dialect's session set-up, right
	 * after connecting) a statement is committed at once, so that a later
	 * rollback cannot undo it (PostgreSQL's SET is transactional).
	 */
	if (!conn->in_xact && !conn->broken)
	{
		SQLRETURN	rc;

		conn->wire->round_trips++;
		rc = SQLEndTran(SQL_HANDLE_DBC, conn->dbc,
						ok ? SQL_COMMIT : SQL_ROLLBACK);

		if (ok && !SQL_SUCCEEDED(rc))
		{
			mfodbc_diag(conn, SQL_HANDLE_DBC, conn->dbc, MF_STEP_EXEC, err);
			ok = false;
		}
	}
	return ok;
}

