# multi_fdw_progress for every insert method of every transport: a second
# session watches a load while it runs and sees its insert method, a
# rows_sent that grows (more than 0, fewer than all, before the end), and
# no row once the load has ended.  The methods: libpq copy, pipeline,
# values, row; mysql copy (LOAD DATA LOCAL INFILE), array, values, row;
# odbc (MariaDB's driver) array, values, row.  The loads are slowed on the
# gateway (a function that sleeps per row), so that every transport is
# slowed the same way; the counters need the preload, so this runs its own
# gateway cluster (start_preloaded_gateway).
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use Time::HiRes ();

my $port = start_preloaded_gateway(18, 'gw_progress');
$ENV{MF_GW_PORT} = $port;
my $db = setup_gateway_db('mf_tap_018');
my $my = setup_mysql_server($db);
my $rt = 't018_load';
my $nrows = 1000;

remote_safe_psql("DROP TABLE IF EXISTS $rt; CREATE TABLE $rt (id int PRIMARY KEY, v text)");
mariadb_safe("SET GLOBAL local_infile = 1; DROP TABLE IF EXISTS $rt; "
	  . "CREATE TABLE $rt (id int PRIMARY KEY, v varchar(20)) ENGINE=InnoDB");
my ($myu, $myp) = (mf_env('MF_MY_USER'), mf_env('MF_MY_PASSWORD'));
gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER odbc_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER odbc_my
  OPTIONS (user '$myu', password '$myp');
CREATE FUNCTION slow(i int) RETURNS int LANGUAGE plpgsql AS
  \$\$ BEGIN PERFORM pg_sleep(0.002); RETURN i; END \$\$;
SQL

my @cases = (
	[ 'pg_remote', 'copy' ], [ 'pg_remote', 'pipeline' ],
	[ 'pg_remote', 'values' ], [ 'pg_remote', 'row' ],
	[ $my, 'copy' ], [ $my, 'array' ], [ $my, 'values' ], [ $my, 'row' ],
	[ 'odbc_my', 'array' ], [ 'odbc_my', 'values' ], [ 'odbc_my', 'row' ]);

my $loader = MfTest::Session->new(dbname => $db);
my $watcher = MfTest::Session->new(dbname => $db);
my $pid = $loader->query('SELECT pg_backend_pid()');

for my $case (@cases)
{
	my ($srv, $method) = @$case;
	my $ft = "${srv}_$method";
	my $what = "$srv $method";

	gw_safe_psql(<<"SQL", dbname => $db);
CREATE FOREIGN TABLE $ft (id int, v text) SERVER $srv
  OPTIONS (table_name '$rt', insert_method '$method', batch_size '100',
           pipeline_depth '2');
SQL
	if ($srv eq 'pg_remote')
	{
		remote_safe_psql("TRUNCATE $rt");
	}
	else
	{
		mariadb_safe("TRUNCATE TABLE $rt");
	}

	$loader->send("INSERT INTO $ft SELECT slow(i), 'v' || i FROM generate_series(1, $nrows) i");
	# (server, operation, method, rows_sent) of the load, while it runs
	my @seen;
	while (!$loader->ready)
	{
		my $row = $watcher->query(
			"SELECT server, operation, coalesce(insert_method, '-'), rows_sent"
			  . " FROM multi_fdw_progress WHERE pid = $pid");
		push @seen, [ split /\|/, $row ] if $row ne '';
		Time::HiRes::sleep(0.05);
	}
	my ($out, $err) = $loader->result;
	is($err, '', "$what: the load ends without error");

	my @sent = map { $_->[3] } grep { $_->[3] > 0 } @seen;
	my @during = grep { $_ < $nrows } @sent;
	ok(@during > 0, "$what: rows_sent was above 0 and below $nrows while the load ran")
	  or diag(explain(\@seen));
	my %distinct = map { $_ => 1 } @during;
	cmp_ok(scalar(keys %distinct), '>=', 2, "$what: rows_sent grew while the load ran")
	  or diag(explain(\@seen));
	my @back = grep { $sent[$_] < $sent[ $_ - 1 ] } 1 .. $#sent;
	is(scalar(@back), 0, "$what: rows_sent never went back");
	my @wrong = grep { $_->[3] > 0 && ($_->[0] ne $srv || $_->[1] ne 'insert'
			|| $_->[2] ne $method) } @seen;
	ok(@seen > 0 && @wrong == 0,
		"$what: progress showed the server, operation insert and method $method")
	  or diag(explain(\@seen));

	is($watcher->query("SELECT count(*) FROM multi_fdw_progress WHERE pid = $pid"),
		'0', "$what: the progress row is gone after the load");
	my $count = $srv eq 'pg_remote'
	  ? remote_safe_psql("SELECT count(*) FROM $rt")
	  : mariadb_safe("SELECT count(*) FROM $rt");
	is($count, $nrows, "$what: the remote has every row");
}

$loader->quit;
$watcher->quit;
remote_safe_psql("DROP TABLE $rt");
mariadb_sql("DROP TABLE IF EXISTS $rt; SET GLOBAL local_infile = 0");
done_testing();
