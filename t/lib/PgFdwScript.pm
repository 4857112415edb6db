# postgres_fdw's own regression script, run through both wrappers on one
# gateway and compared statement by statement.
#
# The script (contrib/postgres_fdw/sql/postgres_fdw.sql) is read from a
# PostgreSQL source tarball at test time; it is never copied into the
# project.  It runs once as written, through postgres_fdw, and once adapted
# to multi_fdw: the wrapper, extension and function names, `dialect
# 'postgres'` on every server, and nothing else, so that the options
# multi_fdw does not have stay visible as errors.  Both talk to the
# gateway's own database through a loopback server, as the script means
# them to (its servers name no host: the gateway's socket folder is added,
# to both).
#
# Each statement's output is compared: same (or the same rows in another
# order), EXPLAIN (both succeed), both error, only multi_fdw errors, or
# different.  A crash of the gateway, an internal error (XX000, "cache lookup
# failed", "... found in non-Agg plan node", "unrecognized node type") in
# multi_fdw's run, is reported as such.
package PgFdwScript;

use strict;
use warnings;
use Carp;
use File::Temp qw(tempdir);
use IPC::Run;
use Exporter 'import';

our @EXPORT_OK = qw(find_tarball script_from_tarball split_statements
  adapt_for_multi_fdw adapt_host run_statements compare_runs read_differences
  listed_reason);

# The tarball for a gateway of major version $major: 15 and 16 take 16.13's
# script (15's is not at hand), 17 17.9's, 18 18.3's.  Searched in
# MF_PG_SOURCES, then in a pg/ folder of a directory beside the project.
sub find_tarball
{
	my ($major, $root) = @_;
	my %version = (15 => '16.13', 16 => '16.13', 17 => '17.9', 18 => '18.3');
	my $v = $version{$major} or return;
	my @dirs = grep { defined && $_ ne '' } ($ENV{MF_PG_SOURCES});
	push @dirs, glob("$root/../*/pg");
	for my $d (@dirs)
	{
		my $f = "$d/postgresql-$v.tar.xz";
		return ($f, $v) if -f $f;
	}
	return;
}

sub script_from_tarball
{
	my ($tarball, $version) = @_;
	my $member = "postgresql-$version/contrib/postgres_fdw/sql/postgres_fdw.sql";
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'tar', '-xJOf', $tarball, $member ], '>', \$out, '2>', \$err)
	  or croak "could not read $member from $tarball: $err";
	return $out;
}

# The script as a list of pieces: a psql meta-command line, or an SQL
# statement up to its semicolon (with a COPY ... FROM stdin's data up to
# its \. line).  Quotes, dollar quotes and comments are followed so that a
# semicolon inside them does not end a statement.
sub split_statements
{
	my ($text) = @_;
	my @pieces;
	my $cur = '';
	my @lines = split /\n/, $text, -1;
	my $i = 0;
	my ($in_quote, $dollar, $in_comment) = ('', undef, 0);
	while ($i < @lines)
	{
		my $line = $lines[$i++];
		if ($cur =~ /^\s*$/ && !$in_comment && $line =~ /^\s*\\/)
		{
			push @pieces, $line;
			$cur = '';
			next;
		}
		my $pos = 0;
		my $len = length $line;
		while ($pos < $len)
		{
			my $c = substr($line, $pos, 1);
			my $two = substr($line, $pos, 2);
			if ($in_comment)
			{
				if ($two eq '*/') { $in_comment--; $pos += 2; next; }
				if ($two eq '/*') { $in_comment++; $pos += 2; next; }
				$pos++;
				next;
			}
			if (defined $dollar)
			{
				if (substr($line, $pos, length $dollar) eq $dollar)
				{
					$pos += length $dollar;
					$dollar = undef;
					next;
				}
				$pos++;
				next;
			}
			if ($in_quote ne '')
			{
				if ($c eq $in_quote)
				{
					if (substr($line, $pos + 1, 1) eq $in_quote)
					{
						$pos += 2;	# a doubled quote
						next;
					}
					$in_quote = '';
				}
				$pos++;
				next;
			}
			if ($two eq '--') { last; }
			if ($two eq '/*') { $in_comment = 1; $pos += 2; next; }
			if ($c eq "'" || $c eq '"') { $in_quote = $c; $pos++; next; }
			if ($c eq '$' && substr($line, $pos) =~ /^(\$[A-Za-z_]*\$)/)
			{
				$dollar = $1;
				$pos += length $1;
				next;
			}
			if ($c eq ';')
			{
				my $stmt = $cur . substr($line, 0, $pos + 1);
				my $rest = substr($line, $pos + 1);
				if ($stmt =~ /\bCOPY\b[^;]*\bFROM\s+stdin\b/i)
				{
					# the data follows, up to \.
					while ($i < @lines)
					{
						my $d = $lines[$i++];
						$stmt .= "\n" . $d;
						last if $d eq '\\.';
					}
				}
				push @pieces, $stmt;
				$cur = '';
				$line = $rest;
				$len = length $line;
				$pos = 0;
				next;
			}
			$pos++;
		}
		$cur .= $line . "\n";
		$cur = '' if !$in_comment && !defined $dollar && $in_quote eq '' && $cur =~ /^\s*(--[^\n]*)?\n?$/s;
	}
	push @pieces, $cur if $cur =~ /\S/;
	return \@pieces;
}

