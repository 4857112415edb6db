package MfFidelity;

# The values t/009_value_fidelity.pl sends, and how each side prints them
# so that what the remote stores can be compared with what was sent.
#
# Two kinds of remote: 'pg' (the remote PostgreSQL) and 'my' (MariaDB, and
# its Oracle- and MSSQL-mode stand-ins).  Each column has its awkward
# values; a value is good for a kind (it must arrive exactly) or refused by
# it (it must fail with an error, leaving nothing behind).
#
# canonical_sql(kind, side) is a SELECT list that prints a row as one
# line, the same for the same value whether the gateway prints its source
# table ('gw') or the remote's own client prints the remote table
# ('remote'): text and bytes as hex (md5 when long), floats by their bits
# (on MariaDB as its shortest exact text, turned into bits here), dates and
# times in ISO form in UTC.

use strict;
use warnings;
use Exporter 'import';
use POSIX ();

our @EXPORT_OK = qw(columns values_for refused_for canonical_sql normalize
  remote_ddl foreign_columns);

# name, PostgreSQL type, MariaDB type (undef: not on MariaDB)
our @COLUMNS = (
	[ t  => 'text',             'longtext' ],
	[ b  => 'bytea',            'longblob' ],
	[ i2 => 'smallint',         'smallint' ],
	[ i4 => 'integer',          'int' ],
	[ i8 => 'bigint',           'bigint' ],
	[ n  => 'numeric',          'decimal(65,30)' ],
	[ f8 => 'double precision', 'double' ],
	[ f4 => 'real',             'float' ],
	[ d  => 'date',             'date' ],
	[ ts => 'timestamp(6)',     'datetime(6)' ],
	[ tz => 'timestamptz',      'datetime(6)' ],
	[ bo => 'boolean',          'boolean' ],
	[ u  => 'uuid',             'uuid' ],
	[ j  => 'json',             'longtext' ],
	[ bt => 'bit(16)',          'bit(16)' ],
	[ iv => 'interval',         undef ],
);

my $ALL_BYTES = q{(SELECT decode(string_agg(lpad(to_hex(g), 2, '0'), '' ORDER BY g), 'hex') FROM generate_series(0, 255) g)};

