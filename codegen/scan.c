/*
** codegen/scan.c — the SCAN kernel: one pass over the fact table's tiles.
**
**   conditions   in the optimizer's order: a `&` group loads its columns
**                for the items that reached it and ANDs its conditions; a
**                `&&` between groups skips the rest of the tile when no
**                item is left, and later loads read only surviving items;
**                the packed tiles of dense groups are staged through
**                shared memory (scan_stage_groups)
**   payload      dimension columns gathered by the row index each probe
**                found; fact columns the aggregates or outputs read
**   residuals    conditions over several tables
**   sink         the group update (scalar registers, dense array or hash
**                table, atomics into global memory), or an output row
**   shared table a DENSE table the planner placed in shared memory (paper
**                003 §5.1) lives in the block's shared memory, word-major,
**                with replicas of the hot groups (paper 000 §3): set up
**                before the tiles, folded and merged into the global table
**                after them (q_gt_combine)
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
    if (c->pProg->aField[i].eKind == CG_FIELD_LOOKUP && c->pProg->aField[i].iDim == d &&
        c->pProg->aField[i].nOffset == 0) {
      return c->pProg->aField[i].zName;
    }
  }
  return NULL;
}

/* Semi-join bits a resident SCAN probes from shared memory, copied there
** at its start (sq_bits_stage): each dimension's while they are at most
** this big and fit, beside a shared group table, the static shared memory
** of a block. Two blocks an SM then give up at most 64 KB of its 256 KB of
** L1. Host-memory plans keep the bits in L1: their shared memory stages
** packed tiles, and PCIe, not the probes, is what they wait on. */
#define SCAN_BITS_SHARED_MAX (32u * 1024u)

static int scan_bits_shared(const plan *p, int d) {
  uint64_t n = cg__group_shared(p) ? p->group.nSharedByte : 0;
  if (!p->model.bResident) return 0;
  for (int i = 0; i <= d; i++) {
    const plan_lookup *l = &p->aDim[i].lookup;
    if (!l->bBits || l->nBitByte > SCAN_BITS_SHARED_MAX ||
        n + l->nBitByte + 1024u > GROUPBY_SHARED_STATIC_MAX) {
      continue;
    }
    n += l->nBitByte;
    if (i == d) return 1;
  }
  return 0;
}

/* Copies the bits scan_bits_shared picks into shared memory. */
static void scan_bits_stage(cg_kern *kk) {
  cg_ctx *c = kk->x.c;
  const plan *p = c->p;
  for (int d = 0; d < p->nDim; d++) {
    const char *zLut = scan_lookup_field(c, d);
    unsigned long long nWord = (unsigned long long)(p->aDim[d].lookup.nBitByte / 4);
    if (!scan_bits_shared(p, d) || zLut == NULL) continue;
    cg__comment_line(kk->x.s, kk->x.nIndent, "%s's semi-join bits, probed from shared memory",
                     p->aSource[p->aDim[d].iSource].zAlias);
    cg__line(&kk->x, "__shared__ unsigned s_%s_bits[%llu];", zLut, nWord);
    cg__line(&kk->x, "sq_bits_stage(s_%s_bits, (const unsigned *)a.%s_bits, %llu);", zLut, zLut,
             nWord);
  }
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
  if (cg__reg_sfx(fk->type) == NULL) {
    /* The planner joins on integer and date columns only (shape.c). */
    char zType[64];
    sql_error_set(c->pErr, SQLSTATE_INTERNAL_ERROR, -1, "no probe over a %s key",
                  coltype_format(fk->type, zType, sizeof(zType)));
    return -1;
  }
  if (cg__load(kk, p->iFact, pDim->iFactCol, NULL) != 0) return -1;
  cg__comment_line(kk->x.s, kk->x.nIndent, "probe %s by %s", p->aSource[pDim->iSource].zAlias,
                   fk->zName);
  if (!fk->bNotNull) {
    cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) %s[k] &= %s_ok[k];", zFlag, zFk);
  }
  if (pDim->lookup.bBits) {
    /* The row index waits for the rows that pass every condition
    ** (scan_rows). */
    char zBits[192];
    if (scan_bits_shared(p, d)) snprintf(zBits, sizeof(zBits), "s_%s_bits", zLut);
    else snprintf(zBits, sizeof(zBits), "(const unsigned *)a.%s_bits", zLut);
    cg__line(&kk->x, "sq_probe_bits_%s(%s, a.%s_bmin, a.%s_bslots, %s, %s);",
             cg__reg_sfx(fk->type), zBits, zLut, zLut, zFk, zFlag);
    return 0;
  }
  cg__line(&kk->x, "unsigned r_%s[SQ_ITEMS];", zKey);
  switch (pDim->lookup.eKind) {
    case PLAN_LOOKUP_ARRAY:
      cg__line(&kk->x, "sq_probe_array_%s((const unsigned *)a.%s, a.%s_min, a.%s_slots, %s, %s, r_%s);",
               cg__reg_sfx(fk->type), zLut, zLut, zLut, zFk, zFlag, zKey);
      break;
    case PLAN_LOOKUP_DATE:
      cg__line(&kk->x, "sq_probe_date((const unsigned *)a.%s, a.%s_min, a.%s_slots, %s, %s, r_%s);",
               zLut, zLut, zLut, zFk, zFlag, zKey);
      break;
    default:
      cg__line(&kk->x, "sq_probe_hash_%s((const sq_hslot *)a.%s, (unsigned long long)a.%s_slots, %s, %s, r_%s);",
               cg__reg_sfx(fk->type), zLut, zLut, zFk, zFlag, zKey);
      break;
  }
  return 0;
}

