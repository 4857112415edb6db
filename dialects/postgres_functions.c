/*-------------------------------------------------------------------------
 *
 * postgres_functions.c
 *		The built-in functions and casts that the PostgreSQL dialect ships.
 *
 * The core has already established that the function is built in,
 * immutable, returns no set, takes no VARIADIC array and has a collation
 * the remote shares (deparse_ship.c).  Immutable is not enough, though:
 * the remote is another server, perhaps of another version, with its own
 * encoding, locale, time zone data and maths library.  So a function is
 * shipped only when its result is the same there for every argument:
 *
 * - strings are counted and cut in characters, never in bytes (the
 *   remote's encoding may be another: octet_length, md5 stay here; a
 *   SQL_ASCII remote database has no characters but bytes, and is not
 *   supported);
 * - no case mapping or character class (upper, lower, initcap, regular
 *   expressions' classes: the remote's locale);
 * - no time zone (timestamptz, timetz, a named zone: its tzdata);
 * - no transcendental maths (sqrt, exp, ln, power, trigonometry: the
 *   remote's libm, or its numeric code of another version);
 * - as PostgreSQL 14 and later compute them: an older remote may lack
 *   one (starts_with is 11's) or compute it otherwise (split_part's
 *   negative field is 14's; EXTRACT, written in its SQL syntax, which
 *   every version reads, gives a double precision before 14).
 *
 * Like an operator, a function is computed on the remote column's type,
 * which must be the foreign table column's (IMPORT FOREIGN SCHEMA makes
 * it so): length() of a remote char(n) behind a text column counts no
 * trailing blank.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "postgres_int.h"

/* The functions shipped by name, whatever their argument types. */
static const char *const mfpg_functions[] = {
	/* strings, in characters */
	"substring", "substr", "position", "strpos", "length", "char_length",
	"character_length", "btrim", "ltrim", "rtrim", "replace", "left",
	"right", "lpad", "rpad", "reverse", "split_part", "starts_with",
	"repeat",
	/* numbers, exactly */
	"abs", "round", "trunc", "floor", "ceil", "ceiling", "sign", "mod", "div",
	/* dates, times and intervals without a time zone */
	"extract", "date_part", "date_trunc", "make_date", "make_time",
	"make_timestamp", "make_interval", "justify_days", "justify_hours",
	"justify_interval", "age", "isfinite",
};

/* A type whose values mean a time zone's (its tzdata's) offsets. */
static bool
mfpg_zoned_type(Oid typid)
{
	return typid == TIMESTAMPTZOID || typid == TIMETZOID;
}

bool
mfpg_function_shippable(Oid funcid)
{
	HeapTuple	tup;
	Form_pg_proc form;
	const char *name;
	bool		ok = false;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", funcid);
	form = (Form_pg_proc) GETSTRUCT(tup);
	name = NameStr(form->proname);
	for (size_t i = 0; i < lengthof(mfpg_functions) && !ok; i++)
		ok = strcmp(name, mfpg_functions[i]) == 0;
	if (mfpg_zoned_type(form->prorettype))
		ok = false;
	for (int i = 0; i < form->pronargs && ok; i++)
	{
		Oid			arg = form->proargtypes.values[i];

		/*
		 * No zone; and substring's pattern forms (text, text [, text]) are
		 * regular expressions, whose classes follow the remote's locale.
		 */
		if (mfpg_zoned_type(arg) ||
			(i > 0 && strcmp(name, "substring") == 0 && arg != INT4OID))
			ok = false;
	}
	ReleaseSysCache(tup);
	return ok;
}

/*
 * A cast among numbers, booleans, dates, times and intervals without a
 * zone (int4 to numeric, numeric to int4, timestamp to date ...), or a
 * char(n)'s value as text (its trailing blanks dropped): the same
 * computation on any PostgreSQL.  Casts from numbers to text are
 * conversions through text (CoerceViaIO), never shipped.
 */
bool
mfpg_cast_shippable(Oid source, Oid target)
{
	char		scat;
	char		tcat;
	bool		preferred;

	if (source >= FirstGenbkiObjectId || target >= FirstGenbkiObjectId ||
		mfpg_zoned_type(source) || mfpg_zoned_type(target))
		return false;
	if (source == BPCHAROID)
		return target == TEXTOID || target == VARCHAROID;
	get_type_category_preferred(source, &scat, &preferred);
	get_type_category_preferred(target, &tcat, &preferred);
	return scat != '\0' && tcat != '\0' &&
		strchr("NBDT", scat) != NULL && strchr("NBDT", tcat) != NULL &&
		source != OIDOID && target != OIDOID;
}
