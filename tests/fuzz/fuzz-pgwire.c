/*
** tests/fuzz/fuzz-pgwire.c — a libFuzzer target over the PostgreSQL
** protocol core: arbitrary bytes, cut into chunks of varying sizes, fed
** to a pg_session (server/session.h) whose fake engine answers every job
** with a small result, a command, an error or a COPY, now or later.
**
** Input: byte 0 picks the set-up (bit 0: the engine holds jobs and
** answers them between chunks; bit 1: SCRAM instead of trust; bit 2: an
** output high-water mark of 64 bytes; bit 3: the bytes include the
** startup phase, else the harness logs in first), byte 1 seeds the chunk
** sizes and when output is taken, the rest is what the client sends.
** Seeds in tests/fuzz/seeds/pgwire/ are real message sequences in this
** format. Beyond the sanitizers, the harness checks that output waiting
** stays within the mark while rows stream, that a job is out exactly when
** the session says so, and that every result and statement handle the
** engine gave is freed.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/pgwire.h"
#include "../../server/scram.h"
#include "../../server/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData);

#define FUZZ_ASYNC   0x01
#define FUZZ_SCRAM   0x02
#define FUZZ_SMALL   0x04
#define FUZZ_RAW     0x08

typedef struct fuzz_state fuzz_state;
struct fuzz_state {
  pg_session *s;
  int bAsync;
  const pg_job *pHeld;     /* the job out, when bAsync */
  int nLive;               /* results and statement handles not yet freed */
  uint64_t iRand;
};

static fuzz_state *fuzz_p;

static unsigned fuzz_rand(fuzz_state *f) {
  f->iRand = f->iRand * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(f->iRand >> 33);
}

/* ---- the fake engine's results --------------------------------------------- */

typedef struct fuzz_result fuzz_result;
struct fuzz_result {
  int64_t nRow;
  int bBad;                /* row 2 cannot be produced */
  char *zEcho;             /* the first parameter, or NULL */
};

static const pgwire_column fuzz_aCol[] = {
    {"i", 0, 0, PGWIRE_OID_INT4, 4, -1},   {"t", 0, 0, PGWIRE_OID_TEXT, -1, -1},
    {"b", 0, 0, PGWIRE_OID_BOOL, 1, -1},   {"d", 0, 0, PGWIRE_OID_DATE, 4, -1},
    {"f", 0, 0, PGWIRE_OID_FLOAT8, 8, -1}, {"n", 0, 0, PGWIRE_OID_NUMERIC, -1, -1},
};
#define FUZZ_NCOL ((int)(sizeof(fuzz_aCol) / sizeof(fuzz_aCol[0])))

static int64_t fuzz_row_count(void *p) { return ((fuzz_result *)p)->nRow; }

static int fuzz_value(void *p, int64_t iRow, int iCol, strbuf *pOut) {
  fuzz_result *r = p;
  if (iRow < 0 || iRow >= r->nRow || iCol < 0 || iCol >= FUZZ_NCOL) abort();
  if (r->bBad && iRow == 1) return -1;
  switch (iCol) {
    case 0: strbuf_printf(pOut, "%d", (int)iRow - 1); return 0;
    case 1:
      if (r->zEcho == NULL) return 1;
      strbuf_puts(pOut, r->zEcho);
      return 0;
    case 2: strbuf_puts(pOut, iRow % 2 ? "t" : "f"); return 0;
    case 3: strbuf_printf(pOut, "20%02d-0%d-1%d", (int)iRow, 1 + (int)iRow % 9, (int)iRow % 9); return 0;
    case 4: strbuf_printf(pOut, "%g", (double)iRow / 3); return 0;
    default: strbuf_puts(pOut, "1.50"); return 0;
  }
}

static void fuzz_result_free(void *p) {
  fuzz_result *r = p;
  free(r->zEcho);
  free(r);
  fuzz_p->nLive--;
}

static const pg_result_ops fuzz_ops = {fuzz_row_count, fuzz_value, fuzz_result_free, NULL};

/* ---- the fake engine ------------------------------------------------------------ */

