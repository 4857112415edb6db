# The resolver worker: with multi_fdw in shared_preload_libraries, what a
# crash of the gateway left in doubt is resolved without anyone calling
# multi_fdw_resolve().  The gateway is restarted with the library preloaded
# for this test, and restarted again without it at the end.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_012');
my $my = setup_mysql_server($db);

remote_safe_psql('DROP TABLE IF EXISTS t012; CREATE TABLE t012 (id int PRIMARY KEY)');
mariadb_safe('DROP TABLE IF EXISTS t012; CREATE TABLE t012 (id int PRIMARY KEY) ENGINE=InnoDB');
gw_safe_psql(<<"SQL", dbname => $db);
ALTER SERVER pg_remote OPTIONS (ADD two_phase_commit 'on');
ALTER SERVER $my OPTIONS (ADD two_phase_commit 'on');
CREATE FOREIGN TABLE t_pg (id int) SERVER pg_remote OPTIONS (table_name 't012');
CREATE FOREIGN TABLE t_my (id int) SERVER $my OPTIONS (table_name 't012');
SQL



sub checkpointer_start
{
	return scalar gw_psql("SELECT backend_start FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
		dbname => $db);
}

gw_safe_psql(<<"SQL", dbname => 'postgres');
LOAD 'multi_fdw';
ALTER SYSTEM SET shared_preload_libraries = 'multi_fdw';
ALTER SYSTEM SET multi_fdw.resolver_database = '$db';
ALTER SYSTEM SET multi_fdw.resolver_naptime = 1;
SQL
END
{
	gw_psql(<<'SQL', dbname => 'postgres');
LOAD 'multi_fdw';
ALTER SYSTEM RESET shared_preload_libraries;
ALTER SYSTEM RESET multi_fdw.resolver_database;
ALTER SYSTEM RESET multi_fdw.resolver_naptime;
SQL
	restart_gateway();
}
ok(restart_gateway(), 'the gateway restarts with multi_fdw preloaded');
ok(wait_for(sub {
		gw_psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'multi_fdw resolver'",
			dbname => $db) eq '1' }, timeout => 30),
	'the resolver worker runs');

for my $case (['crash_after_local_commit', 1, '10/10', 'committed'],
	['crash_before_local_commit', 11, '10/10', 'rolled back'])
{
	my ($fault, $from, $want, $what) = @$case;
	my $to = $from + 9;
	# the worker looks elsewhere while the crash happens, so that what the
	# crash leaves in doubt can be seen before it is resolved
	gw_safe_psql("ALTER SYSTEM SET multi_fdw.resolver_database = 'postgres'; SELECT pg_reload_conf()",
		dbname => 'postgres');
	ok(wait_for(sub {
			gw_psql("SELECT datname FROM pg_stat_activity WHERE backend_type = 'multi_fdw resolver'",
				dbname => $db) eq 'postgres' }, timeout => 60),
		"$fault: the worker restarts in another database after a reload");
	my $start = checkpointer_start();
	my ($rc, $out, $err) = gw_psql(<<"SQL", dbname => $db);
SET multi_fdw.two_phase_fault = '$fault';
BEGIN;
INSERT INTO t_pg SELECT g FROM generate_series($from, $to) g;
INSERT INTO t_my SELECT g FROM generate_series($from, $to) g;
COMMIT;
SQL
	isnt($rc, 0, "$fault: the backend dies");
	ok(wait_for(sub { my $s = checkpointer_start(); $s ne '' && $s ne $start }, timeout => 60),
		"$fault: the gateway is back");
	is(prepared_left(), '1/1', "$fault: both remote transactions were left prepared");
	my $decision = $what eq 'committed' ? 'commit' : 'rollback';
	is(gw_psql("SELECT string_agg(decision, ',') FROM multi_fdw_in_doubt", dbname => $db),
		"$decision,$decision", "$fault: both are in doubt, to $decision");
	gw_safe_psql("ALTER SYSTEM SET multi_fdw.resolver_database = '$db'; SELECT pg_reload_conf()",
		dbname => 'postgres');
	# the worker comes back bgw_restart_time (10 s) after the crash, then
	# naps; a loaded machine (CI's last steps) takes longer still
	ok(wait_for(sub { prepared_left() eq '0/0' }, timeout => 120),
		"$fault: the worker resolves both without being asked");
	is(remote_counts('t012'), $want, "$fault: both remotes $what");
}