/* After every condition: the row indexes of the dimensions probed by their
** semi-join bits that supply payload, for the rows left. */
static void scan_rows(cg_kern *kk) {
  cg_ctx *c = kk->x.c;
  const plan *p = c->p;
  for (int d = 0; d < p->nDim; d++) {
    const plan_dim *pDim = &p->aDim[d];
    const plan_lookup *l = &pDim->lookup;
    const char *zLut = scan_lookup_field(c, d);
    const char *zFk = cg__col_var(c, p->iFact, pDim->iFactCol);
    const char *zKey = cg__col_var(c, pDim->iSource, pDim->iKeyCol);
    const cat_column *fk = &p->aSource[p->iFact].pTable->aCol[pDim->iFactCol];
    char zMoved[192];
    if (!l->bBits || !pDim->bPayload) continue;
    cg__comment_line(kk->x.s, kk->x.nIndent, "row indexes of %s for the rows left",
                     p->aSource[pDim->iSource].zAlias);
    cg__line(&kk->x, "unsigned r_%s[SQ_ITEMS];", zKey);
    if (l->bDense) snprintf(zMoved, sizeof(zMoved), "*(const unsigned *)a.%s_moved", zLut);
    else snprintf(zMoved, sizeof(zMoved), "1u");
    cg__line(&kk->x, "sq_row_array_%s((const unsigned *)a.%s, a.%s_min, %s, %s, flag, r_%s);",
             cg__reg_sfx(fk->type), zLut, zLut, zMoved, zFk, zKey);
  }
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

/* Bytes of device.cuh's sq_stage_buf (SQ_STAGE_WORDS words, 34 entries). */
#define SCAN_STAGE_BYTES (4224u * 4u + 34u * 16u)

/* A later group's packed tiles are staged when the optimizer's estimates
** say at least this share of a column's 32-byte sectors hold a row that
** reaches it: the direct decode would read them anyway, in small reads. */
#define SCAN_STAGE_DENSE 0.5

/* 1 if the SCAN may stage packed tiles through shared memory (device.cuh,
** sq_stage_for_*): the plan reads the fact table from host memory (a
** resident plan's columns are plain, and its SCAN keeps the 32 registers
** it is bound to), and the buffer fits the static shared memory beside a
** shared group table. */
static int scan_stage_ok(const plan *p) {
  uint64_t nTab = cg__group_shared(p) ? p->group.nSharedByte : 0;
  return !p->model.bResident && nTab + SCAN_STAGE_BYTES + 1024u <= GROUPBY_SHARED_STATIC_MAX;
}

/* 1 if the group of conditions [iFirst, iEnd), reached by a share rReach
** of the rows, reads a column most of whose sectors hold such a row: 1 -
** (1 - rReach)^(rows a sector). Every row reaches the first group. */
static int scan_group_dense(const plan *p, int iFirst, int iEnd, double rReach) {
  for (int i = iFirst; i < iEnd; i++) {
    const predorder_cond *q = &p->aCond[p->order.aOrder[i]];
    int nRow = 32 / (q->nByte > 0 ? q->nByte : 1);
    double rNone = 1.0;
    for (int r = 0; r < nRow; r++) rNone *= 1.0 - rReach;
    if (1.0 - rNone >= SCAN_STAGE_DENSE) return 1;
  }
  return 0;
}

/* The end of the group of conditions that starts at i. */
static int scan_group_end(const plan *p, int i) {
  int j = i + 1;
  while (j < p->order.nCond && p->order.aJoin[j] == PREDORDER_JOIN_NOBRANCH) j++;
  return j;
}

/* Which groups stage their packed loads: the dense ones (the first always)
** up to the last such, whose `&&` before them are then block-wide
** (__syncthreads_or), so that every thread reaches their barriers; a
** sparse group keeps its sector skipping. Fills abStage (one per group)
** and returns the index of the last staged group, or -1. */
static int scan_stage_groups(const plan *p, uint8_t *abStage) {
  double rReach = 1.0;
  int iLast = -1, iGroup = 0;
  for (int i = 0; i < p->order.nCond; iGroup++) {
    int j = scan_group_end(p, i);
    abStage[iGroup] = scan_stage_ok(p) && scan_group_dense(p, i, j, rReach);
    if (abStage[iGroup]) iLast = iGroup;
    for (; i < j; i++) rReach *= p->aCond[p->order.aOrder[i]].rSel;
  }
  return iLast;
}

static int scan_conditions(cg_kern *kk) {
  const plan *p = kk->x.c->p;
  uint8_t *abStage = arena_alloc(kk->x.c->pArena, (size_t)p->order.nCond + 1);
  int iGroup = 0, iLast;
  if (abStage == NULL) return cg__oom(kk->x.c);
  iLast = scan_stage_groups(p, abStage);
  for (int i = 0; i < p->order.nCond;) {
    int j = scan_group_end(p, i);
    if (i > 0 && iGroup <= iLast) {
      cg__line(&kk->x, "if (!__syncthreads_or(sq_any(flag))) continue;   /* && (block-wide: a"
                       " staged load follows) */");
    } else if (i > 0) {
      cg__line(&kk->x, "if (!sq_any(flag)) continue;   /* && */");
    }
    kk->bStage = abStage[iGroup];
    if (scan_group(kk, i, j, iGroup++) != 0) return -1;
    i = j;
  }
  kk->bStage = 0;
  return 0;
}

/* The C names of a group's state words, which lie nStride words apart. */
static void scan_word(char *z, size_t n, int iOffset, int bFloat, uint64_t nStride) {
  unsigned long long i = (unsigned long long)(iOffset / 8) * nStride;
  if (bFloat) snprintf(z, n, "((double *)st)[%llu]", i);
  else snprintf(z, n, "st[%llu]", i);
}

/* Per item: the aggregate updates of one row into state st, whose words
** lie nStride apart (bAtomic: a group table; else the thread's registers
** acc<i>). */
static int scan_agg_update(cg_kern *kk, int bAtomic, uint64_t nStride) {
  cg_ctx *c = kk->x.c;
  const plan *p = c->p;
  if (!bAtomic) cg__line(&kk->x, "acc_rows++;");
  else if (!p->bCountInSum) cg__line(&kk->x, "sq_atomic_add(&st[0], 1);");   /* the row count */
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
      scan_word(zW, sizeof(zW), g->iValueOffset, g->bFloat, nStride);
      scan_word(zC, sizeof(zC), g->iCountOffset, 0, nStride);
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
  } else if (cg__group_shared(p)) {
    cg__line(&kk->x, "long long *st = g_tab + %s;",
             p->group.nHot > 0 ? "sq_gt_slot(g_map, code)" : "code");
    return 0;
  } else {
    cg__line(&kk->x, "long long slot = (long long)code;");
  }
  cg__line(&kk->x, "long long *st = (long long *)a.groups + slot * %d;", p->nStateByte / 8);
  return 0;
}

