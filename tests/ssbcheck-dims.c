/*
** tests/ssbcheck-dims.c — the SSB data checker's dimension tables: date,
** customer, supplier and part, each against ../shared/SSB.md (the cursor,
** the parsers and the driver are in test-ssb-data.c).
**
** The date table is checked day by day against libc's calendar in UTC, not
** against a date algorithm of our own: a copy of the generator's algorithm
** would share its mistakes.
*/
#include <math.h>

#include "ssbcheck.h"

/* A decimal field that must equal iWant; zWhy says by which rule. */
static void ssbcheck_num(const ssbcheck_tbl *t, int iCol, int64_t iWant,
                         const char *zWhy) {
  if (ssbcheck_int(t, iCol, 0, INT64_MAX / 2) != iWant) {
    ssbcheck_fail(t, iCol, "%" PRId64 " (%s)", iWant, zWhy);
  }
}

static void ssbcheck_str(const ssbcheck_tbl *t, int iCol, const char *zWant,
                         const char *zWhy) {
  if (!ssbcheck_eqn(t->az[iCol], t->an[iCol], zWant)) {
    ssbcheck_fail(t, iCol, "\"%s\" (%s)", zWant, zWhy);
  }
}

/* Fails unless the table ended after exactly nWant rows. */
static void ssbcheck_rows(const ssbcheck_tbl *t, int64_t nWant,
                          const char *zRule) {
  if (t->iLine != nWant) {
    FAIL("%s: %" PRId64 " rows, expected %" PRId64 " (%s)", t->zPath,
         t->iLine, nWant, zRule);
  }
}

/* ---- date ----------------------------------------------------------------- */

enum {
  D_DATEKEY, D_DATE, D_DAYOFWEEK, D_MONTH, D_YEAR, D_YEARMONTHNUM,
  D_YEARMONTH, D_DAYNUMINWEEK, D_DAYNUMINMONTH, D_DAYNUMINYEAR,
  D_MONTHNUMINYEAR, D_WEEKNUMINYEAR, D_SELLINGSEASON, D_LASTDAYINWEEKFL,
  D_LASTDAYINMONTHFL, D_HOLIDAYFL, D_WEEKDAYFL, D_NCOL
};
static const char *const ssbcheck_azDateCol[D_NCOL] = {
  "d_datekey", "d_date", "d_dayofweek", "d_month", "d_year",
  "d_yearmonthnum", "d_yearmonth", "d_daynuminweek", "d_daynuminmonth",
  "d_daynuminyear", "d_monthnuminyear", "d_weeknuminyear",
  "d_sellingseason", "d_lastdayinweekfl", "d_lastdayinmonthfl",
  "d_holidayfl", "d_weekdayfl",
};

/* dbgen's holidays, as month (0-based) * 100 + day of month. */
static int ssbcheck_is_holiday(const struct tm *p) {
  static const int aHoliday[] = {1, 120, 320, 420, 620, 720, 820, 920, 1020,
                                 1124};
  for (size_t i = 0; i < sizeof(aHoliday) / sizeof(aHoliday[0]); i++) {
    if (aHoliday[i] == p->tm_mon * 100 + p->tm_mday) return 1;
  }
  return 0;
}

static const char *ssbcheck_season(int iMon) {
  if (iMon <= 2) return "Winter";
  if (iMon == 3) return "Spring";
  if (iMon <= 7) return "Summer";
  if (iMon <= 9) return "Fall";
  return "Christmas";
}

