/*
** server/auth.c — the password file and the rest of what starqd needs to
** decide who logs in (auth.h). The SCRAM exchange itself is scram.c's and
** the session's; this file only supplies verifiers, checked when the file
** is read so that a session never meets a bad one.
**
** The file is read with the same care as PostgreSQL gives its private
** key: permissions first, then every line, and any fault refuses the
** whole file with its line number. Users are kept sorted by name for a
** binary search, which also finds a user listed twice.
**
** INTERFACE ROUTINES
**   auth_file_load, auth_file_verifier, auth_file_count, auth_file_free,
**   auth_user_check, auth_password_read, auth_addr_loopback
*/
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "auth.h"
#include "config.h"
#include "scram.h"

#define AUTH_LINE_MAX 4096   /* longer lines are refused: no verifier is that long */
#define AUTH_FORM "user:SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>"

/* One user of the file. zName and zVerifier share one allocation, owned
** by the auth_file. */
typedef struct auth_user auth_user;
struct auth_user {
  char *zName;
  const char *zVerifier;   /* points into zName's allocation */
  int iLine;               /* where the file has it, for duplicate reports */
};

/* A loaded password file: immutable once auth_file_load returns. */
struct auth_file {
  auth_user *aUser;        /* sorted by zName (strcmp) */
  int nUser;
  int nAlloc;
};

/* ---- one line ------------------------------------------------------------- */

const char *auth_user_check(const char *zUser) {
  size_t n = strlen(zUser);
  if (n == 0) return "is empty";
  if (n > AUTH_USER_MAX) return "is longer than 63 bytes";
  for (const char *z = zUser; *z != 0; z++) {
    if (*z == ':') return "contains ':'";
    if (iscntrl((unsigned char)*z)) return "contains a control character";
  }
  return NULL;
}

/* Returns 1 if z is PostgreSQL's MD5 form: "md5" and 32 hex digits. */
static int auth_is_md5(const char *z) {
  if (strncmp(z, "md5", 3) != 0 || strlen(z) != 35) return 0;
  for (z += 3; *z != 0; z++) {
    if (!isxdigit((unsigned char)*z)) return 0;
  }
  return 1;
}

/* Appends user zUser with verifier zVerifier (line iLine) to p. Returns 0
** or -1 (out of memory). */
static int auth_user_add(auth_file *p, const char *zUser, const char *zVerifier, int iLine) {
  size_t nUser = strlen(zUser), nVerifier = strlen(zVerifier);
  auth_user *u;
  if (p->nUser == p->nAlloc) {
    int nNew = p->nAlloc ? 2 * p->nAlloc : 16;
    auth_user *aNew = realloc(p->aUser, (size_t)nNew * sizeof(*aNew));
    if (aNew == NULL) return -1;
    p->aUser = aNew;
    p->nAlloc = nNew;
  }
  u = &p->aUser[p->nUser];
  u->zName = malloc(nUser + nVerifier + 2);
  if (u->zName == NULL) return -1;
  memcpy(u->zName, zUser, nUser + 1);
  memcpy(u->zName + nUser + 1, zVerifier, nVerifier + 1);
  u->zVerifier = u->zName + nUser + 1;
  u->iLine = iLine;
  p->nUser++;
  return 0;
}

