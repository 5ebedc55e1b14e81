/*
** planner/model.h — the machine as the optimizer's cost model sees it: the
** constants of predicate ordering (predorder_model, paper 004) and of the
** group-by rules (groupby_device, paper 003), and the device they are for.
**
** Every constant has its default (predorder_model_default(),
** groupby_device_default(): an H100 SXM), which plans on every device;
** the paper's calibration run [004 §4 "Model Calibration"] is not done.
** model.c gives each constant a stable name ("pred.rate.2" for r_2,
** "dev.l2_bytes" for the L2 size), its C type and the values it may take:
** planner_model_check() refuses a model whose caller set a constant out
** of range, naming it, before a plan divides by it.
**
** Device names: "<CUDA device name>/sm_<major><minor>" for a GPU (e.g.
** "NVIDIA H100 80GB HBM3/sm_90"), "cpu" for the CPU backend; EXPLAIN
** names the device a plan was costed for.
**
** A planner_model is plain data, owned by whoever declared it, and may be
** copied.
**
** INTERFACE ROUTINES
**   planner_model_default    the defaults, for a device
**   planner_model_check      every constant in its range
**   planner_model_describe   one EXPLAIN line: which constants, which device
*/
#ifndef STARQ_PLANNER_MODEL_H
#define STARQ_PLANNER_MODEL_H

#include <stddef.h>

#include "groupby.h"
#include "predorder.h"

/* Room for a device name: CUDA's own is at most 255 bytes, and "/sm_NNN"
** follows it. A longer name is refused. */
#define PLANNER_MODEL_DEVICE_SIZE 272

/* Room for a predicate order spelled out (planner_model.zPredOrder): the
** longest plan of PREDORDER_MAX_DP conditions, "1&&2&&...&&32", takes
** 117 bytes. */
#define PLANNER_PREDORDER_SIZE 128

typedef struct planner_model planner_model;
struct planner_model {
  predorder_model pred;    /* predicate order and kernel split (paper 004) */
  groupby_device dev;      /* group-by rules (paper 003) */
  int bResident;           /* fact columns are read from device memory (the
                           ** executor's resident cache): SCANs are compiled
                           ** for a full SM (codegen/scan.c); set by the
                           ** executor */
  char zDevice[PLANNER_MODEL_DEVICE_SIZE];      /* the device it is for */
  /* Not the machine but an order to plan by, for measuring plans the
  ** model would not choose (bench/query --predorder): "" (the default),
  ** the optimizer's predicate order; "rank", its search over the rank
  ** order alone; else the SCAN's condition plan spelled out for
  ** predorder_plan_force() ("3&&1&2": condition numbers, fact predicates
  ** first, then the probes, joined by `&`, `&&` and `|`), which
  ** plan_build() refuses with 22023 where it does not fit the query. */
  char zPredOrder[PLANNER_PREDORDER_SIZE];
};

/* Fills *p with the defaults for device zDevice. Returns 0, or -1 with
** zErr set if zDevice is empty or does not fit (*p still holds the
** defaults). */
int planner_model_default(const char *zDevice, planner_model *p, char *zErr, size_t nErr);

/* Checks every named constant of *p against its range (a rate in (0, 2],
** a bandwidth > 0, a count >= 1 and whole, ...) and against the others
** where they bound each other (threads and shared memory per block at
** most those per SM). plan_build() checks the model it is given. Returns
** 0, or -1 with zErr naming the device, the constant and its value:
**   cost model for "cpu": "pred.scan_bw" is 0; it must be > 0 */
int planner_model_check(const planner_model *p, char *zErr, size_t nErr);

/* Writes one line for EXPLAIN into z (always terminated when n > 0):
**   cost model: defaults (H100 SXM) for "NVIDIA H100 80GB HBM3/sm_90"
** Returns the length the whole line needs, as snprintf() does. */
size_t planner_model_describe(const planner_model *p, char *z, size_t n);

#endif /* STARQ_PLANNER_MODEL_H */
