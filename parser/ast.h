/*
** parser/ast.h — the parse tree: what the grammar (parse.y) builds and the
** binder (planner/bind.h) resolves and types in place.
**
** Every node, list and string lives in the parse's arena (common/arena.h)
** and dies with it; nothing here is freed on its own. Strings are
** NUL-terminated arena copies: identifiers already case-folded to lower
** case unless they were double-quoted, string literals with their quotes
** removed and '' turned into '.
**
** Positions are byte offsets into the SQL text of the token that starts
** the construct (for a binary operator: the operator token), so that an
** error can point where PostgreSQL would (common/sqlerr.h converts them to
** character positions).
**
** Constructors (ast.c) are what the grammar's actions call; each returns
** NULL only if memory ran out, after recording 53200 on the parse.
*/
#ifndef STARQ_AST_H
#define STARQ_AST_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/coltype.h"
#include "../common/sqlerr.h"

typedef struct sql_expr sql_expr;
typedef struct sql_expr_list sql_expr_list;
typedef struct sql_select sql_select;
typedef struct sql_stmt sql_stmt;
typedef struct sql_window sql_window;
struct sql_chain;

/* ---- expressions ---------------------------------------------------------- */

/* What a node is. Each kind names the fields it uses; a field a kind does
** not name is zero. */
typedef enum sql_expr_kind {
  SQL_EXPR_INTEGER = 1,    /* zText: the digits as written */
  SQL_EXPR_DECIMAL,        /* zText: digits with '.' and/or an exponent */
  SQL_EXPR_STRING,         /* zText: the value ('...', E'...' and $$...$$ alike) */
  SQL_EXPR_DATE,           /* DATE 'text': zText the quoted text */
  SQL_EXPR_NULL,
  SQL_EXPR_BOOL,           /* TRUE / FALSE: bValue */
  SQL_EXPR_COLUMN,         /* [[zSchema.]zTable.]zName */
  SQL_EXPR_STAR,           /* *, zTable.* or zSchema.zTable.* (select lists,
                           ** COUNT(*)) */
  SQL_EXPR_UNARY,          /* eOp (NEG, PLUS, NOT, or NAMED: a prefix operator
                           ** zName, OPERATOR(zSchema.zName)) applied to pLeft */
  SQL_EXPR_BINARY,         /* pLeft eOp pRight; eOp NAMED: the operator zName
                           ** (zSchema: written OPERATOR(zSchema.zName));
                           ** IS_DISTINCT: IS [NOT] DISTINCT FROM, bNot */
  SQL_EXPR_IS_NULL,        /* pLeft IS [NOT] NULL; bNot */
  SQL_EXPR_BETWEEN,        /* pLeft [NOT] BETWEEN [SYMMETRIC] pList->a[0] AND
                           ** pList->a[1]; bNot, bSymmetric */
  SQL_EXPR_IN,             /* pLeft [NOT] IN (pList), or IN (pSelect) when
                           ** bSelect; bNot */
  SQL_EXPR_LIKE,           /* pLeft [NOT] LIKE|ILIKE|SIMILAR TO pRight [ESCAPE
                           ** pList->a[0]]: eOp LIKE, ILIKE or SIMILAR; bNot;
                           ** pList NULL without ESCAPE */
  SQL_EXPR_CASE,           /* CASE [pLeft] WHEN/THEN pairs in pList [ELSE pRight] END */
  SQL_EXPR_CAST,           /* CAST(pLeft AS castType) and pLeft::castType; an
                           ** array type when nCastDim > 0 (castType is then
                           ** its element type) */
  SQL_EXPR_FUNC,           /* [zSchema.]zName(pList): aggregates and functions;
                           ** bDistinct, bStar, bSqlSyntax; pOrderBy, pFilter,
                           ** pWin */
  SQL_EXPR_PARAM,          /* $iParam: a parameter marker, replaced by its value
                           ** (engine/param.c) before the statement is bound */
  SQL_EXPR_IS_BOOL,        /* pLeft IS [NOT] TRUE|FALSE|UNKNOWN: eOp IS_TRUE,
                           ** IS_FALSE or IS_UNKNOWN; bNot */
  SQL_EXPR_SUBQUERY,       /* (pSelect): a scalar subquery */
  SQL_EXPR_EXISTS,         /* EXISTS (pSelect) */
  SQL_EXPR_ANY,            /* pLeft eOp ANY|SOME|ALL (...): bAll for ALL; the
                           ** (...) is pSelect when bSelect, else the array
                           ** pRight; eOp a comparison, LIKE or ILIKE (bNot
                           ** for NOT LIKE), or NAMED (zName, zSchema) */
  SQL_EXPR_ARRAY,          /* ARRAY[pList] (NULL pList: ARRAY[]; an item may
                           ** itself be an ARRAY: ARRAY[[1], [2]]), or
                           ** ARRAY(pSelect) when bSelect */
  SQL_EXPR_SUBSCRIPT,      /* pLeft[pList->a[0]], or with bSlice
                           ** pLeft[a[0] : a[1]], where either bound may be a
                           ** NULL pExpr (omitted) */
  SQL_EXPR_COLLATE,        /* pLeft COLLATE [zSchema.]zName */
  SQL_EXPR_ROW,            /* (pList): a row of VALUES, or in GROUP BY (a, b)
                           ** and the empty grouping set () (pList NULL) */
  SQL_EXPR_ROLLUP,         /* GROUP BY ROLLUP (pList); items may be ROWs */
  SQL_EXPR_CUBE,           /* GROUP BY CUBE (pList); items may be ROWs */
  SQL_EXPR_GROUPING_SETS,  /* GROUP BY GROUPING SETS (pList): expressions,
                           ** ROWs, ROLLUPs, CUBEs, GROUPING SETS */
} sql_expr_kind;

