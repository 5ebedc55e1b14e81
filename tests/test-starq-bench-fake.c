/*
** tests/test-starq-bench-fake.c — starq-bench's pieces on their own (the
** answer comparison, ORDER BY detection, the statistics, the XML checker
** the SVG tests rely on), and the whole program against a fake server
** whose SHOW starq.last_query says what a GPU server would: known times,
** fact bytes and bandwidths, so the floors, ratios and medians that only
** a GPU machine would otherwise produce are checked here against the same
** arithmetic done from the fake's figures.
*/
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../clients/bench/bench.h"
#include "../common/jsonread.h"
#include "../server/pgwire.h"
#include "test.h"
#include "xmlcheck.h"

/* ---- the pieces --------------------------------------------------------------- */

/* Builds an answer of the n lines az (the test frees it). */
static bench_answer *fake_answer_of(const char *const *az, int n) {
  bench_answer *p = calloc(1, sizeof(*p));
  ASSERT(p != NULL);
  p->azRow = calloc((size_t)n + 1, sizeof(char *));
  ASSERT(p->azRow != NULL);
  for (int i = 0; i < n; i++) p->azRow[i] = strdup(az[i]);
  p->nRow = n;
  return p;
}

/* Compares the rows azGot with azWant; returns the comparison's code and
** leaves its message in zDiff. */
static int fake_compare(const char *const *azWant, int nWant, const char *const *azGot, int nGot, int bOrdered,
                        char *zDiff, size_t nDiff) {
  bench_answer *pWant = fake_answer_of(azWant, nWant), *pGot = fake_answer_of(azGot, nGot);
  int rc;
  zDiff[0] = 0;
  rc = bench_answer_compare(pWant, pGot, bOrdered, zDiff, nDiff);
  bench_answer_free(pWant);
  bench_answer_free(pGot);
  return rc;
}

/* Whether the single values a and b agree. */
static int fake_value_eq(const char *a, const char *b) {
  char zDiff[512];
  return fake_compare(&a, 1, &b, 1, 1, zDiff, sizeof(zDiff)) == 0;
}

