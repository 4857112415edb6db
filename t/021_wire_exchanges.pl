# The exchange counts of pg_exchanges and mysql_exchanges (round_trips of
# multi_fdw_stats) are counted by the code itself; here they are checked
# once against the wire.  The gateway reaches the remote PostgreSQL and
# MariaDB through bench/delayproxy.c (built here with cc, no delay), which
# counts request/answer turns per connection: a burst of bytes from the
# client followed by a burst from the server.  For the short transaction
# (BEGIN; SELECT; UPDATE; INSERT; COMMIT through foreign tables), once the
# connection is made and its statements prepared, the turns the proxy saw
# must be the round trips the counters say.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use File::Temp ();
use IO::Socket::INET ();
use IPC::Run ();

my $dir = File::Temp::tempdir(CLEANUP => 1);
my $proxy = "$dir/delayproxy";
my ($out, $err) = ('', '');
# a C compiler is part of the test bed (t/testbed/install-deps): no skip
IPC::Run::run([ 'cc', '-O2', '-Wall', '-o', $proxy, 'bench/delayproxy.c' ],
	'>', \$out, '2>', \$err)
  or BAIL_OUT("could not build bench/delayproxy.c: $err");

my $base = mf_env('MF_GW_PORT');
my ($sport, $pg_port, $my_port) = ($base + 60, $base + 61, $base + 62);
my $p = IPC::Run::start([ $proxy, '-d', '0', '-s', $sport,
		"$pg_port:127.0.0.1:" . mf_env('MF_PG_PORT'),
		"$my_port:127.0.0.1:" . mf_env('MF_MY_PORT') ],
	'>', \my $pout, '2>', \my $perr);
END { $p->kill_kill if $p; }

# the turns the proxy counted so far on a listening port
sub turns
{
	my ($port) = @_;
	my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $sport,
		Timeout => 5) or return undef;
	local $/;
	my $lines = <$sock>;
	close $sock;
	return $lines =~ /^$port connections=\d+ open=\d+ turns=(\d+)/m ? $1 : undef;
}
ok(wait_for(sub { defined turns($pg_port) }, timeout => 10), 'the proxy answers');

my $db = setup_gateway_db('mf_tap_020', port => $pg_port);
my ($mh, $mdb, $mu, $mp) = map { mf_env($_) } qw(MF_MY_HOST MF_MY_DB MF_MY_USER MF_MY_PASSWORD);
remote_safe_psql(<<'SQL');
DROP TABLE IF EXISTS t020_acct, t020_hist;
CREATE TABLE t020_acct (id int PRIMARY KEY, bal bigint NOT NULL);
INSERT INTO t020_acct SELECT g, 0 FROM generate_series(1, 10) g;
CREATE TABLE t020_hist (acct int, delta int);
SQL
mariadb_safe(<<'SQL');
DROP TABLE IF EXISTS t020_acct, t020_hist;
CREATE TABLE t020_acct (id int PRIMARY KEY, bal bigint NOT NULL) ENGINE=InnoDB;
INSERT INTO t020_acct SELECT seq, 0 FROM seq_1_to_10;
CREATE TABLE t020_hist (id int AUTO_INCREMENT PRIMARY KEY, acct int, delta int) ENGINE=InnoDB;
SQL
gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER my_proxied FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host '$mh', port '$my_port', database '$mdb');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_proxied
  OPTIONS (user '$mu', password '$mp');
CREATE FOREIGN TABLE pg_acct (id int, bal bigint)
  SERVER pg_remote OPTIONS (table_name 't020_acct');
CREATE FOREIGN TABLE pg_hist (acct int, delta int)
  SERVER pg_remote OPTIONS (table_name 't020_hist');
CREATE FOREIGN TABLE my_acct (id int OPTIONS (key 'true'), bal bigint)
  SERVER my_proxied OPTIONS (table_name 't020_acct');
CREATE FOREIGN TABLE my_hist (acct int, delta int)
  SERVER my_proxied OPTIONS (table_name 't020_hist');
SQL

my $s = MfTest::Session->new(dbname => $db);
for my $case ([ 'pg_remote', 'pg', $pg_port ], [ 'my_proxied', 'my', $my_port ])
{
	my ($srv, $t, $port) = @$case;
	my $xact = sub {
		my ($id) = @_;
		return "BEGIN;\nSELECT bal FROM ${t}_acct WHERE id = $id;\n"
		  . "UPDATE ${t}_acct SET bal = bal + 10 WHERE id = $id;\n"
		  . "INSERT INTO ${t}_hist (acct, delta) VALUES ($id, 10);\nCOMMIT;";
	};
	# the first run connects and prepares
	(undef, $err) = $s->query($xact->(1));
	is($err, '', "$srv: the first short transaction runs");
	$s->query("SELECT multi_fdw_stats_reset('$srv')");
	my $before = turns($port);
	(undef, $err) = $s->query($xact->(2));
	is($err, '', "$srv: the counted short transaction runs");
	my $after = turns($port);
	my $counted = $s->query(
		"SELECT round_trips FROM multi_fdw_stats WHERE server = '$srv'");
	note("$srv: counters say $counted round trips, the wire $before -> $after");
	cmp_ok($counted, '>', 0, "$srv: the counters saw round trips");
	is($after - $before, $counted,
		"$srv: the proxy's turns are the counters' round trips");
	$s->query("SELECT multi_fdw_disconnect('$srv')");
}
is(scalar remote_psql('SELECT bal FROM t020_acct WHERE id = 2'), '10',
	'the transactions were committed (PostgreSQL)');
is(mariadb_safe('SELECT bal FROM t020_acct WHERE id = 2'), '10',
	'the transactions were committed (MariaDB)');

$s->quit;
remote_psql('DROP TABLE t020_acct, t020_hist');
mariadb_sql('DROP TABLE t020_acct, t020_hist');
done_testing();
