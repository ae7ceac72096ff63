/* fn_array.c: ClickHouse's array and map functions: the constructors the
 * binder maps literals to (array for [a, b], map for {k: v}), element access
 * (arr[i], m['k']), search (has, indexOf, countEqual, hasAll, hasAny,
 * mapContains), reshaping (arrayConcat, arraySlice, push/pop, arrayResize,
 * arrayFlatten, arrayCompact), ordering and sets (arraySort, arrayDistinct,
 * arrayUniq) and the empty-array constants; the registry list also names
 * the functions of fn_array2.c. Elements of different types are brought to
 * their least supertype first (exec__arr_convert_rows), as ClickHouse casts
 * them. Recursion follows the type tree only, bounded by TY_TYPE_DEPTH_MAX.
 */
#include "exec/fn_array_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ClickHouse's MAX_ARRAY_SIZE for arrayResize. */
#define ARR_RESIZE_ELEMENTS_MAX (1ULL << 30)

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

int exec__arr_type_make(mu_arena *arena, ty_kind kind, const ty_type *child,
                        const ty_type *child2, const ty_type **out, mu_err *err) {
    ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
    if (t == NULL) return err->code;
    t->kind = kind;
    t->child = child;
    t->child2 = child2;
    *out = t;
    return 0;
}

/* ClickHouse's isNativeNumber: integers, floats and Bool (not Decimal). */
static bool arr_is_native_number(const ty_type *t) {
    return exec_type_is_integer(t) || exec_type_is_float(t) || t->kind == TY_BOOL;
}

/* exec_type_supertype, except that a plain Nothing (the element type of
 * []) adds nothing, as in ClickHouse: [[], [1]] is Array(Array(UInt8)). */
static int arr_supertype_at(const ty_type *const *types, uint32_t count, mu_arena *arena,
                            unsigned depth, const ty_type **out, mu_err *err) {
    MU_ASSERT(count > 0);
    if (depth > TY_TYPE_DEPTH_MAX)
        return MU_ERR(err, MU_ETOO_DEEP, "types nested deeper than %d levels", TY_TYPE_DEPTH_MAX);
    const ty_type **kept = mu_arena_calloc(arena, count, sizeof(*kept), err);
    if (kept == NULL) return err->code;
    uint32_t n = 0, arrays = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (types[i]->kind == TY_NOTHING) continue;
        arrays += types[i]->kind == TY_ARRAY;
        kept[n++] = types[i];
    }
    if (n == 0) {
        *out = types[0];
        return 0;
    }
    if (n == 1) {
        *out = kept[0];
        return 0;
    }
    if (arrays < n) return exec_type_supertype(kept, n, arena, out, err);
    const ty_type **children = mu_arena_calloc(arena, n, sizeof(*children), err);
    if (children == NULL) return err->code;
    for (uint32_t i = 0; i < n; i++) children[i] = kept[i]->child;
    const ty_type *elem;
    int rc = arr_supertype_at(children, n, arena, depth + 1, &elem, err);
    if (rc != 0) return rc;
    return exec__arr_type_make(arena, TY_ARRAY, elem, NULL, out, err);
}

int exec__arr_supertype(const ty_type *const *types, uint32_t count, mu_arena *arena,
                        const ty_type **out, mu_err *err) {
    return arr_supertype_at(types, count, arena, 0, out, err);
}

static int arr_supertype2(const ty_type *a, const ty_type *b, mu_arena *arena,
                          const ty_type **out, mu_err *err) {
    const ty_type *pair[2] = {a, b};
    return exec__arr_supertype(pair, 2, arena, out, err);
}

/* ------------------------------------------------------------------ */
/* Argument errors in ClickHouse's wording                             */
/* ------------------------------------------------------------------ */

int exec__arr_error_not_array(const exec_call *call, uint32_t index, arr_msg msg, mu_err *err) {
    char tn[128];
    const char *name = call->function->name;
    ty_type_name(call->arg_types[index], tn, sizeof(tn));
    switch (msg) {
    case ARR_MSG_FIRST:
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "First argument for function %s must be an array but it has type %s.", name,
                      tn);
    case ARR_MSG_ONLY:
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "The 1st and only argument for function %s must be array. Found %s "
                      "instead", name, tn);
    case ARR_MSG_ARGUMENT:
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Argument for function %s must be array but it has type %s.", name, tn);
    case ARR_MSG_INDEXED:
        break;
    }
    return MU_ERR(err, MU_EILLEGAL_TYPE,
                  "Argument %u for function %s must be an array but it has type %s.", index, name,
                  tn);
}

int exec__arr_check_array(const exec_call *call, uint32_t index, arr_msg msg, mu_err *err) {
    if (call->arg_types[index]->kind == TY_ARRAY) return 0;
    return exec__arr_error_not_array(call, index, msg, err);
}

int exec__arr_bind_one_array(exec_call *call, arr_msg msg, mu_err *err) {
    if (msg == ARR_MSG_ONLY && call->arg_count != 1) {
        /* FunctionArrayMapped: more arguments are a lambda and its arrays. */
        char tn[128];
        if (call->arg_count == 0)
            return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s needs at least 1 argument, "
                          "passed 0", call->function->name);
        return MU_ERR(err, MU_EILLEGAL_TYPE, "First argument for function %s must be a "
                      "function. Actual %s", call->function->name,
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)));
    }
    int rc = exec__check_arg_count(call, 1, 1, err);
    return rc != 0 ? rc : exec__arr_check_array(call, 0, msg, err);
}

/* Every row NULL: a call on a NULL literal whose result is Nullable(Nothing). */
static int arr_null_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    (void)call;
    (void)args;
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) rc = ty_column_append_null(out, err);
    return rc;
}

