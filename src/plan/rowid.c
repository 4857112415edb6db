/*-------------------------------------------------------------------------
 *
 * rowid.c
 *		How a row-by-row UPDATE or DELETE finds its remote row again.
 *
 * The columns marked key 'true' where there are any; otherwise, for the
 * postgres dialect, the remote (tableoid, ctid): ctid alone is unique only
 * within one table, and under a remote partitioned table or inheritance
 * parent the rows of two children share ctids.  A statement by
 * (tableoid, ctid) cannot be pruned by the remote, which then looks for
 * the ctid in every partition; so the old values of the remote's partition
 * key columns go with it ("... AND part = $3"), and the remote visits only
 * the partition that holds the row.  A row whose key is NULL is sent
 * without them (NULL = NULL finds nothing), and so is every row when the
 * local column's type is not the remote's.
 *
 * What the remote says of its relations is asked while planning, once per
 * remote transaction (remote_facts.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "foreign/foreign.h"
#include "nodes/makefuncs.h"
#include "nodes/pg_list.h"
#include "optimizer/appendinfo.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "plan/plan.h"

/* the columns marked key 'true'; none is an error unless missing_ok */
List *
mf_key_columns(Relation rel, bool missing_ok)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	List	   *keys = NIL;

	for (int i = 0; i < tupdesc->natts; i++)
	{
		if (TupleDescAttr(tupdesc, i)->attisdropped)
			continue;
		if (mf_column_is_key(RelationGetRelid(rel), i + 1))
			keys = lappend_int(keys, i + 1);
	}
	if (keys == NIL && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_UNABLE_TO_CREATE_EXECUTION),
				 errmsg("foreign table \"%s\" has no key column",
						RelationGetRelationName(rel)),
				 errhint("UPDATE and DELETE find rows by the columns marked with the column option key 'true'.")));
	return keys;
}

/* The connection that plans for userid use, and the quoted remote name. */
static MfConnEntry *
mf_rowid_connection(Relation rel, Oid userid, const MfDialect *dialect,
					StringInfo name)
{
	MfOptions	opts;
	MfConnEntry *entry;

	mf_get_table_options(RelationGetRelid(rel), &opts);
	entry = mf_get_connection(GetUserMapping(userid, opts.serverid), &opts);
	initStringInfo(name);
	mf_deparse_relation(name, rel, dialect);
	return entry;
}

/*
 * (tableoid, ctid) find a row only in a table: a remote view or foreign
 * table has no ctid.  Ask the remote what the relation is while planning,
 * so that the error names the option to set, rather than the remote
 * complaining of a missing column once rows are being changed.
 */
void
mf_rowid_check_target(Relation rel, Oid userid, const MfDialect *dialect)
{
	const char *sql = dialect->ctid_check_fmt;
	StringInfoData name;
	MfConnEntry *entry;
	bool		is_table;

	/*
	 * A read-only transaction refuses the statement as its executor
	 * starts, with PostgreSQL's own error: nothing is asked for it (the
	 * execution of a plan kept for later asks again, mf_rowid_prune_attrs'
	 * rule).
	 */
	if (sql == NULL || XactReadOnly)
		return;
	entry = mf_rowid_connection(rel, userid, dialect, &name);
	if (!mf_conn_remembered(entry, sql, name.data, &is_table))
	{
		char	   *query = mf_deparse_catalog_query(sql,
													 mf_conn_transport(entry)->markers,
													 1);

		mf_claim_connection(entry, NULL);
		is_table = mf_conn_ask_about_table(entry, query, name.data, true);
		pfree(query);
		mf_conn_remember(entry, sql, name.data, is_table);
	}
	if (!is_table)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("cannot update or delete rows of foreign table \"%s\" one by one: its remote relation %s is not a table",
						RelationGetRelationName(rel), name.data),
				 errdetail("Rows are found again by the remote ctid, which only tables have."),
				 errhint("Mark the columns that identify a row with the column option key 'true'.")));
}

/*
 * The local columns that stand for the remote's partition key columns, in
 * attnum order; NIL when the remote relation is not partitioned (or the
 * foreign table lacks its key columns: then every partition is searched).
 * stale_ok: an answer of an earlier remote transaction will do.  It does
 * for the columns the scan carries (mf_rowid_add_targets: the question
 * would otherwise cost an exchange per transaction for every UPDATE, even
 * one sent whole); the statement that finds rows again uses only those of
 * them that the remote says now are keys (mf_rowid_identity_attrs).
 */
