/* fn_logic.c: the logical functions and, or, xor, not and the conditional
 * functions if and multiIf, as ClickHouse defines them: and/or take two or
 * more numbers with three-valued NULL logic (UInt8, Nullable(UInt8) when an
 * argument is Nullable, Bool when an argument is Bool); xor and not use the
 * default NULL handling; if/multiIf take UInt8 conditions (a NULL
 * condition is false) and return the least supertype of their branches.
 * Branches are converted to that supertype here (numbers, Decimal, dates,
 * strings, Nullable wrapping, Nothing, arrays one level deep); the result
 * is gathered row by row from the chosen branch.
 * Reference: ClickHouse src/Functions/FunctionsLogical.cpp, if.cpp,
 * multiIf.cpp.
 */
#include "exec/exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- truth values ------------------------------------------------------ */

/* Ternary truth of a row: and is the minimum, or the maximum. */
enum { LOGIC_FALSE = 0, LOGIC_NULL = 1, LOGIC_TRUE = 2 };

static bool logic_is_native_number(const ty_type *t) {
    return exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL;
}

/* Writes the truth of every row of an argument into t (LOGIC_NULL for NULL
 * rows and for Nothing). UInt8 and Bool columns (comparison results) are
 * read directly, other numbers one value at a time. */
static void logic_truth(const exec_arg *a, const ty_type *type, uint32_t rows, uint8_t *t) {
    const ty_type *v = ty_type_strip_nullable(type);
    if (v->kind == TY_NOTHING) {
        memset(t, LOGIC_NULL, rows);
        return;
    }
    if (a->is_const) {
        bool yes = exec_type_is_float(v) ? exec_get_f64(a->column, 0) != 0
                                         : exec_get_u64(a->column, 0) != 0;
        memset(t, ty_column_is_null(a->column, 0) ? LOGIC_NULL : yes ? LOGIC_TRUE : LOGIC_FALSE,
               rows);
        return;
    }
    if (v->kind == TY_UINT8 || v->kind == TY_BOOL) {
        const uint8_t *x = ty_column_values(a->column);
        for (uint32_t i = 0; i < rows; i++) t[i] = x[i] != 0 ? LOGIC_TRUE : LOGIC_FALSE;
    } else if (exec_type_is_float(v)) {
        for (uint32_t i = 0; i < rows; i++)
            t[i] = exec_get_f64(a->column, i) != 0 ? LOGIC_TRUE : LOGIC_FALSE;
    } else {
        for (uint32_t i = 0; i < rows; i++)
            t[i] = exec_get_u64(a->column, i) != 0 ? LOGIC_TRUE : LOGIC_FALSE;
    }
    if (a->column->nullable)
        for (uint32_t i = 0; i < rows; i++)
            if (ty_column_is_null(a->column, i)) t[i] = LOGIC_NULL;
}

/* Appends rows of 0/1 values (UInt8 or Bool, or those in Nullable with
 * NULL where valid[i] is 0) to out. */
static int logic_store(const exec_call *call, const uint8_t *value, const uint8_t *valid,
                       uint32_t rows, ty_column *out, mu_err *err) {
    if (valid == NULL) {
        void *at;
        int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
        if (rc == 0) memcpy(at, value, rows);
        return rc;
    }
    ty_column *inner;
    int rc = ty_column_create(ty_type_strip_nullable(call->result_type), out->tracker, &inner, err);
    if (rc != 0) return rc;
    size_t bitmap_bytes = ((size_t)rows + 7) / 8;
    uint8_t *bits = calloc(bitmap_bytes ? bitmap_bytes : 1, 1);
    void *at;
    if (bits == NULL) rc = MU_ERR(err, MU_ENOMEM, "out of memory in %s", call->function->name);
    if (rc == 0) rc = ty_column_append_fixed_uninit(inner, rows, &at, err);
    if (rc == 0) {
        memcpy(at, value, rows);
        for (uint32_t i = 0; i < rows; i++)
            if (valid[i]) bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        rc = ty_column_make_nullable(inner, call->result_type, bits, err);
    }
    if (rc == 0) rc = ty_column_append_rows_from(out, inner, 0, rows, err);
    free(bits);
    ty_column_destroy(inner);
    return rc;
}

/* ---- and / or ---------------------------------------------------------- */