/* The statement's first byte decides: e error, c command, b BEGIN,
** r ROLLBACK, y COPY, n notices, x a result that fails, else rows. */
static void fuzz_execute(fuzz_state *f, const pg_job *j, pg_outcome *o) {
  static const pgwire_error aNotice[] = {{"WARNING", "01000", "w", "d", "h", 0}};
  static const char *const azChange[] = {"TimeZone", "UTC"};
  size_t n = strlen(j->zSql);
  switch (j->zSql[0]) {
    case 'e':
      o->eKind = PG_OUTCOME_ERROR;
      o->error.zState = "42601";
      o->error.zMsg = "fuzz error";
      o->error.iPosition = (int)n;
      return;
    case 'c': o->eKind = PG_OUTCOME_COMMAND; o->zTag = "OK"; return;
    case 'b': o->eKind = PG_OUTCOME_COMMAND; o->zTag = "BEGIN"; return;
    case 'r': o->eKind = PG_OUTCOME_COMMAND; o->zTag = "ROLLBACK"; return;
    case 'y': o->eKind = PG_OUTCOME_COPY_IN; o->nCopyCol = (int)(n % 4); return;
    case 'n':
      o->eKind = PG_OUTCOME_COMMAND;
      o->zTag = "DO";
      o->nNotice = 1;
      o->aNotice = aNotice;
      o->nParamChange = 1;
      o->azParamChange = azChange;
      o->cTxn = "ITE"[n % 3];
      return;
    default: {
      fuzz_result *r = calloc(1, sizeof(*r));
      if (r == NULL) abort();
      r->nRow = (int64_t)(n % 7);
      r->bBad = j->zSql[0] == 'x';
      if (j->nParam > 0 && j->aParam[0].z != NULL) {
        if (strlen(j->aParam[0].z) != j->aParam[0].n) abort();
        r->zEcho = strdup(j->aParam[0].z);
      }
      f->nLive++;
      o->eKind = PG_OUTCOME_ROWS;
      o->nCol = FUZZ_NCOL - (int)(n % 2);
      o->aCol = fuzz_aCol;
      o->pOps = &fuzz_ops;
      o->pRes = r;
      o->zTag = "SELECT";
      o->bTagCount = 1;
    }
  }
}

static void fuzz_answer(fuzz_state *f, const pg_job *j) {
  pg_outcome o;
  uint32_t aType[8];
  memset(&o, 0, sizeof(o));
  switch (j->eKind) {
    case PG_JOB_PREPARE:
      if (j->zSql[0] == 'e') {
        o.eKind = PG_OUTCOME_ERROR;
        o.error.zState = "42P01";
        o.error.zMsg = "no such table";
        o.error.iPosition = 1;
        break;
      }
      o.eKind = PG_OUTCOME_PREPARED;
      o.nParamType = (int)(strlen(j->zSql) % 3);
      for (int i = 0; i < o.nParamType; i++) {
        aType[i] = i < j->nParamType ? j->aParamType[i] : PGWIRE_OID_INT4;
      }
      o.aParamType = aType;
      o.nCol = strchr("cbrny", j->zSql[0]) != NULL ? 0 : FUZZ_NCOL;
      o.aCol = fuzz_aCol;
      o.pStmt = malloc(1);
      f->nLive++;
      break;
    case PG_JOB_EXECUTE:
      fuzz_execute(f, j, &o);
      break;
    case PG_JOB_COPY_DATA:
      if (j->nData == 0 || memchr(j->pData, 'E', j->nData) != NULL) {
        o.eKind = PG_OUTCOME_ERROR;
        o.error.zState = "22P02";
        o.error.zMsg = "bad copy data";
      } else {
        o.eKind = PG_OUTCOME_COMMAND;
      }
      break;
    default:
      o.eKind = PG_OUTCOME_COMMAND;
      o.zTag = "COPY 1";
      break;
  }
  pg_session_job_done(f->s, &o);
}

static void fuzz_job_start(void *pCtx, pg_session *s, const pg_job *j) {
  fuzz_state *f = pCtx;
  if (s != f->s || f->pHeld != NULL) abort();        /* one job at a time */
  if ((pg_session_flags(s) & PG_SESSION_JOB) == 0) abort();
  if (f->bAsync) {
    f->pHeld = j;
    return;
  }
  fuzz_answer(f, j);
}

static void fuzz_stmt_free(void *pCtx, void *pStmt) {
  fuzz_state *f = pCtx;
  free(pStmt);
  f->nLive--;
}

