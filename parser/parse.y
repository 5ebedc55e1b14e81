/*
** parser/parse.y — the SQL grammar of starq, for the lemon LALR(1) parser
** generator (the Makefile turns it into build/gen/parser/parse.{c,h}).
**
** The grammar sees one statement at a time: the driver in parser.c cuts the
** input at each ';' and feeds the tokens of one statement followed by the
** end-of-input token, so the grammar never sees a ';'. Actions only build
** nodes through the constructors of ast*.c and stmt*.c (declared in
** parseInt.h), the way SQLite's parse.y calls sqlite3ExprAlloc(); what a
** construct means, and every error beyond a plain syntax error, is decided
** there. The grammar follows PostgreSQL 15's gram.y in what it accepts and
** how it nests; whether starq can run what it accepts is the binder's
** question (planner/bind.h), which refuses with 0A000 what it cannot.
**
** Keywords follow PostgreSQL: the reserved ones below can never be names;
** the ones listed under %fallback become identifiers wherever the grammar
** has no use for them as keywords, so that a table called "date" or a
** column called "year", "first" or "show" needs no quotes. Where such a
** keyword starts an expression of its own (EXISTS (...), POSITION(...),
** TIMESTAMP '...'), the rule "colkw" makes it a column name when what
** follows is not its syntax, as PostgreSQL's col_name_keyword. lemon tries
** the fallback when a keyword has no explicit action, and a state's most
** common reduction is implicit: so a state that shifts ID must never need
** a fallback keyword to reduce (parser/README.md, "Keywords"). NOT followed
** by BETWEEN, IN, LIKE, ILIKE or SIMILAR reaches the grammar as NOTLA
** (PostgreSQL's NOT_LA), so that "a NOT LIKE b" binds like LIKE and not
** like NOT.
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
  ABORT ABSOLUTE ALTER ANALYZE BACKWARD BEGIN BINARY CHAIN CHAR CHARACTER
  CHARACTERISTICS CLOSE COMMIT COMMITTED COPY CSV CUBE CURRENT CURSOR DAY
  DEALLOCATE DECLARE DEFERRABLE DELETE DELIMITER DISCARD DOUBLE DROP ENCODING
  ESCAPE EXCLUDE EXISTS EXPLAIN EXTRACT FILTER FIRST FOLLOWING FORCE FORWARD
  FREEZE GROUPING GROUPS HEADER HOLD HOUR IF INSENSITIVE INSERT INTERVAL
  ISOLATION KEY LAST LEVEL LOCAL MATERIALIZED MINUTE MONTH MOVE NAMES NEXT NO
  NULLS OPERATOR ORDINALITY OTHERS OVER OVERLAY PARTITION PLANS POSITION
  PRECEDING PRECISION PREPARE PRIOR PROGRAM QUOTE RANGE READ RECURSIVE
  RELATIVE RELEASE REPEATABLE RESET ROLLBACK ROLLUP ROW ROWS SAVEPOINT SCHEMA
  SCROLL SECOND SEQUENCES SERIALIZABLE SESSION SET SETS SHOW START SUBSTRING
  TABLES TEMP TEMPORARY TIES TIME TIMESTAMP TRANSACTION TREAT TRIM TRUNCATE
  UNBOUNDED UNCOMMITTED UNKNOWN UPDATE VALUES VARYING VERBOSE WITHIN WITHOUT
  WORK WRITE YEAR ZONE.

/* Reserved words that no rule uses: reserved so that "SELECT a INTO t" is
** a syntax error at the keyword, as in PostgreSQL, rather than an alias
** named "into". */
%token INTO.

/* Precedence, lowest first, as PostgreSQL's gram.y. SUBQUERY ranks the
** rule that reads "(SELECT ...)" as a scalar subquery below the one that
** reads it as a parenthesized query, so that "x IN ((SELECT 1))" is an IN
** over a query, as in PostgreSQL. ELEMENT ranks a type without (more)
** array brackets below "[", so that "x::int[]" is an array type and
** "x::int[][]" one of two dimensions. */
%left SUBQUERY.
%left UNION EXCEPT.
%left INTERSECT.
%left OR.
%left AND.
%right NOT.
%nonassoc IS.
%nonassoc EQ NE LT LE GT GE.
%nonassoc BETWEEN IN LIKE ILIKE SIMILAR NOTLA.
%nonassoc ESCAPE.
%left OP OPERATOR.
%left PLUS MINUS.
%left STAR SLASH REM.
%left CARET.
%left COLLATE.
%right UMINUS.
%left ELEMENT.
%left LB RB.
%left LP RP.
%left DCOLON.
%left DOT.

/* ---- statements ---------------------------------------------------------- */

input ::= cmd(C).                                    { sql__stmt_accept(pCtx, C); }

%type cmd {sql_stmt *}
cmd(A) ::= select(S).                                { A = sql_stmt_select(pCtx, S); }
cmd(A) ::= EXPLAIN(X) explainable(S).                { A = sql_stmt_explain(pCtx, sql_explain_new(pCtx, X, 0, 0), S); }
cmd(A) ::= explain(E) explainable(S).                { A = sql_stmt_explain(pCtx, E, S); }
cmd(A) ::= tabelems(C) RP.                           { A = sql_stmt_create(pCtx, C); }
cmd(A) ::= DROP TABLE ifexists(E) nm(N).             { A = sql_stmt_drop(pCtx, E, N); }
cmd(A) ::= copy(C).                                  { A = sql_stmt_copy(pCtx, C); }

/* Statements starq recognises only to say why it will not run them. */
cmd(A) ::= INSERT(X).                                { A = sql_unsupported(pCtx, X); }
cmd(A) ::= UPDATE(X).                                { A = sql_unsupported(pCtx, X); }
cmd(A) ::= DELETE(X).                                { A = sql_unsupported(pCtx, X); }
cmd(A) ::= TRUNCATE(X).                              { A = sql_unsupported(pCtx, X); }
cmd(A) ::= ALTER(X).                                 { A = sql_unsupported(pCtx, X); }

/* ---- SHOW, SET, RESET ------------------------------------------------------ */

cmd(A) ::= SHOW TABLES.                              { A = sql_stmt_new(pCtx, SQL_STMT_SHOW_TABLES); }
cmd(A) ::= SHOW ALL(N).                              { A = sql_stmt_show(pCtx, N, 0); }
cmd(A) ::= SHOW varname(N).                          { A = sql_stmt_show(pCtx, N, 0); }
cmd(A) ::= SHOW TIME(N) ZONE.                        { A = sql_stmt_show(pCtx, N, "timezone"); }
cmd(A) ::= SHOW TRANSACTION(N) ISOLATION LEVEL.
    { A = sql_stmt_show(pCtx, N, "transaction_isolation"); }
cmd(A) ::= RESET ALL(N).                             { A = sql_stmt_reset(pCtx, N, 0); }
cmd(A) ::= RESET varname(N).                         { A = sql_stmt_reset(pCtx, N, 0); }
cmd(A) ::= RESET TIME(N) ZONE.                       { A = sql_stmt_reset(pCtx, N, "timezone"); }
cmd(A) ::= SET setrest(Z). { A = Z; }
cmd(A) ::= SET SESSION setrest(Z). { A = Z; }
cmd(A) ::= SET LOCAL(X) setrest.                     { A = sql_unsupported(pCtx, X); }
cmd(A) ::= SET TRANSACTION txnmodes(M).              { A = sql_stmt_set_transaction(pCtx, 0, M); }
cmd(A) ::= SET SESSION CHARACTERISTICS AS TRANSACTION txnmodes(M).
                                                     { A = sql_stmt_set_transaction(pCtx, 1, M); }

/* SET and SHOW names may be dotted (starq.threads). A value is a name, a
** number or a string, kept as text; several make a list. */
varname(A) ::= nm(A).
varname(A) ::= varname(X) DOT nm(Y).                 { A = sql_token_span(X, Y); }

%type setrest {sql_stmt *}
setrest(A) ::= varname(N) EQ setvalues(V).           { A = sql_stmt_set(pCtx, N, 0, V); }
setrest(A) ::= varname(N) TO setvalues(V).           { A = sql_stmt_set(pCtx, N, 0, V); }
setrest(A) ::= varname(N) EQ DEFAULT.                { A = sql_stmt_set(pCtx, N, 0, 0); }
setrest(A) ::= varname(N) TO DEFAULT.                { A = sql_stmt_set(pCtx, N, 0, 0); }
setrest(A) ::= TIME(N) ZONE zonevalue(V).            { A = sql_stmt_set(pCtx, N, "timezone", V); }
setrest(A) ::= NAMES(N) setvalues(V).                { A = sql_stmt_set(pCtx, N, "client_encoding", V); }
setrest(A) ::= NAMES(N) DEFAULT.                     { A = sql_stmt_set(pCtx, N, "client_encoding", 0); }
setrest(A) ::= SCHEMA(N) STRING(V).
    { A = sql_stmt_set(pCtx, N, "search_path", sql_value_list_append(pCtx, 0, V)); }

