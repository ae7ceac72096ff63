/* parser_expr.c: expressions, by Pratt parsing with ClickHouse's precedence
 * (loosest first): lambda ->, ?:, OR, AND, NOT, IS [NOT] NULL, comparisons
 * (= == != <> < <= > >= [NOT] LIKE/ILIKE/IN, GLOBAL [NOT] IN, [NOT] BETWEEN),
 * ||, + -, * / %, unary -, then postfix [] .N :: ; primaries are literals,
 * names, calls, CASE, CAST, EXTRACT, INTERVAL, arrays, tuples, subqueries.
 * Invariant: recursion goes through sql__expr_bp (depth-counted) and each
 * operator loop counts the nodes it stacks, so the AST depth is bounded.
 */
#include "sql/sql_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sql__expr(sql_parser *p, sql_node **out) { return sql__expr_bp(p, 0, out); }

static bool word_is(const sql_parser *p, const char *kw) { return sql__is_kw(p, kw); }

/* Numeric literal value: unsigned integers (decimal, 0x, 0b) when they fit in
 * 64 bits, otherwise a double. */
static int number_literal(sql_parser *p, sql_node *n) {
    const char *s = p->lx.text + p->tok.offset;
    size_t len = p->tok.length;
    if (sql__str_copy(p, s, len, &n->literal.text) < 0) return p->rc;
    const char *t = n->literal.text.ptr;
    n->kind = SQL_LITERAL;
    bool radix = len > 2 && t[0] == '0' && strchr("xXbB", t[1]) != NULL;
    bool is_float = !radix && strpbrk(t, ".eE") != NULL;
    if (!is_float) {
        int base = !radix ? 10 : (t[1] == 'x' || t[1] == 'X') ? 16 : 2;
        errno = 0;
        char *end = NULL;
        unsigned long long v = strtoull(radix ? t + 2 : t, &end, base);
        if (errno == 0 && end != NULL && *end == '\0') {
            n->literal.kind = SQL_LIT_UINT;
            n->literal.u64 = v;
            n->literal.f64 = (double)v;
            sql__advance(p);
            return p->rc;
        }
        if (base == 2) return sql__fail(p, "number that fits 64 bits");
    }
    n->literal.kind = SQL_LIT_FLOAT;
    n->literal.f64 = strtod(t, NULL);
    sql__advance(p);
    return p->rc;
}

static int word_literal(sql_parser *p, sql_node *n) {
    const char *s = p->lx.text + p->tok.offset;
    n->kind = SQL_LITERAL;
    if (word_is(p, "NULL")) {
        n->literal.kind = SQL_LIT_NULL;
    } else if (word_is(p, "TRUE") || word_is(p, "FALSE")) {
        n->literal.kind = SQL_LIT_BOOL;
        n->literal.u64 = word_is(p, "TRUE");
    } else {
        n->literal.kind = SQL_LIT_FLOAT;
        n->literal.f64 = word_is(p, "INF") ? INFINITY : NAN;
    }
    if (sql__str_copy(p, s, p->tok.length, &n->literal.text) < 0) return p->rc;
    sql__advance(p);
    return p->rc;
}

/* After a name's first part: more `.part`s and an optional `.*`. */
static int compound_name(sql_parser *p, sql_node *n, sql_node **out) {
    sql_str parts[16];
    size_t count = 0;
    bool qualified_star = false;
    int rc = sql__ident_word(p, "identifier", &parts[count++]);
    while (rc == 0 && p->tok.kind == SQL_TOK_DOT &&
           (sql__peek_is(p, SQL_TOK_WORD, NULL) || sql__peek_is(p, SQL_TOK_QUOTED_IDENT, NULL) ||
            sql__peek_is(p, SQL_TOK_STAR, NULL))) {
        sql__advance(p);
        if (p->tok.kind == SQL_TOK_STAR) {
            qualified_star = true;
            break;
        }
        if (count == MU_ARRAY_LEN(parts)) return sql__fail(p, "shorter compound name");
        rc = sql__ident_after_dot(p, &parts[count++]);
    }
    if (rc < 0) return rc;
    n->kind = SQL_IDENT;
    n->ident.count = count;
    n->ident.parts = mu_arena_alloc(p->arena, count * sizeof(sql_str), p->err);
    if (n->ident.parts == NULL) return sql__oom(p);
    memcpy(n->ident.parts, parts, count * sizeof(sql_str));
    *out = n;
    if (qualified_star) { /* t.* */
        sql__advance(p);
        sql__finish(p, n);
        sql_node *star = sql__node(p, SQL_STAR, n->offset);
        if (star == NULL) return p->rc;
        star->star.qualifier = n;
        sql__finish(p, star);
        *out = star;
    }
    return p->rc;
}

