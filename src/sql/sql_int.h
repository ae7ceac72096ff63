/* sql_int.h: private to src/sql. The parser state shared by the parser files
 * (statements, SELECT, DDL, expressions) and the helpers they use to read
 * tokens, record what was expected, allocate nodes and fail.
 * Invariants: p->tok is always the current, already lexed token; nothing past
 * it has been lexed (INSERT data tails stay untouched); p->depth counts the
 * open recursive calls and never passes p->depth_max.
 */
#ifndef MUSCLES_SQL_INT_H
#define MUSCLES_SQL_INT_H

#include "sql/sql.h"

#define SQL_EXPECTED_MAX 24
#define SQL_EXCERPT_BYTES 120

typedef struct sql_parser {
    sql_lexer lx;
    sql_token tok;
    mu_arena *arena;
    mu_err *err;
    int rc; /* sticky: the first failure; later steps return it unchanged */
    unsigned depth;
    unsigned depth_max;
    /* What the parser looked for at expected_offset (deduplicated, bounded). */
    size_t expected_offset;
    const char *expected[SQL_EXPECTED_MAX];
    size_t expected_count;
} sql_parser;

/* Binding powers of the Pratt expression parser, loosest first. */
enum {
    SQL_BP_LAMBDA = 1,
    SQL_BP_TERNARY = 5,
    SQL_BP_OR = 10,
    SQL_BP_AND = 20,
    SQL_BP_NOT = 25,
    SQL_BP_IS_NULL = 30,
    SQL_BP_COMPARE = 40,
    SQL_BP_CONCAT = 50,
    SQL_BP_ADD = 60,
    SQL_BP_MUL = 70,
    SQL_BP_UNARY = 75,
    SQL_BP_POSTFIX = 80,
};

/* parser.c: tokens, expectations, errors, nodes. */
int sql__syntax_error(const char *text, size_t length, size_t at, size_t token_bytes,
                      const char *what, mu_err *err);
void sql__advance(sql_parser *p);
bool sql__is_kw(const sql_parser *p, const char *kw);
void sql__expect_note(sql_parser *p, const char *what);
bool sql__accept_kw(sql_parser *p, const char *kw);
bool sql__accept(sql_parser *p, sql_token_kind kind);
bool sql__is(const sql_parser *p, sql_token_kind kind);
int sql__expect_kw(sql_parser *p, const char *kw);
int sql__expect(sql_parser *p, sql_token_kind kind);
int sql__fail(sql_parser *p, const char *what);
int sql__fail_here(sql_parser *p);
int sql__enter(sql_parser *p);
void sql__leave(sql_parser *p);
int sql__oom(sql_parser *p);
sql_node *sql__node(sql_parser *p, sql_kind kind, size_t offset);
void sql__finish(sql_parser *p, sql_node *node);
size_t sql__prev_end(const sql_parser *p);
int sql__list_push(sql_parser *p, sql_list *list, sql_node *item);
int sql__ident_word(sql_parser *p, const char *what, sql_str *out);
int sql__ident_after_dot(sql_parser *p, sql_str *out);
int sql__name_pair(sql_parser *p, sql_str *database, sql_str *name);
int sql__type_text(sql_parser *p, sql_str *out);
int sql__str_copy(sql_parser *p, const char *s, size_t n, sql_str *out);
int sql__string_literal(sql_parser *p, sql_str *out);
int sql__settings(sql_parser *p, sql_list *out);
int sql__format_clause(sql_parser *p, sql_str *out);

bool sql__peek_is(sql_parser *p, sql_token_kind kind, const char *kw);

/* parser_stmt.c */
int sql__statement(sql_parser *p, sql_node **out);

/* parser_expr.c */
int sql__expr(sql_parser *p, sql_node **out);
int sql__expr_bp(sql_parser *p, int min_bp, sql_node **out);
int sql__expr_alias(sql_parser *p, bool implicit_alias, sql_node **out);
int sql__expr_list(sql_parser *p, bool implicit_alias, sql_list *out);
int sql__alias(sql_parser *p, bool implicit_alias, sql_node *node);
int sql__func_call(sql_parser *p, sql_str name, size_t offset, sql_node **out);

/* parser_select.c */
int sql__query(sql_parser *p, sql_node **out);
bool sql__at_query_start(const sql_parser *p);

/* parser_ddl.c */
int sql__create(sql_parser *p, size_t offset, sql_node **out);
int sql__alter(sql_parser *p, size_t offset, sql_node **out);
int sql__column_def(sql_parser *p, sql_node **out);

#endif /* MUSCLES_SQL_INT_H */
