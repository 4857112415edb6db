# Over ODBC, a statement blocked in the driver (waiting on a remote row
# lock, or on a slow remote query) is cancelled by statement_timeout or
# pg_cancel_backend within seconds: the connection's watcher thread calls
# the driver's SQLCancel (psqlODBC sends the server a cancel request).  The
# local transaction rolls back, nothing of it is on the remote, and the
# connection is used again.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use Time::HiRes ();

my $db = setup_gateway_db('mf_tap_008');
my $rt = 't008_odbc_cancel';
my ($pg_user, $pg_pass) = (mf_env('MF_PG_USER'), mf_env('MF_PG_PASSWORD'));

remote_safe_psql(<<"SQL");
DROP VIEW IF EXISTS ${rt}_slow; DROP TABLE IF EXISTS $rt;
CREATE TABLE $rt (id int PRIMARY KEY, note text);
CREATE VIEW ${rt}_slow AS SELECT 1 AS id, pg_sleep(20)::text AS note;
SQL
gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER odbc_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg
  OPTIONS (user '$pg_user', password '$pg_pass');
CREATE FOREIGN TABLE $rt (id int, note text) SERVER odbc_pg OPTIONS (table_name '$rt');
CREATE FOREIGN TABLE ${rt}_slow (id int, note text)
  SERVER odbc_pg OPTIONS (table_name '${rt}_slow');
SQL

my $s = MfTest::Session->new(dbname => $db, timeout => 40);
$s->query('\set VERBOSITY verbose');
my $gwpid = $s->query('SELECT pg_backend_pid()');
my $locker = MfTest::Session->new(remote => 1, timeout => 40);

# send $sql, wait at most $limit s for its end, then let the lock go;
# returns (seconds taken, stdout, stderr)
sub timed
{
	my ($sql, $limit, $meanwhile) = @_;
	my $t0 = Time::HiRes::time();
	$s->send($sql);
	$meanwhile->() if $meanwhile;
	MfTest::wait_for(sub { $s->ready }, timeout => $limit);
	my $took = Time::HiRes::time() - $t0;
	$locker->query('ROLLBACK');
	my ($out, $err) = $s->result;
	note(sprintf("took %.1f s: %s", $took, $err));
	return ($took, $out, $err);
}

# --- an INSERT waiting on a row lock, statement_timeout --------------------------
my ($out, $err) = $locker->query("BEGIN; INSERT INTO $rt VALUES (1, 'locker')");
is($err, '', 'a remote session holds row 1');
my ($took);
($took, $out, $err) = timed(
	"SET statement_timeout = '1s'; BEGIN; INSERT INTO $rt VALUES (2, 'b'); "
	  . "INSERT INTO $rt VALUES (1, 'a')", 10);
cmp_ok($took, '<', 5, 'statement_timeout cancels an ODBC call waiting on a lock');
like($err, qr/ERROR:  57014: canceling statement due to statement timeout/,
	'reported as a statement timeout');
($out, $err) = $s->query('ROLLBACK; RESET statement_timeout');
is(scalar remote_psql("SELECT count(*) FROM $rt"), '0',
	'nothing of the rolled-back transaction is on the remote');
($out, $err) = $s->query("INSERT INTO $rt VALUES (3, 'c'); SELECT count(*) FROM $rt");
is("$out$err", '1', 'the connection is used again');

# --- a scan of a slow remote query, pg_cancel_backend -------------------------
$locker->query('BEGIN');    # timed() ends it
($took, $out, $err) = timed("SELECT * FROM ${rt}_slow", 10, sub {
	MfTest::wait_for(sub {
		remote_psql("SELECT count(*) FROM pg_stat_activity "
			  . "WHERE wait_event = 'PgSleep' AND usename = current_user") eq '1';
	}, timeout => 10);
	gw_psql("SELECT pg_cancel_backend($gwpid)", dbname => $db);
});
cmp_ok($took, '<', 5, 'a cancel stops an ODBC scan waiting on the remote');
like($err, qr/ERROR:  57014: canceling statement due to user request/,
	'reported as a cancel');
ok(MfTest::wait_for(sub {
	remote_psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'") eq '0';
}, timeout => 10), 'the remote query was cancelled too');
($out, $err) = $s->query("SELECT count(*) FROM $rt");
is("$out$err", '1', 'the connection is used again');

# --- MariaDB Connector/ODBC honours SQLCancel too ------------------------------
my ($my_user, $my_pass) = (mf_env('MF_MY_USER'), mf_env('MF_MY_PASSWORD'));
gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER odbc_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_my
  OPTIONS (user '$my_user', password '$my_pass');
SQL
$locker->query('BEGIN');
($took, $out, $err) = timed(
	"SET statement_timeout = '1s'; SELECT multi_fdw_exec('odbc_my', 'SELECT SLEEP(20)')", 10);
$s->query('RESET statement_timeout');
cmp_ok($took, '<', 5, 'MariaDB ODBC: statement_timeout stops a slow remote statement');
like($err, qr/ERROR:  57014: canceling statement due to statement timeout/,
	'MariaDB ODBC: reported as a statement timeout');
($out, $err) = $s->query("SELECT multi_fdw_exec('odbc_my', 'SELECT 1')");
is("$out$err", '1', 'MariaDB ODBC: the connection is used again');

$locker->quit;
$s->quit;
remote_psql("DROP VIEW IF EXISTS ${rt}_slow; DROP TABLE IF EXISTS $rt");
done_testing();
