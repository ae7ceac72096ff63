/* fn_null.c: the functions about NULL, as ClickHouse defines them:
 * isNull, isNotNull, isZeroOrNull (UInt8), coalesce and ifNull (the first
 * non-NULL argument, in the least supertype; arguments after the first
 * non-Nullable one are never looked at, and the result is Nullable only if
 * the last one looked at is), nullIf (NULL where x = y), assumeNotNull (the
 * value under a NULL is the type's default) and toNullable. All see NULLs
 * themselves (EXEC_FN_NULLS_CUSTOM); conversions to the common type go
 * through fn_convert.c.
 */
#include "exec/exec_int.h"

#include <stdlib.h>
#include <string.h>

/* From fn_convert.c (see the comment there). */
int exec__convert_check(const ty_type *from, const ty_type *to, mu_err *err);
int exec__convert_into(const exec_call *call, const exec_arg *arg, uint32_t rows,
                       bool nulls_as_default, ty_column *out, mu_err *err);
int exec__convert_arg(const exec_call *call, const exec_arg *arg, uint32_t rows,
                      const ty_type *to, bool nulls_as_default, ty_column **out, mu_err *err);
int exec__pick_rows(ty_column *out, const ty_column *const *cols, const int32_t *pick,
                    uint32_t rows, mu_err *err);

static bool nl_is_nothing(const ty_type *t) { return exec_type_is_nothing(t); }

/* A non-NULL call->state marks the variant: isNull (not isNotNull),
 * assumeNotNull (not toNullable). */
static bool nl_variant = true;

/* ------------------------------------------------------------------ */
/* isNull, isNotNull, isZeroOrNull                                     */
/* ------------------------------------------------------------------ */

/* state: 1 for isNull, 0 for isNotNull (the value a NULL row gives). */
static int nl_is_null_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    uint8_t when_null = call->state != NULL;
    const exec_arg *a = &args[0];
    bool nothing = nl_is_nothing(call->arg_types[0]);
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    if (rc != 0) return rc;
    uint8_t *v = at;
    if (!a->column->nullable && !nothing) {
        memset(v, when_null ^ 1u, rows);
        return 0;
    }
    for (uint32_t r = 0; r < rows; r++) {
        bool is_null = nothing || exec_arg_is_null_row(a, r);
        v[r] = is_null ? when_null : (uint8_t)(when_null ^ 1u);
    }
    return 0;
}

static int nl_bind_is_null(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    call->state = strcmp(call->function->name, "isNull") == 0 ? &nl_variant : NULL;
    call->kernel = nl_is_null_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

static int nl_is_zero_or_null_kernel(const exec_call *call, const exec_arg *args,
                                     uint32_t rows, ty_column *out, mu_err *err) {
    const exec_arg *a = &args[0];
    bool nothing = nl_is_nothing(call->arg_types[0]);
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    if (rc != 0) return rc;
    uint8_t *v = at;
    if (nothing) {
        memset(v, 1, rows);
        return 0;
    }
    double *x = exec__scratch(rows, sizeof(double), err);
    if (x == NULL) return err->code;
    exec__load_f64(a, rows, x); /* a Decimal loads its scaled integer: zero stays zero */
    for (uint32_t r = 0; r < rows; r++) v[r] = exec_arg_is_null_row(a, r) || x[r] == 0;
    free(x);
    return 0;
}

static int nl_bind_is_zero_or_null(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = ty_type_strip_nullable(call->arg_types[0]);
    if (!exec_type_is_number(t) && t->kind != TY_NOTHING) return exec__error_arg_type(call, 0, err);
    call->kernel = nl_is_zero_or_null_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

/* ------------------------------------------------------------------ */
/* coalesce, ifNull                                                    */
/* ------------------------------------------------------------------ */

/* The arguments coalesce looks at and the type they are brought to. */
typedef struct nl_coalesce {
    uint32_t count;
    uint32_t *index;        /* argument numbers */
    const ty_type *common;  /* Nullable(T) (T for Array/Map), what arguments convert to */
} nl_coalesce;

static int nl_coalesce_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    const nl_coalesce *st = call->state;
    if (st->count == 0) { /* only NULL arguments */
        int rc = 0;
        for (uint32_t r = 0; r < rows && rc == 0; r++) rc = ty_column_append_null(out, err);
        return rc;
    }
    if (st->count == 1) return exec__convert_into(call, &args[st->index[0]], rows, false, out, err);
    ty_column **cols = calloc(st->count, sizeof(*cols));
    int32_t *pick = malloc((rows ? rows : 1) * sizeof(*pick));
    int rc = cols && pick ? 0 : MU_ERR(err, MU_ENOMEM, "out of memory in coalesce");
    for (uint32_t k = 0; k < st->count && rc == 0; k++)
        rc = exec__convert_arg(call, &args[st->index[k]], rows, st->common, false, &cols[k], err);
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        pick[r] = -1;
        for (uint32_t k = 0; k < st->count && pick[r] < 0; k++)
            if (!ty_column_is_null(cols[k], r)) pick[r] = (int32_t)k;
    }
    if (rc == 0) rc = exec__pick_rows(out, (const ty_column *const *)cols, pick, rows, err);
    for (uint32_t k = 0; cols && k < st->count; k++) ty_column_destroy(cols[k]);
    free(cols);
    free(pick);
    return rc;
}

