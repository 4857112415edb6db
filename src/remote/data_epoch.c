/*-------------------------------------------------------------------------
 *
 * data_epoch.c
 *		The remote data epoch: how long rows read from the remote may be
 *		believed (exec/scan_memo.c keeps a rescan's rows under it).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "remote/remote.h"

/*
 * The remote data epoch (remote.h).  It moves where the rows a remote query
 * returns may have changed as this backend sees them: a write through the
 * gateway begun (modify.c, direct_modify.c, truncate.c), a statement of the
 * user's (multi_fdw_exec), a rolled-back savepoint, a transaction's end (the
 * points where mf_conn_forget_facts runs).  One counter for every
 * connection: a change seen by one session of the remote is not seen by
 * another within its transaction, but counting it for all costs only rows
 * read again.
 */
static uint64 mf_data_epoch = 1;

uint64
mf_remote_data_epoch(void)
{
	return mf_data_epoch;
}

void
mf_remote_data_changed(void)
{
	mf_data_epoch++;
}
