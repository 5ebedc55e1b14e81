/*
** common/fsdir.c — making and removing directory trees (fsdir.h).
**
** Removal walks with openat(O_NOFOLLOW) and unlinkat() relative to the
** directory being emptied, so a symbolic link inside a tree is removed as
** a link and never followed, and a path renamed under us cannot redirect
** the walk. Nesting is bounded: starq's own trees are a few levels deep,
** and a deeper one is refused (ELOOP) rather than recursed into forever.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsdir.h"

#define FSDIR_DEPTH_MAX 16

int fsdir_mkdir_p(const char *zPath, char *zErr, size_t nErr) {
  char *z = strdup(zPath);
  struct stat st;
  int rc = -1;

  if (z == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (*z == 0) {
    snprintf(zErr, nErr, "an empty directory name");
    goto out_free;
  }
  for (char *p = z + 1;; p++) {
    char c;
    if (*p != '/' && *p != 0) continue;
    c = *p;
    *p = 0;
    if (mkdir(z, 0777) != 0 && errno != EEXIST) {
      snprintf(zErr, nErr, "mkdir %s: %s", z, strerror(errno));
      goto out_free;
    }
    *p = c;
    if (c == 0) break;
  }
  if (stat(zPath, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(zErr, nErr, "%s is not a directory", zPath);
    goto out_free;
  }
  rc = 0;
out_free:
  free(z);
  return rc;
}

static int fsdir_remove_depth(int fdParent, const char *zName, int iDepth) {
  int fd = openat(fdParent, zName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *pDir;
  struct dirent *pEnt;
  int rc = 0;

  if (fd < 0) {
    if (errno == ENOENT) return 0;
    if (errno != ENOTDIR && errno != ELOOP) return -1;
    return (unlinkat(fdParent, zName, 0) == 0 || errno == ENOENT) ? 0 : -1;
  }
  if (iDepth >= FSDIR_DEPTH_MAX) {
    close(fd);
    errno = ELOOP;
    return -1;
  }
  pDir = fdopendir(fd);
  if (pDir == NULL) {
    close(fd);
    return -1;
  }
  errno = 0;
  while ((pEnt = readdir(pDir)) != NULL) {
    if (strcmp(pEnt->d_name, ".") == 0 || strcmp(pEnt->d_name, "..") == 0) continue;
    if (fsdir_remove_depth(dirfd(pDir), pEnt->d_name, iDepth + 1) != 0) rc = -1;
    errno = 0;
  }
  if (errno != 0) rc = -1;
  closedir(pDir);
  if (rc != 0) return -1;
  return (unlinkat(fdParent, zName, AT_REMOVEDIR) == 0 || errno == ENOENT) ? 0 : -1;
}

int fsdir_remove_at(int fdParent, const char *zName) {
  return fsdir_remove_depth(fdParent, zName, 0);
}

int fsdir_remove(const char *zPath) {
  return fsdir_remove_depth(AT_FDCWD, zPath, 0);
}

char *fsdir_read_file(const char *zPath, size_t *pn) {
  FILE *f = fopen(zPath, "rb");
  char *z = NULL;
  long n;
  struct stat st;
  if (f == NULL) return NULL;
  /* A directory's or a device's "size" is no size to allocate. */
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    errno = EINVAL;
    return NULL;
  }
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (z = malloc((size_t)n + 1)) != NULL) {
    if (fread(z, 1, (size_t)n, f) == (size_t)n) {
      z[n] = 0;
      if (pn != NULL) *pn = (size_t)n;
    } else {
      free(z);
      z = NULL;
      errno = EIO;
    }
  }
  fclose(f);
  return z;
}