/* Comma-separated expressions (aliases allowed) up to the closing token. */
static int expr_items(sql_parser *p, sql_token_kind close, sql_list *out, bool *trailing) {
    *trailing = false;
    if (sql__accept(p, close)) return p->rc;
    for (;;) {
        sql_node *e = NULL;
        int rc = sql__expr_alias(p, false, &e);
        if (rc < 0) return rc;
        if (sql__list_push(p, out, e) < 0) return p->rc;
        if (sql__accept(p, close)) return p->rc;
        if (!sql__accept(p, SQL_TOK_COMMA)) return sql__fail_here(p);
        if (sql__accept(p, close)) {
            *trailing = true;
            return p->rc;
        }
    }
}

/* Function arguments after '(': [DISTINCT|ALL] args ')'; a subquery may be
 * written bare as an argument (exists(SELECT ...)). */
static int call_args(sql_parser *p, sql_node *f, sql_list *args) {
    bool trailing = false;
    if (sql__accept_kw(p, "DISTINCT")) {
        f->func.distinct = true;
        if (p->tok.kind == SQL_TOK_RPAREN) return sql__fail(p, "expression");
    } else {
        (void)sql__accept_kw(p, "ALL");
    }
    if (sql__at_query_start(p)) {
        sql_node *sub = sql__node(p, SQL_SUBQUERY, p->tok.offset);
        if (sub == NULL) return p->rc;
        int rc = sql__query(p, &sub->subquery.query);
        if (rc < 0) return rc;
        sql__finish(p, sub);
        if (sql__list_push(p, args, sub) < 0) return p->rc;
        return sql__expect(p, SQL_TOK_RPAREN);
    }
    return expr_items(p, SQL_TOK_RPAREN, args, &trailing);
}

/* name(args) or name(params)(args); the current token is '('. */
int sql__func_call(sql_parser *p, sql_str name, size_t offset, sql_node **out) {
    MU_ASSERT(name.ptr != NULL);
    sql_node *f = sql__node(p, SQL_FUNC, offset);
    if (f == NULL) return p->rc;
    f->func.name = name;
    int rc = sql__expect(p, SQL_TOK_LPAREN);
    if (rc == 0) rc = call_args(p, f, &f->func.args);
    if (rc == 0 && p->tok.kind == SQL_TOK_LPAREN && !f->func.distinct) {
        sql__advance(p);
        f->func.params = f->func.args;
        f->func.has_params = true;
        f->func.args = (sql_list){0};
        rc = call_args(p, f, &f->func.args);
    }
    if (rc < 0) return rc;
    sql__finish(p, f);
    *out = f;
    return 0;
}

static const char *const interval_units[] = {
    "NANOSECOND", "MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK",
    "MONTH", "QUARTER", "YEAR",
};

/* A time unit word (singular or plural), stored upper-case singular. */
static int time_unit(sql_parser *p, sql_str *out) {
    if (p->tok.kind == SQL_TOK_WORD) {
        const char *s = p->lx.text + p->tok.offset;
        size_t len = p->tok.length;
        for (size_t i = 0; i < MU_ARRAY_LEN(interval_units); i++) {
            size_t n = strlen(interval_units[i]);
            bool plural = len == n + 1 && (s[n] == 's' || s[n] == 'S');
            if ((len == n || plural) && strncasecmp(s, interval_units[i], n) == 0) {
                out->ptr = interval_units[i];
                out->length = n;
                sql__advance(p);
                return p->rc;
            }
        }
    }
    return sql__fail(p, "interval unit");
}

