/*
** tests/clients/test-clients.c — the real tools, installed from Debian,
** against starqd and against PostgreSQL 15 (tests/pgref.h) on the same SSB
** data with the same keys: SQLAlchemy 1.4 with pandas (sqla.py), pgjdbc's
** DatabaseMetaData and parameters (Meta.java), psycopg 2 and 3's COPY
** forms that tests/test-daemon-cursor.c leaves out (psyco.py), and
** node-postgres with Date parameters (pg.js) where Debian's node-pg is
** installed. Each client script prints one block per client call,
** "### label" then the answer or the error; PostgreSQL's blocks decide.
**
** Known gaps. A call starq cannot answer yet is named in the test's gap
** list, and the README's client table says so. Its block must still differ
** from PostgreSQL's (the test fails once it agrees, so the list shrinks as
** starq grows); every other block must be PostgreSQL's, byte for byte.
*/
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "../pgref.h"
#include "../starqd-fixture.h"
#include "../test.h"

/* Both servers on the same data; the libpq connections are not kept. */
static void clients_start(starqd_proc *d, pgref **pp) {
  PGconn *pPg, *pSq;
  starqd_pgref_start(d, pp, &pPg, &pSq);
  PQfinish(pPg);
  PQfinish(pSq);
  starqd_pgref_keys(*pp);
}

/* PostgreSQL's folder of its Unix socket, from its conninfo "host=DIR ...". */
static void clients_pg_dir(const pgref *p, char *zDir, size_t nDir) {
  const char *z = pgref_conninfo(p);
  size_t n = strcspn(z + 5, " ");
  ASSERT(strncmp(z, "host=", 5) == 0 && n < nDir);
  memcpy(zDir, z + 5, n);
  zDir[n] = 0;
}

/* Runs argv and returns what it printed (malloc'd); fails the test unless
** it exits 0. */
static char *clients_run(const char *const *argv) {
  test_proc p;
  char *z;
  if (test_run(&p, argv) != 0) FAIL("%s %s exited %d:\n%s%s", argv[0], argv[1], p.rc, p.zOut, p.zErr);
  z = strdup(p.zOut);
  test_proc_free(&p);
  return z;
}

/*
** Comparing the blocks.
*/

/* The block labelled zLabel in z ("### zLabel\n" up to the next "### " or
** the end), or NULL: *pn gets its length. */
static const char *clients_block(const char *z, const char *zLabel, size_t *pn) {
  size_t nLabel = strlen(zLabel);
  for (const char *p = z; (p = strstr(p, "### ")) != NULL; p += 4) {
    if ((p == z || p[-1] == '\n') && strncmp(p + 4, zLabel, nLabel) == 0 && p[4 + nLabel] == '\n') {
      const char *zBody = p + 4 + nLabel + 1, *zEnd = strstr(zBody, "\n### ");
      *pn = zEnd ? (size_t)(zEnd + 1 - zBody) : strlen(zBody);
      return zBody;
    }
  }
  return NULL;
}

static int clients_is_gap(const char *zLabel, const char *const *azGap) {
  for (int i = 0; azGap[i] != NULL; i++) {
    if (strcmp(azGap[i], zLabel) == 0) return 1;
  }
  return 0;
}

/* Compares starqd's output zSq with PostgreSQL's zPg block by block (see
** the file's comment); zClient names the script in messages. Returns the
** number of blocks compared. */
static int clients_compare(const char *zClient, const char *zPg, const char *zSq,
                           const char *const *azGap) {
  int nBlock = 0;
  for (int i = 0; azGap[i] != NULL; i++) {
    size_t n;
    if (clients_block(zPg, azGap[i], &n) == NULL) FAIL("%s: gap \"%s\" names no call", zClient, azGap[i]);
  }
  for (const char *p = zPg; (p = strstr(p, "### ")) != NULL; p += 4) {
    char zLabel[256];
    size_t nLabel = strcspn(p + 4, "\n"), nPg, nSq;
    const char *zBodyPg, *zBodySq;
    if (p != zPg && p[-1] != '\n') continue;
    ASSERT(nLabel < sizeof(zLabel));
    memcpy(zLabel, p + 4, nLabel);
    zLabel[nLabel] = 0;
    zBodyPg = clients_block(zPg, zLabel, &nPg);
    zBodySq = clients_block(zSq, zLabel, &nSq);
    if (strncmp(zBodyPg, "ERROR", 5) == 0) FAIL("%s: PostgreSQL failed %s: %.*s", zClient, zLabel, (int)nPg, zBodyPg);
    if (zBodySq == NULL) FAIL("%s: starqd's output has no %s:\n%s", zClient, zLabel, zSq);
    int bSame = nPg == nSq && memcmp(zBodyPg, zBodySq, nPg) == 0;
    if (clients_is_gap(zLabel, azGap)) {
      if (bSame) FAIL("%s: %s now answers as PostgreSQL does: take it off the gap list", zClient, zLabel);
      fprintf(stderr, "%s: known gap %s: %.*s", zClient, zLabel, (int)strcspn(zBodySq, "\n") + 1, zBodySq);
    } else if (!bSame) {
      FAIL("%s: %s\nPostgreSQL:\n%.*s\nstarqd:\n%.*s", zClient, zLabel, (int)nPg, zBodyPg, (int)nSq, zBodySq);
    }
    nBlock++;
  }
  return nBlock;
}

