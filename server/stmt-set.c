/*
** server/stmt-set.c — SET and SHOW: the session settings starq has
** (statement_timeout, starq.resident, starq.stage_packed,
** starq.shared_scans, starq.generic_kernels, starq.generic_always,
** starq.result_memory_limit) and the ones drivers set on connecting
** (client_encoding, DateStyle, TimeZone, application_name,
** extra_float_digits, search_path ...), accepted and shown back. One
** table row per setting: its name, how its value is read and shown.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/tz.h"
#include "stmt.h"

typedef enum set_kind {
  SET_TIMEOUT = 1,         /* milliseconds, or a number with ms, s, min, h */
  SET_BOOL,                /* on/off, true/false, yes/no, 1/0 */
  SET_STRING,              /* any text */
  SET_INT,                 /* an integer */
  SET_ENCODING,            /* UTF8 only */
  SET_CONSTANT,            /* accepted, shown as zDefault */
  SET_MEMORY,              /* bytes: a number of kB, or with kB, MB, GB, TB */
} set_kind;

typedef struct set_entry set_entry;
struct set_entry {
  const char *zName;       /* lower case */
  set_kind eKind;
  size_t iOffset;          /* in stmt_settings (not for CONSTANT) */
  size_t nSize;            /* SET_STRING: the field's size */
  const char *zDefault;    /* SET_CONSTANT: the value shown */
  const char *zReport;     /* the ParameterStatus name to report, or NULL */
  const char *zDesc;
};

#define SET_AT(f) offsetof(stmt_settings, f), sizeof(((stmt_settings *)0)->f)
static const set_entry set_aEntry[] = {
    {"statement_timeout", SET_TIMEOUT, SET_AT(msStatementTimeout), NULL, NULL,
     "Sets the maximum allowed duration of any statement."},
    {"starq.resident", SET_BOOL, SET_AT(bResident), NULL, NULL,
     "Fact columns may be cached in device memory."},
    {"starq.stage_packed", SET_BOOL, SET_AT(bStagePacked), NULL, NULL,
     "Packed fact tiles read from host memory are staged in shared memory before decoding."},
    {"starq.shared_scans", SET_BOOL, SET_AT(bSharedScans), NULL, NULL,
     "Statements streaming the same fact table at once share one pass over it."},
    {"starq.generic_kernels", SET_BOOL, SET_AT(bGenericKernels), NULL, NULL,
     "A new query shape runs on the precompiled generic kernels while its own compile."},
    /* The old name of starq.generic_kernels, still accepted: off made a new
    ** shape wait for its optimized kernels, as starq.generic_kernels off does. */
    {"starq.jit_tier", SET_BOOL, SET_AT(bGenericKernels), NULL, NULL,
     "Old name of starq.generic_kernels."},
    {"starq.generic_always", SET_BOOL, SET_AT(bGenericAlways), NULL, NULL,
     "Every query runs on the generic kernels (to compare them with compiled ones)."},
    {"starq.result_memory_limit", SET_MEMORY, SET_AT(nResultMemory), NULL, NULL,
     "The most memory one sorted or aggregated result may hold (0: no limit)."},
    {"application_name", SET_STRING, SET_AT(zApplicationName), NULL, "application_name",
     "Sets the application name to be reported in statistics and logs."},
    {"datestyle", SET_STRING, SET_AT(zDateStyle), NULL, "DateStyle",
     "Sets the display format for date and time values."},
    {"timezone", SET_STRING, SET_AT(zTimeZone), NULL, "TimeZone",
     "Sets the time zone for displaying and interpreting time stamps."},
    {"client_encoding", SET_ENCODING, SET_AT(zClientEncoding), NULL, "client_encoding",
     "Sets the client's character set encoding."},
    {"search_path", SET_STRING, SET_AT(zSearchPath), NULL, NULL,
     "Sets the schema search order for names that are not schema-qualified."},
    {"extra_float_digits", SET_INT, SET_AT(iExtraFloatDigits), NULL, NULL,
     "Sets the number of digits displayed for floating-point values."},
    {"server_version", SET_CONSTANT, 0, 0, "15.0 (starq)", NULL, "Shows the server version."},
    {"server_version_num", SET_CONSTANT, 0, 0, "150000", NULL,
     "Shows the server version as an integer."},
    {"is_superuser", SET_CONSTANT, 0, 0, "on", NULL,
     "Shows whether the current user is a superuser."},
    {"lc_collate", SET_CONSTANT, 0, 0, "C", NULL, "Shows the collation order locale."},
    {"lc_ctype", SET_CONSTANT, 0, 0, "C", NULL,
     "Shows the character classification and case conversion locale."},
    {"default_transaction_isolation", SET_CONSTANT, 0, 0, "read committed", NULL,
     "Sets the transaction isolation level of each new transaction."},
    {"default_transaction_read_only", SET_CONSTANT, 0, 0, "off", NULL,
     "Sets the default read-only status of new transactions."},
    {"transaction_read_only", SET_CONSTANT, 0, 0, "off", NULL,
     "Sets the current transaction's read-only status."},
    {"server_encoding", SET_CONSTANT, 0, 0, "UTF8", NULL, "Shows the server encoding."},
    {"standard_conforming_strings", SET_CONSTANT, 0, 0, "on", NULL,
     "Causes '...' strings to treat backslashes literally."},
    {"integer_datetimes", SET_CONSTANT, 0, 0, "on", NULL, "Shows whether datetimes are integer based."},
    {"intervalstyle", SET_CONSTANT, 0, 0, "postgres", NULL, "Sets the display format for interval values."},
    {"transaction_isolation", SET_CONSTANT, 0, 0, "read committed", NULL,
     "Sets the current transaction's isolation level."},
    {"max_identifier_length", SET_CONSTANT, 0, 0, "63", NULL, "Shows the maximum identifier length."},
    {"max_index_keys", SET_CONSTANT, 0, 0, "32", NULL, "Shows the maximum number of index keys."},
    {"lc_messages", SET_CONSTANT, 0, 0, "C", NULL, "Sets the language in which messages are displayed."},
};
#define SET_N ((int)(sizeof(set_aEntry) / sizeof(set_aEntry[0])))

