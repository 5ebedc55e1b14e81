/*
** common/timer.h — a monotonic clock in seconds, for progress lines,
** benchmarks and timeouts. Never for wall-clock dates.
*/
#ifndef STARQ_TIMER_H
#define STARQ_TIMER_H

#include <time.h>

static inline double timer_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif /* STARQ_TIMER_H */