%type setvalues {sql_name_list *}
setvalues(A) ::= setvalue(V).                        { A = sql_value_list_append(pCtx, 0, V); }
setvalues(A) ::= setvalues(A) COMMA setvalue(V).     { A = sql_value_list_append(pCtx, A, V); }

setvalue(A) ::= nm(A).
setvalue(A) ::= STRING(A).
setvalue(A) ::= signednum(A).
setvalue(A) ::= TRUE(A).
setvalue(A) ::= FALSE(A).
setvalue(A) ::= ON(A).

signednum(A) ::= INTEGER(A).
signednum(A) ::= DECIMAL(A).
signednum(A) ::= MINUS(X) INTEGER(Y).                { A = sql_token_span(X, Y); }
signednum(A) ::= MINUS(X) DECIMAL(Y).                { A = sql_token_span(X, Y); }
signednum(A) ::= PLUS INTEGER(Z). { A = Z; }
signednum(A) ::= PLUS DECIMAL(Z). { A = Z; }

/* SET TIME ZONE: LOCAL and DEFAULT are the default; an INTERVAL zone is
** refused. */
%type zonevalue {sql_name_list *}
zonevalue(A) ::= STRING(V).                          { A = sql_value_list_append(pCtx, 0, V); }
zonevalue(A) ::= nm(V).                              { A = sql_value_list_append(pCtx, 0, V); }
zonevalue(A) ::= signednum(V).                       { A = sql_value_list_append(pCtx, 0, V); }
zonevalue(A) ::= DEFAULT.                            { A = 0; }
zonevalue(A) ::= LOCAL.                              { A = 0; }
zonevalue(A) ::= INTERVAL(X).                        { A = sql_unsupported(pCtx, X); }

/* ---- transactions ----------------------------------------------------------- */

cmd(A) ::= BEGIN transopt txnmodesopt(M).            { A = sql_stmt_begin(pCtx, M); }
cmd(A) ::= START TRANSACTION txnmodesopt(M).         { A = sql_stmt_begin(pCtx, M); }
cmd(A) ::= COMMIT transopt chain(C).                 { A = sql_stmt_txn_end(pCtx, SQL_STMT_COMMIT, C); }
cmd(A) ::= END transopt chain(C).                    { A = sql_stmt_txn_end(pCtx, SQL_STMT_COMMIT, C); }
cmd(A) ::= ROLLBACK transopt chain(C).               { A = sql_stmt_txn_end(pCtx, SQL_STMT_ROLLBACK, C); }
cmd(A) ::= ABORT transopt chain(C).                  { A = sql_stmt_txn_end(pCtx, SQL_STMT_ROLLBACK, C); }
cmd(A) ::= SAVEPOINT nm(N).                          { A = sql_stmt_named(pCtx, SQL_STMT_SAVEPOINT, N); }
cmd(A) ::= RELEASE nm(N).                            { A = sql_stmt_named(pCtx, SQL_STMT_RELEASE, N); }
cmd(A) ::= RELEASE SAVEPOINT nm(N).                  { A = sql_stmt_named(pCtx, SQL_STMT_RELEASE, N); }
cmd(A) ::= ROLLBACK transopt TO nm(N).               { A = sql_stmt_named(pCtx, SQL_STMT_ROLLBACK_TO, N); }
cmd(A) ::= ROLLBACK transopt TO SAVEPOINT nm(N).     { A = sql_stmt_named(pCtx, SQL_STMT_ROLLBACK_TO, N); }

transopt ::= .
transopt ::= WORK.
transopt ::= TRANSACTION.

/* AND CHAIN: the token of CHAIN, absent for none. */
chain(A) ::= .                                       { A = sql_token_none(); }
chain(A) ::= AND NO CHAIN.                           { A = sql_token_none(); }
chain(A) ::= AND CHAIN(Z). { A = Z; }

%type txnmodesopt {sql_txn_modes}
txnmodesopt(A) ::= .                                 { A = sql_txn_modes_none(); }
txnmodesopt(A) ::= txnmodes(A).

%type txnmodes {sql_txn_modes}
txnmodes(A) ::= txnmode(A).
txnmodes(A) ::= txnmodes(X) txnmode(Y).              { A = sql_txn_modes_merge(X, Y); }
txnmodes(A) ::= txnmodes(X) COMMA txnmode(Y).        { A = sql_txn_modes_merge(X, Y); }

%type txnmode {sql_txn_modes}
txnmode(A) ::= ISOLATION LEVEL READ UNCOMMITTED.     { A = sql_txn_mode(SQL_ISOLATION_READ_UNCOMMITTED, 0, 0); }
txnmode(A) ::= ISOLATION LEVEL READ COMMITTED.       { A = sql_txn_mode(SQL_ISOLATION_READ_COMMITTED, 0, 0); }
txnmode(A) ::= ISOLATION LEVEL REPEATABLE READ.      { A = sql_txn_mode(SQL_ISOLATION_REPEATABLE_READ, 0, 0); }
txnmode(A) ::= ISOLATION LEVEL SERIALIZABLE.         { A = sql_txn_mode(SQL_ISOLATION_SERIALIZABLE, 0, 0); }
txnmode(A) ::= READ ONLY.                            { A = sql_txn_mode(0, 1, 0); }
txnmode(A) ::= READ WRITE.                           { A = sql_txn_mode(0, 2, 0); }
txnmode(A) ::= DEFERRABLE.                           { A = sql_txn_mode(0, 0, 1); }
txnmode(A) ::= NOT DEFERRABLE.                       { A = sql_txn_mode(0, 0, 2); }

/* ---- cursors and prepared statements ------------------------------------------ */

cmd(A) ::= DECLARE nm(N) cursoropts(O) CURSOR hold(H) FOR select(S).
                                                     { A = sql_stmt_declare(pCtx, N, O | H, S); }
%type cursoropts {unsigned}
cursoropts(A) ::= .                                  { A = 0; }
cursoropts(A) ::= cursoropts(X) BINARY.              { A = X | SQL_CURSOR_BINARY; }
cursoropts(A) ::= cursoropts(X) INSENSITIVE.         { A = X | SQL_CURSOR_INSENSITIVE; }
cursoropts(A) ::= cursoropts(X) SCROLL.              { A = X | SQL_CURSOR_SCROLL; }
cursoropts(A) ::= cursoropts(X) NO SCROLL.           { A = X | SQL_CURSOR_NO_SCROLL; }
%type hold {unsigned}
hold(A) ::= .                                        { A = 0; }
hold(A) ::= WITH HOLD.                               { A = SQL_CURSOR_HOLD; }
hold(A) ::= WITHOUT HOLD.                            { A = 0; }

cmd(A) ::= FETCH fetchargs(F).                       { A = sql_stmt_fetch(pCtx, 0, F); }
cmd(A) ::= MOVE fetchargs(F).                        { A = sql_stmt_fetch(pCtx, 1, F); }

%type fetchargs {sql_fetch}
fetchargs(A) ::= nm(N).                              { A = sql_fetch_cursor(sql_fetch_new(SQL_FETCH_FORWARD, 0, 0, 1), N); }
fetchargs(A) ::= fromin nm(N).                       { A = sql_fetch_cursor(sql_fetch_new(SQL_FETCH_FORWARD, 0, 0, 1), N); }
fetchargs(A) ::= fetchdir(D) fromin nm(N).           { A = sql_fetch_cursor(D, N); }
fetchargs(A) ::= fetchdir(D) nm(N).                  { A = sql_fetch_cursor(D, N); }
fromin ::= FROM.
fromin ::= IN.

%type fetchdir {sql_fetch}
fetchdir(A) ::= NEXT.                                { A = sql_fetch_new(SQL_FETCH_FORWARD, 0, 0, 1); }
fetchdir(A) ::= PRIOR.                               { A = sql_fetch_new(SQL_FETCH_BACKWARD, 0, 0, 1); }
fetchdir(A) ::= FIRST.                               { A = sql_fetch_new(SQL_FETCH_ABSOLUTE, 0, 0, 1); }
fetchdir(A) ::= LAST.                                { A = sql_fetch_new(SQL_FETCH_ABSOLUTE, 0, 0, -1); }
fetchdir(A) ::= ABSOLUTE signedint(N).               { A = sql_fetch_new(SQL_FETCH_ABSOLUTE, &N, 0, 0); }
fetchdir(A) ::= RELATIVE signedint(N).               { A = sql_fetch_new(SQL_FETCH_RELATIVE, &N, 0, 0); }
fetchdir(A) ::= signedint(N).                        { A = sql_fetch_new(SQL_FETCH_FORWARD, &N, 0, 0); }
fetchdir(A) ::= ALL.                                 { A = sql_fetch_new(SQL_FETCH_FORWARD, 0, 1, 0); }
fetchdir(A) ::= FORWARD.                             { A = sql_fetch_new(SQL_FETCH_FORWARD, 0, 0, 1); }
fetchdir(A) ::= FORWARD signedint(N).                { A = sql_fetch_new(SQL_FETCH_FORWARD, &N, 0, 0); }
fetchdir(A) ::= FORWARD ALL.                         { A = sql_fetch_new(SQL_FETCH_FORWARD, 0, 1, 0); }
fetchdir(A) ::= BACKWARD.                            { A = sql_fetch_new(SQL_FETCH_BACKWARD, 0, 0, 1); }
fetchdir(A) ::= BACKWARD signedint(N).               { A = sql_fetch_new(SQL_FETCH_BACKWARD, &N, 0, 0); }
fetchdir(A) ::= BACKWARD ALL.                        { A = sql_fetch_new(SQL_FETCH_BACKWARD, 0, 1, 0); }

