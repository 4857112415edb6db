/*-------------------------------------------------------------------------
 *
 * compat.h
 *		What differs between the PostgreSQL major versions multi_fdw
 *		builds against (15, 16, 17 and 18), in one place.
 *
 * Every layer of the core includes this (through observe/observe.h, at the
 * bottom of the layers); it is on the PostgreSQL side
 * of the wall (the transports never see it).  Each entry says in which
 * version the API changed, so that an entry can go once multi_fdw no
 * longer supports the versions before it.  Call sites use the mf_ / MF_
 * names below and stay free of version tests.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_COMPAT_H
#define MF_COMPAT_H

#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_foreign_server.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/pathnodes.h"
#include "nodes/plannodes.h"
#include "optimizer/inherit.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "parser/parse_relation.h"
#include "parser/parsetree.h"
#include "utils/acl.h"

#if PG_VERSION_NUM < 150000
#error "multi_fdw needs PostgreSQL 15 or later"
#endif

/*
 * 18: pg_attribute_noreturn() (after the declarator) gave way to
 * pg_noreturn (C11's _Noreturn, before the declaration).  GCC and clang
 * take the attribute form before the declaration too.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * 18: ExplainState and the ExplainProperty* functions moved out of
 * commands/explain.h.
 */
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#include "commands/explain_state.h"
#else
#include "commands/explain.h"
#endif

/*
 * 16: the user whose rights a range table entry is checked with
 * (checkAsUser) moved from RangeTblEntry to RTEPermissionInfo; the plan
 * nodes and the executor hand it out themselves.  Each returns the current
 * user when none is set, as the checks do.
 */

/* the user a foreign scan (or a direct modification) runs as */
static inline Oid
mf_fscan_userid(ForeignScan *fsplan, EState *estate, Index rti)
{
#if PG_VERSION_NUM >= 160000
	(void) estate;
	(void) rti;
	return OidIsValid(fsplan->checkAsUser) ? fsplan->checkAsUser : GetUserId();
#else
	RangeTblEntry *rte = exec_rt_fetch(rti, estate);

	(void) fsplan;
	return OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
#endif
}

/* the user a relation of the executor's range table is read as */
static inline Oid
mf_exec_rte_userid(EState *estate, RangeTblEntry *rte)
{
#if PG_VERSION_NUM >= 160000
	if (rte->perminfoindex != 0)
	{
		RTEPermissionInfo *perminfo = getRTEPermissionInfo(estate->es_rteperminfos,
														   rte);

		if (OidIsValid(perminfo->checkAsUser))
			return perminfo->checkAsUser;
	}
	return GetUserId();
#else
	(void) estate;
	return OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
#endif
}

/*
 * The user a result relation is modified as: a partition that rows are
 * routed into (range table index 0) counts as its root.
 */
static inline Oid
mf_result_rel_userid(ResultRelInfo *rinfo, EState *estate)
{
#if PG_VERSION_NUM >= 160000
	return ExecGetResultRelCheckAsUser(rinfo, estate);
#else
	Index		rti = rinfo->ri_RangeTableIndex;
	RangeTblEntry *rte;

	if (rti == 0 && rinfo->ri_RootResultRelInfo != NULL)
		rti = rinfo->ri_RootResultRelInfo->ri_RangeTableIndex;
	if (rti == 0)
		return GetUserId();
	rte = exec_rt_fetch(rti, estate);
	return OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
#endif
}

/*
 * The same before the planner has built its relations (AddForeignUpdateTargets
 * of the statement's own target): from the range table.  A child of an
 * inherited target has no permission entry of its own; the target's counts.
 */
