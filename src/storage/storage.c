/* storage.c: the catalog plus the open tables of a node (see storage.h).
 * Owns the list of open tables (guarded by `lock`), each with its binding
 * (codec chains, sort key, compiled key expressions) and a reference count; a
 * dropped table's files are removed when its last reference goes.
 */
#include "storage/storage.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/io.h"

struct storage_table {
    _Atomic uint32_t refs;
    storage *owner;
    const catalog_table *def;          /* acquired from the catalog */
    table *t;
    part_codec_chain *codecs;          /* column_count chains */
    const part_codec_chain **codec_ptrs;
    /* The stored columns (ALIAS columns are computed on read, never
     * stored): their names, types, codecs, and each catalog column's
     * stored index (-1 for ALIAS). */
    uint32_t stored_count;
    const char **stored_names;
    const ty_type **stored_types;
    const part_codec_chain **stored_codecs;
    int32_t *stored_index;
    uint32_t *sort_key;                /* the parts' key: leading column items */
    uint32_t sort_key_count;
    uint32_t *sort_order;              /* every ORDER BY item (table_options) */
    uint32_t sort_order_count;
    bool partitioned;
    uint32_t partition_key;            /* catalog column, or column_count + key */
    storage_key_expr **keys;           /* computed keys */
    uint32_t key_count;
    catalog_table_paths paths;
    _Atomic bool dropped;
    bool altering;                     /* under storage.lock: acquire waits */
};

struct storage {
    catalog *cat;
    storage_options opt;
    char *data_dir, *wal_dir, *parts_dir;
    pthread_mutex_t lock;
    pthread_cond_t altered;            /* signalled when an ALTER finishes */
    storage_table **tables;
    uint32_t table_count;
    uint32_t table_capacity;
};

/* ------------------------------------------------------------------ */
/* Binding a definition                                                */
/* ------------------------------------------------------------------ */

static int find_column(const catalog_table *def, const char *name, size_t name_bytes) {
    for (uint32_t i = 0; i < def->def.column_count; i++) {
        const char *column = def->def.columns[i].name;
        if (strlen(column) == name_bytes && memcmp(column, name, name_bytes) == 0 &&
            def->def.columns[i].default_kind != CATALOG_DEFAULT_ALIAS)
            return (int)i;
    }
    return -1;
}

static int bind_stored(storage_table *st, mu_err *err) {
    const catalog_table_def *def = &st->def->def;
    uint32_t n = def->column_count;
    st->stored_names = calloc(n + 1, sizeof(*st->stored_names));
    st->stored_types = calloc(n + 1, sizeof(*st->stored_types));
    st->stored_codecs = calloc(n + 1, sizeof(*st->stored_codecs));
    st->stored_index = calloc(n + 1, sizeof(*st->stored_index));
    if (!st->stored_names || !st->stored_types || !st->stored_codecs || !st->stored_index)
        return MU_ERR(err, MU_ENOMEM, "cannot bind table %s", def->name);
    for (uint32_t c = 0; c < n; c++) {
        if (def->columns[c].default_kind == CATALOG_DEFAULT_ALIAS) {
            st->stored_index[c] = -1;
            continue;
        }
        st->stored_index[c] = (int32_t)st->stored_count;
        st->stored_names[st->stored_count] = st->def->column_names[c];
        st->stored_types[st->stored_count] = st->def->column_types[c];
        st->stored_codecs[st->stored_count++] = st->codec_ptrs[c];
    }
    if (st->stored_count == 0)
        return MU_ERR(err, MU_EINVAL, "table %s.%s has no stored column", def->database, def->name);
    return 0;
}

/* Compiles `text` as computed key number st->key_count. */
static int bind_computed_key(storage_table *st, const char *clause, const char *text,
                             mu_err *err) {
    const catalog_table_def *def = &st->def->def;
    const storage_key_compiler *kc = st->owner->opt.key_compiler;
    if (kc == NULL) {
        return MU_ERR(err, MU_ENOT_SUPPORTED,
                      "table %s.%s: %s %s: only column names are supported without the SQL "
                      "layer", def->database, def->name, clause, text);
    }
    storage_key_expr **grown = realloc(st->keys, (st->key_count + 1) * sizeof(*grown));
    if (grown == NULL) return MU_ERR(err, MU_ENOMEM, "cannot bind table %s", def->name);
    st->keys = grown;
    int rc = kc->compile(kc->ctx, clause, text, st->stored_count, st->stored_names,
                         st->stored_types, &st->keys[st->key_count], err);
    if (rc != 0) {
        mu_err_prefix(err, "table %s.%s: %s %s", def->database, def->name, clause, text);
        return rc;
    }
    st->key_count++;
    return 0;
}

