/*
** codegen/generic-ops.h — the instruction set of the generic kernels: the
** one header both sides of them read. codegen/generic.c writes a plan as
** these instructions on the host; codegen/device-generic.cuh, compiled
** once per device (NVRTC) or once per cache (cc), runs them. Plain
** #defines in the common subset of C11 and CUDA C++, so the same text is
** included by the host's C and embedded into the device text.
**
** Why generic kernels: a new query shape costs NVRTC 55-103 ms for its
** own kernels on the H100 host (bench/RESULTS.md), and a program of any
** size costs 31-39 ms before its first line. Kernels that read the plan
** as data are compiled before the first query arrives, so a new shape's
** first run launches at once while its own kernels compile in the
** background (runtime/README.md, "Generic kernels").
**
** The argument block: SQG_WORDS 8-byte words, the query's fields first
** (codegen's struct q_args, filled by the runtime as for the compiled
** kernels), then the code. The last word holds the code's first word,
** the one before it the kernel a launch runs: there is one kernel,
** sq_gen, and the runtime sets that word before each launch (one entry
** point: ptxas gave each of sixteen a copy of the interpreter, 5.6 MB).
** The code, as ints: one entry per kernel of the program (its section's
** first int), then the sections. A section starts with a header of
** SQG_INS ints (SQG_H_*), then three runs of instructions, each ended by
** SQG_END: before the loop (once per thread), the loop's body (per tile
** or slot), after the loop (once per thread, every thread of the block).
**
** An instruction is SQG_INS ints: the opcode, then operands o1..o9
** (SQG_O_*). Registers are SQ_ITEMS-wide: a value (long long: integers,
** DECIMALs scaled, dates yyyymmdd, dictionary codes, booleans 0/1, and
** doubles by their bits) and a NULL flag per item. Flags are SQ_ITEMS-wide
** ints: flag 0 is the tile's (the items still in the query), the others
** the `&` groups' passes, probes' hits and CASE branches. An expression
** instruction works on the items its mask flag holds and on no other, so
** an item outside it raises no error (a CASE branch not taken, a row a
** `&&` dropped). Field operands index the argument block.
*/
#ifndef STARQ_GENERIC_OPS_H
#define STARQ_GENERIC_OPS_H

#define SQG_WORDS 1024           /* the argument block: 8 KB */
#define SQG_W_KERNEL (SQG_WORDS - 2)  /* the kernel a launch runs: set by the runtime */
#define SQG_W_CODE (SQG_WORDS - 1)    /* the code's first word */
#define SQG_KERNELS 16           /* kernels a generic program has at most */
#define SQG_NREG 40              /* registers */
#define SQG_NFLAG 8              /* flags */
#define SQG_NACC 48              /* a scalar aggregate's thread accumulators */
#define SQG_INS 10               /* ints an instruction */

/* Operand slots of an instruction. */
#define SQG_O_OP 0
#define SQG_O_D 1                /* destination register or flag */
#define SQG_O_A 2                /* first source register */
#define SQG_O_B 3                /* second source register */
#define SQG_O_M 4                /* mask flag */
#define SQG_O_X 5                /* extra operands: fields, kinds, numbers */
#define SQG_O_Y 6
#define SQG_O_Z 7
#define SQG_O_U 8
#define SQG_O_V 9

/* A section's header (its first SQG_INS ints). */
#define SQG_H_KIND 0             /* SQG_K_* */
#define SQG_H_ROWS 1             /* TILE: the field of the rows to scan */
#define SQG_H_SLOTS 2            /* SLOT: the field of the slots */
#define SQG_H_BODY 3             /* ints from the header's start to the body */
#define SQG_H_POST 4             /* ... to the run after the loop */
#define SQG_H_ERR 5              /* the error word's field */

#define SQG_K_TILE 1             /* BUILD, SCAN: tiles of a table's rows */
#define SQG_K_SLOT 2             /* INIT, FINAL: one group slot an item 0 */
#define SQG_K_ONCE 3             /* VALUES: thread 0 of block 0, item 0 */

/* ---- control and flags --------------------------------------------------- */
#define SQG_END 0
#define SQG_ANY 1                /* no item in flag 0: the next tile / slot */
#define SQG_FCOPY 2              /* F[d] = F[a] */
#define SQG_FAND 3               /* F[d] &= F[a] */
#define SQG_FILTER 4             /* items of F[m]: F[d] &= value a is TRUE */
#define SQG_FCOND 5              /* F[d] = F[m] && value a is TRUE */
#define SQG_FANDNOT 6            /* F[d] = F[m] && !F[a] */
#define SQG_FNOTNULL 7           /* F[d] &= value a is not NULL */
#define SQG_SKIPIFNOT 8          /* item 0 of F[m] set and a not TRUE: the next slot */

