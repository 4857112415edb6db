/*-------------------------------------------------------------------------
 *
 * import.c
 *		IMPORT FOREIGN SCHEMA: the remote catalog, read through the dialect's
 *		query, turned into CREATE FOREIGN TABLE statements.
 *
 * Options of the IMPORT statement:
 *	import_not_null (true)	declare NOT NULL where the remote column is
 *	import_default (true)	declare defaults the dialect calls safe (plain
 *							constants, never a remote function call)
 *	import_keys (true)		mark primary key columns with key 'true', which
 *							UPDATE and DELETE need outside PostgreSQL
 *	import_generated (true)	declare remote generated columns as generated
 *							here too, so that inserts never send them
 *	import_collate (true)	declare a column's collation where the remote
 *							gives one other than its type's (postgres_fdw's
 *							option; the collation must exist here)
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/defrem.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parse_type.h"
#include "parser/parser.h"
#include "utils/builtins.h"
#include "utils/varlena.h"

#include "exec/exec.h"

static bool
mf_text_bool(const char *v)
{
	return v != NULL && (v[0] == 't' || v[0] == 'T' || v[0] == '1' ||
						 v[0] == 'y' || v[0] == 'Y');
}

/* the value of a string option, quoted as a literal */
static void
mf_append_option(StringInfo buf, const char *name, const char *value)
{
	appendStringInfo(buf, "%s %s", name, quote_literal_cstr(value));
}

/*
 * The remote's name of a collation, as a possibly qualified name: written
 * again from its parts, each quoted, so that nothing else the remote says
 * reaches the statement (a name that is not one is refused).  Whether the
 * collation exists here is the statement's to say, as in postgres_fdw.
 */
static void
mf_append_collation(StringInfo buf, const char *remote, const char *table)
{
	List	   *names;
	ListCell   *lc;
	char	   *copy = pstrdup(remote);

	if (!SplitIdentifierString(copy, '.', &names) || names == NIL ||
		list_length(names) > 2)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("the remote gave \"%s\" as a collation of table \"%s\", which is no collation name",
						remote, table)));
	appendStringInfoString(buf, " COLLATE ");
	foreach(lc, names)
		appendStringInfo(buf, "%s%s", lc == list_head(names) ? "" : ".",
						 quote_identifier(lfirst(lc)));
}

/*
 * A remote generated column's expression or a column default, written
 * into the statement as import_generated or import_default asks: exactly
 * one expression as this session's parser reads it (standard_conforming_
 * strings included, as it will read the statement), so that the remote's
 * text can add no column, option or clause of its own.
 */
static void
mf_append_expression(StringInfo buf, const char *fmt, const char *expr,
					 const char *table)
{
	char	   *probe = psprintf("SELECT (%s)", expr);
	MemoryContext cxt = CurrentMemoryContext;
	List	   *volatile parsed = NIL;
	SelectStmt *sel = NULL;

	/* a text that does not parse is refused as one that parses otherwise */
	PG_TRY();
	{
		parsed = raw_parser(probe, RAW_PARSE_DEFAULT);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		parsed = NIL;
	}
	PG_END_TRY();

	if (list_length(parsed) == 1 &&
		IsA(((RawStmt *) linitial(parsed))->stmt, SelectStmt))
		sel = (SelectStmt *) ((RawStmt *) linitial(parsed))->stmt;
	if (sel == NULL || list_length(sel->targetList) != 1 ||
		sel->fromClause != NIL || sel->whereClause != NULL ||
		sel->groupClause != NIL || sel->havingClause != NULL ||
		sel->windowClause != NIL || sel->sortClause != NIL ||
		sel->limitCount != NULL || sel->limitOffset != NULL ||
		sel->lockingClause != NIL || sel->withClause != NULL ||
		sel->distinctClause != NIL || sel->valuesLists != NIL ||
		sel->op != SETOP_NONE || sel->intoClause != NULL ||
		((ResTarget *) linitial(sel->targetList))->name != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("the remote gave \"%s\" as a column's expression of table \"%s\", which is not one expression",
						expr, table)));
	appendStringInfo(buf, fmt, expr);
}

typedef struct MfImportOptions
{
	bool		not_null;
	bool		defaults;
	bool		keys;
	bool		generated;
	bool		collate;
} MfImportOptions;

