select a::text, a::numeric(30,2), a::float8, a::oid, a::regclass, a::"char", a::name, a::timestamp(3) with time zone,
 a::time without time zone, a::interval day to second(3), a::text[], a::int[][], '{a,b}'::text[],
 timestamp '2020-01-01', timestamptz '2020-01-01 00:00+00', interval '1' day, interval(2) '1 sec', date '2020-01-01',
 $$it's$$, $t$a$$b$t$, E'a\n\'\x41\u00e9', pg_catalog.int4 '5', public.t.c, s.t.* from public.t, pg_catalog.pg_class c;
