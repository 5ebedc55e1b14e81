/*
** runtime/cpu-module.c — CPU modules: a generated source made into a
** loaded shared object (through the cache of cpu-cache.c), and its kernels
** found by name. Running them is cpu-pool.c's.
**
** The object is opened RTLD_NOW, so a missing symbol is an error here and
** not a crash in the middle of a query, and RTLD_LOCAL, so two modules'
** kernels of the same name never resolve to each other.
**
** Loaded objects are kept in memory (cpu_object), keyed by the source,
** the compiler and the cache directory: the server runs the same few
** query shapes over and over, and finding the object on disk — hashing
** the shim and the source, reading the object back and checking its
** trailer, dlopen and dlclose — was a third of a small query's time
** outside its kernels. A load that finds its object in memory takes a
** reference to it and costs one hash of the source. Each cpu_module is
** one load (its own cpu_module_info: hit or miss, compile time); an
** object stays open while a module uses it, and afterwards until
** CPU_OBJECTS_KEPT more recently used objects push it out.
**
** INTERFACE ROUTINES
**   cpu_module_load      find in memory, or compile or find in the cache, then dlopen
**   cpu_module_find      the same without compiling: a miss returns 1
**   cpu_module_compile   into the disk cache, nothing loaded
**   cpu_module_info_get  hit or miss, compile time, key, path
**   cpu_module_kernel    a kernel by name
**   cpu_module_free      drop the load's reference
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/hash128.h"
#include "../common/strbuf.h"
#include "../common/timer.h"
#include "cpuInt.h"

/* Objects no module uses that stay open for later loads, at most. */
#define CPU_OBJECTS_KEPT 128

/* A loaded shared object. The kernel list grows under mu, since any
** thread may look kernels up; key to xBlockSet are read-only once loaded;
** nRef, iUsed and pNext belong to cpuObjMutex. */
struct cpu_object {
  hash128 key;                 /* cpu_object_key() of what was loaded */
  void *pHandle;               /* from dlopen; closed when evicted */
  cpu_block_set_fn xBlockSet;  /* the shim's starq_cpu__block_set */
  char zHash[33];              /* the disk cache's key, for messages */
  char *zPath;                 /* the file opened; owned */
  pthread_mutex_t mu;          /* guards pKernel */
  cpu_kernel *pKernel;         /* kernels looked up so far; owned */
  int nRef;                    /* modules using it */
  uint64_t iUsed;              /* cpuObjClock when last loaded */
  cpu_object *pNext;           /* in cpuObjList */
};

/* One load of a module: the object it uses and what the load cost. */
struct cpu_module {
  cpu_object *pObj;            /* holds a reference */
  cpu_module_info info;
};

/* Every object loaded by this process and not yet evicted. */
static pthread_mutex_t cpuObjMutex = PTHREAD_MUTEX_INITIALIZER;
static cpu_object *cpuObjList;
static int cpuObjCount;
static uint64_t cpuObjClock;

/* The in-memory key of zSource loaded with pOpt: its hash, and what picks
** the disk cache's object (the compiler as named, the cache directory, or
** the environment that names the default one). Returns 0, or -1 if memory
** ran out. */
static int cpu_object_key(const char *zSource, const cpu_options *pOpt, hash128 *pKey) {
  const char *azPart[4];
  hash128 h = hash128_of(zSource, strlen(zSource), 0);
  strbuf s;
  int rc;
  azPart[0] = pOpt != NULL && pOpt->zCompiler != NULL ? pOpt->zCompiler : "cc";
  azPart[1] = pOpt != NULL && pOpt->zCacheDir != NULL ? pOpt->zCacheDir : "";
  azPart[2] = azPart[1][0] != 0 || getenv("XDG_CACHE_HOME") == NULL ? "" : getenv("XDG_CACHE_HOME");
  azPart[3] = azPart[1][0] != 0 || getenv("HOME") == NULL ? "" : getenv("HOME");
  strbuf_init(&s);
  strbuf_append(&s, (const char *)&h, sizeof(h));
  /* Each part ends in a NUL, so no two lists of parts hash alike. */
  for (int i = 0; i < 4; i++) strbuf_append(&s, azPart[i], strlen(azPart[i]) + 1);
  rc = strbuf_error(&s) ? -1 : 0;
  if (rc == 0) *pKey = hash128_of(s.z, s.n, 0);
  strbuf_free(&s);
  return rc;
}