/* ClickHouse's rule: NULL-only arguments are skipped, and nothing after
 * the first non-Nullable argument can matter. */
static int nl_bind_coalesce(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, UINT32_MAX, err);
    if (rc != 0) return rc;
    nl_coalesce *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    const ty_type **types = mu_arena_calloc(arena, call->arg_count, sizeof(*types), err);
    if (st == NULL || types == NULL) return err->code;
    st->index = mu_arena_calloc(arena, call->arg_count, sizeof(*st->index), err);
    if (st->index == NULL) return err->code;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const ty_type *t = call->arg_types[i];
        if (nl_is_nothing(t)) continue;
        types[st->count] = t;
        st->index[st->count++] = i;
        if (t->kind != TY_NULLABLE) break;
    }
    const ty_type *result;
    if (st->count == 0) {
        result = call->arg_types[0];
    } else {
        rc = exec_type_supertype(types, st->count, arena, &result, err);
        if (rc != 0) return rc;
        if (types[st->count - 1]->kind != TY_NULLABLE) result = ty_type_strip_nullable(result);
        rc = exec_type_make_nullable(ty_type_strip_nullable(result), arena, &st->common, err);
        for (uint32_t k = 0; k < st->count && rc == 0; k++)
            rc = exec__convert_check(types[k], result, err);
        if (rc != 0) return rc;
    }
    call->state = st;
    call->kernel = nl_coalesce_kernel;
    call->result_type = result;
    return 0;
}

static int nl_bind_if_null(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    return rc ? rc : nl_bind_coalesce(call, arena, err);
}

/* ------------------------------------------------------------------ */
/* nullIf                                                              */
/* ------------------------------------------------------------------ */

typedef struct nl_null_if {
    const ty_type *common; /* x and y compared in this type; NULL: y is NULL-only */
} nl_null_if;

static int nl_null_if_mark(const exec_call *call, const exec_arg *args, uint32_t rows,
                           uint8_t *valid, mu_err *err) {
    const nl_null_if *st = call->state;
    ty_column *x = NULL, *y = NULL;
    int rc = 0;
    if (st->common != NULL) {
        rc = exec__convert_arg(call, &args[0], rows, st->common, true, &x, err);
        if (rc == 0) rc = exec__convert_arg(call, &args[1], rows, st->common, true, &y, err);
    }
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        bool keep = !exec_arg_is_null_row(&args[0], r);
        if (keep && x != NULL && !exec_arg_is_null_row(&args[1], r))
            keep = !ty_column_equal_row(x, r, y, r);
        if (keep) valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    }
    ty_column_destroy(x);
    ty_column_destroy(y);
    return rc;
}

