/*-------------------------------------------------------------------------
 *
 * mysql.c
 *		The transport to MySQL and MariaDB, through MariaDB Connector/C's
 *		libmysqlclient API.
 *
 * Every command that waits for the server goes out through Connector/C's
 * non-blocking calls (the *_start / *_cont pairs), and every wait goes
 * through mf_wait_socket, so that a user's cancel reaches the remote
 * statement: a KILL QUERY is sent from a second, short-lived connection,
 * the statement is read to its end, and the transport reports SQLSTATE
 * 57014.  Connecting itself blocks, bounded by connect_timeout.
 *
 * Statements with parameters are prepared and run in the binary protocol;
 * each parameter is bound from its text form according to its class
 * (bytea decoded to raw bytes, booleans as 1/0, numbers as numbers, the
 * rest as strings that the server converts under its strict sql_mode).
 *
 * A prepared statement can also run for many sets of values at once
 * (execute_array): MariaDB's bulk execution sends them column-wise in one
 * COM_STMT_BULK_EXECUTE packet, split where the server's
 * max_allowed_packet asks for it; a server without bulk execution (MySQL,
 * MariaDB before 10.2) gets the sets one by one.
 *
 * Queries run as prepared statements with a server-side read-only cursor:
 * execute only opens it, and each fetch brings fetch_size rows, so memory
 * stays bounded and other statements may run on the connection between
 * two fetches.  Every value comes back as text in PostgreSQL's input
 * format (see mfmysql_store_value).
 *
 * The session is set up by the dialect (utf8mb4, UTC, strict sql_mode);
 * this file turns autocommit off, never lets the server ask for a local
 * file (LOAD DATA LOCAL INFILE), and never asks for "found rows" instead
 * of affected rows.
 *
 * This file is on the transport side of the wall (see transport.h): no
 * PostgreSQL server header, only Connector/C's.
 *
 *-------------------------------------------------------------------------
 */
#include "transport.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include <mysql.h>
#include <errmsg.h>

/* How long to wait for a killed statement to wind down. */
#define MFMY_SETTLE_MS		30000

/* Connect timeout of the side connection that sends KILL QUERY. */
#define MFMY_KILL_TIMEOUT	10

#define MFMY_DEFAULT_FETCH	100

/* First buffer for a string column; longer values are fetched apart. */
#define MFMY_STRING_START	256
/* Largest buffer a string column keeps between rows. */
#define MFMY_STRING_KEEP	(64 * 1024)

#define MFMY_NULL_OFFSET	SIZE_MAX

/*
 * Most sets of values in one bulk execution.  It bounds the memory of the
 * parameter arrays (about 40 bytes per value); one packet of 10,000 sets
 * already costs the round trip next to nothing.
 */
#define MFMY_ARRAY_MAX_SETS	10000

/* What a bulk packet holds besides its values, rounded up generously. */
#define MFMY_BULK_OVERHEAD	1024

/* max_allowed_packet when the server will not say: MySQL 5.6's default. */
#define MFMY_PACKET_FALLBACK	(4UL * 1024 * 1024)

/*
 * Bytes of rows one LOAD DATA carries (about 70,000 rows of two integers).
 * The next one is filled while the server works on this one, so memory is
 * about twice this.  Measured on two CPUs: 256 kB to 1 MB are equally fast,
 * 16 MB loses the overlap (15 % slower, as slow as parameter arrays).
 */
#define MFMY_LOAD_BYTES		(1024UL * 1024)

/* The statement the dialect writes; ? stands for the file name. */
#define MFMY_LOAD_PREFIX	"LOAD DATA LOCAL INFILE ?"

/* The error our local-infile handler reports when it refuses a request. */
#define MFMY_INFILE_REFUSED	2000	/* CR_UNKNOWN_ERROR */

/* ssl_mode, in the order of option.c's list */
typedef enum MfmySslMode
{
	MFMY_SSL_DEFAULT = -1,
	MFMY_SSL_DISABLED = 0,
	MFMY_SSL_PREFERRED,
	MFMY_SSL_REQUIRED,
	MFMY_SSL_VERIFY_CA,
	MFMY_SSL_VERIFY_IDENTITY
} MfmySslMode;

/* What connecting needs, kept to open the side connection of a cancel. */
typedef struct MfmyConnInfo
{
	char	   *host;
	unsigned int port;
	char	   *database;
	char	   *unix_socket;
	char	   *user;
	char	   *password;
	char	   *ssl_key;
	char	   *ssl_cert;
	char	   *ssl_ca;
	MfmySslMode ssl_mode;
	unsigned int connect_timeout;	/* 0: the library's default */
	char	   *init_command;
	char	   *character_set;
	bool		zero_date_error;	/* zero_date 'error': refuse, not NULL */
	bool		password_only;	/* see MfConnParams */
} MfmyConnInfo;

/* One command's conversation with the server (see mfmysql_wait). */
typedef struct MfmyOp
{
	MfConn	   *conn;
	bool		cancelled;		/* the user asked to cancel meanwhile */
	bool		cut;			/* the link was cut: the wait failed */
	long long	deadline;		/* of the wind-down after a cancel */
} MfmyOp;

/*
 * The bulk stream (copy_begin / copy_send / copy_end): rows in COPY text
 * format are held, and every MFMY_LOAD_BYTES of them leave as one LOAD
 * DATA LOCAL INFILE whose "file" is served from memory by our local-infile
 * handler.  The statement runs with the non-blocking calls: once all its
 * rows are written, the call returns and the server works on them while
 * the next rows are held; the answer is read before the next LOAD DATA,
 * at copy_end, or before any other command.
 */
typedef struct MfmyLoad
{
	bool		open;			/* between copy_begin and copy_end */
	char	   *tail;			/* the statement after its file name */
	char	   *hold;			/* rows held for the next LOAD DATA */
	size_t		hold_len;
	size_t		hold_cap;
	long		hold_rows;
	long		rows_done;		/* rows of the LOAD DATAs answered so far */

	/* the LOAD DATA in flight */
	bool		in_flight;
	MfmyOp		op;
	int			status;			/* what the non-blocking call waits for */
	int			ret;
	char	   *sql;
	char	   *data;			/* its rows; swapped with hold */
	size_t		data_len;
	size_t		data_cap;
	size_t		data_pos;		/* served so far */
	long		data_rows;

	/* the handler: the one name it serves, and whether it may now */
	char		name[96];
	bool		armed;			/* a LOAD DATA of ours is waiting for it */
	bool		eof;			/* every byte has been served */
	bool		cut_short;		/* another command ended the stream */
	unsigned long counter;		/* names issued on this connection */
	char		refusal[512];	/* why the handler refused, "" if it did not */

	int			server_allows;	/* @@local_infile: -1 not asked yet */
} MfmyLoad;

struct MfConn
{
	MYSQL	   *my;
	MfmyConnInfo info;
	unsigned long thread_id;	/* the session's id, for KILL QUERY */
	MfStmt	   *stmts;			/* live prepared statements */
	MfResult   *results;		/* live queries */
	bool		broken;			/* the link is known to be lost */
	char	   *scratch;		/* long values fetched apart */
	unsigned long scratch_cap;
	bool		bulk;			/* the server takes COM_STMT_BULK_EXECUTE */
	unsigned long max_packet;	/* its max_allowed_packet; 0 until read */
	MfmyLoad	load;
	char		version[64];
};

/* The parameters of one statement, bound from their text forms. */
typedef struct MfmyParams
{
	int			n;
	MfTypeClass *classes;
	MYSQL_BIND *bind;
	unsigned long *length;
	my_bool    *is_null;
	long long  *ints;
	double	   *dbls;
	signed char *tiny;
	char	  **owned;			/* decoded bytea, freed before the next use */
} MfmyParams;

/* One 8-byte slot of a column of numbers: LONGLONG or DOUBLE. */
typedef union MfmyNum
{
	long long	i;
	double		d;
} MfmyNum;

/*
 * The parameter arrays of a bulk execution, column-wise: the value of
 * parameter p in set k is at [p * cap + k].  Connector/C reads numbers
 * from contiguous arrays of their size and strings through an array of
 * pointers with an array of lengths; an indicator per value marks NULLs.
 */
typedef struct MfmyArray
{
	int			cap;			/* sets the arrays hold; 0: none yet */
	MYSQL_BIND *bind;			/* one per parameter */
	bool	   *as_number;		/* per parameter: bound as a number */
	char	   *ind;
	unsigned long *len;
	char	  **ptr;			/* text, or decoded bytes */
	MfmyNum    *num;
	signed char *tiny;
	char	  **owned;			/* decoded bytea, freed after each packet */
} MfmyArray;

struct MfStmt
{
	MfConn	   *conn;
	MfStmt	   *prev;
	MfStmt	   *next;
	MYSQL_STMT *st;
	MfmyParams	params;
	MfmyArray	array;
};

/* How a result column is fetched and turned into text. */
typedef enum MfmyColKind
{
	MFMY_COL_INT,
	MFMY_COL_UINT,
	MFMY_COL_FLOAT,
	MFMY_COL_DOUBLE,
	MFMY_COL_DATE,
	MFMY_COL_DATETIME,
	MFMY_COL_TIME,
	MFMY_COL_TEXT,
	MFMY_COL_BYTES,
	MFMY_COL_BIT
} MfmyColKind;

typedef struct MfmyCol
{
	MfmyColKind kind;
	unsigned long bits;			/* width of a BIT column */
	union
	{
		long long	i;
		double		d;
		float		f;
		MYSQL_TIME	t;
	}			num;
	char	   *buf;			/* string columns */
	unsigned long cap;
	unsigned long length;
	my_bool		is_null;
	my_bool		error;
} MfmyCol;

struct MfResult
{
	MfConn	   *conn;
	MfResult   *prev;
	MfResult   *next;
	MYSQL_STMT *st;
	MfmyParams	params;
	int			fetch_size;
	int			ncols;
	MfmyCol    *cols;
	MYSQL_BIND *bind;
	bool		at_end;

	/* the current batch: texts in one arena, by offset (SIZE_MAX: NULL) */
	int			nrows;
	int			rows_cap;
	size_t	   *offsets;
	char	   *arena;
	size_t		arena_len;
	size_t		arena_cap;
};



/* the local-infile handler (see "LOAD DATA LOCAL INFILE" below) */
static int	mfmysql_infile_init(void **ptr, const char *name, void *userdata);
static int	mfmysql_infile_read(void *ptr, char *buf, unsigned int len);
static void mfmysql_infile_end(void *ptr);
static int	mfmysql_infile_error(void *ptr, char *buf, unsigned int len);
static void mfmysql_load_settle(MfConn *conn);

/* ---------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------
 */

static bool
mfmysql_lost_code(unsigned int code)
{
	return code == CR_SERVER_GONE_ERROR || code == CR_SERVER_LOST ||
		code == CR_SERVER_LOST_EXTENDED;
}

static void
mfmysql_fail(MfConn *conn, MfError *err, MfStep step, const char *sqlstate,
			 const char *message)
{
	mf_error_clear(err);
	mf_error_set(err, step, sqlstate, 0, "%s", message);
	if (conn != NULL)
		err->conn_lost = conn->broken;
}

/* An error the library reported, on the connection or on a statement. */
static void
mfmysql_error(MfConn *conn, MfStep step, unsigned int code,
			  const char *sqlstate, const char *message, MfError *err)
{
	bool		lost = mfmysql_lost_code(code) || conn->broken;

	if (lost)
		conn->broken = true;
	if (sqlstate == NULL || sqlstate[0] == '\0' ||
		strcmp(sqlstate, "00000") == 0)
		sqlstate = lost ? "08006" : "XX000";
	if (message == NULL || message[0] == '\0')
		message = lost ? "connection to the remote server was lost" :
			"the remote server gave no error message";
	mf_error_clear(err);
	mf_error_set(err, step, sqlstate, (long) code, "%s", message);
	err->conn_lost = lost;
}

static void
mfmysql_conn_error(MfConn *conn, MfStep step, MfError *err)
{
	const char *state = mysql_sqlstate(conn->my);

	/* our local-infile handler refused what the server asked for */
	if (mysql_errno(conn->my) == MFMY_INFILE_REFUSED &&
		conn->load.refusal[0] != '\0' &&
		strcmp(mysql_error(conn->my), conn->load.refusal) == 0)
		state = "42501";
	mfmysql_error(conn, step, mysql_errno(conn->my), state,
				  mysql_error(conn->my), err);
}

static void
mfmysql_stmt_error(MfConn *conn, MYSQL_STMT *st, MfStep step, MfError *err)
{
	mfmysql_error(conn, step, mysql_stmt_errno(st), mysql_stmt_sqlstate(st),
				  mysql_stmt_error(st), err);
}

