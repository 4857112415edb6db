package FuzzOracles;

# The oracles of t/013_pushdown_fuzz.pl beyond "the local copy answers
# the same", and what prints a failure small:
#   same()          two answers alike, in order or as multisets
#   internal_error() an error that is a bug whatever the reference says
#   derive_tlp()    ternary logic partitioning: Q against the UNION ALL of
#                   Q WHERE p, Q WHERE NOT p, Q WHERE p IS NULL
#   derive_norec()  count(*) WHERE p against sum(CASE WHEN p ...) of all rows
#   reduce_query()  delta debugging of the query: drop clauses, conjuncts,
#                   output columns and sort keys while it still fails
#   reduce_ids()    delta debugging of the data: drop rows while it fails
#   report_table()  queries per shape and dialect, shipped / local

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(same show internal_error derive_tlp derive_norec reduce_query
  reduce_ids report_table);

sub same
{
	my ($x, $y, $ordered) = @_;
	my @x = $ordered ? @$x : sort @$x;
	my @y = $ordered ? @$y : sort @$y;
	return join("\n", @x) eq join("\n", @y);
}

sub show
{
	my ($rows) = @_;
	my @r = @$rows;
	my $more = @r > 40 ? "\n    ... (" . (@r - 40) . ' more rows)' : '';
	@r = @r[ 0 .. 39 ] if @r > 40;
	return join('', map { "\n    $_" } @r) . $more;
}

# an error's SQLSTATE and message that are a defect by themselves
my $INTERNAL = qr/cache lookup failed|found in non-Agg plan node|variable not found in subplan target list|unrecognized node type|server closed the connection|connection to server was lost|terminated by signal|crash of another server process/i;

sub internal_error
{
	my ($sqlstate, $msg) = @_;
	return 1 if defined $sqlstate && $sqlstate eq 'XX000';
	return defined $msg && $msg =~ $INTERNAL;
}

sub _where
{
	my ($w, $p) = @_;
	return " WHERE ($p)" unless defined $w && $w ne '';
	return " WHERE ($w) AND ($p)";
}