static int logic_kernel_and_or(const exec_call *call, const exec_arg *args, uint32_t rows,
                               ty_column *out, mu_err *err) {
    bool is_and = strcmp(call->function->name, "and") == 0;
    uint8_t *acc = exec__scratch(rows, 1, err);
    uint8_t *t = acc ? exec__scratch(rows, 1, err) : NULL;
    int rc = t ? 0 : err->code;
    if (rc == 0) memset(acc, is_and ? LOGIC_TRUE : LOGIC_FALSE, rows);
    for (uint32_t a = 0; a < call->arg_count && rc == 0; a++) {
        logic_truth(&args[a], call->arg_types[a], rows, t);
        if (is_and)
            for (uint32_t i = 0; i < rows; i++) acc[i] = t[i] < acc[i] ? t[i] : acc[i];
        else
            for (uint32_t i = 0; i < rows; i++) acc[i] = t[i] > acc[i] ? t[i] : acc[i];
    }
    if (rc == 0) {
        bool nullable = call->result_type->kind == TY_NULLABLE;
        for (uint32_t i = 0; i < rows; i++) {
            t[i] = acc[i] != LOGIC_NULL;   /* valid */
            acc[i] = acc[i] == LOGIC_TRUE; /* value */
        }
        rc = logic_store(call, acc, nullable ? t : NULL, rows, out, err);
    }
    free(acc);
    free(t);
    return rc;
}

/* Result of and/or/xor/not: Bool when an argument is Bool, else UInt8. */
static const ty_type *logic_result_type(const exec_call *call) {
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (ty_type_strip_nullable(call->arg_types[i])->kind == TY_BOOL)
            return ty_type_builtin(TY_BOOL);
    return ty_type_builtin(TY_UINT8);
}

static int logic_check_variadic(const exec_call *call, mu_err *err) {
    if (call->arg_count >= 2) return 0;
    return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                  "Number of arguments for function \"%s\" should be at least 2: passed %u",
                  call->function->name, call->arg_count);
}

static int logic_error_type(const exec_call *call, uint32_t index, mu_err *err) {
    char name[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type (%s) of %u argument of function %s",
                  ty_type_name(call->arg_types[index], name, sizeof(name)), index + 1,
                  call->function->name);
}

static int logic_bind_and_or(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = logic_check_variadic(call, err);
    if (rc != 0) return rc;
    bool nullable = false;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const ty_type *t = call->arg_types[i];
        const ty_type *v = ty_type_strip_nullable(t);
        if (!logic_is_native_number(v) && v->kind != TY_NOTHING)
            return logic_error_type(call, i, err);
        nullable = nullable || t->kind == TY_NULLABLE || v->kind == TY_NOTHING;
    }
    call->result_type = logic_result_type(call);
    if (nullable) {
        rc = exec_type_make_nullable(call->result_type, arena, &call->result_type, err);
        if (rc != 0) return rc;
    }
    call->kernel = logic_kernel_and_or;
    return 0;
}

/* ---- xor / not ----------------------------------------------------------- */

static int logic_kernel_xor_not(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    bool is_not = call->arg_count == 1;
    uint8_t *acc = exec__scratch(rows, 1, err);
    uint8_t *t = acc ? exec__scratch(rows, 1, err) : NULL;
    int rc = t ? 0 : err->code;
    if (rc == 0) memset(acc, is_not ? 1 : 0, rows);
    for (uint32_t a = 0; a < call->arg_count && rc == 0; a++) {
        logic_truth(&args[a], call->arg_types[a], rows, t);
        for (uint32_t i = 0; i < rows; i++) acc[i] ^= t[i] == LOGIC_TRUE;
    }
    if (rc == 0) rc = logic_store(call, acc, NULL, rows, out, err);
    free(acc);
    free(t);
    return rc;
}