static void
mfmysql_oom(MfConn *conn, MfStep step, MfError *err)
{
	mfmysql_fail(conn, err, step, "53200", "out of memory");
}

static bool
mfmysql_usable(MfConn *conn, MfStep step, MfError *err)
{
	/*
	 * A LOAD DATA stream still open is ended first, its held rows dropped
	 * (abort paths: the core ends a stream before anyone else uses the
	 * connection).  Should that ever happen otherwise, the stream's
	 * copy_end fails rather than report rows that never arrived.
	 */
	if (conn->load.in_flight || conn->load.open)
	{
		conn->load.cut_short = true;
		mfmysql_load_settle(conn);
	}
	if (conn->broken || conn->my == NULL)
	{
		conn->broken = true;
		mfmysql_fail(conn, err, step, "08006",
					 "connection to the remote server was lost");
		return false;
	}
	return true;
}


/* ---------------------------------------------------------------------
 * Connecting
 * ---------------------------------------------------------------------
 */

static void
mfmysql_free_info(MfmyConnInfo *ci)
{
	free(ci->host);
	free(ci->database);
	free(ci->unix_socket);
	free(ci->user);
	if (ci->password)
		memset(ci->password, 0, strlen(ci->password));
	free(ci->password);
	free(ci->ssl_key);
	free(ci->ssl_cert);
	free(ci->ssl_ca);
	free(ci->init_command);
	free(ci->character_set);
	memset(ci, 0, sizeof(*ci));
}

static bool
mfmysql_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char	   *end;
	unsigned long v;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	while (*end == ' ')
		end++;
	if (errno != 0 || *end != '\0' || v > max)
		return false;
	*out = v;
	return true;
}

static bool
mfmysql_same(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
	{
		char		x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a;
		char		y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

/*
 * The keywords the option table gives to this transport, plus the local
 * database's encoding.  Fills err and returns false on a bad value.
 */
static bool
mfmysql_read_params(const MfConnParams *params, MfmyConnInfo *ci,
					MfError *err)
{
	static const char *const ssl_modes[] = {"disabled", "preferred",
	"required", "verify_ca", "verify_identity"};
	char	  **slot;

	memset(ci, 0, sizeof(*ci));
	ci->ssl_mode = MFMY_SSL_DEFAULT;
	ci->password_only = params->password_only;

	for (int i = 0; i < params->n; i++)
	{
		const char *k = params->keys[i];
		const char *v = params->values[i];
		unsigned long n;

		if (k == NULL || v == NULL)
			continue;
		slot = NULL;
		if (strcmp(k, "host") == 0)
			slot = &ci->host;
		else if (strcmp(k, "database") == 0)
			slot = &ci->database;
		else if (strcmp(k, "unix_socket") == 0)
			slot = &ci->unix_socket;
		else if (strcmp(k, "user") == 0)
			slot = &ci->user;
		else if (strcmp(k, "password") == 0)
			slot = &ci->password;
		else if (strcmp(k, "ssl_key") == 0)
			slot = &ci->ssl_key;
		else if (strcmp(k, "ssl_cert") == 0)
			slot = &ci->ssl_cert;
		else if (strcmp(k, "ssl_ca") == 0)
			slot = &ci->ssl_ca;
		else if (strcmp(k, "init_command") == 0)
			slot = &ci->init_command;
		else if (strcmp(k, "character_set") == 0)
			slot = &ci->character_set;
		else if (strcmp(k, "zero_date") == 0)
			ci->zero_date_error = strcasecmp(v, "error") == 0;
		else if (strcmp(k, "port") == 0)
		{
			if (!mfmysql_parse_uint(v, 65535, &n))
			{
				mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
							 "invalid port \"%s\": expected a number from 0 to 65535",
							 v);
				return false;
			}
			ci->port = (unsigned int) n;
		}
		else if (strcmp(k, "connect_timeout") == 0)
		{
			if (!mfmysql_parse_uint(v, INT_MAX, &n))
			{
				mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
							 "invalid connect_timeout \"%s\": expected a number of seconds",
							 v);
				return false;
			}
			ci->connect_timeout = (unsigned int) n;
		}
		else if (strcmp(k, "ssl_mode") == 0)
		{
			ci->ssl_mode = MFMY_SSL_DEFAULT;
			for (int m = 0; m < 5; m++)
				if (mfmysql_same(v, ssl_modes[m]))
					ci->ssl_mode = (MfmySslMode) m;
			if (ci->ssl_mode == MFMY_SSL_DEFAULT)
			{
				mf_error_set(err, MF_STEP_CONNECT, "22023", 0,
							 "invalid ssl_mode \"%s\"", v);
				return false;
			}
		}
		else if (strcmp(k, "client_encoding") == 0)
		{
			/*
			 * The session is always utf8mb4 and values cross as they are:
			 * the local side must be UTF-8 too.
			 */
			if (!mfmysql_same(v, "UTF8") && !mfmysql_same(v, "UTF-8"))
			{
				mf_error_set(err, MF_STEP_CONNECT, "0A000", 0,
							 "the local database must use the UTF8 encoding to reach MySQL or MariaDB (its encoding is %s)",
							 v);
				return false;
			}
		}

		if (slot != NULL)
		{
			free(*slot);
			*slot = strdup(v);
			if (*slot == NULL)
			{
				mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
				return false;
			}
		}
	}
	return true;
}

/*
 * A connected handle, or NULL with err filled.  infile_conn: the main
 * connection, prepared for the *_start / *_cont calls and for our own LOAD
 * DATA LOCAL INFILE; NULL for the side connection of a cancel.
 */
static MYSQL *
mfmysql_open(const MfmyConnInfo *ci, MfConn *infile_conn, unsigned int timeout,
			 MfError *err)
{
	MYSQL	   *my = mysql_init(NULL);
	bool		nonblock = infile_conn != NULL;
	unsigned int infile = infile_conn != NULL ? 1 : 0;
	my_bool		yes = 1;
	my_bool		no = 0;
	bool		ok = true;

	if (my == NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}

	/*
	 * The server must never make this process read one of its files.  The
	 * main connection says it can send a local file, for our own LOAD
	 * DATA, but its handler serves only the rows of the LOAD DATA it is
	 * running, under the name it issued for it, and refuses anything else
	 * (mfmysql_infile_init); the library's own handler, which opens files,
	 * is never installed.  The side connection of a cancel says no.
	 */
	ok &= mysql_optionsv(my, MYSQL_OPT_LOCAL_INFILE, &infile) == 0;
	if (infile_conn != NULL)
		mysql_set_local_infile_handler(my, mfmysql_infile_init,
									   mfmysql_infile_read,
									   mfmysql_infile_end,
									   mfmysql_infile_error, infile_conn);
	ok &= mysql_optionsv(my, MYSQL_OPT_RECONNECT, &no) == 0;
	ok &= mysql_optionsv(my, MYSQL_SET_CHARSET_NAME,
						 ci->character_set ? ci->character_set : "utf8mb4") == 0;
	if (timeout == 0)
		timeout = ci->connect_timeout;
	if (timeout > 0)
		ok &= mysql_optionsv(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout) == 0;
	if (ci->init_command)
		ok &= mysql_optionsv(my, MYSQL_INIT_COMMAND, ci->init_command) == 0;

	/*
	 * A non-superuser's login must succeed by its password alone: over TCP
	 * (a socket would let unix_socket authentication take this process's
	 * OS user instead), and only with plugins that prove the password
	 * (not GSSAPI's ticket of this host, not PAM's dialog).  An account
	 * without a password refuses the non-empty one the core insists on.
	 */
	if (ci->password_only)
	{
		unsigned int tcp = MYSQL_PROTOCOL_TCP;

		ok &= mysql_optionsv(my, MYSQL_OPT_PROTOCOL, &tcp) == 0;
		ok &= mysql_optionsv(my, MARIADB_OPT_RESTRICTED_AUTH,
							 "mysql_native_password,client_ed25519,"
							 "caching_sha2_password,sha256_password") == 0;
	}

	if (ci->ssl_mode != MFMY_SSL_DISABLED)
	{
		if (ci->ssl_key)
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_KEY, ci->ssl_key) == 0;
		if (ci->ssl_cert)
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_CERT, ci->ssl_cert) == 0;
		if (ci->ssl_ca)
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_CA, ci->ssl_ca) == 0;
	}
	switch (ci->ssl_mode)
	{
		case MFMY_SSL_DEFAULT:
		case MFMY_SSL_PREFERRED:
			break;
		case MFMY_SSL_DISABLED:
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_ENFORCE, &no) == 0;
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &no) == 0;
			break;
		case MFMY_SSL_REQUIRED:
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_ENFORCE, &yes) == 0;
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &no) == 0;
			break;
		case MFMY_SSL_VERIFY_CA:
		case MFMY_SSL_VERIFY_IDENTITY:
			/* Connector/C checks the chain and the host name together */
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_ENFORCE, &yes) == 0;
			ok &= mysql_optionsv(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &yes) == 0;
			break;
	}
	if (nonblock)
		ok &= mysql_optionsv(my, MYSQL_OPT_NONBLOCK, 0) == 0;

	if (!ok)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", 0,
					 "could not set the connection options: %s",
					 mysql_error(my)[0] ? mysql_error(my) : "refused by the client library");
		mysql_close(my);
		return NULL;
	}

	/*
	 * No CLIENT_FOUND_ROWS: an update that changes nothing (the dialect's
	 * ON DUPLICATE KEY no-op) must count 0 rows.  No multi-statements.
	 */
	if (mysql_real_connect(my, ci->host, ci->user, ci->password, ci->database,
						   ci->port, ci->unix_socket, CLIENT_MULTI_RESULTS) == NULL)
	{
		const char *state = mysql_sqlstate(my);

		/* "HY000" says nothing; a connection that failed is class 08 */
		if (state == NULL || state[0] == '\0' || strncmp(state, "HY", 2) == 0 ||
			strcmp(state, "00000") == 0)
			state = "08001";
		mf_error_set(err, MF_STEP_CONNECT, state, (long) mysql_errno(my), "%s",
					 mysql_error(my)[0] ? mysql_error(my) :
					 "could not connect to the remote server");
		mysql_close(my);
		return NULL;
	}

	/*
	 * Some Connector/C versions take MYSQL_OPT_SSL_ENFORCE alone as a wish
	 * and go on in clear text with a server that has no TLS: check.
	 */
	if (ci->ssl_mode >= MFMY_SSL_REQUIRED && mysql_get_ssl_cipher(my) == NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", 0,
					 "ssl_mode \"%s\" needs an encrypted connection, and the server does not offer one",
					 ci->ssl_mode == MFMY_SSL_REQUIRED ? "required" :
					 ci->ssl_mode == MFMY_SSL_VERIFY_CA ? "verify_ca" :
					 "verify_identity");
		mysql_close(my);
		return NULL;
	}

	/*
	 * The session speaks utf8mb4 whatever the handshake's character_set
	 * said: every character of our UTF-8 text fits (MySQL's "utf8" stops
	 * at three bytes).  Unlike SET NAMES, this tells the library too.
	 */
	if (mysql_set_character_set(my, "utf8mb4") != 0)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", (long) mysql_errno(my),
					 "could not set the session's character set to utf8mb4: %s",
					 mysql_error(my));
		mysql_close(my);
		return NULL;
	}
	return my;
}

/*
 * Does the server take bulk execution (MariaDB 10.2 and later)?  A MariaDB
 * server clears CLIENT_MYSQL and says so in its extended capabilities;
 * Connector/C refuses a bulk execution to any other.
 */
static bool
mfmysql_bulk_supported(MYSQL *my)
{
	unsigned long caps = 0;
	unsigned long ext = 0;

	if (mariadb_get_infov(my, MARIADB_CONNECTION_SERVER_CAPABILITIES, &caps) ||
		mariadb_get_infov(my, MARIADB_CONNECTION_EXTENDED_SERVER_CAPABILITIES,
						  &ext))
		return false;
	return (caps & CLIENT_MYSQL) == 0 &&
		(ext & (unsigned long) (MARIADB_CLIENT_STMT_BULK_OPERATIONS >> 32)) != 0;
}

static MfConn *
mfmysql_connect(const MfConnParams *params, MfError *err)
{
	MfConn	   *conn;

	mf_error_clear(err);
	conn = calloc(1, sizeof(MfConn));
	if (conn == NULL)
	{
		mf_error_set(err, MF_STEP_CONNECT, "53200", 0, "out of memory");
		return NULL;
	}
	if (!mfmysql_read_params(params, &conn->info, err))
	{
		mfmysql_free_info(&conn->info);
		free(conn);
		return NULL;
	}

	conn->load.server_allows = -1;
	conn->my = mfmysql_open(&conn->info, conn, 0, err);
	if (conn->my == NULL)
	{
		mfmysql_free_info(&conn->info);
		free(conn);
		return NULL;
	}
	conn->thread_id = mysql_thread_id(conn->my);

	/* the core opens every transaction itself */
	if (mysql_autocommit(conn->my, 0) != 0)
	{
		mf_error_set(err, MF_STEP_CONNECT, "08001", (long) mysql_errno(conn->my),
					 "could not turn autocommit off: %s", mysql_error(conn->my));
		mysql_close(conn->my);
		mfmysql_free_info(&conn->info);
		free(conn);
		return NULL;
	}
	conn->bulk = mfmysql_bulk_supported(conn->my);
	return conn;
}


