/* sql_bind.c: the binder: turns an expression AST into an exec_expr tree
 * over a scope's input columns. It resolves identifiers (columns,
 * qualified columns, aliases), maps operators and SQL forms to ClickHouse
 * function names (a + b -> plus, CASE -> multiIf, x[i] -> arrayElement,
 * d + INTERVAL n DAY -> addDays, IN -> has over a constant set), evaluates
 * scalar subqueries and query parameters to constants, and after GROUP BY
 * maps key expressions and aggregate calls onto the aggregate's output.
 * Constant folding happens in exec_expr_call.
 */
#include "sql/query_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int bind_node(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out, mu_err *err);

static int bind_call(sql_query *q, const char *name, exec_expr **args, uint32_t n,
                     exec_expr **out, mu_err *err) {
    exec_expr **copy = mu_arena_calloc(q->arena, n ? n : 1, sizeof(*copy), err);
    if (copy == NULL) return err->code;
    memcpy(copy, args, n * sizeof(*copy));
    return exec_expr_call(&q->builder, name, copy, n, out, err);
}

static int bind_list(sql_query *q, sql_scope *s, const sql_node *const *items, size_t count,
                     exec_expr ***out, mu_err *err) {
    exec_expr **args = mu_arena_calloc(q->arena, count ? count : 1, sizeof(*args), err);
    if (args == NULL) return err->code;
    for (size_t i = 0; i < count; i++) {
        int rc = bind_node(q, s, items[i], &args[i], err);
        if (rc != 0) return rc;
    }
    *out = args;
    return 0;
}

/* ---- aggregates ---------------------------------------------------------- */

static bool node_list_any(const sql_list *l, sql_node_pred pred, void *ctx) {
    for (size_t i = 0; i < l->count; i++)
        if (sql__node_any(l->items[i], pred, ctx)) return true;
    return false;
}

bool sql__node_any(const sql_node *n, sql_node_pred pred, void *ctx) {
    if (n == NULL) return false;
    if (pred(n, ctx)) return true;
    switch (n->kind) {
    case SQL_FUNC: return node_list_any(&n->func.params, pred, ctx) || node_list_any(&n->func.args, pred, ctx);
    case SQL_UNARY: return sql__node_any(n->unary.operand, pred, ctx);
    case SQL_BINARY: return sql__node_any(n->binary.left, pred, ctx) || sql__node_any(n->binary.right, pred, ctx);
    case SQL_BETWEEN:
        return sql__node_any(n->between.expr, pred, ctx) || sql__node_any(n->between.low, pred, ctx) ||
               sql__node_any(n->between.high, pred, ctx);
    case SQL_IS_NULL: return sql__node_any(n->is_null.expr, pred, ctx);
    case SQL_TERNARY:
        return sql__node_any(n->ternary.cond, pred, ctx) || sql__node_any(n->ternary.then_expr, pred, ctx) ||
               sql__node_any(n->ternary.else_expr, pred, ctx);
    case SQL_CASE:
        return sql__node_any(n->case_expr.operand, pred, ctx) ||
               sql__node_any(n->case_expr.else_expr, pred, ctx) ||
               node_list_any(&n->case_expr.whens, pred, ctx) || node_list_any(&n->case_expr.thens, pred, ctx);
    case SQL_CAST: return sql__node_any(n->cast.expr, pred, ctx);
    case SQL_ARRAY:
    case SQL_TUPLE: return node_list_any(&n->array.items, pred, ctx);
    case SQL_ELEMENT:
    case SQL_TUPLE_ELEMENT:
        return sql__node_any(n->element.expr, pred, ctx) || sql__node_any(n->element.index, pred, ctx);
    case SQL_EXTRACT: return sql__node_any(n->extract.expr, pred, ctx);
    case SQL_INTERVAL: return sql__node_any(n->interval.value, pred, ctx);
    case SQL_LAMBDA: return sql__node_any(n->lambda.body, pred, ctx);
    default: return false;
    }
}

static bool node_is_aggregate_call(const sql_node *n, void *ctx) {
    (void)ctx;
    return n->kind == SQL_FUNC && exec_is_aggregate_name(n->func.name.ptr, n->func.name.length);
}

bool sql__has_aggregate(const sql_node *n) {
    /* Not inside lambdas: an aggregate there is the lambda's error. */
    if (n != NULL && n->kind == SQL_LAMBDA) return false;
    return sql__node_any(n, node_is_aggregate_call, NULL);
}

