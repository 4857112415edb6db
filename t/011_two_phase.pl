# Two-phase commit across a PostgreSQL and a MariaDB server: whatever fails
# and wherever, the end state on both, after multi_fdw_resolve(), is all or
# nothing, and no prepared transaction is left behind.
#
# The failure points come from the real thing where it can be had here (a
# deferred constraint refusing PREPARE or COMMIT, the remote restarted, the
# remote stopped) and from multi_fdw.two_phase_fault otherwise (the gateway
# backend killed with SIGKILL just before or just after the local commit).
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_011');
my $my = setup_mysql_server($db);
my ($host, $port, $rdb, $ruser, $rpass) = map { mf_env($_) }
  qw(MF_PG_HOST MF_PG_PORT MF_PG_DB MF_PG_USER MF_PG_PASSWORD);

remote_safe_psql(<<'SQL');
DROP TABLE IF EXISTS t011, t011_def, t011_lr;
CREATE TABLE t011 (id int PRIMARY KEY, v text);
CREATE TABLE t011_def (id int UNIQUE DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE t011_lr (id int UNIQUE DEFERRABLE INITIALLY DEFERRED);
SQL
mariadb_safe("DROP TABLE IF EXISTS t011; CREATE TABLE t011 (id int PRIMARY KEY, v text) ENGINE=InnoDB");
gw_safe_psql(<<"SQL", dbname => $db);
ALTER SERVER pg_remote OPTIONS (ADD two_phase_commit 'on');
ALTER SERVER $my OPTIONS (ADD two_phase_commit 'on');
-- the same remote PostgreSQL, as a server that cannot prepare
CREATE SERVER pg_plain FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '$host', port '$port', dbname '$rdb');
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_plain
  OPTIONS (user '$ruser', password '$rpass');
CREATE FOREIGN TABLE t_pg (id int, v text) SERVER pg_remote OPTIONS (table_name 't011');
CREATE FOREIGN TABLE t_def (id int) SERVER pg_remote OPTIONS (table_name 't011_def');
CREATE FOREIGN TABLE t_my (id int, v text) SERVER $my OPTIONS (table_name 't011');
CREATE FOREIGN TABLE t_lr (id int) SERVER pg_plain OPTIONS (table_name 't011_lr');
SQL



# after a crash of a backend the postmaster restarts all of them, its
# checkpointer included: wait for a new checkpointer, and for connections
sub checkpointer_start
{
	return scalar gw_psql("SELECT backend_start FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
		dbname => $db);
}
my $last_start = checkpointer_start();

sub gateway_back
{
	my $ok = wait_for(
		sub {
			my ($rc, $start) = gw_psql("SELECT backend_start FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
				dbname => $db);
			return $rc == 0 && $start ne '' && $start ne $last_start;
		},
		timeout => 60);
	$last_start = checkpointer_start();
	return $ok;
}

sub load
{
	my ($from, $to, $tail) = @_;
	$tail //= '';
	return gw_psql(<<"SQL", dbname => $db);
$tail
BEGIN;
INSERT INTO t_pg SELECT g, 'pg' FROM generate_series($from, $to) g;
INSERT INTO t_my SELECT g, 'my' FROM generate_series($from, $to) g;
COMMIT;
SQL
}

my ($rc, $out, $err);

# 1. it works
($rc, $out, $err) = load(1, 10);
is($rc, 0, 'a transaction writing to both commits') or diag $err;
is(remote_counts('t011'), '10/10', 'both remotes have its rows');
is(prepared_left(), '0/0', 'nothing is left prepared');
is(gw_psql('SELECT count(*) FROM multi_fdw_in_doubt', dbname => $db), '0',
	'nothing is in doubt');

# 2. PREPARE refused by the PostgreSQL remote (a deferred unique check)
($rc, $out, $err) = gw_psql(<<'SQL', dbname => $db);
BEGIN;
INSERT INTO t_my VALUES (11, 'my');
INSERT INTO t_pg VALUES (11, 'pg');
INSERT INTO t_def VALUES (1), (1);
COMMIT;
SQL
like($err, qr/duplicate key value violates unique constraint/,
	'PREPARE refused by a deferred constraint');
is(remote_counts('t011'), '10/10', 'refused PREPARE: nothing of it on either side');
is(prepared_left(), '0/0', 'refused PREPARE: nothing left prepared');

