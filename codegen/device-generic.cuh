/*
** codegen/device-generic.cuh — the generic kernels: one interpreter of the
** instructions codegen/generic.c writes (codegen/generic-ops.h), compiled
** once with the device library and run for a new query shape's first
** runs, so that they wait for no compile (runtime/README.md, "Generic
** kernels"). Embedded after device.cuh, device-packed.cuh and
** generic-ops.h as one text (codegen_generic_library).
**
** The instructions are a plan's kernels written as data, step for step as
** codegen writes them as C: each step calls the device library's function
** the compiled kernel calls (the same loads, probes, checked arithmetic
** and atomics), over the same tiles and flags, so both give the same rows
** and raise the same errors. What the compiled kernels do only to be
** fast, these do not: group tables stay in global memory, packed tiles
** are decoded in place, keys are probed in 64 bits.
**
** A thread's registers live in one sqg_st (local memory: ~1.9 KB a
** thread); the instructions are read from the kernel's argument block
** (__grid_constant__: constant memory, the same address in every thread
** of a warp, so every thread takes the same branch of the switch).
*/

typedef struct sqg_args sqg_args;
struct sqg_args {
  long long w[SQG_WORDS];
};

/* A thread's state while it runs a section. */
typedef struct sqg_st sqg_st;
struct sqg_st {
  long long v[SQG_NREG][SQ_ITEMS];
  unsigned char nul[SQG_NREG][SQ_ITEMS];
  int f[SQG_NFLAG][SQ_ITEMS];
  long long acc[SQG_NACC];
  long long base;          /* TILE: the tile's first row */
  int n;                   /* TILE: its rows */
  long long slot;          /* SLOT: the group slot */
  unsigned *err;
};

/* 10^n as a double: exact up to 10^22, so the same value as the literal
** 1e<n> codegen writes. */
__device__ __forceinline__ double sqg_p10(int n) {
  double p = 1.0;
  for (int i = 0; i < n; i++) p *= 10.0;
  return p;
}

__device__ __forceinline__ double sqg_d(long long x) { return __longlong_as_double(x); }
__device__ __forceinline__ long long sqg_b(double x) { return __double_as_longlong(x); }

/* ---- columns ------------------------------------------------------------- */

/* Widens a loaded register array into register d. */
#define SQG_WIDEN(s, d, t)                                                   \
  for (int k = 0; k < SQ_ITEMS; k++) (s)->v[d][k] = (long long)(t)[k]

/* A plain column of type y at p (a tile from row base, or gathered by row). */
SQ_FN_OUTLINE void sqg_load_plain(sqg_st *s, int d, int y, const void *p,
                                               const unsigned *row) {
  const int *flag = s->f[0];
  if (y == SQG_T_I16 || y == SQG_T_I32) {
    int t[SQ_ITEMS];
    if (y == SQG_T_I16) {
      if (row) sq_gather_i16((const short *)p, row, flag, t);
      else sq_load_i16((const short *)p + s->base, s->n, flag, t);
    } else {
      if (row) sq_gather_i32((const int *)p, row, flag, t);
      else sq_load_i32((const int *)p + s->base, s->n, flag, t);
    }
    SQG_WIDEN(s, d, t);
  } else if (y == SQG_T_U32) {
    unsigned t[SQ_ITEMS];
    if (row) sq_gather_u32((const unsigned *)p, row, flag, t);
    else sq_load_u32((const unsigned *)p + s->base, s->n, flag, t);
    SQG_WIDEN(s, d, t);
  } else if (y == SQG_T_I64) {
    if (row) sq_gather_i64((const long long *)p, row, flag, s->v[d]);
    else sq_load_i64((const long long *)p + s->base, s->n, flag, s->v[d]);
  } else {
    double t[SQ_ITEMS];
    if (row) sq_gather_f64((const double *)p, row, flag, t);
    else sq_load_f64((const double *)p + s->base, s->n, flag, t);
    for (int k = 0; k < SQ_ITEMS; k++) s->v[d][k] = sqg_b(t[k]);
  }
}

/* A packed column read where it lies, decoded (FOR suffix sfx). */
SQ_FN_OUTLINE void sqg_load_for(sqg_st *s, int d, int sfx,
                                             const unsigned long long *dir,
                                             const unsigned *packed, const unsigned *row) {
  const int *flag = s->f[0];
  if (sfx == SQG_F_I64) {
    if (row) sq_gather_for_i64(dir, packed, row, flag, s->v[d]);
    else sq_load_for_i64(dir, packed, s->base, flag, s->v[d]);
    return;
  }
  int t[SQ_ITEMS];
  if (sfx == SQG_F_I16) {
    if (row) sq_gather_for_i16(dir, packed, row, flag, t);
    else sq_load_for_i16(dir, packed, s->base, flag, t);
  } else if (sfx == SQG_F_I32) {
    if (row) sq_gather_for_i32(dir, packed, row, flag, t);
    else sq_load_for_i32(dir, packed, s->base, flag, t);
  } else {
    if (row) sq_gather_for_date(dir, packed, row, flag, t);
    else sq_load_for_date(dir, packed, s->base, flag, t);
  }
  SQG_WIDEN(s, d, t);
}