signedint(A) ::= INTEGER(A).
signedint(A) ::= PLUS INTEGER(Z). { A = Z; }
signedint(A) ::= MINUS(X) INTEGER(Y).                { A = sql_token_span(X, Y); }

cmd(A) ::= CLOSE nm(N).                              { A = sql_stmt_named(pCtx, SQL_STMT_CLOSE, N); }
cmd(A) ::= CLOSE ALL.                                { A = sql_stmt_named(pCtx, SQL_STMT_CLOSE, sql_token_none()); }
cmd(A) ::= DEALLOCATE nm(N).                         { A = sql_stmt_named(pCtx, SQL_STMT_DEALLOCATE, N); }
cmd(A) ::= DEALLOCATE PREPARE nm(N).                 { A = sql_stmt_named(pCtx, SQL_STMT_DEALLOCATE, N); }
cmd(A) ::= DEALLOCATE ALL.                           { A = sql_stmt_named(pCtx, SQL_STMT_DEALLOCATE, sql_token_none()); }
cmd(A) ::= DEALLOCATE PREPARE ALL.                   { A = sql_stmt_named(pCtx, SQL_STMT_DEALLOCATE, sql_token_none()); }
cmd(A) ::= DISCARD ALL(N).                           { A = sql_stmt_discard(pCtx, N); }
cmd(A) ::= DISCARD PLANS(N).                         { A = sql_stmt_discard(pCtx, N); }
cmd(A) ::= DISCARD SEQUENCES(N).                     { A = sql_stmt_discard(pCtx, N); }
cmd(A) ::= DISCARD TEMP(N).                          { A = sql_stmt_discard(pCtx, N); }
cmd(A) ::= DISCARD TEMPORARY(N).                     { A = sql_stmt_discard(pCtx, N); }

/* ---- EXPLAIN --------------------------------------------------------------- */

/* EXPLAIN alone is a rule of cmd: "EXPLAIN (SELECT 1)" and "EXPLAIN
** (ANALYZE) SELECT 1" part only after the '('. */
%type explain {sql_stmt *}
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

/* ---- type names -------------------------------------------------------------- */

/* A type: one word or a schema-qualified one, the multi-word names of the
** SQL standard, up to two integer modifiers, the time types with their
** precision and time zone, INTERVAL with its fields, and [] for arrays.
** The text is judged by sql_type_new(). */
%type type {sql_type}
type(A) ::= simpletype(A). [ELEMENT]
type(A) ::= simpletype(T) arraybounds(N). [ELEMENT]  { A = sql_type_array(pCtx, T, N); }

%type arraybounds {int}
arraybounds(A) ::= LB RB.                            { A = 1; }
arraybounds(A) ::= LB INTEGER RB.                    { A = 1; }
arraybounds(A) ::= arraybounds(X) LB RB.             { A = X + 1; }
arraybounds(A) ::= arraybounds(X) LB INTEGER RB.     { A = X + 1; }

%type simpletype {sql_type}
simpletype(A) ::= typename(N).                       { A = sql_type_new(pCtx, N, 0, 0); }
simpletype(A) ::= typename(N) LP INTEGER(P) RP.      { A = sql_type_new(pCtx, N, &P, 0); }
simpletype(A) ::= typename(N) LP INTEGER(P) COMMA INTEGER(S) RP.
                                                     { A = sql_type_new(pCtx, N, &P, &S); }
simpletype(A) ::= timetype(A).
simpletype(A) ::= INTERVAL(X) ifields(F).            { A = sql_type_interval(pCtx, X, F, 0); }
simpletype(A) ::= INTERVAL(X) LP INTEGER(P) RP.      { A = sql_type_interval(pCtx, X, sql_ifields_none(), &P); }

typename(A) ::= nm(A).
typename(A) ::= nm(X) DOT nm(Y).                     { A = sql_token_span(X, Y); }
typename(A) ::= DOUBLE(A).
typename(A) ::= DOUBLE(X) PRECISION(Y).              { A = sql_token_span(X, Y); }
typename(A) ::= CHARACTER(A).
typename(A) ::= CHARACTER(X) VARYING(Y).             { A = sql_token_span(X, Y); }
typename(A) ::= CHAR(A).
typename(A) ::= CHAR(X) VARYING(Y).                  { A = sql_token_span(X, Y); }

%type timetype {sql_type}
timetype(A) ::= TIMESTAMP(X) timeprec(P) timezone(Z). { A = sql_type_time(pCtx, X, 0, P, Z); }
timetype(A) ::= TIME(X) timeprec(P) timezone(Z).      { A = sql_type_time(pCtx, X, 1, P, Z); }

timeprec(A) ::= .                                    { A = sql_token_none(); }
timeprec(A) ::= LP INTEGER(Z) RP. { A = Z; }

%type timezone {int}
timezone(A) ::= .                                    { A = 0; }
timezone(A) ::= WITH TIME ZONE.                      { A = 1; }
timezone(A) ::= WITHOUT TIME ZONE.                   { A = 0; }

/* INTERVAL's fields: DAY, DAY TO SECOND, SECOND(3), ... */
%type ifields {sql_ifields}
ifields(A) ::= .                                     { A = sql_ifields_none(); }
ifields(A) ::= ifield(F).                            { A = sql_ifields_new(pCtx, F, sql_token_none(), 0); }
ifields(A) ::= ifield(F) LP INTEGER(P) RP.           { A = sql_ifields_new(pCtx, F, sql_token_none(), &P); }
ifields(A) ::= ifield(F) TO ifield(L).               { A = sql_ifields_new(pCtx, F, L, 0); }
ifields(A) ::= ifield(F) TO ifield(L) LP INTEGER(P) RP.
                                                     { A = sql_ifields_new(pCtx, F, L, &P); }
ifield(A) ::= YEAR(A).
ifield(A) ::= MONTH(A).
ifield(A) ::= DAY(A).
ifield(A) ::= HOUR(A).
ifield(A) ::= MINUTE(A).
ifield(A) ::= SECOND(A).

/* ---- COPY ------------------------------------------------------------------ */

/* COPY [BINARY] t [(cols)] FROM|TO 'file'|STDIN|STDOUT [[WITH] (option
** [value], ...)] or with the older options ([WITH] CSV HEADER DELIMITER
** AS ',' ...), and COPY (query) TO .... */
%type copy {sql_copy *}
copy(A) ::= copyhead(A).
copy(A) ::= copyopts(A) RP.
copy(A) ::= copyold(A).

%type copyhead {sql_copy *}
copyhead(A) ::= COPY copybinary(B) qname(T) copycols(C) FROM copyfile(F).
                                                     { A = sql_copy_new(pCtx, B, T, C, 0, F); }
copyhead(A) ::= COPY copybinary(B) qname(T) copycols(C) TO copyfile(F).
                                                     { A = sql_copy_new(pCtx, B, T, C, 1, F); }
copyhead(A) ::= COPY LP(X) select(S) RP TO copyfile(F).
                                                     { A = sql_copy_query(pCtx, X, S, F); }

copybinary(A) ::= .                                  { A = sql_token_none(); }
copybinary(A) ::= BINARY(A).

%type copycols {sql_name_list *}
copycols(A) ::= .                                    { A = 0; }
copycols(A) ::= LP(X) namelist(L) RP.                { A = sql_name_list_at(pCtx, L, X); }

/* The file: a string, or STDIN / STDOUT (names the constructor checks);
** PROGRAM 'command' is refused. */
copyfile(A) ::= STRING(A).
copyfile(A) ::= nm(A).
copyfile(A) ::= PROGRAM(X) STRING.                   { A = X; sql_unsupported(pCtx, X); }

%type copyopts {sql_copy *}
copyopts(A) ::= copyhead(A) LP copyopt(O).           { sql_copy_option(pCtx, A, &O); }
copyopts(A) ::= copyhead(A) WITH LP copyopt(O).      { sql_copy_option(pCtx, A, &O); }
copyopts(A) ::= copyopts(A) COMMA copyopt(O).        { sql_copy_option(pCtx, A, &O); }

%type copyopt {sql_copy_opt}
copyopt(A) ::= nm(N) copyarg(V).                     { A = sql_copy_opt_named(N, V); }
copyopt(A) ::= NULL(N) copyarg(V).                   { A = sql_copy_opt_named(N, V); }

