/* fn_math.c: mathematical functions with ClickHouse's names, result types
 * and rounding rules: round/roundBankers/floor/ceil/trunc(x[, N]) keep the
 * argument's type (floats round half to even through nearbyint, integers
 * and Decimals half away from zero, roundBankers half to even); the libm
 * family (sqrt, exp, log, sin, ...) returns Float64, except exp, log and
 * tanh, which keep Float32 as ClickHouse's vectorised versions do; pow,
 * atan2, hypot, pi(), e() are Float64; sign is Int8; isFinite/isInfinite/
 * isNaN are UInt8; intExp2/intExp10 are UInt64; greatest/least pick among
 * their arguments converted to the least supertype, ignoring NULLs (and
 * NaN) unless every argument is one; roundToExp2 keeps the argument's
 * type; roundDown(x, [bounds]) answers in the least supertype of x and
 * the bounds.
 */
#include "exec/exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* From fn_convert.c (see the comment there). */
int exec__convert_check(const ty_type *from, const ty_type *to, mu_err *err);
int exec__convert_arg(const exec_call *call, const exec_arg *arg, uint32_t rows,
                      const ty_type *to, bool nulls_as_default, ty_column **out, mu_err *err);
int exec__pick_rows(ty_column *out, const ty_column *const *cols, const int32_t *pick,
                    uint32_t rows, mu_err *err);

/* Loads argument i as doubles; a Decimal as its value, not its scaled
 * integer. */
static void mt_load_value(const exec_call *call, uint32_t i, const exec_arg *a, uint32_t rows,
                          double *out) {
    exec__load_f64(a, rows, out);
    const ty_type *t = ty_type_strip_nullable(call->arg_types[i]);
    if (t->kind != TY_DECIMAL) return;
    double unit = (double)ty_decimal_pow10(t->scale);
    for (uint32_t r = 0; r < rows; r++) out[r] /= unit;
}

static int mt_check_numbers(const exec_call *call, mu_err *err) {
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (!exec_type_is_number(call->arg_types[i])) return exec__error_arg_type(call, i, err);
    return 0;
}

/* ------------------------------------------------------------------ */
/* libm functions of one and two arguments, constants                  */
/* ------------------------------------------------------------------ */

typedef struct mt_unary {
    exec_function base;
    double (*fn)(double);
    float (*fn_float32)(float); /* non-NULL: a Float32 argument gives Float32 */
} mt_unary;

static int mt_unary_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    const mt_unary *f = (const mt_unary *)(const void *)call->function;
    double *x = exec__scratch(rows, sizeof(double), err);
    if (x == NULL) return err->code;
    mt_load_value(call, 0, &args[0], rows, x);
    int rc = 0;
    if (out->type->kind == TY_FLOAT32) {
        void *at;
        rc = ty_column_append_fixed_uninit(out, rows, &at, err);
        float *y = at;
        for (uint32_t r = 0; rc == 0 && r < rows; r++) y[r] = f->fn_float32((float)x[r]);
    } else {
        for (uint32_t r = 0; r < rows; r++) x[r] = f->fn(x[r]);
        rc = exec__store_f64(out, x, rows, err);
    }
    free(x);
    return rc;
}

static int mt_bind_unary(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    const mt_unary *f = (const mt_unary *)(const void *)call->function;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = mt_check_numbers(call, err);
    if (rc != 0) return rc;
    bool keep = f->fn_float32 != NULL && call->arg_types[0]->kind == TY_FLOAT32;
    call->kernel = mt_unary_kernel;
    call->result_type = ty_type_builtin(keep ? TY_FLOAT32 : TY_FLOAT64);
    return 0;
}

typedef struct mt_binary {
    exec_function base;
    double (*fn)(double, double);
} mt_binary;

static int mt_binary_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    const mt_binary *f = (const mt_binary *)(const void *)call->function;
    double *x = exec__scratch(rows, sizeof(double), err);
    double *y = x ? exec__scratch(rows, sizeof(double), err) : NULL;
    int rc = y ? 0 : err->code;
    if (rc == 0) {
        mt_load_value(call, 0, &args[0], rows, x);
        mt_load_value(call, 1, &args[1], rows, y);
        for (uint32_t r = 0; r < rows; r++) x[r] = f->fn(x[r], y[r]);
        rc = exec__store_f64(out, x, rows, err);
    }
    free(x);
    free(y);
    return rc;
}

static int mt_bind_binary(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc == 0) rc = mt_check_numbers(call, err);
    if (rc != 0) return rc;
    call->kernel = mt_binary_kernel;
    call->result_type = ty_type_builtin(TY_FLOAT64);
    return 0;
}

typedef struct mt_constant {
    exec_function base;
    double value;
} mt_constant;

static int mt_constant_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    (void)args;
    const mt_constant *f = (const mt_constant *)(const void *)call->function;
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    double *v = at;
    for (uint32_t r = 0; rc == 0 && r < rows; r++) v[r] = f->value;
    return rc;
}

static int mt_bind_constant(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 0, 0, err);
    if (rc != 0) return rc;
    call->kernel = mt_constant_kernel;
    call->result_type = ty_type_builtin(TY_FLOAT64);
    return 0;
}

