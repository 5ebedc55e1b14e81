/*
** ssb-data/ssb.h — the SSB data generator's public interface.
**
** The generator is a set of pure functions: every row of every table is a
** function of (seed, table, row number) alone, drawn from counter-based
** random streams (rand.h). That is what makes output byte-identical for any
** number of threads: a thread may generate any rows in any order, and the
** writer (writer.c) puts them in file order.
**
** INTERFACE ROUTINES
**   ssb_scale_init      row counts for a scale factor (scale.c)
**   ssb_gen_init        a generator context for a scale and a seed (gen.c)
**   ssb_date_row        one row of `date` (calendar.c)
**   ssb_customer_row    one row of `customer` (rows.c)
**   ssb_supplier_row    one row of `supplier` (rows.c)
**   ssb_part_row        one row of `part` (rows.c)
**   ssb_order_lines     the lines of one order of `lineorder` (lineorder.c)
**   ssb_generate        write every table as .tbl files (gen.c)
**   ssb_generate_store  write every table into the column store (store.c)
**
** What the rows contain, and why, is ../shared/SSB.md; each field below
** names its rule only where the rule is not obvious.
*/
#ifndef STARQ_SSB_H
#define STARQ_SSB_H

#include <stddef.h>
#include <stdint.h>

#include "rand.h"

#define SSB_SF_MIN 0.01
#define SSB_SF_MAX 100000.0

#define SSB_DATE_ROWS 2557          /* 1992-01-01 .. 1998-12-31, any SF */
#define SSB_ORDERDATE_SPAN 2406     /* order dates: day 0 .. 2405 */
#define SSB_LINES_MAX 7             /* lines per order: 1 .. 7 */

/* Row counts for one scale factor. Filled by ssb_scale_init(); read-only
** afterwards. */
typedef struct ssb_scale ssb_scale;
struct ssb_scale {
  double rSf;              /* the scale factor as given */
  int64_t nOrder;          /* orders; lineorder has 1..7 lines per order */
  int64_t nCustomer;       /* customer rows = max c_custkey */
  int64_t nSupplier;       /* supplier rows = max s_suppkey */
  int64_t nPart;           /* part rows = max p_partkey */
  int64_t nPartKeyMax;     /* lo_partkey range 1..this (dbgen's ln quirk) */
};

/* Returns 0 and fills *p for a valid scale factor, or -1 if rSf is out of
** [SSB_SF_MIN, SSB_SF_MAX] or not a number. */
int ssb_scale_init(ssb_scale *p, double rSf);

/* A generator context: the scale, the random streams keyed by the seed, and
** tables derived once. Immutable after ssb_gen_init(), so threads share
** one without locking. */
typedef struct ssb_gen ssb_gen;
struct ssb_gen {
  ssb_scale scale;
  ssb_rand rand;
  int32_t aDateKey[SSB_DATE_ROWS];  /* day number since 1992-01-01 -> yyyymmdd */
};

void ssb_gen_init(ssb_gen *g, const ssb_scale *pScale, uint64_t iSeed);

/* ---- date ---------------------------------------------------------------
** Strings point to static text; char arrays hold their NUL-terminated text. */
typedef struct ssb_date ssb_date;
struct ssb_date {
  int32_t iDateKey;                 /* yyyymmdd */
  char zDate[20];                   /* "January 1, 1992" */
  const char *zDayOfWeek;           /* dbgen's labels: shifted one day */
  const char *zMonth;               /* "January" */
  int32_t iYear;
  int32_t iYearMonthNum;            /* yyyymm */
  char zYearMonth[12];              /* "Jan1992" */
  int32_t iDayNumInWeek;            /* 1 = Sunday .. 7 = Saturday */
  int32_t iDayNumInMonth;
  int32_t iDayNumInYear;
  int32_t iMonthNumInYear;
  int32_t iWeekNumInYear;           /* day_in_year / 7 + 1, not ISO */
  const char *zSellingSeason;
  int32_t bLastDayInWeek;
  int32_t bLastDayInMonth;
  int32_t bHoliday;
  int32_t bWeekday;
};

/* Fills *p with the date iDay days after 1992-01-01, 0 <= iDay < 2557. */
void ssb_date_row(int iDay, ssb_date *p);

/* Returns the yyyymmdd of the day iDay days after 1992-01-01 (any iDay that
** stays within years 1..9999). */
int32_t ssb_date_key(int iDay);

/* ---- customer and supplier ----------------------------------------------
** Both carry the same address, city, nation, region and phone rules. */
typedef struct ssb_contact ssb_contact;
struct ssb_contact {
  char zAddress[25];                /* 6..24 chars, may begin or end with ' ' */
  char zCity[11];                   /* nation padded/cut to 9 + one digit */
  const char *zNation;
  const char *zRegion;
  char zPhone[16];                  /* "NN-ddd-ddd-dddd", NN = 10 + nation */
};

