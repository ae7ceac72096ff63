/* lambda.c: ClickHouse's higher-order array functions (FunctionArrayMapped)
 * over a lambda body. The call is an ordinary EXEC_EXPR_CALL whose
 * arguments are the arrays followed by the captured outer expressions; its
 * state holds the body, which the kernel evaluates once per block over
 * every element (captures repeated per element). The results are then
 * folded back into rows: kept as arrays (arrayMap), used to pick, order,
 * split or fill the first array's elements (arrayFilter, arrayFirst,
 * arraySort, arrayCompact, arraySplit, arrayFill, ...), or handed as an array to the
 * plain form of the function (arraySum(f, a) is arraySum over f's results,
 * likewise arrayCount, arrayMin, arrayCumSum, ...), as ClickHouse does.
 * Functions that test the lambda take a UInt8 result (NULL counts as 0).
 * This file also registers the lambda-only names and the one-array forms of
 * arrayCount, arrayExists and arrayAll.
 */
#include "exec/fn_array_int.h"

#include <stdlib.h>
#include <string.h>

typedef enum lambda_op {
    LAMBDA_MAP,         /* the results as arrays */
    LAMBDA_PLAIN,       /* the plain function over the results */
    LAMBDA_FILTER,
    LAMBDA_COMPACT,     /* consecutive equal results keep their first element */
    LAMBDA_FIRST,       /* arrayFirst, arrayFirstOrNull */
    LAMBDA_LAST,        /* arrayLast, arrayLastOrNull */
    LAMBDA_FIRST_INDEX,
    LAMBDA_LAST_INDEX,
    LAMBDA_SORT,
    LAMBDA_REVERSE_SORT,
    LAMBDA_SPLIT,
    LAMBDA_REVERSE_SPLIT,
    LAMBDA_FILL,
    LAMBDA_REVERSE_FILL,
} lambda_op;

typedef struct lambda_spec {
    const char *name;
    lambda_op op;
    bool boolean; /* ClickHouse's needBoolean: the lambda returns UInt8 */
    bool or_null; /* no element found: NULL */
} lambda_spec;

static const lambda_spec lambda_specs[] = {
    {"arrayMap", LAMBDA_MAP, false, false},
    {"arrayFilter", LAMBDA_FILTER, true, false},
    {"arrayExists", LAMBDA_PLAIN, true, false},
    {"arrayAll", LAMBDA_PLAIN, true, false},
    {"arrayCount", LAMBDA_PLAIN, true, false},
    {"arrayFirst", LAMBDA_FIRST, true, false},
    {"arrayFirstOrNull", LAMBDA_FIRST, true, true},
    {"arrayLast", LAMBDA_LAST, true, false},
    {"arrayLastOrNull", LAMBDA_LAST, true, true},
    {"arrayFirstIndex", LAMBDA_FIRST_INDEX, true, false},
    {"arrayLastIndex", LAMBDA_LAST_INDEX, true, false},
    {"arraySum", LAMBDA_PLAIN, false, false},
    {"arrayAvg", LAMBDA_PLAIN, false, false},
    {"arrayProduct", LAMBDA_PLAIN, false, false},
    {"arrayMin", LAMBDA_PLAIN, false, false},
    {"arrayMax", LAMBDA_PLAIN, false, false},
    {"arrayCumSum", LAMBDA_PLAIN, false, false},
    {"arrayCumSumNonNegative", LAMBDA_PLAIN, false, false},
    {"arrayDifference", LAMBDA_PLAIN, false, false},
    {"arraySort", LAMBDA_SORT, false, false},
    {"arrayReverseSort", LAMBDA_REVERSE_SORT, false, false},
    {"arrayCompact", LAMBDA_COMPACT, false, false},
    {"arraySplit", LAMBDA_SPLIT, true, false},
    {"arrayReverseSplit", LAMBDA_REVERSE_SPLIT, true, false},
    {"arrayFill", LAMBDA_FILL, true, false},
    {"arrayReverseFill", LAMBDA_REVERSE_FILL, true, false},
};

#define LAMBDA_SPEC_COUNT (sizeof(lambda_specs) / sizeof(lambda_specs[0]))

