/*-------------------------------------------------------------------------
 *
 * buffer.c
 *		The shared buffering core: rows for one target relation are held
 *		and sent in as few statements as the remote allows.
 *
 * Four ways out, chosen by mf_resolve_insert_method:
 *
 * values	Rows are held as text and sent as one multi-row INSERT per
 *			batch.  A statement carries at most rows_per_stmt rows: the
 *			user's batch_size, capped by the dialect's parameters per
 *			statement divided by the column count and by its rows per
 *			VALUES list.  Statements are generated for N rows by the dialect
 *			and prepared once: one for a full batch, one for the remainder
 *			(re-prepared only when the remainder's size changes).
 *
 * pipeline	The same statements, sent without waiting: up to pipeline_depth
 *			are in flight at once, their results read as they come, and
 *			mf_buffer_sync waits for the rest (the executor's batch holds
 *			pipeline_depth statements' worth of rows, so one call pays one
 *			round trip).  The transport's pipeline (libpq's pipeline mode)
 *			is the connection's stream while it is open.
 *
 * array	A one-row INSERT prepared once and run for all the held rows in
 *			one call, with the transport's parameter arrays (MariaDB's bulk
 *			execution, ODBC's SQL_ATTR_PARAMSET_SIZE): no statement of
 *			thousands of placeholders to parse, no placeholder cap.  A call
 *			waits for its answer, so it carries batch_size × pipeline_depth
 *			rows: the round trip is paid that rarely.
 *
 * copy		Rows are encoded straight into COPY text format and streamed
 *			into one COPY ... FROM STDIN that stays open across batches of
 *			the same statement, in chunks of MF_COPY_CHUNK bytes.  The COPY
 *			ends with the statement, or earlier when anyone else needs the
 *			connection (this buffer is the connection's stream owner while
 *			it is open).  The remote reports errors when the COPY ends, with
 *			the line that failed; it is mapped back to the statement's row.
 *
 * batch_bytes caps what is held either way: once the held rows reach it
 * they are sent, whatever their number.  The text of held rows lives in
 * buf_cxt, reset after every flush.
 *
 * A remote that drops the session for a request over its cap (MySQL's
 * max_allowed_packet, whatever batch_bytes says) gets the held rows in as
 * many statements as the cap needs, and a row that cannot fit is refused
 * before anything of it is sent.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/tuptable.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "exec/exec.h"

/* bytes of COPY data handed to the transport at once */
#define MF_COPY_CHUNK	(64 * 1024)

static void mf_copy_finish_cb(void *arg);

/*
 * Who this buffer is to the connection: an open COPY is owned by the buffer,
 * an open pipeline by its MfPipeline.  Claiming the connection as someone
 * else would end our own stream.
 */
static inline void *
mf_buffer_owner(MfInsertBuffer *buf)
{
	return buf->method == MF_INSERT_PIPELINE ? (void *) &buf->pipeline : (void *) buf;
}

int
mf_rows_per_statement(const MfDialect *dialect, const MfTransport *transport,
					  int ncols, int batch_size)
{
	int			rows = Max(batch_size, 1);
	int			max_params = mf_max_params(dialect, transport);

	if (ncols == 0)
		return 1;				/* DEFAULT VALUES inserts one row */
	if (max_params > 0)
		rows = Min(rows, max_params / ncols);
	if (dialect->max_rows_per_insert > 0)
		rows = Min(rows, dialect->max_rows_per_insert);
	return Max(rows, 1);
}

/* What auto takes when the rows cannot be streamed. */
static MfInsertMethod
mf_auto_without_copy(const MfOptions *opts, int ncols)
{
	if (opts->transport->pipeline_begin != NULL)
		return MF_INSERT_PIPELINE;
	if (opts->transport->execute_array != NULL && ncols > 0)
		return MF_INSERT_ARRAY;
	return MF_INSERT_VALUES;
}

/*
 * The method auto chose, corrected by what the connection knows: a server
 * that refuses the stream (MySQL without local_infile) gets what auto takes
 * without it, and one that would run parameter arrays row by row (MySQL
 * has no bulk execution) gets multi-row statements.  A method the user
 * named is kept, and fails where it cannot work.
 */
/*
 * May the remote table behind rel store fewer rows than it is sent, with no
 * error?  Asked once per remote transaction (the dialect's
 * insert_skip_check_fmt; remote_facts.c says when it is asked again).
 * Asking ends any stream open on the connection.
 */
