# multi_fdw: one foreign data wrapper, several remote databases.
#
#   make && make install     build and install into the PostgreSQL that
#                            pg_config names
#   make test                install what is missing, build, install, start
#                            throwaway servers, run every suite, stop them
#                            (PG_CONFIG=... picks the PostgreSQL, 15 to 18)
#   make demo                the same set-up, then a federated bulk load
#   make fuzz SEEDS=N        the same, running only the pushdown fuzzer
#                            (t/013_pushdown_fuzz.pl) with seeds 1..N
#   make asan                the same, with the extension built with
#                            SANITIZE=1, every suite and TAP file run by
#                            t/testbed/asan under AddressSanitizer and
#                            UBSan (it leaves that build installed)
#   make SANITIZE=1          build with -fsanitize=address,undefined; such a
#                            multi_fdw.so loads only into a server started
#                            with libasan preloaded (t/testbed/asan does it)
#
#   make WITH_MYSQL=no       build without the mysql transport (no MariaDB
#   make WITH_ODBC=no        Connector/C), without the odbc one (no unixODBC);
#                            a server naming a transport left out is refused
#                            with an error saying so.  make test builds all.

MODULE_big = multi_fdw
EXTENSION = multi_fdw
DATA = sql/multi_fdw--1.0.sql sql/multi_fdw--1.0--1.1.sql \
	sql/multi_fdw--1.1--1.2.sql sql/multi_fdw--1.2--1.3.sql
PGFILEDESC = "multi_fdw - foreign data wrapper for federated bulk loads"

# the core, by layer (docs/architecture.md): the handler, then each layer
# calling only those below it; t/testbed/layer-check holds them to it
CORE_PLAN = src/plan/scan_plan.o src/plan/join.o src/plan/upper.o \
	src/plan/estimate.o src/plan/modify_plan.o src/plan/stored_row_plan.o \
	src/plan/rowid.o src/plan/depjoin.o src/plan/depjoin_cost.o src/plan/param_path.o \
	src/plan/whole_query.o
CORE_DEPARSE = src/deparse/deparse.o src/deparse/deparse_ship.o \
	src/deparse/deparse_expr.o src/deparse/deparse_collate.o \
	src/deparse/deparse_decimal.o src/deparse/deparse_join.o \
	src/deparse/deparse_upper.o src/deparse/deparse_stmt.o \
	src/deparse/deparse_keys.o src/deparse/deparse_query.o \
	src/deparse/deparse_query_from.o \
	src/deparse/dialect_shared.o
CORE_EXEC = src/exec/scan.o src/exec/scan_memo.o src/exec/read_ahead.o \
	src/exec/held_rows.o \
	src/exec/modify.o src/exec/direct_modify.o src/exec/stored_row.o src/exec/buffer.o \
	src/exec/pipeline.o src/exec/depjoin_exec.o src/exec/depjoin_hash.o \
	src/exec/analyze.o src/exec/analyze_import.o src/exec/truncate.o src/exec/import.o \
	src/exec/partition_guard.o src/exec/remote_query.o \
	src/exec/run_extent.o src/exec/jit_choice.o
CORE_REMOTE = src/remote/registry.o src/remote/option.o src/remote/data_epoch.o \
	src/remote/option_read.o src/remote/appname.o src/remote/connection.o \
	src/remote/connection_list.o src/remote/savepoint_guard.o \
	src/remote/remote_facts.o src/remote/exec_guard.o src/remote/error.o \
	src/remote/run_as.o src/remote/scram_pass.o src/remote/twophase.o \
	src/remote/twophase_log.o \
	src/remote/twophase_resolve.o src/remote/resolver.o
CORE_OBSERVE = src/observe/stats.o src/observe/progress.o
CORE = src/multi_fdw.o $(CORE_EXEC) $(CORE_PLAN) $(CORE_DEPARSE) \
	$(CORE_REMOTE) $(CORE_OBSERVE)
DIALECTS = dialects/postgres.o dialects/postgres_functions.o dialects/mysql.o \
	dialects/sqlserver.o dialects/oracle.o
