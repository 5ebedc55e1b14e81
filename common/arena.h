/*
** common/arena.h — a bump allocator for objects that die together.
**
** A parse tree and everything the binder hangs on it live in one arena and
** are freed in one call, so no node needs a destructor and an error path
** halfway through a parse leaks nothing. Owned by one thread at a time.
*/
#ifndef STARQ_ARENA_H
#define STARQ_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;

typedef struct arena arena;
struct arena {
  arena_block *pBlock;     /* newest block first; owned */
  size_t nUsed;            /* bytes used in pBlock */
  size_t nTotal;           /* bytes handed out in all, for statistics */
};

void arena_init(arena *a);

/* Frees every block; the arena is empty and usable again. */
void arena_free(arena *a);

/* Returns n bytes aligned for any type, zeroed, or NULL if memory ran
** out. Valid until arena_free(). */
void *arena_alloc(arena *a, size_t n);

/* Returns a NUL-terminated copy of z[0..n), or NULL if memory ran out. */
char *arena_strndup(arena *a, const char *z, size_t n);

#endif /* STARQ_ARENA_H */
