/*-------------------------------------------------------------------------
 *
 * remote_query.c
 *		multi_fdw_query(server, sql [, params ...]): a query of the user's
 *		run on a server as written, its rows returned typed by the column
 *		definition list; multi_fdw_query_json, the same with each row one
 *		json object keyed by the remote's column names.
 *
 * The statement goes as a statement of multi_fdw_exec does
 * (remote/exec_guard.c): under the current user's mapping, inside the
 * remote transaction tied to the local one, after the same checks (USAGE
 * on the server, a server of multi_fdw's, no transaction control), and
 * the remote transaction must still be there after it.  It is sent once,
 * as one statement (MfRead.as_written), with the extra arguments as its
 * parameters ($1 or ?, as the remote writes them), written in the
 * remote's formats and refused where the dialect has no spelling for a
 * value, as a scan's parameters are.
 *
 * Rows are streamed: read off the wire a batch at a time (libpq's
 * single-row mode, MariaDB's unbuffered result, ODBC's fetches) and put
 * into the function's tuplestore, which keeps work_mem of them in memory
 * and the rest in a temporary file, so the backend's memory stays flat
 * however many rows come.  While rows of the batch are converted, the
 * connection is watched (held_rows.c): an input function that reaches the
 * same server has the rest read aside first.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "exec/exec.h"

/* The parameters of one call, written as the remote is to read them. */
typedef struct MfQueryParams
{
	int			n;
	const char **values;		/* NULL: SQL NULL */
	MfTypeClass *classes;
} MfQueryParams;

/* Where a value that does not convert came from, for the error's context. */
typedef struct MfQueryErrorCxt
{
	const char *fn;
	const char *servername;
	TupleDesc	desc;
	int			col;			/* 0-based; -1: none yet */
} MfQueryErrorCxt;

static void
mf_query_error_callback(void *arg)
{
	MfQueryErrorCxt *cxt = arg;

	if (cxt->col >= 0)
		errcontext("column %d (\"%s\") of the result of %s on server \"%s\"",
				   cxt->col + 1,
				   NameStr(TupleDescAttr(cxt->desc, cxt->col)->attname),
				   cxt->fn, cxt->servername);
}

/* One parameter's value as text for the remote; NULL for SQL NULL. */
static const char *
mf_query_param_text(Oid typid, Datum value, bool isnull)
{
	Oid			outfn;
	bool		isvarlena;

	if (isnull)
		return NULL;
	getTypeOutputInfo(typid, &outfn, &isvarlena);
	return OidOutputFunctionCall(outfn, value);
}

/*
 * The arguments after the first two: each one a parameter, or, called with
 * VARIADIC, the elements of the array (none for a NULL array, as format()
 * takes it).
 */
static void
mf_query_params(FunctionCallInfo fcinfo, const char *fn, MfConnEntry *entry,
				MfQueryParams *p)
{
	const MfDialect *dialect = mf_conn_dialect(entry);
	const char *servername = mf_conn_server_name(entry);
	int			nargs = PG_NARGS() - 2;
	Oid		   *types;
	Datum	   *datums;
	bool	   *nulls;
	int			nestlevel;

	p->n = 0;
	p->values = NULL;
	p->classes = NULL;
	if (nargs <= 0)
		return;
	if (get_fn_expr_variadic(fcinfo->flinfo))
	{
		Oid			arrtype = get_fn_expr_argtype(fcinfo->flinfo, 2);
		Oid			elemtype = get_base_element_type(arrtype);
		ArrayType  *arr;
		int16		typlen;
		bool		typbyval;
		char		typalign;
		int			n;

		if (PG_ARGISNULL(2))
			return;
		if (!OidIsValid(elemtype))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("VARIADIC argument of %s must be an array", fn)));
		arr = PG_GETARG_ARRAYTYPE_P(2);
		get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
		deconstruct_array(arr, elemtype, typlen, typbyval, typalign,
						  &datums, &nulls, &n);
		types = palloc(sizeof(Oid) * Max(n, 1));
		for (int i = 0; i < n; i++)
			types[i] = elemtype;
		nargs = n;
	}
	else
	{
		types = palloc(sizeof(Oid) * nargs);
		datums = palloc(sizeof(Datum) * nargs);
		nulls = palloc(sizeof(bool) * nargs);
		for (int i = 0; i < nargs; i++)
		{
			types[i] = get_fn_expr_argtype(fcinfo->flinfo, i + 2);
			datums[i] = PG_GETARG_DATUM(i + 2);
			nulls[i] = PG_ARGISNULL(i + 2);
			if (!OidIsValid(types[i]))
				elog(ERROR, "could not determine the type of parameter %d of %s",
					 i + 1, fn);
		}
	}

	p->n = nargs;
	p->values = palloc(sizeof(char *) * Max(nargs, 1));
	p->classes = palloc(sizeof(MfTypeClass) * Max(nargs, 1));
	/* the remote's formats (dates in ISO, floats exact), as a scan's */
	nestlevel = mf_set_transmission_modes();
	for (int i = 0; i < nargs; i++)
		p->values[i] = mf_query_param_text(types[i], datums[i], nulls[i]);
	mf_reset_transmission_modes(nestlevel);
	for (int i = 0; i < nargs; i++)
	{
		/* a literal of unknown type goes as text */
		p->classes[i] = mf_type_class(types[i] == UNKNOWNOID ? TEXTOID :
									  types[i]);
		mf_check_param_value(dialect, servername, types[i], p->values[i]);
	}
}

