/* agg_basic.c: the everyday aggregates with ClickHouse's names, result
 * types and semantics: count, sum, sumWithOverflow, sumKahan, avg, min,
 * max, any, anyLast, argMin, argMax. Integer sums wrap like ClickHouse's
 * (UInt64, Int64, Decimal128 accumulators); min/max order values as
 * ty_column_compare_rows does (NaN after every number). A state is a fixed
 * block; a value wider than 16 bytes (String, FixedString(N > 16), Array,
 * Map) lives in a one-row column the state owns and destroy frees.
 *
 * Serialized states (integers little-endian, varint = LEB128):
 *   count        varint rows
 *   sum*, avg    16 bytes integer accumulator (u128, wrapping), 8 bytes
 *                float sum (IEEE bits), 8 bytes Kahan compensation, 4 bytes
 *                Float32 sum (sumWithOverflow(Float32)), varint rows (avg)
 *   min .. argMax  per value slot (argMin/argMax: argument, then key):
 *                u8 has (0/1); if 1: the value: fixed-width types their
 *                width in bytes; String/FixedString varint length + bytes;
 *                Array/Map varint length + one MUB1 batch of one row.
 */
#include "exec/exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- value classes ------------------------------------------------------ */

/* Machine class of a value, for the typed loops and comparisons. */
typedef enum basic_ctype {
    BASIC_U8,
    BASIC_U16,
    BASIC_U32,
    BASIC_U64,
    BASIC_I8,
    BASIC_I16,
    BASIC_I32,
    BASIC_I64,
    BASIC_I128,
    BASIC_F32,
    BASIC_F64,
    BASIC_BYTES, /* compared bytewise: UUID, FixedString(N <= 16), Nothing */
    BASIC_BOXED, /* String, longer FixedString, Array, Map: a one-row column */
} basic_ctype;

#define BASIC_NUMERIC_COUNT (BASIC_F64 + 1)

static basic_ctype basic_ctype_of(const ty_type *t) {
    switch (t->kind) {
    case TY_UINT8: case TY_BOOL: return BASIC_U8;
    case TY_UINT16: case TY_DATE: return BASIC_U16;
    case TY_UINT32: case TY_DATETIME: return BASIC_U32;
    case TY_UINT64: return BASIC_U64;
    case TY_INT8: case TY_ENUM8: return BASIC_I8;
    case TY_INT16: case TY_ENUM16: return BASIC_I16;
    case TY_INT32: case TY_DATE32: return BASIC_I32;
    case TY_INT64: case TY_DATETIME64: return BASIC_I64;
    case TY_FLOAT32: return BASIC_F32;
    case TY_FLOAT64: return BASIC_F64;
    case TY_DECIMAL:
        return t->precision <= 9 ? BASIC_I32 : t->precision <= 18 ? BASIC_I64 : BASIC_I128;
    case TY_UUID: case TY_NOTHING: return BASIC_BYTES;
    case TY_FIXED_STRING: return t->length <= 16 ? BASIC_BYTES : BASIC_BOXED;
    default: return BASIC_BOXED;
    }
}

/* A Nullable column read as its value type: the same buffers without the
 * validity bitmap (NULL rows hold the type's default payload). The view
 * is read-only and lives as long as the column. */
static const ty_column *basic_view(const ty_column *c, ty_column *view) {
    if (!c->nullable || c->type->kind != TY_NULLABLE) return c;
    *view = *c;
    view->type = c->type->child;
    view->nullable = false;
    memset(&view->validity, 0, sizeof(view->validity));
    return view;
}

static int basic_error_type(const exec_agg *a, uint32_t index, mu_err *err) {
    char tn[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument for aggregate function %s",
                  ty_type_name(a->arg_types[index], tn, sizeof(tn)), a->function->name);
}

static int basic_corrupt(const exec_agg *a, const char *what, mu_err *err) {
    return MU_CORRUPT(err, "aggregate state of %s: %s", a->function->name, what);
}

/* ---- count ------------------------------------------------------------- */

static void count_init(const exec_agg *a, void *state) {
    (void)a;
    *(uint64_t *)state = 0;
}

static int count_update(const exec_agg *a, void *const *states, const exec_arg *args,
                        uint32_t rows, mu_err *err) {
    (void)err;
    bool check = a->arg_count == 1 && args[0].column->nullable;
    for (uint32_t r = 0; r < rows; r++) {
        uint64_t *n = states[r];
        if (n != NULL && !(check && exec_arg_is_null_row(&args[0], r))) (*n)++;
    }
    return 0;
}

/* Valid rows of a nullable column: popcount of its validity bitmap. */
static uint64_t count_valid_rows(const ty_column *c, uint32_t rows) {
    const uint8_t *bits = ty_column_validity(c);
    uint64_t n = 0;
    uint32_t full = rows / 8;
    for (uint32_t i = 0; i < full; i++) n += (uint64_t)__builtin_popcount(bits[i]);
    if (rows % 8) n += (uint64_t)__builtin_popcount(bits[full] & ((1u << (rows % 8)) - 1u));
    return n;
}

static int count_update_all(const exec_agg *a, void *state, const exec_arg *args, uint32_t rows,
                            mu_err *err) {
    (void)err;
    uint64_t *n = state;
    if (a->arg_count == 0 || !args[0].column->nullable) *n += rows;
    else if (args[0].is_const) *n += ty_column_is_null(args[0].column, 0) ? 0 : rows;
    else *n += count_valid_rows(args[0].column, rows);
    return 0;
}

static int count_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    (void)a, (void)err;
    *(uint64_t *)dst += *(const uint64_t *)src;
    return 0;
}

static int count_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a;
    return mu_buf_append_varint(out, *(const uint64_t *)state, err);
}

static int count_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                             size_t *used_out, mu_err *err) {
    size_t used = mu_varint_decode(bytes, length, state);
    if (used == 0) return basic_corrupt(a, "bad row count", err);
    *used_out = used;
    return 0;
}

