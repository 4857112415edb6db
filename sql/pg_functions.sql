--
-- pg_functions: the built-in functions, casts and conditional expressions
-- (CASE, COALESCE, NULLIF) that the postgres dialect ships, and those it
-- keeps here.  Each expression is grouped by (GROUP BY 1, so that the
-- remote computes it and returns its value when it is shipped) and
-- compared, value by value in text form, with the same query on a local
-- copy of the data.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE IF EXISTS public.pf_t$$);
SELECT multi_fdw_exec('pg_remote', $$DROP TYPE IF EXISTS public.pf_mood$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TYPE public.pf_mood AS ENUM ('sad', 'ok', 'happy')$$);
SELECT multi_fdw_exec('pg_remote', $$
  CREATE TABLE public.pf_t (id int, i int, n numeric(10,3), f float8,
                            t text, v varchar(10), c char(6),
                            e public.pf_mood, cc text, d date,
                            ts timestamp, tz timestamptz, iv interval)$$);
-- NULLs, negatives, multibyte and accented text, trailing blanks, the
-- infinities and NaN
SELECT multi_fdw_exec('pg_remote', $$
  INSERT INTO public.pf_t
  SELECT g, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 9 - 4 END,
         CASE WHEN g % 5 = 0 THEN NULL ELSE (g * 137 % 2000 - 1000) / 7.0 END,
         CASE WHEN g = 13 THEN 'NaN' WHEN g % 6 = 0 THEN NULL
              ELSE (g * 31 % 200 - 100) / 8.0 END,
         (ARRAY[NULL, 'Beta', 'beta', 'Délta', '日本語テキスト', 'alpha  ',
                ''])[g % 7 + 1],
         (ARRAY['x', 'yy ', NULL, 'zzzzzzzzzz', 'äö'])[g % 5 + 1],
         (ARRAY['ab', 'a b', NULL, 'abcdef', 'é'])[g % 5 + 1],
         (ARRAY['sad', 'ok', 'happy', NULL])[g % 4 + 1]::public.pf_mood,
         (ARRAY['B', 'a', 'b', 'A', NULL])[g % 5 + 1],
         CASE WHEN g = 17 THEN 'infinity' WHEN g = 18 THEN '-infinity'
              WHEN g % 8 = 0 THEN NULL
              ELSE date '2023-11-28' + g * 11 END,
         CASE WHEN g % 8 = 1 THEN NULL
              ELSE timestamp '2024-02-28 22:30:00.25' + g * interval '7 hours 3 minutes' END,
         timestamptz '2024-03-31 01:30:00+00' + g * interval '1 hour',
         CASE WHEN g % 4 = 0 THEN NULL
              ELSE g * interval '1 day 5 hours' - interval '40 hours' END
    FROM generate_series(1, 60) g$$);

CREATE FOREIGN TABLE pf_t (id int, i int, n numeric(10,3), f float8,
                           t text, v varchar(10), c char(6), e text,
                           cc text COLLATE "C", d date, ts timestamp,
                           tz timestamptz, iv interval)
  SERVER pg_remote OPTIONS (schema_name 'public');
CREATE TABLE pf_copy AS SELECT * FROM pf_t;

-- e grouped on the foreign table and on the copy: the same values, and
-- whether the remote computed it
CREATE FUNCTION pf_agree(e text, OUT same boolean, OUT shipped boolean)
LANGUAGE sql AS $$
  SELECT same, relations IS NOT NULL
    FROM mf_agree(format('SELECT %s, count(*) FROM pf_t GROUP BY 1', e),
                  format('SELECT %s, count(*) FROM pf_copy GROUP BY 1', e),
                  false)
$$;