/* The result being read: a batch at a time, a row at a time. */
typedef struct MfQueryReader
{
	const MfTransport *tr;
	MfResult   *res;
	MfHeldRows *held;			/* rows read aside for another's sake */
	int			ncols;
	int			nrows;			/* the batch, and ... */
	int			next_row;		/* ... the next row to take from it */
	char	  **texts;			/* the row taken */
} MfQueryReader;

/*
 * The statement is over as far as we are concerned: the result is closed
 * and the remote transaction checked first (the statement may have ended
 * it, which is the error to give); the caller then raises its own.
 */
static void
mf_query_abandon(MfQueryReader *r, MfConnEntry *entry, MfUserStatement *us,
				 const char *sql)
{
	MfError		err;

	mf_held_reset(r->held);
	r->tr->result_close(r->res);
	r->res = NULL;
	mf_error_clear(&err);
	mf_user_statement_end(entry, us, true, &err, sql);
}

/* The remote's column count must be the column definition list's. */
static void
mf_query_check_columns(MfQueryReader *r, MfConnEntry *entry,
					   MfUserStatement *us, const char *sql, int natts)
{
	int			ncols = r->tr->ncolumns(r->res);
	const char *servername = mf_conn_server_name(entry);

	if (ncols == natts)
		return;
	mf_query_abandon(r, entry, us, sql);
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg_plural("the query on server \"%s\" returned %d column, the column definition list has %d",
						   "the query on server \"%s\" returned %d columns, the column definition list has %d",
						   Max(ncols, 0),
						   servername, Max(ncols, 0), natts),
			 errhint("Name one column for each column of the remote result, in its order.")));
}

/*
 * For the json form: each column's key, written once as JSON ("name":),
 * from the names the remote gave them (f1, f2, ... where the transport
 * does not know them, as PostgreSQL names an anonymous record's).  A
 * statement that returns no columns has no rows to give.
 */
static char **
mf_query_json_keys(MfQueryReader *r, MfConnEntry *entry, MfUserStatement *us,
				   const char *sql)
{
	int			ncols = r->tr->ncolumns(r->res);
	char	  **keys;

	if (ncols <= 0)
	{
		mf_query_abandon(r, entry, us, sql);
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("the statement on server \"%s\" returned no columns",
						mf_conn_server_name(entry)),
				 errhint("Run a statement that returns no rows with multi_fdw_exec.")));
	}
	keys = palloc(sizeof(char *) * ncols);
	for (int c = 0; c < ncols; c++)
	{
		const char *name = r->tr->column_name ? r->tr->column_name(r->res, c) : NULL;
		StringInfoData key;

		initStringInfo(&key);
		if (name != NULL)
		{
			/* names come in the database's encoding, as values do */
			(void) pg_verifymbstr(name, strlen(name), false);
			escape_json(&key, name);
		}
		else
		{
			char		fname[32];

			snprintf(fname, sizeof(fname), "f%d", c + 1);
			escape_json(&key, fname);
		}
		appendStringInfoChar(&key, ':');
		keys[c] = key.data;
	}
	r->ncols = ncols;
	r->texts = palloc0(sizeof(char *) * ncols);
	return keys;
}