List *
mf_rowid_prune_attrs(Relation rel, Oid userid, const MfDialect *dialect,
					 bool stale_ok)
{
	const char *sql = dialect->partition_key_fmt;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	StringInfoData name;
	MfConnEntry *entry;
	List	   *names;
	List	   *attrs = NIL;

	/* a read-only transaction asks nothing (mf_rowid_check_target) */
	if (sql == NULL || XactReadOnly)
		return NIL;
	entry = mf_rowid_connection(rel, userid, dialect, &name);
	if (!mf_conn_remembered_names(entry, sql, name.data, stale_ok, &names))
	{
		char	   *query = mf_deparse_catalog_query(sql,
													 mf_conn_transport(entry)->markers,
													 1);

		mf_claim_connection(entry, NULL);
		names = mf_conn_ask_rows(entry, query, name.data, 2);
		pfree(query);
		mf_conn_remember_names(entry, sql, name.data, names);
	}
	if (names == NIL)
		return NIL;
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const char *remote_name;
		char	   *type;

		if (att->attisdropped)
			continue;
		remote_name = mf_column_name(RelationGetRelid(rel), att->attnum);
		type = format_type_with_typemod(att->atttypid, att->atttypmod);

		/*
		 * (name, type) pairs.  A local type of less precision than the
		 * remote's (float4 over float8, timestamp(0) over timestamp) would
		 * send a value that equals no stored one: the row would not be
		 * found, with no error.
		 */
		for (int k = 0; k + 1 < list_length(names); k += 2)
			if (strcmp(list_nth(names, k), remote_name) == 0 &&
				strcmp(list_nth(names, k + 1), type) == 0)
				attrs = lappend_int(attrs, att->attnum);
	}
	return attrs;
}

/*
 * The junk column of a partition key value.  Row identity names are shared
 * by every child of an inherited UPDATE target, and one name must always
 * mean the same Var: it says which.
 */
char *
mf_rowid_prune_name(Relation rel, AttrNumber attnum)
{
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);

	return psprintf("mf_part_%d_%u_%d_%u", attnum, att->atttypid,
					att->atttypmod, att->attcollation);
}

/*
 * The identity an UPDATE or DELETE needs: the key columns, or tableoid,
 * ctid and the partition key columns.  Added to the rows the scan returns.
 */
void
mf_rowid_add_targets(PlannerInfo *root, Index rtindex, Relation rel,
					 const MfDialect *dialect, Oid userid)
{
	List	   *keys = mf_key_columns(rel, dialect->row_identity == MF_ROWID_CTID);
	ListCell   *lc;

	if (dialect->row_identity == MF_ROWID_CTID && keys == NIL)
	{
		add_row_identity_var(root,
							 makeVar(rtindex, MF_REMOTE_TABLEOID_ATTNO,
									 XIDOID, -1, InvalidOid, 0),
							 rtindex, "mf_tableoid");
		add_row_identity_var(root,
							 makeVar(rtindex, SelfItemPointerAttributeNumber,
									 TIDOID, -1, InvalidOid, 0),
							 rtindex, "ctid");
		foreach(lc, mf_rowid_prune_attrs(rel, userid, dialect, true))
		{
			Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel),
												  lfirst_int(lc) - 1);

			add_row_identity_var(root,
								 makeVar(rtindex, att->attnum, att->atttypid,
										 att->atttypmod, att->attcollation, 0),
								 rtindex, mf_rowid_prune_name(rel, att->attnum));
		}
		return;
	}

	foreach(lc, keys)
	{
		Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel),
											  lfirst_int(lc) - 1);

		add_row_identity_var(root,
							 makeVar(rtindex, att->attnum, att->atttypid,
									 att->atttypmod, att->attcollation, 0),
							 rtindex, psprintf("mf_key_%d", att->attnum));
	}
}

/* Does the plan's target list carry the junk column name? */
static bool
mf_tlist_has_junk(List *tlist, const char *name)
{
	ListCell   *lc;

	foreach(lc, tlist)
	{
		TargetEntry *tle = lfirst(lc);

		if (tle->resjunk && tle->resname && strcmp(tle->resname, name) == 0)
			return true;
	}
	return false;
}

