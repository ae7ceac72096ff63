/* lambda.c: higher-order array functions over a lambda body. The call is
 * an ordinary EXEC_EXPR_CALL whose arguments are the arrays followed by
 * the captured outer expressions; its state holds the body, which the
 * kernel evaluates once per block over every element (captures repeated
 * per element), then folds the results back into rows.
 */
#include "exec/exec_int.h"

#include <stdlib.h>
#include <string.h>

typedef enum lambda_kind {
    LAMBDA_MAP, LAMBDA_FILTER, LAMBDA_EXISTS, LAMBDA_ALL, LAMBDA_COUNT, LAMBDA_FIRST,
    LAMBDA_FIRST_INDEX, LAMBDA_SUM,
} lambda_kind;

static const struct {
    const char *name;
    lambda_kind kind;
} lambda_names[] = {
    {"arrayMap", LAMBDA_MAP},     {"arrayFilter", LAMBDA_FILTER},
    {"arrayExists", LAMBDA_EXISTS}, {"arrayAll", LAMBDA_ALL},
    {"arrayCount", LAMBDA_COUNT}, {"arrayFirst", LAMBDA_FIRST},
    {"arrayFirstIndex", LAMBDA_FIRST_INDEX}, {"arraySum", LAMBDA_SUM},
};

typedef struct lambda_state {
    lambda_kind kind;
    const exec_expr *body;
    uint32_t param_count;
} lambda_state;

static int lambda_find(const char *name, lambda_kind *kind_out) {
    for (size_t i = 0; i < sizeof(lambda_names) / sizeof(lambda_names[0]); i++)
        if (strcmp(lambda_names[i].name, name) == 0) {
            *kind_out = lambda_names[i].kind;
            return (int)i;
        }
    return -1;
}

bool exec_function_takes_lambda(const char *name) {
    lambda_kind k;
    return lambda_find(name, &k) >= 0;
}

static int lambda_bind_unused(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return MU_ERR(err, MU_EILLEGAL_TYPE, "function %s needs a lambda as its first argument",
                  call->function->name);
}

static const exec_function lambda_functions[] = {
    {"arrayMap", EXEC_FN_NULLS_CUSTOM, lambda_bind_unused},
    {"arrayFilter", EXEC_FN_NULLS_CUSTOM, lambda_bind_unused},
    {"arrayExists", EXEC_FN_NULLS_CUSTOM, lambda_bind_unused},
    {"arrayAll", EXEC_FN_NULLS_CUSTOM, lambda_bind_unused},
    {"arrayCount", EXEC_FN_NULLS_CUSTOM, lambda_bind_unused},
    {"arrayFirst", EXEC_FN_NULLS_CUSTOM, lambda_bind_unused},
    {"arrayFirstIndex", EXEC_FN_NULLS_CUSTOM, lambda_bind_unused},
};

const exec_function *const exec__functions_lambda[] = {
    &lambda_functions[0], &lambda_functions[1], &lambda_functions[2], &lambda_functions[3],
    &lambda_functions[4], &lambda_functions[5], &lambda_functions[6], NULL,
};

static bool lambda_true(const ty_column *c, uint32_t row) {
    return !ty_column_is_null(c, row) && exec_get_f64(c, row) != 0;
}

