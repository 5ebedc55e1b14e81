/*
** catalog/files.c — the catalog's part of the data directory: making and
** fsyncing directories, removing generation trees, and the sweep that
** cat_open() runs to remove what a crash or a failed removal left behind.
** What goes inside a generation is the column store's business
** (storage/store.h); this file only names those files (cat_file_path).
**
** The sweep removes DATA/t<id>/g<gen> unless the catalog names generation
** <gen> current for table <id>, and removes DATA/t<id> entirely once table
** <id> is gone. It never touches a generation another handle is writing:
** such a directory is flock()ed (gen.c), so the sweep takes the lock
** itself first, and only then reads the table's current generation afresh
** (a load commits before it unlocks, so a generation just committed is
** seen as current). Entries with other names are not ours and are left.
**
** INTERFACE ROUTINES
**   cat_file_path
**   cat__fsync_dir, cat__gen_dir, cat__sweep
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "catalogInt.h"

/* Generation trees are flat; anything deeper is not ours to walk into. */

char *cat_file_path(const cat *pCat, const cat_table *t, int64_t iGen, int iCol,
                    store_kind eKind, char *z, size_t n) {
  const char *zExt;
  int k;
  switch (eKind) {
    case STORE_VALUES: zExt = "col"; break;
    case STORE_VALIDITY: zExt = "null"; break;
    case STORE_DICT: zExt = "dict"; break;
    default: return NULL;
  }
  k = snprintf(z, n, "%s/t%lld/g%lld/c%d.%s", pCat->zDataDir, (long long)t->iId,
               (long long)iGen, iCol, zExt);
  return (k < 0 || (size_t)k >= n) ? NULL : z;
}

int cat__gen_dir(const cat *pCat, int64_t iTable, int64_t iGen, char *z, size_t n,
                 char *zErr, size_t nErr) {
  int k = iGen == 0
              ? snprintf(z, n, "%s/t%lld", pCat->zDataDir, (long long)iTable)
              : snprintf(z, n, "%s/t%lld/g%lld", pCat->zDataDir, (long long)iTable,
                         (long long)iGen);
  if (k < 0 || (size_t)k >= n) {
    snprintf(zErr, nErr, "data directory path %s is too long", pCat->zDataDir);
    return -1;
  }
  return 0;
}

int cat__fsync_dir(const char *zPath, char *zErr, size_t nErr) {
  int fd = open(zPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    return -1;
  }
  if (fsync(fd) != 0) {
    snprintf(zErr, nErr, "fsync %s: %s", zPath, strerror(errno));
    close(fd);
    return -1;
  }
  close(fd);
  return 0;
}

/* Parses "<c><n>" with n a positive decimal without leading zeros (so
** every number has one spelling). Returns 1 and sets *pn, or 0. */
static int files_name_num(const char *z, char c, int64_t *pn) {
  int64_t n = 0;
  int i;
  if (z[0] != c || z[1] < '1' || z[1] > '9') return 0;
  for (i = 1; z[i] != 0; i++) {
    if (z[i] < '0' || z[i] > '9' || i > 18) return 0;
    n = n * 10 + (z[i] - '0');
  }
  *pn = n;
  return 1;
}

/* Sweeps one entry zGen of table iTable's directory fdTable: removes it
** unless it is the current generation or another handle holds its lock.
** Only a failed catalog read is an error: a directory that cannot be
** removed now is harmless (nothing names it) and is tried again next open. */
static int files_sweep_gen(cat *pCat, int64_t iTable, int fdTable, const char *zGen,
                           char *zErr, size_t nErr) {
  int64_t iGen, iCurrent;
  int bExists, fd, rc = 0;

  if (!files_name_num(zGen, 'g', &iGen)) {
    /* Not a generation: only a dropped table's directory loses it. */
    if (cat__table_gen(pCat, iTable, &bExists, &iCurrent, zErr, nErr) != 0) return -1;
    if (!bExists) fsdir_remove_at(fdTable, zGen);
    return 0;
  }
  fd = openat(fdTable, zGen, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOTDIR || errno == ELOOP) fsdir_remove_at(fdTable, zGen);
    return 0;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) goto out_close;   /* being written */
  if (cat__table_gen(pCat, iTable, &bExists, &iCurrent, zErr, nErr) != 0) {
    rc = -1;
    goto out_close;
  }
  if (!bExists || iGen != iCurrent) fsdir_remove_at(fdTable, zGen);
out_close:
  close(fd);
  return rc;
}

/* Sweeps DATA/zTable, the directory of table iTable. */
static int files_sweep_table(cat *pCat, int fdData, int64_t iTable, const char *zTable,
                             char *zErr, size_t nErr) {
  int fd = openat(fdData, zTable, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *pDir;
  struct dirent *pEnt;
  int64_t iCurrent;
  int bExists, rc = 0;

  if (fd < 0) return 0;   /* not a directory: not ours */
  pDir = fdopendir(fd);
  if (pDir == NULL) {
    close(fd);
    return 0;
  }
  while ((pEnt = readdir(pDir)) != NULL) {
    if (strcmp(pEnt->d_name, ".") == 0 || strcmp(pEnt->d_name, "..") == 0) continue;
    if (files_sweep_gen(pCat, iTable, dirfd(pDir), pEnt->d_name, zErr, nErr) != 0) {
      rc = -1;
      break;
    }
  }
  closedir(pDir);
  if (rc == 0 && (rc = cat__table_gen(pCat, iTable, &bExists, &iCurrent, zErr, nErr)) == 0 &&
      !bExists) {
    /* Fails with ENOTEMPTY while a locked generation remains: fine. */
    (void)unlinkat(fdData, zTable, AT_REMOVEDIR);
  }
  return rc;
}

int cat__sweep(cat *pCat, char *zErr, size_t nErr) {
  DIR *pDir = opendir(pCat->zDataDir);
  struct dirent *pEnt;
  int rc = 0;

  if (pDir == NULL) {
    snprintf(zErr, nErr, "opendir %s: %s", pCat->zDataDir, strerror(errno));
    return -1;
  }
  errno = 0;
  while ((pEnt = readdir(pDir)) != NULL) {
    int64_t iTable;
    if (!files_name_num(pEnt->d_name, 't', &iTable)) continue;
    if (files_sweep_table(pCat, dirfd(pDir), iTable, pEnt->d_name, zErr, nErr) != 0) {
      rc = -1;
      break;
    }
    errno = 0;
  }
  if (rc == 0 && errno != 0) {
    snprintf(zErr, nErr, "readdir %s: %s", pCat->zDataDir, strerror(errno));
    rc = -1;
  }
  closedir(pDir);
  return rc;
}
