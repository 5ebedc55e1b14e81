/*
** common/progress.c — the progress line of progress.h.
*/
#include <stdio.h>
#include <unistd.h>

#include "progress.h"
#include "timer.h"

char *progress_count(char *z, size_t n, int64_t v) {
  char a[32];
  int nDigit = snprintf(a, sizeof(a), "%lld", (long long)(v < 0 ? -v : v));
  size_t j = 0;
  if (v < 0 && j + 1 < n) z[j++] = '-';
  for (int i = 0; i < nDigit && j + 1 < n; i++) {
    if (i > 0 && (nDigit - i) % 3 == 0 && j + 2 < n) z[j++] = ',';
    z[j++] = a[i];
  }
  if (n > 0) z[j] = 0;
  return z;
}

void progress_begin(progress *p, const char *zLabel, const char *zUnit,
                    int64_t nTotal, int bQuiet) {
  p->zLabel = zLabel;
  p->zUnit = zUnit;
  p->nTotal = nTotal > 0 ? nTotal : 1;
  p->tStart = p->tShown = timer_now();
  p->bShow = !bQuiet && isatty(STDERR_FILENO);
}

static void progress_draw(progress *p, int64_t iDone, int64_t nItem, double t) {
  char zItem[32];
  fprintf(stderr, "\r\033[K  %-12s %3d%%  %s %s  %.1f s", p->zLabel,
          (int)(100 * iDone / p->nTotal), progress_count(zItem, sizeof(zItem), nItem),
          p->zUnit, t - p->tStart);
  p->tShown = t;
}

void progress_show(progress *p, int64_t iDone, int64_t nItem) {
  double t;
  if (!p->bShow) return;
  t = timer_now();
  if (t - p->tShown < 0.1) return;
  progress_draw(p, iDone, nItem, t);
  fflush(stderr);
}

void progress_end(progress *p, int64_t nItem) {
  if (!p->bShow) return;
  progress_draw(p, p->nTotal, nItem, timer_now());
  fputc('\n', stderr);
}