/* ---------------------------------------------------------------------
 * Waiting, cancelling
 * ---------------------------------------------------------------------
 */

/*
 * Ask the server to stop the session's current statement: KILL QUERY from
 * a second connection with the same parameters.  The session survives,
 * its statement fails with ER_QUERY_INTERRUPTED.
 */
static bool
mfmysql_kill_query(MfConn *conn, MfError *err)
{
	MYSQL	   *side;
	char		sql[64];
	bool		ok;

	side = mfmysql_open(&conn->info, NULL, MFMY_KILL_TIMEOUT, err);
	if (side == NULL)
	{
		err->step = MF_STEP_CANCEL;
		return false;
	}
	snprintf(sql, sizeof(sql), "KILL QUERY %lu", conn->thread_id);
	ok = mysql_real_query(side, sql, strlen(sql)) == 0;
	if (!ok)
	{
		mf_error_set(err, MF_STEP_CANCEL, "08001", (long) mysql_errno(side),
					 "%s", mysql_error(side));
	}
	mysql_close(side);
	return ok;
}

/*
 * The link cannot be watched any more: cut it, so that the library's next
 * read fails at once and the command in flight ends in an error.
 */
static void
mfmysql_cut(MfmyOp *op, int sock)
{
	op->cut = true;
	op->conn->broken = true;
	if (sock >= 0)
		(void) shutdown(sock, SHUT_RDWR);
}

/*
 * Wait for what the library asked for and return the status to continue
 * with.  A user's cancel kills the remote statement and switches to a
 * bounded wait of our own for its end (the core's wait would keep
 * reporting the cancel).  Never fails: when the wait is impossible the
 * link is cut and the library finds out by itself.
 */
static int
mfmysql_wait(MfmyOp *op, int status)
{
	MfConn	   *conn = op->conn;
	int			sock = (int) mysql_get_socket(conn->my);
	bool		for_write = (status & MYSQL_WAIT_WRITE) != 0;
	int			ready = for_write ? MYSQL_WAIT_WRITE : MYSQL_WAIT_READ;

	if (op->cut)
		return ready;
	if (sock < 0)
	{
		mfmysql_cut(op, sock);
		return ready;
	}

	if ((status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE)) == 0)
	{
		/* only a timeout: the library's own, never set by us */
		long long	until = mf_now_ms() + mysql_get_timeout_value_ms(conn->my);

		(void) mf_poll_until(sock, false, until);
		return MYSQL_WAIT_TIMEOUT;
	}

	if (!op->cancelled)
	{
		int			rc = mf_wait_socket(sock, for_write);

		if (rc > 0)
			return ready;
		if (rc < 0)
		{
			mfmysql_cut(op, sock);
			return ready;
		}

		/* the user cancelled: stop the remote statement, then wind down */
		{
			MfError		ignored;

			op->cancelled = true;
			op->deadline = mf_now_ms() + MFMY_SETTLE_MS;
			mf_error_clear(&ignored);
			if (!mfmysql_kill_query(conn, &ignored))
			{
				mfmysql_cut(op, sock);
				return ready;
			}
		}
	}
	if (!mf_poll_until(sock, for_write, op->deadline))
		mfmysql_cut(op, sock);
	return ready;
}

static void
mfmysql_op_start(MfmyOp *op, MfConn *conn)
{
	op->conn = conn;
	op->cancelled = false;
	op->cut = false;
	op->deadline = 0;
}

/*
 * After a command: a cancel or a cut link overrides whatever the command
 * itself came to.  Returns false with err filled when either happened.
 */
static bool
mfmysql_op_interrupted(MfmyOp *op, MfStep step, MfError *err)
{
	if (op->cancelled)
	{
		mfmysql_fail(op->conn, err, step, "57014",
					 "canceling statement due to user request");
		return true;
	}
	if (op->cut)
	{
		mfmysql_fail(op->conn, err, step, "08006",
					 "could not wait for the remote server");
		err->conn_lost = true;
		return true;
	}
	return false;
}

/*
 * The non-blocking calls, each run to its end.  They return what their
 * blocking twins return.
 */
static int
mfmysql_real_query(MfmyOp *op, const char *sql, unsigned long len)
{
	int			ret = 1;
	int			status = mysql_real_query_start(&ret, op->conn->my, sql, len);

	while (status)
		status = mysql_real_query_cont(&ret, op->conn->my, mfmysql_wait(op, status));
	return ret;
}

static MYSQL_RES *
mfmysql_store_result(MfmyOp *op)
{
	MYSQL_RES  *ret = NULL;
	int			status = mysql_store_result_start(&ret, op->conn->my);

	while (status)
		status = mysql_store_result_cont(&ret, op->conn->my, mfmysql_wait(op, status));
	return ret;
}

static int
mfmysql_next_result(MfmyOp *op)
{
	int			ret = -1;
	int			status = mysql_next_result_start(&ret, op->conn->my);

	while (status)
		status = mysql_next_result_cont(&ret, op->conn->my, mfmysql_wait(op, status));
	return ret;
}

static my_bool
mfmysql_commit_call(MfmyOp *op, bool commit)
{
	my_bool		ret = 1;
	int			status = commit ? mysql_commit_start(&ret, op->conn->my) :
		mysql_rollback_start(&ret, op->conn->my);

	while (status)
		status = commit ?
			mysql_commit_cont(&ret, op->conn->my, mfmysql_wait(op, status)) :
			mysql_rollback_cont(&ret, op->conn->my, mfmysql_wait(op, status));
	return ret;
}

static int
mfmysql_stmt_prepare(MfmyOp *op, MYSQL_STMT *st, const char *sql)
{
	int			ret = 1;
	int			status = mysql_stmt_prepare_start(&ret, st, sql, strlen(sql));

	while (status)
		status = mysql_stmt_prepare_cont(&ret, st, mfmysql_wait(op, status));
	return ret;
}

static int
mfmysql_stmt_execute(MfmyOp *op, MYSQL_STMT *st)
{
	int			ret = 1;
	int			status = mysql_stmt_execute_start(&ret, st);

	while (status)
		status = mysql_stmt_execute_cont(&ret, st, mfmysql_wait(op, status));
	return ret;
}

static int
mfmysql_stmt_fetch(MfmyOp *op, MYSQL_STMT *st)
{
	int			ret = 1;
	int			status = mysql_stmt_fetch_start(&ret, st);

	while (status)
		status = mysql_stmt_fetch_cont(&ret, st, mfmysql_wait(op, status));
	return ret;
}

static int
mfmysql_stmt_store(MfmyOp *op, MYSQL_STMT *st)
{
	int			ret = 1;
	int			status = mysql_stmt_store_result_start(&ret, st);

	while (status)
		status = mysql_stmt_store_result_cont(&ret, st, mfmysql_wait(op, status));
	return ret;
}

/*
 * Close a statement handle.  On a lost link the handle is detached first
 * (closing the connection does that), so that closing it does not talk to
 * a server that is gone.
 */
static void
mfmysql_close_handle(MfConn *conn, MYSQL_STMT *st)
{
	if (st == NULL)
		return;
	if (conn->broken && conn->my != NULL)
	{
		mysql_close(conn->my);
		conn->my = NULL;
	}
	if (conn->my != NULL)
	{
		MfmyOp		op;
		my_bool		ret = 0;
		int			status;

		mfmysql_op_start(&op, conn);
		status = mysql_stmt_close_start(&ret, st);
		while (status)
			status = mysql_stmt_close_cont(&ret, st, mfmysql_wait(&op, status));
		if (op.cut)
			conn->broken = true;
	}
	else
		(void) mysql_stmt_close(st);
}


/* ---------------------------------------------------------------------
 * Parameters
 * ---------------------------------------------------------------------
 */

static bool
mfmysql_params_init(MfmyParams *p, int n, const MfTypeClass *classes)
{
	size_t		k = n > 0 ? (size_t) n : 1;

	memset(p, 0, sizeof(*p));
	p->n = n;
	p->classes = calloc(k, sizeof(MfTypeClass));
	p->bind = calloc(k, sizeof(MYSQL_BIND));
	p->length = calloc(k, sizeof(unsigned long));
	p->is_null = calloc(k, sizeof(my_bool));
	p->ints = calloc(k, sizeof(long long));
	p->dbls = calloc(k, sizeof(double));
	p->tiny = calloc(k, sizeof(signed char));
	p->owned = calloc(k, sizeof(char *));
	if (!p->classes || !p->bind || !p->length || !p->is_null || !p->ints ||
		!p->dbls || !p->tiny || !p->owned)
		return false;
	for (int i = 0; i < n; i++)
		p->classes[i] = classes ? classes[i] : MF_TYPE_TEXT;
	return true;
}

static void
mfmysql_params_release(MfmyParams *p)
{
	if (p->owned == NULL)
		return;
	for (int i = 0; i < p->n; i++)
	{
		free(p->owned[i]);
		p->owned[i] = NULL;
	}
}

static void
mfmysql_params_free(MfmyParams *p)
{
	mfmysql_params_release(p);
	free(p->classes);
	free(p->bind);
	free(p->length);
	free(p->is_null);
	free(p->ints);
	free(p->dbls);
	free(p->tiny);
	free(p->owned);
	memset(p, 0, sizeof(*p));
}

/*
 * bytea's text form to raw bytes: hex (\x...) or, if the local session
 * asked for it, the escape form.  NULL on a malformed value or no memory.
 */
