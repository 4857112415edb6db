/*-------------------------------------------------------------------------
 *
 * odbc.c
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
 * there; no driver takes more than 65535); a parameter array is cut into calls of at most MFODBC_ARRAY_MAX
 * sets to bound its memory.
 *
 * Waiting: ODBC calls block inside the driver.  A call that may wait on
 * the server (executing, fetching) is watched by a thread of the
 * connection's that calls SQLCancel once the user cancels (odbc_cancel.c);
 * with a driver that honours it, the call then returns and the cancel is
 * reported as 57014.
 *
 * Parameters are bound in odbc_bind.c, the catalog is read for IMPORT
 * FOREIGN SCHEMA in odbc_catalog.c; odbc_int.h is what the three share.
 *
 * This file is on the transport side of the wall (see transport.h): no
 * PostgreSQL server header, only unixODBC's.
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

/* the most parameter sets bound in one SQLExecute, and their bytes */
#define MFODBC_ARRAY_MAX	10000
#define MFODBC_ARRAY_BYTES	((size_t) 8 * 1024 * 1024)

#define MFODBC_DEFAULT_FETCH	100

/* ---------------------------------------------------------------------
 * UTF-8 and UTF-16
 * ---------------------------------------------------------------------
 */

/* UTF-8 (len bytes, or up to NUL when len < 0) to a malloc'd UTF-16 string */
SQLWCHAR *
mfodbc_to_wide(const char *s, long len, SQLLEN *outlen)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		n = len < 0 ? strlen(s) : (size_t) len;
	SQLWCHAR   *w = malloc((n + 1) * sizeof(SQLWCHAR));
	size_t		o = 0;
	size_t		i = 0;

	if (w == NULL)
		return NULL;
	while (i < n)
	{
		uint32_t	c = p[i];
		int			extra = 0;

		if (c < 0x80)
			extra = 0;
		else if ((c & 0xE0) == 0xC0)
		{
			c &= 0x1F;
			extra = 1;
		}
		else if ((c & 0xF0) == 0xE0)
		{
			c &= 0x0F;
			extra = 2;
		}
		else if ((c & 0xF8) == 0xF0)
		{
			c &= 0x07;
			extra = 3;
		}
		else
		{
			c = 0xFFFD;
			extra = -1;
		}
		i++;
		for (int k = 0; k < extra; k++)
		{
			if (i >= n || (p[i] & 0xC0) != 0x80)
			{
				c = 0xFFFD;
				break;
			}
			c = (c << 6) | (p[i] & 0x3F);
			i++;
		}
		if (c >= 0x10000)
		{
			c -= 0x10000;
			w[o++] = (SQLWCHAR) (0xD800 + (c >> 10));
			w[o++] = (SQLWCHAR) (0xDC00 + (c & 0x3FF));
		}
		else
			w[o++] = (SQLWCHAR) c;
	}
	w[o] = 0;
	if (outlen)
		*outlen = (SQLLEN) o;
	return w;
}

/*
 * UTF-16 (n units) to UTF-8 in dst, which has room for 3 * n + 1 bytes;
 * returns the bytes written (NUL-terminated).
 */
size_t
mfodbc_from_wide(const SQLWCHAR *w, size_t n, char *dst)
{
	size_t		o = 0;

	for (size_t i = 0; i < n; i++)
	{
		uint32_t	c = w[i];

		if (c >= 0xD800 && c < 0xDC00 && i + 1 < n &&
			w[i + 1] >= 0xDC00 && w[i + 1] < 0xE000)
		{
			c = 0x10000 + ((c - 0xD800) << 10) + (w[i + 1] - 0xDC00);
			i++;
		}
		else if (c >= 0xD800 && c < 0xE000)
			c = 0xFFFD;
		if (c < 0x80)
			dst[o++] = (char) c;
		else if (c < 0x800)
		{
			dst[o++] = (char) (0xC0 | (c >> 6));
			dst[o++] = (char) (0x80 | (c & 0x3F));
		}
		else if (c < 0x10000)
		{
			dst[o++] = (char) (0xE0 | (c >> 12));
			dst[o++] = (char) (0x80 | ((c >> 6) & 0x3F));
			dst[o++] = (char) (0x80 | (c & 0x3F));
		}
		else
		{
			dst[o++] = (char) (0xF0 | (c >> 18));
			dst[o++] = (char) (0x80 | ((c >> 12) & 0x3F));
			dst[o++] = (char) (0x80 | ((c >> 6) & 0x3F));
			dst[o++] = (char) (0x80 | (c & 0x3F));
		}
	}
	dst[o] = '\0';
	return o;
}

/* ---------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------
 */

static bool
mfodbc_lost_state(const char *state)
{
	return strncmp(state, "08", 2) == 0 || strcmp(state, "HYT01") == 0;
}

/* Drop the "[vendor][driver]" prefixes drivers put before their message. */
static const char *
mfodbc_strip_prefixes(const char *m)
{
	while (*m == '[')
	{
		const char *close = strchr(m, ']');

		if (close == NULL)
			break;
		m = close + 1;
	}
	while (*m == ' ')
		m++;
	return m;
}

/*
 * psqlODBC hands on the server's report as one text: "ERROR:  message",
 * then "DETAIL:  ..." and "HINT:  ..." lines, then ";\n" and a line of its
 * own ("Error while executing the query", "The connection has been lost").
 * Put each part where it belongs.
 */
