/*-------------------------------------------------------------------------
 *
 * odbc_cancel.c
 *		Cancelling an ODBC call that blocks, from a watcher thread.
 *
 * ODBC calls block inside the driver, so the backend cannot notice a
 * cancel or statement_timeout until the call returns, which for a
 * statement waiting on a remote lock may be never.  ODBC's answer is
 * SQLCancel from another thread.  Each connection gets one watcher thread,
 * started on first use: the transport arms it with a statement handle
 * before a call that may block and disarms it after.  While armed, the thread asks
 * mf_interrupt_pending every tick and, once it says yes, calls SQLCancel
 * on the handle (again each second while the call still runs, since a
 * cancel that reaches the server before the statement does is lost).
 * It cancels only a call it already saw armed at the tick before, one that
 * is surely inside the driver: MariaDB's SQLCancel closes the cursor of a
 * statement that is not running, which must not race with the call
 * starting or ending.
 *
 * The thread runs nothing of PostgreSQL: it reads the backend's flags
 * through mf_interrupt_pending and calls the driver.  It blocks every
 * signal, so that the backend's handlers keep running in the main thread.
 * Arming costs a mutex; the thread is only woken when it had gone to sleep
 * after a second without calls.
 *
 * Whether SQLCancel stops a running call is the driver's affair
 * (docs/odbc.md says which do); unixODBC lets it through to the driver
 * without waiting for the call's lock unless the driver's Threading level
 * is 3.
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * server header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "odbc_int.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

/* how often an armed watcher looks at the flags */
#define MFODBC_WATCH_TICK_MS	100

/* ticks between two SQLCancel calls on the same call */
#define MFODBC_WATCH_REFIRE		10

/* idle ticks after which the thread sleeps until armed again */
#define MFODBC_WATCH_LINGER		10

struct MfodbcWatch
{
	pthread_t	thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;			/* the thread waits here; so does disarm */
	SQLHSTMT	h;				/* the call watched; NULL between calls */
	unsigned long call;			/* numbers the calls armed */
	bool		fired;			/* SQLCancel was called for this call */
	bool		busy;			/* the thread is inside SQLCancel */
	bool		sleeping;		/* waiting without a tick: wake it to arm */
	bool		quit;
};

static void
mfodbc_watch_deadline(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_nsec += MFODBC_WATCH_TICK_MS * 1000000L;
	if (ts->tv_nsec >= 1000000000L)
	{
		ts->tv_sec += 1;
		ts->tv_nsec -= 1000000000L;
	}
}

static void *
mfodbc_watch_main(void *arg)
{
	MfodbcWatch *w = arg;
	int			idle = 0;
	int			since_fire = 0;
	unsigned long fired_call = 0;
	unsigned long seen_call = 0;

	pthread_mutex_lock(&w->mu);
	while (!w->quit)
	{
		struct timespec ts;

		if (w->h == SQL_NULL_HSTMT && idle >= MFODBC_WATCH_LINGER)
		{
			w->sleeping = true;
			pthread_cond_wait(&w->cv, &w->mu);
			w->sleeping = false;
			idle = 0;
			continue;
		}

		mfodbc_watch_deadline(&ts);
		(void) pthread_cond_timedwait(&w->cv, &w->mu, &ts);
		if (w->quit)
			break;
		if (w->h == SQL_NULL_HSTMT)
		{
			idle++;
			continue;
		}
		idle = 0;
		if (seen_call != w->call)
		{
			seen_call = w->call;
			continue;
		}
		if (w->fired && fired_call == w->call &&
			++since_fire < MFODBC_WATCH_REFIRE)
			continue;
		if (!mf_interrupt_pending())
			continue;

		{
			SQLHSTMT	h = w->h;

			/* disarm waits while busy, so h stays valid meanwhile */
			w->busy = true;
			w->fired = true;
			fired_call = w->call;
			since_fire = 0;
			pthread_mutex_unlock(&w->mu);
			(void) SQLCancel(h);
			pthread_mutex_lock(&w->mu);
			w->busy = false;
			pthread_cond_broadcast(&w->cv);
		}
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static MfodbcWatch *
mfodbc_watch_start(void)
{
	MfodbcWatch *w = calloc(1, sizeof(MfodbcWatch));
	sigset_t	all,
				old;
	int			rc;

	if (w == NULL)
		return NULL;
	if (pthread_mutex_init(&w->mu, NULL) != 0)
	{
		free(w);
		return NULL;
	}
	if (pthread_cond_init(&w->cv, NULL) != 0)
	{
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}

	/* the thread inherits the mask: no signal of the backend lands there */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&w->thread, NULL, mfodbc_watch_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
	{
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	return w;
}

/*
 * Watch the call about to be made on h.  Without a watcher (the thread
 * could not start) the call is made all the same, only not cancellable.
 */
void
mfodbc_watch(MfConn *conn, SQLHSTMT h)
{
	MfodbcWatch *w;

	/* a blocking call into the driver is time spent waiting on the server */
	conn->call_start_us = mf_now_us();
	if (conn->watch == NULL && !conn->watch_failed)
	{
		conn->watch = mfodbc_watch_start();
		conn->watch_failed = conn->watch == NULL;
	}
	w = conn->watch;
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	w->h = h;
	w->call++;
	w->fired = false;
	if (w->sleeping)
		pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* The call is over; true when the watcher cancelled it. */
bool
mfodbc_unwatch(MfConn *conn)
{
	MfodbcWatch *w = conn->watch;
	bool		fired;

	conn->wire->wait_us += (unsigned long long) (mf_now_us() - conn->call_start_us);
	if (w == NULL)
		return false;
	pthread_mutex_lock(&w->mu);
	while (w->busy)
		pthread_cond_wait(&w->cv, &w->mu);
	w->h = SQL_NULL_HSTMT;
	fired = w->fired;
	w->fired = false;
	pthread_mutex_unlock(&w->mu);
	return fired;
}

/*
 * After a watched call that failed: a call the watcher cancelled failed
 * because of it, whatever the driver says (HY008, or the server's own
 * cancel error), and is reported as the cancel the core will word.
 */
void
mfodbc_unwatch_error(MfConn *conn, bool ok, MfStep step, MfError *err)
{
	if (mfodbc_unwatch(conn) && !ok && !err->conn_lost)
	{
		mf_error_clear(err);
		mf_error_set(err, step, "57014", 0,
					 "canceling statement due to user request");
	}
}

void
mfodbc_watch_free(MfConn *conn)
{
	MfodbcWatch *w = conn->watch;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	(void) pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
	conn->watch = NULL;
}