TEST_IMPL(bench_units) {
  char zDiff[512], zErr[256];
  /* Rows in order, out of order, missing. */
  {
    const char *azA[] = {"1|a", "2|b", "3|c"}, *azB[] = {"1|a", "2|x", "3|c"}, *azC[] = {"3|c", "1|a", "2|b"};
    ASSERT_EQ(fake_compare(azA, 3, azA, 3, 1, zDiff, sizeof(zDiff)), 0);
    ASSERT_EQ(fake_compare(azA, 3, azB, 3, 1, zDiff, sizeof(zDiff)), 1);
    ASSERT(strstr(zDiff, "row 2 differs: expected \"2|b\", got \"2|x\"") != NULL);
    ASSERT_EQ(fake_compare(azA, 3, azC, 3, 1, zDiff, sizeof(zDiff)), 1);
    ASSERT_EQ(fake_compare(azA, 3, azC, 3, 0, zDiff, sizeof(zDiff)), 0);
    ASSERT_EQ(fake_compare(azA, 3, azA, 2, 1, zDiff, sizeof(zDiff)), 1);
    if (strstr(zDiff, "2 rows, expected 3") == NULL || strstr(zDiff, "got no row") == NULL) FAIL("%s", zDiff);
    ASSERT_EQ(fake_compare(azA, 0, azA, 1, 0, zDiff, sizeof(zDiff)), 1);
    ASSERT(strstr(zDiff, "expected no row") != NULL);
  }
  /* Values: integers exactly, other numbers within 1e-9, text exactly. */
  ASSERT(fake_value_eq("0.1|x", "0.10000000000000001|x"));
  ASSERT(fake_value_eq("1e+20", "100000000000000000000.0"));
  ASSERT(fake_value_eq("7", "7.0"));
  ASSERT(fake_value_eq("NaN", "NaN"));
  ASSERT(fake_value_eq("0", "1e-12"));
  ASSERT(!fake_value_eq("0.1", "0.1000001"));
  ASSERT(!fake_value_eq("100000000000000001", "100000000000000000"));
  ASSERT(!fake_value_eq("10", "11"));
  ASSERT(!fake_value_eq("\\N", "0"));
  ASSERT(!fake_value_eq("NaN", "1"));
  ASSERT(!fake_value_eq("1|2", "1|2|3"));
  /* An escaped '|' is part of its value, not a separator. */
  ASSERT(fake_value_eq("a\\|b|1", "a\\|b|1.0"));
  ASSERT(!fake_value_eq("a|b|1", "a\\|b|1"));
  /* Written, read back; an unordered answer is written sorted. */
  {
    const char *azRow[] = {"b|\\\\|\\n", "a|\\N|1.5"};
    bench_answer *p = fake_answer_of(azRow, 2), *pBack;
    size_t n;
    char *z;
    CALL_OK(bench_answer_write("ans/sub", "q9", p, 0, zErr, sizeof(zErr)));
    z = test_file_read("ans/sub/q9.out", &n);
    ASSERT_STR_EQ(z, "a|\\N|1.5\nb|\\\\|\\n\n");
    free(z);
    CALL_OK(bench_answer_read("ans/sub", "q9", &pBack, zErr, sizeof(zErr)));
    ASSERT_EQ(pBack->nRow, 2);
    ASSERT_STR_EQ(pBack->azRow[1], "b|\\\\|\\n");
    bench_answer_free(pBack);
    bench_answer_free(p);
    ASSERT(bench_answer_read("ans", "nosuch", &pBack, zErr, sizeof(zErr)) != 0);
    ASSERT(strstr(zErr, "nosuch: no expected answer") != NULL);
  }
  /* ORDER BY at the top level only, outside strings and comments. */
  ASSERT(bench_sql_ordered("select a from t order by a"));
  ASSERT(bench_sql_ordered("SELECT a FROM t ORDER\n /* why */ BY 1;"));
  ASSERT(!bench_sql_ordered("select a from (select a from t order by a) s"));
  ASSERT(!bench_sql_ordered("select 'order by' from t -- order by a\n"));
  ASSERT(!bench_sql_ordered("select rank() over (order by a) from t"));
  ASSERT(!bench_sql_ordered("select \"order\" by_x from t"));
  /* Statistics: medians, nearest-rank percentiles. */
  {
    bench_samples s = {NULL, 0, 0};
    double a[] = {5, 1, 3, 2, 4};
    ASSERT(isnan(bench_samples_median(&s)) && isnan(bench_samples_percentile(&s, 50)));
    for (int i = 0; i < 5; i++) ASSERT_EQ(bench_samples_add(&s, a[i]), 0);
    bench_samples_sort(&s);
    ASSERT(bench_samples_median(&s) == 3 && bench_samples_min(&s) == 1 && bench_samples_max(&s) == 5);
    ASSERT(bench_samples_percentile(&s, 50) == 3 && bench_samples_percentile(&s, 90) == 5);
    ASSERT(bench_samples_percentile(&s, 20) == 1 && bench_samples_percentile(&s, 21) == 2);
    ASSERT_EQ(bench_samples_add(&s, 0.5), 0);
    bench_samples_sort(&s);
    ASSERT(bench_samples_median(&s) == 2.5);
    bench_samples_free(&s);
  }
  /* The XML checker takes a document and refuses what XML refuses. */
  {
    static const char *const azBad[] = {
        "<a><b></a></b>", "<a x='1' x='2'/>", "<a>&foo;</a>", "<a>1 < 2</a>", "<a/><b/>", "<a>",
        "text", "<a>\x01</a>", "<!DOCTYPE a><a/>", "<a x=1/>", "<a>\xff</a>", "<a><!-- a -- b --></a>"};
    const char *zGood = "<?xml version=\"1.0\"?>\n<!-- c --><svg a=\"&lt;&#38;&#x3c;\"><t>x &amp; y –</t>"
                        "<g/><![CDATA[<raw>]]></svg>\n";
    CALL_OK(xmlcheck(zGood, strlen(zGood), zErr, sizeof(zErr)));
    for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
      if (xmlcheck(azBad[i], strlen(azBad[i]), zErr, sizeof(zErr)) == 0) FAIL("xmlcheck took %s", azBad[i]);
    }
  }
  return 0;
}

/* ---- a fake server -------------------------------------------------------------- */