# Both runs reach the gateway through its socket folder: the script's
# servers name a dbname and a port only.
sub adapt_host
{
	my ($stmt) = @_;
	$stmt =~ s/OPTIONS \(dbname '\$\$\|\|current_database\(\)\|\|\$\$',/OPTIONS (host '\$\$||current_setting('unix_socket_directories')||\$\$', dbname '\$\$||current_database()||\$\$',/g;
	return $stmt;
}

# The adaptation to multi_fdw: names, and dialect 'postgres' on every server.
sub adapt_for_multi_fdw
{
	my ($stmt) = @_;
	$stmt =~ s/\bEXTENSION postgres_fdw\b/EXTENSION multi_fdw/gi;
	$stmt =~ s/\bextensions 'postgres_fdw'/extensions 'multi_fdw'/gi;
	$stmt =~ s/\bpostgres_fdw_(get_connections|disconnect_all|disconnect)\b/multi_fdw_$1/g;
	$stmt =~ s/\bpostgres_fdw\.application_name\b/multi_fdw.application_name/g;
	$stmt =~ s/\bFOREIGN DATA WRAPPER postgres_fdw(\s+OPTIONS\s*\()/FOREIGN DATA WRAPPER multi_fdw$1dialect 'postgres', /gi;
	$stmt =~ s/\b(CREATE SERVER \w+ FOREIGN DATA WRAPPER) postgres_fdw\b(?!\s+OPTIONS)/$1 multi_fdw OPTIONS (dialect 'postgres')/gi;
	$stmt =~ s/\bFOREIGN DATA WRAPPER postgres_fdw\b/FOREIGN DATA WRAPPER multi_fdw/gi;
	return $stmt;
}

# Run the pieces in one psql session; returns the output of each piece.
sub run_statements
{
	my ($pieces, %opts) = @_;
	my $input = '';
	for my $n (0 .. $#$pieces)
	{
		$input .= "\\echo '\@\@PIECE $n\@\@'\n" . $pieces->[$n] . "\n";
	}
	$input .= "\\echo '\@\@END\@\@'\n";
	my @cmd = (@{ $opts{psql} }, '-X', '-q', '-v', 'ON_ERROR_STOP=0', '-d', $opts{dbname});
	my ($out, $err) = ('', '');
	local $ENV{PGOPTIONS} = $opts{pgoptions} // '';
	IPC::Run::run(\@cmd, '<', \$input, '>&', \$out, IPC::Run::timeout($opts{timeout} // 900));
	my @outs = ('') x @$pieces;
	my $cur;
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^\@\@PIECE (\d+)\@\@$/) { $cur = $1; next; }
		if ($line eq '@@END@@') { $cur = undef; next; }
		$outs[$cur] .= "$line\n" if defined $cur;
	}
	return (\@outs, $out);
}

# Classify each piece: same, same rows, explain, both error, only multi_fdw
# errors, only postgres_fdw errors, differ, crash, internal.
sub compare_runs
{
	my ($pieces, $ref, $mf) = @_;
	my @result;
	my $crashed = 0;
	for my $n (0 .. $#$pieces)
	{
		my $r = $ref->[$n] // '';
		my $m = $mf->[$n] // '';
		$m =~ s/multi_fdw/postgres_fdw/g;
		my $stmt = $pieces->[$n];
		my $kind;
		# the names' lengths change the tables' widths
		(my $rn = $r) =~ s/[- ]+/ /g;
		(my $mn = $m) =~ s/[- ]+/ /g;
		my $r_err = $r =~ /^(psql:\S+: )?ERROR:/m;
		my $m_err = $m =~ /^(psql:\S+: )?ERROR:/m;
		if ($crashed || $m =~ /server closed the connection unexpectedly|terminated abnormally|connection to server was lost/)
		{
			$kind = 'crash';
			$crashed = 1;
		}
		elsif ($m =~ /XX000|cache lookup failed|found in non-Agg plan node|unrecognized node type|variable not found in subplan target/ && $r !~ /XX000|cache lookup failed/)
		{
			$kind = 'internal';
		}
		elsif ($rn eq $mn) { $kind = 'same'; }
		elsif ($stmt =~ /^\s*EXPLAIN\b/i && !$r_err && !$m_err) { $kind = 'explain'; }
		elsif ($r_err && $m_err) { $kind = 'both error'; }
		elsif ($m_err) { $kind = 'only multi_fdw errors'; }
		elsif ($r_err) { $kind = 'only postgres_fdw errors'; }
		elsif (join("\n", sort split /\n/, $rn) eq join("\n", sort split /\n/, $mn))
		{
			$kind = 'same rows';
		}
		else { $kind = 'differ'; }
		push @result, { n => $n, kind => $kind, stmt => $stmt, ref => $r, mf => $m };
	}
	return \@result;
}

# The listed differences: [kind, statement's beginning, reason], from a
# file of lines "kind | statement | reason" ('#' begins a comment).
sub read_differences
{
	my ($path) = @_;
	open my $fh, '<', $path or croak "$path: $!";
	my @list;
	while (my $line = <$fh>)
	{
		chomp $line;
		next if $line =~ /^\s*(#|$)/;
		my ($kind, $stmt, $reason) = map { s/^\s+|\s+$//gr } split /\|/, $line, 3;
		croak "$path: bad line: $line" unless defined $reason && $reason ne '';
		push @list, [ $kind, $stmt =~ s/\s+/ /gr, $reason ];
	}
	close $fh;
	return \@list;
}

# The reason a difference is listed with, or undef.
sub listed_reason
{
	my ($list, $c) = @_;
	(my $stmt = $c->{stmt}) =~ s/\s+/ /g;
	$stmt =~ s/^ //;
	for my $d (@$list)
	{
		return $d->[2]
		  if $d->[0] eq $c->{kind} && substr($stmt, 0, length $d->[1]) eq $d->[1];
	}
	return;
}

1;