typedef struct lambda_state {
    const lambda_spec *spec;
    const exec_expr *body;
    uint32_t param_count;
    const ty_type *mapped_type; /* LAMBDA_PLAIN: Array(result of the lambda) */
    exec_call inner;            /* LAMBDA_PLAIN: the plain function bound to it */
} lambda_state;

static const lambda_spec *lambda_find(const char *name) {
    for (size_t i = 0; i < LAMBDA_SPEC_COUNT; i++)
        if (strcmp(lambda_specs[i].name, name) == 0) return &lambda_specs[i];
    return NULL;
}

bool exec_function_takes_lambda(const char *name) {
    return lambda_find(name) != NULL;
}

/* ------------------------------------------------------------------ */
/* The forms without a lambda                                          */
/* ------------------------------------------------------------------ */

/* Functions that need a lambda (ClickHouse's needExpression). */
static int lambda_bind_needs_lambda(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    if (call->arg_count < 2)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s needs at least 2 arguments, "
                      "passed %u", call->function->name, call->arg_count);
    char tn[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "First argument for function %s must be a function. "
                  "Actual %s", call->function->name,
                  ty_type_name(call->arg_types[0], tn, sizeof(tn)));
}

typedef enum lambda_test_op {
    LAMBDA_TEST_COUNT, LAMBDA_TEST_EXISTS, LAMBDA_TEST_ALL
} lambda_test_op;

/* arrayCount / arrayExists / arrayAll over an Array(UInt8) (the lambda's
 * results, or the argument itself): UInt32 count, or UInt8. */
static int lambda_test_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    lambda_test_op op = (lambda_test_op)arr_op(call);
    const uint8_t *v = ty_column_values(ty_column_child(args[0].column, 0));
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e, count = 0;
        arr_bounds(&args[0], r, &b, &e);
        for (uint32_t j = b; j < e; j++) count += v[j] != 0;
        if (op == LAMBDA_TEST_COUNT) ((uint32_t *)at)[r] = count;
        else if (op == LAMBDA_TEST_EXISTS) ((uint8_t *)at)[r] = count > 0;
        else ((uint8_t *)at)[r] = count == e - b;
    }
    return 0;
}

static int lambda_bind_test(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    char tn[128];
    if (call->arg_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s needs at least 1 argument, "
                      "passed 0", call->function->name);
    if (call->arg_count > 1)
        return lambda_bind_needs_lambda(call, arena, err);
    const ty_type *a = call->arg_types[0];
    if (a->kind != TY_ARRAY)
        return exec__arr_error_not_array(call, 0, ARR_MSG_ONLY, err);
    if (a->child->kind != TY_UINT8 && a->child->kind != TY_BOOL)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "The 1st and only argument for function %s must "
                      "be array of UInt8. Found %s instead", call->function->name,
                      ty_type_name(a, tn, sizeof(tn)));
    call->kernel = lambda_test_kernel;
    call->result_type =
        ty_type_builtin(arr_op(call) == LAMBDA_TEST_COUNT ? TY_UINT32 : TY_UINT8);
    return 0;
}

ARR_FN(lambda_fn_map, "arrayMap", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_filter, "arrayFilter", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_exists, "arrayExists", 0, lambda_bind_test, LAMBDA_TEST_EXISTS);
ARR_FN(lambda_fn_all, "arrayAll", 0, lambda_bind_test, LAMBDA_TEST_ALL);
ARR_FN(lambda_fn_count, "arrayCount", 0, lambda_bind_test, LAMBDA_TEST_COUNT);
ARR_FN(lambda_fn_first, "arrayFirst", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_first_or_null, "arrayFirstOrNull", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_last, "arrayLast", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_last_or_null, "arrayLastOrNull", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_first_index, "arrayFirstIndex", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_last_index, "arrayLastIndex", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_split, "arraySplit", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_reverse_split, "arrayReverseSplit", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_fill, "arrayFill", 0, lambda_bind_needs_lambda, 0);
ARR_FN(lambda_fn_reverse_fill, "arrayReverseFill", 0, lambda_bind_needs_lambda, 0);

