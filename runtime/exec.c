/*
** runtime/exec.c — exec_select: a program's buffers, its launches, and
** the raw output rows (result.c sorts and shapes them).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "exec.h"
#include "execInt.h"

/* Blocks per launch on the CPU: enough per thread that a slow block does
** not leave the others idle, few enough that the block loop is cheap. */
#define EXEC_CPU_BLOCKS_PER_THREAD 16

/* Items per tile row on the device (SQ_ITEMS of codegen/device.cuh). */
#define EXEC_ITEMS 4

/* Everything one exec_select() holds until it returns. */
typedef struct exec_run exec_run;
struct exec_run {
  cat *pCat;
  const plan *p;
  const cg_program *g;
  exec_backend *pB;
  sql_error *pErr;
  cpu_module *pModule;
  uint64_t *aArg;          /* struct q_args, 8 bytes per field */
  store_map *aMap;         /* per field: its mapped file, if a column */
  void **apLookup;         /* per dimension */
  long long *aState;       /* group states */
  unsigned long long *aKey;/* HASH keys */
  uint64_t nSlot;
  void **apOut;            /* per output: values */
  uint8_t **apOutNull;
  uint64_t nOutCap;
  unsigned long long nOutCount;
  unsigned iErr;
};

static int exec_oom(exec_run *r) {
  sql_error_set(r->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
  return -1;
}

static int exec_map_field(exec_run *r, int i) {
  const cg_field *f = &r->g->aField[i];
  const cat_table *t = r->p->aSource[f->iSource].pTable;
  char zPath[4096], zErr[512];
  store_kind eKind = f->eKind == CG_FIELD_VALID ? STORE_VALIDITY : STORE_VALUES;
  if (t->iGen == 0 || t->nRow == 0) {
    r->aArg[i] = 0;
    return 0;
  }
  if (cat_file_path(r->pCat, t, t->iGen, f->iColumn, eKind, zPath, sizeof(zPath)) == NULL ||
      store_map_open(&r->aMap[i], zPath, eKind, 0, zErr, sizeof(zErr)) != 0) {
    sql_error_set(r->pErr, SQLSTATE_IO_ERROR, -1, "column \"%s\".\"%s\": %s", t->zName,
                  t->aCol[f->iColumn].zName, zErr);
    return -1;
  }
  r->aArg[i] = (uint64_t)(uintptr_t)r->aMap[i].aData;
  return 0;
}

/* Allocates the group table of nSlot slots and the outputs to match. */
static int exec_alloc_groups(exec_run *r, uint64_t nSlot) {
  free(r->aState);
  free(r->aKey);
  r->aKey = NULL;
  r->nSlot = nSlot;
  r->aState = calloc(nSlot, (size_t)r->g->nStateByte);
  if (r->aState == NULL) return exec_oom(r);
  if (r->g->bGroupHash && (r->aKey = malloc(nSlot * sizeof(*r->aKey))) == NULL) return exec_oom(r);
  return 0;
}

static int exec_alloc_outputs(exec_run *r, uint64_t nCap) {
  for (int i = 0; i < r->g->nOut; i++) {
    free(r->apOut[i]);
    free(r->apOutNull[i]);
    r->apOut[i] = calloc(nCap ? nCap : 1, 8);
    r->apOutNull[i] = calloc(nCap ? nCap : 1, 1);
    if (r->apOut[i] == NULL || r->apOutNull[i] == NULL) return exec_oom(r);
  }
  r->nOutCap = nCap;
  return 0;
}

/* Rows a non-aggregate query can produce at most, and all it needs to. */
static uint64_t exec_row_cap(const exec_run *r) {
  const plan *p = r->p;
  uint64_t n = p->iFact >= 0 ? (uint64_t)p->aSource[p->iFact].pTable->nRow : 1;
  if (r->g->nLimit >= 0 && r->g->nSort == 0) {
    uint64_t nWant = (uint64_t)r->g->nLimit + (uint64_t)r->g->nOffset;
    if (nWant < n) n = nWant;
  }
  return n;
}

/* Fills the argument block from the field table. */
static int exec_fill_args(exec_run *r) {
  const cg_program *g = r->g;
  for (int i = 0; i < g->nField; i++) {
    const cg_field *f = &g->aField[i];
    switch (f->eKind) {
      case CG_FIELD_COLUMN:
      case CG_FIELD_VALID:
        break;                                 /* mapped once, in exec_prepare */
      case CG_FIELD_NROW:
        r->aArg[i] = (uint64_t)r->p->aSource[f->iSource].pTable->nRow;
        break;
      case CG_FIELD_LOOKUP:
        r->aArg[i] = (uint64_t)(uintptr_t)r->apLookup[f->iDim];
        break;
      case CG_FIELD_CODESET:
        r->aArg[i] = (uint64_t)(uintptr_t)f->aBit;
        break;
      case CG_FIELD_PARAM_INT:
        r->aArg[i] = (uint64_t)f->iValue;
        break;
      case CG_FIELD_PARAM_FLOAT:
        memcpy(&r->aArg[i], &f->rValue, 8);
        break;
      case CG_FIELD_GROUPS:
        r->aArg[i] = (uint64_t)(uintptr_t)r->aState;
        break;
      case CG_FIELD_GROUP_KEYS:
        r->aArg[i] = (uint64_t)(uintptr_t)r->aKey;
        break;
      case CG_FIELD_GROUP_SLOTS:
        r->aArg[i] = r->nSlot;
        break;
      case CG_FIELD_GROUP_MASK:
        r->aArg[i] = r->nSlot - 1;
        break;
      case CG_FIELD_OUT_VALUE:
        r->aArg[i] = (uint64_t)(uintptr_t)r->apOut[f->iOut];
        break;
      case CG_FIELD_OUT_NULL:
        r->aArg[i] = (uint64_t)(uintptr_t)r->apOutNull[f->iOut];
        break;
      case CG_FIELD_OUT_COUNT:
        r->aArg[i] = (uint64_t)(uintptr_t)&r->nOutCount;
        break;
      case CG_FIELD_OUT_CAP:
        r->aArg[i] = r->nOutCap;
        break;
      case CG_FIELD_ERROR:
        r->aArg[i] = (uint64_t)(uintptr_t)&r->iErr;
        break;
    }
  }
  return 0;
}

static int exec_prepare(exec_run *r) {
  const cg_program *g = r->g;
  const plan *p = r->p;
  r->aArg = calloc((size_t)g->nField + 1, 8);
  r->aMap = calloc((size_t)g->nField + 1, sizeof(store_map));
  r->apLookup = calloc((size_t)p->nDim + 1, sizeof(void *));
  r->apOut = calloc((size_t)g->nOut + 1, sizeof(void *));
  r->apOutNull = calloc((size_t)g->nOut + 1, sizeof(uint8_t *));
  if (!r->aArg || !r->aMap || !r->apLookup || !r->apOut || !r->apOutNull) return exec_oom(r);
  for (int i = 0; i < g->nField; i++) {
    cg_field_kind e = g->aField[i].eKind;
    if ((e == CG_FIELD_COLUMN || e == CG_FIELD_VALID) && exec_map_field(r, i) != 0) return -1;
  }
  for (int d = 0; d < p->nDim; d++) {
    if ((r->apLookup[d] = calloc(p->aDim[d].lookup.nByte ? p->aDim[d].lookup.nByte : 1, 1)) == NULL) {
      return exec_oom(r);
    }
  }
  if (p->bAggregate) {
    if (exec_alloc_groups(r, g->nGroupSlot ? g->nGroupSlot : 1) != 0) return -1;
    return exec_alloc_outputs(r, r->nSlot);
  }
  return exec_alloc_outputs(r, exec_row_cap(r));
}

/* Launches kernel k over nWork items (rows or slots). */
static int exec_launch(exec_run *r, const cg_kernel *k, uint64_t nWork) {
  cpu_kernel *pK;
  char zErr[2048];
  uint64_t nBlock = (nWork + EXEC_ITEMS - 1) / EXEC_ITEMS;
  uint64_t nMax = (uint64_t)cpu_pool_threads(r->pB->pPool) * EXEC_CPU_BLOCKS_PER_THREAD;
  if (nBlock > nMax) nBlock = nMax;
  if (nBlock == 0) nBlock = 1;
  if (cpu_module_kernel(r->pModule, k->zName, &pK, zErr, sizeof(zErr)) != 0 ||
      cpu_kernel_launch(r->pB->pPool, pK, (unsigned)nBlock, 0, r->aArg, zErr, sizeof(zErr)) != 0) {
    sql_error_set(r->pErr, SQLSTATE_INTERNAL_ERROR, -1, "kernel %s: %s", k->zName, zErr);
    return -1;
  }
  return 0;
}

/* Turns the kernels' error word into an SQLSTATE. 1: an overflowed group
** table (the caller grows it), 0 none, -1 an error. */
static int exec_check(exec_run *r) {
  switch (r->iErr) {
    case 0: return 0;
    case 1:
      sql_error_set(r->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "value out of range for its type");
      return -1;
    case 2:
      sql_error_set(r->pErr, SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
      return -1;
    case 3:
      return 1;
    default:
      sql_error_set(r->pErr, SQLSTATE_INTERNAL_ERROR, -1, "kernel error %u", r->iErr);
      return -1;
  }
}

static int exec_kernels(exec_run *r) {
  const cg_program *g = r->g;
  const plan *p = r->p;
  groupby_plan gp = p->group;
  for (;;) {
    int rc = 0;
    r->iErr = 0;
    r->nOutCount = 0;
    exec_fill_args(r);
    for (int i = 0; i < g->nKernel && rc == 0; i++) {
      const cg_kernel *k = &g->aKernel[i];
      uint64_t nWork;
      switch (k->eKind) {
        case CG_KERNEL_BUILD: nWork = (uint64_t)p->aSource[p->aDim[k->iDim].iSource].pTable->nRow; break;
        case CG_KERNEL_SCAN: nWork = (uint64_t)p->aSource[p->iFact].pTable->nRow; break;
        case CG_KERNEL_VALUES: nWork = 1; break;
        default: nWork = r->nSlot; break;
      }
      if (g->bFalse && (k->eKind == CG_KERNEL_BUILD || k->eKind == CG_KERNEL_SCAN)) continue;
      if (exec_launch(r, k, nWork) != 0) return -1;
      rc = exec_check(r);
      if (rc < 0) return -1;
    }
    if (rc == 0) return 0;
    /* The group table overflowed: twice the slots, then INIT and SCAN again
    ** (BUILD ran again too; its lookups come out the same). */
    if (groupby_plan_grow(&gp, &p->model.dev) != 0) {
      sql_error_set(r->pErr, SQLSTATE_PROGRAM_LIMIT, -1, "too many groups for the group table");
      return -1;
    }
    if (exec_alloc_groups(r, gp.nSlot) != 0 || exec_alloc_outputs(r, r->nSlot) != 0) return -1;
    for (int d = 0; d < p->nDim; d++) memset(r->apLookup[d], 0, p->aDim[d].lookup.nByte);
  }
}

static void exec_run_free(exec_run *r) {
  cpu_module_free(r->pModule);
  for (int i = 0; r->aMap != NULL && i < r->g->nField; i++) {
    if (r->aMap[i].pMap != NULL) store_map_close(&r->aMap[i]);
  }
  for (int d = 0; r->apLookup != NULL && d < r->p->nDim; d++) free(r->apLookup[d]);
  for (int i = 0; r->apOut != NULL && i < r->g->nOut; i++) {
    free(r->apOut[i]);
    free(r->apOutNull[i]);
  }
  free(r->aArg);
  free(r->aMap);
  free(r->apLookup);
  free(r->apOut);
  free(r->apOutNull);
  free(r->aState);
  free(r->aKey);
}

int exec_select(cat *pCat, const plan *p, const cg_program *g, exec_backend *pB,
                exec_result *pRes, sql_error *pErr) {
  exec_run r;
  char zErr[4096];
  double t0 = timer_now();
  int rc = -1;
  memset(pRes, 0, sizeof(*pRes));
  memset(&r, 0, sizeof(r));
  r.pCat = pCat;
  r.p = p;
  r.g = g;
  r.pB = pB;
  r.pErr = pErr;
  if (cpu_module_load(strbuf_str(&g->src), &pB->opt, &r.pModule, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "compiling the query's kernels: %s", zErr);
    goto out;
  }
  pRes->bCacheHit = cpu_module_info_get(r.pModule)->bCacheHit;
  pRes->rCompileSeconds = cpu_module_info_get(r.pModule)->rCompileSeconds;
  if (exec_prepare(&r) != 0 || exec_kernels(&r) != 0) goto out;
  if (exec__result_build(pCat, p, g, (const void *const *)r.apOut, (const uint8_t *const *)r.apOutNull,
                         r.nOutCount < r.nOutCap ? r.nOutCount : r.nOutCap, pRes, pErr) != 0) {
    goto out;
  }
  rc = 0;
out:
  exec_run_free(&r);
  pRes->rSeconds = timer_now() - t0;
  return rc;
}
