/*
** planner/groupby_hot.c — replicas of hot groups in a block's shared-memory
** table (paper 000, Sitaridi & Ross, "Ameliorating Memory Contention of
** OLAP Operators on GPU Processors", DaMoN 2012, §3): the decision of how
** many of the most frequent groups get extra slots, and how many each.
**
** Why: a shared-memory table turns global atomics into shared ones, but
** under skew the threads of a warp that update one heavy hitter still
** write one address, and the hardware serializes those writes (a value
** conflict, §2); nearby warps of the block queue on it too (§3.3's
** window). A group with R replicas in consecutive slots, replica chosen by
** thread index, spreads those writes over R addresses; codegen stores the
** table word-major, so consecutive slots are consecutive 8-byte words and
** the replicas a warp touches fall in distinct banks.
**
** The paper places copies offline by a BFS over each chunk of the fact
** table and rewrites the column; starq cannot rewrite a column per query,
** so it replicates by frequency instead: what the paper's algorithm ends
** up doing for skewed data ("many copies of a few popular items", §4,
** Fig. 3). The planner brings the frequencies (catalog code counts); this
** file only decides. Pure: no catalog, no I/O, no allocation.
**
** INTERFACE ROUTINES
**   groupby_plan_replicate
**   groupby_hot_add         keep a code in an input's list of hot groups
*/
#include "groupby.h"

/* Threads of a warp: the unit within which simultaneous writes to one
** address serialize (paper 000 §2, Fig. 1). */
#define GROUPBY_HOT_WARP 32

/* A group is hot when a warp of uniformly drawn rows is expected to hold
** at least this many of its rows: one means a second lane of the warp is
** as likely as not to hit it too, a value conflict. The paper's own
** threshold for "cannot be fixed by reordering" is a frequency above
** 1/32, the same point (§3.1). */
#define GROUPBY_HOT_MIN_LANES 1.0

/* Warps whose in-flight updates can collide with one another: the
** paper's window, where "most of the benefit of windowing occurs with a
** window size of 16 chunks" (§4, Fig. 5). A hot group gets enough
** replicas for its expected rows in that many warps. */
#define GROUPBY_HOT_WINDOW 16

/* Bytes per code of the map from a code to its first slot and replica
** mask (codegen's sq_gt_slot). */
#define GROUPBY_HOT_MAP_BYTE 4

/* Map entries hold a slot in 16 bits and a replica mask in 16 bits. */
#define GROUPBY_HOT_MAX_SLOTS 65536u
#define GROUPBY_HOT_MAX_REPLICA 1024

/* The smallest power of two >= x, at least 2 and at most nMax (a power of
** two). */
static int groupby_hot_replicas(double x, int nMax) {
  int n = 2;
  while (n < nMax && (double)n < x) n *= 2;
  return n;
}

int groupby_plan_replicate(groupby_plan *p, const groupby_device *pDev,
                           const groupby_input *pIn, int bForce) {
  uint64_t nSlotByte = (uint64_t)p->nSlotByte;
  uint64_t nBase, nShSlot, nLeft;
  int nMaxReplica, nHot = 0;
  if (p->eKind != GROUPBY_DENSE || p->ePlace != GROUPBY_PLACE_SHARED || pIn->nHot <= 0 || p->nHot > 0 ||
      nSlotByte == 0 || p->nSlot >= GROUPBY_HOT_MAX_SLOTS) {
    return 0;
  }
  nBase = p->nSlot * nSlotByte + p->nSlot * GROUPBY_HOT_MAP_BYTE;
  if (nBase >= GROUPBY_SHARED_STATIC_MAX) return 0;
  nLeft = (GROUPBY_SHARED_STATIC_MAX - nBase) / nSlotByte;
  nShSlot = p->nSlot;
  nMaxReplica = p->nThread < GROUPBY_HOT_MAX_REPLICA ? p->nThread : GROUPBY_HOT_MAX_REPLICA;
  if (nMaxReplica < 2) return 0;

  for (int i = 0; i < pIn->nHot && i < GROUPBY_MAX_HOT; i++) {
    const groupby_hot *h = &pIn->aHot[i];
    double rLanes = h->rShare * GROUPBY_HOT_WARP;
    int nRep;
    if (h->iCode >= p->nSlot || !(h->rShare > 0)) continue;
    if (!bForce && rLanes < GROUPBY_HOT_MIN_LANES) break;   /* the rest are rarer */
    nRep = groupby_hot_replicas(rLanes * GROUPBY_HOT_WINDOW, nMaxReplica);
    while (nRep > 2 && (uint64_t)nRep > nLeft) nRep /= 2;
    if ((uint64_t)nRep > nLeft || nShSlot + (uint64_t)nRep > GROUPBY_HOT_MAX_SLOTS) break;
    p->aHotCode[nHot] = h->iCode;
    p->aHotReplica[nHot] = nRep;
    p->aHotBase[nHot] = nShSlot;
    p->aHotShare[nHot] = h->rShare;
    nShSlot += (uint64_t)nRep;
    nLeft -= (uint64_t)nRep;
    nHot++;
  }
  if (nHot == 0) return 0;
  p->nHot = nHot;
  p->nShSlot = nShSlot;
  p->nSharedByte = nShSlot * nSlotByte + p->nSlot * GROUPBY_HOT_MAP_BYTE;
  /* Fewer blocks per SM if the larger table no longer fits as many. */
  uint64_t nBySmem = pDev->nSharedPerSm / (p->nSharedByte + pDev->nSharedReserved);
  if (nBySmem >= 1 && (uint64_t)p->nBlockPerSm > nBySmem) {
    p->nBlockPerSm = (int)nBySmem;
    p->nBlock = pDev->nSm * p->nBlockPerSm;
    p->nCopy = (uint64_t)p->nBlock;
  }
  return nHot;
}

void groupby_hot_add(groupby_input *pIn, uint64_t iCode, double rShare) {
  int i;
  if (!(rShare > 0)) return;
  if (pIn->nHot == GROUPBY_MAX_HOT && !(rShare > pIn->aHot[GROUPBY_MAX_HOT - 1].rShare)) return;
  if (pIn->nHot < GROUPBY_MAX_HOT) pIn->nHot++;
  /* Shift the rarer ones down (the last falls off a full list). */
  for (i = pIn->nHot - 1; i > 0 && pIn->aHot[i - 1].rShare < rShare; i--) {
    pIn->aHot[i] = pIn->aHot[i - 1];
  }
  pIn->aHot[i].iCode = iCode;
  pIn->aHot[i].rShare = rShare;
}
