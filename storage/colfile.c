/*
** storage/colfile.c — column files (store.h): writing one (create, fill by
** row offset or by appending, seal with its header) and mapping one back
** read-only with its header checked.
**
** A file is filled before it has a header: rows go at 64 + row * unit, and
** store_file_seal() writes the 64 header bytes last, so a file whose load
** died halfway has no valid magic and is never mistaken for data. The
** "row" unit of store_file_write_at()/append() is the type's width for
** VALUES, a u64 word for VALIDITY and a byte for DICT (whose writer lives
** in dict.c). Writes are pwrite() loops that finish partial writes and
** retry on EINTR; every return code is checked.
**
** Mapping trusts nothing in the file: the magic, version, kind, type,
** width, reserved bytes and the agreement of nRow, payload size and file
** size are all checked before the caller sees a pointer, and each failure
** says which file and what is wrong with it.
**
** INTERFACE ROUTINES
**   store_file_create, store_file_write_at, store_file_append,
**   store_file_seal, store_file_abort
**   store_map_open, store_map_close, store_file_info
**   store__map_check (storeInt.h)
*/
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/le.h"
#include "store.h"
#include "storeInt.h"

/* Header field offsets (store.h). */
#define HDR_MAGIC 0
#define HDR_VERSION 8
#define HDR_KIND 12
#define HDR_TYPE 16
#define HDR_WIDTH 20
#define HDR_NROW 24
#define HDR_NPAYLOAD 32
#define HDR_ENC 40
#define HDR_RESERVED 44

/* ---- little helpers ------------------------------------------------------ */

static const char *store_kind_name(uint32_t eKind) {
  switch (eKind) {
    case STORE_VALUES: return "values";
    case STORE_VALIDITY: return "validity";
    case STORE_DICT: return "dictionary";
  }
  return "unknown";
}

/* The SQL name of a type id, without modifiers (the header has none). */
static const char *store_type_name(uint32_t eType) {
  switch (eType) {
    case COLTYPE_SMALLINT: return "SMALLINT";
    case COLTYPE_INTEGER: return "INTEGER";
    case COLTYPE_BIGINT: return "BIGINT";
    case COLTYPE_DOUBLE: return "DOUBLE PRECISION";
    case COLTYPE_DECIMAL: return "DECIMAL";
    case COLTYPE_DATE: return "DATE";
    case COLTYPE_TIMESTAMP: return "TIMESTAMP";
    case COLTYPE_TIMESTAMPTZ: return "TIMESTAMPTZ";
    case COLTYPE_CHAR: return "CHAR";
    case COLTYPE_VARCHAR: return "VARCHAR";
    case COLTYPE_TEXT: return "TEXT";
  }
  return NULL;
}

/* Returns the width of type id eType, 0 if it is not one. */
static uint32_t store_type_width(uint32_t eType) {
  coltype t;
  memset(&t, 0, sizeof(t));
  t.eId = (coltype_id)eType;
  return store_type_name(eType) ? (uint32_t)coltype_width(t) : 0;
}

/* Sets *pn to the payload bytes that nRow rows of a file of kind eKind and
** width nWidth take (for DICT, the least: the offsets alone). Returns 0,
** or -1 if that overflows 64 bits. */
static int store_payload_size(uint32_t eKind, uint32_t nWidth, uint64_t nRow,
                              uint64_t *pn) {
  switch (eKind) {
    case STORE_VALUES:
      if (nWidth != 0 && nRow > (UINT64_MAX - STORE_HEADER_SIZE) / nWidth) return -1;
      *pn = nRow * nWidth;
      return 0;
    case STORE_VALIDITY:
      *pn = (nRow / 64 + (nRow % 64 != 0)) * 8;
      return 0;
    case STORE_DICT:
      if (nRow >= (UINT64_MAX - STORE_HEADER_SIZE) / 8) return -1;
      *pn = (nRow + 1) * 8;
      return 0;
  }
  return -1;
}

/* Returns the bytes of one "row" as write_at/append count them. */
static uint64_t store_file_unit(const store_file *f) {
  if (store_enc_packed(f->eEnc)) return 1;     /* colfor.c writes bytes */
  switch (f->eKind) {
    case STORE_VALUES: return f->nWidth;
    case STORE_VALIDITY: return 8;
    case STORE_DICT: return 1;
  }
  return 0;
}

