/*
** codegen/genericInt.h — what the writer of the generic kernels' program
** shares across its files (one concept, the plan as instructions, in
** three parts that follow codegen's own):
**
**   generic.c        the program: writing instructions, sections, BUILD,
**                    INIT, FINAL, VALUES, the argument block
**   generic-scan.c   the SCAN's section (scan.c's steps)
**   generic-expr.c   fields, column loads, expressions and conditions
**                    (emit.c's loads, expr.c)
*/
#ifndef STARQ_GENERIC_INT_H
#define STARQ_GENERIC_INT_H

#include "codegenInt.h"
#include "generic-ops.h"

typedef struct gen_val gen_val;
struct gen_val {
  int r;                   /* the register */
  coltype type;
  int bFloat;
  int nScale;
};

typedef struct gen gen;
struct gen {
  const plan *p;
  cg_program *g;           /* codegen's: its fields */
  arena *pArena;
  int *aCode;              /* the program being written (ints) */
  int nCode, nAlloc;
  int iHead;               /* the current section's header */
  int bGroup;              /* expressions over a group slot (FINAL, VALUES) */
  int **aaReg;             /* per FROM item, per column: its register in
                           ** the current kernel, or -1 */
  int *aRowReg;            /* per dimension: its row index register, or -1 */
  int *aKeyReg, *aAggReg;  /* group mode: each key's, each aggregate's */
  int *aAccValue, *aAccCount;  /* scalar: each aggregate's accumulators (-1) */
  int nReg, nFlag;         /* registers and flags in use */
  int bFail;
  char zWhy[160];
};

/* ---- generic.c ---- */

/* Records why the program cannot be written (the first reason wins). */
void gen__fail(gen *x, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends one instruction: the opcode and its operands (-1: unused). */
void gen__ins(gen *x, int op, int d, int a, int b, int m, int ox, int oy, int oz, int ou, int ov);
void gen__op(gen *x, int op, int d, int a, int b, int m, int ox, int oy, int oz, int ou);
/* A new register, flag (0 on failure: the program is not written). */
int gen__reg(gen *x);
int gen__flag(gen *x);
/* Opens kernel iKernel's section; ends its current run of instructions. */
void gen__section(gen *x, int iKernel, int eKind, int iRows, int iSlots);
void gen__run_end(gen *x, int iSlot);
/* An output row of the values in registers aR, for the items of flag m. */
void gen__out_write(gen *x, const int *aR, int m);

/* ---- generic-scan.c ---- */
void gen__scan(gen *x, int iKernel);

/* ---- generic-expr.c ---- */

/* The field codegen made for a column's part, a kind of the query's, an
** output, a table's rows, a lookup's part, a parameter's role. */
int gen__f_col(gen *x, cg_field_kind e, int s, int iCol);
int gen__f_kind(gen *x, cg_field_kind e);
int gen__f_out(gen *x, cg_field_kind e, int iOut);
int gen__f_nrow(gen *x, int s);
int gen__f_lookup(gen *x, int d, uint64_t nOffset);
int gen__f_role(gen *x, cg_role e, int i, const void *pOwner);
/* Loads a column (cg__load), every column of an expression (cg__load_expr). */
void gen__load(gen *x, int s, int iCol, int iRow);
void gen__load_expr(gen *x, const sql_expr *e, int s);
/* An expression's value over mask m (cg__expr), a conversion (cg__as), a
** condition's value (cg__cond), a predicate into flag iInto (cg__emit_pred). */
int gen__expr(gen *x, const sql_expr *e, int m, gen_val *pv);
void gen__as(gen *x, gen_val *v, coltype t, int m);
int gen__cond(gen *x, const plan_pred *q, int m, int *pr);
int gen__pred(gen *x, const plan_pred *q, int iInto);

#endif /* STARQ_GENERIC_INT_H */
