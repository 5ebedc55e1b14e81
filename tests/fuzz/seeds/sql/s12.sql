select 1 from t where a = 1 or a = 2 or a = 3 or a = 4 or a = 5 or a = 6 or a = 7 or a = 8 or a = 9 or (a = 10 and b in (1, 2, 3, 4, 5, 6, 7, 8));
(select 1 order by 1 limit 1) union (select 2) except select 3 order by 1;
table lineorder; values (1, 'a'), (2, 'b');
