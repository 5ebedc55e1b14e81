/*
** server/session-startup.c — a connection's first messages: SSLRequest
** ('S' when the daemon has TLS set up, which it then starts: conn-tls.c;
** else 'N') and GSSENCRequest ('N'), CancelRequest
** (handed to the daemon), the StartupMessage and its parameters, protocol
** version negotiation, authentication (trust, or SCRAM-SHA-256 through
** scram.h), and the burst that lets the client in: AuthenticationOk, the
** ParameterStatus set that psql, libpq and pgJDBC read, BackendKeyData and
** the first ReadyForQuery.
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sessionInt.h"

#define SESSION_SASL_MECHANISM "SCRAM-SHA-256"
#define SESSION_SASL_MECHANISM_PLUS "SCRAM-SHA-256-PLUS"

/* ---- letting the client in ------------------------------------------------ */

/* Sends the login burst, once the daemon agrees. */
static void session_login(pg_session *s) {
  strbuf *out = SESSION_OUT(s);
  const char *zApp = pg_session_param(s, "application_name");
  pgwire_error e;

  memset(&e, 0, sizeof(e));
  if (s->cfg.xAccept != NULL && s->cfg.xAccept(s->cfg.pCtx, s, &e) != 0) {
    session__fatal(s, e.zState != NULL ? e.zState : "53300", e.zDetail, "%s",
                   e.zMsg != NULL ? e.zMsg : "connection refused");
    return;
  }
  pgwire_put_auth(out, PGWIRE_AUTH_OK, NULL, 0);
  pgwire_put_parameter_status(out, "application_name", zApp != NULL ? zApp : "");
  pgwire_put_parameter_status(out, "client_encoding", s->zClientEncoding);
  pgwire_put_parameter_status(out, "DateStyle", "ISO, MDY");
  pgwire_put_parameter_status(out, "default_transaction_read_only", "off");
  pgwire_put_parameter_status(out, "in_hot_standby", "off");
  pgwire_put_parameter_status(out, "integer_datetimes", "on");
  pgwire_put_parameter_status(out, "IntervalStyle", "postgres");
  pgwire_put_parameter_status(out, "is_superuser", s->cfg.bSuperuser ? "on" : "off");
  pgwire_put_parameter_status(out, "server_encoding", "UTF8");
  pgwire_put_parameter_status(out, "server_version", s->cfg.zServerVersion);
  pgwire_put_parameter_status(out, "session_authorization", s->zUser);
  pgwire_put_parameter_status(out, "standard_conforming_strings", "on");
  pgwire_put_parameter_status(out, "TimeZone", "UTC");
  pgwire_put_backend_key(out, s->cfg.iPid, s->cfg.iSecret);
  s->ePhase = SESSION_READY;
  session__ready(s);
}

/* ---- SCRAM-SHA-256 ----------------------------------------------------------- */

static int session_needs_password(const pg_session *s) {
  return s->cfg.eAuth == PG_AUTH_SCRAM ||
         (s->cfg.eAuth == PG_AUTH_TRUST_LOOPBACK && !s->cfg.bLoopback);
}

/* Starts SCRAM: the user's verifier (or a mock one) and AuthenticationSASL. */
static void session_sasl_begin(pg_session *s) {
  /* With TLS, -PLUS first, as PostgreSQL offers them. */
  static const char *const azMech[] = {SESSION_SASL_MECHANISM_PLUS, SESSION_SASL_MECHANISM};
  char zVerifier[SCRAM_VERIFIER_MAX] = "";
  scram_verifier v;
  int bFound = 0;
  if (s->cfg.xVerifier != NULL &&
      s->cfg.xVerifier(s->cfg.pCtx, s->zUser, zVerifier, sizeof(zVerifier)) == 0) {
    zVerifier[sizeof(zVerifier) - 1] = 0;
    bFound = scram_verifier_parse(zVerifier, &v) == 0;
  }
  scram_server_init(&s->scram, bFound ? &v : NULL, s->zUser);
  s->bScram = 1;
  if (s->nCbind > 0) {
    pgwire_put_auth_sasl(SESSION_OUT(s), azMech, 2);
  } else {
    pgwire_put_auth_sasl(SESSION_OUT(s), azMech + 1, 1);
  }
  s->ePhase = SESSION_AUTH_SASL;
}

