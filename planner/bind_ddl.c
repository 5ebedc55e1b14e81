/*
** planner/bind_ddl.c — binding the statements that are not queries:
** CREATE TABLE into a catalog definition, and COPY into a checked table
** and file path.
**
** CREATE TABLE is checked here with PostgreSQL's SQLSTATEs and messages
** (duplicate columns, several primary keys, foreign keys that reference
** no table, no key, or a column of another type), so that
** cat_table_create()'s own checks are only a backstop whose plain-text
** messages a client should never see. starq's catalog knows primary keys
** only, so a foreign key must reference its table's primary key (42830
** otherwise, as PostgreSQL says when no unique constraint matches), and
** the column types must be identical, not merely comparable.
**
** COPY reads files from the server's file system, so the path is the
** security boundary: it must resolve (symbolic links and .. included) to
** a file strictly below the import directory. The lexical form of the
** path is checked first, so that COPY cannot even probe whether a file
** outside the import directory exists.
**
** INTERFACE ROUTINES
**   bind_create_table, bind_copy
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bindInt.h"

/* ---- CREATE TABLE -------------------------------------------------------- */

/* Writes t as PostgreSQL's format_type shows it with modifiers. */
static const char *ddl_type_text(coltype t, char *z, size_t n) {
  const char *zBase = bind__coltype_name(t);
  if (t.eId == COLTYPE_DECIMAL) {
    snprintf(z, n, "%s(%d,%d)", zBase, t.nPrecision, t.nScale);
  } else if (t.eId == COLTYPE_CHAR || t.eId == COLTYPE_VARCHAR) {
    snprintf(z, n, "%s(%d)", zBase, t.nLength);
  } else {
    snprintf(z, n, "%s", zBase);
  }
  return z;
}

static int ddl_type_eq(coltype a, coltype b) {
  return a.eId == b.eId && a.nLength == b.nLength && a.nPrecision == b.nPrecision &&
         a.nScale == b.nScale;
}

/* Returns 1 if zName is the name of table pCreate itself. */
static int ddl_is_self(const sql_create *pCreate, const char *zName) {
  return strcasecmp(pCreate->zName, zName) == 0;
}

/* Reads table zName into *pt. Returns 0, 1 if there is none, or -1 with
** XX000 recorded if the catalog failed. */
static int ddl_table_get(cat *pCat, const char *zName, cat_table **pt, sql_error *pErr,
                         int iOffset) {
  char zErr[512];
  if (cat_table_get(pCat, zName, pt, zErr, sizeof(zErr)) == 0) return 0;
  if (strncmp(zErr, "no table named", 14) == 0) return 1;
  sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, iOffset, "%s", zErr);
  return -1;
}

/* Checks column i of pCreate: its name against those before it, its type. */
static int ddl_column_check(const sql_create *pCreate, int i, sql_error *pErr) {
  const sql_column_def *c = &pCreate->aCol[i];
  char zWhy[160];
  if (c->zName == NULL || c->zName[0] == 0) {
    sql_error_set(pErr, SQLSTATE_SYNTAX_ERROR, c->iOffset, "a column needs a name");
    return -1;
  }
  for (int j = 0; j < i; j++) {
    if (strcasecmp(pCreate->aCol[j].zName, c->zName) == 0) {
      sql_error_set(pErr, SQLSTATE_DUPLICATE_COLUMN, c->iOffset,
                    "column \"%s\" specified more than once", c->zName);
      return -1;
    }
  }
  if (c->type.eId == COLTYPE_BOOLEAN) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, c->iOffset,
                  "column \"%s\": starq does not store type boolean", c->zName);
    return -1;
  }
  if (c->nArrayDim > 0) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, c->iOffset,
                  "column \"%s\": array types are not supported yet", c->zName);
    return -1;
  }
  if (c->type.eId > COLTYPE_UNKNOWN && c->type.eId != COLTYPE_TIMESTAMP &&
      c->type.eId != COLTYPE_TIMESTAMPTZ) {
    /* A PostgreSQL type the parser names and nothing stores yet. */
    char zType[64];
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, c->iOffset,
                  "column \"%s\": type %s is not supported yet", c->zName,
                  bind__type_text(c->type, 0, zType, sizeof(zType)));
    return -1;
  }
  if ((c->type.eId == COLTYPE_TIMESTAMP || c->type.eId == COLTYPE_TIMESTAMPTZ) &&
      c->type.nScale != COLTYPE_TIME_PRECISION_MAX) {
    /* PostgreSQL rounds such a column's values; starq keeps microseconds */
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, c->iOffset,
                  "column \"%s\": a timestamp precision other than 6 is not supported yet",
                  c->zName);
    return -1;
  }
  if (c->type.eId < COLTYPE_SMALLINT ||
      (c->type.eId > COLTYPE_TEXT && coltype_width(c->type) == 0)) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_OBJECT, c->iOffset, "type of column \"%s\" does not exist",
                  c->zName);
    return -1;
  }
  if (coltype_check(c->type, zWhy, sizeof(zWhy)) != 0) {
    sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, c->iOffset, "column \"%s\": %s", c->zName, zWhy);
    return -1;
  }
  return 0;
}

