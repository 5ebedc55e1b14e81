/*
** tests/test-parse-errors.c — SQL that must not parse (parser/): each case
** is an input and the error it must give, as "error SQLSTATE @OFFSET:
** message", where OFFSET is the byte offset PostgreSQL's position would
** point at. Covers syntax errors, the lexer's errors, what starq refuses
** as unsupported (0A000), bad types and options, and the limits (54000):
** length, nesting, and input built to pile up the parser's stack.
*/
#include "../parser/parser.h"
#include "test-parse.h"
#include "test.h"

typedef struct tpe_case tpe_case;
struct tpe_case {
  const char *zSql;
  const char *zExpect;
};

static void tpe_check_all(const tpe_case *aCase, int nCase) {
  for (int i = 0; i < nCase; i++) {
    char *z = parse_dump(aCase[i].zSql, 0);
    if (strcmp(z, aCase[i].zExpect) != 0) {
      FAIL("case %d: %s\n  expected: %s\n  got:      %s", i, aCase[i].zSql, aCase[i].zExpect, z);
    }
    free(z);
  }
}
#define TPE_CHECK(a) tpe_check_all((a), (int)(sizeof(a) / sizeof((a)[0])))

TEST_IMPL(parse_errors_syntax) {
  static const tpe_case aCase[] = {
    {"SELECT * FORM t", "error 42601 @9: syntax error at or near \"FORM\""},
    {"SELEC 1", "error 42601 @0: syntax error at or near \"SELEC\""},
    {"select a frm t", "error 42601 @13: syntax error at or near \"t\""},
    {"select a from t wher a = 1", "error 42601 @21: syntax error at or near \"a\""},
    {"select a from t group a", "error 42601 @22: syntax error at or near \"a\""},
    {"select a from t order a", "error 42601 @22: syntax error at or near \"a\""},
    {"SELECT 1 +", "error 42601 @10: syntax error at end of input"},
    {"SELECT 1 +   -- trailing comment\n", "error 42601 @33: syntax error at end of input"},
    {"SELECT 1 +;", "error 42601 @10: syntax error at or near \";\""},
    {"select 1; select 2 +", "error 42601 @20: syntax error at end of input"},
    {"select", "error 42601 @6: syntax error at end of input"},
    {"select from t", "error 42601 @7: syntax error at or near \"from\""},
    {"select a, from t", "error 42601 @10: syntax error at or near \"from\""},
    {"select a,", "error 42601 @9: syntax error at end of input"},
    {"select a from", "error 42601 @13: syntax error at end of input"},
    {"select a from t,", "error 42601 @16: syntax error at end of input"},
    {"select a from t, where a", "error 42601 @17: syntax error at or near \"where\""},
    {"select a from t where", "error 42601 @21: syntax error at end of input"},
    {"select a from t group by a,", "error 42601 @27: syntax error at end of input"},
    {"select a from t order by", "error 42601 @24: syntax error at end of input"},
    {"select (1", "error 42601 @9: syntax error at end of input"},
    {"select (1))", "error 42601 @10: syntax error at or near \")\""},
    {"select f(1", "error 42601 @10: syntax error at end of input"},
    {"select f(1,)", "error 42601 @11: syntax error at or near \")\""},
    {"select a in ()", "error 42601 @13: syntax error at or near \")\""},
    {"select 1 = 1 = 1", "error 42601 @13: syntax error at or near \"=\""},
    {"select a < b < c", "error 42601 @13: syntax error at or near \"<\""},
    {"select a like b like c", "error 42601 @16: syntax error at or near \"like\""},
    {"select a b c from t", "error 42601 @11: syntax error at or near \"c\""},
    {"select 'a' 'b'", "error 42601 @11: syntax error at or near \"'b'\""},
    /* After AS any keyword is a label (PostgreSQL's ColLabel): "from" is the name. */
    {"select a as from t", "error 42601 @17: syntax error at or near \"t\""},
    {"select case end", "error 42601 @12: syntax error at or near \"end\""},
    {"select case when 1 then 2", "error 42601 @25: syntax error at end of input"},
    {"select cast(a as)", "error 42601 @16: syntax error at or near \")\""},
    {"select cast(a int)", "error 42601 @14: syntax error at or near \"int\""},
    {"select a::", "error 42601 @10: syntax error at end of input"},
    {"select a::numeric(a)", "error 42601 @18: syntax error at or near \"a\""},
    {"select a between 1", "error 42601 @18: syntax error at end of input"},
    {"select a is 1", "error 42601 @12: syntax error at or near \"1\""},
    {"select a not a", "error 42601 @9: syntax error at or near \"not\""},
    {"select a from t join u", "error 42601 @22: syntax error at end of input"},
    {"select a from t limit", "error 42601 @21: syntax error at end of input"},
    {"select a from t limit 1 limit 2", "error 42601 @24: syntax error at or near \"limit\""},
    {"select a from t where a = 1 group by a where b", "error 42601 @39: syntax error at or near \"where\""},
    {"select a into b from t", "error 42601 @9: syntax error at or near \"into\""},
    {"select a from t for update", "error 42601 @16: syntax error at or near \"for\""},
    {"select a from t order by a nulls", "error 42601 @32: syntax error at end of input"},
    {"select 1 select 2", "error 42601 @9: syntax error at or near \"select\""},
    {"(select 1", "error 42601 @9: syntax error at end of input"},
    {"((select 1)", "error 42601 @11: syntax error at end of input"},
    {"select x from (select 1) as", "error 42601 @27: syntax error at end of input"},
    {"select 1 union", "error 42601 @14: syntax error at end of input"},
    {"select 1 union all", "error 42601 @18: syntax error at end of input"},
    {"select a from t left join u", "error 42601 @27: syntax error at end of input"},
    {"select a from t join u using ()", "error 42601 @30: syntax error at or near \")\""},
    {"select a from t natural join u on true", "error 42601 @31: syntax error at or near \"on\""},
    {"select a from t cross join u on true", "error 42601 @29: syntax error at or near \"on\""},
    {"select a from (t, u)", "error 42601 @16: syntax error at or near \",\""},
    {"with x as (select 1)", "error 42601 @20: syntax error at end of input"},
    {"with x as (select 1) insert into t values (1)",
     "error 42601 @21: syntax error at or near \"insert\""},
    {"with x (select 1) select 1", "error 42601 @8: syntax error at or near \"select\""},
    {"select a from t window w", "error 42601 @24: syntax error at end of input"},
    {"select count(*) over from t", "error 42601 @21: syntax error at or near \"from\""},
    {"select count(*) over (rows) from t", "error 42601 @26: syntax error at or near \")\""},
    {"select count(*) over (rows between 1 preceding) from t",
     "error 42601 @46: syntax error at or near \")\""},
    {"select count(*) filter (a) from t", "error 42601 @24: syntax error at or near \"a\""},
    {"select f(x) within group (x) from t", "error 42601 @26: syntax error at or near \"x\""},
    {"select a from t group by rollup a", "error 42601 @32: syntax error at or near \"a\""},
    {"select a from t group by grouping (a)", "error 42601 @34: syntax error at or near \"(\""},
    {"select a from t fetch first 1 rows", "error 42601 @34: syntax error at end of input"},
    {"select a from t limit 1, 2", "error 42601 @23: syntax error at or near \",\""},
    {"select a from t offset 1 offset 2", "error 42601 @25: syntax error at or near \"offset\""},
    {"select extract(from a)", "error 42601 @15: syntax error at or near \"from\""},
    {"select position(a, b)", "error 42601 @17: syntax error at or near \",\""},
    {"select a[1", "error 42601 @10: syntax error at end of input"},
    {"select array[1", "error 42601 @14: syntax error at end of input"},
    {"select a::int[", "error 42601 @14: syntax error at end of input"},
    {"select a is distinct b", "error 42601 @21: syntax error at or near \"b\""},
    {"select a similar b", "error 42601 @17: syntax error at or near \"b\""},
    {"select a = any b", "error 42601 @15: syntax error at or near \"b\""},
    {"select a operator(foo) b", "error 42601 @21: syntax error at or near \")\""},
    {"select interval '1' month to day", "error 42601 @29: syntax error at or near \"day\""},
    {"select interval '1' day(3)", "error 42601 @24: syntax error at or near \"3\""},
    {"declare c cursor select 1", "error 42601 @17: syntax error at or near \"select\""},
    {"fetch", "error 42601 @5: syntax error at end of input"},
    {"fetch next", "error 42601 @10: syntax error at end of input"},
    {"close", "error 42601 @5: syntax error at end of input"},
    {"discard everything", "error 42601 @8: syntax error at or near \"everything\""},
    {"begin isolation level chaos", "error 42601 @22: syntax error at or near \"chaos\""},
    {"set transaction", "error 42601 @15: syntax error at end of input"},
    {"reset", "error 42601 @5: syntax error at end of input"},
    {"create table t ()", "error 42601 @16: syntax error at or near \")\""},
    {"create table t (a)", "error 42601 @17: syntax error at or near \")\""},
    {"create table t (a int,)", "error 42601 @22: syntax error at or near \")\""},
    {"create table t (a int", "error 42601 @21: syntax error at end of input"},
    {"create table if exists t (a int)", "error 42601 @16: syntax error at or near \"exists\""},
    {"create t (a int)", "error 42601 @7: syntax error at or near \"t\""},
    {"drop t", "error 42601 @5: syntax error at or near \"t\""},
    {"drop table", "error 42601 @10: syntax error at end of input"},
    {"copy t 'x'", "error 42601 @7: syntax error at or near \"'x'\""},
    {"copy t from x", "error 42601 @12: syntax error at or near \"x\""},
    {"copy t from 'x' (format csv", "error 42601 @27: syntax error at end of input"},
    {"copy t from 'x' with format csv", "error 42601 @21: syntax error at or near \"format\""},
    {"explain", "error 42601 @7: syntax error at end of input"},
    {"explain () select 1", "error 42601 @9: syntax error at or near \")\""},
    {"explain create table t (a int)", "error 42601 @8: syntax error at or near \"create\""},
    {"show", "error 42601 @4: syntax error at end of input"},
    {"set a", "error 42601 @5: syntax error at end of input"},
    {"set a = ", "error 42601 @8: syntax error at end of input"},
    {"begin foo", "error 42601 @6: syntax error at or near \"foo\""},
    {"start", "error 42601 @5: syntax error at end of input"},
    {"foo", "error 42601 @0: syntax error at or near \"foo\""},
    /* A NOT that is not followed by what makes it NOTLA stays a prefix. */
    {"select a not", "error 42601 @9: syntax error at or near \"not\""},
  };
  TPE_CHECK(aCase);
  return 0;
}