const exec_function *const exec__functions_lambda[] = {
    &lambda_fn_map.fn,        &lambda_fn_filter.fn,        &lambda_fn_exists.fn,
    &lambda_fn_all.fn,        &lambda_fn_count.fn,         &lambda_fn_first.fn,
    &lambda_fn_first_or_null.fn, &lambda_fn_last.fn,       &lambda_fn_last_or_null.fn,
    &lambda_fn_first_index.fn, &lambda_fn_last_index.fn,   &lambda_fn_split.fn,
    &lambda_fn_reverse_split.fn, &lambda_fn_fill.fn,       &lambda_fn_reverse_fill.fn,
    NULL,
};

/* ------------------------------------------------------------------ */
/* Evaluating the body over every element                              */
/* ------------------------------------------------------------------ */

/* One block's elements: the body's inputs in row order and its results. */
typedef struct lambda_run {
    uint32_t rows;
    uint32_t total;          /* elements over all rows */
    uint32_t *lengths;       /* elements of each row */
    uint32_t input_count;
    const ty_column **inputs; /* parameters (elements), then captures */
    ty_column **owned;
    ty_column *res;          /* the body over every element */
    uint8_t *flags;          /* boolean functions: res true (not 0, not NULL) */
} lambda_run;

static void lambda_run_deinit(lambda_run *run) {
    for (uint32_t i = 0; run->owned && i < run->input_count; i++) ty_column_destroy(run->owned[i]);
    free(run->owned);
    free(run->inputs);
    free(run->lengths);
    free(run->flags);
    ty_column_destroy(run->res);
    memset(run, 0, sizeof(*run));
}

/* Row lengths from the first array; every array of a row has as many. */
static int lambda_lengths(const exec_call *call, uint32_t np, const exec_arg *args,
                          lambda_run *run, mu_err *err) {
    uint64_t total = 0;
    run->lengths = exec__scratch(run->rows, sizeof(*run->lengths), err);
    if (run->lengths == NULL) return err->code;
    for (uint32_t r = 0; r < run->rows; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        for (uint32_t p = 1; p < np; p++) {
            uint32_t pb, pe;
            arr_bounds(&args[p], r, &pb, &pe);
            if (pe - pb != e - b)
                return MU_ERR(err, MU_EARRAY_SIZES, "Arrays passed to %s must have equal size. "
                              "Argument %u has size %u which differs with the size of another "
                              "argument, %u", call->function->name, p + 2, pe - pb, e - b);
        }
        run->lengths[r] = e - b;
        total += e - b;
    }
    if (total > TY_COLUMN_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "%s over more than %u elements", call->function->name,
                      TY_COLUMN_ROWS_MAX);
    run->total = (uint32_t)total;
    return 0;
}

/* Input i of the body: rows idx[0..total) of src, gathered. */
static int lambda_input_gather(lambda_run *run, uint32_t i, const ty_column *src,
                               const uint32_t *idx, mu_err *err) {
    int rc = ty_column_create(src->type, NULL, &run->owned[i], err);
    if (rc == 0) rc = ty_column_append_gather(run->owned[i], src, idx, run->total, err);
    run->inputs[i] = run->owned[i];
    return rc;
}

/* The elements of array parameter p, in row order (a constant array is
 * repeated per row); the elements column itself when it already is that. */
static int lambda_param_input(lambda_run *run, uint32_t p, const exec_arg *a, uint32_t *idx,
                              mu_err *err) {
    const ty_column *elems = ty_column_child(a->column, 0);
    const uint32_t *o = ty_column_offsets(a->column);
    if (!a->is_const && o[0] == 0 && o[run->rows] == run->total &&
        ty_column_row_count(elems) == run->total) {
        run->inputs[p] = elems;
        return 0;
    }
    uint32_t n = 0;
    for (uint32_t r = 0; r < run->rows; r++) {
        uint32_t b, e;
        arr_bounds(a, r, &b, &e);
        for (uint32_t j = b; j < e; j++) idx[n++] = j;
    }
    MU_ASSERT(n == run->total);
    return lambda_input_gather(run, p, elems, idx, err);
}

