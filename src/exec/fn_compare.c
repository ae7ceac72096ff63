/* fn_compare.c: the comparison functions equals, notEquals, less, greater,
 * lessOrEquals, greaterOrEquals (UInt8), as ClickHouse's FunctionComparison
 * decides them: numbers of any mix compared exactly by value (NaN compares
 * false, != true), Decimal and DateTime64 rescaled with ClickHouse's
 * overflow error, dates of different kinds by instant, strings bytewise
 * (zero-padded when a FixedString takes part), UUIDs in ClickHouse's order
 * (second half first), Enums by value, arrays lexicographically, and a
 * String constant against any other type parsed as that type (once per
 * block; an unparsable constant fails at bind: against a number it is read
 * as ClickHouse's convertFieldToType reads it, text left over being
 * TYPE_MISMATCH). Bind chooses one plan per
 * call; the numeric plans have typed loops for a column against a
 * constant and for two columns of the same storage.
 * Reference: ClickHouse src/Functions/FunctionsComparison.h,
 * src/Core/DecimalComparison.h, src/Core/AccurateComparison.h.
 */
#include "exec/exec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum cmp_op { CMP_EQ, CMP_NE, CMP_LT, CMP_GT, CMP_LE, CMP_GE } cmp_op;

typedef enum cmp_mode {
    CMP_MODE_NONE,    /* not planned yet */
    CMP_MODE_CONST,   /* the result is fixed at bind */
    CMP_MODE_NUMBER,  /* machine numbers (lanes below) */
    CMP_MODE_SCALED,  /* Decimal, DateTime64 and mixed dates as scaled Int128 */
    CMP_MODE_STRING,  /* String / FixedString bytes */
    CMP_MODE_UUID,
    CMP_MODE_GENERIC, /* equal types: ty_column_compare_rows */
    CMP_MODE_ARRAY,   /* arrays whose element types differ */
} cmp_mode;

/* How numeric sides are compared after bind puts the "smaller" lane left
 * (swapping the arguments and mirroring the operator). */
typedef enum cmp_num_kind {
    CMP_NUM_I64,     /* both fit Int64 */
    CMP_NUM_U64,     /* both unsigned */
    CMP_NUM_F64,     /* both floats (or Decimal/DateTime64 against a float) */
    CMP_NUM_I64_U64, /* signed against UInt64 */
    CMP_NUM_I64_F64, /* integer (not UInt64) against a float */
    CMP_NUM_U64_F64, /* UInt64 against a float */
} cmp_num_kind;

/* Storage of a numeric column's values. */
typedef enum cmp_storage {
    CMP_S_U8, CMP_S_U16, CMP_S_U32, CMP_S_U64, CMP_S_I8, CMP_S_I16, CMP_S_I32, CMP_S_I64,
    CMP_S_F32, CMP_S_F64, CMP_S_NONE,
} cmp_storage;

/* One side of a scaled comparison: value (or days turned into midnight in
 * tz) times mul. */
typedef struct cmp_side {
    bool days;
    const ty_tz *tz;
    __int128 mul;
} cmp_side;

/* Element access of an Array comparison across element types. */
typedef enum cmp_elem { CMP_ELEM_I64, CMP_ELEM_U64, CMP_ELEM_F64, CMP_ELEM_BYTES } cmp_elem;

typedef struct cmp_state {
    cmp_op op;          /* as applied to (left, right) after any swap */
    cmp_mode mode;
    uint8_t const_value;
    bool swap;          /* NUMBER: args[1] is the left side */
    cmp_num_kind num;
    double div[2];      /* NUMBER/F64: Decimal and DateTime64 sides are divided */
    cmp_side side[2];   /* SCALED */
    unsigned width;     /* SCALED: ClickHouse's compare width in bytes, 0 = none */
    bool zero_padded;   /* STRING */
    cmp_elem elem;      /* ARRAY */
    /* A String constant read as parse_type in each block, or -1. */
    int parse_index;
    const ty_type *parse_type;
} cmp_state;

/* Result of a three-way comparison and how each operator maps it. */
enum { CMP3_LESS, CMP3_EQUAL, CMP3_GREATER, CMP3_UNORDERED };

static const uint8_t cmp_table[6][4] = {
    [CMP_EQ] = {0, 1, 0, 0}, [CMP_NE] = {1, 0, 1, 1}, [CMP_LT] = {1, 0, 0, 0},
    [CMP_GT] = {0, 0, 1, 0}, [CMP_LE] = {1, 1, 0, 0}, [CMP_GE] = {0, 1, 1, 0},
};

static cmp_op cmp_mirror(cmp_op op) {
    switch (op) {
    case CMP_LT: return CMP_GT;
    case CMP_GT: return CMP_LT;
    case CMP_LE: return CMP_GE;
    case CMP_GE: return CMP_LE;
    default: return op;
    }
}

static int cmp3_of(int c) { return c < 0 ? CMP3_LESS : c > 0 ? CMP3_GREATER : CMP3_EQUAL; }

/* ---- exact mixed comparisons ---------------------------------------- */

static int cmp3_i64_u64(int64_t a, uint64_t b) {
    if (a < 0) return CMP3_LESS;
    return (uint64_t)a < b ? CMP3_LESS : (uint64_t)a > b ? CMP3_GREATER : CMP3_EQUAL;
}

/* An integer against a double exactly (no rounding of the integer). */
static int cmp3_i64_f64(int64_t a, double b) {
    if (isnan(b)) return CMP3_UNORDERED;
    if (b >= 9223372036854775808.0) return CMP3_LESS;
    if (b < -9223372036854775808.0) return CMP3_GREATER;
    double t = trunc(b);
    int64_t ti = (int64_t)t;
    if (a != ti) return a < ti ? CMP3_LESS : CMP3_GREATER;
    double frac = b - t;
    return frac > 0 ? CMP3_LESS : frac < 0 ? CMP3_GREATER : CMP3_EQUAL;
}

static int cmp3_u64_f64(uint64_t a, double b) {
    if (isnan(b)) return CMP3_UNORDERED;
    if (b >= 18446744073709551616.0) return CMP3_LESS;
    if (b < 0) return CMP3_GREATER;
    double t = trunc(b);
    uint64_t ti = (uint64_t)t;
    if (a != ti) return a < ti ? CMP3_LESS : CMP3_GREATER;
    return b - t > 0 ? CMP3_LESS : CMP3_EQUAL;
}

/* ---- typed loops ------------------------------------------------------ */

