/*
** planner/strval.c — string maps: a string-valued expression of a few
** columns of small domains, computed on the host once for every
** combination of their values, so that the kernels still carry integers.
**
** upper(c_city) reads one dictionary column: its 250 codes map to the
** indexes of 250 results in the plan's string table (strtab.c), which is
** sorted, so grouping and ordering on the index is grouping and ordering
** on the string. c_nation || '/' || s_nation reads two: 26 x 26 entries
** (a slot for NULL each), indexed code * 26 + code. cast(d_year as text)
** || '-' || d_month reads an integer of 7 values (its statistics' range)
** and a dictionary of 12. The kernels compute the entry from the inputs'
** values and read the index; NULL is -1 (plan.h, plan_valmap.bStr).
**
** A map is made for each string-valued expression of the select list,
** ORDER BY and GROUP BY (and the argument of min/max there) that is not a
** column, a literal or a CASE of them, whose leaves are literals and
** columns of these kinds: string columns (their dictionaries), SMALLINT,
** INTEGER, BIGINT and DATE columns whose statistics bound them, at most
** PLAN_MAP_IN columns and PLAN_STRMAP_MAX entries; and whose nodes are
** ||, casts to text / varchar(n) / char(n), and the string functions
** below. Any other is left to codegen, which refuses it (0A000).
**
** Functions, with PostgreSQL 15's semantics in the "C" collation (ASCII
** case mapping, characters of UTF-8): those of dictfunc.c with constant
** arguments (upper, lower, substr, left, right, replace, trims), and
** lpad, rpad, initcap, split_part, repeat, reverse, md5, concat,
** concat_ws over any evaluable arguments. An error PostgreSQL raises for
** a row (split_part's field 0) is raised at planning time where the
** argument is constant for every row.
**
** INTERFACE ROUTINES
**   plan__strmaps          build the maps, strings not yet indexed (plan_build)
**   plan__strmaps_resolve  their entries as string-table indexes
**   plan_strmap_find       the map of an expression, for codegen
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "../common/datetime.h"
#include "bindInt.h"
#include "planInt.h"

/* The most arguments of a call evaluated here. */
#define SV_ARGS_MAX 8
/* The most entries a map has: 8 MB of indexes. */
#define PLAN_STRMAP_MAX (1 << 20)

/* One evaluation's inputs: the combination being computed. */
typedef struct sv_row sv_row;
struct sv_row {
  plan_ctx *c;
  plan_valmap *m;
  const store_dict *apDict[PLAN_MAP_IN];   /* string inputs' dictionaries */
  uint64_t aSlot[PLAN_MAP_IN];
  int bSkip;                               /* a slot no row has (not a date) */
};

static int sv_is_int(coltype t) {
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT;
}

static int sv_name_is(const sql_expr *e, const char *z) { return strcmp(e->zName, z) == 0; }

/* 1 if call e is one of the value-only functions of this file. */
static int sv_own_func(const sql_expr *e) {
  static const char *const azName[] = {"lpad", "rpad", "initcap", "split_part", "repeat",
                                       "reverse", "md5", "concat", "concat_ws"};
  for (size_t i = 0; i < sizeof(azName) / sizeof(azName[0]); i++) {
    if (sv_name_is(e, azName[i])) return 1;
  }
  return 0;
}

/* ---- which expressions: their columns --------------------------------------- */

/* Adds column e to m's inputs (once). Returns 0, or 1 if m is full. */
static int sv_input_add(plan_valmap *m, const sql_expr *e) {
  for (int i = 0; i < m->nIn; i++) {
    if (m->aIn[i].pCol->b.iSource == e->b.iSource && m->aIn[i].pCol->b.iColumn == e->b.iColumn) {
      return 0;
    }
  }
  if (m->nIn == PLAN_MAP_IN) return 1;
  m->aIn[m->nIn++].pCol = e;
  return 0;
}

