/* agg_stats.c: statistical aggregates with ClickHouse's names and result
 * types: varPop, varSamp, stddevPop, stddevSamp, covarPop, covarSamp,
 * corr (Float64; Welford's updates, blocks and states combined by Chan's
 * formula, so large offsets do not cancel as ClickHouse's sums of squares
 * do), and the quantile family: quantile/quantiles/median (ClickHouse's
 * reservoir sample of 8192 values, exact below that, interpolating between
 * neighbours), quantileExact, quantileExactLow, quantileExactHigh (the
 * element at floor(level * n) of the sorted values) with their quantiles*
 * and median* forms, and quantileTDigest/quantilesTDigest/medianTDigest.
 * Sample and digest states own malloc'd arrays charged to the query's
 * memory tracker and freed by destroy.
 *
 * Serialized states (integers little-endian, varint = LEB128):
 *   moments     varint n, then 8-byte IEEE mean_x, mean_y, m2_x, m2_y, c_xy
 *   sample      varint count, varint total, u64 generator state, u8 sorted
 *               (0/1), count keys of 8 bytes (16 for Decimal128): the
 *               order-preserving encoding of each value (stats_key_*)
 *   t-digest    varint centroids, varint unmerged, 8-byte IEEE total
 *               weight, then per centroid 4-byte IEEE mean and count
 */
#include "exec/exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared ------------------------------------------------------------------ */

static int stats_corrupt(const exec_agg *a, const char *what, mu_err *err) {
    return MU_CORRUPT(err, "aggregate state of %s: %s", a->function->name, what);
}

static mu_mem_tracker *stats_tracker(const exec_agg *a) {
    return a->ctx ? a->ctx->tracker : NULL;
}

static int stats_error_type(const exec_agg *a, const ty_type *t, mu_err *err) {
    char tn[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument for aggregate function %s",
                  ty_type_name(t, tn, sizeof(tn)), a->function->name);
}

/* Grows *data (elements of elem_bytes) to hold need elements, charging
 * the growth to the tracker; destroy releases capacity * elem_bytes. */
static int stats_reserve(mu_mem_tracker *tracker, void **data, uint64_t *capacity, uint64_t need,
                         size_t elem_bytes, mu_err *err) {
    if (need <= *capacity) return 0;
    uint64_t cap = *capacity ? *capacity : 16;
    while (cap < need) cap *= 2;
    size_t old_bytes = (size_t)*capacity * elem_bytes, new_bytes;
    if (!mu_size_mul(cap, elem_bytes, &new_bytes))
        return MU_ERR(err, MU_ETOO_LARGE, "aggregate state past %zu bytes", SIZE_MAX);
    if (tracker && mu_mem_tracker_charge(tracker, new_bytes - old_bytes, err) != 0)
        return err->code;
    void *p = realloc(*data, new_bytes);
    if (p == NULL) {
        if (tracker) mu_mem_tracker_release(tracker, new_bytes - old_bytes);
        return MU_ERR(err, MU_ENOMEM, "out of memory for an aggregate state of %zu bytes",
                      new_bytes);
    }
    *data = p;
    *capacity = cap;
    return 0;
}

static void stats_release(mu_mem_tracker *tracker, void *data, uint64_t capacity,
                          size_t elem_bytes) {
    free(data);
    if (tracker && capacity) mu_mem_tracker_release(tracker, (size_t)capacity * elem_bytes);
}

/* Machine class of a numeric-like value. */
typedef enum stats_ctype {
    STATS_U8,
    STATS_U16,
    STATS_U32,
    STATS_U64,
    STATS_I8,
    STATS_I16,
    STATS_I32,
    STATS_I64,
    STATS_I128,
    STATS_F32,
    STATS_F64,
    STATS_NONE,
} stats_ctype;

static stats_ctype stats_ctype_of(const ty_type *t) {
    switch (t->kind) {
    case TY_UINT8: case TY_BOOL: return STATS_U8;
    case TY_UINT16: case TY_DATE: return STATS_U16;
    case TY_UINT32: case TY_DATETIME: return STATS_U32;
    case TY_UINT64: return STATS_U64;
    case TY_INT8: return STATS_I8;
    case TY_INT16: return STATS_I16;
    case TY_INT32: return STATS_I32;
    case TY_INT64: case TY_DATETIME64: return STATS_I64;
    case TY_FLOAT32: return STATS_F32;
    case TY_FLOAT64: return STATS_F64;
    case TY_DECIMAL:
        return t->precision <= 9 ? STATS_I32 : t->precision <= 18 ? STATS_I64 : STATS_I128;
    default: return STATS_NONE;
    }
}

static void stats_nothing_init(const exec_agg *a, void *state) { (void)a, (void)state; }
static int stats_nothing_update(const exec_agg *a, void *const *states, const exec_arg *args,
                                uint32_t rows, mu_err *err) {
    (void)a, (void)states, (void)args, (void)rows, (void)err;
    return 0;
}
static int stats_nothing_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    (void)a, (void)dst, (void)src, (void)err;
    return 0;
}
static int stats_nothing_serialize(const exec_agg *a, const void *state, mu_buf *out,
                                   mu_err *err) {
    (void)a, (void)state, (void)out, (void)err;
    return 0;
}
static int stats_nothing_deserialize(const exec_agg *a, void *state, const uint8_t *bytes,
                                     size_t length, size_t *used_out, mu_err *err) {
    (void)a, (void)state, (void)bytes, (void)length, (void)err;
    *used_out = 0;
    return 0;
}
static int stats_nothing_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    (void)a, (void)state;
    return ty_column_append_default(out, err);
}

/* varSamp(NULL), quantile(NULL): no row is ever added; the NULL wrapper
 * answers NULL of type Nullable(Nothing), as ClickHouse does. */
static void stats_nothing_bind(exec_agg *a) {
    a->result_type = ty_type_builtin(TY_NOTHING);
    a->state_bytes = 1;
    a->init = stats_nothing_init;
    a->update = stats_nothing_update;
    a->merge = stats_nothing_merge;
    a->serialize = stats_nothing_serialize;
    a->deserialize = stats_nothing_deserialize;
    a->finalize = stats_nothing_finalize;
}

/* ---- moments: var*, stddev*, covar*, corr ----------------------------------- */

typedef enum stats_moment_fn {
    STATS_VAR_POP,
    STATS_VAR_SAMP,
    STATS_STDDEV_POP,
    STATS_STDDEV_SAMP,
    STATS_COVAR_POP,
    STATS_COVAR_SAMP,
    STATS_CORR,
} stats_moment_fn;

typedef struct stats_moments_bind {
    stats_moment_fn fn;
    double scale[2]; /* 10^S of a Decimal argument, else 1 */
} stats_moments_bind;

/* m2_* are sums of squared deviations from the means, c_xy the sum of
 * products of deviations. */
typedef struct stats_moments {
    uint64_t n;
    double mean_x, mean_y, m2_x, m2_y, c_xy;
} stats_moments;

static bool moments_binary(const stats_moments_bind *b) { return b->fn >= STATS_COVAR_POP; }

static void moments_init(const exec_agg *a, void *state) {
    (void)a;
    memset(state, 0, sizeof(stats_moments));
}

