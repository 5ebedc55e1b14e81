/*
** codegen/codegen.h — a physical plan (planner/plan.h) to the source of
** its kernels, and what the runtime needs to run them.
**
** One query is one source text: the device library (device.cuh), the
** query's argument struct, then its kernels in launch order:
**
**   q_build_<dim>   per dimension: filter its rows, fill its lookup
**   q_init          fill the group table's empty keys and accumulators
**   q_scan          the fact pass: conditions in the optimizer's order and
**                   grouping, probes, then aggregate or write rows
**   q_final         per group slot: HAVING, output expressions, one row out
**   q_values        (no FROM) the one row of constants
**
** The argument struct has only 8-byte members, so both compilers lay it
** out the same way; the runtime fills it from the field table (cg_field:
** what each member is, at offset 8 * index). Every literal of the query
** is a parameter in that struct, never text in the source, so queries
** that differ only in constants produce the same source and share one
** compiled module (the caches key on the source).
**
** Results: every output column is written as 8-byte values (long long, or
** double when bFloat) plus a NULL byte per row, at the index an atomic
** counter hands out; the runtime sorts, limits, and decodes dictionary
** codes on the host.
**
** INTERFACE ROUTINES
**   codegen_build   plan -> program (source + fields + kernels + outputs)
**   codegen_free
**   codegen_device_library  the embedded text of device.cuh
*/
#ifndef STARQ_CODEGEN_H
#define STARQ_CODEGEN_H

#include <stdint.h>

#include "../catalog/catalog.h"
#include "../common/arena.h"
#include "../common/coltype.h"
#include "../common/hash128.h"
#include "../common/sqlerr.h"
#include "../common/strbuf.h"

/* What codegen reads (planner/plan.h, parser/ast.h); the program below
** names neither, so that the runtime, which runs programs, includes no
** planner header. */
typedef struct plan plan;
struct sql_expr;

typedef enum cg_field_kind {
  CG_FIELD_COLUMN = 1,     /* pointer: values of (iSource, iColumn) */
  CG_FIELD_VALID,          /* pointer: validity bitmap of (iSource, iColumn) */
  CG_FIELD_NROW,           /* long long: rows of iSource */
  CG_FIELD_LOOKUP,         /* pointer: dimension iDim's lookup buffer, zeroed,
                           ** nOffset bytes in (its slots, bits, moved word) */
  CG_FIELD_CODESET,        /* pointer: pCodes->aBit of a predicate */
  CG_FIELD_PARAM_INT,      /* long long: iValue */
  CG_FIELD_PARAM_FLOAT,    /* double: rValue */
  CG_FIELD_GROUPS,         /* pointer: group states, nStateByte per slot */
  CG_FIELD_GROUP_KEYS,     /* pointer: HASH only: one 8-byte key per slot */
  CG_FIELD_GROUP_SLOTS,    /* long long: slots of the group table */
  CG_FIELD_GROUP_MASK,     /* long long: HASH only: slots - 1 */
  CG_FIELD_OUT_VALUE,      /* pointer: output column iOut, 8 bytes per row */
  CG_FIELD_OUT_NULL,       /* pointer: output column iOut NULL bytes */
  CG_FIELD_OUT_COUNT,      /* pointer: unsigned long long rows written */
  CG_FIELD_OUT_CAP,        /* long long: rows the outputs have room for */
  CG_FIELD_ERROR,          /* pointer: unsigned error word (SQ_ERR_*) */
  CG_FIELD_PACKED,         /* pointer: the packed words of FOR-bitpacked
                           ** (iSource, iColumn), whose COLUMN field then
                           ** points at its block directory */
  CG_FIELD_PLAIN,          /* pointer: FOR-bitpacked (iSource, iColumn)'s
                           ** values decoded (its resident copy, at the
                           ** type's width), or 0 when it is read packed:
                           ** the kernel picks */
  CG_FIELD_INLIST,         /* pointer: an IN list's values (pOwner: the IN
                           ** node), sorted, at its left side's
                           ** representation: aBit, nBitWord of them
                           ** (at least one word) */
  CG_FIELD_MAP,            /* pointer: a value map's values (pOwner: the
                           ** plan_valmap), aBit, nBitWord of them */
  CG_FIELD_STAGE           /* long long: 1 if the SCAN may stage packed
                           ** tiles in shared memory (CUDA, and
                           ** exec_options.bNoStage off), else 0: the
                           ** direct decode */
} cg_field_kind;