# 3. the second PREPARE fails (fault point)
($rc, $out, $err) = load(12, 20, "SET multi_fdw.two_phase_fault = 'fail_prepare';");
like($err, qr/two_phase_fault: fail_prepare/, 'a PREPARE fails');
is(remote_counts('t011'), '10/10', 'failed PREPARE: nothing of it on either side');
is(prepared_left(), '0/0', 'failed PREPARE: the prepared one is rolled back');

# 4. the last resource (a server that cannot prepare) fails to commit
($rc, $out, $err) = gw_psql(<<'SQL', dbname => $db);
BEGIN;
INSERT INTO t_pg VALUES (21, 'pg');
INSERT INTO t_my VALUES (21, 'my');
INSERT INTO t_lr VALUES (1), (1);
COMMIT;
SQL
like($err, qr/duplicate key value violates unique constraint/,
	'the last resource fails to commit');
is(remote_counts('t011'), '10/10', 'failed last resource: nothing on either side');
is(remote_psql('SELECT count(*) FROM t011_lr'), '0', 'nor on the last resource');
is(prepared_left(), '0/0', 'failed last resource: the prepared ones are rolled back');
# and when it commits, so do the others
($rc, $out, $err) = gw_psql(<<'SQL', dbname => $db);
BEGIN;
INSERT INTO t_pg VALUES (21, 'pg');
INSERT INTO t_my VALUES (21, 'my');
INSERT INTO t_lr VALUES (1);
COMMIT;
SQL
is($rc, 0, 'with a last resource that commits') or diag $err;
is(remote_counts('t011') . ' ' . remote_psql('SELECT count(*) FROM t011_lr'), '11/11 1',
	'all three have the rows');

# what the failures above may have left logged (a PREPARE whose answer was
# an error leaves its connection's state unknown) is rolled back, and then
# nothing is in doubt
gw_psql('SELECT count(*) FROM multi_fdw_resolve()', dbname => $db);
is(gw_psql('SELECT count(*) FROM multi_fdw_in_doubt', dbname => $db), '0',
	'resolved, nothing is left in doubt');

# 5. the gateway backend killed after the local commit, before COMMIT PREPARED
($rc, $out, $err) = load(30, 39, "SET multi_fdw.two_phase_fault = 'crash_after_local_commit';");
like($err, qr/server closed the connection|terminated abnormally|connection to server was lost/,
	'the backend dies after the local commit');
ok(gateway_back(), 'the gateway is back');
is(prepared_left(), '1/1', 'both remote transactions are prepared, in doubt');
is(gw_psql("SELECT string_agg(decision, ',') FROM multi_fdw_in_doubt", dbname => $db),
	'commit,commit', 'the decision says commit for both');
is(gw_psql("SELECT string_agg(action, ',' ORDER BY server_name) FROM multi_fdw_resolve()", dbname => $db),
	'committed,committed', 'the resolver commits both');
is(remote_counts('t011'), '21/21', 'killed after the local commit: all of it arrived');
is(prepared_left(), '0/0', 'nothing left prepared');

# 6. killed after preparing, before the local commit
($rc, $out, $err) = load(40, 49, "SET multi_fdw.two_phase_fault = 'crash_before_local_commit';");
like($err, qr/server closed the connection|terminated abnormally|connection to server was lost/,
	'the backend dies before the local commit');
ok(gateway_back(), 'the gateway is back');
is(prepared_left(), '1/1', 'both prepared');
is(gw_psql("SELECT string_agg(action, ',') FROM multi_fdw_resolve()", dbname => $db),
	'rolled back,rolled back', 'the resolver rolls both back');
is(remote_counts('t011'), '21/21', 'killed before the local commit: none of it arrived');
is(prepared_left(), '0/0', 'nothing left prepared');

# 7. the remote PostgreSQL restarts between PREPARE and COMMIT PREPARED
my $s = MfTest::Session->new(dbname => $db);
$s->query("SET multi_fdw.two_phase_fault = 'sleep_after_local_commit'");
$s->send(<<'SQL');
BEGIN;
INSERT INTO t_pg SELECT g, 'pg' FROM generate_series(50, 59) g;
INSERT INTO t_my SELECT g, 'my' FROM generate_series(50, 59) g;
COMMIT;
SQL
sleep 1;
ok(restart_remote_pg(), 'the remote PostgreSQL restarts meanwhile');
($out, $err) = $s->result;
like($err, qr/is in doubt/, 'the commit warns that a remote transaction is in doubt');
$s->quit;
is(remote_psql('SELECT count(*) FROM pg_prepared_xacts'), '1',
	'the prepared transaction survived the restart');
