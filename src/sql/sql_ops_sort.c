/* sql_ops_sort.c: ORDER BY (a full sort of the collected rows, stable so
 * equal keys keep their input order; with a LIMIT only the first rows are
 * emitted) and ARRAY JOIN. ClickHouse's order of special values: with
 * NULLS LAST (the default) values, then NaN, then NULL; with NULLS FIRST
 * NULL, then NaN, then values; DESC reverses only the values.
 */
#include "sql/query_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct op_sort {
    sql_operator base;
    sql_operator *input;
    sql_sort_key *keys;
    uint32_t key_count;
    uint64_t limit;
    ty_column **cols;
    uint32_t rows;
    uint32_t *perm;
    uint32_t pos;
    uint32_t top_n;        /* rows kept by the top-N path (0: full sort) */
    bool built;
} op_sort;

static bool sort_is_nan(const ty_column *c, uint32_t row) {
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_FLOAT64) return isnan(((const double *)(const void *)ty_column_values(c))[row]);
    if (t->kind == TY_FLOAT32) return isnan(((const float *)(const void *)ty_column_values(c))[row]);
    return false;
}

/* 0 = an ordinary value, 1 = NaN, 2 = NULL. */
static int sort_class(const ty_column *c, uint32_t row) {
    if (ty_column_is_null(c, row)) return 2;
    return sort_is_nan(c, row) ? 1 : 0;
}

static int sort_compare(const op_sort *s, uint32_t a, uint32_t b) {
    for (uint32_t k = 0; k < s->key_count; k++) {
        const ty_column *c = s->cols[s->keys[k].column];
        int ca = sort_class(c, a), cb = sort_class(c, b);
        if (ca != cb || ca != 0) {
            if (ca == cb) continue;
            if (s->keys[k].nulls_first) {
                ca = 2 - ca;
                cb = 2 - cb;
            }
            return ca < cb ? -1 : 1;
        }
        int r = ty_column_compare_rows(c, a, c, b);
        if (r != 0) return s->keys[k].desc ? -r : r;
    }
    return a < b ? -1 : a > b;
}

/* Bottom-up merge sort of the permutation (stable, no global state). */
static int sort_permutation(op_sort *s, mu_err *err) {
    uint32_t n = s->rows;
    uint32_t *tmp = malloc((n ? n : 1) * sizeof(*tmp));
    if (tmp == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory sorting %u rows", n);
    uint32_t *src = s->perm, *dst = tmp;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = sort_compare(s, src[i], src[j]) <= 0 ? src[i++] : src[j++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != s->perm) memcpy(s->perm, src, n * sizeof(*src));
    free(tmp);
    return 0;
}

/* Max-heap on sort order (the heap's top is the last row kept). */
static void sort_heap_down(const op_sort *s, uint32_t *heap, uint32_t n, uint32_t i) {
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, big = i;
        if (l < n && sort_compare(s, heap[l], heap[big]) > 0) big = l;
        if (r < n && sort_compare(s, heap[r], heap[big]) > 0) big = r;
        if (big == i) return;
        uint32_t t = heap[i];
        heap[i] = heap[big];
        heap[big] = t;
        i = big;
    }
}

/* perm[0..limit) = the first `limit` rows in order, in O(rows log limit).
 * Ties keep input order because sort_compare breaks them by row index. */
static void sort_top_n(op_sort *s) {
    uint32_t k = (uint32_t)s->limit, n = 0;
    uint32_t *heap = s->perm;
    for (uint32_t row = 0; row < s->rows; row++) {
        if (n < k) {
            heap[n] = row;
            for (uint32_t i = n++; i > 0;) {
                uint32_t parent = (i - 1) / 2;
                if (sort_compare(s, heap[i], heap[parent]) <= 0) break;
                uint32_t t = heap[i];
                heap[i] = heap[parent];
                heap[parent] = t;
                i = parent;
            }
        } else if (sort_compare(s, row, heap[0]) < 0) {
            heap[0] = row;
            sort_heap_down(s, heap, n, 0);
        }
    }
    /* heap sort of the kept rows into ascending order */
    for (uint32_t end = n; end > 1; end--) {
        uint32_t t = heap[0];
        heap[0] = heap[end - 1];
        heap[end - 1] = t;
        sort_heap_down(s, heap, end - 1, 0);
    }
    s->top_n = n;
}

