/*-------------------------------------------------------------------------
 *
 * twophase_int.h
 *		What the files of two-phase commit share: the protocol
 *		(twophase.c), its log on the gateway's disk (twophase_log.c) and
 *		the resolution of what was left in doubt (twophase_resolve.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_TWOPHASE_INT_H
#define MF_TWOPHASE_INT_H

#include "nodes/pg_list.h"
#include "utils/timestamp.h"

/* A remote transaction logged before its PREPARE and not known ended. */
typedef struct MfIntent
{
	char		gid[64];
	Oid			umid;			/* the user mapping that made it */
	Oid			serverid;
	Oid			userid;			/* its transaction's user (InvalidOid in a
								 * line of an older log) */
	int			pid;			/* the session that made it ... */
	TimestampTz started;		/* ... and when that session began */
	bool		handed;			/* that session left it to the resolver */
} MfIntent;

/* twophase_log.c */
extern uint64 mf_gateway_identity(void);
extern void mf_gid_prefix(char *buf, size_t len);
extern bool mf_parse_gid(const char *gid, TransactionId *xid, Oid *umid,
						 TimestampTz *made);
extern void mf_intents_log(List *entries);
extern void mf_intents_done(const char *gid);
extern void mf_intents_done_quietly(const char *gid);
extern void mf_intents_hand_over(const char *gid);
extern List *mf_intents_open(void);
extern void mf_intents_compact(bool wait);

/* twophase.c: the decision table */
extern char *mf_decision_table(void);

#endif							/* MF_TWOPHASE_INT_H */
