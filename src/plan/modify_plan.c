/*-------------------------------------------------------------------------
 *
 * modify_plan.c
 *		Planning INSERT, UPDATE and DELETE on a foreign table: the one-row
 *		statement, the columns it sends, how the row is found again and
 *		how the stored row comes back.
 *
 * What is planned here reaches modify.c through the ModifyTable's
 * fdw_private, whose positions modify_int.h names.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/appendinfo.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "plan/plan.h"
#include "plan/modify_int.h"

/* every column a row of rel has, in order, except dropped and generated */
List *
mf_modify_columns(Relation rel, bool skip_generated)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	List	   *attrs = NIL;

	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attisdropped || (skip_generated && att->attgenerated))
			continue;
		attrs = lappend_int(attrs, i + 1);
	}
	return attrs;
}

/* The dialect of rel's server, and its transport's marker style. */
const MfDialect *
mf_modify_dialect(Relation rel, MfMarkerStyle *markers)
{
	MfOptions	opts;

	mf_get_table_options(RelationGetRelid(rel), &opts);
	if (markers != NULL)
		*markers = opts.transport->markers;
	return opts.dialect;
}

/* ---------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------
 */

void
mfAddForeignUpdateTargets(PlannerInfo *root, Index rtindex,
						  RangeTblEntry *target_rte, Relation target_relation)
{
	mf_rowid_add_targets(root, rtindex, target_relation,
						 mf_modify_dialect(target_relation, NULL),
						 mf_planner_rte_userid(root, rtindex));
}

/* DO NOTHING must be expressible, DO UPDATE is not */
void
mf_check_insert_features(Relation rel, const MfDialect *dialect,
						 OnConflictAction on_conflict)
{
	if (on_conflict == ONCONFLICT_NOTHING && !dialect->supports_do_nothing)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ON CONFLICT DO NOTHING is not supported for foreign table \"%s\" of dialect %s",
						RelationGetRelationName(rel), dialect->name)));
	if (on_conflict == ONCONFLICT_UPDATE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ON CONFLICT DO UPDATE is not supported on foreign table \"%s\"",
						RelationGetRelationName(rel))));
}

/* The one-row statement of an operation. */
static char *
mf_deparse_modify(Relation rel, const MfDialect *dialect, MfMarkerStyle markers,
				  CmdType operation, List *target_attrs, List *identity_attrs,
				  bool do_nothing, List *returning_attrs)
{
	if (operation == CMD_INSERT)
		return mf_deparse_insert(rel, dialect, markers, target_attrs, 1,
								 do_nothing, returning_attrs);
	if (operation == CMD_UPDATE)
		return mf_deparse_update(rel, dialect, markers, target_attrs,
								 identity_attrs, returning_attrs);
	return mf_deparse_delete(rel, dialect, markers, identity_attrs,
							 returning_attrs);
}

