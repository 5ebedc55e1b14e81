/*
** tests/test-ssb-data.c — checks the .tbl files starq-gen writes against
** ../shared/SSB.md: format, row counts, keys, every column's domain and
** rule, and that uniform draws look uniform. Owns the gen_data_* tests, the
** .tbl cursor and field parsers of ssbcheck.h, and the lineorder checker;
** the dimension tables are checked in ssbcheck-dims.c.
**
** The checker must not share code or constants with the generator (no
** ssb.h): a rule both got wrong the same way would pass unseen. Expected
** values are written out from SSB.md, and dates come from libc's calendar.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ssbcheck.h"
#include "test-list.h"

/* ---- the .tbl cursor and field parsers ---------------------------------- */

void ssbcheck_open(ssbcheck_tbl *t, const char *zPath,
                   const char *const *azCol, int nCol) {
  struct stat st;
  int fd = open(zPath, O_RDONLY);
  void *p;
  memset(t, 0, sizeof(*t));
  t->zPath = zPath;
  t->azCol = azCol;
  t->nCol = nCol;
  if (fd < 0) FAIL("open %s: %s", zPath, strerror(errno));
  if (fstat(fd, &st) != 0) FAIL("fstat %s: %s", zPath, strerror(errno));
  if (st.st_size == 0) FAIL("%s: the file is empty", zPath);
  /* Mapped, not read: SF 1 lineorder is 600 MB, and the page cache holds
  ** it already; the cursor never reads past nMap. */
  p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) FAIL("mmap %s: %s", zPath, strerror(errno));
  close(fd);
  madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
  t->zMap = p;
  t->nMap = (size_t)st.st_size;
  t->zNext = t->zMap;
}

void ssbcheck_close(ssbcheck_tbl *t) {
  munmap((void *)t->zMap, t->nMap);
  t->zMap = NULL;
}

static void ssbcheck_vfail(const char *zPath, int64_t iLine, const char *zCol,
                           const char *zFound, int nFound, const char *zFmt,
                           va_list ap) {
  char zWant[512];
  vsnprintf(zWant, sizeof(zWant), zFmt, ap);
  if (nFound > 200) nFound = 200;
  if (zCol == NULL) {
    FAIL("%s:%" PRId64 ": line \"%.*s\": expected %s", zPath, iLine, nFound,
         zFound, zWant);
  }
  FAIL("%s:%" PRId64 ": %s: found \"%.*s\", expected %s", zPath, iLine, zCol,
       nFound, zFound, zWant);
}

void ssbcheck_fail_at(const char *zPath, int64_t iLine, const char *zCol,
                      const char *zFound, int nFound, const char *zFmt, ...) {
  va_list ap;
  va_start(ap, zFmt);
  ssbcheck_vfail(zPath, iLine, zCol, zFound, nFound, zFmt, ap);
  va_end(ap);
  abort();
}

void ssbcheck_fail(const ssbcheck_tbl *t, int iCol, const char *zFmt, ...) {
  va_list ap;
  int nLine = 0;
  va_start(ap, zFmt);
  if (iCol >= 0) {
    ssbcheck_vfail(t->zPath, t->iLine, t->azCol[iCol], t->az[iCol],
                   t->an[iCol], zFmt, ap);
  }
  while (t->zLine + nLine < t->zMap + t->nMap && t->zLine[nLine] != '\n') {
    nLine++;
  }
  ssbcheck_vfail(t->zPath, t->iLine, NULL, t->zLine, nLine, zFmt, ap);
  va_end(ap);
  abort();
}

