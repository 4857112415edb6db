--
-- mysql_types: values of MySQL's types survive the trip to MariaDB and
-- back exactly, through the foreign tables IMPORT FOREIGN SCHEMA makes.
--
-- Two remote tables of the same shape, types_values and types_row, are
-- imported; a local table types_l (LIKE the imported one) holds the data,
-- which is sent through each insert method.  diffs() compares every local
-- row with what each foreign table reads back, as text: 0 and 0 means an
-- exact round trip.
--
CREATE SCHEMA my_types;
SET search_path = my_types, public;
-- a local time zone far from the remote session's UTC
SET TimeZone = 'America/New_York';

CREATE FUNCTION make_remote(name text) RETURNS void LANGUAGE sql AS $$
  SELECT multi_fdw_exec('my_real', format('DROP TABLE IF EXISTS %s', name));
  SELECT multi_fdw_exec('my_real', format($ddl$
    CREATE TABLE %s (
      id int PRIMARY KEY,
      ti tinyint, tiu tinyint unsigned,
      si smallint, siu smallint unsigned,
      mi mediumint, miu mediumint unsigned,
      i int, iu int unsigned,
      bi bigint, biu bigint unsigned,
      bo tinyint(1), bt bit(1),
      de decimal(30,10), fl float, db double,
      vc varchar(50), tx mediumtext, ch char(5),
      vb varbinary(300), bl mediumblob, bn binary(4),
      d date, dt datetime(6), ts timestamp(6) NULL DEFAULT NULL, tm time(6),
      y year, js json, en enum('small','medium','large'), st set('a','b','c')
    ) ENGINE=InnoDB$ddl$, name));
$$;
-- (whether the tables were there depends on an earlier run: no notes)
SET client_min_messages = warning;
SELECT make_remote('types_values');
SELECT make_remote('types_row');
RESET client_min_messages;

IMPORT FOREIGN SCHEMA mfremote LIMIT TO (types_values, types_row)
  FROM SERVER my_real INTO my_types;
ALTER FOREIGN TABLE types_values OPTIONS (ADD insert_method 'values');
ALTER FOREIGN TABLE types_row OPTIONS (ADD insert_method 'row');

-- the type mapping of the mysql dialect
SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS local_type,
       a.attnotnull AS not_null
  FROM pg_attribute a
 WHERE a.attrelid = 'types_values'::regclass AND a.attnum > 0
 ORDER BY a.attnum;
-- the primary key became the key column of UPDATE and DELETE
SELECT attname, attfdwoptions FROM pg_attribute
 WHERE attrelid = 'types_values'::regclass AND attfdwoptions IS NOT NULL;

CREATE TABLE types_l (LIKE types_values);

-- every byte value, and a long run of them
CREATE FUNCTION all_bytes() RETURNS bytea LANGUAGE sql AS $$
  SELECT decode(string_agg(lpad(to_hex(i), 2, '0'), '' ORDER BY i), 'hex')
    FROM generate_series(0, 255) i;
$$;

