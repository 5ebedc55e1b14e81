/*
** clients/bench/server.c — starq-bench's side of the server: opening a
** connection the way psql would (flags, then PG* variables, then starq's
** defaults: clients/common/conn.h), running the --session statements on
** it, and reading what the server says the last statement cost (SHOW
** starq.last_query, a JSON object; see bench.h bench_figures for the
** fields used). Unknown fields are ignored, so a newer server's additions
** do not break the bench; a server without the setting gives no figures,
** and the report says so.
**
** INTERFACE ROUTINES
**   bench_conn_open       connect, then the session statements
**   bench_figures_fetch   SHOW starq.last_query, parsed
**   bench_result_error    a failed result as one line
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/jsonread.h"
#include "../../common/sqlerr.h"
#include "../common/conn.h"
#include "bench.h"

/* Copies libpq's message for c into zErr after zWhat, on one line: its
** lines (libpq adds hints on lines of their own) joined by spaces. */
static void server_conn_message(PGconn *c, const char *zWhat, char *zErr, size_t nErr) {
  const char *z = c != NULL ? PQerrorMessage(c) : "out of memory";
  size_t k = (size_t)snprintf(zErr, nErr, "%s", zWhat);
  for (; *z && k + 1 < nErr; z++) {
    if (*z != '\n' && *z != '\t') zErr[k++] = *z;
    else if (k > 0 && zErr[k - 1] != ' ') zErr[k++] = ' ';
  }
  while (k > 0 && zErr[k - 1] == ' ') k--;
  if (k < nErr) zErr[k] = 0;
}

void bench_result_error(const PGresult *res, PGconn *c, char *zErr, size_t nErr) {
  const char *zState = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
  const char *zMsg = res != NULL ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
  const char *zPos = res != NULL ? PQresultErrorField(res, PG_DIAG_STATEMENT_POSITION) : NULL;
  if (zMsg == NULL) {
    server_conn_message(c, "", zErr, nErr);
    if (zErr[0] == 0) snprintf(zErr, nErr, "the server gave no result");
    return;
  }
  if (zPos != NULL) snprintf(zErr, nErr, "%s: %s (at character %s)", zState ? zState : "?????", zMsg, zPos);
  else snprintf(zErr, nErr, "%s: %s", zState ? zState : "?????", zMsg);
}

PGconn *bench_conn_open(const bench_args *p, int *pbConnect, char *zErr, size_t nErr) {
  const char *azKey[CLIENT_CONN_NPARAM + 2], *azVal[CLIENT_CONN_NPARAM + 2];
  int n = client_conn_params(azKey, azVal, p->zHost, p->zPort, p->zUser, NULL, p->zDb);
  azKey[n] = "application_name";
  azVal[n++] = "starq-bench";
  azKey[n] = NULL;
  azVal[n] = NULL;
  /* expand_dbname 1: -d may be a connection string, as with psql and starq. */
  PGconn *c = PQconnectdbParams(azKey, azVal, 1);
  *pbConnect = 1;
  if (c == NULL || PQstatus(c) != CONNECTION_OK) {
    server_conn_message(c, "cannot connect: ", zErr, nErr);
    PQfinish(c);
    return NULL;
  }
  *pbConnect = 0;
  for (int i = 0; i < p->nSession; i++) {
    PGresult *res = PQexec(c, p->azSession[i]);
    ExecStatusType e = PQresultStatus(res);
    if (e != PGRES_COMMAND_OK && e != PGRES_TUPLES_OK) {
      char zWhy[512];
      bench_result_error(res, c, zWhy, sizeof(zWhy));
      snprintf(zErr, nErr, "--session \"%s\": %s", p->azSession[i], zWhy);
      *pbConnect = PQstatus(c) != CONNECTION_OK;
      PQclear(res);
      PQfinish(c);
      return NULL;
    }
    PQclear(res);
  }
  return c;
}

/* Copies string member zKey of pObj into z (empty if missing). */
static void server_str(const json_value *pObj, const char *zKey, char *z, size_t n) {
  snprintf(z, n, "%s", json_str(json_get(pObj, zKey), ""));
}

int bench_figures_fetch(PGconn *c, bench_figures *pF, char *zErr, size_t nErr) {
  PGresult *res = PQexec(c, "SHOW starq.last_query");
  json_value *pJ = NULL;
  const char *zStatus;
  char zWhy[256];
  memset(pF, 0, sizeof(*pF));
  if (PQresultStatus(res) != PGRES_TUPLES_OK) {
    const char *zState = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    int bAbsent = zState != NULL && strcmp(zState, SQLSTATE_UNDEFINED_OBJECT) == 0;
    bench_result_error(res, c, zWhy, sizeof(zWhy));
    snprintf(zErr, nErr, "SHOW starq.last_query: %s", zWhy);
    PQclear(res);
    return bAbsent ? 1 : -1;
  }
  if (PQntuples(res) != 1 || PQnfields(res) < 1 || PQgetisnull(res, 0, 0)) {
    snprintf(zErr, nErr, "SHOW starq.last_query: expected one value, got %d rows", PQntuples(res));
    PQclear(res);
    return -1;
  }
  if (json_parse(PQgetvalue(res, 0, 0), (size_t)PQgetlength(res, 0, 0), &pJ, zWhy, sizeof(zWhy)) != 0 ||
      pJ->eKind != JSON_OBJECT) {
    snprintf(zErr, nErr, "SHOW starq.last_query: not a JSON object: %s", pJ != NULL ? "another value" : zWhy);
    json_value_free(pJ);
    PQclear(res);
    return -1;
  }
  PQclear(res);
  zStatus = json_str(json_get(pJ, "status"), "");
  pF->bKnown = strcmp(zStatus, "ok") == 0;
  pF->rSeconds = json_num(json_get(pJ, "seconds"), 0);
  pF->rCompileSeconds = json_num(json_get(pJ, "compile_seconds"), 0);
  pF->bCached = json_bool_get(json_get(pJ, "cached"), 0);
  pF->bGeneric = strcmp(json_str(json_get(pJ, "tier"), ""), "generic") == 0;
  pF->nRows = (int64_t)json_num(json_get(pJ, "rows"), -1);
  pF->nBytesScanned = (int64_t)json_num(json_get(pJ, "bytes_scanned"), -1);
  pF->nFactBytes = (int64_t)json_num(json_get(pJ, "fact_bytes"), -1);
  pF->rZeroCopyBw = json_num(json_get(pJ, "zero_copy_bytes_per_second"), 0);
  pF->rDeviceBw = json_num(json_get(pJ, "device_bytes_per_second"), 0);
  server_str(pJ, "backend", pF->zBackend, sizeof(pF->zBackend));
  server_str(pJ, "device", pF->zDevice, sizeof(pF->zDevice));
  json_value_free(pJ);
  return 0;
}