static int prefix_interval(sql_parser *p, sql_node *n) {
    sql__advance(p);
    n->kind = SQL_INTERVAL;
    int rc = sql__expr_bp(p, SQL_BP_UNARY, &n->interval.value);
    if (rc == 0) rc = time_unit(p, &n->interval.unit);
    return rc;
}

/* CAST(x AS Type) or the ordinary call CAST(x, 'Type'). */
static int prefix_cast(sql_parser *p, sql_node *n, sql_node **out) {
    sql_str name;
    if (sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, &name) < 0) return p->rc;
    sql__advance(p);
    int rc = sql__expect(p, SQL_TOK_LPAREN);
    sql_node *e = NULL;
    if (rc == 0) rc = sql__expr(p, &e);
    if (rc < 0) return rc;
    if (sql__accept_kw(p, "AS")) {
        n->kind = SQL_CAST;
        n->cast.expr = e;
        rc = sql__type_text(p, &n->cast.type);
        if (rc == 0) rc = sql__expect(p, SQL_TOK_RPAREN);
        *out = n;
        return rc;
    }
    n->kind = SQL_FUNC;
    n->func.name = name;
    if (sql__list_push(p, &n->func.args, e) < 0) return p->rc;
    bool trailing = false;
    if (sql__accept(p, SQL_TOK_COMMA)) rc = expr_items(p, SQL_TOK_RPAREN, &n->func.args, &trailing);
    else rc = sql__expect(p, SQL_TOK_RPAREN);
    *out = n;
    return rc;
}

/* EXTRACT(unit FROM x), or the ordinary function extract(haystack, pattern). */
static int prefix_extract(sql_parser *p, sql_node *n, sql_node **out) {
    sql_str name;
    if (sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, &name) < 0) return p->rc;
    sql__advance(p);
    if (p->tok.kind == SQL_TOK_LPAREN && !sql__peek_is(p, SQL_TOK_WORD, NULL))
        return sql__func_call(p, name, n->offset, out);
    int rc = sql__expect(p, SQL_TOK_LPAREN);
    if (rc < 0) return rc;
    if (!sql__peek_is(p, SQL_TOK_WORD, "FROM")) {
        n->kind = SQL_FUNC;
        n->func.name = name;
        *out = n;
        return call_args(p, n, &n->func.args);
    }
    n->kind = SQL_EXTRACT;
    rc = time_unit(p, &n->extract.unit);
    if (rc == 0) rc = sql__expect_kw(p, "FROM");
    if (rc == 0) rc = sql__expr(p, &n->extract.expr);
    if (rc == 0) rc = sql__expect(p, SQL_TOK_RPAREN);
    *out = n;
    return rc;
}

/* substring(x FROM a [FOR b]) as the call substring(x, a[, b]); the comma
 * form is an ordinary call. */
static int prefix_substring(sql_parser *p, sql_node *n, sql_node **out) {
    n->kind = SQL_FUNC;
    *out = n;
    if (sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, &n->func.name) < 0)
        return p->rc;
    sql__advance(p);
    int rc = sql__expect(p, SQL_TOK_LPAREN);
    sql_node *e = NULL;
    if (rc == 0) rc = sql__expr_alias(p, false, &e);
    if (rc == 0 && sql__list_push(p, &n->func.args, e) < 0) rc = p->rc;
    if (rc < 0) return rc;
    if (!sql__accept_kw(p, "FROM")) {
        bool trailing = false;
        if (sql__accept(p, SQL_TOK_COMMA))
            return expr_items(p, SQL_TOK_RPAREN, &n->func.args, &trailing);
        return sql__expect(p, SQL_TOK_RPAREN);
    }
    rc = sql__expr(p, &e);
    if (rc == 0 && sql__list_push(p, &n->func.args, e) < 0) rc = p->rc;
    if (rc == 0 && sql__accept_kw(p, "FOR")) {
        rc = sql__expr(p, &e);
        if (rc == 0 && sql__list_push(p, &n->func.args, e) < 0) rc = p->rc;
    }
    return rc == 0 ? sql__expect(p, SQL_TOK_RPAREN) : rc;
}

