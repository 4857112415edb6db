/*-------------------------------------------------------------------------
 *
 * my_modes.c
 *		The session's transaction characteristics on MariaDB and MySQL:
 *		the isolation level and access mode of the transactions to come,
 *		which are the session's (START TRANSACTION cannot name a level),
 *		set as they change and checked after a statement of the user's.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <string.h>
#include <strings.h>

#include <stdio.h>

/* The isolation levels, as SET TRANSACTION names them. */
const char *const mfmy_levels[4] = {
	"READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"
};

/*
 * A session variable that MariaDB and MySQL 5 name one way and MySQL 8
 * another (sqls: the query for each name), its value copied into buf
 * (left as it is for NULL).  false: err says why it could not be read.
 */
static bool
mfmy_read_session_var(MfConn *conn, const char *const sqls[2], char *buf,
					  size_t len, MfError *err)
{
	for (int i = 0; i < 2; i++)
	{
		MfmyOp		op;
		MYSQL_RES  *r = NULL;
		MYSQL_ROW	row;
		bool		ok;

		mfmy_op_start(&op, conn);
		ok = mfmy_real_query(&op, sqls[i], (unsigned long) strlen(sqls[i])) == 0 &&
			(r = mfmy_store_result(&op)) != NULL;
		if (mfmy_op_interrupted(&op, MF_STEP_TRANSACTION, err))
		{
			if (r != NULL)
				mysql_free_result(r);
			return false;
		}
		if (!ok)
		{
			if (i == 0 && mysql_errno(conn->my) == ER_UNKNOWN_SYSTEM_VARIABLE)
				continue;
			mfmy_conn_error(conn, MF_STEP_TRANSACTION, err);
			return false;
		}
		row = mysql_fetch_row(r);
		if (row != NULL && row[0] != NULL)
			mf_error_copy(buf, len, row[0]);
		mysql_free_result(r);
		return true;
	}
	return true;				/* not reached: the second name's error */
}

/*
 * The session's own isolation level, read once, before the first change:
 * tx_isolation on MariaDB and MySQL 5, transaction_isolation on MySQL 8.
 */
bool
mfmy_read_isolation(MfConn *conn, MfError *err)
{
	static const char *const sqls[] = {"SELECT @@SESSION.tx_isolation",
	"SELECT @@SESSION.transaction_isolation"};

	if (!mfmy_read_session_var(conn, sqls, conn->iso_orig,
							   sizeof(conn->iso_orig), err))
		return false;
	for (char *c = conn->iso_orig; *c; c++)
		if (*c == '-')
			*c = ' ';
	for (int l = 0; l < 4; l++)
		if (strcasecmp(conn->iso_orig, mfmy_levels[l]) == 0)
			return true;
	mfmy_fail(conn, err, MF_STEP_TRANSACTION, "XX000",
			  "could not read the session's transaction isolation level");
	conn->iso_orig[0] = '\0';
	return false;
}

/*
 * The session's isolation level for the transactions to come, set when it
 * changes: the level asked for, or the session's own again.
 */
bool
mfmy_set_isolation(MfConn *conn, const char *level, MfError *err)
{
	char		sql[80];

	if (level == conn->iso_level)
		return true;
	if (conn->iso_orig[0] == '\0' && !mfmy_read_isolation(conn, err))
		return false;
	snprintf(sql, sizeof(sql), "SET SESSION TRANSACTION ISOLATION LEVEL %s",
			 level != NULL ? level : conn->iso_orig);
	if (!mfmy_command(conn, sql, MF_STEP_TRANSACTION, NULL, err))
		return false;
	conn->iso_level = level;
	return true;
}

/*
 * The session's access mode for the transactions to come, set when it
 * changes (the session's own is taken to be READ WRITE, MariaDB's default).
 */
bool
mfmy_set_read_only(MfConn *conn, bool read_only, MfError *err)
{
	const char *sql = read_only ? "SET SESSION TRANSACTION READ ONLY" :
	"SET SESSION TRANSACTION READ WRITE";

	if (read_only == conn->read_only)
		return true;
	if (!mfmy_command(conn, sql, MF_STEP_TRANSACTION, NULL, err))
		return false;
	conn->read_only = read_only;
	return true;
}

/*
 * Both at once, in one statement, whatever was set before: after a
 * statement of the user's (modes_unsure), which may have changed either.
 */
bool
mfmy_set_modes(MfConn *conn, const char *level, bool read_only,
			   MfError *err)
{
	char		sql[120];

	if (level == NULL && conn->iso_orig[0] == '\0' &&
		!mfmy_read_isolation(conn, err))
		return false;
	snprintf(sql, sizeof(sql),
			 "SET SESSION TRANSACTION ISOLATION LEVEL %s, READ %s",
			 level != NULL ? level : conn->iso_orig,
			 read_only ? "ONLY" : "WRITE");
	if (!mfmy_command(conn, sql, MF_STEP_TRANSACTION, NULL, err))
		return false;
	conn->iso_level = level;
	conn->read_only = read_only;
	conn->modes_unsure = false;
	return true;
}

/*
 * After a statement of the user's in a READ ONLY transaction: is the
 * session's access mode still READ ONLY?  Dynamic SQL or a procedure may
 * have set it READ WRITE where no word of the statement said so, and
 * MariaDB opens the transaction only at the first statement that reads a
 * table, under the session's mode then.  tx_read_only (MariaDB, MySQL 5),
 * else transaction_read_only (MySQL 8).
 */
bool
mfmy_session_kept(MfConn *conn, MfError *err)
{
	static const char *const sqls[] = {"SELECT @@SESSION.tx_read_only",
	"SELECT @@SESSION.transaction_read_only"};
	char		value[8] = "";

	if (!conn->read_only)
		return true;
	if (!mfmy_read_session_var(conn, sqls, value, sizeof(value), err))
		return false;
	if (strcmp(value, "1") == 0)
		return true;
	conn->modes_unsure = true;
	mfmy_fail(conn, err, MF_STEP_EXECUTE, "25006",
			  "the statement set the session READ WRITE in a READ ONLY transaction");
	return false;
}

/*
 * A statement of the user's may set the session's isolation level or
 * access mode (through a procedure, a prepared statement): the next
 * transaction sets both again rather than trust what was set.
 */
void
mfmy_session_unsure(MfConn *conn)
{
	conn->modes_unsure = true;
}
