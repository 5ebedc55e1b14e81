/*
** runtime/exec.c — exec_run: a program's buffers, its launches, and
** the raw output rows (result.c sorts and shapes them). Where buffers live
** and how kernels run is the backend's (exec-backend.c); this file only
** says what is needed when.
**
** The kernels' error word and output counter share one small buffer (the
** control block), cleared before each round and read back after it. All
** of a query's device work goes through its queue (exec-queue.c): on CUDA
** the clears, copies, launches and reads of a round are queued on the
** query's own stream and the host waits once, when it needs the control
** block — so one query's kernels never wait for another's, and the GPU
** runs other queries' kernels while this one plans or reads. The first
** error a kernel raises wins (sq_raise), so checking once per round
** reports the same error as checking after each kernel; the kernels after
** it only did work that is thrown away. Each kernel's time comes from
** timing marks between the launches (events on CUDA).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "exec.h"
#include "execInt.h"

/* The control block: the output row counter, then the error word. */
#define EXEC_CTL_COUNT 0
#define EXEC_CTL_ERROR 8
#define EXEC_CTL_SIZE 16

/* Everything one exec_run() holds until it returns. */
typedef struct exec_ctx exec_ctx;
struct exec_ctx {
  cat *pCat;
  const cg_program *g;     /* the program, or its generic form (exec__module_pick) */
  exec_backend *pB;
  const exec_options *pOpt;
  sql_error *pErr;
  exec_result *pRes;
  exec_module mod;
  exec_queue q;            /* the order of the query's device work */
  uint64_t *aArg;          /* struct q_args, 8 bytes per field */
  colmem_ref *aRef;        /* per field: its column, if a COLUMN or VALID */
  exec_buf *aCodes;        /* per field: its code set's bitmap, if a CODESET */
  exec_buf *aLookup;       /* per dimension */
  exec_buf state;          /* group states */
  exec_buf keys;           /* HASH keys */
  uint64_t nSlot;
  exec_buf *aOut;          /* per output: values */
  exec_buf *aOutNull;
  uint64_t nOutCap;
  unsigned char *pPre;     /* CUDA, a small aggregate: every output read
                           ** whole in the round's wait (exec_outputs_preread):
                           ** values, nOut x nPreRow x 8 bytes, then NULL flags;
                           ** owned; NULL: read after the wait */
  uint64_t nPreRow;        /* rows of each output in pPre */
  exec_buf ctl;            /* EXEC_CTL_*: out_count and the error word */
  unsigned long long nOutCount;  /* read back from ctl */
  unsigned iErr;
  /* A streamed run (exec_stream_wanted): the SCAN in chunks, each chunk's
  ** rows a batch to pOpt->pSink */
  int bStream;
  exec_chunks chunks;
  uint64_t nSkip;          /* OFFSET rows still to skip */
  int64_t nTake;           /* LIMIT rows still to send; -1: no LIMIT */
};

/* Holds field i's column in the column cache: a fact column as a SCAN
** reads it (it may stream; resident unless the session says not), any
** other whole and, being small and read at random, resident if it fits. */
static int exec_map_field(exec_ctx *r, int i) {
  const cg_field *f = &r->g->aField[i];
  const cat_table *t = r->g->apTable[f->iSource];
  store_kind eKind = f->eKind == CG_FIELD_VALID ? STORE_VALIDITY : STORE_VALUES;
  int bFact = f->iSource == r->g->iFact;
  colmem_use eUse = bFact ? COLMEM_USE_SCAN : COLMEM_USE_WHOLE;
  int bResident = !bFact || r->pOpt == NULL || !r->pOpt->bNoResident;
  colmem_ref *c = &r->aRef[i];
  uint64_t nRead;
  if (t->iGen == 0 || t->nRow == 0) {
    r->aArg[i] = 0;
    return 0;
  }
  if (colmem_acquire(r->pB->pMem, r->pCat, t, f->iColumn, eKind, eUse, bResident, c, r->pErr) != 0) {
    return -1;
  }
  /* The bytes the kernels read: a decoded resident copy's, not the file's. */
  nRead = c->bPlain ? c->nRow * c->nWidth : c->nByte;
  r->pRes->nColumnBytes += nRead;
  if (bFact) r->pRes->nFactBytes += nRead;
  switch (c->ePlace) {
    case COLMEM_PINNED: r->pRes->nColPinned++; break;
    case COLMEM_RESIDENT: r->pRes->nColResident++; break;
    case COLMEM_MAPPED: r->pRes->nColStreamed++; break;
  }
  r->pRes->nColPinnedNow += c->bPinnedNow;
  /* Plain: its PLAIN field has it. Packed with its directory in device
  ** memory: the COLUMN field is the directory (its PACKED field the words). */
  r->aArg[i] = c->bPlain ? 0 : c->iDirAddr != 0 ? c->iDirAddr : c->iAddr;
  return 0;
}

