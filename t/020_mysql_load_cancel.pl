# A LOAD DATA LOCAL INFILE load (insert method copy on the mysql
# transport) is cancelled in seconds, wherever the cancel finds it:
#   - statement_timeout while MariaDB waits on a row lock held by another
#     session (the gateway waits on the server: KILL QUERY);
#   - pg_cancel_backend while the rows flow;
#   - a cancel that lands in the gateway's own executor (a lock of the
#     gateway's) while a LOAD DATA sent before waits on the server's row
#     lock: the abort must not wait for that LOAD DATA's end.
# Each time: SQLSTATE 57014 with PostgreSQL's words for the cause, nothing
# of the load in MariaDB, the same backend (no crash) and the same
# connection goes on with the next statement.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use Time::HiRes ();

my $db = setup_gateway_db('mf_tap_019');
my $srv = setup_mysql_server($db);
my $rt = 't019_load';

mariadb_safe("SET GLOBAL local_infile = 1; DROP TABLE IF EXISTS $rt; "
	  . "CREATE TABLE $rt (id int PRIMARY KEY, pad varchar(120)) ENGINE=InnoDB");
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE ${rt}_copy (id int, pad text)
  SERVER $srv OPTIONS (table_name '$rt', insert_method 'copy');
CREATE FOREIGN TABLE ${rt}_values (id int, pad text)
  SERVER $srv OPTIONS (table_name '$rt', insert_method 'values');
CREATE FUNCTION pause_at(g int, at int) RETURNS boolean LANGUAGE plpgsql AS \$\$
BEGIN
  IF g = at THEN
    PERFORM pg_advisory_xact_lock(3019);
  END IF;
  RETURN true;
END \$\$;
SQL

my $s = MfTest::Session->new(dbname => $db, timeout => 120);
$s->query('\set VERBOSITY verbose');
my $gwpid = $s->query('SELECT pg_backend_pid()');
# the connection is made, and its session id known, before the loads
my ($out, $err) = $s->query("SELECT count(*) FROM ${rt}_copy");
is("$out$err", '0', 'the table is empty');
my $thread = mariadb_safe("SELECT id FROM information_schema.processlist"
	  . " WHERE user = '" . mf_env('MF_MY_USER') . "' AND db = '" . mf_env('MF_MY_DB') . "'");
like($thread, qr/^\d+$/, 'the gateway has one MariaDB session');

# another gateway session holds a MariaDB row lock, in its own remote
# transaction, until unlock()
my $locker = MfTest::Session->new(dbname => $db, timeout => 60);
sub lock_row
{
	my ($id) = @_;
	my ($o, $e) = $locker->query("BEGIN; INSERT INTO ${rt}_values VALUES ($id, 'locker')");
	is($e, '', "another session holds row $id in MariaDB");
}
sub unlock { $locker->query('ROLLBACK'); }

# MariaDB's session of the load waits on a lock
sub load_waits
{
	return MfTest::wait_for(sub {
		mariadb_safe("SELECT count(*) FROM information_schema.innodb_trx"
			  . " WHERE trx_mysql_thread_id = $thread AND trx_state = 'LOCK WAIT'") eq '1';
	}, timeout => 20);
}

# send $sql, $during->() while it runs, wait at most $limit s for its end,
# then unlock in any case; returns (seconds taken since the start, or
# since the cancel $during says it sent, stdout, stderr)
sub timed
{
	my ($sql, $limit, $during) = @_;
	my $t0 = Time::HiRes::time();
	$s->send($sql);
	if ($during)
	{
		my $sent = $during->();
		$t0 = $sent if $sent && $sent > 1e9;
	}
	MfTest::wait_for(sub { $s->ready }, timeout => $limit);
	my $took = Time::HiRes::time() - $t0;
	unlock();
	my ($o, $e) = $s->result;
	note(sprintf("took %.1f s: %s", $took, $e));
	return ($took, $o, $e);
}