# one folder per client library, and the kit they share
TR_KIT = src/transport/kit/kit_error.o src/transport/kit/kit_wait.o \
	src/transport/kit/kit_wire.o src/transport/kit/kit_bytea.o \
	src/transport/kit/kit_datetime.o src/transport/kit/kit_session.o \
	src/transport/kit/kit_rows.o
TR_LIBPQ = src/transport/libpq/pq_transport.o src/transport/libpq/pq_wire.o \
	src/transport/libpq/pq_fetch.o src/transport/libpq/pq_stream.o \
	src/transport/libpq/pq_defer.o src/transport/libpq/pq_small.o \
	src/transport/libpq/pq_replan.o src/transport/libpq/pq_relink.o
TR_MYSQL = src/transport/mysql/my_transport.o src/transport/mysql/my_wire.o \
	src/transport/mysql/my_cache.o src/transport/mysql/my_stmt.o \
	src/transport/mysql/my_value.o src/transport/mysql/my_fetch.o \
	src/transport/mysql/my_infile.o src/transport/mysql/my_text.o \
	src/transport/mysql/my_relink.o src/transport/mysql/my_modes.o \
	src/transport/mysql/my_messages.o
TR_ODBC = src/transport/odbc/odbc_transport.o src/transport/odbc/odbc_stmt.o \
	src/transport/odbc/odbc_diag.o \
	src/transport/odbc/odbc_fetch.o src/transport/odbc/odbc_exec.o \
	src/transport/odbc/odbc_bind.o \
	src/transport/odbc/odbc_catalog.o src/transport/odbc/odbc_option.o \
	src/transport/odbc/odbc_cancel.o
WITH_MYSQL ?= yes
WITH_ODBC ?= yes
TRANSPORTS = $(TR_KIT) $(TR_LIBPQ)
ifneq ($(WITH_MYSQL),no)
TRANSPORTS += $(TR_MYSQL)
endif
ifneq ($(WITH_ODBC),no)
TRANSPORTS += $(TR_ODBC)
endif
OBJS = $(CORE) $(DIALECTS) $(TRANSPORTS)

# pg_regress suites, in the order they run (sql/NAME.sql, expected/NAME.out)
REGRESS = pg_init ext_update pg_options pg_deparse pg_scan pg_pushdown pg_functions pg_whole pg_join pg_param pg_batch pg_types \
	pg_update pg_rowid pg_semantics pg_compat pg_xact pg_exchanges pg_parallel pg_errors pg_import pg_fastpath pg_facts pg_kept pg_sampling pg_restore_stats \
	mysql_init mysql_exchanges mysql_semantics mysql_batch mysql_types mysql_infile mysql_xact mysql_errors mysql_update mysql_kept \
	mysql_pushdown mysql_join pg_xjoin pg_xjoin_keys mysql_packet mysql_compat mysql_sampling odbc_pg odbc_mysql odbc_exchanges remote_query security security_2pc oracle_batch oracle_types oracle_modify oracle_pushdown \
	sqlserver_batch sqlserver_pushdown sqlserver_tds odbc_semantics odbc_partition stats
REGRESS_OPTS = --dbname=contrib_regression
ALL_REGRESS := $(REGRESS)

# `make installcheck MF_LOOPBACK=yes` outside the test bed -- against a
# packager's throwaway server, or in pg_buildext installcheck's
# pg_virtualenv (debian/rules sets it) -- runs the suites that need only
# PostgreSQL, with that same server as their remote (loopback over TCP to
# 127.0.0.1, port PGPORT, 5432 by default).  t/testbed/loopback first gives
# the server what the test bed's remote has: a login role mfapp, with a
# password made for this run, owning a database mfremote.  Since that
# changes the server's roles, it runs only when asked for; a plain `make
# installcheck` outside the test bed says so and stops.  The test bed (make
# test, t/testbed/run-tests) exports MF_PG_HOST and gets every suite.  Left
# out here: ext_update (it needs MariaDB too) and pg_options (it needs the
# remote's unix socket to trust every login).
LOOPBACK_REGRESS = pg_init pg_deparse pg_scan pg_pushdown pg_functions pg_whole pg_join pg_batch pg_types pg_update pg_rowid \
	pg_semantics pg_compat pg_xact pg_exchanges pg_errors pg_import pg_fastpath pg_sampling