/* A key item: a stored column's index, or stored_count + computed key. */
static int bind_key_item(storage_table *st, const char *clause, const char *text,
                         uint32_t *item_out, mu_err *err) {
    int column = find_column(st->def, text, strlen(text));
    if (column >= 0) {
        *item_out = (uint32_t)st->stored_index[column];
        return 0;
    }
    *item_out = st->stored_count + st->key_count;
    return bind_computed_key(st, clause, text, err);
}

/* ORDER BY and PARTITION BY; after bind_stored (keys see stored columns). */
static int bind_keys(storage_table *st, mu_err *err) {
    const catalog_table_def *def = &st->def->def;
    st->sort_key = calloc(def->order_by_count + 1, sizeof(*st->sort_key));
    st->sort_order = calloc(def->order_by_count + 1, sizeof(*st->sort_order));
    if (st->sort_key == NULL || st->sort_order == NULL)
        return MU_ERR(err, MU_ENOMEM, "cannot bind table %s", def->name);
    int rc = 0;
    bool computed_seen = false;
    for (uint32_t k = 0; k < def->order_by_count && rc == 0; k++) {
        uint32_t item;
        rc = bind_key_item(st, "ORDER BY", def->order_by[k], &item, err);
        if (rc != 0) break;
        st->sort_order[st->sort_order_count++] = item;
        computed_seen |= item >= st->stored_count;
        if (!computed_seen) st->sort_key[st->sort_key_count++] = item;
    }
    if (rc == 0 && def->partition_by[0] != '\0') {
        st->partitioned = true;
        rc = bind_key_item(st, "PARTITION BY", def->partition_by, &st->partition_key, err);
    }
    return rc;
}

/* table_key_fn over the compiled expressions. */
static int storage_key_eval(void *ctx, uint32_t key, const ty_column *const *columns,
                            uint32_t rows, ty_column **out, mu_err *err) {
    const storage_table *st = ctx;
    MU_ASSERT(key < st->key_count);
    return st->owner->opt.key_compiler->eval(st->keys[key], columns, rows, out, err);
}

