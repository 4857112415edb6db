package Hostile;

# A hostile search_path, for the TAP tests of code that runs as another
# role (the CVE-2018-1058 class; DESIGN.md, "Code that runs as another
# role").  A role that is not a superuser plants, in a schema of her own,
# look-alikes of what unqualified SQL would reach: pg_catalog's operators
# for text, integer, bigint, oid, name and timestamptz, common functions
# and aggregates, pg_catalog's views, and multi_fdw's own functions,
# views and decision table.  Each look-alike, when it runs as anyone but
# her, springs a trap: a WARNING in the gateway's log (it outlives an
# aborted transaction and a crash), a row in her trap table, and an
# attempt to make her superuser.  A test then puts her schema first in
# search_path, drives the paths that run for someone else, and checks:
#
#   use lib 't/lib';
#   use MfTest;
#   use Hostile;
#
#   my $h = Hostile::arm($db, 'regress_hostile');    # or an MfTest::Session
#   # ... as her, or as a superuser with her path:
#   gw_psql("SET ROLE $h->{role}; $h->{set_path}; ...", dbname => $db);
#   gw_psql("$h->{set_path}; SELECT * FROM public.multi_fdw_resolve()", ...);
#   # in each of her sessions, look-alikes in pg_temp too:
#   $session->query($h->{temp_sql});
#   Hostile::check($h, 'after the commits');     # Test::More assertions
#   Hostile::disarm($h);
#
# arm() proves that every trap fires (each is reached once, as the
# superuser, through her search_path) before it counts: a trap that could
# not fire would make check() pass for nothing.  Statements a superuser
# runs with her path must name everything with its schema, as the code
# under test must: an unqualified name there is the test's own mistake,
# and check() reports it like any other.

use strict;
use warnings;

use Carp;
use MfTest;
use Test::More;

# operators and the argument pairs planted for each
my @CMP = qw(= <> < > <= >=);
my @SAME = qw(text integer bigint oid name timestamptz);
my @MIXED = (['name', 'text'], ['text', 'name'], ['integer', 'bigint'],
	['bigint', 'integer']);
my @OTHER = (['||', 'text', 'text', 'text'], ['+', 'integer', 'integer', 'integer'],
	['+', 'bigint', 'bigint', 'bigint'], ['~~', 'text', 'text', 'boolean'],
	['~~', 'name', 'text', 'boolean']);

# functions: name, arguments, result, a probe (the arguments of a call)
my @FUNCS = (
	['lower',            'text',              'text',             q('A'::text)],
	['upper',            'text',              'text',             q('a'::text)],
	['length',           'text',              'integer',          q('a'::text)],
	['substr',           'text, integer, integer', 'text',        q('abc'::text, 1, 2)],
	['now',              '',                  'timestamptz',      ''],
	['random',           '',                  'double precision', ''],
	['format',           'text',              'text',             q('%%'::text)],
	['format',           'text, text',        'text',             q('%s'::text, 'a'::text)],
	['quote_ident',      'text',              'text',             q('a'::text)],
	['quote_literal',    'text',              'text',             q('a'::text)],
	['quote_nullable',   'text',              'text',             q('a'::text)],
	['pg_get_userbyid',  'oid',               'name',             q(10::oid)],
	['current_database', '',                  'name',             ''],
	['current_setting',  'text',              'text',             q('search_path'::text)],
	['set_config',       'text, text, boolean', 'text',           q('application_name'::text, 'x'::text, true)],
	['pg_backend_pid',   '',                  'integer',          ''],
	['txid_current',     '',                  'bigint',           ''],
	['has_table_privilege', 'text, text',     'boolean',          q('pg_class'::text, 'select'::text)],
	['to_regclass',      'text',              'regclass',         q('pg_class'::text)],
	['format_type',      'oid, integer',      'text',             q(25::oid, -1)],
	['pg_advisory_xact_lock', 'bigint',       'void',             q(1::bigint)],
);