/* Welford's update with one observation. */
static void moments_add(stats_moments *s, double x, double y) {
    s->n++;
    double n = (double)s->n;
    double dx = x - s->mean_x, dy = y - s->mean_y;
    s->mean_x += dx / n;
    s->mean_y += dy / n;
    s->m2_x += dx * (x - s->mean_x);
    s->m2_y += dy * (y - s->mean_y);
    s->c_xy += dx * (y - s->mean_y);
}

/* Chan et al.'s pairwise combination: d becomes the moments of d and s. */
static void moments_combine(stats_moments *d, const stats_moments *s) {
    if (s->n == 0) return;
    if (d->n == 0) {
        *d = *s;
        return;
    }
    double na = (double)d->n, nb = (double)s->n, n = na + nb;
    double dx = s->mean_x - d->mean_x, dy = s->mean_y - d->mean_y;
    double f = na * nb / n;
    d->m2_x += s->m2_x + dx * dx * f;
    d->m2_y += s->m2_y + dy * dy * f;
    d->c_xy += s->c_xy + dx * dy * f;
    d->mean_x += dx * (nb / n);
    d->mean_y += dy * (nb / n);
    d->n += s->n;
}

/* Loads argument i as doubles (Decimal divided by 10^S); NULL on ENOMEM. */
static double *moments_load(const stats_moments_bind *b, const exec_arg *args, uint32_t i,
                            uint32_t rows, mu_err *err) {
    double *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return NULL;
    exec__load_f64(&args[i], rows, v);
    if (b->scale[i] != 1)
        for (uint32_t r = 0; r < rows; r++) v[r] /= b->scale[i];
    return v;
}

static int moments_update(const exec_agg *a, void *const *states, const exec_arg *args,
                          uint32_t rows, mu_err *err) {
    const stats_moments_bind *b = a->bind_state;
    double *x = moments_load(b, args, 0, rows, err), *y = NULL;
    if (x == NULL) return err->code;
    if (moments_binary(b) && (y = moments_load(b, args, 1, rows, err)) == NULL) {
        free(x);
        return err->code;
    }
    for (uint32_t r = 0; r < rows; r++)
        if (states[r] != NULL) moments_add(states[r], x[r], y ? y[r] : 0);
    free(x);
    free(y);
    return 0;
}

/* The no-GROUP-BY path: exact two-pass moments of the block, combined
 * into the state once. */
static int moments_update_all(const exec_agg *a, void *state, const exec_arg *args,
                              uint32_t rows, mu_err *err) {
    const stats_moments_bind *b = a->bind_state;
    if (rows == 0) return 0;
    double *x = moments_load(b, args, 0, rows, err), *y = NULL;
    if (x == NULL) return err->code;
    if (moments_binary(b) && (y = moments_load(b, args, 1, rows, err)) == NULL) {
        free(x);
        return err->code;
    }
    stats_moments m = {.n = rows};
    double sx = 0, sy = 0;
    for (uint32_t r = 0; r < rows; r++) sx += x[r];
    m.mean_x = sx / rows;
    if (y != NULL) {
        for (uint32_t r = 0; r < rows; r++) sy += y[r];
        m.mean_y = sy / rows;
        for (uint32_t r = 0; r < rows; r++) {
            double dx = x[r] - m.mean_x, dy = y[r] - m.mean_y;
            m.m2_x += dx * dx;
            m.m2_y += dy * dy;
            m.c_xy += dx * dy;
        }
    } else {
        for (uint32_t r = 0; r < rows; r++) {
            double dx = x[r] - m.mean_x;
            m.m2_x += dx * dx;
        }
    }
    moments_combine(state, &m);
    free(x);
    free(y);
    return 0;
}

static int moments_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    (void)a, (void)err;
    moments_combine(dst, src);
    return 0;
}

static int moments_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a;
    const stats_moments *s = state;
    const double v[5] = {s->mean_x, s->mean_y, s->m2_x, s->m2_y, s->c_xy};
    uint8_t bytes[40];
    for (int i = 0; i < 5; i++) {
        uint64_t bits;
        memcpy(&bits, &v[i], 8);
        mu_store_u64le(bytes + 8 * i, bits);
    }
    int rc = mu_buf_append_varint(out, s->n, err);
    return rc != 0 ? rc : mu_buf_append(out, bytes, sizeof(bytes), err);
}

static int moments_deserialize(const exec_agg *a, void *state, const uint8_t *bytes,
                               size_t length, size_t *used_out, mu_err *err) {
    stats_moments *s = state;
    size_t used = mu_varint_decode(bytes, length, &s->n);
    if (used == 0 || length - used < 40) return stats_corrupt(a, "truncated moments", err);
    double *v[5] = {&s->mean_x, &s->mean_y, &s->m2_x, &s->m2_y, &s->c_xy};
    for (int i = 0; i < 5; i++) {
        uint64_t bits = mu_load_u64le(bytes + used + 8 * i);
        memcpy(v[i], &bits, 8);
    }
    *used_out = used + 40;
    return 0;
}

static int moments_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    const stats_moments_bind *b = a->bind_state;
    const stats_moments *s = state;
    double n = (double)s->n, v;
    switch (b->fn) {
    case STATS_VAR_POP:
    case STATS_STDDEV_POP:
        v = s->n == 0 ? NAN : fmax(0, s->m2_x / n);
        break;
    case STATS_VAR_SAMP:
    case STATS_STDDEV_SAMP:
        v = s->n <= 1 ? NAN : fmax(0, s->m2_x / (n - 1));
        break;
    case STATS_COVAR_POP:
        v = s->n == 0 ? NAN : s->c_xy / n;
        break;
    case STATS_COVAR_SAMP:
        v = s->n <= 1 ? NAN : s->c_xy / (n - 1);
        break;
    default:
        v = s->n == 0 ? NAN : s->c_xy / sqrt(s->m2_x * s->m2_y);
        break;
    }
    if (b->fn == STATS_STDDEV_POP || b->fn == STATS_STDDEV_SAMP) v = sqrt(v);
    return ty_column_append_value(out, &v, err);
}

static bool stats_is_moment_number(const ty_type *t) {
    return exec_type_is_number(t);
}

static int moments_bind(exec_agg *a, mu_arena *arena, stats_moment_fn fn, mu_err *err) {
    bool binary = fn >= STATS_COVAR_POP;
    if (a->arg_count != (binary ? 2u : 1u))
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Aggregate function %s requires %s",
                      a->function->name, binary ? "two arguments" : "single argument");
    for (uint32_t i = 0; i < a->arg_count; i++) {
        if (a->arg_types[i]->kind == TY_NOTHING) {
            stats_nothing_bind(a);
            return 0;
        }
    }
    if (binary && (!stats_is_moment_number(a->arg_types[0]) ||
                   !stats_is_moment_number(a->arg_types[1]))) {
        char t0[128], t1[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal types %s and %s of arguments for aggregate function %s",
                      ty_type_name(a->arg_types[0], t0, sizeof(t0)),
                      ty_type_name(a->arg_types[1], t1, sizeof(t1)), a->function->name);
    }
    if (!binary && !stats_is_moment_number(a->arg_types[0]))
        return stats_error_type(a, a->arg_types[0], err);
    stats_moments_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    b->fn = fn;
    for (uint32_t i = 0; i < 2; i++) {
        const ty_type *t = i < a->arg_count ? a->arg_types[i] : NULL;
        b->scale[i] = t && t->kind == TY_DECIMAL ? (double)ty_decimal_pow10(t->scale) : 1;
    }
    a->bind_state = b;
    a->result_type = ty_type_builtin(TY_FLOAT64);
    a->state_bytes = sizeof(stats_moments);
    a->init = moments_init;
    a->update = moments_update;
    a->update_all = moments_update_all;
    a->merge = moments_merge;
    a->serialize = moments_serialize;
    a->deserialize = moments_deserialize;
    a->finalize = moments_finalize;
    return 0;
}