static double mt_exp10(double x) { return pow(10.0, x); }
static double mt_log(double x) { return log(x); }

/* ------------------------------------------------------------------ */
/* sign, isFinite, isInfinite, isNaN, intExp2, intExp10                */
/* ------------------------------------------------------------------ */

enum mt_predicate { MT_SIGN, MT_IS_FINITE, MT_IS_INFINITE, MT_IS_NAN, MT_INT_EXP2, MT_INT_EXP10 };

typedef struct mt_simple {
    exec_function base;
    unsigned op; /* enum mt_predicate */
} mt_simple;

/* A number as the C int ClickHouse passes to intExp2/intExp10 (x86's
 * truncating conversion; out of range gives INT_MIN). */
static int32_t mt_to_int(double x) {
    return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}

static int64_t mt_simple_value(unsigned op, double x, int64_t i, bool is_float) {
    switch (op) {
    case MT_SIGN: return is_float ? (x < 0 ? -1 : x == 0 ? 0 : 1) : (i < 0 ? -1 : i == 0 ? 0 : 1);
    case MT_IS_FINITE: return !is_float || isfinite(x);
    case MT_IS_INFINITE: return is_float && isinf(x);
    case MT_IS_NAN: return is_float && isnan(x);
    case MT_INT_EXP2: {
        int32_t e = is_float ? mt_to_int(x) : (int32_t)(uint32_t)(uint64_t)i;
        return (int64_t)(1ULL << ((uint32_t)e & 63)); /* x86's shift: the count masked */
    }
    default: {
        static const uint64_t powers[20] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
            1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
            100000000000ULL, 1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
            1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
            1000000000000000000ULL, 10000000000000000000ULL};
        int32_t e = is_float ? mt_to_int(x) : (int32_t)(uint32_t)(uint64_t)i;
        if (e < 0) return 0;
        return (int64_t)(e > 19 ? UINT64_MAX : powers[e]);
    }
    }
}

static int mt_simple_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    const mt_simple *f = (const mt_simple *)(const void *)call->function;
    const ty_type *t = call->arg_types[0];
    bool is_float = exec_type_is_float(t) || t->kind == TY_DECIMAL;
    double *x = exec__scratch(rows, sizeof(double), err);
    int64_t *i = x ? exec__scratch(rows, sizeof(int64_t), err) : NULL;
    int rc = i ? 0 : err->code;
    if (rc == 0) {
        if (is_float) exec__load_f64(&args[0], rows, x); /* Decimal: the scaled integer */
        else exec__load_i64(&args[0], rows, i);
        bool is_unsigned = !is_float && !exec_type_is_signed(t);
        for (uint32_t r = 0; r < rows; r++) {
            int64_t v = is_unsigned && f->op == MT_SIGN ? (i[r] != 0) : i[r];
            i[r] = mt_simple_value(f->op, is_float ? x[r] : 0, v, is_float);
        }
        rc = exec__store_i64(out, i, rows, err);
    }
    free(x);
    free(i);
    return rc;
}