static int bind_codecs(storage_table *st, mu_err *err) {
    const catalog_table_def *def = &st->def->def;
    st->codecs = calloc(def->column_count, sizeof(*st->codecs));
    st->codec_ptrs = calloc(def->column_count, sizeof(*st->codec_ptrs));
    if (st->codecs == NULL || st->codec_ptrs == NULL) {
        return MU_ERR(err, MU_ENOMEM, "cannot bind table %s", def->name);
    }
    for (uint32_t c = 0; c < def->column_count; c++) {
        const char *text = def->columns[c].codec;
        if (text[0] == '\0') continue;
        const ty_type *type = ty_type_strip_nullable(st->def->column_types[c]);
        int rc = part_codec_chain_parse(text, strlen(text), ty_type_value_bytes(type),
                                        &st->codecs[c], err);
        if (rc != 0) {
            mu_err_prefix(err, "table %s.%s column %s CODEC(%s)", def->database, def->name,
                          def->columns[c].name, text);
            return rc;
        }
        st->codec_ptrs[c] = &st->codecs[c];
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Open tables                                                         */
/* ------------------------------------------------------------------ */

static void storage_table_free(storage_table *st) {
    table_close(st->t);
    catalog_table_release(st->def);
    free(st->codecs);
    free(st->codec_ptrs);
    free(st->stored_names);
    free(st->stored_types);
    free(st->stored_codecs);
    free(st->stored_index);
    free(st->sort_key);
    free(st->sort_order);
    for (uint32_t k = 0; k < st->key_count; k++) st->owner->opt.key_compiler->destroy(st->keys[k]);
    free(st->keys);
    free(st);
}

/* Removes a dropped table's files, then forgets it in the catalog. */
static int storage_purge(storage *s, const catalog_uuid *uuid, const catalog_table_paths *paths,
                         mu_err *err) {
    int rc = io_remove_tree(paths->data_dir, NULL, err);
    if (rc == 0) rc = io_remove_tree(paths->wal_dir, NULL, err);
    if (rc == 0) rc = catalog_purge_table(s->cat, uuid, err);
    return rc;
}

void storage_table_release(storage_table *st) {
    if (st == NULL) return;
    if (atomic_fetch_sub_explicit(&st->refs, 1, memory_order_acq_rel) != 1) return;
    bool dropped = atomic_load(&st->dropped);
    storage *s = st->owner;
    catalog_uuid uuid = st->def->uuid;
    catalog_table_paths paths = st->paths;
    storage_table_free(st);
    mu_err err;
    if (dropped && storage_purge(s, &uuid, &paths, &err) != 0) {
        /* The catalog still lists it as dropped: the next start retries. */
        mu_log_err(MU_LOG_WARN, "storage.purge_failed", &err);
    }
}

static int storage_table_open(storage *s, const catalog_table *def, storage_table **out,
                              mu_err *err) {
    storage_table *st = calloc(1, sizeof(*st));
    if (st == NULL) return MU_ERR(err, MU_ENOMEM, "cannot open table %s", def->def.name);
    atomic_init(&st->refs, 1);
    atomic_init(&st->dropped, false);
    st->owner = s;
    st->def = catalog_table_acquire(def);
    int rc = catalog_table_paths_format(s->parts_dir, s->wal_dir, &def->uuid, &st->paths, err);
    if (rc == 0) rc = bind_codecs(st, err);
    if (rc == 0) rc = bind_stored(st, err);
    if (rc == 0) rc = bind_keys(st, err);
    char name[600];
    snprintf(name, sizeof(name), "%s.%s", def->def.database, def->def.name);
    table_options opt = {0};
    opt.name = name;
    opt.wal_dir = st->paths.wal_dir;
    opt.parts_dir = st->paths.data_dir;
    memcpy(opt.uuid, &def->uuid, sizeof(opt.uuid));
    opt.column_count = st->stored_count;
    opt.column_names = st->stored_names;
    opt.column_types = st->stored_types;
    opt.column_codecs = st->stored_codecs;
    opt.sort_key = st->sort_key;
    opt.sort_key_count = st->sort_key_count;
    opt.sort_order = st->sort_order;
    opt.sort_order_count = st->sort_order_count;
    opt.partitioned = st->partitioned;
    opt.partition_key = st->partition_key;
    opt.computed_key_count = st->key_count;
    opt.key_fn = storage_key_eval;
    opt.key_ctx = st;
    opt.flush_rows = s->opt.flush_rows;
    opt.flush_interval_ms = s->opt.flush_interval_ms;
    opt.wal_segment_bytes = s->opt.wal_segment_bytes;
    opt.token_window = s->opt.token_window;
    if (rc == 0) rc = table_open(&st->t, &opt, err);
    if (rc != 0) {
        storage_table_free(st);
        return rc;
    }
    *out = st;
    return 0;
}

static int storage_add(storage *s, storage_table *st, mu_err *err) {
    if (s->table_count == s->table_capacity) {
        uint32_t capacity = s->table_capacity ? s->table_capacity * 2 : 16;
        storage_table **grown = realloc(s->tables, capacity * sizeof(*grown));
        if (grown == NULL) return MU_ERR(err, MU_ENOMEM, "cannot track another table");
        s->tables = grown;
        s->table_capacity = capacity;
    }
    s->tables[s->table_count++] = st;
    return 0;
}

/* Opens every live table and finishes interrupted purges. */
static int storage_open_tables(storage *s, mu_err *err) {
    catalog_snapshot *snap = catalog_snapshot_acquire(s->cat);
    int rc = 0;
    for (size_t i = 0; i < catalog_snapshot_dropped_count(snap) && rc == 0; i++) {
        const catalog_table *def = catalog_snapshot_dropped_at(snap, i);
        catalog_table_paths paths;
        rc = catalog_table_paths_format(s->parts_dir, s->wal_dir, &def->uuid, &paths, err);
        if (rc == 0) rc = storage_purge(s, &def->uuid, &paths, err);
    }
    for (size_t i = 0; i < catalog_snapshot_table_count(snap) && rc == 0; i++) {
        storage_table *st = NULL;
        rc = storage_table_open(s, catalog_snapshot_table_at(snap, i), &st, err);
        if (rc == 0 && (rc = storage_add(s, st, err)) != 0) storage_table_release(st);
    }
    catalog_snapshot_release(snap);
    return rc;
}

int storage_open(storage **storage_out, const storage_options *opt, mu_err *err) {
    MU_ASSERT(storage_out != NULL && opt != NULL);
    storage *s = calloc(1, sizeof(*s));
    if (s == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate the storage engine");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->altered, NULL);
    s->opt = *opt;
    s->data_dir = strdup(opt->data_dir);
    s->wal_dir = strdup(opt->wal_dir);
    s->parts_dir = strdup(opt->parts_dir);
    int rc = s->data_dir && s->wal_dir && s->parts_dir
                 ? 0
                 : MU_ERR(err, MU_ENOMEM, "cannot allocate the storage engine");
    if (rc == 0) rc = io_mkdir_p(s->wal_dir, NULL, err);
    if (rc == 0) rc = io_mkdir_p(s->parts_dir, NULL, err);
    if (rc == 0) rc = catalog_open(&s->cat, s->data_dir, err);
    if (rc == 0) rc = storage_open_tables(s, err);
    if (rc != 0) {
        storage_close(s);
        return rc;
    }
    mu_log_info("storage.open", "tables=%u data_dir=%s", s->table_count, s->data_dir);
    *storage_out = s;
    return 0;
}

void storage_close(storage *s) {
    if (s == NULL) return;
    for (uint32_t i = 0; i < s->table_count; i++) storage_table_release(s->tables[i]);
    free(s->tables);
    catalog_close(s->cat);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->altered);
    free(s->data_dir);
    free(s->wal_dir);
    free(s->parts_dir);
    free(s);
}

catalog *storage_catalog(storage *s) { return s->cat; }

uint32_t storage_table_count(storage *s) {
    pthread_mutex_lock(&s->lock);
    uint32_t count = s->table_count;
    pthread_mutex_unlock(&s->lock);
    return count;
}

/* Index of the open table with uuid, or -1. Called with lock held. */
static int storage_find(const storage *s, const catalog_uuid *uuid) {
    for (uint32_t i = 0; i < s->table_count; i++) {
        if (catalog_uuid_equal(&s->tables[i]->def->uuid, uuid)) return (int)i;
    }
    return -1;
}

int storage_create_table(storage *s, const catalog_table_def *def, bool if_not_exists,
                         mu_err *err) {
    pthread_mutex_lock(&s->lock);
    catalog_uuid uuid;
    int rc = catalog_create_table(s->cat, def, if_not_exists, &uuid, err);
    if (rc == 0 && storage_find(s, &uuid) < 0) {
        catalog_snapshot *snap = catalog_snapshot_acquire(s->cat);
        const catalog_table *entry = catalog_snapshot_find_table_by_uuid(snap, &uuid);
        storage_table *st = NULL;
        rc = entry != NULL ? storage_table_open(s, entry, &st, err)
                           : MU_ERR(err, MU_EINTERNAL, "created table %s is missing", def->name);
        catalog_snapshot_release(snap);
        if (rc == 0 && (rc = storage_add(s, st, err)) != 0) storage_table_release(st);
        if (rc != 0) {
            /* A definition the binding refuses must not stay in the catalog. */
            mu_err ignored;
            catalog_uuid dropped;
            catalog_drop_table(s->cat, def->database, def->name, true, &dropped, &ignored);
            catalog_purge_table(s->cat, &uuid, &ignored);
        }
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int storage_drop_table(storage *s, const char *database, const char *name, bool if_exists,
                       mu_err *err) {
    pthread_mutex_lock(&s->lock);
    /* A table being altered is dropped once the ALTER is done. */
    for (;;) {
        catalog_snapshot *snap = catalog_snapshot_acquire(s->cat);
        const catalog_table *entry = catalog_snapshot_find_table(snap, database, name);
        int at = entry ? storage_find(s, &entry->uuid) : -1;
        catalog_snapshot_release(snap);
        if (at < 0 || !s->tables[at]->altering) break;
        pthread_cond_wait(&s->altered, &s->lock);
    }
    catalog_uuid uuid;
    memset(&uuid, 0, sizeof(uuid));
    int rc = catalog_drop_table(s->cat, database, name, if_exists, &uuid, err);
    storage_table *st = NULL;
    int index = rc == 0 ? storage_find(s, &uuid) : -1;
    if (index >= 0) {
        st = s->tables[index];
        s->tables[index] = s->tables[--s->table_count];
        atomic_store(&st->dropped, true);
    }
    pthread_mutex_unlock(&s->lock);
    storage_table_release(st); /* files go with the last reference */
    return rc;
}

int storage_table_acquire(storage *s, const char *database, const char *name,
                          storage_table **ref_out, mu_err *err) {
    pthread_mutex_lock(&s->lock);
    int rc;
    for (;;) {
        catalog_snapshot *snap = catalog_snapshot_acquire(s->cat);
        const catalog_table *entry = NULL;
        rc = catalog_snapshot_lookup_table(snap, database, name, &entry, err);
        int index = rc == 0 ? storage_find(s, &entry->uuid) : -1;
        catalog_snapshot_release(snap);
        if (rc == 0 && index < 0) {
            rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "table %s.%s is not open", database, name);
        }
        if (rc == 0 && s->tables[index]->altering) {
            /* An ALTER is replacing the table: take the new one. */
            pthread_cond_wait(&s->altered, &s->lock);
            continue;
        }
        if (rc == 0) {
            atomic_fetch_add(&s->tables[index]->refs, 1);
            *ref_out = s->tables[index];
        }
        break;
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

#define STORAGE_ALTER_WAIT_MS 60000

int storage_alter_table(storage *s, const char *database, const char *name,
                        const catalog_table_def *def, mu_err *err) {
    pthread_mutex_lock(&s->lock);
    catalog_snapshot *snap = catalog_snapshot_acquire(s->cat);
    const catalog_table *entry = NULL;
    int rc = catalog_snapshot_lookup_table(snap, database, name, &entry, err);
    catalog_uuid uuid;
    if (rc == 0) uuid = entry->uuid;
    catalog_snapshot_release(snap);
    int index = rc == 0 ? storage_find(s, &uuid) : -1;
    if (rc == 0 && index < 0) rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "table %s.%s is not open", database, name);
    if (rc == 0 && s->tables[index]->altering)
        rc = MU_ERR(err, MU_EBUSY, "table %s.%s is being altered by another query", database, name);
    if (rc != 0) {
        pthread_mutex_unlock(&s->lock);
        return rc;
    }
    storage_table *st = s->tables[index];
    st->altering = true;
    /* Wait until no query holds the table (only the storage's reference). */
    int64_t deadline = mu_clock_mono_ms() + STORAGE_ALTER_WAIT_MS;
    while (atomic_load(&st->refs) > 1 && mu_clock_mono_ms() < deadline) {
        pthread_mutex_unlock(&s->lock);
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&s->lock);
    }
    if (atomic_load(&st->refs) > 1)
        rc = MU_ERR(err, MU_ETIMEOUT, "ALTER of %s.%s: the table stayed in use for %d s", database,
                    name, STORAGE_ALTER_WAIT_MS / 1000);
    pthread_mutex_unlock(&s->lock);
    /* Every acknowledged row into parts, the log checkpointed: the new
     * definition never replays a record of the old one. */
    if (rc == 0) rc = table_flush(st->t, err);
    pthread_mutex_lock(&s->lock);
    catalog_table_def old_def;
    const catalog_table *old_entry = catalog_table_acquire(st->def);
    old_def = old_entry->def;
    if (rc == 0) rc = catalog_alter_table(s->cat, &uuid, def, 0, err);
    storage_table *nst = NULL;
    if (rc == 0) {
        table_close(st->t);
        st->t = NULL;
        snap = catalog_snapshot_acquire(s->cat);
        entry = catalog_snapshot_find_table_by_uuid(snap, &uuid);
        rc = entry ? storage_table_open(s, entry, &nst, err)
                   : MU_ERR(err, MU_EINTERNAL, "altered table %s.%s is missing", database, name);
        catalog_snapshot_release(snap);
        if (rc != 0) {
            /* Put the old definition back and reopen it. */
            mu_err again;
            if (catalog_alter_table(s->cat, &uuid, &old_def, 0, &again) == 0) {
                snap = catalog_snapshot_acquire(s->cat);
                entry = catalog_snapshot_find_table_by_uuid(snap, &uuid);
                if (entry == NULL || storage_table_open(s, entry, &nst, &again) != 0) {
                    nst = NULL;
                    mu_log_err(MU_LOG_ERROR, "storage.alter_reopen_failed", &again);
                }
                catalog_snapshot_release(snap);
            }
        }
    }
    /* Other tables may have been created or dropped while the lock was
     * released: find this one's slot again. */
    index = storage_find(s, &uuid);
    MU_ASSERT(index >= 0 && s->tables[index] == st);
    if (nst != NULL) {
        s->tables[index] = nst;
        storage_table_release(st); /* the last reference: closes nothing more (t is NULL) */
    } else if (st->t == NULL) {
        /* Neither definition opens: the table is gone until a restart. */
        s->tables[index] = s->tables[--s->table_count];
        storage_table_release(st);
    } else {
        st->altering = false;
    }
    catalog_table_release(old_entry);
    pthread_cond_broadcast(&s->altered);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

table *storage_table_get(const storage_table *ref) { return ref->t; }

const catalog_table *storage_table_definition(const storage_table *ref) { return ref->def; }

const char *storage_table_data_dir(const storage_table *ref) { return ref->paths.data_dir; }