# One server whose options no longer load (a value the validator would
# refuse, as a catalog edited by hand or a build without the server's
# transport leaves it) stops nothing but itself: the listings still show
# every server, the resolver still ends the other servers' transactions,
# with a WARNING naming the broken one, and the worker keeps running.
{
	my $log = mf_env('MF_TMP') . '/gw.log';
	my $log_from = -s $log;
	gw_safe_psql("ALTER SYSTEM SET multi_fdw.resolver_database = 'postgres'; SELECT pg_reload_conf()",
		dbname => 'postgres');
	ok(wait_for(sub {
			gw_psql("SELECT datname FROM pg_stat_activity WHERE backend_type = 'multi_fdw resolver'",
				dbname => $db) eq 'postgres' }, timeout => 60),
		'broken server: the worker looks elsewhere');
	my $start = checkpointer_start();
	my ($rc) = gw_psql(<<"SQL", dbname => $db);
SET multi_fdw.two_phase_fault = 'crash_after_local_commit';
BEGIN;
INSERT INTO t_pg SELECT g FROM generate_series(21, 30) g;
INSERT INTO t_my SELECT g FROM generate_series(21, 30) g;
COMMIT;
SQL
	isnt($rc, 0, 'broken server: the backend dies');
	ok(wait_for(sub { my $s = checkpointer_start(); $s ne '' && $s ne $start }, timeout => 60),
		'broken server: the gateway is back');
	is(prepared_left(), '1/1', 'broken server: both remote transactions were left prepared');
	# counted since the restart, so that multi_fdw_stats has both servers
	is(gw_psql('SELECT (SELECT count(*) FROM t_pg) || \'/\' || (SELECT count(*) FROM t_my)',
			dbname => $db), '10/10', 'broken server: both servers read before it breaks');
	gw_safe_psql(<<"SQL", dbname => $db);
UPDATE pg_foreign_server
  SET srvoptions = array_replace(srvoptions, 'dialect=mysql', 'dialect=nonsense')
  WHERE srvname = '$my';
SQL
	is(gw_psql("SELECT string_agg(server_name || ':' || decision, ',' ORDER BY server_name) FROM multi_fdw_in_doubt",
			dbname => $db),
		"$my:commit,pg_remote:commit", 'broken server: multi_fdw_in_doubt lists both servers');
	is(gw_psql("SELECT string_agg(DISTINCT server, ',' ORDER BY server) FROM multi_fdw_stats WHERE database = current_database()",
			dbname => $db),
		"$my,pg_remote", 'broken server: multi_fdw_stats lists both servers');
	my $s = MfTest::Session->new(dbname => $db);
	my ($out, $err) = $s->query("SELECT count(*) FROM t_my");
	like($err, qr/unknown dialect "nonsense"/, 'broken server: its own tables say why they cannot be read');
	($out, $err) = $s->query("SELECT count(*) FROM t_pg");
	is($out, '10', 'broken server: the other server is read');
	is($s->query('SELECT string_agg(server_name, \',\') FROM multi_fdw_get_connections()'),
		'pg_remote', 'broken server: multi_fdw_get_connections lists the other server');
	$s->quit;

	gw_safe_psql("ALTER SYSTEM SET multi_fdw.resolver_database = '$db'; SELECT pg_reload_conf()",
		dbname => 'postgres');
	my $worker = sub {
		return scalar gw_psql("SELECT pid FROM pg_stat_activity WHERE backend_type = 'multi_fdw resolver' AND datname = '$db'",
			dbname => $db);
	};
	my $pid = '';
	ok(wait_for(sub { $pid = $worker->(); $pid ne '' }, timeout => 120),
		'broken server: the worker comes to this database');
	ok(wait_for(sub { prepared_left() eq '0/1' }, timeout => 60),
		'broken server: the worker resolves the other server\'s transaction');
	# a few passes more (naptime 1 s): the same process every time
	my $same = 1;
	for (1 .. 8)
	{
		select(undef, undef, undef, 0.5);
		$same = 0 if $worker->() ne $pid;
	}
	my $text = '';
	if (open(my $fh, '<', $log))
	{
		seek($fh, $log_from, 0);
		local $/;
		$text = <$fh>;
		close $fh;
	}
	ok($pid ne '' && $same && $text !~ /background worker "multi_fdw resolver" \(PID $pid\) exited/,
		'broken server: the worker keeps running')
	  or diag(join('', grep { /WARNING|exited/ } split(/^/m, $text)));
	ok($text =~ /WARNING:.*on server "$my".*unknown dialect "nonsense"/,
		'broken server: the worker\'s WARNING names the broken server');

	($rc, $out, $err) = gw_psql("SELECT server_name || ':' || action FROM multi_fdw_resolve()",
		dbname => $db);
	like($out, qr/^$my:failed: unknown dialect "nonsense"$/, 'broken server: multi_fdw_resolve() says it failed');
	like($err, qr/WARNING:.*on server "$my"/, 'broken server: multi_fdw_resolve() warns naming it');

	gw_safe_psql(<<"SQL", dbname => $db);
UPDATE pg_foreign_server
  SET srvoptions = array_replace(srvoptions, 'dialect=nonsense', 'dialect=mysql')
  WHERE srvname = '$my';
SQL
	ok(wait_for(sub { prepared_left() eq '0/0' }, timeout => 60),
		'broken server: mended, its transaction is resolved too');
	is(remote_counts('t012'), '20/20', 'broken server: both remotes committed');
}

done_testing();