int exec__arr_bind_all_null(exec_call *call, mu_arena *arena, mu_err *err) {
    call->kernel = arr_null_kernel;
    return exec_type_make_nullable(ty_type_builtin(TY_NOTHING), arena, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* Reading values                                                      */
/* ------------------------------------------------------------------ */

int exec__arr_total_elements(const exec_arg *a, uint32_t rows, uint32_t *out, mu_err *err) {
    uint64_t total = 0;
    if (a->is_const) {
        uint32_t b, e;
        arr_bounds(a, 0, &b, &e);
        total = (uint64_t)(e - b) * rows;
    } else {
        const uint32_t *offsets = ty_column_offsets(a->column);
        total = offsets[rows] - offsets[0];
    }
    if (total > TY_COLUMN_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "array elements past %u in one block",
                      TY_COLUMN_ROWS_MAX);
    *out = (uint32_t)total;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Conversion to a supertype                                           */
/* ------------------------------------------------------------------ */

static int64_t arr_pow10(unsigned e) {
    int64_t v = 1;
    while (e-- > 0) v *= 10;
    return v;
}

/* Seconds since the epoch of midnight of `days` in zone tz. */
static int64_t arr_midnight(const ty_type *dst, int64_t days) {
    return ty_tz_local_to_utc(ty_type_timezone(dst), days * 86400);
}

/* Converts one value (src already resolved out of LowCardinality, not
 * NULL) to the fixed-width type dst, writing its bytes to out. The pairs
 * are those exec_type_supertype produces. */
static int arr_convert_fixed(const ty_column *src, uint32_t row, const ty_type *dst, uint8_t *out,
                             mu_err *err) {
    const ty_type *s = ty_type_strip_nullable(src->type);
    uint32_t width = ty_type_value_bytes(dst);
    if (ty_type_equal(s, dst)) {
        memcpy(out, arr_fixed_ptr(src, row), width);
        return 0;
    }
    bool from_int = exec_type_is_integer(s) || s->kind == TY_BOOL;
    bool from_date = s->kind == TY_DATE || s->kind == TY_DATE32;
    int64_t i = 0; /* integers, days, seconds and ticks (never read from a float) */
    if (from_int || exec_type_is_date_or_time(s))
        i = exec_type_is_signed(s) || !from_int ? exec_get_i64(src, row)
                                                : (int64_t)exec_get_u64(src, row);
    if (exec_type_is_integer(dst) && from_int) {
        memcpy(out, &i, width); /* little-endian: the low bytes */
        return 0;
    }
    if (dst->kind == TY_FLOAT32 || dst->kind == TY_FLOAT64) {
        double d = exec_get_f64(src, row);
        if (dst->kind == TY_FLOAT32) {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            memcpy(out, &d, 8);
        }
        return 0;
    }
    if (dst->kind == TY_DECIMAL && (from_int || s->kind == TY_DECIMAL)) {
        __int128 v;
        if (s->kind == TY_DECIMAL) {
            v = arr_decimal_load(arr_fixed_ptr(src, row), s->precision);
            v *= ty_decimal_pow10((unsigned)(dst->scale - MU_MIN(dst->scale, s->scale)));
        } else {
            v = exec_type_is_signed(s) ? (__int128)i : (__int128)(uint64_t)i;
            v *= ty_decimal_pow10(dst->scale);
        }
        arr_decimal_store(out, dst->precision, v);
        return 0;
    }
    if (dst->kind == TY_DATE32 && s->kind == TY_DATE) {
        int32_t days = (int32_t)i;
        memcpy(out, &days, 4);
        return 0;
    }
    if (dst->kind == TY_DATETIME && from_date) {
        int64_t t = arr_midnight(dst, i);
        uint32_t secs = t < 0 ? 0 : t > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)t;
        memcpy(out, &secs, 4);
        return 0;
    }
    if (dst->kind == TY_DATETIME64 && (from_date || exec_type_is_date_or_time(s))) {
        int64_t ticks;
        if (from_date) ticks = arr_midnight(dst, i) * arr_pow10(dst->precision);
        else if (s->kind == TY_DATETIME) ticks = i * arr_pow10(dst->precision);
        else if (dst->precision >= s->precision)
            ticks = i * arr_pow10(dst->precision - s->precision);
        else ticks = i / arr_pow10(s->precision - dst->precision);
        memcpy(out, &ticks, 8);
        return 0;
    }
    char a[128], b[128];
    return MU_ERR(err, MU_EINTERNAL, "cannot convert %s to %s", ty_type_name(s, a, sizeof(a)),
                  ty_type_name(dst, b, sizeof(b)));
}

static int arr_convert_scalars(ty_column *dst, const ty_column *src, uint32_t from,
                               uint32_t count, mu_err *err) {
    const ty_type *dv = arr_value_type(dst->type);
    bool src_nothing = arr_value_type(src->type)->kind == TY_NOTHING;
    uint8_t value[16];
    for (uint32_t i = from; i < from + count; i++) {
        int rc;
        if (src_nothing || ty_column_is_null(src, i)) {
            rc = ty_column_append_default(dst, err); /* NULL when dst is Nullable */
        } else {
            uint32_t row = i;
            const ty_column *s = arr_resolve(src, &row);
            if (exec_type_is_string(dv)) {
                size_t bytes;
                const uint8_t *data = ty_column_row_bytes(s, row, &bytes);
                if (dv->kind == TY_STRING && arr_value_type(s->type)->kind == TY_FIXED_STRING)
                    while (bytes > 0 && data[bytes - 1] == 0) bytes--; /* as ClickHouse's CAST */
                rc = ty_column_append_bytes(dst, data, bytes, err);
            } else {
                rc = arr_convert_fixed(s, row, dv, value, err);
                if (rc == 0) rc = ty_column_append_value(dst, value, err);
            }
        }
        if (rc != 0) return rc;
    }
    return 0;
}

/* Appends rows [from, from + count) of src to dst, converted to dst's type
 * (a supertype of src's: wider numbers, Decimal, String, later dates,
 * Nullable, element-wise for Array and Map). */
static int arr_convert_rows_at(ty_column *dst, const ty_column *src, uint32_t from,
                               uint32_t count, unsigned depth, mu_err *err) {
    MU_ASSERT((uint64_t)from + count <= ty_column_row_count(src));
    if (count == 0) return 0;
    if (dst->type == src->type || ty_type_equal(dst->type, src->type))
        return ty_column_append_rows_from(dst, src, from, count, err);
    if (depth > TY_TYPE_DEPTH_MAX)
        return MU_ERR(err, MU_ETOO_DEEP, "types nested deeper than %d levels", TY_TYPE_DEPTH_MAX);
    ty_kind k = dst->type->kind;
    if (k != TY_ARRAY && k != TY_MAP) return arr_convert_scalars(dst, src, from, count, err);
    if (src->type->kind != k) {
        char a[128], b[128];
        return MU_ERR(err, MU_EINTERNAL, "cannot convert %s to %s",
                      ty_type_name(src->type, a, sizeof(a)), ty_type_name(dst->type, b, sizeof(b)));
    }
    const uint32_t *offsets = ty_column_offsets(src);
    uint32_t *lengths = exec__scratch(count, sizeof(*lengths), err);
    if (lengths == NULL) return err->code;
    for (uint32_t i = 0; i < count; i++) lengths[i] = offsets[from + i + 1] - offsets[from + i];
    uint32_t child_from = offsets[from], child_count = offsets[from + count] - child_from;
    int rc = 0;
    for (unsigned c = 0; c < (k == TY_MAP ? 2u : 1u) && rc == 0; c++)
        rc = arr_convert_rows_at(ty_column_child_mut(dst, c), ty_column_child(src, c), child_from,
                                 child_count, depth + 1, err);
    if (rc == 0) rc = ty_column_append_nested_raw(dst, lengths, count, err);
    free(lengths);
    return rc;
}

int exec__arr_convert_rows(ty_column *dst, const ty_column *src, uint32_t from, uint32_t count,
                           mu_err *err) {
    return arr_convert_rows_at(dst, src, from, count, 0, err);
}

/* A new column of `type` holding every row of src converted; NULL when src
 * already has that type (then src is used as is). */
static int arr_convert_column(const ty_column *src, const ty_type *type, const ty_column **out,
                              ty_column **owned, mu_err *err) {
    *owned = NULL;
    *out = src;
    if (type == NULL || ty_type_equal(src->type, type)) return 0;
    int rc = ty_column_create(type, NULL, owned, err);
    if (rc == 0) rc = exec__arr_convert_rows(*owned, src, 0, ty_column_row_count(src), err);
    if (rc != 0) {
        ty_column_destroy(*owned);
        *owned = NULL;
        return rc;
    }
    *out = *owned;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Equality, hashing and order of elements                             */
/* ------------------------------------------------------------------ */

/* A number as it was written: signed, unsigned or float. */
typedef struct arr_num {
    enum { ARR_NUM_SIGNED, ARR_NUM_UNSIGNED, ARR_NUM_FLOAT } kind;
    int64_t i;
    uint64_t u;
    double d;
} arr_num;

static arr_num arr_num_get(const ty_column *c, uint32_t row) {
    c = arr_resolve(c, &row);
    const ty_type *t = ty_type_strip_nullable(c->type);
    arr_num n = {.kind = ARR_NUM_UNSIGNED};
    if (exec_type_is_float(t)) {
        n.kind = ARR_NUM_FLOAT;
        n.d = exec_get_f64(c, row);
    } else if (exec_type_is_signed(t) || t->kind == TY_ENUM8 || t->kind == TY_ENUM16) {
        n.kind = ARR_NUM_SIGNED;
        n.i = exec_get_i64(c, row);
    } else {
        n.u = exec_get_u64(c, row);
    }
    return n;
}

static bool arr_float_equals_int(double d, const arr_num *x) {
    if (d != floor(d)) return false; /* NaN and fractions */
    if (x->kind == ARR_NUM_SIGNED)
        return d >= -9223372036854775808.0 && d < 9223372036854775808.0 && (int64_t)d == x->i;
    return d >= 0 && d < 18446744073709551616.0 && (uint64_t)d == x->u;
}

/* Exact equality across number types, as ClickHouse's accurate::equalsOp
 * (NaN equals nothing). */
static bool arr_num_equal(arr_num a, arr_num b) {
    if (a.kind == ARR_NUM_FLOAT && b.kind == ARR_NUM_FLOAT) return a.d == b.d;
    if (a.kind == ARR_NUM_FLOAT) return arr_float_equals_int(a.d, &b);
    if (b.kind == ARR_NUM_FLOAT) return arr_float_equals_int(b.d, &a);
    if (a.kind == b.kind) return a.kind == ARR_NUM_SIGNED ? a.i == b.i : a.u == b.u;
    if (a.kind == ARR_NUM_SIGNED) return a.i >= 0 && (uint64_t)a.i == b.u;
    return b.i >= 0 && (uint64_t)b.i == a.u;
}

/* How search functions compare an element with a value. */
typedef enum arr_eq_mode {
    ARR_EQ_ROWS,   /* equal types: value equality of rows */
    ARR_EQ_NUMBER, /* numbers of any kinds, compared exactly */
    ARR_EQ_STRING, /* String and FixedString bytes */
} arr_eq_mode;

static bool arr_str_equal(const ty_column *a, uint32_t ra, const ty_column *b, uint32_t rb,
                          bool strip_padding) {
    size_t na, nb;
    const uint8_t *x = ty_column_row_bytes(a, ra, &na);
    const uint8_t *y = ty_column_row_bytes(b, rb, &nb);
    if (strip_padding) {
        /* A FixedString's trailing zero bytes are padding, not value. */
        if (arr_value_type(a->type)->kind == TY_FIXED_STRING)
            while (na > 0 && x[na - 1] == 0) na--;
        if (arr_value_type(b->type)->kind == TY_FIXED_STRING)
            while (nb > 0 && y[nb - 1] == 0) nb--;
    }
    return na == nb && (na == 0 || memcmp(x, y, na) == 0);
}

/* NULL equals NULL and nothing else. */
static bool arr_equal(arr_eq_mode mode, bool strip, const ty_column *a, uint32_t ra,
                      const ty_column *b, uint32_t rb) {
    bool null_a = ty_column_is_null(a, ra), null_b = ty_column_is_null(b, rb);
    if (null_a || null_b) return null_a && null_b;
    switch (mode) {
    case ARR_EQ_NUMBER: return arr_num_equal(arr_num_get(a, ra), arr_num_get(b, rb));
    case ARR_EQ_STRING: return arr_str_equal(a, ra, b, rb, strip);
    case ARR_EQ_ROWS: break;
    }
    return ty_column_equal_row(a, ra, b, rb);
}

/* The mode for elements of one (value) type compared with each other. */
static arr_eq_mode arr_mode_of(const ty_type *t) {
    t = arr_value_type(t);
    if (arr_is_native_number(t)) return ARR_EQ_NUMBER;
    if (exec_type_is_string(t)) return ARR_EQ_STRING;
    return ARR_EQ_ROWS;
}

/* A hash consistent with ty_column_equal_row (NaN == NaN, -0 == +0). */
static uint64_t arr_hash_row(const ty_column *c, uint32_t row, unsigned depth) {
    if (ty_column_is_null(c, row)) return 0x5BD1E9955BD1E995ULL;
    c = arr_resolve(c, &row);
    const ty_type *v = ty_type_strip_nullable(c->type);
    if (v->kind == TY_ARRAY || v->kind == TY_MAP) {
        const uint32_t *offsets = ty_column_offsets(c);
        uint64_t h = mu_hash_u64(offsets[row + 1] - offsets[row] + 0x1000193ULL);
        if (depth >= TY_TYPE_DEPTH_MAX) return h;
        for (uint32_t j = offsets[row]; j < offsets[row + 1]; j++)
            for (unsigned k = 0; k < (v->kind == TY_MAP ? 2u : 1u); k++)
                h = mu_hash_u64(h ^ arr_hash_row(ty_column_child(c, k), j, depth + 1));
        return h;
    }
    if (exec_type_is_float(v)) {
        double d = exec_get_f64(c, row);
        if (d == 0) d = 0;
        if (isnan(d)) return 0x7FF8000000000000ULL;
        return mu_hash64(&d, sizeof(d));
    }
    size_t bytes;
    const uint8_t *data = ty_column_row_bytes(c, row, &bytes);
    return mu_hash64(data, bytes);
}

/* An open-addressing set of element positions within one row (for
 * arrayDistinct and arrayUniq); a position stands for the tuple of
 * elements at that position in each of `count` arrays. */
typedef struct arr_set {
    uint32_t *slots; /* position + 1; 0 = empty */
    uint32_t mask;
    uint32_t capacity;
    const ty_column *const *columns;
    const uint32_t *bases; /* each array's first element in its column */
    uint32_t count;
} arr_set;

static int arr_set_prepare(arr_set *s, uint32_t elements, mu_err *err) {
    uint32_t want = 16;
    while (want < elements * 2ULL && want < (1u << 31)) want *= 2;
    if (want > s->capacity) {
        uint32_t *grown = realloc(s->slots, (size_t)want * sizeof(*grown));
        if (grown == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a set of %u", want);
        s->slots = grown;
        s->capacity = want;
    }
    memset(s->slots, 0, (size_t)want * sizeof(*s->slots));
    s->mask = want - 1;
    return 0;
}

/* True when position j was not in the set yet (it is now). */
static bool arr_set_add(arr_set *s, uint32_t j) {
    MU_DEBUG_ASSERT(s->mask != 0 && s->count > 0);
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (uint32_t c = 0; c < s->count; c++)
        h = mu_hash_u64(h ^ arr_hash_row(s->columns[c], s->bases[c] + j, 0));
    for (uint32_t pos = (uint32_t)h & s->mask;; pos = (pos + 1) & s->mask) {
        if (s->slots[pos] == 0) {
            s->slots[pos] = j + 1;
            return true;
        }
        uint32_t k = s->slots[pos] - 1;
        bool same = true;
        for (uint32_t c = 0; c < s->count && same; c++)
            same = ty_column_equal_row(s->columns[c], s->bases[c] + k, s->columns[c],
                                       s->bases[c] + j);
        if (same) return false;
    }
}

/* 0 for a number or other value, 1 for NaN, 2 for NULL. */
int exec__arr_special_rank(const ty_column *c, uint32_t row) {
    if (ty_column_is_null(c, row)) return 2;
    c = arr_resolve(c, &row);
    if (exec_type_is_float(ty_type_strip_nullable(c->type)) && isnan(exec_get_f64(c, row)))
        return 1;
    return 0;
}

/* Ascending order is ty_column_compare_rows (NaN, then NULL last); the
 * descending order of arrayReverseSort keeps NaN and NULL last too. */
static int arr_sort_compare(const ty_column *c, bool descending, uint32_t a, uint32_t b) {
    if (!descending) return ty_column_compare_rows(c, a, c, b);
    int ra = exec__arr_special_rank(c, a), rb = exec__arr_special_rank(c, b);
    if (ra != rb) return ra - rb;
    return ra != 0 ? 0 : ty_column_compare_rows(c, b, c, a);
}

/* Stable bottom-up merge sort of element positions (no recursion). */
void exec__arr_sort(uint32_t *v, uint32_t *tmp, uint32_t n, const ty_column *c,
                    bool descending) {
    uint32_t *from = v, *to = tmp;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = MU_MIN(lo + width, n), hi = MU_MIN(lo + 2 * width, n);
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                to[k++] = arr_sort_compare(c, descending, from[j], from[i]) < 0 ? from[j++]
                                                                                : from[i++];
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        uint32_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != v) memcpy(v, from, (size_t)n * sizeof(*v));
}

/* ------------------------------------------------------------------ */
/* Building array results                                              */
/* ------------------------------------------------------------------ */

/* Output arrays made of elements of one source column: positions to gather
 * and one length per row. */
typedef struct arr_gather {
    uint32_t *index;
    uint32_t count;
    uint32_t *lengths;
} arr_gather;

static int arr_gather_init(arr_gather *g, uint32_t elements_max, uint32_t rows, mu_err *err) {
    memset(g, 0, sizeof(*g));
    g->index = exec__scratch(elements_max, sizeof(*g->index), err);
    g->lengths = g->index ? exec__scratch(rows, sizeof(*g->lengths), err) : NULL;
    if (g->lengths == NULL) {
        free(g->index);
        g->index = NULL;
        return err->code;
    }
    return 0;
}

static void arr_gather_deinit(arr_gather *g) {
    free(g->index);
    free(g->lengths);
    memset(g, 0, sizeof(*g));
}

static int arr_gather_finish(arr_gather *g, ty_column *out, const ty_column *elements,
                             uint32_t rows, mu_err *err) {
    MU_DEBUG_ASSERT(rows == 0 || g->lengths != NULL);
    int rc = 0;
    if (g->count > 0)
        rc = ty_column_append_gather(ty_column_child_mut(out, 0), elements, g->index, g->count,
                                     err);
    if (rc == 0) rc = ty_column_append_nested_raw(out, g->lengths, rows, err);
    arr_gather_deinit(g);
    return rc;
}

/* The element type's default as a valid value, even into a Nullable
 * column (where ty_column_append_default would add NULL): what an
 * out-of-range index gives when only the index made the result Nullable. */
static int arr_append_default_value(ty_column *out, mu_err *err) {
    if (!out->nullable) return ty_column_append_default(out, err);
    const ty_type *v = arr_value_type(out->type);
    if (exec_type_is_string(v)) return ty_column_append_bytes(out, "", 0, err);
    uint8_t zero[16] = {0};
    if ((v->kind == TY_ENUM8 || v->kind == TY_ENUM16) && v->enum_count > 0) {
        int16_t first = v->enum_entries[0].value; /* entries sorted: the smallest */
        if (v->kind == TY_ENUM8) zero[0] = (uint8_t)(int8_t)first;
        else memcpy(zero, &first, 2);
    }
    return ty_column_append_value(out, zero, err);
}

/* ------------------------------------------------------------------ */
/* array(...), map(...), emptyArray*()                                 */
/* ------------------------------------------------------------------ */

static int arr_array_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    ty_column *elements = ty_column_child_mut(out, 0);
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t i = 0; i < call->arg_count; i++) {
            int rc =
                exec__arr_convert_rows(elements, args[i].column, exec_arg_row(&args[i], r), 1, err);
            if (rc != 0) return rc;
        }
        int rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* array(a, b, ...): Array(least supertype); array() is Array(Nothing). */
static int arr_bind_array(exec_call *call, mu_arena *arena, mu_err *err) {
    const ty_type *elem = ty_type_builtin(TY_NOTHING);
    if (call->arg_count > 0) {
        int rc = exec__arr_supertype(call->arg_types, call->arg_count, arena, &elem, err);
        if (rc != 0) return rc;
    }
    call->kernel = arr_array_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, elem, NULL, &call->result_type, err);
}

static int arr_map_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                          ty_column *out, mu_err *err) {
    ty_column *keys = ty_column_child_mut(out, 0), *values = ty_column_child_mut(out, 1);
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t i = 0; i + 1 < call->arg_count; i += 2) {
            int rc =
                exec__arr_convert_rows(keys, args[i].column, exec_arg_row(&args[i], r), 1, err);
            if (rc == 0)
                rc = exec__arr_convert_rows(values, args[i + 1].column,
                                            exec_arg_row(&args[i + 1], r), 1, err);
            if (rc != 0) return rc;
        }
        int rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* map(k1, v1, k2, v2, ...): Map(supertype of keys, supertype of values). */
