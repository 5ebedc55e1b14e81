select a || b || 'c', a ~* 'x', a !~ 'y', a @> b, 2 ^ 3, @ -1, a OPERATOR(pg_catalog.~) b, a is not distinct from b,
 a is unknown, a between symmetric 1 and 2, a ilike 'x' escape '!', a not similar to 'z', a collate "C", b collate pg_catalog.default,
 x = any (array[1, 2]), x < all (select 1), a[1:2][3], (a + b)[:1], array[[1,2],[3,4]], array(select 1),
 extract(year from d), substring(s from 2 for 3), position('a' in s), trim(leading 'x' from s), overlay(s placing 't' from 1 for 2),
 current_timestamp(3), localtime, current_user, user, current_schema, current_catalog, coalesce(a, nullif(b, c)), greatest(1, least(2, 3));