/* Splits the next line into t->az/t->an. The bytes are looked at once, here:
** anything but printable ASCII is refused, since no SSB value holds any. */
int ssbcheck_next(ssbcheck_tbl *t) {
  const char *p = t->zNext, *zEnd = t->zMap + t->nMap;
  int n = 0;
  if (p >= zEnd) return 0;
  t->iLine++;
  t->zLine = t->az[0] = p;
  for (;;) {
    unsigned char c;
    if (p == zEnd) ssbcheck_fail(t, -1, "the file to end with \"|\\n\"");
    c = (unsigned char)*p;
    if (c == '|') {
      if (n < SSBCHECK_MAXCOL) t->an[n] = (int)(p - t->az[n]);
      n++;
      p++;
      if (p < zEnd && *p == '\n') break;
      if (n < SSBCHECK_MAXCOL) t->az[n] = p;
    } else if (c == '\n') {
      ssbcheck_fail(t, -1, "every line to end with \"|\\n\"");
    } else if (c < 0x20 || c > 0x7e) {
      ssbcheck_fail(t, -1, "printable ASCII only, not byte 0x%02x", c);
    } else {
      p++;
    }
  }
  if (n != t->nCol) {
    ssbcheck_fail(t, -1, "%d fields ending in '|', not %d", t->nCol, n);
  }
  t->zNext = p + 1;
  return 1;
}

int64_t ssbcheck_int(const ssbcheck_tbl *t, int iCol, int64_t iMin,
                     int64_t iMax) {
  const char *z = t->az[iCol];
  int n = t->an[iCol];
  int64_t v = 0;
  if (n < 1 || n > 18 || (z[0] == '0' && n > 1)) goto bad;
  for (int i = 0; i < n; i++) {
    if (z[i] < '0' || z[i] > '9') goto bad;
    v = v * 10 + (z[i] - '0');
  }
  if (v >= iMin && v <= iMax) return v;
bad:
  ssbcheck_fail(t, iCol, "a plain decimal integer in %" PRId64 "..%" PRId64,
                iMin, iMax);
}

int ssbcheck_eqn(const char *z, int n, const char *zWord) {
  int i = 0;
  while (i < n && zWord[i] == z[i]) i++;
  return i == n && zWord[i] == 0;
}

int ssbcheck_find(const char *z, int n, const char *const *az, int nWord) {
  for (int i = 0; i < nWord; i++) {
    if (ssbcheck_eqn(z, n, az[i])) return i;
  }
  return -1;
}

int ssbcheck_word(const ssbcheck_tbl *t, int iCol, const char *const *az,
                  int n) {
  int i = ssbcheck_find(t->az[iCol], t->an[iCol], az, n);
  if (i < 0) {
    ssbcheck_fail(t, iCol, "one of %d words (\"%s\", \"%s\", ...)", n, az[0],
                  az[1]);
  }
  return i;
}

void ssbcheck_text(const ssbcheck_tbl *t, int iCol, const char *zWant) {
  if (!ssbcheck_eqn(t->az[iCol], t->an[iCol], zWant)) {
    ssbcheck_fail(t, iCol, "\"%s\"", zWant);
  }
}

void ssbcheck_uniform(const char *zPath, const char *zCol,
                      const int64_t *aCount, int nVal, int64_t nDraw,
                      int nPer, const char *const *azLabel, int iFirst) {
  double p = (double)nPer / nVal, rMean = (double)nDraw * p;
  double rSigma = sqrt((double)nDraw * p * (1.0 - p));
  if (rMean < 100.0) return;
  for (int v = 0; v < nVal; v++) {
    if (fabs((double)aCount[v] - rMean) <= 6.0 * rSigma) continue;
    if (azLabel) {
      FAIL("%s: %s: value \"%s\" occurs %" PRId64 " times in %" PRId64
           " rows, expected %.1f +- %.1f (6 sigma of a uniform draw over %d)",
           zPath, zCol, azLabel[v], aCount[v], nDraw, rMean, 6.0 * rSigma,
           nVal);
    }
    FAIL("%s: %s: value %d occurs %" PRId64 " times in %" PRId64 " rows,"
         " expected %.1f +- %.1f (6 sigma of a uniform draw over %d)", zPath,
         zCol, iFirst + v, aCount[v], nDraw, rMean, 6.0 * rSigma, nVal);
  }
}

int ssbcheck_day(const ssbcheck_cal *c, int64_t iKey) {
  if (iKey < SSBCHECK_KEY0 || iKey >= SSBCHECK_KEY0 + SSBCHECK_KEYSPAN) {
    return -1;
  }
  return c->aDay[iKey - SSBCHECK_KEY0];
}

