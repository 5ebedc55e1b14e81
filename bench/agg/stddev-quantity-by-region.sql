select c_region, d_year, stddev(lo_quantity), var_pop(lo_discount), bit_or(lo_tax)
from lineorder, date, customer
where lo_orderdate = d_datekey
  and lo_custkey = c_custkey
group by c_region, d_year
order by c_region, d_year;
