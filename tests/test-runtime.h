/*
** tests/test-runtime.h — helpers the CPU backend's tests share
** (test-runtime-cpu.c, test-runtime-cache.c). Each fails the test on any
** error, so a test body reads as the steps it checks.
*/
#ifndef STARQ_TEST_RUNTIME_H
#define STARQ_TEST_RUNTIME_H

#include <stddef.h>

#include "../runtime/cpu.h"

/* Loads tests/data/runtime/test-kernels.cu with the cache in ./cache. */
cpu_module *rt_kernels_load(void);

/* Returns kernel zName of pMod. */
cpu_kernel *rt_kernel(cpu_module *pMod, const char *zName);

/* Returns a new pool of nThread threads (0: one per CPU). */
cpu_pool *rt_pool(int nThread);

/* Runs k on nBlock blocks with nDyn bytes of dynamic shared memory. */
void rt_launch(cpu_pool *pPool, cpu_kernel *k, unsigned nBlock, size_t nDyn,
               const void *pArgs);

#endif /* STARQ_TEST_RUNTIME_H */