-- ===================================================================
-- what goes: strings counted in characters, exact numbers, dates and
-- times without a zone, casts among them, CASE, COALESCE, NULLIF
-- ===================================================================
SELECT e, (pf_agree(e)).*
  FROM (VALUES ('substring(c from 2 for 3)'),
               ('substring(t, 2)'),
               ('substr(v, 1, 2)'),
               ('length(c)'),
               ('length(t)'),
               ('char_length(v)'),
               ('position(''a'' in t)'),
               ('strpos(t, ''l'')'),
               ('btrim(c)'),
               ('rtrim(t, ''a '')'),
               ('replace(t, ''e'', ''E'')'),
               ('left(t, 2)'),
               ('right(t, -1)'),
               ('lpad(v, 6, ''*'')'),
               ('split_part(t, ''l'', 1)'),
               ('starts_with(t, ''B'')'),
               ('reverse(t)'),
               ('repeat(v, 2)'),
               ('substring(e from 1 for 2)'),
               ('abs(i)'),
               ('round(n, 1)'),
               ('round(n)'),
               ('trunc(n, 2)'),
               ('floor(n)'),
               ('ceil(f)'),
               ('round(f)'),
               ('sign(n)'),
               ('mod(i, 3)'),
               ('div(n, 2.5)'),
               ('extract(year from d)'),
               ('extract(dow from ts)'),
               ('extract(epoch from ts)'),
               ('extract(day from iv)'),
               ('date_part(''month'', d)'),
               ('date_trunc(''month'', ts)'),
               ('justify_hours(iv)'),
               ('age(ts, timestamp ''2020-01-01'')'),
               ('make_date(2024, abs(i) + 1, 1)'),
               ('isfinite(d)'),
               ('i::numeric / 3'),
               ('n::int'),
               ('f::numeric'),
               ('n::float8'),
               ('ts::date'),
               ('d::timestamp'),
               ('c::text'),
               ('c::varchar'),
               ('(i > 0)::int'),
               ('CASE WHEN i > 2 THEN ''big'' WHEN i IS NULL THEN ''none'' ELSE ''small'' END'),
               ('CASE i WHEN 1 THEN ''one'' WHEN -1 THEN ''minus one'' END'),
               ('CASE t WHEN ''beta'' THEN 1 WHEN ''Beta'' THEN 2 ELSE 0 END'),
               ('CASE e WHEN ''sad'' THEN 0 WHEN ''happy'' THEN 2 END'),
               ('CASE WHEN i > 0 THEN e ELSE ''none'' END'),
               ('CASE WHEN n > 0 THEN CASE i WHEN 1 THEN n END ELSE -n END'),
               ('coalesce(i, -1)'),
               ('coalesce(e, t, ''none'')'),
               ('nullif(i, 3)'),
               ('nullif(e, ''ok'')'),
               -- a binary-compatible cast that changes the meaning goes as a
               -- cast: char(n) ignores trailing blanks, oid is unsigned
               ('length(t::bpchar)'),
               ('CASE t::bpchar WHEN ''alpha'' THEN 1 ELSE 0 END'),
               ('i::oid'),
               ('t::bpchar = ''alpha'''),
               -- a CASE of NULLs only keeps its type
               ('(CASE WHEN i > 0 THEN NULL::int END) + 1'),
               ('coalesce(CASE WHEN i > 0 THEN NULL::date END, d)')) v(e);

-- the SQL they go as
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pf_t WHERE substring(c from 2 for 3) = 'b' AND extract(year from d) = 2024;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pf_t WHERE substring(e, 1, 2) = 'ok' AND length(cc) = 1;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT sum(CASE WHEN t LIKE 'b%' THEN n ELSE 0 END), sum(coalesce(i, 0)::numeric)
    FROM pf_t;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pf_t WHERE CASE e WHEN 'sad' THEN i END > 0 AND nullif(e, 'ok') IS NULL;
SELECT * FROM mf_agree($$SELECT sum(CASE WHEN t LIKE 'b%' THEN n ELSE 0 END),
  sum(coalesce(i, 0)::numeric), count(nullif(e, 'ok')) FROM pf_t$$,
  $$SELECT sum(CASE WHEN t LIKE 'b%' THEN n ELSE 0 END),
  sum(coalesce(i, 0)::numeric), count(nullif(e, 'ok')) FROM pf_copy$$, false);

-- a simple CASE's value is written once, however deep the nesting (it
-- was written again in each WHEN, and the SQL grew exponentially)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pf_t
   WHERE CASE CASE i WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END
         WHEN 'a' THEN 1 WHEN 'b' THEN 2 END = 1;
