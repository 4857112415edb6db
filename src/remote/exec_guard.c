/*-------------------------------------------------------------------------
 *
 * exec_guard.c
 *		What multi_fdw_exec() refuses to send: statements that start, end
 *		or prepare a transaction.  The remote transaction belongs to the
 *		local one (connection.c, twophase.c): a COMMIT sent by hand would
 *		break the all-or-nothing of the local commit, a PREPARE TRANSACTION
 *		or XA PREPARE would leave a prepared transaction nobody resolves.
 *
 * Two checks.  After the statement, the remote's own word on its
 * transaction (the transport's xact_state: libpq's transaction status,
 * MySQL's status flags) must still be "in one": a statement that ended it
 * however it was spelled (a procedure's COMMIT, a statement built with
 * EXECUTE, a quoting this file reads otherwise than the remote) is an
 * error, and the connection is dropped at the end of the transaction.  The
 * ODBC drivers cannot say, and a state that reads "in one" may be another
 * one begun by the statement; so once the transaction has written, the
 * session is asked before and after (the dialect's xact_open_sql) which
 * transaction it is in, and it must be the same.  A statement that opens
 * and ends a transaction of its own (a procedure called first) is not
 * found there.
 *
 * Before it, the statement is not parsed, only read for words, and read several ways
 * at once, because what a remote takes as a quote or a comment depends on
 * its dialect and its session (MySQL's backslash escapes come and go with
 * sql_mode, `#` is a comment there and an operator in PostgreSQL, $$ quotes
 * only in PostgreSQL, [ ] only in SQL Server): a word that counts under any
 * of the readings counts.  So a statement may be refused that a remote
 * would have run harmlessly; one that ends the transaction in a way no
 * reading sees is left to the check after it.
 *
 * Refused, outside quotes and comments:
 *	- anywhere: COMMIT, ROLLBACK, SAVEPOINT (a PL/SQL or T-SQL block, a
 *	  statement without a semicolon before it in T-SQL);
 *	- first in a statement: START, ABORT (PostgreSQL's ROLLBACK), RELEASE,
 *	  XA (but XA RECOVER, which lists), PREPARE TRANSACTION, SAVE TRAN[SACTION]; BEGIN alone or before
 *	  WORK, TRAN, TRANSACTION, DISTRIBUTED, ISOLATION, READ, NOT or
 *	  DEFERRABLE (a PL/SQL or T-SQL block may begin with BEGIN); END alone
 *	  or before WORK, TRANSACTION or AND (END AND CHAIN commits), unless
 *	  it closes such a block (in PostgreSQL, where END alone commits, only
 *	  a BEGIN ATOMIC opens one: the dialect's begin_atomic_blocks);
 *	- in a SET or RESET statement, where it names a setting (before = or
 *	  TO, after a comma), as a word or a quoted identifier ("x", `x`, one
 *	  with a backslash escape whatever it spells): what sets a
 *	  transaction's characteristics or how transactions begin and end
 *	  (TRANSACTION, CHARACTERISTICS, transaction_read_only and the other
 *	  transaction_*, tx_* and default_transaction_* settings, AUTOCOMMIT,
 *	  completion_type, IMPLICIT_TRANSACTIONS; not a MySQL user variable
 *	  @x): the remote transaction is as READ ONLY, as isolated and as
 *	  deferrable as the local one, and ends with it.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/xact.h"
#include "miscadmin.h"
#include "utils/acl.h"

#include "compat.h"
#include "remote/remote.h"
#include "remote/connection_int.h"

/* One way of reading the text: which quotes and comments there are. */
typedef struct MfReading
{
	bool		backslash;		/* \ escapes in quotes (MySQL's default) */
	bool		e_strings;		/* \ escapes in E'' only (PostgreSQL) */
	bool		backticks;		/* `...` quotes (MySQL) */
	bool		hash_comment;	/* # to the end of the line (MySQL) */
	bool		dollar;			/* $tag$ ... $tag$ (PostgreSQL) */
	bool		brackets;		/* [ ... ] (SQL Server) */
	bool		nested;			/* slash-star comments nest (PostgreSQL) */
	bool		dash_space;		/* -- opens a comment only before white
								 * space or a control character (MySQL:
								 * 1--1 is one minus minus one) */
} MfReading;

static bool
mf_guard_word_char(char c)
{
	return isalnum((unsigned char) c) || c == '_' || c == '$' || c == '@';
}

