/*-------------------------------------------------------------------------
 *
 * twophase_log.c
 *		What two-phase commit keeps on the gateway's disk: the gateway's
 *		identity, which a copy of its data directory does not share, and
 *		the log of every remote transaction it is about to prepare, written
 *		before the PREPARE, so that the resolver ends only transactions
 *		this gateway made, through the user mapping that made them.
 *
 * Files, under the data directory's pg_multi_fdw/:
 *
 *	identity	"<id> <system id> <inode>": a random 64-bit id, made at first
 *				use, with the system identifier and the inode of the data
 *				directory it was made in.  A copy of the data directory
 *				(pg_basebackup, a restored backup, a promoted standby, a
 *				copied folder) shares the file but not the inode: it finds
 *				the file is not its own, puts it and the logs aside as
 *				copied-<id>.*, and makes an identity of its own.  A copy
 *				made so that every inode is kept (a block-level snapshot
 *				mounted in place of the original) is not told apart.
 *	intents.<database oid>
 *				"P <gid> <user mapping> <server> <user> <pid> <start>"
 *				before the PREPARE (fsync'd), "D <gid>" once the remote
 *				transaction ended, "H <gid>" when the session that made it
 *				gave up ending it itself (the resolver leaves a live
 *				session's transactions alone until then: it may be between
 *				its local commit and its COMMIT PREPARED, and a MySQL XA
 *				transaction cannot be ended from elsewhere while its
 *				session holds it).
 *				Appended under a shared lock of the file "lock"; rewritten
 *				with only the open ones under its exclusive lock (the
 *				resolver, or an append that finds the log big).
 *
 * Every id is "mf_<identity>_<database>_<xid>_<user mapping>_<time>" in
 * hex, at most 63 bytes (MySQL's gtrid takes 64).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "common/file_perm.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/timestamp.h"

#include "remote/remote.h"
#include "remote/connection_int.h"
#include "remote/twophase_int.h"

#define MF_LOG_DIR			"pg_multi_fdw"
#define MF_LOG_LOCK			MF_LOG_DIR "/lock"
#define MF_LOG_IDENTITY		MF_LOG_DIR "/identity"
#define MF_LOG_COMPACT_AT	(1024 * 1024)	/* bytes: rewrite past this */

static uint64 mf_identity = 0;	/* this backend's copy; 0: not read yet */

/* The data directory's inode: what a copy does not share. */
static uint64
mf_datadir_inode(void)
{
	struct stat st;

	if (stat(".", &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat the data directory: %m")));
	return (uint64) st.st_ino;
}

/* Open and lock (LOCK_SH or LOCK_EX) the log folder's lock file. */
static int
mf_log_lock(int how)
{
	int			fd;

	if (mkdir(MF_LOG_DIR, pg_dir_create_mode) != 0 && errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create directory \"%s\": %m", MF_LOG_DIR)));
	fd = OpenTransientFile(MF_LOG_LOCK, O_RDWR | O_CREAT | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", MF_LOG_LOCK)));
	if (flock(fd, how) != 0)
	{
		int			save = errno;

		CloseTransientFile(fd);
		errno = save;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not lock file \"%s\": %m", MF_LOG_LOCK)));
	}
	return fd;
}

static void
mf_log_unlock(int fd)
{
	(void) flock(fd, LOCK_UN);
	CloseTransientFile(fd);
}

