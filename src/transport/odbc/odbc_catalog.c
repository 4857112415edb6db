/*-------------------------------------------------------------------------
 *
 * odbc_catalog.c
 *		IMPORT FOREIGN SCHEMA for the odbc transport, through ODBC's catalog
 *		functions (SQLTables, SQLColumns, SQLPrimaryKeys) rather than the
 *		dialect's catalog query.
 *
 * On the transport side of the wall (see transport.h): no PostgreSQL
 * server header.
 *
 * Copyright (c) 2026, multi_fdw maintainers
 *
 *-------------------------------------------------------------------------
 */
#include "odbc_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------
 * The catalog, for IMPORT FOREIGN SCHEMA
 * ---------------------------------------------------------------------
 */

/* a catalog function's string column as UTF-8, malloc'd; NULL for NULL */
static char *
mfodbc_get_string(SQLHSTMT h, int col)
{
	SQLWCHAR	buf[1024];
	SQLLEN		ind = 0;
	char	   *s;
	size_t		units;

	if (!SQL_SUCCEEDED(SQLGetData(h, (SQLUSMALLINT) col, SQL_C_WCHAR, buf,
								  sizeof(buf), &ind)) || ind == SQL_NULL_DATA)
		return NULL;
	units = (ind == SQL_NO_TOTAL || ind >= (SQLLEN) sizeof(buf)) ?
		sizeof(buf) / sizeof(SQLWCHAR) - 1 : (size_t) ind / sizeof(SQLWCHAR);
	s = malloc(units * 3 + 1);
	if (s != NULL)
		mfodbc_from_wide(buf, units, s);
	return s;
}

static long
mfodbc_get_long(SQLHSTMT h, int col, bool *isnull)
{
	SQLINTEGER	v = 0;
	SQLLEN		ind = 0;

	if (!SQL_SUCCEEDED(SQLGetData(h, (SQLUSMALLINT) col, SQL_C_SLONG, &v,
								  sizeof(v), &ind)) || ind == SQL_NULL_DATA)
	{
		*isnull = true;
		return 0;
	}
	*isnull = false;
	return (long) v;
}

/* a pattern argument that matches name only: _ and % escaped */
static SQLWCHAR *
mfodbc_pattern(MfConn *conn, const char *name)
{
	char		esc[8] = "";
	SQLSMALLINT len;
	size_t		n = strlen(name);
	char	   *p = malloc(2 * n + 1);
	size_t		o = 0;
	SQLWCHAR   *w;

	if (p == NULL)
		return NULL;
	(void) SQLGetInfo(conn->dbc, SQL_SEARCH_PATTERN_ESCAPE, esc, sizeof(esc), &len);
	for (size_t i = 0; i < n; i++)
	{
		if (esc[0] != '\0' && (name[i] == '_' || name[i] == '%' || name[i] == esc[0]))
			p[o++] = esc[0];
		p[o++] = name[i];
	}
	p[o] = '\0';
	w = mfodbc_to_wide(p, -1, NULL);
	free(p);
	return w;
}

/* Does the type take (size[,digits]) in its declaration? */
static int
mfodbc_type_args(const char *type)
{
	static const char *const sized[] = {"char", "varchar", "character",
		"character varying", "bpchar", "nchar", "nvarchar", "binary",
	"varbinary", "bit", "varbit", "bit varying", NULL};
	static const char *const scaled[] = {"numeric", "decimal", NULL};

	if (strchr(type, '(') != NULL)
		return 0;				/* the driver spelled it out already */
	for (int i = 0; sized[i]; i++)
		if (strcasecmp(type, sized[i]) == 0)
			return 1;
	for (int i = 0; scaled[i]; i++)
		if (strcasecmp(type, scaled[i]) == 0)
			return 2;
	return 0;
}

typedef struct MfodbcRows
{
	MfResult   *r;
	int			ncols;
} MfodbcRows;

/* add one in-memory row of ncols strings (NULL allowed) */
static bool
mfodbc_add_row(MfResult *r, const char *const *vals)
{
	if (r->mem_rows >= r->rows.rows_cap &&
		!mf_rows_reserve(&r->rows, r->rows.rows_cap > 0 ? r->rows.rows_cap * 2 : 64,
						 r->ncols))
		return false;
	for (int c = 0; c < r->ncols; c++)
	{
		size_t	   *o = &r->rows.offsets[(size_t) r->mem_rows * r->ncols + c];

		if (vals[c] == NULL)
			*o = MF_ROWS_NULL;
		else if (!mf_rows_add_text(&r->rows, vals[c], strlen(vals[c]), o))
			return false;
	}
	r->mem_rows++;
	return true;
}