%type copyarg {sql_copy_opt}
copyarg(A) ::= optarg(V).                            { A = sql_copy_opt_new(V, 0, 0); }
copyarg(A) ::= DECIMAL(V).                           { A = sql_copy_opt_new(V, 0, 0); }
copyarg(A) ::= STAR(V).                              { A = sql_copy_opt_new(V, 0, 1); }
copyarg(A) ::= LP namelist(L) RP.                    { A = sql_copy_opt_new(sql_token_none(), L, 0); }

%type copyold {sql_copy *}
copyold(A) ::= copyhead(A) copyitem(O).              { sql_copy_option(pCtx, A, &O); }
copyold(A) ::= copyhead(A) WITH copyitem(O).         { sql_copy_option(pCtx, A, &O); }
copyold(A) ::= copyold(A) copyitem(O).               { sql_copy_option(pCtx, A, &O); }

/* The older option syntax, each item as the option it stands for. */
%type copyitem {sql_copy_opt}
copyitem(A) ::= BINARY(X).                           { A = sql_copy_opt_old(X, "format", X, 0, 0); }
copyitem(A) ::= CSV(X).                              { A = sql_copy_opt_old(X, "format", X, 0, 0); }
copyitem(A) ::= HEADER(X).                           { A = sql_copy_opt_old(X, "header", sql_token_none(), 0, 0); }
copyitem(A) ::= FREEZE(X).                           { A = sql_copy_opt_old(X, "freeze", sql_token_none(), 0, 0); }
copyitem(A) ::= DELIMITER(X) asopt STRING(V).        { A = sql_copy_opt_old(X, "delimiter", V, 0, 0); }
copyitem(A) ::= NULL(X) asopt STRING(V).             { A = sql_copy_opt_old(X, "null", V, 0, 0); }
copyitem(A) ::= QUOTE(X) asopt STRING(V).            { A = sql_copy_opt_old(X, "quote", V, 0, 0); }
copyitem(A) ::= ESCAPE(X) asopt STRING(V).           { A = sql_copy_opt_old(X, "escape", V, 0, 0); }
copyitem(A) ::= ENCODING(X) STRING(V).               { A = sql_copy_opt_old(X, "encoding", V, 0, 0); }
copyitem(A) ::= FORCE(X) QUOTE namelist(L).          { A = sql_copy_opt_old(X, "force_quote", sql_token_none(), L, 0); }
copyitem(A) ::= FORCE(X) QUOTE STAR.                 { A = sql_copy_opt_old(X, "force_quote", sql_token_none(), 0, 1); }
copyitem(A) ::= FORCE(X) NOT NULL namelist(L).       { A = sql_copy_opt_old(X, "force_not_null", sql_token_none(), L, 0); }
copyitem(A) ::= FORCE(X) NULL namelist(L).           { A = sql_copy_opt_old(X, "force_null", sql_token_none(), L, 0); }

asopt ::= .
asopt ::= AS.

/* ---- SELECT ------------------------------------------------------------------ */

/* A query, with what applies to the whole of it: WITH before, ORDER BY and
** LIMIT after (PostgreSQL's select_no_parens). */
%type select {sql_select *}
select(A) ::= selectclause(S) orderby(O) limit(L).   { A = sql_select_finish(pCtx, 0, S, O, L); }
select(A) ::= with(W) selectclause(S) orderby(O) limit(L).
                                                     { A = sql_select_finish(pCtx, W, S, O, L); }

%type with {sql_with *}
with(A) ::= WITH(X) cte(C).                          { A = sql_with_append(pCtx, sql_with_new(pCtx, X, 0), C); }
with(A) ::= WITH(X) RECURSIVE cte(C).                { A = sql_with_append(pCtx, sql_with_new(pCtx, X, 1), C); }
with(A) ::= with(A) COMMA cte(C).                    { A = sql_with_append(pCtx, A, C); }

%type cte {sql_cte *}
cte(A) ::= nm(N) AS materialized(M) LP select(S) RP. { A = sql_cte_new(pCtx, N, 0, M, S); }
cte(A) ::= nm(N) LP namelist(L) RP AS materialized(M) LP select(S) RP.
                                                     { A = sql_cte_new(pCtx, N, L, M, S); }

%type materialized {sql_cte_materialized}
materialized(A) ::= .                                { A = SQL_CTE_DEFAULT; }
materialized(A) ::= MATERIALIZED.                    { A = SQL_CTE_MATERIALIZED; }
materialized(A) ::= NOT MATERIALIZED.                { A = SQL_CTE_NOT_MATERIALIZED; }

/* A query without ORDER BY and LIMIT, or one in parentheses with them;
** INTERSECT binds tighter than UNION and EXCEPT. */
%type selectclause {sql_select *}
selectclause(A) ::= simpleselect(A).
selectclause(A) ::= LP select(Z) RP. { A = Z; }
selectclause(A) ::= selectclause(X) UNION(O) setquantifier(Q) selectclause(Y).
                                                     { A = sql_select_compound(pCtx, X, O, SQL_SELECT_UNION, Q, Y); }
selectclause(A) ::= selectclause(X) EXCEPT(O) setquantifier(Q) selectclause(Y).
                                                     { A = sql_select_compound(pCtx, X, O, SQL_SELECT_EXCEPT, Q, Y); }
selectclause(A) ::= selectclause(X) INTERSECT(O) setquantifier(Q) selectclause(Y).
                                                     { A = sql_select_compound(pCtx, X, O, SQL_SELECT_INTERSECT, Q, Y); }

%type setquantifier {int}
setquantifier(A) ::= .                               { A = 0; }
setquantifier(A) ::= ALL.                            { A = 1; }
setquantifier(A) ::= DISTINCT.                       { A = 0; }

%type simpleselect {sql_select *}
simpleselect(A) ::= SELECT(T) distinct(D) selcollist(W) from(F) where(X) groupby(G) having(H) windowclause(N).
                                                     { A = sql_select_new(pCtx, T, &D, W, F, X, G, H, N); }
simpleselect(A) ::= VALUES(T) valuesrows(R).         { A = sql_select_values(pCtx, T, R); }
simpleselect(A) ::= TABLE(T) qname(N).               { A = sql_select_table(pCtx, T, N); }

%type valuesrows {sql_expr_list *}
valuesrows(A) ::= LP(X) exprlist(L) RP.              { A = sql_expr_list_append(pCtx, 0, sql_expr_row(pCtx, X, L)); }
valuesrows(A) ::= valuesrows(A) COMMA LP(X) exprlist(L) RP.
                                                     { A = sql_expr_list_append(pCtx, A, sql_expr_row(pCtx, X, L)); }

%type distinct {sql_distinct}
distinct(A) ::= .                                    { A = sql_distinct_new(0, sql_token_none(), 0); }
distinct(A) ::= ALL.                                 { A = sql_distinct_new(0, sql_token_none(), 0); }
distinct(A) ::= DISTINCT.                            { A = sql_distinct_new(1, sql_token_none(), 0); }
distinct(A) ::= DISTINCT ON(X) LP exprlist(L) RP.    { A = sql_distinct_new(1, X, L); }

/* The select list: expressions with optional aliases, *, t.* and s.t.*. */
%type selcollist {sql_expr_list *}
%type sclp {sql_expr_list *}
sclp(A) ::= selcollist(A) COMMA.
sclp(A) ::= .                                        { A = 0; }
selcollist(A) ::= sclp(L) expr(X) alias(Y).          { A = sql_select_item_append(pCtx, L, X, Y); }
selcollist(A) ::= sclp(L) STAR(X).
    { A = sql_select_item_append(pCtx, L, sql_expr_star(pCtx, 0, 0, X), sql_token_none()); }
selcollist(A) ::= sclp(L) nm(T) DOT STAR(X).
    { A = sql_select_item_append(pCtx, L, sql_expr_star(pCtx, 0, &T, X), sql_token_none()); }
selcollist(A) ::= sclp(L) nm(S) DOT nm(T) DOT STAR(X).
    { A = sql_select_item_append(pCtx, L, sql_expr_star(pCtx, &S, &T, X), sql_token_none()); }

alias(A) ::= .                                       { A = sql_token_none(); }
alias(A) ::= AS nm(X).                               { A = X; }
alias(A) ::= AS reslabel(X).                         { A = X; }
alias(A) ::= nm(A).

/* FROM: a list of items joined by commas and JOINs, left to right; a
** parenthesized join is one item. */
%type from {sql_src_list *}
from(A) ::= .                                        { A = 0; }
from(A) ::= FROM fromlist(X).                        { A = X; }

%type fromlist {sql_src_list *}
fromlist(A) ::= tableref(T).                         { A = sql_src_append(pCtx, 0, T); }
fromlist(A) ::= fromlist(A) COMMA tableref(T).       { A = sql_src_append(pCtx, A, T); }
fromlist(A) ::= fromlist(A) joined(J).               { A = sql_src_append(pCtx, A, J); }

