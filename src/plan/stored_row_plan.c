/*-------------------------------------------------------------------------
 *
 * stored_row_plan.c
 *		The row as the remote stored it, for what needs it locally: the
 *		plan (whether it is needed, by RETURNING or by a SELECT by key);
 *		stored_row.c reads it back as the statement runs.
 *
 * A local WITH CHECK OPTION, an AFTER ROW trigger and RETURNING must see
 * the row the remote stored, which its BEFORE triggers, column defaults,
 * ON UPDATE clauses and AUTO_INCREMENT may have made different from the
 * row sent (postgres_fdw reads it back with RETURNING).  Where the
 * dialect's statement can return it (PostgreSQL; MariaDB's INSERT and
 * DELETE ... RETURNING), it does.  Elsewhere the row is read again by its
 * key columns in the same remote transaction: right after an INSERT (by
 * the key values sent, a key sent as NULL standing for the one the remote
 * generated), right after an UPDATE (by the new key values), right before
 * a DELETE.  A remote trigger that changes the key itself defeats the
 * re-read: the row is then not found, and the statement fails rather than
 * check some other row.
 *
 * Only one-row statements read rows back, so an INSERT that needs them is
 * sent row by row: auto does that, and a bulk insert_method named for the
 * table is refused rather than checked against the rows as sent.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "foreign/foreign.h"
#include "nodes/nodeFuncs.h"
#include "utils/rel.h"

#include "plan/plan.h"

/* every column a row of rel has, in order, except dropped ones */
static List *
mf_stored_columns(Relation rel)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	List	   *attrs = NIL;

	for (int i = 0; i < tupdesc->natts; i++)
		if (!TupleDescAttr(tupdesc, i)->attisdropped)
			attrs = lappend_int(attrs, i + 1);
	return attrs;
}

static bool
mf_refers_to_ctid_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var) && ((Var *) node)->varattno == SelfItemPointerAttributeNumber)
		return true;
	return expression_tree_walker(node, mf_refers_to_ctid_walker, context);
}

/*
 * Does anything need the row as stored?  RETURNING; for INSERT and
 * UPDATE, a WITH CHECK OPTION or an AFTER ROW trigger.  An AFTER ROW
 * DELETE trigger gets its OLD row from the scan.
 */
bool
mf_stored_row_needed(Relation rel, CmdType operation, List *returning_list,
					 bool check_option)
{
	TriggerDesc *trig = rel->trigdesc;
	bool		after_row = trig &&
		((operation == CMD_INSERT && trig->trig_insert_after_row) ||
		 (operation == CMD_UPDATE && trig->trig_update_after_row));

	if (returning_list != NIL)
		return true;
	return operation != CMD_DELETE && (check_option || after_row);
}

/* The stored row is needed, the statement cannot return it, no key finds it. */
void
mf_stored_row_no_key(Relation rel, const MfDialect *dialect)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_UNABLE_TO_CREATE_EXECUTION),
			 errmsg("foreign table \"%s\" has no key column to read the stored row back by",
					RelationGetRelationName(rel)),
			 errdetail("RETURNING, WITH CHECK OPTION and AFTER ROW triggers see the row as the remote stored it; dialect %s cannot return it with this statement on this server, so it is read again by its key.",
					   dialect->name),
			 errhint("Mark the columns that identify a row with the column option key 'true'.")));
}

/*
 * The SELECT that finds the row again by its key, and for each of its
 * markers the statement's parameter whose value it takes: an INSERT's
 * value sent, an UPDATE's new value (the old one, which is the new one,
 * for a key not in the SET list), a DELETE's row identity.  Without key
 * columns, an error unless missing_ok (some servers of the dialect return
 * the row: whether this one does is known once connected).
 */
static void
mf_plan_reread(MfStoredRow *sr, Relation rel, const MfDialect *dialect,
			   MfMarkerStyle markers, CmdType operation, List *target_attrs,
			   List *identity_attrs, bool missing_ok)
{
	List	   *keys = mf_key_columns(rel, true);
	ListCell   *lc;

	if (keys == NIL && missing_ok)
		return;
	if (keys == NIL)
		mf_stored_row_no_key(rel, dialect);

	sr->reread_params = NIL;
	foreach(lc, keys)
	{
		int			attnum = lfirst_int(lc);
		int			pos = -1;

		if (operation != CMD_DELETE)
			pos = mf_attr_position(target_attrs, attnum);
		if (pos < 0 && operation != CMD_INSERT)
		{
			pos = mf_attr_position(identity_attrs, attnum);
			if (pos >= 0)
				pos += list_length(target_attrs);
		}
		if (pos < 0)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_UNABLE_TO_CREATE_EXECUTION),
					 errmsg("cannot read the stored row of foreign table \"%s\" back: its key column \"%s\" is not sent",
							RelationGetRelationName(rel),
							NameStr(TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attname)),
					 errdetail("A generated column is computed locally and never sent.")));
		sr->reread_params = lappend_int(sr->reread_params, pos);
	}
	sr->reread_sql = mf_deparse_reread(rel, dialect, markers, sr->attrs, keys,
									   operation == CMD_INSERT);
}

/*
 * How a one-row statement gets the row as stored: sr->attrs the columns
 * read back (NIL: nothing needs them), by the statement's own RETURNING
 * where the server may have it (sr->returning), by sr->reread_sql where it
 * may not.  Both, for a dialect whose servers differ
 * (sr->server_decides): the statement's start chooses
 * (mf_stored_row_server_returns).
 */
void
mf_stored_row_plan(MfStoredRow *sr, Relation rel, const MfDialect *dialect,
				   MfMarkerStyle markers, CmdType operation,
				   List *returning_list, bool check_option, bool do_nothing,
				   List *target_attrs, List *identity_attrs)
{
	bool		ctid = mf_refers_to_ctid_walker((Node *) returning_list, NULL);

	memset(sr, 0, sizeof(*sr));
	if (ctid && dialect->row_identity != MF_ROWID_CTID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("RETURNING ctid is not supported for foreign table \"%s\" of dialect %s",
						RelationGetRelationName(rel), dialect->name),
				 errdetail("Its remote rows have no ctid.")));
	if (!mf_stored_row_needed(rel, operation, returning_list, check_option))
		return;

	if (operation == CMD_INSERT)
	{
		MfOptions	opts;

		mf_get_table_options(RelationGetRelid(rel), &opts);
		if (opts.insert_method != MF_INSERT_AUTO &&
			opts.insert_method != MF_INSERT_ROW)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("insert_method \"%s\" cannot give foreign table \"%s\" the rows as stored",
							mf_insert_method_name(opts.insert_method),
							RelationGetRelationName(rel)),
					 errdetail("RETURNING, WITH CHECK OPTION and AFTER ROW triggers see each row as the remote stored it, which only one-row statements read back."),
					 errhint("Set the table's insert_method to 'auto' or 'row'.")));
	}

	sr->attrs = mf_stored_columns(rel);
	/* the local tid of a remote row means nothing: the remote's is read */
	if (ctid)
		sr->attrs = lappend_int(sr->attrs, SelfItemPointerAttributeNumber);
	sr->returning = dialect->supports_returning ||
		(dialect->returning_on != NULL &&
		 dialect->returning_on(operation, do_nothing, NULL));
	sr->server_decides = sr->returning && !dialect->supports_returning;
	if (!dialect->supports_returning)
		mf_plan_reread(sr, rel, dialect, markers, operation, target_attrs,
					   identity_attrs, sr->server_decides);
}
