/*
** runtime/cpu-cache.c — the on-disk cache of compiled CPU modules.
**
** Layout: one flat directory (by default $XDG_CACHE_HOME/starq/cpu) with,
** per module, <key>.so (the shared object to dlopen) and <key>.c (the exact
** text compiled: shim and generated source, for reading and debugging).
** The key is the 128-bit hash of the cache format version, the compiler's
** --version text, its flags and that text, so a new compiler, new flags or
** a new shim never picks up a stale object.
**
** Writers never expose a partial file: the source is compiled into a temp
** file of a unique name (tmp-<key>-XXXXXX.so) and renamed over <key>.so,
** which is atomic. Two processes compiling the same module both succeed;
** the second rename replaces an object with an equal one, and a process
** that had already mapped the first keeps it (a rename does not touch an
** open inode).
**
** Readers never dlopen a damaged file. A truncated or corrupted object
** could crash the loader itself (a segment mapped past the end of the file
** faults when touched), so every object carries a trailer that the cache
** checks before dlopen: a magic word, the length of the object before it,
** the key, and the hash of those bytes. An object whose trailer does not
** check out is compiled again and replaced, not trusted. The loader
** ignores bytes past the ELF contents, so the trailer costs nothing.
**
** Temp files of a process killed mid-compile stay behind (tmp-*); the
** whole directory may be deleted whenever no compile is running.
**
** INTERFACE ROUTINES
**   cpu__cache_object   find or build the valid object of a source
*/
#define _GNU_SOURCE
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
#include "../common/hash128.h"
#include "../common/timer.h"
#include "cpuInt.h"

/* Bumped whenever the trailer or the way the text is put together
** changes: it is hashed into every key. */
#define CPU_CACHE_VERSION "starq-cpu-cache 1"

/* The trailer appended to each object: all fields little-endian. */
#define CPU_TRAILER_MAGIC "STARQso1"
#define CPU_TRAILER_SIZE 48
/* A generated module is tens of KiB; anything this large is not ours. */
#define CPU_OBJECT_MAX ((size_t)256 << 20)

/* The line before the generated source: the compiler's diagnostics then
** give line numbers in the source as codegen wrote it. */
#define CPU_SOURCE_LINE "#line 1 \"query.c\"\n"

/* Sets zDir to the cache directory: the option, else the XDG default.
** Returns 0, or -1 with zErr. */
static int cpu__cache_dir(const cpu_options *pOpt, char *zDir, size_t nDir, char *zErr,
                          size_t nErr) {
  const char *zXdg = getenv("XDG_CACHE_HOME");
  const char *zHome = getenv("HOME");
  int n;

  if (pOpt != NULL && pOpt->zCacheDir != NULL) {
    n = snprintf(zDir, nDir, "%s", pOpt->zCacheDir);
  } else if (zXdg != NULL && zXdg[0] == '/') {
    /* The XDG spec says a relative XDG_CACHE_HOME is to be ignored. */
    n = snprintf(zDir, nDir, "%s/starq/cpu", zXdg);
  } else if (zHome != NULL && zHome[0] != 0) {
    n = snprintf(zDir, nDir, "%s/.cache/starq/cpu", zHome);
  } else {
    snprintf(zErr, nErr, "no cache directory for CPU modules: neither XDG_CACHE_HOME nor "
             "HOME is set");
    return -1;
  }
  if (n < 0 || (size_t)n >= nDir - 64) {
    snprintf(zErr, nErr, "cache directory name too long: %s", zDir);
    return -1;
  }
  return fsdir_mkdir_p(zDir, zErr, nErr);
}

/* The text handed to the compiler, and its key. */
typedef struct cpu_text cpu_text;
struct cpu_text {
  char *zKeyed;            /* version, identity, flags, then the text; owned */
  const char *zText;       /* the text itself, inside zKeyed */
  size_t nText;
  hash128 key;
};

