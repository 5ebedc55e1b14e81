/*
** tests/fuzz/fuzz-wire.c — a libFuzzer target over the device worker's
** wire decoders (worker/wire.h): arbitrary bytes as the body of each
** message the server or the worker reads — ANSWER, QUERY, HELLO, LOST,
** CANCEL, STATS.
** Whatever decodes is used: every cell of a decoded result is printed as
** a client would get it, so a decoder that lets a bad length, code, flag
** or type through shows up as an ASan or UBSan report here.
**
** Built and run by `make fuzz` (and `make test`), seeded from
** tests/fuzz/seeds/wire/: good bodies of each message.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../worker/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData);

static void fuzz_answer(const uint8_t *a, size_t n) {
  exec_result r;
  sql_error e;
  char zErr[512];
  int rc;
  uint64_t iId;
  (void)wire_answer_id(a, n, &iId);
  if (wire_answer_decode(a, n, &rc, &r, &e, zErr, sizeof(zErr)) == 0 && rc == 0) {
    strbuf s;
    strbuf_init(&s);
    for (int64_t i = 0; i < r.nRow; i++) {
      for (int c = 0; c < r.nCol; c++) exec_result_text(&r, i, c, &s);
      strbuf_reset(&s);
    }
    strbuf_free(&s);
  }
  exec_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  char zErr[512], zWhy[WIRE_TEXT_MAX + 1];
  wire_query q;
  wire_hello h;
  uint64_t iId;
  fuzz_answer(aData, nData);
  if (wire_query_decode(aData, nData, &q, zErr, sizeof(zErr)) == 0) {
    /* What a decoded QUERY promises the engine. */
    if (q.req.zSql == NULL || (size_t)q.req.iSelect > strlen(q.req.zSql) ||
        q.req.eKind < ENGINE_SELECT || q.req.eKind > ENGINE_DESCRIBE ||
        (q.req.nParam > 0 && q.req.aParam == NULL)) {
      abort();
    }
    wire_query_free(&q);
  }
  (void)wire_hello_decode(aData, nData, &h, zErr, sizeof(zErr));
  (void)wire_lost_decode(aData, nData, zWhy, sizeof(zWhy), zErr, sizeof(zErr));
  (void)wire_cancel_decode(aData, nData, &iId, zErr, sizeof(zErr));
  {
    static worker_device d;   /* 6 KB: off the fuzzer's stack */
    if (wire_stats_decode(aData, nData, &d, zErr, sizeof(zErr)) == 0 &&
        (d.nTable < 0 || d.nTable > WORKER_TABLE_MAX || d.nMemUsed < 0 ||
         strnlen(d.zDevice, sizeof(d.zDevice)) == sizeof(d.zDevice))) {
      abort();
    }
  }
  return 0;
}