/* What may stand in parentheses: a join (PostgreSQL allows no comma). */
%type joinlist {sql_src_list *}
joinlist(A) ::= tableref(T) joined(J).               { A = sql_src_append(pCtx, sql_src_append(pCtx, 0, T), J); }
joinlist(A) ::= joinlist(A) joined(J).               { A = sql_src_append(pCtx, A, J); }

%type joined {sql_src_item *}
joined(A) ::= joinop(J) tableref(T) ON expr(E).      { A = sql_src_join(pCtx, T, J, E, 0, sql_token_none()); }
joined(A) ::= joinop(J) tableref(T) USING(U) LP namelist(L) RP.
                                                     { A = sql_src_join(pCtx, T, J, 0, L, U); }
joined(A) ::= CROSS(X) JOIN tableref(T).
    { A = sql_src_join(pCtx, T, sql_joinop_new(SQL_JOIN_CROSS, X, 0), 0, 0, sql_token_none()); }
joined(A) ::= NATURAL(X) joinop(J) tableref(T).
    { A = sql_src_join(pCtx, T, sql_joinop_new(J.eJoin, X, 1), 0, 0, sql_token_none()); }

%type joinop {sql_joinop}
joinop(A) ::= JOIN(X).                               { A = sql_joinop_new(SQL_JOIN_INNER, X, 0); }
joinop(A) ::= INNER(X) JOIN.                         { A = sql_joinop_new(SQL_JOIN_INNER, X, 0); }
joinop(A) ::= LEFT(X) outer JOIN.                    { A = sql_joinop_new(SQL_JOIN_LEFT, X, 0); }
joinop(A) ::= RIGHT(X) outer JOIN.                   { A = sql_joinop_new(SQL_JOIN_RIGHT, X, 0); }
joinop(A) ::= FULL(X) outer JOIN.                    { A = sql_joinop_new(SQL_JOIN_FULL, X, 0); }
outer ::= .
outer ::= OUTER.

%type tableref {sql_src_item *}
tableref(A) ::= qname(N) fromalias(Y).               { A = sql_src_table(pCtx, N, &Y); }
tableref(A) ::= LP(X) select(S) RP fromalias(Y).     { A = sql_src_subquery(pCtx, X, 0, S, &Y); }
tableref(A) ::= LATERAL(X) LP select(S) RP fromalias(Y).
                                                     { A = sql_src_subquery(pCtx, X, 1, S, &Y); }
tableref(A) ::= funcall(F) ordinality(O) fromalias(Y).
                                                     { A = sql_src_function(pCtx, sql_token_none(), F, O, &Y); }
tableref(A) ::= LATERAL(X) funcall(F) ordinality(O) fromalias(Y).
                                                     { A = sql_src_function(pCtx, X, F, O, &Y); }
tableref(A) ::= LP(X) joinlist(L) RP fromalias(Y).   { A = sql_src_nested(pCtx, X, L, &Y); }

%type ordinality {int}
ordinality(A) ::= .                                  { A = 0; }
ordinality(A) ::= WITH ORDINALITY.                   { A = 1; }

/* [AS] alias [(column, ...)] */
%type fromalias {sql_alias}
fromalias(A) ::= .                                   { A = sql_alias_new(sql_token_none(), 0); }
fromalias(A) ::= nm(N).                              { A = sql_alias_new(N, 0); }
fromalias(A) ::= AS nm(N).                           { A = sql_alias_new(N, 0); }
fromalias(A) ::= nm(N) LP namelist(L) RP.            { A = sql_alias_new(N, L); }
fromalias(A) ::= AS nm(N) LP namelist(L) RP.         { A = sql_alias_new(N, L); }

%type where {sql_expr *}
where(A) ::= .                                       { A = 0; }
where(A) ::= WHERE expr(X).                          { A = X; }

/* GROUP BY: expressions, (), (a, b), ROLLUP, CUBE, GROUPING SETS. */
%type groupby {sql_expr_list *}
groupby(A) ::= .                                     { A = 0; }
groupby(A) ::= GROUP BY groupitems(X).               { A = X; }

%type groupitems {sql_expr_list *}
groupitems(A) ::= groupitem(X).                      { A = sql_expr_list_append(pCtx, 0, X); }
groupitems(A) ::= groupitems(A) COMMA groupitem(X).  { A = sql_expr_list_append(pCtx, A, X); }

%type groupitem {sql_expr *}
groupitem(A) ::= groupelem(A).
groupitem(A) ::= LP(X) RP.                           { A = sql_expr_row(pCtx, X, 0); }
groupitem(A) ::= ROLLUP(X) LP groupelems(L) RP.      { A = sql_expr_grouping(pCtx, SQL_EXPR_ROLLUP, X, L); }
groupitem(A) ::= CUBE(X) LP groupelems(L) RP.        { A = sql_expr_grouping(pCtx, SQL_EXPR_CUBE, X, L); }
groupitem(A) ::= GROUPING(X) SETS LP groupitems(L) RP.
                                                     { A = sql_expr_grouping(pCtx, SQL_EXPR_GROUPING_SETS, X, L); }

%type groupelems {sql_expr_list *}
groupelems(A) ::= groupelem(X).                      { A = sql_expr_list_append(pCtx, 0, X); }
groupelems(A) ::= groupelems(A) COMMA groupelem(X).  { A = sql_expr_list_append(pCtx, A, X); }

%type groupelem {sql_expr *}
groupelem(A) ::= expr(A).
groupelem(A) ::= LP(X) expr(E) COMMA exprlist(L) RP. { A = sql_expr_row(pCtx, X, sql_expr_list_prepend(pCtx, E, L)); }

%type having {sql_expr *}
having(A) ::= .                                      { A = 0; }
having(A) ::= HAVING expr(X).                        { A = X; }

%type windowclause {sql_window_list *}
windowclause(A) ::= .                                { A = 0; }
windowclause(A) ::= WINDOW windowdefs(Z). { A = Z; }

%type windowdefs {sql_window_list *}
windowdefs(A) ::= nm(N) AS LP windowspec(W) RP.      { A = sql_window_define(pCtx, 0, N, W); }
windowdefs(A) ::= windowdefs(L) COMMA nm(N) AS LP windowspec(W) RP.
                                                     { A = sql_window_define(pCtx, L, N, W); }

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

/* LIMIT and OFFSET in either order; LIMIT ALL is no limit; FETCH FIRST
** n ROWS ONLY is LIMIT n (WITH TIES kept), OFFSET n ROWS is OFFSET n. */
%type limit {sql_limit}
limit(A) ::= .                                       { A = sql_limit_new(pCtx, 0, 0); }
limit(A) ::= limitclause(X).                         { A = sql_limit_new(pCtx, &X, 0); }
limit(A) ::= offsetclause(Y).                        { A = sql_limit_new(pCtx, 0, Y); }
limit(A) ::= limitclause(X) offsetclause(Y).         { A = sql_limit_new(pCtx, &X, Y); }
limit(A) ::= offsetclause(Y) limitclause(X).         { A = sql_limit_new(pCtx, &X, Y); }

%type limitclause {sql_limit}
limitclause(A) ::= LIMIT expr(X).                    { A = sql_limit_count(pCtx, X, sql_token_none(), 0); }
limitclause(A) ::= LIMIT ALL.                        { A = sql_limit_count(pCtx, 0, sql_token_none(), 0); }
limitclause(A) ::= FETCH(F) firstnext expr(X) rowrows ONLY.
                                                     { A = sql_limit_count(pCtx, X, F, 0); }
limitclause(A) ::= FETCH(F) firstnext expr(X) rowrows WITH TIES.
                                                     { A = sql_limit_count(pCtx, X, F, 1); }
limitclause(A) ::= FETCH(F) firstnext rowrows ONLY.  { A = sql_limit_count(pCtx, sql_expr_one(pCtx, F), F, 0); }
limitclause(A) ::= FETCH(F) firstnext rowrows WITH TIES.
                                                     { A = sql_limit_count(pCtx, sql_expr_one(pCtx, F), F, 1); }
firstnext ::= FIRST.
firstnext ::= NEXT.
rowrows ::= ROW.
rowrows ::= ROWS.

%type offsetclause {sql_expr *}
offsetclause(A) ::= OFFSET expr(Z). { A = Z; }
offsetclause(A) ::= OFFSET expr(Z) rowrows. { A = Z; }

/* ---- windows ------------------------------------------------------------------- */

/* ([base] [PARTITION BY ...] [ORDER BY ...] [frame]). A window's base name
** is the only name that may follow its '(', and PARTITION, ROWS, RANGE and
** GROUPS are names elsewhere: each of them is shifted here directly, never
** reached through an empty rule, so that lemon's %fallback (which tries
** ID when a keyword has no action of its own) cannot read one as a base. */
%type windowspec {sql_window *}
windowspec(A) ::= windowbody(A).
windowspec(A) ::= nm(N) windowbody(W).               { A = sql_window_base(pCtx, W, N); }

