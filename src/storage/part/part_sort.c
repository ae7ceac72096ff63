/* part_sort.c: the stable sort permutation of rows by a sort key, used by
 * the flusher before it writes a part and by merges. Order: the key
 * columns under ty_column_compare_rows, first key first; ties keep their
 * input order (a bottom-up merge sort, which is stable). Speed: the first
 * key column is first turned into one order-preserving u64 per row when
 * its type allows (integers, dates, floats, LowCardinality by dictionary
 * rank, String by an 8-byte prefix), so most comparisons are one integer
 * compare; already sorted input is detected in one pass.
 */
#include "storage/part/part_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SORT_RUN_ROWS 16u
#define SORT_NULL_NORM UINT64_MAX

typedef struct sort_ctx {
    const ty_column *const *columns;
    const uint32_t *keys;
    uint32_t key_count;
    const uint64_t *norm;  /* normalized first key, or NULL */
    bool exact;            /* norm equal => first key equal */
} sort_ctx;

static int sort_compare(const sort_ctx *c, uint32_t x, uint32_t y) {
    uint32_t k = 0;
    if (c->norm != NULL) {
        if (c->norm[x] != c->norm[y]) return c->norm[x] < c->norm[y] ? -1 : 1;
        k = c->exact ? 1 : 0;
    }
    for (; k < c->key_count; k++) {
        const ty_column *column = c->columns[c->keys[k]];
        int r = ty_column_compare_rows(column, x, column, y);
        if (r != 0) return r;
    }
    return 0;
}

static void sort_insertion(const sort_ctx *c, uint32_t *a, uint32_t n) {
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = a[i], j = i;
        while (j > 0 && sort_compare(c, a[j - 1], v) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* Merges src[lo, mid) and src[mid, hi) into dst; left wins ties. */
static void sort_merge_runs(const sort_ctx *c, const uint32_t *src, uint32_t *dst, uint32_t lo,
                            uint32_t mid, uint32_t hi) {
    if (mid >= hi || sort_compare(c, src[mid - 1], src[mid]) <= 0) {
        memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof(uint32_t));
        return;
    }
    uint32_t i = lo, j = mid, o = lo;
    while (i < mid && j < hi) dst[o++] = sort_compare(c, src[j], src[i]) < 0 ? src[j++] : src[i++];
    while (i < mid) dst[o++] = src[i++];
    while (j < hi) dst[o++] = src[j++];
}

/* Sorts a[0..n) stably; tmp holds n entries. */
static void sort_merge(const sort_ctx *c, uint32_t *a, uint32_t *tmp, uint32_t n) {
    for (uint32_t start = 0; start < n; start += SORT_RUN_ROWS)
        sort_insertion(c, a + start, MU_MIN(SORT_RUN_ROWS, n - start));
    uint32_t *src = a, *dst = tmp;
    for (uint64_t width = SORT_RUN_ROWS; width < n; width *= 2) {
        for (uint64_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = (uint32_t)MU_MIN(lo + width, (uint64_t)n);
            uint32_t hi = (uint32_t)MU_MIN(lo + 2 * width, (uint64_t)n);
            sort_merge_runs(c, src, dst, (uint32_t)lo, mid, hi);
        }
        uint32_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != a) memcpy(a, src, (size_t)n * sizeof(uint32_t));
}

/* ------------------------------------------------------------------ */
/* Normalized first key                                                */
/* ------------------------------------------------------------------ */

static uint64_t sort_norm_double(double x) {
    if (isnan(x)) return SORT_NULL_NORM - 1; /* after +inf, before NULL */
    if (x == 0) x = 0; /* -0 == +0 */
    uint64_t bits;
    memcpy(&bits, &x, 8);
    return (bits >> 63) ? ~bits : bits | ((uint64_t)1 << 63);
}

static uint64_t sort_norm_signed(const uint8_t *p, size_t width) {
    int64_t v = width == 1   ? (int8_t)p[0]
                : width == 2 ? (int16_t)mu_load_u16le(p)
                : width == 4 ? (int32_t)mu_load_u32le(p)
                             : (int64_t)mu_load_u64le(p);
    return (uint64_t)v ^ ((uint64_t)1 << 63);
}

static uint64_t sort_norm_unsigned(const uint8_t *p, size_t width) {
    return width == 1 ? p[0] : width == 2 ? mu_load_u16le(p)
                             : width == 4 ? mu_load_u32le(p) : mu_load_u64le(p);
}

/* The first 8 bytes, big-endian, zero padded: a prefix order. */
static uint64_t sort_norm_prefix(const uint8_t *p, size_t bytes) {
    uint64_t v = 0;
    for (size_t i = 0; i < 8; i++) v = (v << 8) | (i < bytes ? p[i] : 0);
    return v;
}

/* How a fixed-width kind normalizes: 'u' unsigned, 's' signed, 'f' float,
 * 0 not at all. 8-byte integers leave no room for NULL. */
static char sort_norm_class(const ty_type *v, bool nullable) {
    size_t width = ty_type_value_bytes(v);
    switch (v->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64: case TY_BOOL: case TY_DATE:
    case TY_DATETIME:
        return width < 8 || !nullable ? 'u' : 0;
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64: case TY_DATE32:
    case TY_DATETIME64: case TY_ENUM8: case TY_ENUM16:
        return width < 8 || !nullable ? 's' : 0;
    case TY_DECIMAL:
        return width < 8 || (width == 8 && !nullable) ? 's' : 0;
    case TY_FLOAT32: case TY_FLOAT64:
        return 'f';
    default:
        return 0;
    }
}

static uint64_t sort_norm_fixed(char cls, const ty_type *v, const uint8_t *p, size_t width) {
    if (cls == 'u') return sort_norm_unsigned(p, width);
    if (cls == 's') return sort_norm_signed(p, width);
    if (v->kind == TY_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        return sort_norm_double(f);
    }
    double d;
    memcpy(&d, p, 8);
    return sort_norm_double(d);
}

/* Ranks of a dictionary's entries (equal values share a rank). */
static int sort_rank_dictionary(const ty_column *dictionary, uint64_t **rank_out, mu_err *err) {
    uint32_t n = ty_column_row_count(dictionary), key = 0;
    uint32_t *order = malloc(((size_t)n + 1) * sizeof(uint32_t));
    uint32_t *tmp = malloc(((size_t)n + 1) * sizeof(uint32_t));
    uint64_t *rank = malloc(((size_t)n + 1) * sizeof(uint64_t));
    if (order == NULL || tmp == NULL || rank == NULL) {
        free(order);
        free(tmp);
        free(rank);
        return MU_ERR(err, MU_ENOMEM, "sort: out of memory");
    }
    sort_ctx c = {.columns = &dictionary, .keys = &key, .key_count = 1};
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    sort_merge(&c, order, tmp, n);
    uint64_t r = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && sort_compare(&c, order[i - 1], order[i]) != 0) r++;
        rank[order[i]] = r;
    }
    free(order);
    free(tmp);
    *rank_out = rank;
    return 0;
}

