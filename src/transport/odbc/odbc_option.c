/*-------------------------------------------------------------------------
 *
 * odbc_option.c
 *		The odbc transport's connection options: who may set what, and the
 *		connection string they make.
 *
 * An ODBC driver is a native library that the server process loads, and
 * many drivers take attributes that name further libraries (SQLite ODBC's
 * LoadExt), write files (psqlODBC's Debug and CommLog, with the password
 * in them; MariaDB's SaveFile) or read them (FileDSN, certificates).  So a
 * user who is not a superuser may
 *
 * - name a driver only as it is registered in odbcinst.ini, never by the
 *   path of a library nor by a bare library name that the dynamic loader
 *   would resolve, and
 * - set in odbc_attributes only what connects: server, port, database,
 *   TLS mode, timeouts, character set, rows per fetch (MFODBC_USER_KEYS).
 *
 * This is an allow-list: an attribute that some driver adds next year is a
 * superuser's until it is added here.  The checks run when CREATE or ALTER
 * SERVER sets the options (mfodbc_check_option), as the user doing it.
 *
 * The connection string (mfodbc_conn_string) puts every value in braces
 * with "}" doubled where it holds anything a parser could take for syntax,
 * so that no value can smuggle in another attribute.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* psqlODBC's statements per message when it runs a parameter array */
#define MFODBC_PSQL_BATCH	"10000"

/*
 * The attributes anyone may set, compared without regard to case; the
 * spellings of psqlODBC, MariaDB Connector/ODBC and FreeTDS.
 */
static const char *const mfodbc_user_keys[] = {
	/* where */
	"server", "servername", "host", "port", "database", "db",
	/* TLS, as a mode (never a certificate or key file) */
	"sslmode", "sslverify", "forcetls", "tlsversion", "encryption",
	/* protocol and timeouts */
	"tds_version", "timeout", "logintimeout", "conn_timeout",
	"connect_timeout", "read_timeout", "write_timeout",
	/* character set, rows per fetch */
	"charset", "clientcharset", "usedeclarefetch", "fetch",
	NULL
};

/* ---------------------------------------------------------------------
 * A growing string
 * ---------------------------------------------------------------------
 */

typedef struct MfodbcBuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
	bool		oom;
} MfodbcBuf;

