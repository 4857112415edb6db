package FuzzShapes;

# The queries of t/013_pushdown_fuzz.pl, as users write them.  A query is
# a hash:
#   shape    its name in the report
#   sql      the statement(s) whose output is the answer
#   ordered  1 when the answer's order is the query's (a total ORDER BY)
#   pre/post statements around it (PREPARE, BEGIN, DECLARE / DEALLOCATE,
#            COMMIT), their output not part of the answer
#   explain  the statement whose plan says what was shipped (default sql)
#   parts    { sel, from, where, agg } for the TLP and NoREC oracles
#   only     the dialects it runs on (columns the others do not have)
# Tables are placeholders: <T> fz, <U> fy (of T's server, or of another
# server or local in the cross-server targets), <V> fy of T's server, <W>
# fw (every type).  Expressions in {} overflow on edge values (see gen_query).

use strict;
use warnings;
use Exporter 'import';
use FuzzData;

our @EXPORT = qw(gen_query gen_join_query gen_user_query gen_wide_query gen_keys_query gen_expr_query gen_derived_query gen_window_query gen_pred
  pick chance shuffle SHAPES);

sub pick { return $_[ int(rand(@_)) ]; }
sub chance { return rand() < $_[0]; }

sub shuffle
{
	my @a = @_;
	for (my $i = $#a; $i > 0; $i--)
	{
		my $j = int(rand($i + 1));
		@a[ $i, $j ] = @a[ $j, $i ];
	}
	return @a;
}

my @TEXT_COLS = qw(tb tc tp);

# Most constructs keep a mysql query local (text without text_pushdown,
# %, /, functions, avg); in a portable query each piece is one that every
# dialect with pushdown ships, so that the shipped paths get exercised too.
my $portable = 0;

# a condition on one column (or two joined by AND/OR)
sub gen_cond
{
	my ($depth) = @_;
	$depth //= 0;
	if ($depth < 1 && chance(0.25))
	{
		my $op = pick('AND', 'OR');
		return '(' . gen_cond($depth + 1) . " $op " . gen_cond($depth + 1) . ')';
	}
	my $kind = int(rand(11));
	$kind = pick(1, 3, 4, 5, 6, 7, 10) if $portable;
	my $cmp = pick('=', '<>', '<', '<=', '>', '>=');
	return pick('i', 'big', 'n', 'f', 'd', 'b', @TEXT_COLS) . pick(' IS NULL', ' IS NOT NULL')
	  if $kind == 0;
	return "i $cmp " . pick(@INTS) if $kind == 1;
	return "i % 7 $cmp " . (int(rand(13)) - 6) if $kind == 2;
	return "big $cmp " . pick(@BIGS) if $kind == 3;
	return "n $cmp " . pick(@NUMS) if $kind == 4;
	return "f $cmp " . pick(@FLOATS) if $kind == 5;
	return "d $cmp " . sql_str(pick(@DATES)) if $kind == 6;
	return pick('b', 'NOT b', 'b IS TRUE', 'b IS NOT FALSE', 'b = false') if $kind == 7;
	# arithmetic that overflows on the edge values must fail as it does here
	return pick('{i + 1}', '{i - 1}', '{i * 2}', '{-i}', '{big + 1}', '{big * 3}', '{-big}',
		'n * 2', 'n + i', '{big - i}') . " $cmp " . pick(0, 1, -5, 100) if $kind == 8;
	if ($kind == 9)
	{
		my $e = pick([ '{abs(i)}', 7 ], [ 'coalesce(i, 0)', 0 ], [ 'length(tb)', 5 ],
			[ 'lower(tb)', "'beta'" ], [ 'upper(tc)', "'ÉCOLE'" ], [ "tb || 'x'", "'alphax'" ],
			[ 'd + 1', "'2024-01-02'" ], [ 'd - 1', "'1999-12-31'" ],
			[ "d - date '2000-01-01'", 0 ]);
		return "$e->[0] $cmp $e->[1]";
	}
	my $c = pick(@TEXT_COLS);
	return pick("tb $cmp " . sql_str(pick(@TEXTS)), 'tb IS NULL', '{big - i} > 0') if $portable;
	return pick("$c $cmp " . sql_str(pick(@TEXTS)),
		"$c IN (" . join(', ', map { sql_str(pick(@TEXTS)) } 1 .. 3) . ')',
		"$c LIKE " . sql_str(pick('a%', 'A%', '%a', '_eta', 'é%', '%a ', 'a\\_b', 'a\\%%',
			'%\\\\%', 'x\\\\y')),
		"$c NOT LIKE " . sql_str(pick('%a%', 'É%')),
		"$c ILIKE " . sql_str(pick('alpha%', 'école', '%ETA')));
}

sub gen_where
{
	return '' unless chance(0.6);
	# now and then a filter that nothing passes: aggregates over no rows
	return ' WHERE i > 2147483647' if chance(0.05);
	return ' WHERE ' . gen_cond();
}

my @GROUP_KEYS = ('i', 'i % 7', 'i / 3', 'big', 'big % 5', 'big / 1000', 'n', 'd',
	'b', 'tb', 'tc', 'tp', 'f', '{i + 1}', '{big * 2}', '{-i}', 'n * 3',
	'coalesce(i, -1)', 'lower(tc)', 'd + 1');

# float8 is left out of sum and avg: engines that add in another order
# may differ in the last digits, and exact agreement is the point here;
# min and max of floats pick a value and must be exact
sub gen_agg
{
	my $k = int(rand(15));
	$k = pick(0, 1, 3, 5, 6, 8, 11) if $portable;
	return 'count(*)' if $k == 0;
	return 'count(' . pick('i', 'n', 'd', 'b', 'f', @TEXT_COLS) . ')' if $k == 1;
	return 'count(DISTINCT ' . pick('i', 'big', 'n', 'd', 'f', 'i % 7', @TEXT_COLS) . ')'
	  if $k == 2;
	return 'sum(' . ($portable ? pick('i', 'big', '{big - i}') :
		  pick('i', 'big', 'n', 'i % 7', 'big / 1000', '{i + 1}', '{i * 2}', 'n * i')) . ')'
	  if $k == 3;
	return 'avg(' . pick('i', 'big', 'n', 'i % 7') . ')' if $k == 4;
	return pick('min', 'max') . '(' . ($portable ? pick('i', 'big', 'n', 'f', 'd', 'tb') :
		  pick('i', 'big', 'n', 'f', 'd', @TEXT_COLS, '{-i}', '{big + 1}', 'd - 1')) . ')'
	  if $k <= 6;
	return pick('bool_and', 'bool_or') . '(' . pick('b', 'i > 0', 'n IS NULL') . ')'
	  if $k == 7;
	return 'sum(DISTINCT ' . pick('i', 'big', $portable ? () : 'n') . ')' if $k == 8;
	return 'count(*) FILTER (WHERE ' . gen_cond(1) . ')' if $k == 9;
	return 'sum(i) FILTER (WHERE ' . gen_cond(1) . ')' if $k == 10;
	return 'count(' . pick('i', 'tb', 'd') . ')' if $k == 11;
	# ordered inside the call: stays local, by the docs
	return pick("string_agg(tb, ',' ORDER BY tb NULLS FIRST, id)", 'array_agg(i ORDER BY id DESC)')
	  if $k == 12;
	# exact on integers and numeric; no float8 for the same reason as sum
	return pick('stddev', 'var_samp', 'variance', 'stddev_pop') . '(' . pick('i', 'n', 'big') . ')'
	  if $k == 13;
	return pick('min', 'max') . '(' . pick('tb', 'tc') . ' COLLATE "C")';
}

sub gen_having
{
	my $k = int(rand(5));
	return 'count(*) ' . pick('>', '>=', '<') . ' ' . int(rand(20)) if $k == 0;
	return 'sum(i) ' . pick('>', '<') . ' ' . (int(rand(200)) - 100) if $k == 1;
	return 'min(d) ' . pick('>', '<=') . ' ' . sql_str(pick(@DATES)) if $k == 2;
	return 'count(DISTINCT ' . pick('i', 'tb', $portable ? () : 'tc') . ') >= ' . int(rand(3))
	  if $k == 3;
	return 'max(' . pick('n', 'big') . ') IS NOT NULL';
}

sub gen_direction
{
	return pick('', ' ASC', ' DESC') . pick('', '', ' NULLS FIRST', ' NULLS LAST');
}

# a sort key, now and then under a collation of its own (text only)
sub gen_key
{
	my ($e) = @_;
	my $coll = '';
	$coll = pick(' COLLATE "C"', ' COLLATE "POSIX"', ' COLLATE "default"')
	  if $e =~ /^(\w\.)?(tb|tc|tp|lower\(tc\))$/ && chance(0.3);
	return $e . $coll . gen_direction();
}

sub gen_limit
{
	my $k = int(rand(4));
	return ' LIMIT ' . int(rand(12)) if $k == 0;
	return ' OFFSET ' . int(rand(30)) if $k == 1;
	return ' LIMIT ' . (1 + int(rand(10))) . ' OFFSET ' . int(rand(20)) if $k == 2;
	return ' LIMIT ALL OFFSET ' . int(rand(5));
}

# Expressions in {} overflow on the edge values, and must then fail as
# they do here.  Whether they fail at all depends on which rows they are
# computed for, which PostgreSQL leaves open when another condition could
# filter first or a LIMIT could stop early (a remote sort or a presorted
# path computes fewer rows than a local sort; min and max alone become an
# ORDER BY ... LIMIT 1): a query with one keeps no other condition, no
# LIMIT/OFFSET and no min/max without GROUP BY.
sub gen_query
{
	while (1)
	{
		my $q = gen_query1();
		my $sql = $q->{sql};
		if ($sql =~ /\{/)
		{
			my ($where) = $sql =~ / WHERE (.*?)(?: GROUP BY | HAVING | ORDER BY |$)/;
			next if defined $where && ($where =~ / (AND|OR) / || $where !~ /^\{[^}]*\} \S+ \S+$/);
			next if $sql =~ / (LIMIT|OFFSET) /;
			next if $sql =~ /\b(min|max)\(/ && $sql !~ / GROUP BY /;
			$q->{sql} =~ tr/{}//d;
			delete $q->{parts};
		}
		return $q;
	}
}

# Built-in functions, casts, CASE, COALESCE and NULLIF in a condition, a
# grouping key and an aggregate's argument: what the postgres dialect ships
# (the others check them here).  t/013 draws these last, so that each
# seed's other queries, and their random draws, are as they were.
my @EXPR_VALUES = ([ 'substring(tb FROM 2 FOR 3)', "'eta'" ], [ 'substr(tc, 1, 1)', "'a'" ],
	[ 'length(tc)', 5 ], [ 'position(\'a\' IN tb)', 1 ], [ 'btrim(tb)', "'alpha'" ],
	[ 'left(tb, 2)', "'al'" ], [ 'extract(year FROM d)', 2024 ], [ 'extract(dow FROM d)', 1 ],
	[ "date_part('month', d)", 1 ], [ "date_trunc('month', d::timestamp)", "'2024-01-01'" ],
	[ 'round(n, 1)', '1.5' ], [ 'trunc(n)', 0 ], [ 'floor(f)', 0 ], [ 'abs(big)', 0 ],
	[ 'mod(i, 4)', 1 ], [ 'sign(n)', 1 ], [ 'n::int', 2 ], [ 'i::numeric / 4', '0.25' ],
	[ 'big::numeric * 2', 0 ], [ 'd::timestamp', "'2024-01-01'" ],
	[ "CASE WHEN i > 0 THEN 'p' WHEN i < 0 THEN 'm' END", "'p'" ],
	[ "CASE tb WHEN 'beta' THEN 1 WHEN 'alpha' THEN 2 ELSE 0 END", 1 ],
	[ 'CASE i WHEN 1 THEN n WHEN 2 THEN -n END', 0 ],
	[ 'CASE WHEN b THEN coalesce(i, 0) ELSE -1 END', 0 ], [ 'nullif(i, 0)', 1 ],
	[ "coalesce(tb, tc, 'none')", "'none'" ], [ 'coalesce(n, f::numeric)', 0 ]);

sub gen_expr_query
{
	my $k = int(rand(3));
	my ($e, $v) = @{ pick(@EXPR_VALUES) };
	return mkq('functions', "SELECT id FROM <T> WHERE $e " . pick('=', '<>', '<', '>=') . " $v", 0)
	  if $k == 0;
	if ($k == 1)
	{
		my $w = gen_where();
		$w = gen_where() while $w =~ /\{/;
		return mkq('functions', "SELECT $e, count(*) FROM <T>$w GROUP BY 1", 0);
	}
	my $c = gen_cond(1);
	$c = gen_cond(1) while $c =~ /\{/;
	return mkq('functions', "SELECT sum(CASE WHEN $c THEN " . pick('i', 'n', '1')
		  . " ELSE 0 END), count($e) FROM <T>", 1);
}

# Derived tables (a subquery in FROM the planner keeps), with conditions
# on their outputs that the planner copies into them or leaves outside
# (an outer join's nullable side, a LIMIT), read or not outside: what the
# postgres dialect ships whole.  t/013 draws these after everything else.
sub gen_derived_query
{
	my $k = int(rand(5));
	my $cmp = pick('=', '<>', '<', '>=');
	if ($k == 0)
	{
		my $key = pick('i % 7', 'big % 5', 'd', 'b', 'tb');
		my $w = gen_where();
		$w = gen_where() while $w =~ /\{/;
		# (an initplan in the condition: copied in, it must run once)
		my $c = pick("s.n $cmp " . int(rand(4)), "s.k IS NOT NULL", "s.t $cmp " . pick(0, 100, -5),
			"s.n > 1 AND s.t IS NULL", $key eq 'b' ? () : "s.k = (SELECT min($key) FROM <T>)");
		my $out = pick('s.k, s.n', 's.k', 's.n, s.t', 'count(*)');
		return mkq('derived', "SELECT $out FROM (SELECT $key AS k, count(*) AS n, sum(i) AS t FROM <T>$w"
			  . " GROUP BY 1) s WHERE $c", 0);
	}
	if ($k == 1)
	{
		my $jt = pick('JOIN', 'LEFT JOIN');
		my $c = pick("s.c > 1", "s.m $cmp 3", "s.m IS NULL", "coalesce(s.c, 0) < 2", "z.i > 0");
		return mkq('derived', "SELECT z.id, " . pick('s.m', 's.c', 'z.i') . " FROM <T> z $jt "
			  . "(SELECT zid, max(j) AS m, count(*) AS c FROM <U> GROUP BY zid) s ON s.zid = z.id WHERE $c", 0);
	}
	if ($k == 2)
	{
		return mkq('derived', 'SELECT id, i FROM <T> WHERE id ' . pick('IN', 'NOT IN')
			  . ' (SELECT zid FROM <U> WHERE zid IS NOT NULL GROUP BY zid HAVING count(*) '
			  . pick('>', '<=') . ' 1)', 0);
	}
	if ($k == 3)
	{
		return mkq('derived', 'SELECT count(*), sum(s.i) FROM (SELECT i FROM <T> ORDER BY id'
			  . pick('', ' DESC') . ' LIMIT ' . (1 + int(rand(40))) . ") s WHERE s.i $cmp 0", 1);
	}
	return mkq('derived', 'SELECT s.k, s.b FROM (SELECT DISTINCT i % 7 AS k, b FROM <T>) s WHERE '
		  . pick("s.k $cmp 2", 's.b', 's.k = s.k'), 0);
}

# Window functions over a total order (id last), partitioned or not, with
# or without a frame: what the postgres dialect ships in a whole query.
sub gen_window_query
{
	my $f = pick('row_number()', 'rank()', 'dense_rank()', 'sum(i)', 'count(*)', 'max(d)',
		'lag(i)', 'lead(big, 2, 0)', 'first_value(tb)', 'ntile(3)', 'min(n)', 'avg(n)');
	my $part = chance(0.5) ? 'PARTITION BY ' . pick('b', 'i % 3', 'd', 'tb') . ' ' : '';
	my $order = 'ORDER BY ' . pick('i', 'n DESC', 'd', 'big') . ', id';
	my $frame = $f =~ /^(sum|count|max|min|avg|first_value)/ && chance(0.5)
	  ? ' ' . pick('ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING', 'ROWS UNBOUNDED PRECEDING',
		'GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING', 'RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING')
	  : '';
	my $w = gen_where();
	$w = gen_where() while $w =~ /\{/;
	return mkq('window', "SELECT id, $f OVER ($part$order$frame) FROM <T>$w", 0);
}

sub mkq { my ($shape, $sql, $ordered, %more) = @_; return { shape => $shape, sql => $sql, ordered => $ordered, %more }; }

# one table: a scan, aggregates, GROUP BY, DISTINCT, LIMIT; ordered when
# the ORDER BY is total, which every query with a LIMIT or OFFSET has
sub gen_query1
{
	$portable = chance(0.4);
	my $shape = int(rand(12));
	my $where = gen_where();
	my ($w) = $where =~ /^ WHERE (.*)/;
	if ($shape == 10)
	{
		# a LIMIT with no order: which rows is open, how many is not
		return mkq('limit', 'SELECT count(*) FROM (SELECT id, i FROM <T>' . $where
			  . gen_limit() . ') s', 1);
	}
	if ($shape == 11)
	{
		my @out = (shuffle(qw(i b d tb), $portable ? () : ('tc', 'tp', 'i % 7', 'big % 5')))
		  [ 0 .. int(rand(3)) ];
		my $sql = 'SELECT DISTINCT ' . join(', ', @out) . " FROM <T>$where";
		return mkq('distinct', $sql, 0,
			parts => { sel => 'DISTINCT ' . join(', ', @out), from => '<T>', where => $w })
		  if chance(0.3);
		# (a collation would make another expression than the one selected)
		$sql .= ' ORDER BY ' . join(', ', map { $_ . gen_direction() } shuffle(@out));
		$sql .= gen_limit() if chance(0.5);
		return mkq('distinct', $sql, 1);
	}
	if ($shape <= 2)
	{
		# a plain scan, sorted or not
		my @out = shuffle(qw(i big n f d b tb), $portable ? () : qw(tc tp));
		@out = (@out[ 0 .. int(rand(4)) ], !$portable && chance(0.3) ? ('i % 7') : ());
		my $sql = 'SELECT ' . join(', ', @out) . " FROM <T>$where";
		return mkq('scan', $sql, 0, parts => { sel => join(', ', @out), from => '<T>', where => $w })
		  if chance(0.2);
		my @keys = map { gen_key($_) } (shuffle(@out))[ 0 .. int(rand(@out)) ];
		# a partial order with no limit: compared as a multiset
		return mkq('order by', "$sql ORDER BY " . join(', ', @keys), 0) if chance(0.25);
		# the unique id makes the order total
		$sql .= ' ORDER BY ' . join(', ', @keys, 'id' . pick('', ' DESC'));
		my $lim = chance(0.7) ? gen_limit() : '';
		return mkq($lim ? 'limit' : 'order by', $sql . $lim, 1);
	}
	my @aggs = map { gen_agg() } 1 .. 1 + int(rand(3));
	if ($shape == 3)
	{
		my $sql = 'SELECT ' . join(', ', @aggs) . " FROM <T>$where";
		return mkq('aggregate', "$sql HAVING " . gen_having(), 1) if chance(0.2);
		my @simple = grep { /^(count\(\*\)|min\(\w+\)|max\(\w+\)|count\(\w+\))$/ } @aggs;
		return mkq('aggregate', $sql, 1,
			@simple == @aggs ? (parts => { sel => join(', ', @aggs), from => '<T>', where => $w,
				agg => 1 }) : ());
	}
	my @keys = (shuffle($portable ? qw(i big n d b tb f) : @GROUP_KEYS))[ 0 .. int(rand(3)) ];
	my @out = shuffle(@keys, @aggs);
	my $sql = 'SELECT ' . join(', ', @out) . " FROM <T>$where GROUP BY "
	  . join(', ', @keys);
	$sql .= ' HAVING ' . gen_having() if chance(0.4);
	return mkq('group by', $sql, 0) if chance(0.25);
	# every output column: the group keys are among them, so the order is
	# total; by position or by expression
	my @order = map {
		my $p = $_;
		chance(0.5) ? ($p + 1) . gen_direction() : gen_key($out[$p])
	} shuffle(0 .. $#out);
	$sql .= ' ORDER BY ' . join(', ', @order);
	$sql .= gen_limit() if chance(0.5);
	return mkq('group by', $sql, 1);
}

# --- joins ---------------------------------------------------------------------

# the columns of a condition on fz written as those of alias z (outside
# its string literals)
sub qualify
{
	my ($sql, $alias) = @_;
	my @parts = split /('(?:[^']|'')*')/, $sql;
	for my $k (0 .. $#parts)
	{
		next if $k % 2;
		$parts[$k] =~ s/(?<![.\w])(id|i|big|n|f|d|b|tb|tc|tp)\b(?!\s*\()/$alias.$1/g;
	}
	return join('', @parts);
}

# a condition on z that cannot overflow (see gen_query)
sub gen_zcond
{
	my ($alias) = @_;
	while (1)
	{
		my $c = gen_cond(1);
		return qualify($c, $alias // 'z') unless $c =~ /\{/;
	}
}

# a predicate for TLP and NoREC: on fz (alias or none), fy or fw
sub gen_pred
{
	my ($on) = @_;
	if ($on eq 'w')
	{
		my $c;
		do { $c = gen_wcond() } while ($c =~ /\{/);
		return $c;
	}
	return gen_ycond() if $on eq 'y';
	while (1)
	{
		my $c = gen_cond();
		next if $c =~ /\{/;
		return $on eq '' ? $c : qualify($c, $on);
	}
}

sub gen_ycond
{
	my ($y) = @_;
	$y //= 'y';
	my $cmp = pick('=', '<>', '<', '>=');
	return pick("$y.j $cmp " . pick(@INTS[ 0 .. 7 ]), "$y.j IS NULL", "$y.zid IS NOT NULL",
		"$y.tj $cmp " . sql_str(pick(@TEXTS)), "$y.dj $cmp " . sql_str(pick(@DATES)),
		$portable ? () : ("$y.j % 3 = 1", "abs($y.j) = 2", "lower($y.tj) = 'beta'"));
}

sub gen_on
{
	my $on = pick('z.id = y.zid', 'z.id = y.zid', 'z.i = y.j', 'z.d = y.dj',
		'z.tb = y.tj', $portable ? () : 'z.tc = y.tj');
	# a second equality: a key of two columns
	$on .= ' AND ' . pick(grep { $_ ne $on } 'z.id = y.zid', 'z.i = y.j', 'z.d = y.dj', 'z.tb = y.tj')
	  if chance(0.25);
	$on .= ' AND ' . pick('z.i < y.j', 'y.j > 1', gen_ycond(), gen_zcond()) if chance(0.35);
	return $on;
}

sub gen_join_where
{
	my @c;
	push @c, gen_zcond() if chance(0.4);
	push @c, gen_ycond() if chance(0.3);
	return @c ? ' WHERE ' . join(' AND ', @c) : '';
}

# two or three tables
sub gen_join_query
{
	$portable = chance(0.4);
	my $shape = int(rand(6));
	my $jt = pick('JOIN', 'JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN');
	my $from = "<T> z $jt <U> y ON " . gen_on();
	if ($shape <= 1)
	{
		my @out = (shuffle(qw(z.i z.d z.tb y.j y.tj y.dj z.n)))[ 0 .. int(rand(4)) ];
		my $jw = gen_join_where();
		my $sql = 'SELECT z.id, y.id, ' . join(', ', @out) . " FROM $from$jw";
		my ($w) = $jw =~ /^ WHERE (.*)/;
		return mkq('join', $sql, 0, parts => { sel => join(', ', 'z.id', 'y.id', @out), from => $from,
			where => $w, on => 'z' }) if chance(0.3);
		my @keys = map { $_ . gen_direction() } (shuffle(@out))[ 0 .. int(rand(@out)) ];
		$sql .= ' ORDER BY ' . join(', ', @keys, 'z.id' . gen_direction(), 'y.id' . gen_direction());
		$sql .= gen_limit() if chance(0.6);
		return mkq('join', $sql, 1);
	}
	if ($shape == 2)
	{
		# three tables: the second join of another kind, on y's id
		my $jt2 = pick('JOIN', 'LEFT JOIN', 'FULL JOIN');
		my $sql = "SELECT z.id, y.id, y2.id, y2.j FROM $from $jt2 <V> y2 ON y2.zid = y.id"
		  . (chance(0.3) ? ' AND ' . gen_ycond('y2') : '') . gen_join_where();
		return mkq('join3', $sql, 0) if chance(0.5);
		return mkq('join3', "$sql ORDER BY z.id, y.id, y2.id" . gen_direction() . gen_limit(), 1);
	}
	if ($shape == 3)
	{
		my @keys = (shuffle(qw(z.i z.d z.b y.j y.dj), $portable ? () : qw(z.tc)))[ 0 .. int(rand(2)) ];
		my @aggs = map {
			pick('count(*)', 'count(y.j)', 'sum(y.j)', 'sum(z.i)', 'min(z.d)', 'max(y.dj)',
				'count(DISTINCT z.id)', 'max(z.big)', $portable ? () : ('avg(y.j)', 'min(z.tc)'))
		} 1 .. 1 + int(rand(3));
		my @out = shuffle(@keys, @aggs);
		my $sql = 'SELECT ' . join(', ', @out) . " FROM $from" . gen_join_where()
		  . ' GROUP BY ' . join(', ', @keys);
		$sql .= ' HAVING count(*) > ' . int(rand(3)) if chance(0.3);
		return mkq('join aggregate', $sql, 0) if chance(0.3);
		$sql .= ' ORDER BY ' . join(', ', map { ($_ + 1) . gen_direction() } shuffle(0 .. $#out));
		$sql .= gen_limit() if chance(0.4);
		return mkq('join aggregate', $sql, 1);
	}
	# semi and anti joins, and IN (NOT IN is not an anti join)
	my $sub = pick('EXISTS', 'NOT EXISTS', 'IN', 'NOT IN');
	my $ycond = chance(0.5) ? ' AND ' . gen_ycond() : '';
	my $pred = $sub =~ /EXISTS/
	  ? "$sub (SELECT 1 FROM <U> y WHERE " . pick('y.zid = z.id', 'y.j = z.i', 'y.tj = z.tb')
	  . "$ycond)"
	  : "z.id $sub (SELECT y.zid FROM <U> y WHERE y.id > " . int(rand(60)) . "$ycond)";
	my $sql = "SELECT z.id, z.i, z.tb FROM <T> z WHERE $pred"
	  . (chance(0.4) ? ' AND ' . gen_zcond() : '');
	return mkq('semi/anti join', $sql, 0) if chance(0.4);
	return mkq('semi/anti join', "$sql ORDER BY z.id" . gen_direction() . gen_limit(), 1);
}

# --- the shapes users write ---------------------------------------------------------

my $nq = 0;    # names of prepared statements and cursors

sub zcols { return (shuffle(qw(z.i z.big z.n z.d z.b z.tb z.f)))[ 0 .. int(rand($_[0] // 3)) ]; }
sub zw { return chance(0.5) ? ' WHERE ' . gen_zcond() : ''; }
sub order_z { return ' ORDER BY ' . join(', ', map { gen_key($_) } @_, 'z.id'); }

my %USER = (
	'whole row' => sub {
		my $k = int(rand(4));
		return mkq('whole row', 'SELECT z FROM <T> z' . zw() . order_z(), 1) if $k == 0;
		return mkq('whole row', 'SELECT z.id, y FROM <T> z LEFT JOIN <U> y ON ' . gen_on()
			  . ' ORDER BY z.id, y.id', 1) if $k == 1;
		return mkq('whole row', 'SELECT count(*), count(y), count(z) FROM <T> z ' . pick('LEFT', 'FULL')
			  . ' JOIN <U> y ON ' . gen_on() . ' WHERE y IS ' . pick('NULL', 'NOT NULL'), 1) if $k == 2;
		return mkq('whole row', 'SELECT z.id, z::text FROM <T> z WHERE z ' . pick('IS NULL', 'IS NOT NULL')
			  . ' AND ' . gen_zcond() . ' ORDER BY 1', 1);
	},
	'system columns' => sub {
		my $k = int(rand(3));
		return mkq('system columns', "SELECT z.id, z.tableoid = '<T>'::regclass, z.ctid IS NOT NULL, "
			  . join(', ', zcols()) . ' FROM <T> z' . zw() . order_z(), 1) if $k == 0;
		return mkq('system columns', "SELECT z.id, y.id, y.tableoid = '<U>'::regclass, y.ctid IS NULL"
			  . ' FROM <T> z ' . pick('JOIN', 'LEFT JOIN') . ' <U> y ON ' . gen_on()
			  . ' WHERE z.ctid IS NOT NULL ORDER BY z.id, y.id', 1) if $k == 1;
		return mkq('system columns', "SELECT z.tableoid::regclass = '<T>'::regclass, count(*) FROM <T> z"
			  . zw() . ' GROUP BY z.tableoid', 1);
	},
	'with ties' => sub {
		my $key = pick('z.i', 'z.d', 'z.b', 'z.big', 'z.n', 'z.tb', 'z.i % 3');
		return mkq('with ties', 'SELECT z.id, ' . join(', ', zcols()) . " FROM <T> z" . zw()
			  . ' ORDER BY ' . gen_key($key) . ' FETCH FIRST ' . (1 + int(rand(8))) . ' ROWS WITH TIES', 0);
	},
	'prepared limit' => sub {
		my $p = 'fzp' . $nq++;
		my $generic = chance(0.6);
		my $sql = "PREPARE $p(bigint, bigint, int) AS SELECT z.id, " . join(', ', zcols())
		  . ' FROM <T> z WHERE z.i ' . pick('>', '<', '<>', 'IS DISTINCT FROM') . ' $3'
		  . order_z(pick('z.i', 'z.d', 'z.big')) . pick(' LIMIT $1 OFFSET $2', ' LIMIT $1', ' OFFSET $2',
			' FETCH FIRST $1 ROWS ONLY');
		my @args = map { '(' . join(', ', int(rand(10)), int(rand(20)), pick(@INTS[ 0 .. 7 ], 'NULL')) . ')' } 1 .. 2;
		return mkq('prepared limit', join(";\n", map { "EXECUTE $p$_" } @args), 1,
			pre => [ $generic ? 'SET plan_cache_mode = force_generic_plan' : (), $sql ],
			explain => "EXECUTE $p$args[0]",
			post => [ "DEALLOCATE $p", 'RESET plan_cache_mode' ]);
	},
	'generic plan' => sub {
		my $p = 'fzg' . $nq++;
		my $k = int(rand(3));
		my $body = $k == 0
		  ? 'SELECT z.i, count(*), max(y.j) FROM <T> z JOIN <U> y ON z.id = y.zid WHERE y.j > $1 '
		  . 'AND z.big <> $2 GROUP BY z.i ORDER BY 1, 2, 3'
		  : $k == 1
		  ? 'SELECT z.id, y.id FROM <T> z LEFT JOIN <U> y ON z.i = y.j AND y.dj > $3 WHERE z.id < $1 '
		  . 'ORDER BY 1, 2'
		  : 'SELECT z.id FROM <T> z WHERE EXISTS (SELECT 1 FROM <U> y WHERE y.zid = z.id AND y.j <> $1)'
		  . ' AND z.i IS DISTINCT FROM $2 ORDER BY 1';
		my @args = map { '(' . join(', ', pick(@INTS[ 0 .. 9 ]), pick(@INTS[ 0 .. 9 ], 'NULL'),
				sql_str(pick(@DATES))) . ')' } 1 .. 3;
		return mkq('generic plan', join(";\n", map { "EXECUTE $p$_" } @args), 1,
			pre => [ 'SET plan_cache_mode = force_generic_plan',
				"PREPARE $p(int, bigint, date) AS $body" ],
			explain => "EXECUTE $p$args[0]",
			post => [ "DEALLOCATE $p", 'RESET plan_cache_mode' ]);
	},
	'grouping sets' => sub {
		my @k = (shuffle(qw(z.i z.b z.d z.big), $portable ? () : qw(z.tb z.tc)))[ 0 .. 1 ];
		my $gs = pick("ROLLUP ($k[0], $k[1])", "CUBE ($k[0], $k[1])",
			"GROUPING SETS (($k[0]), ($k[1]), ())", "$k[0], ROLLUP ($k[1])");
		my $agg = pick('count(*)', 'sum(z.i)', 'max(z.n)', 'min(z.d)', 'count(DISTINCT z.tb)');
		my $sql = "SELECT $k[0], $k[1], grouping($k[0], $k[1]), $agg FROM <T> z" . zw() . " GROUP BY $gs";
		$sql .= ' HAVING count(*) > 1' if chance(0.2);
		return mkq('grouping sets', $sql, 0) if chance(0.3);
		return mkq('grouping sets', "$sql ORDER BY 3, 1, 2, 4" . (chance(0.4) ? gen_limit() : ''), 1);
	},
	'window' => sub {
		my $k = int(rand(3));
		my $part = pick('', 'PARTITION BY z.b ', 'PARTITION BY z.i % 3 ', 'PARTITION BY z.tc ');
		my $fn = pick('row_number() OVER (' . $part . 'ORDER BY z.i, z.id)',
			'rank() OVER (' . $part . 'ORDER BY ' . gen_key('z.d') . ')',
			'dense_rank() OVER (' . $part . 'ORDER BY z.tb)', "sum(z.i) OVER ($part)",
			"count(*) OVER ($part)", 'lag(z.i) OVER (' . $part . 'ORDER BY z.id)',
			'first_value(z.tb) OVER (' . $part . 'ORDER BY z.id DESC)',
			'sum(z.big) OVER (ORDER BY z.d, z.id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)',
			'ntile(3) OVER (ORDER BY z.id)', "max(z.n) OVER ($part)",
			'sum(z.i) OVER (' . $part . 'ORDER BY z.d)');
		if ($k == 0)
		{
			my $sql = "SELECT z.id, $fn FROM <T> z" . zw();
			return mkq('window', $sql, 0) if chance(0.3);
			return mkq('window', "$sql ORDER BY z.id" . (chance(0.4) ? gen_limit() : ''), 1);
		}
		if ($k == 1)
		{
			# (z.id, y.id) is unique in the join: every order below is total or
			# ranks peers alike
			my $jfn = pick('row_number() OVER (PARTITION BY z.id ORDER BY y.id)',
				'count(*) OVER (PARTITION BY y.j)', 'sum(y.j) OVER (PARTITION BY z.id)',
				'rank() OVER (ORDER BY y.j)', 'lag(y.id) OVER (PARTITION BY z.id ORDER BY y.id DESC)',
				'dense_rank() OVER (PARTITION BY z.b ORDER BY y.dj)',
				'last_value(y.id) OVER (ORDER BY z.id, y.id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING)');
			return mkq('window', "SELECT z.id, y.id, $jfn FROM <T> z " . pick('JOIN', 'LEFT JOIN')
				  . ' <U> y ON ' . gen_on() . ' ORDER BY z.id, y.id', 1);
		}
		return mkq('window', 'SELECT z.i, count(*), rank() OVER (ORDER BY count(*) DESC), '
			  . 'sum(count(*)) OVER () FROM <T> z' . zw() . ' GROUP BY z.i ORDER BY z.i', 1);
	},
	'distinct on' => sub {
		my $key = pick('z.b', 'z.i', 'z.d', 'z.tb', 'z.i % 5', 'z.tc');
		my $sql = "SELECT DISTINCT ON ($key) $key, z.id, " . join(', ', zcols(2)) . ' FROM <T> z' . zw()
		  . " ORDER BY $key" . gen_direction() . ', ' . gen_key(pick('z.n', 'z.big', 'z.d')) . ', z.id';
		$sql .= gen_limit() if chance(0.3);
		return mkq('distinct on', $sql, 1);
	},
	'subquery' => sub {
		my $k = int(rand(8));
		my $yc = chance(0.5) ? ' AND ' . gen_ycond() : '';
		my $tail = ' ORDER BY z.id';
		return mkq('subquery', 'SELECT z.id, (SELECT count(*) FROM <U> y WHERE y.zid = z.id' . $yc
			  . '), (SELECT max(y.j) FROM <U> y WHERE y.j < z.i) FROM <T> z' . zw() . $tail, 1) if $k == 0;
		return mkq('subquery', 'SELECT z.id, z.i FROM <T> z WHERE z.i ' . pick('>', '=', '<=')
			  . ' (SELECT ' . pick('min', 'max') . "(y.j) FROM <U> y WHERE y.id > " . int(rand(100)) . ")$tail", 1)
		  if $k == 1;
		return mkq('subquery', 'SELECT z.id FROM <T> z WHERE ' . pick('EXISTS', 'NOT EXISTS')
			  . " (SELECT 1 FROM <U> y WHERE y.j = z.i$yc) " . pick('OR', 'AND') . ' ' . gen_zcond() . $tail, 1)
		  if $k == 2;
		return mkq('subquery', 'SELECT z.id, z.i FROM <T> z WHERE z.i ' . pick('IN', 'NOT IN')
			  . " (SELECT y.j FROM <U> y WHERE y.id " . pick('<', '>') . ' ' . int(rand(120)) . "$yc)$tail", 1)
		  if $k == 3;
		return mkq('subquery', 'SELECT z.id FROM <T> z WHERE z.i ' . pick('>', '<>', '=', '<=') . ' '
			  . pick('ALL', 'ANY') . " (SELECT y.j FROM <U> y WHERE y.zid = z.id$yc)$tail", 1) if $k == 4;
		return mkq('subquery', 'SELECT z.i, count(*) FROM <T> z GROUP BY z.i HAVING count(*) '
			  . pick('>', '<=') . " (SELECT count(*) FROM <U> y WHERE y.j = z.i$yc) ORDER BY 1", 1) if $k == 5;
		return mkq('subquery', 'SELECT z.b, count(*), (SELECT count(*) FROM <U> y WHERE y.j = min(z.i)) '
			  . 'FROM <T> z GROUP BY z.b ORDER BY 1', 1) if $k == 6;
		return mkq('subquery', 'SELECT y.id, y.j IN (SELECT z.i FROM <T> z' . zw()
			  . ') FROM <U> y ORDER BY 1', 1);
	},
	'lateral' => sub {
		my $k = int(rand(3));
		return mkq('lateral', 'SELECT z.id, l.id, l.j FROM <T> z CROSS JOIN LATERAL (SELECT y.id, y.j '
			  . 'FROM <U> y WHERE y.zid = z.id ORDER BY y.id ' . pick('DESC ', '') . 'LIMIT '
			  . (1 + int(rand(3))) . ') l' . zw() . ' ORDER BY 1, 2', 1) if $k == 0;
		return mkq('lateral', 'SELECT z.id, l.c, l.m FROM <T> z LEFT JOIN LATERAL (SELECT count(*) c, '
			  . 'max(y.dj) m FROM <U> y WHERE y.j = z.i) l ON true' . zw() . ' ORDER BY 1', 1) if $k == 1;
		return mkq('lateral', 'SELECT y.id, l.* FROM <U> y LEFT JOIN LATERAL (SELECT z.id, z.tb FROM <T> z '
			  . 'WHERE z.i = y.j ORDER BY z.id LIMIT 2) l ON true ORDER BY 1, 2', 1);
	},
	'cte' => sub {
		my $m = pick('', 'MATERIALIZED ', 'NOT MATERIALIZED ');
		my $cte = "WITH c AS ${m}(SELECT z.id, z.i, z.d, z.tb FROM <T> z" . zw() . ')';
		my $k = int(rand(3));
		return mkq('cte', "$cte SELECT c.i, count(*) FROM c GROUP BY c.i ORDER BY 1", 1) if $k == 0;
		return mkq('cte', "$cte SELECT c.id, y.id FROM c " . pick('JOIN', 'LEFT JOIN')
			  . ' <U> y ON c.id = y.zid ORDER BY 1, 2' . (chance(0.4) ? gen_limit() : ''), 1) if $k == 1;
		return mkq('cte', "$cte SELECT a.id, b.id FROM c a JOIN c b ON a.i = b.i AND a.id < b.id "
			  . 'ORDER BY 1, 2 LIMIT 20', 1);
	},
	'set operation' => sub {
		my ($l, $r) = @{ pick([ 'z.i', 'y.j' ], [ 'z.d', 'y.dj' ], [ 'z.tb', 'y.tj' ],
				[ 'z.i, z.d', 'y.j, y.dj' ], [ 'z.id', 'y.zid' ]) };
		my $op = pick('UNION', 'UNION ALL', 'INTERSECT', 'INTERSECT ALL', 'EXCEPT', 'EXCEPT ALL');
		my @sides = ("SELECT $l FROM <T> z" . zw(), "SELECT $r FROM <U> y"
			  . (chance(0.5) ? ' WHERE ' . gen_ycond() : ''));
		@sides = reverse @sides if chance(0.4);
		my $sql = "$sides[0] $op $sides[1]";
		return mkq('set operation', $sql, 0) if chance(0.4);
		my $n = () = $l =~ /,/g;
		return mkq('set operation', "$sql ORDER BY " . join(', ', map { $_ . gen_direction() } 1 .. $n + 1)
			  . (chance(0.4) ? gen_limit() : ''), 1);
	},
	'outer join 3+' => sub {
		my $j2 = pick('LEFT JOIN', 'FULL JOIN', 'RIGHT JOIN', 'JOIN');
		my $j3 = pick('LEFT JOIN', 'FULL JOIN', 'RIGHT JOIN');
		my $sql = 'SELECT z.id, y.id, y2.id, z2.id FROM <T> z ' . pick('LEFT JOIN', 'FULL JOIN', 'RIGHT JOIN')
		  . ' <U> y ON ' . gen_on() . " $j2 <V> y2 ON y2.zid = " . pick('z.id', 'y.id') . ' AND y2.j '
		  . pick('>', '<>', '<') . ' ' . pick(@INTS[ 0 .. 6 ])
		  . ($j3 && chance(0.6) ? " $j3 <T> z2 ON z2.id = " . pick('y2.id', 'y.zid', 'z.id') : ' LEFT JOIN <T> z2 ON false')
		  . (chance(0.4) ? ' WHERE ' . pick('z.id IS NOT NULL', 'y.j IS NULL', 'y2.id > 10', gen_zcond()) : '');
		return mkq('outer join 3+', $sql, 0) if chance(0.4);
		return mkq('outer join 3+', "$sql ORDER BY 1, 2, 3, 4" . (chance(0.4) ? gen_limit() : ''), 1);
	},
	'scroll cursor' => sub {
		my $c = 'fzc' . $nq++;
		my $body = pick('SELECT z.id, ' . join(', ', zcols()) . ' FROM <T> z' . zw() . order_z(),
			'SELECT z.id, y.id FROM <T> z ' . pick('JOIN', 'LEFT JOIN') . ' <U> y ON ' . gen_on()
			  . ' ORDER BY 1, 2',
			'SELECT z.i, count(*) FROM <T> z GROUP BY z.i ORDER BY 1');
		my @f = map { pick('FETCH LAST', 'FETCH BACKWARD ' . (1 + int(rand(4))), 'FETCH PRIOR',
				'FETCH ABSOLUTE ' . (int(rand(30)) - 5), 'FETCH RELATIVE ' . (int(rand(9)) - 4),
				'FETCH FIRST', 'FETCH FORWARD 2', 'MOVE LAST', 'FETCH BACKWARD ALL') . " FROM $c" }
		  1 .. 2 + int(rand(4));
		return mkq('scroll cursor', join(";\n", @f), 1,
			pre => [ 'BEGIN', "DECLARE $c SCROLL CURSOR FOR $body" ], explain => $body,
			post => [ "CLOSE $c", 'COMMIT' ]);
	},
	'row locks' => sub {
		my $lock = ' FOR ' . pick('UPDATE', 'SHARE', 'NO KEY UPDATE', 'KEY SHARE');
		my $sql = chance(0.6)
		  ? 'SELECT z.id, ' . join(', ', zcols()) . ' FROM <T> z' . zw() . order_z()
		  . (chance(0.5) ? gen_limit() : '') . $lock
		  : 'SELECT z.id, y.id FROM <T> z JOIN <U> y ON ' . gen_on() . ' ORDER BY 1, 2'
		  . (chance(0.4) ? gen_limit() : '') . $lock . pick('', ' OF z', ' OF y');
		# (sqlserver refuses row locks of its tables, as docs/sqlserver.md says)
		return mkq('row locks', $sql, 1, pre => ['BEGIN'], post => ['COMMIT'], not_on => qr/sqlserver/);
	},
);

sub SHAPES { return sort keys %USER; }

# The dependent join's shapes, generated after every other kind of query,
# so that adding them left each seed's other queries as they were.
# Joins whose foreign side F has conditions checked here (a correlated
# subquery on F's own server, <V>): the dependent join checks them on
# the rows of F its keys bring; F on the outer side of a semi join; and
# a dependent join rescanned by a SubPlan with a parameter of its own;
# and a correlated subquery on U's server in T's conditions, whose values
# the rows of T give ahead (read in one statement where U's dialect can)
sub gen_keys_query
{
	$portable = chance(0.4);
	my $k = int(rand(10));
	# (F a join of T's server's tables, X's keys in its WHERE)
	return mkq('keys shipped', 'SELECT y.id, z.id, v.id FROM <U> y JOIN <T> z ON z.id = y.zid JOIN <V> v ON v.zid = z.id'
		  . pick('', ' AND v.j ' . pick('>', '<=') . ' z.i', ' AND v.j = y.j') . pick('', ' WHERE z.i < 5', ' WHERE y.j > 2')
		  . ' ORDER BY 1, 2, 3', 1) if $k == 8;
	return mkq('keys shipped', 'SELECT y.id FROM <U> y WHERE ' . pick('EXISTS', 'NOT EXISTS')
		  . ' (SELECT 1 FROM <T> z JOIN <V> v ON v.zid = z.id WHERE z.id = y.zid AND v.j ' . pick('>', '<') . ' 3) ORDER BY 1', 1)
	  if $k == 9 && chance(0.5);
	return mkq('keys shipped', 'SELECT y.id, j.i, j.vid FROM <U> y LEFT JOIN (SELECT z.id, z.i, v.id AS vid FROM <T> z '
		  . pick('JOIN', 'LEFT JOIN') . ' <V> v ON v.zid = z.id AND v.j > z.i) j ON j.id = y.zid ORDER BY 1, 2, 3', 1) if $k == 9;
	return mkq('keys shipped', 'SELECT z.id, y.id FROM <U> y JOIN <T> z ON z.id = y.zid WHERE z.i '
		  . pick('>=', '<', '<>') . ' (SELECT ' . pick('count(*)', 'min(v.j)', 'sum(v.j)', 'max(v.j) - z.i')
		  . ' FROM <U> v WHERE v.zid = z.id' . pick('', ' AND v.j > z.i') . ') ORDER BY 1, 2', 1) if $k == 6;
	return mkq('keys shipped', 'SELECT z.id, z.i FROM <T> z WHERE z.id ' . pick('<', '>') . ' ' . int(rand(40))
		  . ' AND ' . pick('z.i', 'z.big') . ' ' . pick('>', '<=') . ' (SELECT count(*) FROM <U> v WHERE v.zid = z.id'
		  . pick('', ' AND v.j = z.i') . ') ORDER BY 1', 1) if $k == 7;
	my $yc = chance(0.5) ? ' WHERE ' . gen_ycond() : '';
	return mkq('keys shipped', 'SELECT z.id, y.id FROM <U> y JOIN <T> z ON z.id = y.zid WHERE z.i '
		  . pick('>=', '<', '<>') . ' (SELECT count(*) FROM <V> v WHERE v.zid = z.id)'
		  . ' ORDER BY 1, 2', 1) if $k == 0;
	return mkq('keys shipped', 'SELECT z.id, z.i FROM <T> z WHERE z.id ' . pick('IN', '= ANY')
		  . " (SELECT y.zid FROM <U> y$yc) AND z.i "
		  . pick('<>', '>') . ' (SELECT count(*) FROM <V> v WHERE v.zid = z.id) ORDER BY 1', 1) if $k == 1;
	return mkq('keys shipped', 'SELECT y.id, z.id FROM <U> y LEFT JOIN <T> z ON z.id = y.zid AND z.big '
		  . pick('>', '<=') . ' (SELECT min(v.j) FROM <V> v WHERE v.zid = z.id) ORDER BY 1, 2', 1) if $k == 2;
	return mkq('keys shipped', 'SELECT y.id FROM <U> y WHERE ' . pick('EXISTS', 'NOT EXISTS')
		  . ' (SELECT 1 FROM <T> z WHERE z.id = y.zid AND z.i < (SELECT count(*) FROM <V> v WHERE v.j = z.i))'
		  . ' ORDER BY 1', 1) if $k == 3;
	# (X a join whose inner side reads the SubPlan's parameter: a hash
	# join there must build its table again for each value)
	return mkq('keys shipped', 'SELECT g.g, (SELECT count(*) FROM <T> z JOIN (SELECT y.zid FROM <U> y '
		  . 'JOIN <U> y2 ON y2.id = y.j WHERE y2.j ' . pick('<>', '>') . ' g.g OFFSET 0) x ON z.id = x.zid) '
		  . 'FROM (VALUES (0), (1), (2), (3)) g(g) ORDER BY 1', 1) if $k == 4;
	return mkq('keys shipped', 'SELECT z.id FROM <T> z WHERE (z.id, z.i) IN (SELECT y.zid, y.j FROM <U> y'
		  . "$yc) ORDER BY 1", 1);
}

sub gen_user_query
{
	$portable = chance(0.4);
	my $shape = pick(sort keys %USER);
	return $USER{$shape}->();
}

# --- fw: values that break assumptions -----------------------------------------------

sub has { my ($c, $what) = @_; return $c->[3] =~ /\b$what\b/; }

sub wlit
{
	my ($c) = @_;
	my $v = pick(w_pool($c->[0]));
	return $c->[1] eq 'boolean' ? $v : sql_str($v) . "::$c->[1]";
}

# a condition on one column of fw
sub gen_wcond
{
	my @cols = grep { has($_, 'eq') } @W_COLS;
	my $c = pick(@cols);
	my $n = $c->[0];
	my $k = int(rand(6));
	return "$n IS " . pick('NULL', 'NOT NULL') if $k == 0;
	return "$n " . pick('=', '<>', 'IS DISTINCT FROM') . ' ' . wlit($c) if $k <= 2 || !has($c, 'ord');
	return "$n " . pick('<', '<=', '>', '>=') . ' ' . wlit($c) if $k == 3;
	return "$n IN (" . join(', ', map { wlit($c) } 1 .. 3) . ')' if $k == 4;
	# (in braces: may overflow, see gen_query)
	return pick("{$n = -$n}", "{$n + $n > $n}") if has($c, 'sum');
	return pick('length(' . $n . ') < 2', "$n LIKE 'a%'", "$n = upper($n)") if has($c, 'text');
	return "$n BETWEEN " . wlit($c) . ' AND ' . wlit($c);
}

# An expression that prints equal values alike: GROUP BY, DISTINCT, min and
# max pick any of the equal values (-0 and 0, '30 days' and '1 mon')
sub canon
{
	my ($n) = @_;
	return "($n + 0)" if $n =~ /^f[48]$/;
	return "extract(epoch FROM $n)" if $n eq 'iv';
	return $n;
}

# queries on fw, with the columns of kind my unless pg-only ones are named
sub gen_wide_query
{
	my @cols = @W_COLS;
	my $c = pick(@cols);
	my $n = $c->[0];
	my $k = int(rand(7));
	my $where = chance(0.6) ? ' WHERE ' . gen_wcond() : '';
	my ($w) = $where =~ /^ WHERE (.*)/;
	my $q;
	if ($k == 0)
	{
		my @out = (shuffle(map { $_->[0] } @cols))[ 0 .. 2 ];
		$q = chance(0.3)
		  ? mkq('values', 'SELECT id, ' . join(', ', @out) . " FROM <W>$where", 0,
			parts => { sel => join(', ', 'id', @out), from => '<W>', where => $w, on => 'w' })
		  : mkq('values', 'SELECT id, ' . join(', ', @out) . " FROM <W>$where ORDER BY id", 1);
	}
	elsif ($k == 1 && has($c, 'ord'))
	{
		$q = mkq('values', "SELECT id, $n FROM <W>$where ORDER BY $n" . gen_direction() . ', id'
			  . (chance(0.5) ? gen_limit() : ''), 1);
	}
	elsif ($k == 2 && has($c, 'eq'))
	{
		$q = mkq('values', 'SELECT ' . canon($n) . ", count(*), min(id) FROM <W>$where GROUP BY $n", 0);
	}
	elsif ($k == 3 && has($c, 'mm'))
	{
		my $sel = 'min(' . canon($n) . '), max(' . canon($n) . "), count($n), count(*)";
		$q = mkq('values', "SELECT $sel FROM <W>$where", 1,
			parts => { sel => $sel, from => '<W>', where => $w,
				on => 'w', agg => 1 });
	}
	elsif ($k == 4 && has($c, 'sum'))
	{
		$q = mkq('values', "SELECT sum($n), avg($n), count(DISTINCT $n) FROM <W>$where", 1);
	}
	elsif ($k == 5 && has($c, 'eq'))
	{
		$q = mkq('values', 'SELECT DISTINCT ' . canon($n) . " FROM <W>$where", 0,
			parts => { sel => 'DISTINCT ' . canon($n), from => '<W>', where => $w, on => 'w' });
	}
	else
	{
		$q = mkq('values', "SELECT w FROM <W> w$where ORDER BY id", 1);
	}
	if ($q->{sql} =~ /\{/)
	{
		# an overflow alone: no LIMIT, no other condition
		return gen_wide_query() if $q->{sql} =~ / (LIMIT|OFFSET) /;
		$q->{sql} =~ tr/{}//d;
		delete $q->{parts};
	}
	$q->{only} = ['postgres'] if grep { $q->{sql} =~ /\b\Q$_->[0]\E\b/ && !defined $_->[2] } @W_COLS;
	return $q;
}

1;
