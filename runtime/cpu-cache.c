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
** checks before dlopen (objcache.c: a magic word, the length of the object
** before it, the key, and the hash of those bytes). An object whose
** trailer does not check out is compiled again and replaced, not trusted.
**
** Temp files of a process killed mid-compile stay behind (tmp-*); the
** whole directory may be deleted whenever no compile is running.
**
** INTERFACE ROUTINES
**   cpu__cache_object   find (or build) the valid object of a source
*/
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/hash128.h"
#include "../common/timer.h"
#include "cpuInt.h"
#include "objcache.h"

/* Bumped whenever the trailer or the way the text is put together
** changes: it is hashed into every key. */
#define CPU_CACHE_VERSION "starq-cpu-cache 1"

/* The line before the generated source: the compiler's diagnostics then
** give line numbers in the source as codegen wrote it. */
#define CPU_SOURCE_LINE "#line 1 \"query.c\"\n"

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

/* Compiles t into the cache as zDir/<zHash>.so (and keeps the text as
** zDir/<zHash>.c) within pOpt's bounds. Returns 0, CPU_STOPPED or
** CPU_TIMED_OUT (its temp files removed), or -1 with zErr. */
static int cpu__object_build(const cpu_text *t, const char *zCompiler, const cpu_options *pOpt,
                             const char *zDir, const char *zHash, char *zErr, size_t nErr) {
  char zTmpC[PATH_MAX], zTmpSo[PATH_MAX], zPath[PATH_MAX];
  int rc = -1;

  zTmpSo[0] = 0;
  snprintf(zTmpC, sizeof(zTmpC), "%s/tmp-%s-XXXXXX.c", zDir, zHash);
  if (objcache_temp_write(zTmpC, 2, t->zText, t->nText, zErr, nErr) != 0) goto out_unlink;
  snprintf(zTmpSo, sizeof(zTmpSo), "%s/tmp-%s-XXXXXX.so", zDir, zHash);
  /* Reserves the object's unique name; the compiler overwrites it. */
  if (objcache_temp_write(zTmpSo, 3, "", 0, zErr, nErr) != 0) goto out_unlink;
  if ((rc = cpu__cc_compile(zCompiler, pOpt, zTmpC, zTmpSo, zErr, nErr)) != 0) goto out_unlink;
  rc = -1;
  if (objcache_seal(zTmpSo, t->key, zErr, nErr) != 0) goto out_unlink;

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

int cpu__cache_object(const char *zSource, const cpu_options *pOpt, int bCompile,
                      cpu_module_info *pInfo, char *zErr, size_t nErr) {
  const char *zCompiler = pOpt != NULL && pOpt->zCompiler != NULL ? pOpt->zCompiler : "cc";
  char zDir[PATH_MAX];
  char *zIdentity = NULL;
  cpu_text t = {NULL, NULL, 0, {0, 0}};
  double t0;
  int rc = -1, eCheck;

  pInfo->bCacheHit = 0;
  pInfo->rCompileSeconds = 0;
  pInfo->zMiss[0] = 0;
  if (objcache_dir(pOpt != NULL ? pOpt->zCacheDir : NULL, "cpu", zDir, sizeof(zDir), zErr,
                   nErr) != 0) {
    return -1;
  }
  if (cpu__cc_identity(zCompiler, &zIdentity, zErr, nErr) != 0) return -1;
  if (cpu__text_make(&t, zSource, zIdentity, zErr, nErr) != 0) goto out_free;
  hash128_hex(t.key, pInfo->zHash);
  snprintf(pInfo->zPath, sizeof(pInfo->zPath), "%s/%s.so", zDir, pInfo->zHash);

  eCheck = objcache_read(pInfo->zPath, t.key, NULL, NULL, pInfo->zMiss, sizeof(pInfo->zMiss),
                         zErr, nErr);
  if (eCheck < 0) goto out_free;
  if (eCheck == 0) {
    pInfo->bCacheHit = 1;
    rc = 0;
    goto out_free;
  }
  if (!bCompile) {
    rc = 1;
    goto out_free;
  }
  t0 = timer_now();
  if ((rc = cpu__object_build(&t, zCompiler, pOpt, zDir, pInfo->zHash, zErr, nErr)) != 0) {
    goto out_free;
  }
  pInfo->rCompileSeconds = timer_now() - t0;
  rc = 0;
out_free:
  free(t.zKeyed);
  free(zIdentity);
  return rc;
}
