# shellcheck shell=bash
# What bench/run and bench/oltp share; both source it.  Messages, the
# choice of cases, the PostgreSQL build that runs the servers and clients,
# the delay proxy, the test bed's start and stop (also on an error or
# Ctrl-C), the clients of its servers and the round trip probe.
#
# The sourcing script sets ROOT (the checkout), BENCH (ROOT/bench) and
# TESTBED (ROOT/t/testbed) first.

say() { echo "bench: $*" >&2; }
die() { echo "bench: ERROR: $*" >&2; exit 1; }

# select_cases LIST CASE...: the cases of CASE... (in that order) that
# LIST names, into RUN_CASES, and `wanted` (an associative array the caller
# declares) set for each.  LIST is comma-separated names or shell patterns
# ('oltp_*'); empty means all.  Each entry must match some case.
select_cases() {
	local list=$1 c k found
	shift
	local -a pats=()
	if [ -n "$list" ]; then
		IFS=, read -r -a pats <<<"$list"
		for c in "${pats[@]}"; do
			c=${c// /}
			[ -n "$c" ] || continue
			found=0
			for k in "$@"; do
				# shellcheck disable=SC2053 # a pattern, on purpose
				if [[ $k == $c ]]; then
					wanted["$k"]=1
					found=1
				fi
			done
			[ "$found" = 1 ] || die "unknown case '$c'; the cases are: $*"
		done
		[ "${#wanted[@]}" -gt 0 ] || die "--cases names no case"
	else
		for k in "$@"; do wanted["$k"]=1; done
	fi
	RUN_CASES=()
	for k in "$@"; do
		[ -z "${wanted[$k]:-}" ] || RUN_CASES+=("$k")
	done
}

# bench_pg: the PostgreSQL build of the servers and the clients
# (MF_PG_BINDIR, else Debian's 15): PG_BINDIR, PG_CONFIG, PKGLIB, SHAREDIR;
# multi_fdw, postgres_fdw and pgbench must be there
bench_pg() {
	PG_BINDIR=${MF_PG_BINDIR:-/usr/lib/postgresql/15/bin}
	if [ -n "${MF_PG_BINDIR:-}" ]; then
		PG_CONFIG=$MF_PG_BINDIR/pg_config
		[ -x "$PG_CONFIG" ] || die "MF_PG_BINDIR=$MF_PG_BINDIR has no pg_config"
		export MF_PG_BINDIR
	else
		PG_CONFIG=pg_config
		command -v pg_config >/dev/null 2>&1 || die "pg_config not found: run t/testbed/install-deps (make bench does)"
	fi
	PKGLIB=$("$PG_CONFIG" --pkglibdir)
	SHAREDIR=$("$PG_CONFIG" --sharedir)
	if [ ! -f "$PKGLIB/multi_fdw.so" ] || [ ! -f "$SHAREDIR/extension/multi_fdw.control" ]; then
		die "multi_fdw is not installed into $PKGLIB: run 'make && make install' (or 'make bench')"
	fi
	[ -f "$PKGLIB/postgres_fdw.so" ] || die "postgres_fdw is not installed into $PKGLIB (package postgresql-15; t/testbed/build-pg installs it)"
	[ -x "$PG_BINDIR/pgbench" ] || die "$PG_BINDIR/pgbench not found (package postgresql-15)"
	command -v gcc >/dev/null 2>&1 || die "gcc not found: run t/testbed/install-deps"
	command -v mariadb >/dev/null 2>&1 || die "the mariadb client is not found: run t/testbed/install-deps"
}

# bench_out: OUT made absolute, LOGS (OUT/logs) emptied
bench_out() {
	mkdir -p "$OUT"
	OUT=$(cd "$OUT" && pwd -P)
	LOGS=$OUT/logs
	rm -rf "$LOGS"
	mkdir -p "$LOGS"
}

# --- the proxy -----------------------------------------------------------------

# bench_build_proxy: bench/delayproxy.c compiled into BUILD (bench/.build)
bench_build_proxy() {
	BUILD=$BENCH/.build
	mkdir -p "$BUILD"
	if [ ! -x "$BUILD/delayproxy" ] || [ "$BENCH/delayproxy.c" -nt "$BUILD/delayproxy" ]; then
		gcc -O2 -Wall -Wextra -o "$BUILD/delayproxy.tmp" "$BENCH/delayproxy.c" ||
			die "could not compile bench/delayproxy.c"
		mv "$BUILD/delayproxy.tmp" "$BUILD/delayproxy"
	fi
}

port_in_use() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# proxy_start RTT LOG STATS_PORT MAP...: one delayproxy adding RTT ms for
# each LPORT:HOST:PORT of MAP, with its counters on STATS_PORT (none if
# empty), logging to LOG; returns once every LPORT listens.  PROXY_PID.
proxy_start() {
	local rtt=$1 log=$2 sport=$3 m t
	shift 3
	local -a opts=(-r "$rtt")
	[ -z "$sport" ] || opts+=(-s "$sport")
	for m in "$@" ${sport:+"$sport:"}; do
		! port_in_use "${m%%:*}" || die "port ${m%%:*} is in use; set BENCH_PROXY_PORT"
	done
	"$BUILD/delayproxy" "${opts[@]}" "$@" 2>"$log" &
	PROXY_PID=$!
	for m in "$@" ${sport:+"$sport:"}; do
		for ((t = 0; ; t++)); do
			port_in_use "${m%%:*}" && break
			kill -0 "$PROXY_PID" 2>/dev/null || { cat "$log" >&2; die "delayproxy did not start"; }
			[ "$t" -lt 100 ] || die "delayproxy does not listen on ${m%%:*}"
			sleep 0.05
		done
	done
}

proxy_stop() {
	[ -n "$PROXY_PID" ] || return 0
	kill "$PROXY_PID" 2>/dev/null || true
	wait "$PROXY_PID" 2>/dev/null || true
	PROXY_PID=
}

# --- the test bed ----------------------------------------------------------------

# bench_ports N: the test bed's ports for N remote PostgreSQL servers, off
# the test runs' (gateway 54432, remotes 54433.., the MariaDB after them,
# then its TDS endpoint, which no case uses), unless MF_GW_PORT,
# MF_PG_PORT, MF_MY_PORT, MF_TDS_PORT say otherwise; BENCH_PROXY_PORT
# (54533) is where the proxy's ports begin.  Real durability (MF_FAST=0):
# the numbers should mean something.
bench_ports() {
	local v
	export MF_GW_PORT=${MF_GW_PORT:-54432}
	export MF_PG_PORT=${MF_PG_PORT:-54433}
	export MF_PG_EXTRA=$(($1 - 1))
	export MF_FAST=0
	export MF_MY_PORT=${MF_MY_PORT:-$((MF_PG_PORT + $1))}
	export MF_TDS_PORT=${MF_TDS_PORT:-$((MF_MY_PORT + 1))}
	BENCH_PROXY_PORT=${BENCH_PROXY_PORT:-54533}
	for v in MF_GW_PORT MF_PG_PORT MF_MY_PORT MF_TDS_PORT BENCH_PROXY_PORT; do
		[[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a port number"
	done
}

DIR=
PROXY_PID=
CHILD_PID=
# on exit: the running client, the proxy and the servers stopped
bench_cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$CHILD_PID" ]; then
		kill "$CHILD_PID" 2>/dev/null || true
		wait "$CHILD_PID" 2>/dev/null || true
	fi
	proxy_stop
	if [ -n "$DIR" ]; then
		if [ "$rc" -ne 0 ] || [ "${MF_KEEP:-0}" = 1 ]; then
			"$TESTBED/stop" "$DIR" >&2 || true
		else
			"$TESTBED/stop" "$DIR" >/dev/null || true
		fi
	fi
	[ "$rc" -eq 0 ] || echo "bench: FAILED (exit $rc); logs in $LOGS" >&2
	exit "$rc"
}

# bench_start_testbed WHAT: t/testbed/start in a new DIR (the MF_* of the
# environment say which servers, on which ports), its env sourced; WORK
# (DIR/bench) for files the servers read and write; PSQL, the psql command
bench_start_testbed() {
	trap bench_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	DIR=$(mktemp -d /tmp/multi_fdw.XXXXXX)
	say "starting $1 in $DIR"
	if ! "$TESTBED/start" "$DIR" >"$LOGS/testbed.log" 2>&1; then
		cat "$LOGS/testbed.log" >&2
		exit 1
	fi
	# shellcheck disable=SC1091
	source "$DIR/env"
	WORK=$DIR/bench
	mkdir -p "$WORK"
	chown "$(stat -c %U "$DIR"):" "$WORK"
	PSQL=("$MF_PGBIN/psql" -X -v ON_ERROR_STOP=1)
}

# --- clients of the servers ---------------------------------------------------------
# (DB, the gateway's database, and DPORT, the remotes' ports, are the
# caller's)

gw() { "${PSQL[@]}" -q -d "$DB" "$@"; }
# remote I as mfapp over its unix socket: set-up and checks, never timed
remote() { local i=$1; shift; "${PSQL[@]}" -q -h "$MF_SOCKDIR" -p "${DPORT[i]}" -U "$MF_PG_USER" -d "$MF_PG_DB" "$@"; }
# remote I as the superuser (CHECKPOINT)
remote_su() { local i=$1; shift; "${PSQL[@]}" -q -h "$MF_SOCKDIR" -p "${DPORT[i]}" -U "$PGUSER" -d "$MF_PG_DB" "$@"; }
# the MariaDB as root over its socket: set-up and checks, never timed
my_root() { mariadb --no-defaults --socket="$MF_MY_SOCKET" -uroot "$MF_MY_DB" "$@"; }

# error_of LOG: the first error in a psql log, without psql's prefix
error_of() {
	local e
	e=$(grep -m1 -E '(ERROR|FATAL|error):' "$1" | sed -E 's/^psql:[^ ]*:[0-9]+: //' || true)
	[ -n "$e" ] || e=$(grep -m1 -v '^\s*$' "$1" || true)
	[ -n "$e" ] || e="failed without a message"
	echo "$e"
}

# probe PORT [SECONDS]: average pgbench latency of SELECT 1 to the remote
# PostgreSQL on PORT (over TCP) in ms, one client, SECONDS (3) long
probe() {
	local port=$1 secs=${2:-3}
	echo 'SELECT 1;' >"$WORK/select1.sql"
	PGPASSWORD=$MF_PG_PASSWORD "$MF_PGBIN/pgbench" -n -f "$WORK/select1.sql" -c 1 -T "$secs" \
		-h 127.0.0.1 -p "$port" -U "$MF_PG_USER" "$MF_PG_DB" >"$LOGS/probe.$port.log" 2>&1 || {
		cat "$LOGS/probe.$port.log" >&2
		die "the round trip probe failed"
	}
	sed -n 's/^latency average = \([0-9.]*\) ms$/\1/p' "$LOGS/probe.$port.log"
}

# mysql_fdw_install: Debian's postgresql-15-mysql-fdw, installed with
# apt-get if missing; an error (on stdout, for the case's log) where it
# cannot be had: only Debian's package is at hand, built for 15
mysql_fdw_install() {
	local v
	v=$("$PG_CONFIG" --version)
	if [[ "$v" != "PostgreSQL 15."* ]]; then
		echo "ERROR: mysql_fdw needs PostgreSQL 15 (postgresql-15-mysql-fdw); this is $v"
		return 1
	fi
	if [ ! -f "$PKGLIB/mysql_fdw.so" ]; then
		say "installing postgresql-15-mysql-fdw"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15-mysql-fdw ||
			{ echo "ERROR: could not install postgresql-15-mysql-fdw"; return 1; }
		[ -f "$PKGLIB/mysql_fdw.so" ] ||
			{ echo "ERROR: postgresql-15-mysql-fdw installs into Debian's PostgreSQL 15, not into $PKGLIB: copy its mysql_fdw.so and extension files there"; return 1; }
	fi
}
