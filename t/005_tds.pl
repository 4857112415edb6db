# The sqlserver dialect through the real FreeTDS ODBC driver to the test
# bed's TDS endpoint.
#
# 1. t/testbed/tds-check: the endpoint and FreeTDS themselves, at the
#    protocol level: SQL Server's 1000-row and 2100-parameter limits (2097
#    user parameters with sp_prepexec, one more is error 8003), what FreeTDS
#    does with an error in the middle of a parameter array, transactions.
#    The dialect's own limits (1000 rows, 2090 parameters) rest on these.
# 2. The endpoint stops in the middle of a load inside a transaction: the
#    next statement fails with an error naming the server, the local
#    transaction rolls back, and once the endpoint is back the next
#    statement reconnects by itself.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use File::Spec;
use File::Basename;
use IPC::Run;

my $check = File::Spec->catfile(dirname(File::Spec->rel2abs(__FILE__)),
	'testbed', 'tds-check');
my ($out, $err) = ('', '');
IPC::Run::run([ $check, mf_env('MF_TDS_PORT') ], '>', \$out, '2>', \$err,
	IPC::Run::timeout(300));
my $rc = $? >> 8;
is($rc, 0, 'tds-check: the endpoint through FreeTDS behaves as SQL Server');
my ($passed) = $out =~ /^1\.\.(\d+)$/m;
ok(defined $passed && $passed > 100, 'tds-check ran its checks')
  or diag("tds-check output:\n$out\n$err");
like($out, qr/^ok \d+ .*2097/m, 'tds-check: 2097 user parameters pass');
like($out, qr/^ok \d+ .*8003/m, 'tds-check: one more is error 8003');
like($out, qr/^ok \d+ .*10738/m, 'tds-check: 1001 rows are error 10738');
diag("tds-check failures:\n" . join("\n", $out =~ /^(not ok .*)$/mg))
  if $rc != 0;

my $db = setup_gateway_db('mf_tap_005');
my $srv = setup_tds_server($db);
my $t = 't005_load';
gw_safe_psql(<<"SQL", dbname => $db);
SELECT multi_fdw_exec('$srv', 'EXEC mf_reset');
SELECT multi_fdw_exec('$srv', 'CREATE TABLE [dbo].[$t] ([id] int NOT NULL PRIMARY KEY, [note] nvarchar(40))');
CREATE FOREIGN TABLE $t (id int OPTIONS (key 'true'), note text)
  SERVER $srv OPTIONS (schema_name 'dbo', table_name '$t');
SQL

my $s = MfTest::Session->new(dbname => $db);
($out, $err) = $s->query("INSERT INTO $t VALUES (0, 'committed')");
is($err, '', 'committed insert through FreeTDS');
($out, $err) = $s->query(
	"BEGIN; INSERT INTO $t SELECT g, 'load ' || g FROM generate_series(1, 5000) g");
is($err, '', 'first part of a load inside a transaction');
is($s->query("SELECT count(*) FROM $t"), '5001', 'the transaction sees its rows');

ok(stop_tds(), 'the endpoint stops in the middle of the load');
($out, $err) = $s->query(
	"INSERT INTO $t SELECT g, 'load ' || g FROM generate_series(5001, 6000) g");
like($err, qr/ERROR/, 'the next insert fails');
like($err, qr/\Q$srv\E/, 'the error names the server');
like($err, qr/was lost/, 'the error says the connection was lost');
note("error: $err");
($out, $err) = $s->query('ROLLBACK');
unlike($err, qr/ERROR/, 'rollback after the failure');

ok(start_tds(), 'the endpoint is back (empty: its storage was in memory)');
($out, $err) = $s->query("SELECT multi_fdw_exec('$srv', 'CREATE TABLE [dbo].[$t] ([id] int NOT NULL PRIMARY KEY, [note] nvarchar(40))')");
is($err, '', 'the next statement reconnects by itself');
($out, $err) = $s->query(
	"BEGIN; INSERT INTO $t SELECT g, 'again ' || g FROM generate_series(1, 3000) g; COMMIT");
is($err, '', 'a load after the reconnect');
is($s->query("SELECT count(*), sum(id) FROM $t"), '3000|4501500',
	'all of it arrived');
is($s->query("SELECT server_name, valid FROM multi_fdw_get_connections()"),
	"$srv|t", 'one valid connection');

$s->quit;
done_testing();
