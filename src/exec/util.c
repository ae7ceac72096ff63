/* util.c: helpers shared by every bind and kernel: ClickHouse-worded
 * argument errors, constant-argument access, bulk loads of numeric columns
 * into machine arrays and stores back, and the type predicates.
 */
#include "exec/exec_int.h"

/* Loads count values from row first of a numeric-like column (see
 * exec_get_*), for kernels that work on a range (Array elements).
 * Declared here and by their users until exec_int.h carries them. */
void exec__load_f64_at(const ty_column *column, uint32_t first, uint32_t count, double *out);
void exec__load_i64_at(const ty_column *column, uint32_t first, uint32_t count, int64_t *out);
void exec__load_u64_at(const ty_column *column, uint32_t first, uint32_t count, uint64_t *out);

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int exec__error_arg_count(const exec_call *call, const char *expected, mu_err *err) {
    return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                  "Number of arguments for function %s doesn't match: passed %u, should be %s",
                  call->function->name, call->arg_count, expected);
}

int exec__error_arg_type(const exec_call *call, uint32_t index, mu_err *err) {
    char name[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument %u of function %s",
                  ty_type_name(call->arg_types[index], name, sizeof(name)), index + 1,
                  call->function->name);
}

int exec__error_arg_types(const exec_call *call, mu_err *err) {
    char list[400] = "", name[128];
    size_t used = 0;
    for (uint32_t i = 0; i < call->arg_count && used < sizeof(list) - 1; i++) {
        ty_type_name(call->arg_types[i], name, sizeof(name));
        size_t n = strlen(name);
        if (i > 0 && used + 2 < sizeof(list)) {
            memcpy(list + used, ", ", 2);
            used += 2;
        }
        if (used + n >= sizeof(list)) n = sizeof(list) - 1 - used;
        memcpy(list + used, name, n);
        used += n;
        list[used] = 0;
    }
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal types of arguments (%s) of function %s", list,
                  call->function->name);
}

int exec__check_arg_count(const exec_call *call, uint32_t min, uint32_t max, mu_err *err) {
    if (call->arg_count >= min && call->arg_count <= max) return 0;
    char expected[48];
    if (min == max) snprintf(expected, sizeof(expected), "%u", min);
    else if (max == UINT32_MAX) snprintf(expected, sizeof(expected), "at least %u", min);
    else snprintf(expected, sizeof(expected), "%u to %u", min, max);
    return exec__error_arg_count(call, expected, err);
}

bool exec__const_string(const exec_call *call, uint32_t index, const char **data_out,
                        size_t *bytes_out) {
    const ty_column *c = index < call->arg_count ? call->arg_consts[index] : NULL;
    if (c == NULL || ty_column_is_null(c, 0)) return false;
    ty_kind k = ty_type_strip_nullable(c->type)->kind;
    if (k != TY_STRING && k != TY_FIXED_STRING) return false;
    *data_out = exec_get_str(c, 0, bytes_out);
    return true;
}

bool exec__const_i64(const exec_call *call, uint32_t index, int64_t *value_out) {
    const ty_column *c = index < call->arg_count ? call->arg_consts[index] : NULL;
    if (c == NULL || ty_column_is_null(c, 0)) return false;
    if (!exec_type_is_number(ty_type_strip_nullable(c->type))) return false;
    *value_out = exec_get_i64(c, 0);
    return true;
}

bool exec__const_f64(const exec_call *call, uint32_t index, double *value_out) {
    const ty_column *c = index < call->arg_count ? call->arg_consts[index] : NULL;
    if (c == NULL || ty_column_is_null(c, 0)) return false;
    if (!exec_type_is_number(ty_type_strip_nullable(c->type))) return false;
    *value_out = exec_get_f64(c, 0);
    return true;
}

void *exec__scratch(size_t count, size_t size, mu_err *err) {
    void *p = malloc(count ? count * size : 1);
    if (p == NULL) MU_ERR(err, MU_ENOMEM, "out of memory for %zu values of a kernel", count);
    return p;
}

/* ---- typed access -------------------------------------------------- */

static const ty_type *util_value_type(const ty_column *c) {
    return ty_type_strip_nullable(c->type);
}

#define UTIL_GET(T, p, row, out_type)                                                      \
    ((out_type)((const T *)(const void *)(p))[row])

