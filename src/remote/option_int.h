/*-------------------------------------------------------------------------
 *
 * option_int.h
 *		What option.c (the table and the validator) shares with
 *		option_read.c (the resolved options): one option's description,
 *		the defaults, and the parsers of values.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_OPTION_INT_H
#define MF_OPTION_INT_H

#include "remote/remote.h"

typedef enum MfOptKind
{
	MF_OPT_STRING,
	MF_OPT_INT,
	MF_OPT_REAL,				/* a number of at least 0 */
	MF_OPT_BOOL,
	MF_OPT_ENUM,
	MF_OPT_DIALECT,
	MF_OPT_TRANSPORT,
	MF_OPT_KEYWORDS				/* where the transports' keywords go */
} MfOptKind;

typedef struct MfOptionDef
{
	const char *name;
	int			contexts;
	MfOptKind	kind;
	int64		min;			/* MF_OPT_INT */
	int64		max;
	const char *const *values;	/* MF_OPT_ENUM, NULL-terminated */
	bool		conn_keyword;	/* a transport's, not multi_fdw's own */
	bool		superuser_only; /* names a file of this host */
} MfOptionDef;

/* defaults of the core options */
#define MF_DEFAULT_BATCH_SIZE	1000
#define MF_DEFAULT_BATCH_BYTES	(INT64CONST(16) * 1024 * 1024)
#define MF_DEFAULT_FETCH_SIZE	1000
#define MF_DEFAULT_PIPELINE_DEPTH	8
/* postgres_fdw 15's: opening a remote query, moving one row across */
#define MF_DEFAULT_FDW_STARTUP_COST	100.0
#define MF_DEFAULT_FDW_TUPLE_COST	0.01

extern const MfOptionDef *mf_lookup_option(const char *name);
extern int64 mf_parse_int(const MfOptionDef *def, const char *value);
extern double mf_parse_real(const MfOptionDef *def, const char *value);
extern int	mf_parse_enum(const MfOptionDef *def, const char *value);
extern const MfDialect *mf_parse_dialect(const char *value);
extern const MfTransport *mf_parse_transport(const char *value);
extern List *mf_extension_list(const char *value, bool warn);

#endif							/* MF_OPTION_INT_H */
