/*
** tests/pgref.c — a PostgreSQL 15 server for a test (pgref.h): a cluster
** made or copied into a scratch folder, the server started as a child in
** the test's process group (as an unprivileged user when the test is
** root), libpq queries, results as text; pgref-load.c loads tables.
**
** It knows nothing of starq's engine: what it takes from starq is a table
** definition (names and types, the catalog's cat_table) so that the same
** query text runs on both. The rows come from the generator's files
** through PostgreSQL's own COPY, never from starq's loader.
**
** INTERFACE ROUTINES
**   pgref_start, pgref_stop, pgref_timings, pgref_conn, pgref_conninfo,
**   pgref_exec, pgref_query, pgref_eval, pgref_result_from_pg, pgref_result_free,
**   pgref_result_compare (tables and data: pgref-load.c)
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "../common/strbuf.h"
#include "../common/timer.h"
#include "../ssb-data/schema.h"
#include "pgref.h"
#include "pgrefInt.h"

/* Debian's layout: the server programs are not on PATH. */
#define PGREF_BINDIR "/usr/lib/postgresql/15/bin"
/* The template's name in the run's cache directory (major version: a
** cluster of another major version does not start). */
#define PGREF_TEMPLATE "starq-pgref-15"
/* How long a busy machine may take to start the server. */
#define PGREF_START_SECONDS 120.0


void pgref_err(char *zErr, size_t nErr, const char *zFmt, ...) {
  va_list ap;
  va_start(ap, zFmt);
  vsnprintf(zErr, nErr, zFmt, ap);
  va_end(ap);
}

/* Appends the last lines of log file zPath (at most ~1.5 KB) to zErr. */
static void pgref_err_log(char *zErr, size_t nErr, const char *zPath) {
  size_t n = 0, nUsed = strlen(zErr);
  char *z = fsdir_read_file(zPath, &n);
  const char *zTail;
  if (z == NULL) return;
  zTail = n > 1500 ? z + n - 1500 : z;
  snprintf(zErr + nUsed, nErr > nUsed ? nErr - nUsed : 0, "\n%s:\n%s", zPath, zTail);
  free(z);
}

/* ---- running PostgreSQL's programs ------------------------------------- */

/* Decides who runs the server: root cannot, so the package's "postgres"
** user (or nobody); anyone else runs it as themselves. Returns 0 or -1. */
static int pgref_user_pick(pgref *p, char *zErr, size_t nErr) {
  const struct passwd *pw;
  if (geteuid() != 0) return 0;
  pw = getpwnam("postgres");
  if (pw == NULL) pw = getpwnam("nobody");
  if (pw == NULL) {
    pgref_err(zErr, nErr, "running as root and there is no postgres or nobody user to run "
              "PostgreSQL as (initdb and postgres refuse root)");
    return -1;
  }
  p->bSwitch = 1;
  p->uid = pw->pw_uid;
  p->gid = pw->pw_gid;
  return 0;
}