/* Past a quoted run that p opens with q and closes with close. */
static const char *
mf_guard_skip_quote(const char *p, char close, bool backslash)
{
	p++;
	while (*p)
	{
		if (backslash && *p == '\\' && p[1] != '\0')
			p += 2;
		else if (*p == close && p[1] == close)
			p += 2;				/* doubled: '' "" `` and T-SQL's ]] */
		else if (*p == close)
			return p + 1;
		else
			p++;
	}
	return p;
}

/* Past a dollar quote $tag$ ... $tag$, or NULL when p opens none. */
static const char *
mf_guard_skip_dollar(const char *p)
{
	const char *t = p + 1;
	const char *end;
	char	   *tag;

	while (isalnum((unsigned char) *t) || *t == '_')
		t++;
	if (*t != '$' || (t > p + 1 && isdigit((unsigned char) p[1])))
		return NULL;
	tag = pnstrdup(p, t - p + 1);
	end = strstr(t + 1, tag);
	end = end ? end + strlen(tag) : t + strlen(t);
	pfree(tag);
	return end;
}

static bool
mf_guard_is(const char *w, int len, const char *word)
{
	return len == (int) strlen(word) && pg_strncasecmp(w, word, len) == 0;
}

/*
 * A statement that is BEGIN or END alone: a transaction's start or end,
 * except an END that closes a block begun earlier in the text.  False when
 * it is refused.
 */
static bool
mf_guard_bare_word(const char **pending, int *blocks)
{
	if (*pending == NULL)
		return true;
	if (pg_strcasecmp(*pending, "END") == 0 && *blocks > 0)
	{
		(*blocks)--;
		*pending = NULL;
		return true;
	}
	return false;
}

/*
 * What a reading has seen of the statement so far: the position of each
 * word in its statement and the statement's first two words.
 */
typedef struct MfGuardState
{
	int			nword;			/* words so far in this statement */
	const char *first;			/* its first word */
	int			first_len;
	int			blocks;			/* BEGIN ... END blocks open */
	const char *pending;		/* BEGIN, END or XA first in a statement */
	bool		atomic_only;	/* only BEGIN ATOMIC opens a block (the
								 * dialect's begin_atomic_blocks) */
	bool		after_begin;	/* the word before was a BEGIN inside a
								 * statement */
	bool		set_name;		/* in a SET or RESET statement, where a
								 * setting is named (not its value) */
} MfGuardState;

/*
 * If p starts a comment, a quoted string or an identifier under reading r,
 * where it ends; else NULL.  MySQL's executable comment is not skipped:
 * only its opening marker is, since its text runs.
 */
static const char *
mf_guard_skip_noise(const char *sql, const char *p, const MfReading *r)
{
	if ((p[0] == '-' && p[1] == '-' &&
		 (!r->dash_space || p[2] == '\0' || isspace((unsigned char) p[2]) ||
		  iscntrl((unsigned char) p[2]))) ||
		(r->hash_comment && p[0] == '#'))
	{
		/* PostgreSQL ends it at a carriage return too */
		while (*p && *p != '\n' && *p != '\r')
			p++;
		return p;
	}
	if (p[0] == '/' && p[1] == '*' &&
		(p[2] == '!' || (p[2] == 'M' && p[3] == '!')))
	{
		/* MySQL's executable comment: its text runs */
		p += p[2] == '!' ? 3 : 4;
		while (isdigit((unsigned char) *p))
			p++;
		return p;
	}
	if (p[0] == '/' && p[1] == '*')
	{
		int			depth = 0;

		/* PostgreSQL nests them, MySQL does not */
		do
		{
			if (p[0] == '/' && p[1] == '*' && (depth == 0 || r->nested))
			{
				depth++;
				p += 2;
			}
			else if (p[0] == '*' && p[1] == '/')
			{
				depth--;
				p += 2;
			}
			else
				p++;
		} while (*p && depth > 0);
		return p;
	}
	if (p[0] == '*' && p[1] == '/')
		return p + 2;			/* the end of an executable comment */
	if (*p == '\'' || *p == '"' || (r->backticks && *p == '`'))
	{
		/* an E'' string: E just before, not part of a longer word */
		bool		e = *p == '\'' && p > sql && (p[-1] == 'E' || p[-1] == 'e') &&
			(p - 1 == sql || !mf_guard_word_char(p[-2]));

		return mf_guard_skip_quote(p, *p, r->backslash || (r->e_strings && e));
	}
	if (r->brackets && *p == '[')
		return mf_guard_skip_quote(p, ']', false);
	if (r->dollar && *p == '$')
		return mf_guard_skip_dollar(p);
	return NULL;
}

