-- Rounding functions: round, ceil/ceiling, floor, trunc of double
-- precision (also picked for integers) and of numeric, round(x, n) and
-- trunc(x, n); NULLs, halves, negatives, NaN and infinities; sqrt and
-- power with PostgreSQL's errors.
SELECT id, round(f8) AS r, ceil(f8) AS c, ceiling(f8) AS cg, floor(f8) AS f, trunc(f8) AS t FROM vals ORDER BY id;
SELECT id, round(n12) AS r, ceil(n12) AS c, floor(n12) AS f, trunc(n12) AS t FROM vals ORDER BY id;
SELECT id, round(n12, 1) AS r1, round(n12, 0) AS r0, round(n12, 4) AS r4, trunc(n12, 1) AS t1, trunc(n12, 3) AS t3 FROM vals ORDER BY id;
SELECT id, round(i4) AS r, ceil(i2) AS c, floor(i8) AS f, trunc(i4) AS t, round(i4, 2) AS r2, trunc(i2, 1) AS t1 FROM vals WHERE id <> 3 ORDER BY id;
SELECT id, round(f8 / 4) AS half_even, round(n12 / 4, 2) AS q FROM vals WHERE id IN (1, 5, 6, 7, 8) ORDER BY id;
SELECT round(2.5) AS a, round(-2.5) AS b, round(2.5::float8) AS c, round(-0.5::float8) AS d, round(1.005, 2) AS e, trunc(-1.99, 1) AS f, floor(-0.01) AS g, ceil(-0.99) AS h;
SELECT lo_discount, round(sum(lo_extendedprice) / 7.0, 2) AS r, floor(min(lo_extendedprice) / 3.0) AS f FROM lineorder GROUP BY lo_discount ORDER BY lo_discount;
SELECT count(*) FROM lineorder WHERE round(lo_extendedprice / 100.0, 1) > 20000.5 AND floor(lo_quantity / 2.0) = 12 AND ceil(lo_discount / 3.0) = 2;
-- sqrt and power of double precision (integers take it too)
SELECT id, sqrt(i4) AS s4, sqrt(abs(i2)) AS s2, power(i4, 3) AS p3, power(f8, 0) AS p0, pow(2, i2) AS e FROM vals WHERE (i4 >= 0 OR i4 IS NULL) AND id <> 3 ORDER BY id;
SELECT id, sqrt(f8) AS s, power(f8, 1) AS p1, power(1, f8) AS one FROM vals WHERE id IN (1, 3, 4, 7, 8) ORDER BY id;
SELECT lo_discount, sum(power(lo_discount, 2)) AS p, sqrt(sum(lo_quantity)) AS s, max(sqrt(lo_quantity * lo_quantity)) AS m FROM lineorder WHERE sqrt(lo_quantity) < 5 GROUP BY lo_discount ORDER BY lo_discount;
\set VERBOSITY terse
SELECT sqrt(i4) FROM vals WHERE id = 5;
SELECT power(i2, -1) FROM vals WHERE id = 1;
SELECT power(i4, 0.5::float8) FROM vals WHERE id = 5;
SELECT pow(2, i2) FROM vals WHERE id = 3;
SELECT pow(2, -i2) FROM vals WHERE id = 3;
SELECT sqrt(s) FROM vals;
SELECT round(f8, 2) FROM vals;
SELECT round(s) FROM vals;
SELECT ceil(n12, 2) FROM vals;
SELECT round(i4, 2) FROM vals WHERE id = 3;
