/*
** parser/parseInt.h — what the parser's own files share and nobody else
** sees: the token the lexer hands the grammar, the parse context that
** lemon's %extra_context carries, the small values the grammar's rules
** pass each other (qualified names, types, aliases, frames, ...), the
** constructors the grammar's actions call (ast*.c, stmt*.c), the lexer's
** internal entry point (tokenize.c), the deparser's helpers, and the
** prototypes of the lemon engine (build/gen/parser/parse.c).
**
** Constructors follow one rule that keeps the actions trivial: once an
** error is recorded on the context, every constructor returns NULL (or a
** zero value) without looking at its arguments. A NULL child therefore
** always comes with an error, the parse stops at the next token, and no
** constructor has to test its children for NULL.
*/
#ifndef STARQ_PARSE_INT_H
#define STARQ_PARSE_INT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "parser.h"

/* PostgreSQL's SQLSTATE for a bad option value or type modifier. */
#ifndef SQLSTATE_INVALID_PARAMETER
#define SQLSTATE_INVALID_PARAMETER "22023"
#endif

/* The parser stack entries one statement may use. Nesting is limited
** exactly by SQL_DEPTH_MAX elsewhere (parentheses by the driver, tree
** height by the constructors); this bound only stops input that piles up
** unreduced prefixes ("NOT NOT NOT ... x") from growing the stack before
** any constructor runs. No statement within SQL_DEPTH_MAX needs more than
** about six entries per level. */
#define SQL_PARSE_STACK_MAX (10 * SQL_DEPTH_MAX)

/* A token as the lexer found it: z points into the SQL text (the text
** owns it), n is its length. The grammar's end-of-input token has n == 0
** and z at the end of the text, or n == 1 and z at the ';' that ended the
** statement. A token with z == NULL stands for "absent". */
typedef struct sql_token sql_token;
struct sql_token {
  const char *z;
  int n;
};

/* The state of one sql_parse() call; lemon's %extra_context. */
typedef struct sql_parse_ctx sql_parse_ctx;
struct sql_parse_ctx {
  arena *pArena;           /* where every node goes; the caller's */
  sql_error *pErr;         /* the caller's; set once, first error wins */
  const char *zSql;        /* the whole input, for offsets */
  sql_stmt *pStmt;         /* the statement the grammar accepted last */
};

/* Returns 1 if an error is recorded on the parse. */
#define sql_parse_failed(p) ((p)->pErr->zState[0] != 0)

/* Byte offset of token t in the SQL text. */
#define sql_token_offset(p, t) ((int)((t).z - (p)->zSql))

static inline sql_token sql_token_none(void) {
  sql_token t = {NULL, 0};
  return t;
}

/* Returns the token that covers a through b (b ends after a). */
static inline sql_token sql_token_span(sql_token a, sql_token b) {
  sql_token t;
  t.z = a.z;
  t.n = (int)(b.z + b.n - a.z);
  return t;
}

/* ---- values the grammar passes between rules ------------------------------- */

/* A name with an optional qualifier: [schema.]table, [schema.]function,
** [schema.]type, OPERATOR(schema.op). tSchema.z is NULL when absent. */
typedef struct sql_qname sql_qname;
struct sql_qname {
  sql_token tSchema;
  sql_token tName;
};

static inline sql_qname sql_qname_new(sql_token tSchema, sql_token tName) {
  sql_qname q;
  q.tSchema = tSchema;
  q.tName = tName;
  return q;
}

/* A type as written: its coltype, array dimensions, and where it starts. */
typedef struct sql_type sql_type;
struct sql_type {
  coltype t;               /* the element type of an array */
  int nArrayDim;           /* [] written after it */
  sql_token tAt;           /* the type name's first token */
};

/* INTERVAL's fields qualifier: a COLTYPE_INTERVAL_* mask (0: none) and the
** precision of SECOND(p) (absent: tPrec.z NULL). */
typedef struct sql_ifields sql_ifields;
struct sql_ifields {
  int mFields;
  sql_token tPrec;
};

/* [AS] alias [(c1, c2)] of a FROM item; tName.z NULL when absent. */
typedef struct sql_alias sql_alias;
struct sql_alias {
  sql_token tName;
  struct sql_name_list *pCols;
};

/* A join operator: its kind, its first keyword, NATURAL. */
typedef struct sql_joinop sql_joinop;
struct sql_joinop {
  sql_join eJoin;
  sql_token t;
  int bNatural;
};

