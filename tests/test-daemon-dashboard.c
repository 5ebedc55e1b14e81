/*
** tests/test-daemon-dashboard.c — the dashboard in headless Chromium
** against a live starqd: after SSB queries through libpq, the page the
** daemon serves at / shows them among the recent queries, the backend
** and device /status names, and lineorder with the row count the
** in-process executor counts.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>

#include "http-fixture.h"
#include "jsoncheck.h"
#include "starqd-fixture.h"
#include "test.h"

/* Copies the string member zKey of the object member zObj of /status's
** JSON z (unquoted; NULL zObj: the top level) into zOut. */
static void dash_member(const char *z, const char *zObj, const char *zKey, char *zOut,
                        size_t nOut) {
  char zPat[64];
  const char *p = z;
  if (zObj != NULL) {
    snprintf(zPat, sizeof(zPat), "\"%s\":{", zObj);
    p = strstr(z, zPat);
    if (p == NULL) FAIL("no %s in /status: %s", zObj, z);
    p += strlen(zPat) - 1;
  }
  if (jsoncheck_member(p, zKey, zOut, nOut) != 0) FAIL("no %s.%s in /status", zObj, zKey);
  if (zOut[0] == '"') {
    size_t n = strlen(zOut);
    memmove(zOut, zOut + 1, n - 2);
    zOut[n - 2] = 0;
  }
}

TEST_IMPL(daemon_dashboard_chromium) {
  static const char *const azQuery[] = {
      "SELECT sum(lo_extendedprice * lo_discount) AS revenue FROM lineorder, date "
      "WHERE lo_orderdate = d_datekey AND d_year = 1993 AND lo_discount BETWEEN 1 AND 3 "
      "AND lo_quantity BETWEEN 1 AND 24",   /* no '<': the DOM would escape it */
      "SELECT d_year, count(*) AS dashboard_probe FROM date GROUP BY d_year ORDER BY d_year",
      "SELECT count(*) FROM lineorder",
  };
  starqd_proc d;
  PGconn *c;
  char zUrl[64], zText[8192], zBackend[64], zDevice[256], zRows[64], *zDom, *zResp;
  unsigned *aType;
  int nCol;
  starqd_data("data");
  /* Literals shown: the page must show the statements as they were sent
  ** (daemon_status_private has them elided). */
  starqd_start(&d, "data", (const char *const[]){"--status-sql-literals", "1", NULL});
  c = starqd_connect(&d);
  for (int i = 0; i < 3; i++) {
    PGresult *res = PQexec(c, azQuery[i]);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s: %s", azQuery[i], PQresultErrorMessage(res));
    PQclear(res);
  }
  PQfinish(c);
  /* What the page must agree with: /status, and the row count of an
  ** executor in this process. */
  zResp = http_get(d.iHttpPort, "/status");
  ASSERT_EQ(http_resp_status(zResp), 200);
  dash_member(http_resp_body(zResp), "device", "backend", zBackend, sizeof(zBackend));
  dash_member(http_resp_body(zResp), "device", "name", zDevice, sizeof(zDevice));
  free(zResp);
  ASSERT_STR_EQ(zBackend, "cpu");
  ASSERT(zDevice[0] != 0);
  {
    char *z = starqd_expected("data", "SELECT count(*) FROM lineorder", &aType, &nCol);
    snprintf(zRows, sizeof(zRows), "%.*s", (int)strcspn(z, "\n"), z);
    free(z);
    free(aType);
  }

  snprintf(zUrl, sizeof(zUrl), "http://127.0.0.1:%d/", d.iHttpPort);
  zDom = http_chromium_dom(zUrl);

  http_dom_text(zDom, "state", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "live");
  http_dom_text(zDom, "ready", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "yes");
  http_dom_text(zDom, "backend", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, zBackend);
  http_dom_text(zDom, "device", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, zDevice);
  http_dom_text(zDom, "recent", zText, sizeof(zText));
  for (int i = 0; i < 3; i++) {
    if (strstr(zText, azQuery[i]) == NULL) FAIL("recent queries lack %s:\n%s", azQuery[i], zText);
  }
  http_dom_text(zDom, "tables", zText, sizeof(zText));
  {
    /* The row that names lineorder holds its count. */
    const char *z = strstr(zText, "lineorder");
    if (z == NULL) FAIL("no lineorder in the tables:\n%s", zText);
    z += strlen("lineorder");
    while (*z == ' ') z++;
    if (strncmp(z, zRows, strlen(zRows)) != 0 || z[strlen(zRows)] != ' ') {
      FAIL("lineorder's row should say %s:\n%s", zRows, zText);
    }
  }
  http_dom_text(zDom, "total", zText, sizeof(zText));
  ASSERT_GE(atoi(zText), 3);
  free(zDom);
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
