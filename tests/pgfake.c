/*
** tests/pgfake.c — a pg_session on a fake engine (pgclient.h): the script
** language of its statements, its results, and the harness that feeds a
** session and takes its output the way the daemon will.
*/
#include "../server/pgwire.h"
#include "pgclient.h"
#include "test.h"

/* ---- results ---------------------------------------------------------------- */

typedef enum fake_kind {
  FAKE_SELECT = 1,         /* one int4 value */
  FAKE_ROWS,               /* n rows of the seven columns below */
  FAKE_ECHO,               /* the parameters */
  FAKE_BADVALUE,           /* the second row fails */
  FAKE_BADBIN,             /* "abc" as an int4 */
} fake_kind;

typedef struct fake_result fake_result;
struct fake_result {
  pgc *pc;
  fake_kind eKind;
  int64_t nRow;
  long long iValue;        /* FAKE_SELECT */
  int nCol;                /* FAKE_ECHO */
  char **azValue;          /* FAKE_ECHO: the parameters' texts, NULL for NULL */
};

static const pgwire_column fake_aRowsCol[] = {
    {"i", 0, 0, PGWIRE_OID_INT4, 4, -1},   {"t", 0, 0, PGWIRE_OID_TEXT, -1, -1},
    {"f", 0, 0, PGWIRE_OID_FLOAT8, 8, -1}, {"b", 0, 0, PGWIRE_OID_BOOL, 1, -1},
    {"d", 0, 0, PGWIRE_OID_DATE, 4, -1},   {"g", 0, 0, PGWIRE_OID_INT8, 8, -1},
    {"h", 0, 0, PGWIRE_OID_INT2, 2, -1},
};
static const pgwire_column fake_aIntCol[] = {{"?column?", 0, 0, PGWIRE_OID_INT4, 4, -1}};

static int64_t fake_row_count(void *p) { return ((fake_result *)p)->nRow; }

static int fake_rows_value(int64_t iRow, int iCol, strbuf *pOut) {
  long long i = iRow + 1;
  switch (iCol) {
    case 0: strbuf_printf(pOut, "%lld", i); return 0;
    case 1: strbuf_printf(pOut, "row%lld", i); return 0;
    case 2: strbuf_printf(pOut, "%g", (double)i * 0.5); return 0;
    case 3: strbuf_puts(pOut, i % 2 == 0 ? "t" : "f"); return 0;
    case 4:
      strbuf_printf(pOut, "%04lld-%02lld-%02lld", 2000 + i / 336, 1 + (i / 28) % 12, 1 + i % 28);
      return 0;
    case 5: strbuf_printf(pOut, "%lld", i * 10000000000LL); return 0;
    default:
      if (i % 3 == 0) return 1;
      strbuf_printf(pOut, "%lld", i);
      return 0;
  }
}

static int fake_value(void *p, int64_t iRow, int iCol, strbuf *pOut) {
  fake_result *r = p;
  ASSERT(iRow >= 0 && iRow < r->nRow);
  switch (r->eKind) {
    case FAKE_SELECT: strbuf_printf(pOut, "%lld", r->iValue); return 0;
    case FAKE_ROWS: return fake_rows_value(iRow, iCol, pOut);
    case FAKE_ECHO:
      ASSERT(iCol >= 0 && iCol < r->nCol);
      if (r->azValue[iCol] == NULL) return 1;
      strbuf_puts(pOut, r->azValue[iCol]);
      return 0;
    case FAKE_BADVALUE:
      if (iRow == 1) return -1;
      strbuf_puts(pOut, "1");
      return 0;
    default:
      strbuf_puts(pOut, "abc");
      return 0;
  }
}

static void fake_result_free(void *p) {
  fake_result *r = p;
  for (int i = 0; i < r->nCol; i++) free(r->azValue[i]);
  free(r->azValue);
  r->pc->nResultLive--;
  free(r);
}

static const pg_result_ops fake_ops = {fake_row_count, fake_value, fake_result_free, NULL};

static fake_result *fake_result_new(pgc *pc, fake_kind eKind, int64_t nRow) {
  fake_result *r = calloc(1, sizeof(*r));
  ASSERT(r != NULL);
  r->pc = pc;
  r->eKind = eKind;
  r->nRow = nRow;
  pc->nResultLive++;
  return r;
}

/* ---- statements ------------------------------------------------------------- */

static int fake_is(const char *zSql, const char *zWord) {
  size_t n = strlen(zWord);
  return strncmp(zSql, zWord, n) == 0 && (zSql[n] == 0 || zSql[n] == ' ');
}

