# MariaDB restarted in the middle of a load inside a transaction: the next
# statement fails with an error naming the server, the local transaction
# rolls back, nothing of it is left in the MariaDB table (nothing
# half-committed), and the next statement reconnects and works.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_003');
my $srv = setup_mysql_server($db);
my $rt = 't003_restart';

mariadb_safe("DROP TABLE IF EXISTS $rt; "
	  . "CREATE TABLE $rt (id int PRIMARY KEY, note varchar(40)) ENGINE=InnoDB");
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE $rt (id int, note text)
  SERVER $srv OPTIONS (table_name '$rt', batch_size '1000', pipeline_depth '1');
SQL

my $s = MfTest::Session->new(dbname => $db);
my ($out, $err);

# one committed row, so the counts afterwards mean something
($out, $err) = $s->query("INSERT INTO $rt VALUES (0, 'committed')");
is($err, '', 'committed insert through the foreign table');
is(mariadb_safe("SELECT count(*) FROM $rt"), '1', 'MariaDB has the committed row');

# a load inside a transaction: 1000 rows in a remote transaction not yet
# committed
($out, $err) = $s->query(
	"BEGIN; INSERT INTO $rt SELECT g, 'load ' || g FROM generate_series(1, 1000) g");
is($err, '', 'first part of the load, inside a transaction');
is($s->query("SELECT count(*) FROM $rt"), '1001', 'the transaction sees its rows');
is($s->query("SELECT server_name, in_transaction FROM multi_fdw_get_connections()"),
	"$srv|t", 'remote transaction in progress');
is(mariadb_safe("SELECT count(*) FROM $rt"), '1',
	'other sessions do not see the uncommitted rows');

ok(restart_mariadb(), 'MariaDB restarted');
is(mariadb_safe("SELECT count(*) FROM $rt"), '1',
	'after the restart MariaDB has only the committed row');

# the load goes on: the connection is gone
($out, $err) = $s->query(
	"INSERT INTO $rt SELECT g, 'load ' || g FROM generate_series(1001, 2000) g");
like($err, qr/ERROR/, 'next insert of the load fails');
like($err, qr/\Q$srv\E/, 'the error names the server');
like($err, qr/lost|gone|closed/i, 'the error says the connection was lost');
note("error: $err");

# the transaction is aborted until it is rolled back
($out, $err) = $s->query("SELECT count(*) FROM $rt");
like($err, qr/current transaction is aborted/, 'the transaction is aborted');
($out, $err) = $s->query('ROLLBACK');
unlike($err, qr/ERROR/, 'rollback after the failure');

is(mariadb_safe("SELECT count(*) FROM $rt"), '1',
	'nothing of the rolled-back load is in MariaDB');
is(mariadb_safe("SELECT count(*) FROM $rt WHERE id > 0"), '0',
	'not one row of it');

# the next statement reconnects by itself
($out, $err) = $s->query("SELECT count(*) FROM $rt");
is($err, '', 'no error after the rollback');
is($out, '1', 'next statement reconnects and sees the committed row');
is($s->query("SELECT server_name, valid FROM multi_fdw_get_connections()"),
	"$srv|t", 'a valid connection again');

# and loads again, in a transaction that commits
($out, $err) = $s->query(
	"BEGIN; INSERT INTO $rt SELECT g, 'again ' || g FROM generate_series(1, 1000) g; COMMIT");
is($err, '', 'load after the reconnect');
is(mariadb_safe("SELECT count(*), sum(id) FROM $rt"), "1001\t500500",
	'MariaDB has the new load and the committed row');

# Again, with the restart in the middle of one INSERT: the statement has
# sent its first batch when it stops at row 1500 (an advisory lock that
# the test holds), MariaDB restarts, and the statement's next batch meets
# the lost connection.
gw_safe_psql(<<'SQL', dbname => $db);
CREATE FUNCTION pause_at(g int, at int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF g = at THEN
    PERFORM pg_advisory_xact_lock_shared(3003);
  END IF;
  RETURN true;
END $$;
SQL
my $locker = MfTest::Session->new(dbname => $db);
my (undef, $lock_err) = $locker->query('SELECT pg_advisory_lock(3003)');
is($lock_err, '', 'the lock is taken without error');
is(gw_psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
	  . " AND objid = 3003 AND granted", dbname => $db), '1', 'the test holds the lock');

($out, $err) = $s->query(
	"BEGIN; INSERT INTO $rt SELECT g, 'load ' || g FROM generate_series(2001, 3000) g");
is($err, '', 'a first statement of the load');
$s->send("INSERT INTO $rt SELECT g, 'load ' || g FROM generate_series(3001, 6000) g "
	  . "WHERE pause_at(g, 4500)");
ok(MfTest::wait_for(sub {
	gw_psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
		dbname => $db) eq '1';
}), 'the second statement waits at row 1500');
# its first batch of 1000 (batch_size 1000, pipeline_depth 1: one batch per
# bulk call) is in the remote transaction, with the first statement's rows
is(mariadb_safe('SELECT sum(trx_rows_modified) FROM information_schema.innodb_trx'),
	'2000', 'MariaDB holds 2000 uncommitted rows');

ok(restart_mariadb(), 'MariaDB restarted in the middle of the statement');
$locker->query('SELECT pg_advisory_unlock(3003)');
($out, $err) = $s->result;
like($err, qr/ERROR/, 'the statement fails when it sends its next batch');
like($err, qr/\Q$srv\E/, 'the error names the server');
note("error: $err");
($out, $err) = $s->query('ROLLBACK');
unlike($err, qr/ERROR/, 'rollback');
is(mariadb_safe("SELECT count(*), sum(id) FROM $rt"), "1001\t500500",
	'nothing of the interrupted load is in MariaDB');
($out, $err) = $s->query("INSERT INTO $rt VALUES (9999, 'after'); SELECT count(*) FROM $rt");
is($err, '', 'the next statement reconnects');
is($out, '1002', 'and works');

$locker->quit;
$s->quit;
mariadb_sql("DROP TABLE IF EXISTS $rt");
done_testing();
