/* table_flush.c: the flusher, one thread per table. A round seals the
 * active memtable (a new empty one takes appends), writes each sealed
 * memtable as one part per partition, then commits the flush:
 *
 *   write tmp_<part>/ files, fsync each and the dir   (part_writer_finish)
 *   rename tmp_<part> -> <part>, fsync parts dir      (part_publish)
 *   ... for every partition of the memtable ...
 *   write flushed_lsn (tmp + fsync + rename + fsync)  <- the commit point
 *   swap the table version (parts in, memtable out)
 *   wal_truncate_before(flushed_lsn + 1)              (WAL checkpoint)
 *
 * A crash before the commit point leaves published parts with LSNs above
 * flushed_lsn; startup deletes them and replays their rows from the WAL,
 * which still holds them because the checkpoint comes after the commit.
 * A failed WAL (fsync error) is recovered here once every row it
 * acknowledged is in a committed part.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"
#include "storage/table_int.h"

#define TABLE_FLUSHED_LSN_FILE "flushed_lsn"
#define TABLE_PARTITION_ID_BYTES_MAX 64

/* ------------------------------------------------------------------ */
/* flushed_lsn: "muscles-flushed-lsn 1 <lsn> <crc32c of the first part>\n" */
/* ------------------------------------------------------------------ */

int table__flushed_lsn_read(const table *t, uint64_t *lsn_out, mu_err *err) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", t->parts_dir, TABLE_FLUSHED_LSN_FILE);
    mu_buf text;
    mu_buf_init(&text, 4096);
    int rc = io_read_file(path, &text, err);
    if (rc == MU_ENOT_FOUND) {
        mu_buf_deinit(&text);
        *lsn_out = 0;
        return 0;
    }
    unsigned long long lsn = 0;
    unsigned crc = 0;
    int consumed = 0;
    if (rc == 0) {
        mu_buf_append_u8(&text, 0, NULL);
        const char *s = (const char *)text.data;
        const char *space = strrchr(s, ' ');
        if (sscanf(s, "muscles-flushed-lsn 1 %llu %x\n%n", &lsn, &crc, &consumed) != 2 ||
            space == NULL ||
            mu_crc32c(0, s, (size_t)(space - s)) != crc || (size_t)consumed + 1 != text.length_bytes) {
            rc = MU_CORRUPT(err, "%s is damaged; it records which parts are committed, so "
                                 "table %s cannot open until an operator restores it",
                            path, t->name);
        }
    }
    mu_buf_deinit(&text);
    if (rc == 0) *lsn_out = lsn;
    return rc;
}

static int flushed_lsn_write(table *t, uint64_t lsn, mu_err *err) {
    char path[4096], tmp[4200], line[128];
    snprintf(path, sizeof(path), "%s/%s", t->parts_dir, TABLE_FLUSHED_LSN_FILE);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    int n = snprintf(line, sizeof(line), "muscles-flushed-lsn 1 %" PRIu64, lsn);
    n += snprintf(line + n, sizeof(line) - (size_t)n, " %08x\n",
                  mu_crc32c(0, line, (size_t)n));
    io_file *f = NULL;
    int rc = io_open(&f, tmp, IO_OPEN_CREATE | IO_OPEN_TRUNC | IO_OPEN_WRITE,
                     "table.flushed_lsn", err);
    if (rc == 0) rc = io_write_all(f, line, (size_t)n, "table.flushed_lsn", err);
    if (rc == 0) rc = io_fsync(f, "table.flushed_lsn", err);
    if (f != NULL) {
        mu_err close_err;
        int close_rc = io_close(f, &close_err);
        if (rc == 0 && close_rc != 0) rc = close_rc, *err = close_err;
    }
    MU_CRASHPOINT("table.flush.before_commit");
    if (rc == 0) rc = io_rename(tmp, path, IO_RENAME_SYNC_DIR, "table.flushed_lsn", err);
    MU_CRASHPOINT("table.flush.after_commit");
    return rc;
}

/* ------------------------------------------------------------------ */
/* Writing one sealed memtable as parts                                */
/* ------------------------------------------------------------------ */

/* The rows of a sealed memtable as contiguous columns plus what the parts'
 * manifests need. */

