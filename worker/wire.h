/*
** worker/wire.h — the bytes between the server's supervisor
** (worker/supervise.c) and its device worker (worker/serve.c): frames on a
** stream socket, and the messages in them, written field by field in
** little-endian order so that nothing depends on a struct's layout.
**
** A frame is a 9-byte header, then a body:
**
**   type    1 byte   a wire_type
**   length  8 bytes  the body's bytes (at most WIRE_FRAME_MAX)
**
** The messages (integers little-endian; a "string" is a u32 length and
** that many bytes, no NUL; an f64 is the IEEE-754 bits as a u64):
**
**   WIRE_QUERY   supervisor -> worker: one statement to run, as the
**                server classified it (engine_request)
**                  u64 id, u32 flags (WIRE_OPT_*: exec_options), u64 the
**                  result's memory limit (nResultLimit), u8 kind
**                  (engine_kind), u8 EXPLAIN options (ENGINE_EXPLAIN_*),
**                  u32 where the SELECT begins, string SQL, u32
**                  parameters (at most WIRE_PARAM_MAX), then per
**                  parameter u32 type OID, u8 NULL, string value (when
**                  not NULL); then the session: string user, string
**                  database ("" for none), u32 backend pid, string
**                  settings (name NUL value NUL pairs)
**   WIRE_HELLO   worker -> supervisor, first: it started, or why not
**                  u32 WIRE_VERSION, u32 pid, u8 ok, string text (the
**                  backend as EXPLAIN describes it, or the start error),
**                  i64 bytes preloaded
**   WIRE_ANSWER  worker -> supervisor: a query's outcome
**                  u64 id, u8 status, then an sql_error (status 1) or an
**                  exec_result (status 0) — wire-result.c has the layout
**   WIRE_LOST    worker -> supervisor: the GPU is lost to the worker's
**                  process; it takes no more queries, answers the ones
**                  it holds, and exits with WORKER_EXIT_GPU_LOST
**                  string why (the fault, as the failed query saw it)
**   WIRE_CANCEL  supervisor -> worker: stop query id (if it still runs)
**                  u64 id
**   WIRE_BATCH   worker -> supervisor: rows of a streamed query
**                (WIRE_OPT_STREAM) before its ANSWER, which carries the
**                last of them: u64 id, then an exec_result as ANSWER's
**                status 0 has it (its figures unused)
**   WIRE_CREDIT  supervisor -> worker: one BATCH of query id was taken
**                  u64 id (the worker sends at most WIRE_BATCH_WINDOW
**                  batches ahead of the credits)
**   WIRE_STATS   worker -> supervisor: its device and column cache, after
**                  HELLO and after every ANSWER (worker_device)
**                  string device, i64 memory used, i64 memory total,
**                  i64 pinned, i64 resident, f64 zero-copy bandwidth,
**                  f64 device bandwidth, u8 warm-up state (COLMEM_WARM_*),
**                  u64 warm-up bytes done, u64 of all, u32 tables (at most
**                  WORKER_TABLE_MAX), then per table i64 id, u64 pinned,
**                  u64 resident
**
** Decoding trusts nothing: every count and length is checked against the
** bytes that remain before anything is allocated, every flag and enum
** against its range, and a body must be used up exactly. A bad frame is a
** -1 with a message, never a crash, and never an allocation that the
** bytes actually received do not justify (wire_frame_recv grows its
** buffer as bytes arrive, not to the length the header claims).
**
** INTERFACE ROUTINES
**   wire_buf_*          an outgoing frame, built whole before it is sent
**   wire_frame_send     send one frame (the caller serialises senders)
**   wire_frame_recv     receive one frame
**   wire_fd_wait        wait for one: spin, then sleep
**   wire_reader_*, wire_get_*  read a body, with a sticky error
**   wire_query_encode / _decode
**   wire_hello_encode / _decode
**   wire_lost_encode / _decode
**   wire_cancel_encode / _decode, wire_stats_encode / _decode  (wire-stats.c)
**   wire_answer_encode / _decode / wire_answer_id   (wire-result.c)
*/
#ifndef STARQ_WIRE_H
#define STARQ_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "../runtime/exec.h"
#include "worker.h"

/* The protocol's version, in WIRE_HELLO: a worker binary of another
** version is refused at start. */
#define WIRE_VERSION 11

#define WIRE_HEADER_SIZE 9

/* The longest body accepted (64 GiB): a result past it cannot be carried. */
#define WIRE_FRAME_MAX ((uint64_t)1 << 36)

/* The longest text of HELLO and LOST: encoders cut longer ones. */
#define WIRE_TEXT_MAX 1023

typedef enum wire_type {
  WIRE_QUERY = 1,
  WIRE_HELLO,
  WIRE_ANSWER,
  WIRE_LOST,
  WIRE_CANCEL,
  WIRE_STATS,
  WIRE_BATCH,
  WIRE_CREDIT
} wire_type;
#define WIRE_TYPE_LAST WIRE_CREDIT

