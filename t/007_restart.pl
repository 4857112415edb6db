# The remote restarted while the session was idle: the first statement
# after the restart works, for every transport.  The cached connection is
# found dead when the next remote transaction opens, before anything of it
# was sent, so multi_fdw reconnects and opens it again.  A restart in the
# middle of a remote transaction still fails that transaction (t/001,
# t/003).
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_007');
my $my = setup_mysql_server($db);
my $rt = 't007_restart';
my ($pg_user, $pg_pass) = (mf_env('MF_PG_USER'), mf_env('MF_PG_PASSWORD'));

remote_safe_psql("DROP TABLE IF EXISTS $rt; CREATE TABLE $rt (id int PRIMARY KEY)");
mariadb_safe("DROP TABLE IF EXISTS $rt; CREATE TABLE $rt (id int PRIMARY KEY) ENGINE=InnoDB");
gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER odbc_pg FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_pg
  OPTIONS (user '$pg_user', password '$pg_pass');
CREATE FOREIGN TABLE ${rt}_pg (id int) SERVER pg_remote OPTIONS (table_name '$rt');
CREATE FOREIGN TABLE ${rt}_odbc (id int) SERVER odbc_pg OPTIONS (table_name '$rt');
CREATE FOREIGN TABLE ${rt}_my (id int) SERVER $my OPTIONS (table_name '$rt');
SQL

my $s = MfTest::Session->new(dbname => $db);
my ($out, $err);

# each connection opened and idle, between transactions
for (['pg', 1, '1'], ['odbc', 2, '2'], ['my', 1, '1'])
{
	my ($t, $id, $count) = @$_;
	($out, $err) = $s->query("INSERT INTO ${rt}_$t VALUES ($id); SELECT count(*) FROM ${rt}_$t");
	is("$out$err", $count, "$t: connected");
}
is($s->query('SELECT count(*) FROM multi_fdw_get_connections()'), '3',
	'three cached connections');

ok(restart_remote_pg(), 'the remote PostgreSQL restarted');
($out, $err) = $s->query("SELECT count(*) FROM ${rt}_pg");
is("$out$err", '2', 'libpq: the first statement after the restart works');
($out, $err) = $s->query("SELECT count(*) FROM ${rt}_odbc");
is("$out$err", '2', 'odbc: the first statement after the restart works');

ok(restart_mariadb(), 'MariaDB restarted');
($out, $err) = $s->query("SELECT count(*) FROM ${rt}_my");
is("$out$err", '1', 'mysql: the first statement after the restart works');

# the same with a write that opens an explicit transaction
ok(restart_remote_pg(), 'the remote PostgreSQL restarted again');
($out, $err) = $s->query("BEGIN; INSERT INTO ${rt}_pg VALUES (3); COMMIT");
is($err, '', 'libpq: an insert opening a transaction after the restart works');
is(scalar remote_psql("SELECT count(*) FROM $rt"), '3', 'and its row is there');

# but never in the middle of a remote transaction: that one is lost
($out, $err) = $s->query("BEGIN; INSERT INTO ${rt}_pg VALUES (4)");
is($err, '', 'a remote transaction is open');
ok(restart_remote_pg(), 'the remote PostgreSQL restarted in the middle of it');
($out, $err) = $s->query("INSERT INTO ${rt}_pg VALUES (5)");
like($err, qr/connection to server "pg_remote" was lost/,
	'the transaction cut by the restart fails');
$s->query('ROLLBACK');
is(scalar remote_psql("SELECT string_agg(id::text, ',' ORDER BY id) FROM $rt"), '1,2,3',
	'nothing of it is on the remote');
($out, $err) = $s->query("SELECT count(*) FROM ${rt}_pg");
is("$out$err", '3', 'the next statement reconnects');

$s->quit;
remote_psql("DROP TABLE IF EXISTS $rt");
mariadb_sql("DROP TABLE IF EXISTS $rt");
done_testing();
