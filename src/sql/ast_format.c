/* ast_format.c: renders an AST as canonical SQL (used for SHOW CREATE TABLE,
 * query logs and the parser's round-trip tests). Keywords upper-case, one
 * space between tokens, identifiers back-quoted only when needed, strings
 * re-escaped, and parentheses exactly where the parser's binding powers
 * require them, so parse(format(ast)) formats to the same bytes.
 * Invariant: recursion is bounded by SQL_FORMAT_DEPTH_MAX (TOO_DEEP_AST).
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define SQL_FORMAT_DEPTH_MAX 10000

typedef struct fmt {
    mu_buf *out;
    mu_err *err;
    int rc;
    unsigned depth;
} fmt;

static void put_n(fmt *f, const char *s, size_t n) {
    if (f->rc == 0 && n > 0) f->rc = mu_buf_append(f->out, s, n, f->err);
}

static void put(fmt *f, const char *s) { put_n(f, s, strlen(s)); }

static void put_raw(fmt *f, sql_str s) { put_n(f, s.ptr, s.length); }

/* Escapes a byte for a quoted token; quote is ' or `. */
static void put_escaped(fmt *f, sql_str s, char quote) {
    char q[2] = {quote, 0};
    put(f, q);
    for (size_t i = 0; i < s.length && f->rc == 0; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        char esc[8];
        if (c == '\\' || c == (unsigned char)quote) {
            esc[0] = '\\';
            esc[1] = (char)c;
            put_n(f, esc, 2);
        } else if (c == '\n') {
            put(f, "\\n");
        } else if (c == '\t') {
            put(f, "\\t");
        } else if (c == '\r') {
            put(f, "\\r");
        } else if (c == '\0') {
            put(f, "\\0");
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof(esc), "\\x%02X", c);
            put(f, esc);
        } else {
            put_n(f, (const char *)&c, 1);
        }
    }
    put(f, q);
}