/* BATCH frames a worker sends ahead of the supervisor's CREDITs: the
** rows a streamed query holds in the socket and the supervisor. */
#define WIRE_BATCH_WINDOW 2

/* exec_options as WIRE_QUERY's flags. */
#define WIRE_OPT_NO_RESIDENT 0x1u
#define WIRE_OPT_NO_STAGE 0x2u            /* bNoStage */
#define WIRE_OPT_GENERIC_OFF 0x4u         /* eGeneric EXEC_GENERIC_OFF */
#define WIRE_OPT_GENERIC_ALWAYS 0x8u      /* eGeneric EXEC_GENERIC_ALWAYS */
#define WIRE_OPT_STREAM 0x10u            /* pSink: rows in BATCH frames */
#define WIRE_OPT_NO_SHARE 0x20u          /* bNoShare */
#define WIRE_OPT_ALL 0x3fu

/* The most parameters a statement has (PostgreSQL's Bind: a u16 count). */
#define WIRE_PARAM_MAX 65535

/* ---- writing --------------------------------------------------------------- */

/* An outgoing frame. Appends never fail one by one: a failed allocation
** sets bOom and later appends do nothing; wire_frame_send refuses such a
** frame. */
typedef struct wire_buf wire_buf;
struct wire_buf {
  unsigned char *a;        /* the header, then the body; owned */
  size_t n;                /* bytes so far, header included */
  size_t nAlloc;
  int bOom;
};

/* Starts a frame of type eType (its header reserved, filled by send). */
void wire_buf_init(wire_buf *b, wire_type eType);
void wire_buf_free(wire_buf *b);

void wire_put_u8(wire_buf *b, unsigned v);
void wire_put_u32(wire_buf *b, uint32_t v);
void wire_put_u64(wire_buf *b, uint64_t v);
void wire_put_f64(wire_buf *b, double v);
void wire_put_bytes(wire_buf *b, const void *p, size_t n);
/* Appends n bytes for the caller to fill, and returns where they start
** (NULL after a failed allocation: bOom). Valid until the next append. */
unsigned char *wire_put_space(wire_buf *b, size_t n);
/* A string: u32 length, then the bytes. Longer than UINT32_MAX: bOom. */
void wire_put_str(wire_buf *b, const char *z, size_t n);

/* The body written so far (after the header), for decoding in tests. */
static inline const unsigned char *wire_buf_body(const wire_buf *b) { return b->a + WIRE_HEADER_SIZE; }
static inline size_t wire_buf_body_size(const wire_buf *b) { return b->n - WIRE_HEADER_SIZE; }

/* Fills in the header and writes the whole frame to fd (a socket:
** MSG_NOSIGNAL, so a peer gone is EPIPE, not a signal). Not thread-safe
** on one fd: the caller serialises senders, so frames never interleave.
** Returns 0, or -1 with zErr. */
int wire_frame_send(int fd, wire_buf *b, char *zErr, size_t nErr);

/* ---- reading --------------------------------------------------------------- */

/* One received frame. */
typedef struct wire_frame wire_frame;
struct wire_frame {
  wire_type eType;
  unsigned char *a;        /* the body; owned (wire_frame_free) */
  size_t n;
};

/* Reads one frame from fd. Returns 1 with *pf filled, 0 at a clean end
** of stream (the peer closed between frames), or -1 with zErr: a read
** error, an unknown type, a length past WIRE_FRAME_MAX, a frame cut
** short, memory. */
int wire_frame_recv(int fd, wire_frame *pf, char *zErr, size_t nErr);
void wire_frame_free(wire_frame *pf);

/* Waits until fd has bytes to read, its end or an error: polling it
** without sleeping until timer_now() reaches rSpinUntil, then sleeping in
** poll() for up to msWait milliseconds (-1: no limit). Returns 1 when a
** read would not block, 0 when the time ran out, -1 with errno. */
int wire_fd_wait(int fd, double rSpinUntil, int msWait);

/* A body being decoded. The first problem sticks: later reads return 0
** and do nothing, so a decoder checks once where it must (before sizing
** an allocation, and at the end). */
typedef struct wire_reader wire_reader;
struct wire_reader {
  const unsigned char *a;
  size_t n;                /* bytes in a */
  size_t i;                /* bytes read */
  char zErr[256];          /* the first problem; "" while none */
};

void wire_reader_init(wire_reader *r, const unsigned char *a, size_t n);

/* Records a problem (unless one is recorded already). Returns -1. */
int wire_reader_fail(wire_reader *r, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));

/* Returns 1 if the reader failed. */
static inline int wire_reader_failed(const wire_reader *r) { return r->zErr[0] != 0; }

/* Bytes not read yet. */
static inline size_t wire_reader_left(const wire_reader *r) { return r->n - r->i; }

/* Fails the reader unless every byte was read; then returns 0, or -1
** with zErr (what, and the first problem). */
int wire_reader_end(wire_reader *r, const char *zWhat, char *zErr, size_t nErr);

