/*
** tests/devkernel.h — a test kernel compiled on the CPU backend after the
** device-function library (codegen/device.cuh), with threadIdx and blockDim
** made variables (t_sim_tid, t_sim_bdim) so that a kernel can play every
** thread of a GPU block in turn: the layouts a GPU block takes, which the
** CPU backend's one-thread blocks never run, tested on the CPU.
*/
#ifndef STARQ_TEST_DEVKERNEL_H
#define STARQ_TEST_DEVKERNEL_H

#include <stddef.h>

#include "../runtime/cpu.h"

/* Loads the library followed by zKernel (which may use t_sim_tid and
** t_sim_bdim) as a module and finds kernel zName in it. Returns 0, or -1
** with zErr. */
int devkernel_load(const char *zKernel, const char *zName, cpu_module **ppMod,
                   cpu_kernel **ppKernel, char *zErr, size_t nErr);

#endif /* STARQ_TEST_DEVKERNEL_H */