/* SQG_LOAD / SQG_GATHER in (and its SQG_PACKED in2 for a packed column). */
SQ_FN_OUTLINE void sqg_column(const sqg_args *a, const int *in, sqg_st *s,
                                           int bGather) {
  unsigned rowv[SQ_ITEMS];
  const unsigned *row = 0;
  int d = in[SQG_O_D];
  if (bGather) {
    for (int k = 0; k < SQ_ITEMS; k++) rowv[k] = (unsigned)s->v[in[SQG_O_A]][k];
    row = rowv;
  }
  if (in[SQG_O_U] < 0) {
    sqg_load_plain(s, d, in[SQG_O_Y], (const void *)a->w[in[SQG_O_X]], row);
  } else {
    const int *in2 = in + SQG_INS;
    const void *plain = (const void *)a->w[in[SQG_O_V]];
    if (plain != 0) {
      sqg_load_plain(s, d, in[SQG_O_Y], plain, row);
    } else {
      sqg_load_for(s, d, in2[SQG_O_Z], (const unsigned long long *)a->w[in[SQG_O_X]],
                   (const unsigned *)a->w[in[SQG_O_U]], row);
    }
  }
  if (in[SQG_O_Z] >= 0) {
    const unsigned long long *bits = (const unsigned long long *)a->w[in[SQG_O_Z]];
    int ok[SQ_ITEMS];
    if (row) sq_gather_valid(bits, row, s->f[0], ok);
    else sq_load_valid(bits, s->base, s->f[0], ok);
    for (int k = 0; k < SQ_ITEMS; k++) s->nul[d][k] = (unsigned char)!ok[k];
  } else {
    for (int k = 0; k < SQ_ITEMS; k++) s->nul[d][k] = 0;
  }
}

/* ---- values --------------------------------------------------------------- */

/* r checked against range kind e (SQG_R_*, precision p). */
__device__ __forceinline__ long long sqg_range(long long r, int e, int p, unsigned *err) {
  long long lim = 1;
  switch (e) {
    case SQG_R_SMALLINT: return sq_range(r, -32768, 32767, err);
    case SQG_R_INTEGER: return sq_range(r, INT32_MIN, INT32_MAX, err);
    case SQG_R_DECIMAL:
      for (int i = 0; i < p && i < 18; i++) lim *= 10;
      return sq_range(r, -(lim - 1), lim - 1, err);
    default: return r;
  }
}

/* x, a DECIMAL, to n fewer fraction digits: truncated, floored or ceiled
** (SQG_I_TRUNC_D, SQG_I_FLOOR_D, SQG_I_CEIL_D). */
__device__ __forceinline__ long long sqg_unscale(int op, long long x, int n) {
  long long p = 1, q, r;
  for (int i = 0; i < n; i++) p *= 10;
  q = x / p;
  r = x % p;
  if (op == SQG_I_FLOOR_D && r < 0) q -= 1;
  if (op == SQG_I_CEIL_D && r > 0) q += 1;
  return q;
}

/* SQG_IOP's operation on x and y (not NULL). */
__device__ __forceinline__ long long sqg_iop(int op, long long x, long long y, int n,
                                             unsigned *err) {
  switch (op) {
    case SQG_I_ADD32: return x + y;
    case SQG_I_SUB32: return x - y;
    case SQG_I_MUL32: return x * y;
    case SQG_I_ADD: return sq_add(x, y, err);
    case SQG_I_SUB: return sq_sub(x, y, err);
    case SQG_I_MUL: return sq_mul(x, y, err);
    case SQG_I_DIV: return sq_div(x, y, err);
    case SQG_I_MOD: return sq_mod(x, y, err);
    case SQG_I_DDIV: return sq_ddiv(x, y, n, err);
    case SQG_I_NEG: return sq_sub(0, x, err);
    case SQG_I_DATE_ADD: return sq_ymd(sq_days(x) + y);
    case SQG_I_DATE_SUB: return sq_ymd(sq_days(x) - y);
    case SQG_I_DATE_DIFF: return sq_days(x) - sq_days(y);
    case SQG_I_SCALE: return sq_scale(x, n, err);
    case SQG_I_UNSCALE: return sq_unscale_round(x, n);
    case SQG_I_F2I: return sq_f2i(sqg_d(x) * sqg_p10(n), err);
    case SQG_I_TRUNC_D:
    case SQG_I_FLOOR_D:
    case SQG_I_CEIL_D: return sqg_unscale(op, x, n);
    default: return x;
  }
}

