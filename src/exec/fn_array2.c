/* fn_array2.c: the second half of ClickHouse's array and map functions:
 * range, aggregates over the elements of each row (arraySum, arrayAvg,
 * arrayProduct, arrayMin, arrayMax), running sums and differences
 * (arrayCumSum, arrayCumSumNonNegative, arrayDifference), arrayStringConcat
 * and the map functions mapKeys, mapValues and mapConcat. The plain forms
 * here are also what lambda.c calls on the lambda's results
 * (arraySum(x -> f(x), arr) is arraySum over the mapped elements), so their
 * result types follow ClickHouse's FunctionArrayMapped implementations.
 * Integer arithmetic wraps as ClickHouse's does.
 */
#include "exec/fn_array_int.h"

#include <stdlib.h>
#include <string.h>

/* ClickHouse's function_range_max_elements_in_block default. */
#define ARR_RANGE_ELEMENTS_MAX 500000000ULL

/* ------------------------------------------------------------------ */
/* range                                                               */
/* ------------------------------------------------------------------ */

typedef struct arr_range_row {
    uint64_t start, step; /* as the element type's bits (wrapping) */
    uint64_t length;
} arr_range_row;

/* Elements of range(start, end, step) for one row, as ClickHouse counts
 * them in 128-bit arithmetic. */
static int arr_range_length(const exec_call *call, bool is_signed, uint64_t start, uint64_t end,
                            uint64_t step, uint64_t *length, mu_err *err) {
    __int128 s = is_signed ? (__int128)(int64_t)start : (__int128)start;
    __int128 e = is_signed ? (__int128)(int64_t)end : (__int128)end;
    __int128 d = is_signed ? (__int128)(int64_t)step : (__int128)step;
    if (d == 0)
        return MU_ERR(err, MU_EOUT_OF_BOUND,
                      "A call to function %s overflows, the 3rd argument step can't be zero",
                      call->function->name);
    if (s < e && d > 0) *length = (uint64_t)((e - s - 1) / d + 1);
    else if (s > e && d < 0) *length = (uint64_t)((e - s + 1) / d + 1);
    else *length = 0;
    return 0;
}

static int arr_range_plan(const exec_call *call, const exec_arg *args, uint32_t rows,
                          arr_range_row *plan, uint64_t *total, mu_err *err) {
    bool is_signed = exec_type_is_signed(call->result_type->child);
    *total = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint64_t v[3] = {0, 0, 1};
        for (uint32_t i = 0; i < call->arg_count; i++) {
            char tn[128];
            if (exec_arg_is_null_row(&args[i], r))
                /* ClickHouse's BAD_ARGUMENTS for a NULL inside a Nullable argument. */
                return MU_ERR(err, MU_EINVAL, "Illegal (null) value column %s of argument of "
                              "function %s", ty_type_name(args[i].column->type, tn, sizeof(tn)),
                              call->function->name);
            uint32_t row = exec_arg_row(&args[i], r);
            uint64_t x = exec_type_is_signed(call->arg_types[i])
                             ? (uint64_t)exec_get_i64(args[i].column, row)
                             : exec_get_u64(args[i].column, row);
            v[call->arg_count == 1 ? 1 : i] = x;
        }
        if (call->arg_count == 1 && is_signed && (int64_t)v[1] < 0)
            return MU_ERR(err, MU_EOUT_OF_BOUND, "A call to function %s overflows, only support "
                          "positive values when only end is provided", call->function->name);
        plan[r].start = v[0];
        plan[r].step = v[2];
        int rc = arr_range_length(call, is_signed, v[0], v[1], v[2], &plan[r].length, err);
        if (rc != 0) return rc;
        *total += plan[r].length;
        if (*total > ARR_RANGE_ELEMENTS_MAX)
            return MU_ERR(err, MU_EOUT_OF_BOUND, "A call to function %s would produce %llu array "
                          "elements, which is greater than the allowed maximum of %llu",
                          call->function->name, (unsigned long long)*total,
                          (unsigned long long)ARR_RANGE_ELEMENTS_MAX);
    }
    return 0;
}