/* ---- the group table in shared memory ------------------------------------------ */

int cg__group_shared(const plan *p) {
  return p->bAggregate && p->group.eKind == GROUPBY_DENSE &&
         p->group.ePlace == GROUPBY_PLACE_SHARED && p->group.nSharedByte > 0 &&
         p->group.nSharedByte <= GROUPBY_SHARED_STATIC_MAX;
}

/* Slots of the block's shared table: the codes, then the replicas. */
static uint64_t scan_gt_slots(const plan *p) {
  return p->group.nHot > 0 ? p->group.nShSlot : p->group.nSlot;
}

/* One line of q_gt_combine: word iOffset/8 of src into dst with op. */
static void scan_gt_word(strbuf *s, const char *zOp, int iOffset, const char *zCast,
                         const char *zFrom) {
  strbuf_printf(s, "  %s(%s&dst[%d * nd], %s(src[%d * ns])%s);\n", zOp, zCast, iOffset / 8, zFrom,
                iOffset / 8, strcmp(zOp, "sq_atomic_add_checked") == 0 ? ", err" : "");
}

/* Emits q_gt_combine(dst, nd, src, ns, err): the state at src (words ns
** apart) folded into the state at dst (words nd apart) with the atomics
** each aggregate needs. The SCAN folds replicas into their group's first
** one and merges its shared table into the global one with it. */
static void scan_gt_combine(const plan *p, strbuf *s) {
  strbuf_puts(s, "/* One group's state into another's: replicas into their group, the block's\n"
                 "** shared table into the global one. */\n"
                 "__device__ __forceinline__ void q_gt_combine(long long *dst, long long nd,"
                 " const long long *src,\n"
                 "                                             long long ns, unsigned *err) {\n"
                 "  (void)err;\n");
  if (!p->bCountInSum) scan_gt_word(s, "sq_atomic_add", 0, "", "");   /* the row count */
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    int bMin = g->eFunc == PLAN_AGG_MIN;
    if (g->iCountOffset >= 0) scan_gt_word(s, "sq_atomic_add", g->iCountOffset, "", "");
    if (g->iValueOffset < 0) continue;
    if (g->eFunc == PLAN_AGG_MIN || g->eFunc == PLAN_AGG_MAX) {
      if (g->bFloat) {
        scan_gt_word(s, bMin ? "sq_atomic_fmin" : "sq_atomic_fmax", g->iValueOffset, "(double *)",
                     "__longlong_as_double");
      } else {
        scan_gt_word(s, bMin ? "sq_atomic_min" : "sq_atomic_max", g->iValueOffset, "", "");
      }
    } else if (g->bFloat) {
      scan_gt_word(s, "sq_atomic_fadd", g->iValueOffset, "(double *)", "__longlong_as_double");
    } else {
      scan_gt_word(s, scan_sum_checked(p, g) ? "sq_atomic_add_checked" : "sq_atomic_add",
                   g->iValueOffset, "", "");
    }
  }
  strbuf_puts(s, "}\n\n");
}

