/* storage.h: the storage engine of one node: the durable catalog plus an
 * open table (WAL, memtables, parts, flusher) for every live table in it.
 * Owns the binding of a catalog definition to table_options: column types
 * and codecs, the sort key and the PARTITION BY function. At open it also
 * finishes purges of dropped tables that a crash interrupted.
 *
 * ORDER BY items and PARTITION BY may be expressions over the stored
 * columns: the storage engine owns no expressions, so the layer that does
 * (sql) compiles them through storage_options.key_compiler. Without a
 * compiler only column names are accepted (MU_ENOT_SUPPORTED otherwise).
 * The parts' sort key is the ORDER BY items before the first expression.
 */
#ifndef MUSCLES_STORAGE_H
#define MUSCLES_STORAGE_H

#include "base/base.h"
#include "storage/catalog.h"
#include "storage/table.h"

/* An expression of PARTITION BY or ORDER BY, compiled against a table's
 * stored columns; opaque to the storage engine. */
typedef struct storage_key_expr storage_key_expr;

typedef struct storage_key_compiler {
    /* Compiles `text` over the columns (names and types in schema order).
     * `clause` is "PARTITION BY" or "ORDER BY", for messages. Fails with
     * a clear error for an unknown column, a syntax error, an aggregate,
     * a subquery or a function whose value is not determined by its
     * arguments. */
    int (*compile)(void *ctx, const char *clause, const char *text, uint32_t column_count,
                   const char *const *names, const ty_type *const *types,
                   storage_key_expr **out, mu_err *err);
    /* A new column of the expression's value for the `rows` rows of
     * `columns`. Safe to call from several threads. */
    int (*eval)(storage_key_expr *expr, const ty_column *const *columns, uint32_t rows,
                ty_column **out, mu_err *err);
    void (*destroy)(storage_key_expr *expr); /* accepts NULL */
    void *ctx;
} storage_key_compiler;

typedef struct storage_options {
    const char *data_dir;       /* catalog.json lives here */
    const char *wal_dir;        /* <wal_dir>/<table uuid>/ */
    const char *parts_dir;      /* <parts_dir>/<table uuid>/ */
    uint64_t wal_segment_bytes; /* 0: the WAL's default */
    uint64_t token_window;
    uint64_t flush_rows;        /* 0: table default */
    uint64_t flush_interval_ms;
    const storage_key_compiler *key_compiler; /* NULL: keys must be column names */
} storage_options;

typedef struct storage storage;

/* Opens the catalog and every live table in it (replaying their WALs). */
int storage_open(storage **storage_out, const storage_options *opt, mu_err *err);
/* Closes every table (no flush: the WALs hold the memtables' rows) and the
 * catalog. Callers guarantee no table reference is in use. Accepts NULL. */
void storage_close(storage *s);

catalog *storage_catalog(storage *s);
uint32_t storage_table_count(storage *s);

/* Creates the table in the catalog (durably) and opens it. */
int storage_create_table(storage *s, const catalog_table_def *def, bool if_not_exists,
                         mu_err *err);
/* Drops the table from the catalog (durably); its files are removed once the
 * last reference is released, and at the next start if a crash intervenes. */
int storage_drop_table(storage *s, const char *database, const char *name, bool if_exists,
                       mu_err *err);

/* ALTER: replaces the definition of database.name with def (validated by
 * the catalog). Waits until no query uses the table (new acquires wait for
 * the ALTER), flushes it so every acknowledged row is in a part and the log
 * holds none of the old shape, persists def, and reopens the table with
 * it. Parts written before keep their columns; readers supply added
 * columns and convert changed types. MU_ETIMEOUT if the table stays in use
 * for a minute, MU_EBUSY during another ALTER of it. */
int storage_alter_table(storage *s, const char *database, const char *name,
                        const catalog_table_def *def, mu_err *err);

/* A counted reference to an open table. MU_EUNKNOWN_DATABASE or
 * MU_EUNKNOWN_TABLE if there is none. */
typedef struct storage_table storage_table;
int storage_table_acquire(storage *s, const char *database, const char *name,
                          storage_table **ref_out, mu_err *err);
void storage_table_release(storage_table *ref); /* accepts NULL */
table *storage_table_get(const storage_table *ref);
const catalog_table *storage_table_definition(const storage_table *ref);
/* The table's parts directory (its detached/ holds damaged parts). */
const char *storage_table_data_dir(const storage_table *ref);

#endif /* MUSCLES_STORAGE_H */