/* x op y (SQG_C_*) of integers, doubles and widened DECIMALs. */
#define SQG_DEFINE_CMP(name, T)                                              \
  __device__ __forceinline__ int name(int op, T x, T y) {                    \
    switch (op) {                                                            \
      case SQG_C_EQ: return x == y;                                          \
      case SQG_C_NE: return x != y;                                          \
      case SQG_C_LT: return x < y;                                           \
      case SQG_C_LE: return x <= y;                                          \
      case SQG_C_GT: return x > y;                                           \
      default: return x >= y;                                                \
    }                                                                        \
  }
SQG_DEFINE_CMP(sqg_icmp, long long)
SQG_DEFINE_CMP(sqg_fcmp, double)
SQG_DEFINE_CMP(sqg_wcmp, __int128)

/* Every value instruction: items of F[m] only. */
#define SQG_EACH(s, m) for (int k = 0; k < SQ_ITEMS; k++) if ((s)->f[m][k])

SQ_FN_OUTLINE void sqg_value(const sqg_args *a, const int *in, sqg_st *s) {
  int d = in[SQG_O_D], x = in[SQG_O_A], y = in[SQG_O_B], m = in[SQG_O_M];
  switch (in[SQG_O_OP]) {
    case SQG_PARAM:
      SQG_EACH(s, m) { s->v[d][k] = a->w[in[SQG_O_X]]; s->nul[d][k] = 0; }
      break;
    case SQG_CONST:
      SQG_EACH(s, m) { s->v[d][k] = in[SQG_O_X]; s->nul[d][k] = (unsigned char)in[SQG_O_Y]; }
      break;
    case SQG_MOV:
      SQG_EACH(s, m) { s->v[d][k] = s->v[x][k]; s->nul[d][k] = s->nul[x][k]; }
      break;
    case SQG_CODES: {
      const unsigned long long *bits = (const unsigned long long *)a->w[in[SQG_O_X]];
      int z = in[SQG_O_Z];
      SQG_EACH(s, m) {
        s->v[d][k] = s->nul[x][k] ? z == SQG_NR_TRUE : sq_codes_in(bits, s->v[x][k]);
        s->nul[d][k] = s->nul[x][k] && z == SQG_NR_NULL;
      }
      break;
    }
    case SQG_MAP: {
      const long long *v = (const long long *)a->w[in[SQG_O_X]];
      long long lo = a->w[in[SQG_O_Y]], n = a->w[in[SQG_O_Z]];
      if (in[SQG_O_U] == 2) {           /* a string map: a is the entry */
        SQG_EACH(s, m) {
          long long r = sq_map_at(v, n, s->v[x][k], s->err);
          s->v[d][k] = r < 0 ? 0 : r;
          s->nul[d][k] = r < 0;
        }
        break;
      }
      SQG_EACH(s, m) {
        s->v[d][k] = s->nul[x][k] ? 0 : sq_map_at(v, n, sq_days(s->v[x][k]) - lo, s->err);
        s->nul[d][k] = s->nul[x][k];
      }
      break;
    }
    case SQG_MAPSTEP: {
      long long lo = a->w[in[SQG_O_X]], nNull = a->w[in[SQG_O_Y]], st = a->w[in[SQG_O_Z]];
      SQG_EACH(s, m) {
        long long slot = s->nul[x][k] ? nNull : s->v[x][k] - lo;
        s->v[d][k] = (y >= 0 ? s->v[y][k] : 0) + slot * st;
        s->nul[d][k] = 0;
      }
      break;
    }
    case SQG_INLIST: {
      const long long *v = (const long long *)a->w[in[SQG_O_X]];
      long long n = a->w[in[SQG_O_Y]];
      int z = in[SQG_O_Z];
      SQG_EACH(s, m) {
        int bIn = !s->nul[x][k] && sq_in_sorted(v, n, s->v[x][k]);
        s->v[d][k] = bIn;
        s->nul[d][k] = s->nul[x][k] || (!bIn && z == 1);
      }
      break;
    }
    case SQG_CRANGE: {
      long long lo = a->w[in[SQG_O_X]], hi = a->w[in[SQG_O_Y]];
      int z = in[SQG_O_Z];
      SQG_EACH(s, m) {
        s->v[d][k] = s->nul[x][k] ? z == SQG_NR_TRUE : s->v[x][k] >= lo && s->v[x][k] <= hi;
        s->nul[d][k] = s->nul[x][k] && z == SQG_NR_NULL;
      }
      break;
    }
    case SQG_IOP:
      SQG_EACH(s, m) {
        int nul = s->nul[x][k] || (y >= 0 && s->nul[y][k]);
        long long r = 0;
        if (!nul) {
          r = sqg_iop(in[SQG_O_X], s->v[x][k], y >= 0 ? s->v[y][k] : 0, in[SQG_O_Z], s->err);
          r = sqg_range(r, in[SQG_O_Y], in[SQG_O_U], s->err);
        }
        s->v[d][k] = r;
        s->nul[d][k] = (unsigned char)nul;
      }
      break;
    case SQG_FOP:
      SQG_EACH(s, m) {
        int nul = s->nul[x][k] || (y >= 0 && s->nul[y][k]);
        double p = sqg_d(s->v[x][k]), q = y >= 0 ? sqg_d(s->v[y][k]) : 0.0, r;
        switch (in[SQG_O_X]) {
          case SQG_FO_ADD: r = p + q; break;
          case SQG_FO_SUB: r = p - q; break;
          case SQG_FO_MUL: r = p * q; break;
          case SQG_FO_DIV: r = nul ? 0.0 : sq_fdiv(p, q, s->err); break;
          case SQG_FO_RINT: r = rint(p); break;
          case SQG_FO_CEIL: r = ceil(p); break;
          case SQG_FO_FLOOR: r = floor(p); break;
          case SQG_FO_TRUNC: r = trunc(p); break;
          case SQG_FO_SQRT: r = nul ? 0.0 : sq_fsqrt(p, s->err); break;
          case SQG_FO_POW: r = nul ? 0.0 : sq_fpow(p, q, s->err); break;
          default: r = -p; break;
        }
        s->v[d][k] = sqg_b(r);
        s->nul[d][k] = (unsigned char)nul;
      }
      break;
    case SQG_TOF:
      SQG_EACH(s, m) {
        double r = (double)s->v[x][k];
        if (in[SQG_O_X] > 0) r = r / sqg_p10(in[SQG_O_X]);
        s->v[d][k] = sqg_b(r);
        s->nul[d][k] = s->nul[x][k];
      }
      break;
    case SQG_ICMP:
    case SQG_FCMP:
    case SQG_WCMP:
      SQG_EACH(s, m) {
        int c;
        if (in[SQG_O_OP] == SQG_ICMP) {
          c = sqg_icmp(in[SQG_O_X], s->v[x][k], s->v[y][k]);
        } else if (in[SQG_O_OP] == SQG_FCMP) {
          c = sqg_fcmp(in[SQG_O_X], sqg_d(s->v[x][k]), sqg_d(s->v[y][k]));
        } else {
          c = sqg_wcmp(in[SQG_O_X], sq_widen(s->v[x][k], in[SQG_O_Y]),
                       sq_widen(s->v[y][k], in[SQG_O_Z]));
        }
        s->v[d][k] = c;
        s->nul[d][k] = (unsigned char)(s->nul[x][k] || s->nul[y][k]);
      }
      break;
    case SQG_AND3:
    case SQG_OR3:
      SQG_EACH(s, m) {
        int na = s->nul[x][k], nb = s->nul[y][k];
        int va = s->v[x][k] != 0, vb = s->v[y][k] != 0, r, rn;
        if (in[SQG_O_OP] == SQG_AND3) {
          /* FALSE on either side wins; else NULL on either side is NULL */
          r = !na && va && !nb && vb;
          rn = !r && !((!na && !va) || (!nb && !vb));
        } else {
          r = (!na && va) || (!nb && vb);
          rn = !r && (na || nb);
        }
        s->v[d][k] = r;
        s->nul[d][k] = (unsigned char)rn;
      }
      break;
    case SQG_NOT:
      SQG_EACH(s, m) { s->v[d][k] = !s->v[x][k]; s->nul[d][k] = s->nul[x][k]; }
      break;
    case SQG_ISNULL:
      SQG_EACH(s, m) {
        s->v[d][k] = in[SQG_O_X] ? !s->nul[x][k] : s->nul[x][k];
        s->nul[d][k] = 0;
      }
      break;
    default: /* SQG_TOBOOL */
      SQG_EACH(s, m) { s->v[d][k] = s->v[x][k] != 0; s->nul[d][k] = s->nul[x][k]; }
      break;
  }
}