#define UTIL_DEFINE_GET(name, out_type)                                                     \
    out_type name(const ty_column *column, uint32_t row) {                                  \
        const ty_type *t = util_value_type(column);                                         \
        const uint8_t *p = ty_column_values(column);                                        \
        switch (t->kind) {                                                                  \
        case TY_UINT8: case TY_BOOL: return UTIL_GET(uint8_t, p, row, out_type);            \
        case TY_UINT16: case TY_DATE: return UTIL_GET(uint16_t, p, row, out_type);          \
        case TY_UINT32: case TY_DATETIME: return UTIL_GET(uint32_t, p, row, out_type);      \
        case TY_UINT64: return UTIL_GET(uint64_t, p, row, out_type);                        \
        case TY_INT8: case TY_ENUM8: return UTIL_GET(int8_t, p, row, out_type);             \
        case TY_INT16: case TY_ENUM16: return UTIL_GET(int16_t, p, row, out_type);          \
        case TY_INT32: case TY_DATE32: return UTIL_GET(int32_t, p, row, out_type);          \
        case TY_INT64: case TY_DATETIME64: return UTIL_GET(int64_t, p, row, out_type);      \
        case TY_FLOAT32: return UTIL_GET(float, p, row, out_type);                          \
        case TY_FLOAT64: return UTIL_GET(double, p, row, out_type);                         \
        case TY_DECIMAL:                                                                    \
            if (t->precision <= 9) return UTIL_GET(int32_t, p, row, out_type);              \
            if (t->precision <= 18) return UTIL_GET(int64_t, p, row, out_type);             \
            return UTIL_GET(__int128, p, row, out_type);                                    \
        default: return (out_type)0;                                                        \
        }                                                                                   \
    }

UTIL_DEFINE_GET(exec_get_f64, double)
UTIL_DEFINE_GET(exec_get_i64, int64_t)
UTIL_DEFINE_GET(exec_get_u64, uint64_t)

#define UTIL_LOAD_LOOP(T, dst_type)                                                        \
    do {                                                                                   \
        const T *src = (const T *)(const void *)ty_column_values(column) + first;          \
        for (uint32_t i = 0; i < count; i++) out[i] = (dst_type)src[i];                    \
    } while (0)

/* Rows [first, first + count) of a column (Array elements start anywhere). */
#define UTIL_DEFINE_LOAD_AT(name, dst_type, getter)                                         \
    void name(const ty_column *column, uint32_t first, uint32_t count, dst_type *out) {     \
        const ty_type *t = util_value_type(column);                                         \
        MU_DEBUG_ASSERT((uint64_t)first + count <= column->row_count);                      \
        switch (t->kind) {                                                                  \
        case TY_UINT8: case TY_BOOL: UTIL_LOAD_LOOP(uint8_t, dst_type); return;             \
        case TY_UINT16: case TY_DATE: UTIL_LOAD_LOOP(uint16_t, dst_type); return;           \
        case TY_UINT32: case TY_DATETIME: UTIL_LOAD_LOOP(uint32_t, dst_type); return;       \
        case TY_UINT64: UTIL_LOAD_LOOP(uint64_t, dst_type); return;                         \
        case TY_INT8: case TY_ENUM8: UTIL_LOAD_LOOP(int8_t, dst_type); return;              \
        case TY_INT16: case TY_ENUM16: UTIL_LOAD_LOOP(int16_t, dst_type); return;           \
        case TY_INT32: case TY_DATE32: UTIL_LOAD_LOOP(int32_t, dst_type); return;           \
        case TY_INT64: case TY_DATETIME64: UTIL_LOAD_LOOP(int64_t, dst_type); return;       \
        case TY_FLOAT32: UTIL_LOAD_LOOP(float, dst_type); return;                           \
        case TY_FLOAT64: UTIL_LOAD_LOOP(double, dst_type); return;                          \
        default:                                                                            \
            for (uint32_t i = 0; i < count; i++) out[i] = getter(column, first + i);        \
            return;                                                                         \
        }                                                                                   \
    }

UTIL_DEFINE_LOAD_AT(exec__load_f64_at, double, exec_get_f64)
UTIL_DEFINE_LOAD_AT(exec__load_i64_at, int64_t, exec_get_i64)
UTIL_DEFINE_LOAD_AT(exec__load_u64_at, uint64_t, exec_get_u64)

#define UTIL_DEFINE_LOAD(name, dst_type, getter, at)                                        \
    void name(const exec_arg *a, uint32_t rows, dst_type *out) {                            \
        if (a->is_const) {                                                                  \
            dst_type v = getter(a->column, 0);                                              \
            for (uint32_t i = 0; i < rows; i++) out[i] = v;                                 \
            return;                                                                         \
        }                                                                                   \
        at(a->column, 0, rows, out);                                                        \
    }

UTIL_DEFINE_LOAD(exec__load_f64, double, exec_get_f64, exec__load_f64_at)
UTIL_DEFINE_LOAD(exec__load_i64, int64_t, exec_get_i64, exec__load_i64_at)
UTIL_DEFINE_LOAD(exec__load_u64, uint64_t, exec_get_u64, exec__load_u64_at)