#define CMP_LOOP(out, n, EXPR)                                                              \
    for (uint32_t i = 0; i < (n); i++) (out)[i] = (uint8_t)(EXPR)

/* out[i] = X op Y for the six operators; X and Y are expressions of i. */
#define CMP_OPS(op, out, n, X, Y)                                                           \
    switch (op) {                                                                           \
    case CMP_EQ: CMP_LOOP(out, n, (X) == (Y)); break;                                       \
    case CMP_NE: CMP_LOOP(out, n, (X) != (Y)); break;                                       \
    case CMP_LT: CMP_LOOP(out, n, (X) < (Y)); break;                                        \
    case CMP_GT: CMP_LOOP(out, n, (X) > (Y)); break;                                        \
    case CMP_LE: CMP_LOOP(out, n, (X) <= (Y)); break;                                       \
    case CMP_GE: CMP_LOOP(out, n, (X) >= (Y)); break;                                       \
    }

static cmp_storage cmp_storage_of(const ty_type *t) {
    switch (t->kind) {
    case TY_UINT8: case TY_BOOL: return CMP_S_U8;
    case TY_UINT16: case TY_DATE: return CMP_S_U16;
    case TY_UINT32: case TY_DATETIME: return CMP_S_U32;
    case TY_UINT64: return CMP_S_U64;
    case TY_INT8: case TY_ENUM8: return CMP_S_I8;
    case TY_INT16: case TY_ENUM16: return CMP_S_I16;
    case TY_INT32: case TY_DATE32: return CMP_S_I32;
    case TY_INT64: case TY_DATETIME64: return CMP_S_I64;
    case TY_FLOAT32: return CMP_S_F32;
    case TY_FLOAT64: return CMP_S_F64;
    case TY_DECIMAL:
        return t->precision <= 9 ? CMP_S_I32 : t->precision <= 18 ? CMP_S_I64 : CMP_S_NONE;
    default: return CMP_S_NONE;
    }
}

static cmp_storage cmp_column_storage(const ty_column *c) {
    return cmp_storage_of(ty_type_strip_nullable(c->type));
}

#define CMP_COL_SCALAR(T, L)                                                                \
    do {                                                                                    \
        const T *p_ = (const T *)(const void *)ty_column_values(col);                       \
        CMP_OPS(op, out, n, (L)p_[i], v);                                                   \
        return true;                                                                        \
    } while (0)

/* A column against a scalar in the Int64 lane; false if its storage is not
 * an integer one. */
static bool cmp_col_i64(const ty_column *col, int64_t v, cmp_op op, uint32_t n, uint8_t *out) {
    switch (cmp_column_storage(col)) {
    case CMP_S_U8: CMP_COL_SCALAR(uint8_t, int64_t);
    case CMP_S_U16: CMP_COL_SCALAR(uint16_t, int64_t);
    case CMP_S_U32: CMP_COL_SCALAR(uint32_t, int64_t);
    case CMP_S_I8: CMP_COL_SCALAR(int8_t, int64_t);
    case CMP_S_I16: CMP_COL_SCALAR(int16_t, int64_t);
    case CMP_S_I32: CMP_COL_SCALAR(int32_t, int64_t);
    case CMP_S_I64: CMP_COL_SCALAR(int64_t, int64_t);
    default: return false;
    }
}

static bool cmp_col_u64(const ty_column *col, uint64_t v, cmp_op op, uint32_t n, uint8_t *out) {
    switch (cmp_column_storage(col)) {
    case CMP_S_U8: CMP_COL_SCALAR(uint8_t, uint64_t);
    case CMP_S_U16: CMP_COL_SCALAR(uint16_t, uint64_t);
    case CMP_S_U32: CMP_COL_SCALAR(uint32_t, uint64_t);
    case CMP_S_U64: CMP_COL_SCALAR(uint64_t, uint64_t);
    default: return false;
    }
}

static bool cmp_col_f64(const ty_column *col, double v, cmp_op op, uint32_t n, uint8_t *out) {
    switch (cmp_column_storage(col)) {
    case CMP_S_F32: CMP_COL_SCALAR(float, double);
    case CMP_S_F64: CMP_COL_SCALAR(double, double);
    default: return false;
    }
}

#define CMP_COL_COL(T)                                                                      \
    do {                                                                                    \
        const T *pa_ = (const T *)(const void *)ty_column_values(a);                        \
        const T *pb_ = (const T *)(const void *)ty_column_values(b);                        \
        CMP_OPS(op, out, n, pa_[i], pb_[i]);                                                \
        return true;                                                                        \
    } while (0)

/* Two columns of the same storage; false otherwise. */
static bool cmp_col_col(const ty_column *a, const ty_column *b, cmp_op op, uint32_t n,
                        uint8_t *out) {
    cmp_storage s = cmp_column_storage(a);
    if (s != cmp_column_storage(b)) return false;
    switch (s) {
    case CMP_S_U8: CMP_COL_COL(uint8_t);
    case CMP_S_U16: CMP_COL_COL(uint16_t);
    case CMP_S_U32: CMP_COL_COL(uint32_t);
    case CMP_S_U64: CMP_COL_COL(uint64_t);
    case CMP_S_I8: CMP_COL_COL(int8_t);
    case CMP_S_I16: CMP_COL_COL(int16_t);
    case CMP_S_I32: CMP_COL_COL(int32_t);
    case CMP_S_I64: CMP_COL_COL(int64_t);
    case CMP_S_F32: CMP_COL_COL(float);
    case CMP_S_F64: CMP_COL_COL(double);
    default: return false;
    }
}

/* ---- numbers ----------------------------------------------------------- */

/* The plain lanes (same representation on both sides) without arrays:
 * a column against a constant, or two columns of the same storage. */
static bool cmp_number_fast(const cmp_state *s, const exec_arg *x, const exec_arg *y,
                            uint32_t n, uint8_t *out) {
    if (s->div[0] != 1.0 || s->div[1] != 1.0) return false;
    if (x->is_const == y->is_const)
        return !x->is_const && cmp_col_col(x->column, y->column, s->op, n, out);
    const ty_column *col = x->is_const ? y->column : x->column;
    const ty_column *c = x->is_const ? x->column : y->column;
    cmp_op op = x->is_const ? cmp_mirror(s->op) : s->op;
    switch (s->num) {
    case CMP_NUM_I64: return cmp_col_i64(col, exec_get_i64(c, 0), op, n, out);
    case CMP_NUM_U64: return cmp_col_u64(col, exec_get_u64(c, 0), op, n, out);
    case CMP_NUM_F64: return cmp_col_f64(col, exec_get_f64(c, 0), op, n, out);
    default: return false;
    }
}

