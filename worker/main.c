/*
** worker/main.c — starq-worker, the device worker: the one process that
** opens the GPU (or the CPU backend) and runs queries for the server.
** The server's supervisor (worker/supervise.c) starts it with its socket
** on fd 3; it is never started by hand. Why it is a process of its own:
** worker/worker.h.
**
**   starq-worker --data-dir DIR [--backend auto|cuda|cpu] [--queries N]
**                [--cpu-threads N] [--pinned BYTES] [--device BYTES]
**                [--stride BYTES] [--stride-buffers N] [--stride-threads N]
**                [--preload] [--cache-dir DIR] [--bandwidth-probe BYTES]
**                [--spin-us N] [--log-level LEVEL]
**
** Exit statuses: worker.h's WORKER_EXIT_*.
*/
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/cli.h"
#include "../common/log.h"
#include "../common/proc.h"
#include "workerInt.h"

static const char main_zUsage[] =
  "usage: starq-worker --data-dir DIR [options]   (started by the server, on fd 3)\n"
  "\n"
  "The device worker: opens the data directory and the backend, then runs\n"
  "the queries the server sends on its socket (fd 3) until it closes.\n"
  "\n"
  "  --data-dir DIR        the data directory\n"
  "  --backend B           auto (default), cuda or cpu\n"
  "  --queries N           queries run at once, 1 to 1024 (default 4)\n"
  "  --cpu-threads N       CPU backend threads (default: one per CPU)\n"
  "  --pinned BYTES        column bytes pinned in host memory (default: half of it)\n"
  "  --device BYTES        column bytes resident in device memory (default: 60%)\n"
  "  --stride BYTES        bytes of one stride buffer\n"
  "  --stride-buffers N    stride buffers at most\n"
  "  --stride-threads N    stride copier threads\n"
  "  --preload             pin the catalog's columns at start\n"
  "  --warm                once ready, copy the columns to device memory in the\n"
  "                        background (the device budget's free room)\n"
  "  --cache-dir DIR       kernel caches in DIR/cpu and DIR/cuda\n"
  "  --bandwidth-probe BYTES  measure the bandwidth floors over this many bytes\n"
  "                        at start (default 0: not measured)\n"
  "  --spin-us N           the socket's reader polls without sleeping while\n"
  "                        queries run and N microseconds after an answer\n"
  "                        (default 0: never)\n"
  "  --log-level LEVEL     debug, info (default), warn or error\n";

static const cli_prog main_prog = {"starq-worker", main_zUsage};

/* Parses a byte count or a count into *pv (within lo..hi). */
static int main_num(const char *zFlag, const char *z, uint64_t lo, uint64_t hi, int64_t *pv) {
  uint64_t v;
  if (cli_parse_range(z, lo, hi, &v) != 0) {
    return cli_usage_error(&main_prog, "%s must be a whole number from %llu to %llu, not \"%s\"",
                           zFlag, (unsigned long long)lo, (unsigned long long)hi, z);
  }
  *pv = (int64_t)v;
  return 0;
}

/* The server's pid as the worker started (getppid), for the handler. */
static pid_t main_iParent;

/* SIGTERM: the parent-death signal (main_parent_watch), or a signal to
** the whole process group. While the server lives it is the server's to
** act on, and ignored; once the server is gone the worker ends at once,
** and first kills the compilers it runs (cc's process groups:
** common/proc.h), which would otherwise outlive it. */
static void main_on_term(int iSig) {
  (void)iSig;
  if (getppid() == main_iParent) return;
  proc_kill_all();
  _exit(0);
}

/* The worker's life is its socket's: SIGINT and SIGHUP, which a terminal
** or a service manager sends the whole process group, are the server's to
** act on. What the worker starts gets every signal at its default
** (common/proc.h), not these. */
static void main_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = SIG_IGN;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sigaction(SIGPIPE, &sa, NULL);
  sa.sa_handler = main_on_term;
  sigaction(SIGTERM, &sa, NULL);
}

/* Dies with the server: SIGTERM when the thread that started the worker
** ends (the server killed included). The parent may have died before the
** request took effect, so the parent is looked at again after it. Returns
** 0, or -1 when the server is gone already. */
static int main_parent_watch(void) {
  main_iParent = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) {
    perror("starq-worker: prctl(PR_SET_PDEATHSIG)");
    return -1;
  }
  return getppid() == main_iParent && main_iParent != 1 ? 0 : -1;
}

