--
-- pg_types: values of the common types survive the trip to a PostgreSQL
-- server and back exactly, and comparisons on them give the same answer
-- remotely as locally.
--
-- Each group of types has a local table holding the data (NAME_l) and three
-- remote tables with foreign tables on them, filled from the local table
-- through each insert method (NAME_copy, NAME_values, NAME_row).  diffs()
-- compares every row of the local table with what each foreign table reads
-- back, as text (so that -0 differs from 0, 1.50 from 1.5, and json keeps
-- its spelling): 0 and 0 everywhere means an exact round trip.
--
-- what goes of a query (conditions, joins, aggregates, sorts) is what this
-- file tests, so no query goes whole here (pg_whole tests that)
SET multi_fdw.whole_queries = off;
CREATE SCHEMA types;
SET search_path = types, public;
-- a local time zone far from the remote session's UTC
SET TimeZone = 'America/New_York';

SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA IF EXISTS types_r CASCADE');
SELECT multi_fdw_exec('pg_remote', 'CREATE SCHEMA types_r');

CREATE FUNCTION make_tables(name text, cols text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m text;
BEGIN
  EXECUTE format('CREATE TABLE %I (%s)', name || '_l', cols);
  FOREACH m IN ARRAY ARRAY['copy', 'values', 'row'] LOOP
    PERFORM multi_fdw_exec('pg_remote',
      format('CREATE TABLE types_r.%I (%s)', name || '_' || m, cols));
    EXECUTE format('CREATE FOREIGN TABLE %I (%s) SERVER pg_remote
                      OPTIONS (schema_name %L, insert_method %L)',
                   name || '_' || m, cols, 'types_r', m);
  END LOOP;
END $$;

-- send the local rows through each method
CREATE FUNCTION load(name text) RETURNS TABLE (method text, inserted bigint)
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  FOREACH method IN ARRAY ARRAY['copy', 'values', 'row'] LOOP
    EXECUTE format('INSERT INTO %I SELECT * FROM %I', name || '_' || method,
                   name || '_l');
    GET DIAGNOSTICS n = ROW_COUNT;
    inserted := n;
    RETURN NEXT;
  END LOOP;
END $$;

-- rows only on one side, compared as text
CREATE FUNCTION diffs(name text)
RETURNS TABLE (method text, local_only bigint, remote_only bigint)
LANGUAGE plpgsql AS $$
BEGIN
  FOREACH method IN ARRAY ARRAY['copy', 'values', 'row'] LOOP
    EXECUTE format('SELECT count(*) FROM (SELECT x::text FROM %I x
                      EXCEPT ALL SELECT y::text FROM %I y) d',
                   name || '_l', name || '_' || method)
      INTO local_only;
    EXECUTE format('SELECT count(*) FROM (SELECT y::text FROM %I y
                      EXCEPT ALL SELECT x::text FROM %I x) d',
                   name || '_' || method, name || '_l')
      INTO remote_only;
    RETURN NEXT;
  END LOOP;
END $$;