typedef struct MfodbcNames
{
	int			n;
	int			cap;
	char	  **names;
} MfodbcNames;

static bool
mfodbc_names_add(MfodbcNames *l, char *name)
{
	if (l->n >= l->cap)
	{
		int			cap = l->cap ? l->cap * 2 : 32;
		char	  **nn = realloc(l->names, cap * sizeof(char *));

		if (nn == NULL)
			return false;
		l->names = nn;
		l->cap = cap;
	}
	l->names[l->n++] = name;
	return true;
}

static void
mfodbc_names_free(MfodbcNames *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->n = l->cap = 0;
}

/*
 * Does the schema (or, for MySQL, the catalog) exist?  Listing them is
 * the one portable way: SQLTables with SQL_ALL_SCHEMAS / SQL_ALL_CATALOGS.
 */
static int
mfodbc_schema_exists(MfConn *conn, SQLHSTMT h, const char *schema)
{
	SQLWCHAR	pct[2] = {'%', 0};
	SQLWCHAR	empty[1] = {0};
	SQLRETURN	rc;
	int			found = 0;

	/*
	 * The empty names go as terminated strings: psqlODBC reads past a
	 * zero-length one (valgrind sees it branch on uninitialised memory).
	 */
	if (conn->use_catalogs)
		rc = SQLTablesW(h, pct, SQL_NTS, empty, SQL_NTS, empty, SQL_NTS,
						empty, SQL_NTS);
	else
		rc = SQLTablesW(h, empty, SQL_NTS, pct, SQL_NTS, empty, SQL_NTS,
						empty, SQL_NTS);
	if (!SQL_SUCCEEDED(rc))
		return -1;
	while (SQL_SUCCEEDED(SQLFetch(h)))
	{
		char	   *name = mfodbc_get_string(h, conn->use_catalogs ? 1 : 2);

		if (name != NULL && strcmp(name, schema) == 0)
			found = 1;
		free(name);
	}
	(void) SQLFreeStmt(h, SQL_CLOSE);
	return found;
}

/*
 * The primary key's columns of table into *keys (the arguments are not
 * patterns).  A driver that cannot say leaves it empty: IMPORT then marks
 * no column as key.
 */
static void
mfodbc_primary_keys(MfConn *conn, SQLHSTMT h, const char *schema,
					SQLWCHAR *wtable_plain, MfodbcNames *keys)
{
	SQLWCHAR   *wplain_schema = mfodbc_to_wide(schema, -1, NULL);
	SQLRETURN	rc;

	if (conn->use_catalogs)
		rc = SQLPrimaryKeysW(h, wplain_schema, SQL_NTS, NULL, 0,
							 wtable_plain, SQL_NTS);
	else
		rc = SQLPrimaryKeysW(h, NULL, 0, wplain_schema, SQL_NTS,
							 wtable_plain, SQL_NTS);
	free(wplain_schema);
	if (SQL_SUCCEEDED(rc))
	{
		while (SQL_SUCCEEDED(SQLFetch(h)))
		{
			char	   *k = mfodbc_get_string(h, 4);

			if (k != NULL && !mfodbc_names_add(keys, k))
				free(k);
		}
	}
	(void) SQLFreeStmt(h, SQL_CLOSE);
}

/*
 * psqlODBC's SQLColumns has an extra column 25, TYPMOD: its position, or 0
 * when the driver has none.
 */
static int
mfodbc_typmod_column(SQLHSTMT h)
{
	SQLSMALLINT nrc = 0;
	char		cn[32] = "";
	SQLSMALLINT cl = 0;

	if (SQL_SUCCEEDED(SQLNumResultCols(h, &nrc)) && nrc >= 25 &&
		SQL_SUCCEEDED(SQLColAttribute(h, 25, SQL_DESC_NAME, cn,
									  sizeof(cn), &cl, NULL)) &&
		strcmp(cn, "TYPMOD") == 0)
		return 25;
	return 0;
}

/*
 * A column's type as the remote spells it, with its size and digits where
 * the type takes them (size, digits -1: not given; no_typmod: psqlODBC
 * says the column has none, whatever size it gives).
 */
