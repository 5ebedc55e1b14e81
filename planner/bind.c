/*
** planner/bind.c — bind_select(): a SELECT's names resolved against the
** catalog, clause by clause in PostgreSQL's order, so that a statement
** with several mistakes reports the one PostgreSQL would.
**
** This file owns the FROM clause (loading each table once, aliases, the
** scope an ON clause sees), column references, * expansion, the select
** list with the names PostgreSQL gives output columns, and LIMIT/OFFSET.
** Typing expressions is bind_expr.c's and bind_lit.c's; aggregates,
** GROUP BY, ORDER BY and the grouping check are bind_agg.c's.
**
** Names: every FROM table is read once with cat_table_get(); its columns
** go into a small hash (bind_name) keyed by the case-folded name, so a
** column reference costs one bucket walk. Table and column names compare
** case-insensitively, as the catalog's do; aliases compare exactly, as
** PostgreSQL's do (both sides are already case-folded unless quoted).
**
** INTERFACE ROUTINES
**   bind_select, bind_select_free
**   bind__column, bind__is_input_column, bind__name_hash,
**   bind__strdup, bind__oom (bindInt.h)
*/
#include <string.h>
#include <strings.h>

#include "../catalog/vrel.h"
#include "bindInt.h"

/* ---- small helpers ---------------------------------------------------------- */

int bind__oom(bind_ctx *p) {
  sql_error_set(p->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
  return -1;
}

char *bind__strdup(bind_ctx *p, const char *z) {
  char *zCopy = arena_strndup(p->pArena, z, strlen(z));
  if (zCopy == NULL) bind__oom(p);
  return zCopy;
}

uint32_t bind__name_hash(const char *z) {
  uint32_t h = 2166136261u;                 /* FNV-1a over ASCII-folded bytes */
  for (; *z != 0; z++) {
    unsigned char c = (unsigned char)*z;
    if (c >= 'A' && c <= 'Z') c = (unsigned char)(c + ('a' - 'A'));
    h = (h ^ c) * 16777619u;
  }
  return h;
}

/* ---- FROM ------------------------------------------------------------------- */

/* Adds the columns of FROM item iSource to the name table. */
static int bind_names_add(bind_ctx *p, int iSource) {
  const cat_table *t = p->pOut->aSource[iSource].pTable;
  bind_name *a = arena_alloc(p->pArena, sizeof(bind_name) * (size_t)(t->nCol > 0 ? t->nCol : 1));
  if (a == NULL) return bind__oom(p);
  for (int i = 0; i < t->nCol; i++) {
    bind_name *n = &a[i];
    n->zName = t->aCol[i].zName;
    n->h = bind__name_hash(n->zName);
    n->iSource = iSource;
    n->iColumn = i;
    n->bUsingRight = 0;
    n->pNext = p->apBucket[n->h & (BIND_NAME_BUCKETS - 1)];
    p->apBucket[n->h & (BIND_NAME_BUCKETS - 1)] = n;
  }
  return 0;
}

/* Reads the table of FROM item i into aSource[i] (so that it is freed by
** bind_select_free whatever happens next) and checks its alias against
** those before it. */
static int bind_from_table(bind_ctx *p, const sql_src_item *pItem, int i) {
  bound_select *pOut = p->pOut;
  const char *zRef = pItem->zAlias != NULL ? pItem->zAlias : pItem->zName;
  cat_table *t = NULL;
  char zErr[512];

  if (pItem->zName == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, pItem->iOffset, "FROM item without a name");
    return -1;
  }
  /* Every table of starq is in schema public (PostgreSQL's default);
  ** PostgreSQL's own catalogs are the host's (planner/dag_query.c), not
  ** served where a query reaches here with one. */
  if (pItem->zSchema != NULL && strcmp(pItem->zSchema, "public") != 0) {
    int bCatalog = vrel_find(pItem->zSchema, pItem->zName) != NULL;
    sql_error_set(p->pErr, bCatalog ? SQLSTATE_FEATURE_NOT_SUPPORTED : SQLSTATE_UNDEFINED_TABLE,
                  pItem->iOffset,
                  bCatalog ? "relation \"%s.%s\" is not supported yet"
                           : "relation \"%s.%s\" does not exist",
                  pItem->zSchema, pItem->zName);
    return -1;
  }
  if (cat_table_get(p->pCat, pItem->zName, &t, zErr, sizeof(zErr)) != 0) {
    /* catalog.h documents the message of a missing table; anything else
    ** is the catalog failing, not the query. */
    if (strncmp(zErr, "no table named", 14) == 0) {
      sql_error_set(p->pErr, SQLSTATE_UNDEFINED_TABLE, pItem->iOffset,
                    "relation \"%s%s%s\" does not exist", pItem->zSchema ? pItem->zSchema : "",
                    pItem->zSchema ? "." : "", pItem->zName);
    } else {
      sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, pItem->iOffset, "%s", zErr);
    }
    return -1;
  }
  pOut->aSource[i].pTable = t;
  pOut->aSource[i].zAlias = zRef;
  pOut->nSource = i + 1;
  for (int j = 0; j < i; j++) {
    if (strcmp(pOut->aSource[j].zAlias, zRef) == 0) {
      sql_error_set(p->pErr, SQLSTATE_DUPLICATE_ALIAS, pItem->iOffset,
                    "table name \"%s\" specified more than once", zRef);
      return -1;
    }
  }
  return bind_names_add(p, i);
}