bool
mf_remote_may_skip_rows(MfConnEntry *entry, Relation rel)
{
	const MfDialect *dialect = mf_conn_dialect(entry);
	StringInfoData name;
	char	   *query;
	bool		skips = false;

	if (dialect->insert_skip_check_fmt == NULL)
		return false;
	initStringInfo(&name);
	mf_deparse_relation(&name, rel, dialect);
	if (mf_conn_remembered(entry, dialect->insert_skip_check_fmt, name.data,
						   &skips))
		return skips;
	query = mf_deparse_catalog_query(dialect->insert_skip_check_fmt,
									 mf_conn_transport(entry)->markers, 1);
	mf_claim_connection(entry, NULL);
	skips = mf_conn_ask_about_table(entry, query, name.data, false);
	pfree(query);
	mf_conn_remember(entry, dialect->insert_skip_check_fmt, name.data, skips);
	return skips;
}

MfInsertMethod
mf_connected_insert_method(const MfOptions *opts, MfInsertMethod method,
						   MfConnEntry *entry, Relation rel, int ncols,
						   bool do_nothing)
{
	const MfTransport *tr = mf_conn_transport(entry);
	bool		forced = opts->insert_method != MF_INSERT_AUTO;

	if (!forced && method == MF_INSERT_COPY && tr->copy_available != NULL &&
		!tr->copy_available(mf_conn(entry)))
		method = mf_auto_without_copy(opts, ncols);
	if (!forced && method == MF_INSERT_ARRAY && tr->arrays_native != NULL &&
		!tr->arrays_native(mf_conn(entry)))
		method = MF_INSERT_VALUES;

	/*
	 * COPY reports the rows sent, not the rows the remote stored: where a
	 * trigger or rule may skip rows, auto sends statements whose counts are
	 * the remote's, and a COPY the user named is refused rather than give a
	 * wrong count.  A pipeline's statements each report their own count:
	 * it is read to its end with each batch there (mf_buffer_counts_late),
	 * so that the count is exact.  auto keeps to VALUES, as before.
	 */
	if ((method == MF_INSERT_COPY ||
		 (method == MF_INSERT_PIPELINE && !do_nothing && !forced)) &&
		mf_remote_may_skip_rows(entry, rel))
	{
		if (!forced)
			return MF_INSERT_VALUES;
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("insert_method \"copy\" cannot be used for foreign table \"%s\": its row count would not be exact",
						RelationGetRelationName(rel)),
				 errdetail("The remote table on server \"%s\" has BEFORE ROW INSERT triggers or INSERT rules that may skip rows, and COPY counts the rows before they run.",
						   mf_conn_server_name(entry)),
				 errhint("Use insert_method \"auto\", \"values\" or \"pipeline\".")));
	}
	return method;
}

/*
 * The method for a batched insert: auto takes COPY where the dialect and
 * transport have it and the statement allows it (COPY knows no ON
 * CONFLICT), else a pipeline of multi-row INSERTs where the transport can
 * pipeline, else one multi-row INSERT at a time.
 */
MfInsertMethod
mf_resolve_insert_method(const MfOptions *opts, bool do_nothing, int ncols)
{
	bool		copy_ok = opts->dialect->deparse_copy != NULL &&
		opts->transport->copy_begin != NULL && !do_nothing && ncols > 0;
	bool		array_ok = opts->transport->execute_array != NULL && ncols > 0;

	switch (opts->insert_method)
	{
		case MF_INSERT_AUTO:
			return copy_ok ? MF_INSERT_COPY :
				mf_auto_without_copy(opts, ncols);
		case MF_INSERT_ARRAY:
			if (!array_ok)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("insert_method \"array\" is not available for transport \"%s\" of server \"%s\"",
								opts->transport->name, opts->servername),
						 errhint("Use insert_method \"auto\" or \"values\".")));
			return MF_INSERT_ARRAY;
		case MF_INSERT_COPY:
			if (!copy_ok)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("insert_method \"copy\" cannot be used for this statement on server \"%s\"",
								opts->servername),
						 errdetail("COPY needs a remote with a bulk stream (PostgreSQL's COPY, MySQL's LOAD DATA LOCAL INFILE), at least one column and no ON CONFLICT clause."),
						 errhint("Use insert_method \"auto\" or \"values\".")));
			return MF_INSERT_COPY;
		case MF_INSERT_PIPELINE:
			if (opts->transport->pipeline_begin == NULL)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("insert_method \"pipeline\" is not available for transport \"%s\" of server \"%s\"",
								opts->transport->name, opts->servername),
						 errhint("Use insert_method \"auto\" or \"values\".")));
			return MF_INSERT_PIPELINE;
		default:
			return opts->insert_method;
	}
}

