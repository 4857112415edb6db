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

my $data = mf_env('MF_TMP') . '/gw';
my @as = $> == 0 ? ('runuser', '-u', scalar getpwuid((stat $data)[4]), '--') : ();

sub restart_gateway
{
	my @cmd = (@as, 'env', '-i', 'PATH=' . mf_env('MF_PGBIN') . ':/usr/bin:/bin',
		'HOME=' . mf_env('MF_TMP'), 'LANG=C.UTF-8',
		'ODBCSYSINI=' . ($ENV{ODBCSYSINI} // ''), 'ODBCINI=' . ($ENV{ODBCINI} // ''),
		mf_env('MF_PGBIN') . '/pg_ctl', '-D', $data, '-l', mf_env('MF_TMP') . '/gw.log',
		'-m', 'fast', '-w', '-t', '60', 'restart');
	return system(@cmd) == 0;
}

sub counts
{
	return remote_psql('SELECT count(*) FROM t012') . '/'
	  . mariadb_safe('SELECT count(*) FROM t012');
}

sub prepared
{
	my $pg = remote_psql('SELECT count(*) FROM pg_prepared_xacts');
	my $xa = () = mariadb_safe('XA RECOVER') =~ /mf_/g;
	return "$pg/$xa";
}

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
	is(prepared(), '1/1', "$fault: both remote transactions were left prepared");
	my $decision = $what eq 'committed' ? 'commit' : 'rollback';
	is(gw_psql("SELECT string_agg(decision, ',') FROM multi_fdw_in_doubt", dbname => $db),
		"$decision,$decision", "$fault: both are in doubt, to $decision");
	gw_safe_psql("ALTER SYSTEM SET multi_fdw.resolver_database = '$db'; SELECT pg_reload_conf()",
		dbname => 'postgres');
	# the worker comes back bgw_restart_time (10 s) after the crash, then
	# naps; a loaded machine (CI's last steps) takes longer still
	ok(wait_for(sub { prepared() eq '0/0' }, timeout => 120),
		"$fault: the worker resolves both without being asked");
	is(counts(), $want, "$fault: both remotes $what");
}

done_testing();
