/*-------------------------------------------------------------------------
 *
 * kit.h
 *		What the transports share on their side of the wall: the value
 *		codecs for bytea and dates.  (The error record's helpers, the
 *		socket waits, the clocks and the traffic counters are declared in
 *		transport.h, since the core uses them too; they live below.)
 *
 *		kit_error.c		the error record
 *		kit_wait.c		the default socket wait, a bounded wait, clocks
 *		kit_wire.c		what crossed the wire, counted
 *		kit_bytea.c		bytea's text forms to bytes and bytes to hex
 *		kit_datetime.c	dates and timestamps in PostgreSQL's ISO text form
 *		kit_session.c	what a transport keeps to connect again by itself
 *		kit_rows.c		a batch of rows as texts in one buffer (mysql, odbc)
 *
 * No PostgreSQL header: see transport.h.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_KIT_H
#define MF_KIT_H

#include "transport/transport.h"

/* ---------------------------------------------------------------------
 * kit_error.c
 * ---------------------------------------------------------------------
 */

/*
 * Fill err afresh with a failure of the transport's own (no native code):
 * the message as it is, and whether the connection is lost with it.
 */
extern void mf_error_fail(MfError *err, MfStep step, const char *sqlstate,
						  bool conn_lost, const char *message);

/*
 * Fill err with the failure of a stream whose rows went past
 * MF_STREAM_SPILL_MAX while a command needed the link (54000).
 */
extern void mf_error_spill_limit(MfError *err);

/*
 * Is text (len bytes) a value a PostgreSQL text can hold, free of NUL
 * bytes?  false: err says which column (0-based c) held one (22021): a
 * MariaDB or SQL Server string may, and cut there it would be another.
 */
extern bool mf_text_without_nul(const char *text, size_t len, int c,
								MfError *err);
extern void mf_error_text_nul(MfError *err, int c);

/* ---------------------------------------------------------------------
 * kit_rows.c
 * ---------------------------------------------------------------------
 */

#define MF_ROWS_NULL	((size_t) -1)

/* A batch of rows: each value's text in one buffer, by offset. */
typedef struct MfRows
{
	int			nrows;
	int			rows_cap;		/* rows offsets has room for */
	size_t	   *offsets;		/* nrows x ncols: where each value's text
								 * starts, MF_ROWS_NULL for SQL NULL */
	char	   *text;			/* NUL-terminated texts, one after another */
	size_t		text_len;
	size_t		text_cap;
} MfRows;

extern bool mf_rows_reserve(MfRows *rows, int nrows, int ncols);
extern bool mf_rows_reserve_text(MfRows *rows, size_t len);
extern bool mf_rows_add_text(MfRows *rows, const char *s, size_t len,
							 size_t *off);
extern const char *mf_rows_value(const MfRows *rows, int ncols, int row,
								 int col);
extern void mf_rows_clear(MfRows *rows);
extern void mf_rows_free(MfRows *rows);

/* ---------------------------------------------------------------------
 * Lists of live statements and results
 *
 * A connection keeps what it handed out (statements, results) in lists
 * linked through the objects' own prev and next members, so that
 * forget_all and disconnect can free every one.  head is the connection's
 * member (conn->stmts, conn->results); removing an object not in the list
 * leaves the list alone.
 * ---------------------------------------------------------------------
 */
#define MF_LIST_PUSH(head, item) \
	do { \
		(item)->prev = NULL; \
		(item)->next = (head); \
		if ((head) != NULL) \
			(head)->prev = (item); \
		(head) = (item); \
	} while (0)

#define MF_LIST_REMOVE(head, item) \
	do { \
		if ((item)->prev != NULL) \
			(item)->prev->next = (item)->next; \
		else if ((head) == (item)) \
			(head) = (item)->next; \
		if ((item)->next != NULL) \
			(item)->next->prev = (item)->prev; \
		(item)->prev = (item)->next = NULL; \
	} while (0)