/*
 * Rows the executor hands over per ExecForeignBatchInsert call.  A pipeline
 * gets pipeline_depth statements' worth, so that one call sends them all and
 * waits once: the round trip is paid per pipeline, not per statement, and
 * the call still knows exactly how many rows the remote inserted.
 */
int
mf_executor_batch_size(const MfOptions *opts, MfInsertMethod method, int ncols)
{
	int64		rows;

	switch (method)
	{
		case MF_INSERT_PIPELINE:
			rows = (int64) mf_rows_per_statement(opts->dialect, opts->transport, ncols,
												 opts->batch_size) *
				opts->pipeline_depth;
			break;
		case MF_INSERT_ARRAY:
			/* a call waits for its answer: pipeline_depth batches go in one */
			rows = (int64) opts->batch_size * opts->pipeline_depth;
			break;
		default:
			return opts->batch_size;
	}
	return (int) Min(rows, 1000000);
}

/*
 * How an error context shows a multi-row statement: its first row and the
 * number of rows, rather than thousands of placeholders.
 */
static char *
mf_buffer_label(MfInsertBuffer *buf, int nrows)
{
	char	   *one = mf_deparse_insert(buf->rel, buf->dialect,
										buf->transport->markers,
										buf->target_attrs, 1, buf->do_nothing,
										NIL);

	if (nrows <= 1)
		return one;
	if (buf->method == MF_INSERT_ARRAY)
		return psprintf("%s (%d parameter sets)", one, nrows);
	return psprintf("%s (%d rows per statement)", one, nrows);
}

MfInsertBuffer *
mf_buffer_create(MfConnEntry *entry, Relation rel, const MfOptions *opts,
				 List *target_attrs, bool do_nothing, MfInsertMethod method)
{
	MfInsertBuffer *buf = palloc0(sizeof(MfInsertBuffer));
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			i = 0;
	ListCell   *lc;

	buf->entry = entry;
	buf->rel = rel;
	buf->dialect = mf_conn_dialect(entry);
	buf->transport = mf_conn_transport(entry);
	buf->target_attrs = target_attrs;
	buf->ncols = list_length(target_attrs);
	buf->do_nothing = do_nothing;
	buf->method = method;
	if (method == MF_INSERT_ROW)
		buf->rows_per_stmt = 1;
	else if (method == MF_INSERT_COPY)
		buf->rows_per_stmt = Max(opts->batch_size, 1);
	else if (method == MF_INSERT_ARRAY)
		buf->rows_per_stmt = mf_executor_batch_size(opts, method, buf->ncols);
	else
		buf->rows_per_stmt = mf_rows_per_statement(buf->dialect, opts->transport, buf->ncols,
												   opts->batch_size);
	buf->batch_bytes = opts->batch_bytes;
	if (method == MF_INSERT_PIPELINE)
	{
		mf_pipeline_init(&buf->pipeline, entry, opts->pipeline_depth,
						 mf_buffer_label(buf, buf->rows_per_stmt));
		/* a remote that may skip rows: each batch's count is read now */
		buf->count_each_batch = do_nothing || mf_remote_may_skip_rows(entry, rel);
	}

	buf->classes = palloc(sizeof(MfTypeClass) * Max(buf->ncols, 1));
	buf->out_functions = palloc(sizeof(FmgrInfo) * Max(buf->ncols, 1));
	foreach(lc, target_attrs)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, lfirst_int(lc) - 1);
		Oid			typoutput;
		bool		isvarlena;

		getTypeOutputInfo(att->atttypid, &typoutput, &isvarlena);
		fmgr_info(typoutput, &buf->out_functions[i]);
		buf->classes[i] = mf_type_class(att->atttypid);
		i++;
	}
	buf->values_need_modes = mf_outputs_need_modes(buf->out_functions,
												   buf->ncols);

	if (method == MF_INSERT_COPY)
	{
		initStringInfo(&buf->chunk);
		buf->copy_sql = mf_deparse_copy(rel, buf->dialect, target_attrs);
	}
	else
	{
		buf->values = palloc0(sizeof(char *) *
							  Max((int64) buf->rows_per_stmt * buf->ncols, 1));
		buf->packet_limit = mf_packet_limit(entry, mf_buffer_owner(buf));
		/* parameter arrays are split by the transport itself */
		if (buf->packet_limit > 0 && method != MF_INSERT_ARRAY)
			buf->row_wire = palloc(sizeof(size_t) * buf->rows_per_stmt);
	}
	buf->buf_cxt = AllocSetContextCreate(CurrentMemoryContext,
										 "multi_fdw insert buffer",
										 ALLOCSET_DEFAULT_SIZES);
	return buf;
}

