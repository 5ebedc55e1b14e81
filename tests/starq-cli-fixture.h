/*
** tests/starq-cli-fixture.h — what the tests of starq (clients/cli/)
** share: starq or the real psql run as a child against a starqd from
** tests/starqd-fixture.h, with the same connection flags, and the two
** compared byte for byte.
*/
#ifndef STARQ_TEST_STARQ_CLI_FIXTURE_H
#define STARQ_TEST_STARQ_CLI_FIXTURE_H

#include "starqd-fixture.h"
#include "test.h"

/* Clears the PG* variables either client would read and asks for UTF8. */
void cli_env(void);

/* Starts starqd on fresh SSB data at SF 0.01 with a table "tricky" of
** values that test quoting, padding and line marks. Fails the test if
** psql is missing. */
void cli_server(starqd_proc *d);

/* Runs zProg ("starq" or "psql") with d's connection flags and then azArg
** (NULL-terminated), stdin from the file zStdin (NULL: /dev/null).
** Returns the exit code; *p holds what it printed. */
int cli_run(test_proc *p, const char *zProg, const starqd_proc *d, const char *zStdin,
            const char *const *azArg);

/* cli_run of starq. */
int cli_starq(test_proc *p, const starqd_proc *d, const char *zStdin, const char *const *azArg);

/* Runs psql and starq alike and fails the test unless they print the same
** (psql's "psql:" prefixes read as "starq:") and exit the same. Returns
** the exit code. */
int cli_same(const starqd_proc *d, const char *zStdin, const char *const *azArg);

/* Writes zText to the file zPath. */
void cli_file(const char *zPath, const char *zText);

#endif /* STARQ_TEST_STARQ_CLI_FIXTURE_H */