/* Resolves key columns azCol[0..n) of the table being created into
** aiCol, refusing unknown and repeated ones. zWhere says which key for the
** messages ("named in key", "referenced in foreign key constraint"). */
static int ddl_key_columns(const sql_create *pCreate, int n, const char *const *azCol, int *aiCol,
                           const char *zWhere, const char *zTwice, int iOffset, sql_error *pErr) {
  for (int i = 0; i < n; i++) {
    aiCol[i] = -1;
    for (int c = 0; azCol[i] != NULL && c < pCreate->nCol; c++) {
      if (strcasecmp(pCreate->aCol[c].zName, azCol[i]) == 0) aiCol[i] = c;
    }
    if (aiCol[i] < 0) {
      sql_error_set(pErr, SQLSTATE_UNDEFINED_COLUMN, iOffset, "column \"%s\" %s does not exist",
                    azCol[i] != NULL ? azCol[i] : "", zWhere);
      return -1;
    }
    for (int j = 0; zTwice != NULL && j < i; j++) {
      if (aiCol[j] == aiCol[i]) {
        sql_error_set(pErr, SQLSTATE_DUPLICATE_COLUMN, iOffset, "column \"%s\" appears twice in %s",
                      azCol[i], zTwice);
        return -1;
      }
    }
  }
  return 0;
}

/* Records a backstop failure of a catalog builder: 53200 or 42P16. */
static int ddl_builder_failed(sql_error *pErr, const char *zErr, int iOffset) {
  int bOom = strstr(zErr, "out of memory") != NULL;
  sql_error_set(pErr, bOom ? SQLSTATE_OUT_OF_MEMORY : SQLSTATE_INVALID_TABLE_DEF, iOffset, "%s",
                zErr);
  return -1;
}

/* One foreign key as written: columns of the new table referencing
** columns (or the primary key) of zRefTable. */
typedef struct ddl_fkey ddl_fkey;
struct ddl_fkey {
  int nCol;
  const char *const *azCol;
  const char *zRefTable;
  int nRefCol;                   /* 0: the primary key */
  const char *const *azRefCol;
  int iOffset;
};

