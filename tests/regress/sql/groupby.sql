-- GROUP BY an expression: integer arithmetic on columns, CASE (of numbers
-- and of strings), comparisons; NULLs form their own group.
SELECT i4 / 2 AS h, count(*) FROM vals GROUP BY i4 / 2 ORDER BY h;
SELECT i2 % 3, count(*), sum(i4) FROM vals GROUP BY 1 ORDER BY 1;
SELECT CASE WHEN i4 > 0 THEN 'pos' WHEN i4 < 0 THEN 'neg' END AS sign, count(*) FROM vals GROUP BY 1 ORDER BY 1;
SELECT s > 'm' AS late, count(*) FROM vals GROUP BY s > 'm' ORDER BY 1;
SELECT 'all' AS label, count(*) FROM vals GROUP BY 1;
SELECT DISTINCT i2 / 4 FROM vals ORDER BY 1;
SELECT lo_quantity / 10 AS q, count(*), sum(lo_revenue) FROM lineorder GROUP BY lo_quantity / 10 ORDER BY q;
SELECT d_year % 100 AS yy, lo_discount > 5 AS high, count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY 1, 2 ORDER BY 1, 2;
SELECT CASE WHEN c_region = 'ASIA' THEN 'asia' WHEN c_region = 'EUROPE' THEN 'europe' ELSE 'other' END AS r, d_year, sum(lo_revenue) FROM lineorder, customer, date WHERE lo_custkey = c_custkey AND lo_orderdate = d_datekey GROUP BY 1, d_year HAVING sum(lo_revenue) > 1000000000 ORDER BY r, d_year;
SELECT lo_tax * 2 + lo_discount AS t, count(*) FROM lineorder GROUP BY lo_tax * 2 + lo_discount HAVING count(*) > 700 ORDER BY count(*) DESC, t;
