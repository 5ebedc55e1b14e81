/*
** codegen/emit.c — codegen_build: the kernels of a plan, written so that a
** reader can follow the query in them. Each step of a kernel is preceded
** by a comment naming the SQL it implements; the SCAN's conditions appear
** in the optimizer's order, a `&&` as a test that skips the rest of the
** tile when no item survives, a `&` group as conditions evaluated on the
** same incoming items and ANDed.
**
** Kernel shapes (DESIGN decision 8):
**   BUILD   tiles of a dimension: its predicates, then insert key -> row
**   INIT    group slots: EMPTY keys, zero counts and sums, MIN/MAX sentinels
**   SCAN    tiles of the fact table: conditions and probes, gathered
**           payload, residuals, then the aggregate update or the output row
**   FINAL   group slots: occupied ones become output rows (HAVING first)
**   VALUES  a query without FROM
**
** The optimizer's kernel boundaries (`|`) are emitted as `&&` inside the
** one SCAN for now: the same rows pass, only the split is not taken.
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codegenInt.h"

/* ---- fields and names ------------------------------------------------------------ */

int cg__oom(cg_ctx *c) {
  sql_error_set(c->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while generating code");
  return -1;
}

int cg__field(cg_ctx *c, cg_field_kind e, const char *zName) {
  cg_program *g = c->pProg;
  cg_field *f;
  if (g->nField == c->nFieldAlloc) {
    int nNew = c->nFieldAlloc ? 2 * c->nFieldAlloc : 32;
    cg_field *aNew = arena_alloc(c->pArena, sizeof(cg_field) * (size_t)nNew);
    if (aNew == NULL) return cg__oom(c);
    if (g->nField) memcpy(aNew, g->aField, sizeof(cg_field) * (size_t)g->nField);
    g->aField = aNew;
    c->nFieldAlloc = nNew;
  }
  f = &g->aField[g->nField];
  memset(f, 0, sizeof(*f));
  f->eKind = e;
  f->zName = arena_strndup(c->pArena, zName, strlen(zName));
  if (f->zName == NULL) return cg__oom(c);
  f->iSource = f->iColumn = f->iDim = f->iOut = -1;
  return g->nField++;
}

/* Keywords of C11 and of C++17 (NVRTC reads the text as C++), and the
** lower-case macros of <stdbool.h>, which the CPU shim includes. */
static const char *const cg_azKeyword[] = {
  "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
  "case", "catch", "char", "char16_t", "char32_t", "class", "compl", "const", "const_cast",
  "constexpr", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast",
  "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
  "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
  "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
  "reinterpret_cast", "restrict", "return", "short", "signed", "sizeof", "static",
  "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
  "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
  "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};

/* The names the kernels declare themselves, in their bodies or as members
** of struct q_args: exact names, prefixes, and families of a prefix and a
** number (t3, p12, acc0_n, key1_null, hit0_2, out4, codes7; c2_5 is the
** fallback name of a column below). */
static const char *const cg_azOwn[] = {
  "a", "k", "n", "i", "s", "base", "flag", "pass", "slot", "code", "st", "idx", "row1", "once",
  "nb", "err", "groups", "group_slots", "group_keys", "group_mask", "out_count", "out_cap",
  "acc_rows"};
static const char *const cg_azOwnPrefix[] = {"sq_", "q_", "r_", "lut_", "n_", "g_", "starq_", "__"};
static const char *const cg_azOwnFamily[] = {"t", "p", "c", "acc", "nb", "sb", "key", "agg", "hit",
                                             "pass", "out", "codes"};

static int cg_name_in(const char *z, const char *const *az, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(z, az[i]) == 0) return 1;
  }
  return 0;
}

/* Returns 1 if a column's variable may not be named z: a keyword, or a
** name the kernels use themselves, or one ending like the names they
** derive from a column's (x_ok, x_valid). */
static int cg_name_reserved(const char *z) {
  size_t n = strlen(z);
  if (cg_name_in(z, cg_azKeyword, sizeof(cg_azKeyword) / sizeof(cg_azKeyword[0])) ||
      cg_name_in(z, cg_azOwn, sizeof(cg_azOwn) / sizeof(cg_azOwn[0]))) {
    return 1;
  }
  for (size_t i = 0; i < sizeof(cg_azOwnPrefix) / sizeof(cg_azOwnPrefix[0]); i++) {
    if (strncmp(z, cg_azOwnPrefix[i], strlen(cg_azOwnPrefix[i])) == 0) return 1;
  }
  for (size_t i = 0; i < sizeof(cg_azOwnFamily) / sizeof(cg_azOwnFamily[0]); i++) {
    size_t k = strlen(cg_azOwnFamily[i]);
    if (strncmp(z, cg_azOwnFamily[i], k) == 0 && isdigit((unsigned char)z[k])) return 1;
  }
  return (n >= 3 && strcmp(z + n - 3, "_ok") == 0) || (n >= 6 && strcmp(z + n - 6, "_valid") == 0) ||
         (n >= 7 && strcmp(z + n - 7, "_packed") == 0);
}