#define STATS_MOMENT_BIND(NAME, FN)                                                         \
    static int NAME(exec_agg *a, mu_arena *arena, mu_err *err) {                            \
        return moments_bind(a, arena, FN, err);                                             \
    }
STATS_MOMENT_BIND(var_pop_bind, STATS_VAR_POP)
STATS_MOMENT_BIND(var_samp_bind, STATS_VAR_SAMP)
STATS_MOMENT_BIND(stddev_pop_bind, STATS_STDDEV_POP)
STATS_MOMENT_BIND(stddev_samp_bind, STATS_STDDEV_SAMP)
STATS_MOMENT_BIND(covar_pop_bind, STATS_COVAR_POP)
STATS_MOMENT_BIND(covar_samp_bind, STATS_COVAR_SAMP)
STATS_MOMENT_BIND(corr_bind, STATS_CORR)

/* ---- order-preserving keys ------------------------------------------------- */

/* Sample values are kept as unsigned keys that sort like the values:
 * floats by their IEEE bits (sign flipped, negatives inverted), signed
 * integers with the sign bit flipped, unsigned as they are; Decimal128 as
 * a 16-byte key. NaN is never stored (ClickHouse skips it). */
typedef enum stats_key_class {
    STATS_KEY_FLOAT,
    STATS_KEY_SIGNED,
    STATS_KEY_UNSIGNED,
    STATS_KEY_WIDE,
} stats_key_class;

#define STATS_SIGN64 (UINT64_C(1) << 63)

static uint64_t stats_key_of_double(double v) {
    uint64_t b;
    memcpy(&b, &v, 8);
    return (b & STATS_SIGN64) ? ~b : b | STATS_SIGN64;
}

static double stats_double_of_key(uint64_t k) {
    uint64_t b = (k & STATS_SIGN64) ? k & ~STATS_SIGN64 : ~k;
    double v;
    memcpy(&v, &b, 8);
    return v;
}

static stats_key_class stats_key_class_of(stats_ctype c) {
    switch (c) {
    case STATS_F32: case STATS_F64: return STATS_KEY_FLOAT;
    case STATS_U8: case STATS_U16: case STATS_U32: case STATS_U64: return STATS_KEY_UNSIGNED;
    case STATS_I128: return STATS_KEY_WIDE;
    default: return STATS_KEY_SIGNED;
    }
}

/* The value of a key as a double (Decimal: the scaled integer). */
static double stats_key_value(stats_key_class k, const uint8_t *key) {
    uint64_t v;
    memcpy(&v, key, 8);
    switch (k) {
    case STATS_KEY_FLOAT: return stats_double_of_key(v);
    case STATS_KEY_SIGNED: return (double)(int64_t)(v ^ STATS_SIGN64);
    case STATS_KEY_UNSIGNED: return (double)v;
    default: {
        unsigned __int128 w;
        memcpy(&w, key, 16);
        return (double)(__int128)(w ^ ((unsigned __int128)1 << 127));
    }
    }
}

/* The keys of a block into keys[]; keep[r] = 0 for rows that add nothing
 * (NaN; NULL when the function sees NULLs itself). */
#define STATS_KEYS_LOOP(CT, EXPR)                                                          \
    do {                                                                                   \
        const CT *src = (const void *)values;                                              \
        for (uint32_t r = 0; r < rows; r++) {                                              \
            CT v = src[(size_t)r * step];                                                  \
            EXPR;                                                                          \
        }                                                                                  \
    } while (0)

#define STATS_K64(r) (((uint64_t *)(void *)keys)[r])
#define STATS_KEY_INT(v) ((uint64_t)(int64_t)(v) ^ STATS_SIGN64)

static void stats_block_keys(stats_ctype ctype, const exec_arg *arg, uint32_t rows,
                             uint8_t *keys, uint8_t *keep) {
    const uint8_t *values = ty_column_values(arg->column);
    uint32_t step = arg->is_const ? 0 : 1;
    memset(keep, 1, rows);
    switch (ctype) {
    case STATS_U8: STATS_KEYS_LOOP(uint8_t, STATS_K64(r) = v); break;
    case STATS_U16: STATS_KEYS_LOOP(uint16_t, STATS_K64(r) = v); break;
    case STATS_U32: STATS_KEYS_LOOP(uint32_t, STATS_K64(r) = v); break;
    case STATS_U64: STATS_KEYS_LOOP(uint64_t, STATS_K64(r) = v); break;
    case STATS_I8: STATS_KEYS_LOOP(int8_t, STATS_K64(r) = STATS_KEY_INT(v)); break;
    case STATS_I16: STATS_KEYS_LOOP(int16_t, STATS_K64(r) = STATS_KEY_INT(v)); break;
    case STATS_I32: STATS_KEYS_LOOP(int32_t, STATS_K64(r) = STATS_KEY_INT(v)); break;
    case STATS_I64: STATS_KEYS_LOOP(int64_t, STATS_K64(r) = STATS_KEY_INT(v)); break;
    case STATS_F32:
        STATS_KEYS_LOOP(float, (STATS_K64(r) = stats_key_of_double(v), keep[r] = !isnan(v)));
        break;
    case STATS_F64:
        STATS_KEYS_LOOP(double, (STATS_K64(r) = stats_key_of_double(v), keep[r] = !isnan(v)));
        break;
    case STATS_I128:
        STATS_KEYS_LOOP(__int128, {
            unsigned __int128 w = (unsigned __int128)v ^ ((unsigned __int128)1 << 127);
            memcpy(keys + (size_t)r * 16, &w, 16);
        });
        break;
    default: MU_ASSERT(!"keys of a non-numeric class"); break;
    }
    if (arg->column->nullable)
        for (uint32_t r = 0; r < rows; r++) keep[r] &= !exec_arg_is_null_row(arg, r);
}

