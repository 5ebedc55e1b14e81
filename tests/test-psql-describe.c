/*
** tests/test-psql-describe.c — the real psql (15) against starqd and
** against PostgreSQL 15 holding the same tables and keys (tests/pgref.h),
** each meta-command's output compared whole: \d NAME for every SSB table,
** \dt, \dt+, \di, \di+, \l, \l+, \dn, \dn+, \x with a query, \copy ... to,
** and casts to regclass, regtype and regnamespace, their errors included.
** psql's catalog queries run through starq's planner over pg_catalog's
** relations; where a value legitimately differs the test masks that
** column by name and says why. \d+ is still refused (0A000): its
** flags query needs ARRAY (subquery) over the outer row, unnest() in
** FROM and || on arrays.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/strbuf.h"
#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

typedef struct pd_target pd_target;
struct pd_target {
  const starqd_proc *d;    /* starqd, or NULL for PostgreSQL */
  pgref *pg;
};

/* Runs psql -X -w [-A] with the arguments azArg (NULL-ended) against t. */
static void pd_run(const pd_target *t, int bUnaligned, const char *const *azArg, test_proc *p) {
  const char *argv[32];
  char zPort[16];
  int n = 0;
  argv[n++] = "/usr/bin/psql";
  argv[n++] = "-X";
  argv[n++] = "-w";
  if (bUnaligned) argv[n++] = "-A";
  if (t->d != NULL) {
    snprintf(zPort, sizeof(zPort), "%d", t->d->iPort);
    argv[n++] = "-h", argv[n++] = "127.0.0.1", argv[n++] = "-p", argv[n++] = zPort;
    argv[n++] = "-U", argv[n++] = "starq", argv[n++] = "-d", argv[n++] = "starq";
  } else {
    argv[n++] = "-d";
    argv[n++] = pgref_conninfo(t->pg);
  }
  for (int i = 0; azArg[i] != NULL && n < 31; i++) argv[n++] = azArg[i];
  argv[n] = NULL;
  (void)test_run(p, argv);
}

/* Returns unaligned output z with the fields of the columns named in
** azMask (NULL-ended) written as "#": psql -A writes a header line of
** names joined by '|' and then rows with as many fields. Frees z. */
static char *pd_mask(char *z, const char *const *azMask) {
  int aMask[32] = {0}, nField = 0, bHeaderSeen = 0;
  strbuf s;
  strbuf_init(&s);
  for (char *zLine = z; zLine != NULL && *zLine;) {
    char *zEnd = strchr(zLine, '\n');
    size_t n = zEnd != NULL ? (size_t)(zEnd - zLine) : strlen(zLine);
    int nBar = 0;
    for (size_t i = 0; i < n; i++) nBar += zLine[i] == '|';
    int bHeader = !bHeaderSeen && nBar > 0;
    if (bHeader) nField = nBar + 1;
    for (int f = 0; f <= nBar && f < 32; f++) {
      char *zField = zLine;
      size_t k;
      for (int g = 0; g < f; g++) zField = memchr(zField, '|', (size_t)(zLine + n - zField)) + 1;
      k = f < nBar ? (size_t)((char *)memchr(zField, '|', (size_t)(zLine + n - zField)) - zField)
                   : (size_t)(zLine + n - zField);
      for (int m = 0; bHeader && azMask[m] != NULL; m++) {
        if (strlen(azMask[m]) == k && memcmp(zField, azMask[m], k) == 0) aMask[f] = 1;
      }
      if (f > 0) strbuf_puts(&s, "|");
      if (bHeaderSeen && nBar == nField - 1 && aMask[f]) strbuf_puts(&s, "#");
      else strbuf_append(&s, zField, k);
    }
    bHeaderSeen |= bHeader;
    strbuf_puts(&s, "\n");
    zLine = zEnd != NULL ? zEnd + 1 : NULL;
  }
  free(z);
  ASSERT(!strbuf_error(&s));
  return strbuf_take(&s);
}