/* 1 if every node of e is one this file evaluates, its columns added to
** m's inputs. */
static int sv_ok(plan_valmap *m, const sql_expr *e) {
  switch (e->eKind) {
    case SQL_EXPR_STRING:
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DATE:
    case SQL_EXPR_NULL:
      return 1;
    case SQL_EXPR_UNARY:
      return e->eOp == SQL_OP_NEG && e->pLeft->eKind == SQL_EXPR_INTEGER;
    case SQL_EXPR_COLUMN:
      if (!coltype_is_string(e->b.type) && !sv_is_int(e->b.type) && e->b.type.eId != COLTYPE_DATE) {
        return 0;
      }
      return sv_input_add(m, e) == 0;
    case SQL_EXPR_CAST:
      if (!coltype_is_string(e->b.type)) return 0;
      if (!coltype_is_string(e->pLeft->b.type) && !sv_is_int(e->pLeft->b.type) &&
          e->pLeft->b.type.eId != COLTYPE_DATE && e->pLeft->eKind != SQL_EXPR_NULL) {
        return 0;
      }
      return sv_ok(m, e->pLeft);
    case SQL_EXPR_BINARY:
      if (e->eOp != SQL_OP_CONCAT) return 0;
      return sv_ok(m, e->pLeft) && sv_ok(m, e->pRight);
    case SQL_EXPR_FUNC: {
      int n = e->pList != NULL ? e->pList->n : 0;
      if (e->b.iAgg >= 0 || e->b.pFunc != NULL || n == 0) return 0;
      if (!sv_own_func(e)) {
        /* dictfunc.c's: a function of a string, constant arguments */
        for (int i = 1; i < n; i++) {
          const sql_expr *a = e->pList->a[i].pExpr;
          if (a->eKind == SQL_EXPR_UNARY && a->pLeft->eKind == SQL_EXPR_INTEGER) continue;
          if (a->eKind != SQL_EXPR_STRING && a->eKind != SQL_EXPR_NULL && a->eKind != SQL_EXPR_INTEGER) {
            return 0;
          }
        }
        return plan__term_known(e) && coltype_is_string(e->pList->a[0].pExpr->b.type) &&
               sv_ok(m, e->pList->a[0].pExpr);
      }
      if (n > SV_ARGS_MAX) return 0;
      for (int i = 0; i < n; i++) {
        const sql_expr *a = e->pList->a[i].pExpr;
        if (!coltype_is_string(a->b.type) && !sv_is_int(a->b.type) && a->b.type.eId != COLTYPE_DATE &&
            a->eKind != SQL_EXPR_NULL) {
          return 0;
        }
        if (!sv_ok(m, a)) return 0;
      }
      return 1;
    }
    default:
      return 0;
  }
}

/* ---- evaluation ---------------------------------------------------------------- */

static void sv_reset(plan_term *o) {
  strbuf_reset(&o->s);
  o->bNull = o->bInt = 0;
  o->i = 0;
}

/* o as text (an integer's digits). */
static void sv_to_text(plan_term *o) {
  if (o->bInt && !o->bNull) {
    strbuf_printf(&o->s, "%lld", (long long)o->i);
    o->bInt = 0;
  }
}

static int sv_eval(sv_row *r, const sql_expr *e, plan_term *o);

/* e's value o as text: a char(n) value loses its trailing blanks, as
** PostgreSQL's cast from bpchar to text, which ||, the functions and
** casts to other string types take. */
static void sv_as_text(const sql_expr *e, plan_term *o) {
  sv_to_text(o);
  if (e->b.type.eId != COLTYPE_CHAR || o->bNull) return;
  while (o->s.n > 0 && o->s.z[o->s.n - 1] == ' ') o->s.n--;
  if (o->s.z != NULL) o->s.z[o->s.n] = 0;
}

/* Evaluates argument i of call e into a fresh term *o (the caller frees). */
static int sv_arg(sv_row *r, const sql_expr *e, int i, plan_term *o) {
  memset(o, 0, sizeof(*o));
  strbuf_init(&o->s);
  if (sv_eval(r, e->pList->a[i].pExpr, o) != 0) return -1;
  /* concat's arguments and concat_ws's after the separator are "any": a
  ** char(n) keeps its blanks (its output function's text); the others
  ** are text */
  if (sv_name_is(e, "concat") || (i > 0 && sv_name_is(e, "concat_ws"))) sv_to_text(o);
  else sv_as_text(e->pList->a[i].pExpr, o);
  return 0;
}

/* Characters of z[0..n) (UTF-8). */
static int64_t sv_chars(const char *z, size_t n) {
  int64_t k = 0;
  for (size_t i = 0; i < n; i += plan__utf8_len(z + i, n - i)) k++;
  return k;
}

