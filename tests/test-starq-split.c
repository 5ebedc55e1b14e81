/*
** tests/test-starq-split.c — the pieces of starq (clients/cli/) that need
** no server: the statement splitter (quotes, comments, dollar quotes,
** parentheses, meta-commands, the prompt's state) and the LINE/caret
** lines of an error, whose rules are libpq's.
*/
#include "../clients/cli/cli.h"
#include "test.h"

/* Splits zText (lines joined by '\n') as the main loop does and returns
** the statements, each followed by "\n--\n"; a meta-command becomes
** "META:<rest of line>\n--\n" and the text left at the end "LEFT:<text>".
** The caller frees the result. */
static char *split_all(const char *zText) {
  sq_split sp;
  strbuf out;
  const char *zLine = zText;
  sq_split_init(&sp);
  strbuf_init(&out);
  for (;;) {
    const char *zEnd = strchr(zLine, '\n');
    size_t nLine = zEnd ? (size_t)(zEnd - zLine) : strlen(zLine), iPos = 0;
    char *z = malloc(nLine + 1);
    sq_scan e;
    ASSERT(z != NULL);
    memcpy(z, zLine, nLine);
    z[nLine] = 0;
    sq_split_newline(&sp);
    while ((e = sq_split_scan(&sp, z, &iPos)) != SQ_SCAN_EOL) {
      if (e == SQ_SCAN_SEMI) {
        char *zStmt;
        if (!sq_split_pending(&sp)) {
          sq_split_reset(&sp);
          continue;
        }
        zStmt = sq_split_take(&sp);
        ASSERT(zStmt != NULL);
        strbuf_printf(&out, "%s\n--\n", zStmt);
        free(zStmt);
      } else {
        ASSERT_EQ(z[iPos], '\\');
        strbuf_printf(&out, "META:%s\n--\n", z + iPos);
        iPos = strlen(z);
      }
    }
    free(z);
    if (zEnd == NULL) break;
    zLine = zEnd + 1;
  }
  if (sq_split_pending(&sp)) strbuf_printf(&out, "LEFT:%s", strbuf_str(&sp.query));
  sq_split_free(&sp);
  ASSERT(!strbuf_error(&out));
  return strbuf_take(&out);
}

static void split_expect(const char *zText, const char *zWant) {
  char *zGot = split_all(zText);
  if (strcmp(zGot, zWant) != 0) FAIL("split of:\n%s\ngave:\n%s\nwanted:\n%s", zText, zGot, zWant);
  free(zGot);
}

/* The prompt's state character after the text zText. */
static char split_prompt_after(const char *zText) {
  sq_split sp;
  size_t iPos = 0;
  char c;
  sq_split_init(&sp);
  sq_split_newline(&sp);
  while (sq_split_scan(&sp, zText, &iPos) != SQ_SCAN_EOL) sq_split_reset(&sp);
  c = sq_split_prompt(&sp);
  sq_split_free(&sp);
  return c;
}

TEST_IMPL(starq_split_statements) {
  split_expect("SELECT 1; SELECT 2;", "SELECT 1;\n--\nSELECT 2;\n--\n");
  /* Lines join with a newline; blanks and -- comments before the first
  ** token are dropped, later ones kept. */
  split_expect("  -- lead;\n\nSELECT 1\n  + 2 -- two;\n;", "SELECT 1\n  + 2 -- two;\n;\n--\n");
  /* Quotes: '' inside a string, a backslash only in E'...'. */
  split_expect("SELECT 'a;b', 'it''s;';", "SELECT 'a;b', 'it''s;';\n--\n");
  split_expect("SELECT 'a\\'; SELECT 2;", "SELECT 'a\\';\n--\nSELECT 2;\n--\n");
  split_expect("SELECT E'a\\';b'; SELECT e'\\\\'; SELECT 1;",
               "SELECT E'a\\';b';\n--\nSELECT e'\\\\';\n--\nSELECT 1;\n--\n");
  split_expect("SELECT one'x;'; SELECT 2;", "SELECT one'x;';\n--\nSELECT 2;\n--\n");
  split_expect("SELECT 'multi\nline;';", "SELECT 'multi\nline;';\n--\n");
  split_expect("SELECT \"a;\"\"b\" FROM t;", "SELECT \"a;\"\"b\" FROM t;\n--\n");
  /* Block comments nest; a comment alone is no statement. */
  split_expect("SELECT /* a; /* b; */ c; */ 1;", "SELECT /* a; /* b; */ c; */ 1;\n--\n");
  split_expect("/* only; */;\nSELECT 1;", "SELECT 1;\n--\n");
  split_expect("SELECT /* open;\nstill; */ 1;", "SELECT /* open;\nstill; */ 1;\n--\n");
  /* Dollar quotes; $1 and a$b are not. */
  split_expect("SELECT $$a;b$$, $t$x;$$;$t$;", "SELECT $$a;b$$, $t$x;$$;$t$;\n--\n");
  split_expect("SELECT $1; SELECT a$b;", "SELECT $1;\n--\nSELECT a$b;\n--\n");
  /* Parentheses hold a ';' in. */
  split_expect("SELECT (1;\n2); SELECT 3;", "SELECT (1;\n2);\n--\nSELECT 3;\n--\n");
  /* Empty statements vanish. */
  split_expect(";;  ; SELECT 1;;", "SELECT 1;\n--\n");
  /* A backslash starts a meta-command; text before it stays collected. */
  split_expect("\\x\nSELECT 1 \\g", "META:\\x\n--\nMETA:\\g\n--\nLEFT:SELECT 1 ");
  split_expect("SELECT '\\x';", "SELECT '\\x';\n--\n");
  split_expect("SELECT 1 -- \\x\n;", "SELECT 1 -- \\x\n;\n--\n");
  /* What is left at the end, without its ';'. */
  split_expect("SELECT 1;\nSELECT 2", "SELECT 1;\n--\nLEFT:SELECT 2");
  return 0;
}