/* ---- lookups ----------------------------------------------------------------- */

SQ_FN_OUTLINE void sqg_lookup(const sqg_args *a, const int *in, sqg_st *s) {
  int d = in[SQG_O_D], x = in[SQG_O_A], b = in[SQG_O_B];
  unsigned row[SQ_ITEMS];
  switch (in[SQG_O_OP]) {
    case SQG_PROBE_BITS:
      sq_probe_bits_i64((const unsigned *)a->w[in[SQG_O_X]], a->w[in[SQG_O_Y]], a->w[in[SQG_O_Z]],
                        s->v[x], s->f[d]);
      return;
    case SQG_PROBE_ARRAY:
      sq_probe_array_i64((const unsigned *)a->w[in[SQG_O_X]], a->w[in[SQG_O_Y]], a->w[in[SQG_O_Z]],
                         s->v[x], s->f[d], row);
      break;
    case SQG_PROBE_DATE: {
      int key[SQ_ITEMS];
      for (int k = 0; k < SQ_ITEMS; k++) key[k] = (int)s->v[x][k];
      sq_probe_date((const unsigned *)a->w[in[SQG_O_X]], a->w[in[SQG_O_Y]], a->w[in[SQG_O_Z]], key,
                    s->f[d], row);
      break;
    }
    case SQG_PROBE_HASH:
      sq_probe_hash_i64((const sq_hslot *)a->w[in[SQG_O_X]], (unsigned long long)a->w[in[SQG_O_Y]],
                        s->v[x], s->f[d], row);
      break;
    default: { /* SQG_ROW_ARRAY */
      unsigned moved = in[SQG_O_Z] >= 0 ? *(const unsigned *)a->w[in[SQG_O_Z]] : 1u;
      sq_row_array_i64((const unsigned *)a->w[in[SQG_O_X]], a->w[in[SQG_O_Y]], moved, s->v[x],
                       s->f[0], row);
      break;
    }
  }
  for (int k = 0; k < SQ_ITEMS; k++) {
    s->v[b][k] = row[k];
    s->nul[b][k] = 0;
  }
}