/* Checks foreign key f against the table it references and adds it to
** pDef, with both column lists put in the order of the referenced primary
** key (PostgreSQL accepts the key's columns in any order). */
static int ddl_fkey_add(cat *pCat, const sql_create *pCreate, cat_table *pDef, const ddl_fkey *f,
                        sql_error *pErr) {
  cat_table *pRef = NULL;
  const cat_table *r;
  int aiCol[64], aiRef[64], rc = -1;
  const char *azCol[64], *azRef[64];
  char zErr[512];

  if (f->nCol < 1 || f->nCol > 64) {
    sql_error_set(pErr, SQLSTATE_PROGRAM_LIMIT, f->iOffset, "a foreign key takes 1 to 64 columns");
    return -1;
  }
  if (ddl_key_columns(pCreate, f->nCol, f->azCol, aiCol, "referenced in foreign key constraint",
                      NULL, f->iOffset, pErr) != 0) {
    return -1;
  }
  if (ddl_is_self(pCreate, f->zRefTable)) {
    r = pDef;
  } else {
    int rcGet = ddl_table_get(pCat, f->zRefTable, &pRef, pErr, f->iOffset);
    if (rcGet < 0) return -1;
    if (rcGet > 0) {
      sql_error_set(pErr, SQLSTATE_UNDEFINED_TABLE, f->iOffset, "relation \"%s\" does not exist",
                    f->zRefTable);
      return -1;
    }
    r = pRef;
  }

  if (f->nRefCol == 0) {
    if (r->nPkey == 0) {
      sql_error_set(pErr, SQLSTATE_INVALID_FOREIGN_KEY, f->iOffset,
                    "there is no primary key for referenced table \"%s\"", f->zRefTable);
      goto out_free;
    }
    if (r->nPkey != f->nCol) goto out_disagree;
    for (int i = 0; i < f->nCol; i++) aiRef[i] = r->aiPkey[i];
  } else {
    if (f->nRefCol != f->nCol) goto out_disagree;
    for (int i = 0; i < f->nCol; i++) {
      if ((aiRef[i] = f->azRefCol[i] ? cat_table_column(r, f->azRefCol[i]) : -1) < 0) {
        sql_error_set(pErr, SQLSTATE_UNDEFINED_COLUMN, f->iOffset,
                      "column \"%s\" referenced in foreign key constraint does not exist",
                      f->azRefCol[i] != NULL ? f->azRefCol[i] : "");
        goto out_free;
      }
    }
  }
  /* Map the referenced columns onto the primary key: each key column
  ** exactly once, in any order; reorder both lists into key order. */
  if (r->nPkey != f->nCol) goto out_no_unique;
  for (int k = 0; k < r->nPkey; k++) {
    int iFound = -1;
    for (int i = 0; i < f->nCol; i++) {
      if (aiRef[i] == r->aiPkey[k]) {
        if (iFound >= 0) goto out_no_unique;
        iFound = i;
      }
    }
    if (iFound < 0) goto out_no_unique;
    azCol[k] = pCreate->aCol[aiCol[iFound]].zName;
    azRef[k] = r->aCol[r->aiPkey[k]].zName;
    {
      coltype a = pCreate->aCol[aiCol[iFound]].type, b = r->aCol[r->aiPkey[k]].type;
      if (!ddl_type_eq(a, b)) {
        char zName[256], zA[64], zB[64];
        size_t m = (size_t)snprintf(zName, sizeof(zName), "%s", pCreate->zName);
        for (int i = 0; i < f->nCol && m < sizeof(zName); i++) {
          m += (size_t)snprintf(zName + m, sizeof(zName) - m, "_%s", f->azCol[i]);
        }
        sql_error_set(pErr, SQLSTATE_DATATYPE_MISMATCH, f->iOffset,
                      "foreign key constraint \"%s_fkey\" cannot be implemented: key columns"
                      " \"%s\" and \"%s\" are of incompatible types: %s and %s",
                      zName, azCol[k], azRef[k], ddl_type_text(a, zA, sizeof(zA)),
                      ddl_type_text(b, zB, sizeof(zB)));
        goto out_free;
      }
    }
  }
  if (cat_table_add_fkey(pDef, f->nCol, azCol, r == pDef ? pDef->zName : r->zName, azRef, zErr,
                         sizeof(zErr)) != 0) {
    ddl_builder_failed(pErr, zErr, f->iOffset);
    goto out_free;
  }
  rc = 0;
  goto out_free;

out_disagree:
  sql_error_set(pErr, SQLSTATE_INVALID_FOREIGN_KEY, f->iOffset,
                "number of referencing and referenced columns for foreign key disagree");
  goto out_free;
out_no_unique:
  sql_error_set(pErr, SQLSTATE_INVALID_FOREIGN_KEY, f->iOffset,
                "there is no unique constraint matching given keys for referenced table \"%s\"",
                f->zRefTable);
out_free:
  cat_table_free(pRef);
  return rc;
}

