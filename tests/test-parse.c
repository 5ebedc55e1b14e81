/*
** tests/test-parse.c — SQL that parses (parser/): each case is an input
** and the S-expression dump of its tree (format in test-parse-print.c),
** covering every construct of the grammar, operator precedence, the
** lexer's spellings, statement splitting and offsets, and the 13 SSB
** queries. Errors are in test-parse-errors.c.
*/
#include "../parser/parseInt.h"
#include "parser/parse.h"
#include "test-parse.h"
#include "test.h"

/* One input and the dump it must give. */
typedef struct tp_case tp_case;
struct tp_case {
  const char *zSql;
  const char *zExpect;
};

/* Checks each case, naming the input when one differs. */
static void tp_check_all(const tp_case *aCase, int nCase, unsigned mFlags) {
  for (int i = 0; i < nCase; i++) {
    char *z = parse_dump(aCase[i].zSql, mFlags);
    if (strcmp(z, aCase[i].zExpect) != 0) {
      FAIL("case %d: %s\n  expected: %s\n  got:      %s", i, aCase[i].zSql, aCase[i].zExpect, z);
    }
    free(z);
  }
}
#define TP_CHECK(a, f) tp_check_all((a), (int)(sizeof(a) / sizeof((a)[0])), (f))

/* ---- the lexer ---------------------------------------------------------------- */

