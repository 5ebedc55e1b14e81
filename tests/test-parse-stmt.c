/*
** tests/test-parse-stmt.c — the statements tools send that parse
** (parser/stmt-copy.c, stmt-session.c): COPY in both option syntaxes, TO
** and FROM, of tables and queries; SET, SHOW and RESET in PostgreSQL's
** spellings; transaction modes, savepoints; cursors. Each case is an
** input and its dump (format in test-parse-print-stmt.c).
*/
#include "test-parse.h"
#include "test.h"

TEST_IMPL(parse_copy) {
  static const parse_case aCase[] = {
    {"copy t to stdout",
     "(copy-to t stdout)"},
    {"copy t (a, b) to stdout with (format csv, header, delimiter ',', null '', quote '\"', "
     "escape '\\', force_quote (a, b), encoding 'UTF8')",
     "(copy-to t (a b) stdout :format csv :header :delimiter ',' :null '' :quote '\"' "
     ":escape '\\' :encoding 'UTF8' :force-quote (a b))"},
    {"copy t to stdout (force_quote *, format text); copy t to '/tmp/x' (format binary)",
     "(copy-to t stdout :format text :force-quote *)\n(copy-to t '/tmp/x' :format binary)"},
    {"copy (select a from t where b > 1) to stdout with (format csv, header true)",
     "(copy-to (select (items (col a)) (from t) (where (gt (col b) 1))) stdout :format csv "
     ":header)"},
    {"copy binary t to stdout; copy t to stdout with binary",
     "(copy-to t stdout :format binary)\n(copy-to t stdout :format binary)"},
    {"copy public.t from stdin with csv header delimiter as ',' null as ''",
     "(copy public.t stdin :format csv :header :delimiter ',' :null '')"},
    {"copy t from stdin with delimiter ',' null '\\N'; copy t from stdin csv; copy t from "
     "'x' with csv header",
     "(copy t stdin :delimiter ',' :null '\\N')\n(copy t stdin :format csv)\n(copy t 'x' "
     ":format csv :header)"},
    {"copy t to stdout csv force quote a, b quote as '\"' escape as '\"' encoding 'x'; copy "
     "t to stdout csv force quote *",
     "(copy-to t stdout :format csv :quote '\"' :escape '\"' :encoding 'x' :force-quote (a "
     "b))\n(copy-to t stdout :format csv :force-quote *)"},
    {"copy t (a, b) from stdin csv", "(copy t (a b) stdin :format csv)"},
    {"copy t from stdin with binary; copy binary t from stdin",
     "(copy t stdin :format binary)\n(copy t stdin :format binary)"},
    {"copy t from stdout; copy t from $$/tmp/a b$$; copy t from E'/tmp/\\x41'",
     "(copy t stdin)\n(copy t '/tmp/a b')\n(copy t '/tmp/A')"},
    {"copy t to stdout (force_not_null (a), force_null (b), freeze false)",
     "(copy-to t stdout :force-not-null (a) :force-null (b))"},
  };
  PARSE_CHECK(aCase, PARSE_CHECK_NO_DEPARSE);
  return 0;
}

