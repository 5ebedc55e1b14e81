/*
** common/proc.h — a child program run to its end, or stopped: the system
** C compiler is the one starq runs (runtime/cpu-cc.c), and a compile must
** never outlive the statement, the process or the bounds it was given.
**
** What proc_run guarantees about the child:
**
**   - it leads a process group of its own, so stopping it stops what it
**     started too (cc's cc1, as and ld): SIGKILL goes to the whole group;
**   - every signal is at its default and none is blocked when it starts:
**     a worker that ignores SIGTERM or blocks every signal in a thread
**     passes neither on;
**   - it gets SIGKILL when the thread that started it ends (the process
**     killed included: PR_SET_PDEATHSIG);
**   - its address space and CPU seconds are capped (setrlimit: RLIMIT_AS,
**     RLIMIT_CPU, and no core files), which its own children inherit, so
**     a runaway cc1 ends even where nobody is left to kill it;
**   - it is stopped, group and all, when the caller's cancel flag is set
**     or its wall-clock deadline passes; proc_run then returns at once
**     (within PROC_POLL_MS) with eStop saying why;
**   - stdin is /dev/null, stdout and stderr go into one pipe that is read
**     to its end (the first nOut - 1 bytes kept);
**   - while it runs, its group is in a process-wide table that
**     proc_kill_all() empties with SIGKILL — async-signal-safe, for a
**     signal handler that must leave no compiler behind as the process
**     ends.
**
** The child is started with vfork and execve, as posix_spawn starts one
** (no copy of a large, many-threaded process), with every signal blocked
** in the calling thread across the vfork so that no handler runs in the
** child while it shares the parent's memory.
**
** INTERFACE ROUTINES
**   proc_run        run a program to its end, or stop it
**   proc_kill_all   SIGKILL every process group proc_run has running
**   proc_status_text  a wait status as text
*/
#ifndef STARQ_PROC_H
#define STARQ_PROC_H

#include <stddef.h>
#include <stdint.h>

/* How often a running child's caller looks at its cancel flag and clock. */
#define PROC_POLL_MS 20

/* Why a child was stopped. */
typedef enum proc_stop {
  PROC_STOP_NONE = 0,      /* it ended by itself */
  PROC_STOP_CANCEL,        /* *pbCancel became nonzero */
  PROC_STOP_TIMEOUT,       /* secWall passed */
} proc_stop;

/* One run. The caller fills the inputs; proc_run the outputs. */
typedef struct proc_run_args proc_run_args;
struct proc_run_args {
  /* In */
  char *const *azArgv;     /* the program (looked up on PATH unless it has a
                           ** '/') and its arguments, NULL-terminated */
  double secWall;          /* stop it after this long; <= 0: no deadline */
  int secCpu;              /* RLIMIT_CPU of the child (and its children);
                           ** <= 0: no limit */
  int64_t nAddrBytes;      /* RLIMIT_AS of each process; <= 0: no limit */
  const _Atomic int *pbCancel;  /* nonzero: stop it; NULL: never */
  char *zOut;              /* its stdout and stderr, NUL-terminated ... */
  size_t nOut;             /* ... in at most nOut bytes (nOut >= 1) */
  /* Out */
  int bCut;                /* it wrote more than zOut holds */
  int status;              /* its wait status */
  proc_stop eStop;         /* whether, and why, it was stopped */
};

/* Runs p->azArgv as the header says and waits for it. Returns 0 when it
** ran (p->status, p->eStop and the output filled: a stopped child is
** killed by SIGKILL), or -1 with zErr when it could not be started or
** waited for. */
int proc_run(proc_run_args *p, char *zErr, size_t nErr);

/* Sends SIGKILL to every process group proc_run has running now. Safe in
** a signal handler. */
void proc_kill_all(void);

/* Describes wait status st into z: "exit 1", "killed by signal 9". */
void proc_status_text(int st, char *z, size_t n);

#endif /* STARQ_PROC_H */
