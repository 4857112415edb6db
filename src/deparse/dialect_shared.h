/*-------------------------------------------------------------------------
 *
 * dialect_shared.h
 *		Pieces of remote SQL that the deparser and several dialects share:
 *		the one writer of parameter markers, quoting, numbers, the common
 *		statement shapes, remote type spellings (dialect_shared.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_DIALECT_SHARED_H
#define MF_DIALECT_SHARED_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/lockoptions.h"

#include "remote/dialect.h"

/*
 * The one writer of parameter markers in remote SQL, for the core and the
 * dialects alike (dialect_shared.c).
 */
extern void mf_append_marker(StringInfo buf, MfMarkerStyle markers,
							 int number);
extern char *mf_marker(MfMarkerStyle markers, int number);

/* helpers several dialects share (dialect_shared.c) */
extern void mf_quote_ident_with(StringInfo buf, const char *ident,
								char open, char close);
extern void mf_quote_literal_sql(StringInfo buf, const char *str);
extern void mf_deparse_values_insert(StringInfo buf, const char *table,
									 const char *const *columns, int ncols,
									 int nrows, MfMarkerStyle markers,
									 const char *prefix, const char *suffix);
extern bool mf_builtin_comparison(const char *opname);
extern bool mf_append_wait_policy(StringInfo buf, LockWaitPolicy wait);
extern void mf_deparse_truncate_table(StringInfo buf, const char *table);
extern bool mf_const_finite(Oid typid, const char *value);
extern bool mf_eat_number(const char **p);
extern void mf_import_name_filter(StringInfo buf, const MfImportFilter *filter,
								  const char *column,
								  void (*quote) (StringInfo buf, const char *str),
								  const char *nothing);
extern bool mf_plain_number(const char *s);
extern void mf_append_number(StringInfo buf, const char *value,
							 bool float_exponent);
extern bool mf_comparable_times(Oid left, Oid right);
extern bool mf_is_number_type(Oid typid);
extern void mf_append_fraction(StringInfo buf, double fraction);

/* A remote type spelling, parsed (see mf_parse_remote_type). */
typedef struct MfRemoteType
{
	char		name[32];		/* first word, lower case */
	int			nargs;			/* numbers in parentheses; -1: not numbers */
	int			args[2];		/* -1 for "*" */
	bool		is_max;			/* (max) */
	char		rest[64];		/* words after the arguments, lower case */
} MfRemoteType;

extern bool mf_parse_remote_type(const char *text, MfRemoteType *t);
extern char *mf_map_char_type(bool varying, const MfRemoteType *t);
extern char *mf_map_standard_type(const MfRemoteType *t);

/* a dialect's catalog query with its parameters' markers written in */
extern char *mf_deparse_catalog_query(const char *fmt, MfMarkerStyle markers,
									  int nparams);

#endif							/* MF_DIALECT_SHARED_H */
