/*
** server/config.c — starqd's settings table, its config file reader and
** its command-line parser. Every setting is one row of config_aSetting:
** its name (the flag without "--", and the file's key), its kind, its
** bounds and where it goes; the file and the flags go through the same
** setter, so both accept exactly the same values.
**
** INTERFACE ROUTINES
**   daemon_config_default, daemon_config_parse, daemon_config_usage,
**   daemon_config_auth_name, daemon_config_in_flight
*/
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/strbuf.h"
#include "config.h"
#include "session.h"

typedef enum config_kind {
  CONFIG_PATH = 1,         /* a string into a PATH_MAX buffer */
  CONFIG_ADDR,             /* a string into a 64-byte buffer */
  CONFIG_INT,              /* an int within [iMin, iMax] */
  CONFIG_BYTES,            /* an int64 byte count with an optional K/M/G/T suffix */
  CONFIG_BACKEND,          /* auto | cuda | cpu */
  CONFIG_LEVEL,            /* debug | info | warn | error */
  CONFIG_AUTH,             /* trust-loopback | scram | trust: a pg_auth_policy */
  CONFIG_WORD,             /* one of azWord: its index, an int */
} config_kind;

/* One setting. */
typedef struct config_setting config_setting;
struct config_setting {
  const char *zName;       /* flag without "--"; the file's key */
  config_kind eKind;
  size_t iOffset;          /* where in daemon_config */
  int64_t iMin, iMax;      /* CONFIG_INT, CONFIG_BYTES */
  const char *const *azWord;  /* CONFIG_WORD: the values, NULL-terminated */
};

/* The values of the CONFIG_WORD settings, in the order of their enums. */
static const char *const config_azLogStatement[] = {"none", "ddl", "mod", "all", NULL};
static const char *const config_azLogFormat[] = {"text", "json", NULL};

#define CONFIG_AT(f) offsetof(daemon_config, f)
static const config_setting config_aSetting[] = {
    {"data-dir", CONFIG_PATH, CONFIG_AT(zDataDir), 0, 0, NULL},
    {"listen", CONFIG_ADDR, CONFIG_AT(zListen), 0, 0, NULL},
    {"port", CONFIG_INT, CONFIG_AT(iPort), 0, 65535, NULL},
    {"http-port", CONFIG_INT, CONFIG_AT(iHttpPort), 0, 65535, NULL},
    {"backend", CONFIG_BACKEND, CONFIG_AT(zBackend), 0, 0, NULL},
    {"pinned-budget", CONFIG_BYTES, CONFIG_AT(nPinnedBudget), 0, INT64_MAX, NULL},
    {"device-budget", CONFIG_BYTES, CONFIG_AT(nDeviceBudget), 0, INT64_MAX, NULL},
    {"stride-bytes", CONFIG_BYTES, CONFIG_AT(nStrideBytes), 4096, INT64_MAX, NULL},
    {"max-connections", CONFIG_INT, CONFIG_AT(nMaxConnections), 1, 100000, NULL},
    {"queries-in-flight", CONFIG_INT, CONFIG_AT(nInFlight), 0, 1024, NULL},
    {"device-worker", CONFIG_INT, CONFIG_AT(bDeviceWorker), 0, 1, NULL},
    {"bandwidth-probe", CONFIG_BYTES, CONFIG_AT(nBandwidthProbe), 0, INT64_MAX, NULL},
    {"generic-kernels", CONFIG_INT, CONFIG_AT(bGenericKernels), 0, 1, NULL},
    {"device-warm", CONFIG_INT, CONFIG_AT(bDeviceWarm), 0, 1, NULL},
    /* Its old name, still accepted (scripts pass it): --jit-tier 0 made a
    ** new shape wait for its optimized kernels, as --generic-kernels 0 does. */
    {"jit-tier", CONFIG_INT, CONFIG_AT(bGenericKernels), 0, 1, NULL},
    {"log-level", CONFIG_LEVEL, CONFIG_AT(eLogLevel), 0, 0, NULL},
    {"import-dir", CONFIG_PATH, CONFIG_AT(zImportDir), 0, 0, NULL},
    {"auth", CONFIG_AUTH, CONFIG_AT(eAuth), 0, 0, NULL},
    {"password-file", CONFIG_PATH, CONFIG_AT(zPasswordFile), 0, 0, NULL},
    {"http-listen", CONFIG_ADDR, CONFIG_AT(zHttpListen), 0, 0, NULL},
    {"authentication-timeout", CONFIG_INT, CONFIG_AT(secAuthTimeout), 1, 600, NULL},
    {"log-connections", CONFIG_INT, CONFIG_AT(bLogConnections), 0, 1, NULL},
    {"log-min-duration-statement", CONFIG_INT, CONFIG_AT(msLogMinDuration), -1, INT_MAX, NULL},
    {"log-statement", CONFIG_WORD, CONFIG_AT(eLogStatement), 0, 0, config_azLogStatement},
    {"log-format", CONFIG_WORD, CONFIG_AT(eLogFormat), 0, 0, config_azLogFormat},
    {"status-sql-literals", CONFIG_INT, CONFIG_AT(bStatusLiterals), 0, 1, NULL},
    {"ssl-cert", CONFIG_PATH, CONFIG_AT(zSslCert), 0, 0, NULL},
    {"ssl-key", CONFIG_PATH, CONFIG_AT(zSslKey), 0, 0, NULL},
    {"http-ssl", CONFIG_INT, CONFIG_AT(bHttpSsl), 0, 1, NULL},
};
#define CONFIG_N ((int)(sizeof(config_aSetting) / sizeof(config_aSetting[0])))

