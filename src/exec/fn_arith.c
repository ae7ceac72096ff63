/* fn_arith.c: the arithmetic functions the SQL binder maps operators to:
 * plus, minus, multiply, divide, intDiv, intDivOrZero, modulo,
 * moduloOrZero, negate, abs, gcd, lcm. Result types follow ClickHouse's
 * NumberTraits (plus/multiply widen to the next size, minus is signed,
 * divide is Float64, intDiv keeps the dividend's size, modulo the
 * divisor's); integers wrap; division errors use ClickHouse's words.
 * Date/DateTime +- number behave as addDays/addSeconds, Date - Date and
 * DateTime - DateTime give Int32, DateTime64 differences Decimal64, and
 * Decimal arithmetic follows ClickHouse's scale rules with overflow
 * checks. Kernels load operands into machine arrays, compute, store.
 * Reference: ClickHouse src/DataTypes/NumberTraits.h,
 * src/Functions/FunctionBinaryArithmetic.h, DivisionUtils.h.
 */
#include "exec/exec_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum arith_op {
    ARITH_PLUS,
    ARITH_MINUS,
    ARITH_MULTIPLY,
    ARITH_DIVIDE,
    ARITH_INT_DIV,
    ARITH_INT_DIV_OR_ZERO,
    ARITH_MODULO,
    ARITH_MODULO_OR_ZERO,
    ARITH_GCD,
    ARITH_LCM,
    ARITH_NEGATE,
    ARITH_ABS,
} arith_op;

/* What an operand is to arithmetic (Bool counts as UInt8, as in ClickHouse). */
typedef enum arith_class {
    ARITH_CLASS_INT,
    ARITH_CLASS_FLOAT,
    ARITH_CLASS_DECIMAL,
    ARITH_CLASS_DATE,
    ARITH_CLASS_DATE32,
    ARITH_CLASS_DATETIME,
    ARITH_CLASS_DATETIME64,
    ARITH_CLASS_OTHER,
} arith_class;

/* A machine number: an integer of `bytes` bytes or a float. */
typedef struct arith_num {
    uint8_t bytes;
    bool is_signed;
    bool is_float;
} arith_num;

/* Bind's decisions, read by the kernels (arena, query lifetime). */
typedef struct arith_state {
    arith_op op;
    arith_num a, b, r;     /* operands and result as machine numbers */
    /* Decimal kernels: each operand's value is multiplied by mul_a / mul_b
     * (plus, minus) or the dividend by mul_div (divide); the result is a
     * Decimal of r_bytes bytes. Float kernels divide Decimal operands by
     * div_a / div_b. */
    __int128 mul_a, mul_b, mul_div;
    unsigned r_bytes;
    double div_a, div_b;
    /* Date arithmetic: which argument is the date, and the ticks per
     * second (DateTime64) or 1. */
    uint32_t date_index;
    int64_t ticks;
} arith_state;

/* ---- classification ------------------------------------------------ */

static arith_class arith_class_of(const ty_type *t) {
    switch (t->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64:
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64: case TY_BOOL:
        return ARITH_CLASS_INT;
    case TY_FLOAT32: case TY_FLOAT64: return ARITH_CLASS_FLOAT;
    case TY_DECIMAL: return ARITH_CLASS_DECIMAL;
    case TY_DATE: return ARITH_CLASS_DATE;
    case TY_DATE32: return ARITH_CLASS_DATE32;
    case TY_DATETIME: return ARITH_CLASS_DATETIME;
    case TY_DATETIME64: return ARITH_CLASS_DATETIME64;
    default: return ARITH_CLASS_OTHER;
    }
}

/* The machine number of an integer, float, Bool, Date (u16), Date32 (i32)
 * or DateTime (u32) type. */
static arith_num arith_num_of(const ty_type *t) {
    arith_num n = {8, true, false};
    switch (t->kind) {
    case TY_UINT8: case TY_BOOL: n.bytes = 1; n.is_signed = false; break;
    case TY_UINT16: case TY_DATE: n.bytes = 2; n.is_signed = false; break;
    case TY_UINT32: case TY_DATETIME: n.bytes = 4; n.is_signed = false; break;
    case TY_UINT64: n.bytes = 8; n.is_signed = false; break;
    case TY_INT8: n.bytes = 1; break;
    case TY_INT16: n.bytes = 2; break;
    case TY_INT32: case TY_DATE32: n.bytes = 4; break;
    case TY_FLOAT32: n.bytes = 4; n.is_float = true; break;
    case TY_FLOAT64: n.is_float = true; break;
    default: break;
    }
    return n;
}

static unsigned arith_next_size(unsigned bytes) { return bytes < 8 ? bytes * 2 : bytes; }

static ty_kind arith_kind_of(arith_num n) {
    if (n.is_float) return n.bytes == 4 ? TY_FLOAT32 : TY_FLOAT64;
    return exec_int_kind(n.bytes, n.is_signed);
}

static arith_num arith_int(unsigned bytes, bool is_signed) {
    arith_num n = {(uint8_t)bytes, is_signed, false};
    return n;
}

static const arith_num arith_float64 = {8, true, true};

/* The storage width of a Decimal's values. */
static unsigned arith_decimal_bytes(const ty_type *t) {
    return t->precision <= 9 ? 4 : t->precision <= 18 ? 8 : 16;
}

static unsigned arith_decimal_max_precision(unsigned bytes) {
    return bytes == 4 ? 9 : bytes == 8 ? 18 : 38;
}

static int arith_error_types(const exec_call *call, mu_err *err) {
    char a[128], b[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal types %s and %s of arguments of function %s",
                  ty_type_name(call->arg_types[0], a, sizeof(a)),
                  ty_type_name(call->arg_types[1], b, sizeof(b)), call->function->name);
}

static int arith_error_division_by_zero(mu_err *err) {
    return MU_ERR(err, MU_EILLEGAL_DIVISION, "Division by zero");
}

static int arith_error_min_by_minus_one(mu_err *err) {
    return MU_ERR(err, MU_EILLEGAL_DIVISION, "Division of minimal signed number by minus one");
}

static int arith_error_decimal_overflow(mu_err *err) {
    return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal math overflow");
}

/* True when row r of the call is NULL in any argument (its result is NULL,
 * so no per-value error may be raised for it). */
static bool arith_row_is_null(const exec_arg *args, uint32_t count, uint32_t r) {
    for (uint32_t i = 0; i < count; i++)
        if (exec_arg_is_null_row(&args[i], r)) return true;
    return false;
}

/* Sign-extends the low `bytes` bytes of v. */
static int64_t arith_sign_extend(uint64_t v, unsigned bytes) {
    if (bytes >= 8) return (int64_t)v;
    unsigned shift = 64 - 8 * bytes;
    return (int64_t)(v << shift) >> shift;
}