/* BUILD: the flagged items' keys into their lookup (cg__emit_build). */
SQ_FN_OUTLINE void sqg_insert(const sqg_args *a, const int *in, sqg_st *s) {
  const int *in2 = in + SQG_INS;
  int x = in[SQG_O_A], eKind = in[SQG_O_Y];
  long long kmin = a->w[in[SQG_O_Z]], nslot = a->w[in[SQG_O_U]];
  SQG_EACH(s, 0) {
    unsigned long long row1 = (unsigned long long)(s->base + sq_item(k)) + 1;
    long long key = s->v[x][k], sl;
    if (eKind == SQG_L_HASH) {
      sq_hash_insert((sq_hslot *)a->w[in[SQG_O_X]], (unsigned long long)nslot, key, row1);
      continue;
    }
    sl = eKind == SQG_L_DATE ? sq_date_slot(key, kmin) : key - kmin;
    if (sl < 0 || sl >= nslot) continue;
    ((unsigned *)a->w[in[SQG_O_X]])[sl] = (unsigned)row1;
    if (in[SQG_O_V] >= 0) {
      long long bi = key - a->w[in2[SQG_O_X]];
      if (bi >= 0 && bi < a->w[in2[SQG_O_Y]]) sq_bits_set((unsigned *)a->w[in[SQG_O_V]], bi);
    }
  }
}

/* ---- aggregates ------------------------------------------------------------------ */

__device__ __forceinline__ long long sqg_initial(int e) {
  switch (e) {
    case SQG_V_MAX: return INT64_MAX;
    case SQG_V_MIN: return INT64_MIN;
    case SQG_V_FMAX: return 0x7ff0000000000000ll;
    case SQG_V_FMIN: return (long long)0xfff0000000000000ull;
    default: return 0;
  }
}

/* One row's value v into a group's state word p (scan_agg_update). */
__device__ __forceinline__ void sqg_agg_word(int e, long long *p, long long v, unsigned *err) {
  switch (e) {
    case SQG_A_SUM: sq_atomic_add(p, v); break;
    case SQG_A_SUM_CHECKED: sq_atomic_add_checked(p, v, err); break;
    case SQG_A_SUM_F: sq_atomic_fadd((double *)p, sqg_d(v)); break;
    case SQG_A_MIN: sq_atomic_min(p, v); break;
    case SQG_A_MAX: sq_atomic_max(p, v); break;
    case SQG_A_MIN_F: sq_atomic_fmin((double *)p, sqg_d(v)); break;
    case SQG_A_MAX_F: sq_atomic_fmax((double *)p, sqg_d(v)); break;
    default: break;
  }
}