void ssbcheck_date(const ssbcheck_cal *c) {
  ssbcheck_tbl t;
  int nLastDayInMonth = 0, nHoliday = 0;
  /* The reference itself: 1992-01-01 was a Wednesday. */
  ASSERT_EQ(c->aTm[0].tm_wday, 3);
  ssbcheck_open(&t, "data/date.tbl", ssbcheck_azDateCol, D_NCOL);
  while (ssbcheck_next(&t)) {
    int i = (int)t.iLine - 1;
    if (i >= SSBCHECK_DAYS) {
      ssbcheck_fail(&t, -1, "the end of the file after %d rows (every day"
                    " 1992-01-01..1998-12-31)", SSBCHECK_DAYS);
    }
    const struct tm *p = &c->aTm[i];
    struct tm tmLabel;
    char zWhy[64], zShift[128], zWeek[128], zReal[16], zMonth[16], zMon[8];
    char zDay[16], zWant[32];
    int iYear = p->tm_year + 1900, iDayInYear = p->tm_yday + 1;
    /* dbgen labels each day as the real calendar's next one: Wednesday
    ** 1992-01-01 is Thursday, 5 (Sunday = 1 .. Saturday = 7). */
    int iDayInWeek = (p->tm_wday + 1) % 7 + 1;
    int bLastInMonth = i + 1 == SSBCHECK_DAYS || c->aTm[i + 1].tm_mday == 1;
    int bHoliday = ssbcheck_is_holiday(p);

    /* Names from strftime are English: the tests never call setlocale. */
    tmLabel = *p;
    tmLabel.tm_wday = iDayInWeek - 1;
    strftime(zReal, sizeof(zReal), "%A", p);
    strftime(zDay, sizeof(zDay), "%A", &tmLabel);
    strftime(zMonth, sizeof(zMonth), "%B", p);
    strftime(zMon, sizeof(zMon), "%b", p);
    snprintf(zWhy, sizeof(zWhy), "for %04d-%02d-%02d, a real %s", iYear,
             p->tm_mon + 1, p->tm_mday, zReal);
    snprintf(zShift, sizeof(zShift), "%s labelled as the next day, Sunday ="
             " 1", zWhy);
    snprintf(zWeek, sizeof(zWeek), "floor(daynuminyear/7)+1 %s", zWhy);

    ssbcheck_num(&t, D_DATEKEY, c->aKey[i], "every day from 1992-01-01, in"
                 " order");
    snprintf(zWant, sizeof(zWant), "%s %d, %d", zMonth, p->tm_mday, iYear);
    ssbcheck_str(&t, D_DATE, zWant, zWhy);
    ssbcheck_str(&t, D_DAYOFWEEK, zDay, zShift);
    ssbcheck_str(&t, D_MONTH, zMonth, zWhy);
    ssbcheck_num(&t, D_YEAR, iYear, zWhy);
    ssbcheck_num(&t, D_YEARMONTHNUM, iYear * 100 + p->tm_mon + 1, zWhy);
    snprintf(zWant, sizeof(zWant), "%s%d", zMon, iYear);
    ssbcheck_str(&t, D_YEARMONTH, zWant, zWhy);
    ssbcheck_num(&t, D_DAYNUMINWEEK, iDayInWeek, zShift);
    ssbcheck_num(&t, D_DAYNUMINMONTH, p->tm_mday, zWhy);
    ssbcheck_num(&t, D_DAYNUMINYEAR, iDayInYear, zWhy);
    ssbcheck_num(&t, D_MONTHNUMINYEAR, p->tm_mon + 1, zWhy);
    ssbcheck_num(&t, D_WEEKNUMINYEAR, iDayInYear / 7 + 1, zWeek);
    /* The rule above, pinned to SSB.md's own example. */
    if (c->aKey[i] >= 19940204 && c->aKey[i] <= 19940210) {
      ssbcheck_num(&t, D_WEEKNUMINYEAR, 6, "1994-02-04..10 is week 6");
    }
    ssbcheck_str(&t, D_SELLINGSEASON, ssbcheck_season(p->tm_mon), zWhy);
    ssbcheck_num(&t, D_LASTDAYINWEEKFL, iDayInWeek == 7, zShift);
    ssbcheck_num(&t, D_LASTDAYINMONTHFL, bLastInMonth, zWhy);
    ssbcheck_num(&t, D_HOLIDAYFL, bHoliday, zWhy);
    ssbcheck_num(&t, D_WEEKDAYFL, iDayInWeek >= 2 && iDayInWeek <= 6, zShift);
    nLastDayInMonth += bLastInMonth;
    nHoliday += bHoliday;
  }
  ssbcheck_rows(&t, SSBCHECK_DAYS, "every day 1992-01-01..1998-12-31, any SF");
  ssbcheck_close(&t);
  /* Per row the flags follow the reference; these pin the reference. */
  ASSERT_EQ(nLastDayInMonth, 84);
  ASSERT_EQ(nHoliday, 70);
}