/*
 * A batch with a row left in it, fetched if need be.  1: a row to take;
 * 0: the end; -1: the transport's error in *err.
 */
static int
mf_query_fetch(MfQueryReader *r, MfConnEntry *entry, MfError *err)
{
	while (r->next_row >= r->nrows)
	{
		mf_claim_connection(entry, r->held);
		r->nrows = mf_held_fetch(r->held, r->tr, r->res, err);
		r->next_row = 0;
		if (r->nrows <= 0)
		{
			int			rc = r->nrows;

			r->nrows = 0;
			return rc < 0 ? -1 : 0;
		}
		(void) mf_held_watch(r->held, entry, r->tr, r->res, &r->nrows,
							 &r->next_row);
	}
	return 1;
}

/*
 * The next row's values, copied as text into r->texts (in row_cxt) before
 * anything converts them: a conversion may run code that reaches the same
 * server, which reads the rest of the result aside and empties the batch.
 */
static void
mf_query_take_row(MfQueryReader *r, MemoryContext row_cxt)
{
	MemoryContext old = MemoryContextSwitchTo(row_cxt);

	for (int c = 0; c < r->ncols; c++)
	{
		const char *v = mf_held_value(r->held, r->tr, r->res, r->next_row, c);

		r->texts[c] = v == NULL ? NULL : pstrdup(v);
	}
	MemoryContextSwitchTo(old);
	r->next_row++;
}

/*
 * The row taken, as one JSON object: the remote's column names as keys,
 * in their order (a name twice is kept twice, as json keeps it), each
 * value the remote's text as a JSON string, SQL NULL as null.
 */
static Datum
mf_query_row_json(MfQueryReader *r, char **keys)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int c = 0; c < r->ncols; c++)
	{
		if (c > 0)
			appendStringInfoChar(&buf, ',');
		appendStringInfoString(&buf, keys[c]);
		if (r->texts[c] == NULL)
			appendStringInfoString(&buf, "null");
		else
		{
			(void) pg_verifymbstr(r->texts[c], strlen(r->texts[c]), false);
			escape_json(&buf, r->texts[c]);
		}
	}
	appendStringInfoChar(&buf, '}');
	return PointerGetDatum(cstring_to_text_with_len(buf.data, buf.len));
}

/*
 * The json form's result: one json column, in a tuplestore of the query's
 * lifetime (InitMaterializedSRF wants a row type or a column definition
 * list, and this form has neither).
 */
static TupleDesc
mf_query_json_result(FunctionCallInfo fcinfo)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext old;
	TupleDesc	desc;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	desc = CreateTemplateTupleDesc(1);
	TupleDescInitEntry(desc, (AttrNumber) 1, "multi_fdw_query_json", JSONOID,
					   -1, 0);
	rsinfo->setResult = tuplestore_begin_heap((rsinfo->allowedModes &
											   SFRM_Materialize_Random) != 0,
											  false, work_mem);
	rsinfo->setDesc = desc;
	rsinfo->returnMode = SFRM_Materialize;
	MemoryContextSwitchTo(old);
	return desc;
}

/*
 * Both forms: the rows typed by the column definition list, or (as_json)
 * each row one json object.
 */