/* libc's calendar in UTC is the reference every date is checked against. */
static void ssbcheck_cal_init(ssbcheck_cal *c) {
  struct tm tm0;
  time_t t0;
  memset(&tm0, 0, sizeof(tm0));
  tm0.tm_year = 92;
  tm0.tm_mday = 1;
  t0 = timegm(&tm0);
  for (int i = 0; i < SSBCHECK_KEYSPAN; i++) c->aDay[i] = -1;
  for (int i = 0; i < SSBCHECK_DAYS; i++) {
    time_t t = t0 + (time_t)i * 86400;
    struct tm *p = &c->aTm[i];
    if (gmtime_r(&t, p) == NULL) FAIL("gmtime_r failed");
    c->aKey[i] = (p->tm_year + 1900) * 10000 + (p->tm_mon + 1) * 100
                 + p->tm_mday;
    c->aDay[c->aKey[i] - SSBCHECK_KEY0] = (int16_t)i;
  }
  ASSERT_EQ(c->aKey[SSBCHECK_DAYS - 1], 19981231);
}

/* ---- lineorder ------------------------------------------------------------ */

enum {
  LO_ORDERKEY, LO_LINENUMBER, LO_CUSTKEY, LO_PARTKEY, LO_SUPPKEY,
  LO_ORDERDATE, LO_ORDERPRIORITY, LO_SHIPPRIORITY, LO_QUANTITY,
  LO_EXTENDEDPRICE, LO_ORDTOTALPRICE, LO_DISCOUNT, LO_REVENUE, LO_SUPPLYCOST,
  LO_TAX, LO_COMMITDATE, LO_SHIPMODE, LO_NCOL
};
static const char *const ssbcheck_azLoCol[LO_NCOL] = {
  "lo_orderkey", "lo_linenumber", "lo_custkey", "lo_partkey", "lo_suppkey",
  "lo_orderdate", "lo_orderpriority", "lo_shippriority", "lo_quantity",
  "lo_extendedprice", "lo_ordtotalprice", "lo_discount", "lo_revenue",
  "lo_supplycost", "lo_tax", "lo_commitdate", "lo_shipmode",
};
static const char *const ssbcheck_azPriority[5] = {
  "1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW",
};
static const char *const ssbcheck_azShipMode[7] = {
  "REG AIR", "AIR", "RAIL", "TRUCK", "MAIL", "FOB", "SHIP",
};

#define SSBCHECK_ORDERDATE_SPAN 2406     /* 19920101 + 0..2405 = ..19980802 */

/* The order being read: what its later lines must repeat, and the sum that
** its lo_ordtotalprice must equal once all its lines are in. */
typedef struct ssbcheck_order ssbcheck_order;
struct ssbcheck_order {
  int64_t iKey, iCust, iDate, iPrio, iTotal;
  int64_t iSum;               /* of floor(revenue*(100+tax)/100) so far */
  int64_t iFirstLine;         /* file line of its line 1 */
  int64_t iLine2;             /* file line of its last line */
  int nLine;
};

/* Tallies of the lineorder file, for the distribution checks at the end. */
typedef struct ssbcheck_lotally ssbcheck_lotally;
struct ssbcheck_lotally {
  int64_t nLine;
  int64_t aLines[7], aPrio[5], aQty[50], aDisc[11], aTax[9], aShip[7];
  int64_t aDate[SSBCHECK_ORDERDATE_SPAN], aCommit[61];
  int64_t *aCust;             /* [nCustomer+1], per order */
  int64_t *aSupp;             /* [nSupplier+1], per line */
  unsigned char *aPartSeen;   /* [nPartKeyMax+1] */
  int iDateMin, iDateMax;
};

/* dbgen's retail price of a part, in cents (SSB.md, lo_extendedprice). */
static int64_t ssbcheck_rprice(int64_t p) {
  return 90000 + (p / 10) % 20001 + 100 * (p % 1000);
}

/* The key of the i-th order (1-based): the first 8 of every 32 keys. */
static int64_t ssbcheck_order_key(int64_t i) {
  return ((i >> 3) << 5) + (i & 7);
}

