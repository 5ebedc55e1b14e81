/*
** common/procmem.h — how much memory a running process holds, read from
** /proc: what the streamed-result test and benchmark watch to show that
** a large result does not sit in the server's memory.
**
** INTERFACE ROUTINES
**   procmem_rss        a process's resident bytes
**   procmem_rss_tree   a process's and its children's (starqd and its worker)
*/
#ifndef STARQ_COMMON_PROCMEM_H
#define STARQ_COMMON_PROCMEM_H

#include <stdint.h>

/* pid's resident bytes (VmRSS), or -1 if it cannot be read. */
int64_t procmem_rss(int pid);
/* The resident bytes of pid and its direct children, or -1 if pid's
** cannot be read. */
int64_t procmem_rss_tree(int pid);

#endif /* STARQ_COMMON_PROCMEM_H */