/* Bytes a result of nRow rows holds on the host: each output's value and
** NULL flag, and a row's place in the sort. */
static uint64_t exec_result_bytes(const exec_ctx *r, uint64_t nRow) {
  return nRow * (9 * (uint64_t)r->g->nOut + 8);
}

/* Appends n bytes as pg_size_pretty would print them. */
static void exec_size_text(uint64_t n, char *z, size_t nz) {
  static const char *azUnit[] = {"bytes", "kB", "MB", "GB", "TB"};
  int i = 0;
  while (i < 4 && n >= 10 * 1024) {
    n = (n + 512) / 1024;
    i++;
  }
  snprintf(z, nz, "%llu %s", (unsigned long long)n, azUnit[i]);
}

/* Fails the run with 53200 when a result of nRow rows held whole would
** pass the session's starq.result_memory_limit. Returns 0 or -1. */
static int exec_limit_check(exec_ctx *r, uint64_t nRow) {
  uint64_t nLimit = r->pOpt != NULL ? r->pOpt->nResultLimit : 0, nByte;
  char zNeed[32], zLimit[32];
  if (nLimit == 0 || (nByte = exec_result_bytes(r, nRow)) <= nLimit) return 0;
  exec_size_text(nByte, zNeed, sizeof(zNeed));
  exec_size_text(nLimit, zLimit, sizeof(zLimit));
  sql_error_set(r->pErr, SQLSTATE_OUT_OF_MEMORY, -1,
                "the result of %llu rows needs %s of memory, more than "
                "starq.result_memory_limit (%s)", (unsigned long long)nRow, zNeed, zLimit);
  return -1;
}

/* Allocates the group table of nSlot slots and the outputs to match. */
static int exec_alloc_groups(exec_ctx *r, uint64_t nSlot) {
  exec__buf_free(r->pB, &r->state);
  exec__buf_free(r->pB, &r->keys);
  r->nSlot = nSlot;
  if (exec__buf_alloc(r->pB, &r->q, nSlot * (size_t)r->g->nStateByte, &r->state, r->pErr) != 0) {
    return -1;
  }
  if (r->g->bGroupHash && exec__buf_alloc(r->pB, &r->q, nSlot * 8, &r->keys, r->pErr) != 0) return -1;
  return 0;
}

static int exec_alloc_outputs(exec_ctx *r, uint64_t nCap) {
  for (int i = 0; i < r->g->nOut; i++) {
    exec__buf_free(r->pB, &r->aOut[i]);
    exec__buf_free(r->pB, &r->aOutNull[i]);
    if (exec__buf_alloc(r->pB, &r->q, (nCap ? nCap : 1) * 8, &r->aOut[i], r->pErr) != 0 ||
        exec__buf_alloc(r->pB, &r->q, nCap ? nCap : 1, &r->aOutNull[i], r->pErr) != 0) {
      return -1;
    }
  }
  r->nOutCap = nCap;
  return 0;
}

/* Room for a non-aggregate query's rows: twice the planner's estimate (at
** least EXEC_ROWS_MIN), never more than the scanned table has, and no more
** than LIMIT + OFFSET when no ORDER BY needs the rest. The SCAN counts every
** row even past the room, so an estimate too low costs one rerun with the
** exact count (exec_kernels), never a lost row. */
#define EXEC_ROWS_MIN 65536
static uint64_t exec_row_cap(const exec_ctx *r) {
  const cg_program *g = r->g;
  uint64_t n = g->iFact >= 0 ? (uint64_t)g->apTable[g->iFact]->nRow : 1;
  double rWant = 2 * g->nRowEstimate;
  if (rWant < EXEC_ROWS_MIN) rWant = EXEC_ROWS_MIN;
  if (rWant < (double)n) n = (uint64_t)rWant;
  if (r->g->nLimit >= 0 && r->g->nSort == 0) {
    uint64_t nWant = (uint64_t)r->g->nLimit + (uint64_t)r->g->nOffset;
    if (nWant < n) n = nWant;
  }
  return n;
}

