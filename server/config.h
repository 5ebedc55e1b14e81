/*
** server/config.h — starqd's settings: one table of every setting with
** its flag, bounds and default, read from an optional key = value file
** and then from the command line (flags win).
**
**   starqd --data-dir DIR [--listen ADDR] [--port N] [--http-port N]
**          [--backend auto|cuda|cpu] [--pinned-budget BYTES]
**          [--device-budget BYTES] [--stride-bytes BYTES] [--max-connections N]
**          [--queries-in-flight N] [--generic-kernels 1|0]
**          [--log-level debug|info|warn|error]
**          [--auth trust-loopback|scram|trust] [--password-file FILE]
**          [--http-listen ADDR] [--authentication-timeout SECONDS]
**          [--log-connections 0|1] [--log-min-duration-statement MS]
**          [--log-statement none|ddl|mod|all] [--log-format text|json]
**          [--status-sql-literals 0|1] [--ssl-cert FILE --ssl-key FILE]
**          [--http-ssl 0|1]
**          [--config FILE]
**
** The file holds the same names without the dashes, one per line:
** "port = 5433"; '#' starts a comment. Sizes take K, M, G or T suffixes
** (powers of 1024).
**
** INTERFACE ROUTINES
**   daemon_config_default   the defaults
**   daemon_config_parse     file and flags into a config
**   daemon_config_usage     the usage text
**   daemon_config_auth_name the name of an --auth policy
**   daemon_config_in_flight queries at once, the default resolved
*/
#ifndef STARQ_CONFIG_H
#define STARQ_CONFIG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

typedef struct daemon_config daemon_config;
struct daemon_config {
  char zDataDir[PATH_MAX];     /* --data-dir, required */
  char zListen[64];            /* --listen: the address the SQL port binds */
  int iPort;                   /* --port: the SQL port (0: any free port) */
  int iHttpPort;               /* --http-port: the status port (0: any free port) */
  char zBackend[8];            /* --backend: "auto", "cuda" or "cpu" */
  int64_t nPinnedBudget;       /* --pinned-budget bytes; -1: colmem's default */
  int64_t nDeviceBudget;       /* --device-budget bytes; -1: colmem's default */
  int64_t nStrideBytes;        /* --stride-bytes: one stride buffer's bytes (a
                               ** multiple of 4096; a stride holds at least
                               ** 4,096 rows of each column it streams);
                               ** -1: the stride pool's default */
  int nMaxConnections;         /* --max-connections: SQL sessions at once */
  int nInFlight;               /* --queries-in-flight: executor threads, and
                               ** the device worker's; 0 (the default): four
                               ** per CPU, at least 4 (daemon_config_in_flight) */
  int bDeviceWorker;           /* --device-worker 1|0: queries run in
                               ** starq-worker, replaced after a GPU fault (1,
                               ** the default), or in this process (0) */
  int64_t nBandwidthProbe;     /* --bandwidth-probe bytes: read at start on a
                               ** GPU to measure the zero-copy and device-memory
                               ** floors /status and SHOW starq.last_query
                               ** report; 0: not measured */
  int bDeviceWarm;             /* --device-warm 1|0: once ready, copy the
                               ** columns to device memory in the background,
                               ** within the device budget's free room (1) */
  int bGenericKernels;         /* --generic-kernels 1|0 (old name --jit-tier):
                               ** the default of starq.generic_kernels (1: a
                               ** new query shape's first run takes the
                               ** generic kernels while its own compile in
                               ** the background; 0: it waits for its own) */
  int eLogLevel;               /* --log-level: LOG_LEVEL_* */
  char zImportDir[PATH_MAX];   /* --import-dir: COPY t FROM 'file' reads only
                               ** below it; "" (default): no server files */
  int eAuth;                   /* --auth: a pg_auth_policy (session.h);
                               ** trust-loopback by default */
  char zPasswordFile[PATH_MAX];  /* --password-file: user:verifier lines
                               ** (auth.h); "": none, so no password works */
  char zHttpListen[64];        /* --http-listen: the status port's address
                               ** (127.0.0.1: it needs no login) */
  int secAuthTimeout;          /* --authentication-timeout: a connection not
                               ** logged in by then is closed (PostgreSQL's
                               ** authentication_timeout; 60) */
  int bLogConnections;         /* --log-connections: log each connection,
                               ** login (failed ones too) and disconnection
                               ** with the session's length */
  int msLogMinDuration;        /* --log-min-duration-statement: log
                               ** statements at least this slow, with their
                               ** duration; 0: all; -1 (default): none */
  int eLogStatement;           /* --log-statement: a DAEMON_LOG_STMT_*: which
                               ** statements are logged when they start */
  int eLogFormat;              /* --log-format: LOG_FORMAT_TEXT or _JSON */
  char zSslCert[PATH_MAX];     /* --ssl-cert: the server's certificate chain
                               ** (PEM); with --ssl-key, SSLRequest gets 'S'
                               ** and clients may use TLS; "": no TLS */
  char zSslKey[PATH_MAX];      /* --ssl-key: its private key (PEM) */
  int bHttpSsl;                /* --http-ssl 1: the status port serves HTTPS
                               ** (only) with the same certificate and key */
  int bStatusLiterals;         /* --status-sql-literals: /status and the
                               ** dashboard show statements' literals and
                               ** parameters (0: each is shown as $n/?) */
};

