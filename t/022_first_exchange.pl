# A remote session that dies just before a transaction's first statement,
# where the gateway cannot see it: the libpq and mysql transports send the
# transaction's begin with its first statement (or, for MySQL, let the first
# statement open it), so that exchange is the first to meet the dead session.
# Without that deferral the begin would fail on its own and multi_fdw would
# reconnect and begin again, as postgres_fdw does; it must do the same here:
# the first statement runs through a new connection, counted as a
# reconnect.  A session lost after the transaction's first exchange was
# answered still fails the statement: nothing reconnects in the middle of a
# remote transaction.
#
# The death is staged by a small TCP proxy between the gateway and the
# server: told to, it closes both sides of the connection the moment the
# gateway's next bytes arrive, so the socket looks healthy when the gateway
# looks at it before the transaction and the server never sees the request.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Test::More;
use IO::Select;
use POSIX ();
use IO::Socket::INET;
use Socket qw(AF_UNIX SOCK_STREAM PF_UNSPEC);

# start_proxy($port): a proxy to 127.0.0.1:$port in a child process.
# Returns { pid, port, ctl }; cut_next($proxy) arms it.
sub start_proxy
{
	my ($target) = @_;
	my $listen = IO::Socket::INET->new(
		LocalAddr => '127.0.0.1',
		LocalPort => 0,
		Listen    => 8,
		ReuseAddr => 1) or die "proxy: cannot listen: $!";
	socketpair(my $ctl, my $ctl_child, AF_UNIX, SOCK_STREAM, PF_UNSPEC)
	  or die "proxy: socketpair: $!";
	my $pid = fork // die "proxy: fork: $!";
	if ($pid == 0)
	{
		close $ctl;
		proxy_loop($listen, $ctl_child, $target);
		POSIX::_exit(0);
	}
	close $ctl_child;
	my $port = $listen->sockport;
	close $listen;
	$ctl->autoflush(1);
	return { pid => $pid, port => $port, ctl => $ctl };
}

sub proxy_loop
{
	my ($listen, $ctl, $target) = @_;
	my $sel = IO::Select->new($listen, $ctl);
	my (%peer, %is_client, %doomed);
	my $drop = sub {
		my ($fh) = @_;
		my $other = $peer{ fileno $fh };
		for my $h ($fh, $other)
		{
			next unless defined $h;
			delete $peer{ fileno $h };
			delete $is_client{ fileno $h };
			delete $doomed{ fileno $h };
			$sel->remove($h);
			close $h;
		}
	};
	$ctl->autoflush(1);
	for (;;)
	{
		for my $fh ($sel->can_read)
		{
			if ($fh == $listen)
			{
				my $c = $listen->accept or next;
				my $s = IO::Socket::INET->new(
					PeerAddr => '127.0.0.1',
					PeerPort => $target);
				if (!$s)
				{
					close $c;
					next;
				}
				$peer{ fileno $c } = $s;
				$peer{ fileno $s } = $c;
				$is_client{ fileno $c } = 1;
				$sel->add($c, $s);
			}
			elsif ($fh == $ctl)
			{
				my $line = <$ctl>;
				return unless defined $line;
				# the connections open now, not those made later
				if ($line =~ /^cut/)
				{
					$doomed{$_} = 1 for keys %is_client;
				}
				print $ctl "ok\n";
			}
			elsif ($doomed{ fileno $fh })
			{
				# the gateway's next request: nobody answers it
				$drop->($fh);
			}
			else
			{
				my $n = sysread($fh, my $buf, 65536);
				if (!$n)
				{
					$drop->($fh);
					next;
				}
				my $other = $peer{ fileno $fh };
				my $off = 0;
				while ($off < $n)
				{
					my $w = syswrite($other, $buf, $n - $off, $off);
					last unless defined $w;
					$off += $w;
				}
			}
		}
	}
}

# The next bytes the gateway sends on a connection open now end it.
sub cut_next
{
	my ($proxy) = @_;
	my $ctl = $proxy->{ctl};
	print $ctl "cut\n";
	my $ack = <$ctl>;
	die "proxy did not answer" unless defined $ack && $ack =~ /^ok/;
}

# (another proxy forked later holds this one's control socket too: a
# signal ends it)
sub stop_proxy
{
	my ($proxy) = @_;
	kill 'TERM', $proxy->{pid};
	waitpid($proxy->{pid}, 0);
	close $proxy->{ctl};
}

my $db = setup_gateway_db('mf_tap_018');
my $pg = start_proxy(MfTest::mf_env('MF_PG_PORT'));
my $my = start_proxy(MfTest::mf_env('MF_MY_PORT'));
my $rt = 't018_first';