static char *
mfmysql_decode_bytea(const char *s, unsigned long *len)
{
	size_t		n = strlen(s);
	char	   *out = malloc(n + 1);
	size_t		o = 0;

	if (out == NULL)
		return NULL;
	if (s[0] == '\\' && s[1] == 'x')
	{
		for (s += 2; *s; s++)
		{
			int			hi,
						lo;

			if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
				continue;
			hi = mf_hex_value(s[0]);
			lo = hi < 0 ? -1 : mf_hex_value(s[1]);
			if (lo < 0)
			{
				free(out);
				return NULL;
			}
			out[o++] = (char) (hi * 16 + lo);
			s++;
		}
	}
	else
	{
		while (*s)
		{
			if (s[0] != '\\')
				out[o++] = *s++;
			else if (s[1] == '\\')
			{
				out[o++] = '\\';
				s += 2;
			}
			else if (s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
					 s[3] >= '0' && s[3] <= '7')
			{
				out[o++] = (char) (((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
								   (s[3] - '0'));
				s += 4;
			}
			else
			{
				free(out);
				return NULL;
			}
		}
	}
	*len = (unsigned long) o;
	return out;
}

/* A value PostgreSQL prints but MySQL has no number for (NaN, Infinity). */
static bool
mfmysql_special_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return (*s < '0' || *s > '9') && *s != '.';
}

/*
 * Bind one set of values.  The texts themselves are pointed at, not
 * copied; they must live until the statement has run.
 */
static bool
mfmysql_params_bind(MfConn *conn, MfmyParams *p, const char *const *values,
					MfStep step, MfError *err)
{
	mfmysql_params_release(p);
	memset(p->bind, 0, sizeof(MYSQL_BIND) * (p->n > 0 ? p->n : 1));

	for (int i = 0; i < p->n; i++)
	{
		MYSQL_BIND *b = &p->bind[i];
		const char *v = values ? values[i] : NULL;
		size_t		len;

		b->length = &p->length[i];
		b->is_null = &p->is_null[i];
		p->is_null[i] = (v == NULL);
		if (v == NULL)
		{
			b->buffer_type = MYSQL_TYPE_NULL;
			continue;
		}
		len = strlen(v);

		/* by default the server converts the text */
		b->buffer_type = MYSQL_TYPE_STRING;
		b->buffer = (void *) v;
		b->buffer_length = (unsigned long) len;
		p->length[i] = (unsigned long) len;

		switch (p->classes[i])
		{
			case MF_TYPE_BYTES:
				{
					unsigned long n = 0;
					char	   *raw = mfmysql_decode_bytea(v, &n);

					if (raw == NULL)
					{
						mfmysql_fail(conn, err, step, "22P02",
									 "invalid bytea value for a MySQL parameter");
						return false;
					}
					p->owned[i] = raw;
					b->buffer_type = MYSQL_TYPE_BLOB;
					b->buffer = raw;
					b->buffer_length = n;
					p->length[i] = n;
				}
				break;

			case MF_TYPE_BOOL:
				p->tiny[i] = (v[0] == 't' || v[0] == 'T' || v[0] == '1' ||
							  v[0] == 'y' || v[0] == 'Y') ? 1 : 0;
				b->buffer_type = MYSQL_TYPE_TINY;
				b->buffer = &p->tiny[i];
				break;

			case MF_TYPE_INT:
				{
					char	   *end;

					/*
					 * As a number, not a string: MySQL compares an integer
					 * column with a string in double precision.
					 */
					errno = 0;
					p->ints[i] = strtoll(v, &end, 10);
					if (errno == 0 && end != v && *end == '\0')
					{
						b->buffer_type = MYSQL_TYPE_LONGLONG;
						b->buffer = &p->ints[i];
					}
				}
				break;

			case MF_TYPE_FLOAT:
				if (!mfmysql_special_number(v))
				{
					char	   *end;

					errno = 0;
					p->dbls[i] = strtod(v, &end);
					if (end != v && *end == '\0')
					{
						b->buffer_type = MYSQL_TYPE_DOUBLE;
						b->buffer = &p->dbls[i];
					}
				}
				break;

			case MF_TYPE_BITS:
				/* binary digits, as the BIT column's number */
				if (len > 0 && len <= 64 && strspn(v, "01") == len)
				{
					unsigned long long bits = 0;

					for (size_t k = 0; k < len; k++)
						bits = (bits << 1) | (unsigned long long) (v[k] - '0');
					p->ints[i] = (long long) bits;
					b->buffer_type = MYSQL_TYPE_LONGLONG;
					b->buffer = &p->ints[i];
					b->is_unsigned = 1;
				}
				break;

			case MF_TYPE_NUMERIC:
				/* exact: the digits travel as a DECIMAL */
				if (!mfmysql_special_number(v))
					b->buffer_type = MYSQL_TYPE_NEWDECIMAL;
				break;

			case MF_TYPE_TIMESTAMPTZ:

				/*
				 * The core writes it in UTC; the session's time zone is UTC
				 * and MySQL does not take the offset.
				 */
				if (len > 6 && strcmp(v + len - 6, "+00:00") == 0)
					p->length[i] = (unsigned long) (len - 6);
				else if (len > 3 && strcmp(v + len - 3, "+00") == 0)
					p->length[i] = (unsigned long) (len - 3);
				b->buffer_length = p->length[i];
				break;

			default:
				break;
		}
	}
	return true;
}


/* ---------------------------------------------------------------------
 * Bookkeeping
 * ---------------------------------------------------------------------
 */

static void
mfmysql_link_stmt(MfConn *conn, MfStmt *stmt)
{
	stmt->next = conn->stmts;
	if (conn->stmts)
		conn->stmts->prev = stmt;
	conn->stmts = stmt;
}

static void
mfmysql_unlink_stmt(MfStmt *stmt)
{
	if (stmt->prev)
		stmt->prev->next = stmt->next;
	else
		stmt->conn->stmts = stmt->next;
	if (stmt->next)
		stmt->next->prev = stmt->prev;
	stmt->prev = stmt->next = NULL;
}

static void
mfmysql_link_result(MfConn *conn, MfResult *res)
{
	res->next = conn->results;
	if (conn->results)
		conn->results->prev = res;
	conn->results = res;
}

static void
mfmysql_unlink_result(MfResult *res)
{
	if (res->prev)
		res->prev->next = res->next;
	else
		res->conn->results = res->next;
	if (res->next)
		res->next->prev = res->prev;
	res->prev = res->next = NULL;
}

static void
mfmysql_array_free(MfmyArray *a, int nparams)
{
	if (a->owned != NULL)
		for (size_t i = 0; i < (size_t) nparams * (size_t) a->cap; i++)
			free(a->owned[i]);
	free(a->bind);
	free(a->as_number);
	free(a->ind);
	free(a->len);
	free(a->ptr);
	free(a->num);
	free(a->tiny);
	free(a->owned);
	memset(a, 0, sizeof(*a));
}

static void
mfmysql_free_stmt(MfStmt *stmt)
{
	mfmysql_unlink_stmt(stmt);
	mfmysql_close_handle(stmt->conn, stmt->st);
	mfmysql_array_free(&stmt->array, stmt->params.n);
	mfmysql_params_free(&stmt->params);
	free(stmt);
}

static void
mfmysql_free_result(MfResult *res)
{
	mfmysql_unlink_result(res);
	mfmysql_close_handle(res->conn, res->st);
	mfmysql_params_free(&res->params);
	if (res->cols)
		for (int c = 0; c < res->ncols; c++)
			free(res->cols[c].buf);
	free(res->cols);
	free(res->bind);
	free(res->offsets);
	free(res->arena);
	free(res);
}

static void
mfmysql_free_all(MfConn *conn)
{
	while (conn->results)
		mfmysql_free_result(conn->results);
	while (conn->stmts)
		mfmysql_free_stmt(conn->stmts);
}


/* ---------------------------------------------------------------------
 * Connection and transactions
 * ---------------------------------------------------------------------
 */

static void
mfmysql_disconnect(MfConn *conn)
{
	if (conn == NULL)
		return;

	mfmysql_load_settle(conn);
	free(conn->load.hold);
	free(conn->load.data);
	free(conn->load.sql);

	/* statements closed after their connection are only freed */
	if (conn->my != NULL)
	{
		mysql_close(conn->my);
		conn->my = NULL;
	}
	mfmysql_free_all(conn);
	mfmysql_free_info(&conn->info);
	free(conn->scratch);
	free(conn);
}

/*
 * Between commands the server sends nothing unasked, except to say that it
 * is closing the session (killed, timed out, shut down): a socket with
 * something to read, or hung up, means the link is gone.
 */
static bool
mfmysql_is_broken(MfConn *conn)
{
	struct pollfd pfd;

	if (conn->broken || conn->my == NULL)
		return true;
	pfd.fd = (int) mysql_get_socket(conn->my);
	if (pfd.fd < 0)
		return conn->broken = true;
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) > 0 &&
		(pfd.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) != 0)
		conn->broken = true;
	return conn->broken;
}

/* the server sends nothing unasked: is_broken's look at the socket says it */
static int
mfmysql_peer_closed(MfConn *conn)
{
	return mfmysql_is_broken(conn) ? 1 : 0;
}

/* the session's connection id (CONNECTION_ID(), what KILL takes) */
static unsigned long
mfmysql_remote_session(MfConn *conn)
{
	return conn->my != NULL ? mysql_thread_id(conn->my) : 0;
}

/*
 * What an UPDATE counts.  Without CLIENT_FOUND_ROWS the server reports the
 * rows it changed, and a row set to the values it already had is not
 * among them; PostgreSQL counts every row the UPDATE found, and its info
 * line ("Rows matched: N  Changed: M  Warnings: W") says how many.  Other
 * statements report affected rows, which is what the dialect's no-op ON
 * DUPLICATE KEY UPDATE relies on.
 */
static long
mfmysql_rows(MYSQL *my, unsigned long long affected)
{
	const char *info = mysql_info(my);
	const char *m;

	if (info != NULL && (m = strstr(info, "Rows matched: ")) != NULL)
		return strtol(m + 14, NULL, 10);
	if (affected == (unsigned long long) -1)
		return 0;
	return affected > (unsigned long long) LONG_MAX ? LONG_MAX : (long) affected;
}

/*
 * Read and drop every result a statement produced, so that the connection
 * is in step with the server again.  Also after a cancel: what the killed
 * statement still sends must be read before anything else is.
 */
static bool
mfmysql_drain(MfmyOp *op, MfStep step, long *rows, MfError *err)
{
	MfConn	   *conn = op->conn;

	for (;;)
	{
		int			more;

		if (mysql_field_count(conn->my) > 0)
		{
			MYSQL_RES  *r = mfmysql_store_result(op);

			if (r == NULL)
			{
				mfmysql_conn_error(conn, step, err);
				return false;
			}
			/* a query reports the rows it returned, as with libpq */
			if (rows)
				*rows = (long) mysql_num_rows(r);
			mysql_free_result(r);
		}
		else if (rows)
			*rows = mfmysql_rows(conn->my, mysql_affected_rows(conn->my));

		if (!mysql_more_results(conn->my))
			return true;
		more = mfmysql_next_result(op);
		if (more > 0)
		{
			mfmysql_conn_error(conn, step, err);
			return false;
		}
		if (more < 0)
			return true;
	}
}

/*
 * One statement in the text protocol.  A cancel or a cut link overrides
 * what the statement came to, once it has been read to its end.
 */
static bool
mfmysql_command(MfConn *conn, const char *sql, MfStep step, long *rows,
				MfError *err)
{
	MfmyOp		op;
	bool		ok;

	if (!mfmysql_usable(conn, step, err))
		return false;
	mfmysql_op_start(&op, conn);
	ok = mfmysql_real_query(&op, sql, (unsigned long) strlen(sql)) == 0;
	if (!ok)
		mfmysql_conn_error(conn, step, err);
	else
		ok = mfmysql_drain(&op, step, rows, err);
	if (mfmysql_op_interrupted(&op, step, err))
		return false;
	return ok;
}

static bool
mfmysql_exec(MfConn *conn, const char *sql, long *rows_affected, MfError *err)
{
	if (rows_affected)
		*rows_affected = 0;
	return mfmysql_command(conn, sql, MF_STEP_EXEC, rows_affected, err);
}

static bool
mfmysql_begin(MfConn *conn, const char *begin_sql, MfError *err)
{
	return mfmysql_command(conn, begin_sql ? begin_sql : "START TRANSACTION",
						   MF_STEP_TRANSACTION, NULL, err);
}

static bool
mfmysql_end(MfConn *conn, bool commit, MfError *err)
{
	MfmyOp		op;
	my_bool		failed;

	if (!mfmysql_usable(conn, MF_STEP_TRANSACTION, err))
		return false;
	mfmysql_op_start(&op, conn);
	failed = mfmysql_commit_call(&op, commit);
	if (mfmysql_op_interrupted(&op, MF_STEP_TRANSACTION, err))
		return false;
	if (failed)
	{
		mfmysql_conn_error(conn, MF_STEP_TRANSACTION, err);
		return false;
	}
	return true;
}

static bool
mfmysql_commit(MfConn *conn, MfError *err)
{
	return mfmysql_end(conn, true, err);
}

static bool
mfmysql_rollback(MfConn *conn, MfError *err)
{
	return mfmysql_end(conn, false, err);
}

static bool
mfmysql_cancel(MfConn *conn, MfError *err)
{
	mf_error_clear(err);
	if (conn->my == NULL)
	{
		mfmysql_fail(conn, err, MF_STEP_CANCEL, "08006",
					 "connection to the remote server was lost");
		return false;
	}
	return mfmysql_kill_query(conn, err);
}

/*
 * The transaction is over: every statement and cursor goes (prepared
 * statements live as long as their handles, so nothing is left behind on
 * the server).
 */
static void
mfmysql_forget_all(MfConn *conn)
{
	if (conn->load.in_flight || conn->load.open)
		mfmysql_load_settle(conn);
	mfmysql_free_all(conn);
}

static const char *
mfmysql_server_version(MfConn *conn)
{
	const char *v;

	if (conn->my == NULL)
		return NULL;
	v = mysql_get_server_info(conn->my);
	if (v == NULL)
		return NULL;
	mf_error_copy(conn->version, sizeof(conn->version), v);
	return conn->version;
}


/* ---------------------------------------------------------------------
 * Prepared statements
 * ---------------------------------------------------------------------
 */

/* A statement handle prepared on the server, or NULL with err filled. */
static MYSQL_STMT *
mfmysql_prepare_handle(MfConn *conn, const char *sql, int nparams,
					   bool cursor, int fetch_size, MfStep step, MfError *err)
{
	MYSQL_STMT *st;
	MfmyOp		op;
	int			rc;

	st = mysql_stmt_init(conn->my);
	if (st == NULL)
	{
		mfmysql_oom(conn, step, err);
		return NULL;
	}
	if (cursor)
	{
		unsigned long type = CURSOR_TYPE_READ_ONLY;
		unsigned long prefetch = (unsigned long) fetch_size;

		if (mysql_stmt_attr_set(st, STMT_ATTR_CURSOR_TYPE, &type) ||
			mysql_stmt_attr_set(st, STMT_ATTR_PREFETCH_ROWS, &prefetch))
		{
			mfmysql_stmt_error(conn, st, step, err);
			mfmysql_close_handle(conn, st);
			return NULL;
		}
	}

	mfmysql_op_start(&op, conn);
	rc = mfmysql_stmt_prepare(&op, st, sql);
	if (mfmysql_op_interrupted(&op, step, err))
	{
		mfmysql_close_handle(conn, st);
		return NULL;
	}
	if (rc != 0)
	{
		mfmysql_stmt_error(conn, st, step, err);
		mfmysql_close_handle(conn, st);
		return NULL;
	}
	if ((int) mysql_stmt_param_count(st) != nparams)
	{
		mfmysql_fail(conn, err, step, "XX000", "");
		mf_error_set(err, step, "XX000", 0,
					 "the remote statement has %lu parameters, %d were given",
					 mysql_stmt_param_count(st), nparams);
		mfmysql_close_handle(conn, st);
		return NULL;
	}
	return st;
}