/* --log-statement's values, as PostgreSQL's log_statement. */
#define DAEMON_LOG_STMT_NONE 0
#define DAEMON_LOG_STMT_DDL 1     /* CREATE, DROP, ALTER, TRUNCATE */
#define DAEMON_LOG_STMT_MOD 2     /* and INSERT, UPDATE, DELETE, COPY FROM */
#define DAEMON_LOG_STMT_ALL 3

/* Fills *p with the defaults: 127.0.0.1, 5433, 8433, auto, default
** budgets, 256 connections, queries in flight by the CPUs, info. */
void daemon_config_default(daemon_config *p);

/* The fewest and most queries in flight that --queries-in-flight 0 (the
** default) picks. */
#define DAEMON_IN_FLIGHT_MIN 4
#define DAEMON_IN_FLIGHT_MAX 64
#define DAEMON_IN_FLIGHT_PER_CPU 4

/* Returns the queries p lets run at once: --queries-in-flight, or for 0
** DAEMON_IN_FLIGHT_PER_CPU per online CPU within [DAEMON_IN_FLIGHT_MIN,
** DAEMON_IN_FLIGHT_MAX]. Why by the CPUs: on the GPU each query's host
** work (parse, plan, module lookup, the worker's wire) runs on a thread of
** its own while other queries' kernels keep the device busy, so as many
** queries as the host has cores to do that work overlap there; four left
** the H100 idle 85 % of the time at 64 clients (bench/RESULTS.md). Why
** several per CPU: a thread spends most of a streamed query waiting (for
** its stride, the device, the worker's reply), and statements share a
** scan only while they are in flight: one per core let 16 of 64 clients
** share a pass on the H200. On the CPU backend the kernels share one pool
** and run one at a time, so more threads only let host work overlap it. */
int daemon_config_in_flight(const daemon_config *p);

/* Reads --config FILE (if given) and then every flag of argv[1..argc)
** into *p (which holds the defaults). Returns 0, 1 when --help was asked
** for, or -1 with a message naming the bad flag or line in zErr. */
int daemon_config_parse(daemon_config *p, int argc, char **argv, char *zErr, size_t nErr);

/* The usage text, several lines. */
const char *daemon_config_usage(void);

/* Returns the --auth name of pg_auth_policy eAuth ("trust-loopback", ...). */
const char *daemon_config_auth_name(int eAuth);

/* Internal, for the daemon's other file readers (auth.c): trims white
** space at both ends of z in place and returns it. */
char *config__trim(char *z);

#endif /* STARQ_CONFIG_H */