/* Fills norm[0..n) for column c if its type allows; *usable tells. */
static int sort_normalize(const ty_column *c, uint32_t n, uint64_t *norm, bool *usable,
                          bool *exact, mu_err *err) {
    const ty_type *v = ty_type_strip_nullable(c->type);
    char cls = sort_norm_class(v, c->nullable);
    *usable = true;
    *exact = v->kind != TY_STRING && v->kind != TY_FIXED_STRING;
    if (v->kind == TY_LOW_CARDINALITY) {
        uint64_t *rank = NULL;
        int rc = sort_rank_dictionary(ty_column_child(c, 0), &rank, err);
        if (rc != 0) return rc;
        const uint8_t *indices = ty_column_values(c);
        for (uint32_t i = 0; i < n; i++)
            norm[i] = ty_column_is_null(c, i) ? SORT_NULL_NORM
                                              : rank[mu_load_u32le(indices + (size_t)i * 4)];
        free(rank);
    } else if (!*exact) {
        for (uint32_t i = 0; i < n; i++) {
            size_t bytes;
            const uint8_t *data = ty_column_row_bytes(c, i, &bytes);
            norm[i] = ty_column_is_null(c, i) ? SORT_NULL_NORM : sort_norm_prefix(data, bytes);
        }
    } else if (cls != 0) {
        size_t width = ty_type_value_bytes(v);
        const uint8_t *values = ty_column_values(c);
        for (uint32_t i = 0; i < n; i++)
            norm[i] = ty_column_is_null(c, i) ? SORT_NULL_NORM
                                              : sort_norm_fixed(cls, v, values + i * width, width);
    } else {
        *usable = false;
    }
    return 0;
}

static bool sort_is_sorted(const sort_ctx *c, uint32_t n) {
    for (uint32_t i = 1; i < n; i++) {
        if (sort_compare(c, i - 1, i) > 0) return false;
    }
    return true;
}

int part_sort_permutation(const ty_column *const *columns, const uint32_t *key_column_indexes,
                          uint32_t key_count, uint32_t row_count, uint32_t *perm_out,
                          mu_err *err) {
    MU_ASSERT(perm_out != NULL && (key_count == 0 || (columns && key_column_indexes)));
    for (uint32_t k = 0; k < key_count; k++)
        MU_ASSERT(ty_column_row_count(columns[key_column_indexes[k]]) >= row_count);
    for (uint32_t i = 0; i < row_count; i++) perm_out[i] = i;
    sort_ctx c = {.columns = columns, .keys = key_column_indexes, .key_count = key_count};
    if (row_count < 2 || key_count == 0) return 0;
    uint64_t *norm = malloc((size_t)row_count * sizeof(uint64_t));
    uint32_t *tmp = malloc((size_t)row_count * sizeof(uint32_t));
    bool usable = false, exact = false;
    int rc = norm && tmp ? 0 : MU_ERR(err, MU_ENOMEM, "sort of %u rows: out of memory", row_count);
    if (rc == 0)
        rc = sort_normalize(columns[key_column_indexes[0]], row_count, norm, &usable, &exact, err);
    if (rc == 0) {
        c.norm = usable ? norm : NULL;
        c.exact = exact;
        if (!sort_is_sorted(&c, row_count)) sort_merge(&c, perm_out, tmp, row_count);
    }
    MU_DEBUG_ASSERT(rc != 0 || sort_compare(&c, perm_out[0], perm_out[1]) <= 0);
    free(norm);
    free(tmp);
    return rc;
}
