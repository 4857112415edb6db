/*-------------------------------------------------------------------------
 *
 * postgres_int.h
 *		What the PostgreSQL dialect's files share.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#ifndef MF_POSTGRES_INT_H
#define MF_POSTGRES_INT_H

/* postgres_functions.c: the built-in functions and casts shipped */
extern bool mfpg_function_shippable(Oid funcid);
extern bool mfpg_cast_shippable(Oid source, Oid target);

#endif							/* MF_POSTGRES_INT_H */