/* ---- customer and supplier ---------------------------------------------- */

static const char *const ssbcheck_azNation[25] = {
  "ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE",
  "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN",
  "KENYA", "MOROCCO", "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA",
  "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES",
};
static const char *const ssbcheck_azRegionOf[25] = {
  "AFRICA", "AMERICA", "AMERICA", "AMERICA", "MIDDLE EAST", "AFRICA",
  "EUROPE", "EUROPE", "ASIA", "ASIA", "MIDDLE EAST", "MIDDLE EAST", "ASIA",
  "MIDDLE EAST", "AFRICA", "AFRICA", "AFRICA", "AMERICA", "ASIA", "EUROPE",
  "MIDDLE EAST", "ASIA", "EUROPE", "EUROPE", "AMERICA",
};
static const char *const ssbcheck_azSegment[5] = {
  "AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY",
};

/* Columns 2..6 of customer and supplier follow the same rules. */
enum { C_ADDRESS = 2, C_CITY, C_NATION, C_REGION, C_PHONE };

typedef struct ssbcheck_contact ssbcheck_contact;
struct ssbcheck_contact {
  int64_t aNation[25], aCity[250], aDigit[10], aAddrLen[19];
  char aCityName[250][12];            /* labels for aCity */
  const char *azCity[250];
};

static void ssbcheck_contact_row(const ssbcheck_tbl *t, ssbcheck_contact *y) {
  const char *z = t->az[C_ADDRESS];
  int n = t->an[C_ADDRESS], iNation, iDigit;
  char zCity9[16], zWant[8];
  if (n < 6 || n > 24) {
    ssbcheck_fail(t, C_ADDRESS, "6..24 characters, not %d", n);
  }
  for (int i = 0; i < n; i++) {
    char ch = z[i];
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z')
          || (ch >= 'A' && ch <= 'Z') || ch == ' ' || ch == ',')) {
      ssbcheck_fail(t, C_ADDRESS, "only 0-9 a-z A-Z space comma, not '%c'",
                    ch);
    }
  }
  iNation = ssbcheck_word(t, C_NATION, ssbcheck_azNation, 25);
  ssbcheck_str(t, C_REGION, ssbcheck_azRegionOf[iNation],
               ssbcheck_azNation[iNation]);

  snprintf(zCity9, sizeof(zCity9), "%-9.9s", ssbcheck_azNation[iNation]);
  z = t->az[C_CITY];
  if (t->an[C_CITY] != 10 || memcmp(z, zCity9, 9) != 0 || z[9] < '0'
      || z[9] > '9') {
    ssbcheck_fail(t, C_CITY, "\"%s\" and a digit: nation %s cut or"
                  " space-padded to 9 characters", zCity9,
                  ssbcheck_azNation[iNation]);
  }
  iDigit = z[9] - '0';

  /* "NN-ddd-ddd-dddd": NN = 10 + nation index, groups 100-999, 100-999,
  ** 1000-9999, so no group starts with 0. */
  z = t->az[C_PHONE];
  snprintf(zWant, sizeof(zWant), "%d-", 10 + iNation);
  if (t->an[C_PHONE] != 15 || memcmp(z, zWant, 3) != 0 || z[6] != '-'
      || z[10] != '-' || z[3] == '0' || z[7] == '0' || z[11] == '0') {
    goto bad_phone;
  }
  for (int i = 3; i < 15; i++) {
    if (i != 6 && i != 10 && (z[i] < '0' || z[i] > '9')) goto bad_phone;
  }
  y->aNation[iNation]++;
  y->aCity[iNation * 10 + iDigit]++;
  y->aDigit[iDigit]++;
  y->aAddrLen[n - 6]++;
  return;
