/* table_version.c: immutable, refcounted table versions (DESIGN.md section
 * 6). A version lists the parts and memtables a reader sees; the table swaps
 * in a new version atomically under version_lock, and a reader holds one for
 * its whole query. A part or memtable is freed when the last version holding
 * it is released; a part that left the current version (obsolete) also has
 * its directory deleted then, never earlier, so no reader loses a file.
 */
#include <stdlib.h>
#include <string.h>

#include "storage/table_int.h"

void table_part_ref_release(table_part_ref *ref) {
    if (ref == NULL) return;
    if (atomic_fetch_sub_explicit(&ref->refs, 1, memory_order_acq_rel) != 1) return;
    part_close(ref->part);
    if (atomic_load_explicit(&ref->obsolete, memory_order_acquire)) {
        mu_err err;
        if (part_dir_remove(ref->dir, &err) != 0) {
            /* The files stay behind; startup does not load obsolete parts
             * twice because their rows are covered by the part that
             * replaced them (merges) and a warning tells the operator. */
            mu_log_err(MU_LOG_WARN, "table.part_remove_failed", &err);
        }
    }
    free(ref->dir);
    free(ref);
}

void table_memtable_ref_release(table_memtable_ref *ref) {
    if (ref == NULL) return;
    if (atomic_fetch_sub_explicit(&ref->refs, 1, memory_order_acq_rel) != 1) return;
    memtable_destroy(ref->mem);
    free(ref);
}

int table_version_create(uint32_t part_count, uint32_t memtable_count, table_version **out,
                         mu_err *err) {
    table_version *v = calloc(1, sizeof(*v));
    if (v != NULL && part_count > 0) v->parts = calloc(part_count, sizeof(*v->parts));
    if (v != NULL && memtable_count > 0) {
        v->memtables = calloc(memtable_count, sizeof(*v->memtables));
    }
    if (v == NULL || (part_count > 0 && v->parts == NULL) ||
        (memtable_count > 0 && v->memtables == NULL)) {
        if (v != NULL) free(v->parts);
        free(v);
        return MU_ERR(err, MU_ENOMEM, "cannot allocate a table version");
    }
    atomic_init(&v->refs, 1);
    *out = v;
    return 0;
}

void table_version_release(table_version *v) {
    if (v == NULL) return;
    if (atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) != 1) return;
    for (uint32_t i = 0; i < v->part_count; i++) table_part_ref_release(v->parts[i]);
    for (uint32_t i = 0; i < v->memtable_count; i++) {
        table_memtable_ref_release(v->memtables[i]);
    }
    free(v->parts);
    free(v->memtables);
    free(v);
}

table_version *table_version_acquire(table *t) {
    pthread_mutex_lock(&t->version_lock);
    table_version *v = t->current;
    atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
    pthread_mutex_unlock(&t->version_lock);
    return v;
}

/* Installs next as the current version (consumed) and drops the table's
 * reference to the previous one. */
void table__version_install(table *t, table_version *next) {
    pthread_mutex_lock(&t->version_lock);
    table_version *previous = t->current;
    t->current = next;
    pthread_mutex_unlock(&t->version_lock);
    table_version_release(previous);
}

/* Builds the next version from the current one: keeps every part and
 * memtable except those in drop_*, then appends add_parts and add_memtable.
 * Takes a new reference on everything it keeps; consumes the add_* refs. */
int table__version_derive(table *t, table_part_ref *const *add_parts, uint32_t add_part_count,
                          const table_memtable_ref *drop_memtable,
                          table_memtable_ref *add_memtable, table_version **out, mu_err *err) {
    table_version *cur = table_version_acquire(t);
    uint32_t parts = cur->part_count + add_part_count;
    uint32_t memtables = cur->memtable_count + (add_memtable != NULL);
    table_version *v = NULL;
    int rc = table_version_create(parts, memtables, &v, err);
    if (rc != 0) {
        table_version_release(cur);
        return rc;
    }
    for (uint32_t i = 0; i < cur->part_count; i++) {
        atomic_fetch_add_explicit(&cur->parts[i]->refs, 1, memory_order_relaxed);
        v->parts[v->part_count++] = cur->parts[i];
    }
    for (uint32_t i = 0; i < add_part_count; i++) v->parts[v->part_count++] = add_parts[i];
    for (uint32_t i = 0; i < cur->memtable_count; i++) {
        if (cur->memtables[i] == drop_memtable) continue;
        atomic_fetch_add_explicit(&cur->memtables[i]->refs, 1, memory_order_relaxed);
        v->memtables[v->memtable_count++] = cur->memtables[i];
    }
    if (add_memtable != NULL) v->memtables[v->memtable_count++] = add_memtable;
    table_version_release(cur);
    *out = v;
    return 0;
}

static int version_part_compare(const void *a, const void *b) {
    const table_part_ref *x = *(table_part_ref *const *)a, *y = *(table_part_ref *const *)b;
    uint64_t lx = part_get_info(x->part)->lsn_min, ly = part_get_info(y->part)->lsn_min;
    return lx < ly ? -1 : lx > ly;
}

void table__version_sort_parts(table_version *v) {
    if (v->part_count > 1) qsort(v->parts, v->part_count, sizeof(*v->parts), version_part_compare);
}