/* Binds FROM item i, a relation the environment supplied as t (owned by
** the bound_select from here on): its alias, or its name for a CTE. Its
** joins may be outer: the host runs them. */
/* A USING column's equality for FROM item i's ON: the left side (items
** iChain..i-1) must have zName once, item i must have it. */
static sql_expr *bind_using_eq(bind_ctx *p, const sql_src_item *pItem, int iChain, int i, const char *zName) {
  const bound_select *pOut = p->pOut;
  int sL = -1, bRight = 0;
  sql_expr *e = arena_alloc(p->pArena, sizeof(sql_expr) * 3);
  if (e == NULL) {
    bind__oom(p);
    return NULL;
  }
  for (int s = iChain; s <= i; s++) {
    const cat_table *t = pOut->aSource[s].pTable;
    for (int c = 0; c < t->nCol; c++) {
      if (strcasecmp(t->aCol[c].zName, zName) != 0) continue;
      if (s == i) bRight = 1;
      else if (sL >= 0) {
        sql_error_set(p->pErr, SQLSTATE_AMBIGUOUS_COLUMN, pItem->iUsingOffset,
                      "common column name \"%s\" appears more than once in left table", zName);
        return NULL;
      } else sL = s;
    }
  }
  if (sL < 0 || !bRight) {
    sql_error_set(p->pErr, SQLSTATE_UNDEFINED_COLUMN, pItem->iUsingOffset,
                  "column \"%s\" specified in USING clause does not exist in %s table", zName,
                  sL < 0 ? "left" : "right");
    return NULL;
  }
  memset(e, 0, sizeof(sql_expr) * 3);
  e[0].eKind = SQL_EXPR_BINARY;
  e[0].eOp = SQL_OP_EQ;
  e[0].iOffset = pItem->iUsingOffset;
  e[0].pLeft = &e[1];
  e[0].pRight = &e[2];
  for (int k = 1; k <= 2; k++) {
    e[k].eKind = SQL_EXPR_COLUMN;
    e[k].iOffset = pItem->iUsingOffset;
    e[k].zName = zName;
    e[k].zTable = pOut->aSource[k == 1 ? sL : i].zAlias;
  }
  return e;
}

/* JOIN ... USING (a, b) of FROM item i (inner or LEFT): its ON is the
** equalities, made once into the parse tree, and the right side's a and
** b are named qualified only, the left's standing for the merged column
** (which is the left's value in both joins). */
static int bind_from_using(bind_ctx *p, sql_src_item *pItem, int iChain, int i) {
  sql_expr *pOn = NULL;
  if (pItem->eJoin != SQL_JOIN_INNER && pItem->eJoin != SQL_JOIN_LEFT) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pItem->iUsingOffset,
                  "JOIN ... USING is not supported yet with this join");
    return -1;
  }
  for (int k = 0; k < pItem->nUsing && pItem->pOn == NULL; k++) {
    sql_expr *e = bind_using_eq(p, pItem, iChain, i, pItem->azUsing[k]);
    if (e == NULL) return -1;
    if (pOn != NULL) {
      sql_expr *a = arena_alloc(p->pArena, sizeof(sql_expr));
      if (a == NULL) return bind__oom(p);
      memset(a, 0, sizeof(*a));
      a->eKind = SQL_EXPR_BINARY;
      a->eOp = SQL_OP_AND;
      a->iOffset = pItem->iUsingOffset;
      a->pLeft = pOn;
      a->pRight = e;
      e = a;
    }
    pOn = e;
  }
  if (pItem->pOn == NULL) pItem->pOn = pOn;
  for (int k = 0; k < pItem->nUsing; k++) {
    uint32_t h = bind__name_hash(pItem->azUsing[k]);
    for (bind_name *n = p->apBucket[h & (BIND_NAME_BUCKETS - 1)]; n; n = n->pNext) {
      if (n->iSource == i && strcasecmp(n->zName, pItem->azUsing[k]) == 0) n->bUsingRight = 1;
    }
  }
  return 0;
}