/* Operators. The order of the first block is relied upon (EQ..GE are the
** comparisons: planner/codeset.c); new ones go at the end. */
typedef enum sql_op {
  SQL_OP_NONE = 0,
  SQL_OP_ADD, SQL_OP_SUB, SQL_OP_MUL, SQL_OP_DIV, SQL_OP_MOD,
  SQL_OP_EQ, SQL_OP_NE, SQL_OP_LT, SQL_OP_LE, SQL_OP_GT, SQL_OP_GE,
  SQL_OP_AND, SQL_OP_OR,
  SQL_OP_NEG, SQL_OP_PLUS, SQL_OP_NOT,
  SQL_OP_POW,              /* ^ */
  SQL_OP_CONCAT,           /* || */
  SQL_OP_REGEX,            /* ~ */
  SQL_OP_IREGEX,           /* ~* */
  SQL_OP_NOT_REGEX,        /* !~ */
  SQL_OP_NOT_IREGEX,       /* !~* */
  SQL_OP_NAMED,            /* any other operator: its text is zName */
  SQL_OP_IS_DISTINCT,      /* IS [NOT] DISTINCT FROM (BINARY, bNot) */
  SQL_OP_LIKE,             /* LIKE (LIKE, ANY) */
  SQL_OP_ILIKE,            /* ILIKE (LIKE, ANY) */
  SQL_OP_SIMILAR,          /* SIMILAR TO (LIKE) */
  SQL_OP_IS_TRUE,          /* IS [NOT] TRUE (IS_BOOL) */
  SQL_OP_IS_FALSE,         /* IS [NOT] FALSE (IS_BOOL) */
  SQL_OP_IS_UNKNOWN,       /* IS [NOT] UNKNOWN (IS_BOOL) */
} sql_op;

/* What the binder learns about an expression. Zero until bound. */
typedef struct sql_bound sql_bound;
struct sql_bound {
  coltype type;            /* result type: a storable coltype, COLTYPE_BOOLEAN,
                           ** or COLTYPE_UNKNOWN for a bare NULL literal */
  int iSource;             /* COLUMN: index of its FROM item, else -1 */
  int iColumn;             /* COLUMN: column ordinal in that table */
  int iAgg;                /* FUNC that is an aggregate: its index in the
                           ** bound query's aggregate list; else -1 */
  int bConstant;           /* no column and no aggregate below */
  int bHasAgg;             /* an aggregate is at or below this node */
  const struct func_def *pFunc;  /* FUNC resolved in func/'s registry (a
                           ** host query's call: func_candidates), or NULL */
};