static int mt_bind_simple(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    const mt_simple *f = (const mt_simple *)(const void *)call->function;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = mt_check_numbers(call, err);
    if (rc != 0) return rc;
    bool int_exp = f->op == MT_INT_EXP2 || f->op == MT_INT_EXP10;
    if (int_exp && call->arg_types[0]->kind == TY_DECIMAL)
        return exec__error_arg_type(call, 0, err);
    call->kernel = mt_simple_kernel;
    ty_kind result = f->op == MT_SIGN ? TY_INT8 : int_exp ? TY_UINT64 : TY_UINT8;
    call->result_type = ty_type_builtin(result);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Rounding                                                            */
/* ------------------------------------------------------------------ */

enum mt_rounding_mode { MT_ROUND, MT_BANKERS, MT_FLOOR, MT_CEIL, MT_TRUNC };

typedef struct mt_rounding {
    exec_function base;
    unsigned mode;
} mt_rounding;

/* Powers of ten past these are beyond every finite value of the type. */
#define MT_FLOAT64_DIGITS_MAX 308
#define MT_FLOAT32_DIGITS_MAX 38
#define MT_INT_DIGITS_MAX 38

static double mt_round_step(double y, unsigned mode) {
    switch (mode) {
    case MT_FLOOR: return floor(y);
    case MT_CEIL: return ceil(y);
    case MT_TRUNC: return trunc(y);
    default: return nearbyint(y); /* round-to-nearest-even, as ClickHouse's round on floats */
    }
}

static float mt_round_step_f(float y, unsigned mode) {
    switch (mode) {
    case MT_FLOOR: return floorf(y);
    case MT_CEIL: return ceilf(y);
    case MT_TRUNC: return truncf(y);
    default: return nearbyintf(y);
    }
}

/* x scaled by 10^n, rounded, scaled back, in the float's own precision. */
static double mt_round_float(double x, int64_t n, unsigned mode, bool is_float32) {
    int64_t digits_max = is_float32 ? MT_FLOAT32_DIGITS_MAX : MT_FLOAT64_DIGITS_MAX;
    if (!isfinite(x)) return x;
    if (n > digits_max) return x;
    if (n < -digits_max) /* every finite value rounds to zero, or past the type */
        return x < 0 && mode == MT_FLOOR ? -INFINITY : x > 0 && mode == MT_CEIL ? INFINITY : 0.0;
    double scale = pow(10.0, (double)(n < 0 ? -n : n));
    if (is_float32) {
        float s = (float)scale, v = (float)x;
        if (n > 0) {
            float y = v * s;
            return isfinite(y) ? mt_round_step_f(y, mode) / s : v;
        }
        return n < 0 ? mt_round_step_f(v / s, mode) * s : mt_round_step_f(v, mode);
    }
    if (n > 0) {
        double y = x * scale;
        return isfinite(y) ? mt_round_step(y, mode) / scale : x;
    }
    return n < 0 ? mt_round_step(x / scale, mode) * scale : mt_round_step(x, mode);
}

/* v rounded to a multiple of 10^digits (digits > 0): half away from zero
 * for round, half to even for roundBankers. */
static __int128 mt_round_int(__int128 v, int64_t digits, unsigned mode) {
    if (digits > MT_INT_DIGITS_MAX) return 0;
    __int128 unit = ty_decimal_pow10((unsigned)digits), q = v / unit, r = v % unit;
    /* |r| against what is left to the next multiple: 2|r| overflows. */
    __int128 part = r < 0 ? -r : r, rest = unit - part, away = v < 0 ? -1 : 1;
    switch (mode) {
    case MT_TRUNC: break;
    case MT_FLOOR: q -= r < 0; break;
    case MT_CEIL: q += r > 0; break;
    case MT_ROUND: q += part >= rest ? away : 0; break;
    default: q += (part > rest || (part == rest && (q & 1) != 0)) ? away : 0; break;
    }
    /* Past the type's range the result is undefined (ClickHouse's words):
     * wrap instead of overflowing. */
    return (__int128)((unsigned __int128)q * (unsigned __int128)unit);
}

static int mt_round_floats(const mt_rounding *f, const exec_arg *x_arg, const int64_t *n,
                           uint32_t rows, ty_column *out, mu_err *err) {
    double *x = exec__scratch(rows, sizeof(double), err);
    if (x == NULL) return err->code;
    exec__load_f64(x_arg, rows, x);
    bool is_float32 = out->type->kind == TY_FLOAT32;
    for (uint32_t r = 0; r < rows; r++) x[r] = mt_round_float(x[r], n[r], f->mode, is_float32);
    int rc = exec__store_f64(out, x, rows, err);
    free(x);
    return rc;
}

static int mt_round_decimals(const mt_rounding *f, const exec_arg *x_arg, const int64_t *n,
                             uint32_t rows, ty_column *out, mu_err *err) {
    const ty_type *t = out->type;
    uint32_t width = ty_type_value_bytes(t);
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    if (rc != 0) return rc;
    const uint8_t *in = ty_column_values(x_arg->column);
    for (uint32_t r = 0; r < rows; r++) {
        const uint8_t *p = in + (size_t)exec_arg_row(x_arg, r) * width;
        uint8_t *q = (uint8_t *)at + (size_t)r * width;
        __int128 v;
        if (width == 4) { int32_t w; memcpy(&w, p, 4); v = w; }
        else if (width == 8) { int64_t w; memcpy(&w, p, 8); v = w; }
        else memcpy(&v, p, 16);
        int64_t digits = (int64_t)t->scale - n[r];
        if (digits > 0) v = mt_round_int(v, digits, f->mode);
        if (width == 4) { int32_t w = (int32_t)v; memcpy(q, &w, 4); }
        else if (width == 8) { int64_t w = (int64_t)v; memcpy(q, &w, 8); }
        else memcpy(q, &v, 16);
    }
    return 0;
}

static int mt_round_integers(const mt_rounding *f, const exec_arg *x_arg, const int64_t *n,
                             uint32_t rows, ty_column *out, mu_err *err) {
    bool is_unsigned = !exec_type_is_signed(out->type);
    int64_t *v = exec__scratch(rows, sizeof(int64_t), err);
    if (v == NULL) return err->code;
    if (is_unsigned) exec__load_u64(x_arg, rows, (uint64_t *)(void *)v);
    else exec__load_i64(x_arg, rows, v);
    for (uint32_t r = 0; r < rows; r++) {
        if (n[r] >= 0) continue;
        __int128 x = is_unsigned ? (__int128)(uint64_t)v[r] : (__int128)v[r];
        v[r] = (int64_t)(uint64_t)(unsigned __int128)mt_round_int(x, -n[r], f->mode);
    }
    int rc = exec__store_i64(out, v, rows, err); /* wraps as ClickHouse's overflow does */
    free(v);
    return rc;
}

static int mt_rounding_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    const mt_rounding *f = (const mt_rounding *)(const void *)call->function;
    int64_t *n = exec__scratch(rows, sizeof(int64_t), err);
    if (n == NULL) return err->code;
    if (call->arg_count == 2) exec__load_i64(&args[1], rows, n);
    else memset(n, 0, (size_t)rows * sizeof(int64_t));
    for (uint32_t r = 0; r < rows; r++) {
        if (n[r] >= INT16_MIN && n[r] <= INT16_MAX) continue;
        free(n);
        return MU_ERR(err, MU_EOUT_OF_BOUND, "Scale argument for rounding function is too large");
    }
    const ty_type *t = out->type;
    int rc;
    if (exec_type_is_float(t)) rc = mt_round_floats(f, &args[0], n, rows, out, err);
    else if (t->kind == TY_DECIMAL) rc = mt_round_decimals(f, &args[0], n, rows, out, err);
    else rc = mt_round_integers(f, &args[0], n, rows, out, err);
    free(n);
    return rc;
}

