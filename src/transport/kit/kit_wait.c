/*-------------------------------------------------------------------------
 *
 * kit_wait.c
 *		Waiting on a socket and reading the clock: the default wait (until the
 *		core installs its latch-based one), a bounded wait of the transports'
 *		own, monotonic clocks for deadlines.
 *
 * This file sits on the transport side of the wall (see transport.h): it
 * includes no PostgreSQL header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "transport/kit/kit.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <time.h>

/*
 * Used until the core installs its latch-based wait, and by stand-alone
 * programs that link the transports without a server: it cannot be
 * interrupted, so it never returns 0.
 */
static int
mf_poll_wait(int sock, bool for_write)
{
	struct pollfd pfd;

	if (sock < 0)
		return -1;

	pfd.fd = sock;
	pfd.events = for_write ? POLLOUT : POLLIN;

	for (;;)
	{
		int			rc;

		pfd.revents = 0;
		rc = poll(&pfd, 1, -1);
		if (rc > 0)
		{
			/*
			 * A hung-up or failed socket counts as ready: the library's next
			 * read or write is what reports the failure properly.
			 */
			return 1;
		}
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

MfWaitFn	mf_wait_socket = mf_poll_wait;

static bool
mf_never_pending(void)
{
	return false;
}

MfInterruptPendingFn mf_interrupt_pending = mf_never_pending;

/* Milliseconds of a monotonic clock, for deadlines. */
long long
mf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long
mf_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * A bounded wait of the transport's own, for winding down after a cancel
 * (the core's wait would keep reporting the cancel that brought it there):
 * true when sock is ready before the deadline.
 */
bool
mf_poll_until(int sock, bool for_write, long long deadline)
{
	struct pollfd pfd;

	if (sock < 0)
		return false;
	pfd.fd = sock;
	pfd.events = for_write ? POLLOUT : POLLIN;
	for (;;)
	{
		long long	left = deadline - mf_now_ms();
		int			rc;

		if (left <= 0)
			return false;
		pfd.revents = 0;
		rc = poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int) left);
		if (rc > 0)
			return true;
		if (rc == 0 || errno != EINTR)
			return false;
	}
}