List *
mfPlanForeignModify(PlannerInfo *root, ModifyTable *plan, Index resultRelation,
					int subplan_index)
{
	CmdType		operation = plan->operation;
	RangeTblEntry *rte = planner_rt_fetch(resultRelation, root);
	Relation	rel = table_open(rte->relid, NoLock);
	MfMarkerStyle markers;
	const MfDialect *dialect = mf_modify_dialect(rel, &markers);
	List	   *target_attrs = NIL;
	List	   *identity_attrs = NIL;
	List	   *returning_attrs = NIL;
	bool		do_nothing = plan->onConflictAction == ONCONFLICT_NOTHING;
	List	   *returning_list = plan->returningLists ?
		list_nth(plan->returningLists, subplan_index) : NIL;
	bool		check_option = plan->withCheckOptionLists != NIL &&
		list_nth(plan->withCheckOptionLists, subplan_index) != NIL;
	char	   *sql = NULL;
	char	   *sql_unpruned = NULL;
	int			nprune = 0;
	char	   *sql_plain = NULL;
	Oid			userid = mf_planner_result_userid(root, resultRelation);
	MfStoredRow sr;

	/* what is sent, and how the row is found again */
	switch (operation)
	{
		case CMD_INSERT:
			mf_check_insert_features(rel, dialect, plan->onConflictAction);
			target_attrs = mf_modify_columns(rel, true);
			break;
		case CMD_UPDATE:
			{
				Bitmapset  *cols = mf_updated_cols(root, resultRelation);
				int			col = -1;

				while ((col = bms_next_member(cols, col)) >= 0)
				{
					AttrNumber	attno = col + FirstLowInvalidHeapAttributeNumber;

					if (attno <= InvalidAttrNumber)
						elog(ERROR, "system-column update is not supported");
					/* generated: the remote's to compute (18: or virtual) */
					if (TupleDescAttr(RelationGetDescr(rel), attno - 1)->attgenerated)
						continue;
					target_attrs = lappend_int(target_attrs, attno);
				}

				/*
				 * A local BEFORE ROW trigger may change any column, not just
				 * those of the SET list: send them all, as postgres_fdw does.
				 */
				if (rel->trigdesc && rel->trigdesc->trig_update_before_row)
					target_attrs = mf_modify_columns(rel, true);
				identity_attrs = mf_rowid_identity_attrs(rel, dialect, userid,
														 plan->plan.lefttree->targetlist,
														 &nprune);
				break;
			}
		case CMD_DELETE:
			identity_attrs = mf_rowid_identity_attrs(rel, dialect, userid,
													 plan->plan.lefttree->targetlist,
													 &nprune);
			break;
		default:
			elog(ERROR, "unexpected operation: %d", (int) operation);
	}

	/* how the row as stored comes back, when something needs it */
	mf_stored_row_plan(&sr, rel, dialect, markers, operation,
					   returning_list, check_option, do_nothing,
					   target_attrs, identity_attrs);
	if (sr.returning)
		returning_attrs = sr.attrs;
	sql = mf_deparse_modify(rel, dialect, markers, operation, target_attrs,
							identity_attrs, do_nothing, returning_attrs);
	if (sr.server_decides)
		sql_plain = mf_deparse_modify(rel, dialect, markers, operation,
									  target_attrs, identity_attrs,
									  do_nothing, NIL);

	/* a row whose partition key is NULL goes without it (rowid.c) */
	if (nprune > 0)
		sql_unpruned = mf_deparse_modify(rel, dialect, markers, operation,
										 target_attrs,
										 list_truncate(list_copy(identity_attrs),
													   list_length(identity_attrs) - nprune),
										 do_nothing, returning_attrs);
	table_close(rel, NoLock);

	return list_concat(list_make5(makeString(sql), target_attrs,
								  identity_attrs, sr.attrs,
								  makeBoolean(do_nothing)),
					   list_make5(makeString(sql_unpruned ? sql_unpruned : ""),
								  makeInteger(nprune),
								  makeString(sr.reread_sql ? sr.reread_sql : ""),
								  sr.reread_params,
								  makeString(sql_plain ? sql_plain : "")));
}

int
mfIsForeignRelUpdatable(Relation rel)
{
	MfOptions	opts;
	int			events = (1 << CMD_INSERT);

	mf_get_table_options(RelationGetRelid(rel), &opts);
	if (!opts.updatable)
		return 0;
	/* without a row identity only INSERT is possible */
	if (opts.dialect->row_identity == MF_ROWID_CTID)
		return events | (1 << CMD_UPDATE) | (1 << CMD_DELETE);
	for (int i = 0; i < RelationGetDescr(rel)->natts; i++)
		if (!TupleDescAttr(RelationGetDescr(rel), i)->attisdropped &&
			mf_column_is_key(RelationGetRelid(rel), i + 1))
			return events | (1 << CMD_UPDATE) | (1 << CMD_DELETE);
	return events;
}
