# The figures the docs quote are the code's: README's Options table against
# the option table (names, where each may be set, values, defaults), the
# connection keywords against each transport's table, and the limits that
# README and docs/*.md state (bind parameters per statement, rows per
# VALUES list, IN lists, keys, bytes) against the constants of the
# dialects, the transports and the core.  Needs no server: it reads files.
#
# Source files are found by name, or by what they define, anywhere under
# the repository (src/ may be split into folders): a file that is missing,
# or a name found twice, fails the test with a message saying so.  A doc
# sentence whose wording changed so that its figure is no longer found
# fails too: reword the pattern here along with the doc.
use strict;
use warnings;
use File::Find;
use FindBin;
use Test::More;

my $root = "$FindBin::Bin/..";

# ---------------------------------------------------------------------
# reading the tree
# ---------------------------------------------------------------------

my @sources;
find(
	{
		wanted => sub {
			if (-d $_ && $_ ne '.' && /^(\.|tmp_check$|results$|log$|debian$)/)
			{
				$File::Find::prune = 1;
				return;
			}
			push @sources, $File::Find::name if -f $_ && /\.[ch]$/;
		},
		no_chdir => 0,
	},
	$root);

sub slurp
{
	my ($path) = @_;
	open(my $fh, '<', $path) or die "cannot read $path: $!";
	local $/;
	my $text = <$fh>;
	close $fh;
	return $text;
}