/* Starts argv[0] (a path) with stdin from /dev/null and stdout and
** stderr appended to zLog, in zDir, as the server's user when bAsServer
** (else as ourselves), in our process group, with no descriptor of ours
** but those three. Returns the pid, or -1 with zErr. */
static pid_t pgref_spawn(const pgref *p, const char *const *argv, const char *zLog,
                         int bAsServer, char *zErr, size_t nErr) {
  static const char zExecFail[] = "pgref: exec failed\n", zUidFail[] = "pgref: setuid failed\n";
  int fdLog = open(zLog, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644), nEnv = 0;
  const char **azEnv;
  pid_t pid;
  if (fdLog < 0) {
    pgref_err(zErr, nErr, "open %s: %s", zLog, strerror(errno));
    return -1;
  }
  if (bAsServer && p->bSwitch && fchown(fdLog, p->uid, p->gid) != 0) {
    pgref_err(zErr, nErr, "chown %s: %s", zLog, strerror(errno));
    close(fdLog);
    return -1;
  }
  /* The child's environment, made before fork: the test may have threads
  ** (a CPU pool), and a child of a threaded process must not allocate.
  ** Locale C for initdb's messages and defaults (the server's settings
  ** are on its command line); no PGDATA or PGOPTIONS of the caller's. */
  while (environ[nEnv]) nEnv++;
  azEnv = calloc((size_t)nEnv + 2, sizeof(char *));
  if (azEnv == NULL) {
    pgref_err(zErr, nErr, "out of memory");
    close(fdLog);
    return -1;
  }
  nEnv = 0;
  for (char **e = environ; *e; e++) {
    if (strncmp(*e, "LC_ALL=", 7) && strncmp(*e, "PGDATA=", 7) && strncmp(*e, "PGOPTIONS=", 10)) {
      azEnv[nEnv++] = *e;
    }
  }
  azEnv[nEnv++] = "LC_ALL=C";
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    pgref_err(zErr, nErr, "fork: %s", strerror(errno));
    close(fdLog);
    free(azEnv);
    return -1;
  }
  if (pid == 0) {
    /* Only async-signal-safe calls from here on. */
    int fdNull = open("/dev/null", O_RDONLY);
    if (fdNull < 0 || dup2(fdNull, 0) < 0 || dup2(fdLog, 1) < 0 || dup2(fdLog, 2) < 0) _exit(126);
    close_range(3, ~0u, 0);
    if (bAsServer && p->bSwitch &&
        (setgroups(0, NULL) != 0 || setgid(p->gid) != 0 || setuid(p->uid) != 0)) {
      if (write(2, zUidFail, sizeof(zUidFail) - 1) < 0) _exit(126);
      _exit(126);
    }
    if (chdir(p->zDir) != 0) _exit(126);
    execve(argv[0], (char *const *)argv, (char *const *)azEnv);
    if (write(2, zExecFail, sizeof(zExecFail) - 1) < 0) _exit(127);
    _exit(127);
  }
  close(fdLog);
  free(azEnv);
  return pid;
}

/* Runs argv to completion (pgref_spawn). Returns 0 if it exited 0, else
** -1 with zErr naming the program and ending with its log's tail. */
static int pgref_run(const pgref *p, const char *const *argv, const char *zLog, int bAsServer,
                     char *zErr, size_t nErr) {
  int status;
  pid_t pid = pgref_spawn(p, argv, zLog, bAsServer, zErr, nErr);
  if (pid < 0) return -1;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      pgref_err(zErr, nErr, "waitpid: %s", strerror(errno));
      return -1;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  pgref_err(zErr, nErr, "%s failed (status 0x%x)", argv[0], (unsigned)status);
  pgref_err_log(zErr, nErr, zLog);
  return -1;
}

/* ---- the folder -------------------------------------------------------- */