static int arr_bind_map(exec_call *call, mu_arena *arena, mu_err *err) {
    uint32_t pairs = call->arg_count / 2;
    if (call->arg_count % 2 != 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Function %s requires even number of arguments, but %u given",
                      call->function->name, call->arg_count);
    const ty_type *key = ty_type_builtin(TY_NOTHING), *value = key;
    if (pairs > 0) {
        const ty_type **keys = mu_arena_calloc(arena, pairs, sizeof(*keys), err);
        const ty_type **values = keys ? mu_arena_calloc(arena, pairs, sizeof(*values), err) : NULL;
        if (values == NULL) return err->code;
        for (uint32_t i = 0; i < pairs; i++) {
            keys[i] = call->arg_types[2 * i];
            values[i] = call->arg_types[2 * i + 1];
        }
        int rc = exec__arr_supertype(keys, pairs, arena, &key, err);
        if (rc == 0) rc = exec__arr_supertype(values, pairs, arena, &value, err);
        if (rc != 0) return rc;
    }
    if (arr_type_nullable(key)) {
        char tn[128];
        return MU_ERR(err, MU_EINVAL, "Map cannot have a key of type %s",
                      ty_type_name(key, tn, sizeof(tn)));
    }
    call->kernel = arr_map_kernel;
    return exec__arr_type_make(arena, TY_MAP, key, value, &call->result_type, err);
}