static int prefix_case(sql_parser *p, sql_node *n) {
    sql__advance(p);
    n->kind = SQL_CASE;
    int rc = 0;
    sql__expect_note(p, "WHEN");
    if (!word_is(p, "WHEN")) rc = sql__expr(p, &n->case_expr.operand);
    while (rc == 0 && sql__accept_kw(p, "WHEN")) {
        sql_node *w = NULL, *t = NULL;
        rc = sql__expr(p, &w);
        if (rc == 0) rc = sql__expect_kw(p, "THEN");
        if (rc == 0) rc = sql__expr(p, &t);
        if (rc == 0 && sql__list_push(p, &n->case_expr.whens, w) < 0) rc = p->rc;
        if (rc == 0 && sql__list_push(p, &n->case_expr.thens, t) < 0) rc = p->rc;
    }
    if (rc < 0) return rc;
    if (n->case_expr.whens.count == 0) return sql__fail_here(p);
    if (sql__accept_kw(p, "ELSE")) rc = sql__expr(p, &n->case_expr.else_expr);
    if (rc == 0) rc = sql__expect_kw(p, "END");
    return rc;
}

/* '(' subquery ')', '(' expr ')', or a tuple '(a, b)' / '()' / '(a,)'. */
static int prefix_paren(sql_parser *p, sql_node *n, sql_node **out) {
    sql__advance(p);
    if (sql__at_query_start(p)) {
        n->kind = SQL_SUBQUERY;
        int rc = sql__query(p, &n->subquery.query);
        if (rc == 0) rc = sql__expect(p, SQL_TOK_RPAREN);
        *out = n;
        return rc;
    }
    bool trailing = false;
    n->kind = SQL_TUPLE;
    int rc = expr_items(p, SQL_TOK_RPAREN, &n->array.items, &trailing);
    if (rc < 0) return rc;
    if (n->array.items.count == 1 && !trailing) {
        *out = n->array.items.items[0];
        return 0; /* keeps its own span, without the parentheses */
    }
    *out = n;
    return 0;
}

static int prefix_word(sql_parser *p, sql_node *n, sql_node **out) {
    *out = n;
    if (word_is(p, "NULL") || word_is(p, "TRUE") || word_is(p, "FALSE") || word_is(p, "INF") ||
        word_is(p, "NAN"))
        return word_literal(p, n);
    if (word_is(p, "NOT")) {
        sql__advance(p);
        n->kind = SQL_UNARY;
        n->unary.op = SQL_OP_NOT;
        return sql__expr_bp(p, SQL_BP_NOT, &n->unary.operand);
    }
    if (word_is(p, "CASE")) return prefix_case(p, n);
    if (word_is(p, "INTERVAL")) return prefix_interval(p, n);
    if (word_is(p, "CAST") && sql__peek_is(p, SQL_TOK_LPAREN, NULL)) return prefix_cast(p, n, out);
    if (word_is(p, "EXTRACT") && sql__peek_is(p, SQL_TOK_LPAREN, NULL))
        return prefix_extract(p, n, out);
    if (word_is(p, "SUBSTRING") && sql__peek_is(p, SQL_TOK_LPAREN, NULL))
        return prefix_substring(p, n, out);
    if (sql__peek_is(p, SQL_TOK_LPAREN, NULL)) {
        sql_str name;
        if (sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, &name) < 0) return p->rc;
        sql__advance(p);
        return sql__func_call(p, name, n->offset, out);
    }
    return compound_name(p, n, out);
}

