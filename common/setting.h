/*
** common/setting.h — PostgreSQL's run-time settings as a session sees
** them (SET, SHOW, current_setting, pg_settings): one table row per
** setting with its name as PostgreSQL spells it, kind, unit, bounds,
** default and description, and the two conversions every reader shares:
** a value as SET gives it to the form a session keeps (setting_parse),
** and that form to the text SHOW and current_setting() print
** (setting_show).
**
** The form kept ("raw") is what pg_settings.setting shows: integers in
** the setting's unit ("5000" for statement_timeout = '5s'), booleans
** "on"/"off", enums and strings in their canonical spelling.
**
** starq's own settings (starq.*) are rows here too, so SHOW ALL and
** pg_settings list them.
**
** INTERFACE ROUTINES
**   setting_find      a setting by name (case-insensitive)
**   setting_count, setting_at, setting_index
**   setting_parse     SET's value to the raw form, or PostgreSQL's error
**   setting_show      the raw form as SHOW prints it
**   setting_version   version()'s text
*/
#ifndef STARQ_SETTING_H
#define STARQ_SETTING_H

#include <stddef.h>

#include "sqlerr.h"

/* The PostgreSQL version starq speaks for, everywhere one is shown:
** ParameterStatus and SHOW server_version, server_version_num, version(). */
#define SETTING_SERVER_VERSION "15.0 (starq)"
#define SETTING_SERVER_VERSION_NUM "150000"

/* The longest raw value a session keeps for one setting. */
#define SETTING_VALUE_MAX 256

typedef enum setting_kind {
  SETTING_BOOL = 1,
  SETTING_INT,
  SETTING_REAL,
  SETTING_STRING,
  SETTING_ENUM,
} setting_kind;

/* mFlag bits */
#define SETTING_REPORT 0x01    /* sent in ParameterStatus at login and when it changes */
#define SETTING_FIXED  0x02    /* preset: SET to any other value is 55P02 */
#define SETTING_TXN    0x04    /* the current transaction's: SET outside a
                               ** block warns 25P01 (transaction_isolation ...) */
#define SETTING_LIST   0x08    /* a list of identifiers (search_path): each
                               ** element is quoted as quote_ident would */

typedef struct setting_def setting_def;
struct setting_def {
  const char *zName;       /* as PostgreSQL spells it: "DateStyle", "TimeZone" */
  setting_kind eKind;
  const char *zDefault;    /* the raw default (boot_val) */
  const char *zUnit;       /* INT: "ms", "s", "kB", "8kB"; else NULL */
  double rMin, rMax;       /* INT and REAL: the bounds */
  const char *const *azEnum;  /* ENUM: the values, NULL-terminated */
  unsigned mFlag;          /* SETTING_* */
  const char *zContext;    /* pg_settings.context: "user", "internal", ... */
  const char *zCategory;
  const char *zDesc;
};

/* The setting named zName (any case), or NULL. "timezone" finds TimeZone. */
const setting_def *setting_find(const char *zName);

int setting_count(void);
const setting_def *setting_at(int i);
/* The position of d in the table, for arrays of values kept in its order. */
int setting_index(const setting_def *d);

/* Checks value z (NULL: the default) for setting d and writes its raw
** form into zOut[nOut]. Booleans take on/off, true/false, yes/no, 1/0 and
** their unique prefixes; integers an optional unit (5s, 100ms, 4MB);
** enums any case; TimeZone a zone name, an offset in hours or an ISO
** offset (checked against the zone database); DateStyle PostgreSQL's
** words (only ISO output); client_encoding UTF8. Returns 0, or -1 with
** *pErr set to PostgreSQL's error (22023, 55P02, 0A000). */
int setting_parse(const setting_def *d, const char *z, char *zOut, size_t nOut, sql_error *pErr);

/* Writes raw value zRaw of d as SHOW prints it (integers with the largest
** unit that divides them: "5s", "4MB") into zOut[nOut]; returns zOut. */
const char *setting_show(const setting_def *d, const char *zRaw, char *zOut, size_t nOut);

/* Writes version()'s text into zOut[nOut]; returns zOut. */
const char *setting_version(char *zOut, size_t nOut);

#endif /* STARQ_SETTING_H */
