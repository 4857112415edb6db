/*
 * delayproxy: a TCP proxy that adds a fixed delay in each direction.
 *
 *   delayproxy [-v] [-l ADDR] [-m BYTES] [-s SPORT] (-r RTT_MS | -d DELAY_US)
 *              LPORT:HOST:PORT [LPORT:HOST:PORT ...]
 *
 * For each LPORT:HOST:PORT it listens on ADDR:LPORT (ADDR is 127.0.0.1
 * unless -l says otherwise) and connects every accepted client to
 * HOST:PORT.  Bytes that arrive from either side at time t are passed on to
 * the other side at t + delay, in order.  -r RTT_MS sets the delay to half
 * the round trip time (fractions allowed); -d sets the one-way delay in
 * microseconds.
 *
 * Why not wait per message: what a batching or pipelining client gains over
 * one that waits for each answer is exactly that several messages are on
 * the wire at once.  So the proxy never holds back one chunk because
 * another is still waiting: every chunk read is stamped with its due time
 * and queued, and all chunks in flight age together.  Since the delay is
 * the same for every chunk, the order of arrival is the order of departure,
 * and one list of all pending chunks in arrival order, plus one timerfd
 * armed at the head's due time, is all the scheduling there is.
 *
 * A direction holds at most -m BYTES (64 MB) at a time; beyond that the
 * proxy stops reading from the sender until the queue drains, so that the
 * sender is slowed by TCP flow control instead of the proxy growing.
 * End of stream (half-close) travels like data: the receiving side is shut
 * down for writing when the delayed EOF comes due.  A connection is closed
 * once both directions have ended, or at once on a reset or error.
 *
 * Turns.  The proxy also counts request/answer turns on each connection:
 * a turn is a burst of bytes from the client followed by a burst from the
 * server, however many reads either burst takes.  Bytes the server sends
 * first (a MySQL greeting) or again before the client speaks (a notice)
 * start no turn.  A client that sends several messages before it reads an
 * answer (a pipeline) pays one turn for them, as it pays one round trip.
 * Counted where the bytes arrive at the proxy, before any delay, so the
 * count does not depend on the delay.  With -s SPORT, a connection to
 * ADDR:SPORT is answered with one line per mapping, then closed:
 *
 *   LPORT connections=N open=N turns=N client_bytes=N server_bytes=N
 *
 * (totals since the start, bytes as read from each side), so that a
 * benchmark can take the difference around a run.
 *
 * Linux only (epoll, timerfd); no dependencies beyond libc.  SIGTERM or
 * SIGINT end it; with -v it reports each connection and, at the end, the
 * totals on stderr.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define READ_SIZE	(256 * 1024)	/* at most this much per read() */
#define MAX_IOV		64			/* chunks per writev() */
#define MAX_EVENTS	256

enum kind
{
	K_LISTENER,
	K_ENDPOINT,
	K_TIMER,
	K_STATS
};

struct handle
{
	enum kind	kind;
};

struct conn;
struct listener;

/* One chunk of bytes read from one side, waiting to be written to the other. */
struct chunk
{
	struct chunk *next;			/* in its direction's queue */
	struct chunk *tnext;		/* in the list of chunks not yet due */
	struct chunk *tprev;
	struct dir *dir;
	uint64_t	due;			/* CLOCK_MONOTONIC, ns */
	size_t		len;
	size_t		off;			/* bytes of it already written */
	int			eof;			/* the end of the stream, no data */
	int			released;		/* due: may be written */
	char		data[];
};

/* One direction of a connection: bytes read from ep[from] go to ep[to]. */
struct dir
{
	struct conn *conn;
	int			from;
	int			to;
	struct chunk *head;
	struct chunk *tail;
	size_t		queued;			/* bytes held */
	int			read_eof;		/* the sender has ended its stream */
	int			done;			/* the EOF was passed on */
	int			blocked;		/* the last write would have blocked */
};

struct endpoint
{
	struct handle h;			/* K_ENDPOINT */
	struct conn *conn;
	int			side;			/* 0 client, 1 server */
	int			fd;
	uint32_t	events;			/* registered with epoll; 0 = not registered */
};