bad_phone:
  ssbcheck_fail(t, C_PHONE, "\"%d-ddd-ddd-dddd\" (10 + index of %s; groups"
                " 100-999, 100-999, 1000-9999)", 10 + iNation,
                ssbcheck_azNation[iNation]);
}

static void ssbcheck_contact_totals(const char *zPath, const char *zPrefix,
                                    ssbcheck_contact *y, int64_t nRow) {
  char zCol[32];
  for (int i = 0; i < 250; i++) {
    snprintf(y->aCityName[i], sizeof(y->aCityName[i]), "%-9.9s%d",
             ssbcheck_azNation[i / 10], i % 10);
    y->azCity[i] = y->aCityName[i];
  }
  snprintf(zCol, sizeof(zCol), "%s_nation", zPrefix);
  ssbcheck_uniform(zPath, zCol, y->aNation, 25, nRow, 1, ssbcheck_azNation, 0);
  snprintf(zCol, sizeof(zCol), "%s_city", zPrefix);
  ssbcheck_uniform(zPath, zCol, y->aCity, 250, nRow, 1, y->azCity, 0);
  snprintf(zCol, sizeof(zCol), "%s_city's last digit", zPrefix);
  ssbcheck_uniform(zPath, zCol, y->aDigit, 10, nRow, 1, NULL, 0);
  snprintf(zCol, sizeof(zCol), "%s_address length", zPrefix);
  ssbcheck_uniform(zPath, zCol, y->aAddrLen, 19, nRow, 1, NULL, 6);
}

static const char *const ssbcheck_azCustCol[8] = {
  "c_custkey", "c_name", "c_address", "c_city", "c_nation", "c_region",
  "c_phone", "c_mktsegment",
};
static const char *const ssbcheck_azSuppCol[7] = {
  "s_suppkey", "s_name", "s_address", "s_city", "s_nation", "s_region",
  "s_phone",
};

/* Customer and supplier differ in names, row count and c_mktsegment. */
static void ssbcheck_contact_table(const char *zPath,
                                   const char *const *azCol, int nCol,
                                   const char *zName, int64_t nRow,
                                   const char *zRule) {
  ssbcheck_tbl t;
  ssbcheck_contact *y = calloc(1, sizeof(*y));
  int64_t aSeg[5] = {0};
  char zWant[48];
  ASSERT(y != NULL);
  ssbcheck_open(&t, zPath, azCol, nCol);
  while (ssbcheck_next(&t)) {
    if (t.iLine > nRow) {
      ssbcheck_fail(&t, -1, "the end of the file after %" PRId64 " rows (%s)",
                    nRow, zRule);
    }
    ssbcheck_num(&t, 0, t.iLine, "keys dense 1..N in order");
    snprintf(zWant, sizeof(zWant), "%s#%09" PRId64, zName, t.iLine);
    ssbcheck_str(&t, 1, zWant, "key zero-padded to 9 digits");
    ssbcheck_contact_row(&t, y);
    if (nCol == 8) aSeg[ssbcheck_word(&t, 7, ssbcheck_azSegment, 5)]++;
  }
  ssbcheck_rows(&t, nRow, zRule);
  ssbcheck_close(&t);
  ssbcheck_contact_totals(zPath, nCol == 8 ? "c" : "s", y, nRow);
  if (nCol == 8) {
    ssbcheck_uniform(zPath, "c_mktsegment", aSeg, 5, nRow, 1,
                     ssbcheck_azSegment, 0);
  }
  free(y);
}

void ssbcheck_customer(const ssbcheck_expect *e) {
  ssbcheck_contact_table("data/customer.tbl", ssbcheck_azCustCol, 8,
                         "Customer", e->nCustomer, "30,000*SF");
}