/* Builds the compiler's input (shim, then zSource) behind everything else
** the key covers, and hashes it all. Returns 0, or -1 with zErr. */
static int cpu__text_make(cpu_text *t, const char *zSource, const char *zIdentity,
                          char *zErr, size_t nErr) {
  static const char zHead[] = "#define STARQ_CPU 1\n#line 1 \"runtime/cpu-shim.h\"\n";
  size_t nShim = strlen(runtime_cpu_shim), nSource = strlen(zSource), nPre, n;
  char *z;

  nPre = strlen(CPU_CACHE_VERSION) + 1 + strlen(zIdentity) + 1;
  for (int i = 0; cpu__azCcFlags[i] != NULL; i++) nPre += strlen(cpu__azCcFlags[i]) + 1;
  n = nPre + strlen(zHead) + nShim + strlen(CPU_SOURCE_LINE) + nSource;
  z = malloc(n + 1);
  if (z == NULL) {
    snprintf(zErr, nErr, "out of memory for a %zu-byte kernel source", nSource);
    return -1;
  }
  /* Each part ends in a NUL, so no two different lists of parts can
  ** concatenate to the same bytes. */
  n = 0;
  n += (size_t)sprintf(z + n, "%s", CPU_CACHE_VERSION) + 1;
  n += (size_t)sprintf(z + n, "%s", zIdentity) + 1;
  for (int i = 0; cpu__azCcFlags[i] != NULL; i++) {
    n += (size_t)sprintf(z + n, "%s", cpu__azCcFlags[i]) + 1;
  }
  t->zText = z + n;
  n += (size_t)sprintf(z + n, "%s%s%s%s", zHead, runtime_cpu_shim, CPU_SOURCE_LINE, zSource);
  t->zKeyed = z;
  t->nText = n - nPre;
  t->key = hash128_of(z, n, 0);
  return 0;
}

static void cpu__put64(unsigned char *a, uint64_t v) {
  for (int i = 0; i < 8; i++) a[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t cpu__get64(const unsigned char *a) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)a[i] << (8 * i);
  return v;
}

/* Fills a[CPU_TRAILER_SIZE] with the trailer of the nBody-byte object
** pBody under key. */
static void cpu__trailer_make(unsigned char *a, const void *pBody, size_t nBody,
                              hash128 key) {
  hash128 h = hash128_of(pBody, nBody, 0);
  memcpy(a, CPU_TRAILER_MAGIC, 8);
  cpu__put64(a + 8, nBody);
  cpu__put64(a + 16, key.h1);
  cpu__put64(a + 24, key.h2);
  cpu__put64(a + 32, h.h1);
  cpu__put64(a + 40, h.h2);
}

