select rank() over (partition by a order by b rows between unbounded preceding and current row exclude ties),
 sum(x) filter (where x > 0) over w, string_agg(s, ',' order by s), percentile_cont(0.5) within group (order by x),
 count(distinct x), array_agg(x order by y) from t, unnest(array[1,2]) with ordinality as u(v, n), lateral f(1)
window w as (partition by c range between 1 preceding and 2 following) having count(*) > 1;
select distinct on (a) a from t group by cube (a), grouping sets ((a, b), (), a);