# aggregates: name, argument, state type, probe
my @AGGS = (
	['count',      '*',          'bigint', 'count(*)'],
	['count',      'text',       'bigint', q(count('a'::text))],
	['max',        'text',       'text',   q(max('a'::text))],
	['min',        'text',       'text',   q(min('a'::text))],
	['sum',        'bigint',     'bigint', q(sum(1::bigint))],
	['array_agg',  'text',       'text[]', q(array_agg('a'::text))],
	['string_agg', 'text, text', 'text',   q(string_agg('a'::text, ','::text))],
);

# pg_catalog's views and tables that catalog queries read
my @CATALOG = qw(pg_stat_activity pg_prepared_xacts pg_extension pg_namespace
  pg_class pg_proc pg_type pg_attribute pg_roles pg_database pg_settings
  pg_foreign_server pg_foreign_data_wrapper pg_foreign_table pg_user_mapping
  pg_user_mappings);

sub _q { my ($s) = @_; $s =~ s/'/''/g; return "'$s'"; }

# run SQL through the target (a database name or an MfTest::Session)
sub _run
{
	my ($h, $sql, %opts) = @_;
	if (ref $h->{target})
	{
		my ($out, $err) = $h->{target}->query($sql);
		croak "Hostile: failed:\n$sql\n$err" if $opts{must} && $err =~ /ERROR/;
		return wantarray ? (0, $out, $err) : $out;
	}
	return $opts{must}
	  ? gw_safe_psql($sql, dbname => $h->{target})
	  : gw_psql($sql, dbname => $h->{target}, on_error_stop => 0);
}

sub _log_size { my $f = mf_env('MF_TMP') . '/gw.log'; return -s $f // 0; }

sub _log_since
{
	my ($from) = @_;
	my $f = mf_env('MF_TMP') . '/gw.log';
	open(my $fh, '<', $f) or return '';
	seek($fh, $from, 0);
	local $/;
	my $text = <$fh> // '';
	close $fh;
	return $text;
}

# the trap, the trap table and the trigger of the look-alike tables
sub _trap_sql
{
	my ($s, $role) = @_;
	my $r = _q($role);
	return <<"SQL";
CREATE TABLE $s.trap_log (what text, ran_as name, backend int,
  at timestamptz DEFAULT pg_catalog.clock_timestamp());
GRANT INSERT, SELECT ON $s.trap_log TO PUBLIC;
CREATE FUNCTION $s.trap(what text) RETURNS boolean
LANGUAGE plpgsql AS \$f\$
BEGIN
  IF current_user OPERATOR(pg_catalog.<>) ${r}::pg_catalog.name THEN
    RAISE WARNING 'hostile trap of %: % ran as %', $r, what, current_user;
    BEGIN
      INSERT INTO $s.trap_log (what, ran_as, backend)
        VALUES (what, current_user, pg_catalog.pg_backend_pid());
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
      EXECUTE 'ALTER ROLE ' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($r)
        OPERATOR(pg_catalog.||) ' SUPERUSER';
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
  END IF;
  RETURN true;
END \$f\$;
GRANT EXECUTE ON FUNCTION $s.trap(text) TO PUBLIC;
CREATE FUNCTION $s.trap_trigger() RETURNS trigger
LANGUAGE plpgsql AS \$f\$
BEGIN
  PERFORM $s.trap(TG_TABLE_SCHEMA::pg_catalog.text OPERATOR(pg_catalog.||) '.'
    OPERATOR(pg_catalog.||) TG_TABLE_NAME::pg_catalog.text OPERATOR(pg_catalog.||) ' '
    OPERATOR(pg_catalog.||) TG_OP);
  IF TG_OP OPERATOR(pg_catalog.=) 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END \$f\$;
SQL
}

# operators: [sql, probes]
sub _operators
{
	my ($s) = @_;
	my @list;
	for my $op (@CMP)
	{
		push @list, [$op, $_, $_, 'boolean'] for @SAME;
		push @list, [$op, @$_, 'boolean'] for @MIXED;
	}
	push @list, @OTHER;
	my %sample = (text => q('a'::text), integer => '1::integer', bigint => '1::bigint',
		oid => '1::oid', name => q('a'::name), timestamptz => q('2000-01-01'::timestamptz));
	my ($sql, @probes) = ('');
	my $n = 0;
	for my $o (@list)
	{
		my ($op, $l, $r, $res) = @$o;
		my $what = "$l $op $r";
		$n++;
		$sql .= <<"SQL";
CREATE FUNCTION $s.op_$n($l, $r) RETURNS $res LANGUAGE plpgsql AS \$f\$
BEGIN PERFORM $s.trap(${\ _q($what)}); RETURN \$1 OPERATOR(pg_catalog.$op) \$2; END \$f\$;
CREATE OPERATOR $s.$op (LEFTARG = $l, RIGHTARG = $r, FUNCTION = $s.op_$n);
SQL
		push @probes, [$what, "SELECT $sample{$l} $op $sample{$r}"];
	}
	return ($sql, @probes);
}

sub _functions
{
	my ($s) = @_;
	my ($sql, @probes) = ('');
	for my $f (@FUNCS)
	{
		my ($name, $args, $res, $probe) = @$f;
		my $what = "$name($args)";
		my $n = $args eq '' ? 0 : scalar(my @a = split(/,/, $args));
		my $pass = join(', ', map { "\$$_" } 1 .. $n);
		my $body = $res eq 'void'
		  ? "PERFORM pg_catalog.$name($pass); RETURN;"
		  : "RETURN pg_catalog.$name($pass);";
		$sql .= <<"SQL";
CREATE FUNCTION $s.$name($args) RETURNS $res LANGUAGE plpgsql AS \$f\$
BEGIN PERFORM $s.trap(${\ _q($what)}); $body END \$f\$;
SQL
		push @probes, [$what, "SELECT $name($probe)"];
	}
	my $n = 0;
	for my $a (@AGGS)
	{
		my ($name, $arg, $stype, $probe) = @$a;
		my $what = "aggregate $name($arg)";
		$n++;
		my @in = $arg eq '*' ? () : split(/,\s*/, $arg);
		my $fargs = join(', ', $stype, @in);
		my $pass = join(', ', map { "\$$_" } 2 .. @in + 1);
		my $step = $name eq 'count' ? "\$1 OPERATOR(pg_catalog.+) 1"
		  : $name eq 'max' ? "CASE WHEN \$1 IS NULL OR \$2 OPERATOR(pg_catalog.>) \$1 THEN \$2 ELSE \$1 END"
		  : $name eq 'min' ? "CASE WHEN \$1 IS NULL OR \$2 OPERATOR(pg_catalog.<) \$1 THEN \$2 ELSE \$1 END"
		  : $name eq 'sum' ? "COALESCE(\$1, 0) OPERATOR(pg_catalog.+) \$2"
		  : $name eq 'array_agg' ? "pg_catalog.array_append(\$1, \$2)"
		  : "CASE WHEN \$1 IS NULL THEN \$2 ELSE \$1 OPERATOR(pg_catalog.||) \$3 OPERATOR(pg_catalog.||) \$2 END";
		my $init = $name eq 'count' ? ", INITCOND = '0'" : '';
		$sql .= <<"SQL";
CREATE FUNCTION $s.agg_$n($fargs) RETURNS $stype LANGUAGE plpgsql AS \$f\$
BEGIN PERFORM $s.trap(${\ _q($what)}); RETURN $step; END \$f\$;
CREATE AGGREGATE $s.$name($arg) (SFUNC = $s.agg_$n, STYPE = $stype$init);
SQL
		push @probes, [$what, "SELECT $probe"];
	}
	return ($sql, @probes);
}

# views: pg_catalog's, and multi_fdw's own objects (functions, views, the
# decision table) delegating to the extension's schema $ext
sub _relations
{
	my ($s, $ext) = @_;
	my ($sql, @probes) = ('');
	# A view reads a set-returning function that springs the trap first: a
	# trap in a view's WHERE clause is evaluated per row, so not at all
	# when the view is empty.  what: the name the trap gives (her pg_temp
	# look-alikes read the same functions).
	my %rows = map { $_ => "pg_catalog.$_" } @CATALOG;
	$rows{$_} = "$ext.$_" for qw(multi_fdw_in_doubt multi_fdw_stats multi_fdw_progress);
	for my $v (sort keys %rows)
	{
		# (a composite type cannot have pg_attribute's anyarray column)
		my ($type, $cols) = $v eq 'pg_attribute'
		  ? ('TABLE (attrelid oid, attname name, atttypid oid, attnum smallint,'
			  . ' atttypmod integer, attnotnull boolean, attisdropped boolean)',
			'attrelid, attname, atttypid, attnum, atttypmod, attnotnull, attisdropped')
		  : ("SETOF $rows{$v}", '*');
		$sql .= <<"SQL";
CREATE FUNCTION $s.rows_$v(what text DEFAULT '$v') RETURNS $type
LANGUAGE plpgsql AS \$f\$
BEGIN PERFORM $s.trap(what); RETURN QUERY SELECT $cols FROM $rows{$v}; END \$f\$;
CREATE VIEW $s.$v WITH (security_invoker = true) AS SELECT * FROM $s.rows_$v();
SQL
		push @probes, [$v, "SELECT 1 FROM $v LIMIT 1"];
	}
	$sql .= <<"SQL";
CREATE FUNCTION $s.rows_multi_fdw_decision(what text DEFAULT 'multi_fdw_decision')
RETURNS TABLE (gid text, umid oid, serverid oid, decided_at timestamptz)
LANGUAGE plpgsql AS \$f\$ BEGIN PERFORM $s.trap(what); END \$f\$;
CREATE VIEW $s.multi_fdw_decision WITH (security_invoker = true) AS
  SELECT * FROM $s.rows_multi_fdw_decision();
CREATE TRIGGER trap INSTEAD OF INSERT OR UPDATE OR DELETE ON $s.multi_fdw_decision
  FOR EACH ROW EXECUTE FUNCTION $s.trap_trigger();
CREATE FUNCTION $s.multi_fdw_in_doubt(server text DEFAULT NULL)
  RETURNS TABLE (server_name text, gid text, decision text, action text)
  LANGUAGE plpgsql AS \$f\$ BEGIN PERFORM $s.trap('multi_fdw_in_doubt()');
  RETURN QUERY SELECT * FROM $ext.multi_fdw_in_doubt(server); END \$f\$;
CREATE FUNCTION $s.multi_fdw_resolve(server text DEFAULT NULL)
  RETURNS TABLE (server_name text, gid text, decision text, action text)
  LANGUAGE plpgsql AS \$f\$ BEGIN PERFORM $s.trap('multi_fdw_resolve()');
  RETURN QUERY SELECT * FROM $ext.multi_fdw_resolve(server); END \$f\$;
CREATE FUNCTION $s.multi_fdw_stats() RETURNS SETOF $ext.multi_fdw_stats
  LANGUAGE plpgsql AS \$f\$ BEGIN PERFORM $s.trap('multi_fdw_stats()');
  RETURN QUERY SELECT * FROM $ext.multi_fdw_stats(); END \$f\$;
CREATE FUNCTION $s.multi_fdw_progress() RETURNS SETOF $ext.multi_fdw_progress
  LANGUAGE plpgsql AS \$f\$ BEGIN PERFORM $s.trap('multi_fdw_progress()');
  RETURN QUERY SELECT * FROM $ext.multi_fdw_progress(); END \$f\$;
CREATE FUNCTION $s.multi_fdw_stats_reset(server text DEFAULT NULL) RETURNS void
  LANGUAGE sql AS \$f\$ SELECT $s.trap('multi_fdw_stats_reset()');
  SELECT $ext.multi_fdw_stats_reset(server) \$f\$;
CREATE FUNCTION $s.multi_fdw_get_connections(check_conn boolean DEFAULT false)
  RETURNS TABLE (server_name text, user_name text, dialect text, transport text,
    valid boolean, in_transaction boolean, used_in_xact boolean, closed boolean,
    remote_backend_pid bigint)
  LANGUAGE plpgsql AS \$f\$ BEGIN PERFORM $s.trap('multi_fdw_get_connections()');
  RETURN QUERY SELECT * FROM $ext.multi_fdw_get_connections(check_conn); END \$f\$;
CREATE FUNCTION $s.multi_fdw_disconnect(text) RETURNS boolean
  LANGUAGE sql AS \$f\$ SELECT $s.trap('multi_fdw_disconnect()')
  AND $ext.multi_fdw_disconnect(\$1) \$f\$;
CREATE FUNCTION $s.multi_fdw_disconnect_all() RETURNS boolean
  LANGUAGE sql AS \$f\$ SELECT $s.trap('multi_fdw_disconnect_all()')
  AND $ext.multi_fdw_disconnect_all() \$f\$;
CREATE FUNCTION $s.multi_fdw_exec(server text, sql text) RETURNS bigint
  LANGUAGE sql AS \$f\$ SELECT CASE WHEN $s.trap('multi_fdw_exec()')
  THEN $ext.multi_fdw_exec(server, sql) END \$f\$;
SQL
	push @probes,
	  ['multi_fdw_decision', 'SELECT 1 FROM multi_fdw_decision LIMIT 1'],
	  ["$s.multi_fdw_decision INSERT", "INSERT INTO multi_fdw_decision (gid) VALUES ('x')"],
	  ['multi_fdw_in_doubt()', 'SELECT 1 FROM multi_fdw_in_doubt() LIMIT 1'],
	  ['multi_fdw_stats()', 'SELECT 1 FROM multi_fdw_stats() LIMIT 1'],
	  ['multi_fdw_get_connections()', 'SELECT 1 FROM multi_fdw_get_connections() LIMIT 1'],
	  ['multi_fdw_disconnect_all()', 'SELECT multi_fdw_disconnect_all()'];
	return ($sql, @probes);
}

# the same look-alikes of relations in pg_temp, for her own sessions: code
# that runs as someone else in her backend sees her temporary objects
sub _temp_sql
{
	my ($s) = @_;
	my $sql = '';
	for my $v ('multi_fdw_decision', 'multi_fdw_in_doubt', 'multi_fdw_stats', @CATALOG)
	{
		$sql .= "CREATE TEMP VIEW $v WITH (security_invoker = true) AS"
		  . " SELECT * FROM $s.rows_$v('pg_temp.$v');\n";
	}
	$sql .= "CREATE TRIGGER trap INSTEAD OF INSERT OR UPDATE OR DELETE ON pg_temp.multi_fdw_decision"
	  . " FOR EACH ROW EXECUTE FUNCTION $s.trap_trigger();\n";
	return $sql;
}

# arm($target, $role): $target a gateway database name (the statements go
# through gw_psql as the test's superuser) or an MfTest::Session of a
# superuser.  Creates $role (a login without superuser, with USAGE on
# multi_fdw), her schema of the same name, and her look-alikes; proves
# every trap fires; returns the handle the other functions take:
#   role, schema, set_path ("SET search_path = <schema>, pg_catalog, public"),
#   temp_sql (her pg_temp look-alikes, for a session of hers).
sub arm
{
	my ($target, $role, %opts) = @_;
	croak "Hostile::arm: bad role name '$role'" unless $role =~ /^[a-z_][a-z0-9_]*$/;
	my $h = { target => $target, role => $role, schema => $role };
	my $s = $role;
	$h->{set_path} = "SET search_path = $s, pg_catalog, public";
	_run($h, <<"SQL", must => 1);
DROP SCHEMA IF EXISTS $s CASCADE;
DO \$d\$BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) '$role') THEN
    DROP OWNED BY $role;
    DROP ROLE $role;
  END IF;
END\$d\$;
SQL
	my $ext = _run($h, "SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'multi_fdw'",
		must => 1);
	croak 'Hostile::arm: multi_fdw is not installed there' if $ext eq '';
	$h->{ext} = $ext;
	my ($ops, @p1) = _operators($s);
	my ($funcs, @p2) = _functions($s);
	my ($rels, @p3) = _relations($s, $ext);
	_run($h, <<"SQL", must => 1);
CREATE ROLE $role LOGIN NOSUPERUSER;
GRANT USAGE ON FOREIGN DATA WRAPPER multi_fdw TO $role;
CREATE SCHEMA $s AUTHORIZATION $role;
SET ROLE $role;
${\ _trap_sql($s, $role)}
$ops
$funcs
$rels
RESET ROLE;
SQL
	$h->{temp_sql} = _temp_sql($s);

	# every trap fires when reached as another role through her path
	my $from = _log_size();
	my @probes = (@p1, @p2, @p3);
	my $sql = "BEGIN;\n$h->{set_path};\n";
	$sql .= "SAVEPOINT p;\n$_->[1];\nROLLBACK TO SAVEPOINT p;\n" for @probes;
	# the same through pg_temp, in a session of hers... as the superuser
	# here, so that the trap counts it
	$sql .= $h->{temp_sql};
	my @temp = map { ["pg_temp.$_", "SELECT 1 FROM pg_temp.$_ LIMIT 1"] }
	  ('multi_fdw_decision', 'multi_fdw_in_doubt', 'multi_fdw_stats', @CATALOG);
	$sql .= "SAVEPOINT p;\n$_->[1];\nROLLBACK TO SAVEPOINT p;\n" for @temp;
	$sql .= "ROLLBACK;\n";
	_run($h, $sql);
	my $seen = _log_since($from);
	my @silent = grep { $seen !~ /hostile trap of \Q$role\E: \Q$_->[0]\E ran as/ } (@probes, @temp);
	ok(!@silent, "hostile $role: all " . (@probes + @temp) . ' traps fire when reached')
	  or diag('traps that did not fire: ' . join('; ', map { "$_->[0] ($_->[1])" } @silent));
	_run($h, "DELETE FROM $s.trap_log; ALTER ROLE $role NOSUPERUSER", must => 1);
	$h->{log_from} = _log_size();
	return $h;
}

