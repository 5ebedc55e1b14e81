/*
** server/stmt-result.c — result sets as the session reads them
** (pg_result_ops): over an exec_result from the executor, and over text
** values the engine builds itself; and each coltype's description in a
** RowDescription (type OID, length, modifier), PostgreSQL's for the same
** declared type.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../catalog/pgobj.h"
#include "stmt.h"

/* ---- over an exec_result -------------------------------------------------- */

static int64_t stmt_exec_count(void *p) { return ((exec_result *)p)->nRow; }

static int stmt_exec_value(void *p, int64_t iRow, int iCol, strbuf *pOut) {
  const exec_result *r = p;
  if (iRow < 0 || iRow >= r->nRow || iCol < 0 || iCol >= r->nCol) return -1;
  return exec_result_text(r, iRow, iCol, pOut) ? 1 : 0;
}

static void stmt_exec_free(void *p) {
  exec_result_free(p);
  free(p);
}

const pg_result_ops stmt_exec_ops = {stmt_exec_count, stmt_exec_value, stmt_exec_free, NULL};

/* ---- text values ------------------------------------------------------------ */

struct stmt_text {
  int nCol;
  int64_t nRow, nAlloc;
  char **az;               /* nRow * nCol values, NULL for SQL NULL; owned */
};

stmt_text *stmt_text_new(int nCol) {
  stmt_text *t = calloc(1, sizeof(*t));
  if (t != NULL) t->nCol = nCol;
  return t;
}

int stmt_text_row(stmt_text *t, const char *const *azValue) {
  if (t->nRow == t->nAlloc) {
    int64_t nNew = t->nAlloc ? t->nAlloc * 2 : 16;
    char **az = realloc(t->az, (size_t)(nNew * t->nCol) * sizeof(char *));
    if (az == NULL) return -1;
    t->az = az;
    t->nAlloc = nNew;
  }
  for (int c = 0; c < t->nCol; c++) {
    char **pz = &t->az[t->nRow * t->nCol + c];
    *pz = NULL;
    if (azValue[c] != NULL && (*pz = strdup(azValue[c])) == NULL) {
      for (int k = 0; k < c; k++) free(t->az[t->nRow * t->nCol + k]);
      return -1;
    }
  }
  t->nRow++;
  return 0;
}

static int64_t stmt_text_count(void *p) { return ((stmt_text *)p)->nRow; }

static int stmt_text_value(void *p, int64_t iRow, int iCol, strbuf *pOut) {
  stmt_text *t = p;
  const char *z;
  if (iRow < 0 || iRow >= t->nRow || iCol < 0 || iCol >= t->nCol) return -1;
  z = t->az[iRow * t->nCol + iCol];
  if (z == NULL) return 1;
  strbuf_puts(pOut, z);
  return 0;
}

static void stmt_text_free(void *p) {
  stmt_text *t = p;
  if (t == NULL) return;
  for (int64_t i = 0; i < t->nRow * t->nCol; i++) free(t->az[i]);
  free(t->az);
  free(t);
}

const pg_result_ops stmt_text_ops = {stmt_text_count, stmt_text_value, stmt_text_free, NULL};

/* ---- descriptions ------------------------------------------------------------ */

