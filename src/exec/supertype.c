/* supertype.c: ClickHouse's least common supertype (getLeastSupertype),
 * used by if/multiIf/CASE, coalesce, array literals, UNION ALL and IN. The
 * rules, in ClickHouse's order: equal types; a plain Nothing (the element
 * of []) is skipped; arrays and maps element-wise; LowCardinality is
 * looked through (results are never LowCardinality); Nullable (the result
 * is Nullable when any input is; Nullable(Nothing) only adds that);
 * strings (with Enums: String); dates and times (Date with DateTime gives
 * that DateTime with its zone, DateTime64 the one of highest precision);
 * Decimals with integers (ClickHouse's precision rules); numbers by bit
 * widths (floats need a mantissa that holds every integer: Float64 with a
 * 64-bit integer has no supertype; Enums count as Int8/Int16, Bool as
 * UInt8). Anything else has no supertype.
 * Reference: ClickHouse src/DataTypes/getLeastSupertype.cpp.
 */
#include "exec/exec_int.h"

#include <stdio.h>
#include <string.h>

static int supertype_error(const ty_type *const *types, uint32_t count, const char *why,
                           mu_err *err) {
    char list[400] = "", name[128];
    size_t used = 0;
    for (uint32_t i = 0; i < count; i++) {
        ty_type_name(types[i], name, sizeof(name));
        int n = snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", name);
        if (n < 0 || (size_t)n >= sizeof(list) - used) break;
        used += (size_t)n;
    }
    if (why == NULL)
        return MU_ERR(err, MU_ENO_COMMON_TYPE, "There is no supertype for types %s", list);
    return MU_ERR(err, MU_ENO_COMMON_TYPE, "There is no supertype for types %s because %s", list,
                  why);
}

static ty_type *supertype_new(mu_arena *arena, ty_kind kind, mu_err *err) {
    ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
    if (t != NULL) t->kind = kind;
    return t;
}

/* ---- dates and times ------------------------------------------------ */

static int supertype_dates(const ty_type *const *types, uint32_t count, mu_arena *arena,
                           const ty_type **out, mu_err *err) {
    bool have_date32 = false, have_datetime = false, have_dt64 = false;
    for (uint32_t i = 0; i < count; i++) {
        have_date32 |= types[i]->kind == TY_DATE32;
        have_datetime |= types[i]->kind == TY_DATETIME;
        have_dt64 |= types[i]->kind == TY_DATETIME64;
    }
    if (!have_datetime && !have_dt64) { /* Date and Date32: Date32 */
        *out = ty_type_builtin(have_date32 ? TY_DATE32 : TY_DATE);
        return 0;
    }
    if (!have_dt64 && !have_date32) { /* the first DateTime, with its zone */
        for (uint32_t i = 0; i < count; i++)
            if (types[i]->kind == TY_DATETIME) {
                *out = types[i];
                return 0;
            }
    }
    if (!have_dt64) { /* DateTime and Date32 */
        ty_type *d = supertype_new(arena, TY_DATETIME64, err);
        if (d == NULL) return err->code;
        d->precision = 0;
        *out = d;
        return 0;
    }
    /* The DateTime64 of the highest precision (the last of them). */
    int best = -1;
    for (uint32_t i = 0; i < count; i++)
        if (types[i]->kind == TY_DATETIME64 &&
            (best < 0 || types[i]->precision >= types[best]->precision))
            best = (int)i;
    *out = types[best];
    return 0;
}

/* ---- Decimals -------------------------------------------------------- */

/* Digits an integer kind needs in a Decimal (leastDecimalPrecisionFor). */
static unsigned supertype_int_digits(ty_kind k) {
    switch (k) {
    case TY_INT8: case TY_UINT8: case TY_BOOL: return 3;
    case TY_INT16: case TY_UINT16: return 5;
    case TY_INT32: case TY_UINT32: return 10;
    case TY_INT64: return 19;
    case TY_UINT64: return 20;
    default: return 0;
    }
}

/* ClickHouse's order of integer ids; the last one present decides. */
static int supertype_int_rank(ty_kind k) {
    switch (k) {
    case TY_INT8: return 1;
    case TY_UINT8: case TY_BOOL: return 2;
    case TY_INT16: return 3;
    case TY_UINT16: return 4;
    case TY_INT32: return 5;
    case TY_UINT32: return 6;
    case TY_INT64: return 7;
    case TY_UINT64: return 8;
    default: return 0;
    }
}