static void
mfodbc_split_psqlodbc(MfError *err)
{
	char		buf[MF_ERR_MESSAGE_LEN];
	char	   *m = buf;
	char	   *p;
	static const char *const levels[] = {"ERROR:", "FATAL:", "PANIC:", NULL};

	mf_error_copy(buf, sizeof(buf), err->message);
	if ((p = strstr(m, ";\n")) != NULL)
		*p = '\0';
	for (int i = 0; levels[i]; i++)
		if (strncmp(m, levels[i], strlen(levels[i])) == 0)
		{
			m += strlen(levels[i]);
			while (*m == ' ')
				m++;
			break;
		}
	if ((p = strstr(m, "\nHINT:")) != NULL)
	{
		const char *h = p + 7;

		while (*h == ' ')
			h++;
		mf_error_copy(err->hint, sizeof(err->hint), h);
		*p = '\0';
	}
	if ((p = strstr(m, "\nDETAIL:")) != NULL)
	{
		const char *d = p + 9;

		while (*d == ' ')
			d++;
		mf_error_copy(err->detail, sizeof(err->detail), d);
		*p = '\0';
	}
	/* the hint and detail lines carry their own line breaks */
	for (char *c = err->hint + strlen(err->hint); c > err->hint && c[-1] == '\n';)
		*--c = '\0';
	for (char *c = err->detail + strlen(err->detail); c > err->detail && c[-1] == '\n';)
		*--c = '\0';
	p = m + strlen(m);
	while (p > m && p[-1] == '\n')
		*--p = '\0';
	mf_error_copy(err->message, sizeof(err->message), m);
}

void
mfodbc_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
			const char *message)
{
	mf_error_clear(err);
	mf_error_set(err, step, sqlstate, 0, "%s", message);
	if (conn != NULL)
		err->conn_lost = conn->broken;
}

void
mfodbc_oom(MfConn *conn, MfStep step, MfError *err)
{
	mfodbc_fail(conn, err, step, "53200", "out of memory");
}

/*
 * Fill err from the diagnostic records of a handle: the first record gives
 * SQLSTATE, native code and message; later ones go to the detail.
 */
void
mfodbc_diag(MfConn *conn, SQLSMALLINT htype, SQLHANDLE h, MfStep step,
			MfError *err)
{
	SQLWCHAR	wstate[6];
	SQLWCHAR	wmsg[1024];
	SQLINTEGER	native = 0;
	SQLSMALLINT len = 0;
	char		state[6] = "";
	char		msg[3 * 1024 + 1];
	char		detail[MF_ERR_TEXT_LEN] = "";
	char		lost_state[6] = "";
	char		lost_msg[MF_ERR_TEXT_LEN] = "";
	bool		lost = false;
	bool		found = false;

	mf_error_clear(err);
	for (SQLSMALLINT rec = 1; rec <= 5; rec++)
	{
		SQLINTEGER	nat = 0;
		char		st[6];
		SQLRETURN	rc;

		len = 0;
		rc = SQLGetDiagRecW(htype, h, rec, wstate, &nat, wmsg,
							(SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)), &len);
		if (!SQL_SUCCEEDED(rc))
			break;
		if (len < 0)
			len = 0;
		if (len >= (SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)))
			len = (SQLSMALLINT) (sizeof(wmsg) / sizeof(SQLWCHAR)) - 1;
		for (int i = 0; i < 5; i++)
			st[i] = (char) (wstate[i] < 0x80 ? wstate[i] : '?');
		st[5] = '\0';
		mfodbc_from_wide(wmsg, (size_t) len, msg);
		if (mfodbc_lost_state(st) && !lost)
		{
			lost = true;
			memcpy(lost_state, st, 6);
			mf_error_copy(lost_msg, sizeof(lost_msg), mfodbc_strip_prefixes(msg));
		}
		if (!found)
		{
			/*
			 * The first record that is not a mere warning is the error;
			 * drivers put warnings (01xxx) first at times.
			 */
			memcpy(state, st, 6);
			native = nat;
			mf_error_copy(err->message, sizeof(err->message),
						  mfodbc_strip_prefixes(msg));
			found = strncmp(st, "01", 2) != 0;
		}
		else if (strncmp(st, "01", 2) != 0 && detail[0] == '\0')
			mf_error_copy(detail, sizeof(detail), mfodbc_strip_prefixes(msg));
	}
	if (state[0] == '\0')
	{
		memcpy(state, lost ? "08006" : "XX000", 6);
		mf_error_copy(err->message, sizeof(err->message),
					  "the ODBC driver failed without a diagnostic record");
	}

	/*
	 * A lost link may hide behind a first record from the driver that is
	 * about something else (one from the server, with its number, stays
	 * the error): the lost link is the error, the first record the detail.
	 */
	if (lost && lost_state[0] != '\0' && !mfodbc_lost_state(state) &&
		conn != NULL && native == 0)
	{
		mf_error_copy(detail, sizeof(detail), err->message);
		mf_error_copy(err->message, sizeof(err->message), lost_msg);
		memcpy(state, lost_state, 6);
		native = 0;
	}
	else if (!lost && conn != NULL && conn->connected && htype != SQL_HANDLE_ENV)
	{
		/* or behind no 08 record at all: ask the driver about the link */
		SQLUINTEGER dead = SQL_CD_FALSE;

		if (SQL_SUCCEEDED(SQLGetConnectAttr(conn->dbc, SQL_ATTR_CONNECTION_DEAD,
											&dead, 0, NULL)) &&
			dead == SQL_CD_TRUE)
		{
			lost = true;
			memcpy(state, "08006", 6);
			native = 0;
		}
	}

	/* psqlODBC's native number is its own, not the server's */
	if (conn != NULL && conn->driver == MFODBC_PSQLODBC)
		native = 0;
	memcpy(err->sqlstate, state, 6);
	err->native_code = native;
	err->step = step;
	if (lost && conn != NULL)
		conn->broken = true;
	err->conn_lost = lost || (conn != NULL && conn->broken);
	if (detail[0] != '\0' && strcmp(detail, err->message) != 0)
		mf_error_copy(err->detail, sizeof(err->detail), detail);
	if (conn != NULL && conn->driver == MFODBC_PSQLODBC)
		mfodbc_split_psqlodbc(err);
}

