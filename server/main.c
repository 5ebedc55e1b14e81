/*
** server/main.c — starqd, the query server: reads its settings
** (config.h), opens the daemon (daemon.h) and runs it until a signal.
**
** Exit status: 0 after a clean shutdown, 1 when the daemon could not
** start or failed, 2 for bad flags or a bad config file.
*/
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../common/log.h"
#include "config.h"
#include "daemon.h"

int main(int argc, char **argv) {
  daemon_config cfg;
  starqd *d = NULL;
  char zErr[1024];
  int rc;
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
