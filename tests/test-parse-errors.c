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
    {"select a as from t", "error 42601 @12: syntax error at or near \"from\""},
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
    {"(select 1)", "error 42601 @0: syntax error at or near \"(\""},
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
    {"select #", "error 42601 @7: syntax error at or near \"#\""},
    {"select a ! b", "error 42601 @9: syntax error at or near \"!\""},
    {"select a : b", "error 42601 @9: syntax error at or near \":\""},
    {"select $0", "error 42601 @7: syntax error at or near \"$0\""},
    {"select $1x", "error 42601 @7: syntax error at or near \"$1x\""},
    {"select $", "error 42601 @7: syntax error at or near \"$\""},
    {"select a || b", "error 42601 @9: syntax error at or near \"|\""},
    {"select a[1]", "error 42601 @8: syntax error at or near \"[\""},
    /* The lexer reports even after a statement that would have failed
    ** later: errors come in text order. */
    {"select 'a' from 'b", "error 42601 @16: unterminated quoted string at or near \"'b\""},
  };
  TPE_CHECK(aCase);
  return 0;
}

TEST_IMPL(parse_errors_unsupported) {
  static const tpe_case aCase[] = {
    {"select x from (select 1) s", "error 0A000 @15: subqueries are not supported"},
    {"select x from t, (select 1) s", "error 0A000 @18: subqueries are not supported"},
    {"select x from t join (select 1) s on true", "error 0A000 @22: subqueries are not supported"},
    {"select x from t where x in (select 1)", "error 0A000 @28: subqueries are not supported"},
    {"select x from t where x not in (select 1)", "error 0A000 @32: subqueries are not supported"},
    {"select (select 1)", "error 0A000 @8: subqueries are not supported"},
    {"select exists (select 1)", "error 0A000 @15: subqueries are not supported"},
    {"select 1 union select 2", "error 0A000 @9: UNION is not supported"},
    {"select 1 union all select 2", "error 0A000 @9: UNION is not supported"},
    {"select a from t intersect select 2", "error 0A000 @16: INTERSECT is not supported"},
    {"select a from t where a = 1 except select 2", "error 0A000 @28: EXCEPT is not supported"},
    {"select 1 union", "error 0A000 @9: UNION is not supported"},
    {"select a from t left join u on true",
     "error 0A000 @16: LEFT joins are not supported: only [INNER] JOIN ... ON and comma joins are"},
    {"select a from t left outer join u on true",
     "error 0A000 @16: LEFT joins are not supported: only [INNER] JOIN ... ON and comma joins are"},
    {"select a from t right join u on true",
     "error 0A000 @16: RIGHT joins are not supported: only [INNER] JOIN ... ON and comma joins are"},
    {"select a from t full outer join u on true",
     "error 0A000 @16: FULL joins are not supported: only [INNER] JOIN ... ON and comma joins are"},
    {"select a from t natural join u",
     "error 0A000 @16: NATURAL joins are not supported: only [INNER] JOIN ... ON and comma joins are"},
    {"select a from t cross join u", "error 0A000 @16: CROSS JOIN is not supported: list the tables with commas"},
    {"select a from t join u using (a)", "error 0A000 @23: JOIN ... USING is not supported: use JOIN ... ON"},
    {"select count(*) over () from t", "error 0A000 @16: window functions are not supported"},
    {"select sum(a) over (partition by b) from t", "error 0A000 @14: window functions are not supported"},
    {"select count(*) filter (where a) from t", "error 0A000 @16: FILTER on aggregates is not supported"},
    {"with x as (select 1) select * from x", "error 0A000 @0: WITH queries are not supported"},
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
    {"select a ilike 'x'", "error 0A000 @9: ILIKE is not supported: use LIKE"},
    {"select a not ilike 'x'", "error 0A000 @13: ILIKE is not supported: use LIKE"},
    {"select a is true", "error 0A000 @12: IS [NOT] TRUE is not supported: compare with = instead"},
    {"select a is not false", "error 0A000 @16: IS [NOT] FALSE is not supported: compare with = instead"},
    {"select a is distinct from b", "error 0A000 @12: IS [NOT] DISTINCT FROM is not supported"},
    {"select distinct on (a) a from t", "error 0A000 @16: SELECT DISTINCT ON is not supported"},
    {"create table t (a int unique)", "error 0A000 @22: UNIQUE constraints are not supported"},
    {"create table t (a int check (a > 0))", "error 0A000 @22: CHECK constraints are not supported"},
    {"create table t (a int, unique (a))", "error 0A000 @23: UNIQUE constraints are not supported"},
    {"create table t (a int default 0)", "error 0A000 @22: column DEFAULT values are not supported"},
    {"copy t from stdout", "error 42601 @12: syntax error at or near \"stdout\""},
    {"copy t to 'x'", "error 0A000 @7: COPY TO is not supported: starq only loads files"},
    {"select a::timestamp", "error 0A000 @10: type timestamp is not supported"},
    {"select interval '1 day'", "error 0A000 @7: type interval is not supported"},
    {"create table t (a real)", "error 0A000 @18: type real is not supported"},
    {"create table t (a numeric(19, 2))",
     "error 0A000 @18: DECIMAL precision 19 is more than the 18 digits starq stores"},
  };
  TPE_CHECK(aCase);
  return 0;
}

TEST_IMPL(parse_errors_options) {
  static const tpe_case aCase[] = {
    {"select x::foo", "error 42704 @10: type \"foo\" does not exist"},
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
