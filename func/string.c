/*
** func/string.c — string functions of the host executor, for the calls
** catalog queries make over name and text columns (pgjdbc's getSchemas
** passes nspname through replace()). The binder's own string functions
** (planner/bind_func.c) are answered over a column's dictionary for the
** GPU's queries; a host query calls these instead.
**
** INTERFACE ROUTINES
**   func__groupString     this group's table (funcInt.h)
*/
#include <string.h>

#include "funcInt.h"

/* replace(s, from, to): every non-overlapping from in s, left to right,
** replaced by to; s itself where from is empty, as PostgreSQL's. */
static int fstr_replace(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut, sql_error *pErr) {
  const char *z = aArg[0].u.s.z, *zFrom = aArg[1].u.s.z;
  size_t n = aArg[0].u.s.n, nFrom = aArg[1].u.s.n, i = 0;
  strbuf s;
  int rc;
  (void)nArg;
  strbuf_init(&s);
  while (i < n) {
    if (nFrom > 0 && n - i >= nFrom && memcmp(z + i, zFrom, nFrom) == 0) {
      strbuf_append(&s, aArg[2].u.s.z, aArg[2].u.s.n);
      i += nFrom;
    } else {
      strbuf_append(&s, z + i, 1);
      i++;
    }
  }
  rc = strbuf_error(&s) ? (sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory"), -1)
                        : func__text(pCtx, COLTYPE_TEXT, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  return rc;
}

#define T_ COLTYPE_TEXT

/* eId: 9400 up, this group's. */
static const func_def fstr_aDef[] = {
    {"replace", 2087, 9400, FUNC_SCALAR, 3, {T_, T_, T_}, T_, FUNC_STRICT, fstr_replace},
};

const func_group func__groupString = {fstr_aDef, (int)(sizeof(fstr_aDef) / sizeof(fstr_aDef[0]))};