/* Rows are compared in chunks of CMP_CHUNK values kept on the stack. */
#define CMP_CHUNK 1024u

#define CMP_GET_LOOP(T, L)                                                                  \
    do {                                                                                    \
        const T *p_ = (const T *)(const void *)ty_column_values(a->column) + from;          \
        for (uint32_t i = 0; i < n; i++) out[i] = (L)p_[i];                                 \
    } while (0)

/* Rows [from, from + n) of a numeric argument in lane type L via getter G
 * (the slow path for storages without a typed loop). */
#define CMP_DEFINE_GET(name, L, G)                                                          \
    static void name(const exec_arg *a, uint32_t from, uint32_t n, L *out) {                \
        if (a->is_const) {                                                                  \
            L v = G(a->column, 0);                                                          \
            for (uint32_t i = 0; i < n; i++) out[i] = v;                                    \
            return;                                                                         \
        }                                                                                   \
        switch (cmp_column_storage(a->column)) {                                            \
        case CMP_S_U8: CMP_GET_LOOP(uint8_t, L); return;                                    \
        case CMP_S_U16: CMP_GET_LOOP(uint16_t, L); return;                                  \
        case CMP_S_U32: CMP_GET_LOOP(uint32_t, L); return;                                  \
        case CMP_S_U64: CMP_GET_LOOP(uint64_t, L); return;                                  \
        case CMP_S_I8: CMP_GET_LOOP(int8_t, L); return;                                     \
        case CMP_S_I16: CMP_GET_LOOP(int16_t, L); return;                                   \
        case CMP_S_I32: CMP_GET_LOOP(int32_t, L); return;                                   \
        case CMP_S_I64: CMP_GET_LOOP(int64_t, L); return;                                   \
        default:                                                                            \
            for (uint32_t i = 0; i < n; i++) out[i] = G(a->column, from + i);               \
            return;                                                                         \
        }                                                                                   \
    }

CMP_DEFINE_GET(cmp_get_i64, int64_t, exec_get_i64)
CMP_DEFINE_GET(cmp_get_u64, uint64_t, exec_get_u64)

/* Floats are read directly; everything else (and Decimal, DateTime64
 * divided by their scale) through exec_get_f64. */
static void cmp_get_f64(const exec_arg *a, uint32_t from, uint32_t n, double div, double *out) {
    cmp_storage st = a->is_const ? CMP_S_NONE : cmp_column_storage(a->column);
    if (st == CMP_S_F32) CMP_GET_LOOP(float, double);
    else if (st == CMP_S_F64) CMP_GET_LOOP(double, double);
    else
        for (uint32_t i = 0; i < n; i++)
            out[i] = exec_get_f64(a->column, exec_arg_row(a, from + i));
    if (div != 1.0)
        for (uint32_t i = 0; i < n; i++) out[i] /= div;
}

/* One chunk of a NUMBER comparison through the lanes. */
static void cmp_number_chunk(const cmp_state *s, const exec_arg *x, const exec_arg *y,
                             uint32_t from, uint32_t n, uint8_t *out) {
    union {
        int64_t i[CMP_CHUNK];
        uint64_t u[CMP_CHUNK];
        double f[CMP_CHUNK];
    } a, b;
    const uint8_t *t = cmp_table[s->op];
    switch (s->num) {
    case CMP_NUM_I64:
        cmp_get_i64(x, from, n, a.i);
        cmp_get_i64(y, from, n, b.i);
        CMP_OPS(s->op, out, n, a.i[i], b.i[i]);
        return;
    case CMP_NUM_U64:
        cmp_get_u64(x, from, n, a.u);
        cmp_get_u64(y, from, n, b.u);
        CMP_OPS(s->op, out, n, a.u[i], b.u[i]);
        return;
    case CMP_NUM_F64:
        cmp_get_f64(x, from, n, s->div[0], a.f);
        cmp_get_f64(y, from, n, s->div[1], b.f);
        CMP_OPS(s->op, out, n, a.f[i], b.f[i]);
        return;
    case CMP_NUM_I64_U64:
        cmp_get_i64(x, from, n, a.i);
        cmp_get_u64(y, from, n, b.u);
        CMP_LOOP(out, n, t[cmp3_i64_u64(a.i[i], b.u[i])]);
        return;
    case CMP_NUM_I64_F64:
        cmp_get_i64(x, from, n, a.i);
        cmp_get_f64(y, from, n, s->div[1], b.f);
        CMP_LOOP(out, n, t[cmp3_i64_f64(a.i[i], b.f[i])]);
        return;
    case CMP_NUM_U64_F64:
        cmp_get_u64(x, from, n, a.u);
        cmp_get_f64(y, from, n, s->div[1], b.f);
        CMP_LOOP(out, n, t[cmp3_u64_f64(a.u[i], b.f[i])]);
        return;
    }
}

static int cmp_kernel_number(const cmp_state *s, const exec_arg *args, uint32_t n,
                             uint8_t *out) {
    const exec_arg *x = &args[s->swap ? 1 : 0], *y = &args[s->swap ? 0 : 1];
    if (cmp_number_fast(s, x, y, n, out)) return 0;
    for (uint32_t from = 0; from < n; from += CMP_CHUNK)
        cmp_number_chunk(s, x, y, from, MU_MIN(CMP_CHUNK, n - from), out + from);
    return 0;
}

/* ---- scaled: Decimal, DateTime64, dates of different kinds ------------ */

static __int128 cmp_raw_i128(const ty_column *c, uint32_t row) {
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_DECIMAL && t->precision > 18) {
        __int128 v;
        memcpy(&v, ty_column_values(c) + (size_t)row * 16, 16);
        return v;
    }
    if (t->kind == TY_UINT64) return (__int128)exec_get_u64(c, row);
    return (__int128)exec_get_i64(c, row);
}

static bool cmp_fits(__int128 v, unsigned width) {
    if (width == 4) return v >= INT32_MIN && v <= INT32_MAX;
    if (width == 8) return v >= INT64_MIN && v <= INT64_MAX;
    return true;
}

CMP_DEFINE_GET(cmp_get_i128, __int128, cmp_raw_i128)

/* One value of a side: days turned into midnight, the compare width
 * checked and the multiplier applied; false on ClickHouse's compare
 * overflow. */
