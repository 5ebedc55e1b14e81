/*
** tests/test-pgref.c — the PostgreSQL reference server itself (pgref.h):
** it starts with the settings starq's semantics need, answers and errs as
** PostgreSQL, leaves nothing behind when stopped or when its test is
** killed, and loads the generator's SSB files so that the SSB queries
** give the same rows in PostgreSQL, in starq and in SQLite.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "../common/timer.h"
#include "pgref.h"
#include "starqd-fixture.h"
#include "test-exec.h"
#include "test.h"

/* Returns 1 while process pid exists and is not a zombie. */
static int pgref_test_alive(int pid) {
  char zPath[64], z[512], *zParen;
  size_t n;
  FILE *f;
  snprintf(zPath, sizeof(zPath), "/proc/%d/stat", pid);
  f = fopen(zPath, "r");
  if (f == NULL) return 0;
  n = fread(z, 1, sizeof(z) - 1, f);
  fclose(f);
  z[n] = 0;
  zParen = strrchr(z, ')');
  return zParen != NULL && zParen[1] == ' ' && zParen[2] != 'Z' && zParen[2] != 'X';
}

/* Reads the postmaster's pid and its System V segment's id from the
** postmaster.pid of data directory zData. */
static void pgref_test_pidfile(const char *zData, int *pPid, int *pShmId) {
  char zPath[512], *z, *zLine;
  long iKey = -1, iId = -1;
  snprintf(zPath, sizeof(zPath), "%s/postmaster.pid", zData);
  z = test_file_read(zPath, NULL);
  *pPid = atoi(z);
  zLine = z;
  for (int i = 0; i < 6 && zLine != NULL; i++) {
    zLine = strchr(zLine, '\n');
    if (zLine != NULL) zLine++;
  }
  ASSERT(zLine != NULL && sscanf(zLine, "%ld %ld", &iKey, &iId) == 2);
  *pShmId = (int)iId;
  free(z);
}

/* Pids of the server's processes: the postmaster's children, read from
** /proc (ours to check after it is gone). Returns how many, at most nMax. */
static int pgref_test_children(int iParent, int *aPid, int nMax) {
  int n = 0;
  char zCmd[128];
  FILE *f;
  snprintf(zCmd, sizeof(zCmd), "pgrep -P %d", iParent);
  f = popen(zCmd, "r");
  ASSERT(f != NULL);
  while (n < nMax && fscanf(f, "%d", &aPid[n]) == 1) n++;
  pclose(f);
  return n;
}

static void pgref_test_expect_value(pgref *p, const char *zSql, const char *zWant) {
  pgref_result *r;
  char zErr[512];
  CALL_OK(pgref_query(p, zSql, &r, zErr, sizeof(zErr)));
  ASSERT_EQ(r->pRows->nRow, 1);
  ASSERT_STR_EQ(refdb_result_cell(r->pRows, 0, 0), zWant);
  pgref_result_free(r);
}

