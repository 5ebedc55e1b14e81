/*
** clients/bench/bench.h — starq-bench, the SSB benchmark runner: what its
** files share. The program runs SQL files against a live starqd over
** libpq, times each from the client, asks the server what the statement
** cost it (SHOW starq.last_query) and reports both beside the physical
** floors: the fact-table bytes a query read over the server's measured
** zero-copy (PCIe) and device-memory bandwidth.
**
** One concept per file:
**   args.c     the command line, and the query files it names
**   server.c   connections (flags, PG* variables, --session statements)
**              and the server-side figures of the last statement
**   run.c      the single-client run: warm-up, timed repetitions; the
**              progress line
**   mix.c      the concurrent mix: C connections, shuffled query order
**   stats.c    sorting, median, percentiles
**   verify.c   answer files: reading, writing, comparing results
**   report.c   the single-client report as an aligned table, CSV or JSON
**   report-mix.c  the same for the mix
**   svg.c      the per-query chart
**   main.c     the program: parse, connect, run, report, exit code
**
** Ownership: a bench_args borrows argv's strings. Queries, results and
** answers are owned by the arrays that hold them and freed with the
** matching _free(); nothing here keeps a pointer into a PGresult after
** PQclear().
**
** Exit codes (main.c): 0 every query ran (and matched its answer), 1 bad
** usage, an unreadable file, a failed query or a wrong answer, 2 the server
** could not be reached.
*/
#ifndef STARQ_BENCH_H
#define STARQ_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <postgresql/libpq-fe.h>

#include "../../common/json.h"
#include "../../common/strbuf.h"

/* Exit codes. */
#define BENCH_EXIT_OK 0
#define BENCH_EXIT_FAIL 1
#define BENCH_EXIT_CONNECT 2

/* ---- the command line (args.c) ---------------------------------------- */

typedef enum bench_format { BENCH_FORMAT_TABLE, BENCH_FORMAT_CSV, BENCH_FORMAT_JSON } bench_format;

/* The parsed command line. Strings are borrowed from argv. */
typedef struct bench_args bench_args;
struct bench_args {
  /* Connection: NULL means the PG* variable, else the default */
  const char *zHost;       /* -h (127.0.0.1) */
  const char *zPort;       /* -p (5433) */
  const char *zUser;       /* -U (starq) */
  const char *zDb;         /* -d (starq) */
  const char **azSession;  /* --session statements, in order; owned array */
  int nSession;
  /* What to run */
  const char **azInput;    /* SQL files and directories; owned array */
  int nInput;
  const char *zQueries;    /* --queries DIR, or NULL */
  int nWarmup;             /* untimed runs of each query (1) */
  int nReps;               /* timed runs of each query, or mix rounds (5) */
  int nClients;            /* 0: single client; else the mix's connections */
  double rDuration;        /* mix: seconds to run (0: nReps rounds) */
  uint64_t iSeed;          /* mix: the shuffles' seed (1) */
  /* What to report */
  bench_format eFormat;
  const char *zSvg;        /* --svg FILE, or NULL */
  const char *zVerify;     /* --verify DIR, or NULL */
  const char *zWriteExpected;  /* --write-expected DIR, or NULL */
  int bQuiet;              /* -q: no progress on stderr */
};

/* Parses argv into *p. Returns 0; or, for --help, prints the usage and
** returns 1 with *pbExit set; or prints the reason and the usage to
** stderr and returns -1. */
int bench_args_parse(bench_args *p, int argc, char **argv, int *pbExit);
void bench_args_free(bench_args *p);

/* One SQL file to run. */
typedef struct bench_query bench_query;
struct bench_query {
  char *zName;             /* the file's name without .sql ("q2.1"); owned */
  char *zPath;             /* as found; owned */
  char *zSql;              /* its text; owned */
  int bOrdered;            /* it has an ORDER BY at the top level */
  struct bench_answer *pExpect;  /* --verify's answer, or NULL; owned */
};

/* Collects the queries the arguments name: each file as given, each
** directory's *.sql by name, or with none the --queries directory, or the
** SSB queries (ssb-data/queries beside the executable's folder, or below
** the current directory). Returns 0 with *paQ (free with
** bench_queries_free), or -1 with zErr. */
int bench_queries_load(const bench_args *p, bench_query **paQ, int *pnQ, char *zErr, size_t nErr);
void bench_queries_free(bench_query *aQ, int nQ);

