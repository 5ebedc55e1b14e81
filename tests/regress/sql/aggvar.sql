-- var_pop, var_samp, variance, stddev_pop, stddev_samp, stddev (numeric
-- over integers and NUMERIC, exact; double precision over doubles) and
-- bit_and, bit_or: the star query's rows grouped by value with their
-- counts on the device, folded on the host.
SELECT var_pop(lo_quantity), var_samp(lo_quantity), variance(lo_discount), stddev_pop(lo_quantity), stddev_samp(lo_tax), stddev(lo_discount) FROM lineorder;
SELECT d_year, variance(lo_quantity), stddev(lo_quantity), count(*), sum(lo_quantity) FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year;
SELECT c_region, stddev_pop(lo_discount) AS sd, var_pop(lo_discount) FILTER (WHERE lo_quantity < 25) AS v FROM lineorder, customer WHERE lo_custkey = c_custkey GROUP BY c_region ORDER BY sd, c_region;
SELECT lo_shipmode, bit_and(lo_quantity), bit_or(lo_quantity), bit_or(lo_discount) FILTER (WHERE lo_discount < 4) FROM lineorder GROUP BY lo_shipmode ORDER BY 1;
SELECT stddev(DISTINCT lo_quantity), variance(DISTINCT lo_tax), count(DISTINCT lo_tax) FROM lineorder;
SELECT s_nation, stddev(lo_supplycost), count(*) FROM lineorder, supplier WHERE lo_suppkey = s_suppkey AND s_region = 'ASIA' GROUP BY s_nation HAVING count(*) > 0 ORDER BY 2 DESC;
-- Their numeric results in expressions (the host computes them).
SELECT d_year, variance(lo_quantity) * 2 AS v2, stddev(lo_discount) > 3.15 AS big, var_pop(lo_tax) - var_samp(lo_tax) AS d FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year HAVING variance(lo_quantity) > 206 ORDER BY d_year;
SELECT stddev(lo_quantity)::numeric(10,2) AS sd, -var_pop(lo_tax) AS neg, stddev(lo_discount)::float8 AS f, variance(lo_quantity) / 3 AS third FROM lineorder;
-- Edges: one row (samp is NULL, pop 0), no rows, NULLs, NUMERIC scales, doubles.
SELECT var_pop(i4), var_samp(i4), stddev_pop(i4), stddev_samp(i4) FROM vals WHERE id = 5;
SELECT var_pop(i4), var_samp(i4), stddev(i2), bit_or(i2) FROM vals WHERE id > 100;
SELECT variance(i2), stddev(i2), var_pop(i2), stddev_pop(i2), bit_and(i2), bit_or(i2) FROM vals;
SELECT bit_or(i4), bit_and(i4), bit_and(i4) FILTER (WHERE i4 > 0), variance(i4) FROM vals;
SELECT variance(n12), stddev(n12), var_pop(n12), stddev_pop(n12) FROM vals WHERE id IN (1, 5, 6, 7, 8);
SELECT variance(n12), stddev_samp(n12) FROM vals;
SELECT i2 > 0 AS pos, variance(i4), stddev_pop(i2) FROM vals GROUP BY 1 ORDER BY 1;
SELECT i2 > 0 AS pos, variance(n12) FROM vals GROUP BY 1 ORDER BY 1;
SELECT variance(lo_quantity * 3 - lo_discount), stddev(lo_revenue) FROM lineorder WHERE lo_orderkey < 100;
-- Errors as PostgreSQL's.
SELECT stddev(i2) FROM vals GROUP BY stddev(i2);
