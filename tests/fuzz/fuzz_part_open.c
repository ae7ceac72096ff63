/* fuzz_part_open.c: libFuzzer target for the part reader
 * (src/storage/part). part_open, part_read of every column, every minmax
 * index and part_verify_files must never crash, leak, assert or hang on
 * any bytes in a part's files.
 *
 * A valid small part (every kind of stream: Nullable, String, Array,
 * Map, LowCardinality, a key and minmax indexes) is written once. The
 * first input byte picks the file (bits 0-1: manifest, marks, the minmax
 * index of the key column, a column file) and the mode (bit 2): raw mode
 * replaces the file with the rest of the input; patch mode reads the rest
 * as (u16 offset, u8 xor) triples applied to the valid file, then fixes
 * its trailing crc32c so the damage reaches the field checks behind the
 * checksum. The valid file is restored after each run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/part/part.h"

#define FUZZ_ROWS 40u
#define FUZZ_FILE_BYTES_MAX (1u << 20)

static char fuzz_dir[256];
static char fuzz_paths[4][512];
static uint8_t *fuzz_originals[4];
static size_t fuzz_original_bytes[4];

static void fuzz_check(int rc) {
    if (rc != 0) abort();
}

static ty_column *fuzz_column(const char *type_name, mu_arena *arena) {
    const ty_type *type = NULL;
    ty_column *c = NULL;
    fuzz_check(ty_type_parse(type_name, arena, &type, NULL));
    fuzz_check(ty_column_create(type, NULL, &c, NULL));
    return c;
}

/* Rows of text, one per column, so every stream has values and NULLs. */
static void fuzz_fill(ty_column **c) {
    for (uint32_t r = 0; r < FUZZ_ROWS; r++) {
        char text[64];
        uint64_t ts = r * 3;
        fuzz_check(ty_column_append_value(c[0], &ts, NULL));
        int n = snprintf(text, sizeof(text), "msg %u", r * 7 % 13);
        fuzz_check(r % 5 == 0 ? ty_column_append_null(c[1], NULL)
                              : ty_column_append_bytes(c[1], text, (size_t)n, NULL));
        n = r % 3 == 0 ? snprintf(text, sizeof(text), "[]")
                       : snprintf(text, sizeof(text), "[%u,NULL,%u]", r, r * 2);
        fuzz_check(ty_column_append_text(c[2], text, (size_t)n, NULL));
        n = snprintf(text, sizeof(text), "{'k%u':%u}", r % 4, r);
        fuzz_check(ty_column_append_text(c[3], text, (size_t)n, NULL));
        n = snprintf(text, sizeof(text), "svc%u", r % 3);
        fuzz_check(ty_column_append_bytes(c[4], text, (size_t)n, NULL));
    }
}

static uint8_t *fuzz_read(const char *path, size_t *bytes) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) abort();
    uint8_t *data = malloc(FUZZ_FILE_BYTES_MAX);
    *bytes = fread(data, 1, FUZZ_FILE_BYTES_MAX, f);
    fclose(f);
    return data;
}

static void fuzz_write(const char *path, const uint8_t *data, size_t bytes) {
    FILE *f = fopen(path, "wb");
    if (f == NULL) abort();
    if (bytes > 0 && fwrite(data, 1, bytes, f) != bytes) abort();
    fclose(f);
}

