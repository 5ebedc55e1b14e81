/*
** parser/parse.y — the SQL grammar of starq, for the lemon LALR(1) parser
** generator (the Makefile turns it into build/gen/parser/parse.{c,h}).
**
** The grammar sees one statement at a time: the driver in parser.c cuts the
** input at each ';' and feeds the tokens of one statement followed by the
** end-of-input token, so the grammar never sees a ';'. Actions only build
** nodes through the constructors of ast.c (declared in parseInt.h), the way
** SQLite's parse.y calls sqlite3ExprAlloc(); what a construct means, and
** every error beyond a plain syntax error, is decided there.
**
** Keywords follow PostgreSQL: the reserved ones below can never be names;
** the ones listed under %fallback become identifiers wherever the grammar
** has no use for them as keywords, so that a table called "date" or a
** column called "year", "first" or "show" needs no quotes. NOT followed by
** BETWEEN, IN, LIKE or ILIKE reaches the grammar as NOTLA (PostgreSQL's
** NOT_LA), so that "a NOT LIKE b" binds like LIKE and not like NOT.
**
** Nothing here is freed on an error path: every node lives in the parse's
** arena, so no %destructor is needed; the engine itself is freed by the
** driver on every path.
*/

%name sqlParser
%token_prefix TK_
%token_type {sql_token}
%default_type {sql_token}
%extra_context {sql_parse_ctx *pCtx}
%start_symbol input

%include {
#include "parser/parseInt.h"

/* The first error ends the parse (the driver feeds no further token), so
** lemon's error recovery would only produce follow-on noise. */
#define YYNOERRORRECOVERY 1
/* The stack grows on the heap as needed; the driver bounds its depth
** with sqlParserStackDepth() (in %code below) after every token. */
#define YYSTACKDEPTH 0
/* The engine is only ever freed after a successful allocation. */
#define YYPARSEFREENEVERNULL 1
}

%syntax_error {
  sql__error_syntax(pCtx, TOKEN);
}

/* With YYSTACKDEPTH 0 the stack only "overflows" when growing it fails,
** which is running out of memory; the depth limit (54000) is enforced by
** the driver and the constructors before that can happen. */
%stack_overflow {
  sql__error_oom(pCtx);
}

/* Tokens the lexer returns that never reach the grammar: the driver
** skips blanks, reports illegal tokens and ends statements at ";". */
%token SPACE ILLEGAL SEMI.

/* Non-reserved keywords: identifiers unless the grammar wants a keyword. */
%fallback ID
  ABORT ALTER ANALYZE BEGIN CHAR CHARACTER COMMIT COPY DELETE DOUBLE DROP
  EXISTS EXPLAIN FILTER FIRST IF INSERT KEY LAST NULLS OVER PRECISION
  ROLLBACK SET SHOW START TABLES TRANSACTION TRUNCATE UPDATE VARYING VERBOSE
  WORK.

/* Reserved words that no rule uses: reserved so that "SELECT a INTO t" or
** "... FOR UPDATE" is a syntax error at the keyword, as in PostgreSQL,
** rather than an alias named "into". */
%token FETCH FOR INTO LATERAL WINDOW.

/* Precedence, lowest first, as PostgreSQL's gram.y. */
%left OR.
%left AND.
%right NOT.
%nonassoc IS.
%nonassoc EQ NE LT LE GT GE.
%nonassoc BETWEEN IN LIKE ILIKE NOTLA.
%left PLUS MINUS.
%left STAR SLASH REM.
%right UMINUS.
%left DCOLON.

/* ---- statements ---------------------------------------------------------- */

input ::= cmd(C).                                    { sql__stmt_accept(pCtx, C); }

