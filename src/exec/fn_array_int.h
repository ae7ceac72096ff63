/* fn_array_int.h: what the array and map functions share between
 * fn_array.c (constructors, access, search, reshaping, sets), fn_array2.c
 * (range, aggregates over elements, running sums, string joins, map
 * functions) and lambda.c (the higher-order forms): the registered-function
 * wrapper that carries a variant, reading helpers, ClickHouse-worded
 * argument errors, supertype conversion and element ordering. Only these
 * three files include it; everything registered is listed in
 * exec__functions_array (fn_array.c) or exec__functions_lambda.
 */
#ifndef MUSCLES_EXEC_FN_ARRAY_INT_H
#define MUSCLES_EXEC_FN_ARRAY_INT_H

#include "exec/exec_int.h"

#include <string.h>

/* A registered function and the variant its (shared) bind serves. */
typedef struct arr_function {
    exec_function fn; /* first: the registry lists &fn */
    unsigned op;
} arr_function;

#define ARR_FN(var, fname, fflags, fbind, fop) \
    static const arr_function var = {{.name = fname, .flags = (fflags), .bind = fbind}, fop}
/* A function defined in one file and listed by another (declared below). */
#define ARR_FN_SHARED(var, fname, fflags, fbind, fop) \
    const arr_function var = {{.name = fname, .flags = (fflags), .bind = fbind}, fop}

#define ARR_CUSTOM EXEC_FN_NULLS_CUSTOM

static inline unsigned arr_op(const exec_call *call) {
    return ((const arr_function *)(const void *)call->function)->op;
}

/* ------------------------------------------------------------------ */
/* Types and values                                                    */
/* ------------------------------------------------------------------ */

/* The type of the values: without LowCardinality and Nullable. */
static inline const ty_type *arr_value_type(const ty_type *t) {
    if (t->kind == TY_LOW_CARDINALITY) t = t->child;
    return ty_type_strip_nullable(t);
}

static inline bool arr_type_nullable(const ty_type *t) {
    if (t->kind == TY_LOW_CARDINALITY) t = t->child;
    return t->kind == TY_NULLABLE;
}

/* A result never is LowCardinality: LowCardinality(T) reads as T. */
static inline const ty_type *arr_strip_lc(const ty_type *t) {
    return t->kind == TY_LOW_CARDINALITY ? t->child : t;
}

/* The column and row that hold a row's value (LowCardinality rows live in
 * the dictionary). */
static inline const ty_column *arr_resolve(const ty_column *c, uint32_t *row) {
    if (c->type->kind != TY_LOW_CARDINALITY) return c;
    const uint32_t *indices = (const uint32_t *)(const void *)ty_column_values(c);
    *row = indices[*row];
    return ty_column_child(c, 0);
}

/* The element range [begin, end) of row r of an Array or Map argument. */
static inline void arr_bounds(const exec_arg *a, uint32_t r, uint32_t *begin, uint32_t *end) {
    const uint32_t *offsets = ty_column_offsets(a->column);
    uint32_t row = exec_arg_row(a, r);
    *begin = offsets[row];
    *end = offsets[row + 1];
}

/* Decimal storage: i32 / i64 / i128 by precision, little-endian. */
static inline unsigned arr_decimal_width(uint8_t precision) {
    return precision <= 9 ? 4 : precision <= 18 ? 8 : 16;
}

static inline __int128 arr_decimal_load(const uint8_t *p, uint8_t precision) {
    unsigned __int128 v = 0;
    unsigned shift = 128 - 8 * arr_decimal_width(precision);
    memcpy(&v, p, arr_decimal_width(precision));
    return (__int128)(v << shift) >> shift; /* sign-extended */
}

static inline void arr_decimal_store(uint8_t *p, uint8_t precision, __int128 v) {
    memcpy(p, &v, arr_decimal_width(precision)); /* the low bytes */
}