static void
mfodbc_buf_add(MfodbcBuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap)
	{
		size_t		cap = b->cap ? b->cap : 256;
		char	   *d;

		while (b->len + n + 1 > cap)
			cap *= 2;
		d = realloc(b->data, cap);
		if (d == NULL)
		{
			b->oom = true;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void
mfodbc_buf_str(MfodbcBuf *b, const char *s)
{
	mfodbc_buf_add(b, s, strlen(s));
}

/*
 * KEY=value;  A value that holds anything a connection string parser could
 * take for syntax (";", "{", "}", "=", outer spaces, nothing at all) goes
 * in braces with every "}" doubled, so that it cannot end the braces; the
 * others go bare, because psqlODBC takes the braces of a bare DSN name as
 * part of the name.
 */
static void
mfodbc_attr(MfodbcBuf *b, const char *key, const char *value, size_t vlen)
{
	bool		plain = vlen > 0 && value[0] != ' ' && value[vlen - 1] != ' ';

	for (size_t i = 0; plain && i < vlen; i++)
		if (value[i] == ';' || value[i] == '{' || value[i] == '}' ||
			value[i] == '=' || (unsigned char) value[i] < 0x20)
			plain = false;
	mfodbc_buf_str(b, key);
	if (plain)
	{
		mfodbc_buf_add(b, "=", 1);
		mfodbc_buf_add(b, value, vlen);
		mfodbc_buf_add(b, ";", 1);
		return;
	}
	mfodbc_buf_add(b, "={", 2);
	for (size_t i = 0; i < vlen; i++)
	{
		if (value[i] == '}')
			mfodbc_buf_add(b, "}}", 2);
		else
			mfodbc_buf_add(b, &value[i], 1);
	}
	mfodbc_buf_add(b, "};", 2);
}

/*
 * A value may not hold "}": psqlODBC and MariaDB's driver read "}}" inside
 * braces as one "}", but FreeTDS ends the braces at the first "};", so a
 * password like "x};DumpFile=/path" would add an attribute there.  No
 * escape works for every driver.
 */
static bool
mfodbc_value_ok(const char *option, const char *value, size_t vlen,
				MfError *err)
{
	if (memchr(value, '}', vlen) == NULL)
		return true;
	mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
				 "invalid value for option \"%s\": an ODBC connection value cannot contain \"}\"",
				 option);
	mf_error_copy(err->detail, sizeof(err->detail),
				  "Drivers disagree on how a \"}\" inside braces is escaped.");
	return false;
}

/* ---------------------------------------------------------------------
 * odbc_attributes
 * ---------------------------------------------------------------------
 */

static bool
mfodbc_key_char(char c)
{
	return isalnum((unsigned char) c) || c == '_' || c == '-' || c == '.' ||
		c == ' ';
}

/* what to do with one attribute: false (err filled) stops the walk */
typedef bool (*MfodbcAttrFn) (const char *key, const char *value, size_t vlen,
							  void *arg, MfError *err);

/*
 * Walk one "k=v;k2=v2" list.  Keys are letters, digits, "_", "-", "." and
 * inner spaces, trimmed; values run to the next ";".  A malformed item
 * fills err (22023) and returns false.
 */
static bool
mfodbc_each_attribute(const char *attrs, MfodbcAttrFn fn, void *arg,
					  MfError *err)
{
	const char *p = attrs;

	while (*p)
	{
		const char *end = strchr(p, ';');
		size_t		seglen = end ? (size_t) (end - p) : strlen(p);
		const char *eq = memchr(p, '=', seglen);
		const char *k1 = p;
		const char *k2;
		char		key[128];

		while (k1 < p + seglen && *k1 == ' ')
			k1++;
		if (k1 == p + seglen)
		{
			/* an empty item, as in "a=1;;b=2" or a trailing ";" */
			p += seglen + (end ? 1 : 0);
			continue;
		}
		if (eq == NULL)
		{
			mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
						 "invalid value for option \"odbc_attributes\": item \"%.*s\" has no \"=\"",
						 (int) seglen, p);
			mf_error_copy(err->hint, sizeof(err->hint),
						  "Write attributes as key=value pairs separated by semicolons.");
			return false;
		}
		k2 = eq;
		while (k2 > k1 && k2[-1] == ' ')
			k2--;
		if (k2 == k1 || (size_t) (k2 - k1) >= sizeof(key))
		{
			mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
						 "invalid value for option \"odbc_attributes\": empty or overlong key");
			return false;
		}
		for (const char *c = k1; c < k2; c++)
			if (!mfodbc_key_char(*c))
			{
				mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
							 "invalid value for option \"odbc_attributes\": malformed key \"%.*s\"",
							 (int) (k2 - k1), k1);
				mf_error_copy(err->hint, sizeof(err->hint),
							  "Keys are made of letters, digits, \"_\", \"-\" and \".\".");
				return false;
			}
		memcpy(key, k1, k2 - k1);
		key[k2 - k1] = '\0';
		if (!fn(key, eq + 1, (size_t) (p + seglen - (eq + 1)), arg, err))
			return false;
		p += seglen + (end ? 1 : 0);
	}
	return true;
}

static bool
mfodbc_user_key(const char *key)
{
	for (int i = 0; mfodbc_user_keys[i] != NULL; i++)
		if (strcasecmp(key, mfodbc_user_keys[i]) == 0)
			return true;
	return false;
}

static bool
mfodbc_check_attribute(const char *key, const char *value, size_t vlen,
					   void *arg, MfError *err)
{
	bool		superuser = *(bool *) arg;

	if (!mfodbc_value_ok("odbc_attributes", value, vlen, err))
		return false;
	if (superuser || mfodbc_user_key(key))
		return true;
	mf_error_set(err, MF_STEP_CONNECT, "42501", 0,
				 "only a superuser may set the attribute \"%s\" in option \"odbc_attributes\"",
				 key);
	mf_error_copy(err->detail, sizeof(err->detail),
				  "Others may set only the attributes that say where and how to connect: server, port, database, TLS mode, timeouts, character set, rows per fetch.");
	return false;
}

/* ---------------------------------------------------------------------
 * odbc_driver
 * ---------------------------------------------------------------------
 */

/* Is name a driver of odbcinst.ini (as SQLDrivers lists them)? */
static bool
mfodbc_driver_registered(const char *name)
{
	SQLHENV		env = SQL_NULL_HENV;
	SQLCHAR		desc[256];
	SQLCHAR		attrs[1024];
	SQLSMALLINT desc_len,
				attrs_len;
	SQLUSMALLINT dir = SQL_FETCH_FIRST;
	bool		found = false;

	if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env)))
		return false;
	(void) SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER) SQL_OV_ODBC3, 0);
	while (!found &&
		   SQL_SUCCEEDED(SQLDrivers(env, dir, desc, sizeof(desc), &desc_len,
									attrs, sizeof(attrs), &attrs_len)))
	{
		found = strcasecmp((const char *) desc, name) == 0;
		dir = SQL_FETCH_NEXT;
	}
	(void) SQLFreeHandle(SQL_HANDLE_ENV, env);
	return found;
}