%type windowbody {sql_window *}
windowbody(A) ::= .                                  { A = sql_window_new(pCtx, 0, 0, sql_frame_none()); }
windowbody(A) ::= PARTITION BY exprlist(P) orderby(O) frame(F).
                                                     { A = sql_window_new(pCtx, P, O, F); }
windowbody(A) ::= ORDER BY sortlist(O) frame(F).     { A = sql_window_new(pCtx, 0, O, F); }
windowbody(A) ::= framespec(F).                      { A = sql_window_new(pCtx, 0, 0, F); }

%type frame {sql_frame}
frame(A) ::= .                                       { A = sql_frame_none(); }
frame(A) ::= framespec(A).

%type framespec {sql_frame}
framespec(A) ::= frameunit(U) framebound(S) frameexclude(X).
                                                     { A = sql_frame_new(pCtx, U, 0, &S, 0, X); }
framespec(A) ::= frameunit(U) BETWEEN framebound(S) AND framebound(E) frameexclude(X).
                                                     { A = sql_frame_new(pCtx, U, 1, &S, &E, X); }
frameunit(A) ::= ROWS(A).
frameunit(A) ::= RANGE(A).
frameunit(A) ::= GROUPS(A).

%type framebound {sql_bound_spec}
framebound(A) ::= UNBOUNDED(X) PRECEDING.            { A = sql_bound_new(X, SQL_BOUND_UNBOUNDED_PRECEDING, 0); }
framebound(A) ::= UNBOUNDED(X) FOLLOWING.            { A = sql_bound_new(X, SQL_BOUND_UNBOUNDED_FOLLOWING, 0); }
framebound(A) ::= CURRENT(X) ROW.                    { A = sql_bound_new(X, SQL_BOUND_CURRENT_ROW, 0); }
framebound(A) ::= expr(E) PRECEDING(X).              { A = sql_bound_new(X, SQL_BOUND_PRECEDING, E); }
framebound(A) ::= expr(E) FOLLOWING(X).              { A = sql_bound_new(X, SQL_BOUND_FOLLOWING, E); }

%type frameexclude {sql_frame_exclude}
frameexclude(A) ::= .                                { A = SQL_EXCLUDE_NO_OTHERS; }
frameexclude(A) ::= EXCLUDE CURRENT ROW.             { A = SQL_EXCLUDE_CURRENT_ROW; }
frameexclude(A) ::= EXCLUDE GROUP.                   { A = SQL_EXCLUDE_GROUP; }
frameexclude(A) ::= EXCLUDE TIES.                    { A = SQL_EXCLUDE_TIES; }
frameexclude(A) ::= EXCLUDE NO OTHERS.               { A = SQL_EXCLUDE_NO_OTHERS; }

/* ---- expressions ------------------------------------------------------------- */

%type expr {sql_expr *}
%type exprlist {sql_expr_list *}

/* [SUBQUERY]: in POSITION(a IN (b)) the "(b)" is an expression, not the
** list of an IN (which would leave POSITION without its IN). */
exprlist(A) ::= expr(X). [SUBQUERY]                  { A = sql_expr_list_append(pCtx, 0, X); }
exprlist(A) ::= exprlist(A) COMMA expr(X).           { A = sql_expr_list_append(pCtx, A, X); }

expr(A) ::= LP expr(X) RP.                           { A = X; }
expr(A) ::= LP(X) select(S) RP. [SUBQUERY]           { A = sql_expr_subquery(pCtx, SQL_EXPR_SUBQUERY, X, S); }
expr(A) ::= EXISTS(X) LP select(S) RP.               { A = sql_expr_subquery(pCtx, SQL_EXPR_EXISTS, X, S); }
expr(A) ::= ARRAY(X) LP select(S) RP.                { A = sql_expr_subquery(pCtx, SQL_EXPR_ARRAY, X, S); }
expr(A) ::= LP expr RP DOT(X) nm.                    { A = sql_unsupported(pCtx, X); }

/* Literals; "type 'text'" is a typed literal (DATE '1997-12-31'). */
expr(A) ::= INTEGER(X).                              { A = sql_expr_literal(pCtx, SQL_EXPR_INTEGER, X); }
expr(A) ::= DECIMAL(X).                              { A = sql_expr_literal(pCtx, SQL_EXPR_DECIMAL, X); }
expr(A) ::= STRING(X).                               { A = sql_expr_literal(pCtx, SQL_EXPR_STRING, X); }
expr(A) ::= NULL(X).                                 { A = sql_expr_literal(pCtx, SQL_EXPR_NULL, X); }
expr(A) ::= PARAM(X).                                { A = sql_expr_param(pCtx, X); }
expr(A) ::= TRUE(X).                                 { A = sql_expr_literal(pCtx, SQL_EXPR_BOOL, X); }
expr(A) ::= FALSE(X).                                { A = sql_expr_literal(pCtx, SQL_EXPR_BOOL, X); }
expr(A) ::= BITSTR(X).                               { A = sql_unsupported(pCtx, X); }
expr(A) ::= USTRING(X).                              { A = sql_unsupported(pCtx, X); }
expr(A) ::= qname(T) STRING(X).
    { A = sql_expr_typed_literal(pCtx, T.tName, sql_type_qualified(pCtx, T), X); }
expr(A) ::= timetype(T) STRING(X).                   { A = sql_expr_typed_literal(pCtx, T.tAt, T, X); }
expr(A) ::= INTERVAL(T) STRING(X) ifields(F).
    { A = sql_expr_typed_literal(pCtx, T, sql_type_interval(pCtx, T, F, 0), X); }
expr(A) ::= INTERVAL(T) LP INTEGER(P) RP STRING(X).
    { A = sql_expr_typed_literal(pCtx, T, sql_type_interval(pCtx, T, sql_ifields_none(), &P), X); }

/* Column references: column, table.column, schema.table.column; a fourth
** part would name a database. */
expr(A) ::= nm(X).                                   { A = sql_expr_column(pCtx, 0, 0, X); }
expr(A) ::= colkw(X).                                { A = sql_expr_column(pCtx, 0, 0, X); }
expr(A) ::= nm(T) DOT nm(X).                         { A = sql_expr_column(pCtx, 0, &T, X); }
expr(A) ::= nm(S) DOT nm(T) DOT nm(X).               { A = sql_expr_column(pCtx, &S, &T, X); }
expr(A) ::= nm(C) DOT nm DOT nm DOT nm(X).
    { A = sql_unsupported_refs(pCtx, sql_token_span(C, X)); }

/* Keywords with an expression syntax of their own that are column names
** where that syntax does not follow (PostgreSQL's col_name_keyword). */
colkw(A) ::= EXISTS(A).
colkw(A) ::= EXTRACT(A).
colkw(A) ::= OVERLAY(A).
colkw(A) ::= POSITION(A).
colkw(A) ::= SUBSTRING(A).
colkw(A) ::= TRIM(A).
colkw(A) ::= TREAT(A).
colkw(A) ::= INTERVAL(A).
colkw(A) ::= TIMESTAMP(A).
colkw(A) ::= TIME(A).
colkw(A) ::= OPERATOR(A).

/* A name with an optional schema: tables, functions, types. */
%type qname {sql_qname}
qname(A) ::= nm(N).                                  { A = sql_qname_new(sql_token_none(), N); }
qname(A) ::= nm(S) DOT nm(N).                        { A = sql_qname_new(S, N); }

/* Function calls, and what may follow one: WITHIN GROUP, FILTER, OVER. */
expr(A) ::= funcall(F) within(W) filter(X) over(O).  { A = sql_expr_func_tail(pCtx, F, &W, &X, O); }

%type funcall {sql_expr *}
funcall(A) ::= qname(N) LP RP.                       { A = sql_expr_func(pCtx, N, 0, 0, 0, 0); }
funcall(A) ::= qname(N) LP STAR RP.                  { A = sql_expr_func(pCtx, N, 0, 0, 1, 0); }
funcall(A) ::= qname(N) LP exprlist(L) aggorder(O) RP.
                                                     { A = sql_expr_func(pCtx, N, L, 0, 0, O); }
funcall(A) ::= qname(N) LP ALL exprlist(L) aggorder(O) RP.
                                                     { A = sql_expr_func(pCtx, N, L, 0, 0, O); }
funcall(A) ::= qname(N) LP DISTINCT exprlist(L) aggorder(O) RP.
                                                     { A = sql_expr_func(pCtx, N, L, 1, 0, O); }
funcall(A) ::= LEFT(N) LP exprlist(L) RP.
    { A = sql_expr_func(pCtx, sql_qname_new(sql_token_none(), N), L, 0, 0, 0); }
funcall(A) ::= RIGHT(N) LP exprlist(L) RP.
    { A = sql_expr_func(pCtx, sql_qname_new(sql_token_none(), N), L, 0, 0, 0); }
funcall(A) ::= CURRENT_SCHEMA(N) LP RP.
    { A = sql_expr_func(pCtx, sql_qname_new(sql_token_none(), N), 0, 0, 0, 0); }

