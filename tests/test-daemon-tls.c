/*
** tests/test-daemon-tls.c — TLS on the SQL port: with --ssl-cert and
** --ssl-key an SSLRequest gets 'S' and libpq (sslmode=verify-full against
** a test CA) and psql (sslmode=require) log in and query over TLS, SCRAM
** bound to the connection (SCRAM-SHA-256-PLUS, channel_binding=require); bytes
** sent in clear behind an SSLRequest end the connection; without the
** flags the answer is 'N' and sslmode=require is refused; a key others
** can read, or one that is not the certificate's, stops the start; pgjdbc
** logs in with sslmode=verify-full.
*/
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "http-fixture.h"
#include "starqd-fixture.h"
#include "test.h"

/* Makes ca.crt and server.crt/server.key (for localhost and 127.0.0.1,
** signed by the CA), and other.key, with the openssl command. */
static void tls_certs_make(void) {
  static const char zScript[] =
      "set -e\n"
      "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 "
      "-subj '/CN=starq test CA' 2>/dev/null\n"
      "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr "
      "-subj /CN=localhost 2>/dev/null\n"
      "echo subjectAltName=DNS:localhost,IP:127.0.0.1 > ext.cnf\n"
      "openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial "
      "-out server.crt -days 2 -extfile ext.cnf 2>/dev/null\n"
      "openssl genpkey -algorithm RSA -out other.key 2>/dev/null\n"
      "chmod 600 server.key other.key\n";
  const char *argv[] = {"/bin/sh", "-c", zScript, NULL};
  test_run_ok(argv);
}

/* Fetches zPath from the status port over HTTPS with curl, checking the
** certificate against the test CA for zHost; the body, malloc'd. */
static char *tls_https_get(const starqd_proc *d, const char *zHost, const char *zPath) {
  char zUrl[256];
  const char *argv[] = {"/usr/bin/curl", "-sS", "--max-time", "30", "--cacert", "ca.crt", zUrl, NULL};
  test_proc p;
  char *z;
  snprintf(zUrl, sizeof(zUrl), "https://%s:%d%s", zHost, d->iHttpPort, zPath);
  if (test_run(&p, argv) != 0) FAIL("curl %s: %s", zUrl, p.zErr);
  z = strdup(p.zOut);
  test_proc_free(&p);
  return z;
}

/* The status port with --http-ssl 1: HTTPS for curl (the certificate
** checked against the test CA), pipelined requests through openssl
** s_client, and nothing for a client speaking plain HTTP. */
static void tls_check_https(const starqd_proc *d) {
  char zCmd[512], *z;
  const char *argv[] = {"/bin/sh", "-c", zCmd, NULL};
  test_proc p;
  z = tls_https_get(d, "localhost", "/livez");
  ASSERT_STR_EQ(z, "ok\n");
  free(z);
  z = tls_https_get(d, "127.0.0.1", "/metrics");
  ASSERT(strstr(z, "starq_build_info{version=") != NULL);
  free(z);
  z = tls_https_get(d, "localhost", "/");                /* the dashboard, many records */
  ASSERT(strstr(z, "</html>") != NULL);
  free(z);
  snprintf(zCmd, sizeof(zCmd),
           "printf 'GET /livez HTTP/1.1\\r\\nHost: a\\r\\n\\r\\nGET /readyz HTTP/1.1\\r\\n"
           "Host: a\\r\\nConnection: close\\r\\n\\r\\n' | timeout 30 openssl s_client -quiet "
           "-connect 127.0.0.1:%d -CAfile ca.crt -verify_return_error 2>/dev/null | grep -c '^HTTP/1.1 200'",
           d->iHttpPort);
  if (test_run(&p, argv) != 0) FAIL("openssl s_client: %s%s", p.zOut, p.zErr);
  ASSERT_STR_EQ(p.zOut, "2\n");
  test_proc_free(&p);
  /* Plain HTTP to it: no answer, the connection closed. */
  {
    static const char zReq[] = "GET /livez HTTP/1.1\r\nHost: a\r\n\r\n";
    int fd = http_client_connect(d->iHttpPort);
    http_client_send(fd, zReq, strlen(zReq));
    ASSERT(http_client_response(fd, 0) == NULL);
    close(fd);
  }
}

