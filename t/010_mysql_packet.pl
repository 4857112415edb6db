# INSERTs are cut under the server's real max_allowed_packet, read once per
# connection, whatever batch_bytes says: with the limit lowered to 1 MB,
# 200 rows of 17 kB (3.4 MB) arrive through values and array, over the
# mysql transport and MariaDB's ODBC driver, and a row over 1 MB is
# refused with SQLSTATE 54000 naming the limit, nothing of it stored.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;

my $limit = 1048576;
my $rt = 't010_packet';
my $db = setup_gateway_db('mf_tap_008');
my $srv = setup_mysql_server($db);
my ($mu, $mw) = (mf_env('MF_MY_USER'), mf_env('MF_MY_PASSWORD'));

my $old = mariadb_safe('SELECT @@global.max_allowed_packet');
END { mariadb_sql("SET GLOBAL max_allowed_packet = $old") if defined $old; }
mariadb_safe("SET GLOBAL max_allowed_packet = $limit; DROP TABLE IF EXISTS $rt; "
	  . "CREATE TABLE $rt (id int PRIMARY KEY, t longtext)");

my $sql = <<"SQL";
CREATE SERVER my_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_odbc
  OPTIONS (user '$mu', password '$mw');
SQL
for my $s ($srv, 'my_odbc')
{
	for my $m (qw(values array row))
	{
		$sql .= "CREATE FOREIGN TABLE ${s}_$m (id int, t text) SERVER $s "
		  . "OPTIONS (table_name '$rt', insert_method '$m');\n";
	}
}
gw_safe_psql($sql, dbname => $db);

# a new session: its connections read the lowered limit
my $s = MfTest::Session->new(dbname => $db);
for my $server ($srv, 'my_odbc')
{
	for my $m (qw(values array))
	{
		my ($out, $err) = $s->query(
			"INSERT INTO ${server}_$m SELECT g, repeat('v', 17408) FROM generate_series(1, 200) g");
		is($err, '', "$server $m: 200 rows of 17 kB under a 1 MB limit");
		is(mariadb_safe("SELECT count(*), sum(length(t)) FROM $rt"), "200\t3481600",
			"$server $m: all of them stored");
		mariadb_safe("TRUNCATE $rt");
	}
	for my $m (qw(values array row))
	{
		my ($out, $err) = $s->query("\\set VERBOSITY verbose\n"
			  . "INSERT INTO ${server}_$m SELECT g, repeat('v', CASE WHEN g = 3 THEN $limit ELSE 10 END) "
			  . "FROM generate_series(1, 4) g");
		like($err, qr/ERROR:  54000: row 3 is too large for server "\Q$server\E"/,
			"$server $m: the row over the limit is refused, named");
		like($err, qr/max_allowed_packet is $limit bytes/, "$server $m: the error names the limit");
		is(mariadb_safe("SELECT count(*) FROM $rt"), '0', "$server $m: nothing stored");
	}
}
my $out = $s->query("SELECT string_agg(server_name || ':' || valid, ',' ORDER BY server_name) "
	  . "FROM multi_fdw_get_connections()");
is($out, "my_odbc:true,$srv:true", 'both connections survive');
$s->quit;

mariadb_sql("DROP TABLE IF EXISTS $rt");
done_testing();