/* Words the parser reads as keywords in some position of a name. */
static bool ident_needs_quotes(sql_str s) {
    static const char *const contextual[] = {
        "INDEX", "DEFAULT", "MATERIALIZED", "ALIAS", "COMMENT", "CODEC", "TTL", "LOGS",
        "TOTALS", "NULLS", "FIRST", "LAST", "AFTER", "TABLE", "DATABASE", "IF",
    };
    if (s.length == 0) return true;
    for (size_t i = 0; i < s.length; i++) {
        char c = s.ptr[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return true;
    }
    if (sql_word_is_reserved(s.ptr, s.length)) return true;
    for (size_t i = 0; i < MU_ARRAY_LEN(contextual); i++)
        if (strlen(contextual[i]) == s.length && strncasecmp(contextual[i], s.ptr, s.length) == 0)
            return true;
    return false;
}

static void put_ident(fmt *f, sql_str s) {
    if (ident_needs_quotes(s)) put_escaped(f, s, '`');
    else put_raw(f, s);
}

/* After '.', any plain word reads as a name, keywords included. */
static void put_ident_after_dot(fmt *f, sql_str s) {
    bool plain = s.length > 0 && !(s.ptr[0] >= '0' && s.ptr[0] <= '9');
    for (size_t i = 0; i < s.length && plain; i++) {
        char c = s.ptr[i];
        plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                (c >= '0' && c <= '9');
    }
    if (plain) put_raw(f, s);
    else put_escaped(f, s, '`');
}

static void put_name_pair(fmt *f, sql_str database, sql_str name) {
    if (database.ptr != NULL) {
        put_ident(f, database);
        put(f, ".");
        put_ident_after_dot(f, name);
        return;
    }
    put_ident(f, name);
}

const char *sql_op_text(sql_op op) {
    static const char *const texts[SQL_OP_COUNT] = {
        [SQL_OP_NEG] = "-", [SQL_OP_NOT] = "NOT", [SQL_OP_OR] = "OR", [SQL_OP_AND] = "AND",
        [SQL_OP_EQ] = "=", [SQL_OP_NE] = "!=", [SQL_OP_LT] = "<", [SQL_OP_LE] = "<=",
        [SQL_OP_GT] = ">", [SQL_OP_GE] = ">=", [SQL_OP_LIKE] = "LIKE",
        [SQL_OP_NOT_LIKE] = "NOT LIKE", [SQL_OP_ILIKE] = "ILIKE",
        [SQL_OP_NOT_ILIKE] = "NOT ILIKE", [SQL_OP_IN] = "IN", [SQL_OP_NOT_IN] = "NOT IN",
        [SQL_OP_GLOBAL_IN] = "GLOBAL IN", [SQL_OP_GLOBAL_NOT_IN] = "GLOBAL NOT IN",
        [SQL_OP_CONCAT] = "||", [SQL_OP_ADD] = "+", [SQL_OP_SUB] = "-", [SQL_OP_MUL] = "*",
        [SQL_OP_DIV] = "/", [SQL_OP_MOD] = "%",
    };
    if ((unsigned)op >= SQL_OP_COUNT || texts[op] == NULL) return "?";
    return texts[op];
}

static int op_bp(sql_op op) {
    switch (op) {
    case SQL_OP_OR: return SQL_BP_OR;
    case SQL_OP_AND: return SQL_BP_AND;
    case SQL_OP_CONCAT: return SQL_BP_CONCAT;
    case SQL_OP_ADD: case SQL_OP_SUB: return SQL_BP_ADD;
    case SQL_OP_MUL: case SQL_OP_DIV: case SQL_OP_MOD: return SQL_BP_MUL;
    default: return SQL_BP_COMPARE;
    }
}

/* How tightly a node binds when printed without parentheses. */
static int node_bp(const sql_node *n) {
    switch (n->kind) {
    case SQL_LAMBDA: return SQL_BP_LAMBDA;
    case SQL_TERNARY: return SQL_BP_TERNARY;
    case SQL_BINARY: return op_bp(n->binary.op);
    case SQL_UNARY: return n->unary.op == SQL_OP_NOT ? SQL_BP_NOT : SQL_BP_UNARY;
    case SQL_IS_NULL: return SQL_BP_IS_NULL;
    case SQL_BETWEEN: return SQL_BP_COMPARE;
    case SQL_ELEMENT: case SQL_TUPLE_ELEMENT: return SQL_BP_POSTFIX;
    case SQL_CAST: return n->cast.operator_form ? SQL_BP_POSTFIX : 100;
    default: return 100;
    }
}

static void put_node(fmt *f, const sql_node *n);

static void put_expr_bare(fmt *f, const sql_node *n);

/* An operand that must bind at least `need`; aliased operands are wrapped
 * so the alias stays on them. */
static void put_operand(fmt *f, const sql_node *n, int need) {
    MU_ASSERT(n != NULL);
    bool wrap = n->alias.ptr != NULL || node_bp(n) < need;
    if (wrap) put(f, "(");
    put_expr_bare(f, n);
    if (n->alias.ptr != NULL) {
        put(f, " AS ");
        put_ident(f, n->alias);
    }
    if (wrap) put(f, ")");
}

/* An expression in a list position (select list, arguments): alias inline. */
static void put_item(fmt *f, const sql_node *n) {
    if (n->kind >= SQL_QUERY) {
        put_node(f, n);
        return;
    }
    put_expr_bare(f, n);
    if (n->alias.ptr != NULL) {
        put(f, " AS ");
        put_ident(f, n->alias);
    }
}

static void put_list(fmt *f, const sql_list *l) {
    for (size_t i = 0; i < l->count; i++) {
        if (i > 0) put(f, ", ");
        put_item(f, l->items[i]);
    }
}

static void put_literal(fmt *f, const sql_node *n) {
    switch (n->literal.kind) {
    case SQL_LIT_NULL: put(f, "NULL"); break;
    case SQL_LIT_BOOL: put(f, n->literal.u64 ? "true" : "false"); break;
    case SQL_LIT_STRING: put_escaped(f, n->literal.text, '\''); break;
    default: put_raw(f, n->literal.text); break;
    }
}

static void put_func(fmt *f, const sql_node *n) {
    put_raw(f, n->func.name);
    if (n->flag) return; /* engine or index type written without parentheses */
    put(f, "(");
    if (n->func.has_params) {
        put_list(f, &n->func.params);
        put(f, ")(");
    }
    if (n->func.distinct) put(f, "DISTINCT ");
    put_list(f, &n->func.args);
    put(f, ")");
}

static void put_case(fmt *f, const sql_node *n) {
    put(f, "CASE");
    if (n->case_expr.operand != NULL) {
        put(f, " ");
        put_operand(f, n->case_expr.operand, 0);
    }
    for (size_t i = 0; i < n->case_expr.whens.count; i++) {
        put(f, " WHEN ");
        put_operand(f, n->case_expr.whens.items[i], 0);
        put(f, " THEN ");
        put_operand(f, n->case_expr.thens.items[i], 0);
    }
    if (n->case_expr.else_expr != NULL) {
        put(f, " ELSE ");
        put_operand(f, n->case_expr.else_expr, 0);
    }
    put(f, " END");
}

static void put_lambda(fmt *f, const sql_node *n) {
    const sql_list *params = &n->lambda.params;
    if (params->count != 1) put(f, "(");
    for (size_t i = 0; i < params->count; i++) {
        if (i > 0) put(f, ", ");
        put_ident(f, params->items[i]->ident.parts[0]);
    }
    if (params->count != 1) put(f, ")");
    put(f, " -> ");
    put_operand(f, n->lambda.body, 0);
}

static void put_tuple(fmt *f, const sql_node *n) {
    put(f, "(");
    put_list(f, &n->array.items);
    if (n->array.items.count == 1) put(f, ",");
    put(f, ")");
}

/* x.N needs x to end in a name or bracket, or ".N" would lex as a number. */
static bool tuple_base_safe(const sql_node *e) {
    return e->alias.ptr == NULL &&
           (e->kind == SQL_IDENT || e->kind == SQL_FUNC || e->kind == SQL_TUPLE ||
            e->kind == SQL_ARRAY || e->kind == SQL_ELEMENT || e->kind == SQL_SUBQUERY ||
            e->kind == SQL_CASE || (e->kind == SQL_CAST && !e->cast.operator_form));
}

static void put_postfix(fmt *f, const sql_node *n) {
    if (n->kind == SQL_ELEMENT) {
        put_operand(f, n->element.expr, SQL_BP_POSTFIX);
        put(f, "[");
        put_operand(f, n->element.index, 0);
        put(f, "]");
    } else if (n->kind == SQL_TUPLE_ELEMENT) {
        const sql_node *e = n->element.expr;
        bool wrap = !tuple_base_safe(e) && !(e->kind == SQL_TUPLE_ELEMENT && e->alias.ptr == NULL);
        if (wrap) put(f, "(");
        put_operand(f, e, wrap ? 0 : SQL_BP_POSTFIX);
        if (wrap) put(f, ")");
        put(f, ".");
        put_raw(f, n->element.index->literal.text);
    } else if (n->cast.operator_form) {
        put_operand(f, n->cast.expr, SQL_BP_POSTFIX);
        put(f, "::");
        put_raw(f, n->cast.type);
    } else {
        put(f, "CAST(");
        put_item(f, n->cast.expr);
        put(f, " AS ");
        put_raw(f, n->cast.type);
        put(f, ")");
    }
}

static void put_operator(fmt *f, const sql_node *n) {
    switch (n->kind) {
    case SQL_UNARY:
        if (n->unary.op == SQL_OP_NOT) {
            put(f, "NOT ");
            put_operand(f, n->unary.operand, SQL_BP_NOT + 1);
        } else {
            put(f, "-");
            put_operand(f, n->unary.operand, SQL_BP_UNARY + 1);
        }
        break;
    case SQL_BINARY: {
        int bp = op_bp(n->binary.op);
        put_operand(f, n->binary.left, bp);
        put(f, " ");
        put(f, sql_op_text(n->binary.op));
        put(f, " ");
        const sql_node *r = n->binary.right;
        /* IN keeps a parenthesised single value: x IN ('a'). */
        bool in_list = n->binary.op >= SQL_OP_IN && n->binary.op <= SQL_OP_GLOBAL_NOT_IN &&
                       r->alias.ptr == NULL && r->kind != SQL_TUPLE &&
                       r->kind != SQL_SUBQUERY && r->kind != SQL_IDENT;
        if (in_list) put(f, "(");
        put_operand(f, r, in_list ? 0 : bp + 1);
        if (in_list) put(f, ")");
        break;
    }
    case SQL_BETWEEN:
        put_operand(f, n->between.expr, SQL_BP_COMPARE);
        put(f, n->between.negated ? " NOT BETWEEN " : " BETWEEN ");
        put_operand(f, n->between.low, SQL_BP_COMPARE + 1);
        put(f, " AND ");
        put_operand(f, n->between.high, SQL_BP_COMPARE + 1);
        break;
    case SQL_IS_NULL:
        put_operand(f, n->is_null.expr, SQL_BP_IS_NULL);
        put(f, n->is_null.negated ? " IS NOT NULL" : " IS NULL");
        break;
    case SQL_TERNARY:
        put_operand(f, n->ternary.cond, SQL_BP_TERNARY + 1);
        put(f, " ? ");
        put_operand(f, n->ternary.then_expr, 0);
        put(f, " : ");
        put_operand(f, n->ternary.else_expr, SQL_BP_TERNARY);
        break;
    default: put_lambda(f, n); break;
    }
}

static void put_expr_kinds(fmt *f, const sql_node *n) {
    switch (n->kind) {
    case SQL_LITERAL: put_literal(f, n); break;
    case SQL_IDENT:
        for (size_t i = 0; i < n->ident.count; i++) {
            if (i > 0) put(f, ".");
            if (i > 0) put_ident_after_dot(f, n->ident.parts[i]);
            else put_ident(f, n->ident.parts[i]);
        }
        break;
    case SQL_STAR:
        if (n->star.qualifier != NULL) {
            put_expr_bare(f, n->star.qualifier);
            put(f, ".");
        }
        put(f, "*");
        break;
    case SQL_PARAM:
        put(f, "{");
        put_raw(f, n->param.name);
        put(f, ":");
        put_raw(f, n->param.type);
        put(f, "}");
        break;
    case SQL_FUNC: put_func(f, n); break;
    case SQL_CASE: put_case(f, n); break;
    case SQL_INTERVAL:
        put(f, "INTERVAL ");
        put_operand(f, n->interval.value, SQL_BP_UNARY + 1);
        put(f, " ");
        put_raw(f, n->interval.unit);
        break;
    case SQL_EXTRACT:
        put(f, "EXTRACT(");
        put_raw(f, n->extract.unit);
        put(f, " FROM ");
        put_operand(f, n->extract.expr, 0);
        put(f, ")");
        break;
    case SQL_ARRAY:
        put(f, "[");
        put_list(f, &n->array.items);
        put(f, "]");
        break;
    case SQL_TUPLE: put_tuple(f, n); break;
    case SQL_SUBQUERY:
        put(f, "(");
        put_node(f, n->subquery.query);
        put(f, ")");
        break;
    case SQL_ELEMENT: case SQL_TUPLE_ELEMENT: case SQL_CAST: put_postfix(f, n); break;
    default: put_operator(f, n); break;
    }
}

static void put_expr_bare(fmt *f, const sql_node *n) {
    if (f->rc < 0) return;
    if (++f->depth > SQL_FORMAT_DEPTH_MAX) {
        f->rc = MU_ERR(f->err, MU_ETOO_DEEP, "AST deeper than %d while formatting (TOO_DEEP_AST)",
                       SQL_FORMAT_DEPTH_MAX);
        return;
    }
    MU_ASSERT(n->kind > 0 && n->kind < SQL_QUERY);
    put_expr_kinds(f, n);
    f->depth--;
}

/* ------------------------------------------------------------------ */
/* Query parts and statements                                          */
/* ------------------------------------------------------------------ */

static void put_keyword_expr(fmt *f, const char *keyword, const sql_node *e) {
    if (e == NULL) return;
    put(f, keyword);
    put_operand(f, e, 0);
}

static void put_keyword_list(fmt *f, const char *keyword, const sql_list *l) {
    if (l->count == 0) return;
    put(f, keyword);
    for (size_t i = 0; i < l->count; i++) {
        if (i > 0) put(f, ", ");
        put_node(f, l->items[i]);
    }
}

static void put_alias(fmt *f, const sql_node *n) {
    if (n->alias.ptr == NULL) return;
    put(f, " AS ");
    put_ident(f, n->alias);
}

static const char *join_kind_text(sql_join_kind kind) {
    switch (kind) {
    case SQL_JOIN_CROSS: return "CROSS JOIN ";
    case SQL_JOIN_LEFT: return "LEFT JOIN ";
    case SQL_JOIN_RIGHT: return "RIGHT JOIN ";
    case SQL_JOIN_FULL: return "FULL JOIN ";
    case SQL_JOIN_ARRAY: return "ARRAY JOIN ";
    case SQL_JOIN_LEFT_ARRAY: return "LEFT ARRAY JOIN ";
    default: return "INNER JOIN ";
    }
}

static void put_join(fmt *f, const sql_node *n) {
    static const char *const strictness[] = {"", "ANY ", "ALL ", "SEMI ", "ANTI ", "ASOF "};
    put_node(f, n->join.left);
    if (n->join.kind == SQL_JOIN_COMMA) {
        put(f, ", ");
        put_node(f, n->join.right);
        return;
    }
    put(f, " ");
    if (n->join.global) put(f, "GLOBAL ");
    if ((unsigned)n->join.strictness < MU_ARRAY_LEN(strictness))
        put(f, strictness[n->join.strictness]);
    put(f, join_kind_text(n->join.kind));
    if (n->join.right == NULL) {
        put_list(f, &n->join.using_list);
        return;
    }
    put_node(f, n->join.right);
    put_keyword_expr(f, " ON ", n->join.on);
    if (n->join.using_list.count > 0) {
        put(f, " USING (");
        put_list(f, &n->join.using_list);
        put(f, ")");
    }
}

static void put_with_item(fmt *f, const sql_node *n) {
    if (n->kind == SQL_CTE) {
        put_ident(f, n->cte.name);
        put(f, " AS (");
        put_node(f, n->cte.query);
        put(f, ")");
        return;
    }
    put_item(f, n);
}

static void put_limits(fmt *f, const sql_node *n) {
    if (n->select.limit_by.count > 0) {
        put(f, " LIMIT ");
        put_operand(f, n->select.limit_by_count, 0);
        put_keyword_expr(f, " OFFSET ", n->select.limit_by_offset);
        put(f, " BY ");
        put_list(f, &n->select.limit_by);
    }
    put_keyword_expr(f, " LIMIT ", n->select.limit);
    put_keyword_expr(f, " OFFSET ", n->select.offset);
}

static void put_select(fmt *f, const sql_node *n) {
    if (n->select.with.count > 0) {
        put(f, "WITH ");
        for (size_t i = 0; i < n->select.with.count; i++) {
            if (i > 0) put(f, ", ");
            put_with_item(f, n->select.with.items[i]);
        }
        put(f, " ");
    }
    put(f, n->select.distinct ? "SELECT DISTINCT " : "SELECT ");
    put_list(f, &n->select.columns);
    if (n->select.from != NULL) {
        put(f, " FROM ");
        put_node(f, n->select.from);
    }
    put_keyword_expr(f, " PREWHERE ", n->select.prewhere);
    put_keyword_expr(f, " WHERE ", n->select.where);
    if (n->select.group_by.count > 0) {
        put(f, " GROUP BY ");
        put_list(f, &n->select.group_by);
    }
    if (n->select.with_totals) put(f, " WITH TOTALS");
    put_keyword_expr(f, " HAVING ", n->select.having);
    put_keyword_list(f, " ORDER BY ", &n->select.order_by);
    put_limits(f, n);
    put_keyword_list(f, " SETTINGS ", &n->select.settings);
}

static void put_query(fmt *f, const sql_node *n) {
    for (size_t i = 0; i < n->query.selects.count; i++) {
        const sql_node *s = n->query.selects.items[i];
        if (i > 0) put(f, s->select.union_distinct ? " UNION DISTINCT " : " UNION ALL ");
        put_select(f, s);
    }
    if (n->query.format.ptr != NULL) {
        put(f, " FORMAT ");
        put_ident(f, n->query.format);
    }
}

static void put_column_def(fmt *f, const sql_node *n) {
    static const char *const kinds[] = {"", " DEFAULT ", " MATERIALIZED ", " ALIAS ",
                                        " EPHEMERAL "};
    put_ident(f, n->column_def.name);
    if (n->column_def.type.ptr != NULL) {
        put(f, " ");
        put_raw(f, n->column_def.type);
    }
    if (n->column_def.default_expr != NULL &&
        (unsigned)n->column_def.default_kind < MU_ARRAY_LEN(kinds))
        put_keyword_expr(f, kinds[n->column_def.default_kind], n->column_def.default_expr);
    if (n->column_def.comment.ptr != NULL) {
        put(f, " COMMENT ");
        put_escaped(f, n->column_def.comment, '\'');
    }
    if (n->column_def.codec != NULL) {
        put(f, " ");
        put_func(f, n->column_def.codec);
    }
    put_keyword_expr(f, " TTL ", n->column_def.ttl);
}

static void put_index_def(fmt *f, const sql_node *n) {
    put(f, "INDEX ");
    put_ident(f, n->index_def.name);
    put(f, " ");
    put_operand(f, n->index_def.expr, 0);
    put(f, " TYPE ");
    put_func(f, n->index_def.type);
    put_keyword_expr(f, " GRANULARITY ", n->index_def.granularity);
}

static void put_create_elements(fmt *f, const sql_node *n) {
    if (n->create.columns.count == 0) return;
    put(f, " (");
    put_list(f, &n->create.columns);
    for (size_t i = 0; i < n->create.indexes.count; i++) {
        put(f, ", ");
        put_node(f, n->create.indexes.items[i]);
    }
    put(f, ")");
}

static void put_create(fmt *f, const sql_node *n) {
    bool table = n->kind == SQL_CREATE_TABLE;
    put(f, table ? "CREATE TABLE " : "CREATE DATABASE ");
    if (n->create.if_not_exists) put(f, "IF NOT EXISTS ");
    put_name_pair(f, n->create.database, n->create.name);
    put_create_elements(f, n);
    if (n->create.engine != NULL) {
        put(f, " ENGINE = ");
        put_func(f, n->create.engine);
    }
    put_keyword_expr(f, " PARTITION BY ", n->create.partition_by);
    put_keyword_expr(f, " PRIMARY KEY ", n->create.primary_key);
    put_keyword_expr(f, " ORDER BY ", n->create.order_by);
    put_keyword_list(f, " TTL ", &n->create.ttl);
    put_keyword_list(f, " SETTINGS ", &n->create.settings);
    if (n->create.comment.ptr != NULL) {
        put(f, " COMMENT ");
        put_escaped(f, n->create.comment, '\'');
    }
    if (n->create.as_select != NULL) {
        put(f, " AS ");
        put_node(f, n->create.as_select);
    }
}

static void put_insert(fmt *f, const sql_node *n) {
    put(f, "INSERT INTO ");
    put_name_pair(f, n->insert.database, n->insert.table);
    if (n->insert.columns.count > 0) {
        put(f, " (");
        put_list(f, &n->insert.columns);
        put(f, ")");
    }
    if (n->insert.select != NULL) {
        put(f, " ");
        put_node(f, n->insert.select);
    } else if (sql_str_eq(n->insert.format, "Values")) {
        put(f, " VALUES");
    } else {
        put(f, " FORMAT ");
        put_raw(f, n->insert.format);
    }
}

static void put_alter_cmd(fmt *f, const sql_node *c) {
    switch (c->alter_cmd.kind) {
    case SQL_ALTER_ADD_COLUMN:
        put(f, c->alter_cmd.if_flag ? "ADD COLUMN IF NOT EXISTS " : "ADD COLUMN ");
        put_column_def(f, c->alter_cmd.column);
        if (c->alter_cmd.after.ptr != NULL) {
            put(f, " AFTER ");
            put_ident(f, c->alter_cmd.after);
        } else if (c->alter_cmd.first) {
            put(f, " FIRST");
        }
        break;
    case SQL_ALTER_DROP_COLUMN:
        put(f, c->alter_cmd.if_flag ? "DROP COLUMN IF EXISTS " : "DROP COLUMN ");
        put_ident(f, c->alter_cmd.name);
        break;
    case SQL_ALTER_MODIFY_COLUMN:
        put(f, c->alter_cmd.if_flag ? "MODIFY COLUMN IF EXISTS " : "MODIFY COLUMN ");
        put_column_def(f, c->alter_cmd.column);
        break;
    case SQL_ALTER_MODIFY_TTL: put_keyword_list(f, "MODIFY TTL ", &c->alter_cmd.exprs); break;
    default: put_keyword_list(f, "MODIFY SETTING ", &c->alter_cmd.exprs); break;
    }
}

static void put_object(fmt *f, const char *head, const sql_node *n) {
    put(f, head);
    if (n->object.if_exists) put(f, "IF EXISTS ");
    put_name_pair(f, n->object.database, n->object.name);
}

static void put_format(fmt *f, const sql_node *n) {
    if (n->format.ptr == NULL) return;
    put(f, " FORMAT ");
    put_ident(f, n->format);
}

static void put_show(fmt *f, const sql_node *n) {
    if (n->kind == SQL_SHOW_CREATE) {
        put_object(f, "SHOW CREATE TABLE ", n);
    } else {
        put(f, n->kind == SQL_SHOW_DATABASES ? "SHOW DATABASES" : "SHOW TABLES");
        if (n->show.from_database.ptr != NULL) {
            put(f, " FROM ");
            put_ident(f, n->show.from_database);
        }
        if (n->show.like.ptr != NULL) {
            put(f, n->show.not_like ? " NOT LIKE " : " LIKE ");
            put_escaped(f, n->show.like, '\'');
        }
    }
    put_format(f, n);
}

static void put_misc(fmt *f, const sql_node *n) {
    switch (n->kind) {
    case SQL_DROP:
        put_object(f, n->object.is_database ? "DROP DATABASE " : "DROP TABLE ", n);
        if (n->flag) put(f, " SYNC");
        break;
    case SQL_TRUNCATE: put_object(f, "TRUNCATE TABLE ", n); break;
    case SQL_RENAME:
        put(f, "RENAME TABLE ");
        for (size_t i = 0; i < n->rename.from.count; i++) {
            if (i > 0) put(f, ", ");
            put_node(f, n->rename.from.items[i]);
            put(f, " TO ");
            put_node(f, n->rename.to.items[i]);
        }
        break;
    case SQL_EXISTS:
        put_object(f, n->object.is_database ? "EXISTS DATABASE " : "EXISTS TABLE ", n);
        put_format(f, n);
        break;
    case SQL_DESCRIBE:
        put_object(f, "DESCRIBE TABLE ", n);
        put_format(f, n);
        break;
    case SQL_USE: put_object(f, "USE ", n); break;
    case SQL_SET: put_keyword_list(f, "SET ", &n->set.settings); break;
    case SQL_OPTIMIZE:
        put_object(f, "OPTIMIZE TABLE ", n);
        if (n->flag) put(f, " FINAL");
        break;
    case SQL_DELETE:
        put(f, "DELETE FROM ");
        put_name_pair(f, n->delete_stmt.database, n->delete_stmt.table);
        put_keyword_expr(f, " WHERE ", n->delete_stmt.where);
        break;
    case SQL_SYSTEM_FLUSH_LOGS: put(f, "SYSTEM FLUSH LOGS"); break;
    case SQL_SYSTEM_FLUSH_TABLE: put_object(f, "SYSTEM FLUSH TABLE ", n); break;
    case SQL_KILL_QUERY:
        put_keyword_expr(f, "KILL QUERY WHERE ", n->kill.where);
        if (n->kill.mode.ptr != NULL) {
            put(f, " ");
            put_raw(f, n->kill.mode);
        }
        break;
    default: put_show(f, n); break;
    }
}

static void put_node_kinds(fmt *f, const sql_node *n) {
    switch (n->kind) {
    case SQL_QUERY: put_query(f, n); break;
    case SQL_SELECT: put_select(f, n); break;
    case SQL_CTE: put_with_item(f, n); break;
    case SQL_TABLE:
        put_name_pair(f, n->table.database, n->table.name);
        put_alias(f, n);
        if (n->table.final) put(f, " FINAL");
        break;
    case SQL_TABLE_FUNC:
        put_func(f, n->table_func.func);
        put_alias(f, n);
        break;
    case SQL_JOIN: put_join(f, n); break;
    case SQL_ORDER_ITEM:
        put_operand(f, n->order_item.expr, 0);
        if (n->order_item.desc) put(f, " DESC");
        if (n->order_item.nulls != SQL_NULLS_DEFAULT)
            put(f, n->order_item.nulls == SQL_NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST");
        break;
    case SQL_SETTING:
        put_ident(f, n->setting.name);
        put(f, " = ");
        put_operand(f, n->setting.value, 0);
        break;
    case SQL_COLUMN_DEF: put_column_def(f, n); break;
    case SQL_INDEX_DEF: put_index_def(f, n); break;
    case SQL_INSERT: put_insert(f, n); break;
    case SQL_CREATE_DATABASE: case SQL_CREATE_TABLE: put_create(f, n); break;
    case SQL_ALTER:
        put(f, "ALTER TABLE ");
        put_name_pair(f, n->alter.database, n->alter.table);
        put(f, " ");
        for (size_t i = 0; i < n->alter.commands.count; i++) {
            if (i > 0) put(f, ", ");
            put_alter_cmd(f, n->alter.commands.items[i]);
        }
        break;
    default: put_misc(f, n); break;
    }
}

static void put_node(fmt *f, const sql_node *n) {
    if (f->rc < 0) return;
    if (n->kind < SQL_QUERY) {
        put_item(f, n);
        return;
    }
    if (++f->depth > SQL_FORMAT_DEPTH_MAX) {
        f->rc = MU_ERR(f->err, MU_ETOO_DEEP, "AST deeper than %d while formatting (TOO_DEEP_AST)",
                       SQL_FORMAT_DEPTH_MAX);
        return;
    }
    if (n->kind == SQL_SUBQUERY) MU_ASSERT(n->subquery.query != NULL);
    put_node_kinds(f, n);
    f->depth--;
}

int sql_ast_format(const sql_node *node, mu_buf *out, mu_err *err) {
    MU_ASSERT(node != NULL && out != NULL);
    mu_err local;
    fmt f = {.out = out, .err = err != NULL ? err : &local};
    put_node(&f, node);
    MU_ASSERT(f.rc < 0 || f.depth == 0);
    return f.rc;
}

const char *sql_kind_name(sql_kind kind) {
    static const char *const names[SQL_KIND_COUNT] = {
        [SQL_LITERAL] = "literal", [SQL_IDENT] = "identifier", [SQL_STAR] = "star",
        [SQL_PARAM] = "parameter", [SQL_FUNC] = "function", [SQL_UNARY] = "unary",
        [SQL_BINARY] = "binary", [SQL_BETWEEN] = "between", [SQL_IS_NULL] = "is_null",
        [SQL_TERNARY] = "ternary", [SQL_CASE] = "case", [SQL_CAST] = "cast",
        [SQL_INTERVAL] = "interval", [SQL_ARRAY] = "array", [SQL_TUPLE] = "tuple",
        [SQL_LAMBDA] = "lambda", [SQL_SUBQUERY] = "subquery", [SQL_ELEMENT] = "element",
        [SQL_TUPLE_ELEMENT] = "tuple_element", [SQL_EXTRACT] = "extract",
        [SQL_QUERY] = "query", [SQL_SELECT] = "select", [SQL_CTE] = "cte",
        [SQL_TABLE] = "table", [SQL_TABLE_FUNC] = "table_function", [SQL_JOIN] = "join",
        [SQL_ORDER_ITEM] = "order_item", [SQL_SETTING] = "setting",
        [SQL_COLUMN_DEF] = "column_def", [SQL_INDEX_DEF] = "index_def",
        [SQL_INSERT] = "insert", [SQL_CREATE_DATABASE] = "create_database",
        [SQL_CREATE_TABLE] = "create_table", [SQL_DROP] = "drop", [SQL_TRUNCATE] = "truncate",
        [SQL_RENAME] = "rename", [SQL_EXISTS] = "exists", [SQL_ALTER] = "alter",
        [SQL_ALTER_CMD] = "alter_command", [SQL_SHOW_DATABASES] = "show_databases",
        [SQL_SHOW_TABLES] = "show_tables", [SQL_SHOW_CREATE] = "show_create",
        [SQL_DESCRIBE] = "describe", [SQL_USE] = "use", [SQL_SET] = "set",
        [SQL_OPTIMIZE] = "optimize", [SQL_DELETE] = "delete",
        [SQL_SYSTEM_FLUSH_LOGS] = "system_flush_logs",
        [SQL_SYSTEM_FLUSH_TABLE] = "system_flush_table", [SQL_KILL_QUERY] = "kill_query",
    };
    if ((unsigned)kind >= SQL_KIND_COUNT || names[kind] == NULL) return "?";
    return names[kind];
}