static int arr_empty_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    (void)call;
    (void)args;
    uint32_t *lengths = calloc(rows ? rows : 1, sizeof(*lengths));
    if (lengths == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for %u empty arrays", rows);
    int rc = ty_column_append_nested_raw(out, lengths, rows, err);
    free(lengths);
    return rc;
}

/* emptyArrayUInt8() ...: the element type is the name's suffix. */
static int arr_bind_empty(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 0, 0, err);
    if (rc != 0) return rc;
    const ty_type *elem;
    rc = ty_type_parse(call->function->name + strlen("emptyArray"), arena, &elem, err);
    if (rc != 0) return rc;
    call->kernel = arr_empty_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, elem, NULL, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* arrayElement, arrayElementOrNull (arr[i], m[key])                   */
/* ------------------------------------------------------------------ */

#define ARR_NONE UINT32_MAX

typedef enum arr_key_match {
    ARR_KEY_INT,    /* integer-like keys: the index cast to the key's type */
    ARR_KEY_STRING, /* String/FixedString keys and index */
    ARR_KEY_UUID,
} arr_key_match;

typedef struct arr_element_state {
    bool is_map;
    bool or_null;
    bool index_signed;
    arr_key_match key;
    unsigned key_bits;
} arr_element_state;

static bool arr_is_int_key(const ty_type *t) {
    return exec_type_is_integer(t) || t->kind == TY_BOOL || t->kind == TY_DATE ||
           t->kind == TY_DATE32 || t->kind == TY_DATETIME || t->kind == TY_ENUM8 ||
           t->kind == TY_ENUM16;
}

/* The element an index points at in [b, e): 1-based, negative from the
 * end; ARR_NONE when out of range (0 included). */
static uint32_t arr_index_pick(const arr_element_state *s, const exec_arg *ix, uint32_t r,
                               uint32_t b, uint32_t e) {
    MU_ASSERT(b <= e);
    uint64_t n = e - b;
    uint32_t row = exec_arg_row(ix, r);
    if (s->index_signed) {
        int64_t v = exec_get_i64(ix->column, row);
        if (v > 0 && (uint64_t)v <= n) return b + (uint32_t)v - 1;
        uint64_t back = 0 - (uint64_t)v;
        if (v < 0 && back <= n) return e - (uint32_t)back;
        return ARR_NONE;
    }
    uint64_t v = exec_get_u64(ix->column, row);
    return v >= 1 && v <= n ? b + (uint32_t)v - 1 : ARR_NONE;
}

/* The first key in [b, e) equal to the index, as ClickHouse matches them. */
static uint32_t arr_key_find(const arr_element_state *s, const ty_column *keys,
                             const exec_arg *ix, uint32_t r, uint32_t b, uint32_t e) {
    uint32_t row = exec_arg_row(ix, r);
    if (s->key == ARR_KEY_INT) {
        uint64_t mask = s->key_bits >= 64 ? UINT64_MAX : (1ULL << s->key_bits) - 1;
        uint64_t want = (uint64_t)exec_get_i64(ix->column, row) & mask;
        for (uint32_t j = b; j < e; j++) {
            uint32_t kr = j;
            const ty_column *k = arr_resolve(keys, &kr);
            if (((uint64_t)exec_get_i64(k, kr) & mask) == want) return j;
        }
        return ARR_NONE;
    }
    size_t n;
    const char *want = exec_get_str(ix->column, row, &n);
    for (uint32_t j = b; j < e; j++) {
        size_t kn;
        const uint8_t *key = ty_column_row_bytes(keys, j, &kn);
        if (kn == n && (n == 0 || memcmp(key, want, n) == 0)) return j;
    }
    return ARR_NONE;
}

static int arr_element_emit(const exec_call *call, const exec_arg *args, uint32_t rows,
                            const uint32_t *pick, bool all_found, const ty_column *values,
                            ty_column *out, mu_err *err) {
    const arr_element_state *s = call->state;
    if (all_found && ty_type_equal(out->type, values->type))
        return rows ? ty_column_append_gather(out, values, pick, rows, err) : 0;
    for (uint32_t r = 0; r < rows; r++) {
        int rc;
        if (pick[r] != ARR_NONE) rc = exec__arr_convert_rows(out, values, pick[r], 1, err);
        else if (s->or_null || values->nullable || exec_arg_is_null_row(&args[1], r))
            rc = ty_column_append_default(out, err); /* NULL when out is Nullable */
        else rc = arr_append_default_value(out, err); /* only the index made it Nullable */
        if (rc != 0) return rc;
    }
    return 0;
}

static int arr_element_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    const arr_element_state *s = call->state;
    const ty_column *container = args[0].column;
    const ty_column *values = ty_column_child(container, s->is_map ? 1 : 0);
    const exec_arg *ix = &args[1];
    if (!s->is_map && !s->or_null && ix->is_const && !args[0].is_const &&
        !exec_arg_is_null_row(ix, 0) && exec_get_i64(ix->column, 0) == 0)
        return MU_ERR(err, MU_EZERO_INDEX, "Array indices are 1-based");
    uint32_t *pick = exec__scratch(rows, sizeof(*pick), err);
    if (pick == NULL) return err->code;
    bool all_found = true;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        if (exec_arg_is_null_row(ix, r)) pick[r] = ARR_NONE;
        else if (s->is_map) pick[r] = arr_key_find(s, ty_column_child(container, 0), ix, r, b, e);
        else pick[r] = arr_index_pick(s, ix, r, b, e);
        all_found = all_found && pick[r] != ARR_NONE;
    }
    int rc = arr_element_emit(call, args, rows, pick, all_found, values, out, err);
    free(pick);
    return rc;
}

