/*-------------------------------------------------------------------------
 *
 * dialect.h
 *		The dialect interface: what multi_fdw says to a remote database.
 *
 * A dialect is SQL grammar and catalog knowledge, nothing more: quoting,
 * literals, the batch INSERT shape, the per-statement limits,
 * transaction and savepoint syntax, the error-code table, what is safe to
 * push down, and how IMPORT FOREIGN SCHEMA reads the remote catalog.  How
 * the SQL travels is the transport's business (transport.h), and so is
 * the style of parameter markers: a dialect writes each marker through
 * mf_append_marker, in the style its caller hands it.
 *
 * Each dialect is one const struct in dialects/, filled with designated
 * initialisers; mf_dialect_check() asserts that the required members are set.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DIALECT_H
#define MF_DIALECT_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/lockoptions.h"
#include "nodes/primnodes.h"

#include "transport/transport.h"			/* MfTypeClass */

/* How a row to update or delete is found again on the remote side. */
typedef enum MfRowIdentity
{
	MF_ROWID_CTID,				/* PostgreSQL's ctid */
	MF_ROWID_KEY				/* the columns marked with key 'true' */
} MfRowIdentity;

/*
 * How ANALYZE asks the remote for a sample (option analyze_sampling), in
 * the order of the option's values.
 */
typedef enum MfSampleMethod
{
	MF_SAMPLE_OFF = 0,			/* read the whole table */
	MF_SAMPLE_AUTO,				/* the dialect's choice for the relation */
	MF_SAMPLE_RANDOM,			/* a random number per row: WHERE random() < f */
	MF_SAMPLE_SYSTEM,			/* whole pages: TABLESAMPLE SYSTEM */
	MF_SAMPLE_BERNOULLI			/* single rows: TABLESAMPLE BERNOULLI */
} MfSampleMethod;

/* One entry of a dialect's table of native error numbers. */
typedef struct MfErrorMap
{
	long		native_code;
	const char *sqlstate;
	bool		conn_lost;		/* the connection is gone: drop it */

	/*
	 * Optional: the entry applies only when the remote's message holds
	 * this text, and then says message instead (the remote's own goes to
	 * the detail), for an error of the dialect's own making whose remote
	 * wording would puzzle (a range guard's overflow).
	 */
	const char *when_message_has;
	const char *message;
} MfErrorMap;

/* What one IMPORT FOREIGN SCHEMA catalog row must hold, in this order. */
enum MfImportColumn
{
	MF_IMPORT_TABLE = 0,		/* remote table name */
	MF_IMPORT_COLUMN,			/* column name, NULL for a table without
								 * columns */
	MF_IMPORT_TYPE,				/* remote type as the remote spells it */
	MF_IMPORT_NOT_NULL,			/* 't' / 'f' (or 1 / 0) */
	MF_IMPORT_DEFAULT,			/* default expression or NULL */
	MF_IMPORT_IS_KEY,			/* part of the primary key: 't' / 'f' */
	MF_IMPORT_GENERATED,		/* optional: the default is a generation
								 * expression ('t' / 'f') */
	MF_IMPORT_TEXT_PUSHDOWN,	/* optional: the remote compares this text
								 * column byte for byte ('t' / 'f') */
	MF_IMPORT_COLLATION,		/* optional: the column's collation as a
								 * local COLLATE clause names it, NULL when
								 * it is its type's own */
	MF_IMPORT_SUM_PUSHDOWN,		/* optional: the remote column is an exact
								 * decimal whose declared size the local
								 * type reads ('t' / 'f') */
	MF_IMPORT_TEXT_BYTES,		/* optional: the remote column holds
								 * character strings, read as they are
								 * ('t' / 'f') */
	MF_IMPORT_CHARSET,			/* optional: the character set of such a
								 * column, or NULL */
	MF_IMPORT_NCOLUMNS
};

/* IMPORT FOREIGN SCHEMA's filter, as the core hands it to the dialect. */
typedef struct MfImportFilter
{
	const char *remote_schema;
	int			list_type;		/* ImportForeignSchemaType */
	List	   *table_names;	/* char *, for LIMIT TO / EXCEPT */
} MfImportFilter;

