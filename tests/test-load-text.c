/*
** tests/test-load-text.c — the text formats (loader/text*.c): .tbl and
** CSV records into batches, cutting inputs into pieces, and the errors'
** offsets, columns and words.
**
** Inputs are parsed from exact-size heap copies, so a parser that reads a
** byte past its piece trips ASan. Batches are checked through a dump that
** prints every row: fields joined by '|', strings in [brackets] (so
** spaces show), NULL as NULL.
*/
#include "../loader/text.h"
#include "test.h"

/* ---- a table built by hand ----------------------------------------------- */

#define TT_NCOL_MAX 24

typedef struct tt_table tt_table;
struct tt_table {
  cat_table t;
  cat_column aCol[TT_NCOL_MAX];
  char azName[TT_NCOL_MAX][16];
};

/* Sets up a table of the types in azType (NULL-terminated); a type ending
** in '!' is NOT NULL. Columns are named c0, c1, ... */
static void tt_init(tt_table *p, const char *const *azType) {
  memset(p, 0, sizeof(*p));
  p->t.zName = "t";
  p->t.aCol = p->aCol;
  for (int i = 0; azType[i] != NULL; i++) {
    char zType[64], zErr[128];
    size_t n = strlen(azType[i]);
    ASSERT(i < TT_NCOL_MAX && n < sizeof(zType));
    memcpy(zType, azType[i], n + 1);
    if (n > 0 && zType[n - 1] == '!') {
      zType[n - 1] = 0;
      p->aCol[i].bNotNull = 1;
    }
    if (coltype_parse(zType, &p->aCol[i].type, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    snprintf(p->azName[i], sizeof(p->azName[i]), "c%d", i);
    p->aCol[i].zName = p->azName[i];
    p->t.nCol = i + 1;
  }
}

/* ---- rendering a batch --------------------------------------------------- */

typedef struct tt_buf tt_buf;
struct tt_buf {
  char *z;
  size_t n, nAlloc;
};

static void tt_buf_add(tt_buf *p, const char *z, size_t n) {
  if (n == 0 && p->z != NULL) return;
  if (p->n + n + 1 > p->nAlloc) {
    p->nAlloc = (p->n + n + 1) * 2;
    p->z = realloc(p->z, p->nAlloc);
    ASSERT(p->z != NULL);
  }
  if (n > 0) memcpy(p->z + p->n, z, n);
  p->n += n;
  p->z[p->n] = 0;
}

static void tt_buf_str(tt_buf *p, const char *z) {
  tt_buf_add(p, z, strlen(z));
}

/* Appends every row of b to p, one line per row. */
static void tt_dump(tt_buf *p, const load_batch *b) {
  for (int64_t r = 0; r < b->nRow; r++) {
    for (int i = 0; i < b->nCol; i++) {
      const load_col *c = &b->aCol[i];
      char a[64];
      if (i > 0) tt_buf_str(p, "|");
      if (c->aValid != NULL && !((c->aValid[r >> 6] >> (r & 63)) & 1)) {
        tt_buf_str(p, "NULL");
        continue;
      }
      switch (c->type.eId) {
        case COLTYPE_SMALLINT: snprintf(a, sizeof(a), "%d", ((int16_t *)c->aValue)[r]); break;
        case COLTYPE_INTEGER:
        case COLTYPE_DATE: snprintf(a, sizeof(a), "%d", ((int32_t *)c->aValue)[r]); break;
        case COLTYPE_BIGINT:
        case COLTYPE_DECIMAL:
        case COLTYPE_TIMESTAMP:
        case COLTYPE_TIMESTAMPTZ:
          snprintf(a, sizeof(a), "%lld", (long long)((int64_t *)c->aValue)[r]);
          break;
        case COLTYPE_DOUBLE: snprintf(a, sizeof(a), "%g", ((double *)c->aValue)[r]); break;
        case COLTYPE_BOOLEAN:
        case COLTYPE_UNKNOWN:
        COLTYPE_CASE_NAMED_ONLY: FAIL("a batch column of a type that is never stored");
        case COLTYPE_CHAR:
        case COLTYPE_VARCHAR:
        case COLTYPE_TEXT: {
          size_t n;
          uint32_t iCode = ((uint32_t *)c->aValue)[r];
          const char *z;
          ASSERT(iCode < c->strs.n);
          z = store_strset_str(&c->strs, iCode, &n);
          tt_buf_str(p, "[");
          tt_buf_add(p, z, n);
          tt_buf_str(p, "]");
          continue;
        }
      }
      tt_buf_str(p, a);
    }
    tt_buf_str(p, "\n");
  }
}

/* ---- parsing ------------------------------------------------------------- */

static load_text_opts tt_opts(load_format e) {
  load_text_opts o;
  memset(&o, 0, sizeof(o));
  o.eFormat = e;
  o.cDelim = e == LOAD_CSV ? ',' : '|';
  o.cQuote = '"';
  return o;
}

/* The last result of tt_parse, freed by the next call. */
static char *tt_zLast;

/* Parses zIn[0..nIn) as table azType: splits it into nPiece pieces and
** parses them in order into one batch. Returns the dump of the batch, or
** "@OFFSET col ICOL: found "X", expected Y" (the rows parsed before the
** error are dropped from the answer; tt_nRowLast says how many). */
static int64_t tt_nRowLast;
static const char *tt_parse_n(const char *const *azType, const load_text_opts *o,
                              const char *zIn, size_t nIn, int nPiece) {
  tt_table tt;
  load_batch b;
  load_text_error e;
  size_t aBound[17];
  char *zCopy = malloc(nIn ? nIn : 1);
  tt_buf out = {NULL, 0, 0};
  int rc = 0;

  ASSERT(zCopy != NULL && nPiece >= 1 && nPiece <= 16);
  memcpy(zCopy, zIn, nIn);
  tt_init(&tt, azType);
  ASSERT_EQ(load_batch_init(&b, &tt.t, 0), 0);
  memset(&e, 0x55, sizeof(e));
  rc = load_text_split(zCopy, nIn, o, nPiece, aBound, &e);
  for (int i = 0; rc == 0 && i < nPiece; i++) {
    rc = load_text_parse(zCopy, aBound[i], aBound[i + 1], o, &tt.t, &b, &e);
  }
  tt_nRowLast = b.nRow;
  if (rc == 0) {
    tt_dump(&out, &b);
    if (out.z == NULL) tt_buf_str(&out, "");
  } else {
    char a[512];
    ASSERT(memchr(e.zFound, 0, sizeof(e.zFound)) != NULL);
    ASSERT(memchr(e.zExpected, 0, sizeof(e.zExpected)) != NULL);
    snprintf(a, sizeof(a), "@%zu col %d: found \"%s\", expected %s", e.iOffset, e.iCol,
             e.zFound, e.zExpected);
    tt_buf_str(&out, a);
  }
  load_batch_free(&b);
  free(zCopy);
  free(tt_zLast);
  tt_zLast = out.z;
  return out.z;
}

static const char *tt_parse(const char *const *azType, const load_text_opts *o,
                            const char *zIn) {
  return tt_parse_n(azType, o, zIn, strlen(zIn), 1);
}

static const char *tt_tbl(const char *const *azType, const char *zIn) {
  load_text_opts o = tt_opts(LOAD_TBL);
  return tt_parse(azType, &o, zIn);
}

static const char *tt_csv(const char *const *azType, const char *zIn) {
  load_text_opts o = tt_opts(LOAD_CSV);
  return tt_parse(azType, &o, zIn);
}

/* ---- tbl ----------------------------------------------------------------- */

TEST_IMPL(load_tbl_parse) {
  static const char *const azAll[] = {
    "INTEGER!", "VARCHAR(10)", "DATE", "BIGINT", "SMALLINT", "DECIMAL(15,2)",
    "DOUBLE PRECISION", "TEXT", "CHAR(3)", NULL};
  static const char *const azIS[] = {"INTEGER", "VARCHAR(15)", NULL};
  static const char *const azI3[] = {"INTEGER", "INTEGER", "INTEGER", NULL};
  load_text_opts o = tt_opts(LOAD_TBL);

  /* Every type; fields kept exactly, spaces and all. */
  ASSERT_STR_EQ(tt_tbl(azAll,
                       "1|JORDAN   0|19920101|6000000|-32768|12.345|2.5| lead and trail |abc|\n"
                       "-7| |1998-12-31|-9223372036854775808|32767|-0.5|-1e3||   |\n"),
                "1|[JORDAN   0]|19920101|6000000|-32768|1235|2.5|[ lead and trail ]|[abc]\n"
                "-7|[ ]|19981231|-9223372036854775808|32767|-50|-1000|[]|[   ]\n");
  /* CRLF, and a last record without a newline, with either ending. */
  ASSERT_STR_EQ(tt_tbl(azIS, "1|a|\r\n2|b|\r\n"), "1|[a]\n2|[b]\n");
  ASSERT_STR_EQ(tt_tbl(azIS, "1|a|\n2|b|"), "1|[a]\n2|[b]\n");
  ASSERT_STR_EQ(tt_tbl(azIS, "7|x|"), "7|[x]\n");
  ASSERT_STR_EQ(tt_tbl(azIS, "1|a|\r\n7|x|\r"), "1|[a]\n7|[x]\n");
  /* A '\r' that is not part of a line end is data. */
  ASSERT_STR_EQ(tt_tbl(azIS, "1|a\rb|\n"), "1|[a\rb]\n");
  ASSERT_STR_EQ(tt_tbl(azIS, ""), "");
  /* The fast paths hand over whatever they do not take: signs, blanks,
  ** leading zeros, the longest numbers, yyyy-mm-dd, UTF-8. */
  ASSERT_STR_EQ(tt_tbl(azI3, "+5| 6 |007|\n-0|2147483647|-2147483648|\n"
                             "000000000000000000001|-000000000002|0|\n"),
                "5|6|7\n0|2147483647|-2147483648\n1|-2|0\n");
  ASSERT_STR_EQ(tt_tbl(azIS, "1|\xc3\xa9t\xc3\xa9|\n2|\xe2\x82\xac\xe2\x82\xac|\n"),
                "1|[\xc3\xa9t\xc3\xa9]\n2|[\xe2\x82\xac\xe2\x82\xac]\n");
  {
    static const char *const azNum[] = {"SMALLINT", "BIGINT", "DATE", "DATE", NULL};
    ASSERT_STR_EQ(tt_tbl(azNum, "-32768|9223372036854775807|2000-02-29|20000229|\n"
                                "00032767|-09223372036854775808| 19920101 |00010101|\n"),
                  "-32768|9223372036854775807|20000229|20000229\n"
                  "32767|-9223372036854775808|19920101|10101\n");
  }
  /* The same string gets the same code, through the cache or not. */
  {
    static const char *const azS2[] = {"VARCHAR(40)", "TEXT", NULL};
    ASSERT_STR_EQ(tt_tbl(azS2, "AIR|a somewhat longer string than sixteen|\n"
                               "RAIL|a somewhat longer string than sixteen|\n"
                               "AIR|x|\n"
                               "AIR|a somewhat longer string than sixteen|\n"),
                  "[AIR]|[a somewhat longer string than sixteen]\n"
                  "[RAIL]|[a somewhat longer string than sixteen]\n"
                  "[AIR]|[x]\n"
                  "[AIR]|[a somewhat longer string than sixteen]\n");
  }
  /* No NULLs in tbl unless a NULL text is given; then only it is NULL. */
  ASSERT_STR_EQ(tt_tbl(azIS, "1||\n"), "1|[]\n");
  o.zNull = "";
  ASSERT_STR_EQ(tt_parse(azIS, &o, "||\n2|b|\n"), "NULL|NULL\n2|[b]\n");
  o.zNull = "\\N";
  ASSERT_STR_EQ(tt_parse(azIS, &o, "\\N|\\N|\n2||\n\\N|\\Nx|\n"),
                "NULL|NULL\n2|[]\nNULL|[\\Nx]\n");
  o.zNull = "0";
  ASSERT_STR_EQ(tt_parse(azI3, &o, "0|00|1|\n"), "NULL|0|1\n");
  /* Many rows: the batch grows past its first guess. */
  {
    tt_buf in = {NULL, 0, 0}, want = {NULL, 0, 0};
    for (int i = 0; i < 5000; i++) {
      char a[128];
      snprintf(a, sizeof(a), "%d|%s|\n", i * 7 - 9000, i < 100 ? "short" : "x");
      tt_buf_str(&in, a);
      snprintf(a, sizeof(a), "%d|[%s]\n", i * 7 - 9000, i < 100 ? "short" : "x");
      tt_buf_str(&want, a);
    }
    ASSERT_STR_EQ(tt_tbl(azIS, in.z), want.z);
    ASSERT_EQ(tt_nRowLast, 5000);
    free(in.z);
    free(want.z);
  }
  return 0;
}

TEST_IMPL(load_tbl_errors) {
  static const char *const azI3[] = {"INTEGER", "INTEGER", "INTEGER", NULL};
  static const char *const azNN[] = {"INTEGER!", "VARCHAR(3)!", "DATE", NULL};
  static const char *const azS[] = {"CHAR(3)", "INTEGER", NULL};
  const char *zI32 = "a whole number from -2147483648 to 2147483647";
  load_text_opts o = tt_opts(LOAD_TBL);
  char zWant[512];

  /* Shape: field counts, the trailing '|', empty lines. */
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|\n"), "@0 col -1: found \"1|2|\", expected 3 fields, found 2");
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|\n1|2|\n"),
                "@7 col -1: found \"1|2|\", expected 3 fields, found 2");
  ASSERT_EQ(tt_nRowLast, 1);
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|4|\n"),
                "@0 col -1: found \"1|2|3|4|\", expected 3 fields, found 4");
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|4\n"),
                "@0 col -1: found \"1|2|3|4\", expected 3 fields, found 4");
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3\n"),
                "@0 col -1: found \"1|2|3\", expected a '|' after the last field");
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3\r\n"),
                "@0 col -1: found \"1|2|3\", expected a '|' after the last field");
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|\n4|5|6"),
                "@7 col -1: found \"4|5|6\", expected a '|' after the last field");
  ASSERT_EQ(tt_nRowLast, 1);
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|\n\n4|5|6|\n"),
                "@7 col -1: found \"\", expected a record of 3 fields, not an empty line");
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|\r\n\r\n"),
                "@8 col -1: found \"\", expected a record of 3 fields, not an empty line");
  ASSERT_STR_EQ(tt_tbl(azI3, "\n"),
                "@0 col -1: found \"\", expected a record of 3 fields, not an empty line");
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|\rx\n"),
                "@0 col -1: found \"1|2|3|\\rx\", expected 3 fields, found 4");

  /* A field: its offset, column and text. */
  snprintf(zWant, sizeof(zWant), "@2 col 1: found \"x\", expected %s", zI32);
  ASSERT_STR_EQ(tt_tbl(azI3, "1|x|3|\n"), zWant);
  snprintf(zWant, sizeof(zWant), "@12 col 2: found \"2147483648\", expected %s", zI32);
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|\n4|-5|2147483648|\n"), zWant);
  ASSERT_EQ(tt_nRowLast, 1);
  snprintf(zWant, sizeof(zWant), "@0 col 0: found \"\", expected %s", zI32);
  ASSERT_STR_EQ(tt_tbl(azI3, "||3|\n"), zWant);
  snprintf(zWant, sizeof(zWant), "@11 col 2: found \" 1 2\", expected %s", zI32);
  ASSERT_STR_EQ(tt_tbl(azI3, "1|2|3|\n4|5| 1 2|"), zWant);   /* from the tail copy */
  /* The record's shape is reported before a bad field in it. */
  ASSERT_STR_EQ(tt_tbl(azI3, "1|x|\n"), "@0 col -1: found \"1|x|\", expected 3 fields, found 2");
  ASSERT_STR_EQ(tt_tbl(azI3, "x|2|3|4|\n"),
                "@0 col -1: found \"x|2|3|4|\", expected 3 fields, found 4");
  /* Types, lengths and UTF-8 through the parser. */
  ASSERT_STR_EQ(tt_tbl(azNN, "1|abc|19930229|\n"),
                "@6 col 2: found \"19930229\", expected a day from 01 to 28 in 1993-02");
  ASSERT_STR_EQ(tt_tbl(azNN, "1|abc|1993-13-01|\n"),
                "@6 col 2: found \"1993-13-01\", expected a month from 01 to 12");
  ASSERT_STR_EQ(tt_tbl(azNN, "1|abcd|19930101|\n"),
                "@2 col 1: found \"abcd\", expected at most 3 characters, found 4");
  ASSERT_STR_EQ(tt_tbl(azS, "ab\xff|1|\n"),
                "@0 col 0: found \"ab\\xff\", expected valid UTF-8 (byte 3, 0xff, is not)");
  ASSERT_STR_EQ(tt_tbl(azS, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9|1|\n"),
                "@0 col 0: found \"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\", expected at most 3 "
                "characters, found 4");
  ASSERT_STR_EQ(tt_parse_n(azS, &o, "a\0b|1|\n", 7, 1),
                "@0 col 0: found \"a\\x00b\", expected text without NUL bytes (byte 2 is 0x00)");
  /* NOT NULL. */
  o.zNull = "";
  ASSERT_STR_EQ(tt_parse(azNN, &o, "1|abc||\n2||19920101|\n"),
                "@10 col 1: found \"\", expected a value (the column is NOT NULL)");
  ASSERT_EQ(tt_nRowLast, 1);
  o.zNull = "\\N";
  ASSERT_STR_EQ(tt_parse(azNN, &o, "\\N|abc|\\N|\n"),
                "@0 col 0: found \"\\\\N\", expected a value (the column is NOT NULL)");
  ASSERT_STR_EQ(tt_parse(azNN, &o, "1|abc|\\N|\n"), "1|[abc]|NULL\n");
  /* After a failed record the batch stays usable: its NULL marks are gone. */
  {
    tt_table tt;
    load_batch b;
    load_text_error e;
    static const char zBad[] = "5|abc|\\N|\n6|xyz|\\N|\n7|q|x|\n";
    static const char zGood[] = "8|def|19920101|\n";
    tt_init(&tt, azNN);
    ASSERT_EQ(load_batch_init(&b, &tt.t, 0), 0);
    ASSERT_EQ(load_text_parse(zBad, 0, strlen(zBad), &o, &tt.t, &b, &e), -1);
    ASSERT_EQ(b.nRow, 2);
    ASSERT_EQ(e.iOffset, 24);
    ASSERT_EQ(e.iCol, 2);
    ASSERT_EQ(load_text_parse(zGood, 0, strlen(zGood), &o, &tt.t, &b, &e), 0);
    ASSERT_EQ(b.nRow, 3);
    ASSERT(b.aCol[2].aValid != NULL);
    ASSERT_EQ(b.aCol[2].aValid[0] & 7, 4);     /* rows 0, 1 NULL; row 2 present */
    ASSERT_EQ(((int32_t *)b.aCol[2].aValue)[2], 19920101);
    load_batch_free(&b);
  }
  return 0;
}