TEST_IMPL(parse_tokens) {
  static const struct {
    const char *z;
    int n;
    sql_token_class e;
  } aTok[] = {
    {"select x", 6, SQL_TOKEN_WORD},
    {"\"a \"\"b\"\" c\" x", 11, SQL_TOKEN_WORD},
    {"_x$1 y", 4, SQL_TOKEN_WORD},
    {"\xc3\xa9t\xc3\xa9 x", 5, SQL_TOKEN_WORD},    /* UTF-8 letters */
    {"'it''s' x", 7, SQL_TOKEN_STRING},
    {"'' x", 2, SQL_TOKEN_STRING},
    {"42 x", 2, SQL_TOKEN_NUMBER},
    {"1.5e-3 x", 6, SQL_TOKEN_NUMBER},
    {".5", 2, SQL_TOKEN_NUMBER},
    {"1.", 2, SQL_TOKEN_NUMBER},
    {"1e+9x", 5, SQL_TOKEN_ILLEGAL},                /* trailing junk */
    {"1ex", 3, SQL_TOKEN_ILLEGAL},
    {"1e+x", 3, SQL_TOKEN_ILLEGAL},
    {"  \t\r\n x", 6, SQL_TOKEN_SPACE},
    {"-- c\nx", 4, SQL_TOKEN_SPACE},
    {"--", 2, SQL_TOKEN_SPACE},
    {"/* a /* b */ c */x", 17, SQL_TOKEN_SPACE},
    {"/* a /* b */ c", 14, SQL_TOKEN_ILLEGAL},
    {"'abc", 4, SQL_TOKEN_ILLEGAL},
    {"\"abc", 4, SQL_TOKEN_ILLEGAL},
    {"::int", 2, SQL_TOKEN_PUNCT},
    {"<>1", 2, SQL_TOKEN_PUNCT},
    {"!=1", 2, SQL_TOKEN_PUNCT},
    {"<=1", 2, SQL_TOKEN_PUNCT},
    {">=1", 2, SQL_TOKEN_PUNCT},
    {"<1", 1, SQL_TOKEN_PUNCT},
    {";x", 1, SQL_TOKEN_PUNCT},
    {"-1", 1, SQL_TOKEN_PUNCT},
    {"/1", 1, SQL_TOKEN_PUNCT},
    {".x", 1, SQL_TOKEN_PUNCT},
    {"!x", 1, SQL_TOKEN_PUNCT},                     /* an operator of its own */
    {":x", 1, SQL_TOKEN_PUNCT},
    {"#", 1, SQL_TOKEN_PUNCT},
    {"||'a'", 2, SQL_TOKEN_PUNCT},
    {"!~* 'a'", 3, SQL_TOKEN_PUNCT},
    {"~*x", 2, SQL_TOKEN_PUNCT},
    {"@>x", 2, SQL_TOKEN_PUNCT},
    {"<->x", 3, SQL_TOKEN_PUNCT},
    {"<-1", 1, SQL_TOKEN_PUNCT},                    /* a < -1 */
    {"=-1", 1, SQL_TOKEN_PUNCT},
    {"*-1", 1, SQL_TOKEN_PUNCT},
    {"~-1", 2, SQL_TOKEN_PUNCT},                    /* ~ keeps its - */
    {"@-1", 2, SQL_TOKEN_PUNCT},
    {"+/* c */", 1, SQL_TOKEN_PUNCT},               /* a comment ends an operator */
    {"<--c", 1, SQL_TOKEN_PUNCT},
    {"=>x", 2, SQL_TOKEN_PUNCT},
    {"[1]", 1, SQL_TOKEN_PUNCT},
    {"]", 1, SQL_TOKEN_PUNCT},
    {"$$it's$$ x", 8, SQL_TOKEN_STRING},
    {"$t$a$$b$t$ x", 10, SQL_TOKEN_STRING},
    {"$t$a$T$b$t$", 11, SQL_TOKEN_STRING},          /* tags are case-sensitive */
    {"$$abc", 5, SQL_TOKEN_ILLEGAL},
    {"$t$abc$t", 8, SQL_TOKEN_ILLEGAL},
    {"E'a\\'b' x", 7, SQL_TOKEN_STRING},
    {"e'\\\\' x", 5, SQL_TOKEN_STRING},
    {"E'a\\'", 5, SQL_TOKEN_ILLEGAL},
    {"B'101' x", 6, SQL_TOKEN_STRING},
    {"x'1F' x", 5, SQL_TOKEN_STRING},
    {"U&'d' x", 5, SQL_TOKEN_STRING},
    {"U&\"d\" x", 5, SQL_TOKEN_STRING},
    {"e x", 1, SQL_TOKEN_WORD},
    {"u& x", 1, SQL_TOKEN_WORD},
    {"$1", 2, SQL_TOKEN_PARAM},
    {"$65535+1", 6, SQL_TOKEN_PARAM},
    {"$0", 2, SQL_TOKEN_ILLEGAL},
    {"$65536", 6, SQL_TOKEN_ILLEGAL},
    {"$1x", 3, SQL_TOKEN_ILLEGAL},
    {"$x", 1, SQL_TOKEN_ILLEGAL},
    {"$", 1, SQL_TOKEN_ILLEGAL},
  };
  sql_token_class e = SQL_TOKEN_PUNCT;

  for (size_t i = 0; i < sizeof(aTok) / sizeof(aTok[0]); i++) {
    int n = sql_token_next(aTok[i].z, &e);
    if (n != aTok[i].n || e != aTok[i].e) {
      FAIL("token %zu \"%s\": length %d class %d, expected %d class %d", i, aTok[i].z, n,
           (int)e, aTok[i].n, (int)aTok[i].e);
    }
  }
  ASSERT_EQ(sql_token_next("", &e), 0);

  /* Keywords are found in any case; the table is sorted; a word that is
  ** a keyword's prefix or extension is not one. */
  ASSERT_EQ(sql__keyword_check(), 0);
  ASSERT_EQ(sql__keyword_code("SeLeCt", 6), TK_SELECT);
  ASSERT_EQ(sql__keyword_code("transaction", 11), TK_TRANSACTION);
  ASSERT_EQ(sql__keyword_code("abort", 5), TK_ABORT);
  ASSERT_EQ(sql__keyword_code("work", 4), TK_WORK);
  ASSERT_EQ(sql__keyword_code("selec", 5), TK_ID);
  ASSERT_EQ(sql__keyword_code("selects", 7), TK_ID);
  ASSERT_EQ(sql__keyword_code("date", 4), TK_ID);
  ASSERT_EQ(sql__keyword_code("transactions", 12), TK_ID);
  ASSERT_EQ(sql__keyword_code("a", 1), TK_ID);
  return 0;
}

/* ---- SELECT ------------------------------------------------------------------- */