static bool cmp_scaled_one(const cmp_side *side, unsigned width, __int128 *v) {
    if (side->days) *v = ty_tz_local_to_utc(side->tz, (int64_t)*v * 86400);
    if (!cmp_fits(*v, width)) return false;
    return side->mul == 1 ||
           (!__builtin_mul_overflow(*v, side->mul, v) && cmp_fits(*v, width));
}

/* One side of a chunk; bad[i] is set where the value overflows. A
 * constant (today() against a DateTime column) is converted once. */
static void cmp_scaled_side(const cmp_side *side, unsigned width, const exec_arg *a,
                            uint32_t from, uint32_t n, __int128 *v, uint8_t *bad) {
    if (a->is_const) {
        __int128 c = cmp_raw_i128(a->column, 0);
        bool ok = cmp_scaled_one(side, width, &c);
        for (uint32_t i = 0; i < n; i++) {
            v[i] = c;
            bad[i] |= !ok;
        }
        return;
    }
    cmp_get_i128(a, from, n, v);
    if (!side->days && width == 0 && side->mul == 1) return;
    for (uint32_t i = 0; i < n; i++) bad[i] |= !cmp_scaled_one(side, width, &v[i]);
}

static int cmp_kernel_scaled(const cmp_state *s, const exec_arg *args, uint32_t rows,
                             uint8_t *out, mu_err *err) {
    const uint8_t *t = cmp_table[s->op];
    __int128 x[CMP_CHUNK / 2], y[CMP_CHUNK / 2];
    uint8_t bad[CMP_CHUNK / 2];
    for (uint32_t from = 0; from < rows; from += CMP_CHUNK / 2) {
        uint32_t n = MU_MIN(CMP_CHUNK / 2, rows - from);
        memset(bad, 0, n);
        cmp_scaled_side(&s->side[0], s->width, &args[0], from, n, x, bad);
        cmp_scaled_side(&s->side[1], s->width, &args[1], from, n, y, bad);
        for (uint32_t i = 0; i < n; i++) {
            if (bad[i] && !exec_arg_is_null_row(&args[0], from + i) &&
                !exec_arg_is_null_row(&args[1], from + i))
                return MU_ERR(err, MU_EDECIMAL_OVERFLOW,
                              "Can't compare decimal number due to overflow");
            out[from + i] = t[x[i] < y[i] ? CMP3_LESS : x[i] > y[i] ? CMP3_GREATER : CMP3_EQUAL];
        }
    }
    return 0;
}

/* ---- strings, UUIDs, generic ------------------------------------------ */

/* Bytewise; with zero padding the shorter side reads as if padded with
 * zero bytes (ClickHouse's memcmpSmallLikeZeroPadded). */
static int cmp_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, bool zero_padded) {
    size_t common = na < nb ? na : nb;
    int c = common ? memcmp(a, b, common) : 0;
    if (c != 0 || na == nb) return c;
    if (!zero_padded) return na < nb ? -1 : 1;
    const uint8_t *rest = na > nb ? a + common : b + common;
    size_t rest_bytes = (na > nb ? na : nb) - common;
    for (size_t k = 0; k < rest_bytes; k++)
        if (rest[k] != 0) return na > nb ? 1 : -1;
    return 0;
}

static int cmp_kernel_string(const cmp_state *s, const exec_arg *args, uint32_t n,
                             uint8_t *out) {
    const uint8_t *t = cmp_table[s->op];
    for (uint32_t i = 0; i < n; i++) {
        size_t na, nb;
        const uint8_t *a = ty_column_row_bytes(args[0].column, exec_arg_row(&args[0], i), &na);
        const uint8_t *b = ty_column_row_bytes(args[1].column, exec_arg_row(&args[1], i), &nb);
        out[i] = t[cmp3_of(cmp_bytes(a, na, b, nb, s->zero_padded))];
    }
    return 0;
}

/* ClickHouse orders UUIDs as a UInt128 whose high half is the second half
 * of the text: compare bytes 8..15, then 0..7 (each big-endian). */
static int cmp_kernel_uuid(const cmp_state *s, const exec_arg *args, uint32_t n, uint8_t *out) {
    const uint8_t *t = cmp_table[s->op];
    const uint8_t *pa = ty_column_values(args[0].column), *pb = ty_column_values(args[1].column);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *a = pa + (size_t)exec_arg_row(&args[0], i) * 16;
        const uint8_t *b = pb + (size_t)exec_arg_row(&args[1], i) * 16;
        int c = memcmp(a + 8, b + 8, 8);
        if (c == 0) c = memcmp(a, b, 8);
        out[i] = t[cmp3_of(c)];
    }
    return 0;
}

static int cmp_kernel_generic(const cmp_state *s, const exec_arg *args, uint32_t n,
                              uint8_t *out) {
    const uint8_t *t = cmp_table[s->op];
    for (uint32_t i = 0; i < n; i++)
        out[i] = t[cmp3_of(ty_column_compare_rows(args[0].column, exec_arg_row(&args[0], i),
                                                  args[1].column, exec_arg_row(&args[1], i)))];
    return 0;
}

/* ---- arrays of different element types ---------------------------------- */

/* Elements compared as ClickHouse does after casting both arrays to their
 * supertype: NULL after every value, NaN after every number. */
static int cmp_element(cmp_elem kind, const ty_column *a, uint32_t ia, const ty_column *b,
                       uint32_t ib) {
    bool na = ty_column_is_null(a, ia) || ty_type_strip_nullable(a->type)->kind == TY_NOTHING;
    bool nb = ty_column_is_null(b, ib) || ty_type_strip_nullable(b->type)->kind == TY_NOTHING;
    if (na || nb) return na && nb ? 0 : na ? 1 : -1;
    switch (kind) {
    case CMP_ELEM_I64: {
        int64_t x = exec_get_i64(a, ia), y = exec_get_i64(b, ib);
        return x < y ? -1 : x > y;
    }
    case CMP_ELEM_U64: {
        uint64_t x = exec_get_u64(a, ia), y = exec_get_u64(b, ib);
        return x < y ? -1 : x > y;
    }
    case CMP_ELEM_F64: {
        double x = exec_get_f64(a, ia), y = exec_get_f64(b, ib);
        if (isnan(x) || isnan(y)) return isnan(x) && isnan(y) ? 0 : isnan(x) ? 1 : -1;
        return x < y ? -1 : x > y;
    }
    default: {
        size_t la, lb;
        const uint8_t *x = ty_column_row_bytes(a, ia, &la), *y = ty_column_row_bytes(b, ib, &lb);
        return cmp_bytes(x, la, y, lb, false);
    }
    }
}

