/* fn_misc.c: ClickHouse's miscellaneous scalar functions: server facts read
 * from the query context (version, currentDatabase, hostName, displayName,
 * uptime, revision, currentUser), type and block introspection (toTypeName,
 * isConstant, blockSize, rowNumberInBlock), pass-through helpers (identity, materialize,
 * ignore), random values (rand, rand64, generateUUIDv4, randConstant), the
 * bit functions, bin and unbin, the formatReadable* family and throwIf.
 * Formatting follows ClickHouse's src/Common/formatReadable.cpp and
 * formatReadableTimeDelta.
 */
#include "exec/exec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

/* Appends `rows` copies of one string (version(), toTypeName(x), ...). */
static int misc_append_same_string(ty_column *out, const char *text, size_t bytes, uint32_t rows,
                                   mu_err *err) {
    for (uint32_t r = 0; r < rows; r++) {
        int rc = ty_column_append_bytes(out, text, bytes, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int misc_append_zeros(ty_column *out, uint32_t rows, mu_err *err) {
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    if (rc != 0) return rc;
    memset(at, 0, (size_t)rows * ty_type_value_bytes(out->type));
    return 0;
}

/* ------------------------------------------------------------------ */
/* Context facts: version, currentDatabase, hostName, displayName,      */
/* currentUser, uptime, revision                                        */
/* ------------------------------------------------------------------ */

typedef enum misc_fact {
    MISC_VERSION, MISC_DATABASE, MISC_HOSTNAME, MISC_DISPLAY_NAME, MISC_USER
} misc_fact;

static const char *misc_fact_text(const exec_call *call) {
    const exec_context *ctx = call->ctx;
    const char *text = NULL;
    switch ((misc_fact)(uintptr_t)call->state) {
    case MISC_VERSION: text = ctx ? ctx->version : NULL; break;
    case MISC_DATABASE: text = ctx ? ctx->database : NULL; break;
    case MISC_HOSTNAME: text = ctx ? ctx->hostname : NULL; break;
    /* ClickHouse's display_name defaults to the host name. */
    case MISC_DISPLAY_NAME:
        text = ctx ? (ctx->display_name ? ctx->display_name : ctx->hostname) : NULL;
        break;
    case MISC_USER: text = call->ctx && call->ctx->user ? call->ctx->user : "default"; break;
    }
    return text ? text : "";
}

static int misc_fact_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    (void)args;
    const char *text = misc_fact_text(call);
    return misc_append_same_string(out, text, strlen(text), rows, err);
}

static int misc_bind_fact(exec_call *call, misc_fact fact, mu_err *err) {
    int rc = exec__check_arg_count(call, 0, 0, err);
    if (rc != 0) return rc;
    call->state = (void *)(uintptr_t)fact;
    call->kernel = misc_fact_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int misc_bind_version(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_fact(call, MISC_VERSION, err);
}
static int misc_bind_database(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_fact(call, MISC_DATABASE, err);
}
static int misc_bind_hostname(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_fact(call, MISC_HOSTNAME, err);
}
static int misc_bind_display_name(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_fact(call, MISC_DISPLAY_NAME, err);
}
static int misc_bind_user(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_fact(call, MISC_USER, err);
}

static int misc_uptime_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    (void)args;
    int64_t s = call->ctx ? call->ctx->uptime_s : 0;
    uint32_t value = s < 0 ? 0 : s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
    uint32_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) at[r] = value;
    return 0;
}

static int misc_bind_uptime(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 0, 0, err);
    if (rc != 0) return rc;
    call->kernel = misc_uptime_kernel;
    call->result_type = ty_type_builtin(TY_UINT32);
    return 0;
}

/* revision(): UInt32. clickhouse-go's HTTP transport decodes every later
 * Native answer at the revision this returns, so it must be the client
 * protocol revision whose Native layout the server writes. */
static int misc_revision_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    (void)args;
    uint32_t value = call->ctx ? call->ctx->revision : 0;
    uint32_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) at[r] = value;
    return 0;
}

static int misc_bind_revision(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 0, 0, err);
    if (rc != 0) return rc;
    call->kernel = misc_revision_kernel;
    call->result_type = ty_type_builtin(TY_UINT32);
    return 0;
}

/* ------------------------------------------------------------------ */
/* toTypeName, isConstant, ignore, identity, materialize, block facts   */
/* ------------------------------------------------------------------ */

static int misc_type_name_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    (void)args;
    const char *name = call->state;
    return misc_append_same_string(out, name, strlen(name), rows, err);
}

static int misc_bind_type_name(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    mu_buf name;
    mu_buf_init(&name, TY_TYPE_NAME_BYTES_MAX);
    /* A column's own type: LowCardinality(T), which expressions see as T. */
    const exec_expr *arg = call->arg_exprs ? call->arg_exprs[0] : NULL;
    const ty_type *type = arg && arg->kind == EXEC_EXPR_INPUT && arg->input_type
                              ? arg->input_type : call->arg_types[0];
    rc = ty_type_render(type, &name, err);
    if (rc == 0) {
        char *copy = mu_arena_strndup(arena, (const char *)name.data, name.length_bytes, err);
        if (copy == NULL) rc = err->code;
        call->state = copy;
    }
    mu_buf_deinit(&name);
    if (rc != 0) return rc;
    call->kernel = misc_type_name_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int misc_is_constant_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                   ty_column *out, mu_err *err) {
    (void)args;
    uint8_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    memset(at, call->arg_consts[0] != NULL ? 1 : 0, rows);
    return 0;
}

static int misc_bind_is_constant(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    call->kernel = misc_is_constant_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

static int misc_zero_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    (void)call;
    (void)args;
    return misc_append_zeros(out, rows, err);
}

