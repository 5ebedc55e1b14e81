/*
** runtime/cuda-cache.c — the on-disk cache of compiled CUDA modules, so
** that a new process (a restarted server, the next benchmark run) skips
** NVRTC for every query shape it has seen.
**
** Layout: one flat directory (by default $XDG_CACHE_HOME/starq/cuda) with,
** per module, <key>.cubin (or <key>.ptx for a GPU newer than NVRTC: the
** driver compiles that at load) and <key>.cu, the exact text compiled, for
** reading. The key is the 128-bit hash of the cache format, the target
** architecture, the driver's and NVRTC's versions, the compile options,
** the kernel names and the text: a new driver, a new NVRTC or another GPU
** never picks up a stale image.
**
** A cached file's body is its format, the lowered (mangled) name of each
** kernel, then the image:
**
**   u32 CUDA_CACHE_FORMAT ("SQC4")
**   u32 nKernel, then per kernel: u32 length, the name's bytes
**   u64 nImage, the image's bytes
**
** (little-endian), followed by objcache.c's trailer, which is checked
** before anything in the file is believed. The same rules as the CPU cache
** hold: written under a temp name and renamed, damaged files replaced, the
** directory removable whenever no process compiles.
**
** Versions: CUDA_CACHE_VERSION is hashed into every key, so a file another
** layout wrote (format 1 had no format word; formats 2 and 3 several
** images, a module compiled as several NVRTC programs) is never even
** looked up; were one to sit under a current key anyway, its format word
** would not match, and it is a miss ("cache format N"), compiled again
** and replaced — never parsed as this layout.
**
** INTERFACE ROUTINES
**   cuda__module_key    the cache key of a module
**   cuda__cache_get     a cached image and its lowered names
**   cuda__cache_put     store them
**   cuda__image_free
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/le.h"
#include "cudaInt.h"
#include "objcache.h"

/* Bumped whenever the body's layout or the key's parts change; the
** body's first word says its layout. */
#define CUDA_CACHE_VERSION "starq-cuda-cache 4"
#define CUDA_CACHE_FORMAT 0x34435153u /* "SQC4": one image */

/* A name NVRTC lowers a kernel to is short; anything longer is damage. */
#define CUDA_LOWERED_MAX 4096

void cuda__image_free(cuda_image *p) {
  for (int i = 0; p->azLowered != NULL && i < p->nKernel; i++) free(p->azLowered[i]);
  free(p->azLowered);
  free(p->img.p);
  memset(p, 0, sizeof(*p));
}

hash128 cuda__module_key(const cuda_device *d, const char *zText, int nKernel,
                         const char *const *azKernel, const char *const *azOpt, int nOpt) {
  char zHead[256];
  size_t n, nHead, nSource = strlen(zText);
  char *z, *p;
  hash128 h = {0, 0};
  /* Each part ends in a NUL, so no two lists of parts hash the same bytes. */
  nHead = (size_t)snprintf(zHead, sizeof(zHead), "%s%c%s%cdriver %d%cnvrtc %d.%d",
                           CUDA_CACHE_VERSION, 0, d->info.zArch, 0, d->info.iDriver, 0,
                           d->info.iNvrtcMajor, d->info.iNvrtcMinor) + 1;
  n = nHead + nSource + 1;
  for (int i = 0; i < nOpt; i++) n += strlen(azOpt[i]) + 1;
  for (int i = 0; i < nKernel; i++) n += strlen(azKernel[i]) + 1;
  if ((z = malloc(n)) == NULL) {
    /* No memory for the key: CUDA_KEY_NONE, which no lookup finds and
    ** no store writes (cuda__cache_get/put, cuda_module_hit), so the load
    ** compiles. */
    return CUDA_KEY_NONE;
  }
  memcpy(z, zHead, nHead);
  p = z + nHead;
  for (int i = 0; i < nOpt; i++) p += sprintf(p, "%s", azOpt[i]) + 1;
  for (int i = 0; i < nKernel; i++) p += sprintf(p, "%s", azKernel[i]) + 1;
  memcpy(p, zText, nSource + 1);
  h = hash128_of(z, n, 0);
  free(z);
  return h;
}

/* The file name of key's image: <hex>.cubin, or .ptx. */
static void cuda_cache_name(const cuda_device *d, hash128 key, const char *zExt, char *z,
                            size_t n) {
  char zHex[33];
  hash128_hex(key, zHex);
  if (zExt == NULL) zExt = strncmp(d->info.zArch, "compute_", 8) == 0 ? "ptx" : "cubin";
  snprintf(z, n, "%s.%s", zHex, zExt);
}

