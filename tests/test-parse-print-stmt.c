/*
** tests/test-parse-print-stmt.c — the printer of test-parse-print.c for
** queries and statements, and the entry points parse_print_script and
** parse_dump (test-parse.h).
**
** Queries, by example:
**
**   (select [:distinct] [:distinct-on (E ...)] [(with ...)] (items E [:as a]
**        ...) (from ...) (where E) (group E ...) (having E) (windows W ...)
**        (order E :desc :nulls-first ...) (limit E) [:with-ties] (offset E))
**   (values (row ...) ...)          (union [:all] Q Q) intersect except
**   (with [:recursive] (cte name [(cols)] [:materialized] Q) ...)
**   FROM items  t  s.t  (t :as a (c1 c2))  (join t :on E)  left-join
**               right-join full-join cross-join, :natural, :using (a b),
**               (subquery [:lateral] Q :as a), (function [:lateral]
**               [:ordinality] CALL :as a), (nested (from ...) :as a)
**
** Statements: (create-table [:if-not-exists] t (column c TYPE [:not-null]
** [:primary-key] [:references t2[(c2)]]) (primary-key a b) (foreign-key
** (a) :references t2 [(b)])), (drop-table [:if-exists] t), (copy t
** [(cols)] 'path'|stdin [:format f] [:header] ... ) and copy-to, (explain
** [:analyze] [:verbose] STMT), (show-tables), (show name), (set name
** 'value' ...) or (set name default), (reset name), (set-transaction
** [:session] MODES), (begin MODES), (commit), (rollback), (savepoint x)
** (release x) (rollback-to x), (declare c [:binary] ... Q), (fetch c
** :forward 1) (move ...), (close c) (close-all), (deallocate x)
** (deallocate-all), (discard all).
*/
#include "../common/strbuf.h"
#include "test-parse.h"
#include "test.h"

/* ---- FROM ------------------------------------------------------------------ */

static void pp_from(pp_buf *b, const sql_src_list *pList);

static void pp_src(pp_buf *b, const sql_src_item *pSrc, int bFirst) {
  static const char *const azJoin[] = {"", "join", "left-join", "right-join", "full-join",
                                       "cross-join"};
  int bParen = pSrc->zAlias != NULL || pSrc->eJoin != SQL_JOIN_COMMA ||
               pSrc->eKind != SQL_SRC_TABLE || pSrc->nColAlias > 0;
  ASSERT(!bFirst || pSrc->eJoin == SQL_JOIN_COMMA);
  ASSERT(pSrc->pOn == NULL || pSrc->nUsing == 0);
  ASSERT(pSrc->eJoin == SQL_JOIN_COMMA || pSrc->eJoin == SQL_JOIN_CROSS || pSrc->bNatural ||
         pSrc->pOn != NULL || pSrc->nUsing > 0);
  ASSERT(pSrc->nColAlias == 0 || pSrc->zAlias != NULL);
  pp_printf(b, " %s", bParen ? "(" : "");
  if (pSrc->eJoin != SQL_JOIN_COMMA) {
    pp_printf(b, "%s", azJoin[pSrc->eJoin]);
    pp_offset(b, pSrc->iJoinOffset);
    pp_printf(b, "%s ", pSrc->bNatural ? " :natural" : "");
  }
  switch (pSrc->eKind) {
    case SQL_SRC_TABLE:
      ASSERT(pSrc->zName != NULL && pSrc->pSelect == NULL && pSrc->pFunc == NULL);
      pp_printf(b, "%s%s%s", pSrc->zSchema ? pSrc->zSchema : "", pSrc->zSchema ? "." : "",
                pSrc->zName);
      pp_offset(b, pSrc->iOffset);
      break;
    case SQL_SRC_SUBQUERY:
      ASSERT(pSrc->zName == NULL && pSrc->pSelect != NULL);
      pp_printf(b, "subquery");
      pp_offset(b, pSrc->iOffset);
      pp_printf(b, "%s ", pSrc->bLateral ? " :lateral" : "");
      pp_select(b, pSrc->pSelect);
      break;
    case SQL_SRC_FUNCTION:
      ASSERT(pSrc->zName == NULL && pSrc->pFunc != NULL && pSrc->pFunc->eKind == SQL_EXPR_FUNC);
      pp_printf(b, "function");
      pp_offset(b, pSrc->iOffset);
      pp_printf(b, "%s%s ", pSrc->bLateral ? " :lateral" : "", pSrc->bOrdinality ? " :ordinality" : "");
      pp_expr(b, pSrc->pFunc);
      break;
    case SQL_SRC_JOIN:
      ASSERT(pSrc->zName == NULL && pSrc->pNested != NULL && pSrc->pNested->n >= 2);
      pp_printf(b, "nested");
      pp_offset(b, pSrc->iOffset);
      pp_printf(b, " (from");
      pp_from(b, pSrc->pNested);
      pp_printf(b, ")");
      break;
  }
  if (pSrc->zAlias != NULL) {
    pp_printf(b, " :as %s", pSrc->zAlias);
    pp_offset(b, pSrc->iAliasOffset);
  }
  if (pSrc->nColAlias > 0) {
    pp_printf(b, " ");
    pp_names(b, pSrc->nColAlias, pSrc->azColAlias);
  }
  if (pSrc->pOn != NULL) {
    pp_printf(b, " :on ");
    pp_expr(b, pSrc->pOn);
  }
  if (pSrc->nUsing > 0) {
    pp_printf(b, " :using");
    pp_offset(b, pSrc->iUsingOffset);
    pp_printf(b, " ");
    pp_names(b, pSrc->nUsing, pSrc->azUsing);
  }
  if (bParen) pp_printf(b, ")");
}

