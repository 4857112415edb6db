# postgres_fdw's own regression script through both wrappers on this
# gateway, statement by statement (t/lib/PgFdwScript.pm says how), with
# multi_fdw's dependent join on (the default) and off.
#
# Needs a PostgreSQL source tarball (MF_PG_SOURCES, or a pg/ folder beside
# the project, as CI has): without one the test is skipped and says so.
# Fails on a crash of the gateway, an internal error in multi_fdw's runs,
# and a difference (a result that differs, an error only multi_fdw gives)
# that t/postgres_fdw_differences.txt does not list with its reason, a row
# of docs/postgres.md's "Differences from postgres_fdw".  Every difference
# is written, statement by statement, to MF_TMP/pgfdw-<run>.txt; the counts
# are printed.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use PgFdwScript qw(find_tarball script_from_tarball split_statements
  adapt_for_multi_fdw adapt_host run_statements compare_runs read_differences
  listed_reason);
use Test::More;
use Cwd qw(getcwd);

my $major = gw_psql("SELECT current_setting('server_version_num')::int / 10000",
	dbname => 'postgres');
my ($tarball, $version) = find_tarball($major, getcwd());
plan skip_all => "no PostgreSQL source tarball at hand (MF_PG_SOURCES, or ../*/pg): "
  . "postgres_fdw's regression script is not run"
  unless $tarball;
note("postgres_fdw's script of PostgreSQL $version, on a gateway of PostgreSQL $major");

is(gw_psql("SELECT count(*) FROM pg_available_extensions WHERE name = 'postgres_fdw'",
		dbname => 'postgres'), '1', 'postgres_fdw is installed on the gateway');

my $script = script_from_tarball($tarball, $version);
my $pieces = split_statements($script);
cmp_ok(scalar @$pieces, '>', 500, 'the script splits into statements');
my @ref_pieces = map { adapt_host($_) } @$pieces;
my @mf_pieces  = map { adapt_for_multi_fdw(adapt_host($_)) } @$pieces;

my @psql = (MfTest::psql_bin(), '-h', mf_env('MF_SOCKDIR'), '-p', mf_env('MF_GW_PORT'),
	'-U', $ENV{PGUSER} // 'mfdw');

# each run in a fresh database; the roles the script makes are dropped
# after it (it leaves some behind when a statement of its own fails)
sub fresh_run
{
	my ($db, $pieces, $pgoptions) = @_;
	gw_safe_psql("DROP DATABASE IF EXISTS $db WITH (FORCE); CREATE DATABASE $db;",
		dbname => 'postgres');
	my ($outs) = run_statements($pieces, psql => \@psql, dbname => $db,
		pgoptions => $pgoptions);
	gw_psql("DROP DATABASE IF EXISTS $db WITH (FORCE)", dbname => 'postgres');
	my $roles = gw_psql("SELECT string_agg(quote_ident(rolname), ', ') FROM pg_roles"
		  . " WHERE rolname LIKE 'regress\\_%' AND rolname NOT LIKE 'regress\\_mf\\_%'",
		dbname => 'postgres');
	gw_psql("DROP ROLE IF EXISTS $roles", dbname => 'postgres') if $roles ne '';
	return $outs;
}

# the listed differences, each with a reason the docs' table has
my $listed = read_differences('t/postgres_fdw_differences.txt');
my $docs = do { local (@ARGV, $/) = ('docs/postgres.md'); <> };
my ($table) = $docs =~ /^## Differences from postgres_fdw\n(.*?)(?=^## |\z)/ms;
my %rows = map { /^\| (.+?) \|/ ? ($1 => 1) : () } split /\n/, $table // '';
my @unknown = grep { !$rows{ $_->[2] } } @$listed;
is(scalar @unknown, 0, "every listed difference's reason is a row of docs/postgres.md's table")
  or diag(join("\n", map { "no row: $_->[2]" } @unknown));

my $ref = fresh_run('mf_pgfdw_ref', \@ref_pieces, '');
ok((grep { /ERROR/ } @$ref) < @$pieces / 4, 'the script runs through postgres_fdw');

for my $run ([ 'depjoin_on', '' ], [ 'depjoin_off', '-c multi_fdw.dependent_join=off' ])
{
	my ($label, $pgoptions) = @$run;
	my $mf = fresh_run("mf_pgfdw_$label", \@mf_pieces, $pgoptions);
	my $cmp = compare_runs($pieces, $ref, $mf);
	my %count;
	$count{ $_->{kind} }++ for @$cmp;
	my $report = mf_env('MF_TMP') . "/pgfdw-$label.txt";
	open my $fh, '>', $report or die "$report: $!";
	for my $c (@$cmp)
	{
		next if $c->{kind} eq 'same' || $c->{kind} eq 'same rows';
		print $fh "==== #$c->{n} $c->{kind}\n$c->{stmt}\n---- postgres_fdw\n$c->{ref}"
		  . "---- multi_fdw\n$c->{mf}\n";
	}
	close $fh;
	diag(sprintf("%s (PostgreSQL %s script): %s; details in %s", $label, $version,
		join(', ', map { "$_ $count{$_}" } sort keys %count), $report));
	is($count{crash} // 0, 0, "$label: the gateway never crashes");
	my @internal = grep { $_->{kind} eq 'internal' } @$cmp;
	is(scalar @internal, 0, "$label: no internal error")
	  or diag(join("\n", map { "#$_->{n}: $_->{stmt}\n$_->{mf}" } @internal[0 .. ($#internal < 4 ? $#internal : 4)]));
	cmp_ok(($count{same} // 0) + ($count{'same rows'} // 0), '>', @$pieces / 3,
		"$label: most statements answer alike");
	my @unlisted = grep {
		($_->{kind} eq 'differ' || $_->{kind} eq 'only multi_fdw errors')
		  && !defined listed_reason($listed, $_)
	} @$cmp;
	is(scalar @unlisted, 0, "$label: every difference is listed with its reason")
	  or diag(join("\n", map { "#$_->{n} $_->{kind}: $_->{stmt}" } @unlisted));
}

done_testing();