void
mfodbc_stmt_diag(MfConn *conn, SQLHSTMT h, MfStep step, MfError *err)
{
	mfodbc_diag(conn, SQL_HANDLE_STMT, h, step, err);
}

bool
mfodbc_usable(MfConn *conn, MfStep step, MfError *err)
{
	if (conn == NULL || conn->broken || !conn->connected)
	{
		if (conn != NULL)
			conn->broken = true;
		mfodbc_fail(conn, err, step, "08006",
					"connection to the remote server was lost");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------------
 * Objects and their lists
 * ---------------------------------------------------------------------
 */

static void
mfodbc_link_stmt(MfConn *conn, MfStmt *s)
{
	s->prev = NULL;
	s->next = conn->stmts;
	if (conn->stmts)
		conn->stmts->prev = s;
	conn->stmts = s;
}

static void
mfodbc_unlink_stmt(MfStmt *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else if (s->conn->stmts == s)
		s->conn->stmts = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->prev = s->next = NULL;
}

static void
mfodbc_link_result(MfConn *conn, MfResult *r)
{
	r->prev = NULL;
	r->next = conn->results;
	if (conn->results)
		conn->results->prev = r;
	conn->results = r;
}

static void
mfodbc_unlink_result(MfResult *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else if (r->conn->results == r)
		r->conn->results = r->next;
	if (r->next)
		r->next->prev = r->prev;
	r->prev = r->next = NULL;
}

static void
mfodbc_free_stmt(MfStmt *s)
{
	mfodbc_unlink_stmt(s);
	if (s->h != SQL_NULL_HSTMT)
		(void) SQLFreeHandle(SQL_HANDLE_STMT, s->h);
	free(s->map);
	free(s->classes);
	free(s);
}

void
mfodbc_free_result(MfResult *r)
{
	mfodbc_unlink_result(r);
	if (r->h != SQL_NULL_HSTMT)
	{
		if (r->owns_handle)
			(void) SQLFreeHandle(SQL_HANDLE_STMT, r->h);
		else
			(void) SQLFreeStmt(r->h, SQL_CLOSE);
	}
	if (r->params)
		mfodbc_free_stmt(r->params);
	free(r->cols);
	free(r->offsets);
	free(r->arena);
	free(r);
}

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

static MfStmt *
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
	mfodbc_link_stmt(conn, s);
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

static MfStmt *
mfodbc_prepare(MfConn *conn, const char *sql, int nparams,
			   const MfTypeClass *classes, MfError *err)
{
	mf_error_clear(err);
	if (!mfodbc_usable(conn, MF_STEP_PREPARE, err))
		return NULL;
	return mfodbc_new_stmt(conn, sql, nparams, classes, MF_STEP_PREPARE, err);
}

static void
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
static bool
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

static bool
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

static bool
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
 * START TRANSACTION only warns about before any query).
 */
static bool
mfodbc_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	mf_error_clear(err);
	if (!mfodbc_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	conn->in_xact = true;
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
	if (!mfodbc_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
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

/* ---------------------------------------------------------------------
 * Results
 * ---------------------------------------------------------------------
 */

static bool
mfodbc_arena_reserve(MfResult *r, size_t n)
{
	if (r->arena_len + n > r->arena_cap)
	{
		size_t		cap = r->arena_cap ? r->arena_cap : 8192;
		char	   *a;

		while (r->arena_len + n > cap)
			cap *= 2;
		a = realloc(r->arena, cap);
		if (a == NULL)
			return false;
		r->arena = a;
		r->arena_cap = cap;
	}
	return true;
}

bool
mfodbc_offsets_reserve(MfResult *r, size_t n)
{
	if (n > r->offsets_cap)
	{
		size_t		cap = r->offsets_cap ? r->offsets_cap : 256;
		size_t	   *o;

		while (cap < n)
			cap *= 2;
		o = realloc(r->offsets, cap * sizeof(size_t));
		if (o == NULL)
			return false;
		r->offsets = o;
		r->offsets_cap = cap;
	}
	return true;
}

/* append a NUL-terminated string to the arena; its offset in *off */
bool
mfodbc_arena_add(MfResult *r, const char *s, size_t len, size_t *off)
{
	if (!mfodbc_arena_reserve(r, len + 1))
		return false;
	*off = r->arena_len;
	memcpy(r->arena + r->arena_len, s, len);
	r->arena[r->arena_len + len] = '\0';
	r->arena_len += len + 1;
	return true;
}

static bool
mfodbc_describe(MfResult *r, MfError *err)
{
	SQLSMALLINT n = 0;

	if (!SQL_SUCCEEDED(SQLNumResultCols(r->h, &n)))
	{
		mfodbc_stmt_diag(r->conn, r->h, MF_STEP_FETCH, err);
		return false;
	}
	r->ncols = n;
	r->cols = calloc(n > 0 ? n : 1, sizeof(MfodbcCol));
	if (r->cols == NULL)
	{
		mfodbc_oom(r->conn, MF_STEP_FETCH, err);
		return false;
	}
	for (SQLSMALLINT c = 0; c < n; c++)
	{
		SQLWCHAR	name[256];
		SQLSMALLINT nlen,
					type = SQL_VARCHAR,
					digits,
					nullable;
		SQLULEN		size;

		if (!SQL_SUCCEEDED(SQLDescribeColW(r->h, (SQLUSMALLINT) (c + 1), name,
										   256, &nlen, &type, &size, &digits,
										   &nullable)))
		{
			type = SQL_VARCHAR;
			size = 0;
		}
		r->cols[c].type = type;
		r->cols[c].size = size;
		if (type == SQL_BINARY || type == SQL_VARBINARY)
		{
			char		tname[64] = "";
			SQLSMALLINT tlen = 0;

			if (SQL_SUCCEEDED(SQLColAttribute(r->h, (SQLUSMALLINT) (c + 1),
											  SQL_DESC_TYPE_NAME, tname,
											  sizeof(tname), &tlen, NULL)) &&
				strcasecmp(tname, "bit") == 0)
				r->cols[c].bits = true;
		}
	}
	return true;
}

static const char mfodbc_hex[] = "0123456789abcdef";

/* Does "YYYY-MM-DD HH:MM:SS[.f]..." (len bytes) end in a zone or era? */
static bool
mfodbc_has_offset(const char *s, size_t len)
{
	for (size_t i = 19; i < len; i++)
		if (s[i] == '+' || s[i] == '-' || isalpha((unsigned char) s[i]))
			return true;
	return false;
}

/* how reading one value went */
typedef enum MfodbcGet
{
	MFODBC_GOT,
	MFODBC_GET_FAILED,			/* the driver's diagnostics say why */
	MFODBC_GET_OOM
} MfodbcGet;

/* MySQL BIT(n): the bits as binary digits, n of them */
static MfodbcGet
mfodbc_get_bits(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	unsigned char data[64];
	size_t		nbits;
	size_t		start;

	rc = SQLGetData(h, col, SQL_C_BINARY, data, sizeof(data), &ind);
	if (!SQL_SUCCEEDED(rc))
		return MFODBC_GET_FAILED;
	if (ind == SQL_NULL_DATA)
	{
		*off = MFODBC_NULL_OFFSET;
		return MFODBC_GOT;
	}
	if (ind < 0 || ind > (SQLLEN) sizeof(data))
		ind = sizeof(data);
	nbits = (size_t) ind * 8;
	if (r->cols[c].size > 0 && r->cols[c].size < nbits)
		nbits = r->cols[c].size;
	if (!mfodbc_arena_reserve(r, nbits + 1))
		return MFODBC_GET_OOM;
	start = r->arena_len;
	for (size_t i = 0; i < nbits; i++)
	{
		size_t		bit = (size_t) ind * 8 - nbits + i;

		r->arena[r->arena_len++] =
			(data[bit / 8] & (0x80 >> (bit % 8))) ? '1' : '0';
	}
	r->arena[r->arena_len++] = '\0';
	*off = start;
	return MFODBC_GOT;
}

/* binary data as bytea's hex form */
static MfodbcGet
mfodbc_get_binary(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	unsigned char chunk[8192];
	size_t		start;
	bool		first = true;

	start = r->arena_len;
	for (;;)
	{
		size_t		got;

		rc = SQLGetData(h, col, SQL_C_BINARY, chunk, sizeof(chunk), &ind);
		if (rc == SQL_NO_DATA)
			break;
		if (!SQL_SUCCEEDED(rc))
			return MFODBC_GET_FAILED;
		if (ind == SQL_NULL_DATA)
		{
			*off = MFODBC_NULL_OFFSET;
			return MFODBC_GOT;
		}
		if (first)
		{
			if (!mfodbc_arena_reserve(r, 3))
				return MFODBC_GET_OOM;
			r->arena[r->arena_len++] = '\\';
			r->arena[r->arena_len++] = 'x';
			first = false;
		}
		got = (ind == SQL_NO_TOTAL || ind > (SQLLEN) sizeof(chunk)) ?
			sizeof(chunk) : (size_t) ind;
		if (!mfodbc_arena_reserve(r, got * 2 + 1))
			return MFODBC_GET_OOM;
		for (size_t i = 0; i < got; i++)
		{
			r->arena[r->arena_len++] = mfodbc_hex[chunk[i] >> 4];
			r->arena[r->arena_len++] = mfodbc_hex[chunk[i] & 15];
		}
		if (rc == SQL_SUCCESS)
			break;
	}
	if (first)
	{
		if (!mfodbc_arena_reserve(r, 3))
			return MFODBC_GET_OOM;
		r->arena[r->arena_len++] = '\\';
		r->arena[r->arena_len++] = 'x';
	}
	r->arena[r->arena_len++] = '\0';
	*off = start;
	return MFODBC_GOT;
}

/*
 * SQL_BIT as t / f, read as SQL_C_BIT: as text, MariaDB's driver hands a
 * BIT(1) over as its raw byte (0x01), not as "1".
 */
static MfodbcGet
mfodbc_get_bit(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	unsigned char v = 0;

	rc = SQLGetData(h, col, SQL_C_BIT, &v, sizeof(v), &ind);
	if (!SQL_SUCCEEDED(rc))
		return MFODBC_GET_FAILED;
	if (ind == SQL_NULL_DATA)
	{
		*off = MFODBC_NULL_OFFSET;
		return MFODBC_GOT;
	}
	return mfodbc_arena_add(r, v ? "t" : "f", 1, off) ?
		MFODBC_GOT : MFODBC_GET_OOM;
}

/*
 * A timestamp from its struct, in the session's zone (UTC); date_only: a
 * date column, read through the same struct (ODBC converts), written
 * without its time.  FreeTDS's own text of a date has no leading zeros in
 * the year ("1-01-01"), which PostgreSQL reads as another date.
 */
static MfodbcGet
mfodbc_get_timestamp(MfResult *r, int c, size_t *off, bool date_only)
{
	SQLHSTMT	h = r->h;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	SQL_TIMESTAMP_STRUCT ts;
	char		v[64];
	char		frac[16] = "";
	int			len;

	rc = SQLGetData(h, col, SQL_C_TYPE_TIMESTAMP, &ts, sizeof(ts), &ind);
	if (!SQL_SUCCEEDED(rc))
		return MFODBC_GET_FAILED;
	if (ind == SQL_NULL_DATA)
	{
		*off = MFODBC_NULL_OFFSET;
		return MFODBC_GOT;
	}
	if (date_only)
		len = snprintf(v, sizeof(v), "%04d-%02u-%02u", ts.year, ts.month, ts.day);
	else
	{
		if (ts.fraction > 0)
		{
			int			l;

			snprintf(frac, sizeof(frac), ".%06lu", (unsigned long) (ts.fraction / 1000));
			l = (int) strlen(frac);
			while (l > 2 && frac[l - 1] == '0')
				frac[--l] = '\0';
		}
		len = snprintf(v, sizeof(v), "%04d-%02u-%02u %02u:%02u:%02u%s+00",
					   ts.year, ts.month, ts.day, ts.hour, ts.minute,
					   ts.second, frac);
	}
	return mfodbc_arena_add(r, v, (size_t) len, off) ? MFODBC_GOT : MFODBC_GET_OOM;
}

/*
 * Text, in UTF-16 pieces.  A piece may end between the two halves of
 * a surrogate pair, so a trailing high surrogate waits for the next
 * piece before it is decoded.
 */
static MfodbcGet
mfodbc_get_text(MfResult *r, int c, size_t *off)
{
	SQLHSTMT	h = r->h;
	SQLSMALLINT type = r->cols[c].type;
	SQLUSMALLINT col = (SQLUSMALLINT) (c + 1);
	SQLLEN		ind = 0;
	SQLRETURN	rc;
	SQLWCHAR	chunk[4097];
	size_t		start = r->arena_len;
	size_t		carry = 0;

	for (;;)
	{
		size_t		units;

		rc = SQLGetData(h, col, SQL_C_WCHAR, chunk + carry,
						(SQLLEN) (sizeof(chunk) - carry * sizeof(SQLWCHAR)), &ind);
		if (rc == SQL_NO_DATA)
			break;
		if (!SQL_SUCCEEDED(rc))
			return MFODBC_GET_FAILED;
		if (ind == SQL_NULL_DATA)
		{
			*off = MFODBC_NULL_OFFSET;
			return MFODBC_GOT;
		}
		if (ind == SQL_NO_TOTAL ||
			ind >= (SQLLEN) (sizeof(chunk) - carry * sizeof(SQLWCHAR)))
			units = sizeof(chunk) / sizeof(SQLWCHAR) - 1;
		else
			units = carry + (size_t) ind / sizeof(SQLWCHAR);
		carry = 0;
		if (rc == SQL_SUCCESS_WITH_INFO && units > 0 &&
			chunk[units - 1] >= 0xD800 && chunk[units - 1] < 0xDC00)
		{
			units--;
			carry = 1;
		}
		if (!mfodbc_arena_reserve(r, units * 3 + 1))
			return MFODBC_GET_OOM;
		r->arena_len += mfodbc_from_wide(chunk, units, r->arena + r->arena_len);
		if (carry)
			chunk[0] = chunk[units];
		if (rc == SQL_SUCCESS)
			break;
	}
	if (!mfodbc_arena_reserve(r, carry * 3 + 1))
		return MFODBC_GET_OOM;
	if (carry)
		r->arena_len += mfodbc_from_wide(chunk, 1, r->arena + r->arena_len);

	/*
	 * psqlODBC hands a timestamptz over as the session's (UTC) wall
	 * time without its offset: say which zone it is in.  A timestamp
	 * without time zone ignores the offset on input.
	 */
	if ((type == SQL_TYPE_TIMESTAMP || type == SQL_TIMESTAMP) &&
		r->arena_len - start >= 19 &&
		isdigit((unsigned char) r->arena[start]) &&
		!mfodbc_has_offset(r->arena + start, r->arena_len - start))
	{
		if (!mfodbc_arena_reserve(r, 4))
			return MFODBC_GET_OOM;
		memcpy(r->arena + r->arena_len, "+00", 3);
		r->arena_len += 3;
	}
	r->arena[r->arena_len++] = '\0';
	*off = start;
	return MFODBC_GOT;
}

/*
 * Read column c of the current row into the arena, in PostgreSQL's input
 * form: bytea as \x hex, bits as t/f, timestamps (other than psqlODBC's,
 * which come as the server's text) as ISO with their fraction and +00
 * (the session's zone), the rest as the driver's text in UTF-8.
 */
static bool
mfodbc_store_value(MfResult *r, int c, size_t *off, MfError *err)
{
	SQLSMALLINT type = r->cols[c].type;
	MfodbcGet	got;

	if (r->cols[c].bits)
		got = mfodbc_get_bits(r, c, off);
	else if (type == SQL_BINARY || type == SQL_VARBINARY || type == SQL_LONGVARBINARY)
		got = mfodbc_get_binary(r, c, off);
	else if (type == SQL_BIT)
		got = mfodbc_get_bit(r, c, off);
	else if ((type == SQL_TYPE_TIMESTAMP || type == SQL_TIMESTAMP) &&
			 r->conn->driver != MFODBC_PSQLODBC)
		got = mfodbc_get_timestamp(r, c, off, false);
	else if (type == SQL_TYPE_DATE && r->conn->driver == MFODBC_FREETDS)
		got = mfodbc_get_timestamp(r, c, off, true);
	else
		got = mfodbc_get_text(r, c, off);

	if (got == MFODBC_GET_FAILED)
		mfodbc_stmt_diag(r->conn, r->h, MF_STEP_FETCH, err);
	else if (got == MFODBC_GET_OOM)
		mfodbc_oom(r->conn, MF_STEP_FETCH, err);
	return got == MFODBC_GOT;
}

MfResult *
mfodbc_new_result(MfConn *conn, SQLHSTMT h, bool owns, int fetch_size)
{
	MfResult   *r = calloc(1, sizeof(MfResult));

	if (r == NULL)
		return NULL;
	r->conn = conn;
	r->h = h;
	r->owns_handle = owns;
	r->fetch_size = fetch_size > 0 ? fetch_size : MFODBC_DEFAULT_FETCH;
	mfodbc_link_result(conn, r);
	return r;
}

static MfResult *
mfodbc_query(MfConn *conn, const char *sql, int nparams,
			 const char *const *values, const MfTypeClass *classes,
			 int fetch_size, MfError *err)
{
	MfResult   *r;
	SQLRETURN	rc;

	mf_error_clear(err);
	if (!mfodbc_usable(conn, MF_STEP_FETCH, err))
		return NULL;
	r = mfodbc_new_result(conn, SQL_NULL_HSTMT, true, fetch_size);
	if (r == NULL)
	{
		mfodbc_oom(conn, MF_STEP_FETCH, err);
		return NULL;
	}
	r->params = mfodbc_new_stmt(conn, sql, nparams, classes, MF_STEP_FETCH, err);
	if (r->params == NULL)
	{
		mfodbc_free_result(r);
		return NULL;
	}
	/* the result owns the statement's handle from now on */
	r->h = r->params->h;
	{
		MfodbcBinds bs = {0};

		if (!mfodbc_bind_params(r->params, 1, values, &bs, MF_STEP_FETCH, err))
		{
			mfodbc_binds_free(&bs);
			r->params->h = SQL_NULL_HSTMT;
			mfodbc_free_result(r);
			return NULL;
		}
		mfodbc_watch(conn, r->h);
		rc = SQLExecute(r->h);
		if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
			mfodbc_stmt_diag(conn, r->h, MF_STEP_FETCH, err);
		mfodbc_unwatch_error(conn, SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA,
							 MF_STEP_FETCH, err);
		(void) SQLFreeStmt(r->h, SQL_RESET_PARAMS);
		mfodbc_binds_free(&bs);
	}
	r->params->h = SQL_NULL_HSTMT;
	if (rc == SQL_NO_DATA)
		r->done = true;
	else if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_free_result(r);
		return NULL;
	}
	if (!mfodbc_describe(r, err))
	{
		mfodbc_free_result(r);
		return NULL;
	}
	if (r->ncols == 0)
		r->done = true;
	return r;
}

static int
mfodbc_fetch(MfResult *res, MfError *err)
{
	int			n = 0;

	mf_error_clear(err);
	res->nrows = 0;
	res->arena_len = 0;

	if (res->h == SQL_NULL_HSTMT)
	{
		/* rows held in memory: all of them, once */
		if (res->done)
			return 0;
		res->done = true;
		res->nrows = res->mem_rows;
		return res->mem_rows;
	}
	if (res->done)
		return 0;
	if (!mfodbc_offsets_reserve(res, (size_t) res->fetch_size * res->ncols))
	{
		mfodbc_oom(res->conn, MF_STEP_FETCH, err);
		return -1;
	}
	while (n < res->fetch_size)
	{
		SQLRETURN	rc;

		mfodbc_watch(res->conn, res->h);
		rc = SQLFetch(res->h);
		if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
			mfodbc_stmt_diag(res->conn, res->h, MF_STEP_FETCH, err);
		mfodbc_unwatch_error(res->conn, SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA,
							 MF_STEP_FETCH, err);
		if (rc == SQL_NO_DATA)
		{
			res->done = true;
			(void) SQLFreeStmt(res->h, SQL_CLOSE);
			break;
		}
		if (!SQL_SUCCEEDED(rc))
			return -1;
		for (int c = 0; c < res->ncols; c++)
			if (!mfodbc_store_value(res, c, &res->offsets[(size_t) n * res->ncols + c], err))
				return -1;
		n++;
	}
	res->nrows = n;
	return n;
}

static int
mfodbc_ncolumns(MfResult *res)
{
	return res->ncols;
}

static const char *
mfodbc_value(MfResult *res, int row, int col)
{
	size_t		off;

	if (row < 0 || row >= res->nrows || col < 0 || col >= res->ncols)
		return NULL;
	off = res->offsets[(size_t) row * res->ncols + col];
	return off == MFODBC_NULL_OFFSET ? NULL : res->arena + off;
}

static void
mfodbc_result_close(MfResult *res)
{
	if (res != NULL)
		mfodbc_free_result(res);
}

/* ---------------------------------------------------------------------
 * Executing prepared statements
 * ---------------------------------------------------------------------
 */

static bool
mfodbc_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
			   MfResult **result, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	MfodbcBinds bs = {0};
	SQLRETURN	rc;
	long		rows = 0;

	mf_error_clear(err);
	if (rows_affected)
		*rows_affected = 0;
	if (result)
		*result = NULL;
	if (!mfodbc_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	if (!mfodbc_bind_params(stmt, 1, values, &bs, MF_STEP_EXECUTE, err))
	{
		(void) SQLFreeStmt(stmt->h, SQL_RESET_PARAMS);
		mfodbc_binds_free(&bs);
		return false;
	}
	mfodbc_watch(conn, stmt->h);
	rc = SQLExecute(stmt->h);
	/* the diagnostics first: any later call on the handle clears them */
	if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
		mfodbc_stmt_diag(conn, stmt->h, MF_STEP_EXECUTE, err);
	mfodbc_unwatch_error(conn, SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA,
						 MF_STEP_EXECUTE, err);
	(void) SQLFreeStmt(stmt->h, SQL_RESET_PARAMS);
	mfodbc_binds_free(&bs);
	if (rc == SQL_NO_DATA)
		return true;
	if (!SQL_SUCCEEDED(rc))
	{
		(void) SQLFreeStmt(stmt->h, SQL_CLOSE);
		return false;
	}
	if (result)
	{
		SQLSMALLINT ncols = 0;

		(void) SQLNumResultCols(stmt->h, &ncols);
		if (ncols > 0)
		{
			MfResult   *r = mfodbc_new_result(conn, stmt->h, false, 1000);

			if (r == NULL || !mfodbc_describe(r, err))
			{
				if (r)
					mfodbc_free_result(r);
				else
					mfodbc_oom(conn, MF_STEP_EXECUTE, err);
				return false;
			}
			*result = r;
			return true;
		}
	}
	if (!mfodbc_drain(conn, stmt->h, MF_STEP_EXECUTE, &rows, err))
		return false;
	if (rows_affected)
		*rows_affected = rows;
	return true;
}

/* once per connection: does the driver take parameter arrays, and how? */
static void
mfodbc_probe_arrays(MfConn *conn)
{
	SQLUINTEGER v = 0;
	SQLSMALLINT len;

	if (conn->arrays_probed)
		return;
	conn->arrays_probed = true;

	/*
	 * Values per call: MFODBC_ARRAY_BYTES, and for MariaDB's driver, which
	 * sends one bulk packet per call without splitting it, half the
	 * server's max_allowed_packet.
	 */
	conn->array_budget = MFODBC_ARRAY_BYTES;
	if (conn->driver == MFODBC_MARIADB)
	{
		SQLHSTMT	h;
		SQLWCHAR   *w = mfodbc_to_wide("SELECT @@max_allowed_packet", -1, NULL);

		if (w != NULL &&
			SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, conn->dbc, &h)))
		{
			SQLBIGINT	maxp = 0;
			SQLLEN		ind = 0;

			if (SQL_SUCCEEDED(SQLExecDirectW(h, w, SQL_NTS)) &&
				SQL_SUCCEEDED(SQLFetch(h)) &&
				SQL_SUCCEEDED(SQLGetData(h, 1, SQL_C_SBIGINT, &maxp, 0, &ind)) &&
				ind != SQL_NULL_DATA && maxp > 0)
			{
				conn->max_packet = (size_t) maxp;
				if ((size_t) maxp / 2 < conn->array_budget)
					conn->array_budget = (size_t) maxp / 2;
			}
			(void) SQLFreeHandle(SQL_HANDLE_STMT, h);
		}
		free(w);
	}
	if (SQL_SUCCEEDED(SQLGetInfo(conn->dbc, SQL_PARAM_ARRAY_ROW_COUNTS, &v,
								 sizeof(v), &len)))
	{
		conn->parc = v;
		conn->arrays_ok = (v == SQL_PARC_BATCH || v == SQL_PARC_NO_BATCH);
	}
	/*
	 * The drivers known to send a whole array in one message: MariaDB's
	 * (one bulk execution) and FreeTDS (one sp_prepare and N sp_execute).
	 * psqlODBC sends BatchSize separate INSERTs per message, with the
	 * values written in as literals, each parsed and planned by the
	 * server: few round trips, but 4x slower here than multi-row VALUES
	 * (200,000 rows: 3.6 s against 0.95 s), so auto takes VALUES there.
	 */
	conn->arrays_native = conn->arrays_ok &&
		(conn->driver == MFODBC_MARIADB || conn->driver == MFODBC_FREETDS);
}

