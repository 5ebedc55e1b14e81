/*
** clients/cli/copy.c — COPY data between the server and the client: the
** rows of COPY ... FROM STDIN and COPY ... TO STDOUT, and \copy, which
** is psql's way of reading or writing a file on the client's side.
**
** Where FROM STDIN data comes from, as in psql:
**   \copy t from 'file'    the file's bytes, sent as they are
**   \copy t from pstdin    starq's standard input, a line at a time
**   otherwise              the input the statement came from: the lines
**                          after it in a script (up to a "\." line), the
**                          terminal (prompt ">> "), or standard input for
**                          -c
** \copy turns into COPY ... FROM STDIN (TO STDOUT) with the rest of its
** text as the server's options, then runs like any statement, so its
** result prints "COPY n" and its errors print like others.
**
** INTERFACE ROUTINES
**   sq_copy_in     feed a COPY FROM STDIN the server is waiting on
**   sq_copy_out    write what a COPY TO STDOUT sends
**   sq_copy_meta   \copy
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Sends n bytes of COPY data. Returns 0, or -1 if the connection failed. */
static int copy_put(sq_session *s, const char *z, size_t n) {
  if (PQputCopyData(s->pConn, z, (int)n) != 1) {
    sq_report(s, "could not send COPY data: %s", PQerrorMessage(s->pConn));
    return -1;
  }
  return 0;
}