static int lambda_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    const lambda_state *st = call->state;
    uint32_t np = st->param_count, nc = call->arg_count - np;
    int rc = 0;
    const ty_column *first = args[0].column;
    const uint32_t *offs0 = ty_column_offsets(first);
    /* element counts and sources */
    uint64_t total = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t ar = exec_arg_row(&args[0], r);
        uint32_t len = offs0[ar + 1] - offs0[ar];
        for (uint32_t p = 1; p < np; p++) {
            const uint32_t *o = ty_column_offsets(args[p].column);
            uint32_t pr = exec_arg_row(&args[p], r);
            if (o[pr + 1] - o[pr] != len)
                return MU_ERR(err, MU_EARRAY_SIZES, "Sizes of arrays passed to %s don't match",
                              call->function->name);
        }
        total += len;
    }
    if (total > TY_COLUMN_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "%s over more than %u elements", call->function->name,
                      TY_COLUMN_ROWS_MAX);
    uint32_t *elem_row = exec__scratch(total, sizeof(uint32_t), err);
    const ty_column **inputs = calloc(np + nc + 1, sizeof(*inputs));
    ty_column **owned = calloc(np + nc + 1, sizeof(*owned));
    ty_column *res = NULL;
    if (elem_row == NULL || inputs == NULL || owned == NULL) {
        rc = elem_row ? MU_ERR(err, MU_ENOMEM, "out of memory") : err->code;
        goto done;
    }
    uint32_t k = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t ar = exec_arg_row(&args[0], r);
        for (uint32_t e = offs0[ar]; e < offs0[ar + 1]; e++) elem_row[k++] = r;
    }
    for (uint32_t p = 0; p < np && rc == 0; p++) {
        const ty_column *arr = args[p].column;
        const ty_column *elems = ty_column_child(arr, 0);
        if (!args[p].is_const) {
            const uint32_t *o = ty_column_offsets(arr);
            if (o[0] == 0 && o[rows] == ty_column_row_count(elems) && o[rows] == total) {
                inputs[p] = elems;
                continue;
            }
        }
        /* gather this array's elements in row order */
        uint32_t *idx = exec__scratch(total, sizeof(uint32_t), err);
        if (idx == NULL) {
            rc = err->code;
            break;
        }
        const uint32_t *o = ty_column_offsets(arr);
        uint32_t n = 0;
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t pr = exec_arg_row(&args[p], r);
            for (uint32_t e = o[pr]; e < o[pr + 1]; e++) idx[n++] = e;
        }
        rc = ty_column_create(elems->type, NULL, &owned[p], err);
        if (rc == 0) rc = ty_column_append_gather(owned[p], elems, idx, n, err);
        free(idx);
        inputs[p] = owned[p];
    }
    for (uint32_t c = 0; c < nc && rc == 0; c++) {
        const exec_arg *a = &args[np + c];
        uint32_t *idx = exec__scratch(total, sizeof(uint32_t), err);
        if (idx == NULL) {
            rc = err->code;
            break;
        }
        for (uint32_t i = 0; i < total; i++) idx[i] = a->is_const ? 0 : elem_row[i];
        rc = ty_column_create(a->column->type, NULL, &owned[np + c], err);
        if (rc == 0) rc = ty_column_append_gather(owned[np + c], a->column, idx, (uint32_t)total, err);
        free(idx);
        inputs[np + c] = owned[np + c];
    }
    if (rc == 0) rc = exec_eval_full(st->body, call->ctx, inputs, (uint32_t)total, &res, err);
    if (rc != 0) goto done;
    /* fold per row */
    k = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        uint32_t ar = exec_arg_row(&args[0], r);
        uint32_t len = offs0[ar + 1] - offs0[ar];
        uint32_t from = k;
        k += len;
        switch (st->kind) {
        case LAMBDA_MAP: {
            rc = ty_column_append_rows_from(ty_column_child_mut(out, 0), res, from, len, err);
            if (rc == 0) rc = ty_column_append_nested_end(out, err);
            break;
        }
        case LAMBDA_FILTER: {
            for (uint32_t e = 0; e < len && rc == 0; e++)
                if (lambda_true(res, from + e))
                    rc = ty_column_append_from(ty_column_child_mut(out, 0), inputs[0], from + e, err);
            if (rc == 0) rc = ty_column_append_nested_end(out, err);
            break;
        }
        case LAMBDA_EXISTS:
        case LAMBDA_ALL:
        case LAMBDA_COUNT:
        case LAMBDA_FIRST_INDEX: {
            uint64_t count = 0, first_index = 0;
            for (uint32_t e = 0; e < len; e++)
                if (lambda_true(res, from + e)) {
                    if (!count) first_index = e + 1;
                    count++;
                }
            uint8_t b;
            uint32_t u32;
            uint64_t u64;
            if (st->kind == LAMBDA_EXISTS) {
                b = count > 0;
                rc = ty_column_append_value(out, &b, err);
            } else if (st->kind == LAMBDA_ALL) {
                b = count == len;
                rc = ty_column_append_value(out, &b, err);
            } else if (st->kind == LAMBDA_COUNT) {
                u32 = (uint32_t)count;
                rc = ty_column_append_value(out, &u32, err);
            } else {
                u64 = first_index;
                rc = ty_column_append_value(out, &u64, err);
            }
            break;
        }
        case LAMBDA_FIRST: {
            uint32_t e = 0;
            while (e < len && !lambda_true(res, from + e)) e++;
            if (e < len) rc = ty_column_append_from(out, inputs[0], from + e, err);
            else rc = ty_column_append_default(out, err);
            break;
        }
        case LAMBDA_SUM: {
            const ty_type *rt = ty_type_strip_nullable(res->type);
            if (exec_type_is_float(rt)) {
                double s = 0;
                for (uint32_t e = 0; e < len; e++) s += exec_get_f64(res, from + e);
                rc = ty_column_append_value(out, &s, err);
            } else if (exec_type_is_signed(rt)) {
                int64_t s = 0;
                for (uint32_t e = 0; e < len; e++) s += exec_get_i64(res, from + e);
                rc = ty_column_append_value(out, &s, err);
            } else {
                uint64_t s = 0;
                for (uint32_t e = 0; e < len; e++) s += exec_get_u64(res, from + e);
                rc = ty_column_append_value(out, &s, err);
            }
            break;
        }
        }
    }