SELECT length(remote) < 300 AND remote LIKE '%CASE%' AS short_and_sent FROM mf_agree($$SELECT id FROM pf_t
  WHERE CASE CASE CASE CASE CASE i WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE 3 END
        WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE 3 END WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE 3 END
        WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE 3 END WHEN 1 THEN 1 ELSE 0 END = 1$$,
  'SELECT 1', false);
-- a branch no row takes is not computed in advance: the division by zero
-- in it fails nowhere, as here (it used to be sent as a parameter,
-- computed when the scan began)
SELECT * FROM mf_agree(
  $$SELECT id FROM pf_t WHERE CASE WHEN (SELECT 0) <> 0 THEN i > 10 / (SELECT 0) ELSE true END$$,
  $$SELECT id FROM pf_copy WHERE CASE WHEN (SELECT 0) <> 0 THEN i > 10 / (SELECT 0) ELSE true END$$,
  false);
SET pf.zero = '0';
SELECT * FROM mf_agree(
  $$SELECT id FROM pf_t WHERE coalesce(id, 10 / current_setting('pf.zero')::int) > 0$$,
  $$SELECT id FROM pf_copy WHERE coalesce(id, 10 / current_setting('pf.zero')::int) > 0$$,
  false);
RESET pf.zero;
-- a simple CASE comparing a remote enum with another: both cast to text
SELECT * FROM mf_agree($$SELECT count(*) FROM pf_t a JOIN pf_t b ON a.id = b.id % 5 + 1
  WHERE CASE a.e WHEN b.e THEN true ELSE false END$$,
  $$SELECT count(*) FROM pf_copy a JOIN pf_copy b ON a.id = b.id % 5 + 1
  WHERE CASE a.e WHEN b.e THEN true ELSE false END$$, false);
-- a function of a column with a collation the remote need not have goes
-- without its name (none of the functions shipped depends on it)
CREATE COLLATION pf_icu (provider = icu, locale = 'und');
CREATE FOREIGN TABLE pf_icu_t (id int, t text COLLATE pf_icu)
  SERVER pg_remote OPTIONS (schema_name 'public', table_name 'pf_t');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf_icu_t WHERE length(t) = 4;
SELECT count(*) FROM pf_icu_t WHERE length(t) = 4;
DROP FOREIGN TABLE pf_icu_t;
DROP COLLATION pf_icu;

-- ===================================================================
-- what stays here: the remote's locale (case mapping, regular
-- expressions), its encoding (bytes), its time zone data, its maths
-- library, conversions through text, length coercions; and grouping by
-- an expression under a column's own collation (the rule of the collations
-- looks at columns alone)
-- ===================================================================
SELECT e, (pf_agree(e)).*
  FROM (VALUES ('upper(t)'),
               ('lower(t)'),
               ('initcap(t)'),
               ('md5(t)'),
               ('octet_length(t)'),
               ('substring(t from ''l.'')'),
               ('sqrt(abs(f))'),
               ('exp(n / 1000)'),
               ('extract(hour from tz)'),
               ('date_trunc(''day'', tz, ''Asia/Tokyo'')'),
               ('timezone(''Asia/Tokyo'', ts)'),
               ('d::timestamptz'),
               ('i::text'),
               ('to_char(d, ''YYYY'')'),
               ('v::varchar(3)'),
               ('gcd(i, 6)'),
               ('substring(cc, 1, 2)')) v(e);

-- a function of ours named like a built-in is ours, and stays here
CREATE FUNCTION public.abs(integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$ SELECT 7 $$;
SET search_path = public, pg_catalog;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf_t WHERE abs(i) = 7;
SELECT count(*) FROM pf_t WHERE abs(i) = 7;
RESET search_path;
DROP FUNCTION public.abs(integer);

-- an assignment's length coercion is checked, not cut
UPDATE pf_t SET v = v || 'abcdefghijk' WHERE id = 1;
SELECT v FROM pf_t WHERE id = 1;

DROP FUNCTION pf_agree(text);
DROP TABLE pf_copy;
DROP FOREIGN TABLE pf_t;
SELECT multi_fdw_exec('pg_remote', $$DROP TABLE public.pf_t$$);
SELECT multi_fdw_exec('pg_remote', $$DROP TYPE public.pf_mood$$);