/* Finds the primary key: a column's PRIMARY KEY or a table's, one at most.
** Sets *piCol (column form) or *piKey (table form), -1 for the other. */
static int ddl_pkey_find(const sql_create *pCreate, int *piCol, int *piKey, sql_error *pErr) {
  int nFound = 0;
  *piCol = *piKey = -1;
  for (int i = 0; i < pCreate->nCol + pCreate->nKey; i++) {
    int bCol = i < pCreate->nCol, iOffset;
    if (bCol ? !pCreate->aCol[i].bPrimaryKey : pCreate->aKey[i - pCreate->nCol].bForeign) continue;
    iOffset = bCol ? pCreate->aCol[i].iOffset : pCreate->aKey[i - pCreate->nCol].iOffset;
    if (nFound++ > 0) {
      sql_error_set(pErr, SQLSTATE_INVALID_TABLE_DEF, iOffset,
                    "multiple primary keys for table \"%s\" are not allowed", pCreate->zName);
      return -1;
    }
    if (bCol) {
      *piCol = i;
    } else {
      *piKey = i - pCreate->nCol;
    }
  }
  return 0;
}

/* Builds the definition: columns, then the primary key, then the foreign
** keys (column forms first, then table forms, as written). */
static int ddl_build(cat *pCat, const sql_create *pCreate, cat_table *pDef, sql_error *pErr) {
  char zErr[512];
  int iPkCol, iPkKey;

  for (int i = 0; i < pCreate->nCol; i++) {
    const sql_column_def *c = &pCreate->aCol[i];
    if (ddl_column_check(pCreate, i, pErr) != 0) return -1;
    if (cat_table_add_column(pDef, c->zName, c->type, c->bNotNull, zErr, sizeof(zErr)) != 0) {
      return ddl_builder_failed(pErr, zErr, c->iOffset);
    }
  }
  if (ddl_pkey_find(pCreate, &iPkCol, &iPkKey, pErr) != 0) return -1;
  if (iPkCol >= 0) {
    const char *azPk[1] = {pCreate->aCol[iPkCol].zName};
    if (cat_table_set_pkey(pDef, 1, azPk, zErr, sizeof(zErr)) != 0) {
      return ddl_builder_failed(pErr, zErr, pCreate->aCol[iPkCol].iOffset);
    }
  } else if (iPkKey >= 0) {
    const sql_table_key *k = &pCreate->aKey[iPkKey];
    int aiCol[64];
    if (k->nCol < 1 || k->nCol > 64 || k->azCol == NULL) {
      sql_error_set(pErr, SQLSTATE_PROGRAM_LIMIT, k->iOffset, "a primary key takes 1 to 64 columns");
      return -1;
    }
    if (ddl_key_columns(pCreate, k->nCol, k->azCol, aiCol, "named in key",
                        "primary key constraint", k->iOffset, pErr) != 0) {
      return -1;
    }
    if (cat_table_set_pkey(pDef, k->nCol, k->azCol, zErr, sizeof(zErr)) != 0) {
      return ddl_builder_failed(pErr, zErr, k->iOffset);
    }
  }
  for (int i = 0; i < pCreate->nCol; i++) {
    const sql_column_def *c = &pCreate->aCol[i];
    ddl_fkey f;
    if (c->zRefTable == NULL) continue;
    f.nCol = 1;
    f.azCol = &c->zName;
    f.zRefTable = c->zRefTable;
    f.nRefCol = c->zRefColumn != NULL ? 1 : 0;
    f.azRefCol = &c->zRefColumn;
    f.iOffset = c->iRefOffset;
    if (ddl_fkey_add(pCat, pCreate, pDef, &f, pErr) != 0) return -1;
  }
  for (int i = 0; i < pCreate->nKey; i++) {
    const sql_table_key *k = &pCreate->aKey[i];
    ddl_fkey f;
    if (!k->bForeign) continue;
    if (k->zRefTable == NULL || k->azCol == NULL || (k->nRefCol > 0 && k->azRefCol == NULL)) {
      sql_error_set(pErr, SQLSTATE_SYNTAX_ERROR, k->iOffset, "incomplete FOREIGN KEY");
      return -1;
    }
    f.nCol = k->nCol;
    f.azCol = k->azCol;
    f.zRefTable = k->zRefTable;
    f.nRefCol = k->nRefCol;
    f.azRefCol = k->azRefCol;
    f.iOffset = k->iOffset;
    if (ddl_fkey_add(pCat, pCreate, pDef, &f, pErr) != 0) return -1;
  }
  return 0;
}

