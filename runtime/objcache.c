/*
** runtime/objcache.c — the file handling both module caches share: where
** the cache lives, the trailer on every cached file, and atomic writes.
** What goes into a key and how a body is made is each backend's
** (cpu-cache.c, cuda-cache.c); see objcache.h for the contract.
**
** The trailer (all fields little-endian): the magic "STARQso1", the body's
** length, the key's two words, and the two words of the body's hash. A
** loader such as dlopen ignores bytes past an ELF file's contents, and the
** CUDA backend hands the driver the body alone, so the trailer costs
** nothing where the file is used.
**
** INTERFACE ROUTINES
**   objcache_dir, objcache_read, objcache_seal, objcache_temp_write, objcache_put
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "../common/le.h"
#include "objcache.h"

#define OBJCACHE_MAGIC "STARQso1"

int objcache_dir(const char *zOpt, const char *zSub, char *zDir, size_t nDir, char *zErr,
                 size_t nErr) {
  const char *zXdg = getenv("XDG_CACHE_HOME");
  const char *zHome = getenv("HOME");
  int n;

  if (zOpt != NULL) {
    n = snprintf(zDir, nDir, "%s", zOpt);
  } else if (zXdg != NULL && zXdg[0] == '/') {
    /* The XDG spec says a relative XDG_CACHE_HOME is to be ignored. */
    n = snprintf(zDir, nDir, "%s/starq/%s", zXdg, zSub);
  } else if (zHome != NULL && zHome[0] != 0) {
    n = snprintf(zDir, nDir, "%s/.cache/starq/%s", zHome, zSub);
  } else {
    char zWhat[16];
    size_t i;
    for (i = 0; zSub[i] != 0 && i + 1 < sizeof(zWhat); i++) {
      zWhat[i] = (char)toupper((unsigned char)zSub[i]);
    }
    zWhat[i] = 0;
    snprintf(zErr, nErr, "no cache directory for %s modules: neither XDG_CACHE_HOME nor "
             "HOME is set", zWhat);
    return -1;
  }
  if (n < 0 || (size_t)n >= nDir - 64) {
    snprintf(zErr, nErr, "cache directory name too long: %s", zDir);
    return -1;
  }
  return fsdir_mkdir_p(zDir, zErr, nErr);
}

/* Fills a[OBJCACHE_TRAILER_SIZE] with the trailer of the nBody-byte body
** pBody under key. */
static void objcache_trailer_make(unsigned char *a, const void *pBody, size_t nBody,
                                  hash128 key) {
  hash128 h = hash128_of(pBody, nBody, 0);
  memcpy(a, OBJCACHE_MAGIC, 8);
  le_put(a + 8, nBody, 8);
  le_put(a + 16, key.h1, 8);
  le_put(a + 24, key.h2, 8);
  le_put(a + 32, h.h1, 8);
  le_put(a + 40, h.h2, 8);
}

/* Reads all of the open file fd, which fstat says is n bytes, into a new
** buffer. Returns it, or NULL with errno set (EIO if it came out short). */
static unsigned char *objcache_fd_read(int fd, size_t n) {
  unsigned char *a = malloc(n ? n : 1);
  size_t got = 0;
  if (a == NULL) return NULL;
  while (got < n) {
    ssize_t r = read(fd, a + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r == 0) errno = EIO;
      free(a);
      return NULL;
    }
    got += (size_t)r;
  }
  return a;
}

int objcache_read(const char *zPath, hash128 key, unsigned char **ppBody, size_t *pnBody,
                  char *zWhy, size_t nWhy, char *zErr, size_t nErr) {
  unsigned char *a, aWant[OBJCACHE_TRAILER_SIZE], *pTrail;
  struct stat st;
  size_t n;
  int fd, rc = 1;

  fd = open(zPath, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    snprintf(zWhy, nWhy, "not in the cache");
    return 1;
  }
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    return -1;
  }
  if (fstat(fd, &st) != 0) {
    snprintf(zErr, nErr, "fstat %s: %s", zPath, strerror(errno));
    close(fd);
    return -1;
  }
  n = (size_t)st.st_size;
  if (!S_ISREG(st.st_mode) || n < OBJCACHE_TRAILER_SIZE || n > OBJCACHE_MAX) {
    snprintf(zWhy, nWhy, "not a cached object (%zu bytes)", n);
    close(fd);
    return 1;
  }
  a = objcache_fd_read(fd, n);
  close(fd);
  if (a == NULL) {
    snprintf(zErr, nErr, "read %s: %s", zPath, strerror(errno));
    return -1;
  }
  pTrail = a + n - OBJCACHE_TRAILER_SIZE;
  objcache_trailer_make(aWant, a, n - OBJCACHE_TRAILER_SIZE, key);
  if (memcmp(pTrail, aWant, OBJCACHE_TRAILER_SIZE) == 0) {
    rc = 0;
  } else if (memcmp(pTrail, OBJCACHE_MAGIC, 8) != 0) {
    snprintf(zWhy, nWhy, "no trailer (truncated?)");
  } else if (le_get(pTrail + 8, 8) != n - OBJCACHE_TRAILER_SIZE) {
    snprintf(zWhy, nWhy, "wrong length");
  } else if (memcmp(pTrail + 16, aWant + 16, 16) != 0) {
    snprintf(zWhy, nWhy, "made for another key");
  } else {
    snprintf(zWhy, nWhy, "checksum mismatch");
  }
  if (rc == 0 && ppBody != NULL) {
    *ppBody = a;
    *pnBody = n - OBJCACHE_TRAILER_SIZE;
  } else {
    free(a);
  }
  return rc;
}

