/* supertype.c: ClickHouse's least common supertype (getLeastSupertype),
 * used by if/multiIf/CASE, coalesce, array literals, UNION ALL and IN. The
 * rules, in order: equal types; Nothing and Nullable (the result is
 * Nullable when any input is); arrays element-wise; strings; dates and
 * times; numbers (floats win; signed and unsigned integers need a signed
 * type wider than every unsigned one; Decimal by widest scale and
 * integer digits). Anything else has no supertype.
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
    return MU_ERR(err, MU_ENO_COMMON_TYPE, "There is no supertype for types %s because %s", list,
                  why);
}

static unsigned supertype_int_bytes(ty_kind k) {
    switch (k) {
    case TY_UINT8: case TY_INT8: case TY_BOOL: return 1;
    case TY_UINT16: case TY_INT16: return 2;
    case TY_UINT32: case TY_INT32: return 4;
    default: return 8;
    }
}

static int supertype_numbers(const ty_type *const *types, uint32_t count, mu_arena *arena,
                             const ty_type **out, mu_err *err) {
    unsigned max_unsigned = 0, max_signed = 0, max_float = 0, max_scale = 0, max_int_digits = 0;
    bool any_decimal = false;
    for (uint32_t i = 0; i < count; i++) {
        const ty_type *t = types[i];
        if (t->kind == TY_FLOAT32 || t->kind == TY_FLOAT64) {
            unsigned b = t->kind == TY_FLOAT32 ? 4 : 8;
            if (b > max_float) max_float = b;
        } else if (t->kind == TY_DECIMAL) {
            any_decimal = true;
            if (t->scale > max_scale) max_scale = t->scale;
            if ((unsigned)(t->precision - t->scale) > max_int_digits)
                max_int_digits = t->precision - t->scale;
        } else if (exec_type_is_signed(t)) {
            unsigned b = supertype_int_bytes(t->kind);
            if (b > max_signed) max_signed = b;
        } else {
            unsigned b = supertype_int_bytes(t->kind);
            if (b > max_unsigned) max_unsigned = b;
        }
    }
    if (any_decimal) {
        if (max_float)
            return supertype_error(types, count, "some of them are Decimal and some are floats",
                                   err);
        unsigned int_bytes = max_signed > max_unsigned ? max_signed : max_unsigned;
        unsigned int_digits = int_bytes == 0 ? 0 : int_bytes == 1 ? 3 : int_bytes == 2 ? 5
                              : int_bytes == 4 ? 10 : 19;
        if (int_digits > max_int_digits) max_int_digits = int_digits;
        unsigned precision = max_int_digits + max_scale;
        if (precision > 38)
            return supertype_error(types, count, "the Decimal would need more than 38 digits",
                                   err);
        unsigned p = precision <= 9 ? 9 : precision <= 18 ? 18 : 38;
        ty_type *d = mu_arena_calloc(arena, 1, sizeof(*d), err);
        if (d == NULL) return err->code;
        d->kind = TY_DECIMAL;
        d->precision = (uint8_t)p;
        d->scale = (uint8_t)max_scale;
        *out = d;
        return 0;
    }
    if (max_float) {
        unsigned max_int = max_signed > max_unsigned ? max_signed : max_unsigned;
        *out = ty_type_builtin(max_float == 4 && max_int <= 2 ? TY_FLOAT32 : TY_FLOAT64);
        return 0;
    }
    if (max_signed && max_unsigned) {
        unsigned need = max_unsigned * 2;
        if (max_signed > need) need = max_signed;
        if (need > 8)
            return supertype_error(
                types, count,
                "some of them are signed integers and some are unsigned integers, but there "
                "is no signed integer type, that can exactly represent all required unsigned "
                "integer values",
                err);
        *out = ty_type_builtin(exec_int_kind(need, true));
        return 0;
    }
    if (max_signed) {
        *out = ty_type_builtin(exec_int_kind(max_signed, true));
        return 0;
    }
    *out = ty_type_builtin(exec_int_kind(max_unsigned, false));
    return 0;
}

int exec_type_supertype(const ty_type *const *types, uint32_t count, mu_arena *arena,
                        const ty_type **out, mu_err *err) {
    MU_ASSERT(count > 0);
    bool all_equal = true;
    for (uint32_t i = 1; i < count; i++)
        if (!ty_type_equal(types[0], types[i])) all_equal = false;
    if (all_equal) {
        *out = types[0];
        return 0;
    }
    /* Nothing and Nullable. */
    bool any_nullable = false;
    uint32_t kept = 0;
    const ty_type **stripped = mu_arena_calloc(arena, count, sizeof(*stripped), err);
    if (stripped == NULL) return err->code;
    for (uint32_t i = 0; i < count; i++) {
        const ty_type *t = types[i];
        if (t->kind == TY_LOW_CARDINALITY) t = t->child;
        if (t->kind == TY_NULLABLE) {
            any_nullable = true;
            t = t->child;
        }
        if (t->kind == TY_NOTHING) {
            any_nullable = any_nullable || types[i]->kind == TY_NULLABLE;
            continue;
        }
        stripped[kept++] = t;
    }
    if (kept == 0) {
        *out = types[0];
        return 0;
    }
    if (kept < count || any_nullable) {
        const ty_type *inner;
        int rc = exec_type_supertype(stripped, kept, arena, &inner, err);
        if (rc != 0) return rc;
        if (!any_nullable) { /* plain Nothing (the element of []) adds nothing */
            *out = inner;
            return 0;
        }
        if (inner->kind == TY_ARRAY || inner->kind == TY_MAP)
            return supertype_error(types, count, "an Array or Map cannot be inside Nullable",
                                   err);
        return exec_type_make_nullable(inner, arena, out, err);
    }
    /* Arrays. */
    uint32_t arrays = 0;
    for (uint32_t i = 0; i < count; i++) arrays += types[i]->kind == TY_ARRAY;
    if (arrays > 0) {
        if (arrays != count)
            return supertype_error(types, count, "some of them are Array and some of them are not",
                                   err);
        const ty_type **elems = mu_arena_calloc(arena, count, sizeof(*elems), err);
        if (elems == NULL) return err->code;
        for (uint32_t i = 0; i < count; i++) elems[i] = types[i]->child;
        const ty_type *elem;
        int rc = exec_type_supertype(elems, count, arena, &elem, err);
        if (rc != 0) return rc;
        ty_type *a = mu_arena_calloc(arena, 1, sizeof(*a), err);
        if (a == NULL) return err->code;
        a->kind = TY_ARRAY;
        a->child = elem;
        *out = a;
        return 0;
    }
    uint32_t strings = 0, dates = 0, numbers = 0;
    unsigned dt64_precision = 0;
    bool any_datetime = false, any_dt64 = false, any_date32 = false;
    for (uint32_t i = 0; i < count; i++) {
        const ty_type *t = types[i];
        if (exec_type_is_string(t)) strings++;
        else if (exec_type_is_date_or_time(t)) {
            dates++;
            any_datetime |= t->kind == TY_DATETIME;
            any_date32 |= t->kind == TY_DATE32;
            if (t->kind == TY_DATETIME64) {
                any_dt64 = true;
                if (t->precision > dt64_precision) dt64_precision = t->precision;
            }
        } else if (exec_type_is_number(t)) numbers++;
    }
    if (strings > 0) {
        if (strings != count)
            return supertype_error(types, count, "some of them are String/FixedString and some of "
                                   "them are not", err);
        *out = ty_type_builtin(TY_STRING);
        return 0;
    }
    if (dates > 0) {
        if (dates != count)
            return supertype_error(types, count, "some of them are Date/Date32/DateTime/DateTime64 "
                                   "and some of them are not", err);
        if (any_dt64) {
            ty_type *d = mu_arena_calloc(arena, 1, sizeof(*d), err);
            if (d == NULL) return err->code;
            d->kind = TY_DATETIME64;
            d->precision = (uint8_t)dt64_precision;
            *out = d;
        } else {
            *out = ty_type_builtin(any_datetime ? TY_DATETIME : any_date32 ? TY_DATE32 : TY_DATE);
        }
        return 0;
    }
    if (numbers == count) return supertype_numbers(types, count, arena, out, err);
    return supertype_error(types, count, "they are not compatible", err);
}