static int prefix(sql_parser *p, sql_node **out) {
    sql_node *n = sql__node(p, SQL_LITERAL, p->tok.offset);
    if (n == NULL) return p->rc;
    int rc = 0;
    *out = n;
    switch (p->tok.kind) {
    case SQL_TOK_NUMBER: rc = number_literal(p, n); break;
    case SQL_TOK_STRING:
        n->literal.kind = SQL_LIT_STRING;
        rc = sql__string_literal(p, &n->literal.text);
        break;
    case SQL_TOK_PARAM: {
        const char *s = p->lx.text + p->tok.offset + 1;
        const char *colon = memchr(s, ':', p->tok.length - 2);
        MU_ASSERT(colon != NULL);
        const char *b = s, *e = colon, *tb = colon + 1, *te = s + p->tok.length - 2;
        while (b < e && (*b == ' ' || *b == '\t')) b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t')) e--;
        while (tb < te && (*tb == ' ' || *tb == '\t')) tb++;
        while (te > tb && (te[-1] == ' ' || te[-1] == '\t')) te--;
        n->kind = SQL_PARAM;
        if (sql__str_copy(p, b, (size_t)(e - b), &n->param.name) < 0) return p->rc;
        if (sql__str_copy(p, tb, (size_t)(te - tb), &n->param.type) < 0) return p->rc;
        sql__advance(p);
        break;
    }
    case SQL_TOK_WORD:
        /* SELECT(...) and WITH(...) are never calls: a subquery would read
         * them back differently once parenthesised. */
        if (sql_word_is_reserved(p->lx.text + p->tok.offset, p->tok.length) &&
            (!sql__peek_is(p, SQL_TOK_LPAREN, NULL) || word_is(p, "SELECT") || word_is(p, "WITH")) &&
            !word_is(p, "NULL") && !word_is(p, "TRUE") &&
            !word_is(p, "FALSE") && !word_is(p, "INF") && !word_is(p, "NAN") &&
            !word_is(p, "NOT") && !word_is(p, "CASE") && !word_is(p, "INTERVAL"))
            return sql__fail(p, "expression");
        rc = prefix_word(p, n, out);
        break;
    case SQL_TOK_QUOTED_IDENT: rc = compound_name(p, n, out); break;
    case SQL_TOK_STAR:
        n->kind = SQL_STAR;
        sql__advance(p);
        break;
    case SQL_TOK_MINUS:
        sql__advance(p);
        n->kind = SQL_UNARY;
        n->unary.op = SQL_OP_NEG;
        rc = sql__expr_bp(p, SQL_BP_UNARY, &n->unary.operand);
        break;
    case SQL_TOK_LPAREN: rc = prefix_paren(p, n, out); break;
    case SQL_TOK_LBRACKET: {
        bool trailing = false;
        sql__advance(p);
        n->kind = SQL_ARRAY;
        rc = expr_items(p, SQL_TOK_RBRACKET, &n->array.items, &trailing);
        break;
    }
    case SQL_TOK_LBRACE: {
        /* {k: v, ...} is map(k, v, ...), as in ClickHouse. */
        sql__advance(p);
        n->kind = SQL_FUNC;
        n->func.name.ptr = "map";
        n->func.name.length = 3;
        if (sql__accept(p, SQL_TOK_RBRACE)) break;
        for (;;) {
            sql_node *k = NULL, *v = NULL;
            rc = sql__expr(p, &k);
            if (rc < 0) return rc;
            if (!sql__accept(p, SQL_TOK_COLON)) return sql__fail(p, "':'");
            rc = sql__expr(p, &v);
            if (rc < 0) return rc;
            if (sql__list_push(p, &n->func.args, k) < 0 || sql__list_push(p, &n->func.args, v) < 0)
                return p->rc;
            if (sql__accept(p, SQL_TOK_RBRACE)) break;
            if (!sql__accept(p, SQL_TOK_COMMA)) return sql__fail(p, "',' or '}'");
        }
        break;
    }
    default: return sql__fail(p, "expression");
    }
    if (rc < 0) return rc;
    if (*out == n) sql__finish(p, n);
    return p->rc;
}