static inline sql_joinop sql_joinop_new(sql_join eJoin, sql_token t, int bNatural) {
  sql_joinop j;
  j.eJoin = eJoin;
  j.t = t;
  j.bNatural = bNatural;
  return j;
}

/* SELECT [ALL | DISTINCT | DISTINCT ON (pOn)]; tOn is ON's token. */
typedef struct sql_distinct sql_distinct;
struct sql_distinct {
  int bDistinct;
  sql_token tOn;
  sql_expr_list *pOn;
};

static inline sql_distinct sql_distinct_new(int bDistinct, sql_token tOn, sql_expr_list *pOn) {
  sql_distinct d;
  d.bDistinct = bDistinct;
  d.tOn = tOn;
  d.pOn = pOn;
  return d;
}

/* LIMIT / FETCH FIRST and OFFSET, in either order in the text. */
typedef struct sql_limit sql_limit;
struct sql_limit {
  sql_expr *pLimit;        /* NULL: no LIMIT, or LIMIT ALL */
  sql_expr *pOffset;
  int bWithTies;           /* FETCH FIRST ... WITH TIES */
  sql_token tFetch;        /* FETCH's token, or absent */
};

/* One bound of a window frame: UNBOUNDED PRECEDING, n PRECEDING, ... */
typedef struct sql_bound_spec sql_bound_spec;
struct sql_bound_spec {
  sql_frame_bound eBound;
  sql_expr *pExpr;         /* n PRECEDING / FOLLOWING: n */
  sql_token t;             /* where the bound's keyword is */
};

static inline sql_bound_spec sql_bound_new(sql_token t, sql_frame_bound eBound, sql_expr *pExpr) {
  sql_bound_spec b;
  b.eBound = eBound;
  b.pExpr = pExpr;
  b.t = t;
  return b;
}

/* A window's frame clause; eUnit NONE when absent. */
typedef struct sql_frame sql_frame;
struct sql_frame {
  sql_frame_unit eUnit;
  sql_token tUnit;
  int bBetween;
  sql_bound_spec start;
  sql_bound_spec end;      /* CURRENT ROW unless bBetween */
  sql_frame_exclude eExclude;
};

/* WITHIN GROUP (ORDER BY pList) or FILTER (WHERE pExpr) after a call;
** t.z NULL when absent. */
typedef struct sql_tail sql_tail;
struct sql_tail {
  sql_token t;
  sql_expr *pExpr;
  sql_expr_list *pList;
};

static inline sql_tail sql_tail_new(sql_token t, sql_expr *pExpr, sql_expr_list *pList) {
  sql_tail x;
  x.t = t;
  x.pExpr = pExpr;
  x.pList = pList;
  return x;
}

/* OPERATOR(schema.op): the OPERATOR keyword and the operator's name. */
typedef struct sql_qualop sql_qualop;
struct sql_qualop {
  sql_token tAt;
  sql_qname name;
};

static inline sql_qualop sql_qualop_new(sql_token tAt, sql_token tSchema, sql_token tOp) {
  sql_qualop q;
  q.tAt = tAt;
  q.name = sql_qname_new(tSchema, tOp);
  return q;
}

/* The operator of LIKE-like predicates and of op ANY (...): eOp, with
** bNot for NOT LIKE; NAMED operators by their token (tOp) and schema. */
typedef struct sql_opref sql_opref;
struct sql_opref {
  sql_op eOp;
  sql_token tAt;           /* where the operator is written */
  sql_qname name;          /* NAMED: the operator and its schema */
  int bNot;
};

static inline sql_opref sql_opref_new(sql_op eOp, sql_token t, int bNot) {
  sql_opref o;
  o.eOp = eOp;
  o.tAt = t;
  o.name = sql_qname_new(sql_token_none(), t);
  o.bNot = bNot;
  return o;
}

static inline sql_opref sql_opref_qualified(sql_qualop q) {
  sql_opref o = sql_opref_new(SQL_OP_NAMED, q.tAt, 0);
  o.name = q.name;
  return o;
}

/* FETCH / MOVE arguments: a direction, a count (tCount, or nDefault when
** none is written), ALL, and the cursor. */
typedef struct sql_fetch sql_fetch;
struct sql_fetch {
  sql_fetch_dir eDir;
  sql_token tCount;
  int bAll;
  int nDefault;
  sql_token tCursor;
};

static inline sql_fetch sql_fetch_new(sql_fetch_dir eDir, const sql_token *pCount, int bAll,
                                      int nDefault) {
  sql_fetch f;
  f.eDir = eDir;
  f.tCount = pCount != NULL ? *pCount : sql_token_none();
  f.bAll = bAll;
  f.nDefault = nDefault;
  f.tCursor = sql_token_none();
  return f;
}