TEST_IMPL(parse_select) {
  static const tp_case aCase[] = {
    {"SELECT 1", "(select (items 1))"},
    {"select a, b AS x, c y, t.d, * from t",
     "(select (items (col a) (col b) :as x (col c) :as y (col t.d) *) (from t))"},
    {"select t.*, u.* from t, u", "(select (items t.* u.*) (from t u))"},
    {"select distinct a from t", "(select :distinct (items (col a)) (from t))"},
    {"select all a from t", "(select (items (col a)) (from t))"},
    {"select a from t as x, u y, v",
     "(select (items (col a)) (from (t :as x) (u :as y) v))"},
    {"select a from t join u on t.k = u.k inner join v as w on w.k = u.k, z",
     "(select (items (col a)) (from t (join u :on (eq (col t.k) (col u.k))) "
     "(join v :as w :on (eq (col w.k) (col u.k))) z))"},
    {"select a from t where a = 1 and not b or c",
     "(select (items (col a)) (from t) (where (or (and (eq (col a) 1) (not (col b))) (col c))))"},
    {"select a, sum(b) from t group by a, 2, a + 1 having sum(b) > 10 and count(*) < 3",
     "(select (items (col a) (sum (col b))) (from t) (group (col a) 2 (add (col a) 1)) "
     "(having (and (gt (sum (col b)) 10) (lt (count *) 3))))"},
    {"select a from t order by a, 2 desc, b asc, c nulls first, d desc nulls last, e + 1",
     "(select (items (col a)) (from t) (order (col a) 2 :desc (col b) (col c) :nulls-first "
     "(col d) :desc :nulls-last (add (col e) 1)))"},
    {"select a from t limit 10", "(select (items (col a)) (from t) (limit 10))"},
    {"select a from t offset 5", "(select (items (col a)) (from t) (offset 5))"},
    {"select a from t limit 10 offset 5", "(select (items (col a)) (from t) (limit 10) (offset 5))"},
    {"select a from t offset 5 limit 10", "(select (items (col a)) (from t) (limit 10) (offset 5))"},
    {"select a from t limit all", "(select (items (col a)) (from t))"},
    {"select a from t limit all offset 2", "(select (items (col a)) (from t) (offset 2))"},
    {"select a from t limit 1 + 1", "(select (items (col a)) (from t) (limit (add 1 1)))"},
    {"select count(*), count(distinct x), count(all x), count(x, y), now(), max(a) as m from t",
     "(select (items (count *) (count distinct (col x)) (count (col x)) (count (col x) (col y)) "
     "(now) (max (col a)) :as m) (from t))"},
    {"select COUNT(*) from T", "(select (items (count *)) (from t))"},
    {"select case when a = 1 then 'x' when a = 2 then 'y' else 'z' end from t",
     "(select (items (case (when (eq (col a) 1) 'x') (when (eq (col a) 2) 'y') (else 'z'))) (from t))"},
    {"select case a when 1 then 2 end", "(select (items (case (col a) (when 1 2))))"},
    {"select case when a then case b when c then d end end",
     "(select (items (case (when (col a) (case (col b) (when (col c) (col d)))))))"},
    {"select cast(a as integer), a::bigint, cast(b as numeric(15,2)), c::decimal(7)",
     "(select (items (cast (col a) INTEGER) (cast (col a) BIGINT) (cast (col b) DECIMAL(15,2)) "
     "(cast (col c) DECIMAL(7,0))))"},
    {"select a::double precision, a::character varying(10), a::char varying(3), a::char(4)",
     "(select (items (cast (col a) DOUBLE PRECISION) (cast (col a) VARCHAR(10)) "
     "(cast (col a) VARCHAR(3)) (cast (col a) CHAR(4))))"},
    {"select a::int4, a::int8, a::int2, a::smallint, a::float8, a::float, a::double, a::text",
     "(select (items (cast (col a) INTEGER) (cast (col a) BIGINT) (cast (col a) SMALLINT) "
     "(cast (col a) SMALLINT) (cast (col a) DOUBLE PRECISION) (cast (col a) DOUBLE PRECISION) "
     "(cast (col a) DOUBLE PRECISION) (cast (col a) TEXT)))"},
    {"select a::varchar, a::character varying, a::char, a::character, a::date, a::bool, a::boolean",
     "(select (items (cast (col a) TEXT) (cast (col a) TEXT) (cast (col a) CHAR(1)) "
     "(cast (col a) CHAR(1)) (cast (col a) DATE) (cast (col a) BOOLEAN) (cast (col a) BOOLEAN)))"},
    {"select a::int b, a::double precision c, a::double d, a::\"int\"",
     "(select (items (cast (col a) INTEGER) :as b (cast (col a) DOUBLE PRECISION) :as c "
     "(cast (col a) DOUBLE PRECISION) :as d (cast (col a) INTEGER)))"},
    {"select a::int::text", "(select (items (cast (cast (col a) INTEGER) TEXT)))"},
    {"select a between 1 and 2, a not between b and c + 1, a in (1, 2, 3), a not in ('x')",
     "(select (items (between (col a) 1 2) (not-between (col a) (col b) (add (col c) 1)) "
     "(in (col a) 1 2 3) (not-in (col a) 'x')))"},
    {"select a like 'x%', a not like b, a is null, a is not null, not a is null",
     "(select (items (like (col a) 'x%') (not-like (col a) (col b)) (is-null (col a)) "
     "(is-not-null (col a)) (not (is-null (col a)))))"},
    {"select a from t where (a)", "(select (items (col a)) (from t) (where (col a)))"},
    {"select ((((1))))", "(select (items 1))"},
    {"select a from t where a = 1 and b between 1 and 2 and c = 3",
     "(select (items (col a)) (from t) (where (and (and (eq (col a) 1) (between (col b) 1 2)) "
     "(eq (col c) 3))))"},
  };
  TP_CHECK(aCase, 0);
  return 0;
}

