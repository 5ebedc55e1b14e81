declare c binary insensitive no scroll cursor with hold for select 1; fetch forward 5 from c; fetch backward all in c; move last c; close all;
copy t (a, b) to stdout with (format csv, header, delimiter ',', null '', quote '"', force_quote *); copy (select 1) to stdout with binary;
copy public.t from stdin with csv header delimiter as ',' null as ''; copy t to stdout csv force quote a, b escape as '\';
set session a to 'x', 'y'; set time zone 'UTC'; set transaction isolation level serializable, read only; reset all;
show transaction isolation level; deallocate prepare all; discard temp; begin isolation level repeatable read read write;
savepoint s; release savepoint s; rollback to s; commit and no chain; set names 'utf8'; set schema 'public';