static MfStmt *
mfmysql_prepare(MfConn *conn, const char *sql, int nparams,
				const MfTypeClass *classes, MfError *err)
{
	MfStmt	   *stmt;

	if (!mfmysql_usable(conn, MF_STEP_PREPARE, err))
		return NULL;
	stmt = calloc(1, sizeof(MfStmt));
	if (stmt == NULL || !mfmysql_params_init(&stmt->params, nparams, classes))
	{
		if (stmt)
			mfmysql_params_free(&stmt->params);
		free(stmt);
		mfmysql_oom(conn, MF_STEP_PREPARE, err);
		return NULL;
	}
	stmt->conn = conn;
	stmt->st = mfmysql_prepare_handle(conn, sql, nparams, false, 0,
									  MF_STEP_PREPARE, err);
	if (stmt->st == NULL)
	{
		mfmysql_params_free(&stmt->params);
		free(stmt);
		return NULL;
	}
	mfmysql_link_stmt(conn, stmt);
	return stmt;
}

/*
 * Bind the parameters and run the statement, under op: the caller reads
 * what the statement sends and then asks op whether a cancel came.
 */
static bool
mfmysql_run(MfmyOp *op, MYSQL_STMT *st, MfmyParams *params,
			const char *const *values, MfStep step, MfError *err)
{
	MfConn	   *conn = op->conn;
	int			rc;

	if (!mfmysql_params_bind(conn, params, values, step, err))
		return false;
	if (params->n > 0 && mysql_stmt_bind_param(st, params->bind))
	{
		mfmysql_stmt_error(conn, st, step, err);
		mfmysql_params_release(params);
		return false;
	}
	rc = mfmysql_stmt_execute(op, st);
	mfmysql_params_release(params);
	if (rc != 0)
	{
		mfmysql_stmt_error(conn, st, step, err);
		return false;
	}
	return true;
}

