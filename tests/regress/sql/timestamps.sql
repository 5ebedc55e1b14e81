-- timestamp and timestamptz columns: PostgreSQL's microseconds since
-- 2000-01-01, loaded by COPY, compared in the kernels, printed in the
-- session's TimeZone (DST changes included); dates and timestamps in every
-- spelling their input functions take.
CREATE TABLE ts (
  id integer NOT NULL,
  d date,
  t timestamp,
  tz timestamptz
);
COPY ts FROM stdin;
1	2000-01-01	2000-01-01 00:00:00	2000-01-01 00:00:00+00
2	2024-02-29	2024-02-29 23:59:59.999999	2024-02-29 12:00:00+05:30
3	1999-12-31	1999-12-31 23:59:59	1999-12-31 23:59:59-08
4	\N	\N	\N
5	1970-01-01	1970-01-01 00:00:00.5	1970-01-01 00:00:00Z
6	2021-03-28	2021-03-28T02:30:00	2021-03-28 01:30:00+00
7	2021-10-31	2021-10-31 02:30:00	2021-10-31T00:30:00.25+00
8	0001-01-01	0001-01-01 00:00:00	1900-01-01 00:00:00+00
9	9999-12-31	9999-12-31 23:59:59.999999	2100-01-01 00:00:00+00
10	2023-12-31	Jan 1 2024 00:00	2023-12-31 23:00:00-01
\.
SELECT * FROM ts ORDER BY id;
SELECT id, t FROM ts WHERE t >= '2000-01-01' AND t < TIMESTAMP '2024-02-29 23:59:59.999999' ORDER BY id;
SELECT id FROM ts WHERE t = '1970-01-01T00:00:00.5' ORDER BY id;
SELECT id, tz FROM ts WHERE tz > '1999-12-31 23:59:59-08' ORDER BY id;
SELECT id, tz FROM ts WHERE tz BETWEEN '2021-03-28T00:00:00Z' AND '2021-10-31 00:30:00.25+00' ORDER BY id;
SELECT id FROM ts WHERE t IN ('2000-01-01', '1999-12-31 23:59:59', '2024-01-01') ORDER BY 1;
SELECT id FROM ts WHERE t NOT IN ('2000-01-01', '1999-12-31 23:59:59') ORDER BY 1;
SELECT id FROM ts WHERE t <> '2000-01-01 00:00:00' AND tz <= '2000-01-01 08:00:00+08' ORDER BY 1;
SELECT min(t), max(t), min(tz), max(tz), count(t), count(tz) FROM ts;
SELECT t, count(*) FROM ts GROUP BY t ORDER BY t NULLS FIRST;
SELECT tz FROM ts ORDER BY tz DESC NULLS LAST LIMIT 3;
SELECT id FROM ts WHERE t IS NULL OR tz IS NULL;
SELECT count(*) FROM ts WHERE CASE WHEN t > '2020-01-01' THEN 1 ELSE 0 END = 1;
SELECT id, t = '2021-03-28 02:30' AS at_half_past FROM ts WHERE id > 4 ORDER BY id;
-- dates in the spellings date_in takes
SELECT id, d FROM ts WHERE d = '2024-02-29 00:00:00' OR d = '1999-12-31T00:00:00Z' OR d = 'Jan 1, 2000' ORDER BY id;
SELECT d_datekey FROM date WHERE d_datekey = '1997-06-01 00:00:00';
SELECT count(*) FROM lineorder WHERE lo_orderdate BETWEEN DATE 'June 1, 1997' AND '1997-06-30T00:00:00';
SELECT count(*) FROM date WHERE d_datekey >= '19971231' AND d_datekey < '1998-01-01 12:00';
-- date functions of a timestamp column (fields and units of the day), on
-- the device: in outputs, WHERE, GROUP BY and aggregates
CREATE TABLE ev (
  id integer NOT NULL,
  t timestamp,
  n integer
);
COPY ev FROM stdin;
1	2019-12-29 23:59:59.999999	1
2	2019-12-30 00:00:00	2
3	2019-12-31 12:00:00	3
4	2020-01-01 00:00:00	4
5	2020-02-29 06:30:00	5
6	2020-03-01 00:00:00.000001	6
7	2021-01-03 18:00:00	7
8	2021-01-04 00:00:00	8
9	\N	9
10	2024-12-31 23:59:59	10
11	1999-12-31 23:59:59.5	11
12	2000-01-01 00:00:00	12
\.
SELECT id, t, extract(year from t) AS y, extract(quarter from t) AS q, extract(month from t) AS m, extract(week from t) AS w, extract(day from t) AS d, extract(dow from t) AS dow, extract(isodow from t) AS idow, extract(doy from t) AS doy FROM ev ORDER BY id;
SELECT id, date_part('year', t) AS y, date_part('isoyear', t) AS iy, extract(century from t) AS c, date_part('decade', t) AS dec FROM ev ORDER BY id;
SELECT id, date_trunc('day', t) AS d, date_trunc('week', t) AS w, date_trunc('month', t) AS m, date_trunc('quarter', t) AS q, date_trunc('year', t) AS y FROM ev ORDER BY id;
SELECT date_trunc('month', t) AS m, count(*), sum(n) FROM ev GROUP BY 1 ORDER BY 1 NULLS FIRST;
SELECT extract(year from t) AS y, count(*) FROM ev GROUP BY extract(year from t) ORDER BY 1;
SELECT date_trunc('year', t), max(t), min(extract(doy from t)) FROM ev GROUP BY date_trunc('year', t) ORDER BY 1 DESC;
SELECT count(*) FROM ev WHERE extract(month from t) = 2 OR date_trunc('day', t) = '2021-01-03';
SELECT id FROM ev WHERE date_trunc('week', t) = TIMESTAMP '2019-12-30' ORDER BY id;
SELECT sum(CASE WHEN extract(isodow from t) IN (6, 7) THEN n ELSE 0 END) AS weekend FROM ev;
-- the time of day, computed by the kernels from the microseconds
SELECT id, extract(hour from t) AS h, extract(minute from t) AS mi, extract(second from t) AS s, extract(milliseconds from t) AS ms, extract(microseconds from t) AS us, extract(epoch from t) AS ep FROM ev ORDER BY id;
-- the same on the compiled kernels (a new shape otherwise starts on the
-- generic ones); PostgreSQL takes the setting as a custom one and ignores it
SET starq.generic_kernels = off;
SELECT id, extract(hour from t) AS h, extract(second from t) AS s, extract(epoch from t) AS ep, extract(isodow from t) AS idow FROM ev WHERE id > 8 ORDER BY id;
SELECT date_trunc('month', t) AS m, count(*) FROM ev GROUP BY 1 ORDER BY 1 NULLS FIRST;
SELECT id, date_part('hour', t) AS h, date_part('second', t) AS s, date_part('milliseconds', t) AS ms, date_part('epoch', t) AS ep FROM ev ORDER BY id;
SELECT id, date_trunc('hour', t) AS h, date_trunc('minute', t) AS mi, date_trunc('second', t) AS s, date_trunc('milliseconds', t) AS ms FROM ev ORDER BY id;
SELECT extract(hour from t) AS h, count(*) FROM ev GROUP BY 1 ORDER BY 1;
SELECT date_trunc('hour', t) AS h, sum(n) FROM ev GROUP BY 1 ORDER BY 1;
SELECT count(*) FROM ev WHERE extract(hour from t) >= 12 OR extract(second from t) > 59;
-- make_date, make_timestamp, to_date, to_timestamp of constants
SELECT id FROM ts WHERE d = make_date(2024, 2, 29) OR d = to_date('31 Dec 1999', 'DD Mon YYYY') ORDER BY id;
SELECT id FROM ts WHERE t >= make_timestamp(2021, 3, 28, 2, 30, 0) AND t < make_timestamp(2021, 10, 31, 2, 30, 0.5) ORDER BY id;
SELECT id FROM ts WHERE tz = to_timestamp(0) OR tz = to_timestamp(946684800) OR tz = to_timestamp('2024-02-29 06:30', 'YYYY-MM-DD HH24:MI') ORDER BY id;
SELECT count(*) FROM ts WHERE t < make_timestamp(2000, 1, 1, 0, 0, NULL) OR d = make_date(2000, 1, 1);
SET starq.generic_kernels = on;
-- now() and its kin: one value per statement
SELECT count(*) FROM ts WHERE t < localtimestamp AND tz < now() AND d <= current_date;
SELECT now() = current_timestamp AS same, current_date > '2024-01-01' AS recent, localtimestamp > '2024-01-01' AS later;
SELECT id FROM ts WHERE tz < current_timestamp AND tz < transaction_timestamp() AND id <= 3 ORDER BY id;
SELECT count(*) FROM ev WHERE t <= localtimestamp GROUP BY t > localtimestamp ORDER BY 1;
-- timestamptz as the session's zone shows it
SET TIME ZONE 'Europe/Berlin';
SELECT id, tz FROM ts ORDER BY id;
SELECT id FROM ts WHERE tz = '2000-01-01 01:00:00' OR tz = '2021-03-28 02:30:00' ORDER BY id;
SELECT id, tz FROM ts WHERE tz BETWEEN '2021-03-28 03:30' AND '2021-10-31 02:30:00.25' ORDER BY id;
SELECT count(*) FROM ts WHERE tz < TIMESTAMP WITH TIME ZONE '2000-01-01 09:00';
SET timezone = 'America/New_York';
SELECT id, tz FROM ts WHERE tz > '2021-01-01 00:00:00+00' ORDER BY tz;
SELECT max(tz) FROM ts WHERE id < 9;
SET TIME ZONE 'UTC';
SELECT id, tz FROM ts WHERE id IN (2, 3, 7) ORDER BY id;
\set VERBOSITY terse
SELECT id FROM ts WHERE t = '2024-02-30 00:00:00';
SELECT id FROM ts WHERE tz = 'not a time';
SELECT id FROM ts WHERE d = '2024-13-01 00:00';
SELECT id FROM ts WHERE t > 5;
SELECT count(*) FROM ts WHERE d = make_date(2023, 2, 29);
SELECT count(*) FROM ts WHERE d = to_date('2023-13-01', 'YYYY-MM-DD');
DROP TABLE ts;
DROP TABLE ev;