/* One node of an expression tree. Every pointer is owned by the tree (the
** parse's arena), each child reached from exactly one parent. Walks that
** follow pLeft, pRight and pList (walk.c, the binder, engine/param.c)
** reach every child of the kinds the binder binds; pSelect, pOrderBy,
** pFilter and pWin hold what only the refused kinds have. */
struct sql_expr {
  sql_expr_kind eKind;
  sql_op eOp;              /* UNARY, BINARY, LIKE, IS_BOOL, ANY (eKind says) */
  int iOffset;             /* byte offset of the token that starts it; for an
                           ** operator, the operator's token */
  const char *zText;       /* literals: their text */
  const char *zName;       /* COLUMN: column name; FUNC: function name (folded);
                           ** COLLATE: collation; NAMED operators: their text */
  const char *zTable;      /* COLUMN, STAR: table qualifier or NULL */
  const char *zSchema;     /* COLUMN, STAR: schema of a three-part name; FUNC,
                           ** COLLATE, NAMED operators: schema qualifier; or NULL */
  sql_expr *pLeft;
  sql_expr *pRight;
  sql_expr_list *pList;
  sql_select *pSelect;     /* SUBQUERY, EXISTS; IN, ANY, ARRAY when bSelect */
  sql_expr_list *pOrderBy; /* FUNC: ORDER BY written inside the arguments
                           ** (string_agg(x, ',' ORDER BY y)), or WITHIN GROUP
                           ** (ORDER BY ...) when bWithinGroup; else NULL */
  sql_expr *pFilter;       /* FUNC: FILTER (WHERE pFilter), or NULL */
  sql_window *pWin;        /* FUNC: OVER ..., or NULL */
  coltype castType;        /* CAST; DATE: a timestamp's or timestamptz's
                           ** literal of that type (planner/bind_time.c) */
  int nCastDim;            /* CAST: [] written after the type (int[] is 1) */
  int iParam;              /* PARAM: n of $n, 1 to 65535 */
  int iClauseOffset;       /* FUNC: where FILTER or WITHIN is written; LIKE:
                           ** where ESCAPE is; else 0 */
  unsigned bNot : 1;       /* IS NOT NULL, NOT BETWEEN, NOT IN, NOT LIKE, IS
                           ** NOT TRUE, IS NOT DISTINCT FROM, NOT LIKE ANY */
  unsigned bDistinct : 1;  /* FUNC: COUNT(DISTINCT x) */
  unsigned bStar : 1;      /* FUNC: COUNT(*) */
  unsigned bValue : 1;     /* BOOL */
  unsigned bQuoted : 1;    /* COLUMN: zName was a "quoted identifier" */
  unsigned bSelect : 1;    /* IN, ANY, ARRAY: pSelect holds the operand */
  unsigned bAll : 1;       /* ANY: ALL (...) rather than ANY/SOME (...) */
  unsigned bSymmetric : 1; /* BETWEEN SYMMETRIC */
  unsigned bSlice : 1;     /* SUBSCRIPT: [lower : upper] */
  unsigned bWithinGroup : 1; /* FUNC: pOrderBy is WITHIN GROUP (ORDER BY ...) */
  unsigned bSqlSyntax : 1; /* FUNC: written in SQL's own syntax, not as a
                           ** call: EXTRACT(f FROM x), SUBSTRING(x FROM a FOR b),
                           ** POSITION(a IN b), TRIM(...), OVERLAY(...),
                           ** CURRENT_DATE and the other keywords that call a
                           ** function (zName: the keyword folded; TRIM's is
                           ** btrim, ltrim or rtrim) */
  sql_bound b;             /* filled by the binder */
  int nHeight;             /* 1 + the tallest child's (subqueries, windows,
                           ** filters included); never more than
                           ** SQL_DEPTH_MAX, so walks may recurse */
  struct sql_chain *pChain; /* private to the parser (ast-expr.c): an AND or
                           ** OR being built from a flat chain; readers ignore it */
};