static bool
mfmysql_execute(MfStmt *stmt, const char *const *values, long *rows_affected,
				MfResult **result, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	MfmyOp		op;
	bool		ok;

	if (rows_affected)
		*rows_affected = 0;
	if (result)
		*result = NULL;
	if (!mfmysql_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	mfmysql_op_start(&op, conn);
	ok = mfmysql_run(&op, stmt->st, &stmt->params, values, MF_STEP_EXECUTE,
					 err);

	/* rows of a statement that returns some are not wanted: drop them */
	if (ok && mysql_stmt_field_count(stmt->st) > 0)
	{
		ok = mfmysql_stmt_store(&op, stmt->st) == 0;
		if (!ok)
			mfmysql_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
		(void) mysql_stmt_free_result(stmt->st);
	}
	else if (ok && rows_affected)
		*rows_affected = mfmysql_rows(conn->my,
									  mysql_stmt_affected_rows(stmt->st));
	if (mfmysql_op_interrupted(&op, MF_STEP_EXECUTE, err))
		return false;
	return ok;
}

/* ---------------------------------------------------------------------
 * Parameter arrays (bulk execution)
 * ---------------------------------------------------------------------
 */

/* Arrays for sets sets of the statement's parameters. */
static bool
mfmysql_array_reserve(MfStmt *stmt, int sets)
{
	MfmyArray  *a = &stmt->array;
	size_t		n = (size_t) stmt->params.n;
	size_t		k;

	if (a->cap >= sets)
		return true;
	mfmysql_array_free(a, stmt->params.n);
	k = n * (size_t) sets;
	a->bind = calloc(n, sizeof(MYSQL_BIND));
	a->as_number = calloc(n, sizeof(bool));
	a->ind = calloc(k, sizeof(char));
	a->len = calloc(k, sizeof(unsigned long));
	a->ptr = calloc(k, sizeof(char *));
	a->num = calloc(k, sizeof(MfmyNum));
	a->tiny = calloc(k, sizeof(signed char));
	a->owned = calloc(k, sizeof(char *));
	if (!a->bind || !a->as_number || !a->ind || !a->len || !a->ptr ||
		!a->num || !a->tiny || !a->owned)
	{
		mfmysql_array_free(a, stmt->params.n);
		return false;
	}
	a->cap = sets;
	return true;
}

static void
mfmysql_array_release(MfmyArray *a, int nparams, int sets)
{
	for (int p = 0; p < nparams; p++)
		for (int k = 0; k < sets; k++)
		{
			size_t		slot = (size_t) p * a->cap + k;

			free(a->owned[slot]);
			a->owned[slot] = NULL;
		}
}

/* Bytes a length-encoded length takes in the protocol. */
static size_t
mfmysql_lenenc_size(size_t len)
{
	return len < 251 ? 1 : len < 65536 ? 3 : len < 16777216 ? 4 : 9;
}

/*
 * The server's max_allowed_packet, read once per connection: a bulk packet
 * larger than that would be refused, and the session with it.
 */
static bool
mfmysql_read_max_packet(MfConn *conn, MfError *err)
{
	static const char sql[] = "SELECT @@max_allowed_packet";
	MfmyOp		op;
	MYSQL_RES  *r = NULL;
	bool		ok;

	if (conn->max_packet > 0)
		return true;
	mfmysql_op_start(&op, conn);
	ok = mfmysql_real_query(&op, sql, sizeof(sql) - 1) == 0;
	if (ok)
	{
		r = mfmysql_store_result(&op);
		ok = r != NULL;
	}
	if (!ok)
		mfmysql_conn_error(conn, MF_STEP_EXECUTE, err);
	else
	{
		MYSQL_ROW	row = mysql_fetch_row(r);
		unsigned long v = 0;

		if (row == NULL || row[0] == NULL ||
			!mfmysql_parse_uint(row[0], ULONG_MAX, &v) || v < 1024)
			v = MFMY_PACKET_FALLBACK;
		conn->max_packet = v;
	}
	if (r != NULL)
		mysql_free_result(r);
	if (mfmysql_op_interrupted(&op, MF_STEP_EXECUTE, err))
		return false;
	return ok;
}

/*
 * Fill the arrays with the sets from first on, as many as fit in one
 * packet of budget bytes (at least one) and in the arrays; *sets is how
 * many.  Binds them by the same rules as mfmysql_params_bind, except that
 * a parameter has one type for all its sets: a column of numbers with one
 * value that is not a number (NaN, Infinity, a bit string longer than 64)
 * goes as text, which the server converts or refuses.
 */
static bool
mfmysql_array_fill(MfStmt *stmt, int nsets, const char *const *values,
				   int first, size_t budget, int *sets, MfError *err)
{
	MfmyArray  *a = &stmt->array;
	MfmyParams *pp = &stmt->params;
	int			n = pp->n;
	size_t		bytes = 0;
	int			k;

	for (int p = 0; p < n; p++)
		a->as_number[p] = true;

	for (k = 0; k < a->cap && first + k < nsets; k++)
	{
		const char *const *set = values + (size_t) (first + k) * n;
		size_t		set_bytes = 0;

		/* what this set adds to the packet, an upper bound */
		for (int p = 0; p < n; p++)
		{
			size_t		slot = (size_t) p * a->cap + k;
			size_t		len;

			if (set[p] == NULL)
			{
				set_bytes += 1;
				continue;
			}
			len = strlen(set[p]);
			a->len[slot] = (unsigned long) len;
			len += mfmysql_lenenc_size(len);
			set_bytes += 1 + (len > 8 ? len : 8);
		}
		if (k > 0 && bytes + set_bytes > budget)
			break;
		bytes += set_bytes;

		for (int p = 0; p < n; p++)
		{
			size_t		slot = (size_t) p * a->cap + k;
			const char *v = set[p];
			size_t		len;

			if (v == NULL)
			{
				a->ind[slot] = STMT_INDICATOR_NULL;
				a->ptr[slot] = NULL;
				a->len[slot] = 0;
				continue;
			}
			a->ind[slot] = STMT_INDICATOR_NONE;
			a->ptr[slot] = (char *) v;
			len = a->len[slot];

			switch (pp->classes[p])
			{
				case MF_TYPE_BYTES:
					{
						unsigned long raw_len = 0;
						char	   *raw = mfmysql_decode_bytea(v, &raw_len);

						if (raw == NULL)
						{
							mfmysql_array_release(a, n, k + 1);
							mfmysql_fail(stmt->conn, err, MF_STEP_EXECUTE, "22P02",
										 "invalid bytea value for a MySQL parameter");
							err->row = first + k + 1;
							return false;
						}
						a->owned[slot] = raw;
						a->ptr[slot] = raw;
						a->len[slot] = raw_len;
					}
					break;

				case MF_TYPE_BOOL:
					a->tiny[slot] = (v[0] == 't' || v[0] == 'T' || v[0] == '1' ||
									 v[0] == 'y' || v[0] == 'Y') ? 1 : 0;
					break;

				case MF_TYPE_INT:
					if (a->as_number[p])
					{
						char	   *end;

						errno = 0;
						a->num[slot].i = strtoll(v, &end, 10);
						if (errno != 0 || end == v || *end != '\0')
							a->as_number[p] = false;
					}
					break;

				case MF_TYPE_FLOAT:
					if (a->as_number[p])
					{
						char	   *end;

						if (mfmysql_special_number(v))
							a->as_number[p] = false;
						else
						{
							a->num[slot].d = strtod(v, &end);
							if (end == v || *end != '\0')
								a->as_number[p] = false;
						}
					}
					break;

				case MF_TYPE_BITS:
					if (a->as_number[p])
					{
						if (len > 0 && len <= 64 && strspn(v, "01") == len)
						{
							unsigned long long bits = 0;

							for (size_t i = 0; i < len; i++)
								bits = (bits << 1) | (unsigned long long) (v[i] - '0');
							a->num[slot].i = (long long) bits;
						}
						else
							a->as_number[p] = false;
					}
					break;

				case MF_TYPE_NUMERIC:
					if (mfmysql_special_number(v))
						a->as_number[p] = false;
					break;

				case MF_TYPE_TIMESTAMPTZ:
					/* in UTC, like the session: MySQL takes no offset */
					if (len > 6 && strcmp(v + len - 6, "+00:00") == 0)
						a->len[slot] = (unsigned long) (len - 6);
					else if (len > 3 && strcmp(v + len - 3, "+00") == 0)
						a->len[slot] = (unsigned long) (len - 3);
					break;

				default:
					break;
			}
		}
	}
	*sets = k;

	/* one type per parameter, for all the sets */
	memset(a->bind, 0, sizeof(MYSQL_BIND) * (size_t) n);
	for (int p = 0; p < n; p++)
	{
		MYSQL_BIND *b = &a->bind[p];
		size_t		col = (size_t) p * a->cap;

		b->u.indicator = a->ind + col;
		b->buffer_type = MYSQL_TYPE_STRING;
		b->buffer = a->ptr + col;
		b->length = a->len + col;
		switch (pp->classes[p])
		{
			case MF_TYPE_BYTES:
				b->buffer_type = MYSQL_TYPE_BLOB;
				break;
			case MF_TYPE_BOOL:
				b->buffer_type = MYSQL_TYPE_TINY;
				b->buffer = a->tiny + col;
				break;
			case MF_TYPE_INT:
			case MF_TYPE_BITS:
				if (a->as_number[p])
				{
					b->buffer_type = MYSQL_TYPE_LONGLONG;
					b->buffer = a->num + col;
					b->is_unsigned = pp->classes[p] == MF_TYPE_BITS;
				}
				break;
			case MF_TYPE_FLOAT:
				if (a->as_number[p])
				{
					b->buffer_type = MYSQL_TYPE_DOUBLE;
					b->buffer = a->num + col;
				}
				break;
			case MF_TYPE_NUMERIC:
				if (a->as_number[p])
					b->buffer_type = MYSQL_TYPE_NEWDECIMAL;
				break;
			default:
				break;
		}
	}
	return true;
}

/*
 * The set of a bulk packet that failed, 1-based, when the server's message
 * names it: MariaDB counts the rows of a bulk execution by set, and data
 * errors end in "at row N".  0 when it does not say (a duplicate key).
 */
static long
mfmysql_bulk_row(const char *message, int sets)
{
	const char *last = NULL;
	unsigned long row;

	for (const char *p = strstr(message, " at row "); p != NULL;
		 p = strstr(p + 1, " at row "))
		last = p;
	if (last == NULL || !mfmysql_parse_uint(last + 8, (unsigned long) sets, &row))
		return 0;
	return (long) row;
}

/*
 * Run the statement for the sets one at a time: servers without bulk
 * execution, and statements without parameters.
 */
static bool
mfmysql_execute_each(MfStmt *stmt, int nsets, const char *const *values,
					 long *rows_affected, MfError *err)
{
	for (int k = 0; k < nsets; k++)
	{
		long		rows = 0;

		if (!mfmysql_execute(stmt, values ? values + (size_t) k * stmt->params.n : NULL,
							 &rows, NULL, err))
		{
			if (!err->conn_lost && strcmp(err->sqlstate, "57014") != 0)
				err->row = k + 1;
			return false;
		}
		*rows_affected += rows;
	}
	return true;
}

/*
 * The statement once for each of nsets sets of values, in as few bulk
 * executions as max_allowed_packet allows.  The server runs the sets of a
 * packet in order and stops at the first that fails; which one it was is
 * known when the packet held one set or the message names its row.
 */
static bool
mfmysql_execute_array(MfStmt *stmt, int nsets, const char *const *values,
					  long *rows_affected, MfError *err)
{
	MfConn	   *conn = stmt->conn;
	int			n = stmt->params.n;
	size_t		budget;
	MfmyOp		op;
	int			first = 0;

	*rows_affected = 0;
	if (nsets <= 0)
		return true;
	if (!mfmysql_usable(conn, MF_STEP_EXECUTE, err))
		return false;
	if (!conn->bulk || n == 0 || nsets == 1 || values == NULL)
		return mfmysql_execute_each(stmt, nsets, values, rows_affected, err);

	if (!mfmysql_read_max_packet(conn, err))
		return false;
	budget = conn->max_packet > MFMY_BULK_OVERHEAD + 4 * (size_t) n ?
		conn->max_packet - MFMY_BULK_OVERHEAD - 4 * (size_t) n : 1;
	if (!mfmysql_array_reserve(stmt, nsets < MFMY_ARRAY_MAX_SETS ?
							   nsets : MFMY_ARRAY_MAX_SETS))
	{
		mfmysql_oom(conn, MF_STEP_EXECUTE, err);
		return false;
	}

	mfmysql_op_start(&op, conn);
	while (first < nsets)
	{
		unsigned int size;
		unsigned int none = 0;
		int			sets = 0;
		int			rc;
		bool		ok = true;

		if (!mfmysql_array_fill(stmt, nsets, values, first, budget, &sets, err))
			return false;
		size = (unsigned int) sets;
		if (mysql_stmt_attr_set(stmt->st, STMT_ATTR_ARRAY_SIZE, &size) ||
			mysql_stmt_bind_param(stmt->st, stmt->array.bind))
		{
			mfmysql_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
			ok = false;
		}
		else
		{
			rc = mfmysql_stmt_execute(&op, stmt->st);
			if (rc != 0)
			{
				mfmysql_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
				if (!err->conn_lost)
				{
					long		row = sets == 1 ? 1 :
						mfmysql_bulk_row(err->message, sets);

					if (row > 0)
						err->row = first + row;
				}
				ok = false;
			}
			else if (mysql_stmt_field_count(stmt->st) > 0)
			{
				/* rows nobody asked for: drop them */
				if (mfmysql_stmt_store(&op, stmt->st) != 0)
				{
					mfmysql_stmt_error(conn, stmt->st, MF_STEP_EXECUTE, err);
					ok = false;
				}
				(void) mysql_stmt_free_result(stmt->st);
			}
			else
				*rows_affected += mfmysql_rows(conn->my,
											   mysql_stmt_affected_rows(stmt->st));
		}

		/* the one-set path binds afresh and must find no array */
		(void) mysql_stmt_attr_set(stmt->st, STMT_ATTR_ARRAY_SIZE, &none);
		mfmysql_array_release(&stmt->array, n, sets);
		if (mfmysql_op_interrupted(&op, MF_STEP_EXECUTE, err))
			return false;
		if (!ok)
			return false;
		first += sets;
	}
	return true;
}

static void
mfmysql_stmt_close(MfStmt *stmt)
{
	mfmysql_free_stmt(stmt);
}


/* ---------------------------------------------------------------------
 * Queries read through server-side cursors
 * ---------------------------------------------------------------------
 */

static MfmyColKind
mfmysql_col_kind(const MYSQL_FIELD *f)
{
	switch (f->type)
	{
		case MYSQL_TYPE_TINY:
		case MYSQL_TYPE_SHORT:
		case MYSQL_TYPE_INT24:
		case MYSQL_TYPE_LONG:
		case MYSQL_TYPE_LONGLONG:
		case MYSQL_TYPE_YEAR:
			return (f->flags & UNSIGNED_FLAG) ? MFMY_COL_UINT : MFMY_COL_INT;
		case MYSQL_TYPE_FLOAT:
			return MFMY_COL_FLOAT;
		case MYSQL_TYPE_DOUBLE:
			return MFMY_COL_DOUBLE;
		case MYSQL_TYPE_DATE:
		case MYSQL_TYPE_NEWDATE:
			return MFMY_COL_DATE;
		case MYSQL_TYPE_DATETIME:
		case MYSQL_TYPE_TIMESTAMP:
		case MYSQL_TYPE_DATETIME2:
		case MYSQL_TYPE_TIMESTAMP2:
			return MFMY_COL_DATETIME;
		case MYSQL_TYPE_TIME:
		case MYSQL_TYPE_TIME2:
			return MFMY_COL_TIME;
		case MYSQL_TYPE_BIT:
			return MFMY_COL_BIT;
		case MYSQL_TYPE_STRING:
		case MYSQL_TYPE_VAR_STRING:
		case MYSQL_TYPE_VARCHAR:
		case MYSQL_TYPE_TINY_BLOB:
		case MYSQL_TYPE_MEDIUM_BLOB:
		case MYSQL_TYPE_LONG_BLOB:
		case MYSQL_TYPE_BLOB:
		case MYSQL_TYPE_GEOMETRY:
			/* charset 63 is "binary": bytes, not characters */
			if (f->charsetnr == 63 && !(f->flags & (ENUM_FLAG | SET_FLAG)))
				return MFMY_COL_BYTES;
			return MFMY_COL_TEXT;
		default:
			/* DECIMAL, JSON, ENUM, SET, NULL: their text is what we want */
			return MFMY_COL_TEXT;
	}
}

/* Bind the result columns; ncols and cols set up from the metadata. */
static bool
mfmysql_bind_columns(MfResult *res, MfError *err)
{
	MYSQL_RES  *meta = mysql_stmt_result_metadata(res->st);
	MYSQL_FIELD *fields;
	int			n;

	if (meta == NULL)
	{
		if (mysql_stmt_errno(res->st) != 0)
			mfmysql_stmt_error(res->conn, res->st, MF_STEP_FETCH, err);
		else
			mfmysql_fail(res->conn, err, MF_STEP_FETCH, "XX000",
						 "the remote statement returns no rows");
		return false;
	}
	n = (int) mysql_num_fields(meta);
	fields = mysql_fetch_fields(meta);
	res->ncols = n;
	res->cols = calloc(n > 0 ? n : 1, sizeof(MfmyCol));
	res->bind = calloc(n > 0 ? n : 1, sizeof(MYSQL_BIND));
	if (res->cols == NULL || res->bind == NULL)
	{
		mysql_free_result(meta);
		mfmysql_oom(res->conn, MF_STEP_FETCH, err);
		return false;
	}

	for (int c = 0; c < n; c++)
	{
		MfmyCol    *col = &res->cols[c];
		MYSQL_BIND *b = &res->bind[c];

		col->kind = mfmysql_col_kind(&fields[c]);
		col->bits = fields[c].length;
		b->length = &col->length;
		b->is_null = &col->is_null;
		b->error = &col->error;
		switch (col->kind)
		{
			case MFMY_COL_INT:
			case MFMY_COL_UINT:
				b->buffer_type = MYSQL_TYPE_LONGLONG;
				b->buffer = &col->num.i;
				b->is_unsigned = (col->kind == MFMY_COL_UINT);
				break;
			case MFMY_COL_FLOAT:
				b->buffer_type = MYSQL_TYPE_FLOAT;
				b->buffer = &col->num.f;
				break;
			case MFMY_COL_DOUBLE:
				b->buffer_type = MYSQL_TYPE_DOUBLE;
				b->buffer = &col->num.d;
				break;
			case MFMY_COL_DATE:
				b->buffer_type = MYSQL_TYPE_DATE;
				b->buffer = &col->num.t;
				break;
			case MFMY_COL_DATETIME:
				b->buffer_type = MYSQL_TYPE_DATETIME;
				b->buffer = &col->num.t;
				break;
			case MFMY_COL_TIME:
				b->buffer_type = MYSQL_TYPE_TIME;
				b->buffer = &col->num.t;
				break;
			case MFMY_COL_TEXT:
			case MFMY_COL_BYTES:
			case MFMY_COL_BIT:
				col->cap = fields[c].length + 1;
				if (col->cap < 16)
					col->cap = 16;
				if (col->cap > MFMY_STRING_START)
					col->cap = MFMY_STRING_START;
				col->buf = malloc(col->cap);
				if (col->buf == NULL)
				{
					mysql_free_result(meta);
					mfmysql_oom(res->conn, MF_STEP_FETCH, err);
					return false;
				}
				b->buffer_type = col->kind == MFMY_COL_TEXT ?
					MYSQL_TYPE_STRING : MYSQL_TYPE_BLOB;
				b->buffer = col->buf;
				b->buffer_length = col->cap;
				break;
		}
	}
	mysql_free_result(meta);

	if (mysql_stmt_bind_result(res->st, res->bind))
	{
		mfmysql_stmt_error(res->conn, res->st, MF_STEP_FETCH, err);
		return false;
	}
	return true;
}

/* Room for len more bytes in the arena. */
static bool
mfmysql_arena_reserve(MfResult *res, size_t len)
{
	size_t		need = res->arena_len + len;

	if (need > res->arena_cap)
	{
		size_t		cap = res->arena_cap ? res->arena_cap : 8192;
		char	   *p;

		while (cap < need)
			cap *= 2;
		p = realloc(res->arena, cap);
		if (p == NULL)
			return false;
		res->arena = p;
		res->arena_cap = cap;
	}
	return true;
}

static bool
mfmysql_arena_printf(MfResult *res, size_t *off, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

static bool
mfmysql_arena_printf(MfResult *res, size_t *off, const char *fmt,...)
{
	va_list		ap;
	int			n;

	if (!mfmysql_arena_reserve(res, 128))
		return false;
	va_start(ap, fmt);
	n = vsnprintf(res->arena + res->arena_len, 128, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= 128)
		return false;
	*off = res->arena_len;
	res->arena_len += (size_t) n + 1;
	return true;
}

/*
 * A date-time as PostgreSQL reads it.  The session's time zone is UTC, so
 * DATETIME and TIMESTAMP values alike are marked +00: a local timestamptz
 * reads the instant that was written (the core writes timestamptz in UTC),
 * and a local timestamp ignores the offset.
 */
static bool
mfmysql_store_time(MfResult *res, MfmyCol *col, size_t *off)
{
	const MYSQL_TIME *t = &col->num.t;
	char		frac[16] = "";

	if (t->second_part > 0)
		snprintf(frac, sizeof(frac), ".%06lu", t->second_part);

	switch (col->kind)
	{
		case MFMY_COL_DATE:
			return mfmysql_arena_printf(res, off, "%04u-%02u-%02u",
										t->year, t->month, t->day);
		case MFMY_COL_DATETIME:
			return mfmysql_arena_printf(res, off,
										"%04u-%02u-%02u %02u:%02u:%02u%s+00",
										t->year, t->month, t->day,
										t->hour, t->minute, t->second, frac);
		default:
			return mfmysql_arena_printf(res, off, "%s%02u:%02u:%02u%s",
										t->neg ? "-" : "",
										t->day * 24 + t->hour,
										t->minute, t->second, frac);
	}
}

/* bytes as bytea's hex form */
static bool
mfmysql_store_hex(MfResult *res, const unsigned char *data, size_t len,
				  size_t *off)
{
	static const char digits[] = "0123456789abcdef";
	char	   *p;

	if (!mfmysql_arena_reserve(res, 2 * len + 3))
		return false;
	p = res->arena + res->arena_len;
	*off = res->arena_len;
	*p++ = '\\';
	*p++ = 'x';
	for (size_t i = 0; i < len; i++)
	{
		*p++ = digits[data[i] >> 4];
		*p++ = digits[data[i] & 15];
	}
	*p = '\0';
	res->arena_len += 2 * len + 3;
	return true;
}

/*
 * A BIT(n) value as n binary digits, which is how PostgreSQL's bit varying
 * reads it (and boolean reads BIT(1)'s 0 or 1).
 */
static bool
mfmysql_store_bits(MfResult *res, const unsigned char *data, size_t len,
				   unsigned long width, size_t *off)
{
	char	   *p;

	if (width == 0 || width > 64)
		width = 64;
	if (!mfmysql_arena_reserve(res, width + 1))
		return false;
	p = res->arena + res->arena_len;
	*off = res->arena_len;
	for (unsigned long i = 0; i < width; i++)
	{
		unsigned long bit = width - 1 - i;	/* from the most significant */
		size_t		byte = bit / 8;
		int			v = 0;

		/* data is big-endian: its last byte holds bits 0..7 */
		if (byte < len)
			v = (data[len - 1 - byte] >> (bit % 8)) & 1;
		p[i] = v ? '1' : '0';
	}
	p[width] = '\0';
	res->arena_len += width + 1;
	return true;
}

/* A string value longer than the column's buffer: fetched apart. */
static bool
mfmysql_fetch_long(MfResult *res, int c, MfError *err)
{
	MfConn	   *conn = res->conn;
	MfmyCol    *col = &res->cols[c];
	unsigned long len = col->length;
	MYSQL_BIND	b;

	if (conn->scratch_cap < (unsigned long) len + 1)
	{
		char	   *p = realloc(conn->scratch, (size_t) len + 1);

		if (p == NULL)
		{
			mfmysql_oom(conn, MF_STEP_FETCH, err);
			return false;
		}
		conn->scratch = p;
		conn->scratch_cap = len + 1;
	}
	memset(&b, 0, sizeof(b));
	b.buffer_type = res->bind[c].buffer_type;
	b.buffer = conn->scratch;
	b.buffer_length = len + 1;
	b.length = &col->length;
	b.is_null = &col->is_null;
	if (mysql_stmt_fetch_column(res->st, &b, (unsigned int) c, 0))
	{
		mfmysql_stmt_error(conn, res->st, MF_STEP_FETCH, err);
		return false;
	}
	col->length = len;
	return true;
}

/*
 * Make the column's buffer big enough for values like this one, up to a
 * limit: later rows then come in without a second request.
 */
static void
mfmysql_grow_column(MfResult *res, int c, unsigned long len)
{
	MfmyCol    *col = &res->cols[c];
	unsigned long cap = col->cap;
	char	   *p;

	while (cap < len + 1 && cap < MFMY_STRING_KEEP)
		cap *= 2;
	if (cap > MFMY_STRING_KEEP)
		cap = MFMY_STRING_KEEP;
	if (cap <= col->cap)
		return;
	p = realloc(col->buf, cap);
	if (p == NULL)
		return;
	col->buf = p;
	col->cap = cap;
	res->bind[c].buffer = p;
	res->bind[c].buffer_length = cap;
}

/* One column of the row just fetched, as text in the arena. */
static bool
mfmysql_store_value(MfResult *res, int c, size_t *off, bool *rebind,
					MfError *err)
{
	MfmyCol    *col = &res->cols[c];
	const unsigned char *data;
	size_t		len;
	bool		ok = true;

	*off = MFMY_NULL_OFFSET;
	if (col->is_null)
		return true;

	switch (col->kind)
	{
		case MFMY_COL_INT:
			ok = mfmysql_arena_printf(res, off, "%lld", col->num.i);
			break;
		case MFMY_COL_UINT:
			ok = mfmysql_arena_printf(res, off, "%llu",
									  (unsigned long long) col->num.i);
			break;
		case MFMY_COL_FLOAT:
			/* enough digits to read back the same float */
			ok = mfmysql_arena_printf(res, off, "%.9g", (double) col->num.f);
			break;
		case MFMY_COL_DOUBLE:
			ok = mfmysql_arena_printf(res, off, "%.17g", col->num.d);
			break;
		case MFMY_COL_DATE:
		case MFMY_COL_DATETIME:
			/*
			 * A zero date, or one with a zero part, is no date at all: NULL,
			 * or an error when the server says zero_date 'error'.
			 */
			if (col->num.t.month == 0 || col->num.t.day == 0)
			{
				if (!res->conn->info.zero_date_error)
					return true;
				mf_error_set(err, MF_STEP_FETCH, "22008", 0,
							 "zero date %04u-%02u-%02u in column %d has no PostgreSQL value",
							 col->num.t.year, col->num.t.month, col->num.t.day,
							 c + 1);
				mf_error_copy(err->hint, sizeof(err->hint),
							  "Read it as NULL with the server option zero_date 'null'.");
				return false;
			}
			ok = mfmysql_store_time(res, col, off);
			break;
		case MFMY_COL_TIME:
			ok = mfmysql_store_time(res, col, off);
			break;
		case MFMY_COL_TEXT:
		case MFMY_COL_BYTES:
		case MFMY_COL_BIT:
			data = (const unsigned char *) col->buf;
			len = col->length;
			if (col->error || len > col->cap)
			{
				if (!mfmysql_fetch_long(res, c, err))
					return false;
				data = (const unsigned char *) res->conn->scratch;
				mfmysql_grow_column(res, c, col->length);
				*rebind = true;
			}
			if (col->kind == MFMY_COL_BYTES)
				ok = mfmysql_store_hex(res, data, len, off);
			else if (col->kind == MFMY_COL_BIT)
				ok = mfmysql_store_bits(res, data, len, col->bits, off);
			else if ((ok = mfmysql_arena_reserve(res, len + 1)))
			{
				*off = res->arena_len;
				memcpy(res->arena + res->arena_len, data, len);
				res->arena[res->arena_len + len] = '\0';
				res->arena_len += len + 1;
			}
			break;
	}
	if (!ok)
		mfmysql_oom(res->conn, MF_STEP_FETCH, err);
	return ok;
}

static MfResult *
mfmysql_query(MfConn *conn, const char *sql, int nparams,
			  const char *const *values, const MfTypeClass *classes,
			  int fetch_size, MfError *err)
{
	MfResult   *res;
	MfmyOp		op;
	bool		ok;

	if (!mfmysql_usable(conn, MF_STEP_FETCH, err))
		return NULL;
	res = calloc(1, sizeof(MfResult));
	if (res == NULL)
	{
		mfmysql_oom(conn, MF_STEP_FETCH, err);
		return NULL;
	}
	res->conn = conn;
	mfmysql_link_result(conn, res);
	res->fetch_size = fetch_size > 0 ? fetch_size : MFMY_DEFAULT_FETCH;
	if (!mfmysql_params_init(&res->params, nparams, classes))
	{
		mfmysql_free_result(res);
		mfmysql_oom(conn, MF_STEP_FETCH, err);
		return NULL;
	}
	res->st = mfmysql_prepare_handle(conn, sql, nparams, true, res->fetch_size,
									 MF_STEP_FETCH, err);
	if (res->st == NULL)
	{
		mfmysql_free_result(res);
		return NULL;
	}

	mfmysql_op_start(&op, conn);
	ok = mfmysql_run(&op, res->st, &res->params, values, MF_STEP_FETCH, err);

	/*
	 * Without a cursor (a server that would not open one) the rows are on
	 * the wire already: read them all now, so that the connection is free.
	 */
	if (ok && !(conn->my->server_status & SERVER_STATUS_CURSOR_EXISTS) &&
		mysql_stmt_field_count(res->st) > 0 &&
		mfmysql_stmt_store(&op, res->st) != 0)
	{
		mfmysql_stmt_error(conn, res->st, MF_STEP_FETCH, err);
		ok = false;
	}
	if (mfmysql_op_interrupted(&op, MF_STEP_FETCH, err))
		ok = false;
	if (!ok || !mfmysql_bind_columns(res, err))
	{
		mfmysql_free_result(res);
		return NULL;
	}
	return res;
}

static int
mfmysql_fetch(MfResult *res, MfError *err)
{
	MfConn	   *conn = res->conn;

	res->nrows = 0;
	res->arena_len = 0;
	if (res->at_end)
		return 0;
	if (!mfmysql_usable(conn, MF_STEP_FETCH, err))
		return -1;

	while (res->nrows < res->fetch_size)
	{
		MfmyOp		op;
		int			rc;
		bool		rebind = false;
		size_t	   *row;

		mfmysql_op_start(&op, conn);
		rc = mfmysql_stmt_fetch(&op, res->st);
		if (mfmysql_op_interrupted(&op, MF_STEP_FETCH, err))
		{
			res->at_end = true;
			return -1;
		}
		if (rc == MYSQL_NO_DATA)
		{
			res->at_end = true;
			break;
		}
		if (rc != 0 && rc != MYSQL_DATA_TRUNCATED)
		{
			mfmysql_stmt_error(conn, res->st, MF_STEP_FETCH, err);
			return -1;
		}
		/* room for the row's offsets, grown as rows come */
		if (res->nrows >= res->rows_cap)
		{
			int			cap = res->rows_cap > 0 ? res->rows_cap * 2 : 64;
			size_t	   *p;

			if (cap > res->fetch_size)
				cap = res->fetch_size;
			p = realloc(res->offsets, (size_t) cap *
						(size_t) (res->ncols > 0 ? res->ncols : 1) *
						sizeof(size_t));
			if (p == NULL)
			{
				mfmysql_oom(conn, MF_STEP_FETCH, err);
				return -1;
			}
			res->offsets = p;
			res->rows_cap = cap;
		}
		row = res->offsets + (size_t) res->nrows * res->ncols;
		for (int c = 0; c < res->ncols; c++)
			if (!mfmysql_store_value(res, c, &row[c], &rebind, err))
				return -1;
		if (rebind && mysql_stmt_bind_result(res->st, res->bind))
		{
			mfmysql_stmt_error(conn, res->st, MF_STEP_FETCH, err);
			return -1;
		}
		res->nrows++;
	}
	return res->nrows;
}

static int
mfmysql_ncolumns(MfResult *res)
{
	return res->ncols;
}

static const char *
mfmysql_value(MfResult *res, int row, int col)
{
	size_t		off;

	if (row < 0 || row >= res->nrows || col < 0 || col >= res->ncols)
		return NULL;
	off = res->offsets[(size_t) row * res->ncols + col];
	return off == MFMY_NULL_OFFSET ? NULL : res->arena + off;
}

static void
mfmysql_result_close(MfResult *res)
{
	mfmysql_free_result(res);
}

/* ---------------------------------------------------------------------
 * LOAD DATA LOCAL INFILE: the bulk stream
 *
 * The dialect writes "LOAD DATA LOCAL INFILE ? INTO TABLE ...".  Each LOAD
 * DATA gets a file name of our own in place of the ?, and the handler that
 * mfmysql_open installed serves the held rows under that name, once, while
 * that statement runs.  Any other request of the server (another name, a
 * second request, a request during any other statement) is refused: the
 * server cannot make this process read a file, nor read rows twice.
 *
 * LOCAL implies IGNORE on the server: a duplicate key or a bad value is a
 * warning and the row is skipped or adjusted, since the server cannot stop
 * the client's stream half way.  So a LOAD DATA that ends with a warning
 * (not a note) fails with that warning as its error, and one that stored
 * another number of rows than it was sent fails too; the core then rolls
 * the remote transaction (or savepoint) back, which undoes it.
 * ---------------------------------------------------------------------
 */

static int
mfmysql_infile_init(void **ptr, const char *name, void *userdata)
{
	MfConn	   *conn = userdata;
	MfmyLoad   *ld = &conn->load;

	*ptr = conn;
	if (!ld->armed || name == NULL || strcmp(name, ld->name) != 0)
	{
		snprintf(ld->refusal, sizeof(ld->refusal),
				 "refused the server's request for the local file \"%.200s\": multi_fdw sends only the rows of its own LOAD DATA",
				 name ? name : "");
		return 1;
	}
	ld->armed = false;			/* served once */
	ld->data_pos = 0;
	return 0;
}

static int
mfmysql_infile_read(void *ptr, char *buf, unsigned int len)
{
	MfmyLoad   *ld = &((MfConn *) ptr)->load;
	size_t		n = ld->data_len - ld->data_pos;

	if (n > len)
		n = len;
	memcpy(buf, ld->data + ld->data_pos, n);
	ld->data_pos += n;
	if (n == 0)
		ld->eof = true;
	return (int) n;
}

static void
mfmysql_infile_end(void *ptr)
{
	(void) ptr;
}

static int
mfmysql_infile_error(void *ptr, char *buf, unsigned int len)
{
	MfmyLoad   *ld = &((MfConn *) ptr)->load;

	snprintf(buf, len, "%s", ld->refusal[0] ? ld->refusal :
			 "the local-infile handler failed");
	return MFMY_INFILE_REFUSED;
}

/* Does the server allow LOAD DATA LOCAL (@@local_infile)?  Asked once. */
static bool
mfmysql_copy_available(MfConn *conn)
{
	MfmyLoad   *ld = &conn->load;
	static const char sql[] = "SELECT @@local_infile";

	if (ld->server_allows < 0 && !ld->open && !ld->in_flight &&
		!conn->broken && conn->my != NULL)
	{
		MfmyOp		op;
		MYSQL_RES  *r = NULL;

		mfmysql_op_start(&op, conn);
		ld->server_allows = 0;
		if (mfmysql_real_query(&op, sql, sizeof(sql) - 1) == 0 &&
			(r = mfmysql_store_result(&op)) != NULL)
		{
			MYSQL_ROW	row = mysql_fetch_row(r);

			if (row != NULL && row[0] != NULL && strcmp(row[0], "1") == 0)
				ld->server_allows = 1;
		}
		if (r != NULL)
			mysql_free_result(r);
		if (op.cancelled || op.cut)
			ld->server_allows = -1;	/* ask again next time */
	}
	return ld->server_allows == 1;
}

/* Forget the stream: what is held is dropped. */
static void
mfmysql_load_close(MfConn *conn)
{
	MfmyLoad   *ld = &conn->load;

	ld->open = false;
	ld->armed = false;
	ld->hold_len = 0;
	ld->hold_rows = 0;
	free(ld->tail);
	ld->tail = NULL;
}

/*
 * The first warning of a LOAD DATA that is not a note, as an error; false
 * when there is none.
 */
static bool
mfmysql_load_warning(MfConn *conn, MfError *err)
{
	static const char sql[] = "SHOW WARNINGS";
	MfmyOp		op;
	MYSQL_RES  *r;
	MYSQL_ROW	row;
	bool		found = false;

	mfmysql_op_start(&op, conn);
	if (mfmysql_real_query(&op, sql, sizeof(sql) - 1) != 0 ||
		(r = mfmysql_store_result(&op)) == NULL)
	{
		mfmysql_conn_error(conn, MF_STEP_COPY, err);
		(void) mfmysql_op_interrupted(&op, MF_STEP_COPY, err);
		return true;
	}
	while ((row = mysql_fetch_row(r)) != NULL)
	{
		unsigned long code = 0;

		if (mysql_num_fields(r) < 3 || row[0] == NULL ||
			strcasecmp(row[0], "Note") == 0)
			continue;
		(void) mfmysql_parse_uint(row[1] ? row[1] : "", UINT_MAX, &code);
		mfmysql_error(conn, MF_STEP_COPY, (unsigned int) code, "HY000",
					  row[2], err);
		found = true;
		break;
	}
	mysql_free_result(r);
	if (mfmysql_op_interrupted(&op, MF_STEP_COPY, err))
		return true;
	return found;
}

/* The answer of the LOAD DATA that just ended. */
static bool
mfmysql_load_result(MfConn *conn, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	unsigned long long stored = 0;
	unsigned int warnings = 0;

	if (mfmysql_op_interrupted(&ld->op, MF_STEP_COPY, err))
		return false;
	if (ld->ret == 0)
	{
		/* read before SHOW WARNINGS replaces them */
		stored = mysql_affected_rows(conn->my);
		warnings = mysql_warning_count(conn->my);
	}
	if (ld->ret != 0)
		mfmysql_conn_error(conn, MF_STEP_COPY, err);
	else if (warnings > 0 && mfmysql_load_warning(conn, err))
		;
	else if (stored != (unsigned long long) ld->data_rows)
		mf_error_set(err, MF_STEP_COPY, "XX000", 0,
					 "LOAD DATA stored %llu of the %ld rows it was sent",
					 stored, ld->data_rows);
	else
	{
		ld->rows_done += ld->data_rows;
		return true;
	}
	if (!err->conn_lost)
	{
		long		row = mfmysql_bulk_row(err->message,
										   ld->data_rows > INT_MAX ? INT_MAX :
										   (int) ld->data_rows);

		if (row > 0)
			err->row = ld->rows_done + row;
	}
	return false;
}

/*
 * Carry the LOAD DATA in flight on.  Unless to_end, return as soon as all
 * its rows are written: the server works on them meanwhile.
 */
static bool
mfmysql_load_drive(MfConn *conn, bool to_end, MfError *err)
{
	MfmyLoad   *ld = &conn->load;

	while (ld->status != 0)
	{
		if (!to_end && ld->eof && !ld->op.cancelled && !ld->op.cut &&
			(ld->status & MYSQL_WAIT_READ) && !(ld->status & MYSQL_WAIT_WRITE))
			return true;
		ld->status = mysql_real_query_cont(&ld->ret, conn->my,
										   mfmysql_wait(&ld->op, ld->status));
	}
	ld->in_flight = false;
	ld->armed = false;
	return mfmysql_load_result(conn, err);
}

/* Send the held rows as the next LOAD DATA (none may be in flight). */
static bool
mfmysql_load_start(MfConn *conn, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	char	   *swap = ld->data;
	size_t		swap_cap = ld->data_cap;
	size_t		len;

	ld->data = ld->hold;
	ld->data_cap = ld->hold_cap;
	ld->data_len = ld->hold_len;
	ld->data_rows = ld->hold_rows;
	ld->data_pos = 0;
	ld->hold = swap;
	ld->hold_cap = swap_cap;
	ld->hold_len = 0;
	ld->hold_rows = 0;

	ld->counter++;
	snprintf(ld->name, sizeof(ld->name), "multi_fdw-load-%lu-%lu.tsv",
			 conn->thread_id, ld->counter);
	free(ld->sql);
	len = strlen("LOAD DATA LOCAL INFILE ''") + strlen(ld->name) +
		strlen(ld->tail) + 1;
	ld->sql = malloc(len);
	if (ld->sql == NULL)
	{
		mfmysql_oom(conn, MF_STEP_COPY, err);
		return false;
	}
	snprintf(ld->sql, len, "LOAD DATA LOCAL INFILE '%s'%s", ld->name, ld->tail);

	ld->armed = true;
	ld->eof = false;
	ld->refusal[0] = '\0';
	ld->ret = 1;
	mfmysql_op_start(&ld->op, conn);
	ld->in_flight = true;
	ld->status = mysql_real_query_start(&ld->ret, conn->my, ld->sql,
										(unsigned long) strlen(ld->sql));
	return mfmysql_load_drive(conn, false, err);
}

/* Answer the LOAD DATA in flight, then send the held rows; final: wait. */
static bool
mfmysql_load_flush(MfConn *conn, bool final, MfError *err)
{
	MfmyLoad   *ld = &conn->load;

	if (ld->in_flight && !mfmysql_load_drive(conn, true, err))
		return false;
	if (ld->hold_len > 0 && !mfmysql_load_start(conn, err))
		return false;
	if (final && ld->in_flight && !mfmysql_load_drive(conn, true, err))
		return false;
	return true;
}

/*
 * Whatever state the stream is in, bring the connection back in step: the
 * LOAD DATA in flight is read to its end (its outcome no longer matters:
 * the transaction is being rolled back), the held rows are dropped.
 */
static void
mfmysql_load_settle(MfConn *conn)
{
	MfmyLoad   *ld = &conn->load;

	if (ld->in_flight)
	{
		MfError		ignored;

		mf_error_clear(&ignored);
		if (conn->my == NULL)
			ld->in_flight = false;
		else
			(void) mfmysql_load_drive(conn, true, &ignored);
	}
	mfmysql_load_close(conn);
}

static bool
mfmysql_copy_begin(MfConn *conn, const char *sql, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	size_t		plen = strlen(MFMY_LOAD_PREFIX);

	mf_error_clear(err);
	if (!mfmysql_usable(conn, MF_STEP_COPY, err))
		return false;
	if (strncmp(sql, MFMY_LOAD_PREFIX, plen) != 0)
	{
		mfmysql_fail(conn, err, MF_STEP_COPY, "XX000",
					 "the bulk stream of the mysql transport needs a statement that starts with \""
					 MFMY_LOAD_PREFIX "\"");
		return false;
	}
	if (!mfmysql_copy_available(conn))
	{
		mfmysql_fail(conn, err, MF_STEP_COPY, "0A000",
					 "the remote server does not allow LOAD DATA LOCAL INFILE (its local_infile is OFF)");
		return false;
	}
	ld->tail = strdup(sql + plen);
	if (ld->tail == NULL)
	{
		mfmysql_oom(conn, MF_STEP_COPY, err);
		return false;
	}
	ld->open = true;
	ld->cut_short = false;
	ld->hold_len = 0;
	ld->hold_rows = 0;
	ld->rows_done = 0;
	return true;
}

static bool
mfmysql_copy_send(MfConn *conn, const char *buf, size_t len, MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	const char *p = buf;
	const char *end = buf + len;

	mf_error_clear(err);
	if (!ld->open)
	{
		mfmysql_fail(conn, err, MF_STEP_COPY, "XX000",
					 "no LOAD DATA stream is open");
		return false;
	}
	if (ld->hold_len + len > ld->hold_cap)
	{
		size_t		cap = ld->hold_cap ? ld->hold_cap : MFMY_LOAD_BYTES + 128 * 1024;
		char	   *grown;

		while (cap < ld->hold_len + len)
			cap *= 2;
		grown = realloc(ld->hold, cap);
		if (grown == NULL)
		{
			mfmysql_load_settle(conn);
			mfmysql_oom(conn, MF_STEP_COPY, err);
			return false;
		}
		ld->hold = grown;
		ld->hold_cap = cap;
	}
	memcpy(ld->hold + ld->hold_len, buf, len);
	ld->hold_len += len;
	/* COPY text escapes newlines inside values: each one ends a row */
	while (p < end && (p = memchr(p, '\n', (size_t) (end - p))) != NULL)
	{
		ld->hold_rows++;
		p++;
	}

	if (ld->hold_len >= MFMY_LOAD_BYTES && !mfmysql_load_flush(conn, false, err))
	{
		mfmysql_load_settle(conn);
		return false;
	}
	return true;
}

static bool
mfmysql_copy_end(MfConn *conn, const char *abort_reason, long *rows,
				 MfError *err)
{
	MfmyLoad   *ld = &conn->load;
	bool		ok;

	if (rows)
		*rows = 0;
	mf_error_clear(err);
	if (!ld->open && !ld->in_flight)
	{
		bool		cut = ld->cut_short && abort_reason == NULL;

		ld->cut_short = false;
		if (cut)
			mfmysql_fail(conn, err, MF_STEP_COPY, "XX000",
						 "the LOAD DATA stream was ended by another command before its rows were sent");
		return !cut;
	}
	if (abort_reason != NULL)
	{
		mfmysql_load_settle(conn);
		return true;
	}
	ok = mfmysql_load_flush(conn, true, err);
	if (ok && rows)
		*rows = ld->rows_done;
	mfmysql_load_settle(conn);
	return ok;
}

/* A password_only connection could log in by its password alone. */
static bool
mfmysql_used_password(MfConn *conn)
{
	return conn->info.password_only;
}

/* MariaDB's bulk execution, not plain MySQL: one round trip per call */
static bool
mfmysql_arrays_native(MfConn *conn)
{
	return conn->bulk;
}

/*
 * The cap on a request.  Read before anything is sent for an INSERT, so
 * that the core can cut statements under it; a LOAD DATA is never open
 * then (the core has claimed the connection).
 */
static bool
mfmysql_max_packet(MfConn *conn, size_t *bytes, MfError *err)
{
	if (!mfmysql_usable(conn, MF_STEP_EXECUTE, err) ||
		!mfmysql_read_max_packet(conn, err))
		return false;
	*bytes = conn->max_packet;
	return true;
}

const MfTransport mf_transport_mysql = {
	.name = "mysql",
	.max_packet_setting = "max_allowed_packet",

	.connect = mfmysql_connect,
	.disconnect = mfmysql_disconnect,
	.is_broken = mfmysql_is_broken,
	.exec = mfmysql_exec,
	.begin = mfmysql_begin,
	.commit = mfmysql_commit,
	.rollback = mfmysql_rollback,
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

	.server_version = mfmysql_server_version,
	.used_password = mfmysql_used_password,
	.execute_array = mfmysql_execute_array,
	.arrays_native = mfmysql_arrays_native,
	.copy_available = mfmysql_copy_available,
	.copy_begin = mfmysql_copy_begin,
	.copy_send = mfmysql_copy_send,
	.copy_end = mfmysql_copy_end,
	.max_packet = mfmysql_max_packet,
	.remote_session = mfmysql_remote_session,
	.peer_closed = mfmysql_peer_closed,
};