static int64_t arith_int_min(unsigned bytes) {
    return bytes >= 8 ? INT64_MIN : -((int64_t)1 << (8 * bytes - 1));
}

static int64_t arith_int_max(unsigned bytes) {
    return bytes >= 8 ? INT64_MAX : ((int64_t)1 << (8 * bytes - 1)) - 1;
}

/* C's conversion of a double to Int64 as x86 performs it: values out of
 * range (and NaN) give INT64_MIN, like ClickHouse's static_cast. */
static int64_t arith_f64_to_i64(double x) {
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)x;
}

/* ---- state and chunked access ------------------------------------- */

static arith_state *arith_state_new(exec_call *call, mu_arena *arena, arith_op op, mu_err *err) {
    arith_state *s = mu_arena_calloc(arena, 1, sizeof(*s), err);
    if (s == NULL) return NULL;
    s->op = op;
    s->mul_a = s->mul_b = s->mul_div = 1;
    s->div_a = s->div_b = 1.0;
    s->ticks = 1;
    call->state = s;
    return s;
}

/* Kernels work through the rows in chunks that stay in L1 (and need no
 * allocation): operands are read into machine arrays of ARITH_CHUNK
 * values, combined, and written into the result's values. */
#define ARITH_CHUNK 1024u

#define ARITH_GET_LOOP(T, dst_type)                                                         \
    do {                                                                                    \
        const T *p_ = (const T *)(const void *)ty_column_values(a->column) + from;          \
        for (uint32_t i = 0; i < n; i++) out[i] = (dst_type)p_[i];                          \
    } while (0)

/* The storage kind of a column's values (Bool as UInt8, Date as UInt16,
 * DateTime as UInt32, Date32 as Int32, DateTime64 and Decimal64 as Int64,
 * Decimal32 as Int32); TY_NOTHING when it is none of those. */
static ty_kind arith_storage(const ty_column *c) {
    const ty_type *t = ty_type_strip_nullable(c->type);
    switch (t->kind) {
    case TY_BOOL: return TY_UINT8;
    case TY_DATE: return TY_UINT16;
    case TY_DATETIME: return TY_UINT32;
    case TY_DATE32: return TY_INT32;
    case TY_ENUM8: return TY_INT8;
    case TY_ENUM16: return TY_INT16;
    case TY_DATETIME64: return TY_INT64;
    case TY_DECIMAL:
        return t->precision <= 9 ? TY_INT32 : t->precision <= 18 ? TY_INT64 : TY_NOTHING;
    default: return t->kind <= TY_FLOAT64 ? t->kind : TY_NOTHING;
    }
}

/* Rows [from, from + n) of an integer-like argument as 64-bit patterns
 * (signed values sign-extended); a constant repeats its value. */
static void arith_get_u64(const exec_arg *a, uint32_t from, uint32_t n, uint64_t *out) {
    if (a->is_const) {
        uint64_t v = exec_get_u64(a->column, 0);
        for (uint32_t i = 0; i < n; i++) out[i] = v;
        return;
    }
    switch (arith_storage(a->column)) {
    case TY_UINT8: ARITH_GET_LOOP(uint8_t, uint64_t); return;
    case TY_UINT16: ARITH_GET_LOOP(uint16_t, uint64_t); return;
    case TY_UINT32: ARITH_GET_LOOP(uint32_t, uint64_t); return;
    case TY_UINT64: ARITH_GET_LOOP(uint64_t, uint64_t); return;
    case TY_INT8: ARITH_GET_LOOP(int8_t, uint64_t); return;
    case TY_INT16: ARITH_GET_LOOP(int16_t, uint64_t); return;
    case TY_INT32: ARITH_GET_LOOP(int32_t, uint64_t); return;
    case TY_INT64: ARITH_GET_LOOP(int64_t, uint64_t); return;
    default:
        MU_ASSERT(!exec_type_is_float(ty_type_strip_nullable(a->column->type)));
        for (uint32_t i = 0; i < n; i++) out[i] = exec_get_u64(a->column, from + i);
        return;
    }
}

static void arith_get_f64(const exec_arg *a, uint32_t from, uint32_t n, double *out) {
    if (a->is_const) {
        double v = exec_get_f64(a->column, 0);
        for (uint32_t i = 0; i < n; i++) out[i] = v;
        return;
    }
    switch (arith_storage(a->column)) {
    case TY_UINT8: ARITH_GET_LOOP(uint8_t, double); return;
    case TY_UINT16: ARITH_GET_LOOP(uint16_t, double); return;
    case TY_UINT32: ARITH_GET_LOOP(uint32_t, double); return;
    case TY_UINT64: ARITH_GET_LOOP(uint64_t, double); return;
    case TY_INT8: ARITH_GET_LOOP(int8_t, double); return;
    case TY_INT16: ARITH_GET_LOOP(int16_t, double); return;
    case TY_INT32: ARITH_GET_LOOP(int32_t, double); return;
    case TY_INT64: ARITH_GET_LOOP(int64_t, double); return;
    case TY_FLOAT32: ARITH_GET_LOOP(float, double); return;
    case TY_FLOAT64: ARITH_GET_LOOP(double, double); return;
    default:
        for (uint32_t i = 0; i < n; i++) out[i] = exec_get_f64(a->column, from + i);
        return;
    }
}

/* Reads an operand as integers (u64 patterns) or, for a float, as doubles. */
static void arith_get_operand(const exec_arg *arg, arith_num num, uint32_t from, uint32_t n,
                              uint64_t *u, double *f) {
    if (num.is_float) {
        arith_get_f64(arg, from, n, f);
        memset(u, 0, (size_t)n * sizeof(*u));
    } else {
        arith_get_u64(arg, from, n, u);
        if (f) memset(f, 0, (size_t)n * sizeof(*f));
    }
}

#define ARITH_PUT_LOOP(T)                                                                   \
    do {                                                                                    \
        T *p_ = (T *)values + from;                                                         \
        for (uint32_t i = 0; i < n; i++) p_[i] = (T)v[i];                                   \
    } while (0)

/* Writes n results (truncated to the width) at row `from` of a result of
 * an integer, date or time kind. */
static void arith_put_u64(void *values, ty_kind kind, uint32_t from, uint32_t n,
                          const uint64_t *v) {
    switch (kind) {
    case TY_UINT8: case TY_INT8: ARITH_PUT_LOOP(uint8_t); return;
    case TY_UINT16: case TY_INT16: case TY_DATE: ARITH_PUT_LOOP(uint16_t); return;
    case TY_UINT32: case TY_INT32: case TY_DATETIME: case TY_DATE32:
        ARITH_PUT_LOOP(uint32_t);
        return;
    default:
        MU_ASSERT(kind == TY_UINT64 || kind == TY_INT64 || kind == TY_DATETIME64);
        ARITH_PUT_LOOP(uint64_t);
        return;
    }
}