/*
 * The connection keywords.  odbc_driver and odbc_attributes may load a
 * library or open a file, but only through what mfodbc_check_option lets
 * a non-superuser choose, so none of them is a superuser's outright.
 */
const MfConnKeyword mfodbc_keywords[] = {
	{"user", MF_KW_USER, false, false, NULL},
	{"password", MF_KW_USER, true, false, NULL},
	{"host", MF_KW_SERVER, false, false, NULL},
	{"port", MF_KW_SERVER, false, false, NULL},
	{"database", MF_KW_SERVER, false, false, NULL},
	{"odbc_dsn", MF_KW_SERVER, false, false, NULL},
	{"odbc_driver", MF_KW_SERVER, false, false, NULL},
	{"odbc_attributes", MF_KW_SERVER, false, false, NULL},
	{NULL}
};

/* The transport's check_option: see the top of the file. */
bool
mfodbc_check_option(const char *key, const char *value, bool superuser,
					MfError *err)
{
	if (strcmp(key, "odbc_attributes") == 0)
		return mfodbc_each_attribute(value, mfodbc_check_attribute,
									 &superuser, err);
	if (!mfodbc_value_ok(key, value, strlen(value), err))
		return false;
	if (strcmp(key, "odbc_driver") != 0 || superuser)
		return true;

	if (strchr(value, '/') != NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "42501", 0,
					 "only a superuser may set a driver path in option \"odbc_driver\"");
		mf_error_copy(err->detail, sizeof(err->detail),
					  "It decides which native library the server process loads.");
		return false;
	}
	if (!mfodbc_driver_registered(value))
	{
		mf_error_set(err, MF_STEP_CONNECT, "42501", 0,
					 "ODBC driver \"%s\" is not registered in odbcinst.ini", value);
		mf_error_copy(err->detail, sizeof(err->detail),
					  "Only a superuser may name a driver that is not registered: the name would be loaded as a library.");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------------
 * The connection string
 * ---------------------------------------------------------------------
 */

typedef struct MfodbcCopyArg
{
	MfodbcBuf  *out;
	bool		user_fetch;
} MfodbcCopyArg;

static bool
mfodbc_copy_attribute(const char *key, const char *value, size_t vlen,
					  void *arg, MfError *err)
{
	MfodbcCopyArg *a = arg;

	if (!mfodbc_value_ok("odbc_attributes", value, vlen, err))
		return false;
	if (strcasecmp(key, "UseDeclareFetch") == 0 ||
		strcasecmp(key, "Fetch") == 0)
		a->user_fetch = true;
	if (a->out != NULL)
		mfodbc_attr(a->out, key, value, vlen);
	return true;
}

/*
 * The connection string for these options, malloc'd; NULL and err filled
 * on a malformed odbc_attributes or a missing DSN / driver.
 */
char *
mfodbc_conn_string(const MfConnParams *params, MfError *err)
{
	const char *dsn = NULL,
			   *driver = NULL,
			   *host = NULL,
			   *port = NULL,
			   *db = NULL,
			   *user = NULL,
			   *password = NULL,
			   *attrs = NULL;
	MfodbcBuf	b = {0};
	MfodbcCopyArg copy = {NULL, false};

	for (int i = 0; i < params->n; i++)
	{
		const char *k = params->keys[i];
		const char *v = params->values[i];

		if (strcmp(k, "odbc_attributes") != 0 &&
			!mfodbc_value_ok(k, v, strlen(v), err))
			return NULL;
		if (strcmp(k, "odbc_dsn") == 0)
			dsn = v;
		else if (strcmp(k, "odbc_driver") == 0)
			driver = v;
		else if (strcmp(k, "host") == 0)
			host = v;
		else if (strcmp(k, "port") == 0)
			port = v;
		else if (strcmp(k, "database") == 0)
			db = v;
		else if (strcmp(k, "user") == 0)
			user = v;
		else if (strcmp(k, "password") == 0)
			password = v;
		else if (strcmp(k, "odbc_attributes") == 0)
			attrs = v;
	}
	if (dsn == NULL && driver == NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", 0,
					 "an odbc server needs the option \"odbc_dsn\" or \"odbc_driver\"");
		return NULL;
	}

	/*
	 * Without a user name, FreeTDS logs in with this host's Kerberos
	 * ticket, and a DSN may name a user of its own: a non-superuser names
	 * the one whose password the mapping holds.
	 */
	if (params->password_only && (user == NULL || user[0] == '\0'))
	{
		mf_error_set(err, MF_STEP_CONNECT, "2F003", 0,
					 "a user name is required in the user mapping");
		mf_error_copy(err->detail, sizeof(err->detail),
					  "Without one, a driver may log in with a credential of the server host instead of the mapping's password.");
		return NULL;
	}
	if (attrs != NULL && !mfodbc_each_attribute(attrs, mfodbc_copy_attribute,
												&copy, err))
		return NULL;

	if (dsn != NULL)
		mfodbc_attr(&b, "DSN", dsn, strlen(dsn));
	if (driver != NULL)
		mfodbc_attr(&b, "DRIVER", driver, strlen(driver));
	if (host != NULL)
		mfodbc_attr(&b, "SERVER", host, strlen(host));
	if (port != NULL)
		mfodbc_attr(&b, "PORT", port, strlen(port));
	if (db != NULL)
		mfodbc_attr(&b, "DATABASE", db, strlen(db));
	if (user != NULL)
		mfodbc_attr(&b, "UID", user, strlen(user));
	if (password != NULL)
		mfodbc_attr(&b, "PWD", password, strlen(password));

	/*
	 * psqlODBC: read through a server-side cursor (no whole result in
	 * memory); no SAVEPOINT before every statement (Protocol 7.4-0: an
	 * error leaves the transaction to the core, as libpq does); parameter
	 * arrays sent MFODBC_PSQL_BATCH statements per message; booleans as
	 * SQL_BIT; no LF -> CRLF conversion.  FreeTDS: UTF-8 as the client
	 * character set.  MariaDB (3.2 and later; 3.1 ignores it, see
	 * mfodbc_refuse_local_infile): no LOAD DATA LOCAL, the server must not
	 * make this process read its files.  Each driver ignores the others'
	 * keys.  The user's attributes come last and win.
	 */
	if (!copy.user_fetch)
		mfodbc_buf_str(&b, "UseDeclareFetch=1;Fetch=1000;");
	mfodbc_buf_str(&b, "Protocol=7.4-0;BatchSize=" MFODBC_PSQL_BATCH ";"
				   "BoolsAsChar=0;LFConversion=0;ClientCharset=UTF-8;"
				   "NOLOCALINFILE=1;");
	copy.out = &b;
	if (attrs != NULL)
		(void) mfodbc_each_attribute(attrs, mfodbc_copy_attribute, &copy, err);

	if (b.oom)
	{
		free(b.data);
		mfodbc_fail(NULL, err, MF_STEP_CONNECT, "53200", "out of memory");
		return NULL;
	}
	return b.data;
}