# C text without comments, so that a figure in a comment is never read
sub code
{
	my ($path) = @_;
	my $text = slurp($path);
	$text =~ s{/\*.*?\*/}{ }gs;
	$text =~ s{//[^\n]*}{}g;
	return $text;
}

my %by_name;
push @{ $by_name{ (split m{/}, $_)[-1] } }, $_ for @sources;

# the one file of this name under the repository
sub source_named
{
	my ($name) = @_;
	my $found = $by_name{$name} || [];
	BAIL_OUT("no file named $name under $root") if !@$found;
	BAIL_OUT("several files named $name: @$found") if @$found > 1;
	return $found->[0];
}

my %code_of;
sub code_of { my ($p) = @_; return $code_of{$p} //= code($p); }

# every source file whose text (comments removed) matches the pattern
sub sources_matching
{
	my ($re) = @_;
	return grep { code_of($_) =~ $re } sort @sources;
}

# an integer expression of the C source: digits, * / + -, parentheses,
# casts, INT64CONST, U/L suffixes, and the #defines of the tree
my %defines;
for my $f (@sources)
{
	my $t = code_of($f);
	while ($t =~ /^[ \t]*#define[ \t]+(\w+)[ \t]+([^\n]+)$/mg)
	{
		my ($k, $v) = ($1, $2);
		$v =~ s/\s+$//;
		$defines{$k} = $v if $k =~ /^[A-Z]/ && !exists $defines{$k};
	}
}
$defines{PG_INT32_MAX} = '2147483647';
$defines{INT_MAX} = '2147483647';

sub c_value
{
	my ($expr, $depth) = @_;
	$depth //= 0;
	die "cannot evaluate $expr" if $depth > 8;
	my $e = $expr;
	$e =~ s/INT64CONST\(([^()]*)\)/$1/g;
	$e =~ s/\((?:size_t|int|long|int64|double)\)//g;
	$e =~ s/\b(\d+(?:\.\d+)?)[UL]+\b/$1/g;
	$e =~ s/"//g;
	$e =~ s/\b([A-Za-z_]\w*)\b/exists $defines{$1} ? '(' . c_value($defines{$1}, $depth + 1) . ')' : die "unknown name $1 in $expr\n"/ge;
	die "not a constant expression: $expr" if $e !~ m{^[\d\s.()*/+-]+$};
	my $v = eval $e;
	die "cannot evaluate $expr: $@" if $@;
	return $v;
}

# a doc's number: "65,535", "16777216", "0.01"
sub doc_number
{
	my ($s) = @_;
	$s =~ s/,(?=\d{3})//g;
	return $s + 0;
}

# ---------------------------------------------------------------------
# the code's facts
# ---------------------------------------------------------------------

# the option table (option.c) and its value lists
my $option_c = source_named('option.c');
my $opt_text = code_of($option_c);
my ($table) = $opt_text =~ /MfOptionDef\s+mf_options\[\]\s*=\s*\{(.*?)\n\};/s
  or BAIL_OUT("no mf_options[] table in $option_c");
my %ctx_letter = (MF_CTX_SERVER => 'S', MF_CTX_USER => 'U',
	MF_CTX_TABLE => 'T', MF_CTX_COLUMN => 'C');

sub letters
{
	my ($flags, $map) = @_;
	my %set;
	for my $f (split /\s*\|\s*/, $flags)
	{
		$f =~ s/^\s+|\s+$//g;
		die "unknown flag $f" if !$map->{$f};
		$set{ $map->{$f} } = 1;
	}
	return join('', sort keys %set);
}

# a value list: in option.c, or (the insert methods' names, which the
# counters share) in stats.c
sub string_array
{
	my ($text, $name) = @_;
	my $pattern = qr/\b\Q$name\E\[\]\s*=\s*\{(.*?)\}/s;
	my ($body) = $text =~ $pattern;
	($body) = code_of(source_named('stats.c')) =~ $pattern if !defined $body;
	die "no array $name" if !defined $body;
	return [ $body =~ /"([^"]*)"/g ];
}

my %core;    # name => {where, kind, min, max, values}
my @core_order;
while ($table =~ /CORE\(\s*"(\w+)"\s*,\s*([^,]+?)\s*,\s*(\w+)\s*,\s*([^,]+?)\s*,\s*([^,]+?)\s*,\s*(\w+)\s*\)/g)
{
	my ($name, $ctx, $kind, $min, $max, $vals) = ($1, $2, $3, $4, $5, $6);
	$kind =~ s/^MF_OPT_//;
	$core{$name} = {
		where => letters($ctx, \%ctx_letter),
		kind => $kind,
		min => c_value($min),
		max => c_value($max),
		values => $vals eq 'NULL' ? undef : string_array($opt_text, $vals),
	};
	push @core_order, $name;
}
cmp_ok(scalar @core_order, '>=', 20, "option.c's table read: @{[scalar @core_order]} options");

# the defaults: the block of option_read.c that fills them in
my $read_c = source_named('option_read.c');
my ($defaults) = code_of($read_c) =~ /memset\(opts, 0, sizeof\(\*opts\)\);\n(.*?)\n\s*\n/s
  or BAIL_OUT("no block of defaults in $read_c");
my %default;
while ($defaults =~ /opts->(\w+)\s*=\s*([^;]+);/g)
{
	my ($name, $v) = ($1, $2);
	next if !$core{$name};
	if ($v eq 'true' || $v eq 'false') { $default{$name} = $v; }
	elsif ($v =~ /^MF_(?:INSERT|SAMPLE)_(\w+)$/) { $default{$name} = lc $1; }
	else { $default{$name} = c_value($v); }
}
# what the block leaves at zero: the booleans read into opts are false
my %read_bool = map { $_ => 1 } code_of($read_c) =~ /opts->(\w+)\s*=\s*mf_parse_bool\(/g;
for my $name (@core_order)
{
	$default{$name} //= 'false' if $read_bool{$name};
}
ok(exists $default{batch_size} && exists $default{fetch_size},
	"option_read.c's defaults read");

# settings (DefineCustom*Variable): name => default
my %guc;
for my $f (sources_matching(qr/DefineCustom\w+Variable/))
{
	my $t = code_of($f);
	while ($t =~ /DefineCustom(\w+)Variable\(\s*"([\w.]+)"\s*,(.*?)\);/sg)
	{
		my ($type, $name, $args) = ($1, $2, $3);
		my @a = map { s/^\s+|\s+$//gr } split /,(?=(?:[^"]*"[^"]*")*[^"]*$)/, $args;
		# description, long description, &variable, boot value, ...
		$guc{$name} = $a[3];
		$guc{$name} = c_value($a[3]) if $type eq 'Int';
	}
}

# dialects and transports: the members of their routine tables
my (%dialect, %transport);
for my $f (sources_matching(qr/const\s+Mf(?:Dialect|Transport)\s+mf_(?:dialect|transport)_\w+\s*=\s*\{/))
{
	my $t = code_of($f);
	while ($t =~ /const\s+Mf(Dialect|Transport)\s+mf_(?:dialect|transport)_(\w+)\s*=\s*\{(.*?)\n\};/sg)
	{
		my ($what, $id, $body) = ($1, $2, $3);
		my %m;
		while ($body =~ /\.(\w+)\s*=\s*([^,\n]+?)\s*,?\s*$/mg)
		{
			$m{$1} = $2;
		}
		$m{file} = $f;
		my $name = ($m{name} // '') =~ s/"//gr;
		($what eq 'Dialect' ? \%dialect : \%transport)->{ $name || $id } = \%m;
	}
}
is_deeply([ sort keys %dialect ], [qw(mysql oracle postgres sqlserver)],
	'the four dialects found');
is_deeply([ sort keys %transport ], [qw(libpq mysql odbc)],
	'the three transports found');

sub member
{
	my ($obj, $m) = @_;
	my $v = $obj->{$m};
	return 0 if !defined $v;
	return c_value($v);
}
my %limit;
$limit{"$_.max_params"} = member($dialect{$_}, 'max_params') for keys %dialect;
$limit{"$_.max_rows"} = member($dialect{$_}, 'max_rows_per_insert') for keys %dialect;
$limit{"$_.max_in_list"} = member($dialect{$_}, 'max_in_list') for keys %dialect;
$limit{"transport.$_.max_params"} = member($transport{$_}, 'max_params') for keys %transport;

# buffer.c's mf_max_params: the smaller of the dialect's and the transport's
sub params_of
{
	my ($d, $t) = @_;
	my ($a, $b) = ($limit{"$d.max_params"}, $limit{"transport.$t.max_params"});
	return $b if $a <= 0;
	return $a if $b <= 0;
	return $a < $b ? $a : $b;
}

# connection keywords: transport => {name => {where, su, values}}
my %kw;
my %kw_letter = (MF_KW_SERVER => 'S', MF_KW_USER => 'U');
for my $tname (sort keys %transport)
{
	my $array = $transport{$tname}{keywords}
	  or BAIL_OUT("transport $tname has no keywords member");
	my ($f) = sources_matching(qr/MfConnKeyword\s+\Q$array\E\[\]\s*=\s*\{/);
	BAIL_OUT("no keyword table $array") if !$f;
	my $t = code_of($f);
	my %macro;
	while ($t =~ /^[ \t]*#define[ \t]+(\w+)\(([^)]*)\)[ \t]+(\{[^\n]*\})/mg)
	{
		$macro{$1} = [ [ map { s/\s//gr } split /,/, $2 ], $3 ];
	}
	my ($body) = $t =~ /MfConnKeyword\s+\Q$array\E\[\]\s*=\s*\{(.*?)\n\};/s;
	for my $entry ($body =~ /(\{[^{}]*\}|\w+\([^()]*\))/g)
	{
		if ($entry =~ /^(\w+)\((.*)\)$/s)
		{
			my ($m, $args) = ($1, $2);
			die "unknown macro $m in $f" if !$macro{$m};
			my @args = map { s/^\s+|\s+$//gr } split /,(?=(?:[^"]*"[^"]*")*[^"]*$)/, $args;
			my ($params, $text) = @{ $macro{$m} };
			for my $i (0 .. $#$params)
			{
				$text =~ s/\b\Q$params->[$i]\E\b/$args[$i]/g;
			}
			$entry = $text;
		}
		next if $entry =~ /^\{\s*NULL\s*\}$/;
		$entry =~ /^\{\s*"(\w+)"\s*,\s*([^,]+?)\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\}$/
		  or die "cannot read keyword entry $entry in $f";
		$kw{$tname}{$1} = {
			where => letters($2, \%kw_letter),
			su => $4 eq 'true',
			values => $5 eq 'NULL' ? undef : string_array($t, $5),
		};
	}
	cmp_ok(scalar keys %{ $kw{$tname} }, '>=', 4, "$tname keywords read from $array");
}

# ---------------------------------------------------------------------
# README's Options table
# ---------------------------------------------------------------------

my $readme = slurp("$root/README.md");
my ($options) = $readme =~ /\n## Options\n(.*?)\n## /s
  or BAIL_OUT('README has no "## Options" section');
my @rows;
for my $line (split /\n/, $options)
{
	next if $line !~ /^\|/ || $line =~ /^\|\s*(option|---)/;
	my $l = $line =~ s/^\|\s*|\s*\|\s*$//gr;
	my @cells = split /\s+\|\s+/, $l;
	is(scalar @cells, 5, "README option row has five cells: $cells[0]");
	push @rows, \@cells;
}

sub ticked { my ($s) = @_; return ($s =~ /`([a-z_][a-z0-9_]*)`/g); }
sub sorted_ticked { my @t = ticked(@_); return sort @t; }

# where: "S, T", or "S (`sslcert`, `sslkey`: S or U; `sslpassword`: U)"
sub doc_where
{
	my ($cell, $name) = @_;
	my ($base, $paren) = $cell =~ /^([^(]*?)\s*(?:\((.*)\))?$/;
	my $w = join '', sort grep { /^[SUTC]$/ } split /[\s,]+/, $base;
	for my $part (split /;\s*/, $paren // '')
	{
		my ($names, $where) = split /:\s*/, $part, 2;
		next if !defined $where;
		$w = join '', sort grep { /^[SUTC]$/ } split /[\s,]+|\bor\b/, $where
		  if grep { $_ eq $name } ticked($names);
	}
	return $w;
}

my %documented;    # name => row
my %doc_kw;        # transport => {name => 1}
my %doc_su;        # transport => {name => 1}
my %doc_kw_values; # name => [values]
for my $row (@rows)
{
	my ($names, $where, $values, $def, $meaning) = @$row;
	if ($names =~ /^(\w+) keywords$/)
	{
		my $t = $1;
		ok($transport{$t}, "README's \"$t keywords\" names a transport");
		for my $n (ticked($meaning))
		{
			$documented{$n} //= $row;
			$doc_kw{$t}{$n} = 1;
			is(doc_where($where, $n), $kw{$t}{$n} ? $kw{$t}{$n}{where} : '?',
				"README: where $t keyword $n may be set");
		}
		# "`a`, `b` and `c` are superuser-only"
		for my $clause ($values =~ /([^;(]*?)\s+(?:are|is)\s+superuser-only/g)
		{
			$doc_su{$t}{$_} = 1 for ticked($clause);
		}
		# "`ssl_mode` is one of `a`, `b`", "`zero_date` is `null` or `error`"
		while ($values =~ /`(\w+)` is (?:one of )?((?:`\w+`(?:,\s*|\s+or\s+)?)+)/g)
		{
			$doc_kw_values{$1} = [ sorted_ticked($2) ];
		}
		$doc_su{$t} //= {};
		next;
	}
	my @n = ticked($names);
	ok(@n, "README option row names options: $names");
	for my $n (@n)
	{
		$documented{$n} = $row;
		next if $core{$n};
		# a keyword of several transports: "Every transport." / "libpq and mysql."
		my @ts = $meaning =~ /every transport/i ? keys %transport
		  : grep { $meaning =~ /\b\Q$_\E\b/ } keys %transport;
		ok(@ts, "README says which transports take $n");
		for my $t (@ts)
		{
			$doc_kw{$t}{$n} = 1;
			is(doc_where($where, $n), $kw{$t}{$n} ? $kw{$t}{$n}{where} : '?',
				"README: where $t keyword $n may be set");
		}
	}
}

# every option of the code is documented, and every documented one exists
for my $n (@core_order)
{
	ok($documented{$n}, "option $n (option.c) is in README's Options table");
}
for my $t (sort keys %kw)
{
	is_deeply([ sort keys %{ $doc_kw{$t} || {} } ], [ sort keys %{ $kw{$t} } ],
		"README lists exactly the $t transport's keywords");
	is_deeply([ sort keys %{ $doc_su{$t} || {} } ],
		[ sort grep { $kw{$t}{$_}{su} } keys %{ $kw{$t} } ],
		"README names exactly the $t keywords that are superuser-only");
	for my $n (sort keys %{ $kw{$t} })
	{
		next if !$kw{$t}{$n}{values};
		is_deeply($doc_kw_values{$n}, [ sort @{ $kw{$t}{$n}{values} } ],
			"README lists the values of $t keyword $n");
	}
}
for my $n (sort keys %documented)
{
	ok($core{$n} || grep({ $kw{$_}{$n} } keys %kw),
		"README's option $n exists in the code");
}

# where, values and default of each core option
for my $n (@core_order)
{
	my $row = $documented{$n} or next;
	my (undef, $where, $values, $def) = @$row;
	my $o = $core{$n};
	is(doc_where($where, $n), $o->{where}, "README: where $n may be set");
	if ($o->{kind} eq 'INT')
	{
		my @range = $values =~ /([\d,]+)\s*(?:–|-)\s*([\d,]+)/;
		is_deeply([ map { doc_number($_) } @range ], [ $o->{min}, $o->{max} ],
			"README: the range of $n");
	}
	elsif ($o->{kind} eq 'ENUM')
	{
		is_deeply([ sorted_ticked($values) ], [ sort @{ $o->{values} } ],
			"README: the values of $n");
	}
	elsif ($o->{kind} eq 'BOOL') { like($values, qr/^boolean$/, "README: $n is a boolean"); }
	elsif ($o->{kind} eq 'REAL') { like($values, qr/number ≥ 0/, "README: $n is a number of at least 0"); }
	elsif ($o->{kind} eq 'DIALECT' || $o->{kind} eq 'TRANSPORT')
	{
		my $set = $o->{kind} eq 'DIALECT' ? \%dialect : \%transport;
		is_deeply([ sorted_ticked($values) ], [ sort keys %$set ], "README: the values of $n");
	}

	# the default
	if (my ($setting) = $def =~ /the setting `(multi_fdw\.\w+)`/)
	{
		my ($num) = $def =~ /\(([\d,.]+)\)/;
		ok(defined $num && exists $guc{$setting} && doc_number($num) == $guc{$setting},
			"README: the default of $n is ${setting}'s, "
			  . ($guc{$setting} // 'undefined'));
	}
	elsif (exists $default{$n})
	{
		my $code = $default{$n};
		my ($doc) = $def =~ /^`?([\w.,]+)`?/;
		if ($code =~ /^[\d.]+$/)
		{
			ok(defined $doc && doc_number($doc) == $code,
				"README: the default of $n is $code (README: $def)");
			if (my ($mb) = $def =~ /\((\d+) MB\)/)
			{
				is($mb * 1024 * 1024, $code, "README: ${n}'s default in MB");
			}
		}
		else
		{
			is($doc, $code, "README: the default of $n");
		}
	}
}

# the transports' own defaults of the dialects
if (my $row = $documented{transport})
{
	for my $d (sort keys %dialect)
	{
		my $t = ($dialect{$d}{default_transport} // '') =~ s/"//gr;
		like($row->[3], qr/`\Q$d\E`(?:\s+and\s+`\w+`)?→`\Q$t\E`/,
			"README: the default transport of $d is $t");
	}
}

# ---------------------------------------------------------------------
# the limits the docs quote
# ---------------------------------------------------------------------

my %doc;
sub doc_text
{
	my ($file) = @_;
	return $doc{$file} //= slurp("$root/$file") =~ s/\s+/ /gr;
}

# each: a doc, a pattern capturing the figures (with surrounding words, so
# that a changed wording is noticed), and the code's figures
my $odbc = $limit{'transport.odbc.max_params'};
my $mb = 1024 * 1024;
my $oracle_rows = int(params_of('oracle', 'odbc') / 3);
my @facts = (
	[ 'README.md', qr/bind parameters per statement \(([\d,]+) for PostgreSQL\)/,
		$limit{'postgres.max_params'} ],
	[ 'README.md', qr/rows per VALUES list \(([\d,]+) for SQL Server\)/,
		$limit{'sqlserver.max_rows'} ],
	[ 'README.md', qr/For PostgreSQL that is min\(`batch_size`, ([\d,]+) \/ number of columns\)/,
		$limit{'postgres.max_params'} ],
	[ 'README.md', qr/multi-row VALUES split under ([\d,]+) placeholders/,
		$limit{'mysql.max_params'} ],
	[ 'README.md', qr/multi-row VALUES of at most ([\d,]+) rows and ([\d,]+) parameters/,
		$limit{'sqlserver.max_rows'}, params_of('sqlserver', 'odbc') ],
	[ 'README.md', qr/at most ([\d,]+) binds, and the odbc transport's ([\d,]+) parameters/,
		$limit{'oracle.max_params'}, $odbc ],
	[ 'README.md', qr/multi-row VALUES \(at most ([\d,]+) parameters per statement/, $odbc ],
	[ 'README.md', qr/transport's ([\d,]+)-parameter ceiling/, $odbc ],
	[ 'README.md', qr/doubles it, up to (\d+) × `fetch_size`/, c_value('MF_FETCH_GROWTH') ],
	[ 'docs/architecture.md', qr/It declares `max_params` \(([\d,]+)/, $odbc ],
	[ 'docs/odbc.md', qr/declares `max_params = ([\d,]+)`/, $odbc ],
	[ 'docs/odbc.md', qr/([\d,]+) rows of two columns, ([\d,]+) of one/,
		int($odbc / 2), $odbc ],
	[ 'docs/odbc.md', qr/with ([\d,]+) parameters or more the connection is lost/, $odbc + 1 ],
	[ 'docs/odbc.md', qr/at most ([\d,]+) sets and (\d+) MB of values per `SQLExecute`/,
		c_value('MFODBC_ARRAY_MAX'), c_value('MFODBC_ARRAY_BYTES') / $mb ],
	[ 'docs/odbc.md', qr/checks every (\d+) ms whether the user cancelled/,
		c_value('MFODBC_WATCH_TICK_MS') ],
	[ 'docs/oracle.md', qr/at most ([\d,]+) binds, and the odbc transport takes at most ([\d,]+) parameters/,
		$limit{'oracle.max_params'}, $odbc ],
	[ 'docs/oracle.md', qr/a 30,000-row batch is sent as (\d+) statements of ([\d,]+) rows and one of ([\d,]+)/,
		int(30000 / $oracle_rows), $oracle_rows, 30000 % $oracle_rows ],
	[ 'docs/sqlserver.md', qr/takes at most ([\d,]+) rows in a VALUES list/,
		$limit{'sqlserver.max_rows'} ],
	[ 'docs/sqlserver.md', qr/the dialect keeps to ([\d,]+) parameters/,
		$limit{'sqlserver.max_params'} ],
	[ 'docs/sqlserver.md', qr/a statement holds at most ([\d,]+) rows and at most ([\d,]+) \/ columns rows \(([\d,]+) rows of three columns\)/,
		$limit{'sqlserver.max_rows'}, params_of('sqlserver', 'odbc'),
		int(params_of('sqlserver', 'odbc') / 3) ],
	[ 'docs/mysql.md', qr/the ([\d,]+)-placeholder cap of `values`/, $limit{'mysql.max_params'} ],
	[ 'docs/mysql.md', qr/with 100 columns `array` still sends a whole batch per round trip \(([\d,]+) rows by default, cut only by `max_allowed_packet` and the ([\d,]+) rows of a packet\), where `values` sends statements of ([\d,]+)/,
		$default{batch_size} * $default{pipeline_depth}, c_value('MFMY_ARRAY_MAX_SETS'),
		int($limit{'mysql.max_params'} / 100) ],
	[ 'docs/mysql.md', qr/holds up to `batch_size` × `pipeline_depth` rows \(([\d,]+) by default/,
		$default{batch_size} * $default{pipeline_depth} ],
	[ 'docs/mysql.md', qr/a packet also holds at most ([\d,]+) rows/, c_value('MFMY_ARRAY_MAX_SETS') ],
	[ 'README.md', qr/`LOAD DATA LOCAL INFILE` statements of (\d+) MB of rows each/,
		c_value('MFMY_LOAD_BYTES') / $mb ],
	[ 'docs/mysql.md', qr/sends each (\d+) MB of rows as one `LOAD DATA LOCAL/,
		c_value('MFMY_LOAD_BYTES') / $mb ],
	[ 'docs/mysql.md', qr/kept per connection, by their SQL text \((\d+) at most, and (\d+) MB of text/,
		c_value('MFMY_CACHE_MAX'), c_value('MFMY_CACHE_BYTES') / $mb ],
	[ 'docs/mysql.md', qr/reads what the killed statement still sends \(at most (\d+) seconds\)/,
		c_value('MFMY_SETTLE_MS') / 1000 ],
	[ 'docs/postgres.md', qr/are cached per connection, keyed by their text: up to (\d+),/,
		c_value('MFPQ_CACHE_MAX') ],
	[ 'docs/postgres.md', qr/If the remote does not wind down within (\d+) seconds/,
		c_value('MFPQ_SETTLE_MS') / 1000 ],
	[ 'docs/postgres.md', qr/has not taken the rest of the data (\d+) seconds after the cancel/,
		c_value('MFPQ_COPY_SETTLE_MS') / 1000 ],
	[ 'docs/transactions.md', qr/a commit that finds it over (\d+) MB/, c_value('MF_LOG_COMPACT_AT') / $mb ],
	[ 'docs/pushdown.md', qr/A list holds at most ([\d,]+) keys where the rows come back through a cursor/,
		c_value('MF_DEPJOIN_LIST') ],
	[ 'docs/pushdown.md', qr/([\d,]+) where the transport streams any result without one/,
		c_value('MF_DEPJOIN_LIST_STREAMED') ],
	[ 'docs/pushdown.md', qr/the dialect's list takes \(Oracle: ([\d,]+)\)/,
		$limit{'oracle.max_in_list'} ],
	[ 'docs/pushdown.md', qr/\(SQL Server: ([\d,]+) values\)/, params_of('sqlserver', 'odbc') ],
	[ 'docs/pushdown.md', qr/`multi_fdw.dependent_join_max_keys`, default ([\d,]+)\)/,
		$guc{'multi_fdw.dependent_join_max_keys'} ],
	[ 'docs/postgres.md', qr/`fdw_startup_cost` \(([\d.]+)\) to start/, $default{fdw_startup_cost} ],
	[ 'docs/postgres.md', qr/`fdw_tuple_cost` \(([\d.]+)\) per row/, $default{fdw_tuple_cost} ],
	[ 'docs/postgres.md', qr/The first batches are `fetch_size` rows \(([\d,]+) by default\); each next one is twice as big, up to (\d+) × `fetch_size`/,
		$default{fetch_size}, c_value('MF_FETCH_GROWTH') ],
	[ 'docs/postgres.md', qr/libpq's side holds at most (\d+) MB of them/,
		c_value('MF_STREAM_SPILL_MAX') / $mb ],
	[ 'docs/postgres.md', qr/`batch_bytes`\*\* \((\d+) MB by default\)/, $default{batch_bytes} / $mb ],
	[ 'docs/postgres.md', qr/Data is handed to libpq in (\d+) kB chunks/, c_value('MF_COPY_CHUNK') / 1024 ],
	[ 'docs/postgres.md', qr/shortened to ([\d,]+) characters/, c_value('MF_CONTEXT_SQL_LEN') ],
	[ 'docs/monitoring.md', qr/multi_fdw.stats_max = (\d+)/, $guc{'multi_fdw.stats_max'} ],
	[ 'docs/transactions.md', qr/every `multi_fdw.resolver_naptime` seconds \((\d+)\)/,
		$guc{'multi_fdw.resolver_naptime'} ],
);

for my $fact (@facts)
{
	my ($file, $re, @want) = @$fact;
	my @got;
	my $text = doc_text($file);
	my $n = 0;
	while ($text =~ /$re/g)
	{
		$n++;
		my $said = $&;
		my @m = map { doc_number($_) } grep { defined } @{^CAPTURE};
		is_deeply(\@m, \@want, "$file says \"$said\": the code says @want");
	}
	ok($n, "$file still says what $re finds (reword the pattern with the doc)")
	  if !$n;
}

# no doc still quotes the odbc transport's old ceiling
for my $file ('README.md', map { "docs/$_" } grep { /\.md$/ } do {
		opendir(my $dh, "$root/docs") or die $!;
		readdir $dh;
	})
{
	unlike(doc_text($file), qr/32,?767 (?:parameters|placeholders)|transport's 32,?767/,
		"$file quotes no 32,767-parameter ceiling");
}

done_testing();