/* ---- precedence ------------------------------------------------------------------ */

TEST_IMPL(parse_precedence) {
  static const tp_case aCase[] = {
    {"select 1 + 2 * 3", "(select (items (add 1 (mul 2 3))))"},
    {"select (1 + 2) * 3", "(select (items (mul (add 1 2) 3)))"},
    {"select 1 - 2 - 3", "(select (items (sub (sub 1 2) 3)))"},
    {"select 8 / 4 / 2 % 3", "(select (items (mod (div (div 8 4) 2) 3)))"},
    {"select 1 * 2 + 3 * 4", "(select (items (add (mul 1 2) (mul 3 4))))"},
    {"select a or b and c", "(select (items (or (col a) (and (col b) (col c)))))"},
    {"select a and b or c", "(select (items (or (and (col a) (col b)) (col c))))"},
    {"select a or b or c", "(select (items (or (or (col a) (col b)) (col c))))"},
    {"select not a = b", "(select (items (not (eq (col a) (col b)))))"},
    {"select not a and b", "(select (items (and (not (col a)) (col b))))"},
    {"select not not a", "(select (items (not (not (col a)))))"},
    {"select -x::int", "(select (items (neg (cast (col x) INTEGER))))"},
    {"select - 1 * 2", "(select (items (mul (neg 1) 2)))"},
    {"select -a + +b", "(select (items (add (neg (col a)) (pos (col b)))))"},
    {"select - - 1", "(select (items (neg (neg 1))))"},
    {"select 1 - -1", "(select (items (sub 1 (neg 1))))"},
    {"select a + 1 = b * 2", "(select (items (eq (add (col a) 1) (mul (col b) 2))))"},
    {"select a < b and c <> d or e != f",
     "(select (items (or (and (lt (col a) (col b)) (ne (col c) (col d))) (ne (col e) (col f)))))"},
    {"select a <= b, a >= b, a > b", "(select (items (le (col a) (col b)) (ge (col a) (col b)) "
     "(gt (col a) (col b))))"},
    {"select a = b is null", "(select (items (is-null (eq (col a) (col b)))))"},
    {"select a + 1 between 2 and 3 + 4", "(select (items (between (add (col a) 1) 2 (add 3 4))))"},
    {"select a between 1 and 2 and b", "(select (items (and (between (col a) 1 2) (col b))))"},
    {"select a = b not like c", "(select (items (eq (col a) (not-like (col b) (col c)))))"},
    {"select not a not in (1)", "(select (items (not (not-in (col a) 1))))"},
    {"select a like b and c", "(select (items (and (like (col a) (col b)) (col c))))"},
    {"select a is not null or b", "(select (items (or (is-not-null (col a)) (col b))))"},
  };
  TP_CHECK(aCase, 0);
  return 0;
}

/* ---- literals and names --------------------------------------------------------- */