static void ssbcheck_order_end(const ssbcheck_order *o, const char *zPath) {
  char z[32];
  if (o->nLine == 0 || o->iSum == o->iTotal) return;
  snprintf(z, sizeof(z), "%" PRId64, o->iTotal);
  ssbcheck_fail_at(zPath, o->iFirstLine, "lo_ordtotalprice", z, (int)strlen(z),
                   "%" PRId64 ", the sum of floor(revenue*(100+tax)/100) over"
                   " the order's lines %" PRId64 "..%" PRId64, o->iSum,
                   o->iFirstLine, o->iLine2);
}

/* The columns shared by every line of an order: read on its first line,
** compared on the others. */
static void ssbcheck_order_begin(const ssbcheck_tbl *t, ssbcheck_order *o,
                                 const ssbcheck_expect *e,
                                 const ssbcheck_cal *c, ssbcheck_lotally *y) {
  int iDay;
  o->iCust = ssbcheck_int(t, LO_CUSTKEY, 1, e->nCustomer);
  if (o->iCust % 3 == 0) {
    ssbcheck_fail(t, LO_CUSTKEY, "a key not divisible by 3 (dbgen maps"
                  " key%%3==0 to key+1)");
  }
  o->iDate = ssbcheck_int(t, LO_ORDERDATE, 19920101, 19980802);
  iDay = ssbcheck_day(c, o->iDate);
  if (iDay < 0) ssbcheck_fail(t, LO_ORDERDATE, "a valid yyyymmdd date");
  o->iPrio = ssbcheck_word(t, LO_ORDERPRIORITY, ssbcheck_azPriority, 5);
  ssbcheck_text(t, LO_SHIPPRIORITY, "0");
  o->iTotal = ssbcheck_int(t, LO_ORDTOTALPRICE, 0, INT64_MAX / 2);
  o->iSum = 0;
  o->nLine = 0;
  o->iFirstLine = t->iLine;
  y->aCust[o->iCust]++;
  y->aPrio[o->iPrio]++;
  y->aDate[iDay]++;
  if (iDay < y->iDateMin) y->iDateMin = iDay;
  if (iDay > y->iDateMax) y->iDateMax = iDay;
}

static void ssbcheck_order_same(const ssbcheck_tbl *t, int iCol, int64_t v,
                                const ssbcheck_order *o) {
  if (ssbcheck_int(t, iCol, 0, INT64_MAX / 2) != v) {
    ssbcheck_fail(t, iCol, "%" PRId64 " as on line %" PRId64 ", the first"
                  " line of the order", v, o->iFirstLine);
  }
}

/* One line's own columns: part, supplier, quantity, prices, dates, mode. */
static void ssbcheck_line(const ssbcheck_tbl *t, ssbcheck_order *o,
                          const ssbcheck_expect *e, const ssbcheck_cal *c,
                          ssbcheck_lotally *y) {
  int64_t iPart = ssbcheck_int(t, LO_PARTKEY, 1, e->nPartKeyMax);
  int64_t iSupp = ssbcheck_int(t, LO_SUPPKEY, 1, e->nSupplier);
  int64_t iQty = ssbcheck_int(t, LO_QUANTITY, 1, 50);
  int64_t iDisc = ssbcheck_int(t, LO_DISCOUNT, 0, 10);
  int64_t iTax = ssbcheck_int(t, LO_TAX, 0, 8);
  int64_t iPrice = ssbcheck_rprice(iPart);
  int64_t iExt = iPrice * iQty, iRev = iExt * (100 - iDisc) / 100;
  int64_t iCommit;
  int iDay;
  if (ssbcheck_int(t, LO_EXTENDEDPRICE, 0, INT64_MAX / 2) != iExt) {
    ssbcheck_fail(t, LO_EXTENDEDPRICE, "%" PRId64 " = rprice(%" PRId64
                  ")*quantity = %" PRId64 "*%" PRId64, iExt, iPart, iPrice,
                  iQty);
  }
  if (ssbcheck_int(t, LO_REVENUE, 0, INT64_MAX / 2) != iRev) {
    ssbcheck_fail(t, LO_REVENUE, "%" PRId64 " = floor(%" PRId64 "*(100-%"
                  PRId64 ")/100)", iRev, iExt, iDisc);
  }
  if (ssbcheck_int(t, LO_SUPPLYCOST, 0, INT64_MAX / 2) != iPrice * 6 / 10) {
    ssbcheck_fail(t, LO_SUPPLYCOST, "%" PRId64 " = floor(6*rprice(%" PRId64
                  ")/10), rprice = %" PRId64, iPrice * 6 / 10, iPart, iPrice);
  }
  iCommit = ssbcheck_int(t, LO_COMMITDATE, 19920101, 19981231);
  iDay = ssbcheck_day(c, iCommit) - ssbcheck_day(c, o->iDate);
  if (ssbcheck_day(c, iCommit) < 0 || iDay < 30 || iDay > 90) {
    ssbcheck_fail(t, LO_COMMITDATE, "a valid date 30..90 days after"
                  " lo_orderdate %" PRId64, o->iDate);
  }
  y->aShip[ssbcheck_word(t, LO_SHIPMODE, ssbcheck_azShipMode, 7)]++;
  o->iSum += iRev * (100 + iTax) / 100;
  o->iLine2 = t->iLine;
  y->nLine++;
  y->aQty[iQty - 1]++;
  y->aDisc[iDisc]++;
  y->aTax[iTax]++;
  y->aCommit[iDay - 30]++;
  y->aSupp[iSupp]++;
  y->aPartSeen[iPart] = 1;
}