/* ---------------------------------------------------------------------
 * copy
 * ---------------------------------------------------------------------
 */

/* Append a value in COPY text format: backslash, tab, newline, CR escaped. */
static void
mf_copy_escape(StringInfo out, const char *s)
{
	const char *run = s;

	for (; *s; s++)
	{
		const char *esc;

		switch (*s)
		{
			case '\\':
				esc = "\\\\";
				break;
			case '\t':
				esc = "\\t";
				break;
			case '\n':
				esc = "\\n";
				break;
			case '\r':
				esc = "\\r";
				break;
			default:
				continue;
		}
		appendBinaryStringInfo(out, run, s - run);
		appendBinaryStringInfo(out, esc, 2);
		run = s + 1;
	}
	appendBinaryStringInfo(out, run, s - run);
}

static void
mf_copy_raise(MfInsertBuffer *buf, MfError *err)
{
	/* the remote counts lines of this COPY; the user counts the statement's rows */
	if (err->row > 0)
		err->row += buf->copy_base;
	mf_raise_error(ERROR, buf->entry, err, buf->copy_sql);
}

/* Hand the encoded rows to the transport, opening the COPY if needed. */
static void
mf_copy_send(MfInsertBuffer *buf)
{
	MfError		err;

	if (buf->chunk.len == 0)
		return;
	mf_error_clear(&err);
	if (!buf->copy_open)
	{
		mf_set_stream_owner(buf->entry, buf, mf_copy_finish_cb);
		if (!buf->transport->copy_begin(mf_conn(buf->entry), buf->copy_sql, &err))
		{
			mf_clear_stream_owner(buf->entry, buf);
			mf_copy_raise(buf, &err);
		}
		buf->copy_open = true;
		buf->copy_base = buf->rows_sent;
		mf_stats_count(buf->entry, MF_C_STATEMENTS, 1);
	}
	if (!buf->transport->copy_send(mf_conn(buf->entry), buf->chunk.data,
								   buf->chunk.len, &err))
		mf_copy_raise(buf, &err);
	resetStringInfo(&buf->chunk);
}

/*
 * End the COPY: the rows are in, or the error is raised.  The remote's
 * count is not the executor's when a remote BEFORE trigger skipped rows;
 * the executor counted them when they were handed over (a known gap: the
 * command tag is read before the statement's COPY ends).
 */
static void
mf_copy_end(MfInsertBuffer *buf)
{
	MfError		err;
	long		rows = 0;

	if (!buf->copy_open)
		return;
	buf->copy_open = false;
	mf_clear_stream_owner(buf->entry, buf);
	mf_error_clear(&err);
	if (!buf->transport->copy_end(mf_conn(buf->entry), NULL, &rows, &err))
		mf_copy_raise(buf, &err);
}

/* Someone else wants the connection: send what is held and end the COPY. */
static void
mf_copy_finish_cb(void *arg)
{
	MfInsertBuffer *buf = arg;

	mf_copy_send(buf);
	mf_copy_end(buf);
}

/* ---------------------------------------------------------------------
 * values
 * ---------------------------------------------------------------------
 */

static MfStmt *
mf_values_prepare(MfInsertBuffer *buf, int nrows)
{
	MfTypeClass *classes;
	MfStmt	   *stmt;
	MfError		err;
	int			nparams = nrows * buf->ncols;
	char	   *sql = mf_deparse_insert(buf->rel, buf->dialect,
										buf->transport->markers,
										buf->target_attrs, nrows,
										buf->do_nothing, NIL);

	classes = palloc(sizeof(MfTypeClass) * Max(nparams, 1));
	for (int i = 0; i < nparams; i++)
		classes[i] = buf->classes[i % buf->ncols];

	mf_error_clear(&err);
	stmt = buf->transport->prepare(mf_conn(buf->entry), sql, nparams, classes, &err);
	if (stmt == NULL)
		mf_raise_error(ERROR, buf->entry, &err, sql);
	pfree(classes);
	pfree(sql);
	return stmt;
}