static int bind_from_derived(bind_ctx *p, const sql_src_item *pItem, int i, cat_table *t) {
  bound_select *pOut = p->pOut;
  const char *zRef = pItem->zAlias != NULL ? pItem->zAlias : pItem->zName;
  pOut->aSource[i].pTable = t;
  pOut->aSource[i].zAlias = zRef != NULL ? zRef : t->zName;
  pOut->nSource = i + 1;
  if (pItem->bNatural) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pItem->iJoinOffset, "NATURAL JOIN is not supported yet");
    return -1;
  }
  if (pItem->eJoin == SQL_JOIN_CROSS) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pItem->iJoinOffset, "CROSS JOIN is not supported yet");
    return -1;
  }
  for (int j = 0; j < i; j++) {
    if (strcmp(pOut->aSource[j].zAlias, pOut->aSource[i].zAlias) == 0) {
      sql_error_set(p->pErr, SQLSTATE_DUPLICATE_ALIAS, pItem->iOffset,
                    "table name \"%s\" specified more than once", pOut->aSource[i].zAlias);
      return -1;
    }
  }
  return bind_names_add(p, i);
}

/* Binds the FROM clause: tables in order, each ON clause right after the
** table it joins in. An ON sees the tables of its own join chain only —
** in "a, b JOIN c ON ..." that is b and c, as JOIN binds tighter than the
** comma in PostgreSQL's grammar. */
static int bind_from(bind_ctx *p, const sql_src_list *pFrom) {
  int iChain = 0;
  if (pFrom == NULL || pFrom->n <= 0) return 0;
  p->pOut->aSource = arena_alloc(p->pArena, sizeof(bind_source) * (size_t)pFrom->n);
  if (p->pOut->aSource == NULL) return bind__oom(p);
  for (int i = 0; i < pFrom->n; i++) {
    const sql_src_item *pItem = &pFrom->a[i];
    cat_table *pDerived = NULL;
    int rc = 0;
    if (p->pEnv != NULL && p->pEnv->xRelation != NULL && (rc = p->pEnv->xRelation(p->pEnv->pArg, pItem, &pDerived, p->pErr)) < 0) {
      return -1;
    }
    if (rc > 0) {
      if (bind_from_derived(p, pItem, i, pDerived) != 0) return -1;
      if (pItem->eJoin == SQL_JOIN_COMMA) iChain = i;
      if (pItem->nUsing > 0 && bind_from_using(p, (sql_src_item *)pItem, iChain, i) != 0) return -1;
    } else {
      /* Under an environment the host runs the joins: outer ones too. */
      sql_src_item it = *pItem;
      if (p->pEnv != NULL && (it.eJoin == SQL_JOIN_LEFT || it.eJoin == SQL_JOIN_RIGHT ||
                              it.eJoin == SQL_JOIN_FULL)) {
        it.eJoin = SQL_JOIN_INNER;
      }
      if (bind__refuse_source(p, &it) != 0) return -1;
      if (bind_from_table(p, pItem, i) != 0) return -1;
    }
    if (pItem->eJoin == SQL_JOIN_COMMA) iChain = i;
    if (pItem->pOn != NULL) {
      p->iScopeFirst = iChain;
      p->iScopeLast = i;
      p->eClause = BIND_CLAUSE_ON;
      if (bind__condition(p, pItem->pOn, "JOIN/ON") != 0) return -1;
    }
  }
  p->iScopeFirst = 0;
  p->iScopeLast = pFrom->n - 1;
  return 0;
}

/* ---- column references ------------------------------------------------------ */

static int bind_in_scope(const bind_ctx *p, int iSource) {
  return iSource >= p->iScopeFirst && iSource <= p->iScopeLast;
}

