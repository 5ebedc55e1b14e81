/*
** tests/randsqlInt.h — what the generator's two files share.
**
**   randsql.c         the random streams, the schema as the generator sees
**                     it, the values, literals, predicates, FROM and WHERE
**   randsql-select.c  the select list, GROUP BY, HAVING, ORDER BY, LIMIT,
**                     and whole queries
*/
#ifndef STARQ_RANDSQL_INT_H
#define STARQ_RANDSQL_INT_H

#include "randsql.h"

/* splitmix64 (Steele, Lea, Flood): tiny and the same everywhere. */
typedef struct rq_rng rq_rng;
struct rq_rng {
  uint64_t s;
};

/* FROM items. RQ_CDATE is a second date, joined by lo_commitdate. */
enum { RQ_FACT = 0, RQ_DATE, RQ_CUST, RQ_SUPP, RQ_PART, RQ_CDATE, RQ_NTABLE };

typedef enum rq_type { RQ_INT = 1, RQ_DAY, RQ_STR } rq_type;

/* What a column (or fact expression) may be used for. */
#define RQ_PRED   0x01   /* in a predicate */
#define RQ_KEY    0x02   /* as a group key */
#define RQ_SUM    0x04   /* as the argument of SUM / AVG (and the others) */
#define RQ_MINMAX 0x08   /* as the argument of MIN / MAX / COUNT */
#define RQ_OUT    0x10   /* as a plain output column */

typedef struct rq_col rq_col;
struct rq_col {
  const char *zName;       /* a column, or an expression over fact columns */
  int iTable;              /* RQ_* */
  rq_type eType;
  unsigned mUse;
};

extern const rq_col randsql__aCol[];
extern const int randsql__nCol;

/* The values a column holds: its distinct values as literal text when
** there are few enough (strings always), else its range (numbers). */
typedef struct rq_vals rq_vals;
struct rq_vals {
  int nVal;
  char **azVal;            /* sorted; owned */
  int64_t iMin, iMax;      /* RQ_INT: the range */
};

struct randsql {
  rq_vals *aVals;          /* per randsql__aCol entry; owned */
};

/* One query being written. */
typedef struct rq_gen rq_gen;
struct rq_gen {
  rq_rng shape;            /* draws that decide the query's form */
  rq_rng lit;              /* draws that pick its literals */
  const rq_vals *aVals;
  unsigned mTable;         /* FROM items, bit per RQ_* */
  int eNames;              /* 0: bare names, 1: table.column, 2: alias.column */
  const char *azFk[RQ_NTABLE];  /* per dimension: the fact column joining it */
};

uint64_t randsql__next(rq_rng *r);
int randsql__below(rq_rng *r, int n);          /* in [0, n) */
int randsql__chance(rq_rng *r, int nPercent);  /* 1 with that probability */

/* A random column over the tables of mTable with every use of mUse and
** type eType (0: any), or -1. */
int randsql__pick(rq_gen *g, unsigned mTable, unsigned mUse, rq_type eType);
/* Returns 1 if column iCol is its dimension's primary key. */
int randsql__is_pkey(int iCol);
/* Appends a reference to column iCol (qualified or not, as g names them). */
void randsql__ref(rq_gen *g, int iCol, strbuf *s);
/* Appends a literal of column iCol; returns a key ordering its literals. */
int64_t randsql__lit(rq_gen *g, int iCol, strbuf *s);
/* Appends a predicate on iCol (bCodes: only forms a code set can hold). */
void randsql__pred(rq_gen *g, int iCol, int bCodes, strbuf *s);
/* Appends " FROM ... [WHERE ...]" with nConj random conjuncts besides the
** joins, and zExtra (if not NULL) as one more conjunct of WHERE. */
void randsql__from_where(rq_gen *g, int nConj, const char *zExtra, strbuf *s);

extern const char *const randsql__azCmp[6];

#endif /* STARQ_RANDSQL_INT_H */