/* ignore(...) takes anything, NULL included, and returns 0. */
static int misc_bind_ignore(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    (void)err;
    call->kernel = misc_zero_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

/* identity(x), materialize(x): the argument unchanged, NULLs included. */
static int misc_copy_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    (void)call;
    if (!args[0].is_const) return ty_column_append_rows_from(out, args[0].column, 0, rows, err);
    for (uint32_t r = 0; r < rows; r++) {
        int rc = ty_column_append_from(out, args[0].column, 0, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int misc_bind_copy(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    call->kernel = misc_copy_kernel;
    call->result_type = call->arg_types[0];
    return 0;
}

/* blockSize() and rowNumberInBlock(): volatile, so evaluated per block. */
static int misc_block_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    (void)args;
    bool numbers = call->state != NULL;
    uint64_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) at[r] = numbers ? r : rows;
    return 0;
}

static int misc_bind_block(exec_call *call, bool row_numbers, mu_err *err) {
    int rc = exec__check_arg_count(call, 0, 0, err);
    if (rc != 0) return rc;
    call->state = row_numbers ? (void *)call : NULL;
    call->kernel = misc_block_kernel;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

static int misc_bind_block_size(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_block(call, false, err);
}
static int misc_bind_row_number(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_block(call, true, err);
}

/* ------------------------------------------------------------------ */
/* Random values                                                       */
/* ------------------------------------------------------------------ */

/* splitmix64 per thread, seeded from the clocks and the thread's stack:
 * rand() needs speed and spread, not secrecy (as ClickHouse's PCG). */
static _Thread_local uint64_t misc_rng_state;

static uint64_t misc_random_u64(void) {
    if (misc_rng_state == 0) {
        uint64_t seed = (uint64_t)mu_clock_wall_ns() ^ ((uint64_t)mu_clock_mono_ns() << 17) ^
                        (uint64_t)(uintptr_t)&seed;
        misc_rng_state = mu_hash_u64(seed) | 1u;
    }
    uint64_t z = (misc_rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int misc_rand_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    (void)args;
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    if (rc != 0) return rc;
    if (call->result_type->kind == TY_UINT64) {
        uint64_t *v = at;
        for (uint32_t r = 0; r < rows; r++) v[r] = misc_random_u64();
    } else {
        uint32_t *v = at;
        for (uint32_t r = 0; r < rows; r++) v[r] = (uint32_t)(misc_random_u64() >> 32);
    }
    return 0;
}

/* rand(), rand32(), rand64(): any arguments are evaluated and ignored. */
static int misc_bind_rand32(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    (void)err;
    call->kernel = misc_rand_kernel;
    call->result_type = ty_type_builtin(TY_UINT32);
    return 0;
}

static int misc_bind_rand64(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    (void)err;
    call->kernel = misc_rand_kernel;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

/* randConstant(): one value per query, drawn at bind time. */
static int misc_rand_constant_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                     ty_column *out, mu_err *err) {
    (void)args;
    uint32_t value = *(const uint32_t *)call->state;
    uint32_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) at[r] = value;
    return 0;
}

static int misc_bind_rand_constant(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 0, 1, err);
    if (rc != 0) return rc;
    uint32_t *value = mu_arena_alloc(arena, sizeof(*value), err);
    if (value == NULL) return err->code;
    *value = (uint32_t)(misc_random_u64() >> 32);
    call->state = value;
    call->kernel = misc_rand_constant_kernel;
    call->result_type = ty_type_builtin(TY_UINT32);
    return 0;
}

/* generateUUIDv4(): 122 random bits, version 4, variant 10 (RFC 4122). */
static int misc_uuid_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    (void)call;
    (void)args;
    uint8_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) {
        uint8_t *u = at + (size_t)r * 16;
        uint64_t hi = misc_random_u64(), lo = misc_random_u64();
        memcpy(u, &hi, 8);
        memcpy(u + 8, &lo, 8);
        u[6] = (uint8_t)((u[6] & 0x0F) | 0x40);
        u[8] = (uint8_t)((u[8] & 0x3F) | 0x80);
    }
    return 0;
}

static int misc_bind_uuid(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 0, 1, err);
    if (rc != 0) return rc;
    call->kernel = misc_uuid_kernel;
    call->result_type = ty_type_builtin(TY_UUID);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Bit functions                                                       */
/* ------------------------------------------------------------------ */

/* Integer width and signedness of a bit-function argument (Bool is UInt8). */
static bool misc_bit_int(const ty_type *t, unsigned *bytes, bool *is_signed) {
    if (t->kind == TY_BOOL) {
        *bytes = 1;
        *is_signed = false;
        return true;
    }
    if (!exec_type_is_integer(t)) return false;
    *bytes = ty_type_value_bytes(t);
    *is_signed = exec_type_is_signed(t);
    return true;
}

/* ClickHouse's ResultOfBit: the wider width, signed if either is. */
static const ty_type *misc_bit_result(unsigned a_bytes, bool a_signed, unsigned b_bytes,
                                      bool b_signed) {
    return ty_type_builtin(exec_int_kind(MU_MAX(a_bytes, b_bytes), a_signed || b_signed));
}

/* v truncated to `bits` and extended back to 64 bits by the sign. */
static int64_t misc_sign_extend(int64_t v, unsigned bits) {
    if (bits >= 64) return v;
    uint64_t m = 1ULL << (bits - 1);
    uint64_t x = (uint64_t)v & ((1ULL << bits) - 1);
    return (int64_t)((x ^ m) - m);
}

static uint64_t misc_zero_extend(int64_t v, unsigned bits) {
    return bits >= 64 ? (uint64_t)v : (uint64_t)v & ((1ULL << bits) - 1);
}

enum misc_bit_op { MISC_BIT_AND, MISC_BIT_OR, MISC_BIT_XOR, MISC_BIT_SHL, MISC_BIT_SHR };

typedef struct misc_bit_state {
    enum misc_bit_op op;
    unsigned a_bits;      /* shifts: width of the shifted value */
    bool b_signed;        /* shifts: a negative count is an error */
} misc_bit_state;

