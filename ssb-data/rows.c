/*
** ssb-data/rows.c — rows of the dimensions customer, supplier and part.
**
** Each row is a pure function of the generator's streams and the row's key
** (see rand.h), so rows can be made in any order by any thread. The date
** dimension lives in calendar.c and the fact table in lineorder.c.
*/
#include <stdio.h>
#include <string.h>

#include "dists.h"
#include "ssb.h"

/* The streams one kind of contact (customer or supplier) draws from. */
typedef struct rows_contact_streams rows_contact_streams;
struct rows_contact_streams {
  ssb_stream eAddrLen, eAddr, eNation, eCity, ePhone;
};

static const rows_contact_streams rows_customer_streams = {
  SSB_S_C_ADDR_LEN, SSB_S_C_ADDR, SSB_S_C_NATION, SSB_S_C_CITY, SSB_S_C_PHONE,
};
static const rows_contact_streams rows_supplier_streams = {
  SSB_S_S_ADDR_LEN, SSB_S_S_ADDR, SSB_S_S_NATION, SSB_S_S_CITY, SSB_S_S_PHONE,
};

/* 64 symbols, so one random bit string yields ten address characters. */
static const char rows_aAddrChar[64] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ,";

/* Writes the last nDigit digits of v, zero-padded, at z. */
static void rows_digits(char *z, int64_t v, int nDigit) {
  for (int i = nDigit - 1; i >= 0; i--) {
    z[i] = (char)('0' + v % 10);
    v /= 10;
  }
}

static void rows_contact(const ssb_gen *g, const rows_contact_streams *s,
                         int64_t iKey, ssb_contact *p) {
  const ssb_rand *r = &g->rand;
  uint64_t k = (uint64_t)iKey;
  int nAddr = (int)ssb_rand_int(r, s->eAddrLen, k, 6, 24);
  int iNation = (int)ssb_rand_int(r, s->eNation, k, 0, SSB_NATION_COUNT - 1);
  const char *zNation = ssb_aNation[iNation];
  size_t nNation = strlen(zNation);
  uint64_t h = 0;

  for (int i = 0; i < nAddr; i++) {
    if (i % 10 == 0) h = ssb_rand_bits(r, s->eAddr, k * 3 + (uint64_t)i / 10);
    p->zAddress[i] = rows_aAddrChar[h & 63];
    h >>= 6;
  }
  p->zAddress[nAddr] = 0;

  /* City: the nation cut or space-padded to 9 characters, then a digit. */
  memset(p->zCity, ' ', 9);
  memcpy(p->zCity, zNation, nNation < 9 ? nNation : 9);
  p->zCity[9] = (char)('0' + ssb_rand_int(r, s->eCity, k, 0, 9));
  p->zCity[10] = 0;

  p->zNation = zNation;
  p->zRegion = ssb_aRegion[ssb_aNationRegion[iNation]];

  /* Phone: NN-ddd-ddd-dddd from one draw split three ways. */
  h = ssb_rand_bits(r, s->ePhone, k);
  memcpy(p->zPhone, "NN-ddd-ddd-dddd", 16);
  rows_digits(p->zPhone, 10 + iNation, 2);
  rows_digits(p->zPhone + 3, ssb_rand_scale(h, 100, 999), 3);
  h = ssb_mix64(h);
  rows_digits(p->zPhone + 7, ssb_rand_scale(h, 100, 999), 3);
  h = ssb_mix64(h);
  rows_digits(p->zPhone + 11, ssb_rand_scale(h, 1000, 9999), 4);
}

void ssb_customer_row(const ssb_gen *g, int64_t iKey, ssb_customer *p) {
  p->iCustKey = iKey;
  snprintf(p->zName, sizeof(p->zName), "Customer#%09lld", (long long)iKey);
  rows_contact(g, &rows_customer_streams, iKey, &p->contact);
  p->zMktSegment = ssb_aSegment[ssb_rand_int(&g->rand, SSB_S_C_SEGMENT,
                                             (uint64_t)iKey, 0, SSB_SEGMENT_COUNT - 1)];
}

void ssb_supplier_row(const ssb_gen *g, int64_t iKey, ssb_supplier *p) {
  p->iSuppKey = iKey;
  snprintf(p->zName, sizeof(p->zName), "Supplier#%09lld", (long long)iKey);
  rows_contact(g, &rows_supplier_streams, iKey, &p->contact);
}

void ssb_part_row(const ssb_gen *g, int64_t iKey, ssb_part *p) {
  const ssb_rand *r = &g->rand;
  uint64_t k = (uint64_t)iKey, h;
  int aColor[3], lo, hi;
  int iMfgr = (int)ssb_rand_int(r, SSB_S_P_MFGR, k, 1, 5);
  int iCat = (int)ssb_rand_int(r, SSB_S_P_CATEGORY, k, 1, 5);
  int iBrand = (int)ssb_rand_int(r, SSB_S_P_BRAND, k, 1, 40);
  int iType = (int)ssb_rand_int(r, SSB_S_P_TYPE, k, 0,
                                SSB_TYPE1_COUNT * SSB_TYPE2_COUNT * SSB_TYPE3_COUNT - 1);
  int iCont = (int)ssb_rand_int(r, SSB_S_P_CONTAINER, k, 0,
                                SSB_CONTAINER1_COUNT * SSB_CONTAINER2_COUNT - 1);

  /* Three distinct colours: draw from 92, 91 and 90 and skip those taken. */
  h = ssb_rand_bits(r, SSB_S_P_NAME, k);
  aColor[0] = (int)ssb_rand_scale(h, 0, SSB_COLOR_COUNT - 1);
  h = ssb_mix64(h);
  aColor[1] = (int)ssb_rand_scale(h, 0, SSB_COLOR_COUNT - 2);
  if (aColor[1] >= aColor[0]) aColor[1]++;
  h = ssb_mix64(h);
  aColor[2] = (int)ssb_rand_scale(h, 0, SSB_COLOR_COUNT - 3);
  lo = aColor[0] < aColor[1] ? aColor[0] : aColor[1];
  hi = aColor[0] < aColor[1] ? aColor[1] : aColor[0];
  if (aColor[2] >= lo) aColor[2]++;
  if (aColor[2] >= hi) aColor[2]++;

  p->iPartKey = iKey;
  snprintf(p->zName, sizeof(p->zName), "%s %s", ssb_aColor[aColor[0]], ssb_aColor[aColor[1]]);
  snprintf(p->zMfgr, sizeof(p->zMfgr), "MFGR#%d", iMfgr);
  snprintf(p->zCategory, sizeof(p->zCategory), "MFGR#%d%d", iMfgr, iCat);
  snprintf(p->zBrand1, sizeof(p->zBrand1), "MFGR#%d%d%d", iMfgr, iCat, iBrand);
  p->zColor = ssb_aColor[aColor[2]];
  snprintf(p->zType, sizeof(p->zType), "%s %s %s",
           ssb_aType1[iType / (SSB_TYPE2_COUNT * SSB_TYPE3_COUNT)],
           ssb_aType2[iType / SSB_TYPE3_COUNT % SSB_TYPE2_COUNT],
           ssb_aType3[iType % SSB_TYPE3_COUNT]);
  p->iSize = (int32_t)ssb_rand_int(r, SSB_S_P_SIZE, k, 1, 50);
  snprintf(p->zContainer, sizeof(p->zContainer), "%s %s",
           ssb_aContainer1[iCont / SSB_CONTAINER2_COUNT],
           ssb_aContainer2[iCont % SSB_CONTAINER2_COUNT]);
}