static int mt_bind_rounding(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 2, err);
    if (rc != 0) return rc;
    if (!exec_type_is_number(call->arg_types[0])) return exec__error_arg_type(call, 0, err);
    if (call->arg_count == 2 && !exec_type_is_integer(call->arg_types[1]))
        return exec__error_arg_type(call, 1, err);
    call->kernel = mt_rounding_kernel;
    call->result_type = call->arg_types[0];
    return 0;
}

/* ------------------------------------------------------------------ */
/* roundToExp2, roundDown                                              */
/* ------------------------------------------------------------------ */

/* roundToExp2(x): integers round down to a power of two (0 for x <= 0);
 * floats keep sign and exponent and drop the mantissa (0.3 -> 0.25, NaN
 * becomes inf as in ClickHouse). The result has the argument's type. */
static int mt_exp2_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                          ty_column *out, mu_err *err) {
    const ty_type *t = call->arg_types[0];
    int rc;
    if (exec_type_is_float(t)) {
        double *x = exec__scratch(rows, sizeof(double), err);
        if (x == NULL) return err->code;
        exec__load_f64(&args[0], rows, x);
        if (t->kind == TY_FLOAT32) {
            for (uint32_t r = 0; r < rows; r++) {
                float f = (float)x[r];
                uint32_t bits;
                memcpy(&bits, &f, sizeof(bits));
                bits &= ~((UINT32_C(1) << 23) - 1);
                memcpy(&f, &bits, sizeof(f));
                x[r] = f;
            }
        } else {
            for (uint32_t r = 0; r < rows; r++) {
                uint64_t bits;
                memcpy(&bits, &x[r], sizeof(bits));
                bits &= ~((UINT64_C(1) << 52) - 1);
                memcpy(&x[r], &bits, sizeof(bits));
            }
        }
        rc = exec__store_f64(out, x, rows, err);
        free(x);
        return rc;
    }
    uint64_t *v = exec__scratch(rows, sizeof(uint64_t), err);
    if (v == NULL) return err->code;
    if (exec_type_is_signed(t)) {
        exec__load_i64(&args[0], rows, (int64_t *)(void *)v);
        for (uint32_t r = 0; r < rows; r++)
            if ((int64_t)v[r] < 0) v[r] = 0;
    } else {
        exec__load_u64(&args[0], rows, v);
    }
    for (uint32_t r = 0; r < rows; r++)
        v[r] = v[r] == 0 ? 0 : UINT64_C(1) << (63 - __builtin_clzll(v[r]));
    rc = exec__store_u64(out, v, rows, err);
    free(v);
    return rc;
}

static int mt_bind_exp2(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    if (!exec_type_is_integer(t) && !exec_type_is_float(t) && t->kind != TY_BOOL)
        return exec__error_arg_type(call, 0, err);
    call->kernel = mt_exp2_kernel;
    /* Bool is UInt8 to ClickHouse's unary arithmetic. */
    call->result_type = t->kind == TY_BOOL ? ty_type_builtin(TY_UINT8) : t;
    return 0;
}

/* roundDown(x, [b1, b2, ...]): the largest boundary <= x, the smallest
 * one when x is below all of them, in the least supertype of x and the
 * boundaries (a constant array of numbers, sorted and deduplicated at
 * bind). Below 32 boundaries ClickHouse searches linearly from the
 * previous row's answer; that search is kept because it decides what a
 * NaN row gets (the previous answer). */
#define MT_ROUND_DOWN_LINEAR 32

typedef struct mt_round_down {
    const ty_type *type;   /* result type (fixed width) */
    bool is_float;         /* keys are doubles, else 128-bit integers */
    uint32_t width;        /* bytes of one value */
    uint32_t count;        /* distinct boundaries, ascending */
    double *fkeys;
    __int128 *ikeys;
    uint8_t *values;       /* count * width raw values */
} mt_round_down;