static int arr_range_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    arr_range_row *plan = exec__scratch(rows, sizeof(*plan), err);
    uint32_t *lengths = plan ? exec__scratch(rows, sizeof(*lengths), err) : NULL;
    int64_t *values = NULL;
    uint64_t total = 0;
    int rc = lengths ? arr_range_plan(call, args, rows, plan, &total, err) : err->code;
    if (rc == 0) {
        values = exec__scratch(total, sizeof(*values), err);
        if (values == NULL) rc = err->code;
    }
    MU_ASSERT(rc != 0 || total <= ARR_RANGE_ELEMENTS_MAX);
    for (uint32_t r = 0, k = 0; r < rows && rc == 0; r++) {
        for (uint64_t j = 0; j < plan[r].length; j++)
            values[k++] = (int64_t)(plan[r].start + j * plan[r].step); /* wraps as ClickHouse */
        lengths[r] = (uint32_t)plan[r].length;
    }
    if (rc == 0) rc = exec__store_i64(ty_column_child_mut(out, 0), values, (uint32_t)total, err);
    if (rc == 0) rc = ty_column_append_nested_raw(out, lengths, rows, err);
    free(values);
    free(lengths);
    free(plan);
    return rc;
}

/* range(end), range(start, end[, step]): Array(supertype of the arguments). */
static int arr_bind_range(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count == 0 || call->arg_count > 3)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s needs 1..3 arguments; passed %u.",
                      call->function->name, call->arg_count);
    const ty_type *types[3];
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (exec_type_is_nothing(call->arg_types[i]))
            return exec__arr_bind_all_null(call, arena, err);
    }
    for (uint32_t i = 0; i < call->arg_count; i++) {
        types[i] = ty_type_strip_nullable(call->arg_types[i]);
        if (exec_type_is_integer(types[i])) continue;
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument of function %s",
                      ty_type_name(call->arg_types[i], tn, sizeof(tn)), call->function->name);
    }
    const ty_type *elem;
    int rc = exec__arr_supertype(types, call->arg_count, arena, &elem, err);
    if (rc != 0) return rc;
    call->kernel = arr_range_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, elem, NULL, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* arraySum, arrayAvg, arrayProduct, arrayMin, arrayMax                */
/* ------------------------------------------------------------------ */

typedef enum arr_agg_op { ARR_SUM, ARR_AVG, ARR_PRODUCT } arr_agg_op;

/* Decimals: 128-bit sums and products of the scaled values. */
static int arr_agg_decimal_row(arr_agg_op op, const ty_column *elems, uint32_t b, uint32_t e,
                               __int128 *acc, mu_err *err) {
    const ty_type *t = elems->type;
    *acc = 0;
    for (uint32_t j = b; j < e; j++) {
        __int128 v = arr_decimal_load(arr_fixed_ptr(elems, j), t->precision);
        if (j == b) *acc = v;
        else if (op != ARR_PRODUCT) *acc += v;
        else if (__builtin_mul_overflow(*acc, v, acc))
            return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal math overflow");
    }
    if (op == ARR_PRODUCT && e > b && (uint64_t)t->scale * (e - b) > TY_DECIMAL_PRECISION_MAX)
        return MU_ERR(err, MU_EOUT_OF_BOUND, "Scale %llu is out of bounds (max scale: %d)",
                      (unsigned long long)t->scale * (e - b), TY_DECIMAL_PRECISION_MAX);
    return 0;
}