void ssbcheck_supplier(const ssbcheck_expect *e) {
  ssbcheck_contact_table("data/supplier.tbl", ssbcheck_azSuppCol, 7,
                         "Supplier", e->nSupplier, "2,000*SF");
}

/* ---- part ----------------------------------------------------------------- */

enum {
  P_PARTKEY, P_NAME, P_MFGR, P_CATEGORY, P_BRAND1, P_COLOR, P_TYPE, P_SIZE,
  P_CONTAINER, P_NCOL
};
static const char *const ssbcheck_azPartCol[P_NCOL] = {
  "p_partkey", "p_name", "p_mfgr", "p_category", "p_brand1", "p_color",
  "p_type", "p_size", "p_container",
};
#define SSBCHECK_NCOLOR 92
static const char *const ssbcheck_azColor[SSBCHECK_NCOLOR] = {
  "almond", "antique", "aquamarine", "azure", "beige", "bisque", "black",
  "blanched", "blue", "blush", "brown", "burlywood", "burnished",
  "chartreuse", "chiffon", "chocolate", "coral", "cornflower", "cornsilk",
  "cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick",
  "floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green",
  "grey", "honeydew", "hot", "indian", "ivory", "khaki", "lace", "lavender",
  "lawn", "lemon", "light", "lime", "linen", "magenta", "maroon", "medium",
  "metallic", "midnight", "mint", "misty", "moccasin", "navajo", "navy",
  "olive", "orange", "orchid", "pale", "papaya", "peach", "peru", "pink",
  "plum", "powder", "puff", "purple", "red", "rose", "rosy", "royal",
  "saddle", "salmon", "sandy", "seashell", "sienna", "sky", "slate",
  "smoke", "snow", "spring", "steel", "tan", "thistle", "tomato",
  "turquoise", "violet", "wheat", "white", "yellow",
};
static const char *const ssbcheck_azType1[6] = {
  "STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO",
};
static const char *const ssbcheck_azType2[5] = {
  "ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED",
};
static const char *const ssbcheck_azType3[5] = {
  "TIN", "NICKEL", "BRASS", "STEEL", "COPPER",
};
static const char *const ssbcheck_azCont1[5] = {
  "SM", "LG", "MED", "JUMBO", "WRAP",
};
static const char *const ssbcheck_azCont2[8] = {
  "CASE", "BOX", "BAG", "JAR", "PACK", "PKG", "CAN", "DRUM",
};

typedef struct ssbcheck_parttally ssbcheck_parttally;
struct ssbcheck_parttally {
  int64_t aMfgr[5], aCategory[25], aBrand[1000], aType[150], aSize[50];
  int64_t aContainer[40], aNameColor[SSBCHECK_NCOLOR], aColor[SSBCHECK_NCOLOR];
  /* Labels of the values tallied by index, for failure messages. */
  char aCategoryName[25][8], aBrandName[1000][12], aTypeName[150][32];
  char aContainerName[40][16];
  const char *azCategory[25], *azBrand[1000], *azType[150], *azContainer[40];
};

static void ssbcheck_part_labels(ssbcheck_parttally *y) {
  for (int i = 0; i < 1000; i++) {
    snprintf(y->aBrandName[i], sizeof(y->aBrandName[i]), "MFGR#%d%d%d",
             i / 200 + 1, i / 40 % 5 + 1, i % 40 + 1);
    y->azBrand[i] = y->aBrandName[i];
  }
  for (int i = 0; i < 25; i++) {
    snprintf(y->aCategoryName[i], sizeof(y->aCategoryName[i]), "MFGR#%d%d",
             i / 5 + 1, i % 5 + 1);
    y->azCategory[i] = y->aCategoryName[i];
  }
  for (int i = 0; i < 150; i++) {
    snprintf(y->aTypeName[i], sizeof(y->aTypeName[i]), "%s %s %s",
             ssbcheck_azType1[i / 25], ssbcheck_azType2[i / 5 % 5],
             ssbcheck_azType3[i % 5]);
    y->azType[i] = y->aTypeName[i];
  }
  for (int i = 0; i < 40; i++) {
    snprintf(y->aContainerName[i], sizeof(y->aContainerName[i]), "%s %s",
             ssbcheck_azCont1[i / 8], ssbcheck_azCont2[i % 8]);
    y->azContainer[i] = y->aContainerName[i];
  }
}