static void pp_from(pp_buf *b, const sql_src_list *pList) {
  ASSERT(pList != NULL && pList->n > 0 && pList->n <= pList->nAlloc);
  for (int i = 0; i < pList->n; i++) pp_src(b, &pList->a[i], i == 0);
}

/* ---- queries ------------------------------------------------------------------- */

static void pp_with(pp_buf *b, const sql_with *w) {
  static const char *const azMat[] = {"", " :materialized", " :not-materialized"};
  ASSERT(w->nCte > 0);
  pp_printf(b, " (with");
  pp_offset(b, w->iOffset);
  if (w->bRecursive) pp_printf(b, " :recursive");
  for (int i = 0; i < w->nCte; i++) {
    const sql_cte *c = &w->aCte[i];
    pp_printf(b, " (cte %s", c->zName);
    pp_offset(b, c->iOffset);
    if (c->nCol > 0) {
      pp_printf(b, " ");
      pp_names(b, c->nCol, c->azCol);
    }
    pp_printf(b, "%s ", azMat[c->eMaterialized]);
    pp_select(b, c->pSelect);
    pp_printf(b, ")");
  }
  pp_printf(b, ")");
}

static void pp_select_items(pp_buf *b, const sql_select *s) {
  pp_printf(b, " (items");
  for (int i = 0; i < s->pItems->n; i++) {
    const sql_expr_item *pItem = &s->pItems->a[i];
    pp_printf(b, " ");
    pp_expr(b, pItem->pExpr);
    if (pItem->zAlias != NULL) {
      pp_printf(b, " :as %s", pItem->zAlias);
      pp_offset(b, pItem->iAliasOffset);
    }
    ASSERT(!pItem->bDesc && pItem->eNulls == SQL_NULLS_DEFAULT);
  }
  pp_printf(b, ")");
}