typedef enum sql_nulls {
  SQL_NULLS_DEFAULT = 0,   /* last for ASC, first for DESC (PostgreSQL) */
  SQL_NULLS_FIRST,
  SQL_NULLS_LAST,
} sql_nulls;

/* One entry of an expression list. Which fields mean something depends on
** the list: select lists use zAlias, ORDER BY uses bDesc and eNulls. */
typedef struct sql_expr_item sql_expr_item;
struct sql_expr_item {
  sql_expr *pExpr;         /* owned; NULL only for an omitted slice bound */
  const char *zAlias;      /* select list: AS name, or NULL */
  int iAliasOffset;        /* where zAlias was written */
  unsigned bDesc : 1;      /* ORDER BY ... DESC */
  sql_nulls eNulls;        /* ORDER BY ... NULLS FIRST/LAST */
};

struct sql_expr_list {
  int n;
  int nAlloc;
  sql_expr_item *a;
};

/* ---- window functions ------------------------------------------------------ */

typedef enum sql_frame_unit {
  SQL_FRAME_NONE = 0,      /* no frame clause: the default frame */
  SQL_FRAME_ROWS,
  SQL_FRAME_RANGE,
  SQL_FRAME_GROUPS,
} sql_frame_unit;

typedef enum sql_frame_bound {
  SQL_BOUND_NONE = 0,
  SQL_BOUND_UNBOUNDED_PRECEDING,
  SQL_BOUND_PRECEDING,     /* pStart / pEnd PRECEDING */
  SQL_BOUND_CURRENT_ROW,
  SQL_BOUND_FOLLOWING,     /* pStart / pEnd FOLLOWING */
  SQL_BOUND_UNBOUNDED_FOLLOWING,
} sql_frame_bound;

typedef enum sql_frame_exclude {
  SQL_EXCLUDE_NO_OTHERS = 0,  /* the default */
  SQL_EXCLUDE_CURRENT_ROW,
  SQL_EXCLUDE_GROUP,
  SQL_EXCLUDE_TIES,
} sql_frame_exclude;

/* A window: what OVER names or spells out, or a definition of the WINDOW
** clause. OVER w is a window with only zRef; OVER (w ORDER BY x) refines
** w: zBase w and its own clauses. SQLite's Window, PostgreSQL's WindowDef. */
struct sql_window {
  const char *zName;       /* WINDOW clause: the name it defines; else NULL */
  const char *zRef;        /* OVER w: the window named (nothing else set) */
  const char *zBase;       /* OVER (w ...) or AS (w ...): the window refined */
  int iOffset;             /* OVER's name or '('; WINDOW clause: the name */
  sql_expr_list *pPartition; /* PARTITION BY, or NULL */
  sql_expr_list *pOrderBy; /* ORDER BY (bDesc, eNulls as a query's), or NULL */
  sql_frame_unit eUnit;    /* ROWS, RANGE, GROUPS; NONE: no frame clause */
  int iFrameOffset;        /* where ROWS / RANGE / GROUPS is written */
  unsigned bBetween : 1;   /* written BETWEEN start AND end */
  sql_frame_bound eStart;  /* the frame's start */
  sql_frame_bound eEnd;    /* its end: CURRENT_ROW unless bBetween */
  sql_expr *pStart;        /* eStart PRECEDING/FOLLOWING: the offset; else NULL */
  sql_expr *pEnd;          /* eEnd PRECEDING/FOLLOWING: the offset; else NULL */
  sql_frame_exclude eExclude;
};

/* The window definitions of a WINDOW clause, in order. */
typedef struct sql_window_list sql_window_list;
struct sql_window_list {
  int n;
  int nAlloc;
  sql_window **a;          /* owned */
};

/* ---- SELECT -------------------------------------------------------------- */

