/* catalog_snapshot.c: immutable catalog snapshots and their lookups. A
 * snapshot holds sorted arrays of pointers to refcounted entries; clones
 * share entries, so a mutation copies pointers, not definitions. Once
 * published a snapshot never changes, which makes every lookup here safe
 * from any thread without locks. Invariants: see catalog_int.h.
 */
#include "storage/catalog_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Orders                                                              */
/* ------------------------------------------------------------------ */

static int catalog_compare_uuid(const catalog_uuid *a, const catalog_uuid *b) {
    return memcmp(a->bytes, b->bytes, sizeof(a->bytes));
}

static int catalog_compare_database_entries(const void *a, const void *b) {
    const catalog__database_entry *x = *(catalog__database_entry *const *)a;
    const catalog__database_entry *y = *(catalog__database_entry *const *)b;
    return strcmp(x->database.name, y->database.name);
}

static int catalog_compare_table_names(const catalog_table *t, const char *database,
                                       const char *name) {
    int c = strcmp(t->def.database, database);
    return c != 0 ? c : strcmp(t->def.name, name);
}

static int catalog_compare_table_entries(const void *a, const void *b) {
    const catalog_table *x = &(*(catalog__table_entry *const *)a)->table;
    const catalog_table *y = &(*(catalog__table_entry *const *)b)->table;
    return catalog_compare_table_names(x, y->def.database, y->def.name);
}

static int catalog_compare_uuid_entries(const void *a, const void *b) {
    const catalog_table *x = &(*(catalog__table_entry *const *)a)->table;
    const catalog_table *y = &(*(catalog__table_entry *const *)b)->table;
    return catalog_compare_uuid(&x->uuid, &y->uuid);
}

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

int catalog__snapshot_create(uint64_t generation, catalog_snapshot **snapshot_out, mu_err *err) {
    MU_ASSERT(snapshot_out != NULL);
    catalog_snapshot *s = calloc(1, sizeof(*s));
    if (s == NULL) return MU_ERR(err, MU_ENOMEM, "catalog snapshot: out of memory");
    atomic_init(&s->refs, 1);
    s->generation = generation;
    *snapshot_out = s;
    return 0;
}

/* Grows *array (of pointers) to hold at least need entries. */
static int catalog_array_reserve(void ***array, size_t *capacity, size_t need, mu_err *err) {
    if (need <= *capacity) return 0;
    size_t grown = MU_MAX(need, *capacity * 2);
    grown = MU_MAX(grown, (size_t)8);
    size_t bytes;
    if (!mu_size_mul(grown, sizeof(void *), &bytes)) {
        return MU_ERR(err, MU_ENOMEM, "catalog snapshot: array too large");
    }
    void **bigger = realloc(*array, bytes);
    if (bigger == NULL) return MU_ERR(err, MU_ENOMEM, "catalog snapshot: out of memory");
    *array = bigger;
    *capacity = grown;
    return 0;
}

int catalog__snapshot_push_database_take(catalog_snapshot *s, catalog__database_entry *entry,
                                         mu_err *err) {
    MU_ASSERT(entry != NULL);
    int rc = catalog_array_reserve((void ***)&s->databases, &s->database_capacity,
                                   s->database_count + 1, err);
    if (rc != 0) {
        catalog__database_entry_release(entry);
        return rc;
    }
    s->databases[s->database_count++] = entry;
    return 0;
}

int catalog__snapshot_push_table_take(catalog_snapshot *s, catalog__table_entry *entry,
                                      mu_err *err) {
    MU_ASSERT(entry != NULL);
    MU_ASSERT(!entry->table.dropped);
    int rc = catalog_array_reserve((void ***)&s->tables, &s->table_capacity, s->table_count + 1,
                                   err);
    if (rc != 0) {
        catalog__table_entry_release(entry);
        return rc;
    }
    s->tables[s->table_count++] = entry;
    return 0;
}

int catalog__snapshot_push_dropped_take(catalog_snapshot *s, catalog__table_entry *entry,
                                        mu_err *err) {
    MU_ASSERT(entry != NULL);
    MU_ASSERT(entry->table.dropped);
    int rc = catalog_array_reserve((void ***)&s->dropped, &s->dropped_capacity,
                                   s->dropped_count + 1, err);
    if (rc != 0) {
        catalog__table_entry_release(entry);
        return rc;
    }
    s->dropped[s->dropped_count++] = entry;
    return 0;
}

int catalog__snapshot_clone(const catalog_snapshot *from, catalog_snapshot **snapshot_out,
                            mu_err *err) {
    MU_ASSERT(from != NULL);
    if (from->generation >= (uint64_t)CATALOG_COUNTER_MAX) {
        return MU_ERR(err, MU_EINVAL, "catalog generation %llu is at its maximum",
                      (unsigned long long)from->generation);
    }
    catalog_snapshot *s = NULL;
    int rc = catalog__snapshot_create(from->generation + 1, &s, err);
    if (rc != 0) return rc;
    for (size_t i = 0; i < from->database_count && rc == 0; i++) {
        catalog__database_entry_retain(from->databases[i]);
        rc = catalog__snapshot_push_database_take(s, from->databases[i], err);
    }
    for (size_t i = 0; i < from->table_count && rc == 0; i++) {
        catalog__table_entry_retain(from->tables[i]);
        rc = catalog__snapshot_push_table_take(s, from->tables[i], err);
    }
    for (size_t i = 0; i < from->dropped_count && rc == 0; i++) {
        catalog__table_entry_retain(from->dropped[i]);
        rc = catalog__snapshot_push_dropped_take(s, from->dropped[i], err);
    }
    if (rc != 0) {
        catalog_snapshot_release(s);
        return rc;
    }
    *snapshot_out = s;
    return 0;
}