done:
    for (uint32_t i = 0; owned && i < np + nc; i++) ty_column_destroy(owned[i]);
    free(owned);
    free(inputs);
    free(elem_row);
    ty_column_destroy(res);
    return rc;
}

int exec_expr_call_lambda(exec_builder *b, const char *name, exec_expr *body,
                          uint32_t param_count, exec_expr **arrays, exec_expr **captures,
                          uint32_t capture_count, exec_expr **out, mu_err *err) {
    lambda_kind kind;
    int index = lambda_find(name, &kind);
    if (index < 0) return MU_ERR(err, MU_EUNKNOWN_FUNCTION, "Unknown function %s", name);
    if (param_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "function %s needs at least one array", name);
    if (kind != LAMBDA_MAP && param_count > 1 && kind == LAMBDA_FILTER) {
        /* arrayFilter(f, a, b) keeps elements of a */
    }
    for (uint32_t p = 0; p < param_count; p++) {
        if (arrays[p]->type->kind != TY_ARRAY) {
            char tn[128];
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument %u of function %s: "
                          "an array is expected", ty_type_name(arrays[p]->type, tn, sizeof(tn)),
                          p + 2, name);
        }
    }
    const ty_type *bt = ty_type_strip_nullable(body->type);
    if (kind != LAMBDA_MAP && !exec_type_is_number(bt) && bt->kind != TY_NOTHING) {
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of lambda result of function %s: "
                      "a number is expected", ty_type_name(body->type, tn, sizeof(tn)), name);
    }
    uint32_t n = param_count + capture_count;
    exec_expr **args = mu_arena_calloc(b->arena, n, sizeof(*args), err);
    const ty_type **types = mu_arena_calloc(b->arena, n, sizeof(*types), err);
    const ty_column **consts = mu_arena_calloc(b->arena, n, sizeof(*consts), err);
    lambda_state *st = mu_arena_calloc(b->arena, 1, sizeof(*st), err);
    exec_expr *e = mu_arena_calloc(b->arena, 1, sizeof(*e), err);
    if (!args || !types || !consts || !st || !e) return err->code;
    for (uint32_t i = 0; i < param_count; i++) args[i] = arrays[i];
    for (uint32_t i = 0; i < capture_count; i++) args[param_count + i] = captures[i];
    for (uint32_t i = 0; i < n; i++) types[i] = args[i]->type;
    st->kind = kind;
    st->body = body;
    st->param_count = param_count;
    const ty_type *result = NULL;
    switch (kind) {
    case LAMBDA_MAP:
    case LAMBDA_FILTER: {
        ty_type *at = mu_arena_calloc(b->arena, 1, sizeof(*at), err);
        if (at == NULL) return err->code;
        at->kind = TY_ARRAY;
        at->child = kind == LAMBDA_MAP ? body->type : arrays[0]->type->child;
        result = at;
        break;
    }
    case LAMBDA_EXISTS: case LAMBDA_ALL: result = ty_type_builtin(TY_UINT8); break;
    case LAMBDA_COUNT: result = ty_type_builtin(TY_UINT32); break;
    case LAMBDA_FIRST_INDEX: result = ty_type_builtin(TY_UINT64); break;
    case LAMBDA_FIRST: result = arrays[0]->type->child; break;
    case LAMBDA_SUM:
        result = ty_type_builtin(exec_type_is_float(bt) ? TY_FLOAT64
                                 : exec_type_is_signed(bt) ? TY_INT64 : TY_UINT64);
        break;
    }
    e->kind = EXEC_EXPR_CALL;
    e->type = result;
    e->call.function = &lambda_functions[kind <= LAMBDA_FIRST_INDEX ? (int)kind : 0];
    e->call.ctx = b->ctx;
    e->call.arg_count = n;
    e->call.arg_types = types;
    e->call.arg_consts = consts;
    e->call.kernel = lambda_kernel;
    e->call.result_type = result;
    e->call.state = st;
    e->args = args;
    e->arg_count = n;
    *out = e;
    return 0;
}