static void
mfodbc_column_type(char *type, size_t typelen, const char *tyname,
				   long dtype, bool no_typmod, long size, long digits)
{
	int			a = mfodbc_type_args(tyname);

	/* MariaDB's driver calls tinyint(1) SQL_BIT "tinyint" */
	if (dtype == SQL_BIT && strcasecmp(tyname, "tinyint") == 0)
		snprintf(type, typelen, "%s(1)", tyname);
	else if (no_typmod)
		snprintf(type, typelen, "%s", tyname);
	else if (a == 2 && size > 0 && digits >= 0)
		snprintf(type, typelen, "%s(%ld,%ld)", tyname, size, digits);
	else if (a >= 1 && size > 0)
		snprintf(type, typelen, "%s(%ld)", tyname, size);
	else
		snprintf(type, typelen, "%s", tyname);
}

/*
 * One table's rows: its primary key's columns (SQLPrimaryKeys), then its
 * columns (SQLColumns), one row each, or one row with a NULL column for a
 * table without columns.
 */
static bool
mfodbc_catalog_table(MfConn *conn, SQLHSTMT h, const char *schema,
					 SQLWCHAR *wschema, const char *table, MfResult *r,
					 MfError *err)
{
	SQLWCHAR	pct[2] = {'%', 0};
	SQLRETURN	rc;
	SQLWCHAR   *wtable = mfodbc_pattern(conn, table);
	SQLWCHAR   *wtable_plain = mfodbc_to_wide(table, -1, NULL);
	MfodbcNames keys = {0};
	int			ncols = 0;
	int			typmod_col;

	if (wtable == NULL || wtable_plain == NULL)
	{
		free(wtable);
		free(wtable_plain);
		mfodbc_oom(conn, MF_STEP_FETCH, err);
		return false;
	}

	mfodbc_primary_keys(conn, h, schema, wtable_plain, &keys);

	if (conn->use_catalogs)
		rc = SQLColumnsW(h, wschema, SQL_NTS, NULL, 0, wtable, SQL_NTS, pct, SQL_NTS);
	else
		rc = SQLColumnsW(h, NULL, 0, wschema, SQL_NTS, wtable, SQL_NTS, pct, SQL_NTS);
	free(wtable);
	free(wtable_plain);
	if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_names_free(&keys);
		mfodbc_stmt_diag(conn, h, MF_STEP_FETCH, err);
		return false;
	}

	/*
	 * psqlODBC gives an unconstrained numeric or varchar a COLUMN_SIZE
	 * of its own (28,6 and 255); its extra column TYPMOD (-1) says that
	 * the column has none.
	 */
	typmod_col = mfodbc_typmod_column(h);
	while ((rc = SQLFetch(h)) == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO)
	{
		char	   *tname = mfodbc_get_string(h, 3);
		char	   *cname = mfodbc_get_string(h, 4);
		bool		null_dtype;
		long		dtype = mfodbc_get_long(h, 5, &null_dtype);
		char	   *tyname = mfodbc_get_string(h, 6);
		bool		null_size,
					null_digits,
					null_nullable;
		long		size = mfodbc_get_long(h, 7, &null_size);
		long		digits = mfodbc_get_long(h, 9, &null_digits);
		long		nullable = mfodbc_get_long(h, 11, &null_nullable);
		char	   *def = mfodbc_get_string(h, 13);
		bool		null_typmod = true;
		long		typmod = typmod_col ? mfodbc_get_long(h, typmod_col, &null_typmod) : 0;
		char		type[300];
		bool		is_key = false;
		const char *vals[6];
		bool		added;

		if (tname == NULL || strcmp(tname, table) != 0)
		{
			/* a pattern match of another table: not ours */
			free(tname);
			free(cname);
			free(tyname);
			free(def);
			continue;
		}
		if (tyname == NULL)
			type[0] = '\0';
		else
			mfodbc_column_type(type, sizeof(type), tyname,
							   null_dtype ? SQL_UNKNOWN_TYPE : dtype,
							   !null_typmod && typmod == -1,
							   null_size ? -1 : size,
							   null_digits ? -1 : digits);
		for (int k = 0; k < keys.n; k++)
			if (cname != NULL && strcmp(keys.names[k], cname) == 0)
				is_key = true;
		vals[0] = table;
		vals[1] = cname;
		vals[2] = tyname ? type : NULL;
		vals[3] = (!null_nullable && nullable == SQL_NO_NULLS) ? "t" : "f";
		vals[4] = (def != NULL && strcasecmp(def, "NULL") != 0) ? def : NULL;
		vals[5] = is_key ? "t" : "f";
		added = cname == NULL || mfodbc_add_row(r, vals);
		free(tname);
		free(cname);
		free(tyname);
		free(def);
		if (!added)
		{
			mfodbc_names_free(&keys);
			mfodbc_oom(conn, MF_STEP_FETCH, err);
			return false;
		}
		ncols++;
	}
	mfodbc_names_free(&keys);
	if (rc != SQL_NO_DATA)
	{
		mfodbc_stmt_diag(conn, h, MF_STEP_FETCH, err);
		return false;
	}
	(void) SQLFreeStmt(h, SQL_CLOSE);
	if (ncols == 0)
	{
		const char *vals[6] = {table, NULL, NULL, NULL, NULL, NULL};

		if (!mfodbc_add_row(r, vals))
		{
			mfodbc_oom(conn, MF_STEP_FETCH, err);
			return false;
		}
	}
	return true;
}

