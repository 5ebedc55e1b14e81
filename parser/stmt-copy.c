/*
** parser/stmt-copy.c — COPY: its source or target, column list and
** options, in both of PostgreSQL's option syntaxes (WITH (FORMAT csv,
** HEADER) and the older WITH CSV HEADER DELIMITER AS ',' NULL AS '').
**
** Options are judged as PostgreSQL's ProcessCopyOptions() judges them: an
** unknown name is 42601 "option ... not recognized", a repeated one 42601
** "conflicting or redundant options", a missing value 42601, a format
** other than text, csv, binary (and starq's tbl) 22023; errors point at
** the option.
**
** COPY ... FROM is the statement the server runs today (server/stmt-copy.c
** and the loader); it does not look at what it does not know, so
** sql_stmt_copy() refuses with 0A000 what a COPY FROM would silently get
** wrong: options beyond FORMAT, HEADER,
** DELIMITER and NULL, a schema other than public. COPY ... TO, and COPY
** (query) TO, are SQL_STMT_COPY_TO: they keep every option (the server
** judges them as PostgreSQL's ProcessCopyOptions does: stmt-copyout.c),
** and COPY t [(cols)] TO carries the SELECT it reads (pTableQuery).
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql_copy_new, sql_copy_query, sql_copy_option, sql_stmt_copy
*/
#include <string.h>
#include <strings.h>

#include "parser/parse.h"
#include "parseInt.h"

/* The options of COPY, in PostgreSQL's order; their bits in mSeen. */
enum {
  COPY_FORMAT = 0, COPY_FREEZE, COPY_DELIMITER, COPY_NULL, COPY_HEADER, COPY_QUOTE, COPY_ESCAPE,
  COPY_FORCE_QUOTE, COPY_FORCE_NOT_NULL, COPY_FORCE_NULL, COPY_ENCODING, COPY_N_OPTION
};
static const char *const azCopyOption[COPY_N_OPTION] = {
  "format", "freeze", "delimiter", "null", "header", "quote", "escape", "force_quote",
  "force_not_null", "force_null", "encoding",
};

/* The COPY being built, with the options seen so far and where. */
typedef struct sql_copy_build sql_copy_build;
struct sql_copy_build {
  sql_copy c;              /* first, so a sql_copy * is this struct */
  unsigned mSeen;          /* 1 << COPY_*: the options given */
  int aiOffset[COPY_N_OPTION]; /* where each was written */
};

/* Returns a new COPY of direction bTo whose file is tFile: a string, or
** STDIN or STDOUT (both the client's end, as in PostgreSQL). */
static sql_copy_build *sql_copy_alloc(sql_parse_ctx *p, int bTo, sql_token tFile) {
  sql_copy_build *b;
  int eType, bStdio;
  sql__token_get(tFile.z, &eType);
  bStdio = eType != TK_STRING && ((tFile.n == 5 && strncasecmp(tFile.z, "stdin", 5) == 0) ||
                                  (tFile.n == 6 && strncasecmp(tFile.z, "stdout", 6) == 0));
  if (eType != TK_STRING && !bStdio) {
    sql__error_syntax(p, tFile);   /* a file is a string; the words are STDIN and STDOUT */
    return NULL;
  }
  b = sql__alloc(p, sizeof(*b));
  if (b == NULL) return NULL;
  b->c.bTo = bTo != 0;
  b->c.bStdin = bStdio;
  b->c.zPath = bStdio ? NULL : sql__string_text(p, tFile);
  b->c.iPathOffset = sql_token_offset(p, tFile);
  return sql_parse_failed(p) ? NULL : b;
}