static void arith_put_f64(void *values, ty_kind kind, uint32_t from, uint32_t n, const double *v) {
    if (kind == TY_FLOAT32) ARITH_PUT_LOOP(float);
    else ARITH_PUT_LOOP(double);
}

/* Appends rows uninitialised values to out; *values gets them. */
static int arith_out(ty_column *out, uint32_t rows, void **values, mu_err *err) {
    return ty_column_append_fixed_uninit(out, rows, values, err);
}

/* Undoes arith_out after a failed kernel. */
static int arith_fail(ty_column *out, uint32_t rows, int rc) {
    ty_column_truncate(out, out->row_count - rows);
    return rc;
}

/* ---- integer plus / minus / multiply (wrapping) -------------------- */

/* Operands are cast to the (wider or equal) result type and combined
 * modulo 2^64; storing truncates to the result's width, which equals the
 * result computed in that width (ClickHouse wraps the same way). */
static int arith_kernel_int(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    uint64_t a[ARITH_CHUNK], b[ARITH_CHUNK];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        arith_get_u64(&args[0], from, n, a);
        arith_get_u64(&args[1], from, n, b);
        if (s->op == ARITH_PLUS)
            for (uint32_t i = 0; i < n; i++) a[i] += b[i];
        else if (s->op == ARITH_MINUS)
            for (uint32_t i = 0; i < n; i++) a[i] -= b[i];
        else
            for (uint32_t i = 0; i < n; i++) a[i] *= b[i];
        arith_put_u64(values, out->type->kind, from, n, a);
    }
    return 0;
}

/* ---- floating point: plus / minus / multiply / divide / modulo ------ */

static void arith_float_chunk(arith_op op, double *a, const double *b, uint32_t n) {
    switch (op) {
    case ARITH_PLUS:
        for (uint32_t i = 0; i < n; i++) a[i] += b[i];
        return;
    case ARITH_MINUS:
        for (uint32_t i = 0; i < n; i++) a[i] -= b[i];
        return;
    case ARITH_MULTIPLY:
        for (uint32_t i = 0; i < n; i++) a[i] *= b[i];
        return;
    case ARITH_DIVIDE:
        for (uint32_t i = 0; i < n; i++) a[i] /= b[i];
        return;
    default:
        /* modulo with a float operand: a - trunc(a / b) * b, never an error
         * (x % 0 is nan), as ClickHouse computes it. */
        MU_ASSERT(op == ARITH_MODULO || op == ARITH_MODULO_OR_ZERO);
        for (uint32_t i = 0; i < n; i++) a[i] = a[i] - trunc(a[i] / b[i]) * b[i];
        return;
    }
}

static int arith_kernel_float(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    double a[ARITH_CHUNK], b[ARITH_CHUNK];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        arith_get_f64(&args[0], from, n, a);
        arith_get_f64(&args[1], from, n, b);
        if (s->div_a != 1.0)
            for (uint32_t i = 0; i < n; i++) a[i] /= s->div_a;
        if (s->div_b != 1.0)
            for (uint32_t i = 0; i < n; i++) b[i] /= s->div_b;
        arith_float_chunk(s->op, a, b, n);
        arith_put_f64(values, out->type->kind, from, n, a);
    }
    return 0;
}

/* ---- intDiv / intDivOrZero ----------------------------------------- */

/* ClickHouse's divisionLeadsToFPE on the operands' own types. */
static bool arith_division_fpe(arith_num an, arith_num bn, uint64_t au, uint64_t bu, double af,
                               double bf) {
    double bv = bn.is_float ? bf : (bn.is_signed ? (double)(int64_t)bu : (double)bu);
    if (bn.is_float ? bf == 0 : bu == 0) return true;
    if (!an.is_signed || !bn.is_signed || bv != -1) return false;
    if (an.is_float) return af == (an.bytes == 4 ? (double)FLT_MIN : DBL_MIN);
    return (int64_t)au == arith_int_min(an.bytes);
}

/* intDiv of two integers: when either is signed both are read as signed
 * of their own width (the divisor as the wider one when it is narrower),
 * exactly as ClickHouse's DivideIntegralImpl casts them. */
static int arith_int_div_ints(const arith_state *s, uint64_t au, uint64_t bu, bool wrap_min,
                              uint64_t *q, mu_err *err) {
    if (!s->a.is_signed && !s->b.is_signed) {
        if (bu == 0) return arith_error_division_by_zero(err);
        *q = au / bu;
        return 0;
    }
    int64_t as = s->a.is_signed ? (int64_t)au : arith_sign_extend(au, s->a.bytes);
    int64_t bs = (int64_t)bu;
    if (!s->b.is_signed && s->a.bytes <= s->b.bytes) bs = arith_sign_extend(bu, s->b.bytes);
    if (bs == 0) return arith_error_division_by_zero(err);
    if (bs == -1 && as == arith_int_min(s->a.bytes)) {
        if (!wrap_min) return arith_error_min_by_minus_one(err);
        *q = (uint64_t)as; /* -min wraps to min */
        return 0;
    }
    *q = (uint64_t)(as / bs);
    return 0;
}

static double arith_operand_f64(arith_num n, uint64_t u, double f, bool as_float32) {
    double v = n.is_float ? f : n.is_signed ? (double)(int64_t)u : (double)u;
    if (as_float32 && !n.is_float) v = n.is_signed ? (float)(int64_t)u : (float)u;
    return v;
}

/* ClickHouse refuses NaN and values at the float type's limits. */
static bool arith_float_in_range(arith_num n, double v) {
    double max = n.bytes == 4 ? FLT_MAX : DBL_MAX;
    return !isnan(v) && v < max && v > -max;
}

/* intDiv with a float operand: range checks on the operands, C++
 * division in float or double, range check of the quotient. */
