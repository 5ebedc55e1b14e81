/*
** catalog/tabledef.c — table definitions in memory: building one column
** and key at a time, looking columns up, freeing. Nothing here reads the
** catalog; what needs other tables (a foreign key's target, its primary
** key and types) is checked by cat_table_create() in table.c.
**
** The builders check what they can see locally, so that a caller learns
** of a mistake at the line that made it; cat__table_check() runs the same
** checks again over a whole definition, for one filled in by hand.
**
** INTERFACE ROUTINES
**   cat_table_new, cat_table_free
**   cat_table_add_column, cat_table_set_pkey, cat_table_add_fkey
**   cat_table_column
**   cat__table_check, cat__col_list (catalogInt.h)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalogInt.h"

cat_table *cat_table_new(const char *zName) {
  cat_table *t = calloc(1, sizeof(*t));
  if (t == NULL) return NULL;
  t->zName = strdup(zName != NULL ? zName : "");
  if (t->zName == NULL) {
    free(t);
    return NULL;
  }
  return t;
}

static void tdef_fkey_free(cat_fkey *f) {
  if (f->azRefCol != NULL) {
    for (int i = 0; i < f->nCol; i++) free(f->azRefCol[i]);
  }
  free(f->azRefCol);
  free(f->aiCol);
  free(f->aiRefCol);
  free(f->zRefTable);
}

void cat_table_free(cat_table *t) {
  if (t == NULL) return;
  for (int i = 0; i < t->nCol; i++) free(t->aCol[i].zName);
  for (int i = 0; i < t->nFkey; i++) tdef_fkey_free(&t->aFkey[i]);
  free(t->aCol);
  free(t->aiPkey);
  free(t->aFkey);
  free(t->zLocation);
  free(t->zName);
  free(t);
}

/* Copies n ints; NULL stays NULL. Returns -1 if memory ran out. */
static int tdef_ints_copy(int **paDst, const int *aSrc, int n) {
  *paDst = NULL;
  if (aSrc == NULL || n <= 0) return 0;
  *paDst = malloc(sizeof(int) * (size_t)n);
  if (*paDst == NULL) return -1;
  memcpy(*paDst, aSrc, sizeof(int) * (size_t)n);
  return 0;
}

cat_table *cat__table_clone(const cat_table *t) {
  cat_table *c = cat_table_new(t->zName);
  if (c == NULL) return NULL;
  c->iId = t->iId;
  c->iGen = t->iGen;
  c->nRow = t->nRow;
  if (t->zLocation != NULL && (c->zLocation = strdup(t->zLocation)) == NULL) goto out_free;
  if (t->nCol > 0) {
    if ((c->aCol = calloc((size_t)t->nCol, sizeof(*c->aCol))) == NULL) goto out_free;
    for (; c->nCol < t->nCol; c->nCol++) {
      c->aCol[c->nCol] = t->aCol[c->nCol];
      if ((c->aCol[c->nCol].zName = strdup(t->aCol[c->nCol].zName)) == NULL) goto out_free;
    }
  }
  if (tdef_ints_copy(&c->aiPkey, t->aiPkey, t->nPkey) != 0) goto out_free;
  c->nPkey = t->nPkey;
  if (t->nFkey > 0) {
    if ((c->aFkey = calloc((size_t)t->nFkey, sizeof(*c->aFkey))) == NULL) goto out_free;
    for (; c->nFkey < t->nFkey; c->nFkey++) {
      const cat_fkey *f = &t->aFkey[c->nFkey];
      cat_fkey *g = &c->aFkey[c->nFkey];
      g->nCol = f->nCol;
      if (tdef_ints_copy(&g->aiCol, f->aiCol, f->nCol) != 0 ||
          tdef_ints_copy(&g->aiRefCol, f->aiRefCol, f->nCol) != 0 ||
          (g->zRefTable = strdup(f->zRefTable)) == NULL) {
        c->nFkey++;           /* so cat_table_free frees what was copied */
        goto out_free;
      }
      if (f->azRefCol != NULL) {
        if ((g->azRefCol = calloc((size_t)f->nCol, sizeof(char *))) == NULL) {
          c->nFkey++;
          goto out_free;
        }
        for (int i = 0; i < f->nCol; i++) {
          if ((g->azRefCol[i] = strdup(f->azRefCol[i])) == NULL) {
            c->nFkey++;
            goto out_free;
          }
        }
      }
    }
  }
  return c;
out_free:
  cat_table_free(c);
  return NULL;
}

int cat_table_column(const cat_table *t, const char *zName) {
  for (int i = 0; i < t->nCol; i++) {
    if (strcasecmp(t->aCol[i].zName, zName) == 0) return i;
  }
  return -1;
}