/*
 * One aggregate a dialect ships: PostgreSQL's built-in aggregate of that
 * name and argument type is computed remotely as the remote spells it.
 * An entry is there only where the remote's result is PostgreSQL's, value
 * and type alike (PostgreSQL's sum(int4) is a bigint, its avg a numeric of
 * full scale; MySQL's avg of integers has 4 decimals, so it is not there).
 */
typedef struct MfAggregate
{
	const char *name;			/* PostgreSQL's name */
	Oid			argtype;		/* its argument's type; InvalidOid: any type
								 * the dialect ships (count(*) has none) */
	const char *remote;			/* the remote's name for it */
	bool		distinct;		/* agg(DISTINCT x) too, where the remote
								 * tells values apart as we do */
	bool		orders;			/* it compares its argument by < (min,
								 * max): only where the remote orders the
								 * argument's values as we do */
	const char *arg_cast;		/* the remote type the argument is cast to
								 * first, so that the result has room
								 * (SQL Server's SUM of an int is an int
								 * that overflows); NULL: none */
	bool		sum_count;		/* avg: the remote's exact sum (remote: its
								 * name for SUM) and COUNT of the argument
								 * are fetched, and the division is ours,
								 * as PostgreSQL's avg of integers
								 * divides its sum by its count
								 * (numeric_div).  Only as a whole output of
								 * the grouping: never inside an expression,
								 * a HAVING or a sort the remote computes */
	bool		exact_decimal;	/* sum of numeric: only over columns with
								 * sum_pushdown, where the argument's size
								 * is known and the remote's sum has room
								 * for it (deparse_decimal.c) */
} MfAggregate;

/* Where a remote ORDER BY puts NULLs, and how it is told otherwise. */
typedef enum MfNullsOrder
{
	MF_NULLS_UNKNOWN = 0,		/* not proven: no sort is shipped */
	MF_NULLS_CLAUSE,			/* ASC/DESC NULLS FIRST/LAST, as PostgreSQL */
	MF_NULLS_LOW,				/* NULLs sort below every value and there is
								 * no NULLS clause (MySQL, SQL Server): a key
								 * "x IS NULL" goes first where that is not
								 * what we want */
	MF_NULLS_KEY				/* a key "x IS NULL" goes before every x, so
								 * that the remote's own placement never
								 * matters (Oracle, whose NULLS clause and
								 * high NULLs the MariaDB stand-in lacks) */
} MfNullsOrder;

/* A join type in MfDialect.join_types; inner, left and right are common. */
#define MF_JOIN_BIT(jointype)	(1U << (jointype))
#define MF_JOINS_COMMON \
	(MF_JOIN_BIT(JOIN_INNER) | MF_JOIN_BIT(JOIN_LEFT) | MF_JOIN_BIT(JOIN_RIGHT))

