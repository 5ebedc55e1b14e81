/*
** codegen/scan.c — the SCAN kernel: one pass over the fact table's tiles.
**
**   conditions   in the optimizer's order: a `&` group loads its columns
**                for the items that reached it and ANDs its conditions; a
**                `&&` between groups skips the rest of the tile when no
**                item is left, and later loads read only surviving items
**   payload      dimension columns gathered by the row index each probe
**                found; fact columns the aggregates or outputs read
**   residuals    conditions over several tables
**   sink         the group update (scalar registers, dense array or hash
**                table, atomics into global memory), or an output row
*/
#include <stdio.h>
#include <string.h>

#include "codegenInt.h"

/* Accumulating SUM into a BIGINT can overflow unless the arguments are
** at most 32-bit and there are fewer than 2^32 rows. */
static int scan_sum_checked(const plan *p, const plan_agg *g) {
  coltype t = g->argType;
  return !(t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER) || p->nFactRow >= 4294967296.0;
}

static const char *scan_lookup_field(cg_ctx *c, int d) {
  for (int i = 0; i < c->pProg->nField; i++) {
    if (c->pProg->aField[i].eKind == CG_FIELD_LOOKUP && c->pProg->aField[i].iDim == d) {
      return c->pProg->aField[i].zName;
    }
  }
  return NULL;
}

/* Probes dimension d for the items flagged in zFlag, clearing the flags of
** fact rows with no match, and leaves the row indexes in r_<key>. */
static int scan_probe(cg_kern *kk, int d, const char *zFlag) {
  cg_ctx *c = kk->x.c;
  const plan *p = c->p;
  const plan_dim *pDim = &p->aDim[d];
  const char *zLut = scan_lookup_field(c, d);
  const char *zFk = cg__col_var(c, p->iFact, pDim->iFactCol);
  const char *zKey = cg__col_var(c, pDim->iSource, pDim->iKeyCol);
  const cat_column *fk = &p->aSource[p->iFact].pTable->aCol[pDim->iFactCol];
  if (zLut == NULL || zFk == NULL || zKey == NULL) return -1;
  if (!pDim->bUnique) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                  "joining \"%s\" on a column that is not its primary key is not supported in"
                  " starq's kernels yet", p->aSource[pDim->iSource].zAlias);
    return -1;
  }
  if (cg__load(kk, p->iFact, pDim->iFactCol, NULL) != 0) return -1;
  cg__comment_line(kk->x.s, kk->x.nIndent, "probe %s by %s", p->aSource[pDim->iSource].zAlias,
                   fk->zName);
  if (!fk->bNotNull) {
    cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) %s[k] &= %s_ok[k];", zFlag, zFk);
  }
  cg__line(&kk->x, "unsigned r_%s[SQ_ITEMS];", zKey);
  switch (pDim->lookup.eKind) {
    case PLAN_LOOKUP_ARRAY:
      cg__line(&kk->x, "sq_probe_array((const unsigned *)a.%s, a.%s_min, a.%s_slots, %s, %s, r_%s);",
               zLut, zLut, zLut, zFk, zFlag, zKey);
      break;
    case PLAN_LOOKUP_DATE:
      cg__line(&kk->x, "sq_probe_date((const unsigned *)a.%s, a.%s_min, a.%s_slots, %s, %s, r_%s);",
               zLut, zLut, zLut, zFk, zFlag, zKey);
      break;
    default:
      cg__line(&kk->x, "sq_probe_hash((const sq_hslot *)a.%s, (unsigned long long)a.%s_slots, %s, %s, r_%s);",
               zLut, zLut, zFk, zFlag, zKey);
      break;
  }
  return 0;
}