static int misc_bit_shift_error(mu_err *err) {
    return MU_ERR(err, MU_EOUT_OF_BOUND,
                  "The number of shift positions needs to be a non-negative value");
}

/* One shift of an integer as ClickHouse does it: static_cast<Result>(a)
 * shifted by b; counts past the width of a give 0, and a shift by the
 * whole width fills with the sign (left: 0). */
static int64_t misc_shift(const misc_bit_state *s, const ty_type *result, int64_t a, uint64_t b) {
    unsigned rbits = ty_type_value_bytes(result) * 8;
    MU_ASSERT(rbits >= s->a_bits && rbits <= 64);
    if (b > s->a_bits) return 0;
    if (s->op == MISC_BIT_SHL) return b >= 64 ? 0 : (int64_t)((uint64_t)a << b);
    if (exec_type_is_signed(result)) {
        int64_t v = misc_sign_extend(a, rbits);
        return b >= 64 ? (v < 0 ? -1 : 0) : v >> b;
    }
    uint64_t v = misc_zero_extend(a, rbits);
    return b >= 64 ? 0 : (int64_t)(v >> b);
}

static int misc_bit_binary_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                  ty_column *out, mu_err *err) {
    const misc_bit_state *s = call->state;
    int64_t *a = exec__scratch(rows, sizeof(*a), err);
    int64_t *b = a ? exec__scratch(rows, sizeof(*b), err) : NULL;
    int rc = 0;
    if (b == NULL) {
        free(a);
        return err->code;
    }
    exec__load_i64(&args[0], rows, a);
    exec__load_i64(&args[1], rows, b);
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        switch (s->op) {
        case MISC_BIT_AND: a[r] &= b[r]; break;
        case MISC_BIT_OR: a[r] |= b[r]; break;
        case MISC_BIT_XOR: a[r] ^= b[r]; break;
        case MISC_BIT_SHL:
        case MISC_BIT_SHR:
            if (s->b_signed && b[r] < 0) {
                if (exec_arg_is_null_row(&args[1], r) || exec_arg_is_null_row(&args[0], r)) {
                    a[r] = 0;
                    break;
                }
                rc = misc_bit_shift_error(err);
                break;
            }
            a[r] = misc_shift(s, call->result_type, a[r], (uint64_t)b[r]);
            break;
        }
    }
    if (rc == 0) rc = exec__store_i64(out, a, rows, err);
    free(a);
    free(b);
    return rc;
}

/* bitShiftLeft/Right of a String or FixedString: the bytes as one
 * big-endian number. A String grows on the left shift so no bit is lost;
 * a FixedString keeps its width. Counts of the whole width or more give
 * an empty String or a zero FixedString. */
static size_t misc_shift_bytes(bool left, bool fixed, const uint8_t *src, size_t n, uint64_t b,
                               uint8_t *dst) {
    if (b >= (uint64_t)n * 8) {
        if (fixed) memset(dst, 0, n);
        return fixed ? n : 0;
    }
    size_t by = (size_t)(b / 8);
    unsigned bits = (unsigned)(b % 8);
    if (left && fixed) {
        for (size_t k = 0; k < n; k++) {
            size_t i = k + by;
            uint8_t v = 0;
            if (i < n) v = (uint8_t)(src[i] << bits);
            if (bits && i + 1 < n) v |= (uint8_t)(src[i + 1] >> (8 - bits));
            dst[k] = v;
        }
        return n;
    }
    if (left) {
        size_t len = 0;
        uint8_t previous = 0;
        for (size_t i = 0; i < n; i++) {
            dst[len++] = bits ? (uint8_t)((src[i] >> (8 - bits)) | previous) : src[i];
            previous = (uint8_t)(src[i] << bits);
        }
        if (bits) dst[len++] = (uint8_t)(src[n - 1] << bits);
        memset(dst + len, 0, by);
        return len + by;
    }
    size_t keep = n - by, at = fixed ? by : 0;
    if (fixed) memset(dst, 0, by);
    for (size_t k = keep; k-- > 0;) {
        uint8_t v = (uint8_t)(src[k] >> bits);
        if (bits && k > 0) v |= (uint8_t)(src[k - 1] << (8 - bits));
        dst[at + k] = v;
    }
    return at + keep;
}

static int misc_bit_shift_string_kernel(const exec_call *call, const exec_arg *args,
                                        uint32_t rows, ty_column *out, mu_err *err) {
    const misc_bit_state *s = call->state;
    bool fixed = call->result_type->kind == TY_FIXED_STRING;
    uint8_t *buf = NULL;
    size_t cap = 0;
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        size_t n;
        const uint8_t *src = (const uint8_t *)exec_get_str(args[0].column,
                                                           exec_arg_row(&args[0], r), &n);
        uint32_t br = exec_arg_row(&args[1], r);
        int64_t bi = exec_get_i64(args[1].column, br);
        uint64_t b = s->b_signed ? (uint64_t)bi : exec_get_u64(args[1].column, br);
        if (s->b_signed && bi < 0) {
            if (!exec_arg_is_null_row(&args[1], r) && !exec_arg_is_null_row(&args[0], r)) {
                rc = misc_bit_shift_error(err);
                break;
            }
            b = (uint64_t)n * 8;
        }
        size_t need = n + (b < (uint64_t)n * 8 ? (size_t)(b / 8) : 0) + 1;
        if (need > cap) {
            uint8_t *grown = realloc(buf, need);
            if (grown == NULL) {
                rc = MU_ERR(err, MU_ENOMEM, "out of memory in %s", call->function->name);
                break;
            }
            buf = grown;
            cap = need;
        }
        size_t len = misc_shift_bytes(s->op == MISC_BIT_SHL, fixed, src, n, b, buf);
        MU_ASSERT(len <= need);
        rc = ty_column_append_bytes(out, buf, len, err);
    }
    free(buf);
    return rc;
}

