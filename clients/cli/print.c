/*
** clients/cli/print.c — results printed exactly as psql 15 prints them
** with its default settings (border 1, ASCII lines, null shown empty), so
** that output can be diffed against psql's and scripts written for psql
** read starq's:
**
**   aligned     header centred, "-+-" rule, numbers right and text left,
**               a multi-line value marked by '+' at the column's right,
**               "(N rows)" and a blank line after
**   expanded    (\x) "-[ RECORD n ]-" blocks of "column | value" lines
**   unaligned   (-A) fields joined by the field separator, the footer
**   CSV         (--csv) RFC 4180: a field is quoted when it holds the
**               separator, a quote, CR or LF, or is exactly \.
**
** The layout rules (which column gets a trailing pad, where a '+' goes,
** how long the record rule is) follow psql's print.c line by line; the
** tests compare the output byte for byte with the real psql's.
**
** INTERFACE ROUTINES
**   sq_print_table       print a table (a result, or one \d built)
**   sq_print_result      print a PGresult's rows
**   sq_print_rows        some of them, under a title (\dt)
**   sq_type_is_numeric   whether a column type prints right-aligned
**   sq_bytes_text        a size as people read it ("239.6 kB")
*/
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

/* Type OIDs psql right-aligns: int8, int2, int4, oid, float4, float8,
** money, numeric (and xid, xid8). */
int sq_type_is_numeric(Oid iType) {
  switch (iType) {
    case 20: case 21: case 23: case 26: case 28: case 700: case 701: case 790: case 1700:
    case 5069:
      return 1;
    default:
      return 0;
  }
}