/* One row's value v into a thread's accumulator (scan_agg_update, scalar). */
__device__ __forceinline__ void sqg_acc_word(int e, long long *p, long long v, unsigned *err) {
  switch (e) {
    case SQG_A_SUM: *p += v; break;
    case SQG_A_SUM_CHECKED: *p = sq_add(*p, v, err); break;
    case SQG_A_SUM_F: *p = sqg_b(sqg_d(*p) + sqg_d(v)); break;
    case SQG_A_MIN: if (v < *p) *p = v; break;
    case SQG_A_MAX: if (v > *p) *p = v; break;
    case SQG_A_MIN_F: if (sqg_d(v) < sqg_d(*p)) *p = v; break;
    case SQG_A_MAX_F: if (sqg_d(v) > sqg_d(*p)) *p = v; break;
    default: break;
  }
}

/* After the tiles, every thread of the block: one accumulator into the one
** state (scan_scalar_flush). */
SQ_FN_OUTLINE void sqg_flush(const sqg_args *a, const int *in, sqg_st *s) {
  int e = in[SQG_O_X], iAcc = in[SQG_O_Y], iCount = in[SQG_O_Z];
  long long *st = (long long *)a->w[in[SQG_O_V]] + in[SQG_O_U];
  long long acc = s->acc[iAcc];
  if (e == SQG_A_ROWS || e == SQG_A_COUNT || e == SQG_A_SUM) {
    long long nb = sq_block_sum(acc);
    if (threadIdx.x == 0) sq_atomic_add(st, nb);
  } else if (e == SQG_A_SUM_F) {
    double sb = sq_block_fsum(sqg_d(acc));
    if (threadIdx.x == 0) sq_atomic_fadd((double *)st, sb);
  } else if (e == SQG_A_SUM_CHECKED) {
    if (acc != 0) sq_atomic_add_checked(st, acc, s->err);
  } else if (s->acc[iCount >= 0 ? iCount : 0] > 0) {
    sqg_agg_word(e, st, acc, s->err);
  }
}

/* ---- INIT and FINAL ----------------------------------------------------------- */

/* SQG_FIN_SLOT: the slot's code into register d; 1 if the slot is empty. */
SQ_FN_OUTLINE int sqg_fin_slot(const sqg_args *a, const int *in, sqg_st *s) {
  const long long *st = (const long long *)a->w[in[SQG_O_Y]] + s->slot * in[SQG_O_Z];
  unsigned long long code = 0;
  if (in[SQG_O_X] == 0) {
    if (st[0] == 0) return 1;
    code = (unsigned long long)s->slot;
  } else if (in[SQG_O_X] == 1) {
    code = ((const unsigned long long *)a->w[in[SQG_O_U]])[s->slot];
    if (code == ~0ull) return 1;
  }
  s->v[in[SQG_O_D]][0] = (long long)code;
  s->nul[in[SQG_O_D]][0] = 0;
  return 0;
}

SQ_FN_OUTLINE void sqg_fin_key(const sqg_args *a, const int *in, sqg_st *s) {
  unsigned long long code = (unsigned long long)s->v[in[SQG_O_A]][0];
  long long dom = a->w[in[SQG_O_Y]];
  long long key = (long long)(code / (unsigned long long)a->w[in[SQG_O_X]] % (unsigned long long)dom);
  s->nul[in[SQG_O_D]][0] = (unsigned char)(in[SQG_O_U] && key == dom - 1);
  s->v[in[SQG_O_D]][0] = key + a->w[in[SQG_O_Z]];
}

SQ_FN_OUTLINE void sqg_fin_agg(const sqg_args *a, const int *in, sqg_st *s) {
  const long long *st = (const long long *)a->w[in[SQG_O_U]] + s->slot * in[SQG_O_V];
  long long count = st[in[SQG_O_Z]], r;
  int d = in[SQG_O_D];
  switch (in[SQG_O_X]) {
    case SQG_FA_COUNT:
      s->v[d][0] = count;
      s->nul[d][0] = 0;
      return;
    case SQG_FA_AVG_F:
      r = sqg_b(count > 0 ? sqg_d(st[in[SQG_O_Y]]) / (double)count : 0.0);
      break;
    case SQG_FA_AVG_I:
      r = sqg_b(count > 0 ? (double)st[in[SQG_O_Y]] / sqg_p10(in[SQG_O_B]) / (double)count : 0.0);
      break;
    default:
      r = st[in[SQG_O_Y]];
      break;
  }
  s->v[d][0] = r;
  s->nul[d][0] = (unsigned char)(count == 0);
}

/* ---- the interpreter ---------------------------------------------------------- */