/* 1 if a non-aggregate query produced more rows than it had room for and
** needs every one of them (no LIMIT without ORDER BY cut them anyway). */
static int exec_rows_overflowed(const exec_ctx *r) {
  const cg_program *g = r->g;
  if (r->g->bAggregate || r->nOutCount <= r->nOutCap) return 0;
  return !(g->nLimit >= 0 && g->nSort == 0 &&
           r->nOutCap >= (uint64_t)g->nLimit + (uint64_t)g->nOffset);
}

/* Fills the argument block from the field table. */
static void exec_fill_args(exec_ctx *r) {
  const cg_program *g = r->g;
  for (int i = 0; i < g->nField; i++) {
    const cg_field *f = &g->aField[i];
    switch (f->eKind) {
      case CG_FIELD_COLUMN:
      case CG_FIELD_VALID:
        break;                                 /* mapped once, in exec_prepare */
      case CG_FIELD_PACKED:
        r->aArg[i] = exec__packed_addr(g, r->aRef, i);
        break;
      case CG_FIELD_PLAIN:
        r->aArg[i] = exec__plain_addr(g, r->aRef, i);
        break;
      case CG_FIELD_NROW:
        r->aArg[i] = (uint64_t)r->g->apTable[f->iSource]->nRow;
        break;
      case CG_FIELD_LOOKUP:
        r->aArg[i] = r->aLookup[f->iDim].iAddr + f->nOffset;
        break;
      case CG_FIELD_CODESET:
      case CG_FIELD_INLIST:
      case CG_FIELD_MAP:
        r->aArg[i] = r->aCodes[i].iAddr;
        break;
      case CG_FIELD_PARAM_INT:
        r->aArg[i] = (uint64_t)f->iValue;
        break;
      case CG_FIELD_PARAM_FLOAT:
        memcpy(&r->aArg[i], &f->rValue, 8);
        break;
      case CG_FIELD_GROUPS:
        r->aArg[i] = r->state.iAddr;
        break;
      case CG_FIELD_GROUP_KEYS:
        r->aArg[i] = r->keys.iAddr;
        break;
      case CG_FIELD_GROUP_SLOTS:
        r->aArg[i] = r->nSlot;
        break;
      case CG_FIELD_GROUP_MASK:
        r->aArg[i] = r->nSlot - 1;
        break;
      case CG_FIELD_OUT_VALUE:
        r->aArg[i] = r->aOut[f->iOut].iAddr;
        break;
      case CG_FIELD_OUT_NULL:
        r->aArg[i] = r->aOutNull[f->iOut].iAddr;
        break;
      case CG_FIELD_OUT_COUNT:
        r->aArg[i] = r->ctl.iAddr + EXEC_CTL_COUNT;
        break;
      case CG_FIELD_OUT_CAP:
        r->aArg[i] = r->nOutCap;
        break;
      case CG_FIELD_ERROR:
        r->aArg[i] = r->ctl.iAddr + EXEC_CTL_ERROR;
        break;
      case CG_FIELD_STAGE:
        /* The CPU runs a block as one thread, whose 4-row tile would stage
        ** a whole 128-row block (1.5-2x its SCAN's time at SF 0.1): the
        ** direct decode there. The mock driver of the tests runs the
        ** staged one on the CPU, as CUDA. */
        r->aArg[i] = r->pB->eKind == EXEC_BACKEND_CUDA && (r->pOpt == NULL || !r->pOpt->bNoStage);
        break;
    }
  }
  /* A generic program's instructions follow its fields. */
  if (g->aArgTail != NULL) {
    memcpy(r->aArg + g->nField, g->aArgTail, (size_t)(g->nArgWord - g->nField) * 8);
  }
}