static int nl_null_if_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    if (nl_is_nothing(call->arg_types[0])) {
        int rc = 0;
        for (uint32_t r = 0; r < rows && rc == 0; r++) rc = ty_column_append_null(out, err);
        return rc;
    }
    size_t bitmap_bytes = ((size_t)rows + 7) / 8;
    uint8_t *valid = calloc(bitmap_bytes ? bitmap_bytes : 1, 1);
    ty_column *inner = NULL;
    int rc = valid ? 0 : MU_ERR(err, MU_ENOMEM, "out of memory in nullIf");
    if (rc == 0) rc = nl_null_if_mark(call, args, rows, valid, err);
    if (rc == 0)
        rc = exec__convert_arg(call, &args[0], rows, out->type->child, true, &inner, err);
    if (rc == 0) rc = ty_column_make_nullable(inner, out->type, valid, err);
    if (rc == 0) rc = ty_column_append_rows_from(out, inner, 0, rows, err);
    ty_column_destroy(inner);
    free(valid);
    return rc;
}

static int nl_not_in_nullable(const exec_call *call, const ty_type *t, mu_err *err) {
    char name[128];
    (void)call;
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Nested type %s cannot be inside Nullable type",
                  ty_type_name(t, name, sizeof(name)));
}

static int nl_bind_null_if(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    nl_null_if *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    const ty_type *x = ty_type_strip_nullable(call->arg_types[0]);
    const ty_type *y = ty_type_strip_nullable(call->arg_types[1]);
    if (x->kind == TY_ARRAY || x->kind == TY_MAP) return nl_not_in_nullable(call, x, err);
    if (x->kind != TY_NOTHING && y->kind != TY_NOTHING) {
        const ty_type *pair[2] = {x, y};
        rc = exec_type_supertype(pair, 2, arena, &st->common, err);
        if (rc != 0) return rc;
    }
    rc = exec_type_make_nullable(x, arena, &call->result_type, err);
    if (rc != 0) return rc;
    call->state = st;
    call->kernel = nl_null_if_kernel;
    return 0;
}

/* ------------------------------------------------------------------ */
/* assumeNotNull, toNullable                                           */
/* ------------------------------------------------------------------ */

/* state: non-NULL for assumeNotNull (NULL rows become the default). */
static int nl_convert_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    return exec__convert_into(call, &args[0], rows, call->state != NULL, out, err);
}

static int nl_bind_assume_not_null(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    call->state = &nl_variant;
    call->kernel = nl_convert_kernel;
    call->result_type = ty_type_strip_nullable(call->arg_types[0]);
    return 0;
}

static int nl_bind_to_nullable(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    call->state = NULL;
    call->kernel = nl_convert_kernel;
    return exec_type_make_nullable(call->arg_types[0], arena, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* Registry                                                            */
/* ------------------------------------------------------------------ */

#define NL_CUSTOM EXEC_FN_NULLS_CUSTOM
#define NL_CUSTOM_CI (EXEC_FN_NULLS_CUSTOM | EXEC_FN_CASE_INSENSITIVE)

static const exec_function nl_fn_is_null = {"isNull", NL_CUSTOM_CI, nl_bind_is_null};
static const exec_function nl_fn_is_not_null = {"isNotNull", NL_CUSTOM, nl_bind_is_null};
static const exec_function nl_fn_is_zero_or_null = {"isZeroOrNull", NL_CUSTOM,
                                                    nl_bind_is_zero_or_null};
static const exec_function nl_fn_coalesce = {"coalesce", NL_CUSTOM_CI, nl_bind_coalesce};
static const exec_function nl_fn_if_null = {"ifNull", NL_CUSTOM_CI, nl_bind_if_null};
static const exec_function nl_fn_null_if = {"nullIf", NL_CUSTOM_CI, nl_bind_null_if};
static const exec_function nl_fn_assume_not_null = {"assumeNotNull", NL_CUSTOM,
                                                    nl_bind_assume_not_null};
static const exec_function nl_fn_to_nullable = {"toNullable", NL_CUSTOM, nl_bind_to_nullable};

const exec_function *const exec__functions_null[] = {
    &nl_fn_is_null,  &nl_fn_is_not_null,     &nl_fn_is_zero_or_null, &nl_fn_coalesce,
    &nl_fn_if_null,  &nl_fn_null_if,         &nl_fn_assume_not_null, &nl_fn_to_nullable,
    NULL,
};