static inline sql_fetch sql_fetch_cursor(sql_fetch f, sql_token tCursor) {
  f.tCursor = tCursor;
  return f;
}

/* One COPY option in either syntax: its name (tName, or zName for the
** older syntax's keywords, which name it differently), and its argument: a
** token, a list of names, or '*'. */
typedef struct sql_copy_opt sql_copy_opt;
struct sql_copy_opt {
  sql_token tName;         /* where the option is written */
  const char *zName;       /* the option, if not tName's text */
  sql_token tArg;          /* absent: none */
  struct sql_name_list *pList;
  int bStar;
};

static inline sql_copy_opt sql_copy_opt_new(sql_token tArg, struct sql_name_list *pList,
                                            int bStar) {
  sql_copy_opt o;
  o.tName = sql_token_none();
  o.zName = NULL;
  o.tArg = tArg;
  o.pList = pList;
  o.bStar = bStar;
  return o;
}

static inline sql_copy_opt sql_copy_opt_named(sql_token tName, sql_copy_opt o) {
  o.tName = tName;
  return o;
}

static inline sql_copy_opt sql_copy_opt_old(sql_token tName, const char *zName, sql_token tArg,
                                            struct sql_name_list *pList, int bStar) {
  sql_copy_opt o = sql_copy_opt_new(tArg, pList, bStar);
  o.tName = tName;
  o.zName = zName;
  return o;
}

static inline sql_txn_modes sql_txn_mode(int eIsolation, int eReadOnly, int eDeferrable) {
  sql_txn_modes m;
  m.eIsolation = (sql_isolation)eIsolation;
  m.eReadOnly = eReadOnly;
  m.eDeferrable = eDeferrable;
  return m;
}

static inline sql_txn_modes sql_txn_modes_none(void) {
  return sql_txn_mode(0, 0, 0);
}

/* Modes written later win, as in PostgreSQL. */
static inline sql_txn_modes sql_txn_modes_merge(sql_txn_modes a, sql_txn_modes b) {
  if (b.eIsolation) a.eIsolation = b.eIsolation;
  if (b.eReadOnly) a.eReadOnly = b.eReadOnly;
  if (b.eDeferrable) a.eDeferrable = b.eDeferrable;
  return a;
}

/* A list of plain names or values: PRIMARY KEY (a, b), REFERENCES t (c),
** USING (a), a column list, SET's values. */
typedef struct sql_name_list sql_name_list;
struct sql_name_list {
  int n;
  int nAlloc;
  const char **az;
  int iOffset;             /* where the list starts, where it matters
                           ** (sql_name_list_at) */
};

/* ---- tokenize.c ------------------------------------------------------------ */

/* Returns the length of the token at z (0 at the NUL) and sets *peType to
** its TK_ code: TK_SPACE for blanks and comments, TK_ILLEGAL for an
** unterminated string, comment or quoted identifier (running to the end
** of the text), a number with trailing junk, or a byte no token starts
** with. Keywords come back as their own codes. */
int sql__token_get(const char *z, int *peType);

/* Returns the TK_ code of keyword z[0..n) (any case), or TK_ID. */
int sql__keyword_code(const char *z, int n);

/* Returns 0 if the keyword table is sorted and every entry is found by
** sql__keyword_code(), else the index of the first bad entry plus 1. */
int sql__keyword_check(void);

/* Returns 1 if c starts a word: a letter, '_', a UTF-8 byte, or the '"'
** of a quoted identifier. */
int sql__word_start(char c);

/* Returns the length of the opening tag of a dollar quote at z ("$$" or
** "$tag$"), or 0 if z starts none. */
int sql__dollar_tag_len(const char *z);

/* ---- ast.c: errors, memory, text, lists ----------------------------------------- */

/* Returns how many bytes of z[0..n) an "at or near" message quotes. */
int sql__near_len(const char *z, int n);

/* Returns n zeroed bytes from the parse's arena, or NULL after recording
** 53200. */
void *sql__alloc(sql_parse_ctx *p, size_t n);

/* Makes room for one more element in *pa (n used of *pnAlloc, each sz
** bytes) by doubling it in the arena. Returns 0, or -1 with 53200. */
int sql__grow(sql_parse_ctx *p, void **pa, int *pnAlloc, int n, size_t sz);

/* Identifier t folded to lower case, or without its quotes if quoted. */
char *sql__name_text(sql_parse_ctx *p, sql_token t);

