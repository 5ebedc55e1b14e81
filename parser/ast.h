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
struct sql_chain;

/* ---- expressions ---------------------------------------------------------- */

typedef enum sql_expr_kind {
  SQL_EXPR_INTEGER = 1,    /* zText: the digits as written */
  SQL_EXPR_DECIMAL,        /* zText: digits with '.' and/or an exponent */
  SQL_EXPR_STRING,         /* zText: the value */
  SQL_EXPR_DATE,           /* DATE 'text': zText the quoted text */
  SQL_EXPR_NULL,
  SQL_EXPR_BOOL,           /* TRUE / FALSE: bValue */
  SQL_EXPR_COLUMN,         /* [zTable.]zName */
  SQL_EXPR_STAR,           /* * or zTable.* (select lists and COUNT(*)) */
  SQL_EXPR_UNARY,          /* eOp (NEG, PLUS, NOT) applied to pLeft */
  SQL_EXPR_BINARY,         /* pLeft eOp pRight */
  SQL_EXPR_IS_NULL,        /* pLeft IS [NOT] NULL; bNot */
  SQL_EXPR_BETWEEN,        /* pLeft [NOT] BETWEEN pList->a[0] AND pList->a[1]; bNot */
  SQL_EXPR_IN,             /* pLeft [NOT] IN (pList); bNot */
  SQL_EXPR_LIKE,           /* pLeft [NOT] LIKE pRight; bNot */
  SQL_EXPR_CASE,           /* CASE [pLeft] WHEN/THEN pairs in pList [ELSE pRight] END */
  SQL_EXPR_CAST,           /* CAST(pLeft AS castType) and pLeft::castType */
  SQL_EXPR_FUNC,           /* zName(pList): aggregates and functions; bDistinct, bStar */
  SQL_EXPR_PARAM,          /* $iParam: a parameter marker, replaced by its value
                           ** (engine/param.c) before the statement is bound */
} sql_expr_kind;

typedef enum sql_op {
  SQL_OP_NONE = 0,
  SQL_OP_ADD, SQL_OP_SUB, SQL_OP_MUL, SQL_OP_DIV, SQL_OP_MOD,
  SQL_OP_EQ, SQL_OP_NE, SQL_OP_LT, SQL_OP_LE, SQL_OP_GT, SQL_OP_GE,
  SQL_OP_AND, SQL_OP_OR,
  SQL_OP_NEG, SQL_OP_PLUS, SQL_OP_NOT,
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
};

