/* sql_keys.h: private to src/sql: row keys and the hash map of distinct
 * keys used by GROUP BY, DISTINCT, LIMIT BY and joins (sql_keys.c).
 */
#ifndef MUSCLES_SQL_KEYS_H
#define MUSCLES_SQL_KEYS_H

#include "base/base.h"
#include "types/types.h"

/* Appends the key bytes of `row` over columns[0..count). */
int sql__key_encode(const ty_column *const *columns, uint32_t count, uint32_t row, mu_buf *out,
                    mu_err *err);
bool sql__key_has_null(const ty_column *const *columns, uint32_t count, uint32_t row);

typedef struct sql_keymap {
    void *slots;
    uint32_t capacity;  /* power of two */
    uint32_t count;     /* distinct keys */
    uint64_t *offsets;  /* key i = bytes[offsets[i], offsets[i+1]) */
    uint32_t offsets_capacity;
    mu_buf bytes;
} sql_keymap;

int sql__keymap_init(sql_keymap *m, mu_err *err);
void sql__keymap_deinit(sql_keymap *m);
/* The number of key (existing or new, *inserted_out says which). */
int sql__keymap_find_or_insert(sql_keymap *m, const void *key, size_t bytes, uint32_t *index_out,
                               bool *inserted_out, mu_err *err);
/* *index_out = the key's number or UINT32_MAX when absent. */
int sql__keymap_find(const sql_keymap *m, const void *key, size_t bytes, uint32_t *index_out);

#endif /* MUSCLES_SQL_KEYS_H */