# check($h, $label): no trap fired since arm() (nor since the previous
# check), and the role is still not a superuser.  Two assertions.
sub check
{
	my ($h, $label) = @_;
	$label //= 'hostile';
	my $role = $h->{role};
	my $text = _log_since($h->{log_from});
	my @lines = grep { /hostile trap of \Q$role\E:/ } split(/^/m, $text);
	my $rows = _run($h, "SELECT string_agg(what || ' as ' || ran_as, '; ') FROM $h->{schema}.trap_log",
		must => 1);
	ok(!@lines && $rows eq '', "$label: no look-alike of $role ran as another role")
	  or diag(join('', @lines) . ($rows ne '' ? "trap_log: $rows\n" : ''));
	is(_run($h, "SELECT rolsuper FROM pg_roles WHERE rolname = '$role'", must => 1), 'f',
		"$label: $role is not a superuser");
	# the next check starts clean
	$h->{log_from} = _log_size();
	_run($h, "DELETE FROM $h->{schema}.trap_log; ALTER ROLE $role NOSUPERUSER", must => 1);
	return;
}

# disarm($h): drop her schema, objects and role
sub disarm
{
	my ($h) = @_;
	my $r = $h->{role};
	_run($h, "DROP SCHEMA IF EXISTS $h->{schema} CASCADE; DROP OWNED BY $r; DROP ROLE IF EXISTS $r",
		must => 1);
	return;
}

1;