static int count_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    (void)a;
    return ty_column_append_value(out, state, err);
}

static int count_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    (void)arena;
    if (a->arg_count > 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires zero or one argument", a->function->name);
    a->result_type = ty_type_builtin(TY_UINT64);
    a->state_bytes = sizeof(uint64_t);
    a->init = count_init;
    a->update = count_update;
    a->update_all = count_update_all;
    a->merge = count_merge;
    a->serialize = count_serialize;
    a->deserialize = count_deserialize;
    a->finalize = count_finalize;
    return 0;
}

/* ---- Nothing: sum(NULL), avg(NULL) -------------------------------------- */

/* An argument of type Nullable(Nothing) never adds a row: the NULL
 * wrapper answers NULL of type Nullable(Nothing), as ClickHouse does. */
static void nothing_init(const exec_agg *a, void *state) { (void)a, (void)state; }
static int nothing_update(const exec_agg *a, void *const *states, const exec_arg *args,
                          uint32_t rows, mu_err *err) {
    (void)a, (void)states, (void)args, (void)rows, (void)err;
    return 0;
}
static int nothing_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    (void)a, (void)dst, (void)src, (void)err;
    return 0;
}
static int nothing_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a, (void)state, (void)out, (void)err;
    return 0;
}
static int nothing_deserialize(const exec_agg *a, void *state, const uint8_t *bytes,
                               size_t length, size_t *used_out, mu_err *err) {
    (void)a, (void)state, (void)bytes, (void)length, (void)err;
    *used_out = 0;
    return 0;
}
static int nothing_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    (void)a, (void)state;
    return ty_column_append_default(out, err);
}

static void nothing_bind(exec_agg *a) {
    a->result_type = ty_type_builtin(TY_NOTHING);
    a->state_bytes = 1;
    a->init = nothing_init;
    a->update = nothing_update;
    a->merge = nothing_merge;
    a->serialize = nothing_serialize;
    a->deserialize = nothing_deserialize;
    a->finalize = nothing_finalize;
}

/* ---- sum, sumWithOverflow, sumKahan, avg ---------------------------------- */

typedef enum basic_sum_variant {
    BASIC_SUM,
    BASIC_SUM_OVERFLOW,
    BASIC_SUM_KAHAN,
    BASIC_AVG,
} basic_sum_variant;

typedef enum basic_num {
    BASIC_NUM_UNSIGNED,
    BASIC_NUM_SIGNED,
    BASIC_NUM_FLOAT,
    BASIC_NUM_DECIMAL,
} basic_num;

typedef struct basic_sum_bind {
    basic_sum_variant variant;
    basic_num num;
    basic_ctype ctype;
    const ty_type *arg_type;
} basic_sum_bind;

/* Integers accumulate in `wide` (the low 64 bits are the wrapped UInt64 or
 * Int64 sum, all 128 the wrapped Decimal128 one); floats in `f` (Kahan:
 * with compensation `c`); sumWithOverflow(Float32) in `f32`. */
typedef struct basic_sum_state {
    unsigned __int128 wide;
    double f;
    double c;
    float f32;
    uint32_t pad;
    uint64_t rows;
} basic_sum_state;

static const basic_sum_bind *sum_bind_of(const exec_agg *a) { return a->bind_state; }

static void sum_init(const exec_agg *a, void *state) {
    (void)a;
    memset(state, 0, sizeof(basic_sum_state));
}

static void sum_kahan_add(basic_sum_state *s, double x) {
    double y = x - s->c;
    double t = s->f + y;
    s->c = (t - s->f) - y;
    s->f = t;
}

static __int128 sum_load_i128(const uint8_t *values, uint32_t row) {
    __int128 v;
    memcpy(&v, values + (size_t)row * 16, 16);
    return v;
}

/* Adds one float value as the variant wants it. */
static void sum_add_float(const basic_sum_bind *b, basic_sum_state *s, double x) {
    if (b->variant == BASIC_SUM_KAHAN) sum_kahan_add(s, x);
    else if (b->variant == BASIC_SUM_OVERFLOW && b->ctype == BASIC_F32) s->f32 += (float)x;
    else s->f += x;
}

/* Adds row values[i] (already widened) to states[i]. */
static int sum_update(const exec_agg *a, void *const *states, const exec_arg *args, uint32_t rows,
                      mu_err *err) {
    const basic_sum_bind *b = sum_bind_of(a);
    if (b->ctype == BASIC_I128) {
        const uint8_t *values = ty_column_values(args[0].column);
        for (uint32_t r = 0; r < rows; r++) {
            basic_sum_state *s = states[r];
            if (s == NULL) continue;
            s->wide += (unsigned __int128)sum_load_i128(values, exec_arg_row(&args[0], r));
            s->rows++;
        }
        return 0;
    }
    if (b->num == BASIC_NUM_FLOAT ||
        (b->variant == BASIC_SUM_KAHAN && b->num != BASIC_NUM_DECIMAL)) {
        double *v = exec__scratch(rows, sizeof(*v), err);
        if (v == NULL) return err->code;
        exec__load_f64(&args[0], rows, v);
        for (uint32_t r = 0; r < rows; r++) {
            basic_sum_state *s = states[r];
            if (s == NULL) continue;
            sum_add_float(b, s, v[r]);
            s->rows++;
        }
        free(v);
        return 0;
    }
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    if (b->num == BASIC_NUM_UNSIGNED) exec__load_u64(&args[0], rows, (uint64_t *)v);
    else exec__load_i64(&args[0], rows, v);
    bool is_signed = b->num != BASIC_NUM_UNSIGNED;
    for (uint32_t r = 0; r < rows; r++) {
        basic_sum_state *s = states[r];
        if (s == NULL) continue;
        s->wide += is_signed ? (unsigned __int128)(__int128)v[r]
                             : (unsigned __int128)(uint64_t)v[r];
        s->rows++;
    }
    free(v);
    return 0;
}