static int op_sort_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_sort *s = (op_sort *)op;
    *out = NULL;
    int rc;
    if (!s->built) {
        rc = sql__op_drain(s->input, &s->cols, &s->rows, err);
        if (rc != 0) return rc;
        s->perm = malloc((s->rows ? s->rows : 1) * sizeof(*s->perm));
        if (s->perm == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory sorting");
        if (s->limit > 0 && s->limit < s->rows / 4) {
            /* Top-N: keep the first `limit` rows in a heap, then sort them. */
            sort_top_n(s);
        } else {
            for (uint32_t i = 0; i < s->rows; i++) s->perm[i] = i;
            rc = sort_permutation(s, err);
            if (rc != 0) return rc;
        }
        s->built = true;
    }
    uint64_t end = s->rows;
    if (s->limit && s->limit < end) end = s->limit;
    if (s->top_n && s->top_n < end) end = s->top_n;
    if (s->pos >= end) return 0;
    uint32_t n = (uint32_t)(end - s->pos);
    if (n > SQL_CHUNK_ROWS) n = SQL_CHUNK_ROWS;
    sql_chunk *c;
    rc = sql__chunk_create(op->column_count, n, &c, err);
    for (uint32_t i = 0; i < op->column_count && rc == 0; i++) {
        ty_column *col;
        rc = ty_column_create(op->types[i], op->q->ctx.tracker, &col, err);
        if (rc == 0) rc = ty_column_append_gather(col, s->cols[i], s->perm + s->pos, n, err);
        if (rc == 0) sql__chunk_set(c, i, col, true);
        else ty_column_destroy(col);
    }
    if (rc != 0) {
        sql__chunk_free(c);
        return rc;
    }
    s->pos += n;
    *out = c;
    return 0;
}

static void op_sort_destroy(sql_operator *op) {
    op_sort *s = (op_sort *)op;
    sql__op_destroy(s->input);
    if (s->cols)
        for (uint32_t i = 0; i < op->column_count; i++) ty_column_destroy(s->cols[i]);
    free(s->cols);
    free(s->perm);
    free(s);
}

static const sql_operator_vt op_sort_vt = {op_sort_next, op_sort_destroy};

uint64_t sql__op_sort_rows(const sql_operator *op) { return ((const op_sort *)op)->rows; }

int sql__op_sort(sql_query *q, sql_operator *input, const sql_sort_key *keys, uint32_t key_count,
                 uint64_t limit, sql_operator **out, mu_err *err) {
    op_sort *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a sort");
    }
    s->input = input;
    s->limit = limit;
    s->key_count = key_count;
    s->keys = mu_arena_calloc(q->arena, key_count ? key_count : 1, sizeof(*keys), err);
    int rc = s->keys ? 0 : err->code;
    if (rc == 0) {
        memcpy(s->keys, keys, key_count * sizeof(*keys));
        rc = sql__op_init(&s->base, q, &op_sort_vt, input->column_count, err);
    }
    if (rc != 0) {
        op_sort_destroy(&s->base);
        return rc;
    }
    for (uint32_t i = 0; i < input->column_count; i++) {
        s->base.types[i] = input->types[i];
        s->base.names[i] = input->names[i];
        s->base.qualifiers[i] = input->qualifiers[i];
        s->base.no_star[i] = input->no_star[i];
    }
    *out = &s->base;
    return 0;
}

/* ---- ARRAY JOIN ------------------------------------------------------------- */

typedef struct op_array_join {
    sql_operator base;
    sql_operator *input;
    uint32_t column;
    bool left;
} op_array_join;