static int bind_aggregate(sql_query *q, sql_scope *s, const sql_node *n, const char *text,
                          exec_expr **out, mu_err *err) {
    sql_agg_ctx *a = s->agg;
    for (uint32_t j = 0; j < a->agg_count; j++) {
        if (strcmp(a->agg_texts[j], text) == 0)
            return exec_expr_input(&q->builder, a->key_count + j, a->aggs[j].agg.result_type, out,
                                   err);
    }
    /* Arguments are bound in the input scope, where aggregates are illegal. */
    sql_scope pre = *a->pre;
    pre.no_aggregates = true;
    pre.clause = "an aggregate function's argument";
    const sql_node *const *items = (const sql_node *const *)n->func.args.items;
    size_t count = n->func.args.count;
    if (count == 1 && items[0]->kind == SQL_STAR) count = 0; /* count(*) */
    exec_expr **args = NULL;
    int rc = bind_list(q, &pre, items, count, &args, err);
    if (rc != 0) return rc;
    const ty_column **params = mu_arena_calloc(q->arena, n->func.params.count + 1, sizeof(*params),
                                               err);
    const ty_type **types = mu_arena_calloc(q->arena, count + 1, sizeof(*types), err);
    if (params == NULL || types == NULL) return err->code;
    for (size_t i = 0; i < n->func.params.count; i++) {
        rc = sql__eval_const(q, n->func.params.items[i], &params[i], err);
        if (rc != 0) return rc;
    }
    for (size_t i = 0; i < count; i++) types[i] = args[i]->type;
    char name[256];
    snprintf(name, sizeof(name), "%.*s", (int)n->func.name.length, n->func.name.ptr);
    if (n->func.distinct) {
        if (strcasecmp(name, "count") != 0)
            return MU_ERR(err, MU_ENOT_SUPPORTED, "%s(DISTINCT ...) is not supported yet", name);
        snprintf(name, sizeof(name), "uniqExact");
    }
    if (a->agg_count == a->agg_capacity) {
        uint32_t cap = a->agg_capacity ? a->agg_capacity * 2 : 8;
        sql_agg_spec *specs = mu_arena_calloc(q->arena, cap, sizeof(*specs), err);
        const char **texts = mu_arena_calloc(q->arena, cap, sizeof(*texts), err);
        if (specs == NULL || texts == NULL) return err->code;
        if (a->agg_count) {
            memcpy(specs, a->aggs, a->agg_count * sizeof(*specs));
            memcpy(texts, a->agg_texts, a->agg_count * sizeof(*texts));
        }
        a->aggs = specs;
        a->agg_texts = texts;
        a->agg_capacity = cap;
    }
    sql_agg_spec *spec = &a->aggs[a->agg_count];
    rc = exec_agg_bind(&q->ctx, q->arena, name, types, (uint32_t)count, params,
                       (uint32_t)n->func.params.count, &spec->agg, err);
    if (rc != 0) return rc;
    spec->args = args;
    spec->arg_count = (uint32_t)count;
    mu_buf b;
    mu_buf_init(&b, 0);
    rc = sql__column_name(n, &b, err);
    if (rc == 0) {
        spec->name = mu_arena_strndup(q->arena, (const char *)b.data, b.length_bytes, err);
        if (spec->name == NULL) rc = err->code;
    }
    mu_buf_deinit(&b);
    if (rc != 0) return rc;
    a->agg_texts[a->agg_count] = text;
    uint32_t j = a->agg_count++;
    return exec_expr_input(&q->builder, a->key_count + j, spec->agg.result_type, out, err);
}

/* ---- identifiers ------------------------------------------------------------ */

static bool bind_str_is(const char *a, sql_str b) {
    return a != NULL && strlen(a) == b.length && memcmp(a, b.ptr, b.length) == 0;
}

/* Column index in the input, or -1. */
static int64_t bind_find_column(const sql_operator *in, const sql_node *n) {
    size_t parts = n->ident.count;
    const sql_str *p = n->ident.parts;
    if (in == NULL) return -1;
    if (parts == 1) {
        for (uint32_t i = 0; i < in->column_count; i++)
            if (bind_str_is(in->names[i], p[0])) return i;
        return -1;
    }
    /* qualifier.column (or database.table.column) */
    sql_str qual = p[parts - 2], col = p[parts - 1];
    for (uint32_t i = 0; i < in->column_count; i++)
        if (bind_str_is(in->qualifiers[i], qual) && bind_str_is(in->names[i], col)) return i;
    /* a column whose name holds dots */
    char full[512];
    size_t used = 0;
    for (size_t k = 0; k < parts; k++) {
        int w = snprintf(full + used, sizeof(full) - used, "%s%.*s", k ? "." : "",
                         (int)p[k].length, p[k].ptr);
        if (w < 0 || (size_t)w >= sizeof(full) - used) return -1;
        used += (size_t)w;
    }
    for (uint32_t i = 0; i < in->column_count; i++)
        if (in->names[i] && strcmp(in->names[i], full) == 0) return i;
    return -1;
}