TEST_IMPL(starq_split_prompt) {
  ASSERT_EQ(split_prompt_after(""), '=');
  ASSERT_EQ(split_prompt_after("SELECT"), '-');
  ASSERT_EQ(split_prompt_after("SELECT 'a"), '\'');
  ASSERT_EQ(split_prompt_after("SELECT E'a\\'"), '\'');
  ASSERT_EQ(split_prompt_after("SELECT \"a"), '"');
  ASSERT_EQ(split_prompt_after("SELECT /* a /* b */"), '*');
  ASSERT_EQ(split_prompt_after("SELECT $q$ a"), '$');
  ASSERT_EQ(split_prompt_after("SELECT (1, (2)"), '(');
  ASSERT_EQ(split_prompt_after("SELECT 1; SELECT 2;"), '=');
  ASSERT_EQ(sq_split_count("SELECT 1"), 1);
  ASSERT_EQ(sq_split_count("SELECT 1; SELECT ';'"), 2);
  ASSERT_EQ(sq_split_count("SELECT 1;\n-- x\n"), 1);
  ASSERT_EQ(sq_split_count(""), 0);
  return 0;
}

/* The LINE/caret lines of position iPos in zQuery. */
static void split_caret_expect(const char *zQuery, int iPos, const char *zWant) {
  strbuf s;
  strbuf_init(&s);
  sq_error_position(&s, zQuery, iPos);
  ASSERT(!strbuf_error(&s));
  if (strcmp(strbuf_str(&s), zWant) != 0) {
    FAIL("position %d of \"%s\" gave:\n%s\nwanted:\n%s", iPos, zQuery, strbuf_str(&s), zWant);
  }
  strbuf_free(&s);
}

TEST_IMPL(starq_error_caret) {
  strbuf s;
  sq_errinfo e;
  split_caret_expect("SELECT nope", 8, "LINE 1: SELECT nope\n               ^\n");
  /* The line holding the position; "\r\n" is one line end. */
  split_caret_expect("SELECT 1,\n  nope\nFROM t", 13, "LINE 2:   nope\n          ^\n");
  split_caret_expect("SELECT 1,\r\n  nope", 14, "LINE 2:   nope\n          ^\n");
  /* Tabs print as spaces; wide characters take two columns. */
  split_caret_expect("SELECT\tnope", 8, "LINE 1: SELECT nope\n               ^\n");
  split_caret_expect("SELECT '日本', nope", 14, "LINE 1: SELECT '日本', nope\n                       ^\n");
  /* A long line is cut around the position: at its end only when that
  ** leaves the position in view, else at both ends. */
  split_caret_expect("SELECT 1 FORM t WHERE a_rather_long_column_name > 10 AND another_long_column < 20",
                     15, "LINE 1: SELECT 1 FORM t WHERE a_rather_long_column_name > 10 AND ano...\n"
                         "                      ^\n");
  split_caret_expect("SELECT 'a very long line that goes on and on and on and on and on and on', nope, "
                     "'and even more text that goes on and on and on forever and ever'",
                     76, "LINE 1: ...that goes on and on and on and on and on and on', nope, 'and...\n"
                         "                                                             ^\n");
  /* Past the end: nothing. */
  split_caret_expect("SELECT 1", 40, "");
  /* A whole message: severity, text, caret, detail, hint. */
  memset(&e, 0, sizeof(e));
  e.zSeverity = "ERROR";
  e.zPrimary = "column \"nope\" does not exist";
  e.zHint = "Perhaps you meant \"note\".";
  e.iPosition = 8;
  e.zQuery = "SELECT nope";
  strbuf_init(&s);
  sq_error_format(&s, &e);
  ASSERT_STR_EQ(strbuf_str(&s), "ERROR:  column \"nope\" does not exist\nLINE 1: SELECT nope\n"
                                "               ^\nHINT:  Perhaps you meant \"note\".\n");
  /* Without the query, the position is said in words, as libpq does. */
  strbuf_reset(&s);
  e.zQuery = NULL;
  e.zHint = NULL;
  sq_error_format(&s, &e);
  ASSERT_STR_EQ(strbuf_str(&s), "ERROR:  column \"nope\" does not exist at character 8\n");
  strbuf_free(&s);
  return 0;
}