void catalog__snapshot_remove_database(catalog_snapshot *s, size_t index) {
    MU_ASSERT(index < s->database_count);
    catalog__database_entry_release(s->databases[index]);
    memmove(&s->databases[index], &s->databases[index + 1],
            (s->database_count - index - 1) * sizeof(*s->databases));
    s->database_count--;
}

void catalog__snapshot_remove_table(catalog_snapshot *s, size_t index) {
    MU_ASSERT(index < s->table_count);
    catalog__table_entry_release(s->tables[index]);
    memmove(&s->tables[index], &s->tables[index + 1],
            (s->table_count - index - 1) * sizeof(*s->tables));
    s->table_count--;
}

void catalog__snapshot_remove_dropped(catalog_snapshot *s, size_t index) {
    MU_ASSERT(index < s->dropped_count);
    catalog__table_entry_release(s->dropped[index]);
    memmove(&s->dropped[index], &s->dropped[index + 1],
            (s->dropped_count - index - 1) * sizeof(*s->dropped));
    s->dropped_count--;
}

/* Checks the invariants that sorting exposes as neighbours. */
static int catalog_snapshot_check(const catalog_snapshot *s, mu_err *err) {
    for (size_t i = 1; i < s->database_count; i++) {
        const char *name = s->databases[i]->database.name;
        if (strcmp(s->databases[i - 1]->database.name, name) == 0) {
            return MU_CORRUPT(err, "database %s appears twice", name);
        }
    }
    for (size_t i = 0; i < s->table_count; i++) {
        const catalog_table *t = &s->tables[i]->table;
        if (i > 0 && catalog_compare_table_entries(&s->tables[i - 1], &s->tables[i]) == 0) {
            return MU_CORRUPT(err, "table %s.%s appears twice", t->def.database, t->def.name);
        }
        if (!catalog__snapshot_database_index(s, t->def.database, NULL)) {
            return MU_CORRUPT(err, "table %s.%s is in database %s, which does not exist",
                              t->def.database, t->def.name, t->def.database);
        }
    }
    size_t all = s->table_count + s->dropped_count;
    for (size_t i = 1; i < all; i++) {
        const catalog_table *t = &s->by_uuid[i]->table;
        if (catalog_uuid_equal(&s->by_uuid[i - 1]->table.uuid, &t->uuid)) {
            char text[CATALOG_UUID_TEXT_BYTES];
            return MU_CORRUPT(err, "two tables have UUID %s (one is %s.%s)",
                              catalog_uuid_format(&t->uuid, text), t->def.database, t->def.name);
        }
    }
    return 0;
}

int catalog__snapshot_finish(catalog_snapshot *s, mu_err *err) {
    MU_ASSERT(s != NULL);
    if (s->database_count > 0) {
        qsort(s->databases, s->database_count, sizeof(*s->databases),
              catalog_compare_database_entries);
    }
    if (s->table_count > 0) {
        qsort(s->tables, s->table_count, sizeof(*s->tables), catalog_compare_table_entries);
    }
    if (s->dropped_count > 0) {
        qsort(s->dropped, s->dropped_count, sizeof(*s->dropped), catalog_compare_uuid_entries);
    }
    size_t all = s->table_count + s->dropped_count;
    free(s->by_uuid);
    s->by_uuid = malloc(sizeof(*s->by_uuid) * MU_MAX(all, (size_t)1));
    if (s->by_uuid == NULL) return MU_ERR(err, MU_ENOMEM, "catalog snapshot: out of memory");
    if (s->table_count > 0) memcpy(s->by_uuid, s->tables, sizeof(*s->tables) * s->table_count);
    if (s->dropped_count > 0) {
        memcpy(s->by_uuid + s->table_count, s->dropped, sizeof(*s->dropped) * s->dropped_count);
    }
    if (all > 0) qsort(s->by_uuid, all, sizeof(*s->by_uuid), catalog_compare_uuid_entries);
    return catalog_snapshot_check(s, err);
}

/* ------------------------------------------------------------------ */
/* Searching                                                           */
/* ------------------------------------------------------------------ */

bool catalog__snapshot_database_index(const catalog_snapshot *s, const char *name,
                                      size_t *index_out) {
    size_t low = 0;
    size_t high = s->database_count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        int c = strcmp(s->databases[mid]->database.name, name);
        if (c == 0) {
            if (index_out != NULL) *index_out = mid;
            return true;
        }
        if (c < 0) low = mid + 1; else high = mid;
    }
    return false;
}