static int arith_int_div_floats(const arith_state *s, uint64_t au, uint64_t bu, double af,
                                double bf, uint64_t *q, mu_err *err) {
    if ((s->a.is_float && !arith_float_in_range(s->a, af)) ||
        (s->b.is_float && !arith_float_in_range(s->b, bf)))
        return MU_ERR(err, MU_EILLEGAL_DIVISION,
                      "Cannot perform integer division on infinite or too large floating point "
                      "numbers");
    bool in_float32 = !(s->a.is_float && s->a.bytes == 8) && !(s->b.is_float && s->b.bytes == 8);
    double x = arith_operand_f64(s->a, au, af, in_float32);
    double y = arith_operand_f64(s->b, bu, bf, in_float32);
    if (y == 0) return arith_error_division_by_zero(err);
    if (s->a.is_signed && y == -1) {
        double min = s->a.is_float ? (s->a.bytes == 4 ? FLT_MIN : DBL_MIN)
                                   : (double)arith_int_min(s->a.bytes);
        if (x == min) return arith_error_min_by_minus_one(err);
    }
    double res = in_float32 ? (double)((float)x / (float)y) : x / y;
    if (isnan(res) || res >= (double)arith_int_max(s->r.bytes) ||
        res <= (double)arith_int_min(s->r.bytes))
        return MU_ERR(err, MU_EILLEGAL_DIVISION,
                      "Cannot perform integer division, because it will produce infinite or "
                      "too large number");
    *q = (uint64_t)(int64_t)res;
    return 0;
}

/* ClickHouse divides by a constant with a special path for the pairs
 * (U)Int32/64 by a divisor of the same signedness: there -1 negates with
 * wrapping instead of failing on the minimum. */
static bool arith_int_div_const_path(const arith_state *s, const exec_arg *args) {
    const exec_arg *divisor = &args[1];
    if (args[0].is_const || !divisor->is_const || s->a.is_float || s->b.is_float) return false;
    return s->a.bytes >= 4 && s->a.is_signed == s->b.is_signed;
}

/* One chunk of intDiv; rows of NULL (and, for intDivOrZero, the
 * divisions ClickHouse calls FPE) give 0. */
static int arith_int_div_chunk(const arith_state *s, const exec_arg *args, uint32_t from,
                               uint32_t n, bool wrap_min, uint64_t *au, uint64_t *bu,
                               double *af, double *bf, mu_err *err) {
    bool or_zero = s->op == ARITH_INT_DIV_OR_ZERO;
    bool floats = s->a.is_float || s->b.is_float;
    for (uint32_t i = 0; i < n; i++) {
        double x = floats ? af[i] : 0, y = floats ? bf[i] : 0;
        uint64_t q = 0;
        if (arith_row_is_null(args, 2, from + i) ||
            (or_zero && arith_division_fpe(s->a, s->b, au[i], bu[i], x, y))) {
            au[i] = 0;
            continue;
        }
        int rc = floats ? arith_int_div_floats(s, au[i], bu[i], x, y, &q, err)
                        : arith_int_div_ints(s, au[i], bu[i], wrap_min, &q, err);
        if (rc != 0) return rc;
        au[i] = q;
    }
    return 0;
}

static int arith_kernel_int_div(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    bool wrap_min = arith_int_div_const_path(s, args);
    bool floats = s->a.is_float || s->b.is_float;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    uint64_t au[ARITH_CHUNK], bu[ARITH_CHUNK];
    double af[ARITH_CHUNK], bf[ARITH_CHUNK];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        arith_get_operand(&args[0], s->a, from, n, au, floats ? af : NULL);
        arith_get_operand(&args[1], s->b, from, n, bu, floats ? bf : NULL);
        rc = arith_int_div_chunk(s, args, from, n, wrap_min, au, bu, af, bf, err);
        if (rc != 0) return arith_fail(out, rows, rc);
        arith_put_u64(values, out->type->kind, from, n, au);
    }
    return 0;
}

/* ---- modulo / moduloOrZero over integers ---------------------------- */

/* The type C++ computes a % b in (usual arithmetic conversions). */
static arith_num arith_cpp_common(arith_num a, arith_num b) {
    arith_num pa = a.bytes < 4 ? arith_int(4, true) : a;
    arith_num pb = b.bytes < 4 ? arith_int(4, true) : b;
    if (pa.is_signed == pb.is_signed) return arith_int(MU_MAX(pa.bytes, pb.bytes), pa.is_signed);
    arith_num u = pa.is_signed ? pb : pa, sg = pa.is_signed ? pa : pb;
    return u.bytes >= sg.bytes ? u : sg;
}

/* a % b as C++ computes it in the common type (ClickHouse's ModuloImpl). */
static uint64_t arith_cpp_mod(arith_num a, arith_num b, uint64_t au, uint64_t bu) {
    arith_num t = arith_cpp_common(a, b);
    if (t.is_signed) /* an unsigned operand is narrower than t: its value fits */
        return (uint64_t)((int64_t)au % (int64_t)bu);
    if (t.bytes == 4) return (uint32_t)au % (uint32_t)bu;
    return au % bu;
}

/* The divisor constant special case of ClickHouse (ModuloByConstantImpl)
 * for a column of (U)Int32/64 by a constant of the same signedness. Sets
 * *mode: 0 = all zero, 1 = copy the dividend, 2 = compute normally; or
 * fails. */
static int arith_mod_const_mode(const arith_state *s, const exec_arg *args, int *mode,
                                mu_err *err) {
    const exec_arg *divisor = &args[1];
    *mode = 2;
    if (args[0].is_const || !divisor->is_const || s->op != ARITH_MODULO || s->a.bytes < 4 ||
        s->a.is_signed != s->b.is_signed || ty_column_is_null(divisor->column, 0))
        return 0;
    uint64_t bu = exec_get_u64(divisor->column, 0);
    int64_t bs = (int64_t)bu;
    if (bu == 1 || (s->b.is_signed && bs == -1)) {
        *mode = 0;
        return 0;
    }
    bool too_large = s->b.is_signed
                         ? (bs > arith_int_max(s->a.bytes) || bs < arith_int_min(s->a.bytes))
                         : (s->a.bytes == 4 && bu > UINT32_MAX);
    if (too_large) {
        *mode = 1;
        return 0;
    }
    if (bu == 0) return arith_error_division_by_zero(err);
    if (s->b.is_signed && bs == arith_int_min(s->b.bytes))
        return MU_ERR(err, MU_EILLEGAL_DIVISION, "Division by the most negative number");
    return 0;
}

static int arith_modulo_chunk(const arith_state *s, const exec_arg *args, uint32_t from,
                              uint32_t n, int mode, uint64_t *a, const uint64_t *b, mu_err *err) {
    for (uint32_t i = 0; i < n; i++) {
        if (mode == 0 || arith_row_is_null(args, 2, from + i)) {
            a[i] = 0;
            continue;
        }
        if (arith_division_fpe(s->a, s->b, a[i], b[i], 0, 0)) {
            if (s->op == ARITH_MODULO)
                return b[i] == 0 ? arith_error_division_by_zero(err)
                                 : arith_error_min_by_minus_one(err);
            a[i] = 0;
            continue;
        }
        a[i] = arith_cpp_mod(s->a, s->b, a[i], b[i]);
    }
    return 0;
}