/* What only holds over the whole file: counts, coverage, uniformity. */
static void ssbcheck_lineorder_totals(const ssbcheck_expect *e,
                                      const ssbcheck_lotally *y) {
  static const char zPath[] = "data/lineorder.tbl";
  int64_t nDev = llabs(y->nLine - 4 * e->nOrder), nCustSeen = 0, n1 = 0, n2 = 0;
  double rSigma = 2.0 * sqrt((double)e->nOrder);  /* var(1..7) = 4 */
  if ((double)nDev > 6.0 * rSigma) {
    FAIL("%s: %" PRId64 " lines for %" PRId64 " orders, expected 4 per order"
         " +- %.0f (6 sigma)", zPath, y->nLine, e->nOrder, 6.0 * rSigma);
  }
  ssbcheck_uniform(zPath, "lines per order", y->aLines, 7, e->nOrder, 1, NULL,
                   1);
  ssbcheck_uniform(zPath, "lo_orderpriority", y->aPrio, 5, e->nOrder, 1,
                   ssbcheck_azPriority, 0);
  ssbcheck_uniform(zPath, "lo_orderdate (days after 1992-01-01)", y->aDate,
                   SSBCHECK_ORDERDATE_SPAN, e->nOrder, 1, NULL, 0);
  ssbcheck_uniform(zPath, "lo_quantity", y->aQty, 50, y->nLine, 1, NULL, 1);
  ssbcheck_uniform(zPath, "lo_discount", y->aDisc, 11, y->nLine, 1, NULL, 0);
  ssbcheck_uniform(zPath, "lo_tax", y->aTax, 9, y->nLine, 1, NULL, 0);
  ssbcheck_uniform(zPath, "lo_shipmode", y->aShip, 7, y->nLine, 1,
                   ssbcheck_azShipMode, 0);
  ssbcheck_uniform(zPath, "lo_commitdate - lo_orderdate (days)", y->aCommit,
                   61, y->nLine, 1, NULL, 30);
  ssbcheck_uniform(zPath, "lo_suppkey", y->aSupp + 1, (int)e->nSupplier,
                   y->nLine, 1, NULL, 1);
  /* With 30 lines per part key on average, a key never drawn has odds of
  ** e^-30: every key of the range must appear, the largest included. */
  if ((double)y->nLine / (double)e->nPartKeyMax >= 20.0) {
    for (int64_t p = 1; p <= e->nPartKeyMax; p++) {
      if (!y->aPartSeen[p]) {
        FAIL("%s: lo_partkey: %" PRId64 " never occurs, expected every key of"
             " 1..%" PRId64 " (%.0f lines per key)", zPath, p, e->nPartKeyMax,
             (double)y->nLine / (double)e->nPartKeyMax);
      }
    }
  }
  if (e->rSf < 0.1) return;
  /* From here on the sample is large enough for the tails to be certain:
  ** at SF 0.1 a day or a customer key has odds of about e^-50 of being
  ** missed. */
  if (y->iDateMin != 0 || y->iDateMax != SSBCHECK_ORDERDATE_SPAN - 1) {
    FAIL("%s: lo_orderdate: found days %d..%d after 1992-01-01, expected the"
         " whole range 0..%d (19920101..19980802)", zPath, y->iDateMin,
         y->iDateMax, SSBCHECK_ORDERDATE_SPAN - 1);
  }
  for (int64_t k = 1; k <= e->nCustomer; k++) {
    nCustSeen += y->aCust[k] > 0;
    if (k % 3 == 1) n1 += y->aCust[k];
    if (k % 3 == 2) n2 += y->aCust[k];
  }
  if (nCustSeen != e->nCustomer - e->nCustomer / 3) {
    FAIL("%s: lo_custkey: %" PRId64 " distinct keys, expected %" PRId64 ", all"
         " keys of 1..%" PRId64 " not divisible by 3", zPath, nCustSeen,
         e->nCustomer - e->nCustomer / 3, e->nCustomer);
  }
  /* key%3==0 is moved to key+1, so keys %3==1 are drawn twice as often. */
  if (n2 == 0 || (double)n1 / (double)n2 < 1.9 || (double)n1 / (double)n2 > 2.1) {
    FAIL("%s: lo_custkey: orders with key%%3==1: %" PRId64 ", with key%%3==2: %"
         PRId64 ", expected a ratio of 2 (1.9..2.1)", zPath, n1, n2);
  }
}