static int cmp_kernel_array(const cmp_state *s, const exec_arg *args, uint32_t n, uint8_t *out) {
    const uint8_t *t = cmp_table[s->op];
    const ty_column *ea = ty_column_child(args[0].column, 0);
    const ty_column *eb = ty_column_child(args[1].column, 0);
    const uint32_t *oa = ty_column_offsets(args[0].column), *ob = ty_column_offsets(args[1].column);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ra = exec_arg_row(&args[0], i), rb = exec_arg_row(&args[1], i);
        uint32_t la = oa[ra + 1] - oa[ra], lb = ob[rb + 1] - ob[rb];
        int c = 0;
        for (uint32_t k = 0; k < la && k < lb && c == 0; k++)
            c = cmp_element(s->elem, ea, oa[ra] + k, eb, ob[rb] + k);
        if (c == 0) c = la < lb ? -1 : la > lb;
        out[i] = t[cmp3_of(c)];
    }
    return 0;
}

/* ---- the kernel ---------------------------------------------------------- */

/* From fn_convert.c: the error code of a String that does not parse as a
 * date, time or UUID (whole_value: text after the value is TYPE_MISMATCH). */
int exec__text_parse_error(const ty_type *d, const char *s, size_t n, int rc, bool whole_value,
                           mu_err *err);

/* ---- String constants read as numbers ---------------------------------- */

/* A String constant compared with an integer or float: ClickHouse's
 * convertFieldToType reads it as the 64-bit type of the same family
 * (Float32 stays Float32) and the whole text must be read. Integers are
 * read as readIntTextUnsafe does: an optional '-' for signed types, a
 * leading '0' is the whole number, digits wrap. Floats take an optional
 * sign, digits with an optional '.', an exponent, or inf/nan. Text left
 * over is TYPE_MISMATCH; a value outside t's range sets *in_range false
 * (the comparison is then constant). */
typedef struct cmp_text_value {
    bool in_range;
    int64_t i;   /* integers: the value (UInt64 bits for unsigned types) */
    double f;    /* floats */
} cmp_text_value;

static bool cmp_text_is_integer(const ty_type *t) {
    return t->kind >= TY_UINT8 && t->kind <= TY_INT64;
}

static bool cmp_text_is_number(const ty_type *t) {
    return cmp_text_is_integer(t) || t->kind == TY_FLOAT32 || t->kind == TY_FLOAT64;
}

static bool cmp_text_word(const char *s, size_t n, size_t at, const char *word, size_t *end) {
    size_t len = strlen(word);
    if (n - at < len) return false;
    for (size_t i = 0; i < len; i++)
        if ((s[at + i] | 0x20) != word[i]) return false;
    *end = at + len;
    return true;
}

/* Length of the float at the start of s (0: none). */
static size_t cmp_text_float_prefix(const char *s, size_t n) {
    size_t i = 0, end;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    if (cmp_text_word(s, n, i, "infinity", &end) || cmp_text_word(s, n, i, "inf", &end) ||
        cmp_text_word(s, n, i, "nan", &end))
        return end;
    size_t digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
    }
    if (digits == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '-' || s[j] == '+')) j++;
        if (j < n && s[j] >= '0' && s[j] <= '9') {
            while (j < n && s[j] >= '0' && s[j] <= '9') j++;
            i = j;
        }
    }
    return i;
}

static int cmp_text_number(const ty_type *t, const char *s, size_t n, cmp_text_value *v,
                           mu_err *err) {
    char name[128];
    ty_type_name(t, name, sizeof(name));
    int shown = (int)MU_MIN(n, 200u);
    size_t used;
    v->in_range = true;
    if (cmp_text_is_integer(t)) {
        bool is_signed = t->kind >= TY_INT8;
        if (n == 0)
            return MU_ERR(err, MU_EPARSE, "Attempt to read after eof: while converting '' to %s",
                          name);
        size_t i = 0;
        bool negative = false;
        if (is_signed && s[0] == '-') {
            negative = true;
            if (++i == n)
                return MU_ERR(err, MU_EPARSE,
                              "Attempt to read after eof: while converting '%.*s' to %s", shown,
                              s, name);
        }
        uint64_t res = 0;
        if (s[i] == '0') {
            i++;
        } else {
            while (i < n && s[i] >= '0' && s[i] <= '9') res = res * 10 + (uint64_t)(s[i++] - '0');
        }
        used = i;
        if (negative) res = (uint64_t)0 - res;
        v->i = (int64_t)res;
        if (used == n) {
            static const int64_t smin[4] = {INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN};
            static const int64_t smax[4] = {INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX};
            static const uint64_t umax[4] = {UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX};
            unsigned k = is_signed ? (unsigned)(t->kind - TY_INT8) : (unsigned)(t->kind - TY_UINT8);
            v->in_range = is_signed ? v->i >= smin[k] && v->i <= smax[k] : res <= umax[k];
        }
    } else {
        used = cmp_text_float_prefix(s, n);
        if (used == 0)
            return MU_ERR(err, MU_EPARSE,
                          "Cannot read floating point value: while converting '%.*s' to %s", shown,
                          s, name);
        char buf[512];
        size_t m = MU_MIN(used, sizeof(buf) - 1);
        memcpy(buf, s, m);
        buf[m] = 0;
        v->f = t->kind == TY_FLOAT32 ? (double)strtof(buf, NULL) : strtod(buf, NULL);
    }
    if (used != n)
        return MU_ERR(err, MU_ETYPE, "Cannot convert string '%.*s' to type %s", shown, s, name);
    return 0;
}

/* Parses the String constant args[s->parse_index] as s->parse_type into a
 * new one-row column. */
static int cmp_parse_constant(const cmp_state *s, const ty_column *text_column,
                              mu_mem_tracker *tracker, ty_column **out, mu_err *err) {
    size_t bytes;
    const char *text = exec_get_str(text_column, 0, &bytes);
    ty_column *c;
    int rc = ty_column_create(s->parse_type, tracker, &c, err);
    if (rc != 0) return rc;
    if (cmp_text_is_number(s->parse_type)) {
        cmp_text_value v;
        rc = cmp_text_number(s->parse_type, text, bytes, &v, err);
        if (rc == 0 && cmp_text_is_integer(s->parse_type)) rc = exec__store_i64(c, &v.i, 1, err);
        else if (rc == 0) rc = exec__store_f64(c, &v.f, 1, err);
        if (rc != 0) ty_column_destroy(c);
        else *out = c;
        return rc;
    }
    rc = ty_column_append_text(c, text, bytes, err);
    if (rc != 0) rc = exec__text_parse_error(s->parse_type, text, bytes, rc, true, err);
    if (rc == MU_ETYPE) {
        ty_column_destroy(c);
        return rc;
    }
    if (rc != 0) {
        char name[128];
        mu_err inner = *err;
        ty_column_destroy(c);
        return MU_ERR(err, inner.code, "%s: while converting '%.*s' to %s", inner.message,
                      (int)MU_MIN(bytes, 200u), text,
                      ty_type_name(s->parse_type, name, sizeof(name)));
    }
    *out = c;
    return 0;
}