ifeq ($(MF_PG_HOST),)
ifeq ($(MF_LOOPBACK),yes)
REGRESS := $(LOOPBACK_REGRESS)
export MF_PG_HOST := 127.0.0.1
export MF_PG_PORT := $(or $(PGPORT),5432)
export MF_PG_DB := mfremote
export MF_PG_USER := mfapp
export MF_PG_PASSWORD := $(shell od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
else
MF_NO_REMOTE := yes
endif
endif

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

PG_CPPFLAGS = -I$(srcdir)/src
PG_CFLAGS = -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
SHLIB_LINK = -L$(shell $(PG_CONFIG) --libdir 2>/dev/null) -lpq
ifneq ($(WITH_MYSQL),no)
MYSQL_CFLAGS := $(shell mariadb_config --cflags 2>/dev/null || mysql_config --cflags 2>/dev/null)
MYSQL_LIBS := $(shell mariadb_config --libs 2>/dev/null || mysql_config --libs 2>/dev/null)
PG_CPPFLAGS += -DMF_WITH_MYSQL
SHLIB_LINK += $(MYSQL_LIBS)
endif
ifneq ($(WITH_ODBC),no)
PG_CPPFLAGS += -DMF_WITH_ODBC
SHLIB_LINK += -lodbc
endif
# what a build with WITH_*=no left out is cleaned too
EXTRA_CLEAN = src/build-flags.stamp src/sanitize.stamp $(TR_MYSQL) $(TR_ODBC) \
	$(TR_MYSQL:.o=.bc) $(TR_ODBC:.o=.bc)

.PHONY: test demo deps bench fuzz asan

# SANITIZE=1: AddressSanitizer and UBSan in the extension's own code (the
# server is not built with them; t/testbed/asan preloads their runtimes).
# UBSan's findings are recoverable (gcc's default, kept on purpose): a
# report goes to the log and the backend goes on, so one finding does not
# kill a backend in the middle of a suite and hide every later one.  An
# ASan finding stops the process (memory is already corrupt by then).
SANITIZE ?=
ifneq ($(filter-out 0 no,$(SANITIZE)),)
PG_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fsanitize-recover=undefined -g
endif

ifneq ($(PGXS),)
include $(PGXS)
else
all:
	@echo "pg_config not found: run 'make test' or 'make demo' (they install it), or t/testbed/install-deps" >&2
	@exit 1
endif

# The transports sit behind the wall of src/transport/transport.h: they are built
# without PostgreSQL's server headers on the include path, so that one
# slipping in is a compile error.
WALLED_FLAGS = -I$(srcdir)/src $(MYSQL_CFLAGS) -I$(shell $(PG_CONFIG) --includedir 2>/dev/null)
$(foreach t,$(TRANSPORTS),$(t) $(t:.o=.bc)): override CPPFLAGS := $(WALLED_FLAGS)

deps:
	t/testbed/install-deps

# `make test PG_CONFIG=/path/to/pg_config` builds, installs and tests
# against that PostgreSQL (its servers, psql and pg_regress).
test: deps
	$(MAKE) all WITH_MYSQL=yes WITH_ODBC=yes
	t/testbed/layer-check
	$(MAKE) install WITH_MYSQL=yes WITH_ODBC=yes
	PG_CONFIG="$(PG_CONFIG)" t/testbed/run-tests

# The fuzzer's own seeds; run-tests always runs some pg_regress suite, and
# pg_init is the shortest.
SEEDS ?= 3
fuzz: deps
	$(MAKE) all WITH_MYSQL=yes WITH_ODBC=yes
	$(MAKE) install WITH_MYSQL=yes WITH_ODBC=yes
	PG_CONFIG="$(PG_CONFIG)" MF_FUZZ_SEEDS="$(SEEDS)" MF_REGRESS=pg_init \
	  MF_TAP=t/013_pushdown_fuzz.pl t/testbed/run-tests

# every suite and TAP file under ASan/UBSan (t/testbed/asan); the build
# that stays installed afterwards is the sanitized one
asan: deps
	$(MAKE) all SANITIZE=1 WITH_MYSQL=yes WITH_ODBC=yes
	$(MAKE) install SANITIZE=1 WITH_MYSQL=yes WITH_ODBC=yes
	PG_CONFIG="$(PG_CONFIG)" t/testbed/asan

demo: deps
	$(MAKE) all
	$(MAKE) install
	t/testbed/demo

# PGXS tracks no header dependencies: every object follows the headers of
# its layer and those below.
OBSERVE_H = src/compat.h src/transport/transport.h src/observe/observe.h
REMOTE_H = $(OBSERVE_H) src/remote/dialect.h src/remote/remote.h
DEPARSE_H = $(REMOTE_H) src/deparse/dialect_shared.h src/deparse/deparse.h
PLAN_H = $(DEPARSE_H) src/plan/plan.h src/plan/scan_int.h \
	src/plan/modify_int.h src/plan/depjoin_int.h
EXEC_H = $(PLAN_H) src/exec/exec.h src/exec/depjoin_state.h
$(CORE_OBSERVE): $(OBSERVE_H)
$(CORE_REMOTE): $(REMOTE_H) src/remote/connection_int.h \
	src/remote/option_int.h src/remote/twophase_int.h
$(CORE_DEPARSE) $(DIALECTS): $(DEPARSE_H) src/deparse/deparse_int.h
$(CORE_PLAN): $(PLAN_H)
$(CORE_EXEC) src/multi_fdw.o: $(EXEC_H)

# The registry and the library follow the choice of transports: the stamp
# changes when WITH_MYSQL or WITH_ODBC does.
MF_BUILD_FLAGS = WITH_MYSQL=$(WITH_MYSQL) WITH_ODBC=$(WITH_ODBC)
src/build-flags.stamp: FORCE
	@echo '$(MF_BUILD_FLAGS)' | cmp -s - $@ || echo '$(MF_BUILD_FLAGS)' > $@
src/remote/registry.o src/remote/registry.bc $(shlib): src/build-flags.stamp
# every object follows SANITIZE: a build with it and one without never mix
MF_SANITIZE_FLAGS = SANITIZE=$(filter-out 0 no,$(SANITIZE))
src/sanitize.stamp: FORCE
	@echo '$(MF_SANITIZE_FLAGS)' | cmp -s - $@ || echo '$(MF_SANITIZE_FLAGS)' > $@
$(OBJS) $(shlib): src/sanitize.stamp
.PHONY: FORCE
$(TRANSPORTS): src/transport/transport.h src/transport/kit/kit.h
$(TR_LIBPQ): src/transport/libpq/pq_int.h
$(TR_MYSQL): src/transport/mysql/my_int.h
$(TR_ODBC): src/transport/odbc/odbc_int.h

bench: deps
	$(MAKE) all
	$(MAKE) install
	bench/run

# the pg_regress suites, for t/testbed/postgres-only
print-regress:
	@echo $(ALL_REGRESS)

ifeq ($(MF_LOOPBACK),yes)
installcheck: loopback
.PHONY: loopback
loopback:
	PG_CONFIG="$(PG_CONFIG)" $(srcdir)/t/testbed/loopback
endif
ifeq ($(MF_NO_REMOTE),yes)
installcheck: no-remote
.PHONY: no-remote
no-remote:
	@echo "installcheck: no remote servers: run 'make test' (it starts its own)," >&2
	@echo "or 'make installcheck MF_LOOPBACK=yes' on a throwaway server, which gets" >&2
	@echo "a login role mfapp and a database mfremote for the postgres suites." >&2
	@exit 1
endif
.PHONY: print-regress
