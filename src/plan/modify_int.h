/*-------------------------------------------------------------------------
 *
 * modify_int.h
 *		What the planning (modify_plan.c) and the execution (modify.c) of
 *		INSERT, UPDATE and DELETE share.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MODIFY_INT_H
#define MODIFY_INT_H

#include "plan/plan.h"

/* fdw_private of a ModifyTable's foreign target, by position */
enum MfModifyPrivate
{
	MF_MOD_SQL,					/* the one-row statement (String) */
	MF_MOD_TARGET_ATTRS,		/* columns sent (List of Integer) */
	MF_MOD_IDENTITY_ATTRS,		/* row identity columns (List of Integer) */
	MF_MOD_RETURNING_ATTRS,		/* columns read back (List of Integer) */
	MF_MOD_DO_NOTHING,			/* ON CONFLICT DO NOTHING (Boolean) */
	MF_MOD_SQL_UNPRUNED,		/* the statement for a row whose partition
								 * key is NULL (String; "" when none) */
	MF_MOD_NPRUNE,				/* partition key columns at the end of the
								 * identity (Integer) */
	MF_MOD_REREAD_SQL,			/* the SELECT that reads the stored row back
								 * by key (String; "" when the statement
								 * returns it, or nothing needs it) */
	MF_MOD_REREAD_PARAMS,		/* its parameters' positions among the
								 * statement's (List of Integer) */
	MF_MOD_SQL_PLAIN			/* MF_MOD_SQL without its RETURNING, for a
								 * server that turns out to have none
								 * (String; "" when there is no choice) */
};

/* modify_plan.c */
extern List *mf_modify_columns(Relation rel, bool skip_generated);
extern const MfDialect *mf_modify_dialect(Relation rel, MfMarkerStyle *markers);
extern void mf_check_insert_features(Relation rel, const MfDialect *dialect,
									 OnConflictAction on_conflict);

#endif							/* MODIFY_INT_H */