struct conn
{
	struct endpoint ep[2];
	struct dir	dir[2];			/* dir[0] client -> server, dir[1] back */
	struct listener *l;			/* the mapping it came through */
	int			connecting;		/* the connect to the server is under way */
	int			dead;
	int			last_from;		/* side that sent the last bytes; -1 none */
	unsigned long id;
	uint64_t	bytes[2];
	uint64_t	turns;
	struct conn *next_dead;
};

struct listener
{
	struct handle h;			/* K_LISTENER */
	int			fd;
	int			lport;
	char		target_name[300];
	struct sockaddr_storage target;
	socklen_t	target_len;
	struct listener *next;		/* all mappings, for the stats */
	unsigned long conns;		/* accepted so far */
	unsigned long open;
	uint64_t	turns;			/* of all its connections so far */
	uint64_t	read_bytes[2];	/* read from the clients, from the servers */
};

static int	epfd;
static int	verbose;
static uint64_t delay_ns;
static size_t max_queue = 64u * 1024 * 1024;
static struct handle timer_handle = {K_TIMER};
static struct handle stats_handle = {K_STATS};
static int	stats_fd = -1;
static struct listener *listeners;
static int	timer_fd;
static uint64_t timer_armed;	/* due time the timer is armed for, 0 none */
static struct chunk *due_head;	/* chunks not yet due, oldest first */
static struct chunk *due_tail;
static struct conn *dead_list;
static char read_buf[READ_SIZE];
static volatile sig_atomic_t stop_requested;

static unsigned long conn_count;
static unsigned long conn_open;
static unsigned long conn_max;
static uint64_t total_bytes[2];