TEST_IMPL(parse_errors_lex) {
  static const tpe_case aCase[] = {
    {"select 'abc", "error 42601 @7: unterminated quoted string at or near \"'abc\""},
    {"select 'it''s", "error 42601 @7: unterminated quoted string at or near \"'it''s\""},
    {"select 1; select 'x\ny", "error 42601 @17: unterminated quoted string at or near \"'x\ny\""},
    {"select /* abc", "error 42601 @7: unterminated /* comment at or near \"/* abc\""},
    {"select /* a /* b */ c", "error 42601 @7: unterminated /* comment at or near \"/* a /* b */ c\""},
    {"select \"abc", "error 42601 @7: unterminated quoted identifier at or near \"\"abc\""},
    {"select \"\" from t", "error 42601 @7: zero-length delimited identifier at or near \"\"\"\""},
    {"select a from \"\"", "error 42601 @14: zero-length delimited identifier at or near \"\"\"\""},
    {"select 123abc", "error 42601 @7: trailing junk after numeric literal at or near \"123abc\""},
    {"select 1e", "error 42601 @7: trailing junk after numeric literal at or near \"1e\""},
    {"select 1.5e+x", "error 42601 @7: trailing junk after numeric literal at or near \"1.5e+\""},
    {"select 1e-", "error 42601 @7: trailing junk after numeric literal at or near \"1e-\""},
    {"select 1ex", "error 42601 @7: trailing junk after numeric literal at or near \"1ex\""},
    {"select 0x1F", "error 42601 @7: trailing junk after numeric literal at or near \"0x1F\""},
    {"select 1.5.3", "error 42601 @10: syntax error at or near \".3\""},
    {"select .5x", "error 42601 @7: trailing junk after numeric literal at or near \".5x\""},
    {"select #", "error 42601 @8: syntax error at end of input"},
    {"select $$abc", "error 42601 @7: unterminated dollar-quoted string at or near \"$$abc\""},
    {"select $a$abc$b$", "error 42601 @7: unterminated dollar-quoted string at or near \"$a$abc$b$\""},
    {"select $a", "error 42601 @7: syntax error at or near \"$\""},
    {"select E'abc", "error 42601 @7: unterminated quoted string at or near \"E'abc\""},
    {"select e'abc\\'", "error 42601 @7: unterminated quoted string at or near \"e'abc\\'\""},
    {"select b'101", "error 42601 @7: unterminated bit string literal at or near \"b'101\""},
    {"select X'1F", "error 42601 @7: unterminated hexadecimal string literal at or near \"X'1F\""},
    {"select u&'x", "error 42601 @7: unterminated quoted string at or near \"u&'x\""},
    {"select u&\"x", "error 42601 @7: unterminated quoted identifier at or near \"u&\"x\""},
    {"select E'\\xff'", "error 22021 @7: invalid byte sequence for encoding \"UTF8\": 0xff"},
    {"select E'a\\0b'", "error 22021 @7: invalid byte sequence for encoding \"UTF8\": 0x00"},
    {"select E'\\u0000'", "error 42601 @7: invalid Unicode escape value"},
    {"select E'\\U00110000'", "error 42601 @7: invalid Unicode escape value"},
    {"select E'\\u12'", "error 42601 @7: invalid Unicode escape value"},
    {"select E'\\ud83d'", "error 42601 @7: invalid Unicode surrogate pair"},
    {"select E'\\ude00'", "error 42601 @7: invalid Unicode surrogate pair"},

    {"select a : b", "error 42601 @9: syntax error at or near \":\""},
    {"select $0", "error 42601 @7: syntax error at or near \"$0\""},
    {"select $1x", "error 42601 @7: syntax error at or near \"$1x\""},
    {"select $", "error 42601 @7: syntax error at or near \"$\""},
    {"select a ]", "error 42601 @9: syntax error at or near \"]\""},
    /* The lexer reports even after a statement that would have failed
    ** later: errors come in text order. */
    {"select 'a' from 'b", "error 42601 @16: unterminated quoted string at or near \"'b\""},
  };
  TPE_CHECK(aCase);
  return 0;
}