static void pp_select_simple(pp_buf *b, const sql_select *s) {
  ASSERT(s->pItems != NULL && s->pValues == NULL && s->pLeft == NULL);
  if (s->bDistinct) pp_printf(b, " :distinct");
  if (s->pDistinctOn != NULL) {
    ASSERT(s->bDistinct);
    pp_printf(b, " :distinct-on");
    pp_offset(b, s->iDistinctOnOffset);
    pp_printf(b, " (");
    pp_list(b, s->pDistinctOn);
    pp_printf(b, ")");
  }
  if (s->pWith != NULL) pp_with(b, s->pWith);
  pp_select_items(b, s);
  if (s->pFrom != NULL) {
    pp_printf(b, " (from");
    pp_from(b, s->pFrom);
    pp_printf(b, ")");
  }
  if (s->pWhere != NULL) {
    pp_printf(b, " (where ");
    pp_expr(b, s->pWhere);
    pp_printf(b, ")");
  }
  if (s->pGroupBy != NULL) {
    pp_printf(b, " (group");
    pp_list(b, s->pGroupBy);
    pp_printf(b, ")");
  }
  if (s->pHaving != NULL) {
    pp_printf(b, " (having ");
    pp_expr(b, s->pHaving);
    pp_printf(b, ")");
  }
  if (s->pWindows != NULL) {
    ASSERT(s->pWindows->n > 0);
    pp_printf(b, " (windows");
    for (int i = 0; i < s->pWindows->n; i++) {
      pp_printf(b, " ");
      pp_window(b, s->pWindows->a[i], 1);
    }
    pp_printf(b, ")");
  }
}

void pp_select(pp_buf *b, const sql_select *s) {
  static const char *const azOp[] = {"select", "values", "union", "intersect", "except"};
  ASSERT(s != NULL && s->nHeight >= 1 && s->nHeight <= SQL_DEPTH_MAX);
  pp_printf(b, "(%s", azOp[s->eOp]);
  if (s->eOp != SQL_SELECT_SIMPLE) pp_offset(b, s->iOffset);
  switch (s->eOp) {
    case SQL_SELECT_SIMPLE: pp_select_simple(b, s); break;
    case SQL_SELECT_VALUES:
      ASSERT(s->pItems == NULL && s->pFrom == NULL && s->pValues != NULL);
      if (s->pWith != NULL) pp_with(b, s->pWith);
      pp_list(b, s->pValues);
      break;
    default:
      ASSERT(s->pItems == NULL && s->pLeft != NULL && s->pRight != NULL);
      ASSERT(s->nHeight > s->pLeft->nHeight && s->nHeight > s->pRight->nHeight);
      if (s->bAll) pp_printf(b, " :all");
      if (s->pWith != NULL) pp_with(b, s->pWith);
      pp_printf(b, " ");
      pp_select(b, s->pLeft);
      pp_printf(b, " ");
      pp_select(b, s->pRight);
      break;
  }
  if (s->pOrderBy != NULL) {
    pp_printf(b, " (order");
    pp_order(b, s->pOrderBy);
    pp_printf(b, ")");
  }
  if (s->pLimit != NULL) {
    pp_printf(b, " (limit ");
    pp_expr(b, s->pLimit);
    pp_printf(b, ")");
  }
  if (s->bWithTies) {
    pp_printf(b, " :with-ties");
    pp_offset(b, s->iFetchOffset);
  }
  if (s->pOffset != NULL) {
    pp_printf(b, " (offset ");
    pp_expr(b, s->pOffset);
    pp_printf(b, ")");
  }
  pp_printf(b, ")");
}

/* ---- other statements --------------------------------------------------------- */

static void pp_create(pp_buf *b, const sql_create *c) {
  char zType[64];
  pp_printf(b, "(create-table%s %s", c->bIfNotExists ? " :if-not-exists" : "", c->zName);
  pp_offset(b, c->iOffset);
  for (int i = 0; i < c->nCol; i++) {
    const sql_column_def *d = &c->aCol[i];
    pp_printf(b, " (column %s", d->zName);
    pp_offset(b, d->iOffset);
    pp_printf(b, " %s", coltype_format(d->type, zType, sizeof(zType)));
    for (int k = 0; k < d->nArrayDim; k++) pp_printf(b, "[]");
    if (d->bNotNull) pp_printf(b, " :not-null");
    if (d->bPrimaryKey) pp_printf(b, " :primary-key");
    if (d->zRefTable != NULL) {
      pp_printf(b, " :references %s", d->zRefTable);
      pp_offset(b, d->iRefOffset);
      if (d->zRefColumn != NULL) pp_printf(b, "(%s)", d->zRefColumn);
    } else {
      ASSERT(d->zRefColumn == NULL);
    }
    pp_printf(b, ")");
  }
  for (int i = 0; i < c->nKey; i++) {
    const sql_table_key *k = &c->aKey[i];
    pp_printf(b, " (%s", k->bForeign ? "foreign-key (" : "primary-key ");
    ASSERT(k->nCol > 0);
    for (int j = 0; j < k->nCol; j++) pp_printf(b, "%s%s", j ? " " : "", k->azCol[j]);
    if (k->bForeign) {
      pp_printf(b, ") :references %s", k->zRefTable);
      if (k->nRefCol > 0) {
        pp_printf(b, " ");
        pp_names(b, k->nRefCol, k->azRefCol);
      }
    } else {
      ASSERT(k->zRefTable == NULL && k->nRefCol == 0);
    }
    pp_printf(b, ")");
    pp_offset(b, k->iOffset);
  }
  pp_printf(b, ")");
}