/* The whole-block integer sum, wrapping in 64 bits. */
#define BASIC_SUM_INT_LOOP(CT, WIDEN)                                                      \
    do {                                                                                   \
        const CT *v = (const void *)p;                                                     \
        uint64_t acc = 0;                                                                  \
        for (uint32_t r = 0; r < rows; r++) acc += (uint64_t)(WIDEN)v[r];                  \
        s->wide += is_signed ? (unsigned __int128)(__int128)(int64_t)acc                   \
                             : (unsigned __int128)acc;                                     \
    } while (0)

#define BASIC_SUM_FLOAT_LOOP(CT)                                                           \
    do {                                                                                   \
        const CT *v = (const void *)p;                                                     \
        if (b->variant == BASIC_SUM || b->variant == BASIC_AVG ||                          \
            (b->variant == BASIC_SUM_OVERFLOW && b->ctype == BASIC_F64)) {                 \
            double acc = s->f;                                                             \
            for (uint32_t r = 0; r < rows; r++) acc += (double)v[r];                       \
            s->f = acc;                                                                    \
        } else {                                                                           \
            for (uint32_t r = 0; r < rows; r++) sum_add_float(b, s, (double)v[r]);         \
        }                                                                                  \
    } while (0)

/* The no-GROUP-BY hot path: one typed loop over the block. Repeated
 * addition even for a constant, so sum(0.1) over ten rows prints
 * 0.9999999999999999 as ClickHouse's does. */
static int sum_update_all(const exec_agg *a, void *state, const exec_arg *args, uint32_t rows,
                          mu_err *err) {
    const basic_sum_bind *b = sum_bind_of(a);
    basic_sum_state *s = state;
    const exec_arg *arg = &args[0];
    if (arg->is_const || b->ctype == BASIC_I128 ||
        (b->variant == BASIC_SUM_KAHAN && b->num != BASIC_NUM_FLOAT &&
         b->num != BASIC_NUM_DECIMAL)) {
        void **states = exec__scratch(rows, sizeof(*states), err);
        if (states == NULL) return err->code;
        for (uint32_t r = 0; r < rows; r++) states[r] = state;
        int rc = sum_update(a, states, args, rows, err);
        free(states);
        return rc;
    }
    const uint8_t *p = ty_column_values(arg->column);
    bool is_signed = b->num != BASIC_NUM_UNSIGNED;
    switch (b->ctype) {
    case BASIC_U8: BASIC_SUM_INT_LOOP(uint8_t, uint64_t); break;
    case BASIC_U16: BASIC_SUM_INT_LOOP(uint16_t, uint64_t); break;
    case BASIC_U32: BASIC_SUM_INT_LOOP(uint32_t, uint64_t); break;
    case BASIC_U64: BASIC_SUM_INT_LOOP(uint64_t, uint64_t); break;
    case BASIC_I8: BASIC_SUM_INT_LOOP(int8_t, int64_t); break;
    case BASIC_I16: BASIC_SUM_INT_LOOP(int16_t, int64_t); break;
    case BASIC_I32: BASIC_SUM_INT_LOOP(int32_t, int64_t); break;
    case BASIC_I64: BASIC_SUM_INT_LOOP(int64_t, int64_t); break;
    case BASIC_F32: BASIC_SUM_FLOAT_LOOP(float); break;
    case BASIC_F64: BASIC_SUM_FLOAT_LOOP(double); break;
    default: MU_ASSERT(!"sum of a non-numeric class"); break;
    }
    s->rows += rows;
    return 0;
}

static int sum_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    (void)err;
    const basic_sum_bind *b = sum_bind_of(a);
    basic_sum_state *d = dst;
    const basic_sum_state *s = src;
    d->wide += s->wide;
    if (b->variant == BASIC_SUM_KAHAN) {
        sum_kahan_add(d, s->f);
        sum_kahan_add(d, -s->c);
    } else {
        d->f += s->f;
    }
    d->f32 += s->f32;
    d->rows += s->rows;
    return 0;
}

static int sum_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a;
    const basic_sum_state *s = state;
    uint8_t bytes[36];
    uint64_t f, c;
    uint32_t f32;
    memcpy(&f, &s->f, 8);
    memcpy(&c, &s->c, 8);
    memcpy(&f32, &s->f32, 4);
    mu_store_u64le(bytes, (uint64_t)s->wide);
    mu_store_u64le(bytes + 8, (uint64_t)(s->wide >> 64));
    mu_store_u64le(bytes + 16, f);
    mu_store_u64le(bytes + 24, c);
    mu_store_u32le(bytes + 32, f32);
    int rc = mu_buf_append(out, bytes, sizeof(bytes), err);
    return rc != 0 ? rc : mu_buf_append_varint(out, s->rows, err);
}

static int sum_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                           size_t *used_out, mu_err *err) {
    basic_sum_state *s = state;
    if (length < 36) return basic_corrupt(a, "truncated sum", err);
    uint64_t f = mu_load_u64le(bytes + 16), c = mu_load_u64le(bytes + 24);
    uint32_t f32 = mu_load_u32le(bytes + 32);
    s->wide = ((unsigned __int128)mu_load_u64le(bytes + 8) << 64) | mu_load_u64le(bytes);
    memcpy(&s->f, &f, 8);
    memcpy(&s->c, &c, 8);
    memcpy(&s->f32, &f32, 4);
    size_t used = mu_varint_decode(bytes + 36, length - 36, &s->rows);
    if (used == 0) return basic_corrupt(a, "bad row count", err);
    *used_out = 36 + used;
    return 0;
}