/*
 * A word of a SET or RESET statement that names what a transaction is or
 * how it ends: SET [SESSION] TRANSACTION ..., SET SESSION CHARACTERISTICS,
 * the settings transaction_read_only, transaction_isolation,
 * transaction_deferrable, default_transaction_* (PostgreSQL), tx_read_only,
 * tx_isolation, completion_type (MySQL: COMMIT that chains or
 * disconnects), autocommit, IMPLICIT_TRANSACTIONS (SQL Server), with or
 * without MySQL's @@.  The local transaction's characteristics are the
 * remote one's (a READ ONLY one opens READ ONLY remote transactions): a
 * statement of the user's does not change them.
 */
static bool
mf_guard_xact_setting(const char *w, int len)
{
	static const char *const prefixes[] = {"TRANSACTION", "TX_",
	"DEFAULT_TRANSACTION", NULL};
	static const char *const words[] = {"CHARACTERISTICS", "AUTOCOMMIT",
	"IMPLICIT_TRANSACTIONS", "COMPLETION_TYPE", NULL};

	/* @x is a MySQL user variable; @@x a setting */
	if (len > 1 && w[0] == '@' && w[1] != '@')
		return false;
	while (len > 0 && *w == '@')
	{
		w++;
		len--;
	}
	for (int i = 0; prefixes[i] != NULL; i++)
	{
		int			plen = strlen(prefixes[i]);

		if (len >= plen && pg_strncasecmp(w, prefixes[i], plen) == 0)
			return true;
	}
	for (int i = 0; words[i] != NULL; i++)
		if (mf_guard_is(w, len, words[i]))
			return true;
	return false;
}

/*
 * The word w (len bytes) of a statement: is it refused?  The refused words
 * go to *what.
 */
static bool
mf_guard_word(MfGuardState *s, const char *w, int len, const char **what)
{
	if (s->pending != NULL)
	{
		static const char *const txn[] = {"WORK", "TRAN", "TRANSACTION",
		"DISTRIBUTED", "ISOLATION", "READ", "NOT", "DEFERRABLE", NULL};
		bool		is_begin = pg_strcasecmp(s->pending, "BEGIN") == 0;

		/* XA RECOVER only lists */
		if (pg_strcasecmp(s->pending, "XA") == 0 &&
			!mf_guard_is(w, len, "RECOVER"))
		{
			*what = psprintf("XA %s", pnstrdup(w, len));
			return true;
		}
		for (int i = 0; txn[i] != NULL; i++)
			if (mf_guard_is(w, len, txn[i]) &&
				(is_begin || i == 0 || i == 2))
			{
				*what = psprintf("%s %s", s->pending, pnstrdup(w, len));
				return true;
			}
		/* END AND [NO] CHAIN: a COMMIT */
		if (!is_begin && mf_guard_is(w, len, "AND"))
		{
			*what = psprintf("%s %s", s->pending, pnstrdup(w, len));
			return true;
		}
		if (is_begin && !s->atomic_only)
			s->blocks++;
		s->pending = NULL;
	}
	if (mf_guard_is(w, len, "COMMIT") || mf_guard_is(w, len, "ROLLBACK") ||
		mf_guard_is(w, len, "SAVEPOINT"))
	{
		*what = pnstrdup(w, len);
		return true;
	}
	/* a trigger's or a procedure's body; in PostgreSQL BEGIN ATOMIC only */
	if (s->after_begin && mf_guard_is(w, len, "ATOMIC"))
		s->blocks++;
	s->after_begin = false;
	if (s->nword > 0 && mf_guard_is(w, len, "BEGIN"))
	{
		if (s->atomic_only)
			s->after_begin = true;
		else
			s->blocks++;
	}
	if (s->nword == 0)
	{
		static const char *const starts[] = {"START", "ABORT",
		"RELEASE", NULL};

		if (mf_guard_is(w, len, "BEGIN"))
			s->pending = "BEGIN";
		else if (mf_guard_is(w, len, "END"))
			s->pending = "END";
		else if (mf_guard_is(w, len, "XA"))
			s->pending = "XA";
		for (int i = 0; starts[i] != NULL; i++)
			if (mf_guard_is(w, len, starts[i]))
			{
				*what = pnstrdup(w, len);
				return true;
			}
		s->first = w;
		s->first_len = len;
		s->set_name = mf_guard_is(w, len, "SET") || mf_guard_is(w, len, "RESET");
	}
	else if (s->nword == 1 &&
			 ((mf_guard_is(s->first, s->first_len, "PREPARE") &&
			   mf_guard_is(w, len, "TRANSACTION")) ||
			  (mf_guard_is(s->first, s->first_len, "SAVE") &&
			   (mf_guard_is(w, len, "TRAN") ||
				mf_guard_is(w, len, "TRANSACTION")))))
	{
		*what = psprintf("%s %s", pnstrdup(s->first, s->first_len),
						 pnstrdup(w, len));
		return true;
	}
	else if (s->set_name && mf_guard_is(w, len, "TO"))
		s->set_name = false;	/* PostgreSQL's SET name TO value */
	else if (s->set_name && mf_guard_xact_setting(w, len))
	{
		*what = psprintf("%s %s", pnstrdup(s->first, s->first_len),
						 pnstrdup(w, len));
		return true;
	}
	s->nword++;
	return false;
}

