/*
** loader/load.h — loading a text file into a table: the loader's one
** public entry point.
**
** The file is mapped, cut into pieces at record boundaries (text.h), the
** pieces parsed into batches on all cores, and the batches appended in
** file order to a new generation of the table (sink.h), which is committed
** at the end. A bad field stops the load with the file, line, column, the
** text found and what was expected, and the table is left as it was.
*/
#ifndef STARQ_LOAD_H
#define STARQ_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "../catalog/catalog.h"
#include "text.h"

typedef struct load_options load_options;
struct load_options {
  load_text_opts text;     /* format, delimiter, quote, header, NULL text */
  int bAppend;             /* add to the table's rows; else replace them */
  int nThread;             /* parsing threads; 0 = all cores */
  int bQuiet;              /* no progress line */
  int bNoCompress;         /* keep a fact table's columns plain (sink.h) */
};

typedef struct load_report load_report;
struct load_report {
  int64_t nRowLoaded;      /* rows read from the file */
  int64_t nRowTable;       /* rows in the table afterwards */
  int64_t nByte;           /* bytes of the file */
  double rSeconds;         /* wall time, commit included */
};

/* Sets *pOpt to the defaults for eFormat: tbl, or csv with ',' and '"',
** no header, all cores, replace. */
void load_options_default(load_options *pOpt, load_format eFormat);

/* Loads zPath into table zTable. Returns 0 and fills *pRep, or -1 with a
** message in zErr (the table unchanged). */
int load_file(cat *pCat, const char *zTable, const char *zPath,
              const load_options *pOpt, load_report *pRep, char *zErr, size_t nErr);

#endif /* STARQ_LOAD_H */
