-- Errors: PostgreSQL's SQLSTATE classes and messages, positioned.
\set VERBOSITY default
SELECT lo_nope FROM lineorder;
SELECT lo_quantity + 'abc' FROM lineorder;
SELECT count(*) FROM lineorder WHERE lo_quantity = 'x';
SELECT count(*) FROM nope;
SELECT lo_quantity FROM lineorder GROUP BY lo_discount;
SELECT count(*) FROM lineorder WHERE lo_quantity / (lo_discount - lo_discount) > 1;
SELECT id FROM vals WHERE d = 'not a date';
SELECT id FROM vals WHERE i4 = '1.5';
-- Operators with no candidate: 42883, as PostgreSQL's resolution says.
\set VERBOSITY sqlstate
SELECT count(*) FROM lineorder WHERE lo_shipmode > 3;
SELECT c_city IN (1, 2) FROM customer;
SELECT -c_name FROM customer;
SELECT d_datekey * 2 FROM date;
SELECT lo_tax LIKE 'a%' FROM lineorder;
\set VERBOSITY terse
SELECT count(*) FROM lineorder WHERE lo_shipmode > 3;
SELECT c_city IN (1, 2) FROM customer;
SELECT -c_name FROM customer;
SELECT d_datekey * 2 FROM date;
