/*
** engine/param.c — a statement's parameters ($1, $2 ... of the extended
** protocol) put into its parse tree in place of their markers, before it
** is bound: a value the client typed as a number becomes that number; any
** other value an untyped string literal, which the binder types from its
** context as PostgreSQL types an unknown literal ('25' compared with an
** INTEGER column is 25); SQL NULL a NULL. The text is never rebuilt: the
** marker's node becomes the literal's, keeping its position for errors.
**
** INTERFACE ROUTINES (engineInt.h)
**   engine__params_apply   values into the tree
**   engine__params_key     values into a prepared statement's cache key
*/
#include <ctype.h>
#include <string.h>

#include "engineInt.h"

/* PostgreSQL's type OIDs of the numbers (pg_type.oid: fixed since 1996). */
#define PARAM_OID_INT8 20u
#define PARAM_OID_INT2 21u
#define PARAM_OID_INT4 23u
#define PARAM_OID_OID 26u
#define PARAM_OID_FLOAT4 700u
#define PARAM_OID_FLOAT8 701u
#define PARAM_OID_NUMERIC 1700u

static int param_type_numeric(uint32_t iType) {
  return iType == PARAM_OID_INT2 || iType == PARAM_OID_INT4 || iType == PARAM_OID_INT8 ||
         iType == PARAM_OID_FLOAT4 || iType == PARAM_OID_FLOAT8 || iType == PARAM_OID_NUMERIC ||
         iType == PARAM_OID_OID;
}

/* Returns 1 if z is a plain decimal number: digits[.digits][e[+-]digits]
** (after its sign), and sets *pbInteger when it has no '.' or exponent. */
static int param_is_number(const char *z, int *pbInteger) {
  int nDigit = 0;
  *pbInteger = 1;
  while (isdigit((unsigned char)*z)) z++, nDigit++;
  if (*z == '.') {
    *pbInteger = 0;
    z++;
    while (isdigit((unsigned char)*z)) z++, nDigit++;
  }
  if (nDigit == 0) return 0;
  if (*z == 'e' || *z == 'E') {
    *pbInteger = 0;
    z++;
    if (*z == '+' || *z == '-') z++;
    if (!isdigit((unsigned char)*z)) return 0;
    while (isdigit((unsigned char)*z)) z++;
  }
  return *z == 0;
}

/* The state of one walk over a statement. */
typedef struct param_walk param_walk;
struct param_walk {
  int nParam;
  const engine_param *aParam;
  int bNullMissing;
  arena *pA;
  sql_error *pErr;
};

/* Makes marker e the value v: a number, a string literal or NULL. */
static int param_value(param_walk *w, sql_expr *e, const engine_param *v) {
  const char *z = v != NULL ? v->z : NULL;
  int bInteger, bNeg;
  if (z == NULL) {
    e->eKind = SQL_EXPR_NULL;
    return 0;
  }
  bNeg = *z == '-';
  if (param_type_numeric(v->iType) && param_is_number(z + (*z == '-' || *z == '+'), &bInteger)) {
    const char *zDigits = z + (*z == '-' || *z == '+');
    sql_expr *pNum = e;
    if (bNeg) {
      /* -5 is NEG(5), as the parser makes it: a literal's text is digits. */
      if ((pNum = arena_alloc(w->pA, sizeof(*pNum))) == NULL) goto out_oom;
      *pNum = *e;
      e->eKind = SQL_EXPR_UNARY;
      e->eOp = SQL_OP_NEG;
      e->pLeft = pNum;
      e->nHeight = 2;
    }
    pNum->eKind = bInteger ? SQL_EXPR_INTEGER : SQL_EXPR_DECIMAL;
    if ((pNum->zText = arena_strndup(w->pA, zDigits, strlen(zDigits))) == NULL) goto out_oom;
    return 0;
  }
  e->eKind = SQL_EXPR_STRING;
  if ((e->zText = arena_strndup(w->pA, z, strlen(z))) == NULL) goto out_oom;
  return 0;
out_oom:
  sql_error_set(w->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory for a parameter");
  return -1;
}

static int param_expr(param_walk *w, sql_expr *e);

static int param_list(param_walk *w, sql_expr_list *p) {
  for (int i = 0; p != NULL && i < p->n; i++) {
    if (param_expr(w, p->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

/* Replaces every marker at or below e. Trees are at most SQL_DEPTH_MAX
** deep (the parser's limit), so this may recurse. */
static int param_expr(param_walk *w, sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_PARAM) {
    if (e->iParam <= w->nParam) return param_value(w, e, &w->aParam[e->iParam - 1]);
    if (w->bNullMissing) return param_value(w, e, NULL);
    sql_error_set(w->pErr, SQLSTATE_UNDEFINED_PARAMETER, e->iOffset, "there is no parameter $%d",
                  e->iParam);
    return -1;
  }
  if (param_expr(w, e->pLeft) != 0 || param_expr(w, e->pRight) != 0) return -1;
  return param_list(w, e->pList);
}

int engine__params_apply(sql_select *pSelect, int nParam, const engine_param *aParam,
                         int bNullMissing, arena *pA, sql_error *pErr) {
  param_walk w = {nParam, aParam, bNullMissing, pA, pErr};
  if (param_list(&w, pSelect->pItems) != 0) return -1;
  for (int i = 0; pSelect->pFrom != NULL && i < pSelect->pFrom->n; i++) {
    if (param_expr(&w, pSelect->pFrom->a[i].pOn) != 0) return -1;
  }
  if (param_expr(&w, pSelect->pWhere) != 0 || param_list(&w, pSelect->pGroupBy) != 0 ||
      param_expr(&w, pSelect->pHaving) != 0 || param_list(&w, pSelect->pOrderBy) != 0 ||
      param_expr(&w, pSelect->pLimit) != 0 || param_expr(&w, pSelect->pOffset) != 0) {
    return -1;
  }
  return 0;
}

void engine__params_key(strbuf *s, int nParam, const engine_param *aParam) {
  for (int i = 0; i < nParam; i++) {
    /* The type decides how a value goes in, so it is part of the key;
    ** a NULL is a type and no text. */
    strbuf_printf(s, "%u%c", aParam[i].iType, aParam[i].z != NULL ? ':' : 'N');
    if (aParam[i].z != NULL) strbuf_append(s, aParam[i].z, strlen(aParam[i].z) + 1);
  }
}