static int exec_prepare(exec_ctx *r) {
  const cg_program *g = r->g;
  int nWord = cg_program_arg_words(g);
  /* Room for the generic program's block too: exec__module_pick may run it. */
  if (g->pGeneric != NULL && cg_program_arg_words(g->pGeneric) > nWord) {
    nWord = cg_program_arg_words(g->pGeneric);
  }
  r->aArg = calloc((size_t)nWord + 1, 8);
  r->aRef = calloc((size_t)g->nField + 1, sizeof(colmem_ref));
  r->aCodes = calloc((size_t)g->nField + 1, sizeof(exec_buf));
  r->aLookup = calloc((size_t)g->nLookup + 1, sizeof(exec_buf));
  r->aOut = calloc((size_t)g->nOut + 1, sizeof(exec_buf));
  r->aOutNull = calloc((size_t)g->nOut + 1, sizeof(exec_buf));
  if (!r->aArg || !r->aRef || !r->aCodes || !r->aLookup || !r->aOut || !r->aOutNull) {
    sql_error_set(r->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
    return -1;
  }
  if (exec__buf_alloc(r->pB, &r->q, EXEC_CTL_SIZE, &r->ctl, r->pErr) != 0) return -1;
  for (int i = 0; i < g->nField; i++) {
    const cg_field *f = &g->aField[i];
    if ((f->eKind == CG_FIELD_COLUMN || f->eKind == CG_FIELD_VALID) && exec_map_field(r, i) != 0) {
      return -1;
    }
    /* Code sets, IN lists and value maps live in the plan and the
    ** program, in host memory: the kernels get a copy. */
    if ((f->eKind == CG_FIELD_CODESET || f->eKind == CG_FIELD_INLIST || f->eKind == CG_FIELD_MAP) &&
        (exec__buf_alloc(r->pB, &r->q, f->nBitWord * 8, &r->aCodes[i], r->pErr) != 0 ||
         exec__buf_write(r->pB, &r->q, &r->aCodes[i], f->aBit, f->nBitWord * 8, r->pErr) != 0)) {
      return -1;
    }
  }
  for (int d = 0; d < g->nLookup; d++) {
    if (exec__buf_alloc(r->pB, &r->q, g->anLookupByte[d], &r->aLookup[d], r->pErr) != 0) {
      return -1;
    }
  }
  if (g->bAggregate) {
    if (exec_alloc_groups(r, g->nGroupSlot ? g->nGroupSlot : 1) != 0) return -1;
    return exec_alloc_outputs(r, r->nSlot);
  }
  if (r->bStream) return exec_alloc_outputs(r, r->chunks.nRow);
  {
    /* Room within the limit: rows past it are counted, and the exact
    ** count is checked against it before a rerun makes room for them. */
    uint64_t nCap = exec_row_cap(r), nLimit = r->pOpt != NULL ? r->pOpt->nResultLimit : 0;
    uint64_t nFit = nLimit / exec_result_bytes(r, 1);
    if (nLimit > 0 && nCap > nFit) nCap = nFit > 0 ? nFit : 1;
    return exec_alloc_outputs(r, nCap);
  }
}

/* Returns the side of their loads the run's packed columns take: the plain
** copy when every one is resident, the decode when none is, else both
** (chosen per column at run time by its PLAIN field). A column's placement
** holds for the run (it is acquired in exec_prepare, released at the end). */
static cuda_path exec_path(const exec_ctx *r) {
  int nPlain = 0, nPacked = 0;
  for (int i = 0; i < r->g->nField; i++) {
    int iCol;
    if (r->g->aField[i].eKind != CG_FIELD_PLAIN) continue;
    if ((iCol = exec__packed_column(r->g, i)) < 0) return CUDA_PATH_ANY;
    if (r->aRef[iCol].bPlain) nPlain++;
    else nPacked++;
  }
  if (nPlain > 0 && nPacked == 0) return CUDA_PATH_PLAIN;
  if (nPacked > 0 && nPlain == 0) return CUDA_PATH_PACKED;
  return CUDA_PATH_ANY;
}

/* Output bytes a round reads back beside its control block, at most. */
#define EXEC_PREREAD_BYTES ((uint64_t)64 << 10)

/* Where output i's values and NULL flags lie in a pre-read block of nOut
** outputs of nRow rows each: every output's 8-byte values, then every
** output's flags. */
static unsigned char *exec_pre_values(unsigned char *pPre, uint64_t nRow, int i) {
  return pPre + (size_t)i * nRow * 8;
}
static unsigned char *exec_pre_nulls(unsigned char *pPre, uint64_t nRow, int nOut, int i) {
  return pPre + (size_t)nOut * nRow * 8 + (size_t)i * nRow;
}

/* Queues the read of every output whole, for the round's one wait, when
** the query is an aggregate on CUDA whose outputs fit in
** EXEC_PREREAD_BYTES: its rows are at most its slots, so the rows come
** with the control block, and exec_outputs neither reads nor waits again.
** Anything else is read after the control block says how many rows there
** are. Returns 0 (also when nothing was queued), or -1 with *pErr. */
static int exec_outputs_preread(exec_ctx *r) {
  int nOut = r->g->nOut;
  uint64_t nCap = r->nOutCap ? r->nOutCap : 1, nByte = nCap * 9 * (uint64_t)nOut;
  free(r->pPre);
  r->pPre = NULL;
  r->nPreRow = 0;
  if (r->pB->eKind != EXEC_BACKEND_CUDA || !r->g->bAggregate || nOut == 0 ||
      nByte > EXEC_PREREAD_BYTES || (r->pPre = malloc(nByte)) == NULL) {
    return 0;                     /* out of memory too: read after the wait */
  }
  for (int i = 0; i < nOut; i++) {
    if (exec__buf_read(r->pB, &r->q, &r->aOut[i], exec_pre_values(r->pPre, nCap, i), nCap * 8,
                       r->pErr) != 0 ||
        exec__buf_read(r->pB, &r->q, &r->aOutNull[i], exec_pre_nulls(r->pPre, nCap, nOut, i),
                       nCap, r->pErr) != 0) {
      return -1;
    }
  }
  r->nPreRow = nCap;
  return 0;
}

/* Reads the control block back — the error word and the output count —
** waiting for everything queued before it. */
static int exec_ctl_read(exec_ctx *r) {
  unsigned char a[EXEC_CTL_SIZE];
  if (exec__buf_read(r->pB, &r->q, &r->ctl, a, sizeof(a), r->pErr) != 0 ||
      exec__queue_wait(r->pB, &r->q, r->pErr) != 0) {
    return -1;
  }
  memcpy(&r->nOutCount, a + EXEC_CTL_COUNT, sizeof(r->nOutCount));
  memcpy(&r->iErr, a + EXEC_CTL_ERROR, sizeof(r->iErr));
  return 0;
}

/* Turns the kernels' error word into an SQLSTATE. 1: an overflowed group
** table (the caller grows it), 0 none, -1 an error. */
static int exec_check(exec_ctx *r) {
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
    case 4:
      sql_error_set(r->pErr, SQLSTATE_INVALID_POWER_ARGUMENT, -1,
                    "cannot take square root of a negative number");
      return -1;
    case 5:
      sql_error_set(r->pErr, SQLSTATE_INVALID_POWER_ARGUMENT, -1,
                    "zero raised to a negative power is undefined");
      return -1;
    case 6:
      sql_error_set(r->pErr, SQLSTATE_INVALID_POWER_ARGUMENT, -1,
                    "a negative number raised to a non-integer power yields a complex result");
      return -1;
    case 7:
    case 8:
      sql_error_set(r->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "value out of range: %s",
                    r->iErr == 7 ? "overflow" : "underflow");
      return -1;
    default:
      sql_error_set(r->pErr, SQLSTATE_INTERNAL_ERROR, -1, "kernel error %u", r->iErr);
      return -1;
  }
}