/* How a FROM item joins the items before it. Joins are left-deep, as SQL
** writes them: "a JOIN b ON x LEFT JOIN c ON y" is ((a JOIN b) LEFT JOIN
** c); a comma starts a new chain, which JOIN binds tighter than ("a, b
** JOIN c ON x" joins c to b only); a parenthesized join is one item. */
typedef enum sql_join {
  SQL_JOIN_COMMA = 0,      /* the first item, or FROM a, b */
  SQL_JOIN_INNER,          /* [INNER] JOIN */
  SQL_JOIN_LEFT,           /* LEFT [OUTER] JOIN */
  SQL_JOIN_RIGHT,          /* RIGHT [OUTER] JOIN */
  SQL_JOIN_FULL,           /* FULL [OUTER] JOIN */
  SQL_JOIN_CROSS,          /* CROSS JOIN */
} sql_join;

/* What a FROM item is; it picks the live field among zName, pSelect,
** pFunc and pNested. */
typedef enum sql_src_kind {
  SQL_SRC_TABLE = 0,       /* [zSchema.]zName */
  SQL_SRC_SUBQUERY,        /* (pSelect): a derived table; bLateral */
  SQL_SRC_FUNCTION,        /* pFunc (a FUNC node): unnest(...), generate_series(...);
                           ** bLateral, bOrdinality */
  SQL_SRC_JOIN,            /* (pNested): a parenthesized join */
} sql_src_kind;

typedef struct sql_src_list sql_src_list;

/* One item of a FROM clause, with how it joins the items before it. pOn
** and the USING names belong to the item they join in. SQLite's SrcItem. */
typedef struct sql_src_item sql_src_item;
struct sql_src_item {
  sql_src_kind eKind;
  const char *zSchema;     /* TABLE: schema qualifier, or NULL */
  const char *zName;       /* TABLE: table name; NULL otherwise */
  sql_select *pSelect;     /* SUBQUERY: the query (owned) */
  sql_expr *pFunc;         /* FUNCTION: the call (owned) */
  sql_src_list *pNested;   /* JOIN: the items inside the parentheses (owned) */
  const char *zAlias;      /* AS alias, or NULL */
  int iOffset;             /* where the item starts: its name, '(', LATERAL */
  int iAliasOffset;        /* where zAlias was written */
  int nColAlias;           /* AS t (c1, c2): the column aliases; 0 if none */
  const char **azColAlias;
  unsigned bLateral : 1;   /* SUBQUERY, FUNCTION: LATERAL written */
  unsigned bOrdinality : 1; /* FUNCTION: WITH ORDINALITY */
  unsigned bNatural : 1;   /* NATURAL [join type] JOIN */
  sql_join eJoin;
  int iJoinOffset;         /* the join's first keyword (JOIN, LEFT, CROSS,
                           ** NATURAL); 0 for COMMA */
  sql_expr *pOn;           /* ON condition, or NULL */
  int nUsing;              /* USING (a, b): the names; 0 if none */
  const char **azUsing;
  int iUsingOffset;        /* where USING is written */
};

struct sql_src_list {
  int n;
  int nAlloc;
  sql_src_item *a;
};

/* WITH's common table expressions. */
typedef enum sql_cte_materialized {
  SQL_CTE_DEFAULT = 0,
  SQL_CTE_MATERIALIZED,
  SQL_CTE_NOT_MATERIALIZED,
} sql_cte_materialized;

typedef struct sql_cte sql_cte;
struct sql_cte {
  const char *zName;
  int iOffset;             /* where the name is written */
  int nCol;                /* WITH y (a, b) AS: the column names; 0 if none */
  const char **azCol;
  sql_cte_materialized eMaterialized;
  sql_select *pSelect;     /* owned */
};

typedef struct sql_with sql_with;
struct sql_with {
  int iOffset;             /* the WITH keyword */
  unsigned bRecursive : 1; /* WITH RECURSIVE */
  int nCte;
  int nAlloc;
  sql_cte *aCte;
};

/* What a sql_select node is. */
typedef enum sql_select_op {
  SQL_SELECT_SIMPLE = 0,   /* SELECT ... (and TABLE t, which is SELECT * FROM t) */
  SQL_SELECT_VALUES,       /* VALUES (...), (...): pValues */
  SQL_SELECT_UNION,        /* pLeft UNION [ALL] pRight */
  SQL_SELECT_INTERSECT,    /* pLeft INTERSECT [ALL] pRight */
  SQL_SELECT_EXCEPT,       /* pLeft EXCEPT [ALL] pRight */
} sql_select_op;

