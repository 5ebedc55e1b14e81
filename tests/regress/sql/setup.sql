-- The table the other files read besides SSB's: a row per edge of every
-- type starq stores, and NULLs.
CREATE TABLE vals (
  id integer NOT NULL,
  i2 smallint,
  i4 integer,
  i8 bigint,
  f8 double precision,
  n12 decimal(12,2),
  d date,
  s varchar(20),
  t text
);
COPY vals FROM stdin;
1	0	0	0	0	0.00	2000-01-01	zero	
2	-32768	-2147483648	-9223372036854775808	-1.5e308	-9999999999.99	0001-01-01	min	MIN
3	32767	2147483647	9223372036854775807	1.5e308	9999999999.99	9999-12-31	max	Max
4	\N	\N	\N	\N	\N	\N	\N	\N
5	1	-1	42	3.25	-0.50	2000-02-29	Ünïcödé	a b  
6	7	100	-42	-0.125	12.34	1992-01-01	a	A
7	-7	7	1000000000000	NaN	1.00	1998-12-31	 lead	trail 
8	3	2	5	Infinity	0.01	1970-01-01	z	\N
9	\N	3	\N	-Infinity	\N	2024-02-29	\N	z
\.
SELECT * FROM vals ORDER BY id;
