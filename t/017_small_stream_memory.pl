# A scan the planner expects to be small is read without a cursor: its rows
# stay on the wire until fetched.  When the same connection is needed in
# the middle of it (here a subquery on another table of the same server,
# run at the first row), the rest of the rows must be read at once.  They
# are kept in a tuplestore (work_mem, then a temporary file), so the
# backend's memory stays bounded however wrong the estimate: 300,000 rows
# of about 205 bytes held in the client library's memory would raise the
# backend's peak resident size by 60 MB and more.  The answer is checked
# too.  For the postgres and the mysql transports.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_016');
my $my = setup_mysql_server($db, server => 'my_remote');
my $rows = 300_000;

# small when ANALYZEd, big when read
remote_safe_psql(<<"SQL");
DROP TABLE IF EXISTS t016_big, t016_other;
CREATE TABLE t016_big (id int, pad text);
CREATE TABLE t016_other (id int);
INSERT INTO t016_big SELECT g, repeat('x', 200) FROM generate_series(1, 10) g;
INSERT INTO t016_other VALUES (1), (2), (3);
SQL
mariadb_safe(<<"SQL");
DROP TABLE IF EXISTS t016_big, t016_other;
CREATE TABLE t016_big (id int, pad varchar(250));
CREATE TABLE t016_other (id int);
INSERT INTO t016_big SELECT seq, repeat('x', 200) FROM seq_1_to_10;
INSERT INTO t016_other VALUES (1), (2), (3);
SQL
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE pg_big (id int, pad text)
  SERVER pg_remote OPTIONS (table_name 't016_big', fetch_size '100');
CREATE FOREIGN TABLE pg_other (id int)
  SERVER pg_remote OPTIONS (table_name 't016_other');
CREATE FOREIGN TABLE my_big (id int, pad text)
  SERVER $my OPTIONS (table_name 't016_big', fetch_size '100');
CREATE FOREIGN TABLE my_other (id int)
  SERVER $my OPTIONS (table_name 't016_other');
ANALYZE pg_big; ANALYZE pg_other; ANALYZE my_big; ANALYZE my_other;
SQL
remote_safe_psql(
	"INSERT INTO t016_big SELECT g, repeat('x', 200) FROM generate_series(11, $rows) g");
mariadb_safe(
	"INSERT INTO t016_big SELECT seq, repeat('x', 200) FROM seq_11_to_$rows");

# the peak resident memory of a backend, in kB
sub peak_kb
{
	my ($pid) = @_;
	open(my $fh, '<', "/proc/$pid/status") or die "/proc/$pid/status: $!";
	while (<$fh>)
	{
		return $1 if /^VmHWM:\s+(\d+)\s+kB/;
	}
	die "no VmHWM for $pid";
}

my $expect_sum = $rows * ($rows + 1) / 2 + 6;
for my $t (['pg', 'pg_big', 'pg_other'], ['mysql', 'my_big', 'my_other'])
{
	my ($name, $big, $other) = @$t;
	my $s = MfTest::Session->new(dbname => $db);
	my $pid = $s->query('SELECT pg_backend_pid()');
	# the connection is open and warm before the baseline
	my ($out, $err) = $s->query("SELECT count(*) FROM $other");
	is($out, '3', "$name: the other table");

	my $plan = $s->query(
		"EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(b.id + CASE WHEN b.id = 1 "
		  . "THEN (SELECT sum(id) FROM $other) ELSE 0 END), count(*) FROM $big b");
	like($plan, qr/InitPlan/, "$name: the other table is read in the middle of the scan");

	my $before = peak_kb($pid);
	($out, $err) = $s->query(
		"SELECT sum(b.id + CASE WHEN b.id = 1 THEN (SELECT sum(id) FROM $other) "
		  . "ELSE 0 END), count(*), sum(length(b.pad)) FROM $big b");
	is($err, '', "$name: the scan and the other query share the connection");
	is($out, "$expect_sum|$rows|" . (200 * $rows), "$name: every row, once");
	my $grew = peak_kb($pid) - $before;
	note("$name: peak resident memory grew by $grew kB");
	cmp_ok($grew, '<', 30_000,
		"$name: the rows read ahead are not held in memory (grew $grew kB)");
	$s->quit;
}

remote_psql('DROP TABLE IF EXISTS t016_big, t016_other');
mariadb_sql('DROP TABLE IF EXISTS t016_big, t016_other');
done_testing();