static void
die(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "delayproxy: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
note(const char *fmt,...)
{
	va_list		ap;

	if (!verbose)
		return;
	fprintf(stderr, "delayproxy: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void *
xmalloc(size_t n)
{
	void	   *p = malloc(n);

	if (p == NULL)
		die("out of memory");
	return p;
}

/* ---- the list of chunks not yet due ------------------------------------ */

static void
due_append(struct chunk *c)
{
	c->tnext = NULL;
	c->tprev = due_tail;
	if (due_tail)
		due_tail->tnext = c;
	else
		due_head = c;
	due_tail = c;
}

static void
due_remove(struct chunk *c)
{
	if (c->tprev)
		c->tprev->tnext = c->tnext;
	else
		due_head = c->tnext;
	if (c->tnext)
		c->tnext->tprev = c->tprev;
	else
		due_tail = c->tprev;
	c->tnext = c->tprev = NULL;
}

static void
arm_timer(void)
{
	struct itimerspec its;
	uint64_t	due = due_head ? due_head->due : 0;

	if (due == timer_armed)
		return;
	memset(&its, 0, sizeof(its));
	if (due)
	{
		its.it_value.tv_sec = (time_t) (due / 1000000000u);
		its.it_value.tv_nsec = (long) (due % 1000000000u);
	}
	if (timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		die("timerfd_settime: %s", strerror(errno));
	timer_armed = due;
}

/* ---- connections ------------------------------------------------------- */

static void
set_interest(struct endpoint *ep, uint32_t want)
{
	struct epoll_event ev;
	int			op;

	if (want == ep->events)
		return;
	if (want == 0)
		op = EPOLL_CTL_DEL;
	else if (ep->events == 0)
		op = EPOLL_CTL_ADD;
	else
		op = EPOLL_CTL_MOD;
	memset(&ev, 0, sizeof(ev));
	ev.events = want;
	ev.data.ptr = ep;
	if (epoll_ctl(epfd, op, ep->fd, &ev) < 0)
		die("epoll_ctl: %s", strerror(errno));
	ep->events = want;
}

/*
 * What each socket of a connection waits for: to be read while its outgoing
 * direction has room and has not ended, to be written while its incoming
 * direction has due bytes that would not fit (or while it connects).
 * Nothing at all means: not registered, so a hang-up cannot spin the loop.
 */
static void
update_interest(struct conn *c)
{
	int			side;

	if (c->dead)
		return;
	for (side = 0; side < 2; side++)
	{
		struct dir *out = &c->dir[side];	/* from this side */
		struct dir *in = &c->dir[1 - side]; /* to this side */
		uint32_t	want = 0;

		if (!out->read_eof && out->queued < max_queue)
			want |= EPOLLIN;
		if (in->blocked || (side == 1 && c->connecting))
			want |= EPOLLOUT;
		set_interest(&c->ep[side], want);
	}
}

static void
free_chunks(struct dir *d)
{
	struct chunk *ch = d->head;

	while (ch)
	{
		struct chunk *next = ch->next;

		if (!ch->released)
			due_remove(ch);
		free(ch);
		ch = next;
	}
	d->head = d->tail = NULL;
	d->queued = 0;
}

static void
close_conn(struct conn *c, const char *why)
{
	int			i;

	if (c->dead)
		return;
	c->dead = 1;
	for (i = 0; i < 2; i++)
	{
		free_chunks(&c->dir[i]);
		if (c->ep[i].fd >= 0)
			close(c->ep[i].fd);	/* also leaves the epoll set */
		c->ep[i].fd = -1;
	}
	conn_open--;
	c->l->open--;
	total_bytes[0] += c->bytes[0];
	total_bytes[1] += c->bytes[1];
	note("connection %lu closed (%s): %llu bytes to the server, %llu back, %llu turns",
		 c->id, why, (unsigned long long) c->bytes[0],
		 (unsigned long long) c->bytes[1], (unsigned long long) c->turns);
	/* events of this round may still point at it: free it after the round */
	c->next_dead = dead_list;
	dead_list = c;
}

/* Write what has come due in direction d. */
static void
flush_dir(struct dir *d)
{
	struct conn *c = d->conn;
	int			fd = c->ep[d->to].fd;

	if (c->dead || d->blocked || (d->to == 1 && c->connecting))
		return;
	while (d->head && d->head->released)
	{
		struct iovec iov[MAX_IOV];
		int			n = 0;
		struct chunk *ch;
		ssize_t		w;

		if (d->head->eof)
		{
			ch = d->head;
			d->head = ch->next;
			if (!d->head)
				d->tail = NULL;
			free(ch);
			shutdown(fd, SHUT_WR);
			d->done = 1;
			if (c->dir[0].done && c->dir[1].done)
			{
				close_conn(c, "both sides ended");
				return;
			}
			continue;
		}
		for (ch = d->head; ch && ch->released && !ch->eof && n < MAX_IOV; ch = ch->next)
		{
			iov[n].iov_base = ch->data + ch->off;
			iov[n].iov_len = ch->len - ch->off;
			n++;
		}
		w = writev(fd, iov, n);
		if (w < 0)
		{
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
			{
				d->blocked = 1;
				return;
			}
			close_conn(c, strerror(errno));
			return;
		}
		c->bytes[d->from] += (uint64_t) w;
		d->queued -= (size_t) w;
		while (w > 0)
		{
			ch = d->head;
			if ((size_t) w >= ch->len - ch->off)
			{
				w -= (ssize_t) (ch->len - ch->off);
				d->head = ch->next;
				if (!d->head)
					d->tail = NULL;
				free(ch);
			}
			else
			{
				ch->off += (size_t) w;
				w = 0;
			}
		}
	}
}

static void
enqueue(struct dir *d, const char *data, size_t len, int eof, uint64_t now)
{
	struct chunk *ch = xmalloc(sizeof(struct chunk) + len);

	ch->next = NULL;
	ch->dir = d;
	ch->due = now + delay_ns;
	ch->len = len;
	ch->off = 0;
	ch->eof = eof;
	ch->released = 0;
	if (len)
		memcpy(ch->data, data, len);
	if (d->tail)
		d->tail->next = ch;
	else
		d->head = ch;
	d->tail = ch;
	d->queued += len;
	due_append(ch);
}

/*
 * Bytes have come from `side`: the server answering what the client sent
 * last completes a turn.
 */
static void
count_turn(struct conn *c, int side, size_t len)
{
	if (side == 1 && c->last_from == 0)
	{
		c->turns++;
		c->l->turns++;
	}
	c->last_from = side;
	c->l->read_bytes[side] += len;
}

/* Read what side `side` has sent, as long as its direction has room. */
static void
read_side(struct conn *c, int side)
{
	struct dir *d = &c->dir[side];
	int			fd = c->ep[side].fd;
	int			rounds = 0;

	while (!c->dead && !d->read_eof && d->queued < max_queue && rounds++ < 16)
	{
		ssize_t		r = read(fd, read_buf, sizeof(read_buf));

		if (r > 0)
		{
			count_turn(c, side, (size_t) r);
			enqueue(d, read_buf, (size_t) r, 0, now_ns());
			if ((size_t) r < sizeof(read_buf))
				break;			/* most likely drained */
		}
		else if (r == 0)
		{
			d->read_eof = 1;
			enqueue(d, NULL, 0, 1, now_ns());
		}
		else if (errno == EINTR)
			continue;
		else if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		else
			close_conn(c, strerror(errno));
	}
}

/* Pass on every chunk that has come due. */
static void
release_due(void)
{
	uint64_t	now = now_ns();

	while (due_head && due_head->due <= now)
	{
		struct chunk *ch = due_head;
		struct dir *d = ch->dir;

		due_remove(ch);
		ch->released = 1;
		flush_dir(d);
		if (!d->conn->dead)
			update_interest(d->conn);
	}
}

static void
set_nodelay(int fd)
{
	int			one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void
accept_clients(struct listener *l)
{
	for (;;)
	{
		int			cfd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		int			sfd;
		struct conn *c;
		int			i;

		if (cfd < 0)
		{
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			if (errno == EMFILE || errno == ENFILE)
			{
				fprintf(stderr, "delayproxy: accept: %s\n", strerror(errno));
				return;
			}
			die("accept: %s", strerror(errno));
		}
		sfd = socket(l->target.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (sfd < 0)
		{
			fprintf(stderr, "delayproxy: socket: %s\n", strerror(errno));
			close(cfd);
			continue;
		}
		set_nodelay(cfd);
		set_nodelay(sfd);

		c = xmalloc(sizeof(*c));
		memset(c, 0, sizeof(*c));
		c->id = ++conn_count;
		c->l = l;
		c->last_from = -1;
		l->conns++;
		l->open++;
		for (i = 0; i < 2; i++)
		{
			c->ep[i].h.kind = K_ENDPOINT;
			c->ep[i].conn = c;
			c->ep[i].side = i;
			c->dir[i].conn = c;
			c->dir[i].from = i;
			c->dir[i].to = 1 - i;
		}
		c->ep[0].fd = cfd;
		c->ep[1].fd = sfd;
		conn_open++;
		if (conn_open > conn_max)
			conn_max = conn_open;
		note("connection %lu: port %d -> %s", c->id, l->lport, l->target_name);

		if (connect(sfd, (struct sockaddr *) &l->target, l->target_len) < 0)
		{
			if (errno != EINPROGRESS)
			{
				close_conn(c, strerror(errno));
				continue;
			}
			c->connecting = 1;
		}
		update_interest(c);
	}
}

/* The connect to the server has finished, one way or the other. */
static void
connect_done(struct conn *c)
{
	int			err = 0;
	socklen_t	len = sizeof(err);

	if (getsockopt(c->ep[1].fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err == EINPROGRESS || err == EALREADY)
		return;
	if (err)
	{
		fprintf(stderr, "delayproxy: connection %lu: connect: %s\n", c->id, strerror(err));
		close_conn(c, "connect failed");
		return;
	}
	c->connecting = 0;
}

static void
handle_endpoint(struct endpoint *ep, uint32_t ev)
{
	struct conn *c = ep->conn;

	if (c->dead)
		return;
	if (ep->side == 1 && c->connecting)
	{
		if (!(ev & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
			return;
		connect_done(c);
		if (c->dead || c->connecting)
			return;
		flush_dir(&c->dir[0]);	/* what the client sent meanwhile */
	}
	if (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR))
	{
		/* writable, or broken: a write will tell which */
		struct dir *in = &c->dir[1 - ep->side];

		in->blocked = 0;
		flush_dir(in);
	}
	if (!c->dead && (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		read_side(c, ep->side);
	if (!c->dead && (ev & EPOLLERR) && (ep->events & EPOLLIN) == 0)
	{
		/* an error we would not see through read(): ask the socket */
		int			err = 0;
		socklen_t	len = sizeof(err);

		getsockopt(ep->fd, SOL_SOCKET, SO_ERROR, &err, &len);
		close_conn(c, err ? strerror(err) : "socket error");
	}
	update_interest(c);
}

/* ---- the stats port ---------------------------------------------------- */

/*
 * Answer each connection to the stats port with the counters of every
 * mapping, then close it.  The answer is a few hundred bytes, which a
 * fresh loopback socket takes in one write; a client too slow for that
 * gets what was written.
 */
static void
answer_stats(void)
{
	for (;;)
	{
		int			fd = accept4(stats_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		char		buf[8192];
		size_t		len = 0;
		struct listener *l;

		if (fd < 0)
		{
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;				/* EAGAIN, or out of descriptors: next time */
		}
		for (l = listeners; l && len < sizeof(buf) - 200; l = l->next)
			len += (size_t) snprintf(buf + len, sizeof(buf) - len,
									 "%d connections=%lu open=%lu turns=%llu client_bytes=%llu server_bytes=%llu\n",
									 l->lport, l->conns, l->open,
									 (unsigned long long) l->turns,
									 (unsigned long long) l->read_bytes[0],
									 (unsigned long long) l->read_bytes[1]);
		if (write(fd, buf, len) < 0)
			note("stats port: write: %s", strerror(errno));
		close(fd);
	}
}

/* ---- set-up ------------------------------------------------------------ */

static void
on_signal(int sig)
{
	(void) sig;
	stop_requested = 1;
}

/* A listening socket on ADDR:PORT in the epoll set, its events for h. */
static int
listen_on(const char *listen_addr, int port, struct handle *h)
{
	struct sockaddr_in sin;
	struct epoll_event ev;
	int			one = 1;
	int			fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t) port);
	if (inet_pton(AF_INET, listen_addr, &sin.sin_addr) != 1)
		die("bad listen address '%s' (IPv4 only)", listen_addr);
	if (bind(fd, (struct sockaddr *) &sin, sizeof(sin)) < 0)
		die("bind %s:%d: %s", listen_addr, port, strerror(errno));
	if (listen(fd, 512) < 0)
		die("listen: %s", strerror(errno));
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.ptr = h;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		die("epoll_ctl: %s", strerror(errno));
	return fd;
}

static struct listener *
make_listener(const char *spec, const char *listen_addr)
{
	struct listener *l = xmalloc(sizeof(*l));
	char		buf[400];
	char	   *p1,
			   *p2,
			   *end;
	long		lport;
	struct addrinfo hints,
			   *res;
	int			rc;

	memset(l, 0, sizeof(*l));
	l->h.kind = K_LISTENER;
	if (strlen(spec) >= sizeof(buf))
		die("mapping too long: %s", spec);
	strcpy(buf, spec);
	p1 = strchr(buf, ':');
	p2 = strrchr(buf, ':');
	if (!p1 || p1 == p2)
		die("bad mapping '%s': want LPORT:HOST:PORT", spec);
	*p1++ = '\0';
	*p2++ = '\0';
	lport = strtol(buf, &end, 10);
	if (*end || lport <= 0 || lport > 65535)
		die("bad listen port in '%s'", spec);
	l->lport = (int) lport;
	snprintf(l->target_name, sizeof(l->target_name), "%s:%s", p1, p2);

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(p1, p2, &hints, &res);
	if (rc != 0)
		die("cannot resolve %s: %s", l->target_name, gai_strerror(rc));
	memcpy(&l->target, res->ai_addr, res->ai_addrlen);
	l->target_len = res->ai_addrlen;
	freeaddrinfo(res);

	l->fd = listen_on(listen_addr, (int) lport, &l->h);
	l->next = listeners;
	listeners = l;
	return l;
}

static void
usage(void)
{
	fprintf(stderr,
			"usage: delayproxy [-v] [-l ADDR] [-m BYTES] [-s SPORT] (-r RTT_MS | -d DELAY_US)\n"
			"                  LPORT:HOST:PORT [LPORT:HOST:PORT ...]\n"
			"  -r RTT_MS    round trip time to add (each direction gets half)\n"
			"  -d DELAY_US  one-way delay in microseconds\n"
			"  -l ADDR      IPv4 address to listen on (127.0.0.1)\n"
			"  -m BYTES     most bytes held per direction (67108864)\n"
			"  -s SPORT     answer connections to ADDR:SPORT with the counters\n"
			"  -v           report connections and totals on stderr\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *listen_addr = "127.0.0.1";
	int			have_delay = 0;
	int			stats_port = 0;
	int			opt;
	struct epoll_event ev;
	struct epoll_event events[MAX_EVENTS];
	struct sigaction sa;
	int			i;

	while ((opt = getopt(argc, argv, "vl:m:s:r:d:h")) != -1)
	{
		char	   *end;

		switch (opt)
		{
			case 'v':
				verbose = 1;
				break;
			case 'l':
				listen_addr = optarg;
				break;
			case 'm':
				{
					unsigned long long m = strtoull(optarg, &end, 10);

					if (*end || m < 1024)
						die("bad -m '%s': a number of bytes, at least 1024", optarg);
					max_queue = (size_t) m;
					break;
				}
			case 's':
				{
					long		p = strtol(optarg, &end, 10);

					if (*end || p <= 0 || p > 65535)
						die("bad -s '%s': a port number", optarg);
					stats_port = (int) p;
					break;
				}
			case 'r':
				{
					double		rtt = strtod(optarg, &end);

					if (*end || !(rtt >= 0) || rtt > 3600000)
						die("bad -r '%s': milliseconds, >= 0", optarg);
					delay_ns = (uint64_t) (rtt * 1e6 / 2 + 0.5);
					have_delay = 1;
					break;
				}
			case 'd':
				{
					double		us = strtod(optarg, &end);

					if (*end || !(us >= 0) || us > 3.6e9)
						die("bad -d '%s': microseconds, >= 0", optarg);
					delay_ns = (uint64_t) (us * 1e3 + 0.5);
					have_delay = 1;
					break;
				}
			default:
				usage();
		}
	}
	if (!have_delay || optind >= argc)
		usage();

	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);	/* no SA_RESTART: epoll_wait returns */
	sigaction(SIGINT, &sa, NULL);
	/* wake up when the timer says, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		die("epoll_create1: %s", strerror(errno));
	timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (timer_fd < 0)
		die("timerfd_create: %s", strerror(errno));
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.ptr = &timer_handle;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, timer_fd, &ev) < 0)
		die("epoll_ctl: %s", strerror(errno));

	for (i = optind; i < argc; i++)
	{
		struct listener *l = make_listener(argv[i], listen_addr);

		fprintf(stderr, "delayproxy: %s:%d -> %s, one-way delay %.1f us\n",
				listen_addr, l->lport, l->target_name, delay_ns / 1e3);
	}
	if (stats_port)
	{
		stats_fd = listen_on(listen_addr, stats_port, &stats_handle);
		fprintf(stderr, "delayproxy: counters on %s:%d\n", listen_addr, stats_port);
	}

	while (!stop_requested)
	{
		int			n = epoll_wait(epfd, events, MAX_EVENTS, -1);

		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			die("epoll_wait: %s", strerror(errno));
		}
		for (i = 0; i < n; i++)
		{
			struct handle *h = events[i].data.ptr;

			switch (h->kind)
			{
				case K_LISTENER:
					accept_clients((struct listener *) h);
					break;
				case K_TIMER:
					{
						uint64_t	expirations;

						if (read(timer_fd, &expirations, sizeof(expirations)) < 0 &&
							errno != EAGAIN)
							die("read timerfd: %s", strerror(errno));
						timer_armed = 0;
						break;
					}
				case K_ENDPOINT:
					handle_endpoint((struct endpoint *) h, events[i].events);
					break;
				case K_STATS:
					answer_stats();
					break;
			}
		}
		release_due();
		arm_timer();
		while (dead_list)
		{
			struct conn *c = dead_list;

			dead_list = c->next_dead;
			free(c);
		}
	}
	note("stopping: %lu connections (at most %lu at once), %llu bytes to the servers, %llu back",
		 conn_count, conn_max, (unsigned long long) total_bytes[0],
		 (unsigned long long) total_bytes[1]);
	return 0;
}