void daemon_config_default(daemon_config *p) {
  memset(p, 0, sizeof(*p));
  snprintf(p->zListen, sizeof(p->zListen), "127.0.0.1");
  snprintf(p->zHttpListen, sizeof(p->zHttpListen), "127.0.0.1");
  p->secAuthTimeout = 60;
  p->msLogMinDuration = -1;
  p->iPort = 5433;
  p->iHttpPort = 8433;
  snprintf(p->zBackend, sizeof(p->zBackend), "auto");
  p->nPinnedBudget = -1;
  p->nDeviceBudget = -1;
  p->nStrideBytes = -1;
  p->nMaxConnections = 256;
  p->nInFlight = 0;                    /* by the CPUs: daemon_config_in_flight */
  p->bDeviceWorker = 1;
  p->nBandwidthProbe = (int64_t)512 << 20;
  p->bGenericKernels = 1;
  p->bDeviceWarm = 1;
  p->eLogLevel = LOG_LEVEL_INFO;
  p->eAuth = PG_AUTH_TRUST_LOOPBACK;
}

int daemon_config_in_flight(const daemon_config *p) {
  long n = DAEMON_IN_FLIGHT_PER_CPU * sysconf(_SC_NPROCESSORS_ONLN);
  if (p->nInFlight > 0) return p->nInFlight;
  if (n < DAEMON_IN_FLIGHT_MIN) n = DAEMON_IN_FLIGHT_MIN;
  if (n > DAEMON_IN_FLIGHT_MAX) n = DAEMON_IN_FLIGHT_MAX;
  return (int)n;
}

const char *daemon_config_usage(void) {
  return "usage: starqd --data-dir DIR [--listen ADDR] [--port N] [--http-port N]\n"
         "              [--backend auto|cuda|cpu] [--pinned-budget BYTES] [--device-budget BYTES]\n"
         "              [--stride-bytes BYTES]\n"
         "              [--max-connections N] [--queries-in-flight N] [--device-worker 1|0]\n"
         "              [--bandwidth-probe BYTES] [--generic-kernels 1|0] [--device-warm 1|0]\n"
         "              [--log-level debug|info|warn|error]\n"
         "              [--import-dir DIR] [--config FILE]\n"
         "              [--auth trust-loopback|scram|trust] [--password-file FILE]\n"
         "              [--http-listen ADDR] [--authentication-timeout SECONDS]\n"
         "              [--log-connections 0|1] [--log-min-duration-statement MS]\n"
         "              [--log-statement none|ddl|mod|all] [--log-format text|json]\n"
         "              [--status-sql-literals 0|1] [--ssl-cert FILE --ssl-key FILE]\n"
         "              [--http-ssl 0|1]\n"
         "       starqd --hash-password [USER]   (a password on stdin; prints USER:verifier)\n"
         "  defaults: --listen 127.0.0.1 --port 5433 --http-port 8433 --backend auto\n"
         "            --max-connections 256 --queries-in-flight 0 (four per CPU, 4 to 64)\n"
         "            --device-worker 1\n"
         "            --bandwidth-probe 512M --generic-kernels 1 --device-warm 1 --log-level info\n"
         "            --auth trust-loopback (loopback clients trusted, others need a password)\n"
         "            --http-listen 127.0.0.1 --authentication-timeout 60 --log-connections 0\n"
         "            --log-min-duration-statement -1 (off; 0 logs every statement)\n"
         "            --log-statement none --log-format text --status-sql-literals 0\n"
         "            --http-ssl 0\n"
         "  sizes take K, M, G or T; the config file holds the same names: port = 5433\n";
}

static const config_setting *config_find(const char *zName) {
  for (int i = 0; i < CONFIG_N; i++) {
    if (strcmp(config_aSetting[i].zName, zName) == 0) return &config_aSetting[i];
  }
  return NULL;
}

