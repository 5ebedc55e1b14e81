/*
** tests/test-bind-ddl.c — bind_create_table and bind_copy: definitions
** built from CREATE TABLE (keys in both forms, foreign keys with and
** without columns, in any key order, to the table itself) and created in
** the catalog; every error with its SQLSTATE and position; COPY paths
** that stay inside the import directory and every way out of it (.., an
** absolute path, symbolic links to files and directories), missing files,
** directories, and the format options.
*/
#define _GNU_SOURCE
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "../parser/parser.h"
#include "../planner/bind.h"
#include "test.h"
#include "test-bind.h"

/* Binds CREATE TABLE zSql into *ppDef; returns bind_create_table's rc. */
static int bd_create(cat *pCat, const char *zSql, cat_table **ppDef, sql_error *pErr) {
  arena a;
  sql_stmt *p;
  int rc;
  arena_init(&a);
  p = bindtest_parse(zSql, &a);
  ASSERT_EQ(p->eKind, SQL_STMT_CREATE_TABLE);
  rc = bind_create_table(pCat, p->pCreate, ppDef, pErr);
  arena_free(&a);
  return rc;
}

/* Binds zSql, which must succeed, and creates the table it defines.
** Returns the definition as the catalog reads it back (caller frees). */
static cat_table *bd_create_ok(cat *pCat, const char *zSql) {
  cat_table *pDef, *t;
  sql_error e;
  char zErr[512];
  if (bd_create(pCat, zSql, &pDef, &e) != 0) FAIL("[%s]: %s %s", zSql, e.zState, e.zMsg);
  ASSERT(pDef != NULL);
  if (cat_table_create(pCat, pDef, zErr, sizeof(zErr)) != 0) FAIL("[%s]: create: %s", zSql, zErr);
  if (cat_table_get(pCat, pDef->zName, &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  cat_table_free(pDef);
  return t;
}

static const char *bd_col(const cat_table *t, int i) {
  ASSERT(i >= 0 && i < t->nCol);
  return t->aCol[i].zName;
}

TEST_IMPL(bind_create_table) {
  cat *pCat = bindtest_cat_open();
  cat_table *t;
  sql_error e;
  char zType[64];

  /* Column forms: PRIMARY KEY, NOT NULL, REFERENCES t (its primary key). */
  t = bd_create_ok(pCat, "create table t1 (a integer primary key, b varchar(10) not null,"
                         " c decimal(10,2), d date references date, e smallint null)");
  ASSERT_EQ(t->nCol, 5);
  ASSERT_STR_EQ(coltype_format(t->aCol[1].type, zType, sizeof(zType)), "VARCHAR(10)");
  ASSERT_STR_EQ(coltype_format(t->aCol[2].type, zType, sizeof(zType)), "DECIMAL(10,2)");
  ASSERT_EQ(t->aCol[0].bNotNull, 1);
  ASSERT_EQ(t->aCol[1].bNotNull, 1);
  ASSERT_EQ(t->aCol[2].bNotNull, 0);
  ASSERT_EQ(t->aCol[4].bNotNull, 0);
  ASSERT_EQ(t->nPkey, 1);
  ASSERT_EQ(t->aiPkey[0], 0);
  ASSERT_EQ(t->nFkey, 1);
  ASSERT_STR_EQ(t->aFkey[0].zRefTable, "date");
  ASSERT_EQ(t->aFkey[0].aiCol[0], 3);
  ASSERT_STR_EQ(t->aFkey[0].azRefCol[0], "d_datekey");
  cat_table_free(t);

  /* Table forms, a composite key declared out of column order, a foreign
  ** key naming the referenced columns. */
  t = bd_create_ok(pCat, "create table t2 (x integer, y bigint, z text, primary key (y, x),"
                         " foreign key (x, y) references t_comp (k1, k2))");
  ASSERT_EQ(t->nPkey, 2);
  ASSERT_EQ(t->aiPkey[0], 1);
  ASSERT_EQ(t->aiPkey[1], 0);
  ASSERT_EQ(t->aCol[0].bNotNull, 1);
  ASSERT_EQ(t->aCol[2].bNotNull, 0);
  ASSERT_EQ(t->nFkey, 1);
  ASSERT_STR_EQ(bd_col(t, t->aFkey[0].aiCol[0]), "x");
  ASSERT_STR_EQ(bd_col(t, t->aFkey[0].aiCol[1]), "y");
  cat_table_free(t);

  /* The key's columns in another order: put back into key order. */
  t = bd_create_ok(pCat, "create table t3 (p bigint, q integer,"
                         " foreign key (p, q) references t_comp (k2, k1))");
  ASSERT_EQ(t->nFkey, 1);
  ASSERT_STR_EQ(bd_col(t, t->aFkey[0].aiCol[0]), "q");
  ASSERT_STR_EQ(bd_col(t, t->aFkey[0].aiCol[1]), "p");
  ASSERT_STR_EQ(t->aFkey[0].azRefCol[0], "k1");
  ASSERT_STR_EQ(t->aFkey[0].azRefCol[1], "k2");
  cat_table_free(t);

  /* FOREIGN KEY without columns: the referenced primary key. */
  t = bd_create_ok(pCat, "create table t4 (a integer, b bigint, foreign key (a, b) references t_comp)");
  ASSERT_EQ(t->nFkey, 1);
  ASSERT_EQ(t->aFkey[0].nCol, 2);
  cat_table_free(t);

  /* References to the table being created, in both forms; several keys. */
  t = bd_create_ok(pCat, "create table tree (id integer primary key, parent integer references tree,"
                         " other integer references tree (id), d date references date)");
  ASSERT_EQ(t->nFkey, 3);
  ASSERT_STR_EQ(t->aFkey[0].zRefTable, "tree");
  ASSERT_EQ(t->aFkey[0].aiRefCol[0], 0);
  cat_table_free(t);
  t = bd_create_ok(pCat, "create table tree2 (id integer, up integer, primary key (id),"
                         " foreign key (up) references tree2)");
  ASSERT_EQ(t->nFkey, 1);
  cat_table_free(t);

  /* IF NOT EXISTS on a table that exists: nothing to do. */
  {
    cat_table *pDef = (cat_table *)&e;            /* must be overwritten */
    ASSERT_EQ(bd_create(pCat, "create table if not exists date (a integer)", &pDef, &e), 0);
    ASSERT(pDef == NULL);
    ASSERT_STR_EQ(e.zState, "");
  }
  cat_close(pCat);
  return 0;
}

typedef struct bd_case bd_case;
struct bd_case {
  const char *zSql;
  const char *zState;
  const char *zMsg;
  const char *zAt;          /* where it points: first occurrence */
};

static const bd_case bd_aCreate[] = {
  {"create table date (a integer)", "42P07", "relation \"date\" already exists", "date"},
  {"create table t (a integer, b text, a bigint)", "42701", "column \"a\" specified more than once",
   "a bigint"},
  {"create table t (a integer, \"A\" text)", "42701", "column \"A\" specified more than once",
   "\"A\""},
  {"create table t (a integer primary key, b integer primary key)", "42P16",
   "multiple primary keys for table \"t\" are not allowed", "b integer"},
  {"create table t (a integer primary key, b integer, primary key (b))", "42P16",
   "multiple primary keys for table \"t\" are not allowed", "primary key ("},
  {"create table t (a integer, primary key (zz))", "42703", "column \"zz\" named in key does not exist",
   "primary"},
  {"create table t (primary key (a))", "42703", "column \"a\" named in key does not exist",
   "primary"},
  {"create table t (a integer, primary key (a, a))", "42701",
   "column \"a\" appears twice in primary key constraint", "primary"},
  {"create table t (a integer references nosuch)", "42P01", "relation \"nosuch\" does not exist",
   "nosuch"},
  /* Types the parser names and nothing stores yet. */
  {"create table t (a integer, b time)", "0A000",
   "column \"b\": type time without time zone is not supported yet", "b time"},
  {"create table t (a integer, b timestamp(3))", "0A000",
   "column \"b\": a timestamp precision other than 6 is not supported yet", "b timestamp"},
  {"create table t (a interval day)", "0A000", "column \"a\": type interval is not supported yet",
   "a interval"},
  {"create table t (a numeric(30, 2))", "0A000", "column \"a\": type numeric(30,2) is not supported yet",
   "a numeric"},
  {"create table t (a oid)", "0A000", "column \"a\": type oid is not supported yet", "a oid"},
  {"create table t (a integer[])", "0A000", "column \"a\": array types are not supported yet",
   "a integer"},
  {"create table t (a integer, foreign key (a) references nosuch)", "42P01",
   "relation \"nosuch\" does not exist", "foreign"},
  {"create table t (a integer references date (d_year))", "42830",
   "there is no unique constraint matching given keys for referenced table \"date\"", "date"},
  {"create table t (a integer references t_two (v))", "42830",
   "there is no unique constraint matching given keys for referenced table \"t_two\"", "t_two"},
  {"create table t (a integer references t_all (nosuch))", "42703",
   "column \"nosuch\" referenced in foreign key constraint does not exist", "t_all"},
  {"create table t (a integer, foreign key (zz) references date)", "42703",
   "column \"zz\" referenced in foreign key constraint does not exist", "foreign"},
  {"create table t (a integer references date)", "42804",
   "foreign key constraint \"t_a_fkey\" cannot be implemented: key columns \"a\" and"
   " \"d_datekey\" are of incompatible types: integer and date", "date"},
  {"create table t (a integer, b integer, foreign key (a, b) references t_comp)", "42804",
   "foreign key constraint \"t_a_b_fkey\" cannot be implemented: key columns \"b\" and"
   " \"k2\" are of incompatible types: integer and bigint", "foreign"},
  {"create table t (a varchar(5) references customer (c_custkey))", "42804", NULL, "customer"},
  {"create table t (a integer, foreign key (a) references t_comp)", "42830",
   "number of referencing and referenced columns for foreign key disagree", "foreign"},
  {"create table t (a integer, b bigint, foreign key (a, b) references t_comp (k1))", "42830",
   "number of referencing and referenced columns for foreign key disagree", "foreign"},
  {"create table t (a integer, b bigint, foreign key (a, b) references t_comp (k1, k1))", "42830",
   "there is no unique constraint matching given keys for referenced table \"t_comp\"", "foreign"},
  {"create table t (a integer references t)", "42830",
   "there is no primary key for referenced table \"t\"", "t)"},
  {"create table t (a integer primary key, b integer references t (b))", "42830",
   "there is no unique constraint matching given keys for referenced table \"t\"", "t (b"},
};

TEST_IMPL(bind_create_table_errors) {
  cat *pCat = bindtest_cat_open();
  int nFail = 0, n = (int)(sizeof(bd_aCreate) / sizeof(bd_aCreate[0]));
  for (int i = 0; i < n; i++) {
    const bd_case *c = &bd_aCreate[i];
    cat_table *pDef = NULL;
    sql_error e;
    int rc = bd_create(pCat, c->zSql, &pDef, &e), iGot = sql_error_position(c->zSql, e.iOffset);
    int iWant = sql_error_position(c->zSql, (int)(strstr(c->zSql, c->zAt) - c->zSql));
    ASSERT(strstr(c->zSql, c->zAt) != NULL);
    if (rc != -1 || pDef != NULL || strcmp(e.zState, c->zState) != 0 || iGot != iWant ||
        (c->zMsg != NULL && strcmp(e.zMsg, c->zMsg) != 0)) {
      printf("case %d [%s]\n  got  rc %d %s at %d: %s\n  want    %s at %d: %s\n", i, c->zSql, rc,
             e.zState, iGot, e.zMsg, c->zState, iWant, c->zMsg ? c->zMsg : "(any)");
      nFail++;
    }
    cat_table_free(pDef);
  }
  printf("%d cases, %d failed\n", n, nFail);
  ASSERT_EQ(nFail, 0);
  cat_close(pCat);
  return 0;
}

/* ---- COPY ----------------------------------------------------------------- */

static void bd_write(const char *zPath) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  fputs("x\n", f);
  ASSERT_EQ(fclose(f), 0);
}

/* A COPY of table zTable from zPath with options; offsets 10 and 20. */
static sql_copy bd_copy(const char *zTable, const char *zPath, const char *zFormat) {
  sql_copy c;
  memset(&c, 0, sizeof(c));
  c.zTable = zTable;
  c.iOffset = 10;
  c.zPath = zPath;
  c.iPathOffset = 20;
  c.zFormat = zFormat;
  return c;
}

/* Binds c against import directory zDir; asserts the outcome. zWant is
** the SQLSTATE, or NULL for success with the resolved path ending in
** zEnd. */
static void bd_copy_check(cat *pCat, const sql_copy *c, const char *zDir, const char *zWant,
                          int iOffset, const char *zEnd) {
  char zPath[PATH_MAX];
  sql_error e;
  int rc = bind_copy(pCat, c, zDir, zPath, &e);
  if (zWant == NULL) {
    size_t n = strlen(zPath), m = strlen(zEnd);
    if (rc != 0) FAIL("COPY %s FROM '%s': %s %s", c->zTable, c->zPath, e.zState, e.zMsg);
    ASSERT(zPath[0] == '/');
    if (n < m || strcmp(zPath + n - m, zEnd) != 0) FAIL("resolved %s, want .../%s", zPath, zEnd);
    return;
  }
  if (rc != -1 || strcmp(e.zState, zWant) != 0 || e.iOffset != iOffset) {
    FAIL("COPY %s FROM '%s' (import %s): rc %d %s at %d: %s; want %s at %d", c->zTable, c->zPath,
         zDir ? zDir : "(none)", rc, e.zState, e.iOffset, e.zMsg, zWant, iOffset);
  }
  printf("COPY FROM '%s': %s %s\n", c->zPath, e.zState, e.zMsg);
}

TEST_IMPL(bind_copy) {
  cat *pCat = bindtest_cat_open();
  char zCwd[PATH_MAX], zAbs[PATH_MAX + 32], zImportAbs[PATH_MAX + 32];
  sql_copy c;
  sql_error e;
  char zPath[PATH_MAX];

  ASSERT(getcwd(zCwd, sizeof(zCwd)) != NULL);
  ASSERT_EQ(mkdir("import", 0755), 0);
  ASSERT_EQ(mkdir("import/sub", 0755), 0);
  ASSERT_EQ(mkdir("import/dir.tbl", 0755), 0);
  ASSERT_EQ(mkdir("elsewhere", 0755), 0);
  bd_write("import/a.tbl");
  bd_write("import/b.csv");
  bd_write("import/sub/c.tbl");
  bd_write("import/noext");
  bd_write("outside.tbl");
  bd_write("elsewhere/e.tbl");
  ASSERT_EQ(symlink("../outside.tbl", "import/link.tbl"), 0);
  ASSERT_EQ(symlink("..", "import/up"), 0);
  ASSERT_EQ(symlink("sub/c.tbl", "import/inside.tbl"), 0);
  ASSERT_EQ(symlink("import", "importlink"), 0);
  snprintf(zImportAbs, sizeof(zImportAbs), "%s/import", zCwd);

  /* Inside: relative to the import directory, absolute, through .. that
  ** stays inside, through a link that stays inside; the format from the
  ** name or given. */
  c = bd_copy("date", "a.tbl", NULL);
  bd_copy_check(pCat, &c, "import", NULL, 0, "/import/a.tbl");
  bd_copy_check(pCat, &c, zImportAbs, NULL, 0, "/import/a.tbl");
  bd_copy_check(pCat, &c, "importlink", NULL, 0, "/import/a.tbl");
  snprintf(zAbs, sizeof(zAbs), "%s/import/sub/c.tbl", zCwd);
  c = bd_copy("date", zAbs, NULL);
  bd_copy_check(pCat, &c, "import", NULL, 0, "/import/sub/c.tbl");
  snprintf(zAbs, sizeof(zAbs), "%s/importlink/sub/c.tbl", zCwd);   /* via the dir as given */
  c = bd_copy("date", zAbs, NULL);
  bd_copy_check(pCat, &c, "importlink", NULL, 0, "/import/sub/c.tbl");
  c = bd_copy("date", "sub/../a.tbl", NULL);
  bd_copy_check(pCat, &c, "import", NULL, 0, "/import/a.tbl");
  c = bd_copy("date", "inside.tbl", NULL);
  bd_copy_check(pCat, &c, "import", NULL, 0, "/import/sub/c.tbl");
  c = bd_copy("date", "b.csv", NULL);
  c.bHeader = 1;
  c.zDelimiter = ";";
  c.zNull = "NULL";
  bd_copy_check(pCat, &c, "import", NULL, 0, "/import/b.csv");
  c = bd_copy("date", "noext", "TBL");
  c.zNull = "";
  bd_copy_check(pCat, &c, "import", NULL, 0, "/import/noext");

  /* Outside, lexically: refused before the file system is asked, so a
  ** missing file outside reads the same as a present one. */
  c = bd_copy("date", "../outside.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  ASSERT_EQ(bind_copy(pCat, &c, "import", zPath, &e), -1);
  ASSERT_STR_EQ(e.zMsg, "could not open file \"../outside.tbl\": must be below the import"
                        " directory \"import\"");
  c = bd_copy("date", "../missing.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  c = bd_copy("date", "sub/../../outside.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  c = bd_copy("date", "/etc/passwd", "csv");
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  c = bd_copy("date", ".", "tbl");
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);        /* the directory itself */
  c = bd_copy("date", "", "tbl");
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  snprintf(zAbs, sizeof(zAbs), "%s/importx/a.tbl", zCwd);        /* a prefix is not a parent */
  c = bd_copy("date", zAbs, NULL);
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  /* Outside through links: to a file, through a directory. */
  c = bd_copy("date", "link.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  c = bd_copy("date", "up/elsewhere/e.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "42501", 20, NULL);
  /* No import directory, or one that is not there. */
  c = bd_copy("date", "a.tbl", NULL);
  bd_copy_check(pCat, &c, NULL, "42501", 20, NULL);
  bd_copy_check(pCat, &c, "", "42501", 20, NULL);
  bd_copy_check(pCat, &c, "nosuchdir", "58P01", 20, NULL);

  /* Inside, but not a file to read. */
  c = bd_copy("date", "missing.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "58P01", 20, NULL);
  ASSERT_EQ(bind_copy(pCat, &c, "import", zPath, &e), -1);
  ASSERT_STR_EQ(e.zMsg, "could not open file \"missing.tbl\" for reading: No such file or directory");
  c = bd_copy("date", "sub/missing/x.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "58P01", 20, NULL);
  c = bd_copy("date", "a.tbl/x.tbl", NULL);                      /* a file as a directory */
  bd_copy_check(pCat, &c, "import", "58P01", 20, NULL);
  c = bd_copy("date", "dir.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "42809", 20, NULL);

  /* The table, then the options. */
  c = bd_copy("nosuch", "a.tbl", NULL);
  bd_copy_check(pCat, &c, "import", "42P01", 10, NULL);
  c = bd_copy("date", "noext", NULL);
  bd_copy_check(pCat, &c, "import", "22023", 20, NULL);
  c = bd_copy("date", "a.tbl", "json");
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  c = bd_copy("date", "a.tbl", "tbl");
  c.bHeader = 1;
  bd_copy_check(pCat, &c, "import", "42601", -1, NULL);
  c = bd_copy("date", "a.tbl", NULL);
  c.zDelimiter = ",";
  bd_copy_check(pCat, &c, "import", "42601", -1, NULL);
  c = bd_copy("date", "b.csv", NULL);
  c.zDelimiter = ";;";
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  c.zDelimiter = "";
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  c.zDelimiter = "\n";
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  c.zDelimiter = "\"";
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  c.zDelimiter = "\xc3\xa9";
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  c.zDelimiter = NULL;
  c.zNull = "a\nb";
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  c.zNull = "a,b";
  bd_copy_check(pCat, &c, "import", "22023", -1, NULL);
  cat_close(pCat);
  return 0;
}