/*
 * A quoted identifier (p at its opening quote) where a SET or RESET names
 * a setting: PostgreSQL's "transaction_read_only", MySQL's under
 * ANSI_QUOTES or in backticks.  Refused when its text is a setting that
 * mf_guard_xact_setting refuses, or holds a backslash (U&"\0074..." may
 * spell anything).
 */
static bool
mf_guard_quoted_setting(const char *p, const char *verb, const char **what)
{
	char		q = *p;
	StringInfoData name;

	initStringInfo(&name);
	for (p++; *p; p++)
	{
		if (*p == q && p[1] == q)
			p++;				/* a doubled quote stands for itself */
		else if (*p == q)
			break;
		appendStringInfoChar(&name, *p);
	}
	if (strchr(name.data, '\\') == NULL &&
		!mf_guard_xact_setting(name.data, name.len))
		return false;
	*what = psprintf("%s %c%s%c", verb, q, name.data, q);
	return true;
}

/*
 * Read sql one way; the first refused word goes to *what.
 */
static bool
mf_guard_read(const char *sql, const MfReading *r, bool atomic_only,
			  const char **what)
{
	const char *p = sql;
	MfGuardState s = {0};

	s.atomic_only = atomic_only;
	while (*p)
	{
		const char *after;

		if (isspace((unsigned char) *p))
			p++;
		else if (s.set_name && (*p == '"' || *p == '`') &&
				 mf_guard_quoted_setting(p, pnstrdup(s.first, s.first_len), what))
			return true;
		else if ((after = mf_guard_skip_noise(sql, p, r)) != NULL)
			p = after;
		else if (*p == '=')
		{
			s.set_name = false; /* the value follows */
			p++;
		}
		else if (*p == ',')
		{
			/* MySQL sets several at once: a name follows */
			s.set_name = s.first != NULL &&
				mf_guard_is(s.first, s.first_len, "SET");
			p++;
		}
		else if (*p == ';')
		{
			if (!mf_guard_bare_word(&s.pending, &s.blocks))
			{
				*what = s.pending;
				return true;
			}
			s.nword = 0;
			s.first = NULL;
			s.set_name = false;
			s.after_begin = false;
			p++;
		}
		else if (mf_guard_word_char(*p))
		{
			const char *w = p;

			while (mf_guard_word_char(*p))
				p++;
			if (mf_guard_word(&s, w, p - w, what))
				return true;
		}
		else
			p++;
	}
	if (!mf_guard_bare_word(&s.pending, &s.blocks))
	{
		*what = s.pending;
		return true;
	}
	return false;
}

/*
 * Does sql start, end or prepare a transaction under any reading?  *what
 * gets the words that say so.
 */
bool
mf_sql_controls_transaction(const char *sql, bool atomic_only,
							const char **what)
{
	for (int i = 0; i < 192; i++)
	{
		MfReading	r = {
			.backslash = i % 3 == 1,
			.e_strings = i % 3 == 2,
			.hash_comment = ((i / 3) & 1) != 0,
			.dollar = ((i / 3) & 2) != 0,
			.brackets = ((i / 3) & 4) != 0,
			.nested = ((i / 3) & 8) != 0,
			.backticks = ((i / 3) & 16) != 0,
			.dash_space = ((i / 3) & 32) != 0,
		};

		if (mf_guard_read(sql, &r, atomic_only, what))
			return true;
	}
	return false;
}

