-- string_agg and array_agg: the star query keyed by the value and the
-- ORDER BY keys, each pair with its row count, collected on the host.
SELECT c_region, string_agg(c_nation, ', ' ORDER BY c_nation) FROM customer WHERE c_nation < 'F' GROUP BY c_region ORDER BY 1;
SELECT c_region, array_agg(c_nation ORDER BY c_nation DESC) FILTER (WHERE c_nation <> 'CANADA') AS nations FROM customer WHERE c_nation < 'F' GROUP BY c_region ORDER BY 1;
SELECT d_year, array_agg(d_month ORDER BY d_month) FROM date WHERE d_year = 1992 AND d_daynuminmonth = 1 AND d_month LIKE 'J%' GROUP BY d_year;
SELECT lo_shipmode, array_agg(lo_quantity ORDER BY lo_quantity) AS q, string_agg(lo_shipmode, '|' ORDER BY lo_quantity, lo_discount) AS modes, count(*) FROM lineorder WHERE lo_orderkey = 1 GROUP BY lo_shipmode ORDER BY 1;
SELECT array_agg(id ORDER BY id), array_agg(s ORDER BY id), array_agg(t ORDER BY id DESC), string_agg(s, '-' ORDER BY s DESC NULLS LAST) FROM vals;
SELECT array_agg(i2 ORDER BY i2 NULLS FIRST), array_agg(d ORDER BY d) FROM vals WHERE id < 8;
SELECT string_agg(s, ',' ORDER BY s), array_agg(i2 ORDER BY i2) FROM vals WHERE id > 100;
SELECT i2 > 0 AS pos, array_agg(id ORDER BY id) FROM vals GROUP BY 1 ORDER BY 1;
SELECT string_agg(t, ',') FROM vals WHERE id = 6;
-- Errors.
SELECT string_agg(s, ',' ORDER BY count(*)) FROM vals;