/*
 * Send nrows held rows from the first on as one INSERT; returns the rows
 * the remote inserted.
 */
static long
mf_values_send(MfInsertBuffer *buf, int first, int nrows)
{
	const char *const *values = (const char *const *) buf->values +
		(int64) first * buf->ncols;
	long		base = buf->rows_sent + first;
	MfStmt	   *stmt;
	MfError		err;
	long		rows = 0;

	mf_claim_connection(buf->entry, mf_buffer_owner(buf));
	if (buf->method == MF_INSERT_ARRAY)
	{
		/* one row's statement, run once per held row in one call */
		if (buf->full_stmt == NULL)
			buf->full_stmt = mf_values_prepare(buf, 1);
		mf_stats_count(buf->entry, MF_C_STATEMENTS, 1);
		mf_error_clear(&err);
		if (!buf->transport->execute_array(buf->full_stmt, nrows, values,
										   &rows, &err))
		{
			if (err.row > 0)
				err.row += base;
			mf_raise_error(ERROR, buf->entry, &err,
						   mf_buffer_label(buf, nrows));
		}
		return rows;
	}
	if (nrows == buf->rows_per_stmt)
	{
		if (buf->full_stmt == NULL)
			buf->full_stmt = mf_values_prepare(buf, nrows);
		stmt = buf->full_stmt;
	}
	else
	{
		if (buf->part_stmt != NULL && buf->part_rows != nrows)
		{
			buf->transport->stmt_close(buf->part_stmt);
			buf->part_stmt = NULL;
		}
		if (buf->part_stmt == NULL)
		{
			/* preparing waits for its answer: not inside a pipeline */
			if (buf->pipeline.open)
				buf->pipeline.rows += mf_pipeline_sync(&buf->pipeline);
			buf->part_stmt = mf_values_prepare(buf, nrows);
			buf->part_rows = nrows;
		}
		stmt = buf->part_stmt;
	}

	mf_error_clear(&err);
	mf_stats_count(buf->entry, MF_C_STATEMENTS, 1);
	if (buf->method == MF_INSERT_PIPELINE)
	{
		mf_pipeline_send(&buf->pipeline, stmt, values);
		return mf_pipeline_take(&buf->pipeline);
	}
	if (!buf->transport->execute(stmt, values, &rows, NULL, &err))
	{
		if (err.row > 0)
			err.row += base;
		mf_raise_error(ERROR, buf->entry, &err, mf_buffer_label(buf, nrows));
	}
	return rows;
}

/*
 * Send the held rows in statements that each fit under the remote's cap
 * on a request; every row fits alone (mf_buffer_add checked).
 */
static long
mf_values_send_all(MfInsertBuffer *buf)
{
	long		rows = 0;
	int			first = 0;

	if (buf->row_wire == NULL)
		return mf_values_send(buf, 0, buf->nrows);
	while (first < buf->nrows)
	{
		size_t		bytes = MF_PACKET_REQUEST_OVERHEAD + buf->row_wire[first];
		int			n = 1;

		while (first + n < buf->nrows &&
			   bytes + buf->row_wire[first + n] <= buf->packet_limit)
			bytes += buf->row_wire[first + n++];
		rows += mf_values_send(buf, first, n);
		first += n;
	}
	return rows;
}

/* ---------------------------------------------------------------------
 * The remote's cap on one request
 * ---------------------------------------------------------------------
 */

/*
 * The bytes a row's values take in a request, counted as transport.h's
 * max_packet says: a bytea is sent decoded, half its hex text.
 */
size_t
mf_row_wire_bytes(const MfTypeClass *classes, const char *const *values, int n)
{
	size_t		bytes = 0;

	for (int i = 0; i < n; i++)
	{
		size_t		len;

		bytes += MF_PACKET_VALUE_OVERHEAD;
		if (values[i] == NULL)
			continue;
		len = strlen(values[i]);
		if (classes[i] == MF_TYPE_BYTES && len >= 2 &&
			values[i][0] == '\\' && values[i][1] == 'x')
			len = (len - 2) / 2;
		bytes += len;
	}
	return bytes;
}