/* What a parameter field holds (cg_field.eRole), so that the generic
** kernels' program (generic.c) finds the field codegen made for each
** value it needs. */
typedef enum cg_role {
  CG_ROLE_NONE = 0,
  CG_ROLE_LITERAL,         /* pOwner: the literal's sql_expr */
  CG_ROLE_CODES_LO,        /* pOwner: a plan_pred whose code set is a range */
  CG_ROLE_CODES_HI,
  CG_ROLE_LUT_MIN,         /* iRole: the dimension (plan.aDim) */
  CG_ROLE_LUT_SLOTS,
  CG_ROLE_LUT_BMIN,
  CG_ROLE_LUT_BSLOTS,
  CG_ROLE_GROUP_MIN,       /* iRole: the GROUP BY key */
  CG_ROLE_GROUP_DOM,
  CG_ROLE_GROUP_STRIDE,
  CG_ROLE_INLIST_N,        /* pOwner: an IN node: its list's value count */
  CG_ROLE_MAP_MIN,         /* pOwner: a plan_valmap: its first day */
  CG_ROLE_MAP_N,           /* pOwner: a plan_valmap: its entries */
  CG_ROLE_MAPIN_LO,        /* pOwner: a plan_mapin: its least value */
  CG_ROLE_MAPIN_NULL,      /* ... its NULL slot (nDom) */
  CG_ROLE_MAPIN_STRIDE     /* ... its stride */
} cg_role;

typedef struct cg_field cg_field;
struct cg_field {
  cg_field_kind eKind;
  const char *zName;       /* the member's name in the source */
  int iSource, iColumn;    /* COLUMN, VALID, NROW */
  int iDim;                /* LOOKUP */
  uint64_t nOffset;        /* LOOKUP: bytes into the buffer (plan_lookup) */
  int iOut;                /* OUT_VALUE, OUT_NULL */
  int64_t iValue;          /* PARAM_INT */
  double rValue;           /* PARAM_FLOAT */
  const uint64_t *aBit;    /* CODESET (the plan's), INLIST (codegen's) */
  uint64_t nBitWord;       /* CODESET, INLIST: 64-bit words of aBit */
  cg_role eRole;           /* PARAM_*: what the parameter is, for the
                           ** generic kernels (generic.c), with iRole and
                           ** pOwner: the literal (sql_expr) or predicate
                           ** (plan_pred) it comes from */
  int iRole;
  const void *pOwner;
};

typedef enum cg_kernel_kind {
  CG_KERNEL_BUILD = 1,     /* grid over dimension iDim's rows */
  CG_KERNEL_INIT,          /* grid over the group table's slots */
  CG_KERNEL_SCAN,          /* grid over the fact table's rows */
  CG_KERNEL_FINAL,         /* grid over the group table's slots */
  CG_KERNEL_VALUES         /* one thread */
} cg_kernel_kind;

typedef struct cg_kernel cg_kernel;
struct cg_kernel {
  char zName[64];
  cg_kernel_kind eKind;
  int iDim;                /* BUILD: the dimension (cg_program.anLookupByte) */
  int iSource;             /* BUILD, SCAN: the table whose rows it runs over
                           ** (cg_program.apTable); -1 for the others */
};

/* One column of the result. Hidden columns carry ORDER BY expressions
** that are not in the select list; the runtime drops them after sorting. */
typedef struct cg_output cg_output;
struct cg_output {
  const char *zName;
  const struct sql_expr *pExpr;  /* what it computes (over rows or groups);
                           ** codegen's own: the runtime reads it not */
  coltype type;            /* the SQL type (BOOLEAN as 0/1 values) */
  int bFloat;              /* stored as double */
  int bDict;               /* a dictionary code of (iSource, iColumn) */
  int iSource, iColumn;
  int bStrList;            /* an index into the program's azStr (a string
                           ** literal, a CASE of them) */
  int bHostText;           /* a text value the host makes of the kernels'
                           ** value of type textOf: zPrefix, its text, zSuffix,
                           ** cut to nTextLen characters (0: uncut) */
  coltype textOf;
  const char *zPrefix, *zSuffix;   /* the plan's literals, or "" */
  int nTextLen;
  int bHidden;
};

typedef struct cg_sort cg_sort;
struct cg_sort {
  int iOut;
  int bDesc;
  int bNullsFirst;
};