int bind_create_table(cat *pCat, const sql_create *pCreate, cat_table **ppDef,
                      sql_error *pErr) {
  cat_table *pDef, *pOld = NULL;
  int rc;

  *ppDef = NULL;
  sql_error_clear(pErr);
  if (pCreate == NULL || pCreate->zName == NULL || (pCreate->nCol > 0 && pCreate->aCol == NULL) ||
      (pCreate->nKey > 0 && pCreate->aKey == NULL)) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "incomplete CREATE TABLE");
    return -1;
  }
  if ((rc = ddl_table_get(pCat, pCreate->zName, &pOld, pErr, pCreate->iOffset)) < 0) return -1;
  if (rc == 0) {
    cat_table_free(pOld);
    if (pCreate->bIfNotExists) return 0;
    sql_error_set(pErr, SQLSTATE_DUPLICATE_TABLE, pCreate->iOffset,
                  "relation \"%s\" already exists", pCreate->zName);
    return -1;
  }
  if ((pDef = cat_table_new(pCreate->zName)) == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  if (ddl_build(pCat, pCreate, pDef, pErr) != 0) {
    cat_table_free(pDef);
    return -1;
  }
  /* Checked after the keys, which name columns a table without any lacks
  ** (PostgreSQL's 42703); PostgreSQL allows a table of no columns. */
  if (pDef->nCol == 0) {
    cat_table_free(pDef);
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pCreate->iOffset,
                  "table \"%s\" needs at least one column", pCreate->zName);
    return -1;
  }
  *ppDef = pDef;
  return 0;
}

/* ---- COPY ----------------------------------------------------------------- */

/* Collapses ".", ".." and repeated '/' of absolute path z into zOut, with
** no file system access. Returns 0, or -1 if it does not fit. */
static int copy_path_normalize(const char *z, char *zOut, size_t n) {
  size_t k = 0;
  if (n < 2) return -1;
  zOut[k++] = '/';
  while (*z != 0) {
    const char *zEnd;
    size_t nPart;
    while (*z == '/') z++;
    if (*z == 0) break;
    for (zEnd = z; *zEnd != 0 && *zEnd != '/'; zEnd++) {}
    nPart = (size_t)(zEnd - z);
    if (nPart == 1 && z[0] == '.') {
      /* nothing */
    } else if (nPart == 2 && z[0] == '.' && z[1] == '.') {
      while (k > 1 && zOut[k - 1] != '/') k--;     /* drop the last part */
      if (k > 1) k--;                               /* and its '/' */
    } else {
      if (k > 1) {
        if (k + 1 >= n) return -1;
        zOut[k++] = '/';
      }
      if (k + nPart >= n) return -1;
      memcpy(zOut + k, z, nPart);
      k += nPart;
    }
    z = zEnd;
  }
  zOut[k] = 0;
  return 0;
}

