# MariaDB restarted in the middle of a LOAD DATA LOCAL INFILE load (insert
# method copy): the statement fails with an error naming the server,
# nothing of the transaction is left in the MariaDB table, and the next
# statement reconnects.  The restarted server has local_infile OFF again
# (the test bed starts it so): auto then falls back to parameter arrays,
# and an explicit copy says why it cannot run.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_004');
my $srv = setup_mysql_server($db);
my $rt = 't004_load';

mariadb_safe("SET GLOBAL local_infile = 1; DROP TABLE IF EXISTS $rt; "
	  . "CREATE TABLE $rt (id int PRIMARY KEY, note varchar(40)) ENGINE=InnoDB");
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE ${rt}_copy (id int, note text)
  SERVER $srv OPTIONS (table_name '$rt', insert_method 'copy');
CREATE FOREIGN TABLE ${rt}_auto (id int, note text)
  SERVER $srv OPTIONS (table_name '$rt');
CREATE FUNCTION pause_at(g int, at int) RETURNS boolean LANGUAGE plpgsql AS \$\$
BEGIN
  IF g = at THEN
    PERFORM pg_advisory_xact_lock_shared(3004);
  END IF;
  RETURN true;
END \$\$;
SQL

my $s = MfTest::Session->new(dbname => $db);
my ($out, $err);

($out, $err) = $s->query("INSERT INTO ${rt}_copy VALUES (0, 'committed')");
is($err, '', 'committed row through LOAD DATA');
is(mariadb_safe("SELECT count(*) FROM $rt"), '1', 'MariaDB has it');

# a statement of many LOAD DATAs (1 MB each), paused at row 150000 of
# 300000: the first ones are in the remote transaction, uncommitted
my $locker = MfTest::Session->new(dbname => $db);
my (undef, $lock_err) = $locker->query('SELECT pg_advisory_lock(3004)');
is($lock_err, '', 'the lock is taken without error');
is(gw_psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
	  . " AND objid = 3004 AND granted", dbname => $db), '1', 'the test holds the lock');
($out, $err) = $s->query('BEGIN');
$s->send("INSERT INTO ${rt}_auto SELECT g, 'load ' || g FROM generate_series(1, 300000) g "
	  . "WHERE pause_at(g, 150000)");
ok(MfTest::wait_for(sub {
	gw_psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
		dbname => $db) eq '1';
}), 'the statement waits at row 150000');
ok(MfTest::wait_for(sub {
	(mariadb_safe('SELECT coalesce(sum(trx_rows_modified), 0) FROM information_schema.innodb_trx') // 0) > 0;
}), 'MariaDB holds uncommitted rows of the statement');
is(mariadb_safe("SELECT count(*) FROM $rt"), '1', 'other sessions see only the committed row');

ok(restart_mariadb(), 'MariaDB restarted in the middle of the statement');
$locker->query('SELECT pg_advisory_unlock(3004)');
($out, $err) = $s->result;
like($err, qr/ERROR/, 'the statement fails');
like($err, qr/\Q$srv\E/, 'the error names the server');
like($err, qr/lost|gone|closed/i, 'the error says the connection was lost');
note("error: $err");
($out, $err) = $s->query('ROLLBACK');
unlike($err, qr/ERROR/, 'rollback');
is(mariadb_safe("SELECT count(*), sum(id) FROM $rt"), "1\t0",
	'nothing of the interrupted load is in MariaDB');

# the restarted server refuses local infile: auto loads with parameter
# arrays on a new connection (a one-row INSERT goes by values anyway), an
# explicit copy says why it cannot
is(mariadb_safe('SELECT @@global.local_infile'), '0', 'local_infile is OFF again');
($out, $err) = $s->query(
	"INSERT INTO ${rt}_auto SELECT g, 'again ' || g FROM generate_series(1, 20000) g");
is($err, '', 'auto loads after the reconnect');
is(mariadb_safe("SELECT count(*), sum(id) FROM $rt"), "20001\t200010000",
	'MariaDB has the rows');
($out, $err) = $s->query(
	"EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) "
	  . "INSERT INTO ${rt}_auto VALUES (30000, 'x'), (30002, 'y')");
like($out, qr/Insert Method: array/, 'EXPLAIN ANALYZE says array');
($out, $err) = $s->query("INSERT INTO ${rt}_copy VALUES (30001, 'x')");
like($err, qr/does not allow LOAD DATA LOCAL INFILE/, 'copy says the server refuses it');

$locker->quit;
$s->quit;
mariadb_sql("DROP TABLE IF EXISTS $rt");
done_testing();
