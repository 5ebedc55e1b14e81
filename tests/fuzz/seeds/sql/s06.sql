select "d_year", /* c /* nested */ */ -1e10 % 7 -- x
 from "date" where d_yearmonth in ('Dec1997', 'Jan1998') and not d_holidayfl = 1 offset 5 limit 3