/*
 * Which transaction is the remote session in?  The session is asked (the
 * dialect's xact_open_sql): true
 * when it answered, *id then NULL outside a transaction and else what
 * names the one it is in (palloc'd); false when it did not answer as the
 * query promises.
 */
static bool
mf_probe_xact(MfConnEntry *entry, char **id, char **why)
{
	const MfTransport *tr = entry->transport;
	MfResult   *res;
	MfError		err;
	bool		answered = false;
	int			n = -1;

	*id = NULL;
	mf_error_clear(&err);
	res = tr->query(entry->conn, entry->dialect->xact_open_sql, 0, NULL,
					NULL, mf_read(MF_READ_CURSOR, 1), &err);
	if (res != NULL && (n = tr->fetch(res, &err)) == 1 && tr->ncolumns(res) == 1)
	{
		const char *v = tr->value(res, 0, 0);

		*id = v != NULL && v[0] != '\0' ? pstrdup(v) : NULL;
		answered = true;
	}
	if (res != NULL)
		tr->result_close(res);
	if (!answered)
		*why = err.message[0] != '\0' ? pstrdup(err.message) :
			psprintf("%d rows for one", n < 0 ? 0 : n);
	return answered;
}

/*
 * On a new connection (connection.c): can this session say whether it is
 * in a transaction?  Asked once, so that a later failure to say is the
 * session's doing (a setting that hides the answer) and is an error, not a
 * reason to stop asking.  A remote without what the query reads (MySQL's
 * lack of @@in_transaction, a server older than the function it calls, a
 * stand-in) is not asked again on this connection.
 */
void
mf_xact_probe_check(MfConnEntry *entry)
{
	char	   *id;
	char	   *why = NULL;

	entry->xact_probe_failed = true;
	if (entry->dialect->xact_open_sql == NULL)
		return;
	if (mf_probe_xact(entry, &id, &why))
		entry->xact_probe_failed = false;
	else
		ereport(DEBUG1,
				(errmsg_internal("multi_fdw: server \"%s\" cannot say whether it is in a transaction: %s",
								 entry->servername, why)));
}

/* The session answered on connecting and no longer does: refuse. */
static void
mf_probe_lost(MfConnEntry *entry, const char *why)
{
	entry->changing_xact_state = true;	/* dropped at the end */
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
			 errmsg("server \"%s\" no longer says whether its transaction is open",
					entry->servername),
			 errdetail("Asked: %s; answer: %s. It said so when connected; a setting made since hides it, so multi_fdw_exec cannot check that its statements keep the transaction. The connection is closed.",
					   entry->dialect->xact_open_sql, why)));
}

/*
 * The server that a statement of the user's goes to, for the function fn
 * (multi_fdw_exec, multi_fdw_query): the caller needs USAGE on it, as a
 * foreign table on it would, it must be a server of multi_fdw's, and the
 * statement must not control the remote transaction, which is the local
 * one's.  *opts gets the server's options.
 */
ForeignServer *
mf_user_statement_server(const char *fn, const char *servername,
						 const char *sql, MfOptions *opts)
{
	ForeignServer *server = GetForeignServerByName(servername, false);
	AclResult	aclresult;
	const char *what;

	aclresult = mf_foreign_server_aclcheck(server->serverid, GetUserId(),
										   ACL_USAGE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_FOREIGN_SERVER, server->servername);
	if (GetForeignDataWrapper(server->fdwid)->fdwhandler !=
		GetForeignDataWrapperByName("multi_fdw", false)->fdwhandler)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("server \"%s\" does not use multi_fdw", servername)));
	mf_get_options(server->serverid, InvalidOid, opts);
	if (mf_sql_controls_transaction(sql, opts->dialect->begin_atomic_blocks,
									&what))
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("%s cannot run transaction control statements (%s) on server \"%s\"",
						fn, what, servername),
				 errdetail("The remote transaction begins, commits and rolls back with the local one."),
				 errhint("Use BEGIN, SAVEPOINT, COMMIT and ROLLBACK locally.")));
	return server;
}

/*
 * Before a statement of the user's (multi_fdw_exec, multi_fdw_query):
 * what the remote transaction is, to be compared afterwards by
 * mf_user_statement_end.
 */