/* The binding power of the infix or postfix operator at the current token, 0
 * when there is none; *op receives its binary operator if it has one. */
static int infix_bp(sql_parser *p, sql_op *op) {
    *op = 0;
    switch (p->tok.kind) {
    case SQL_TOK_ARROW: return SQL_BP_LAMBDA;
    case SQL_TOK_QUESTION: return SQL_BP_TERNARY;
    case SQL_TOK_EQ: case SQL_TOK_EQEQ: *op = SQL_OP_EQ; return SQL_BP_COMPARE;
    case SQL_TOK_NE: case SQL_TOK_LTGT: *op = SQL_OP_NE; return SQL_BP_COMPARE;
    case SQL_TOK_LT: *op = SQL_OP_LT; return SQL_BP_COMPARE;
    case SQL_TOK_LE: *op = SQL_OP_LE; return SQL_BP_COMPARE;
    case SQL_TOK_GT: *op = SQL_OP_GT; return SQL_BP_COMPARE;
    case SQL_TOK_GE: *op = SQL_OP_GE; return SQL_BP_COMPARE;
    case SQL_TOK_CONCAT: *op = SQL_OP_CONCAT; return SQL_BP_CONCAT;
    case SQL_TOK_PLUS: *op = SQL_OP_ADD; return SQL_BP_ADD;
    case SQL_TOK_MINUS: *op = SQL_OP_SUB; return SQL_BP_ADD;
    case SQL_TOK_STAR: *op = SQL_OP_MUL; return SQL_BP_MUL;
    case SQL_TOK_SLASH: *op = SQL_OP_DIV; return SQL_BP_MUL;
    case SQL_TOK_PERCENT: *op = SQL_OP_MOD; return SQL_BP_MUL;
    case SQL_TOK_LBRACKET: case SQL_TOK_DCOLON: return SQL_BP_POSTFIX;
    case SQL_TOK_DOT: return sql__peek_is(p, SQL_TOK_NUMBER, NULL) ? SQL_BP_POSTFIX : 0;
    case SQL_TOK_WORD: break;
    default: return 0;
    }
    if (word_is(p, "OR")) { *op = SQL_OP_OR; return SQL_BP_OR; }
    if (word_is(p, "AND")) { *op = SQL_OP_AND; return SQL_BP_AND; }
    if (word_is(p, "IS")) return SQL_BP_IS_NULL;
    if (word_is(p, "LIKE")) { *op = SQL_OP_LIKE; return SQL_BP_COMPARE; }
    if (word_is(p, "ILIKE")) { *op = SQL_OP_ILIKE; return SQL_BP_COMPARE; }
    if (word_is(p, "IN")) { *op = SQL_OP_IN; return SQL_BP_COMPARE; }
    if (word_is(p, "BETWEEN")) return SQL_BP_COMPARE;
    if (word_is(p, "GLOBAL")) { *op = SQL_OP_GLOBAL_IN; return SQL_BP_COMPARE; }
    if (word_is(p, "NOT") &&
        (sql__peek_is(p, SQL_TOK_WORD, "LIKE") || sql__peek_is(p, SQL_TOK_WORD, "ILIKE") ||
         sql__peek_is(p, SQL_TOK_WORD, "IN") || sql__peek_is(p, SQL_TOK_WORD, "BETWEEN")))
        return SQL_BP_COMPARE;
    return 0;
}