%type cmd {sql_stmt *}
cmd(A) ::= select(S).                                { A = sql_stmt_select(pCtx, S); }
cmd(A) ::= explain(E) explainable(S).                { A = sql_stmt_explain(pCtx, E, S); }
cmd(A) ::= tabelems(C) RP.                           { A = sql_stmt_create(pCtx, C); }
cmd(A) ::= DROP TABLE ifexists(E) nm(N).             { A = sql_stmt_drop(pCtx, E, N); }
cmd(A) ::= copy(C).                                  { A = sql_stmt_copy(pCtx, C); }
cmd(A) ::= copyopts(C) RP.                           { A = sql_stmt_copy(pCtx, C); }
cmd(A) ::= SHOW TABLES.                              { A = sql_stmt_new(pCtx, SQL_STMT_SHOW_TABLES); }
cmd(A) ::= SHOW ALL(N).                              { A = sql_stmt_show(pCtx, N); }
cmd(A) ::= SHOW varname(N).                          { A = sql_stmt_show(pCtx, N); }
cmd(A) ::= SET varname(N) EQ setvalue(V).            { A = sql_stmt_set(pCtx, N, V); }
cmd(A) ::= SET varname(N) TO setvalue(V).            { A = sql_stmt_set(pCtx, N, V); }
cmd(A) ::= BEGIN transopt.                           { A = sql_stmt_new(pCtx, SQL_STMT_BEGIN); }
cmd(A) ::= START TRANSACTION.                        { A = sql_stmt_new(pCtx, SQL_STMT_BEGIN); }
cmd(A) ::= COMMIT transopt.                          { A = sql_stmt_new(pCtx, SQL_STMT_COMMIT); }
cmd(A) ::= END transopt.                             { A = sql_stmt_new(pCtx, SQL_STMT_COMMIT); }
cmd(A) ::= ROLLBACK transopt.                        { A = sql_stmt_new(pCtx, SQL_STMT_ROLLBACK); }
cmd(A) ::= ABORT transopt.                           { A = sql_stmt_new(pCtx, SQL_STMT_ROLLBACK); }

/* Statements starq recognises only to say why it will not run them. */
cmd(A) ::= INSERT(X).                                { A = sql_unsupported(pCtx, X); }
cmd(A) ::= UPDATE(X).                                { A = sql_unsupported(pCtx, X); }
cmd(A) ::= DELETE(X).                                { A = sql_unsupported(pCtx, X); }
cmd(A) ::= TRUNCATE(X).                              { A = sql_unsupported(pCtx, X); }
cmd(A) ::= ALTER(X).                                 { A = sql_unsupported(pCtx, X); }
cmd(A) ::= WITH(X).                                  { A = sql_unsupported(pCtx, X); }

transopt ::= .
transopt ::= WORK.
transopt ::= TRANSACTION.

/* SET and SHOW names may be dotted (starq.threads); the value is a name, a
** number or a string, kept as text. DEFAULT is the absent token. */
varname(A) ::= nm(A).
varname(A) ::= varname(X) DOT nm(Y).                 { A = sql_token_span(X, Y); }

setvalue(A) ::= nm(A).
setvalue(A) ::= STRING(A).
setvalue(A) ::= INTEGER(A).
setvalue(A) ::= DECIMAL(A).
setvalue(A) ::= MINUS(X) INTEGER(Y).                 { A = sql_token_span(X, Y); }
setvalue(A) ::= MINUS(X) DECIMAL(Y).                 { A = sql_token_span(X, Y); }
setvalue(A) ::= TRUE(A).
setvalue(A) ::= FALSE(A).
setvalue(A) ::= ON(A).
setvalue(A) ::= DEFAULT.                             { A = sql_token_none(); }

/* ---- EXPLAIN --------------------------------------------------------------- */

%type explain {sql_stmt *}
explain(A) ::= EXPLAIN(X).                           { A = sql_explain_new(pCtx, X, 0, 0); }
explain(A) ::= EXPLAIN ANALYZE(X).                   { A = sql_explain_new(pCtx, X, 1, 0); }
explain(A) ::= EXPLAIN VERBOSE(X).                   { A = sql_explain_new(pCtx, X, 0, 1); }
explain(A) ::= EXPLAIN ANALYZE VERBOSE(X).           { A = sql_explain_new(pCtx, X, 1, 1); }
explain(A) ::= explainopts(A) RP(X).                 { sql_explain_end(pCtx, A, X); }

%type explainlp {sql_stmt *}
explainlp(A) ::= EXPLAIN LP(X).                      { A = sql_explain_new(pCtx, X, 0, 0); }

%type explainopts {sql_stmt *}
explainopts(A) ::= explainlp(A) nm(N) optarg(V).     { sql_explain_option(pCtx, A, N, V); }
explainopts(A) ::= explainopts(A) COMMA nm(N) optarg(V).
                                                     { sql_explain_option(pCtx, A, N, V); }

%type explainable {sql_stmt *}
explainable(A) ::= select(S).                        { A = sql_stmt_select(pCtx, S); }

