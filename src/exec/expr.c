/* expr.c: bound expression trees: the builder that owns a query's
 * constants, binding of calls through the registry (with ClickHouse's
 * default NULL handling and constant folding), and evaluation over a
 * block of input columns. Evaluation allocates only the columns it
 * returns; constants stay one row until a consumer needs them expanded.
 */
#include "exec/exec_int.h"

#include <stdlib.h>
#include <string.h>

int exec_builder_init(exec_builder *b, const exec_context *ctx, mu_arena *arena, mu_err *err) {
    (void)err;
    memset(b, 0, sizeof(*b));
    b->arena = arena;
    b->ctx = ctx;
    return 0;
}

void exec_builder_deinit(exec_builder *b) {
    if (b == NULL) return;
    for (uint32_t i = 0; i < b->owned_count; i++) ty_column_destroy(b->owned[i]);
    free(b->owned);
    memset(b, 0, sizeof(*b));
}

int exec_builder_own(exec_builder *b, ty_column *column, mu_err *err) {
    if (b->owned_count == b->owned_capacity) {
        uint32_t cap = b->owned_capacity ? b->owned_capacity * 2 : 16;
        ty_column **grown = realloc(b->owned, cap * sizeof(*grown));
        if (grown == NULL) {
            ty_column_destroy(column);
            return MU_ERR(err, MU_ENOMEM, "out of memory for query constants");
        }
        b->owned = grown;
        b->owned_capacity = cap;
    }
    b->owned[b->owned_count++] = column;
    return 0;
}

static exec_expr *expr_new(exec_builder *b, exec_expr_kind kind, mu_err *err) {
    exec_expr *e = mu_arena_calloc(b->arena, 1, sizeof(*e), err);
    if (e) e->kind = kind;
    return e;
}

int exec_expr_const_take(exec_builder *b, ty_column *column, exec_expr **out, mu_err *err) {
    MU_ASSERT(ty_column_row_count(column) == 1);
    int rc = exec_builder_own(b, column, err);
    if (rc != 0) return rc;
    exec_expr *e = expr_new(b, EXEC_EXPR_CONST, err);
    if (e == NULL) return err->code;
    e->type = column->type;
    e->constant = column;
    *out = e;
    return 0;
}