/* bitAnd/bitOr/bitXor of two FixedStrings of one width, byte by byte. */
static int misc_bit_fixed_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    const misc_bit_state *s = call->state;
    size_t n = call->result_type->length;
    uint8_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) {
        size_t na, nb;
        const uint8_t *x = (const uint8_t *)exec_get_str(args[0].column,
                                                         exec_arg_row(&args[0], r), &na);
        const uint8_t *y = (const uint8_t *)exec_get_str(args[1].column,
                                                         exec_arg_row(&args[1], r), &nb);
        uint8_t *d = at + (size_t)r * n;
        for (size_t k = 0; k < n; k++)
            d[k] = s->op == MISC_BIT_AND ? x[k] & y[k] : s->op == MISC_BIT_OR ? x[k] | y[k]
                                                                                : x[k] ^ y[k];
    }
    return 0;
}

static int misc_bind_bit_binary(exec_call *call, mu_arena *arena, enum misc_bit_op op,
                                mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    misc_bit_state *s = mu_arena_calloc(arena, 1, sizeof(*s), err);
    if (s == NULL) return err->code;
    s->op = op;
    call->state = s;
    const ty_type *a = call->arg_types[0], *b = call->arg_types[1];
    unsigned ab, bb;
    bool as, bs;
    bool a_int = misc_bit_int(a, &ab, &as), b_int = misc_bit_int(b, &bb, &bs);
    bool shift = op == MISC_BIT_SHL || op == MISC_BIT_SHR;
    if (a_int && b_int) {
        s->a_bits = ab * 8;
        s->b_signed = bs;
        call->kernel = misc_bit_binary_kernel;
        call->result_type = misc_bit_result(ab, as, bb, bs);
        return 0;
    }
    if (shift && exec_type_is_string(a) && b_int) {
        s->b_signed = bs;
        call->kernel = misc_bit_shift_string_kernel;
        call->result_type = a;
        return 0;
    }
    if (!shift && a->kind == TY_FIXED_STRING && ty_type_equal(a, b)) {
        call->kernel = misc_bit_fixed_kernel;
        call->result_type = a;
        return 0;
    }
    char an[128], bn[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal types %s and %s of arguments of function %s",
                  ty_type_name(a, an, sizeof(an)), ty_type_name(b, bn, sizeof(bn)),
                  call->function->name);
}

static int misc_bind_bit_and(exec_call *call, mu_arena *arena, mu_err *err) {
    return misc_bind_bit_binary(call, arena, MISC_BIT_AND, err);
}
static int misc_bind_bit_or(exec_call *call, mu_arena *arena, mu_err *err) {
    return misc_bind_bit_binary(call, arena, MISC_BIT_OR, err);
}
static int misc_bind_bit_xor(exec_call *call, mu_arena *arena, mu_err *err) {
    return misc_bind_bit_binary(call, arena, MISC_BIT_XOR, err);
}
static int misc_bind_bit_shl(exec_call *call, mu_arena *arena, mu_err *err) {
    return misc_bind_bit_binary(call, arena, MISC_BIT_SHL, err);
}
static int misc_bind_bit_shr(exec_call *call, mu_arena *arena, mu_err *err) {
    return misc_bind_bit_binary(call, arena, MISC_BIT_SHR, err);
}

static int misc_bit_not_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                               ty_column *out, mu_err *err) {
    if (call->result_type->kind == TY_FIXED_STRING) {
        size_t n = call->result_type->length;
        uint8_t *at;
        int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
        if (rc != 0) return rc;
        for (uint32_t r = 0; r < rows; r++) {
            size_t len;
            const uint8_t *x = (const uint8_t *)exec_get_str(args[0].column,
                                                             exec_arg_row(&args[0], r), &len);
            for (size_t k = 0; k < n; k++) at[(size_t)r * n + k] = (uint8_t)~x[k];
        }
        return 0;
    }
    int64_t *a = exec__scratch(rows, sizeof(*a), err);
    if (a == NULL) return err->code;
    exec__load_i64(&args[0], rows, a);
    for (uint32_t r = 0; r < rows; r++) a[r] = ~a[r];
    int rc = exec__store_i64(out, a, rows, err);
    free(a);
    return rc;
}

static int misc_bind_bit_not(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *a = call->arg_types[0];
    unsigned bytes;
    bool is_signed;
    if (misc_bit_int(a, &bytes, &is_signed))
        call->result_type = ty_type_builtin(exec_int_kind(bytes, is_signed));
    else if (a->kind == TY_FIXED_STRING)
        call->result_type = a;
    else {
        char an[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument of function %s",
                      ty_type_name(a, an, sizeof(an)), call->function->name);
    }
    call->kernel = misc_bit_not_kernel;
    return 0;
}

/* bitCount(x): set bits of the value at its own width (floats by their
 * IEEE representation). */
static int misc_bit_count_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    (void)call;
    const ty_type *t = ty_type_strip_nullable(args[0].column->type);
    unsigned width = ty_type_value_bytes(t);
    const uint8_t *values = ty_column_values(args[0].column);
    uint8_t *at;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) {
        uint64_t bits = 0;
        memcpy(&bits, values + (size_t)exec_arg_row(&args[0], r) * width, width);
        at[r] = (uint8_t)__builtin_popcountll(bits);
    }
    return 0;
}

static int misc_bind_bit_count(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *a = call->arg_types[0];
    unsigned bytes;
    bool is_signed;
    if (!misc_bit_int(a, &bytes, &is_signed) && !exec_type_is_float(a)) {
        char an[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument of function %s",
                      ty_type_name(a, an, sizeof(an)), call->function->name);
    }
    call->kernel = misc_bit_count_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

/* ------------------------------------------------------------------ */
/* bin, unbin                                                          */
/* ------------------------------------------------------------------ */

/* Appends the 8 binary digits of each byte of p[0..n). */
static int misc_bin_bytes(const uint8_t *p, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, n * 8, err);
    if (rc != 0) return rc;
    uint8_t *d = out->data + out->length_bytes;
    for (size_t i = 0; i < n; i++)
        for (int bit = 7; bit >= 0; bit--) *d++ = (uint8_t)('0' + ((p[i] >> bit) & 1));
    out->length_bytes += n * 8;
    return 0;
}

