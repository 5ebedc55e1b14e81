/*
** clients/cli/split.c — the statement splitter: it reads input a line at a
** time, collects SQL text, and says where a statement ends and where a
** meta-command begins, by psql's rules.
**
** A ';' ends a statement only in plain SQL text at parenthesis depth 0:
** not in a '...' string (doubled '' stays inside; in an E'...' string a
** backslash escapes too), a "..." identifier, a -- comment, a block
** comment (slash-star ... star-slash; they nest, as in PostgreSQL) or a
** $tag$ ... $tag$ dollar quote.
** A backslash in plain text starts a meta-command; the caller reads it
** from the line and goes on scanning after it. Lines are joined with a
** newline. Blanks and -- comments before the first token are dropped, so
** the text sent (and the positions the server reports) starts at the
** statement's first token, as psql's does.
**
** This file knows nothing of what a statement means or how it is sent.
**
** INTERFACE ROUTINES
**   sq_split_init / sq_split_free   a splitter
**   sq_split_newline     a new line of input begins
**   sq_split_scan        scan a line up to a ';', a backslash or its end
**   sq_split_take        the statement collected (the caller frees it)
**   sq_split_reset       discard it (\r)
**   sq_split_pending     whether anything but blanks was collected
**   sq_split_prompt      the prompt's state character ('=', '-', '\'' ...)
**   sq_split_count       how many statements a whole text holds
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void sq_split_init(sq_split *p) {
  memset(p, 0, sizeof(*p));
  strbuf_init(&p->query);
  p->eLex = SQ_LEX_NORMAL;
}

void sq_split_free(sq_split *p) {
  strbuf_free(&p->query);
  free(p->zTag);
  p->zTag = NULL;
}

/* Forgets the statement and the state: \r, or after a statement is taken. */
void sq_split_reset(sq_split *p) {
  strbuf_reset(&p->query);
  p->eLex = SQ_LEX_NORMAL;
  p->nComment = 0;
  p->nParen = 0;
  free(p->zTag);
  p->zTag = NULL;
  p->bToken = 0;
}

/* A new input line begins: it is joined to the text so far by a newline,
** unless nothing has been collected yet. */
void sq_split_newline(sq_split *p) {
  if (p->query.n > 0) strbuf_append(&p->query, "\n", 1);
}

/* Returns 1 if c can be part of an identifier (so a '$' or an 'E' right
** after it does not start a quote). Bytes past ASCII are letters. */
static int split_ident_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '$' || c >= 0x80;
}

/* Returns the length of the dollar-quote tag "$...$" at z, or 0 if z does
** not start one: $$ or $name$ where name does not begin with a digit ($1
** is a parameter). */
static size_t split_dollar_tag(const char *z) {
  size_t i = 1;
  unsigned char c = (unsigned char)z[1];
  if (c == '$') return 2;
  if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80)) return 0;
  while (split_ident_char((unsigned char)z[i]) && z[i] != '$') i++;
  return z[i] == '$' ? i + 1 : 0;
}

/* Appends n bytes of the line to the statement. */
static void split_keep(sq_split *p, const char *z, size_t n) {
  strbuf_append(&p->query, z, n);
}

