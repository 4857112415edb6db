/*
 * proxycheck: checks that delayproxy delays by the round trip time it is
 * given, keeps many messages in flight at once, passes half-closes on, and
 * moves large volumes intact.
 *
 *   proxycheck PATH/TO/delayproxy
 *
 * It runs an echo server of its own (one forked process per connection),
 * starts the proxy in front of it, and measures through the proxy:
 *
 *   1. 200 sequential 1-byte round trips at RTT 1 ms: each must take
 *      1 ms and a little (the proxy's own cost), never less.
 *   2. 100 sequential round trips at RTT 10 ms: 100 x 10 ms.
 *   3. 100 messages sent 1 ms apart without waiting, then 100 answers:
 *      about 100 x 1 ms + 10 ms.  A proxy that held each message until the
 *      one before it had been delivered would need 100 x 5 ms or more.
 *   4. 50 connections doing 20 round trips each, all at once: about
 *      20 x 10 ms in all, not 50 times that.
 *   5. half-close: 1 MB sent, then shutdown(SHUT_WR); all of it must come
 *      back, followed by end of stream.
 *   6. 256 MB echoed while it is being sent, checked byte for byte; the
 *      rate is reported.
 *   7. turns: 5 sequential round trips on one connection and 10 messages
 *      sent in one write on another, answered in one burst, must be
 *      counted as 6 request/answer turns by the proxy's stats port (-s).
 *
 * Prints one "ok" or "not ok" line per check and "N passed, N failed".
 *
 * Copyright (c) 2026, multi_fdw maintainers
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int	passed;
static int	failed;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t) t;
	ts.tv_nsec = (long) ((t - (double) ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void
fatal(const char *what)
{
	fprintf(stderr, "proxycheck: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
check(int ok, const char *fmt, double a, double b)
{
	printf("%s - ", ok ? "ok" : "not ok");
	printf(fmt, a, b);
	printf("\n");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

static int
listen_any(int *port)
{
	struct sockaddr_in sin;
	socklen_t	len = sizeof(sin);
	int			fd = socket(AF_INET, SOCK_STREAM, 0);
	int			one = 1;

	if (fd < 0)
		fatal("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *) &sin, sizeof(sin)) < 0)
		fatal("bind");
	if (listen(fd, 512) < 0)
		fatal("listen");
	if (getsockname(fd, (struct sockaddr *) &sin, &len) < 0)
		fatal("getsockname");
	*port = ntohs(sin.sin_port);
	return fd;
}

static int
connect_port(int port)
{
	struct sockaddr_in sin;
	int			fd = socket(AF_INET, SOCK_STREAM, 0);
	int			one = 1;

	if (fd < 0)
		fatal("socket");
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t) port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *) &sin, sizeof(sin)) < 0)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* The echo server: each connection gets a process that sends back what it reads. */
static void
echo_server(int lfd)
{
	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	for (;;)
	{
		int			fd = accept(lfd, NULL, NULL);
		int			one = 1;

		if (fd < 0)
		{
			if (errno == EINTR)
				continue;
			fatal("accept");
		}
		if (fork() == 0)
		{
			static char buf[256 * 1024];
			ssize_t		r;

			close(lfd);
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			while ((r = read(fd, buf, sizeof(buf))) > 0)
			{
				ssize_t		off = 0;

				while (off < r)
				{
					ssize_t		w = write(fd, buf + off, (size_t) (r - off));

					if (w < 0)
						_exit(1);
					off += w;
				}
			}
			shutdown(fd, SHUT_WR);
			close(fd);
			_exit(0);
		}
		close(fd);
	}
}

static pid_t proxy_pid;

/* a port that is free now */
static int
free_port(void)
{
	int			port;
	int			fd = listen_any(&port);

	close(fd);
	return port;
}

/* the proxy in front of the echo server; with stats_port, its -s too */
static int
start_proxy(const char *path, const char *rtt_ms, int echo_port, int stats_port)
{
	int			port = free_port();
	char		map[64];
	char		sport[16];
	double		deadline;

	snprintf(map, sizeof(map), "%d:127.0.0.1:%d", port, echo_port);
	snprintf(sport, sizeof(sport), "%d", stats_port);
	proxy_pid = fork();
	if (proxy_pid < 0)
		fatal("fork");
	if (proxy_pid == 0)
	{
		int			devnull = open("/dev/null", O_WRONLY);

		if (devnull >= 0)
			dup2(devnull, 2);	/* its start-up line */
		if (stats_port)
			execl(path, path, "-s", sport, "-r", rtt_ms, map, (char *) NULL);
		else
			execl(path, path, "-r", rtt_ms, map, (char *) NULL);
		fatal("exec delayproxy");
	}
	deadline = now_s() + 5;
	while (now_s() < deadline)
	{
		int			c = connect_port(port);

		if (c >= 0)
		{
			close(c);
			return port;
		}
		usleep(10000);
	}
	fprintf(stderr, "proxycheck: the proxy did not listen on port %d\n", port);
	exit(1);
}