static void ssbcheck_lineorder(const ssbcheck_expect *e,
                               const ssbcheck_cal *c) {
  ssbcheck_tbl t;
  ssbcheck_order o;
  ssbcheck_lotally *y = calloc(1, sizeof(*y));
  int64_t iOrder = 0;     /* orders seen so far */
  ASSERT(y != NULL);
  y->aCust = calloc((size_t)e->nCustomer + 1, sizeof(int64_t));
  y->aSupp = calloc((size_t)e->nSupplier + 1, sizeof(int64_t));
  y->aPartSeen = calloc((size_t)e->nPartKeyMax + 1, 1);
  ASSERT(y->aCust && y->aSupp && y->aPartSeen);
  y->iDateMin = SSBCHECK_ORDERDATE_SPAN;
  y->iDateMax = -1;
  memset(&o, 0, sizeof(o));
  ssbcheck_open(&t, "data/lineorder.tbl", ssbcheck_azLoCol, LO_NCOL);
  while (ssbcheck_next(&t)) {
    int64_t iKey = ssbcheck_int(&t, LO_ORDERKEY, 1, INT64_MAX / 2);
    int64_t iLineNo = ssbcheck_int(&t, LO_LINENUMBER, 1, 7);
    if (iOrder == 0 || iKey != o.iKey) {
      /* A new order: the next key of the sparse sequence, from line 1. */
      int64_t iWant = ssbcheck_order_key(iOrder + 1);
      ssbcheck_order_end(&o, t.zPath);
      if (iOrder > 0) y->aLines[o.nLine - 1]++;
      if (iOrder == e->nOrder) {
        ssbcheck_fail(&t, LO_ORDERKEY, "the end of the file after %" PRId64
                      " orders (1,500,000*SF)", e->nOrder);
      }
      if (iKey != iWant) {
        ssbcheck_fail(&t, LO_ORDERKEY, "%" PRId64 ", the key of order %"
                      PRId64 " (file sorted by orderkey, keys with key%%32 in"
                      " 0..7)", iWant, iOrder + 1);
      }
      if (iLineNo != 1) {
        ssbcheck_fail(&t, LO_LINENUMBER, "1, the first line of order %"
                      PRId64, iKey);
      }
      iOrder++;
      o.iKey = iKey;
      ssbcheck_order_begin(&t, &o, e, c, y);
    } else {
      if (iLineNo != o.nLine + 1) {
        ssbcheck_fail(&t, LO_LINENUMBER, "%d, the line after %d of order %"
                      PRId64, o.nLine + 1, o.nLine, o.iKey);
      }
      ssbcheck_order_same(&t, LO_CUSTKEY, o.iCust, &o);
      ssbcheck_order_same(&t, LO_ORDERDATE, o.iDate, &o);
      if (ssbcheck_word(&t, LO_ORDERPRIORITY, ssbcheck_azPriority, 5)
          != o.iPrio) {
        ssbcheck_fail(&t, LO_ORDERPRIORITY, "\"%s\" as on line %" PRId64
                      ", the first line of the order",
                      ssbcheck_azPriority[o.iPrio], o.iFirstLine);
      }
      ssbcheck_text(&t, LO_SHIPPRIORITY, "0");
      ssbcheck_order_same(&t, LO_ORDTOTALPRICE, o.iTotal, &o);
    }
    o.nLine++;
    ssbcheck_line(&t, &o, e, c, y);
  }
  ssbcheck_order_end(&o, t.zPath);
  y->aLines[o.nLine - 1]++;
  if (iOrder != e->nOrder) {
    FAIL("%s: %" PRId64 " orders, expected %" PRId64 " (1,500,000*SF)",
         t.zPath, iOrder, e->nOrder);
  }
  ssbcheck_close(&t);
  ssbcheck_lineorder_totals(e, y);
  free(y->aCust);
  free(y->aSupp);
  free(y->aPartSeen);
  free(y);
}