static int arr_agg_decimal(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    arr_agg_op op = (arr_agg_op)(uintptr_t)call->state;
    const ty_column *elems = ty_column_child(args[0].column, 0);
    unsigned scale = elems->type->scale;
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        uint32_t b, e;
        __int128 acc;
        arr_bounds(&args[0], r, &b, &e);
        rc = arr_agg_decimal_row(op, elems, b, e, &acc, err);
        if (rc != 0) break;
        if (op == ARR_SUM) {
            memcpy((uint8_t *)at + (size_t)r * 16, &acc, 16);
            continue;
        }
        double d = 0;
        if (e > b && op == ARR_AVG) d = (double)(acc / (e - b)) / (double)ty_decimal_pow10(scale);
        if (e > b && op == ARR_PRODUCT)
            d = (double)acc / (double)ty_decimal_pow10(scale * (e - b));
        ((double *)at)[r] = d;
    }
    return rc;
}

/* Integers add and multiply in 64 bits with wrap-around (Int64 for signed
 * elements, UInt64 otherwise), floats in Float64, as ClickHouse. */
static int arr_agg_number(const exec_call *call, const exec_arg *args, uint32_t rows,
                          ty_column *out, mu_err *err) {
    arr_agg_op op = (arr_agg_op)(uintptr_t)call->state;
    const ty_column *elems = ty_column_child(args[0].column, 0);
    uint32_t n = ty_column_row_count(elems);
    const ty_type *t = elems->type;
    bool is_float = exec_type_is_float(t), is_signed = exec_type_is_signed(t);
    exec_arg all = {.column = elems, .is_const = false};
    double *f = is_float ? exec__scratch(n, sizeof(*f), err) : NULL;
    uint64_t *u = is_float ? NULL : exec__scratch(n, sizeof(*u), err);
    void *at = NULL;
    int rc = (f || u) ? ty_column_append_fixed_uninit(out, rows, &at, err) : err->code;
    if (rc == 0 && f) exec__load_f64(&all, n, f);
    if (rc == 0 && u) exec__load_u64(&all, n, u); /* signed values keep their bits */
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        double fa = 0;
        uint64_t ua = 0;
        for (uint32_t j = b; j < e; j++) {
            double fv = f ? f[j] : 0;
            uint64_t uv = u ? u[j] : 0;
            fa = j == b ? fv : op == ARR_PRODUCT ? fa * fv : fa + fv;
            ua = j == b ? uv : op == ARR_PRODUCT ? ua * uv : ua + uv;
        }
        double as_double = is_float ? fa : is_signed ? (double)(int64_t)ua : (double)ua;
        if (op == ARR_SUM && !is_float) ((uint64_t *)at)[r] = ua;
        else if (op == ARR_AVG) ((double *)at)[r] = e > b ? as_double / (e - b) : 0;
        else ((double *)at)[r] = as_double;
    }
    free(f);
    free(u);
    return rc;
}

static int arr_bind_aggregate(exec_call *call, mu_arena *arena, mu_err *err) {
    arr_agg_op op = (arr_agg_op)arr_op(call);
    int rc = exec__arr_bind_one_array(call, ARR_MSG_ONLY, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0]->child;
    bool number = exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL;
    call->state = (void *)(uintptr_t)op;
    if (t->kind == TY_DECIMAL) {
        call->kernel = arr_agg_decimal;
        if (op == ARR_SUM) { /* Decimal128 of the same scale */
            ty_type *d = mu_arena_calloc(arena, 1, sizeof(*d), err);
            if (d == NULL) return err->code;
            *d = (ty_type){.kind = TY_DECIMAL, .precision = 38, .scale = t->scale};
            call->result_type = d;
            return 0;
        }
    } else if (number) {
        call->kernel = arr_agg_number;
        if (op == ARR_SUM)
            call->result_type = ty_type_builtin(exec_type_is_float(t)    ? TY_FLOAT64
                                                : exec_type_is_signed(t) ? TY_INT64
                                                                         : TY_UINT64);
    } else {
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "array aggregation function cannot be performed on type %s",
                      ty_type_name(t, tn, sizeof(tn)));
    }
    if (op != ARR_SUM) call->result_type = ty_type_builtin(TY_FLOAT64);
    return 0;
}

