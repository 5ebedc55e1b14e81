/*
** common/arena.c — the bump allocator of arena.h. Blocks double from 4 KiB
** up to 1 MiB; a request bigger than a block gets a block of its own.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

struct arena_block {
  arena_block *pNext;      /* older block */
  size_t nSize;            /* bytes of aData */
  max_align_t aData[];
};

#define ARENA_BLOCK_MIN 4096
#define ARENA_BLOCK_MAX (1u << 20)

void arena_init(arena *a) {
  a->pBlock = NULL;
  a->nUsed = 0;
  a->nTotal = 0;
}

void arena_free(arena *a) {
  while (a->pBlock != NULL) {
    arena_block *p = a->pBlock;
    a->pBlock = p->pNext;
    free(p);
  }
  arena_init(a);
}

void *arena_alloc(arena *a, size_t n) {
  size_t nAlign = sizeof(max_align_t);
  size_t nNeed = (n + nAlign - 1) / nAlign * nAlign;
  void *p;
  if (nNeed < n) return NULL;   /* overflow */
  if (a->pBlock == NULL || a->pBlock->nSize - a->nUsed < nNeed) {
    size_t nSize = a->pBlock ? a->pBlock->nSize * 2 : ARENA_BLOCK_MIN;
    arena_block *b;
    if (nSize > ARENA_BLOCK_MAX) nSize = ARENA_BLOCK_MAX;
    if (nSize < nNeed) nSize = nNeed;
    b = malloc(sizeof(arena_block) + nSize);
    if (b == NULL) return NULL;
    b->pNext = a->pBlock;
    b->nSize = nSize;
    a->pBlock = b;
    a->nUsed = 0;
  }
  p = (char *)a->pBlock->aData + a->nUsed;
  a->nUsed += nNeed;
  a->nTotal += nNeed;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(arena *a, const char *z, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (p == NULL) return NULL;
  memcpy(p, z, n);
  p[n] = 0;
  return p;
}