INSERT INTO types_l VALUES
  -- the low ends
  (1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0,
   -9223372036854775808, 0,
   false, false,
   '-99999999999999999999.9999999999', -3.4e+38, -1.7976931348623157e+308,
   '', '', 'a', '\x', '\x', '\x00000000',
   '1000-01-01', '1000-01-01 00:00:00', '1970-01-01 00:00:01+00', '00:00:00',
   1901, '[]', 'small', ''),
  -- the high ends
  (2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,
   9223372036854775807, 18446744073709551615,
   true, true,
   '99999999999999999999.9999999999', 3.4e+38, 1.7976931348623157e+308,
   repeat('z', 50), repeat('long text ', 30000), 'abcde',
   all_bytes(), decode(repeat(encode(all_bytes(), 'hex'), 400), 'hex'),
   '\xffffffff',
   '9999-12-31', '9999-12-31 23:59:59.999999',
   '2038-01-19 03:14:07.999999+00', '23:59:59.999999',
   2155, '{"a": [1, 2, {"b": null}], "c": "d"}', 'large', 'a,b,c'),
  -- in between: fractions, small floats, text that needs care
  (3, 0, 7, -1, 1, 0, 8, 42, 3000000000, -1, 9223372036854775808,
   NULL, NULL,
   '0.0000000001', 0.1, 0.1,
   'héllo wörld 😀 日本', E'tab\there\nnew line \\ back ''quote'' "dq"',
   'ü',
   all_bytes(), '\x00', '\x01020304',
   '2024-02-29', '2024-02-29 12:34:56.123456',
   '2024-06-01 12:00:00.123456-04', '12:34:56.5',
   2024, '{"emoji": "😀"}', 'medium', 'b'),
  -- floats that need every digit, negative decimals
  (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL,
   '-0.5', 1.17549435e-38, 2.2250738585072014e-308,
   NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, '2000-01-01 00:00:00.000001', '2000-01-01 00:00:00.000001+05:30', NULL,
   NULL, NULL, NULL, NULL),
  -- NULL everywhere else
  (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

INSERT INTO types_values SELECT * FROM types_l;
\echo inserted :ROW_COUNT
INSERT INTO types_row SELECT * FROM types_l;
\echo inserted :ROW_COUNT

-- rows only on one side, compared as text
CREATE FUNCTION diffs()
RETURNS TABLE (method text, local_only bigint, remote_only bigint)
LANGUAGE plpgsql AS $$
BEGIN
  FOREACH method IN ARRAY ARRAY['values', 'row'] LOOP
    EXECUTE format('SELECT count(*) FROM (SELECT l_row::text FROM types_l l_row
                      EXCEPT ALL SELECT r_row::text FROM %I r_row) d',
                   'types_' || method)
      INTO local_only;
    EXECUTE format('SELECT count(*) FROM (SELECT r_row::text FROM %I r_row
                      EXCEPT ALL SELECT l_row::text FROM types_l l_row) d',
                   'types_' || method)
      INTO remote_only;
    RETURN NEXT;
  END LOOP;
END $$;
SELECT * FROM diffs();

-- column by column, the values that differ (none)
SELECT l.id, key AS col, l_val, r_val
  FROM types_l l JOIN types_values r USING (id),
       LATERAL (SELECT key, value AS l_val FROM jsonb_each_text(to_jsonb(l))) a
       JOIN LATERAL (SELECT key, value AS r_val FROM jsonb_each_text(to_jsonb(r))) b
       USING (key)
 WHERE l_val IS DISTINCT FROM r_val
 ORDER BY 1, 2;

-- some of them as they read back
SELECT id, bi, biu, de, fl, db FROM types_values ORDER BY id;
SELECT id, bo, bt, en, st, y FROM types_values ORDER BY id;
SELECT id, vc, ch, length(tx) AS tx_len, js FROM types_values ORDER BY id;
SELECT id, length(vb) AS vb_len, vb = all_bytes() AS vb_all,
       length(bl) AS bl_len, bn FROM types_values ORDER BY id;
SELECT id, d, dt, ts, tm FROM types_values ORDER BY id;

-- the remote session is in UTC: the timestamps are stored as UTC wall
-- clock times (one row each when true)
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM types_values
   WHERE id = 3 AND ts = '2024-06-01 16:00:00.123456'
     AND dt = '2024-02-29 12:34:56.123456'$$) AS utc_stored;
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM types_values
   WHERE id = 4 AND ts = '1999-12-31 18:30:00.000001'$$) AS utc_stored;
-- and the bytes as they are
SELECT multi_fdw_exec('my_real', $$
  SELECT 1 FROM types_values
   WHERE id = 3 AND LENGTH(vb) = 256 AND HEX(vb) LIKE '000102%FDFEFF'
     AND LENGTH(vc) = 25 AND CHAR_LENGTH(vc) = 16$$) AS bytes_stored;