/* arrayMax order: NULL < NaN < any value (ClickHouse's nan_direction_hint
 * -1); arrayMin uses the ascending order, where NaN and NULL come last. */
static bool arr_better(const ty_column *c, bool max, uint32_t j, uint32_t best) {
    if (!max) return ty_column_compare_rows(c, j, c, best) < 0;
    int rj = 2 - exec__arr_special_rank(c, j), rb = 2 - exec__arr_special_rank(c, best);
    if (rj != rb) return rj > rb;
    return rj == 2 && ty_column_compare_rows(c, j, c, best) > 0;
}

static int arr_min_max_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    bool max = arr_op(call) != 0;
    const ty_column *elems = ty_column_child(args[0].column, 0);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        int rc;
        if (e == b) {
            rc = ty_column_append_default(out, err);
        } else {
            uint32_t best = b;
            for (uint32_t j = b + 1; j < e; j++)
                if (arr_better(elems, max, j, best)) best = j;
            rc = exec__arr_convert_rows(out, elems, best, 1, err);
        }
        if (rc != 0) return rc;
    }
    return 0;
}

static int arr_bind_min_max(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count == 1 && exec_type_is_nothing(call->arg_types[0]))
        return exec__arr_bind_all_null(call, arena, err);
    int rc = exec__arr_bind_one_array(call, ARR_MSG_ONLY, err);
    if (rc != 0) return rc;
    const ty_type *elem = arr_strip_lc(call->arg_types[0]->child);
    if (exec_type_is_nothing(elem)) return exec__arr_bind_all_null(call, arena, err);
    call->kernel = arr_min_max_kernel;
    call->result_type = elem;
    return 0;
}

/* ------------------------------------------------------------------ */
/* arrayStringConcat                                                   */
/* ------------------------------------------------------------------ */

/* Appends element j as CAST(x AS String) writes it. */
static int arr_element_text(const ty_column *elems, uint32_t j, mu_buf *out, mu_err *err) {
    const ty_type *v = arr_value_type(elems->type);
    if (exec_type_is_string(v)) {
        size_t bytes;
        const uint8_t *data = ty_column_row_bytes(elems, j, &bytes);
        if (v->kind == TY_FIXED_STRING)
            while (bytes > 0 && data[bytes - 1] == 0) bytes--; /* as CAST to String */
        return mu_buf_append(out, data, bytes, err);
    }
    return ty_column_render_text(elems, j, 0, out, err);
}

static int arr_string_concat_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                    ty_column *out, mu_err *err) {
    const char *sep = "";
    size_t sep_bytes = 0;
    if (call->arg_count == 2) exec__const_string(call, 1, &sep, &sep_bytes);
    const ty_column *elems = ty_column_child(args[0].column, 0);
    mu_buf text;
    mu_buf_init(&text, (size_t)UINT32_MAX);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        uint32_t b, e;
        bool first = true;
        arr_bounds(&args[0], r, &b, &e);
        mu_buf_clear(&text);
        for (uint32_t j = b; j < e && rc == 0; j++) {
            if (ty_column_is_null(elems, j)) continue; /* NULL elements are skipped */
            if (!first) rc = mu_buf_append(&text, sep, sep_bytes, err);
            first = false;
            if (rc == 0) rc = arr_element_text(elems, j, &text, err);
        }
        if (rc == 0) rc = ty_column_append_bytes(out, text.data, text.length_bytes, err);
    }
    mu_buf_deinit(&text);
    return rc;
}