static void flush_rows_deinit(const table *t, table_rows *r) {
    if (r->columns != NULL) {
        for (uint32_t c = 0; c < t->column_count; c++) ty_column_destroy(r->columns[c]);
    }
    free(r->columns);
    free(r->tokens);
    memset(r, 0, sizeof(*r));
}

static int flush_rows_gather(const table *t, const memtable *m, table_rows *r, mu_err *err) {
    memtable_snapshot snap;
    memtable_snapshot_take(m, &snap);
    if (snap.row_count > TY_COLUMN_ROWS_MAX) {
        return MU_ERR(err, MU_ETOO_LARGE, "memtable of %s holds too many rows", t->name);
    }
    r->row_count = (uint32_t)snap.row_count;
    r->min_lsn = memtable_min_lsn(m);
    r->max_lsn = memtable_max_lsn(m);
    uint32_t chunks = 0;
    for (const memtable_chunk *c = memtable_snapshot_next(&snap, NULL); c != NULL;
         c = memtable_snapshot_next(&snap, c)) {
        chunks++;
    }
    r->columns = calloc(t->column_count, sizeof(*r->columns));
    r->tokens = calloc(chunks + 1, sizeof(*r->tokens));
    if (r->columns == NULL || r->tokens == NULL) {
        return MU_ERR(err, MU_ENOMEM, "cannot allocate a flush of %s", t->name);
    }
    int rc = 0;
    for (uint32_t col = 0; col < t->column_count && rc == 0; col++) {
        rc = ty_column_create(t->column_types[col], t->tracker, &r->columns[col], err);
        if (rc == 0) rc = ty_column_reserve(r->columns[col], r->row_count, err);
        for (const memtable_chunk *c = memtable_snapshot_next(&snap, NULL); c != NULL && rc == 0;
             c = memtable_snapshot_next(&snap, c)) {
            rc = ty_column_append_rows_from(r->columns[col], c->columns[col], 0, c->row_count,
                                            err);
        }
    }
    for (const memtable_chunk *c = memtable_snapshot_next(&snap, NULL); c != NULL;
         c = memtable_snapshot_next(&snap, c)) {
        if (c->token_bytes == 0) continue;
        r->tokens[r->token_count++] = (part_token){c->token, c->token_bytes};
    }
    return rc;
}

/* A partition's directory-safe id: the value itself when it is short and
 * made of [A-Za-z0-9-], else "h" + the XXH64 of the value in hex. */
static void partition_id_of(const uint8_t *value, size_t bytes, char *out, size_t out_bytes) {
    bool plain = bytes > 0 && bytes < TABLE_PARTITION_ID_BYTES_MAX;
    for (size_t i = 0; i < bytes && plain; i++) {
        char ch = (char)value[i];
        plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                (ch >= '0' && ch <= '9') || ch == '-';
    }
    if (plain) snprintf(out, out_bytes, "%.*s", (int)bytes, (const char *)value);
    else snprintf(out, out_bytes, "h%016" PRIx64, mu_xxhash64(value, bytes, 0));
}

/* Distinct partition values of a flush and each row's partition. */
typedef struct flush_partitions {
    uint32_t count;
    mu_buf *values;          /* count values (text) */
    uint32_t *row_partition; /* row -> index into values */
    uint32_t *slots;         /* open addressing: index + 1, 0 = empty */
    uint32_t slot_count;     /* a power of two, at least twice count */
} flush_partitions;

static void flush_partitions_deinit(flush_partitions *p) {
    for (uint32_t i = 0; i < p->count; i++) mu_buf_deinit(&p->values[i]);
    free(p->values);
    free(p->row_partition);
    free(p->slots);
    memset(p, 0, sizeof(*p));
}

static uint32_t flush_partition_slot(const flush_partitions *p, const void *data, size_t bytes) {
    uint32_t mask = p->slot_count - 1, slot = (uint32_t)mu_hash64(data, bytes) & mask;
    for (;;) {
        uint32_t at = p->slots[slot];
        if (at == 0) return slot;
        const mu_buf *v = &p->values[at - 1];
        if (v->length_bytes == bytes && memcmp(v->data, data, bytes) == 0) return slot;
        slot = (slot + 1) & mask;
    }
}

