/*
** tests/test-starq-bench.c — starq-bench end to end against a real starqd
** on SSB SF 0.01: its flags, its three formats and the chart, --verify
** against SQLite's answers (and failing on a planted wrong one), the
** concurrent mix. Row counts are checked against the in-process executor,
** answers against SQLite (tests/refdb.h), never against typed-in numbers.
**
** The expected answers shipped in clients/bench/expected/ssb-sf0.01 must
** be SQLite's answers on today's generator: bench_verify_sqlite checks
** that, and with STARQ_BENCH_EXPECTED_WRITE=1 in the environment writes
** them there instead (after a change to the generator or the queries).
*/
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/jsonread.h"
#include "refdb.h"
#include "starqd-fixture.h"
#include "test.h"
#include "xmlcheck.h"

static const char *const sb_azSsb[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                       "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
#define SB_NSSB 13
#define SB_EXPECTED "clients/bench/expected/ssb-sf0.01"

/* Reads SSB query zName's SQL (malloc'd). */
static char *sb_sql(const char *zName) {
  char zRel[64];
  size_t n;
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  return test_file_read(test_src(zRel), &n);
}

/* Returns how many rows the in-process executor gives for SSB query zName. */
static int sb_expected_rows(const char *zName) {
  char *zSql = sb_sql(zName), *zRows;
  size_t n = strlen(zSql);
  unsigned *aType;
  int nCol, nRow = 0;
  while (n > 0 && (zSql[n - 1] == '\n' || zSql[n - 1] == ';' || zSql[n - 1] == ' ')) zSql[--n] = 0;
  zRows = starqd_expected("data", zSql, &aType, &nCol);
  for (const char *z = zRows; *z; z++) nRow += *z == '\n';
  free(zRows);
  free(aType);
  free(zSql);
  return nRow;
}

/* Runs starq-bench against d with the flags azArg (NULL-terminated) and
** the SSB queries appended. Returns the exit code; *p holds the output. */
static int sb_bench(test_proc *p, const starqd_proc *d, const char *const *azArg) {
  const char *argv[40];
  char zPort[16];
  int n = 0;
  snprintf(zPort, sizeof(zPort), "%d", d->iPort);
  argv[n++] = "starq-bench";
  argv[n++] = "-h";
  argv[n++] = "127.0.0.1";
  argv[n++] = "-p";
  argv[n++] = zPort;
  for (int i = 0; azArg[i] != NULL && n < 37; i++) argv[n++] = azArg[i];
  argv[n++] = test_src("ssb-data/queries");
  argv[n] = NULL;
  return test_run(p, argv);
}

/* Parses JSON text (the caller frees the tree). */
static json_value *sb_json(const char *z) {
  json_value *p;
  char zErr[256];
  if (json_parse(z, strlen(z), &p, zErr, sizeof(zErr)) != 0) FAIL("not JSON: %s\n%s", zErr, z);
  return p;
}

/* Returns the number of characters (not bytes) of the UTF-8 line z..zEnd. */
static int sb_width(const char *z, const char *zEnd) {
  int n = 0;
  for (; z < zEnd; z++) n += ((unsigned char)*z & 0xc0) != 0x80;
  return n;
}

TEST_IMPL(bench_flags) {
  static const char *const aBad[][6] = {
      {"--reps", "0", NULL},         {"--bogus", NULL},
      {"--format", "xml", NULL},     {"--duration", "5", NULL},
      {"--clients", "2", "--svg", "x.svg", NULL},
      {"--reps", NULL},              {"-p", "0", NULL},
      {"--warmup", "1x", NULL},      {"nosuch.sql", NULL},
      {"empty", NULL},               {"--clients", "0", NULL},
      {"--seed", "-1", NULL},
  };
  static const char *const azWhy[] = {
      "--reps: expected an integer from 1 to 1000000, not \"0\"", "unknown flag \"--bogus\"",
      "--format: expected table, csv or json, not \"xml\"",       "--duration needs --clients",
      "--svg charts the single-client run",                       "--reps needs a value",
      "--port: expected an integer from 1 to 65535",              "--warmup: expected an integer",
      "cannot open nosuch.sql: No such file or directory",        "empty holds no .sql files",
      "--clients: expected an integer from 1 to 1024",            "--seed: expected an integer",
  };
  test_proc p;
  ASSERT_EQ(mkdir("empty", 0755), 0);
  for (size_t i = 0; i < sizeof(aBad) / sizeof(aBad[0]); i++) {
    const char *argv[8] = {"starq-bench"};
    for (int k = 0; aBad[i][k] != NULL; k++) argv[k + 1] = aBad[i][k];
    ASSERT_EQ(test_run(&p, argv), 1);
    if (strstr(p.zErr, azWhy[i]) == NULL) FAIL("case %zu said:\n%s", i, p.zErr);
    test_proc_free(&p);
  }
  /* No queries named and none beside the program or here. */
  {
    const char *argv[] = {"starq-bench", NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    if (strstr(p.zErr, "no queries given") == NULL) FAIL("said:\n%s", p.zErr);
    test_proc_free(&p);
  }
  /* A missing answer file stops the run before it connects. */
  {
    const char *argv[] = {"starq-bench", "-p", "1", "--verify", "empty", test_src("ssb-data/queries"), NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    if (strstr(p.zErr, "q1.1: no expected answer") == NULL) FAIL("said:\n%s", p.zErr);
    test_proc_free(&p);
  }
  {
    const char *argv[] = {"starq-bench", "--help", NULL};
    ASSERT_EQ(test_run(&p, argv), 0);
    ASSERT(strstr(p.zOut, "--write-expected DIR") != NULL && strstr(p.zOut, "--clients C") != NULL);
    test_proc_free(&p);
  }
  /* Nothing listening: exit 2. The port was free a moment ago. */
  {
    struct sockaddr_in a;
    socklen_t n = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    char zPort[16];
    const char *argv[] = {"starq-bench", "-p", zPort, test_src("ssb-data/queries"), NULL};
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT(fd >= 0);
    ASSERT_EQ(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    ASSERT_EQ(getsockname(fd, (struct sockaddr *)&a, &n), 0);
    snprintf(zPort, sizeof(zPort), "%d", ntohs(a.sin_port));
    close(fd);
    ASSERT_EQ(test_run(&p, argv), 2);
    if (strstr(p.zErr, "cannot connect") == NULL) FAIL("said:\n%s", p.zErr);
    test_proc_free(&p);
  }
  return 0;
}

/* Checks the single-client JSON report: every query, its rows as the
** executor gives them, and the server's figures: its own time within the
** client's, the fact bytes within the bytes scanned, and the floors only
** where the backend measured a bandwidth (not on the CPU). */
static void sb_check_json(const char *zOut, const int *anRow) {
  json_value *pJ = sb_json(zOut);
  const json_value *aQ = json_get(pJ, "queries"), *pSrv = json_get(pJ, "server");
  int nTotal = 0, bCpu;
  ASSERT(aQ != NULL && aQ->eKind == JSON_ARRAY);
  ASSERT_EQ(aQ->n, SB_NSSB);
  ASSERT_STR_EQ(json_str(json_get(pJ, "mode"), ""), "single");
  ASSERT_STR_EQ(json_str(&json_get(pJ, "session")->a[0], ""), "SET starq.resident = off");
  ASSERT(json_bool_get(json_get(pSrv, "figures"), 0));
  ASSERT_STR_EQ(json_str(json_get(pSrv, "backend"), ""), starqd_backend());
  bCpu = strcmp(starqd_backend(), "cpu") == 0;
  for (int i = 0; i < SB_NSSB; i++) {
    const json_value *q = &aQ->a[i], *pClient = json_get(q, "client_seconds");
    double rServer = json_num(json_get(q, "server_seconds"), -1);
    double rFact = json_num(json_get(q, "fact_bytes"), -1);
    ASSERT_STR_EQ(json_str(json_get(q, "name"), ""), sb_azSsb[i]);
    ASSERT_STR_EQ(json_str(json_get(q, "status"), ""), "ok");
    ASSERT_EQ(json_num(json_get(q, "rows"), -1), anRow[i]);
    ASSERT(json_num(json_get(pClient, "min"), -1) > 0);
    ASSERT(json_num(json_get(pClient, "min"), 0) <= json_num(json_get(pClient, "max"), -1));
    ASSERT(rServer > 0 && rServer <= json_num(json_get(pClient, "max"), 0));
    ASSERT(rFact > 0 && rFact <= json_num(json_get(q, "bytes_scanned"), -1));
    if (bCpu) {
      ASSERT(json_get(q, "pcie_ratio")->eKind == JSON_NULL);
    } else {
      double rBw = json_num(json_get(pSrv, "zero_copy_bytes_per_second"), 0);
      double rRatio = json_num(json_get(q, "pcie_ratio"), 0), rWant = rServer / (rFact / rBw);
      ASSERT(rBw > 0 && fabs(rRatio - rWant) <= 1e-9 * rWant);
    }
    nTotal += anRow[i];
  }
  ASSERT_EQ(json_num(json_get(json_get(pJ, "total"), "rows"), -1), nTotal);
  json_value_free(pJ);
}

TEST_IMPL(bench_ssb_formats) {
  starqd_proc d;
  test_proc p;
  int anRow[SB_NSSB], nTotal = 0;
  starqd_data("data");
  starqd_start(&d, "data", NULL);
  for (int i = 0; i < SB_NSSB; i++) nTotal += anRow[i] = sb_expected_rows(sb_azSsb[i]);

  /* CSV: one line per query, its rows the executor's. */
  {
    const char *azArg[] = {"--reps", "2", "--format", "csv", "-q", NULL};
    const char *z;
    char zLine[64];
    if (sb_bench(&p, &d, azArg) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
    ASSERT(strncmp(p.zOut, "query,status,rows,", 18) == 0);
    ASSERT(strstr(p.zErr, "done") == NULL);   /* -q: no progress */
    for (int i = 0; i < SB_NSSB; i++) {
      snprintf(zLine, sizeof(zLine), "\n%s,ok,%d,", sb_azSsb[i], anRow[i]);
      if (strstr(p.zOut, zLine) == NULL) FAIL("no line %s in:\n%s", zLine + 1, p.zOut);
    }
    snprintf(zLine, sizeof(zLine), "\ntotal,ok,%d,", nTotal);
    ASSERT((z = strstr(p.zOut, zLine)) != NULL);
    test_proc_free(&p);
  }
  /* JSON, with a session setting, and the chart. */
  {
    const char *azArg[] = {"--warmup", "0", "--reps", "1", "--format", "json", "--svg", "chart.svg",
                           "--session", "SET starq.resident = off", NULL};
    size_t n;
    char *z, zErr[256];
    if (sb_bench(&p, &d, azArg) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
    sb_check_json(p.zOut, anRow);
    /* Not -q and not a terminal: one line per query. */
    ASSERT(strstr(p.zErr, "q4.3 done: 1 reps") != NULL);
    test_proc_free(&p);
    z = test_file_read("chart.svg", &n);
    CALL_OK(xmlcheck(z, n, zErr, sizeof(zErr)));
    for (int i = 0; i < SB_NSSB; i++) {
      char zLabel[64];
      snprintf(zLabel, sizeof(zLabel), "font-size=\"11\">%s</text>", sb_azSsb[i]);
      if (strstr(z, zLabel) == NULL) FAIL("no label for %s in:\n%s", sb_azSsb[i], z);
    }
    free(z);
  }
  /* The table: the header, the rule, 13 queries and the totals, aligned. */
  {
    const char *azArg[] = {"--reps", "1", "-q", NULL};
    int nLine = 0, nWidth = -1;
    if (sb_bench(&p, &d, azArg) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
    for (const char *z = strstr(p.zOut, "\n| query"); z != NULL && z[1] == '|'; z = strchr(z + 1, '\n')) {
      const char *zEnd = strchr(z + 1, '\n');
      int w = sb_width(z + 1, zEnd);
      if (nWidth >= 0 && w != nWidth) FAIL("line %d is %d wide, not %d:\n%s", nLine, w, nWidth, p.zOut);
      nWidth = w;
      nLine++;
    }
    ASSERT_EQ(nLine, SB_NSSB + 3);
    ASSERT(strstr(p.zOut, "| total ") != NULL);
    test_proc_free(&p);
  }
  /* A failing query is named with the server's error; the others run. */
  {
    FILE *f = fopen("bad.sql", "w");
    char zQ11[4096];
    const char *argv[] = {"starq-bench", "-p", NULL, "--reps", "1", "--format", "csv", "bad.sql", zQ11, NULL};
    char zPort[16];
    ASSERT(f != NULL);
    fputs("SELECT nosuch FROM lineorder;\n", f);
    ASSERT_EQ(fclose(f), 0);
    snprintf(zPort, sizeof(zPort), "%d", d.iPort);
    snprintf(zQ11, sizeof(zQ11), "%s", test_src("ssb-data/queries/q1.1.sql"));
    argv[2] = zPort;
    ASSERT_EQ(test_run(&p, argv), 1);
    if (strstr(p.zErr, "bad: 42703") == NULL || strstr(p.zErr, "1 of 2 queries failed") == NULL) {
      FAIL("said:\n%s", p.zErr);
    }
    ASSERT(strstr(p.zOut, "\nbad,error,") != NULL && strstr(p.zOut, "\nq1.1,ok,1,") != NULL);
    test_proc_free(&p);
  }
  /* A session statement the server refuses: named, exit 1. */
  {
    const char *azArg[] = {"--session", "SET nosuch = 1", NULL};
    ASSERT_EQ(sb_bench(&p, &d, azArg), 1);
    if (strstr(p.zErr, "--session \"SET nosuch = 1\": 42704") == NULL) FAIL("said:\n%s", p.zErr);
    test_proc_free(&p);
  }
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* Orders answer lines bytewise for qsort. */
static int sb_line_cmp(const void *pA, const void *pB) {
  return strcmp(*(char *const *)pA, *(char *const *)pB);
}

/* Writes r to zPath in the answer-file format (clients/bench/verify.c),
** written here from its description: '|' between values, \N for NULL,
** \\ \| \n \r inside values, rows sorted unless bOrdered. */
static void sb_answer_write(const char *zPath, const refdb_result *r, int bOrdered) {
  char **azLine = calloc((size_t)r->nRow + 1, sizeof(char *));
  FILE *f = fopen(zPath, "w");
  ASSERT(azLine != NULL && f != NULL);
  for (int64_t i = 0; i < r->nRow; i++) {
    strbuf s;
    strbuf_init(&s);
    for (int c = 0; c < r->nCol; c++) {
      const char *z = refdb_result_cell(r, i, c);
      if (c) strbuf_puts(&s, "|");
      if (z == NULL) strbuf_puts(&s, "\\N");
      for (; z != NULL && *z; z++) {
        if (*z == '\\' || *z == '|') strbuf_printf(&s, "\\%c", *z);
        else if (*z == '\n' || *z == '\r') strbuf_puts(&s, *z == '\n' ? "\\n" : "\\r");
        else strbuf_append(&s, z, 1);
      }
    }
    azLine[i] = strbuf_take(&s);
    ASSERT(azLine[i] != NULL);
  }
  if (!bOrdered) qsort(azLine, (size_t)r->nRow, sizeof(char *), sb_line_cmp);
  for (int64_t i = 0; i < r->nRow; i++) {
    ASSERT(fprintf(f, "%s\n", azLine[i]) > 0);
    free(azLine[i]);
  }
  ASSERT_EQ(fclose(f), 0);
  free(azLine);
}

/* Writes SQLite's answers to the 13 SSB queries on "data" into zDir. */
static void sb_sqlite_answers(const char *zDir) {
  refdb *pRef;
  char zErr[2048];
  ASSERT(mkdir(zDir, 0755) == 0 || errno == EEXIST);
  CALL_OK(refdb_open("data", &pRef, zErr, sizeof(zErr)));
  for (int i = 0; i < SB_NSSB; i++) {
    char *zSql = sb_sql(sb_azSsb[i]), zPath[4096];
    refdb_result *r;
    CALL_OK(refdb_query(pRef, zSql, &r, zErr, sizeof(zErr)));
    snprintf(zPath, sizeof(zPath), "%s/%s.out", zDir, sb_azSsb[i]);
    sb_answer_write(zPath, r, strcasestr(zSql, "order by") != NULL);
    refdb_result_free(r);
    free(zSql);
  }
  refdb_close(pRef);
}

/* Fails unless the files zDirA/NAME.out and zDirB/NAME.out of every SSB
** query are equal byte for byte; zHint says what to do about it. */
static void sb_same_answers(const char *zDirA, const char *zDirB, const char *zHint) {
  for (int i = 0; i < SB_NSSB; i++) {
    char zA[4096], zB[4096];
    size_t nA, nB;
    char *a, *b;
    snprintf(zA, sizeof(zA), "%s/%s.out", zDirA, sb_azSsb[i]);
    snprintf(zB, sizeof(zB), "%s/%s.out", zDirB, sb_azSsb[i]);
    a = test_file_read(zA, &nA);
    b = test_file_read(zB, &nB);
    if (nA != nB || memcmp(a, b, nA) != 0) FAIL("%s and %s differ: %s\n%s\n---\n%s", zA, zB, zHint, a, b);
    free(a);
    free(b);
  }
}

/* Copies the SSB answers of zFrom into zTo, adding 1 to the last value of
** row iRow (1-based) of query zName. */
static void sb_plant(const char *zFrom, const char *zTo, const char *zName, int iRow) {
  ASSERT_EQ(mkdir(zTo, 0755), 0);
  for (int i = 0; i < SB_NSSB; i++) {
    char zPath[4096];
    size_t n;
    char *z, *zLine;
    FILE *f;
    snprintf(zPath, sizeof(zPath), "%s/%s.out", zFrom, sb_azSsb[i]);
    z = test_file_read(zPath, &n);
    snprintf(zPath, sizeof(zPath), "%s/%s.out", zTo, sb_azSsb[i]);
    ASSERT((f = fopen(zPath, "w")) != NULL);
    zLine = z;
    for (int k = 1; zLine != NULL && *zLine; k++) {
      char *zEnd = strchr(zLine, '\n'), *zLast;
      ASSERT(zEnd != NULL);
      *zEnd = 0;
      zLast = strrchr(zLine, '|');
      if (strcmp(sb_azSsb[i], zName) == 0 && k == iRow) {
        ASSERT(zLast != NULL);
        *zLast = 0;
        fprintf(f, "%s|%lld\n", zLine, atoll(zLast + 1) + 1);
      } else {
        fprintf(f, "%s\n", zLine);
      }
      zLine = zEnd + 1;
    }
    ASSERT_EQ(fclose(f), 0);
    free(z);
  }
}

TEST_IMPL(bench_verify_sqlite) {
  starqd_proc d;
  test_proc p;
  starqd_data("data");
  sb_sqlite_answers("sqlite");
  /* The answers shipped with the bench are SQLite's, or are made so. */
  if (getenv("STARQ_BENCH_EXPECTED_WRITE") != NULL) {
    char zCmd[8192];
    snprintf(zCmd, sizeof(zCmd), "mkdir -p '%s' && cp sqlite/*.out '%s'/", test_src(SB_EXPECTED),
             test_src(SB_EXPECTED));
    ASSERT_EQ(system(zCmd), 0);
  }
  sb_same_answers("sqlite", test_src(SB_EXPECTED),
                  "the shipped answers are not SQLite's on today's generator; rewrite them with "
                  "STARQ_BENCH_EXPECTED_WRITE=1 make test TESTS=bench_verify_sqlite");
  starqd_start(&d, "data", NULL);
  {
    const char *azArg[] = {"--verify", "sqlite", "--reps", "1", "-q", NULL};
    if (sb_bench(&p, &d, azArg) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
    test_proc_free(&p);
  }
  /* starq's answers written by the bench are SQLite's to the byte. */
  {
    const char *azArg[] = {"--write-expected", "starq/answers", "--reps", "1", "-q", NULL};
    if (sb_bench(&p, &d, azArg) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
    test_proc_free(&p);
    sb_same_answers("sqlite", "starq/answers", "starq-bench --write-expected wrote another answer");
  }
  /* One wrong value in one file: that query fails, named with its row. */
  sb_plant("sqlite", "planted", "q2.1", 3);
  {
    const char *azArg[] = {"--verify", "planted", "--reps", "1", "-q", NULL};
    ASSERT_EQ(sb_bench(&p, &d, azArg), 1);
    if (strstr(p.zErr, "q2.1: wrong answer: row 3 differs: expected") == NULL ||
        strstr(p.zErr, "1 of 13 queries failed") == NULL) {
      FAIL("said:\n%s", p.zErr);
    }
    ASSERT(strstr(p.zOut, "| q2.1  | error |") != NULL);
    test_proc_free(&p);
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

TEST_IMPL(bench_mix) {
  starqd_proc d;
  test_proc p;
  json_value *pJ;
  const json_value *aQ, *t;
  starqd_data("data");
  starqd_start(&d, "data", NULL);
  /* Four clients, two rounds each, every answer checked. */
  {
    char zExpected[4096];
    const char *azArg[] = {"--clients", "4", "--reps", "2", "--format", "json", "--seed", "7", "--verify",
                           zExpected, NULL};
    snprintf(zExpected, sizeof(zExpected), "%s", test_src(SB_EXPECTED));   /* test_src's string is static */
    if (sb_bench(&p, &d, azArg) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
  }
  pJ = sb_json(p.zOut);
  ASSERT_STR_EQ(json_str(json_get(pJ, "mode"), ""), "mix");
  ASSERT_EQ(json_num(json_get(pJ, "clients"), 0), 4);
  aQ = json_get(pJ, "queries");
  ASSERT(aQ != NULL && aQ->n == SB_NSSB);
  for (int i = 0; i < SB_NSSB; i++) {
    const json_value *q = &aQ->a[i], *l = json_get(q, "latency_seconds");
    ASSERT_STR_EQ(json_str(json_get(q, "name"), ""), sb_azSsb[i]);
    ASSERT_EQ(json_num(json_get(q, "runs"), 0), 8);
    ASSERT_EQ(json_num(json_get(q, "errors"), -1), 0);
    ASSERT(json_num(json_get(l, "p50"), -1) > 0);
    ASSERT(json_num(json_get(l, "p50"), 1) <= json_num(json_get(l, "p90"), 0));
    ASSERT(json_num(json_get(l, "p90"), 1) <= json_num(json_get(l, "p99"), 0));
    ASSERT(json_num(json_get(l, "p99"), 1) <= json_num(json_get(l, "max"), 0));
  }
  t = json_get(pJ, "total");
  ASSERT_EQ(json_num(json_get(t, "runs"), 0), 4 * 2 * SB_NSSB);
  ASSERT(json_num(json_get(pJ, "elapsed_seconds"), 0) > 0);
  ASSERT(json_num(json_get(t, "queries_per_second"), 0) > 0);
  /* Throughput is runs over the elapsed time. */
  {
    double rQps = json_num(json_get(t, "queries_per_second"), 0);
    double rWant = 4 * 2 * SB_NSSB / json_num(json_get(pJ, "elapsed_seconds"), 1);
    ASSERT(rQps > rWant * 0.999999 && rQps < rWant * 1.000001);
  }
  json_value_free(pJ);
  test_proc_free(&p);
  /* For a time rather than rounds, as a table. */
  {
    const char *azArg[] = {"--clients", "2", "--duration", "1", "-q", NULL};
    if (sb_bench(&p, &d, azArg) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
    if (strstr(p.zOut, "| p99 ms |") == NULL || strstr(p.zOut, "| queries/s |") == NULL ||
        strstr(p.zOut, "for 1 s") == NULL) {
      FAIL("table:\n%s", p.zOut);
    }
    test_proc_free(&p);
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
