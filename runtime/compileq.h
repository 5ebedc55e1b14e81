/*
** runtime/compileq.h — the background compiler: one thread, at a lower
** priority than the rest of the process, that runs compile jobs one at a
** time, oldest first. Both backends give it the optimized compile of
** every query shape whose first run took the generic kernels instead
** (runtime/README.md, "A new shape's first run"), and the generic
** kernels' own compile when the backend opens; what a job does — NVRTC
** and a module installed on the device, or cc into the CPU backend's disk
** cache — is the caller's (xRun), this queue only orders and runs jobs.
**
** Jobs are named by a key (the module's): a job whose key is queued or
** running already is not queued again. A caller that must have a module
** now and is about to compile it itself first claims its key
** (compileq_claim): a queued job of the key is dropped, a running one is
** waited for, so one shape is never compiled twice at once.
**
** Priority: the thread sets its nice value to COMPILEQ_NICE (Linux keeps
** nice per thread); whatever it starts inherits it — NVRTC's own threads,
** cc's processes — so queries, the event loop and a foreground compile
** take the cores first. Best effort: without it the jobs only compete on
** equal terms.
**
** Lifetimes: a job belongs to the queue from compileq_submit() on, and is
** freed (xFree) by it: after it ran, when it is dropped, or at once when
** its key is queued already. compileq_close() sets the queue's abort flag
** (compileq_abort_flag), which a job that can stop watches — cc does, and
** its caller removes its temp files; NVRTC has no way to stop and runs to
** its end —, drops the queued jobs and joins the thread.
**
** Threads: every call may come from any thread but xRun's own, which must
** not wait on its queue (compileq_wait, compileq_claim of its own key).
**
** INTERFACE ROUTINES
**   compileq_open, compileq_close, compileq_submit, compileq_claim,
**   compileq_wait, compileq_pending, compileq_abort_flag
*/
#ifndef STARQ_COMPILEQ_H
#define STARQ_COMPILEQ_H

#include <stdatomic.h>
#include <stddef.h>

#include "../common/hash128.h"

/* The background compiler's nice value: below the foreground's. */
#define COMPILEQ_NICE 10

typedef struct compileq compileq;
typedef struct compileq_job compileq_job;

/* Runs job j on the queue's thread; frees j. */
typedef void (*compileq_run_fn)(compileq_job *j);
typedef void (*compileq_free_fn)(compileq_job *j);

/* A job: the first member of the caller's own struct, which xRun and
** xFree cast back to. The caller sets key, xRun and xFree; pNext is the
** queue's. */
struct compileq_job {
  hash128 key;             /* what it compiles: one job of a key at a time */
  compileq_run_fn xRun;    /* the compile, on the queue's thread */
  compileq_free_fn xFree;  /* frees the job's struct and what it owns */
  compileq_job *pNext;     /* private: the queue */
};

/* Makes an empty queue; its thread starts with the first job. Returns 0
** with *pp set, or -1 with zErr. */
int compileq_open(compileq **pp, char *zErr, size_t nErr);

/* Stops the running job (through the abort flag: if it watches it, else
** it finishes), drops the queued ones and joins the thread, then frees q.
** NULL is a no-op. */
void compileq_close(compileq *q);

/* Queues j (taken by the queue, whatever the result). Returns 0 — also
** when a job of j's key is queued or running already, or the queue is
** closing: j is then freed at once — or -1 with zErr when the thread
** cannot be started (j freed). */
int compileq_submit(compileq *q, compileq_job *j, char *zErr, size_t nErr);

/* For a caller about to compile key itself: drops a queued job of key and
** returns 0; waits for a running job of key to end and returns 1 (its
** result is in the caller's caches now, unless it failed); returns 0 when
** there is none. While it waits it looks at *pbCancel (NULL: never
** cancelled) every few milliseconds, and returns -1 once it is set: the
** running job goes on, for whoever asks for the shape next. */
int compileq_claim(compileq *q, hash128 key, const _Atomic int *pbCancel);

/* The flag compileq_close() sets before it joins the thread: a job's
** compile watches it (cpu_options.pbCancel) to stop at close. */
const _Atomic int *compileq_abort_flag(compileq *q);

/* Returns when nothing is queued or running: every job submitted so far
** has run or was dropped. For tests and benchmarks that must measure the
** optimized kernels. */
void compileq_wait(compileq *q);

/* Returns 1 if a job of key is queued or running, else 0. */
int compileq_pending(compileq *q, hash128 key);

#endif /* STARQ_COMPILEQ_H */