/* Writes rBytes into zBuf the way people read sizes ("512 B", "239.6 kB",
** "4.35 GB": powers of 1000) and returns zBuf. */
const char *sq_bytes_text(char *zBuf, size_t nBuf, double rBytes) {
  static const char *azUnit[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int i = 0;
  while (rBytes >= 1000.0 && i < 5) {
    rBytes /= 1000.0;
    i++;
  }
  if (i == 0) snprintf(zBuf, nBuf, "%.0f B", rBytes);
  else snprintf(zBuf, nBuf, "%.*f %s", rBytes < 10 ? 2 : 1, rBytes, azUnit[i]);
  return zBuf;
}

/* Writes n spaces. */
static void print_pad(FILE *out, int n) {
  for (int i = 0; i < n; i++) fputc(' ', out);
}

/* Writes n copies of c. */
static void print_repeat(FILE *out, char c, int n) {
  for (int i = 0; i < n; i++) fputc(c, out);
}

/* Writes the footer lines: the caller's, or "(N rows)". */
static void print_footers(FILE *out, const sq_table *t) {
  if (!t->bDefaultFooter) {
    for (int i = 0; i < t->nFooter; i++) fprintf(out, "%s\n", t->azFooter[i]);
  } else {
    fprintf(out, "(%d %s)\n", t->nRow, t->nRow == 1 ? "row" : "rows");
  }
}

/* The cells of a table split into display lines: for the aligned
** formats. */
typedef struct print_grid print_grid;
struct print_grid {
  sq_line **aaLine;          /* per header then per cell: its lines */
  int *anLine;               /* how many lines each has */
  int *anWidth;              /* each one's widest line */
  int nCell;                 /* nCol headers + nRow * nCol cells */
};

static void print_grid_free(print_grid *g) {
  if (g->aaLine != NULL) {
    for (int i = 0; i < g->nCell; i++) sq_cell_free(g->aaLine[i], g->anLine[i]);
  }
  free(g->aaLine);
  free(g->anLine);
  free(g->anWidth);
}

/* Formats every header (first) and cell of t. Returns 0, or -1 if out of
** memory. */
static int print_grid_make(print_grid *g, const sq_table *t) {
  size_t nCell = (size_t)t->nCol * ((size_t)t->nRow + 1);
  g->nCell = 0;
  g->aaLine = calloc(nCell ? nCell : 1, sizeof(sq_line *));
  g->anLine = calloc(nCell ? nCell : 1, sizeof(int));
  g->anWidth = calloc(nCell ? nCell : 1, sizeof(int));
  if (g->aaLine == NULL || g->anLine == NULL || g->anWidth == NULL) return -1;
  for (size_t i = 0; i < nCell; i++) {
    const char *z = i < (size_t)t->nCol ? t->azHeader[i] : t->azCell[i - (size_t)t->nCol];
    if (sq_cell_format(z, &g->aaLine[i], &g->anLine[i], &g->anWidth[i]) != 0) return -1;
    g->nCell++;
  }
  return 0;
}

/* ---- aligned ------------------------------------------------------------- */

/* Prints one row (or the header, centred) of the aligned format: a display
** line at a time, until every cell's lines are out. aiCell are the
** row's entries in the grid. */
static void print_aligned_row(FILE *out, const sq_table *t, const print_grid *g, const int *aiCell,
                              const int *anColWidth, int bHeader) {
  int nLines = 1;
  for (int j = 0; j < t->nCol; j++) {
    if (g->anLine[aiCell[j]] > nLines) nLines = g->anLine[aiCell[j]];
  }
  for (int l = 0; l < nLines; l++) {
    fputc(' ', out);
    for (int j = 0; j < t->nCol; j++) {
      int iCell = aiCell[j], bLast = j == t->nCol - 1;
      int bHas = l < g->anLine[iCell], bMore = l + 1 < g->anLine[iCell];
      if (j > 0) fputc(' ', out);
      if (!bHas) {
        if (!bLast || bHeader) print_pad(out, anColWidth[j]);
      } else {
        const sq_line *p = &g->aaLine[iCell][l];
        int nSpace = anColWidth[j] - p->nWidth;
        if (bHeader) {
          print_pad(out, nSpace / 2);
          fputs(p->z, out);
          print_pad(out, (nSpace + 1) / 2);
        } else if (t->acAlign[j] == 'r') {
          print_pad(out, nSpace);
          fputs(p->z, out);
        } else {
          fputs(p->z, out);
          if (!bLast || bMore) print_pad(out, nSpace);
        }
      }
      if (bMore) fputc('+', out);
      else if (!bLast || bHeader) fputc(' ', out);
      if (!bLast) fputc('|', out);
    }
    fputc('\n', out);
  }
}

static int print_expanded(FILE *out, const sq_table *t, const sq_popt *o);

/* Returns the terminal's width in columns if out is one (COLUMNS wins, as
** in psql), else 0. */
static int print_terminal_width(FILE *out) {
  struct winsize ws;
  const char *z = getenv("COLUMNS");
  if (z != NULL && atoi(z) > 0) return atoi(z);
  if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0) return ws.ws_col;
  return 0;
}