/* The highest $n in zSql: the parameters an ECHO statement declares. */
static int fake_param_count(const char *zSql) {
  int nMax = 0;
  for (const char *z = strchr(zSql, '$'); z != NULL; z = strchr(z + 1, '$')) {
    int n = atoi(z + 1);
    if (n > nMax) nMax = n;
  }
  return nMax;
}

/* Fills the columns an ECHO returns: one per parameter, of its type. */
static int fake_echo_columns(int nParam, const uint32_t *aType, pgwire_column *aCol,
                             char azName[][8]) {
  for (int i = 0; i < nParam && i < 16; i++) {
    snprintf(azName[i], 8, "$%d", i + 1);
    aCol[i].zName = azName[i];
    aCol[i].iTableOid = 0;
    aCol[i].iAttr = 0;
    aCol[i].iTypeOid = aType[i] != 0 ? aType[i] : PGWIRE_OID_TEXT;
    aCol[i].nTypeLen = -1;
    aCol[i].iTypmod = -1;
  }
  return nParam < 16 ? nParam : 16;
}

static void fake_error(pg_outcome *o, const char *zSql) {
  o->eKind = PG_OUTCOME_ERROR;
  o->error.zState = "42601";
  o->error.zMsg = "fake error";
  o->error.zDetail = "fake detail";
  o->error.zHint = "fake hint";
  o->error.iPosition = atoi(zSql + 5);
}

/* In transaction status E PostgreSQL refuses everything but COMMIT and
** ROLLBACK. Returns 1 if it refused j. */
static int fake_refused(const pg_job *j, pg_outcome *o) {
  if (j->cTxn != 'E' || fake_is(j->zSql, "COMMIT") || fake_is(j->zSql, "ROLLBACK")) return 0;
  o->eKind = PG_OUTCOME_ERROR;
  o->error.zState = "25P02";
  o->error.zMsg = "current transaction is aborted, commands ignored until end of transaction block";
  return 1;
}

/* A statement without rows: its tag (COMMIT of a failed block rolls back). */
static void fake_command(pg_outcome *o, const pg_job *j) {
  static const char *const azTag[] = {"BEGIN", "START TRANSACTION", "COMMIT", "ROLLBACK", "SET"};
  o->eKind = PG_OUTCOME_COMMAND;
  o->zTag = "OK";
  for (size_t i = 0; i < sizeof(azTag) / sizeof(azTag[0]); i++) {
    if (fake_is(j->zSql, azTag[i])) o->zTag = azTag[i];
  }
  if (j->cTxn == 'E' && strcmp(o->zTag, "COMMIT") == 0) o->zTag = "ROLLBACK";
}

static void fake_prepare(pgc *pc, const pg_job *j) {
  pg_outcome o;
  uint32_t aType[16];
  pgwire_column aCol[16];
  char azName[16][8];
  int nParam = fake_param_count(j->zSql);
  memset(&o, 0, sizeof(o));
  if (nParam > 16) nParam = 16;
  for (int i = 0; i < nParam; i++) {
    aType[i] = i < j->nParamType && j->aParamType[i] != 0 ? j->aParamType[i] : PGWIRE_OID_TEXT;
  }
  if (fake_is(j->zSql, "ERROR")) {
    fake_error(&o, j->zSql);
  } else if (!fake_refused(j, &o)) {
    o.eKind = PG_OUTCOME_PREPARED;
    o.nParamType = nParam;
    o.aParamType = aType;
    if (fake_is(j->zSql, "SELECT") || fake_is(j->zSql, "BADBIN") || fake_is(j->zSql, "BADVALUE")) {
      o.nCol = 1;
      o.aCol = fake_aIntCol;
    } else if (fake_is(j->zSql, "ROWS")) {
      o.nCol = 7;
      o.aCol = fake_aRowsCol;
    } else if (fake_is(j->zSql, "ECHO")) {
      o.nCol = fake_echo_columns(nParam, aType, aCol, azName);
      o.aCol = aCol;
    }
    o.pStmt = malloc(1);
    ASSERT(o.pStmt != NULL);
    pc->nStmtLive++;
  }
  pg_session_job_done(pc->s, &o);
}