/* COPY t [(a, b)] TO reads what SELECT a, b FROM t (or TABLE t) would:
** that query, its names where the COPY writes them (a column at the
** list's '(', the table at its name), so the engine binds it as any
** SELECT and its errors point into the COPY. Duplicates in the list are
** 42701, as PostgreSQL's CopyGetAttnums says. */
static sql_select *sql_copy_table_query(sql_parse_ctx *p, sql_qname name, sql_name_list *pCols) {
  sql_alias none = sql_alias_new(sql_token_none(), NULL);
  sql_distinct all = sql_distinct_new(0, sql_token_none(), NULL);
  sql_expr_list *pItems = NULL;
  sql_token tLp;
  if (pCols == NULL) return sql_select_table(p, name.tName, name);
  tLp.z = p->zSql + pCols->iOffset;
  tLp.n = 1;
  for (int i = 0; i < pCols->n; i++) {
    sql_expr *e;
    for (int k = 0; k < i; k++) {
      if (strcmp(pCols->az[k], pCols->az[i]) == 0) {
        sql_error_set(p->pErr, SQLSTATE_DUPLICATE_COLUMN, pCols->iOffset,
                      "column \"%s\" specified more than once", pCols->az[i]);
        return NULL;
      }
    }
    if ((e = sql_expr_column(p, NULL, NULL, tLp)) == NULL) return NULL;
    e->zName = pCols->az[i];
    pItems = sql_select_item_append(p, pItems, e, sql_token_none());
  }
  return sql_select_new(p, name.tName, &all, pItems,
                        sql_src_append(p, NULL, sql_src_table(p, name, &none)), NULL, NULL, NULL,
                        NULL);
}

sql_copy *sql_copy_new(sql_parse_ctx *p, sql_token tBinary, sql_qname name, sql_name_list *pCols,
                       int bTo, sql_token tFile) {
  sql_copy_build *b;
  if (sql_parse_failed(p)) return NULL;
  b = sql_copy_alloc(p, bTo, tFile);
  if (b == NULL) return NULL;
  b->c.zTable = sql__name_text(p, name.tName);
  b->c.iOffset = sql_token_offset(p, name.tName);
  if (name.tSchema.z != NULL) b->c.zSchema = sql__name_text(p, name.tSchema);
  if (pCols != NULL) {
    b->c.nCol = pCols->n;
    b->c.azCol = pCols->az;
    b->c.iColOffset = pCols->iOffset;
  }
  if (bTo) b->c.pTableQuery = sql_copy_table_query(p, name, pCols);
  if (tBinary.z != NULL) {
    /* COPY BINARY t: the oldest spelling of FORMAT binary. */
    sql_copy_opt o = sql_copy_opt_old(tBinary, "format", tBinary, NULL, 0);
    sql_copy_option(p, &b->c, &o);
  }
  return sql_parse_failed(p) ? NULL : &b->c;
}

sql_copy *sql_copy_query(sql_parse_ctx *p, sql_token tLp, sql_select *pQuery, sql_token tFile) {
  sql_copy_build *b;
  if (sql_parse_failed(p)) return NULL;
  b = sql_copy_alloc(p, 1, tFile);
  if (b == NULL) return NULL;
  b->c.pQuery = pQuery;
  b->c.iOffset = sql_token_offset(p, tLp);
  return &b->c;
}

/* Copies list pList's names into *pn, *paz; 22023 if there is none, as
** PostgreSQL says when an option that takes columns gets a value. */
static void sql_copy_columns(sql_parse_ctx *p, const sql_copy_opt *o, const char *zName, int iName,
                             int *pn, const char ***paz) {
  if (o->pList == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INVALID_PARAMETER, iName,
                  "argument to option \"%s\" must be a list of column names", zName);
    return;
  }
  *pn = o->pList->n;
  *paz = o->pList->az;
}