/* psql's aligned format; under \x auto, the expanded one instead when the
** table would be wider than the terminal. */
static int print_aligned(FILE *out, const sq_table *t, const sq_popt *o) {
  print_grid g;
  int *anColWidth = calloc((size_t)t->nCol + 1, sizeof(int));
  int *aiCell = calloc((size_t)t->nCol + 1, sizeof(int));
  int rc = -1;
  memset(&g, 0, sizeof(g));
  if (anColWidth == NULL || aiCell == NULL || print_grid_make(&g, t) != 0) goto out_free;
  for (int i = 0; i < g.nCell; i++) {
    int j = i % t->nCol;
    if (g.anWidth[i] > anColWidth[j]) anColWidth[j] = g.anWidth[i];
  }
  if (o->bExpanded == SQ_EXPANDED_AUTO && t->nCol > 1 && !t->bNoExpand) {
    int nTotal = t->nCol * 3 - 1, nScreen = print_terminal_width(out);
    for (int j = 0; j < t->nCol; j++) nTotal += anColWidth[j];
    if (nScreen > 0 && nTotal > nScreen) {
      rc = print_expanded(out, t, o);
      goto out_free;
    }
  }
  if (t->zTitle != NULL && !o->bTuplesOnly) {
    int nTotal = t->nCol * 3 - 1, nTitle = sq_text_width(t->zTitle);
    for (int j = 0; j < t->nCol; j++) nTotal += anColWidth[j];
    if (nTitle < nTotal) print_pad(out, (nTotal - nTitle) / 2);
    fprintf(out, "%s\n", t->zTitle);
  }
  if (!o->bTuplesOnly && t->nCol > 0) {
    for (int j = 0; j < t->nCol; j++) aiCell[j] = j;
    print_aligned_row(out, t, &g, aiCell, anColWidth, 1);
    for (int j = 0; j < t->nCol; j++) {
      if (j > 0) fputc('+', out);
      print_repeat(out, '-', anColWidth[j] + 2);
    }
    fputc('\n', out);
  }
  for (int r = 0; r < t->nRow; r++) {
    for (int j = 0; j < t->nCol; j++) aiCell[j] = t->nCol * (r + 1) + j;
    print_aligned_row(out, t, &g, aiCell, anColWidth, 0);
  }
  if (!o->bTuplesOnly) print_footers(out, t);
  fputc('\n', out);
  rc = 0;
out_free:
  print_grid_free(&g);
  free(anColWidth);
  free(aiCell);
  return rc;
}

/* The rule above each record in expanded mode: "-[ RECORD n ]" and dashes
** with a '+' where the column bar goes, as long as the widest line
** (psql's print_aligned_vertical_line with border 1). iRecord 0 draws a
** plain rule (between records under -t). */
static void print_record_rule(FILE *out, int iRecord, int nHeadWidth, int nDataWidth) {
  int nLen = 0;
  fputc('-', out);
  if (iRecord > 0) nLen = fprintf(out, "[ RECORD %d ]", iRecord);
  nLen++;
  for (int i = nLen; i < nHeadWidth; i++) fputc('-', out);
  nLen -= nHeadWidth;
  if (nLen-- <= 0) fputc('-', out);
  if (nLen-- <= 0) fputc('+', out);
  if (nLen-- <= 0) fputc('-', out);
  if (nLen < 0) nLen = 0;
  for (int i = nLen; i < nDataWidth; i++) fputc('-', out);
  fputc('\n', out);
}

/* psql's expanded aligned format. */
static int print_expanded(FILE *out, const sq_table *t, const sq_popt *o) {
  print_grid g;
  int nHeadWidth = 0, nDataWidth = 0;
  memset(&g, 0, sizeof(g));
  if (t->nRow == 0) {
    if (!o->bTuplesOnly) print_footers(out, t);
    fputc('\n', out);
    return 0;
  }
  if (print_grid_make(&g, t) != 0) {
    print_grid_free(&g);
    return -1;
  }
  for (int i = 0; i < g.nCell; i++) {
    if (i < t->nCol && g.anWidth[i] > nHeadWidth) nHeadWidth = g.anWidth[i];
    if (i >= t->nCol && g.anWidth[i] > nDataWidth) nDataWidth = g.anWidth[i];
  }
  if (t->zTitle != NULL && !o->bTuplesOnly) fprintf(out, "%s\n", t->zTitle);
  for (int r = 0; r < t->nRow; r++) {
    if (!o->bTuplesOnly) print_record_rule(out, r + 1, nHeadWidth, nDataWidth);
    else if (r > 0) print_record_rule(out, 0, nHeadWidth, nDataWidth);
    for (int j = 0; j < t->nCol; j++) {
      int iHead = j, iData = t->nCol * (r + 1) + j, h = 0, d = 0;
      while (h < g.anLine[iHead] || d < g.anLine[iData]) {
        if (h < g.anLine[iHead]) {
          const sq_line *p = &g.aaLine[iHead][h];
          fputs(p->z, out);
          print_pad(out, nHeadWidth - p->nWidth);
          fputc(h + 1 < g.anLine[iHead] ? '+' : ' ', out);
          h++;
        } else {
          print_pad(out, nHeadWidth + 1);
        }
        fputc('|', out);
        if (d < g.anLine[iData]) {
          const sq_line *p = &g.aaLine[iData][d];
          fputc(' ', out);
          fputs(p->z, out);
          if (d + 1 < g.anLine[iData]) {
            print_pad(out, nDataWidth - p->nWidth);
            fputc('+', out);
          }
          d++;
        }
        fputc('\n', out);
      }
    }
  }
  if (!o->bTuplesOnly && !t->bDefaultFooter && t->nFooter > 0) {
    fputc('\n', out);
    print_footers(out, t);
  }
  fputc('\n', out);
  print_grid_free(&g);
  return 0;
}