/* The argument of an EXPLAIN or COPY option; absent, or a word, number or
** string that the option's constructor judges. */
optarg(A) ::= .                                      { A = sql_token_none(); }
optarg(A) ::= nm(A).
optarg(A) ::= STRING(A).
optarg(A) ::= INTEGER(A).
optarg(A) ::= TRUE(A).
optarg(A) ::= FALSE(A).
optarg(A) ::= ON(A).

/* ---- CREATE TABLE, DROP TABLE ------------------------------------------------ */

%type ifnotexists {int}
ifnotexists(A) ::= .                                 { A = 0; }
ifnotexists(A) ::= IF NOT EXISTS.                    { A = 1; }

%type ifexists {int}
ifexists(A) ::= .                                    { A = 0; }
ifexists(A) ::= IF EXISTS.                           { A = 1; }

/* The table exists, with its name, before its columns: a column's errors
** can then name the table, as PostgreSQL's do. */
%type createhead {sql_create *}
createhead(A) ::= CREATE TABLE ifnotexists(E) nm(N) LP.
                                                     { A = sql_create_new(pCtx, E, N); }

%type tabelems {sql_create *}
tabelems(A) ::= createhead(A) coldef(C).             { A = sql_create_add_column(pCtx, A, C); }
tabelems(A) ::= createhead(A) tablekey(K).           { A = sql_create_add_key(pCtx, A, K); }
tabelems(A) ::= tabelems(A) COMMA coldef(C).         { A = sql_create_add_column(pCtx, A, C); }
tabelems(A) ::= tabelems(A) COMMA tablekey(K).       { A = sql_create_add_key(pCtx, A, K); }

/* A column and its constraints, in any order; CONSTRAINT names are
** accepted and dropped (starq never refers to a constraint by name). */
%type coldef {sql_column_def *}
coldef(A) ::= nm(N) type(T).                         { A = sql_column_new(pCtx, N, T); }
coldef(A) ::= coldef(A) NOT(X) NULL.                 { sql_column_not_null(pCtx, A, X, 1); }
coldef(A) ::= coldef(A) NULL(X).                     { sql_column_not_null(pCtx, A, X, 0); }
coldef(A) ::= coldef(A) PRIMARY KEY.                 { sql_column_primary_key(pCtx, A); }
coldef(A) ::= coldef(A) REFERENCES nm(T) refcol(C).  { sql_column_references(pCtx, A, T, C); }
coldef(A) ::= coldef(A) CONSTRAINT nm.
coldef(A) ::= coldef UNIQUE(X).                      { A = sql_unsupported(pCtx, X); }
coldef(A) ::= coldef CHECK(X).                       { A = sql_unsupported(pCtx, X); }
coldef(A) ::= coldef DEFAULT(X).                     { A = sql_unsupported(pCtx, X); }

refcol(A) ::= .                                      { A = sql_token_none(); }
refcol(A) ::= LP nm(X) RP.                           { A = X; }

%type tablekey {sql_table_key *}
tablekey(A) ::= PRIMARY(X) KEY LP namelist(L) RP.    { A = sql_table_key_new(pCtx, X, 0, L, 0, 0); }
tablekey(A) ::= FOREIGN(X) KEY LP namelist(L) RP REFERENCES nm(T) refcols(R).
                                                     { A = sql_table_key_new(pCtx, X, 1, L, &T, R); }
tablekey(A) ::= CONSTRAINT nm tablekey(X).           { A = X; }
tablekey(A) ::= UNIQUE(X).                           { A = sql_unsupported(pCtx, X); }
tablekey(A) ::= CHECK(X).                            { A = sql_unsupported(pCtx, X); }

%type refcols {sql_name_list *}
refcols(A) ::= .                                     { A = 0; }
refcols(A) ::= LP namelist(X) RP.                    { A = X; }

%type namelist {sql_name_list *}
namelist(A) ::= nm(N).                               { A = sql_name_list_append(pCtx, 0, N); }
namelist(A) ::= namelist(A) COMMA nm(N).             { A = sql_name_list_append(pCtx, A, N); }

