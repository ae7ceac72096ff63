/* sql_keys.c: the row-key hash map behind GROUP BY, DISTINCT, LIMIT BY
 * and hash joins. A key is the byte encoding of a row's values in some
 * columns (equal values give equal bytes: a NULL flag, fixed-width bytes
 * with -0.0 folded to +0.0 and every NaN to one NaN, strings length-
 * prefixed, composites by their quoted text); the map stores each
 * distinct key once and numbers them 0, 1, 2... in insertion order.
 */
#include "sql/sql_keys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int keys_append_value(const ty_column *c, uint32_t row, mu_buf *out, mu_err *err) {
    const ty_type *t = c->type;
    if (t->kind == TY_LOW_CARDINALITY) {
        const uint32_t *idx = (const uint32_t *)(const void *)ty_column_values(c);
        if (c->nullable) {
            uint8_t flag = ty_column_is_null(c, row) ? 1 : 0;
            int rc = mu_buf_append_u8(out, flag, err);
            if (rc != 0 || flag) return rc;
        }
        return keys_append_value(ty_column_child(c, 0), idx[row], out, err);
    }
    if (c->nullable) {
        uint8_t flag = ty_column_is_null(c, row) ? 1 : 0;
        int rc = mu_buf_append_u8(out, flag, err);
        if (rc != 0 || flag) return rc;
        t = t->child;
    }
    switch (t->kind) {
    case TY_STRING: {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(c, row, &n);
        int rc = mu_buf_append_u32le(out, (uint32_t)n, err);
        return rc != 0 ? rc : mu_buf_append(out, p, n, err);
    }
    case TY_FLOAT32: {
        float f = ((const float *)(const void *)ty_column_values(c))[row];
        if (f == 0) f = 0;
        if (isnan(f)) f = NAN;
        return mu_buf_append(out, &f, sizeof(f), err);
    }
    case TY_FLOAT64: {
        double d = ((const double *)(const void *)ty_column_values(c))[row];
        if (d == 0) d = 0;
        if (isnan(d)) d = NAN;
        return mu_buf_append(out, &d, sizeof(d), err);
    }
    case TY_ARRAY:
    case TY_MAP: {
        size_t before = out->length_bytes;
        int rc = mu_buf_append_u32le(out, 0, err);
        if (rc == 0) rc = ty_column_render_text(c, row, TY_RENDER_QUOTED, out, err);
        if (rc == 0)
            mu_store_u32le(out->data + before, (uint32_t)(out->length_bytes - before - 4));
        return rc;
    }
    default: {
        uint32_t w = ty_type_value_bytes(t);
        return mu_buf_append(out, ty_column_values(c) + (size_t)row * w, w, err);
    }
    }
}

int sql__key_encode(const ty_column *const *columns, uint32_t count, uint32_t row, mu_buf *out,
                    mu_err *err) {
    for (uint32_t i = 0; i < count; i++) {
        int rc = keys_append_value(columns[i], row, out, err);
        if (rc != 0) return rc;
    }
    return 0;
}

bool sql__key_has_null(const ty_column *const *columns, uint32_t count, uint32_t row) {
    for (uint32_t i = 0; i < count; i++)
        if (ty_column_is_null(columns[i], row)) return true;
    return false;
}

/* ---- the map ------------------------------------------------------------ */

typedef struct keys_slot {
    uint64_t hash;
    uint32_t index; /* key number + 1; 0 = empty */
} keys_slot;

int sql__keymap_init(sql_keymap *m, mu_err *err) {
    memset(m, 0, sizeof(*m));
    m->capacity = 1024;
    m->slots = calloc(m->capacity, sizeof(keys_slot));
    if (m->slots == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a hash table");
    mu_buf_init(&m->bytes, 0);
    return 0;
}

void sql__keymap_deinit(sql_keymap *m) {
    if (m == NULL) return;
    free(m->slots);
    free(m->offsets);
    mu_buf_deinit(&m->bytes);
    memset(m, 0, sizeof(*m));
}

static bool keys_equal(const sql_keymap *m, uint32_t index, const void *key, size_t bytes) {
    uint64_t start = m->offsets[index], end = m->offsets[index + 1];
    return end - start == bytes && memcmp(m->bytes.data + start, key, bytes) == 0;
}

static int keys_grow(sql_keymap *m, mu_err *err) {
    uint32_t cap = m->capacity * 2;
    keys_slot *slots = calloc(cap, sizeof(*slots));
    if (slots == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory growing a hash table");
    for (uint32_t i = 0; i < m->capacity; i++) {
        keys_slot s = ((keys_slot *)m->slots)[i];
        if (s.index == 0) continue;
        uint32_t at = (uint32_t)(s.hash & (cap - 1));
        while (slots[at].index != 0) at = (at + 1) & (cap - 1);
        slots[at] = s;
    }
    free(m->slots);
    m->slots = slots;
    m->capacity = cap;
    return 0;
}

int sql__keymap_find_or_insert(sql_keymap *m, const void *key, size_t bytes, uint32_t *index_out,
                               bool *inserted_out, mu_err *err) {
    uint64_t h = mu_hash64(key, bytes);
    keys_slot *slots = m->slots;
    uint32_t at = (uint32_t)(h & (m->capacity - 1));
    while (slots[at].index != 0) {
        if (slots[at].hash == h && keys_equal(m, slots[at].index - 1, key, bytes)) {
            *index_out = slots[at].index - 1;
            if (inserted_out) *inserted_out = false;
            return 0;
        }
        at = (at + 1) & (m->capacity - 1);
    }
    if (inserted_out == NULL) { /* lookup only */
        *index_out = UINT32_MAX;
        return 0;
    }
    if (m->count + 1 >= UINT32_MAX - 1)
        return MU_ERR(err, MU_ETOO_MANY_ROWS, "more than %u distinct keys", UINT32_MAX - 2);
    if (m->count + 2 > m->offsets_capacity) {
        uint32_t cap = m->offsets_capacity ? m->offsets_capacity * 2 : 1024;
        uint64_t *grown = realloc(m->offsets, cap * sizeof(*grown));
        if (grown == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for keys");
        m->offsets = grown;
        m->offsets_capacity = cap;
    }
    if (m->count == 0) m->offsets[0] = 0;
    int rc = mu_buf_append(&m->bytes, key, bytes, err);
    if (rc != 0) return rc;
    m->offsets[m->count + 1] = m->bytes.length_bytes;
    slots[at].hash = h;
    slots[at].index = m->count + 1;
    *index_out = m->count++;
    *inserted_out = true;
    if (m->count * 2 > m->capacity) return keys_grow(m, err);
    return 0;
}

int sql__keymap_find(const sql_keymap *m, const void *key, size_t bytes, uint32_t *index_out) {
    return sql__keymap_find_or_insert((sql_keymap *)m, key, bytes, index_out, NULL, NULL);
}
