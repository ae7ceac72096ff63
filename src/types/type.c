/* type.c: type descriptors other than parsing: the static descriptors of
 * parameterless types, equality, deep copies, value widths, and the
 * canonical name rendering, which must match ClickHouse byte for byte
 * because clients compare type names ("Decimal(10, 2)", "Map(String,
 * UInt64)", "Enum8('a' = 1, 'b' = 2)"). Descriptors are never modified
 * after construction; nesting is bounded by TY_TYPE_DEPTH_MAX.
 */
#include "types/types_int.h"

#include <stdio.h>
#include <string.h>

static const char *const type_kind_names[TY_KIND_COUNT] = {
    [TY_UINT8] = "UInt8",        [TY_UINT16] = "UInt16",
    [TY_UINT32] = "UInt32",      [TY_UINT64] = "UInt64",
    [TY_INT8] = "Int8",          [TY_INT16] = "Int16",
    [TY_INT32] = "Int32",        [TY_INT64] = "Int64",
    [TY_FLOAT32] = "Float32",    [TY_FLOAT64] = "Float64",
    [TY_BOOL] = "Bool",          [TY_STRING] = "String",
    [TY_FIXED_STRING] = "FixedString", [TY_DATE] = "Date",
    [TY_DATE32] = "Date32",      [TY_DATETIME] = "DateTime",
    [TY_DATETIME64] = "DateTime64", [TY_UUID] = "UUID",
    [TY_DECIMAL] = "Decimal",    [TY_ENUM8] = "Enum8",
    [TY_ENUM16] = "Enum16",      [TY_NULLABLE] = "Nullable",
    [TY_LOW_CARDINALITY] = "LowCardinality", [TY_ARRAY] = "Array",
    [TY_MAP] = "Map",            [TY_NOTHING] = "Nothing",
};

#define TYPE_BUILTIN(k) [k] = {.kind = k}
static const ty_type type_builtins[TY_KIND_COUNT] = {
    TYPE_BUILTIN(TY_UINT8),   TYPE_BUILTIN(TY_UINT16),  TYPE_BUILTIN(TY_UINT32),
    TYPE_BUILTIN(TY_UINT64),  TYPE_BUILTIN(TY_INT8),    TYPE_BUILTIN(TY_INT16),
    TYPE_BUILTIN(TY_INT32),   TYPE_BUILTIN(TY_INT64),   TYPE_BUILTIN(TY_FLOAT32),
    TYPE_BUILTIN(TY_FLOAT64), TYPE_BUILTIN(TY_BOOL),    TYPE_BUILTIN(TY_STRING),
    TYPE_BUILTIN(TY_DATE),    TYPE_BUILTIN(TY_DATE32),  TYPE_BUILTIN(TY_DATETIME),
    TYPE_BUILTIN(TY_UUID),    TYPE_BUILTIN(TY_NOTHING),
};

const ty_type *ty_type_builtin(ty_kind kind) {
    switch (kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64:
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64:
    case TY_FLOAT32: case TY_FLOAT64: case TY_BOOL: case TY_STRING:
    case TY_DATE: case TY_DATE32: case TY_DATETIME: case TY_UUID: case TY_NOTHING:
        return &type_builtins[kind];
    default:
        return NULL;
    }
}

uint32_t ty_type_value_bytes(const ty_type *type) {
    switch (type->kind) {
    case TY_UINT8: case TY_INT8: case TY_BOOL: case TY_ENUM8: case TY_NOTHING:
        return 1;
    case TY_UINT16: case TY_INT16: case TY_DATE: case TY_ENUM16:
        return 2;
    case TY_UINT32: case TY_INT32: case TY_FLOAT32: case TY_DATE32: case TY_DATETIME:
    case TY_LOW_CARDINALITY:
        return 4;
    case TY_UINT64: case TY_INT64: case TY_FLOAT64: case TY_DATETIME64:
        return 8;
    case TY_UUID:
        return 16;
    case TY_DECIMAL:
        return type->precision <= 9 ? 4 : type->precision <= 18 ? 8 : 16;
    case TY_FIXED_STRING:
        return type->length;
    case TY_NULLABLE:
        return ty_type_value_bytes(type->child);
    default:
        return 0;
    }
}

bool ty_type_is_nullable(const ty_type *type) { return type->kind == TY_NULLABLE; }

const ty_tz *ty_type_timezone(const ty_type *type) {
    return type->timezone ? type->timezone : ty_tz_default();
}

