# SCRAM pass-through (use_scram_passthrough, postgres_fdw's option of
# PostgreSQL 18): a role that logs in to the gateway with SCRAM reaches
# the remote PostgreSQL with the keys of that login, no password in its
# user mapping, when the remote holds the same SCRAM secret for it.
#
# On a gateway of PostgreSQL 18 or later: the gateway's pg_hba.conf gets a
# scram-sha-256 line for the test role over TCP (taken out again at the
# end), the role's secret is copied to the remote (the same salt and
# iteration count), and the role, which is not a superuser, reads through
# a server with the option and a mapping without a password.  Refused:
# the same role logged in without SCRAM (the unix socket's trust), the
# keys used under another role (a SECURITY DEFINER function whose owner
# maps the server to the caller's remote login), a server owned by a role
# that is neither a superuser nor the caller, a remote whose secret
# differs.  On 15 to 17 the option is refused where it is set.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use IPC::Run;

my $db = setup_gateway_db('mf_tap_025');
my $version = gw_safe_psql('SHOW server_version_num', dbname => $db);
my ($host, $port, $rdb) = map { mf_env($_) } qw(MF_PG_HOST MF_PG_PORT MF_PG_DB);

if ($version < 180000)
{
	my ($rc, $out, $err) = gw_psql(<<"SQL", dbname => $db);
CREATE SERVER s025 FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '$host', port '$port', dbname '$rdb',
           use_scram_passthrough 'true');
SQL
	isnt($rc, 0, 'before PostgreSQL 18 a server with use_scram_passthrough is refused');
	like($err, qr/use_scram_passthrough needs PostgreSQL 18 or later/, '... saying why');
	($rc, $out, $err) = gw_psql(
		"CREATE USER MAPPING FOR CURRENT_USER SERVER pg_remote OPTIONS (use_scram_passthrough 'true')",
		dbname => $db);
	isnt($rc, 0, '... and so is a user mapping with it');
	($rc, $out, $err) = gw_psql(
		"CREATE SERVER s025 FOREIGN DATA WRAPPER multi_fdw OPTIONS (dialect 'postgres', use_scram_passthrough 'false')",
		dbname => $db);
	is($rc, 0, '... while use_scram_passthrough false is accepted');
	done_testing();
	exit 0;
}

my $role = 'regress_mf_scram';
my $owner = 'regress_mf_scram_owner';
my $pass = 'scram-025-' . int(rand(1_000_000));
my $hba = mf_env('MF_TMP') . '/gw/pg_hba.conf';
my $gw_port = mf_env('MF_GW_PORT');

open(my $fh, '<', $hba) or die "cannot read $hba: $!";
my $hba_orig = do { local $/; <$fh> };
close $fh;

END
{
	local $?;    # the test's own exit status stands
	if (defined $hba_orig)
	{
		if (open(my $w, '>', $hba))
		{
			print $w $hba_orig;
			close $w;
		}
		gw_psql('SELECT pg_reload_conf()', dbname => 'postgres');
	}
	gw_psql("DROP DATABASE IF EXISTS mf_tap_025 WITH (FORCE)", dbname => 'postgres');
	gw_psql("DROP ROLE IF EXISTS $role; DROP ROLE IF EXISTS $owner", dbname => 'postgres')
	  if defined $hba_orig;
	remote_psql("DROP TABLE IF EXISTS public.t025; DROP ROLE IF EXISTS $role", user => 'mfdw')
	  if defined $hba_orig;
}

# the role, with a SCRAM secret, and its twin on the remote
gw_safe_psql(<<"SQL", dbname => 'postgres');
DROP ROLE IF EXISTS $role;
DROP ROLE IF EXISTS $owner;
SET password_encryption = 'scram-sha-256';
CREATE ROLE $role LOGIN PASSWORD '$pass';
CREATE ROLE $owner;
SQL
my $secret = gw_safe_psql("SELECT rolpassword FROM pg_authid WHERE rolname = '$role'",
	dbname => 'postgres');
like($secret, qr/^SCRAM-SHA-256\$/, 'the role has a SCRAM secret on the gateway');
remote_safe_psql(<<"SQL", user => 'mfdw');
DROP TABLE IF EXISTS public.t025;
DROP ROLE IF EXISTS $role;
CREATE ROLE $role LOGIN PASSWORD '$secret';
CREATE TABLE public.t025 (id int, who text DEFAULT current_user);
INSERT INTO public.t025 VALUES (1, 'first');
GRANT SELECT, INSERT ON public.t025 TO $role;
SQL

# the gateway asks this role for its password over TCP, with SCRAM
open(my $w, '>', $hba) or die "cannot write $hba: $!";
print $w "host all $role 127.0.0.1/32 scram-sha-256\n" . $hba_orig;
close $w;
gw_safe_psql('SELECT pg_reload_conf()', dbname => 'postgres');

gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER s025 FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '$host', port '$port', dbname '$rdb',
           use_scram_passthrough 'true');
GRANT USAGE ON FOREIGN SERVER s025 TO $role;
CREATE USER MAPPING FOR $role SERVER s025 OPTIONS (user '$role');
CREATE FOREIGN TABLE public.t025 (id int, who text) SERVER s025
  OPTIONS (schema_name 'public', table_name 't025');