/* Parses a byte count: digits and an optional K, M, G or T (optionally
** followed by "B" or "iB"). Returns 0 or -1. */
static int config_bytes_parse(const char *z, int64_t *pn) {
  char *zEnd;
  long long v;
  int nShift = 0;
  errno = 0;
  if (!isdigit((unsigned char)z[0])) return -1;
  v = strtoll(z, &zEnd, 10);
  if (errno != 0) return -1;
  switch (toupper((unsigned char)*zEnd)) {
    case 0: break;
    case 'K': nShift = 10; zEnd++; break;
    case 'M': nShift = 20; zEnd++; break;
    case 'G': nShift = 30; zEnd++; break;
    case 'T': nShift = 40; zEnd++; break;
    default: return -1;
  }
  if (nShift && strcasecmp(zEnd, "") != 0 && strcasecmp(zEnd, "b") != 0 &&
      strcasecmp(zEnd, "ib") != 0) {
    return -1;
  }
  if (v > (INT64_MAX >> nShift)) return -1;
  *pn = (int64_t)v << nShift;
  return 0;
}

/* Sets one setting from its text. Returns 0, or -1 with zErr saying what
** was expected. */
static int config_set(daemon_config *p, const config_setting *s, const char *zValue, char *zErr,
                      size_t nErr) {
  char *pField = (char *)p + s->iOffset;
  switch (s->eKind) {
    case CONFIG_PATH:
    case CONFIG_ADDR: {
      size_t nMax = s->eKind == CONFIG_PATH ? PATH_MAX : sizeof(p->zListen);
      if (zValue[0] == 0 || strlen(zValue) >= nMax) {
        snprintf(zErr, nErr, "%s: expected a non-empty value shorter than %zu bytes", s->zName,
                 nMax);
        return -1;
      }
      memcpy(pField, zValue, strlen(zValue) + 1);
      return 0;
    }
    case CONFIG_INT: {
      char *zEnd;
      long long v;
      errno = 0;
      v = strtoll(zValue, &zEnd, 10);
      if (zValue[0] == 0 || *zEnd != 0 || errno != 0 || v < s->iMin || v > s->iMax) {
        snprintf(zErr, nErr, "%s: expected an integer from %lld to %lld, got \"%s\"", s->zName,
                 (long long)s->iMin, (long long)s->iMax, zValue);
        return -1;
      }
      *(int *)pField = (int)v;
      return 0;
    }
    case CONFIG_BYTES:
      if (config_bytes_parse(zValue, (int64_t *)pField) != 0) {
        snprintf(zErr, nErr, "%s: expected a byte count such as 512M or 8G, got \"%s\"", s->zName,
                 zValue);
        return -1;
      }
      return 0;
    case CONFIG_BACKEND:
      if (strcmp(zValue, "auto") != 0 && strcmp(zValue, "cuda") != 0 && strcmp(zValue, "cpu") != 0) {
        snprintf(zErr, nErr, "backend: expected auto, cuda or cpu, got \"%s\"", zValue);
        return -1;
      }
      snprintf(p->zBackend, sizeof(p->zBackend), "%s", zValue);
      return 0;
    case CONFIG_LEVEL: {
      int e = log_level_parse(zValue);
      if (e < 0) {
        snprintf(zErr, nErr, "log-level: expected debug, info, warn or error, got \"%s\"", zValue);
        return -1;
      }
      p->eLogLevel = e;
      return 0;
    }
    case CONFIG_AUTH:
      if (strcmp(zValue, "trust-loopback") == 0) {
        p->eAuth = PG_AUTH_TRUST_LOOPBACK;
      } else if (strcmp(zValue, "scram") == 0) {
        p->eAuth = PG_AUTH_SCRAM;
      } else if (strcmp(zValue, "trust") == 0) {
        p->eAuth = PG_AUTH_TRUST;
      } else {
        snprintf(zErr, nErr, "auth: expected trust-loopback, scram or trust, got \"%s\"", zValue);
        return -1;
      }
      return 0;
    case CONFIG_WORD: {
      strbuf want;
      for (int i = 0; s->azWord[i] != NULL; i++) {
        if (strcmp(zValue, s->azWord[i]) == 0) {
          *(int *)pField = i;
          return 0;
        }
      }
      strbuf_init(&want);
      for (int i = 0; s->azWord[i] != NULL; i++) {
        strbuf_printf(&want, "%s%s", i == 0 ? "" : s->azWord[i + 1] == NULL ? " or " : ", ",
                      s->azWord[i]);
      }
      snprintf(zErr, nErr, "%s: expected %s, got \"%s\"", s->zName, strbuf_str(&want), zValue);
      strbuf_free(&want);
      return -1;
    }
  }
  return -1;
}

