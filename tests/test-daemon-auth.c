/*
** tests/test-daemon-auth.c — passwords in starqd: the password file's
** reader (server/auth.c) on good and bad files, `starqd --hash-password`,
** and a live starqd with --auth scram (libpq, a raw SCRAM client that
** reads the SQLSTATE, the real psql, SIGHUP reloads), the default
** trust-loopback policy (from a non-loopback address when the host has
** one), the warning for --auth trust beyond loopback, and the files and
** flags that stop the start.
*/
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../server/auth.h"
#include "../server/pgwire.h"
#include "../server/scram.h"
#include "http-fixture.h"
#include "pgclient.h"
#include "promcheck.h"
#include "starqd-fixture.h"
#include "test.h"

/* A verifier PostgreSQL 15 made: `CREATE ROLE alice LOGIN PASSWORD
** 'pg-made secret'` under password_encryption scram-sha-256, then
** pg_authid.rolpassword. Logging in with it checks starq's reading of
** PostgreSQL's stored form against PostgreSQL itself. */
#define AUTHTEST_PG_PASSWORD "pg-made secret"
#define AUTHTEST_PG_VERIFIER                                                               \
  "SCRAM-SHA-256$4096:Fdpisd0DFG774jh53b/84w==$jTSaKN+/gOWqqVOr0InwOKHypXHv0ZYadwkrZS8Nogo=:" \
  "YoarTzx5VKDzBnDuoB1rhfDPWbHe3XUPcVc+gTeM4xM="

/* Writes z to file zPath with mode iMode. */
static void authtest_write(const char *zPath, const char *z, int iMode) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  ASSERT_EQ(fwrite(z, 1, strlen(z), f), strlen(z));
  ASSERT_EQ(fclose(f), 0);
  ASSERT_EQ(chmod(zPath, (mode_t)iMode), 0);
}

/* Returns a verifier of zPassword (malloc'd) made in this process. */
static char *authtest_verifier(const char *zPassword) {
  char z[SCRAM_VERIFIER_MAX];
  ASSERT_EQ(scram_verifier_make(zPassword, NULL, 0, SCRAM_ITERATIONS, z, sizeof(z)), 0);
  return strdup(z);
}

/* Runs `starqd --hash-password zUser` with zPassword (and what follows it,
** as given) on its stdin; returns the exit code, output in *p. */
static int authtest_hash(test_proc *p, const char *zUser, const char *zStdin) {
  const char *argv[] = {"/bin/sh", "-c", "exec \"$0\" --hash-password $1 < hash.in",
                        test_bin("starqd"), zUser, NULL};
  authtest_write("hash.in", zStdin, 0600);
  return test_run(p, argv);
}

/* ---- the password file ------------------------------------------------------ */

/* Loads a file holding z (mode iMode) and requires the error zWant. */
static void authtest_file_refused(const char *z, int iMode, const char *zWant) {
  auth_file *p = (auth_file *)1;
  char zErr[1024];
  authtest_write("pw.bad", z, iMode);
  if (auth_file_load("pw.bad", &p, zErr, sizeof(zErr)) == 0) FAIL("loaded:\n%s", z);
  ASSERT(p == NULL);
  if (strstr(zErr, zWant) == NULL) FAIL("wanted \"%s\", got \"%s\"", zWant, zErr);
  ASSERT(strstr(zErr, "hunter2") == NULL);   /* a refused password is never quoted */
  ASSERT_EQ(unlink("pw.bad"), 0);
}