static int op_array_join_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_array_join *a = (op_array_join *)op;
    *out = NULL;
    for (;;) {
        sql_chunk *in = NULL;
        int rc = sql__op_next(a->input, &in, err);
        if (rc != 0 || in == NULL) return rc;
        const ty_column *arr = in->columns[a->column];
        const uint32_t *offs = ty_column_offsets(arr);
        const ty_column *elems = ty_column_child(arr, 0);
        uint64_t total = 0;
        for (uint32_t r = 0; r < in->rows; r++) {
            uint32_t len = offs[r + 1] - offs[r];
            total += len ? len : (a->left ? 1 : 0);
        }
        if (total == 0) {
            sql__chunk_free(in);
            continue;
        }
        if (total > TY_COLUMN_ROWS_MAX) {
            sql__chunk_free(in);
            return MU_ERR(err, MU_ETOO_MANY_ROWS, "ARRAY JOIN of a block gives too many rows");
        }
        uint32_t *rows = malloc(total * sizeof(*rows));
        if (rows == NULL) {
            sql__chunk_free(in);
            return MU_ERR(err, MU_ENOMEM, "out of memory for ARRAY JOIN");
        }
        uint32_t n = 0;
        for (uint32_t r = 0; r < in->rows; r++) {
            uint32_t len = offs[r + 1] - offs[r];
            if (len == 0 && a->left) len = 1;
            for (uint32_t k = 0; k < len; k++) rows[n++] = r;
        }
        sql_chunk *c;
        rc = sql__chunk_create(op->column_count, n, &c, err);
        for (uint32_t i = 0; i < op->column_count && rc == 0; i++) {
            ty_column *col;
            rc = ty_column_create(op->types[i], op->q->ctx.tracker, &col, err);
            if (rc != 0) break;
            if (i != a->column) {
                rc = ty_column_append_gather(col, in->columns[i], rows, n, err);
            } else {
                for (uint32_t r = 0; r < in->rows && rc == 0; r++) {
                    uint32_t len = offs[r + 1] - offs[r];
                    if (len == 0 && a->left) rc = ty_column_append_default(col, err);
                    else if (len > 0) rc = ty_column_append_rows_from(col, elems, offs[r], len, err);
                }
            }
            if (rc == 0) sql__chunk_set(c, i, col, true);
            else ty_column_destroy(col);
        }
        free(rows);
        sql__chunk_free(in);
        if (rc != 0) {
            sql__chunk_free(c);
            return rc;
        }
        *out = c;
        return 0;
    }
}

static void op_array_join_destroy(sql_operator *op) {
    op_array_join *a = (op_array_join *)op;
    sql__op_destroy(a->input);
    free(a);
}

static const sql_operator_vt op_array_join_vt = {op_array_join_next, op_array_join_destroy};

int sql__op_array_join(sql_query *q, sql_operator *input, uint32_t column, bool left, sql_operator **out,
                       mu_err *err) {
    if (input->types[column]->kind != TY_ARRAY) {
        char tn[128];
        int rc = MU_ERR(err, MU_ETYPE, "Argument for function arrayJoin must be Array, got %s",
                        ty_type_name(input->types[column], tn, sizeof(tn)));
        sql__op_destroy(input);
        return rc;
    }
    op_array_join *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory");
    }
    a->input = input;
    a->column = column;
    a->left = left;
    int rc = sql__op_init(&a->base, q, &op_array_join_vt, input->column_count, err);
    if (rc != 0) {
        op_array_join_destroy(&a->base);
        return rc;
    }
    for (uint32_t i = 0; i < input->column_count; i++) {
        a->base.types[i] = i == column ? input->types[i]->child : input->types[i];
        a->base.names[i] = input->names[i];
        a->base.qualifiers[i] = input->qualifiers[i];
        a->base.no_star[i] = input->no_star[i];
    }
    *out = &a->base;
    return 0;
}