/* ---- columns ------------------------------------------------------------ */
/* LOAD d: the tile's items of flag 0; GATHER d at row index register a.
** x: the values' field (a packed column's directory), y: SQG_T_*, z: the
** validity field or -1; u: a packed column's words field or -1, v: its
** plain (resident) copy's field; a packed column's FOR suffix follows as
** a second instruction SQG_PACKED (z: SQG_F_*). */
#define SQG_LOAD 10
#define SQG_GATHER 11
#define SQG_PACKED 12

#define SQG_T_I16 1
#define SQG_T_I32 2
#define SQG_T_U32 3              /* dictionary codes */
#define SQG_T_I64 4
#define SQG_T_F64 5

#define SQG_F_I16 1              /* sq_load_for_i16 ... */
#define SQG_F_I32 2
#define SQG_F_I64 3
#define SQG_F_DATE 4             /* day slots back into yyyymmdd */

/* A code test's value where its code is NULL (plan_nullrow): FALSE (a
** condition; -1, an unused operand, reads as this), TRUE, or NULL. */
#define SQG_NR_FALSE 0
#define SQG_NR_TRUE 1
#define SQG_NR_NULL 2

/* ---- values ----------------------------------------------------------- */
#define SQG_PARAM 20             /* d = field x */
#define SQG_CONST 21             /* d = x, NULL if y */
#define SQG_MOV 22               /* d = a */
#define SQG_CODES 23             /* d = a in code set field x; where a is NULL,
                                 ** as z says (SQG_NR_*) */
#define SQG_CRANGE 24            /* d = field x <= a <= field y; where a is
                                 ** NULL, as z says (SQG_NR_*) */
#define SQG_IOP 25               /* d = a x b (SQG_I_*), range y (SQG_R_*), n z */
#define SQG_FOP 26               /* d = a x b (SQG_FO_*) in doubles */
#define SQG_TOF 27               /* d = (double)a / 10^x */
#define SQG_ICMP 28              /* d = a x b (SQG_C_*) as integers */
#define SQG_FCMP 29              /* ... as doubles */
#define SQG_WCMP 30              /* ... a * 10^y against b * 10^z in 128 bits */
#define SQG_AND3 31              /* three-valued AND */
#define SQG_OR3 32
#define SQG_NOT 33
#define SQG_ISNULL 34            /* d = a is NULL (x: is not NULL) */
#define SQG_TOBOOL 35            /* d = a != 0 */
#define SQG_INLIST 36             /* d = a in the y sorted values of field x
                                 ** (an IN list); NULL where a is, or where
                                 ** not found and z (a NULL in the list) */

/* SQG_IOP: NULL if a or b is (b -1: unary); else the checked result. */
#define SQG_MAP 37                /* d = value map field x at (days of a) -
                                 ** field y (field z entries), NULL where a
                                 ** is; u: 1 doubles' bits, 0 integers, 2 a
                                 ** string map: entry a, NULL where it is -1 */
#define SQG_MAPSTEP 38            /* d = b (0 if b is -1) + (a - field x, or
                                 ** field y where a is NULL) * field z: a
                                 ** string map's entry, one input a step */
#define SQG_I_ADD32 1            /* a + b of two 32-bit values: exact */
#define SQG_I_SUB32 2
#define SQG_I_MUL32 3
#define SQG_I_ADD 4              /* sq_add ... checked in 64 bits */
#define SQG_I_SUB 5
#define SQG_I_MUL 6
#define SQG_I_DIV 7
#define SQG_I_MOD 8
#define SQG_I_DDIV 9             /* sq_ddiv(a, b, z) */
#define SQG_I_NEG 10             /* sq_sub(0, a) */
#define SQG_I_DATE_ADD 11        /* sq_ymd(sq_days(a) + b) */
#define SQG_I_DATE_SUB 12
#define SQG_I_DATE_DIFF 13       /* sq_days(a) - sq_days(b) */
#define SQG_I_SCALE 14           /* sq_scale(a, z) */
#define SQG_I_UNSCALE 15         /* sq_unscale_round(a, z) */
#define SQG_I_F2I 16             /* sq_f2i(a * 10^z) of a double */
#define SQG_I_SAME 17            /* a */
#define SQG_I_TRUNC_D 18         /* a / 10^z: numeric trunc to a smaller scale */
#define SQG_I_FLOOR_D 19         /* ... rounded down */
#define SQG_I_CEIL_D 20          /* ... rounded up */

/* The range an SQG_IOP result must lie in (22003 past it). */
#define SQG_R_NONE 0
#define SQG_R_SMALLINT 1
#define SQG_R_INTEGER 2
#define SQG_R_DECIMAL 3          /* +-(10^u - 1): u the precision */