/* Type names: one word, the two-word names of the SQL standard, and up to
** two integer modifiers. The text is judged by sql_type_new(). */
%type type {coltype}
type(A) ::= typename(N).                             { A = sql_type_new(pCtx, N, 0, 0); }
type(A) ::= typename(N) LP INTEGER(P) RP.            { A = sql_type_new(pCtx, N, &P, 0); }
type(A) ::= typename(N) LP INTEGER(P) COMMA INTEGER(S) RP.
                                                     { A = sql_type_new(pCtx, N, &P, &S); }

typename(A) ::= nm(A).
typename(A) ::= DOUBLE(A).
typename(A) ::= DOUBLE(X) PRECISION(Y).              { A = sql_token_span(X, Y); }
typename(A) ::= CHARACTER(A).
typename(A) ::= CHARACTER(X) VARYING(Y).             { A = sql_token_span(X, Y); }
typename(A) ::= CHAR(A).
typename(A) ::= CHAR(X) VARYING(Y).                  { A = sql_token_span(X, Y); }

/* ---- COPY ------------------------------------------------------------------ */

/* COPY t FROM 'file' [[WITH] (option [value], ...)]. The source is taken
** as any token so that FROM STDIN gets its own message. */
%type copy {sql_copy *}
copy(A) ::= COPY nm(T) FROM STRING(S).               { A = sql_copy_new(pCtx, T, S); }
copy(A) ::= COPY nm(T) FROM nm(S).                   { A = sql_copy_new(pCtx, T, S); }
copy(A) ::= COPY nm TO(X).                           { A = sql_unsupported(pCtx, X); }

%type copyopts {sql_copy *}
copyopts(A) ::= copy(A) withopt LP copyopt(N) optarg(V).
                                                     { sql_copy_option(pCtx, A, N, V); }
copyopts(A) ::= copyopts(A) COMMA copyopt(N) optarg(V).
                                                     { sql_copy_option(pCtx, A, N, V); }

withopt ::= .
withopt ::= WITH.

copyopt(A) ::= nm(A).
copyopt(A) ::= NULL(A).

/* ---- SELECT ------------------------------------------------------------------ */

%type select {sql_select *}
select(A) ::= selectcore(S) orderby(O) limit(L).     { A = sql_select_finish(pCtx, S, O, L); }

%type selectcore {sql_select *}
selectcore(A) ::= SELECT distinct(D) selcollist(W) from(F) where(X) groupby(G) having(H).
                                                     { A = sql_select_new(pCtx, D, W, F, X, G, H); }
selectcore(A) ::= selectcore setop(X).               { A = sql_unsupported(pCtx, X); }

setop(A) ::= UNION(A).
setop(A) ::= INTERSECT(A).
setop(A) ::= EXCEPT(A).

%type distinct {int}
distinct(A) ::= .                                    { A = 0; }
distinct(A) ::= ALL.                                 { A = 0; }
distinct(A) ::= DISTINCT.                            { A = 1; }
distinct(A) ::= DISTINCT ON(X).                      { A = sql_join_unsupported(pCtx, X); }

/* The select list: expressions with optional aliases, * and t.*. */
%type selcollist {sql_expr_list *}
%type sclp {sql_expr_list *}
sclp(A) ::= selcollist(A) COMMA.
sclp(A) ::= .                                        { A = 0; }
selcollist(A) ::= sclp(L) expr(X) alias(Y).          { A = sql_select_item_append(pCtx, L, X, Y); }
selcollist(A) ::= sclp(L) STAR(X).
    { A = sql_select_item_append(pCtx, L, sql_expr_star(pCtx, 0, X), sql_token_none()); }
selcollist(A) ::= sclp(L) nm(T) DOT STAR(X).
    { A = sql_select_item_append(pCtx, L, sql_expr_star(pCtx, &T, X), sql_token_none()); }

alias(A) ::= .                                       { A = sql_token_none(); }
alias(A) ::= AS nm(X).                               { A = X; }
alias(A) ::= nm(A).

/* FROM: comma joins and [INNER] JOIN ... ON; other joins are refused. */
%type from {sql_src_list *}
from(A) ::= .                                        { A = 0; }
from(A) ::= FROM seltablist(X).                      { A = X; }

%type seltablist {sql_src_list *}
seltablist(A) ::= nm(T) alias(Y).
    { A = sql_src_append(pCtx, 0, SQL_JOIN_COMMA, T, Y, 0); }
seltablist(A) ::= seltablist(A) COMMA nm(T) alias(Y).
    { A = sql_src_append(pCtx, A, SQL_JOIN_COMMA, T, Y, 0); }
