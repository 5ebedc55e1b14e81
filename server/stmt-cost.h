/*
** server/stmt-cost.h — what the daemon expects a statement to cost: the
** executor's queue orders statements by it (pool.h), so that one client's
** long statements do not hold back others' short ones.
**
** The daemon plans nothing (the worker does), so the guess is what the
** same statement text took the last times it ran: an exponentially
** weighted mean of its run seconds, kept in a fixed table of recent texts
** (direct-mapped by hash: a text seen once and pushed out costs a guess,
** never memory). A text never seen is guessed at the mean of all.
**
** Loop thread only: guesses are made when a job is submitted and learnt
** when it is done, both there.
**
** INTERFACE ROUTINES
**   stmt_cost_new, stmt_cost_free
**   stmt_cost_guess    expected run seconds of a statement text
**   stmt_cost_learn    what a run of it took
*/
#ifndef STARQ_STMT_COST_H
#define STARQ_STMT_COST_H

typedef struct stmt_cost stmt_cost;

/* Returns a table of nSlot texts (a power of two is not needed), or NULL
** when memory ran out. */
stmt_cost *stmt_cost_new(int nSlot);
void stmt_cost_free(stmt_cost *p);

/* Expected seconds of a run of zSql: its own mean when it is in the
** table, else the mean of every run (0 before any). */
double stmt_cost_guess(const stmt_cost *p, const char *zSql);

/* Records that a run of zSql took rSeconds. */
void stmt_cost_learn(stmt_cost *p, const char *zSql, double rSeconds);

#endif /* STARQ_STMT_COST_H */