/* Returns 1 if zAddr (an IPv4 or IPv6 literal) is loopback to auth.h. */
static int authtest_loopback(const char *zAddr) {
  struct sockaddr_storage ss;
  memset(&ss, 0, sizeof(ss));
  if (inet_pton(AF_INET, zAddr, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
    ss.ss_family = AF_INET;
  } else {
    ASSERT_EQ(inet_pton(AF_INET6, zAddr, &((struct sockaddr_in6 *)&ss)->sin6_addr), 1);
    ss.ss_family = AF_INET6;
  }
  return auth_addr_loopback((struct sockaddr *)&ss);
}

TEST_IMPL(auth_file_parse) {
  char *zA = authtest_verifier("alice's password"), *zB = authtest_verifier("bob's");
  char zFile[2048], zOut[SCRAM_VERIFIER_MAX], zErr[1024];
  auth_file *p;

  /* Comments, blank lines, white space, CRLF; lookups by exact name. */
  snprintf(zFile, sizeof(zFile),
           "# starq users\n\n   \t\n  bob : %s  \r\n# alice below\nalice:%s\n"
           "Alice Smith:%s", zB, zA, zB);
  authtest_write("pw", zFile, 0600);
  CALL_OK(auth_file_load("pw", &p, zErr, sizeof(zErr)));
  ASSERT_EQ(auth_file_count(p), 3);
  ASSERT_EQ(auth_file_verifier(p, "alice", zOut, sizeof(zOut)), 0);
  ASSERT_STR_EQ(zOut, zA);
  ASSERT_EQ(auth_file_verifier(p, "bob", zOut, sizeof(zOut)), 0);
  ASSERT_STR_EQ(zOut, zB);
  ASSERT_EQ(auth_file_verifier(p, "Alice Smith", zOut, sizeof(zOut)), 0);
  ASSERT_STR_EQ(zOut, zB);
  ASSERT_EQ(auth_file_verifier(p, "ALICE", zOut, sizeof(zOut)), -1);
  ASSERT_EQ(auth_file_verifier(p, "carol", zOut, sizeof(zOut)), -1);
  ASSERT_EQ(auth_file_verifier(p, "", zOut, sizeof(zOut)), -1);
  ASSERT_EQ(auth_file_verifier(p, "alice", zOut, 10), -1);   /* does not fit */
  auth_file_free(p);
  ASSERT_EQ(auth_file_verifier(NULL, "alice", zOut, sizeof(zOut)), -1);
  ASSERT_EQ(auth_file_count(NULL), 0);

  /* PostgreSQL's stored form, as pg_authid holds it. */
  authtest_write("pw", "pg:" AUTHTEST_PG_VERIFIER "\n", 0600);
  CALL_OK(auth_file_load("pw", &p, zErr, sizeof(zErr)));
  ASSERT_EQ(auth_file_verifier(p, "pg", zOut, sizeof(zOut)), 0);
  ASSERT_STR_EQ(zOut, AUTHTEST_PG_VERIFIER);
  auth_file_free(p);

  /* Group read is refused to the owner (0640 passes only for a file root
  ** owns when starqd is not root); read-only passes; an empty file has no
  ** users. */
  snprintf(zFile, sizeof(zFile), "pg:%s\n", zA);
  authtest_write("pw", zFile, 0640);
  {
    CALL_ERR(auth_file_load("pw", &p, zErr, sizeof(zErr)),
             "password file pw: has group or world access (mode 0640); it must be u=rw (0600) or "
             "less when owned by starqd's user, or u=rw,g=r (0640) or less when owned by root: "
             "chmod 600 pw");
  }
  ASSERT_EQ(chmod("pw", 0400), 0);
  CALL_OK(auth_file_load("pw", &p, zErr, sizeof(zErr)));
  ASSERT_EQ(auth_file_count(p), 1);
  auth_file_free(p);
  authtest_write("pw", "# nobody yet\n", 0600);
  CALL_OK(auth_file_load("pw", &p, zErr, sizeof(zErr)));
  ASSERT_EQ(auth_file_count(p), 0);
  auth_file_free(p);

  /* Refused, with the line. */
  snprintf(zFile, sizeof(zFile), "alice:%s\n# two\nbob:hunter2\n", zA);
  authtest_file_refused(zFile, 0600,
                        "password file pw.bad:3: user \"bob\": a plaintext password is not "
                        "accepted; store its SCRAM-SHA-256 verifier instead (starqd "
                        "--hash-password bob makes one)");
  authtest_file_refused("bob:SCRAM-SHA-256$4096:c2FsdA==$hunter2:abc\n", 0600,
                        "password file pw.bad:1: user \"bob\": malformed SCRAM-SHA-256 verifier");
  authtest_file_refused("bob:SCRAM-SHA-256$0:c2FsdA==$AAAA:AAAA\n", 0600,
                        "pw.bad:1: user \"bob\": malformed SCRAM-SHA-256 verifier");
  authtest_file_refused("bob:md5a3556571e93b0d20722ba62be61e8c2d\n", 0600,
                        "pw.bad:1: user \"bob\": an MD5 hash; starq takes SCRAM-SHA-256 "
                        "verifiers only");
  authtest_file_refused("\n\nhunter2\n", 0600,
                        "pw.bad:3: expected user:SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:"
                        "<ServerKey>");
  authtest_file_refused("bob:\n", 0600, "pw.bad:1: user \"bob\" has no verifier");
  snprintf(zFile, sizeof(zFile), ":%s\n", zA);
  authtest_file_refused(zFile, 0600, "pw.bad:1: the user name is empty");
  snprintf(zFile, sizeof(zFile), "%064d:%s\n", 7, zA);
  authtest_file_refused(zFile, 0600, "pw.bad:1: the user name is longer than 63 bytes");
  snprintf(zFile, sizeof(zFile), "bo\bb:%s\n", zA);
  authtest_file_refused(zFile, 0600, "pw.bad:1: the user name contains a control character");
  snprintf(zFile, sizeof(zFile), "alice:%s\nbob:%s\nalice:%s\n", zA, zB, zB);
  authtest_file_refused(zFile, 0600, "pw.bad:3: user \"alice\" is listed again (first on line 1)");
  {
    FILE *f = fopen("pw", "w");
    ASSERT(f != NULL);
    ASSERT_EQ(fwrite("# x\nalice:SCRAM\0:hunter2\n", 1, 25, f), 25);
    ASSERT_EQ(fclose(f), 0);
    ASSERT_EQ(chmod("pw", 0600), 0);
    CALL_ERR(auth_file_load("pw", &p, zErr, sizeof(zErr)), "password file pw:2: a NUL byte in the line");
  }
  snprintf(zFile, sizeof(zFile), "alice:%s\n", zA);
  authtest_file_refused(zFile, 0644, "pw.bad: has group or world access (mode 0644)");
  authtest_file_refused(zFile, 0604, "pw.bad: has group or world access (mode 0604)");
  CALL_ERR(auth_file_load("missing", &p, zErr, sizeof(zErr)),
           "password file missing: cannot open: No such file or directory");
  ASSERT_EQ(mkdir("adir", 0700), 0);
  CALL_ERR(auth_file_load("adir", &p, zErr, sizeof(zErr)), "password file adir: not a regular file");

  /* User names, and which peers count as loopback. */
  ASSERT(auth_user_check("starq") == NULL);
  ASSERT(auth_user_check("a b") == NULL);
  ASSERT_STR_EQ(auth_user_check("a:b"), "contains ':'");
  ASSERT(authtest_loopback("127.0.0.1") && authtest_loopback("127.9.8.7"));
  ASSERT(authtest_loopback("::1") && authtest_loopback("::ffff:127.0.0.1"));
  ASSERT(!authtest_loopback("10.0.0.1") && !authtest_loopback("0.0.0.0"));
  ASSERT(!authtest_loopback("::ffff:10.0.0.1") && !authtest_loopback("2001:db8::1"));
  ASSERT(!authtest_loopback("::") && !authtest_loopback("128.0.0.1"));
  free(zA);
  free(zB);
  return 0;
}

/* starqd --hash-password: the line a password file takes, a fresh salt
** each time; bad input gets exit 1 or 2. */
TEST_IMPL(auth_hash_password) {
  test_proc p;
  char zErr[256], zOut[SCRAM_VERIFIER_MAX];
  auth_file *pf;
  scram_verifier v;
  char *zFirst;
  ASSERT_EQ(authtest_hash(&p, "alice", "correct horse\nignored\n"), 0);
  ASSERT_EQ(strncmp(p.zOut, "alice:SCRAM-SHA-256$4096:", 25), 0);
  ASSERT_EQ(p.zOut[strlen(p.zOut) - 1], '\n');
  p.zOut[strlen(p.zOut) - 1] = 0;
  ASSERT_EQ(scram_verifier_parse(strchr(p.zOut, ':') + 1, &v), 0);
  ASSERT_EQ(v.nIter, 4096);
  ASSERT_EQ(v.nSalt, 16);
  /* The line loads, and proves the password: the same salt and
  ** iterations give the same verifier only for the same password. */
  authtest_write("pw", p.zOut, 0600);
  CALL_OK(auth_file_load("pw", &pf, zErr, sizeof(zErr)));
  ASSERT_EQ(auth_file_verifier(pf, "alice", zOut, sizeof(zOut)), 0);
  auth_file_free(pf);
  {
    char zMine[SCRAM_VERIFIER_MAX];
    ASSERT_EQ(scram_verifier_make("correct horse", v.aSalt, v.nSalt, 4096, zMine, sizeof(zMine)), 0);
    ASSERT_STR_EQ(zMine, zOut);
    ASSERT_EQ(scram_verifier_make("correct horsE", v.aSalt, v.nSalt, 4096, zMine, sizeof(zMine)), 0);
    ASSERT(strcmp(zMine, zOut) != 0);
  }
  zFirst = strdup(p.zOut);
  test_proc_free(&p);
  /* No newline at the end, a CR before it: the same password; a new salt. */
  ASSERT_EQ(authtest_hash(&p, "alice", "correct horse\r\n"), 0);
  ASSERT(strncmp(p.zOut, "alice:SCRAM-SHA-256$4096:", 25) == 0 && strcmp(p.zOut, zFirst) != 0);
  test_proc_free(&p);
  free(zFirst);
  ASSERT_EQ(authtest_hash(&p, "", "x"), 0);   /* no user: starq */
  ASSERT_EQ(strncmp(p.zOut, "starq:SCRAM-SHA-256$4096:", 25), 0);
  test_proc_free(&p);

  ASSERT_EQ(authtest_hash(&p, "alice", ""), 1);
  ASSERT(strstr(p.zErr, "no password: the input ended first") != NULL);
  ASSERT_STR_EQ(p.zOut, "");
  test_proc_free(&p);
  ASSERT_EQ(authtest_hash(&p, "alice", "\n"), 1);
  ASSERT(strstr(p.zErr, "an empty password is not accepted") != NULL);
  test_proc_free(&p);
  {
    char *zLong = malloc(AUTH_PASSWORD_MAX + 3);
    ASSERT(zLong != NULL);
    memset(zLong, 'x', AUTH_PASSWORD_MAX + 1);
    strcpy(zLong + AUTH_PASSWORD_MAX + 1, "\n");
    ASSERT_EQ(authtest_hash(&p, "alice", zLong), 1);
    ASSERT(strstr(p.zErr, "the password is longer than 1024 bytes") != NULL);
    test_proc_free(&p);
    free(zLong);
  }
  ASSERT_EQ(authtest_hash(&p, "a:b", "x\n"), 2);
  ASSERT(strstr(p.zErr, "the user name contains ':'") != NULL);
  test_proc_free(&p);
  ASSERT_EQ(authtest_hash(&p, "alice extra", "x\n"), 2);   /* two arguments */
  ASSERT(strstr(p.zErr, "usage: starqd --hash-password [USER]") != NULL);
  test_proc_free(&p);
  {
    const char *argv[] = {"starqd", "--data-dir", "x", "--hash-password", NULL};
    ASSERT_EQ(test_run(&p, argv), 2);
    ASSERT(strstr(p.zErr, "--hash-password takes no other flags") != NULL);
    test_proc_free(&p);
  }
  return 0;
}

/* ---- a live daemon ------------------------------------------------------------ */

/* Logs in to port iPort as zUser with zPassword by SCRAM-SHA-256 over a
** raw socket, and returns the summary (pgclient.h) of what the server
** said after the client's proof; the error's fields are in *pc. */
static const char *authtest_scram(pgc *pc, int iPort, const char *zUser, const char *zPassword) {
  const char *azKV[] = {"user", zUser, "database", "starq", NULL};
  const char *zFirst = "n,,n=,r=rOprNGfwEbeRWgbNEkqO";
  int fd = http_client_connect(iPort);
  strbuf m, in, final, want;
  strbuf_init(&m);
  strbuf_init(&in);
  strbuf_init(&final);
  strbuf_init(&want);
  memset(pc, 0, sizeof(*pc));
  pgc_startup(&m, PGWIRE_PROTOCOL_3_0, azKV);
  pgc_sasl_initial(&m, "SCRAM-SHA-256", zFirst, (int)strlen(zFirst));
  http_client_send(fd, m.z, m.n);
  ASSERT_EQ(starqd_msg_read(fd, &in), 0);
  ASSERT_STR_EQ(pgc_summarize(pc, (unsigned char *)in.z, in.n), "R(10:SCRAM-SHA-256)");
  strbuf_reset(&in);
  ASSERT_EQ(starqd_msg_read(fd, &in), 0);
  ASSERT_STR_EQ(pgc_summarize(pc, (unsigned char *)in.z, in.n), "R(11)");
  pgc_scram_final(zPassword, zFirst + 3, strbuf_str(&in) + 9, &final, &want);
  strbuf_reset(&m);
  pgc_sasl_response(&m, final.z, final.n);
  http_client_send(fd, m.z, m.n);
  /* Everything up to ReadyForQuery, or to the close after a FATAL. */
  strbuf_reset(&in);
  for (;;) {
    size_t iAt = in.n;
    const unsigned char *a;
    if (starqd_msg_read(fd, &in) != 0) break;
    a = (const unsigned char *)in.z + iAt;
    if (a[0] == 'R' && pgwire_get_u32(a + 5) == PGWIRE_AUTH_SASL_FINAL) {
      ASSERT_EQ(in.n - iAt - 9, want.n);   /* the server proves it knows the key */
      ASSERT_EQ(memcmp(a + 9, want.z, want.n), 0);
    }
    if (a[0] == 'Z') break;
  }
  close(fd);
  pgc_summarize(pc, (unsigned char *)in.z, in.n);
  strbuf_free(&m);
  strbuf_free(&in);
  strbuf_free(&final);
  strbuf_free(&want);
  return pc->zSummary;
}

/* Connects with zInfo's extras and fails unless the login fails with a
** message holding zWant. */
static void authtest_refused(const starqd_proc *d, const char *zInfo, const char *zWant) {
  PGconn *c = starqd_connect_info(d, zInfo);
  if (PQstatus(c) == CONNECTION_OK || strstr(PQerrorMessage(c), zWant) == NULL) {
    FAIL("%s: wanted \"%s\", got: %s", zInfo, zWant,
         PQstatus(c) == CONNECTION_OK ? "logged in" : PQerrorMessage(c));
  }
  PQfinish(c);
}

/* Connects with zInfo's extras, runs a query and checks its answer
** against the same query run in this process. */
static void authtest_query(const starqd_proc *d, const char *zInfo) {
  PGconn *c = starqd_connect_info(d, zInfo);
  if (PQstatus(c) != CONNECTION_OK) FAIL("%s: %s", zInfo, PQerrorMessage(c));
  starqd_query_check(c, "data",
                     "SELECT s_region, count(*) FROM supplier GROUP BY s_region ORDER BY 1");
  PQfinish(c);
}

/* Runs the real psql as zUser with PGPASSWORD zPassword; returns its exit
** code, output in *p. */
static int authtest_psql(test_proc *p, const starqd_proc *d, const char *zUser,
                         const char *zPassword) {
  char zPort[16];
  const char *argv[] = {"/usr/bin/psql", "-X", "-w", "-A", "-t", "-h", "127.0.0.1", "-p", zPort,
                        "-U", zUser, "-d", "starq", "-c", "SELECT count(*) FROM part", NULL};
  int rc;
  snprintf(zPort, sizeof(zPort), "%d", d->iPort);
  setenv("PGPASSWORD", zPassword, 1);
  rc = test_run(p, argv);
  unsetenv("PGPASSWORD");
  return rc;
}

/* Waits up to 30 s for the daemon's log to hold zWant. */
static void authtest_log_wait(const starqd_proc *d, const char *zWant) {
  for (int i = 0; i < 300; i++) {
    char *z = starqd_log(d);
    int bFound = strstr(z, zWant) != NULL;
    free(z);
    if (bFound) return;
    usleep(100 * 1000);
  }
  FAIL("the daemon never logged \"%s\"", zWant);
}

/* Keeps libpq from a password the test did not give it. */
static void authtest_env(void) {
  unsetenv("PGPASSWORD");
  unsetenv("PGSERVICE");
  setenv("PGPASSFILE", "no-pgpass", 1);
  setenv("PGCONNECT_TIMEOUT", "10", 1);
}

/* Writes the password file "pw" from `starqd --hash-password` for each
** "user:password" of azPair (NULL-terminated), plus zExtra lines. */
static void authtest_pwfile(const char *const *azPair, const char *zExtra) {
  strbuf s;
  strbuf_init(&s);
  strbuf_puts(&s, "# written by the test\n");
  for (int i = 0; azPair[i] != NULL; i++) {
    char zUser[64];
    const char *zColon = strchr(azPair[i], ':');
    test_proc p;
    snprintf(zUser, sizeof(zUser), "%.*s", (int)(zColon - azPair[i]), azPair[i]);
    ASSERT_EQ(authtest_hash(&p, zUser, zColon + 1), 0);
    strbuf_puts(&s, p.zOut);
    test_proc_free(&p);
  }
  strbuf_puts(&s, zExtra);
  authtest_write("pw.new", strbuf_str(&s), 0600);
  ASSERT_EQ(rename("pw.new", "pw"), 0);   /* whole, as an operator's editor would */
  strbuf_free(&s);
}

TEST_IMPL(daemon_auth_scram) {
  static const char *const azExtra[] = {"--auth", "scram", "--password-file", "pw", NULL};
  static const char *const azUsers[] = {"alice:pencil-42", "bob:tr0ub4dor&3", NULL};
  starqd_proc d;
  pgc pc;
  test_proc p;
  char zMsgAlice[256];
  authtest_env();
  starqd_data("data");
  authtest_pwfile(azUsers, "pg:" AUTHTEST_PG_VERIFIER "\n");
  starqd_start(&d, "data", azExtra);

  /* libpq: the right password gets in and queries; a wrong one, an
  ** unknown user and no password do not, even from loopback. */
  authtest_query(&d, "user=alice password=pencil-42");
  authtest_query(&d, "user=bob password=tr0ub4dor&3");
  authtest_query(&d, "user=pg password='" AUTHTEST_PG_PASSWORD "'");
  authtest_refused(&d, "user=alice password=pencil-43",
                   "FATAL:  password authentication failed for user \"alice\"");
  authtest_refused(&d, "user=bob password=pencil-42",
                   "FATAL:  password authentication failed for user \"bob\"");
  authtest_refused(&d, "user=mallory password=pencil-42",
                   "FATAL:  password authentication failed for user \"mallory\"");
  {
    PGconn *c = starqd_connect_info(&d, "user=alice");
    ASSERT_EQ(PQstatus(c), CONNECTION_BAD);
    ASSERT(PQconnectionNeedsPassword(c));
    if (strstr(PQerrorMessage(c), "no password supplied") == NULL) FAIL("%s", PQerrorMessage(c));
    PQfinish(c);
  }

  /* On the wire: 28P01 for a wrong password, and for an unknown user the
  ** same exchange, code and message, so user names cannot be probed. */
  ASSERT_EQ(strncmp(authtest_scram(&pc, d.iPort, "alice", "pencil-42"), "R(12) R(0) ", 11), 0);
  ASSERT(strstr(pc.zSummary, " Z(I)") != NULL);
  ASSERT_STR_EQ(authtest_scram(&pc, d.iPort, "alice", "pencil-4"), "FATAL(28P01)");
  ASSERT_STR_EQ(pc.zErrMsg, "password authentication failed for user \"alice\"");
  snprintf(zMsgAlice, sizeof(zMsgAlice), "%s", pc.zErrMsg);
  ASSERT_STR_EQ(authtest_scram(&pc, d.iPort, "mallory", "pencil-42"), "FATAL(28P01)");
  ASSERT_STR_EQ(pc.zErrMsg, "password authentication failed for user \"mallory\"");
  ASSERT_STR_EQ(pc.zErrDetail, "");
  ASSERT_EQ(strlen(pc.zErrMsg) - strlen("mallory"), strlen(zMsgAlice) - strlen("alice"));

  /* The real psql, with PGPASSWORD. */
  if (access("/usr/bin/psql", X_OK) != 0) FAIL("psql is missing (scripts/setup.sh installs it)");
  ASSERT_EQ(authtest_psql(&p, &d, "alice", "pencil-42"), 0);
  ASSERT_STR_EQ(p.zOut, "2000\n");   /* SF 0.01 has 2000 parts: checked by libpq above */
  test_proc_free(&p);
  ASSERT_EQ(authtest_psql(&p, &d, "alice", "wrong"), 2);
  if (strstr(p.zErr, "password authentication failed for user \"alice\"") == NULL) {
    FAIL("psql said:\n%s", p.zErr);
  }
  test_proc_free(&p);

  /* SIGHUP reads the file again: a new user gets in, a removed one not;
  ** a bad file is logged and the users before it stay. */
  authtest_pwfile((const char *const[]){"alice:pencil-42", "carol:c4rol!", NULL}, "");
  ASSERT_EQ(kill(d.pid, SIGHUP), 0);
  authtest_log_wait(&d, "password file pw reloaded: 2 users");
  authtest_query(&d, "user=carol password=c4rol!");
  authtest_refused(&d, "user=bob password=tr0ub4dor&3",
                   "password authentication failed for user \"bob\"");
  authtest_pwfile((const char *const[]){"alice:pencil-42", NULL}, "dave:hunter2\n");
  ASSERT_EQ(kill(d.pid, SIGHUP), 0);
  authtest_log_wait(&d, "keeping the 2 users loaded before");
  authtest_query(&d, "user=carol password=c4rol!");
  {
    char *z = starqd_log(&d);
    ASSERT(strstr(z, "pw:3: user \"dave\": a plaintext password is not accepted") != NULL);
    ASSERT(strstr(z, "hunter2") == NULL);
    ASSERT(strstr(z, "authentication: scram") != NULL);
    free(z);
  }
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* Returns a non-loopback IPv4 address of this host that is up into zOut,
** or 0 if it has none. */
static int authtest_other_addr(char *zOut, size_t nOut) {
  struct ifaddrs *pList, *p;
  int bFound = 0;
  ASSERT_EQ(getifaddrs(&pList), 0);
  for (p = pList; p != NULL && !bFound; p = p->ifa_next) {
    if (p->ifa_addr == NULL || p->ifa_addr->sa_family != AF_INET) continue;
    if (!(p->ifa_flags & IFF_UP) || (p->ifa_flags & IFF_LOOPBACK)) continue;
    if (auth_addr_loopback(p->ifa_addr)) continue;
    ASSERT(inet_ntop(AF_INET, &((struct sockaddr_in *)p->ifa_addr)->sin_addr, zOut,
                     (socklen_t)nOut) != NULL);
    bFound = 1;
  }
  freeifaddrs(pList);
  return bFound;
}

/* The default, trust-loopback: loopback clients without a password,
** others (from a non-loopback address of this host, if it has one) only
** with one. --auth trust beyond loopback: a loud warning, and no
** password asked of anyone. */
TEST_IMPL(daemon_auth_policies) {
  static const char *const azDefault[] = {"--listen", "0.0.0.0", "--password-file", "pw", NULL};
  static const char *const azTrust[] = {"--listen", "0.0.0.0", "--auth", "trust", NULL};
  starqd_proc d;
  char zAddr[64], zInfo[256];
  int bOther = authtest_other_addr(zAddr, sizeof(zAddr));
  char *z;
  authtest_env();
  starqd_data("data");
  authtest_pwfile((const char *const[]){"alice:pencil-42", NULL}, "");

  starqd_start(&d, "data", azDefault);
  authtest_query(&d, "");                              /* user starq, no password */
  authtest_query(&d, "user=alice");
  if (bOther) {
    snprintf(zInfo, sizeof(zInfo), "host=%s user=alice", zAddr);
    authtest_refused(&d, zInfo, "no password supplied");
    snprintf(zInfo, sizeof(zInfo), "host=%s user=alice password=wrong", zAddr);
    authtest_refused(&d, zInfo, "password authentication failed for user \"alice\"");
    snprintf(zInfo, sizeof(zInfo), "host=%s user=starq password=pencil-42", zAddr);
    authtest_refused(&d, zInfo, "password authentication failed for user \"starq\"");
    snprintf(zInfo, sizeof(zInfo), "host=%s user=alice password=pencil-42", zAddr);
    authtest_query(&d, zInfo);
  } else {
    fprintf(stderr, "daemon_auth_policies: no non-loopback address here: the remote half "
                    "was not run\n");
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  z = starqd_log(&d);
  ASSERT(strstr(z, "authentication: trust-loopback") != NULL);
  ASSERT(strstr(z, "WITHOUT A PASSWORD") == NULL);
  free(z);

  starqd_start(&d, "data", azTrust);
  z = starqd_log(&d);
  if (strstr(z, "WARN  ") == NULL ||
      strstr(z, "--auth trust on 0.0.0.0, which is not a loopback address: ANYONE who can "
                "reach port ") == NULL || strstr(z, "WITHOUT A PASSWORD") == NULL) {
    FAIL("no warning:\n%s", z);
  }
  free(z);
  if (bOther) {
    snprintf(zInfo, sizeof(zInfo), "host=%s user=anyone", zAddr);
    authtest_query(&d, zInfo);
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  starqd_expected_close();
  return 0;
}

/* Password files and flags that stop the start: exit 1 (2 for flags)
** with the file and line, before any port is bound. */
TEST_IMPL(daemon_auth_bad_files) {
  static const char *const azWhy[] = {
      "password file pw-plain:3: user \"bob\": a plaintext password is not accepted",
      "password file pw-malformed:2: user \"bob\": malformed SCRAM-SHA-256 verifier",
      "password file pw-missing: cannot open: No such file or directory",
      "password file pw-open: has group or world access (mode 0644)",
  };
  static const char *const azFile[] = {"pw-plain", "pw-malformed", "pw-missing", "pw-open"};
  char *zA = authtest_verifier("x"), zBuf[1024];
  test_proc p;
  snprintf(zBuf, sizeof(zBuf), "alice:%s\n\nbob:hunter2\n", zA);
  authtest_write("pw-plain", zBuf, 0600);
  snprintf(zBuf, sizeof(zBuf), "alice:%s\nbob:%.60s\n", zA, zA);
  authtest_write("pw-malformed", zBuf, 0600);
  snprintf(zBuf, sizeof(zBuf), "alice:%s\n", zA);
  authtest_write("pw-open", zBuf, 0644);
  for (int i = 0; i < 4; i++) {
    const char *argv[] = {"starqd", "--data-dir", "nodata", "--port", "0", "--http-port", "0",
                          "--auth", "scram", "--password-file", azFile[i], NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    if (strstr(p.zErr, azWhy[i]) == NULL || strstr(p.zErr, "SQL on") != NULL ||
        strstr(p.zErr, "hunter2") != NULL) {
      FAIL("%s: starqd said:\n%s", azFile[i], p.zErr);
    }
    test_proc_free(&p);
  }
  /* Flags: exit 2 and the usage. */
  {
    const char *argvNoFile[] = {"starqd", "--data-dir", "nodata", "--auth", "scram", NULL};
    const char *argvBad[] = {"starqd", "--data-dir", "nodata", "--auth", "md5", NULL};
    ASSERT_EQ(test_run(&p, argvNoFile), 2);
    ASSERT(strstr(p.zErr, "--auth scram needs --password-file") != NULL);
    ASSERT(strstr(p.zErr, "usage: starqd") != NULL);
    test_proc_free(&p);
    ASSERT_EQ(test_run(&p, argvBad), 2);
    ASSERT(strstr(p.zErr, "auth: expected trust-loopback, scram or trust, got \"md5\"") != NULL);
    test_proc_free(&p);
  }
  /* The config file takes the same keys. */
  authtest_write("starqd.conf", "auth = scram\npassword-file = pw-plain\n", 0600);
  {
    const char *argv[] = {"starqd", "--data-dir", "nodata", "--port", "0", "--http-port", "0",
                          "--config", "starqd.conf", NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    ASSERT(strstr(p.zErr, azWhy[0]) != NULL);
    test_proc_free(&p);
  }
  free(zA);
  return 0;
}

/* --log-connections, --log-min-duration-statement 0 and --log-statement
** ddl: a connection, its login, a failed login (counted in /metrics), a
** statement with its duration, a failing one with its SQLSTATE and the
** disconnection with the session's time are logged, in text and in
** JSON; a SELECT is not a DDL statement, a CREATE is. */
TEST_IMPL(daemon_log_lines) {
  static const char *const azUsers[] = {"alice:pencil-42", NULL};
  const char *azExtra[] = {"--auth", "scram", "--password-file", "pw", "--log-connections", "1",
                           "--log-min-duration-statement", "0", "--log-statement", "ddl",
                           "--log-format", "text", NULL};
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  char *zLog, *zResp;
  double v = -1;
  authtest_env();
  starqd_data("data");
  authtest_pwfile(azUsers, "");
  starqd_start(&d, "data", azExtra);
  authtest_refused(&d, "user=alice password=wrong", "password authentication failed");
  authtest_query(&d, "user=alice password=pencil-42");
  c = starqd_connect_info(&d, "user=alice password=pencil-42");
  ASSERT_EQ(PQstatus(c), CONNECTION_OK);
  res = PQexec(c, "SELECT no_such_column FROM supplier");
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "42703");
  PQclear(res);
  res = PQexec(c, "CREATE TABLE t_log (a int)");
  PQclear(res);
  PQfinish(c);
  authtest_log_wait(&d, "disconnection: session time: 0:00:");
  zLog = starqd_log(&d);
  {
    static const char *const azWant[] = {
        "LOG   [", "connection received: host=127.0.0.1 port=",
        "alice@starq 127.0.0.1:", "connection authorized: user=alice database=starq",
        "FATAL: password authentication failed for user \"alice\" (SQLSTATE 28P01)",
        "duration: ", "statement: SELECT s_region, count(*) FROM supplier",
        "ERROR: column \"no_such_column\" does not exist (SQLSTATE 42703)",
        "STATEMENT: SELECT no_such_column FROM supplier",
        "statement: CREATE TABLE t_log (a int)", "user=alice database=starq host=127.0.0.1 port=",
        NULL};
    for (int i = 0; azWant[i] != NULL; i++) {
      if (strstr(zLog, azWant[i]) == NULL) FAIL("\"%s\" is not in the log:\n%s", azWant[i], zLog);
    }
    /* log-statement ddl: a SELECT is logged for its duration only. */
    ASSERT(strstr(zLog, "] statement: SELECT") == NULL);
  }
  free(zLog);
  zResp = http_get(d.iHttpPort, "/metrics");
  ASSERT_EQ(promcheck_value(http_resp_body(zResp), "starq_login_failures_total", &v), 0);
  ASSERT(v == 1);
  free(zResp);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);

  /* The same as JSON objects, one a line, with the session's facts. */
  azExtra[11] = "json";
  starqd_start(&d, "data", azExtra);
  authtest_query(&d, "user=alice password=pencil-42");
  authtest_log_wait(&d, "\"message\":\"disconnection: session time: 0:00:");
  zLog = starqd_log(&d);
  ASSERT(strstr(zLog, "\"error_severity\":\"LOG\"") != NULL);
  ASSERT(strstr(zLog, "\"user\":\"alice\",\"dbname\":\"starq\",\"remote_host\":\"127.0.0.1\"") !=
         NULL);
  ASSERT(strstr(zLog, "\"message\":\"connection authorized: user=alice database=starq") != NULL);
  ASSERT(strstr(zLog, "\"duration_ms\":") != NULL);
  free(zLog);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