/* Sends the raw bytes of f. Returns 0, or -1 (reported). */
static int copy_in_file(sq_session *s, FILE *f) {
  char aBuf[65536];
  size_t n;
  while ((n = fread(aBuf, 1, sizeof(aBuf), f)) > 0) {
    if (copy_put(s, aBuf, n) != 0) return -1;
  }
  if (ferror(f)) {
    PQputCopyEnd(s->pConn, "could not read the \\copy file");
    sq_report(s, "could not read the \\copy file: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* Sends lines of src up to a "\." line or the end of input. Returns 0, or
** -1 (reported). */
static int copy_in_lines(sq_session *s, sq_source *src) {
  char *zLine;
  if (sq_source_is_terminal(src) && !s->bQuiet) {
    printf("Enter data to be copied followed by a newline.\n"
           "End with a backslash and a period on a line by itself, or an EOF signal.\n");
  }
  while ((zLine = sq_source_read(src, ">> ")) != NULL) {
    int rc;
    if (src == s->pSource) s->iLine = sq_source_line(src);
    if (strcmp(zLine, "\\.") == 0) {
      free(zLine);
      break;
    }
    rc = copy_put(s, zLine, strlen(zLine));
    free(zLine);
    if (rc != 0 || copy_put(s, "\n", 1) != 0) return -1;
  }
  return 0;
}

/* The server waits for COPY FROM STDIN data: sends it from where it
** comes from (above), then ends the copy; the server's verdict is the
** statement's next result. Returns 0, or -1 if the data could not be sent
** (reported). */
int sq_copy_in(sq_session *s) {
  int rc;
  if (s->pCopyFile != NULL) {
    rc = copy_in_file(s, s->pCopyFile);
  } else if (s->pSource != NULL && !s->bCopyStdin) {
    rc = copy_in_lines(s, s->pSource);
  } else {
    sq_source *src = sq_source_file(stdin, "<stdin>", 0);
    if (src == NULL) {
      PQputCopyEnd(s->pConn, "out of memory");
      return -1;
    }
    rc = copy_in_lines(s, src);
    sq_source_close(src);
  }
  if (PQputCopyEnd(s->pConn, NULL) != 1) {
    sq_report(s, "could not end COPY: %s", PQerrorMessage(s->pConn));
    return -1;
  }
  return rc;
}

/* The server sends COPY TO STDOUT data: written to the \copy file or the
** query output. Returns 0, or -1 (reported). */
int sq_copy_out(sq_session *s) {
  FILE *out = s->pCopyFile ? s->pCopyFile : s->pOut;
  char *z;
  int n, rc = 0;
  while ((n = PQgetCopyData(s->pConn, &z, 0)) > 0) {
    if (fwrite(z, 1, (size_t)n, out) != (size_t)n) rc = -1;
    PQfreemem(z);
  }
  if (n == -2) {
    sq_report(s, "COPY data transfer failed: %s", PQerrorMessage(s->pConn));
    return -1;
  }
  if (fflush(out) != 0 || rc != 0) {
    sq_report(s, "could not write COPY data: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* Returns 1 if the word zWord (lower case) stands at z, followed by a
** blank or the end. */
static int copy_word_at(const char *z, const char *zWord) {
  size_t n = strlen(zWord);
  return strncasecmp(z, zWord, n) == 0 && (isspace((unsigned char)z[n]) || z[n] == 0);
}

/* Finds the keyword FROM or TO of a \copy outside quotes and
** parentheses. Returns its offset in z (*pbFrom: which one), or -1. */
static int copy_find_direction(const char *z, int *pbFrom) {
  int nParen = 0;
  char cQuote = 0;
  for (int i = 0; z[i]; i++) {
    char c = z[i];
    if (cQuote) {
      if (c == cQuote) cQuote = 0;
    } else if (c == '\'' || c == '"') {
      cQuote = c;
    } else if (c == '(') {
      nParen++;
    } else if (c == ')') {
      nParen--;
    } else if (nParen == 0 && (i == 0 || isspace((unsigned char)z[i - 1]) || z[i - 1] == ')')) {
      if (copy_word_at(z + i, "from") || copy_word_at(z + i, "to")) {
        *pbFrom = copy_word_at(z + i, "from");
        return i;
      }
    }
  }
  return -1;
}

/* Reads the file operand of a \copy at z: a '...' string ('' for a quote)
** or a word. Copies it into zOut; returns the bytes of z used, or -1. */
static int copy_file_operand(const char *z, char *zOut, size_t nOut) {
  size_t i = 0, n = 0;
  if (z[0] == '\'') {
    for (i = 1; z[i]; i++) {
      if (z[i] == '\'') {
        if (z[i + 1] != '\'') break;
        i++;
      }
      if (n + 1 < nOut) zOut[n++] = z[i];
    }
    if (z[i] != '\'') return -1;
    i++;
  } else {
    while (z[i] && !isspace((unsigned char)z[i]) && z[i] != '(') {
      if (n + 1 < nOut) zOut[n++] = z[i];
      i++;
    }
  }
  zOut[n] = 0;
  return n > 0 ? (int)i : -1;
}

/* \copy TABLE [(cols)] FROM {'file' | stdin | pstdin} [options], or
** \copy {TABLE | (query)} TO {'file' | stdout | pstdout} [options].
** Returns 0 if the copy succeeded, -1 otherwise (reported). */
int sq_copy_meta(sq_session *s, const char *zArgs) {
  char zFile[4096];
  int bFrom = 0, iDir = copy_find_direction(zArgs, &bFrom), nOp, rc;
  const char *zRest;
  strbuf sql;
  FILE *f = NULL;
  if (iDir <= 0) {
    sq_report(s, "\\copy: parse error at %s", iDir == 0 ? "\"from\"" : "end of line");
    return -1;
  }
  zRest = zArgs + iDir + (bFrom ? 4 : 2);
  while (isspace((unsigned char)*zRest)) zRest++;
  nOp = copy_file_operand(zRest, zFile, sizeof(zFile));
  if (nOp < 0) {
    sq_report(s, "\\copy: parse error at end of line");
    return -1;
  }
  if (strcasecmp(zFile, "program") == 0 && zRest[0] != '\'') {
    sq_report(s, "\\copy: program is not supported by starq");
    return -1;
  }
  s->bCopyStdin = zRest[0] != '\'' &&
                  (strcasecmp(zFile, "pstdin") == 0 || strcasecmp(zFile, "pstdout") == 0);
  if (zRest[0] == '\'' || (strcasecmp(zFile, "stdin") != 0 && strcasecmp(zFile, "stdout") != 0 &&
                           !s->bCopyStdin)) {
    f = fopen(zFile, bFrom ? "rb" : "wb");
    if (f == NULL) {
      sq_report(s, "%s: %s", zFile, strerror(errno));
      s->bCopyStdin = 0;
      return -1;
    }
  }
  strbuf_init(&sql);
  strbuf_printf(&sql, "COPY %.*s%s%s", iDir, zArgs, bFrom ? "FROM STDIN" : "TO STDOUT",
                zRest[nOp] != 0 && !isspace((unsigned char)zRest[nOp]) ? " " : "");
  strbuf_puts(&sql, zRest + nOp);
  if (strbuf_error(&sql)) {
    sq_report(s, "out of memory");
    rc = -1;
  } else {
    s->pCopyFile = f;
    if (!bFrom && f == NULL && s->bCopyStdin) s->pCopyFile = stdout;
    rc = sq_run_query(s, strbuf_str(&sql));
    s->pCopyFile = NULL;
  }
  s->bCopyStdin = 0;
  strbuf_free(&sql);
  if (f != NULL && fclose(f) != 0 && rc == 0) {
    sq_report(s, "%s: %s", zFile, strerror(errno));
    rc = -1;
  }
  return rc;
}
