# The counters with multi_fdw in shared_preload_libraries: a second
# gateway cluster, started here with the preload, keeps them in shared
# memory (scope 'cluster'), so that one session sees what another did, and
# multi_fdw_progress shows a load while it runs.  The load is slowed by a
# remote statement trigger that sleeps.  A non-superuser sees another
# user's rows without their error texts or progress details, and may not
# reset.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $port = start_preloaded_gateway(17, 'gw_stats');

# everything below talks to the preloaded cluster
$ENV{MF_GW_PORT} = $port;
my $db = setup_gateway_db('mf_tap_014');

remote_safe_psql(<<'SQL');
DROP TABLE IF EXISTS t014;
CREATE TABLE t014 (id int PRIMARY KEY, v text);
CREATE OR REPLACE FUNCTION t014_nap() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN PERFORM pg_sleep(0.25); RETURN NULL; END $$;
CREATE TRIGGER t014_nap AFTER INSERT ON t014
  FOR EACH STATEMENT EXECUTE FUNCTION t014_nap();
SQL
gw_safe_psql(<<'SQL', dbname => $db);
CREATE FOREIGN TABLE t_slow (id int, v text) SERVER pg_remote
  OPTIONS (table_name 't014', insert_method 'values', batch_size '100');
CREATE ROLE mf_watcher LOGIN;
SQL

is(gw_safe_psql("SELECT count(*) FROM multi_fdw_stats", dbname => $db), '0',
	'no counters before any load');

# a load of 2,000 rows in 20 statements of 100, each held 0.25 s remotely
my $loader = MfTest::Session->new(dbname => $db);
my $pid = $loader->query('SELECT pg_backend_pid()');
$loader->send("INSERT INTO t_slow SELECT i, 'v' FROM generate_series(1, 2000) i");

my $seen = '';
ok(wait_for(sub {
		$seen = gw_psql(<<'SQL', dbname => $db);
SELECT pid, server, relation, operation, insert_method,
       rows_sent > 0 AND rows_sent < 2000, rows_sent % 100, rows_received,
       rows_per_second > 0, started <= now()
  FROM multi_fdw_progress
SQL
		$seen =~ /\|t\|0\|0\|t\|t$/ }, timeout => 30),
	'progress of the running load is seen from a second session')
  or diag("progress: $seen");
is($seen, "$pid|pg_remote|public.t_slow|insert|values|t|0|0|t|t",
	'progress row: backend, server, table, operation, insert method');

# a non-superuser sees that something runs, not what
my $other = gw_safe_psql('SELECT pid, user_name, server, relation, rows_sent'
	  . ' FROM multi_fdw_progress', dbname => $db, user => 'mf_watcher');
is($other, "$pid|mfdw|||", "another user's progress shows its backend only");

my ($out, $err) = $loader->result;
is($err, '', 'the slow load ends without error');
is(gw_safe_psql('SELECT count(*) FROM multi_fdw_progress', dbname => $db), '0',
	'its progress row goes with it');

# the counters are the cluster's: another session sees the load's figures
is(gw_safe_psql(<<'SQL', dbname => $db),
SELECT server, user_name, database, statements, rows_sent, batches,
       values_rows, errors, scope, remote_wait_time > 4000
  FROM multi_fdw_stats
SQL
	'pg_remote|mfdw|mf_tap_014|20|2000|20|2000|0|cluster|t',
	'the load counted in shared memory: 20 statements, 2,000 rows, waits of 20 x 0.25 s');

# a failing load counts its error, seen from elsewhere
$loader->query("INSERT INTO t_slow VALUES (1, 'secret 1')");
like($loader->last_stderr, qr/duplicate key/, 'the duplicate fails');
is(gw_safe_psql('SELECT errors, last_error FROM multi_fdw_stats',
		dbname => $db),
	'1|duplicate key value violates unique constraint "t014_pkey"',
	'the error is counted for the cluster');
is(gw_safe_psql('SELECT count(*) FROM multi_fdw_stats',
		dbname => $db, user => 'mf_watcher'),
	'0',
	"a non-superuser sees nothing of another user's servers and traffic (pg_stat_activity's rule)");
my ($rc, undef, $rerr) = gw_psql('SELECT multi_fdw_stats_reset()',
	dbname => $db, user => 'mf_watcher');
like($rerr, qr/permission denied for function multi_fdw_stats_reset/,
	'a non-superuser may not reset');
gw_safe_psql('GRANT pg_read_all_stats TO mf_watcher', dbname => $db);
is(gw_safe_psql('SELECT last_error FROM multi_fdw_stats',
		dbname => $db, user => 'mf_watcher'),
	'duplicate key value violates unique constraint "t014_pkey"',
	'pg_read_all_stats reads every error');

# reset, from another backend than the one that counted
gw_safe_psql("SELECT multi_fdw_stats_reset('pg_remote')", dbname => $db);
is(gw_safe_psql('SELECT statements, rows_sent, errors, last_error IS NULL'
	  . ' FROM multi_fdw_stats', dbname => $db),
	'0|0|0|t', 'reset clears the shared figures');
$loader->query("INSERT INTO t_slow SELECT i, 'w' FROM generate_series(3001, 3150) i");
is(gw_safe_psql('SELECT statements, rows_sent, batches FROM multi_fdw_stats',
		dbname => $db),
	'2|150|2', 'counting goes on after the reset');

$loader->quit;
remote_safe_psql('DROP TABLE t014; DROP FUNCTION t014_nap()');
done_testing();