static int arith_kernel_modulo(const exec_call *call, const exec_arg *args, uint32_t rows,
                               ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    int mode = 2, rc = 0;
    bool all_null = true;
    for (uint32_t i = 0; i < rows && all_null; i++) all_null = arith_row_is_null(args, 2, i);
    if (!all_null) rc = arith_mod_const_mode(s, args, &mode, err);
    void *values;
    if (rc == 0) rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    uint64_t a[ARITH_CHUNK], b[ARITH_CHUNK];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        arith_get_u64(&args[0], from, n, a);
        arith_get_u64(&args[1], from, n, b);
        if (mode != 1) rc = arith_modulo_chunk(s, args, from, n, mode, a, b, err);
        if (rc != 0) return arith_fail(out, rows, rc);
        arith_put_u64(values, out->type->kind, from, n, a);
    }
    return 0;
}

/* ---- gcd / lcm ------------------------------------------------------ */

static uint64_t arith_gcd_u64(uint64_t x, uint64_t y) {
    while (y != 0) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* An operand (loaded with exec__load_u64) cast to the signed result type:
 * value-preserving except UInt64 into Int64, which wraps. */
static int64_t arith_cast_result(const arith_state *s, uint64_t v) {
    return arith_sign_extend(v, s->r.bytes);
}

static int arith_gcd_lcm_row(const arith_state *s, uint64_t au, uint64_t bu, uint64_t *res,
                             mu_err *err) {
    if (bu == 0 || au == 0) return arith_error_division_by_zero(err);
    if (s->a.is_signed && s->b.is_signed &&
        (((int64_t)au == arith_int_min(s->a.bytes) && (int64_t)bu == -1) ||
         ((int64_t)bu == arith_int_min(s->b.bytes) && (int64_t)au == -1)))
        return arith_error_min_by_minus_one(err);
    uint64_t ma = au, mb = bu;
    if (s->r.is_signed) {
        int64_t x = arith_cast_result(s, au), y = arith_cast_result(s, bu);
        int64_t min = arith_int_min(s->r.bytes), max = arith_int_max(s->r.bytes);
        if (x == min || x == max || y == min || y == max)
            return MU_ERR(err, MU_EDECIMAL_OVERFLOW,
                          "Intermediate result overflow (signed a = %lld, signed b = %lld, "
                          "min = %lld, max = %lld)",
                          (long long)x, (long long)y, (long long)min, (long long)max);
        ma = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        mb = y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y;
    }
    uint64_t g = arith_gcd_u64(ma, mb);
    *res = s->op == ARITH_GCD ? g : (ma / g) * mb; /* lcm wraps in the result's width */
    return 0;
}

static int arith_kernel_gcd_lcm(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    uint64_t a[ARITH_CHUNK], b[ARITH_CHUNK];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        arith_get_u64(&args[0], from, n, a);
        arith_get_u64(&args[1], from, n, b);
        for (uint32_t i = 0; i < n && rc == 0; i++) {
            uint64_t r = 0;
            if (!arith_row_is_null(args, 2, from + i))
                rc = arith_gcd_lcm_row(s, a[i], b[i], &r, err);
            a[i] = r;
        }
        if (rc != 0) return arith_fail(out, rows, rc);
        arith_put_u64(values, out->type->kind, from, n, a);
    }
    return 0;
}

/* ---- Decimal arithmetic -------------------------------------------- */

static __int128 arith_i128_get(const ty_column *c, uint32_t row) {
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_DECIMAL && arith_decimal_bytes(t) == 16) {
        __int128 v;
        memcpy(&v, ty_column_values(c) + (size_t)row * 16, 16);
        return v;
    }
    if (t->kind == TY_UINT64) return (__int128)exec_get_u64(c, row);
    return (__int128)exec_get_i64(c, row);
}

/* Rows of a Decimal, DateTime64 (ticks), DateTime or integer operand. */
static void arith_get_i128(const exec_arg *a, uint32_t from, uint32_t n, __int128 *out) {
    for (uint32_t i = 0; i < n; i++) out[i] = arith_i128_get(a->column, exec_arg_row(a, from + i));
}

static bool arith_fits(__int128 v, unsigned bytes) {
    if (bytes == 4) return v >= INT32_MIN && v <= INT32_MAX;
    if (bytes == 8) return v >= INT64_MIN && v <= INT64_MAX;
    return true;
}

static bool arith_mul_checked(__int128 x, __int128 y, unsigned bytes, __int128 *out) {
    return !__builtin_mul_overflow(x, y, out) && arith_fits(*out, bytes);
}

static int arith_decimal_row(const arith_state *s, __int128 x, __int128 y, __int128 *r,
                             mu_err *err) {
    unsigned w = s->r_bytes;
    bool ok = arith_fits(x, w) && arith_fits(y, w);
    switch (s->op) {
    case ARITH_PLUS:
    case ARITH_MINUS:
        ok = ok && arith_mul_checked(x, s->mul_a, w, &x) && arith_mul_checked(y, s->mul_b, w, &y);
        ok = ok && (s->op == ARITH_PLUS ? !__builtin_add_overflow(x, y, r)
                                        : !__builtin_sub_overflow(x, y, r));
        break;
    case ARITH_MULTIPLY:
        ok = ok && arith_mul_checked(x, y, w, r);
        break;
    default:
        MU_ASSERT(s->op == ARITH_DIVIDE);
        if (y == 0) return arith_error_division_by_zero(err);
        ok = ok && arith_mul_checked(x, s->mul_div, w, &x);
        if (ok && y == -1) ok = !__builtin_sub_overflow((__int128)0, x, r); /* -min */
        else if (ok) *r = x / y;
        break;
    }
    if (!ok || !arith_fits(*r, w)) return arith_error_decimal_overflow(err);
    return 0;
}

static void arith_decimal_put(uint8_t *p, unsigned bytes, uint32_t row, __int128 v) {
    if (bytes == 4) {
        int32_t x = (int32_t)v;
        memcpy(p + (size_t)row * 4, &x, 4);
    } else if (bytes == 8) {
        int64_t x = (int64_t)v;
        memcpy(p + (size_t)row * 8, &x, 8);
    } else {
        memcpy(p + (size_t)row * 16, &v, 16);
    }
}