GRANT SELECT, INSERT ON public.t025 TO $role;
-- the owner of a SECURITY DEFINER function who maps the server to the
-- caller's remote login
GRANT USAGE ON FOREIGN DATA WRAPPER multi_fdw TO $owner;
GRANT USAGE ON FOREIGN SERVER s025 TO $owner;
CREATE USER MAPPING FOR $owner SERVER s025 OPTIONS (user '$role');
CREATE FUNCTION public.as_owner() RETURNS text LANGUAGE sql SECURITY DEFINER
  SET search_path = pg_catalog
  AS \$\$SELECT u FROM public.multi_fdw_query('s025', 'SELECT current_user::text') AS t(u text)\$\$;
ALTER FUNCTION public.as_owner() OWNER TO $owner;
GRANT EXECUTE ON FUNCTION public.as_owner() TO $role;
SQL
# a server that the owner (not a superuser) made, with the option
gw_safe_psql(<<"SQL", dbname => $db);
SET ROLE $owner;
CREATE SERVER s025_theirs FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '$host', port '$port', dbname '$rdb',
           use_scram_passthrough 'true');
GRANT USAGE ON FOREIGN SERVER s025_theirs TO $role;
CREATE USER MAPPING FOR $role SERVER s025_theirs OPTIONS (user '$role');
RESET ROLE;
SQL

# psql as the role over TCP, with its password: a SCRAM login
sub as_role_tcp
{
	my ($sql) = @_;
	my ($out, $err) = ('', '');
	local $ENV{PGPASSWORD} = $pass;
	local $ENV{PGCONNECT_TIMEOUT} = 10;
	IPC::Run::run(
		[
			MfTest::psql_bin(), '-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1',
			'-h', '127.0.0.1', '-p', $gw_port, '-U', $role, '-d', $db,
			'-c', "SET search_path = evil, public; $sql"
		],
		'>', \$out, '2>', \$err, IPC::Run::timeout(60));
	chomp $out;
	chomp $err;
	return ($? >> 8, $out, $err);
}

my ($rc, $out, $err) = as_role_tcp('SELECT rolsuper::text FROM pg_roles WHERE rolname = current_user');
is($rc, 0, 'the role logs in to the gateway over TCP') or diag($err);
is($out, 'false', '... and is not a superuser');

($rc, $out, $err) = as_role_tcp(
	"SELECT u FROM multi_fdw_query('s025', 'SELECT current_user::text') AS t(u text)");
is($rc, 0, 'multi_fdw_query through SCRAM pass-through runs') or diag($err);
is($out, $role, '... as the role on the remote, with no password in its mapping');

($rc, $out, $err) = as_role_tcp("INSERT INTO public.t025 (id) VALUES (2); SELECT string_agg(id || ':' || coalesce(who, '-'), ',' ORDER BY id) FROM public.t025");
is($rc, 0, 'a foreign table through it reads and writes') or diag($err);
is($out, "1:first,2:-", '... the rows the remote holds');

# without a SCRAM login there are no keys: a password is needed
($rc, $out, $err) = gw_psql(
	"SELECT u FROM multi_fdw_query('s025', 'SELECT current_user::text') AS t(u text)",
	dbname => $db, user => $role);
isnt($rc, 0, 'the role logged in without SCRAM (trust) cannot connect');
like($err, qr/password is required to connect to server "s025"/, '... a password is required');
like($err, qr/this session did not log in with SCRAM/, '... and the hint says why the keys are missing');

# under another role the keys are not passed on
($rc, $out, $err) = as_role_tcp('SELECT public.as_owner()');
isnt($rc, 0, 'a SECURITY DEFINER function of another role cannot use the caller\'s keys');
like($err, qr/SCRAM pass-through to server "s025" is used only as the role that logged in/,
	'... saying so');
($rc, $out, $err) = as_role_tcp(
	"SET ROLE $role; SELECT u FROM multi_fdw_query('s025', 'SELECT current_user::text') AS t(u text)");
is($rc, 0, 'SET ROLE to itself changes nothing') or diag($err);

# a server owned by someone else who is not a superuser
($rc, $out, $err) = as_role_tcp(
	"SELECT u FROM multi_fdw_query('s025_theirs', 'SELECT current_user::text') AS t(u text)");
isnt($rc, 0, 'a server owned by another role that is not a superuser does not get the keys');
like($err, qr/needs server "s025_theirs" to be owned by a superuser or by you/, '... saying so');

# the remote's secret differs: the remote refuses the login
remote_safe_psql("ALTER ROLE $role PASSWORD 'another-secret'", user => 'mfdw');
gw_safe_psql("SELECT multi_fdw_disconnect_all()", dbname => $db);
($rc, $out, $err) = as_role_tcp(
	"SELECT u FROM multi_fdw_query('s025', 'SELECT current_user::text') AS t(u text)");
isnt($rc, 0, 'a remote whose SCRAM secret differs refuses the keys');
like($err, qr/could not connect to server "s025"/, '... a connection error naming the server');

# and the option belongs to libpq alone
($rc, $out, $err) = gw_psql(<<"SQL", dbname => $db);
CREATE SERVER s025_my FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host '127.0.0.1', use_scram_passthrough 'true');
SQL
isnt($rc, 0, 'another transport refuses use_scram_passthrough');
like($err, qr/transport "mysql" cannot use SCRAM pass-through/, '... naming the transport');

done_testing();
