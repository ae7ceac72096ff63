/* sql_names.c: result column names as ClickHouse gives them when a SELECT
 * item has no alias: the functional form of the expression ("plus(a, 1)",
 * "count()", "CAST(x, 'UInt8')", "arrayElement(a, 1)", "'str'", "[1, 2]"),
 * and the canonical expression text used to match GROUP BY and ORDER BY
 * expressions with SELECT items.
 */
#include "sql/query_int.h"

#include <stdio.h>
#include <string.h>

static const char *names_binary_function(sql_op op) {
    switch (op) {
    case SQL_OP_OR: return "or";
    case SQL_OP_AND: return "and";
    case SQL_OP_EQ: return "equals";
    case SQL_OP_NE: return "notEquals";
    case SQL_OP_LT: return "less";
    case SQL_OP_LE: return "lessOrEquals";
    case SQL_OP_GT: return "greater";
    case SQL_OP_GE: return "greaterOrEquals";
    case SQL_OP_LIKE: return "like";
    case SQL_OP_NOT_LIKE: return "notLike";
    case SQL_OP_ILIKE: return "ilike";
    case SQL_OP_NOT_ILIKE: return "notILike";
    case SQL_OP_IN: return "in";
    case SQL_OP_NOT_IN: return "notIn";
    case SQL_OP_GLOBAL_IN: return "globalIn";
    case SQL_OP_GLOBAL_NOT_IN: return "globalNotIn";
    case SQL_OP_CONCAT: return "concat";
    case SQL_OP_ADD: return "plus";
    case SQL_OP_SUB: return "minus";
    case SQL_OP_MUL: return "multiply";
    case SQL_OP_DIV: return "divide";
    case SQL_OP_MOD: return "modulo";
    default: return "?";
    }
}

const char *sql__binary_function(sql_op op) { return names_binary_function(op); }

static int names_put(mu_buf *out, const char *s, mu_err *err) { return mu_buf_append_str(out, s, err); }

static int names_quoted(mu_buf *out, sql_str s, mu_err *err) {
    int rc = mu_buf_append_u8(out, '\'', err);
    for (size_t i = 0; i < s.length && rc == 0; i++) {
        char c = s.ptr[i];
        if (c == '\'' || c == '\\') rc = mu_buf_append_u8(out, '\\', err);
        if (rc == 0) {
            if (c == '\n') rc = names_put(out, "\\n", err);
            else if (c == '\t') rc = names_put(out, "\\t", err);
            else if (c == 0) rc = names_put(out, "\\0", err);
            else rc = mu_buf_append_u8(out, (uint8_t)c, err);
        }
    }
    if (rc == 0) rc = mu_buf_append_u8(out, '\'', err);
    return rc;
}

static int names_list(mu_buf *out, const sql_list *l, mu_err *err) {
    int rc = 0;
    for (size_t i = 0; i < l->count && rc == 0; i++) {
        if (i > 0) rc = names_put(out, ", ", err);
        if (rc == 0) rc = sql__column_name(l->items[i], out, err);
    }
    return rc;
}

static int names_call(mu_buf *out, const char *fn, const sql_node *const *args, size_t n,
                      mu_err *err) {
    int rc = names_put(out, fn, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '(', err);
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (i > 0) rc = names_put(out, ", ", err);
        if (rc == 0) rc = sql__column_name(args[i], out, err);
    }
    if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
    return rc;
}