static int arr_bind_map_key(exec_call *call, arr_element_state *s, const ty_type *index,
                            mu_err *err) {
    const ty_type *key = arr_value_type(call->arg_types[0]->child);
    bool int_index = exec_type_is_integer(index) || index->kind == TY_BOOL;
    s->is_map = true;
    if (arr_is_int_key(key) && int_index) {
        s->key = ARR_KEY_INT;
        s->key_bits = ty_type_value_bytes(key) * 8;
        return 0;
    }
    if (exec_type_is_string(key) && exec_type_is_string(index)) {
        s->key = ARR_KEY_STRING;
        return 0;
    }
    if (key->kind == TY_UUID && index->kind == TY_UUID) {
        s->key = ARR_KEY_UUID;
        return 0;
    }
    char a[128], b[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal types of arguments: %s, %s for function %s",
                  ty_type_name(call->arg_types[0], a, sizeof(a)), ty_type_name(index, b, sizeof(b)),
                  call->function->name);
}

/* Custom NULL handling: a Nullable index makes the result Nullable (NULL
 * where the index is), and the element type may already be Nullable. */
static int arr_bind_element(exec_call *call, mu_arena *arena, mu_err *err) {
    bool or_null = arr_op(call) != 0; /* arrayElementOrNull */
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    const ty_type *a = call->arg_types[0], *ix = call->arg_types[1];
    if (exec_type_is_nothing(a) || exec_type_is_nothing(ix))
        return exec__arr_bind_all_null(call, arena, err);
    arr_element_state *s = mu_arena_calloc(arena, 1, sizeof(*s), err);
    if (s == NULL) return err->code;
    const ty_type *index = ty_type_strip_nullable(ix), *result;
    char tn[128];
    s->or_null = or_null;
    s->index_signed = exec_type_is_signed(index);
    if (a->kind == TY_MAP) {
        rc = arr_bind_map_key(call, s, index, err);
        if (rc != 0) return rc;
        result = a->child2;
    } else if (a->kind == TY_ARRAY) {
        if (!exec_type_is_integer(index) && index->kind != TY_BOOL)
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Second argument for function '%s' must be integer, got '%s' instead",
                          call->function->name, ty_type_name(index, tn, sizeof(tn)));
        result = a->child;
    } else {
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "First argument for function '%s' must be array, got '%s' instead",
                      call->function->name, ty_type_name(a, tn, sizeof(tn)));
    }
    result = arr_strip_lc(result);
    if (result->kind == TY_NOTHING) return exec__arr_bind_all_null(call, arena, err); /* [][1] */
    if (or_null || ix->kind == TY_NULLABLE) {
        rc = exec_type_make_nullable(result, arena, &result, err);
        if (rc != 0) return rc;
    }
    call->state = s;
    call->kernel = arr_element_kernel;
    call->result_type = result;
    return 0;
}


/* ------------------------------------------------------------------ */
/* has, indexOf, countEqual, mapContains                               */
/* ------------------------------------------------------------------ */

typedef enum arr_search_op {
    ARR_HAS, ARR_INDEX_OF, ARR_COUNT_EQUAL, ARR_MAP_CONTAINS /* bind only: has over a Map */
} arr_search_op;

typedef struct arr_search_state {
    arr_search_op op;
    arr_eq_mode mode;
    bool strip_padding;
    const ty_type *elem_type;   /* elements converted to this first, or NULL */
    const ty_type *needle_type; /* the value converted to this first, or NULL */
} arr_search_state;

static int arr_search_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    const arr_search_state *s = call->state;
    const ty_column *elems, *needle;
    ty_column *elems_owned, *needle_owned = NULL;
    int rc = arr_convert_column(ty_column_child(args[0].column, 0), s->elem_type, &elems,
                                &elems_owned, err);
    if (rc == 0)
        rc = arr_convert_column(args[1].column, s->needle_type, &needle, &needle_owned, err);
    void *at = NULL;
    if (rc == 0) rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    for (uint32_t r = 0; rc == 0 && r < rows; r++) {
        uint32_t b, e, k = exec_arg_row(&args[1], r);
        arr_bounds(&args[0], r, &b, &e);
        uint64_t count = 0, first = 0;
        for (uint32_t j = b; j < e; j++) {
            if (!arr_equal(s->mode, s->strip_padding, elems, j, needle, k)) continue;
            if (count++ == 0) first = j - b + 1;
            if (s->op != ARR_COUNT_EQUAL) break;
        }
        if (s->op == ARR_HAS) ((uint8_t *)at)[r] = count > 0;
        else ((uint64_t *)at)[r] = s->op == ARR_INDEX_OF ? first : count;
    }
    ty_column_destroy(elems_owned);
    ty_column_destroy(needle_owned);
    return rc;
}

/* How elements of type elem are compared with values of type value; the
 * conversions when they are neither numbers, strings nor equal. */
static int arr_bind_compare(exec_call *call, mu_arena *arena, const ty_type *elem,
                            const ty_type *value, arr_search_state *s, mu_err *err) {
    const ty_type *ev = arr_value_type(elem), *xv = arr_value_type(value);
    s->mode = ARR_EQ_ROWS;
    if (ev->kind == TY_NOTHING || xv->kind == TY_NOTHING) return 0; /* only NULLs can match */
    if ((arr_is_native_number(ev) || ev->kind == TY_ENUM8 || ev->kind == TY_ENUM16) &&
        arr_is_native_number(xv)) {
        s->mode = ARR_EQ_NUMBER;
        return 0;
    }
    if (exec_type_is_string(ev) && exec_type_is_string(xv)) {
        s->mode = ARR_EQ_STRING;
        s->strip_padding = !ty_type_equal(ev, xv);
        return 0;
    }
    if (ty_type_equal(ev, xv)) return 0;
    const ty_type *common;
    if (arr_supertype2(ev, xv, arena, &common, err) != 0) {
        char a[128], b[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Types of %s and 2nd argument of function `%s` must be identical up to "
                      "nullability, cardinality, numeric types, or Enum and numeric type. Passed: "
                      "%s and %s.",
                      call->arg_types[0]->kind == TY_MAP ? "map" : "array", call->function->name,
                      ty_type_name(call->arg_types[0], a, sizeof(a)),
                      ty_type_name(value, b, sizeof(b)));
    }
    int rc = 0;
    s->elem_type = s->needle_type = common;
    if (arr_type_nullable(elem)) rc = exec_type_make_nullable(common, arena, &s->elem_type, err);
    if (rc == 0 && arr_type_nullable(value))
        rc = exec_type_make_nullable(common, arena, &s->needle_type, err);
    return rc;
}

static int arr_bind_search(exec_call *call, mu_arena *arena, mu_err *err) {
    arr_search_op op = (arr_search_op)arr_op(call);
    bool map_only = op == ARR_MAP_CONTAINS;
    if (map_only) op = ARR_HAS;
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    const ty_type *a = call->arg_types[0];
    char tn[128];
    ty_type_name(a, tn, sizeof(tn));
    if (map_only && a->kind != TY_MAP)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Function %s requires at least one argument of type Map",
                      call->function->name);
    if (a->kind != TY_ARRAY && !(a->kind == TY_MAP && op == ARR_HAS))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "First argument for function %s must be an %s. Actual %s",
                      call->function->name, op == ARR_HAS ? "array, map or JSON" : "array", tn);
    arr_search_state *s = mu_arena_calloc(arena, 1, sizeof(*s), err);
    if (s == NULL) return err->code;
    s->op = op;
    rc = arr_bind_compare(call, arena, a->child, call->arg_types[1], s, err);
    if (rc != 0) return rc;
    call->state = s;
    call->kernel = arr_search_kernel;
    call->result_type = ty_type_builtin(op == ARR_HAS ? TY_UINT8 : TY_UINT64);
    return 0;
}


/* ------------------------------------------------------------------ */
/* hasAll, hasAny                                                      */
/* ------------------------------------------------------------------ */

typedef struct arr_has_set_state {
    bool all;
    arr_eq_mode mode;
    const ty_type *a_elem, *b_elem; /* conversion targets, or NULL */
} arr_has_set_state;

