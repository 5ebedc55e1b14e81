/*
** common/timer.h — a monotonic clock in seconds, for progress lines,
** benchmarks and timeouts. Never for wall-clock dates. And
** timer_cond_wait_ms, a condition wait that also wakes after ms
** milliseconds, for a waiter that looks at a cancel flag meanwhile (the
** condition variable on the default, realtime, clock).
*/
#ifndef STARQ_TIMER_H
#define STARQ_TIMER_H

#include <pthread.h>
#include <time.h>

static inline double timer_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void timer_cond_wait_ms(pthread_cond_t *cv, pthread_mutex_t *mu, long ms) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += ms / 1000;
  ts.tv_nsec += (ms % 1000) * 1000000L;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  (void)pthread_cond_timedwait(cv, mu, &ts);
}

#endif /* STARQ_TIMER_H */
