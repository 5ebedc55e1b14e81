/*
** tests/fuzz/fuzz-sql.c — a libFuzzer target over the SQL front end: the
** lexer, the parser and the binder, on arbitrary bytes.
**
** Built by `make fuzz` with clang's -fsanitize=fuzzer,address,undefined;
** `make test` runs it for FUZZ_SECONDS from a corpus seeded with the SSB
** queries and tests/fuzz/seeds. Any crash, leak or sanitizer report fails
** the run. The binder needs a catalog: the SSB schema is created once, in
** a scratch data directory, and every statement that parses is bound
** against it (SELECT and EXPLAIN'd SELECT, CREATE TABLE, COPY). Every
** SELECT that parses is deparsed too: the text must parse again (unless
** only a limit stops it) and deparse to itself.
*/
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../catalog/catalog.h"
#include "../../common/fsdir.h"
#include "../../common/strbuf.h"
#include "../../parser/parser.h"
#include "../../planner/bind.h"
#include "../../ssb-data/schema.h"

static cat *fuzz_pCat;
static char fuzz_zDir[64];

int LLVMFuzzerInitialize(int *pArgc, char ***pArgv);
int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData);

/* libFuzzer ends with exit(): the scratch catalog goes with it. */
static void fuzz_cleanup(void) {
  cat_close(fuzz_pCat);
  fuzz_pCat = NULL;
  fsdir_remove(fuzz_zDir);
}

int LLVMFuzzerInitialize(int *pArgc, char ***pArgv) {
  char zErr[512];
  (void)pArgc;
  (void)pArgv;
  snprintf(fuzz_zDir, sizeof(fuzz_zDir), "/tmp/starq-fuzz-XXXXXX");
  if (mkdtemp(fuzz_zDir) == NULL || cat_open(&fuzz_pCat, fuzz_zDir, zErr, sizeof(zErr)) != 0 ||
      ssb_schema_create(fuzz_pCat, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "fuzz-sql: cannot set up a catalog in %s: %s\n", fuzz_zDir, zErr);
    exit(1);
  }
  atexit(fuzz_cleanup);
  return 0;
}

static void fuzz_bind(sql_stmt *p, arena *pArena) {
  sql_error e;
  sql_error_clear(&e);
  if (p->eKind == SQL_STMT_EXPLAIN && p->pExplain != NULL) p = p->pExplain;
  if (p->eKind == SQL_STMT_SELECT && p->pSelect != NULL) {
    bound_select b;
    bind_select(fuzz_pCat, p->pSelect, pArena, &b, &e);
    bind_select_free(&b);
  } else if (p->eKind == SQL_STMT_CREATE_TABLE && p->pCreate != NULL) {
    cat_table *t = NULL;
    if (bind_create_table(fuzz_pCat, p->pCreate, &t, &e) == 0) cat_table_free(t);
  } else if (p->eKind == SQL_STMT_COPY && p->pCopy != NULL) {
    char zPath[PATH_MAX];
    bind_copy(fuzz_pCat, p->pCopy, fuzz_zDir, zPath, &e);
  }
}

/* Deparses p into s (a SELECT, or EXPLAIN's); returns 0 if p is no SELECT. */
static int fuzz_deparse(const sql_stmt *p, strbuf *s) {
  if (p->eKind == SQL_STMT_EXPLAIN && p->pExplain != NULL) p = p->pExplain;
  if (p->eKind != SQL_STMT_SELECT || p->pSelect == NULL) return 0;
  sql_select_deparse(s, p->pSelect);
  return 1;
}

/* Checks that zText, the deparse of a SELECT, parses to one statement
** that deparses to zText again. A limit (54000) may refuse it: deparse
** writes CAST(x AS t) for x::t, and names may gain quotes. */
static void fuzz_reparse(const char *zText) {
  sql_script script;
  sql_error e;
  strbuf s;
  arena a;
  arena_init(&a);
  strbuf_init(&s);
  if (sql_parse(zText, &a, &script, &e) != 0) {
    if (strcmp(e.zState, "54000") != 0) abort();
  } else {
    if (script.nStmt != 1 || !fuzz_deparse(script.apStmt[0], &s)) abort();
    if (strcmp(strbuf_str(&s), zText) != 0) abort();
  }
  strbuf_free(&s);
  arena_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  char *zSql = malloc(nData + 1);
  sql_script script;
  sql_error e;
  arena a;

  if (zSql == NULL) return 0;
  memcpy(zSql, aData, nData);
  zSql[nData] = 0;
  arena_init(&a);
  sql_error_clear(&e);
  if (sql_parse(zSql, &a, &script, &e) == 0) {
    for (int i = 0; i < script.nStmt; i++) {
      strbuf s;
      strbuf_init(&s);
      /* Deparse before binding: the binder rewrites literals in place. */
      if (fuzz_deparse(script.apStmt[i], &s)) fuzz_reparse(strbuf_str(&s));
      strbuf_free(&s);
      fuzz_bind(script.apStmt[i], &a);
    }
  } else if (e.zState[0] == 0) {
    abort();      /* a failed parse must say why */
  }
  /* The lexer on its own must always make progress to the end. */
  for (const char *z = zSql; *z != 0;) {
    sql_token_class eClass;
    int n = sql_token_next(z, &eClass);
    if (n <= 0) abort();
    z += n;
  }
  arena_free(&a);
  free(zSql);
  return 0;
}
