/*-------------------------------------------------------------------------
 *
 * truncate.c
 *		TRUNCATE of foreign tables.
 *
 * PostgreSQL hands over the foreign tables of one server at a time.  They
 * are truncated through the current user's mapping, in as few statements
 * as the dialect allows, inside the remote transaction like any other
 * statement, so that a local rollback undoes them where the remote can
 * undo a TRUNCATE.
 *
 * Where TRUNCATE is DDL that commits (MySQL, Oracle), running it inside a
 * transaction block would commit the block's earlier remote work at that
 * point and leave the TRUNCATE standing after a local ROLLBACK: it is
 * refused there, as PostgreSQL refuses its own non-transactional commands,
 * and wherever the local transaction has already used the connection (a
 * function that wrote before it truncates).  Alone, the statement's own
 * transaction has nothing else to commit.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "utils/rel.h"

#include "exec/exec.h"

void
mfExecForeignTruncate(List *rels, DropBehavior behavior, bool restart_seqs)
{
	Oid			serverid = InvalidOid;
	MfOptions	opts;
	const MfDialect *dialect;
	const char **tables;
	List	   *statements = NIL;
	int			ntables = 0;
	int			per_stmt;
	UserMapping *user;
	MfConnEntry *entry;
	ListCell   *lc;

	mf_remote_data_changed();	/* rows kept for rescans are out of date */

	tables = palloc(sizeof(char *) * list_length(rels));
	foreach(lc, rels)
	{
		Relation	rel = lfirst(lc);
		StringInfoData name;

		mf_get_table_options(RelationGetRelid(rel), &opts);
		serverid = opts.serverid;
		if (!opts.truncatable)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("foreign table \"%s\" does not allow truncates",
							RelationGetRelationName(rel))));
		initStringInfo(&name);
		mf_deparse_relation(&name, rel, opts.dialect);
		tables[ntables++] = name.data;
	}
	if (ntables == 0)
		return;

	/* the server's options, for the connection */
	mf_get_options(serverid, InvalidOid, &opts);
	dialect = opts.dialect;
	if (dialect->deparse_truncate == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot truncate foreign tables of dialect %s",
						dialect->name)));
	user = GetUserMapping(GetUserId(), serverid);
	if (dialect->truncate_commits &&
		(IsTransactionBlock() || mf_conn_xact_open(user)))
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("TRUNCATE of a foreign table of dialect %s must be a transaction of its own",
						dialect->name),
				 errdetail("The remote commits its transaction at a TRUNCATE, with what the transaction did before; a local ROLLBACK could not undo it."),
				 errhint("Run the TRUNCATE alone, outside a transaction block.")));

	per_stmt = dialect->truncate_max_tables > 0 ?
		dialect->truncate_max_tables : ntables;
	for (int i = 0; i < ntables; i += per_stmt)
	{
		StringInfoData sql;
		const char *missing;

		initStringInfo(&sql);
		missing = dialect->deparse_truncate(&sql, tables + i,
											Min(per_stmt, ntables - i),
											restart_seqs,
											behavior == DROP_CASCADE);
		if (missing != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("TRUNCATE ... %s is not supported by dialect %s",
							missing, dialect->name)));
		statements = lappend(statements, sql.data);
	}

	entry = mf_get_connection(user, &opts);
	mf_conn_mark_written(entry);
	foreach(lc, statements)
		mf_conn_exec(entry, lfirst(lc), NULL);
}