/* What is refused before a tree is built (0A000), and what PostgreSQL's
** grammar itself refuses in a construct that parses (its SQLSTATEs).
** What parses into a tree and is not run yet is refused by the binder:
** tests/test-bind-errors.c. */
TEST_IMPL(parse_errors_unsupported) {
  static const tpe_case aCase[] = {
    {"insert into t values (1)", "error 0A000 @0: INSERT is not supported: starq loads data with COPY"},
    {"INSERT", "error 0A000 @0: INSERT is not supported: starq loads data with COPY"},
    {"update t set a = 1",
     "error 0A000 @0: UPDATE is not supported: starq loads tables with COPY and removes them with DROP TABLE"},
    {"delete from t",
     "error 0A000 @0: DELETE is not supported: starq loads tables with COPY and removes them with DROP TABLE"},
    {"truncate t",
     "error 0A000 @0: TRUNCATE is not supported: starq loads tables with COPY and removes them with DROP TABLE"},
    {"alter table t add column b int", "error 0A000 @0: ALTER is not supported: drop the table and create it again"},
    {"select 1; insert into t values (1)", "error 0A000 @10: INSERT is not supported: starq loads data with COPY"},
    {"create table t (a int unique)", "error 0A000 @22: UNIQUE constraints are not supported"},
    {"create table t (a int check (a > 0))", "error 0A000 @22: CHECK constraints are not supported"},
    {"create table t (a int, unique (a))", "error 0A000 @23: UNIQUE constraints are not supported"},
    {"create table t (a int default 0)", "error 0A000 @22: column DEFAULT values are not supported"},
    {"select a::bytea", "error 0A000 @10: type bytea is not supported"},
    {"create table t (a jsonb)", "error 0A000 @18: type jsonb is not supported"},
    {"select treat(a as int)", "error 0A000 @7: TREAT is not supported"},
    {"select b'101'", "error 0A000 @7: bit-string constants are not supported"},
    {"select x'1F'", "error 0A000 @7: bit-string constants are not supported"},
    {"select u&'x'", "error 0A000 @7: Unicode escapes (U&) are not supported: use E'\\u...' strings"},
    {"select (a).b from t", "error 0A000 @10: field selection (x).f is not supported"},
    {"select a.b.c.d from t", "error 0A000 @7: cross-database references are not implemented: a.b.c.d"},
    {"copy t from program 'ls'", "error 0A000 @12: COPY ... PROGRAM is not supported: starq reads no commands"},
    {"copy t to program 'ls'", "error 0A000 @10: COPY ... PROGRAM is not supported: starq reads no commands"},
    {"set local a = 1", "error 0A000 @4: SET LOCAL is not supported yet"},
    {"set time zone interval '1' hour",
     "error 0A000 @14: SET TIME ZONE INTERVAL is not supported: give the zone's name"},
    {"commit and chain", "error 0A000 @11: AND CHAIN is not supported yet"},
    {"rollback work and chain", "error 0A000 @18: AND CHAIN is not supported yet"},
    /* COPY ... FROM is what the server runs: the parser refuses what its
    ** load would not do (the tree has it, for when it does). */
    {"copy t from stdin (freeze)", "error 0A000 @19: COPY option \"freeze\" is not supported"},
    {"copy t from stdin csv quote as '\"'", "error 0A000 @22: COPY option \"quote\" is not supported"},
    {"copy t from stdin csv force not null a", "error 0A000 @22: COPY option \"force_not_null\" is not supported"},
    {"copy x.t from stdin",
     "error 0A000 @7: COPY into schema \"x\" is not supported: starq's tables are in schema public"},
    /* PostgreSQL's grammar refuses these. */
    {"select x from (select 1)", "error 42601 @14: subquery in FROM must have an alias"},
    {"select x from lateral (select 1)", "error 42601 @14: subquery in FROM must have an alias"},
    {"select count(*) over (rows unbounded following) from t",
     "error 42P20 @27: frame start cannot be UNBOUNDED FOLLOWING"},
    {"select count(*) over (rows between current row and 1 preceding) from t",
     "error 42P20 @51: frame starting from current row cannot have preceding rows"},
    {"select count(*) over (rows between 1 following and current row) from t",
     "error 42P20 @51: frame starting from following row cannot have preceding rows"},
    {"select count(*) over (rows 1 following) from t",
     "error 42P20 @27: frame starting from following row cannot end with current row"},
    {"select count(*) over (rows between unbounded preceding and unbounded preceding) from t",
     "error 42P20 @59: frame end cannot be UNBOUNDED PRECEDING"},
    {"select a from t window w as (), w as ()", "error 42P20 @32: window \"w\" is already defined"},
    {"with x as (select 1), x as (select 2) select 1",
     "error 42712 @22: WITH query name \"x\" specified more than once"},
    {"select string_agg(a, ',' order by a) within group (order by a) from t",
     "error 42601 @7: cannot use multiple ORDER BY clauses with WITHIN GROUP"},
    {"select count(distinct a) within group (order by a) from t",
     "error 42601 @7: cannot use DISTINCT with WITHIN GROUP"},
    {"values (1), (1, 2)", "error 42601 @12: VALUES lists must all be the same length"},
    {"select a from t fetch first 1 rows with ties",
     "error 42601 @16: WITH TIES cannot be specified without ORDER BY clause"},
    {"(select 1 order by 1) order by 1", "error 42601 @31: multiple ORDER BY clauses not allowed"},
    {"(select 1 limit 1) limit 2", "error 42601 @25: multiple LIMIT clauses not allowed"},
    {"(select 1 offset 1) offset 2", "error 42601 @27: multiple OFFSET clauses not allowed"},
    {"with a as (select 1) (with b as (select 2) select 3)",
     "error 42601 @0: multiple WITH clauses not allowed"},
    {"declare c scroll no scroll cursor for select 1",
     "error 42P11 @-1: cannot specify both SCROLL and NO SCROLL"},
    {"fetch 99999999999999999999 c",
     "error 22003 @6: value \"99999999999999999999\" is out of range for type bigint"},
  };
  TPE_CHECK(aCase);
  return 0;
}