/* A generic run's stages keep their names, marked, so EXPLAIN ANALYZE
** reads the same on both. */
static void exec_kernel_count(exec_ctx *r, int i, double t) {
  exec_result *pRes = r->pRes;
  pRes->rKernelSeconds += t;
  if (i >= EXEC_KERNELS_MAX) return;
  if (i >= pRes->nKernel) {
    pRes->nKernel = i + 1;
    snprintf(pRes->aKernel[i].zName, sizeof(pRes->aKernel[i].zName), "%s%s",
             r->g->aKernel[i].zName, r->g->bGeneric ? " (generic)" : "");
  }
  pRes->aKernel[i].nLaunch++;
  pRes->aKernel[i].rSeconds += t;
}

/* Returns 1, with 57014 set, if the session asked the query to stop
** (exec_options.pbCancel): checked before each kernel is queued (what is
** queued already runs to its end: exec_run waits for it). */
static int exec_cancelled(exec_ctx *r) {
  if (r->pOpt == NULL || r->pOpt->pbCancel == NULL || *r->pOpt->pbCancel == 0) return 0;
  sql_error_set(r->pErr, "57014", -1, "canceling statement due to user request");
  return 1;
}

/* Adds the time of each kernel run this round (aiRun[j]: between timing
** marks j and j + 1) to the result, after the round's wait. */
static int exec_kernel_times(exec_ctx *r, const int *aiRun, int nRun) {
  for (int j = 0; j < nRun; j++) {
    double t;
    if (exec__queue_seconds(r->pB, &r->q, j, j + 1, &t, r->pErr) != 0) return -1;
    exec_kernel_count(r, aiRun[j], t);
  }
  return 0;
}