static int arith_kernel_decimal(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    __int128 a[ARITH_CHUNK / 2], b[ARITH_CHUNK / 2];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK / 2) {
        uint32_t n = MU_MIN(ARITH_CHUNK / 2, rows - from);
        arith_get_i128(&args[0], from, n, a);
        arith_get_i128(&args[1], from, n, b);
        for (uint32_t i = 0; i < n && rc == 0; i++) {
            __int128 r = 0;
            if (!arith_row_is_null(args, 2, from + i))
                rc = arith_decimal_row(s, a[i], b[i], &r, err);
            arith_decimal_put(values, s->r_bytes, from + i, r);
        }
        if (rc != 0) return arith_fail(out, rows, rc);
    }
    return 0;
}

/* ---- dates ----------------------------------------------------------- */

/* date +- number, as addDays/addSeconds/subtractDays/subtractSeconds:
 * the number is truncated to Int64, the result wraps in the date's type. */
static int arith_kernel_date_add(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    const exec_arg *date = &args[s->date_index], *delta = &args[1 - s->date_index];
    bool float_delta = exec_type_is_float(call->arg_types[1 - s->date_index]);
    uint64_t ticks = (uint64_t)s->ticks;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    uint64_t d[ARITH_CHUNK], k[ARITH_CHUNK];
    double f[ARITH_CHUNK];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        arith_get_u64(date, from, n, d);
        if (float_delta) {
            arith_get_f64(delta, from, n, f);
            for (uint32_t i = 0; i < n; i++) k[i] = (uint64_t)arith_f64_to_i64(f[i]);
        } else {
            arith_get_u64(delta, from, n, k);
        }
        if (s->op == ARITH_MINUS)
            for (uint32_t i = 0; i < n; i++) d[i] -= k[i] * ticks;
        else
            for (uint32_t i = 0; i < n; i++) d[i] += k[i] * ticks;
        arith_put_u64(values, out->type->kind, from, n, d);
    }
    return 0;
}

/* Date - Date and DateTime - DateTime: Int32 (wrapping). */
static int arith_kernel_date_diff(const exec_call *call, const exec_arg *args, uint32_t rows,
                                  ty_column *out, mu_err *err) {
    (void)call;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    uint64_t a[ARITH_CHUNK], b[ARITH_CHUNK];
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        arith_get_u64(&args[0], from, n, a);
        arith_get_u64(&args[1], from, n, b);
        for (uint32_t i = 0; i < n; i++) a[i] -= b[i];
        arith_put_u64(values, TY_INT32, from, n, a);
    }
    return 0;
}

/* ---- unary: negate and abs ------------------------------------------ */

static void arith_unary_chunk(const arith_state *s, const exec_arg *arg, uint32_t from,
                              uint32_t n, void *values, ty_kind kind) {
    bool negate = s->op == ARITH_NEGATE;
    if (s->a.is_float) {
        double v[ARITH_CHUNK];
        arith_get_f64(arg, from, n, v);
        for (uint32_t i = 0; i < n; i++) v[i] = negate ? -v[i] : fabs(v[i]);
        arith_put_f64(values, kind, from, n, v);
        return;
    }
    uint64_t v[ARITH_CHUNK];
    arith_get_u64(arg, from, n, v);
    if (negate)
        for (uint32_t i = 0; i < n; i++) v[i] = (uint64_t)0 - v[i];
    else if (s->a.is_signed)
        for (uint32_t i = 0; i < n; i++) v[i] = (int64_t)v[i] < 0 ? (uint64_t)0 - v[i] : v[i];
    arith_put_u64(values, kind, from, n, v);
}

static int arith_kernel_unary(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    const arith_state *s = call->state;
    bool decimal = call->arg_types[0]->kind == TY_DECIMAL;
    void *values;
    int rc = arith_out(out, rows, &values, err);
    if (rc != 0) return rc;
    for (uint32_t from = 0; from < rows; from += ARITH_CHUNK) {
        uint32_t n = MU_MIN(ARITH_CHUNK, rows - from);
        if (!decimal) {
            arith_unary_chunk(s, &args[0], from, n, values, out->type->kind);
            continue;
        }
        for (uint32_t i = 0; i < n; i++) {
            __int128 v = arith_i128_get(args[0].column, exec_arg_row(&args[0], from + i));
            unsigned __int128 u = (unsigned __int128)v;
            bool flip = s->op == ARITH_NEGATE || v < 0;
            arith_decimal_put(values, s->r_bytes, from + i,
                              (__int128)(flip ? (unsigned __int128)0 - u : u));
        }
    }
    return 0;
}

/* ---- binding ----------------------------------------------------------- */

static ty_type *arith_decimal_type(mu_arena *arena, unsigned precision, unsigned scale,
                                   mu_err *err) {
    ty_type *d = mu_arena_calloc(arena, 1, sizeof(*d), err);
    if (d == NULL) return NULL;
    d->kind = TY_DECIMAL;
    d->precision = (uint8_t)precision;
    d->scale = (uint8_t)scale;
    return d;
}

/* Scale and storage width of a Decimal, DateTime64 (precision = scale,
 * Int64 ticks), DateTime (seconds) or integer operand in decimal math. */
static void arith_decimal_shape(const ty_type *t, unsigned *scale, unsigned *bytes) {
    if (t->kind == TY_DECIMAL) {
        *scale = t->scale;
        *bytes = arith_decimal_bytes(t);
    } else if (t->kind == TY_DATETIME64) {
        *scale = t->precision;
        *bytes = 8;
    } else {
        *scale = 0;
        *bytes = 0; /* not a decimal */
    }
}

/* Decimal plus/minus/multiply/divide (ClickHouse's decimalResultType):
 * Decimal op Decimal gives the wider storage at its maximum precision
 * with scale max(S1, S2) (plus, minus), S1 + S2 (multiply) or S1
 * (divide); Decimal op integer keeps the Decimal's type. */
static int arith_bind_decimal(exec_call *call, arith_state *s, mu_arena *arena, mu_err *err) {
    const ty_type *ta = call->arg_types[0], *tb = call->arg_types[1];
    unsigned sa, ba, sb, bb;
    arith_decimal_shape(ta, &sa, &ba);
    arith_decimal_shape(tb, &sb, &bb);
    if (s->op != ARITH_PLUS && s->op != ARITH_MINUS && s->op != ARITH_MULTIPLY &&
        s->op != ARITH_DIVIDE)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "Function %s is not supported for Decimal arguments",
                      call->function->name);
    unsigned rb = MU_MAX(ba, bb), precision, scale;
    if (ba != 0 && bb != 0) {
        precision = arith_decimal_max_precision(rb);
        scale = s->op == ARITH_MULTIPLY ? sa + sb : s->op == ARITH_DIVIDE ? sa : MU_MAX(sa, sb);
        if (s->op == ARITH_DIVIDE && sa + sb > precision)
            return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Overflow during decimal division");
        if (scale > precision)
            return MU_ERR(err, MU_EOUT_OF_BOUND, "Scale %u is out of bounds (max scale: %u)", scale,
                          precision);
    } else {
        const ty_type *d = ba != 0 ? ta : tb;
        precision = d->precision;
        scale = d->scale;
    }
    s->r_bytes = rb;
    if (s->op == ARITH_PLUS || s->op == ARITH_MINUS) {
        s->mul_a = ty_decimal_pow10(scale - (ba ? sa : 0));
        s->mul_b = ty_decimal_pow10(scale - (bb ? sb : 0));
    } else if (s->op == ARITH_DIVIDE) {
        /* a * 10^Sb / b, or for an integer dividend a * 10^(2S) / b. */
        if (ba == 0 && 2 * sb > 38) return arith_error_decimal_overflow(err);
        s->mul_div = bb == 0 ? 1 : ba == 0 ? ty_decimal_pow10(2 * sb) : ty_decimal_pow10(sb);
    }
    ty_type *r = arith_decimal_type(arena, precision, scale, err);
    if (r == NULL) return err->code;
    call->result_type = r;
    call->kernel = arith_kernel_decimal;
    return 0;
}