/* The first live table not ordered before (database, name). */
static size_t catalog_table_lower_bound(const catalog_snapshot *s, const char *database,
                                        const char *name) {
    size_t low = 0;
    size_t high = s->table_count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (catalog_compare_table_names(&s->tables[mid]->table, database, name) < 0) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return low;
}

bool catalog__snapshot_table_index(const catalog_snapshot *s, const char *database,
                                   const char *name, size_t *index_out) {
    size_t at = catalog_table_lower_bound(s, database, name);
    if (at == s->table_count) return false;
    if (catalog_compare_table_names(&s->tables[at]->table, database, name) != 0) return false;
    if (index_out != NULL) *index_out = at;
    return true;
}

static bool catalog_uuid_search(catalog__table_entry *const *array, size_t count,
                                const catalog_uuid *uuid, size_t *index_out) {
    size_t low = 0;
    size_t high = count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        int c = catalog_compare_uuid(&array[mid]->table.uuid, uuid);
        if (c == 0) {
            *index_out = mid;
            return true;
        }
        if (c < 0) low = mid + 1; else high = mid;
    }
    return false;
}

bool catalog__snapshot_dropped_index(const catalog_snapshot *s, const catalog_uuid *uuid,
                                     size_t *index_out) {
    return catalog_uuid_search(s->dropped, s->dropped_count, uuid, index_out);
}

/* ------------------------------------------------------------------ */
/* Public snapshot interface                                           */
/* ------------------------------------------------------------------ */

void catalog_snapshot_release(catalog_snapshot *s) {
    if (s == NULL) return;
    uint32_t before = atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel);
    MU_ASSERT(before > 0);
    if (before != 1) return;
    for (size_t i = 0; i < s->database_count; i++) {
        catalog__database_entry_release(s->databases[i]);
    }
    for (size_t i = 0; i < s->table_count; i++) catalog__table_entry_release(s->tables[i]);
    for (size_t i = 0; i < s->dropped_count; i++) catalog__table_entry_release(s->dropped[i]);
    free(s->databases);
    free(s->tables);
    free(s->dropped);
    free(s->by_uuid);
    free(s);
}

uint64_t catalog_snapshot_generation(const catalog_snapshot *s) { return s->generation; }

size_t catalog_snapshot_database_count(const catalog_snapshot *s) { return s->database_count; }

const catalog_database *catalog_snapshot_database_at(const catalog_snapshot *s, size_t index) {
    MU_ASSERT(index < s->database_count);
    return &s->databases[index]->database;
}

const catalog_database *catalog_snapshot_find_database(const catalog_snapshot *s,
                                                       const char *name) {
    MU_ASSERT(name != NULL);
    size_t index;
    if (!catalog__snapshot_database_index(s, name, &index)) return NULL;
    return &s->databases[index]->database;
}

size_t catalog_snapshot_table_count(const catalog_snapshot *s) { return s->table_count; }

const catalog_table *catalog_snapshot_table_at(const catalog_snapshot *s, size_t index) {
    MU_ASSERT(index < s->table_count);
    return &s->tables[index]->table;
}

size_t catalog_snapshot_tables_of(const catalog_snapshot *s, const char *database,
                                  size_t *first_index_out) {
    MU_ASSERT(database != NULL);
    /* "" sorts before every name, so this is the first table of database. */
    size_t first = catalog_table_lower_bound(s, database, "");
    size_t end = first;
    while (end < s->table_count && strcmp(s->tables[end]->table.def.database, database) == 0) {
        end++;
    }
    *first_index_out = first;
    return end - first;
}

const catalog_table *catalog_snapshot_find_table(const catalog_snapshot *s, const char *database,
                                                 const char *name) {
    MU_ASSERT(database != NULL);
    MU_ASSERT(name != NULL);
    size_t index;
    if (!catalog__snapshot_table_index(s, database, name, &index)) return NULL;
    return &s->tables[index]->table;
}

int catalog_snapshot_lookup_table(const catalog_snapshot *s, const char *database,
                                  const char *name, const catalog_table **table_out,
                                  mu_err *err) {
    MU_ASSERT(table_out != NULL);
    *table_out = catalog_snapshot_find_table(s, database, name);
    if (*table_out != NULL) return 0;
    if (catalog_snapshot_find_database(s, database) == NULL) {
        return MU_ERR(err, MU_EUNKNOWN_DATABASE, "Database %s does not exist", database);
    }
    return MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", database, name);
}

const catalog_table *catalog_snapshot_find_table_by_uuid(const catalog_snapshot *s,
                                                         const catalog_uuid *uuid) {
    MU_ASSERT(uuid != NULL);
    size_t index;
    if (!catalog_uuid_search(s->by_uuid, s->table_count + s->dropped_count, uuid, &index)) {
        return NULL;
    }
    return &s->by_uuid[index]->table;
}

size_t catalog_snapshot_dropped_count(const catalog_snapshot *s) { return s->dropped_count; }

const catalog_table *catalog_snapshot_dropped_at(const catalog_snapshot *s, size_t index) {
    MU_ASSERT(index < s->dropped_count);
    return &s->dropped[index]->table;
}