/* One value as ClickHouse's bin writes it: strings byte by byte; integers,
 * Date and DateTime from the most significant non-zero byte (at least one
 * byte); floats and Decimals as their little-endian memory bytes; UUIDs in
 * text order. */
static int misc_bin_value(const ty_column *c, uint32_t row, mu_buf *out, mu_err *err) {
    const ty_type *t = ty_type_strip_nullable(c->type);
    size_t n;
    const uint8_t *p = ty_column_row_bytes(c, row, &n);
    if (exec_type_is_string(t) || exec_type_is_float(t) || t->kind == TY_DECIMAL ||
        t->kind == TY_UUID)
        return misc_bin_bytes(p, n, out, err);
    uint8_t be[8];
    size_t k = 0;
    for (size_t i = n; i > 0; i--) be[k++] = p[i - 1]; /* little-endian values */
    size_t skip = 0;
    while (skip + 1 < k && be[skip] == 0) skip++;
    return misc_bin_bytes(be + skip, k - skip, out, err);
}

static int misc_bin_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    (void)call;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        mu_buf_clear(&buf);
        rc = misc_bin_value(args[0].column, exec_arg_row(&args[0], r), &buf, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int misc_bind_bin(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    char tn[128];
    if (t->kind == TY_DATETIME64) /* ClickHouse accepts the type, then finds no column kind */
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal column %s of argument of function %s",
                      ty_type_name(t, tn, sizeof(tn)), call->function->name);
    bool ok = exec_type_is_string(t) || exec_type_is_integer(t) || exec_type_is_float(t) ||
              t->kind == TY_BOOL || t->kind == TY_DATE || t->kind == TY_DATETIME ||
              t->kind == TY_DECIMAL || t->kind == TY_UUID;
    if (!ok)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument of function %s",
                      ty_type_name(t, tn, sizeof(tn)), call->function->name);
    call->kernel = misc_bin_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

/* unbin: the leading (length % 8) digits make one byte of their own,
 * dropped when zero unless nothing follows; any digit but '0' reads as 1. */
static int misc_unbin_one(const uint8_t *p, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, n / 8 + 1, err);
    if (rc != 0 || n == 0) return rc;
    size_t i = 0;
    uint8_t left = 0;
    for (size_t head = n % 8; i < head; i++) left = (uint8_t)(left << 1 | (p[i] != '0'));
    if (left != 0 || i == n) out->data[out->length_bytes++] = left;
    while (i < n) {
        uint8_t byte = 0;
        for (int bit = 0; bit < 8; bit++, i++) byte = (uint8_t)(byte << 1 | (p[i] != '0'));
        out->data[out->length_bytes++] = byte;
    }
    return 0;
}

static int misc_unbin_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    (void)call;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        size_t n;
        const char *p = exec_get_str(args[0].column, exec_arg_row(&args[0], r), &n);
        mu_buf_clear(&buf);
        rc = misc_unbin_one((const uint8_t *)p, n, &buf, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int misc_bind_unbin(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    if (call->arg_types[0]->kind != TY_STRING) {
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument of function %s",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)), call->function->name);
    }
    call->kernel = misc_unbin_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

/* ------------------------------------------------------------------ */
/* formatReadableSize, formatReadableDecimalSize, formatReadableQuantity */
/* ------------------------------------------------------------------ */

/* value with `digits` (<= 9) fraction digits as double-conversion's
 * ToFixed writes it: correctly rounded, exact ties away from zero (printf
 * would round them to even). Values of 1e60 and more are written in the
 * shortest form, as ClickHouse falls back to ToShortest. */
static int misc_format_fixed(double value, unsigned digits, mu_buf *out, mu_err *err) {
    if (!isfinite(value) || fabs(value) >= 1e60) {
        char text[TY_FLOAT_TEXT_BYTES];
        size_t n = ty_float64_format(value, text);
        return mu_buf_append(out, text, n, err);
    }
    double scale = 2.0;
    uint64_t unit = 1;
    for (unsigned i = 0; i < digits; i++) {
        scale *= 10.0;
        unit *= 10;
    }
    MU_ASSERT(digits <= 9);
    double y = value * scale; /* a tie is exactly an odd integer here */
    if (fabs(y) < 9007199254740992.0 && fma(value, scale, -y) == 0.0 && y == floor(y) &&
        fmod(fabs(y), 2.0) == 1.0) {
        uint64_t q = ((uint64_t)fabs(y) + 1) / 2;
        return mu_buf_printf(out, err, "%s%llu.%0*llu", value < 0 ? "-" : "",
                             (unsigned long long)(q / unit), (int)digits,
                             (unsigned long long)(q % unit));
    }
    return mu_buf_printf(out, err, "%.*f", (int)digits, value);
}

typedef struct misc_readable_units {
    const char *const *names;
    unsigned count;
    double delimiter;
} misc_readable_units;

static const char *const misc_binary_units[] = {" B",   " KiB", " MiB", " GiB", " TiB",
                                                " PiB", " EiB", " ZiB", " YiB"};
static const char *const misc_decimal_units[] = {" B",  " KB", " MB", " GB", " TB",
                                                 " PB", " EB", " ZB", " YB"};
static const char *const misc_quantity_units[] = {
    "",           " thousand",    " million",         " billion",         " trillion",
    " quadrillion", " quintillion", " sextillion",    " septillion",      " octillion",
    " nonillion",   " decillion",   " undecillion",   " duodecillion",    " tredecillion",
    " quattuordecillion", " quindecillion", " sexdecillion", " septendecillion",
    " octodecillion", " novemdecillion", " vigintillion"};

static const misc_readable_units misc_units_binary = {misc_binary_units, 9, 1024.0};
static const misc_readable_units misc_units_decimal = {misc_decimal_units, 9, 1000.0};
static const misc_readable_units misc_units_quantity = {misc_quantity_units, 22, 1000.0};

static int misc_readable_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    const misc_readable_units *u = call->state;
    double *values = exec__scratch(rows, sizeof(*values), err);
    if (values == NULL) return err->code;
    exec__load_f64(&args[0], rows, values);
    mu_buf text;
    mu_buf_init(&text, 4096);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        double size = values[r];
        unsigned i = 0;
        for (; i + 1 < u->count && fabs(size) >= u->delimiter; i++) size /= u->delimiter;
        mu_buf_clear(&text);
        rc = misc_format_fixed(size, 2, &text, err);
        if (rc == 0) rc = mu_buf_append_str(&text, u->names[i], err);
        if (rc == 0) rc = ty_column_append_bytes(out, text.data, text.length_bytes, err);
    }
    mu_buf_deinit(&text);
    free(values);
    return rc;
}