/* Row r of a fixed-width integer or Decimal column as a 128-bit integer. */
static __int128 mt_int_key(const ty_column *c, const ty_type *t, uint32_t width, uint32_t row) {
    const uint8_t *p = ty_column_values(c) + (size_t)row * width;
    bool is_signed = t->kind == TY_DECIMAL || exec_type_is_signed(t);
    switch (width) {
    case 1: return is_signed ? (__int128)(int8_t)p[0] : (__int128)p[0];
    case 2: {
        uint16_t w;
        memcpy(&w, p, 2);
        return is_signed ? (__int128)(int16_t)w : (__int128)w;
    }
    case 4: {
        uint32_t w;
        memcpy(&w, p, 4);
        return is_signed ? (__int128)(int32_t)w : (__int128)w;
    }
    case 8: {
        uint64_t w;
        memcpy(&w, p, 8);
        return is_signed ? (__int128)(int64_t)w : (__int128)w;
    }
    default: {
        __int128 w;
        memcpy(&w, p, 16);
        return w;
    }
    }
}

static bool mt_rd_less(const mt_round_down *s, uint32_t i, uint32_t j) {
    return s->is_float ? s->fkeys[i] < s->fkeys[j] : s->ikeys[i] < s->ikeys[j];
}

static int mt_round_down_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    const mt_round_down *s = call->state;
    ty_column *converted = NULL;
    exec_arg x = args[0];
    int rc = 0;
    if (!ty_type_equal(call->arg_types[0], s->type)) {
        rc = exec__convert_arg(call, &args[0], rows, s->type, true, &converted, err);
        if (rc != 0) return rc;
        x.column = converted;
        x.is_const = false;
    }
    uint8_t *dst;
    rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    /* The linear search starts in the middle and then from the last answer. */
    uint32_t it = s->count / 2, n = s->count;
    for (uint32_t r = 0; rc == 0 && r < rows; r++) {
        uint32_t row = exec_arg_row(&x, r), pick;
        double fv = 0;
        __int128 iv = 0;
        if (s->is_float) fv = exec_get_f64(x.column, row);
        else iv = mt_int_key(x.column, s->type, s->width, row);
#define MT_LT(i) (s->is_float ? s->fkeys[i] < fv : s->ikeys[i] < iv)
#define MT_LE(i) (s->is_float ? s->fkeys[i] <= fv : s->ikeys[i] <= iv)
#define MT_GT(i) (s->is_float ? s->fkeys[i] > fv : s->ikeys[i] > iv)
        if (n < MT_ROUND_DOWN_LINEAR) {
            if (MT_LT(it)) {
                while (it != n && MT_LE(it)) it++;
                if (it != 0) it--;
            } else {
                while (MT_GT(it) && it != 0) it--;
            }
            pick = it;
        } else {
            /* upper_bound: the first boundary greater than the value. */
            uint32_t lo = 0, hi = n;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                bool value_less = s->is_float ? fv < s->fkeys[mid] : iv < s->ikeys[mid];
                if (value_less) hi = mid;
                else lo = mid + 1;
            }
            pick = lo == n ? n - 1 : lo == 0 ? 0 : lo - 1;
        }
#undef MT_LT
#undef MT_LE
#undef MT_GT
        memcpy(dst + (size_t)r * s->width, s->values + (size_t)pick * s->width, s->width);
    }
    ty_column_destroy(converted);
    return rc;
}

static int mt_bind_round_down(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    const ty_type *tx = call->arg_types[0], *ta = call->arg_types[1];
    char name[128];
    if (!exec_type_is_number(tx))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Unsupported type %s of first argument of function %s, must be numeric "
                      "type.", ty_type_name(tx, name, sizeof(name)), call->function->name);
    if (ta->kind != TY_ARRAY)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Second argument of function %s, must be array of boundaries to round to.",
                      call->function->name);
    if (!exec_type_is_number(ta->child))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Elements of array of second argument of function %s must be numeric type.",
                      call->function->name);
    if (call->arg_consts[1] == NULL)
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant",
                      call->function->name);
    const ty_type *pair[2] = {tx, ta->child}, *result;
    rc = exec_type_supertype(pair, 2, arena, &result, err);
    if (rc != 0) return rc;
    ty_type *array = mu_arena_calloc(arena, 1, sizeof(*array), err);
    mt_round_down *s = array ? mu_arena_calloc(arena, 1, sizeof(*s), err) : NULL;
    if (s == NULL) return err->code;
    array->kind = TY_ARRAY;
    array->child = result;
    exec_arg bounds_arg = {call->arg_consts[1], true};
    ty_column *bounds;
    rc = exec__convert_arg(call, &bounds_arg, 1, array, false, &bounds, err);
    if (rc != 0) return rc;
    const ty_column *elems = ty_column_child(bounds, 0);
    uint32_t n = elems->row_count;
    s->type = result;
    s->is_float = exec_type_is_float(result);
    s->width = ty_type_value_bytes(result);
    uint32_t *order = NULL;
    if (n == 0) {
        rc = MU_ERR(err, MU_EINVAL, "Empty array is illegal for boundaries in %s function",
                    call->function->name);
    } else {
        if (s->is_float) s->fkeys = mu_arena_calloc(arena, n, sizeof(double), err);
        else s->ikeys = mu_arena_calloc(arena, n, sizeof(__int128), err);
        s->values = mu_arena_calloc(arena, n, s->width, err);
        order = malloc((size_t)n * sizeof(*order));
        if ((s->fkeys == NULL && s->ikeys == NULL) || s->values == NULL) rc = err->code;
        else if (order == NULL) rc = MU_ERR(err, MU_ENOMEM, "out of memory in %s", call->function->name);
    }
    if (rc == 0) {
        for (uint32_t i = 0; i < n; i++) {
            if (s->is_float) s->fkeys[i] = exec_get_f64(elems, i);
            else s->ikeys[i] = mt_int_key(elems, result, s->width, i);
            order[i] = i;
        }
        s->count = n;
        /* Insertion sort by key (boundary lists are short), then unique. */
        for (uint32_t i = 1; i < n; i++) {
            uint32_t v = order[i], j = i;
            while (j > 0 && mt_rd_less(s, v, order[j - 1])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = v;
        }
        double *fk = s->fkeys;
        __int128 *ik = s->ikeys;
        double *fsorted = s->is_float ? mu_arena_calloc(arena, n, sizeof(double), err) : NULL;
        __int128 *isorted = s->is_float ? NULL : mu_arena_calloc(arena, n, sizeof(__int128), err);
        if (fsorted == NULL && isorted == NULL) rc = err->code;
        uint32_t kept = 0;
        const uint8_t *raw = ty_column_values(elems);
        for (uint32_t i = 0; rc == 0 && i < n; i++) {
            uint32_t k = order[i];
            if (kept > 0 && (s->is_float ? fsorted[kept - 1] == fk[k] : isorted[kept - 1] == ik[k]))
                continue;
            if (s->is_float) fsorted[kept] = fk[k];
            else isorted[kept] = ik[k];
            memcpy(s->values + (size_t)kept * s->width, raw + (size_t)k * s->width, s->width);
            kept++;
        }
        s->fkeys = fsorted;
        s->ikeys = isorted;
        s->count = kept;
    }
    free(order);
    ty_column_destroy(bounds);
    if (rc != 0) return rc;
    call->state = s;
    call->kernel = mt_round_down_kernel;
    call->result_type = result;
    return 0;
}

