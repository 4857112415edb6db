package MfTest;

# Helpers for multi_fdw's TAP tests (t/*.pl), run by t/testbed/run-tests
# against the servers of t/testbed/start (source DIR/env first).
#
#   use lib 't/lib';
#   use MfTest;
#
#   my $out = gw_psql('SELECT 1', dbname => 'mf_tap_x');        # stdout
#   my ($rc, $out, $err) = gw_psql('SELECT 1');                  # all three
#   remote_psql('CREATE TABLE t (a int)');                       # as mfapp
#   gw_safe_psql(...), remote_safe_psql(...)   # the same, die on failure
#   setup_gateway_db('mf_tap_x');     # extension, server pg_remote, mapping
#   setup_mysql_server('mf_tap_x');   # server my_remote (MariaDB), mapping
#   my $out = mariadb_safe('SELECT 1');   # the MariaDB as root, in mfremote
#   restart_mariadb();                # stop and start the MariaDB server
#   restart_remote_pg();              # the same for the remote PostgreSQL
#   restart_gateway();                # the same for the gateway (after
#                                     # ALTER SYSTEM, e.g. a preload)
#   setup_tds_server('mf_tap_x');     # server ms_tds (the TDS endpoint), mapping
#   stop_tds(); start_tds();          # the TDS endpoint down and up again
#   my $port = start_preloaded_gateway(18, 'gw_progress');
#                                     # a second gateway cluster with
#                                     # shared_preload_libraries = multi_fdw
#                                     # on MF_GW_PORT + 18, stopped at exit
#
#   my $s = MfTest::Session->new(dbname => 'mf_tap_x');          # psql kept open
#   my $out = $s->query('SELECT 1');
#   my ($out, $err) = $s->query('SELECT 1/0');
#   $s->send('SELECT pg_sleep(1)'); ...; ($out, $err) = $s->result;
#   wait_for(sub { $s->ready }, timeout => 5);    # finished yet?
#   $s->quit;

use strict;
use warnings;

use Carp;
use Exporter 'import';
use File::Basename ();
use File::Path ();
use File::Spec ();
use IPC::Run ();

our @EXPORT = qw(gw_psql remote_psql gw_safe_psql remote_safe_psql
  setup_gateway_db setup_mysql_server mariadb_sql mariadb_safe
  restart_mariadb restart_remote_pg restart_gateway wait_for mf_env setup_tds_server stop_tds
  start_tds start_preloaded_gateway remote_counts prepared_left);

# A client that dies mid-test (the tests kill backends on purpose) may
# leave input unread: writing the rest must be an error IPC::Run handles,
# not a SIGPIPE that kills the test file before its plan.
$SIG{PIPE} = 'IGNORE';

our $DEFAULT_DB = 'mf_tap';
our $TIMEOUT    = $ENV{MF_TAP_TIMEOUT} // 120;    # seconds, per call

sub mf_env
{
	my ($name) = @_;
	my $v = $ENV{$name};
	croak "$name is not set: start the servers with t/testbed/start and source DIR/env "
	  . "(t/testbed/run-tests does both)"
	  unless defined $v && $v ne '';
	return $v;
}

sub psql_bin
{
	my $bindir = $ENV{MF_PGBIN} // '/usr/lib/postgresql/15/bin';
	return -x "$bindir/psql" ? "$bindir/psql" : 'psql';
}

# connection arguments of the gateway or the remote, over the unix socket
sub _conn
{
	my ($where, %opts) = @_;
	my ($port, $user, $db);
	if ($where eq 'gw')
	{
		$port = mf_env('MF_GW_PORT');
		$user = $opts{user} // $ENV{PGUSER} // 'mfdw';
		$db   = $opts{dbname} // $DEFAULT_DB;
	}
	else
	{
		$port = $opts{port} // mf_env('MF_PG_PORT');
		$user = $opts{user} // mf_env('MF_PG_USER');
		$db   = $opts{dbname} // mf_env('MF_PG_DB');
	}
	return ('-h', mf_env('MF_SOCKDIR'), '-p', $port, '-U', $user, '-d', $db);
}