static int expr_const_value(exec_builder *b, const ty_type *type, const void *value,
                            exec_expr **out, mu_err *err) {
    ty_column *c;
    int rc = ty_column_create(type, NULL, &c, err);
    if (rc != 0) return rc;
    rc = ty_column_append_value(c, value, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    return exec_expr_const_take(b, c, out, err);
}

int exec_expr_const_uint(exec_builder *b, uint64_t value, exec_expr **out, mu_err *err) {
    if (value <= UINT8_MAX) {
        uint8_t v = (uint8_t)value;
        return expr_const_value(b, ty_type_builtin(TY_UINT8), &v, out, err);
    }
    if (value <= UINT16_MAX) {
        uint16_t v = (uint16_t)value;
        return expr_const_value(b, ty_type_builtin(TY_UINT16), &v, out, err);
    }
    if (value <= UINT32_MAX) {
        uint32_t v = (uint32_t)value;
        return expr_const_value(b, ty_type_builtin(TY_UINT32), &v, out, err);
    }
    return expr_const_value(b, ty_type_builtin(TY_UINT64), &value, out, err);
}

int exec_expr_const_int(exec_builder *b, int64_t value, exec_expr **out, mu_err *err) {
    if (value >= 0) return exec_expr_const_uint(b, (uint64_t)value, out, err);
    if (value >= INT8_MIN) {
        int8_t v = (int8_t)value;
        return expr_const_value(b, ty_type_builtin(TY_INT8), &v, out, err);
    }
    if (value >= INT16_MIN) {
        int16_t v = (int16_t)value;
        return expr_const_value(b, ty_type_builtin(TY_INT16), &v, out, err);
    }
    if (value >= INT32_MIN) {
        int32_t v = (int32_t)value;
        return expr_const_value(b, ty_type_builtin(TY_INT32), &v, out, err);
    }
    return expr_const_value(b, ty_type_builtin(TY_INT64), &value, out, err);
}

int exec_expr_const_float(exec_builder *b, double value, exec_expr **out, mu_err *err) {
    return expr_const_value(b, ty_type_builtin(TY_FLOAT64), &value, out, err);
}

int exec_expr_const_string(exec_builder *b, const char *data, size_t bytes, exec_expr **out,
                           mu_err *err) {
    ty_column *c;
    int rc = ty_column_create(ty_type_builtin(TY_STRING), NULL, &c, err);
    if (rc != 0) return rc;
    rc = ty_column_append_bytes(c, data, bytes, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    return exec_expr_const_take(b, c, out, err);
}

static int expr_null_of(exec_builder *b, const ty_type *type, exec_expr **out, mu_err *err) {
    ty_column *c;
    int rc = ty_column_create(type, NULL, &c, err);
    if (rc != 0) return rc;
    rc = ty_column_append_null(c, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    return exec_expr_const_take(b, c, out, err);
}

int exec_expr_const_null(exec_builder *b, exec_expr **out, mu_err *err) {
    const ty_type *t;
    int rc = exec_type_make_nullable(ty_type_builtin(TY_NOTHING), b->arena, &t, err);
    if (rc != 0) return rc;
    return expr_null_of(b, t, out, err);
}

int exec_expr_input(exec_builder *b, uint32_t input_index, const ty_type *type,
                    exec_expr **out, mu_err *err) {
    exec_expr *e = expr_new(b, EXEC_EXPR_INPUT, err);
    if (e == NULL) return err->code;
    if (type->kind == TY_LOW_CARDINALITY) {
        /* LowCardinality(Nullable(T)) reads as Nullable(T). */
        const ty_type *inner = type->child;
        e->type = inner;
    } else {
        e->type = type;
    }
    e->input_index = input_index;
    e->input_type = type;
    *out = e;
    return 0;
}

int exec_expr_call(exec_builder *b, const char *name, exec_expr **args, uint32_t arg_count,
                   exec_expr **out, mu_err *err) {
    const exec_function *fn = exec_function_find(name, strlen(name));
    if (fn == NULL) {
        if (exec_is_aggregate_name(name, strlen(name)))
            return MU_ERR(err, MU_EILLEGAL_AGGREGATION,
                          "Aggregate function %s is found in wrong place in query", name);
        return MU_ERR(err, MU_EUNKNOWN_FUNCTION, "Unknown function %s", name);
    }
    bool custom = (fn->flags & EXEC_FN_NULLS_CUSTOM) != 0;
    bool any_nullable = false;
    const ty_type **types = mu_arena_calloc(b->arena, arg_count ? arg_count : 1, sizeof(*types), err);
    const ty_column **consts =
        mu_arena_calloc(b->arena, arg_count ? arg_count : 1, sizeof(*consts), err);
    if (types == NULL || consts == NULL) return err->code;
    bool all_const = true;
    for (uint32_t i = 0; i < arg_count; i++) {
        const ty_type *t = args[i]->type;
        if (!custom) {
            if (exec_type_is_nothing(t)) return exec_expr_const_null(b, out, err);
            if (t->kind == TY_NULLABLE) {
                any_nullable = true;
                t = t->child;
            }
        }
        types[i] = t;
        consts[i] = args[i]->kind == EXEC_EXPR_CONST ? args[i]->constant : NULL;
        if (args[i]->kind != EXEC_EXPR_CONST) all_const = false;
    }
    exec_expr *e = expr_new(b, EXEC_EXPR_CALL, err);
    if (e == NULL) return err->code;
    e->call.function = fn;
    e->call.ctx = b->ctx;
    e->call.arg_count = arg_count;
    e->call.arg_types = types;
    e->call.arg_consts = consts;
    e->call.arg_exprs = (const exec_expr *const *)args;
    e->args = args;
    e->arg_count = arg_count;
    int rc = fn->bind(&e->call, b->arena, err);
    if (rc != 0) return rc;
    MU_ASSERT(e->call.kernel != NULL && e->call.result_type != NULL);
    e->type = e->call.result_type;
    if (!custom && any_nullable) {
        e->nulls_default = true;
        rc = exec_type_make_nullable(e->call.result_type, b->arena, &e->type, err);
        if (rc != 0) return rc;
        if (e->type == e->call.result_type && e->type->kind != TY_NULLABLE)
            e->nulls_default = false; /* Array/Map results cannot be Nullable */
        if (e->call.result_type->kind == TY_NULLABLE && !(fn->flags & EXEC_FN_RESULT_NULLABLE_OK))
            return MU_ERR(err, MU_EINTERNAL, "function %s returns a Nullable type without "
                          "EXEC_FN_RESULT_NULLABLE_OK", fn->name);
    }
    if (all_const && !(fn->flags & EXEC_FN_VOLATILE)) {
        ty_column *folded;
        rc = exec_eval_full(e, b->ctx, NULL, 1, &folded, err);
        if (rc != 0) return rc;
        return exec_expr_const_take(b, folded, out, err);
    }
    *out = e;
    return 0;
}

int exec_expr_cast(exec_builder *b, exec_expr *arg, const ty_type *type, exec_expr **out,
                   mu_err *err) {
    mu_buf name;
    mu_buf_init(&name, 1u << 20);
    int rc = ty_type_render(type, &name, err);
    exec_expr *type_arg = NULL;
    if (rc == 0) rc = exec_expr_const_string(b, (const char *)name.data, name.length_bytes, &type_arg, err);
    mu_buf_deinit(&name);
    if (rc != 0) return rc;
    exec_expr **args = mu_arena_calloc(b->arena, 2, sizeof(*args), err);
    if (args == NULL) return err->code;
    args[0] = arg;
    args[1] = type_arg;
    return exec_expr_call(b, "_CAST", args, 2, out, err);
}

/* ---- evaluation ---------------------------------------------------- */

void exec_value_release(exec_value *v) {
    if (v == NULL) return;
    ty_column_destroy(v->owned);
    memset(v, 0, sizeof(*v));
}

/* LowCardinality input: gather the dictionary by index. */
static int expr_materialize_lc(const ty_column *lc, const ty_type *type, uint32_t rows,
                               ty_column **out, mu_err *err) {
    const ty_column *dict = ty_column_child(lc, 0);
    const uint32_t *idx = (const uint32_t *)(const void *)ty_column_values(lc);
    ty_column *c;
    int rc = ty_column_create(ty_type_strip_nullable(type), NULL, &c, err);
    if (rc != 0) return rc;
    rc = ty_column_append_gather(c, dict, idx, rows, err);
    if (rc == 0 && type->kind == TY_NULLABLE)
        rc = ty_column_make_nullable(c, type, ty_column_validity(lc), err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

static int expr_const_null_column(const ty_type *type, ty_column **out, mu_err *err) {
    ty_column *c;
    int rc = ty_column_create(type, NULL, &c, err);
    if (rc == 0) rc = ty_column_append_null(c, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

static int expr_eval_call(const exec_expr *e, const ty_column *const *inputs, uint32_t rows,
                          exec_value *out, mu_err *err) {
    exec_value stack_vals[8];
    exec_arg stack_args[8];
    exec_value *vals = stack_vals;
    exec_arg *args = stack_args;
    uint32_t n = e->arg_count;
    int rc = 0;
    ty_column *result = NULL;
    uint8_t *validity = NULL;
    if (n > 8) {
        vals = calloc(n, sizeof(*vals));
        args = calloc(n, sizeof(*args));
        if (vals == NULL || args == NULL) {
            rc = MU_ERR(err, MU_ENOMEM, "out of memory evaluating %s", e->call.function->name);
            goto done;
        }
    }
    memset(vals, 0, n * sizeof(*vals));
    /* A volatile function (rand(), rowNumberInBlock()) runs for every row
     * even without arguments. */
    bool all_const = !(e->call.function->flags & EXEC_FN_VOLATILE);
    for (uint32_t i = 0; i < n; i++) {
        rc = exec_eval(e->args[i], e->call.ctx, inputs, rows, &vals[i], err);
        if (rc != 0) goto done;
        args[i].column = vals[i].column;
        args[i].is_const = vals[i].is_const;
        if (!vals[i].is_const) all_const = false;
    }
    uint32_t eval_rows = all_const ? 1 : rows;
    if (e->nulls_default) {
        /* A constant NULL argument: every row is NULL. */
        for (uint32_t i = 0; i < n; i++) {
            if (args[i].is_const && ty_column_is_null(args[i].column, 0)) {
                rc = expr_const_null_column(e->type, &result, err);
                if (rc != 0) goto done;
                out->column = result;
                out->owned = result;
                out->is_const = true;
                result = NULL;
                goto done;
            }
        }
        size_t bytes = (eval_rows + 7) / 8;
        validity = malloc(bytes ? bytes : 1);
        if (validity == NULL) {
            rc = MU_ERR(err, MU_ENOMEM, "out of memory evaluating %s", e->call.function->name);
            goto done;
        }
        memset(validity, 0xFF, bytes);
        for (uint32_t i = 0; i < n; i++) {
            const ty_column *c = args[i].column;
            if (args[i].is_const || !c->nullable) continue;
            const uint8_t *v = ty_column_validity(c);
            for (size_t k = 0; k < bytes; k++) validity[k] &= v[k];
        }
    }
    rc = ty_column_create(e->call.result_type, e->call.ctx ? e->call.ctx->tracker : NULL,
                          &result, err);
    if (rc != 0) goto done;
    rc = e->call.kernel(&e->call, args, eval_rows, result, err);
    if (rc != 0) goto done;
    if (ty_column_row_count(result) != eval_rows) {
        rc = MU_ERR(err, MU_EINTERNAL, "function %s produced %u rows for %u",
                    e->call.function->name, ty_column_row_count(result), eval_rows);
        goto done;
    }
    if (e->nulls_default) {
        /* A result already Nullable (EXEC_FN_RESULT_NULLABLE_OK) keeps its
         * NULLs and gains the arguments'. */
        rc = result->nullable ? ty_column_and_validity(result, validity, err)
                              : ty_column_make_nullable(result, e->type, validity, err);
        if (rc != 0) goto done;
    }
    out->column = result;
    out->owned = result;
    out->is_const = all_const;
    result = NULL;
done:
    for (uint32_t i = 0; i < n && vals; i++) exec_value_release(&vals[i]);
    if (vals != stack_vals) free(vals);
    if (args != stack_args) free(args);
    free(validity);
    ty_column_destroy(result);
    return rc;
}

int exec_eval(const exec_expr *e, const exec_context *ctx, const ty_column *const *inputs,
              uint32_t rows, exec_value *out, mu_err *err) {
    (void)ctx;
    memset(out, 0, sizeof(*out));
    switch (e->kind) {
    case EXEC_EXPR_CONST:
        out->column = e->constant;
        out->is_const = true;
        return 0;
    case EXEC_EXPR_INPUT: {
        const ty_column *c = inputs[e->input_index];
        if (c->type->kind == TY_LOW_CARDINALITY) {
            int rc = expr_materialize_lc(c, e->type, rows, &out->owned, err);
            if (rc != 0) return rc;
            out->column = out->owned;
            return 0;
        }
        out->column = c;
        return 0;
    }
    case EXEC_EXPR_CALL:
        return expr_eval_call(e, inputs, rows, out, err);
    }
    return MU_ERR(err, MU_EINTERNAL, "unknown expression kind %d", (int)e->kind);
}

int exec_column_replicate(const ty_column *column, uint32_t rows, mu_mem_tracker *tracker,
                          ty_column **out, mu_err *err) {
    uint32_t *zeros = calloc(rows ? rows : 1, sizeof(*zeros));
    if (zeros == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory replicating a constant");
    ty_column *c;
    int rc = ty_column_create(column->type, tracker, &c, err);
    if (rc == 0) rc = ty_column_append_gather(c, column, zeros, rows, err);
    free(zeros);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

int exec_eval_full(const exec_expr *e, const exec_context *ctx, const ty_column *const *inputs,
                   uint32_t rows, ty_column **out_column, mu_err *err) {
    exec_value v;
    int rc = exec_eval(e, ctx, inputs, rows, &v, err);
    if (rc != 0) return rc;
    if (v.is_const && rows != 1) {
        rc = exec_column_replicate(v.column, rows, ctx ? ctx->tracker : NULL, out_column, err);
        exec_value_release(&v);
        return rc;
    }
    if (v.owned) {
        *out_column = v.owned;
        return 0;
    }
    /* A borrowed input column: copy it. */
    ty_column *c;
    rc = ty_column_create(v.column->type, ctx ? ctx->tracker : NULL, &c, err);
    if (rc == 0) rc = ty_column_append_rows_from(c, v.column, 0, rows, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out_column = c;
    return 0;
}

int exec_value_to_selection(const exec_value *v, uint32_t rows, uint32_t *sel_out,
                            uint32_t *count_out, mu_err *err) {
    const ty_column *c = v->column;
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_NOTHING) {
        *count_out = 0;
        return 0;
    }
    if (!exec_type_is_number(t) || t->kind == TY_DECIMAL) {
        char name[128];
        return MU_ERR(err, MU_EFILTER_TYPE,
                      "Illegal type %s of column for filter. Must be UInt8 or Nullable(UInt8).",
                      ty_type_name(c->type, name, sizeof(name)));
    }
    uint32_t n = 0;
    if (v->is_const) {
        bool keep = !ty_column_is_null(c, 0) && exec_get_f64(c, 0) != 0;
        if (keep)
            for (uint32_t i = 0; i < rows; i++) sel_out[n++] = i;
        *count_out = n;
        return 0;
    }
    if (t->kind == TY_UINT8 || t->kind == TY_BOOL) {
        const uint8_t *p = ty_column_values(c);
        if (c->nullable) {
            const uint8_t *valid = ty_column_validity(c);
            for (uint32_t i = 0; i < rows; i++) {
                sel_out[n] = i;
                n += (p[i] != 0) & ((valid[i >> 3] >> (i & 7)) & 1u);
            }
        } else {
            for (uint32_t i = 0; i < rows; i++) {
                sel_out[n] = i;
                n += p[i] != 0;
            }
        }
    } else {
        for (uint32_t i = 0; i < rows; i++)
            if (!ty_column_is_null(c, i) && exec_get_f64(c, i) != 0) sel_out[n++] = i;
    }
    *count_out = n;
    return 0;
}