/* sumWithOverflow: the sum wrapped to the argument's own width. */
static int sum_finalize_same_type(const basic_sum_bind *b, const basic_sum_state *s,
                                  ty_column *out, mu_err *err) {
    uint8_t bytes[16];
    uint32_t width = ty_type_value_bytes(b->arg_type);
    if (b->ctype == BASIC_F32) return ty_column_append_value(out, &s->f32, err);
    if (b->ctype == BASIC_F64) return ty_column_append_value(out, &s->f, err);
    unsigned __int128 w = s->wide;
    memcpy(bytes, &w, 16); /* little-endian host: the low `width` bytes */
    MU_ASSERT(width <= 16);
    return ty_column_append_value(out, bytes, err);
}

static double sum_decimal_to_double(const basic_sum_bind *b, unsigned __int128 wide) {
    return (double)(__int128)wide / (double)ty_decimal_pow10(b->arg_type->scale);
}

static int sum_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    const basic_sum_bind *b = sum_bind_of(a);
    const basic_sum_state *s = state;
    if (b->variant == BASIC_SUM_OVERFLOW) return sum_finalize_same_type(b, s, out, err);
    if (b->variant == BASIC_AVG) {
        double n = (double)s->rows, v;
        switch (b->num) {
        case BASIC_NUM_UNSIGNED: v = (double)(uint64_t)s->wide; break;
        case BASIC_NUM_SIGNED: v = (double)(int64_t)(uint64_t)s->wide; break;
        case BASIC_NUM_FLOAT: v = s->f; break;
        default: v = sum_decimal_to_double(b, s->wide); break;
        }
        v = v / n; /* no rows: 0 / 0 = nan, as ClickHouse answers */
        return ty_column_append_value(out, &v, err);
    }
    if (b->num == BASIC_NUM_DECIMAL) return ty_column_append_value(out, &s->wide, err);
    if (b->variant == BASIC_SUM_KAHAN || b->num == BASIC_NUM_FLOAT) {
        double v = b->variant == BASIC_SUM_KAHAN ? s->f - s->c : s->f;
        return ty_column_append_value(out, &v, err);
    }
    uint64_t v = (uint64_t)s->wide;
    return ty_column_append_value(out, &v, err);
}

static int sum_bind_variant(exec_agg *a, mu_arena *arena, basic_sum_variant variant,
                            mu_err *err) {
    if (a->arg_count != 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires single argument", a->function->name);
    const ty_type *t = a->arg_types[0];
    if (t->kind == TY_NOTHING) {
        nothing_bind(a);
        return 0;
    }
    basic_sum_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    b->variant = variant;
    b->arg_type = t;
    b->ctype = basic_ctype_of(t);
    if (t->kind == TY_DECIMAL) b->num = BASIC_NUM_DECIMAL;
    else if (exec_type_is_float(t)) b->num = BASIC_NUM_FLOAT;
    else if (exec_type_is_integer(t) || t->kind == TY_BOOL)
        b->num = exec_type_is_signed(t) ? BASIC_NUM_SIGNED : BASIC_NUM_UNSIGNED;
    else return basic_error_type(a, 0, err);
    if (variant == BASIC_AVG || (variant == BASIC_SUM_KAHAN && b->num != BASIC_NUM_DECIMAL)) {
        a->result_type = ty_type_builtin(TY_FLOAT64);
    } else if (variant == BASIC_SUM_OVERFLOW) {
        a->result_type = t->kind == TY_BOOL ? ty_type_builtin(TY_UINT8) : t;
    } else if (b->num == BASIC_NUM_DECIMAL) {
        ty_type *d = mu_arena_calloc(arena, 1, sizeof(*d), err);
        if (d == NULL) return err->code;
        d->kind = TY_DECIMAL;
        d->precision = TY_DECIMAL_PRECISION_MAX;
        d->scale = t->scale;
        a->result_type = d;
    } else {
        a->result_type = ty_type_builtin(b->num == BASIC_NUM_FLOAT    ? TY_FLOAT64
                                         : b->num == BASIC_NUM_SIGNED ? TY_INT64
                                                                      : TY_UINT64);
    }
    a->bind_state = b;
    a->state_bytes = sizeof(basic_sum_state);
    a->init = sum_init;
    a->update = sum_update;
    a->update_all = sum_update_all;
    a->merge = sum_merge;
    a->serialize = sum_serialize;
    a->deserialize = sum_deserialize;
    a->finalize = sum_finalize;
    return 0;
}

static int sum_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return sum_bind_variant(a, arena, BASIC_SUM, err);
}
static int sum_overflow_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return sum_bind_variant(a, arena, BASIC_SUM_OVERFLOW, err);
}
static int sum_kahan_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return sum_bind_variant(a, arena, BASIC_SUM_KAHAN, err);
}
static int avg_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return sum_bind_variant(a, arena, BASIC_AVG, err);
}

/* ---- value slots: min, max, any, anyLast, argMin, argMax ------------------ */

/* One remembered value: inline bytes for fixed-width types up to 16 bytes,
 * else a one-row column of the value type (owned, freed by destroy). */
typedef struct basic_slot {
    uint8_t has;
    uint8_t pad[7];
    ty_column *boxed;
    uint8_t bytes[16];
} basic_slot;

_Static_assert(sizeof(basic_slot) == 32, "value slots are 32 bytes");

typedef struct basic_desc {
    const ty_type *type;
    basic_ctype ctype;
    uint32_t width; /* fixed classes */
} basic_desc;

static void basic_desc_init(basic_desc *d, const ty_type *t) {
    d->type = t;
    d->ctype = basic_ctype_of(t);
    d->width = d->ctype == BASIC_BOXED ? 0 : ty_type_value_bytes(t);
    MU_ASSERT(d->width <= 16);
}

#define BASIC_CMP(x, y) (((x) > (y)) - ((x) < (y)))

static int basic_cmp_float(double x, double y) {
    bool nx = isnan(x), ny = isnan(y);
    if (nx || ny) return (int)nx - (int)ny; /* NaN after every number */
    return BASIC_CMP(x, y);
}