/* String literal t without its quotes: '' turned into ' ('...'), escapes
** decoded (E'...'), or as written ($$...$$). NULL after recording an error
** for an escape that makes no valid UTF-8 (22021) or no code point
** (42601). */
char *sql__string_text(sql_parse_ctx *p, sql_token t);

/* The text of a span of tokens: names as sql__name_text(), strings as
** sql__string_text(), the rest as written; one space between words. */
char *sql__span_text(sql_parse_ctx *p, sql_token t);

/* Records 42601 syntax error at or near token t (at end of input when
** t.n == 0). The grammar's %syntax_error. */
void sql__error_syntax(sql_parse_ctx *p, sql_token t);

/* Records 53200 out of memory. */
void sql__error_oom(sql_parse_ctx *p);

/* Records 0A000 for a construct starq recognises but does not parse into
** a tree, positioned at token t, with a message chosen by t's keyword (or
** its first byte: bit strings, U& strings). Returns NULL, so that an
** action can write A = sql_unsupported(pCtx, X). */
void *sql_unsupported(sql_parse_ctx *p, sql_token t);

/* Records 0A000 "cross-database references are not implemented: a.b.c.d"
** at the name spanning t, as PostgreSQL does. Returns NULL. */
sql_expr *sql_unsupported_refs(sql_parse_ctx *p, sql_token t);

/* Each appends to pList (NULL: a new list) and returns the list. */
sql_expr_list *sql_expr_list_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr);
sql_expr_list *sql_expr_list_prepend(sql_parse_ctx *p, sql_expr *pExpr, sql_expr_list *pList);
sql_expr_list *sql_expr_list3(sql_parse_ctx *p, sql_expr *a, sql_expr *b, sql_expr *c);
sql_expr_list *sql_case_when_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pWhen,
                                    sql_expr *pThen);
sql_expr_list *sql_select_item_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                      sql_token tAlias);
sql_expr_list *sql_order_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                int bDesc, sql_nulls eNulls);
sql_name_list *sql_name_list_append(sql_parse_ctx *p, sql_name_list *pList, sql_token tName);
/* Appends value t as text (sql__span_text: a string unquoted, a name
** folded, a signed number as written). */
sql_name_list *sql_value_list_append(sql_parse_ctx *p, sql_name_list *pList, sql_token t);
/* Returns pList with its iOffset set to token t's. */
sql_name_list *sql_name_list_at(sql_parse_ctx *p, sql_name_list *pList, sql_token t);

/* ---- ast-expr.c: expressions ---------------------------------------------------- */

/* Raises e's height to hold a child (a subquery, a window, a filter) of
** height nChild. Returns e, or NULL after recording 54000 past
** SQL_DEPTH_MAX at iOffset. */
sql_expr *sql__expr_height_raise(sql_parse_ctx *p, sql_expr *e, int nChild, int iOffset);
/* Returns the height of the tallest expression of pList, 0 for NULL. */
int sql__list_height(const sql_expr_list *pList);

sql_expr *sql_expr_literal(sql_parse_ctx *p, sql_expr_kind eKind, sql_token t);
/* The integer literal 1 at token t's position (FETCH FIRST ROW ONLY,
** SUBSTRING(x FOR n)). */
sql_expr *sql_expr_one(sql_parse_ctx *p, sql_token t);
sql_expr *sql_expr_typed_literal(sql_parse_ctx *p, sql_token tType, sql_type t, sql_token tValue);
sql_expr *sql_expr_param(sql_parse_ctx *p, sql_token t);
sql_expr *sql_expr_column(sql_parse_ctx *p, const sql_token *pSchema, const sql_token *pTable,
                          sql_token tName);
sql_expr *sql_expr_star(sql_parse_ctx *p, const sql_token *pSchema, const sql_token *pTable,
                        sql_token tStar);
sql_expr *sql_expr_unary(sql_parse_ctx *p, sql_op eOp, sql_token tOp, sql_expr *pExpr);
/* pLeft eOp pRight. A chain of one of AND and OR ("a OR b OR c ...",
** parenthesized left operands included) is built balanced, its height
** growing as log n rather than n (ast-expr.c). */
sql_expr *sql_expr_binary(sql_parse_ctx *p, sql_op eOp, sql_expr *pLeft, sql_token tOp,
                          sql_expr *pRight);
