/*
** tests/mock/mockInt.h — what the two halves of the mock driver library
** (cuda-mock.c, the driver; nvrtc-mock.c, NVRTC) share: the API's types,
** the way each declares the functions it defines, and the compile count
** that the driver's statistics report.
*/
#ifndef STARQ_MOCK_INT_H
#define STARQ_MOCK_INT_H

#include "../../runtime/cuda-api.h"

/* Declares a function of a cuda-api.h table under its name (the driver
** maps versioned names to their symbols before including this). */
#define MOCK_PROTO(ret, name, sym, params, req) ret name params;

/* The exported test hooks, found with dlsym. */
void starq_cuda_mock_stats(int *pnAlloc, int *pnRegister, int *pnCompile, int *pnLaunch);
void starq_cuda_mock_live(int *pnModule, int *pnStream, int *pnPinned, int *pnContextEnded);
void starq_cuda_mock_fault_launch(int n);

/* Returns how many programs nvrtcCompileProgram has compiled. */
int mock__compiles(void);

#endif /* STARQ_MOCK_INT_H */