#define BASIC_LOAD_CMP(CT)                                                                  \
    do {                                                                                    \
        CT a, b;                                                                            \
        memcpy(&a, x, sizeof(a));                                                           \
        memcpy(&b, y, sizeof(b));                                                           \
        return BASIC_CMP(a, b);                                                             \
    } while (0)

/* Order of two fixed-width values of one class (ty_column_compare_rows'). */
static int basic_fixed_cmp(const basic_desc *d, const uint8_t *x, const uint8_t *y) {
    switch (d->ctype) {
    case BASIC_U8: BASIC_LOAD_CMP(uint8_t);
    case BASIC_U16: BASIC_LOAD_CMP(uint16_t);
    case BASIC_U32: BASIC_LOAD_CMP(uint32_t);
    case BASIC_U64: BASIC_LOAD_CMP(uint64_t);
    case BASIC_I8: BASIC_LOAD_CMP(int8_t);
    case BASIC_I16: BASIC_LOAD_CMP(int16_t);
    case BASIC_I32: BASIC_LOAD_CMP(int32_t);
    case BASIC_I64: BASIC_LOAD_CMP(int64_t);
    case BASIC_I128: BASIC_LOAD_CMP(__int128);
    case BASIC_F32: {
        float a, b;
        memcpy(&a, x, 4);
        memcpy(&b, y, 4);
        return basic_cmp_float(a, b);
    }
    case BASIC_F64: {
        double a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        return basic_cmp_float(a, b);
    }
    default: {
        int c = memcmp(x, y, d->width);
        return (c > 0) - (c < 0);
    }
    }
}

/* Row `row` of view (a non-nullable column of d->type) against a slot. */
static int basic_cmp_row_slot(const basic_desc *d, const ty_column *view, uint32_t row,
                              const basic_slot *s) {
    if (d->ctype == BASIC_BOXED) return ty_column_compare_rows(view, row, s->boxed, 0);
    return basic_fixed_cmp(d, ty_column_values(view) + (size_t)row * d->width, s->bytes);
}

static int basic_cmp_rows(const basic_desc *d, const ty_column *view, uint32_t x, uint32_t y) {
    if (d->ctype == BASIC_BOXED) return ty_column_compare_rows(view, x, view, y);
    const uint8_t *v = ty_column_values(view);
    return basic_fixed_cmp(d, v + (size_t)x * d->width, v + (size_t)y * d->width);
}

static int basic_cmp_slots(const basic_desc *d, const basic_slot *x, const basic_slot *y) {
    if (d->ctype == BASIC_BOXED) return ty_column_compare_rows(x->boxed, 0, y->boxed, 0);
    return basic_fixed_cmp(d, x->bytes, y->bytes);
}

static int basic_slot_box(const basic_desc *d, mu_mem_tracker *tracker, basic_slot *s,
                          mu_err *err) {
    if (s->boxed != NULL) {
        ty_column_clear(s->boxed);
        return 0;
    }
    return ty_column_create(d->type, tracker, &s->boxed, err);
}

static int basic_slot_set_row(const basic_desc *d, mu_mem_tracker *tracker, basic_slot *s,
                              const ty_column *view, uint32_t row, mu_err *err) {
    if (d->ctype != BASIC_BOXED) {
        memcpy(s->bytes, ty_column_values(view) + (size_t)row * d->width, d->width);
        s->has = 1;
        return 0;
    }
    s->has = 0;
    int rc = basic_slot_box(d, tracker, s, err);
    if (rc == 0) rc = ty_column_append_from(s->boxed, view, row, err);
    s->has = rc == 0;
    return rc;
}

static int basic_slot_copy(const basic_desc *d, mu_mem_tracker *tracker, basic_slot *dst,
                           const basic_slot *src, mu_err *err) {
    MU_ASSERT(src->has);
    if (d->ctype != BASIC_BOXED) {
        memcpy(dst->bytes, src->bytes, sizeof(dst->bytes));
        dst->has = 1;
        return 0;
    }
    return basic_slot_set_row(d, tracker, dst, src->boxed, 0, err);
}

/* Appends the slot's value to out (the value type, or Nullable of it when
 * the NULL wrapper is active); an empty slot appends the type's default. */
static int basic_slot_finalize(const basic_desc *d, const basic_slot *s, ty_column *out,
                               mu_err *err) {
    if (!s->has) return ty_column_append_default(out, err);
    if (d->ctype != BASIC_BOXED) return ty_column_append_value(out, s->bytes, err);
    if (!out->nullable) return ty_column_append_from(out, s->boxed, 0, err);
    size_t bytes;
    const uint8_t *data = ty_column_row_bytes(s->boxed, 0, &bytes);
    return ty_column_append_bytes(out, data, bytes, err);
}

static void basic_slot_destroy(basic_slot *s) {
    ty_column_destroy(s->boxed);
    s->boxed = NULL;
    s->has = 0;
}

/* Array/Map values travel as one MUB1 batch of one column named "v". */
static int basic_boxed_write_batch(const ty_column *c, mu_buf *out, mu_err *err) {
    ty_batch *batch;
    ty_column *col;
    mu_buf enc;
    mu_buf_init(&enc, 0);
    int rc = ty_batch_create(NULL, &batch, err);
    if (rc != 0) return rc;
    rc = ty_batch_add_column(batch, "v", c->type, &col, err);
    if (rc == 0) rc = ty_column_append_rows_from(col, c, 0, 1, err);
    if (rc == 0) rc = ty_batch_seal(batch, err);
    if (rc == 0) rc = ty_batch_encode(batch, &enc, err);
    if (rc == 0) rc = mu_buf_append_varint(out, enc.length_bytes, err);
    if (rc == 0) rc = mu_buf_append(out, enc.data, enc.length_bytes, err);
    mu_buf_deinit(&enc);
    ty_batch_destroy(batch);
    return rc;
}

