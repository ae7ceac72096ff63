/* catalog.c: the catalog object: opening catalog.json, publishing snapshots,
 * the mutations, and the durable replace of the file. Locks: write_lock
 * serializes mutations and owns the file; current_lock guards only the
 * current pointer (held for a copy and a refcount increment), so readers
 * never wait for a disk write. A mutation validates, clones, edits,
 * finishes, persists (tmp, fsync, rename, fsync dir), then swaps; until the
 * rename catalog.json holds the old state, and open deletes a crashed tmp.
 */
#include "storage/catalog_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct catalog {
    pthread_mutex_t write_lock;   /* mutations, the file, read_only */
    pthread_mutex_t current_lock; /* the current pointer (writers also hold write_lock) */
    catalog_snapshot *current;
    bool read_only;               /* a directory fsync failed: the file's fate is unknown */
    mu_err read_only_reason;
    char dir[IO_PATH_MAX_BYTES];
    char path[IO_PATH_MAX_BYTES];
    char tmp_path[IO_PATH_MAX_BYTES];
};

/* ------------------------------------------------------------------ */
/* Persisting                                                          */
/* ------------------------------------------------------------------ */

/* Writes the document to a fresh tmp file (a stale one is removed first, so
 * a file whose fsync once failed is never reused) and syncs it. On failure
 * the tmp file is removed again; catalog.json was not touched. */
static int catalog_write_tmp(catalog *cat, const mu_buf *doc, mu_err *err) {
    int rc = io_unlink(cat->tmp_path, IO_UNLINK_MISSING_OK, NULL, err);
    if (rc != 0) return rc;
    io_file *file = NULL;
    rc = io_open(&file, cat->tmp_path, IO_OPEN_WRITE | IO_OPEN_CREATE | IO_OPEN_EXCL,
                 CATALOG_FP_OPEN_TMP, err);
    if (rc != 0) return rc;
    rc = io_write_all(file, doc->data, doc->length_bytes, CATALOG_FP_WRITE, err);
    if (rc == 0) rc = io_fsync(file, CATALOG_FP_FSYNC, err);
    int close_rc = io_close(file, rc == 0 ? err : NULL);
    if (rc == 0) rc = close_rc;
    if (rc != 0) (void)io_unlink(cat->tmp_path, IO_UNLINK_MISSING_OK, NULL, NULL);
    return rc;
}

/* Makes s the content of catalog.json. Priority: acknowledged data
 * survives, so a failed directory fsync after the rename turns the catalog
 * read-only instead of retrying the fsync and believing it. */
static int catalog_persist(catalog *cat, const catalog_snapshot *s, mu_err *err) {
    mu_err local;
    mu_err *e = err != NULL ? err : &local;
    mu_buf doc;
    mu_buf_init(&doc, CATALOG_FILE_BYTES_MAX);
    int rc = catalog__json_encode(s, &doc, e);
    if (rc == 0) rc = catalog_write_tmp(cat, &doc, e);
    mu_buf_deinit(&doc);
    if (rc != 0) return rc;
    MU_CRASHPOINT(CATALOG_CP_AFTER_TMP_WRITE);
    rc = io_rename(cat->tmp_path, cat->path, 0, CATALOG_FP_RENAME, e);
    if (rc != 0) {
        (void)io_unlink(cat->tmp_path, IO_UNLINK_MISSING_OK, NULL, NULL);
        return rc;
    }
    MU_CRASHPOINT(CATALOG_CP_AFTER_RENAME);
    rc = io_fsync_dir(cat->dir, CATALOG_FP_FSYNC_DIR, e);
    if (rc != 0) {
        cat->read_only = true;
        cat->read_only_reason = *e;
    }
    return rc;
}

static int catalog_writable(const catalog *cat, mu_err *err) {
    if (!cat->read_only) return 0;
    return MU_ERR(err, MU_EREADONLY, "catalog %s is read-only after a failed directory fsync "
                  "(%s); restart to reload it", cat->path, cat->read_only_reason.message);
}

/* Finishes next, persists it and makes it current; consumes next. The
 * caller holds write_lock. */
