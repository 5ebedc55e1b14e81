select extract(year from lo_orderdate) as y, lo_quantity / 10 as q,
       sum(lo_extendedprice * lo_discount) as revenue
from lineorder
where lo_discount between 1 and 3
group by extract(year from lo_orderdate), lo_quantity / 10
order by y, q;
