/*
** ssb-data/calendar.c — the `date` dimension and day arithmetic.
**
** Days are numbered from 1992-01-01 (day 0). Conversions use Howard
** Hinnant's civil-from-days algorithm, exact for the proleptic Gregorian
** calendar, so no table of month lengths or leap rules is kept here.
**
** Two dbgen quirks are reproduced on purpose (../shared/SSB.md, DATE):
** d_dayofweek is shifted one day from the real calendar (1992-01-01, a
** Wednesday, is labelled Thursday, d_daynuminweek 5), and d_weeknuminyear
** is day_in_year / 7 + 1, not an ISO week.
*/
#include <stdio.h>

#include "ssb.h"

static const char *const calendar_aMonth[12] = {
  "January", "February", "March", "April", "May", "June", "July",
  "August", "September", "October", "November", "December",
};

/* Indexed by d_daynuminweek - 1. */
static const char *const calendar_aDay[7] = {
  "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
  "Saturday",
};

/* Days from 1970-01-01 to 1992-01-01. */
#define CALENDAR_EPOCH_1992 8035

/* Splits day number iDay (since 1970-01-01) into year, month 1..12 and day
** of month 1..31. */
static void calendar_civil(int64_t iDay, int *pY, int *pM, int *pD) {
  int64_t z = iDay + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t d = doy - (153 * mp + 2) / 5 + 1;
  int64_t m = mp < 10 ? mp + 3 : mp - 9;
  *pY = (int)(yoe + era * 400 + (m <= 2));
  *pM = (int)m;
  *pD = (int)d;
}

static int calendar_is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int calendar_month_days(int y, int m) {
  static const int aDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && calendar_is_leap(y) ? 29 : aDays[m - 1];
}

int32_t ssb_date_key(int iDay) {
  int y, m, d;
  calendar_civil(CALENDAR_EPOCH_1992 + iDay, &y, &m, &d);
  return y * 10000 + m * 100 + d;
}

static const char *calendar_season(int m) {
  if (m <= 3) return "Winter";
  if (m == 4) return "Spring";
  if (m <= 8) return "Summer";
  if (m <= 10) return "Fall";
  return "Christmas";
}

/* dbgen's holidays: New Year's Day, the 20th of eight months, Christmas Eve. */
static int calendar_is_holiday(int m, int d) {
  if (m == 1) return d == 1;
  if (m == 12) return d == 24;
  return d == 20 && m != 3 && m != 6;
}

void ssb_date_row(int iDay, ssb_date *p) {
  int y, m, d, iDayInYear = 1;
  calendar_civil(CALENDAR_EPOCH_1992 + iDay, &y, &m, &d);
  for (int i = 1; i < m; i++) iDayInYear += calendar_month_days(y, i);
  iDayInYear += d - 1;

  p->iDateKey = y * 10000 + m * 100 + d;
  snprintf(p->zDate, sizeof(p->zDate), "%s %d, %d", calendar_aMonth[m - 1], d, y);
  p->iDayNumInWeek = (iDay + 4) % 7 + 1;
  p->zDayOfWeek = calendar_aDay[p->iDayNumInWeek - 1];
  p->zMonth = calendar_aMonth[m - 1];
  p->iYear = y;
  p->iYearMonthNum = y * 100 + m;
  snprintf(p->zYearMonth, sizeof(p->zYearMonth), "%.3s%04d", calendar_aMonth[m - 1], y % 10000);
  p->iDayNumInMonth = d;
  p->iDayNumInYear = iDayInYear;
  p->iMonthNumInYear = m;
  p->iWeekNumInYear = iDayInYear / 7 + 1;
  p->zSellingSeason = calendar_season(m);
  p->bLastDayInWeek = p->iDayNumInWeek == 7;
  p->bLastDayInMonth = d == calendar_month_days(y, m);
  p->bHoliday = calendar_is_holiday(m, d);
  p->bWeekday = p->iDayNumInWeek >= 2 && p->iDayNumInWeek <= 6;
}