/* Emits the conditions from iFirst up to the next group boundary. */
static int scan_group(cg_kern *kk, int iFirst, int iEnd, int iGroup) {
  cg_ctx *c = kk->x.c;
  const plan *p = c->p;
  char zPass[32];
  int bOne = iEnd - iFirst == 1;
  snprintf(zPass, sizeof(zPass), bOne ? "flag" : "pass%d", iGroup);
  if (!bOne) {
    cg__line(&kk->x, "/* no-branch group: every condition on the same items */");
    for (int i = iFirst; i < iEnd; i++) {
      int w = p->aCondWhat[p->order.aOrder[i]];
      if (w >= 0 && cg__load_expr(kk, p->aFactPred[w].pExpr, p->iFact) != 0) return -1;
      if (w < 0 && cg__load(kk, p->iFact, p->aDim[-1 - w].iFactCol, NULL) != 0) return -1;
    }
    cg__line(&kk->x, "int %s[SQ_ITEMS];", zPass);
    cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) %s[k] = flag[k];", zPass);
  }
  for (int i = iFirst; i < iEnd; i++) {
    int w = p->aCondWhat[p->order.aOrder[i]];
    if (w >= 0) {
      if (cg__load_expr(kk, p->aFactPred[w].pExpr, p->iFact) != 0) return -1;
      if (cg__emit_pred(kk, &p->aFactPred[w], zPass) != 0) return -1;
    } else if (bOne) {
      if (scan_probe(kk, -1 - w, "flag") != 0) return -1;
    } else {
      char zF[32];
      snprintf(zF, sizeof(zF), "hit%d_%d", iGroup, i);
      cg__line(&kk->x, "int %s[SQ_ITEMS];", zF);
      cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) %s[k] = flag[k];", zF);
      if (scan_probe(kk, -1 - w, zF) != 0) return -1;
      cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) %s[k] &= %s[k];", zPass, zF);
    }
  }
  if (!bOne) cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) flag[k] = %s[k];", zPass);
  return 0;
}

static int scan_conditions(cg_kern *kk) {
  const plan *p = kk->x.c->p;
  int iGroup = 0;
  for (int i = 0; i < p->order.nCond;) {
    int j = i + 1;
    while (j < p->order.nCond && p->order.aJoin[j] == PREDORDER_JOIN_NOBRANCH) j++;
    if (i > 0) {
      cg__line(&kk->x, "if (!sq_any(flag)) continue;   /* && */");
    }
    if (scan_group(kk, i, j, iGroup++) != 0) return -1;
    i = j;
  }
  return 0;
}

/* The C names of a group's state words. */
static void scan_word(char *z, size_t n, int iOffset, int bFloat) {
  if (bFloat) snprintf(z, n, "((double *)st)[%d]", iOffset / 8);
  else snprintf(z, n, "st[%d]", iOffset / 8);
}

/* Per item: the aggregate updates of one row into state st (bAtomic:
** shared table; else the thread's registers acc<i>). */
static int scan_agg_update(cg_kern *kk, int bAtomic) {
  cg_ctx *c = kk->x.c;
  const plan *p = c->p;
  if (bAtomic) cg__line(&kk->x, "sq_atomic_add(&st[0], 1);");
  else cg__line(&kk->x, "acc_rows++;");
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    cg_val v;
    char zW[64], zC[64];
    if (g->pArg == NULL) continue;                      /* COUNT(*): the row count */
    if (cg__load_expr(kk, g->pArg, -1) != 0 || cg__expr(&kk->x, g->pArg, &v) != 0) return -1;
    if (g->eFunc == PLAN_AGG_SUM || g->eFunc == PLAN_AGG_AVG) {
      if (g->bFloat) cg__as(&kk->x, &v, g->argType);
    }
    cg__line(&kk->x, "if (!(%s)) {", v.zNull);
    kk->x.nIndent += 2;
    if (bAtomic) {
      scan_word(zW, sizeof(zW), g->iValueOffset, g->bFloat);
      scan_word(zC, sizeof(zC), g->iCountOffset, 0);
    } else {
      snprintf(zW, sizeof(zW), "acc%d", i);
      snprintf(zC, sizeof(zC), "acc%d_n", i);
    }
    if (g->iCountOffset >= 0) {
      if (bAtomic) cg__line(&kk->x, "sq_atomic_add(&%s, 1);", zC);
      else cg__line(&kk->x, "%s++;", zC);
    }
    switch (g->eFunc) {
      case PLAN_AGG_SUM:
      case PLAN_AGG_AVG:
        if (g->bFloat) {
          if (bAtomic) cg__line(&kk->x, "sq_atomic_fadd(&%s, %s);", zW, v.z);
          else cg__line(&kk->x, "%s += %s;", zW, v.z);
        } else if (scan_sum_checked(p, g)) {
          if (bAtomic) cg__line(&kk->x, "sq_atomic_add_checked(&%s, %s, a.err);", zW, v.z);
          else cg__line(&kk->x, "%s = sq_add(%s, %s, a.err);", zW, zW, v.z);
        } else {
          if (bAtomic) cg__line(&kk->x, "sq_atomic_add(&%s, %s);", zW, v.z);
          else cg__line(&kk->x, "%s += %s;", zW, v.z);
        }
        break;
      case PLAN_AGG_MIN:
      case PLAN_AGG_MAX: {
        int bMin = g->eFunc == PLAN_AGG_MIN;
        if (bAtomic) {
          cg__line(&kk->x, "sq_atomic_%s%s(&%s, %s);", g->bFloat ? "f" : "", bMin ? "min" : "max",
                   zW, v.z);
        } else {
          cg__line(&kk->x, "if (%s %s %s) %s = %s;", v.z, bMin ? "<" : ">", zW, zW, v.z);
        }
        break;
      }
      default:
        break;                                         /* COUNT(x): the count above */
    }
    cg__block_end(kk);
  }
  return 0;
}