/* Makes zDir (absolute in p->zDir) the server user's, and every folder
** between it and the current directory searchable by others (o+x, not
** readable): the runner's scratch directory is 0700 and root's. Folders
** above the current directory are not changed; one the user cannot
** search is an error. Returns 0 or -1. */
static int pgref_folder_open(pgref *p, char *zErr, size_t nErr) {
  char zCwd[PATH_MAX], zUp[PATH_MAX];
  if (!p->bSwitch) return 0;
  if (chown(p->zDir, p->uid, p->gid) != 0 || chmod(p->zDir, 0700) != 0) {
    pgref_err(zErr, nErr, "chown %s: %s", p->zDir, strerror(errno));
    return -1;
  }
  if (getcwd(zCwd, sizeof(zCwd)) == NULL) zCwd[0] = 0;
  snprintf(zUp, sizeof(zUp), "%s", p->zDir);
  for (;;) {
    char *zSlash = strrchr(zUp, '/');
    struct stat st;
    size_t nCwd = strlen(zCwd);
    int bMine;
    if (zSlash == NULL) break;
    if (zSlash == zUp) zSlash[1] = 0;
    else *zSlash = 0;
    if (stat(zUp, &st) != 0) {
      pgref_err(zErr, nErr, "stat %s: %s", zUp, strerror(errno));
      return -1;
    }
    /* At or below the current directory: the test's own scratch. */
    bMine = nCwd > 1 && strncmp(zUp, zCwd, nCwd) == 0 && (zUp[nCwd] == 0 || zUp[nCwd] == '/');
    if (!(st.st_mode & S_IXOTH) && !(st.st_uid == p->uid && (st.st_mode & S_IXUSR)) &&
        !(st.st_gid == p->gid && (st.st_mode & S_IXGRP))) {
      if (!bMine) {
        pgref_err(zErr, nErr, "%s: uid %d (who runs PostgreSQL) cannot search it; "
                  "use a folder under one it can", zUp, (int)p->uid);
        return -1;
      }
      if (chmod(zUp, (st.st_mode & 07777) | S_IXOTH) != 0) {
        pgref_err(zErr, nErr, "chmod o+x %s: %s", zUp, strerror(errno));
        return -1;
      }
    }
    if (strcmp(zUp, "/") == 0) break;
  }
  return 0;
}

/* ---- the cluster ------------------------------------------------------- */

/* Returns the run's template folder in z (the run's cache directory), or
** NULL when the run has none. */
static const char *pgref_template_path(char *z, size_t n) {
  const char *zCache = getenv("XDG_CACHE_HOME");
  if (zCache == NULL || zCache[0] != '/') return NULL;
  snprintf(z, n, "%s/" PGREF_TEMPLATE, zCache);
  return z;
}

/* Copies folder zFrom to zTo with cp -a (modes and, as root, owners
** kept). Returns 0 or -1. */
static int pgref_copy_tree(const pgref *p, const char *zFrom, const char *zTo, char *zErr,
                           size_t nErr) {
  const char *argv[] = {"/bin/cp", "-a", zFrom, zTo, NULL};
  char zLog[PATH_MAX + 16];
  snprintf(zLog, sizeof(zLog), "%s/cp.log", p->zDir);
  return pgref_run(p, argv, zLog, 0, zErr, nErr);
}

/* Publishes zData as the run's template: copied to a fresh folder beside
** the template's name, then renamed onto it in one step; if another test
** published first, ours is removed. Failing to publish is not an error
** (later starts initdb again). */
static void pgref_template_publish(const pgref *p, const char *zTemplate) {
  char zTmp[PATH_MAX], zTo[PATH_MAX + 8], zErr[256];
  snprintf(zTmp, sizeof(zTmp), "%s.XXXXXX", zTemplate);
  if (mkdtemp(zTmp) == NULL) return;
  snprintf(zTo, sizeof(zTo), "%s/data", zTmp);
  if (pgref_copy_tree(p, p->zData, zTo, zErr, sizeof(zErr)) != 0 ||
      rename(zTmp, zTemplate) != 0) {
    fsdir_remove(zTmp);
  }
}

/* Makes p->zData: a copy of the run's template if there is one, else
** initdb (then published as the template). Returns 0 or -1. */
static int pgref_cluster_make(pgref *p, char *zErr, size_t nErr) {
  char zTemplate[PATH_MAX], zFrom[PATH_MAX + 8], zLog[PATH_MAX + 16];
  const char *zTpl = pgref_template_path(zTemplate, sizeof(zTemplate));
  double t0 = timer_now();
  if (zTpl != NULL) {
    snprintf(zFrom, sizeof(zFrom), "%s/data", zTpl);
    if (access(zFrom, F_OK) == 0 && pgref_copy_tree(p, zFrom, p->zData, zErr, nErr) == 0) {
      p->timing.bTemplate = 1;
      p->timing.rInitdb = timer_now() - t0;
      return 0;
    }
    fsdir_remove(p->zData);
  }
  {
    const char *argv[] = {PGREF_BINDIR "/initdb", "-D", p->zData, "--no-sync", "-A", "trust",
                          "-E", "UTF8", "--locale=C", "-U", "starq", "--no-instructions",
                          "--wal-segsize=1", NULL};
    snprintf(zLog, sizeof(zLog), "%s/initdb.log", p->zDir);
    if (pgref_run(p, argv, zLog, 1, zErr, nErr) != 0) return -1;
  }
  if (zTpl != NULL) pgref_template_publish(p, zTpl);
  p->timing.rInitdb = timer_now() - t0;
  return 0;
}