static const char *names_interval_function(sql_str unit) {
    static const struct { const char *unit, *fn; } map[] = {
        {"SECOND", "toIntervalSecond"}, {"MINUTE", "toIntervalMinute"},
        {"HOUR", "toIntervalHour"},     {"DAY", "toIntervalDay"},
        {"WEEK", "toIntervalWeek"},     {"MONTH", "toIntervalMonth"},
        {"QUARTER", "toIntervalQuarter"}, {"YEAR", "toIntervalYear"},
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (sql_str_ieq(unit, map[i].unit)) return map[i].fn;
    return "toInterval";
}

int sql__column_name(const sql_node *n, mu_buf *out, mu_err *err) {
    char tmp[64];
    switch (n->kind) {
    case SQL_LITERAL:
        switch (n->literal.kind) {
        case SQL_LIT_NULL: return names_put(out, "NULL", err);
        case SQL_LIT_BOOL: return names_put(out, n->literal.u64 ? "true" : "false", err);
        case SQL_LIT_UINT:
            snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)n->literal.u64);
            return names_put(out, tmp, err);
        case SQL_LIT_FLOAT: {
            char f[TY_FLOAT_TEXT_BYTES];
            size_t len = ty_float64_format(n->literal.f64, f);
            return mu_buf_append(out, f, len, err);
        }
        case SQL_LIT_STRING: return names_quoted(out, n->literal.text, err);
        }
        break;
    case SQL_IDENT: {
        int rc = 0;
        for (size_t i = 0; i < n->ident.count && rc == 0; i++) {
            if (i > 0) rc = mu_buf_append_u8(out, '.', err);
            if (rc == 0) rc = mu_buf_append(out, n->ident.parts[i].ptr, n->ident.parts[i].length, err);
        }
        return rc;
    }
    case SQL_STAR: return names_put(out, "*", err);
    case SQL_PARAM: {
        /* ClickHouse names a substituted parameter by its value; ours is
         * resolved at bind time, so the column name keeps the placeholder. */
        int rc = mu_buf_append_u8(out, '{', err);
        if (rc == 0) rc = mu_buf_append(out, n->param.name.ptr, n->param.name.length, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ':', err);
        if (rc == 0) rc = mu_buf_append(out, n->param.type.ptr, n->param.type.length, err);
        if (rc == 0) rc = mu_buf_append_u8(out, '}', err);
        return rc;
    }
    case SQL_FUNC: {
        const char *name = n->func.name.ptr;
        char fixed[256];
        if (n->func.distinct && sql_str_ieq(n->func.name, "count")) name = "countDistinct";
        else if (n->func.distinct) {
            snprintf(fixed, sizeof(fixed), "%sDistinct", name);
            name = fixed;
        }
        int rc = names_put(out, name, err);
        if (rc == 0 && n->func.has_params) {
            rc = mu_buf_append_u8(out, '(', err);
            if (rc == 0) rc = names_list(out, &n->func.params, err);
            if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
        }
        if (rc == 0) rc = mu_buf_append_u8(out, '(', err);
        bool star = n->func.args.count == 1 && n->func.args.items[0]->kind == SQL_STAR;
        if (rc == 0 && !star) rc = names_list(out, &n->func.args, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
        return rc;
    }
    case SQL_UNARY:
        if (n->unary.op == SQL_OP_NEG && n->unary.operand->kind == SQL_LITERAL &&
            (n->unary.operand->literal.kind == SQL_LIT_UINT ||
             n->unary.operand->literal.kind == SQL_LIT_FLOAT)) {
            int rc = mu_buf_append_u8(out, '-', err);
            return rc != 0 ? rc : sql__column_name(n->unary.operand, out, err);
        }
        return names_call(out, n->unary.op == SQL_OP_NEG ? "negate" : "not",
                          (const sql_node *const *)&n->unary.operand, 1, err);
    case SQL_BINARY: {
        const sql_node *args[2] = {n->binary.left, n->binary.right};
        return names_call(out, names_binary_function(n->binary.op), args, 2, err);
    }
    case SQL_BETWEEN: {
        int rc = names_put(out, n->between.negated ? "or(less(" : "and(greaterOrEquals(", err);
        if (rc == 0) rc = sql__column_name(n->between.expr, out, err);
        if (rc == 0) rc = names_put(out, ", ", err);
        if (rc == 0) rc = sql__column_name(n->between.low, out, err);
        if (rc == 0) rc = names_put(out, n->between.negated ? "), greater(" : "), lessOrEquals(", err);
        if (rc == 0) rc = sql__column_name(n->between.expr, out, err);
        if (rc == 0) rc = names_put(out, ", ", err);
        if (rc == 0) rc = sql__column_name(n->between.high, out, err);
        if (rc == 0) rc = names_put(out, "))", err);
        return rc;
    }
    case SQL_IS_NULL:
        return names_call(out, n->is_null.negated ? "isNotNull" : "isNull",
                          (const sql_node *const *)&n->is_null.expr, 1, err);
    case SQL_TERNARY: {
        const sql_node *args[3] = {n->ternary.cond, n->ternary.then_expr, n->ternary.else_expr};
        return names_call(out, "if", args, 3, err);
    }
    case SQL_CASE: {
        int rc = names_put(out, n->case_expr.operand ? "caseWithExpression(" : "multiIf(", err);
        bool first = true;
        if (n->case_expr.operand) {
            rc = sql__column_name(n->case_expr.operand, out, err);
            first = false;
        }
        for (size_t i = 0; i < n->case_expr.whens.count && rc == 0; i++) {
            if (!first) rc = names_put(out, ", ", err);
            first = false;
            if (rc == 0) rc = sql__column_name(n->case_expr.whens.items[i], out, err);
            if (rc == 0) rc = names_put(out, ", ", err);
            if (rc == 0) rc = sql__column_name(n->case_expr.thens.items[i], out, err);
        }
        if (rc == 0) rc = names_put(out, ", ", err);
        if (rc == 0) {
            if (n->case_expr.else_expr) rc = sql__column_name(n->case_expr.else_expr, out, err);
            else rc = names_put(out, "NULL", err);
        }
        if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
        return rc;
    }
    case SQL_CAST: {
        int rc = names_put(out, "CAST(", err);
        if (rc == 0) rc = sql__column_name(n->cast.expr, out, err);
        if (rc == 0) rc = names_put(out, ", ", err);
        if (rc == 0) rc = names_quoted(out, n->cast.type, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
        return rc;
    }
    case SQL_INTERVAL:
        return names_call(out, names_interval_function(n->interval.unit),
                          (const sql_node *const *)&n->interval.value, 1, err);
    case SQL_ARRAY: {
        int rc = mu_buf_append_u8(out, '[', err);
        if (rc == 0) rc = names_list(out, &n->array.items, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ']', err);
        return rc;
    }
    case SQL_TUPLE: {
        int rc = mu_buf_append_u8(out, '(', err);
        if (rc == 0) rc = names_list(out, &n->array.items, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
        return rc;
    }
    case SQL_ELEMENT: {
        const sql_node *args[2] = {n->element.expr, n->element.index};
        return names_call(out, "arrayElement", args, 2, err);
    }
    case SQL_TUPLE_ELEMENT: {
        const sql_node *args[2] = {n->element.expr, n->element.index};
        return names_call(out, "tupleElement", args, 2, err);
    }
    case SQL_EXTRACT: {
        int rc = names_put(out, "to", err);
        char unit[32] = {0};
        size_t len = n->extract.unit.length < 31 ? n->extract.unit.length : 31;
        for (size_t i = 0; i < len; i++) {
            char c = n->extract.unit.ptr[i];
            unit[i] = (char)(i == 0 ? (c >= 'a' && c <= 'z' ? c - 32 : c)
                                    : (c >= 'A' && c <= 'Z' ? c + 32 : c));
        }
        if (rc == 0) rc = names_put(out, unit, err);
        if (rc == 0) rc = mu_buf_append_u8(out, '(', err);
        if (rc == 0) rc = sql__column_name(n->extract.expr, out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
        return rc;
    }
    case SQL_LAMBDA: {
        int rc = names_put(out, "lambda(tuple(", err);
        if (rc == 0) rc = names_list(out, &n->lambda.params, err);
        if (rc == 0) rc = names_put(out, "), ", err);
        if (rc == 0) rc = sql__column_name(n->lambda.body, out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
        return rc;
    }
    case SQL_SUBQUERY: return names_put(out, "_subquery", err);
    default: break;
    }
    return MU_ERR(err, MU_EINTERNAL, "no column name for %s", sql_kind_name(n->kind));
}

int sql__expr_text(const sql_node *node, mu_arena *arena, const char **out, mu_err *err) {
    sql_node copy = *node;
    copy.alias.ptr = NULL;
    copy.alias.length = 0;
    mu_buf b;
    mu_buf_init(&b, 0);
    int rc = sql_ast_format(&copy, &b, err);
    if (rc == 0) {
        char *s = mu_arena_strndup(arena, b.data ? (const char *)b.data : "", b.length_bytes, err);
        if (s == NULL) rc = err->code;
        else *out = s;
    }
    mu_buf_deinit(&b);
    return rc;
}
