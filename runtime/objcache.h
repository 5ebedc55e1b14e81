/*
** runtime/objcache.h — what the two module caches share (runtime/ only):
** the cache directory, the trailer that proves a cached file whole, and
** writing a file so that no reader ever sees half of it.
**
** The CPU backend caches shared objects (cpu-cache.c), the CUDA backend
** CUBINs (cuda-cache.c). Both name a file after the 128-bit hash of
** everything that went into it, append a 48-byte trailer (magic, body
** length, key, hash of the body), and check that trailer before using the
** file: a truncated, damaged or foreign file is rebuilt, never trusted.
** Files are written under a unique temp name and renamed into place,
** which is atomic, so concurrent writers of one key both succeed.
**
** INTERFACE ROUTINES
**   objcache_dir          the cache directory (option, XDG, HOME), made if missing
**   objcache_read         read and check a cached file
**   objcache_seal         append the trailer to a file a compiler wrote
**   objcache_temp_write   write bytes to a new unique temp file
**   objcache_put          write body + trailer under its final name, atomically
*/
#ifndef STARQ_OBJCACHE_H
#define STARQ_OBJCACHE_H

#include <stddef.h>

#include "../common/hash128.h"

/* Bytes appended to each cached file. */
#define OBJCACHE_TRAILER_SIZE 48
/* A cached file larger than this is not ours. */
#define OBJCACHE_MAX ((size_t)256 << 20)

/* Sets zDir (nDir bytes) to zOpt if it is not NULL, else to
** $XDG_CACHE_HOME/starq/<zSub>, else $HOME/.cache/starq/<zSub>, and makes
** the directory. Leaves room for a file name after it. Returns 0, or -1
** with zErr. */
int objcache_dir(const char *zOpt, const char *zSub, char *zDir, size_t nDir, char *zErr,
                 size_t nErr);

/* Reads the cached file zPath and checks its trailer against key. Returns
** 0 if it is whole and belongs to key (then, if ppBody is not NULL, *ppBody
** is a malloc'd copy of the body and *pnBody its length); 1 if it is
** missing or damaged (zWhy says which); -1 with zErr if it could not be
** read at all. */
int objcache_read(const char *zPath, hash128 key, unsigned char **ppBody, size_t *pnBody,
                  char *zWhy, size_t nWhy, char *zErr, size_t nErr);

/* Appends the trailer for key to the file zPath, which a compiler has just
** written. Returns 0, or -1 with zErr. */
int objcache_seal(const char *zPath, hash128 key, char *zErr, size_t nErr);

/* Writes z[0..n) to a new unique file made from the template zPath, which
** ends in nSuffix characters after XXXXXX; zPath gets the name (or "" if
** none was made). Returns 0, or -1 with zErr. */
int objcache_temp_write(char *zPath, int nSuffix, const char *z, size_t n, char *zErr,
                        size_t nErr);

/* Stores body[0..n) with its trailer for key as zDir/<zName>, through a
** temp file and a rename. Returns 0, or -1 with zErr. */
int objcache_put(const char *zDir, const char *zName, const void *pBody, size_t n, hash128 key,
                 char *zErr, size_t nErr);

#endif /* STARQ_OBJCACHE_H */
