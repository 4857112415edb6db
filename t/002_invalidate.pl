# Changing a server's or user mapping's options drops the cached connection:
# the next query uses the new options (and fails if they are wrong), and
# putting them back makes it work again.  Plus multi_fdw_disconnect[_all].
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $db = setup_gateway_db('mf_tap_002');
my $rt = 't002_items';
my $port = mf_env('MF_PG_PORT');

remote_safe_psql(<<"SQL");
DROP TABLE IF EXISTS $rt;
CREATE TABLE $rt (id int PRIMARY KEY, v text);
INSERT INTO $rt SELECT g, 'v' || g FROM generate_series(1, 3) g;
SQL
gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE $rt (id int, v text)
  SERVER pg_remote OPTIONS (table_name '$rt');
SQL

my $s = MfTest::Session->new(dbname => $db);
my ($out, $err);

# a query caches the connection
sub count_ok
{
	my ($what) = @_;
	my ($o, $e) = $s->query("SELECT count(*) FROM $rt");
	is($e, '', "$what: no error");
	is($o, '3', "$what: reads the remote table");
}

sub count_fails
{
	my ($what) = @_;
	my ($o, $e) = $s->query("SELECT count(*) FROM $rt");
	like($e, qr/ERROR/, "$what: query fails");
	like($e, qr/pg_remote/, "$what: the error names the server");
}

count_ok('first read');
is($s->query('SELECT server_name FROM multi_fdw_get_connections()'), 'pg_remote',
	'connection cached');
is($s->query("SELECT dialect, valid, in_transaction FROM multi_fdw_get_connections()"),
	'postgres|t|f', 'dialect, valid, not in a transaction');

# --- server option changed from another session -------------------------------
gw_safe_psql("ALTER SERVER pg_remote OPTIONS (SET port '1')", dbname => $db);
count_fails('server port set to 1');
gw_safe_psql("ALTER SERVER pg_remote OPTIONS (SET port '$port')", dbname => $db);
count_ok('server port restored');

# --- and from the same session -----------------------------------------------
($out, $err) = $s->query("ALTER SERVER pg_remote OPTIONS (SET port '1')");
is($err, '', 'ALTER SERVER in the same session');
count_fails('same session, port 1');
$s->query("ALTER SERVER pg_remote OPTIONS (SET port '$port')");
count_ok('same session, port restored');

# --- user mapping changed ------------------------------------------------------
gw_safe_psql("ALTER USER MAPPING FOR CURRENT_USER SERVER pg_remote OPTIONS (SET password 'wrong')",
	dbname => $db);
count_fails('wrong password');
gw_safe_psql("ALTER USER MAPPING FOR CURRENT_USER SERVER pg_remote OPTIONS (SET password '$ENV{MF_PG_PASSWORD}')",
	dbname => $db);
count_ok('password restored');

# --- disconnect ---------------------------------------------------------------
is($s->query("SELECT multi_fdw_disconnect('pg_remote')"), 't', 'disconnect: had a connection');
is($s->query("SELECT multi_fdw_disconnect('pg_remote')"), 'f', 'disconnect again: none left');
is($s->query('SELECT count(*) FROM multi_fdw_get_connections()'), '0', 'no connections listed');

count_ok('read after disconnect');
is($s->query('SELECT multi_fdw_disconnect_all()'), 't', 'disconnect_all: had a connection');
is($s->query('SELECT count(*) FROM multi_fdw_get_connections()'), '0', 'no connections listed');
is($s->query('SELECT multi_fdw_disconnect_all()'), 'f', 'disconnect_all again: none left');
count_ok('read after disconnect_all');

$s->quit;
remote_psql("DROP TABLE IF EXISTS $rt");
done_testing();
