/*
** codegen/codegenInt.h — what codegen's files share: the program being
** built, and the expression emitter's interface.
**
**   emit.c   the kernels: BUILD, INIT, SCAN, FINAL, VALUES, and the fields
**   expr.c   one SQL expression as C statements over one tile item (or one
**            group), with NULLs and PostgreSQL's errors
*/
#ifndef STARQ_CODEGEN_INT_H
#define STARQ_CODEGEN_INT_H

#include "../parser/parser.h"
#include "../planner/plan.h"
#include "codegen.h"

/* The program being built. */
typedef struct cg_ctx cg_ctx;
struct cg_ctx {
  const plan *p;
  arena *pArena;
  sql_error *pErr;
  cg_program *pProg;
  int nFieldAlloc;
  const char ***aazColVar; /* per FROM item, per column: its C name, or NULL */
};

/* A value in the emitted code: a C expression (a temporary or a literal)
** and one saying whether it is NULL ("0" when it cannot be). Integer-like
** values are long long (DECIMAL scaled by 10^nScale, DATE yyyymmdd, codes),
** DOUBLE double, BOOLEAN int 0/1. */
typedef struct cg_val cg_val;
struct cg_val {
  char z[64];
  char zNull[64];
  coltype type;
  int bFloat;
  int nScale;
};

/* Where an expression is evaluated. */
typedef enum cgx_mode {
  CGX_ROW = 1,             /* a tile item k: columns are name[k], name_ok[k] */
  CGX_GROUP                /* a group slot: keys and aggregates */
} cgx_mode;

typedef struct cgx cgx;
struct cgx {
  cg_ctx *c;
  strbuf *s;               /* the body being written */
  int nIndent;
  int *pnTemp;             /* temporaries are t<N>, numbered per kernel */
  cgx_mode eMode;
  /* CGX_GROUP: C names of each key's value and NULL flag, each aggregate's
  ** final value and NULL flag */
  const char **azKey, **azKeyNull;
  const char **azAgg, **azAggNull;
};

/* Adds a member to struct q_args; returns its index, or -1 (53200). */
int cg__field(cg_ctx *c, cg_field_kind e, const char *zName);

/* The C name of a column's values in a kernel (unique per FROM item and
** column: the column's name, prefixed by its table alias where two FROM
** items share a column name). */
const char *cg__col_var(cg_ctx *c, int iSource, int iColumn);

/* Appends a comment line at nIndent, its text (names and SQL the user
** wrote) kept from ending the comment. */
void cg__comment_line(strbuf *s, int nIndent, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends one line at x's indentation. */
void cg__line(cgx *x, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));

/* Emits the statements that compute e, leaving its value in *pv. Returns 0,
** or -1 with 0A000 (what the kernels cannot compute yet) on c->pErr. */
int cg__expr(cgx *x, const sql_expr *e, cg_val *pv);

/* The first COLUMN node at or below e (pLeft, pRight, pList order), or NULL. */
const sql_expr *cg__first_column(const sql_expr *e);

/* Emits a condition: *pzFlag gets a C expression true when e is TRUE
** (FALSE and NULL both fail a WHERE). Predicates with a code set test the
** code against it. */
int cg__cond(cgx *x, const plan_pred *q, char *zFlag, size_t nFlag);

/* Converts v to the representation of type t (rescaling DECIMALs, ints to
** double), in place. */
void cg__as(cgx *x, cg_val *v, coltype t);

/* Emits round, ceil, floor or trunc call e (mathfunc.c). */
int cg__math_func(cgx *x, const sql_expr *e, cg_val *pv);

/* What one kernel has loaded so far: per FROM item and column. */
typedef struct cg_kern cg_kern;
struct cg_kern {
  cgx x;
  int nTemp;
  uint8_t **aaLoaded;      /* per FROM item, per column */
  int bStage;              /* every thread of the block reaches the loads
                           ** emitted now and they are dense (a SCAN
                           ** condition group, scan.c scan_stage_groups): a
                           ** packed column is staged (device.cuh
                           ** sq_stage_for_*), which synchronises the block */
  int bStageDecl;          /* the staging buffer g_stage_buf is declared */
};

/* ---- emit.c: shared by the kernel emitters ---- */
int cg__oom(cg_ctx *c);
void cg__sanitize(char *z);
int cg__param(cg_ctx *c, const char *zName, int64_t v);
/* The same, saying what the parameter is (cg_field.eRole, iRole). */
int cg__param_role(cg_ctx *c, const char *zName, int64_t v, cg_role eRole, int iRole);
const char *cg__load_fn(coltype t, int bGather);
const char *cg__reg_type(coltype t);   /* the C type of its registers */
const char *cg__reg_sfx(coltype t);    /* its probe suffix; NULL for double */
const char *cg__table_rows(cg_ctx *c, int s);
int cg__kern_init(cg_ctx *c, cg_kern *kk, strbuf *s);
int cg__load(cg_kern *kk, int s, int iCol, const char *zRow);
/* 1 if column iCol of FROM item s is FOR-bitpacked (its COLUMN field is
** then the block directory, and a PACKED field holds its words). */
int cg__col_packed(const plan *p, int s, int iCol);
int cg__load_expr(cg_kern *kk, const sql_expr *e, int s);
void cg__tile_begin(cg_kern *kk, const char *zRows);
void cg__block_end(cg_kern *kk);
int cg__emit_pred(cg_kern *kk, const plan_pred *q, const char *zInto);
int cg__emit_build(cg_ctx *c, int d, strbuf *s);
/* Adds kernel zName to the program (the next in launch order), whose text
** the caller then writes to s. */
void cg__kernel_begin(cg_ctx *c, strbuf *s, const char *zName, cg_kernel_kind e, int iDim);
/* Closes kernel zName's body and writes its CPU entry. */
void cg__kernel_end(strbuf *s, const char *zName);

/* ---- scan.c, final.c ---- */
int cg__emit_scan(cg_ctx *c, strbuf *s);
int cg__emit_init(cg_ctx *c, strbuf *s);
int cg__emit_final(cg_ctx *c, strbuf *s);
int cg__emit_values(cg_ctx *c, strbuf *s);
int cg__outputs(cg_ctx *c);

/* Emits the initial values of the group state at st, whose 8-byte words
** lie nStride words apart (1 in the global table; the table's slots in a
** word-major shared-memory table). */
void cg__emit_state_init(cgx *x, uint64_t nStride);
/* 1 if the SCAN keeps plan p's group table in shared memory (scan.c). */
int cg__group_shared(const plan *p);
/* Writes one output row of values aV (one per output) at a new index. */
void cg__emit_out_write(cgx *x, const cg_val *aV);

#endif /* STARQ_CODEGEN_INT_H */