/* Write a whole file: a temporary one, fsync'd, renamed over path. */
static void
mf_log_write_file(const char *path, const char *data, size_t len)
{
	char		tmp[MAXPGPATH];
	int			fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = OpenTransientFile(tmp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", tmp)));
	errno = 0;
	if (write(fd, data, len) != (ssize_t) len)
	{
		if (errno == 0)
			errno = ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", tmp)));
	}
	if (pg_fsync(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", tmp)));
	CloseTransientFile(fd);
	if (durable_rename(tmp, path, ERROR) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rename \"%s\": %m", tmp)));
}

/* A whole small file, or NULL when it does not exist. */
static char *
mf_log_read_file(const char *path)
{
	int			fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	StringInfoData buf;
	char		chunk[8192];
	ssize_t		n;

	if (fd < 0)
	{
		if (errno == ENOENT)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", path)));
	}
	initStringInfo(&buf);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		appendBinaryStringInfo(&buf, chunk, n);
	if (n < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", path)));
	CloseTransientFile(fd);
	return buf.data;
}

/*
 * A copy's files go aside, under the name of the identity that made them:
 * they are the original's to resolve, never this copy's.
 */
static void
mf_log_set_aside(uint64 old)
{
	DIR		   *dir = AllocateDir(MF_LOG_DIR);
	struct dirent *de;

	while ((de = ReadDir(dir, MF_LOG_DIR)) != NULL)
	{
		char		from[MAXPGPATH];
		char		to[MAXPGPATH];

		if (strncmp(de->d_name, "intents.", 8) != 0 &&
			strcmp(de->d_name, "identity") != 0)
			continue;
		snprintf(from, sizeof(from), "%s/%s", MF_LOG_DIR, de->d_name);
		snprintf(to, sizeof(to), "%s/copied-%016llx.%s", MF_LOG_DIR,
				 (unsigned long long) old, de->d_name);
		(void) durable_rename(from, to, ERROR);
	}
	FreeDir(dir);
}

/*
 * This gateway's identity: read (and checked) once per backend, made at
 * first use.  A data directory that is a copy gets one of its own.
 */
uint64
mf_gateway_identity(void)
{
	int			lock;
	char	   *text;
	uint64		sysid = GetSystemIdentifier();
	uint64		inode;

	if (mf_identity != 0)
		return mf_identity;
	inode = mf_datadir_inode();
	lock = mf_log_lock(LOCK_EX);
	text = mf_log_read_file(MF_LOG_IDENTITY);
	if (text != NULL)
	{
		unsigned long long id = 0,
					s = 0,
					i = 0;

		if (sscanf(text, "%llx %llu %llu", &id, &s, &i) == 3 &&
			s == sysid && i == inode && id != 0)
			mf_identity = id;
		else
		{
			ereport(WARNING,
					(errmsg("this data directory is a copy of the gateway whose multi_fdw identity is %016llx",
							id),
					 errdetail("Its two-phase log is set aside: the transactions it left in doubt are the original gateway's to resolve."),
					 errhint("See \"A copy of the gateway\" in docs/transactions.md.")));
			mf_log_set_aside(id);
		}
	}
	if (mf_identity == 0)
	{
		uint64		id = 0;
		char	   *line;

		while (id == 0)
			if (!pg_strong_random(&id, sizeof(id)))
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("could not generate a random multi_fdw identity")));
		line = psprintf("%016llx %llu %llu\n", (unsigned long long) id,
						(unsigned long long) sysid, (unsigned long long) inode);
		mf_log_write_file(MF_LOG_IDENTITY, line, strlen(line));
		mf_identity = id;
	}
	mf_log_unlock(lock);
	return mf_identity;
}

/* "mf_<identity>_<database>_": this database's ids begin so. */
void
mf_gid_prefix(char *buf, size_t len)
{
	snprintf(buf, len, "mf_%016llx_%x_",
			 (unsigned long long) mf_gateway_identity(), MyDatabaseId);
}

/*
 * A new id: the local transaction id and the time tell the resolver
 * whether the transaction is still running (a crash that lost a
 * transaction id's WAL hands the id out again, to a transaction that began
 * later), and the time makes the id unique even then.
 */
void
mf_twophase_gid(MfConnEntry *entry, char *gid)
{
	TransactionId xid = XidFromFullTransactionId(GetTopFullTransactionId());
	char		prefix[48];

	mf_gid_prefix(prefix, sizeof(prefix));
	snprintf(gid, MF_GID_LEN, "%s%x_%x_%llx", prefix, xid, entry->key,
			 (unsigned long long) GetCurrentTimestamp());
}

/* Parse an id of this gateway's database; false for anyone else's. */
bool
mf_parse_gid(const char *gid, TransactionId *xid, Oid *umid, TimestampTz *made)
{
	char		prefix[48];
	unsigned int x;
	unsigned int u;
	unsigned long long t;
	char		tail;

	mf_gid_prefix(prefix, sizeof(prefix));
	if (strncmp(gid, prefix, strlen(prefix)) != 0)
		return false;
	if (sscanf(gid + strlen(prefix), "%x_%x_%llx%c", &x, &u, &t, &tail) != 3)
		return false;
	*xid = (TransactionId) x;
	*umid = (Oid) u;
	*made = (TimestampTz) t;
	return true;
}

/* ---------------------------------------------------------------------
 * The log of intents
 * ---------------------------------------------------------------------
 */

static void
mf_intents_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/intents.%u", MF_LOG_DIR, MyDatabaseId);
}