/* Runs instructions from in to their SQG_END. Returns 1 when the rest of
** the tile or slot is skipped (a `&&` left no item, an empty group slot,
** a HAVING that fails), else 0. */
__device__ __forceinline__ int sqg_exec(const sqg_args *a, const int *in, sqg_st *s) {
  for (;; in += SQG_INS) {
    int op = in[SQG_O_OP], d = in[SQG_O_D], x = in[SQG_O_A], m = in[SQG_O_M];
    switch (op) {
      case SQG_END:
        return 0;
      case SQG_ANY:
        /* Warp-wide: a thread with no item left runs on, masked, with the
        ** others, so that the warp interprets each instruction once (the
        ** compiled SCAN's per-thread `continue` here left 9 of 32 threads
        ** active an instruction: ncu, H200). Every thread of the warp is
        ** here: nothing before it in a tile branches. */
        if (!__any_sync(0xffffffffu, sq_any(s->f[0]))) return 1;
        break;
      case SQG_FCOPY:
        for (int k = 0; k < SQ_ITEMS; k++) s->f[d][k] = s->f[x][k];
        break;
      case SQG_FAND:
        for (int k = 0; k < SQ_ITEMS; k++) s->f[d][k] &= s->f[x][k];
        break;
      case SQG_FILTER:
        SQG_EACH(s, m) s->f[d][k] &= !s->nul[x][k] && s->v[x][k] != 0;
        break;
      case SQG_FCOND:
        for (int k = 0; k < SQ_ITEMS; k++) {
          s->f[d][k] = s->f[m][k] && !s->nul[x][k] && s->v[x][k] != 0;
        }
        break;
      case SQG_FANDNOT:
        for (int k = 0; k < SQ_ITEMS; k++) s->f[d][k] = s->f[m][k] && !s->f[x][k];
        break;
      case SQG_FNOTNULL:
        for (int k = 0; k < SQ_ITEMS; k++) s->f[d][k] &= !s->nul[x][k];
        break;
      case SQG_SKIPIFNOT:
        if (s->f[m][0] && !(!s->nul[x][0] && s->v[x][0] != 0)) return 1;
        break;
      case SQG_LOAD:
      case SQG_GATHER:
        sqg_column(a, in, s, op == SQG_GATHER);
        if (in[SQG_O_U] >= 0) in += SQG_INS;          /* its SQG_PACKED */
        break;
      case SQG_PROBE_BITS:
      case SQG_PROBE_ARRAY:
      case SQG_PROBE_DATE:
      case SQG_PROBE_HASH:
      case SQG_ROW_ARRAY:
        sqg_lookup(a, in, s);
        break;
      case SQG_DENSE_CHECK:
        sq_dense_check_i64(s->v[x], s->base, a->w[in[SQG_O_X]], s->f[0],
                           (unsigned *)a->w[in[SQG_O_Y]]);
        break;
      case SQG_INSERT:
        sqg_insert(a, in, s);
        if (in[SQG_O_V] >= 0) in += SQG_INS;          /* its SQG_BITS */
        break;
      case SQG_GCODE:
        SQG_EACH(s, 0) {
          long long off = s->nul[x][k] ? a->w[in[SQG_O_Y]] - 1 : s->v[x][k] - a->w[in[SQG_O_X]];
          s->v[d][k] = (long long)((unsigned long long)s->v[d][k] +
                                   (unsigned long long)off * (unsigned long long)a->w[in[SQG_O_Z]]);
        }
        break;
      case SQG_GSLOT:
        SQG_EACH(s, 0) {
          long long slot = s->v[x][k];
          if (in[SQG_O_X] == 1) {
            slot = sq_group_slot((unsigned long long *)a->w[in[SQG_O_Y]],
                                 (unsigned long long)a->w[in[SQG_O_Z]], (unsigned long long)slot,
                                 s->err);
            if (slot < 0) s->f[0][k] = 0;
          }
          s->v[d][k] = slot;
          s->nul[d][k] = 0;
        }
        break;
      case SQG_AGG_ROWS:
        SQG_EACH(s, 0) {
          sq_atomic_add((long long *)a->w[in[SQG_O_X]] + s->v[in[SQG_O_B]][k] * in[SQG_O_Y], 1);
        }
        break;
      case SQG_AGG:
        SQG_EACH(s, 0) {
          long long *st = (long long *)a->w[in[SQG_O_U]] + s->v[in[SQG_O_B]][k] * in[SQG_O_V];
          if (s->nul[x][k]) continue;
          if (in[SQG_O_Z] >= 0) sq_atomic_add(&st[in[SQG_O_Z]], 1);
          sqg_agg_word(in[SQG_O_X], &st[in[SQG_O_Y]], s->v[x][k], s->err);
        }
        break;
      case SQG_SACC_INIT:
        s->acc[in[SQG_O_X]] = sqg_initial(in[SQG_O_Y]);
        break;
      case SQG_SACC_ROWS:
        SQG_EACH(s, 0) s->acc[0]++;
        break;
      case SQG_SACC:
        SQG_EACH(s, 0) {
          if (s->nul[x][k]) continue;
          if (in[SQG_O_Z] >= 0) s->acc[in[SQG_O_Z]]++;
          if (in[SQG_O_Y] >= 0) sqg_acc_word(in[SQG_O_X], &s->acc[in[SQG_O_Y]], s->v[x][k], s->err);
        }
        break;
      case SQG_SFLUSH:
        sqg_flush(a, in, s);
        break;
      case SQG_INIT_KEY:
        ((unsigned long long *)a->w[in[SQG_O_X]])[s->slot] = ~0ull;
        break;
      case SQG_INIT_WORD:
        ((long long *)a->w[in[SQG_O_X]])[s->slot * in[SQG_O_Y] + in[SQG_O_Z]] =
            sqg_initial(in[SQG_O_U]);
        break;
      case SQG_FIN_SLOT:
        if (sqg_fin_slot(a, in, s)) return 1;
        break;
      case SQG_FIN_KEY:
        sqg_fin_key(a, in, s);
        break;
      case SQG_FIN_AGG:
        sqg_fin_agg(a, in, s);
        break;
      case SQG_OUT_IDX:
        for (int k = 0; k < SQ_ITEMS; k++) {
          s->f[in[SQG_O_B]][k] = 0;
          if (!s->f[m][k]) continue;
          unsigned long long idx = atomicAdd((unsigned long long *)a->w[in[SQG_O_X]], 1ull);
          s->v[d][k] = (long long)idx;
          s->f[in[SQG_O_B]][k] = idx < (unsigned long long)a->w[in[SQG_O_Y]];
        }
        break;
      case SQG_OUT_COL:
        SQG_EACH(s, m) {
          long long idx = s->v[in[SQG_O_B]][k];
          ((long long *)a->w[in[SQG_O_X]])[idx] = s->v[x][k];
          ((unsigned char *)a->w[in[SQG_O_Y]])[idx] = s->nul[x][k];
        }
        break;
      default:
        sqg_value(a, in, s);
        break;
    }
  }
}