/* x -> body or (x, y) -> body: the left side must be bare names. */
static int infix_lambda(sql_parser *p, sql_node *left, sql_node *n) {
    n->kind = SQL_LAMBDA;
    if (left->kind == SQL_IDENT && left->ident.count == 1 && left->alias.ptr == NULL) {
        if (sql__list_push(p, &n->lambda.params, left) < 0) return p->rc;
    } else if (left->kind == SQL_TUPLE && left->alias.ptr == NULL) {
        for (size_t i = 0; i < left->array.items.count; i++) {
            sql_node *e = left->array.items.items[i];
            if (e->kind != SQL_IDENT || e->ident.count != 1 || e->alias.ptr != NULL)
                return sql__fail(p, "lambda parameters as bare identifiers");
        }
        n->lambda.params = left->array.items;
    } else {
        return sql__fail(p, "lambda parameters as bare identifiers");
    }
    sql__advance(p);
    return sql__expr_bp(p, SQL_BP_LAMBDA - 1, &n->lambda.body);
}

/* The operators spelled with words after the left operand: IS [NOT] NULL,
 * [NOT] BETWEEN, [NOT] LIKE / ILIKE / IN, GLOBAL [NOT] IN. */
static int infix_word(sql_parser *p, sql_op op, sql_node *left, sql_node *n) {
    if (sql__accept_kw(p, "IS")) {
        n->kind = SQL_IS_NULL;
        n->is_null.expr = left;
        n->is_null.negated = sql__accept_kw(p, "NOT");
        return sql__expect_kw(p, "NULL");
    }
    bool global = op == SQL_OP_GLOBAL_IN && sql__accept_kw(p, "GLOBAL");
    bool negated = sql__accept_kw(p, "NOT");
    if (sql__accept_kw(p, "BETWEEN")) {
        n->kind = SQL_BETWEEN;
        n->between.expr = left;
        n->between.negated = negated;
        int rc = sql__expr_bp(p, SQL_BP_COMPARE, &n->between.low);
        if (rc == 0) rc = sql__expect_kw(p, "AND");
        if (rc == 0) rc = sql__expr_bp(p, SQL_BP_COMPARE, &n->between.high);
        return rc;
    }
    if (sql__accept_kw(p, "LIKE")) op = negated ? SQL_OP_NOT_LIKE : SQL_OP_LIKE;
    else if (sql__accept_kw(p, "ILIKE")) op = negated ? SQL_OP_NOT_ILIKE : SQL_OP_ILIKE;
    else if (sql__accept_kw(p, "IN"))
        op = global ? (negated ? SQL_OP_GLOBAL_NOT_IN : SQL_OP_GLOBAL_IN)
                    : (negated ? SQL_OP_NOT_IN : SQL_OP_IN);
    else
        return sql__fail_here(p);
    if (global && op != SQL_OP_GLOBAL_IN && op != SQL_OP_GLOBAL_NOT_IN) return sql__fail(p, "IN");
    n->kind = SQL_BINARY;
    n->binary.op = op;
    n->binary.left = left;
    return sql__expr_bp(p, SQL_BP_COMPARE, &n->binary.right);
}

static int infix_postfix(sql_parser *p, sql_node *left, sql_node *n) {
    if (sql__accept(p, SQL_TOK_LBRACKET)) {
        n->kind = SQL_ELEMENT;
        n->element.expr = left;
        int rc = sql__expr(p, &n->element.index);
        return rc == 0 ? sql__expect(p, SQL_TOK_RBRACKET) : rc;
    }
    if (sql__accept(p, SQL_TOK_DCOLON)) {
        n->kind = SQL_CAST;
        n->cast.expr = left;
        n->cast.operator_form = true;
        return sql__type_text(p, &n->cast.type);
    }
    MU_ASSERT(p->tok.kind == SQL_TOK_DOT);
    sql__advance(p);
    n->kind = SQL_TUPLE_ELEMENT;
    n->element.expr = left;
    const char *t = p->lx.text + p->tok.offset;
    if (p->tok.kind != SQL_TOK_NUMBER || memchr(t, '.', p->tok.length) != NULL)
        return sql__fail(p, "tuple element number");
    sql_node *index = sql__node(p, SQL_LITERAL, p->tok.offset);
    if (index == NULL) return p->rc;
    n->element.index = index;
    int rc = number_literal(p, index);
    if (rc == 0 && index->literal.kind != SQL_LIT_UINT) return sql__fail(p, "integer");
    sql__finish(p, index);
    return rc;
}