/* ---- csv ----------------------------------------------------------------- */

TEST_IMPL(load_csv_parse) {
  static const char *const az4[] = {"INTEGER", "VARCHAR(20)", "TEXT", "INTEGER", NULL};
  static const char *const azSS[] = {"TEXT", "TEXT", NULL};
  static const char *const azIS[] = {"INTEGER", "TEXT", NULL};
  load_text_opts o = tt_opts(LOAD_CSV);

  ASSERT_STR_EQ(tt_csv(az4, "1,\"a,b\",\"say \"\"hi\"\"\",\n"),
                "1|[a,b]|[say \"hi\"]|NULL\n");
  ASSERT_STR_EQ(tt_csv(az4, "\"1\",plain,\"\"\"\",\" 2 \"\n"), "1|[plain]|[\"]|2\n");
  /* Quoted newlines, CRLF inside and outside quotes, no final newline. */
  ASSERT_STR_EQ(tt_csv(azIS, "1,\"line1\nline2\"\n2,x\n"), "1|[line1\nline2]\n2|[x]\n");
  ASSERT_STR_EQ(tt_csv(azIS, "1,a\r\n2,\"b\"\r\n3,\"c\r\nd\"\r\n"),
                "1|[a]\n2|[b]\n3|[c\r\nd]\n");
  ASSERT_STR_EQ(tt_csv(azIS, "1,\"x\""), "1|[x]\n");
  ASSERT_STR_EQ(tt_csv(azIS, "1,x"), "1|[x]\n");
  ASSERT_STR_EQ(tt_csv(azIS, "1,"), "1|NULL\n");
  ASSERT_STR_EQ(tt_csv(azIS, "1,\"\""), "1|[]\n");
  ASSERT_STR_EQ(tt_csv(azIS, ""), "");
  /* NULL is the unquoted empty field; "" is an empty string. Never trimmed. */
  ASSERT_STR_EQ(tt_csv(azSS, ",\"\"\n\"\",\n a , \" b \" \n"),
                "NULL|[]\n[]|NULL\n[ a ]|[  b  ]\n");
  /* As COPY: a quote inside an unquoted field opens a quoted section. */
  ASSERT_STR_EQ(tt_csv(azSS, "ab\"c,d\"e,\"x\"y\"z\"\n"), "[abc,de]|[xyz]\n");
  ASSERT_STR_EQ(tt_csv(azSS, "\"a\"\"\"\"b\",\"\"\"\"\"\"\n"), "[a\"\"b]|[\"\"]\n");
  ASSERT_STR_EQ(tt_csv(azSS, "\"a\"\r,b\n"), "[a\r]|[b]\n");
  /* zNull makes another text NULL, and the empty field a string. */
  o.zNull = "\\N";
  ASSERT_STR_EQ(tt_parse(azSS, &o, "\\N,\n\"\\N\",\\Nx\n"), "NULL|[]\n[\\N]|[\\Nx]\n");
  o.zNull = "NA";
  ASSERT_STR_EQ(tt_parse(azIS, &o, "NA,NA\n\"NA\",\"NA\"\n"), "@6 col 0: found \"NA\", "
                "expected a whole number from -2147483648 to 2147483647");
  ASSERT_STR_EQ(tt_parse(azIS, &o, "NA,NA\n1,\"NA\"\n"), "NULL|NULL\n1|[NA]\n");
  /* Another delimiter and quote. */
  o = tt_opts(LOAD_CSV);
  o.cDelim = ';';
  o.cQuote = '\'';
  ASSERT_STR_EQ(tt_parse(azIS, &o, "1;'a;b''c'\n2;\"q,\"\n3;\n"),
                "1|[a;b'c]\n2|[\"q,\"]\n3|NULL\n");
  o.cDelim = '\t';
  ASSERT_STR_EQ(tt_parse(azIS, &o, "1\ta b\n"), "1|[a b]\n");
  /* A header, itself with a quoted newline, is skipped. */
  o = tt_opts(LOAD_CSV);
  o.bHeader = 1;
  ASSERT_STR_EQ(tt_parse(azIS, &o, "\"id\nx\",name\n1,a\n2,b\n"), "1|[a]\n2|[b]\n");
  ASSERT_STR_EQ(tt_parse(azIS, &o, "id,name\n"), "");
  ASSERT_STR_EQ(tt_parse(azIS, &o, "id,name"), "");
  ASSERT_STR_EQ(tt_parse(azIS, &o, "id,name\r\n1,a\r\n"), "1|[a]\n");
  /* Every type through csv. */
  {
    static const char *const azAll[] = {"SMALLINT", "BIGINT", "DECIMAL(10,2)",
                                        "DOUBLE PRECISION", "DATE", "CHAR(2)", NULL};
    ASSERT_STR_EQ(tt_csv(azAll, "\"-5\",\"123456789012\",\"-1.234\",\"1e3\",\"2000-02-29\",\"ab\"\n"
                                ",,,,,\n"),
                  "-5|123456789012|-123|1000|20000229|[ab]\nNULL|NULL|NULL|NULL|NULL|NULL\n");
  }
  return 0;
}