/* LSD radix sort of 64-bit keys by bits [first_shift, 64), stable. */
static int stats_radix_sort(uint64_t *keys, uint64_t n, unsigned first_shift, mu_err *err) {
    if (n < 48) {
        for (uint64_t i = 1; i < n; i++) {
            uint64_t k = keys[i], j = i;
            for (; j > 0 && (keys[j - 1] >> first_shift) > (k >> first_shift); j--)
                keys[j] = keys[j - 1];
            keys[j] = k;
        }
        return 0;
    }
    uint64_t *tmp = malloc((size_t)n * sizeof(*tmp)), *from = keys, *to = tmp;
    if (tmp == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory sorting %llu values",
                                   (unsigned long long)n);
    for (unsigned shift = first_shift; shift < 64; shift += 8) {
        uint64_t count[256] = {0};
        for (uint64_t i = 0; i < n; i++) count[(from[i] >> shift) & 255]++;
        if (count[(from[0] >> shift) & 255] == n) continue; /* one byte value: no move */
        uint64_t pos = 0;
        for (int b = 0; b < 256; b++) {
            uint64_t c = count[b];
            count[b] = pos;
            pos += c;
        }
        for (uint64_t i = 0; i < n; i++) to[count[(from[i] >> shift) & 255]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != keys) memcpy(keys, from, (size_t)n * sizeof(*keys));
    free(tmp);
    return 0;
}

static int stats_cmp_wide(const void *x, const void *y) {
    unsigned __int128 a, b;
    memcpy(&a, x, 16);
    memcpy(&b, y, 16);
    return (a > b) - (a < b);
}

/* ---- quantiles: bind ------------------------------------------------------------ */

typedef enum stats_algo {
    STATS_RESERVOIR,
    STATS_EXACT,
    STATS_EXACT_LOW,
    STATS_EXACT_HIGH,
    STATS_TDIGEST,
} stats_algo;

#define STATS_RESERVOIR_SIZE 8192u
#define STATS_RESERVOIR_SEED UINT64_C(123456)

typedef struct stats_quantile_bind {
    stats_algo algo;
    bool many;              /* quantiles*(...): an Array of levels.size() */
    bool float_result;      /* Float64 (reservoir) / Float32 (t-digest), else the value type */
    stats_ctype ctype;      /* the argument's machine class */
    stats_key_class key;
    uint32_t key_bytes;     /* 8, or 16 for Decimal128 */
    uint32_t level_count;
    const double *levels;   /* as given */
    const ty_type *elem_type; /* the result, or the Array's element */
    mu_mem_tracker *tracker;
} stats_quantile_bind;

static const stats_quantile_bind *quantile_bind_of(const exec_agg *a) { return a->bind_state; }

/* quantile*(level...)(x): levels are numeric constants in [0, 1]; none
 * means the median. */
static int quantile_levels(exec_agg *a, mu_arena *arena, bool many, double **levels_out,
                           uint32_t *count_out, mu_err *err) {
    uint32_t n = a->param_count;
    if (n == 0 && many)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Aggregate function for calculation of "
                      "multiple quantiles require at least one parameter");
    double *levels = mu_arena_calloc(arena, n ? n : 1, sizeof(*levels), err);
    if (levels == NULL) return err->code;
    levels[0] = 0.5;
    for (uint32_t i = 0; i < n; i++) {
        const ty_column *p = a->params[i];
        const ty_type *t = ty_type_strip_nullable(p->type);
        if (!exec_type_is_number(t) || ty_column_is_null(p, 0)) {
            char tn[128];
            return MU_ERR(err, MU_ECANNOT_CONVERT, "Cannot convert %s to Float64",
                          ty_column_is_null(p, 0) ? "NULL" : ty_type_name(t, tn, sizeof(tn)));
        }
        levels[i] = exec_get_f64(p, 0);
        if (t->kind == TY_DECIMAL) levels[i] /= (double)ty_decimal_pow10(t->scale);
        if (isnan(levels[i]) || levels[i] < 0 || levels[i] > 1)
            return MU_ERR(err, MU_EPARAMETER_OUT_OF_BOUND,
                          "Quantile level is out of range [0..1]");
    }
    if (!many && n > 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires one level parameter or less",
                      a->function->name);
    *levels_out = levels;
    *count_out = n ? n : 1;
    return 0;
}

/* Which argument types an algorithm takes and whether the result is a
 * float: numbers give Float64 (reservoir) or Float32 (t-digest), Date and
 * DateTime (and for the sample algorithms Decimal and DateTime64) give
 * their own type; quantileExact* always gives the argument's type. */
static int quantile_result_kind(const exec_agg *a, stats_algo algo, const ty_type *t,
                                bool *float_out, mu_err *err) {
    bool number = exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL;
    bool dated = t->kind == TY_DATE || t->kind == TY_DATETIME;
    bool wide = t->kind == TY_DECIMAL || t->kind == TY_DATETIME64;
    if (!number && !dated && !(wide && algo != STATS_TDIGEST)) return stats_error_type(a, t, err);
    *float_out = number && (algo == STATS_RESERVOIR || algo == STATS_TDIGEST);
    return 0;
}

static void quantile_set_ops(exec_agg *a, bool tdigest);