TEST_IMPL(parse_errors_options) {
  static const tpe_case aCase[] = {
    {"select x::foo", "error 42704 @10: type \"foo\" does not exist"},
    {"select x::foo.int4", "error 42704 @10: type \"foo.int4\" does not exist"},
    {"select x::pg_catalog.foo", "error 42704 @10: type \"foo\" does not exist"},
    {"select x::\"Char\"", "error 42704 @10: type \"Char\" does not exist"},
    {"select x::numeric(1001)", "error 22023 @10: NUMERIC precision 1001 must be between 1 and 1000"},
    {"select x::numeric(20, 30)", "error 22023 @10: NUMERIC scale 30 must be between 0 and precision 20"},
    {"select x::oid(3)", "error 42601 @10: type modifier is not allowed for type \"oid\""},
    {"copy t from 'x' (force_quote x)",
     "error 22023 @17: argument to option \"force_quote\" must be a list of column names"},
    {"copy t to stdout (format csv, force_quote)",
     "error 22023 @30: argument to option \"force_quote\" must be a list of column names"},
    {"copy t to stdout (quote (a))", "error 42601 @18: quote requires a string value"},
    {"copy t to stdout (header *)", "error 42601 @18: header requires a Boolean value"},
    {"copy t to stdout csv csv", "error 42601 @21: conflicting or redundant options"},
    {"select foo 'x'", "error 42704 @7: type \"foo\" does not exist"},
    {"select cast(x as \"Int\")", "error 42704 @17: type \"Int\" does not exist"},
    {"create table t (a int, b foo(3))", "error 42704 @25: type \"foo\" does not exist"},
    {"create table t (a char(0))", "error 22023 @18: CHAR length 0 is out of range 1..10485760"},
    {"create table t (a varchar(99999999999))", "error 22023 @18: malformed type \"varchar(99999999999)\""},
    {"create table t (a numeric(5, 6))", "error 22023 @18: DECIMAL scale 6 is out of range 0..5"},
    {"create table t (a int(4))", "error 42601 @18: type modifier is not allowed for type \"int\""},
    {"create table t (a text(4))", "error 42601 @18: type modifier is not allowed for type \"text\""},
    {"select a::double precision(2)",
     "error 42601 @10: type modifier is not allowed for type \"double precision\""},
    {"select a::char(1, 2)", "error 42601 @10: type modifier is not allowed for type \"char\""},
    {"create table t (a int not null null)",
     "error 42601 @31: conflicting NULL/NOT NULL declarations for column \"a\" of table \"t\""},
    {"create table t (a int null primary key not null)",
     "error 42601 @39: conflicting NULL/NOT NULL declarations for column \"a\" of table \"t\""},
    {"copy t from 'x' (foo 1)", "error 42601 @17: option \"foo\" not recognized"},
    {"copy t from 'x' (format csv, quote '\"')",
     "error 0A000 @29: COPY option \"quote\" is not supported"},
    {"copy t to 'x' (format xml)", "error 22023 @15: COPY format \"xml\" not recognized"},
    {"copy t from 'x' (encoding 'utf8')", "error 0A000 @17: COPY option \"encoding\" is not supported"},
    {"copy t from 'x' (format xml)", "error 22023 @17: COPY format \"xml\" not recognized"},
    {"copy t from 'x' (format)", "error 42601 @17: format requires a parameter"},
    {"copy t from 'x' (header maybe)", "error 42601 @17: header requires a Boolean value"},
    {"copy t from 'x' (delimiter '||')",
     "error 0A000 @17: COPY delimiter must be a single one-byte character"},
    {"copy t from 'x' (delimiter '')",
     "error 0A000 @17: COPY delimiter must be a single one-byte character"},
    {"copy t from 'x' (delimiter)", "error 42601 @17: delimiter requires a parameter"},
    {"copy t from 'x' (null)", "error 42601 @17: null requires a parameter"},
    {"copy t from 'x' (format csv, format tbl)", "error 42601 @29: conflicting or redundant options"},
    {"copy t from 'x' (header, header false)", "error 42601 @25: conflicting or redundant options"},
    {"explain (costs off) select 1", "error 0A000 @9: EXPLAIN option \"costs\" is not supported"},
    {"explain (format json) select 1", "error 0A000 @9: EXPLAIN option \"format\" is not supported"},
    {"explain (foo) select 1", "error 42601 @9: unrecognized EXPLAIN option \"foo\""},
    {"explain (analyze maybe) select 1", "error 42601 @9: analyze requires a Boolean value"},
    {"explain (verbose, analyze 2) select 1", "error 42601 @18: analyze requires a Boolean value"},
  };
  TPE_CHECK(aCase);
  return 0;
}