# column => [ [ SQL literal, kinds it is good for, kinds that refuse it ], ... ]
# (literals are written for standard_conforming_strings on)
my %VALUES = (
	t => [
		[ q{'plain ascii'}, 'pg my' ],
		[ q{'quote '' and "double" and `back`'}, 'pg my' ],
		[ q{E'back\\\\slash \\\\N and \\\\\\\\N'}, 'pg my' ],
		[ q{E'tab\there\nnewline\r\nend'}, 'pg my' ],
		[ q{'\N'}, 'pg my' ],
		[ q{'héllo wörld ✓ 日本 😀'}, 'pg my' ],
		[ q{''}, 'pg my' ],
		[ q{repeat('long text ✓ ', 5000)}, 'pg my' ],
		[ q{'\x41 looks like bytea'}, 'pg my' ],
		[ q{'NULL'}, 'pg my' ],
		[ q{'  trailing blanks  '}, 'pg my' ],
	],
	b => [
		[ q{'\x00'}, 'pg my' ],
		[ q{'\x5c'}, 'pg my' ],
		[ q{'\xff'}, 'pg my' ],
		[ $ALL_BYTES, 'pg my' ],
		[ q{'\x'}, 'pg my' ],
		[ q{'\x5c4e0d0a09'}, 'pg my' ],
	],
	i2 => [ [ '-32768', 'pg my' ], [ '32767', 'pg my' ], [ '0', 'pg my' ] ],
	i4 => [ [ '-2147483648', 'pg my' ], [ '2147483647', 'pg my' ] ],
	i8 => [ [ '-9223372036854775808', 'pg my' ], [ '9223372036854775807', 'pg my' ] ],
	n => [
		[ '12345678901234567890123456789012345.123456789012345678901234567890', 'pg my' ],
		[ '-0.000000000000000000000000000001', 'pg my' ],
		[ '99999999999999999999999999999999999', 'pg my' ],
		[ '0', 'pg my' ],
		[ q{'NaN'}, 'pg', 'my' ],
		[ q{'Infinity'}, 'pg', 'my' ],
	],
	f8 => [
		[ '0.1', 'pg my' ],
		[ '0.30000000000000004', 'pg my' ],
		[ '1e23', 'pg my' ],
		[ '1.7976931348623157e308', 'pg my' ],
		[ '2.2250738585072014e-308', 'pg my' ],
		[ '5e-324', 'pg my' ],
		[ '3.141592653589793', 'pg my' ],
		[ '123456789012345680', 'pg my' ],
		[ q{'-0'}, 'pg', 'my' ],
		[ q{'NaN'}, 'pg', 'my' ],
		[ q{'Infinity'}, 'pg', 'my' ],
		[ q{'-Infinity'}, 'pg', 'my' ],
	],
	f4 => [
		[ '0.1', 'pg my' ],
		[ '1.1754944e-38', 'pg my' ],
		[ '1.4e-45', 'pg my' ],
		[ '16777216', 'pg my' ],
		[ '3.4028233e38', 'pg my' ],
		[ '3.4028235e38', 'pg', 'my' ],
		[ q{'-0'}, 'pg', 'my' ],
		[ q{'NaN'}, 'pg', 'my' ],
	],
	d => [
		[ q{'0001-01-01'}, 'pg my' ],
		[ q{'9999-12-31'}, 'pg my' ],
		[ q{'2024-02-29'}, 'pg my' ],
		[ q{'1000-01-01'}, 'pg my' ],
		[ q{'4713-01-01 BC'}, 'pg', 'my' ],
		[ q{'infinity'}, 'pg', 'my' ],
	],
	ts => [
		[ q{'0001-01-01 00:00:00'}, 'pg my' ],
		[ q{'9999-12-31 23:59:59.999999'}, 'pg my' ],
		[ q{'1970-01-01 00:00:00.000001'}, 'pg my' ],
		[ q{'2000-02-29 12:34:56.5'}, 'pg my' ],
		[ q{'0044-03-15 12:00:00 BC'}, 'pg', 'my' ],
		[ q{'-infinity'}, 'pg', 'my' ],
	],
	tz => [
		[ q{'2024-03-10 02:30:00+05:30'}, 'pg my' ],
		[ q{'1900-01-01 00:00:00+05:53:28'}, 'pg my' ],
		[ q{'1970-01-01 00:00:00-00:44:30'}, 'pg my' ],
		[ q{'1930-06-01 12:00:00+00:19:32'}, 'pg my' ],
		[ q{'0001-01-01 00:00:00+00'}, 'pg my' ],
		[ q{'9999-12-31 23:59:59.999999+00'}, 'pg my' ],
		[ q{'infinity'}, 'pg', 'my' ],
	],
	bo => [ [ 'true', 'pg my' ], [ 'false', 'pg my' ] ],
	u => [
		[ q{'00000000-0000-0000-0000-000000000000'}, 'pg my' ],
		[ q{'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'}, 'pg my' ],
		[ q{'ffffffff-ffff-ffff-ffff-ffffffffffff'}, 'pg my' ],
	],
	j => [
		[ q{'{"a": "quo\"te", "b" : [1, 2.50, null], "u": "\u00e9 ✓"}'}, 'pg my' ],
		[ q{'"  spaced  "'}, 'pg my' ],
		[ q{'[]'}, 'pg my' ],
		[ q{'{"k":"back\\\\slash\\ttab"}'}, 'pg my' ],
	],
	bt => [
		[ q{B'0000000000000101'}, 'pg my' ],
		[ q{B'1111111111111111'}, 'pg my' ],
		[ q{B'1000000000000000'}, 'pg my' ],
		[ q{B'0000000000000000'}, 'pg my' ],
	],
	iv => [
		[ q{'1 year 2 mons 3 days 04:05:06.789'}, 'pg' ],
		[ q{'-1 days +02:00:00'}, 'pg' ],
		[ q{'178000000 years'}, 'pg' ],
		[ q{'-00:00:00.000001'}, 'pg' ],
		[ q{'1 mon -1 days'}, 'pg' ],
	],
);

sub _has
{
	my ($list, $kind) = @_;
	return defined $list && grep { $_ eq $kind } split / /, $list;
}

# the columns a kind has: list of [name, local type, remote type]
sub columns
{
	my ($kind) = @_;
	return grep { $kind eq 'pg' || defined $_->[2] } @COLUMNS;
}

# the good values of a kind: { column => [ literal, ... ] }
sub values_for
{
	my ($kind) = @_;
	my %v;
	for my $c (columns($kind))
	{
		$v{ $c->[0] } = [ map { $_->[0] } grep { _has($_->[1], $kind) } @{ $VALUES{ $c->[0] } } ];
	}
	return \%v;
}