static int bind_lambda_ident(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out,
                             mu_err *err) {
    sql_lambda_ctx *l = s->lambda;
    if (n->ident.count == 1)
        for (uint32_t i = 0; i < l->param_count; i++)
            if (bind_str_is(l->param_names[i], n->ident.parts[0]))
                return exec_expr_input(&q->builder, i, l->param_types[i], out, err);
    exec_expr *outer;
    int rc = bind_node(q, l->outer, n, &outer, err);
    if (rc != 0) return rc;
    if (outer->kind == EXEC_EXPR_CONST) {
        *out = outer;
        return 0;
    }
    if (l->capture_count == l->capture_capacity) {
        uint32_t cap = l->capture_capacity ? l->capture_capacity * 2 : 8;
        exec_expr **grown = mu_arena_calloc(q->arena, cap, sizeof(*grown), err);
        if (grown == NULL) return err->code;
        if (l->capture_count) memcpy(grown, l->captures, l->capture_count * sizeof(*grown));
        l->captures = grown;
        l->capture_capacity = cap;
    }
    l->captures[l->capture_count] = outer;
    return exec_expr_input(&q->builder, l->param_count + l->capture_count++, outer->type, out, err);
}

static int bind_ident(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out,
                      mu_err *err) {
    if (s->lambda) return bind_lambda_ident(q, s, n, out, err);
    if (n->ident.count == 1) {
        for (uint32_t i = 0; i < s->alias_count; i++) {
            if (!bind_str_is(s->alias_names[i], n->ident.parts[0]) || s->alias_busy[i]) continue;
            s->alias_busy[i] = 1;
            int rc = bind_node(q, s, s->alias_exprs[i], out, err);
            s->alias_busy[i] = 0;
            return rc;
        }
    }
    if (s->agg != NULL) {
        char name[256];
        mu_buf b;
        mu_buf_init(&b, 0);
        sql__column_name(n, &b, err);
        snprintf(name, sizeof(name), "%.*s", (int)b.length_bytes, b.data ? (char *)b.data : "");
        mu_buf_deinit(&b);
        if (bind_find_column(s->agg->pre->input, n) >= 0)
            return MU_ERR(err, MU_ENOT_AGGREGATE,
                          "Column `%s` is not under aggregate function and not in GROUP BY", name);
        return MU_ERR(err, MU_EUNKNOWN_IDENTIFIER, "Unknown expression identifier `%s`", name);
    }
    int64_t i = bind_find_column(s->input, n);
    if (i < 0) {
        mu_buf b;
        mu_buf_init(&b, 0);
        sql__column_name(n, &b, err);
        int rc = MU_ERR(err, MU_EUNKNOWN_IDENTIFIER, "Unknown expression identifier `%.*s` in %s",
                        (int)b.length_bytes, b.data ? (char *)b.data : "",
                        s->clause ? s->clause : "scope");
        mu_buf_deinit(&b);
        return rc;
    }
    return exec_expr_input(&q->builder, (uint32_t)i, s->input->types[i], out, err);
}

/* ---- literals and parameters ------------------------------------------------- */

static int bind_literal(sql_query *q, const sql_node *n, bool negate, exec_expr **out,
                        mu_err *err) {
    exec_builder *b = &q->builder;
    switch (n->literal.kind) {
    case SQL_LIT_NULL: return exec_expr_const_null(b, out, err);
    case SQL_LIT_BOOL: {
        ty_column *c;
        uint8_t v = n->literal.u64 ? 1 : 0;
        int rc = ty_column_create(ty_type_builtin(TY_BOOL), NULL, &c, err);
        if (rc == 0) rc = ty_column_append_value(c, &v, err);
        if (rc != 0) {
            ty_column_destroy(c);
            return rc;
        }
        return exec_expr_const_take(b, c, out, err);
    }
    case SQL_LIT_UINT:
        if (!negate) return exec_expr_const_uint(b, n->literal.u64, out, err);
        if (n->literal.u64 <= (uint64_t)INT64_MAX + 1u)
            return exec_expr_const_int(b, n->literal.u64 == (uint64_t)INT64_MAX + 1u
                                              ? INT64_MIN
                                              : -(int64_t)n->literal.u64,
                                       out, err);
        return exec_expr_const_float(b, -(double)n->literal.u64, out, err);
    case SQL_LIT_FLOAT:
        return exec_expr_const_float(b, negate ? -n->literal.f64 : n->literal.f64, out, err);
    case SQL_LIT_STRING:
        return exec_expr_const_string(b, n->literal.text.ptr, n->literal.text.length, out, err);
    }
    return MU_ERR(err, MU_EINTERNAL, "unknown literal");
}