static int arr_has_set_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    const arr_has_set_state *s = call->state;
    const ty_column *ea, *eb;
    ty_column *owned_a, *owned_b = NULL;
    int rc = arr_convert_column(ty_column_child(args[0].column, 0), s->a_elem, &ea, &owned_a, err);
    if (rc == 0)
        rc = arr_convert_column(ty_column_child(args[1].column, 0), s->b_elem, &eb, &owned_b, err);
    uint8_t *at = NULL;
    if (rc == 0) rc = ty_column_append_fixed_uninit(out, rows, (void **)&at, err);
    for (uint32_t r = 0; rc == 0 && r < rows; r++) {
        uint32_t ba, ea_end, bb, eb_end;
        arr_bounds(&args[0], r, &ba, &ea_end);
        arr_bounds(&args[1], r, &bb, &eb_end);
        /* hasAll: true until an element of b is missing from a; hasAny:
         * false until one is present. */
        bool result = s->all;
        for (uint32_t k = bb; k < eb_end && result == s->all; k++) {
            bool found = false;
            for (uint32_t j = ba; j < ea_end && !found; j++)
                found = arr_equal(s->mode, false, ea, j, eb, k);
            if (found != s->all) result = found;
        }
        at[r] = result;
    }
    ty_column_destroy(owned_a);
    ty_column_destroy(owned_b);
    return rc;
}

static int arr_bind_has_set(exec_call *call, mu_arena *arena, mu_err *err) {
    bool all = arr_op(call) != 0; /* hasAll, else hasAny */
    int rc = exec__check_arg_count(call, 2, 2, err);
    for (uint32_t i = 0; i < 2 && rc == 0; i++)
        rc = exec__arr_check_array(call, i, ARR_MSG_INDEXED, err);
    const ty_type *common;
    if (rc == 0) rc = exec__arr_supertype(call->arg_types, 2, arena, &common, err);
    if (rc != 0) return rc;
    arr_has_set_state *s = mu_arena_calloc(arena, 1, sizeof(*s), err);
    if (s == NULL) return err->code;
    const ty_type *elem = common->child;
    s->all = all;
    s->mode = arr_mode_of(elem);
    s->a_elem = ty_type_equal(call->arg_types[0]->child, elem) ? NULL : elem;
    s->b_elem = ty_type_equal(call->arg_types[1]->child, elem) ? NULL : elem;
    call->state = s;
    call->kernel = arr_has_set_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}


/* ------------------------------------------------------------------ */
/* arrayConcat, arrayPushBack/Front, arrayResize                       */
/* ------------------------------------------------------------------ */

static int arr_concat_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    ty_column *elements = ty_column_child_mut(out, 0);
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t i = 0; i < call->arg_count; i++) {
            uint32_t b, e;
            arr_bounds(&args[i], r, &b, &e);
            int rc =
                exec__arr_convert_rows(elements, ty_column_child(args[i].column, 0), b, e - b, err);
            if (rc != 0) return rc;
        }
        int rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int arr_bind_concat(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s requires at least one argument.",
                      call->function->name);
    for (uint32_t i = 0; i < call->arg_count; i++) {
        int rc = exec__arr_check_array(call, i, ARR_MSG_INDEXED, err);
        if (rc != 0) return rc;
    }
    call->kernel = arr_concat_kernel;
    return exec__arr_supertype(call->arg_types, call->arg_count, arena, &call->result_type, err);
}

static int arr_push_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    bool front = arr_op(call) != 0;
    ty_column *elements = ty_column_child_mut(out, 0);
    const ty_column *src = ty_column_child(args[0].column, 0);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e, v = exec_arg_row(&args[1], r);
        arr_bounds(&args[0], r, &b, &e);
        int rc = front ? exec__arr_convert_rows(elements, args[1].column, v, 1, err) : 0;
        if (rc == 0) rc = exec__arr_convert_rows(elements, src, b, e - b, err);
        if (rc == 0 && !front) rc = exec__arr_convert_rows(elements, args[1].column, v, 1, err);
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* arrayPushBack(arr, x) / arrayPushFront(arr, x): Array(supertype of the
 * element and x); a NULL x makes the elements Nullable. */
static int arr_bind_push(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc == 0) rc = exec__arr_check_array(call, 0, ARR_MSG_FIRST, err);
    const ty_type *elem;
    if (rc == 0)
        rc = arr_supertype2(call->arg_types[0]->child, call->arg_types[1], arena, &elem, err);
    if (rc != 0) return rc;
    call->kernel = arr_push_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, elem, NULL, &call->result_type, err);
}


/* `count` copies of the extender (or of the element type's default). */
static int arr_resize_fill(ty_column *elements, const exec_arg *extender, uint32_t r,
                           uint64_t count, mu_err *err) {
    for (uint64_t i = 0; i < count; i++) {
        int rc = extender ? exec__arr_convert_rows(elements, extender->column,
                                                   exec_arg_row(extender, r), 1, err)
                          : ty_column_append_default(elements, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int arr_resize_row(const exec_arg *args, const exec_arg *extender, uint32_t r,
                          ty_column *elements, mu_err *err) {
    const ty_column *src = ty_column_child(args[0].column, 0);
    uint32_t b, e;
    arr_bounds(&args[0], r, &b, &e);
    uint64_t n = e - b;
    if (exec_type_is_nothing(args[1].column->type) || exec_arg_is_null_row(&args[1], r))
        return exec__arr_convert_rows(elements, src, b, (uint32_t)n, err);
    int64_t size = exec_get_i64(args[1].column, exec_arg_row(&args[1], r));
    uint64_t length = size >= 0 ? (uint64_t)size : 0 - (uint64_t)size;
    if (length > ARR_RESIZE_ELEMENTS_MAX)
        return MU_ERR(err, MU_EARRAY_TOO_LARGE, "Too large array size: %llu, maximum: %llu",
                      (unsigned long long)length, (unsigned long long)ARR_RESIZE_ELEMENTS_MAX);
    if (size >= 0) {
        if (n > length) return exec__arr_convert_rows(elements, src, b, (uint32_t)length, err);
        int rc = exec__arr_convert_rows(elements, src, b, (uint32_t)n, err);
        return rc != 0 ? rc : arr_resize_fill(elements, extender, r, length - n, err);
    }
    if (n > length)
        return exec__arr_convert_rows(elements, src, e - (uint32_t)length, (uint32_t)length, err);
    int rc = arr_resize_fill(elements, extender, r, length - n, err);
    return rc != 0 ? rc : exec__arr_convert_rows(elements, src, b, (uint32_t)n, err);
}

static int arr_resize_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    const exec_arg *extender = call->arg_count == 3 ? &args[2] : NULL;
    ty_column *elements = ty_column_child_mut(out, 0);
    for (uint32_t r = 0; r < rows; r++) {
        int rc = arr_resize_row(args, extender, r, elements, err);
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* Argument i (1-based in the message, as ClickHouse counts after the
 * array) must be an integer, Nullable or NULL. */
static int arr_check_integer_arg(const exec_call *call, uint32_t i, mu_err *err) {
    const ty_type *t = call->arg_types[i];
    const ty_type *v = ty_type_strip_nullable(t);
    if (exec_type_is_integer(v) || v->kind == TY_BOOL || exec_type_is_nothing(t)) return 0;
    char tn[128];
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Argument %u for function %s must be integer but it has "
                  "type %s.", i, call->function->name, ty_type_name(t, tn, sizeof(tn)));
}

/* arrayResize(arr, size[, extender]): a negative size keeps the last
 * elements and pads at the front. */
static int arr_bind_resize(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 3, err);
    if (rc == 0) rc = exec__arr_check_array(call, 0, ARR_MSG_FIRST, err);
    if (rc == 0 && call->arg_types[0]->child->kind == TY_NOTHING)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Function %s cannot resize Array(Nothing)",
                      call->function->name);
    if (rc == 0) rc = arr_check_integer_arg(call, 1, err);
    if (rc != 0) return rc;
    call->kernel = arr_resize_kernel;
    if (call->arg_count == 2) {
        call->result_type = call->arg_types[0];
        return 0;
    }
    const ty_type *elem;
    rc = arr_supertype2(call->arg_types[0]->child, call->arg_types[2], arena, &elem, err);
    if (rc != 0) return rc;
    return exec__arr_type_make(arena, TY_ARRAY, elem, NULL, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* Element subsets: arraySlice, arrayReverse, arrayPop*, arrayCompact,  */
/* arrayDistinct, arraySort, arrayReverseSort                           */
/* ------------------------------------------------------------------ */

/* The [start, start + count) of an n-element array that ClickHouse's
 * arraySlice takes (NULL offset: 1; no or NULL length: the rest). */
static void arr_slice_range(int64_t offset, bool has_length, int64_t length, uint32_t n,
                            uint32_t *start, uint32_t *count) {
    __int128 size = has_length ? (__int128)length : (__int128)n;
    if (size < 0) size += offset > 0 ? (__int128)n - (offset - 1) : -(__int128)offset;
    *start = 0;
    *count = 0;
    if (offset == 0 || size <= 0) return;
    if (!has_length && offset < 0 && -(__int128)offset > n) {
        *count = n; /* unbounded from the right past the start: everything */
        return;
    }
    if (offset > 0) {
        if ((uint64_t)(offset - 1) >= n) return;
        *start = (uint32_t)(offset - 1);
        *count = (uint32_t)MU_MIN(size, (__int128)(n - *start));
        return;
    }
    __int128 back = -(__int128)offset;
    if (back > n) {
        __int128 c = size + n > back ? MU_MIN((__int128)n, size + n - back) : 0;
        *count = (uint32_t)c;
        return;
    }
    *start = (uint32_t)(n - back);
    *count = (uint32_t)MU_MIN(size, back);
}

static bool arr_int_or_null(const exec_arg *a, uint32_t r, int64_t *value) {
    if (exec_type_is_nothing(a->column->type) || exec_arg_is_null_row(a, r)) return false;
    *value = exec_get_i64(a->column, exec_arg_row(a, r));
    return true;
}

static int arr_slice_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    uint32_t total = 0;
    arr_gather g;
    int rc = exec__arr_total_elements(&args[0], rows, &total, err);
    if (rc == 0) rc = arr_gather_init(&g, total, rows, err);
    if (rc != 0) return rc;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e, start, count;
        int64_t offset = 1, length = 0;
        arr_bounds(&args[0], r, &b, &e);
        arr_int_or_null(&args[1], r, &offset);
        bool has_length = call->arg_count == 3 && arr_int_or_null(&args[2], r, &length);
        arr_slice_range(offset, has_length, length, e - b, &start, &count);
        MU_ASSERT((uint64_t)start + count <= e - b);
        for (uint32_t j = 0; j < count; j++) g.index[g.count++] = b + start + j;
        g.lengths[r] = count;
    }
    return arr_gather_finish(&g, out, ty_column_child(args[0].column, 0), rows, err);
}

static int arr_bind_slice(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 3, err);
    if (rc != 0) return rc;
    if (exec_type_is_nothing(call->arg_types[0])) return exec__arr_bind_all_null(call, arena, err);
    rc = exec__arr_check_array(call, 0, ARR_MSG_FIRST, err);
    for (uint32_t i = 1; i < call->arg_count && rc == 0; i++)
        rc = arr_check_integer_arg(call, i, err);
    if (rc != 0) return rc;
    call->kernel = arr_slice_kernel;
    call->result_type = call->arg_types[0];
    return 0;
}