static void
mf_import_options(List *options, MfImportOptions *io)
{
	ListCell   *lc;

	io->not_null = io->defaults = io->keys = io->generated = io->collate = true;
	foreach(lc, options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, "import_not_null") == 0)
			io->not_null = mf_parse_bool(d);
		else if (strcmp(d->defname, "import_default") == 0)
			io->defaults = mf_parse_bool(d);
		else if (strcmp(d->defname, "import_keys") == 0)
			io->keys = mf_parse_bool(d);
		else if (strcmp(d->defname, "import_generated") == 0)
			io->generated = mf_parse_bool(d);
		else if (strcmp(d->defname, "import_collate") == 0)
			io->collate = mf_parse_bool(d);
		else
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\" for IMPORT FOREIGN SCHEMA",
							d->defname),
					 errhint("Valid options are: import_not_null, import_default, import_keys, import_generated, import_collate.")));
	}
}

/* LIMIT TO / EXCEPT, for a catalog read without the filter */
static bool
mf_import_wanted(const MfImportFilter *filter, const char *table)
{
	ListCell   *lc;
	bool		listed = false;

	if (filter->list_type == FDW_IMPORT_SCHEMA_ALL)
		return true;
	foreach(lc, filter->table_names)
		if (strcmp((const char *) lfirst(lc), table) == 0)
			listed = true;
	return filter->list_type == FDW_IMPORT_SCHEMA_LIMIT_TO ? listed : !listed;
}

/* Close one table's statement and add it to the list. */
static List *
mf_finish_table(List *commands, StringInfo buf, const char *servername,
				const char *remote_schema, const char *table)
{
	appendStringInfo(buf, "\n) SERVER %s OPTIONS (", quote_identifier(servername));
	mf_append_option(buf, "schema_name", remote_schema);
	appendStringInfoString(buf, ", ");
	mf_append_option(buf, "table_name", table);
	appendStringInfoString(buf, ")");
	return lappend(commands, pstrdup(buf->data));
}

