/*
** common/progress.h — a one-line progress display for long work
** (generation, loading, benchmarks).
**
** The line is drawn on stderr only when stderr is a terminal, at most ten
** times a second, and rewritten in place; on a pipe or a file nothing is
** drawn, so logs stay clean. A progress value is owned by the one thread
** that calls it.
*/
#ifndef STARQ_PROGRESS_H
#define STARQ_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct progress progress;
struct progress {
  const char *zLabel;    /* what is being done; borrowed */
  const char *zUnit;     /* what nItem counts ("rows"); borrowed */
  int64_t nTotal;        /* units of work in all, > 0 */
  double tStart;         /* when progress_begin() ran */
  double tShown;         /* when the line was last drawn */
  int bShow;             /* stderr is a terminal and the caller wants it */
};

/* Starts a display for nTotal units of work. bQuiet turns it off. */
void progress_begin(progress *p, const char *zLabel, const char *zUnit,
                    int64_t nTotal, int bQuiet);

/* Redraws the line: iDone units of nTotal are done and nItem things made. */
void progress_show(progress *p, int64_t iDone, int64_t nItem);

/* Draws the line one last time, at 100%, and ends it with a newline. */
void progress_end(progress *p, int64_t nItem);

/* Writes v with thousands separators ("6,001,173") into z. Returns z. */
char *progress_count(char *z, size_t n, int64_t v);

#endif /* STARQ_PROGRESS_H */