/* Runs psql with azArg against starqd and PostgreSQL and fails unless
** stdout, stderr and the exit code agree once azMask's columns (NULL:
** none) are masked. */
static void pd_same(const starqd_proc *d, pgref *pg, int bUnaligned, const char *const *azArg,
                    const char *const *azMask) {
  pd_target ts = {d, NULL}, tp = {NULL, pg};
  test_proc s, p;
  pd_run(&ts, bUnaligned, azArg, &s);
  pd_run(&tp, bUnaligned, azArg, &p);
  if (azMask != NULL) {
    s.zOut = pd_mask(s.zOut, azMask);
    p.zOut = pd_mask(p.zOut, azMask);
  }
  if (s.rc != p.rc || strcmp(s.zOut, p.zOut) != 0 || strcmp(s.zErr, p.zErr) != 0) {
    FAIL("psql %s %s: starqd exited %d\n%s%s\nPostgreSQL exited %d\n%s%s", azArg[0],
         azArg[1] != NULL ? azArg[1] : "", s.rc, s.zOut, s.zErr, p.rc, p.zOut, p.zErr);
  }
  test_proc_free(&s);
  test_proc_free(&p);
}

TEST_IMPL(psql_describe) {
  starqd_proc d;
  pgref *pg;
  cat *pCat;
  char zErr[2048];
  test_proc p;
  if (access("/usr/bin/psql", X_OK) != 0) FAIL("psql is missing (scripts/setup.sh installs it)");
  setenv("PGCONNECT_TIMEOUT", "10", 1);
  unsetenv("PGPASSWORD");
  unsetenv("PGSERVICE");
  starqd_data("data");
  /* PostgreSQL gets starq's tables and keys, no rows: \d shows none. */
  CALL_OK(pgref_start(&pg, "pg", zErr, sizeof(zErr)));
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(pgref_catalog_create(pg, pCat, zErr, sizeof(zErr)));
  cat_close(pCat);
  starqd_start(&d, "data", NULL);

  /* \d NAME: columns, indexes, foreign keys, "Referenced by". */
  {
    static const char *const azTable[] = {"customer", "date", "lineorder", "part", "supplier",
                                          "public.part", "\"supplier\"", "nope"};
    for (size_t i = 0; i < sizeof(azTable) / sizeof(azTable[0]); i++) {
      char zCmd[64];
      const char *azArg[] = {"-c", zCmd, NULL};
      snprintf(zCmd, sizeof(zCmd), "\\d %s", azTable[i]);
      pd_same(&d, pg, 0, azArg, NULL);
    }
  }
  /* Lists. Sizes are starq's bytes, not PostgreSQL's pages (an index
  ** is no file in starq: 0 bytes); the tables in PostgreSQL are empty. */
  {
    static const char *const azSize[] = {"Size", NULL};
    const char *azDt[] = {"-c", "\\dt", NULL}, *azDtPlus[] = {"-c", "\\dt+", NULL};
    const char *azDi[] = {"-c", "\\di", NULL}, *azDiPlus[] = {"-c", "\\di+", NULL};
    const char *azDtPat[] = {"-c", "\\dt lin*", NULL}, *azDiPat[] = {"-c", "\\di public.*", NULL};
    const char *azD[] = {"-c", "\\d", NULL};
    pd_same(&d, pg, 0, azDt, NULL);
    pd_same(&d, pg, 1, azDtPlus, azSize);
    pd_same(&d, pg, 0, azDi, NULL);
    pd_same(&d, pg, 1, azDiPlus, azSize);
    pd_same(&d, pg, 0, azDtPat, NULL);
    pd_same(&d, pg, 0, azDiPat, NULL);
    pd_same(&d, pg, 0, azD, NULL);
  }
  /* Databases and schemas. \l names one database: PostgreSQL's cluster
  ** also has the templates, which starq does not serve. pgref's "starq"
  ** is PostgreSQL's "postgres" renamed, which keeps that database's
  ** comment; starq keeps none. */
  {
    static const char *const azSize[] = {"Size", "Description", NULL};
    const char *azL[] = {"-c", "\\l starq", NULL}, *azLPlus[] = {"-c", "\\l+ starq", NULL};
    const char *azDn[] = {"-c", "\\dn", NULL}, *azDnPlus[] = {"-c", "\\dn+", NULL};
    pd_same(&d, pg, 0, azL, NULL);
    pd_same(&d, pg, 1, azLPlus, azSize);
    pd_same(&d, pg, 0, azDn, NULL);
    pd_same(&d, pg, 0, azDnPlus, NULL);
  }
  /* \x on and off around a catalog query. */
  {
    const char *azArg[] = {"-c", "\\x on", "-c",
                           "SELECT n.nspname, n.oid, n.nspowner FROM pg_catalog.pg_namespace n "
                           "WHERE n.nspname IN ('public', 'pg_catalog') ORDER BY 1",
                           "-c", "\\x off", "-c", "SELECT nspname FROM pg_namespace WHERE oid = 2200",
                           NULL};
    pd_same(&d, pg, 0, azArg, NULL);
  }
  /* regclass and its kin: names both ways, and PostgreSQL's errors with
  ** their positions. User tables' oids differ (PostgreSQL numbers them as
  ** it creates them), so only names and built-in oids are printed. */
  {
    static const char *const azSql[] = {
        "SELECT 'lineorder'::regclass, 'public.lineorder'::regclass::text, 'pg_class'::regclass::oid,"
        " 1259::regclass, 'information_schema.tables'::regclass, 0::regclass, 'int4'::regtype,"
        " 'character varying'::regtype, 1043::regtype::text, 'public'::regnamespace,"
        " 11::regnamespace",
        "SELECT c.relname, c.oid = 'customer'::regclass, c.oid::regclass FROM pg_class c"
        " WHERE c.oid IN ('customer'::regclass, 'customer_pkey'::regclass) ORDER BY 1",
        "SELECT conname, conrelid::regclass, confrelid::regclass FROM pg_constraint"
        " WHERE conrelid = 'lineorder'::regclass ORDER BY 1",
        "SELECT 'nope'::regclass",
        "SELECT 1 FROM pg_class WHERE oid = 'public.nope'::regclass",
        "SELECT 'nope.t'::regclass",
        "SELECT 'nonesuch'::regtype",
        "SELECT 'nope'::regnamespace",
        "SELECT relname FROM pg_class WHERE oid = 'x'",
        "SELECT typinput, typoutput::text, 'int4in'::regproc::oid, 0::regproc FROM pg_type WHERE oid = 23",
        "SELECT 'nope'::regproc",
        "SELECT 'pg_catalog.pg_class'::regclass, '\"pg_class\"'::regclass, 'Lineorder'::regclass,"
        " 'pg_catalog.int4'::regtype, 'integer[]'::regtype, 'varchar(10)'::regtype",
        "SELECT '\"Lineorder\"'::regclass",
        "SELECT 'a.b.c.d'::regclass",
        "SELECT relname FROM pg_class WHERE oid::regclass = 'customer_pkey' ORDER BY 1",
        "SELECT relname FROM pg_class WHERE oid::regclass = '1259' ORDER BY 1",
        "SELECT pg_table_size('nope') > 0",
        "SELECT pg_catalog.pg_size_pretty(pg_catalog.pg_table_size('pg_class')) IS NOT NULL",
        /* an enclosing row's columns in a correlated subquery's comma join */
        "SELECT a.attname, (SELECT c.collname FROM pg_collation c, pg_type t WHERE c.oid = "
        "a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation), (SELECT "
        "t.typname FROM pg_type t, pg_namespace n WHERE t.oid = a.atttypid AND n.oid = "
        "t.typnamespace) FROM pg_attribute a WHERE a.attrelid = 'part'::regclass AND a.attnum > 0 "
        "ORDER BY a.attnum"};
    for (size_t i = 0; i < sizeof(azSql) / sizeof(azSql[0]); i++) {
      const char *azArg[] = {"-c", azSql[i], NULL};
      pd_same(&d, pg, 0, azArg, NULL);
    }
  }
  /* \copy ... to: the rows of a catalog query, the same file. */
  {
    const char *azArg[] = {"-c", "\\copy (SELECT nspname, oid FROM pg_namespace ORDER BY 1) to 'ns.txt'",
                           NULL};
    pd_target ts = {&d, NULL};
    size_t nFile;
    char *zFile;
    pd_run(&ts, 0, azArg, &p);
    ASSERT_EQ(p.rc, 0);
    test_proc_free(&p);
    zFile = test_file_read("ns.txt", &nFile);
    ASSERT_STR_EQ(zFile, "information_schema\t13207\npg_catalog\t11\npg_toast\t99\npublic\t2200\n");
    free(zFile);
  }
  /* \d+ is not answered yet: an error, never a wrong or empty table. */
  {
    const char *azArg[] = {"-c", "\\d+ supplier", NULL};
    pd_target ts = {&d, NULL};
    pd_run(&ts, 0, azArg, &p);
    ASSERT_EQ(p.rc, 1);
    ASSERT(p.zOut[0] == 0 && strstr(p.zErr, "ERROR:  ") != NULL);
    test_proc_free(&p);
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(pg);
  return 0;
}