/* The combined group code of the item's keys, then its slot and state. */
static int scan_group_slot(cg_kern *kk) {
  cg_ctx *c = kk->x.c;
  const plan *p = c->p;
  cg__line(&kk->x, "unsigned long long code = 0;");
  for (int j = 0; j < p->nKey; j++) {
    cg_val v;
    if (cg__load_expr(kk, p->aKey[j].pExpr, -1) != 0 || cg__expr(&kk->x, p->aKey[j].pExpr, &v) != 0) {
      return -1;
    }
    cg__line(&kk->x, "code += (unsigned long long)(%s ? a.g_dom%d - 1 : %s - a.g_min%d) * a.g_stride%d;",
             v.zNull, j, v.z, j, j);
  }
  if (p->group.eKind == GROUPBY_HASH) {
    cg__line(&kk->x, "long long slot = sq_group_slot((unsigned long long *)a.group_keys,"
                     " (unsigned long long)a.group_mask, code, a.err);");
    cg__line(&kk->x, "if (slot < 0) continue;");
  } else {
    cg__line(&kk->x, "long long slot = (long long)code;");
  }
  cg__line(&kk->x, "long long *st = (long long *)a.groups + slot * %d;", p->nStateByte / 8);
  return 0;
}

/* Scalar aggregates: the block's registers into the one state. */
static void scan_scalar_flush(cg_kern *kk) {
  const plan *p = kk->x.c->p;
  cg__line(&kk->x, "long long *st = (long long *)a.groups;");
  cg__line(&kk->x, "long long nb = sq_block_sum(acc_rows);");
  cg__line(&kk->x, "if (threadIdx.x == 0) sq_atomic_add(&st[0], nb);");
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    char zW[64];
    if (g->pArg == NULL) continue;
    if (g->iCountOffset >= 0) {
      cg__line(&kk->x, "long long nb%d = sq_block_sum(acc%d_n);", i, i);
      cg__line(&kk->x, "if (threadIdx.x == 0) sq_atomic_add(&st[%d], nb%d);", g->iCountOffset / 8, i);
    }
    if (g->iValueOffset < 0) continue;
    scan_word(zW, sizeof(zW), g->iValueOffset, g->bFloat);
    switch (g->eFunc) {
      case PLAN_AGG_MIN:
      case PLAN_AGG_MAX:
        if (g->iCountOffset >= 0) {
          cg__line(&kk->x, "if (acc%d_n > 0) sq_atomic_%s%s(&%s, acc%d);", i, g->bFloat ? "f" : "",
                   g->eFunc == PLAN_AGG_MIN ? "min" : "max", zW, i);
        } else {
          cg__line(&kk->x, "if (acc_rows > 0) sq_atomic_%s%s(&%s, acc%d);", g->bFloat ? "f" : "",
                   g->eFunc == PLAN_AGG_MIN ? "min" : "max", zW, i);
        }
        break;
      default:
        if (g->bFloat) {
          cg__line(&kk->x, "double sb%d = sq_block_fsum(acc%d);", i, i);
          cg__line(&kk->x, "if (threadIdx.x == 0) sq_atomic_fadd(&%s, sb%d);", zW, i);
        } else if (scan_sum_checked(p, g)) {
          cg__line(&kk->x, "if (acc%d != 0) sq_atomic_add_checked(&%s, acc%d, a.err);", i, zW, i);
        } else {
          cg__line(&kk->x, "long long sb%d = sq_block_sum(acc%d);", i, i);
          cg__line(&kk->x, "if (threadIdx.x == 0) sq_atomic_add(&%s, sb%d);", zW, i);
        }
        break;
    }
  }
}

static void scan_scalar_registers(cg_kern *kk) {
  const plan *p = kk->x.c->p;
  cg__line(&kk->x, "long long acc_rows = 0;");
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    const char *zInit = "0";
    if (g->pArg == NULL || g->iValueOffset < 0) {
      if (g->iCountOffset >= 0) cg__line(&kk->x, "long long acc%d_n = 0;", i);
      continue;
    }
    if (g->eFunc == PLAN_AGG_MIN) zInit = g->bFloat ? "__longlong_as_double(0x7ff0000000000000ll)" : "INT64_MAX";
    if (g->eFunc == PLAN_AGG_MAX) zInit = g->bFloat ? "__longlong_as_double((long long)0xfff0000000000000ull)" : "INT64_MIN";
    cg__line(&kk->x, "%s acc%d = %s;", g->bFloat ? "double" : "long long", i, zInit);
    if (g->iCountOffset >= 0) cg__line(&kk->x, "long long acc%d_n = 0;", i);
  }
}

