/*
** server/stmt-copybin.c — COPY ... FROM STDIN in PostgreSQL's binary
** format, read as it arrives and turned into the CSV lines the loader
** takes (stmt-copy.c spools them): each field's binary form converted to
** its text by its column's type (pgwire_binary_to_text), quoted, a NULL
** left empty and unquoted.
**
** The format (PostgreSQL's copyfromparse.c): the 11-byte signature, a
** 32-bit flags word (bit 16, OIDs, and any other of the critical low 16
** are refused), a 32-bit header extension length and that many bytes;
** then per row a 16-bit field count and each field as a 32-bit length
** (-1: NULL) and its bytes; and the 16-bit trailer -1. Bytes may be cut
** anywhere between CopyData messages: what does not make a whole row yet
** waits. Errors are PostgreSQL's: 22P04 for the file's shape, 22P03 for
** a value that is not of its column's type.
**
** INTERFACE ROUTINES
**   copybin_new, copybin_free
**   copybin_feed   bytes in, CSV lines out
**   copybin_end    the data ended: was it whole?
*/
#include <stdlib.h>
#include <string.h>

#include "stmt.h"

struct copybin {
  int nField;
  uint32_t *aType;         /* each field's type OID; owned */
  strbuf in;               /* bytes not used yet */
  int bHeader;             /* the header was read */
  int bTrailer;            /* the trailer was read: nothing may follow */
  strbuf val;              /* one value's text */
};

static const unsigned char copybin_signature[11] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff,
                                                    '\r', '\n', 0};

copybin *copybin_new(int nField, const uint32_t *aType) {
  copybin *b = calloc(1, sizeof(*b));
  if (b == NULL) return NULL;
  if ((b->aType = calloc((size_t)nField + 1, sizeof(uint32_t))) == NULL) {
    free(b);
    return NULL;
  }
  memcpy(b->aType, aType, (size_t)nField * sizeof(uint32_t));
  b->nField = nField;
  strbuf_init(&b->in);
  strbuf_init(&b->val);
  return b;
}

void copybin_free(copybin *b) {
  if (b == NULL) return;
  strbuf_free(&b->in);
  strbuf_free(&b->val);
  free(b->aType);
  free(b);
}

static uint32_t copybin_u32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Reads the header at a[0..n). Returns its length, 0 if more bytes are
** needed, or -1 with zErr. */
static long copybin_header(const unsigned char *a, size_t n, char *zErr, size_t nErr) {
  uint32_t mFlag, nExt;
  if (n < sizeof(copybin_signature)) return 0;
  if (memcmp(a, copybin_signature, sizeof(copybin_signature)) != 0) {
    snprintf(zErr, nErr, "COPY file signature not recognized");
    return -1;
  }
  if (n < 19) return 0;
  mFlag = copybin_u32(a + 11);
  if ((mFlag & 0xFFFF) != 0 || (mFlag & (1u << 16)) != 0) {
    snprintf(zErr, nErr, (mFlag & (1u << 16)) ? "COPY file with OIDs is not supported"
                                               : "unrecognized critical flags in COPY file header");
    return -1;
  }
  nExt = copybin_u32(a + 15);
  if (nExt > 0x7FFFFFFF) {
    snprintf(zErr, nErr, "invalid COPY file header (wrong length)");
    return -1;
  }
  if (n < 19 + (size_t)nExt) return 0;
  return 19 + (long)nExt;
}

/* Appends the CSV line of the row at a[0..n) to out. Returns its length,
** 0 if more bytes are needed, 1 past the trailer (b->bTrailer set), or -1
** with zErr; *pbValue tells a bad value (22P03) from a bad shape. */
static long copybin_row(copybin *b, const unsigned char *a, size_t n, strbuf *out, int *pbValue,
                        char *zErr, size_t nErr) {
  size_t i = 2, iOut = out->n;
  int nField;
  if (n < 2) return 0;
  nField = (int16_t)(a[0] << 8 | a[1]);
  if (nField == -1) {
    b->bTrailer = 1;
    return 2;
  }
  if (nField != b->nField) {
    snprintf(zErr, nErr, "row field count is %d, expected %d", nField, b->nField);
    return -1;
  }
  for (int k = 0; k < nField; k++) {
    int32_t nLen;
    if (n < i + 4) goto more;
    nLen = (int32_t)copybin_u32(a + i);
    i += 4;
    if (k > 0) strbuf_append(out, ",", 1);
    if (nLen == -1) continue;                    /* NULL: empty, unquoted */
    if (nLen < 0) {
      snprintf(zErr, nErr, "invalid field size");
      return -1;
    }
    if (n - i < (size_t)nLen) goto more;
    strbuf_reset(&b->val);
    if (pgwire_binary_to_text(b->aType[k], a + i, (size_t)nLen, &b->val) != 0) {
      *pbValue = 1;
      snprintf(zErr, nErr, "incorrect binary data format in field %d", k + 1);
      return -1;
    }
    i += (size_t)nLen;
    strbuf_append(out, "\"", 1);
    for (size_t c = 0; c < b->val.n; c++) {
      if (b->val.z[c] == '"') strbuf_append(out, "\"", 1);
      strbuf_append(out, b->val.z + c, 1);
    }
    strbuf_append(out, "\"", 1);
  }
  strbuf_append(out, "\n", 1);
  return (long)i;
more:
  out->n = iOut;                                 /* the row again, whole, later */
  return 0;
}

int copybin_feed(copybin *b, const void *p, size_t n, strbuf *out, char *zState, char *zErr,
                 size_t nErr) {
  size_t iUsed = 0;
  int rc = 0;
  strbuf_append(&b->in, p, n);
  if (strbuf_error(&b->in)) {
    snprintf(zState, 6, "53200");
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  for (;;) {
    const unsigned char *a = (const unsigned char *)b->in.z + iUsed;
    size_t nLeft = b->in.n - iUsed;
    int bValue = 0;
    long nUsed;
    if (nLeft == 0) break;
    if (b->bTrailer) {
      snprintf(zState, 6, "22P04");
      snprintf(zErr, nErr, "received copy data after EOF marker");
      rc = -1;
      break;
    }
    nUsed = b->bHeader ? copybin_row(b, a, nLeft, out, &bValue, zErr, nErr)
                       : copybin_header(a, nLeft, zErr, nErr);
    if (nUsed < 0) {
      snprintf(zState, 6, "%s", bValue ? "22P03" : "22P04");
      rc = -1;
      break;
    }
    if (nUsed == 0) break;
    b->bHeader = 1;
    iUsed += (size_t)nUsed;
  }
  if (iUsed > 0) {                               /* what is not used yet, to the front */
    memmove(b->in.z, b->in.z + iUsed, b->in.n - iUsed);
    b->in.n -= iUsed;
  }
  return rc;
}

int copybin_end(copybin *b, char *zErr, size_t nErr) {
  size_t n = b->in.n;
  if (n == 0 && (b->bTrailer || b->bHeader)) return 0;
  /* PostgreSQL's words for a header cut short, part by part. */
  snprintf(zErr, nErr, "%s",
           b->bHeader ? "unexpected EOF in COPY data"
           : n < sizeof(copybin_signature) ? "COPY file signature not recognized"
           : n < 15                        ? "invalid COPY file header (missing flags)"
           : n < 19                        ? "invalid COPY file header (missing length)"
                                           : "invalid COPY file header (wrong length)");
  return -1;
}