# the values a kind refuses: list of [ column, literal ]
sub refused_for
{
	my ($kind) = @_;
	my @r;
	for my $c (columns($kind))
	{
		push @r, map { [ $c->[0], $_->[0] ] } grep { _has($_->[2], $kind) } @{ $VALUES{ $c->[0] } };
	}
	return @r;
}

# CREATE TABLE for the remote (PostgreSQL or MariaDB syntax)
sub remote_ddl
{
	my ($kind, $table) = @_;
	my @cols = map { "$_->[0] " . ($kind eq 'pg' ? $_->[1] : $_->[2]) } columns($kind);
	return "CREATE TABLE $table (id int PRIMARY KEY, " . join(', ', @cols) . ')';
}

# the column list of a foreign (or local source) table
sub foreign_columns
{
	my ($kind) = @_;
	return join(', ', 'id int', map { "$_->[0] $_->[1]" } columns($kind));
}

my %GW_PG = (
	t  => q{CASE WHEN octet_length(t) > 300 THEN 'md5:' || md5(convert_to(t, 'UTF8')) ELSE encode(convert_to(t, 'UTF8'), 'hex') END},
	b  => q{CASE WHEN length(b) > 300 THEN 'md5:' || md5(b) ELSE encode(b, 'hex') END},
	n  => 'n::text',
	f8 => q{encode(float8send(f8), 'hex')},
	f4 => q{encode(float4send(f4), 'hex')},
	j  => q{encode(convert_to(j::text, 'UTF8'), 'hex')},
);

# how the gateway prints its source for MariaDB's kind, where it differs
my %GW_MY = (
	f4 => q{encode(float8send(f4::float8), 'hex')},
	d  => q{to_char(d, 'YYYY-MM-DD')},
	ts => q{to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US')},
	tz => q{to_char(tz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')},
	bo => q{CASE WHEN bo THEN '1' WHEN NOT bo THEN '0' END},
);

my %REMOTE_MY = (
	t  => q{IF(LENGTH(t) > 300, CONCAT('md5:', MD5(t)), HEX(t))},
	b  => q{IF(LENGTH(b) > 300, CONCAT('md5:', MD5(b)), HEX(b))},
	n  => 'n',
	f8 => q{CONCAT('dbl:', f8)},
	f4 => q{CONCAT('dbl:', CAST(f4 AS DOUBLE))},
	d  => q{DATE_FORMAT(d, '%Y-%m-%d')},
	ts => q{DATE_FORMAT(ts, '%Y-%m-%d %H:%i:%s.%f')},
	tz => q{DATE_FORMAT(tz, '%Y-%m-%d %H:%i:%s.%f')},
	u  => 'CAST(u AS CHAR)',
	j  => 'HEX(j)',
	bt => q{LPAD(BIN(bt), 16, '0')},
);

# One line per row: id and every column, separated by '|', NULL as NULL.
# The PostgreSQL sides need DateStyle ISO, TimeZone UTC, IntervalStyle
# postgres, extra_float_digits 3 in force (settings_sql).
sub canonical_sql
{
	my ($kind, $side, $table) = @_;
	my @items;
	for my $c (columns($kind))
	{
		my $name = $c->[0];
		my $e;
		if ($kind eq 'my' && $side eq 'remote')
		{
			$e = $REMOTE_MY{$name} // $name;
			push @items, "COALESCE($e, 'NULL')";
		}
		else
		{
			$e = ($kind eq 'my' ? $GW_MY{$name} : undef) // $GW_PG{$name} // "$name\::text";
			push @items, "coalesce($e, 'NULL')";
		}
	}
	if ($kind eq 'my' && $side eq 'remote')
	{
		return "SELECT CONCAT_WS('|', id, " . join(', ', @items) . ") FROM $table ORDER BY id";
	}
	return "SELECT concat_ws('|', id, " . join(', ', @items) . ") FROM $table ORDER BY id";
}

our $PG_SETTINGS = "SET DateStyle = ISO; SET TimeZone = 'UTC'; SET IntervalStyle = postgres; "
  . "SET extra_float_digits = 3; SET bytea_output = hex;";

# one value as printed, made comparable: lower case, decimals without
# trailing zeros, MariaDB's doubles as their bits
sub normalize
{
	my ($v) = @_;
	if ($v =~ /^dbl:(.*)$/)
	{
		my ($num, $unparsed) = POSIX::strtod($1);
		return "unparsable double $1" if $unparsed;
		return lc unpack('H*', pack('d>', $num));
	}
	$v = lc $v;
	if ($v =~ /^-?\d+\.\d+$/)
	{
		$v =~ s/0+$//;
		$v =~ s/\.$//;
	}
	return $v;
}

1;