char *cat__col_list(const cat_table *t, int nCol, const int *aiCol, char *z, size_t n) {
  size_t k = 0;
  z[0] = 0;
  for (int i = 0; i < nCol && k < n; i++) {
    const char *zCol = (aiCol[i] >= 0 && aiCol[i] < t->nCol) ? t->aCol[aiCol[i]].zName : "?";
    int m = snprintf(z + k, n - k, "%s%s", i > 0 ? ", " : "", zCol);
    if (m < 0) break;
    k += (size_t)m;
  }
  return z;
}

/* Checks one column's name and type against the columns before it. */
static int tdef_column_check(const cat_table *t, int nBefore, const char *zName, coltype type,
                             int bVirtual, char *zErr, size_t nErr) {
  char zWhy[160];
  if (zName == NULL || zName[0] == 0) {
    snprintf(zErr, nErr, "a column needs a name");
    return -1;
  }
  for (int i = 0; i < nBefore; i++) {
    if (strcasecmp(t->aCol[i].zName, zName) == 0) {
      snprintf(zErr, nErr, "column \"%s\" is defined twice", zName);
      return -1;
    }
  }
  if (!bVirtual && coltype_check(type, zWhy, sizeof(zWhy)) != 0) {
    snprintf(zErr, nErr, "column \"%s\": %s", zName, zWhy);
    return -1;
  }
  return 0;
}

static int tdef_column_add(cat_table *t, const char *zName, coltype type, int bNotNull, int bVirtual,
                           char *zErr, size_t nErr) {
  cat_column *aNew;
  char *zCopy;

  if (tdef_column_check(t, t->nCol, zName, type, bVirtual, zErr, nErr) != 0) return -1;
  zCopy = strdup(zName);
  if (zCopy == NULL) return cat__oom(zErr, nErr);
  aNew = realloc(t->aCol, (size_t)(t->nCol + 1) * sizeof(*aNew));
  if (aNew == NULL) {
    free(zCopy);
    return cat__oom(zErr, nErr);
  }
  t->aCol = aNew;
  t->aCol[t->nCol].zName = zCopy;
  t->aCol[t->nCol].type = type;
  t->aCol[t->nCol].bNotNull = bNotNull != 0;
  t->nCol++;
  return 0;
}

int cat_table_add_column(cat_table *t, const char *zName, coltype type, int bNotNull,
                         char *zErr, size_t nErr) {
  return tdef_column_add(t, zName, type, bNotNull, 0, zErr, nErr);
}

int cat_table_add_virtual_column(cat_table *t, const char *zName, coltype type, int bNotNull,
                                 char *zErr, size_t nErr) {
  return tdef_column_add(t, zName, type, bNotNull, 1, zErr, nErr);
}

/* Resolves azCol[0..nCol) into ordinals of t in the malloc'd *paiCol.
** zKey names the key in messages ("primary key", "foreign key"). */
static int tdef_key_resolve(const cat_table *t, const char *zKey, int nCol,
                            const char *const *azCol, int **paiCol, char *zErr, size_t nErr) {
  int *aiCol;
  *paiCol = NULL;
  if (nCol < 1 || azCol == NULL) {
    snprintf(zErr, nErr, "a %s needs at least one column", zKey);
    return -1;
  }
  aiCol = malloc((size_t)nCol * sizeof(int));
  if (aiCol == NULL) return cat__oom(zErr, nErr);
  for (int i = 0; i < nCol; i++) {
    aiCol[i] = azCol[i] != NULL ? cat_table_column(t, azCol[i]) : -1;
    if (aiCol[i] < 0) {
      snprintf(zErr, nErr, "%s column \"%s\" is not a column of table \"%s\"", zKey,
               azCol[i] != NULL ? azCol[i] : "", t->zName);
      goto out_free;
    }
    for (int j = 0; j < i; j++) {
      if (aiCol[j] == aiCol[i]) {
        snprintf(zErr, nErr, "column \"%s\" appears twice in the %s",
                 t->aCol[aiCol[i]].zName, zKey);
        goto out_free;
      }
    }
  }
  *paiCol = aiCol;
  return 0;
out_free:
  free(aiCol);
  return -1;
}

int cat_table_set_pkey(cat_table *t, int nCol, const char *const *azCol,
                       char *zErr, size_t nErr) {
  int *aiCol;
  if (t->nPkey > 0) {
    snprintf(zErr, nErr, "table \"%s\" already has a primary key", t->zName);
    return -1;
  }
  if (tdef_key_resolve(t, "primary key", nCol, azCol, &aiCol, zErr, nErr) != 0) return -1;
  /* As in SQL: a key value may not be NULL. */
  for (int i = 0; i < nCol; i++) t->aCol[aiCol[i]].bNotNull = 1;
  t->aiPkey = aiCol;
  t->nPkey = nCol;
  return 0;
}