/* Returns the name --auth takes for policy eAuth. */
const char *daemon_config_auth_name(int eAuth) {
  switch (eAuth) {
    case PG_AUTH_TRUST_LOOPBACK: return "trust-loopback";
    case PG_AUTH_SCRAM: return "scram";
    case PG_AUTH_TRUST: return "trust";
  }
  return "?";
}

/* Trims white space at both ends of z in place and returns it; the
** password file's reader (auth.c) shares it. */
char *config__trim(char *z) {
  size_t n;
  while (isspace((unsigned char)*z)) z++;
  n = strlen(z);
  while (n > 0 && isspace((unsigned char)z[n - 1])) z[--n] = 0;
  return z;
}

/* Reads the key = value file zPath into *p. Returns 0, or -1 with zErr
** naming the file and line. */
static int config_file_read(daemon_config *p, const char *zPath, char *zErr, size_t nErr) {
  FILE *f = fopen(zPath, "r");
  char zLine[PATH_MAX + 128];
  int iLine = 0, rc = 0;
  if (f == NULL) {
    snprintf(zErr, nErr, "config: cannot open %s: %s", zPath, strerror(errno));
    return -1;
  }
  while (rc == 0 && fgets(zLine, sizeof(zLine), f) != NULL) {
    char *zHash = strchr(zLine, '#'), *zEq, *zKey, *zValue;
    const config_setting *s;
    char zWhy[512];
    iLine++;
    if (zHash != NULL) *zHash = 0;
    zKey = config__trim(zLine);
    if (*zKey == 0) continue;
    zEq = strchr(zKey, '=');
    if (zEq == NULL) {
      snprintf(zErr, nErr, "%s:%d: expected name = value", zPath, iLine);
      rc = -1;
      break;
    }
    *zEq = 0;
    zKey = config__trim(zKey);
    zValue = config__trim(zEq + 1);
    s = config_find(zKey);
    if (s == NULL) {
      snprintf(zErr, nErr, "%s:%d: unknown setting \"%s\"", zPath, iLine, zKey);
      rc = -1;
    } else if (config_set(p, s, zValue, zWhy, sizeof(zWhy)) != 0) {
      snprintf(zErr, nErr, "%s:%d: %s", zPath, iLine, zWhy);
      rc = -1;
    }
  }
  if (rc == 0 && ferror(f)) {
    snprintf(zErr, nErr, "config: cannot read %s", zPath);
    rc = -1;
  }
  fclose(f);
  return rc;
}

int daemon_config_parse(daemon_config *p, int argc, char **argv, char *zErr, size_t nErr) {
  /* The file first, wherever --config is, so flags override it. */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--config") == 0) {
      if (i + 1 >= argc) {
        snprintf(zErr, nErr, "--config needs a value");
        return -1;
      }
      if (config_file_read(p, argv[i + 1], zErr, nErr) != 0) return -1;
    }
  }
  for (int i = 1; i < argc; i++) {
    const char *zArg = argv[i], *zValue;
    const config_setting *s;
    const char *zEq;
    char zName[64];
    if (strcmp(zArg, "--help") == 0 || strcmp(zArg, "-h") == 0) return 1;
    if (strcmp(zArg, "--config") == 0) {
      i++;
      continue;
    }
    if (strncmp(zArg, "--", 2) != 0) {
      snprintf(zErr, nErr, "unexpected argument \"%s\"", zArg);
      return -1;
    }
    /* --name value, or --name=value. */
    zEq = strchr(zArg, '=');
    snprintf(zName, sizeof(zName), "%.*s", (int)(zEq ? (size_t)(zEq - zArg - 2) : strlen(zArg + 2)),
             zArg + 2);
    s = config_find(zName);
    if (s == NULL) {
      snprintf(zErr, nErr, "unknown flag \"%s\"", zArg);
      return -1;
    }
    if (zEq != NULL) {
      zValue = zEq + 1;
    } else if (i + 1 < argc) {
      zValue = argv[++i];
    } else {
      snprintf(zErr, nErr, "--%s needs a value", zName);
      return -1;
    }
    if (config_set(p, s, zValue, zErr, nErr) != 0) return -1;
  }
  if (p->zDataDir[0] == 0) {
    snprintf(zErr, nErr, "--data-dir is required");
    return -1;
  }
  if (p->eAuth == PG_AUTH_SCRAM && p->zPasswordFile[0] == 0) {
    snprintf(zErr, nErr, "--auth scram needs --password-file: nobody could log in");
    return -1;
  }
  return 0;
}
