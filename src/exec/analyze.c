/*-------------------------------------------------------------------------
 *
 * analyze.c
 *		ANALYZE of a foreign table: its rows sampled through one remote
 *		scan (scan.c reads them into tuples), or the remote's own
 *		statistics imported (analyze_import.c).
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "utils/rel.h"
#include "utils/sampling.h"

#include "exec/exec.h"

/* ---------------------------------------------------------------------
 * ANALYZE: a reservoir sample of one pass over the remote table, or over
 * the remote's own sample of it (analyze_sampling, estimate.c)
 * ---------------------------------------------------------------------
 */

static int
mf_acquire_sample_rows(Relation rel, int elevel, HeapTuple *rows, int targrows,
					   double *totalrows, double *totaldeadrows)
{
	MfOptions	opts;
	MfConnEntry *entry;
	const MfTransport *tr;
	MfRowReader reader;
	List	   *retrieved_attrs;
	StringInfoData sql;
	MfResult   *res;
	MfError		err;
	ReservoirStateData rstate;
	double		samplerows = 0;
	double		rowstoskip = -1;
	double		reltuples;
	double		fraction;
	MfSampleMethod method;
	int			numrows = 0;
	int			n;

	mf_get_table_options(RelationGetRelid(rel), &opts);
	entry = mf_get_connection(GetUserMapping(rel->rd_rel->relowner,
											 opts.serverid), &opts);
	tr = mf_conn_transport(entry);

	method = mf_analyze_sample(entry, rel, &opts, targrows, &reltuples,
							   &fraction);
	initStringInfo(&sql);
	mf_deparse_analyze(&sql, rel, opts.dialect, &retrieved_attrs);
	if (method != MF_SAMPLE_OFF)
		(void) opts.dialect->deparse_sample(&sql, method, fraction);
	/* the statement actually sent, so that a test can see the sample */
	ereport(DEBUG1,
			(errmsg_internal("multi_fdw: ANALYZE of \"%s\" sends: %s",
							 RelationGetRelationName(rel), sql.data)));
	mf_row_reader_init(&reader, RelationGetDescr(rel), retrieved_attrs,
					   CurrentMemoryContext);
	reservoir_init_selection_state(&rstate, targrows);

	mf_claim_connection(entry, NULL);
	mf_error_clear(&err);
	res = tr->query(mf_conn(entry), sql.data, 0, NULL, NULL,
					mf_read(MF_READ_CURSOR, opts.fetch_size), &err);
	if (res == NULL)
		mf_raise_error(ERROR, entry, &err, sql.data);

	while ((n = tr->fetch(res, &err)) > 0)
	{
		for (int row = 0; row < n; row++)
		{
			int			pos = -1;

			CHECK_FOR_INTERRUPTS();
			if (numrows < targrows)
				pos = numrows++;
			else
			{
				if (rowstoskip < 0)
					rowstoskip = reservoir_get_next_S(&rstate, samplerows, targrows);
				if (rowstoskip <= 0)
				{
					pos = (int) (targrows * sampler_random_fract(&rstate.randstate));
					heap_freetuple(rows[pos]);
				}
				rowstoskip -= 1;
			}
			if (pos >= 0)
				rows[pos] = mf_row_reader_form(&reader, tr, res, row,
											   CurrentMemoryContext, rel);
			samplerows += 1;
		}
	}
	if (n < 0)
	{
		MfError		copy = err;

		tr->result_close(res);
		mf_raise_error(ERROR, entry, &copy, sql.data);
	}
	tr->result_close(res);
	MemoryContextDelete(reader.temp_cxt);

	/*
	 * A remote sample is a share of the rows: the table's size is the
	 * remote's estimate that the share came from, as in postgres_fdw.
	 */
	*totalrows = method == MF_SAMPLE_OFF ? samplerows : reltuples;
	*totaldeadrows = 0;
	ereport(elevel,
			(errmsg("\"%s\": table contains %.0f rows, %d rows in sample",
					RelationGetRelationName(rel), *totalrows, numrows)));
	return numrows;
}

/*
 * The remote's statistics where they can be imported (analyze_import.c),
 * else a sample.
 */
static int
mf_acquire_imported(Relation rel, int elevel, HeapTuple *rows, int targrows,
					double *totalrows, double *totaldeadrows)
{
	if (mf_import_remote_stats(rel, elevel, totalrows))
	{
		*totaldeadrows = 0;
		return 0;				/* ANALYZE computes nothing from no rows */
	}
	return mf_acquire_sample_rows(rel, elevel, rows, targrows, totalrows,
								  totaldeadrows);
}

/*
 * ANALYZE calls this for the table it analyzes before it switches to the
 * table owner's identity under SECURITY_RESTRICTED_OPERATION, and for each
 * member of an inheritance tree or partitioned table whose parent it
 * analyzes after, when the member's rows go into the parent's sample.  Only
 * the first may import statistics: the second needs rows.
 */
bool
mfAnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func,
					  BlockNumber *totalpages)
{
	MfOptions	opts;

	mf_get_table_options(RelationGetRelid(relation), &opts);
	if (opts.restore_stats && opts.dialect->stats_import_fmt != NULL &&
		!InSecurityRestrictedOperation())
		*func = mf_acquire_imported;
	else
		*func = mf_acquire_sample_rows;
	*totalpages = 1;			/* the remote's page count is not asked for */
	return true;
}
