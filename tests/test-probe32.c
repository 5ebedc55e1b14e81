/*
** tests/test-probe32.c — the device library's lookups probed in 32-bit
** arithmetic (codegen/device.cuh: sq_slots_32, and the 32-bit sides of
** sq_probe_array_i32 / u32, sq_probe_bits_i32 / u32 and sq_row_array_*),
** on the CPU, against the 64-bit arithmetic they replace. A key probes
** slot key - kmin when 0 <= key - kmin < nslot; the 32-bit side computes
** (unsigned)key - (unsigned)kmin, which wraps, and is taken only where
** sq_slots_32 says no wrapped difference can land in range. The test
** probes keys at and around both ends of each key type against slot
** ranges placed at those ends (kmin at the type's least and greatest
** value, nslot reaching exactly to the greatest key and one past it, kmin
** outside the type), and checks every item's flag and row against the
** exact difference.
*/
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devkernel.h"
#include "test.h"

/* One call of each probe over SQ_ITEMS keys: flags and rows out, both
** signed (int keys) and unsigned (code keys) forms, and sq_slots_32's
** verdict so that the test knows the 32-bit side ran where expected. */
static const char p32_zKernel[] =
    "struct t_p32_args {\n"
    "  const unsigned *lut; const unsigned *bits; long long kmin; long long nslot;\n"
    "  const int *ikey; const unsigned *ukey; int *flag; unsigned *row; int *n32;\n"
    "};\n"
    "__global__ void t_p32(const struct t_p32_args a) {\n"
    "  int f[SQ_ITEMS];\n"
    "  unsigned r[SQ_ITEMS];\n"
    "  t_sim_bdim.x = 1u;\n"
    "  t_sim_tid.x = 0u;\n"
    "  a.n32[0] = sq_slots_32(a.kmin, a.nslot, 1);\n"
    "  a.n32[1] = sq_slots_32(a.kmin, a.nslot, 0);\n"
    "  for (int k = 0; k < SQ_ITEMS; k++) f[k] = 1;\n"
    "  sq_probe_array_i32(a.lut, a.kmin, a.nslot, a.ikey, f, r);\n"
    "  for (int k = 0; k < SQ_ITEMS; k++) { a.flag[k] = f[k]; a.row[k] = r[k]; f[k] = 1; }\n"
    "  sq_probe_array_u32(a.lut, a.kmin, a.nslot, a.ukey, f, r);\n"
    "  for (int k = 0; k < SQ_ITEMS; k++) { a.flag[4 + k] = f[k]; a.row[4 + k] = r[k]; f[k] = 1; }\n"
    "  sq_probe_bits_i32(a.bits, a.kmin, a.nslot, a.ikey, f);\n"
    "  sq_row_array_i32(a.lut, a.kmin, 1u, a.ikey, f, r);\n"
    "  for (int k = 0; k < SQ_ITEMS; k++) { a.flag[8 + k] = f[k]; a.row[8 + k] = r[k]; f[k] = 1; }\n"
    "  sq_probe_bits_u32(a.bits, a.kmin, a.nslot, a.ukey, f);\n"
    "  sq_row_array_u32(a.lut, a.kmin, 0u, a.ukey, f, r);\n"
    "  for (int k = 0; k < SQ_ITEMS; k++) { a.flag[12 + k] = f[k]; a.row[12 + k] = r[k]; }\n"
    "}\n"
    "STARQ_CPU_ENTRY(t_p32, struct t_p32_args)\n";

struct t_p32_args {
  const uint32_t *lut, *bits;
  int64_t kmin, nslot;
  const int32_t *ikey;
  const uint32_t *ukey;
  int32_t *flag;
  uint32_t *row;
  int32_t *n32;
};

#define P32_SLOTS 8   /* lookup slots allocated; nslot may claim more (never read then) */

/* The exact answer for key x (as a 64-bit value) against slots kmin ..
** kmin + nslot - 1 whose lut holds slot + 1 and whose bits are all set:
** the slot, or -1. Slots past P32_SLOTS are never reached: the test only
** places keys within them or outside the range. */
static int64_t p32_slot(int64_t x, int64_t kmin, int64_t nslot) {
  int64_t s = x - kmin;
  return s >= 0 && s < nslot ? s : -1;
}