static int bind_param(sql_query *q, const sql_node *n, exec_expr **out, mu_err *err) {
    const sql_query_params *p = q->params;
    for (uint32_t i = 0; p && i < p->count; i++) {
        if (!bind_str_is(p->names[i], n->param.name)) continue;
        const ty_type *type;
        int rc = ty_type_parse_n(n->param.type.ptr, n->param.type.length, q->arena, &type, err);
        if (rc != 0) return rc;
        ty_column *c;
        rc = ty_column_create(type, NULL, &c, err);
        if (rc != 0) return rc;
        const char *v = p->values[i];
        size_t len = strlen(v);
        if (type->kind == TY_STRING) rc = ty_column_append_bytes(c, v, len, err);
        else if (ty_type_is_nullable(type) && strcmp(v, "\\N") == 0) rc = ty_column_append_null(c, err);
        else rc = ty_column_append_text(c, v, len, err);
        if (rc != 0) {
            ty_column_destroy(c);
            mu_err_prefix(err, "query parameter '%.*s'", (int)n->param.name.length,
                          n->param.name.ptr);
            return rc;
        }
        return exec_expr_const_take(&q->builder, c, out, err);
    }
    return MU_ERR(err, MU_EUNKNOWN_PARAMETER, "Substitution `%.*s` is not set",
                  (int)n->param.name.length, n->param.name.ptr);
}

/* ---- subqueries and IN ----------------------------------------------------------- */

static int bind_subquery_rows(sql_query *q, const sql_node *query, ty_column ***cols_out,
                              uint32_t *rows_out, const sql_operator **schema_out, sql_operator **op_out,
                              mu_err *err) {
    if (q->subquery_depth > 32)
        return MU_ERR(err, MU_ETOO_DEEP, "subqueries nested deeper than 32 levels");
    q->subquery_depth++;
    sql_operator *op;
    int rc = sql__plan_query(q, query, &op, err);
    q->subquery_depth--;
    if (rc != 0) return rc;
    rc = sql__op_drain(op, cols_out, rows_out, err);
    if (rc != 0) {
        sql__op_destroy(op);
        return rc;
    }
    *schema_out = op;
    *op_out = op;
    return 0;
}

static int bind_scalar_subquery(sql_query *q, const sql_node *n, exec_expr **out, mu_err *err) {
    ty_column **cols;
    uint32_t rows;
    const sql_operator *schema = NULL;
    sql_operator *op;
    int rc = bind_subquery_rows(q, n->subquery.query, &cols, &rows, &schema, &op, err);
    if (rc != 0) return rc;
    uint32_t ncols = schema->column_count;
    if (ncols != 1) {
        rc = MU_ERR(err, MU_ENOT_SUPPORTED, "scalar subqueries of %u columns (tuples) are not "
                    "supported yet", ncols);
    } else if (rows > 1) {
        rc = MU_ERR(err, MU_ESCALAR_SUBQUERY, "Scalar subquery returned more than one row");
    }
    ty_column *value = NULL;
    if (rc == 0) {
        const ty_type *type = schema->types[0];
        if (rows == 0) {
            const ty_type *nt;
            rc = exec_type_make_nullable(type, q->arena, &nt, err);
            if (rc == 0) rc = ty_column_create(nt, NULL, &value, err);
            if (rc == 0) rc = ty_column_append_default(value, err);
        } else {
            rc = ty_column_create(type, NULL, &value, err);
            if (rc == 0) rc = ty_column_append_from(value, cols[0], 0, err);
        }
    }
    for (uint32_t i = 0; i < ncols; i++) ty_column_destroy(cols[i]);
    free(cols);
    sql__op_destroy(op);
    if (rc != 0) {
        ty_column_destroy(value);
        return rc;
    }
    return exec_expr_const_take(&q->builder, value, out, err);
}

/* The constant Array holding a set for IN. */
static int bind_in_set(sql_query *q, sql_scope *s, const sql_node *right, exec_expr **out,
                       mu_err *err) {
    if (right->kind == SQL_SUBQUERY) {
        ty_column **cols;
        uint32_t rows;
        const sql_operator *schema = NULL;
        sql_operator *op;
        int rc = bind_subquery_rows(q, right->subquery.query, &cols, &rows, &schema, &op, err);
        if (rc != 0) return rc;
        uint32_t ncols = schema->column_count;
        ty_type *at = NULL;
        ty_column *arr = NULL;
        if (ncols != 1)
            rc = MU_ERR(err, MU_ENOT_SUPPORTED, "IN with a subquery of %u columns is not "
                        "supported yet", ncols);
        if (rc == 0) {
            at = mu_arena_calloc(q->arena, 1, sizeof(*at), err);
            if (at == NULL) rc = err->code;
        }
        if (rc == 0) {
            at->kind = TY_ARRAY;
            at->child = schema->types[0];
            if (at->child->kind == TY_LOW_CARDINALITY) at->child = at->child->child;
            rc = ty_column_create(at, NULL, &arr, err);
        }
        if (rc == 0) {
            if (cols[0]->type->kind == TY_LOW_CARDINALITY) {
                for (uint32_t r = 0; r < rows && rc == 0; r++) {
                    size_t nb;
                    const uint8_t *p = ty_column_row_bytes(cols[0], r, &nb);
                    rc = ty_column_append_bytes(ty_column_child_mut(arr, 0), p, nb, err);
                }
            } else {
                rc = ty_column_append_rows_from(ty_column_child_mut(arr, 0), cols[0], 0, rows, err);
            }
        }
        if (rc == 0) rc = ty_column_append_nested_end(arr, err);
        for (uint32_t i = 0; i < ncols; i++) ty_column_destroy(cols[i]);
        free(cols);
        sql__op_destroy(op);
        if (rc != 0) {
            ty_column_destroy(arr);
            return rc;
        }
        return exec_expr_const_take(&q->builder, arr, out, err);
    }
    const sql_node *const *items = (const sql_node *const *)&right;
    size_t count = 1;
    if (right->kind == SQL_TUPLE || right->kind == SQL_ARRAY) {
        items = (const sql_node *const *)right->array.items.items;
        count = right->array.items.count;
    }
    exec_expr **args = NULL;
    int rc = bind_list(q, s, items, count, &args, err);
    if (rc != 0) return rc;
    if (right->kind == SQL_ARRAY && count > 0 && args[0]->type->kind == TY_ARRAY) {
        /* x IN [..]: the array itself is the set */
    }
    return bind_call(q, "array", args, (uint32_t)count, out, err);
}

