/*
** clients/cli/input.c — where lines of input come from: a script file, a
** pipe, or a terminal. At a terminal, lines are read with libedit (line
** editing, history kept in ~/.starq_history across runs); with -n, or
** when libedit is not wanted, they are read plainly after a printed
** prompt. Lines come back without their newline.
**
** One source is read at a time (\i pushes another for its file), and
** COPY FROM STDIN inline data is read from the same source as the
** statement that asked for it.
**
** INTERFACE ROUTINES
**   sq_source_file       a source over an open FILE
**   sq_source_terminal   a source over the terminal (libedit, history)
**   sq_source_read       the next line, after showing a prompt
**   sq_source_history_add    remember a statement in the history
**   sq_source_is_terminal / sq_source_name / sq_source_line   what and where
**   sq_source_close      done (the history is saved)
*/
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <editline/readline.h>

#include "cli.h"

/* Lines kept in the history file. */
#define INPUT_HISTORY_MAX 500

/* A source of input lines. */
struct sq_source {
  FILE *f;                   /* the file or pipe; stdin at a terminal */
  int bOwned;                /* close f with the source */
  const char *zName;         /* for messages; borrowed */
  long iLine;                /* lines read so far */
  int bTerminal;             /* prompts are shown */
  int bEdit;                 /* lines come from libedit */
  char *zHistory;            /* the history file; owned; NULL: no history */
};

/* Returns a source reading f (closed with the source if bOwned), named
** zName in messages (NULL: no "starq:NAME:LINE: " prefix, as for a pipe);
** NULL if out of memory. */
sq_source *sq_source_file(FILE *f, const char *zName, int bOwned) {
  sq_source *p = calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->f = f;
  p->bOwned = bOwned;
  p->zName = zName;
  return p;
}

/* Returns a source reading the terminal on stdin: through libedit with
** the history file zHistory (NULL: no line editing, as -n asks). NULL if
** out of memory. */
sq_source *sq_source_terminal(const char *zHistory) {
  sq_source *p = calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->f = stdin;
  p->zName = "<stdin>";
  p->bTerminal = 1;
  if (zHistory != NULL) {
    p->bEdit = 1;
    p->zHistory = strdup(zHistory);
    using_history();
    stifle_history(INPUT_HISTORY_MAX);
    /* A missing file is the first run; any other failure only costs the
    ** old history. */
    if (p->zHistory != NULL && read_history(p->zHistory) != 0 && errno != ENOENT) {
      fprintf(stderr, "starq: warning: could not read history from %s\n", p->zHistory);
    }
  }
  return p;
}

/* Returns the next line without its newline (malloc'd), or NULL at the
** end of input. A terminal shows zPrompt first. */
char *sq_source_read(sq_source *p, const char *zPrompt) {
  char *z = NULL;
  size_t nAlloc = 0;
  ssize_t n;
  if (p->bEdit) {
    z = readline(zPrompt);
    if (z != NULL) p->iLine++;
    return z;
  }
  if (p->bTerminal) {
    fputs(zPrompt, stdout);
    fflush(stdout);
  }
  n = getline(&z, &nAlloc, p->f);
  if (n < 0) {
    free(z);
    return NULL;
  }
  if (n > 0 && z[n - 1] == '\n') z[n - 1] = 0;
  p->iLine++;
  return z;
}

/* Adds a statement or meta-command to the history (terminal only). */
void sq_source_history_add(sq_source *p, const char *zEntry) {
  if (p->bEdit && zEntry[0] != 0) add_history(zEntry);
}

int sq_source_is_terminal(const sq_source *p) {
  return p->bTerminal;
}

/* Returns the name messages give the source ("starq:NAME:LINE: "), or
** NULL for none. */
const char *sq_source_name(const sq_source *p) {
  return p->zName;
}

/* Returns how many lines have been read: the line number of the last. */
long sq_source_line(const sq_source *p) {
  return p->iLine;
}

/* Closes the source; a terminal's history is written to its file. */
void sq_source_close(sq_source *p) {
  if (p == NULL) return;
  if (p->bEdit && p->zHistory != NULL && write_history(p->zHistory) != 0) {
    fprintf(stderr, "starq: warning: could not save history to %s\n", p->zHistory);
  }
  if (p->bOwned && p->f != NULL) fclose(p->f);
  free(p->zHistory);
  free(p);
}
