/*
** func/func.c — the function registry: every group's table, looked up
** by name or oid. Groups are the files of func/ (funcInt.h); this file
** owns no function of its own.
**
** INTERFACE ROUTINES
**   func_candidates, func_by_oid, func_each
**   func__text        a text result, for every group
*/
#include <string.h>

#include "funcInt.h"

static const func_group *const func_aGroup[] = {
    &func__groupCatalog,
    &func__groupDescribe,
    &func__groupRegex,
    &func__groupArray,
    &func__groupString,
};
#define FUNC_GROUP_N ((int)(sizeof(func_aGroup) / sizeof(func_aGroup[0])))

/* A group's overloads of one name are adjacent in its table, so the first
** match and the count describe them all. */
const func_def *func_candidates(const char *zName, int *pn) {
  for (int g = 0; g < FUNC_GROUP_N; g++) {
    const func_group *p = func_aGroup[g];
    for (int i = 0; i < p->nDef; i++) {
      if (strcmp(p->aDef[i].zName, zName) != 0) continue;
      int n = 1;
      while (i + n < p->nDef && strcmp(p->aDef[i + n].zName, zName) == 0) n++;
      *pn = n;
      return &p->aDef[i];
    }
  }
  *pn = 0;
  return NULL;
}

const func_def *func_by_oid(uint32_t oid) {
  if (oid == 0) return NULL;
  for (int g = 0; g < FUNC_GROUP_N; g++) {
    const func_group *p = func_aGroup[g];
    for (int i = 0; i < p->nDef; i++) {
      if (p->aDef[i].oid == oid) return &p->aDef[i];
    }
  }
  return NULL;
}

coltype func_result_type(const func_def *f) {
  /* The element types of the arrays functions return, by pg_proc oid:
  ** func_def keeps a plain type id, and arrays are this rare. */
  static const struct {
    uint32_t oid;
    coltype_id eElem;
  } aArrayResult[] = {
      {1403, COLTYPE_NAME},                  /* current_schemas(boolean) */
  };
  coltype t = {f->eResult, 0, 0, 0};
  for (size_t i = 0; f->eResult == COLTYPE_ARRAY && i < sizeof(aArrayResult) / sizeof(aArrayResult[0]); i++) {
    if (aArrayResult[i].oid == f->oid) {
      coltype e = {aArrayResult[i].eElem, 0, 0, 0};
      t = coltype_array(e);
    }
  }
  return t;
}

int func_each(int (*x)(void *pArg, const func_def *f), void *pArg) {
  for (int g = 0; g < FUNC_GROUP_N; g++) {
    const func_group *p = func_aGroup[g];
    for (int i = 0; i < p->nDef; i++) {
      int rc = x(pArg, &p->aDef[i]);
      if (rc != 0) return rc;
    }
  }
  return 0;
}

int func__text(func_ctx *pCtx, coltype_id eType, const char *z, datum *pOut, sql_error *pErr) {
  size_t n = strlen(z);
  char *zCopy = arena_strndup(pCtx->pArena, z, n);
  if (zCopy == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  *pOut = datum_text(eType, zCopy, (uint32_t)n);
  return 0;
}