void
mf_user_statement_begin(MfConnEntry *entry, MfUserStatement *us)
{
	const MfTransport *tr = entry->transport;
	char	   *why = NULL;

	us->probe = entry->dialect->xact_open_sql != NULL &&
		!entry->xact_probe_failed && entry->written;
	us->id_before = NULL;
	/* it may be DDL that changes what the remote said of its tables */
	mf_conn_forget_facts(entry);
	mf_claim_connection(entry, NULL);
	us->before = tr->xact_state ? tr->xact_state(entry->conn) : MF_XS_UNKNOWN;
	if (tr->session_unsure)
		tr->session_unsure(entry->conn);
	if (us->probe)
	{
		if (!mf_probe_xact(entry, &us->id_before, &why))
			mf_probe_lost(entry, why);
		/* nothing open yet: nothing the statement could commit */
		us->probe = us->id_before != NULL;
	}
	/* a statement of the user's may write: count it as a write */
	mf_conn_mark_written(entry);
	mf_stats_count(entry, MF_C_STATEMENTS, 1);
}

/*
 * After it: the remote transaction must still be there.  A statement that
 * failed (ok false, err its error) is judged only when the transaction had
 * begun before it (earlier work it could have committed); one that began
 * with it (the deferred begin travels with the statement) had nothing to
 * commit.  Raises the statement's error, or the transaction's end.
 */
void
mf_user_statement_end(MfConnEntry *entry, MfUserStatement *us, bool ok,
					  MfError *err, const char *sql)
{
	const MfTransport *tr = entry->transport;
	MfXactState before = us->before;
	MfXactState after;
	char	   *id_after = NULL;
	char	   *why = NULL;

	after = tr->xact_state && !tr->is_broken(entry->conn) ?
		tr->xact_state(entry->conn) : MF_XS_UNKNOWN;

	/*
	 * Besides the transport's word, the session's, once the transaction
	 * has written and is open: it must be in the same transaction after
	 * the statement as before it.  One gone, or another one in its place (a
	 * procedure that commits and goes on, dynamic SQL, MySQL's and Oracle's
	 * implicit commit of DDL), or a session that no longer says (a setting
	 * the statement made), is an error.  Where the remote names no transaction
	 * (MariaDB: only whether one is open), one committed and another begun
	 * in the same statement is not seen.  Not asked before a write, so that
	 * the transaction's first statement costs nothing more and DDL may open
	 * it as through the other transports; a first statement that ends a
	 * transaction of its own is not found this way.
	 */
	if (us->probe && !tr->is_broken(entry->conn))
	{
		if (!mf_probe_xact(entry, &id_after, &why))
		{
			if (!ok)
				mf_raise_error(ERROR, entry, err, sql);
			mf_probe_lost(entry, why);
		}
		if (id_after == NULL || strcmp(us->id_before, id_after) != 0)
		{
			before = MF_XS_OPEN;
			after = MF_XS_IDLE;
		}
	}
	if ((before == MF_XS_OPEN && after == MF_XS_IDLE) ||
		(before == MF_XS_OPEN && after == MF_XS_UNKNOWN && tr->xact_state) ||
		(ok && after == MF_XS_IDLE))
	{
		entry->changing_xact_state = true;	/* dropped at the end */
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_TERMINATION),
				 errmsg("the statement ended the remote transaction on server \"%s\"",
						entry->servername),
				 errdetail("A statement of multi_fdw_exec or multi_fdw_query must not commit, roll back or prepare the remote transaction: it is the local one's. What the remote transaction had done may have been committed by it; the connection is closed."),
				 errhint("Use BEGIN, SAVEPOINT, COMMIT and ROLLBACK locally.")));
	}
	if (!ok)
		mf_raise_error(ERROR, entry, err, sql);

	/*
	 * A READ ONLY transaction stays READ ONLY where the access mode is the
	 * session's (MariaDB): a statement that changed it where no word said
	 * so (dynamic SQL, a procedure) is an error, and the transaction, with
	 * anything it wrote, rolls back.
	 */
	if (XactReadOnly && tr->session_kept != NULL &&
		!tr->session_kept(entry->conn, err))
	{
		entry->changing_xact_state = true;	/* dropped at the end */
		mf_raise_error(ERROR, entry, err, sql);
	}
}

/* Run a statement of the user's inside the remote transaction. */
void
mf_exec_user_statement(MfConnEntry *entry, const char *sql, long *rows)
{
	MfUserStatement us;
	MfError		err;
	bool		ok;

	mf_user_statement_begin(entry, &us);
	mf_error_clear(&err);
	ok = entry->transport->exec(entry->conn, sql, rows, &err);
	mf_user_statement_end(entry, &us, ok, &err, sql);
}