/* Returns 1 if another column of the query already has variable z (two
** names may differ only in what cg__sanitize() replaces). */
static int cg_name_taken(const cg_ctx *c, const char *z) {
  for (int s = 0; s < c->p->nSource; s++) {
    for (int i = 0; i < c->p->aSource[s].pTable->nCol; i++) {
      if (c->aazColVar[s][i] != NULL && strcmp(c->aazColVar[s][i], z) == 0) return 1;
    }
  }
  return 0;
}

void cg__sanitize(char *z) {
  for (; *z; z++) {
    if (!isalnum((unsigned char)*z) && *z != '_') *z = '_';
    else *z = (char)tolower((unsigned char)*z);
  }
}

const char *cg__col_var(cg_ctx *c, int s, int iCol) {
  const plan *p = c->p;
  const char *zCol = p->aSource[s].pTable->aCol[iCol].zName;
  char zName[160];
  int bClash = 0;
  if (c->aazColVar[s][iCol] != NULL) return c->aazColVar[s][iCol];
  for (int t = 0; t < p->nSource; t++) {
    if (t != s && cat_table_column(p->aSource[t].pTable, zCol) >= 0) bClash = 1;
  }
  snprintf(zName, sizeof(zName), "%s", zCol);
  cg__sanitize(zName);
  if (bClash || cg_name_reserved(zName) || isdigit((unsigned char)zName[0]) ||
      cg_name_taken(c, zName)) {
    snprintf(zName, sizeof(zName), "%s_%s", p->aSource[s].zAlias, zCol);
    cg__sanitize(zName);
    if (isdigit((unsigned char)zName[0]) || cg_name_reserved(zName) || cg_name_taken(c, zName)) {
      snprintf(zName, sizeof(zName), "c%d_%d", s, iCol);   /* unique, and reserved to us */
    }
  }
  c->aazColVar[s][iCol] = arena_strndup(c->pArena, zName, strlen(zName));
  if (c->aazColVar[s][iCol] == NULL) cg__oom(c);
  return c->aazColVar[s][iCol];
}

/* Appends a comment line: nIndent blanks, then the formatted text inside
** comment markers. Names and SQL in the text come from the user, and a
** "*" "/" among them would end the comment early and put the rest of their
** text into the kernel source as C; every such pair is broken by a blank. */
void cg__comment_line(strbuf *s, int nIndent, const char *zFmt, ...) {
  strbuf text;
  va_list ap;
  const char *z;
  strbuf_init(&text);
  va_start(ap, zFmt);
  strbuf_vprintf(&text, zFmt, ap);
  va_end(ap);
  strbuf_repeat(s, ' ', (size_t)nIndent);
  strbuf_puts(s, "/* ");
  for (z = strbuf_str(&text); *z; z++) {
    strbuf_append(s, z, 1);
    if (z[0] == '*' && z[1] == '/') strbuf_puts(s, " ");
  }
  strbuf_puts(s, " */\n");
  if (strbuf_error(&text)) s->bOom = 1;
  strbuf_free(&text);
}

/* Adds a named parameter field with an integer value. */
int cg__param(cg_ctx *c, const char *zName, int64_t v) {
  int i = cg__field(c, CG_FIELD_PARAM_INT, zName);
  if (i >= 0) c->pProg->aField[i].iValue = v;
  return i;
}

int cg__param_role(cg_ctx *c, const char *zName, int64_t v, cg_role eRole, int iRole) {
  int i = cg__param(c, zName, v);
  if (i >= 0) {
    c->pProg->aField[i].eRole = eRole;
    c->pProg->aField[i].iRole = iRole;
  }
  return i;
}

/* The loader function for a column of type t. */
/* What the device library calls a column's values by its type: its load
** and gather, the C type of the registers they are loaded into (32 bits
** where the column has at most 32, so a tile's items take one register
** each: 48 -> 32 registers a thread in Q1.1's SCAN, full occupancy on the
** H100; arithmetic widens them, the checked operators take long long), and
** the suffix of the functions over such a register array (sq_probe_array_SFX,
** sq_probe_hash_SFX; none for double, which is never a join key). */
typedef struct cg_regs cg_regs;
struct cg_regs {
  const char *zLoad, *zGather, *zType, *zSfx;
};