static void fuzz_init(void) {
    if (fuzz_dir[0] != '\0') return;
    mu_log_set_level(MU_LOG_ERROR);
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    char root[200];
    snprintf(root, sizeof(root), "%s/fuzz_part.XXXXXX", base);
    if (mkdtemp(root) == NULL) abort();
    snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/202401_1_5_0", root);
    mu_arena *arena = NULL;
    fuzz_check(mu_arena_create(&arena, NULL, 4096, NULL));
    static const char *types[] = {"UInt64", "Nullable(String)", "Array(Nullable(Int32))",
                                  "Map(String, UInt64)", "LowCardinality(String)"};
    static const char *names[] = {"ts", "msg", "arr", "map", "svc"};
    ty_column *c[5];
    part_column_def defs[5];
    for (int i = 0; i < 5; i++) {
        c[i] = fuzz_column(types[i], arena);
        defs[i] = (part_column_def){.name = names[i], .type = c[i]->type,
                                    .minmax = i != 2 && i != 3};
    }
    fuzz_fill(c);
    static const uint32_t key = 0;
    part_schema schema = {.columns = defs, .column_count = 5, .key_columns = &key,
                          .key_count = 1, .index_granularity = 16};
    static const part_token token = {(const uint8_t *)"token", 5};
    part_meta meta = {.partition_id = "202401", .partition_value = "2024-01", .lsn_min = 1,
                      .lsn_max = 5, .tokens = &token, .token_count = 1};
    part_writer *w = NULL;
    fuzz_check(part_writer_open(&w, fuzz_dir, &schema, NULL, NULL));
    fuzz_check(part_writer_append(w, (const ty_column *const *)c, 0, FUZZ_ROWS, NULL));
    fuzz_check(part_writer_finish(w, &meta, NULL));
    part_writer_close(w);
    static const char *files[] = {"manifest", "marks", "idx/minmax_ts.idx", "msg.bin"};
    for (int i = 0; i < 4; i++) {
        snprintf(fuzz_paths[i], sizeof(fuzz_paths[i]), "%s/%s", fuzz_dir, files[i]);
        fuzz_originals[i] = fuzz_read(fuzz_paths[i], &fuzz_original_bytes[i]);
    }
    for (int i = 0; i < 5; i++) ty_column_destroy(c[i]);
    mu_arena_destroy(arena);
}

/* Applies (u16 offset, u8 xor) triples and fixes the trailing crc32c. */
static size_t fuzz_patch(int file, const uint8_t *data, size_t size, uint8_t *out) {
    size_t bytes = fuzz_original_bytes[file];
    memcpy(out, fuzz_originals[file], bytes);
    for (size_t i = 0; i + 3 <= size; i += 3) {
        size_t at = ((size_t)data[i] << 8 | data[i + 1]) % bytes;
        out[at] ^= data[i + 2];
    }
    if (bytes >= 4 && file != 3)
        mu_store_u32le(out + bytes - 4, mu_crc32c(0, out, bytes - 4));
    return bytes;
}

/* Reads everything the part offers; touches every value. */
static void fuzz_exercise(const part *p) {
    const part_info *info = part_get_info(p);
    for (uint32_t c = 0; c < info->column_count; c++) {
        ty_column *out = NULL;
        if (ty_column_create(part_column_type(p, c), NULL, &out, NULL) != 0) abort();
        mu_err err;
        if (part_read(p, c, 0, info->granule_count, out, &err) == 0 &&
            ty_column_validate(out, &err) != 0)
            abort(); /* a successful read must give a valid column */
        ty_column_destroy(out);
        part_minmax minmax;
        if (part_minmax_load(p, c, &minmax, &err) == 0 &&
            minmax.granule_count != info->granule_count)
            abort();
        part_minmax_deinit(&minmax);
    }
    mu_err err;
    (void)part_verify_files(p, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0 || size > FUZZ_FILE_BYTES_MAX) return 0;
    fuzz_init();
    int file = data[0] & 3;
    static uint8_t patched[FUZZ_FILE_BYTES_MAX];
    if (data[0] & 4) {
        size_t bytes = fuzz_patch(file, data + 1, size - 1, patched);
        fuzz_write(fuzz_paths[file], patched, bytes);
    } else {
        fuzz_write(fuzz_paths[file], data + 1, size - 1);
    }
    part *p = NULL;
    mu_err err;
    if (part_open(&p, fuzz_dir, "fuzz", &err) == 0) fuzz_exercise(p);
    part_close(p);
    fuzz_write(fuzz_paths[file], fuzz_originals[file], fuzz_original_bytes[file]);
    return 0;
}
