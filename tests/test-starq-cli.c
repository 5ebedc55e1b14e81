/*
** tests/test-starq-cli.c — starq, the command-line client, as a program:
** build/asan/bin/starq run against a live starqd (tests/starqd-fixture.h).
**
** Two independent sources check it. The real psql (15) runs with the
** same flags and input, and starq must print what psql prints, byte for
** byte (stdout, stderr with "psql:" read as "starq:", exit code): aligned,
** expanded, unaligned and CSV output, errors with LINE and caret, scripts
** and ON_ERROR_STOP, \dt and \d, COPY. And the values in starq's tables
** are checked against the in-process executor (starqd_expected), with an
** aligned table built here from them.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "starq-cli-fixture.h"
#include "test.h"

/* Splits the executor's "v|v\n" text into rows of cells (in place);
** returns the cell array (malloc'd), *pnRow rows of nCol. */
static char **cli_cells(char *zText, int nCol, int *pnRow) {
  char **az = NULL;
  int n = 0;
  for (char *zLine = zText; *zLine;) {
    char *zEnd = strchr(zLine, '\n');
    ASSERT(zEnd != NULL);
    *zEnd = 0;
    az = realloc(az, sizeof(char *) * (size_t)(n + nCol));
    ASSERT(az != NULL);
    for (int j = 0; j < nCol; j++) {
      char *zBar = strchr(zLine, '|');
      az[n++] = zLine;
      if (j < nCol - 1) {
        ASSERT(zBar != NULL);
        *zBar = 0;
        zLine = zBar + 1;
      }
    }
    zLine = zEnd + 1;
  }
  *pnRow = n / nCol;
  return az;
}

/* psql's aligned table for ASCII one-line values, written here from the
** rules (header centred, numbers right, text left, the last column not
** padded on the right), independently of clients/cli/print.c. */
static char *cli_aligned(const char *const *azHead, int nCol, char **azCell, int nRow,
                         const unsigned *aType) {
  strbuf s;
  int aW[16];
  ASSERT(nCol <= 16);
  strbuf_init(&s);
  for (int j = 0; j < nCol; j++) {
    aW[j] = (int)strlen(azHead[j]);
    for (int r = 0; r < nRow; r++) {
      if ((int)strlen(azCell[r * nCol + j]) > aW[j]) aW[j] = (int)strlen(azCell[r * nCol + j]);
    }
  }
  for (int j = 0; j < nCol; j++) {
    int nPad = aW[j] - (int)strlen(azHead[j]);
    strbuf_printf(&s, "%s%*s%s%*s %s", j ? "" : " ", nPad / 2, "", azHead[j], (nPad + 1) / 2, "",
                  j < nCol - 1 ? "| " : "\n");
  }
  for (int j = 0; j < nCol; j++) {
    strbuf_repeat(&s, '-', (size_t)aW[j] + 2);
    strbuf_puts(&s, j < nCol - 1 ? "+" : "\n");
  }
  for (int r = 0; r < nRow; r++) {
    for (int j = 0; j < nCol; j++) {
      const char *z = azCell[r * nCol + j];
      int bNum = aType[j] == 20 || aType[j] == 21 || aType[j] == 23 || aType[j] == 700 ||
                 aType[j] == 701 || aType[j] == 1700, bLast = j == nCol - 1;
      strbuf_puts(&s, j ? " " : " ");
      if (bNum) strbuf_printf(&s, "%*s", aW[j], z);
      else if (bLast) strbuf_puts(&s, z);
      else strbuf_printf(&s, "%-*s", aW[j], z);
      strbuf_puts(&s, bLast ? "\n" : " |");
    }
  }
  strbuf_printf(&s, "(%d %s)\n\n", nRow, nRow == 1 ? "row" : "rows");
  return strbuf_take(&s);
}