static int flush_partitions_grow(flush_partitions *p, mu_err *err) {
    uint32_t slot_count = p->slot_count ? p->slot_count * 2 : 64;
    uint32_t *slots = calloc(slot_count, sizeof(*slots));
    mu_buf *values = realloc(p->values, (size_t)slot_count / 2 * sizeof(*values));
    if (slots == NULL || values == NULL) {
        free(slots);
        if (values != NULL) p->values = values;
        return MU_ERR(err, MU_ENOMEM, "cannot allocate partitions");
    }
    free(p->slots);
    p->values = values;
    p->slots = slots;
    p->slot_count = slot_count;
    for (uint32_t i = 0; i < p->count; i++)
        p->slots[flush_partition_slot(p, p->values[i].data, p->values[i].length_bytes)] = i + 1;
    return 0;
}

/* Finds or adds the partition of value. Any number of partitions is
 * accepted: refusing here would keep acknowledged rows out of parts. */
static int flush_partition_index(flush_partitions *p, const mu_buf *value, uint32_t *index_out,
                                 mu_err *err) {
    if ((p->count + 1) * 2 > p->slot_count) {
        int rc = flush_partitions_grow(p, err);
        if (rc != 0) return rc;
    }
    uint32_t slot = flush_partition_slot(p, value->data, value->length_bytes);
    if (p->slots[slot] != 0) {
        *index_out = p->slots[slot] - 1;
        return 0;
    }
    mu_buf_init(&p->values[p->count], 0);
    int rc = mu_buf_append(&p->values[p->count], value->data, value->length_bytes, err);
    if (rc != 0) {
        mu_buf_deinit(&p->values[p->count]);
        return rc;
    }
    p->slots[slot] = p->count + 1;
    *index_out = p->count++;
    return 0;
}

/* The computed keys the flush needs (the partition and ORDER BY
 * expressions) over the rows: keys[k] for computed key k, or NULL. */
static int flush_keys_compute(const table *t, const table_rows *r, ty_column **keys,
                              mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; i <= t->sort_order_count && rc == 0; i++) {
        uint32_t item = i < t->sort_order_count ? t->sort_order[i]
                        : t->partitioned        ? t->partition_key
                                                : 0;
        if (item < t->column_count || keys[item - t->column_count] != NULL) continue;
        uint32_t k = item - t->column_count;
        rc = t->key_fn(t->key_ctx, k, (const ty_column *const *)r->columns, r->row_count, &keys[k],
                       err);
        if (rc == 0 && ty_column_row_count(keys[k]) != r->row_count) {
            rc = MU_ERR(err, MU_EINTERNAL, "table %s: computed key %u gave %u rows of %u", t->name,
                        k, ty_column_row_count(keys[k]), r->row_count);
        }
    }
    return rc;
}

/* The column of sort item or partition key `item`. */
static const ty_column *flush_key_column(const table *t, const table_rows *r,
                                         ty_column *const *keys, uint32_t item) {
    return item < t->column_count ? r->columns[item] : keys[item - t->column_count];
}

static int flush_partitions_compute(table *t, const table_rows *r, ty_column *const *keys,
                                    flush_partitions *p, mu_err *err) {
    p->row_partition = calloc(r->row_count + 1, sizeof(*p->row_partition));
    if (p->row_partition == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate partitions");
    mu_buf value;
    mu_buf_init(&value, 1u << 20);
    int rc = 0;
    if (!t->partitioned) {
        rc = mu_buf_append_str(&value, "all", err);
        uint32_t index = 0;
        if (rc == 0) rc = flush_partition_index(p, &value, &index, err);
    }
    const ty_column *key = t->partitioned ? flush_key_column(t, r, keys, t->partition_key) : NULL;
    for (uint32_t row = 0; row < r->row_count && rc == 0 && key != NULL; row++) {
        /* Rows of one partition mostly come together: a value equal to the
         * previous row's needs no text and no lookup. */
        if (row > 0 && ty_column_compare_rows(key, row, key, row - 1) == 0) {
            p->row_partition[row] = p->row_partition[row - 1];
            continue;
        }
        mu_buf_clear(&value);
        rc = ty_column_render_text(key, row, 0, &value, err);
        if (rc == 0) rc = flush_partition_index(p, &value, &p->row_partition[row], err);
    }
    mu_buf_deinit(&value);
    return rc;
}

/* Copies the rows of one partition, in sort order, into new columns.
 * rows is scratch room for row_count indexes. */
static int flush_materialize(const table *t, const table_rows *r, const flush_partitions *p,
                             uint32_t partition, const uint32_t *perm, uint32_t *rows,
                             ty_column **out, uint32_t *rows_out, mu_err *err) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < r->row_count; i++) {
        if (p->row_partition[perm[i]] == partition) rows[count++] = perm[i];
    }
    int rc = 0;
    for (uint32_t col = 0; col < t->column_count && rc == 0; col++) {
        rc = ty_column_create(t->column_types[col], t->tracker, &out[col], err);
        if (rc == 0) rc = ty_column_reserve(out[col], count, err);
        if (rc == 0) rc = ty_column_append_gather(out[col], r->columns[col], rows, count, err);
    }
    *rows_out = count;
    return rc;
}

