/*
** worker/wire-stats.c — the two small messages beside the queries:
** WIRE_CANCEL (the supervisor asks the worker to stop a query) and
** WIRE_STATS (the worker says what its device and column cache hold, for
** the server's /status). Layouts are in wire.h.
**
** INTERFACE ROUTINES
**   wire_cancel_encode / wire_cancel_decode
**   wire_stats_encode / wire_stats_decode
*/
#include <string.h>

#include "wire.h"

void wire_cancel_encode(wire_buf *b, uint64_t iId) {
  wire_put_u64(b, iId);
}

int wire_cancel_decode(const unsigned char *a, size_t n, uint64_t *piId, char *zErr, size_t nErr) {
  wire_reader r;
  wire_reader_init(&r, a, n);
  *piId = wire_get_u64(&r, "the id");
  return wire_reader_end(&r, "CANCEL", zErr, nErr);
}

void wire_stats_encode(wire_buf *b, const worker_device *p) {
  int nTable = p->nTable < WORKER_TABLE_MAX ? p->nTable : WORKER_TABLE_MAX;
  wire_put_str(b, p->zDevice, strnlen(p->zDevice, sizeof(p->zDevice) - 1));
  wire_put_u64(b, (uint64_t)p->nMemUsed);
  wire_put_u64(b, (uint64_t)p->nMemTotal);
  wire_put_u64(b, (uint64_t)p->nPinned);
  wire_put_u64(b, (uint64_t)p->nResident);
  wire_put_f64(b, p->bw.rZeroCopy);
  wire_put_f64(b, p->bw.rDevice);
  wire_put_u8(b, (uint8_t)p->eWarm);
  wire_put_u64(b, (uint64_t)p->nWarmDone);
  wire_put_u64(b, (uint64_t)p->nWarmTotal);
  wire_put_u32(b, (uint32_t)(nTable > 0 ? nTable : 0));
  for (int i = 0; i < nTable; i++) {
    wire_put_u64(b, (uint64_t)p->aTable[i].iTable);
    wire_put_u64(b, p->aTable[i].nPinned);
    wire_put_u64(b, p->aTable[i].nResident);
  }
}

/* Reads a byte count that must not be negative. */
static int64_t wire_get_count(wire_reader *r, const char *zField) {
  uint64_t v = wire_get_u64(r, zField);
  if (v > (uint64_t)INT64_MAX) {
    wire_reader_fail(r, "%s is negative", zField);
    return 0;
  }
  return (int64_t)v;
}

/* Reads a bandwidth: finite and not negative. */
static double wire_get_rate(wire_reader *r, const char *zField) {
  double v = wire_get_f64(r, zField);
  if (!(v >= 0 && v < 1e300)) {
    wire_reader_fail(r, "%s is not a bandwidth", zField);
    return 0;
  }
  return v;
}

int wire_stats_decode(const unsigned char *a, size_t n, worker_device *p, char *zErr, size_t nErr) {
  wire_reader r;
  uint32_t nTable;
  memset(p, 0, sizeof(*p));
  wire_reader_init(&r, a, n);
  wire_get_cstr(&r, p->zDevice, sizeof(p->zDevice), "the device");
  p->nMemUsed = wire_get_count(&r, "the memory used");
  p->nMemTotal = wire_get_count(&r, "the memory total");
  p->nPinned = wire_get_count(&r, "the bytes pinned");
  p->nResident = wire_get_count(&r, "the bytes resident");
  p->bw.rZeroCopy = wire_get_rate(&r, "the zero-copy bandwidth");
  p->bw.rDevice = wire_get_rate(&r, "the device bandwidth");
  p->eWarm = wire_get_u8(&r, "the warm-up's state");
  if (!wire_reader_failed(&r) && p->eWarm > COLMEM_WARM_DONE) {
    wire_reader_fail(&r, "warm-up state %d out of range", p->eWarm);
  }
  p->nWarmDone = wire_get_count(&r, "the warm-up's bytes done");
  p->nWarmTotal = wire_get_count(&r, "the warm-up's bytes");
  nTable = wire_get_u32(&r, "the table count");
  if (!wire_reader_failed(&r) && nTable > WORKER_TABLE_MAX) {
    wire_reader_fail(&r, "%u tables, over the limit of %d", nTable, WORKER_TABLE_MAX);
  }
  for (uint32_t i = 0; !wire_reader_failed(&r) && i < nTable; i++) {
    p->aTable[i].iTable = wire_get_count(&r, "a table id");
    p->aTable[i].nPinned = wire_get_u64(&r, "a table's bytes pinned");
    p->aTable[i].nResident = wire_get_u64(&r, "a table's bytes resident");
    p->nTable = (int)i + 1;
  }
  if (wire_reader_end(&r, "STATS", zErr, nErr) != 0) {
    p->nTable = 0;
    return -1;
  }
  return 0;
}
