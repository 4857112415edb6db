# The layer check (t/testbed/layer-check) passes on the tree as built, and
# fails on each kind of breach it exists to catch, made on a copy: a header
# of a layer above included, a symbol of a layer above needed, a circle of
# three files within a layer, a tree without objects.  No server needed.
use strict;
use warnings;
use File::Copy qw(copy);
use File::Find;
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use Test::More;

my $check = 't/testbed/layer-check';
my $cc = $ENV{CC} || 'cc';

ok(-f 'src/multi_fdw.o', 'the tree is built (make all)')
  or BAIL_OUT('no objects: build first');

sub run_check
{
	my ($root) = @_;
	my $out = `$check $root 2>&1`;
	return ($? >> 8, $out);
}

# a copy of src/ and dialects/, objects and all
sub copy_tree
{
	my $dst = tempdir(CLEANUP => 1);
	find(
		{
			no_chdir => 1,
			wanted => sub {
				my $rel = $File::Find::name;
				return if -d $rel;
				return unless $rel =~ /\.(c|h|o)$/;
				my $to = "$dst/$rel";
				(my $dir = $to) =~ s{/[^/]+$}{};
				make_path($dir);
				copy($rel, $to) or die "copy $rel: $!";
			}
		},
		'src', 'dialects');
	return $dst;
}

sub compile_in
{
	my ($root, $rel, $source) = @_;
	open(my $fh, '>', "$root/$rel.c") or die $!;
	print $fh $source;
	close $fh;
	system($cc, '-c', '-o', "$root/$rel.o", "$root/$rel.c") == 0
	  or die "cc $rel.c failed";
}

my ($rc, $out) = run_check('.');
is($rc, 0, 'the tree keeps its layers') or diag($out);
like($out, qr/, 0 breaches$/m, 'no breach reported');

# observe/ including exec/'s header
{
	my $root = copy_tree();
	open(my $fh, '>>', "$root/src/observe/progress.c") or die $!;
	print $fh qq{#include "exec/exec.h"\n};
	close $fh;
	($rc, $out) = run_check($root);
	is($rc, 1, 'an include of a layer above fails the check');
	like(
		$out,
		qr{src/observe/progress\.c:\d+: includes src/exec/exec\.h: observe reaches up to exec},
		'... naming the file, the header and the layers');
}

# remote/ needing a function of plan/ (estimate.c's)
{
	my $root = copy_tree();
	compile_in($root, 'src/remote/probe',
		"extern void mf_remote_estimate(void);\n"
		  . "void probe(void);\nvoid probe(void) { mf_remote_estimate(); }\n");
	($rc, $out) = run_check($root);
	is($rc, 1, 'a call up into a layer above fails the check');
	like(
		$out,
		qr{src/remote/probe\.o: needs mf_remote_estimate of src/plan/estimate\.o: remote reaches up to plan},
		'... naming the object, the symbol and the layers');
}

# three files of deparse/ calling each other in a circle
{
	my $root = copy_tree();
	compile_in($root, 'src/deparse/ring_a',
		"extern void ring_b(void);\nvoid ring_a(void);\nvoid ring_a(void) { ring_b(); }\n");
	compile_in($root, 'src/deparse/ring_b',
		"extern void ring_c(void);\nvoid ring_b(void);\nvoid ring_b(void) { ring_c(); }\n");
	compile_in($root, 'src/deparse/ring_c',
		"extern void ring_a(void);\nvoid ring_c(void);\nvoid ring_c(void) { ring_a(); }\n");
	($rc, $out) = run_check($root);
	is($rc, 1, 'a circle of three files within a layer fails the check');
	like(
		$out,
		qr{a circle of 3 files in deparse: src/deparse/ring_a\.o src/deparse/ring_b\.o src/deparse/ring_c\.o},
		'... naming the files');
}

# one transport's folder reaching into another's
{
	my $root = copy_tree();
	open(my $fh, '>>', "$root/src/transport/odbc/odbc_diag.c") or die $!;
	print $fh qq{#include "transport/libpq/pq_int.h"\n};
	close $fh;
	($rc, $out) = run_check($root);
	is($rc, 1, 'one transport including another\'s header fails the check');
	like($out, qr{odbc_diag\.c:\d+: includes src/transport/libpq/pq_int\.h: one transport reaches another},
		'... naming both');
}

# without objects the check cannot pass
{
	my $root = copy_tree();
	find({ no_chdir => 1, wanted => sub { unlink $_ if /\.o$/ } }, $root);
	($rc, $out) = run_check($root);
	is($rc, 1, 'a tree without objects fails the check');
	like($out, qr/no objects: build first/, '... saying to build first');
}

done_testing();