static int p32_case(cpu_pool *pPool, cpu_kernel *k, int64_t kmin, int64_t nslot,
                    const int64_t *aKey, int bWant32s, int bWant32u) {
  uint32_t aLut[P32_SLOTS], aBits[1] = {0xffffffffu}, aRow[16];
  int32_t aIKey[4], aFlag[16], aN32[2];
  uint32_t aUKey[4];
  char zErr[512];
  for (int i = 0; i < P32_SLOTS; i++) aLut[i] = (uint32_t)i + 1;
  for (int i = 0; i < 4; i++) {
    aIKey[i] = (int32_t)aKey[i];
    aUKey[i] = (uint32_t)aKey[i];
  }
  struct t_p32_args a = {aLut, aBits, kmin, nslot, aIKey, aUKey, aFlag, aRow, aN32};
  CALL_OK(cpu_kernel_launch(pPool, k, 1, 0, &a, zErr, sizeof(zErr)));
  ASSERT_EQ((int)aN32[0], bWant32s);
  ASSERT_EQ((int)aN32[1], bWant32u);
  for (int i = 0; i < 4; i++) {
    int64_t si = p32_slot(aIKey[i], kmin, nslot), su = p32_slot(aUKey[i], kmin, nslot);
    if (aFlag[i] != (si >= 0) || (si >= 0 && aRow[i] != (uint32_t)si + 1) ||
        aFlag[8 + i] != (si >= 0) || (si >= 0 && aRow[8 + i] != (uint32_t)si + 1) ||
        aFlag[4 + i] != (su >= 0) || (su >= 0 && aRow[4 + i] != (uint32_t)su + 1) ||
        aFlag[12 + i] != (su >= 0) || (su >= 0 && aRow[12 + i] != (uint32_t)su + 1)) {
      FAIL("kmin %lld nslot %lld key %lld: int flags %d/%d rows %u/%u (slot %lld), "
           "unsigned flags %d/%d rows %u/%u (slot %lld)",
           (long long)kmin, (long long)nslot, (long long)aKey[i], aFlag[i], aFlag[8 + i],
           aRow[i], aRow[8 + i], (long long)si, aFlag[4 + i], aFlag[12 + i], aRow[4 + i],
           aRow[12 + i], (long long)su);
    }
  }
  return 0;
}

TEST_IMPL(probe_32bit_edges) {
  char zErr[4096];
  cpu_module *pMod;
  cpu_kernel *k;
  cpu_pool *pPool;
  CALL_OK(devkernel_load(p32_zKernel, "t_p32", &pMod, &k, zErr, sizeof(zErr)));
  CALL_OK(cpu_pool_create(1, &pPool, zErr, sizeof(zErr)));
  {
    /* Slots at the bottom of int: keys below wrap to the top. */
    const int64_t aKey[4] = {INT32_MIN, INT32_MIN + 3, INT32_MAX, -1};
    if (p32_case(pPool, k, INT32_MIN, 4, aKey, 1, 0) != 0) return -1;
  }
  {
    /* Slots ending exactly at INT32_MAX: 32-bit; a key below them by 2^32
    ** - 1 would wrap into range if they reached one further. */
    const int64_t aKey[4] = {INT32_MAX, INT32_MAX - 3, INT32_MIN, INT32_MIN + 2};
    if (p32_case(pPool, k, (int64_t)INT32_MAX - 3, 4, aKey, 1, 1) != 0) return -1;
    /* One slot past INT32_MAX: the 64-bit side for int keys. */
    if (p32_case(pPool, k, (int64_t)INT32_MAX - 3, 5, aKey, 0, 1) != 0) return -1;
  }
  {
    /* Unsigned codes at the top of their range: 0xffffffff - 2 .. and the
    ** low codes that would wrap into a longer range. */
    const int64_t aKey[4] = {(int64_t)UINT32_MAX, (int64_t)UINT32_MAX - 2, 0, 1};
    if (p32_case(pPool, k, (int64_t)UINT32_MAX - 2, 3, aKey, 0, 1) != 0) return -1;
    if (p32_case(pPool, k, (int64_t)UINT32_MAX - 2, 4, aKey, 0, 0) != 0) return -1;
  }
  {
    /* kmin below either type's range, and a negative kmin for codes. */
    const int64_t aKey[4] = {0, 1, 5, -5};
    if (p32_case(pPool, k, (int64_t)INT32_MIN - 10, 4, aKey, 0, 0) != 0) return -1;
    if (p32_case(pPool, k, -6, 8, aKey, 1, 0) != 0) return -1;
  }
  {
    /* An ordinary dimension: keys 1..7, slots from 1. */
    const int64_t aKey[4] = {1, 7, 0, 8};
    if (p32_case(pPool, k, 1, 7, aKey, 1, 1) != 0) return -1;
  }
  cpu_pool_destroy(pPool);
  cpu_module_free(pMod);
  return 0;
}