/* Reads all of the open file fd, which fstat says is n bytes, into a new
** buffer. Returns it, or NULL with errno set (EIO if it came out short). */
static unsigned char *cpu__file_read(int fd, size_t n) {
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

/* Checks the object at zPath. Returns 0 if it is whole and belongs to key;
** 1 if it is missing or damaged (zWhy says which); -1 with zErr if it
** could not be read at all. */
static int cpu__object_check(const char *zPath, hash128 key, char *zWhy, size_t nWhy,
                             char *zErr, size_t nErr) {
  unsigned char *a, aWant[CPU_TRAILER_SIZE];
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
  if (!S_ISREG(st.st_mode) || n < CPU_TRAILER_SIZE || n > CPU_OBJECT_MAX) {
    snprintf(zWhy, nWhy, "not a cached object (%zu bytes)", n);
    close(fd);
    return 1;
  }
  a = cpu__file_read(fd, n);
  close(fd);
  if (a == NULL) {
    snprintf(zErr, nErr, "read %s: %s", zPath, strerror(errno));
    return -1;
  }
  cpu__trailer_make(aWant, a, n - CPU_TRAILER_SIZE, key);
  if (memcmp(a + n - CPU_TRAILER_SIZE, aWant, CPU_TRAILER_SIZE) == 0) {
    rc = 0;
  } else if (memcmp(a + n - CPU_TRAILER_SIZE, CPU_TRAILER_MAGIC, 8) != 0) {
    snprintf(zWhy, nWhy, "no trailer (truncated?)");
  } else if (cpu__get64(a + n - CPU_TRAILER_SIZE + 8) != n - CPU_TRAILER_SIZE) {
    snprintf(zWhy, nWhy, "wrong length");
  } else if (memcmp(a + n - CPU_TRAILER_SIZE + 16, aWant + 16, 16) != 0) {
    snprintf(zWhy, nWhy, "made for another key");
  } else {
    snprintf(zWhy, nWhy, "checksum mismatch");
  }
  free(a);
  return rc;
}

/* Appends the trailer to the freshly compiled object zPath. Returns 0, or
** -1 with zErr. */
static int cpu__object_seal(const char *zPath, hash128 key, char *zErr, size_t nErr) {
  unsigned char *a, aTrailer[CPU_TRAILER_SIZE];
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
  if ((size_t)st.st_size > CPU_OBJECT_MAX) {
    snprintf(zErr, nErr, "%s: the compiled module is %lld bytes, over the cache's limit",
             zPath, (long long)st.st_size);
    goto out_close;
  }
  if ((a = cpu__file_read(fd, (size_t)st.st_size)) == NULL) {
    snprintf(zErr, nErr, "read %s: %s", zPath, strerror(errno));
    goto out_close;
  }
  cpu__trailer_make(aTrailer, a, (size_t)st.st_size, key);
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

/* Writes z[0..n) to a new unique file made from the template zPath (which
** ends in nSuffix characters after XXXXXX). Returns 0, or -1 with zErr. */
static int cpu__temp_write(char *zPath, int nSuffix, const char *z, size_t n, char *zErr,
                           size_t nErr) {
  int fd = mkstemps(zPath, nSuffix);
  size_t done = 0;
  if (fd < 0) {
    snprintf(zErr, nErr, "mkstemps %s: %s", zPath, strerror(errno));
    zPath[0] = 0;
    return -1;
  }
  while (done < n) {
    ssize_t w = write(fd, z + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      snprintf(zErr, nErr, "write %s: %s", zPath, strerror(errno));
      close(fd);
      return -1;
    }
    done += (size_t)w;
  }
  if (close(fd) != 0) {
    snprintf(zErr, nErr, "close %s: %s", zPath, strerror(errno));
    return -1;
  }
  return 0;
}

/* Compiles t into the cache as zDir/<zHash>.so (and keeps the text as
** zDir/<zHash>.c). Returns 0, or -1 with zErr. */
static int cpu__object_build(const cpu_text *t, const char *zCompiler, const char *zDir,
                             const char *zHash, char *zErr, size_t nErr) {
  char zTmpC[PATH_MAX], zTmpSo[PATH_MAX], zPath[PATH_MAX];
  int rc = -1;

  zTmpSo[0] = 0;
  snprintf(zTmpC, sizeof(zTmpC), "%s/tmp-%s-XXXXXX.c", zDir, zHash);
  if (cpu__temp_write(zTmpC, 2, t->zText, t->nText, zErr, nErr) != 0) goto out_unlink;
  snprintf(zTmpSo, sizeof(zTmpSo), "%s/tmp-%s-XXXXXX.so", zDir, zHash);
  /* Reserves the object's unique name; the compiler overwrites it. */
  if (cpu__temp_write(zTmpSo, 3, "", 0, zErr, nErr) != 0) goto out_unlink;
  if (cpu__cc_compile(zCompiler, zTmpC, zTmpSo, zErr, nErr) != 0) goto out_unlink;
  if (cpu__object_seal(zTmpSo, t->key, zErr, nErr) != 0) goto out_unlink;

  snprintf(zPath, sizeof(zPath), "%s/%s.c", zDir, zHash);
  if (rename(zTmpC, zPath) != 0) {
    snprintf(zErr, nErr, "rename %s to %s: %s", zTmpC, zPath, strerror(errno));
    goto out_unlink;
  }
  zTmpC[0] = 0;
  snprintf(zPath, sizeof(zPath), "%s/%s.so", zDir, zHash);
  if (rename(zTmpSo, zPath) != 0) {
    snprintf(zErr, nErr, "rename %s to %s: %s", zTmpSo, zPath, strerror(errno));
    goto out_unlink;
  }
  zTmpSo[0] = 0;
  rc = 0;
out_unlink:
  if (zTmpC[0] != 0) unlink(zTmpC);
  if (zTmpSo[0] != 0) unlink(zTmpSo);
  return rc;
}

int cpu__cache_object(const char *zSource, const cpu_options *pOpt, cpu_module_info *pInfo,
                      char *zErr, size_t nErr) {
  const char *zCompiler = pOpt != NULL && pOpt->zCompiler != NULL ? pOpt->zCompiler : "cc";
  char zDir[PATH_MAX];
  char *zIdentity = NULL;
  cpu_text t = {NULL, NULL, 0, {0, 0}};
  double t0;
  int rc = -1, eCheck;

  pInfo->bCacheHit = 0;
  pInfo->rCompileSeconds = 0;
  pInfo->zMiss[0] = 0;
  if (cpu__cache_dir(pOpt, zDir, sizeof(zDir), zErr, nErr) != 0) return -1;
  if (cpu__cc_identity(zCompiler, &zIdentity, zErr, nErr) != 0) return -1;
  if (cpu__text_make(&t, zSource, zIdentity, zErr, nErr) != 0) goto out_free;
  hash128_hex(t.key, pInfo->zHash);
  snprintf(pInfo->zPath, sizeof(pInfo->zPath), "%s/%s.so", zDir, pInfo->zHash);

  eCheck = cpu__object_check(pInfo->zPath, t.key, pInfo->zMiss, sizeof(pInfo->zMiss),
                             zErr, nErr);
  if (eCheck < 0) goto out_free;
  if (eCheck == 0) {
    pInfo->bCacheHit = 1;
    rc = 0;
    goto out_free;
  }
  t0 = timer_now();
  if (cpu__object_build(&t, zCompiler, zDir, pInfo->zHash, zErr, nErr) != 0) goto out_free;
  pInfo->rCompileSeconds = timer_now() - t0;
  rc = 0;
out_free:
  free(t.zKeyed);
  free(zIdentity);
  return rc;
}