/* Splits field iCol into words at single spaces and looks each up in its
** list; aiOut gets their indexes. Fails unless there are exactly nWord. */
static void ssbcheck_words(const ssbcheck_tbl *t, int iCol, int nWord,
                           const char *const *const *aaz, const int *anList,
                           int *aiOut, const char *zWhat) {
  const char *z = t->az[iCol], *zEnd = z + t->an[iCol];
  for (int w = 0; w < nWord; w++) {
    const char *zWord = z;
    while (z < zEnd && *z != ' ') z++;
    aiOut[w] = ssbcheck_find(zWord, (int)(z - zWord), aaz[w], anList[w]);
    if (aiOut[w] < 0 || (w + 1 < nWord && z == zEnd)
        || (w + 1 == nWord && z != zEnd)) {
      ssbcheck_fail(t, iCol, "%s", zWhat);
    }
    if (z < zEnd) z++;
  }
}

static void ssbcheck_part_row(const ssbcheck_tbl *t, ssbcheck_parttally *y) {
  static const char *const *const aazName[2] = {ssbcheck_azColor,
                                                ssbcheck_azColor};
  static const char *const *const aazType[3] = {
    ssbcheck_azType1, ssbcheck_azType2, ssbcheck_azType3};
  static const char *const *const aazCont[2] = {ssbcheck_azCont1,
                                                ssbcheck_azCont2};
  static const int anName[2] = {SSBCHECK_NCOLOR, SSBCHECK_NCOLOR};
  static const int anType[3] = {6, 5, 5}, anCont[2] = {5, 8};
  const char *z;
  int aiName[2], aiType[3], aiCont[2], iColor, m, cat, b = 0;

  ssbcheck_words(t, P_NAME, 2, aazName, anName, aiName,
                 "two distinct colour words joined by a space");
  if (aiName[0] == aiName[1]) {
    ssbcheck_fail(t, P_NAME, "two distinct colour words joined by a space");
  }
  z = t->az[P_MFGR];
  if (t->an[P_MFGR] != 6 || memcmp(z, "MFGR#", 5) != 0 || z[5] < '1'
      || z[5] > '5') {
    ssbcheck_fail(t, P_MFGR, "\"MFGR#m\", m in 1..5");
  }
  m = z[5] - '1';
  z = t->az[P_CATEGORY];
  if (t->an[P_CATEGORY] != 7 || memcmp(z, t->az[P_MFGR], 6) != 0
      || z[6] < '1' || z[6] > '5') {
    ssbcheck_fail(t, P_CATEGORY, "p_mfgr \"%.6s\" and a digit 1..5",
                  t->az[P_MFGR]);
  }
  cat = m * 5 + (z[6] - '1');
  z = t->az[P_BRAND1];
  if (t->an[P_BRAND1] < 8 || t->an[P_BRAND1] > 9
      || memcmp(z, t->az[P_CATEGORY], 7) != 0 || z[7] == '0') {
    goto bad_brand;
  }
  for (int i = 7; i < t->an[P_BRAND1]; i++) {
    if (z[i] < '0' || z[i] > '9') goto bad_brand;
    b = b * 10 + (z[i] - '0');
  }
  if (b < 1 || b > 40) goto bad_brand;
  iColor = ssbcheck_word(t, P_COLOR, ssbcheck_azColor, SSBCHECK_NCOLOR);
  if (iColor == aiName[0] || iColor == aiName[1]) {
    ssbcheck_fail(t, P_COLOR, "a colour other than the two of p_name \"%.*s\"",
                  t->an[P_NAME], t->az[P_NAME]);
  }
  ssbcheck_words(t, P_TYPE, 3, aazType, anType, aiType,
                 "three words of the 6x5x5 type lists");
  ssbcheck_words(t, P_CONTAINER, 2, aazCont, anCont, aiCont,
                 "two words of the 5x8 container lists");
  y->aSize[ssbcheck_int(t, P_SIZE, 1, 50) - 1]++;
  y->aMfgr[m]++;
  y->aCategory[cat]++;
  y->aBrand[cat * 40 + b - 1]++;
  y->aNameColor[aiName[0]]++;
  y->aNameColor[aiName[1]]++;
  y->aColor[iColor]++;
  y->aType[(aiType[0] * 5 + aiType[1]) * 5 + aiType[2]]++;
  y->aContainer[aiCont[0] * 8 + aiCont[1]]++;
  return;
bad_brand:
  ssbcheck_fail(t, P_BRAND1, "p_category \"%.7s\" and 1..40, not zero-padded",
                t->az[P_CATEGORY]);
}