static const cg_regs *cg_regs_of(coltype t) {
  static const cg_regs aRegs[] = {
    {"sq_load_i16", "sq_gather_i16", "int", "i32"},
    {"sq_load_i32", "sq_gather_i32", "int", "i32"},
    {"sq_load_f64", "sq_gather_f64", "double", NULL},
    {"sq_load_i64", "sq_gather_i64", "long long", "i64"},
    {"sq_load_u32", "sq_gather_u32", "unsigned", "u32"},   /* dictionary codes */
  };
  switch (t.eId) {
    case COLTYPE_SMALLINT: return &aRegs[0];
    case COLTYPE_INTEGER:
    case COLTYPE_DATE: return &aRegs[1];
    case COLTYPE_DOUBLE: return &aRegs[2];
    case COLTYPE_BIGINT:
    case COLTYPE_DECIMAL:
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ: return &aRegs[3];
    default: return &aRegs[4];
  }
}

const char *cg__load_fn(coltype t, int bGather) {
  return bGather ? cg_regs_of(t)->zGather : cg_regs_of(t)->zLoad;
}

const char *cg__reg_type(coltype t) { return cg_regs_of(t)->zType; }

const char *cg__reg_sfx(coltype t) { return cg_regs_of(t)->zSfx; }

/* ---- kernel bodies -------------------------------------------------------------- */

int cg__kern_init(cg_ctx *c, cg_kern *kk, strbuf *s) {
  const plan *p = c->p;
  memset(kk, 0, sizeof(*kk));
  kk->x.c = c;
  kk->x.s = s;
  kk->x.nIndent = 2;
  kk->x.pnTemp = &kk->nTemp;
  kk->x.eMode = CGX_ROW;
  kk->aaLoaded = arena_alloc(c->pArena, sizeof(uint8_t *) * (size_t)(p->nSource + 1));
  if (kk->aaLoaded == NULL) return cg__oom(c);
  for (int i = 0; i < p->nSource; i++) {
    kk->aaLoaded[i] = arena_alloc(c->pArena, (size_t)p->aSource[i].pTable->nCol + 1);
    if (kk->aaLoaded[i] == NULL) return cg__oom(c);
  }
  return 0;
}

/* The field name of (s, col)'s values (e: COLUMN), validity bits (VALID),
** packed words (PACKED) or decoded values (PLAIN), adding the field the
** first time. */
static const char *cg_column_field(cg_ctx *c, int s, int iCol, cg_field_kind e) {
  cg_program *g = c->pProg;
  const char *zVar = cg__col_var(c, s, iCol);
  char zName[192];
  int i;
  if (zVar == NULL) return NULL;
  for (i = 0; i < g->nField; i++) {
    if (g->aField[i].eKind == e && g->aField[i].iSource == s && g->aField[i].iColumn == iCol) {
      return g->aField[i].zName;
    }
  }
  snprintf(zName, sizeof(zName), "%s%s", zVar,
           e == CG_FIELD_VALID    ? "_valid"
           : e == CG_FIELD_PACKED ? "_packed"
           : e == CG_FIELD_PLAIN  ? "_plain"
                                  : "");
  if ((i = cg__field(c, e, zName)) < 0) return NULL;
  g->aField[i].iSource = s;
  g->aField[i].iColumn = iCol;
  return g->aField[i].zName;
}

/* The suffix of the device library's FOR load of a column of type t
** stored as eEnc (codegen/device.cuh SQ_DEFINE_FOR): its width, or date
** for day slots. */
static const char *cg_for_suffix(coltype t, uint8_t eEnc) {
  if (eEnc == STORE_ENC_FOR_DATE) return "date";
  switch (t.eId) {
    case COLTYPE_SMALLINT: return "i16";
    case COLTYPE_INTEGER: case COLTYPE_DATE: return "i32";
    default: return "i64";
  }
}

int cg__col_packed(const plan *p, int s, int iCol) {
  return p->aSource[s].aEnc != NULL && store_enc_packed((store_enc)p->aSource[s].aEnc[iCol]);
}

