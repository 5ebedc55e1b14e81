/*
** common/fsdir.h — directories: making them with their parents, and
** removing trees without ever following a symbolic link out of them; and
** reading a small file whole (SQL scripts for the tools).
** Used wherever starq creates or clears directories (the generator's
** output, data directories, generations, test and benchmark scratch).
*/
#ifndef STARQ_FSDIR_H
#define STARQ_FSDIR_H

#include <stddef.h>

/* Creates zPath and any missing parents, like mkdir -p. Returns 0, or -1
** with "mkdir PATH: reason" or "PATH is not a directory" in zErr. */
int fsdir_mkdir_p(const char *zPath, char *zErr, size_t nErr);

/* Removes zPath and, if it is a directory (not a link to one), everything
** under it. A path that is already gone is success. Returns 0, or -1 with
** errno set (what could be removed is removed). */
int fsdir_remove(const char *zPath);

/* The same for entry zName of the open directory fdParent. */
int fsdir_remove_at(int fdParent, const char *zName);

/* Reads the whole file zPath into a malloc'd NUL-terminated buffer (its
** length in *pn if pn is not NULL). Returns NULL with errno set. */
char *fsdir_read_file(const char *zPath, size_t *pn);

#endif /* STARQ_FSDIR_H */