typedef struct ssb_customer ssb_customer;
struct ssb_customer {
  int64_t iCustKey;
  char zName[32];                   /* "Customer#000000001" */
  ssb_contact contact;
  const char *zMktSegment;
};

typedef struct ssb_supplier ssb_supplier;
struct ssb_supplier {
  int64_t iSuppKey;
  char zName[32];                   /* "Supplier#000000001" */
  ssb_contact contact;
};

/* Fill the row with key iKey, 1 <= iKey <= nCustomer (nSupplier). */
void ssb_customer_row(const ssb_gen *g, int64_t iKey, ssb_customer *p);
void ssb_supplier_row(const ssb_gen *g, int64_t iKey, ssb_supplier *p);

/* ---- part ---------------------------------------------------------------- */
typedef struct ssb_part ssb_part;
struct ssb_part {
  int64_t iPartKey;
  char zName[24];                   /* two distinct colours */
  char zMfgr[8];                    /* "MFGR#m" */
  char zCategory[8];                /* "MFGR#mc" */
  char zBrand1[12];                 /* "MFGR#mcb", b = 1..40 unpadded */
  const char *zColor;               /* a third colour, not in zName */
  char zType[32];                   /* "PROMO BURNISHED COPPER" */
  int32_t iSize;
  char zContainer[12];              /* "JUMBO PKG" */
};

void ssb_part_row(const ssb_gen *g, int64_t iKey, ssb_part *p);

/* ---- lineorder ----------------------------------------------------------- */
typedef struct ssb_lineorder ssb_lineorder;
struct ssb_lineorder {
  int64_t iOrderKey;                /* sparse: first 8 of every 32 keys */
  int32_t iLineNumber;              /* 1..n within the order */
  int64_t iCustKey;                 /* never a multiple of 3 */
  int64_t iPartKey;
  int64_t iSuppKey;
  int32_t iOrderDate;               /* yyyymmdd */
  const char *zOrderPriority;
  int32_t iShipPriority;            /* always 0 */
  int32_t iQuantity;
  int64_t iExtendedPrice;           /* cents */
  int64_t iOrdTotalPrice;           /* cents, the same on every line */
  int32_t iDiscount;                /* percent */
  int64_t iRevenue;                 /* cents */
  int64_t iSupplyCost;              /* cents per unit */
  int32_t iTax;                     /* percent */
  int32_t iCommitDate;              /* yyyymmdd */
  const char *zShipMode;
};

/* Fills aLine with the lines of order iOrder (1 <= iOrder <= nOrder) and
** returns how many there are (1..SSB_LINES_MAX). */
int ssb_order_lines(const ssb_gen *g, int64_t iOrder,
                    ssb_lineorder aLine[SSB_LINES_MAX]);

/* The retail price in cents of part iPartKey, dbgen's formula. */
int64_t ssb_part_rprice(int64_t iPartKey);

/* The order key of the iOrder-th order (1-based). */
int64_t ssb_order_key(int64_t iOrder);

/* ---- writing the files --------------------------------------------------- */
typedef struct ssb_options ssb_options;
struct ssb_options {
  const char *zOutDir;     /* created if missing */
  int nThread;             /* worker threads, >= 1 */
  int bQuiet;              /* no progress, no summary */
  int bNoCompress;         /* store: keep lineorder's columns plain
                           ** (--compress off; loader/sink.h) */
};

/* Totals of one run of ssb_generate(), for the caller's summary. */
typedef struct ssb_report ssb_report;
struct ssb_report {
  int64_t aRow[5];         /* rows per table, in ssb_table_name() order */
  int64_t nByte;           /* bytes written, all files */
};

/* The five tables in the order ssb_generate() writes them. */
#define SSB_TABLE_COUNT 5
const char *ssb_table_name(int iTable);

/* Writes date.tbl, supplier.tbl, customer.tbl, part.tbl and lineorder.tbl
** into pOpt->zOutDir. Each file is written under a ".tmp" name and renamed
** when complete. Returns 0, or -1 with a message in zErr. */
int ssb_generate(const ssb_gen *g, const ssb_options *pOpt, ssb_report *pRep,
                 char *zErr, size_t nErr);

/* Writes every table straight into the column store: pOpt->zOutDir is a
** data directory (created, with its catalog, if missing). The SSB tables
** are created there if absent, and each table's data is replaced by one
** atomic load. Returns 0, or -1 with zErr set (tables already committed
** keep their new data; the one being written keeps its old). */
int ssb_generate_store(const ssb_gen *g, const ssb_options *pOpt, ssb_report *pRep,
                       char *zErr, size_t nErr);

#endif /* STARQ_SSB_H */
