/*
** storage/dictcache.c — dictionaries opened once per process and shared.
**
** Every result with a string column needs that column's dictionary to
** print its codes, and opening one (open, fstat, mmap, the check of every
** offset and of the order of every string, then munmap and close) cost
** 12 to 22 microseconds a column on the development VM — per query, for a
** file that does not change. So store_dict_share() keeps what it opened:
** the next query for the same file gets the same mapping with a
** reference, and nothing is opened or checked again.
**
** "The same file" is the same path naming the same file: same device,
** inode, size and modification time, which one stat() tells (a data
** directory deleted and generated again at the same path holds other
** files under the same names). While a dictionary is kept, its mapping
** holds its inode, so no file made meanwhile can get that inode's number;
** and dictionaries are never rewritten in place — a load writes a new
** generation's files — so a file that is the same by those is the same
** dictionary.
**
** At most DICTCACHE_KEPT dictionaries no one holds stay open, the least
** recently used closed first; one that is held is never closed. A mapping
** outlives its file's removal (the old generation after a load), so a
** held reference stays readable whatever happens to the file.
**
** INTERFACE ROUTINES (store.h)
**   store_dict_share     the shared dictionary of a file, with a reference
**   store_dict_unshare   drop the reference
**   store_dict_ref_add   another reference
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store.h"

/* Dictionaries kept open with no reference, at most. */
#define DICTCACHE_KEPT 64

struct store_dict_ref {
  char *zPath;             /* owned */
  struct stat st;          /* the file's identity when it was opened */
  store_dict d;
  int nRef;
  uint64_t iUsed;          /* dictcache_iClock at the last share */
  store_dict_ref *pNext;
};

static pthread_mutex_t dictcache_mu = PTHREAD_MUTEX_INITIALIZER;
static store_dict_ref *dictcache_pList;   /* guarded by dictcache_mu */
static uint64_t dictcache_iClock;

/* 1 if a and b describe the same file, unchanged. */
static int dictcache_same(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void dictcache_free(store_dict_ref *p) {
  store_dict_close(&p->d);
  free(p->zPath);
  free(p);
}

/* Closes unreferenced dictionaries whose file changed, and the least
** recently used unreferenced ones past DICTCACHE_KEPT. Called with the
** mutex held; pNew (just opened for zPath) is kept. */
static void dictcache_trim(const store_dict_ref *pNew) {
  int nIdle = 0;
  for (store_dict_ref **pp = &dictcache_pList; *pp != NULL;) {
    store_dict_ref *p = *pp;
    if (p != pNew && p->nRef == 0 && pNew != NULL && strcmp(p->zPath, pNew->zPath) == 0) {
      *pp = p->pNext;                       /* an older file of the same name */
      dictcache_free(p);
      continue;
    }
    nIdle += p->nRef == 0;
    pp = &p->pNext;
  }
  while (nIdle > DICTCACHE_KEPT) {
    store_dict_ref **ppOld = NULL;
    for (store_dict_ref **pp = &dictcache_pList; *pp != NULL; pp = &(*pp)->pNext) {
      if ((*pp)->nRef == 0 && (ppOld == NULL || (*pp)->iUsed < (*ppOld)->iUsed)) ppOld = pp;
    }
    store_dict_ref *p = *ppOld;
    *ppOld = p->pNext;
    dictcache_free(p);
    nIdle--;
  }
}

/* The entry for zPath whose file is st's, with a new reference, or NULL.
** Called with the mutex held. */
static store_dict_ref *dictcache_find(const char *zPath, const struct stat *st) {
  for (store_dict_ref *p = dictcache_pList; p != NULL; p = p->pNext) {
    if (strcmp(p->zPath, zPath) == 0 && dictcache_same(&p->st, st)) {
      p->nRef++;
      p->iUsed = ++dictcache_iClock;
      return p;
    }
  }
  return NULL;
}

int store_dict_share(const char *zPath, const store_dict **ppDict, store_dict_ref **ppRef,
                     char *zErr, size_t nErr) {
  store_dict_ref *p, *pOther;
  struct stat st;
  int bStat;
  *ppDict = NULL;
  *ppRef = NULL;
  if ((bStat = stat(zPath, &st) == 0)) {
    pthread_mutex_lock(&dictcache_mu);
    p = dictcache_find(zPath, &st);
    pthread_mutex_unlock(&dictcache_mu);
    if (p != NULL) {
      *ppDict = &p->d;
      *ppRef = p;
      return 0;
    }
  }
  /* Opened outside the lock: checking a large dictionary takes a while. A
  ** file that cannot be stat'ed fails here, with store_dict_open's words. */
  if ((p = calloc(1, sizeof(*p))) == NULL || (p->zPath = strdup(zPath)) == NULL) {
    free(p);
    snprintf(zErr, nErr, "out of memory opening %s", zPath);
    return -1;
  }
  if (store_dict_open(&p->d, zPath, zErr, nErr) != 0) {
    free(p->zPath);
    free(p);
    return -1;
  }
  /* The identity is the one seen before opening. A file replaced in
  ** between is kept under the old one's: never found again, opened anew
  ** by the next query, never served for the wrong file. */
  if (bStat) p->st = st;
  else if (stat(zPath, &p->st) != 0) memset(&p->st, 0, sizeof(p->st));
  pthread_mutex_lock(&dictcache_mu);
  if ((pOther = dictcache_find(zPath, &p->st)) != NULL) {
    pthread_mutex_unlock(&dictcache_mu);    /* another thread opened it meanwhile */
    dictcache_free(p);
    p = pOther;
  } else {
    p->nRef = 1;
    p->iUsed = ++dictcache_iClock;
    p->pNext = dictcache_pList;
    dictcache_pList = p;
    dictcache_trim(p);
    pthread_mutex_unlock(&dictcache_mu);
  }
  *ppDict = &p->d;
  *ppRef = p;
  return 0;
}

void store_dict_unshare(store_dict_ref *p) {
  if (p == NULL) return;
  pthread_mutex_lock(&dictcache_mu);
  p->nRef--;
  dictcache_trim(NULL);
  pthread_mutex_unlock(&dictcache_mu);
}

store_dict_ref *store_dict_ref_add(store_dict_ref *p) {
  pthread_mutex_lock(&dictcache_mu);
  p->nRef++;
  pthread_mutex_unlock(&dictcache_mu);
  return p;
}