static int quantile_bind(exec_agg *a, mu_arena *arena, stats_algo algo, bool many,
                         mu_err *err) {
    if (a->arg_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires at least one argument", a->function->name);
    /* quantiles* see NULLs themselves (an Array is never NULL): strip here. */
    const ty_type *t = ty_type_strip_nullable(a->arg_types[0]);
    if (t->kind == TY_NOTHING && !many && a->arg_count == 1) {
        stats_nothing_bind(a);
        return 0;
    }
    stats_quantile_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    int rc = quantile_result_kind(a, algo, t, &b->float_result, err);
    double *levels = NULL;
    if (rc == 0) rc = quantile_levels(a, arena, many, &levels, &b->level_count, err);
    if (rc != 0) return rc;
    if (a->arg_count != 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires single argument", a->function->name);
    b->algo = algo;
    b->many = many;
    b->levels = levels;
    b->ctype = stats_ctype_of(t);
    b->key = stats_key_class_of(b->ctype);
    b->key_bytes = b->key == STATS_KEY_WIDE ? 16 : 8;
    b->tracker = stats_tracker(a);
    b->elem_type = !b->float_result        ? t
                   : algo == STATS_TDIGEST ? ty_type_builtin(TY_FLOAT32)
                                           : ty_type_builtin(TY_FLOAT64);
    a->result_type = b->elem_type;
    if (many) {
        ty_type *arr = mu_arena_calloc(arena, 1, sizeof(*arr), err);
        if (arr == NULL) return err->code;
        arr->kind = TY_ARRAY;
        arr->child = b->elem_type;
        a->result_type = arr;
    }
    a->bind_state = b;
    quantile_set_ops(a, algo == STATS_TDIGEST);
    return 0;
}

/* Appends one result value: `v` (interpolated, as a double; Decimal and
 * DateTime64 as the scaled integer, truncated like ClickHouse's casts)
 * into a column of the result element type. */
static int quantile_append_double(const stats_quantile_bind *b, double v, ty_column *out,
                                  mu_err *err) {
    if (b->elem_type->kind == TY_FLOAT32) {
        float f = (float)v;
        return ty_column_append_value(out, &f, err);
    }
    if (b->float_result || b->ctype == STATS_F64) return ty_column_append_value(out, &v, err);
    if (b->ctype == STATS_F32) {
        float f = (float)v;
        return ty_column_append_value(out, &f, err);
    }
    /* Between two stored values, so in range except for rounding at the
     * extremes of 64- and 128-bit types: clamp before converting. */
    __int128 w = 0;
    if (!isnan(v)) w = v >= 1.7e38 ? (__int128)(((unsigned __int128)1 << 127) - 1)
                     : v <= -1.7e38 ? -(__int128)(((unsigned __int128)1 << 127) - 1) - 1
                                    : (__int128)v;
    if (b->ctype == STATS_U64 && v >= 18446744073709551615.0) w = (__int128)UINT64_MAX;
    if (b->ctype == STATS_I64 && v >= 9223372036854775807.0) w = INT64_MAX;
    uint8_t bytes[16];
    memcpy(bytes, &w, 16); /* little-endian host: the low bytes are the narrow value */
    return ty_column_append_value(out, bytes, err);
}

/* Appends the exact stored value of a key. */
static int quantile_append_key(const stats_quantile_bind *b, const uint8_t *key, ty_column *out,
                               mu_err *err) {
    uint8_t bytes[16];
    uint64_t k;
    memcpy(&k, key, 8);
    switch (b->key) {
    case STATS_KEY_FLOAT: return quantile_append_double(b, stats_double_of_key(k), out, err);
    case STATS_KEY_SIGNED: k ^= STATS_SIGN64; break;
    case STATS_KEY_UNSIGNED: break;
    default: {
        unsigned __int128 w;
        memcpy(&w, key, 16);
        w ^= (unsigned __int128)1 << 127;
        memcpy(bytes, &w, 16);
        return ty_column_append_value(out, bytes, err);
    }
    }
    memcpy(bytes, &k, 8);
    return ty_column_append_value(out, bytes, err);
}

/* The empty answer: NaN for float results, the type's zero otherwise;
 * quantilesExact* of floats answer 0 (ClickHouse fills Value()). */
static int quantile_append_empty(const stats_quantile_bind *b, ty_column *out, mu_err *err) {
    bool is_float = b->float_result || b->ctype == STATS_F32 || b->ctype == STATS_F64;
    if (b->many && b->algo != STATS_RESERVOIR && b->algo != STATS_TDIGEST) is_float = false;
    if (is_float) return quantile_append_double(b, NAN, out, err);
    uint8_t zero[16] = {0};
    return ty_column_append_value(out, zero, err);
}

/* ---- quantiles: sample (reservoir and exact) ---------------------------------- */

typedef struct stats_sample {
    uint8_t *keys;     /* count keys of key_bytes */
    uint64_t count;
    uint64_t capacity; /* keys allocated */
    uint64_t total;    /* values seen: count, or more once the reservoir samples */
    uint64_t rng;      /* reservoir generator state (xorshift64*) */
    uint8_t sorted;
} stats_sample;

static void sample_init(const exec_agg *a, void *state) {
    (void)a;
    stats_sample *s = state;
    memset(s, 0, sizeof(*s));
    s->rng = STATS_RESERVOIR_SEED;
}

static void sample_destroy(const exec_agg *a, void *state) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    stats_sample *s = state;
    stats_release(b->tracker, s->keys, s->capacity, b->key_bytes);
    memset(s, 0, sizeof(*s));
}

/* A uniform number in [0, limit), limit > 0 (xorshift64*). */
static uint64_t sample_random(stats_sample *s, uint64_t limit) {
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return (s->rng * UINT64_C(2685821657736338717)) % limit;
}

/* Adds one key: the exact algorithms keep all; the reservoir keeps the
 * first 8192, then replaces a random one with probability 8192 / total. */
static int sample_add(const stats_quantile_bind *b, stats_sample *s, const uint8_t *key,
                      mu_err *err) {
    s->sorted = 0;
    s->total++;
    if (b->algo != STATS_RESERVOIR || s->count < STATS_RESERVOIR_SIZE) {
        int rc = stats_reserve(b->tracker, (void **)&s->keys, &s->capacity, s->count + 1,
                               b->key_bytes, err);
        if (rc != 0) {
            s->total--;
            return rc;
        }
        memcpy(s->keys + s->count * b->key_bytes, key, b->key_bytes);
        s->count++;
        return 0;
    }
    uint64_t r = sample_random(s, s->total);
    if (r < STATS_RESERVOIR_SIZE) memcpy(s->keys + r * b->key_bytes, key, b->key_bytes);
    return 0;
}

static int sample_update(const exec_agg *a, void *const *states, const exec_arg *args,
                         uint32_t rows, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    uint8_t *keys = exec__scratch(rows, b->key_bytes + 1u, err);
    if (keys == NULL) return err->code;
    uint8_t *keep = keys + (size_t)rows * b->key_bytes;
    stats_block_keys(b->ctype, &args[0], rows, keys, keep);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++)
        if (states[r] != NULL && keep[r])
            rc = sample_add(b, states[r], keys + (size_t)r * b->key_bytes, err);
    free(keys);
    return rc;
}

/* The no-GROUP-BY path of the exact algorithms: one bulk append. */
static int sample_update_all(const exec_agg *a, void *state, const exec_arg *args,
                             uint32_t rows, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    stats_sample *s = state;
    if (b->algo == STATS_RESERVOIR || rows == 0) {
        void **states = exec__scratch(rows, sizeof(*states), err);
        if (states == NULL) return err->code;
        for (uint32_t r = 0; r < rows; r++) states[r] = state;
        int rc = sample_update(a, states, args, rows, err);
        free(states);
        return rc;
    }
    int rc = stats_reserve(b->tracker, (void **)&s->keys, &s->capacity, s->count + rows,
                           b->key_bytes, err);
    if (rc != 0) return rc;
    uint8_t *keep = exec__scratch(rows, 1, err);
    if (keep == NULL) return err->code;
    uint8_t *at = s->keys + s->count * b->key_bytes;
    stats_block_keys(b->ctype, &args[0], rows, at, keep);
    uint64_t kept = 0;
    for (uint32_t r = 0; r < rows; r++) {
        if (!keep[r]) continue;
        if (kept != r) memmove(at + kept * b->key_bytes, at + (size_t)r * b->key_bytes,
                               b->key_bytes);
        kept++;
    }
    free(keep);
    s->count += kept;
    s->total += kept;
    s->sorted = 0;
    return 0;
}

/* Exact: the union of both. Reservoir: exact while the halves are small;
 * two sampled halves mix slot by slot, taking the other's key with
 * probability other.total / (total + other.total). */
static int sample_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    stats_sample *d = dst;
    const stats_sample *s = src;
    uint32_t kb = b->key_bytes;
    if (b->algo != STATS_RESERVOIR || s->total <= STATS_RESERVOIR_SIZE) {
        for (uint64_t i = 0; i < s->count; i++) {
            int rc = sample_add(b, d, s->keys + i * kb, err);
            if (rc != 0) return rc;
        }
        return 0;
    }
    if (d->total <= STATS_RESERVOIR_SIZE) {
        stats_sample mine = *d;
        d->keys = NULL;
        d->count = d->capacity = 0;
        int rc = stats_reserve(b->tracker, (void **)&d->keys, &d->capacity, s->count, kb, err);
        if (rc == 0) {
            memcpy(d->keys, s->keys, s->count * kb);
            d->count = s->count;
            d->total = s->total;
            d->sorted = 0;
            for (uint64_t i = 0; i < mine.count && rc == 0; i++)
                rc = sample_add(b, d, mine.keys + i * kb, err);
        }
        stats_release(b->tracker, mine.keys, mine.capacity, kb);
        return rc;
    }
    uint64_t total = d->total + s->total;
    for (uint64_t i = 0; i < STATS_RESERVOIR_SIZE; i++)
        if (sample_random(d, total) < s->total) memcpy(d->keys + i * kb, s->keys + i * kb, kb);
    d->total = total;
    d->sorted = 0;
    return 0;
}

