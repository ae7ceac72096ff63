/* fuzz_catalog_load.c: libFuzzer target for loading catalog.json
 * (src/storage/catalog_json.c). Any bytes must load or fail cleanly with a
 * refusal code, never crash, leak, assert or hang; whatever loads must
 * survive a rewrite (one mutation, then a reopen that sees the same catalog
 * plus the change). The first byte picks a mode. Raw (even): the rest is
 * the file. Fixed (odd): if the rest parses as a JSON object, its
 * content_crc32c is recomputed, so inputs reach the checks behind it.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/catalog.h"

static char fuzz_dir[256];
static char fuzz_file[320];

static void fuzz_init(void) {
    if (fuzz_dir[0] != '\0') return;
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/fuzz_catalog.XXXXXX", base);
    if (mkdtemp(fuzz_dir) == NULL) abort();
    snprintf(fuzz_file, sizeof(fuzz_file), "%s/%s", fuzz_dir, CATALOG_FILE_NAME);
    mu_log_set_level(MU_LOG_ERROR);
}

static void fuzz_write(const void *data, size_t size) {
    FILE *f = fopen(fuzz_file, "wb");
    if (f == NULL) abort();
    if (size > 0 && fwrite(data, 1, size, f) != size) abort();
    fclose(f);
}

/* Writes the input with a correct checksum when it is a JSON object. */
static void fuzz_write_fixed(const uint8_t *data, size_t size) {
    json_t *doc = json_loadb((const char *)data, size, 0, NULL);
    json_t *content = json_object_get(doc, "content");
    char *canonical = content != NULL ? json_dumps(content, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    char *text = NULL;
    if (canonical != NULL) {
        uint32_t crc = mu_crc32c(0, canonical, strlen(canonical));
        json_object_set_new(doc, "content_crc32c", json_integer(crc));
        text = json_dumps(doc, JSON_INDENT(2));
    }
    if (text != NULL) {
        fuzz_write(text, strlen(text));
    } else {
        fuzz_write(data, size);
    }
    free(text);
    free(canonical);
    json_decref(doc);
}

static bool fuzz_refusal(int rc) {
    return rc == MU_ECORRUPT || rc == MU_ENOT_SUPPORTED || rc == MU_ETOO_LARGE ||
           rc == MU_ENOMEM;
}

typedef struct fuzz_counts {
    uint64_t generation;
    size_t databases;
    size_t tables;
    size_t dropped;
} fuzz_counts;

static fuzz_counts fuzz_count(catalog *cat) {
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    fuzz_counts c = {catalog_snapshot_generation(s), catalog_snapshot_database_count(s),
                     catalog_snapshot_table_count(s), catalog_snapshot_dropped_count(s)};
    catalog_snapshot_release(s);
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    fuzz_init();
    if (data[0] & 1) {
        fuzz_write_fixed(data + 1, size - 1);
    } else {
        fuzz_write(data + 1, size - 1);
    }
    catalog *cat = NULL;
    mu_err err;
    int rc = catalog_open(&cat, fuzz_dir, &err);
    if (rc != 0) {
        if (!fuzz_refusal(rc) || cat != NULL) abort();
        return 0;
    }
    fuzz_counts before = fuzz_count(cat);
    catalog_database_def def = {.name = "fuzz.round_trip", .comment = "fuzz"};
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    bool existed = catalog_snapshot_find_database(s, def.name) != NULL;
    catalog_snapshot_release(s);
    rc = catalog_create_database(cat, &def, true, &err);
    bool full = before.databases >= CATALOG_DATABASES_MAX;
    if (rc != 0 && !(rc == MU_EINVAL && full)) abort();
    size_t added = rc == 0 && !existed ? 1 : 0;
    catalog_close(cat);
    /* What the catalog wrote must load and hold the same objects. */
    if (catalog_open(&cat, fuzz_dir, &err) != 0) abort();
    fuzz_counts after = fuzz_count(cat);
    if (after.databases != before.databases + added) abort();
    if (after.tables != before.tables || after.dropped != before.dropped) abort();
    if (after.generation != before.generation + added) abort();
    catalog_close(cat);
    return 0;
}