/* A query: a SELECT, a VALUES list, or a set operation over two queries
** (PostgreSQL's SelectStmt; SQLite's Select, with its pPrior chain made a
** binary tree so that INTERSECT can bind tighter than UNION and
** parenthesized operands nest). ORDER BY, LIMIT, OFFSET and WITH belong
** to the node they were written after: for "a UNION b ORDER BY 1" that is
** the UNION node. Every pointer is owned by the tree. */
struct sql_select {
  sql_select_op eOp;
  int iOffset;             /* SELECT, VALUES or TABLE; set operations: the
                           ** operator's keyword */
  unsigned bAll : 1;       /* set operations: ALL */
  unsigned bDistinct : 1;  /* SIMPLE: SELECT DISTINCT [ON] */
  unsigned bWithTies : 1;  /* FETCH FIRST ... WITH TIES (pLimit is the count) */
  sql_select *pLeft;       /* set operations: the operands */
  sql_select *pRight;
  sql_with *pWith;         /* WITH ..., or NULL */
  sql_expr_list *pDistinctOn; /* SIMPLE: DISTINCT ON (...), or NULL */
  int iDistinctOnOffset;   /* where its ON is written */
  sql_expr_list *pItems;   /* SIMPLE: the select list, never NULL; else NULL */
  sql_expr_list *pValues;  /* VALUES: its rows, ROW nodes of equal width */
  sql_src_list *pFrom;     /* SIMPLE: NULL for SELECT without FROM */
  sql_expr *pWhere;
  sql_expr_list *pGroupBy; /* items may be ROLLUP, CUBE, GROUPING SETS, ROW */
  sql_expr *pHaving;
  sql_window_list *pWindows; /* WINDOW w AS (...), ...; or NULL */
  sql_expr_list *pOrderBy;
  sql_expr *pLimit;        /* LIMIT n, FETCH FIRST n ROWS */
  sql_expr *pOffset;       /* OFFSET n [ROWS] */
  int iFetchOffset;        /* bWithTies: where FETCH is written */
  int nHeight;             /* the height of its tallest expression, a query
                           ** it holds counting one more than that query's;
                           ** at least 1, never more than SQL_DEPTH_MAX */
};

/* ---- other statements ------------------------------------------------------ */

/* A column of CREATE TABLE, with its column constraints. */
typedef struct sql_column_def sql_column_def;
struct sql_column_def {
  const char *zName;
  int iOffset;
  coltype type;              /* an array's element type when nArrayDim > 0 */
  int nArrayDim;             /* [] written after the type; the binder refuses it */
  unsigned bNotNull : 1;
  unsigned bPrimaryKey : 1;  /* PRIMARY KEY on the column itself */
  const char *zRefTable;     /* REFERENCES t [(c)], or NULL */
  const char *zRefColumn;    /* the (c), or NULL for t's primary key */
  int iRefOffset;
};

/* A table constraint: PRIMARY KEY (a, b) or FOREIGN KEY (a) REFERENCES t (b). */
typedef struct sql_table_key sql_table_key;
struct sql_table_key {
  unsigned bForeign : 1;
  int iOffset;
  int nCol;
  const char **azCol;
  const char *zRefTable;     /* FOREIGN KEY only */
  int nRefCol;               /* 0: t's primary key */
  const char **azRefCol;
};

typedef struct sql_create sql_create;
struct sql_create {
  const char *zName;
  int iOffset;
  unsigned bIfNotExists : 1;
  int nCol;
  sql_column_def *aCol;
  int nKey;
  sql_table_key *aKey;
};