static int cmp_kernel(const exec_call *call, const exec_arg *args_in, uint32_t rows,
                      ty_column *out, mu_err *err) {
    const cmp_state *s = call->state;
    uint8_t *res;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&res, err);
    if (rc != 0) return rc;
    if (s->mode == CMP_MODE_CONST) {
        memset(res, s->const_value, rows);
        return 0;
    }
    exec_arg args[2] = {args_in[0], args_in[1]};
    ty_column *parsed = NULL;
    if (s->parse_index >= 0) {
        rc = cmp_parse_constant(s, args_in[s->parse_index].column,
                                call->ctx ? call->ctx->tracker : NULL, &parsed, err);
        if (rc != 0) goto done;
        args[s->parse_index].column = parsed;
        args[s->parse_index].is_const = true;
    }
    switch (s->mode) {
    case CMP_MODE_NUMBER: rc = cmp_kernel_number(s, args, rows, res); break;
    case CMP_MODE_SCALED: rc = cmp_kernel_scaled(s, args, rows, res, err); break;
    case CMP_MODE_STRING: rc = cmp_kernel_string(s, args, rows, res); break;
    case CMP_MODE_UUID: rc = cmp_kernel_uuid(s, args, rows, res); break;
    case CMP_MODE_GENERIC: rc = cmp_kernel_generic(s, args, rows, res); break;
    case CMP_MODE_ARRAY: rc = cmp_kernel_array(s, args, rows, res); break;
    case CMP_MODE_CONST: case CMP_MODE_NONE: break;
    }
done:
    ty_column_destroy(parsed);
    if (rc != 0) ty_column_truncate(out, out->row_count - rows);
    return rc;
}

/* ---- binding: classification --------------------------------------------- */

typedef enum cmp_class {
    CMP_C_INT,        /* integers, Bool */
    CMP_C_FLOAT,
    CMP_C_DECIMAL,
    CMP_C_DATE,       /* Date, Date32 */
    CMP_C_DATETIME,
    CMP_C_DATETIME64,
    CMP_C_ENUM,
    CMP_C_STRING,     /* String, FixedString */
    CMP_C_UUID,
    CMP_C_ARRAY,
    CMP_C_OTHER,
} cmp_class;

static cmp_class cmp_class_of(const ty_type *t) {
    switch (t->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64:
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64: case TY_BOOL:
        return CMP_C_INT;
    case TY_FLOAT32: case TY_FLOAT64: return CMP_C_FLOAT;
    case TY_DECIMAL: return CMP_C_DECIMAL;
    case TY_DATE: case TY_DATE32: return CMP_C_DATE;
    case TY_DATETIME: return CMP_C_DATETIME;
    case TY_DATETIME64: return CMP_C_DATETIME64;
    case TY_ENUM8: case TY_ENUM16: return CMP_C_ENUM;
    case TY_STRING: case TY_FIXED_STRING: return CMP_C_STRING;
    case TY_UUID: return CMP_C_UUID;
    case TY_ARRAY: return CMP_C_ARRAY;
    default: return CMP_C_OTHER;
    }
}

/* Lanes: 0 = Int64 (any integer but UInt64), 1 = UInt64, 2 = float. */
static int cmp_lane(const ty_type *t) {
    if (t->kind == TY_FLOAT32 || t->kind == TY_FLOAT64 || t->kind == TY_DECIMAL ||
        t->kind == TY_DATETIME64)
        return 2;
    return t->kind == TY_UINT64 ? 1 : 0;
}

static bool cmp_is_unsigned(const ty_type *t) {
    switch (t->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64: case TY_BOOL:
    case TY_DATE: case TY_DATETIME:
        return true;
    default:
        return false;
    }
}

/* Plans a NUMBER comparison of ta and tb (floats, integers, Bool, Enum,
 * dates of one kind; Decimal/DateTime64 only against a float). */
static void cmp_plan_number(cmp_state *s, const ty_type *ta, const ty_type *tb) {
    int la = cmp_lane(ta), lb = cmp_lane(tb);
    s->mode = CMP_MODE_NUMBER;
    if (ta->kind == TY_DECIMAL) s->div[0] = (double)ty_decimal_pow10(ta->scale);
    if (tb->kind == TY_DECIMAL) s->div[1] = (double)ty_decimal_pow10(tb->scale);
    if (ta->kind == TY_DATETIME64 && lb == 2 && tb->kind != TY_DATETIME64)
        s->div[0] = (double)ty_decimal_pow10(ta->precision);
    if (tb->kind == TY_DATETIME64 && la == 2 && ta->kind != TY_DATETIME64)
        s->div[1] = (double)ty_decimal_pow10(tb->precision);
    if (la > lb) {
        /* The left side is the "smaller" lane; mirror the operator. */
        const ty_type *t = ta;
        ta = tb;
        tb = t;
        int l = la;
        la = lb;
        lb = l;
        double d = s->div[0];
        s->div[0] = s->div[1];
        s->div[1] = d;
        s->swap = true;
        s->op = cmp_mirror(s->op);
    }
    if (la == lb) s->num = la == 0 ? CMP_NUM_I64 : la == 1 ? CMP_NUM_U64 : CMP_NUM_F64;
    else if (lb == 2) s->num = la == 0 ? CMP_NUM_I64_F64 : CMP_NUM_U64_F64;
    else s->num = cmp_is_unsigned(ta) ? CMP_NUM_U64 : CMP_NUM_I64_U64;
}

/* Bytes of a value as ClickHouse's DecCompareInt sees it. */
static unsigned cmp_value_bytes(const ty_type *t) {
    if (t->kind == TY_DECIMAL) return t->precision <= 9 ? 4 : t->precision <= 18 ? 8 : 16;
    if (t->kind == TY_DATETIME64) return 8;
    return ty_type_value_bytes(t);
}

static bool cmp_is_decimalish(const ty_type *t) {
    return t->kind == TY_DECIMAL || t->kind == TY_DATETIME64;
}

