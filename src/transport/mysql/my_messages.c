/*-------------------------------------------------------------------------
 *
 * my_messages.c
 *		The server's notes and warnings about a statement, relayed as the
 *		remote's messages (transport.h, MfMessage).
 *
 * MariaDB and MySQL do not send them with the answer: the answer counts
 * them (the OK or EOF packet's warning count) and they wait in the
 * session's diagnostics area until the next statement clears it.  So,
 * when a statement of the core's ends with a count that is not zero and
 * the core takes messages (relay_messages), SHOW WARNINGS reads them at
 * once, while the link is free: one more exchange, and only then.  A Note
 * becomes a NOTICE, a Warning (or an Error a handler caught) a WARNING;
 * the core bounds how many reach the client.  Messages of the session's
 * set-up and of the transaction's begin and end are not read.  A LOAD
 * DATA's are read by my_infile.c, which takes a warning for the error it
 * would be in an INSERT and relays the notes.
 *
 * Part of the mysql transport (see my_int.h); on the transport side of the
 * wall: no PostgreSQL server header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "my_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* at most this many are read of one statement's (the core shows 100) */
#define MFMY_MESSAGES_READ "SHOW WARNINGS LIMIT 100"

/*
 * The count of a streamed result's end: Connector/C reads the EOF packet
 * that ends the rows of an unbuffered fetch without keeping its counts
 * (a stored result's it keeps), so they are read off the packet, which is
 * still in the link's buffer when the fetch has said MYSQL_NO_DATA: 0xFE,
 * the warning count, the server status (two bytes each, low first).
 * Anything else there: none known.
 */
unsigned int
mfmy_eof_warnings(MYSQL *my)
{
	const unsigned char *p = my->net.read_pos;

	/*
	 * Connector/C does not ask for CLIENT_DEPRECATE_EOF (it has no name
	 * for it), so the end is an EOF packet; one shorter than five bytes
	 * (a hostile server's) must not be read past the buffer.
	 */
	if (p == NULL || p[0] != 254 || p + 5 > my->net.buff_end)
		return 0;
	return (unsigned int) p[1] | ((unsigned int) p[2] << 8);
}

/*
 * One row of SHOW WARNINGS (Level, Code, Message) to the core: a Note as
 * a NOTICE, a Warning (or an Error a handler caught) as a WARNING.  false:
 * the core takes no more in this statement.
 */
bool
mfmy_relay_row(MfConn *conn, MYSQL_ROW row)
{
	MfMessage	m;
	char		detail[64];

	if (conn->kept.on_message == NULL)
		return false;
	if (row[2] == NULL)
		return true;
	memset(&m, 0, sizeof(m));
	m.level = row[0] != NULL && strcasecmp(row[0], "Note") == 0 ?
		MF_MSG_NOTICE : MF_MSG_WARNING;
	m.sqlstate = m.level == MF_MSG_NOTICE ? "00000" : "01000";
	m.message = row[2];
	if (row[1] != NULL)
	{
		snprintf(detail, sizeof(detail), "Remote %s code %s.",
				 m.level == MF_MSG_NOTICE ? "note" : "warning", row[1]);
		m.detail = detail;
	}
	return conn->kept.on_message(conn->kept.message_arg, &m);
}

/*
 * The statement just answered left count notes and warnings: read them
 * and hand them to the core.  Nothing is read while another result's
 * stream holds the link (they are lost with the next statement), and a
 * failure to read them is no failure of the statement: a lost link is the
 * next command's error.
 */
void
mfmy_relay_warnings(MfConn *conn, unsigned int count)
{
	MfmyOp		op;
	MfError		ignored;
	MYSQL_RES  *r = NULL;
	MYSQL_ROW	row;
	unsigned int nread = 0;
	bool		ok;

	if (count == 0 || conn->kept.on_message == NULL || conn->my == NULL ||
		conn->broken || conn->streaming != NULL || conn->load.open ||
		conn->load.in_flight)
		return;
	/* no exchange for messages the core would not show */
	if (!conn->kept.on_message(conn->kept.message_arg, NULL))
		return;
	mfmy_op_start(&op, conn);
	ok = mfmy_real_query(&op, MFMY_MESSAGES_READ,
						 (unsigned long) strlen(MFMY_MESSAGES_READ)) == 0 &&
		(r = mfmy_store_result(&op)) != NULL;
	mf_error_clear(&ignored);
	if (mfmy_op_interrupted(&op, MF_STEP_EXEC, &ignored) || !ok)
	{
		if (r != NULL)
			mysql_free_result(r);
		return;
	}
	if (mysql_num_fields(r) < 3)
	{
		mysql_free_result(r);
		return;
	}
	while ((row = mysql_fetch_row(r)) != NULL)
	{
		nread++;
		if (!mfmy_relay_row(conn, row))
		{
			/* more were there than the core takes: it says so, once */
			if (nread < count)
				(void) conn->kept.on_message(conn->kept.message_arg, NULL);
			nread = count;
			break;
		}
	}
	mysql_free_result(r);

	/* the server keeps max_error_count of them; the rest are a count */
	if (nread < count)
	{
		MfMessage	m;
		char		text[128];

		memset(&m, 0, sizeof(m));
		m.level = MF_MSG_NOTICE;
		snprintf(text, sizeof(text),
				 "%u more notes and warnings of the statement were not kept",
				 count - nread);
		m.message = text;
		(void) conn->kept.on_message(conn->kept.message_arg, &m);
	}
}
