# A statement waiting on the remote is cancelled in seconds, whatever path
# it took: a COPY whose remote has stopped reading (it waits on a row lock,
# or is stopped outright), the pipeline and values paths, and the error
# says why it was cancelled, as PostgreSQL does.  A remote backend
# terminated under an INSERT ... ON CONFLICT is a lost connection that
# names the server.  After each, the local transaction has rolled back,
# nothing of it is on the remote, and the session goes on.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use Time::HiRes ();

my $db = setup_gateway_db('mf_tap_006');
my $rt = 't006_cancel';

remote_safe_psql("DROP TABLE IF EXISTS $rt; CREATE TABLE $rt (id int PRIMARY KEY, pad text)");
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE ${rt}_copy (id int, pad text)
  SERVER pg_remote OPTIONS (table_name '$rt');
CREATE FOREIGN TABLE ${rt}_pipe (id int, pad text)
  SERVER pg_remote OPTIONS (table_name '$rt', insert_method 'pipeline');
CREATE FOREIGN TABLE ${rt}_values (id int, pad text)
  SERVER pg_remote OPTIONS (table_name '$rt', insert_method 'values');
CREATE FOREIGN TABLE ${rt}_row (id int, pad text)
  SERVER pg_remote OPTIONS (table_name '$rt', insert_method 'row');
SQL

my $s = MfTest::Session->new(dbname => $db, timeout => 30);
$s->query('\set VERBOSITY verbose');
my $gwpid = $s->query('SELECT pg_backend_pid()');

# a remote session holds row 1, so that the load's first row waits on it
my $locker = MfTest::Session->new(remote => 1, timeout => 30);
sub lock_row_1
{
	my ($out, $err) = $locker->query("BEGIN; INSERT INTO $rt VALUES (1, 'locker')");
	is($err, '', 'a remote session holds row 1');
}

# the remote backend of the gateway, once it waits on the lock
sub waiting_remote_pid
{
	my $pid = '';
	MfTest::wait_for(sub {
		$pid = remote_psql(
			"SELECT pid FROM pg_stat_activity WHERE usename = current_user "
			  . "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'");
		return $pid =~ /^\d+$/;
	}, timeout => 15);
	return $pid;
}

# send $sql, wait at most $limit s for its end, then let the lock go in any
# case (after $after_wait); returns (seconds taken, stdout, stderr)
sub timed
{
	my ($sql, $limit, $before_wait, $after_wait) = @_;
	my $t0 = Time::HiRes::time();
	$s->send($sql);
	$before_wait->() if $before_wait;
	MfTest::wait_for(sub { $s->ready }, timeout => $limit);
	my $took = Time::HiRes::time() - $t0;
	$after_wait->() if $after_wait;
	$locker->query('ROLLBACK');
	my ($out, $err) = $s->result;
	note(sprintf("took %.1f s: %s", $took, $err));
	return ($took, $out, $err);
}

sub nothing_left
{
	my ($what) = @_;
	is(scalar remote_psql("SELECT count(*) FROM $rt"), '0',
		"$what: nothing of the load is on the remote");
	my ($out, $err) = $s->query("SELECT count(*) FROM ${rt}_copy");
	is("$out$err", '0', "$what: the session goes on");
}

# 40 MB: more than the sockets hold, so that the COPY's sending blocks
my $load = "SELECT g, repeat('x', 200) FROM generate_series(1, 200000) g";

# --- COPY, statement_timeout ----------------------------------------------------
lock_row_1();
my ($took, $out, $err) = timed(
	"SET statement_timeout = '1s'; INSERT INTO ${rt}_copy $load", 10);
$s->query('RESET statement_timeout');
cmp_ok($took, '<', 5, 'COPY: statement_timeout interrupts a COPY the remote does not read');
like($err, qr/ERROR:  57014: canceling statement due to statement timeout/,
	'COPY: reported as a statement timeout');
unlike($err, qr/lost/, 'COPY: the connection was not lost');
is($s->query("SELECT valid FROM multi_fdw_get_connections()"), 't',
	'COPY: the same connection is still valid');
nothing_left('COPY');

# --- COPY, pg_cancel_backend with the remote backend stopped ------------------
lock_row_1();
my $stopped;
($took, $out, $err) = timed("INSERT INTO ${rt}_copy $load", 10, sub {
	$stopped = waiting_remote_pid();
	ok($stopped, 'the remote backend waits on the lock');
	kill 'STOP', $stopped if $stopped;
	gw_psql("SELECT pg_cancel_backend($gwpid)", dbname => $db);
}, sub { kill 'CONT', $stopped if $stopped; });
cmp_ok($took, '<', 6, 'COPY: a cancel interrupts a COPY to a stopped remote');
like($err, qr/ERROR:  57014: .*canceling statement due to user request/,
	'COPY: reported as a cancel');
ok(MfTest::wait_for(sub {
	remote_psql("SELECT count(*) FROM pg_stat_activity WHERE pid = $stopped") eq '0';
}, timeout => 15), 'the remote backend ends once it runs again');
nothing_left('COPY to a stopped remote');

# --- pipeline and values: statement_timeout says so -----------------------------
for my $m ('pipe', 'values')
{
	lock_row_1();
	($took, $out, $err) = timed(
		"SET statement_timeout = '1s'; INSERT INTO ${rt}_$m $load ON CONFLICT DO NOTHING",
		10);
	$s->query('RESET statement_timeout');
	cmp_ok($took, '<', 5, "$m: statement_timeout interrupts the wait on the lock");
	like($err, qr/ERROR:  57014: canceling statement due to statement timeout/,
		"$m: reported as a statement timeout");
	nothing_left($m);
}

# --- a remote backend terminated under INSERT ... ON CONFLICT ------------------
for my $m ('pipe', 'row')
{
	lock_row_1();
	($took, $out, $err) = timed(
		"INSERT INTO ${rt}_$m VALUES (1, 'a'), (2, 'b') ON CONFLICT DO NOTHING", 10,
		sub {
			my $pid = waiting_remote_pid();
			ok($pid, "$m: the remote backend waits on the lock");
			remote_psql("SELECT pg_terminate_backend($pid)") if $pid;
		});
	like($err,
		qr/ERROR:  (57P01|08006): connection to server "pg_remote" was lost: (FATAL:  )?terminating connection due to administrator command/,
		"$m: a terminated remote backend is a lost connection of the server");
	nothing_left($m);
}

$locker->quit;
$s->quit;
remote_psql("DROP TABLE IF EXISTS $rt");
done_testing();