/* Integers and floats only, as ClickHouse's isNativeNumber. */
static bool misc_is_native_number(const ty_type *t) {
    return exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL;
}

static int misc_bind_readable(exec_call *call, const misc_readable_units *units, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    if (!misc_is_native_number(call->arg_types[0])) {
        char an[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Cannot format %s because it's not a native numeric type",
                      ty_type_name(call->arg_types[0], an, sizeof(an)));
    }
    call->state = (void *)units;
    call->kernel = misc_readable_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int misc_bind_readable_size(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_readable(call, &misc_units_binary, err);
}
static int misc_bind_readable_decimal(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_readable(call, &misc_units_decimal, err);
}
static int misc_bind_readable_quantity(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return misc_bind_readable(call, &misc_units_quantity, err);
}

/* ------------------------------------------------------------------ */
/* formatReadableTimeDelta                                             */
/* ------------------------------------------------------------------ */

/* Units in ClickHouse's order; a year is 365 days and a month 30.5 days. */
enum misc_unit {
    MISC_NS = 1, MISC_US, MISC_MS, MISC_S, MISC_MIN, MISC_H, MISC_D, MISC_MON, MISC_Y
};

static const struct {
    const char *arg;     /* the unit argument's spelling */
    const char *name;    /* singular, as printed */
    uint64_t multiplier; /* seconds per unit for whole units */
    unsigned scale;      /* fraction digits for sub-second units */
} misc_units[] = {
    [MISC_NS] = {"nanoseconds", " nanosecond", 1, 9},
    [MISC_US] = {"microseconds", " microsecond", 1, 6},
    [MISC_MS] = {"milliseconds", " millisecond", 1, 3},
    [MISC_S] = {"seconds", " second", 1, 0},
    [MISC_MIN] = {"minutes", " minute", 60, 0},
    [MISC_H] = {"hours", " hour", 3600, 0},
    [MISC_D] = {"days", " day", 86400, 0},
    [MISC_MON] = {"months", " month", 2635200, 0},
    [MISC_Y] = {"years", " year", 31536000, 0},
};

typedef struct misc_delta {
    double whole;       /* whole seconds not yet printed */
    char fraction[10];  /* the nine fraction digits not yet printed */
    bool has_output;
    int min_unit;
} misc_delta;

static bool misc_fraction_zero(const misc_delta *d) {
    int digits = (4 - d->min_unit) * 3; /* digits shown by units below a second */
    for (int i = 0; i < digits && i < 9; i++)
        if (d->fraction[i] != '0') return false;
    return true;
}

static int misc_delta_unit(misc_delta *d, int unit, mu_buf *out, mu_err *err) {
    MU_ASSERT(unit >= MISC_NS && unit <= MISC_Y);
    uint64_t mult = misc_units[unit].multiplier, num = 0;
    unsigned scale = misc_units[unit].scale;
    bool is_min = unit == d->min_unit;
    if (d->whole + 1.0 == d->whole) {
        /* Too large for smaller units to mean anything: print it whole. */
        char text[TY_FLOAT_TEXT_BYTES];
        size_t n = ty_float64_format(floor(d->whole * pow(10, scale) / (double)mult), text);
        d->has_output = true;
        d->whole = 0;
        int rc = mu_buf_append(out, text, n, err);
        if (rc == 0) rc = mu_buf_append_str(out, misc_units[unit].name, err);
        return rc == 0 ? mu_buf_append_str(out, "s", err) : rc;
    }
    if (scale == 0) {
        num = (uint64_t)floor(d->whole / (double)mult);
        if (num == 0 && (mult != 1 || d->has_output)) return 0;
        d->whole -= (double)num * (double)mult;
    } else {
        uint64_t p = 1;
        for (unsigned i = 0; i < scale; i++) p *= 10;
        if (d->whole >= 1) {
            num += (uint64_t)d->whole * p;
            d->whole = 0;
        }
        for (unsigned i = 0; i < scale; i++) {
            p /= 10;
            num += (uint64_t)(d->fraction[i] - '0') * p;
            d->fraction[i] = '0';
        }
        if (num == 0 && (!is_min || d->has_output)) return 0;
    }
    int rc = 0;
    if (d->has_output)
        rc = mu_buf_append_str(out, is_min || (d->whole < 1 && misc_fraction_zero(d)) ? " and "
                                                                                      : ", ",
                               err);
    if (rc == 0)
        rc = mu_buf_printf(out, err, "%llu%s%s", (unsigned long long)num, misc_units[unit].name,
                           num != 1 ? "s" : "");
    d->has_output = true;
    return rc;
}

static int misc_delta_format(double value, int max_unit, int min_unit, mu_buf *out,
                             mu_err *err) {
    if (!isfinite(value)) {
        char text[TY_FLOAT_TEXT_BYTES];
        return mu_buf_append(out, text, ty_float64_format(value, text), err);
    }
    int rc = 0;
    if (value < 0) {
        rc = mu_buf_append_str(out, "-", err);
        value = -value;
    }
    misc_delta d = {.min_unit = min_unit};
    double fraction = modf(value, &d.whole);
    mu_buf digits;
    mu_buf_init(&digits, 64);
    if (rc == 0) rc = misc_format_fixed(fraction, 9, &digits, err);
    if (rc == 0) {
        /* "0.123456789" (or "1.000000000" after rounding): the nine digits. */
        memcpy(d.fraction, digits.data + digits.length_bytes - 9, 9);
        d.fraction[9] = 0;
    }
    mu_buf_deinit(&digits);
    for (int unit = max_unit; rc == 0 && unit >= min_unit; unit--)
        rc = misc_delta_unit(&d, unit, out, err);
    return rc;
}

typedef struct misc_delta_units {
    int max_unit, min_unit;
} misc_delta_units;

static int misc_delta_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    const misc_delta_units *u = call->state;
    mu_buf text;
    mu_buf_init(&text, 4096);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        mu_buf_clear(&text);
        rc = misc_delta_format(exec_get_f64(args[0].column, exec_arg_row(&args[0], r)),
                               u->max_unit, u->min_unit, &text, err);
        if (rc == 0) rc = ty_column_append_bytes(out, text.data, text.length_bytes, err);
    }
    mu_buf_deinit(&text);
    return rc;
}

