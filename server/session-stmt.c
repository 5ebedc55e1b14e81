/*
** server/session-stmt.c — a session's prepared statements and portals:
** making, finding, closing and freeing them.
**
** A statement is shared by the session's list and the portals bound from
** it, and counts its references: Close takes it out of the list at once,
** but it lives (with the engine's handle) until its last portal goes, as
** a portal in PostgreSQL keeps its plan. Portals belong to the session's
** list alone and are all dropped when a transaction ends.
*/
#include <stdlib.h>
#include <string.h>

#include "sessionInt.h"

/* ---- statements ------------------------------------------------------------ */

/* Frees what p holds, leaving it zeroed (the struct itself stays). */
void session__stmt_clear(pg_session *s, session_stmt *p) {
  if (p->pEngineStmt != NULL && s->engine.xStmtFree != NULL) {
    s->engine.xStmtFree(s->engine.pCtx, p->pEngineStmt);
  }
  free(p->zName);
  free(p->zSql);
  free(p->aParamType);
  for (int i = 0; i < p->nCol; i++) free((char *)p->aCol[i].zName);
  free(p->aCol);
  memset(p, 0, sizeof(*p));
}

void session__stmt_unref(pg_session *s, session_stmt *p) {
  if (p == NULL || --p->nRef > 0) return;
  session__stmt_clear(s, p);
  free(p);
}

/* Copies nCol columns into p (names too). Returns 0 or -1 (memory). */
int session__stmt_columns(session_stmt *p, int nCol, const pgwire_column *aCol) {
  if (nCol <= 0 || aCol == NULL) return 0;
  p->aCol = calloc((size_t)nCol, sizeof(*p->aCol));
  if (p->aCol == NULL) return -1;
  for (int i = 0; i < nCol; i++) {
    p->aCol[i] = aCol[i];
    p->aCol[i].zName = session__strdup(aCol[i].zName != NULL ? aCol[i].zName : "?column?");
    p->nCol = i + 1;
    if (p->aCol[i].zName == NULL) return -1;
  }
  return 0;
}

session_stmt *session__stmt_find(pg_session *s, const char *zName) {
  for (session_stmt *p = s->pStmts; p != NULL; p = p->pNext) {
    if (strcmp(p->zName, zName) == 0) return p;
  }
  return NULL;
}

/* Puts a new statement in the list, which holds its first reference. */
void session__stmt_add(pg_session *s, session_stmt *p) {
  p->nRef = 1;
  p->pNext = s->pStmts;
  s->pStmts = p;
  if (p->zName[0] != 0) s->nNamedStmt++;
}

/* Closes statement zName, if there is one. */
void session__stmt_remove(pg_session *s, const char *zName) {
  for (session_stmt **pp = &s->pStmts; *pp != NULL; pp = &(*pp)->pNext) {
    session_stmt *p = *pp;
    if (strcmp(p->zName, zName) != 0) continue;
    *pp = p->pNext;
    if (p->zName[0] != 0) s->nNamedStmt--;
    session__stmt_unref(s, p);
    return;
  }
}

/* Frees every statement: at the end of the session, portals gone first. */
void session__stmts_free(pg_session *s) {
  while (s->pStmts != NULL) session__stmt_remove(s, s->pStmts->zName);
  if (s->pParsing != NULL) {
    session__stmt_clear(s, s->pParsing);
    free(s->pParsing);
    s->pParsing = NULL;
  }
}

/* ---- portals ---------------------------------------------------------------- */

/* Frees what p holds and drops its statement, leaving it zeroed and
** reusable (the struct itself stays). */
void session__portal_clear(pg_session *s, session_portal *p) {
  if (s->pActive == p) s->pActive = NULL;
  session__rows_clear(&p->rows);
  session__stmt_unref(s, p->pStmt);
  free(p->zName);
  free(p->aParam);
  free(p->aFormat);
  strbuf_free(&p->values);
  memset(p, 0, sizeof(*p));
  strbuf_init(&p->values);
}

session_portal *session__portal_find(pg_session *s, const char *zName) {
  for (session_portal *p = s->pPortals; p != NULL; p = p->pNext) {
    if (strcmp(p->zName, zName) == 0) return p;
  }
  return NULL;
}

void session__portal_add(pg_session *s, session_portal *p) {
  p->pNext = s->pPortals;
  s->pPortals = p;
  if (p->zName[0] != 0) s->nNamedPortal++;
}

/* Closes portal zName, if there is one. */
void session__portal_remove(pg_session *s, const char *zName) {
  for (session_portal **pp = &s->pPortals; *pp != NULL; pp = &(*pp)->pNext) {
    session_portal *p = *pp;
    if (strcmp(p->zName, zName) != 0) continue;
    *pp = p->pNext;
    if (p->zName[0] != 0) s->nNamedPortal--;
    session__portal_clear(s, p);
    free(p);
    return;
  }
}

void session__portals_drop(pg_session *s) {
  while (s->pPortals != NULL) session__portal_remove(s, s->pPortals->zName);
}

/* The unnamed statement and portal, which a Query ends. */
void session__unnamed_drop(pg_session *s) {
  session__portal_remove(s, "");
  session__stmt_remove(s, "");
}