seltablist(A) ::= seltablist(A) joinop(J) nm(T) alias(Y) ON expr(E).
    { A = sql_src_append(pCtx, A, J, T, Y, E); }
seltablist(A) ::= seltablist joinop nm alias USING(X).
                                                     { A = sql_unsupported(pCtx, X); }
seltablist(A) ::= LP subquery(X).                    { A = X; }
seltablist(A) ::= seltablist COMMA LP subquery(X).   { A = X; }
seltablist(A) ::= seltablist joinop LP subquery(X).  { A = X; }

%type joinop {sql_join}
joinop(A) ::= JOIN.                                  { A = SQL_JOIN_INNER; }
joinop(A) ::= INNER JOIN.                            { A = SQL_JOIN_INNER; }
joinop(A) ::= LEFT(X).                               { A = sql_join_unsupported(pCtx, X); }
joinop(A) ::= RIGHT(X).                              { A = sql_join_unsupported(pCtx, X); }
joinop(A) ::= FULL(X).                               { A = sql_join_unsupported(pCtx, X); }
joinop(A) ::= CROSS(X).                              { A = sql_join_unsupported(pCtx, X); }
joinop(A) ::= NATURAL(X).                            { A = sql_join_unsupported(pCtx, X); }

/* (SELECT ...) anywhere: recognised at its SELECT and refused. */
%type subquery {void *}
subquery(A) ::= SELECT(X).                           { A = sql_unsupported(pCtx, X); }

%type where {sql_expr *}
where(A) ::= .                                       { A = 0; }
where(A) ::= WHERE expr(X).                          { A = X; }

%type groupby {sql_expr_list *}
groupby(A) ::= .                                     { A = 0; }
groupby(A) ::= GROUP BY exprlist(X).                 { A = X; }

%type having {sql_expr *}
having(A) ::= .                                      { A = 0; }
having(A) ::= HAVING expr(X).                        { A = X; }

%type orderby {sql_expr_list *}
orderby(A) ::= .                                     { A = 0; }
orderby(A) ::= ORDER BY sortlist(X).                 { A = X; }

%type sortlist {sql_expr_list *}
sortlist(A) ::= sortlist(L) COMMA expr(X) sortorder(D) nulls(N).
                                                     { A = sql_order_append(pCtx, L, X, D, N); }
sortlist(A) ::= expr(X) sortorder(D) nulls(N).       { A = sql_order_append(pCtx, 0, X, D, N); }

%type sortorder {int}
sortorder(A) ::= .                                   { A = 0; }
sortorder(A) ::= ASC.                                { A = 0; }
sortorder(A) ::= DESC.                               { A = 1; }

%type nulls {sql_nulls}
nulls(A) ::= .                                       { A = SQL_NULLS_DEFAULT; }
nulls(A) ::= NULLS FIRST.                            { A = SQL_NULLS_FIRST; }
nulls(A) ::= NULLS LAST.                             { A = SQL_NULLS_LAST; }

/* LIMIT and OFFSET in either order; LIMIT ALL is no limit. */
%type limit {sql_limit}
limit(A) ::= .                                       { A = sql_limit_new(0, 0); }
limit(A) ::= LIMIT limitval(X).                      { A = sql_limit_new(X, 0); }
limit(A) ::= LIMIT limitval(X) OFFSET expr(Y).       { A = sql_limit_new(X, Y); }
limit(A) ::= OFFSET expr(Y).                         { A = sql_limit_new(0, Y); }
limit(A) ::= OFFSET expr(Y) LIMIT limitval(X).       { A = sql_limit_new(X, Y); }

%type limitval {sql_expr *}
limitval(A) ::= expr(A).
limitval(A) ::= ALL.                                 { A = 0; }

/* ---- expressions ------------------------------------------------------------- */

%type expr {sql_expr *}
%type exprlist {sql_expr_list *}

exprlist(A) ::= expr(X).                             { A = sql_expr_list_append(pCtx, 0, X); }
exprlist(A) ::= exprlist(A) COMMA expr(X).           { A = sql_expr_list_append(pCtx, A, X); }

expr(A) ::= LP expr(X) RP.                           { A = X; }
expr(A) ::= LP subquery(X).                          { A = X; }

