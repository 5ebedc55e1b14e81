/*
** bench/nvrtc-threads.c — whether NVRTC compiles programs in parallel:
** one source compiled N times at once on N threads of one process, then
** in N processes, each compile's wall and CPU time printed. The CUDA
** backend compiles a module's programs on threads of the server
** (runtime/cuda-compile.c); if NVRTC serialises them inside a process,
** the threads' wall is about N times one compile while the processes'
** stays about one, and fewer (larger) programs win.
**
**   nvrtc-threads FILE N OPTION...   (OPTIONs: NVRTC's, as the backend's)
**
** Built and run by `bench/device.sh nvrtc-time` (only nvrtc.h is needed,
** no GPU). Every compile gets a global of its own appended, so no cache
** below NVRTC answers for another. NVRTC's start-up is paid before the
** clock starts, in each process.
*/
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NT_MAX 32

static const char *zSrc;
static const char **azOpt;
static int nOpt;
static pthread_barrier_t bar;

static double nt_now(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Compiles zSrc with a global named by iTag appended; prints its times
** (what: "thread" or "process"). Returns 0, or 1 if it did not compile. */
static int nt_compile(const char *zWhat, int iTag) {
  size_t n = strlen(zSrc);
  char *z = malloc(n + 96);
  nvrtcProgram p;
  double t0 = nt_now(CLOCK_MONOTONIC), c0 = nt_now(CLOCK_THREAD_CPUTIME_ID);
  nvrtcResult rc;
  if (z == NULL) return 1;
  memcpy(z, zSrc, n);
  snprintf(z + n, 96, "\n__device__ int nt_nonce_%ld_%d;\n", (long)getpid(), iTag + 1);
  if (nvrtcCreateProgram(&p, z, "query.cu", 0, NULL, NULL) != NVRTC_SUCCESS) {
    free(z);
    return 1;
  }
  rc = nvrtcCompileProgram(p, nOpt, azOpt);
  if (iTag >= 0) {
    printf("  %s %d: wall %6.1f ms, CPU %6.1f ms%s\n", zWhat, iTag,
           (nt_now(CLOCK_MONOTONIC) - t0) * 1e3, (nt_now(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e3,
           rc == NVRTC_SUCCESS ? "" : " (FAILED)");
    fflush(stdout);
  }
  nvrtcDestroyProgram(&p);
  free(z);
  return rc != NVRTC_SUCCESS;
}

static void *nt_thread(void *pArg) {
  pthread_barrier_wait(&bar);
  (void)nt_compile("thread", (int)(long)pArg);
  return NULL;
}

static char *nt_slurp(const char *zPath) {
  FILE *f = fopen(zPath, "rb");
  long n;
  char *z;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
      (z = malloc((size_t)n + 1)) == NULL || fread(z, 1, (size_t)n, f) != (size_t)n) {
    if (f != NULL) fclose(f);
    return NULL;
  }
  fclose(f);
  z[n] = 0;
  return z;
}

int main(int argc, char **argv) {
  pthread_t aT[NT_MAX];
  int aGo[NT_MAX][2], n;
  double t0;
  if (argc < 3 || (n = atoi(argv[2])) < 1 || n > NT_MAX || (zSrc = nt_slurp(argv[1])) == NULL) {
    fprintf(stderr, "usage: nvrtc-threads FILE N(1..%d) OPTION...\n", NT_MAX);
    return 2;
  }
  azOpt = (const char **)argv + 3;
  nOpt = argc - 3;

  /* Threads of this process: started together at a barrier. */
  if (nt_compile("warm", -1) != 0) {
    fprintf(stderr, "nvrtc-threads: %s does not compile with these options\n", argv[1]);
    return 1;
  }
  pthread_barrier_init(&bar, NULL, (unsigned)n + 1);
  for (long i = 0; i < n; i++) pthread_create(&aT[i], NULL, nt_thread, (void *)i);
  t0 = nt_now(CLOCK_MONOTONIC);
  pthread_barrier_wait(&bar);
  for (int i = 0; i < n; i++) pthread_join(aT[i], NULL);
  printf("%d threads of one process: wall %.1f ms\n", n, (nt_now(CLOCK_MONOTONIC) - t0) * 1e3);
  fflush(stdout);

  /* Processes: each warmed up, then all let go at once through a pipe. */
  for (int i = 0; i < n; i++) {
    pid_t pid;
    if (pipe(aGo[i]) != 0 || (pid = fork()) < 0) return 1;
    if (pid == 0) {
      char c;
      close(aGo[i][1]);
      (void)nt_compile("warm", -1);
      if (read(aGo[i][0], &c, 1) != 1) _exit(1);
      _exit(nt_compile("process", i));
    }
    close(aGo[i][0]);
  }
  sleep(2);                         /* every child past its start-up */
  t0 = nt_now(CLOCK_MONOTONIC);
  for (int i = 0; i < n; i++) {
    if (write(aGo[i][1], "g", 1) != 1) return 1;
  }
  for (int i = 0; i < n; i++) wait(NULL);
  printf("%d processes: wall %.1f ms\n", n, (nt_now(CLOCK_MONOTONIC) - t0) * 1e3);
  return 0;
}