int main(int argc, char **argv) {
  static const struct option aOpt[] = {
    {"data-dir", required_argument, NULL, 'D'},
    {"backend", required_argument, NULL, 'b'},
    {"queries", required_argument, NULL, 'q'},
    {"cpu-threads", required_argument, NULL, 't'},
    {"pinned", required_argument, NULL, 'p'},
    {"device", required_argument, NULL, 'd'},
    {"stride", required_argument, NULL, 's'},
    {"stride-buffers", required_argument, NULL, 'n'},
    {"stride-threads", required_argument, NULL, 'T'},
    {"preload", no_argument, NULL, 'P'},
    {"warm", no_argument, NULL, 'W'},
    {"cache-dir", required_argument, NULL, 'c'},
    {"bandwidth-probe", required_argument, NULL, 'B'},
    {"spin-us", required_argument, NULL, 'S'},
    {"log-level", required_argument, NULL, 'l'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  worker_serve_config cfg;
  struct stat st;
  int64_t v = 0;
  int c, eLevel;
  memset(&cfg, 0, sizeof(cfg));
  cfg.fd = WORKER_FD;
  cfg.zBackend = "auto";
  cfg.nQuery = 4;
  cfg.mem.nPinned = cfg.mem.nDevice = -1;
  cfg.stride.nBufByte = -1;
  cfg.stride.nBufMax = cfg.stride.nThread = -1;
  while ((c = getopt_long(argc, argv, "", aOpt, NULL)) != -1) {
    switch (c) {
      case 'D': cfg.zDataDir = optarg; break;
      case 'b':
        if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "cuda") != 0 && strcmp(optarg, "cpu") != 0) {
          return cli_usage_error(&main_prog, "unknown --backend \"%s\" (auto, cuda or cpu)", optarg);
        }
        cfg.zBackend = optarg;
        break;
      case 'q':
        if (main_num("--queries", optarg, 1, 1024, &v) != 0) return WORKER_EXIT_USAGE;
        cfg.nQuery = (int)v;
        break;
      case 't':
        if (main_num("--cpu-threads", optarg, 1, 4096, &v) != 0) return WORKER_EXIT_USAGE;
        cfg.nCpuThread = (int)v;
        break;
      case 'p':
        if (main_num("--pinned", optarg, 0, INT64_MAX, &cfg.mem.nPinned) != 0) return WORKER_EXIT_USAGE;
        break;
      case 'd':
        if (main_num("--device", optarg, 0, INT64_MAX, &cfg.mem.nDevice) != 0) return WORKER_EXIT_USAGE;
        break;
      case 's':
        if (main_num("--stride", optarg, 4096, INT64_MAX, &cfg.stride.nBufByte) != 0) {
          return WORKER_EXIT_USAGE;
        }
        break;
      case 'n':
        if (main_num("--stride-buffers", optarg, 1, 4096, &v) != 0) return WORKER_EXIT_USAGE;
        cfg.stride.nBufMax = (int)v;
        break;
      case 'T':
        if (main_num("--stride-threads", optarg, 1, 256, &v) != 0) return WORKER_EXIT_USAGE;
        cfg.stride.nThread = (int)v;
        break;
      case 'P': cfg.bPreload = 1; break;
      case 'W': cfg.bWarm = 1; break;
      case 'c': cfg.zCacheDir = optarg; break;
      case 'B':
        if (main_num("--bandwidth-probe", optarg, 0, INT64_MAX, &cfg.nBandwidthProbe) != 0) {
          return WORKER_EXIT_USAGE;
        }
        break;
      case 'S':
        if (main_num("--spin-us", optarg, 0, 1000000, &v) != 0) return WORKER_EXIT_USAGE;
        cfg.nSpinMicros = (int)v;
        break;
      case 'l':
        if ((eLevel = log_level_parse(optarg)) < 0) {
          return cli_usage_error(&main_prog, "unknown --log-level \"%s\"", optarg);
        }
        log_set_level(eLevel);
        break;
      case 'h': fputs(main_zUsage, stdout); return 0;
      default: return cli_usage_error(&main_prog, "unknown option or missing value: \"%s\"",
                                      argv[optind - 1]);
    }
  }
  if (cfg.zDataDir == NULL) return cli_usage_error(&main_prog, "%s", "--data-dir is required");
  if (optind < argc) return cli_usage_error(&main_prog, "unexpected argument \"%s\"", argv[optind]);
  if (fstat(WORKER_FD, &st) != 0 || !S_ISSOCK(st.st_mode)) {
    return cli_usage_error(&main_prog, "%s", "fd 3 is not a socket: starq-worker is started by the "
                           "server (starqd), not by hand");
  }
  /* Nothing the worker starts (the CPU backend's compiler) may hold the
  ** socket open: the supervisor must see it close when the worker dies. */
  if (fcntl(WORKER_FD, F_SETFD, FD_CLOEXEC) != 0) {
    perror("starq-worker: fcntl(F_SETFD)");
    return WORKER_EXIT_START;
  }
  if (main_parent_watch() != 0) return WORKER_EXIT_OK;   /* nobody to serve */
  main_signals();
  return worker__serve(&cfg);
}