static int arr_bind_string_concat(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 2, err);
    if (rc != 0) return rc;
    char tn[128];
    if (call->arg_types[0]->kind != TY_ARRAY)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type of argument #1 'arr' of function %s, "
                      "expected Array, got %s", call->function->name,
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)));
    if (call->arg_count == 2) {
        const char *sep;
        size_t bytes;
        ty_type_name(call->arg_types[1], tn, sizeof(tn));
        if (call->arg_types[1]->kind != TY_STRING)
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type of argument #2 'separator' of "
                          "function %s, expected const String, got %s", call->function->name, tn);
        if (!exec__const_string(call, 1, &sep, &bytes))
            return MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal type of argument #2 'separator' of "
                          "function %s, expected const String, got %s", call->function->name, tn);
    }
    call->kernel = arr_string_concat_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

/* ------------------------------------------------------------------ */
/* mapKeys, mapValues                                                  */
/* ------------------------------------------------------------------ */

static int arr_map_part_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                               ty_column *out, mu_err *err) {
    const ty_column *part = ty_column_child(args[0].column, arr_op(call));
    ty_column *elements = ty_column_child_mut(out, 0);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        int rc = e > b ? ty_column_append_rows_from(elements, part, b, e - b, err) : 0;
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int arr_bind_map_part(exec_call *call, mu_arena *arena, mu_err *err) {
    bool values = arr_op(call) != 0; /* mapValues, else mapKeys */
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *m = call->arg_types[0];
    if (m->kind != TY_MAP)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Function %s requires at least one argument of type Map",
                      call->function->name);
    call->kernel = arr_map_part_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, values ? m->child2 : m->child, NULL,
                               &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* arrayCumSum, arrayCumSumNonNegative, arrayDifference                */
/* ------------------------------------------------------------------ */

typedef enum arr_running_op {
    ARR_CUM_SUM, ARR_CUM_SUM_NON_NEGATIVE, ARR_DIFFERENCE
} arr_running_op;

/* How the elements are read: the arithmetic ClickHouse does on them. */
typedef enum arr_running_class {
    ARR_RUN_UNSIGNED, ARR_RUN_SIGNED, ARR_RUN_FLOAT, ARR_RUN_DECIMAL
} arr_running_class;

typedef struct arr_running_state {
    arr_running_op op;
    arr_running_class cls;
    uint8_t precision; /* ARR_RUN_DECIMAL: of the elements (DateTime64: 18) */
} arr_running_state;

/* Running sums of one row's elements [b, e) into out[0, e - b): 64-bit
 * integers wrap, floats add in Float64, decimals in 128 bits. */
static void arr_cum_sum_row(const arr_running_state *s, const ty_column *elems,
                            const uint64_t *u, const double *f, uint32_t b, uint32_t e,
                            void *out) {
    bool non_negative = s->op == ARR_CUM_SUM_NON_NEGATIVE;
    uint64_t ua = 0;
    double fa = 0;
    __int128 da = 0;
    for (uint32_t j = b, k = 0; j < e; j++, k++) {
        switch (s->cls) {
        case ARR_RUN_UNSIGNED:
            ((uint64_t *)out)[k] = ua += u[j];
            break;
        case ARR_RUN_SIGNED:
            ua += u[j];
            if (non_negative && (int64_t)ua < 0) ua = 0;
            ((uint64_t *)out)[k] = ua;
            break;
        case ARR_RUN_FLOAT:
            fa += f[j];
            if (non_negative && fa < 0) fa = 0;
            ((double *)out)[k] = fa;
            break;
        case ARR_RUN_DECIMAL:
            da = (__int128)((unsigned __int128)da +
                            (unsigned __int128)arr_decimal_load(arr_fixed_ptr(elems, j),
                                                                s->precision));
            if (non_negative && da < 0) da = 0;
            memcpy((uint8_t *)out + (size_t)k * 16, &da, 16);
            break;
        }
    }
}

/* Differences of neighbours of one row (the first is 0) into out. A
 * decimal difference that leaves its storage width is an error, as in
 * ClickHouse; integers wrap in 64 bits. */
static int arr_difference_row(const arr_running_state *s, const ty_column *elems,
                              const uint64_t *u, const double *f, uint32_t b, uint32_t e,
                              void *out, mu_err *err) {
    unsigned width = arr_decimal_width(s->precision);
    for (uint32_t j = b, k = 0; j < e; j++, k++) {
        if (s->cls == ARR_RUN_FLOAT) {
            ((double *)out)[k] = j == b ? 0 : f[j] - f[j - 1];
            continue;
        }
        if (s->cls != ARR_RUN_DECIMAL) {
            ((uint64_t *)out)[k] = j == b ? 0 : u[j] - u[j - 1]; /* two's complement */
            continue;
        }
        __int128 d = 0;
        if (j > b) {
            __int128 cur = arr_decimal_load(arr_fixed_ptr(elems, j), s->precision);
            __int128 prev = arr_decimal_load(arr_fixed_ptr(elems, j - 1), s->precision);
            bool overflow = __builtin_sub_overflow(cur, prev, &d);
            if (width < 16) { /* the difference must fit the storage integer */
                __int128 low = -((__int128)1 << (8 * width - 1));
                overflow = d < low || d > -(low + 1);
            }
            if (overflow) return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal math overflow");
        }
        arr_decimal_store((uint8_t *)out + (size_t)k * width, s->precision, d);
    }
    return 0;
}

/* Loads every element of the argument's element column as 64-bit integers
 * (two's complement bits) or doubles, whichever the class reads. */
static int arr_running_load(const arr_running_state *s, const ty_column *elems, uint64_t **u,
                            double **f, mu_err *err) {
    uint32_t n = ty_column_row_count(elems);
    exec_arg all = {.column = elems, .is_const = false};
    *u = NULL;
    *f = NULL;
    if (s->cls == ARR_RUN_DECIMAL) return 0;
    if (s->cls == ARR_RUN_FLOAT) {
        *f = exec__scratch(n, sizeof(**f), err);
        if (*f == NULL) return err->code;
        exec__load_f64(&all, n, *f);
        return 0;
    }
    *u = exec__scratch(n, sizeof(**u), err);
    if (*u == NULL) return err->code;
    if (s->cls == ARR_RUN_SIGNED) exec__load_i64(&all, n, (int64_t *)(void *)*u);
    else exec__load_u64(&all, n, *u);
    return 0;
}

static int arr_running_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    const arr_running_state *s = call->state;
    const ty_column *elems = ty_column_child(args[0].column, 0);
    ty_column *out_elems = ty_column_child_mut(out, 0);
    uint32_t total, width = ty_type_value_bytes(out_elems->type);
    uint64_t *u = NULL;
    double *f = NULL;
    uint8_t *scratch = NULL, *at = NULL;
    uint32_t *lengths = exec__scratch(rows, sizeof(*lengths), err);
    int rc = lengths ? exec__arr_total_elements(&args[0], rows, &total, err) : err->code;
    if (rc == 0) rc = arr_running_load(s, elems, &u, &f, err);
    /* Integer differences are computed in 64 bits and narrowed on store. */
    bool narrow = s->op == ARR_DIFFERENCE && s->cls != ARR_RUN_DECIMAL && width != 8;
    if (rc == 0 && narrow) {
        scratch = exec__scratch(total, 8, err);
        if (scratch == NULL) rc = err->code;
    }
    if (rc == 0 && !narrow) rc = ty_column_append_fixed_uninit(out_elems, total, (void **)&at, err);
    uint8_t *to = narrow ? scratch : at;
    size_t step = narrow ? 8 : width;
    for (uint32_t r = 0, k = 0; r < rows && rc == 0; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        if (s->op == ARR_DIFFERENCE)
            rc = arr_difference_row(s, elems, u, f, b, e, to + (size_t)k * step, err);
        else arr_cum_sum_row(s, elems, u, f, b, e, to + (size_t)k * step);
        lengths[r] = e - b;
        k += e - b;
    }
    if (rc == 0 && narrow) rc = exec__store_i64(out_elems, (const int64_t *)(void *)scratch,
                                                total, err);
    if (rc == 0) rc = ty_column_append_nested_raw(out, lengths, rows, err);
    free(scratch);
    free(lengths);
    free(u);
    free(f);
    return rc;
}