/* pLeft op pRight, or the prefix op pRight when pLeft is NULL, for the
** operator named by op (a TK_OP token, or an OPERATOR(schema.op)) written
** at tAt: ||, ~, ~*, !~, !~* and the arithmetic and comparison operators
** get their own eOp, any other is NAMED. */
sql_expr *sql_expr_operator(sql_parse_ctx *p, sql_expr *pLeft, sql_qname op, sql_token tAt,
                            sql_expr *pRight);
sql_expr *sql_expr_is_null(sql_parse_ctx *p, sql_expr *pLeft, sql_token tIs, int bNot);
sql_expr *sql_expr_is_bool(sql_parse_ctx *p, sql_expr *pLeft, sql_token tIs, int bNot, sql_op eOp);
sql_expr *sql_expr_is_distinct(sql_parse_ctx *p, sql_expr *pLeft, sql_token tIs, int bNot,
                               sql_expr *pRight);
sql_expr *sql_expr_between(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                           int bSymmetric, sql_expr *pLow, sql_expr *pHigh);
sql_expr *sql_expr_in(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                      sql_expr_list *pList);
sql_expr *sql_expr_in_select(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                             sql_select *pSelect);
sql_expr *sql_expr_like(sql_parse_ctx *p, sql_expr *pLeft, const sql_opref *pOp,
                        sql_expr *pPattern, sql_expr *pEscape, sql_token tEscape);
/* pLeft op ANY|SOME|ALL (pSelect or pArray); tQuant is the quantifier. */
sql_expr *sql_expr_any(sql_parse_ctx *p, sql_expr *pLeft, const sql_opref *pOp, sql_token tQuant,
                       sql_expr *pArray, sql_select *pSelect);
/* A query used as an expression: (SELECT ...) (SUBQUERY), EXISTS (...),
** ARRAY(...); t is where it is written. */
sql_expr *sql_expr_subquery(sql_parse_ctx *p, sql_expr_kind eKind, sql_token t,
                            sql_select *pSelect);
sql_expr *sql_expr_case(sql_parse_ctx *p, sql_token tCase, sql_expr *pOperand,
                        sql_expr_list *pWhenThen, sql_expr *pElse);
sql_expr *sql_expr_cast(sql_parse_ctx *p, sql_token tOp, sql_expr *pExpr, sql_type t);
sql_expr *sql_expr_collate(sql_parse_ctx *p, sql_expr *pExpr, sql_token tCollate, sql_qname name);
sql_expr *sql_expr_array(sql_parse_ctx *p, sql_token tAt, sql_expr_list *pList);
sql_expr *sql_expr_subscript(sql_parse_ctx *p, sql_expr *pExpr, sql_token tLb, sql_expr *pLow,
                             sql_expr *pHigh, int bSlice);
/* A row (a, b) or (), of VALUES or GROUP BY, at its '('. */
sql_expr *sql_expr_row(sql_parse_ctx *p, sql_token tLp, sql_expr_list *pList);
/* ROLLUP, CUBE or GROUPING SETS (eKind) over pList. */
sql_expr *sql_expr_grouping(sql_parse_ctx *p, sql_expr_kind eKind, sql_token tAt,
                            sql_expr_list *pList);
/* A call of [schema.]name(pArgs), with DISTINCT, *, ORDER BY in the
** arguments. */
sql_expr *sql_expr_func(sql_parse_ctx *p, sql_qname name, sql_expr_list *pArgs, int bDistinct,
                        int bStar, sql_expr_list *pOrderBy);
/* Attaches WITHIN GROUP, FILTER and OVER (each may be absent) to call pFunc. */
sql_expr *sql_expr_func_tail(sql_parse_ctx *p, sql_expr *pFunc, const sql_tail *pWithin,
                             const sql_tail *pFilter, sql_window *pWin);
/* A call written in SQL's own syntax at keyword tKw (bSqlSyntax): zName
** the function (NULL: the keyword folded), pArgs in PostgreSQL's order. */
sql_expr *sql_expr_special(sql_parse_ctx *p, sql_token tKw, const char *zName,
                           sql_expr_list *pArgs);
/* An ordinary call of a function whose name is a keyword (SUBSTRING(a, b)). */
sql_expr *sql_expr_keyword_call(sql_parse_ctx *p, sql_token tKw, sql_expr_list *pArgs);
/* EXTRACT's field written as a name: the string literal of its folded text. */
sql_expr *sql_expr_field(sql_parse_ctx *p, sql_token t);

/* ---- ast-type.c: type names ----------------------------------------------------- */