int objcache_seal(const char *zPath, hash128 key, char *zErr, size_t nErr) {
  unsigned char *a, aTrailer[OBJCACHE_TRAILER_SIZE];
  struct stat st;
  int fd, rc = -1;
  ssize_t w;

  fd = open(zPath, O_RDWR | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    return -1;
  }
  if (fstat(fd, &st) != 0) {
    snprintf(zErr, nErr, "fstat %s: %s", zPath, strerror(errno));
    goto out_close;
  }
  if ((size_t)st.st_size > OBJCACHE_MAX) {
    snprintf(zErr, nErr, "%s: the compiled module is %lld bytes, over the cache's limit",
             zPath, (long long)st.st_size);
    goto out_close;
  }
  if ((a = objcache_fd_read(fd, (size_t)st.st_size)) == NULL) {
    snprintf(zErr, nErr, "read %s: %s", zPath, strerror(errno));
    goto out_close;
  }
  objcache_trailer_make(aTrailer, a, (size_t)st.st_size, key);
  free(a);
  do {
    w = write(fd, aTrailer, sizeof(aTrailer));
  } while (w < 0 && errno == EINTR);
  if (w != (ssize_t)sizeof(aTrailer)) {
    snprintf(zErr, nErr, "write %s: %s", zPath, w < 0 ? strerror(errno) : "short write");
    goto out_close;
  }
  rc = 0;
out_close:
  if (close(fd) != 0 && rc == 0) {
    snprintf(zErr, nErr, "close %s: %s", zPath, strerror(errno));
    rc = -1;
  }
  return rc;
}

/* Writes z[0..n) to the open descriptor fd. Returns 0, or -1 with errno. */
static int objcache_fd_write(int fd, const void *z, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(fd, (const char *)z + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -1;
    done += (size_t)w;
  }
  return 0;
}

int objcache_temp_write(char *zPath, int nSuffix, const char *z, size_t n, char *zErr,
                        size_t nErr) {
  int fd = mkstemps(zPath, nSuffix);
  if (fd < 0) {
    snprintf(zErr, nErr, "mkstemps %s: %s", zPath, strerror(errno));
    zPath[0] = 0;
    return -1;
  }
  if (objcache_fd_write(fd, z, n) != 0) {
    snprintf(zErr, nErr, "write %s: %s", zPath, strerror(errno));
    close(fd);
    return -1;
  }
  if (close(fd) != 0) {
    snprintf(zErr, nErr, "close %s: %s", zPath, strerror(errno));
    return -1;
  }
  return 0;
}

int objcache_put(const char *zDir, const char *zName, const void *pBody, size_t n, hash128 key,
                 char *zErr, size_t nErr) {
  char zTmp[PATH_MAX], zPath[PATH_MAX];
  unsigned char aTrailer[OBJCACHE_TRAILER_SIZE];
  int fd;

  if (n > OBJCACHE_MAX) {
    snprintf(zErr, nErr, "%s: %zu bytes, over the cache's limit", zName, n);
    return -1;
  }
  snprintf(zTmp, sizeof(zTmp), "%s/tmp-%s-XXXXXX", zDir, zName);
  snprintf(zPath, sizeof(zPath), "%s/%s", zDir, zName);
  if ((fd = mkstemp(zTmp)) < 0) {
    snprintf(zErr, nErr, "mkstemp %s: %s", zTmp, strerror(errno));
    return -1;
  }
  objcache_trailer_make(aTrailer, pBody, n, key);
  if (objcache_fd_write(fd, pBody, n) != 0 ||
      objcache_fd_write(fd, aTrailer, sizeof(aTrailer)) != 0) {
    snprintf(zErr, nErr, "write %s: %s", zTmp, strerror(errno));
    close(fd);
    goto out_unlink;
  }
  if (close(fd) != 0) {
    snprintf(zErr, nErr, "close %s: %s", zTmp, strerror(errno));
    goto out_unlink;
  }
  if (rename(zTmp, zPath) != 0) {
    snprintf(zErr, nErr, "rename %s to %s: %s", zTmp, zPath, strerror(errno));
    goto out_unlink;
  }
  return 0;
out_unlink:
  unlink(zTmp);
  return -1;
}