static int misc_delta_unit_arg(const exec_call *call, uint32_t index, int fallback,
                               const char **text_out, int *unit_out, mu_err *err) {
    *unit_out = fallback;
    *text_out = "";
    if (index >= call->arg_count) return 0;
    const char *names[] = {"", "maximum_unit", "minimum_unit"};
    const char *bound[] = {"", "maximum", "minimum"};
    char tn[128];
    if (!exec_type_is_string(call->arg_types[index]))
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument %s of function %s",
                      ty_type_name(call->arg_types[index], tn, sizeof(tn)), names[index],
                      call->function->name);
    const char *data;
    size_t bytes;
    if (!exec__const_string(call, index, &data, &bytes))
        return MU_ERR(err, MU_EILLEGAL_COLUMN,
                      "Argument at index %u for function %s must be constant", index,
                      call->function->name);
    while (bytes > 0 && data[bytes - 1] == 0) bytes--; /* FixedString padding */
    *text_out = data;
    if (bytes == 0) return 0;
    for (int u = MISC_NS; u <= MISC_Y; u++) {
        if (strlen(misc_units[u].arg) == bytes && memcmp(misc_units[u].arg, data, bytes) == 0) {
            *unit_out = u;
            return 0;
        }
    }
    return MU_ERR(err, MU_EINVAL,
                  "Unexpected value of %s unit argument (%.*s) for function %s, the only allowed "
                  "values are: 'nanoseconds', 'microseconds', 'nanoseconds', 'seconds', "
                  "'minutes', 'hours', 'days', 'months', 'years'.",
                  bound[index], (int)MU_MIN(bytes, 200), data, call->function->name);
}

static int misc_bind_time_delta(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count == 0)
        return exec__error_arg_count(call, "at least 1.", err);
    if (call->arg_count > 3) return exec__error_arg_count(call, "1, 2 or 3.", err);
    char tn[128];
    if (!misc_is_native_number(call->arg_types[0]))
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Cannot format %s as time delta",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)));
    misc_delta_units *u = mu_arena_calloc(arena, 1, sizeof(*u), err);
    if (u == NULL) return err->code;
    const char *max_text, *min_text;
    int rc = misc_delta_unit_arg(call, 1, MISC_Y, &max_text, &u->max_unit, err);
    if (rc == 0) rc = misc_delta_unit_arg(call, 2, MISC_S, &min_text, &u->min_unit, err);
    if (rc != 0) return rc;
    if (u->min_unit > u->max_unit) {
        if (call->arg_count < 3 || min_text[0] == 0) {
            u->min_unit = MISC_NS; /* a sub-second maximum shows every smaller unit */
        } else {
            return MU_ERR(err, MU_EINVAL,
                          "Explicitly specified value of minimum unit argument (%s) for function "
                          "%s must not be greater than maximum unit value (%s).",
                          misc_units[u->min_unit].arg, call->function->name,
                          misc_units[u->max_unit].arg);
        }
    }
    call->state = u;
    call->kernel = misc_delta_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

/* ------------------------------------------------------------------ */
/* throwIf                                                             */
/* ------------------------------------------------------------------ */

static int misc_throw_if_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    const ty_type *t = ty_type_strip_nullable(args[0].column->type);
    unsigned width = ty_type_value_bytes(t);
    const uint8_t *values = ty_column_values(args[0].column);
    static const uint8_t zeros[8];
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t row = exec_arg_row(&args[0], r);
        /* Any non-zero bit pattern throws, -0.0 and NaN included (as memoryIsZero). */
        if (memcmp(values + (size_t)row * width, zeros, width) == 0 ||
            ty_column_is_null(args[0].column, row))
            continue;
        const char *message = call->state;
        if (message != NULL) return MU_ERR(err, MU_ETHROW_IF, "%s", message);
        return MU_ERR(err, MU_ETHROW_IF, "Value passed to '%s' function is non zero",
                      call->function->name);
    }
    return misc_append_zeros(out, rows, err);
}

static int misc_bind_throw_if(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count < 1 || call->arg_count > 2)
        return exec__error_arg_count(call, "1 or 2", err);
    if (!misc_is_native_number(call->arg_types[0]))
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Argument for function %s must be number",
                      call->function->name);
    call->state = NULL;
    if (call->arg_count == 2) {
        char tn[128];
        if (call->arg_types[1]->kind != TY_STRING)
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument of function %s",
                          ty_type_name(call->arg_types[1], tn, sizeof(tn)), call->function->name);
        const char *data;
        size_t bytes;
        if (!exec__const_string(call, 1, &data, &bytes))
            return MU_ERR(err, MU_EILLEGAL_COLUMN,
                          "Second argument for function %s must be constant String",
                          call->function->name);
        char *copy = mu_arena_strndup(arena, data, bytes, err);
        if (copy == NULL) return err->code;
        call->state = copy;
    }
    call->kernel = misc_throw_if_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Registry                                                            */