/* What the fake says of every statement: a GPU server's figures. */
#define FAKE_FACT 1.2e8
#define FAKE_SCANNED 1.5e8
#define FAKE_ZC_BW 4e10
#define FAKE_DEV_BW 3e12
/* The server seconds of the n-th SHOW on a connection, round and round. */
static const double fake_aSec[4] = {0.010, 0.002, 0.006, 0.004};

#define FAKE_CONN_MAX 16

/* A PostgreSQL server that answers every query with one row ("7"), a
** query with "fail" in it with an error, one with "die" by closing the
** connection, and SHOW starq.last_query with the figures above. One
** thread accepts, one serves each connection. */
typedef struct fake_pg fake_pg;
struct fake_pg {
  int fd;                  /* the listening socket */
  int iPort;
  pthread_t thAccept;
  pthread_t aConn[FAKE_CONN_MAX];
  int nConn;
};

/* Reads exactly n bytes. Returns 0, or -1 at the end or on an error. */
static int fake_read(int fd, void *p, size_t n) {
  for (size_t k = 0; k < n;) {
    ssize_t r = read(fd, (char *)p + k, n - k);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    k += (size_t)r;
  }
  return 0;
}

/* Writes all of s and empties it. Returns 0, or -1. */
static int fake_flush(int fd, strbuf *s) {
  for (size_t k = 0; k < s->n;) {
    ssize_t r = write(fd, s->z + k, s->n - k);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    k += (size_t)r;
  }
  strbuf_reset(s);
  return 0;
}

/* Appends a one-column result: its description, the row z, the tag. */
static void fake_one_value(strbuf *s, const char *zCol, uint32_t iOid, const char *z, const char *zTag) {
  pgwire_column col = {zCol, 0, 0, iOid, iOid == PGWIRE_OID_INT4 ? 4 : -1, -1};
  size_t i;
  pgwire_put_row_description(s, 1, &col, NULL);
  i = pgwire_msg_begin(s, 'D');
  pgwire_put_int16(s, 1);
  pgwire_put_int32(s, (int32_t)strlen(z));
  strbuf_puts(s, z);
  pgwire_msg_end(s, i);
  pgwire_put_command_complete(s, zTag);
}

/* Appends the answer to the query zSql; *pnShow counts the SHOWs, and
** *pnTiered the runs of a query with "tiered" in it: the first
** FAKE_GENERIC_RUNS of those ran on the generic kernels. */
#define FAKE_GENERIC_RUNS 3
static void fake_answer(strbuf *s, const char *zSql, int *pnShow, int *pnTiered) {
  if (strstr(zSql, "starq.last_query") != NULL) {
    char zJson[1100];
    int k = (*pnShow)++, bGeneric = *pnTiered > 0 && *pnTiered <= FAKE_GENERIC_RUNS;
    /* Fields the bench does not know are there too: it must pass them by. */
    snprintf(zJson, sizeof(zJson),
             "{\"status\":\"ok\",\"sql\":\"SELECT 1\",\"rows\":1,\"seconds\":%.17g,\"compile_seconds\":%s,"
             "\"cached\":%s,\"bytes_scanned\":%.0f,\"fact_bytes\":%.0f,\"columns\":{\"pinned\":3},"
             "\"kernels\":[{\"name\":\"scan\",\"launches\":1,\"seconds\":0.001}],\"later\":{\"x\":[1,{\"y\":null}]},"
             "\"backend\":\"cuda\",\"device\":\"Fake GPU <&>\",\"zero_copy_bytes_per_second\":%.17g,"
             "\"device_bytes_per_second\":%.17g,\"tier\":\"%s\"}",
             fake_aSec[k % 4], k == 0 ? "0.5" : "0", k == 0 ? "false" : "true", FAKE_SCANNED, FAKE_FACT,
             FAKE_ZC_BW, FAKE_DEV_BW, bGeneric ? "generic" : "optimized");
    fake_one_value(s, "starq.last_query", PGWIRE_OID_TEXT, zJson, "SHOW");
  } else if (strstr(zSql, "fail") != NULL) {
    pgwire_error e = {NULL, "42P01", "relation \"nosuch\" does not exist", NULL, NULL, 8};
    pgwire_put_error(s, PGWIRE_MSG_ERROR, &e);
  } else {
    if (strstr(zSql, "tiered") != NULL) (*pnTiered)++;
    fake_one_value(s, "n", PGWIRE_OID_INT4, "7", "SELECT 1");
  }
  pgwire_put_ready(s, 'I');
}