/* The class of an element type and the result element ClickHouse gives
 * it: running sums widen to UInt64 / Int64 / Float64 / Decimal128,
 * differences to the next signed width (DateTime64 to Decimal64). */
static const ty_type *arr_running_result(arr_running_state *s, const ty_type *t,
                                         mu_arena *arena, mu_err *err) {
    bool is_uint = (exec_type_is_integer(t) && !exec_type_is_signed(t)) || t->kind == TY_BOOL;
    bool cum = s->op != ARR_DIFFERENCE;
    s->cls = exec_type_is_float(t) ? ARR_RUN_FLOAT : is_uint ? ARR_RUN_UNSIGNED : ARR_RUN_SIGNED;
    if (exec_type_is_float(t)) return ty_type_builtin(TY_FLOAT64);
    if (t->kind == TY_DECIMAL || (!cum && t->kind == TY_DATETIME64)) {
        ty_type *d = mu_arena_calloc(arena, 1, sizeof(*d), err);
        if (d == NULL) return NULL;
        s->cls = ARR_RUN_DECIMAL;
        s->precision = t->kind == TY_DECIMAL ? t->precision : 18;
        *d = (ty_type){.kind = TY_DECIMAL, .precision = cum ? 38 : s->precision,
                       .scale = t->kind == TY_DECIMAL ? t->scale : t->precision};
        return d;
    }
    if (cum && exec_type_is_integer(t)) return ty_type_builtin(is_uint ? TY_UINT64 : TY_INT64);
    if (cum && t->kind == TY_BOOL) return ty_type_builtin(TY_UINT64);
    if (cum) return NULL;
    switch (t->kind) {
    case TY_BOOL: case TY_UINT8: case TY_INT8: return ty_type_builtin(TY_INT16);
    case TY_UINT16: case TY_INT16: case TY_DATE: return ty_type_builtin(TY_INT32);
    case TY_UINT32: case TY_UINT64: case TY_INT32: case TY_INT64: case TY_DATE32:
    case TY_DATETIME:
        return ty_type_builtin(TY_INT64);
    default: return NULL;
    }
}