static unsigned cmp_scale_of(const ty_type *t) {
    return t->kind == TY_DECIMAL ? t->scale : t->kind == TY_DATETIME64 ? t->precision : 0;
}

/* Decimal/DateTime64 against Decimal/DateTime64/integer: ClickHouse's
 * DecimalComparison (rescale to the larger scale in the compare width,
 * overflow is an error). */
static void cmp_plan_decimal(cmp_state *s, const ty_type *ta, const ty_type *tb) {
    unsigned sa = cmp_scale_of(ta), sb = cmp_scale_of(tb);
    unsigned wa = cmp_value_bytes(ta), wb = cmp_value_bytes(tb);
    s->mode = CMP_MODE_SCALED;
    s->width = (!cmp_is_decimalish(tb) || wa > wb) ? wa : wb;
    unsigned scale = MU_MAX(sa, sb);
    s->side[0].mul = ty_decimal_pow10(scale - sa);
    s->side[1].mul = ty_decimal_pow10(scale - sb);
}

/* Dates of different kinds: by instant (a Date is midnight in the zone of
 * the DateTime/DateTime64 it is compared with). */
static void cmp_plan_dates(cmp_state *s, const ty_type *ta, const ty_type *tb) {
    const ty_type *timed = ta->kind == TY_DATETIME || ta->kind == TY_DATETIME64 ? ta : tb;
    unsigned scale = MU_MAX(cmp_scale_of(ta), cmp_scale_of(tb));
    const ty_type *types[2] = {ta, tb};
    s->mode = CMP_MODE_SCALED;
    s->width = 0;
    for (int i = 0; i < 2; i++) {
        const ty_type *t = types[i];
        bool days = t->kind == TY_DATE || t->kind == TY_DATE32;
        s->side[i].days = days && timed != t && (timed->kind == TY_DATETIME ||
                                                  timed->kind == TY_DATETIME64);
        s->side[i].tz = ty_type_timezone(timed);
        s->side[i].mul = ty_decimal_pow10(scale - cmp_scale_of(t));
    }
}

static int cmp_error_no_operation(const exec_call *call, const ty_type *ta, const ty_type *tb,
                                  mu_err *err) {
    char a[128], b[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "No operation %s between %s and %s",
                  call->function->name, ty_type_name(ta, a, sizeof(a)),
                  ty_type_name(tb, b, sizeof(b)));
}

/* Plans number-like classes; MU_EILLEGAL_TYPE when they do not compare. */
static int cmp_plan_numeric(const exec_call *call, cmp_state *s, const ty_type *ta,
                            const ty_type *tb, mu_err *err) {
    cmp_class ca = cmp_class_of(ta), cb = cmp_class_of(tb);
    bool a_dec = ca == CMP_C_DECIMAL || ca == CMP_C_DATETIME64;
    bool b_dec = cb == CMP_C_DECIMAL || cb == CMP_C_DATETIME64;
    bool a_time = ca == CMP_C_DATE || ca == CMP_C_DATETIME || ca == CMP_C_DATETIME64;
    bool b_time = cb == CMP_C_DATE || cb == CMP_C_DATETIME || cb == CMP_C_DATETIME64;
    if (a_time && b_time) {
        if (ta->kind == tb->kind && ca != CMP_C_DATETIME64) cmp_plan_number(s, ta, tb);
        else if (ca == CMP_C_DATE && cb == CMP_C_DATE) cmp_plan_number(s, ta, tb);
        else if (ca == CMP_C_DATETIME64 && cb == CMP_C_DATETIME64) cmp_plan_decimal(s, ta, tb);
        else cmp_plan_dates(s, ta, tb);
        return 0;
    }
    if (ca == CMP_C_DATE || cb == CMP_C_DATE) return exec__error_arg_types(call, err);
    if (ca == CMP_C_ENUM && cb == CMP_C_ENUM && !ty_type_equal(ta, tb))
        return exec__error_arg_types(call, err);
    if (a_dec || b_dec) {
        cmp_class co = a_dec ? cb : ca;
        if (co == CMP_C_FLOAT) cmp_plan_number(s, ta, tb);
        else if (co == CMP_C_INT || co == CMP_C_DECIMAL || co == CMP_C_DATETIME64)
            cmp_plan_decimal(s, ta, tb);
        else return cmp_error_no_operation(call, ta, tb, err);
        return 0;
    }
    cmp_plan_number(s, ta, tb);
    return 0;
}

/* ---- binding: String constants ------------------------------------------ */

static bool cmp_enum_has_name(const ty_type *t, const char *text, size_t bytes) {
    for (uint32_t i = 0; i < t->enum_count; i++)
        if (t->enum_entries[i].name_bytes == bytes &&
            memcmp(t->enum_entries[i].name, text, bytes) == 0)
            return true;
    return false;
}

/* Whether text is a Decimal that parses with a wider precision than t:
 * then the constant is out of t's range and compares as not equal to
 * everything. */
static bool cmp_out_of_range(const ty_type *t, const char *text, size_t bytes) {
    uint8_t value[16];
    mu_err ignored;
    if (t->kind == TY_DECIMAL) {
        ty_type wide = *t;
        wide.precision = 38;
        return ty_value_parse(&wide, text, bytes, value, &ignored) == 0;
    }
    return false;
}

/* One side is a String constant and the other is not a string: it is read
 * as the other side's type (ClickHouse's executeWithConstString). Sets
 * parse_index, or a constant result (a NULL constant, an Enum name that
 * does not exist, a number out of the type's range). */
static int cmp_plan_const_string(const exec_call *call, cmp_state *s, uint32_t index,
                                 mu_err *err) {
    const ty_type *other = call->arg_types[1 - index];
    const char *text;
    size_t bytes;
    if (!exec__const_string(call, index, &text, &bytes)) {
        s->mode = CMP_MODE_CONST; /* a NULL constant: every row is NULL */
        return 0;
    }
    if (other->kind == TY_ENUM8 || other->kind == TY_ENUM16) {
        if (s->op != CMP_NE && !cmp_enum_has_name(other, text, bytes)) {
            s->mode = CMP_MODE_CONST;
            s->const_value = 0;
            return 0;
        }
    }
    if (cmp_text_is_number(other)) {
        cmp_text_value v;
        int rc = cmp_text_number(other, text, bytes, &v, err);
        if (rc != 0) return rc;
        if (!v.in_range) {
            s->mode = CMP_MODE_CONST;
            s->const_value = s->op == CMP_NE;
            return 0;
        }
    }
    s->parse_index = (int)index;
    s->parse_type = other;
    ty_column *probe = NULL;
    int rc = cmp_parse_constant(s, call->arg_consts[index], NULL, &probe, err);
    ty_column_destroy(probe);
    if (rc != 0) {
        if (!cmp_out_of_range(other, text, bytes)) return rc;
        s->parse_index = -1;
        s->mode = CMP_MODE_CONST;
        s->const_value = s->op == CMP_NE;
    }
    return 0;
}