static int sample_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    const stats_sample *s = state;
    int rc = mu_buf_append_varint(out, s->count, err);
    if (rc == 0) rc = mu_buf_append_varint(out, s->total, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, s->rng, err);
    if (rc == 0) rc = mu_buf_append_u8(out, s->sorted, err);
    if (rc == 0 && s->count > 0) rc = mu_buf_append(out, s->keys, s->count * b->key_bytes, err);
    return rc;
}

static int sample_deserialize(const exec_agg *a, void *state, const uint8_t *bytes,
                              size_t length, size_t *used_out, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    stats_sample *s = state;
    uint64_t count, total;
    size_t p = mu_varint_decode(bytes, length, &count), q;
    if (p == 0 || (q = mu_varint_decode(bytes + p, length - p, &total)) == 0)
        return stats_corrupt(a, "bad sample size", err);
    p += q;
    bool reservoir = b->algo == STATS_RESERVOIR;
    if (reservoir ? count != MU_MIN(total, (uint64_t)STATS_RESERVOIR_SIZE) : count != total)
        return stats_corrupt(a, "sample size does not match its total", err);
    if (length - p < 9 || bytes[p + 8] > 1 || (length - p - 9) / b->key_bytes < count)
        return stats_corrupt(a, "truncated sample", err);
    uint64_t rng = mu_load_u64le(bytes + p);
    if (rng == 0) return stats_corrupt(a, "bad generator state", err);
    int rc = stats_reserve(b->tracker, (void **)&s->keys, &s->capacity, count, b->key_bytes, err);
    if (rc != 0) return rc;
    if (count > 0) memcpy(s->keys, bytes + p + 9, count * b->key_bytes);
    s->count = count;
    s->total = total;
    s->rng = rng;
    s->sorted = bytes[p + 8];
    *used_out = p + 9 + count * b->key_bytes;
    return 0;
}

static int sample_sort(const stats_quantile_bind *b, stats_sample *s, mu_err *err) {
    if (s->sorted) return 0;
    if (b->key_bytes == 8) {
        int rc = stats_radix_sort((uint64_t *)(void *)s->keys, s->count, 0, err);
        if (rc != 0) return rc;
    } else {
        qsort(s->keys, s->count, 16, stats_cmp_wide);
    }
    s->sorted = 1;
    return 0;
}

/* The reservoir answer: linear interpolation between the neighbours of
 * index level * (n - 1), ClickHouse's rule. */
static int sample_interpolated(const stats_quantile_bind *b, const stats_sample *s, double level,
                               ty_column *out, mu_err *err) {
    double n = (double)s->count;
    double index = fmax(0., fmin(n - 1, level * (n - 1)));
    uint64_t left = (uint64_t)index, right = left + 1;
    double lv = stats_key_value(b->key, s->keys + left * b->key_bytes);
    if (right == s->count) return quantile_append_double(b, lv, out, err);
    double rv = stats_key_value(b->key, s->keys + right * b->key_bytes);
    double v = lv * ((double)right - index) + rv * (index - (double)left);
    return quantile_append_double(b, v, out, err);
}

/* The exact answer: the element at floor(level * n) (level 1: the last);
 * Low and High medians at level 0.5 as Python's median_low/median_high. */
static int sample_exact(const stats_quantile_bind *b, const stats_sample *s, double level,
                        ty_column *out, mu_err *err) {
    uint64_t n = s->count, at;
    if (level == 0.5 && b->algo == STATS_EXACT_LOW) at = n % 2 ? n / 2 : n / 2 - 1;
    else if (level == 0.5 && b->algo == STATS_EXACT_HIGH) at = n / 2;
    else at = level < 1 ? (uint64_t)(level * (double)n) : n - 1;
    if (at >= n) at = n - 1;
    return quantile_append_key(b, s->keys + at * b->key_bytes, out, err);
}

static int quantile_finish(const stats_quantile_bind *b, ty_column *out, mu_err *err) {
    return b->many ? ty_column_append_nested_end(out, err) : 0;
}

static int sample_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    stats_sample *s = state;
    int rc = sample_sort(b, s, err);
    ty_column *target = b->many ? ty_column_child_mut(out, 0) : out;
    for (uint32_t i = 0; i < b->level_count && rc == 0; i++) {
        if (s->count == 0) rc = quantile_append_empty(b, target, err);
        else if (b->algo == STATS_RESERVOIR)
            rc = sample_interpolated(b, s, b->levels[i], target, err);
        else rc = sample_exact(b, s, b->levels[i], target, err);
    }
    return rc != 0 ? rc : quantile_finish(b, out, err);
}

/* ---- quantiles: t-digest ------------------------------------------------------------ */

/* quantileTDigest: Dunning's t-digest with ClickHouse's parameters: a
 * centroid may absorb a neighbour while its weight stays within
 * 4 * n * epsilon * q * (1 - q) (epsilon = 0.01, q its quantile), new
 * points are buffered and compressed every 2048, at most 2048 centroids.
 * The rank error of a quantile is about epsilon * n at the median and
 * shrinks towards the tails (q (1 - q)); below roughly 200 values every
 * value keeps its own centroid and the answer is an exact order statistic
 * (with ClickHouse's singleton rule). Means and weights are Float32, as
 * ClickHouse's, so values lose precision past 2^24. */
#define STATS_TD_EPSILON ((double)0.01f)
#define STATS_TD_MAX_CENTROIDS 2048u
#define STATS_TD_MAX_UNMERGED 2048u
#define STATS_TD_DESERIALIZE_MAX 65536u

typedef struct stats_centroid {
    float mean;
    float count;
} stats_centroid;

typedef struct stats_tdigest {
    stats_centroid *c;
    uint64_t capacity;
    uint32_t count;
    uint32_t unmerged;
    double total; /* sum of the weights */
} stats_tdigest;

static void tdigest_init(const exec_agg *a, void *state) {
    (void)a;
    memset(state, 0, sizeof(stats_tdigest));
}

static void tdigest_destroy(const exec_agg *a, void *state) {
    stats_tdigest *t = state;
    stats_release(quantile_bind_of(a)->tracker, t->c, t->capacity, sizeof(stats_centroid));
    memset(t, 0, sizeof(*t));
}

static uint32_t tdigest_key(float v) {
    uint32_t b;
    memcpy(&b, &v, 4);
    return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}

/* Sorts the centroids by mean, stable (equal means keep their order). */
static int tdigest_sort(stats_tdigest *t, mu_err *err) {
    uint64_t *order = malloc((size_t)t->count * sizeof(*order));
    stats_centroid *copy = malloc((size_t)t->count * sizeof(*copy));
    int rc = 0;
    if (order == NULL || copy == NULL) {
        rc = MU_ERR(err, MU_ENOMEM, "out of memory sorting a t-digest");
        goto done;
    }
    for (uint32_t i = 0; i < t->count; i++)
        order[i] = ((uint64_t)tdigest_key(t->c[i].mean) << 32) | i;
    rc = stats_radix_sort(order, t->count, 32, err);
    if (rc != 0) goto done;
    memcpy(copy, t->c, (size_t)t->count * sizeof(*copy));
    for (uint32_t i = 0; i < t->count; i++) t->c[i] = copy[(uint32_t)order[i]];
done:
    free(order);
    free(copy);
    return rc;
}