/* COPY [zSchema.]zTable [(azCol)] FROM|TO 'zPath'|STDIN|STDOUT [options],
** or COPY (pQuery) TO ...; options in either syntax: WITH (FORMAT f, ...)
** or PostgreSQL's older WITH CSV HEADER DELIMITER AS ',' .... The
** statement's kind says the direction: SQL_STMT_COPY is COPY ... FROM,
** SQL_STMT_COPY_TO is COPY ... TO. Strings are the arena's. */
typedef struct sql_copy sql_copy;
struct sql_copy {
  const char *zSchema;       /* a table's schema qualifier, or NULL */
  const char *zTable;        /* NULL for COPY (query) */
  int iOffset;               /* the table name, or the query's '(' */
  sql_select *pQuery;        /* COPY (query) TO, or NULL */
  sql_select *pTableQuery;   /* COPY t [(cols)] TO: the SELECT of those columns
                             ** of t it reads (names positioned in the COPY);
                             ** NULL otherwise */
  int nCol;                  /* the column list; 0: every column */
  const char **azCol;
  int iColOffset;            /* where the column list's '(' is */
  unsigned bTo : 1;          /* COPY ... TO */
  unsigned bStdin : 1;       /* STDIN or STDOUT: the client's end (zPath NULL) */
  const char *zPath;
  int iPathOffset;
  const char *zFormat;       /* "tbl", "csv", "text", "binary", or NULL (from
                             ** the file name; STDIN/STDOUT: text) */
  unsigned bHeader : 1;
  unsigned bFreeze : 1;
  const char *zDelimiter;    /* NULL: the format's default */
  const char *zNull;         /* NULL: the format's default */
  const char *zQuote;        /* csv: QUOTE, or NULL */
  const char *zEscape;       /* csv: ESCAPE, or NULL */
  const char *zEncoding;     /* ENCODING, or NULL */
  unsigned bForceQuoteAll : 1; /* FORCE_QUOTE * */
  int nForceQuote;           /* FORCE_QUOTE (a, b) */
  const char **azForceQuote;
  int nForceNotNull;         /* FORCE_NOT_NULL (a, b) */
  const char **azForceNotNull;
  int nForceNull;            /* FORCE_NULL (a, b) */
  const char **azForceNull;
};

/* Transaction modes: BEGIN, START TRANSACTION, SET TRANSACTION and SET
** SESSION CHARACTERISTICS AS TRANSACTION; zero when not written. */
typedef enum sql_isolation {
  SQL_ISOLATION_DEFAULT = 0,
  SQL_ISOLATION_READ_UNCOMMITTED,
  SQL_ISOLATION_READ_COMMITTED,
  SQL_ISOLATION_REPEATABLE_READ,
  SQL_ISOLATION_SERIALIZABLE,
} sql_isolation;

typedef struct sql_txn_modes sql_txn_modes;
struct sql_txn_modes {
  sql_isolation eIsolation;
  int eReadOnly;             /* 0 not written, 1 READ ONLY, 2 READ WRITE */
  int eDeferrable;           /* 0 not written, 1 DEFERRABLE, 2 NOT DEFERRABLE */
};

/* FETCH and MOVE: a direction and a count, as PostgreSQL's FetchStmt
** normalizes them (NEXT is FORWARD 1, PRIOR BACKWARD 1, FIRST ABSOLUTE 1,
** LAST ABSOLUTE -1, n FORWARD n, ALL FORWARD ALL). */
typedef enum sql_fetch_dir {
  SQL_FETCH_FORWARD = 0,
  SQL_FETCH_BACKWARD,
  SQL_FETCH_ABSOLUTE,
  SQL_FETCH_RELATIVE,
} sql_fetch_dir;

/* DECLARE's options (mCursor). */
#define SQL_CURSOR_BINARY      0x01
#define SQL_CURSOR_INSENSITIVE 0x02
#define SQL_CURSOR_SCROLL      0x04
#define SQL_CURSOR_NO_SCROLL   0x08
#define SQL_CURSOR_HOLD        0x10   /* WITH HOLD */