/* Writes all n bytes of a at file offset iOff, finishing partial writes
** and retrying after signals. Returns 0, or -1 with errno set. */
static int store_pwrite_all(int fd, const void *a, uint64_t n, uint64_t iOff) {
  const char *p = a;
  while (n > 0) {
    size_t nChunk = n > (1u << 30) ? (1u << 30) : (size_t)n;
    ssize_t k = pwrite(fd, p, nChunk, (off_t)iOff);
    if (k < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (k == 0) {
      errno = EIO;             /* pwrite made no progress: don't spin */
      return -1;
    }
    p += k;
    n -= (uint64_t)k;
    iOff += (uint64_t)k;
  }
  return 0;
}

/* ---- writing ------------------------------------------------------------- */

int store_file_create(store_file *f, const char *zPath, store_kind eKind,
                      coltype t, char *zErr, size_t nErr) {
  memset(f, 0, sizeof(*f));
  f->fd = -1;
  f->eKind = eKind;
  switch (eKind) {
    case STORE_VALUES:
      f->eType = t.eId;
      f->nWidth = store_type_width(t.eId);
      if (f->nWidth == 0) {
        snprintf(zErr, nErr, "create %s: unknown column type %d", zPath, (int)t.eId);
        return -1;
      }
      break;
    case STORE_VALIDITY:
    case STORE_DICT:
      /* Neither holds typed values; the header records type 0. */
      f->eType = 0;
      break;
    default:
      snprintf(zErr, nErr, "create %s: unknown file kind %d", zPath, (int)eKind);
      return -1;
  }
  f->zPath = strdup(zPath);
  if (f->zPath == NULL) {
    snprintf(zErr, nErr, "create %s: out of memory", zPath);
    return -1;
  }
  f->fd = open(zPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (f->fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    free(f->zPath);
    f->zPath = NULL;
    return -1;
  }
  return 0;
}

int store_file_write_at(store_file *f, uint64_t iRow, const void *a,
                        uint64_t nRow, char *zErr, size_t nErr) {
  uint64_t nUnit = store_file_unit(f);
  uint64_t nLimit = (uint64_t)INT64_MAX - STORE_HEADER_SIZE;

  if (f->fd < 0) {
    snprintf(zErr, nErr, "write %s: the file is not open", f->zPath ? f->zPath : "?");
    return -1;
  }
  /* off_t is signed: keep offset and end inside it. */
  if (nRow > nLimit / nUnit || iRow > nLimit / nUnit
      || iRow * nUnit > nLimit - nRow * nUnit) {
    snprintf(zErr, nErr, "write %s: rows %" PRIu64 "..+%" PRIu64 " are past any file size",
             f->zPath, iRow, nRow);
    return -1;
  }
  if (store_pwrite_all(f->fd, a, nRow * nUnit, STORE_HEADER_SIZE + iRow * nUnit) != 0) {
    snprintf(zErr, nErr, "write %s: %s", f->zPath, strerror(errno));
    return -1;
  }
  return 0;
}

int store_file_append(store_file *f, const void *a, uint64_t nRow,
                      char *zErr, size_t nErr) {
  if (store_file_write_at(f, f->nAppended, a, nRow, zErr, nErr) != 0) return -1;
  f->nAppended += nRow;
  return 0;
}

/* Frees what f owns but leaves the file alone: after it, f holds nothing
** and store_file_abort() is a no-op. */
static void store_file_release(store_file *f) {
  free(f->zPath);
  f->zPath = NULL;
  f->fd = -1;
}

int store_file_seal(store_file *f, uint64_t nRow, uint64_t nPayload, int bSync,
                    char *zErr, size_t nErr) {
  unsigned char aHdr[STORE_HEADER_SIZE];
  uint64_t nLeast;
  int fd = f->fd;

  if (fd < 0) {
    snprintf(zErr, nErr, "seal %s: the file is not open", f->zPath ? f->zPath : "?");
    return -1;
  }
  /* Refuse to write a header that store_map_open() would reject: that is
  ** a caller's bug, and it is better found now than at the next start. */
  if (store_enc_packed(f->eEnc)) {
    /* The directory at least; store_map_open() checks the rest. */
    nLeast = (nRow + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK * STORE_FOR_DIR_BYTES;
  } else if (store_payload_size(f->eKind, f->nWidth, nRow, &nLeast) != 0) {
    nLeast = UINT64_MAX;
  }
  if (nLeast == UINT64_MAX
      || (f->eKind == STORE_DICT || store_enc_packed(f->eEnc) ? nPayload < nLeast
                                                                : nPayload != nLeast)
      || nPayload > (uint64_t)INT64_MAX - STORE_HEADER_SIZE) {
    snprintf(zErr, nErr, "seal %s: %" PRIu64 " %s rows cannot take %" PRIu64
             " payload bytes", f->zPath, nRow, store_kind_name(f->eKind), nPayload);
    goto out_close;
  }

  memset(aHdr, 0, sizeof(aHdr));
  memcpy(aHdr + HDR_MAGIC, STORE_MAGIC, 8);
  le_put(aHdr + HDR_VERSION, STORE_VERSION, 4);
  le_put(aHdr + HDR_KIND, (uint32_t)f->eKind, 4);
  le_put(aHdr + HDR_TYPE, (uint32_t)f->eType, 4);
  le_put(aHdr + HDR_WIDTH, f->eKind == STORE_VALUES ? f->nWidth : 0, 4);
  le_put(aHdr + HDR_NROW, nRow, 8);
  le_put(aHdr + HDR_NPAYLOAD, nPayload, 8);
  le_put(aHdr + HDR_ENC, (uint32_t)f->eEnc, 4);

  if (store_pwrite_all(fd, aHdr, sizeof(aHdr), 0) != 0) {
    snprintf(zErr, nErr, "write %s: %s", f->zPath, strerror(errno));
    goto out_close;
  }
  /* Rows written past nRow (or a file shorter than its payload, which
  ** ftruncate extends with zeros) end up exactly header + payload. */
  if (ftruncate(fd, (off_t)(STORE_HEADER_SIZE + nPayload)) != 0) {
    snprintf(zErr, nErr, "ftruncate %s: %s", f->zPath, strerror(errno));
    goto out_close;
  }
  if (bSync && fsync(fd) != 0) {
    snprintf(zErr, nErr, "fsync %s: %s", f->zPath, strerror(errno));
    goto out_close;
  }
  f->fd = -1;
  if (close(fd) != 0) {
    /* A failed close can be a lost delayed write (NFS): report it. */
    snprintf(zErr, nErr, "close %s: %s", f->zPath, strerror(errno));
    store_file_release(f);
    return -1;
  }
  store_file_release(f);
  return 0;

out_close:
  close(fd);
  store_file_release(f);
  return -1;
}

void store_file_abort(store_file *f) {
  if (f->fd >= 0) close(f->fd);
  if (f->zPath != NULL) unlink(f->zPath);
  store_file_release(f);
}

/* ---- reading ------------------------------------------------------------- */

/* Checks the magic and the format version of the header at p. Returns 0,
** or -1 with zErr set. */
static int store_header_magic(const unsigned char *p, const char *zPath, char *zErr, size_t nErr) {
  uint32_t nVersion;
  if (memcmp(p + HDR_MAGIC, STORE_MAGIC, 8) != 0) {
    snprintf(zErr, nErr, "%s: not a starq column file", zPath);
    return -1;
  }
  nVersion = (uint32_t)le_get(p + HDR_VERSION, 4);
  if (nVersion < STORE_VERSION_MIN || nVersion > STORE_VERSION) {
    snprintf(zErr, nErr, "%s: format version %u, this build reads versions %u to %u", zPath,
             nVersion, STORE_VERSION_MIN, STORE_VERSION);
    return -1;
  }
  return 0;
}

/* Checks the header at p of a file of nFile bytes against what the caller
** expects, fills m's header fields, and returns 0, or -1 with zErr set. */
static int store_header_check(store_map *m, const unsigned char *p, uint64_t nFile,
                              const char *zPath, store_kind eKind, coltype_id eType,
                              char *zErr, size_t nErr) {
  uint32_t eFileKind, eFileType, nWidth, eEnc;
  uint64_t nRow, nPayload, nExpect;

  if (store_header_magic(p, zPath, zErr, nErr) != 0) return -1;
  eFileKind = (uint32_t)le_get(p + HDR_KIND, 4);
  if (eFileKind != (uint32_t)eKind) {
    if (eFileKind < STORE_VALUES || eFileKind > STORE_DICT) {
      snprintf(zErr, nErr, "%s: unknown file kind %u, expected a %s file", zPath,
               eFileKind, store_kind_name(eKind));
    } else {
      snprintf(zErr, nErr, "%s: is a %s file, expected a %s file", zPath,
               store_kind_name(eFileKind), store_kind_name(eKind));
    }
    return -1;
  }
  eFileType = (uint32_t)le_get(p + HDR_TYPE, 4);
  nWidth = (uint32_t)le_get(p + HDR_WIDTH, 4);
  if (eKind == STORE_VALUES) {
    uint32_t nTypeWidth = store_type_width(eFileType);
    if (nTypeWidth == 0) {
      snprintf(zErr, nErr, "%s: unknown column type %u", zPath, eFileType);
      return -1;
    }
    if (eType != 0 && eFileType != (uint32_t)eType) {
      const char *zWant = store_type_name(eType);
      snprintf(zErr, nErr, "%s: holds %s values, expected %s", zPath,
               store_type_name(eFileType), zWant ? zWant : "an unknown type");
      return -1;
    }
    if (nWidth != nTypeWidth) {
      snprintf(zErr, nErr, "%s: %s values are %u bytes wide, the header says %u", zPath,
               store_type_name(eFileType), nTypeWidth, nWidth);
      return -1;
    }
  } else if (eFileType != 0 || nWidth != 0) {
    snprintf(zErr, nErr, "%s: a %s file with type %u and width %u (both must be 0)",
             zPath, store_kind_name(eFileKind), eFileType, nWidth);
    return -1;
  }
  eEnc = (uint32_t)le_get(p + HDR_ENC, 4);
  if (eEnc != STORE_ENC_PLAIN && (eKind != STORE_VALUES || !store_enc_packed((store_enc)eEnc))) {
    snprintf(zErr, nErr, "%s: unknown encoding %u of a %s file", zPath, eEnc,
             store_kind_name(eFileKind));
    return -1;
  }
  if (store_enc_packed((store_enc)eEnc) && !store_for_type_ok((coltype_id)eFileType)) {
    snprintf(zErr, nErr, "%s: %s values cannot be FOR-bitpacked", zPath,
             store_type_name(eFileType));
    return -1;
  }
  if (eEnc == STORE_ENC_FOR_DATE && eFileType != COLTYPE_DATE) {
    snprintf(zErr, nErr, "%s: %s values cannot be stored as day slots (FOR-date)", zPath,
             store_type_name(eFileType));
    return -1;
  }
  for (int i = HDR_RESERVED; i < STORE_HEADER_SIZE; i++) {
    if (p[i] != 0) {
      snprintf(zErr, nErr, "%s: header byte %d is not zero", zPath, i);
      return -1;
    }
  }

  nRow = (uint64_t)le_get(p + HDR_NROW, 8);
  nPayload = (uint64_t)le_get(p + HDR_NPAYLOAD, 8);
  if (store_enc_packed((store_enc)eEnc)) {
    /* The directory at least; store__for_check() checks the words. */
    nExpect = nRow / STORE_FOR_BLOCK + (nRow % STORE_FOR_BLOCK != 0);
    if (nExpect > UINT64_MAX / 64) {
      snprintf(zErr, nErr, "%s: holds %" PRIu64 " rows, past any file size", zPath, nRow);
      return -1;
    }
    nExpect *= STORE_FOR_DIR_BYTES;
  }
  if ((!store_enc_packed((store_enc)eEnc) &&
       store_payload_size(eFileKind, nWidth, nRow, &nExpect) != 0)
      || (eKind == STORE_DICT || store_enc_packed((store_enc)eEnc) ? nPayload < nExpect
                                                                   : nPayload != nExpect)) {
    snprintf(zErr, nErr, "%s: holds %" PRIu64 " rows but its header gives %" PRIu64
             " payload bytes", zPath, nRow, nPayload);
    return -1;
  }
  if (nFile - STORE_HEADER_SIZE != nPayload) {
    snprintf(zErr, nErr, "%s: holds %" PRIu64 " rows but is %" PRIu64 " bytes long"
             " (expected %" PRIu64 ")", zPath, nRow, nFile,
             nPayload <= UINT64_MAX - STORE_HEADER_SIZE ? STORE_HEADER_SIZE + nPayload : 0);
    return -1;
  }
  m->nRow = nRow;
  m->nPayload = nPayload;
  m->nWidth = nWidth;
  m->eType = (coltype_id)eFileType;
  m->eKind = (store_kind)eFileKind;
  m->eEnc = (store_enc)eEnc;
  m->nForDir = store_enc_packed((store_enc)eEnc) ? nExpect : 0;
  return 0;
}

int store__map_check(store_map *m, const void *pFile, uint64_t nFile, const char *zPath,
                     store_kind eKind, coltype_id eType, char *zErr, size_t nErr) {
  const unsigned char *p = pFile;
  if (nFile < STORE_HEADER_SIZE) {
    snprintf(zErr, nErr, "%s: is %" PRIu64 " bytes long, shorter than the %d-byte header "
             "(truncated, or not a starq column file)", zPath, nFile, STORE_HEADER_SIZE);
    return -1;
  }
  if (store_header_check(m, p, nFile, zPath, eKind, eType, zErr, nErr) != 0) return -1;
  if (store_enc_packed(m->eEnc) &&
      store__for_check(m, p + STORE_HEADER_SIZE, zPath, zErr, nErr) != 0) {
    return -1;
  }
  m->aData = p + STORE_HEADER_SIZE;
  return 0;
}

int store_map_open(store_map *m, const char *zPath, store_kind eKind,
                   coltype_id eType, char *zErr, size_t nErr) {
  struct stat st;
  void *p;
  int fd;

  memset(m, 0, sizeof(*m));
  fd = open(zPath, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    return -1;
  }
  if (fstat(fd, &st) != 0) {
    snprintf(zErr, nErr, "fstat %s: %s", zPath, strerror(errno));
    goto out_close_fd;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(zErr, nErr, "%s: not a regular file", zPath);
    goto out_close_fd;
  }
  if (st.st_size < STORE_HEADER_SIZE) {
    snprintf(zErr, nErr, "%s: is %lld bytes long, shorter than the %d-byte header "
             "(truncated, or not a starq column file)", zPath, (long long)st.st_size,
             STORE_HEADER_SIZE);
    goto out_close_fd;
  }
  if ((uint64_t)st.st_size > SIZE_MAX) {
    snprintf(zErr, nErr, "%s: too large to map", zPath);
    goto out_close_fd;
  }
  p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    snprintf(zErr, nErr, "mmap %s: %s", zPath, strerror(errno));
    goto out_close_fd;
  }
  /* The mapping keeps the file; the descriptor is not needed any more. */
  close(fd);
  m->pMap = p;
  m->nMap = (size_t)st.st_size;
  if (store__map_check(m, p, (uint64_t)st.st_size, zPath, eKind, eType, zErr, nErr) != 0) {
    store_map_close(m);
    return -1;
  }
  return 0;

out_close_fd:
  close(fd);
  return -1;
}

void store_map_close(store_map *m) {
  if (m->pMap != NULL) munmap(m->pMap, m->nMap);
  free(m->pPlain);
  memset(m, 0, sizeof(*m));
}

int store_file_info(const char *zPath, store_enc *peEnc, uint64_t *pnPayload, char *zErr,
                    size_t nErr) {
  unsigned char aHdr[STORE_HEADER_SIZE];
  ssize_t k;
  int fd = open(zPath, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    return -1;
  }
  do {
    k = pread(fd, aHdr, sizeof(aHdr), 0);
  } while (k < 0 && errno == EINTR);
  if (k < 0) {
    snprintf(zErr, nErr, "read %s: %s", zPath, strerror(errno));
    close(fd);
    return -1;
  }
  close(fd);
  if (k != STORE_HEADER_SIZE) {
    snprintf(zErr, nErr, "%s: not a starq column file", zPath);
    return -1;
  }
  if (store_header_magic(aHdr, zPath, zErr, nErr) != 0) return -1;
  *peEnc = (store_enc)le_get(aHdr + HDR_ENC, 4);
  *pnPayload = le_get(aHdr + HDR_NPAYLOAD, 8);
  return 0;
}
