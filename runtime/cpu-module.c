/*
** runtime/cpu-module.c — CPU modules: a generated source made into a
** loaded shared object (through the cache of cpu-cache.c), and its kernels
** found by name. Running them is cpu-pool.c's.
**
** The object is opened RTLD_NOW, so a missing symbol is an error here and
** not a crash in the middle of a query, and RTLD_LOCAL, so two modules'
** kernels of the same name never resolve to each other. dlopen counts
** references: two loads of one object in one process share it, and each
** cpu_module_free() drops one.
**
** INTERFACE ROUTINES
**   cpu_module_load      compile or find in the cache, then dlopen
**   cpu_module_info_get  hit or miss, compile time, key, path
**   cpu_module_kernel    a kernel by name
**   cpu_module_free      dlclose and free the kernels
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "cpuInt.h"

/* A loaded module. The kernel list grows under mu, since any thread may
** look kernels up; the rest is read-only once loaded. */
struct cpu_module {
  void *pHandle;               /* from dlopen; closed by cpu_module_free */
  cpu_block_set_fn xBlockSet;  /* the shim's starq_cpu__block_set */
  pthread_mutex_t mu;          /* guards pKernel */
  cpu_kernel *pKernel;         /* kernels looked up so far; owned */
  cpu_module_info info;
};

int cpu_module_load(const char *zSource, const cpu_options *pOpt, cpu_module **pp,
                    char *zErr, size_t nErr) {
  double t0 = timer_now();
  cpu_module *p;
  void *pSym;

  *pp = NULL;
  p = calloc(1, sizeof(*p));
  if (p == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (cpu__cache_object(zSource, pOpt, &p->info, zErr, nErr) != 0) goto out_free;
  p->pHandle = dlopen(p->info.zPath, RTLD_NOW | RTLD_LOCAL);
  if (p->pHandle == NULL) {
    const char *zDl = dlerror();
    snprintf(zErr, nErr, "dlopen %s: %s", p->info.zPath, zDl ? zDl : "unknown error");
    goto out_free;
  }
  dlerror();
  pSym = dlsym(p->pHandle, CPU_BLOCK_SET_SYMBOL);
  if (pSym == NULL) {
    const char *zDl = dlerror();
    snprintf(zErr, nErr, "%s is not a starq CPU module: %s", p->info.zPath,
             zDl ? zDl : "no " CPU_BLOCK_SET_SYMBOL);
    goto out_close;
  }
  /* POSIX guarantees that a dlsym result converts to a function pointer. */
  p->xBlockSet = (cpu_block_set_fn)pSym;
  if (pthread_mutex_init(&p->mu, NULL) != 0) {
    snprintf(zErr, nErr, "pthread_mutex_init failed");
    goto out_close;
  }
  p->info.rLoadSeconds = timer_now() - t0;
  *pp = p;
  return 0;

out_close:
  dlclose(p->pHandle);
out_free:
  free(p);
  return -1;
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
  int rc = -1;

  *pp = NULL;
  if (!cpu__name_ok(zName)) {
    snprintf(zErr, nErr, "\"%.200s\" cannot be a kernel name", zName);
    return -1;
  }
  pthread_mutex_lock(&p->mu);
  for (k = p->pKernel; k != NULL; k = k->pNext) {
    if (strcmp(k->zName, zName) == 0) {
      *pp = k;
      rc = 0;
      goto out_unlock;
    }
  }
  snprintf(zSym, sizeof(zSym), "%s" CPU_ENTRY_SUFFIX, zName);
  dlerror();
  pSym = dlsym(p->pHandle, zSym);
  if (pSym == NULL) {
    const char *zDl = dlerror();
    snprintf(zErr, nErr, "no kernel %s in module %s (is STARQ_CPU_ENTRY(%s, ...) missing?): %s",
             zName, p->info.zHash, zName, zDl ? zDl : "null symbol");
    goto out_unlock;
  }
  k = malloc(sizeof(*k) + strlen(zName) + 1);
  if (k == NULL) {
    snprintf(zErr, nErr, "out of memory");
    goto out_unlock;
  }
  k->pModule = p;
  k->xEntry = (cpu_entry_fn)pSym;
  k->xBlockSet = p->xBlockSet;
  memcpy(k->zName, zName, strlen(zName) + 1);
  k->pNext = p->pKernel;
  p->pKernel = k;
  *pp = k;
  rc = 0;
out_unlock:
  pthread_mutex_unlock(&p->mu);
  return rc;
}

void cpu_module_free(cpu_module *p) {
  cpu_kernel *k, *kNext;
  if (p == NULL) return;
  for (k = p->pKernel; k != NULL; k = kNext) {
    kNext = k->pNext;
    free(k);
  }
  pthread_mutex_destroy(&p->mu);
  /* dlclose fails only for a handle that is not open, which ours is. */
  dlclose(p->pHandle);
  free(p);
}
