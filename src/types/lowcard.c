/* lowcard.c: the hash index of a LowCardinality column's dictionary, which
 * keeps each dictionary value once: value bytes -> dictionary position.
 * Open addressing with linear probing over a power-of-two slot array
 * holding position + 1 (0 = empty), at most half full. The index is
 * derived data: ty__lc_index_rebuild recreates it from the dictionary
 * (after decoding); a dictionary with duplicate entries (possible only in
 * decoded input) keeps working, new lookups find the first copy.
 */
#include "types/types_int.h"

#include <stdlib.h>
#include <string.h>

#define LC_SLOTS_MIN 16u

struct ty__lc_index {
    uint32_t *slots;
    uint32_t capacity; /* power of two */
    uint32_t count;
};

int ty__lc_index_create(ty_column *column, mu_err *err) {
    MU_ASSERT(column->lc_index == NULL);
    column->lc_index = calloc(1, sizeof(*column->lc_index));
    if (column->lc_index == NULL) return MU_ERR(err, MU_ENOMEM, "column: out of memory");
    return 0;
}

static void lc_slots_free(ty_column *column) {
    struct ty__lc_index *x = column->lc_index;
    if (column->tracker != NULL && x->capacity > 0)
        mu_mem_tracker_release(column->tracker, (size_t)x->capacity * sizeof(uint32_t));
    free(x->slots);
    x->slots = NULL;
    x->capacity = 0;
    x->count = 0;
}

void ty__lc_index_destroy(ty_column *column) {
    if (column->lc_index == NULL) return;
    lc_slots_free(column);
    free(column->lc_index);
    column->lc_index = NULL;
}

static uint64_t lc_hash_row(const ty_column *dictionary, uint32_t row) {
    size_t bytes;
    const uint8_t *data = ty_column_row_bytes(dictionary, row, &bytes);
    return mu_hash64(data, bytes);
}

/* Slot of the entry equal to data, or of the empty slot where it belongs. */
static uint32_t lc_probe(const ty_column *column, const void *data, size_t bytes,
                         uint64_t hash) {
    const struct ty__lc_index *x = column->lc_index;
    uint32_t mask = x->capacity - 1, slot = (uint32_t)hash & mask;
    for (uint32_t step = 0; step < x->capacity; step++) {
        uint32_t entry = x->slots[slot];
        if (entry == 0) return slot;
        size_t entry_bytes;
        const uint8_t *entry_data = ty_column_row_bytes(column->children[0], entry - 1,
                                                        &entry_bytes);
        if (entry_bytes == bytes && (bytes == 0 || memcmp(entry_data, data, bytes) == 0))
            return slot;
        slot = (slot + 1) & mask;
    }
    MU_ASSERT(!"lowcardinality index full"); /* kept at most half full */
    return 0;
}

/* Inserts every dictionary row into the (empty) slots; a duplicate value
 * keeps its first position. */
static void lc_fill(ty_column *column) {
    struct ty__lc_index *x = column->lc_index;
    const ty_column *dictionary = column->children[0];
    for (uint32_t row = 0; row < dictionary->row_count; row++) {
        size_t n;
        const uint8_t *data = ty_column_row_bytes(dictionary, row, &n);
        uint32_t slot = lc_probe(column, data, n, lc_hash_row(dictionary, row));
        if (x->slots[slot] == 0) {
            x->slots[slot] = row + 1;
            x->count++;
        }
    }
    MU_ASSERT(x->count * 2 <= x->capacity);
}

/* New slots for `entries` values at load <= 1/2, refilled from the
 * dictionary (entries >= its row count). */
static int lc_resize(ty_column *column, uint32_t entries, mu_err *err) {
    uint32_t capacity = LC_SLOTS_MIN;
    while (capacity / 2 < entries) {
        if (capacity >= (1u << 31)) return MU_ERR(err, MU_ETOO_LARGE, "dictionary too large");
        capacity *= 2;
    }
    size_t bytes = (size_t)capacity * sizeof(uint32_t);
    if (column->tracker != NULL) {
        int rc = mu_mem_tracker_charge(column->tracker, bytes, err);
        if (rc != 0) return rc;
    }
    uint32_t *slots = calloc(capacity, sizeof(uint32_t));
    if (slots == NULL) {
        if (column->tracker != NULL) mu_mem_tracker_release(column->tracker, bytes);
        return MU_ERR(err, MU_ENOMEM, "dictionary index: out of memory");
    }
    lc_slots_free(column);
    column->lc_index->slots = slots;
    column->lc_index->capacity = capacity;
    lc_fill(column);
    return 0;
}

int ty__lc_index_rebuild(ty_column *column, mu_err *err) {
    MU_ASSERT(column->lc_index != NULL);
    struct ty__lc_index *x = column->lc_index;
    uint32_t entries = column->children[0]->row_count;
    if (x->capacity == 0 || x->capacity / 2 < entries) return lc_resize(column, entries, err);
    memset(x->slots, 0, (size_t)x->capacity * sizeof(uint32_t));
    x->count = 0;
    lc_fill(column);
    return 0;
}

int ty__lc_index_find_or_insert(ty_column *column, const void *data, size_t bytes,
                                uint32_t *index_out, mu_err *err) {
    struct ty__lc_index *x = column->lc_index;
    ty_column *dictionary = column->children[0];
    if (x->capacity / 2 < x->count + 1) {
        uint32_t entries = MU_MAX(dictionary->row_count, x->count) + 1;
        int rc = lc_resize(column, entries, err);
        if (rc != 0) return rc;
    }
    uint64_t hash = mu_hash64(data, bytes);
    uint32_t slot = lc_probe(column, data, bytes, hash);
    if (x->slots[slot] != 0) {
        *index_out = x->slots[slot] - 1;
        return 0;
    }
    int rc = dictionary->type->kind == TY_STRING || dictionary->type->kind == TY_FIXED_STRING
                 ? ty_column_append_bytes(dictionary, data, bytes, err)
                 : ty_column_append_value(dictionary, data, err);
    if (rc != 0) return rc;
    x->slots[slot] = dictionary->row_count;
    x->count++;
    *index_out = dictionary->row_count - 1;
    return 0;
}