/* Before the tiles: the block's table, its initial states, and the map
** that gives hot groups their replicas. */
static void scan_gt_begin(cg_kern *kk) {
  const plan *p = kk->x.c->p;
  const groupby_plan *g = &p->group;
  uint64_t nSh = scan_gt_slots(p);
  if (g->nHot > 0) {
    cg__comment_line(kk->x.s, kk->x.nIndent, "GROUP BY: a dense table in this block's shared memory"
                     " (paper 003 §5.1), %d hot group%s replicated (paper 000 §3): %llu slots,"
                     " words %llu apart", g->nHot, g->nHot == 1 ? "" : "s",
                     (unsigned long long)nSh, (unsigned long long)nSh);
  } else {
    cg__comment_line(kk->x.s, kk->x.nIndent, "GROUP BY: a dense table in this block's shared memory"
                     " (paper 003 §5.1): %llu slots, words %llu apart", (unsigned long long)nSh,
                     (unsigned long long)nSh);
  }
  cg__line(&kk->x, "__shared__ long long g_tab[%llu];",
           (unsigned long long)(nSh * (uint64_t)(p->nStateByte / 8)));
  if (g->nHot > 0) {
    cg__line(&kk->x, "__shared__ unsigned g_map[%llu];", (unsigned long long)g->nSlot);
    cg__line(&kk->x, "sq_gt_map_init(g_map, %llu);", (unsigned long long)g->nSlot);
  }
  cg__line(&kk->x, "for (long long i = threadIdx.x; i < %llu; i += blockDim.x) {",
           (unsigned long long)nSh);
  kk->x.nIndent += 2;
  cg__line(&kk->x, "long long *st = g_tab + i;");
  cg__emit_state_init(&kk->x, nSh);
  kk->x.nIndent -= 2;
  cg__line(&kk->x, "}");
  cg__line(&kk->x, "__syncthreads();");
  if (g->nHot > 0) {
    for (int h = 0; h < g->nHot; h++) {
      cg__line(&kk->x, "sq_gt_map_hot(g_map, %llu, a.g_hot%d, %lluu, %du);   /* %.3g%% of rows */",
               (unsigned long long)g->nSlot, h, (unsigned long long)g->aHotBase[h],
               g->aHotReplica[h], 100.0 * g->aHotShare[h]);
    }
    cg__line(&kk->x, "__syncthreads();");
  }
}

