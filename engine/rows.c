/*
** engine/rows.c — results the engine builds itself rather than a program
** run: EXPLAIN's lines as rows of one TEXT column, and a DESCRIBE's
** columns with no rows. Both are ordinary exec_results, so that the
** device worker's wire and the server's result sets carry them as they
** carry any other (strings in the result itself: aStrOff, zStr).
**
** INTERFACE ROUTINES (engineInt.h)
**   engine__text_rows, engine__describe_rows
*/
#include <stdlib.h>
#include <string.h>

#include "engineInt.h"

int engine__text_rows(const char *zName, const char *zText, size_t nText, exec_result *pRes,
                      sql_error *pErr) {
  exec_column *c;
  uint64_t nLine = 1, iLine = 0, iOut = 0;
  for (size_t i = 0; i < nText; i++) nLine += zText[i] == '\n';
  if ((pRes->aCol = calloc(1, sizeof(exec_column))) == NULL) goto out_oom;
  pRes->nCol = 1;
  c = &pRes->aCol[0];
  c->zName = strdup(zName);
  c->type.eId = COLTYPE_TEXT;
  c->aInt = malloc(nLine * sizeof(int64_t));
  c->aNull = calloc(nLine, 1);
  c->aStrOff = malloc((nLine + 1) * sizeof(uint64_t));
  c->zStr = malloc(nText + 1);
  if (!c->zName || !c->aInt || !c->aNull || !c->aStrOff || !c->zStr) goto out_oom;
  c->aStrOff[0] = 0;
  for (size_t i = 0; i <= nText; i++) {
    if (i == nText || zText[i] == '\n') {
      c->aInt[iLine] = (int64_t)iLine;
      c->aStrOff[++iLine] = iOut;
    } else {
      c->zStr[iOut++] = zText[i];
    }
  }
  c->zStr[iOut] = 0;
  c->nStr = nLine;
  pRes->nRow = (int64_t)nLine;
  return 0;
out_oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory building the statement's rows");
  return -1;
}

int engine__describe_rows(const plan_dag *d, exec_result *pRes, sql_error *pErr) {
  if (d->nOut > 0 && (pRes->aCol = calloc((size_t)d->nOut, sizeof(exec_column))) == NULL) {
    goto out_oom;
  }
  for (int i = 0; i < d->nOut; i++) {
    exec_column *c = &pRes->aCol[i];
    pRes->nCol = i + 1;
    c->type = d->aOut[i].type;
    c->bFloat = c->type.eId == COLTYPE_DOUBLE;
    if ((c->zName = strdup(d->aOut[i].zName)) == NULL) goto out_oom;
  }
  return 0;
out_oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory describing the statement");
  return -1;
}