/* Finds the FROM item a qualifier zTable names. Returns its index, or -1
** (-2 where no FROM item has the name) with 42P01 recorded: PostgreSQL's two messages, one for a table that is
** there but may not be named here (out of an ON's scope, or named by its
** table name when it has an alias), one for a table that is not there. */
static int bind_qualifier(bind_ctx *p, const char *zSchema, const char *zTable, int iOffset) {
  const bound_select *pOut = p->pOut;
  const sql_src_list *pFrom = pOut->pSelect->pFrom;
  if (zSchema != NULL) {
    /* schema.table names a table written without an alias, as in
    ** PostgreSQL; a table written without its schema is in public. */
    for (int s = 0; s < pOut->nSource; s++) {
      const sql_src_item *pItem = &pFrom->a[s];
      const char *zItemSchema = pItem->zSchema != NULL ? pItem->zSchema : "public";
      if (pItem->zName != NULL && strcmp(pItem->zName, zTable) == 0 &&
          strcmp(zItemSchema, zSchema) == 0) {
        if (pItem->zAlias == NULL && bind_in_scope(p, s)) return s;
        goto invalid_reference;
      }
    }
    sql_error_set(p->pErr, SQLSTATE_UNDEFINED_TABLE, iOffset,
                  "missing FROM-clause entry for table \"%s\"", zTable);
    return -2;
  }
  for (int s = 0; s < pOut->nSource; s++) {
    if (strcmp(pOut->aSource[s].zAlias, zTable) == 0) {
      if (bind_in_scope(p, s)) return s;
      goto invalid_reference;
    }
  }
  for (int s = 0; s < pOut->nSource; s++) {
    if (pFrom->a[s].zAlias != NULL && strcmp(pFrom->a[s].zName, zTable) == 0) {
      goto invalid_reference;
    }
  }
  sql_error_set(p->pErr, SQLSTATE_UNDEFINED_TABLE, iOffset,
                "missing FROM-clause entry for table \"%s\"", zTable);
  return -2;
invalid_reference:
  sql_error_set(p->pErr, SQLSTATE_UNDEFINED_TABLE, iOffset,
                "invalid reference to FROM-clause entry for table \"%s\"", zTable);
  return -1;
}

/* A name this SELECT lacks, its error recorded: the enclosing query's
** column (a correlated reference) when the environment finds it there. */
static int bind_outer(bind_ctx *p, sql_expr *e) {
  sql_error saved;
  int rc;
  if (p->pEnv == NULL || p->pEnv->xOuter == NULL) return -1;
  saved = *p->pErr;
  sql_error_clear(p->pErr);
  rc = p->pEnv->xOuter(p->pEnv->pArg, e, p->pErr);
  if (rc == 0) *p->pErr = saved;
  return rc == 1 ? 0 : -1;
}

int bind__column(bind_ctx *p, sql_expr *e) {
  const bound_select *pOut = p->pOut;
  const bind_name *pFound = NULL;
  uint32_t h;

  if (e->zName == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "column reference without a name");
    return -1;
  }
  h = bind__name_hash(e->zName);
  if (e->zTable != NULL) {
    int s = bind_qualifier(p, e->zSchema, e->zTable, e->iOffset);
    if (s < 0) return s == -2 ? bind_outer(p, e) : -1;
    for (const bind_name *n = p->apBucket[h & (BIND_NAME_BUCKETS - 1)]; n; n = n->pNext) {
      if (n->h == h && n->iSource == s && strcasecmp(n->zName, e->zName) == 0) {
        pFound = n;
        break;
      }
    }
    if (pFound == NULL) {
      sql_error_set(p->pErr, SQLSTATE_UNDEFINED_COLUMN, e->iOffset,
                    "column %s.%s does not exist", e->zTable, e->zName);
      return -1;
    }
  } else {
    for (const bind_name *n = p->apBucket[h & (BIND_NAME_BUCKETS - 1)]; n; n = n->pNext) {
      if (n->h != h || !bind_in_scope(p, n->iSource) || n->bUsingRight ||
          strcasecmp(n->zName, e->zName) != 0) {
        continue;
      }
      if (pFound != NULL) {
        sql_error_set(p->pErr, SQLSTATE_AMBIGUOUS_COLUMN, e->iOffset,
                      "column reference \"%s\" is ambiguous", e->zName);
        return -1;
      }
      pFound = n;
    }
    if (pFound == NULL) {
      sql_error_set(p->pErr, SQLSTATE_UNDEFINED_COLUMN, e->iOffset,
                    "column \"%s\" does not exist", e->zName);
      return bind_outer(p, e);
    }
  }
  e->b.iSource = pFound->iSource;
  e->b.iColumn = pFound->iColumn;
  e->b.type = pOut->aSource[pFound->iSource].pTable->aCol[pFound->iColumn].type;
  e->b.bConstant = 0;
  return 0;
}