/* Marks the server's System V interlock segment (postmaster.pid's line 7,
** "key id") for removal: the kernel frees it when the last server process
** detaches, so a test killed with its group leaks nothing. PostgreSQL
** only looks the segment up by key when it starts, which it has done. */
static void pgref_shm_release(const pgref *p) {
  char zPath[PATH_MAX + 32], *z, *zLine;
  long iKey, iId;
  snprintf(zPath, sizeof(zPath), "%s/postmaster.pid", p->zData);
  z = fsdir_read_file(zPath, NULL);
  if (z == NULL) return;
  zLine = z;
  for (int i = 0; i < 6 && zLine != NULL; i++) {
    zLine = strchr(zLine, '\n');
    if (zLine != NULL) zLine++;
  }
  if (zLine != NULL && sscanf(zLine, "%ld %ld", &iKey, &iId) == 2 && iId >= 0) {
    shmctl((int)iId, IPC_RMID, NULL);
  }
  free(z);
}

/* Starts the postmaster on p->zData and waits until it accepts
** connections to database "postgres". Returns 0 or -1. */
static int pgref_server_start(pgref *p, char *zErr, size_t nErr) {
  char zSock[PATH_MAX + 32], zLog[PATH_MAX + 16], zInfo[PATH_MAX + 64];
  const char *argv[64];
  int n = 0;
  double t0 = timer_now();
  static const char *const azSetting[] = {
      "listen_addresses=", "port=5432", "fsync=off", "full_page_writes=off",
      "synchronous_commit=off", "wal_level=minimal", "max_wal_senders=0",
      "shared_buffers=32MB", "max_connections=20", "dynamic_shared_memory_type=mmap",
      "max_parallel_workers_per_gather=0", "jit=off", "autovacuum=off",
      "unix_socket_permissions=0777", "lc_messages=C", "TimeZone=UTC",
      "DateStyle=ISO, MDY", "IntervalStyle=postgres", "log_min_messages=warning",
      "logging_collector=off"};
  snprintf(zSock, sizeof(zSock), "unix_socket_directories=%s", p->zDir);
  argv[n++] = PGREF_BINDIR "/postgres";
  argv[n++] = "-D";
  argv[n++] = p->zData;
  argv[n++] = "-c";
  argv[n++] = zSock;
  for (size_t i = 0; i < sizeof(azSetting) / sizeof(azSetting[0]); i++) {
    argv[n++] = "-c";
    argv[n++] = azSetting[i];
  }
  argv[n] = NULL;
  snprintf(zLog, sizeof(zLog), "%s/postgres.log", p->zDir);
  p->pid = pgref_spawn(p, argv, zLog, 1, zErr, nErr);
  if (p->pid < 0) {
    p->pid = 0;
    return -1;
  }
  snprintf(zInfo, sizeof(zInfo), "host=%s port=5432 user=starq dbname=postgres", p->zDir);
  for (;;) {
    int status;
    if (PQping(zInfo) == PQPING_OK) break;
    if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
      p->pid = 0;
      pgref_err(zErr, nErr, "postgres exited while starting (status 0x%x)", (unsigned)status);
      pgref_err_log(zErr, nErr, zLog);
      return -1;
    }
    if (timer_now() - t0 > PGREF_START_SECONDS) {
      pgref_err(zErr, nErr, "postgres did not accept connections within %.0f s",
                PGREF_START_SECONDS);
      pgref_err_log(zErr, nErr, zLog);
      return -1;
    }
    usleep(20 * 1000);
  }
  p->timing.rStart = timer_now() - t0;
  pgref_shm_release(p);
  return 0;
}

