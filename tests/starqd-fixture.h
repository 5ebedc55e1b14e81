/*
** tests/starqd-fixture.h — what the daemon's tests share: SSB data at SF
** 0.01, a starqd child (the ASan build) on free ports with its log in the
** scratch directory, libpq connections to it, and the same SQL run in
** this process through the executor, to compare with.
*/
#ifndef STARQ_TEST_STARQD_FIXTURE_H
#define STARQ_TEST_STARQD_FIXTURE_H

#include <postgresql/libpq-fe.h>

#include "../common/strbuf.h"
#include "../server/executor.h"

typedef struct starqd_proc starqd_proc;
struct starqd_proc {
  int pid;
  int iPort;               /* the SQL port it bound */
  int iHttpPort;           /* the status port */
  char zLog[64];           /* its stderr, in the scratch directory */
};

/* Generates SSB at SF 0.01 into zDir (once per test). */
void starqd_data(const char *zDir);

/* The backend the daemon's tests start it with: STARQ_TEST_BACKEND
** ("cuda" on the GPU machine, bench/device.sh gpu-tests), else "cpu". The
** answers it is compared with are the CPU's, in this process. */
const char *starqd_backend(void);

/* How long starqd_start waits for "ready": generous, for a busy machine. */
#define STARQD_START_SECONDS 120

/* Starts starqd on zData with ports 0 (any free) and the extra flags
** azExtra (NULL-terminated, may be NULL), and waits until it says it is
** ready. Fails the test if it does not within STARQD_START_SECONDS. */
void starqd_start(starqd_proc *p, const char *zData, const char *const *azExtra);

/* Starts starqd like starqd_start, but returns as soon as both ports
** are bound (the log names them), without waiting for it to be ready:
** for tests of the start-up window. */
void starqd_launch(starqd_proc *p, const char *zData, const char *const *azExtra);

/* Starts starqd (bWaitReady: as starqd_start, else as starqd_launch) on
** the tests' mock GPU (tests/mock/cuda-mock.c, through STARQ_LIBCUDA and
** STARQ_LIBNVRTC), whose kernel launches each take msLaunch ms and whose
** driver start takes msInit ms: statements surely running when a cancel,
** a timeout or a shutdown comes; a start-up window to look at. The
** environment is as it was when it returns. */
void starqd_start_mock(starqd_proc *p, const char *zData, int msLaunch, int msInit,
                       int bWaitReady);
/* The same with the flags azExtra, which must name the backend cuda. */
void starqd_start_mock_with(starqd_proc *p, const char *zData, int msLaunch, int msInit,
                            int bWaitReady, const char *const *azExtra);

/* Sends iSig and waits for the exit; returns the exit code (128+signal
** if a signal ended it). */
int starqd_stop(starqd_proc *p, int iSig);

/* Returns what the daemon has logged so far (malloc'd). */
char *starqd_log(const starqd_proc *p);

/* Polls /status until it says nRunning queries run; fails the test if it
** does not within rSeconds. For a test that must act while a query surely
** runs: a sleep is never surely long enough on a busy machine. */
void starqd_wait_running(const starqd_proc *p, int nRunning, double rSeconds);

/* Sends a CancelRequest for the query running on c (sent with
** PQsendQuery) and checks that it ends with 57014; its results are read. */
void starqd_cancel_check(PGconn *c);
/* Connects with libpq; fails the test unless the connection is made. */
PGconn *starqd_connect(const starqd_proc *p);
/* Connects and returns the connection whatever its status. */
PGconn *starqd_connect_any(const starqd_proc *p);
/* The same with conninfo zExtra after the defaults, which it overrides
** ("user=alice password=x host=192.0.2.2"); whatever its status. */
PGconn *starqd_connect_info(const starqd_proc *p, const char *zExtra);

/* Reads one backend message from socket fd (blocking) and appends it
** whole, type byte first, to b. Returns 0, or -1 if the connection ended
** first. */
int starqd_msg_read(int fd, strbuf *b);

/* Opens a raw protocol connection to the SQL port as user starq (trusted
** on loopback), sends the StartupMessage and appends what the server
** says to pIn up to ReadyForQuery, or up to its close after a FATAL.
** Returns the socket (blocking, 10 s receive timeout). */
int starqd_raw_startup(const starqd_proc *p, strbuf *pIn);

/* The same SSB data (SF 0.01) in starqd and in a real PostgreSQL 15
** (tests/pgref.h): generates it (store into "data", tbl into "tbl"),
** starts both and connects to each. */
typedef struct pgref pgref;
void starqd_pgref_start(starqd_proc *d, pgref **ppRef, PGconn **ppPg, PGconn **ppSq);

/* Adds to PostgreSQL the keys starq's SSB schema declares
** (ssb-data/schema.c), which pgref_load_ssb leaves out: the primary keys
** and lineorder's five foreign keys, with PostgreSQL's default names, as
** starq names them. For tests of the catalog's keys. */
void starqd_pgref_keys(pgref *p);

/* Sorts the lines of z[0..n) in place (each ended by '\n', the last
** one too): the rows of a scan, which come in no set order. */
void starqd_lines_sort(char *z, size_t n);

/* Appends every row of res as "v|v|...\n" (NULL as \N) to a malloc'd string. */
char *starqd_result_text(const PGresult *res);

/* Runs zSql through an in-process executor on zData (opened on first
** use) and returns the same text as starqd_result_text; *paType gets the
** column type OIDs (malloc'd) and *pnCol their number. */
char *starqd_expected(const char *zData, const char *zSql, unsigned **paType, int *pnCol);
void starqd_expected_close(void);

/* Runs zSql on c and fails the test unless its rows are what the
** in-process executor on zData answers. */
void starqd_query_check(PGconn *c, const char *zData, const char *zSql);

#endif /* STARQ_TEST_STARQD_FIXTURE_H */
