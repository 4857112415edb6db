/*-------------------------------------------------------------------------
 *
 * odbc_stmt.c
 *		The odbc transport's statements: the connection's list of them,
 *		placeholders, prepare, statements run directly and draining their
 *		results.
 *
 * Part of the odbc transport (see odbc_transport.c); on the transport side
 * of the wall: no PostgreSQL server header, only unixODBC's.
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
 * The connection's list of statements
 * ---------------------------------------------------------------------
 */

void
mfodbc_free_stmt(MfStmt *s)
{
	MF_LIST_REMOVE(s->conn->stmts, s);
	if (s->h != SQL_NULL_HSTMT)
		(void) SQLFreeHandle(SQL_HANDLE_STMT, s->h);
	free(s->map);
	free(s->classes);
	free(s);
}
/* ---------------------------------------------------------------------
 * Statements: placeholders
 * ---------------------------------------------------------------------
 */

/*
 * ODBC knows only "?" markers.  The postgres dialect numbers its
 * placeholders ($1, and $1 again where a value is used twice): rewrite them
 * to "?" outside quotes and comments, and remember which parameter each
 * marker takes.  Returns the statement to send (sql itself when there is
 * nothing to rewrite), *map NULL for the identity.
 */
static char *
mfodbc_rewrite(const char *sql, int nparams, int **map, int *nmarkers,
			   bool *oom)
{
	size_t		n = strlen(sql);
	char	   *out;
	int		   *m = NULL;
	int			cap = 0;
	int			k = 0;
	size_t		o = 0;
	bool		numbered = false;
	int			plain = 0;

	*map = NULL;
	*oom = false;
	for (const char *p = sql; *p; p++)
		if (p[0] == '$' && isdigit((unsigned char) p[1]) &&
			(p == sql || !(isalnum((unsigned char) p[-1]) || p[-1] == '_' ||
						   p[-1] == '$')))
			numbered = true;
	if (!numbered)
	{
		/* count markers outside quotes */
		char		q = 0;

		for (const char *p = sql; *p; p++)
		{
			if (q)
			{
				if (*p == q)
					q = 0;
			}
			else if (*p == '\'' || *p == '"' || *p == '`')
				q = *p;
			else if (*p == '?')
				plain++;
		}
		*nmarkers = plain;
		return (char *) sql;
	}

	out = malloc(n + 1);
	if (out == NULL)
	{
		*oom = true;
		return NULL;
	}
	for (size_t i = 0; i < n;)
	{
		char		c = sql[i];

		if (c == '\'' || c == '"')
		{
			/* a quoted string or identifier; doubled quotes stay inside */
			size_t		j = i + 1;

			while (j < n)
			{
				if (sql[j] == c)
				{
					if (j + 1 < n && sql[j + 1] == c)
					{
						j += 2;
						continue;
					}
					break;
				}
				if (c == '\'' && sql[j] == '\\' && i > 0 &&
					(sql[i - 1] == 'E' || sql[i - 1] == 'e') && j + 1 < n)
				{
					j += 2;
					continue;
				}
				j++;
			}
			if (j < n)
				j++;
			memcpy(out + o, sql + i, j - i);
			o += j - i;
			i = j;
		}
		else if (c == '-' && i + 1 < n && sql[i + 1] == '-')
		{
			size_t		j = i;

			while (j < n && sql[j] != '\n')
				j++;
			memcpy(out + o, sql + i, j - i);
			o += j - i;
			i = j;
		}
		else if (c == '$' && i + 1 < n && isdigit((unsigned char) sql[i + 1]) &&
				 (i == 0 || !(isalnum((unsigned char) sql[i - 1]) ||
							  sql[i - 1] == '_' || sql[i - 1] == '$')))
		{
			long		num = 0;
			size_t		j = i + 1;

			while (j < n && isdigit((unsigned char) sql[j]))
			{
				if (num < 1000000)
					num = num * 10 + (sql[j] - '0');
				j++;
			}
			if (k >= cap)
			{
				int			nc = cap ? cap * 2 : 64;
				int		   *nm = realloc(m, nc * sizeof(int));

				if (nm == NULL)
				{
					free(m);
					free(out);
					*oom = true;
					return NULL;
				}
				m = nm;
				cap = nc;
			}
			m[k++] = (num >= 1 && num <= nparams) ? (int) num - 1 : -1;
			out[o++] = '?';
			i = j;
		}
		else
			out[o++] = sql[i++];
	}
	out[o] = '\0';
	*map = m;
	*nmarkers = k;
	return out;
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
	char	   *text;
	bool		oom;
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
	text = mfodbc_rewrite(sql, nparams, &s->map, &s->nmarkers, &oom);
	if (oom)
	{
		mfodbc_free_stmt(s);
		mfodbc_oom(conn, step, err);
		return NULL;
	}
	if (s->map == NULL && s->nmarkers != nparams)
		s->nmarkers = nparams;	/* "?" in literals were counted: trust the core */
	if (s->nmarkers > mf_transport_odbc.max_params)
	{
		if (text != sql)
			free(text);
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
		if (text != sql)
			free(text);
		s->h = SQL_NULL_HSTMT;
		mfodbc_free_stmt(s);
		return NULL;
	}
	w = mfodbc_to_wide(text, -1, NULL);
	if (text != sql)
		free(text);
	if (w == NULL)
	{
		mfodbc_free_stmt(s);
		mfodbc_oom(conn, step, err);
		return NULL;
	}
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

MfStmt *
mfodbc_prepare(MfConn *conn, const char *sql, int nparams,
			   const MfTypeClass *classes, MfError *err)
{
	mf_error_clear(err);
	if (!mfodbc_usable(conn, MF_STEP_PREPARE, err))
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

	if (rows)
		*rows = 0;
	if (!mfodbc_usable(conn, step, err) || !mfodbc_sql_allowed(sql, step, err))
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
	mfodbc_watch(conn, h);
	rc = SQLExecDirectW(h, w, SQL_NTS);
	free(w);
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
		SQLRETURN	rc = SQLEndTran(SQL_HANDLE_DBC, conn->dbc,
									ok ? SQL_COMMIT : SQL_ROLLBACK);

		if (ok && !SQL_SUCCEEDED(rc))
		{
			mfodbc_diag(conn, SQL_HANDLE_DBC, conn->dbc, MF_STEP_EXEC, err);
			ok = false;
		}
	}
	return ok;
}