/* Serves one connection: the start-up, then simple queries until it ends. */
static void *fake_conn(void *pArg) {
  int fd = (int)(intptr_t)pArg, nShow = 0, nTiered = 0;
  unsigned char aHead[8];
  strbuf s;
  strbuf_init(&s);
  for (;;) {   /* SSLRequest and GSSENCRequest are declined, the start-up taken */
    uint32_t n, iCode;
    char *zBody;
    if (fake_read(fd, aHead, 8) != 0) goto out_close;
    n = pgwire_get_u32(aHead);
    iCode = pgwire_get_u32(aHead + 4);
    if (iCode == PGWIRE_SSL_REQUEST || iCode == PGWIRE_GSSENC_REQUEST) {
      if (write(fd, "N", 1) != 1) goto out_close;
      continue;
    }
    if (n < 8 || n > 10000 || (zBody = malloc(n - 8)) == NULL) goto out_close;
    if (fake_read(fd, zBody, n - 8) != 0) {
      free(zBody);
      goto out_close;
    }
    free(zBody);
    break;
  }
  pgwire_put_auth(&s, 0, NULL, 0);
  pgwire_put_parameter_status(&s, "server_version", "15.0 (fake)");
  pgwire_put_parameter_status(&s, "client_encoding", "UTF8");
  pgwire_put_parameter_status(&s, "standard_conforming_strings", "on");
  pgwire_put_parameter_status(&s, "integer_datetimes", "on");
  pgwire_put_backend_key(&s, 1, 2);
  pgwire_put_ready(&s, 'I');
  if (fake_flush(fd, &s) != 0) goto out_close;
  for (;;) {
    uint32_t n;
    char *zBody;
    if (fake_read(fd, aHead, 5) != 0) break;
    n = pgwire_get_u32(aHead + 1);
    if (aHead[0] == 'X' || n < 4 || n > 1000000 || (zBody = calloc(1, n - 3)) == NULL) break;
    if (fake_read(fd, zBody, n - 4) != 0) {
      free(zBody);
      break;
    }
    /* A query with "die" in it: the server goes away without a word. */
    if (aHead[0] == 'Q' && strstr(zBody, "die") == NULL) fake_answer(&s, zBody, &nShow, &nTiered);
    free(zBody);
    if (s.n == 0 || fake_flush(fd, &s) != 0) break;
  }
out_close:
  strbuf_free(&s);
  close(fd);
  return NULL;
}

/* Accepts connections until the listening socket is shut down. */
static void *fake_accept(void *pArg) {
  fake_pg *p = pArg;
  for (;;) {
    int fd = accept(p->fd, NULL, NULL);
    if (fd < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (p->nConn == FAKE_CONN_MAX) {
      close(fd);
      continue;
    }
    ASSERT_EQ(pthread_create(&p->aConn[p->nConn], NULL, fake_conn, (void *)(intptr_t)fd), 0);
    p->nConn++;
  }
  return NULL;
}

/* Starts the fake on a free loopback port (p->iPort). */
static void fake_start(fake_pg *p) {
  struct sockaddr_in a;
  socklen_t n = sizeof(a);
  memset(p, 0, sizeof(*p));
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  p->fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT(p->fd >= 0);
  ASSERT_EQ(bind(p->fd, (struct sockaddr *)&a, sizeof(a)), 0);
  ASSERT_EQ(listen(p->fd, 16), 0);
  ASSERT_EQ(getsockname(p->fd, (struct sockaddr *)&a, &n), 0);
  p->iPort = ntohs(a.sin_port);
  ASSERT_EQ(pthread_create(&p->thAccept, NULL, fake_accept, p), 0);
}

/* Stops accepting and waits for every connection to end (the bench has
** exited by now, so they have). */
static void fake_stop(fake_pg *p) {
  shutdown(p->fd, SHUT_RDWR);
  ASSERT_EQ(pthread_join(p->thAccept, NULL), 0);
  close(p->fd);
  for (int i = 0; i < p->nConn; i++) ASSERT_EQ(pthread_join(p->aConn[i], NULL), 0);
}

/* ---- the bench against it --------------------------------------------------------- */

/* Parses the bench's JSON output (the caller frees it). */
static json_value *fake_json(const char *z) {
  json_value *p;
  char zErr[256];
  if (json_parse(z, strlen(z), &p, zErr, sizeof(zErr)) != 0) FAIL("%s\n%s", zErr, z);
  return p;
}

/* Fails unless member zKey of p is within a relative 1e-9 of rWant. */
static void fake_near(const json_value *p, const char *zKey, double rWant) {
  double r = json_num(json_get(p, zKey), NAN);
  if (!(fabs(r - rWant) <= 1e-9 * fabs(rWant))) FAIL("%s: %.17g, expected %.17g", zKey, r, rWant);
}

/* Writes zText into the file zPath. */
static void fake_file(const char *zPath, const char *zText) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  ASSERT(fputs(zText, f) >= 0);
  ASSERT_EQ(fclose(f), 0);
}