#define UTIL_STORE_LOOP(T)                                                                 \
    do {                                                                                   \
        T *dst = at;                                                                       \
        for (uint32_t i = 0; i < rows; i++) dst[i] = (T)values[i];                         \
    } while (0)

#define UTIL_DEFINE_STORE(name, src_type)                                                   \
    int name(ty_column *out, const src_type *values, uint32_t rows, mu_err *err) {          \
        void *at;                                                                           \
        int rc = ty_column_append_fixed_uninit(out, rows, &at, err);                        \
        if (rc != 0) return rc;                                                             \
        switch (out->type->kind) {                                                          \
        case TY_UINT8: UTIL_STORE_LOOP(uint8_t); return 0;                                  \
        case TY_BOOL: {                                                                     \
            uint8_t *dst = at;                                                              \
            for (uint32_t i = 0; i < rows; i++) dst[i] = values[i] != 0;                    \
            return 0;                                                                       \
        }                                                                                   \
        case TY_UINT16: case TY_DATE: UTIL_STORE_LOOP(uint16_t); return 0;                  \
        case TY_UINT32: case TY_DATETIME: UTIL_STORE_LOOP(uint32_t); return 0;              \
        case TY_UINT64: UTIL_STORE_LOOP(uint64_t); return 0;                                \
        case TY_INT8: UTIL_STORE_LOOP(int8_t); return 0;                                    \
        case TY_INT16: UTIL_STORE_LOOP(int16_t); return 0;                                  \
        case TY_INT32: case TY_DATE32: UTIL_STORE_LOOP(int32_t); return 0;                  \
        case TY_INT64: case TY_DATETIME64: UTIL_STORE_LOOP(int64_t); return 0;              \
        case TY_FLOAT32: UTIL_STORE_LOOP(float); return 0;                                  \
        case TY_FLOAT64: UTIL_STORE_LOOP(double); return 0;                                 \
        default: {                                                                          \
            char tn[128];                                                                   \
            ty_column_truncate(out, out->row_count - rows);                                 \
            return MU_ERR(err, MU_EINTERNAL, "cannot store numbers into %s",              \
                          ty_type_name(out->type, tn, sizeof(tn)));                         \
        }                                                                                   \
        }                                                                                   \
    }

UTIL_DEFINE_STORE(exec__store_f64, double)
UTIL_DEFINE_STORE(exec__store_i64, int64_t)
UTIL_DEFINE_STORE(exec__store_u64, uint64_t)

/* ---- type predicates ----------------------------------------------- */

bool exec_type_is_integer(const ty_type *t) {
    return t->kind >= TY_UINT8 && t->kind <= TY_INT64;
}
bool exec_type_is_float(const ty_type *t) {
    return t->kind == TY_FLOAT32 || t->kind == TY_FLOAT64;
}
bool exec_type_is_number(const ty_type *t) {
    return exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL ||
           t->kind == TY_DECIMAL;
}
bool exec_type_is_signed(const ty_type *t) {
    return (t->kind >= TY_INT8 && t->kind <= TY_INT64) || exec_type_is_float(t) ||
           t->kind == TY_DECIMAL;
}
bool exec_type_is_string(const ty_type *t) {
    return t->kind == TY_STRING || t->kind == TY_FIXED_STRING;
}
bool exec_type_is_date_or_time(const ty_type *t) {
    return t->kind == TY_DATE || t->kind == TY_DATE32 || t->kind == TY_DATETIME ||
           t->kind == TY_DATETIME64;
}
bool exec_type_is_nothing(const ty_type *t) {
    return ty_type_strip_nullable(t)->kind == TY_NOTHING;
}

ty_kind exec_int_kind(unsigned bytes, bool is_signed) {
    if (bytes <= 1) return is_signed ? TY_INT8 : TY_UINT8;
    if (bytes <= 2) return is_signed ? TY_INT16 : TY_UINT16;
    if (bytes <= 4) return is_signed ? TY_INT32 : TY_UINT32;
    return is_signed ? TY_INT64 : TY_UINT64;
}

int exec_type_make_nullable(const ty_type *t, mu_arena *arena, const ty_type **out,
                            mu_err *err) {
    if (t->kind == TY_NULLABLE || t->kind == TY_ARRAY || t->kind == TY_MAP ||
        t->kind == TY_LOW_CARDINALITY) {
        *out = t;
        return 0;
    }
    ty_type *n = mu_arena_calloc(arena, 1, sizeof(*n), err);
    if (n == NULL) return err->code;
    n->kind = TY_NULLABLE;
    n->child = t;
    *out = n;
    return 0;
}
