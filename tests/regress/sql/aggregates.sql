-- Aggregates over SSB and over vals, NULLs and empty inputs included.
SELECT count(*) FROM lineorder;
SELECT count(*), count(i4), count(s), count(d) FROM vals;
SELECT sum(i2), sum(i4), min(i4), max(i4), min(i8), max(i8) FROM vals;
SELECT sum(n12), min(n12), max(n12) FROM vals;
SELECT min(d), max(d) FROM vals;
SELECT min(f8), max(f8) FROM vals WHERE f8 < 1e10 AND f8 > -1e10;
SELECT sum(lo_revenue), min(lo_orderdate), max(lo_commitdate) FROM lineorder;
SELECT sum(lo_quantity), min(lo_quantity), max(lo_quantity), count(lo_quantity) FROM lineorder WHERE lo_discount = 4;
SELECT lo_discount, count(*), sum(lo_quantity) FROM lineorder GROUP BY lo_discount ORDER BY lo_discount;
SELECT d_year, d_monthnuminyear, count(*) FROM date WHERE d_year = 1995 GROUP BY d_year, d_monthnuminyear ORDER BY 1, 2;
SELECT c_region, c_nation, count(*) FROM customer GROUP BY c_region, c_nation ORDER BY c_region, c_nation;
SELECT c_region, count(*) AS n FROM customer GROUP BY c_region HAVING count(*) > 60 ORDER BY n DESC;
SELECT sum(i4) FROM vals WHERE i4 IS NULL;
SELECT count(*) FROM vals WHERE id > 100;
SELECT sum(i4), max(d) FROM vals WHERE id > 100;
SELECT s, count(*) FROM vals GROUP BY s ORDER BY s;
SELECT d_year, sum(lo_revenue) FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year;
SELECT sum(lo_extendedprice * lo_discount) AS revenue FROM lineorder, date WHERE lo_orderdate = d_datekey AND d_year = 1993 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25;
