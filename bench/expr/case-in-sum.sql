select d_year,
       sum(case when c_region = 'ASIA' then lo_revenue else 0 end) as asia,
       sum(lo_revenue) as revenue
from lineorder, date, customer
where lo_orderdate = d_datekey
  and lo_custkey = c_custkey
group by d_year
order by d_year;
