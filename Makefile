# multi_fdw: one foreign data wrapper, several remote databases.
#
#   make && make install     build and install into the PostgreSQL that
#                            pg_config names
#   make test                install what is missing, build, install, start
#                            throwaway servers, run every suite, stop them
#                            (PG_CONFIG=... picks the PostgreSQL, 15 to 18)
#   make demo                the same set-up, then a federated bulk load

MODULE_big = multi_fdw
EXTENSION = multi_fdw
DATA = sql/multi_fdw--1.0.sql sql/multi_fdw--1.0--1.1.sql
PGFILEDESC = "multi_fdw - foreign data wrapper for federated bulk loads"

CORE = src/multi_fdw.o src/option.o src/connection.o src/error.o \
	src/deparse.o src/scan.o src/modify.o src/buffer.o src/import.o \
	src/registry.o src/pipeline.o
DIALECTS = dialects/common.o dialects/postgres.o dialects/mysql.o \
	dialects/sqlserver.o dialects/oracle.o
TRANSPORTS = src/transport/common.o src/transport/libpq.o \
	src/transport/mysql.o src/transport/odbc.o src/transport/odbc_bind.o \
	src/transport/odbc_catalog.o src/transport/odbc_option.o \
	src/transport/odbc_cancel.o
OBJS = $(CORE) $(DIALECTS) $(TRANSPORTS)

# pg_regress suites, in the order they run (sql/NAME.sql, expected/NAME.out)
REGRESS = pg_init ext_update pg_options pg_deparse pg_scan pg_batch pg_types \
	pg_update pg_rowid pg_semantics pg_xact pg_errors pg_import pg_fastpath \
	mysql_init mysql_batch mysql_types mysql_infile mysql_xact mysql_errors mysql_update \
	mysql_pushdown mysql_packet odbc_pg odbc_mysql security oracle_batch oracle_types oracle_modify \
	sqlserver_batch sqlserver_tds
REGRESS_OPTS = --dbname=contrib_regression

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

MYSQL_CFLAGS := $(shell mariadb_config --cflags 2>/dev/null || mysql_config --cflags 2>/dev/null)
MYSQL_LIBS := $(shell mariadb_config --libs 2>/dev/null || mysql_config --libs 2>/dev/null)

PG_CPPFLAGS = -I$(srcdir)/src
PG_CFLAGS = -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
SHLIB_LINK = -L$(shell $(PG_CONFIG) --libdir 2>/dev/null) -lpq $(MYSQL_LIBS) -lodbc

.PHONY: test demo deps bench

ifneq ($(PGXS),)
include $(PGXS)
else
all:
	@echo "pg_config not found: run 'make test' or 'make demo' (they install it), or t/testbed/install-deps" >&2
	@exit 1
endif

# The transports sit behind the wall of src/transport.h: they are built
# without PostgreSQL's server headers on the include path, so that one
# slipping in is a compile error.
WALLED_FLAGS = -I$(srcdir)/src $(MYSQL_CFLAGS) -I$(shell $(PG_CONFIG) --includedir 2>/dev/null)
$(foreach t,$(TRANSPORTS),$(t) $(t:.o=.bc)): override CPPFLAGS := $(WALLED_FLAGS)

deps:
	t/testbed/install-deps

# `make test PG_CONFIG=/path/to/pg_config` builds, installs and tests
# against that PostgreSQL (its servers, psql and pg_regress).
test: deps
	$(MAKE) all
	$(MAKE) install
	PG_CONFIG="$(PG_CONFIG)" t/testbed/run-tests

demo: deps
	$(MAKE) all
	$(MAKE) install
	t/testbed/demo

# PGXS tracks no header dependencies: every object follows the interfaces.
$(OBJS): src/dialect.h src/transport.h src/multi_fdw.h
$(filter src/transport/odbc%.o,$(TRANSPORTS)): src/transport/odbc_int.h

bench: deps
	$(MAKE) all
	$(MAKE) install
	bench/run