/* SASLInitialResponse: the mechanism and client-first-message. */
static void session_sasl_initial(pg_session *s, const pgwire_frame *f) {
  const char *zMech;
  const unsigned char *aData;
  int32_t nData;
  char zErr[160];
  int rc;
  strbuf reply;

  rc = pgwire_sasl_initial_decode(f->aBody, f->nBody, &zMech, &aData, &nData, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  if (strcmp(zMech, SESSION_SASL_MECHANISM) != 0 &&
      (s->nCbind == 0 || strcmp(zMech, SESSION_SASL_MECHANISM_PLUS) != 0)) {
    session__fatal(s, "08P01", NULL, "client selected an invalid SASL authentication mechanism");
    return;
  }
  scram_server_channel_binding(&s->scram, s->aCbind, s->nCbind,
                               strcmp(zMech, SESSION_SASL_MECHANISM_PLUS) == 0);
  if (nData < 0) {
    session__fatal(s, "08P01", "The client sent no initial response.", "malformed SCRAM message");
    return;
  }
  strbuf_init(&reply);
  if (scram_server_first(&s->scram, (const char *)aData, (size_t)nData, NULL, &reply, zErr,
                         sizeof(zErr)) != SCRAM_OK) {
    session__fatal(s, "08P01", zErr, "malformed SCRAM message");
  } else {
    pgwire_put_auth(SESSION_OUT(s), PGWIRE_AUTH_SASL_CONTINUE, reply.z, reply.n);
    s->ePhase = SESSION_AUTH_SASL_FINAL;
  }
  strbuf_free(&reply);
}

/* SASLResponse: client-final-message, whose proof decides. */
static void session_sasl_final(pg_session *s, const pgwire_frame *f) {
  char zErr[160];
  strbuf reply;
  int rc;
  strbuf_init(&reply);
  rc = scram_server_final(&s->scram, (const char *)f->aBody, f->nBody, &reply, zErr, sizeof(zErr));
  if (rc == SCRAM_EBAD) {
    session__fatal(s, "08P01", zErr, "malformed SCRAM message");
  } else if (rc != SCRAM_OK) {
    session__fatal(s, "28P01", NULL, "password authentication failed for user \"%s\"", s->zUser);
  } else {
    pgwire_put_auth(SESSION_OUT(s), PGWIRE_AUTH_SASL_FINAL, reply.z, reply.n);
    session_login(s);
  }
  strbuf_free(&reply);
}

void session__auth_message(pg_session *s, const pgwire_frame *f) {
  if (f->cType != PGWIRE_MSG_PASSWORD) {
    session__fatal(s, "08P01", NULL, "expected SASL response, got message type %d",
                   (unsigned char)f->cType);
  } else if (s->ePhase == SESSION_AUTH_SASL) {
    session_sasl_initial(s, f);
  } else {
    session_sasl_final(s, f);
  }
}

/* ---- the startup packet --------------------------------------------------------- */

/* Returns the name to report for a client_encoding the client asked for,
** or NULL if starq cannot speak it: UTF8, and SQL_ASCII (bytes as they
** are) for clients in the C locale. */
static const char *session_encoding_name(const char *z) {
  char zNorm[32];
  size_t n = 0;
  for (; *z != 0 && n + 1 < sizeof(zNorm); z++) {
    if (*z != '-' && *z != '_') zNorm[n++] = (char)tolower((unsigned char)*z);
  }
  zNorm[n] = 0;
  if (strcmp(zNorm, "utf8") == 0 || strcmp(zNorm, "unicode") == 0) return "UTF8";
  if (strcmp(zNorm, "sqlascii") == 0) return "SQL_ASCII";
  return NULL;
}

/* Keeps the StartupMessage's parameters (protocol options aside, which
** are collected into azOpt) and checks the ones that starq must refuse. */
static int session_params_take(pg_session *s, const pgwire_startup *p, const char **azOpt,
                               int *pnOpt) {
  const char *zEnc, *zRepl;
  for (int i = 0; i < p->nParam; i++) {
    if (strncmp(p->azName[i], "_pq_.", 5) == 0) {
      azOpt[(*pnOpt)++] = p->azName[i];
      continue;
    }
    strbuf_append(&s->params, p->azName[i], strlen(p->azName[i]) + 1);
    strbuf_append(&s->params, p->azValue[i], strlen(p->azValue[i]) + 1);
  }
  if (strbuf_error(&s->params)) {
    session__fatal(s, "53200", NULL, "out of memory");
    return -1;
  }
  s->zUser = session__param_find(s, "user");
  if (s->zUser == NULL || s->zUser[0] == 0) {
    session__fatal(s, "28000", NULL, "no PostgreSQL user name specified in startup packet");
    return -1;
  }
  s->zDatabase = session__param_find(s, "database");
  if (s->zDatabase == NULL || s->zDatabase[0] == 0) s->zDatabase = s->zUser;
  zEnc = pg_session_param(s, "client_encoding");
  s->zClientEncoding = zEnc != NULL ? session_encoding_name(zEnc) : "UTF8";
  if (s->zClientEncoding == NULL) {
    session__fatal(s, "22023", "starq speaks UTF8 (or SQL_ASCII) only.",
                   "invalid value for parameter \"client_encoding\": \"%s\"", zEnc);
    return -1;
  }
  zRepl = pg_session_param(s, "replication");
  if (zRepl != NULL && strcmp(zRepl, "false") != 0 && strcmp(zRepl, "off") != 0 &&
      strcmp(zRepl, "0") != 0 && strcmp(zRepl, "no") != 0) {
    session__fatal(s, "0A000", NULL, "replication connections are not supported");
    return -1;
  }
  return 0;
}

/* A StartupMessage: version 3.0 (or a later 3.x, which is told 3.0 is
** what it gets), its parameters, then authentication. */
static void session_startup_packet(pg_session *s, const pgwire_startup *p) {
  uint32_t iMajor = PGWIRE_VERSION_MAJOR(p->iCode), iMinor = PGWIRE_VERSION_MINOR(p->iCode);
  const char *azOpt[PGWIRE_STARTUP_PARAMS_MAX];
  int nOpt = 0;

  if (iMajor != 3) {
    session__fatal(s, "0A000", NULL,
                   "unsupported frontend protocol %u.%u: server supports 3.0 to 3.0",
                   iMajor, iMinor);
    return;
  }
  if (session_params_take(s, p, azOpt, &nOpt) != 0) return;
  if (iMinor > 0 || nOpt > 0) pgwire_put_negotiate_version(SESSION_OUT(s), 0, nOpt, azOpt);
  if (session_needs_password(s)) {
    session_sasl_begin(s);
  } else {
    session_login(s);
  }
}

void session__startup_message(pg_session *s, const pgwire_frame *f) {
  pgwire_startup st;
  char zErr[160];
  int rc;
  rc = pgwire_startup_decode(f->aBody, f->nBody, &st, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  switch (st.iCode) {
    case PGWIRE_SSL_REQUEST:
    case PGWIRE_GSSENC_REQUEST: {
      int *pbDone = st.iCode == PGWIRE_SSL_REQUEST ? &s->bSslDone : &s->bGssDone;
      if (*pbDone) {
        session__fatal(s, "08P01", NULL, "duplicate %s request",
                       st.iCode == PGWIRE_SSL_REQUEST ? "SSL" : "GSSAPI encryption");
        return;
      }
      *pbDone = 1;
      if (st.iCode == PGWIRE_SSL_REQUEST && s->cfg.bTls) {
        /* Bytes behind the request came before the handshake, in clear:
        ** a man in the middle's, which must not pass for the client's. */
        if (s->iIn != s->in.n) {
          session__fatal(s, "08P01", NULL, "received unencrypted data after SSL request");
          return;
        }
        strbuf_append(SESSION_OUT(s), "S", 1);
        s->bTlsStart = 1;
        return;
      }
      strbuf_append(SESSION_OUT(s), "N", 1);   /* one byte, not a message */
      return;
    }
    case PGWIRE_CANCEL_REQUEST:
      if (s->cfg.xCancel != NULL) s->cfg.xCancel(s->cfg.pCtx, st.iPid, st.iSecret);
      s->ePhase = SESSION_CLOSED;   /* a cancel connection gets no answer */
      return;
    default:
      session_startup_packet(s, &st);
      return;
  }
}