TEST_IMPL(load_csv_errors) {
  static const char *const azII[] = {"INTEGER", "INTEGER", NULL};
  static const char *const azNS[] = {"INTEGER!", "VARCHAR(3)", NULL};
  const char *zI32 = "a whole number from -2147483648 to 2147483647";
  load_text_opts o = tt_opts(LOAD_CSV);
  char zWant[512];

  ASSERT_STR_EQ(tt_csv(azII, "1,2,3\n"), "@0 col -1: found \"1,2,3\", expected 2 fields, found 3");
  ASSERT_STR_EQ(tt_csv(azII, "1,2\n3\n"), "@4 col -1: found \"3\", expected 2 fields, found 1");
  ASSERT_EQ(tt_nRowLast, 1);
  ASSERT_STR_EQ(tt_csv(azII, "1,2\n3,4,\n"),
                "@4 col -1: found \"3,4,\", expected 2 fields, found 3");
  ASSERT_STR_EQ(tt_csv(azII, "1,\"2\n,\",3\r\n"),
                "@0 col -1: found \"1,\\\"2\", expected 2 fields, found 3");
  ASSERT_STR_EQ(tt_csv(azII, "1,2\n\n3,4\n"),
                "@4 col -1: found \"\", expected a record of 2 fields, not an empty line");
  ASSERT_STR_EQ(tt_csv(azII, "1,2\r\n\r\n"),
                "@5 col -1: found \"\", expected a record of 2 fields, not an empty line");
  /* A field: offset of its first byte (the quote, if quoted), its value. */
  snprintf(zWant, sizeof(zWant), "@6 col 1: found \"x\", expected %s", zI32);
  ASSERT_STR_EQ(tt_csv(azII, "1,2\n3,x\n"), zWant);
  snprintf(zWant, sizeof(zWant), "@4 col 0: found \"1x\\\"\", expected %s", zI32);
  ASSERT_STR_EQ(tt_csv(azII, "1,2\n\"1x\"\"\",4\n"), zWant);
  snprintf(zWant, sizeof(zWant), "@2 col 1: found \"\", expected %s", zI32);
  ASSERT_STR_EQ(tt_csv(azII, "1,\"\"\n"), zWant);
  /* The record's field count comes before its fields' complaints. */
  ASSERT_STR_EQ(tt_csv(azII, "x,y,z\n"), "@0 col -1: found \"x,y,z\", expected 2 fields, found 3");
  /* Unterminated quotes: split finds them (no column known there) ... */
  ASSERT_STR_EQ(tt_csv(azII, "1,2\n3,\"4\n5,6\n"),
                "@6 col -1: found \"\\\"4\\n5,6\\n\", expected a closing \" before the end of "
                "the input");
  ASSERT_STR_EQ(tt_parse_n(azII, &o, "1,2\n\"3,4", 8, 1),
                "@4 col -1: found \"\\\"3,4\", expected a closing \" before the end of the input");
  /* ... and so does the parse, which knows the column. */
  {
    static const char zIn[] = "1,2\n3,\"4\n5,6\n";
    tt_table tt;
    load_batch b;
    load_text_error e;
    tt_init(&tt, azII);
    ASSERT_EQ(load_batch_init(&b, &tt.t, 0), 0);
    ASSERT_EQ(load_text_parse(zIn, 0, strlen(zIn), &o, &tt.t, &b, &e), -1);
    ASSERT_EQ(e.iOffset, 6);
    ASSERT_EQ(e.iCol, 1);
    ASSERT_STR_EQ(e.zFound, "\\\"4\\n5,6\\n");
    ASSERT_STR_EQ(e.zExpected, "a closing \" before the end of the input");
    ASSERT_EQ(b.nRow, 1);
    ASSERT_EQ(load_text_parse(zIn, 4, strlen(zIn), &o, &tt.t, &b, &e), -1);
    ASSERT_EQ(e.iOffset, 6);
    ASSERT_EQ(load_text_parse("1,2,\"x", 0, 6, &o, &tt.t, &b, &e), -1);
    ASSERT_EQ(e.iOffset, 4);
    ASSERT_EQ(e.iCol, -1);
    load_batch_free(&b);
  }
  /* Through split, with the parse never reached. */
  ASSERT_STR_EQ(tt_parse_n(azII, &o, "1,2\n3,\"4\"\"\n", 11, 4),
                "@6 col -1: found \"\\\"4\\\"\\\"\\n\", expected a closing \" before the end of "
                "the input");
  ASSERT_STR_EQ(tt_parse_n(azII, &o, "1,2\n3,\"4\",\"\n", 12, 1),
                "@10 col -1: found \"\\\"\\n\", expected a closing \" before the end of the input");
  /* NOT NULL; strings. */
  ASSERT_STR_EQ(tt_csv(azNS, "1,\n,abc\n"),
                "@3 col 0: found \"\", expected a value (the column is NOT NULL)");
  ASSERT_STR_EQ(tt_csv(azNS, "1,\"ab\nc\"\n"),
                "@2 col 1: found \"ab\\nc\", expected at most 3 characters, found 4");
  ASSERT_STR_EQ(tt_csv(azNS, "1,\"\xe2\x82\"\n"),
                "@2 col 1: found \"\\xe2\\x82\", expected valid UTF-8 (byte 1, 0xe2, is not)");
  return 0;
}

