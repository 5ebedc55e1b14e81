-- Aggregates over DISTINCT arguments: the star query's groups keyed by
-- each DISTINCT argument as well on the device, folded on the host.
SELECT count(DISTINCT lo_custkey) FROM lineorder;
SELECT d_year, count(DISTINCT lo_custkey) AS customers FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year;
SELECT count(DISTINCT lo_custkey), count(*), sum(lo_revenue), min(lo_discount), max(lo_quantity) FROM lineorder WHERE lo_quantity < 10;
SELECT count(DISTINCT lo_custkey), count(*), sum(lo_revenue) FROM lineorder WHERE lo_quantity > 1000;
SELECT c_region, count(DISTINCT c_nation) AS nations, count(DISTINCT c_city), count(*) FROM customer GROUP BY c_region ORDER BY c_region;
SELECT d_year, count(DISTINCT lo_suppkey) FILTER (WHERE lo_discount > 5) AS hi, count(DISTINCT lo_suppkey) AS all_supp, sum(DISTINCT lo_discount) AS discounts FROM lineorder JOIN date ON lo_orderdate = d_datekey GROUP BY 1 ORDER BY 1;
SELECT s_region AS r, count(DISTINCT lo_partkey) FROM lineorder, supplier WHERE lo_suppkey = s_suppkey GROUP BY r HAVING count(DISTINCT lo_partkey) > 100 ORDER BY count(DISTINCT lo_partkey) DESC, r;
SELECT d_year % 2 = 0 AS even, count(DISTINCT d_month), min(DISTINCT d_month), max(DISTINCT d_year) FROM date GROUP BY d_year % 2 = 0 ORDER BY 1;
SELECT count(DISTINCT lo_discount) + count(DISTINCT lo_tax) AS n, count(DISTINCT lo_quantity) * 2 FROM lineorder;
SELECT bool_and(lo_quantity > 0), count(DISTINCT lo_shipmode) FROM lineorder;
-- NULLs: skipped by the aggregate, a group of their own as a key.
SELECT count(DISTINCT i2), count(DISTINCT s), sum(DISTINCT i4), count(i2), count(*) FROM vals;
SELECT i2 > 0 AS pos, count(DISTINCT i2), count(DISTINCT t), sum(i4), max(i8) FROM vals GROUP BY 1 ORDER BY 1;
SELECT count(DISTINCT i2) FILTER (WHERE id > 100), count(DISTINCT i2) FILTER (WHERE id < 6), sum(DISTINCT i2) FILTER (WHERE i2 <> 7) FROM vals;
SELECT count(DISTINCT i2) FROM vals WHERE id > 100;
SELECT s, count(DISTINCT i2), sum(i4) FROM vals GROUP BY s ORDER BY s NULLS FIRST;
SELECT count(DISTINCT d), min(n12) FROM vals;
SELECT count(DISTINCT n12), sum(DISTINCT n12), max(DISTINCT n12) FROM vals;
-- Errors keep PostgreSQL's codes.
SELECT count(DISTINCT nosuch) FROM vals;
SELECT count(DISTINCT count(*)) FROM vals;
SELECT id, count(DISTINCT i2) FROM vals;
-- Output names, ordinals and expressions in GROUP BY and ORDER BY; LIMIT;
-- DISTINCT aggregates only in HAVING or ORDER BY; over a CTE.
SELECT c_nation AS n, count(DISTINCT c_city) AS cities FROM customer WHERE c_region = 'ASIA' GROUP BY n ORDER BY cities DESC, n LIMIT 3;
SELECT lo_quantity / 10 AS q, count(DISTINCT lo_suppkey), sum(lo_quantity) FROM lineorder GROUP BY lo_quantity / 10 ORDER BY 1 DESC LIMIT 2 OFFSET 1;
SELECT c_region FROM customer GROUP BY c_region HAVING count(DISTINCT c_nation) = 5 AND count(*) > 50 ORDER BY count(DISTINCT c_city), c_region;
SELECT DISTINCT count(DISTINCT c_nation) AS n FROM customer GROUP BY c_region;
WITH r AS (SELECT c_region, c_nation FROM customer) SELECT count(DISTINCT c_nation), count(DISTINCT c_region) FROM r;
SELECT count(DISTINCT lo_quantity) FILTER (WHERE lo_discount = 0), count(DISTINCT lo_quantity) FROM lineorder, date WHERE lo_orderdate = d_datekey AND d_year = 1997;