int bind__is_input_column(bind_ctx *p, const char *zName) {
  uint32_t h = bind__name_hash(zName);
  for (const bind_name *n = p->apBucket[h & (BIND_NAME_BUCKETS - 1)]; n; n = n->pNext) {
    if (n->h == h && bind_in_scope(p, n->iSource) && !n->bUsingRight && strcasecmp(n->zName, zName) == 0) {
      return 1;
    }
  }
  return 0;
}

/* ---- the select list -------------------------------------------------------- */

/* PostgreSQL's name for a type in a cast, which names a cast's output
** column: the last word of its internal type name. */
static const char *bind_cast_colname(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: return "int2";
    case COLTYPE_INTEGER: return "int4";
    case COLTYPE_BIGINT: return "int8";
    case COLTYPE_DOUBLE: return "float8";
    case COLTYPE_DECIMAL: return "numeric";
    case COLTYPE_DATE: return "date";
    case COLTYPE_CHAR: return "bpchar";
    case COLTYPE_VARCHAR: return "varchar";
    case COLTYPE_TEXT: return "text";
    case COLTYPE_BOOLEAN: return "bool";
    case COLTYPE_TIMESTAMP: return "timestamp";
    case COLTYPE_TIMESTAMPTZ: return "timestamptz";
    case COLTYPE_TIME: return "time";
    case COLTYPE_TIMETZ: return "timetz";
    case COLTYPE_INTERVAL: return "interval";
    case COLTYPE_NUMERIC: return "numeric";
    case COLTYPE_FLOAT4: return "float4";
    case COLTYPE_OID: return "oid";
    case COLTYPE_REGCLASS: return "regclass";
    case COLTYPE_REGTYPE: return "regtype";
    case COLTYPE_REGPROC: return "regproc";
    case COLTYPE_NAME: return "name";
    case COLTYPE_PGCHAR: return "char";
    case COLTYPE_ARRAY: {
      coltype e = coltype_elem(t);
      return e.eId == COLTYPE_ARRAY ? "array" : bind_cast_colname(e);
    }
    case COLTYPE_INT2VECTOR: return "int2vector";
    case COLTYPE_OIDVECTOR: return "oidvector";
    case COLTYPE_ACLITEM: return "aclitem";
    case COLTYPE_PG_NODE_TREE: return "pg_node_tree";
    case COLTYPE_XID: return "xid";
    case COLTYPE_INET: return "inet";
    case COLTYPE_BYTEA: return "bytea";
    case COLTYPE_ANYARRAY: return "anyarray";
    case COLTYPE_REGNAMESPACE: return "regnamespace";
    case COLTYPE_UNKNOWN: break;
  }
  return "?column?";
}

/* Names an output column as PostgreSQL's FigureColnameInternal does, with
** its strength: 2 for a column or function name, 1 for a type name or
** "case", 0 for nothing (the caller uses "?column?"). */
int bind__colname(const sql_expr *e, const char **pzName) {
  int nStrength;
  if (e == NULL) return 0;
  switch (e->eKind) {
    case SQL_EXPR_BINARY:              /* mod(a, b), bound as a % b (bind_func.c) */
      if (e->eOp != SQL_OP_MOD || e->zName == NULL || strcmp(e->zName, "mod") != 0) return 0;
      *pzName = e->zName;
      return 2;
    case SQL_EXPR_COLUMN:
    case SQL_EXPR_FUNC:
      if (e->zName == NULL) return 0;
      *pzName = e->zName;
      return 2;
    case SQL_EXPR_CAST:
      nStrength = bind__colname(e->pLeft, pzName);
      if (nStrength <= 1) {
        *pzName = bind_cast_colname(e->castType);
        return 1;
      }
      return nStrength;
    case SQL_EXPR_CASE:
      if (e->zName != NULL) {          /* coalesce, greatest ... (bind_func.c) */
        *pzName = e->zName;
        return 2;
      }
      nStrength = bind__colname(e->pRight, pzName);
      if (nStrength <= 1) {
        *pzName = "case";
        return 1;
      }
      return nStrength;
    case SQL_EXPR_SUBSCRIPT:   /* x[i] is named as x is */
      return bind__colname(e->pLeft, pzName);
    case SQL_EXPR_SUBQUERY: {  /* (SELECT x ...) is named as its first column */
      const sql_select *q = e->pSelect;
      while (q != NULL && q->eOp != SQL_SELECT_SIMPLE && q->eOp != SQL_SELECT_VALUES) q = q->pLeft;
      if (q == NULL || q->eOp != SQL_SELECT_SIMPLE || q->pItems->n == 0) return 0;
      *pzName = q->pItems->a[0].zAlias;
      if (*pzName == NULL && bind__colname(q->pItems->a[0].pExpr, pzName) == 0) *pzName = "?column?";
      return 2;
    }
    case SQL_EXPR_BOOL:        /* TRUE is 't'::bool in PostgreSQL's grammar */
      *pzName = "bool";
      return 1;
    case SQL_EXPR_DATE:        /* DATE 'x' is 'x'::date */
      *pzName = "date";
      return 1;
    default:
      return 0;
  }
}