int pgref_start(pgref **pp, const char *zDir, char *zErr, size_t nErr) {
  pgref *p;
  PGconn *c;
  double t0;
  *pp = NULL;
  if (access(PGREF_BINDIR "/postgres", X_OK) != 0) {
    pgref_err(zErr, nErr, "%s/postgres: %s (PostgreSQL 15 is Debian's postgresql-15, "
              "which scripts/setup.sh installs)", PGREF_BINDIR, strerror(errno));
    return -1;
  }
  p = calloc(1, sizeof(*p));
  if (p == NULL) {
    pgref_err(zErr, nErr, "out of memory");
    return -1;
  }
  if (fsdir_mkdir_p(zDir, zErr, nErr) != 0) goto out_free;
  if (realpath(zDir, p->zDir) == NULL) {
    pgref_err(zErr, nErr, "realpath %s: %s", zDir, strerror(errno));
    goto out_free;
  }
  /* The socket's path must fit in sun_path (107 bytes). */
  if (strlen(p->zDir) > 80) {
    pgref_err(zErr, nErr, "%s: too long for a Unix socket's folder", p->zDir);
    goto out_free;
  }
  snprintf(p->zData, sizeof(p->zData), "%s/data", p->zDir);
  snprintf(p->zInfo, sizeof(p->zInfo), "host=%s port=5432 user=starq dbname=starq", p->zDir);
  if (pgref_user_pick(p, zErr, nErr) != 0 || pgref_folder_open(p, zErr, nErr) != 0 ||
      pgref_cluster_make(p, zErr, nErr) != 0 || pgref_server_start(p, zErr, nErr) != 0) {
    goto out_stop;
  }
  t0 = timer_now();
  {
    char zInfo[PATH_MAX + 64];
    snprintf(zInfo, sizeof(zInfo), "host=%s port=5432 user=starq dbname=template1", p->zDir);
    c = PQconnectdb(zInfo);
    if (PQstatus(c) != CONNECTION_OK) {
      pgref_err(zErr, nErr, "connect: %s", PQerrorMessage(c));
      PQfinish(c);
      goto out_stop;
    }
    /* initdb's empty "postgres" database becomes "starq": a rename is a
    ** catalog update, where CREATE DATABASE copies a database (0.2-0.4 s
    ** on a busy machine). */
    PGresult *res = PQexec(c, "ALTER DATABASE postgres RENAME TO starq");
    if (PQresultStatus(res) != PGRES_COMMAND_OK) {
      pgref_err(zErr, nErr, "ALTER DATABASE: %s", PQerrorMessage(c));
      PQclear(res);
      PQfinish(c);
      goto out_stop;
    }
    PQclear(res);
    PQfinish(c);
  }
  p->pConn = PQconnectdb(p->zInfo);
  if (PQstatus(p->pConn) != CONNECTION_OK) {
    pgref_err(zErr, nErr, "connect: %s", PQerrorMessage(p->pConn));
    goto out_stop;
  }
  p->timing.rCreateDb = timer_now() - t0;
  *pp = p;
  return 0;
out_stop:
  pgref_stop(p);
  return -1;
out_free:
  free(p);
  return -1;
}

void pgref_stop(pgref *p) {
  if (p == NULL) return;
  PQfinish(p->pConn);
  if (p->pid > 0) {
    /* Immediate shutdown: the backends go at once, nothing is written. */
    kill(p->pid, SIGQUIT);
    while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR) {
    }
  }
  if (p->zData[0]) fsdir_remove(p->zData);
  free(p);
}

const pgref_timing *pgref_timings(const pgref *p) {
  return &p->timing;
}