void stmt_column_describe(coltype t, const char *zName, pgwire_column *pCol) {
  memset(pCol, 0, sizeof(*pCol));
  pCol->zName = zName;
  pCol->iTypmod = -1;
  switch (t.eId) {
    case COLTYPE_SMALLINT: pCol->iTypeOid = PGWIRE_OID_INT2; pCol->nTypeLen = 2; break;
    case COLTYPE_INTEGER: pCol->iTypeOid = PGWIRE_OID_INT4; pCol->nTypeLen = 4; break;
    case COLTYPE_BIGINT: pCol->iTypeOid = PGWIRE_OID_INT8; pCol->nTypeLen = 8; break;
    case COLTYPE_DOUBLE: pCol->iTypeOid = PGWIRE_OID_FLOAT8; pCol->nTypeLen = 8; break;
    case COLTYPE_DECIMAL:
      pCol->iTypeOid = PGWIRE_OID_NUMERIC;
      pCol->nTypeLen = -1;
      /* numeric's typmod: ((precision << 16) | scale) + VARHDRSZ. */
      if (t.nPrecision > 0) pCol->iTypmod = ((t.nPrecision << 16) | t.nScale) + 4;
      break;
    case COLTYPE_DATE: pCol->iTypeOid = PGWIRE_OID_DATE; pCol->nTypeLen = 4; break;
    case COLTYPE_CHAR:
      pCol->iTypeOid = PGWIRE_OID_BPCHAR;
      pCol->nTypeLen = -1;
      if (t.nLength > 0) pCol->iTypmod = t.nLength + 4;
      break;
    case COLTYPE_VARCHAR:
      pCol->iTypeOid = PGWIRE_OID_VARCHAR;
      pCol->nTypeLen = -1;
      if (t.nLength > 0) pCol->iTypmod = t.nLength + 4;
      break;
    case COLTYPE_BOOLEAN: pCol->iTypeOid = PGWIRE_OID_BOOL; pCol->nTypeLen = 1; break;
    /* The catalog's types (the host executor's results carry them as text). */
    case COLTYPE_NAME: pCol->iTypeOid = PGWIRE_OID_NAME; pCol->nTypeLen = 64; break;
    case COLTYPE_OID: pCol->iTypeOid = PGWIRE_OID_OID; pCol->nTypeLen = 4; break;
    case COLTYPE_PGCHAR: pCol->iTypeOid = PGWIRE_OID_CHAR; pCol->nTypeLen = 1; break;
    case COLTYPE_ARRAY:          /* text[], int2[], name[] ...: as PostgreSQL names them */
    case COLTYPE_INT2VECTOR:
    case COLTYPE_OIDVECTOR:
    case COLTYPE_PG_NODE_TREE:
      pCol->iTypeOid = pgobj_coltype_oid(t);
      pCol->nTypeLen = -1;
      if (pCol->iTypeOid == 0) pCol->iTypeOid = PGWIRE_OID_TEXT;  /* an element without an array type */
      break;
    default: pCol->iTypeOid = PGWIRE_OID_TEXT; pCol->nTypeLen = -1; break;
  }
}

int stmt_job_rows(stmt_job *j, int nCol, const char *const *azName, const coltype *aType,
                    const pg_result_ops *pOps, void *pRes) {
  size_t *aiName;
  if (nCol > STMT_COL_MAX) nCol = STMT_COL_MAX;
  j->aCol = calloc((size_t)(nCol ? nCol : 1), sizeof(pgwire_column));
  aiName = calloc((size_t)(nCol ? nCol : 1), sizeof(size_t));
  if (j->aCol == NULL || aiName == NULL) goto oom;
  /* Names go into one buffer that may move as it grows: offsets first,
  ** pointers once it is complete. */
  for (int c = 0; c < nCol; c++) {
    aiName[c] = j->colNames.n;
    strbuf_append(&j->colNames, azName[c], strlen(azName[c]) + 1);
  }
  if (strbuf_error(&j->colNames)) goto oom;
  for (int c = 0; c < nCol; c++) {
    stmt_column_describe(aType[c], j->colNames.z + aiName[c], &j->aCol[c]);
  }
  free(aiName);
  j->out.eKind = PG_OUTCOME_ROWS;
  j->out.nCol = nCol;
  j->out.aCol = j->aCol;
  j->out.pOps = pOps;
  j->out.pRes = pRes;
  if (j->out.zTag == NULL) {
    snprintf(j->zTag, sizeof(j->zTag), "SELECT");
    j->out.zTag = j->zTag;
    j->out.bTagCount = 1;
  }
  return 0;
oom:
  free(aiName);
  pOps->xFree(pRes);
  stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
  return -1;
}

void stmt_job_error(stmt_job *j, const char *zState, int iOffset, const char *zFmt, ...) {
  va_list ap;
  va_start(ap, zFmt);
  vsnprintf(j->zMsg, sizeof(j->zMsg), zFmt, ap);
  va_end(ap);
  snprintf(j->zState, sizeof(j->zState), "%s", zState);
  memset(&j->out.error, 0, sizeof(j->out.error));
  j->out.eKind = PG_OUTCOME_ERROR;
  j->out.error.zState = j->zState;
  j->out.error.zMsg = j->zMsg;
  j->out.error.iPosition = iOffset >= 0 ? sql_error_position(j->zSql, iOffset) : 0;
}