/* ---- connections and server figures (server.c) ------------------------ */

/* Opens a connection as the flags and PG* variables say and runs the
** --session statements on it. Returns the connection; or NULL with zErr
** and *pbConnect set if the server could not be reached (0: a session
** statement failed). */
PGconn *bench_conn_open(const bench_args *p, int *pbConnect, char *zErr, size_t nErr);

/* What the server says the session's last SELECT cost it (SHOW
** starq.last_query). Times in seconds, sizes in bytes; a bandwidth of 0
** is unknown. */
typedef struct bench_figures bench_figures;
struct bench_figures {
  int bKnown;              /* the server answered with status "ok" */
  double rSeconds;         /* plan + compile + kernels + output */
  double rCompileSeconds;  /* of which kernel compilation */
  int bCached;             /* the kernel cache had the kernels */
  int bGeneric;            /* the generic kernels ran it (tier "generic"):
                           ** its own were still compiling */
  int64_t nRows;
  int64_t nBytesScanned;   /* every column byte read */
  int64_t nFactBytes;      /* of those, the fact table's */
  double rZeroCopyBw;      /* the PCIe floor's bandwidth, bytes/s */
  double rDeviceBw;        /* the device-memory floor's, bytes/s */
  char zBackend[16];       /* "cuda", "cpu" */
  char zDevice[128];
};

/* Fills *pF from SHOW starq.last_query on c. Returns 0 (pF->bKnown says
** whether the figures are there), 1 if the server has no such setting
** (an older starqd: *pF unknown, zErr says why), or -1 with zErr if the
** connection failed or the answer is not the JSON of the contract. */
int bench_figures_fetch(PGconn *c, bench_figures *pF, char *zErr, size_t nErr);

/* The server's error for res, one line: "SQLSTATE: message". */
void bench_result_error(const PGresult *res, PGconn *c, char *zErr, size_t nErr);

/* ---- answers (verify.c) ------------------------------------------------ */

/* A query's rows in the answer-file format (verify.c's header): one line
** per row, without its newline. */
typedef struct bench_answer bench_answer;
struct bench_answer {
  char **azRow;            /* owned, each owned */
  int64_t nRow;
};

/* Returns the rows of res in the answer format (NULL if memory ran out). */
bench_answer *bench_answer_from_result(const PGresult *res);
void bench_answer_free(bench_answer *p);

/* Reads DIR/NAME.out. Returns 0 with *pp, or -1 with zErr. */
int bench_answer_read(const char *zDir, const char *zName, bench_answer **pp, char *zErr, size_t nErr);

/* Writes p to DIR/NAME.out (DIR created if missing), sorting the rows
** first unless bOrdered. Returns 0, or -1 with zErr. */
int bench_answer_write(const char *zDir, const char *zName, bench_answer *p, int bOrdered, char *zErr,
                       size_t nErr);

/* Compares pGot with pWant: in order if bOrdered, else as sorted sets
** (pGot is sorted in place). Returns 0 if they agree, else 1 with the
** first differing row in zDiff. */
int bench_answer_compare(const bench_answer *pWant, bench_answer *pGot, int bOrdered, char *zDiff,
                         size_t nDiff);

/* Returns 1 if zSql has ORDER BY outside parentheses, strings, quoted
** names and comments: its rows come in a defined order. */
int bench_sql_ordered(const char *zSql);

/* ---- statistics (stats.c) ---------------------------------------------- */

/* A growable array of samples (seconds). */
typedef struct bench_samples bench_samples;
struct bench_samples {
  double *a;               /* owned */
  int n, nAlloc;
};

/* Appends r. Returns 0, or -1 if memory ran out. */
int bench_samples_add(bench_samples *p, double r);
/* Appends every sample of pFrom. Returns 0, or -1 if memory ran out. */
int bench_samples_merge(bench_samples *p, const bench_samples *pFrom);
void bench_samples_free(bench_samples *p);

/* Sorts the samples ascending (the functions below need it). */
void bench_samples_sort(bench_samples *p);
/* Of sorted samples: the median (mean of the middle two for an even
** count), the p-th percentile by nearest rank (0 < p <= 100), the
** smallest and the largest. Each returns NaN when there are none. */
double bench_samples_median(const bench_samples *p);
double bench_samples_percentile(const bench_samples *p, double rPct);
double bench_samples_min(const bench_samples *p);
double bench_samples_max(const bench_samples *p);