/* Append text to this database's log; fsync it when durable. */
static void
mf_intents_append(const char *text, bool durable)
{
	char		path[MAXPGPATH];
	int			lock = mf_log_lock(LOCK_SH);
	int			fd;
	size_t		len = strlen(text);
	bool		big;

	mf_intents_path(path, sizeof(path));
	fd = OpenTransientFile(path, O_WRONLY | O_CREAT | O_APPEND | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", path)));
	errno = 0;
	if (write(fd, text, len) != (ssize_t) len)
	{
		if (errno == 0)
			errno = ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", path)));
	}
	if (durable && pg_fsync(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", path)));
	big = lseek(fd, 0, SEEK_END) > MF_LOG_COMPACT_AT;
	CloseTransientFile(fd);
	mf_log_unlock(lock);
	if (big)
		mf_intents_compact(false);
}

/*
 * Before the PREPARE of the entries' transactions (their gid set): one
 * line each, on disk before this returns.
 */
void
mf_intents_log(List *entries)
{
	StringInfoData buf;
	ListCell   *lc;

	if (entries == NIL)
		return;
	initStringInfo(&buf);
	foreach(lc, entries)
	{
		MfConnEntry *entry = lfirst(lc);

		appendStringInfo(&buf, "P %s %u %u %u %d %lld\n", entry->gid, entry->key,
						 entry->serverid, GetUserId(), MyProcPid,
						 (long long) MyStartTimestamp);
	}
	mf_intents_append(buf.data, true);
}

/*
 * The remote transaction of gid ended (committed, rolled back, or found
 * gone).  Not fsync'd: a line lost in a crash only makes the resolver ask
 * the remote again, which answers that it does not know the id.
 */
void
mf_intents_done(const char *gid)
{
	mf_intents_append(psprintf("D %s\n", gid), false);
}

/*
 * This session leaves the remote transaction of gid to the resolver (its
 * COMMIT or ROLLBACK PREPARED failed): until then the resolver leaves the
 * intents of a session that is still alive to it.  Never raises.
 */
void
mf_intents_hand_over(const char *gid)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		mf_intents_append(psprintf("H %s\n", gid), false);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		/* the session's end hands it over too */
	}
	PG_END_TRY();
}

/*
 * The same where nothing may raise (after the local commit, in an abort):
 * a failure is a WARNING, and the resolver will ask the remote again.
 */
void
mf_intents_done_quietly(const char *gid)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		mf_intents_done(gid);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("could not log the end of the remote transaction %s: %s",
						gid, edata->message)));
		FreeErrorData(edata);
	}
	PG_END_TRY();
}

/* The open intents (a P line and no D line) of a log's text. */
static List *
mf_intents_parse(char *text)
{
	List	   *open = NIL;
	List	   *done = NIL;
	List	   *handed = NIL;
	List	   *result = NIL;
	char	   *save = NULL;
	char	   *line;
	ListCell   *lc;

	for (line = strtok_r(text, "\n", &save); line != NULL;
		 line = strtok_r(NULL, "\n", &save))
	{
		char		gid[MF_GID_LEN];
		unsigned int umid;
		unsigned int serverid;
		unsigned int userid = InvalidOid;
		int			pid = 0;
		long long	started = 0;

		if (sscanf(line, "P %63s %u %u %u %d %lld", gid, &umid, &serverid,
				   &userid, &pid, &started) >= 3)
		{
			MfIntent   *in = palloc0(sizeof(MfIntent));

			strlcpy(in->gid, gid, sizeof(in->gid));
			in->umid = umid;
			in->serverid = serverid;
			in->userid = userid;
			in->pid = pid;
			in->started = (TimestampTz) started;
			open = lappend(open, in);
		}
		else if (sscanf(line, "H %63s", gid) == 1)
			handed = lappend(handed, pstrdup(gid));
		else if (sscanf(line, "D %63s", gid) == 1)
			done = lappend(done, pstrdup(gid));
		/* anything else: a line cut short by a crash */
	}
	foreach(lc, open)
	{
		MfIntent   *in = lfirst(lc);
		ListCell   *ld;
		bool		ended = false;

		foreach(ld, done)
			if (strcmp(lfirst(ld), in->gid) == 0)
				ended = true;
		foreach(ld, handed)
			if (strcmp(lfirst(ld), in->gid) == 0)
				in->handed = true;
		if (!ended)
			result = lappend(result, in);
	}
	return result;
}

/* This database's open intents, in the order they were logged. */
List *
mf_intents_open(void)
{
	char		path[MAXPGPATH];
	int			lock;
	char	   *text;

	(void) mf_gateway_identity();	/* a copy's logs go aside first */
	lock = mf_log_lock(LOCK_SH);
	mf_intents_path(path, sizeof(path));
	text = mf_log_read_file(path);
	mf_log_unlock(lock);
	return text == NULL ? NIL : mf_intents_parse(text);
}

/*
 * Rewrite this database's log with its open intents alone.  wait: take
 * the lock even when appends hold it; else give up when they do (an
 * append that found the log big; the next one tries again).
 */
void
mf_intents_compact(bool wait)
{
	char		path[MAXPGPATH];
	int			lock;
	char	   *text;
	StringInfoData buf;
	ListCell   *lc;

	if (wait)
		lock = mf_log_lock(LOCK_EX);
	else
	{
		lock = mf_log_lock(LOCK_SH);	/* creates the folder and file */
		if (flock(lock, LOCK_EX | LOCK_NB) != 0)
		{
			mf_log_unlock(lock);
			return;
		}
	}
	mf_intents_path(path, sizeof(path));
	text = mf_log_read_file(path);
	if (text != NULL)
	{
		initStringInfo(&buf);
		foreach(lc, mf_intents_parse(text))
		{
			MfIntent   *in = lfirst(lc);

			appendStringInfo(&buf, "P %s %u %u %u %d %lld\n", in->gid, in->umid,
							 in->serverid, in->userid, in->pid,
							 (long long) in->started);
			if (in->handed)
				appendStringInfo(&buf, "H %s\n", in->gid);
		}
		mf_log_write_file(path, buf.data, buf.len);
	}
	mf_log_unlock(lock);
}
