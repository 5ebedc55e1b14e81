-- extract and date_part of DATE columns, computed per day on the host
-- (a value map over the column's days): every field, in outputs, WHERE,
-- GROUP BY and aggregates.
SELECT d_datekey, extract(year from d_datekey) AS y, extract(month from d_datekey) AS m, extract(day from d_datekey) AS d, extract(quarter from d_datekey) AS q, extract(dow from d_datekey) AS dow, extract(isodow from d_datekey) AS idow, extract(doy from d_datekey) AS doy, extract(week from d_datekey) AS w FROM date WHERE d_datekey BETWEEN DATE '1992-12-27' AND DATE '1993-01-05' OR d_datekey IN (DATE '1996-02-29', '1998-12-31') ORDER BY d_datekey;
SELECT d_datekey, extract(decade from d_datekey) AS dec, extract(century from d_datekey) AS c, extract(millennium from d_datekey) AS mil, extract(epoch from d_datekey) AS e, extract(julian from d_datekey) AS j, extract(isoyear from d_datekey) AS iy FROM date WHERE d_datekey IN (DATE '1992-01-01', '1997-12-29', '1998-01-01') ORDER BY d_datekey;
SELECT d_datekey, date_part('year', d_datekey) AS y, date_part('dow', d_datekey) AS dow, date_part('epoch', d_datekey) AS e FROM date WHERE d_datekey < DATE '1992-01-04' ORDER BY d_datekey;
SELECT extract(year from lo_orderdate) AS y, extract(quarter from lo_orderdate) AS q, count(*), sum(lo_revenue) FROM lineorder GROUP BY 1, 2 ORDER BY 1, 2;
SELECT count(*) FROM lineorder WHERE extract(dow from lo_orderdate) IN (0, 6) AND extract(month from lo_commitdate) = 12;
SELECT extract(isodow from lo_orderdate) AS d, sum(CASE WHEN extract(day from lo_orderdate) = 1 THEN lo_revenue END) AS first_days FROM lineorder GROUP BY 1 ORDER BY 1;
SELECT d_year, max(extract(doy from d_datekey)) AS days, min(date_part('week', d_datekey)) AS w FROM date GROUP BY d_year ORDER BY d_year;
\set VERBOSITY terse
SELECT extract(hour from d_datekey) FROM date;
SELECT extract(fortnight from d_datekey) FROM date;
SELECT count(*) FROM date WHERE date_part('minute', d_datekey) = 0 AND date_part('hour', d_datekey) = 0;
SELECT extract(year from d_date) FROM date;
SELECT substring(d_year from 1) FROM date;