static inline Oid
mf_planner_rte_userid(PlannerInfo *root, Index rti)
{
	/* the range table itself: the planner's arrays may not be built yet */
	RangeTblEntry *rte = rt_fetch(rti, root->parse->rtable);
#if PG_VERSION_NUM >= 160000
	RTEPermissionInfo *perminfo;

	if (rte->perminfoindex == 0)
		rte = rt_fetch(root->parse->resultRelation, root->parse->rtable);
	if (rte->perminfoindex == 0)
		return GetUserId();
	perminfo = getRTEPermissionInfo(root->parse->rteperminfos, rte);
	return OidIsValid(perminfo->checkAsUser) ? perminfo->checkAsUser : GetUserId();
#else
	return OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
#endif
}

/*
 * The same while planning a write to range table entry rti: its relation's
 * user where the planner has built one (a child of an inherited target
 * has no permission entry of its own), else the range table's (the target
 * of an INSERT is not among the planner's relations).
 */
static inline Oid
mf_planner_result_userid(PlannerInfo *root, Index rti)
{
#if PG_VERSION_NUM >= 160000
	RelOptInfo *rel = root->simple_rel_array != NULL &&
		rti < (Index) root->simple_rel_array_size ?
		root->simple_rel_array[rti] : NULL;

	if (rel != NULL && OidIsValid(rel->userid))
		return rel->userid;
#endif
	return mf_planner_rte_userid(root, rti);
}

/*
 * 16: the columns an UPDATE sets, with the generated columns that depend on
 * them (RangeTblEntry's updatedCols and extraUpdatedCols before).
 */
static inline Bitmapset *
mf_updated_cols(PlannerInfo *root, Index rti)
{
#if PG_VERSION_NUM >= 160000
	return get_rel_all_updated_cols(root, find_base_rel(root, rti));
#else
	RangeTblEntry *rte = planner_rt_fetch(rti, root);

	return bms_union(rte->updatedCols, rte->extraUpdatedCols);
#endif
}

/* 16: the pg_*_aclcheck functions became object_aclcheck */
#if PG_VERSION_NUM >= 160000
#define mf_foreign_server_aclcheck(srvid, roleid, mode) \
	object_aclcheck(ForeignServerRelationId, (srvid), (roleid), (mode))
#define mf_database_aclcheck(dbid, roleid, mode) \
	object_aclcheck(DatabaseRelationId, (dbid), (roleid), (mode))
#else
#define mf_database_aclcheck(dbid, roleid, mode) \
	pg_database_aclcheck((dbid), (roleid), (mode))
#define mf_foreign_server_aclcheck(srvid, roleid, mode) \
	pg_foreign_server_aclcheck((srvid), (roleid), (mode))
#endif

/* 16: typeStringToTypeName took a soft-error context (NULL: raise) */
#if PG_VERSION_NUM >= 160000
#define mf_type_string_to_type_name(str) typeStringToTypeName((str), NULL)
#else
#define mf_type_string_to_type_name(str) typeStringToTypeName(str)
#endif

/*
 * 17: create_foreignscan_path and create_foreign_upper_path take the
 * restrictions a parameterised path enforces (fdw_restrictinfo); 18: the
 * count of disabled nodes below the path comes first.  multi_fdw makes
 * unparameterised paths with nothing disabled below: none of either.
 */
static inline ForeignPath *
mf_create_foreignscan_path(PlannerInfo *root, RelOptInfo *rel, double rows,
						   Cost startup_cost, Cost total_cost, List *pathkeys,
						   Relids required_outer, List *fdw_private)
{
#if PG_VERSION_NUM >= 180000
	return create_foreignscan_path(root, rel, NULL, rows, 0,
								   startup_cost, total_cost, pathkeys,
								   required_outer, NULL, NIL, fdw_private);
#elif PG_VERSION_NUM >= 170000
	return create_foreignscan_path(root, rel, NULL, rows,
								   startup_cost, total_cost, pathkeys,
								   required_outer, NULL, NIL, fdw_private);
#else
	return create_foreignscan_path(root, rel, NULL, rows,
								   startup_cost, total_cost, pathkeys,
								   required_outer, NULL, fdw_private);
#endif
}

