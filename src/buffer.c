/*-------------------------------------------------------------------------
 *
 * buffer.c
 *		The shared buffering core: rows for one target relation are kept as
 *		text and sent in as few statements as the remote allows.
 *
 * A statement carries at most rows_per_stmt rows: the user's batch_size,
 * capped by the dialect's parameters per statement divided by the column
 * count and by its rows per VALUES list.  batch_bytes caps what is held:
 * once the held rows reach it they are sent, whatever their number.  A batch
 * bigger than a cap is split into several statements, never rejected.
 *
 * Statements are generated for N rows by the dialect and prepared once:
 * one for a full statement, one for the remainder (re-prepared only when
 * the remainder's size changes).
 *
 * The text of held rows lives in buf_cxt, reset after every flush.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/tuptable.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "multi_fdw.h"

int
mf_rows_per_statement(const MfDialect *dialect, int ncols, int batch_size)
{
	int			rows = Max(batch_size, 1);

	if (ncols == 0)
		return 1;				/* DEFAULT VALUES inserts one row */
	if (dialect->max_params > 0)
		rows = Min(rows, dialect->max_params / ncols);
	if (dialect->max_rows_per_insert > 0)
		rows = Min(rows, dialect->max_rows_per_insert);
	return Max(rows, 1);
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
	buf->rows_per_stmt = method == MF_INSERT_ROW ? 1 :
		mf_rows_per_statement(buf->dialect, buf->ncols, opts->batch_size);
	buf->batch_bytes = opts->batch_bytes;

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

	buf->values = palloc0(sizeof(char *) *
						  Max((int64) buf->rows_per_stmt * buf->ncols, 1));
	buf->buf_cxt = AllocSetContextCreate(CurrentMemoryContext,
										 "multi_fdw insert buffer",
										 ALLOCSET_DEFAULT_SIZES);
	return buf;
}

/* Hold one row, as text. */
void
mf_buffer_add(MfInsertBuffer *buf, TupleTableSlot *slot)
{
	MemoryContext old = MemoryContextSwitchTo(buf->buf_cxt);
	char	  **row = buf->values + (int64) buf->nrows * buf->ncols;
	int			i = 0;
	ListCell   *lc;

	Assert(buf->nrows < buf->rows_per_stmt);
	slot_getallattrs(slot);
	foreach(lc, buf->target_attrs)
	{
		int			attnum = lfirst_int(lc);

		if (slot->tts_isnull[attnum - 1])
			row[i] = NULL;
		else
		{
			row[i] = OutputFunctionCall(&buf->out_functions[i],
										slot->tts_values[attnum - 1]);
			buf->nbytes += strlen(row[i]) + 1;
		}
		buf->nbytes += sizeof(char *);
		i++;
	}
	buf->nrows++;
	MemoryContextSwitchTo(old);
}

/* Must the held rows be sent before another is added? */
bool
mf_buffer_full(MfInsertBuffer *buf)
{
	return buf->nrows >= buf->rows_per_stmt || buf->nbytes >= buf->batch_bytes;
}

/* The statement that inserts nrows rows. */
char *
mf_buffer_sql(MfInsertBuffer *buf, int nrows)
{
	return mf_deparse_insert(buf->rel, buf->dialect, buf->target_attrs, nrows,
							 buf->do_nothing, NIL);
}

static MfStmt *
mf_buffer_prepare(MfInsertBuffer *buf, int nrows)
{
	MfTypeClass *classes;
	MfStmt	   *stmt;
	MfError		err;
	int			nparams = nrows * buf->ncols;

	classes = palloc(sizeof(MfTypeClass) * Max(nparams, 1));
	for (int i = 0; i < nparams; i++)
		classes[i] = buf->classes[i % buf->ncols];

	buf->last_sql = mf_buffer_sql(buf, nrows);
	mf_error_clear(&err);
	stmt = buf->transport->prepare(mf_conn(buf->entry), buf->last_sql, nparams,
								   classes, &err);
	if (stmt == NULL)
		mf_raise_error(ERROR, buf->entry, &err, buf->last_sql);
	pfree(classes);
	return stmt;
}

/*
 * Send the held rows in one statement; returns the rows the remote says it
 * inserted (fewer than sent when ON CONFLICT DO NOTHING skipped some).
 */
long
mf_buffer_flush(MfInsertBuffer *buf)
{
	MfStmt	   *stmt;
	MfError		err;
	long		rows = 0;

	if (buf->nrows == 0)
		return 0;

	mf_claim_connection(buf->entry, buf);
	if (buf->nrows == buf->rows_per_stmt)
	{
		if (buf->full_stmt == NULL)
			buf->full_stmt = mf_buffer_prepare(buf, buf->nrows);
		stmt = buf->full_stmt;
	}
	else
	{
		if (buf->part_stmt != NULL && buf->part_rows != buf->nrows)
		{
			buf->transport->stmt_close(buf->part_stmt);
			buf->part_stmt = NULL;
		}
		if (buf->part_stmt == NULL)
		{
			buf->part_stmt = mf_buffer_prepare(buf, buf->nrows);
			buf->part_rows = buf->nrows;
		}
		stmt = buf->part_stmt;
	}

	mf_error_clear(&err);
	if (!buf->transport->execute(stmt, (const char *const *) buf->values, &rows,
								 NULL, &err))
	{
		/* name the row of the whole statement, not of this batch */
		if (err.row > 0)
			err.row += buf->rows_sent;
		mf_raise_error(ERROR, buf->entry, &err, mf_buffer_sql(buf, buf->nrows));
	}

	buf->rows_sent += buf->nrows;
	buf->nrows = 0;
	buf->nbytes = 0;
	MemoryContextReset(buf->buf_cxt);
	return rows;
}

/* Close the prepared statements; held rows must have been flushed. */
void
mf_buffer_destroy(MfInsertBuffer *buf)
{
	if (buf->full_stmt)
		buf->transport->stmt_close(buf->full_stmt);
	if (buf->part_stmt)
		buf->transport->stmt_close(buf->part_stmt);
	buf->full_stmt = buf->part_stmt = NULL;
	MemoryContextDelete(buf->buf_cxt);
}