static int supertype_decimals(const ty_type *const *types, uint32_t count, mu_arena *arena,
                              const ty_type **out, mu_err *err) {
    unsigned max_scale = 0;
    bool have64 = false, have128 = false;
    int max_rank = 0;
    ty_kind max_int = TY_NOTHING;
    for (uint32_t i = 0; i < count; i++) {
        const ty_type *t = types[i];
        if (t->kind == TY_DECIMAL) {
            if (t->scale > max_scale) max_scale = t->scale;
            have64 |= t->precision > 9 && t->precision <= 18;
            have128 |= t->precision > 18;
            continue;
        }
        int rank = supertype_int_rank(t->kind);
        if (rank == 0)
            return supertype_error(types, count,
                                   "some of them have no lossless conversion to Decimal", err);
        if (rank > max_rank) {
            max_rank = rank;
            max_int = t->kind;
        }
    }
    unsigned precision = max_scale + supertype_int_digits(max_int);
    if (max_scale == 0 && max_int == TY_INT32) precision = 9;
    if (max_scale == 0 && max_int == TY_INT64) precision = 18;
    if (precision > 76) {
        char why[64];
        snprintf(why, sizeof(why), "the least supertype is Decimal(%u,%u)", precision, max_scale);
        return supertype_error(types, count, why, err);
    }
    if (precision > 38)
        return MU_ERR(err, MU_ENOT_SUPPORTED,
                      "the least supertype is Decimal(%u, %u): Decimal256 is not supported",
                      precision, max_scale);
    ty_type *d = supertype_new(arena, TY_DECIMAL, err);
    if (d == NULL) return err->code;
    d->precision = have128 || precision > 18 ? 38 : have64 || precision > 9 ? 18 : 9;
    d->scale = (uint8_t)max_scale;
    *out = d;
    return 0;
}

/* ---- numbers --------------------------------------------------------- */

static int supertype_numbers(const ty_type *const *types, uint32_t count, const ty_type **out,
                             mu_err *err) {
    unsigned max_signed = 0, max_unsigned = 0, max_mantissa = 0;
    bool all_numbers = true;
    for (uint32_t i = 0; i < count; i++) {
        switch (types[i]->kind) {
        case TY_UINT8: case TY_BOOL: max_unsigned = MU_MAX(max_unsigned, 8u); break;
        case TY_UINT16: max_unsigned = MU_MAX(max_unsigned, 16u); break;
        case TY_UINT32: max_unsigned = MU_MAX(max_unsigned, 32u); break;
        case TY_UINT64: max_unsigned = MU_MAX(max_unsigned, 64u); break;
        case TY_INT8: case TY_ENUM8: max_signed = MU_MAX(max_signed, 8u); break;
        case TY_INT16: case TY_ENUM16: max_signed = MU_MAX(max_signed, 16u); break;
        case TY_INT32: max_signed = MU_MAX(max_signed, 32u); break;
        case TY_INT64: max_signed = MU_MAX(max_signed, 64u); break;
        case TY_FLOAT32: max_mantissa = MU_MAX(max_mantissa, 24u); break;
        case TY_FLOAT64: max_mantissa = MU_MAX(max_mantissa, 53u); break;
        default: all_numbers = false; break;
        }
    }
    if (max_signed == 0 && max_unsigned == 0 && max_mantissa == 0)
        return supertype_error(types, count, NULL, err);
    if (!all_numbers)
        return supertype_error(types, count, "some of them are numbers and some of them are not",
                               err);
    unsigned bits = MU_MAX(max_signed, max_unsigned);
    if (max_signed && max_unsigned >= max_signed) {
        if (bits == 64)
            return supertype_error(
                types, count,
                "some of them are signed integers and some are unsigned integers, but there "
                "is no signed integer type, that can exactly represent all required unsigned "
                "integer values",
                err);
        bits++;
    }
    if (max_mantissa) {
        unsigned mantissa = MU_MAX(bits, max_mantissa);
        if (mantissa > 53)
            return supertype_error(
                types, count,
                "some of them are integers and some are floating point, but there is no "
                "floating point type, that can exactly represent all required integers",
                err);
        *out = ty_type_builtin(mantissa <= 24 ? TY_FLOAT32 : TY_FLOAT64);
        return 0;
    }
    unsigned bytes = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
    *out = ty_type_builtin(exec_int_kind(bytes, max_signed != 0));
    return 0;
}

/* ---- the rules in order ---------------------------------------------- */

static int supertype_at(const ty_type *const *types, uint32_t count, mu_arena *arena,
                        unsigned depth, const ty_type **out, mu_err *err);

/* The supertype of a list built from types (children of arrays, ...). */
static int supertype_of(const ty_type **list, uint32_t n, mu_arena *arena, unsigned depth,
                        const ty_type **out, mu_err *err) {
    return supertype_at(list, n, arena, depth + 1, out, err);
}