/* Runs zSql on a connection made with zInfo; checks TLS is in use as
** bTls says and the answer is the in-process executor's. */
static void tls_query(const starqd_proc *d, const char *zInfo, int bTls, const char *zSql) {
  PGconn *c = starqd_connect_info(d, zInfo);
  if (PQstatus(c) != CONNECTION_OK) FAIL("%s: %s", zInfo, PQerrorMessage(c));
  ASSERT_EQ(PQsslInUse(c), bTls);
  starqd_query_check(c, "data", zSql);
  PQfinish(c);
}

/* Sends an SSLRequest and, in the same write, 8 bytes more; returns the
** server's first byte ('E': refused) and the rest it sent in *pOut. */
static char tls_request_with_extra(const starqd_proc *d, strbuf *pOut) {
  static const unsigned char aMsg[] = {0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f,   /* SSLRequest */
                                       0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f};
  struct sockaddr_in sa;
  struct timeval tv = {10, 0};
  char aBuf[512];
  ssize_t n;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT(fd >= 0);
  memset(&sa, 0, sizeof(sa));
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)d->iPort);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  ASSERT_EQ(send(fd, aMsg, sizeof(aMsg), MSG_NOSIGNAL), (ssize_t)sizeof(aMsg));
  while ((n = recv(fd, aBuf, sizeof(aBuf), 0)) > 0) strbuf_append(pOut, aBuf, (size_t)n);
  close(fd);
  return pOut->n > 0 ? pOut->z[0] : 0;
}

TEST_IMPL(daemon_tls) {
  const char *azTls[] = {"--ssl-cert", "server.crt", "--ssl-key", "server.key",
                         "--log-connections", "1", NULL};
  static const char zSql[] = "SELECT p_partkey, p_name, p_color FROM part ORDER BY p_partkey";
  starqd_proc d;
  PGconn *c;
  strbuf b;
  char *zLog;
  setenv("PGCONNECT_TIMEOUT", "10", 1);
  tls_certs_make();
  starqd_data("data");
  starqd_start(&d, "data", azTls);
  /* 2,000 rows: many TLS records each way. */
  tls_query(&d, "host=localhost sslmode=verify-full sslrootcert=ca.crt", 1, zSql);
  tls_query(&d, "host=127.0.0.1 sslmode=verify-full sslrootcert=ca.crt", 1, zSql);
  tls_query(&d, "sslmode=disable", 0, zSql);   /* clear still works */
  {
    char zPort[16];
    const char *argv[] = {"/usr/bin/psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", zPort, "-U",
                          "starq", "-d", "starq sslmode=require",
                          "-c", "SELECT count(*) FROM part", NULL};
    test_proc p;
    snprintf(zPort, sizeof(zPort), "%d", d.iPort);
    argv[11] = "dbname=starq sslmode=require";
    if (test_run(&p, argv) != 0) FAIL("psql: %s%s", p.zOut, p.zErr);
    ASSERT_STR_EQ(p.zOut, "2000\n");
    test_proc_free(&p);
  }
  strbuf_init(&b);
  ASSERT_EQ(tls_request_with_extra(&d, &b), 'E');
  ASSERT(memmem(b.z, b.n, "received unencrypted data after SSL request", 43) != NULL);
  strbuf_free(&b);
  zLog = starqd_log(&d);
  ASSERT(strstr(zLog, "starqd: TLS on, certificate server.crt") != NULL);
  ASSERT(strstr(zLog, "SSL enabled: TLSv1.") != NULL);
  ASSERT(strstr(zLog, "status on http://") != NULL);   /* no --http-ssl: plain */
  free(zLog);
  zLog = http_get(d.iHttpPort, "/livez");
  ASSERT(strstr(zLog, "\r\n\r\nok\n") != NULL);
  free(zLog);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);

  /* SCRAM-SHA-256-PLUS: libpq binds the password exchange to this TLS
  ** connection (channel_binding=require), and a wrong password still fails. */
  {
    const char *azScram[] = {"--ssl-cert", "server.crt", "--ssl-key", "server.key", "--auth",
                             "scram", "--password-file", "pw", "--http-ssl", "1", NULL};
    const char *argv[] = {"/bin/sh", "-c", "printf 'pencil\\n' | \"$0\" --hash-password alice > pw "
                          "&& chmod 600 pw", test_bin("starqd"), NULL};
    test_run_ok(argv);
    starqd_start(&d, "data", azScram);
    tls_query(&d, "host=localhost user=alice password=pencil sslmode=verify-full "
                  "sslrootcert=ca.crt channel_binding=require", 1, zSql);
    c = starqd_connect_info(&d, "user=alice password=wrong sslmode=require channel_binding=require");
    ASSERT(PQstatus(c) != CONNECTION_OK);
    ASSERT(strstr(PQerrorMessage(c), "password authentication failed") != NULL);
    PQfinish(c);
    tls_check_https(&d);
    ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  }

  /* No TLS set up: 'N', so sslmode=require is refused and prefer is clear. */
  starqd_start(&d, "data", NULL);
  c = starqd_connect_info(&d, "sslmode=require");
  ASSERT(PQstatus(c) != CONNECTION_OK);
  ASSERT(strstr(PQerrorMessage(c), "server does not support SSL") != NULL);
  PQfinish(c);
  tls_query(&d, "sslmode=prefer", 0, "SELECT count(*) FROM supplier");
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);

  /* A key others can read, as PostgreSQL refuses it: no start, and why. */
  {
    const char *argv[] = {"starqd", "--data-dir", "data", "--port", "0", "--http-port", "0",
                          "--ssl-cert", "server.crt", "--ssl-key", "server.key", NULL};
    test_proc p;
    ASSERT_EQ(chmod("server.key", 0644), 0);
    ASSERT(test_run(&p, argv) != 0);
    if (strstr(p.zErr, "--ssl-key server.key: has group or world access") == NULL) {
      FAIL("%s", p.zErr);
    }
    test_proc_free(&p);
    ASSERT_EQ(chmod("server.key", 0600), 0);
  }

  /* HTTPS without a certificate: no start, and why. */
  {
    const char *argv[] = {"starqd", "--data-dir", "data", "--port", "0", "--http-port", "0",
                          "--http-ssl", "1", NULL};
    test_proc p;
    ASSERT(test_run(&p, argv) != 0);
    if (strstr(p.zErr, "--http-ssl 1 needs --ssl-cert and --ssl-key") == NULL) FAIL("%s", p.zErr);
    test_proc_free(&p);
  }

  /* A key that is not the certificate's: no start, and why. */
  {
    const char *argv[] = {"starqd", "--data-dir", "data", "--port", "0", "--http-port", "0",
                          "--ssl-cert", "server.crt", "--ssl-key", "other.key", NULL};
    test_proc p;
    ASSERT(test_run(&p, argv) != 0);
    if (strstr(p.zErr, "--ssl-key other.key") == NULL || strstr(p.zErr, "mismatch") == NULL) {
      FAIL("%s", p.zErr);
    }
    test_proc_free(&p);
  }
  return 0;
}