/* Takes line iLine of the file (z, n bytes read, line end included) into
** p. Returns 0, or -1 with zErr saying what is wrong with the line. The
** text after the user name is never quoted back: it may be a password. */
static int auth_line_take(auth_file *p, const char *zPath, int iLine, char *z, size_t n,
                          char *zErr, size_t nErr) {
  char *zColon, *zUser, *zVerifier;
  const char *zWhy;
  scram_verifier v;
  if (strlen(z) != n) {
    snprintf(zErr, nErr, "password file %s:%d: a NUL byte in the line", zPath, iLine);
    return -1;
  }
  if (n > AUTH_LINE_MAX) {
    snprintf(zErr, nErr, "password file %s:%d: longer than %d bytes", zPath, iLine, AUTH_LINE_MAX);
    return -1;
  }
  z = config__trim(z);
  if (*z == 0 || *z == '#') return 0;
  zColon = strchr(z, ':');
  if (zColon == NULL) {
    snprintf(zErr, nErr, "password file %s:%d: expected %s", zPath, iLine, AUTH_FORM);
    return -1;
  }
  *zColon = 0;
  zUser = config__trim(z);
  zVerifier = config__trim(zColon + 1);
  if ((zWhy = auth_user_check(zUser)) != NULL) {
    snprintf(zErr, nErr, "password file %s:%d: the user name %s", zPath, iLine, zWhy);
    return -1;
  }
  if (strncmp(zVerifier, "SCRAM-SHA-256$", 14) == 0) {
    if (strlen(zVerifier) >= SCRAM_VERIFIER_MAX || scram_verifier_parse(zVerifier, &v) != 0) {
      snprintf(zErr, nErr,
               "password file %s:%d: user \"%s\": malformed SCRAM-SHA-256 verifier (expected %s, "
               "each part base64, the keys 32 bytes)", zPath, iLine, zUser, AUTH_FORM);
      return -1;
    }
  } else if (zVerifier[0] == 0) {
    snprintf(zErr, nErr, "password file %s:%d: user \"%s\" has no verifier (expected %s)", zPath,
             iLine, zUser, AUTH_FORM);
    return -1;
  } else if (auth_is_md5(zVerifier)) {
    snprintf(zErr, nErr,
             "password file %s:%d: user \"%s\": an MD5 hash; starq takes SCRAM-SHA-256 verifiers "
             "only (starqd --hash-password %s makes one)", zPath, iLine, zUser, zUser);
    return -1;
  } else {
    snprintf(zErr, nErr,
             "password file %s:%d: user \"%s\": a plaintext password is not accepted; store its "
             "SCRAM-SHA-256 verifier instead (starqd --hash-password %s makes one)",
             zPath, iLine, zUser, zUser);
    return -1;
  }
  if (auth_user_add(p, zUser, zVerifier, iLine) != 0) {
    snprintf(zErr, nErr, "password file %s: out of memory", zPath);
    return -1;
  }
  return 0;
}

/* ---- the file ------------------------------------------------------------- */

/* Checks the file's type, owner and mode as PostgreSQL checks its SSL key
** file (be-secure-common.c): a password file others can read gives their
** verifiers away, and with them a way in to any server that shares them;
** a TLS key, the server's identity. Returns 0, or -1 with zErr. */
int auth_secret_mode_check(const char *zWhat, const char *zPath, const struct stat *pSt,
                           char *zErr, size_t nErr) {
  uid_t iMe = geteuid();
  if (!S_ISREG(pSt->st_mode)) {
    snprintf(zErr, nErr, "%s %s: not a regular file", zWhat, zPath);
    return -1;
  }
  if (pSt->st_uid != iMe && pSt->st_uid != 0) {
    snprintf(zErr, nErr, "%s %s: must be owned by starqd's user or by root", zWhat, zPath);
    return -1;
  }
  if ((pSt->st_uid == iMe && (pSt->st_mode & (S_IRWXG | S_IRWXO)) != 0) ||
      (pSt->st_uid == 0 && (pSt->st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)) != 0)) {
    snprintf(zErr, nErr,
             "%s %s: has group or world access (mode %04o); it must be u=rw (0600) "
             "or less when owned by starqd's user, or u=rw,g=r (0640) or less when owned by "
             "root: chmod 600 %s", zWhat, zPath, (unsigned)(pSt->st_mode & 07777), zPath);
    return -1;
  }
  return 0;
}

static int auth_user_cmp(const void *pA, const void *pB) {
  return strcmp(((const auth_user *)pA)->zName, ((const auth_user *)pB)->zName);
}

/* Sorts p's users and refuses a user listed twice. Returns 0 or -1. */
static int auth_file_sort(auth_file *p, const char *zPath, char *zErr, size_t nErr) {
  if (p->nUser > 1) qsort(p->aUser, (size_t)p->nUser, sizeof(p->aUser[0]), auth_user_cmp);
  for (int i = 1; i < p->nUser; i++) {
    const auth_user *a = &p->aUser[i - 1], *b = &p->aUser[i];
    if (strcmp(a->zName, b->zName) == 0) {
      snprintf(zErr, nErr, "password file %s:%d: user \"%s\" is listed again (first on line %d)",
               zPath, a->iLine > b->iLine ? a->iLine : b->iLine, a->zName,
               a->iLine < b->iLine ? a->iLine : b->iLine);
      return -1;
    }
  }
  return 0;
}

