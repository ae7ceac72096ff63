/* catalog_int.h: private to src/storage/catalog*.c. A snapshot is a set of
 * sorted arrays of pointers to refcounted, immutable entries; a mutation
 * clones the arrays (sharing every unchanged entry), edits them, and
 * re-sorts them in catalog__snapshot_finish. Each entry owns one arena
 * holding the entry itself and all its strings, freed with the last ref.
 * Invariants after finish: arrays sorted, database names unique, live
 * (database, name) pairs unique, every live table's database exists, table
 * UUIDs unique over live and dropped tables.
 */
#ifndef MUSCLES_CATALOG_INT_H
#define MUSCLES_CATALOG_INT_H

#include "storage/catalog.h"

/* Generation and metadata_version stay at most this (far below INT64_MAX,
 * so they fit json_int_t); a mutation that would pass it is refused. */
#define CATALOG_COUNTER_MAX (INT64_C(1) << 62)

typedef struct catalog__database_entry {
    _Atomic uint32_t refs;
    mu_arena *arena; /* holds this entry and its strings */
    catalog_database database;
} catalog__database_entry;

typedef struct catalog__table_entry {
    _Atomic uint32_t refs;
    mu_arena *arena; /* holds this entry, its strings, arrays and parsed types */
    catalog_table table;
} catalog__table_entry;

struct catalog_snapshot {
    _Atomic uint32_t refs;
    uint64_t generation;
    catalog__database_entry **databases; /* by name */
    size_t database_count;
    size_t database_capacity;
    catalog__table_entry **tables;       /* live, by (database, name) */
    size_t table_count;
    size_t table_capacity;
    catalog__table_entry **dropped;      /* by UUID */
    size_t dropped_count;
    size_t dropped_capacity;
    catalog__table_entry **by_uuid;      /* tables + dropped, by UUID; built by finish */
};

/* The facts about a table that are not part of its definition. */
typedef struct catalog__table_state {
    catalog_uuid uuid;
    uint64_t metadata_version;
    int64_t created_at_ns;
    bool dropped;
    int64_t dropped_at_ns;
} catalog__table_state;

/* catalog_def.c: validation and entry construction. */

/* Checks a database or table name (path_safe: no '/'), or another name. */
int catalog__name_check(const char *what, const char *name, bool path_safe, mu_err *err);
/* Whether bytes[0..length) is well-formed UTF-8 (RFC 3629). */
bool catalog__utf8_valid(const char *bytes, size_t length_bytes);
/* Validates def fully and builds an entry with refs = 1. Checks that need
 * the rest of the catalog (database exists, name free) are the caller's. */
int catalog__table_entry_build(const catalog_table_def *def, const catalog__table_state *state,
                               catalog__table_entry **entry_out, mu_err *err);
int catalog__database_entry_build(const catalog_database_def *def, const catalog_uuid *uuid,
                                  int64_t created_at_ns, catalog__database_entry **entry_out,
                                  mu_err *err);
/* The entry holding table (a pointer into a catalog snapshot). */
catalog__table_entry *catalog__table_entry_of(const catalog_table *table);
void catalog__table_entry_retain(catalog__table_entry *entry);
void catalog__table_entry_release(catalog__table_entry *entry);   /* accepts NULL */
void catalog__database_entry_retain(catalog__database_entry *entry);
void catalog__database_entry_release(catalog__database_entry *entry); /* accepts NULL */

/* catalog_snapshot.c: building and searching snapshots. */

/* An empty, unfinished snapshot with refs = 1. */
int catalog__snapshot_create(uint64_t generation, catalog_snapshot **snapshot_out, mu_err *err);
/* A copy of from (sharing its entries) with generation + 1, unfinished. */
int catalog__snapshot_clone(const catalog_snapshot *from, catalog_snapshot **snapshot_out,
                            mu_err *err);
/* Append an entry, taking the caller's reference (also on failure). */
int catalog__snapshot_push_database_take(catalog_snapshot *s, catalog__database_entry *entry,
                                         mu_err *err);
int catalog__snapshot_push_table_take(catalog_snapshot *s, catalog__table_entry *entry,
                                      mu_err *err);
int catalog__snapshot_push_dropped_take(catalog_snapshot *s, catalog__table_entry *entry,
                                        mu_err *err);
/* Remove the entry at index, releasing the snapshot's reference. */
void catalog__snapshot_remove_database(catalog_snapshot *s, size_t index);
void catalog__snapshot_remove_table(catalog_snapshot *s, size_t index);
void catalog__snapshot_remove_dropped(catalog_snapshot *s, size_t index);
/* Sorts, builds the UUID index and checks the invariants above; a broken
 * one is MU_ECORRUPT describing it (only a loaded file can break them). */
int catalog__snapshot_finish(catalog_snapshot *s, mu_err *err);
/* Index of the database / live table, or false (only on finished or
 * cloned-and-unedited snapshots: both are sorted). */
bool catalog__snapshot_database_index(const catalog_snapshot *s, const char *name,
                                      size_t *index_out);
bool catalog__snapshot_table_index(const catalog_snapshot *s, const char *database,
                                   const char *name, size_t *index_out);
bool catalog__snapshot_dropped_index(const catalog_snapshot *s, const catalog_uuid *uuid,
                                     size_t *index_out);

/* catalog_json.c: the file format (docs/formats/catalog.md). */

/* Renders the whole document (indented, ends with a newline) into out. */
int catalog__json_encode(const catalog_snapshot *s, mu_buf *out, mu_err *err);
/* Parses and checks a document read from path (named in messages); returns
 * a finished snapshot with refs = 1. */
int catalog__json_decode(const char *path, const uint8_t *data, size_t length_bytes,
                         catalog_snapshot **snapshot_out, mu_err *err);

#endif /* MUSCLES_CATALOG_INT_H */