/* ------------------------------------------------------------------ */
/* greatest, least                                                     */
/* ------------------------------------------------------------------ */

typedef struct mt_extreme_fn {
    exec_function base;
    bool greatest;
} mt_extreme_fn;

/* Two 64-bit integers of different signedness: ClickHouse compares them
 * exactly and answers UInt64 (greatest) or Int64 (least). */
static bool mt_mixed_int64(const exec_call *call) {
    if (call->arg_count != 2) return false;
    const ty_type *a = call->arg_types[0], *b = call->arg_types[1];
    bool a64 = a->kind == TY_UINT64 || a->kind == TY_INT64;
    bool b64 = b->kind == TY_UINT64 || b->kind == TY_INT64;
    return a64 && b64 && a->kind != b->kind;
}

static int mt_mixed_int64_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    const mt_extreme_fn *f = (const mt_extreme_fn *)(const void *)call->function;
    int64_t *v = exec__scratch(rows, sizeof(int64_t), err);
    if (v == NULL) return err->code;
    for (uint32_t r = 0; r < rows; r++) {
        __int128 x[2];
        for (unsigned k = 0; k < 2; k++) {
            const ty_column *c = args[k].column;
            uint32_t row = exec_arg_row(&args[k], r);
            x[k] = call->arg_types[k]->kind == TY_UINT64 ? (__int128)exec_get_u64(c, row)
                                                         : (__int128)exec_get_i64(c, row);
        }
        bool first = f->greatest ? x[0] >= x[1] : x[0] <= x[1];
        v[r] = (int64_t)(uint64_t)(unsigned __int128)(first ? x[0] : x[1]);
    }
    int rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

/* Whether candidate row value b beats the best so far a. NULL and NaN
 * never beat anything; anything beats them. */
static bool mt_beats(const ty_column *a, const ty_column *b, uint32_t row, bool greatest,
                     bool is_float) {
    if (ty_column_is_null(b, row)) return false;
    if (is_float && isnan(exec_get_f64(b, row))) return false;
    if (ty_column_is_null(a, row)) return true;
    if (is_float && isnan(exec_get_f64(a, row))) return true;
    int c = ty_column_compare_rows(b, row, a, row);
    return greatest ? c > 0 : c < 0;
}

static int mt_extreme_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    const mt_extreme_fn *f = (const mt_extreme_fn *)(const void *)call->function;
    ty_column **cols = calloc(call->arg_count, sizeof(*cols));
    int32_t *pick = malloc((rows ? rows : 1) * sizeof(*pick));
    uint32_t used = 0;
    int rc = cols && pick ? 0 : MU_ERR(err, MU_ENOMEM, "out of memory in %s", f->base.name);
    for (uint32_t k = 0; k < call->arg_count && rc == 0; k++) {
        if (exec_type_is_nothing(call->arg_types[k])) continue; /* a NULL literal */
        rc = exec__convert_arg(call, &args[k], rows, out->type, false, &cols[used++], err);
    }
    bool is_float = exec_type_is_float(ty_type_strip_nullable(out->type));
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        int32_t best = used > 0 ? 0 : -1;
        for (uint32_t k = 1; k < used; k++)
            if (mt_beats(cols[best], cols[k], r, f->greatest, is_float)) best = (int32_t)k;
        pick[r] = best >= 0 && ty_column_is_null(cols[best], r) ? -1 : best;
    }
    if (rc == 0) rc = exec__pick_rows(out, (const ty_column *const *)cols, pick, rows, err);
    for (uint32_t k = 0; cols && k < used; k++) ty_column_destroy(cols[k]);
    free(cols);
    free(pick);
    return rc;
}