/* Prints " :name 'value'" for a string option that is set. */
static void pp_copy_string(pp_buf *b, const char *zName, const char *zValue) {
  if (zValue == NULL) return;
  pp_printf(b, " :%s ", zName);
  pp_string(b, zValue);
}

static void pp_copy(pp_buf *b, const sql_stmt *s) {
  const sql_copy *c = s->pCopy;
  ASSERT(c != NULL && (s->eKind == SQL_STMT_COPY_TO) == c->bTo);
  ASSERT((c->zTable != NULL) != (c->pQuery != NULL));
  pp_printf(b, "(%s ", c->bTo ? "copy-to" : "copy");
  if (c->pQuery != NULL) {
    pp_select(b, c->pQuery);
  } else {
    pp_printf(b, "%s%s%s", c->zSchema ? c->zSchema : "", c->zSchema ? "." : "", c->zTable);
  }
  pp_offset(b, c->iOffset);
  if (c->nCol > 0) {
    pp_printf(b, " ");
    pp_names(b, c->nCol, c->azCol);
    pp_offset(b, c->iColOffset);
  }
  pp_printf(b, " ");
  ASSERT(c->bStdin == (c->zPath == NULL));
  if (c->bStdin) pp_printf(b, c->bTo ? "stdout" : "stdin");
  else pp_string(b, c->zPath);
  pp_offset(b, c->iPathOffset);
  if (c->zFormat != NULL) pp_printf(b, " :format %s", c->zFormat);
  if (c->bHeader) pp_printf(b, " :header");
  if (c->bFreeze) pp_printf(b, " :freeze");
  pp_copy_string(b, "delimiter", c->zDelimiter);
  pp_copy_string(b, "null", c->zNull);
  pp_copy_string(b, "quote", c->zQuote);
  pp_copy_string(b, "escape", c->zEscape);
  pp_copy_string(b, "encoding", c->zEncoding);
  if (c->bForceQuoteAll) pp_printf(b, " :force-quote *");
  if (c->nForceQuote > 0) {
    pp_printf(b, " :force-quote ");
    pp_names(b, c->nForceQuote, c->azForceQuote);
  }
  if (c->nForceNotNull > 0) {
    pp_printf(b, " :force-not-null ");
    pp_names(b, c->nForceNotNull, c->azForceNotNull);
  }
  if (c->nForceNull > 0) {
    pp_printf(b, " :force-null ");
    pp_names(b, c->nForceNull, c->azForceNull);
  }
  pp_printf(b, ")");
}

static void pp_txn(pp_buf *b, const sql_txn_modes *m) {
  static const char *const azIso[] = {"", "read-uncommitted", "read-committed", "repeatable-read",
                                      "serializable"};
  if (m->eIsolation) pp_printf(b, " :isolation %s", azIso[m->eIsolation]);
  if (m->eReadOnly) pp_printf(b, m->eReadOnly == 1 ? " :read-only" : " :read-write");
  if (m->eDeferrable) pp_printf(b, m->eDeferrable == 1 ? " :deferrable" : " :not-deferrable");
}