/* Captures: each row's value once per element of the row. */
static int lambda_capture_input(lambda_run *run, uint32_t i, const exec_arg *a, uint32_t *idx,
                                mu_err *err) {
    uint32_t n = 0;
    for (uint32_t r = 0; r < run->rows; r++)
        for (uint32_t k = 0; k < run->lengths[r]; k++) idx[n++] = exec_arg_row(a, r);
    MU_ASSERT(n == run->total);
    return lambda_input_gather(run, i, a->column, idx, err);
}

/* Evaluates the body over every element of the block. */
static int lambda_evaluate(const exec_call *call, const exec_arg *args, uint32_t rows,
                           lambda_run *run, mu_err *err) {
    const lambda_state *st = call->state;
    uint32_t np = st->param_count;
    memset(run, 0, sizeof(*run));
    run->rows = rows;
    run->input_count = call->arg_count;
    int rc = lambda_lengths(call, np, args, run, err);
    if (rc != 0) return rc;
    run->inputs = calloc(run->input_count + 1, sizeof(*run->inputs));
    run->owned = calloc(run->input_count + 1, sizeof(*run->owned));
    uint32_t *idx = exec__scratch(run->total, sizeof(*idx), err);
    if (run->inputs == NULL || run->owned == NULL || idx == NULL) {
        free(idx);
        return idx ? MU_ERR(err, MU_ENOMEM, "out of memory in %s", call->function->name)
                   : err->code;
    }
    for (uint32_t i = 0; i < run->input_count && rc == 0; i++)
        rc = i < np ? lambda_param_input(run, i, &args[i], idx, err)
                    : lambda_capture_input(run, i, &args[i], idx, err);
    free(idx);
    if (rc == 0)
        rc = exec_eval_full(st->body, call->ctx, run->inputs, run->total, &run->res, err);
    if (rc != 0 || !st->spec->boolean) return rc;
    /* The lambda returns UInt8, Bool, Nullable of them or Nothing (bind). */
    run->flags = exec__scratch(run->total, 1, err);
    if (run->flags == NULL) return err->code;
    bool nothing = exec_type_is_nothing(run->res->type);
    const uint8_t *v = ty_column_values(run->res);
    for (uint32_t k = 0; k < run->total; k++)
        run->flags[k] = !nothing && v[k] != 0 && !ty_column_is_null(run->res, k);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Folding the results into rows                                       */
/* ------------------------------------------------------------------ */

/* Appends rows idx[0..n) of the first array's elements (src) to dst, whose
 * type may differ from src's by LowCardinality or Nullable. */
static int lambda_emit(ty_column *dst, const ty_column *src, const uint32_t *idx, uint32_t n,
                       mu_err *err) {
    if (n == 0) return 0;
    if (ty_type_equal(dst->type, src->type)) return ty_column_append_gather(dst, src, idx, n, err);
    for (uint32_t i = 0; i < n; i++) {
        int rc = exec__arr_convert_rows(dst, src, idx[i], 1, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* arraySum(f, a) and the like: the plain function over Array(f's results). */
static int lambda_finish_plain(const lambda_state *st, lambda_run *run, ty_column *out,
                               mu_err *err) {
    ty_column *mapped;
    int rc = ty_column_create(st->mapped_type, NULL, &mapped, err);
    if (rc != 0) return rc;
    ty_column *elems = ty_column_child_mut(mapped, 0);
    if (run->flags) {
        void *at;
        rc = ty_column_append_fixed_uninit(elems, run->total, &at, err);
        if (rc == 0) memcpy(at, run->flags, run->total);
    } else {
        rc = ty_column_append_rows_from(elems, run->res, 0, run->total, err);
    }
    if (rc == 0) rc = ty_column_append_nested_raw(mapped, run->lengths, run->rows, err);
    exec_arg arg = {.column = mapped, .is_const = false};
    if (rc == 0) rc = st->inner.kernel(&st->inner, &arg, run->rows, out, err);
    ty_column_destroy(mapped);
    return rc;
}

/* arrayFilter, arrayCompact, arrayFill, arraySort and the reverse forms: a
 * permutation or selection of each row's elements. */
static int lambda_finish_pick(lambda_op op, lambda_run *run, ty_column *out, mu_err *err) {
    uint32_t *idx = exec__scratch(run->total, sizeof(*idx), err);
    uint32_t *tmp = idx ? exec__scratch(run->total, sizeof(*tmp), err) : NULL;
    uint32_t *counts = tmp ? exec__scratch(run->rows, sizeof(*counts), err) : NULL;
    int rc = counts ? 0 : err->code;
    uint32_t n = 0;
    for (uint32_t r = 0, b = 0; r < run->rows && rc == 0; b += run->lengths[r++]) {
        uint32_t e = b + run->lengths[r], start = n;
        for (uint32_t k = b; k < e; k++) {
            if (op == LAMBDA_FILTER && !run->flags[k]) continue;
            if (op == LAMBDA_COMPACT && k > b && ty_column_equal_row(run->res, k, run->res, k - 1))
                continue;
            if (op == LAMBDA_FILL)
                idx[n] = run->flags[k] || k == b ? k : idx[n - 1];
            else idx[n] = k;
            n++;
        }
        for (uint32_t k = e; op == LAMBDA_REVERSE_FILL && k > b; k--)
            idx[k - 1] = run->flags[k - 1] || k == e ? k - 1 : idx[k];
        if (op == LAMBDA_SORT || op == LAMBDA_REVERSE_SORT)
            exec__arr_sort(idx + start, tmp, n - start, run->res, op == LAMBDA_REVERSE_SORT);
        counts[r] = n - start;
    }
    if (rc == 0) rc = lambda_emit(ty_column_child_mut(out, 0), run->inputs[0], idx, n, err);
    if (rc == 0) rc = ty_column_append_nested_raw(out, counts, run->rows, err);
    free(counts);
    free(tmp);
    free(idx);
    return rc;
}

/* arrayFirst, arrayLast (OrNull) and their Index forms. */
static int lambda_finish_find(lambda_op op, lambda_run *run, ty_column *out, mu_err *err) {
    bool index = op == LAMBDA_FIRST_INDEX || op == LAMBDA_LAST_INDEX;
    bool last = op == LAMBDA_LAST || op == LAMBDA_LAST_INDEX;
    uint32_t *positions = NULL;
    int rc = 0;
    if (index) rc = ty_column_append_fixed_uninit(out, run->rows, (void **)&positions, err);
    for (uint32_t r = 0, b = 0; r < run->rows && rc == 0; b += run->lengths[r++]) {
        uint32_t len = run->lengths[r], found = UINT32_MAX;
        for (uint32_t i = 0; i < len && found == UINT32_MAX; i++) {
            uint32_t k = last ? b + len - 1 - i : b + i;
            if (run->flags[k]) found = k;
        }
        if (index) positions[r] = found == UINT32_MAX ? 0 : found - b + 1;
        else if (found == UINT32_MAX) rc = ty_column_append_default(out, err);
        else rc = lambda_emit(out, run->inputs[0], &found, 1, err);
    }
    return rc;
}

/* arraySplit: a new piece starts at each true element but the first;
 * arrayReverseSplit: a piece ends after each true element but the last. */
static int lambda_finish_split(lambda_op op, lambda_run *run, ty_column *out, mu_err *err) {
    bool reverse = op == LAMBDA_REVERSE_SPLIT;
    uint32_t *idx = exec__scratch(run->total, sizeof(*idx), err);
    uint32_t *pieces = idx ? exec__scratch(run->total, sizeof(*pieces), err) : NULL;
    uint32_t *counts = pieces ? exec__scratch(run->rows, sizeof(*counts), err) : NULL;
    int rc = counts ? 0 : err->code;
    uint32_t piece_count = 0;
    for (uint32_t k = 0; rc == 0 && k < run->total; k++) idx[k] = k;
    for (uint32_t r = 0, b = 0; r < run->rows && rc == 0; b += run->lengths[r++]) {
        uint32_t e = b + run->lengths[r], before = piece_count, start = b;
        for (uint32_t k = b; k < e; k++) {
            bool cut_before = !reverse && k > b && run->flags[k];
            bool cut_after = reverse && k + 1 < e && run->flags[k];
            if (cut_before) {
                pieces[piece_count++] = k - start;
                start = k;
            }
            if (cut_after) {
                pieces[piece_count++] = k + 1 - start;
                start = k + 1;
            }
        }
        if (e > b) pieces[piece_count++] = e - start;
        counts[r] = piece_count - before;
    }
    ty_column *inner = ty_column_child_mut(out, 0);
    if (rc == 0)
        rc = lambda_emit(ty_column_child_mut(inner, 0), run->inputs[0], idx, run->total, err);
    if (rc == 0) rc = ty_column_append_nested_raw(inner, pieces, piece_count, err);
    if (rc == 0) rc = ty_column_append_nested_raw(out, counts, run->rows, err);
    free(counts);
    free(pieces);
    free(idx);
    return rc;
}

static int lambda_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    const lambda_state *st = call->state;
    lambda_run run;
    int rc = lambda_evaluate(call, args, rows, &run, err);
    lambda_op op = st->spec->op;
    if (rc != 0) {
        /* nothing to fold */
    } else if (op == LAMBDA_MAP) {
        rc = ty_column_append_rows_from(ty_column_child_mut(out, 0), run.res, 0, run.total, err);
        if (rc == 0) rc = ty_column_append_nested_raw(out, run.lengths, rows, err);
    } else if (op == LAMBDA_PLAIN) {
        rc = lambda_finish_plain(st, &run, out, err);
    } else if (op == LAMBDA_FIRST || op == LAMBDA_LAST || op == LAMBDA_FIRST_INDEX ||
               op == LAMBDA_LAST_INDEX) {
        rc = lambda_finish_find(op, &run, out, err);
    } else if (op == LAMBDA_SPLIT || op == LAMBDA_REVERSE_SPLIT) {
        rc = lambda_finish_split(op, &run, out, err);
    } else {
        rc = lambda_finish_pick(op, &run, out, err);
    }
    lambda_run_deinit(&run);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Binding                                                             */
/* ------------------------------------------------------------------ */

/* The plain function bound to Array(the lambda's result type). */
static int lambda_bind_plain(exec_builder *b, lambda_state *st, const exec_function *fn,
                             const ty_type *body_type, mu_err *err) {
    const ty_type *elem = st->spec->boolean ? ty_type_builtin(TY_UINT8) : body_type;
    const ty_type **types = mu_arena_calloc(b->arena, 1, sizeof(*types), err);
    const ty_column **consts = types ? mu_arena_calloc(b->arena, 1, sizeof(*consts), err) : NULL;
    if (consts == NULL) return err->code;
    int rc = exec__arr_type_make(b->arena, TY_ARRAY, elem, NULL, &st->mapped_type, err);
    if (rc != 0) return rc;
    types[0] = st->mapped_type;
    st->inner = (exec_call){.function = fn, .ctx = b->ctx, .arg_count = 1, .arg_types = types,
                            .arg_consts = consts};
    rc = fn->bind(&st->inner, b->arena, err);
    MU_ASSERT(rc != 0 || (st->inner.kernel != NULL && st->inner.result_type != NULL));
    return rc;
}

/* The result type of the call (and the plain function it delegates to). */
static int lambda_result_type(exec_builder *b, lambda_state *st, const exec_function *fn,
                              const ty_type *first, const ty_type **out, mu_err *err) {
    const ty_type *elem = arr_strip_lc(first->child);
    int rc = 0;
    switch (st->spec->op) {
    case LAMBDA_MAP:
        return exec__arr_type_make(b->arena, TY_ARRAY, st->body->type, NULL, out, err);
    case LAMBDA_PLAIN:
        rc = lambda_bind_plain(b, st, fn, st->body->type, err);
        *out = st->inner.result_type;
        return rc;
    case LAMBDA_FIRST:
    case LAMBDA_LAST:
        *out = elem;
        return st->spec->or_null ? exec_type_make_nullable(elem, b->arena, out, err) : 0;
    case LAMBDA_FIRST_INDEX:
    case LAMBDA_LAST_INDEX:
        *out = ty_type_builtin(TY_UINT32);
        return 0;
    case LAMBDA_SPLIT:
    case LAMBDA_REVERSE_SPLIT:
        rc = exec__arr_type_make(b->arena, TY_ARRAY, elem, NULL, &elem, err);
        return rc != 0 ? rc : exec__arr_type_make(b->arena, TY_ARRAY, elem, NULL, out, err);
    case LAMBDA_FILTER:
    case LAMBDA_COMPACT:
    case LAMBDA_SORT:
    case LAMBDA_REVERSE_SORT:
    case LAMBDA_FILL:
    case LAMBDA_REVERSE_FILL:
        break;
    }
    return exec__arr_type_make(b->arena, TY_ARRAY, elem, NULL, out, err);
}

static int lambda_check(const lambda_spec *spec, const exec_expr *body, uint32_t param_count,
                        exec_expr **arrays, mu_err *err) {
    char tn[128];
    if (param_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s needs at least 2 arguments, "
                      "passed 1", spec->name);
    for (uint32_t p = 0; p < param_count; p++)
        if (arrays[p]->type->kind != TY_ARRAY)
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Argument %u of function %s must be Array. "
                          "Found %s instead", p + 2, spec->name,
                          ty_type_name(arrays[p]->type, tn, sizeof(tn)));
    const ty_type *bt = ty_type_strip_nullable(body->type);
    if (spec->boolean && bt->kind != TY_UINT8 && bt->kind != TY_BOOL && bt->kind != TY_NOTHING)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Expression for function %s must return UInt8 or "
                      "Nullable(UInt8), found %s", spec->name,
                      ty_type_name(body->type, tn, sizeof(tn)));
    return 0;
}

int exec_expr_call_lambda(exec_builder *b, const char *name, exec_expr *body,
                          uint32_t param_count, exec_expr **arrays, exec_expr **captures,
                          uint32_t capture_count, exec_expr **out, mu_err *err) {
    const lambda_spec *spec = lambda_find(name);
    const exec_function *fn = exec_function_find(name, strlen(name));
    if (spec == NULL || fn == NULL)
        return MU_ERR(err, MU_EUNKNOWN_FUNCTION, "Unknown function %s", name);
    int rc = lambda_check(spec, body, param_count, arrays, err);
    if (rc != 0) return rc;
    uint32_t n = param_count + capture_count;
    exec_expr **args = mu_arena_calloc(b->arena, n, sizeof(*args), err);
    const ty_type **types = args ? mu_arena_calloc(b->arena, n, sizeof(*types), err) : NULL;
    const ty_column **consts = types ? mu_arena_calloc(b->arena, n, sizeof(*consts), err) : NULL;
    lambda_state *st = consts ? mu_arena_calloc(b->arena, 1, sizeof(*st), err) : NULL;
    exec_expr *e = st ? mu_arena_calloc(b->arena, 1, sizeof(*e), err) : NULL;
    if (e == NULL) return err->code;
    bool all_const = true;
    for (uint32_t i = 0; i < n; i++) {
        args[i] = i < param_count ? arrays[i] : captures[i - param_count];
        types[i] = args[i]->type;
        consts[i] = args[i]->kind == EXEC_EXPR_CONST ? args[i]->constant : NULL;
        all_const = all_const && args[i]->kind == EXEC_EXPR_CONST;
    }
    *st = (lambda_state){.spec = spec, .body = body, .param_count = param_count};
    const ty_type *result;
    rc = lambda_result_type(b, st, fn, arrays[0]->type, &result, err);
    if (rc != 0) return rc;
    *e = (exec_expr){.kind = EXEC_EXPR_CALL, .type = result, .args = args, .arg_count = n};
    e->call = (exec_call){.function = fn, .ctx = b->ctx, .arg_count = n, .arg_types = types,
                          .arg_consts = consts, .kernel = lambda_kernel, .result_type = result,
                          .state = st};
    if (!all_const) {
        *out = e;
        return 0;
    }
    /* Constant arrays and captures: the whole call is a constant. */
    ty_column *folded;
    rc = exec_eval_full(e, b->ctx, NULL, 1, &folded, err);
    return rc != 0 ? rc : exec_expr_const_take(b, folded, out, err);
}