int cat_table_add_fkey(cat_table *t, int nCol, const char *const *azCol,
                       const char *zRefTable, const char *const *azRefCol,
                       char *zErr, size_t nErr) {
  cat_fkey f = {0}, *aNew;

  if (zRefTable == NULL || zRefTable[0] == 0) {
    snprintf(zErr, nErr, "a foreign key needs a referenced table");
    return -1;
  }
  if (tdef_key_resolve(t, "foreign key", nCol, azCol, &f.aiCol, zErr, nErr) != 0) return -1;
  f.nCol = nCol;
  if (azRefCol == NULL) {
    snprintf(zErr, nErr, "a foreign key needs its referenced columns");
    goto out_free;
  }
  f.zRefTable = strdup(zRefTable);
  f.aiRefCol = malloc((size_t)nCol * sizeof(int));
  f.azRefCol = calloc((size_t)nCol, sizeof(char *));
  if (f.zRefTable == NULL || f.aiRefCol == NULL || f.azRefCol == NULL) {
    cat__oom(zErr, nErr);
    goto out_free;
  }
  for (int i = 0; i < nCol; i++) {
    if (azRefCol[i] == NULL || azRefCol[i][0] == 0) {
      snprintf(zErr, nErr, "a foreign key's referenced column needs a name");
      goto out_free;
    }
    f.aiRefCol[i] = -1;   /* resolved by cat_table_create() */
    f.azRefCol[i] = strdup(azRefCol[i]);
    if (f.azRefCol[i] == NULL) {
      cat__oom(zErr, nErr);
      goto out_free;
    }
  }
  aNew = realloc(t->aFkey, (size_t)(t->nFkey + 1) * sizeof(*aNew));
  if (aNew == NULL) {
    cat__oom(zErr, nErr);
    goto out_free;
  }
  t->aFkey = aNew;
  t->aFkey[t->nFkey++] = f;
  return 0;
out_free:
  tdef_fkey_free(&f);
  return -1;
}

/* Checks a key's ordinals: in range, none twice. */
static int tdef_key_check(const cat_table *t, const char *zKey, int nCol, const int *aiCol,
                          char *zErr, size_t nErr) {
  if (nCol < 1 || aiCol == NULL) {
    snprintf(zErr, nErr, "a %s needs at least one column", zKey);
    return -1;
  }
  for (int i = 0; i < nCol; i++) {
    if (aiCol[i] < 0 || aiCol[i] >= t->nCol) {
      snprintf(zErr, nErr, "%s of table \"%s\" names column %d, which does not exist", zKey,
               t->zName, aiCol[i]);
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (aiCol[j] == aiCol[i]) {
        snprintf(zErr, nErr, "column \"%s\" appears twice in the %s",
                 t->aCol[aiCol[i]].zName, zKey);
        return -1;
      }
    }
  }
  return 0;
}

int cat__table_check(const cat_table *t, char *zErr, size_t nErr) {
  if (t->zName == NULL || t->zName[0] == 0) {
    snprintf(zErr, nErr, "a table needs a name");
    return -1;
  }
  if (t->nCol < 1) {
    snprintf(zErr, nErr, "table \"%s\" has no columns", t->zName);
    return -1;
  }
  for (int i = 0; i < t->nCol; i++) {
    if (tdef_column_check(t, i, t->aCol[i].zName, t->aCol[i].type, 0, zErr, nErr) != 0) {
      return -1;
    }
  }
  if (t->nPkey > 0 &&
      tdef_key_check(t, "primary key", t->nPkey, t->aiPkey, zErr, nErr) != 0) {
    return -1;
  }
  for (int i = 0; i < t->nFkey; i++) {
    const cat_fkey *f = &t->aFkey[i];
    if (tdef_key_check(t, "foreign key", f->nCol, f->aiCol, zErr, nErr) != 0) return -1;
    if (f->zRefTable == NULL || f->zRefTable[0] == 0) {
      snprintf(zErr, nErr, "a foreign key needs a referenced table");
      return -1;
    }
    if (f->azRefCol == NULL) {
      snprintf(zErr, nErr, "a foreign key needs its referenced columns");
      return -1;
    }
    for (int j = 0; j < f->nCol; j++) {
      if (f->azRefCol[j] == NULL || f->azRefCol[j][0] == 0) {
        snprintf(zErr, nErr, "a foreign key's referenced column needs a name");
        return -1;
      }
    }
  }
  return 0;
}