TEST_IMPL(parse_session) {
  static const parse_case aCase[] = {
    {"set session a to 1; set a = 'x', 'y', z; set a to -1.5, +2",
     "(set a '1')\n(set a 'x' 'y' 'z')\n(set a '-1.5' '2')"},
    {"set time zone 'UTC'; set time zone local; set time zone default; set time zone -8; set "
     "time zone utc",
     "(set timezone 'UTC')\n(set timezone default)\n(set timezone default)\n(set timezone "
     "'-8')\n(set timezone 'utc')"},
    {"set names 'utf8'; set names default; set schema 'public'",
     "(set client_encoding 'utf8')\n(set client_encoding default)\n(set search_path 'public')"},
    {"set transaction isolation level serializable, read only; set transaction read write "
     "deferrable",
     "(set-transaction :isolation serializable :read-only)\n(set-transaction :read-write "
     ":deferrable)"},
    {"set session characteristics as transaction isolation level read committed, not "
     "deferrable",
     "(set-transaction :session :isolation read-committed :not-deferrable)"},
    {"reset a; reset all; reset starq.x; reset time zone",
     "(reset a)\n(reset all)\n(reset starq.x)\n(reset timezone)"},
    {"show transaction isolation level; show time zone; show a.b",
     "(show transaction_isolation)\n(show timezone)\n(show a.b)"},
    {"deallocate prepare s1; deallocate s2; deallocate all; deallocate prepare all",
     "(deallocate s1)\n(deallocate s2)\n(deallocate-all)\n(deallocate-all)"},
    {"discard all; discard plans; discard sequences; discard temp; discard temporary",
     "(discard all)\n(discard plans)\n(discard sequences)\n(discard temp)\n(discard temp)"},
  };
  PARSE_CHECK(aCase, PARSE_CHECK_NO_DEPARSE);
  return 0;
}

TEST_IMPL(parse_transactions) {
  static const parse_case aCase[] = {
    {"begin isolation level repeatable read read write; begin transaction read only; begin "
     "work isolation level read uncommitted",
     "(begin :isolation repeatable-read :read-write)\n(begin :read-only)\n(begin :isolation "
     "read-uncommitted)"},
    {"start transaction not deferrable, isolation level serializable; start transaction",
     "(begin :isolation serializable :not-deferrable)\n(begin)"},
    {"commit and no chain; end work; rollback work and no chain; abort transaction",
     "(commit)\n(commit)\n(rollback)\n(rollback)"},
    {"savepoint s; release s; release savepoint s; rollback to s; rollback work to savepoint "
     "s; rollback transaction to s",
     "(savepoint s)\n(release s)\n(release s)\n(rollback-to s)\n(rollback-to "
     "s)\n(rollback-to s)"},
  };
  PARSE_CHECK(aCase, PARSE_CHECK_NO_DEPARSE);
  return 0;
}

TEST_IMPL(parse_cursors) {
  static const parse_case aCase[] = {
    {"declare c binary insensitive no scroll cursor with hold for select 1",
     "(declare c :binary :insensitive :no-scroll :hold (select (items 1)))"},
    {"declare c scroll cursor without hold for select a from t union select 2 order by 1",
     "(declare c :scroll (union (select (items (col a)) (from t)) (select (items 2)) (order "
     "1)))"},
    {"fetch c; fetch next from c; fetch prior in c; fetch first c; fetch last c; fetch "
     "absolute -3 c; fetch relative 2 from c",
     "(fetch c :forward 1)\n(fetch c :forward 1)\n(fetch c :backward 1)\n(fetch c :absolute "
     "1)\n(fetch c :absolute -1)\n(fetch c :absolute -3)\n(fetch c :relative 2)"},
    {"fetch 5 c; fetch -2 from c; fetch +2 c; fetch all c; fetch forward c; fetch forward 3 "
     "c; fetch forward all c",
     "(fetch c :forward 5)\n(fetch c :forward -2)\n(fetch c :forward 2)\n(fetch c :forward "
     "all)\n(fetch c :forward 1)\n(fetch c :forward 3)\n(fetch c :forward all)"},
    {"fetch backward c; fetch backward 2 c; fetch backward all in c; fetch in c; fetch from c",
     "(fetch c :backward 1)\n(fetch c :backward 2)\n(fetch c :backward all)\n(fetch c "
     ":forward 1)\n(fetch c :forward 1)"},
    {"move 3 c; move all in c; move last from c; close c; close all",
     "(move c :forward 3)\n(move c :forward all)\n(move c :absolute -1)\n(close "
     "c)\n(close-all)"},
  };
  PARSE_CHECK(aCase, PARSE_CHECK_NO_DEPARSE);
  return 0;
}

