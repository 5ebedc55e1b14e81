-- String functions of a dictionary column in predicates, answered over
-- its dictionary: upper, lower, length, substring, left, right, replace,
-- trim, position; ILIKE. NULLs, UTF-8 and edges of vals.
SELECT id FROM vals WHERE upper(s) = 'MAX' ORDER BY id;
SELECT id, lower(t) = 'max' AS lm FROM vals WHERE length(s) > 3 ORDER BY id;
SELECT id FROM vals WHERE char_length(s) = 7 OR octet_length(s) = 11 ORDER BY id;
SELECT id, substring(s from 2 for 2) = 'ni' AS x FROM vals WHERE substr(s, 1, 1) IN ('m', 'z', 'Ü') ORDER BY id;
SELECT id FROM vals WHERE substring(t from 0 for 2) = 'M' OR substr(s, 3) = 'ro' ORDER BY id;
SELECT id FROM vals WHERE left(s, 2) = 'ma' OR right(s, -3) = 'o' OR left(t, -1) = 'trail' ORDER BY id;
SELECT id FROM vals WHERE replace(s, 'a', 'A') = 'mAx' OR replace(t, ' ', '') = 'ab' ORDER BY id;
SELECT id FROM vals WHERE trim(s) = 'lead' OR rtrim(t) = 'trail' OR ltrim(s, ' l') = 'ead' ORDER BY id;
SELECT id FROM vals WHERE trim(both 'z' from s) = '' OR btrim(t, 'M') = 'ax' ORDER BY id;
SELECT id, position('a' IN s) = 2 AS p FROM vals WHERE position('a' IN s) > 0 OR strpos(t, 'b') > 0 ORDER BY id;
SELECT id FROM vals WHERE s ILIKE 'M%' OR t ILIKE '%B%' ORDER BY id;
SELECT id FROM vals WHERE s NOT ILIKE '%A%' ORDER BY id;
SELECT id, CASE WHEN upper(s) LIKE 'M%' THEN 'm' WHEN length(t) >= 3 THEN 'long' ELSE 'other' END AS k FROM vals ORDER BY id;
SELECT count(*) FROM customer WHERE upper(c_name) LIKE 'CUSTOMER#00000001%';
SELECT count(*) FROM part WHERE length(p_name) > 15 OR p_color ILIKE 'RED';
SELECT count(*), sum(lo_revenue) FROM lineorder, customer WHERE lo_custkey = c_custkey AND (substring(c_phone from 1 for 2) = '13' OR lo_quantity < 2);
SELECT c_region, count(*) FILTER (WHERE left(c_nation, 1) = 'I') FROM customer GROUP BY c_region ORDER BY c_region;
\set VERBOSITY terse
-- errors: argument types, as PostgreSQL resolves them
SELECT upper(i4) FROM vals;
SELECT substr(s, 'x') FROM vals;
