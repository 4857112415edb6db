# Nothing stored differently from what was sent: every type's awkward
# values (t/lib/MfFidelity.pm) go through every dialect, transport and
# insert method, under gateway session settings that change how values
# print, and what the remote stores is read with the remote's own client
# (psql, the mariadb client), never back through the FDW.  Each value
# arrives exactly, or is refused with an error and nothing stays behind.
#
# One expected difference: the oracle dialect's stand-in, like Oracle,
# stores the empty string (text and bytes) as NULL.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use MfFidelity qw(columns values_for refused_for canonical_sql normalize
  remote_ddl foreign_columns);
use Test::More;

my @SETTINGS = (
	'',
	"SET bytea_output = 'escape'",
	"SET DateStyle = 'SQL, DMY'",
	"SET IntervalStyle = 'sql_standard'",
	"SET TimeZone = 'Asia/Kolkata'",
	"SET TimeZone = 'Africa/Monrovia'",
	"SET TimeZone = 'Europe/Amsterdam'",
	'SET extra_float_digits = 0',
	'SET standard_conforming_strings = off',
);

my @TARGETS = (
	{ name => 'postgres/libpq', kind => 'pg', server => 'pg_remote', table => 'fid_pgl',
	  methods => [qw(copy pipeline values row)] },
	{ name => 'postgres/odbc', kind => 'pg', server => 'fid_pg_odbc', table => 'fid_pgo',
	  methods => [qw(values array row)] },
	{ name => 'mysql/mysql', kind => 'my', server => 'my_remote', table => 'fid_my',
	  methods => [qw(copy array values row)] },
	{ name => 'mysql/odbc', kind => 'my', server => 'fid_my_odbc', table => 'fid_myo',
	  methods => [qw(array values row)] },
	# neither dialect maps bit strings
	{ name => 'oracle/odbc', kind => 'my', server => 'fid_ora', table => 'fid_ora',
	  methods => [qw(array values row)], empty_is_null => 1, omit => ['bt'] },
	{ name => 'sqlserver/odbc', kind => 'my', server => 'fid_ms', table => 'fid_ms',
	  methods => [qw(array values row)], omit => ['bt'] },
);

# the columns a target's INSERTs send
sub sent_columns
{
	my ($t) = @_;
	my %out = map { $_ => 1 } @{ $t->{omit} // [] };
	return grep { !$out{$_} } map { $_->[0] } columns($t->{kind});
}

# combinations known to change values, "target method column" => why
# (method * for all of a target's methods)
my %KNOWN = (
	'oracle/odbc values t' => 'the stand-in types the UNION ALL of parameters as CHAR: '
	  . 'trailing blanks are cut (Oracle binds VARCHAR2/CLOB)',
	'oracle/odbc values b' => 'the stand-in types a parameter in a SELECT list as text: '
	  . 'bytes that are not UTF-8 become ? (Oracle binds RAW/BLOB)',
);

# values a target should refuse but stores changed, "target column literal"
my $NO_NEG_ZERO = 'the stand-in (MariaDB) stores -0 as 0; the dialect does not '
  . 'refuse it, since whether the real server keeps -0 is not checked here';
my %KNOWN_STORED = map { $_ => $NO_NEG_ZERO }
  "oracle/odbc f8 '-0'", "oracle/odbc f4 '-0'",
  "sqlserver/odbc f8 '-0'", "sqlserver/odbc f4 '-0'";
my %known_ids;
sub known
{
	my ($target, $method, $col) = @_;
	return $KNOWN{"$target $method $col"} // $KNOWN{"$target * $col"};
}

my $db = setup_gateway_db('mf_tap_007');
# LOAD DATA LOCAL INFILE (method copy) needs the server's local_infile
mariadb_safe('SET GLOBAL local_infile = 1');
setup_mysql_server($db);

my ($pu, $pp) = (mf_env('MF_PG_USER'), mf_env('MF_PG_PASSWORD'));
my ($mh, $mp, $md, $mu, $mw) = map { mf_env($_) }
  qw(MF_MY_HOST MF_MY_PORT MF_MY_DB MF_MY_USER MF_MY_PASSWORD);
gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER fid_pg_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', transport 'odbc', odbc_dsn 'mf_pg');
CREATE USER MAPPING FOR CURRENT_USER SERVER fid_pg_odbc
  OPTIONS (user '$pu', password '$pp');
CREATE SERVER fid_my_odbc FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', transport 'odbc', odbc_dsn 'mf_my');
CREATE USER MAPPING FOR CURRENT_USER SERVER fid_my_odbc
  OPTIONS (user '$mu', password '$mw');
CREATE SERVER fid_ora FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'oracle', transport 'odbc', odbc_driver 'MariaDB',
           host '$mh', port '$mp', database '$md',
           session_sql 'SET SESSION sql_mode = ''ORACLE,STRICT_ALL_TABLES,EMPTY_STRING_IS_NULL'', time_zone = ''+00:00''');