static int logic_bind_xor(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = logic_check_variadic(call, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (!logic_is_native_number(call->arg_types[i])) return logic_error_type(call, i, err);
    call->result_type = logic_result_type(call);
    call->kernel = logic_kernel_xor_not;
    return 0;
}

static int logic_bind_not(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    if (!logic_is_native_number(call->arg_types[0])) {
        char name[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type (%s) of argument of function %s",
                      ty_type_name(call->arg_types[0], name, sizeof(name)), call->function->name);
    }
    call->result_type = logic_result_type(call);
    call->kernel = logic_kernel_xor_not;
    return 0;
}

/* ---- conversion of branches to the result type ------------------------- */

/* From fn_convert.c (CAST's converter). */
int exec__convert_check(const ty_type *from, const ty_type *to, mu_err *err);
int exec__convert_arg(const exec_call *call, const exec_arg *arg, uint32_t rows,
                      const ty_type *to, bool nulls_as_default, ty_column **out, mu_err *err);

static bool logic_is_int_or_float(const ty_type *t) {
    return exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL;
}

static bool logic_is_dated(const ty_type *t) { return exec_type_is_date_or_time(t); }

/* Whether a value of s (not Nullable, not Array) converts to d (the same). */
static bool logic_scalar_convertible(const ty_type *s, const ty_type *d) {
    if (ty_type_equal(s, d)) return true;
    if (logic_is_int_or_float(d)) return logic_is_int_or_float(s) && d->kind != TY_BOOL;
    if (d->kind == TY_DECIMAL) return s->kind == TY_DECIMAL || exec_type_is_integer(s) ||
                                      s->kind == TY_BOOL;
    if (logic_is_dated(d) && d->kind != TY_DATE) return logic_is_dated(s);
    if (d->kind == TY_STRING) return exec_type_is_string(s);
    return false;
}

/* Whether a column of type s converts to d: Nullable wrapping, Nothing,
 * and arrays whose elements convert (one level). */
static bool logic_convertible(const ty_type *s, const ty_type *d) {
    if (ty_type_equal(s, d)) return true;
    if (s->kind == TY_ARRAY || d->kind == TY_ARRAY) {
        if (s->kind != TY_ARRAY || d->kind != TY_ARRAY) return false;
        s = s->child;
        d = d->child;
        if (ty_type_equal(s, d)) return true;
        if (s->kind == TY_ARRAY || d->kind == TY_ARRAY) return false;
    }
    if (exec_type_is_nothing(s)) return true; /* only NULLs (or no rows) */
    if (d->kind == TY_NULLABLE)
        return logic_scalar_convertible(ty_type_strip_nullable(s), d->child);
    return s->kind != TY_NULLABLE && logic_scalar_convertible(s, d);
}

/* Integers and Decimals into Decimal d: raw value times 10^(Sd - Ss). */
static int logic_to_decimal(const ty_column *src, const ty_type *s, ty_column *dst, __int128 *v,
                            mu_err *err) {
    const ty_type *d = dst->type;
    uint32_t n = src->row_count;
    __int128 mul = ty_decimal_pow10(d->scale - (s->kind == TY_DECIMAL ? s->scale : 0));
    unsigned w = d->precision <= 9 ? 4 : d->precision <= 18 ? 8 : 16;
    for (uint32_t i = 0; i < n; i++) {
        if (s->kind == TY_DECIMAL && s->precision > 18)
            memcpy(&v[i], ty_column_values(src) + (size_t)i * 16, 16);
        else
            v[i] = s->kind == TY_UINT64 ? (__int128)exec_get_u64(src, i) : exec_get_i64(src, i);
        v[i] *= mul;
    }
    uint8_t *at;
    int rc = ty_column_append_fixed_uninit(dst, n, (void **)&at, err);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        int32_t x32 = (int32_t)v[i];
        int64_t x64 = (int64_t)v[i];
        const void *from = w == 4 ? (const void *)&x32 : w == 8 ? (const void *)&x64 : &v[i];
        memcpy(at + (size_t)i * w, from, w);
    }
    return rc;
}

/* Dates and times into the later kinds: days become midnight in d's zone,
 * seconds and ticks are scaled to d's precision. */
static int logic_to_time(const ty_column *src, const ty_type *s, ty_column *dst, int64_t *v,
                         mu_err *err) {
    const ty_type *d = dst->type;
    uint32_t n = src->row_count;
    exec_arg a = {src, false};
    exec__load_i64(&a, n, v);
    if (d->kind == TY_DATE32) return exec__store_i64(dst, v, n, err); /* from Date: days */
    bool days = s->kind == TY_DATE || s->kind == TY_DATE32;
    unsigned from_scale = s->kind == TY_DATETIME64 ? s->precision : 0;
    unsigned to_scale = d->kind == TY_DATETIME64 ? d->precision : 0;
    int64_t mul = (int64_t)ty_decimal_pow10(to_scale - MU_MIN(from_scale, to_scale));
    const ty_tz *tz = ty_type_timezone(d);
    for (uint32_t i = 0; i < n; i++) {
        if (days) v[i] = ty_tz_local_to_utc(tz, v[i] * 86400);
        v[i] *= mul;
    }
    return exec__store_i64(dst, v, n, err);
}

