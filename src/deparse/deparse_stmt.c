/*-------------------------------------------------------------------------
 *
 * deparse_stmt.c
 *		The remote statements: names quoted by the dialect, then SELECT with
 *		its lock clause, INSERT, COPY, UPDATE, DELETE, RETURNING and the
 *		ANALYZE sample query.
 *
 * The conditions inside them are written by deparse_expr.c (mf_deparse_conditions);
 * this file writes what surrounds them.  A name the remote would shorten is
 * refused here, never sent.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "deparse/deparse_int.h"

/* ---------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------
 */

/*
 * Append a remote name quoted.  A name longer than the remote allows is an
 * error here: a remote that shortens it silently (PostgreSQL does) could
 * reach another table or column.
 */
static void
mf_quote_name(StringInfo buf, const MfDialect *dialect, const char *name,
			  const char *option)
{
	size_t		len = strlen(name);

	if (dialect->max_ident_bytes > 0 && len > (size_t) dialect->max_ident_bytes)
		ereport(ERROR,
				(errcode(ERRCODE_NAME_TOO_LONG),
				 errmsg("remote name \"%s\" is %zu bytes long, more than the %d that dialect %s allows",
						name, len, dialect->max_ident_bytes, dialect->name),
				 errhint("Check the %s option, or the local name it defaults to.",
						 option)));
	dialect->quote_ident(buf, name);
}

/*
 * The remote schema (NULL: the connection's own) and table names of rel,
 * unquoted, as its options or its local names give them.
 */
void
mf_remote_table_name(Relation rel, const MfDialect *dialect,
					 const char **schema, const char **table)
{
	MfOptions	opts;

	mf_get_table_options(RelationGetRelid(rel), &opts);
	*schema = opts.schema_name;
	if (*schema == NULL && dialect->default_schema_is_local)
		*schema = get_namespace_name(RelationGetNamespace(rel));
	*table = opts.table_name ? opts.table_name : RelationGetRelationName(rel);
}

void
mf_deparse_relation(StringInfo buf, Relation rel, const MfDialect *dialect)
{
	const char *schema;
	const char *table;

	mf_remote_table_name(rel, dialect, &schema, &table);
	if (schema != NULL)
	{
		mf_quote_name(buf, dialect, schema, "schema_name");
		appendStringInfoChar(buf, '.');
	}
	mf_quote_name(buf, dialect, table, "table_name");
}

void
mf_deparse_column(StringInfo buf, Oid relid, AttrNumber attnum,
				  const MfDialect *dialect)
{
	if (attnum == SelfItemPointerAttributeNumber)
		appendStringInfoString(buf, "ctid");
	else if (attnum == MF_REMOTE_TABLEOID_ATTNO)
		appendStringInfoString(buf, "tableoid");
	else
		mf_quote_name(buf, dialect, mf_column_name(relid, attnum),
					  "column_name");
}

/*
 * The cast a select list puts on a value of type typid so that it comes
 * as the remote's text (the dialect's select_as_text), or NULL.
 */
const char *
mf_select_cast(const MfDialect *dialect, Oid typid)
{
	if (dialect->select_as_text == NULL || !OidIsValid(typid))
		return NULL;
	return dialect->select_as_text(getBaseType(typid));
}

/*
 * Append "c1, c2, ..." for attnums (a select list's or a RETURNING's),
 * each qualified "rN." when alias is N >= 0; NULL when there are none.
 */
static void
mf_deparse_column_list(StringInfo buf, Relation rel, const MfDialect *dialect,
					   List *attrs, int alias)
{
	TupleDesc	desc = RelationGetDescr(rel);
	ListCell   *lc;
	bool		first = true;

	foreach(lc, attrs)
	{
		int			attnum = lfirst_int(lc);
		const char *cast = attnum > 0 ?
			mf_select_cast(dialect, TupleDescAttr(desc, attnum - 1)->atttypid) :
			NULL;

		if (!first)
			appendStringInfoString(buf, ", ");
		if (cast != NULL)
			appendStringInfoChar(buf, '(');
		if (alias >= 0)
			appendStringInfo(buf, "r%d.", alias);
		mf_deparse_column(buf, RelationGetRelid(rel), attnum, dialect);
		if (cast != NULL)
			appendStringInfo(buf, ")::%s AS %s", cast, MF_SELECTED_TEXT_ALIAS);
		first = false;
	}
	if (first)
		appendStringInfoString(buf, "NULL");
}