/* ---- the single-client run (run.c) ------------------------------------ */

/* What the server is, from the first figures it gave. */
typedef struct bench_server bench_server;
struct bench_server {
  int bKnown;              /* SHOW starq.last_query answered */
  char zBackend[16];
  char zDevice[128];
  double rZeroCopyBw;      /* bytes/s, 0 unknown */
  double rDeviceBw;
};

/* One query's outcome in the single-client run. */
typedef struct bench_outcome bench_outcome;
struct bench_outcome {
  int bOk;                 /* every run succeeded (and matched its answer) */
  char *zError;            /* why not; owned */
  int64_t nRows;
  bench_samples client;    /* per timed run: PQexec's wall time */
  bench_samples server;    /* per timed run with figures: the server's time */
  int64_t nFactBytes;      /* -1 unknown */
  int64_t nBytesScanned;   /* -1 unknown */
  double rCompileSeconds;  /* the first run's kernel compilation (-1 unknown) */
  int bFirstGeneric;       /* the first run had the generic kernels */
  int nTierWait;           /* extra warm-ups run until the optimized kernels
                           ** were in (RUN_TIER_WAIT_MAX at most) */
};

/* The progress line on stderr. */
typedef struct bench_progress bench_progress;
struct bench_progress {
  int bShow;               /* not -q */
  int bTty;                /* stderr is a terminal: rewrite in place */
  int bDrawn;              /* an in-place line is on screen */
};
void bench_progress_init(bench_progress *p, int bQuiet);
/* Shows the line (in place on a terminal; else only if bLine, as its own
** line). */
void bench_progress_show(bench_progress *p, int bLine, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Erases an in-place line, so what follows starts clean. */
void bench_progress_clear(bench_progress *p);

/* Runs zSql on c, timing PQexec. Returns the result (PQclear it) and its
** wall time in *prSeconds. */
PGresult *bench_exec(PGconn *c, const char *zSql, double *prSeconds);

/* Checks res for q: a result set, matching q->pExpect if there is one.
** Returns 0, or -1 with the reason in zErr. */
int bench_check(const bench_query *q, const PGresult *res, PGconn *c, char *zErr, size_t nErr);

/* Runs every query on c: warm-up, then the timed repetitions, each
** followed by its server-side figures. Fills aOut[nQ] and *pSrv. Returns
** 0 if all ran; 1 if some query failed (recorded in its outcome); 2 if
** the connection was lost and could not be made again, with zErr. */
int bench_run_all(const bench_args *pA, PGconn **pc, bench_query *aQ, int nQ, bench_outcome *aOut,
                  bench_server *pSrv, char *zErr, size_t nErr);
void bench_outcome_free(bench_outcome *p);

/* Records pF's description of the server into pSrv if it has none yet. */
void bench_server_note(bench_server *pSrv, const bench_figures *pF);

/* ---- the concurrent mix (mix.c) ---------------------------------------- */

/* One query's outcome in the mix, summed over every client. */
typedef struct bench_mix_query bench_mix_query;
struct bench_mix_query {
  bench_samples lat;       /* client latency of every successful run */
  int64_t nError;          /* runs that failed or gave a wrong answer */
  char *zError;            /* the first failure; owned */
  int64_t nFactBytes;      /* -1 unknown */
};

/* The mix's outcome: every client's samples merged per query, and what
** the figures said of the server. */
typedef struct bench_mix bench_mix;
struct bench_mix {
  int nClient;
  int nQ;
  int bRan;                /* the clients started: the report has figures */
  int nLost;               /* clients whose connection was lost midway */
  double rElapsed;         /* from the common start to the last finish */
  bench_mix_query *aQ;     /* nQ; owned */
  bench_server srv;
};

/* Runs the mix of pA->nClients connections. Returns 0 if every run
** succeeded, 1 if some failed (counted in pMix), 2 if a connection could
** not be made or was lost (zErr). pMix is filled as far as the mix got
** (bRan: it started); free it with bench_mix_free. */
int bench_mix_run(const bench_args *pA, bench_query *aQ, int nQ, bench_mix *pMix, char *zErr,
                  size_t nErr);
void bench_mix_free(bench_mix *p);

/* ---- reports (report.c, report-mix.c, svg.c) -------------------------- */

/* One query's row of the single-client report, in seconds and bytes; NaN
** where unknown. */
typedef struct bench_row bench_row;
struct bench_row {
  const char *zName;       /* borrowed */
  int bOk;
  int64_t nRows;
  double rClientMin, rClientMedian, rClientMax;
  double rServer;          /* median of the server's times */
  double rFact;            /* fact bytes */
  double rScanned;         /* every column byte */
  double rGbps;            /* fact bytes / server time, GB/s */
  double rPcieFloor, rPcieRatio;   /* seconds; server time / floor */
  double rDevFloor, rDevRatio;
};

/* Works out each query's row (aRow[nQ]) and the totals row. */
void bench_rows_compute(const bench_query *aQ, const bench_outcome *aOut, int nQ, const bench_server *pSrv,
                        bench_row *aRow, bench_row *pTotal);

/* Appends the single-client report in pA's format to pOut. */
void bench_report(const bench_args *pA, const bench_server *pSrv, const bench_query *aQ,
                  const bench_outcome *aOut, const bench_row *aRow, int nQ, const bench_row *pTotal,
                  strbuf *pOut);

/* Appends the mix's report in pA's format to pOut. */
void bench_report_mix(const bench_args *pA, const bench_query *aQ, const bench_mix *pMix, strbuf *pOut);

/* Pieces both reports use: the line describing the server and its
** floors; the JSON members every report starts with (tool, mode, server,
** session, warmup, reps); a JSON number member that is null when r is
** unknown (NaN); a CSV text field, quoted when it must be. */
void bench_report_server(const bench_server *pSrv, strbuf *pOut);
void bench_report_json_head(json_writer *w, const bench_args *pA, const bench_server *pSrv, const char *zMode);
void bench_json_num(json_writer *w, const char *zKey, double r);
void bench_csv_text(strbuf *pOut, const char *z);

/* One numeric column of a report, and how the table and CSV show it: its
** values are seconds, bytes or plain numbers, scaled to the unit shown
** (1e3: milliseconds), NaN when unknown ("–" in the table, an empty CSV
** field). A column may be in one format only. */
typedef struct bench_col bench_col;
struct bench_col {
  const char *zHead;       /* the table's header, or NULL: not in the table */
  double rScale;           /* table: value to the unit shown */
  int nDec;                /* table: decimals */
  const char *zCsv;        /* the CSV header, or NULL: not in CSV */
  double rCsvScale;
  int nCsvDec;
};

/* The size of one formatted table cell. */
#define BENCH_CELL 48

/* Puts the table headers of aCol[nCol] in az from index i; returns the
** index after them. */
int bench_cols_head(const bench_col *aCol, int nCol, const char **az, int i);
/* Formats the table cells of the values aVal[nCol] into aBuf and points
** az at them from index i; returns the index after them. */
int bench_cols_cells(const bench_col *aCol, int nCol, const double *aVal, char (*aBuf)[BENCH_CELL],
                     const char **az, int i);
/* Appends ",header" for each CSV column of aCol[nCol]. */
void bench_cols_csv_head(strbuf *pOut, const bench_col *aCol, int nCol);
/* Appends ",value" (or "," when unknown) for each CSV column. */
void bench_cols_csv(strbuf *pOut, const bench_col *aCol, int nCol, const double *aVal);

/* A table of text cells printed with aligned columns, as Markdown. */
typedef struct bench_table bench_table;
struct bench_table {
  int nCol;
  int nRow;                /* rows added, the header included */
  char **azCell;           /* nRow * nCol, row-major; owned */
  int nAlloc;              /* rows allocated */
  int bOom;
};
void bench_table_init(bench_table *t, int nCol);
/* Adds a row: the nCol strings azCell, copied. The first row added is
** the header. A failed allocation is sticky (bOom) and rendered as such. */
void bench_table_row(bench_table *t, const char *const *azCell);
/* Appends the table to pOut: the header, the rule, the rows, each
** column padded to its widest cell (numbers right-aligned). */
void bench_table_render(const bench_table *t, strbuf *pOut);
void bench_table_free(bench_table *t);

/* Formats r scaled by rScale with nDec decimals, or "–" when r is NaN. */
const char *bench_fmt(char *z, size_t n, double r, double rScale, int nDec);

/* Writes the SVG chart of the single-client run to zPath. Returns 0, or
** -1 with zErr. */
int bench_svg_write(const char *zPath, const bench_server *pSrv, const bench_row *aRow, int nQ, char *zErr,
                    size_t nErr);

#endif /* STARQ_BENCH_H */