__int128 ty_decimal_pow10(unsigned exponent) {
    MU_ASSERT(exponent <= 38);
    __int128 v = 1;
    while (exponent-- > 0) v *= 10;
    return v;
}

static bool type_strings_equal(const char *a, const char *b) {
    if (a == NULL || b == NULL) return a == b;
    return strcmp(a, b) == 0;
}

/* Recursion is bounded by the depth of the descriptors, which parsing and
 * cloning cap at TY_TYPE_DEPTH_MAX. */
bool ty_type_equal(const ty_type *a, const ty_type *b) {
    if (a == b) return true;
    if (a == NULL || b == NULL || a->kind != b->kind) return false;
    if (a->length != b->length || a->precision != b->precision || a->scale != b->scale)
        return false;
    if (!type_strings_equal(a->timezone_name, b->timezone_name)) return false;
    if (a->enum_count != b->enum_count) return false;
    for (uint32_t i = 0; i < a->enum_count; i++) {
        const ty_enum_entry *x = &a->enum_entries[i], *y = &b->enum_entries[i];
        if (x->value != y->value || x->name_bytes != y->name_bytes ||
            memcmp(x->name, y->name, x->name_bytes) != 0)
            return false;
    }
    if ((a->child != NULL) != (b->child != NULL) || (a->child2 != NULL) != (b->child2 != NULL))
        return false;
    if (!type_strings_equal(a->aggregate_function, b->aggregate_function) ||
        a->aggregate_arg_count != b->aggregate_arg_count)
        return false;
    for (uint32_t i = 0; i < a->aggregate_arg_count; i++)
        if (!ty_type_equal(a->aggregate_args[i], b->aggregate_args[i])) return false;
    if (a->child && !ty_type_equal(a->child, b->child)) return false;
    return a->child2 == NULL || ty_type_equal(a->child2, b->child2);
}

static int type_clone_at(const ty_type *type, mu_arena *arena, unsigned depth,
                         const ty_type **out, mu_err *err) {
    if (depth > TY_TYPE_DEPTH_MAX)
        return MU_ERR(err, MU_ETOO_DEEP, "type nested deeper than %d levels", TY_TYPE_DEPTH_MAX);
    ty_type *copy = mu_arena_alloc(arena, sizeof(*copy), err);
    if (copy == NULL) return err ? err->code : MU_ENOMEM;
    *copy = *type;
    if (type->timezone_name) {
        char *name = mu_arena_strndup(arena, type->timezone_name, strlen(type->timezone_name), err);
        if (name == NULL) return err ? err->code : MU_ENOMEM;
        copy->timezone_name = name;
    }
    if (type->enum_count > 0) {
        ty_enum_entry *entries = mu_arena_calloc(arena, type->enum_count, sizeof(*entries), err);
        if (entries == NULL) return err ? err->code : MU_ENOMEM;
        for (uint32_t i = 0; i < type->enum_count; i++) {
            /* Names may hold NUL bytes: copy by length, not as C strings. */
            entries[i] = type->enum_entries[i];
            char *name = mu_arena_alloc(arena, entries[i].name_bytes + 1, err);
            if (name == NULL) return err ? err->code : MU_ENOMEM;
            memcpy(name, type->enum_entries[i].name, entries[i].name_bytes);
            name[entries[i].name_bytes] = 0;
            entries[i].name = name;
        }
        copy->enum_entries = entries;
    }
    int rc = 0;
    if (type->aggregate_function) {
        copy->aggregate_function = mu_arena_strndup(arena, type->aggregate_function,
                                                    strlen(type->aggregate_function), err);
        const ty_type **args = mu_arena_calloc(arena, type->aggregate_arg_count + 1, sizeof(*args), err);
        if (copy->aggregate_function == NULL || args == NULL) return err ? err->code : MU_ENOMEM;
        for (uint32_t i = 0; rc == 0 && i < type->aggregate_arg_count; i++)
            rc = type_clone_at(type->aggregate_args[i], arena, depth + 1, &args[i], err);
        copy->aggregate_args = args;
    }
    if (rc == 0 && type->child) rc = type_clone_at(type->child, arena, depth + 1, &copy->child, err);
    if (rc == 0 && type->child2)
        rc = type_clone_at(type->child2, arena, depth + 1, &copy->child2, err);
    if (rc == 0) *out = copy;
    return rc;
}