/* Returns a malloc'd string of zHead, zRepeat n times, then zTail. */
static char *tpe_repeat(const char *zHead, const char *zRepeat, int n, const char *zTail) {
  size_t nHead = strlen(zHead), nRep = strlen(zRepeat), nTail = strlen(zTail);
  char *z = malloc(nHead + nRep * (size_t)n + nTail + 1), *p = z;
  ASSERT(z != NULL);
  memcpy(p, zHead, nHead);
  p += nHead;
  for (int i = 0; i < n; i++, p += nRep) memcpy(p, zRepeat, nRep);
  memcpy(p, zTail, nTail + 1);
  return z;
}

/* Parses zSql and checks the outcome: zExpect is the start of the dump,
** or the whole "error ..." line. Frees zSql. */
static void tpe_check_owned(char *zSql, const char *zExpect) {
  char *z = parse_dump(zSql, 0);
  int bError = strncmp(zExpect, "error", 5) == 0;
  if (bError ? strcmp(z, zExpect) != 0 : strncmp(z, zExpect, strlen(zExpect)) != 0) {
    FAIL("input of %zu bytes \"%.40s...\"\n  expected: %s\n  got:      %.200s", strlen(zSql),
         zSql, zExpect, z);
  }
  free(z);
  free(zSql);
}