TEST_IMPL(starq_cli_exit_codes) {
  test_proc p;
  starqd_proc d;
  int fd;
  struct sockaddr_in sa;
  socklen_t n = sizeof(sa);
  cli_env();
  /* --help and --version need no server. */
  {
    const char *argv[] = {"starq", "--help", NULL};
    ASSERT_EQ(test_run(&p, argv), 0);
    ASSERT(strstr(p.zOut, "Usage:") != NULL && strstr(p.zOut, "--csv") != NULL);
    test_proc_free(&p);
  }
  {
    const char *argv[] = {"starq", "--version", NULL};
    ASSERT_EQ(test_run(&p, argv), 0);
    ASSERT(strncmp(p.zOut, "starq (starq) ", 14) == 0);
    test_proc_free(&p);
  }
  /* A bad flag, a flag without its value, a bad variable: 1. */
  {
    const char *argv[] = {"starq", "-y", NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    ASSERT_STR_EQ(p.zErr, "starq: invalid option -- 'y'\nstarq: hint: Try \"starq --help\" for more information.\n");
    test_proc_free(&p);
  }
  {
    const char *argv[] = {"starq", "--nope", NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    ASSERT(strstr(p.zErr, "unrecognized option '--nope'") != NULL);
    test_proc_free(&p);
  }
  {
    const char *argv[] = {"starq", "-c", NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    ASSERT(strstr(p.zErr, "option requires an argument -- 'c'") != NULL);
    test_proc_free(&p);
  }
  {
    const char *argv[] = {"starq", "-v", "ON_ERROR_STOP=maybe", "-c", "SELECT 1", NULL};
    ASSERT_EQ(test_run(&p, argv), 1);
    ASSERT_STR_EQ(p.zErr, "starq: error: unrecognized value \"maybe\" for \"ON_ERROR_STOP\": Boolean expected\n");
    test_proc_free(&p);
  }
  /* A port nobody listens on: the connection is refused, 2. */
  fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT(fd >= 0);
  memset(&sa, 0, sizeof(sa));
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
  ASSERT_EQ(getsockname(fd, (struct sockaddr *)&sa, &n), 0);
  close(fd);
  memset(&d, 0, sizeof(d));
  d.iPort = ntohs(sa.sin_port);
  {
    const char *azArg[] = {"-c", "SELECT 1", NULL};
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 2);
    ASSERT(strncmp(p.zErr, "starq: error: connection to server at \"127.0.0.1\"", 49) == 0);
    ASSERT(strstr(p.zErr, "Connection refused") != NULL);
    test_proc_free(&p);
  }
  /* No flags: PGPORT is read (libpq's own), and the host is starq's
  ** default (clients/common/conn.h), not libpq's Unix socket. */
  {
    char zPort[16], zWant[96];
    const char *argv[] = {"starq", "-X", "-c", "SELECT 1", NULL};
    snprintf(zPort, sizeof(zPort), "%d", d.iPort);
    snprintf(zWant, sizeof(zWant), "starq: error: connection to server at \"127.0.0.1\", port %d failed", d.iPort);
    setenv("PGPORT", zPort, 1);
    ASSERT_EQ(test_run(&p, argv), 2);
    unsetenv("PGPORT");
    ASSERT(strncmp(p.zErr, zWant, strlen(zWant)) == 0);
    test_proc_free(&p);
  }
  return 0;
}

TEST_IMPL(starq_cli_output) {
  static const char *const azQuery[] = {
    "SELECT * FROM tricky ORDER BY a",
    "SELECT b, a FROM tricky WHERE a < 0",
    "SELECT d_year, count(*) AS n, sum(d_daynuminyear) AS total_days FROM date GROUP BY d_year "
    "ORDER BY d_year",
    "SELECT a AS x, a AS a_rather_long_column_name FROM tricky WHERE a < 3 ORDER BY a",
  };
  static const char *const aazFlags[][6] = {
    {NULL}, {"-x", NULL}, {"-A", NULL}, {"-t", NULL}, {"-A", "-t", NULL}, {"-x", "-t", NULL},
    {"-x", "-A", NULL}, {"-x", "-A", "-t", NULL}, {"--csv", NULL}, {"--csv", "-t", NULL},
    {"-x", "--csv", NULL}, {"-A", "-F", ";", "-R", "#", NULL}, {"-q", NULL},
  };
  starqd_proc d;
  test_proc p;
  cli_server(&d);

  /* The values: an aligned table built here from the executor's result. */
  {
    const char *zSql = azQuery[2];
    const char *azArg[] = {"-c", zSql, NULL}, *azHead[] = {"d_year", "n", "total_days"};
    unsigned *aType = NULL;
    int nCol = 0, nRow = 0;
    char *zText = starqd_expected("data", zSql, &aType, &nCol), **azCell, *zWant;
    ASSERT_EQ(nCol, 3);
    azCell = cli_cells(zText, nCol, &nRow);
    ASSERT_GT(nRow, 5);
    zWant = cli_aligned(azHead, nCol, azCell, nRow, aType);
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 0);
    if (strcmp(p.zOut, zWant) != 0) FAIL("starq printed:\n%s\nexpected:\n%s", p.zOut, zWant);
    test_proc_free(&p);
    free(zWant);
    free(azCell);
    free(zText);
    free(aType);
    starqd_expected_close();
  }

  /* Every format, against psql. */
  for (size_t q = 0; q < sizeof(azQuery) / sizeof(azQuery[0]); q++) {
    for (size_t f = 0; f < sizeof(aazFlags) / sizeof(aazFlags[0]); f++) {
      const char *azArg[10];
      int n = 0;
      for (int i = 0; aazFlags[f][i] != NULL; i++) azArg[n++] = aazFlags[f][i];
      azArg[n++] = "-c";
      azArg[n++] = azQuery[q];
      azArg[n] = NULL;
      cli_same(&d, NULL, azArg);
    }
  }

  /* \dt and \d, in the formats that change them. */
  {
    static const char *const azMeta[] = {"\\dt", "\\dt lineorder", "\\dt nope", "\\d lineorder",
                                         "\\d supplier", "\\d TRICKY", "\\d \"Tricky\"", "\\d nope",
                                         "\\d", "\\dt public.date"};
    for (size_t m = 0; m < sizeof(azMeta) / sizeof(azMeta[0]); m++) {
      const char *az1[] = {"-c", azMeta[m], NULL}, *az2[] = {"-A", "-c", azMeta[m], NULL};
      const char *az3[] = {"-x", "-c", azMeta[m], NULL}, *az4[] = {"-t", "-c", azMeta[m], NULL};
      cli_same(&d, NULL, az1);
      cli_same(&d, NULL, az2);
      cli_same(&d, NULL, az3);
      cli_same(&d, NULL, az4);
    }
  }
  /* A wildcard, which starqd's own filter does not take: starq matches
  ** it itself and prints what psql prints for the exact name. */
  {
    const char *azWild[] = {"-c", "\\dt line*", NULL};
    test_proc w, want;
    const char *azExact[] = {"-c", "\\dt lineorder", NULL};
    ASSERT_EQ(cli_starq(&w, &d, NULL, azWild), 0);
    ASSERT_EQ(cli_run(&want, "psql", &d, NULL, azExact), 0);
    ASSERT_STR_EQ(w.zOut, want.zOut);
    test_proc_free(&w);
    test_proc_free(&want);
  }
  /* \x as a meta-command in a script, and \x off again. */
  cli_file("x.sql", "\\x\nSELECT * FROM tricky WHERE a < 3 ORDER BY a;\n\\x off\nSELECT 1 AS one;\n"
                    "\\x on\n\\x\n\\x true\n\\x maybe\n\\x auto\nSELECT 2 AS two, 3 AS three;\n");
  {
    const char *azArg[] = {"-f", "x.sql", NULL};
    cli_same(&d, NULL, azArg);
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

TEST_IMPL(starq_cli_scripts) {
  starqd_proc d;
  test_proc p;
  cli_server(&d);

  /* -c: one string of several statements, several -c in order; a failed
  ** -c makes the exit code 1 only if it is the last. */
  {
    const char *az1[] = {"-c", "SELECT count(*) FROM part; SELECT count(*) FROM supplier", NULL};
    const char *az2[] = {"-c", "SELECT 1 AS a", "-c", "SELECT nope", "-c", "SELECT 2 AS b", NULL};
    const char *az3[] = {"-c", "SELECT 1 AS a", "-c", "SELECT nope", NULL};
    const char *az4[] = {"-v", "ON_ERROR_STOP=1", "-c", "SELECT nope", "-c", "SELECT 2", NULL};
    const char *az5[] = {"-c", "SELECT 1; SELECT\n nope FROM tricky", NULL};
    unsigned *aType = NULL;
    int nCol = 0;
    char *zWant = starqd_expected("data", "SELECT count(*) FROM part", &aType, &nCol);
    ASSERT_EQ(cli_same(&d, NULL, az1), 0);
    ASSERT_EQ(cli_starq(&p, &d, NULL, az1), 0);
    zWant[strlen(zWant) - 1] = 0;
    ASSERT(strstr(p.zOut, zWant) != NULL);
    test_proc_free(&p);
    free(zWant);
    free(aType);
    starqd_expected_close();
    ASSERT_EQ(cli_same(&d, NULL, az2), 0);
    ASSERT_EQ(cli_same(&d, NULL, az3), 1);
    ASSERT_EQ(cli_same(&d, NULL, az4), 1);
    ASSERT_EQ(cli_same(&d, NULL, az5), 1);
  }

  /* Errors with LINE and a caret, also cut to a window; the exact text
  ** once, the rest against psql. */
  {
    const char *azArg[] = {"-c", "SELECT lo_nope FROM lineorder", NULL};
    static const char *const azBad[] = {
      "SELECT 1 FORM t WHERE a_rather_long_column_name > 10 AND another_long_column < 20",
      "SELECT 'a very long line that goes on and on and on and on and on and on', nope, "
      "'and even more text that goes on and on and on forever and ever'",
      "SELECT 'ünïcödé 日本語', nope FROM tricky",
      "SELECT\ta,\n\tnope\nFROM tricky",
      "SELECT 'x'::int",
    };
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 1);
    ASSERT_STR_EQ(p.zErr, "ERROR:  column \"lo_nope\" does not exist\nLINE 1: SELECT lo_nope FROM lineorder\n"
                          "               ^\n");
    test_proc_free(&p);
    for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
      const char *az[] = {"-c", azBad[i], NULL};
      cli_same(&d, NULL, az);
    }
  }

  /* A script: an error goes by (exit 0), or stops it under ON_ERROR_STOP
  ** (exit 3), set by -v or by \set; the same from a pipe and from -f -. */
  cli_file("s.sql", "SELECT 1 AS a;\nSELECT nope\n  FROM tricky;\nSELECT 2 AS b;\n");
  cli_file("stop.sql", "\\set ON_ERROR_STOP on\nSELECT 1 AS a;\n\\d nope\nSELECT 2 AS b;\n");
  {
    const char *azF[] = {"-f", "s.sql", NULL}, *azStop[] = {"-v", "ON_ERROR_STOP=1", "-f", "s.sql", NULL};
    const char *azSet[] = {"-f", "stop.sql", NULL}, *azDash[] = {"-f", "-", NULL}, *azNone[] = {NULL};
    const char *azMissing[] = {"-f", "missing.sql", NULL};
    ASSERT_EQ(cli_same(&d, NULL, azF), 0);
    ASSERT_EQ(cli_starq(&p, &d, NULL, azF), 0);
    ASSERT(strstr(p.zErr, "starq:s.sql:3: ERROR:  column \"nope\" does not exist\nLINE 1: SELECT nope\n") != NULL);
    ASSERT(strstr(p.zOut, " b \n---\n 2\n") != NULL);
    test_proc_free(&p);
    ASSERT_EQ(cli_same(&d, NULL, azStop), 3);
    ASSERT_EQ(cli_same(&d, NULL, azSet), 3);
    ASSERT_EQ(cli_same(&d, "s.sql", azDash), 0);
    ASSERT_EQ(cli_same(&d, "s.sql", azNone), 0);
    ASSERT_EQ(cli_same(&d, NULL, azMissing), 1);
  }

  /* The splitter on a real server: quotes, comments, dollar quotes,
  ** parentheses, a last statement without ';'. Meta-commands between. */
  cli_file("split.sql", "-- a comment;\nSELECT 'a;b' AS \"x;y\", /* c; /* nested; */ */ 2 AS two -- end;\n;\n"
                        "SELECT (1\n;\n) AS p;\nSELECT $$a;b$$ AS d;\n/* only a comment */;\n;;\n"
                        "\\echo between 'two words'\nSELECT E'it\\'s;' AS e; \\echo after\nSELECT 5 AS last\n");
  {
    const char *azArg[] = {"-f", "split.sql", NULL};
    cli_same(&d, NULL, azArg);
  }

  /* COPY: inline data in a script, \copy from a file (text and CSV), from
  ** stdin for -c; and the rows that landed. */
  cli_file("rows.txt", "1\tone\n2\t\\N\n3\tth\\tree \"q\"\n");
  cli_file("rows.csv", "a,b\n4,\"four, 4\"\n5,\n");
  cli_file("copy.sql", "CREATE TABLE tc (a INTEGER, b VARCHAR(20));\n\\copy tc from 'rows.txt'\n"
                       "\\copy tc from 'rows.csv' with (format csv, header)\n"
                       "COPY tc FROM STDIN;\n6\tsix\n\\.\nSELECT a, b, b IS NULL AS n FROM tc ORDER BY a;\n"
                       "\\copy tc from 'nowhere.txt'\nDROP TABLE tc;\n");
  {
    const char *azArg[] = {"-f", "copy.sql", NULL};
    const char *azC[] = {"-c", "CREATE TABLE tc (a INTEGER, b VARCHAR(20))", "-c", "COPY tc FROM STDIN",
                         "-c", "SELECT * FROM tc", "-c", "DROP TABLE tc", NULL};
    cli_file("in.txt", "7\tseven\n\\.\n");
    cli_same(&d, NULL, azArg);
    cli_same(&d, "in.txt", azC);
  }

  /* \timing: the statements' output, then "Time: N.NNN ms". */
  cli_file("t.sql", "\\timing\nSELECT 1 AS a;\nSELECT nope;\n\\timing off\nSELECT 2 AS b;\n");
  {
    const char *azArg[] = {"-f", "t.sql", NULL};
    const char *z;
    int nTime = 0;
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 0);
    for (z = p.zOut; (z = strstr(z, "Time: ")) != NULL; z++) {
      char *zEnd;
      double r = strtod(z + 6, &zEnd);
      ASSERT(r > 0 && strncmp(zEnd, " ms\n", 4) == 0);
      ASSERT(zEnd - (z + 6) >= 5 && zEnd[-4] == '.');
      nTime++;
    }
    ASSERT_EQ(nTime, 2);
    ASSERT(strstr(p.zOut, "Timing is on.\n a \n---\n 1\n(1 row)\n\nTime: ") == p.zOut);
    test_proc_free(&p);
  }

  /* -o and \o send results to a file; \i and \ir run another file; -q
  ** drops the tags. */
  ASSERT_EQ(mkdir("sub", 0755), 0);
  cli_file("sub/inner.sql", "SELECT 42 AS inner_value;\n");
  cli_file("o.sql", "\\o out2.txt\nSELECT 1 AS in_file;\n\\o\nSELECT 2 AS on_stdout;\n\\i sub/inner.sql\n");
  cli_file("sub/rel.sql", "\\ir inner.sql\nCREATE TABLE q1 (a INTEGER);\nDROP TABLE q1;\n");
  {
    const char *azO[] = {"-o", "out1.txt", "-c", "SELECT 3 AS c", NULL}, *azF[] = {"-f", "o.sql", NULL};
    const char *azR[] = {"-q", "-f", "sub/rel.sql", NULL};
    char *z;
    ASSERT_EQ(cli_starq(&p, &d, NULL, azO), 0);
    ASSERT_STR_EQ(p.zOut, "");
    test_proc_free(&p);
    z = test_file_read("out1.txt", NULL);
    ASSERT_STR_EQ(z, " c \n---\n 3\n(1 row)\n\n");
    free(z);
    cli_same(&d, NULL, azF);
    z = test_file_read("out2.txt", NULL);
    ASSERT_STR_EQ(z, " in_file \n---------\n       1\n(1 row)\n\n");
    free(z);
    ASSERT_EQ(cli_same(&d, NULL, azR), 0);
  }

  /* The server goes away under a running script: exit 2. */
  {
    int aIn[2], aOut[2], pid, st;
    char zPort[16], aBuf[4096];
    size_t nGot = 0;
    ASSERT_EQ(pipe(aIn), 0);
    ASSERT_EQ(pipe(aOut), 0);
    snprintf(zPort, sizeof(zPort), "%d", d.iPort);
    pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
      int fdNull = open("/dev/null", O_WRONLY);
      dup2(aIn[0], 0);
      dup2(aOut[1], 1);
      dup2(fdNull, 2);
      close(aIn[1]);
      close(aOut[0]);
      execl(test_bin("starq"), "starq", "-h", "127.0.0.1", "-p", zPort, "-At", (char *)NULL);
      _exit(127);
    }
    close(aIn[0]);
    close(aOut[1]);
    ASSERT_EQ(write(aIn[1], "SELECT 7;\n", 10), 10);
    while (nGot < 2 || memcmp(aBuf, "7\n", 2) != 0) {
      ssize_t n = read(aOut[0], aBuf + nGot, sizeof(aBuf) - nGot);
      ASSERT(n > 0);
      nGot += (size_t)n;
    }
    ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
    ASSERT_EQ(write(aIn[1], "SELECT 8;\nSELECT 9;\n", 20), 20);
    close(aIn[1]);
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    ASSERT(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 2);
    close(aOut[0]);
  }
  return 0;
}
