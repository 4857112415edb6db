# A scan the planner expects to be small is read without a cursor: its rows
# stay on the wire until fetched.  When the same connection is needed in
# the middle of it (here a subquery on another table of the same server,
# run at the first row), the rest of the rows must be read at once.  They
# are kept in a tuplestore (work_mem, then a temporary file), so the
# backend's memory stays bounded however wrong the estimate: 300,000 rows
# of about 205 bytes held in the client library's memory would raise the
# backend's peak resident size by 60 MB and more.  The answer is checked
# too.  For the postgres and the mysql transports.
#
# The same holds where no scan is left to take the rows: a scan rescanned
# (a branch of an Append under a subquery) or a subtransaction rolled back
# while its rows are still on the wire, a result closed (a nested loop's
# outer cursor at a LIMIT, the end of a dependent join's key list) while
# another scan's rows are, and the key-list stream of a dependent join
# itself.  And multi_fdw_query, whose rows go into its tuplestore as they
# come.  Each is run at 30,000 rows
# and again at 300,000: the backend's memory must not grow with the rows.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_016');
my $my = setup_mysql_server($db, server => 'my_remote');
my $small = 30_000;
my $rows = 300_000;

# small when ANALYZEd, big when read
remote_safe_psql(<<"SQL");
DROP TABLE IF EXISTS t016_big, t016_other, t016_many, t016_fat;
CREATE TABLE t016_big (id int, pad text);
CREATE TABLE t016_other (id int);
CREATE TABLE t016_many (id int);
CREATE TABLE t016_fat (id int, k int, pad text);
INSERT INTO t016_big SELECT g, repeat('x', 200) FROM generate_series(1, 10) g;
INSERT INTO t016_other VALUES (1), (2), (3);
INSERT INTO t016_many SELECT g FROM generate_series(1, 1000) g;
INSERT INTO t016_fat SELECT g, g % 3 + 1, repeat('y', 200) FROM generate_series(1, 10) g;
SQL
mariadb_safe(<<"SQL");
DROP TABLE IF EXISTS t016_big, t016_other, t016_many, t016_fat;
CREATE TABLE t016_big (id int, pad varchar(250));
CREATE TABLE t016_other (id int);
CREATE TABLE t016_many (id int);
CREATE TABLE t016_fat (id int, k int, pad varchar(250), KEY (k));
INSERT INTO t016_big SELECT seq, repeat('x', 200) FROM seq_1_to_10;
INSERT INTO t016_other VALUES (1), (2), (3);
INSERT INTO t016_many SELECT seq FROM seq_1_to_1000;
INSERT INTO t016_fat SELECT seq, seq % 3 + 1, repeat('y', 200) FROM seq_1_to_10;
SQL
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE pg_big (id int, pad text)
  SERVER pg_remote OPTIONS (table_name 't016_big', fetch_size '100');
CREATE FOREIGN TABLE pg_other (id int)
  SERVER pg_remote OPTIONS (table_name 't016_other');
CREATE FOREIGN TABLE pg_many (id int)
  SERVER pg_remote OPTIONS (table_name 't016_many', fetch_size '100');
CREATE FOREIGN TABLE pg_fat (id int, k int, pad text)
  SERVER pg_remote OPTIONS (table_name 't016_fat', fetch_size '100');
CREATE FOREIGN TABLE my_big (id int, pad text)
  SERVER $my OPTIONS (table_name 't016_big', fetch_size '100');
CREATE FOREIGN TABLE my_other (id int)
  SERVER $my OPTIONS (table_name 't016_other');
CREATE FOREIGN TABLE my_many (id int)
  SERVER $my OPTIONS (table_name 't016_many', fetch_size '100');
CREATE FOREIGN TABLE my_fat (id int, k int, pad text)
  SERVER $my OPTIONS (table_name 't016_fat', fetch_size '100');
CREATE TABLE keys3 (k int);
INSERT INTO keys3 VALUES (1), (2), (3);
-- reads a few rows of t, then fails in a subtransaction: the rows left
-- on the wire are its own
CREATE FUNCTION subx_read(t regclass) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE
  r record;
  n int := 0;
BEGIN
  BEGIN
    FOR r IN EXECUTE format('SELECT id, pad FROM %s', t) LOOP
      n := n + 1;
      IF n = 5 THEN
        RAISE EXCEPTION 'enough';
      END IF;
    END LOOP;
  EXCEPTION WHEN raise_exception THEN
    RETURN n;
  END;
  RETURN -1;
END \$\$;
ANALYZE pg_big; ANALYZE pg_other; ANALYZE pg_many; ANALYZE pg_fat;
ANALYZE my_big; ANALYZE my_other; ANALYZE my_many; ANALYZE my_fat;
ANALYZE keys3;
SQL

# grow the tables to n rows, behind the planner's back
sub grow
{
	my ($from, $n) = @_;
	remote_safe_psql(
		"INSERT INTO t016_big SELECT g, repeat('x', 200) FROM generate_series($from, $n) g;\n"
		  . "INSERT INTO t016_fat SELECT g, g % 3 + 1, repeat('y', 200) FROM generate_series($from, $n) g;"
	);
	mariadb_safe(
		"INSERT INTO t016_big SELECT seq, repeat('x', 200) FROM seq_${from}_to_$n;\n"
		  . "INSERT INTO t016_fat SELECT seq, seq % 3 + 1, repeat('y', 200) FROM seq_${from}_to_$n;"
	);
}

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

