/*
** server/auth.h — who may log in to starqd with a password: the password
** file (--password-file), the verifier lookup the sessions' SCRAM
** exchange asks for, and the pieces of `starqd --hash-password`.
**
** The password file holds one user a line, in PostgreSQL's stored form
** (what pg_authid.rolpassword holds, so a user's line can be copied from
** a PostgreSQL server):
**
**   # comment
**   alice:SCRAM-SHA-256$4096:<salt b64>$<StoredKey b64>:<ServerKey b64>
**
** Blank lines and lines whose first non-blank character is '#' are
** skipped; white space around the user name and the verifier is ignored.
** A user name is 1 to 63 bytes (PostgreSQL's NAMEDATALEN less one) with
** no ':' and no control character. Plaintext passwords and MD5 hashes are
** refused with the line's number: the file never holds a password.
**
** The file's permissions are checked as PostgreSQL checks its private key
** file: a regular file, owned by starqd's user with no group or world
** access (0600 or less), or owned by root with at most group read (0640).
**
** The file is read whole into an auth_file, which is immutable: a reload
** (SIGHUP) builds a new one and the daemon swaps it in only if it loaded,
** so a bad edit keeps the users that were there.
**
** INTERFACE ROUTINES
**   auth_file_load        read and check a password file
**   auth_file_verifier    a user's verifier string, for pg_verifier_fn
**   auth_file_count       how many users it holds
**   auth_file_free
**   auth_user_check       is this a user name the file can hold
**   auth_password_read    a password from a stream, without echo on a tty
**   auth_addr_loopback    is a socket address on loopback
**   auth_secret_mode_check  a secret file's owner and mode, as PostgreSQL's key file
*/
#ifndef STARQ_AUTH_H
#define STARQ_AUTH_H

#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>

#define AUTH_USER_MAX      63     /* bytes of a user name, as PostgreSQL's */
#define AUTH_PASSWORD_MAX  1024   /* bytes of a password read by --hash-password */

typedef struct auth_file auth_file;

/* Reads password file zPath into a new auth_file (*pp, freed with
** auth_file_free). Returns 0, or -1 with zErr naming the file, and the
** line when a line is at fault ("pw.txt:3: ..."); *pp is then NULL. An
** empty file (no users) loads. */
int auth_file_load(const char *zPath, auth_file **pp, char *zErr, size_t nErr);

/* Copies the verifier of user zUser into zOut[0..nOut). Returns 0, or -1
** if p is NULL, has no such user, or zOut is too small. */
int auth_file_verifier(const auth_file *p, const char *zUser, char *zOut, size_t nOut);

/* Returns the number of users in p (0 for NULL). */
int auth_file_count(const auth_file *p);

void auth_file_free(auth_file *p);

/* Returns NULL if zUser can be a user of the password file, or a phrase
** saying why not ("is empty", "contains ':'", ...). */
const char *auth_user_check(const char *zUser);

/* Reads one line of password from f into zOut[0..nOut) without its line
** end. When f is a terminal, echo is off while it is typed and zPrompt
** (if not NULL) is written to stderr first. Returns 0, or -1 with zErr
** (end of input before a password, a password longer than nOut - 1
** bytes, or a terminal that cannot be set). */
int auth_password_read(FILE *f, const char *zPrompt, char *zOut, size_t nOut, char *zErr,
                       size_t nErr);

/* Returns 1 if pAddr is a loopback address (127/8, ::1, or 127/8 mapped
** into IPv6), else 0. */
int auth_addr_loopback(const struct sockaddr *pAddr);

/* Checks that the secret file zPath (stat *pSt; zWhat names it in the
** message: "password file", "--ssl-key") is a regular file owned by
** starqd's user with mode 0600 or less, or by root with 0640 or less, as
** PostgreSQL checks its SSL key file. Returns 0, or -1 with zErr. */
struct stat;
int auth_secret_mode_check(const char *zWhat, const char *zPath, const struct stat *pSt,
                           char *zErr, size_t nErr);

#endif /* STARQ_AUTH_H */