static void pp_cursor(pp_buf *b, const sql_stmt *s) {
  static const char *const azDir[] = {"forward", "backward", "absolute", "relative"};
  if (s->eKind == SQL_STMT_DECLARE_CURSOR) {
    pp_printf(b, "(declare %s", s->zName);
    if (s->mCursor & SQL_CURSOR_BINARY) pp_printf(b, " :binary");
    if (s->mCursor & SQL_CURSOR_INSENSITIVE) pp_printf(b, " :insensitive");
    if (s->mCursor & SQL_CURSOR_SCROLL) pp_printf(b, " :scroll");
    if (s->mCursor & SQL_CURSOR_NO_SCROLL) pp_printf(b, " :no-scroll");
    if (s->mCursor & SQL_CURSOR_HOLD) pp_printf(b, " :hold");
    pp_printf(b, " ");
    pp_select(b, s->pSelect);
    pp_printf(b, ")");
    return;
  }
  pp_printf(b, "(%s %s :%s", s->bMove ? "move" : "fetch", s->zName, azDir[s->eFetch]);
  if (s->bFetchAll) pp_printf(b, " all");
  else pp_printf(b, " %lld", (long long)s->nFetch);
  pp_printf(b, ")");
}

static void pp_stmt(pp_buf *b, const sql_stmt *s) {
  ASSERT(s != NULL);
  switch (s->eKind) {
    case SQL_STMT_SELECT: pp_select(b, s->pSelect); break;
    case SQL_STMT_CREATE_TABLE: pp_create(b, s->pCreate); break;
    case SQL_STMT_DROP_TABLE:
      pp_printf(b, "(drop-table%s %s)", s->bIfExists ? " :if-exists" : "", s->zName);
      break;
    case SQL_STMT_COPY:
    case SQL_STMT_COPY_TO: pp_copy(b, s); break;
    case SQL_STMT_EXPLAIN:
      ASSERT(s->pExplain != NULL && s->pExplain->eKind != SQL_STMT_EXPLAIN);
      pp_printf(b, "(explain%s%s ", s->bAnalyze ? " :analyze" : "", s->bVerbose ? " :verbose" : "");
      pp_stmt(b, s->pExplain);
      pp_printf(b, ")");
      break;
    case SQL_STMT_SHOW_TABLES: pp_printf(b, "(show-tables)"); break;
    case SQL_STMT_SHOW: pp_printf(b, "(show %s)", s->zName); break;
    case SQL_STMT_RESET: pp_printf(b, "(reset %s)", s->zName); break;
    case SQL_STMT_SET:
      pp_printf(b, "(set %s", s->zName);
      ASSERT((s->zValue == NULL) == (s->nValue == 0));
      for (int i = 0; i < s->nValue; i++) {
        pp_printf(b, " ");
        pp_string(b, s->azValue[i]);
      }
      if (s->nValue == 0) pp_printf(b, " default");
      pp_printf(b, ")");
      break;
    case SQL_STMT_SET_TRANSACTION:
      pp_printf(b, "(set-transaction%s", s->bSession ? " :session" : "");
      pp_txn(b, &s->txn);
      pp_printf(b, ")");
      break;
    case SQL_STMT_BEGIN:
      pp_printf(b, "(begin");
      pp_txn(b, &s->txn);
      pp_printf(b, ")");
      break;
    case SQL_STMT_COMMIT: pp_printf(b, "(commit)"); break;
    case SQL_STMT_ROLLBACK: pp_printf(b, "(rollback)"); break;
    case SQL_STMT_SAVEPOINT: pp_printf(b, "(savepoint %s)", s->zName); break;
    case SQL_STMT_RELEASE: pp_printf(b, "(release %s)", s->zName); break;
    case SQL_STMT_ROLLBACK_TO: pp_printf(b, "(rollback-to %s)", s->zName); break;
    case SQL_STMT_DECLARE_CURSOR:
    case SQL_STMT_FETCH: pp_cursor(b, s); break;
    case SQL_STMT_CLOSE:
      if (s->zName != NULL) pp_printf(b, "(close %s)", s->zName);
      else pp_printf(b, "(close-all)");
      break;
    case SQL_STMT_DEALLOCATE:
      if (s->zName != NULL) pp_printf(b, "(deallocate %s)", s->zName);
      else pp_printf(b, "(deallocate-all)");
      break;
    case SQL_STMT_DISCARD: pp_printf(b, "(discard %s)", s->zName); break;
  }
  if (b->mFlags & PARSE_PRINT_OFFSETS) pp_printf(b, "[%d+%d]", s->iOffset, s->nLength);
}

