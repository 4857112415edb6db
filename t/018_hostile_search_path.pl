# Code that runs as another role never reaches a name a user planted
# (t/lib/Hostile.pm): a role that is not a superuser fills a schema with
# look-alikes of pg_catalog's operators, functions, aggregates and views
# and of multi_fdw's own objects, puts it first in search_path, and drives
# every path that runs for someone else -- the two-phase decision record
# (as the decision table's owner), the in-doubt listing and resolving, the
# resolver worker (with her path as the database's default), the counters,
# the progress view, IMPORT FOREIGN SCHEMA, ANALYZE, the options read under
# one role and used under another.  None of her traps may run as anyone
# but her, and she must end as she began: not a superuser.
#
# The gateway is restarted with multi_fdw preloaded (the worker, the
# progress view, cluster-wide counters), and again without it at the end.
use strict;
use warnings;
use lib 't/lib';
use MfTest;
use Hostile;
use Test::More;

my $db = setup_gateway_db('mf_tap_018');
my $my = setup_mysql_server($db);
my ($ruser, $rpass) = map { mf_env($_) } qw(MF_PG_USER MF_PG_PASSWORD);
my ($muser, $mpass, $mdb) = map { mf_env($_) } qw(MF_MY_USER MF_MY_PASSWORD MF_MY_DB);

remote_safe_psql('DROP TABLE IF EXISTS t018; CREATE TABLE t018 (id int PRIMARY KEY, t text DEFAULT lower(\'X\'))');
# analyzed there at 1,000 rows, 2,000 now: her ANALYZE imports the
# remote's statistics (restore_stats) and counts 1,000, where a sample
# would count 2,000
remote_safe_psql('DROP TABLE IF EXISTS t018s; CREATE TABLE t018s WITH (autovacuum_enabled = false) AS SELECT g AS id, g % 7 AS k, \'v\' || g AS v FROM generate_series(1, 1000) g; ANALYZE t018s; INSERT INTO t018s SELECT g, 0, \'w\' FROM generate_series(1001, 2000) g');
mariadb_safe('DROP TABLE IF EXISTS t018; CREATE TABLE t018 (id int PRIMARY KEY, t text) ENGINE=InnoDB');
gw_safe_psql(<<"SQL", dbname => $db);
ALTER SERVER pg_remote OPTIONS (ADD two_phase_commit 'on');
ALTER SERVER $my OPTIONS (ADD two_phase_commit 'on');
CREATE FOREIGN TABLE public.t_su (id int, t text) SERVER pg_remote
  OPTIONS (schema_name 'public', table_name 't018');
CREATE FOREIGN TABLE public.t_su_my (id int, t text) SERVER $my OPTIONS (table_name 't018');
CREATE SCHEMA su_imp;
SQL



# asked in another database: in this one, the default path is hers for a while
sub checkpointer_start
{
	return scalar gw_psql("SELECT backend_start FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
		dbname => 'postgres');
}

gw_safe_psql(<<"SQL", dbname => 'postgres');
LOAD 'multi_fdw';
ALTER SYSTEM SET shared_preload_libraries = 'multi_fdw';
ALTER SYSTEM SET multi_fdw.resolver_database = '$db';
ALTER SYSTEM SET multi_fdw.resolver_naptime = 1;
SQL
END
{
	gw_psql("ALTER DATABASE $db RESET search_path", dbname => 'postgres');
	gw_psql(<<'SQL', dbname => 'postgres');
LOAD 'multi_fdw';
ALTER SYSTEM RESET shared_preload_libraries;
ALTER SYSTEM RESET multi_fdw.resolver_database;
ALTER SYSTEM RESET multi_fdw.resolver_naptime;
SQL
	restart_gateway();
}
ok(restart_gateway(), 'the gateway restarts with multi_fdw preloaded');

my $h = Hostile::arm($db, 'regress_hostile');
my ($r, $s) = ($h->{role}, $h->{schema});
gw_safe_psql(<<"SQL", dbname => $db);
GRANT USAGE ON FOREIGN SERVER pg_remote, $my TO $r;
CREATE USER MAPPING FOR $r SERVER pg_remote OPTIONS (user '$ruser', password '$rpass');
CREATE USER MAPPING FOR $r SERVER $my OPTIONS (user '$muser', password '$mpass');
CREATE SCHEMA ${s}_imp AUTHORIZATION $r;
CREATE SCHEMA ${s}_imp2 AUTHORIZATION $r;
SET ROLE $r;
CREATE FOREIGN TABLE $s.t_pg (id int, t text) SERVER pg_remote
  OPTIONS (schema_name 'public', table_name 't018');
CREATE FOREIGN TABLE $s.t_my (id int, t text) SERVER $my OPTIONS (table_name 't018');
CREATE FOREIGN TABLE $s.t_stats (id int, k int, v text) SERVER pg_remote
  OPTIONS (schema_name 'public', table_name 't018s');
SQL