static bool
mfodbc_arrays_native(MfConn *conn)
{
	mfodbc_probe_arrays(conn);
	return conn->arrays_native;
}

/* one call of up to MFODBC_ARRAY_MAX sets */
static bool
mfodbc_array_chunk(MfStmt *stmt, int nsets, const char *const *values,
				   long first, long *rows, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	MfodbcBinds bs = {0};
	SQLUSMALLINT *status = calloc((size_t) nsets, sizeof(SQLUSMALLINT));
	SQLULEN		processed = 0;
	SQLRETURN	rc;
	bool		ok = true;
	long		n = 0;
	MfError		info;

	mf_error_clear(&info);

	if (status == NULL)
	{
		mfodbc_oom(conn, MF_STEP_EXECUTE, err);
		return false;
	}
	for (int i = 0; i < nsets; i++)
		status[i] = SQL_PARAM_UNUSED;
	if (!SQL_SUCCEEDED(SQLSetStmtAttr(stmt->h, SQL_ATTR_PARAM_BIND_TYPE,
									  (SQLPOINTER) SQL_PARAM_BIND_BY_COLUMN, 0)) ||
		!SQL_SUCCEEDED(SQLSetStmtAttr(stmt->h, SQL_ATTR_PARAMSET_SIZE,
									  (SQLPOINTER) (uintptr_t) nsets, 0)) ||
		!SQL_SUCCEEDED(SQLSetStmtAttr(stmt->h, SQL_ATTR_PARAM_STATUS_PTR,
									  status, 0)) ||
		!SQL_SUCCEEDED(SQLSetStmtAttr(stmt->h, SQL_ATTR_PARAMS_PROCESSED_PTR,
									  &processed, 0)))
	{
		mfodbc_stmt_diag(conn, stmt->h, MF_STEP_EXECUTE, err);
		ok = false;
		goto done;
	}
	if (!mfodbc_bind_params(stmt, nsets, values, &bs, MF_STEP_EXECUTE, err))
	{
		ok = false;
		goto done;
	}

	mfodbc_watch(conn, stmt->h);
	rc = SQLExecute(stmt->h);
	if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
	{
		mfodbc_stmt_diag(conn, stmt->h, MF_STEP_EXECUTE, err);
		ok = false;
	}
	else
	{
		/* a failed set may be reported only as "with info": keep it */
		if (rc == SQL_SUCCESS_WITH_INFO)
			mfodbc_stmt_diag(conn, stmt->h, MF_STEP_EXECUTE, &info);
		/* the sets' counts, or an error a later set ran into */
		ok = mfodbc_drain(conn, stmt->h, MF_STEP_EXECUTE, &n, err);
		if (ok)
			*rows += n;
	}
	mfodbc_unwatch_error(conn, ok, MF_STEP_EXECUTE, err);

	/*
	 * Every set must have succeeded: FreeTDS reports a failed set with
	 * SQL_SUCCESS_WITH_INFO and goes on with the next ones.
	 */
	if (ok && !conn->broken)
	{
		for (int i = 0; i < nsets; i++)
			if (status[i] == SQL_PARAM_ERROR ||
				(status[i] == SQL_PARAM_DIAG_UNAVAILABLE && processed > 0 &&
				 processed < (SQLULEN) nsets))
			{
				if (info.sqlstate[0] != '\0' && strncmp(info.sqlstate, "01", 2) != 0 &&
					strcmp(info.sqlstate, "XX000") != 0)
					*err = info;
				else
				{
					mf_error_clear(err);
					mf_error_set(err, MF_STEP_EXECUTE, "XX000", 0,
								 "set %d of a parameter array failed", i + 1);
				}
				err->row = first + i + 1;
				ok = false;
				break;
			}
		if (ok && processed != 0 && processed < (SQLULEN) nsets)
		{
			mfodbc_fail(conn, err, MF_STEP_EXECUTE, "XX000",
						"the ODBC driver processed only part of a parameter array");
			err->row = first + (long) processed + 1;
			ok = false;
		}
	}
	else if (!ok && !err->conn_lost && err->row == 0)
	{
		for (int i = 0; i < nsets; i++)
			if (status[i] == SQL_PARAM_ERROR)
			{
				/* psqlODBC flags every set: only a lone flag says which */
				int			nerr = 0;

				for (int j = 0; j < nsets; j++)
					nerr += status[j] == SQL_PARAM_ERROR;
				if (nerr == 1 || nsets == 1)
					err->row = first + i + 1;
				break;
			}
	}

done:
	(void) SQLFreeStmt(stmt->h, SQL_CLOSE);
	(void) SQLFreeStmt(stmt->h, SQL_RESET_PARAMS);
	(void) SQLSetStmtAttr(stmt->h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) 1, 0);
	(void) SQLSetStmtAttr(stmt->h, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0);
	(void) SQLSetStmtAttr(stmt->h, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0);
	mfodbc_binds_free(&bs);
	free(status);
	return ok;
}