TEST_IMPL(parse_literals) {
  static const tp_case aCase[] = {
    {"select 0, 42, 007, 1.5, .5, 1., 1e10, 1.5E-3, 2e+2",
     "(select (items 0 42 007 1.5 .5 1. 1e10 1.5E-3 2e+2))"},
    /* Too big for BIGINT is the binder's business: the text is kept. */
    {"select 99999999999999999999999999", "(select (items 99999999999999999999999999))"},
    {"select 'abc', '', 'it''s', '''', 'two\nlines', 'a\"b'",
     "(select (items 'abc' '' 'it''s' '''' 'two\nlines' 'a\"b'))"},
    {"select '\xc3\xa9t\xc3\xa9'", "(select (items '\xc3\xa9t\xc3\xa9'))"},
    {"select true, FALSE, Null", "(select (items true false null))"},
    /* Parameter markers: their values are the engine's to put in. */
    {"select $1, -$2 from t where a = $10", "(select (items $1 (neg $2)) (from t) (where (eq (col a) $10)))"},
    {"select DATE '1997-12-31', date '1992-01-01' as d",
     "(select (items (date '1997-12-31') (date '1992-01-01') :as d))"},
    {"select integer '5', text 'x'", "(select (items (cast '5' INTEGER) (cast 'x' TEXT)))"},
    {"select a from t where d_datekey <= date '1998-08-02'",
     "(select (items (col a)) (from t) (where (le (col d_datekey) (date '1998-08-02'))))"},
    /* Comments anywhere blanks go. */
    {"select /* c /* nested */ c */ 1 -- tail\n + 2 --", "(select (items (add 1 2)))"},
    {"select 1--2", "(select (items 1))"},
    {"select 1/2", "(select (items (div 1 2)))"},
    {"select 1-2", "(select (items (sub 1 2)))"},
    {"select a<>b, a!=b, a<=-1", "(select (items (ne (col a) (col b)) (ne (col a) (col b)) "
     "(le (col a) (neg 1))))"},
  };
  TP_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_names) {
  static const tp_case aCase[] = {
    {"SELECT LO_Revenue FROM LineOrder", "(select (items (col lo_revenue)) (from lineorder))"},
    {"select \"Mixed\", \"with \"\"quote\"\"\", \"T\".\"C\" from \"T\"",
     "(select (items (col \"Mixed\") (col \"with \"quote\"\") (col T.\"C\")) (from T))"},
    {"select \"select\" from \"from\"", "(select (items (col \"select\")) (from from))"},
    {"select \xc3\x89t\xc3\xa9 from t", "(select (items (col \xc3\x89t\xc3\xa9)) (from t))"},
    {"select _a$1 from t", "(select (items (col _a$1)) (from t))"},
    /* The SSB table is "date", and non-reserved keywords are names. */
    {"select date.d_year, d.d_month from date, date as d",
     "(select (items (col date.d_year) (col d.d_month)) (from date (date :as d)))"},
    {"select year, month, count, sum, text, date, format, header, delimiter, tables, show, "
     "first, last, key, work, begin, set, copy, explain, analyze, verbose, nulls, over, filter, "
     "if, exists, insert, double, precision, char, character, varying, start, abort from date",
     "(select (items (col year) (col month) (col count) (col sum) (col text) (col date) "
     "(col format) (col header) (col delimiter) (col tables) (col show) (col first) (col last) "
     "(col key) (col work) (col begin) (col set) (col copy) (col explain) (col analyze) "
     "(col verbose) (col nulls) (col over) (col filter) (col if) (col exists) (col insert) "
     "(col double) (col precision) (col char) (col character) (col varying) (col start) "
     "(col abort)) (from date))"},
    {"select sum(count) as first, count(sum) last from show",
     "(select (items (sum (col count)) :as first (count (col sum)) :as last) (from show))"},
    {"select a from tables first join show as last on first.x = last.y order by year nulls last",
     "(select (items (col a)) (from (tables :as first) (join show :as last :on "
     "(eq (col first.x) (col last.y)))) (order (col year) :nulls-last))"},
    {"select format from copy where header = delimiter",
     "(select (items (col format)) (from copy) (where (eq (col header) (col delimiter))))"},
    {"select date(x), year(d) from t", "(select (items (date (col x)) (year (col d))) (from t))"},
  };
  TP_CHECK(aCase, 0);
  return 0;
}

/* ---- other statements ----------------------------------------------------------- */