/* ---------------------------------------------------------------------
 * kit_session.c
 *
 * A copy of MfConnParams that outlives the connect call, for a transport
 * that replaces a lost link by itself (transport.h's begin).
 * ---------------------------------------------------------------------
 */
typedef struct MfKeptParams
{
	int			n;
	char	  **keys;
	char	  **values;
	bool		password_only;
	MfWireStats *wire;
	int			nsetup;
	char	  **setup;
	char	   *setup_check;
	MfMessageFn on_message;
	void	   *message_arg;
} MfKeptParams;

extern bool mf_params_keep(MfKeptParams *kept, const MfConnParams *params);
extern void mf_params_view(const MfKeptParams *kept, MfConnParams *params);
extern void mf_error_relink_failed(MfError *err, const MfError *why);
extern void mf_params_free(MfKeptParams *kept);
extern bool mf_session_replay(MfConn *conn, const MfTransport *tr,
							  const MfKeptParams *kept, MfError *err);

/* ---------------------------------------------------------------------
 * kit_bytea.c
 * ---------------------------------------------------------------------
 */

/*
 * Decode bytea's text form, hex ("\x" and pairs of digits, white space
 * between pairs allowed) or the escape form (octets as \ooo, a backslash
 * as \\), into out, which has room for cap bytes.  Returns the bytes
 * written, or -1 when the text is malformed or decodes to more than cap
 * bytes.  strlen(text) bytes are always enough.
 */
extern long mf_bytea_decode(const char *text, char *out, size_t cap);

/* The value of a hexadecimal digit, -1 for any other character. */
extern int	mf_hex_value(char c);

/* len bytes as 2 * len lower-case hex digits at dst (no NUL, no "\x") */
extern void mf_hex_encode(char *dst, const unsigned char *src, size_t len);

/* ---------------------------------------------------------------------
 * kit_datetime.c
 * ---------------------------------------------------------------------
 */

typedef struct MfDateTime
{
	int			year;
	int			month;
	int			day;
	int			hour;
	int			minute;
	int			second;
	unsigned long nanos;		/* fraction of the second */
} MfDateTime;

/* "YYYY-MM-DD" at s; *rest is what follows.  false for other forms (BC,
 * infinity). */
extern bool mf_parse_date(const char *s, MfDateTime *dt, const char **rest);

/*
 * "YYYY-MM-DD HH:MM:SS[.f][+HH[:MM[:SS]]]", the whole of s, moved to UTC
 * by its offset when tz (otherwise the offset is ignored); false for other
 * forms and for a year that UTC moves outside 1..9999.
 */
extern bool mf_parse_timestamp(const char *s, bool tz, MfDateTime *dt);

/* "YYYY-MM-DD" into buf; the length, as snprintf's */
extern int	mf_format_date(char *buf, size_t cap, const MfDateTime *dt);

/*
 * "YYYY-MM-DD HH:MM:SS[.ffffff]+00", a timestamp in UTC, into buf; the
 * fraction is in microseconds and left out when zero, with its trailing
 * zeros dropped when trim.  The length, as snprintf's.
 */
extern int	mf_format_timestamp_utc(char *buf, size_t cap,
									const MfDateTime *dt, bool trim);


/* ---------------------------------------------------------------------
 * Counting (MfWireStats of transport.h)
 *
 * A connection keeps the core's MfWireStats pointer, or the kit's sink
 * when the core gave none, so that counting never tests for NULL.
 * ---------------------------------------------------------------------
 */
extern MfWireStats mf_wire_sink;

#define MF_WIRE_OF(params) \
	((params)->wire != NULL ? (params)->wire : &mf_wire_sink)

/* bytes of n text values, NULLs counting nothing */
extern unsigned long long mf_values_bytes(const char *const *values, int n);

/* rows (and their values' bytes) a fetch hands to the core */
extern void mf_wire_count_rows(MfWireStats *wire, MfResult *res, int nrows,
							   int ncols, MfValueFn value);

#endif							/* MF_KIT_H */
