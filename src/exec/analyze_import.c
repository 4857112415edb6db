/*-------------------------------------------------------------------------
 *
 * analyze_import.c
 *		ANALYZE of a foreign table from the remote's own statistics (option
 *		restore_stats), instead of a sample of its rows.
 *
 * The remote is asked once (the dialect's stats_import_fmt) for its row
 * count and, for each column, what its own ANALYZE found: the share of
 * NULLs, the average width, the number of distinct values, the most common
 * values with their frequencies, the histogram's bounds and the
 * correlation.  They are written to pg_statistic in the slots a local
 * ANALYZE of a scalar column fills (std_typanalyze's), and the row count
 * becomes the table's reltuples.  No row crosses the network.
 *
 * All or nothing, as in postgres_fdw 19: the statistics are imported only
 * when every column with a statistics target other than 0 has them on the
 * remote, under the same type, a built-in one analyzed as a scalar (not an
 * array, range or text search type, whose analysis fills other slots) whose
 * text means the same here (not money, whose text is the remote's locale's,
 * nor an OID alias such as regclass, which names remote objects).  The
 * remote relation must be a plain table or materialized view: a
 * partitioned table's statistics are only ever refreshed by hand, and an
 * inheritance parent's describe it without its children, which its scan
 * returns.  A table with extended statistics needs a sample to build them.
 * Otherwise ANALYZE samples, as without the option, and says why at its
 * message level (VERBOSE shows it).
 *
 * What the remote sends is held to what a local ANALYZE could have made:
 * as many common values and histogram bounds as the local column's
 * statistics target asks for (the planner compares common values pairwise
 * when it estimates a join, and does not stop for a cancel meanwhile), no
 * more than the largest target's; widths the planner can add up; each
 * figure in its range, the frequencies most common first.  A figure out of
 * range is a WARNING and a sample; so is a value the local input function
 * cannot read on PostgreSQL 16 and later (on 15 it is an ERROR).  A
 * histogram is kept only when its bounds are in order under the local
 * column's collation (a remote collation that sorts otherwise leaves it
 * out, and the correlation with it).  A column's n_distinct option wins
 * over the remote's figure, as over a sample's.
 *
 * Only an ANALYZE of the foreign table itself imports.  A foreign table
 * analyzed as a member of an inheritance tree or a partitioned table gives
 * rows to its parent's sample (acquire_inherited_sample_rows), which
 * statistics cannot; analyze.c tells the two apart.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/indexing.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "commands/vacuum.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#endif
#include "utils/array.h"
#include "utils/attoptcache.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/guc.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/relcache.h"
#include "utils/typcache.h"

#include "exec/exec.h"

/* the columns of a stats_import_fmt row (dialect.h) */
enum
{
	MF_ST_NAME,
	MF_ST_TYPE_SCHEMA,
	MF_ST_TYPE_NAME,
	MF_ST_RELTUPLES,
	MF_ST_HAS_STATS,
	MF_ST_NULL_FRAC,
	MF_ST_AVG_WIDTH,
	MF_ST_N_DISTINCT,
	MF_ST_MCV,
	MF_ST_MCF,
	MF_ST_HISTOGRAM,
	MF_ST_CORRELATION,
	MF_ST_TREE,					/* not a table without children */
	MF_ST_NCOLS
};

/* the largest statistics target (MAX_STATISTICS_TARGET from 17 on) */
#define MF_MAX_STATS_TARGET 10000

/*
 * A value ANALYZE keeps among the common ones or the histogram's bounds:
 * no wider than its own (WIDTH_THRESHOLD in analyze.c), which the planner
 * copies and compares pairwise.  And the text of a list, no longer than
 * the largest target's of such values could be, before it is read.
 */
#define MF_STATS_VALUE_MAX	1024
#define MF_STATS_TEXT_MAX	((MF_MAX_STATS_TARGET + 1) * (MF_STATS_VALUE_MAX * 4 + 8))

/*
 * A column's width as the planner adds it to its row's (in an int32 on 15
 * and 16, for a whole row twice): a remote's figure no wider than this.
 */
