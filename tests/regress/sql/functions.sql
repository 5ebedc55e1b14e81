-- Scalar functions bound as CASE or an operator: coalesce, nullif,
-- greatest, least, abs, mod; NULLs, mixed types and edges.
SELECT id, coalesce(i2, i4, -1) AS c, coalesce(i8, 0) AS c8, coalesce(n12, 0.55) AS cn FROM vals ORDER BY id;
SELECT id, nullif(i4, 0) AS n, nullif(i2, 7) AS n2, nullif(d, DATE '2000-01-01') AS nd FROM vals ORDER BY id;
SELECT id, greatest(i2, i4) AS g, least(i2, i4) AS l, greatest(i4, 5, i2) AS g3, least(n12, 0.55, -1.25) AS l3 FROM vals ORDER BY id;
SELECT id, greatest(f8, 0) AS gf, least(d, DATE '1999-01-01') AS ld FROM vals ORDER BY id;
SELECT id, abs(i2) AS a2, abs(n12) AS an, abs(f8) AS af, abs(i8) AS a8 FROM vals WHERE id <> 2 ORDER BY id;
SELECT id, mod(i4, 3) AS m, mod(i8, -7) AS m8, mod(i2, i4) AS m2 FROM vals WHERE i4 <> 0 ORDER BY id;
SELECT coalesce(sum(lo_revenue), 0), greatest(max(lo_quantity), 10), abs(min(lo_discount) - 5) FROM lineorder WHERE lo_quantity > 100;
SELECT d_year, sum(coalesce(nullif(lo_discount, 0), 1) * lo_extendedprice) AS s, max(greatest(lo_tax, lo_discount)) AS g FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year;
SELECT mod(lo_quantity, 5) AS m, count(*) FROM lineorder GROUP BY mod(lo_quantity, 5) ORDER BY m;
-- (PostgreSQL's NUMERIC keeps each value's own scale: coalesce(n12, i4)
-- would print 3 where starq's DECIMAL(12,2) prints 3.00; left out.)
\set VERBOSITY terse
SELECT mod(i4, 0) FROM vals WHERE id = 1;
SELECT coalesce(i4, 'x') FROM vals;
SELECT abs(s) FROM vals;
SELECT mod(f8, 2) FROM vals;