/* Returns 1 if zPath lies strictly below directory zDir (both absolute
** and normalized). */
static int copy_path_below(const char *zPath, const char *zDir) {
  size_t n = strlen(zDir);
  if (n == 1 && zDir[0] == '/') return zPath[0] == '/' && zPath[1] != 0;
  return strncmp(zPath, zDir, n) == 0 && zPath[n] == '/' && zPath[n + 1] != 0;
}

/* Records the error of a failed open-like call on zShown as PostgreSQL's
** errcode_for_file_access() maps errno. */
static int copy_file_error(sql_error *pErr, int iOffset, const char *zShown, int nErrno) {
  const char *zState = nErrno == ENOENT || nErrno == ENOTDIR   ? SQLSTATE_UNDEFINED_FILE
                       : nErrno == EACCES || nErrno == EPERM ? SQLSTATE_INSUFFICIENT_PRIVILEGE
                                                             : SQLSTATE_IO_ERROR;
  sql_error_set(pErr, zState, iOffset, "could not open file \"%s\" for reading: %s", zShown,
                strerror(nErrno));
  return -1;
}

/* Checks the options of COPY: the format, and the delimiter and NULL
** string it allows. */
static int copy_options_check(const sql_copy *pCopy, sql_error *pErr) {
  int bCsv;
  const char *zFormat = pCopy->zFormat;
  if (zFormat == NULL) {
    /* No FORMAT: the file's extension says. */
    const char *zDot = strrchr(pCopy->zPath, '.');
    if (zDot != NULL && strchr(zDot, '/') == NULL &&
        (strcasecmp(zDot, ".tbl") == 0 || strcasecmp(zDot, ".csv") == 0)) {
      zFormat = zDot + 1;
    } else {
      sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, pCopy->iPathOffset,
                    "COPY format of \"%s\" cannot be told from its name:"
                    " give WITH (FORMAT tbl) or WITH (FORMAT csv)", pCopy->zPath);
      return -1;
    }
  }
  if (strcasecmp(zFormat, "tbl") != 0 && strcasecmp(zFormat, "csv") != 0) {
    sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1, "COPY format \"%s\" not recognized",
                  zFormat);
    return -1;
  }
  bCsv = strcasecmp(zFormat, "csv") == 0;
  if (!bCsv && pCopy->bHeader) {
    sql_error_set(pErr, SQLSTATE_SYNTAX_ERROR, -1, "cannot specify HEADER in tbl format");
    return -1;
  }
  if (!bCsv && pCopy->zDelimiter != NULL) {
    sql_error_set(pErr, SQLSTATE_SYNTAX_ERROR, -1, "cannot specify DELIMITER in tbl format");
    return -1;
  }
  if (pCopy->zDelimiter != NULL) {
    char c = pCopy->zDelimiter[0];
    if (strlen(pCopy->zDelimiter) != 1 || (unsigned char)c >= 0x80) {
      sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1,
                    "COPY delimiter must be a single one-byte character");
      return -1;
    }
    if (c == '\n' || c == '\r') {
      sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1,
                    "COPY delimiter cannot be newline or carriage return");
      return -1;
    }
    if (c == '"') {
      sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1,
                    "COPY delimiter and quote must be different");
      return -1;
    }
  }
  if (pCopy->zNull != NULL) {
    char cDelim = !bCsv ? '|' : pCopy->zDelimiter != NULL ? pCopy->zDelimiter[0] : ',';
    if (strpbrk(pCopy->zNull, "\r\n") != NULL) {
      sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1,
                    "COPY null representation cannot use newline or carriage return");
      return -1;
    }
    if (strchr(pCopy->zNull, cDelim) != NULL) {
      sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1,
                    "COPY delimiter character must not appear in the NULL specification");
      return -1;
    }
  }
  return 0;
}

