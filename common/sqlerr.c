/*
** common/sqlerr.c — recording SQL errors (sqlerr.h).
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sqlerr.h"

void sql_error_clear(sql_error *e) {
  e->zState[0] = 0;
  e->iOffset = -1;
  e->zMsg[0] = 0;
}

void sql_error_set(sql_error *e, const char *zState, int iOffset, const char *zFmt, ...) {
  va_list ap;
  if (e->zState[0] != 0) return;
  snprintf(e->zState, sizeof(e->zState), "%s", zState);
  e->iOffset = iOffset;
  va_start(ap, zFmt);
  vsnprintf(e->zMsg, sizeof(e->zMsg), zFmt, ap);
  va_end(ap);
}

int sql_error_position(const char *zSql, int iOffset) {
  int iPos = 1;
  if (iOffset < 0) return 0;
  for (int i = 0; i < iOffset && zSql[i] != 0; i++) {
    /* Count every byte but UTF-8 continuation bytes. */
    if (((unsigned char)zSql[i] & 0xC0) != 0x80) iPos++;
  }
  return iPos;
}