/*
 * The remote's cap on one request in bytes, 0 when it has none.  Asking may
 * need a round trip, so a stream someone else has open ends first.
 */
size_t
mf_packet_limit(MfConnEntry *entry, void *owner)
{
	const MfTransport *tr = mf_conn_transport(entry);
	MfError		err;
	size_t		bytes = 0;

	if (tr->max_packet == NULL)
		return 0;
	mf_claim_connection(entry, owner);
	mf_error_clear(&err);
	if (!tr->max_packet(mf_conn(entry), &bytes, &err))
		mf_raise_error(ERROR, entry, &err, NULL);
	return bytes;
}

/*
 * Refuse a value the remote would store as another: -0 where its floats
 * have no negative zero.  row is the statement's, 1-based.
 */
void
mf_check_storable(MfConnEntry *entry, Relation rel, int attnum,
				  MfTypeClass cls, const char *value, long row)
{
	if (cls != MF_TYPE_FLOAT || value == NULL || strcmp(value, "-0") != 0 ||
		!mf_conn_dialect(entry)->no_negative_zero)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("server \"%s\" cannot store negative zero",
					mf_conn_server_name(entry)),
			 errdetail("Row %ld has -0 in column \"%s\", which the remote would store as 0.",
					   row, NameStr(TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attname)),
			 errhint("Add 0 to the value (-0 + 0 is 0) to send it as 0.")));
}

/*
 * Refuse the statement's row (1-based) whose values take need bytes when
 * one request cannot carry them: the remote would drop the session rather
 * than answer, and the user would learn neither the limit nor the row.
 */
void
mf_check_packet(MfConnEntry *entry, size_t limit, size_t need, long row)
{
	const char *setting = mf_conn_transport(entry)->max_packet_setting;

	if (limit == 0 || need + MF_PACKET_REQUEST_OVERHEAD <= limit)
		return;
	if (setting == NULL)
		setting = "request limit";
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("row %ld is too large for server \"%s\"",
					row, mf_conn_server_name(entry)),
			 errdetail("The row needs a request of %zu bytes; the server's %s is %zu bytes.",
					   need + MF_PACKET_REQUEST_OVERHEAD, setting, limit),
			 errhint("Raise %s on the remote server, or send smaller values.",
					 setting)));
}

/*
 * Refuse a statement of the user's (fn: multi_fdw_exec, multi_fdw_query)
 * whose text and parameters one request cannot carry, for the same reason.
 */
void
mf_check_statement_size(MfConnEntry *entry, const char *fn, const char *sql,
						int nparams, const MfTypeClass *classes,
						const char *const *values)
{
	const char *setting = mf_conn_transport(entry)->max_packet_setting;
	size_t		limit = mf_packet_limit(entry, NULL);
	size_t		need;

	if (limit == 0)
		return;
	need = strlen(sql) + MF_PACKET_REQUEST_OVERHEAD +
		(nparams > 0 ? mf_row_wire_bytes(classes, values, nparams) : 0);
	if (need <= limit)
		return;
	if (setting == NULL)
		setting = "request limit";
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("the statement of %s is too large for server \"%s\"",
					fn, mf_conn_server_name(entry)),
			 errdetail("The statement and its parameters need a request of %zu bytes; the server's %s is %zu bytes.",
					   need, setting, limit),
			 errhint("Raise %s on the remote server, or send smaller values.",
					 setting)));
}

/* ---------------------------------------------------------------------
 * The interface the callbacks use
 * ---------------------------------------------------------------------
 */