/* Returns the type named by tName (a name, a schema-qualified name or a
** multi-word span such as DOUBLE PRECISION) with optional modifiers; a
** zero coltype after recording 42704 for an unknown name, 0A000 for a
** PostgreSQL type starq lacks, 22023 or 42601 for bad modifiers. */
sql_type sql_type_new(sql_parse_ctx *p, sql_token tName, const sql_token *pArg1,
                      const sql_token *pArg2);
/* The type named by a qualified name (the typed literal "pg_catalog.int4 '1'"). */
sql_type sql_type_qualified(sql_parse_ctx *p, sql_qname name);
/* TIMESTAMP or (bTime) TIME, with precision tPrec (absent: 6) and WITH TIME
** ZONE (bZone). */
sql_type sql_type_time(sql_parse_ctx *p, sql_token tAt, int bTime, sql_token tPrec, int bZone);
/* INTERVAL with fields f, or with precision *pPrec. */
sql_type sql_type_interval(sql_parse_ctx *p, sql_token tAt, sql_ifields f, const sql_token *pPrec);
/* t with nDim array dimensions. */
sql_type sql_type_array(sql_parse_ctx *p, sql_type t, int nDim);
static inline sql_ifields sql_ifields_none(void) {
  sql_ifields f;
  f.mFields = 0;
  f.tPrec = sql_token_none();
  return f;
}
/* The fields tFirst [TO tLast] [(precision)]; 42601 for a pair PostgreSQL
** does not have (MONTH TO DAY) or a precision on a field other than SECOND. */
sql_ifields sql_ifields_new(sql_parse_ctx *p, sql_token tFirst, sql_token tLast,
                            const sql_token *pPrec);

/* ---- ast-select.c: queries ----------------------------------------------------- */

/* Returns the height of the tallest expression a window holds. */
int sql__window_height(const sql_window *w);

/* The height a query adds to an expression that holds it. */
#define sql__select_height(s) ((s) != NULL ? (s)->nHeight : 0)

sql_select *sql_select_new(sql_parse_ctx *p, sql_token tSelect, const sql_distinct *pDistinct,
                           sql_expr_list *pItems, sql_src_list *pFrom, sql_expr *pWhere,
                           sql_expr_list *pGroupBy, sql_expr *pHaving, sql_window_list *pWindows);
sql_select *sql_select_values(sql_parse_ctx *p, sql_token tValues, sql_expr_list *pRows);
/* TABLE t: SELECT * FROM t. */
sql_select *sql_select_table(sql_parse_ctx *p, sql_token tTable, sql_qname name);
sql_select *sql_select_compound(sql_parse_ctx *p, sql_select *pLeft, sql_token tOp,
                                sql_select_op eOp, int bAll, sql_select *pRight);
/* Attaches WITH, ORDER BY and LIMIT/OFFSET to pSelect (each may be
** absent); 42601 if pSelect, a parenthesized query, already has one. */
sql_select *sql_select_finish(sql_parse_ctx *p, sql_with *pWith, sql_select *pSelect,
                              sql_expr_list *pOrderBy, sql_limit limit);
sql_with *sql_with_new(sql_parse_ctx *p, sql_token tWith, int bRecursive);
sql_with *sql_with_append(sql_parse_ctx *p, sql_with *pWith, sql_cte *pCte);
sql_cte *sql_cte_new(sql_parse_ctx *p, sql_token tName, sql_name_list *pCols,
                     sql_cte_materialized eMaterialized, sql_select *pSelect);

/* LIMIT and OFFSET: a limit clause (NULL: none) and an offset. */
sql_limit sql_limit_new(sql_parse_ctx *p, const sql_limit *pLimit, sql_expr *pOffset);
/* LIMIT pCount (NULL: ALL), or FETCH (tFetch) FIRST pCount ROWS ONLY|WITH TIES. */
sql_limit sql_limit_count(sql_parse_ctx *p, sql_expr *pCount, sql_token tFetch, int bWithTies);

/* FROM items: each returns a new item, joined by sql_src_join and listed
** by sql_src_append. */
sql_src_item *sql_src_table(sql_parse_ctx *p, sql_qname name, const sql_alias *pAlias);
sql_src_item *sql_src_subquery(sql_parse_ctx *p, sql_token tAt, int bLateral, sql_select *pSelect,
                               const sql_alias *pAlias);
sql_src_item *sql_src_function(sql_parse_ctx *p, sql_token tLateral, sql_expr *pFunc,
                               int bOrdinality, const sql_alias *pAlias);
sql_src_item *sql_src_nested(sql_parse_ctx *p, sql_token tLp, sql_src_list *pList,
                             const sql_alias *pAlias);
