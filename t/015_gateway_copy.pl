# A copy of the gateway (pg_basebackup, as a promoted standby or a restored
# staging copy would be made) shares the system identifier and every OID.
# It must not end the original's remote transactions: the original commits
# a transaction after the copy was made, left in doubt by a crash; the copy,
# started beside it, resolves and must leave it alone (it has no decision
# for it and would roll it back); the original then commits it.  The copy
# makes an identity of its own and its own two-phase commits work.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use File::Temp qw(tempdir);

my $db = setup_gateway_db('mf_tap_015');
remote_safe_psql('DROP TABLE IF EXISTS t015; CREATE TABLE t015 (id int PRIMARY KEY)');
gw_safe_psql(<<'SQL', dbname => $db);
ALTER SERVER pg_remote OPTIONS (ADD two_phase_commit 'on');
CREATE FOREIGN TABLE t_pg (id int) SERVER pg_remote OPTIONS (table_name 't015');
CREATE TABLE local_log (id int);
SQL

my $pgbin = mf_env('MF_PGBIN');
my $data  = mf_env('MF_TMP') . '/gw';
my $owner = scalar getpwuid((stat $data)[4]);
my @as    = $> == 0 ? ('runuser', '-u', $owner, '--') : ();

sub commit_two_phase
{
	my ($id, %opts) = @_;
	my $tail = $opts{tail} // '';
	my $sql = <<"SQL";
$tail
BEGIN;
INSERT INTO local_log VALUES ($id);
INSERT INTO t_pg VALUES ($id);
COMMIT;
SQL
	return $opts{port}
	  ? remote_psql($sql, port => $opts{port}, user => 'mfdw', dbname => $db,
		on_error_stop => 0)
	  : gw_psql($sql, dbname => $db, on_error_stop => 0);
}

sub prepared
{
	return remote_psql("SELECT count(*) FROM pg_prepared_xacts WHERE gid LIKE 'mf\\_%'");
}

# a first two-phase commit: the gateway has its identity before the copy
my ($rc, $out, $err) = commit_two_phase(1);
is($rc, 0, 'a two-phase commit before the copy') or diag $err;

# the copy
my $copy = tempdir('mf015.XXXX', DIR => mf_env('MF_TMP'), CLEANUP => 1);
system('chown', $owner, $copy) if $> == 0;
chmod 0700, $copy;
is(system(@as, "$pgbin/pg_basebackup", '-h', mf_env('MF_SOCKDIR'),
		'-p', mf_env('MF_GW_PORT'), '-U', 'mfdw', '-D', $copy, '-X', 'stream',
		'-c', 'fast'), 0, 'pg_basebackup copies the gateway');
ok(-f "$copy/pg_multi_fdw/identity", 'the copy has the identity file');

# after the copy, the original commits a transaction, left in doubt
($rc, $out, $err) = commit_two_phase(2,
	tail => "SET multi_fdw.two_phase_fault = 'crash_after_local_commit';");
like($err, qr/server closed the connection|terminated abnormally|connection to server was lost/,
	'the original dies after its local commit');
ok(wait_for(sub { (gw_psql('SELECT 1', dbname => $db))[0] == 0 }, timeout => 60),
	'the original is back');
is(prepared(), '1', 'its remote transaction is prepared, in doubt');

# the copy, started beside the original
my $cport = mf_env('MF_GW_PORT') + 50;
END
{
	system(@as, "$pgbin/pg_ctl", '-D', $copy, '-m', 'immediate', '-w', 'stop')
	  if defined $copy && -f "$copy/postmaster.pid";
}
# on the socket only: a TCP port of the original's range may be taken on
# a busy machine (an outgoing connection's local port)
is(system(@as, "$pgbin/pg_ctl", '-D', $copy, '-l', "$copy.log", '-w', '-t', '120',
		'-o', "-p $cport -k " . mf_env('MF_SOCKDIR')
		  . " -c listen_addresses='' -c shared_preload_libraries=''",
		'start'), 0, 'the copy starts') or diag slurp("$copy.log");
($rc, $out, $err) = remote_psql('SELECT server_name, action FROM multi_fdw_resolve()',
	port => $cport, user => 'mfdw', dbname => $db, on_error_stop => 0);
is($rc, 0, 'the copy resolves without error') or diag $err;
is($out, '', 'the copy ends nothing');
like($err, qr/this data directory is a copy of the gateway whose multi_fdw identity is/,
	'the copy says it is one');
is(prepared(), '1', "the original's transaction is still prepared");
is(remote_psql('SELECT count(*) FROM multi_fdw_in_doubt', port => $cport, user => 'mfdw',
		dbname => $db), '0', 'nothing is in doubt for the copy');

# the copy has an identity of its own, and commits with it
isnt(slurp("$copy/pg_multi_fdw/identity"), slurp("$data/pg_multi_fdw/identity"),
	'the copy made an identity of its own');
ok(-f glob("$copy/pg_multi_fdw/copied-*.identity"), "the original's identity is set aside");
($rc, $out, $err) = commit_two_phase(3, port => $cport);
is($rc, 0, 'a two-phase commit through the copy') or diag $err;

# the original commits its transaction
is(gw_psql("SELECT action FROM multi_fdw_resolve()", dbname => $db), 'committed',
	'the original commits its transaction');
is(prepared(), '0', 'nothing is left prepared');
is(remote_psql('SELECT string_agg(id::text, \',\' ORDER BY id) FROM t015'), '1,2,3',
	'every committed row arrived');

sub slurp
{
	my ($path) = @_;
	open my $fh, '<', $path or return '';
	local $/;
	my $text = <$fh>;
	close $fh;
	return $text;
}

done_testing();