static int basic_slot_serialize(const basic_desc *d, const basic_slot *s, mu_buf *out,
                                mu_err *err) {
    int rc = mu_buf_append_u8(out, s->has, err);
    if (rc != 0 || !s->has) return rc;
    if (d->ctype != BASIC_BOXED) return mu_buf_append(out, s->bytes, d->width, err);
    if (d->type->kind == TY_STRING || d->type->kind == TY_FIXED_STRING) {
        size_t bytes;
        const uint8_t *data = ty_column_row_bytes(s->boxed, 0, &bytes);
        rc = mu_buf_append_varint(out, bytes, err);
        return rc != 0 ? rc : mu_buf_append(out, data, bytes, err);
    }
    return basic_boxed_write_batch(s->boxed, out, err);
}

static int basic_boxed_read_batch(const exec_agg *a, const basic_desc *d, basic_slot *s,
                                  const uint8_t *bytes, size_t length, mu_err *err) {
    ty_batch *batch;
    int rc = ty_batch_decode(bytes, length, NULL, &batch, err);
    if (rc != 0) return rc;
    if (batch->column_count != 1 || batch->row_count != 1 ||
        !ty_type_equal(batch->columns[0]->type, d->type)) {
        ty_batch_destroy(batch);
        return basic_corrupt(a, "value of the wrong shape or type", err);
    }
    rc = basic_slot_set_row(d, a->ctx ? a->ctx->tracker : NULL, s, batch->columns[0], 0, err);
    ty_batch_destroy(batch);
    return rc;
}

static int basic_slot_deserialize(const exec_agg *a, const basic_desc *d, basic_slot *s,
                                  const uint8_t *bytes, size_t length, size_t *used_out,
                                  mu_err *err) {
    if (length < 1 || bytes[0] > 1) return basic_corrupt(a, "bad value flag", err);
    if (bytes[0] == 0) {
        *used_out = 1;
        return 0;
    }
    if (d->ctype != BASIC_BOXED) {
        if (length < 1 + (size_t)d->width) return basic_corrupt(a, "truncated value", err);
        memcpy(s->bytes, bytes + 1, d->width);
        s->has = 1;
        *used_out = 1 + d->width;
        return 0;
    }
    uint64_t n;
    size_t head = mu_varint_decode(bytes + 1, length - 1, &n);
    if (head == 0 || n > length - 1 - head) return basic_corrupt(a, "bad value length", err);
    const uint8_t *p = bytes + 1 + head;
    int rc;
    if (d->type->kind == TY_STRING || d->type->kind == TY_FIXED_STRING) {
        if (d->type->kind == TY_FIXED_STRING && n != d->type->length)
            return basic_corrupt(a, "FixedString value of the wrong length", err);
        s->has = 0;
        rc = basic_slot_box(d, a->ctx ? a->ctx->tracker : NULL, s, err);
        if (rc == 0) rc = ty_column_append_bytes(s->boxed, p, n, err);
        s->has = rc == 0;
    } else {
        rc = basic_boxed_read_batch(a, d, s, p, n, err);
    }
    if (rc == 0) *used_out = 1 + head + n;
    return rc;
}

/* ---- min, max, any, anyLast, argMin, argMax --------------------------------- */

typedef enum basic_pick_op {
    BASIC_MIN,
    BASIC_MAX,
    BASIC_ANY,
    BASIC_ANY_LAST,
    BASIC_ARG_MIN,
    BASIC_ARG_MAX,
} basic_pick_op;

/* min/max/any/anyLast keep slot 0; argMin/argMax keep the argument in
 * slot 0 and the key (val) in slot 1. */
typedef struct basic_pick_bind {
    basic_pick_op op;
    basic_desc key;
    basic_desc arg;
    uint32_t key_index; /* argument index of the compared value */
    mu_mem_tracker *tracker;
} basic_pick_bind;

static const basic_pick_bind *pick_bind_of(const exec_agg *a) { return a->bind_state; }

static bool pick_is_arg(const basic_pick_bind *b) {
    return b->op == BASIC_ARG_MIN || b->op == BASIC_ARG_MAX;
}
static int pick_sign(const basic_pick_bind *b) {
    return b->op == BASIC_MIN || b->op == BASIC_ARG_MIN ? -1 : 1;
}

/* Typed whole-block searches for the best row and typed per-row updates,
 * for the numeric classes of min and max. Ties keep the first row. */
#define BASIC_LT_INT(x, y) ((x) < (y))
#define BASIC_GT_INT(x, y) ((x) > (y))
#define BASIC_LT_FLT(x, y) (!isnan(x) && ((x) < (y) || isnan(y)))
#define BASIC_GT_FLT(x, y) ((x) > (y) || (isnan(x) && !isnan(y)))

#define BASIC_EXTREME(NAME, CT, BETTER)                                                     \
    static uint32_t NAME##_best(const void *values, uint32_t rows) {                        \
        const CT *v = values;                                                               \
        CT bv = v[0];                                                                       \
        uint32_t best = 0;                                                                  \
        for (uint32_t i = 1; i < rows; i++) {                                               \
            if (BETTER(v[i], bv)) {                                                         \
                bv = v[i];                                                                  \
                best = i;                                                                   \
            }                                                                               \
        }                                                                                   \
        return best;                                                                        \
    }                                                                                       \
    static void NAME##_rows(void *const *states, const void *values, uint32_t step,         \
                            uint32_t rows) {                                                \
        const CT *v = values;                                                               \
        for (uint32_t i = 0; i < rows; i++) {                                               \
            basic_slot *s = states[i];                                                      \
            if (s == NULL) continue;                                                        \
            CT x = v[(size_t)i * step], cur;                                                \
            memcpy(&cur, s->bytes, sizeof(cur));                                            \
            if (!s->has || BETTER(x, cur)) {                                                \
                memcpy(s->bytes, &x, sizeof(x));                                            \
                s->has = 1;                                                                 \
            }                                                                               \
        }                                                                                   \
    }

