/*
** common/numfmt.c — to_char of numeric and float8 as PostgreSQL 15
** writes it (numfmt.h).
**
** Three steps, as PostgreSQL's. The format is cut into patterns and text
** and summed up as it is read: digits before and after the point (9 and
** 0), where zero padding starts, which sign is wanted where (S before or
** after the digits, MI, PL, SG, PR's brackets), FM, V's shift, EEEE, RN.
** Then the value becomes a digit string rounded to the digits after the
** point (numeric: round half away from zero; float8: printf's %.*f, at
** most 15 significant digits), or '#'s when it has more digits before
** the point than the format. Then the format is walked again and each 9,
** 0, point or comma takes its character from the digit string, blanks
** before the first digit unless FM or a 0 pattern asks otherwise, the
** sign written with the first digit (or where MI, PL, SG put it).
**
** INTERFACE ROUTINES
**   numfmt_numeric, numfmt_double
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "strbuf.h"

enum {
  NF_COMMA, NF_DEC, NF_0, NF_9, NF_B, NF_C, NF_D, NF_E, NF_FM, NF_G, NF_L, NF_MI, NF_PL,
  NF_PR, NF_RN, NF_SG, NF_SP, NF_S, NF_TH, NF_V, NF_rn, NF_th,
};

/* PostgreSQL's NUM_keywords, in its order (the first that matches wins). */
static const struct nf_keyword {
  const char *z;
  int nLen, eId;
} nf_aKeyword[] = {
    {",", 1, NF_COMMA}, {".", 1, NF_DEC}, {"0", 1, NF_0}, {"9", 1, NF_9}, {"B", 1, NF_B},
    {"C", 1, NF_C}, {"D", 1, NF_D}, {"EEEE", 4, NF_E}, {"FM", 2, NF_FM}, {"G", 1, NF_G},
    {"L", 1, NF_L}, {"MI", 2, NF_MI}, {"PL", 2, NF_PL}, {"PR", 2, NF_PR}, {"RN", 2, NF_RN},
    {"SG", 2, NF_SG}, {"SP", 2, NF_SP}, {"S", 1, NF_S}, {"TH", 2, NF_TH}, {"V", 1, NF_V},
    {"b", 1, NF_B}, {"c", 1, NF_C}, {"d", 1, NF_D}, {"eeee", 4, NF_E}, {"fm", 2, NF_FM},
    {"g", 1, NF_G}, {"l", 1, NF_L}, {"mi", 2, NF_MI}, {"pl", 2, NF_PL}, {"pr", 2, NF_PR},
    {"rn", 2, NF_rn}, {"sg", 2, NF_SG}, {"sp", 2, NF_SP}, {"s", 1, NF_S}, {"th", 2, NF_th},
    {"v", 1, NF_V},
};

#define NF_F_DECIMAL 0x0001
#define NF_F_LDECIMAL 0x0002
#define NF_F_ZERO 0x0004
#define NF_F_BLANK 0x0008
#define NF_F_FILLMODE 0x0010
#define NF_F_LSIGN 0x0020
#define NF_F_BRACKET 0x0040
#define NF_F_MINUS 0x0080
#define NF_F_PLUS 0x0100
#define NF_F_ROMAN 0x0200
#define NF_F_MULTI 0x0400
#define NF_F_PLUS_POST 0x0800
#define NF_F_MINUS_POST 0x1000
#define NF_F_EEEE 0x2000

enum { NF_LSIGN_PRE = -1, NF_LSIGN_NONE = 0, NF_LSIGN_POST = 1 };

/* The format summed up (PostgreSQL's NUMDesc). */
typedef struct nf_desc nf_desc;
struct nf_desc {
  int pre, post, lsign, preLsignNum, multi, zeroStart, zeroEnd;
  unsigned flag;
};

typedef struct nf_node nf_node;
struct nf_node {
  int bAction;
  int eId;                 /* bAction */
  char zChar[8];           /* otherwise: one character */
};

static int nf_syntax(sql_error *pErr, const char *zMsg) {
  sql_error_set(pErr, SQLSTATE_SYNTAX_ERROR, -1, "%s", zMsg);
  return -1;
}