/* After the tiles: each hot group's replicas folded into its first one,
** then every group the block saw merged into the global table. */
static void scan_gt_end(cg_kern *kk) {
  const plan *p = kk->x.c->p;
  const groupby_plan *g = &p->group;
  uint64_t nSh = scan_gt_slots(p);
  cg__line(&kk->x, "__syncthreads();");
  if (g->nHot > 0) {
    cg__comment_line(kk->x.s, kk->x.nIndent, "fold each hot group's replicas into its first");
    for (int h = 0; h < g->nHot; h++) {
      cg__line(&kk->x, "for (long long i = threadIdx.x + 1; i < %d; i += blockDim.x) {",
               g->aHotReplica[h]);
      cg__line(&kk->x, "  q_gt_combine(g_tab + %llu, %llu, g_tab + %llu + i, %llu, a.err);",
               (unsigned long long)g->aHotBase[h], (unsigned long long)nSh,
               (unsigned long long)g->aHotBase[h], (unsigned long long)nSh);
      cg__line(&kk->x, "}");
    }
    cg__line(&kk->x, "__syncthreads();");
  }
  cg__comment_line(kk->x.s, kk->x.nIndent, "merge the block's groups into the global table");
  cg__line(&kk->x, "for (long long i = threadIdx.x; i < %llu; i += blockDim.x) {",
           (unsigned long long)g->nSlot);
  cg__line(&kk->x, "  const long long *src = g_tab + %s;", g->nHot > 0 ? "sq_gt_home(g_map, i)" : "i");
  cg__line(&kk->x, "  if (src[0] != 0) q_gt_combine(a.groups + i * %d, 1, src, %llu, a.err);",
           p->nStateByte / 8, (unsigned long long)nSh);
  cg__line(&kk->x, "}");
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
    scan_word(zW, sizeof(zW), g->iValueOffset, g->bFloat, 1);
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
  cg__kernel_begin(c, s, "q_scan", CG_KERNEL_SCAN, 0);
  if (cg__group_shared(p)) scan_gt_combine(p, s);
  cg__comment_line(s, 0, "SCAN %s", p->aSource[p->iFact].zAlias);
  if (p->model.bResident && p->bAggregate && p->group.nThread > 0 && p->group.nBlockPerSm > 0) {
    /* The planner's grid, promised to ptxas: with 2 x 1024 threads an SM
    ** has 32 registers a thread, and left to itself ptxas takes 40-48 for
    ** a star join's SCAN (then one block fits: half the SM idle). Over
    ** device memory that doubles the loads in flight (H100, SF 20: the 13
    ** SCANs 1.3x faster); over zero-copy it does not pay (SF 100 streamed,
    ** 1,192 ms without against 1,379 ms with): resident plans only. */
    strbuf_printf(s, "__global__ void __launch_bounds__(%d, %d) q_scan(const struct q_args a) {\n",
                  p->group.nThread, p->group.nBlockPerSm);
  } else {
    strbuf_puts(s, "__global__ void q_scan(const struct q_args a) {\n");
  }
  if (p->bAggregate && p->group.eKind == GROUPBY_SCALAR) scan_scalar_registers(&kk);
  if (cg__group_shared(p)) scan_gt_begin(&kk);
  scan_bits_stage(&kk);
  cg__tile_begin(&kk, zRows);
  if (scan_conditions(&kk) != 0) return -1;
  cg__line(&kk.x, "if (!sq_any(flag)) continue;");
  scan_rows(&kk);
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
    if (scan_agg_update(&kk, p->group.eKind != GROUPBY_SCALAR,
                        cg__group_shared(p) ? scan_gt_slots(p) : 1) != 0) {
      return -1;
    }
    cg__block_end(&kk);
  } else if (scan_output_row(&kk) != 0) {
    return -1;
  }
  cg__block_end(&kk);
  if (p->bAggregate && p->group.eKind == GROUPBY_SCALAR) scan_scalar_flush(&kk);
  if (cg__group_shared(p)) scan_gt_end(&kk);
  cg__kernel_end(s, "q_scan");
  return 0;
}