/* Decimal with a float: both as Float64. */
static int arith_bind_decimal_float(exec_call *call, arith_state *s, mu_err *err) {
    const ty_type *ta = call->arg_types[0], *tb = call->arg_types[1];
    if (s->op != ARITH_PLUS && s->op != ARITH_MINUS && s->op != ARITH_MULTIPLY &&
        s->op != ARITH_DIVIDE)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "Function %s is not supported for Decimal arguments",
                      call->function->name);
    if (ta->kind == TY_DECIMAL) s->div_a = (double)ty_decimal_pow10(ta->scale);
    if (tb->kind == TY_DECIMAL) s->div_b = (double)ty_decimal_pow10(tb->scale);
    call->result_type = ty_type_builtin(TY_FLOAT64);
    call->kernel = arith_kernel_float;
    return 0;
}

/* Numbers (integers, Bool, floats) by NumberTraits. */
static int arith_bind_numbers(exec_call *call, arith_state *s, mu_err *err) {
    arith_num a = s->a, b = s->b;
    bool any_float = a.is_float || b.is_float, any_signed = a.is_signed || b.is_signed;
    unsigned wide = arith_next_size(MU_MAX(a.bytes, b.bytes));
    arith_num r;
    exec_kernel_fn kernel = any_float ? arith_kernel_float : arith_kernel_int;
    switch (s->op) {
    case ARITH_PLUS: case ARITH_MULTIPLY:
        r = any_float ? arith_float64 : arith_int(wide, any_signed);
        break;
    case ARITH_MINUS:
        r = any_float ? arith_float64 : arith_int(wide, true);
        break;
    case ARITH_DIVIDE:
        r = arith_float64;
        kernel = arith_kernel_float;
        break;
    case ARITH_INT_DIV: case ARITH_INT_DIV_OR_ZERO:
        r = arith_int(a.bytes, any_signed);
        kernel = arith_kernel_int_div;
        break;
    case ARITH_MODULO: case ARITH_MODULO_OR_ZERO:
        r = any_float ? arith_float64
                      : arith_int(a.is_signed ? arith_next_size(b.bytes) : b.bytes, a.is_signed);
        kernel = any_float ? arith_kernel_float : arith_kernel_modulo;
        break;
    default:
        MU_ASSERT(s->op == ARITH_GCD || s->op == ARITH_LCM);
        if (any_float) return arith_error_types(call, err);
        r = arith_int(wide, any_signed);
        kernel = arith_kernel_gcd_lcm;
        break;
    }
    s->r = r;
    call->result_type = ty_type_builtin(arith_kind_of(r));
    call->kernel = kernel;
    return 0;
}

/* plus/minus with exactly one date operand and a number: addDays or
 * addSeconds (subtract...), the number second for minus. */
static int arith_bind_date_number(exec_call *call, arith_state *s, uint32_t date_index,
                                  mu_err *err) {
    const ty_type *date = call->arg_types[date_index];
    const ty_type *delta = call->arg_types[1 - date_index];
    bool days = date->kind == TY_DATE || date->kind == TY_DATE32;
    const char *name = s->op == ARITH_PLUS ? (days ? "addDays" : "addSeconds")
                                           : (days ? "subtractDays" : "subtractSeconds");
    if (s->op == ARITH_MINUS && date_index == 1)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Wrong order of arguments for function minus: argument of type Interval "
                      "cannot be first");
    if (arith_class_of(delta) == ARITH_CLASS_DECIMAL)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Second argument for function %s (delta) must be a number", name);
    s->date_index = date_index;
    if (date->kind == TY_DATETIME64) s->ticks = (int64_t)ty_decimal_pow10(date->precision);
    call->result_type = date;
    call->kernel = arith_kernel_date_add;
    return 0;
}

/* Everything with a date or time operand. */
static int arith_bind_dates(exec_call *call, arith_state *s, mu_arena *arena, mu_err *err) {
    const ty_type *ta = call->arg_types[0], *tb = call->arg_types[1];
    arith_class ca = arith_class_of(ta), cb = arith_class_of(tb);
    bool a_date = ca >= ARITH_CLASS_DATE && ca <= ARITH_CLASS_DATETIME64;
    bool b_date = cb >= ARITH_CLASS_DATE && cb <= ARITH_CLASS_DATETIME64;
    bool a_num = ca <= ARITH_CLASS_DECIMAL, b_num = cb <= ARITH_CLASS_DECIMAL;
    if ((s->op == ARITH_PLUS || s->op == ARITH_MINUS) && a_date != b_date && (a_num || b_num))
        return arith_bind_date_number(call, s, a_date ? 0 : 1, err);
    bool dt64_a = ca == ARITH_CLASS_DATETIME64 || ca == ARITH_CLASS_DATETIME;
    bool dt64_b = cb == ARITH_CLASS_DATETIME64 || cb == ARITH_CLASS_DATETIME;
    if (s->op == ARITH_MINUS && dt64_a && dt64_b &&
        (ca == ARITH_CLASS_DATETIME64 || cb == ARITH_CLASS_DATETIME64)) {
        /* DateTime64 - DateTime64/DateTime: Decimal(18, max scale). */
        unsigned sa = ca == ARITH_CLASS_DATETIME64 ? ta->precision : 0;
        unsigned sb = cb == ARITH_CLASS_DATETIME64 ? tb->precision : 0;
        unsigned scale = MU_MAX(sa, sb);
        s->r_bytes = 8;
        s->mul_a = ty_decimal_pow10(scale - sa);
        s->mul_b = ty_decimal_pow10(scale - sb);
        ty_type *r = arith_decimal_type(arena, 18, scale, err);
        if (r == NULL) return err->code;
        call->result_type = r;
        call->kernel = arith_kernel_decimal;
        return 0;
    }
    bool same_date = ca == cb && (ca == ARITH_CLASS_DATE || ca == ARITH_CLASS_DATETIME);
    if (s->op == ARITH_MINUS && same_date) {
        call->result_type = ty_type_builtin(TY_INT32);
        call->kernel = arith_kernel_date_diff;
        return 0;
    }
    if ((s->op == ARITH_MODULO || s->op == ARITH_MODULO_OR_ZERO) &&
        (ca == ARITH_CLASS_DATE || ca == ARITH_CLASS_DATETIME) &&
        (cb == ARITH_CLASS_INT || cb == ARITH_CLASS_FLOAT)) {
        /* Date % Integral -> the integral's type; Date % Float -> Float64. */
        s->r = cb == ARITH_CLASS_FLOAT ? arith_float64 : arith_num_of(tb);
        call->result_type = cb == ARITH_CLASS_FLOAT ? ty_type_builtin(TY_FLOAT64) : tb;
        call->kernel = cb == ARITH_CLASS_FLOAT ? arith_kernel_float : arith_kernel_modulo;
        return 0;
    }
    return arith_error_types(call, err);
}