static void fake_execute(pgc *pc, const pg_job *j) {
  pg_outcome o;
  pgwire_column aCol[16];
  char azName[16][8];
  uint32_t aType[16];
  const char *zSql = j->zSql;
  fake_result *r = NULL;
  memset(&o, 0, sizeof(o));
  if (fake_refused(j, &o)) {
  } else if (fake_is(zSql, "SELECT")) {
    r = fake_result_new(pc, FAKE_SELECT, 1);
    r->iValue = atoll(zSql + 6);
  } else if (fake_is(zSql, "BADVALUE")) {
    r = fake_result_new(pc, FAKE_BADVALUE, 2);
  } else if (fake_is(zSql, "BADBIN")) {
    r = fake_result_new(pc, FAKE_BADBIN, 1);
  } else if (fake_is(zSql, "ROWS")) {
    r = fake_result_new(pc, FAKE_ROWS, atoll(zSql + 4));
    o.nCol = 7;
    o.aCol = fake_aRowsCol;
  } else if (fake_is(zSql, "ECHO")) {
    r = fake_result_new(pc, FAKE_ECHO, 1);
    for (int i = 0; i < j->nParam && i < 16; i++) aType[i] = j->aParam[i].iType;
    r->nCol = fake_echo_columns(j->nParam, aType, aCol, azName);
    r->azValue = calloc((size_t)r->nCol + 1, sizeof(char *));
    ASSERT(r->azValue != NULL);
    for (int i = 0; i < r->nCol; i++) {
      if (j->aParam[i].z != NULL) r->azValue[i] = strdup(j->aParam[i].z);
    }
    o.nCol = r->nCol;
    o.aCol = aCol;
  } else if (fake_is(zSql, "ERROR") || fake_is(zSql, "LATEERROR")) {
    fake_error(&o, zSql);
  } else if (fake_is(zSql, "COPY")) {
    o.eKind = PG_OUTCOME_COPY_IN;
    o.nCopyCol = 2;
  } else if (fake_is(zSql, "NOTICE")) {
    static const pgwire_error aNotice[] = {{NULL, "00000", "fake notice", NULL, NULL, 0}};
    static const char *const azChange[] = {"application_name", "fake"};
    o.eKind = PG_OUTCOME_COMMAND;
    o.zTag = "DO";
    o.nNotice = 1;
    o.aNotice = aNotice;
    o.nParamChange = 1;
    o.azParamChange = azChange;
  } else if (fake_is(zSql, "TXN")) {
    o.eKind = PG_OUTCOME_COMMAND;
    o.zTag = "TXN";
    o.cTxn = zSql[4];
  } else {
    fake_command(&o, j);
  }
  if (r != NULL && r->eKind != FAKE_ROWS && r->eKind != FAKE_ECHO) {
    o.nCol = 1;
    o.aCol = fake_aIntCol;
  }
  if (r != NULL) {
    o.eKind = PG_OUTCOME_ROWS;
    o.zTag = "SELECT";
    o.bTagCount = 1;
    o.pOps = &fake_ops;
    o.pRes = r;
  }
  pg_session_job_done(pc->s, &o);
}

static void fake_copy(pgc *pc, const pg_job *j) {
  pg_outcome o;
  char zTag[32];
  memset(&o, 0, sizeof(o));
  o.eKind = PG_OUTCOME_COMMAND;
  if (j->eKind == PG_JOB_COPY_DATA) {
    strbuf_append(&pc->copy, j->pData, j->nData);
    if (strstr(strbuf_str(&pc->copy), "bad") != NULL) {
      o.eKind = PG_OUTCOME_ERROR;
      o.error.zState = "22P02";
      o.error.zMsg = "invalid input syntax";
      strbuf_reset(&pc->copy);
    }
  } else if (j->eKind == PG_JOB_COPY_DONE) {
    int nLine = 0;
    for (size_t i = 0; i < pc->copy.n; i++) nLine += pc->copy.z[i] == '\n';
    snprintf(zTag, sizeof(zTag), "COPY %d", nLine);
    o.zTag = zTag;
    strbuf_reset(&pc->copy);
  } else {
    strbuf_reset(&pc->copy);
  }
  pg_session_job_done(pc->s, &o);
}

/* ---- the engine --------------------------------------------------------------- */

static void fake_log(pgc *pc, const pg_job *j) {
  strbuf *s = &pc->log;
  if (s->n > 0) strbuf_puts(s, " ");
  switch (j->eKind) {
    case PG_JOB_PREPARE: strbuf_printf(s, "P(%s)", j->zSql); break;
    case PG_JOB_EXECUTE:
      strbuf_printf(s, "X(%s", j->zSql);
      for (int i = 0; i < j->nParam; i++) {
        strbuf_printf(s, "%s%s", i ? "," : "|", j->aParam[i].z != NULL ? j->aParam[i].z : "NULL");
      }
      strbuf_puts(s, ")");
      break;
    case PG_JOB_COPY_DATA: strbuf_printf(s, "CD(%zu)", j->nData); break;
    case PG_JOB_COPY_DONE: strbuf_puts(s, "CE"); break;
    case PG_JOB_COPY_FAIL: strbuf_printf(s, "CF(%s)", j->zCopyFail); break;
    case PG_JOB_DESCRIBE_CURSOR: strbuf_printf(s, "DC(%s)", j->zPortal); break;
  }
}