static int supertype_at(const ty_type *const *types, uint32_t count, mu_arena *arena,
                        unsigned depth, const ty_type **out, mu_err *err) {
    if (depth > TY_TYPE_DEPTH_MAX)
        return MU_ERR(err, MU_ETOO_DEEP, "types nested deeper than %d levels", TY_TYPE_DEPTH_MAX);
    if (count == 0) {
        *out = ty_type_builtin(TY_NOTHING);
        return 0;
    }
    bool all_equal = true;
    for (uint32_t i = 1; i < count && all_equal; i++)
        all_equal = ty_type_equal(types[0], types[i]);
    if (all_equal) {
        *out = types[0];
        return 0;
    }
    const ty_type **list = mu_arena_calloc(arena, count, sizeof(*list), err);
    const ty_type **list2 = list ? mu_arena_calloc(arena, count, sizeof(*list2), err) : NULL;
    if (list2 == NULL) return err->code;

    /* A plain Nothing adds nothing. */
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++)
        if (types[i]->kind != TY_NOTHING) list[n++] = types[i];
    if (n < count) return supertype_of(list, n, arena, depth, out, err);

    /* Arrays and Maps, element-wise. */
    uint32_t arrays = 0, maps = 0;
    for (uint32_t i = 0; i < count; i++) {
        arrays += types[i]->kind == TY_ARRAY;
        maps += types[i]->kind == TY_MAP;
    }
    if (arrays > 0) {
        if (arrays != count)
            return supertype_error(types, count, "some of them are Array and some of them are not",
                                   err);
        for (uint32_t i = 0; i < count; i++) list[i] = types[i]->child;
        const ty_type *elem;
        int rc = supertype_of(list, count, arena, depth, &elem, err);
        if (rc != 0) return rc;
        ty_type *a = supertype_new(arena, TY_ARRAY, err);
        if (a == NULL) return err->code;
        a->child = elem;
        *out = a;
        return 0;
    }
    if (maps > 0) {
        if (maps != count)
            return supertype_error(types, count, "some of them are Maps and some of them are not",
                                   err);
        for (uint32_t i = 0; i < count; i++) {
            list[i] = types[i]->child;
            list2[i] = types[i]->child2;
        }
        const ty_type *key, *value;
        int rc = supertype_of(list, count, arena, depth, &key, err);
        if (rc == 0) rc = supertype_of(list2, count, arena, depth, &value, err);
        if (rc != 0) return rc;
        ty_type *m = supertype_new(arena, TY_MAP, err);
        if (m == NULL) return err->code;
        m->child = key;
        m->child2 = value;
        *out = m;
        return 0;
    }

    /* LowCardinality: its dictionary type. */
    bool any_lc = false;
    for (uint32_t i = 0; i < count; i++) {
        any_lc |= types[i]->kind == TY_LOW_CARDINALITY;
        list[i] = types[i]->kind == TY_LOW_CARDINALITY ? types[i]->child : types[i];
    }
    if (any_lc) return supertype_of(list, count, arena, depth, out, err);

    /* Nullable: the supertype of the rest, made Nullable. */
    bool any_nullable = false;
    n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const ty_type *t = types[i];
        if (t->kind == TY_NULLABLE) {
            any_nullable = true;
            if (t->child->kind == TY_NOTHING) continue;
            t = t->child;
        }
        list[n++] = t;
    }
    if (any_nullable) {
        const ty_type *inner;
        int rc = supertype_of(list, n, arena, depth, &inner, err);
        if (rc != 0) return rc;
        if (inner->kind == TY_ARRAY || inner->kind == TY_MAP || inner->kind == TY_LOW_CARDINALITY) {
            char name[128];
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Nested type %s cannot be inside Nullable type",
                          ty_type_name(inner, name, sizeof(name)));
        }
        return exec_type_make_nullable(inner, arena, out, err);
    }

    /* Strings (Enums join them). */
    uint32_t strings = 0, enums = 0, dates = 0, decimals = 0;
    for (uint32_t i = 0; i < count; i++) {
        const ty_type *t = types[i];
        strings += exec_type_is_string(t);
        enums += t->kind == TY_ENUM8 || t->kind == TY_ENUM16;
        dates += exec_type_is_date_or_time(t);
        decimals += t->kind == TY_DECIMAL;
    }
    if (strings > 0) {
        if (strings + enums != count)
            return supertype_error(types, count, "some of them are String/FixedString and some of "
                                   "them are not", err);
        *out = ty_type_builtin(TY_STRING);
        return 0;
    }
    if (dates > 0) {
        if (dates != count)
            return supertype_error(types, count, "some of them are Date/Date32/DateTime/DateTime64 "
                                   "and some of them are not", err);
        return supertype_dates(types, count, arena, out, err);
    }
    if (decimals > 0) return supertype_decimals(types, count, arena, out, err);
    return supertype_numbers(types, count, out, err);
}

int exec_type_supertype(const ty_type *const *types, uint32_t count, mu_arena *arena,
                        const ty_type **out, mu_err *err) {
    MU_ASSERT(count > 0);
    return supertype_at(types, count, arena, 0, out, err);
}