PGconn *pgref_conn(pgref *p) {
  return p->pConn;
}

const char *pgref_conninfo(const pgref *p) {
  return p->zInfo;
}

/* ---- statements -------------------------------------------------------- */

/* Writes res's error as "SQLSTATE: message" (the primary message only). */
void pgref_err_result(char *zErr, size_t nErr, const PGresult *res, PGconn *c) {
  const char *zState = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
  const char *zMsg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
  if (zState == NULL || zMsg == NULL) {
    pgref_err(zErr, nErr, "XX000: %s", PQerrorMessage(c));
  } else {
    pgref_err(zErr, nErr, "%s: %s", zState, zMsg);
  }
}

int pgref_exec(pgref *p, const char *zSql, char *zErr, size_t nErr) {
  PGresult *res = PQexec(p->pConn, zSql);
  ExecStatusType e = PQresultStatus(res);
  int rc = 0;
  if (e != PGRES_COMMAND_OK && e != PGRES_TUPLES_OK && e != PGRES_EMPTY_QUERY) {
    pgref_err_result(zErr, nErr, res, p->pConn);
    rc = -1;
  }
  PQclear(res);
  return rc;
}

pgref_result *pgref_result_from_pg(const PGresult *res) {
  int nCol = PQnfields(res), nRow = PQntuples(res);
  pgref_result *p = calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->pRows = refdb_result_new(nCol);
  p->aiType = calloc((size_t)nCol + 1, sizeof(unsigned));
  if (p->pRows == NULL || p->aiType == NULL) goto out_free;
  for (int c = 0; c < nCol; c++) {
    unsigned iType = (unsigned)PQftype(res, c);
    p->aiType[c] = iType;
    /* float4 and float8: two right answers may differ in the last bits. */
    if (refdb_result_set_column(p->pRows, c, PQfname(res, c), iType == 700 || iType == 701)) {
      goto out_free;
    }
  }
  for (int i = 0; i < nRow; i++) {
    for (int c = 0; c < nCol; c++) {
      const char *z = PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
      if (refdb_result_add_cell(p->pRows, z, z ? PQgetlength(res, i, c) : 0) != 0) {
        goto out_free;
      }
    }
  }
  return p;
out_free:
  pgref_result_free(p);
  return NULL;
}

void pgref_result_free(pgref_result *p) {
  if (p == NULL) return;
  refdb_result_free(p->pRows);
  free(p->aiType);
  free(p);
}

int pgref_query(pgref *p, const char *zSql, pgref_result **pp, char *zErr, size_t nErr) {
  PGresult *res = PQexec(p->pConn, zSql);
  ExecStatusType e = PQresultStatus(res);
  *pp = NULL;
  if (e != PGRES_TUPLES_OK && e != PGRES_COMMAND_OK) {
    pgref_err_result(zErr, nErr, res, p->pConn);
    PQclear(res);
    return -1;
  }
  *pp = pgref_result_from_pg(res);
  PQclear(res);
  if (*pp == NULL) {
    pgref_err(zErr, nErr, "out of memory");
    return -1;
  }
  return 0;
}

int pgref_result_compare(const pgref_result *pWant, const pgref_result *pGot, int bOrdered,
                         int bTypes, char *zDiff, size_t nDiff) {
  if (bTypes && pWant->pRows->nCol == pGot->pRows->nCol) {
    for (int c = 0; c < pWant->pRows->nCol; c++) {
      if (pWant->aiType[c] != pGot->aiType[c]) {
        pgref_err(zDiff, nDiff, "column %d (%s): type OID %u expected, got %u", c + 1,
                  pGot->pRows->azName[c] ? pGot->pRows->azName[c] : "?", pWant->aiType[c],
                  pGot->aiType[c]);
        return 1;
      }
    }
  }
  return refdb_result_compare(pWant->pRows, pGot->pRows, bOrdered, zDiff, nDiff);
}