/* ---- unaligned and CSV ---------------------------------------------------- */

/* psql's unaligned format (-A), plain or expanded. */
static void print_unaligned(FILE *out, const sq_table *t, const sq_popt *o) {
  const char *zF = o->zFieldSep, *zR = o->zRecordSep;
  int bSep = 0;
  if (!o->bExpanded) {
    if (!o->bTuplesOnly && t->zTitle != NULL) {
      fputs(t->zTitle, out);
      bSep = 1;
    }
    if (!o->bTuplesOnly) {
      if (bSep) fputs(zR, out);
      for (int j = 0; j < t->nCol; j++) fprintf(out, "%s%s", j ? zF : "", t->azHeader[j]);
      bSep = 1;
    }
    for (int i = 0; i < t->nRow * t->nCol; i++) {
      if (bSep) fputs(zR, out);
      bSep = 0;
      fputs(t->azCell[i] ? t->azCell[i] : "", out);
      if ((i + 1) % t->nCol) fputs(zF, out);
      else bSep = 1;
    }
    if (!o->bTuplesOnly) {
      if (t->bDefaultFooter) {
        if (bSep) fputs(zR, out);
        fprintf(out, "(%d %s)", t->nRow, t->nRow == 1 ? "row" : "rows");
        bSep = 1;
      } else {
        for (int i = 0; i < t->nFooter; i++) {
          if (bSep) fputs(zR, out);
          fputs(t->azFooter[i], out);
          bSep = 1;
        }
      }
    }
  } else {
    if (!o->bTuplesOnly && t->zTitle != NULL) {
      fputs(t->zTitle, out);
      bSep = 1;
    }
    for (int i = 0; i < t->nRow * t->nCol; i++) {
      if (bSep) fprintf(out, "%s%s", zR, zR);
      bSep = 0;
      fprintf(out, "%s%s%s", t->azHeader[i % t->nCol], zF, t->azCell[i] ? t->azCell[i] : "");
      if ((i + 1) % t->nCol) fputs(zR, out);
      else bSep = 1;
    }
    if (!o->bTuplesOnly && !t->bDefaultFooter && t->nFooter > 0) {
      fputs(zR, out);
      for (int i = 0; i < t->nFooter; i++) fprintf(out, "%s%s", zR, t->azFooter[i]);
    }
  }
  /* The last record ends with a newline whatever the record separator. */
  if (bSep) fputc('\n', out);
}

/* Writes one CSV field, quoted when it must be. */
static void print_csv_field(FILE *out, const char *z) {
  if (z == NULL) return;
  if (strpbrk(z, ",\"\r\n") != NULL || strcmp(z, "\\.") == 0) {
    fputc('"', out);
    for (; *z; z++) {
      if (*z == '"') fputc('"', out);
      fputc(*z, out);
    }
    fputc('"', out);
  } else {
    fputs(z, out);
  }
}

