select d_year, count(distinct lo_custkey) as customers
from lineorder, date
where lo_orderdate = d_datekey
group by d_year
order by d_year;