/* Returns the object of key with a new reference, or NULL. Called with
** cpuObjMutex held. */
static cpu_object *cpu_object_find(hash128 key) {
  for (cpu_object *o = cpuObjList; o != NULL; o = o->pNext) {
    if (o->key.h1 == key.h1 && o->key.h2 == key.h2) {
      o->nRef++;
      o->iUsed = ++cpuObjClock;
      return o;
    }
  }
  return NULL;
}

/* Closes o and frees it and its kernels. */
static void cpu_object_close(cpu_object *o) {
  cpu_kernel *k, *kNext;
  for (k = o->pKernel; k != NULL; k = kNext) {
    kNext = k->pNext;
    free(k);
  }
  pthread_mutex_destroy(&o->mu);
  /* dlclose fails only for a handle that is not open, which ours is. */
  dlclose(o->pHandle);
  free(o->zPath);
  free(o);
}

/* Takes the least recently used unreferenced objects out of the list
** while more than CPU_OBJECTS_KEPT are unreferenced, and returns them
** chained by pNext, to be closed outside the lock. Called with
** cpuObjMutex held. */
static cpu_object *cpu_object_evict(void) {
  cpu_object *pOut = NULL;
  int nIdle = 0;
  for (cpu_object *o = cpuObjList; o != NULL; o = o->pNext) nIdle += o->nRef == 0;
  while (nIdle > CPU_OBJECTS_KEPT) {
    cpu_object **ppOld = NULL, *o;
    for (cpu_object **pp = &cpuObjList; *pp != NULL; pp = &(*pp)->pNext) {
      if ((*pp)->nRef == 0 && (ppOld == NULL || (*pp)->iUsed < (*ppOld)->iUsed)) ppOld = pp;
    }
    o = *ppOld;
    *ppOld = o->pNext;
    cpuObjCount--;
    nIdle--;
    o->pNext = pOut;
    pOut = o;
  }
  return pOut;
}

/* Opens the object pInfo names (made valid by cpu__cache_object) into a
** new cpu_object of key. Returns it, or NULL with zErr. */
static cpu_object *cpu_object_open(const cpu_module_info *pInfo, hash128 key, char *zErr,
                                   size_t nErr) {
  cpu_object *o = calloc(1, sizeof(*o));
  void *pSym;
  if (o == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return NULL;
  }
  o->key = key;
  memcpy(o->zHash, pInfo->zHash, sizeof(o->zHash));
  if ((o->zPath = strdup(pInfo->zPath)) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    goto out_free;
  }
  o->pHandle = dlopen(pInfo->zPath, RTLD_NOW | RTLD_LOCAL);
  if (o->pHandle == NULL) {
    const char *zDl = dlerror();
    snprintf(zErr, nErr, "dlopen %s: %s", pInfo->zPath, zDl ? zDl : "unknown error");
    goto out_free;
  }
  dlerror();
  pSym = dlsym(o->pHandle, CPU_BLOCK_SET_SYMBOL);
  if (pSym == NULL) {
    const char *zDl = dlerror();
    snprintf(zErr, nErr, "%s is not a starq CPU module: %s", pInfo->zPath,
             zDl ? zDl : "no " CPU_BLOCK_SET_SYMBOL);
    goto out_close;
  }
  /* POSIX guarantees that a dlsym result converts to a function pointer. */
  o->xBlockSet = (cpu_block_set_fn)pSym;
  if (pthread_mutex_init(&o->mu, NULL) != 0) {
    snprintf(zErr, nErr, "pthread_mutex_init failed");
    goto out_close;
  }
  return o;

out_close:
  dlclose(o->pHandle);
out_free:
  free(o->zPath);
  free(o);
  return NULL;
}

