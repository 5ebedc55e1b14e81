/*
** ssb-data/tbl.h — rows as dbgen-format text: fields separated by '|', a
** trailing '|' on every line, no quoting, no trimming.
**
** A row is appended to a growable buffer owned by the caller. Each
** ssb_tbl_* call returns 0, or -1 if memory ran out (the buffer is then
** unchanged and still valid).
*/
#ifndef STARQ_SSB_TBL_H
#define STARQ_SSB_TBL_H

#include <stddef.h>

#include "ssb.h"

typedef struct ssb_buf ssb_buf;
struct ssb_buf {
  char *z;          /* the text; owned, freed by ssb_buf_free() */
  size_t n;         /* bytes used */
  size_t nAlloc;    /* bytes allocated */
};

void ssb_buf_free(ssb_buf *b);

int ssb_tbl_date(ssb_buf *b, const ssb_date *p);
int ssb_tbl_customer(ssb_buf *b, const ssb_customer *p);
int ssb_tbl_supplier(ssb_buf *b, const ssb_supplier *p);
int ssb_tbl_part(ssb_buf *b, const ssb_part *p);
int ssb_tbl_lineorder(ssb_buf *b, const ssb_lineorder *p);

#endif /* STARQ_SSB_TBL_H */