static int arr_bind_running(exec_call *call, mu_arena *arena, mu_err *err) {
    static const char *const what[] = {
        [ARR_CUM_SUM] = "arrayCumSum cannot add values of type",
        [ARR_CUM_SUM_NON_NEGATIVE] = "arrayCumSumNonNegativeImpl cannot add values of type",
        [ARR_DIFFERENCE] = "arrayDifference cannot process values of type",
    };
    int rc = exec__arr_bind_one_array(call, ARR_MSG_ONLY, err);
    if (rc != 0) return rc;
    arr_running_state *s = mu_arena_calloc(arena, 1, sizeof(*s), err);
    if (s == NULL) return err->code;
    s->op = (arr_running_op)arr_op(call);
    const ty_type *t = call->arg_types[0]->child;
    mu_err_clear(err);
    const ty_type *elem = arr_running_result(s, t, arena, err);
    if (elem == NULL && err->code != 0) return err->code;
    if (elem == NULL) {
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "%s %s", what[s->op],
                      ty_type_name(t, tn, sizeof(tn)));
    }
    call->state = s;
    call->kernel = arr_running_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, elem, NULL, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* mapConcat                                                           */
/* ------------------------------------------------------------------ */

/* The pairs of every map, in argument order; a key present in several maps
 * stays several times (the first is what m[key] finds), as ClickHouse's
 * arrayConcat over the maps' pairs. */