/* Writes one partition's sorted rows as a part and publishes it. */
static int flush_write_part(table *t, const table_rows *r, const char *dir,
                            const mu_buf *partition_value, ty_column *const *columns,
                            uint32_t rows, table_part_ref **ref_out, mu_err *err) {
    char id[TABLE_PARTITION_ID_BYTES_MAX + 20], value[PART_PARTITION_VALUE_BYTES_MAX + 1];
    char name[PART_NAME_BYTES_MAX + 1], tmp_dir[4096], final_dir[4096];
    partition_id_of(partition_value->data, partition_value->length_bytes, id, sizeof(id));
    snprintf(value, sizeof(value), "%.*s", (int)partition_value->length_bytes,
             (const char *)partition_value->data);
    int rc = part_name_format(id, r->min_lsn, r->max_lsn, 0, name, sizeof(name), err);
    if (rc != 0) return rc;
    snprintf(tmp_dir, sizeof(tmp_dir), "%s/tmp_%s", dir, name);
    snprintf(final_dir, sizeof(final_dir), "%s/%s", dir, name);
    part_column_def *defs = calloc(t->column_count, sizeof(*defs));
    if (defs == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate part %s", name);
    for (uint32_t c = 0; c < t->column_count; c++) {
        defs[c] = (part_column_def){t->column_names[c], t->column_types[c],
                                    t->column_codecs ? t->column_codecs[c] : NULL, false};
    }
    for (uint32_t k = 0; k < t->sort_key_count; k++) {
        const ty_type *type = ty_type_strip_nullable(t->column_types[t->sort_key[k]]);
        defs[t->sort_key[k]].minmax = type->kind != TY_ARRAY && type->kind != TY_MAP;
    }
    part_schema schema = {defs, t->column_count, t->sort_key, t->sort_key_count,
                          t->index_granularity};
    part_meta meta = {0};
    memcpy(meta.table_uuid, t->uuid, sizeof(meta.table_uuid));
    meta.partition_id = id;
    meta.partition_value = value;
    meta.lsn_min = r->min_lsn;
    meta.lsn_max = r->max_lsn;
    meta.tokens = r->tokens;
    meta.token_count = r->token_count;
    part_writer *w = NULL;
    rc = part_writer_open(&w, tmp_dir, &schema, t->tracker, err);
    if (rc == 0) rc = part_writer_append(w, (const ty_column *const *)columns, 0, rows, err);
    if (rc == 0) rc = part_writer_finish(w, &meta, err);
    if (rc != 0) part_writer_abort(w);
    else part_writer_close(w);
    free(defs);
    if (rc == 0) {
        rc = part_publish(tmp_dir, final_dir, err);
        mu_err ignored;
        /* Uncommitted either way (the WAL holds the rows): remove whichever
         * name the part has, so the next round can write it again. */
        if (rc != 0) io_remove_tree(tmp_dir, NULL, &ignored);
        if (rc != 0 && access(final_dir, F_OK) == 0) part_dir_remove(final_dir, &ignored);
    }
    table_part_ref *ref = NULL;
    if (rc == 0) {
        ref = calloc(1, sizeof(*ref));
        if (ref == NULL || (ref->dir = strdup(final_dir)) == NULL) {
            free(ref);
            ref = NULL;
            rc = MU_ERR(err, MU_ENOMEM, "cannot allocate part %s", name);
        }
    }
    if (rc == 0) {
        rc = part_open(&ref->part, final_dir, t->name, err);
        mu_err ignored;
        if (rc != 0) part_dir_remove(final_dir, &ignored);
    }
    if (rc != 0) {
        if (ref != NULL) free(ref->dir);
        free(ref);
        return rc;
    }
    atomic_init(&ref->refs, 1);
    atomic_init(&ref->obsolete, false);
    *ref_out = ref;
    return 0;
}

/* Writes every partition of a sealed memtable; on failure removes the
 * parts it published (they are uncommitted: flushed_lsn was not moved). */
int table__write_parts(table *t, const table_rows *r, const char *dir, table_part_ref ***refs_out,
                       uint32_t *count_out, mu_err *err) {
    flush_partitions parts = {0};
    uint32_t *perm = malloc((r->row_count + 1) * sizeof(*perm));
    uint32_t *scratch = malloc((r->row_count + 1) * sizeof(*scratch));
    ty_column **columns = calloc(t->column_count, sizeof(*columns));
    table_part_ref **refs = NULL;
    ty_column **keys = calloc(t->computed_key_count + 1, sizeof(*keys));
    const ty_column **sort_columns = calloc(t->sort_order_count + 1, sizeof(*sort_columns));
    uint32_t *sort_items = calloc(t->sort_order_count + 1, sizeof(*sort_items));
    int rc = perm && scratch && columns && keys && sort_columns && sort_items
                 ? 0
                 : MU_ERR(err, MU_ENOMEM, "cannot allocate a flush");
    if (rc == 0) rc = flush_keys_compute(t, r, keys, err);
    if (rc == 0) rc = flush_partitions_compute(t, r, keys, &parts, err);
    for (uint32_t i = 0; rc == 0 && i < t->sort_order_count; i++) {
        sort_columns[i] = flush_key_column(t, r, keys, t->sort_order[i]);
        sort_items[i] = i;
    }
    if (rc == 0) {
        rc = part_sort_permutation(sort_columns, sort_items, t->sort_order_count, r->row_count,
                                   perm, err);
    }
    if (rc == 0 && (refs = calloc(parts.count + 1, sizeof(*refs))) == NULL) {
        rc = MU_ERR(err, MU_ENOMEM, "cannot allocate a flush");
    }
    uint32_t written = 0;
    for (uint32_t i = 0; i < parts.count && rc == 0; i++) {
        uint32_t rows = 0;
        rc = flush_materialize(t, r, &parts, i, perm, scratch, columns, &rows, err);
        if (rc == 0)
            rc = flush_write_part(t, r, dir, &parts.values[i], columns, rows, &refs[i], err);
        if (rc == 0) written++;
        for (uint32_t c = 0; c < t->column_count; c++) {
            ty_column_destroy(columns[c]);
            columns[c] = NULL;
        }
    }
    if (rc != 0) {
        for (uint32_t i = 0; i < written; i++) {
            atomic_store(&refs[i]->obsolete, true);
            table_part_ref_release(refs[i]);
        }
        free(refs);
        refs = NULL;
    }
    flush_partitions_deinit(&parts);
    for (uint32_t k = 0; keys != NULL && k < t->computed_key_count; k++) ty_column_destroy(keys[k]);
    free(keys);
    free(sort_columns);
    free(sort_items);
    free(columns);
    free(scratch);
    free(perm);
    *refs_out = refs;
    *count_out = written;
    return rc;
}

static void flush_discard_parts(table_part_ref **refs, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        atomic_store(&refs[i]->obsolete, true);
        table_part_ref_release(refs[i]);
    }
}