/* Fails if one of aCount[0..n-1] is 0. */
static void ssbcheck_all_seen(const char *zCol, const int64_t *aCount, int n,
                              const char *const *azLabel) {
  for (int i = 0; i < n; i++) {
    if (aCount[i] == 0) {
      FAIL("data/part.tbl: %s: \"%s\" never occurs, expected all %d values"
           " at SF >= 0.1", zCol, azLabel[i], n);
    }
  }
}

void ssbcheck_part(const ssbcheck_expect *e) {
  static const char zPath[] = "data/part.tbl";
  ssbcheck_tbl t;
  ssbcheck_parttally *y = calloc(1, sizeof(*y));
  ASSERT(y != NULL);
  ssbcheck_open(&t, zPath, ssbcheck_azPartCol, P_NCOL);
  while (ssbcheck_next(&t)) {
    if (t.iLine > e->nPart) {
      ssbcheck_fail(&t, -1, "the end of the file after %" PRId64 " rows",
                    e->nPart);
    }
    ssbcheck_num(&t, P_PARTKEY, t.iLine, "keys dense 1..N in order");
    ssbcheck_part_row(&t, y);
  }
  ssbcheck_rows(&t, e->nPart, "200,000*SF below SF 1, else"
                " 200,000*floor(1+log2 SF)");
  ssbcheck_close(&t);
  ssbcheck_part_labels(y);
  ssbcheck_uniform(zPath, "p_mfgr", y->aMfgr, 5, e->nPart, 1, NULL, 1);
  ssbcheck_uniform(zPath, "p_category", y->aCategory, 25, e->nPart, 1,
                   y->azCategory, 0);
  ssbcheck_uniform(zPath, "p_brand1", y->aBrand, 1000, e->nPart, 1,
                   y->azBrand, 0);
  ssbcheck_uniform(zPath, "p_name's colours", y->aNameColor, SSBCHECK_NCOLOR,
                   e->nPart, 2, ssbcheck_azColor, 0);
  ssbcheck_uniform(zPath, "p_color", y->aColor, SSBCHECK_NCOLOR, e->nPart, 1,
                   ssbcheck_azColor, 0);
  ssbcheck_uniform(zPath, "p_type", y->aType, 150, e->nPart, 1, y->azType,
                   0);
  ssbcheck_uniform(zPath, "p_size", y->aSize, 50, e->nPart, 1, NULL, 1);
  ssbcheck_uniform(zPath, "p_container", y->aContainer, 40, e->nPart, 1,
                   y->azContainer, 0);
  /* At SF 0.1 a brand, the rarest, has 20 parts on average: odds of e^-20
  ** of never occurring. */
  if (e->rSf >= 0.1) {
    ssbcheck_all_seen("p_brand1", y->aBrand, 1000, y->azBrand);
    ssbcheck_all_seen("p_type", y->aType, 150, y->azType);
    ssbcheck_all_seen("p_container", y->aContainer, 40, y->azContainer);
  }
  free(y);
}