remote_safe_psql("DROP TABLE IF EXISTS $rt; CREATE TABLE $rt (id int PRIMARY KEY, note text)");
mariadb_safe("DROP TABLE IF EXISTS $rt; CREATE TABLE $rt (id int PRIMARY KEY, note varchar(20)) ENGINE=InnoDB");

my $pgdb = MfTest::mf_env('MF_PG_DB');
my $mydb = MfTest::mf_env('MF_MY_DB');
gw_safe_psql(<<"SQL", dbname => $db);
CREATE SERVER pg_cut FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '127.0.0.1', port '$pg->{port}', dbname '$pgdb');
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_cut
  OPTIONS (user '@{[MfTest::mf_env('MF_PG_USER')]}', password '@{[MfTest::mf_env('MF_PG_PASSWORD')]}');
CREATE FOREIGN TABLE pg_t (id int, note text) SERVER pg_cut OPTIONS (table_name '$rt');
CREATE SERVER my_cut FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host '127.0.0.1', port '$my->{port}', database '$mydb');
CREATE USER MAPPING FOR CURRENT_USER SERVER my_cut
  OPTIONS (user '@{[MfTest::mf_env('MF_MY_USER')]}', password '@{[MfTest::mf_env('MF_MY_PASSWORD')]}');
CREATE FOREIGN TABLE my_t (id int, note text) SERVER my_cut OPTIONS (table_name '$rt');
SQL

my $s = MfTest::Session->new(dbname => $db);

sub reconnects
{
	my ($server) = @_;
	return scalar $s->query(
		"SELECT reconnects FROM multi_fdw_stats WHERE server = '$server'");
}

for my $case ([ 'postgres', 'pg_t', 'pg_cut', $pg ], [ 'mysql', 'my_t', 'my_cut', $my ])
{
	my ($name, $ft, $server, $proxy) = @$case;
	my ($out, $err);

	# a cached connection with prepared statements on it
	($out, $err) = $s->query("INSERT INTO $ft VALUES (1, 'first')");
	is($err, '', "$name: insert through the proxy");
	($out, $err) = $s->query("SELECT count(*) FROM $ft WHERE id > 0");
	is($out, '1', "$name: select through the proxy");
	my $before = reconnects($server);

	# a statement on its own: its transaction's first exchange meets the
	# dead session (each case on a connection made before it, so that one
	# failure does not leave the next case a fresh connection to cut)
	cut_next($proxy);
	($out, $err) = $s->query("SELECT count(*) FROM $ft WHERE id > 0");
	is($err, '', "$name: a SELECT whose session died before it has no error");
	is($out, '1', "$name: ... and reads through a new connection");
	is(reconnects($server), $before + 1, "$name: ... counted as a reconnect");

	$s->query("SELECT count(*) FROM $ft WHERE id < 0");
	cut_next($proxy);
	($out, $err) = $s->query("INSERT INTO $ft VALUES (2, 'second')");
	is($err, '', "$name: an INSERT whose session died before it has no error");
	is(reconnects($server), $before + 2, "$name: ... counted as a reconnect");

	# inside an explicit transaction, its first statement
	$s->query("SELECT count(*) FROM $ft WHERE id < 0");
	cut_next($proxy);
	($out, $err) = $s->query("BEGIN; INSERT INTO $ft VALUES (3, 'third'); COMMIT");
	is($err, '', "$name: the first statement of a transaction block reconnects");
	($out, $err) = $s->query("SELECT string_agg(id::text, ',' ORDER BY id) FROM $ft");
	is($out, '1,2,3', "$name: every row arrived once");

	# a session lost once the remote transaction has answered: no retry
	($out, $err) = $s->query("BEGIN; SELECT count(*) FROM $ft WHERE id > 0");
	is($out, '3', "$name: a transaction's first statement");
	cut_next($proxy);
	($out, $err) = $s->query("INSERT INTO $ft VALUES (4, 'fourth')");
	like($err, qr/connection to server "$server" was lost/,
		"$name: a session lost in the middle of a transaction fails the statement");
	($out, $err) = $s->query('ROLLBACK');
	unlike($err, qr/ERROR/, "$name: rollback after the failure");
	($out, $err) = $s->query("SELECT string_agg(id::text, ',' ORDER BY id) FROM $ft");
	is($out, '1,2,3', "$name: nothing of the lost transaction arrived");
}

# the proxies' connections stay: end the session first
$s->quit;
stop_proxy($pg);
stop_proxy($my);
remote_psql("DROP TABLE IF EXISTS $rt");
mariadb_sql("DROP TABLE IF EXISTS $rt");
done_testing();