/* Commits the flush of LSNs up to max_lsn. Returns 0 when flushed_lsn now
 * says max_lsn; *certain is false when the rename happened but its
 * directory fsync failed: the commit may not survive a crash, so the WAL
 * must keep the records (a later commit makes them durable). */
static int flush_commit(table *t, uint64_t max_lsn, bool *certain, mu_err *err) {
    *certain = true;
    int rc = flushed_lsn_write(t, max_lsn, err);
    if (rc == 0) return 0;
    uint64_t on_disk = 0;
    mu_err reread;
    if (table__flushed_lsn_read(t, &on_disk, &reread) == 0 && on_disk == max_lsn) {
        mu_log_err(MU_LOG_WARN, "table.flush_commit_unsynced", err);
        *certain = false;
        return 0;
    }
    return rc;
}

/* Flushes one sealed memtable: parts, commit, version swap, checkpoint.
 * The next version is built before the commit, so nothing can fail
 * between the commit and the swap (a committed flush whose memtable stayed
 * in the version would show its rows twice). */
static int flush_memtable(table *t, table_memtable_ref *sealed, mu_err *err) {
    table_rows rows = {0};
    table_part_ref **refs = NULL;
    uint32_t count = 0;
    int rc = 0;
    if (memtable_row_count(sealed->mem) > 0) {
        rc = flush_rows_gather(t, sealed->mem, &rows, err);
        if (rc == 0) rc = table__write_parts(t, &rows, t->parts_dir, &refs, &count, err);
    }
    table_version *next = NULL;
    pthread_mutex_lock(&t->publish_lock);
    if (rc == 0) {
        rc = table__version_derive(t, refs, count, sealed, NULL, &next, err);
        if (rc != 0) flush_discard_parts(refs, count); /* not consumed on failure */
    }
    bool certain = true;
    if (rc == 0 && count > 0) {
        rc = flush_commit(t, rows.max_lsn, &certain, err);
        if (rc != 0) {
            for (uint32_t i = 0; i < count; i++) atomic_store(&refs[i]->obsolete, true);
            table_version_release(next); /* drops the new parts, deleting them */
        }
    }
    free(refs);
    if (rc == 0) {
        table__version_install(t, next);
        if (rows.max_lsn > t->parts_max_lsn) t->parts_max_lsn = rows.max_lsn;
    }
    pthread_mutex_unlock(&t->publish_lock);
    if (rc == 0) {
        MU_CRASHPOINT("table.flush.before_checkpoint");
        if (certain) rc = wal_truncate_before(t->log, t->parts_max_lsn + 1, err);
        MU_CRASHPOINT("table.flush.after_checkpoint");
    }
    flush_rows_deinit(t, &rows);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Rounds and the flusher thread                                       */
/* ------------------------------------------------------------------ */

/* Replaces the active memtable by an empty one; the old one stays in the
 * version as sealed until its parts are in. */
static int flush_seal(table *t, mu_err *err) {
    table_memtable_ref *fresh = NULL;
    int rc = table__memtable_ref_create(t, &fresh, err);
    if (rc != 0) return rc;
    pthread_mutex_lock(&t->publish_lock);
    pthread_mutex_lock(&t->active_lock);
    if (memtable_row_count(t->active->mem) == 0) {
        pthread_mutex_unlock(&t->active_lock);
        pthread_mutex_unlock(&t->publish_lock);
        table_memtable_ref_release(fresh);
        return 0;
    }
    table_version *next = NULL;
    rc = table__version_derive(t, NULL, 0, NULL, fresh, &next, err);
    if (rc == 0) {
        table__version_install(t, next);
        t->active = fresh;
    }
    pthread_mutex_unlock(&t->active_lock);
    pthread_mutex_unlock(&t->publish_lock);
    if (rc != 0) table_memtable_ref_release(fresh);
    return rc;
}

/* One round: seal, then flush every sealed memtable oldest first; then, if
 * the log had failed and everything it acknowledged is in parts, recover. */
static int flush_round(table *t, mu_err *err) {
    if (atomic_load(&t->stage_broken)) {
        /* flushed_lsn must not pass a commit record whose parts are still
         * in stage/: replay at the next start moves them. */
        return MU_ERR(err, MU_ETABLE_READONLY, "table %s: flushes stop until a restart "
                      "completes a committed insert", t->name);
    }
    bool log_failed = wal_state_get(t->log, NULL) == WAL_STATE_FAILED;
    int rc = flush_seal(t, err);
    while (rc == 0) {
        table_version *v = table_version_acquire(t);
        table_memtable_ref *sealed = NULL;
        if (v->memtable_count > 1) sealed = v->memtables[0]; /* the last one is active */
        if (sealed != NULL) atomic_fetch_add(&sealed->refs, 1);
        table_version_release(v);
        if (sealed == NULL) break;
        rc = flush_memtable(t, sealed, err);
        table_memtable_ref_release(sealed);
    }
    if (rc == 0 && log_failed) {
        rc = wal_recover_after_failure(t->log, err);
        if (rc == 0) mu_log_info("table.wal_recovered", "table=%s", t->name);
    }
    return rc;
}

void table__flusher_poke(table *t, uint64_t active_rows) {
    if (active_rows < t->flush_rows) return;
    pthread_mutex_lock(&t->flush_lock);
    pthread_cond_signal(&t->flush_wake);
    pthread_mutex_unlock(&t->flush_lock);
}

/* True when a round is due: a request, enough rows, an old enough memtable,
 * or a failed log to recover. Called with flush_lock held. */
static bool flush_due(table *t, int64_t *wait_ms) {
    *wait_ms = -1;
    if (t->flush_requests > t->flush_rounds_done) return true;
    if (wal_state_get(t->log, NULL) == WAL_STATE_FAILED) return true;
    pthread_mutex_lock(&t->active_lock);
    uint64_t rows = memtable_row_count(t->active->mem);
    int64_t since = t->active_since_ms;
    pthread_mutex_unlock(&t->active_lock);
    if (rows >= t->flush_rows) return true;
    if (rows == 0 || t->flush_interval_ms == 0) return false;
    int64_t age = mu_clock_mono_ms() - since;
    if (age >= (int64_t)t->flush_interval_ms) return true;
    *wait_ms = (int64_t)t->flush_interval_ms - age;
    return false;
}

static void flush_wait(table *t, int64_t wait_ms) {
    if (wait_ms < 0) wait_ms = 1000; /* re-check the log state now and then */
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += wait_ms / 1000;
    deadline.tv_nsec += (wait_ms % 1000) * 1000000;
    if (deadline.tv_nsec >= 1000000000) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&t->flush_wake, &t->flush_lock, &deadline);
}

