/* part_sort.c: the stable sort permutation of rows by a sort key, used by
 * the flusher before it writes a part and by merges. Order: the key
 * columns under ty_column_compare_rows, first key first; ties keep their
 * input order (a bottom-up merge sort, which is stable). Speed: the
 * leading key columns (up to SORT_NORM_KEYS_MAX) are first turned into one
 * order-preserving u64 per row when their types allow (integers, dates,
 * floats, LowCardinality by dictionary rank, a String of at most 4096
 * distinct values by the rank of its value, other Strings by an 8-byte
 * prefix, which only decides when prefixes differ), so most comparisons are
 * integer compares; already sorted input is detected in one pass. When
 * every key is exact and their value ranges fit in 64 bits together, the
 * keys are packed into one u64 per row and sorted by a stable LSD radix
 * sort instead.
 */
#include "storage/part/part_int.h"

#include <stdlib.h>
#include <string.h>

#define SORT_RUN_ROWS 16u
#define SORT_NORM_KEYS_MAX 4u
#define SORT_RANK_DISTINCT_MAX 4096u /* distinct Strings ranked exactly (a power of two) */

typedef struct sort_ctx {
    const ty_column *const *columns;
    const uint32_t *keys;
    uint32_t key_count;
    uint32_t norm_count;                     /* leading keys with u64 forms */
    const uint64_t *norm[SORT_NORM_KEYS_MAX];
    bool exact[SORT_NORM_KEYS_MAX];          /* norm equal => key values equal */
} sort_ctx;