/* Two numbers (not Nullable, not Decimal): ClickHouse answers with its
 * binary least/greatest, typed as `if` types two numbers (ResultOfIf):
 * the wider size, doubled when an integer is at least as wide as the
 * float or an unsigned at least as wide as the signed; a float result is
 * Float32 up to 4 bytes. 16-byte integers (UInt64 with Int8..Int32) are
 * Int128, which muscles lacks. Returns false when this rule does not
 * apply. */
static bool mt_native_number(const ty_type *t) {
    return exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL;
}

static int mt_result_of_if(const exec_call *call, const ty_type **out, mu_err *err) {
    const ty_type *a = call->arg_types[0], *b = call->arg_types[1];
    ty_kind ka = a->kind == TY_BOOL ? TY_UINT8 : a->kind, kb = b->kind == TY_BOOL ? TY_UINT8 : b->kind;
    if (ka == kb) {
        *out = ty_type_builtin(ka);
        return 0;
    }
    const ty_type *ta = ty_type_builtin(ka), *tb = ty_type_builtin(kb);
    unsigned sa = ty_type_value_bytes(ta), sb = ty_type_value_bytes(tb);
    bool fa = exec_type_is_float(ta), fb = exec_type_is_float(tb);
    bool sga = exec_type_is_signed(ta), sgb = exec_type_is_signed(tb);
    bool has_float = fa || fb, has_integer = !fa || !fb;
    bool has_signed = sga || sgb, has_unsigned = !sga || !sgb;
    unsigned max_unsigned = MU_MAX(sga ? 0 : sa, sgb ? 0 : sb);
    unsigned max_signed = MU_MAX(sga ? sa : 0, sgb ? sb : 0);
    unsigned max_integer = MU_MAX(fa ? 0 : sa, fb ? 0 : sb);
    unsigned max_float = MU_MAX(fa ? sa : 0, fb ? sb : 0);
    unsigned size = MU_MAX(sa, sb);
    if ((has_float && has_integer && max_integer >= max_float) ||
        (has_signed && has_unsigned && max_unsigned >= max_signed))
        size *= 2;
    if (has_float) {
        *out = ty_type_builtin(size <= 4 ? TY_FLOAT32 : TY_FLOAT64);
        return 0;
    }
    if (size > 8) {
        char na[64], nb[64];
        return MU_ERR(err, MU_ENOT_SUPPORTED,
                      "%s of %s and %s would be Int128, which is not supported",
                      call->function->name, ty_type_name(a, na, sizeof(na)),
                      ty_type_name(b, nb, sizeof(nb)));
    }
    *out = ty_type_builtin(exec_int_kind(size, has_signed));
    return 0;
}

static int mt_bind_extreme(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Function %s cannot be called without arguments", call->function->name);
    if (mt_mixed_int64(call)) {
        const mt_extreme_fn *f = (const mt_extreme_fn *)(const void *)call->function;
        call->kernel = mt_mixed_int64_kernel;
        call->result_type = ty_type_builtin(f->greatest ? TY_UINT64 : TY_INT64);
        return 0;
    }
    const ty_type *result;
    int rc;
    if (call->arg_count == 2 && mt_native_number(call->arg_types[0]) &&
        mt_native_number(call->arg_types[1]))
        rc = mt_result_of_if(call, &result, err);
    else
        rc = exec_type_supertype(call->arg_types, call->arg_count, arena, &result, err);
    for (uint32_t k = 0; k < call->arg_count && rc == 0; k++)
        rc = exec__convert_check(call->arg_types[k], result, err);
    if (rc != 0) return rc;
    call->kernel = mt_extreme_kernel;
    call->result_type = result; /* Nullable(Nothing) when every argument is NULL */
    return 0;
}

/* ------------------------------------------------------------------ */
/* Registry                                                            */
/* ------------------------------------------------------------------ */

#define MT_CI EXEC_FN_CASE_INSENSITIVE

#define MT_UNARY(id, name, flags, fn, fn32) \
    static const mt_unary mt_fn_##id = {{name, flags, mt_bind_unary}, fn, fn32};