TEST_IMPL(parse_ddl) {
  static const tp_case aCase[] = {
    {"create table t (a int)", "(create-table t (column a INTEGER))"},
    {"CREATE TABLE IF NOT EXISTS Date (D_DateKey integer NOT NULL PRIMARY KEY, d_date char(18))",
     "(create-table :if-not-exists date (column d_datekey INTEGER :not-null :primary-key) "
     "(column d_date CHAR(18)))"},
    {"create table lineorder (lo_orderkey bigint not null, lo_linenumber smallint, "
     "lo_custkey int references customer, lo_partkey int references part (p_partkey), "
     "lo_tax numeric(15, 2) null, lo_x double precision, lo_y character varying(25), "
     "lo_z varchar(7) constraint nn not null, lo_w text, lo_d date, "
     "primary key (lo_orderkey, lo_linenumber), "
     "foreign key (lo_custkey) references customer (c_custkey), "
     "constraint fk foreign key (lo_partkey, lo_x) references part)",
     "(create-table lineorder (column lo_orderkey BIGINT :not-null) "
     "(column lo_linenumber SMALLINT) (column lo_custkey INTEGER :references customer) "
     "(column lo_partkey INTEGER :references part(p_partkey)) (column lo_tax DECIMAL(15,2)) "
     "(column lo_x DOUBLE PRECISION) (column lo_y VARCHAR(25)) (column lo_z VARCHAR(7) "
     ":not-null) (column lo_w TEXT) (column lo_d DATE) (primary-key lo_orderkey lo_linenumber) "
     "(foreign-key (lo_custkey) :references customer (c_custkey)) "
     "(foreign-key (lo_partkey lo_x) :references part))"},
    {"create table t (primary key (a), a int, b int null, c int not null not null)",
     "(create-table t (column a INTEGER) (column b INTEGER) (column c INTEGER :not-null) "
     "(primary-key a))"},
    {"create table \"T\" (\"A\" int, year int, date date, text text)",
     "(create-table T (column A INTEGER) (column year INTEGER) (column date DATE) "
     "(column text TEXT))"},
    {"drop table t", "(drop-table t)"},
    {"DROP TABLE IF EXISTS Lineorder", "(drop-table :if-exists lineorder)"},
  };
  TP_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_utility) {
  static const tp_case aCase[] = {
    {"copy lineorder from '/data/lineorder.tbl'", "(copy lineorder '/data/lineorder.tbl')"},
    {"COPY Date FROM 'd.csv' WITH (FORMAT csv, HEADER, DELIMITER ';', NULL 'NA')",
     "(copy date 'd.csv' :format csv :header :delimiter ';' :null 'NA')"},
    {"copy t from 'x' (format 'TBL', header false, delimiter '|', null '')",
     "(copy t 'x' :format tbl :delimiter '|' :null '')"},
    {"copy t from 'x' (header true)", "(copy t 'x' :header)"},
    {"COPY t FROM STDIN", "(copy t stdin)"},
    {"copy t from stdin with (format csv, header)", "(copy t stdin :format csv :header)"},
    {"copy t from stdin (format text)", "(copy t stdin :format text)"},
    {"copy t from 'x' (header on)", "(copy t 'x' :header)"},
    {"copy t from 'x' (header 1)", "(copy t 'x' :header)"},
    {"copy t from 'x' (header off)", "(copy t 'x')"},
    {"copy t from 'it''s'", "(copy t 'it''s')"},
    {"explain select 1", "(explain (select (items 1)))"},
    {"EXPLAIN ANALYZE select 1", "(explain :analyze (select (items 1)))"},
    {"explain verbose select 1", "(explain :verbose (select (items 1)))"},
    {"explain analyze verbose select 1", "(explain :analyze :verbose (select (items 1)))"},
    {"explain (analyze, verbose) select 1", "(explain :analyze :verbose (select (items 1)))"},
    {"explain (ANALYZE true, verbose off) select 1", "(explain :analyze (select (items 1)))"},
    {"explain (verbose) select 1", "(explain :verbose (select (items 1)))"},
    {"explain (analyze false) select 1", "(explain (select (items 1)))"},
    {"show tables", "(show-tables)"},
    {"SHOW ALL", "(show all)"},
    {"show Search_Path", "(show search_path)"},
    {"show starq . Threads", "(show starq.threads)"},
    {"show \"tables\"", "(show tables)"},
    {"set a = 1", "(set a '1')"},
    {"set a to 'Str''s'", "(set a 'Str''s')"},
    {"set a = -1.5", "(set a '-1.5')"},
    {"set a to Foo", "(set a 'foo')"},
    {"set a = on", "(set a 'on')"},
    {"set a = true", "(set a 'true')"},
    {"set starq.x to default", "(set starq.x default)"},
    {"set a = default", "(set a default)"},
    {"set extra_float_digits = 3", "(set extra_float_digits '3')"},
    {"set application_name = 'psql'", "(set application_name 'psql')"},
    {"begin", "(begin)"},
    {"begin transaction", "(begin)"},
    {"BEGIN WORK", "(begin)"},
    {"start transaction", "(begin)"},
    {"commit", "(commit)"},
    {"commit work", "(commit)"},
    {"commit transaction", "(commit)"},
    {"end", "(commit)"},
    {"rollback", "(rollback)"},
    {"rollback work", "(rollback)"},
    {"abort", "(rollback)"},
  };
  TP_CHECK(aCase, 0);
  return 0;
}

/* ---- scripts and offsets --------------------------------------------------------- */

