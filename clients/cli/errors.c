/*
** clients/cli/errors.c — messages on stderr, in psql's shape.
**
** A server error or notice is built from its fields the way libpq builds
** it at its default verbosity ("ERROR:  message", then "LINE n: " with
** the line of the statement that holds the error's position and a caret
** under it, then DETAIL, HINT, QUERY and CONTEXT lines). starq builds it
** itself rather than taking PQresultErrorMessage() so that the caret is
** placed in the text the user wrote even when the client sent something
** else around it (\explain's EXPLAIN VERBOSE). The position is a count of
** characters from 1; a line longer than 60 columns is cut to a window
** around the position, marked with "...", by libpq's rules.
**
** In a script every message starts with "starq:FILE:LINE: " (psql says
** "psql:"); the client's own errors add "error: " after it.
**
** INTERFACE ROUTINES
**   sq_error_position     the LINE and caret lines
**   sq_error_format       a whole message from its fields
**   sq_error_from_result  the fields of a PGresult
**   sq_error_report       print a failed result's message
**   sq_notice_receiver    libpq's notice callback: print NOTICEs
**   sq_report_text        a message built already, located
**   sq_report             the client's own error message
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Screen columns the LINE line may take, and how close to its end the
** caret may come before the line is cut on the left. */
#define ERRORS_DISPLAY_SIZE 60
#define ERRORS_MIN_RIGHT_CUT 10

/* Appends "LINE n: <the line>\n<spaces>^\n" for the 1-based character
** position iPos of zQuery, as libpq's reportErrorPosition() does; nothing
** when the position lies past the text's end. */
void sq_error_position(strbuf *pOut, const char *zQuery, int iPos) {
  size_t nQuery = strlen(zQuery), iOff = 0;
  int *aiByte = malloc(sizeof(int) * (nQuery + 2));
  int *aiCol = malloc(sizeof(int) * (nQuery + 2));
  int iLoc = iPos - 1, nChar = 0, iCol = 0, iLine = 1, iBeg = 0, iEnd = -1;
  int bBegCut = 0, bEndCut = 0, nPrefix;
  char zPrefix[32];
  if (aiByte == NULL || aiCol == NULL || iLoc < 0) goto out_free;
  for (nChar = 0; iOff < nQuery; nChar++) {
    unsigned cp;
    char c = zQuery[iOff];
    int nLen = sq_utf8_decode(zQuery + iOff, nQuery - iOff, &cp), w;
    aiByte[nChar] = (int)iOff;
    aiCol[nChar] = iCol;
    if (c == '\r' || c == '\n') {
      if (nChar < iLoc) {
        /* "\r\n" is one line end. */
        if (c == '\r' || nChar == 0 || zQuery[aiByte[nChar - 1]] != '\r') iLine++;
        iBeg = nChar + 1;
      } else {
        iEnd = nChar;
        break;
      }
    }
    w = sq_char_width(cp);
    iCol += w <= 0 ? 1 : w;
    iOff += (size_t)nLen;
  }
  if (iEnd < 0) {
    iEnd = nChar;
    aiByte[iEnd] = (int)iOff;
    aiCol[iEnd] = iCol;
  }
  if (iLoc > nChar) goto out_free;
  if (aiCol[iEnd] - aiCol[iBeg] > ERRORS_DISPLAY_SIZE) {
    if (aiCol[iBeg] + ERRORS_DISPLAY_SIZE >= aiCol[iLoc] + ERRORS_MIN_RIGHT_CUT) {
      while (aiCol[iEnd] - aiCol[iBeg] > ERRORS_DISPLAY_SIZE) iEnd--;
      bEndCut = 1;
    } else {
      while (aiCol[iLoc] + ERRORS_MIN_RIGHT_CUT < aiCol[iEnd]) {
        iEnd--;
        bEndCut = 1;
      }
      while (aiCol[iEnd] - aiCol[iBeg] > ERRORS_DISPLAY_SIZE) {
        iBeg++;
        bBegCut = 1;
      }
    }
  }
  nPrefix = snprintf(zPrefix, sizeof(zPrefix), "LINE %d: %s", iLine, bBegCut ? "..." : "");
  strbuf_puts(pOut, zPrefix);
  /* Tabs print as one space each, so that the caret lines up. */
  for (int i = aiByte[iBeg]; i < aiByte[iEnd]; i++) {
    strbuf_append(pOut, zQuery[i] == '\t' ? " " : zQuery + i, 1);
  }
  strbuf_puts(pOut, bEndCut ? "...\n" : "\n");
  strbuf_repeat(pOut, ' ', (size_t)(nPrefix + aiCol[iLoc] - aiCol[iBeg]));
  strbuf_puts(pOut, "^\n");
out_free:
  free(aiByte);
  free(aiCol);
}