/* ---------------------------------------------------------------------
 * Statements that would make the driver read a file of this host
 * ---------------------------------------------------------------------
 */

static bool
mfodbc_word_char(char c)
{
	return isalnum((unsigned char) c) || c == '_' || c == '$';
}

/*
 * Does sql hold the word LOCAL and, after it, the word INFILE (LOAD DATA /
 * LOAD XML LOCAL INFILE, with which a MySQL client sends the server a file
 * it names)?  Nothing is skipped, neither comments nor quotes: a comment
 * marker inside a literal (SELECT '#'; ...) or a dash pair that MySQL does
 * not read as a comment (1--1) would hide the words that follow from a
 * reader that skips comments, while the server runs them.  Whatever lies
 * between the two words, the statement is refused: a refusal too many is
 * better than a file read.
 */
static bool
mfodbc_local_infile(const char *sql)
{
	const char *p = sql;
	bool		seen_local = false;

	while (*p)
	{
		if (mfodbc_word_char(*p))
		{
			const char *w = p;

			while (mfodbc_word_char(*p))
				p++;
			if (seen_local && p - w == 6 && strncasecmp(w, "INFILE", 6) == 0)
				return true;
			if (p - w == 5 && strncasecmp(w, "LOCAL", 5) == 0)
				seen_local = true;
		}
		else
			p++;
	}
	return false;
}

/*
 * May this statement be sent?  MariaDB Connector/ODBC before 3.2 cannot be
 * told to refuse LOAD DATA LOCAL (NOLOCALINFILE is newer), and would send
 * whatever file the statement names; so no statement of ours may ask.
 */
bool
mfodbc_sql_allowed(const char *sql, MfStep step, MfError *err)
{
	if (!mfodbc_local_infile(sql))
		return true;
	mf_error_set(err, step, "42501", 0,
				 "LOAD DATA LOCAL INFILE is not allowed through the odbc transport");
	mf_error_copy(err->detail, sizeof(err->detail),
				  "The driver would send the remote server a file of this host.");
	return false;
}