# Run $sql in a fresh session whose connections to both servers are open
# and warm (and $setup run) before the baseline: (output, error, growth of
# the peak resident memory in kB).
sub measure
{
	my ($sql, $setup) = @_;
	my $s = MfTest::Session->new(dbname => $db);
	my $pid = $s->query('SELECT pg_backend_pid()');
	$s->query('SELECT count(*) FROM pg_other; SELECT count(*) FROM my_other');
	$s->query($setup) if defined $setup;
	my $before = peak_kb($pid);
	my ($out, $err) = $s->query($sql);
	my $grew = peak_kb($pid) - $before;
	$s->quit;
	return ($out, $err, $grew);
}

# the cases run at both sizes: name => [setup, query, expected answer,
# what EXPLAIN must show]; the subject is the plans whose scans share a
# connection, so none goes whole to the remote
my $no_joins = 'SET enable_hashjoin = off; SET enable_mergejoin = off; '
  . 'SET multi_fdw.whole_queries = off;';
my %cases;
for my $t (['pg', 'pg'], ['mysql', 'my'])
{
	my ($name, $p) = @$t;

	# a nested loop's inner scan rescanned while an Append's second branch
	# still streams: the branch's rows have no reader any more
	$cases{"$name: a rescan while rows are on the wire"} = [
		undef,
		"SELECT count(*), sum(m) FROM (SELECT o.id, (SELECT max(l) FROM "
		  . "(SELECT length(pad) l FROM (SELECT id, pad FROM ${p}_big WHERE id = 1 "
		  . "UNION ALL SELECT id, pad FROM ${p}_big) u LIMIT o.id + 1) s) m "
		  . "FROM ${p}_many o WHERE o.id <= 3) q",
		'3|600', qr/Append/];

	# the outer cursor of a nested loop closed at a LIMIT while the inner
	# scan still streams
	$cases{"$name: a cursor closed while rows are on the wire"} = [
		"$no_joins SET enable_material = off;",
		"SELECT o.id < b.id, length(b.pad) FROM (SELECT * FROM ${p}_many OFFSET 0) o "
		  . "LEFT JOIN (SELECT * FROM ${p}_big OFFSET 0) b ON o.id < b.id LIMIT 1",
		't|200', qr/Nested Loop Left Join/];

	# a dependent join's key list read to its end and closed while a
	# subquery's scan of the same server still streams
	$cases{"$name: a key list closed while rows are on the wire"} = [
		"$no_joins SET enable_nestloop = off;",
		"SELECT count(*), sum(l) FROM (SELECT x.k, (SELECT length(b.pad) FROM ${p}_big b "
		  . "WHERE b.id >= x.k AND random() >= 0 LIMIT 1) l "
		  . "FROM keys3 x JOIN ${p}_many f ON f.id = x.k) q",
		'3|600', qr/dependent join/];

	# a subtransaction rolled back while the rows of its scan are on the
	# wire: the ROLLBACK TO must not wait for them in memory (nor, with a
	# savepoint in front of the query, spin for ever)
	$cases{"$name: a subtransaction rolled back while rows are on the wire"} = [
		undef,
		"SELECT subx_read('${p}_big'); SELECT count(*) FROM ${p}_other",
		"5\n3", undef];

	# multi_fdw_query's rows go into its tuplestore as they come
	my $server = $p eq 'pg' ? 'pg_remote' : $my;
	$cases{"$name: multi_fdw_query streams its rows"} = [
		undef,
		"SELECT count(*), sum(length(pad)), 6 FROM multi_fdw_query('$server', "
		  . "'SELECT id, pad FROM " . ($p eq 'pg' ? 'public.' : '')
		  . "t016_big') AS t(id int, pad text)",
		undef, undef];

	# the key list's own rows are read ahead when a subquery on the same
	# server runs at its first row
	$cases{"$name: a key list read ahead for another scan"} = [
		"$no_joins SET enable_nestloop = off;",
		"SELECT count(*), sum(length(f.pad)), sum(CASE WHEN f.id = 1 THEN "
		  . "(SELECT sum(id) FROM ${p}_other) ELSE 0 END) "
		  . "FROM keys3 x JOIN ${p}_fat f ON f.k = x.k",
		undef, qr/dependent join/];
}

sub run_cases
{
	my ($n) = @_;
	my %grew;
	for my $case (sort keys %cases)
	{
		my ($setup, $sql, $expect, $plan) = @{ $cases{$case} };
		$expect //= "$n|" . (200 * $n) . '|6';
		my ($out, $err, $grew);
		if (defined $plan)
		{
			($out) = measure("EXPLAIN (COSTS OFF) $sql", $setup);
			like($out, $plan, "$case: the plan");
		}
		($out, $err, $grew) = measure($sql, $setup);
		is($err, '', "$case, $n rows: no error");
		is($out, $expect, "$case, $n rows: the answer");
		note("$case, $n rows: peak resident memory grew by $grew kB");
		$grew{$case} = $grew;
	}
	return \%grew;
}

grow(11, $small);
my $at_small = run_cases($small);
grow($small + 1, $rows);
my $at_rows = run_cases($rows);
for my $case (sort keys %cases)
{
	my $more = $at_rows->{$case} - $at_small->{$case};
	cmp_ok($more, '<', 10_000,
		"$case: memory does not grow with the rows ($at_small->{$case} kB at $small rows, "
		  . "$at_rows->{$case} kB at $rows)");
	cmp_ok($at_rows->{$case}, '<', 30_000,
		"$case: the rows are not held in memory ($at_rows->{$case} kB at $rows rows)");
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

remote_psql('DROP TABLE IF EXISTS t016_big, t016_other, t016_many, t016_fat');
mariadb_sql('DROP TABLE IF EXISTS t016_big, t016_other, t016_many, t016_fat');
done_testing();
