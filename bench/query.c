/*
** bench/query.c — run one SELECT against a data directory on the CPU
** backend and print its rows, its plan or its generated source: the
** developer's way in until the server speaks for the engine.
**
**   query --data DIR [--explain] [--source] SQL
*/
#include <stdio.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "../parser/parser.h"
#include "../runtime/exec.h"

int main(int argc, char **argv) {
  const char *zData = NULL, *zSql = NULL;
  int bExplain = 0, bSource = 0, rc = 1;
  char zErr[512];
  cat *pCat;
  arena a;
  sql_script s;
  sql_error e;
  bound_select b;
  plan p;
  cg_program g;
  exec_backend be;
  exec_result r;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) zData = argv[++i];
    else if (strcmp(argv[i], "--explain") == 0) bExplain = 1;
    else if (strcmp(argv[i], "--source") == 0) bSource = 1;
    else zSql = argv[i];
  }
  if (zData == NULL || zSql == NULL) {
    fprintf(stderr, "usage: query --data DIR [--explain] [--source] SQL\n");
    return 2;
  }
  if (cat_open(&pCat, zData, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    return 1;
  }
  arena_init(&a);
  memset(&b, 0, sizeof(b));
  memset(&p, 0, sizeof(p));
  memset(&g, 0, sizeof(g));
  memset(&r, 0, sizeof(r));
  memset(&be, 0, sizeof(be));
  be.zName = "cpu";
  if (sql_parse(zSql, &a, &s, &e) != 0 || s.nStmt != 1 ||
      bind_select(pCat, s.apStmt[0]->pSelect, &a, &b, &e) != 0 ||
      plan_build(pCat, &b, NULL, &a, &p, &e) != 0 || codegen_build(&p, &a, &g, &e) != 0) {
    fprintf(stderr, "ERROR: %s: %s (at byte %d)\n", e.zState, e.zMsg, e.iOffset);
    goto out;
  }
  if (bExplain) {
    strbuf x;
    strbuf_init(&x);
    plan_explain(&p, 0, &x);
    printf("%s\n", strbuf_str(&x));
    strbuf_free(&x);
  }
  if (bSource) printf("%s\n", strstr(strbuf_str(&g.src), "/* ---- the query ---- */"));
  if (cpu_pool_create(0, &be.pPool, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    goto out;
  }
  if (exec_select(pCat, &p, &g, &be, &r, &e) != 0) {
    fprintf(stderr, "ERROR: %s: %s\n", e.zState, e.zMsg);
  } else {
    strbuf line;
    strbuf_init(&line);
    for (int c = 0; c < r.nCol; c++) printf("%s%s", c ? "|" : "", r.aCol[c].zName);
    printf("\n");
    for (int64_t i = 0; i < r.nRow; i++) {
      strbuf_reset(&line);
      for (int c = 0; c < r.nCol; c++) {
        if (c) strbuf_puts(&line, "|");
        exec_result_text(&r, i, c, &line);
      }
      printf("%s\n", strbuf_str(&line));
    }
    printf("(%lld rows, %.3f s%s)\n", (long long)r.nRow, r.rSeconds, r.bCacheHit ? ", cached" : "");
    strbuf_free(&line);
    rc = 0;
  }
  cpu_pool_destroy(be.pPool);
out:
  exec_result_free(&r);
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  arena_free(&a);
  cat_close(pCat);
  return rc;
}