/* Emits the resident side of packed column (s, iCol)'s load: `if
** (a.PLAIN) load;`, the plain copy's load; with zRow a gather. Returns 0,
** or -1 (memory). */
static int cg_load_resident(cg_kern *kk, int s, int iCol, const char *zPlain, const char *zRow,
                            const char *zVar, char *zOut, size_t nOut) {
  const cat_column *col = &kk->x.c->p->aSource[s].pTable->aCol[iCol];
  int nw = zRow == NULL ? snprintf(zOut, nOut, "%s(a.%s + base, n, flag, %s);",
                                   cg__load_fn(col->type, 0), zPlain, zVar)
                        : snprintf(zOut, nOut, "%s(a.%s, %s, flag, %s);", cg__load_fn(col->type, 1),
                                   zPlain, zRow, zVar);
  /* Names are identifiers of the catalog's (short): a cut statement would
  ** be a compile error far from here. */
  return nw < 0 || (size_t)nw >= nOut ? -1 : 0;
}

/* The staged branch of a packed column's tile load (kk->bStage: every
** thread of the block reaches it): with the STAGE field on, the tile's
** words go through shared memory (device.cuh sq_stage_for_*), one buffer
** for every such column of the kernel (cg__load declares it before the
** first: condition groups are at the tile loop's level). The
** field and PLAIN are one value for the launch, so the block takes one
** branch and the barriers inside are reached by all its threads. */
static int cg_load_staged(cg_kern *kk, int s, const char *zSfx, const char *zField,
                          const char *zPacked, const char *zVar, char *zOut, size_t nOut) {
  cg_ctx *c = kk->x.c;
  const char *zRows = cg__table_rows(c, s), *zStage = NULL;
  int nw;
  for (int i = 0; i < c->pProg->nField && zStage == NULL; i++) {
    if (c->pProg->aField[i].eKind == CG_FIELD_STAGE) zStage = c->pProg->aField[i].zName;
  }
  if (zStage == NULL) {
    int i = cg__field(c, CG_FIELD_STAGE, "g_stage");
    if (i < 0) return -1;
    zStage = c->pProg->aField[i].zName;
  }
  if (zRows == NULL) return -1;
  nw = snprintf(zOut, nOut, "if (a.%s) sq_stage_for_%s(a.%s, a.%s, base, a.%s, &g_stage_buf, flag, %s);",
                zStage, zSfx, zField, zPacked, zRows, zVar);
  return nw < 0 || (size_t)nw >= nOut ? -1 : 0;
}