/*
 * IMPORT FOREIGN SCHEMA through ODBC's catalog functions: one row per
 * column as enum MfImportColumn lays them out (table, column, type,
 * not null, default, key), ordered by table and column position; a table
 * without columns gives one row with a NULL column, and a schema without
 * tables one row with a NULL table.  No row at all: no such schema.
 */
MfResult *
mfodbc_catalog_columns(MfConn *conn, const char *schema, MfError *err)
{
	MfResult   *r;
	SQLHSTMT	h = SQL_NULL_HSTMT;
	SQLWCHAR   *wschema = NULL;
	SQLWCHAR	pct[2] = {'%', 0};
	SQLWCHAR	types[16];
	MfodbcNames tables = {0};
	SQLRETURN	rc;
	bool		ok = false;

	mf_error_clear(err);
	if (!mfodbc_ready(conn, MF_STEP_FETCH, err))
		return NULL;
	r = mfodbc_new_result(conn, SQL_NULL_HSTMT, true, 0);
	if (r == NULL)
	{
		mfodbc_oom(conn, MF_STEP_FETCH, err);
		return NULL;
	}
	r->ncols = 6;				/* up to MF_IMPORT_IS_KEY */
	{
		SQLLEN		tl;
		SQLWCHAR   *t = mfodbc_to_wide("TABLE,VIEW", -1, &tl);

		if (t == NULL)
			goto oom;
		memcpy(types, t, (tl + 1) * sizeof(SQLWCHAR));
		free(t);
	}
	if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, conn->dbc, &h)))
	{
		mfodbc_diag(conn, SQL_HANDLE_DBC, conn->dbc, MF_STEP_FETCH, err);
		goto out;
	}
	wschema = mfodbc_pattern(conn, schema);
	if (wschema == NULL)
		goto oom;

	/* the tables, in name order */
	if (conn->use_catalogs)
		rc = SQLTablesW(h, wschema, SQL_NTS, NULL, 0, pct, SQL_NTS, types, SQL_NTS);
	else
		rc = SQLTablesW(h, NULL, 0, wschema, SQL_NTS, pct, SQL_NTS, types, SQL_NTS);
	if (!SQL_SUCCEEDED(rc))
	{
		mfodbc_stmt_diag(conn, h, MF_STEP_FETCH, err);
		goto out;
	}
	while ((rc = SQLFetch(h)) == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO)
	{
		char	   *owner = mfodbc_get_string(h, conn->use_catalogs ? 1 : 2);
		char	   *name = mfodbc_get_string(h, 3);
		bool		mine = owner != NULL && strcmp(owner, schema) == 0;

		free(owner);
		if (name == NULL || !mine)
		{
			free(name);
			continue;
		}
		if (!mfodbc_names_add(&tables, name))
		{
			free(name);
			goto oom;
		}
	}
	if (rc != SQL_NO_DATA)
	{
		mfodbc_stmt_diag(conn, h, MF_STEP_FETCH, err);
		goto out;
	}
	(void) SQLFreeStmt(h, SQL_CLOSE);

	if (tables.n == 0)
	{
		int			e = mfodbc_schema_exists(conn, h, schema);

		if (e < 0)
		{
			mfodbc_stmt_diag(conn, h, MF_STEP_FETCH, err);
			goto out;
		}
		if (e > 0)
		{
			const char *vals[6] = {NULL, NULL, NULL, NULL, NULL, NULL};

			if (!mfodbc_add_row(r, vals))
				goto oom;
		}
	}

	for (int t = 0; t < tables.n; t++)
		if (!mfodbc_catalog_table(conn, h, schema, wschema, tables.names[t], r, err))
			goto out;
	ok = true;
	goto out;

oom:
	mfodbc_oom(conn, MF_STEP_FETCH, err);
out:
	if (h != SQL_NULL_HSTMT)
		(void) SQLFreeHandle(SQL_HANDLE_STMT, h);
	free(wschema);
	mfodbc_names_free(&tables);
	if (!ok)
	{
		mfodbc_free_result(r);
		return NULL;
	}
	return r;
}