typedef struct MfDialect
{
	const char *name;
	const char *default_transport;

	/* ---- required ---- */

	/* Append ident quoted as an identifier. */
	void		(*quote_ident) (StringInfo buf, const char *ident);

	/* Append str as a string literal. */
	void		(*quote_literal) (StringInfo buf, const char *str);

	/*
	 * Append a whole INSERT for nrows rows of the given (already quoted)
	 * columns into the (already quoted and qualified) table, with one
	 * marker per value in the given style, numbered from 1 row by row in
	 * the order they appear.  do_nothing: ON CONFLICT DO NOTHING or the
	 * dialect's equivalent.  ncols may be 0 (DEFAULT VALUES, then nrows is
	 * 1).
	 */
	void		(*deparse_insert) (StringInfo buf, const char *table,
								   const char *const *columns, int ncols,
								   int nrows, bool do_nothing,
								   MfMarkerStyle markers);

	/*
	 * Append the statement that opens a bulk stream of rows, in PostgreSQL's
	 * COPY text format, into the given columns of the table (COPY ... FROM
	 * STDIN; MySQL's LOAD DATA LOCAL INFILE, whose file name is written as
	 * a bare ? that the transport replaces with the name its handler
	 * serves).  classes[i] is the class of column i, for dialects that
	 * convert a value on the way in (MySQL: booleans, bytea, bit strings).
	 * NULL: the dialect has no such statement.
	 */
	void		(*deparse_copy) (StringInfo buf, const char *table,
								 const char *const *columns,
								 const MfTypeClass *classes, int ncols);

	/* limits a statement must respect; 0 means none */
	int			max_params;		/* bind parameters per statement */
	int			max_rows_per_insert;	/* rows in one VALUES list */
	int			max_in_list;	/* values in one IN list; 0: no limit of its
								 * own */
	int			max_ident_bytes;

	/* transactions: printf formats taking the savepoint level */
	const char *savepoint_fmt;
	const char *release_savepoint_fmt;
	const char *rollback_to_savepoint_fmt;

	/*
	 * Statements run once on every new connection so that values read and
	 * sent mean the same on both sides (time zone, date style, strict
	 * modes, search path).  NULL: none.
	 */
	const char *session_setup_sql;

	/*
	 * A query run after the server's session_sql (which replaces
	 * session_setup_sql): one row, one text column naming what the session
	 * now lacks of what this dialect relies on, NULL or empty when nothing.
	 * NULL: the dialect has nothing to check.
	 */
	const char *session_check_sql;

	/*
	 * A query of one row and one column: NULL while the session is outside
	 * any transaction, else what names the transaction it is in ('1' where
	 * the remote only says that one is open).  Asked on connecting, and by
	 * multi_fdw_exec before and after a user's statement once the
	 * transaction has written, so that a procedure or dynamic SQL that ends
	 * the remote transaction, or ends it and begins another (which a
	 * transport's own word on the state does not show), is found
	 * (exec_guard.c).  Every name in it schema-qualified where the remote
	 * resolves names through the user's own schema first.  NULL: none.
	 */
	const char *xact_open_sql;

	/*
	 * Statement that opens a remote transaction with the local one's
	 * characteristics: serializable, read_only (a write fails remotely
	 * too), deferrable (a serializable read-only transaction waits for a
	 * snapshot that cannot fail).  NULL (the function, or its result): the
	 * transport's own way (autocommit off).
	 */
	const char *(*begin_sql) (bool serializable, bool read_only,
							  bool deferrable);

	/*
	 * Statement that makes an open remote transaction read-only, for a
	 * local one that became read-only after it opened (SET TRANSACTION
	 * READ ONLY); it goes with the next request.  NULL: the remote cannot
	 * change an open transaction's access mode.
	 */
	const char *read_only_sql;

	/*
	 * Two-phase commit (twophase.c): printf formats taking a transaction
	 * id made of [a-z0-9_].  prepare_fmt NULL: the remote cannot prepare.
	 * With xa_start_fmt the remote transaction is opened under the id
	 * (MySQL's XA) and ended by xa_end_fmt before it is prepared, or
	 * committed in one phase by xa_commit_one_phase_fmt; rolled back, in
	 * either state, by rollback_prepared_fmt.  list_prepared_sql lists the
	 * remote's prepared transactions, the id in column list_prepared_col;
	 * resolve_setup_sql readies a new session to end another session's
	 * prepared transaction.
	 */
	const char *prepare_fmt;
	const char *commit_prepared_fmt;
	const char *rollback_prepared_fmt;
	const char *xa_start_fmt;
	const char *xa_end_fmt;
	const char *xa_commit_one_phase_fmt;
	const char *list_prepared_sql;
	int			list_prepared_col;
	const char *resolve_setup_sql;
	const char *prepared_missing_sqlstate;	/* "no such prepared transaction" */

	/*
	 * Append a row limit to a SELECT (LIMIT n, FETCH FIRST n ROWS ONLY).
	 * ordered: the SELECT already ends with an ORDER BY (T-SQL's OFFSET
	 * needs one, and takes no second one).
	 */
	void		(*deparse_limit) (StringInfo buf, int64 count, bool ordered);

	/*
	 * Append LIMIT count OFFSET offset after a remote ORDER BY, GROUP BY or
	 * WHERE (count < 0: no limit; offset 0: none), replacing the local Limit
	 * node; ordered as for deparse_limit.  NULL: only deparse_limit's cap
	 * is sent, under the local Limit.
	 */
	void		(*deparse_limit_offset) (StringInfo buf, int64 count,
										 int64 offset, bool ordered);

	/*
	 * Upper relations of one foreign table (upper.c): the aggregates
	 * shipped (none: no aggregation is), whether FILTER (WHERE ...) may go
	 * with them, and how NULLs sort in a remote ORDER BY.
	 */
	const MfAggregate *aggregates;
	int			n_aggregates;
	bool		aggregate_filter;
	MfNullsOrder nulls_order;

	/*
	 * Joins of its foreign tables sent whole (join.c): a set of
	 * MF_JOIN_BIT(JOIN_INNER) and the like, 0 for none.  Semi and anti
	 * joins are written with [NOT] EXISTS.
	 */
	unsigned	join_types;

	/*
	 * A whole-row reference to a joined table may go as the remote's
	 * ROW(its columns): the remote has row values whose text form is
	 * PostgreSQL's record form, (1,"a b",), which record_in reads back.
	 * Without it a join whose output holds a whole row is made here.
	 */
	bool		whole_row;

	/*
	 * The key that places NULLs is written CASE WHEN x IS NULL THEN 1 ELSE
	 * 0 END: the remote has no boolean values to sort by (T-SQL, Oracle).
	 */
	bool		nulls_key_case;

	/*
	 * The remote type a string column of ours (text, varchar, char(n) and
	 * their arrays; the base type of a domain) is written cast to where the
	 * remote compares it other than with a literal it can type: an operand
	 * of <, <=, >, >= and the pattern operators, a sort key, min and max, a
	 * dependent join's keys, beside a parameter.  The remote then compares
	 * the values' text as we do whatever the column's type there (a text
	 * column declared over a remote enum would sort by the enum's positions,
	 * and has no operator for a text parameter).  NULL (the function, or
	 * its result): written as it is (the dialect ships text ordering only
	 * where the column says its remote type orders as ours).
	 */
	const char *(*compare_cast) (Oid basetype);

	/*
	 * Only BEGIN ATOMIC (a SQL-standard function body) opens a block that
	 * an END closes (PostgreSQL, where END alone commits); elsewhere a
	 * BEGIN inside a statement opens one (PL/SQL, T-SQL, MySQL's compound
	 * statements).  Read by the guard of multi_fdw_exec (exec_guard.c).
	 */
	bool		begin_atomic_blocks;

	/*
	 * The type a column of ours of this (base) type is selected cast to:
	 * the values then come as the remote's own text, whatever the driver
	 * would have made of them.  NULL (the function, or its result): as it
	 * is.  Set only in the dialect that datetimes_as_text returns.
	 */
	const char *(*select_as_text) (Oid basetype);

	/*
	 * The same dialect, for a transport whose driver converts date and
	 * timestamp values itself (the transport's converts_datetimes): one
	 * whose select_as_text has the remote send them as text.  NULL: the
	 * dialect's values need no such care.
	 */
	const struct MfDialect *(*datetimes_as_text) (void);

	/*
	 * GROUP BY names the grouping expressions, not their positions in the
	 * select list (T-SQL has no positions; Oracle only behind
	 * group_by_position_enabled, off by default).  A grouping key must
	 * then hold a column: T-SQL refuses constants there.
	 */
	bool		group_by_expressions;

	/*
	 * With text_equality_by_option: a text_pushdown column may also be
	 * grouped, counted DISTINCT, sorted and given to min/max (MySQL's
	 * byte-wise collations without pad space).  Unset: text stays local
	 * after the scan (SQL Server compares 'a' = 'a ' under every collation).
	 */
	bool		text_grouping_by_option;

	/* native error numbers, for transports that give no SQLSTATE */
	const MfErrorMap *error_map;
	int			n_error_map;

	/* How UPDATE and DELETE find a row. */
	MfRowIdentity row_identity;

	/*
	 * MF_ROWID_CTID: a query taking one parameter, the quoted remote name
	 * of a table, that returns one row whose one value is "t" when the
	 * relation has rows with a ctid of their own (not a view), and no row
	 * when there is no such relation (the statement's own error says so).
	 * A printf format taking one %s, the parameter's marker, which the
	 * query uses once (so that it reads the same in every marker style).
	 */
	const char *ctid_check_fmt;

	/*
	 * MF_ROWID_CTID: a query (a format as ctid_check_fmt) taking the quoted
	 * remote name of a table that returns a row for each plain column
	 * partitioning it or one of its partitions: its name and its type as
	 * format_type() spells it (a key is used only where the local column
	 * has that very type, so that its value is the remote's exactly).  A row found again by (tableoid, ctid) is looked
	 * for in every partition; its old key values let the remote prune to
	 * the one partition that holds it.  NULL: no partitioning.
	 */
	const char *partition_key_fmt;

	/*
	 * Around the statements so pruned: the remote's plan cache would plan
	 * each row anew (a custom plan prunes at planning, and the generic plan
	 * is priced as if it visited every partition), when the generic plan
	 * prunes as it starts.  pruned_begin_sql, sent before the statement's
	 * first row, returns one row whose first value is the setting it
	 * replaced; pruned_end_fmt, after the last row, puts it back (its %s:
	 * that value, a word of letters and underscores).  Both last as long
	 * as the remote transaction at most.
	 */
	const char *pruned_begin_sql;
	const char *pruned_end_fmt;

	/*
	 * A query taking one parameter, the quoted remote name of a table, that
	 * returns one row whose one value is "t" when the remote may store
	 * fewer rows than an INSERT sends without an error (a BEFORE ROW
	 * trigger that returns NULL, a rule).  The streamed methods count rows
	 * before such a remote has run: auto then sends multi-row statements,
	 * whose counts are the remote's.  A format as ctid_check_fmt.  NULL:
	 * the remote cannot skip rows.
	 */
	const char *insert_skip_check_fmt;

	/*
	 * The statements that can carry RETURNING, so that a local WITH CHECK
	 * OPTION, AFTER ROW trigger or RETURNING sees the row as the remote
	 * stored it (its triggers and defaults may change it): every one when
	 * supports_returning is set; otherwise those for which returning_on
	 * says yes, given the server's version string (the transport's
	 * server_version; NULL while planning, when it is not known: can some
	 * server of the dialect?).  Where neither does, the core reads the row
	 * again by its key columns in the same remote transaction
	 * (stored_row.c).  do_nothing: the INSERT skips duplicates.
	 */
	bool		supports_returning;
	bool		(*returning_on) (CmdType operation, bool do_nothing,
								 const char *server_version);

	/*
	 * That re-read after an INSERT: the remote's expression for the key
	 * value it generated for the row just inserted on this session, which
	 * stands for a key column sent as NULL ("LAST_INSERT_ID()").  NULL:
	 * such a row cannot be found again.
	 */
	const char *generated_key_sql;
	bool		supports_do_nothing;	/* INSERT ... ON CONFLICT DO NOTHING */
	bool		supports_arrays;	/* x op ANY (ARRAY[...]) may be shipped */
	/*
	 * A correlated scalar or EXISTS subquery may be written inside a
	 * condition, its columns qualified, the outer ones by an alias
	 * (deparse_expr.c, mf_deparse_subplan).
	 */
	bool		nested_subqueries;

	/*
	 * That nested form of a rescanned scan may be run for many sets of its
	 * parameters in one statement, through arrays and a lateral join
	 * (deparse_keys.c, mf_deparse_keyed; exec/read_ahead.c).
	 */
	bool		keyed_rescans;

	/*
	 * A query whose relations are all on one server of the dialect, and
	 * every part of which may be sent, goes whole (plan/whole_query.c,
	 * deparse/deparse_query.c): derived tables, subqueries, semi and anti
	 * joins as EXISTS, GROUP BY, HAVING, ORDER BY, LIMIT.
	 */
	bool		whole_queries;
	bool		supports_row_in;	/* (a, b) IN ((v1, v2), ...) */
	bool		boolean_conditions; /* a boolean column may stand alone as a
									 * condition (WHERE flag) */

	/*
	 * The remote's floating-point columns store -0 as 0 (MySQL, MariaDB):
	 * a negative zero written there is refused rather than changed.
	 */
	bool		no_negative_zero;

	/*
	 * Text comparisons depend on the remote collation (case, accents,
	 * trailing spaces), so operator_shippable refuses them.  When this is
	 * set, = and <> on a text column that carries the column option
	 * text_pushdown 'true' are shipped anyway: IMPORT sets it where the
	 * remote collation compares byte for byte, and a user may set it.
	 */
	bool		text_equality_by_option;

	/*
	 * = and <> on text between a column of ours marked text_bytes (the
	 * remote column holds character strings, which the transport reads as
	 * they are) and a constant or parameter, compared byte for byte
	 * whatever the remote column's collation, as a deterministic collation
	 * compares here: each operand is written through text_bytes_fmt (one
	 * %s, the operand), or for character(n), which compares without its
	 * trailing spaces, text_trimmed_bytes_fmt.  NULL: such a comparison is
	 * shipped only over text_pushdown columns.
	 */
	const char *text_bytes_fmt;
	const char *text_trimmed_bytes_fmt;

	/*
	 * A character(n) column of ours marked text_bytes grouped as we group it, by its
	 * characters without trailing spaces, whatever its remote collation:
	 * the select list's entry of a GROUP BY key, through this format (one
	 * %s, the column), which the grouping then names.  NULL: such a key is
	 * grouped remotely only where text_grouping_by_option says.
	 */
	const char *group_trimmed_fmt;

	/*
	 * LIKE and NOT LIKE of a text column of ours marked text_bytes with a
	 * constant pattern,
	 * matched character by character, case and trailing spaces counting,
	 * with backslash as the escape, whatever the column's collation: the
	 * column goes through this format (one %s).  NULL: patterns go only
	 * where operator_shippable says.
	 */
	const char *text_like_fmt;
	const char *text_like_escape;	/* after the pattern: backslash is the
									 * escape, in every sql_mode */

	/*
	 * The operand of each of the four formats above goes first through
	 * text_convert_fmt (one %s; NULL: as it is), unless it is a column
	 * whose option remote_charset names text_native_charset, the character
	 * set text_convert_fmt converts to: that one goes through
	 * text_native_fmt (NULL: as it is), which should fail on a column in
	 * another set.
	 */
	const char *text_convert_fmt;
	const char *text_native_fmt;
	const char *text_native_charset;

	/*
	 * Append the clause that locks the rows a SELECT reads, for a lock
	 * strength (never LCS_NONE) and wait policy: " FOR SHARE NOWAIT".
	 * Rows about to be updated or deleted are read with LCS_FORUPDATE and
	 * LockWaitBlock.  Returns false when the remote has no way to say it;
	 * the core then refuses a query that asked for it.  NULL: the remote
	 * has no lock clause at all, rows to be updated are read unlocked.
	 */
	bool		(*deparse_lock) (StringInfo buf, LockClauseStrength strength,
								 LockWaitPolicy wait);

	/*
	 * Append a TRUNCATE of the given (quoted and qualified) tables, with
	 * RESTART IDENTITY (restart_seqs) and CASCADE as asked.  Returns NULL,
	 * or the words of TRUNCATE the remote has no equivalent for ("CASCADE"),
	 * which the core refuses before anything is sent.  NULL member: the
	 * remote cannot truncate.
	 */
	const char *(*deparse_truncate) (StringInfo buf, const char *const *tables,
									 int ntables, bool restart_seqs,
									 bool cascade);
	int			truncate_max_tables;	/* tables in one TRUNCATE; 0: any */

	/*
	 * TRUNCATE is DDL that commits the remote transaction it runs in
	 * (MySQL, Oracle): it cannot be rolled back, nor run after other work
	 * of the same remote transaction without committing that too.
	 */
	bool		truncate_commits;

	/*
	 * use_remote_estimate: put before a SELECT, asks the remote for its
	 * plan ("EXPLAIN "); parse_explain reads the plan's first row (rows,
	 * width, startup and total cost), false when it cannot.  NULL: the
	 * remote gives no estimate that the planner could use.
	 */
	const char *explain_prefix;
	bool		(*parse_explain) (const char *line, double *rows, int *width,
								  double *startup, double *total);

	/*
	 * ANALYZE's remote sample.  sample_estimate_fmt (a format whose two
	 * %s are the markers) takes two parameters,
	 * the remote schema (NULL: the connection's own) and table names as
	 * stored, and returns one row: the remote's estimate of the table's
	 * row count (negative or NULL when it has none) and 't' when the
	 * relation may be sampled by pages or rows (TABLESAMPLE: a table, not
	 * a view).  deparse_sample appends, to a SELECT with no WHERE, the
	 * clause that keeps about fraction (0 to 1) of the rows by the method
	 * (never OFF or AUTO), and returns false when the remote has no exact
	 * equivalent.  sample_auto is what auto means where the relation may
	 * be sampled; elsewhere auto means random, or off when random is not
	 * possible.  NULL estimate: ANALYZE always reads the whole table.
	 */
	const char *sample_estimate_fmt;
	bool		(*deparse_sample) (StringInfo buf, MfSampleMethod method,
								   double fraction);
	MfSampleMethod sample_auto;

	/*
	 * ANALYZE from the remote's own statistics (option restore_stats,
	 * exec/analyze_import.c).  stats_import_fmt (a format whose two %s are
	 * the markers) takes the remote schema and table names as stored and
	 * returns a row per remote column, in this order: its name, its type's
	 * schema and name, the table's row count (negative or NULL when the
	 * remote has none), whether the column has statistics, then, as
	 * PostgreSQL's pg_stats gives them, in text: null_frac, avg_width,
	 * n_distinct, most_common_vals, most_common_freqs, histogram_bounds
	 * and correlation; last, whether the relation is anything but a
	 * table or materialized view without children (partitioned, a
	 * foreign table, a view).  stats_readable_sql, sent first, returns 't' when the
	 * remote user may read those statistics (and so the import statement
	 * cannot fail for want of a privilege).  NULL: the remote's statistics
	 * cannot be read, and ANALYZE samples.
	 */
	const char *stats_readable_sql;
	const char *stats_import_fmt;

	/*
	 * A foreign table without a schema_name option names the remote table
	 * by the local schema's name (postgres_fdw's rule, needed when the
	 * remote search_path is pg_catalog); otherwise it stays unqualified and
	 * the connection's database decides.
	 */
	bool		default_schema_is_local;

	/* ---- shippability ---- */

	/*
	 * The server option extensions may name PostgreSQL extensions that the
	 * remote has too: their immutable functions and operators, and their
	 * types, are then shipped, by qualified names (postgres only).
	 */
	bool		extension_objects;

	/* May a constant or parameter of this type be sent? */
	bool		(*type_shippable) (Oid typid);

	/*
	 * May this constant (PostgreSQL's text form, never NULL) be written as a
	 * literal?  NULL member: yes.  Dialects without NaN or infinities say no
	 * to them, so the condition is checked locally instead.
	 */
	bool		(*const_shippable) (Oid typid, const char *value);

	/*
	 * May this built-in operator be evaluated remotely with the same
	 * result?  opname is the operator's name, the types are its inputs
	 * (InvalidOid for a prefix operator's left input), inputcollid its
	 * collation.
	 */
	/*
	 * x % 0 is NULL there (MySQL), an error here: the core ships % only
	 * with a constant divisor other than zero, whatever operator_shippable
	 * says.
	 */
	bool		zero_divisor_gives_null;
	bool		(*operator_shippable) (const char *opname, Oid left, Oid right,
									   Oid inputcollid);

	/*
	 * May this built-in immutable function be evaluated remotely, called
	 * by its name in pg_catalog, with the same result for every argument
	 * (deparse_ship.c)?  funcid is ours; NULL member: no built-in function
	 * is shipped (an extension's listed in the server's extensions option
	 * still is).
	 */
	bool		(*function_shippable) (Oid funcid);

	/*
	 * May this built-in immutable cast of one argument be evaluated
	 * remotely, written as the value followed by cast_param, with the same
	 * result for every value?  NULL member: only the widening of integers
	 * (deparse.c, mf_is_widening_cast) where there is a cast_param.
	 */
	bool		(*cast_shippable) (Oid source, Oid target);

	/* CASE, COALESCE and NULLIF are the remote's and compute as ours */
	bool		conditional_expressions;

	/*
	 * Integer arithmetic is wider there (MySQL computes in 64 bits), so our
	 * int2 and int4 + - * overflow where the remote's does not.  Non-NULL:
	 * such an operation is shipped anyway, inside a guard that gives its
	 * value when it lies in [min, max] (our result type's range) and fails
	 * with an overflow error otherwise.  The guard is pieces of text with
	 * the operation written between each two (written anew each time, so
	 * that a parameter in it gets its own marker): piece i, or NULL after
	 * the last.  Operands that need a guard themselves stay local, so the
	 * text cannot grow with the nesting.
	 */
	const char *(*range_guard_piece) (int i, int64 min, int64 max);

	/*
	 * The remote's exact decimals (DECIMAL, NUMBER) hold at most this many
	 * digits in all, and this many after the point, and cut a result that
	 * has more without an error.  Numeric arithmetic is then shipped only
	 * where each step's size is known and fits, and a numeric constant
	 * only where it fits (deparse_decimal.c).  0: no limit (PostgreSQL).
	 */
	int			decimal_max_digits;
	int			decimal_max_scale;

	/*
	 * Append a constant's value as a literal; value is PostgreSQL's text
	 * form of a non-null constant.  NULL member: quote_literal, with
	 * numbers and booleans bare.
	 */
	void		(*deparse_const) (StringInfo buf, Oid typid, int32 typmod,
								  const char *value);

	/*
	 * The same, for a constant that is one operand of a binary operator
	 * whose other operand is a plain column of the scanned table, of the
	 * same local type: the remote may resolve the constant's type from
	 * its column's.  NULL member: deparse_const.
	 */
	void		(*deparse_const_beside_column) (StringInfo buf, Oid typid,
												int32 typmod,
												const char *value);

	/*
	 * Append what follows a parameter's marker so that the remote reads
	 * the value as the given type (the postgres dialect casts it:
	 * $1::integer).  NULL member: the marker alone.
	 */
	void		(*cast_param) (StringInfo buf, Oid typid, int32 typmod);

	/*
	 * Append a value of the given type that the remote's planner cannot
	 * know, in place of a parameter's marker, for asking the remote to
	 * estimate a query with parameters (plan/param_path.c).  NULL member:
	 * no parameterized estimate, hence no parameterized paths.
	 */
	void		(*deparse_unknown_value) (StringInfo buf, Oid typid,
										  int32 typmod);

	/* ---- IMPORT FOREIGN SCHEMA ---- */

	/*
	 * Append the catalog query; it returns the columns of enum
	 * MfImportColumn, ordered by table then column position.
	 */
	void		(*import_query) (StringInfo buf, const MfImportFilter *filter);

	/*
	 * The query returns one row with a NULL table name for a schema that
	 * exists but has no table to import, so that no row at all means the
	 * schema is missing.
	 */
	bool		import_reports_schema;

	/* Local type for a remote type name, palloc'd; NULL: not importable. */
	char	   *(*map_type) (const char *remote_type);

	/* May this remote default expression be declared locally? */
	bool		(*default_importable) (const char *remote_default);
} MfDialect;

/* the dialects, in dialects/ */
extern const MfDialect mf_dialect_postgres;
extern const MfDialect mf_dialect_mysql;
extern const MfDialect mf_dialect_sqlserver;
extern const MfDialect mf_dialect_oracle;


#endif							/* MF_DIALECT_H */