/* Loads column (s, col) for the flagged items of the tile, from the tile
** (the scanned or built table) or, with zRow, gathered by row index. A
** FOR-bitpacked column (the plan says, from its file) is read one of two
** ways, chosen at run time by its PLAIN field: its resident copy is plain
** (runtime/colmem.c), so it is loaded as a plain column; read from host
** memory it is packed and sq_load_for_* / sq_gather_for_* (the column's
** width, or date: day slots back into yyyymmdd) decode it into the same
** registers. Every thread takes the same side (the field is one value for
** the launch), and the source, hence the kernel cache, does not depend on
** where the column lives. The two sides sit under SQ_PATH (device.cuh):
** the CUDA backend compiles only the side the run takes, a module per
** path (runtime/README.md, "Modules and their caches"). */
int cg__load(cg_kern *kk, int s, int iCol, const char *zRow) {
  cg_ctx *c = kk->x.c;
  const cat_column *col = &c->p->aSource[s].pTable->aCol[iCol];
  const char *zVar, *zField, *zValid = NULL, *zPacked = NULL, *zPlain = NULL;
  int bPacked = cg__col_packed(c->p, s, iCol);
  if (kk->aaLoaded[s][iCol]) return 0;
  kk->aaLoaded[s][iCol] = 1;
  zVar = cg__col_var(c, s, iCol);
  zField = cg_column_field(c, s, iCol, CG_FIELD_COLUMN);
  if (!col->bNotNull) zValid = cg_column_field(c, s, iCol, CG_FIELD_VALID);
  if (bPacked) {
    zPacked = cg_column_field(c, s, iCol, CG_FIELD_PACKED);
    zPlain = cg_column_field(c, s, iCol, CG_FIELD_PLAIN);
  }
  if (zVar == NULL || zField == NULL || (!col->bNotNull && zValid == NULL) ||
      (bPacked && (zPacked == NULL || zPlain == NULL))) {
    return -1;
  }
  cg__line(&kk->x, "%s %s[SQ_ITEMS];", cg__reg_type(col->type), zVar);
  if (bPacked) {
    const char *zSfx = cg_for_suffix(col->type, c->p->aSource[s].aEnc[iCol]);
    char zResident[1024], zStaged[1024] = "", zDecode[1024];
    int nDecode;
    if (kk->bStage && zRow == NULL && !kk->bStageDecl) {
      cg__line(&kk->x, "__shared__ sq_stage_buf g_stage_buf;   /* packed tiles, staged */");
      kk->bStageDecl = 1;
    }
    if (cg_load_resident(kk, s, iCol, zPlain, zRow, zVar, zResident, sizeof(zResident)) != 0 ||
        (kk->bStage && zRow == NULL &&
         cg_load_staged(kk, s, zSfx, zField, zPacked, zVar, zStaged, sizeof(zStaged)) != 0)) {
      return -1;
    }
    nDecode = zRow == NULL ? snprintf(zDecode, sizeof(zDecode), "sq_load_for_%s(a.%s, a.%s, base, flag, %s);",
                                      zSfx, zField, zPacked, zVar)
                           : snprintf(zDecode, sizeof(zDecode),
                                      "sq_gather_for_%s(a.%s, a.%s, %s, flag, %s);", zSfx, zField,
                                      zPacked, zRow, zVar);
    if (nDecode < 0 || (size_t)nDecode >= sizeof(zDecode)) return -1;
    cg__line(&kk->x, "/* %s: plain when resident in device memory, else FOR-bitpacked */", zVar);
    cg__line(&kk->x, "#if SQ_PATH == SQ_PATH_PLAIN");
    cg__line(&kk->x, "%s", zResident);
    cg__line(&kk->x, "#elif SQ_PATH == SQ_PATH_PACKED");
    if (zStaged[0]) cg__line(&kk->x, "%s", zStaged);
    cg__line(&kk->x, "%s%s", zStaged[0] ? "else " : "", zDecode);
    cg__line(&kk->x, "#else");
    cg__line(&kk->x, "if (a.%s) %s", zPlain, zResident);
    if (zStaged[0]) cg__line(&kk->x, "else %s", zStaged);
    cg__line(&kk->x, "else %s", zDecode);
    cg__line(&kk->x, "#endif");
  } else if (zRow == NULL) {
    cg__line(&kk->x, "%s(a.%s + base, n, flag, %s);", cg__load_fn(col->type, 0), zField, zVar);
  } else {
    cg__line(&kk->x, "%s(a.%s, %s, flag, %s);", cg__load_fn(col->type, 1), zField, zRow, zVar);
  }
  if (!col->bNotNull) {
    cg__line(&kk->x, "int %s_ok[SQ_ITEMS];", zVar);
    if (zRow == NULL) cg__line(&kk->x, "sq_load_valid(a.%s, base, flag, %s_ok);", zValid, zVar);
    else cg__line(&kk->x, "sq_gather_valid(a.%s, %s, flag, %s_ok);", zValid, zRow, zVar);
  }
  return 0;
}

/* Loads every column of FROM item s below e that is not loaded yet. */
typedef struct cg_walk cg_walk;
struct cg_walk {
  cg_kern *kk;
  int s;                   /* only this item's columns (-1: any, by row ids) */
  int rc;
};

static void cg_load_walk(void *pArg, const sql_expr *e) {
  cg_walk *w = pArg;
  const plan *p = w->kk->x.c->p;
  int s = e->b.iSource;
  const char *zRow = NULL;
  char zBuf[64];
  if (w->rc != 0) return;
  if (w->s >= 0 && s != w->s) return;
  if (w->s < 0 && p->iFact >= 0 && s != p->iFact && p->aiDimOf[s] >= 0) {
    snprintf(zBuf, sizeof(zBuf), "r_%s", cg__col_var(w->kk->x.c, s, p->aDim[p->aiDimOf[s]].iKeyCol));
    zRow = zBuf;
  }
  w->rc = cg__load(w->kk, s, e->b.iColumn, zRow);
}

int cg__load_expr(cg_kern *kk, const sql_expr *e, int s) {
  cg_walk w = {kk, s, 0};
  sql_expr_walk_columns(e, cg_load_walk, &w);
  return w.rc;
}

/* The tile loop's head over the rows of field zRows. */
void cg__tile_begin(cg_kern *kk, const char *zRows) {
  cg__line(&kk->x, "for (long long base = (long long)blockIdx.x * blockDim.x * SQ_ITEMS; base < a.%s;",
           zRows);
  cg__line(&kk->x, "     base += (long long)gridDim.x * blockDim.x * SQ_ITEMS) {");
  kk->x.nIndent += 2;
  cg__line(&kk->x, "sq_tile_converge();");
  cg__line(&kk->x, "int n = sq_tile_rows(base, a.%s);", zRows);
  cg__line(&kk->x, "int flag[SQ_ITEMS];");
  cg__line(&kk->x, "sq_flags_init(flag, n);");
}