static inline ForeignPath *
mf_create_foreign_upper_path(PlannerInfo *root, RelOptInfo *rel,
							 PathTarget *target, double rows,
							 Cost startup_cost, Cost total_cost,
							 List *pathkeys, List *fdw_private)
{
#if PG_VERSION_NUM >= 180000
	return create_foreign_upper_path(root, rel, target, rows, 0,
									 startup_cost, total_cost, pathkeys,
									 NULL, NIL, fdw_private);
#elif PG_VERSION_NUM >= 170000
	return create_foreign_upper_path(root, rel, target, rows,
									 startup_cost, total_cost, pathkeys,
									 NULL, NIL, fdw_private);
#else
	return create_foreign_upper_path(root, rel, target, rows,
									 startup_cost, total_cost, pathkeys,
									 NULL, fdw_private);
#endif
}

/* a join path: unparameterised, no EvalPlanQual path below */
static inline ForeignPath *
mf_create_foreign_join_path(PlannerInfo *root, RelOptInfo *rel, double rows,
							Cost startup_cost, Cost total_cost, List *pathkeys)
{
#if PG_VERSION_NUM >= 180000
	return create_foreign_join_path(root, rel, NULL, rows, 0,
									startup_cost, total_cost, pathkeys,
									NULL, NULL, NIL, NIL);
#elif PG_VERSION_NUM >= 170000
	return create_foreign_join_path(root, rel, NULL, rows,
									startup_cost, total_cost, pathkeys,
									NULL, NULL, NIL, NIL);
#else
	return create_foreign_join_path(root, rel, NULL, rows,
									startup_cost, total_cost, pathkeys,
									NULL, NULL, NIL);
#endif
}

/* an ascending, NULLS LAST key of ec's first operator family */
static inline PathKey *
mf_make_ascending_pathkey(PlannerInfo *root, EquivalenceClass *ec)
{
#if PG_VERSION_NUM >= 180000
	return make_canonical_pathkey(root, ec, linitial_oid(ec->ec_opfamilies),
								  COMPARE_LT, false);
#else
	return make_canonical_pathkey(root, ec, linitial_oid(ec->ec_opfamilies),
								  BTLessStrategyNumber, false);
#endif
}

/* 18: a path key's direction is a compare type, no longer a strategy */
static inline bool
mf_pathkey_descending(PathKey *pathkey)
{
#if PG_VERSION_NUM >= 180000
	return pathkey->pk_cmptype == COMPARE_GT;
#else
	return pathkey->pk_strategy == BTGreaterStrategyNumber;
#endif
}

/*
 * 16: a foreign scan names the base relations it covers in fs_base_relids
 * (fs_relids came to include outer joins); before, fs_relids alone.  Both
 * are renumbered with the plan, unlike anything kept in fdw_private.
 */
static inline Index
mf_fscan_first_base_relid(ForeignScan *fsplan)
{
#if PG_VERSION_NUM >= 160000
	return (Index) bms_next_member(fsplan->fs_base_relids, -1);
#else
	return (Index) bms_next_member(fsplan->fs_relids, -1);
#endif
}

/*
 * 17: backends are numbered from 0 by MyProcNumber (the 1-based
 * MyBackendId is gone).  mf_backend_index() is this backend's slot among
 * MaxBackends, or -1 when it has none (an auxiliary process).
 */
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#define mf_backend_index() \
	(MyProcNumber >= 0 && MyProcNumber < MaxBackends ? MyProcNumber : -1)
#else
#include "storage/backendid.h"
#define mf_backend_index() \
	(MyBackendId >= 1 && MyBackendId <= MaxBackends ? MyBackendId - 1 : -1)
#endif

/*
 * 17: a wait-event set belongs to a resource owner (NULL: to no one, kept
 * until freed) rather than to a memory context.
 */
#if PG_VERSION_NUM >= 170000
#define mf_create_wait_event_set(nevents) CreateWaitEventSet(NULL, (nevents))
#else
#define mf_create_wait_event_set(nevents) \
	CreateWaitEventSet(TopMemoryContext, (nevents))
#endif

#endif							/* MF_COMPAT_H */