/* Copies or converts the strings of src into dst (String). */
static int logic_to_string(const ty_column *src, ty_column *dst, mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; i < src->row_count && rc == 0; i++) {
        size_t bytes;
        const uint8_t *p = ty_column_row_bytes(src, i, &bytes);
        rc = ty_column_append_bytes(dst, p, bytes, err);
    }
    return rc;
}

/* Converts the values (NULL rows hold defaults, which convert too) of src,
 * of scalar type s, into dst, an empty column of scalar type d. */
static int logic_convert_values(const ty_column *src, const ty_type *s, ty_column *dst,
                                mu_err *err) {
    const ty_type *d = dst->type;
    uint32_t n = src->row_count;
    exec_arg a = {src, false};
    int rc = 0;
    if (s->kind == TY_NOTHING) {
        for (uint32_t i = 0; i < n && rc == 0; i++) rc = ty_column_append_default(dst, err);
        return rc;
    }
    if (ty_type_equal(s, d) && d->kind != TY_STRING) {
        /* Same fixed-width type (the source may be its Nullable form). */
        void *at;
        rc = ty_column_append_fixed_uninit(dst, n, &at, err);
        if (rc == 0 && n > 0) memcpy(at, ty_column_values(src), (size_t)n * ty_type_value_bytes(d));
        return rc;
    }
    if (d->kind == TY_STRING) return logic_to_string(src, dst, err);
    void *scratch = exec__scratch(n, sizeof(__int128), err);
    if (scratch == NULL) return err->code;
    if (exec_type_is_float(d)) {
        exec__load_f64(&a, n, scratch);
        rc = exec__store_f64(dst, scratch, n, err);
    } else if (logic_is_int_or_float(d)) {
        exec__load_u64(&a, n, scratch); /* sign-extended; the value fits d */
        rc = exec__store_u64(dst, scratch, n, err);
    } else if (d->kind == TY_DECIMAL) {
        rc = logic_to_decimal(src, s, dst, scratch, err);
    } else {
        rc = logic_to_time(src, s, dst, scratch, err);
    }
    free(scratch);
    return rc;
}