void cg__block_end(cg_kern *kk) {
  kk->x.nIndent -= 2;
  cg__line(&kk->x, "}");
}

/* Appends the SQL text z with each literal written '?': literals are
** parameters, and a source that spelled them (or the estimates they lead
** to) would differ for every constant and miss the module caches. */
static void cg_sql_shape(const char *z, strbuf *s) {
  for (size_t i = 0; z[i] != 0; i++) {
    int bWordBefore = i > 0 && (isalnum((unsigned char)z[i - 1]) || z[i - 1] == '_');
    if (z[i] == '\'') {                       /* a string ('' inside it) */
      while (z[i + 1] != 0 && (z[i + 1] != '\'' || z[i + 2] == '\'')) i += z[i + 1] == '\'' ? 2 : 1;
      if (z[i + 1] != 0) i++;
      strbuf_puts(s, "?");
    } else if (isdigit((unsigned char)z[i]) && !bWordBefore) {
      while (isalnum((unsigned char)z[i + 1]) || z[i + 1] == '.' ||
             ((z[i + 1] == '+' || z[i + 1] == '-') && (z[i] == 'e' || z[i] == 'E'))) {
        i++;
      }
      strbuf_puts(s, "?");
    } else {
      strbuf_append(s, &z[i], 1);
    }
  }
}

/* Rewrites each IN list of literals in s ("IN (?, ?, ?)", "IN (DATE ?,
** DATE ?)") as its first one and "...": an IN list of constants is one
** kernel argument whatever its length (expr.c cgx_in_sorted), and so is
** the comment naming it. */
static void cg_sql_shape_lists(strbuf *s) {
  const char *z = strbuf_str(s);
  strbuf out;
  strbuf_init(&out);
  for (size_t i = 0; z[i] != 0;) {
    size_t j = i + 1, nItem = 0, nFirst = 0;
    if (z[i] == '(' && i >= 3 && strncmp(z + i - 3, "IN ", 3) == 0) {
      for (;;) {
        size_t k = j;
        if (strncmp(z + k, "DATE ", 5) == 0) k += 5;
        if (z[k] != '?') break;
        k++;
        if (nItem++ == 0) nFirst = k - j;
        if (strncmp(z + k, ", ", 2) == 0) {
          j = k + 2;
        } else {
          j = k;
          break;
        }
      }
    }
    if (nItem >= 1 && z[j] == ')') {
      strbuf_puts(&out, "(");
      strbuf_append(&out, z + i + 1, nFirst);
      strbuf_puts(&out, ", ...)");
      i = j + 1;
    } else {
      strbuf_append(&out, z + i, 1);
      i++;
    }
  }
  strbuf_free(s);
  *s = out;
}

/* Emits: for each flagged item, flag[k] = condition q (its statements
** inside the loop, so errors are raised only for rows that reach it). */
int cg__emit_pred(cg_kern *kk, const plan_pred *q, const char *zInto) {
  char zFlag[512];
  strbuf sql, shape;
  strbuf_init(&sql);
  strbuf_init(&shape);
  sql_expr_deparse(&sql, q->pExpr);
  cg_sql_shape(strbuf_str(&sql), &shape);
  cg_sql_shape_lists(&shape);
  cg__comment_line(kk->x.s, kk->x.nIndent, "%s", strbuf_str(&shape));
  strbuf_free(&sql);
  strbuf_free(&shape);
  cg__line(&kk->x, "for (int k = 0; k < SQ_ITEMS; k++) {");
  kk->x.nIndent += 2;
  cg__line(&kk->x, "if (!flag[k]) continue;");
  if (cg__cond(&kk->x, q, zFlag, sizeof(zFlag)) != 0) return -1;
  cg__line(&kk->x, "%s[k] &= %s;", zInto, zFlag);
  cg__block_end(kk);
  return 0;
}

/* An identifier ending in zEnd (for lut_<x>_min, lut_<x>_slots)? */
static int cg_ends_with(const char *z, const char *zEnd) {
  size_t n = strlen(z), k = strlen(zEnd);
  return n >= k && strcmp(z + n - k, zEnd) == 0;
}