is(gw_psql("SELECT string_agg(server_name || ':' || action, ',') FROM multi_fdw_resolve()", dbname => $db),
	'pg_remote:committed', 'the resolver commits it');
is(remote_counts('t011'), '31/31', 'restart before COMMIT PREPARED: all of it arrived');
is(prepared_left(), '0/0', 'nothing left prepared');

# 8. a remote unreachable during resolution, back later
($rc, $out, $err) = load(60, 69, "SET multi_fdw.two_phase_fault = 'crash_after_local_commit';");
ok(gateway_back(), 'the gateway is back after another crash');
my $pgctl = mf_env('MF_PGBIN') . '/pg_ctl';
my $data = mf_env('MF_TMP') . '/pg';
my @as = $> == 0 ? ('runuser', '-u', scalar getpwuid((stat $data)[4]), '--') : ();
system(@as, $pgctl, '-D', $data, '-m', 'fast', '-w', 'stop') == 0
  or BAIL_OUT('could not stop the remote PostgreSQL');
($rc, $out, $err) = gw_psql("SELECT server_name, action FROM multi_fdw_resolve() ORDER BY 1", dbname => $db);
like($err, qr/could not resolve the remote transaction mf_\w+ on server "pg_remote": could not connect to server "pg_remote"/,
	'the unreachable server is a warning');
is($out, "$my|committed\npg_remote|failed: could not connect to server \"pg_remote\"",
	'the reachable one is resolved, the other one says why it is not');
system(@as, $pgctl, '-D', $data, '-l', mf_env('MF_TMP') . '/pg.log', '-w', 'start') == 0
  or BAIL_OUT('could not start the remote PostgreSQL');
is(gw_psql("SELECT server_name || ':' || action FROM multi_fdw_resolve()", dbname => $db),
	'pg_remote:committed', 'back, it is resolved too');
is(remote_counts('t011'), '41/41', 'unreachable during resolution: all of it arrived');
is(prepared_left(), '0/0', 'nothing left prepared');

# 9. a large load into both, killed on either side of the local commit
my $n = 1000000;
($rc, $out, $err) = load(100001, 100000 + $n,
	"SET multi_fdw.two_phase_fault = 'crash_before_local_commit';");
ok(gateway_back(), "$n rows each, killed before the local commit");
gw_safe_psql('SELECT * FROM multi_fdw_resolve()', dbname => $db);
is(remote_counts('t011'), '41/41', 'none of the load arrived');
($rc, $out, $err) = load(100001, 100000 + $n,
	"SET multi_fdw.two_phase_fault = 'crash_after_local_commit';");
ok(gateway_back(), "$n rows each, killed after the local commit");
gw_safe_psql('SELECT * FROM multi_fdw_resolve()', dbname => $db);
is(remote_counts('t011'), (41 + $n) . '/' . (41 + $n), 'all of the load arrived');
is(prepared_left(), '0/0', 'nothing left prepared');
is(gw_psql('SELECT count(*) FROM multi_fdw_decision', dbname => $db), '0',
	'no decision row is left');

# 10. required: a commit that cannot be atomic is refused
($rc, $out, $err) = gw_psql(<<"SQL", dbname => $db);
ALTER SERVER $my OPTIONS (SET two_phase_commit 'off');
SET multi_fdw.two_phase_commit = required;
BEGIN;
INSERT INTO t_lr VALUES (2);
INSERT INTO t_my VALUES (70, 'my');
COMMIT;
SQL
like($err, qr/cannot commit atomically: servers .* cannot prepare/,
	'required: two servers that cannot prepare are refused');
is(remote_counts('t011'), (41 + $n) . '/' . (41 + $n), 'and nothing of it arrived');

# 11. SERIALIZABLE: the serialization check comes after the last resource
# committed, so such a commit is refused under required, warned under auto
my $lr = remote_psql('SELECT count(*) FROM t011_lr');
($rc, $out, $err) = gw_psql(<<"SQL", dbname => $db);
ALTER SERVER $my OPTIONS (SET two_phase_commit 'on');
SET multi_fdw.two_phase_commit = required;
BEGIN ISOLATION LEVEL SERIALIZABLE;
INSERT INTO t_lr VALUES (3);
INSERT INTO t_my VALUES (71, 'my');
COMMIT;
SQL
like($err, qr/cannot commit atomically: server "pg_plain" cannot prepare, and a serializable transaction may still fail/,
	'required: a last resource under SERIALIZABLE is refused');
is(remote_counts('t011') . ' ' . remote_psql('SELECT count(*) FROM t011_lr'),
	(41 + $n) . '/' . (41 + $n) . " $lr", 'and nothing of it arrived, last resource included');