%type aggorder {sql_expr_list *}
aggorder(A) ::= .                                    { A = 0; }
aggorder(A) ::= ORDER BY sortlist(Z). { A = Z; }

%type within {sql_tail}
within(A) ::= .                                      { A = sql_tail_new(sql_token_none(), 0, 0); }
within(A) ::= WITHIN(X) GROUP LP ORDER BY sortlist(L) RP.
                                                     { A = sql_tail_new(X, 0, L); }
%type filter {sql_tail}
filter(A) ::= .                                      { A = sql_tail_new(sql_token_none(), 0, 0); }
filter(A) ::= FILTER(X) LP WHERE expr(E) RP.         { A = sql_tail_new(X, E, 0); }
%type over {sql_window *}
over(A) ::= .                                        { A = 0; }
over(A) ::= OVER nm(N).                              { A = sql_window_ref(pCtx, N); }
over(A) ::= OVER LP(X) windowspec(W) RP.             { A = sql_window_at(pCtx, W, X); }

/* SQL's own syntax for some functions, made calls with PostgreSQL's
** function names and argument order (bSqlSyntax set). */
expr(A) ::= CAST(C) LP expr(X) AS type(T) RP.        { A = sql_expr_cast(pCtx, C, X, T); }
expr(A) ::= TREAT(X) LP expr AS type RP.             { A = sql_unsupported(pCtx, X); }
expr(A) ::= EXTRACT(X) LP extractfield(F) FROM expr(E) RP.
    { A = sql_expr_special(pCtx, X, "extract", sql_expr_list_append(pCtx, sql_expr_list_append(pCtx, 0, F), E)); }
expr(A) ::= OVERLAY(X) LP expr(S) PLACING expr(P) FROM expr(F) RP.
    { A = sql_expr_special(pCtx, X, "overlay", sql_expr_list3(pCtx, S, P, F)); }
expr(A) ::= OVERLAY(X) LP expr(S) PLACING expr(P) FROM expr(F) FOR expr(N) RP.
    { A = sql_expr_special(pCtx, X, "overlay", sql_expr_list_append(pCtx, sql_expr_list3(pCtx, S, P, F), N)); }
expr(A) ::= OVERLAY(X) LP exprlist(L) RP.            { A = sql_expr_keyword_call(pCtx, X, L); }
expr(A) ::= POSITION(X) LP expr(S) IN expr(T) RP.
    { A = sql_expr_special(pCtx, X, "position", sql_expr_list_append(pCtx, sql_expr_list_append(pCtx, 0, T), S)); }
expr(A) ::= SUBSTRING(X) LP expr(S) FROM expr(F) RP.
    { A = sql_expr_special(pCtx, X, "substring", sql_expr_list_append(pCtx, sql_expr_list_append(pCtx, 0, S), F)); }
expr(A) ::= SUBSTRING(X) LP expr(S) FROM expr(F) FOR expr(N) RP.
    { A = sql_expr_special(pCtx, X, "substring", sql_expr_list3(pCtx, S, F, N)); }
expr(A) ::= SUBSTRING(X) LP expr(S) FOR expr(N) FROM expr(F) RP.
    { A = sql_expr_special(pCtx, X, "substring", sql_expr_list3(pCtx, S, F, N)); }
expr(A) ::= SUBSTRING(X) LP expr(S) FOR expr(N) RP.
    { A = sql_expr_special(pCtx, X, "substring", sql_expr_list3(pCtx, S, sql_expr_one(pCtx, X), N)); }
expr(A) ::= SUBSTRING(X) LP exprlist(L) RP.          { A = sql_expr_keyword_call(pCtx, X, L); }
expr(A) ::= TRIM(X) LP trimwhere(W) trimlist(L) RP.  { A = sql_expr_special(pCtx, X, W, L); }

extractfield(A) ::= nm(X).                           { A = sql_expr_field(pCtx, X); }
extractfield(A) ::= STRING(X).                       { A = sql_expr_literal(pCtx, SQL_EXPR_STRING, X); }
%type extractfield {sql_expr *}

%type trimwhere {const char *}
trimwhere(A) ::= .                                   { A = "btrim"; }
trimwhere(A) ::= BOTH.                               { A = "btrim"; }
trimwhere(A) ::= LEADING.                            { A = "ltrim"; }
trimwhere(A) ::= TRAILING.                           { A = "rtrim"; }
%type trimlist {sql_expr_list *}
trimlist(A) ::= expr(C) FROM exprlist(L).            { A = sql_expr_list_append(pCtx, L, C); }
trimlist(A) ::= FROM exprlist(Z). { A = Z; }
trimlist(A) ::= exprlist(A).