sub after_cancel
{
	my ($what) = @_;
	is(mariadb_safe("SELECT count(*) FROM $rt"), '0',
		"$what: nothing of the load is in MariaDB");
	is($s->query('SELECT pg_backend_pid()'), $gwpid,
		"$what: the same backend goes on (no crash)");
	is($s->query('SELECT count(*) FROM multi_fdw_get_connections() WHERE valid'), '1',
		"$what: the connection is kept");
	my ($o, $e) = $s->query("INSERT INTO ${rt}_copy VALUES (1, 'after'), (2, 'after')");
	is($e, '', "$what: the next load runs");
	is(mariadb_safe("SELECT group_concat(id ORDER BY id) FROM $rt"), '1,2',
		"$what: and stores its rows");
	is(mariadb_safe("SELECT count(*) FROM information_schema.processlist"
		  . " WHERE id = $thread"), '1',
		"$what: the MariaDB session is the same");
	mariadb_safe("DELETE FROM $rt");
}

# 200,000 rows of 110 bytes: about 22 LOAD DATAs of 1 MB
my $load = "SELECT g, repeat('x', 100) FROM generate_series(1, 200000) g";

# the time of the cancel
sub cancel
{
	gw_psql("SELECT pg_cancel_backend($gwpid)", dbname => $db);
	return Time::HiRes::time();
}

# --- statement_timeout while MariaDB waits on a row lock ------------------------
lock_row(50);
my ($took, $o, $e) = timed(
	"SET statement_timeout = '2s'; INSERT INTO ${rt}_copy $load", 15,
	sub { ok(load_waits(), 'timeout: the LOAD DATA waits on the row lock') });
$s->query('RESET statement_timeout');
cmp_ok($took, '<', 8, 'timeout: statement_timeout ends a LOAD DATA that waits on a lock');
like($e, qr/ERROR:  57014: canceling statement due to statement timeout/,
	'timeout: reported as a statement timeout');
after_cancel('timeout');

# --- pg_cancel_backend while the rows flow --------------------------------------
($took, $o, $e) = timed(
	"INSERT INTO ${rt}_copy SELECT g, repeat('x', 100) FROM generate_series(1, 3000000) g",
	30, sub {
		ok(MfTest::wait_for(sub {
			mariadb_safe("SELECT coalesce(sum(trx_rows_modified), 0) FROM"
				  . " information_schema.innodb_trx WHERE trx_mysql_thread_id = $thread") > 0;
		}, timeout => 20), 'flowing: MariaDB has rows of the load');
		return cancel();
	});
cmp_ok($took, '<', 5, 'flowing: a cancel ends the load in seconds');
like($e, qr/ERROR:  57014: canceling statement due to user request/,
	'flowing: reported as a cancel');
after_cancel('flowing');

# --- a cancel in the executor, a LOAD DATA waiting on the server meanwhile -----
# row 50 is locked in MariaDB; the first LOAD DATA (rows 1 to about 9,500)
# waits on it; the gateway has gone on to the next rows and waits on a
# lock of its own at row 15,000, where the cancel finds it
lock_row(50);
my $holder = MfTest::Session->new(dbname => $db, timeout => 60);
$holder->query('BEGIN; SELECT pg_advisory_xact_lock(3019)');
($took, $o, $e) = timed(
	"INSERT INTO ${rt}_copy SELECT g, repeat('x', 100) FROM generate_series(1, 200000) g"
	  . " WHERE pause_at(g, 15000)", 20, sub {
		ok(load_waits(), 'executor: the first LOAD DATA waits on the row lock');
		ok(MfTest::wait_for(sub {
			gw_psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
				  . " AND objid = 3019 AND NOT granted AND pid = $gwpid",
				dbname => $db) eq '1';
		}, timeout => 20), 'executor: the gateway waits at row 15,000');
		return cancel();
	});
$holder->query('ROLLBACK');
cmp_ok($took, '<', 5, 'executor: the cancel does not wait for the LOAD DATA in flight');
like($e, qr/ERROR:  57014: canceling statement due to user request/,
	'executor: reported as a cancel');
after_cancel('executor');

$holder->quit;
$locker->quit;
$s->quit;
mariadb_sql("DROP TABLE IF EXISTS $rt; SET GLOBAL local_infile = 0");
done_testing();