expr(A) ::= INTEGER(X).                              { A = sql_expr_literal(pCtx, SQL_EXPR_INTEGER, X); }
expr(A) ::= DECIMAL(X).                              { A = sql_expr_literal(pCtx, SQL_EXPR_DECIMAL, X); }
expr(A) ::= STRING(X).                               { A = sql_expr_literal(pCtx, SQL_EXPR_STRING, X); }
expr(A) ::= NULL(X).                                 { A = sql_expr_literal(pCtx, SQL_EXPR_NULL, X); }
expr(A) ::= PARAM(X).                                { A = sql_expr_param(pCtx, X); }
expr(A) ::= TRUE(X).                                 { A = sql_expr_literal(pCtx, SQL_EXPR_BOOL, X); }
expr(A) ::= FALSE(X).                                { A = sql_expr_literal(pCtx, SQL_EXPR_BOOL, X); }
/* DATE '1997-12-31' and other "type 'text'" literals; "date" stays a name. */
expr(A) ::= nm(T) STRING(X).                         { A = sql_expr_typed_literal(pCtx, T, X); }

expr(A) ::= nm(X).                                   { A = sql_expr_column(pCtx, 0, X); }
expr(A) ::= nm(T) DOT nm(X).                         { A = sql_expr_column(pCtx, &T, X); }

expr(A) ::= func(A).
expr(A) ::= func OVER(X).                            { A = sql_unsupported(pCtx, X); }
expr(A) ::= func FILTER(X).                          { A = sql_unsupported(pCtx, X); }

%type func {sql_expr *}
func(A) ::= nm(N) LP RP.                             { A = sql_expr_func(pCtx, N, 0, 0, 0); }
func(A) ::= nm(N) LP STAR RP.                        { A = sql_expr_func(pCtx, N, 0, 0, 1); }
func(A) ::= nm(N) LP exprlist(L) RP.                 { A = sql_expr_func(pCtx, N, L, 0, 0); }
func(A) ::= nm(N) LP ALL exprlist(L) RP.             { A = sql_expr_func(pCtx, N, L, 0, 0); }
func(A) ::= nm(N) LP DISTINCT exprlist(L) RP.        { A = sql_expr_func(pCtx, N, L, 1, 0); }
func(A) ::= nm LP subquery(X).                       { A = X; }

expr(A) ::= CAST(C) LP expr(X) AS type(T) RP.        { A = sql_expr_cast(pCtx, C, X, T); }
expr(A) ::= expr(X) DCOLON(C) type(T).               { A = sql_expr_cast(pCtx, C, X, T); }

expr(A) ::= CASE(C) caseoperand(O) casewhens(L) caseelse(E) END.
                                                     { A = sql_expr_case(pCtx, C, O, L, E); }
%type caseoperand {sql_expr *}
caseoperand(A) ::= .                                 { A = 0; }
caseoperand(A) ::= expr(A).
%type casewhens {sql_expr_list *}
casewhens(A) ::= casewhens(L) WHEN expr(X) THEN expr(Y).
                                                     { A = sql_case_when_append(pCtx, L, X, Y); }
casewhens(A) ::= WHEN expr(X) THEN expr(Y).          { A = sql_case_when_append(pCtx, 0, X, Y); }
%type caseelse {sql_expr *}
caseelse(A) ::= .                                    { A = 0; }
caseelse(A) ::= ELSE expr(X).                        { A = X; }