/* Returns n bytes and moves past them, or NULL (failing the reader, which
** names zField) when fewer remain. */
const unsigned char *wire_get_bytes(wire_reader *r, size_t n, const char *zField);
unsigned wire_get_u8(wire_reader *r, const char *zField);
uint32_t wire_get_u32(wire_reader *r, const char *zField);
uint64_t wire_get_u64(wire_reader *r, const char *zField);
double wire_get_f64(wire_reader *r, const char *zField);
/* A u8 that must be 0 or 1. */
int wire_get_bool(wire_reader *r, const char *zField);
/* A string of at most nMax bytes: its bytes (not NUL-terminated) and
** *pn its length; NULL after a problem. */
const char *wire_get_str(wire_reader *r, size_t nMax, size_t *pn, const char *zField);

/* ---- messages -------------------------------------------------------------- */

/* WIRE_QUERY: statement pReq (its options but pbCancel) under id iId. */
void wire_query_encode(wire_buf *b, uint64_t iId, const engine_request *pReq);

/* A decoded WIRE_QUERY: the request, whose text, parameters and values
** are the query's own (freed by wire_query_free). */
typedef struct wire_query wire_query;
struct wire_query {
  uint64_t iId;
  engine_request req;      /* req.opt.pbCancel and pSink NULL */
  int bStream;             /* WIRE_OPT_STREAM: the rows go in BATCH frames */
  char *zSql;              /* req.zSql; owned */
  engine_param *aParam;    /* req.aParam; owned, and each value */
  char *zUser;             /* req.zUser ("" there: NULL); owned */
  char *zDatabase;         /* req.zDatabase, likewise; owned */
  char *pSettings;         /* req.pSettings; owned */
};

/* Decodes a WIRE_QUERY body into *q (text or values with a NUL byte in
** them are refused, and the SELECT's offset must lie in the text).
** Returns 0, or -1 with zErr and *q empty. */
int wire_query_decode(const unsigned char *a, size_t n, wire_query *q, char *zErr, size_t nErr);
void wire_query_free(wire_query *q);

/* WIRE_HELLO's contents. */
typedef struct wire_hello wire_hello;
struct wire_hello {
  uint32_t iVersion;       /* WIRE_VERSION of the worker's build */
  uint32_t iPid;           /* the worker's process id */
  int bOk;                 /* it started and takes queries */
  char zText[WIRE_TEXT_MAX + 1];  /* bOk: its backend described; else why it
                                  ** could not start */
  int64_t nPreloaded;      /* bytes pinned at start (-1: no preload) */
};

void wire_hello_encode(wire_buf *b, const wire_hello *h);
int wire_hello_decode(const unsigned char *a, size_t n, wire_hello *h, char *zErr, size_t nErr);

/* WIRE_LOST. zWhy gets at most nWhy - 1 bytes: a longer text is refused. */
void wire_lost_encode(wire_buf *b, const char *zWhy);
int wire_lost_decode(const unsigned char *a, size_t n, char *zWhy, size_t nWhy, char *zErr,
                     size_t nErr);

/* WIRE_CANCEL, WIRE_CREDIT (the same body) and WIRE_STATS (wire-stats.c). */
void wire_cancel_encode(wire_buf *b, uint64_t iId);
int wire_cancel_decode(const unsigned char *a, size_t n, uint64_t *piId, char *zErr, size_t nErr);
void wire_stats_encode(wire_buf *b, const worker_device *p);
int wire_stats_decode(const unsigned char *a, size_t n, worker_device *p, char *zErr, size_t nErr);

/* Copies a string of the reader into z[nz], NUL-terminated; one with a NUL
** byte inside, or longer than nz - 1, fails the reader. */
void wire_get_cstr(wire_reader *r, char *z, size_t nz, const char *zField);

/* WIRE_ANSWER (wire-result.c). Encodes query iId's outcome: rc 0 and
** *pRes, or rc -1 and *pErr. String columns travel with their strings:
** of a mapped dictionary only the codes the rows use, renumbered densely
** in code order (so code order stays string order). Returns 0, or -1 with
** zErr when the result cannot be encoded (memory, a code outside its
** dictionary): the caller then sends an error answer instead. */
int wire_answer_encode(wire_buf *b, uint64_t iId, int rc, const exec_result *pRes,
                       const sql_error *pErr, char *zErr, size_t nErr);

/* Reads the id of a WIRE_ANSWER body, to find whom it is for. Returns 0,
** or -1 when the body is too short to hold one. */
int wire_answer_id(const unsigned char *a, size_t n, uint64_t *piId);

/* Decodes a WIRE_ANSWER body into *pRc (the query's own return code) and
** *pRes (rc 0: a result whose string columns carry their strings) or
** *pErr (rc -1). Returns 0, or -1 with zErr for a body that does not
** decode; *pRes is then empty. exec_result_free(*pRes) either way. */
int wire_answer_decode(const unsigned char *a, size_t n, int *pRc, exec_result *pRes,
                       sql_error *pErr, char *zErr, size_t nErr);

#endif /* STARQ_WIRE_H */
