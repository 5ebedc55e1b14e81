/*
** ssb-data/lineorder.c — the fact table, one order at a time.
**
** An order is the unit of generation because five of its columns (key,
** customer, date, priority, total price) are shared by all of its lines,
** and the total price is the sum over lines computed after them. Per-order
** draws are indexed by the order number; per-line draws by order * 8 + line,
** so each line has streams of its own.
*/
#include "dists.h"
#include "ssb.h"

int64_t ssb_order_key(int64_t iOrder) {
  /* dbgen's sparse keys: only the first 8 of every 32 are used. */
  return ((iOrder >> 3) << 5) + (iOrder & 7);
}

int64_t ssb_part_rprice(int64_t iPartKey) {
  return 90000 + ((iPartKey / 10) % 20001) + 100 * (iPartKey % 1000);
}

/* Returns a customer key, never a multiple of 3: dbgen moves those to the
** next key (or the previous one past the end), so keys = 1 mod 3 get twice
** the weight of keys = 2 mod 3. */
static int64_t lineorder_custkey(const ssb_gen *g, int64_t iOrder) {
  int64_t nCust = g->scale.nCustomer;
  int64_t k = ssb_rand_int(&g->rand, SSB_S_O_CUSTKEY, (uint64_t)iOrder, 1, nCust);
  if (k % 3 == 0) k = k + 1 <= nCust ? k + 1 : k - 1;
  return k;
}

int ssb_order_lines(const ssb_gen *g, int64_t iOrder,
                    ssb_lineorder aLine[SSB_LINES_MAX]) {
  const ssb_rand *r = &g->rand;
  uint64_t o = (uint64_t)iOrder;
  int nLine = (int)ssb_rand_int(r, SSB_S_O_LINES, o, 1, SSB_LINES_MAX);
  int iDay = (int)ssb_rand_int(r, SSB_S_O_DATE, o, 0, SSB_ORDERDATE_SPAN - 1);
  int64_t iOrderKey = ssb_order_key(iOrder);
  int64_t iCustKey = lineorder_custkey(g, iOrder);
  const char *zPriority =
      ssb_aPriority[ssb_rand_int(r, SSB_S_O_PRIORITY, o, 0, SSB_PRIORITY_COUNT - 1)];
  int64_t iTotal = 0;

  for (int i = 0; i < nLine; i++) {
    ssb_lineorder *p = &aLine[i];
    uint64_t l = o * 8 + (uint64_t)i;
    int64_t iPrice;

    p->iOrderKey = iOrderKey;
    p->iLineNumber = i + 1;
    p->iCustKey = iCustKey;
    p->iPartKey = ssb_rand_int(r, SSB_S_L_PARTKEY, l, 1, g->scale.nPartKeyMax);
    p->iSuppKey = ssb_rand_int(r, SSB_S_L_SUPPKEY, l, 1, g->scale.nSupplier);
    p->iOrderDate = g->aDateKey[iDay];
    p->zOrderPriority = zPriority;
    p->iShipPriority = 0;
    p->iQuantity = (int32_t)ssb_rand_int(r, SSB_S_L_QUANTITY, l, 1, 50);
    p->iDiscount = (int32_t)ssb_rand_int(r, SSB_S_L_DISCOUNT, l, 0, 10);
    p->iTax = (int32_t)ssb_rand_int(r, SSB_S_L_TAX, l, 0, 8);
    iPrice = ssb_part_rprice(p->iPartKey);
    p->iExtendedPrice = iPrice * p->iQuantity;
    p->iRevenue = p->iExtendedPrice * (100 - p->iDiscount) / 100;
    p->iSupplyCost = 6 * iPrice / 10;
    p->iCommitDate = g->aDateKey[iDay + ssb_rand_int(r, SSB_S_L_COMMIT, l, 30, 90)];
    p->zShipMode = ssb_aShipMode[ssb_rand_int(r, SSB_S_L_SHIPMODE, l, 0, SSB_SHIPMODE_COUNT - 1)];
    iTotal += p->iRevenue * (100 + p->iTax) / 100;
  }
  for (int i = 0; i < nLine; i++) aLine[i].iOrdTotalPrice = iTotal;
  return nLine;
}