# ---------------------------------------------------------------------
# her own session: her commits record their decisions as the decision
# table's owner, in her backend, where her temporary look-alikes live too
# ---------------------------------------------------------------------
{
	my $her = MfTest::Session->new(dbname => $db, user => $r);
	my ($out, $err) = $her->query("$h->{temp_sql}\n$h->{set_path}");
	is($err, '', 'her session: temporary look-alikes and her search_path');
	for my $sql (
		# a local write and one server: two-phase
		"BEGIN; CREATE TEMP TABLE l (id int) ON COMMIT DROP; INSERT INTO l VALUES (1);
		 INSERT INTO t_pg (id) VALUES (1); COMMIT",
		# two servers (the second commit deletes the first one's decision)
		'BEGIN; INSERT INTO t_pg (id) VALUES (2); INSERT INTO t_my (id) VALUES (2); COMMIT',
		'BEGIN; INSERT INTO t_pg (id) VALUES (3); SAVEPOINT a; INSERT INTO t_my (id) VALUES (3);
		 RELEASE SAVEPOINT a; COMMIT',
		'BEGIN; INSERT INTO t_pg (id) VALUES (4); INSERT INTO t_my (id) VALUES (4); ROLLBACK',
		'BEGIN; SET LOCAL multi_fdw.two_phase_commit = \'off\'; INSERT INTO t_pg (id) VALUES (5);
		 INSERT INTO t_my (id) VALUES (5); ROLLBACK',
		# what she may list
		'SELECT 1 FROM public.multi_fdw_stats() LIMIT 1',
		'SELECT 1 FROM public.multi_fdw_stats LIMIT 1',
		'SELECT 1 FROM public.multi_fdw_progress() LIMIT 1',
		'SELECT 1 FROM public.multi_fdw_get_connections(true) LIMIT 1',
		# her imports and ANALYZE
		"IMPORT FOREIGN SCHEMA public LIMIT TO (t018) FROM SERVER pg_remote INTO ${s}_imp",
		"IMPORT FOREIGN SCHEMA \"$mdb\" LIMIT TO (t018) FROM SERVER $my INTO ${s}_imp2",
		"ANALYZE t_pg; ANALYZE t_my; ANALYZE ${s}_imp.t018",
		# the remote's statistics imported
		'ANALYZE t_stats')
	{
		my ($o, $e) = $her->query($sql);
		my $bad = join("\n", grep { /ERROR/ } split(/\n/, $e));
		my $first = (split(/\n/, $sql))[0];
		is($bad, '', "her session: $first");
	}
	$her->quit;
}
is(remote_counts('t018'), '3/2', 'her commits reached both remotes');
is(gw_safe_psql("SELECT c.reltuples || '/' || pg_catalog.cardinality(s.histogram_bounds::pg_catalog.text::pg_catalog.text[])
	FROM pg_catalog.pg_class c, pg_catalog.pg_stats s
	WHERE c.oid OPERATOR(pg_catalog.=) '$s.t_stats'::pg_catalog.regclass AND s.schemaname = '$s'
	  AND s.tablename = 't_stats' AND s.attname = 'v'", dbname => $db),
	'1000/101', 'her ANALYZE imported the remote\'s statistics');
# a remote whose catalog says its table is larger than any: the import
# refuses the count and the sample takes at most 1e15 rows (pg_class
# would keep 3e38, past which the planner's sums overflow to infinity)
remote_safe_psql("UPDATE pg_catalog.pg_class SET reltuples = 3e38 WHERE oid = 'public.t018s'::pg_catalog.regclass",
	user => $ENV{PGUSER} // 'mfdw');
gw_safe_psql("ANALYZE $s.t_stats", dbname => $db);
is(gw_safe_psql("SELECT reltuples FROM pg_catalog.pg_class WHERE oid = '$s.t_stats'::pg_catalog.regclass",
		dbname => $db),
	'1e+15', 'a remote row count past 1e15 is taken as 1e15');
remote_safe_psql("UPDATE pg_catalog.pg_class SET reltuples = 1000 WHERE oid = 'public.t018s'::pg_catalog.regclass",
	user => $ENV{PGUSER} // 'mfdw');
Hostile::check($h, 'her commits, listings, imports, ANALYZE');

# ---------------------------------------------------------------------
# a superuser with her search_path (and names with their schema)
# ---------------------------------------------------------------------
{
	my $su = MfTest::Session->new(dbname => $db);
	my ($out, $err) = $su->query($h->{set_path});
	for my $sql (
		'SELECT 1 FROM public.multi_fdw_in_doubt() LIMIT 1',
		'SELECT 1 FROM public.multi_fdw_in_doubt LIMIT 1',
		'SELECT 1 FROM public.multi_fdw_resolve() LIMIT 1',
		"SELECT 1 FROM public.multi_fdw_resolve('pg_remote'::pg_catalog.text) LIMIT 1",
		'SELECT 1 FROM public.multi_fdw_stats() LIMIT 1',
		'SELECT public.multi_fdw_stats_reset()',
		'SELECT 1 FROM public.multi_fdw_progress() LIMIT 1',
		'SELECT 1 FROM public.multi_fdw_get_connections(true) LIMIT 1',
		# the superuser's own two-phase commits: the decision record
		'BEGIN; INSERT INTO public.t_su (id) VALUES (11); INSERT INTO public.t_su_my (id) VALUES (11); COMMIT',
		# her tables (PostgreSQL runs that as her) and the superuser's
		"ANALYZE $s.t_pg; ANALYZE public.t_su; ANALYZE public.t_su_my",
		'IMPORT FOREIGN SCHEMA public LIMIT TO (t018) FROM SERVER pg_remote INTO su_imp',
		# options read as one role, then used as another, in one transaction
		"BEGIN; SELECT 1 FROM public.t_su LIMIT 1; SET LOCAL ROLE $r; SELECT 1 FROM $s.t_pg LIMIT 1;
		 RESET ROLE; ALTER SERVER pg_remote OPTIONS (ADD fetch_size '7');
		 SELECT 1 FROM public.t_su LIMIT 1; SET LOCAL ROLE $r; SELECT 1 FROM $s.t_pg LIMIT 1; COMMIT",
		'ALTER SERVER pg_remote OPTIONS (DROP fetch_size)',
		'SELECT public.multi_fdw_disconnect_all()')
	{
		my ($o, $e) = $su->query($sql);
		my $bad = join("\n", grep { /ERROR/ } split(/\n/, $e));
		my $first = (split(/\n/, $sql))[0];
		is($bad, '', "superuser with her path: $first");
	}

	# the progress view while she loads
	my $her = MfTest::Session->new(dbname => $db, user => $r);
	$her->query($h->{set_path});
	$her->send('INSERT INTO t_pg (id) SELECT g FROM pg_catalog.generate_series(100, 60099) g');
	my $polls = 0;
	until ($her->ready || $polls > 200)
	{
		$su->query('SELECT 1 FROM public.multi_fdw_progress() LIMIT 1');
		$polls++;
	}
	my ($o, $e) = $her->result;
	unlike($e, qr/ERROR/, 'her load while the progress view is read');
	$her->quit;
	$su->quit;
}
# an intent still at work while the in-doubt view is read and resolved
# with her search_path: the view asks pg_stat_activity whether its
# transaction still runs, and leaves it to its session
{
	my $su = MfTest::Session->new(dbname => $db);
	$su->query($h->{set_path});
	my $v = MfTest::Session->new(dbname => $db);
	$v->send("SET multi_fdw.two_phase_fault = 'sleep_after_local_commit';
		BEGIN; INSERT INTO public.t_su (id) VALUES (12);
		INSERT INTO public.t_su_my (id) VALUES (12); COMMIT");
	my $seen = '';
	wait_for(sub {
		my ($o) = $su->query("SELECT pg_catalog.string_agg(decision, ',') FROM public.multi_fdw_in_doubt");
		$seen = $o // '';
		return $seen =~ /in progress/;
	}, timeout => 4);
	like($seen, qr/in progress/, 'superuser with her path: the in-doubt view judges a running intent');
	my ($o, $e) = $su->query("SELECT pg_catalog.string_agg(action, ',') FROM public.multi_fdw_resolve()");
	unlike($e, qr/ERROR/, 'superuser with her path: resolving leaves a running intent to its session');
	my ($vo, $ve) = $v->result;
	is($ve, '', 'and that session commits it');
	$v->quit;
	$su->quit;
}
Hostile::check($h, 'a superuser with her search_path');

# ---------------------------------------------------------------------
# the resolver worker, her path the database's default: her commit dies
# after the local commit, and the worker ends both remote transactions
# ---------------------------------------------------------------------
gw_safe_psql("ALTER DATABASE $db SET search_path = $s, pg_catalog, public", dbname => 'postgres');
{
	my $start = checkpointer_start();
	my ($rc) = gw_psql(<<"SQL", dbname => $db);
SET multi_fdw.two_phase_fault = 'crash_after_local_commit';
SET ROLE $r;
BEGIN;
INSERT INTO $s.t_pg (id) VALUES (20);
INSERT INTO $s.t_my (id) VALUES (20);
COMMIT;
SQL
	isnt($rc, 0, 'worker: her backend dies after the local commit');
	ok(wait_for(sub { my $x = checkpointer_start(); $x ne '' && $x ne $start }, timeout => 60),
		'worker: the gateway is back');
	# the worker starts again with the gateway, in her default path
	ok(wait_for(sub { prepared_left() eq '0/0' }, timeout => 120),
		'worker: resolves both without being asked');
	is(remote_psql('SELECT count(*) FROM t018 WHERE id = 20') . '/'
		  . mariadb_safe('SELECT count(*) FROM t018 WHERE id = 20'),
		'1/1', 'worker: both committed');
}
gw_safe_psql("ALTER DATABASE $db RESET search_path", dbname => 'postgres');
Hostile::check($h, 'the resolver worker with her search_path as the default');

Hostile::disarm($h);
done_testing();