TEST_IMPL(pgref_start_stop) {
  pgref *p;
  pgref_result *r;
  char zErr[2048], zData[600];
  const pgref_timing *pT;
  int pid, iShm, aChild[32], nChild;
  double t0 = timer_now();

  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  pT = pgref_timings(p);
  printf("start %.2f s: %s %.2f s, postgres %.2f s, database %.2f s\n",
         timer_now() - t0, pT->bTemplate ? "template copy" : "initdb", pT->rInitdb,
         pT->rStart, pT->rCreateDb);

  /* PostgreSQL 15, with the settings starq's semantics are PostgreSQL's
  ** defaults of. */
  CALL_OK(pgref_query(p, "SELECT version(), current_setting('server_version_num')::int / 10000,"
                      " current_database(), current_user", &r, zErr, sizeof(zErr)));
  ASSERT(strncmp(refdb_result_cell(r->pRows, 0, 0), "PostgreSQL 15.", 14) == 0);
  ASSERT_STR_EQ(refdb_result_cell(r->pRows, 0, 1), "15");
  ASSERT_STR_EQ(refdb_result_cell(r->pRows, 0, 2), "starq");
  ASSERT_STR_EQ(refdb_result_cell(r->pRows, 0, 3), "starq");
  pgref_result_free(r);
  {
    static const char *const aSetting[][2] = {
        {"SHOW TimeZone", "UTC"}, {"SHOW DateStyle", "ISO, MDY"},
        {"SHOW IntervalStyle", "postgres"}, {"SHOW server_encoding", "UTF8"},
        {"SHOW lc_collate", "C"}, {"SHOW extra_float_digits", "1"},
        {"SELECT 'a' < 'B'", "f"},           /* byte order, not a locale's */
    };
    for (size_t i = 0; i < sizeof(aSetting) / sizeof(aSetting[0]); i++) {
      pgref_test_expect_value(p, aSetting[i][0], aSetting[i][1]);
    }
  }

  /* Cells as PostgreSQL spells them, NULLs apart, types by OID. */
  CALL_OK(pgref_query(p, "SELECT 1::int2 AS a, 2::bigint, 0.1::float8, 12.50::numeric(5,2),"
                      " NULL::text, 'NULL', true, DATE '1998-01-01', 1e20::float8",
                      &r, zErr, sizeof(zErr)));
  ASSERT_EQ(r->pRows->nCol, 9);
  ASSERT_STR_EQ(r->pRows->azName[0], "a");
  {
    static const unsigned aiOid[] = {21, 20, 701, 1700, 25, 25, 16, 1082, 701};
    static const char *const azCell[] = {"1", "2", "0.1", "12.50", NULL, "NULL", "t",
                                         "1998-01-01", "1e+20"};
    for (int c = 0; c < 9; c++) {
      const char *z = refdb_result_cell(r->pRows, 0, c);
      ASSERT_EQ(r->aiType[c], aiOid[c]);
      ASSERT_EQ(r->pRows->abFloat[c], aiOid[c] == 701);
      if (azCell[c] == NULL) ASSERT(z == NULL);
      else ASSERT_STR_EQ(z, azCell[c]);
    }
  }
  pgref_result_free(r);

  /* Errors: SQLSTATE and PostgreSQL's message. */
  CALL_ERR(pgref_query(p, "SELECT 1/0", &r, zErr, sizeof(zErr)), "22012: division by zero");
  ASSERT(r == NULL);
  CALL_ERR(pgref_exec(p, "SELECT 'x'::date", zErr, sizeof(zErr)),
           "22007: invalid input syntax for type date: \"x\"");
  CALL_OK(pgref_exec(p, "CREATE TABLE t (a int); INSERT INTO t VALUES (1), (NULL)", zErr,
                     sizeof(zErr)));
  pgref_test_expect_value(p, "SELECT count(*) FROM t", "2");

  /* Another connection through the conninfo (what psql would use). */
  {
    PGconn *c = PQconnectdb(pgref_conninfo(p));
    ASSERT(PQstatus(c) == CONNECTION_OK);
    PQfinish(c);
  }

  /* The server's System V segment is already marked for removal. */
  snprintf(zData, sizeof(zData), "pg/data");
  pgref_test_pidfile(zData, &pid, &iShm);
  ASSERT(pgref_test_alive(pid));
  nChild = pgref_test_children(pid, aChild, 32);
  ASSERT_GT(nChild, 0);
  {
    struct shmid_ds ds;
    ASSERT_EQ(shmctl(iShm, IPC_STAT, &ds), 0);
    ASSERT(ds.shm_perm.mode & SHM_DEST);
  }
  t0 = timer_now();
  pgref_stop(p);
  printf("stop %.2f s\n", timer_now() - t0);
  ASSERT(!pgref_test_alive(pid));
  for (int i = 0; i < nChild; i++) ASSERT(!pgref_test_alive(aChild[i]));
  ASSERT(!test_file_exists("pg/data"));
  ASSERT(test_file_exists("pg/postgres.log"));
  {
    struct shmid_ds ds;
    ASSERT(shmctl(iShm, IPC_STAT, &ds) != 0);
  }

  /* A folder the server's user cannot reach is refused, not a hang. */
  if (geteuid() == 0) {
    char zClosed[] = "/tmp/starq-pgref-closed-XXXXXX", zSub[64], zWant[64];
    ASSERT(mkdtemp(zClosed) != NULL);      /* 0700, root's */
    snprintf(zSub, sizeof(zSub), "%s/pg", zClosed);
    snprintf(zWant, sizeof(zWant), "%s: uid ", zClosed);
    if (pgref_start(&p, zSub, zErr, sizeof(zErr)) == 0) {
      pgref_stop(p);
      fsdir_remove(zClosed);
      FAIL("started under a folder the server's user cannot search");
    }
    fsdir_remove(zClosed);
    if (strstr(zErr, zWant) == NULL) FAIL("%s", zErr);
  }
  return 0;
}

/* A test killed with its process group (what the runner does after a
** failure or a time out) takes the server and every backend with it,
** and leaves no shared memory. */
TEST_IMPL(pgref_killed_test) {
  int aFd[2], pidTest, pid = 0, iShm = -1, aChild[32], nChild;
  double t0;
  ASSERT(pipe(aFd) == 0);
  pidTest = fork();
  ASSERT(pidTest >= 0);
  if (pidTest == 0) {
    pgref *p;
    char zErr[2048];
    setpgid(0, 0);
    close(aFd[0]);
    if (pgref_start(&p, "pgk", zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "%s\n", zErr);
      _exit(1);
    }
    /* A backend busy in a query, as a test's would be. */
    PQsendQuery(pgref_conn(p), "SELECT pg_sleep(600)");
    ASSERT(write(aFd[1], "x", 1) == 1);
    pause();
    _exit(0);
  }
  setpgid(pidTest, pidTest);
  close(aFd[1]);
  {
    char c;
    if (read(aFd[0], &c, 1) != 1) {
      waitpid(pidTest, NULL, 0);
      FAIL("the child could not start the server");
    }
  }
  close(aFd[0]);
  pgref_test_pidfile("pgk/data", &pid, &iShm);
  nChild = pgref_test_children(pid, aChild, 32);
  ASSERT_GT(nChild, 0);
  kill(-pidTest, SIGKILL);
  waitpid(pidTest, NULL, 0);
  t0 = timer_now();
  for (;;) {
    int bAny = pgref_test_alive(pid);
    for (int i = 0; i < nChild; i++) bAny |= pgref_test_alive(aChild[i]);
    if (!bAny) break;
    if (timer_now() - t0 > 30) FAIL("a server process outlived its killed test");
    usleep(10000);
  }
  {
    struct shmid_ds ds;
    ASSERT(shmctl(iShm, IPC_STAT, &ds) != 0);
  }
  return 0;
}