/* Resolves the path of COPY into zPath (PATH_MAX bytes): strictly below
** the import directory, an existing file that is not a directory. */
static int copy_path_check(const sql_copy *pCopy, const char *zImportDir, char *zPath,
                           sql_error *pErr) {
  char zDir[PATH_MAX], zDirGiven[PATH_MAX], zAbs[PATH_MAX], zNorm[PATH_MAX], zReal[PATH_MAX];
  const char *zShown = pCopy->zPath;
  int iOffset = pCopy->iPathOffset;
  struct stat st;

  if (zImportDir == NULL || zImportDir[0] == 0) {
    sql_error_set(pErr, SQLSTATE_INSUFFICIENT_PRIVILEGE, iOffset,
                  "could not open file \"%s\": COPY from a file needs an import directory,"
                  " and the server has none", zShown);
    return -1;
  }
  if (realpath(zImportDir, zDir) == NULL) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_FILE, iOffset,
                  "could not open import directory \"%s\": %s", zImportDir, strerror(errno));
    return -1;
  }
  /* The import directory as given, made absolute, for the lexical check
  ** of a path written through it (it may be a symbolic link). */
  if (zImportDir[0] == '/') {
    snprintf(zAbs, sizeof(zAbs), "%s", zImportDir);
  } else {
    char zCwd[PATH_MAX];
    if (getcwd(zCwd, sizeof(zCwd)) == NULL) zCwd[0] = 0;
    snprintf(zAbs, sizeof(zAbs), "%s/%s", zCwd, zImportDir);
  }
  if (copy_path_normalize(zAbs, zDirGiven, sizeof(zDirGiven)) != 0) zDirGiven[0] = 0;

  /* A relative path is relative to the import directory. */
  if ((size_t)snprintf(zAbs, sizeof(zAbs), "%s%s%s", zShown[0] == '/' ? "" : zDir,
                       zShown[0] == '/' ? "" : "/", zShown) >= sizeof(zAbs) ||
      copy_path_normalize(zAbs, zNorm, sizeof(zNorm)) != 0) {
    return copy_file_error(pErr, iOffset, zShown, ENAMETOOLONG);
  }
  if (!copy_path_below(zNorm, zDir) && (zDirGiven[0] == 0 || !copy_path_below(zNorm, zDirGiven))) {
    goto out_outside;
  }
  if (realpath(zAbs, zReal) == NULL) return copy_file_error(pErr, iOffset, zShown, errno);
  if (!copy_path_below(zReal, zDir)) goto out_outside;     /* a link led out */
  if (stat(zReal, &st) != 0) return copy_file_error(pErr, iOffset, zShown, errno);
  if (S_ISDIR(st.st_mode)) {
    sql_error_set(pErr, SQLSTATE_WRONG_OBJECT_TYPE, iOffset, "\"%s\" is a directory", zShown);
    return -1;
  }
  memcpy(zPath, zReal, strlen(zReal) + 1);
  return 0;
out_outside:
  sql_error_set(pErr, SQLSTATE_INSUFFICIENT_PRIVILEGE, iOffset,
                "could not open file \"%s\": must be below the import directory \"%s\"", zShown,
                zImportDir);
  return -1;
}

int bind_copy(cat *pCat, const sql_copy *pCopy, const char *zImportDir, char *zPath,
              sql_error *pErr) {
  cat_table *t = NULL;
  int rc;

  sql_error_clear(pErr);
  if (zPath != NULL) zPath[0] = 0;
  if (pCopy != NULL && pCopy->bStdin) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pCopy->iPathOffset,
                  "COPY FROM STDIN takes its data from a client session: send it to starqd");
    return -1;
  }
  if (pCopy == NULL || pCopy->zTable == NULL || pCopy->zPath == NULL || zPath == NULL) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "incomplete COPY");
    return -1;
  }
  if ((rc = ddl_table_get(pCat, pCopy->zTable, &t, pErr, pCopy->iOffset)) < 0) return -1;
  if (rc > 0) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_TABLE, pCopy->iOffset, "relation \"%s\" does not exist",
                  pCopy->zTable);
    return -1;
  }
  cat_table_free(t);
  if (copy_options_check(pCopy, pErr) != 0) return -1;
  return copy_path_check(pCopy, zImportDir, zPath, pErr);
}