/* Writes into z the part of FROM item s's kernel and field names
** (q_build_<x>, lut_<x>, lut_<x>_min, lut_<x>_bits, n_<x>) that names it:
** its alias made an identifier, or its index where that identifier would
** name two items ("x y" and x_y), end like another item's field (lut_a_min
** of a_min), or
** make a kernel name longer than cg_kernel holds. Returns z. */
static const char *cg_source_name(const cg_ctx *c, int s, char *z, size_t n) {
  char zOther[160];
  int bIndex;
  snprintf(z, n, "%s", c->p->aSource[s].zAlias);
  cg__sanitize(z);
  bIndex = isdigit((unsigned char)z[0]) || strlen(z) > 40 || cg_ends_with(z, "_min") ||
           cg_ends_with(z, "_slots") || cg_ends_with(z, "_bits") || cg_ends_with(z, "_moved");
  for (int t = 0; t < c->p->nSource && !bIndex; t++) {
    snprintf(zOther, sizeof(zOther), "%s", c->p->aSource[t].zAlias);
    cg__sanitize(zOther);
    bIndex = t != s && strcmp(zOther, z) == 0;
  }
  if (bIndex) snprintf(z, n, "%d", s);     /* no alias's identifier starts with a digit */
  return z;
}

const char *cg__table_rows(cg_ctx *c, int s) {
  char zName[160], zSource[64];
  cg_program *g = c->pProg;
  for (int i = 0; i < g->nField; i++) {
    if (g->aField[i].eKind == CG_FIELD_NROW && g->aField[i].iSource == s) return g->aField[i].zName;
  }
  snprintf(zName, sizeof(zName), "n_%s", cg_source_name(c, s, zSource, sizeof(zSource)));
  int i = cg__field(c, CG_FIELD_NROW, zName);
  if (i < 0) return NULL;
  g->aField[i].iSource = s;
  return g->aField[i].zName;
}

/* ---- BUILD ---------------------------------------------------------------------- */

/* Adds the field of dimension d's lookup nOffset bytes into its buffer. */
static int cg_lookup_field(cg_ctx *c, int d, const char *zName, uint64_t nOffset) {
  int i = cg__field(c, CG_FIELD_LOOKUP, zName);
  if (i < 0) return -1;
  c->pProg->aField[i].iDim = d;
  c->pProg->aField[i].nOffset = nOffset;
  return 0;
}

/* The key's slot s and, with semi-join bits, its bit; with dense keys, the
** check that every row holds the slot of its own index (before the
** filters: a row that fails them must be in place too). */
static void cg_build_slot(cg_kern *kk, const plan_lookup *l, const char *zLut, const char *zKey) {
  if (l->eKind == PLAN_LOOKUP_DATE) {
    cg__line(&kk->x, "long long s = sq_date_slot(%s[k], a.%s_min);", zKey, zLut);
  } else {
    cg__line(&kk->x, "long long s = %s[k] - a.%s_min;", zKey, zLut);
  }
  cg__line(&kk->x, "if (s < 0 || s >= a.%s_slots) continue;", zLut);
  cg__line(&kk->x, "((unsigned *)a.%s)[s] = (unsigned)row1;", zLut);
  if (l->bBits) {
    /* Bits have a key range of their own (plan.h, plan_lookup): an
    ** array's slots, a date map's raw keys. */
    cg__line(&kk->x, "long long b = (long long)%s[k] - a.%s_bmin;", zKey, zLut);
    cg__line(&kk->x, "if (b >= 0 && b < a.%s_bslots) sq_bits_set((unsigned *)a.%s_bits, b);", zLut, zLut);
  }
}