typedef enum arr_subset_op {
    ARR_REVERSE, ARR_POP_BACK, ARR_POP_FRONT, ARR_COMPACT, ARR_DISTINCT, ARR_SORT,
    ARR_REVERSE_SORT
} arr_subset_op;

/* Appends the positions row [b, e) keeps to g (sorting uses tmp). */
static int arr_subset_row(arr_subset_op op, const ty_column *elems, uint32_t b, uint32_t e,
                          arr_gather *g, arr_set *set, uint32_t *tmp, mu_err *err) {
    uint32_t *at = g->index + g->count, n = 0;
    switch (op) {
    case ARR_REVERSE:
        for (uint32_t j = e; j > b; j--) at[n++] = j - 1;
        break;
    case ARR_POP_BACK:
    case ARR_POP_FRONT:
        for (uint32_t j = b + (op == ARR_POP_FRONT); j + (op == ARR_POP_BACK) < e; j++) at[n++] = j;
        break;
    case ARR_COMPACT:
        for (uint32_t j = b; j < e; j++)
            if (j == b || !ty_column_equal_row(elems, j, elems, j - 1)) at[n++] = j;
        break;
    case ARR_DISTINCT: {
        int rc = arr_set_prepare(set, e - b, err);
        if (rc != 0) return rc;
        set->bases = &b;
        for (uint32_t j = b; j < e; j++)
            if (!ty_column_is_null(elems, j) && arr_set_add(set, j - b)) at[n++] = j;
        set->bases = NULL;
        break;
    }
    case ARR_SORT:
    case ARR_REVERSE_SORT:
        for (uint32_t j = b; j < e; j++) at[n++] = j;
        exec__arr_sort(at, tmp, n, elems, op == ARR_REVERSE_SORT);
        break;
    }
    g->count += n;
    return 0;
}

static int arr_subset_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    arr_subset_op op = (arr_subset_op)(uintptr_t)call->state;
    const ty_column *elems = ty_column_child(args[0].column, 0);
    uint32_t total = 0;
    arr_gather g;
    int rc = exec__arr_total_elements(&args[0], rows, &total, err);
    if (rc == 0) rc = arr_gather_init(&g, total, rows, err);
    if (rc != 0) return rc;
    uint32_t *tmp = exec__scratch(total, sizeof(*tmp), err);
    arr_set set = {.columns = &elems, .count = 1};
    if (tmp == NULL) rc = err->code;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        uint32_t b, e, before = g.count;
        arr_bounds(&args[0], r, &b, &e);
        rc = arr_subset_row(op, elems, b, e, &g, &set, tmp, err);
        g.lengths[r] = g.count - before;
        MU_ASSERT(g.count <= total);
    }
    free(tmp);
    free(set.slots);
    if (rc != 0) {
        arr_gather_deinit(&g);
        return rc;
    }
    return arr_gather_finish(&g, out, elems, rows, err);
}

static int arr_bind_subset(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    static const arr_msg messages[] = {
        [ARR_REVERSE] = ARR_MSG_ARGUMENT, [ARR_POP_BACK] = ARR_MSG_FIRST,
        [ARR_POP_FRONT] = ARR_MSG_FIRST,  [ARR_COMPACT] = ARR_MSG_ONLY,
        [ARR_DISTINCT] = ARR_MSG_ARGUMENT, [ARR_SORT] = ARR_MSG_ONLY,
        [ARR_REVERSE_SORT] = ARR_MSG_ONLY,
    };
    arr_subset_op op = (arr_subset_op)arr_op(call);
    int rc = exec__arr_bind_one_array(call, messages[op], err);
    if (rc != 0) return rc;
    call->state = (void *)(uintptr_t)op;
    call->kernel = arr_subset_kernel;
    call->result_type = call->arg_types[0];
    return 0;
}

/* ------------------------------------------------------------------ */
/* arrayUniq, arrayEnumerate, arrayFlatten, emptyArrayToSingle         */
/* ------------------------------------------------------------------ */

static int arr_uniq_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    uint32_t n = call->arg_count;
    const ty_column **columns = calloc(n, sizeof(*columns));
    uint32_t *bases = calloc(n, sizeof(*bases));
    uint64_t *at = NULL;
    int rc = columns && bases ? ty_column_append_fixed_uninit(out, rows, (void **)&at, err)
                              : MU_ERR(err, MU_ENOMEM, "out of memory in arrayUniq");
    arr_set set = {.columns = columns, .bases = bases, .count = n};
    for (uint32_t i = 0; i < n && rc == 0; i++) columns[i] = ty_column_child(args[i].column, 0);
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        uint32_t b0, e0;
        arr_bounds(&args[0], r, &b0, &e0);
        for (uint32_t i = 0; i < n && rc == 0; i++) {
            uint32_t b, e;
            arr_bounds(&args[i], r, &b, &e);
            bases[i] = b;
            if (e - b != e0 - b0)
                rc = MU_ERR(err, MU_EARRAY_SIZES,
                            "Lengths of all arrays passed to %s must be equal.",
                            call->function->name);
        }
        if (rc == 0) rc = arr_set_prepare(&set, e0 - b0, err);
        uint64_t distinct = 0;
        for (uint32_t j = 0; j < e0 - b0 && rc == 0; j++) distinct += arr_set_add(&set, j);
        if (rc == 0) at[r] = distinct;
    }
    free(set.slots);
    free(columns);
    free(bases);
    return rc;
}

static int arr_bind_uniq(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, UINT32_MAX, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->arg_types[i]->kind == TY_ARRAY) continue;
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "All arguments for function %s must be arrays but argument %u has type %s.",
                      call->function->name, i + 1,
                      ty_type_name(call->arg_types[i], tn, sizeof(tn)));
    }
    call->kernel = arr_uniq_kernel;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

static int arr_enumerate_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    (void)call;
    uint32_t total = 0, *lengths = exec__scratch(rows, sizeof(*lengths), err);
    if (lengths == NULL) return err->code;
    uint32_t *values = NULL;
    int rc = exec__arr_total_elements(&args[0], rows, &total, err);
    if (rc == 0) rc = ty_column_append_fixed_uninit(ty_column_child_mut(out, 0), total,
                                                    (void **)&values, err);
    for (uint32_t r = 0, k = 0; r < rows && rc == 0; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        for (uint32_t j = 0; j < e - b; j++) values[k++] = j + 1;
        lengths[r] = e - b;
    }
    if (rc == 0) rc = ty_column_append_nested_raw(out, lengths, rows, err);
    free(lengths);
    return rc;
}