static void
stop_proxy(void)
{
	if (proxy_pid > 0)
	{
		kill(proxy_pid, SIGTERM);
		waitpid(proxy_pid, NULL, 0);
		proxy_pid = 0;
	}
}

static void
read_exact(int fd, char *buf, size_t n)
{
	while (n > 0)
	{
		ssize_t		r = read(fd, buf, n);

		if (r <= 0)
		{
			fprintf(stderr, "proxycheck: short read\n");
			exit(1);
		}
		buf += r;
		n -= (size_t) r;
	}
}

static void
write_all(int fd, const char *buf, size_t n)
{
	while (n > 0)
	{
		ssize_t		w = write(fd, buf, n);

		if (w < 0)
			fatal("write");
		buf += w;
		n -= (size_t) w;
	}
}

/* the turns=N of the proxy's stats line, or -1 */
static long
stats_turns(int stats_port)
{
	char		buf[1024];
	size_t		got = 0;
	ssize_t		r;
	char	   *p;
	int			fd = connect_port(stats_port);

	if (fd < 0)
		return -1;
	while (got < sizeof(buf) - 1 && (r = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t) r;
	close(fd);
	buf[got] = '\0';
	p = strstr(buf, " turns=");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

/* n sequential 1-byte round trips on one connection; returns the times */
static void
round_trips(int port, int n, double *times)
{
	int			fd = connect_port(port);
	int			i;
	char		c = 'x';

	if (fd < 0)
		fatal("connect");
	for (i = 0; i < n; i++)
	{
		double		t0 = now_s();

		write_all(fd, &c, 1);
		read_exact(fd, &c, 1);
		times[i] = now_s() - t0;
	}
	close(fd);
}

int
main(int argc, char **argv)
{
	int			lfd,
				echo_port,
				port;
	pid_t		echo_pid;
	double		times[200];
	double		t0,
				t;
	int			i;

	if (argc != 2)
	{
		fprintf(stderr, "usage: proxycheck PATH/TO/delayproxy\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	lfd = listen_any(&echo_port);
	echo_pid = fork();
	if (echo_pid < 0)
		fatal("fork");
	if (echo_pid == 0)
		echo_server(lfd);
	close(lfd);

	/* 1. the delay at RTT 1 ms */
	port = start_proxy(argv[1], "1", echo_port, 0);
	round_trips(port, 200, times);
	qsort(times, 200, sizeof(double), cmp_double);
	check(times[0] >= 0.001 && times[100] < 0.0015,
		  "RTT 1 ms: 200 sequential round trips, fastest %.3f ms, median %.3f ms",
		  times[0] * 1e3, times[100] * 1e3);
	stop_proxy();

	/* 2. sequential at RTT 10 ms */
	port = start_proxy(argv[1], "10", echo_port, 0);
	t0 = now_s();
	round_trips(port, 100, times);
	t = now_s() - t0;
	check(t >= 1.0 && t < 1.15,
		  "RTT 10 ms: 100 sequential round trips take %.0f ms (expected %.0f ms and a little)",
		  t * 1e3, 1000.0);

	/* 3. pipelined: 100 messages 1 ms apart, answers read at the end */
	{
		int			fd = connect_port(port);
		char		buf[100];
		double		expected = 0.099 + 0.010;

		if (fd < 0)
			fatal("connect");
		t0 = now_s();
		for (i = 0; i < 100; i++)
		{
			sleep_until(t0 + i * 0.001);
			write_all(fd, "p", 1);
		}
		read_exact(fd, buf, 100);
		t = now_s() - t0;
		close(fd);
		check(t >= expected && t < expected + 0.040,
			  "RTT 10 ms: 100 messages sent 1 ms apart without waiting: answered after %.0f ms (expected %.0f ms; one at a time would be >= 500 ms)",
			  t * 1e3, expected * 1e3);
	}

	/* 4. 50 connections, 20 round trips each, all at once */
	{
		enum
		{
			NCONN = 50, NTRIPS = 20
		};
		int			fds[NCONN];
		int			left[NCONN];
		struct pollfd pfd[NCONN];
		int			active = NCONN;

		for (i = 0; i < NCONN; i++)
		{
			fds[i] = connect_port(port);
			if (fds[i] < 0)
				fatal("connect");
			left[i] = NTRIPS;
		}
		t0 = now_s();
		for (i = 0; i < NCONN; i++)
			write_all(fds[i], "c", 1);
		while (active > 0)
		{
			int			n = 0;

			for (i = 0; i < NCONN; i++)
			{
				pfd[i].fd = left[i] > 0 ? fds[i] : -1;
				pfd[i].events = POLLIN;
			}
			n = poll(pfd, NCONN, 5000);
			if (n <= 0)
			{
				fprintf(stderr, "proxycheck: concurrent round trips stalled\n");
				exit(1);
			}
			for (i = 0; i < NCONN; i++)
			{
				char		c;

				if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				read_exact(fds[i], &c, 1);
				if (--left[i] > 0)
					write_all(fds[i], "c", 1);
				else
					active--;
			}
		}
		t = now_s() - t0;
		for (i = 0; i < NCONN; i++)
			close(fds[i]);
		check(t >= 0.2 && t < 0.3,
			  "RTT 10 ms: 50 connections x 20 round trips at once take %.0f ms (expected %.0f ms and a little)",
			  t * 1e3, 200.0);
	}

	/* 5. half-close */
	{
		size_t		n = 1024 * 1024;
		char	   *out = malloc(n);
		char	   *in = malloc(n + 1);
		size_t		got = 0;
		ssize_t		r;
		int			fd = connect_port(port);

		if (!out || !in || fd < 0)
			fatal("set-up");
		for (i = 0; (size_t) i < n; i++)
			out[i] = (char) (i * 7 + 3);
		write_all(fd, out, n);	/* fits in the echo's and proxy's buffers */
		t0 = now_s();
		shutdown(fd, SHUT_WR);
		while ((r = read(fd, in + got, n + 1 - got)) > 0)
			got += (size_t) r;
		t = now_s() - t0;
		close(fd);
		check(r == 0 && got == n && memcmp(in, out, n) == 0,
			  "half-close: %.0f of %.0f bytes came back, then end of stream",
			  (double) got, (double) n);
		free(out);
		free(in);
	}
	stop_proxy();

	/* 6. volume: 256 MB echoed while it is sent, at RTT 1 ms */
	port = start_proxy(argv[1], "1", echo_port, 0);
	{
		size_t		total = 256u * 1024 * 1024;
		size_t		sent = 0,
					recvd = 0;
		size_t		bad = 0;
		static char buf[256 * 1024];
		int			fd = connect_port(port);

		if (fd < 0)
			fatal("connect");
		fcntl(fd, F_SETFL, O_NONBLOCK);
		t0 = now_s();
		while (recvd < total)
		{
			struct pollfd p = {fd, POLLIN | (sent < total ? POLLOUT : 0), 0};

			if (poll(&p, 1, 10000) <= 0)
			{
				fprintf(stderr, "proxycheck: the volume test stalled at %zu bytes\n", recvd);
				exit(1);
			}
			if ((p.revents & POLLOUT) && sent < total)
			{
				size_t		n = total - sent < sizeof(buf) ? total - sent : sizeof(buf);
				size_t		k;
				ssize_t		w;

				for (k = 0; k < n; k++)
					buf[k] = (char) ((sent + k) % 251);
				w = write(fd, buf, n);
				if (w > 0)
					sent += (size_t) w;
				else if (w < 0 && errno != EAGAIN)
					fatal("write");
				if (sent == total)
					shutdown(fd, SHUT_WR);
			}
			if (p.revents & (POLLIN | POLLHUP | POLLERR))
			{
				ssize_t		r = read(fd, buf, sizeof(buf));
				ssize_t		k;

				if (r == 0)
					break;
				if (r < 0)
				{
					if (errno == EAGAIN)
						continue;
					fatal("read");
				}
				for (k = 0; k < r; k++)
					if (buf[k] != (char) ((recvd + (size_t) k) % 251))
						bad++;
				recvd += (size_t) r;
			}
		}
		t = now_s() - t0;
		close(fd);
		check(recvd == total && bad == 0,
			  "volume: %.0f MB echoed intact (%.0f wrong bytes)",
			  recvd / 1048576.0, (double) bad);
		check(t < 30,
			  "volume: %.1f s at RTT 1 ms, %.0f MB/s each way",
			  t, total / 1048576.0 / t);
	}
	stop_proxy();

	/* 7. turns, counted by the proxy */
	{
		int			sport = free_port();
		long		turns;
		char		buf[10];
		int			fd;

		port = start_proxy(argv[1], "1", echo_port, sport);
		round_trips(port, 5, times);
		fd = connect_port(port);
		if (fd < 0)
			fatal("connect");
		write_all(fd, "0123456789", 10);
		read_exact(fd, buf, 10);
		close(fd);
		turns = stats_turns(sport);
		check(turns == 6,
			  "turns: %.0f counted for 5 round trips and one burst of 10 messages (expected %.0f)",
			  (double) turns, 6.0);
		stop_proxy();
	}

	kill(echo_pid, SIGTERM);
	waitpid(echo_pid, NULL, 0);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