/* Parses a body into p. Returns 0, or 1 with zWhy when it is malformed
** (a file can pass its trailer and still be from a buggy writer) or of
** another format. */
static int cuda_body_parse(const unsigned char *a, size_t n, int nKernel, cuda_image *p,
                           char *zWhy, size_t nWhy) {
  size_t off = 8;
  uint64_t nImage, iFormat;
  if (n < 4 || (iFormat = le_get(a, 4)) != CUDA_CACHE_FORMAT) {
    snprintf(zWhy, nWhy, "cache format 0x%llx", n < 4 ? 0ull : (unsigned long long)iFormat);
    return 1;
  }
  if (n < 8 || le_get(a + 4, 4) != (uint64_t)nKernel) {
    snprintf(zWhy, nWhy, "wrong kernel count");
    return 1;
  }
  if ((p->azLowered = calloc((size_t)nKernel + 1, sizeof(char *))) == NULL) goto out_bad;
  p->nKernel = nKernel;
  for (int i = 0; i < nKernel; i++) {
    uint64_t nName;
    if (n - off < 4 || (nName = le_get(a + off, 4)) == 0 || nName > CUDA_LOWERED_MAX ||
        n - off - 4 < nName || (p->azLowered[i] = malloc(nName + 1)) == NULL) {
      goto out_bad;
    }
    memcpy(p->azLowered[i], a + off + 4, nName);
    p->azLowered[i][nName] = 0;
    off += 4 + nName;
  }
  if (n - off < 8 || (nImage = le_get(a + off, 8)) == 0 || nImage > n - off - 8 ||
      (p->img.p = malloc(nImage)) == NULL) {
    goto out_bad;
  }
  memcpy(p->img.p, a + off + 8, nImage);
  p->img.n = nImage;
  off += 8 + nImage;
  if (off != n) goto out_bad;
  return 0;
out_bad:
  cuda__image_free(p);
  snprintf(zWhy, nWhy, "malformed body");
  return 1;
}

int cuda__cache_get(const cuda_device *d, const cuda_src *s, cuda_image *p, char *zWhy,
                    size_t nWhy, char *zErr, size_t nErr) {
  char zName[64], zPath[PATH_MAX];
  unsigned char *a = NULL;
  size_t n = 0;
  int rc;
  memset(p, 0, sizeof(*p));
  if (d->zCacheDir[0] == 0) {
    snprintf(zWhy, nWhy, "no cache directory");
    return 1;
  }
  if (CUDA_KEY_IS_NONE(s->key)) {   /* shared by every keyless text */
    snprintf(zWhy, nWhy, "no key (out of memory)");
    return 1;
  }
  cuda_cache_name(d, s->key, NULL, zName, sizeof(zName));
  snprintf(zPath, sizeof(zPath), "%s/%s", d->zCacheDir, zName);
  rc = objcache_read(zPath, s->key, &a, &n, zWhy, nWhy, zErr, nErr);
  if (rc != 0) return rc;
  rc = cuda_body_parse(a, n, s->nKernel, p, zWhy, nWhy);
  free(a);
  return rc;
}

int cuda__cache_put(const cuda_device *d, const cuda_src *s, const cuda_image *p, char *zErr,
                    size_t nErr) {
  char zName[64], zTmp[PATH_MAX], zPath[PATH_MAX];
  unsigned char *a;
  size_t n = 4 + 4 + 8 + p->img.n, off = 0;
  int rc;
  if (d->zCacheDir[0] == 0) {
    snprintf(zErr, nErr, "no cache directory");
    return -1;
  }
  if (CUDA_KEY_IS_NONE(s->key)) {
    snprintf(zErr, nErr, "no key (out of memory)");
    return -1;
  }
  for (int i = 0; i < p->nKernel; i++) n += 4 + strlen(p->azLowered[i]);
  if ((a = malloc(n)) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  le_put(a, CUDA_CACHE_FORMAT, 4);
  le_put(a + 4, (uint64_t)p->nKernel, 4);
  off = 8;
  for (int i = 0; i < p->nKernel; i++) {
    size_t nName = strlen(p->azLowered[i]);
    le_put(a + off, nName, 4);
    memcpy(a + off + 4, p->azLowered[i], nName);
    off += 4 + nName;
  }
  le_put(a + off, p->img.n, 8);
  memcpy(a + off + 8, p->img.p, p->img.n);
  cuda_cache_name(d, s->key, NULL, zName, sizeof(zName));
  rc = objcache_put(d->zCacheDir, zName, a, n, s->key, zErr, nErr);
  free(a);
  if (rc != 0) return -1;

  /* The text, for people: written after the image, so an image never
  ** lacks it for long; a failure here loses nothing. */
  cuda_cache_name(d, s->key, "cu", zName, sizeof(zName));
  snprintf(zTmp, sizeof(zTmp), "%s/tmp-%s-XXXXXX.cu", d->zCacheDir, zName);
  snprintf(zPath, sizeof(zPath), "%s/%s", d->zCacheDir, zName);
  if (objcache_temp_write(zTmp, 3, s->zText, strlen(s->zText), zErr, nErr) != 0 ||
      rename(zTmp, zPath) != 0) {
    if (zTmp[0] != 0) unlink(zTmp);
  }
  return 0;
}
