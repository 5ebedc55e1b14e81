-- Arithmetic in the select list and in predicates.
SELECT 1 + 2, 7 / 2, -7 / 2, 7 % 3, -7 % 3, 2 * 3 - 1;
SELECT id, i4 + 1, i4 - i2, i2 * 2, i4 / 2, i4 % 5 FROM vals WHERE id IN (1, 5, 6, 7, 8) ORDER BY id;
SELECT id, n12 + 1, n12 * 2, n12 - n12 FROM vals WHERE id IN (1, 5, 6, 7, 8) ORDER BY id;
SELECT id, f8 * 2, f8 + 1 FROM vals WHERE id IN (1, 5, 6) ORDER BY id;
SELECT id, i4 / 0 FROM vals WHERE id = 1;
SELECT id, d + 1, d - 1 FROM vals WHERE id IN (1, 5) ORDER BY id;
SELECT id, d - DATE '2000-01-01' FROM vals WHERE id IN (1, 5, 6) ORDER BY id;
SELECT lo_orderkey, lo_extendedprice * lo_discount, lo_revenue - lo_supplycost FROM lineorder WHERE lo_orderkey < 3 ORDER BY lo_orderkey, lo_linenumber;
SELECT sum(lo_revenue - lo_supplycost) FROM lineorder WHERE lo_quantity < 10;
SELECT count(*) FROM lineorder WHERE lo_extendedprice * lo_discount > 50000000;
SELECT count(*) FROM lineorder WHERE lo_quantity * 2 + 1 < 11;
SELECT CASE WHEN i4 > 0 THEN 1 WHEN i4 < 0 THEN -1 ELSE 0 END FROM vals ORDER BY id;
SELECT sum(CASE WHEN lo_discount > 5 THEN lo_revenue ELSE 0 END) FROM lineorder;
SELECT id, i4 > 2, i4 = 2 OR i2 = 3 FROM vals ORDER BY id;