expr(A) ::= expr(X) OR(O) expr(Y).                   { A = sql_expr_binary(pCtx, SQL_OP_OR, X, O, Y); }
expr(A) ::= expr(X) AND(O) expr(Y).                  { A = sql_expr_binary(pCtx, SQL_OP_AND, X, O, Y); }
expr(A) ::= NOT(O) expr(X).                          { A = sql_expr_unary(pCtx, SQL_OP_NOT, O, X); }
expr(A) ::= expr(X) EQ(O) expr(Y).                   { A = sql_expr_binary(pCtx, SQL_OP_EQ, X, O, Y); }
expr(A) ::= expr(X) NE(O) expr(Y).                   { A = sql_expr_binary(pCtx, SQL_OP_NE, X, O, Y); }
expr(A) ::= expr(X) LT(O) expr(Y).                   { A = sql_expr_binary(pCtx, SQL_OP_LT, X, O, Y); }
expr(A) ::= expr(X) LE(O) expr(Y).                   { A = sql_expr_binary(pCtx, SQL_OP_LE, X, O, Y); }
expr(A) ::= expr(X) GT(O) expr(Y).                   { A = sql_expr_binary(pCtx, SQL_OP_GT, X, O, Y); }
expr(A) ::= expr(X) GE(O) expr(Y).                   { A = sql_expr_binary(pCtx, SQL_OP_GE, X, O, Y); }
expr(A) ::= expr(X) PLUS(O) expr(Y).                 { A = sql_expr_binary(pCtx, SQL_OP_ADD, X, O, Y); }
expr(A) ::= expr(X) MINUS(O) expr(Y).                { A = sql_expr_binary(pCtx, SQL_OP_SUB, X, O, Y); }
expr(A) ::= expr(X) STAR(O) expr(Y).                 { A = sql_expr_binary(pCtx, SQL_OP_MUL, X, O, Y); }
expr(A) ::= expr(X) SLASH(O) expr(Y).                { A = sql_expr_binary(pCtx, SQL_OP_DIV, X, O, Y); }
expr(A) ::= expr(X) REM(O) expr(Y).                  { A = sql_expr_binary(pCtx, SQL_OP_MOD, X, O, Y); }
expr(A) ::= MINUS(O) expr(X). [UMINUS]               { A = sql_expr_unary(pCtx, SQL_OP_NEG, O, X); }
expr(A) ::= PLUS(O) expr(X). [UMINUS]                { A = sql_expr_unary(pCtx, SQL_OP_PLUS, O, X); }

expr(A) ::= expr(X) IS(O) NULL.                      { A = sql_expr_is_null(pCtx, X, O, 0); }
expr(A) ::= expr(X) IS(O) NOT NULL.                  { A = sql_expr_is_null(pCtx, X, O, 1); }
expr(A) ::= expr IS isunsupported(X).                { A = X; }
expr(A) ::= expr IS NOT isunsupported(X).            { A = X; }
%type isunsupported {sql_expr *}
isunsupported(A) ::= TRUE(X).                        { A = sql_unsupported(pCtx, X); }
isunsupported(A) ::= FALSE(X).                       { A = sql_unsupported(pCtx, X); }
isunsupported(A) ::= DISTINCT(X).                    { A = sql_unsupported(pCtx, X); }

expr(A) ::= expr(X) BETWEEN(O) expr(Y) AND expr(Z). [BETWEEN]
                                                     { A = sql_expr_between(pCtx, X, O, 0, Y, Z); }
expr(A) ::= expr(X) NOTLA(O) BETWEEN expr(Y) AND expr(Z). [BETWEEN]
                                                     { A = sql_expr_between(pCtx, X, O, 1, Y, Z); }
expr(A) ::= expr(X) IN(O) LP exprlist(L) RP.         { A = sql_expr_in(pCtx, X, O, 0, L); }
expr(A) ::= expr(X) NOTLA(O) IN LP exprlist(L) RP.   { A = sql_expr_in(pCtx, X, O, 1, L); }
expr(A) ::= expr IN LP subquery(X).                  { A = X; }
expr(A) ::= expr NOTLA IN LP subquery(X).            { A = X; }
expr(A) ::= expr(X) LIKE(O) expr(Y).                 { A = sql_expr_like(pCtx, X, O, 0, Y); }
expr(A) ::= expr(X) NOTLA(O) LIKE expr(Y). [LIKE]    { A = sql_expr_like(pCtx, X, O, 1, Y); }
expr(A) ::= expr ILIKE(O).                           { A = sql_unsupported(pCtx, O); }
expr(A) ::= expr NOTLA ILIKE(O).                     { A = sql_unsupported(pCtx, O); }

/* ---- names ------------------------------------------------------------------- */

/* An identifier, quoted or not; non-reserved keywords arrive here as ID
** through %fallback. The constructors fold or dequote it. */
nm(A) ::= ID(A).

/* ---- engine helpers ------------------------------------------------------------ */

%code {
/* Returns how many entries the engine's stack holds now. A token grows
** the stack by at most one shift (reductions only shrink it, or push one
** for an empty rule before that shift), so the driver's check after each
** token bounds the stack's peak. */
int sqlParserStackDepth(void *pEngine) {
  yyParser *pParser = (yyParser *)pEngine;
  return (int)(pParser->yytos - pParser->yystack);
}
}