/* ---------------------------------------------------------------------
 * Statements
 * ---------------------------------------------------------------------
 */

/*
 * The lock clause of a scan.  A lock that the remote cannot give is
 * refused, not silently weakened.
 */
void
mf_deparse_lock_clause(StringInfo buf, Relation rel, const MfDialect *dialect,
					   LockClauseStrength lock, LockWaitPolicy wait)
{
	static const char *const strengths[] = {
		[LCS_FORKEYSHARE] = "FOR KEY SHARE",
		[LCS_FORSHARE] = "FOR SHARE",
		[LCS_FORNOKEYUPDATE] = "FOR NO KEY UPDATE",
		[LCS_FORUPDATE] = "FOR UPDATE",
	};

	if (dialect->deparse_lock != NULL &&
		dialect->deparse_lock(buf, lock, wait))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("SELECT %s%s is not supported on foreign table \"%s\"",
					strengths[lock],
					wait == LockWaitSkip ? " SKIP LOCKED" :
					wait == LockWaitError ? " NOWAIT" : "",
					RelationGetRelationName(rel)),
			 errdetail("Dialect %s has no way to lock remote rows so.",
					   dialect->name)));
}

void
mf_deparse_select(StringInfo buf, PlannerInfo *root, RelOptInfo *baserel,
				  Relation rel, Bitmapset *attrs_used, List *remote_conds,
				  LockClauseStrength lock, LockWaitPolicy wait,
				  List **retrieved_attrs, List **params_list)
{
	const MfDialect *dialect = ((MfRelInfo *) baserel->fdw_private)->opts.dialect;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	bool		whole_row = bms_is_member(0 - FirstLowInvalidHeapAttributeNumber,
										  attrs_used);

	*retrieved_attrs = NIL;
	for (int i = 1; i <= tupdesc->natts; i++)
	{
		if (TupleDescAttr(tupdesc, i - 1)->attisdropped)
			continue;
		if (whole_row ||
			bms_is_member(i - FirstLowInvalidHeapAttributeNumber, attrs_used))
			*retrieved_attrs = lappend_int(*retrieved_attrs, i);
	}
	if (dialect->row_identity == MF_ROWID_CTID &&
		bms_is_member(MF_REMOTE_TABLEOID_ATTNO -
					  FirstLowInvalidHeapAttributeNumber, attrs_used))
		*retrieved_attrs = lappend_int(*retrieved_attrs,
									   MF_REMOTE_TABLEOID_ATTNO);
	/* only PostgreSQL has a ctid to read; elsewhere the row has none */
	if (dialect->row_identity == MF_ROWID_CTID &&
		bms_is_member(SelfItemPointerAttributeNumber -
					  FirstLowInvalidHeapAttributeNumber, attrs_used))
		*retrieved_attrs = lappend_int(*retrieved_attrs,
									   SelfItemPointerAttributeNumber);

	appendStringInfoString(buf, "SELECT ");
	mf_deparse_column_list(buf, rel, dialect, *retrieved_attrs,
						   mf_deparse_nesting() ? (int) baserel->relid : -1);
	appendStringInfoString(buf, " FROM ");
	mf_deparse_relation(buf, rel, dialect);

	/*
	 * A subquery's nested form names its table rN, as a join does; a table
	 * whose conditions hold a subquery is r0, the alias by which the
	 * subquery names the outer columns (deparse_expr.c, mf_deparse_subplan).
	 */
	if (mf_deparse_nesting())
		appendStringInfo(buf, " r%d", baserel->relid);
	else if (mf_conds_have_subqueries(remote_conds))
		appendStringInfoString(buf, " r0");
	mf_deparse_conditions(buf, root, baserel, remote_conds, " WHERE ",
						  params_list);
	if (lock != LCS_NONE)
		mf_deparse_lock_clause(buf, rel, dialect, lock, wait);
}