/* A column of `rows` NULLs of the Nullable type d. */
static int logic_nulls(const ty_type *d, uint32_t rows, mu_mem_tracker *tracker, ty_column **out,
                       mu_err *err) {
    ty_column *c;
    int rc = ty_column_create(d, tracker, &c, err);
    for (uint32_t i = 0; i < rows && rc == 0; i++) rc = ty_column_append_null(c, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* Converts src (type s, not an Array) into a new column of d (not an
 * Array): scalar conversion plus Nullable wrapping. */
static int logic_convert_scalar(const ty_column *src, const ty_type *s, const ty_type *d,
                                mu_mem_tracker *tracker, ty_column **out, mu_err *err) {
    uint32_t n = src->row_count;
    if (d->kind == TY_NULLABLE && exec_type_is_nothing(s))
        return logic_nulls(d, n, tracker, out, err);
    const ty_type *inner_type = ty_type_strip_nullable(d);
    ty_column *c;
    int rc = ty_column_create(inner_type, tracker, &c, err);
    if (rc != 0) return rc;
    rc = logic_convert_values(src, ty_type_strip_nullable(s), c, err);
    if (rc == 0 && d->kind == TY_NULLABLE) {
        size_t bitmap_bytes = ((size_t)n + 7) / 8;
        uint8_t *bits = malloc(bitmap_bytes ? bitmap_bytes : 1);
        if (bits == NULL) {
            rc = MU_ERR(err, MU_ENOMEM, "out of memory converting a branch");
        } else {
            if (src->nullable) memcpy(bits, ty_column_validity(src), bitmap_bytes);
            else memset(bits, 0xFF, bitmap_bytes);
            rc = ty_column_make_nullable(c, d, bits, err);
            free(bits);
        }
    }
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* Converts src (type s) to d; *out is src itself when the types are equal
 * (then *owned is false). What the fast paths here do not cover (Enums,
 * Maps, nested Arrays) goes through CAST. */
static int logic_convert(const exec_call *call, const ty_column *src, const ty_type *s,
                         const ty_type *d, mu_mem_tracker *tracker, const ty_column **out,
                         bool *owned, mu_err *err) {
    *owned = false;
    if (ty_type_equal(s, d)) {
        *out = src;
        return 0;
    }
    ty_column *c = NULL;
    int rc;
    if (!logic_convertible(s, d)) {
        exec_arg whole = {src, false};
        rc = exec__convert_arg(call, &whole, src->row_count, d, false, &c, err);
    } else if (d->kind != TY_ARRAY) {
        rc = logic_convert_scalar(src, s, d, tracker, &c, err);
    } else {
        /* One level of Array: convert the elements, keep the lengths. */
        const ty_column *elems = ty_column_child(src, 0);
        const uint32_t *offsets = ty_column_offsets(src);
        ty_column *converted = NULL;
        uint32_t *lengths = exec__scratch(src->row_count, sizeof(uint32_t), err);
        rc = lengths ? ty_column_create(d, tracker, &c, err) : err->code;
        if (rc == 0) rc = logic_convert_scalar(elems, s->child, d->child, tracker, &converted, err);
        if (rc == 0)
            rc = ty_column_append_rows_from(ty_column_child_mut(c, 0), converted, 0,
                                            converted->row_count, err);
        for (uint32_t i = 0; rc == 0 && i < src->row_count; i++)
            lengths[i] = offsets[i + 1] - offsets[i];
        if (rc == 0) rc = ty_column_append_nested_raw(c, lengths, src->row_count, err);
        ty_column_destroy(converted);
        free(lengths);
    }
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    *owned = true;
    return 0;
}

/* ---- if / multiIf ----------------------------------------------------- */

/* Whether rows of a condition are true (NULL and Nothing are false). */
static void logic_condition(const exec_arg *a, const ty_type *type, uint32_t rows, uint8_t *out) {
    logic_truth(a, type, rows, out);
    for (uint32_t i = 0; i < rows; i++) out[i] = out[i] == LOGIC_TRUE;
}

/* Appends, for each row i, row i (or 0 for a constant) of branch sel[i]
 * to out; every branch already has the result type. */
static int logic_gather(const ty_type *type, const ty_column *const *branches,
                        const bool *is_const, uint32_t branch_count, const uint8_t *sel,
                        uint32_t rows, ty_column *out, mu_err *err) {
    uint32_t width = ty_type_value_bytes(type);
    bool fixed = type->kind != TY_NULLABLE && type->kind != TY_STRING && type->kind != TY_ARRAY &&
                 type->kind != TY_MAP && type->kind != TY_NOTHING && width > 0;
    if (fixed) {
        uint8_t *at;
        int rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
        for (uint32_t i = 0; i < rows && rc == 0; i++) {
            uint32_t b = sel[i], r = is_const[b] ? 0 : i;
            const uint8_t *from = ty_column_values(branches[b]) + (size_t)r * width;
            memcpy(at + (size_t)i * width, from, width);
        }
        return rc;
    }
    /* Concatenate the branches and gather by index. */
    ty_column *all;
    uint32_t base[256];
    MU_ASSERT(branch_count <= 256);
    int rc = ty_column_create(type, out->tracker, &all, err);
    uint32_t *index = rc == 0 ? exec__scratch(rows, sizeof(uint32_t), err) : NULL;
    if (rc == 0 && index == NULL) rc = err->code;
    for (uint32_t b = 0; b < branch_count && rc == 0; b++) {
        base[b] = all->row_count;
        rc = ty_column_append_rows_from(all, branches[b], 0, branches[b]->row_count, err);
    }
    for (uint32_t i = 0; i < rows && rc == 0; i++)
        index[i] = base[sel[i]] + (is_const[sel[i]] ? 0 : i);
    if (rc == 0) rc = ty_column_append_gather(out, all, index, rows, err);
    free(index);
    ty_column_destroy(all);
    return rc;
}

/* Shared by if and multiIf: arguments are cond_1, then_1, ..., else. */
static int logic_kernel_if(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    uint32_t branch_count = call->arg_count / 2 + 1;
    const ty_column *branches[128];
    bool owned[128] = {0}, is_const[128];
    MU_ASSERT(branch_count <= 128);
    mu_mem_tracker *tracker = call->ctx ? call->ctx->tracker : NULL;
    uint8_t *sel = exec__scratch(rows, 1, err);
    uint8_t *cond = sel ? exec__scratch(rows, 1, err) : NULL;
    int rc = cond ? 0 : err->code;
    uint32_t converted = 0;
    for (uint32_t b = 0; b < branch_count && rc == 0; b++, converted++) {
        uint32_t a = b + 1 < branch_count ? 2 * b + 1 : call->arg_count - 1;
        is_const[b] = args[a].is_const;
        rc = logic_convert(call, args[a].column, call->arg_types[a], call->result_type, tracker,
                           &branches[b], &owned[b], err);
    }
    if (rc == 0) memset(sel, (int)(branch_count - 1), rows);
    /* Later conditions first, so the first true condition wins. */
    for (uint32_t b = branch_count - 1; b-- > 0 && rc == 0;) {
        logic_condition(&args[2 * b], call->arg_types[2 * b], rows, cond);
        for (uint32_t i = 0; i < rows; i++)
            if (cond[i]) sel[i] = (uint8_t)b;
    }
    if (rc == 0)
        rc = logic_gather(call->result_type, branches, is_const, branch_count, sel, rows, out, err);
    for (uint32_t b = 0; b < converted; b++)
        if (owned[b]) ty_column_destroy((ty_column *)branches[b]);
    free(sel);
    free(cond);
    return rc;
}

static bool logic_condition_type_ok(const ty_type *t) {
    const ty_type *v = ty_type_strip_nullable(t);
    return v->kind == TY_UINT8 || v->kind == TY_BOOL || v->kind == TY_NOTHING;
}

/* The result type: the least supertype of the branches, each of which
 * must convert to it. */
static int logic_bind_branches(exec_call *call, mu_arena *arena, mu_err *err) {
    uint32_t count = call->arg_count / 2 + 1;
    const ty_type **types = mu_arena_calloc(arena, count, sizeof(*types), err);
    if (types == NULL) return err->code;
    for (uint32_t b = 0; b < count; b++)
        types[b] = call->arg_types[b + 1 < count ? 2 * b + 1 : call->arg_count - 1];
    int rc = exec_type_supertype(types, count, arena, &call->result_type, err);
    if (rc != 0) return rc;
    for (uint32_t b = 0; b < count && rc == 0; b++)
        if (!logic_convertible(types[b], call->result_type))
            rc = exec__convert_check(types[b], call->result_type, err);
    if (rc != 0) return rc;
    call->kernel = logic_kernel_if;
    return 0;
}

static int logic_bind_if(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 3, 3, err);
    if (rc != 0) return rc;
    if (!logic_condition_type_ok(call->arg_types[0])) {
        char name[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of first argument (condition) of function if. "
                      "Must be UInt8.",
                      ty_type_name(ty_type_strip_nullable(call->arg_types[0]), name, sizeof(name)));
    }
    return logic_bind_branches(call, arena, err);
}

static int logic_bind_multi_if(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count < 3 || call->arg_count % 2 == 0 || call->arg_count > 255)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Invalid number of arguments for function %s",
                      call->function->name);
    for (uint32_t i = 0; i + 1 < call->arg_count; i += 2) {
        if (logic_condition_type_ok(call->arg_types[i])) continue;
        char name[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument (condition) of function %s. Must be UInt8.",
                      ty_type_name(call->arg_types[i], name, sizeof(name)), call->function->name);
    }
    return logic_bind_branches(call, arena, err);
}

static const exec_function logic_and = {"and", EXEC_FN_NULLS_CUSTOM, logic_bind_and_or};
static const exec_function logic_or = {"or", EXEC_FN_NULLS_CUSTOM, logic_bind_and_or};
static const exec_function logic_xor = {"xor", 0, logic_bind_xor};
static const exec_function logic_not = {"not", EXEC_FN_CASE_INSENSITIVE, logic_bind_not};
static const exec_function logic_if = {"if", EXEC_FN_NULLS_CUSTOM | EXEC_FN_CASE_INSENSITIVE,
                                       logic_bind_if};
static const exec_function logic_multi_if = {"multiIf", EXEC_FN_NULLS_CUSTOM, logic_bind_multi_if};

const exec_function *const exec__functions_logic[] = {
    &logic_and, &logic_or, &logic_xor, &logic_not, &logic_if, &logic_multi_if, NULL,
};