void cg__emit_out_write(cgx *x, const cg_val *aV) {
  const cg_program *g = x->c->pProg;
  cg__line(x, "unsigned long long idx = atomicAdd((unsigned long long *)a.out_count, 1ull);");
  cg__line(x, "if (idx >= (unsigned long long)a.out_cap) continue;");
  for (int i = 0; i < g->nOut; i++) {
    cg__line(x, "((%s *)a.out%d)[idx] = %s;", g->aOut[i].bFloat ? "double" : "long long", i, aV[i].z);
    cg__line(x, "((unsigned char *)a.out%d_null)[idx] = (unsigned char)(%s);", i, aV[i].zNull);
  }
}

/* Non-aggregate queries: the item's output row. */
static int scan_output_row(cg_kern *kk) {
  cg_ctx *c = kk->x.c;
  const cg_program *g = c->pProg;
  cg_val *aV = arena_alloc(c->pArena, sizeof(cg_val) * (size_t)(g->nOut + 1));
  if (aV == NULL) return cg__oom(c);
  for (int i = 0; i < g->nOut; i++) {
    if (cg__load_expr(kk, g->aOut[i].pExpr, -1) != 0) return -1;
  }
  cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) {");
  kk->x.nIndent += 2;
  cg__line(&kk->x, "if (!flag[k]) continue;");
  for (int i = 0; i < g->nOut; i++) {
    if (cg__expr(&kk->x, g->aOut[i].pExpr, &aV[i]) != 0) return -1;
    if (g->aOut[i].bFloat) cg__as(&kk->x, &aV[i], g->aOut[i].type);
  }
  cg__emit_out_write(&kk->x, aV);
  cg__block_end(kk);
  return 0;
}

int cg__emit_scan(cg_ctx *c, strbuf *s) {
  const plan *p = c->p;
  cg_kern kk;
  const char *zRows;
  if (cg__kern_init(c, &kk, s) != 0 || (zRows = cg__table_rows(c, p->iFact)) == NULL) return -1;
  snprintf(c->pProg->aKernel[c->pProg->nKernel].zName, 64, "q_scan");
  c->pProg->aKernel[c->pProg->nKernel++].eKind = CG_KERNEL_SCAN;
  cg__comment_line(s, 0, "SCAN %s", p->aSource[p->iFact].zAlias);
  strbuf_puts(s, "__global__ void q_scan(const struct q_args a) {\n");
  if (p->bAggregate && p->group.eKind == GROUPBY_SCALAR) scan_scalar_registers(&kk);
  cg__tile_begin(&kk, zRows);
  if (scan_conditions(&kk) != 0) return -1;
  cg__line(&kk.x, "if (!sq_any(flag)) continue;");
  for (int i = 0; i < p->nResidual; i++) {
    if (cg__load_expr(&kk, p->aResidual[i].pExpr, -1) != 0) return -1;
    if (cg__emit_pred(&kk, &p->aResidual[i], "flag") != 0) return -1;
  }
  if (p->bAggregate) {
    /* Load what the keys and aggregates read before the per-item loop. */
    for (int j = 0; j < p->nKey; j++) {
      if (cg__load_expr(&kk, p->aKey[j].pExpr, -1) != 0) return -1;
    }
    for (int i = 0; i < p->nAgg; i++) {
      if (p->aAgg[i].pArg != NULL && cg__load_expr(&kk, p->aAgg[i].pArg, -1) != 0) return -1;
    }
    cg__line(&kk.x, "for (int k = 0; k < SQ_ITEMS; k++) {");
    kk.x.nIndent += 2;
    cg__line(&kk.x, "if (!flag[k]) continue;");
    if (p->group.eKind != GROUPBY_SCALAR && scan_group_slot(&kk) != 0) return -1;
    if (scan_agg_update(&kk, p->group.eKind != GROUPBY_SCALAR) != 0) return -1;
    cg__block_end(&kk);
  } else if (scan_output_row(&kk) != 0) {
    return -1;
  }
  cg__block_end(&kk);
  if (p->bAggregate && p->group.eKind == GROUPBY_SCALAR) scan_scalar_flush(&kk);
  strbuf_puts(s, "}\nSTARQ_CPU_ENTRY(q_scan, struct q_args)\n\n");
  return 0;
}