static bool
mfodbc_execute_array(MfStmt *stmt, int nsets, const char *const *values,
					 long *rows_affected, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	long		rows = 0;

	mf_error_clear(err);
	*rows_affected = 0;
	if (nsets <= 0)
		return true;
	if (!mfodbc_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	mfodbc_probe_arrays(conn);

	if (!conn->arrays_ok || nsets == 1)
	{
		/* set by set */
		for (int i = 0; i < nsets; i++)
		{
			long		n = 0;

			if (!mfodbc_execute(stmt, values ? values + (size_t) i * stmt->nparams : NULL,
								&n, NULL, err))
			{
				err->row = i + 1;
				return false;
			}
			rows += n;
		}
		*rows_affected = rows;
		return true;
	}

	for (int first = 0; first < nsets;)
	{
		int			n = 0;
		size_t		bytes = 0;

		/* sets up to MFODBC_ARRAY_MAX and the byte budget, at least one */
		while (first + n < nsets && n < MFODBC_ARRAY_MAX)
		{
			size_t		set = 0;

			for (int p = 0; p < stmt->nparams; p++)
			{
				const char *v = values[(size_t) (first + n) * stmt->nparams + p];

				set += 16 + (v ? strlen(v) : 0);
			}
			if (n > 0 && bytes + set > conn->array_budget)
				break;
			bytes += set;
			n++;
		}
		if (!mfodbc_array_chunk(stmt, n, values + (size_t) first * stmt->nparams,
								first, &rows, err))
			return false;
		first += n;
	}
	*rows_affected = rows;
	return true;
}

/*
 * MariaDB's driver sends values in the binary protocol, as Connector/C
 * does, and the server drops the session on a request over its
 * max_allowed_packet; other drivers' servers take requests of any size.
 */
static bool
mfodbc_max_packet(MfConn *conn, size_t *bytes, MfError *err)
{
	mfodbc_probe_arrays(conn);
	*bytes = conn->max_packet;
	return true;
}

const MfTransport mf_transport_odbc = {
	.name = "odbc",

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
	.question_mark_is_marker = true,
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