($rc, $out, $err) = gw_psql(<<"SQL", dbname => $db);
BEGIN ISOLATION LEVEL SERIALIZABLE;
INSERT INTO t_lr VALUES (3);
INSERT INTO t_my VALUES (71, 'my');
COMMIT;
SQL
is($rc, 0, 'auto: it commits');
like($err, qr/the commit is not atomic: server "pg_plain" commits before PostgreSQL's serialization check/,
	'auto: with a warning');

# 12. a resolution that began before a transaction committed judges it by
# what is true when it reaches it: the transaction committed locally and
# sleeps before its COMMIT PREPARED; the resolution, whose statement began
# before that commit, must not roll it back (its snapshot does not have
# the decision), nor take it from its session (a MySQL XA transaction
# cannot be ended from elsewhere while its session holds it)
my $before = remote_counts('t011');
my ($p0, $m0) = split m{/}, $before;
my $r = MfTest::Session->new(dbname => $db);
my $v = MfTest::Session->new(dbname => $db);
$r->send("SELECT string_agg(r.server_name || ':' || r.decision, ',' ORDER BY r.server_name)"
	  . " FROM (SELECT pg_sleep(2) x) s"
	  . " CROSS JOIN LATERAL multi_fdw_resolve(nullif(s.x::text, s.x::text)) r");
select(undef, undef, undef, 0.5);
$v->send(<<"SQL");
SET multi_fdw.two_phase_fault = 'sleep_after_local_commit';
BEGIN;
INSERT INTO t_pg VALUES (90, 'pg');
INSERT INTO t_my VALUES (90, 'my');
COMMIT;
SQL
my ($rout, $rerr) = $r->result;
my ($vout, $verr) = $v->result;
is($rout, "$my:in progress,pg_remote:in progress",
	'a resolution that began before the commit leaves it to its session, at work on it');
is($verr, '', 'the session commits both itself');
is(remote_counts('t011'), ($p0 + 1) . '/' . ($m0 + 1), 'and both rows arrived');
is(prepared_left(), '0/0', 'nothing left prepared');
$r->quit;
$v->quit;

# 13. a resolution that fails closes the connection it made for it: the
# mapping now names a remote role that may not end another's prepared
# transaction, and each try must leave no session behind on the remote
remote_safe_psql(<<'SQL', user => 'mfdw', dbname => 'postgres');
DROP ROLE IF EXISTS mf011_other;
CREATE ROLE mf011_other LOGIN PASSWORD 'mf011pw';
SQL
($rc, $out, $err) = load(80, 89, "SET multi_fdw.two_phase_fault = 'crash_after_local_commit';");
like($err, qr/server closed the connection|terminated abnormally|connection to server was lost/,
	'the backend dies after the local commit');
ok(gateway_back(), 'the gateway is back');
gw_safe_psql("ALTER USER MAPPING FOR CURRENT_USER SERVER pg_remote OPTIONS (SET user 'mf011_other', SET password 'mf011pw')",
	dbname => $db);
{
	my $s = MfTest::Session->new(dbname => $db);
	my ($o, $e) = $s->query("SELECT string_agg(action, ',' ORDER BY server_name) FROM multi_fdw_resolve('pg_remote');\n"
		  . "SELECT string_agg(action, ',' ORDER BY server_name) FROM multi_fdw_resolve('pg_remote');\n"
		  . "SELECT string_agg(action, ',' ORDER BY server_name) FROM multi_fdw_resolve('pg_remote')");
	like($o, qr/^failed: permission denied.*\n.*failed: permission denied.*\n.*failed: permission denied/s,
		'the resolution fails three times: the remote role may not end it') or diag "$o\n$e";
	is(remote_psql("SELECT count(*) FROM pg_stat_activity WHERE usename = 'mf011_other'"), '0',
		'and leaves no connection open on the remote, while the session that tried goes on');
	$s->quit;
}
gw_safe_psql("ALTER USER MAPPING FOR CURRENT_USER SERVER pg_remote OPTIONS (SET user '$ruser', SET password '$rpass')",
	dbname => $db);
is(gw_psql("SELECT string_agg(action, ',' ORDER BY server_name) FROM multi_fdw_resolve()", dbname => $db),
	'committed,committed', 'the mapping mended, the resolver commits both');
is(prepared_left(), '0/0', 'nothing left prepared');
remote_safe_psql('DROP ROLE mf011_other', user => 'mfdw', dbname => 'postgres');

done_testing();