/* Kernel iKernel of the program in the argument block a. */
SQ_FN_OUTLINE void sqg_run(const sqg_args *a, int iKernel) {
  const int *code = (const int *)&a->w[a->w[SQG_W_CODE]];
  const int *h = code + code[iKernel];
  sqg_st s;
  for (int i = 0; i < SQG_NACC; i++) s.acc[i] = 0;
  s.base = 0;
  s.n = 0;
  s.slot = 0;
  s.err = (unsigned *)a->w[h[SQG_H_ERR]];
  (void)sqg_exec(a, h + SQG_INS, &s);
  if (h[SQG_H_KIND] == SQG_K_TILE) {
    long long nRow = a->w[h[SQG_H_ROWS]];
    for (long long base = (long long)blockIdx.x * blockDim.x * SQ_ITEMS; base < nRow;
         base += (long long)gridDim.x * blockDim.x * SQ_ITEMS) {
      sq_tile_converge();
      s.base = base;
      s.n = sq_tile_rows(base, nRow);
      sq_flags_init(s.f[0], s.n);
      (void)sqg_exec(a, h + h[SQG_H_BODY], &s);
    }
  } else {
    /* SQG_K_ONCE: one slot, thread 0 of block 0's */
    long long nSlot = h[SQG_H_KIND] == SQG_K_SLOT ? a->w[h[SQG_H_SLOTS]] : 1;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nSlot;
         i += (long long)gridDim.x * blockDim.x) {
      s.slot = i;
      for (int k = 0; k < SQ_ITEMS; k++) s.f[0][k] = k == 0;
      (void)sqg_exec(a, h + h[SQG_H_BODY], &s);
    }
  }
  (void)sqg_exec(a, h + h[SQG_H_POST], &s);
}

/* The one kernel: the section the launch names (SQG_W_KERNEL). Bound to
** 64 registers (a block of 1024 threads an SM): left alone ptxas takes 90
** for the switch, and Q1.1's 640-thread blocks ran one an SM, 31 %
** occupancy (H200, SF 10, ncu). At 64 the 13 SSB queries' resident
** generic kernels took 0.68-4.6 ms at SF 10, at 32 (2 blocks of 1024,
** 4 bytes spilled) 0.93-6.8, at 42 (3 of 512) 0.83-6.4: more threads
** share an SM's L1 among more interpreter states (bench/RESULTS.md). */
__global__ void __launch_bounds__(1024, 1) sq_gen(const __grid_constant__ sqg_args a) {
  sqg_run(&a, (int)a.w[SQG_W_KERNEL]);
}
STARQ_CPU_ENTRY(sq_gen, sqg_args)