/* The evaluator pgref_eval runs each expression through: an error is
** caught and returned as text, so one bad value does not end the batch. */
static const char pgref_zTry[] =
    "CREATE OR REPLACE FUNCTION pgref_try(e text) RETURNS text LANGUAGE plpgsql AS $f$\n"
    "DECLARE r text;\n"
    "BEGIN\n"
    "  EXECUTE 'SELECT (' || e || E'\\n)::text' INTO r;\n"
    "  RETURN r;\n"
    "EXCEPTION WHEN others THEN\n"
    "  RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;\n"
    "END $f$";

/* Expressions per statement: bounds the statement's text. */
#define PGREF_EVAL_BATCH 4000

int pgref_eval(pgref *p, int n, const char *const *azExpr, char ***pazOut, char *zErr,
               size_t nErr) {
  size_t nText = 0;
  char **az, *zAt;
  strbuf q;
  PGresult **aRes;
  int nBatch = (n + PGREF_EVAL_BATCH - 1) / PGREF_EVAL_BATCH, rc = -1;
  *pazOut = NULL;
  if (pgref_exec(p, pgref_zTry, zErr, nErr) != 0) return -1;
  aRes = calloc((size_t)nBatch + 1, sizeof(PGresult *));
  if (aRes == NULL) {
    pgref_err(zErr, nErr, "out of memory");
    return -1;
  }
  strbuf_init(&q);
  for (int b = 0; b < nBatch; b++) {
    int iEnd = (b + 1) * PGREF_EVAL_BATCH < n ? (b + 1) * PGREF_EVAL_BATCH : n;
    strbuf_reset(&q);
    strbuf_puts(&q, "SELECT pgref_try(e) FROM (VALUES ");
    for (int i = b * PGREF_EVAL_BATCH; i < iEnd; i++) {
      strbuf_printf(&q, "%s(%d, '", i > b * PGREF_EVAL_BATCH ? ", " : "", i);
      for (const char *z = azExpr[i]; *z; z++) {
        if (*z == '\'') strbuf_append(&q, "'", 1);
        strbuf_append(&q, z, 1);
      }
      strbuf_puts(&q, "')");
    }
    strbuf_puts(&q, ") AS v(i, e) ORDER BY i");
    if (strbuf_error(&q)) {
      pgref_err(zErr, nErr, "out of memory");
      goto out_free;
    }
    aRes[b] = PQexec(p->pConn, strbuf_str(&q));
    if (PQresultStatus(aRes[b]) != PGRES_TUPLES_OK || PQntuples(aRes[b]) != iEnd - b * PGREF_EVAL_BATCH) {
      pgref_err_result(zErr, nErr, aRes[b], p->pConn);
      goto out_free;
    }
    for (int i = 0; i < PQntuples(aRes[b]); i++) {
      if (!PQgetisnull(aRes[b], i, 0)) nText += (size_t)PQgetlength(aRes[b], i, 0) + 1;
    }
  }
  /* One block: the pointers, then the strings. */
  az = malloc(sizeof(char *) * (size_t)(n + 1) + nText);
  if (az == NULL) {
    pgref_err(zErr, nErr, "out of memory");
    goto out_free;
  }
  zAt = (char *)(az + n + 1);
  for (int i = 0; i < n; i++) {
    const PGresult *res = aRes[i / PGREF_EVAL_BATCH];
    int iRow = i % PGREF_EVAL_BATCH;
    if (PQgetisnull(res, iRow, 0)) {
      az[i] = NULL;
    } else {
      size_t nLen = (size_t)PQgetlength(res, iRow, 0);
      memcpy(zAt, PQgetvalue(res, iRow, 0), nLen + 1);
      az[i] = zAt;
      zAt += nLen + 1;
    }
  }
  az[n] = NULL;
  *pazOut = az;
  rc = 0;
out_free:
  for (int b = 0; b < nBatch; b++) PQclear(aRes[b]);
  free(aRes);
  strbuf_free(&q);
  return rc;
}