void sql_copy_option(sql_parse_ctx *p, sql_copy *pCopy, const sql_copy_opt *pOpt) {
  sql_copy_build *b = (sql_copy_build *)pCopy;
  const char *zName, *zArg;
  int iName = sql_token_offset(p, pOpt->tName), iOpt = -1;
  if (sql_parse_failed(p)) return;
  zName = pOpt->zName != NULL ? pOpt->zName : sql__name_text(p, pOpt->tName);
  zArg = pOpt->bStar || pOpt->pList != NULL ? NULL : sql__arg_text(p, pOpt->tArg);
  if (zName == NULL || sql_parse_failed(p)) return;
  for (int i = 0; i < COPY_N_OPTION; i++) {
    if (strcmp(zName, azCopyOption[i]) == 0) iOpt = i;
  }
  if (iOpt < 0) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iName, "option \"%s\" not recognized", zName);
    return;
  }
  if (b->mSeen & (1u << iOpt)) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iName, "conflicting or redundant options");
    return;
  }
  b->mSeen |= 1u << iOpt;
  b->aiOffset[iOpt] = iName;
  if (zArg == NULL && pOpt->pList == NULL && !pOpt->bStar && iOpt != COPY_HEADER &&
      iOpt != COPY_FREEZE && iOpt != COPY_FORCE_QUOTE && iOpt != COPY_FORCE_NOT_NULL &&
      iOpt != COPY_FORCE_NULL) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iName, "%s requires a parameter", zName);
    return;
  }
  if ((pOpt->pList != NULL || pOpt->bStar) && iOpt != COPY_FORCE_QUOTE &&
      iOpt != COPY_FORCE_NOT_NULL && iOpt != COPY_FORCE_NULL) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iName, "%s requires a %s value", zName,
                  iOpt == COPY_HEADER || iOpt == COPY_FREEZE ? "Boolean" : "string");
    return;
  }
  switch (iOpt) {
    case COPY_FORMAT:
      if (strcasecmp(zArg, "tbl") == 0 || strcasecmp(zArg, "csv") == 0 ||
          strcasecmp(zArg, "text") == 0 || strcasecmp(zArg, "binary") == 0) {
        char *z = arena_strndup(p->pArena, zArg, strlen(zArg));
        if (z == NULL) {
          sql__error_oom(p);
          return;
        }
        for (char *c = z; *c; c++) *c = (char)(*c | 0x20);
        pCopy->zFormat = z;
      } else {
        sql_error_set(p->pErr, SQLSTATE_INVALID_PARAMETER, iName,
                      "COPY format \"%s\" not recognized", zArg);
      }
      break;
    case COPY_HEADER:
    case COPY_FREEZE: {
      int v = sql__arg_bool(zArg);
      if (v < 0) {
        sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iName, "%s requires a Boolean value", zName);
      } else if (iOpt == COPY_HEADER) {
        pCopy->bHeader = v == 1;
      } else {
        pCopy->bFreeze = v == 1;
      }
      break;
    }
    case COPY_DELIMITER:
      if (strlen(zArg) != 1) {
        sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, iName,
                      "COPY delimiter must be a single one-byte character");
      }
      pCopy->zDelimiter = zArg;
      break;
    case COPY_NULL: pCopy->zNull = zArg; break;
    case COPY_QUOTE: pCopy->zQuote = zArg; break;
    case COPY_ESCAPE: pCopy->zEscape = zArg; break;
    case COPY_ENCODING: pCopy->zEncoding = zArg; break;
    case COPY_FORCE_QUOTE:
      if (pOpt->bStar) {
        pCopy->bForceQuoteAll = 1;
      } else {
        sql_copy_columns(p, pOpt, zName, iName, &pCopy->nForceQuote, &pCopy->azForceQuote);
      }
      break;
    case COPY_FORCE_NOT_NULL:
      sql_copy_columns(p, pOpt, zName, iName, &pCopy->nForceNotNull, &pCopy->azForceNotNull);
      break;
    default:
      sql_copy_columns(p, pOpt, zName, iName, &pCopy->nForceNull, &pCopy->azForceNull);
      break;
  }
}

/* Refuses (0A000) what COPY ... FROM has in its tree that the server's
** load does not do yet. Returns 0 or -1. */
static int sql_copy_from_check(sql_parse_ctx *p, const sql_copy_build *b) {
  const sql_copy *c = &b->c;
  if (c->zSchema != NULL && strcmp(c->zSchema, "public") != 0) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, c->iOffset,
                  "COPY into schema \"%s\" is not supported: starq's tables are in schema public",
                  c->zSchema);
    return -1;
  }
  for (int i = 0; i < COPY_N_OPTION; i++) {
    if (!(b->mSeen & (1u << i))) continue;
    if (i != COPY_FORMAT && i != COPY_HEADER && i != COPY_DELIMITER && i != COPY_NULL) {
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, b->aiOffset[i],
                    "COPY option \"%s\" is not supported", azCopyOption[i]);
      return -1;
    }
  }
  return 0;
}

sql_stmt *sql_stmt_copy(sql_parse_ctx *p, sql_copy *pCopy) {
  sql_stmt *s;
  if (sql_parse_failed(p)) return NULL;
  if (!pCopy->bTo && sql_copy_from_check(p, (sql_copy_build *)pCopy) != 0) return NULL;
  s = sql_stmt_new(p, pCopy->bTo ? SQL_STMT_COPY_TO : SQL_STMT_COPY);
  if (s != NULL) s->pCopy = pCopy;
  return s;
}