# TLP of a query with parts (sel, from, where): the three partitions by p,
# recombined so that the answer must be Q's.  Aggregates of the partitions
# are combined by their own kind (count by sum, min by min, max by max).
sub derive_tlp
{
	my ($q, $p) = @_;
	my $pt = $q->{parts};
	my @conds = ($p, "NOT ($p)", "($p) IS NULL");
	if ($pt->{agg})
	{
		my @items = split /, (?=(?:count|min|max)\()/, $pt->{sel};
		my @outer = map {
			my $c = "a$_";
			$items[$_] =~ /^count/ ? "coalesce(sum($c), 0)" : $items[$_] =~ /^min/ ? "min($c)" : "max($c)"
		} 0 .. $#items;
		my $inner = join(', ', map { "$items[$_] AS a$_" } 0 .. $#items);
		my $u = join(' UNION ALL ', map { "SELECT $inner FROM $pt->{from}" . _where($pt->{where}, $_) } @conds);
		return { %$q, shape => $q->{shape}, oracle => 'TLP',
			sql => 'SELECT ' . join(', ', @outer) . " FROM ($u) tlp", ordered => 1 };
	}
	my $distinct = $pt->{sel} =~ s/^DISTINCT //r;
	my $op = $distinct eq $pt->{sel} ? 'UNION ALL' : 'UNION';
	my $sql = join(" $op ", map { "SELECT $distinct FROM $pt->{from}" . _where($pt->{where}, $_) } @conds);
	return { %$q, oracle => 'TLP', sql => $sql, ordered => 0 };
}

# NoREC: the count of a filter, computed as the filter and as a sum over
# every row (which no remote WHERE can shorten); both must equal Q's count
sub derive_norec
{
	my ($q, $p) = @_;
	my $pt = $q->{parts};
	my $w = defined $pt->{where} && $pt->{where} ne '' ? " WHERE $pt->{where}" : '';
	return (
		{ %$q, oracle => 'NoREC', sql => "SELECT count(*) FROM $pt->{from}" . _where($pt->{where}, $p),
		  ordered => 1 },
		{ %$q, oracle => 'NoREC', sql => "SELECT coalesce(sum(CASE WHEN $p THEN 1 ELSE 0 END), 0) "
			  . "FROM $pt->{from}$w", ordered => 1 });
}

# --- delta debugging -------------------------------------------------------------

# the top level of a statement: its clauses by keyword, outside
# parentheses and quotes
my @CLAUSES = ('SELECT', 'FROM', 'WHERE', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', 'OFFSET',
	'FETCH');

sub _depth_map
{
	my ($s) = @_;
	my @d;
	my ($depth, $quote) = (0, 0);
	for my $i (0 .. length($s) - 1)
	{
		my $ch = substr($s, $i, 1);
		if ($quote) { $quote = 0 if $ch eq "'"; }
		elsif ($ch eq "'") { $quote = 1; }
		elsif ($ch eq '(') { $depth++; }
		elsif ($ch eq ')') { $depth--; }
		push @d, ($quote || $ch eq "'") ? -1 : $depth;
	}
	return @d;
}

# split at the top-level occurrences of a separator regex
sub _split_top
{
	my ($s, $sep) = @_;
	my @d = _depth_map($s);
	my @parts;
	my $last = 0;
	while ($s =~ /$sep/g)
	{
		my ($from, $to) = (0 + $-[0], 0 + $+[0]);
		next if $d[$from] != 0;
		push @parts, substr($s, $last, $from - $last);
		$last = $to;
	}
	push @parts, substr($s, $last);
	return @parts;
}

# clause => text, for a plain SELECT (undef for anything else)
sub _clauses
{
	my ($sql) = @_;
	return undef unless $sql =~ /^SELECT /;
	my @d = _depth_map($sql);
	my @at;
	my $kw = join('|', map { s/ /\\s+/r } @CLAUSES);
	while ($sql =~ /\b($kw)\b/g)
	{
		my ($at, $name) = ($-[0], $1);
		push @at, [ $at, uc($name) =~ s/\s+/ /r ] if $d[$at] == 0;
	}
	while ($sql =~ /\b(UNION|INTERSECT|EXCEPT)\b/g)
	{
		return undef if $d[ $-[0] ] == 0;
	}
	my %c;
	my @order;
	for my $k (0 .. $#at)
	{
		my $end = $k < $#at ? $at[ $k + 1 ][0] : length($sql);
		my $name = $at[$k][1];
		return undef if exists $c{$name};
		$c{$name} = substr($sql, $at[$k][0] + length($name) + 1, $end - $at[$k][0] - length($name) - 1) =~ s/\s+$//r;
		push @order, $name;
	}
	return [ \%c, \@order ];
}

sub _join
{
	my ($c, $order) = @_;
	return join(' ', map { "$_ $c->{$_}" } grep { defined $c->{$_} } @$order);
}

# the smaller queries one step from q: [sql, ordered]
sub _candidates
{
	my ($sql, $ordered) = @_;
	my $p = _clauses($sql) or return ();
	my ($c, $order) = @$p;
	my @out;
	my $limited = grep { defined $c->{$_} } qw(LIMIT OFFSET FETCH);
	for my $k (qw(LIMIT OFFSET FETCH HAVING WHERE))
	{
		next unless defined $c->{$k};
		# (a HAVING, LIMIT or WHERE dropped keeps the order total)
		push @out, [ _join({ %$c, $k => undef }, $order), $ordered ];
	}
	if (defined $c->{'ORDER BY'} && !$limited)
	{
		push @out, [ _join({ %$c, 'ORDER BY' => undef }, $order), 0 ];
		my @keys = _split_top($c->{'ORDER BY'}, qr/,\s*/);
		# a shorter order is not total any more
		push @out, map { my $i = $_; [ _join({ %$c, 'ORDER BY' => join(', ', @keys[ grep { $_ != $i } 0 .. $#keys ]) }, $order), 0 ] }
		  0 .. $#keys if @keys > 1;
	}
	for my $k (qw(WHERE HAVING))
	{
		next unless defined $c->{$k};
		my @conj = _split_top($c->{$k}, qr/\s+AND\s+/i);
		next unless @conj > 1;
		push @out, map { my $i = $_; [ _join({ %$c, $k => join(' AND ', @conj[ grep { $_ != $i } 0 .. $#conj ]) }, $order), $ordered ] }
		  0 .. $#conj;
	}
	if (!defined $c->{'GROUP BY'} && !defined $c->{'ORDER BY'})
	{
		my ($dist, $list) = $c->{SELECT} =~ /^(DISTINCT\s+)?(.*)$/s;
		my @cols = _split_top($list, qr/,\s*/);
		push @out, map { my $i = $_; [ _join({ %$c, SELECT => ($dist // '') . join(', ', @cols[ grep { $_ != $i } 0 .. $#cols ]) }, $order), $ordered ] }
		  0 .. $#cols if @cols > 1;
	}
	return @out;
}

# the shortest query that still fails: one step at a time while one fails
# (a greedy ddmin over clauses), at most $budget tries
sub reduce_query
{
	my ($sql, $ordered, $fails, $budget) = @_;
	$budget //= 40;
	my $tries = 0;
	STEP: while ($tries < $budget)
	{
		for my $cand (_candidates($sql, $ordered))
		{
			last STEP if ++$tries > $budget;
			if ($fails->($cand->[0], $cand->[1]))
			{
				($sql, $ordered) = @$cand;
				next STEP;
			}
		}
		last;
	}
	return ($sql, $ordered, $tries);
}

# ddmin over a set of row ids: $drop->(ids) removes rows and says whether
# the failure is still there (else it has put them back)
sub reduce_ids
{
	my ($ids, $drop, $budget) = @_;
	$budget //= 80;
	my @cur = @$ids;
	my $n = 2;
	my $tries = 0;
	while (@cur >= 1 && $tries < $budget)
	{
		my $size = int((@cur + $n - 1) / $n);
		my $dropped = 0;
		for (my $s = 0; $s < @cur; $s += $size)
		{
			last if ++$tries > $budget;
			my @chunk = @cur[ $s .. ($s + $size - 1 > $#cur ? $#cur : $s + $size - 1) ];
			if ($drop->(\@chunk))
			{
				my %gone = map { $_ => 1 } @chunk;
				@cur = grep { !$gone{$_} } @cur;
				$n = $n > 2 ? $n - 1 : 2;
				$dropped = 1;
				last;
			}
		}
		next if $dropped;
		last if $size == 1;
		$n = $n * 2 > @cur ? scalar(@cur) : $n * 2;
	}
	return (\@cur, $tries);
}

# queries per shape and dialect: "n/s" (n run, s shipped)
sub report_table
{
	my ($count, $shipped, $dialects) = @_;
	my @shapes = sort keys %$count;
	my $w = 16;
	my $out = sprintf("%-22s", 'shape \\ dialect') . join('', map { sprintf(" %${w}s", $_) } @$dialects) . "\n";
	for my $s (@shapes)
	{
		$out .= sprintf("%-22s", $s) . join('', map {
			my $n = $count->{$s}{$_} // 0;
			sprintf(" %${w}s", $n ? "$n/" . ($shipped->{$s}{$_} // 0) : '-')
		} @$dialects) . "\n";
	}
	return $out . "(queries run / queries whose remote SQL holds the shape's operation)\n";
}

1;