static bool tdigest_mergeable(double l_mean, float r_mean) {
    return l_mean == r_mean || (!isinf(l_mean) && !isinf(r_mean));
}

/* Fallback bound on the centroid count: glue runs of consecutive
 * centroids (the error-driven pass keeps far fewer in practice). */
static void tdigest_compress_runs(stats_tdigest *t) {
    if (t->count <= STATS_TD_MAX_CENTROIDS) return;
    uint32_t run = (t->count + STATS_TD_MAX_CENTROIDS - 1) / STATS_TD_MAX_CENTROIDS, out = 0;
    double total = 0;
    for (uint32_t i = 0; i < t->count; i += run) {
        double mean = t->c[i].mean, weight = t->c[i].count;
        for (uint32_t j = i + 1; j < i + run && j < t->count; j++) {
            weight += t->c[j].count;
            if (t->c[j].mean != mean) mean += t->c[j].count * (t->c[j].mean - mean) / weight;
        }
        if (isnan(mean)) continue;
        t->c[out].mean = (float)mean;
        t->c[out].count = (float)weight;
        total += t->c[out].count;
        out++;
    }
    t->count = out;
    t->total = total;
}

/* Sorts, then lets each centroid absorb its right neighbours while the
 * combined weight stays within 4 n epsilon q (1 - q). */
static int tdigest_compress(stats_tdigest *t, mu_err *err) {
    if (t->count > 0 && (t->unmerged > 0 || t->count > STATS_TD_MAX_CENTROIDS)) {
        int rc = tdigest_sort(t, err);
        if (rc != 0) return rc;
        double limit = t->total * STATS_TD_EPSILON * 4, before = 0;
        uint32_t l = 0;
        double l_mean = t->c[0].mean, l_weight = t->c[0].count;
        for (uint32_t r = 1; r < t->count; r++) {
            const stats_centroid rc_ = t->c[r];
            double ql = (before + l_weight * 0.5) / t->total;
            double qr = (before + l_weight + rc_.count * 0.5) / t->total;
            double k = limit * fmin(ql * (1 - ql), qr * (1 - qr));
            if (l_weight + rc_.count <= k && tdigest_mergeable(l_mean, rc_.mean)) {
                l_weight += rc_.count;
                if (rc_.mean != l_mean) l_mean += rc_.count * (rc_.mean - l_mean) / l_weight;
                t->c[l].mean = (float)l_mean;
                t->c[l].count = (float)l_weight;
            } else {
                before += t->c[l].count;
                t->c[++l] = rc_;
                l_mean = rc_.mean;
                l_weight = rc_.count;
            }
        }
        t->total = before + l_weight;
        t->count = l + 1;
        t->unmerged = 0;
    }
    tdigest_compress_runs(t);
    return 0;
}

static int tdigest_add(const stats_quantile_bind *b, stats_tdigest *t, stats_centroid c,
                       mu_err *err) {
    int rc = stats_reserve(b->tracker, (void **)&t->c, &t->capacity, (uint64_t)t->count + 1,
                           sizeof(stats_centroid), err);
    if (rc != 0) return rc;
    t->c[t->count++] = c;
    t->total += c.count;
    if (++t->unmerged > STATS_TD_MAX_UNMERGED) return tdigest_compress(t, err);
    return 0;
}

static int tdigest_update(const exec_agg *a, void *const *states, const exec_arg *args,
                          uint32_t rows, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    double *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_f64(&args[0], rows, v);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        float x = (float)v[r];
        if (states[r] == NULL || isnan(x) || exec_arg_is_null_row(&args[0], r)) continue;
        rc = tdigest_add(b, states[r], (stats_centroid){x, 1}, err);
    }
    free(v);
    return rc;
}

static int tdigest_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    const stats_tdigest *s = src;
    for (uint32_t i = 0; i < s->count; i++) {
        int rc = tdigest_add(b, dst, s->c[i], err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int tdigest_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a;
    const stats_tdigest *t = state;
    uint64_t total;
    memcpy(&total, &t->total, 8);
    int rc = mu_buf_append_varint(out, t->count, err);
    if (rc == 0) rc = mu_buf_append_varint(out, t->unmerged, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, total, err);
    for (uint32_t i = 0; i < t->count && rc == 0; i++) {
        uint32_t m, c;
        memcpy(&m, &t->c[i].mean, 4);
        memcpy(&c, &t->c[i].count, 4);
        rc = mu_buf_append_u32le(out, m, err);
        if (rc == 0) rc = mu_buf_append_u32le(out, c, err);
    }
    return rc;
}

static int tdigest_deserialize(const exec_agg *a, void *state, const uint8_t *bytes,
                               size_t length, size_t *used_out, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    stats_tdigest *t = state;
    uint64_t count, unmerged;
    size_t p = mu_varint_decode(bytes, length, &count), q;
    if (p == 0 || (q = mu_varint_decode(bytes + p, length - p, &unmerged)) == 0)
        return stats_corrupt(a, "bad t-digest size", err);
    p += q;
    if (count > STATS_TD_DESERIALIZE_MAX || unmerged > count)
        return stats_corrupt(a, "too many t-digest centroids", err);
    if (length - p < 8 || (length - p - 8) / 8 < count)
        return stats_corrupt(a, "truncated t-digest", err);
    uint64_t total_bits = mu_load_u64le(bytes + p);
    double total;
    memcpy(&total, &total_bits, 8);
    if (!isfinite(total) || total < 0) return stats_corrupt(a, "bad t-digest weight", err);
    int rc = stats_reserve(b->tracker, (void **)&t->c, &t->capacity, count,
                           sizeof(stats_centroid), err);
    if (rc != 0) return rc;
    p += 8;
    for (uint64_t i = 0; i < count; i++, p += 8) {
        uint32_t m = mu_load_u32le(bytes + p), c = mu_load_u32le(bytes + p + 4);
        memcpy(&t->c[i].mean, &m, 4);
        memcpy(&t->c[i].count, &c, 4);
        if (isnan(t->c[i].mean) || !(t->c[i].count > 0) || isinf(t->c[i].count))
            return stats_corrupt(a, "bad t-digest centroid", err);
    }
    t->count = (uint32_t)count;
    t->unmerged = (uint32_t)unmerged;
    t->total = total;
    *used_out = p;
    return 0;
}

/* ClickHouse's reading of a digest: centroid i stands at the middle of its
 * weight; a singleton (weight 1) is exact up to half a rank either side;
 * between two centroids the value is interpolated (in Float32, as there). */
static float tdigest_quantile(const stats_tdigest *t, double level) {
    if (t->count == 1) return t->c[0].mean;
    double x = level * t->total, prev_x = 0;
    float sum = 0, prev_mean = t->c[0].mean, prev_count = t->c[0].count;
    for (uint32_t i = 0; i < t->count; i++) {
        const stats_centroid c = t->c[i];
        double current_x = sum + c.count * 0.5;
        if (current_x >= x) {
            double left = prev_x + 0.5 * (prev_count == 1);
            double right = current_x - 0.5 * (c.count == 1);
            if (x <= left) return prev_mean;
            if (x >= right) return c.mean;
            float fx = (float)x, fl = (float)left, fr = (float)right;
            double k = (fx - fl) / (fr - fl);
            return (float)((1 - k) * prev_mean + k * c.mean);
        }
        sum += c.count;
        prev_mean = c.mean;
        prev_count = c.count;
        prev_x = current_x;
    }
    return t->c[t->count - 1].mean;
}

static int tdigest_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    const stats_quantile_bind *b = quantile_bind_of(a);
    stats_tdigest *t = state;
    int rc = tdigest_compress(t, err);
    ty_column *target = b->many ? ty_column_child_mut(out, 0) : out;
    for (uint32_t i = 0; i < b->level_count && rc == 0; i++) {
        if (t->count == 0) rc = quantile_append_empty(b, target, err);
        else rc = quantile_append_double(b, tdigest_quantile(t, b->levels[i]), target, err);
    }
    return rc != 0 ? rc : quantile_finish(b, out, err);
}