static void *flusher_run(void *arg) {
    table *t = arg;
    pthread_mutex_lock(&t->flush_lock);
    while (!t->stopping) {
        int64_t wait_ms = -1;
        if (!flush_due(t, &wait_ms)) {
            flush_wait(t, wait_ms);
            continue;
        }
        uint64_t serving = t->flush_requests;
        pthread_mutex_unlock(&t->flush_lock);
        mu_err err;
        int rc = flush_round(t, &err);
        if (rc != 0) mu_log_err(MU_LOG_ERROR, "table.flush_failed", &err);
        pthread_mutex_lock(&t->flush_lock);
        t->flush_last_rc = rc;
        if (rc != 0) t->flush_last_err = err;
        if (serving > t->flush_rounds_done) t->flush_rounds_done = serving;
        pthread_cond_broadcast(&t->flush_done);
        if (rc != 0 && !t->stopping) flush_wait(t, 1000); /* back off, then retry */
    }
    pthread_mutex_unlock(&t->flush_lock);
    return NULL;
}

int table__flusher_start(table *t, mu_err *err) {
    if (pthread_create(&t->flusher, NULL, flusher_run, t) != 0) {
        return MU_ERR(err, MU_EINTERNAL, "cannot start the flusher of %s", t->name);
    }
    t->flusher_started = true;
    return 0;
}

void table__flusher_stop(table *t) {
    if (!t->flusher_started) return;
    pthread_mutex_lock(&t->flush_lock);
    t->stopping = true;
    pthread_cond_broadcast(&t->flush_wake);
    pthread_cond_broadcast(&t->flush_done);
    pthread_mutex_unlock(&t->flush_lock);
    pthread_join(t->flusher, NULL);
    t->flusher_started = false;
}

int table_flush(table *t, mu_err *err) {
    pthread_mutex_lock(&t->flush_lock);
    uint64_t mine = ++t->flush_requests;
    pthread_cond_signal(&t->flush_wake);
    while (t->flush_rounds_done < mine && !t->stopping) {
        pthread_cond_wait(&t->flush_done, &t->flush_lock);
    }
    int rc = t->stopping && t->flush_rounds_done < mine
                 ? MU_ERR(err, MU_ESHUTDOWN, "table %s is closing", t->name)
                 : t->flush_last_rc;
    if (rc != 0 && !t->stopping) *err = t->flush_last_err;
    pthread_mutex_unlock(&t->flush_lock);
    return rc;
}
