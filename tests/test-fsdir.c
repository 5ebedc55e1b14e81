/*
** tests/test-fsdir.c — making and removing directory trees (common/fsdir.c),
** above all that removal never follows a symbolic link out of the tree.
*/
#include <sys/stat.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "test.h"

static void fsdir_touch(const char *zPath) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  fputs("x", f);
  ASSERT_EQ(fclose(f), 0);
}

TEST_IMPL(fsdir_trees) {
  char zErr[256];
  struct stat st;

  CALL_OK(fsdir_mkdir_p("a/b/c", zErr, sizeof(zErr)));
  CALL_OK(fsdir_mkdir_p("a/b/c", zErr, sizeof(zErr)));        /* again: fine */
  ASSERT(stat("a/b/c", &st) == 0 && S_ISDIR(st.st_mode));
  fsdir_touch("a/b/c/f");
  fsdir_touch("file");
  CALL_ERR(fsdir_mkdir_p("file/sub", zErr, sizeof(zErr)), "mkdir file/sub: Not a directory");
  CALL_ERR(fsdir_mkdir_p("file", zErr, sizeof(zErr)), "file is not a directory");
  CALL_ERR(fsdir_mkdir_p("", zErr, sizeof(zErr)), "an empty directory name");

  /* Links inside the tree, to a directory and to a file outside it, are
  ** removed as links: what they point to stays. */
  CALL_OK(fsdir_mkdir_p("outside/keep", zErr, sizeof(zErr)));
  fsdir_touch("outside/keep/precious");
  ASSERT_EQ(symlink("../../outside", "a/b/dirlink"), 0);
  ASSERT_EQ(symlink("../../file", "a/b/filelink"), 0);
  ASSERT_EQ(fsdir_remove("a"), 0);
  ASSERT(!test_file_exists("a"));
  ASSERT(test_file_exists("outside/keep/precious"));
  ASSERT(test_file_exists("file"));

  /* A link given as the root is removed, not its target. */
  ASSERT_EQ(symlink("outside", "rootlink"), 0);
  ASSERT_EQ(fsdir_remove("rootlink"), 0);
  ASSERT(lstat("rootlink", &st) != 0);
  ASSERT(test_file_exists("outside/keep/precious"));

  /* Gone already is success; a plain file is removed. */
  ASSERT_EQ(fsdir_remove("a"), 0);
  ASSERT_EQ(fsdir_remove("file"), 0);
  ASSERT(!test_file_exists("file"));
  return 0;
}
