/*-------------------------------------------------------------------------
 *
 * stored_row.c
 *		The row as the remote stored it, read back as the statement runs,
 *		by the plan of stored_row_plan.c (where the reasons are written).
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

#include "exec/exec.h"
/*
 * Does the server of this connection return the row with the statement?
 * Asked as a statement that may return it begins: planning does not
 * connect (EXPLAIN never does), so it plans for both answers.  The
 * transport knows the version once connected, without a question.
 */
bool
mf_stored_row_server_returns(MfConnEntry *entry, CmdType operation,
							 bool do_nothing)
{
	const MfDialect *dialect = mf_conn_dialect(entry);
	const MfTransport *tr = mf_conn_transport(entry);

	if (dialect->supports_returning)
		return true;
	if (dialect->returning_on == NULL)
		return false;
	return dialect->returning_on(operation, do_nothing,
								 tr->server_version ?
								 tr->server_version(mf_conn(entry)) : NULL);
}

/*
 * Read the stored row again into slot.  values and classes are the
 * one-row statement's parameters.  False when no row has the key, which
 * only a DELETE may meet (the row is gone already); INSERT and UPDATE
 * stored a row that their key no longer finds.
 */
bool
mf_stored_row_reread(MfConnEntry *entry, Relation rel, CmdType operation,
					 MfStmt **stmt, const char *sql, List *params,
					 const char *const *values, const MfTypeClass *classes,
					 MfRowReader *reader, TupleTableSlot *slot)
{
	const MfTransport *tr = mf_conn_transport(entry);
	const MfDialect *dialect = mf_conn_dialect(entry);
	int			nkeys = list_length(params);
	const char **kvalues = palloc(sizeof(char *) * nkeys);
	MfTypeClass *kclasses = palloc(sizeof(MfTypeClass) * nkeys);
	MfResult   *res = NULL;
	MfError		err;
	long		rows = 0;
	int			n;
	ListCell   *lc;

	foreach(lc, params)
	{
		int			i = foreach_current_index(lc);

		kvalues[i] = values[lfirst_int(lc)];
		kclasses[i] = classes[lfirst_int(lc)];
		if (kvalues[i] == NULL &&
			!(operation == CMD_INSERT && dialect->generated_key_sql != NULL))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_UNABLE_TO_CREATE_EXECUTION),
					 errmsg("cannot read the row stored in foreign table \"%s\" back: a key column is NULL",
							RelationGetRelationName(rel)),
					 errdetail("Dialect %s cannot return the row with the statement, and a NULL key finds no row.",
							   dialect->name)));
	}

	mf_error_clear(&err);
	if (*stmt == NULL)
	{
		*stmt = tr->prepare(mf_conn(entry), sql, nkeys, kclasses, &err);
		if (*stmt == NULL)
			mf_raise_error(ERROR, entry, &err, sql);
	}
	if (!tr->execute(*stmt, kvalues, &rows, &res, &err))
		mf_raise_error(ERROR, entry, &err, sql);
	if (res == NULL)
		elog(ERROR, "the read-back of a stored row returned no result");
	n = tr->fetch(res, &err);
	if (n == 1)
		mf_row_reader_store(reader, tr, res, 0, slot);
	tr->result_close(res);
	if (n < 0)
		mf_raise_error(ERROR, entry, &err, sql);
	if (n == 0 && operation == CMD_DELETE)
		return false;
	if (n != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_ERROR),
				 errmsg("could not read the row stored in foreign table \"%s\" back by its key",
						RelationGetRelationName(rel)),
				 n == 0 ?
				 errdetail("No remote row has the key the row was stored with; a remote trigger may have changed it.") :
				 errdetail("More than one remote row has the key of the row stored."),
				 errhint("The columns marked key 'true' must identify one row, and keep their values.")));
	return true;
}