/* ---- binding: arrays ----------------------------------------------------- */

static int cmp_plan_arrays(const exec_call *call, cmp_state *s, const ty_type *ta,
                           const ty_type *tb, mu_err *err) {
    if (ty_type_equal(ta, tb)) {
        s->mode = CMP_MODE_GENERIC;
        return 0;
    }
    const ty_type *types[2] = {ta, tb}, *super;
    mu_arena *scratch;
    int rc = mu_arena_create(&scratch, NULL, 4096, err);
    if (rc != 0) return rc;
    rc = exec_type_supertype(types, 2, scratch, &super, err);
    const ty_type *elem = rc == 0 ? ty_type_strip_nullable(super->child) : NULL;
    ty_kind kind = elem ? elem->kind : TY_NOTHING;
    bool is_unsigned = elem && cmp_is_unsigned(elem);
    mu_arena_destroy(scratch);
    if (rc != 0) return rc;
    s->mode = CMP_MODE_ARRAY;
    if (kind == TY_FLOAT32 || kind == TY_FLOAT64) s->elem = CMP_ELEM_F64;
    else if (kind >= TY_UINT8 && kind <= TY_INT64)
        s->elem = is_unsigned ? CMP_ELEM_U64 : CMP_ELEM_I64;
    else if (kind == TY_BOOL) s->elem = CMP_ELEM_U64;
    else if (kind == TY_STRING) s->elem = CMP_ELEM_BYTES;
    else if (kind == TY_NOTHING) s->elem = CMP_ELEM_I64; /* only NULL elements */
    else {
        char a[128], b[128];
        return MU_ERR(err, MU_ENOT_SUPPORTED, "Function %s of %s and %s is not supported",
                      call->function->name, ty_type_name(ta, a, sizeof(a)),
                      ty_type_name(tb, b, sizeof(b)));
    }
    return 0;
}

/* ---- binding ---------------------------------------------------------- */

static int cmp_plan(const exec_call *call, cmp_state *s, const ty_type *ta, const ty_type *tb,
                    mu_err *err) {
    cmp_class ca = cmp_class_of(ta), cb = cmp_class_of(tb);
    if (ca == CMP_C_STRING && cb == CMP_C_STRING) {
        s->mode = CMP_MODE_STRING;
        s->zero_padded = ta->kind == TY_FIXED_STRING || tb->kind == TY_FIXED_STRING;
        return 0;
    }
    if ((ca == CMP_C_STRING) != (cb == CMP_C_STRING)) {
        /* A String column with another type: no common type. */
        const ty_type *super;
        mu_arena *scratch;
        int rc = mu_arena_create(&scratch, NULL, 4096, err);
        if (rc != 0) return rc;
        const ty_type *types[2] = {ta, tb};
        rc = exec_type_supertype(types, 2, scratch, &super, err);
        mu_arena_destroy(scratch);
        return rc != 0 ? rc : exec__error_arg_types(call, err);
    }
    if (ca == CMP_C_UUID && cb == CMP_C_UUID) {
        s->mode = CMP_MODE_UUID;
        return 0;
    }
    if (ca == CMP_C_ARRAY && cb == CMP_C_ARRAY) return cmp_plan_arrays(call, s, ta, tb, err);
    bool a_num = ca <= CMP_C_ENUM, b_num = cb <= CMP_C_ENUM;
    if (a_num && b_num) return cmp_plan_numeric(call, s, ta, tb, err);
    if (ty_type_equal(ta, tb) && ca != CMP_C_ARRAY) {
        s->mode = CMP_MODE_GENERIC;
        return 0;
    }
    return exec__error_arg_types(call, err);
}

static int cmp_bind(exec_call *call, mu_arena *arena, cmp_op op, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    cmp_state *s = mu_arena_calloc(arena, 1, sizeof(*s), err);
    if (s == NULL) return err->code;
    s->op = op;
    s->parse_index = -1;
    s->div[0] = s->div[1] = 1.0;
    s->side[0].mul = s->side[1].mul = 1;
    call->state = s;
    const ty_type *ta = call->arg_types[0], *tb = call->arg_types[1];
    bool a_string = cmp_class_of(ta) == CMP_C_STRING, b_string = cmp_class_of(tb) == CMP_C_STRING;
    uint32_t index = a_string ? 0 : 1;
    if (a_string != b_string && call->arg_consts[index] != NULL) {
        rc = cmp_plan_const_string(call, s, index, err);
        if (rc == 0 && s->parse_index >= 0) ta = tb = s->parse_type;
    }
    if (rc == 0 && s->mode != CMP_MODE_CONST) rc = cmp_plan(call, s, ta, tb, err);
    if (rc != 0) return rc;
    call->result_type = ty_type_builtin(TY_UINT8);
    call->kernel = cmp_kernel;
    return 0;
}

#define CMP_FUNCTION(var, fn, name, op)                                                     \
    static int fn(exec_call *call, mu_arena *arena, mu_err *err) {                          \
        return cmp_bind(call, arena, op, err);                                              \
    }                                                                                       \
    static const exec_function var = {name, 0, fn};

CMP_FUNCTION(cmp_equals, cmp_bind_equals, "equals", CMP_EQ)
CMP_FUNCTION(cmp_not_equals, cmp_bind_not_equals, "notEquals", CMP_NE)
CMP_FUNCTION(cmp_less, cmp_bind_less, "less", CMP_LT)
CMP_FUNCTION(cmp_greater, cmp_bind_greater, "greater", CMP_GT)
CMP_FUNCTION(cmp_less_or_equals, cmp_bind_less_or_equals, "lessOrEquals", CMP_LE)
CMP_FUNCTION(cmp_greater_or_equals, cmp_bind_greater_or_equals, "greaterOrEquals", CMP_GE)

const exec_function *const exec__functions_compare[] = {
    &cmp_equals, &cmp_not_equals,     &cmp_less, &cmp_greater,
    &cmp_less_or_equals, &cmp_greater_or_equals, NULL,
};