/* pgjdbc over TLS: sslmode=verify-full against the test CA, through
** tests/jdbc/TlsLogin.java (java runs the source file), and the log says
** the session was encrypted. */
TEST_IMPL(daemon_tls_jdbc) {
  const char *azTls[] = {"--ssl-cert", "server.crt", "--ssl-key", "server.key",
                         "--log-connections", "1", NULL};
  char zUrl[512], zCwd[256];
  starqd_proc d;
  test_proc p;
  char *zLog;
  tls_certs_make();
  starqd_data("data");
  starqd_start(&d, "data", azTls);
  ASSERT(getcwd(zCwd, sizeof(zCwd)) != NULL);
  snprintf(zUrl, sizeof(zUrl),
           "jdbc:postgresql://localhost:%d/starq?sslmode=verify-full&sslrootcert=%s/ca.crt",
           d.iPort, zCwd);
  {
    const char *argv[] = {"/usr/bin/java", "-cp", "/usr/share/java/postgresql.jar",
                          test_src("tests/jdbc/TlsLogin.java"), zUrl, "starq", NULL};
    if (test_run(&p, argv) != 0) FAIL("pgjdbc: %s%s", p.zOut, p.zErr);
  }
  ASSERT_STR_EQ(p.zOut, "rows 20\n");
  test_proc_free(&p);
  zLog = starqd_log(&d);
  ASSERT(strstr(zLog, "connection authorized: user=starq database=starq SSL enabled: TLSv1.") !=
         NULL);
  free(zLog);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
