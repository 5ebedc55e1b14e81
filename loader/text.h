/*
** loader/text.h — the two text formats a load reads, split into pieces
** that threads parse in parallel, and parsed into batches.
**
**   tbl  dbgen's format: fields separated by '|', every record ending in
**        '|' before its newline; no header, no quoting, no escaping, and
**        fields are never trimmed. No NULL marker unless one is given.
**   csv  RFC 4180: a delimiter (default ','), a quote (default '"'), ""
**        for a quote inside a quoted field, quoted fields may hold
**        delimiters and newlines; an optional header line, which is
**        skipped. As PostgreSQL's COPY ... CSV: an unquoted empty field is
**        NULL, a quoted empty field ("") is an empty string; zNull makes
**        another unquoted text mean NULL instead.
**
** Both accept "\n" or "\r\n" line ends and a last record without one.
*/
#ifndef STARQ_LOAD_TEXT_H
#define STARQ_LOAD_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "../catalog/catalog.h"
#include "batch.h"

typedef enum load_format { LOAD_TBL = 1, LOAD_CSV = 2 } load_format;

typedef struct load_text_opts load_text_opts;
struct load_text_opts {
  load_format eFormat;
  char cDelim;             /* csv: field delimiter (tbl: always '|') */
  char cQuote;             /* csv: quote character */
  int bHeader;             /* csv: the first record is a header, skipped */
  const char *zNull;       /* text meaning NULL, or NULL for the default */
  int nField;              /* csv: a record's fields when they are not the
                           ** table's columns in order (COPY t (b, a));
                           ** 0: they are */
  const int *aiField;      /* nField entries: the column field k goes to,
                           ** each at most once; a column none names is
                           ** NULL (an error where it is NOT NULL) */
};

/* Where a parse stopped, and why. Filled only when parsing fails. */
typedef struct load_text_error load_text_error;
struct load_text_error {
  size_t iOffset;          /* byte offset of the bad field (or record) */
  int iCol;                /* column ordinal, or -1 for a record-level error */
  char zFound[128];        /* the offending text, cut to fit */
  char zExpected[256];     /* what was expected, in words */
};

/* Cuts z[0..n) into nPiece pieces at record boundaries: sets aBound[0] = 0
** (or the end of the header), aBound[nPiece] = n, and each aBound[i] to
** the start of a record, non-decreasing (pieces may be empty). For csv it
** tracks quotes from the start so a newline inside quotes is never a cut.
** Returns 0, or -1 with *pErr set (csv: a quote left open at the end). */
int load_text_split(const char *z, size_t n, const load_text_opts *pOpt,
                    int nPiece, size_t *aBound, load_text_error *pErr);

/* Parses the records of z[iBegin..iEnd) (a piece from load_text_split) and
** appends them to b, which was set up for table t. Checks every field:
** count per record, NOT NULL, types (common/value.h). Returns 0, or -1 at
** the first bad record with *pErr set; b then holds the rows before it.
** A csv header is skipped by load_text_split() (aBound[0]), never here. */
int load_text_parse(const char *z, size_t iBegin, size_t iEnd,
                    const load_text_opts *pOpt, const cat_table *t,
                    load_batch *b, load_text_error *pErr);

#endif /* STARQ_LOAD_TEXT_H */