/* ------------------------------------------------------------------ */

#define MISC_FN(var, fname, fflags, fbind) \
    static const exec_function var = {.name = fname, .flags = (fflags), .bind = fbind}

#define MISC_CI EXEC_FN_CASE_INSENSITIVE

/* ClickHouse's aliases are registered as functions of their own. */
MISC_FN(misc_version, "version", MISC_CI, misc_bind_version);
MISC_FN(misc_current_database, "currentDatabase", 0, misc_bind_database);
MISC_FN(misc_database, "DATABASE", MISC_CI, misc_bind_database);
MISC_FN(misc_schema, "SCHEMA", MISC_CI, misc_bind_database);
MISC_FN(misc_current_database_alias, "current_database", MISC_CI, misc_bind_database);
MISC_FN(misc_host_name, "hostName", 0, misc_bind_hostname);
MISC_FN(misc_hostname, "hostname", 0, misc_bind_hostname);
MISC_FN(misc_current_user, "currentUser", 0, misc_bind_user);
MISC_FN(misc_user, "user", MISC_CI, misc_bind_user);
MISC_FN(misc_current_user_alias, "current_user", MISC_CI, misc_bind_user);
MISC_FN(misc_display_name, "displayName", 0, misc_bind_display_name);
MISC_FN(misc_uptime, "uptime", EXEC_FN_NOT_DETERMINISTIC, misc_bind_uptime);
MISC_FN(misc_revision, "revision", 0, misc_bind_revision);
MISC_FN(misc_to_type_name, "toTypeName", EXEC_FN_NULLS_CUSTOM, misc_bind_type_name);
MISC_FN(misc_is_constant, "isConstant", EXEC_FN_NULLS_CUSTOM, misc_bind_is_constant);
MISC_FN(misc_ignore, "ignore", EXEC_FN_NULLS_CUSTOM, misc_bind_ignore);
MISC_FN(misc_identity, "identity", EXEC_FN_NULLS_CUSTOM, misc_bind_copy);
MISC_FN(misc_materialize, "materialize", EXEC_FN_NULLS_CUSTOM | EXEC_FN_VOLATILE,
        misc_bind_copy);
MISC_FN(misc_block_size, "blockSize", EXEC_FN_VOLATILE, misc_bind_block_size);
MISC_FN(misc_row_number, "rowNumberInBlock", EXEC_FN_VOLATILE, misc_bind_row_number);
MISC_FN(misc_rand, "rand", EXEC_FN_NULLS_CUSTOM | EXEC_FN_VOLATILE, misc_bind_rand32);
MISC_FN(misc_rand32, "rand32", EXEC_FN_NULLS_CUSTOM | EXEC_FN_VOLATILE, misc_bind_rand32);
MISC_FN(misc_rand64, "rand64", EXEC_FN_NULLS_CUSTOM | EXEC_FN_VOLATILE, misc_bind_rand64);
MISC_FN(misc_rand_constant, "randConstant", EXEC_FN_NULLS_CUSTOM | EXEC_FN_NOT_DETERMINISTIC,
        misc_bind_rand_constant);
MISC_FN(misc_uuid_v4, "generateUUIDv4", EXEC_FN_NULLS_CUSTOM | EXEC_FN_VOLATILE,
        misc_bind_uuid);
MISC_FN(misc_bit_and, "bitAnd", 0, misc_bind_bit_and);
MISC_FN(misc_bit_or, "bitOr", 0, misc_bind_bit_or);
MISC_FN(misc_bit_xor, "bitXor", 0, misc_bind_bit_xor);
MISC_FN(misc_bit_not, "bitNot", 0, misc_bind_bit_not);
MISC_FN(misc_bit_shl, "bitShiftLeft", 0, misc_bind_bit_shl);
MISC_FN(misc_bit_shr, "bitShiftRight", 0, misc_bind_bit_shr);
MISC_FN(misc_bit_count, "bitCount", 0, misc_bind_bit_count);
MISC_FN(misc_bin, "bin", MISC_CI, misc_bind_bin);
MISC_FN(misc_unbin, "unbin", MISC_CI, misc_bind_unbin);
MISC_FN(misc_readable_size, "formatReadableSize", 0, misc_bind_readable_size);
MISC_FN(misc_readable_decimal, "formatReadableDecimalSize", 0, misc_bind_readable_decimal);
MISC_FN(misc_readable_quantity, "formatReadableQuantity", 0, misc_bind_readable_quantity);
MISC_FN(misc_readable_delta, "formatReadableTimeDelta", 0, misc_bind_time_delta);
MISC_FN(misc_throw_if, "throwIf", EXEC_FN_VOLATILE, misc_bind_throw_if);

const exec_function *const exec__functions_misc[] = {
    &misc_version,       &misc_current_database, &misc_database,         &misc_schema,
    &misc_current_database_alias, &misc_host_name, &misc_hostname,       &misc_current_user,
    &misc_user,          &misc_current_user_alias,
    &misc_uptime,        &misc_to_type_name,     &misc_is_constant,      &misc_ignore,
    &misc_identity,      &misc_materialize,      &misc_block_size,       &misc_row_number,
    &misc_rand,          &misc_rand32,           &misc_rand64,           &misc_rand_constant,
    &misc_uuid_v4,       &misc_bit_and,          &misc_bit_or,           &misc_bit_xor,
    &misc_bit_not,       &misc_bit_shl,          &misc_bit_shr,          &misc_bit_count,
    &misc_readable_size, &misc_readable_decimal, &misc_readable_quantity, &misc_readable_delta,
    &misc_throw_if,      &misc_bin,              &misc_unbin,            &misc_display_name,
    &misc_revision,      NULL,
};