/* Sets output column i from item pItem. */
static void bind_output_set(bind_ctx *p, int i, const sql_expr_item *pItem) {
  bind_output *o = &p->pOut->aOutput[i];
  const char *zName = "?column?";
  if (pItem->zAlias != NULL) {
    zName = pItem->zAlias;
  } else {
    bind__colname(pItem->pExpr, &zName);
  }
  o->zName = zName;
  o->type = pItem->pExpr->b.type;
  /* PostgreSQL resolves an output column still of unknown type (SELECT
  ** NULL, SELECT 'x') to text. */
  if (o->type.eId == COLTYPE_UNKNOWN) {
    memset(&o->type, 0, sizeof(o->type));
    o->type.eId = COLTYPE_TEXT;
  }
}

/* Expands * or t.* (pStar) into column references appended to pList. */
static int bind_star_expand(bind_ctx *p, const sql_expr *pStar, sql_expr_list *pList) {
  bound_select *pOut = p->pOut;
  int s0 = 0, s1 = pOut->nSource - 1;
  if (pStar->zTable != NULL) {
    if ((s0 = bind_qualifier(p, pStar->zSchema, pStar->zTable, pStar->iOffset)) < 0) return -1;
    s1 = s0;
  } else if (pOut->nSource == 0) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, pStar->iOffset,
                  "SELECT * with no tables specified is not valid");
    return -1;
  } else {
    for (int s = 0; s < pOut->nSource; s++) {
      if (pOut->pSelect->pFrom->a[s].nUsing > 0) {
        sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pStar->iOffset,
                      "SELECT * over JOIN ... USING is not supported yet");
        return -1;
      }
    }
  }
  for (int s = s0; s <= s1; s++) {
    const cat_table *t = pOut->aSource[s].pTable;
    for (int c = 0; c < t->nCol; c++) {
      sql_expr *e = arena_alloc(p->pArena, sizeof(sql_expr));
      sql_expr_item *pItem = &pList->a[pList->n++];
      if (e == NULL) return bind__oom(p);
      e->eKind = SQL_EXPR_COLUMN;
      e->iOffset = pStar->iOffset;
      /* Copied: the AST must not point into a cat_table it outlives. */
      if ((e->zName = bind__strdup(p, t->aCol[c].zName)) == NULL) return -1;
      e->zTable = pOut->aSource[s].zAlias;
      e->b.type = t->aCol[c].type;
      e->b.iSource = s;
      e->b.iColumn = c;
      e->b.iAgg = -1;
      pItem->pExpr = e;
      pItem->iAliasOffset = pStar->iOffset;
    }
  }
  return 0;
}

/* Returns how many columns a * or t.* stands for (0 if it names nothing:
** the expansion reports that). */
static int bind_star_width(bind_ctx *p, const sql_expr *pStar) {
  const bound_select *pOut = p->pOut;
  int n = 0;
  for (int s = 0; s < pOut->nSource; s++) {
    if (pStar->zTable == NULL || strcmp(pOut->aSource[s].zAlias, pStar->zTable) == 0) {
      n += pOut->aSource[s].pTable->nCol;
    }
  }
  return n;
}