static void
mf_query_run(FunctionCallInfo fcinfo, const char *fn, bool as_json)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *servername;
	char	   *sql;
	ForeignServer *server;
	MfOptions	opts;
	MfConnEntry *entry;
	MfQueryParams params;
	MfUserStatement us;
	MfQueryReader r;
	MfRead		read;
	MfError		err;
	TupleDesc	desc;
	AttInMetadata *attinmeta = NULL;
	char	  **keys = NULL;
	MemoryContext row_cxt;
	MemoryContext old;
	Datum	   *values;
	bool	   *nulls;
	MfQueryErrorCxt ecxt;
	ErrorContextCallback errcb;
	bool		first = true;
	int			rc;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the %s of %s must not be NULL",
						PG_ARGISNULL(0) ? "server" : "query", fn)));
	servername = text_to_cstring(PG_GETARG_TEXT_PP(0));
	sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	server = mf_user_statement_server(fn, servername, sql, &opts);

	if (as_json)
		desc = mf_query_json_result(fcinfo);
	else
	{
		/* rows go into the caller's tuplestore, typed by its column list */
		InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
		desc = rsinfo->setDesc;
		attinmeta = TupleDescGetAttInMetadata(desc);
	}

	entry = mf_get_connection(GetUserMapping(GetUserId(), server->serverid),
							  &opts);
	mf_query_params(fcinfo, fn, entry, &params);
	mf_check_statement_size(entry, fn, sql, params.n, params.classes,
							(const char *const *) params.values);

	memset(&r, 0, sizeof(r));
	r.tr = mf_conn_transport(entry);
	r.held = palloc(sizeof(MfHeldRows));
	mf_held_init(r.held, CurrentMemoryContext);
	if (!as_json)
	{
		/* the json form knows its columns at the first fetch */
		r.ncols = desc->natts;
		r.texts = palloc0(sizeof(char *) * Max(r.ncols, 1));
	}
	values = palloc0(sizeof(Datum) * Max(desc->natts, 1));
	nulls = palloc0(sizeof(bool) * Max(desc->natts, 1));
	row_cxt = AllocSetContextCreate(CurrentMemoryContext,
									"multi_fdw_query row",
									ALLOCSET_DEFAULT_SIZES);

	mf_user_statement_begin(entry, &us);
	read = mf_read(MF_READ_FEW, opts.fetch_size);
	read.as_written = true;
	mf_error_clear(&err);
	r.res = r.tr->query(mf_conn(entry), sql, params.n, params.values,
						params.classes, read, &err);
	if (r.res == NULL)
		mf_user_statement_end(entry, &us, false, &err, sql);	/* raises */

	ecxt.fn = fn;
	ecxt.servername = servername;
	ecxt.desc = as_json ? NULL : desc;
	ecxt.col = -1;
	errcb.callback = mf_query_error_callback;
	errcb.arg = &ecxt;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(row_cxt);
		mf_error_clear(&err);
		rc = mf_query_fetch(&r, entry, &err);
		if (rc < 0)
			break;
		if (first)
		{
			/* known once the first batch (or the end) has come */
			if (as_json)
				keys = mf_query_json_keys(&r, entry, &us, sql);
			else
				mf_query_check_columns(&r, entry, &us, sql, desc->natts);
			first = false;
		}
		if (rc == 0)
			break;
		mf_query_take_row(&r, row_cxt);
		old = MemoryContextSwitchTo(row_cxt);
		if (as_json)
		{
			values[0] = mf_query_row_json(&r, keys);
			nulls[0] = false;
		}
		else
		{
			for (int c = 0; c < r.ncols; c++)
			{
				ecxt.col = c;
				values[c] = InputFunctionCall(&attinmeta->attinfuncs[c],
											  r.texts[c],
											  attinmeta->attioparams[c],
											  attinmeta->atttypmods[c]);
				nulls[c] = r.texts[c] == NULL;
			}
			ecxt.col = -1;
		}
		MemoryContextSwitchTo(old);
		tuplestore_putvalues(rsinfo->setResult, desc, values, nulls);
	}
	error_context_stack = errcb.previous;

	mf_held_reset(r.held);
	r.tr->result_close(r.res);
	MemoryContextDelete(row_cxt);
	mf_user_statement_end(entry, &us, rc >= 0, &err, sql);
}

/*
 * multi_fdw_query(server text, sql text [, VARIADIC params "any"])
 * RETURNS SETOF record
 */
PG_FUNCTION_INFO_V1(multi_fdw_query);

Datum
multi_fdw_query(PG_FUNCTION_ARGS)
{
	mf_query_run(fcinfo, "multi_fdw_query", false);
	return (Datum) 0;
}

/*
 * multi_fdw_query_json(server text, sql text [, VARIADIC params "any"])
 * RETURNS SETOF json
 */
PG_FUNCTION_INFO_V1(multi_fdw_query_json);

Datum
multi_fdw_query_json(PG_FUNCTION_ARGS)
{
	mf_query_run(fcinfo, "multi_fdw_query_json", true);
	return (Datum) 0;
}
