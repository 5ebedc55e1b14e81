/*
** planner/model.h — the machine as the optimizer's cost model sees it: the
** constants of predicate ordering (predorder_model, paper 004) and of the
** group-by rules (groupby_device, paper 003), with where they came from.
**
** Each constant has a default (predorder_model_default(),
** groupby_device_default(): an H100 SXM) and may be replaced by what a
** calibration run measured on the machine [004 §4 "Model Calibration"].
** Measured values live in the catalog (cat_calib_set()), one set per
** device, under the stable names listed in model.c's table, e.g.
** "pred.rate.2" for r_2 or "dev.l2_bytes" for the L2 size. A name the
** catalog holds and this build does not know is ignored (a newer build
** may measure more); a constant the catalog lacks keeps its default.
**
** Device names: "<CUDA device name>/sm_<major><minor>" for a GPU (e.g.
** "NVIDIA H100 80GB HBM3/sm_90"), "cpu" for the CPU backend. The same data
** directory moved to another machine thus finds no calibration for it and
** plans with defaults rather than with another GPU's numbers.
**
** A planner_model is plain data, owned by whoever declared it, and may be
** copied.
**
** INTERFACE ROUTINES
**   planner_model_default    the defaults, marked as such, for a device
**   planner_model_load       defaults overridden by the catalog's values
**   planner_model_save       store every constant as a device's calibration
**   planner_model_describe   one EXPLAIN line: calibrated when, or defaults
*/
#ifndef STARQ_PLANNER_MODEL_H
#define STARQ_PLANNER_MODEL_H

#include <stddef.h>

#include "../catalog/catalog.h"
#include "groupby.h"
#include "predorder.h"

/* Room for a device name: CUDA's own is at most 255 bytes, and "/sm_NNN"
** follows it. A longer name is refused. */
#define PLANNER_MODEL_DEVICE_SIZE 272

/* Room for "YYYY-MM-DDTHH:MM:SSZ" with some to spare. */
#define PLANNER_MODEL_TIME_SIZE 32

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
                           ** executor, never stored with a calibration */
  int bCalibrated;         /* the catalog holds a calibration for zDevice;
                           ** the constants it lacks are still defaults */
  char zDevice[PLANNER_MODEL_DEVICE_SIZE];      /* the device it is for */
  char zMeasuredAt[PLANNER_MODEL_TIME_SIZE];    /* UTC time of the run, or ""
                                                ** when not calibrated */
  /* Not the machine but an order to plan by, for measuring plans the
  ** model would not choose (bench/query --predorder): "" (the default),
  ** the optimizer's predicate order; "rank", its search over the rank
  ** order alone; else the SCAN's condition plan spelled out for
  ** predorder_plan_force() ("3&&1&2": condition numbers, fact predicates
  ** first, then the probes, joined by `&`, `&&` and `|`), which
  ** plan_build() refuses with 22023 where it does not fit the query. */
  char zPredOrder[PLANNER_PREDORDER_SIZE];
};

/* Fills *p with the defaults for device zDevice, not calibrated. Returns 0,
** or -1 with zErr set if zDevice is empty or does not fit. */
int planner_model_default(const char *zDevice, planner_model *p, char *zErr, size_t nErr);

/* Fills *p for device zDevice: the defaults, then every constant the
** catalog holds for that device. Each stored value is checked against its
** constant's range (a rate in (0, 2], a bandwidth > 0, a count >= 1 and
** whole, ...) and against the others where they bound each other (threads
** and shared memory per block at most those per SM). Returns 0 (with
** bCalibrated 0 when the device has no calibration), or -1 with zErr set
** (naming the offending constant and its value) and *p holding the
** defaults, so a caller that reports the error may still plan. */
int planner_model_load(cat *pCat, const char *zDevice, planner_model *p, char *zErr,
                       size_t nErr);

/* Stores every constant of *p as the calibration of device zDevice,
** replacing what the catalog held for it, after the same checks as
** planner_model_load() (so what is saved can be loaded). A calibration
** run fills a planner_model and calls this once. Returns 0, or -1 with
** zErr set and the catalog unchanged. */
int planner_model_save(cat *pCat, const char *zDevice, const planner_model *p, char *zErr,
                       size_t nErr);

/* Writes one line for EXPLAIN into z (always terminated when n > 0):
**   cost model: calibrated 2026-11-22T10:00:00Z on "NVIDIA H100 80GB HBM3/sm_90"
**   cost model: defaults (no calibration run for "cpu")
** Returns the length the whole line needs, as snprintf() does. */
size_t planner_model_describe(const planner_model *p, char *z, size_t n);

#endif /* STARQ_PLANNER_MODEL_H */
