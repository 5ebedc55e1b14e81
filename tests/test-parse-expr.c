/*
** tests/test-parse-expr.c — the expressions of PostgreSQL's SQL that parse
** (parser/ast-expr.c, ast-type.c): operators and their precedence
** (PostgreSQL's: || and ~ between comparison and +, ^ above *), predicates,
** COLLATE, OPERATOR(schema.op), SQL's own syntax for functions, casts to
** every type the parser names, typed literals, arrays and subscripts, the
** lexer's strings, and keywords that are still names. Each case is an
** input and its dump (format in test-parse-print*.c).
*/
#include "test-parse.h"
#include "test.h"

TEST_IMPL(parse_operators) {
  static const parse_case aCase[] = {
    {"select a || b || 'c', a ~ 'x', a ~* 'x', a !~ 'x', a !~* 'x', a @> b, a && b, a <-> b, "
     "a ~~ b",
     "(select (items (concat (concat (col a) (col b)) 'c') (regex (col a) 'x') (iregex (col "
     "a) 'x') (not-regex (col a) 'x') (not-iregex (col a) 'x') (op @> (col a) (col b)) (op "
     "&& (col a) (col b)) (op <-> (col a) (col b)) (op ~~ (col a) (col b))))"},
    {"select 2 ^ 3 ^ 2, 2 * 3 ^ 2, -2 ^ 2, 7 % 2, a || b = c, a = b || c, a + b || c, @ -5, "
     "|/ 25, ~ a + 1",
     "(select (items (pow (pow 2 3) 2) (mul 2 (pow 3 2)) (pow (neg 2) 2) (mod 7 2) (eq "
     "(concat (col a) (col b)) (col c)) (eq (col a) (concat (col b) (col c))) (concat (add "
     "(col a) (col b)) (col c)) (op @ (neg 5)) (op |/ 25) (op ~ (add (col a) 1))))"},
    {"select a OPERATOR(pg_catalog.~) b, OPERATOR(pg_catalog.-) a, a operator(=) b, a "
     "operator(pg_catalog.||) b operator(pg_catalog.+) c",
     "(select (items (regex :schema pg_catalog (col a) (col b)) (neg :schema pg_catalog (col "
     "a)) (eq (col a) (col b)) (add :schema pg_catalog (concat :schema pg_catalog (col a) "
     "(col b)) (col c))))"},
    {"select a is distinct from b, a is not distinct from b + 1, a is true, a is not false, "
     "a is unknown, a is not unknown, a is not null is true",
     "(select (items (is-distinct (col a) (col b)) (is-not-distinct (col a) (add (col b) 1)) "
     "(is-true (col a)) (is-not-false (col a)) (is-unknown (col a)) (is-not-unknown (col a)) "
     "(is-true (is-not-null (col a)))))"},
    {"select a ilike 'x', a not ilike 'y', a like 'a!%' escape '!', a similar to 'b', a not "
     "similar to 'c' escape 'd', a || b like c",
     "(select (items (ilike (col a) 'x') (not-ilike (col a) 'y') (like (col a) 'a!%' :escape "
     "'!') (similar (col a) 'b') (not-similar (col a) 'c' :escape 'd') (like (concat (col a) "
     "(col b)) (col c))))"},
    {"select a between symmetric 1 and 2, a not between asymmetric 1 and 2, a between 1 and "
     "2 and b",
     "(select (items (between :symmetric (col a) 1 2) (not-between (col a) 1 2) (and "
     "(between (col a) 1 2) (col b))))"},
    {"select a collate \"C\", b collate pg_catalog.default, c collate "
     "pg_catalog.\"default\", -a collate \"C\", a || b collate \"C\"",
     "(select (items (collate (col a) C) (collate (col b) pg_catalog.default) (collate (col "
     "c) pg_catalog.default) (collate (neg (col a)) C) (concat (col a) (collate (col b) C))))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_special_funcs) {
  static const parse_case aCase[] = {
    {"select extract(year from d), extract(epoch from t), extract('hour' from t), "
     "extract(day from d) + 1",
     "(select (items (extract :sql 'year' (col d)) (extract :sql 'epoch' (col t)) (extract "
     ":sql 'hour' (col t)) (add (extract :sql 'day' (col d)) 1)))"},
    {"select substring(s from 2 for 3), substring(s from 2), substring(s for 3), substring(s "
     "for 3 from 2), substring(s, 1, 2)",
     "(select (items (substring :sql (col s) 2 3) (substring :sql (col s) 2) (substring :sql "
     "(col s) 1 3) (substring :sql (col s) 2 3) (substring (col s) 1 2)))"},
    {"select position('a' in s), position(x in (y)), position(a || b in c)",
     "(select (items (position :sql (col s) 'a') (position :sql (col y) (col x)) (position "
     ":sql (col c) (concat (col a) (col b)))))"},
    {"select trim(both 'x' from s), trim(leading from s), trim(trailing s), trim(s), trim(s, "
     "'x'), trim(from s, 'x')",
     "(select (items (btrim :sql (col s) 'x') (ltrim :sql (col s)) (rtrim :sql (col s)) "
     "(btrim :sql (col s)) (btrim :sql (col s) 'x') (btrim :sql (col s) 'x')))"},
    {"select overlay(s placing 'ab' from 2 for 3), overlay(s placing 'ab' from 2), "
     "overlay(s, 'ab', 2)",
     "(select (items (overlay :sql (col s) 'ab' 2 3) (overlay :sql (col s) 'ab' 2) (overlay "
     "(col s) 'ab' 2)))"},
    {"select coalesce(a, b), nullif(a, b), greatest(1, 2), least(1, 2), left(s, 2), right(s, "
     "2), cast(a as int)",
     "(select (items (coalesce (col a) (col b)) (nullif (col a) (col b)) (greatest 1 2) "
     "(least 1 2) (left (col s) 2) (right (col s) 2) (cast (col a) INTEGER)))"},
    {"select current_date, current_time, current_time(3), current_timestamp, "
     "current_timestamp(0), localtime, localtimestamp(2)",
     "(select (items (current_date :sql) (current_time :sql) (current_time :sql 3) "
     "(current_timestamp :sql) (current_timestamp :sql 0) (localtime :sql) (localtimestamp "
     ":sql 2)))"},
    {"select current_user, session_user, user, current_role, current_schema, "
     "current_schema(), current_catalog",
     "(select (items (current_user :sql) (session_user :sql) (user :sql) (current_role :sql) "
     "(current_schema :sql) (current_schema) (current_catalog :sql)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_types) {
  static const parse_case aCase[] = {
    {"select a::text, a::numeric(10,2), a::numeric(30, 4), a::numeric, a::decimal(19), "
     "a::float8, a::int4, a::int8, a::bool, a::oid",
     "(select (items (cast (col a) TEXT) (cast (col a) DECIMAL(10,2)) (cast (col a) "
     "NUMERIC(30,4)) (cast (col a) DECIMAL(18,0)) (cast (col a) NUMERIC(19,0)) (cast (col a) "
     "DOUBLE PRECISION) (cast (col a) INTEGER) (cast (col a) BIGINT) (cast (col a) BOOLEAN) "
     "(cast (col a) OID)))"},
    {"select a::regclass, a::regtype, a::regproc, a::name, a::\"char\", a::char, a::date, "
     "a::real, a::float4, a::pg_catalog.regclass",
     "(select (items (cast (col a) REGCLASS) (cast (col a) REGTYPE) (cast (col a) REGPROC) "
     "(cast (col a) NAME) (cast (col a) \"char\") (cast (col a) CHAR(1)) (cast (col a) DATE) "
     "(cast (col a) REAL) (cast (col a) REAL) (cast (col a) REGCLASS)))"},
    {"select a::timestamp, a::timestamptz, a::timestamp(3) with time zone, a::timestamp "
     "without time zone, a::timestamp(9)",
     "(select (items (cast (col a) TIMESTAMP) (cast (col a) TIMESTAMP WITH TIME ZONE) (cast "
     "(col a) TIMESTAMP(3) WITH TIME ZONE) (cast (col a) TIMESTAMP) (cast (col a) "
     "TIMESTAMP)))"},
    {"select a::time, a::time(2) with time zone, a::timetz, a::interval, a::interval day to "
     "second(3), a::interval hour, a::interval year to month, a::interval(2)",
     "(select (items (cast (col a) TIME) (cast (col a) TIME(2) WITH TIME ZONE) (cast (col a) "
     "TIME WITH TIME ZONE) (cast (col a) INTERVAL) (cast (col a) INTERVAL DAY TO SECOND(3)) "
     "(cast (col a) INTERVAL HOUR) (cast (col a) INTERVAL YEAR TO MONTH) (cast (col a) "
     "INTERVAL(2))))"},
    {"select a::text[], a::int[][], a::int[3], cast(a as varchar(10)[]), '{a,b}'::text[], "
     "a::int[]::text",
     "(select (items (cast (col a) TEXT[]) (cast (col a) INTEGER[][]) (cast (col a) "
     "INTEGER[]) (cast (col a) VARCHAR(10)[]) (cast '{a,b}' TEXT[]) (cast (cast (col a) "
     "INTEGER[]) TEXT)))"},
    {"select timestamp '2020-01-01', timestamptz '2020-01-01', timestamp with time zone "
     "'2020-01-01 00:00+00', timestamp(3) '2020-01-01', time '10:00'",
     "(select (items (cast '2020-01-01' TIMESTAMP) (cast '2020-01-01' TIMESTAMP WITH TIME "
     "ZONE) (cast '2020-01-01 00:00+00' TIMESTAMP WITH TIME ZONE) (cast '2020-01-01' "
     "TIMESTAMP(3)) (cast '10:00' TIME)))"},
    {"select interval '1 day', interval '1' day, interval '1:2' hour to minute, interval(2) "
     "'1 sec', date '2020-01-01', pg_catalog.int4 '5', int '7'",
     "(select (items (cast '1 day' INTERVAL) (cast '1' INTERVAL DAY) (cast '1:2' INTERVAL "
     "HOUR TO MINUTE) (cast '1 sec' INTERVAL(2)) (date '2020-01-01') (cast '5' INTEGER) "
     "(cast '7' INTEGER)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_arrays) {
  static const parse_case aCase[] = {
    {"select array[1, 2], array[], array[[1, 2], [3, 4]], array[[]], array(select 1)",
     "(select (items (array 1 2) (array) (array (array 1 2) (array 3 4)) (array (array)) "
     "(array (select (items 1)))))"},
    {"select a[1], a[1:2], a[:2], a[1:], a[:], a[i + 1], (a)[1][2], t.a[1], $1[2], -a[1], "
     "(array[1, 2])[1]",
     "(select (items (subscript (col a) 1) (slice (col a) 1 2) (slice (col a) _ 2) (slice "
     "(col a) 1 _) (slice (col a) _ _) (subscript (col a) (add (col i) 1)) (subscript "
     "(subscript (col a) 1) 2) (subscript (col t.a) 1) (subscript $1 2) (neg (subscript (col "
     "a) 1)) (subscript (array 1 2) 1)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_strings) {
  static const parse_case aCase[] = {
    {"select $$it's$$, $tag$a$$b$tag$, $a$$a$, E'a\\nb\\'c\\x41\\u00e9\\U0001F600', e'\\\\', "
     "E'\\101\\7', 'x''y', E'it''s', E'\\q'",
     "(select (items 'it''s' 'a$$b' '' 'a\nb''cAé😀' '\\' 'A' 'x''y' 'it''s' 'q'))"},
    {"select 'a' || $$b$$ || E'c'",
     "(select (items (concat (concat 'a' 'b') 'c')))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_keywords) {
  static const parse_case aCase[] = {
    {"select rows, range, groups, partition, year, month, day, hour, minute, second, "
     "position, type, name, value, data, key from t",
     "(select (items (col rows) (col range) (col groups) (col partition) (col year) (col "
     "month) (col day) (col hour) (col minute) (col second) (col position) (col type) (col "
     "name) (col value) (col data) (col key)) (from t))"},
    {"select time, timestamp, interval, exists, extract, trim, substring, overlay, treat, "
     "current, first, next, preceding, unbounded, following from t",
     "(select (items (col time) (col timestamp) (col interval) (col exists) (col extract) "
     "(col trim) (col substring) (col overlay) (col treat) (col current) (col first) (col "
     "next) (col preceding) (col unbounded) (col following)) (from t))"},
    {"select ordinality, materialized, recursive, cube, rollup, sets, grouping, ties, "
     "others, exclude, escape, within, filter, over, zone, without from t",
     "(select (items (col ordinality) (col materialized) (col recursive) (col cube) (col "
     "rollup) (col sets) (col grouping) (col ties) (col others) (col exclude) (col escape) "
     "(col within) (col filter) (col over) (col zone) (col without)) (from t))"},
    {"select isolation, level, read, write, only_x, chain, session, local, names, schema, "
     "reset, prepare, deallocate, discard, plans, sequences, temp, temporary from t",
     "(select (items (col isolation) (col level) (col read) (col write) (col only_x) (col "
     "chain) (col session) (col local) (col names) (col schema) (col reset) (col prepare) "
     "(col deallocate) (col discard) (col plans) (col sequences) (col temp) (col temporary)) "
     "(from t))"},
    {"select cursor, hold, scroll, insensitive, binary, absolute, relative, forward, "
     "backward, prior, move, close, declare, savepoint, release, program from t",
     "(select (items (col cursor) (col hold) (col scroll) (col insensitive) (col binary) "
     "(col absolute) (col relative) (col forward) (col backward) (col prior) (col move) (col "
     "close) (col declare) (col savepoint) (col release) (col program)) (from t))"},
    {"select csv, header, delimiter, quote, force, encoding, freeze, values, row, unknown, "
     "no, operator, characteristics, committed, uncommitted, repeatable, serializable, "
     "deferrable from t",
     "(select (items (col csv) (col header) (col delimiter) (col quote) (col force) (col "
     "encoding) (col freeze) (col values) (col row) (col unknown) (col no) (col operator) "
     "(col characteristics) (col committed) (col uncommitted) (col repeatable) (col "
     "serializable) (col deferrable)) (from t))"},
    {"select year(d), month(d), day(d), grouping(a), row(1), values(1), rows(1), name(x), "
     "type(x) from t",
     "(select (items (year (col d)) (month (col d)) (day (col d)) (grouping (col a)) (row 1) "
     "(values 1) (rows 1) (name (col x)) (type (col x))) (from t))"},
    {"select a from rows, range r, groups as g, partition p join year y on true order by "
     "year nulls first",
     "(select (items (col a)) (from rows (range :as r) (groups :as g) (partition :as p) "
     "(join year :as y :on true)) (order (col year) :nulls-first))"},
    /* After AS, reserved keywords too name an output column (ColLabel). */
    {"select a as default, b as select, c as USER from t",
     "(select (items (col a) :as default (col b) :as select (col c) :as user) (from t))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}


/* A flat chain of AND or OR is built as a balanced tree as it grows, its
** nodes positioned at the operator before their right side; the order is
** the order written, and a parenthesized left side joins the chain as
** PostgreSQL flattens it. Deparse writes a chain flat. */
TEST_IMPL(parse_chains) {
  static const parse_case aCase[] = {
    {"select a or b or c or d or e",
     "(select (items (or@24 (or@14 (or@9 (col@7 a) (col@12 b)) (or@19 (col@17 c) (col@22 d))) "
     "(col@27 e))))[0+28]"},
    {"select x from t where a = 1 and b = 2 and (c = 3 or d = 4) and e = 5",
     "(select (items (col@7 x)) (from t@14) (where (and@38 (and@28 (eq@24 (col@22 a) 1@26) (eq@34 "
     "(col@32 b) 2@36)) (and@59 (or@49 (eq@45 (col@43 c) 3@47) (eq@54 (col@52 d) 4@56)) (eq@65 "
     "(col@63 e) 5@67)))))[0+68]"},
    {"select a and b or c and d or e and f",
     "(select (items (or@26 (or@15 (and@9 (col@7 a) (col@13 b)) (and@20 (col@18 c) (col@24 d))) "
     "(and@31 (col@29 e) (col@35 f)))))[0+36]"},
  };
  static const parse_case aNested[] = {
    {"select (a or b) or c, a or (b or c)",
     "(select (items (or@16 (or@10 (col@8 a) (col@13 b)) (col@19 c)) (or@24 (col@22 a) (or@30 "
     "(col@28 b) (col@33 c)))))[0+35]"},
  };
  static const parse_case aPlain[] = {
    {"select x < 1 or y < 2 or z < 3 or w < 4 or v < 5, a and (b or c) and d, not a and b",
     "(select (items (or (or (or (lt (col x) 1) (lt (col y) 2)) (or (lt (col z) 3) (lt (col w) "
     "4))) (lt (col v) 5)) (and (and (col a) (or (col b) (col c))) (col d)) (and (not (col a)) "
     "(col b))))"},
    /* Chains nest where the text nests: (a AND b) joins the outer AND's
    ** chain, a AND (b AND c) does not, so deparse's flat "a AND b AND c"
    ** reads back as the first (the same, AND being associative). */
    {"select (a and b) and c, a and (b and c)",
     "(select (items (and (and (col a) (col b)) (col c)) (and (col a) (and (col b) (col c)))))"},
  };
  PARSE_CHECK(aCase, PARSE_PRINT_OFFSETS);
  PARSE_CHECK(aNested, PARSE_PRINT_OFFSETS | PARSE_CHECK_NO_DEPARSE);
  PARSE_CHECK(aPlain, PARSE_CHECK_NO_DEPARSE);
  return 0;
}