/* One operator applied to `left`; bp is its binding power. */
static int infix(sql_parser *p, int bp, sql_op op, sql_node *left, sql_node *n) {
    if (p->tok.kind == SQL_TOK_ARROW) return infix_lambda(p, left, n);
    if (sql__accept(p, SQL_TOK_QUESTION)) {
        n->kind = SQL_TERNARY;
        n->ternary.cond = left;
        int rc = sql__expr(p, &n->ternary.then_expr);
        if (rc == 0) rc = sql__expect(p, SQL_TOK_COLON);
        if (rc == 0) rc = sql__expr_bp(p, SQL_BP_TERNARY - 1, &n->ternary.else_expr);
        return rc;
    }
    if (bp == SQL_BP_POSTFIX) return infix_postfix(p, left, n);
    if (p->tok.kind == SQL_TOK_WORD && op != SQL_OP_OR && op != SQL_OP_AND)
        return infix_word(p, op, left, n);
    n->kind = SQL_BINARY;
    n->binary.op = op;
    n->binary.left = left;
    sql__advance(p);
    return sql__expr_bp(p, bp, &n->binary.right);
}

static int expr_bp_inner(sql_parser *p, int min_bp, sql_node **out) {
    sql_node *left = NULL;
    int rc = prefix(p, &left);
    /* Operators stacked by this loop deepen the tree without recursion. */
    unsigned stacked = 0;
    while (rc == 0) {
        sql_op op;
        int bp = infix_bp(p, &op);
        if (bp == 0 || bp <= min_bp) break;
        if (p->depth + ++stacked > p->depth_max) {
            p->rc = MU_ERR(p->err, MU_ETOO_DEEP,
                           "Maximum parse depth (%u) exceeded at position %zu (TOO_DEEP_AST)",
                           p->depth_max, p->tok.offset + 1);
            return p->rc;
        }
        sql_node *n = sql__node(p, SQL_BINARY, left->offset);
        if (n == NULL) return p->rc;
        rc = infix(p, bp, op, left, n);
        sql__finish(p, n);
        left = n;
    }
    if (rc < 0) return rc;
    MU_ASSERT(left != NULL);
    MU_ASSERT(left->kind > 0 && left->kind < SQL_QUERY);
    *out = left;
    return p->rc;
}

int sql__expr_bp(sql_parser *p, int min_bp, sql_node **out) {
    int rc = sql__enter(p);
    if (rc < 0) return rc;
    rc = expr_bp_inner(p, min_bp, out);
    sql__leave(p);
    return rc;
}

/* [AS] alias after an expression or table; `implicit_alias` allows a bare
 * name without AS. */
int sql__alias(sql_parser *p, bool implicit_alias, sql_node *node) {
    if (sql__accept_kw(p, "AS")) return sql__ident_word(p, "alias", &node->alias);
    if (!implicit_alias) return p->rc;
    bool bare = p->tok.kind == SQL_TOK_WORD &&
                !sql_word_is_reserved(p->lx.text + p->tok.offset, p->tok.length);
    if (bare || p->tok.kind == SQL_TOK_QUOTED_IDENT)
        return sql__ident_word(p, "alias", &node->alias);
    sql__expect_note(p, "alias");
    return p->rc;
}

int sql__expr_alias(sql_parser *p, bool implicit_alias, sql_node **out) {
    int rc = sql__expr(p, out);
    if (rc == 0 && (*out)->kind != SQL_STAR) rc = sql__alias(p, implicit_alias, *out);
    return rc;
}

int sql__expr_list(sql_parser *p, bool implicit_alias, sql_list *out) {
    do {
        sql_node *e = NULL;
        int rc = sql__expr_alias(p, implicit_alias, &e);
        if (rc < 0) return rc;
        if (sql__list_push(p, out, e) < 0) return p->rc;
    } while (sql__accept(p, SQL_TOK_COMMA));
    return p->rc;
}