/* The keywords that call a function of the session or the clock. */
expr(A) ::= CURRENT_DATE(X).                         { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= CURRENT_TIME(X).                         { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= CURRENT_TIME(X) LP INTEGER(P) RP.        { A = sql_expr_special(pCtx, X, 0, sql_expr_list_append(pCtx, 0, sql_expr_literal(pCtx, SQL_EXPR_INTEGER, P))); }
expr(A) ::= CURRENT_TIMESTAMP(X).                    { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= CURRENT_TIMESTAMP(X) LP INTEGER(P) RP.   { A = sql_expr_special(pCtx, X, 0, sql_expr_list_append(pCtx, 0, sql_expr_literal(pCtx, SQL_EXPR_INTEGER, P))); }
expr(A) ::= LOCALTIME(X).                            { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= LOCALTIME(X) LP INTEGER(P) RP.           { A = sql_expr_special(pCtx, X, 0, sql_expr_list_append(pCtx, 0, sql_expr_literal(pCtx, SQL_EXPR_INTEGER, P))); }
expr(A) ::= LOCALTIMESTAMP(X).                       { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= LOCALTIMESTAMP(X) LP INTEGER(P) RP.      { A = sql_expr_special(pCtx, X, 0, sql_expr_list_append(pCtx, 0, sql_expr_literal(pCtx, SQL_EXPR_INTEGER, P))); }
expr(A) ::= CURRENT_USER(X).                         { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= CURRENT_ROLE(X).                         { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= SESSION_USER(X).                         { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= USER(X).                                 { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= CURRENT_CATALOG(X).                      { A = sql_expr_special(pCtx, X, 0, 0); }
expr(A) ::= CURRENT_SCHEMA(X).                       { A = sql_expr_special(pCtx, X, 0, 0); }

/* Arrays and subscripts. */
expr(A) ::= ARRAY(X) LB RB.                          { A = sql_expr_array(pCtx, X, 0); }
expr(A) ::= ARRAY(X) LB exprlist(L) RB.              { A = sql_expr_array(pCtx, X, L); }
expr(A) ::= ARRAY(X) LB arraylist(L) RB.             { A = sql_expr_array(pCtx, X, L); }
%type arraylist {sql_expr_list *}
arraylist(A) ::= arrayinner(X).                      { A = sql_expr_list_append(pCtx, 0, X); }
arraylist(A) ::= arraylist(A) COMMA arrayinner(X).   { A = sql_expr_list_append(pCtx, A, X); }
%type arrayinner {sql_expr *}
arrayinner(A) ::= LB(X) RB.                          { A = sql_expr_array(pCtx, X, 0); }
arrayinner(A) ::= LB(X) exprlist(L) RB.              { A = sql_expr_array(pCtx, X, L); }
arrayinner(A) ::= LB(X) arraylist(L) RB.             { A = sql_expr_array(pCtx, X, L); }

expr(A) ::= expr(X) LB(T) expr(I) RB.                { A = sql_expr_subscript(pCtx, X, T, I, 0, 0); }
expr(A) ::= expr(X) LB(T) optexpr(L) COLON optexpr(H) RB.
                                                     { A = sql_expr_subscript(pCtx, X, T, L, H, 1); }
%type optexpr {sql_expr *}
optexpr(A) ::= .                                     { A = 0; }
optexpr(A) ::= expr(A).

expr(A) ::= expr(X) DCOLON(C) type(T).               { A = sql_expr_cast(pCtx, C, X, T); }
expr(A) ::= expr(X) COLLATE(C) qname(N).             { A = sql_expr_collate(pCtx, X, C, N); }
expr(A) ::= expr(X) COLLATE(C) nm(S) DOT DEFAULT(N). { A = sql_expr_collate(pCtx, X, C, sql_qname_new(S, N)); }

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

/* Operators. */
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
expr(A) ::= expr(X) CARET(O) expr(Y).                { A = sql_expr_binary(pCtx, SQL_OP_POW, X, O, Y); }
expr(A) ::= expr(X) OP(O) expr(Y).                   { A = sql_expr_operator(pCtx, X, sql_qname_new(sql_token_none(), O), O, Y); }
expr(A) ::= expr(X) qualop(O) expr(Y). [OP]          { A = sql_expr_operator(pCtx, X, O.name, O.tAt, Y); }
expr(A) ::= MINUS(O) expr(X). [UMINUS]               { A = sql_expr_unary(pCtx, SQL_OP_NEG, O, X); }
expr(A) ::= PLUS(O) expr(X). [UMINUS]                { A = sql_expr_unary(pCtx, SQL_OP_PLUS, O, X); }
expr(A) ::= OP(O) expr(X).                           { A = sql_expr_operator(pCtx, 0, sql_qname_new(sql_token_none(), O), O, X); }
expr(A) ::= qualop(O) expr(X). [OP]                  { A = sql_expr_operator(pCtx, 0, O.name, O.tAt, X); }

/* OPERATOR(schema.op): any operator, named with its schema. */
%type qualop {sql_qualop}
qualop(A) ::= OPERATOR(K) LP anyop(O) RP.            { A = sql_qualop_new(K, sql_token_none(), O); }
qualop(A) ::= OPERATOR(K) LP nm(S) DOT anyop(O) RP.  { A = sql_qualop_new(K, S, O); }
anyop(A) ::= OP(A).
anyop(A) ::= PLUS(A).
anyop(A) ::= MINUS(A).
anyop(A) ::= STAR(A).
anyop(A) ::= SLASH(A).
anyop(A) ::= REM(A).
anyop(A) ::= CARET(A).
anyop(A) ::= EQ(A).
anyop(A) ::= NE(A).
anyop(A) ::= LT(A).
anyop(A) ::= LE(A).
anyop(A) ::= GT(A).
anyop(A) ::= GE(A).

/* Predicates. */
expr(A) ::= expr(X) IS(O) NULL.                      { A = sql_expr_is_null(pCtx, X, O, 0); }
expr(A) ::= expr(X) IS(O) NOT NULL.                  { A = sql_expr_is_null(pCtx, X, O, 1); }
expr(A) ::= expr(X) IS(O) TRUE.                      { A = sql_expr_is_bool(pCtx, X, O, 0, SQL_OP_IS_TRUE); }
expr(A) ::= expr(X) IS(O) NOT TRUE.                  { A = sql_expr_is_bool(pCtx, X, O, 1, SQL_OP_IS_TRUE); }
expr(A) ::= expr(X) IS(O) FALSE.                     { A = sql_expr_is_bool(pCtx, X, O, 0, SQL_OP_IS_FALSE); }
expr(A) ::= expr(X) IS(O) NOT FALSE.                 { A = sql_expr_is_bool(pCtx, X, O, 1, SQL_OP_IS_FALSE); }
expr(A) ::= expr(X) IS(O) UNKNOWN.                   { A = sql_expr_is_bool(pCtx, X, O, 0, SQL_OP_IS_UNKNOWN); }
expr(A) ::= expr(X) IS(O) NOT UNKNOWN.               { A = sql_expr_is_bool(pCtx, X, O, 1, SQL_OP_IS_UNKNOWN); }
expr(A) ::= expr(X) IS(O) DISTINCT FROM expr(Y). [IS]
                                                     { A = sql_expr_is_distinct(pCtx, X, O, 0, Y); }
expr(A) ::= expr(X) IS(O) NOT DISTINCT FROM expr(Y). [IS]
                                                     { A = sql_expr_is_distinct(pCtx, X, O, 1, Y); }

expr(A) ::= expr(X) BETWEEN(O) symmetric(S) expr(Y) AND expr(Z). [BETWEEN]
                                                     { A = sql_expr_between(pCtx, X, O, 0, S, Y, Z); }
expr(A) ::= expr(X) NOTLA(O) BETWEEN symmetric(S) expr(Y) AND expr(Z). [BETWEEN]
                                                     { A = sql_expr_between(pCtx, X, O, 1, S, Y, Z); }
%type symmetric {int}
symmetric(A) ::= .                                   { A = 0; }
symmetric(A) ::= SYMMETRIC.                          { A = 1; }
symmetric(A) ::= ASYMMETRIC.                         { A = 0; }

expr(A) ::= expr(X) IN(O) LP exprlist(L) RP.         { A = sql_expr_in(pCtx, X, O, 0, L); }
expr(A) ::= expr(X) NOTLA(O) IN LP exprlist(L) RP.   { A = sql_expr_in(pCtx, X, O, 1, L); }
expr(A) ::= expr(X) IN(O) LP select(S) RP.           { A = sql_expr_in_select(pCtx, X, O, 0, S); }
expr(A) ::= expr(X) NOTLA(O) IN LP select(S) RP.     { A = sql_expr_in_select(pCtx, X, O, 1, S); }

expr(A) ::= expr(X) likeop(O) expr(Y). [LIKE]       { A = sql_expr_like(pCtx, X, &O, Y, 0, sql_token_none()); }
expr(A) ::= expr(X) likeop(O) expr(Y) ESCAPE(T) expr(E). [LIKE]
                                                     { A = sql_expr_like(pCtx, X, &O, Y, E, T); }
%type likeop {sql_opref}
likeop(A) ::= LIKE(X).                               { A = sql_opref_new(SQL_OP_LIKE, X, 0); }
likeop(A) ::= NOTLA(X) LIKE.                         { A = sql_opref_new(SQL_OP_LIKE, X, 1); }
likeop(A) ::= ILIKE(X).                              { A = sql_opref_new(SQL_OP_ILIKE, X, 0); }
likeop(A) ::= NOTLA(X) ILIKE.                        { A = sql_opref_new(SQL_OP_ILIKE, X, 1); }
likeop(A) ::= SIMILAR(X) TO.                         { A = sql_opref_new(SQL_OP_SIMILAR, X, 0); }
likeop(A) ::= NOTLA(X) SIMILAR TO.                   { A = sql_opref_new(SQL_OP_SIMILAR, X, 1); }

/* x op ANY|SOME|ALL (query or array). */
expr(A) ::= expr(X) subop(O) quantifier(Q) LP select(S) RP.
                                                     { A = sql_expr_any(pCtx, X, &O, Q, 0, S); }
expr(A) ::= expr(X) subop(O) quantifier(Q) LP expr(Y) RP.
                                                     { A = sql_expr_any(pCtx, X, &O, Q, Y, 0); }
%type subop {sql_opref}
subop(A) ::= EQ(X).                                  { A = sql_opref_new(SQL_OP_EQ, X, 0); }
subop(A) ::= NE(X).                                  { A = sql_opref_new(SQL_OP_NE, X, 0); }
subop(A) ::= LT(X).                                  { A = sql_opref_new(SQL_OP_LT, X, 0); }
subop(A) ::= LE(X).                                  { A = sql_opref_new(SQL_OP_LE, X, 0); }
subop(A) ::= GT(X).                                  { A = sql_opref_new(SQL_OP_GT, X, 0); }
subop(A) ::= GE(X).                                  { A = sql_opref_new(SQL_OP_GE, X, 0); }
subop(A) ::= OP(X).                                  { A = sql_opref_new(SQL_OP_NAMED, X, 0); }
subop(A) ::= qualop(X).                              { A = sql_opref_qualified(X); }
subop(A) ::= likeop(A).
quantifier(A) ::= ANY(A).
quantifier(A) ::= SOME(A).
quantifier(A) ::= ALL(A).

/* ---- names ------------------------------------------------------------------- */

/* An identifier, quoted or not; non-reserved keywords arrive here as ID
** through %fallback. The constructors fold or dequote it. */
nm(A) ::= ID(A).

/* A reserved keyword as an output column's name after AS, as PostgreSQL's
** ColLabel takes any keyword there ("SELECT ... AS default"): the
** constructors fold it like an identifier. */
reslabel(A) ::= ALL|AND|ANY|ARRAY|AS|ASC|ASYMMETRIC|BETWEEN|BOTH|BY|CASE|CAST|CHECK(A).
reslabel(A) ::= COLLATE|CONSTRAINT|CREATE|CROSS|CURRENT_CATALOG|CURRENT_DATE(A).
reslabel(A) ::= CURRENT_ROLE|CURRENT_SCHEMA|CURRENT_TIME|CURRENT_TIMESTAMP|CURRENT_USER(A).
reslabel(A) ::= DEFAULT|DESC|DISTINCT|ELSE|END|EXCEPT|FALSE|FETCH|FOR|FOREIGN|FROM|FULL(A).
reslabel(A) ::= GROUP|HAVING|ILIKE|IN|INNER|INTERSECT|INTO|IS|JOIN|LATERAL|LEADING|LEFT(A).
reslabel(A) ::= LIKE|LIMIT|LOCALTIME|LOCALTIMESTAMP|NATURAL|NOT|NULL|OFFSET|ON|ONLY|OR(A).
reslabel(A) ::= ORDER|OUTER|PLACING|PRIMARY|REFERENCES|RIGHT|SELECT|SESSION_USER|SIMILAR(A).
reslabel(A) ::= SOME|SYMMETRIC|TABLE|THEN|TO|TRAILING|TRUE|UNION|UNIQUE|USER|USING|WHEN(A).
reslabel(A) ::= WHERE|WINDOW|WITH(A).

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
