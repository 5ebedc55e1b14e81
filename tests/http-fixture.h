/*
** tests/http-fixture.h — what the status-port tests share: a stand-in for
** the daemon's state behind http_routes, a status server on a private
** libuv loop running on a thread of its own, and a blocking client that
** reads whole responses.
*/
#ifndef STARQ_TEST_HTTP_FIXTURE_H
#define STARQ_TEST_HTTP_FIXTURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <uv.h>

#include "../server/http-conn.h"
#include "../server/http-route.h"
#include "../server/metrics-starq.h"
#include "../server/status.h"

#define FAKE_VERSION "9.8.7-test"

/* The daemon's state as the routes see it. */
typedef struct fake_daemon fake_daemon;
struct fake_daemon {
  metrics_starq m;
  status_recent *pRing;
  status_table aTable[2];
  atomic_int bReady;
  atomic_int nRefresh;          /* xRefresh calls */
  http_routes routes;           /* callbacks into this struct */
};

void fake_daemon_open(fake_daemon *d);
void fake_daemon_close(fake_daemon *d);

/* A finished query, as an executor thread would report it. */
void fake_daemon_query(fake_daemon *d, const char *zSql, double secDuration, int64_t nBytes);

/* A status server on its own loop and thread. */
typedef struct http_fixture http_fixture;
struct http_fixture {
  fake_daemon d;
  uv_loop_t loop;
  uv_async_t stop;              /* wakes the loop to stop the server */
  pthread_t thread;
  http_server *pSrv;
  int iPort;
};

/* Starts the server on 127.0.0.1, a free port (f->iPort); pCfg may be
** NULL. Fails the test if it cannot. */
void http_fixture_start(http_fixture *f, const http_server_config *pCfg);
/* Stops the server, waits for its thread, frees everything. */
void http_fixture_stop(http_fixture *f);

/* Returns a blocking socket connected to 127.0.0.1:iPort, with a 10 s
** receive timeout; fails the test if it cannot. */
int http_client_connect(int iPort);
/* Sends all n bytes; fails the test if it cannot. */
void http_client_send(int fd, const char *z, size_t n);
/* Reads one whole response (the head, then Content-Length bytes of body
** unless bHead) into a malloc'd string. Returns NULL if the connection
** ends first, without a byte of the response. */
char *http_client_response(int fd, int bHead);
/* Returns 1 if the peer has closed fd (a read returns 0), waiting up to
** 30 s (a busy machine's). */
int http_client_closed(int fd);

/* Response text helpers: the status code; a header's value (copied into
** zOut, "" when absent); the body. */
int http_resp_status(const char *zResp);
void http_resp_header(const char *zResp, const char *zName, char *zOut, size_t nOut);
const char *http_resp_body(const char *zResp);

/* GETs zPath from 127.0.0.1:iPort on a connection of its own and returns
** the whole response (malloc'd); fails the test if none comes. */
char *http_get(int iPort, const char *zPath);
/* The same, returning only the status code. */
int http_get_status(int iPort, const char *zPath);

/* ---- the dashboard in headless Chromium ------------------------------------ */

/* Loads zUrl in headless Chromium (Debian's /usr/bin/chromium, a profile
** in the scratch directory, 8 s of virtual time so the page polls) and
** returns the DOM it dumps (malloc'd). Fails the test if Chromium is
** missing (saying scripts/setup.sh installs it) or does not dump a page. */
char *http_chromium_dom(const char *zUrl);

/* Copies the text inside the element with id zId of a dumped DOM (tags
** stripped, each tag a space) into zOut. Fails the test if there is no
** such id. */
void http_dom_text(const char *zDom, const char *zId, char *zOut, size_t nOut);

#endif /* STARQ_TEST_HTTP_FIXTURE_H */
