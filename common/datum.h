/*
** common/datum.h — one SQL value on the host, of any type starq knows:
** what the host executor computes with, what pg_catalog's relations are
** made of, what a host-side function takes and returns. Device kernels
** never see a datum; they work on typed columns.
**
** A datum is a type (coltype: id, precision, scale, length), a NULL flag
** and a payload in PostgreSQL's representation of that type, so text and
** binary wire forms, comparisons and arithmetic are common/'s functions of
** the payload:
**
**   type                         payload
**   BOOLEAN                      i (0 or 1)
**   SMALLINT, INTEGER, BIGINT,   i
**   OID, REGCLASS, REGTYPE,
**   REGPROC
**   DOUBLE, FLOAT4               r
**   DECIMAL(p,s), NUMERIC        n (common/numeric.h; DECIMAL's scaled
**                                int64 widened, scale s)
**   DATE                         i: days since 2000-01-01 (datetime.h),
**                                not the store's yyyymmdd
**   TIMESTAMP, TIMESTAMPTZ,      i: microseconds (datetime.h)
**   TIME
**   INTERVAL                     iv
**   CHAR, VARCHAR, TEXT, NAME,   s: z[0..n), not NUL-terminated, valid
**   "char", UNKNOWN (a literal), UTF-8; the bytes belong to whoever made
**   ACLITEM, PG_NODE_TREE, INET  the datum (an arena, a relation, a
**                                literal) and outlive it
**   XID, REGNAMESPACE            i
**   ARRAY, INT2VECTOR,           a: a[0..n), the elements in order, each
**   OIDVECTOR                    a datum of the element type (ARRAY:
**                                coltype_elem; INT2VECTOR: SMALLINT;
**                                OIDVECTOR: OID), NULLs allowed in an
**                                ARRAY; owned like s's bytes
**
** A datum is a plain value: copy it with =, no destructor.
**
** INTERFACE ROUTINES
**   datum_null, datum_int, datum_float, datum_text, datum_bool,
**   datum_array       constructors (inline)
*/
#ifndef STARQ_DATUM_H
#define STARQ_DATUM_H

#include <stdint.h>
#include <string.h>

#include "coltype.h"
#include "datetime.h"
#include "numeric.h"

typedef struct datum datum;
struct datum {
  coltype type;
  uint8_t bNull;
  union {
    int64_t i;
    double r;
    numeric n;
    dt_interval iv;
    struct {
      const char *z;
      uint32_t n;
    } s;
    struct {
      const datum *a;
      uint32_t n;
    } a;
  } u;
};

static inline datum datum_null(coltype_id eType) {
  datum d;
  memset(&d, 0, sizeof d);
  d.type.eId = eType;
  d.bNull = 1;
  return d;
}

static inline datum datum_int(coltype_id eType, int64_t v) {
  datum d;
  memset(&d, 0, sizeof d);
  d.type.eId = eType;
  d.u.i = v;
  return d;
}

static inline datum datum_bool(int b) {
  return datum_int(COLTYPE_BOOLEAN, b != 0);
}

static inline datum datum_float(double v) {
  datum d;
  memset(&d, 0, sizeof d);
  d.type.eId = COLTYPE_DOUBLE;
  d.u.r = v;
  return d;
}

/* z[0..n) of type eType (TEXT, VARCHAR, NAME, ...); not copied. */
static inline datum datum_text(coltype_id eType, const char *z, uint32_t n) {
  datum d;
  memset(&d, 0, sizeof d);
  d.type.eId = eType;
  d.u.s.z = z;
  d.u.s.n = n;
  return d;
}

/* An array of type t (an ARRAY's, INT2VECTOR or OIDVECTOR) of a[0..n);
** not copied. */
static inline datum datum_array(coltype t, const datum *a, uint32_t n) {
  datum d;
  memset(&d, 0, sizeof d);
  d.type = t;
  d.u.a.a = a;
  d.u.a.n = n;
  return d;
}

#endif /* STARQ_DATUM_H */