int ty_type_clone(const ty_type *type, mu_arena *arena, const ty_type **type_out, mu_err *err) {
    MU_ASSERT(type != NULL && arena != NULL);
    return type_clone_at(type, arena, 1, type_out, err);
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */
/* ------------------------------------------------------------------ */

int ty__render_quoted_bytes(const uint8_t *data, size_t bytes, mu_buf *out, mu_err *err) {
    int rc = mu_buf_append_u8(out, '\'', err);
    size_t run = 0; /* start of the pending run of bytes that need no escape */
    for (size_t i = 0; rc == 0 && i < bytes; i++) {
        const char *escape = NULL;
        switch (data[i]) {
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        case '\0': escape = "\\0"; break;
        case '\\': escape = "\\\\"; break;
        case '\'': escape = "\\'"; break;
        default: continue;
        }
        rc = mu_buf_append(out, data + run, i - run, err);
        if (rc == 0) rc = mu_buf_append(out, escape, 2, err);
        run = i + 1;
    }
    if (rc == 0) rc = mu_buf_append(out, data + run, bytes - run, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '\'', err);
    return rc;
}

static int type_render_enum(const ty_type *type, mu_buf *out, mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < type->enum_count; i++) {
        const ty_enum_entry *e = &type->enum_entries[i];
        if (i > 0) rc = mu_buf_append_str(out, ", ", err);
        if (rc == 0)
            rc = ty__render_quoted_bytes((const uint8_t *)e->name, e->name_bytes, out, err);
        if (rc == 0) rc = mu_buf_printf(out, err, " = %d", e->value);
    }
    return rc;
}

static int type_render_at(const ty_type *type, mu_buf *out, mu_err *err) {
    if (type->aggregate_function) {
        int rc = mu_buf_printf(out, err, "AggregateFunction(%s", type->aggregate_function);
        for (uint32_t i = 0; rc == 0 && i < type->aggregate_arg_count; i++) {
            rc = mu_buf_append_str(out, ", ", err);
            if (rc == 0) rc = type_render_at(type->aggregate_args[i], out, err);
        }
        return rc ? rc : mu_buf_append_u8(out, ')', err);
    }
    int rc = mu_buf_append_str(out, type_kind_names[type->kind], err);
    if (rc != 0) return rc;
    switch (type->kind) {
    case TY_FIXED_STRING:
        return mu_buf_printf(out, err, "(%u)", type->length);
    case TY_DATETIME:
        return type->timezone_name ? mu_buf_printf(out, err, "('%s')", type->timezone_name) : 0;
    case TY_DATETIME64:
        if (type->timezone_name)
            return mu_buf_printf(out, err, "(%u, '%s')", type->precision, type->timezone_name);
        return mu_buf_printf(out, err, "(%u)", type->precision);
    case TY_DECIMAL:
        return mu_buf_printf(out, err, "(%u, %u)", type->precision, type->scale);
    case TY_ENUM8:
    case TY_ENUM16:
        rc = mu_buf_append_u8(out, '(', err);
        if (rc == 0) rc = type_render_enum(type, out, err);
        return rc ? rc : mu_buf_append_u8(out, ')', err);
    case TY_NULLABLE:
    case TY_LOW_CARDINALITY:
    case TY_ARRAY:
    case TY_MAP:
        rc = mu_buf_append_u8(out, '(', err);
        if (rc == 0) rc = type_render_at(type->child, out, err);
        if (rc == 0 && type->kind == TY_MAP) rc = mu_buf_append_str(out, ", ", err);
        if (rc == 0 && type->kind == TY_MAP) rc = type_render_at(type->child2, out, err);
        return rc ? rc : mu_buf_append_u8(out, ')', err);
    default:
        return 0;
    }
}

int ty_type_render(const ty_type *type, mu_buf *out, mu_err *err) {
    MU_ASSERT(type != NULL && out != NULL);
    MU_ASSERT(type->kind < TY_KIND_COUNT);
    return type_render_at(type, out, err);
}

const char *ty_type_name(const ty_type *type, char *out, size_t out_bytes) {
    MU_ASSERT(out_bytes >= 4);
    mu_buf b;
    mu_buf_init(&b, 0);
    if (ty_type_render(type, &b, NULL) != 0) {
        snprintf(out, out_bytes, "?");
    } else if (b.length_bytes < out_bytes) {
        memcpy(out, b.data, b.length_bytes);
        out[b.length_bytes] = 0;
    } else {
        memcpy(out, b.data, out_bytes - 4);
        memcpy(out + out_bytes - 4, "...", 4);
    }
    mu_buf_deinit(&b);
    return out;
}