static void quantile_set_ops(exec_agg *a, bool tdigest) {
    if (tdigest) {
        a->state_bytes = sizeof(stats_tdigest);
        a->init = tdigest_init;
        a->update = tdigest_update;
        a->merge = tdigest_merge;
        a->serialize = tdigest_serialize;
        a->deserialize = tdigest_deserialize;
        a->finalize = tdigest_finalize;
        a->destroy = tdigest_destroy;
        return;
    }
    a->state_bytes = sizeof(stats_sample);
    a->init = sample_init;
    a->update = sample_update;
    a->update_all = sample_update_all;
    a->merge = sample_merge;
    a->serialize = sample_serialize;
    a->deserialize = sample_deserialize;
    a->finalize = sample_finalize;
    a->destroy = sample_destroy;
}

#define STATS_QUANTILE_BIND(NAME, ALGO, MANY)                                               \
    static int NAME(exec_agg *a, mu_arena *arena, mu_err *err) {                            \
        return quantile_bind(a, arena, ALGO, MANY, err);                                    \
    }
STATS_QUANTILE_BIND(quantile_one_bind, STATS_RESERVOIR, false)
STATS_QUANTILE_BIND(quantile_many_bind, STATS_RESERVOIR, true)
STATS_QUANTILE_BIND(exact_one_bind, STATS_EXACT, false)
STATS_QUANTILE_BIND(exact_many_bind, STATS_EXACT, true)
STATS_QUANTILE_BIND(exact_low_one_bind, STATS_EXACT_LOW, false)
STATS_QUANTILE_BIND(exact_low_many_bind, STATS_EXACT_LOW, true)
STATS_QUANTILE_BIND(exact_high_one_bind, STATS_EXACT_HIGH, false)
STATS_QUANTILE_BIND(exact_high_many_bind, STATS_EXACT_HIGH, true)
STATS_QUANTILE_BIND(tdigest_one_bind, STATS_TDIGEST, false)
STATS_QUANTILE_BIND(tdigest_many_bind, STATS_TDIGEST, true)

/* ---- registry ------------------------------------------------------------------- */

#define CI EXEC_AGG_CASE_INSENSITIVE
#define PARAMS EXEC_AGG_NEEDS_PARAMS
/* quantiles* return an Array, which is never NULL: they skip NULLs
 * themselves and answer for an empty set (ClickHouse's
 * returns_default_when_only_null). */
#define MANY (EXEC_AGG_NEEDS_PARAMS | EXEC_AGG_NULLS_CUSTOM)

static const exec_aggregate agg_var_pop = {"varPop", 0, var_pop_bind};
static const exec_aggregate agg_var_samp = {"varSamp", 0, var_samp_bind};
static const exec_aggregate agg_stddev_pop = {"stddevPop", 0, stddev_pop_bind};
static const exec_aggregate agg_stddev_samp = {"stddevSamp", 0, stddev_samp_bind};
static const exec_aggregate agg_covar_pop = {"covarPop", 0, covar_pop_bind};
static const exec_aggregate agg_covar_samp = {"covarSamp", 0, covar_samp_bind};
static const exec_aggregate agg_corr = {"corr", CI, corr_bind};
static const exec_aggregate agg_var_pop_sql = {"VAR_POP", CI, var_pop_bind};
static const exec_aggregate agg_var_samp_sql = {"VAR_SAMP", CI, var_samp_bind};
static const exec_aggregate agg_stddev_pop_sql = {"STDDEV_POP", CI, stddev_pop_bind};
static const exec_aggregate agg_stddev_samp_sql = {"STDDEV_SAMP", CI, stddev_samp_bind};
static const exec_aggregate agg_covar_pop_sql = {"COVAR_POP", CI, covar_pop_bind};
static const exec_aggregate agg_covar_samp_sql = {"COVAR_SAMP", CI, covar_samp_bind};

static const exec_aggregate agg_quantile = {"quantile", PARAMS, quantile_one_bind};
static const exec_aggregate agg_median = {"median", PARAMS, quantile_one_bind};
static const exec_aggregate agg_quantiles = {"quantiles", MANY, quantile_many_bind};
static const exec_aggregate agg_q_exact = {"quantileExact", PARAMS, exact_one_bind};
static const exec_aggregate agg_median_exact = {"medianExact", PARAMS, exact_one_bind};
static const exec_aggregate agg_qs_exact = {"quantilesExact", MANY, exact_many_bind};
static const exec_aggregate agg_q_low = {"quantileExactLow", PARAMS, exact_low_one_bind};
static const exec_aggregate agg_median_low = {"medianExactLow", PARAMS, exact_low_one_bind};
static const exec_aggregate agg_qs_low = {"quantilesExactLow", MANY, exact_low_many_bind};
static const exec_aggregate agg_q_high = {"quantileExactHigh", PARAMS, exact_high_one_bind};
static const exec_aggregate agg_median_high = {"medianExactHigh", PARAMS, exact_high_one_bind};
static const exec_aggregate agg_qs_high = {"quantilesExactHigh", MANY, exact_high_many_bind};
static const exec_aggregate agg_q_td = {"quantileTDigest", PARAMS, tdigest_one_bind};
static const exec_aggregate agg_median_td = {"medianTDigest", PARAMS, tdigest_one_bind};
static const exec_aggregate agg_qs_td = {"quantilesTDigest", MANY, tdigest_many_bind};

const exec_aggregate *const exec__aggregates_stats[] = {
    &agg_var_pop,        &agg_var_samp,       &agg_stddev_pop,      &agg_stddev_samp,
    &agg_covar_pop,      &agg_covar_samp,     &agg_corr,            &agg_var_pop_sql,
    &agg_var_samp_sql,   &agg_stddev_pop_sql, &agg_stddev_samp_sql, &agg_covar_pop_sql,
    &agg_covar_samp_sql, &agg_quantile,       &agg_median,          &agg_quantiles,
    &agg_q_exact,        &agg_median_exact,   &agg_qs_exact,        &agg_q_low,
    &agg_median_low,     &agg_qs_low,         &agg_q_high,          &agg_median_high,
    &agg_qs_high,        &agg_q_td,           &agg_median_td,       &agg_qs_td,
    NULL,
};