TEST_IMPL(parse_script) {
  static const tp_case aCase[] = {
    {"", ""},
    {" ;; ; -- nothing\n /* at all */", ""},
    {"select 1", "(select (items 1@7))[0+8]"},
    {"select 1;", "(select (items 1@7))[0+8]"},
    {"  select 1 ;  select 2", "(select (items 1@9))[2+8]\n(select (items 2@21))[14+8]"},
    {";select 1;;select 2;", "(select (items 1@8))[1+8]\n(select (items 2@18))[11+8]"},
    {"select 1 /* c */ ; begin -- x\n", "(select (items 1@7))[0+8]\n(begin)[19+5]"},
    {"explain analyze  /* c */ select 1;", "(explain :analyze (select (items 1@32))[25+8])[0+33]"},
    {"explain (analyze) select 2", "(explain :analyze (select (items 2@25))[18+8])[0+26]"},
    {"explain\nselect 3", "(explain (select (items 3@15))[8+8])[0+16]"},
  };
  /* Node offsets: operators at the operator, columns and FROM items at
  ** their first name, functions at the name, aliases at the alias. */
  static const tp_case aOffset[] = {
    {"select a.b + 1 as x from t y where not c between 1 and 2",
     "(select (items (add@11 (col@7 a.b) 1@13) :as x@18) (from (t@25 :as y@27)) (where "
     "(not@35 (between@41 (col@39 c) 1@49 2@55))))[0+56]"},
    {"select count(*), -x::int, 'a' like b, d is not null, e not in (1)",
     "(select (items (count@7 *) (neg@17 (cast@19 (col@18 x) INTEGER)) (like@30 'a'@26 "
     "(col@35 b)) (is-not-null@40 (col@38 d)) (not-in@55 (col@53 e) 1@63)))[0+65]"},
    {"select case when x then date '1997-01-01' end, cast(y as text), t.*",
     "(select (items (case@7 (when (col@17 x) (date@24 '1997-01-01'))) (cast@47 (col@52 y) "
     "TEXT) t.*@64))[0+67]"},
    {"select 1 from a join b on true",
     "(select (items 1@7) (from a@14 (join@16 b@21 :on true@26)))[0+30]"},
    {"create table t (a int references u, primary key (a))",
     "(create-table t@13 (column a@16 INTEGER :references u@33) (primary-key a)@36)[0+52]"},
    {"copy t from 'f' (null 'x')", "(copy t@5 'f'@12 :null 'x')[0+26]"},
  };
  TP_CHECK(aCase, PARSE_PRINT_OFFSETS);
  TP_CHECK(aOffset, PARSE_PRINT_OFFSETS);
  return 0;
}

/* ---- the SSB queries ----------------------------------------------------------- */

/* The join of lineorder to date, in every WHERE clause, whose ANDs are
** built as a balanced tree (parser/ast-expr.c): (a AND b) AND (c AND d). */
#define SSB_JOIN_LO_DATE "(eq (col lo_orderdate) (col d_datekey))"

TEST_IMPL(parse_ssb) {
  static const struct {
    const char *zFile;
    const char *zExpect;   /* NULL: parse and check the shape only */
  } aQuery[] = {
    {"q1.1", "(select (items (sum (mul (col lo_extendedprice) (col lo_discount))) :as revenue) "
             "(from lineorder date) (where (and (and " SSB_JOIN_LO_DATE " (eq (col d_year) 1993)) "
             "(and (between (col lo_discount) 1 3) (lt (col lo_quantity) 25)))))"},
    {"q1.2", "(select (items (sum (mul (col lo_extendedprice) (col lo_discount))) :as revenue) "
             "(from lineorder date) (where (and (and " SSB_JOIN_LO_DATE " (eq (col "
             "d_yearmonthnum) 199401)) (and (between (col lo_discount) 4 6) (between (col "
             "lo_quantity) 26 35)))))"},
    {"q1.3", "(select (items (sum (mul (col lo_extendedprice) (col lo_discount))) :as revenue) "
             "(from lineorder date) (where (and (and (and " SSB_JOIN_LO_DATE " (eq (col "
             "d_weeknuminyear) 6)) (and (eq (col d_year) 1994) (between (col lo_discount) 5 7))) "
             "(between (col lo_quantity) 26 35))))"},
    {"q2.1", NULL}, {"q2.2", NULL}, {"q2.3", NULL},
    {"q3.1", NULL}, {"q3.2", NULL},
    {"q3.3", "(select (items (col c_city) (col s_city) (col d_year) (sum (col lo_revenue)) :as "
             "revenue) (from customer lineorder supplier date) (where (and (and (and (eq (col "
             "lo_custkey) (col c_custkey)) (eq (col lo_suppkey) (col s_suppkey))) (and "
             SSB_JOIN_LO_DATE " (or (eq (col c_city) 'UNITED KI1') (eq (col c_city) 'UNITED "
             "KI5')))) (and (and (or (eq (col s_city) 'UNITED KI1') (eq (col s_city) 'UNITED "
             "KI5')) (ge (col d_year) 1992)) (le (col d_year) 1997)))) (group (col c_city) (col "
             "s_city) (col d_year)) (order (col d_year) (col revenue) :desc))"},
    {"q3.4", NULL}, {"q4.1", NULL}, {"q4.2", NULL},
    {"q4.3", "(select (items (col d_year) (col s_city) (col p_brand1) (sum (sub (col lo_revenue) "
             "(col lo_supplycost))) :as profit) (from date customer supplier part lineorder) "
             "(where (and (and (and (eq (col lo_custkey) (col c_custkey)) (eq (col lo_suppkey) "
             "(col s_suppkey))) (and (eq (col lo_partkey) (col p_partkey)) " SSB_JOIN_LO_DATE ")) "
             "(and (and (eq (col c_region) 'AMERICA') (eq (col s_nation) 'UNITED STATES')) (and "
             "(or (eq (col d_year) 1997) (eq (col d_year) 1998)) (eq (col p_category) "
             "'MFGR#14'))))) (group (col d_year) (col s_city) (col p_brand1)) (order (col d_year) "
             "(col s_city) (col p_brand1)))"},
  };
  for (size_t i = 0; i < sizeof(aQuery) / sizeof(aQuery[0]); i++) {
    char zPath[64], *zSql, *zDump;
    size_t n;
    arena a;
    sql_script script;
    sql_error err;
    const sql_select *s;
    snprintf(zPath, sizeof(zPath), "ssb-data/queries/%s.sql", aQuery[i].zFile);
    zSql = test_file_read(test_src(zPath), &n);
    zDump = parse_dump(zSql, 0);
    if (aQuery[i].zExpect != NULL && strcmp(zDump, aQuery[i].zExpect) != 0) {
      FAIL("%s\n  expected: %s\n  got:      %s", zPath, aQuery[i].zExpect, zDump);
    }
    /* Every query: one SELECT over 2 to 5 tables with a sum() and a WHERE
    ** of ANDs that joins lineorder to each dimension; all but flight 1
    ** group and order. */
    arena_init(&a);
    ASSERT_EQ(sql_parse(zSql, &a, &script, &err), 0);
    ASSERT_EQ(script.nStmt, 1);
    ASSERT_EQ(script.apStmt[0]->eKind, SQL_STMT_SELECT);
    ASSERT_EQ(script.apStmt[0]->iOffset, 0);
    ASSERT_EQ(script.apStmt[0]->nLength, (int)(strrchr(zSql, ';') - zSql));
    s = script.apStmt[0]->pSelect;
    ASSERT(s->pFrom->n >= 2 && s->pFrom->n <= 5);
    ASSERT(strstr(zDump, "(sum ") != NULL);
    ASSERT(strstr(zDump, "(col lo_") != NULL);
    ASSERT_EQ(s->pWhere->eKind, SQL_EXPR_BINARY);
    ASSERT_EQ(s->pWhere->eOp, SQL_OP_AND);
    ASSERT_EQ(s->pGroupBy != NULL, aQuery[i].zFile[1] != '1');
    ASSERT_EQ(s->pOrderBy != NULL, aQuery[i].zFile[1] != '1');
    ASSERT(s->pLimit == NULL && s->pOffset == NULL && !s->bDistinct);
    arena_free(&a);
    free(zDump);
    free(zSql);
  }
  return 0;
}