TEST_IMPL(bench_floors) {
  fake_pg fk;
  test_proc p;
  char zPort[16], zErr[256];
  json_value *pJ;
  const json_value *q, *t;
  double rServer = fake_aSec[3];   /* the median of the timed runs' 0.002, 0.006, 0.004 */
  fake_file("a.sql", "SELECT 1");
  fake_file("b.sql", "SELECT fail");
  fake_start(&fk);
  snprintf(zPort, sizeof(zPort), "%d", fk.iPort);
  {
    const char *argv[] = {"starq-bench", "-p", zPort, "--warmup", "1", "--reps", "3", "--format", "json",
                          "--svg", "chart.svg", "a.sql", NULL};
    if (test_run(&p, argv) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
  }
  pJ = fake_json(p.zOut);
  ASSERT_STR_EQ(json_str(json_get(json_get(pJ, "server"), "device"), ""), "Fake GPU <&>");
  q = &json_get(pJ, "queries")->a[0];
  ASSERT_STR_EQ(json_str(json_get(q, "name"), ""), "a");
  ASSERT_EQ(json_num(json_get(q, "rows"), -1), 1);
  /* The median of the timed runs' figures: not the warm-up's 0.010. */
  fake_near(q, "server_seconds", rServer);
  fake_near(q, "compile_seconds", 0.5);
  fake_near(q, "fact_bytes", FAKE_FACT);
  fake_near(q, "bytes_scanned", FAKE_SCANNED);
  fake_near(q, "gb_per_second", FAKE_FACT / rServer / 1e9);
  fake_near(q, "pcie_floor_seconds", FAKE_FACT / FAKE_ZC_BW);
  fake_near(q, "pcie_ratio", rServer / (FAKE_FACT / FAKE_ZC_BW));
  fake_near(q, "device_floor_seconds", FAKE_FACT / FAKE_DEV_BW);
  fake_near(q, "device_ratio", rServer / (FAKE_FACT / FAKE_DEV_BW));
  t = json_get(pJ, "total");
  fake_near(t, "pcie_ratio", rServer / (FAKE_FACT / FAKE_ZC_BW));
  ASSERT_STR_EQ(json_str(json_get(q, "first_run_tier"), ""), "optimized");
  ASSERT_EQ(json_num(json_get(q, "tier_waits"), -1), 0);
  json_value_free(pJ);
  test_proc_free(&p);
  /* A new shape: the warm-up runs again until its own kernels replace the
  ** generic ones, and only those are timed. */
  fake_file("tiered.sql", "SELECT 1 AS tiered");
  {
    const char *argv[] = {"starq-bench", "-p", zPort, "--warmup", "1", "--reps", "2", "--format", "json",
                          "tiered.sql", NULL};
    if (test_run(&p, argv) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
  }
  pJ = fake_json(p.zOut);
  q = &json_get(pJ, "queries")->a[0];
  ASSERT_STR_EQ(json_str(json_get(q, "first_run_tier"), ""), "generic");
  ASSERT_EQ(json_num(json_get(q, "tier_waits"), -1), FAKE_GENERIC_RUNS);
  fake_near(q, "compile_seconds", 0.5);
  json_value_free(pJ);
  test_proc_free(&p);
  /* The chart: well-formed, both floors marked, the device's name escaped. */
  {
    size_t n;
    char *z = test_file_read("chart.svg", &n);
    CALL_OK(xmlcheck(z, n, zErr, sizeof(zErr)));
    ASSERT(strstr(z, "Fake GPU &lt;&amp;&gt;") != NULL);
    ASSERT(strstr(z, "stroke=\"#e15759\" stroke-width") != NULL);   /* PCIe */
    ASSERT(strstr(z, "stroke-dasharray") != NULL);                  /* device memory */
    free(z);
  }
  /* The table shows the same ratios; a failing query is named, exit 1. */
  {
    const char *argv[] = {"starq-bench", "-p", zPort, "--reps", "3", "a.sql", "b.sql", NULL};
    char zRatio[64], zRow[64];
    ASSERT_EQ(test_run(&p, argv), 1);
    snprintf(zRatio, sizeof(zRatio), " %.2f |", rServer / (FAKE_FACT / FAKE_ZC_BW));
    snprintf(zRow, sizeof(zRow), " %.2f |\n", rServer / (FAKE_FACT / FAKE_DEV_BW));
    if (strstr(p.zOut, "× PCIe") == NULL || strstr(p.zOut, zRatio) == NULL || strstr(p.zOut, zRow) == NULL) {
      FAIL("table:\n%s", p.zOut);
    }
    if (strstr(p.zErr, "b: 42P01: relation \"nosuch\" does not exist") == NULL) FAIL("stderr:\n%s", p.zErr);
    ASSERT(strstr(p.zOut, "| b ") != NULL && strstr(p.zOut, "error") != NULL);
    test_proc_free(&p);
  }
  /* The mix: all runs' fact bytes over the bandwidths, beside the elapsed time. */
  {
    const char *argv[] = {"starq-bench", "-p", zPort, "--clients", "2", "--reps", "2", "--warmup", "0",
                          "--format", "json", "a.sql", NULL};
    double rElapsed;
    if (test_run(&p, argv) != 0) FAIL("rc %d:\n%s", p.rc, p.zErr);
    pJ = fake_json(p.zOut);
    t = json_get(pJ, "total");
    rElapsed = json_num(json_get(pJ, "elapsed_seconds"), -1);
    ASSERT(rElapsed > 0);
    ASSERT_EQ(json_num(json_get(t, "runs"), -1), 4);
    fake_near(t, "fact_bytes", 4 * FAKE_FACT);
    fake_near(t, "pcie_floor_seconds", 4 * FAKE_FACT / FAKE_ZC_BW);
    fake_near(t, "pcie_ratio", rElapsed / (4 * FAKE_FACT / FAKE_ZC_BW));
    fake_near(t, "device_ratio", rElapsed / (4 * FAKE_FACT / FAKE_DEV_BW));
    fake_near(t, "gb_per_second", 4 * FAKE_FACT / rElapsed / 1e9);
    json_value_free(pJ);
    test_proc_free(&p);
  }
  /* A connection lost with a query: made again for the next one, which
  ** runs; the lost query fails the run (1). In the mix a lost client
  ** ends the run with 2, after the report. */
  fake_file("die.sql", "SELECT die");
  fake_file("z.sql", "SELECT 2");
  {
    const char *argv[] = {"starq-bench", "-p", zPort, "--reps", "1", "--format", "csv", "a.sql", "die.sql",
                          "z.sql", NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    if (strstr(p.zErr, "die: server closed the connection unexpectedly") == NULL) FAIL("said:\n%s", p.zErr);
    ASSERT(strstr(p.zOut, "\ndie,error,") != NULL && strstr(p.zOut, "\nz,ok,1,") != NULL);
    test_proc_free(&p);
  }
  {
    const char *argv[] = {"starq-bench", "-p", zPort, "--clients", "2", "--warmup", "0", "--reps", "1",
                          "die.sql", NULL};
    ASSERT_EQ(test_run(&p, argv), 2);
    if (strstr(p.zErr, "2 of 2 clients lost their connection") == NULL) FAIL("said:\n%s", p.zErr);
    ASSERT(strstr(p.zOut, "| die   |    0 |      2 |") != NULL);
    test_proc_free(&p);
  }
  fake_stop(&fk);
  return 0;
}