TEST_IMPL(parse_limits) {
  const char *zDeep = "statement is nested more than 1000 levels deep";
  char zErr[200];
  char *z;

  ASSERT_EQ(SQL_DEPTH_MAX, 1000);
  /* 1000 levels of each kind of nesting parse; one more is refused at the
  ** token or node that crosses the limit. */
  tpe_check_owned(tpe_repeat("select ", "(", 1000, "1"), "error 42601 @1008: syntax error at end of input");
  snprintf(zErr, sizeof(zErr), "error 54000 @1007: %s", zDeep);
  tpe_check_owned(tpe_repeat("select ", "(", 1001, "1"), zErr);
  {
    char *zOpen = tpe_repeat("select ", "(", 1000, "1");
    char *zAll = tpe_repeat(zOpen, ")", 1000, "");
    free(zOpen);
    tpe_check_owned(zAll, "(select (items 1))");
  }
  tpe_check_owned(tpe_repeat("select ", "not ", 999, "a"), "(select (items (not (not ");
  snprintf(zErr, sizeof(zErr), "error 54000 @7: %s", zDeep);
  tpe_check_owned(tpe_repeat("select ", "not ", 1000, "a"), zErr);
  tpe_check_owned(tpe_repeat("select ", "- ", 999, "1"), "(select (items (neg (neg ");
  snprintf(zErr, sizeof(zErr), "error 54000 @7: %s", zDeep);
  tpe_check_owned(tpe_repeat("select ", "- ", 1000, "1"), zErr);
  /* A left-deep chain never deepens the parser's stack, only the tree. */
  tpe_check_owned(tpe_repeat("select 1", "+1", 999, ""), "(select (items (add (add ");
  snprintf(zErr, sizeof(zErr), "error 54000 @2006: %s", zDeep);
  tpe_check_owned(tpe_repeat("select 1", "+1", 1000, ""), zErr);
  /* A flat chain of AND or OR is not nesting: it is built balanced, so a
  ** generated predicate of 100000 terms is about 34 levels deep. */
  tpe_check_owned(tpe_repeat("select 1", " or 1", 100000, ""), "(select (items (or (or (or ");
  tpe_check_owned(tpe_repeat("select a from t where a = 0", " and a = 1", 100000, ""),
                  "(select (items (col a)) (from t) (where (and (and (and ");
  {
    arena a;
    sql_script script;
    sql_error err;
    z = tpe_repeat("select 1", " or 1", 100000, "");
    arena_init(&a);
    ASSERT_EQ(sql_parse(z, &a, &script, &err), 0);
    ASSERT(script.apStmt[0]->pSelect->pItems->a[0].pExpr->nHeight <= 40);
    arena_free(&a);
    free(z);
  }
  /* Parenthesized terms of a chain still count as nesting where they
  ** nest, not where they are listed. */
  tpe_check_owned(tpe_repeat("select (1 or 1)", " or (1 and 1)", 10000, ""), "(select (items (or (or ");
  /* Set operations are a left-deep tree: each counts. */
  tpe_check_owned(tpe_repeat("select 1", " union select 1", 999, ""), "(union (union ");
  snprintf(zErr, sizeof(zErr), "error 54000 @%d: %s", 8 + 15 * 999 + 1, zDeep);
  tpe_check_owned(tpe_repeat("select 1", " union select 1", 1000, ""), zErr);
  /* A subquery is one level more than what it holds. */
  {
    char *zOpen = tpe_repeat("select ", "(select ", 499, "1");
    tpe_check_owned(tpe_repeat(zOpen, ")", 499, ""), "(select (items (subquery (select");
    free(zOpen);
  }
  {
    /* Nested CASE: the deepest stack per level of all the constructs. */
    char *zOpen = tpe_repeat("select ", "case 1 when 1 then ", 999, "1");
    tpe_check_owned(tpe_repeat(zOpen, " end", 999, ""), "(select (items (case 1 (when 1 (case");
    free(zOpen);
  }
  {
    char *zOpen = tpe_repeat("select ", "case when true then ", 1000, "1");
    snprintf(zErr, sizeof(zErr), "error 54000 @7: %s", zDeep);
    tpe_check_owned(tpe_repeat(zOpen, " end", 1000, ""), zErr);
    free(zOpen);
  }
  /* Prefixes pile up on the parser's stack before any node is built: the
  ** stack bound stops them long before memory matters. */
  {
    char *zDump;
    z = tpe_repeat("select ", "not ", 1000000, "a");
    zDump = parse_dump(z, 0);
    if (strncmp(zDump, "error 54000 @", 13) != 0) FAIL("got %.200s", zDump);
    free(zDump);
    free(z);
  }
  /* Wide is not deep: a long IN list and a long select list are fine. */
  tpe_check_owned(tpe_repeat("select a in (0", ",1", 100000, ")"), "(select (items (in (col a) 0 1 1");
  tpe_check_owned(tpe_repeat("select 0", ",1", 100000, ""), "(select (items 0 1 1 1");
  tpe_check_owned(tpe_repeat("", "select 1;", 10000, ""), "(select (items 1))\n(select");

  /* Longer than SQL_TEXT_MAX: refused before lexing, at the byte where the
  ** limit is crossed. */
  z = tpe_repeat("select 1", " ", SQL_TEXT_MAX, "");
  snprintf(zErr, sizeof(zErr), "error 54000 @%d: statement text is longer than %d bytes",
           SQL_TEXT_MAX, SQL_TEXT_MAX);
  tpe_check_owned(z, zErr);
  z = tpe_repeat("select 1", " ", SQL_TEXT_MAX - 8, "");
  tpe_check_owned(z, "(select (items 1))");
  return 0;
}