static int arr_map_concat_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    ty_column *keys = ty_column_child_mut(out, 0), *values = ty_column_child_mut(out, 1);
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t i = 0; i < call->arg_count; i++) {
            uint32_t b, e;
            arr_bounds(&args[i], r, &b, &e);
            int rc = exec__arr_convert_rows(keys, ty_column_child(args[i].column, 0), b, e - b,
                                            err);
            if (rc == 0)
                rc = exec__arr_convert_rows(values, ty_column_child(args[i].column, 1), b, e - b,
                                            err);
            if (rc != 0) return rc;
        }
        int rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* mapConcat(m1, m2, ...): Map(supertype of the keys, supertype of the values). */
static int arr_bind_map_concat(exec_call *call, mu_arena *arena, mu_err *err) {
    uint32_t n = call->arg_count, maps = 0;
    if (n == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s requires at least one argument",
                      call->function->name);
    for (uint32_t i = 0; i < n; i++) maps += call->arg_types[i]->kind == TY_MAP;
    if (maps == 0)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Function %s requires at least one argument of type Map",
                      call->function->name);
    const ty_type **keys = mu_arena_calloc(arena, n, sizeof(*keys), err);
    const ty_type **values = keys ? mu_arena_calloc(arena, n, sizeof(*values), err) : NULL;
    if (values == NULL) return err->code;
    for (uint32_t i = 0; i < n; i++) {
        const ty_type *t = call->arg_types[i];
        if (t->kind != TY_MAP) {
            char tn[128]; /* the maps' pairs go to arrayConcat, which words the error */
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Argument %u for function arrayConcat must be "
                          "an array but it has type %s.", i, ty_type_name(t, tn, sizeof(tn)));
        }
        keys[i] = t->child;
        values[i] = t->child2;
    }
    const ty_type *key, *value;
    int rc = exec__arr_supertype(keys, n, arena, &key, err);
    if (rc == 0) rc = exec__arr_supertype(values, n, arena, &value, err);
    if (rc != 0) return rc;
    call->kernel = arr_map_concat_kernel;
    return exec__arr_type_make(arena, TY_MAP, key, value, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* Functions listed in fn_array.c's exec__functions_array              */
/* ------------------------------------------------------------------ */

ARR_FN_SHARED(exec__arr_fn_range, "range", ARR_CUSTOM, arr_bind_range, 0);
ARR_FN_SHARED(exec__arr_fn_sum, "arraySum", 0, arr_bind_aggregate, ARR_SUM);
ARR_FN_SHARED(exec__arr_fn_avg, "arrayAvg", 0, arr_bind_aggregate, ARR_AVG);
ARR_FN_SHARED(exec__arr_fn_product, "arrayProduct", 0, arr_bind_aggregate, ARR_PRODUCT);
ARR_FN_SHARED(exec__arr_fn_min, "arrayMin", ARR_CUSTOM, arr_bind_min_max, 0);
ARR_FN_SHARED(exec__arr_fn_max, "arrayMax", ARR_CUSTOM, arr_bind_min_max, 1);
ARR_FN_SHARED(exec__arr_fn_cum_sum, "arrayCumSum", 0, arr_bind_running, ARR_CUM_SUM);
ARR_FN_SHARED(exec__arr_fn_cum_sum_non_negative, "arrayCumSumNonNegative", 0, arr_bind_running,
              ARR_CUM_SUM_NON_NEGATIVE);
ARR_FN_SHARED(exec__arr_fn_difference, "arrayDifference", 0, arr_bind_running, ARR_DIFFERENCE);
ARR_FN_SHARED(exec__arr_fn_string_concat, "arrayStringConcat", 0, arr_bind_string_concat, 0);
ARR_FN_SHARED(exec__arr_fn_map_keys, "mapKeys", 0, arr_bind_map_part, 0);
ARR_FN_SHARED(exec__arr_fn_map_values, "mapValues", 0, arr_bind_map_part, 1);
ARR_FN_SHARED(exec__arr_fn_map_concat, "mapConcat", 0, arr_bind_map_concat, 0);