sql_src_item *sql_src_join(sql_parse_ctx *p, sql_src_item *pItem, sql_joinop op, sql_expr *pOn,
                           sql_name_list *pUsing, sql_token tUsing);
sql_src_list *sql_src_append(sql_parse_ctx *p, sql_src_list *pList, sql_src_item *pItem);
static inline sql_alias sql_alias_new(sql_token tName, sql_name_list *pCols) {
  sql_alias a;
  a.tName = tName;
  a.pCols = pCols;
  return a;
}

/* Windows: a specification, OVER w, OVER (...) at its '(', and WINDOW
** clause definitions. */
sql_window *sql_window_new(sql_parse_ctx *p, sql_expr_list *pPartition, sql_expr_list *pOrderBy,
                           sql_frame frame);
/* pWin refining the window named tBase: OVER (w ORDER BY x). */
sql_window *sql_window_base(sql_parse_ctx *p, sql_window *pWin, sql_token tBase);
sql_window *sql_window_ref(sql_parse_ctx *p, sql_token tName);
sql_window *sql_window_at(sql_parse_ctx *p, sql_window *pWin, sql_token tLp);
sql_window_list *sql_window_define(sql_parse_ctx *p, sql_window_list *pList, sql_token tName,
                                   sql_window *pWin);
static inline sql_frame sql_frame_none(void) {
  sql_frame f;
  memset(&f, 0, sizeof(f));
  return f;
}
/* A frame of unit tUnit (ROWS, RANGE, GROUPS) from *pStart to *pEnd (NULL:
** CURRENT ROW); 42P20 for the bounds PostgreSQL refuses. */
sql_frame sql_frame_new(sql_parse_ctx *p, sql_token tUnit, int bBetween,
                        const sql_bound_spec *pStart, const sql_bound_spec *pEnd,
                        sql_frame_exclude eExclude);

/* ---- stmt.c: CREATE TABLE, EXPLAIN, statements ----------------------------------- */

sql_column_def *sql_column_new(sql_parse_ctx *p, sql_token tName, sql_type t);
/* NOT NULL (bNotNull) or NULL, written at token t; both on one column
** is 42601, as in PostgreSQL, reported when the column is added. */
void sql_column_not_null(sql_parse_ctx *p, sql_column_def *pCol, sql_token t, int bNotNull);
void sql_column_primary_key(sql_parse_ctx *p, sql_column_def *pCol);
void sql_column_references(sql_parse_ctx *p, sql_column_def *pCol, sql_token tTable,
                           sql_token tColumn);
sql_table_key *sql_table_key_new(sql_parse_ctx *p, sql_token tKey, int bForeign,
                                 sql_name_list *pCols, const sql_token *pRefTable,
                                 sql_name_list *pRefCols);
sql_create *sql_create_new(sql_parse_ctx *p, int bIfNotExists, sql_token tName);
sql_create *sql_create_add_column(sql_parse_ctx *p, sql_create *pCreate, sql_column_def *pCol);
sql_create *sql_create_add_key(sql_parse_ctx *p, sql_create *pCreate, sql_table_key *pKey);

/* tLast is the last token of EXPLAIN's prefix: the explained statement
** starts after it. */
sql_stmt *sql_explain_new(sql_parse_ctx *p, sql_token tLast, int bAnalyze, int bVerbose);
void sql_explain_end(sql_parse_ctx *p, sql_stmt *pExplain, sql_token tLast);
void sql_explain_option(sql_parse_ctx *p, sql_stmt *pExplain, sql_token tName, sql_token tArg);

sql_stmt *sql_stmt_new(sql_parse_ctx *p, sql_stmt_kind eKind);
sql_stmt *sql_stmt_select(sql_parse_ctx *p, sql_select *pSelect);
sql_stmt *sql_stmt_create(sql_parse_ctx *p, sql_create *pCreate);
sql_stmt *sql_stmt_drop(sql_parse_ctx *p, int bIfExists, sql_token tName);
sql_stmt *sql_stmt_explain(sql_parse_ctx *p, sql_stmt *pExplain, sql_stmt *pInner);

/* The grammar's accepting rule: the statement is complete. */
void sql__stmt_accept(sql_parse_ctx *p, sql_stmt *pStmt);

/* Returns the text of an option's argument token: a string without its
** quotes, a name folded, a number as written; NULL if t is absent. */
const char *sql__arg_text(sql_parse_ctx *p, sql_token t);
/* Reads a Boolean option value as PostgreSQL's parse_bool() does (an
** absent value is true). Returns 0 or 1, or -1 if z is no Boolean. */
int sql__arg_bool(const char *z);