typedef struct cg_program cg_program;
struct cg_program {
  strbuf src;              /* the whole source, device library included */
  hash128 hSrc;            /* hash128_of(src) (seed 0), taken once when built:
                           ** a module cache finds the program's module by it
                           ** without hashing the text again on every run.
                           ** {0, 0}: not taken (src is then hashed) */
  int nField;
  cg_field *aField;        /* members of struct q_args, in order */
  int nKernel;
  cg_kernel *aKernel;      /* in launch order */
  int nOut;
  cg_output *aOut;
  int nSort;
  cg_sort *aSort;
  int nStr;
  const char **azStr;      /* the string literals string-valued outputs
                           ** other than columns may take, sorted (byte
                           ** order) and unique, so that index order is
                           ** string order; the query's */
  int64_t nLimit;          /* -1: none */
  int64_t nOffset;
  int bGroupHash;          /* the group table has keys (HASH) */
  int bGroupScalar;
  uint64_t nGroupSlot;     /* slots of the group table (HASH: power of two) */
  int nStateByte;
  int bFalse;              /* a constant condition fails: no kernel runs, no row
                           ** (a scalar aggregate still gives its one row) */
  /* What the runtime needs to run it, beside the fields (it reads no plan). */
  int nTable;
  const cat_table **apTable;  /* per FROM item (a field's iSource): the
                           ** table's definition at the generation planned
                           ** against (rows, columns, files); the plan's */
  int iFact;               /* the scanned item (SCAN, streamed strides); -1:
                           ** none */
  int nLookup;
  const uint64_t *anLookupByte;  /* per dimension: its lookup buffer's bytes,
                           ** zeroed before BUILD fills it */
  int bAggregate;          /* one row per group (else a row per scanned row) */
  double nRowEstimate;     /* rows reaching aggregation or output: sizes a
                           ** non-aggregate's output buffers */
  int nScanThread;         /* an aggregating SCAN's block size (the group
                           ** table's placement); 0: the backend's */
  int nGroupGrow;          /* a full HASH group table doubles: its slots */
  const uint64_t *aGroupGrow;  /* after each rerun, in turn (0: no more) */
  /* The generic kernels (generic.c): the same run as this program's own
  ** kernels, by a kernel compiled once for every query. pGeneric shares
  ** this program's fields, kernels, outputs and sort; every kernel is a
  ** launch of CODEGEN_GENERIC_KERNEL (the generic module's one function:
  ** runtime/exec-backend.c) and its argument block is nArgWord words: the
  ** fields, then aArgTail (the instructions). NULL where the generic
  ** kernel cannot run the plan, and zGenericWhy says why. */
  struct cg_program *pGeneric;
  const char *zGenericWhy;
  int bGeneric;            /* this is a generic program */
  int nArgWord;            /* 8-byte words of the argument block (0: nField) */
  const uint64_t *aArgTail;  /* words nField .. nArgWord - 1 of it */
};

/* Words of the argument block a launch of g passes. */
static inline int cg_program_arg_words(const cg_program *g) {
  return g->nArgWord > g->nField ? g->nArgWord : g->nField;
}

/* Generates the program of plan p into *pProg (arrays from pArena; the
** tables' definitions are the plan's, and must outlive the program).
** Returns 0, or -1 with *pErr set: 0A000 for what the kernels cannot do
** yet (positioned), 53200 when memory runs out. */
int codegen_build(const plan *p, arena *pArena, cg_program *pProg, sql_error *pErr);
void codegen_free(cg_program *pProg);

/* The device library's text (codegen/device.cuh, embedded at build time). */
extern const char codegen_device_library[];

/* The generic kernels' text: the device library, generic-ops.h and
** device-generic.cuh (embedded at build time), and their one kernel. */
extern const char codegen_generic_library[];
#define CODEGEN_GENERIC_KERNEL "sq_gen"

/* Before launching kernel i of g with argument block aArg: for a generic
** program, which of its sections the one kernel runs (nothing for the
** others). */
void codegen_kernel_select(const cg_program *g, uint64_t *aArg, int iKernel);

/* Writes p as the generic kernels' program into g->pGeneric (generic.c),
** or leaves it NULL with g->zGenericWhy. Called by codegen_build. Returns
** -1 only when memory runs out (53200 on pErr). */
int codegen_generic_build(const plan *p, arena *pArena, cg_program *g, sql_error *pErr);

#endif /* STARQ_CODEGEN_H */