static int catalog_commit_take(catalog *cat, catalog_snapshot *next, mu_err *err) {
    int rc = catalog__snapshot_finish(next, err);
    MU_ASSERT(rc != MU_ECORRUPT); /* mutations check every invariant first */
    if (rc == 0) rc = catalog_persist(cat, next, err);
    if (rc != 0) {
        catalog_snapshot_release(next);
        return rc;
    }
    MU_ASSERT(next->generation == cat->current->generation + 1);
    pthread_mutex_lock(&cat->current_lock);
    catalog_snapshot *old = cat->current;
    cat->current = next;
    pthread_mutex_unlock(&cat->current_lock);
    catalog_snapshot_release(old);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Opening and closing                                                 */
/* ------------------------------------------------------------------ */

static int catalog_paths_init(catalog *cat, const char *data_dir, mu_err *err) {
    if (data_dir[0] == '\0') return MU_ERR(err, MU_EINVAL, "catalog: empty data directory");
    size_t length = strlen(data_dir);
    while (length > 1 && data_dir[length - 1] == '/') length--;
    /* The longest derived name is the tmp file: dir + "/" + name + NUL. */
    if (length + 1 + sizeof(CATALOG_TMP_FILE_NAME) > IO_PATH_MAX_BYTES) {
        return MU_ERR(err, MU_EINVAL, "catalog: data directory %.64s... is longer than %zu "
                      "bytes", data_dir, IO_PATH_MAX_BYTES - 2 - sizeof(CATALOG_TMP_FILE_NAME));
    }
    const char *separator = data_dir[length - 1] == '/' ? "" : "/";
    int n[3];
    n[0] = snprintf(cat->dir, sizeof(cat->dir), "%.*s", (int)length, data_dir);
    n[1] = snprintf(cat->path, sizeof(cat->path), "%s%s%s", cat->dir, separator,
                    CATALOG_FILE_NAME);
    n[2] = snprintf(cat->tmp_path, sizeof(cat->tmp_path), "%s%s%s", cat->dir, separator,
                    CATALOG_TMP_FILE_NAME);
    for (int i = 0; i < 3; i++) MU_ASSERT(n[i] > 0 && n[i] < IO_PATH_MAX_BYTES);
    return 0;
}

/* A leftover tmp file is the unfinished write of a mutation that crashed
 * before its rename: that mutation was never acknowledged, so drop it. */
static int catalog_remove_tmp(catalog *cat, mu_err *err) {
    uint64_t size_bytes = 0;
    mu_err probe;
    int rc = io_path_size(cat->tmp_path, &size_bytes, &probe);
    if (rc == MU_ENOT_FOUND) return 0;
    if (rc != 0) {
        if (err != NULL) *err = probe;
        return rc;
    }
    rc = io_unlink(cat->tmp_path, IO_UNLINK_SYNC_DIR, NULL, err);
    if (rc != 0) return rc;
    char quoted[IO_PATH_MAX_BYTES + 16];
    mu_log_warn("catalog.tmp_removed", "path=%s bytes=%llu reason=\"unfinished catalog write "
                "of a crashed mutation\"", mu_log_quote(cat->tmp_path, quoted, sizeof(quoted)),
                (unsigned long long)size_bytes);
    return 0;
}

/* A new catalog: the database "default", persisted before use so its UUID
 * is stable. */
static int catalog_create_fresh(catalog *cat, mu_err *err) {
    catalog_snapshot *s = NULL;
    catalog__database_entry *entry = NULL;
    catalog_uuid uuid;
    int rc = catalog_uuid_generate(&uuid, err);
    if (rc != 0) return rc;
    catalog_database_def def = {.name = "default", .engine = "Atomic", .comment = ""};
    rc = catalog__database_entry_build(&def, &uuid, mu_clock_wall_ns(), &entry, err);
    if (rc == 0) rc = catalog__snapshot_create(1, &s, err);
    if (rc != 0) goto fail;
    rc = catalog__snapshot_push_database_take(s, entry, err);
    entry = NULL;
    if (rc == 0) rc = catalog__snapshot_finish(s, err);
    if (rc == 0) rc = catalog_persist(cat, s, err);
    if (rc != 0) goto fail;
    cat->current = s;
    return 0;
fail:
    catalog__database_entry_release(entry);
    catalog_snapshot_release(s);
    return rc;
}

static int catalog_load(catalog *cat, mu_err *err) {
    mu_buf data;
    mu_buf_init(&data, CATALOG_FILE_BYTES_MAX);
    mu_err read_err;
    int rc = io_read_file(cat->path, &data, &read_err);
    if (rc == MU_ENOT_FOUND) {
        mu_buf_deinit(&data);
        return catalog_create_fresh(cat, err);
    }
    if (rc != 0) {
        if (err != NULL) *err = read_err;
    } else {
        rc = catalog__json_decode(cat->path, data.data, data.length_bytes, &cat->current, err);
    }
    mu_buf_deinit(&data);
    return rc;
}

int catalog_open(catalog **catalog_out, const char *data_dir, mu_err *err) {
    MU_ASSERT(catalog_out != NULL);
    MU_ASSERT(data_dir != NULL);
    *catalog_out = NULL;
    catalog *cat = calloc(1, sizeof(*cat));
    if (cat == NULL) return MU_ERR(err, MU_ENOMEM, "catalog: out of memory");
    pthread_mutex_init(&cat->write_lock, NULL);
    pthread_mutex_init(&cat->current_lock, NULL);
    int rc = catalog_paths_init(cat, data_dir, err);
    if (rc == 0) rc = io_mkdir_p(cat->dir, NULL, err);
    if (rc == 0) rc = catalog_remove_tmp(cat, err);
    if (rc == 0) rc = catalog_load(cat, err);
    if (rc != 0) {
        catalog_close(cat);
        return rc;
    }
    const catalog_snapshot *s = cat->current;
    char quoted[IO_PATH_MAX_BYTES + 16];
    mu_log_info("catalog.open", "path=%s generation=%llu databases=%zu tables=%zu dropped=%zu",
                mu_log_quote(cat->path, quoted, sizeof(quoted)),
                (unsigned long long)s->generation, s->database_count, s->table_count,
                s->dropped_count);
    *catalog_out = cat;
    return 0;
}

void catalog_close(catalog *cat) {
    if (cat == NULL) return;
    catalog_snapshot_release(cat->current);
    pthread_mutex_destroy(&cat->current_lock);
    pthread_mutex_destroy(&cat->write_lock);
    free(cat);
}

const char *catalog_file_path(const catalog *cat) { return cat->path; }

catalog_snapshot *catalog_snapshot_acquire(catalog *cat) {
    MU_ASSERT(cat != NULL);
    pthread_mutex_lock(&cat->current_lock);
    catalog_snapshot *s = cat->current;
    uint32_t before = atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    pthread_mutex_unlock(&cat->current_lock);
    MU_ASSERT(before > 0);
    return s;
}

/* ------------------------------------------------------------------ */
/* Databases                                                           */
/* ------------------------------------------------------------------ */

static int catalog_reserved_refuse(const char *name, const char *action, mu_err *err) {
    if (!catalog_database_name_reserved(name)) return 0;
    return MU_ERR(err, MU_EINVAL, "database %s is reserved (it exists virtually): cannot %s",
                  name, action);
}

int catalog_create_database(catalog *cat, const catalog_database_def *def, bool if_not_exists,
                            mu_err *err) {
    MU_ASSERT(cat != NULL);
    MU_ASSERT(def != NULL);
    int rc = catalog__name_check("database", def->name, true, err);
    if (rc == 0) rc = catalog_reserved_refuse(def->name, "create it", err);
    catalog_uuid uuid;
    if (rc == 0) rc = catalog_uuid_generate(&uuid, err);
    catalog__database_entry *entry = NULL;
    if (rc == 0) rc = catalog__database_entry_build(def, &uuid, mu_clock_wall_ns(), &entry, err);
    if (rc != 0) return rc;
    catalog_snapshot *next = NULL;
    pthread_mutex_lock(&cat->write_lock);
    rc = catalog_writable(cat, err);
    if (rc != 0) goto fail;
    if (catalog__snapshot_database_index(cat->current, def->name, NULL)) {
        rc = if_not_exists ? 0 : MU_ERR(err, MU_EDATABASE_EXISTS, "Database %s already exists",
                                        def->name);
        goto fail;
    }
    if (cat->current->database_count >= CATALOG_DATABASES_MAX) {
        rc = MU_ERR(err, MU_EINVAL, "cannot create database %s: the catalog already holds %d "
                    "databases", def->name, CATALOG_DATABASES_MAX);
        goto fail;
    }
    rc = catalog__snapshot_clone(cat->current, &next, err);
    if (rc != 0) goto fail;
    rc = catalog__snapshot_push_database_take(next, entry, err);
    entry = NULL;
    if (rc != 0) goto fail;
    rc = catalog_commit_take(cat, next, err);
    next = NULL;
fail:
    pthread_mutex_unlock(&cat->write_lock);
    catalog_snapshot_release(next);
    catalog__database_entry_release(entry);
    return rc;
}

/* Replaces live table `index` of next by a dropped copy. */
static int catalog_table_mark_dropped(catalog_snapshot *next, size_t index, int64_t now_ns,
                                      mu_err *err) {
    const catalog_table *t = &next->tables[index]->table;
    catalog__table_state state = {
        .uuid = t->uuid,
        .metadata_version = t->metadata_version,
        .created_at_ns = t->created_at_ns,
        .dropped = true,
        .dropped_at_ns = MU_MAX(now_ns, (int64_t)1),
    };
    catalog__table_entry *entry = NULL;
    int rc = catalog__table_entry_build(&t->def, &state, &entry, err);
    if (rc != 0) return rc;
    rc = catalog__snapshot_push_dropped_take(next, entry, err);
    if (rc != 0) return rc;
    catalog__snapshot_remove_table(next, index);
    return 0;
}

int catalog_drop_database(catalog *cat, const char *name, bool if_exists, bool cascade,
                          mu_err *err) {
    MU_ASSERT(cat != NULL);
    MU_ASSERT(name != NULL);
    int rc = catalog_reserved_refuse(name, "drop it", err);
    if (rc != 0) return rc;
    catalog_snapshot *next = NULL;
    pthread_mutex_lock(&cat->write_lock);
    rc = catalog_writable(cat, err);
    if (rc != 0) goto fail;
    size_t index = 0;
    if (!catalog__snapshot_database_index(cat->current, name, &index)) {
        rc = if_exists ? 0 : MU_ERR(err, MU_EUNKNOWN_DATABASE, "Database %s does not exist", name);
        goto fail;
    }
    size_t first = 0;
    size_t count = catalog_snapshot_tables_of(cat->current, name, &first);
    if (count > 0 && !cascade) {
        rc = MU_ERR(err, MU_EINVAL, "Database %s is not empty: it holds %zu tables (drop them "
                    "first, or drop the database with cascade)", name, count);
        goto fail;
    }
    rc = catalog__snapshot_clone(cat->current, &next, err);
    if (rc != 0) goto fail;
    int64_t now_ns = mu_clock_wall_ns();
    /* Each removal shifts the next table of the database down to `first`. */
    for (size_t i = 0; i < count && rc == 0; i++) {
        rc = catalog_table_mark_dropped(next, first, now_ns, err);
    }
    if (rc != 0) goto fail;
    catalog__snapshot_remove_database(next, index);
    rc = catalog_commit_take(cat, next, err);
    next = NULL;
fail:
    pthread_mutex_unlock(&cat->write_lock);
    catalog_snapshot_release(next);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */
/* ------------------------------------------------------------------ */

/* The database must exist (and not be reserved) to hold a live table. */
static int catalog_database_require(const catalog_snapshot *s, const char *name, mu_err *err) {
    int rc = catalog_reserved_refuse(name, "hold stored tables", err);
    if (rc != 0) return rc;
    if (catalog__snapshot_database_index(s, name, NULL)) return 0;
    return MU_ERR(err, MU_EUNKNOWN_DATABASE, "Database %s does not exist", name);
}

/* A fresh UUID for entry that no table of s has. A collision of random v4
 * UUIDs is not expected in practice; the bound only keeps the loop finite. */
static int catalog_uuid_unique(const catalog_snapshot *s, catalog__table_entry *entry,
                               mu_err *err) {
    for (int attempt = 0; attempt < 8; attempt++) {
        if (catalog_snapshot_find_table_by_uuid(s, &entry->table.uuid) == NULL) return 0;
        int rc = catalog_uuid_generate(&entry->table.uuid, err);
        if (rc != 0) return rc;
    }
    return MU_ERR(err, MU_EINTERNAL, "could not draw an unused table UUID");
}

/* Checks that entry can be added to the current catalog. Returns 1 when
 * the table exists and if_not_exists makes that success. */
static int catalog_create_table_check(catalog *cat, catalog__table_entry *entry,
                                      bool if_not_exists, catalog_uuid *uuid_out, mu_err *err) {
    const catalog_snapshot *s = cat->current;
    const catalog_table_def *def = &entry->table.def;
    int rc = catalog_writable(cat, err);
    if (rc == 0) rc = catalog_database_require(s, def->database, err);
    if (rc != 0) return rc;
    const catalog_table *existing = catalog_snapshot_find_table(s, def->database, def->name);
    if (existing != NULL) {
        if (!if_not_exists) {
            return MU_ERR(err, MU_EEXISTS, "Table %s.%s already exists", def->database,
                          def->name);
        }
        if (uuid_out != NULL) *uuid_out = existing->uuid;
        return 1;
    }
    if (s->table_count + s->dropped_count >= CATALOG_TABLES_MAX) {
        return MU_ERR(err, MU_EINVAL, "cannot create table %s.%s: the catalog already holds %d "
                      "tables", def->database, def->name, CATALOG_TABLES_MAX);
    }
    return catalog_uuid_unique(s, entry, err);
}

int catalog_create_table(catalog *cat, const catalog_table_def *def, bool if_not_exists,
                         catalog_uuid *uuid_out, mu_err *err) {
    MU_ASSERT(cat != NULL);
    MU_ASSERT(def != NULL);
    catalog__table_state state = {.metadata_version = 1, .created_at_ns = mu_clock_wall_ns()};
    int rc = catalog_uuid_generate(&state.uuid, err);
    catalog__table_entry *entry = NULL;
    if (rc == 0) rc = catalog__table_entry_build(def, &state, &entry, err);
    if (rc != 0) return rc;
    catalog_snapshot *next = NULL;
    pthread_mutex_lock(&cat->write_lock);
    rc = catalog_create_table_check(cat, entry, if_not_exists, uuid_out, err);
    if (rc != 0) {
        rc = rc == 1 ? 0 : rc;
        goto fail;
    }
    catalog_uuid uuid = entry->table.uuid;
    rc = catalog__snapshot_clone(cat->current, &next, err);
    if (rc != 0) goto fail;
    rc = catalog__snapshot_push_table_take(next, entry, err);
    entry = NULL;
    if (rc != 0) goto fail;
    rc = catalog_commit_take(cat, next, err);
    next = NULL;
    if (rc == 0 && uuid_out != NULL) *uuid_out = uuid;
fail:
    pthread_mutex_unlock(&cat->write_lock);
    catalog_snapshot_release(next);
    catalog__table_entry_release(entry);
    return rc;
}

int catalog_drop_table(catalog *cat, const char *database, const char *name, bool if_exists,
                       catalog_uuid *uuid_out, mu_err *err) {
    MU_ASSERT(cat != NULL);
    MU_ASSERT(database != NULL && name != NULL);
    if (uuid_out != NULL) memset(uuid_out, 0, sizeof(*uuid_out));
    catalog_snapshot *next = NULL;
    pthread_mutex_lock(&cat->write_lock);
    int rc = catalog_writable(cat, err);
    if (rc != 0) goto fail;
    const catalog_table *t = NULL;
    rc = catalog_snapshot_lookup_table(cat->current, database, name, &t, err);
    if (rc != 0) {
        if (if_exists) rc = 0;
        goto fail;
    }
    catalog_uuid uuid = t->uuid;
    size_t index = 0;
    rc = catalog__snapshot_clone(cat->current, &next, err);
    if (rc != 0) goto fail;
    bool found = catalog__snapshot_table_index(next, database, name, &index);
    MU_ASSERT(found);
    rc = catalog_table_mark_dropped(next, index, mu_clock_wall_ns(), err);
    if (rc != 0) goto fail;
    rc = catalog_commit_take(cat, next, err);
    next = NULL;
    if (rc == 0 && uuid_out != NULL) *uuid_out = uuid;
fail:
    pthread_mutex_unlock(&cat->write_lock);
    catalog_snapshot_release(next);
    return rc;
}

int catalog_purge_table(catalog *cat, const catalog_uuid *uuid, mu_err *err) {
    MU_ASSERT(cat != NULL);
    MU_ASSERT(uuid != NULL);
    char text[CATALOG_UUID_TEXT_BYTES];
    catalog_uuid_format(uuid, text);
    catalog_snapshot *next = NULL;
    pthread_mutex_lock(&cat->write_lock);
    int rc = catalog_writable(cat, err);
    if (rc != 0) goto fail;
    const catalog_table *t = catalog_snapshot_find_table_by_uuid(cat->current, uuid);
    if (t == NULL) {
        rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "no table has UUID %s", text);
        goto fail;
    }
    if (!t->dropped) {
        rc = MU_ERR(err, MU_EINVAL, "table %s.%s (UUID %s) is not dropped: drop it before "
                    "purging", t->def.database, t->def.name, text);
        goto fail;
    }
    rc = catalog__snapshot_clone(cat->current, &next, err);
    if (rc != 0) goto fail;
    size_t index = 0;
    bool found = catalog__snapshot_dropped_index(next, uuid, &index);
    MU_ASSERT(found);
    catalog__snapshot_remove_dropped(next, index);
    rc = catalog_commit_take(cat, next, err);
    next = NULL;
fail:
    pthread_mutex_unlock(&cat->write_lock);
    catalog_snapshot_release(next);
    return rc;
}

/* Swaps the live table database.name of next for entry (same UUID); takes
 * entry. */
static int catalog_table_replace_take(catalog_snapshot *next, const char *database,
                                      const char *name, catalog__table_entry *entry,
                                      mu_err *err) {
    size_t index = 0;
    bool found = catalog__snapshot_table_index(next, database, name, &index);
    MU_ASSERT(found);
    MU_ASSERT(catalog_uuid_equal(&next->tables[index]->table.uuid, &entry->table.uuid));
    catalog__snapshot_remove_table(next, index);
    return catalog__snapshot_push_table_take(next, entry, err);
}

/* Builds the renamed copy of the live table database.name, checking that
 * the source exists and the target database exists and has no new_name. */
static int catalog_rename_build(catalog *cat, const char *database, const char *name,
                                const char *new_database, const char *new_name,
                                catalog__table_entry **entry_out, mu_err *err) {
    const catalog_snapshot *s = cat->current;
    const catalog_table *t = NULL;
    int rc = catalog_writable(cat, err);
    if (rc == 0) rc = catalog_snapshot_lookup_table(s, database, name, &t, err);
    if (rc == 0) rc = catalog_database_require(s, new_database, err);
    if (rc != 0) return rc;
    if (catalog_snapshot_find_table(s, new_database, new_name) != NULL) {
        return MU_ERR(err, MU_EEXISTS, "Table %s.%s already exists", new_database, new_name);
    }
    catalog_table_def def = t->def;
    def.database = new_database;
    def.name = new_name;
    catalog__table_state state = {
        .uuid = t->uuid,
        .metadata_version = t->metadata_version,
        .created_at_ns = t->created_at_ns,
    };
    return catalog__table_entry_build(&def, &state, entry_out, err);
}

int catalog_rename_table(catalog *cat, const char *database, const char *name,
                         const char *new_database, const char *new_name, mu_err *err) {
    MU_ASSERT(cat != NULL);
    MU_ASSERT(database != NULL && name != NULL);
    int rc = catalog__name_check("database", new_database, true, err);
    if (rc == 0) rc = catalog__name_check("table", new_name, true, err);
    if (rc != 0) return rc;
    catalog__table_entry *entry = NULL;
    catalog_snapshot *next = NULL;
    pthread_mutex_lock(&cat->write_lock);
    rc = catalog_rename_build(cat, database, name, new_database, new_name, &entry, err);
    if (rc == 0) rc = catalog__snapshot_clone(cat->current, &next, err);
    if (rc != 0) goto fail;
    size_t index = 0;
    bool found = catalog__snapshot_table_index(next, database, name, &index);
    MU_ASSERT(found);
    catalog__snapshot_remove_table(next, index);
    rc = catalog__snapshot_push_table_take(next, entry, err);
    entry = NULL;
    if (rc != 0) goto fail;
    rc = catalog_commit_take(cat, next, err);
    next = NULL;
fail:
    pthread_mutex_unlock(&cat->write_lock);
    catalog_snapshot_release(next);
    catalog__table_entry_release(entry);
    return rc;
}

/* Builds the altered copy of live table `uuid` with metadata_version + 1. */
static int catalog_alter_build(catalog *cat, const catalog_uuid *uuid,
                               const catalog_table_def *def, uint64_t expected_version,
                               catalog__table_entry **entry_out, mu_err *err) {
    int rc = catalog_writable(cat, err);
    if (rc != 0) return rc;
    const catalog_table *t = catalog_snapshot_find_table_by_uuid(cat->current, uuid);
    char text[CATALOG_UUID_TEXT_BYTES];
    if (t == NULL || t->dropped) {
        return MU_ERR(err, MU_EUNKNOWN_TABLE, "no live table has UUID %s",
                      catalog_uuid_format(uuid, text));
    }
    if (expected_version != 0 && expected_version != t->metadata_version) {
        return MU_ERR(err, MU_EBUSY, "table %s.%s changed concurrently: metadata_version is "
                      "%llu, expected %llu; retry the ALTER", t->def.database, t->def.name,
                      (unsigned long long)t->metadata_version,
                      (unsigned long long)expected_version);
    }
    if (t->metadata_version >= (uint64_t)CATALOG_COUNTER_MAX) {
        return MU_ERR(err, MU_EINVAL, "table %s.%s: metadata_version %llu is at its maximum",
                      t->def.database, t->def.name, (unsigned long long)t->metadata_version);
    }
    if ((def->database != NULL && strcmp(def->database, t->def.database) != 0) ||
        (def->name != NULL && strcmp(def->name, t->def.name) != 0)) {
        return MU_ERR(err, MU_EINVAL, "ALTER of table %s.%s cannot change its name: use "
                      "RENAME", t->def.database, t->def.name);
    }
    catalog_table_def copy = *def;
    copy.database = t->def.database;
    copy.name = t->def.name;
    catalog__table_state state = {
        .uuid = t->uuid,
        .metadata_version = t->metadata_version + 1,
        .created_at_ns = t->created_at_ns,
    };
    return catalog__table_entry_build(&copy, &state, entry_out, err);
}

int catalog_alter_table(catalog *cat, const catalog_uuid *uuid, const catalog_table_def *def,
                        uint64_t expected_metadata_version, mu_err *err) {
    MU_ASSERT(cat != NULL);
    MU_ASSERT(uuid != NULL && def != NULL);
    catalog__table_entry *entry = NULL;
    catalog_snapshot *next = NULL;
    pthread_mutex_lock(&cat->write_lock);
    int rc = catalog_alter_build(cat, uuid, def, expected_metadata_version, &entry, err);
    if (rc == 0) rc = catalog__snapshot_clone(cat->current, &next, err);
    if (rc != 0) goto fail;
    rc = catalog_table_replace_take(next, entry->table.def.database, entry->table.def.name,
                                    entry, err);
    entry = NULL;
    if (rc != 0) goto fail;
    rc = catalog_commit_take(cat, next, err);
    next = NULL;
fail:
    pthread_mutex_unlock(&cat->write_lock);
    catalog_snapshot_release(next);
    catalog__table_entry_release(entry);
    return rc;
}