static const set_entry *set_find(const char *zName) {
  for (int i = 0; i < SET_N; i++) {
    if (strcasecmp(set_aEntry[i].zName, zName) == 0) return &set_aEntry[i];
  }
  return NULL;
}

/* Parses a timeout: an integer of milliseconds, or with a unit. */
static int set_timeout_parse(const char *z, int *pms) {
  char *zEnd;
  double v = strtod(z, &zEnd), mul = 1;
  while (isspace((unsigned char)*zEnd)) zEnd++;
  if (zEnd == z) return -1;
  if (*zEnd == 0 || strcasecmp(zEnd, "ms") == 0) mul = 1;
  else if (strcasecmp(zEnd, "s") == 0) mul = 1000;
  else if (strcasecmp(zEnd, "min") == 0) mul = 60000;
  else if (strcasecmp(zEnd, "h") == 0) mul = 3600000;
  else return -1;
  v *= mul;
  if (v < 0 || v > 2147483647.0) return -1;
  *pms = (int)v;
  return 0;
}

static int set_bool_parse(const char *z, int *pb) {
  if (strcasecmp(z, "on") == 0 || strcasecmp(z, "true") == 0 || strcasecmp(z, "yes") == 0 ||
      strcmp(z, "1") == 0) {
    *pb = 1;
  } else if (strcasecmp(z, "off") == 0 || strcasecmp(z, "false") == 0 ||
             strcasecmp(z, "no") == 0 || strcmp(z, "0") == 0) {
    *pb = 0;
  } else {
    return -1;
  }
  return 0;
}

/* Whether z is a number (SET TIME ZONE -7: an offset in hours). */
static int set_is_number(const char *z) {
  char *zEnd;
  (void)strtod(z, &zEnd);
  return zEnd != z && *zEnd == 0;
}

/* Reads a memory size as PostgreSQL's memory settings take it: a whole
** number of kB, or one with a unit kB, MB, GB or TB. Returns 0 with
** *pn bytes, or -1. */
static int set_memory_parse(const char *z, int64_t *pn) {
  static const struct {
    const char *zUnit;
    int iShift;
  } aUnit[] = {{"", 10}, {"kB", 10}, {"MB", 20}, {"GB", 30}, {"TB", 40}};
  char *zEnd;
  long long v = strtoll(z, &zEnd, 10);
  while (*zEnd == ' ') zEnd++;
  if (zEnd == z || v < 0) return -1;
  for (size_t i = 0; i < sizeof(aUnit) / sizeof(aUnit[0]); i++) {
    if (strcmp(zEnd, aUnit[i].zUnit) != 0) continue;
    if (v > (INT64_MAX >> aUnit[i].iShift)) return -1;
    *pn = (int64_t)v << aUnit[i].iShift;
    return 0;
  }
  return -1;
}

/* Shows n bytes as PostgreSQL shows a memory setting: in the largest
** unit that divides it. */
static void set_memory_text(int64_t n, char *z, size_t nz) {
  static const char *azUnit[] = {"kB", "MB", "GB", "TB"};
  int i = 0;
  if (n == 0) {
    snprintf(z, nz, "0");
    return;
  }
  n >>= 10;
  while (i < 3 && n % 1024 == 0) {
    n /= 1024;
    i++;
  }
  snprintf(z, nz, "%lld%s", (long long)n, azUnit[i]);
}

