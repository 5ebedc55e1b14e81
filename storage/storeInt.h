/*
** storage/storeInt.h — what the files of storage/ share with each other and
** with nobody else: the dictionary writer that both store_dict_write()
** (dict.c) and store_strset_write() (strset.c) feed, and the FOR payload
** check that store_map_open() (colfile.c) runs (colfor.c), and the
** whole check of a file's bytes (colfile.c) for the fuzz target.
*/
#ifndef STARQ_STOREINT_H
#define STARQ_STOREINT_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Yields string i (0 <= i < n, asked in increasing i) of a dictionary being
** written: sets *pn to its length and returns its bytes (may be NULL when
** *pn is 0). */
typedef const char *(*store__dict_str_fn)(const void *pArg, uint64_t i, size_t *pn);

/* Writes a dictionary file of n strings taken from xStr in code order,
** checking on the way that each is strictly greater than the one before
** (memcmp order, a prefix first). Returns 0, or -1 with zErr set and no
** file left at zPath. */
int store__dict_write(const char *zPath, uint64_t n, store__dict_str_fn xStr,
                      const void *pArg, int bSync, char *zErr, size_t nErr);

/* Compares a[0..na) with b[0..nb) in memcmp order, a shorter string that
** is a prefix of the other first. Returns <0, 0 or >0. */
int store__str_cmp(const char *a, size_t na, const char *b, size_t nb);

/* Checks the FOR payload of m (header fields set, aData not yet): every
** width fits the type, every offset follows from the widths before it,
** and the words end the payload, so that no row's decode reads past it.
** Returns 0, or -1 with zErr naming zPath and the bad block. */
struct store_map;
int store__for_check(const struct store_map *m, const unsigned char *aPayload, const char *zPath,
                     char *zErr, size_t nErr);

/* Checks the nFile bytes of a column file at pFile as store_map_open()
** does once it has mapped them (header, then a FOR payload's directory
** and words) and fills m's header fields and aData (pointing into pFile;
** pMap is left alone). zPath only names the file in messages. For the
** mapper and the fuzz target (tests/fuzz/fuzz-colfile.c), which feeds it
** arbitrary bytes. Returns 0, or -1 with zErr set. */
int store__map_check(struct store_map *m, const void *pFile, uint64_t nFile, const char *zPath,
                     store_kind eKind, coltype_id eType, char *zErr, size_t nErr);

/* Rows in block b of an nRow-row FOR column. */
uint64_t store__for_block_rows(uint64_t nRow, uint64_t b);

#endif /* STARQ_STOREINT_H */