-- conditions sent with parameters of each kind find the same rows
CREATE FUNCTION ids(tab text, cond text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r text;
BEGIN
  EXECUTE format('SELECT string_agg(id::text, '','' ORDER BY id) FROM %I t WHERE %s',
                 tab, cond) INTO r;
  RETURN coalesce(r, '-');
END $$;
CREATE TABLE conds (cond text);
INSERT INTO conds VALUES
  ('bi = (SELECT bi FROM types_l WHERE id = 2)'),
  ('biu = (SELECT biu FROM types_l WHERE id = 3)'),
  ('de = (SELECT de FROM types_l WHERE id = 3)'),
  ('de < (SELECT de FROM types_l WHERE id = 4)'),
  ('i > (SELECT i FROM types_l WHERE id = 3)'),
  ('bo = (SELECT bo FROM types_l WHERE id = 2)'),
  ('d = (SELECT d FROM types_l WHERE id = 3)'),
  ('dt = (SELECT dt FROM types_l WHERE id = 3)'),
  ('dt > (SELECT dt FROM types_l WHERE id = 4)'),
  ('ts = (SELECT ts FROM types_l WHERE id = 3)'),
  ('ts < (SELECT ts FROM types_l WHERE id = 4)'),
  ('tm = (SELECT tm FROM types_l WHERE id = 3)'),
  ('db = (SELECT db FROM types_l WHERE id = 3)'),
  ('bi = -9223372036854775808'),
  ('biu > 9223372036854775807'),
  ('ts >= ''2024-06-01 12:00:00.123456-04''::timestamptz'),
  ('dt BETWEEN ''2024-01-01'' AND ''2024-12-31''');
SELECT cond, ids('types_values', cond) AS remote, ids('types_l', cond) AS local
  FROM conds ORDER BY cond;
-- the conditions go to the remote server, with their parameters
SELECT public.mf_explain($$EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM types_values t WHERE ts = (SELECT ts FROM types_l WHERE id = 3)$$);
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM types_values t WHERE biu > 9223372036854775807 AND bo;

-- what the remote has and PostgreSQL cannot take
-- (whether it was there depends on an earlier run: its note is not shown)
SET client_min_messages = warning;
SELECT multi_fdw_exec('my_real', 'DROP TABLE IF EXISTS types_odd');
RESET client_min_messages;
SELECT multi_fdw_exec('my_real', $$
  CREATE TABLE types_odd (id int PRIMARY KEY, d date, dt datetime,
                          tm time, b9 bit(9), b64 bit(64)) ENGINE=InnoDB$$);
SELECT multi_fdw_exec('my_real', $$
  SET STATEMENT sql_mode = '' FOR
  INSERT INTO types_odd VALUES
    (1, '0000-00-00', '0000-00-00 00:00:00', '10:00:00', b'0', b'0'),
    (2, '2024-00-10', '2024-05-00 10:00:00', '-01:00:00', b'100000101',
     0xFFFFFFFFFFFFFFFF),
    (3, NULL, NULL, '100:00:00', NULL, 5)$$);
IMPORT FOREIGN SCHEMA mfremote LIMIT TO (types_odd)
  FROM SERVER my_real INTO my_types;
-- zero dates, and dates with a zero part, read as NULL; BIT(n) reads as
-- n binary digits, what bit varying(n) takes
SELECT id, d, dt, b9, b64 FROM types_odd ORDER BY id;
-- zero_date 'error' refuses them instead, naming the option to use
ALTER SERVER my_real OPTIONS (ADD zero_date 'error');
SELECT id, d FROM types_odd WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
ALTER SERVER my_real OPTIONS (SET zero_date 'never');
ALTER SERVER my_real OPTIONS (DROP zero_date);
SELECT id, d FROM types_odd WHERE id = 1;
-- and bit varying values are written back as the column's number
INSERT INTO types_odd (id, b9, b64) VALUES (4, B'101', B'1000000000000000000000000000000000000000000000000000000000000001');
SELECT id, b9, b64 FROM types_odd WHERE id = 4;
SELECT multi_fdw_exec('my_real', 'SELECT 1 FROM types_odd WHERE id = 4 AND b9 = 5 AND b64 = 9223372036854775809');
-- times outside PostgreSQL's range are errors
SELECT id, tm FROM types_odd WHERE id = 1;
SELECT id, tm FROM types_odd WHERE id = 2;
SELECT id, tm FROM types_odd WHERE id = 3;
-- and the strict session refuses what it would silently change
INSERT INTO types_values (id, tiu) VALUES (10, -1);
INSERT INTO types_values (id, d) VALUES (10, '0044-03-15 BC');
INSERT INTO types_values (id, fl) VALUES (10, 'NaN');
INSERT INTO types_values (id, de) VALUES (10, 'NaN');
INSERT INTO types_values (id, en) VALUES (10, 'huge');
SELECT count(*) FROM types_values WHERE id = 10;