/* Runs the program's kernels: a round of them, then, as the control block
** says, a round again with room for more groups or rows. */
static int exec_kernels(exec_ctx *r) {
  const cg_program *g = r->g;
  int iGrow = 0, bBuilt = 0, *aiRun = calloc((size_t)g->nKernel + 1, sizeof(int)), rc = -1;
  if (aiRun == NULL) {
    sql_error_set(r->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
    return -1;
  }
  for (;;) {
    int nRun = 0;
    if (exec__buf_zero(r->pB, &r->q, &r->ctl, r->pErr) != 0) goto out;
    exec_fill_args(r);
    if (exec__queue_mark(r->pB, &r->q, 0, r->pErr) != 0) goto out;
    for (int i = 0; i < g->nKernel; i++) {
      const cg_kernel *k = &g->aKernel[i];
      uint64_t nWork;
      switch (k->eKind) {
        case CG_KERNEL_BUILD:
        case CG_KERNEL_SCAN: nWork = (uint64_t)g->apTable[k->iSource]->nRow; break;
        case CG_KERNEL_VALUES: nWork = 1; break;
        default: nWork = r->nSlot; break;
      }
      if (g->bFalse && (k->eKind == CG_KERNEL_BUILD || k->eKind == CG_KERNEL_SCAN)) continue;
      if (bBuilt && k->eKind == CG_KERNEL_BUILD) continue;   /* lookups outlive a rerun */
      if (exec_cancelled(r)) goto out;
      codegen_kernel_select(g, r->aArg, i);
      if (k->eKind == CG_KERNEL_SCAN) {
        if (exec__scan(r->pB, &r->q, &r->mod, g, k, r->aArg, r->aRef,
                       r->pOpt != NULL ? r->pOpt->pbCancel : NULL,
                       r->pOpt == NULL || !r->pOpt->bNoShare, r->bStream ? &r->chunks : NULL,
                       r->pRes, r->pErr) != 0) {
          goto out;
        }
      } else if (exec__launch(r->pB, &r->q, &r->mod, g, k, nWork, r->aArg,
                              (size_t)cg_program_arg_words(g) * 8, r->pErr) != 0) {
        goto out;
      }
      aiRun[nRun++] = i;
      if (exec__queue_mark(r->pB, &r->q, nRun, r->pErr) != 0) goto out;
    }
    if (exec_outputs_preread(r) != 0 || exec_ctl_read(r) != 0 ||
        exec_kernel_times(r, aiRun, nRun) != 0) {
      goto out;
    }
    bBuilt = 1;
    switch (exec_check(r)) {
      case 0:
        if (!exec_rows_overflowed(r)) {
          rc = 0;
          goto out;
        }
        if (exec_limit_check(r, r->nOutCount) != 0 ||
            exec_alloc_outputs(r, r->nOutCount) != 0) {            /* the exact count */
          goto out;
        }
        break;
      case 1:
        /* The group table overflowed: the next size the program names
        ** (twice the slots), then INIT, SCAN and FINAL again over the
        ** lookups BUILD filled the first time. */
        if (iGrow >= g->nGroupGrow) {
          sql_error_set(r->pErr, SQLSTATE_PROGRAM_LIMIT, -1, "too many groups for the group table");
          goto out;
        }
        if (exec_alloc_groups(r, g->aGroupGrow[iGrow++]) != 0 ||
            exec_alloc_outputs(r, r->nSlot) != 0) {
          goto out;
        }
        break;
      default:
        goto out;
    }
  }
out:
  free(aiRun);
  return rc;
}

/* Builds *pRes from the first nRow rows of the output buffers, nSkip of
** them skipped and at most nTake kept (-1: all): in place on the CPU,
** from host copies of the rows written on CUDA. */
static int exec_outputs_into(exec_ctx *r, uint64_t nRow, uint64_t nSkip, int64_t nTake,
                             exec_result *pRes) {
  int nOut = r->g->nOut, rc = -1;
  void **apOut = calloc((size_t)nOut + 1, sizeof(void *));
  uint8_t **apNull = calloc((size_t)nOut + 1, sizeof(uint8_t *));
  int bPre = r->pPre != NULL && nRow <= r->nPreRow;
  int bCopy = r->pB->eKind != EXEC_BACKEND_CPU && !bPre;
  if (apOut == NULL || apNull == NULL) goto out_oom;
  for (int i = 0; i < nOut; i++) {
    if (bPre) {                   /* read in the last round's wait */
      apOut[i] = exec_pre_values(r->pPre, r->nPreRow, i);
      apNull[i] = exec_pre_nulls(r->pPre, r->nPreRow, nOut, i);
      continue;
    }
    if (!bCopy) {
      apOut[i] = r->aOut[i].pHost;
      apNull[i] = r->aOutNull[i].pHost;
      continue;
    }
    if ((apOut[i] = malloc(nRow * 8 + 1)) == NULL || (apNull[i] = malloc(nRow + 1)) == NULL) {
      goto out_oom;
    }
    if (exec__buf_read(r->pB, &r->q, &r->aOut[i], apOut[i], nRow * 8, r->pErr) != 0 ||
        exec__buf_read(r->pB, &r->q, &r->aOutNull[i], apNull[i], nRow, r->pErr) != 0) {
      goto out_free;
    }
  }
  if (bCopy && exec__queue_wait(r->pB, &r->q, r->pErr) != 0) goto out_free;
  rc = exec__result_build(r->pCat, r->g, (const void *const *)apOut,
                          (const uint8_t *const *)apNull, nRow, nSkip, nTake, pRes, r->pErr);
  goto out_free;
out_oom:
  sql_error_set(r->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while reading the result");
out_free:
  for (int i = 0; bCopy && apOut != NULL && apNull != NULL && i < nOut; i++) {
    free(apOut[i]);
    free(apNull[i]);
  }
  free(apOut);
  free(apNull);
  return rc;
}

/* The whole result, from the last round's outputs. */
static int exec_outputs(exec_ctx *r) {
  uint64_t nRow = r->nOutCount < r->nOutCap ? r->nOutCount : r->nOutCap;
  if (exec_limit_check(r, nRow) != 0) return -1;
  return exec_outputs_into(r, nRow, (uint64_t)r->g->nOffset, r->g->nLimit, r->pRes);
}

/* 1 if the run's rows go to the sink chunk by chunk as the SCAN makes
** them: a scan without aggregation or ORDER BY (a row per fact row at
** most, in no order but the kernels'). Anything else is whole first. */
static int exec_stream_wanted(const exec_ctx *r) {
  const cg_program *g = r->g;
  return r->pOpt != NULL && r->pOpt->pSink != NULL && !g->bAggregate && g->nSort == 0 &&
         g->iFact >= 0 && !g->bFalse;
}

/* After each chunk of a streamed SCAN (exec_chunks.xDone): waits for it,
** makes its rows (what is left of OFFSET and LIMIT applied) a batch for
** the sink, and clears the row counter for the next chunk. Returns 0, 1
** once LIMIT is reached, or -1. */
static int exec_chunk_done(void *pArg) {
  exec_ctx *r = pArg;
  exec_result *b;
  uint64_t nRow, nSkipped;
  if (exec_ctl_read(r) != 0) return -1;
  if (exec_check(r) != 0) {
    if (r->iErr == 3) sql_error_set(r->pErr, SQLSTATE_INTERNAL_ERROR, -1, "a scan raised overflow");
    return -1;
  }
  if (r->nOutCount > r->nOutCap) {
    sql_error_set(r->pErr, SQLSTATE_INTERNAL_ERROR, -1,
                  "a chunk of the scan wrote %llu rows into room for %llu",
                  (unsigned long long)r->nOutCount, (unsigned long long)r->nOutCap);
    return -1;
  }
  nRow = r->nOutCount;
  if (exec__buf_zero(r->pB, &r->q, &r->ctl, r->pErr) != 0) return -1;
  if (nRow == 0 || r->nTake == 0) return r->nTake == 0;
  if ((b = calloc(1, sizeof(*b))) == NULL) {
    sql_error_set(r->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory sending the result");
    return -1;
  }
  if (exec_outputs_into(r, nRow, r->nSkip, r->nTake, b) != 0) {
    exec_result_free(b);
    free(b);
    return -1;
  }
  nSkipped = r->nSkip < nRow ? r->nSkip : nRow;
  r->nSkip -= nSkipped;
  if (r->nTake > 0) r->nTake -= b->nRow;
  if (b->nRow == 0) {
    exec_result_free(b);
    free(b);
    return r->nTake == 0;
  }
  r->pRes->nRowStreamed += b->nRow;
  if (r->pOpt->pSink->xBatch(r->pOpt->pSink->pArg, b, r->pErr) != 0) return -1;
  return r->nTake == 0;
}

static void exec_ctx_free(exec_ctx *r) {
  exec_backend *pB = r->pB;
  /* First: nothing below may be given back while queued work uses it. */
  exec__queue_close(pB, &r->q);
  for (int i = 0; r->aRef != NULL && i < r->g->nField; i++) colmem_release(pB->pMem, &r->aRef[i]);
  for (int i = 0; r->aCodes != NULL && i < r->g->nField; i++) exec__buf_free(pB, &r->aCodes[i]);
  for (int d = 0; r->aLookup != NULL && d < r->g->nLookup; d++) exec__buf_free(pB, &r->aLookup[d]);
  for (int i = 0; r->aOut != NULL && i < r->g->nOut; i++) {
    exec__buf_free(pB, &r->aOut[i]);
    exec__buf_free(pB, &r->aOutNull[i]);
  }
  exec__buf_free(pB, &r->state);
  exec__buf_free(pB, &r->keys);
  exec__buf_free(pB, &r->ctl);
  exec__module_free(pB, &r->mod);
  free(r->pPre);
  free(r->aArg);
  free(r->aRef);
  free(r->aCodes);
  free(r->aLookup);
  free(r->aOut);
  free(r->aOutNull);
}

/* After a fault lost the device's context (this query's error says so):
** rebuilds it, so the next query runs, and says so in the error. */
static void exec_recover(exec_backend *pB, unsigned iEpoch, sql_error *pErr) {
  char zErr[512];
  size_t n = strlen(pErr->zMsg);
  if (cuda_device_recover(pB->pCuda, iEpoch, zErr, sizeof(zErr)) == 0) {
    snprintf(pErr->zMsg + n, sizeof(pErr->zMsg) - n, "; the GPU context was rebuilt");
  } else {
    /* The driver keeps the fault for the life of the process (CUDA 13
    ** does for an illegal address): only a new process has a GPU again. */
    log_printf(LOG_LEVEL_ERROR, "rebuilding the GPU context failed: %s", zErr);
    snprintf(pErr->zMsg + n, sizeof(pErr->zMsg) - n,
             "; the GPU context cannot be rebuilt in this process (%s)", zErr);
  }
}

int exec_run(cat *pCat, const cg_program *g, exec_backend *pB, const exec_options *pOpt,
             exec_result *pRes, sql_error *pErr) {
  exec_ctx r;
  double t0 = timer_now(), t1;
  unsigned iEpoch = 0;
  int rc = -1;
  memset(pRes, 0, sizeof(*pRes));
  memset(&r, 0, sizeof(r));
  r.pCat = pCat;
  r.g = g;
  r.pB = pB;
  r.pOpt = pOpt;
  r.pErr = pErr;
  r.pRes = pRes;
  if ((r.bStream = exec_stream_wanted(&r))) {
    r.chunks.nRow = exec_batch_rows(g->nOut);
    r.chunks.xDone = exec_chunk_done;
    r.chunks.pArg = &r;
    r.nSkip = (uint64_t)g->nOffset;
    r.nTake = g->nLimit;
  }
  if (pB->eKind == EXEC_BACKEND_CUDA) iEpoch = cuda_device_use_begin(pB->pCuda);
  /* Columns first: a module holds only the path they take (exec_path). */
  if (exec__queue_open(pB, &r.q, pErr) != 0) goto out;
  r.q.pbCancel = pOpt != NULL ? pOpt->pbCancel : NULL;
  if (exec_prepare(&r) != 0 ||
      exec__module_pick(pB, &r.g, pOpt, exec_path(&r), &r.mod, pRes, pErr) != 0) {
    goto out;
  }
  pRes->rPrepareSeconds = timer_now() - t0;
  if (exec_kernels(&r) != 0) goto out;
  t1 = timer_now();
  if (exec_outputs(&r) != 0) goto out;
  /* Whatever was not streamed chunk by chunk goes to the sink whole. */
  if (pOpt != NULL && pOpt->pSink != NULL && exec_result_stream(pRes, pOpt->pSink, pErr) != 0) {
    goto out;
  }
  pRes->rOutputSeconds = timer_now() - t1;
  rc = 0;
out:
  exec_ctx_free(&r);
  if (pB->eKind == EXEC_BACKEND_CUDA) {
    cuda_device_use_end(pB->pCuda);
    if (rc != 0 && cuda_device_lost(pB->pCuda)) exec_recover(pB, iEpoch, pErr);
  }
  pRes->rSeconds = timer_now() - t0;
  return rc;
}