/* ---- the driver ------------------------------------------------------------ */

/* SSB.md's row counts. Only SF 0.01, 0.1 and 1 are run here, so dbgen's
** truncation of a fractional SF above 1 never comes into play. */
static void ssbcheck_expect_init(ssbcheck_expect *e, double sf) {
  e->rSf = sf;
  e->nOrder = llround(1500000.0 * sf);
  e->nCustomer = llround(30000.0 * sf);
  e->nSupplier = llround(2000.0 * sf);
  if (sf < 1.0) {
    e->nPart = llround(200000.0 * sf);
    e->nPartKeyMax = e->nPart;
  } else {
    e->nPart = 200000 * (int64_t)floor(1.0 + log2(sf));
    e->nPartKeyMax = 200000 * ((int64_t)floor(log(sf)) + 1);  /* ln: dbgen */
  }
}

static void ssbcheck_no_tmp(const char *zDir) {
  DIR *d = opendir(zDir);
  struct dirent *p;
  if (d == NULL) FAIL("opendir %s: %s", zDir, strerror(errno));
  while ((p = readdir(d)) != NULL) {
    size_t n = strlen(p->d_name);
    if (n >= 4 && strcmp(p->d_name + n - 4, ".tmp") == 0) {
      FAIL("%s/%s: a temporary file is left after a successful run", zDir,
           p->d_name);
    }
  }
  closedir(d);
}

/* Generates SF sf with seed 1 into ./data and checks every file. */
static void ssbcheck_run(double sf) {
  static const char *const azFile[] = {
    "data/date.tbl", "data/supplier.tbl", "data/customer.tbl",
    "data/part.tbl", "data/lineorder.tbl",
  };
  char zSf[32];
  const char *azArg[] = {"starq-gen", "--sf", zSf, "--out", "data",
                         "--quiet", "--seed", "1", NULL};
  test_proc proc;
  ssbcheck_expect e;
  ssbcheck_cal *c = malloc(sizeof(*c));

  ASSERT(c != NULL);
  snprintf(zSf, sizeof(zSf), "%g", sf);
  if (test_run(&proc, azArg) != 0) {
    FAIL("starq-gen --sf %s exited %d; stderr:\n%s", zSf, proc.rc, proc.zErr);
  }
  test_proc_free(&proc);
  for (int i = 0; i < 5; i++) {
    if (!test_file_exists(azFile[i])) FAIL("%s was not written", azFile[i]);
  }
  ssbcheck_no_tmp("data");

  ssbcheck_expect_init(&e, sf);
  ssbcheck_cal_init(c);
  ssbcheck_date(c);
  ssbcheck_supplier(&e);
  ssbcheck_customer(&e);
  ssbcheck_part(&e);
  ssbcheck_lineorder(&e, c);
  free(c);
}

TEST_IMPL(gen_data_sf001) {
  ssbcheck_run(0.01);
  return 0;
}

TEST_IMPL(gen_data_sf01) {
  ssbcheck_run(0.1);
  return 0;
}

TEST_IMPL(gen_data_sf1) {
  ssbcheck_run(1.0);
  return 0;
}