static int fuzz_verifier(void *pCtx, const char *zUser, char *zOut, size_t nOut) {
  (void)pCtx;
  if (zUser[0] != 'u') return -1;
  /* A fixed salt and one iteration: fast, and the same every run. */
  return scram_verifier_make("p", (const unsigned char *)"saltsalt", 8, 1, zOut, nOut);
}

/* ---- driving the session -------------------------------------------------------- */

/* Takes output as a client would, sometimes only part of it. With
** bAll, until there is none. */
static void fuzz_drain(fuzz_state *f, size_t nHigh, int bAll) {
  for (int i = 0; i < 1000000; i++) {
    size_t n;
    unsigned flags = pg_session_flags(f->s);
    if ((f->pHeld != NULL) != ((flags & PG_SESSION_JOB) != 0)) abort();
    if (pg_session_output(f->s, &n) == NULL) return;
    /* Rows stop at the mark; the messages of one step may pass it, and a
    ** single row larger than it (a long parameter echoed) goes alone. */
    if (n > nHigh + 2 * 8192 + 4096) abort();
    if (!bAll && fuzz_rand(f) % 4 == 0) return;
    pg_session_output_done(f->s, bAll || fuzz_rand(f) % 2 ? n : n / 2);
  }
  abort();                                          /* output without end */
}

/* Answers every job and takes all output, as a patient client would:
** output taken lets waiting input through, which may start another job. */
static void fuzz_settle(fuzz_state *f, size_t nHigh) {
  for (int i = 0; i < 100000; i++) {
    const pg_job *j;
    fuzz_drain(f, nHigh, 1);
    if (f->pHeld == NULL) return;
    j = f->pHeld;
    f->pHeld = NULL;
    fuzz_answer(f, j);
  }
  abort();                                          /* jobs without end */
}

/* Sends a StartupMessage for user "u". */
static void fuzz_login(fuzz_state *f) {
  static const char aStartup[] = "\0\0\0\x10\0\3\0\0user\0u\0\0";
  pg_session_feed(f->s, aStartup, sizeof(aStartup) - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  pg_session_config cfg;
  pg_engine engine;
  fuzz_state f;
  unsigned mFlags;
  size_t i = 2;

  if (nData < 2) return 0;
  mFlags = aData[0];
  memset(&f, 0, sizeof(f));
  f.bAsync = (mFlags & FUZZ_ASYNC) != 0;
  f.iRand = aData[1];
  fuzz_p = &f;
  pg_session_config_default(&cfg);
  cfg.bLoopback = 1;
  cfg.eAuth = (mFlags & FUZZ_SCRAM) ? PG_AUTH_SCRAM : PG_AUTH_TRUST;
  cfg.xVerifier = fuzz_verifier;
  cfg.nMaxMessage = 8192;
  cfg.nInputHigh = 512;
  cfg.nCopyChunk = 64;
  cfg.nMaxStatements = 8;
  cfg.nMaxPortals = 8;
  if (mFlags & FUZZ_SMALL) cfg.nOutputHigh = 64;
  engine.pCtx = &f;
  engine.xJobStart = fuzz_job_start;
  engine.xStmtFree = fuzz_stmt_free;
  f.s = pg_session_new(&cfg, &engine);
  if (f.s == NULL) return 0;
  if (!(mFlags & FUZZ_RAW)) fuzz_login(&f);

  while (i < nData && !(pg_session_flags(f.s) & PG_SESSION_CLOSE)) {
    size_t n = 1 + fuzz_rand(&f) % 48;
    if (n > nData - i) n = nData - i;
    pg_session_feed(f.s, aData + i, n);
    i += n;
    if (f.pHeld != NULL && fuzz_rand(&f) % 3 != 0) {
      const pg_job *j = f.pHeld;
      f.pHeld = NULL;
      fuzz_answer(&f, j);
    }
    fuzz_drain(&f, cfg.nOutputHigh, 0);
  }
  fuzz_settle(&f, cfg.nOutputHigh);
  if (f.pHeld != NULL || (pg_session_flags(f.s) & PG_SESSION_JOB)) abort();
  pg_session_free(f.s);
  if (f.nLive != 0) abort();                        /* a result or handle leaked */
  return 0;
}