struct sql_expr {
  sql_expr_kind eKind;
  sql_op eOp;              /* UNARY, BINARY */
  int iOffset;             /* byte offset of the token that starts it */
  const char *zText;       /* literals: their text */
  const char *zName;       /* COLUMN: column name; FUNC: function name (lower case) */
  const char *zTable;      /* COLUMN, STAR: qualifier or NULL */
  sql_expr *pLeft;
  sql_expr *pRight;
  sql_expr_list *pList;
  coltype castType;        /* CAST */
  int iParam;              /* PARAM: n of $n, 1 to 65535 */
  unsigned bNot : 1;       /* IS NOT NULL, NOT BETWEEN, NOT IN, NOT LIKE */
  unsigned bDistinct : 1;  /* FUNC: COUNT(DISTINCT x) */
  unsigned bStar : 1;      /* FUNC: COUNT(*) */
  unsigned bValue : 1;     /* BOOL */
  unsigned bQuoted : 1;    /* COLUMN: zName was a "quoted identifier" */
  sql_bound b;             /* filled by the binder */
  int nHeight;             /* 1 + the tallest child's; never more than
                           ** SQL_DEPTH_MAX, so walks may recurse */
  struct sql_chain *pChain; /* private to the parser (ast.c): an AND or OR
                           ** being built from a flat chain; readers ignore it */
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
  sql_expr *pExpr;
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

/* ---- SELECT -------------------------------------------------------------- */

typedef enum sql_join {
  SQL_JOIN_COMMA = 0,      /* the first item, or FROM a, b */
  SQL_JOIN_INNER,          /* [INNER] JOIN ... ON pOn */
} sql_join;

/* One table of a FROM clause. pOn belongs to the item it joins in. */
typedef struct sql_src_item sql_src_item;
struct sql_src_item {
  const char *zName;       /* table name */
  const char *zAlias;      /* AS alias, or NULL */
  int iOffset;             /* where the table name was written */
  sql_join eJoin;
  sql_expr *pOn;
};

typedef struct sql_src_list sql_src_list;
struct sql_src_list {
  int n;
  int nAlloc;
  sql_src_item *a;
};

struct sql_select {
  unsigned bDistinct : 1;  /* SELECT DISTINCT */
  sql_expr_list *pItems;   /* select list; never NULL */
  sql_src_list *pFrom;     /* NULL for SELECT without FROM */
  sql_expr *pWhere;
  sql_expr_list *pGroupBy;
  sql_expr *pHaving;
  sql_expr_list *pOrderBy;
  sql_expr *pLimit;
  sql_expr *pOffset;
};

/* ---- other statements ------------------------------------------------------ */

/* A column of CREATE TABLE, with its column constraints. */
typedef struct sql_column_def sql_column_def;
struct sql_column_def {
  const char *zName;
  int iOffset;
  coltype type;
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

/* COPY zTable FROM 'zPath' | STDIN WITH (FORMAT f, HEADER [b], DELIMITER 'c',
** NULL 's'). */
typedef struct sql_copy sql_copy;
struct sql_copy {
  const char *zTable;
  int iOffset;
  unsigned bStdin : 1;       /* FROM STDIN: the client sends the data (zPath NULL) */
  const char *zPath;
  int iPathOffset;
  const char *zFormat;       /* "tbl", "csv", "text" (PostgreSQL's, FROM STDIN
                             ** only), or NULL (from the file name; STDIN: text) */
  unsigned bHeader : 1;
  const char *zDelimiter;    /* NULL: the format's default */
  const char *zNull;         /* NULL: the format's default */
};

typedef enum sql_stmt_kind {
  SQL_STMT_SELECT = 1,
  SQL_STMT_CREATE_TABLE,
  SQL_STMT_DROP_TABLE,
  SQL_STMT_COPY,
  SQL_STMT_EXPLAIN,
  SQL_STMT_SHOW_TABLES,
  SQL_STMT_SHOW,             /* SHOW name | SHOW ALL (zName "all") */
  SQL_STMT_SET,              /* SET name = value | SET name TO value | SET name TO DEFAULT */
  SQL_STMT_BEGIN,
  SQL_STMT_COMMIT,
  SQL_STMT_ROLLBACK,
} sql_stmt_kind;

struct sql_stmt {
  sql_stmt_kind eKind;
  int iOffset;               /* the statement's first byte in the input */
  int nLength;               /* its length in bytes, without the ';' */
  sql_select *pSelect;       /* SELECT; EXPLAIN's inner statement is pExplain */
  sql_create *pCreate;       /* CREATE TABLE */
  sql_copy *pCopy;           /* COPY */
  sql_stmt *pExplain;        /* EXPLAIN: the statement explained */
  unsigned bAnalyze : 1;     /* EXPLAIN ANALYZE */
  unsigned bVerbose : 1;     /* EXPLAIN (VERBOSE) / EXPLAIN VERBOSE */
  unsigned bIfExists : 1;    /* DROP TABLE IF EXISTS */
  const char *zName;         /* DROP TABLE, SHOW, SET: the name */
  const char *zValue;        /* SET: the value as text; NULL for DEFAULT */
};

/* A parsed input: its statements in order (empty statements dropped). */
typedef struct sql_script sql_script;
struct sql_script {
  int nStmt;
  sql_stmt **apStmt;
};

#endif /* STARQ_AST_H */