char *parse_print_script(const sql_script *pScript, unsigned mFlags) {
  pp_buf b = {NULL, 0, 0, mFlags};
  pp_printf(&b, "%s", "");
  for (int i = 0; i < pScript->nStmt; i++) {
    if (i > 0) pp_printf(&b, "\n");
    pp_stmt(&b, pScript->apStmt[i]);
  }
  return b.z;
}

char *parse_dump(const char *zSql, unsigned mFlags) {
  arena a;
  sql_script script;
  sql_error err;
  char *z;
  arena_init(&a);
  /* Poison the outputs so that a field the parser forgets shows. */
  memset(&script, 0x5a, sizeof(script));
  memset(&err, 0x5a, sizeof(err));
  if (sql_parse(zSql, &a, &script, &err) == 0) {
    ASSERT_STR_EQ(err.zState, "");
    z = parse_print_script(&script, mFlags);
  } else {
    pp_buf b = {NULL, 0, 0, 0};
    ASSERT_EQ(strlen(err.zState), 5);
    ASSERT(err.zMsg[0] != 0);
    ASSERT_EQ(script.nStmt, 0);
    ASSERT(script.apStmt == NULL);
    ASSERT(err.iOffset >= -1 && (err.iOffset < 0 || (size_t)err.iOffset <= strlen(zSql)));
    pp_printf(&b, "error %s @%d: %s", err.zState, err.iOffset, err.zMsg);
    z = b.z;
  }
  arena_free(&a);
  return z;
}

void parse_check(const parse_case *aCase, int nCase, unsigned mFlags) {
  for (int i = 0; i < nCase; i++) {
    char *z = parse_dump(aCase[i].zSql, mFlags & ~PARSE_CHECK_NO_DEPARSE);
    if (strcmp(z, aCase[i].zExpect) != 0) {
      FAIL("case %d: %s\n  expected: %s\n  got:      %s", i, aCase[i].zSql, aCase[i].zExpect, z);
    }
    if (strncmp(z, "error", 5) != 0 && !(mFlags & PARSE_CHECK_NO_DEPARSE)) {
      parse_check_deparse(aCase[i].zSql);
    }
    free(z);
  }
}

/* Returns zDump without double quotes (the printer marks a quoted
** column; deparse quotes only where it must). */
static char *pp_unquoted(char *zDump) {
  char *w = zDump;
  for (const char *r = zDump; *r; r++) {
    if (*r != '"') *w++ = *r;
  }
  *w = 0;
  return zDump;
}

char *parse_deparse(const char *zSql, char **pzDump) {
  arena a;
  sql_script script;
  sql_error err;
  strbuf s;
  char *z;
  arena_init(&a);
  strbuf_init(&s);
  if (sql_parse(zSql, &a, &script, &err) != 0) FAIL("%s: %s", zSql, err.zMsg);
  for (int i = 0; i < script.nStmt; i++) {
    const sql_stmt *pStmt = script.apStmt[i];
    if (pStmt->eKind != SQL_STMT_SELECT) continue;
    sql_select_deparse(&s, pStmt->pSelect);
    strbuf_puts(&s, ";\n");
  }
  if (pzDump != NULL) *pzDump = parse_print_script(&script, 0);
  z = strdup(strbuf_str(&s));
  ASSERT(z != NULL);
  strbuf_free(&s);
  arena_free(&a);
  return z;
}

void parse_check_deparse(const char *zSql) {
  char *zDump0, *zDump1, *zDump2;
  char *zText1 = parse_deparse(zSql, &zDump0);
  char *zText2 = parse_deparse(zText1, &zDump1);
  char *zText3 = parse_deparse(zText2, &zDump2);
  free(zDump2);
  if (strcmp(pp_unquoted(zDump0), pp_unquoted(zDump1)) != 0) {
    FAIL("%s\n  deparsed: %s\n  tree:     %s\n  reparsed: %s", zSql, zText1, zDump0, zDump1);
  }
  if (strcmp(zText2, zText3) != 0) FAIL("%s\n  deparsed: %s\n  again:    %s", zSql, zText2, zText3);
  free(zText1);
  free(zText2);
  free(zText3);
  free(zDump0);
  free(zDump1);
}
