/*
** server/stmt-session.c — the statements that act on the session itself
** rather than on data: SET TRANSACTION and SET SESSION CHARACTERISTICS AS
** TRANSACTION (the isolation starq gives), DEALLOCATE [ALL] and DISCARD.
** What only the session holds (its prepared statements and portals) the
** outcome asks it to drop (pg_outcome.eRelease); settings change on the
** job as SET's do.
**
** Isolation. Each statement reads the catalog and the table generations
** committed when it starts, and a transaction block does not hold one
** snapshot across its statements: READ COMMITTED. READ UNCOMMITTED is
** READ COMMITTED in PostgreSQL too. REPEATABLE READ, SERIALIZABLE and
** READ ONLY would promise what starq does not enforce, so they are
** refused (0A000) rather than accepted and ignored.
**
** INTERFACE ROUTINES
**   stmt_session_command
*/
#include <string.h>

#include "stmt.h"

static void stmt_session_tag(stmt_job *j, const char *zTag) {
  j->out.eKind = PG_OUTCOME_COMMAND;
  snprintf(j->zTag, sizeof(j->zTag), "%s", zTag);
  j->out.zTag = j->zTag;
}

/* SET [SESSION CHARACTERISTICS AS] TRANSACTION modes. */
static void stmt_set_transaction(stmt_job *j, const sql_stmt *pStmt) {
  const sql_txn_modes *m = &pStmt->txn;
  if (m->eIsolation == SQL_ISOLATION_REPEATABLE_READ ||
      m->eIsolation == SQL_ISOLATION_SERIALIZABLE) {
    stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pStmt->iOffset,
                   "starq provides the READ COMMITTED isolation level only");
    return;
  }
  if (m->eReadOnly == 1) {
    stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pStmt->iOffset,
                   "starq does not provide read-only transactions");
    return;
  }
  if (!pStmt->bSession && j->cTxn != 'T') {
    /* PostgreSQL warns and does nothing outside a block */
    static const pgwire_error aWarn[] = {{"WARNING", "25P01",
                                          "SET TRANSACTION can only be used in transaction blocks",
                                          NULL, NULL, 0}};
    j->out.nNotice = 1;
    j->out.aNotice = aWarn;
  }
  stmt_session_tag(j, "SET");
}

static void stmt_deallocate(stmt_job *j, const sql_stmt *pStmt) {
  stmt_session_tag(j, pStmt->zName != NULL ? "DEALLOCATE" : "DEALLOCATE ALL");
  j->out.eRelease = pStmt->zName != NULL ? PG_RELEASE_STMT : PG_RELEASE_STMTS;
  if (pStmt->zName != NULL) {
    /* the session reads the name after the job is back: keep a copy */
    snprintf(j->zRelease, sizeof(j->zRelease), "%s", pStmt->zName);
    j->out.zRelease = j->zRelease;
  }
}

/* DISCARD ALL resets the settings and drops the prepared statements and
** portals; starq keeps no temporary tables or sequences, and its plan
** caches never change an answer, so DISCARD PLANS, SEQUENCES and TEMP
** have nothing to do. */
static void stmt_discard(stmt_job *j, const sql_stmt *pStmt) {
  if (strcmp(pStmt->zName, "all") == 0) {
    if (j->cTxn == 'T') {
      stmt_job_error(j, "25001", -1, "DISCARD ALL cannot run inside a transaction block");
      return;
    }
    stmt_reset(j, "all", "DISCARD ALL", pStmt->iOffset);
    j->out.eRelease = PG_RELEASE_SESSION;
    return;
  }
  if (strcmp(pStmt->zName, "plans") == 0) stmt_session_tag(j, "DISCARD PLANS");
  else if (strcmp(pStmt->zName, "sequences") == 0) stmt_session_tag(j, "DISCARD SEQUENCES");
  else stmt_session_tag(j, "DISCARD TEMP");
}

void stmt_session_command(stmt_job *j, const sql_stmt *pStmt) {
  switch (pStmt->eKind) {
    case SQL_STMT_SET_TRANSACTION: stmt_set_transaction(j, pStmt); break;
    case SQL_STMT_DEALLOCATE: stmt_deallocate(j, pStmt); break;
    case SQL_STMT_DISCARD: stmt_discard(j, pStmt); break;
    default:
      stmt_job_error(j, SQLSTATE_INTERNAL_ERROR, pStmt->iOffset, "not a session command");
      break;
  }
}