/* Scans zLine (NUL-terminated, no newline) from *piPos. Returns
** SQ_SCAN_SEMI with *piPos past a ';' that ends a statement (take it with
** sq_split_take), SQ_SCAN_META with *piPos at a backslash that starts a
** meta-command, or SQ_SCAN_EOL when the whole line is used. */
sq_scan sq_split_scan(sq_split *p, const char *zLine, size_t *piPos) {
  size_t i = *piPos;
  while (zLine[i] != 0) {
    char c = zLine[i];
    switch (p->eLex) {
      case SQ_LEX_NORMAL:
        if (c == '-' && zLine[i + 1] == '-') {
          /* A line comment runs to the end of the line; before the first
          ** token it is dropped, as leading blanks are. */
          if (p->query.n > 0) split_keep(p, zLine + i, strlen(zLine + i));
          *piPos = i + strlen(zLine + i);
          return SQ_SCAN_EOL;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
          if (p->query.n > 0) split_keep(p, &c, 1);
          i++;
          continue;
        }
        if (c == '\\') {
          *piPos = i;
          return SQ_SCAN_META;
        }
        if (c == '/' && zLine[i + 1] == '*') {
          p->eLex = SQ_LEX_COMMENT;
          p->nComment = 1;
          split_keep(p, zLine + i, 2);
          i += 2;
          continue;
        }
        if (c == ';' && p->nParen == 0) {
          split_keep(p, &c, 1);
          *piPos = i + 1;
          return SQ_SCAN_SEMI;
        }
        p->bToken = 1;
        if (c == '\'') {
          /* E'...' takes backslash escapes; "one'" is not an E string. */
          int bE = i > 0 && (zLine[i - 1] == 'E' || zLine[i - 1] == 'e') &&
                   (i < 2 || !split_ident_char((unsigned char)zLine[i - 2]));
          p->eLex = bE ? SQ_LEX_EQUOTE : SQ_LEX_QUOTE;
        } else if (c == '"') {
          p->eLex = SQ_LEX_IDENT;
        } else if (c == '(') {
          p->nParen++;
        } else if (c == ')') {
          if (p->nParen > 0) p->nParen--;
        } else if (c == '$' && (i == 0 || !split_ident_char((unsigned char)zLine[i - 1]))) {
          size_t nTag = split_dollar_tag(zLine + i);
          if (nTag > 0) {
            free(p->zTag);
            p->zTag = malloc(nTag + 1);
            if (p->zTag != NULL) {
              memcpy(p->zTag, zLine + i, nTag);
              p->zTag[nTag] = 0;
              p->eLex = SQ_LEX_DOLLAR;
            }
            split_keep(p, zLine + i, nTag);
            i += nTag;
            continue;
          }
        }
        split_keep(p, &c, 1);
        i++;
        break;

      case SQ_LEX_QUOTE:
      case SQ_LEX_EQUOTE:
        if (c == '\\' && p->eLex == SQ_LEX_EQUOTE && zLine[i + 1] != 0) {
          split_keep(p, zLine + i, 2);
          i += 2;
          continue;
        }
        if (c == '\'') {
          if (zLine[i + 1] == '\'') {   /* '' is a quote inside the string */
            split_keep(p, zLine + i, 2);
            i += 2;
            continue;
          }
          p->eLex = SQ_LEX_NORMAL;
        }
        split_keep(p, &c, 1);
        i++;
        break;

      case SQ_LEX_IDENT:
        if (c == '"') p->eLex = SQ_LEX_NORMAL;   /* "" reopens at once */
        split_keep(p, &c, 1);
        i++;
        break;

      case SQ_LEX_COMMENT:
        if (c == '*' && zLine[i + 1] == '/') {
          split_keep(p, zLine + i, 2);
          i += 2;
          if (--p->nComment == 0) p->eLex = SQ_LEX_NORMAL;
          continue;
        }
        if (c == '/' && zLine[i + 1] == '*') {
          split_keep(p, zLine + i, 2);
          i += 2;
          p->nComment++;
          continue;
        }
        split_keep(p, &c, 1);
        i++;
        break;

      case SQ_LEX_DOLLAR: {
        size_t nTag = strlen(p->zTag);
        if (c == '$' && strncmp(zLine + i, p->zTag, nTag) == 0) {
          split_keep(p, zLine + i, nTag);
          i += nTag;
          p->eLex = SQ_LEX_NORMAL;
          free(p->zTag);
          p->zTag = NULL;
          continue;
        }
        split_keep(p, &c, 1);
        i++;
        break;
      }
    }
  }
  *piPos = i;
  return SQ_SCAN_EOL;
}

/* Returns the statement collected (malloc'd, NULL if out of memory) and
** resets the splitter for the next one. */
char *sq_split_take(sq_split *p) {
  char *z = strbuf_take(&p->query);
  sq_split_reset(p);
  return z;
}

/* Returns 1 if the text collected holds a token (not only blanks and
** comments), so that it is worth sending. */
int sq_split_pending(const sq_split *p) {
  return p->bToken;
}

/* Returns the character psql's prompt shows for the state: '=' for a new
** statement, '-' for one that goes on, or the open quote, comment ('*'),
** dollar quote ('$') or parenthesis. */
char sq_split_prompt(const sq_split *p) {
  switch (p->eLex) {
    case SQ_LEX_QUOTE:
    case SQ_LEX_EQUOTE: return '\'';
    case SQ_LEX_IDENT: return '"';
    case SQ_LEX_COMMENT: return '*';
    case SQ_LEX_DOLLAR: return '$';
    case SQ_LEX_NORMAL: break;
  }
  if (p->nParen > 0) return '(';
  return p->query.n > 0 ? '-' : '=';
}

/* Returns how many statements the text zSql holds (a last one without its
** ';' counts; a meta-command ends the count), for \explain, which only
** explains a text that is one statement. */
int sq_split_count(const char *zSql) {
  sq_split sp;
  const char *zLine = zSql;
  int n = 0, bMeta = 0;
  sq_split_init(&sp);
  while (!bMeta) {
    const char *zEnd = strchr(zLine, '\n');
    size_t nLine = zEnd ? (size_t)(zEnd - zLine) : strlen(zLine), iPos = 0;
    char *zCopy = malloc(nLine + 1);
    sq_scan e;
    if (zCopy == NULL) break;
    memcpy(zCopy, zLine, nLine);
    zCopy[nLine] = 0;
    sq_split_newline(&sp);
    while ((e = sq_split_scan(&sp, zCopy, &iPos)) != SQ_SCAN_EOL) {
      if (e == SQ_SCAN_META) {
        bMeta = 1;
        break;
      }
      if (sq_split_pending(&sp)) n++;
      sq_split_reset(&sp);
    }
    free(zCopy);
    if (zEnd == NULL) break;
    zLine = zEnd + 1;
  }
  if (sq_split_pending(&sp)) n++;
  sq_split_free(&sp);
  return n;
}