typedef enum sql_stmt_kind {
  SQL_STMT_SELECT = 1,
  SQL_STMT_CREATE_TABLE,
  SQL_STMT_DROP_TABLE,
  SQL_STMT_COPY,             /* COPY ... FROM */
  SQL_STMT_EXPLAIN,
  SQL_STMT_SHOW_TABLES,
  SQL_STMT_SHOW,             /* SHOW name | SHOW ALL (zName "all"); SHOW TIME ZONE
                             ** and SHOW TRANSACTION ISOLATION LEVEL name their
                             ** settings (timezone, transaction_isolation) */
  SQL_STMT_SET,              /* SET [SESSION] name = value[, value] | TO DEFAULT;
                             ** SET TIME ZONE (timezone), SET NAMES
                             ** (client_encoding), SET SCHEMA (search_path) */
  SQL_STMT_BEGIN,            /* BEGIN, START TRANSACTION: txn */
  SQL_STMT_COMMIT,           /* COMMIT, END */
  SQL_STMT_ROLLBACK,         /* ROLLBACK, ABORT */
  /* Parsed for the PostgreSQL surface tools use (issue 26); the server
  ** does not run them yet. */
  SQL_STMT_COPY_TO,          /* COPY ... TO */
  SQL_STMT_RESET,            /* RESET name | RESET ALL (zName "all") */
  SQL_STMT_SET_TRANSACTION,  /* SET TRANSACTION modes (txn); bSession: SET
                             ** SESSION CHARACTERISTICS AS TRANSACTION */
  SQL_STMT_SAVEPOINT,        /* SAVEPOINT zName */
  SQL_STMT_RELEASE,          /* RELEASE [SAVEPOINT] zName */
  SQL_STMT_ROLLBACK_TO,      /* ROLLBACK [WORK] TO [SAVEPOINT] zName */
  SQL_STMT_DECLARE_CURSOR,   /* DECLARE zName [options] CURSOR FOR pSelect */
  SQL_STMT_FETCH,            /* FETCH / MOVE (bMove) [direction] [FROM|IN] zName */
  SQL_STMT_CLOSE,            /* CLOSE zName | CLOSE ALL (zName NULL) */
  SQL_STMT_DEALLOCATE,       /* DEALLOCATE [PREPARE] zName | ALL (zName NULL) */
  SQL_STMT_DISCARD,          /* DISCARD ALL|PLANS|SEQUENCES|TEMP: zName "all",
                             ** "plans", "sequences", "temp" */
} sql_stmt_kind;

struct sql_stmt {
  sql_stmt_kind eKind;
  int iOffset;               /* the statement's first byte in the input */
  int nLength;               /* its length in bytes, without the ';' */
  sql_select *pSelect;       /* SELECT, DECLARE CURSOR; EXPLAIN's inner
                             ** statement is pExplain */
  sql_create *pCreate;       /* CREATE TABLE */
  sql_copy *pCopy;           /* COPY, COPY_TO */
  sql_stmt *pExplain;        /* EXPLAIN: the statement explained */
  unsigned bAnalyze : 1;     /* EXPLAIN ANALYZE */
  unsigned bVerbose : 1;     /* EXPLAIN (VERBOSE) / EXPLAIN VERBOSE */
  unsigned bIfExists : 1;    /* DROP TABLE IF EXISTS */
  unsigned bSession : 1;     /* SET_TRANSACTION: SET SESSION CHARACTERISTICS */
  unsigned bMove : 1;        /* FETCH: MOVE */
  unsigned bFetchAll : 1;    /* FETCH: ALL (nFetch unused) */
  const char *zName;         /* DROP TABLE, SHOW, SET, RESET: the name; the
                             ** cursor, savepoint or prepared statement named */
  const char *zValue;        /* SET: the value as text (several values: joined
                             ** with ", "); NULL for DEFAULT */
  int nValue;                /* SET: the values written, 0 for DEFAULT */
  const char **azValue;
  sql_txn_modes txn;         /* BEGIN, SET_TRANSACTION */
  unsigned mCursor;          /* DECLARE_CURSOR: SQL_CURSOR_* */
  sql_fetch_dir eFetch;      /* FETCH */
  int64_t nFetch;            /* FETCH: the count (negative: the other way) */
};

/* A parsed input: its statements in order (empty statements dropped). */
typedef struct sql_script sql_script;
struct sql_script {
  int nStmt;
  sql_stmt **apStmt;
};

#endif /* STARQ_AST_H */