int cg__emit_build(cg_ctx *c, int d, strbuf *s) {
  const plan *p = c->p;
  const plan_dim *pDim = &p->aDim[d];
  const plan_lookup *l = &pDim->lookup;
  const cat_table *t = p->aSource[pDim->iSource].pTable;
  const char *zAlias = p->aSource[pDim->iSource].zAlias, *zRows, *zKey;
  char zName[160], zLut[160], zMin[160], zSlots[160], zSource[64], zExtra[192];
  cg_kern kk;

  cg_source_name(c, pDim->iSource, zSource, sizeof(zSource));
  snprintf(zName, sizeof(zName), "q_build_%s", zSource);
  snprintf(zLut, sizeof(zLut), "lut_%s", zSource);
  snprintf(zMin, sizeof(zMin), "%s_min", zLut);
  snprintf(zSlots, sizeof(zSlots), "%s_slots", zLut);
  if (cg_lookup_field(c, d, zLut, 0) != 0) return -1;
  snprintf(zExtra, sizeof(zExtra), "%s_bits", zLut);
  if (l->bBits && cg_lookup_field(c, d, zExtra, l->nBitOff) != 0) return -1;
  snprintf(zExtra, sizeof(zExtra), "%s_moved", zLut);
  if (l->bDense && cg_lookup_field(c, d, zExtra, l->nMovedOff) != 0) return -1;
  if (cg__param_role(c, zMin, l->eKind == PLAN_LOOKUP_DATE ? l->iYearMin : l->iMin,
                     CG_ROLE_LUT_MIN, d) < 0 ||
      cg__param_role(c, zSlots, l->eKind == PLAN_LOOKUP_HASH ? (int64_t)l->nSlot - 1 : (int64_t)l->nSlot,
                     CG_ROLE_LUT_SLOTS, d) < 0) {
    return -1;
  }
  if (l->bBits) {
    snprintf(zExtra, sizeof(zExtra), "%s_bmin", zLut);
    if (cg__param_role(c, zExtra, l->iBitMin, CG_ROLE_LUT_BMIN, d) < 0) return -1;
    snprintf(zExtra, sizeof(zExtra), "%s_bslots", zLut);
    if (cg__param_role(c, zExtra, (int64_t)l->nBitSlot, CG_ROLE_LUT_BSLOTS, d) < 0) return -1;
  }
  if (cg__kern_init(c, &kk, s) != 0 || (zRows = cg__table_rows(c, pDim->iSource)) == NULL) return -1;
  cg__kernel_begin(c, s, zName, CG_KERNEL_BUILD, d);
  cg__comment_line(s, 0, "BUILD %s: rows that pass its filters, by %s", zAlias,
                   t->aCol[pDim->iKeyCol].zName);
  strbuf_printf(s, "__global__ void %s(const struct q_args a) {\n", zName);
  cg__tile_begin(&kk, zRows);
  zKey = cg__col_var(c, pDim->iSource, pDim->iKeyCol);
  if (l->bDense) {
    if (cg__load(&kk, pDim->iSource, pDim->iKeyCol, NULL) != 0) return -1;
    cg__comment_line(s, kk.x.nIndent, "dense keys: the SCAN takes key - min as the row index unless"
                     " a row is out of place");
    cg__line(&kk.x, "sq_dense_check_%s(%s, base, a.%s, flag, (unsigned *)a.%s_moved);",
             cg__reg_sfx(t->aCol[pDim->iKeyCol].type), zKey, zMin, zLut);
  }
  for (int q = 0; q < pDim->nPred; q++) {
    if (cg__load_expr(&kk, pDim->aPred[q].pExpr, pDim->iSource) != 0) return -1;
    if (cg__emit_pred(&kk, &pDim->aPred[q], "flag") != 0) return -1;
  }
  if (cg__load(&kk, pDim->iSource, pDim->iKeyCol, NULL) != 0) return -1;
  cg__line(&kk.x, "for (int k = 0; k < SQ_ITEMS; k++) {");
  kk.x.nIndent += 2;
  if (!t->aCol[pDim->iKeyCol].bNotNull) cg__line(&kk.x, "if (!%s_ok[k]) continue;  /* NULL never joins */", zKey);
  cg__line(&kk.x, "if (!flag[k]) continue;");
  cg__line(&kk.x, "unsigned long long row1 = (unsigned long long)(base + sq_item(k)) + 1;");
  if (l->eKind == PLAN_LOOKUP_HASH) {
    cg__line(&kk.x, "sq_hash_insert((sq_hslot *)a.%s, (unsigned long long)a.%s, %s[k], row1);",
             zLut, zSlots, zKey);
  } else {
    cg_build_slot(&kk, l, zLut, zKey);
  }
  cg__block_end(&kk);
  cg__block_end(&kk);
  cg__kernel_end(s, zName);
  return 0;
}

void cg__kernel_begin(cg_ctx *c, strbuf *s, const char *zName, cg_kernel_kind e, int iDim) {
  cg_kernel *k = &c->pProg->aKernel[c->pProg->nKernel];
  snprintf(k->zName, sizeof(k->zName), "%s", zName);
  k->eKind = e;
  k->iDim = iDim;
  k->iSource = e == CG_KERNEL_BUILD ? c->p->aDim[iDim].iSource : e == CG_KERNEL_SCAN ? c->p->iFact : -1;
  c->pProg->nKernel++;
  (void)s;
}

void cg__kernel_end(strbuf *s, const char *zName) {
  strbuf_printf(s, "}\nSTARQ_CPU_ENTRY(%s, struct q_args)\n\n", zName);
}