-- the ids matching a condition, in a foreign or local table
CREATE FUNCTION ids(tab text, cond text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  r text;
BEGIN
  EXECUTE format('SELECT string_agg(id::text, '','' ORDER BY id) FROM %I WHERE %s',
                 tab, cond) INTO r;
  RETURN coalesce(r, '-');
END $$;

-- a condition evaluated on the remote (through NAME_copy) and locally
CREATE FUNCTION check_where(name text, conds text[])
RETURNS TABLE (cond text, remote_ids text, same_as_local bool)
LANGUAGE plpgsql AS $$
BEGIN
  FOREACH cond IN ARRAY conds LOOP
    remote_ids := ids(name || '_copy', cond);
    same_as_local := remote_ids = ids(name || '_l', cond);
    RETURN NEXT;
  END LOOP;
END $$;

-- how many rows of each remote table satisfy a condition, evaluated there
CREATE FUNCTION remote_count(name text, cond text)
RETURNS TABLE (copy bigint, "values" bigint, "row" bigint)
LANGUAGE sql AS $$
  SELECT multi_fdw_exec('pg_remote', format('SELECT FROM types_r.%I WHERE %s', name || '_copy', cond)),
         multi_fdw_exec('pg_remote', format('SELECT FROM types_r.%I WHERE %s', name || '_values', cond)),
         multi_fdw_exec('pg_remote', format('SELECT FROM types_r.%I WHERE %s', name || '_row', cond));
$$;

--
-- integers
--
SELECT make_tables('ints', 'id int, i2 int2, i4 int4, i8 int8');
INSERT INTO ints_l VALUES
  (1, -32768, -2147483648, -9223372036854775808),
  (2, 32767, 2147483647, 9223372036854775807),
  (3, 0, 0, 0),
  (4, -1, -1, -1),
  (5, NULL, NULL, NULL);
SELECT * FROM load('ints');
SELECT * FROM ints_copy ORDER BY id;
SELECT * FROM diffs('ints');
(SELECT * FROM ints_l EXCEPT SELECT * FROM ints_values)
UNION ALL
(SELECT * FROM ints_values EXCEPT SELECT * FROM ints_l);
SELECT * FROM remote_count('ints',
  'i2 = -32768 AND i4 = -2147483648 AND i8 = -9223372036854775808');
SELECT * FROM remote_count('ints',
  'i2 = 32767 AND i4 = 2147483647 AND i8 = 9223372036854775807');
SELECT * FROM check_where('ints', ARRAY[
  'i2 = -32768', 'i4 = 2147483647', 'i8 = 9223372036854775807',
  'i8 = -9223372036854775808', 'i8 < 0', 'i2 <> 0', 'i4 IS NULL',
  'i8 > i4', 'i2::int8 + i4 = -2147516416', 'i8 IN (0, -1)']);
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM ints_copy WHERE i8 = 9223372036854775807 AND i2 = -32768;
PREPARE ints_q(int8, int2) AS SELECT id FROM ints_copy WHERE i8 = $1 OR i2 = $2;
EXECUTE ints_q(9223372036854775807, -32768);
EXECUTE ints_q(-9223372036854775808, 0);
DEALLOCATE ints_q;

--
-- numeric
--
SELECT make_tables('nums', 'id int, n numeric, n40 numeric(40,20), n52 numeric(5,2)');
INSERT INTO nums_l VALUES
  (1, 123456789012345678901234567890.123456789012345678901234567890,
      12345678901234567890.12345678901234567890, 999.99),
  (2, -0.000000000000000000000000000001, -0.00000000000000000001, -999.99),
  (3, 'NaN', 'NaN', 'NaN'),
  (4, 'Infinity', 0, 0),
  (5, '-Infinity', -0.5, 0.5),
  (6, 1e100, 1.10, 1.1),
  (7, 0.10, 0, 0.00),
  (8, NULL, NULL, NULL),
  (9, -0.0, 1e-20, -0.01);
SELECT * FROM load('nums');
SELECT * FROM nums_copy ORDER BY id;
SELECT * FROM diffs('nums');
(SELECT * FROM nums_l EXCEPT SELECT * FROM nums_row)
UNION ALL
(SELECT * FROM nums_row EXCEPT SELECT * FROM nums_l);
SELECT * FROM remote_count('nums',
  $$n = 123456789012345678901234567890.123456789012345678901234567890
    AND n40 = 12345678901234567890.12345678901234567890$$);
SELECT * FROM remote_count('nums', $$n::text = '0.10' AND n52::text = '0.00'$$);
SELECT * FROM remote_count('nums', $$n = 'NaN' OR n = 'Infinity' OR n = '-Infinity'$$);
SELECT * FROM check_where('nums', ARRAY[
  $$n = 'NaN'$$, $$n > 1e30$$, $$n = 0.1$$, $$n < 0$$, $$n = 'Infinity'$$,
  $$n52 = 999.99$$, $$n52 = 1.10$$, $$n40 > 0.000000000000000000001$$,
  $$n40 = -0.00000000000000000001$$, $$n + 1 > 1$$, $$n IS NULL$$]);

--
-- floating point
--
SELECT make_tables('floats', 'id int, f4 float4, f8 float8');
INSERT INTO floats_l VALUES
  (1, 'NaN', 'NaN'),
  (2, 'Infinity', 'Infinity'),
  (3, '-Infinity', '-Infinity'),
  (4, '-0', '-0'),
  (5, 0, 0),
  (6, 1.4e-45, 4.9e-324),
  (7, 3.4028235e38, 1.7976931348623157e308),
  (8, 1.17549435e-38, 2.2250738585072014e-308),
  (9, 0.1, 0.1),
  (10, 1.0 / 3, 1.0 / 3),
  (11, -123456.79, 0.1::float8 + 0.2),
  (12, NULL, NULL),
  (13, 16777217, 9007199254740993);
SELECT * FROM load('floats');
SELECT * FROM floats_copy ORDER BY id;
SELECT * FROM diffs('floats');
(SELECT * FROM floats_l EXCEPT SELECT * FROM floats_copy)
UNION ALL
(SELECT * FROM floats_copy EXCEPT SELECT * FROM floats_l);
-- -0 is kept as -0 on the remote, and the smallest values are not rounded
SELECT * FROM remote_count('floats', $$f4::text = '-0' AND f8::text = '-0'$$);
SELECT * FROM remote_count('floats', $$f8 = 0.30000000000000004 AND f4 = '-123456.79'::float4$$);
SELECT * FROM remote_count('floats', $$f4 = '1.4e-45'::float4 AND f8 = 4.9e-324$$);
SELECT * FROM check_where('floats', ARRAY[
  $$f8 = 'NaN'$$, $$f4 = 'NaN'$$, $$f8 = 'Infinity'$$, $$f8 = '-Infinity'$$,
  $$f8 = 0$$, $$f4 = 0.1$$, $$f8 = 0.1$$, $$f8 = 0.3$$,
  $$f8 = 0.30000000000000004$$, $$f8 < 0$$, $$f8 > 1e300$$, $$f4 = 0.1::float4$$,
  $$f4 = 1.0 / 3$$, $$f8 > 0 AND f8 < 1e-300$$, $$f4 = 16777216$$]);

--
-- text, varchar, char
--
SELECT make_tables('texts', 'id int, t text, vc varchar(10), c char(5)');
INSERT INTO texts_l VALUES
  (1, 'it''s', 'it''s', '''''''''"'),
  (2, E'back\\slash \\ and \\\\', E'\\', E'\\\\'),
  (3, E'new\nline', E'a\nb', E'\n'),
  (4, E'tab\there', E'\t', E'\t\t'),
  (5, E'carriage\rreturn and E\r\n', E'\r\n', E'\r'),
  (6, 'é à ü ß', 'é', 'éàüß'),
  (7, '中文字符', '中文', '中'),
  (8, '😀 emoji 👍🏽', '😀', '👍🏽'),
  (9, '', '', ''),
  (10, NULL, NULL, NULL),
  (11, 'NULL', 'NULL', 'NULL'),
  (12, E'\\N', E'\\N', E'\\N'),
  (13, E'\\.', E'\\.\n', E'\\.'),
  (14, E'end of data\n\\.\nnot the end', '0123456789', 'abcde'),
  (15, E'\x01\x02\x7f ctrl', 'éééééééé€€', 'ab'),
  (16, repeat('long ', 20000), '   ', ' x '),
  (17, '$1 $$ $q$ %s %', '%s', '$1');
SELECT * FROM load('texts');
SELECT id, t, vc, c, length(t) AS tlen, octet_length(c) AS clen
  FROM texts_copy WHERE id <> 16 ORDER BY id;
SELECT id, length(t), md5(t) = md5(repeat('long ', 20000)) AS same FROM texts_copy WHERE id = 16;
SELECT * FROM diffs('texts');
(SELECT * FROM texts_l EXCEPT SELECT * FROM texts_copy)
UNION ALL
(SELECT * FROM texts_copy EXCEPT SELECT * FROM texts_l);
-- byte for byte on the remote
SELECT * FROM remote_count('texts', $$t = E'back\\slash \\ and \\\\' AND vc = E'\\'$$);
SELECT * FROM remote_count('texts', $$t = E'\\N' AND c = E'\\N   '$$);
SELECT * FROM remote_count('texts', $$t = '' AND c = '' AND octet_length(c::text) = 0$$);
SELECT * FROM remote_count('texts', $$t IS NULL AND vc IS NULL AND c IS NULL$$);
SELECT * FROM remote_count('texts', $$t = '😀 emoji 👍🏽' AND octet_length(t) = 19$$);
SELECT * FROM check_where('texts', ARRAY[
  $$t = 'it''s'$$, $$t = E'back\\slash \\ and \\\\'$$, $$t = E'new\nline'$$,
  $$t LIKE E'%\t%'$$, $$t = '中文字符'$$, $$t = ''$$, $$t IS NULL$$,
  $$t = 'NULL'$$, $$t = E'\\N'$$, $$vc = '0123456789'$$,
  $$c = 'ab'$$, $$c = 'ab   '$$, $$length(t) > 100$$, $c$t = '$1 $$ $q$ %s %'$c$,
  $$vc = 'éééééééé€€'$$, $$upper(vc) = 'NULL'$$]);
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM texts_copy WHERE t = E'back\\slash ''quote''' OR vc = 'it''s';
-- too long for the local type: refused before anything is sent
INSERT INTO texts_copy (id, vc) VALUES (99, '01234567890');

--
-- bytea
--
SELECT make_tables('bins', 'id int, b bytea');
INSERT INTO bins_l VALUES
  (1, '\x00'),
  (2, (SELECT string_agg(set_byte('\x00', 0, i), ''::bytea ORDER BY i)
         FROM generate_series(0, 255) i)),
  (3, ''),
  (4, NULL),
  (5, decode(repeat('deadbeef00', 20000), 'hex')),
  (6, E'\\x5c4e'),			-- the bytes of \N
  (7, 'plain text');
SELECT * FROM load('bins');
SELECT id, length(b), md5(b) FROM bins_copy ORDER BY id;
SELECT id, b FROM bins_copy WHERE length(b) < 300 ORDER BY id;
SELECT * FROM diffs('bins');
(SELECT * FROM bins_l EXCEPT SELECT * FROM bins_values)
UNION ALL
(SELECT * FROM bins_values EXCEPT SELECT * FROM bins_l);
SELECT * FROM remote_count('bins', $$length(b) = 256 AND get_byte(b, 0) = 0
  AND get_byte(b, 92) = 92 AND get_byte(b, 255) = 255$$);
SELECT * FROM remote_count('bins', $$b = '\x5c4e'::bytea$$);
SELECT * FROM check_where('bins', ARRAY[
  $$b = '\x00'$$, $$b = ''$$, $$b IS NULL$$, $$length(b) = 256$$,
  $$b = '\x5c4e'$$, $$b = 'plain text'::bytea$$, $$b > '\x00'$$]);
-- with the other output format on this side
SET bytea_output = 'escape';
SELECT id, b FROM bins_row WHERE id IN (1, 3, 6, 7) ORDER BY id;
INSERT INTO bins_copy SELECT id + 100, b FROM bins_l;
INSERT INTO bins_values SELECT id + 100, b FROM bins_l;
RESET bytea_output;
SELECT count(*) AS differing FROM bins_copy a JOIN bins_values b USING (id)
  JOIN bins_l l ON l.id = a.id - 100
 WHERE a.b IS DISTINCT FROM l.b OR b.b IS DISTINCT FROM l.b;

--
-- boolean
--
SELECT make_tables('bools', 'id int, b bool');
INSERT INTO bools_l VALUES (1, true), (2, false), (3, NULL);
SELECT * FROM load('bools');
SELECT * FROM bools_copy ORDER BY id;
SELECT * FROM diffs('bools');
SELECT * FROM check_where('bools', ARRAY[
  'b', 'NOT b', 'b IS NULL', 'b IS NOT TRUE', 'b = false', 'b IS DISTINCT FROM true']);

--
-- dates and times, read and written with the local time zone
-- America/New_York while the remote session runs in UTC
--
SELECT make_tables('times', 'id int, d date, ts timestamp, tstz timestamptz,
                             iv interval, t time, ttz timetz');
INSERT INTO times_l VALUES
  (1, '2000-02-29', '2021-03-14 02:30:00.123456', '2021-03-14 01:59:59.999999-05',
      '1 year 2 mons 3 days 04:05:06.789012', '00:00:00', '12:00:00+05:30'),
  (2, 'infinity', 'infinity', 'infinity',
      '-1 days +02:03:04', '23:59:59.999999', '23:59:59.999999-15:59'),
  (3, '-infinity', '-infinity', '-infinity',
      '-1 years -2 mons +3 days -00:00:00.000001', '24:00:00', '00:00:00+00'),
  (4, '4714-11-24 BC', '4713-01-01 00:00:00 BC', '0100-06-15 12:00:00+00 BC',
      '178000000 years', '12:34:56.000001', '01:02:03-08'),
  (5, '5874897-12-31', '294276-12-31 23:59:59.999999', '2021-03-14 03:00:00-04',
      '0', '06:00', '06:00+14'),
  (6, '0001-01-01 BC', '1999-12-31 23:59:59.999999', '2021-11-07 01:30:00-04',
      '1 mon -1 days', NULL, NULL),
  (7, '1970-01-01', '1970-01-01 00:00:00', '2021-11-07 01:30:00-05',
      '-00:00:00.000001', '00:00:00.000001', '00:00:00.000001+01'),
  (8, '2021-11-06', '2021-11-06 23:00:00', '2021-11-07 02:00:00+00',
      '1 day', '13:00', '13:00-05'),
  (9, NULL, NULL, NULL, NULL, NULL, NULL),
  (10, '1883-11-18', '1883-11-18 12:00:00', '1883-11-18 12:00:00+00',
      '23:59:59.999999', '11:59:59.5', '11:59:59.5+00');
SELECT * FROM load('times');
SELECT id, d, ts, tstz FROM times_copy ORDER BY id;
SELECT id, iv, t, ttz FROM times_copy ORDER BY id;
SELECT * FROM diffs('times');
(SELECT * FROM times_l EXCEPT SELECT * FROM times_copy)
UNION ALL
(SELECT * FROM times_copy EXCEPT SELECT * FROM times_l);
-- the remote holds the same instants, not the same wall-clock text
SELECT * FROM remote_count('times',
  $$id = 1 AND tstz = '2021-03-14 06:59:59.999999+00' AND ts = '2021-03-14 02:30:00.123456'$$);
SELECT * FROM remote_count('times',
  $$tstz IN ('2021-11-07 05:30:00+00', '2021-11-07 06:30:00+00')$$);
SELECT * FROM remote_count('times',
  $$d = '4714-11-24 BC' AND ts = '4713-01-01 00:00:00 BC' AND tstz = '0100-06-15 12:00:00+00 BC'$$);
SELECT * FROM remote_count('times',
  $$iv = interval '1 year 2 mons 3 days 04:05:06.789012' AND t = '00:00' AND ttz = '12:00:00+05:30'$$);
SELECT * FROM remote_count('times',
  $$d = 'infinity' AND ts = 'infinity' AND tstz = 'infinity'$$);
SELECT * FROM check_where('times', ARRAY[
  $$d = '2000-02-29'$$, $$d = 'infinity'$$, $$d < '0001-01-01'$$,
  $$d > '5000000-01-01'$$, $$ts = '2021-03-14 02:30:00.123456'$$,
  $$ts < '0001-01-01'$$, $$tstz = '2021-03-14 01:59:59.999999-05'$$,
  $$tstz = '2021-03-14 06:59:59.999999+00'$$,
  $$tstz >= '2021-11-07 01:30:00'$$, $$tstz < '-infinity'::timestamptz + interval '1 day'$$,
  $$iv = '1 year 2 mons 3 days 04:05:06.789012'$$, $$iv > '100 years'$$,
  $$iv < '0'$$, $$t = '24:00'$$, $$t > '12:00'$$, $$ttz = '12:00:00+05:30'$$,
  $$d = '1883-11-18'$$]);
-- what depends on the local time zone is judged with it: the date of a
-- timestamptz, and a date turned into a timestamptz
SELECT * FROM check_where('times', ARRAY[
  $$tstz::date = '2021-11-06'$$, $$tstz::date = '2021-11-07'$$,
  $$tstz >= date '2021-11-07'$$, $$tstz >= date '2021-11-07'::timestamptz$$,
  $$tstz >= '2021-11-07 00:00'::timestamp::timestamptz$$,
  $$tstz < '2021-11-07'::text::timestamptz$$,
  $$date_trunc('day', tstz) = '2021-11-07 00:00-04'$$,
  $$extract(hour from tstz) = 1$$, $$tstz::time = '01:30'$$,
  $$CASE WHEN ts BETWEEN '2000-01-01' AND '2100-01-01'
         THEN ts::timestamptz = '2021-11-07 03:00:00+00' END$$]);
-- (a stable expression without columns is computed here and sent as a
-- parameter)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM times_copy WHERE tstz >= date '2021-11-07'::timestamptz;
PREPARE times_q(timestamptz, date) AS
  SELECT id FROM times_copy WHERE tstz = $1 OR d = $2 ORDER BY id;
EXECUTE times_q('2021-11-07 01:30:00-05', '2000-02-29');
EXECUTE times_q('2021-03-14 03:00:00-04', 'infinity');
DEALLOCATE times_q;

--
-- uuid, json, jsonb, arrays, network addresses, ranges
--
SELECT make_tables('misc', 'id int, u uuid, j json, jb jsonb, ia int4[],
                            ta text[], ip inet, cn cidr, mac macaddr, r int4range');
INSERT INTO misc_l VALUES
  (1, '00000000-0000-0000-0000-000000000000', '{"b": 1,  "a": [1, 2, {"c": null}]}',
      '{"b": 1,  "a": [1, 2, {"c": null}]}', '{1,NULL,3}',
      '{"a\"b","c,d",NULL,"NULL","",é,"\\"}', '192.168.1.1/24', '10.0.0.0/8',
      '08:00:2b:01:02:03', '[1,10)'),
  (2, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '{"k": 1, "k": 2}', '{"k": 1, "k": 2}',
      '{}', '{}', '::1', '2001:db8::/32', 'ff:ff:ff:ff:ff:ff', 'empty'),
  (3, 'ffffffff-ffff-ffff-ffff-ffffffffffff', E'"quote\\" back\\\\ é \\u00e9"',
      E'"quote\\" back\\\\ é \\u00e9"', '{{1,2},{3,4}}', E'{"multi\nline","tab\there"}',
      '2001:db8::ff00:42:8329/64', '192.168.0.0/16', '00:00:00:00:00:00', '(,5]'),
  (4, NULL, 'null', 'null', '[0:1]={7,8}', '{NULL}', '0.0.0.0/0', '0.0.0.0/0',
      NULL, '[-2147483648,2147483647)'),
  (5, NULL, '[1.0, 2.50, 1e2, -0]', '[1.0, 2.50, 1e2, -0]', NULL, NULL, NULL, NULL,
      NULL, NULL),
  (6, NULL, '{"deep": {"deeper": {"deepest": [[[]]]}}}', '{}', '{-2147483648,2147483647}',
      '{"{}","[]","()"}', '255.255.255.255', '255.255.255.255/32', NULL, '[3,3]');
SELECT * FROM load('misc');
SELECT id, u, j, jb FROM misc_copy ORDER BY id;
SELECT id, ia, ta, ip, cn, mac, r FROM misc_copy ORDER BY id;
SELECT * FROM diffs('misc');
-- json has no equality: compared as text
(SELECT id, u, j::text, jb, ia, ta, ip, cn, mac, r FROM misc_l
 EXCEPT SELECT id, u, j::text, jb, ia, ta, ip, cn, mac, r FROM misc_values)
UNION ALL
(SELECT id, u, j::text, jb, ia, ta, ip, cn, mac, r FROM misc_values
 EXCEPT SELECT id, u, j::text, jb, ia, ta, ip, cn, mac, r FROM misc_l);
SELECT * FROM remote_count('misc',
  $$j::text = '{"b": 1,  "a": [1, 2, {"c": null}]}' AND ta[1] = 'a"b' AND ta[3] IS NULL
    AND ta[4] = 'NULL' AND ta[7] = E'\\' AND ia[2] IS NULL$$);
SELECT * FROM remote_count('misc', $$array_lower(ia, 1) = 0 AND ia[1] = 8$$);
SELECT * FROM check_where('misc', ARRAY[
  $$u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'$$, $$jb @> '{"a": [2]}'$$,
  $$jb ->> 'k' = '2'$$, $$j ->> 'k' = '2'$$, $$jb = 'null'$$, $$j IS NULL$$,
  $$ia = '{1,NULL,3}'$$, $$3 = ANY (ia)$$, $$ia = '{}'$$, $$ia[1] = 7$$,
  $$ta @> ARRAY['a"b']$$, $$'NULL' = ANY (ta)$$, $$ip << '192.168.0.0/16'$$,
  $$ip = '::1'$$, $$family(ip) = 6$$, $$cn >>= '10.1.2.3'$$,
  $$mac = '08:00:2b:01:02:03'$$, $$r @> 5$$, $$isempty(r)$$,
  $$r = '[3,4)'$$]);

--
-- non-default local formats: values still travel in the formats the remote
-- session reads, both ways
--
SELECT make_tables('styles', 'id int, d date, ts timestamp, tstz timestamptz,
                             iv interval, f4 float4, f8 float8, b bytea');
INSERT INTO styles_l VALUES
  (1, '2021-04-03', '2021-04-03 04:05:06.7', '2021-04-03 04:05:06.7+02',
      '-1 days -02:03:04', 0.1, 0.1::float8 + 0.2, '\x00ff'),
  (2, '2021-12-01', '2021-12-01 00:00', '2021-12-01 00:00-05',
      '-1 years -2 mons +3 days', 3.4028235e38, 1.7976931348623157e308, '\x5c'),
  (3, '0044-03-15 BC', '0044-03-15 12:00 BC', '0044-03-15 12:00+00 BC',
      '1 day -00:00:01', 1.17549435e-38, 2.2250738585072014e-308, '');
SET DateStyle = 'SQL, DMY';
SET IntervalStyle = 'sql_standard';
SET extra_float_digits = -3;
SET bytea_output = 'escape';
SET TimeZone = 'Asia/Kathmandu';
SELECT * FROM load('styles');
-- compared under these settings
SELECT * FROM diffs('styles');
SELECT * FROM check_where('styles', ARRAY[
  $$d = '03/04/2021'$$, $$d = '2021-04-03'$$, $$ts = '03/04/2021 04:05:06.7'$$,
  $$tstz = '2021-04-03 04:05:06.7+02'$$, $$iv = '-1 2:03:04'$$,
  $$iv = interval '-1 days -02:03:04'$$, $$f8 = 0.30000000000000004$$,
  $$f8 = 0.3$$, $$f4 = 0.1$$, $$b = '\x00ff'$$,
  $$tstz >= '03/04/2021 07:50'::text::timestamptz$$]);
RESET DateStyle;
RESET IntervalStyle;
RESET extra_float_digits;
RESET bytea_output;
SET TimeZone = 'America/New_York';
-- and under the defaults again
SELECT * FROM diffs('styles');
SELECT * FROM styles_copy ORDER BY id;
SELECT * FROM remote_count('styles',
  $$d = '2021-04-03' AND iv = '-1 days -02:03:04' AND f8 = 0.30000000000000004
    AND f4 = 0.1::float4 AND tstz = '2021-04-03 02:05:06.7+00' AND b = '\x00ff'$$);

-- clean up
\set VERBOSITY terse
SELECT multi_fdw_exec('pg_remote', 'DROP SCHEMA types_r CASCADE');
DROP SCHEMA types CASCADE;