List *
mfImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid)
{
	MfOptions	opts;
	MfImportOptions io;
	MfConnEntry *entry;
	const MfTransport *tr;
	const MfDialect *dialect;
	MfImportFilter filter;
	StringInfoData query;
	StringInfoData buf;
	MfResult   *res;
	MfError		err;
	List	   *commands = NIL;
	char	   *table = NULL;
	int			ncols = 0;
	long		nrows = 0;
	bool		has_generated = false;
	bool		has_text_pushdown = false;
	bool		has_collation = false;
	bool		has_sum_pushdown = false;
	bool		has_text_bytes = false;
	bool		has_charset = false;
	int			n;
	ListCell   *lc;

	mf_import_options(stmt->options, &io);
	mf_get_options(serverOid, InvalidOid, &opts);
	entry = mf_get_connection(GetUserMapping(GetUserId(), serverOid), &opts);
	tr = mf_conn_transport(entry);
	dialect = opts.dialect;

	filter.remote_schema = stmt->remote_schema;
	filter.list_type = stmt->list_type;
	filter.table_names = NIL;
	foreach(lc, stmt->table_list)
		filter.table_names = lappend(filter.table_names,
									 ((RangeVar *) lfirst(lc))->relname);

	initStringInfo(&query);
	mf_claim_connection(entry, NULL);
	mf_error_clear(&err);
	if (tr->catalog_columns != NULL)
	{
		/*
		 * The client library reads the catalog itself (ODBC's catalog
		 * functions): all of the schema comes back, and LIMIT TO / EXCEPT
		 * are applied here.
		 */
		appendStringInfo(&query, "(catalog of schema %s)",
						 quote_identifier(stmt->remote_schema));
		res = tr->catalog_columns(mf_conn(entry), stmt->remote_schema, &err);
	}
	else
	{
		dialect->import_query(&query, &filter);
		res = tr->query(mf_conn(entry), query.data, 0, NULL, NULL,
						mf_read(MF_READ_CURSOR, opts.fetch_size), &err);
	}
	if (res == NULL)
		mf_raise_error(ERROR, entry, &err, query.data);

	initStringInfo(&buf);
	while ((n = tr->fetch(res, &err)) > 0)
	{
		if (nrows == 0)
		{
			has_generated = tr->ncolumns(res) > MF_IMPORT_GENERATED;
			has_text_pushdown = tr->ncolumns(res) > MF_IMPORT_TEXT_PUSHDOWN;
			has_collation = tr->ncolumns(res) > MF_IMPORT_COLLATION;
			has_sum_pushdown = tr->ncolumns(res) > MF_IMPORT_SUM_PUSHDOWN;
			has_text_bytes = tr->ncolumns(res) > MF_IMPORT_TEXT_BYTES;
			has_charset = tr->ncolumns(res) > MF_IMPORT_CHARSET;
		}
		for (int row = 0; row < n; row++)
		{
			const char *tname = tr->value(res, row, MF_IMPORT_TABLE);
			const char *cname = tr->value(res, row, MF_IMPORT_COLUMN);
			const char *rtype = tr->value(res, row, MF_IMPORT_TYPE);
			const char *deflt = tr->value(res, row, MF_IMPORT_DEFAULT);
			bool		generated = has_generated &&
				mf_text_bool(tr->value(res, row, MF_IMPORT_GENERATED));
			char	   *ltype;

			nrows++;
			if (tname == NULL)
				continue;		/* the schema exists, with nothing to import */
			if (tr->catalog_columns != NULL && !mf_import_wanted(&filter, tname))
				continue;
			if (table == NULL || strcmp(table, tname) != 0)
			{
				if (table != NULL)
					commands = mf_finish_table(commands, &buf, opts.servername,
											   stmt->remote_schema, table);
				table = pstrdup(tname);
				ncols = 0;
				resetStringInfo(&buf);
				appendStringInfo(&buf, "CREATE FOREIGN TABLE %s (",
								 quote_identifier(table));
			}
			if (cname == NULL)
				continue;		/* a table without columns */

			ltype = rtype ? dialect->map_type(rtype) : NULL;
			if (ltype == NULL)
			{
				ereport(NOTICE,
						(errmsg("column \"%s\" of remote table \"%s\" has type \"%s\", imported as text",
								cname, table, rtype ? rtype : "?")));
				ltype = "text";
			}

			/*
			 * The postgres dialect's type is the remote's text (format_type):
			 * it must be one type name, and a comment at its end ends with
			 * its line, never taking our options along.
			 */
			(void) mf_type_string_to_type_name(ltype);
			appendStringInfo(&buf, "%s\n  %s %s\n    OPTIONS (", ncols > 0 ? "," : "",
							 quote_identifier(cname), ltype);
			mf_append_option(&buf, "column_name", cname);
			if (io.keys && dialect->row_identity == MF_ROWID_KEY &&
				mf_text_bool(tr->value(res, row, MF_IMPORT_IS_KEY)))
				appendStringInfoString(&buf, ", key 'true'");
			if (has_text_pushdown &&
				mf_text_bool(tr->value(res, row, MF_IMPORT_TEXT_PUSHDOWN)))
				appendStringInfoString(&buf, ", text_pushdown 'true'");
			if (has_sum_pushdown &&
				mf_text_bool(tr->value(res, row, MF_IMPORT_SUM_PUSHDOWN)))
				appendStringInfoString(&buf, ", sum_pushdown 'true'");
			if (has_text_bytes &&
				mf_text_bool(tr->value(res, row, MF_IMPORT_TEXT_BYTES)))
			{
				const char *charset = has_charset ?
					tr->value(res, row, MF_IMPORT_CHARSET) : NULL;

				appendStringInfoString(&buf, ", text_bytes 'true'");
				/* a name, else none: the column is then converted */
				if (charset != NULL && mf_charset_name(charset))
				{
					appendStringInfoString(&buf, ", ");
					mf_append_option(&buf, "remote_charset", charset);
				}
			}
			appendStringInfoChar(&buf, ')');
			if (io.collate && has_collation &&
				tr->value(res, row, MF_IMPORT_COLLATION) != NULL)
				mf_append_collation(&buf,
									tr->value(res, row, MF_IMPORT_COLLATION),
									table);
			if (io.not_null && mf_text_bool(tr->value(res, row, MF_IMPORT_NOT_NULL)))
				appendStringInfoString(&buf, " NOT NULL");
			if (generated && deflt != NULL)
			{
				if (io.generated)
					mf_append_expression(&buf, " GENERATED ALWAYS AS (%s) STORED",
										 deflt, table);
			}
			else if (io.defaults && deflt != NULL && dialect->default_importable(deflt))
				mf_append_expression(&buf, " DEFAULT (%s)", deflt, table);
			ncols++;
		}
	}
	if (n < 0)
	{
		MfError		copy = err;

		tr->result_close(res);
		mf_raise_error(ERROR, entry, &copy, query.data);
	}
	tr->result_close(res);
	if (nrows == 0 &&
		(dialect->import_reports_schema || tr->catalog_columns != NULL))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_SCHEMA_NOT_FOUND),
				 errmsg("schema \"%s\" is not present on foreign server \"%s\"",
						stmt->remote_schema, opts.servername)));
	if (table != NULL)
		commands = mf_finish_table(commands, &buf, opts.servername,
								   stmt->remote_schema, table);
	return commands;
}