/* Appends the value of e in *p as SHOW prints it. */
static void set_value_text(const set_entry *e, const stmt_settings *p, char *z, size_t n) {
  const char *pField = (const char *)p + e->iOffset;
  switch (e->eKind) {
    case SET_TIMEOUT: {
      int ms = *(const int *)pField;
      if (ms == 0) snprintf(z, n, "0");
      else if (ms % 1000 == 0) snprintf(z, n, "%ds", ms / 1000);
      else snprintf(z, n, "%dms", ms);
      break;
    }
    case SET_BOOL: snprintf(z, n, "%s", *(const int *)pField ? "on" : "off"); break;
    case SET_INT: snprintf(z, n, "%d", *(const int *)pField); break;
    case SET_MEMORY: set_memory_text(*(const int64_t *)pField, z, n); break;
    case SET_CONSTANT: snprintf(z, n, "%s", e->zDefault); break;
    default: snprintf(z, n, "%s", pField); break;
  }
}

/* Adds a ParameterStatus of e's value in j->set to the outcome, if e is
** reported. */
static void set_report(stmt_job *j, const set_entry *e) {
  int i = j->nReport;
  if (e->zReport == NULL || i == STMT_REPORT_MAX) return;
  snprintf(j->azParamName[i], sizeof(j->azParamName[i]), "%s", e->zReport);
  set_value_text(e, &j->set, j->azParamValue[i], sizeof(j->azParamValue[i]));
  j->azParam[2 * i] = j->azParamName[i];
  j->azParam[2 * i + 1] = j->azParamValue[i];
  j->nReport = i + 1;
  j->out.nParamChange = j->nReport;
  j->out.azParamChange = j->azParam;
}

void stmt_reset(stmt_job *j, const char *zName, const char *zTag, int iOffset) {
  if (strcasecmp(zName, "all") == 0) {
    stmt_settings def;
    stmt_settings_default(&def, j->pCtx);
    /* the last query's figures are the session's record, not a setting;
    ** application_name resets to what the client connected with */
    memcpy(def.zLastQuery, j->set.zLastQuery, sizeof(def.zLastQuery));
    memcpy(def.zResetApplicationName, j->set.zResetApplicationName,
           sizeof(def.zResetApplicationName));
    memcpy(def.zApplicationName, def.zResetApplicationName, sizeof(def.zApplicationName));
    j->set = def;
    j->bSettingsChanged = 1;
    for (int i = 0; i < SET_N; i++) set_report(j, &set_aEntry[i]);
    j->out.eKind = PG_OUTCOME_COMMAND;
  } else {
    const set_entry *e = set_find(zName);
    if (e != NULL && e->eKind == SET_CONSTANT) {
      stmt_job_error(j, "55P02", iOffset, "parameter \"%s\" cannot be changed", e->zName);
      return;
    }
    stmt_set(j, zName, NULL, iOffset);
    if (j->out.eKind != PG_OUTCOME_COMMAND) return;
  }
  snprintf(j->zTag, sizeof(j->zTag), "%s", zTag);
  j->out.zTag = j->zTag;
}