CREATE USER MAPPING FOR CURRENT_USER SERVER fid_ora
  OPTIONS (user '$mu', password '$mw');
CREATE SERVER fid_ms FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', transport 'odbc', odbc_driver 'MariaDB',
           host '$mh', port '$mp', database '$md',
           session_sql 'SET SESSION sql_mode = ''MSSQL,STRICT_ALL_TABLES'', time_zone = ''+00:00''');
CREATE USER MAPPING FOR CURRENT_USER SERVER fid_ms
  OPTIONS (user '$mu', password '$mw');
SQL

# the source rows, one local table per kind: row k holds the k-th value
# of every column (NULL where a column has fewer)
my %nrows;
for my $kind (qw(pg my))
{
	my $v = values_for($kind);
	my @cols = map { $_->[0] } columns($kind);
	my $n = 0;
	for (values %$v) { $n = @$_ if @$_ > $n }
	$nrows{$kind} = $n;
	my @rows;
	for my $k (1 .. $n)
	{
		push @rows, '(' . join(', ', $k, map { $v->{$_}[ $k - 1 ] // 'NULL' } @cols) . ')';
	}
	gw_safe_psql("CREATE TABLE src_$kind (" . foreign_columns($kind) . ");\n"
		  . "INSERT INTO src_$kind VALUES\n  " . join(",\n  ", @rows) . ';',
		dbname => $db);
}

# the remote tables, and a foreign table per method
for my $t (@TARGETS)
{
	my $ddl = remote_ddl($t->{kind}, $t->{table});
	if ($t->{kind} eq 'pg')
	{
		remote_safe_psql("DROP TABLE IF EXISTS $t->{table}; $ddl;");
	}
	else
	{
		mariadb_safe("DROP TABLE IF EXISTS $t->{table}; $ddl");
	}
	my $schema = $t->{kind} eq 'pg' ? ", schema_name 'public'" : '';
	my $sql = '';
	for my $m (@{ $t->{methods} })
	{
		$sql .= "CREATE FOREIGN TABLE \"$t->{table}_$m\" (" . foreign_columns($t->{kind})
		  . ") SERVER $t->{server} OPTIONS (table_name '$t->{table}', insert_method '$m'$schema);\n";
	}
	gw_safe_psql($sql, dbname => $db);
}

# ids: setting * 1000 + method * 100 + row; refused values from 900000
for my $t (@TARGETS)
{
	my $s = MfTest::Session->new(dbname => $db);
	my @cols = join(', ', sent_columns($t));
	for my $si (0 .. $#SETTINGS)
	{
		for my $mi (0 .. $#{ $t->{methods} })
		{
			my $m = $t->{methods}[$mi];
			my $off = $si * 1000 + $mi * 100;
			my ($out, $err) = $s->query("RESET ALL; $SETTINGS[$si];\n"
				  . "INSERT INTO \"$t->{table}_$m\" SELECT id + $off, @cols FROM src_$t->{kind}");
			is($err, '', "$t->{name} $m under '$SETTINGS[$si]': the rows are sent");
		}
	}

	# each refused value alone, by each method
	my $id = 900000;
	for my $r (refused_for($t->{kind}))
	{
		my ($col, $lit) = @$r;
		for my $m (@{ $t->{methods} })
		{
			my $why = $KNOWN_STORED{"$t->{name} $col $lit"};
			$known_ids{"$t->{table} $id"} = 1 if $why;
			my ($out, $err) = $s->query("RESET ALL;\n"
				  . "INSERT INTO \"$t->{table}_$m\" (id, $col) VALUES (" . $id++ . ", $lit)");
		  TODO: {
				local $TODO = $why;
				like($err, qr/ERROR:  (?!.*connection)/,
					"$t->{name} $m: $col $lit is refused with an error");
			}
			note("$t->{name} $m $col $lit: " . (split /\n/, $err)[0]) if $err;
		}
	}
	$s->quit;
}

# what the gateway sent, printed canonically
my %expected;
for my $kind (qw(pg my))
{
	my $out = gw_safe_psql("$MfFidelity::PG_SETTINGS\n" . canonical_sql($kind, 'gw', "src_$kind"),
		dbname => $db);
	for my $line (split /\n/, $out)
	{
		my ($k, @v) = split /\|/, $line, -1;
		$expected{$kind}{$k} = [ map { normalize($_) } @v ];
	}
}

# what each remote stored, read by its own client
for my $t (@TARGETS)
{
	my $kind = $t->{kind};
	my @cols = map { $_->[0] } columns($kind);
	my %sent = map { $_ => 1 } sent_columns($t);
	my $out = $kind eq 'pg'
	  ? remote_safe_psql("$MfFidelity::PG_SETTINGS\n" . canonical_sql($kind, 'remote', $t->{table}))
	  : mariadb_safe(canonical_sql($kind, 'remote', $t->{table}));
	my %stored;
	for my $line (split /\n/, $out)
	{
		my ($id, @v) = split /\|/, $line, -1;
		$stored{$id} = [ map { normalize($_) } @v ];
	}
	my @left = grep { $_ >= 900000 && !$known_ids{"$t->{table} $_"} } keys %stored;
	is(scalar(@left), 0, "$t->{name}: no refused value was stored")
	  or diag("stored refused ids: @left");

	for my $si (0 .. $#SETTINGS)
	{
		for my $mi (0 .. $#{ $t->{methods} })
		{
			my $m = $t->{methods}[$mi];
			my (@diff, @known);
			for my $k (1 .. $nrows{$kind})
			{
				my $id = $si * 1000 + $mi * 100 + $k;
				my $got = $stored{$id};
				if (!$got)
				{
					push @diff, "row $k missing";
					next;
				}
				for my $c (0 .. $#cols)
				{
					next unless $sent{ $cols[$c] };
					my $want = $expected{$kind}{$k}[$c];
					$want = 'null'
					  if $t->{empty_is_null} && $want eq '' && $cols[$c] =~ /^[tb]$/;
					next if defined $got->[$c] && $got->[$c] eq $want;
					my $d = "row $k $cols[$c]: sent $want, stored " . ($got->[$c] // '(none)');
					if (known($t->{name}, $m, $cols[$c])) { push @known, $d }
					else { push @diff, $d }
				}
			}
			my $name = "$t->{name} $m under '$SETTINGS[$si]': stored exactly as sent";
			is_deeply(\@diff, [], $name) or diag(join("\n", @diff));
			my @why = map { known($t->{name}, $m, $_) // () } @cols;
			if (@why)
			{
			  TODO: {
					local $TODO = 'known silent changes: ' . join('; ', @why);
					is_deeply(\@known, [], "$name (known differences)")
					  or diag(join("\n", @known));
				}
			}
		}
	}
}

mariadb_sql('SET GLOBAL local_infile = 0');
# MF_KEEP_TABLES=1 leaves the remote tables for a look after a failure
if ($ENV{MF_KEEP_TABLES})
{
	done_testing();
	exit 0;
}
mariadb_sql('DROP TABLE IF EXISTS ' . join(', ', map { $_->{table} } grep { $_->{kind} eq 'my' } @TARGETS));
remote_psql('DROP TABLE IF EXISTS ' . join(', ', map { $_->{table} } grep { $_->{kind} eq 'pg' } @TARGETS));
done_testing();