void
mf_deparse_returning(StringInfo buf, Relation rel, const MfDialect *dialect,
					 List *attrs)
{
	if (attrs == NIL)
		return;
	appendStringInfoString(buf, " RETURNING ");
	mf_deparse_column_list(buf, rel, dialect, attrs, -1);
}

/* The quoted table and column names a bulk statement needs. */
static const char **
mf_deparse_target(Relation rel, const MfDialect *dialect, List *target_attrs,
				  StringInfo table)
{
	const char **columns = palloc(sizeof(char *) * Max(list_length(target_attrs), 1));
	int			i = 0;
	ListCell   *lc;

	initStringInfo(table);
	mf_deparse_relation(table, rel, dialect);
	foreach(lc, target_attrs)
	{
		StringInfoData col;

		initStringInfo(&col);
		mf_deparse_column(&col, RelationGetRelid(rel), lfirst_int(lc), dialect);
		columns[i++] = col.data;
	}
	return columns;
}

char *
mf_deparse_insert(Relation rel, const MfDialect *dialect, MfMarkerStyle markers,
				  List *target_attrs, int nrows, bool do_nothing,
				  List *returning_attrs)
{
	StringInfoData table;
	StringInfoData buf;
	const char **columns = mf_deparse_target(rel, dialect, target_attrs, &table);

	initStringInfo(&buf);
	dialect->deparse_insert(&buf, table.data, columns, list_length(target_attrs),
							nrows, do_nothing, markers);
	mf_deparse_returning(&buf, rel, dialect, returning_attrs);
	return buf.data;
}

char *
mf_deparse_copy(Relation rel, const MfDialect *dialect, List *target_attrs)
{
	StringInfoData table;
	StringInfoData buf;
	const char **columns = mf_deparse_target(rel, dialect, target_attrs, &table);
	TupleDesc	tupdesc = RelationGetDescr(rel);
	MfTypeClass *classes = palloc(sizeof(MfTypeClass) *
								  Max(list_length(target_attrs), 1));
	int			i = 0;
	ListCell   *lc;

	foreach(lc, target_attrs)
		classes[i++] = mf_type_class(TupleDescAttr(tupdesc, lfirst_int(lc) - 1)->atttypid);

	initStringInfo(&buf);
	dialect->deparse_copy(&buf, table.data, columns, classes,
						  list_length(target_attrs));
	return buf.data;
}

/*
 * Append " WHERE id1 = <p> AND ..." for the row identity, numbered from n:
 * the identity's values follow those of SET, in the order written.
 */
static void
mf_deparse_identity(StringInfo buf, Relation rel, const MfDialect *dialect,
					MfMarkerStyle markers, List *identity_attrs, int n)
{
	ListCell   *lc;
	bool		first = true;

	foreach(lc, identity_attrs)
	{
		appendStringInfoString(buf, first ? " WHERE " : " AND ");
		mf_deparse_column(buf, RelationGetRelid(rel), lfirst_int(lc), dialect);
		appendStringInfoString(buf, " = ");
		mf_append_marker(buf, markers, n++);
		first = false;
	}
}

char *
mf_deparse_update(Relation rel, const MfDialect *dialect, MfMarkerStyle markers,
				  List *target_attrs, List *identity_attrs,
				  List *returning_attrs)
{
	StringInfoData buf;
	ListCell   *lc;
	int			n = 1;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "UPDATE ");
	mf_deparse_relation(&buf, rel, dialect);
	appendStringInfoString(&buf, " SET ");
	foreach(lc, target_attrs)
	{
		if (n > 1)
			appendStringInfoString(&buf, ", ");
		mf_deparse_column(&buf, RelationGetRelid(rel), lfirst_int(lc), dialect);
		appendStringInfoString(&buf, " = ");
		mf_append_marker(&buf, markers, n++);
	}
	mf_deparse_identity(&buf, rel, dialect, markers, identity_attrs, n);
	mf_deparse_returning(&buf, rel, dialect, returning_attrs);
	return buf.data;
}