static inline const uint8_t *arr_fixed_ptr(const ty_column *c, uint32_t row) {
    size_t bytes;
    return ty_column_row_bytes(c, row, &bytes);
}

/* A new Array (child2 NULL) or Map type in arena. */
int exec__arr_type_make(mu_arena *arena, ty_kind kind, const ty_type *child,
                        const ty_type *child2, const ty_type **out, mu_err *err);
/* exec_type_supertype, except that a plain Nothing (the element type of
 * []) adds nothing, and arrays by element: [[], [1]] is Array(Array(UInt8)). */
int exec__arr_supertype(const ty_type *const *types, uint32_t count, mu_arena *arena,
                        const ty_type **out, mu_err *err);
/* Appends rows [from, from + count) of src to dst, converted to dst's type
 * (a supertype of src's, element-wise for Array and Map). */
int exec__arr_convert_rows(ty_column *dst, const ty_column *src, uint32_t from, uint32_t count,
                           mu_err *err);
/* Elements an array argument holds over `rows` rows (a constant counts once
 * per row), bounded by what one column can hold (MU_ETOO_LARGE). */
int exec__arr_total_elements(const exec_arg *a, uint32_t rows, uint32_t *out, mu_err *err);

/* ------------------------------------------------------------------ */
/* Argument errors in ClickHouse's wording                             */
/* ------------------------------------------------------------------ */

/* Each family of ClickHouse array functions words "not an array" its own way. */
typedef enum arr_msg {
    ARR_MSG_FIRST,    /* arrayPushBack, arrayPopBack, arrayResize, arrayEnumerate, ... */
    ARR_MSG_ONLY,     /* FunctionArrayMapped: arraySort, arraySum, arrayCompact, ... */
    ARR_MSG_ARGUMENT, /* arrayDistinct, arrayReverse, arrayFlatten */
    ARR_MSG_INDEXED,  /* arrayConcat, hasAll, hasAny: the 0-based argument number */
} arr_msg;

int exec__arr_error_not_array(const exec_call *call, uint32_t index, arr_msg msg, mu_err *err);
int exec__arr_check_array(const exec_call *call, uint32_t index, arr_msg msg, mu_err *err);
/* Binds a one-array function: exactly one argument, an Array. With
 * ARR_MSG_ONLY (ClickHouse's FunctionArrayMapped) other argument counts
 * are worded as its lambda forms word them. */
int exec__arr_bind_one_array(exec_call *call, arr_msg msg, mu_err *err);
/* Every row NULL: a call on a NULL literal whose result is Nullable(Nothing). */
int exec__arr_bind_all_null(exec_call *call, mu_arena *arena, mu_err *err);

/* ------------------------------------------------------------------ */
/* Order of elements                                                   */
/* ------------------------------------------------------------------ */

/* 0 for a number or other value, 1 for NaN, 2 for NULL. */
int exec__arr_special_rank(const ty_column *c, uint32_t row);
/* Stable sort of the n positions v (rows of c) by c's values: ascending
 * with NaN then NULL last, or descending with NaN and NULL still last
 * (arraySort, arrayReverseSort). tmp holds n scratch entries. */
void exec__arr_sort(uint32_t *v, uint32_t *tmp, uint32_t n, const ty_column *c,
                    bool descending);

/* ------------------------------------------------------------------ */
/* Functions of fn_array2.c listed in exec__functions_array            */
/* ------------------------------------------------------------------ */

extern const arr_function exec__arr_fn_range, exec__arr_fn_sum, exec__arr_fn_avg,
    exec__arr_fn_product, exec__arr_fn_min, exec__arr_fn_max, exec__arr_fn_cum_sum,
    exec__arr_fn_cum_sum_non_negative, exec__arr_fn_difference, exec__arr_fn_string_concat,
    exec__arr_fn_map_keys, exec__arr_fn_map_values, exec__arr_fn_map_concat;

#endif /* MUSCLES_EXEC_FN_ARRAY_INT_H */