/*
** A TCP door to PostgreSQL for pgjdbc, which speaks TCP only: pgref's
** server listens on a Unix socket alone. One connection at a time, bytes
** copied both ways until either side closes.
*/
typedef struct clients_door clients_door;
struct clients_door {
  int fdListen;            /* 127.0.0.1, any free port */
  int iPort;
  char zSock[200];         /* PostgreSQL's socket file */
  pthread_t thread;
};

/* Copies from one socket to the other until either closes. */
static void clients_door_pump(int fdA, int fdB) {
  struct pollfd a[2] = {{fdA, POLLIN, 0}, {fdB, POLLIN, 0}};
  char buf[65536];
  for (;;) {
    if (poll(a, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; i++) {
      if (a[i].revents == 0) continue;
      ssize_t n = read(a[i].fd, buf, sizeof(buf));
      if (n <= 0) return;
      for (ssize_t off = 0; off < n;) {
        ssize_t w = write(a[1 - i].fd, buf + off, (size_t)(n - off));
        if (w <= 0) return;
        off += w;
      }
    }
  }
}

static void *clients_door_main(void *pArg) {
  clients_door *p = pArg;
  int fdIn;
  while ((fdIn = accept(p->fdListen, NULL, NULL)) >= 0) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fdPg = socket(AF_UNIX, SOCK_STREAM, 0);
    snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p->zSock);
    if (fdPg >= 0 && connect(fdPg, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
      clients_door_pump(fdIn, fdPg);
    }
    if (fdPg >= 0) close(fdPg);
    close(fdIn);
  }
  return NULL;
}