/* The SSB queries in PostgreSQL, on starq-gen's .tbl files, against
** starq's engine, starqd (text and type OIDs, through libpq) and SQLite
** on the same rows (the generator's store output with the same seed). */
TEST_IMPL(pgref_ssb_load) {
  static const char *const azQ[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                    "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
  static const char *const azExtra[] = {
      "SELECT count(*), sum(lo_revenue), min(lo_orderdate), max(lo_commitdate) FROM lineorder",
      "SELECT d_year, d_yearmonth, count(*) FROM date GROUP BY d_year, d_yearmonth",
      "SELECT c_city, c_phone, c_mktsegment FROM customer WHERE c_custkey < 30",
      "SELECT p_mfgr, p_category, p_brand1, p_size, p_container FROM part WHERE p_partkey < 50",
      "SELECT s_name, s_address, s_city FROM supplier",
      "SELECT d_datekey, d_date, d_sellingseason, d_holidayfl FROM date"
      " WHERE d_datekey BETWEEN DATE '1996-02-25' AND DATE '1996-03-02'",
  };
  const char *argv[] = {"starq-gen", "--sf", "0.01", "--out", "tbl", "-q", NULL};
  exectest t;
  pgref *p;
  starqd_proc d;
  PGconn *pStarqd;
  char zErr[2048], zDiff[2048];
  double t0;
  int nRows = 0;

  exectest_open(&t, "0.01");
  test_run_ok(argv);
  starqd_start(&d, "data", NULL);
  pStarqd = starqd_connect(&d);
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  t0 = timer_now();
  CALL_OK(pgref_load_ssb(p, "tbl", zErr, sizeof(zErr)));
  printf("SF 0.01 loaded into PostgreSQL in %.2f s\n", timer_now() - t0);

  for (size_t i = 0; i < sizeof(azQ) / sizeof(azQ[0]) + sizeof(azExtra) / sizeof(azExtra[0]);
       i++) {
    char zRel[64], *zSql;
    pgref_result *pPg;
    refdb_result *pLite, *pStarq;
    sql_error e;
    if (i < sizeof(azQ) / sizeof(azQ[0])) {
      snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", azQ[i]);
      zSql = test_file_read(test_src(zRel), NULL);
    } else {
      zSql = strdup(azExtra[i - sizeof(azQ) / sizeof(azQ[0])]);
    }
    CALL_OK(pgref_query(p, zSql, &pPg, zErr, sizeof(zErr)));
    CALL_OK(refdb_query(t.pRef, zSql, &pLite, zErr, sizeof(zErr)));
    if (exectest_run(&t, zSql, &pStarq, &e) != 0) FAIL("starq: %s: %s %s", zSql, e.zState, e.zMsg);
    /* Unordered: ORDER BY may leave ties, which engines break apart. */
    if (refdb_result_compare(pPg->pRows, pLite, 0, zDiff, sizeof(zDiff)) != 0) {
      FAIL("PostgreSQL and SQLite differ on %s\n%s", zSql, zDiff);
    }
    if (refdb_result_compare(pPg->pRows, pStarq, 0, zDiff, sizeof(zDiff)) != 0) {
      FAIL("PostgreSQL and starq differ on %s\n%s", zSql, zDiff);
    }
    /* And through starqd: the same text and the same column types. */
    {
      PGresult *res = PQexec(pStarqd, zSql);
      pgref_result *pWire;
      if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("starqd: %s: %s", zSql, PQerrorMessage(pStarqd));
      pWire = pgref_result_from_pg(res);
      ASSERT(pWire != NULL);
      if (pgref_result_compare(pPg, pWire, 0, 1, zDiff, sizeof(zDiff)) != 0) {
        FAIL("PostgreSQL and starqd differ on %s\n%s", zSql, zDiff);
      }
      pgref_result_free(pWire);
      PQclear(res);
    }
    nRows += (int)pPg->pRows->nRow;
    pgref_result_free(pPg);
    refdb_result_free(pLite);
    refdb_result_free(pStarq);
    free(zSql);
  }
  ASSERT_GT(nRows, 500);
  PQfinish(pStarqd);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(p);
  exectest_close(&t);
  return 0;
}
