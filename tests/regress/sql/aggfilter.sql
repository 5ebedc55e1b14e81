-- FILTER (WHERE ...), bool_and / bool_or / every, min and max of strings.
SELECT count(*) FILTER (WHERE i4 > 0) AS pos, count(i2) FILTER (WHERE s < 'n') AS c, sum(i8) FILTER (WHERE id < 6) AS s8 FROM vals;
SELECT min(s), max(s), min(t), max(t) FROM vals;
SELECT min(s) FILTER (WHERE id > 4), max(t) FILTER (WHERE i4 < 0) FROM vals;
SELECT bool_and(i4 > -5), bool_or(i4 > 1000), every(s IS NOT NULL), bool_and(i2 > 0) FILTER (WHERE i2 > 0) FROM vals;
SELECT bool_or(i4 > 1000) FILTER (WHERE id > 100) AS none FROM vals;
SELECT i2 > 0 AS pos, count(*) FILTER (WHERE s IS NULL), min(s), bool_or(t = 'A') FROM vals GROUP BY 1 ORDER BY 1;
SELECT c_region, min(c_nation), max(c_city), count(*) FILTER (WHERE c_mktsegment = 'BUILDING') FROM customer GROUP BY c_region ORDER BY c_region;
SELECT d_year, sum(lo_revenue) FILTER (WHERE lo_discount > 5) AS hi, sum(lo_revenue) FILTER (WHERE lo_discount <= 5) AS lo, bool_and(lo_quantity > 0) FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year;
SELECT count(*) FILTER (WHERE i4) FROM vals;
SELECT count(*) FILTER (WHERE count(*) > 1) FROM vals;