void stmt_set(stmt_job *j, const char *zName, const char *zValue, int iOffset) {
  const set_entry *e = set_find(zName);
  stmt_settings def;
  char *pField;
  int v;
  if (e == NULL) {
    stmt_job_error(j, "42704", iOffset, "unrecognized configuration parameter \"%s\"", zName);
    return;
  }
  stmt_settings_default(&def, j->pCtx);
  pField = (char *)&j->set + e->iOffset;
  if (zValue == NULL && e->eKind != SET_CONSTANT) {
    memcpy(pField, (const char *)&def + e->iOffset, e->nSize);   /* SET ... TO DEFAULT */
    if (e->iOffset == offsetof(stmt_settings, zApplicationName)) {
      memcpy(pField, j->set.zResetApplicationName, e->nSize);
    }
  } else {
    switch (e->eKind) {
      case SET_TIMEOUT:
        if (set_timeout_parse(zValue, &v) != 0) goto bad;
        *(int *)pField = v;
        break;
      case SET_BOOL:
        if (set_bool_parse(zValue, &v) != 0) goto bad;
        *(int *)pField = v;
        break;
      case SET_INT: {
        char *zEnd;
        long l = strtol(zValue, &zEnd, 10);
        if (*zValue == 0 || *zEnd != 0 || l < -15 || l > 3) goto bad;
        *(int *)pField = (int)l;
        break;
      }
      case SET_MEMORY:
        if (set_memory_parse(zValue, (int64_t *)pField) != 0) goto bad;
        break;
      case SET_ENCODING:
        if (strcasecmp(zValue, "utf8") != 0 && strcasecmp(zValue, "utf-8") != 0 &&
            strcasecmp(zValue, "unicode") != 0) {
          stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, iOffset,
                           "client encoding \"%s\" is not supported: starq speaks UTF8 only", zValue);
          return;
        }
        snprintf(pField, e->nSize, "UTF8");
        break;
      case SET_STRING:
        if (e->iOffset == offsetof(stmt_settings, zTimeZone) && !set_is_number(zValue)) {
          /* a zone name must name a zone; SHOW spells it as the zone
          ** database does ("europe/paris" is Europe/Paris) */
          const tz_zone *z;
          sql_error err;
          if (tz_zone_find(zValue, &z, &err) != 0) goto bad_tz;
          zValue = tz_zone_canonical(z);
        }
        snprintf(pField, e->nSize, "%s", zValue);
        break;
      case SET_CONSTANT:
        if (zValue != NULL && strcasecmp(zValue, e->zDefault) != 0) {
          stmt_job_error(j, "55P02", iOffset, "parameter \"%s\" cannot be changed", e->zName);
          return;
        }
        break;
    }
  }
  j->bSettingsChanged = 1;
  j->out.eKind = PG_OUTCOME_COMMAND;
  snprintf(j->zTag, sizeof(j->zTag), "SET");
  j->out.zTag = j->zTag;
  set_report(j, e);
  return;
bad:
  stmt_job_error(j, "22023", iOffset, "invalid value for parameter \"%s\": \"%s\"", e->zName,
                   zValue);
  return;
bad_tz:
  stmt_job_error(j, "22023", iOffset, "invalid value for parameter \"%s\": \"%s\"", e->zReport,
                 zValue);
}

void stmt_show(stmt_job *j, const char *zName, int iOffset) {
  coltype tText = {COLTYPE_TEXT, 0, 0, 0};
  coltype aType[3] = {tText, tText, tText};
  stmt_text *t;
  char zValue[128];
  snprintf(j->zTag, sizeof(j->zTag), "SHOW");
  j->out.zTag = j->zTag;
  if (strcasecmp(zName, "all") == 0) {
    static const char *azName[] = {"name", "setting", "description"};
    t = stmt_text_new(3);
    for (int i = 0; t != NULL && i < SET_N; i++) {
      const char *az[3] = {set_aEntry[i].zName, zValue, set_aEntry[i].zDesc};
      set_value_text(&set_aEntry[i], &j->set, zValue, sizeof(zValue));
      if (stmt_text_row(t, az) != 0) {
        stmt_text_ops.xFree(t);
        t = NULL;
      }
    }
    if (t == NULL) stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    else stmt_job_rows(j, 3, azName, aType, &stmt_text_ops, t);
  } else if (!stmt_show_starq(j, zName)) {
    const set_entry *e = set_find(zName);
    /* the column is named as PostgreSQL spells the setting (TimeZone) */
    const char *azName[1] = {e != NULL && e->zReport != NULL ? e->zReport : zName};
    const char *az[1] = {zValue};
    if (e == NULL) {
      stmt_job_error(j, "42704", iOffset, "unrecognized configuration parameter \"%s\"", zName);
      return;
    }
    set_value_text(e, &j->set, zValue, sizeof(zValue));
    t = stmt_text_new(1);
    if (t == NULL || stmt_text_row(t, az) != 0) {
      if (t != NULL) stmt_text_ops.xFree(t);
      stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
      return;
    }
    stmt_job_rows(j, 1, azName, aType, &stmt_text_ops, t);
  }
}

char *stmt_setting_pairs(const stmt_settings *p, size_t *pn) {
  char zValue[128];
  size_t n = 0, nAlloc = 0;
  char *a = NULL;
  *pn = 0;
  for (int i = 0; i < SET_N; i++) {
    size_t nName = strlen(set_aEntry[i].zName) + 1, nValue;
    set_value_text(&set_aEntry[i], p, zValue, sizeof(zValue));
    nValue = strlen(zValue) + 1;
    if (n + nName + nValue > nAlloc) {
      char *aNew = realloc(a, (nAlloc = 2 * nAlloc + nName + nValue + 256));
      if (aNew == NULL) {
        free(a);
        return NULL;
      }
      a = aNew;
    }
    memcpy(a + n, set_aEntry[i].zName, nName);
    memcpy(a + n + nName, zValue, nValue);
    n += nName + nValue;
  }
  *pn = n;
  return a;
}