/* ---- splitting ----------------------------------------------------------- */

/* Checks that aBound[0..nPiece] covers z[0..n) (after a header ending at
** iStart) in order, cutting only at starts of lines. */
static void tt_bounds_check(const char *z, size_t n, size_t iStart, int nPiece,
                            const size_t *aBound) {
  ASSERT_EQ(aBound[0], iStart);
  ASSERT_EQ(aBound[nPiece], n);
  for (int i = 1; i < nPiece; i++) {
    ASSERT_LE(aBound[i - 1], aBound[i]);
    ASSERT(aBound[i] == iStart || aBound[i] == n || z[aBound[i] - 1] == '\n');
  }
}

TEST_IMPL(load_split_tbl) {
  static const char *const azIS[] = {"INTEGER", "VARCHAR(30)", NULL};
  load_text_opts o = tt_opts(LOAD_TBL);
  load_text_error e;
  tt_buf in = {NULL, 0, 0};
  size_t aBound[17];
  char *zWhole;

  for (int i = 0; i < 300; i++) {
    char a[64];
    snprintf(a, sizeof(a), "%d|%.*s|%s", i, i % 23, "abcdefghijklmnopqrstuvwxyz",
             i % 5 == 0 ? "\r\n" : "\n");
    tt_buf_str(&in, a);
  }
  zWhole = strdup(tt_parse_n(azIS, &o, in.z, in.n, 1));
  ASSERT_EQ(tt_nRowLast, 300);
  for (int nPiece = 1; nPiece <= 16; nPiece++) {
    ASSERT_EQ(load_text_split(in.z, in.n, &o, nPiece, aBound, &e), 0);
    tt_bounds_check(in.z, in.n, 0, nPiece, aBound);
    /* Pieces are near even: none more than a line past its share. */
    for (int i = 1; i < nPiece; i++) {
      size_t iTarget = in.n * (size_t)i / (size_t)nPiece;
      ASSERT_GE(aBound[i], iTarget);
      ASSERT_LE(aBound[i], iTarget + 40);
    }
    ASSERT_STR_EQ(tt_parse_n(azIS, &o, in.z, in.n, nPiece), zWhole);
  }
  /* Without a final newline, and with more pieces than records. */
  ASSERT_EQ(load_text_split("1|a|\n2|b|", 9, &o, 8, aBound, &e), 0);
  tt_bounds_check("1|a|\n2|b|", 9, 0, 8, aBound);
  ASSERT_STR_EQ(tt_parse_n(azIS, &o, "1|a|\n2|b|", 9, 8), "1|[a]\n2|[b]\n");
  /* Empty input: every piece empty. */
  ASSERT_EQ(load_text_split("", 0, &o, 4, aBound, &e), 0);
  for (int i = 0; i <= 4; i++) ASSERT_EQ(aBound[i], 0);
  /* A header is a csv thing: tbl ignores bHeader. */
  o.bHeader = 1;
  ASSERT_EQ(load_text_split("1|a|\n", 5, &o, 1, aBound, &e), 0);
  ASSERT_EQ(aBound[0], 0);
  /* Nonsense piece counts. */
  memset(&e, 0, sizeof(e));
  ASSERT_EQ(load_text_split("1|a|\n", 5, &o, 0, aBound, &e), -1);
  ASSERT_EQ(e.iCol, -1);
  ASSERT_STR_EQ(e.zExpected, "at least one piece (asked for 0)");
  free(zWhole);
  free(in.z);
  return 0;
}