/* Appends the whole message of an error or notice, newline-terminated. */
void sq_error_format(strbuf *pOut, const sq_errinfo *p) {
  strbuf_printf(pOut, "%s:  %s", p->zSeverity ? p->zSeverity : "ERROR",
                p->zPrimary ? p->zPrimary : "");
  if (p->iPosition > 0 && p->zQuery == NULL) strbuf_printf(pOut, " at character %d", p->iPosition);
  strbuf_puts(pOut, "\n");
  if (p->iPosition > 0 && p->zQuery != NULL) sq_error_position(pOut, p->zQuery, p->iPosition);
  if (p->zDetail != NULL) strbuf_printf(pOut, "DETAIL:  %s\n", p->zDetail);
  if (p->zHint != NULL) strbuf_printf(pOut, "HINT:  %s\n", p->zHint);
  if (p->zContext != NULL) strbuf_printf(pOut, "CONTEXT:  %s\n", p->zContext);
}

/* Fills *p from res's fields; zQuery is the text the position counts in
** (NULL: report the position as a number). */
void sq_error_from_result(sq_errinfo *p, const PGresult *res, const char *zQuery) {
  const char *zPos = PQresultErrorField(res, PG_DIAG_STATEMENT_POSITION);
  memset(p, 0, sizeof(*p));
  p->zSeverity = PQresultErrorField(res, PG_DIAG_SEVERITY);
  p->zPrimary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
  p->zDetail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
  p->zHint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
  p->zContext = PQresultErrorField(res, PG_DIAG_CONTEXT);
  p->iPosition = zPos ? atoi(zPos) : 0;
  p->zQuery = zQuery;
}

/* Writes a message to stderr, "starq:FILE:LINE: " first when a script is
** being read (the prefix goes on the first line only). */
static void errors_emit(const sq_session *s, const char *zLabel, const char *zMsg) {
  size_t n = strlen(zMsg);
  if (s != NULL && s->zInputName != NULL) {
    fprintf(stderr, "starq:%s:%ld: %s", s->zInputName, s->iLine, zLabel);
  }
  fputs(zMsg, stderr);
  if (n == 0 || zMsg[n - 1] != '\n') fputc('\n', stderr);
  fflush(stderr);
}

/* Prints the error of a failed result (zQuery: the statement sent). A
** result without fields (made by libpq itself: a lost connection) prints
** libpq's own text. */
void sq_error_report(sq_session *s, const PGresult *res, const char *zQuery) {
  sq_errinfo e;
  strbuf msg;
  if (res == NULL || PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) == NULL) {
    const char *z = res ? PQresultErrorMessage(res) : "";
    if (*z == 0 && s->pConn != NULL) z = PQerrorMessage(s->pConn);
    errors_emit(s, "", *z ? z : "unknown error\n");
    return;
  }
  strbuf_init(&msg);
  sq_error_from_result(&e, res, zQuery);
  sq_error_format(&msg, &e);
  errors_emit(s, "", strbuf_error(&msg) ? "out of memory\n" : strbuf_str(&msg));
  strbuf_free(&msg);
}

/* libpq calls this for each NOTICE, WARNING or INFO: printed on stderr
** as psql prints them. pArg is the session. */
void sq_notice_receiver(void *pArg, const PGresult *res) {
  sq_session *s = pArg;
  sq_errinfo e;
  strbuf msg;
  strbuf_init(&msg);
  sq_error_from_result(&e, res, NULL);
  if (e.zPrimary == NULL) {
    errors_emit(s, "", PQresultErrorMessage(res));
  } else {
    e.iPosition = 0;    /* psql shows no caret for a notice */
    sq_error_format(&msg, &e);
    errors_emit(s, "", strbuf_error(&msg) ? "out of memory\n" : strbuf_str(&msg));
  }
  strbuf_free(&msg);
}

/* Prints a message already in the server's shape ("ERROR:  ..."), with
** the script's location first. */
void sq_report_text(const sq_session *s, const char *zMsg) {
  errors_emit(s, "", zMsg);
}

/* Prints an error of the client itself ("could not open file ...") on
** stderr: "starq:FILE:LINE: error: " first in a script. */
void sq_report(const sq_session *s, const char *zFmt, ...) {
  char zMsg[2048];
  va_list ap;
  va_start(ap, zFmt);
  vsnprintf(zMsg, sizeof(zMsg), zFmt, ap);
  va_end(ap);
  errors_emit(s, "error: ", zMsg);
}