/* Binds the select list into pOut->pItems (the parser's list itself when
** it has no *) and pOut->aOutput. */
static int bind_select_list(bind_ctx *p, sql_select *pSel) {
  bound_select *pOut = p->pOut;
  sql_expr_list *pList = pSel->pItems;
  int nItem = pList != NULL ? pList->n : 0, nOut = 0, bStar = 0;

  p->eClause = BIND_CLAUSE_SELECT;
  for (int i = 0; i < nItem; i++) {
    const sql_expr *e = pList->a[i].pExpr;
    if (e != NULL && e->eKind == SQL_EXPR_STAR) {
      bStar = 1;
      nOut += bind_star_width(p, e);
    } else {
      nOut++;
    }
  }
  if (bStar || pList == NULL) {
    sql_expr_list *pNew = arena_alloc(p->pArena, sizeof(sql_expr_list));
    if (pNew == NULL) return bind__oom(p);
    pNew->a = arena_alloc(p->pArena, sizeof(sql_expr_item) * (size_t)(nOut > 0 ? nOut : 1));
    if (pNew->a == NULL) return bind__oom(p);
    pNew->nAlloc = nOut;
    pOut->pItems = pNew;
  } else {
    pOut->pItems = pList;
  }
  pOut->aOutput = arena_alloc(p->pArena, sizeof(bind_output) * (size_t)(nOut > 0 ? nOut : 1));
  if (pOut->aOutput == NULL) return bind__oom(p);

  for (int i = 0; i < nItem; i++) {
    sql_expr_item *pItem = &pList->a[i];
    if (pItem->pExpr == NULL) {
      sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, -1, "select list item without an expression");
      return -1;
    }
    if (pItem->pExpr->eKind == SQL_EXPR_STAR) {
      int iFirst = pOut->pItems->n;
      if (bind_star_expand(p, pItem->pExpr, pOut->pItems) != 0) return -1;
      for (int k = iFirst; k < pOut->pItems->n; k++) {
        bind_output_set(p, k, &pOut->pItems->a[k]);
      }
      continue;
    }
    if (bind__expr(p, pItem->pExpr) != 0) return -1;
    if (bStar) pOut->pItems->a[pOut->pItems->n++] = *pItem;
    bind_output_set(p, bStar ? pOut->pItems->n - 1 : i, pItem);
  }
  pOut->nOutput = nOut;
  return 0;
}

/* ---- LIMIT and OFFSET ----------------------------------------------------- */

/* Returns the first column reference at or below e, or NULL. */
static const sql_expr *bind_first_column(const sql_expr *e) {
  const sql_expr *r;
  if (e == NULL) return NULL;
  if (e->eKind == SQL_EXPR_COLUMN) return e;
  if ((r = bind_first_column(e->pLeft)) != NULL) return r;
  if ((r = bind_first_column(e->pRight)) != NULL) return r;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if ((r = bind_first_column(e->pList->a[i].pExpr)) != NULL) return r;
  }
  return NULL;
}

/* Binds LIMIT or OFFSET expression e (zWhat names it) into *pv: a
** constant integer expression, not negative; NULL leaves *pv alone (LIMIT
** NULL is no limit, OFFSET NULL is 0, as in PostgreSQL). */
static int bind_limit(bind_ctx *p, sql_expr *e, const char *zWhat, int64_t *pv) {
  const sql_expr *pCol;
  coltype_id eId;
  int64_t v;
  int rc;

  if (e == NULL) return 0;
  if (bind__expr(p, e) != 0) return -1;
  if ((pCol = bind_first_column(e)) != NULL) {
    sql_error_set(p->pErr, SQLSTATE_INVALID_COLUMN_REF, pCol->iOffset,
                  "argument of %s must not contain variables", zWhat);
    return -1;
  }
  if (e->eKind == SQL_EXPR_STRING) {
    coltype tBig = {COLTYPE_BIGINT, 0, 0, 0};
    if (bind__literal_coerce(p, e, tBig) != 0) return -1;
  }
  eId = e->b.type.eId;
  if (eId != COLTYPE_SMALLINT && eId != COLTYPE_INTEGER && eId != COLTYPE_BIGINT &&
      eId != COLTYPE_UNKNOWN) {
    sql_error_set(p->pErr, SQLSTATE_DATATYPE_MISMATCH, e->iOffset,
                  "argument of %s must be type bigint, not type %s", zWhat, bind__type_name(e));
    return -1;
  }
  if ((rc = bind__const_int(p, e, &v)) < 0) return -1;
  if (rc == 0) return 0;                      /* NULL */
  if (v < 0) {
    int bLimit = strcmp(zWhat, "LIMIT") == 0;
    sql_error_set(p->pErr, bLimit ? SQLSTATE_INVALID_LIMIT : SQLSTATE_INVALID_OFFSET, e->iOffset,
                  "%s must not be negative", zWhat);
    return -1;
  }
  *pv = v;
  return 0;
}