static int arr_bind_enumerate(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__arr_bind_one_array(call, ARR_MSG_FIRST, err);
    if (rc != 0) return rc;
    call->kernel = arr_enumerate_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, ty_type_builtin(TY_UINT32), NULL,
                               &call->result_type, err);
}

static int arr_flatten_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    (void)call;
    ty_column *elements = ty_column_child_mut(out, 0);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        const ty_column *level = ty_column_child(args[0].column, 0);
        while (level->type->kind == TY_ARRAY) {
            const uint32_t *offsets = ty_column_offsets(level);
            b = offsets[b];
            e = offsets[e];
            level = ty_column_child(level, 0);
        }
        int rc = e > b ? ty_column_append_rows_from(elements, level, b, e - b, err) : 0;
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* arrayFlatten(Array(Array(...T))): Array(T) of all the innermost elements. */
static int arr_bind_flatten(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__arr_bind_one_array(call, ARR_MSG_ARGUMENT, err);
    if (rc != 0) return rc;
    const ty_type *inner = call->arg_types[0];
    while (inner->kind == TY_ARRAY) inner = inner->child;
    call->kernel = arr_flatten_kernel;
    return exec__arr_type_make(arena, TY_ARRAY, inner, NULL, &call->result_type, err);
}

static int arr_to_single_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    (void)call;
    ty_column *elements = ty_column_child_mut(out, 0);
    const ty_column *src = ty_column_child(args[0].column, 0);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t b, e;
        arr_bounds(&args[0], r, &b, &e);
        int rc = e > b ? ty_column_append_rows_from(elements, src, b, e - b, err)
                       : ty_column_append_default(elements, err);
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int arr_bind_to_single(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__arr_bind_one_array(call, ARR_MSG_ARGUMENT, err);
    if (rc != 0) return rc;
    if (call->arg_types[0]->child->kind == TY_NOTHING) /* as ClickHouse fails to print [NULL] */
        return MU_ERR(err, MU_ENOT_SUPPORTED, "Serialization is not implemented for data type "
                      "Nothing");
    call->kernel = arr_to_single_kernel;
    call->result_type = call->arg_types[0];
    return 0;
}

/* ------------------------------------------------------------------ */
/* Registry                                                            */
/* ------------------------------------------------------------------ */

ARR_FN(arr_fn_array, "array", ARR_CUSTOM, arr_bind_array, 0);
ARR_FN(arr_fn_map, "map", ARR_CUSTOM, arr_bind_map, 0);
ARR_FN(arr_fn_element, "arrayElement", ARR_CUSTOM, arr_bind_element, 0);
ARR_FN(arr_fn_element_or_null, "arrayElementOrNull", ARR_CUSTOM, arr_bind_element, 1);
ARR_FN(arr_fn_has, "has", ARR_CUSTOM, arr_bind_search, ARR_HAS);
ARR_FN(arr_fn_index_of, "indexOf", ARR_CUSTOM, arr_bind_search, ARR_INDEX_OF);
ARR_FN(arr_fn_count_equal, "countEqual", ARR_CUSTOM, arr_bind_search, ARR_COUNT_EQUAL);
ARR_FN(arr_fn_map_contains, "mapContains", ARR_CUSTOM, arr_bind_search, ARR_MAP_CONTAINS);
ARR_FN(arr_fn_has_all, "hasAll", 0, arr_bind_has_set, 1);
ARR_FN(arr_fn_has_any, "hasAny", 0, arr_bind_has_set, 0);
ARR_FN(arr_fn_concat, "arrayConcat", 0, arr_bind_concat, 0);
ARR_FN(arr_fn_slice, "arraySlice", ARR_CUSTOM, arr_bind_slice, 0);
ARR_FN(arr_fn_reverse, "arrayReverse", 0, arr_bind_subset, ARR_REVERSE);
ARR_FN(arr_fn_sort, "arraySort", 0, arr_bind_subset, ARR_SORT);
ARR_FN(arr_fn_reverse_sort, "arrayReverseSort", 0, arr_bind_subset, ARR_REVERSE_SORT);
ARR_FN(arr_fn_distinct, "arrayDistinct", 0, arr_bind_subset, ARR_DISTINCT);
ARR_FN(arr_fn_compact, "arrayCompact", 0, arr_bind_subset, ARR_COMPACT);
ARR_FN(arr_fn_pop_back, "arrayPopBack", 0, arr_bind_subset, ARR_POP_BACK);
ARR_FN(arr_fn_pop_front, "arrayPopFront", 0, arr_bind_subset, ARR_POP_FRONT);
ARR_FN(arr_fn_uniq, "arrayUniq", 0, arr_bind_uniq, 0);
ARR_FN(arr_fn_enumerate, "arrayEnumerate", 0, arr_bind_enumerate, 0);
ARR_FN(arr_fn_push_back, "arrayPushBack", ARR_CUSTOM, arr_bind_push, 0);
ARR_FN(arr_fn_push_front, "arrayPushFront", ARR_CUSTOM, arr_bind_push, 1);
ARR_FN(arr_fn_resize, "arrayResize", ARR_CUSTOM, arr_bind_resize, 0);
ARR_FN(arr_fn_flatten, "arrayFlatten", 0, arr_bind_flatten, 0);
ARR_FN(arr_fn_flatten_alias, "flatten", 0, arr_bind_flatten, 0);
ARR_FN(arr_fn_to_single, "emptyArrayToSingle", 0, arr_bind_to_single, 0);
ARR_FN(arr_fn_empty_u8, "emptyArrayUInt8", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_u16, "emptyArrayUInt16", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_u32, "emptyArrayUInt32", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_u64, "emptyArrayUInt64", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_i8, "emptyArrayInt8", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_i16, "emptyArrayInt16", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_i32, "emptyArrayInt32", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_i64, "emptyArrayInt64", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_f32, "emptyArrayFloat32", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_f64, "emptyArrayFloat64", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_date, "emptyArrayDate", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_datetime, "emptyArrayDateTime", 0, arr_bind_empty, 0);
ARR_FN(arr_fn_empty_string, "emptyArrayString", 0, arr_bind_empty, 0);

const exec_function *const exec__functions_array[] = {
    &arr_fn_array.fn, &arr_fn_map.fn, &arr_fn_element.fn, &arr_fn_element_or_null.fn,
    &arr_fn_has.fn, &arr_fn_index_of.fn, &arr_fn_count_equal.fn, &arr_fn_map_contains.fn,
    &arr_fn_has_all.fn, &arr_fn_has_any.fn, &arr_fn_concat.fn, &arr_fn_slice.fn,
    &arr_fn_reverse.fn, &arr_fn_sort.fn, &arr_fn_reverse_sort.fn, &arr_fn_distinct.fn,
    &arr_fn_compact.fn, &arr_fn_pop_back.fn, &arr_fn_pop_front.fn, &arr_fn_uniq.fn,
    &arr_fn_enumerate.fn, &arr_fn_push_back.fn, &arr_fn_push_front.fn, &arr_fn_resize.fn,
    &arr_fn_flatten.fn, &arr_fn_flatten_alias.fn, &arr_fn_to_single.fn, &arr_fn_empty_u8.fn,
    &arr_fn_empty_u16.fn, &arr_fn_empty_u32.fn, &arr_fn_empty_u64.fn, &arr_fn_empty_i8.fn,
    &arr_fn_empty_i16.fn, &arr_fn_empty_i32.fn, &arr_fn_empty_i64.fn, &arr_fn_empty_f32.fn,
    &arr_fn_empty_f64.fn, &arr_fn_empty_date.fn, &arr_fn_empty_datetime.fn,
    &arr_fn_empty_string.fn,
    /* fn_array2.c */
    &exec__arr_fn_range.fn, &exec__arr_fn_sum.fn, &exec__arr_fn_avg.fn, &exec__arr_fn_product.fn,
    &exec__arr_fn_min.fn, &exec__arr_fn_max.fn, &exec__arr_fn_cum_sum.fn,
    &exec__arr_fn_cum_sum_non_negative.fn, &exec__arr_fn_difference.fn,
    &exec__arr_fn_string_concat.fn, &exec__arr_fn_map_keys.fn, &exec__arr_fn_map_values.fn,
    &exec__arr_fn_map_concat.fn, NULL,
};