/* Hold one row. */
void
mf_buffer_add(MfInsertBuffer *buf, TupleTableSlot *slot)
{
	MemoryContext old = MemoryContextSwitchTo(buf->buf_cxt);
	char	  **row = NULL;
	int			i = 0;
	ListCell   *lc;

	Assert(buf->nrows < buf->rows_per_stmt);
	if (buf->method != MF_INSERT_COPY)
		row = buf->values + (int64) buf->nrows * buf->ncols;
	slot_getallattrs(slot);
	foreach(lc, buf->target_attrs)
	{
		int			attnum = lfirst_int(lc);
		char	   *text = NULL;

		if (!slot->tts_isnull[attnum - 1])
		{
			text = OutputFunctionCall(&buf->out_functions[i],
									  slot->tts_values[attnum - 1]);
			mf_check_storable(buf->entry, buf->rel, attnum, buf->classes[i], text,
							  buf->rows_sent + buf->nrows + 1);
		}
		if (row != NULL)
		{
			row[i] = text;
			buf->nbytes += sizeof(char *) + (text ? strlen(text) + 1 : 0);
		}
		else
		{
			if (i > 0)
				appendStringInfoChar(&buf->chunk, '\t');
			if (text == NULL)
				appendBinaryStringInfo(&buf->chunk, "\\N", 2);
			else
				mf_copy_escape(&buf->chunk, text);
		}
		i++;
	}
	if (row != NULL && buf->packet_limit > 0)
	{
		size_t		need = mf_row_wire_bytes(buf->classes,
											 (const char *const *) row,
											 buf->ncols);

		mf_check_packet(buf->entry, buf->packet_limit, need,
						buf->rows_sent + buf->nrows + 1);
		if (buf->row_wire != NULL)
			buf->row_wire[buf->nrows] = need;
	}
	if (row == NULL)
	{
		appendStringInfoChar(&buf->chunk, '\n');
		buf->nbytes = buf->chunk.len;
		MemoryContextReset(buf->buf_cxt);
	}
	buf->nrows++;
	MemoryContextSwitchTo(old);

	if (buf->method == MF_INSERT_COPY && buf->chunk.len >= MF_COPY_CHUNK)
	{
		mf_claim_connection(buf->entry, mf_buffer_owner(buf));
		mf_copy_send(buf);
	}
}

/* Must the held rows be sent before another is added? */
bool
mf_buffer_full(MfInsertBuffer *buf)
{
	return buf->nrows >= buf->rows_per_stmt || buf->nbytes >= buf->batch_bytes;
}

/*
 * Send the held rows; returns the rows the remote says it inserted (fewer
 * than held when ON CONFLICT DO NOTHING skipped some).  A COPY cannot skip
 * rows, and reports its errors when it ends.
 */
long
mf_buffer_flush(MfInsertBuffer *buf)
{
	long		rows;

	if (buf->nrows == 0)
		return 0;

	if (buf->method == MF_INSERT_COPY)
	{
		mf_claim_connection(buf->entry, mf_buffer_owner(buf));
		mf_copy_send(buf);
		rows = buf->nrows;
	}
	else
		rows = mf_values_send_all(buf);

	mf_stats_count(buf->entry, MF_C_BATCHES, 1);
	mf_stats_count_rows(buf->entry, buf->method, buf->nrows);
	buf->rows_sent += buf->nrows;
	buf->nrows = 0;
	buf->nbytes = 0;
	MemoryContextReset(buf->buf_cxt);
	return rows;
}

/*
 * Does this buffer report rows as inserted before the remote answers for
 * them?  A pipeline stays open across the executor's batches, its answers
 * read as they come, when every row sent is inserted or the statement
 * fails.  With ON CONFLICT DO NOTHING, or into a remote whose triggers or
 * rules may skip rows, each batch's count must be the remote's: the
 * pipeline is read to its end with each batch (mf_buffer_sync).
 */
bool
mf_buffer_counts_late(MfInsertBuffer *buf)
{
	return buf->method == MF_INSERT_PIPELINE && !buf->count_each_batch;
}

/*
 * Wait for every statement of a pipeline; returns the rows inserted that
 * were not reported yet.  Nothing to do for the other methods.
 */
long
mf_buffer_sync(MfInsertBuffer *buf)
{
	if (buf->method != MF_INSERT_PIPELINE)
		return 0;
	return mf_pipeline_sync(&buf->pipeline);
}

/* Send everything and end any stream: the statement's rows are in. */
void
mf_buffer_finish(MfInsertBuffer *buf)
{
	mf_buffer_flush(buf);
	if (buf->method == MF_INSERT_COPY)
		mf_copy_end(buf);
	else
		(void) mf_buffer_sync(buf);
}

/* Finish and close the prepared statements. */
void
mf_buffer_destroy(MfInsertBuffer *buf)
{
	mf_buffer_finish(buf);
	if (buf->full_stmt)
		buf->transport->stmt_close(buf->full_stmt);
	if (buf->part_stmt)
		buf->transport->stmt_close(buf->part_stmt);
	buf->full_stmt = buf->part_stmt = NULL;
	MemoryContextDelete(buf->buf_cxt);
}