#define MF_STATS_WIDTH_MAX	(256 * 1024)

/* One local column: where its statistics come from, and what they are. */
typedef struct MfStatsColumn
{
	AttrNumber	attnum;
	Oid			typid;
	Oid			collid;
	const char *name;			/* the local name, for messages */
	int			target;			/* its statistics target */
	const char *remote_name;
	char	  **remote;			/* its remote row; NULL: none */

	float4		nullfrac;
	int32		width;
	float4		ndistinct;
	ArrayType  *mcv;			/* NULL: none */
	ArrayType  *mcf;
	ArrayType  *histogram;		/* NULL: none, or not in our order */
	bool		has_correlation;
	float4		correlation;
} MfStatsColumn;

/* The column's statistics target: its own, or the default; 0: none. */
static int
mf_column_target(Relation rel, AttrNumber attnum)
{
	int			target;
#if PG_VERSION_NUM >= 170000
	HeapTuple	tup;
	Datum		d;
	bool		isnull;

	tup = SearchSysCache2(ATTNUM, ObjectIdGetDatum(RelationGetRelid(rel)),
						  Int16GetDatum(attnum));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for attribute %d of relation %u",
			 attnum, RelationGetRelid(rel));
	d = SysCacheGetAttr(ATTNUM, tup, Anum_pg_attribute_attstattarget, &isnull);
	target = isnull ? -1 : DatumGetInt16(d);
	ReleaseSysCache(tup);
#else
	target = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attstattarget;
#endif
	if (target < 0)
		target = default_statistics_target;
	return Min(target, MF_MAX_STATS_TARGET);
}

/*
 * Why a column of type typid cannot take imported statistics, or NULL when
 * it can: *typname is the type's name, to be compared with the remote's.
 */
static const char *
mf_type_refusal(Oid typid, char **typname)
{
	HeapTuple	tup;
	Form_pg_type typ;
	const char *why = NULL;

	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", typid);
	typ = (Form_pg_type) GETSTRUCT(tup);
	*typname = pstrdup(NameStr(typ->typname));
	if (typid >= FirstGenbkiObjectId ||
		typ->typnamespace != PG_CATALOG_NAMESPACE ||
		typ->typtype != TYPTYPE_BASE)
		why = "its type is not a built-in base type";
	else if (OidIsValid(typ->typanalyze))
		why = "its type has an analysis of its own";
	else if (typid == CASHOID)
		why = "money's text depends on the remote's locale";
	else if (typid == REGPROCOID || typid == REGPROCEDUREOID ||
			 typid == REGOPEROID || typid == REGOPERATOROID ||
			 typid == REGCLASSOID || typid == REGTYPEOID ||
			 typid == REGCONFIGOID || typid == REGDICTIONARYOID ||
			 typid == REGNAMESPACEOID || typid == REGROLEOID ||
			 typid == REGCOLLATIONOID || typid == ACLITEMOID)
		why = "its values name the remote's objects";
	ReleaseSysCache(tup);
	return why;
}