static int arith_bind_binary(exec_call *call, mu_arena *arena, arith_op op, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    const ty_type *ta = call->arg_types[0], *tb = call->arg_types[1];
    arith_class ca = arith_class_of(ta), cb = arith_class_of(tb);
    arith_state *s = arith_state_new(call, arena, op, err);
    if (s == NULL) return err->code;
    s->a = arith_num_of(ta);
    s->b = arith_num_of(tb);
    if (ta->kind == TY_ARRAY || tb->kind == TY_ARRAY) {
        if (op <= ARITH_DIVIDE)
            return MU_ERR(err, MU_ENOT_SUPPORTED, "Function %s over arrays is not supported",
                          call->function->name);
        return arith_error_types(call, err);
    }
    if (ca == ARITH_CLASS_OTHER || cb == ARITH_CLASS_OTHER) return arith_error_types(call, err);
    if (ca > ARITH_CLASS_DECIMAL || cb > ARITH_CLASS_DECIMAL)
        return arith_bind_dates(call, s, arena, err);
    if (ca == ARITH_CLASS_DECIMAL || cb == ARITH_CLASS_DECIMAL) {
        if (op == ARITH_GCD || op == ARITH_LCM) return arith_error_types(call, err);
        if (ca == ARITH_CLASS_FLOAT || cb == ARITH_CLASS_FLOAT)
            return arith_bind_decimal_float(call, s, err);
        return arith_bind_decimal(call, s, arena, err);
    }
    return arith_bind_numbers(call, s, err);
}

static int arith_bind_unary(exec_call *call, mu_arena *arena, arith_op op, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    arith_class c = arith_class_of(t);
    arith_state *s = arith_state_new(call, arena, op, err);
    if (s == NULL) return err->code;
    if (c != ARITH_CLASS_INT && c != ARITH_CLASS_FLOAT && c != ARITH_CLASS_DECIMAL) {
        char name[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument of function %s",
                      ty_type_name(t, name, sizeof(name)), call->function->name);
    }
    call->kernel = arith_kernel_unary;
    if (c == ARITH_CLASS_DECIMAL) {
        s->r_bytes = arith_decimal_bytes(t);
        call->result_type = t;
        return 0;
    }
    s->a = arith_num_of(t);
    if (s->a.is_float) s->r = s->a;
    else if (op == ARITH_NEGATE)
        s->r = arith_int(s->a.is_signed ? s->a.bytes : arith_next_size(s->a.bytes), true);
    else
        s->r = arith_int(s->a.bytes, false);
    call->result_type = ty_type_builtin(arith_kind_of(s->r));
    return 0;
}

#define ARITH_BINARY(fn, op)                                                                \
    static int fn(exec_call *call, mu_arena *arena, mu_err *err) {                          \
        return arith_bind_binary(call, arena, op, err);                                     \
    }

ARITH_BINARY(arith_bind_plus, ARITH_PLUS)
ARITH_BINARY(arith_bind_minus, ARITH_MINUS)
ARITH_BINARY(arith_bind_multiply, ARITH_MULTIPLY)
ARITH_BINARY(arith_bind_divide, ARITH_DIVIDE)
ARITH_BINARY(arith_bind_int_div, ARITH_INT_DIV)
ARITH_BINARY(arith_bind_int_div_or_zero, ARITH_INT_DIV_OR_ZERO)
ARITH_BINARY(arith_bind_modulo, ARITH_MODULO)
ARITH_BINARY(arith_bind_modulo_or_zero, ARITH_MODULO_OR_ZERO)
ARITH_BINARY(arith_bind_gcd, ARITH_GCD)
ARITH_BINARY(arith_bind_lcm, ARITH_LCM)

static int arith_bind_negate(exec_call *call, mu_arena *arena, mu_err *err) {
    return arith_bind_unary(call, arena, ARITH_NEGATE, err);
}

static int arith_bind_abs(exec_call *call, mu_arena *arena, mu_err *err) {
    return arith_bind_unary(call, arena, ARITH_ABS, err);
}

static const exec_function arith_plus = {"plus", 0, arith_bind_plus};
static const exec_function arith_minus = {"minus", 0, arith_bind_minus};
static const exec_function arith_multiply = {"multiply", 0, arith_bind_multiply};
static const exec_function arith_divide = {"divide", 0, arith_bind_divide};
static const exec_function arith_int_div = {"intDiv", 0, arith_bind_int_div};
static const exec_function arith_int_div_or_zero = {"intDivOrZero", 0, arith_bind_int_div_or_zero};
static const exec_function arith_modulo = {"modulo", 0, arith_bind_modulo};
static const exec_function arith_modulo_or_zero = {"moduloOrZero", 0, arith_bind_modulo_or_zero};
static const exec_function arith_negate = {"negate", 0, arith_bind_negate};
static const exec_function arith_abs = {"abs", EXEC_FN_CASE_INSENSITIVE, arith_bind_abs};
static const exec_function arith_gcd = {"gcd", 0, arith_bind_gcd};
static const exec_function arith_lcm = {"lcm", 0, arith_bind_lcm};

const exec_function *const exec__functions_arith[] = {
    &arith_plus,   &arith_minus,  &arith_multiply, &arith_divide,
    &arith_int_div, &arith_int_div_or_zero, &arith_modulo, &arith_modulo_or_zero,
    &arith_negate, &arith_abs,    &arith_gcd,      &arith_lcm,
    NULL,
};