static int sort_compare(const sort_ctx *c, uint32_t x, uint32_t y) {
    for (uint32_t k = 0; k < c->key_count; k++) {
        if (k < c->norm_count) {
            uint64_t a = c->norm[k][x], b = c->norm[k][y];
            if (a != b) return a < b ? -1 : 1;
            if (c->exact[k]) continue;
        }
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

/* The first 8 bytes, big-endian, zero padded: a prefix order. */
static uint64_t sort_norm_prefix(const uint8_t *p, size_t bytes) {
    uint64_t v = 0;
    for (size_t i = 0; i < 8; i++) v = (v << 8) | (i < bytes ? p[i] : 0);
    return v;
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

/* Strings of few distinct values (service names, levels, event types:
 * the usual leading keys) get exact ranks: each distinct value is found
 * by hash, the distinct values are sorted, and each row gets its value's
 * rank. False (norm unspecified) when more than SORT_RANK_DISTINCT_MAX
 * distinct values show up, or memory is short: the prefix form then. */
static bool sort_rank_strings(const ty_column *c, uint32_t n, uint64_t *norm) {
    uint32_t cap = 2 * SORT_RANK_DISTINCT_MAX, mask = cap - 1, count = 0;
    uint32_t *slots = calloc(cap, sizeof(uint32_t)); /* a value's id + 1, 0 = empty */
    uint32_t *first = malloc(SORT_RANK_DISTINCT_MAX * sizeof(uint32_t)); /* row, by id */
    bool ok = slots && first;
    for (uint32_t i = 0; ok && i < n; i++) {
        if (ty_column_is_null(c, i)) {
            norm[i] = PART__NORM_NULL;
            continue;
        }
        size_t bytes;
        const uint8_t *data = ty_column_row_bytes(c, i, &bytes);
        uint32_t h = (uint32_t)mu_hash64(data, bytes) & mask;
        for (;; h = (h + 1) & mask) {
            if (slots[h] == 0) {
                if (count == SORT_RANK_DISTINCT_MAX) {
                    ok = false;
                    break;
                }
                first[count] = i;
                norm[i] = count++;
                slots[h] = count;
                break;
            }
            size_t other_bytes;
            const uint8_t *other = ty_column_row_bytes(c, first[slots[h] - 1], &other_bytes);
            if (other_bytes == bytes && (bytes == 0 || memcmp(other, data, bytes) == 0)) {
                norm[i] = slots[h] - 1;
                break;
            }
        }
    }
    uint64_t *rank = NULL;
    if (ok) {
        /* The distinct values in order: the dictionary ranking over the
         * rows that first held them. */
        uint32_t key = 0;
        const ty_column *columns[1] = {c};
        sort_ctx sc = {.columns = columns, .keys = &key, .key_count = 1};
        uint32_t *tmp = malloc(((size_t)count + 1) * sizeof(uint32_t));
        uint32_t *order = malloc(((size_t)count + 1) * sizeof(uint32_t));
        rank = malloc(((size_t)count + 1) * sizeof(uint64_t));
        ok = tmp && order && rank;
        if (ok) {
            for (uint32_t id = 0; id < count; id++) order[id] = first[id];
            sort_merge(&sc, order, tmp, count);
            /* order[r] is the first row of the r-th smallest value; that
             * row's norm still holds its id. */
            for (uint32_t r = 0; r < count; r++) rank[norm[order[r]]] = r;
            for (uint32_t i = 0; i < n; i++)
                if (norm[i] != PART__NORM_NULL) norm[i] = rank[norm[i]];
        }
        free(tmp);
        free(order);
    }
    free(rank);
    free(slots);
    free(first);
    return ok;
}

/* Fills norm[0..n) for column c if its type allows; *usable tells. */
static int sort_normalize(const ty_column *c, uint32_t n, uint64_t *norm, bool *usable,
                          bool *exact, mu_err *err) {
    const ty_type *v = ty_type_strip_nullable(c->type);
    char cls = part__norm_class(v, c->nullable);
    *usable = true;
    *exact = v->kind != TY_STRING && v->kind != TY_FIXED_STRING;
    if (v->kind == TY_LOW_CARDINALITY) {
        uint64_t *rank = NULL;
        int rc = sort_rank_dictionary(ty_column_child(c, 0), &rank, err);
        if (rc != 0) return rc;
        const uint8_t *indices = ty_column_values(c);
        for (uint32_t i = 0; i < n; i++)
            norm[i] = ty_column_is_null(c, i) ? PART__NORM_NULL
                                              : rank[mu_load_u32le(indices + (size_t)i * 4)];
        free(rank);
    } else if (!*exact && v->kind == TY_STRING && sort_rank_strings(c, n, norm)) {
        *exact = true;
    } else if (!*exact) {
        for (uint32_t i = 0; i < n; i++) {
            size_t bytes;
            const uint8_t *data = ty_column_row_bytes(c, i, &bytes);
            norm[i] = ty_column_is_null(c, i) ? PART__NORM_NULL : sort_norm_prefix(data, bytes);
        }
    } else if (cls != 0) {
        size_t width = ty_type_value_bytes(v);
        const uint8_t *values = ty_column_values(c);
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *value = values + (size_t)i * width;
            norm[i] = ty_column_is_null(c, i) ? PART__NORM_NULL
                                              : part__norm_fixed(cls, v, value, width);
        }
    } else {
        *usable = false;
    }
    return 0;
}

/* Key columns 1.. of two rows (the first key compared equal). */
static int sort_compare_rest(const ty_column *const *columns, const uint32_t *keys,
                             uint32_t key_count, uint32_t x, uint32_t y) {
    for (uint32_t k = 1; k < key_count; k++) {
        const ty_column *column = columns[keys[k]];
        int r = ty_column_compare_rows(column, x, column, y);
        if (r != 0) return r;
    }
    return 0;
}

uint32_t part__first_unsorted(const ty_column *const *columns, const uint32_t *keys,
                              uint32_t key_count, uint32_t from, uint32_t count) {
    if (key_count == 0 || count < 2) return UINT32_MAX;
    const ty_column *first = columns[keys[0]];
    const ty_type *v = ty_type_strip_nullable(first->type);
    char cls = part__norm_class(v, first->nullable);
    if (cls == 0) {
        sort_ctx c = {.columns = columns, .keys = keys, .key_count = key_count};
        for (uint32_t row = from + 1; row < from + count; row++) {
            if (sort_compare(&c, row - 1, row) > 0) return row;
        }
        return UINT32_MAX;
    }
    /* The first key as u64s, one pass, no call per row. */
    size_t width = ty_type_value_bytes(v);
    const uint8_t *values = ty_column_values(first);
    uint64_t previous = ty_column_is_null(first, from)
                            ? PART__NORM_NULL
                            : part__norm_fixed(cls, v, values + (size_t)from * width, width);
    for (uint32_t row = from + 1; row < from + count; row++) {
        uint64_t current = ty_column_is_null(first, row)
                               ? PART__NORM_NULL
                               : part__norm_fixed(cls, v, values + (size_t)row * width, width);
        if (current < previous) return row;
        if (current == previous && key_count > 1 &&
            sort_compare_rest(columns, keys, key_count, row - 1, row) > 0)
            return row;
        previous = current;
    }
    return UINT32_MAX;
}

static bool sort_is_sorted(const sort_ctx *c, uint32_t n) {
    for (uint32_t i = 1; i < n; i++) {
        if (sort_compare(c, i - 1, i) > 0) return false;
    }
    return true;
}

/* Normalizes leading key columns while their types allow, into norm
 * (SORT_NORM_KEYS_MAX arrays of row_count entries). */
static int sort_normalize_keys(sort_ctx *c, uint32_t row_count, uint64_t *norm, mu_err *err) {
    uint32_t limit = MU_MIN(c->key_count, SORT_NORM_KEYS_MAX);
    for (uint32_t k = 0; k < limit; k++) {
        uint64_t *out = norm + (size_t)k * row_count;
        bool usable = false, exact = false;
        int rc = sort_normalize(c->columns[c->keys[k]], row_count, out, &usable, &exact, err);
        if (rc != 0) return rc;
        if (!usable) break;
        c->norm[k] = out;
        c->exact[k] = exact;
        c->norm_count = k + 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Radix path: every key exact and their ranges packed into 64 bits     */
/* ------------------------------------------------------------------ */

static unsigned sort_bits(uint64_t range) {
    unsigned bits = 0;
    while (bits < 64 && (range >> bits) != 0) bits++;
    return bits;
}

/* When every key has an exact u64 form and the keys' value ranges fit in
 * 64 bits together, builds one composite u64 per row (first key in the
 * high bits) into keys_out and returns its width in bits; 0 otherwise. */
static unsigned sort_pack(const sort_ctx *c, uint32_t n, uint64_t *keys_out) {
    if (c->norm_count != c->key_count) return 0;
    uint64_t min[SORT_NORM_KEYS_MAX];
    unsigned bits[SORT_NORM_KEYS_MAX], total = 0;
    for (uint32_t k = 0; k < c->key_count; k++) {
        if (!c->exact[k]) return 0;
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t v = c->norm[k][i];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        min[k] = lo;
        bits[k] = sort_bits(hi - lo);
        total += bits[k];
        if (total > 64) return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t key = 0;
        for (uint32_t k = 0; k < c->key_count; k++) {
            /* bits[k] may be 64 only when it is the one key */
            key = bits[k] == 64 ? c->norm[k][i] - min[k]
                                : (key << bits[k]) | (c->norm[k][i] - min[k]);
        }
        keys_out[i] = key;
    }
    return total == 0 ? 1 : total;
}

/* Stable LSD radix sort of perm by keys (11-bit digits over `bits`). */
static int sort_radix(const uint64_t *keys, unsigned bits, uint32_t *perm, uint32_t n,
                      mu_err *err) {
    uint64_t *k0 = malloc((size_t)n * sizeof(uint64_t)), *k1 = malloc((size_t)n * sizeof(uint64_t));
    uint32_t *p1 = malloc((size_t)n * sizeof(uint32_t));
    uint32_t *count = calloc(2048, sizeof(uint32_t));
    if (k0 == NULL || k1 == NULL || p1 == NULL || count == NULL) {
        free(k0);
        free(k1);
        free(p1);
        free(count);
        return MU_ERR(err, MU_ENOMEM, "sort of %u rows: out of memory", n);
    }
    for (uint32_t i = 0; i < n; i++) k0[i] = keys[perm[i]];
    uint64_t *ks = k0, *kd = k1;
    uint32_t *ps = perm, *pd = p1;
    for (unsigned shift = 0; shift < bits; shift += 11) {
        memset(count, 0, 2048 * sizeof(uint32_t));
        for (uint32_t i = 0; i < n; i++) count[(ks[i] >> shift) & 2047]++;
        if (count[(ks[0] >> shift) & 2047] == n) continue; /* one digit value: nothing moves */
        uint32_t sum = 0;
        for (uint32_t d = 0; d < 2048; d++) {
            uint32_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t at = count[(ks[i] >> shift) & 2047]++;
            kd[at] = ks[i];
            pd[at] = ps[i];
        }
        uint64_t *kt = ks;
        ks = kd;
        kd = kt;
        uint32_t *pt = ps;
        ps = pd;
        pd = pt;
    }
    if (ps != perm) memcpy(perm, ps, (size_t)n * sizeof(uint32_t));
    free(k0);
    free(k1);
    free(p1);
    free(count);
    return 0;
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
    size_t norm_keys = MU_MIN(key_count, SORT_NORM_KEYS_MAX);
    uint64_t *norm = malloc(norm_keys * row_count * sizeof(uint64_t));
    uint32_t *tmp = malloc((size_t)row_count * sizeof(uint32_t));
    int rc = norm && tmp ? 0 : MU_ERR(err, MU_ENOMEM, "sort of %u rows: out of memory", row_count);
    if (rc == 0) rc = sort_normalize_keys(&c, row_count, norm, err);
    if (rc == 0 && !sort_is_sorted(&c, row_count)) {
        /* Speed: an O(n) radix sort when the whole key packs into 64 bits
         * (the usual (low-cardinality, time) keys), else the merge sort. */
        uint64_t *packed = malloc((size_t)row_count * sizeof(uint64_t));
        unsigned bits = packed ? sort_pack(&c, row_count, packed) : 0;
        if (bits > 0) rc = sort_radix(packed, bits, perm_out, row_count, err);
        else sort_merge(&c, perm_out, tmp, row_count);
        free(packed);
    }
    MU_DEBUG_ASSERT(rc != 0 || sort_compare(&c, perm_out[0], perm_out[1]) <= 0);
    free(norm);
    free(tmp);
    return rc;
}