#define BASIC_EXTREME_PAIR(SUFFIX, CT, LT, GT)                                              \
    BASIC_EXTREME(min_##SUFFIX, CT, LT)                                                     \
    BASIC_EXTREME(max_##SUFFIX, CT, GT)

BASIC_EXTREME_PAIR(u8, uint8_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(u16, uint16_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(u32, uint32_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(u64, uint64_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(i8, int8_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(i16, int16_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(i32, int32_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(i64, int64_t, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(i128, __int128, BASIC_LT_INT, BASIC_GT_INT)
BASIC_EXTREME_PAIR(f32, float, BASIC_LT_FLT, BASIC_GT_FLT)
BASIC_EXTREME_PAIR(f64, double, BASIC_LT_FLT, BASIC_GT_FLT)

typedef struct basic_extreme_ops {
    uint32_t (*best)(const void *values, uint32_t rows);
    void (*rows)(void *const *states, const void *values, uint32_t step, uint32_t rows);
} basic_extreme_ops;

#define BASIC_OPS(SUFFIX) {min_##SUFFIX##_best, min_##SUFFIX##_rows}, \
                          {max_##SUFFIX##_best, max_##SUFFIX##_rows}

/* [class][0 = min, 1 = max] */
static const basic_extreme_ops basic_extreme[BASIC_NUMERIC_COUNT][2] = {
    [BASIC_U8] = {BASIC_OPS(u8)},     [BASIC_U16] = {BASIC_OPS(u16)},
    [BASIC_U32] = {BASIC_OPS(u32)},   [BASIC_U64] = {BASIC_OPS(u64)},
    [BASIC_I8] = {BASIC_OPS(i8)},     [BASIC_I16] = {BASIC_OPS(i16)},
    [BASIC_I32] = {BASIC_OPS(i32)},   [BASIC_I64] = {BASIC_OPS(i64)},
    [BASIC_I128] = {BASIC_OPS(i128)}, [BASIC_F32] = {BASIC_OPS(f32)},
    [BASIC_F64] = {BASIC_OPS(f64)},
};

static const basic_extreme_ops *pick_typed(const basic_pick_bind *b) {
    if (b->key.ctype >= BASIC_NUMERIC_COUNT) return NULL;
    return &basic_extreme[b->key.ctype][pick_sign(b) > 0];
}

static void pick_init(const exec_agg *a, void *state) {
    memset(state, 0, pick_is_arg(pick_bind_of(a)) ? 2 * sizeof(basic_slot) : sizeof(basic_slot));
}

static void pick_destroy(const exec_agg *a, void *state) {
    basic_slot *s = state;
    basic_slot_destroy(&s[0]);
    if (pick_is_arg(pick_bind_of(a))) basic_slot_destroy(&s[1]);
}

/* Offers a row to a state: keeps it if it beats what the state has.
 * key_row and arg_row differ only when one of them is a constant. */
static int pick_offer(const basic_pick_bind *b, basic_slot *s, const ty_column *key,
                      uint32_t key_row, const ty_column *arg, uint32_t arg_row, mu_err *err) {
    switch (b->op) {
    case BASIC_ANY:
        return s->has ? 0 : basic_slot_set_row(&b->key, b->tracker, s, key, key_row, err);
    case BASIC_ANY_LAST:
        return basic_slot_set_row(&b->key, b->tracker, s, key, key_row, err);
    case BASIC_MIN:
    case BASIC_MAX:
        if (s->has && basic_cmp_row_slot(&b->key, key, key_row, s) * pick_sign(b) <= 0) return 0;
        return basic_slot_set_row(&b->key, b->tracker, s, key, key_row, err);
    default:
        if (s[1].has && basic_cmp_row_slot(&b->key, key, key_row, &s[1]) * pick_sign(b) <= 0)
            return 0;
        int rc = basic_slot_set_row(&b->key, b->tracker, &s[1], key, key_row, err);
        return rc != 0 ? rc : basic_slot_set_row(&b->arg, b->tracker, &s[0], arg, arg_row, err);
    }
}

static int pick_update(const exec_agg *a, void *const *states, const exec_arg *args,
                       uint32_t rows, mu_err *err) {
    const basic_pick_bind *b = pick_bind_of(a);
    ty_column key_view, arg_view;
    const exec_arg *karg = &args[b->key_index];
    const ty_column *key = basic_view(karg->column, &key_view);
    const ty_column *arg = pick_is_arg(b) ? basic_view(args[0].column, &arg_view) : NULL;
    const basic_extreme_ops *typed = pick_typed(b);
    if (typed != NULL && (b->op == BASIC_MIN || b->op == BASIC_MAX)) {
        typed->rows(states, ty_column_values(key), karg->is_const ? 0 : 1, rows);
        return 0;
    }
    for (uint32_t r = 0; r < rows; r++) {
        if (states[r] == NULL) continue;
        int rc = pick_offer(b, states[r], key, exec_arg_row(karg, r), arg,
                            exec_arg_row(&args[0], r), err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* The no-GROUP-BY path: find the block's best row, then offer only it. */
static int pick_update_all(const exec_agg *a, void *state, const exec_arg *args, uint32_t rows,
                           mu_err *err) {
    const basic_pick_bind *b = pick_bind_of(a);
    if (rows == 0) return 0;
    ty_column key_view, arg_view;
    const exec_arg *karg = &args[b->key_index];
    const ty_column *key = basic_view(karg->column, &key_view);
    const ty_column *arg = pick_is_arg(b) ? basic_view(args[0].column, &arg_view) : NULL;
    uint32_t best = 0; /* any, and every constant: the first row */
    if (b->op == BASIC_ANY_LAST) {
        best = rows - 1;
    } else if (b->op != BASIC_ANY && !karg->is_const) {
        const basic_extreme_ops *typed = pick_typed(b);
        if (typed != NULL) {
            best = typed->best(ty_column_values(key), rows);
        } else {
            for (uint32_t r = 1; r < rows; r++)
                if (basic_cmp_rows(&b->key, key, r, best) * pick_sign(b) > 0) best = r;
        }
    }
    return pick_offer(b, state, key, exec_arg_row(karg, best), arg, exec_arg_row(&args[0], best),
                      err);
}

static int pick_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const basic_pick_bind *b = pick_bind_of(a);
    basic_slot *d = dst;
    const basic_slot *s = src;
    uint32_t k = pick_is_arg(b) ? 1 : 0;
    if (!s[k].has) return 0;
    switch (b->op) {
    case BASIC_ANY:
        if (d->has) return 0;
        break;
    case BASIC_ANY_LAST:
        break;
    default:
        if (d[k].has && basic_cmp_slots(&b->key, &s[k], &d[k]) * pick_sign(b) <= 0) return 0;
        break;
    }
    int rc = basic_slot_copy(&b->key, b->tracker, &d[k], &s[k], err);
    if (rc == 0 && k == 1) rc = basic_slot_copy(&b->arg, b->tracker, &d[0], &s[0], err);
    return rc;
}

static int pick_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    const basic_pick_bind *b = pick_bind_of(a);
    const basic_slot *s = state;
    if (!pick_is_arg(b)) return basic_slot_serialize(&b->key, s, out, err);
    int rc = basic_slot_serialize(&b->arg, &s[0], out, err);
    return rc != 0 ? rc : basic_slot_serialize(&b->key, &s[1], out, err);
}

static int pick_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                            size_t *used_out, mu_err *err) {
    const basic_pick_bind *b = pick_bind_of(a);
    basic_slot *s = state;
    if (!pick_is_arg(b)) return basic_slot_deserialize(a, &b->key, s, bytes, length, used_out, err);
    size_t first = 0, second = 0;
    int rc = basic_slot_deserialize(a, &b->arg, &s[0], bytes, length, &first, err);
    if (rc == 0)
        rc = basic_slot_deserialize(a, &b->key, &s[1], bytes + first, length - first, &second,
                                    err);
    if (rc == 0 && s[0].has != s[1].has) rc = basic_corrupt(a, "argument without key", err);
    if (rc == 0) *used_out = first + second;
    return rc;
}

static int pick_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    const basic_pick_bind *b = pick_bind_of(a);
    const basic_slot *s = state;
    return basic_slot_finalize(pick_is_arg(b) ? &b->arg : &b->key, &s[0], out, err);
}

static int pick_bind(exec_agg *a, mu_arena *arena, basic_pick_op op, mu_err *err) {
    bool two = op == BASIC_ARG_MIN || op == BASIC_ARG_MAX;
    if (a->arg_count != (two ? 2u : 1u))
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Aggregate function %s requires %s",
                      a->function->name, two ? "two arguments" : "single argument");
    basic_pick_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    b->op = op;
    b->key_index = two ? 1 : 0;
    b->tracker = a->ctx ? a->ctx->tracker : NULL;
    basic_desc_init(&b->key, a->arg_types[b->key_index]);
    basic_desc_init(&b->arg, a->arg_types[0]);
    a->bind_state = b;
    a->result_type = a->arg_types[0];
    a->state_bytes = (two ? 2 : 1) * sizeof(basic_slot);
    a->init = pick_init;
    a->update = pick_update;
    a->update_all = pick_update_all;
    a->merge = pick_merge;
    a->serialize = pick_serialize;
    a->deserialize = pick_deserialize;
    a->finalize = pick_finalize;
    a->destroy = pick_destroy;
    return 0;
}

static int min_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return pick_bind(a, arena, BASIC_MIN, err);
}
static int max_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return pick_bind(a, arena, BASIC_MAX, err);
}
static int any_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return pick_bind(a, arena, BASIC_ANY, err);
}
static int any_last_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return pick_bind(a, arena, BASIC_ANY_LAST, err);
}
static int arg_min_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return pick_bind(a, arena, BASIC_ARG_MIN, err);
}
static int arg_max_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return pick_bind(a, arena, BASIC_ARG_MAX, err);
}

/* ---- registry ------------------------------------------------------------ */

#define CI EXEC_AGG_CASE_INSENSITIVE

static const exec_aggregate agg_count = {"count", EXEC_AGG_NULLS_CUSTOM | CI, count_bind};
static const exec_aggregate agg_sum = {"sum", CI, sum_bind};
static const exec_aggregate agg_sum_overflow = {"sumWithOverflow", 0, sum_overflow_bind};
static const exec_aggregate agg_sum_kahan = {"sumKahan", 0, sum_kahan_bind};
static const exec_aggregate agg_avg = {"avg", CI, avg_bind};
static const exec_aggregate agg_min = {"min", CI, min_bind};
static const exec_aggregate agg_max = {"max", CI, max_bind};
static const exec_aggregate agg_any = {"any", 0, any_bind};
static const exec_aggregate agg_any_value = {"any_value", CI, any_bind};
static const exec_aggregate agg_first_value = {"first_value", CI, any_bind};
static const exec_aggregate agg_any_last = {"anyLast", 0, any_last_bind};
static const exec_aggregate agg_last_value = {"last_value", CI, any_last_bind};
static const exec_aggregate agg_arg_min = {"argMin", 0, arg_min_bind};
static const exec_aggregate agg_arg_max = {"argMax", 0, arg_max_bind};
static const exec_aggregate agg_min_by = {"min_by", CI, arg_min_bind};
static const exec_aggregate agg_max_by = {"max_by", CI, arg_max_bind};

const exec_aggregate *const exec__aggregates_basic[] = {
    &agg_count,       &agg_sum,         &agg_sum_overflow, &agg_sum_kahan, &agg_avg,
    &agg_min,         &agg_max,         &agg_any,          &agg_any_value, &agg_first_value,
    &agg_any_last,    &agg_last_value,  &agg_arg_min,      &agg_arg_max,   &agg_min_by,
    &agg_max_by,      NULL,
};