/* cpu_module_load() (bCompile) or cpu_module_find(). */
static int cpu_module_get(const char *zSource, const cpu_options *pOpt, int bCompile,
                          cpu_module **pp, char *zErr, size_t nErr) {
  double t0 = timer_now();
  cpu_module *p;
  cpu_object *o, *pEvicted;
  hash128 key;
  int rc;

  *pp = NULL;
  p = calloc(1, sizeof(*p));
  if (p == NULL || cpu_object_key(zSource, pOpt, &key) != 0) {
    free(p);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  pthread_mutex_lock(&cpuObjMutex);
  o = cpu_object_find(key);
  pthread_mutex_unlock(&cpuObjMutex);
  if (o != NULL) {
    p->info.bCacheHit = 1;
    memcpy(p->info.zHash, o->zHash, sizeof(o->zHash));
    snprintf(p->info.zPath, sizeof(p->info.zPath), "%s", o->zPath);
  } else {
    cpu_object *pOther;
    if ((rc = cpu__cache_object(zSource, pOpt, bCompile, &p->info, zErr, nErr)) != 0) {
      free(p);
      return rc;
    }
    if ((o = cpu_object_open(&p->info, key, zErr, nErr)) == NULL) {
      free(p);
      return -1;
    }
    pthread_mutex_lock(&cpuObjMutex);
    if ((pOther = cpu_object_find(key)) != NULL) {
      /* Another thread loaded it meanwhile: keep one. */
      pthread_mutex_unlock(&cpuObjMutex);
      cpu_object_close(o);
      o = pOther;
    } else {
      o->nRef = 1;
      o->iUsed = ++cpuObjClock;
      o->pNext = cpuObjList;
      cpuObjList = o;
      cpuObjCount++;
      pthread_mutex_unlock(&cpuObjMutex);
    }
  }
  p->pObj = o;
  p->info.rLoadSeconds = timer_now() - t0;
  pthread_mutex_lock(&cpuObjMutex);
  pEvicted = cpu_object_evict();
  pthread_mutex_unlock(&cpuObjMutex);
  while (pEvicted != NULL) {
    cpu_object *pNext = pEvicted->pNext;
    cpu_object_close(pEvicted);
    pEvicted = pNext;
  }
  *pp = p;
  return 0;
}

int cpu_module_load(const char *zSource, const cpu_options *pOpt, cpu_module **pp,
                    char *zErr, size_t nErr) {
  return cpu_module_get(zSource, pOpt, 1, pp, zErr, nErr);
}

int cpu_module_find(const char *zSource, const cpu_options *pOpt, cpu_module **pp,
                    char *zErr, size_t nErr) {
  return cpu_module_get(zSource, pOpt, 0, pp, zErr, nErr);
}

int cpu_module_compile(const char *zSource, const cpu_options *pOpt, cpu_module_info *pInfo,
                       char *zErr, size_t nErr) {
  double t0 = timer_now();
  int rc;
  memset(pInfo, 0, sizeof(*pInfo));
  rc = cpu__cache_object(zSource, pOpt, 1, pInfo, zErr, nErr);
  pInfo->rLoadSeconds = timer_now() - t0;
  return rc;
}

const cpu_module_info *cpu_module_info_get(const cpu_module *p) {
  return &p->info;
}

/* Returns 1 if z is a C identifier of at most 200 characters: a kernel
** name is pasted into a symbol name, so nothing else can be one. */
static int cpu__name_ok(const char *z) {
  size_t n = strlen(z);
  if (n == 0 || n > 200 || (z[0] >= '0' && z[0] <= '9')) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = z[i];
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9'))) {
      return 0;
    }
  }
  return 1;
}

int cpu_module_kernel(cpu_module *p, const char *zName, cpu_kernel **pp, char *zErr,
                      size_t nErr) {
  char zSym[256];
  cpu_kernel *k;
  void *pSym;
  cpu_object *o = p->pObj;
  int rc = -1;

  *pp = NULL;
  if (!cpu__name_ok(zName)) {
    snprintf(zErr, nErr, "\"%.200s\" cannot be a kernel name", zName);
    return -1;
  }
  pthread_mutex_lock(&o->mu);
  for (k = o->pKernel; k != NULL; k = k->pNext) {
    if (strcmp(k->zName, zName) == 0) {
      *pp = k;
      rc = 0;
      goto out_unlock;
    }
  }
  snprintf(zSym, sizeof(zSym), "%s" CPU_ENTRY_SUFFIX, zName);
  dlerror();
  pSym = dlsym(o->pHandle, zSym);
  if (pSym == NULL) {
    const char *zDl = dlerror();
    snprintf(zErr, nErr, "no kernel %s in module %s (is STARQ_CPU_ENTRY(%s, ...) missing?): %s",
             zName, o->zHash, zName, zDl ? zDl : "null symbol");
    goto out_unlock;
  }
  k = malloc(sizeof(*k) + strlen(zName) + 1);
  if (k == NULL) {
    snprintf(zErr, nErr, "out of memory");
    goto out_unlock;
  }
  k->pObject = o;
  k->xEntry = (cpu_entry_fn)pSym;
  k->xBlockSet = o->xBlockSet;
  memcpy(k->zName, zName, strlen(zName) + 1);
  k->pNext = o->pKernel;
  o->pKernel = k;
  *pp = k;
  rc = 0;
out_unlock:
  pthread_mutex_unlock(&o->mu);
  return rc;
}

void cpu_module_free(cpu_module *p) {
  if (p == NULL) return;
  /* The object stays open for the next load of its source (see above). */
  pthread_mutex_lock(&cpuObjMutex);
  p->pObj->nRef--;
  pthread_mutex_unlock(&cpuObjMutex);
  free(p);
}