/* Adds pattern id to the summary (PostgreSQL's NUMDesc_prepare). */
static int nf_prepare(nf_desc *d, int id, sql_error *pErr) {
  if ((d->flag & NF_F_EEEE) && id != NF_E) return nf_syntax(pErr, "\"EEEE\" must be the last pattern used");
  switch (id) {
    case NF_9:
      if (d->flag & NF_F_BRACKET) return nf_syntax(pErr, "\"9\" must be ahead of \"PR\"");
      if (d->flag & NF_F_MULTI) d->multi++;
      else if (d->flag & NF_F_DECIMAL) d->post++;
      else d->pre++;
      break;
    case NF_0:
      if (d->flag & NF_F_BRACKET) return nf_syntax(pErr, "\"0\" must be ahead of \"PR\"");
      if (!(d->flag & NF_F_ZERO) && !(d->flag & NF_F_DECIMAL)) {
        d->flag |= NF_F_ZERO;
        d->zeroStart = d->pre + 1;
      }
      if (!(d->flag & NF_F_DECIMAL)) d->pre++;
      else d->post++;
      d->zeroEnd = d->pre + d->post;
      break;
    case NF_B:
      if (d->pre == 0 && d->post == 0 && !(d->flag & NF_F_ZERO)) d->flag |= NF_F_BLANK;
      break;
    case NF_D:
      d->flag |= NF_F_LDECIMAL;
      /* fall through - a point */
    case NF_DEC:
      if (d->flag & NF_F_DECIMAL) return nf_syntax(pErr, "multiple decimal points");
      if (d->flag & NF_F_MULTI) return nf_syntax(pErr, "cannot use \"V\" and decimal point together");
      d->flag |= NF_F_DECIMAL;
      break;
    case NF_FM:
      d->flag |= NF_F_FILLMODE;
      break;
    case NF_S:
      if (d->flag & NF_F_LSIGN) return nf_syntax(pErr, "cannot use \"S\" twice");
      if (d->flag & (NF_F_PLUS | NF_F_MINUS | NF_F_BRACKET)) {
        return nf_syntax(pErr, "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
      }
      if (!(d->flag & NF_F_DECIMAL)) {
        d->lsign = NF_LSIGN_PRE;
        d->preLsignNum = d->pre;
        d->flag |= NF_F_LSIGN;
      } else if (d->lsign == NF_LSIGN_NONE) {
        d->lsign = NF_LSIGN_POST;
        d->flag |= NF_F_LSIGN;
      }
      break;
    case NF_MI:
      if (d->flag & NF_F_LSIGN) return nf_syntax(pErr, "cannot use \"S\" and \"MI\" together");
      d->flag |= NF_F_MINUS;
      if (d->flag & NF_F_DECIMAL) d->flag |= NF_F_MINUS_POST;
      break;
    case NF_PL:
      if (d->flag & NF_F_LSIGN) return nf_syntax(pErr, "cannot use \"S\" and \"PL\" together");
      d->flag |= NF_F_PLUS;
      if (d->flag & NF_F_DECIMAL) d->flag |= NF_F_PLUS_POST;
      break;
    case NF_SG:
      if (d->flag & NF_F_LSIGN) return nf_syntax(pErr, "cannot use \"S\" and \"SG\" together");
      d->flag |= NF_F_MINUS | NF_F_PLUS;
      break;
    case NF_PR:
      if (d->flag & (NF_F_LSIGN | NF_F_PLUS | NF_F_MINUS)) {
        return nf_syntax(pErr, "cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
      }
      d->flag |= NF_F_BRACKET;
      break;
    case NF_RN:
    case NF_rn:
      d->flag |= NF_F_ROMAN;
      break;
    case NF_V:
      if (d->flag & NF_F_DECIMAL) return nf_syntax(pErr, "cannot use \"V\" and decimal point together");
      d->flag |= NF_F_MULTI;
      break;
    case NF_E:
      if (d->flag & NF_F_EEEE) return nf_syntax(pErr, "cannot use \"EEEE\" twice");
      if (d->flag & (NF_F_BLANK | NF_F_FILLMODE | NF_F_LSIGN | NF_F_BRACKET | NF_F_MINUS |
                     NF_F_PLUS | NF_F_ROMAN | NF_F_MULTI)) {
        return nf_syntax(pErr, "\"EEEE\" is incompatible with other formats");
      }
      d->flag |= NF_F_EEEE;
      break;
  }
  return 0;
}

/* Cuts zFmt into nodes (malloc'd, *pn of them) and sums it up in d. */
static nf_node *nf_parse(const char *zFmt, nf_desc *d, int *pn, sql_error *pErr) {
  nf_node *a = calloc(strlen(zFmt) + 1, sizeof(nf_node));
  int n = 0;
  const char *z = zFmt;
  memset(d, 0, sizeof(*d));
  if (a == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return NULL;
  }
  while (*z) {
    const struct nf_keyword *k = NULL;
    for (size_t i = 0; i < sizeof(nf_aKeyword) / sizeof(nf_aKeyword[0]); i++) {
      if (strncmp(z, nf_aKeyword[i].z, (size_t)nf_aKeyword[i].nLen) == 0) {
        k = &nf_aKeyword[i];
        break;
      }
    }
    if (k != NULL) {
      a[n].bAction = 1;
      a[n++].eId = k->eId;
      z += k->nLen;
      if (nf_prepare(d, k->eId, pErr) != 0) {
        free(a);
        return NULL;
      }
    } else if (*z == '"') {
      for (z++; *z && *z != '"'; z++) {
        if (*z == '\\' && z[1]) z++;
        a[n++].zChar[0] = *z;
      }
      if (*z == '"') z++;
    } else {
      if (*z == '\\' && z[1] == '"') z++;
      a[n++].zChar[0] = *z++;
    }
  }
  *pn = n;
  return a;
}

/* ---- the walk (PostgreSQL's NUM_processor, to_char half) ------------------------- */

typedef struct nf_proc nf_proc;
struct nf_proc {
  nf_desc *d;
  strbuf *pOut;
  const char *zNumber;     /* the digits, '.', or '#'s */
  const char *pNum;        /* the next of them */
  const char *pLast;       /* FM's last digit that matters after the point */
  int sign;                /* '+' or '-' */
  int bSignWrote, bNumIn, nCurr, nCount, nOutPreSpaces;
};

#define NF_FILL(p) (((p)->d->flag & NF_F_FILLMODE) != 0)
#define NF_ZERO(p) (((p)->d->flag & NF_F_ZERO) != 0)
#define NF_PREDEC_SPACE(p) \
  (!NF_ZERO(p) && (p)->pNum == (p)->zNumber && (p)->zNumber[0] == '0' && (p)->d->post != 0)

static void nf_putc(nf_proc *p, char c) {
  strbuf_append(p->pOut, &c, 1);
}

/* One 9, 0, point or D (PostgreSQL's NUM_numpart_to_char). */
static void nf_numpart(nf_proc *p, int id) {
  nf_desc *d = p->d;
  int end;
  if (d->flag & NF_F_ROMAN) return;
  if (!p->bSignWrote &&
      (p->nCurr >= p->nOutPreSpaces || (NF_ZERO(p) && d->zeroStart == p->nCurr)) &&
      (!NF_PREDEC_SPACE(p) || (p->pLast && *p->pLast == '.'))) {
    if (d->flag & NF_F_LSIGN) {
      if (d->lsign == NF_LSIGN_PRE) {
        nf_putc(p, p->sign == '-' ? '-' : '+');
        p->bSignWrote = 1;
      }
    } else if (d->flag & NF_F_BRACKET) {
      nf_putc(p, p->sign == '+' ? ' ' : '<');
      p->bSignWrote = 1;
    } else if (p->sign == '+') {
      if (!NF_FILL(p)) nf_putc(p, ' ');
      p->bSignWrote = 1;
    } else if (p->sign == '-') {
      nf_putc(p, '-');
      p->bSignWrote = 1;
    }
  }
  if (p->nCurr < p->nOutPreSpaces && (d->zeroStart > p->nCurr || !NF_ZERO(p))) {
    if (!NF_FILL(p)) nf_putc(p, ' ');
  } else if (NF_ZERO(p) && p->nCurr < p->nOutPreSpaces && d->zeroStart <= p->nCurr) {
    nf_putc(p, '0');
    p->bNumIn = 1;
  } else {
    if (*p->pNum == '.') {
      if (!p->pLast || *p->pLast != '.') nf_putc(p, '.');
      else if (NF_FILL(p) && p->pLast && *p->pLast == '.') nf_putc(p, '.');
    } else {
      if (p->pLast && p->pNum > p->pLast && id != NF_0) {
        /* FM: a trailing zero that does not matter */
      } else if (NF_PREDEC_SPACE(p)) {
        if (!NF_FILL(p)) nf_putc(p, ' ');
        else if (p->pLast && *p->pLast == '.') nf_putc(p, '0');
      } else {
        nf_putc(p, *p->pNum);
        p->bNumIn = 1;
      }
    }
    if (*p->pNum) p->pNum++;
  }
  end = p->nCount + (p->nOutPreSpaces ? 1 : 0) + ((d->flag & NF_F_DECIMAL) ? 1 : 0);
  if (p->pLast && p->pLast == p->pNum) end = p->nCurr;
  if (p->nCurr + 1 == end) {
    if (p->bSignWrote && (d->flag & NF_F_BRACKET)) {
      nf_putc(p, p->sign == '+' ? ' ' : '>');
    } else if ((d->flag & NF_F_LSIGN) && d->lsign == NF_LSIGN_POST) {
      nf_putc(p, p->sign == '-' ? '-' : '+');
    }
  }
  p->nCurr++;
}

/* The ordinal suffix of the digits in z (PostgreSQL's get_th). */
static const char *nf_th(const char *z, int bUpper) {
  size_t n = strlen(z);
  char last = n ? z[n - 1] : '0';
  if (n > 1 && z[n - 2] == '1') last = '0';
  if (last == '1') return bUpper ? "ST" : "st";
  if (last == '2') return bUpper ? "ND" : "nd";
  if (last == '3') return bUpper ? "RD" : "rd";
  return bUpper ? "TH" : "th";
}

/* Walks the nodes writing zNumber as the format says. Returns 0, or -1
** with pErr for TH after something that is no number. */
static int nf_walk(const nf_node *a, int n, nf_desc *d, const char *zNumber, int nOutPreSpaces,
                   int sign, strbuf *pOut, sql_error *pErr) {
  nf_proc p;
  memset(&p, 0, sizeof(p));
  p.d = d;
  p.pOut = pOut;
  p.zNumber = p.pNum = zNumber;
  if (d->zeroStart) d->zeroStart--;
  if (d->flag & NF_F_EEEE) {
    strbuf_puts(pOut, zNumber);
    return 0;
  }
  if (d->flag & NF_F_ROMAN) {
    d->lsign = d->preLsignNum = d->post = d->pre = 0;
    nOutPreSpaces = sign = 0;
    d->flag = (d->flag & NF_F_FILLMODE) | NF_F_ROMAN;
  }
  p.sign = sign;
  if (d->flag & (NF_F_PLUS | NF_F_MINUS)) {
    p.bSignWrote = !((d->flag & NF_F_PLUS) && !(d->flag & NF_F_MINUS));
  } else {
    if (sign != '-' && NF_FILL(&p)) d->flag &= ~NF_F_BRACKET;
    p.bSignWrote = sign == '+' && NF_FILL(&p) && !(d->flag & NF_F_LSIGN);
    if (d->lsign == NF_LSIGN_PRE && d->pre == d->preLsignNum) d->lsign = NF_LSIGN_POST;
  }
  p.nCount = d->post + d->pre - 1;
  p.nOutPreSpaces = nOutPreSpaces;
  if (NF_FILL(&p) && (d->flag & NF_F_DECIMAL)) {
    const char *zDot = strchr(zNumber, '.');
    p.pLast = zDot;
    if (zDot) {
      for (const char *q = zDot + 1; *q; q++) {
        if (*q != '0') p.pLast = q;
      }
    }
    /* 0 patterns keep their digits */
    if (p.pLast && d->zeroEnd > nOutPreSpaces) {
      int iLastZero = (int)strlen(zNumber) - 1;
      if (iLastZero > d->zeroEnd - nOutPreSpaces) iLastZero = d->zeroEnd - nOutPreSpaces;
      if (p.pLast < zNumber + iLastZero) p.pLast = zNumber + iLastZero;
    }
  }
  if (!p.bSignWrote && nOutPreSpaces == 0) p.nCount++;
  for (int i = 0; i < n; i++) {
    const nf_node *nd = &a[i];
    if (!nd->bAction) {
      strbuf_puts(pOut, nd->zChar);
      continue;
    }
    switch (nd->eId) {
      case NF_9: case NF_0: case NF_DEC: case NF_D:
        nf_numpart(&p, nd->eId);
        break;
      case NF_COMMA: case NF_G:
        if (!p.bNumIn) {
          if (!NF_FILL(&p)) nf_putc(&p, ' ');
        } else {
          nf_putc(&p, ',');
        }
        break;
      case NF_L:
        nf_putc(&p, ' ');
        break;
      case NF_RN: case NF_rn: {
        char zRoman[32];
        size_t k;
        snprintf(zRoman, sizeof(zRoman), NF_FILL(&p) ? "%s" : "%15s", p.pNum);
        for (k = 0; zRoman[k]; k++) {
          if (nd->eId == NF_rn && zRoman[k] >= 'A' && zRoman[k] <= 'Z') zRoman[k] = (char)(zRoman[k] + 32);
        }
        strbuf_puts(pOut, zRoman);
        break;
      }
      case NF_th: case NF_TH: {
        size_t nNum = strlen(zNumber);
        if ((d->flag & (NF_F_ROMAN | NF_F_DECIMAL)) || zNumber[0] == '#' || sign == '-') break;
        if (nNum == 0 || zNumber[nNum - 1] < '0' || zNumber[nNum - 1] > '9') {
          sql_error_set(pErr, SQLSTATE_INVALID_TEXT_REP, -1, "\"%s\" is not a number", zNumber);
          return -1;
        }
        strbuf_puts(pOut, nf_th(zNumber, nd->eId == NF_TH));
        break;
      }
      case NF_MI:
        if (sign == '-') nf_putc(&p, '-');
        else if (!NF_FILL(&p)) nf_putc(&p, ' ');
        break;
      case NF_PL:
        if (sign == '+') nf_putc(&p, '+');
        else if (!NF_FILL(&p)) nf_putc(&p, ' ');
        break;
      case NF_SG:
        nf_putc(&p, (char)sign);
        break;
      default:
        break;
    }
  }
  return 0;
}

/* ---- the values ---------------------------------------------------------------------- */

/* '#'s for a value wider than the format: pre + post of them, a point
** after pre. */
static char *nf_hashes(int pre, int post) {
  char *z = malloc((size_t)pre + (size_t)post + 2);
  if (z == NULL) return NULL;
  memset(z, '#', (size_t)pre + (size_t)post + 1);
  z[pre] = '.';
  z[pre + post + 1] = 0;
  return z;
}

/* Roman numerals of 1..3999, else 15 '#' (PostgreSQL's int_to_roman). */
static void nf_roman(int v, char *z) {
  static const char *const rm1[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
  static const char *const rm10[] = {"X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"};
  static const char *const rm100[] = {"C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"};
  char zNum[16];
  int nLen;
  z[0] = 0;
  if (v > 3999 || v < 1) {
    memset(z, '#', 15);
    z[15] = 0;
    return;
  }
  nLen = snprintf(zNum, sizeof(zNum), "%d", v);
  for (const char *q = zNum; *q; q++, nLen--) {
    int k = *q - '1';
    if (k < 0) continue;
    if (nLen > 3) {
      while (k-- != -1) strcat(z, "M");
    } else {
      strcat(z, nLen == 3 ? rm100[k] : nLen == 2 ? rm10[k] : rm1[k]);
    }
  }
}

/* Finishes one to_char: the digit string zNumber (owned here if bOwn)
** walked by the format. */
static int nf_finish(const nf_node *a, int n, nf_desc *d, char *zNumber, int nOutPreSpaces,
                     int sign, char **pz, sql_error *pErr) {
  strbuf s;
  strbuf_init(&s);
  strbuf_puts(&s, "");
  if (nf_walk(a, n, d, zNumber, nOutPreSpaces, sign, &s, pErr) != 0) {
    strbuf_free(&s);
    return -1;
  }
  if (strbuf_error(&s)) {
    strbuf_free(&s);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  *pz = strbuf_take(&s);
  return 0;
}

/* Splits a number's text into sign and digits, and decides the leading
** blanks or the '#'s. *pzFree gets what to free. */
static const char *nf_digits(char *zText, nf_desc *d, int *pSign, int *pnPre, char **pzFree) {
  char *zDigits = zText, *zDot;
  int nPreLen;
  *pSign = '+';
  *pnPre = 0;
  if (*zDigits == '-') {
    *pSign = '-';
    zDigits++;
  }
  zDot = strchr(zDigits, '.');
  nPreLen = zDot ? (int)(zDot - zDigits) : (int)strlen(zDigits);
  if (nPreLen < d->pre) {
    *pnPre = d->pre - nPreLen;
  } else if (nPreLen > d->pre) {
    *pzFree = nf_hashes(d->pre, d->post);
    return *pzFree;
  }
  return zDigits;
}

/* A value's share of to_char: its digit string (zText, malloc'd), where
** the digits start (zNumber; or '#'s, in zFree), its sign and leading
** blanks; the format's summary updated (V's digits, float8's post).
** Returns 0 or -1 with pErr. */
typedef struct nf_number nf_number;
struct nf_number {
  char *zText, *zFree;
  const char *zNumber;
  int sign, nPre;
};
typedef int (*nf_number_fn)(const void *pValue, nf_desc *pd, nf_number *p, sql_error *pErr);

/* The digits of a numeric (PostgreSQL's numeric_to_char). */
static int nf_number_numeric(const void *pValue, nf_desc *pd, nf_number *pN, sql_error *pErr) {
  const numeric *a = pValue;
  nf_desc d = *pd;
  int rc;
  char *zText = NULL, *zFree = NULL;
  const char *zNumber;
  int sign = '+', nPre = 0;
  if (d.flag & NF_F_ROMAN) {
    numeric r;
    int64_t v = 0;
    zText = malloc(32);
    rc = numeric_round(a, 0, &r);
    if (rc == NUMERIC_OK) rc = numeric_to_int64(&r, INT32_MIN, INT32_MAX, &v);
    if (rc != NUMERIC_OK) {
      free(zText);
      numeric_error(rc, "integer", pErr);
      return -1;
    }
    nf_roman((int)v, zText);
    zNumber = zText;
  } else if (d.flag & NF_F_EEEE) {
    size_t n = NUMERIC_TEXT_MAX + 16 + (size_t)d.post;
    zText = malloc(n + (size_t)d.pre + 8);
    if (a->eKind != NUMERIC_FINITE) {
      memset(zText, '#', (size_t)(d.pre + d.post + 6));
      zText[d.pre + d.post + 6] = 0;
      zText[0] = ' ';
      zText[d.pre + 1] = '.';
    } else {
      /* significand rounded to post digits, e and a signed exponent */
      numeric m = numeric_abs(a), q, t;
      uint64_t mag[4];
      int nDigit, e = 0;
      char zSig[NUMERIC_TEXT_MAX + 64];
      numeric__mag(&m, mag);
      nDigit = numeric__udigits(mag);
      if (nDigit > 0) e = nDigit - 1 - m.scale;
      /* |a| / 10^e: the same coefficient at scale (scale + e) */
      t = m;
      t.scale = m.scale + e;            /* >= 0: e >= -scale */
      numeric_round(&t, d.post, &q);
      numeric_format(&q, zSig, sizeof(zSig));
      snprintf(zText, n + (size_t)d.pre + 8, "%c%se%+03d", numeric_sign(a) < 0 ? '-' : ' ', zSig, e);
    }
    zNumber = zText;
  } else {
    numeric v = *a, r;
    char zBuf[NUMERIC_TEXT_MAX + 64];
    if (d.flag & NF_F_MULTI) {
      for (int k = 0; k < d.multi; k++) {
        numeric ten = numeric_from_int64(10);
        if ((rc = numeric_mul(&v, &ten, &v)) != NUMERIC_OK) {
          numeric_error(rc, "", pErr);
          return -1;
        }
      }
      d.pre += d.multi;
    }
    if ((rc = numeric_round(&v, d.post, &r)) != NUMERIC_OK) {
      numeric_error(rc, "", pErr);
      return -1;
    }
    numeric_format(&r, zBuf, sizeof(zBuf));
    zText = strdup(zBuf);
    zNumber = nf_digits(zText, &d, &sign, &nPre, &zFree);
  }
  *pd = d;
  pN->zText = zText, pN->zFree = zFree, pN->zNumber = zNumber, pN->sign = sign, pN->nPre = nPre;
  return zNumber ? 0 : -1;
}

/* The digits of a float8 (PostgreSQL's float8_to_char). */
static int nf_number_double(const void *pValue, nf_desc *pd, nf_number *pN, sql_error *pErr) {
  double v = *(const double *)pValue;
  nf_desc d = *pd;
  char *zText = NULL, *zFree = NULL;
  const char *zNumber;
  int sign = '+', nPre = 0;
  (void)pErr;
  if (d.flag & NF_F_ROMAN) {
    double r = rint(v);
    zText = malloc(32);
    /* PostgreSQL casts to int unchecked: out of range is INT_MIN on x86,
    ** which is no numeral. */
    nf_roman(isnan(r) || r < INT32_MIN || r > INT32_MAX ? INT32_MIN : (int)r, zText);
    zNumber = zText;
  } else if (d.flag & NF_F_EEEE) {
    if (isnan(v) || isinf(v)) {
      zText = malloc((size_t)(d.pre + d.post + 7));
      memset(zText, '#', (size_t)(d.pre + d.post + 6));
      zText[d.pre + d.post + 6] = 0;
      zText[0] = ' ';
      zText[d.pre + 1] = '.';
    } else {
      size_t n = (size_t)d.post + 32;
      zText = malloc(n);
      snprintf(zText, n, "%+.*e", d.post, v);
      if (zText[0] == '+') zText[0] = ' ';
    }
    zNumber = zText;
  } else {
    double val = v;
    char zInt[400];
    int nPreLen;
    size_t n;
    if (d.flag & NF_F_MULTI) {
      val = v * pow(10.0, (double)d.multi);
      d.pre += d.multi;
    }
    /* 15 significant digits at most: fewer after the point when there
    ** are many before it */
    /* PostgreSQL's own printf spells the non-finite "NaN", "Infinity",
    ** "-Infinity" (glibc's: "nan", "inf"). */
    if (isnan(val)) snprintf(zInt, sizeof(zInt), "NaN");
    else if (isinf(val)) snprintf(zInt, sizeof(zInt), "Infinity");
    else snprintf(zInt, sizeof(zInt), "%.0f", fabs(val));
    nPreLen = (int)strlen(zInt);
    if (nPreLen >= DBL_DIG) d.post = 0;
    else if (nPreLen + d.post > DBL_DIG) d.post = DBL_DIG - nPreLen;
    n = (size_t)nPreLen + (size_t)d.post + 8;
    zText = malloc(n);
    if (isnan(val) || isinf(val)) snprintf(zText, n, "%s%s", val < 0 ? "-" : "", zInt);
    else snprintf(zText, n, "%.*f", d.post, val);
    zNumber = nf_digits(zText, &d, &sign, &nPre, &zFree);
  }
  *pd = d;
  pN->zText = zText, pN->zFree = zFree, pN->zNumber = zNumber, pN->sign = sign, pN->nPre = nPre;
  return zNumber ? 0 : -1;
}

/* to_char of any value: the format parsed, the value's digits, the walk. */
static int nf_to_char(const void *pValue, nf_number_fn xNumber, const char *zFmt, char **pz,
                      sql_error *pErr) {
  nf_desc d;
  nf_node *aNode;
  nf_number num;
  int nNode, rc;
  *pz = NULL;
  if (zFmt[0] == 0) {
    *pz = strdup("");
    return *pz ? 0 : -1;
  }
  if ((aNode = nf_parse(zFmt, &d, &nNode, pErr)) == NULL) return -1;
  memset(&num, 0, sizeof(num));
  rc = xNumber(pValue, &d, &num, pErr);
  if (rc == 0) rc = nf_finish(aNode, nNode, &d, (char *)num.zNumber, num.nPre, num.sign, pz, pErr);
  free(num.zText);
  free(num.zFree);
  free(aNode);
  return rc;
}

int numfmt_numeric(const numeric *a, const char *zFmt, char **pz, sql_error *pErr) {
  return nf_to_char(a, nf_number_numeric, zFmt, pz, pErr);
}

int numfmt_double(double d, const char *zFmt, char **pz, sql_error *pErr) {
  return nf_to_char(&d, nf_number_double, zFmt, pz, pErr);
}
