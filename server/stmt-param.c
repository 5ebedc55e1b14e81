/*
** server/stmt-param.c — how many parameters ($1, $2 ...) a statement of
** the extended protocol takes, for its ParameterDescription: the highest
** $n the lexer finds (a "$1" inside a string, a quoted name or a comment is
** not a marker). The values themselves go to the engine as they are
** (engine_request.aParam), which puts them into the parse tree.
**
** INTERFACE ROUTINES
**   stmt_param_count     the highest $n in a statement
*/
#include <stdlib.h>

#include "../parser/parser.h"
#include "stmt.h"

int stmt_param_count(const char *zSql) {
  int n = 0;
  size_t i = 0;
  while (zSql[i]) {
    sql_token_class e;
    int nTok = sql_token_next(zSql + i, &e);
    if (nTok <= 0) nTok = 1;
    if (e == SQL_TOKEN_PARAM) {
      int iParam = atoi(zSql + i + 1);
      if (iParam > n) n = iParam;
    }
    i += (size_t)nTok;
  }
  return n;
}