/* ---- stmt-copy.c: COPY --------------------------------------------------------- */

/* COPY [BINARY (tBinary)] name [(pCols)] FROM|TO (bTo) tFile. */
sql_copy *sql_copy_new(sql_parse_ctx *p, sql_token tBinary, sql_qname name, sql_name_list *pCols,
                       int bTo, sql_token tFile);
/* COPY (pQuery) TO tFile; tLp is the query's '('. */
sql_copy *sql_copy_query(sql_parse_ctx *p, sql_token tLp, sql_select *pQuery, sql_token tFile);
void sql_copy_option(sql_parse_ctx *p, sql_copy *pCopy, const sql_copy_opt *pOpt);
/* The statement of a complete COPY: SQL_STMT_COPY (FROM), which the
** server runs, checked for what its loader cannot do; or SQL_STMT_COPY_TO. */
sql_stmt *sql_stmt_copy(sql_parse_ctx *p, sql_copy *pCopy);

/* ---- stmt-session.c: SET, SHOW, transactions, cursors ------------------------------ */

/* SHOW name (tName's text, or zName when given). */
sql_stmt *sql_stmt_show(sql_parse_ctx *p, sql_token tName, const char *zName);
sql_stmt *sql_stmt_reset(sql_parse_ctx *p, sql_token tName, const char *zName);
/* SET name (tName's text, or zName) to pValues (NULL: DEFAULT). */
sql_stmt *sql_stmt_set(sql_parse_ctx *p, sql_token tName, const char *zName,
                       sql_name_list *pValues);
sql_stmt *sql_stmt_set_transaction(sql_parse_ctx *p, int bSession, sql_txn_modes m);
sql_stmt *sql_stmt_begin(sql_parse_ctx *p, sql_txn_modes m);
/* COMMIT or ROLLBACK [AND CHAIN (tChain)]. */
sql_stmt *sql_stmt_txn_end(sql_parse_ctx *p, sql_stmt_kind eKind, sql_token tChain);
/* A statement of kind eKind naming tName (absent: ALL), as SAVEPOINT,
** RELEASE, ROLLBACK TO, CLOSE and DEALLOCATE do. */
sql_stmt *sql_stmt_named(sql_parse_ctx *p, sql_stmt_kind eKind, sql_token tName);
sql_stmt *sql_stmt_declare(sql_parse_ctx *p, sql_token tName, unsigned mOptions,
                           sql_select *pSelect);
sql_stmt *sql_stmt_fetch(sql_parse_ctx *p, int bMove, sql_fetch f);
sql_stmt *sql_stmt_discard(sql_parse_ctx *p, sql_token tWhat);

/* ---- deparse.c, deparse-select.c ------------------------------------------------ */

/* Writes name z, in double quotes where it must be to read back as itself
** (capitals, other characters, a reserved keyword). */
void sql__deparse_name(strbuf *s, const char *z);
/* Writes the expressions of p from index iFrom on, separated by ", ". */
void sql__deparse_list(strbuf *s, const sql_expr_list *p, int iFrom);
/* Writes an ORDER BY list: expressions with DESC and NULLS FIRST/LAST. */
void sql__deparse_order(strbuf *s, const sql_expr_list *p);
/* Writes a window: its name (OVER w) or its parenthesized specification. */
void sql__deparse_window(strbuf *s, const sql_window *w);
/* Writes type t with nArrayDim []. */
void sql__deparse_type(strbuf *s, coltype t, int nArrayDim);

/* ---- the lemon engine (build/gen/parser/parse.c) --------------------------- */

/* All of lempar.c's public functions, so that the generated file builds
** with -Wmissing-prototypes; the driver uses Alloc, Free, the parser
** itself and StackDepth (parse.y's %code). */

void *sqlParserAlloc(void *(*xMalloc)(size_t), sql_parse_ctx *pCtx);
void sqlParserFree(void *pParser, void (*xFree)(void *));
void sqlParser(void *pParser, int eMajor, sql_token minor);
int sqlParserStackDepth(void *pParser);
int sqlParserFallback(int iToken);
void sqlParserInit(void *pParser, sql_parse_ctx *pCtx);
void sqlParserFinalize(void *pParser);
#ifndef NDEBUG
void sqlParserTrace(FILE *pOut, char *zPrompt);
#endif

#endif /* STARQ_PARSE_INT_H */
