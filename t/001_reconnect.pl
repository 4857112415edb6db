# A remote connection killed in the middle of a transaction: the statement
# that meets the dead connection fails with an error naming the server, the
# local transaction rolls back, the next statement reconnects, and nothing
# of the killed transaction reached the remote.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_001');
my $rt = 't001_reconnect';

remote_safe_psql("DROP TABLE IF EXISTS $rt; CREATE TABLE $rt (id int PRIMARY KEY, note text)");
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE $rt (id int, note text)
  SERVER pg_remote OPTIONS (table_name '$rt');
SQL

my $s = MfTest::Session->new(dbname => $db);

# one committed row, so the count afterwards means something
my ($out, $err) = $s->query("INSERT INTO $rt VALUES (1, 'committed')");
is($err, '', 'committed insert through the foreign table');
is(scalar remote_psql("SELECT count(*) FROM $rt"), '1', 'remote has the committed row');

# open a local transaction with a remote one under it
($out, $err) = $s->query("BEGIN; INSERT INTO $rt VALUES (2, 'doomed'), (3, 'doomed')");
is($err, '', 'insert inside a transaction');
$out = $s->query("SELECT server_name, in_transaction FROM multi_fdw_get_connections()");
is($out, 'pg_remote|t', 'connection open, remote transaction in progress');

# kill the FDW's remote session
my $killed = remote_psql(<<'SQL');
SELECT count(*) FROM (
  SELECT pg_terminate_backend(pid) FROM pg_stat_activity
   WHERE usename = 'mfapp' AND pid <> pg_backend_pid()) k
SQL
cmp_ok($killed, '>=', 1, 'terminated the remote backend of the gateway');
ok(MfTest::wait_for(sub {
	remote_psql("SELECT count(*) FROM pg_stat_activity WHERE usename = 'mfapp' AND pid <> pg_backend_pid()") eq '0';
}), 'remote backend gone');

# the next statement meets the dead connection
($out, $err) = $s->query("INSERT INTO $rt VALUES (4, 'after kill')");
like($err, qr/ERROR/, 'statement on the killed connection fails');
like($err, qr/pg_remote/, 'the error names the server');

($out, $err) = $s->query('ROLLBACK');
unlike($err, qr/ERROR/, 'rollback after the failure');

# reconnects by itself
($out, $err) = $s->query("SELECT count(*) FROM $rt");
is($err, '', 'no error after rollback');
is($out, '1', 'next statement reconnects and sees only the committed row');

$out = $s->query("SELECT server_name, valid FROM multi_fdw_get_connections()");
is($out, 'pg_remote|t', 'a valid connection again');

is(scalar remote_psql("SELECT string_agg(id::text, ',' ORDER BY id) FROM $rt"), '1',
	'rows of the killed transaction are not on the remote');

# and the new connection works for writes too
($out, $err) = $s->query("INSERT INTO $rt VALUES (5, 'after reconnect')");
is($err, '', 'insert after reconnect');
is(scalar remote_psql("SELECT count(*) FROM $rt"), '2', 'remote has it');

$s->quit;
remote_psql("DROP TABLE IF EXISTS $rt");
done_testing();