/* ---- SQL forms ---------------------------------------------------------------------- */

static const char *bind_interval_unit_name(sql_str unit) {
    static const struct { const char *unit, *name; } map[] = {
        {"SECOND", "Seconds"}, {"MINUTE", "Minutes"}, {"HOUR", "Hours"}, {"DAY", "Days"},
        {"WEEK", "Weeks"},     {"MONTH", "Months"},   {"QUARTER", "Quarters"}, {"YEAR", "Years"},
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (sql_str_ieq(unit, map[i].unit)) return map[i].name;
    return NULL;
}

static int bind_interval_arith(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out,
                               mu_err *err) {
    const sql_node *iv = n->binary.right, *other = n->binary.left;
    bool sub = n->binary.op == SQL_OP_SUB;
    if (iv->kind != SQL_INTERVAL) {
        iv = n->binary.left;
        other = n->binary.right;
        if (sub) return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal types of arguments of function minus: "
                               "an interval cannot be the left operand");
    }
    const char *unit = bind_interval_unit_name(iv->interval.unit);
    if (unit == NULL)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "INTERVAL unit %.*s is not supported yet",
                      (int)iv->interval.unit.length, iv->interval.unit.ptr);
    char fn[64];
    snprintf(fn, sizeof(fn), "%s%s", sub ? "subtract" : "add", unit);
    exec_expr *args[2];
    int rc = bind_node(q, s, other, &args[0], err);
    if (rc == 0) rc = bind_node(q, s, iv->interval.value, &args[1], err);
    if (rc != 0) return rc;
    return bind_call(q, fn, args, 2, out, err);
}

static int bind_string_const(sql_query *q, const char *text, exec_expr **out, mu_err *err) {
    return exec_expr_const_string(&q->builder, text, strlen(text), out, err);
}

static bool bind_func_is(const sql_node *n, const char *name) {
    return n->kind == SQL_FUNC && sql_str_ieq(n->func.name, name);
}