char *
mf_deparse_delete(Relation rel, const MfDialect *dialect, MfMarkerStyle markers,
				  List *identity_attrs, List *returning_attrs)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "DELETE FROM ");
	mf_deparse_relation(&buf, rel, dialect);
	mf_deparse_identity(&buf, rel, dialect, markers, identity_attrs, 1);
	mf_deparse_returning(&buf, rel, dialect, returning_attrs);
	return buf.data;
}

/*
 * An UPDATE or DELETE sent whole (direct_modify.c): the new values of the
 * updated columns (tlist and target_attrs, in step) and the scan's remote
 * conditions, every one of them already found shippable.
 */
char *
mf_deparse_direct_modify(PlannerInfo *root, RelOptInfo *baserel, Relation rel,
						 const MfDialect *dialect, CmdType operation,
						 List *tlist, List *target_attrs, List *remote_conds,
						 List **params_list)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoString(&buf, operation == CMD_UPDATE ? "UPDATE " : "DELETE FROM ");
	mf_deparse_relation(&buf, rel, dialect);
	if (operation == CMD_UPDATE)
	{
		ListCell   *lc,
				   *lc2;
		bool		first = true;

		appendStringInfoString(&buf, " SET ");
		forboth(lc, tlist, lc2, target_attrs)
		{
			if (!first)
				appendStringInfoString(&buf, ", ");
			mf_deparse_column(&buf, RelationGetRelid(rel), lfirst_int(lc2), dialect);
			appendStringInfoString(&buf, " = ");
			mf_deparse_expr(&buf, root, baserel,
							lfirst_node(TargetEntry, lc)->expr, params_list);
			first = false;
		}
	}
	mf_deparse_conditions(&buf, root, baserel, remote_conds, " WHERE ",
						  params_list);
	return buf.data;
}

/*
 * The SELECT that reads a stored row back by its key columns (stored_row.c):
 * attrs the columns read, each key compared with the next marker; after an
 * INSERT, a key the remote generates where it was sent NULL is the
 * dialect's generated_key_sql (COALESCE).
 */
char *
mf_deparse_reread(Relation rel, const MfDialect *dialect, MfMarkerStyle markers,
				  List *attrs, List *keys, bool after_insert)
{
	StringInfoData sql;
	ListCell   *lc;
	int			n = 1;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	foreach(lc, attrs)
	{
		if (foreach_current_index(lc) > 0)
			appendStringInfoString(&sql, ", ");
		mf_deparse_column(&sql, RelationGetRelid(rel), lfirst_int(lc), dialect);
	}
	appendStringInfoString(&sql, " FROM ");
	mf_deparse_relation(&sql, rel, dialect);
	foreach(lc, keys)
	{
		appendStringInfoString(&sql, n == 1 ? " WHERE " : " AND ");
		mf_deparse_column(&sql, RelationGetRelid(rel), lfirst_int(lc), dialect);
		appendStringInfoString(&sql, " = ");
		if (after_insert && dialect->generated_key_sql != NULL)
		{
			appendStringInfoString(&sql, "COALESCE(");
			mf_append_marker(&sql, markers, n++);
			appendStringInfo(&sql, ", %s)", dialect->generated_key_sql);
		}
		else
			mf_append_marker(&sql, markers, n++);
	}
	return sql.data;
}

/* SELECT of every column, for ANALYZE's sample. */
void
mf_deparse_analyze(StringInfo buf, Relation rel, const MfDialect *dialect,
				   List **retrieved_attrs)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);

	*retrieved_attrs = NIL;
	for (int i = 1; i <= tupdesc->natts; i++)
		if (!TupleDescAttr(tupdesc, i - 1)->attisdropped)
			*retrieved_attrs = lappend_int(*retrieved_attrs, i);

	appendStringInfoString(buf, "SELECT ");
	mf_deparse_column_list(buf, rel, dialect, *retrieved_attrs, -1);
	appendStringInfoString(buf, " FROM ");
	mf_deparse_relation(buf, rel, dialect);
}