#define SQG_FO_ADD 1
#define SQG_FO_SUB 2
#define SQG_FO_MUL 3
#define SQG_FO_DIV 4             /* sq_fdiv: 22012, not NULL inputs only */
#define SQG_FO_NEG 5
#define SQG_FO_RINT 6            /* round(float8): half to even */
#define SQG_FO_CEIL 7
#define SQG_FO_FLOOR 8
#define SQG_FO_TRUNC 9
#define SQG_FO_SQRT 10           /* sq_fsqrt, not NULL inputs only */
#define SQG_FO_POW 11            /* sq_fpow, not NULL inputs only */

#define SQG_C_EQ 1
#define SQG_C_NE 2
#define SQG_C_LT 3
#define SQG_C_LE 4
#define SQG_C_GT 5
#define SQG_C_GE 6

/* ---- lookups -------------------------------------------------------------- */
/* Probes clear flag d's items whose key a has no passing row. */
#define SQG_PROBE_BITS 40        /* bits x, first key field y, keys field z */
#define SQG_PROBE_ARRAY 41       /* row index into b: slots x, min y, slots field z */
#define SQG_PROBE_DATE 42        /* ... a date map */
#define SQG_PROBE_HASH 43        /* row index into b: table x, mask field y */
#define SQG_ROW_ARRAY 44         /* b = row index of key a for flag 0: slots x,
                                 ** min y, moved word z (-1: read the slots) */
#define SQG_DENSE_CHECK 45       /* BUILD: key a against min field x, moved word y */
#define SQG_INSERT 46            /* BUILD: key a into lookup x of kind y
                                 ** (SQG_L_*), min field z, slots field u; bits
                                 ** field v (-1: none) and its first key and
                                 ** keys fields follow as a second
                                 ** instruction SQG_BITS (x, y) */
#define SQG_BITS 47

#define SQG_L_ARRAY 1
#define SQG_L_DATE 2
#define SQG_L_HASH 3

/* ---- aggregates ------------------------------------------------------------- */
#define SQG_GCODE 50             /* d += (a NULL ? dom - 1 : a - min) * stride:
                                 ** fields x min, y dom, z stride */
#define SQG_GSLOT 51             /* d = slot of code a: dense (x 0) or the
                                 ** hash table (x 1) of keys field y and mask
                                 ** field z; a full table clears flag 0 */
#define SQG_AGG_ROWS 52          /* groups field x, words a slot y: count + 1
                                 ** at slot b */
#define SQG_AGG 53               /* a into slot b: kind x (SQG_A_*), value
                                 ** word y, count word z (-1), groups field u,
                                 ** words a slot v */
#define SQG_SACC_INIT 54         /* accumulator x = SQG_V_* y */
#define SQG_SACC_ROWS 55         /* accumulator 0 += items of flag 0 */
#define SQG_SACC 56              /* a into accumulator y (count z, -1): kind x */
#define SQG_SFLUSH 57            /* after the tiles: accumulator y (count z,
                                 ** or accumulator 0 when -1) of kind x into
                                 ** value word u of the one state (groups
                                 ** field v); kind SQG_A_ROWS: the row count */

#define SQG_A_COUNT 1            /* the count word alone */
#define SQG_A_SUM 2              /* an add that cannot overflow */
#define SQG_A_SUM_CHECKED 3
#define SQG_A_SUM_F 4
#define SQG_A_MIN 5
#define SQG_A_MAX 6
#define SQG_A_MIN_F 7
#define SQG_A_MAX_F 8
#define SQG_A_ROWS 9

/* Initial values of a state word. */
#define SQG_V_ZERO 0
#define SQG_V_MAX 1              /* INT64_MAX: MIN's start */
#define SQG_V_MIN 2              /* INT64_MIN: MAX's start */
#define SQG_V_FMAX 3             /* +infinity's bits */
#define SQG_V_FMIN 4             /* -infinity's bits */

/* ---- INIT, FINAL, outputs ------------------------------------------------ */
#define SQG_INIT_KEY 60          /* keys field x: the slot's key EMPTY */
#define SQG_INIT_WORD 61         /* groups field x, words a slot y, word z = SQG_V_* u */
#define SQG_FIN_SLOT 62          /* d = the slot's code; an empty slot: the
                                 ** next. x: 0 dense, 1 hash, 2 scalar; groups
                                 ** field y, words a slot z, keys field u */
#define SQG_FIN_KEY 63           /* d = key of code a: stride field x, domain
                                 ** field y, min field z, nullable u */
#define SQG_FIN_AGG 64           /* d = aggregate: kind x (SQG_FA_*), value
                                 ** word y, count word z, groups field u,
                                 ** words a slot v, scale in b */
#define SQG_OUT_IDX 65           /* d = a new output row's index for items of
                                 ** F[m]; F[b] = those below the capacity */
#define SQG_OUT_COL 66           /* value a at row index b of items of F[m]:
                                 ** values field x, NULL flags field y */

#define SQG_FA_COUNT 1
#define SQG_FA_AVG_F 2
#define SQG_FA_AVG_I 3
#define SQG_FA_VALUE 4

#endif /* STARQ_GENERIC_OPS_H */