/* A number in [lo, hi] written as text, or false. */
static bool
mf_stats_number(const char *text, double lo, double hi, double *out)
{
	char	   *end;
	double		v;

	if (text == NULL || *text == '\0')
		return false;
	errno = 0;
	v = strtod(text, &end);
	if (*end != '\0' || errno != 0 || isnan(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/*
 * A one-dimensional array of elemtype without NULLs, from the remote's text,
 * read by the local type's input function; NULL when its shape is wrong.
 */
static ArrayType *
mf_stats_array(const char *text, Oid elemtype)
{
	ArrayType  *arr;
	Datum		d;
	int16		typlen;
	bool		typbyval;
	char		typalign;
#if PG_VERSION_NUM >= 160000
	ErrorSaveContext escontext = {T_ErrorSaveContext};
	FmgrInfo	flinfo;
#endif

	/* no list of the largest target's values is longer: not read at all */
	if (strlen(text) > MF_STATS_TEXT_MAX)
		return NULL;
#if PG_VERSION_NUM >= 160000
	fmgr_info(F_ARRAY_IN, &flinfo);
	if (!InputFunctionCallSafe(&flinfo, (char *) text, elemtype, -1,
							   (Node *) &escontext, &d))
		return NULL;
#else
	d = OidInputFunctionCall(F_ARRAY_IN, (char *) text, elemtype, -1);
#endif
	arr = DatumGetArrayTypeP(d);
	if (ARR_NDIM(arr) != 1 || ARR_LBOUND(arr)[0] != 1 ||
		ARR_DIMS(arr)[0] < 1 || ARR_DIMS(arr)[0] > MF_MAX_STATS_TARGET + 1 ||
		array_contains_nulls(arr) || ARR_ELEMTYPE(arr) != elemtype)
		return NULL;
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	if (typlen == -1)
	{
		Datum	   *elems;
		int			n;

		deconstruct_array(arr, elemtype, typlen, typbyval, typalign, &elems,
						  NULL, &n);
		for (int i = 0; i < n; i++)
			if (VARSIZE_ANY(DatumGetPointer(elems[i])) > MF_STATS_VALUE_MAX)
				return NULL;
	}
	return arr;
}

/* The first n elements of arr, or n of them spread from first to last. */
static ArrayType *
mf_stats_fewer(ArrayType *arr, int n, bool spread)
{
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elems;
	Datum	   *kept;
	int			have;

	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign,
					  &elems, NULL, &have);
	if (have <= n)
		return arr;
	kept = palloc(n * sizeof(Datum));
	for (int i = 0; i < n; i++)
		kept[i] = spread ? elems[(int) ((double) i * (have - 1) / (n - 1) + 0.5)] :
			elems[i];
	return construct_array(kept, n, ARR_ELEMTYPE(arr), typlen, typbyval,
						   typalign);
}

/* Are the histogram's bounds in order under the column's collation? */
static bool
mf_histogram_ordered(ArrayType *hist, Oid typid, Oid collid, Oid ltopr)
{
	FmgrInfo	lt;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elems;
	int			n;

	get_typlenbyvalalign(typid, &typlen, &typbyval, &typalign);
	deconstruct_array(hist, typid, typlen, typbyval, typalign, &elems, NULL,
					  &n);
	fmgr_info(get_opcode(ltopr), &lt);
	for (int i = 1; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (DatumGetBool(FunctionCall2Coll(&lt, collid, elems[i],
										   elems[i - 1])))
			return false;
	}
	return true;
}

/*
 * Reads a column's remote statistics into col.  NULL when they are sound;
 * otherwise what is wrong with them.
 */
static const char *
mf_stats_read(Relation rel, MfStatsColumn *col, TypeCacheEntry *tc)
{
	char	  **r = col->remote;
	double		v;

	AttributeOpts *aopt;

	if (!mf_stats_number(r[MF_ST_NULL_FRAC], 0, 1, &v))
		return "null_frac";
	col->nullfrac = (float4) v;

	/*
	 * The planner adds the widths of a row's columns in an int32 (15, 16):
	 * each no more than its share of that, as no stored value could be.
	 */
	if (!mf_stats_number(r[MF_ST_AVG_WIDTH], 0, PG_INT32_MAX, &v))
		return "avg_width";
	col->width = (int32) Min(v, MF_STATS_WIDTH_MAX);
	if (!mf_stats_number(r[MF_ST_N_DISTINCT], -1, FLT_MAX, &v))
		return "n_distinct";
	col->ndistinct = (float4) v;
	aopt = get_attribute_options(RelationGetRelid(rel), col->attnum);
	if (aopt != NULL && aopt->n_distinct != 0.0)
		col->ndistinct = (float4) aopt->n_distinct;

	/* the most common values, and as many frequencies, each in [0, 1] */
	if ((r[MF_ST_MCV] == NULL) != (r[MF_ST_MCF] == NULL))
		return "most_common_vals";
	if (r[MF_ST_MCV] != NULL && OidIsValid(tc->eq_opr))
	{
		Datum	   *freqs;
		int			n;
		double		sum = 0;

		col->mcv = mf_stats_array(r[MF_ST_MCV], col->typid);
		col->mcf = mf_stats_array(r[MF_ST_MCF], FLOAT4OID);
		if (col->mcv == NULL || col->mcf == NULL ||
			ARR_DIMS(col->mcv)[0] != ARR_DIMS(col->mcf)[0])
			return "most_common_vals";
		deconstruct_array(col->mcf, FLOAT4OID, sizeof(float4), true,
						  TYPALIGN_INT, &freqs, NULL, &n);

		/*
		 * Most common first, as ANALYZE lists them (the planner takes the
		 * first for the most common), and no more than all the rows.
		 */
		for (int i = 0; i < n; i++)
		{
			float4		f = DatumGetFloat4(freqs[i]);

			if (isnan(f) || f < 0 || f > 1 ||
				(i > 0 && f > DatumGetFloat4(freqs[i - 1])))
				return "most_common_freqs";
			sum += f;
		}
		if (sum > 1.001)
			return "most_common_freqs";
		col->mcv = mf_stats_fewer(col->mcv, col->target, false);
		col->mcf = mf_stats_fewer(col->mcf, col->target, false);
	}

	/* a histogram has two bounds at least, in our order */
	if (r[MF_ST_HISTOGRAM] != NULL && OidIsValid(tc->lt_opr))
	{
		col->histogram = mf_stats_array(r[MF_ST_HISTOGRAM], col->typid);
		if (col->histogram == NULL || ARR_DIMS(col->histogram)[0] < 2)
			return "histogram_bounds";
		if (!mf_histogram_ordered(col->histogram, col->typid, col->collid,
								  tc->lt_opr))
			col->histogram = NULL;
		else
			col->histogram = mf_stats_fewer(col->histogram,
											Max(col->target + 1, 2), true);
	}

	/*
	 * The correlation is of the remote's order: kept where that is ours, a
	 * type without collation or a histogram that was in order.
	 */
	if (r[MF_ST_CORRELATION] != NULL && OidIsValid(tc->lt_opr))
	{
		if (!mf_stats_number(r[MF_ST_CORRELATION], -1, 1, &v))
			return "correlation";
		if (!OidIsValid(col->collid) || col->histogram != NULL)
		{
			col->has_correlation = true;
			col->correlation = (float4) v;
		}
	}
	return NULL;
}

/* Writes a column's statistics to pg_statistic, as ANALYZE does. */
static void
mf_stats_store(Relation sd, Relation rel, MfStatsColumn *col,
			   TypeCacheEntry *tc)
{
	Datum		values[Natts_pg_statistic];
	bool		nulls[Natts_pg_statistic];
	bool		replaces[Natts_pg_statistic];
	HeapTuple	oldtup;
	HeapTuple	stup;
	int			slot = 0;

	memset(values, 0, sizeof(values));
	memset(nulls, false, sizeof(nulls));
	memset(replaces, true, sizeof(replaces));
	values[Anum_pg_statistic_starelid - 1] =
		ObjectIdGetDatum(RelationGetRelid(rel));
	values[Anum_pg_statistic_staattnum - 1] = Int16GetDatum(col->attnum);
	values[Anum_pg_statistic_stainherit - 1] = BoolGetDatum(false);
	values[Anum_pg_statistic_stanullfrac - 1] = Float4GetDatum(col->nullfrac);
	values[Anum_pg_statistic_stawidth - 1] = Int32GetDatum(col->width);
	values[Anum_pg_statistic_stadistinct - 1] = Float4GetDatum(col->ndistinct);
	for (int k = 0; k < STATISTIC_NUM_SLOTS; k++)
	{
		values[Anum_pg_statistic_stakind1 - 1 + k] = Int16GetDatum(0);
		values[Anum_pg_statistic_staop1 - 1 + k] = ObjectIdGetDatum(InvalidOid);
		values[Anum_pg_statistic_stacoll1 - 1 + k] = ObjectIdGetDatum(InvalidOid);
		nulls[Anum_pg_statistic_stanumbers1 - 1 + k] = true;
		nulls[Anum_pg_statistic_stavalues1 - 1 + k] = true;
	}

/* fills the next slot */
#define MF_SLOT(kind, op, numbers, vals) \
	do { \
		values[Anum_pg_statistic_stakind1 - 1 + slot] = Int16GetDatum(kind); \
		values[Anum_pg_statistic_staop1 - 1 + slot] = ObjectIdGetDatum(op); \
		values[Anum_pg_statistic_stacoll1 - 1 + slot] = \
			ObjectIdGetDatum(col->collid); \
		if ((numbers) != NULL) \
		{ \
			values[Anum_pg_statistic_stanumbers1 - 1 + slot] = \
				PointerGetDatum(numbers); \
			nulls[Anum_pg_statistic_stanumbers1 - 1 + slot] = false; \
		} \
		if ((vals) != NULL) \
		{ \
			values[Anum_pg_statistic_stavalues1 - 1 + slot] = \
				PointerGetDatum(vals); \
			nulls[Anum_pg_statistic_stavalues1 - 1 + slot] = false; \
		} \
		slot++; \
	} while (0)

	if (col->mcv != NULL)
		MF_SLOT(STATISTIC_KIND_MCV, tc->eq_opr, col->mcf, col->mcv);
	if (col->histogram != NULL)
		MF_SLOT(STATISTIC_KIND_HISTOGRAM, tc->lt_opr, (ArrayType *) NULL,
				col->histogram);
	if (col->has_correlation)
	{
		Datum		corr = Float4GetDatum(col->correlation);
		ArrayType  *numbers = construct_array(&corr, 1, FLOAT4OID,
											  sizeof(float4), true,
											  TYPALIGN_INT);

		MF_SLOT(STATISTIC_KIND_CORRELATION, tc->lt_opr, numbers,
				(ArrayType *) NULL);
	}
#undef MF_SLOT

	oldtup = SearchSysCache3(STATRELATTINH,
							 ObjectIdGetDatum(RelationGetRelid(rel)),
							 Int16GetDatum(col->attnum), BoolGetDatum(false));
	if (HeapTupleIsValid(oldtup))
	{
		stup = heap_modify_tuple(oldtup, RelationGetDescr(sd), values, nulls,
								 replaces);
		ReleaseSysCache(oldtup);
		CatalogTupleUpdate(sd, &stup->t_self, stup);
	}
	else
	{
		stup = heap_form_tuple(RelationGetDescr(sd), values, nulls);
		CatalogTupleInsert(sd, stup);
	}
	heap_freetuple(stup);
}

/*
 * Sends sql, whose parameters are the remote table's schema and name (or
 * none), and returns its rows as texts of ncols columns.  A remote that
 * cannot answer it (a server that speaks the dialect without its
 * catalog) gives NIL, as the sample's estimate does (estimate.c): the
 * table is then sampled.  A lost connection is raised.
 */
static List *
mf_stats_query(MfConnEntry *entry, const char *sql, Relation rel,
			   const MfDialect *dialect, int nparams, int ncols)
{
	const MfTransport *tr = mf_conn_transport(entry);
	MfTypeClass classes[2] = {MF_TYPE_TEXT, MF_TYPE_TEXT};
	const char *names[2];
	MfResult   *res;
	MfError		err;
	List	   *rows = NIL;
	int			n;

	mf_remote_table_name(rel, dialect, &names[0], &names[1]);
	mf_claim_connection(entry, NULL);
	mf_error_clear(&err);
	res = tr->query(mf_conn(entry), sql, nparams, names, classes,
					mf_read(MF_READ_WHOLE, 0), &err);
	if (res == NULL)
	{
		if (err.conn_lost)
			mf_raise_error(ERROR, entry, &err, sql);
		mf_report_error(DEBUG1, mf_conn_server_name(entry), dialect, &err, sql);
		return NIL;
	}
	while ((n = tr->fetch(res, &err)) > 0)
	{
		for (int row = 0; row < n; row++)
		{
			char	  **texts = palloc(ncols * sizeof(char *));

			for (int c = 0; c < ncols; c++)
			{
				const char *v = tr->value(res, row, c);

				texts[c] = v == NULL ? NULL : pstrdup(v);
			}
			rows = lappend(rows, texts);
		}
	}
	if (n < 0)
	{
		MfError		copy = err;

		tr->result_close(res);
		if (copy.conn_lost)
			mf_raise_error(ERROR, entry, &copy, sql);
		mf_report_error(DEBUG1, mf_conn_server_name(entry), dialect, &copy, sql);
		return NIL;
	}
	tr->result_close(res);
	return rows;
}

/*
 * The remote's answer: a row of texts per remote column, *reltuples the
 * table's row count (-1: none), *tree whether it is partitioned or has
 * children.  NIL when the remote user may not read the statistics.
 */
static List *
mf_stats_fetch(Relation rel, const MfOptions *opts, double *reltuples,
			   bool *tree)
{
	const MfDialect *dialect = opts->dialect;
	MfConnEntry *entry;
	const MfTransport *tr;
	List	   *rows;
	char	  **first;
	char	   *sql;
	double		v;

	*reltuples = -1;
	*tree = false;
	entry = mf_get_connection(GetUserMapping(rel->rd_rel->relowner,
											 opts->serverid), opts);
	tr = mf_conn_transport(entry);

	/* a remote that revoked the view would fail the statement, and ANALYZE */
	if (dialect->stats_readable_sql != NULL)
	{
		rows = mf_stats_query(entry, dialect->stats_readable_sql, rel,
							  dialect, 0, 1);
		first = rows == NIL ? NULL : linitial(rows);
		if (first == NULL || first[0] == NULL || first[0][0] != 't')
			return NIL;
	}

	sql = mf_deparse_catalog_query(dialect->stats_import_fmt, tr->markers, 2);
	ereport(DEBUG1,
			(errmsg_internal("multi_fdw: ANALYZE of \"%s\" imports with: %s",
							 RelationGetRelationName(rel), sql)));
	rows = mf_stats_query(entry, sql, rel, dialect, 2, MF_ST_NCOLS);
	if (rows == NIL)
		return NIL;
	first = linitial(rows);
	if (mf_stats_number(first[MF_ST_RELTUPLES], 0, MF_REMOTE_ROWS_MAX, &v))
		*reltuples = v;
	*tree = first[MF_ST_TREE] == NULL || first[MF_ST_TREE][0] != 'f';
	return rows;
}

/*
 * Imports the remote's statistics of rel, when the option asks for it and
 * they are there and sound for every column; *totalrows is then the
 * remote's row count.  false: ANALYZE samples.
 */
bool
mf_import_remote_stats(Relation rel, int elevel, double *totalrows)
{
	const char *relname = RelationGetRelationName(rel);
	TupleDesc	tupdesc = RelationGetDescr(rel);
	MfOptions	opts;
	MfStatsColumn *cols;
	TypeCacheEntry **caches;
	List	   *rows;
	ListCell   *lc;
	double		reltuples;
	bool		tree;
	bool		readable;
	int			ncols = 0;
	int			nestlevel;
	const char *why = NULL;
	const char *bad = NULL;
	Relation	sd;

	mf_get_table_options(RelationGetRelid(rel), &opts);
	if (!opts.restore_stats || opts.dialect->stats_import_fmt == NULL)
		return false;
	if (RelationGetStatExtList(rel) != NIL)
	{
		ereport(elevel,
				(errmsg("\"%s\": the remote's statistics are not imported, a sample is taken: the table has extended statistics, which are built from a sample",
						relname)));
		return false;
	}

	/* the columns ANALYZE analyzes, and whether their types can take it */
	cols = palloc0(tupdesc->natts * sizeof(MfStatsColumn));
	caches = palloc0(tupdesc->natts * sizeof(TypeCacheEntry *));
	for (int i = 0; i < tupdesc->natts && why == NULL; i++)
	{
		Form_pg_attribute attr = TupleDescAttr(tupdesc, i);
		MfStatsColumn *col = &cols[ncols];
		char	   *typname;

		if (attr->attisdropped)
			continue;
#if PG_VERSION_NUM >= 180000
		if (attr->attgenerated == ATTRIBUTE_GENERATED_VIRTUAL)
			continue;			/* ANALYZE skips them too */
#endif
		col->target = mf_column_target(rel, attr->attnum);
		if (col->target == 0)
			continue;
		col->attnum = attr->attnum;
		col->typid = attr->atttypid;
		col->collid = attr->attcollation;
		col->name = NameStr(attr->attname);
		col->remote_name = mf_column_name(RelationGetRelid(rel), attr->attnum);
		why = mf_type_refusal(attr->atttypid, &typname);
		if (why != NULL)
			break;
		ncols++;
	}
	if (why != NULL)
	{
		ereport(elevel,
				(errmsg("\"%s\": the remote's statistics are not imported, a sample is taken: %s (column \"%s\")",
						relname, why, cols[ncols].name)));
		return false;
	}
	if (ncols == 0)
		return false;

	rows = mf_stats_fetch(rel, &opts, &reltuples, &tree);
	readable = rows != NIL;
	if (!readable || reltuples < 0 || tree)
	{
		ereport(elevel,
				(errmsg("\"%s\": the remote's statistics are not imported, a sample is taken: %s",
						relname,
						!readable ? "the remote user cannot read them, the remote cannot say, or there is no such remote table" :
						tree ? "the remote relation is not a table without children (partitioned, a foreign table)" :
						"the remote table has no row count (never analyzed, or not a table)")));
		return false;
	}

	/* each column's remote row: its type must be ours, with statistics */
	for (int i = 0; i < ncols && why == NULL; i++)
	{
		MfStatsColumn *col = &cols[i];
		char	   *typname;

		(void) mf_type_refusal(col->typid, &typname);
		foreach(lc, rows)
		{
			char	  **r = lfirst(lc);

			if (r[MF_ST_NAME] != NULL &&
				strcmp(r[MF_ST_NAME], col->remote_name) == 0)
				col->remote = r;
		}
		if (col->remote == NULL)
			why = "the remote table has no such column";
		else if (col->remote[MF_ST_TYPE_SCHEMA] == NULL ||
				 col->remote[MF_ST_TYPE_NAME] == NULL ||
				 strcmp(col->remote[MF_ST_TYPE_SCHEMA], "pg_catalog") != 0 ||
				 strcmp(col->remote[MF_ST_TYPE_NAME], typname) != 0)
			why = "the remote column's type is not the local one";
		else if (col->remote[MF_ST_HAS_STATS] == NULL ||
				 col->remote[MF_ST_HAS_STATS][0] != 't')
			why = "the remote has no statistics of the column (ANALYZE it there, or grant SELECT on it to the remote user)";
		if (why != NULL)
			ereport(elevel,
					(errmsg("\"%s\": the remote's statistics are not imported, a sample is taken: %s (column \"%s\")",
							relname, why, col->name)));
	}
	if (why != NULL)
		return false;

	/*
	 * The values are read as they were written: in the remote's text under
	 * the session the dialect sets up (ISO dates), which the local input
	 * functions read under the same settings.
	 */
	nestlevel = mf_set_transmission_modes();
	for (int i = 0; i < ncols && bad == NULL; i++)
	{
		caches[i] = lookup_type_cache(cols[i].typid,
									  TYPECACHE_EQ_OPR | TYPECACHE_LT_OPR);
		bad = mf_stats_read(rel, &cols[i], caches[i]);
		if (bad != NULL)
			ereport(WARNING,
					(errcode(ERRCODE_FDW_ERROR),
					 errmsg("foreign table \"%s\": the remote's statistics of column \"%s\" are not sound (%s); a sample is taken",
							relname, cols[i].name, bad)));
	}
	mf_reset_transmission_modes(nestlevel);
	if (bad != NULL)
		return false;

	sd = table_open(StatisticRelationId, RowExclusiveLock);
	for (int i = 0; i < ncols; i++)
		mf_stats_store(sd, rel, &cols[i], caches[i]);
	table_close(sd, RowExclusiveLock);

	*totalrows = reltuples;
	ereport(elevel,
			(errmsg("\"%s\": the remote's statistics of %d columns imported, the table counts %.0f rows",
					relname, ncols, reltuples)));
	return true;
}