/* Appends nChar characters of fill (cycled) to s. */
static void sv_fill(strbuf *s, const char *zFill, size_t nFill, int64_t nChar) {
  size_t i = 0;
  while (nChar-- > 0) {
    size_t k = plan__utf8_len(zFill + i, nFill - i);
    strbuf_append(s, zFill + i, k);
    i += k;
    if (i >= nFill) i = 0;
  }
}

/* lpad / rpad (zName[0]): PostgreSQL truncates a longer string to n
** characters and pads nothing with an empty fill. */
static void sv_pad(int bLeft, const plan_term *a, int64_t n, const char *zFill, plan_term *o) {
  const char *z = strbuf_str((strbuf *)&a->s);
  size_t nz = a->s.n, nFill = strlen(zFill), iCut;
  int64_t nChar = sv_chars(z, nz), nPad;
  if (n <= 0) return;
  if (nChar > n) nChar = n;
  iCut = plan__utf8_offset(z, nz, nChar);
  nPad = nFill > 0 ? n - nChar : 0;
  if (bLeft) sv_fill(&o->s, zFill, nFill, nPad);
  strbuf_append(&o->s, z, iCut);
  if (!bLeft) sv_fill(&o->s, zFill, nFill, nPad);
}

/* initcap in the "C" collation: ASCII letters, words of ASCII letters
** and digits (bytes of other characters are not alphanumeric). */
static void sv_initcap(const char *z, size_t n, strbuf *s) {
  int bWord = 0;
  for (size_t i = 0; i < n; i++) {
    char ch = z[i];
    int bAlnum;
    if (bWord && ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
    else if (!bWord && ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
    bAlnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    bWord = bAlnum;
    strbuf_append(s, &ch, 1);
  }
}

/* The byte offset of the first zDelim at or after i in z[0..n), or n. */
static size_t sv_find(const char *z, size_t n, size_t i, const char *zDelim, size_t nDelim) {
  for (; i + nDelim <= n; i++) {
    if (memcmp(z + i, zDelim, nDelim) == 0) return i;
  }
  return n;
}

/* split_part(z, zDelim, k): field k, from the end when negative. */
static int sv_split_part(sv_row *r, const sql_expr *e, const char *z, size_t n, const char *zDelim,
                         size_t nDelim, int64_t k, strbuf *s) {
  int64_t nField = 1;
  size_t i;
  if (k == 0) {
    (void)e;                             /* a row's error: no position */
    sql_error_set(r->c->pErr, SQLSTATE_INVALID_PARAMETER, -1, "field position must not be zero");
    return -1;
  }
  if (n == 0) return 0;
  if (nDelim == 0) {
    if (k == 1 || k == -1) strbuf_append(s, z, n);
    return 0;
  }
  for (i = sv_find(z, n, 0, zDelim, nDelim); i < n; i = sv_find(z, n, i + nDelim, zDelim, nDelim)) {
    nField++;
  }
  if (k < 0) k = nField + k + 1;
  if (k < 1 || k > nField) return 0;
  for (i = 0; k > 1; k--) i = sv_find(z, n, i, zDelim, nDelim) + nDelim;
  strbuf_append(s, z + i, sv_find(z, n, i, zDelim, nDelim) - i);
  return 0;
}

/* md5(z): its digest as 32 lower-case hex digits (libcrypto's MD5). */
static int sv_md5(sv_row *r, const sql_expr *e, const char *z, size_t n, strbuf *s) {
  unsigned char aMd[EVP_MAX_MD_SIZE];
  unsigned int nMd = 0;
  if (EVP_Digest(z, n, aMd, &nMd, EVP_md5(), NULL) != 1 || nMd != 16) {
    sql_error_set(r->c->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "EVP_Digest(md5) failed");
    return -1;
  }
  for (unsigned i = 0; i < nMd; i++) strbuf_printf(s, "%02x", aMd[i]);
  return 0;
}

/* The value-only functions (sv_own_func) of call e. */
static int sv_own_call(sv_row *r, const sql_expr *e, plan_term *o) {
  int n = e->pList->n, rc = 0;
  plan_term a[SV_ARGS_MAX];
  int nEval = n;
  for (int i = 0; i < nEval; i++) {
    if (sv_arg(r, e, i, &a[i]) != 0) {
      for (int j = 0; j <= i; j++) strbuf_free(&a[j].s);
      return -1;
    }
    sv_to_text(&a[i]);
  }
  if (sv_name_is(e, "concat") || sv_name_is(e, "concat_ws")) {
    int bWs = e->zName[6] == '_', bFirst = 1;
    if (bWs && a[0].bNull) o->bNull = 1;
    for (int i = bWs; i < n && !o->bNull; i++) {
      if (a[i].bNull) continue;
      if (bWs && !bFirst) strbuf_append(&o->s, strbuf_str(&a[0].s), a[0].s.n);
      strbuf_append(&o->s, strbuf_str(&a[i].s), a[i].s.n);
      bFirst = 0;
    }
    goto done;
  }
  for (int i = 0; i < n; i++) {
    if (a[i].bNull) {
      o->bNull = 1;
      goto done;
    }
  }
  {
    const char *z = strbuf_str(&a[0].s);
    size_t nz = a[0].s.n;
    int64_t k = n > 1 ? strtoll(strbuf_str(&a[1].s), NULL, 10) : 0;
    if (sv_name_is(e, "lpad") || sv_name_is(e, "rpad")) {
      sv_pad(e->zName[0] == 'l', &a[0], k, n == 3 ? strbuf_str(&a[2].s) : " ", o);
    } else if (sv_name_is(e, "initcap")) {
      sv_initcap(z, nz, &o->s);
    } else if (sv_name_is(e, "repeat")) {
      if (k > 0 && (uint64_t)k * nz > (1u << 20)) {
        sql_error_set(r->c->pErr, SQLSTATE_PROGRAM_LIMIT, e->iOffset, "requested length too large");
        rc = -1;
      }
      for (int64_t i = 0; rc == 0 && i < k; i++) strbuf_append(&o->s, z, nz);
    } else if (sv_name_is(e, "reverse")) {
      for (size_t j = nz; j > 0;) {
        size_t i = j - 1;
        while (i > 0 && ((unsigned char)z[i] & 0xC0) == 0x80) i--;
        strbuf_append(&o->s, z + i, j - i);
        j = i;
      }
    } else if (sv_name_is(e, "md5")) {
      rc = sv_md5(r, e, z, nz, &o->s);
    } else {
      int64_t f = strtoll(strbuf_str(&a[2].s), NULL, 10);
      rc = sv_split_part(r, e, z, nz, strbuf_str(&a[1].s), a[1].s.n, f, &o->s);
    }
  }
done:
  for (int i = 0; i < nEval; i++) strbuf_free(&a[i].s);
  return rc;
}

/* A cast to a string type: the text, cut to varchar(n)'s characters or
** padded with blanks to char(n)'s. */
static int sv_cast(sv_row *r, const sql_expr *e, plan_term *o) {
  coltype t = e->b.type;
  if (sv_eval(r, e->pLeft, o) != 0) return -1;
  if (o->bNull) return 0;
  sv_as_text(e->pLeft, o);
  if (t.nLength > 0 && (t.eId == COLTYPE_VARCHAR || t.eId == COLTYPE_CHAR)) {
    const char *z = strbuf_str(&o->s);
    int64_t nChar = sv_chars(z, o->s.n);
    if (nChar > t.nLength) {
      o->s.n = plan__utf8_offset(z, o->s.n, t.nLength);
      o->s.z[o->s.n] = 0;
    } else if (t.eId == COLTYPE_CHAR) {
      sv_fill(&o->s, " ", 1, t.nLength - nChar);
    }
  }
  return 0;
}

/* A column's value in the row being computed. */
static int sv_column(sv_row *r, const sql_expr *e, plan_term *o) {
  int i = 0;
  plan_mapin *in;
  while (r->m->aIn[i].pCol->b.iSource != e->b.iSource || r->m->aIn[i].pCol->b.iColumn != e->b.iColumn) {
    i++;
  }
  in = &r->m->aIn[i];
  if (r->aSlot[i] == in->nDom) {
    o->bNull = 1;
  } else if (r->apDict[i] != NULL) {
    size_t n;
    const char *z = store_dict_str(r->apDict[i], r->aSlot[i], &n);
    strbuf_append(&o->s, z, n);
  } else if (e->b.type.eId == COLTYPE_DATE) {
    int64_t v = in->iLo + (int64_t)r->aSlot[i];
    int y = (int)(v / 10000), mo = (int)(v / 100 % 100), d = (int)(v % 100);
    if (mo < 1 || mo > 12 || d < 1 || d > dt_days_in_month(y, mo)) {
      r->bSkip = 1;                      /* no date: no row has it */
      o->bNull = 1;
      return 0;
    }
    strbuf_printf(&o->s, "%04d-%02d-%02d", y, mo, d);
  } else {
    o->bInt = 1;
    o->i = in->iLo + (int64_t)r->aSlot[i];
  }
  return 0;
}

/* e's value in row r into o (reset first). Returns 0 or -1 (error set). */
static int sv_eval(sv_row *r, const sql_expr *e, plan_term *o) {
  sv_reset(o);
  switch (e->eKind) {
    case SQL_EXPR_STRING:
    case SQL_EXPR_DATE:                  /* its text is ISO's, the binder's */
      strbuf_puts(&o->s, e->zText != NULL ? e->zText : "");
      break;
    case SQL_EXPR_INTEGER:
      o->bInt = 1;
      o->i = strtoll(e->zText, NULL, 10);
      break;
    case SQL_EXPR_UNARY:
      o->bInt = 1;
      o->i = -strtoll(e->pLeft->zText, NULL, 10);
      break;
    case SQL_EXPR_NULL:
      o->bNull = 1;
      break;
    case SQL_EXPR_COLUMN:
      return sv_column(r, e, o);
    case SQL_EXPR_CAST:
      return sv_cast(r, e, o);
    case SQL_EXPR_BINARY: {
      plan_term b;
      int rc;
      if (sv_eval(r, e->pLeft, o) != 0) return -1;
      memset(&b, 0, sizeof(b));
      strbuf_init(&b.s);
      rc = sv_eval(r, e->pRight, &b);
      if (rc == 0 && !o->bNull && b.bNull) o->bNull = 1;
      if (rc == 0 && !o->bNull) {
        sv_as_text(e->pLeft, o);
        sv_as_text(e->pRight, &b);
        strbuf_append(&o->s, strbuf_str(&b.s), b.s.n);
      }
      strbuf_free(&b.s);
      return rc;
    }
    case SQL_EXPR_FUNC: {
      plan_term a;
      int rc;
      if (sv_own_func(e)) return sv_own_call(r, e, o);
      memset(&a, 0, sizeof(a));
      strbuf_init(&a.s);
      rc = sv_eval(r, e->pList->a[0].pExpr, &a);
      sv_as_text(e->pList->a[0].pExpr, &a);
      if (rc == 0) {
        if (a.bNull) o->bNull = 1;
        else plan__term_apply(e, strbuf_str(&a.s), a.s.n, o);
      }
      strbuf_free(&a.s);
      return rc;
    }
    default:
      break;
  }
  return 0;
}

/* ---- the maps ---------------------------------------------------------------- */

/* Sets each input's domain from its dictionary or statistics and the
** map's entries; 0 if some input is unbounded or the map too large. */
static int sv_domains(plan_ctx *c, plan_valmap *m, sv_row *r) {
  uint64_t nEntry = 1;
  for (int i = m->nIn - 1; i >= 0; i--) {
    plan_mapin *in = &m->aIn[i];
    const sql_expr *col = in->pCol;
    r->apDict[i] = NULL;
    if (coltype_is_string(col->b.type)) {
      if ((r->apDict[i] = plan__dict(c, col->b.iSource, col->b.iColumn)) == NULL) return -1;
      in->iLo = 0;
      in->nDom = r->apDict[i]->n;
    } else {
      const col_stats *st = plan__stats(c, col->b.iSource, col->b.iColumn);
      if (st == NULL) return -1;
      if (!st->bMinMax) {
        in->iLo = 0;
        in->nDom = 0;                    /* NULL only */
      } else {
        if ((__int128)st->max.i - st->min.i >= PLAN_STRMAP_MAX) return 0;
        in->iLo = st->min.i;
        in->nDom = (uint64_t)(st->max.i - st->min.i) + 1;
      }
    }
    in->nStride = nEntry;
    nEntry *= in->nDom + 1;
    if (nEntry > PLAN_STRMAP_MAX) return 0;
  }
  m->nEntry = nEntry;
  return 1;
}

/* Makes the map of expression e where it can. Entries hold, until
** plan__strmaps_resolve, pointers to their strings (arena) or -1. */
static int sv_add(plan_ctx *c, const sql_expr *e) {
  plan *p = c->p;
  plan_valmap m, *pSlot;
  sv_row r;
  plan_term o;
  int rc;
  memset(&m, 0, sizeof(m));
  memset(&r, 0, sizeof(r));
  if (plan_strmap_find(p, e) != NULL || !sv_ok(&m, e)) return 0;
  r.c = c;
  r.m = &m;
  if ((rc = sv_domains(c, &m, &r)) != 1) return rc;
  m.pExpr = e;
  m.bStr = 1;
  m.aValue = arena_alloc(c->pArena, sizeof(int64_t) * (size_t)m.nEntry);
  if (m.aValue == NULL) return plan__oom(c);
  memset(&o, 0, sizeof(o));
  strbuf_init(&o.s);
  for (uint64_t k = 0; k < m.nEntry; k++) {
    char *z;
    for (int i = 0; i < m.nIn; i++) r.aSlot[i] = k / m.aIn[i].nStride % (m.aIn[i].nDom + 1);
    r.bSkip = 0;
    if (sv_eval(&r, e, &o) != 0 || strbuf_error(&o.s)) {
      if (strbuf_error(&o.s)) plan__oom(c);
      strbuf_free(&o.s);
      return -1;
    }
    sv_to_text(&o);
    if (o.bNull || r.bSkip) {
      m.aValue[k] = -1;
      continue;
    }
    if ((z = arena_strndup(c->pArena, strbuf_str(&o.s), o.s.n)) == NULL) {
      strbuf_free(&o.s);
      return plan__oom(c);
    }
    m.aValue[k] = (int64_t)(intptr_t)z;
  }
  strbuf_free(&o.s);
  if ((pSlot = plan__valmap_slot(c)) == NULL) return -1;
  *pSlot = m;
  p->nValMap++;
  return 0;
}

/* A string-valued expression a map may serve: not a column, not one the
** string table holds (literals, CASE of them), not a CASE of one
** column's codes. */
static int sv_wanted(const sql_expr *e) {
  return coltype_is_string(e->b.type) && e->eKind != SQL_EXPR_COLUMN && !plan_strlist_expr(e) &&
         plan_dictcase_column(e) == NULL;
}

int plan__strmaps(plan_ctx *c) {
  const plan *p = c->p;
  const sql_select *pSel = p->pSelect;
  const sql_expr_list *aList[3] = {p->pBound->pItems, pSel->pOrderBy, pSel->pGroupBy};
  for (int l = 0; l < 3; l++) {
    for (int i = 0; aList[l] != NULL && i < aList[l]->n; i++) {
      const sql_expr *e = aList[l]->a[i].pExpr;
      if (e->eKind == SQL_EXPR_FUNC && e->b.iAgg >= 0 && e->pList != NULL && e->pList->n == 1 &&
          (strcmp(e->zName, "min") == 0 || strcmp(e->zName, "max") == 0)) {
        e = e->pList->a[0].pExpr;
      }
      if (sv_wanted(e) && sv_add(c, e) != 0) return -1;
    }
  }
  return 0;
}

int plan__strmaps_strings(const plan *p, const char **az) {
  int n = 0;
  for (int i = 0; i < p->nValMap; i++) {
    const plan_valmap *m = &p->aValMap[i];
    if (!m->bStr) continue;
    for (uint64_t k = 0; k < m->nEntry; k++) {
      if (m->aValue[k] < 0) continue;
      if (az != NULL) az[n] = (const char *)(intptr_t)m->aValue[k];
      n++;
    }
  }
  return n;
}

void plan__strmaps_resolve(plan *p) {
  for (int i = 0; i < p->nValMap; i++) {
    plan_valmap *m = &p->aValMap[i];
    if (!m->bStr) continue;
    for (uint64_t k = 0; k < m->nEntry; k++) {
      if (m->aValue[k] >= 0) m->aValue[k] = plan_str_index(p, (const char *)(intptr_t)m->aValue[k]);
    }
  }
}

const plan_valmap *plan_strmap_find(const plan *p, const sql_expr *e) {
  for (int i = 0; i < p->nValMap; i++) {
    if (p->aValMap[i].bStr && p->aValMap[i].pExpr == e) return &p->aValMap[i];
  }
  for (int i = 0; i < p->nValMap; i++) {
    if (p->aValMap[i].bStr && bind__expr_equal(p->aValMap[i].pExpr, e)) return &p->aValMap[i];
  }
  return NULL;
}
