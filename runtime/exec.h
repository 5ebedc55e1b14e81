/*
** runtime/exec.h — running a query's program (codegen/codegen.h) over the
** column store and collecting its result.
**
** exec_select() maps the columns the program reads (the generations the
** plan was made against), allocates the lookups, the group table and the
** output buffers, fills struct q_args from the program's field table, and
** launches BUILD, INIT, SCAN and FINAL in order on the backend. A group
** table that overflows is doubled (groupby_plan_grow) and INIT + SCAN run
** again. Errors the kernels raise become SQLSTATEs (22003, 22012). The
** result is then sorted (ORDER BY), cut (OFFSET, LIMIT) and its hidden
** sort columns dropped, on the host.
**
** Backends: the CPU backend (runtime/cpu.h) today; the CUDA backend runs
** the same program the same way. EXPLAIN and the logs name the backend.
**
** INTERFACE ROUTINES
**   exec_backend_cpu      a CPU backend over a thread pool
**   exec_select           plan + program -> result
**   exec_result_text      one value as PostgreSQL's text output
**   exec_result_free
*/
#ifndef STARQ_EXEC_H
#define STARQ_EXEC_H

#include "../codegen/codegen.h"
#include "cpu.h"

typedef struct exec_backend exec_backend;
struct exec_backend {
  const char *zName;       /* "cpu" */
  cpu_pool *pPool;
  cpu_options opt;
};

/* One column of a result. Values are 8 bytes per row: long long for
** integer-like types (DECIMAL scaled by 10^nScale, DATE yyyymmdd, BOOLEAN
** 0/1, strings their dictionary code), double for DOUBLE. */
typedef struct exec_column exec_column;
struct exec_column {
  const char *zName;       /* owned by the result */
  coltype type;
  int bFloat;
  int bDict;
  store_dict dict;         /* bDict: the column's dictionary, mapped */
  int64_t *aInt;           /* !bFloat: nRow values; owned */
  double *aFloat;          /* bFloat: nRow values; owned */
  uint8_t *aNull;          /* nRow NULL flags; owned */
};

typedef struct exec_result exec_result;
struct exec_result {
  int nCol;
  exec_column *aCol;       /* owned */
  int64_t nRow;
  double rSeconds;         /* kernels and result assembly */
  int bCacheHit;           /* the compiled module came from the cache */
  double rCompileSeconds;
};

/* Runs program g of plan p (planned against pCat) on backend pB into *pRes.
** Returns 0, or -1 with *pErr set: 22003 / 22012 raised by a kernel,
** 58030 when a column file cannot be mapped, 53200 for memory, XX000 when
** the backend fails (the compiler's message included). Call
** exec_result_free() either way. */
int exec_select(cat *pCat, const plan *p, const cg_program *g, exec_backend *pB,
                exec_result *pRes, sql_error *pErr);

/* Appends value (iRow, iCol) as PostgreSQL prints it in text format; a
** NULL appends nothing and returns 1, else 0. */
int exec_result_text(const exec_result *r, int64_t iRow, int iCol, strbuf *s);

void exec_result_free(exec_result *r);

#endif /* STARQ_EXEC_H */