static void clients_door_open(clients_door *p, const pgref *pRef) {
  struct sockaddr_in sa = {.sin_family = AF_INET};
  socklen_t n = sizeof(sa);
  char zDir[160];
  clients_pg_dir(pRef, zDir, sizeof(zDir));
  snprintf(p->zSock, sizeof(p->zSock), "%s/.s.PGSQL.5432", zDir);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT((p->fdListen = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
  ASSERT_EQ(bind(p->fdListen, (struct sockaddr *)&sa, sizeof(sa)), 0);
  ASSERT_EQ(listen(p->fdListen, 4), 0);
  ASSERT_EQ(getsockname(p->fdListen, (struct sockaddr *)&sa, &n), 0);
  p->iPort = ntohs(sa.sin_port);
  ASSERT_EQ(pthread_create(&p->thread, NULL, clients_door_main, p), 0);
}

/* Wakes the accept() (shutdown of a listening socket ends it) and joins. */
static void clients_door_close(clients_door *p) {
  shutdown(p->fdListen, SHUT_RDWR);
  ASSERT_EQ(pthread_join(p->thread, NULL), 0);
  close(p->fdListen);
}

/*
** The tests: one client script, run against PostgreSQL and then starqd.
*/

/* How a script is told where its server is. */
typedef enum clients_addr {
  CLIENTS_HOST_PORT,       /* two arguments: host (or socket folder), port */
  CLIENTS_CONNINFO,        /* one libpq conninfo */
  CLIENTS_JDBC,            /* one JDBC URL; PostgreSQL through a clients_door */
} clients_addr;

typedef struct clients_spec clients_spec;
struct clients_spec {
  const char *zScript;     /* tests/clients/<zScript> */
  const char *azRun[4];    /* the program and its options before the script, NULL-ended */
  clients_addr eAddr;
  const char *zMust;       /* a text PostgreSQL's output must hold: the script did its work */
  int nMinBlock;           /* at least this many calls compared */
  const char *const *azGap;  /* the known gaps, NULL-ended */
};

/* Runs p's script with the server's address of kind p->eAddr (host and
** port, or a socket folder for PostgreSQL) and returns its output. */
static char *clients_script(const clients_spec *p, const char *zHost, int iPort) {
  const char *argv[10];
  char zPort[16], zInfo[256];
  int n = 0;
  for (int i = 0; p->azRun[i] != NULL; i++) argv[n++] = p->azRun[i];
  argv[n++] = test_src(p->zScript);
  snprintf(zPort, sizeof(zPort), "%d", iPort);
  switch (p->eAddr) {
    case CLIENTS_HOST_PORT:
      argv[n++] = zHost;
      argv[n++] = zPort;
      break;
    case CLIENTS_CONNINFO:
      snprintf(zInfo, sizeof(zInfo), "host=%s port=%d user=starq dbname=starq", zHost, iPort);
      argv[n++] = zInfo;
      break;
    case CLIENTS_JDBC:
      snprintf(zInfo, sizeof(zInfo), "jdbc:postgresql://%s:%d/starq", zHost, iPort);
      argv[n++] = zInfo;
      break;
  }
  argv[n] = NULL;
  return clients_run(argv);
}

/* Both servers on the same data, p's script against each, the blocks
** compared. */
static void clients_test(const clients_spec *p) {
  starqd_proc d;
  pgref *pRef;
  char zDir[160], *zPg, *zSq;
  clients_start(&d, &pRef);
  if (p->eAddr == CLIENTS_JDBC) {
    clients_door door;
    clients_door_open(&door, pRef);
    zPg = clients_script(p, "127.0.0.1", door.iPort);
    clients_door_close(&door);
  } else {
    clients_pg_dir(pRef, zDir, sizeof(zDir));
    zPg = clients_script(p, zDir, 5432);
  }
  zSq = clients_script(p, "127.0.0.1", d.iPort);
  if (strstr(zPg, p->zMust) == NULL) FAIL("%s: PostgreSQL's output lacks %s:\n%s", p->zScript, p->zMust, zPg);
  ASSERT_GE(clients_compare(p->zScript, zPg, zSq, p->azGap), p->nMinBlock);
  free(zPg);
  free(zSq);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(pRef);
}

/* SQLAlchemy's inspector and pandas through a psycopg2 engine. */
TEST_IMPL(clients_sqlalchemy) {
  static const char *const azGap[] = {
      /* pg_catalog.pg_sequence, json_build_object and pg_get_serial_sequence
      ** in the correlated subquery of identity_options */
      "get_columns customer", "get_columns lineorder", "get_columns public.part",
      "Table lineorder autoload", "read_sql_table customer", "read_sql_table date columns",
      /* unnest(int2vector) and generate_subscripts() in the select list */
      "get_pk_constraint customer", "get_pk_constraint lineorder",
      NULL,
  };
  static const clients_spec spec = {"tests/clients/sqla.py", {"/usr/bin/python3", NULL},
                                    CLIENTS_HOST_PORT, "'name': 'lineorder_pkey'", 28, azGap};
  clients_test(&spec);
  return 0;
}

/* pgjdbc: DatabaseMetaData, date and timestamp parameters, a fetch size;
** java runs the source file, one JVM per server. */
TEST_IMPL(clients_jdbc) {
  static const char *const azGap[] = {
      /* (information_schema._pg_expandarray(i.indkey)).n: field selection */
      "getPrimaryKeys lineorder", "getPrimaryKeys date", "getIndexInfo part",
      NULL,
  };
  static const clients_spec spec = {
      "tests/clients/Meta.java", {"/usr/bin/java", "-cp", "/usr/share/java/postgresql.jar", NULL},
      CLIENTS_JDBC, "lineorder_lo_custkey_fkey", 18, azGap};
  clients_test(&spec);
  return 0;
}

/* psycopg 2 and 3: the COPY forms, cursors and parameters that
** tests/test-daemon-cursor.c leaves out. */
TEST_IMPL(clients_psycopg) {
  static const char *const azGap[] = {NULL};
  static const clients_spec spec = {"tests/clients/psyco.py", {"/usr/bin/python3", NULL},
                                    CLIENTS_CONNINFO, "(2557, (datetime.date(1998, 12, 31), 1998))",
                                    8, azGap};
  clients_test(&spec);
  return 0;
}

/* node-postgres: Date parameters, a named statement, pg-cursor. Debian's
** node-pg lives in /usr/share/nodejs (NODE_PATH, where it is set, names
** another folder); a machine whose nodejs is not Debian's cannot install
** it (scripts/setup.sh), and there the test says so and passes. */
TEST_IMPL(clients_node) {
  static const char *const azGap[] = {NULL};
  static const clients_spec spec = {"tests/clients/pg.js", {"/usr/bin/node", NULL},
                                    CLIENTS_HOST_PORT, "1997-12-30|Wednesday", 5, azGap};
  const char *zModules = getenv("NODE_PATH") != NULL ? getenv("NODE_PATH") : "/usr/share/nodejs";
  char zPath[512];
  snprintf(zPath, sizeof(zPath), "%s/pg/package.json", zModules);
  if (!test_file_exists(zPath) || !test_file_exists("/usr/bin/node")) {
    fprintf(stderr, "clients_node: skipped: no node-pg in %s (scripts/setup.sh says why)\n", zModules);
    return 0;
  }
  ASSERT_EQ(setenv("NODE_PATH", zModules, 1), 0);
  clients_test(&spec);
  return 0;
}