static int bind_func(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out,
                     mu_err *err) {
    const char *name = n->func.name.ptr;
    size_t name_bytes = n->func.name.length;
    if (exec_is_aggregate_name(name, name_bytes) && exec_function_find(name, name_bytes) == NULL) {
        return MU_ERR(err, MU_EILLEGAL_AGGREGATION,
                      "Aggregate function %.*s is found in %s in query", (int)name_bytes, name,
                      s->clause ? s->clause : "a wrong place");
    }
    size_t count = n->func.args.count;
    const sql_node *const *items = (const sql_node *const *)n->func.args.items;
    if (sql_str_eq(n->func.name, "arrayJoin")) {
        const char *text;
        int rc = sql__expr_text(n, q->arena, &text, err);
        if (rc != 0) return rc;
        for (sql_scope *sc = s; sc; sc = sc->lambda ? sc->lambda->outer : NULL) {
            for (uint32_t i = 0; i < sc->array_join_count; i++)
                if (strcmp(sc->array_join_texts[i], text) == 0) {
                    if (sc != s) break;
                    uint32_t col = sc->array_join_columns[i];
                    const sql_operator *in = sc->agg ? NULL : sc->input;
                    if (in == NULL) break;
                    return exec_expr_input(&q->builder, col, in->types[col], out, err);
                }
            if (!sc->lambda) break;
        }
        return MU_ERR(err, MU_ENOT_SUPPORTED, "arrayJoin is supported only in the SELECT list and "
                      "WHERE of a query");
    }
    if (n->func.has_params)
        return MU_ERR(err, MU_EUNKNOWN_AGGREGATE, "Unknown aggregate function %.*s",
                      (int)name_bytes, name);
    if (count > 0 && items[0]->kind == SQL_LAMBDA) {
        char fname[64];
        snprintf(fname, sizeof(fname), "%.*s", (int)name_bytes, name);
        if (!exec_function_takes_lambda(fname))
            return MU_ERR(err, MU_EILLEGAL_TYPE, "function %s does not take a lambda", fname);
        const sql_node *lam = items[0];
        uint32_t np = (uint32_t)lam->lambda.params.count;
        if (np != count - 1)
            return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "lambda of %s takes %u parameters but %zu "
                          "arrays are passed", fname, np, count - 1);
        exec_expr **arrays = NULL;
        int rc = bind_list(q, s, items + 1, count - 1, &arrays, err);
        if (rc != 0) return rc;
        sql_lambda_ctx l = {.outer = s, .param_count = np};
        l.param_names = mu_arena_calloc(q->arena, np + 1, sizeof(char *), err);
        l.param_types = mu_arena_calloc(q->arena, np + 1, sizeof(ty_type *), err);
        if (!l.param_names || !l.param_types) return err->code;
        for (uint32_t i = 0; i < np; i++) {
            const sql_node *pn = lam->lambda.params.items[i];
            if (arrays[i]->type->kind != TY_ARRAY)
                return MU_ERR(err, MU_EILLEGAL_TYPE, "argument %u of function %s must be an array",
                              i + 2, fname);
            l.param_names[i] = mu_arena_strndup(q->arena, pn->ident.parts[0].ptr,
                                                pn->ident.parts[0].length, err);
            l.param_types[i] = arrays[i]->type->child;
        }
        sql_scope body_scope = {.lambda = &l, .clause = "a lambda"};
        exec_expr *body;
        rc = bind_node(q, &body_scope, lam->lambda.body, &body, err);
        if (rc != 0) return rc;
        return exec_expr_call_lambda(&q->builder, fname, body, np, arrays, l.captures,
                                     l.capture_count, out, err);
    }
    for (size_t i = 0; i < count; i++)
        if (items[i]->kind == SQL_LAMBDA)
            return MU_ERR(err, MU_EILLEGAL_TYPE, "a lambda must be the first argument of %.*s",
                          (int)name_bytes, name);
    exec_expr **args = mu_arena_calloc(q->arena, count + 2, sizeof(*args), err);
    if (args == NULL) return err->code;
    uint32_t nargs = 0;
    bool unit_first = bind_func_is(n, "date_add") || bind_func_is(n, "date_sub") ||
                      bind_func_is(n, "dateDiff") || bind_func_is(n, "date_diff") ||
                      bind_func_is(n, "timestamp_add") || bind_func_is(n, "timestamp_sub") ||
                      bind_func_is(n, "timestampdiff") || bind_func_is(n, "age");
    for (size_t i = 0; i < count; i++) {
        const sql_node *a = items[i];
        int rc;
        if (i == 0 && unit_first && a->kind == SQL_IDENT && a->ident.count == 1) {
            char unit[32];
            size_t len = a->ident.parts[0].length < 31 ? a->ident.parts[0].length : 31;
            for (size_t k = 0; k < len; k++) {
                char c = a->ident.parts[0].ptr[k];
                unit[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
            }
            unit[len] = 0;
            rc = bind_string_const(q, unit, &args[nargs++], err);
        } else if (a->kind == SQL_INTERVAL) {
            /* toStartOfInterval(t, INTERVAL n unit) -> (t, n, 'unit') */
            rc = bind_node(q, s, a->interval.value, &args[nargs++], err);
            if (rc == 0) {
                char unit[32];
                size_t len = a->interval.unit.length < 31 ? a->interval.unit.length : 31;
                for (size_t k = 0; k < len; k++) {
                    char c = a->interval.unit.ptr[k];
                    unit[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
                }
                unit[len] = 0;
                rc = bind_string_const(q, unit, &args[nargs++], err);
            }
        } else {
            rc = bind_node(q, s, a, &args[nargs++], err);
        }
        if (rc != 0) return rc;
    }
    char fname[256];
    snprintf(fname, sizeof(fname), "%.*s", (int)name_bytes, name);
    return exec_expr_call(&q->builder, fname, args, nargs, out, err);
}

static int bind_case(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out,
                     mu_err *err) {
    size_t w = n->case_expr.whens.count;
    exec_expr **args = mu_arena_calloc(q->arena, 2 * w + 1, sizeof(*args), err);
    if (args == NULL) return err->code;
    exec_expr *operand = NULL;
    int rc = 0;
    if (n->case_expr.operand) rc = bind_node(q, s, n->case_expr.operand, &operand, err);
    for (size_t i = 0; i < w && rc == 0; i++) {
        exec_expr *when;
        rc = bind_node(q, s, n->case_expr.whens.items[i], &when, err);
        if (rc == 0 && operand) {
            exec_expr *pair[2] = {operand, when};
            rc = bind_call(q, "equals", pair, 2, &when, err);
        }
        if (rc == 0) {
            args[2 * i] = when;
            rc = bind_node(q, s, n->case_expr.thens.items[i], &args[2 * i + 1], err);
        }
    }
    if (rc == 0) {
        if (n->case_expr.else_expr) rc = bind_node(q, s, n->case_expr.else_expr, &args[2 * w], err);
        else rc = exec_expr_const_null(&q->builder, &args[2 * w], err);
    }
    if (rc != 0) return rc;
    return exec_expr_call(&q->builder, "multiIf", args, (uint32_t)(2 * w + 1), out, err);
}

static int bind_binary(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out,
                       mu_err *err) {
    sql_op op = n->binary.op;
    if ((op == SQL_OP_ADD || op == SQL_OP_SUB) &&
        (n->binary.right->kind == SQL_INTERVAL || n->binary.left->kind == SQL_INTERVAL))
        return bind_interval_arith(q, s, n, out, err);
    exec_expr *args[2];
    int rc = bind_node(q, s, n->binary.left, &args[0], err);
    if (rc != 0) return rc;
    if (op == SQL_OP_IN || op == SQL_OP_NOT_IN || op == SQL_OP_GLOBAL_IN ||
        op == SQL_OP_GLOBAL_NOT_IN) {
        exec_expr *set;
        rc = bind_in_set(q, s, n->binary.right, &set, err);
        if (rc != 0) return rc;
        exec_expr *has_args[2] = {set, args[0]};
        exec_expr *has;
        rc = bind_call(q, "has", has_args, 2, &has, err);
        if (rc != 0) return rc;
        if (op == SQL_OP_IN || op == SQL_OP_GLOBAL_IN) {
            *out = has;
            return 0;
        }
        return bind_call(q, "not", &has, 1, out, err);
    }
    rc = bind_node(q, s, n->binary.right, &args[1], err);
    if (rc != 0) return rc;
    return bind_call(q, sql__binary_function(op), args, 2, out, err);
}

static int bind_node(sql_query *q, sql_scope *s, const sql_node *n, exec_expr **out,
                     mu_err *err) {
    int rc;
    if (s->agg != NULL && n->kind != SQL_LITERAL) {
        const char *text;
        rc = sql__expr_text(n, q->arena, &text, err);
        if (rc != 0) return rc;
        for (uint32_t k = 0; k < s->agg->key_count; k++)
            if (strcmp(s->agg->key_texts[k], text) == 0)
                return exec_expr_input(&q->builder, k, s->agg->key_exprs[k]->type, out, err);
        if (n->kind == SQL_FUNC && exec_is_aggregate_name(n->func.name.ptr, n->func.name.length) &&
            exec_function_find(n->func.name.ptr, n->func.name.length) == NULL)
            return bind_aggregate(q, s, n, text, out, err);
    }
    switch (n->kind) {
    case SQL_LITERAL: return bind_literal(q, n, false, out, err);
    case SQL_IDENT: return bind_ident(q, s, n, out, err);
    case SQL_PARAM: return bind_param(q, n, out, err);
    case SQL_FUNC: return bind_func(q, s, n, out, err);
    case SQL_UNARY:
        if (n->unary.op == SQL_OP_NEG && n->unary.operand->kind == SQL_LITERAL &&
            (n->unary.operand->literal.kind == SQL_LIT_UINT ||
             n->unary.operand->literal.kind == SQL_LIT_FLOAT) &&
            n->unary.operand->alias.ptr == NULL)
            return bind_literal(q, n->unary.operand, true, out, err);
        {
            exec_expr *arg;
            rc = bind_node(q, s, n->unary.operand, &arg, err);
            if (rc != 0) return rc;
            return bind_call(q, n->unary.op == SQL_OP_NEG ? "negate" : "not", &arg, 1, out, err);
        }
    case SQL_BINARY: return bind_binary(q, s, n, out, err);
    case SQL_BETWEEN: {
        exec_expr *x, *lo, *hi, *a, *b;
        rc = bind_node(q, s, n->between.expr, &x, err);
        if (rc == 0) rc = bind_node(q, s, n->between.low, &lo, err);
        if (rc == 0) rc = bind_node(q, s, n->between.high, &hi, err);
        if (rc != 0) return rc;
        exec_expr *p1[2] = {x, lo}, *p2[2] = {x, hi};
        rc = bind_call(q, n->between.negated ? "less" : "greaterOrEquals", p1, 2, &a, err);
        if (rc == 0) rc = bind_call(q, n->between.negated ? "greater" : "lessOrEquals", p2, 2, &b, err);
        if (rc != 0) return rc;
        exec_expr *both[2] = {a, b};
        return bind_call(q, n->between.negated ? "or" : "and", both, 2, out, err);
    }
    case SQL_IS_NULL: {
        exec_expr *arg;
        rc = bind_node(q, s, n->is_null.expr, &arg, err);
        if (rc != 0) return rc;
        return bind_call(q, n->is_null.negated ? "isNotNull" : "isNull", &arg, 1, out, err);
    }
    case SQL_TERNARY: {
        exec_expr *args[3];
        rc = bind_node(q, s, n->ternary.cond, &args[0], err);
        if (rc == 0) rc = bind_node(q, s, n->ternary.then_expr, &args[1], err);
        if (rc == 0) rc = bind_node(q, s, n->ternary.else_expr, &args[2], err);
        if (rc != 0) return rc;
        return bind_call(q, "if", args, 3, out, err);
    }
    case SQL_CASE: return bind_case(q, s, n, out, err);
    case SQL_CAST: {
        exec_expr *arg;
        const ty_type *type;
        rc = bind_node(q, s, n->cast.expr, &arg, err);
        if (rc == 0) rc = ty_type_parse_n(n->cast.type.ptr, n->cast.type.length, q->arena, &type, err);
        if (rc != 0) return rc;
        return exec_expr_cast(&q->builder, arg, type, out, err);
    }
    case SQL_ARRAY: {
        exec_expr **args = NULL;
        rc = bind_list(q, s, (const sql_node *const *)n->array.items.items, n->array.items.count,
                       &args, err);
        if (rc != 0) return rc;
        return exec_expr_call(&q->builder, "array", args, (uint32_t)n->array.items.count, out, err);
    }
    case SQL_ELEMENT: {
        exec_expr *args[2];
        rc = bind_node(q, s, n->element.expr, &args[0], err);
        if (rc == 0) rc = bind_node(q, s, n->element.index, &args[1], err);
        if (rc != 0) return rc;
        return bind_call(q, "arrayElement", args, 2, out, err);
    }
    case SQL_EXTRACT: {
        char fn[48];
        static const struct { const char *unit, *fn; } map[] = {
            {"YEAR", "toYear"}, {"QUARTER", "toQuarter"}, {"MONTH", "toMonth"}, {"DAY", "toDayOfMonth"},
            {"HOUR", "toHour"}, {"MINUTE", "toMinute"}, {"SECOND", "toSecond"}, {"WEEK", "toISOWeek"},
        };
        fn[0] = 0;
        for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
            if (sql_str_ieq(n->extract.unit, map[i].unit)) snprintf(fn, sizeof(fn), "%s", map[i].fn);
        if (!fn[0])
            return MU_ERR(err, MU_ESYNTAX, "EXTRACT of %.*s is not supported",
                          (int)n->extract.unit.length, n->extract.unit.ptr);
        exec_expr *arg;
        rc = bind_node(q, s, n->extract.expr, &arg, err);
        if (rc != 0) return rc;
        return bind_call(q, fn, &arg, 1, out, err);
    }
    case SQL_SUBQUERY: return bind_scalar_subquery(q, n, out, err);
    case SQL_INTERVAL:
        return MU_ERR(err, MU_ENOT_SUPPORTED, "an INTERVAL is supported only added to or "
                      "subtracted from a date or time, or in toStartOfInterval");
    case SQL_TUPLE:
        return MU_ERR(err, MU_ENOT_SUPPORTED, "tuples are not supported yet");
    case SQL_TUPLE_ELEMENT:
        return MU_ERR(err, MU_ENOT_SUPPORTED, "tuple elements are not supported yet");
    case SQL_LAMBDA:
        return MU_ERR(err, MU_ENOT_SUPPORTED, "lambda functions are not supported yet");
    case SQL_STAR:
        return MU_ERR(err, MU_ESYNTAX, "* is allowed only in the SELECT list and in count(*)");
    default:
        return MU_ERR(err, MU_EINTERNAL, "cannot bind %s", sql_kind_name(n->kind));
    }
}

int sql__bind_expr(sql_query *q, sql_scope *scope, const sql_node *node, exec_expr **out,
                   mu_err *err) {
    if (scope->no_aggregates && scope->agg == NULL && sql__has_aggregate(node)) {
        /* Let bind_func name the aggregate in its message. */
    }
    return bind_node(q, scope, node, out, err);
}

int sql__eval_const(sql_query *q, const sql_node *node, const ty_column **out, mu_err *err) {
    sql_scope empty = {0};
    empty.clause = "a constant expression";
    exec_expr *e;
    int rc = bind_node(q, &empty, node, &e, err);
    if (rc != 0) return rc;
    if (e->kind != EXEC_EXPR_CONST)
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "expression is not a constant");
    *out = e->constant;
    return 0;
}