int auth_file_load(const char *zPath, auth_file **pp, char *zErr, size_t nErr) {
  FILE *f;
  struct stat st;
  auth_file *p = NULL;
  char *zLine = NULL;
  size_t nLineAlloc = 0;
  ssize_t n;
  int iLine = 0, rc = -1;
  *pp = NULL;
  f = fopen(zPath, "r");
  if (f == NULL) {
    snprintf(zErr, nErr, "password file %s: cannot open: %s", zPath, strerror(errno));
    return -1;
  }
  if (fstat(fileno(f), &st) != 0) {
    snprintf(zErr, nErr, "password file %s: fstat: %s", zPath, strerror(errno));
    goto out_close;
  }
  if (auth_secret_mode_check("password file", zPath, &st, zErr, nErr) != 0) goto out_close;
  p = calloc(1, sizeof(*p));
  if (p == NULL) {
    snprintf(zErr, nErr, "password file %s: out of memory", zPath);
    goto out_close;
  }
  while ((n = getline(&zLine, &nLineAlloc, f)) >= 0) {
    if (auth_line_take(p, zPath, ++iLine, zLine, (size_t)n, zErr, nErr) != 0) goto out_free;
  }
  if (ferror(f)) {
    snprintf(zErr, nErr, "password file %s: cannot read: %s", zPath, strerror(errno));
    goto out_free;
  }
  if (auth_file_sort(p, zPath, zErr, nErr) != 0) goto out_free;
  *pp = p;
  p = NULL;
  rc = 0;
out_free:
  auth_file_free(p);
out_close:
  if (zLine != NULL) {
    explicit_bzero(zLine, nLineAlloc);   /* a refused line may have held a password */
    free(zLine);
  }
  fclose(f);
  return rc;
}

int auth_file_verifier(const auth_file *p, const char *zUser, char *zOut, size_t nOut) {
  auth_user key;
  const auth_user *u;
  if (p == NULL || p->nUser == 0) return -1;
  key.zName = (char *)zUser;
  u = bsearch(&key, p->aUser, (size_t)p->nUser, sizeof(p->aUser[0]), auth_user_cmp);
  if (u == NULL || strlen(u->zVerifier) >= nOut) return -1;
  memcpy(zOut, u->zVerifier, strlen(u->zVerifier) + 1);
  return 0;
}

int auth_file_count(const auth_file *p) { return p != NULL ? p->nUser : 0; }

void auth_file_free(auth_file *p) {
  if (p == NULL) return;
  for (int i = 0; i < p->nUser; i++) free(p->aUser[i].zName);
  free(p->aUser);
  free(p);
}

/* ---- passwords from a terminal or a pipe ---------------------------------- */

int auth_password_read(FILE *f, const char *zPrompt, char *zOut, size_t nOut, char *zErr,
                       size_t nErr) {
  int fd = fileno(f), bTty = isatty(fd), rc = 0;
  struct termios old, quiet;
  size_t n;
  if (bTty) {
    if (tcgetattr(fd, &old) != 0) {
      snprintf(zErr, nErr, "tcgetattr: %s", strerror(errno));
      return -1;
    }
    quiet = old;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    if (zPrompt != NULL) {
      fputs(zPrompt, stderr);
      fflush(stderr);
    }
    if (tcsetattr(fd, TCSAFLUSH, &quiet) != 0) {
      snprintf(zErr, nErr, "tcsetattr: %s", strerror(errno));
      return -1;
    }
  }
  if (fgets(zOut, (int)nOut, f) == NULL) {
    snprintf(zErr, nErr, "no password: the input ended first");
    rc = -1;
  } else {
    n = strlen(zOut);
    if (n > 0 && zOut[n - 1] == '\n') {
      zOut[--n] = 0;
    } else if (!feof(f)) {
      snprintf(zErr, nErr, "the password is longer than %zu bytes", nOut - 1);
      rc = -1;
    }
    if (n > 0 && zOut[n - 1] == '\r') zOut[--n] = 0;
  }
  if (bTty) {
    if (tcsetattr(fd, TCSAFLUSH, &old) != 0 && rc == 0) {
      snprintf(zErr, nErr, "tcsetattr: %s", strerror(errno));
      rc = -1;
    }
    fputc('\n', stderr);   /* the newline typed was not echoed */
  }
  if (rc != 0) explicit_bzero(zOut, nOut);
  return rc;
}

/* ---- addresses ------------------------------------------------------------ */

int auth_addr_loopback(const struct sockaddr *pAddr) {
  if (pAddr->sa_family == AF_INET) {
    const struct sockaddr_in *p = (const struct sockaddr_in *)pAddr;
    return (ntohl(p->sin_addr.s_addr) >> 24) == 127;
  }
  if (pAddr->sa_family == AF_INET6) {
    const struct sockaddr_in6 *p = (const struct sockaddr_in6 *)pAddr;
    /* A listener on "::" sees IPv4 peers as ::ffff:a.b.c.d. */
    if (IN6_IS_ADDR_V4MAPPED(&p->sin6_addr)) return p->sin6_addr.s6_addr[12] == 127;
    return IN6_IS_ADDR_LOOPBACK(&p->sin6_addr);
  }
  return 0;
}