sub _psql_cmd
{
	my ($where, %opts) = @_;
	my $stop = $opts{on_error_stop} // 1;
	return (
		psql_bin(), '-X', '-A', '-t', '-q',
		'-v', "ON_ERROR_STOP=$stop",
		_conn($where, %opts),
		@{ $opts{extra_args} // [] });
}

sub _run_psql
{
	my ($where, $sql, %opts) = @_;
	my @cmd = _psql_cmd($where, %opts);
	my ($out, $err) = ('', '');
	$sql .= "\n" unless $sql =~ /\n\z/;
	# the SQL goes in on stdin, so psql meta-commands work and each
	# statement runs on its own (CREATE DATABASE and friends)
	local $ENV{PGCONNECT_TIMEOUT} = 10;
	# a psql that cannot connect (a gateway in crash recovery) exits before
	# it reads its input: IPC::Run then dies of the broken pipe, which is a
	# failed psql to the caller, not the end of the test
	my $ok = eval {
		IPC::Run::run(\@cmd, '<', \$sql, '>', \$out, '2>', \$err,
			IPC::Run::timeout($opts{timeout} // $TIMEOUT));
		1;
	};
	my $rc = $? >> 8;
	if (!$ok)
	{
		die $@ unless $@ =~ /Broken pipe|EPIPE/i;
		$err .= ($err eq '' ? '' : "\n") . "psql stopped reading its input: $@";
		$rc ||= 2;
	}
	chomp $out;
	chomp $err;
	return wantarray ? ($rc, $out, $err) : $out;
}

# gw_psql($sql, dbname => ..., user => ..., on_error_stop => 0|1, timeout => s)
sub gw_psql
{
	my ($sql, %opts) = @_;
	return _run_psql('gw', $sql, %opts);
}

# remote_psql($sql, dbname => ..., user => ..., port => ...): the remote
# PostgreSQL as mfapp in mfremote by default (trust on the unix socket)
sub remote_psql
{
	my ($sql, %opts) = @_;
	return _run_psql('remote', $sql, %opts);
}

# psql that must succeed: dies with psql's stderr otherwise; returns stdout
sub _must
{
	my ($fn, $sql, %opts) = @_;
	my ($rc, $out, $err) = $fn->($sql, %opts);
	croak "psql failed (exit $rc) on:\n$sql\n$err" if $rc != 0;
	return $out;
}

sub gw_safe_psql     { return _must(\&gw_psql,     @_); }
sub remote_safe_psql { return _must(\&remote_psql, @_); }

# setup_gateway_db($dbname = 'mf_tap', port => ...): a fresh gateway database
# (dropped first if it exists) with the extension, server pg_remote (the
# remote PostgreSQL, or the one on port => ...) and the current user's
# mapping to it.  Returns $dbname; dies on failure.
sub setup_gateway_db
{
	my ($dbname, %opts) = @_;
	$dbname //= $DEFAULT_DB;
	croak "setup_gateway_db: bad database name '$dbname'"
	  unless $dbname =~ /^[a-z_][a-z0-9_]*$/;
	my $port = $opts{port} // mf_env('MF_PG_PORT');
	my $host = mf_env('MF_PG_HOST');
	my $rdb  = mf_env('MF_PG_DB');
	my $ruser = mf_env('MF_PG_USER');
	my $rpass = mf_env('MF_PG_PASSWORD');

	_must(\&gw_psql,
		"DROP DATABASE IF EXISTS $dbname WITH (FORCE);\nCREATE DATABASE $dbname;",
		dbname => 'postgres');
	_must(\&gw_psql, <<"SQL", dbname => $dbname);
CREATE EXTENSION multi_fdw;
CREATE SERVER pg_remote FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'postgres', host '$host', port '$port', dbname '$rdb');
CREATE USER MAPPING FOR CURRENT_USER SERVER pg_remote
  OPTIONS (user '$ruser', password '$rpass');
SQL
	return $dbname;
}

# setup_mysql_server($dbname, server => 'my_remote'): in a gateway database
# made by setup_gateway_db, a multi_fdw server for the test bed's MariaDB
# (dialect mysql, over TCP) and the current user's mapping to it.  Returns
# the server's name; dies on failure.
sub setup_mysql_server
{
	my ($dbname, %opts) = @_;
	my $server = $opts{server} // 'my_remote';
	my $host = mf_env('MF_MY_HOST');
	my $port = mf_env('MF_MY_PORT');
	my $rdb  = mf_env('MF_MY_DB');
	my $user = mf_env('MF_MY_USER');
	my $pass = mf_env('MF_MY_PASSWORD');

	_must(\&gw_psql, <<"SQL", dbname => $dbname // $DEFAULT_DB);
CREATE SERVER $server FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'mysql', host '$host', port '$port', database '$rdb');
CREATE USER MAPPING FOR CURRENT_USER SERVER $server
  OPTIONS (user '$user', password '$pass');
SQL
	return $server;
}

# mariadb_sql($sql, timeout => s): the test bed's MariaDB as root over its
# unix socket, in the database the FDW uses, tab-separated without
# headers.  Scalar context: stdout; list context: (exit code, stdout, stderr).
sub mariadb_sql
{
	my ($sql, %opts) = @_;
	my @cmd = ('mariadb', '--no-defaults', '--socket=' . mf_env('MF_MY_SOCKET'),
		'-uroot', '--batch', '--skip-column-names', mf_env('MF_MY_DB'));
	my ($out, $err) = ('', '');
	$sql .= "\n" unless $sql =~ /\n\z/;
	# a psql that cannot connect (a gateway in crash recovery) exits before
	# it reads its input: IPC::Run then dies of the broken pipe, which is a
	# failed psql to the caller, not the end of the test
	my $ok = eval {
		IPC::Run::run(\@cmd, '<', \$sql, '>', \$out, '2>', \$err,
			IPC::Run::timeout($opts{timeout} // $TIMEOUT));
		1;
	};
	my $rc = $? >> 8;
	if (!$ok)
	{
		die $@ unless $@ =~ /Broken pipe|EPIPE/i;
		$err .= ($err eq '' ? '' : "\n") . "psql stopped reading its input: $@";
		$rc ||= 2;
	}
	chomp $out;
	chomp $err;
	return wantarray ? ($rc, $out, $err) : $out;
}

# the same, dying on failure; returns stdout
sub mariadb_safe
{
	my ($sql, %opts) = @_;
	my ($rc, $out, $err) = mariadb_sql($sql, %opts);
	croak "mariadb failed (exit $rc) on:\n$sql\n$err" if $rc != 0;
	return $out;
}

# restart_mariadb(): shut the test bed's MariaDB down and start it again
# with the same data, port and settings (t/testbed/mariadb-restart); the
# sessions open on it are cut.  Dies on failure.
sub restart_mariadb
{
	my $script = File::Spec->catfile(
		File::Basename::dirname(File::Spec->rel2abs(__FILE__)),
		'..', 'testbed', 'mariadb-restart');
	my ($out, $err) = ('', '');
	IPC::Run::run([ $script, mf_env('MF_TMP') ], '>', \$out, '2>', \$err,
		IPC::Run::timeout(180));
	croak "t/testbed/mariadb-restart failed (exit " . ($? >> 8) . "):\n$err$out"
	  if $? != 0;
	return 1;
}

# restart_remote_pg(): a fast shutdown and a start of the test bed's remote
# PostgreSQL, with the same data and settings; the sessions open on it are
# cut.  Dies on failure.
sub restart_remote_pg
{
	my $dir  = mf_env('MF_TMP');
	my $data = "$dir/pg";
	my $bin  = mf_env('MF_PGBIN');
	my @cmd  = ('env', '-i', "PATH=$bin:/usr/bin:/bin", "HOME=$dir", 'LANG=C.UTF-8',
		"$bin/pg_ctl", '-D', $data, '-l', "$dir/pg.log", '-m', 'fast', '-w',
		'-t', '60', 'restart');
	my $owner = (stat $data)[4];
	croak "restart_remote_pg: no data directory $data" unless defined $owner;
	unshift @cmd, 'runuser', '-u', scalar getpwuid($owner), '--' if $> == 0;
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '<', \undef, '>', \$out, '2>', \$err,
		IPC::Run::timeout(90));
	croak "restart_remote_pg failed (exit " . ($? >> 8) . "):\n$err$out" if $? != 0;
	return 1;
}

# restart_gateway(): a fast shutdown and a start of the test bed's gateway,
# with the same data (postgresql.auto.conf included: a test that set
# shared_preload_libraries gets it); false on failure.
sub restart_gateway
{
	my $dir  = mf_env('MF_TMP');
	my $data = "$dir/gw";
	my $bin  = mf_env('MF_PGBIN');
	my @cmd  = ('env', '-i', "PATH=$bin:/usr/bin:/bin", "HOME=$dir", 'LANG=C.UTF-8',
		'ODBCSYSINI=' . ($ENV{ODBCSYSINI} // ''), 'ODBCINI=' . ($ENV{ODBCINI} // ''),
		"$bin/pg_ctl", '-D', $data, '-l', "$dir/gw.log", '-m', 'fast', '-w',
		'-t', '60', 'restart');
	unshift @cmd, 'runuser', '-u', scalar getpwuid((stat $data)[4]), '--' if $> == 0;
	return system(@cmd) == 0;
}

# setup_tds_server($dbname, server => 'ms_tds'): a sqlserver server on the
# test bed's TDS endpoint through FreeTDS, and the current user's mapping.
sub setup_tds_server
{
	my ($dbname, %opts) = @_;
	my $server = $opts{server} // 'ms_tds';
	my $host = mf_env('MF_TDS_HOST');
	my $port = mf_env('MF_TDS_PORT');
	my $rdb  = mf_env('MF_TDS_DB');
	my $user = mf_env('MF_TDS_USER');
	my $pass = mf_env('MF_TDS_PASSWORD');

	_must(\&gw_psql, <<"SQL", dbname => $dbname // $DEFAULT_DB);
CREATE SERVER $server FOREIGN DATA WRAPPER multi_fdw
  OPTIONS (dialect 'sqlserver', odbc_driver 'FreeTDS', host '$host',
           port '$port', database '$rdb', odbc_attributes 'TDS_Version=7.4');
CREATE USER MAPPING FOR CURRENT_USER SERVER $server
  OPTIONS (user '$user', password '$pass');
SQL
	return $server;
}

# stop_tds(): stop the test bed's TDS endpoint (its storage is in memory,
# so its tables go with it); start_tds(): start it again on the same port,
# as t/testbed/start does.  Both die on failure.
sub _tds_pid
{
	my $pidfile = mf_env('MF_TMP') . '/tds.pid';
	open(my $fh, '<', $pidfile) or return undef;
	my $pid = <$fh>;
	close $fh;
	return (defined $pid && $pid =~ /^(\d+)/) ? $1 : undef;
}

sub stop_tds
{
	my $pid = _tds_pid();
	croak 'stop_tds: no pid file for the TDS endpoint' unless defined $pid;
	kill 'TERM', $pid;
	wait_for(sub { !kill(0, $pid) }, timeout => 10)
	  or croak "stop_tds: the TDS endpoint (pid $pid) did not stop";
	return 1;
}

sub start_tds
{
	my $dir = mf_env('MF_TMP');
	my @cmd = ('python3', "$dir/tds-endpoint", '--port', mf_env('MF_TDS_PORT'),
		'--host', '127.0.0.1', '--log', "$dir/tds.log", '--pidfile', "$dir/tds.pid",
		'--daemon', '--user', mf_env('MF_TDS_USER'),
		'--password', mf_env('MF_TDS_PASSWORD'), '--database', mf_env('MF_TDS_DB'));
	unshift @cmd, 'runuser', '-u', 'mfdw', '--' if $> == 0;
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err, IPC::Run::timeout(60));
	croak "start_tds failed (exit " . ($? >> 8) . "):\n$err$out" if $? != 0;
	return 1;
}

# start_preloaded_gateway($offset, $name): initdb and start a gateway
# cluster of its own in MF_TMP/$name, with multi_fdw in
# shared_preload_libraries (cluster-wide counters, multi_fdw_progress), on
# port MF_GW_PORT + $offset and the test bed's socket directory, with the
# test bed's ODBC set-up in its environment.  Stopped when the test file
# ends.  Returns the port; BAIL_OUT-style death on failure.
my @preloaded;

sub start_preloaded_gateway
{
	my ($offset, $name) = @_;
	my $bin  = mf_env('MF_PGBIN');
	my $data = mf_env('MF_TMP') . "/$name";
	my $log  = mf_env('MF_TMP') . "/$name.log";
	my $port = mf_env('MF_GW_PORT') + $offset;
	my $gw   = mf_env('MF_TMP') . '/gw';
	my @as = $> == 0 ? ('runuser', '-u', scalar getpwuid((stat $gw)[4]), '--') : ();
	my @env = ('env', '-i', "PATH=$bin:/usr/bin:/bin", 'HOME=' . mf_env('MF_TMP'),
		'LANG=C.UTF-8', 'ODBCSYSINI=' . ($ENV{ODBCSYSINI} // ''),
		'ODBCINI=' . ($ENV{ODBCINI} // ''));

	File::Path::rmtree($data);
	system(@as, @env, "$bin/initdb", '-D', $data, '-U', 'mfdw', '-A', 'trust',
		'--no-sync', '--no-instructions', '-E', 'UTF8', '--locale=C.UTF-8') == 0
	  or croak "initdb of the preloaded gateway $name failed";
	open(my $conf, '>>', "$data/postgresql.conf") or croak $!;
	print $conf "port = $port\nlisten_addresses = ''\n"
	  . "unix_socket_directories = '" . mf_env('MF_SOCKDIR') . "'\n"
	  . "shared_preload_libraries = 'multi_fdw'\n"
	  . "fsync = off\nmax_connections = 20\n";
	close $conf;
	system(@as, @env, "$bin/pg_ctl", '-D', $data, '-l', $log, '-w', '-t', '60',
		'start') == 0 or croak "the preloaded gateway $name did not start (see $log)";
	push @preloaded, [ [ @as, @env, "$bin/pg_ctl" ], $data ];
	return $port;
}

END
{
	local $?;
	for my $p (@preloaded)
	{
		my ($cmd, $data) = @$p;
		system(@$cmd, '-D', $data, '-m', 'immediate', '-w', 'stop') if -d $data;
	}
}

# remote_counts('t011'): "n/m", the rows of that table on the remote
# PostgreSQL and on MariaDB (the two-phase tests write the same table to
# both)
sub remote_counts
{
	my ($table) = @_;
	return remote_psql("SELECT count(*) FROM $table") . '/'
	  . mariadb_safe("SELECT count(*) FROM $table");
}

# prepared_left(): "n/m", the prepared transactions left on the remote
# PostgreSQL and the XA transactions of multi_fdw's left on MariaDB
sub prepared_left
{
	my $pg = remote_psql('SELECT count(*) FROM pg_prepared_xacts');
	my $xa = () = mariadb_safe('XA RECOVER') =~ /mf_/g;
	return "$pg/$xa";
}

# wait_for(sub { ... true when done ... }, timeout => s): polls every 0.1 s
sub wait_for
{
	my ($cond, %opts) = @_;
	my $deadline = time + ($opts{timeout} // 30);
	while (time < $deadline)
	{
		return 1 if $cond->();
		select(undef, undef, undef, 0.1);
	}
	return $cond->() ? 1 : 0;
}

package MfTest::Session;

# A psql kept running in the background, fed one query at a time: the
# session (and so multi_fdw's cached connections and transactions) lives
# across queries.  Errors do not end it (ON_ERROR_STOP=0).

use strict;
use warnings;
use Carp;

my $MARKER = '__MF_DONE__';

# new(dbname => 'mf_tap', user => ..., remote => 0|1, timeout => s)
sub new
{
	my ($class, %opts) = @_;
	my $self = bless {
		stdin   => '',
		stdout  => '',
		stderr  => '',
		timeout => $opts{timeout} // $MfTest::TIMEOUT,
	}, $class;
	my @cmd = MfTest::_psql_cmd($opts{remote} ? 'remote' : 'gw',
		%opts, on_error_stop => 0);
	$self->{timer} = IPC::Run::timeout($self->{timeout});
	$self->{run} = IPC::Run::start(\@cmd,
		'<', \$self->{stdin},
		'>', \$self->{stdout},
		'2>', \$self->{stderr},
		$self->{timer});
	# wait until psql answers (it has connected)
	my ($out, $err) = $self->query('SELECT 1');
	croak "background psql did not start:\n$err" unless $out eq '1';
	return $self;
}

# query($sql): runs $sql (any number of statements and meta-commands) and
# waits for it to finish.  Scalar context: stdout; list context:
# (stdout, stderr).  Dies if the answer takes longer than the timeout.
sub query
{
	my ($self, $sql) = @_;
	$self->send($sql);
	return $self->result;
}

# send($sql): hands $sql to psql and returns at once, while it runs;
# result() then waits for it and returns what query() would have.
sub send
{
	my ($self, $sql) = @_;
	croak "session already ended" unless $self->{run};
	$self->{stdout} = '';
	$self->{stderr} = '';
	$sql =~ s/\s*\z//;
	# a statement without its semicolon would wait in psql's buffer
	$sql .= "\n;" unless $sql =~ /;\z/ || $sql =~ /(?:^|\n)\s*\\[^\n]*\z/;
	# the marker on both streams: stderr is a pipe of its own and may
	# arrive later than stdout
	$self->{stdin} .= "$sql\n\\echo $MARKER\n\\warn $MARKER\n";
	$self->{sql} = $sql;
	$self->{timer}->start($self->{timeout});
	$self->{run}->pump_nb;
	return 1;
}

sub result
{
	my ($self) = @_;
	my $sql = $self->{sql} // '';
	croak "session already ended" unless $self->{run};
	$self->{timer}->start($self->{timeout});
	eval {
		$self->{run}->pump
		  until $self->{stdout} =~ /^\Q$MARKER\E\r?\n/m
		  && $self->{stderr} =~ /^\Q$MARKER\E\r?\n/m;
		1;
	} or do {
		my $e = $@;
		if ($e =~ /process ended prematurely/)
		{
			# psql exited (e.g. the gateway backend died): hand back what
			# it said; the session is over
			eval { $self->{run}->finish };
			delete $self->{run};
			my ($out, $err) = ($self->{stdout}, $self->{stderr});
			chomp $out;
			$err .= "[background psql exited]";
			$self->{last_stderr} = $err;
			return wantarray ? ($out, $err) : $out;
		}
		croak "background psql: no answer to:\n$sql\n($e)\nstdout so far:\n"
		  . "$self->{stdout}\nstderr so far:\n$self->{stderr}";
	};
	my $out = $self->{stdout};
	my $err = $self->{stderr};
	$out =~ s/^\Q$MARKER\E\r?\n.*\z//ms;
	$err =~ s/^\Q$MARKER\E\r?\n.*\z//ms;
	chomp $out;
	chomp $err;
	$self->{last_stderr} = $err;
	return wantarray ? ($out, $err) : $out;
}

# ready(): whether the query handed over by send() has finished, without
# waiting; result() then returns at once.
sub ready
{
	my ($self) = @_;
	return 1 unless $self->{run};
	my $ok = eval { $self->{run}->pump_nb; 1 };
	return 1 unless $ok;    # psql exited: result() says so
	return $self->{stdout} =~ /^\Q$MARKER\E\r?\n/m
	  && $self->{stderr} =~ /^\Q$MARKER\E\r?\n/m;
}

# the stderr of the last query
sub last_stderr { return $_[0]->{last_stderr} // '' }

sub quit
{
	my ($self) = @_;
	return unless $self->{run};
	$self->{stdin} .= "\\q\n";
	$self->{timer}->start(30);
	my $ok = eval { $self->{run}->finish; 1 };
	$self->{run}->kill_kill unless $ok;
	delete $self->{run};
	return $ok;
}

sub DESTROY
{
	my ($self) = @_;
	local ($@, $?);
	if ($self->{run})
	{
		eval { $self->{run}->kill_kill };
		delete $self->{run};
	}
}

1;
