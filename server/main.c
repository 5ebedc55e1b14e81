/*
** server/main.c — starqd, the query server: reads its settings
** (config.h), opens the daemon (daemon.h) and runs it until a signal.
**
** `starqd --hash-password [USER]` instead reads a password from stdin
** and prints the password file's line for it (auth.h), so that the file
** can be made without a PostgreSQL server.
**
** Exit status: 0 after a clean shutdown, 1 when the daemon could not
** start or failed, 2 for bad flags or a bad config file.
*/
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "../common/log.h"
#include "auth.h"
#include "config.h"
#include "daemon.h"
#include "scram.h"

/* Returns 1 if any byte of z is outside ASCII. */
static int main_non_ascii(const char *z) {
  for (; *z != 0; z++) {
    if ((unsigned char)*z >= 0x80) return 1;
  }
  return 0;
}

/* starqd --hash-password [USER]: reads the password (twice, without
** echo, from a terminal; its first line from anything else), makes a
** verifier with a fresh 16-byte salt from the OS and 4096 iterations, as
** PostgreSQL does, and prints "USER:verifier". Returns the exit status. */
static int main_hash_password(int argc, char **argv) {
  const char *zUser = "starq", *zWhy;
  char zPass[AUTH_PASSWORD_MAX + 1], zAgain[AUTH_PASSWORD_MAX + 1], zErr[256];
  char zVerifier[SCRAM_VERIFIER_MAX];
  unsigned char aSalt[SCRAM_SALT_LEN];
  int rc = 1;
  if (argc > 1 || (argc == 1 && strncmp(argv[0], "--", 2) == 0)) {
    fprintf(stderr, "starqd: usage: starqd --hash-password [USER] (default user starq)\n");
    return 2;
  }
  if (argc == 1) zUser = argv[0];
  if ((zWhy = auth_user_check(zUser)) != NULL) {
    fprintf(stderr, "starqd: the user name %s\n", zWhy);
    return 2;
  }
  zAgain[0] = 0;
  if (auth_password_read(stdin, "Password: ", zPass, sizeof(zPass), zErr, sizeof(zErr)) != 0 ||
      (isatty(fileno(stdin)) &&
       auth_password_read(stdin, "Again: ", zAgain, sizeof(zAgain), zErr, sizeof(zErr)) != 0)) {
    fprintf(stderr, "starqd: %s\n", zErr);
  } else if (isatty(fileno(stdin)) && strcmp(zPass, zAgain) != 0) {
    fprintf(stderr, "starqd: the passwords do not match\n");
  } else if (zPass[0] == 0) {
    fprintf(stderr, "starqd: an empty password is not accepted\n");
  } else if (getrandom(aSalt, sizeof(aSalt), 0) != (ssize_t)sizeof(aSalt)) {
    fprintf(stderr, "starqd: getrandom: no random salt\n");
  } else if (scram_verifier_make(zPass, aSalt, (int)sizeof(aSalt), SCRAM_ITERATIONS, zVerifier,
                                 sizeof(zVerifier)) != 0) {
    fprintf(stderr, "starqd: libcrypto could not derive the keys\n");
  } else {
    if (main_non_ascii(zPass)) {
      fprintf(stderr, "starqd: warning: the password is not ASCII; clients that normalise it "
                      "(SASLprep, as libpq does) may derive other keys and fail to log in\n");
    }
    printf("%s:%s\n", zUser, zVerifier);
    rc = fflush(stdout) == 0 ? 0 : 1;
  }
  explicit_bzero(zPass, sizeof(zPass));
  explicit_bzero(zAgain, sizeof(zAgain));
  return rc;
}

int main(int argc, char **argv) {
  daemon_config cfg;
  starqd *d = NULL;
  char zErr[1024];
  int rc;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--hash-password") == 0) {
      if (i != 1) {
        fprintf(stderr, "starqd: --hash-password takes no other flags\n%s", daemon_config_usage());
        return 2;
      }
      return main_hash_password(argc - 2, argv + 2);
    }
  }
  daemon_config_default(&cfg);
  rc = daemon_config_parse(&cfg, argc, argv, zErr, sizeof(zErr));
  if (rc == 1) {
    fputs(daemon_config_usage(), stdout);
    return 0;
  }
  if (rc != 0) {
    fprintf(stderr, "starqd: %s\n%s", zErr, daemon_config_usage());
    return 2;
  }
  log_set_level(cfg.eLogLevel);
  log_set_format(cfg.eLogFormat);
  signal(SIGPIPE, SIG_IGN);   /* a client gone mid-write is an error return */
  if (daemon_open(&d, &cfg, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_ERROR, "starqd: %s", zErr);
    daemon_close(d);
    return 1;
  }
  rc = daemon_run(d);
  daemon_close(d);
  log_printf(LOG_LEVEL_INFO, "starqd: stopped");
  return rc == 0 ? 0 : 1;
}