TEST_IMPL(load_split_csv) {
  static const char *const azCsv[] = {"INTEGER", "TEXT", "VARCHAR(40)", NULL};
  load_text_opts o = tt_opts(LOAD_CSV);
  load_text_error e;
  tt_buf in = {NULL, 0, 0};
  size_t aBound[17];
  char *zWhole;
  size_t iHeaderEnd;

  /* A header with a quoted newline, then records whose quoted fields
  ** hold newlines, delimiters and "" in many places: a cut by newline
  ** alone would land inside quotes almost everywhere. */
  tt_buf_str(&in, "\"id\n\",\"text\"\"\n\",third\n");
  iHeaderEnd = in.n;
  for (int i = 0; i < 400; i++) {
    char a[160];
    switch (i % 4) {
      case 0: snprintf(a, sizeof(a), "%d,\"a\nb\n%d\n\",plain\n", i, i); break;
      case 1: snprintf(a, sizeof(a), "%d,\"\n\"\"\n,\n\",\"\"\r\n", i); break;
      case 2: snprintf(a, sizeof(a), "%d,,\"x\n\n\ny\"\n", i); break;
      default: snprintf(a, sizeof(a), "%d,\"%d\n\",\"\n\n\n\n\n\n\n\n\"\n", i, i); break;
    }
    tt_buf_str(&in, a);
  }
  o.bHeader = 1;
  zWhole = strdup(tt_parse_n(azCsv, &o, in.z, in.n, 1));
  ASSERT_EQ(tt_nRowLast, 400);
  ASSERT(strncmp(zWhole, "0|[a\nb\n0\n]|[plain]\n1|[\n\"\n,\n]|[]\n2|NULL|[x\n\n\ny]\n", 47) == 0);
  for (int nPiece = 1; nPiece <= 16; nPiece++) {
    ASSERT_EQ(load_text_split(in.z, in.n, &o, nPiece, aBound, &e), 0);
    tt_bounds_check(in.z, in.n, iHeaderEnd, nPiece, aBound);
    for (int i = 1; i < nPiece; i++) {
      /* Every cut follows an even number of quotes, and a record's
      ** number starts there. */
      size_t nQuote = 0;
      for (size_t j = 0; j < aBound[i]; j++) nQuote += in.z[j] == '"';
      ASSERT_EQ(nQuote % 2, 0);
      ASSERT(aBound[i] == in.n || (in.z[aBound[i]] >= '0' && in.z[aBound[i]] <= '9'));
    }
    ASSERT_STR_EQ(tt_parse_n(azCsv, &o, in.z, in.n, nPiece), zWhole);
  }
  /* Without a header the header is a record (and a bad one here). */
  o.bHeader = 0;
  ASSERT_EQ(load_text_split(in.z, in.n, &o, 3, aBound, &e), 0);
  ASSERT_EQ(aBound[0], 0);
  ASSERT(strncmp(tt_parse_n(azCsv, &o, in.z, in.n, 3), "@0 col 0: found \"id\\n\"", 22) == 0);
  /* A quote open at the end, wherever the cuts fall. */
  for (int nPiece = 1; nPiece <= 8; nPiece++) {
    static const char zBad[] = "1,\"a\nb\",c\n2,\"d\n3,e,f\n4,g,h\n";
    memset(&e, 0, sizeof(e));
    ASSERT_EQ(load_text_split(zBad, strlen(zBad), &o, nPiece, aBound, &e), -1);
    ASSERT_EQ(e.iOffset, 12);
    ASSERT_EQ(e.iCol, -1);
    ASSERT_STR_EQ(e.zFound, "\\\"d\\n3,e,f\\n4,g,h\\n");
    ASSERT_STR_EQ(e.zExpected, "a closing \" before the end of the input");
  }
  /* Header only, empty input, header without a newline. */
  o.bHeader = 1;
  ASSERT_EQ(load_text_split("a,b\n", 4, &o, 3, aBound, &e), 0);
  ASSERT(aBound[0] == 4 && aBound[1] == 4 && aBound[2] == 4 && aBound[3] == 4);
  ASSERT_EQ(load_text_split("a,b", 3, &o, 2, aBound, &e), 0);
  ASSERT(aBound[0] == 3 && aBound[1] == 3 && aBound[2] == 3);
  ASSERT_EQ(load_text_split("", 0, &o, 2, aBound, &e), 0);
  ASSERT(aBound[0] == 0 && aBound[1] == 0 && aBound[2] == 0);
  free(zWhole);
  free(in.z);
  return 0;
}