/* A Describe of a portal the session lacks: the fake has no cursors. */
static void fake_describe_cursor(pgc *pc, const pg_job *j) {
  pg_outcome o;
  char zMsg[128];
  memset(&o, 0, sizeof(o));
  snprintf(zMsg, sizeof(zMsg), "portal \"%s\" does not exist", j->zPortal);
  o.eKind = PG_OUTCOME_ERROR;
  o.error.zState = "34000";
  o.error.zMsg = zMsg;
  pg_session_job_done(pc->s, &o);
}

static void fake_answer(pgc *pc, const pg_job *j) {
  switch (j->eKind) {
    case PG_JOB_PREPARE: fake_prepare(pc, j); break;
    case PG_JOB_EXECUTE: fake_execute(pc, j); break;
    case PG_JOB_DESCRIBE_CURSOR: fake_describe_cursor(pc, j); break;
    default: fake_copy(pc, j); break;
  }
}

static void fake_job_start(void *pCtx, pg_session *s, const pg_job *j) {
  pgc *pc = pCtx;
  ASSERT(s == pc->s);
  ASSERT(pc->pHeld == NULL);
  fake_log(pc, j);
  if (pc->bAsync) {
    pc->pHeld = j;
    return;
  }
  fake_answer(pc, j);
}

static void fake_stmt_free(void *pCtx, void *pStmt) {
  pgc *pc = pCtx;
  free(pStmt);
  pc->nStmtLive--;
}

/* ---- the harness ---------------------------------------------------------------- */

void pgc_open(pgc *c, const pg_session_config *pCfg) {
  pg_engine e = {c, fake_job_start, fake_stmt_free};
  memset(c, 0, sizeof(*c));
  strbuf_init(&c->msg);
  strbuf_init(&c->got);
  strbuf_init(&c->log);
  strbuf_init(&c->copy);
  if (pCfg != NULL) {
    c->cfg = *pCfg;
  } else {
    pg_session_config_default(&c->cfg);
    c->cfg.bLoopback = 1;
  }
  c->s = pg_session_new(&c->cfg, &e);
  ASSERT(c->s != NULL);
}

void pgc_close_all(pgc *c) {
  while (pgc_finish(c) == 0) {
  }
  ASSERT((pg_session_flags(c->s) & PG_SESSION_JOB) == 0);
  pg_session_free(c->s);
  ASSERT_EQ(c->nStmtLive, 0);
  ASSERT_EQ(c->nResultLive, 0);
  strbuf_free(&c->msg);
  strbuf_free(&c->got);
  strbuf_free(&c->log);
  strbuf_free(&c->copy);
}

void pgc_drain(pgc *c) {
  for (;;) {
    size_t n;
    const void *p = pg_session_output(c->s, &n);
    if (p == NULL) break;
    ASSERT(n > 0);
    strbuf_append(&c->got, p, n);
    pg_session_output_done(c->s, n);
  }
}

void pgc_send(pgc *c) {
  ASSERT(!strbuf_error(&c->msg));
  for (size_t i = 0; i < c->msg.n;) {
    size_t n = c->nChunk > 0 && c->nChunk < c->msg.n - i ? c->nChunk : c->msg.n - i;
    pg_session_feed(c->s, c->msg.z + i, n);
    if (!c->bHold) pgc_drain(c);
    i += n;
  }
  strbuf_reset(&c->msg);
}

const char *pgc_read(pgc *c) {
  pgc_summarize(c, (const unsigned char *)c->got.z, c->got.n);
  strbuf_reset(&c->got);
  return c->zSummary;
}

const char *pgc_roundtrip(pgc *c) {
  pgc_send(c);
  return pgc_read(c);
}

int pgc_finish(pgc *c) {
  const pg_job *j = c->pHeld;
  if (j == NULL) return -1;
  c->pHeld = NULL;
  fake_answer(c, j);
  if (!c->bHold) pgc_drain(c);
  return 0;
}

void pgc_login(pgc *c, const char *zUser) {
  const char *azKV[] = {"user", zUser, "database", "starq", NULL};
  const char *zGot;
  size_t n;
  pgc_startup(&c->msg, PGWIRE_PROTOCOL_3_0, azKV);
  zGot = pgc_roundtrip(c);
  n = strlen(zGot);
  if (strncmp(zGot, "R(0) ", 5) != 0 || n < 5 || strcmp(zGot + n - 5, " Z(I)") != 0) {
    FAIL("login answered: %s", zGot);
  }
}