/* psql's --csv format, plain or expanded (name,value lines). */
static void print_csv(FILE *out, const sq_table *t, const sq_popt *o) {
  if (o->bExpanded == 1) {
    for (int i = 0; i < t->nRow * t->nCol; i++) {
      print_csv_field(out, t->azHeader[i % t->nCol]);
      fputc(',', out);
      print_csv_field(out, t->azCell[i]);
      fputc('\n', out);
    }
    return;
  }
  if (!o->bTuplesOnly) {
    for (int j = 0; j < t->nCol; j++) {
      if (j > 0) fputc(',', out);
      print_csv_field(out, t->azHeader[j]);
    }
    fputc('\n', out);
  }
  for (int i = 0; i < t->nRow * t->nCol; i++) {
    print_csv_field(out, t->azCell[i]);
    fputc((i + 1) % t->nCol ? ',' : '\n', out);
  }
}

/* Prints t in the format o asks for. Returns 0, or -1 if out of memory
** (the table may be partly printed). */
int sq_print_table(FILE *out, const sq_table *t, const sq_popt *o) {
  int rc = 0;
  if (o->eFormat == SQ_FORMAT_CSV) {
    print_csv(out, t, o);
  } else if (o->eFormat == SQ_FORMAT_UNALIGNED) {
    sq_popt o2 = *o;
    /* \x auto does not apply to the unaligned format. */
    if (t->bNoExpand || o2.bExpanded == SQ_EXPANDED_AUTO) o2.bExpanded = 0;
    print_unaligned(out, t, &o2);
  } else if (o->bExpanded == 1 && !t->bNoExpand) {
    rc = print_expanded(out, t, o);
  } else {
    rc = print_aligned(out, t, o);
  }
  fflush(out);
  return rc;
}

/* Prints the rows of a PGRES_TUPLES_OK result under zTitle (NULL: none):
** all of them if aiRow is NULL, else the nRow rows it lists. Returns 0, or
** -1 if out of memory. */
int sq_print_rows(FILE *out, const PGresult *res, const int *aiRow, int nRow, const char *zTitle,
                  const sq_popt *o) {
  int nCol = PQnfields(res), rc = -1;
  const char **azHeader, **azCell;
  char *acAlign;
  sq_table t;
  if (aiRow == NULL) nRow = PQntuples(res);
  azHeader = calloc((size_t)nCol + 1, sizeof(char *));
  azCell = calloc((size_t)nCol * (size_t)nRow + 1, sizeof(char *));
  acAlign = calloc((size_t)nCol + 1, 1);
  if (azHeader == NULL || azCell == NULL || acAlign == NULL) goto out_free;
  for (int j = 0; j < nCol; j++) {
    azHeader[j] = PQfname(res, j);
    acAlign[j] = sq_type_is_numeric(PQftype(res, j)) ? 'r' : 'l';
  }
  for (int r = 0; r < nRow; r++) {
    int iRow = aiRow ? aiRow[r] : r;
    for (int j = 0; j < nCol; j++) {
      azCell[(size_t)r * (size_t)nCol + (size_t)j] =
          PQgetisnull(res, iRow, j) ? NULL : PQgetvalue(res, iRow, j);
    }
  }
  memset(&t, 0, sizeof(t));
  t.zTitle = zTitle;
  t.nCol = nCol;
  t.nRow = nRow;
  t.azHeader = azHeader;
  t.azCell = azCell;
  t.acAlign = acAlign;
  t.bDefaultFooter = 1;
  rc = sq_print_table(out, &t, o);
out_free:
  free(azHeader);
  free(azCell);
  free(acAlign);
  return rc;
}

/* Prints every row of a PGRES_TUPLES_OK result, as psql does. Returns 0,
** or -1 if out of memory. */
int sq_print_result(FILE *out, const PGresult *res, const sq_popt *o) {
  return sq_print_rows(out, res, NULL, 0, NULL, o);
}