/* ---- walking a tree --------------------------------------------------------- */

/* Appends a column's name and a space to the strbuf the walk carries. */
static void tp_walk_add(void *pArg, const sql_expr *pColumn) {
  strbuf_printf((strbuf *)pArg, "%s%s%s ", pColumn->zTable ? pColumn->zTable : "",
                pColumn->zTable ? "." : "", pColumn->zName);
}

/* sql_expr_walk_columns() reaches every column of every kind of node, a
** column read twice twice (CASE's ELSE before its WHENs: pRight before
** pList); constants call nothing. */
TEST_IMPL(parse_walk_columns) {
  static const struct {
    const char *zSql;
    const char *zWant;
  } aCase[] = {
    {"SELECT 1 FROM t WHERE a + t.b * -c > 2", "a t.b c "},
    {"SELECT 1 FROM t WHERE a BETWEEN b AND c AND d IN (e, 1, f) AND g LIKE h",
     "a b c d e f g h "},
    {"SELECT 1 FROM t WHERE CASE a WHEN b THEN c ELSE d END IS NOT NULL", "a d b c "},
    {"SELECT 1 FROM t WHERE CAST(a AS INT) = sum(b) + count(*) + a", "a b a "},
    {"SELECT 1 FROM t WHERE NOT (1 = 2)", ""},
  };
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    arena a;
    sql_script script;
    sql_error err;
    strbuf s;
    arena_init(&a);
    strbuf_init(&s);
    ASSERT_EQ(sql_parse(aCase[i].zSql, &a, &script, &err), 0);
    sql_expr_walk_columns(script.apStmt[0]->pSelect->pWhere, tp_walk_add, &s);
    if (strcmp(strbuf_str(&s), aCase[i].zWant) != 0) {
      FAIL("%s\n  expected: %s\n  got:      %s", aCase[i].zSql, aCase[i].zWant, strbuf_str(&s));
    }
    sql_expr_walk_columns(NULL, tp_walk_add, &s);
    ASSERT_STR_EQ(strbuf_str(&s), aCase[i].zWant);
    strbuf_free(&s);
    arena_free(&a);
  }
  return 0;
}