/* ---- bind_select ------------------------------------------------------------ */

int bind_select(cat *pCat, sql_select *pSelect, arena *pArena, bound_select *pOut,
                sql_error *pErr) {
  return bind_select_env(pCat, pSelect, pArena, NULL, pOut, pErr);
}

int bind_select_env(cat *pCat, sql_select *pSelect, arena *pArena, const bind_env *pEnv,
                    bound_select *pOut, sql_error *pErr) {
  bind_ctx c;

  memset(pOut, 0, sizeof(*pOut));
  pOut->pSelect = pSelect;
  pOut->nLimit = -1;
  sql_error_clear(pErr);
  memset(&c, 0, sizeof(c));
  c.pCat = pCat;
  c.pArena = pArena;
  c.pErr = pErr;
  c.pOut = pOut;
  c.iScopeLast = -1;
  c.pEnv = pEnv;
  if (pSelect == NULL) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "no SELECT to bind");
    return -1;
  }
  if (bind__refuse_query(&c, pSelect) != 0) return -1;

  /* PostgreSQL's transformSelectStmt order: FROM (with ON), select list,
  ** WHERE, HAVING, ORDER BY, GROUP BY, DISTINCT, LIMIT, OFFSET, then the
  ** grouping check. */
  if (bind_from(&c, pSelect->pFrom) != 0) return -1;
  if (bind_select_list(&c, pSelect) != 0) return -1;
  if (pSelect->pWhere != NULL) {
    c.eClause = BIND_CLAUSE_WHERE;
    if (bind__condition(&c, pSelect->pWhere, "WHERE") != 0) return -1;
  }
  if (pSelect->pHaving != NULL) {
    c.eClause = BIND_CLAUSE_HAVING;
    if (bind__condition(&c, pSelect->pHaving, "HAVING") != 0) return -1;
  }
  if (bind__order_by(&c, pSelect) != 0) return -1;
  if (bind__group_by(&c, pSelect) != 0) return -1;
  if (bind__distinct(&c, pSelect) != 0) return -1;
  c.eClause = BIND_CLAUSE_LIMIT;
  if (bind_limit(&c, pSelect->pLimit, "LIMIT", &pOut->nLimit) != 0) return -1;
  c.eClause = BIND_CLAUSE_OFFSET;
  if (bind_limit(&c, pSelect->pOffset, "OFFSET", &pOut->nOffset) != 0) return -1;
  pOut->bAggregate = (pSelect->pGroupBy != NULL && pSelect->pGroupBy->n > 0) ||
                     pOut->nAgg > 0 || pSelect->pHaving != NULL || pOut->nGroupSet > 0 ||
                     c.bGroupingOp;
  if (pOut->bAggregate && bind__grouping_check(&c, pSelect) != 0) return -1;
  return 0;
}

int bind_limits(cat *pCat, sql_select *pSelect, arena *pArena, int64_t *pnLimit, int64_t *pnOffset,
                sql_error *pErr) {
  bound_select b;
  bind_ctx c;
  memset(&b, 0, sizeof(b));
  memset(&c, 0, sizeof(c));
  c.pCat = pCat;
  c.pArena = pArena;
  c.pErr = pErr;
  c.pOut = &b;
  c.iScopeLast = -1;
  *pnLimit = -1;
  *pnOffset = 0;
  c.eClause = BIND_CLAUSE_LIMIT;
  if (bind_limit(&c, pSelect->pLimit, "LIMIT", pnLimit) != 0) return -1;
  c.eClause = BIND_CLAUSE_OFFSET;
  return bind_limit(&c, pSelect->pOffset, "OFFSET", pnOffset);
}

/* Frees the tables bind_select() read; safe after a failed bind and when
** called twice. Call it before freeing the arena: aSource lives there. */
void bind_select_free(bound_select *p) {
  if (p == NULL) return;
  for (int i = 0; i < p->nSource; i++) {
    cat_table_free(p->aSource[i].pTable);
    p->aSource[i].pTable = NULL;
  }
  p->nSource = 0;
}