/*
 * How the statement names the row: the key columns, or tableoid and ctid
 * followed by the partition key columns the subplan carries (*nprune of
 * them; a row whose key is NULL leaves them out, see mf_rowid_sql_unpruned).
 */
List *
mf_rowid_identity_attrs(Relation rel, const MfDialect *dialect, Oid userid,
						List *subplan_tlist, int *nprune)
{
	List	   *keys = mf_key_columns(rel, dialect->row_identity == MF_ROWID_CTID);
	List	   *attrs;
	ListCell   *lc;

	*nprune = 0;
	if (dialect->row_identity != MF_ROWID_CTID || keys != NIL)
		return keys;
	mf_rowid_check_target(rel, userid, dialect);
	attrs = list_make2_int(MF_REMOTE_TABLEOID_ATTNO,
						   SelfItemPointerAttributeNumber);
	foreach(lc, mf_rowid_prune_attrs(rel, userid, dialect, false))
	{
		if (!mf_tlist_has_junk(subplan_tlist,
							   mf_rowid_prune_name(rel, lfirst_int(lc))))
			continue;
		attrs = lappend_int(attrs, lfirst_int(lc));
		(*nprune)++;
	}
	return attrs;
}

/*
 * As a statement that finds rows by their ctid begins to run: what its
 * plan was made with, asked again under remote_facts.c's rule (an answer of
 * this remote transaction is used again, so a custom plan, planned in it,
 * asks nothing more; a generic plan used in a later transaction asks
 * anew).  Is the relation still a table?  If not, the error says what to
 * do, rather than the remote refusing the scan.  Are the partition key
 * columns the identity ends with (the last nprune of identity_attrs) still
 * keys of the remote relation, of the same types?  false when not: every
 * row then goes by the statement without them, by tableoid and ctid
 * alone (the one planned for a NULL partition key): a column that now
 * differs from the local one in precision would find no row, with no
 * error.
 */
bool
mf_rowid_check_exec(Relation rel, Oid userid, const MfDialect *dialect,
					List *identity_attrs, int nprune)
{
	List	   *keys;
	int			n = list_length(identity_attrs);

	if (dialect->row_identity != MF_ROWID_CTID ||
		!list_member_int(identity_attrs, SelfItemPointerAttributeNumber))
		return true;
	mf_rowid_check_target(rel, userid, dialect);
	if (nprune <= 0)
		return true;
	keys = mf_rowid_prune_attrs(rel, userid, dialect, false);
	for (int i = n - nprune; i < n; i++)
		if (!list_member_int(keys, list_nth_int(identity_attrs, i)))
			return false;
	return true;
}

/*
 * Before the first pruned statement: generic plans for the rest of the
 * remote transaction (the dialect's pruned_begin_sql).  Returns the setting
 * it replaced, in cxt, to be put back; NULL when the dialect has none.
 */
char *
mf_rowid_generic_begin(MfConnEntry *entry, const MfDialect *dialect,
					   MemoryContext cxt)
{
	const MfTransport *tr = mf_conn_transport(entry);
	const char *sql = dialect->pruned_begin_sql;
	char	   *old = NULL;
	MfResult   *res;
	MfError		err;
	int			n;

	if (sql == NULL)
		return NULL;
	mf_claim_connection(entry, NULL);
	mf_error_clear(&err);
	res = tr->query(mf_conn(entry), sql, 0, NULL, NULL,
					mf_read(MF_READ_WHOLE, 0), &err);
	if (res == NULL)
		mf_raise_error(ERROR, entry, &err, sql);
	n = tr->fetch(res, &err);
	if (n > 0 && tr->value(res, 0, 0) != NULL)
		old = MemoryContextStrdup(cxt, tr->value(res, 0, 0));
	tr->result_close(res);
	if (n < 0)
		mf_raise_error(ERROR, entry, &err, sql);
	return old != NULL ? old : MemoryContextStrdup(cxt, "");
}

/* After the last: the setting back, if it is a plain word. */
void
mf_rowid_generic_end(MfConnEntry *entry, const MfDialect *dialect,
					 const char *old)
{
	char	   *sql;

	if (dialect->pruned_end_fmt == NULL || old[0] == '\0' ||
		strspn(old, "abcdefghijklmnopqrstuvwxyz_") != strlen(old))
		return;
	sql = psprintf(dialect->pruned_end_fmt, old);
	mf_claim_connection(entry, NULL);
	mf_conn_exec(entry, sql, NULL);
	pfree(sql);
}
