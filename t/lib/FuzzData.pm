package FuzzData;

# The rows t/013_pushdown_fuzz.pl queries: fz and fy (the tables of the
# first fuzzer, joined on fy.zid = fz.id) and fw, a row of every type with
# the values that break assumptions.  Each comes from a fixed generator of
# its own, so that the data do not follow the query seed.
#
# fw has four kinds: 'pg' (the remote PostgreSQL: every value, -0, NaN,
# infinities, BC dates, interval, jsonb), 'my' (MariaDB, read by the mysql
# and sqlserver dialects: what t/009_value_fidelity.pl shows it stores
# exactly), 'ora' (the oracle stand-in: also no empty strings, which
# Oracle stores as NULL) and 'tds' (the TDS endpoint, in SQL Server's
# types, %TDS_TYPE: the values of 'my' but the subnormal floats, which
# SQL Server's float and real do not hold and FreeTDS refuses to send,
# %NOT_TDS).  Each kind has its own local copy, the reference.

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(sql_str @INTS @BIGS @NUMS @FLOATS @DATES @TEXTS $COLUMNS $Y_COLUMNS
  data_rows y_rows @W_COLS w_columns w_remote_ddl w_rows w_pool);

sub sql_str { my ($s) = @_; $s =~ s/'/''/g; return "'$s'"; }

# --- fz and fy -------------------------------------------------------------------

# The numeric column has a fixed scale: MariaDB's DECIMAL prints its
# column's scale, and the foreign table's numeric(30,6) brings the local
# copy to the same.  Text: no empty string (the oracle stand-in stores it
# as NULL), trailing spaces, case and accents that a _ci collation folds.
# Floats: no -0 (MariaDB stores 0), no NaN or infinities (MariaDB has none).
our $COLUMNS = 'id int, i int, big bigint, n numeric(30,6), f float8, d date, '
  . 'b boolean, tb text, tc text, tp text';
our @INTS = (0, 1, 2, 3, -1, -7, 7, 13, 42, 100, -2147483648, 2147483647);
our @BIGS = (0, 1, -1, 5, 99, 1000000000000, '-9223372036854775808',
	'9223372036854775807', -123456789012);
our @NUMS = ('0', '0.000001', '-0.000001', '1.5', '-1.5', '2.5', '0.5', '10',
	'123456789012345678901234.123456', '-99999999.999999');
our @FLOATS = ('0.1', '0.5', '-2.25', '1e-10', '1.5e15', '3.141592653589793',
	'100', '-0.1', '7');
our @DATES = ('2024-01-01', '2024-01-02', '2024-02-29', '1999-12-31',
	'1970-01-01', '9999-12-31', '1000-01-01', '2024-03-01');
our @TEXTS = ('Beta', 'beta', 'Délta', 'delta', 'alpha', 'Alpha', 'alpha ',
	'alpha  ', 'ÉCOLE', 'école', 'Ecole', 'zeta', 'Zeta', 'ñu', 'z', 'a_b', 'a%b',
	'x\\y');

# fz: row k from a generator of its own
sub data_rows
{
	srand(20261202);
	my $pick = sub {
		my ($nullpct, $pool) = @_;
		return 'NULL' if rand(100) < $nullpct;
		# skewed towards the head of the pool: duplicate-heavy
		my $k = int(rand(@$pool) * rand());
		return $pool->[$k];
	};
	my @rows;
	for my $id (1 .. 300)
	{
		my $b = $pick->(30, [ 'true', 'false' ]);
		push @rows, '(' . join(', ', $id,
			$pick->(25, \@INTS), $pick->(20, \@BIGS), $pick->(25, \@NUMS),
			$pick->(25, \@FLOATS),
			map({ $_ eq 'NULL' ? $_ : sql_str($_) } $pick->(20, \@DATES)),
			$b,
			map({ $_ eq 'NULL' ? $_ : sql_str($_) }
				$pick->(20, \@TEXTS), $pick->(20, \@TEXTS), $pick->(20, \@TEXTS)))
		  . ')';
	}
	return @rows;
}

# fy, joined to fz: keys that match once, many times or never (ids past
# 300), NULL keys, and values that meet fz's.
our $Y_COLUMNS = 'id int, zid int, j int, tj text, dj date';
sub y_rows
{
	srand(20261203);
	my @rows;
	for my $id (1 .. 120)
	{
		my $zid = rand(100) < 15 ? 'NULL' : 1 + int(rand(340) * rand());
		my $j = rand(100) < 25 ? 'NULL' : $INTS[ int(rand(8)) ];
		my $tj = rand(100) < 20 ? 'NULL' : sql_str($TEXTS[ int(rand(@TEXTS) * rand()) ]);
		my $dj = rand(100) < 20 ? 'NULL' : sql_str($DATES[ int(rand(@DATES)) ]);
		push @rows, "($id, $zid, $j, $tj, $dj)";
	}
	return @rows;
}

# --- fw: every type ----------------------------------------------------------------

# name, local type, MariaDB type (undef: PostgreSQL only), what the type
# has (eq: =, ord: < and sort, mm: min/max, sum: exact sum), values for
# every kind, values for 'pg' only, values not for 'ora'
our @W_COLS = (
	[ 's2', 'smallint', 'smallint', 'eq ord mm sum',
	  [ '-32768', '32767', '0', '-1', '1', '100' ] ],
	[ 'i4', 'integer', 'int', 'eq ord mm sum',
	  [ '-2147483648', '2147483647', '0', '1', '-1', '42' ] ],
	[ 'i8', 'bigint', 'bigint', 'eq ord mm sum',
	  [ '-9223372036854775808', '9223372036854775807', '0', '1', '-1', '4294967296' ] ],
	[ 'nb', 'numeric(38,10)', 'decimal(38,10)', 'eq ord mm sum',
	  [ '0', '-0.0000000001', '0.0000000001', '1234567890123456789012345678.0123456789',
		'-9999999999999999999999999999.9999999999', '1.5', '2.5', '-2.5' ] ],
	[ 'f4', 'real', 'float', 'eq ord mm',
	  [ '0.1', '-2.5', '3.4028233e38', '1.4e-45', '16777216', '0' ],
	  [ '-0', 'NaN', 'Infinity', '-Infinity' ] ],
	[ 'f8', 'double precision', 'double', 'eq ord mm',
	  [ '0.1', '0.30000000000000004', '1.7976931348623157e308', '5e-324', '-1e100', '0' ],
	  [ '-0', 'NaN', 'Infinity', '-Infinity' ] ],
	[ 'vc', 'varchar(16)', 'varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin',
	  'eq ord mm text',
	  [ 'a', 'a ', 'A', 'é', 'e', '日本', '😀', ' lead', 'a%b', "o'q" ], [], [ '' ] ],
	[ 'ch', 'char(6)', 'char(6) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin', 'eq ord mm text',
	  [ 'ab', 'AB', 'é', ' x', 'zz' ], [], [ '' ] ],
	[ 'tx', 'text', 'text CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci', 'eq ord mm text',
	  [ 'alpha', 'Alpha', 'alpha ', 'école', 'ÉCOLE', 'ß', 'ss', 'Ω' ], [], [ '' ] ],
	[ 'ba', 'bytea', 'varbinary(16)', 'eq ord',
	  [ '\\x00', '\\xff', '\\x414243', '\\x0000', '\\x61' ], [], [ '\\x' ] ],
	[ 'dt', 'date', 'date', 'eq ord mm',
	  [ '0001-01-01', '9999-12-31', '2024-02-29', '1970-01-01', '2000-01-01' ],
	  [ 'infinity', '-infinity', '4713-01-01 BC' ] ],
	[ 'ts', 'timestamp', 'datetime(6)', 'eq ord mm',
	  [ '1970-01-01 00:00:00.000001', '9999-12-31 23:59:59.999999', '2000-02-29 12:34:56.5',
		'0001-01-01 00:00:00' ], [ 'infinity', '-infinity' ] ],
	[ 'tz', 'timestamptz', 'datetime(6)', 'eq ord mm',
	  [ '2024-03-10 02:30:00+05:30', '1970-01-01 00:00:00+00', '9999-12-31 23:59:59.999999+00',
		'2000-01-01 00:00:00-08' ], [ 'infinity' ] ],
	[ 'bo', 'boolean', 'boolean', 'eq ord', [ 'true', 'false' ] ],
	[ 'uu', 'uuid', 'uuid', 'eq ord',
	  [ '00000000-0000-0000-0000-000000000000', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
		'ffffffff-ffff-ffff-ffff-ffffffffffff', '123e4567-e89b-12d3-a456-426614174000' ] ],
	[ 'js', 'json', 'longtext', '', [ '{"a": 1}', '[]', '"x"', 'null', '{"é": [1, 2.50]}' ] ],
	[ 'nx', 'numeric', undef, 'eq ord mm sum',
	  [ 'NaN', 'Infinity', '-Infinity', '1e-100', '0', '-0.5',
		'123456789012345678901234567890123456789012345678901234567890.5' ] ],
	[ 'iv', 'interval', undef, 'eq ord mm sum',
	  [ '1 year 2 mons', '-1 days +02:00:00', '00:00:00.000001', '1 mon -1 days', '30 days',
		'1 mon', '178000000 years' ] ],
	[ 'jb', 'jsonb', undef, 'eq ord', [ '{"a": 1}', '[1, 2]', '{}', 'null', '"é"' ] ],
);

# the columns of a kind: [name, local type, MariaDB type, has]
sub w_columns
{
	my ($kind) = @_;
	# (tds: the columns of 'my')
	return map { [ @$_[ 0 .. 3 ] ] } grep { $kind eq 'pg' || defined $_->[2] } @W_COLS;
}

# every value of a column, of any kind (the constants of the queries)
sub w_pool
{
	my ($name) = @_;
	my ($c) = grep { $_->[0] eq $name } @W_COLS;
	return (@{ $c->[4] }, @{ $c->[5] // [] }, @{ $c->[6] // [] });
}

# SQL Server's types for fw on the TDS endpoint (t/testbed/tds-endpoint),
# which holds kind 'my''s values: the types the sqlserver dialect maps
# ours to (docs/sqlserver.md), so that its constants (CAST(... AS real),
# datetime2, datetimeoffset, uniqueidentifier) meet columns of their type
our %NOT_TDS = (f4 => ['1.4e-45'], f8 => ['5e-324']);
our %TDS_TYPE = (s2 => 'smallint', i4 => 'int', i8 => 'bigint', nb => 'decimal(38,10)',
	f4 => 'real', f8 => 'float', vc => 'nvarchar(16)', ch => 'nchar(6)', tx => 'nvarchar(max)',
	ba => 'varbinary(16)', dt => 'date', ts => 'datetime2(6)', tz => 'datetimeoffset(6)',
	bo => 'bit', uu => 'uniqueidentifier', js => 'nvarchar(max)');

# kind 'pg', 'my' or 'ora' (MariaDB's types), or 'tds' (SQL Server's)
sub w_remote_ddl
{
	my ($kind, $table) = @_;
	my $type = sub { $kind eq 'pg' ? $_[0][1] : $kind eq 'tds' ? $TDS_TYPE{ $_[0][0] } : $_[0][2] };
	return "CREATE TABLE $table (id int PRIMARY KEY, "
	  . join(', ', map { "$_->[0] " . $type->($_) } w_columns($kind)) . ')';
}

# 64 rows; each column walks its pool at a pace of its own, with NULLs
sub w_rows
{
	my ($kind) = @_;
	my @cols = grep { $kind eq 'pg' || defined $_->[2] } @W_COLS;
	my @rows;
	for my $id (1 .. 64)
	{
		my @v = ($id);
		my $c = 0;
		for my $col (@cols)
		{
			$c++;
			my @pool = (@{ $col->[4] }, $kind eq 'pg' ? @{ $col->[5] // [] } : (),
				$kind ne 'ora' ? @{ $col->[6] // [] } : ());
			if ($kind eq 'tds')
			{
				my %out = map { $_ => 1 } @{ $NOT_TDS{ $col->[0] } // [] };
				@pool = grep { !$out{$_} } @pool;
			}
			if (($id * 7 + $c * 3) % 8 == 0)
			{
				push @v, 'NULL';
				next;
			}
			my $val = $pool[ ($id * (2 * $c + 1) + $c) % @pool ];
			push @v, $col->[1] eq 'boolean' ? $val : sql_str($val) . "::$col->[1]";
		}
		push @rows, '(' . join(', ', @v) . ')';
	}
	return @rows;
}

1;