/* ---- error texts --------------------------------------------------------- */

TEST_IMPL(load_error_text) {
  static const char *const azI[] = {"INTEGER", NULL};
  static const char *const azT[] = {"VARCHAR(2)", NULL};
  load_text_opts o = tt_opts(LOAD_TBL);
  tt_table tt;
  load_batch b;
  load_text_error e;
  char zIn[600];
  size_t n;

  /* Control bytes, quotes and backslashes escaped; UTF-8 kept. */
  ASSERT_STR_EQ(tt_tbl(azI, "a\tb\x01\"\\\xc3\xa9\x7f|\n"),
                "@0 col 0: found \"a\\tb\\x01\\\"\\\\\xc3\xa9\\x7f\", expected a whole number "
                "from -2147483648 to 2147483647");
  /* A long field is cut to fit, with "..." at the end. */
  tt_init(&tt, azI);
  memset(zIn, 'x', 300);
  memcpy(zIn + 300, "|\n", 2);
  ASSERT_EQ(load_batch_init(&b, &tt.t, 0), 0);
  ASSERT_EQ(load_text_parse(zIn, 0, 302, &o, &tt.t, &b, &e), -1);
  n = strlen(e.zFound);
  ASSERT_EQ(n, sizeof(e.zFound) - 1);
  ASSERT_STR_EQ(e.zFound + n - 3, "...");
  ASSERT_EQ(strspn(e.zFound, "x"), n - 3);
  /* Cut between escapes and characters, never through one. */
  for (int i = 0; i < 300; i += 3) memcpy(zIn + i, "\xe2\x82\xac", 3);
  ASSERT_EQ(load_text_parse(zIn, 0, 302, &o, &tt.t, &b, &e), -1);
  n = strlen(e.zFound);
  ASSERT_LE(n, sizeof(e.zFound) - 1);
  ASSERT_GE(n, sizeof(e.zFound) - 6);
  ASSERT_EQ((n - 3) % 3, 0);
  ASSERT_STR_EQ(e.zFound + n - 3, "...");
  for (int i = 0; i < 300; i++) zIn[i] = (char)1;
  ASSERT_EQ(load_text_parse(zIn, 0, 302, &o, &tt.t, &b, &e), -1);
  n = strlen(e.zFound);
  ASSERT_EQ((n - 3) % 4, 0);
  ASSERT(strncmp(e.zFound, "\\x01\\x01", 8) == 0);
  /* Exactly full fits whole, without "...". */
  memset(zIn, 'y', 127);
  memcpy(zIn + 127, "|\n", 2);
  ASSERT_EQ(load_text_parse(zIn, 0, 129, &o, &tt.t, &b, &e), -1);
  ASSERT_EQ(strlen(e.zFound), 127);
  ASSERT_EQ(strspn(e.zFound, "y"), 127);
  memset(zIn, 'y', 128);
  memcpy(zIn + 128, "|\n", 2);
  ASSERT_EQ(load_text_parse(zIn, 0, 130, &o, &tt.t, &b, &e), -1);
  ASSERT_EQ(strlen(e.zFound), 127);
  ASSERT_STR_EQ(e.zFound + 124, "...");
  load_batch_free(&b);
  /* Invalid UTF-8 shows as escapes, valid as itself. */
  ASSERT_STR_EQ(tt_tbl(azT, "\xe2\x82\xac\xff|\n"),
                "@0 col 0: found \"\xe2\x82\xac\\xff\", expected valid UTF-8 (byte 4, 0xff, is not)");
  /* A batch that does not match the table is the caller's mistake. */
  {
    static const char *const azII[] = {"INTEGER", "INTEGER", NULL};
    tt_table tt2;
    tt_init(&tt2, azII);
    ASSERT_EQ(load_batch_init(&b, &tt.t, 0), 0);
    ASSERT_EQ(load_text_parse("1|2|\n", 0, 5, &o, &tt2.t, &b, &e), -1);
    ASSERT_STR_EQ(e.zExpected, "a batch set up for the table's 2 columns (it has 1)");
    o = tt_opts(LOAD_CSV);
    o.cQuote = ',';
    ASSERT_EQ(load_text_parse("1\n", 0, 2, &o, &tt.t, &b, &e), -1);
    ASSERT_STR_EQ(e.zExpected,
                  "a csv delimiter and quote that differ and are not NUL or line ends");
    load_batch_free(&b);
  }
  free(tt_zLast);
  tt_zLast = NULL;
  return 0;
}