MT_UNARY(sqrt, "sqrt", MT_CI, sqrt, NULL)
MT_UNARY(cbrt, "cbrt", 0, cbrt, NULL)
MT_UNARY(exp, "exp", MT_CI, exp, expf)
MT_UNARY(exp2, "exp2", 0, exp2, NULL)
MT_UNARY(exp10, "exp10", 0, mt_exp10, NULL)
MT_UNARY(log, "log", MT_CI, mt_log, logf)
MT_UNARY(ln, "ln", MT_CI, mt_log, logf)
MT_UNARY(log2, "log2", MT_CI, log2, NULL)
MT_UNARY(log10, "log10", MT_CI, log10, NULL)
MT_UNARY(log1p, "log1p", 0, log1p, NULL)
MT_UNARY(sin, "sin", MT_CI, sin, NULL)
MT_UNARY(cos, "cos", MT_CI, cos, NULL)
MT_UNARY(tan, "tan", MT_CI, tan, NULL)
MT_UNARY(asin, "asin", MT_CI, asin, NULL)
MT_UNARY(acos, "acos", MT_CI, acos, NULL)
MT_UNARY(atan, "atan", MT_CI, atan, NULL)
MT_UNARY(sinh, "sinh", 0, sinh, NULL)
MT_UNARY(cosh, "cosh", 0, cosh, NULL)
MT_UNARY(tanh, "tanh", MT_CI, tanh, tanhf)

#define MT_BINARY(id, name, fn) \
    static const mt_binary mt_fn_##id = {{name, MT_CI, mt_bind_binary}, fn};
MT_BINARY(pow, "pow", pow)
MT_BINARY(power, "power", pow)
MT_BINARY(atan2, "atan2", atan2)
MT_BINARY(hypot, "hypot", hypot)

static const mt_constant mt_fn_pi = {{"pi", MT_CI, mt_bind_constant}, 3.14159265358979323846};
static const mt_constant mt_fn_e = {{"e", 0, mt_bind_constant}, 2.71828182845904523536};

#define MT_SIMPLE(id, name, flags, op) \
    static const mt_simple mt_fn_##id = {{name, flags, mt_bind_simple}, op};
MT_SIMPLE(sign, "sign", MT_CI, MT_SIGN)
MT_SIMPLE(is_finite, "isFinite", 0, MT_IS_FINITE)
MT_SIMPLE(is_infinite, "isInfinite", 0, MT_IS_INFINITE)
MT_SIMPLE(is_nan, "isNaN", 0, MT_IS_NAN)
MT_SIMPLE(int_exp2, "intExp2", 0, MT_INT_EXP2)
MT_SIMPLE(int_exp10, "intExp10", 0, MT_INT_EXP10)

#define MT_ROUNDING(id, name, flags, mode) \
    static const mt_rounding mt_fn_##id = {{name, flags, mt_bind_rounding}, mode};
MT_ROUNDING(round, "round", MT_CI, MT_ROUND)
MT_ROUNDING(round_bankers, "roundBankers", 0, MT_BANKERS)
MT_ROUNDING(floor, "floor", MT_CI, MT_FLOOR)
MT_ROUNDING(ceil, "ceil", MT_CI, MT_CEIL)
MT_ROUNDING(ceiling, "ceiling", MT_CI, MT_CEIL)
MT_ROUNDING(trunc, "trunc", MT_CI, MT_TRUNC)
MT_ROUNDING(truncate, "truncate", MT_CI, MT_TRUNC)

static const exec_function mt_fn_round_to_exp2 = {"roundToExp2", 0, mt_bind_exp2};
static const exec_function mt_fn_round_down = {"roundDown", 0, mt_bind_round_down};

static const mt_extreme_fn mt_fn_greatest = {
    {"greatest", EXEC_FN_NULLS_CUSTOM | MT_CI, mt_bind_extreme}, true};
static const mt_extreme_fn mt_fn_least = {
    {"least", EXEC_FN_NULLS_CUSTOM | MT_CI, mt_bind_extreme}, false};

const exec_function *const exec__functions_math[] = {
    &mt_fn_sqrt.base,  &mt_fn_cbrt.base,   &mt_fn_exp.base,       &mt_fn_exp2.base,
    &mt_fn_exp10.base, &mt_fn_log.base,    &mt_fn_ln.base,        &mt_fn_log2.base,
    &mt_fn_log10.base, &mt_fn_log1p.base,  &mt_fn_sin.base,       &mt_fn_cos.base,
    &mt_fn_tan.base,   &mt_fn_asin.base,   &mt_fn_acos.base,      &mt_fn_atan.base,
    &mt_fn_sinh.base,  &mt_fn_cosh.base,   &mt_fn_tanh.base,      &mt_fn_pow.base,
    &mt_fn_power.base, &mt_fn_atan2.base,  &mt_fn_hypot.base,     &mt_fn_pi.base,
    &mt_fn_e.base,     &mt_fn_sign.base,   &mt_fn_is_finite.base, &mt_fn_is_infinite.base,
    &mt_fn_is_nan.base, &mt_fn_int_exp2.base, &mt_fn_int_exp10.base, &mt_fn_round.base,
    &mt_fn_round_bankers.base, &mt_fn_floor.base, &mt_fn_ceil.base, &mt_fn_ceiling.base,
    &mt_fn_trunc.base, &mt_fn_truncate.base, &mt_fn_greatest.base, &mt_fn_least.base,
    &mt_fn_round_to_exp2, &mt_fn_round_down, NULL,
};
