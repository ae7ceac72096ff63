/* part_reader.c: opening a published (or finished tmp_) part and reading
 * its columns. part_open verifies everything that is cheap to verify up
 * front: the manifest and marks checksums and fields, the exact set of
 * files and their sizes, and the keys; whole-file checksums are left to
 * part_verify_files. part_read verifies each granule's crc32c from the
 * marks before decoding it, so a damaged block is an error naming table,
 * part, column and granule, never a wrong row. An open part is immutable:
 * concurrent reads share nothing but read-only metadata.
 */
#include "storage/part/part_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reader_read_file(const part *p, const char *name, mu_buf *out, mu_err *err) {
    char path[IO_PATH_MAX_BYTES];
    int rc = part__path_join(path, p->dir, name, err);
    if (rc == 0) rc = io_read_file(path, out, err);
    if (rc == MU_ENOT_FOUND) return MU_CORRUPT(err, "%s: missing", name);
    if (rc == MU_ETOO_LARGE) return MU_CORRUPT(err, "%s: larger than the manifest says", name);
    return rc;
}

static int reader_compare_files(const void *a, const void *b) {
    return strcmp((*(const part__file *const *)a)->name, (*(const part__file *const *)b)->name);
}

/* Sorts the file list by name (for lookups); a name listed twice is
 * corruption. */
static int reader_sort_files(part *p, mu_err *err) {
    const part__manifest *m = &p->manifest;
    p->files_sorted = mu_arena_calloc(p->arena, m->file_count + 1, sizeof(part__file *), err);
    if (p->files_sorted == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; i < m->file_count; i++) p->files_sorted[i] = &m->files[i];
    qsort(p->files_sorted, m->file_count, sizeof(part__file *), reader_compare_files);
    for (uint32_t i = 1; i < m->file_count; i++) {
        if (strcmp(p->files_sorted[i - 1]->name, p->files_sorted[i]->name) == 0)
            return MU_CORRUPT(err, "manifest: file %s listed twice", p->files_sorted[i]->name);
    }
    return 0;
}

const part__file *part__find_file(const part *p, const char *name) {
    part__file key = {.name = name};
    const part__file *key_pointer = &key;
    const part__file **found = bsearch(&key_pointer, p->files_sorted, p->manifest.file_count,
                                       sizeof(part__file *), reader_compare_files);
    return found != NULL ? *found : NULL;
}

/* A listed file that must exist with exactly the listed size. */
static int reader_check_size(const part *p, const part__file *file, mu_err *err) {
    char path[IO_PATH_MAX_BYTES];
    uint64_t size = 0;
    int rc = part__path_join(path, p->dir, file->name, err);
    if (rc == 0) rc = io_path_size(path, &size, err);
    if (rc == MU_ENOT_FOUND) return MU_CORRUPT(err, "%s: missing", file->name);
    if (rc == 0 && size != file->size_bytes)
        rc = MU_CORRUPT(err, "%s: %llu bytes, the manifest says %llu", file->name,
                        (unsigned long long)size, (unsigned long long)file->size_bytes);
    return rc;
}

/* The file list must be exactly: marks, one .bin per column, one index
 * per minmax column, each once. */
static int reader_check_files(part *p, mu_err *err) {
    const part__manifest *m = &p->manifest;
    uint32_t expected = 1;
    int rc = reader_sort_files(p, err);
    if (rc != 0) return rc;
    const part__file *marks = part__find_file(p, PART_MARKS_FILE);
    rc = marks != NULL ? reader_check_size(p, marks, err)
                           : MU_CORRUPT(err, "manifest: marks not listed");
    for (uint32_t i = 0; rc == 0 && i < m->column_count; i++) {
        char name[PART_FILE_NAME_BYTES_MAX + 1];
        snprintf(name, sizeof(name), "%s.bin", m->columns[i].file_stem);
        const part__file *file = part__find_file(p, name);
        rc = file != NULL ? reader_check_size(p, file, err)
                          : MU_CORRUPT(err, "manifest: %s not listed", name);
        expected++;
        if (rc != 0 || !m->columns[i].minmax) continue;
        snprintf(name, sizeof(name), PART_INDEX_DIR "/minmax_%s.idx", m->columns[i].file_stem);
        if (part__find_file(p, name) == NULL)
            rc = MU_CORRUPT(err, "manifest: %s not listed", name);
        expected++;
    }
    if (rc == 0 && expected != m->file_count)
        rc = MU_CORRUPT(err, "manifest: %u files listed, the schema has %u", m->file_count,
                        expected);
    return rc;
}

/* Each column's last granule must end where its file ends. */
static int reader_check_marks_end(const part *p, mu_err *err) {
    const part__manifest *m = &p->manifest;
    const part__mark *last = &p->marks.marks[(size_t)(m->granule_count - 1) * m->column_count];
    for (uint32_t i = 0; i < m->column_count; i++) {
        char name[PART_FILE_NAME_BYTES_MAX + 1];
        snprintf(name, sizeof(name), "%s.bin", m->columns[i].file_stem);
        const part__file *file = part__find_file(p, name);
        if (last[i].offset + last[i].size_bytes != file->size_bytes)
            return MU_CORRUPT(err, "marks: column %.100s ends at byte %llu of %llu in %s",
                              m->columns[i].name,
                              (unsigned long long)(last[i].offset + last[i].size_bytes),
                              (unsigned long long)file->size_bytes, name);
    }
    return 0;
}

static int reader_create_key_columns(part *p, mu_err *err) {
    uint32_t k_count = p->manifest.key_count;
    p->key_range = calloc(k_count + 1, sizeof(ty_column *));
    p->first_keys = calloc(k_count + 1, sizeof(ty_column *));
    if (p->key_range == NULL || p->first_keys == NULL)
        return MU_ERR(err, MU_ENOMEM, "part: out of memory");
    int rc = 0;
    for (uint32_t k = 0; rc == 0 && k < k_count; k++) {
        const ty_type *type = p->manifest.columns[p->manifest.key_columns[k]].type;
        rc = ty_column_create(type, NULL, &p->key_range[k], err);
        if (rc == 0) rc = ty_column_create(type, NULL, &p->first_keys[k], err);
    }
    return rc;
}

static int reader_compare_key(const part *p, ty_column *const *a, uint32_t row_a,
                              ty_column *const *b, uint32_t row_b) {
    for (uint32_t k = 0; k < p->manifest.key_count; k++) {
        int c = ty_column_compare_rows(a[k], row_a, b[k], row_b);
        if (c != 0) return c;
    }
    return 0;
}

/* Decodes the key range and the first keys; they must be in order. */
static int reader_load_keys(part *p, mu_err *err) {
    const part__manifest *m = &p->manifest;
    uint32_t k_count = m->key_count, g_count = m->granule_count;
    int rc = reader_create_key_columns(p, err);
    if (rc == 0)
        rc = part__key_decode(p->key_range, k_count, m->key_first, m->key_first_bytes, err);
    if (rc == 0) rc = part__key_decode(p->key_range, k_count, m->key_last, m->key_last_bytes, err);
    if (rc != 0) {
        mu_err_prefix(err, "manifest: key range");
        return rc;
    }
    for (uint32_t g = 0; rc == 0 && g < g_count; g++) {
        rc = part__key_decode(p->first_keys, k_count, p->marks.keys[g], p->marks.key_bytes[g], err);
        if (rc != 0) mu_err_prefix(err, "marks: first key of granule %u", g);
    }
    for (uint32_t k = 0; rc == 0 && k < k_count; k++) {
        rc = ty_column_validate(p->key_range[k], err);
        if (rc == 0) rc = ty_column_validate(p->first_keys[k], err);
        if (rc != 0) mu_err_prefix(err, "keys");
    }
    if (rc != 0 || k_count == 0) return rc;
    if (reader_compare_key(p, p->key_range, 0, p->first_keys, 0) != 0 ||
        reader_compare_key(p, p->first_keys, g_count - 1, p->key_range, 1) > 0)
        return MU_CORRUPT(err, "marks: first keys do not match the manifest's key range");
    for (uint32_t g = 1; g < g_count; g++) {
        if (reader_compare_key(p, p->first_keys, g - 1, p->first_keys, g) > 0)
            return MU_CORRUPT(err, "marks: first key of granule %u is smaller than granule %u's",
                              g, g - 1);
    }
    return 0;
}

static int reader_check_name(part *p, const char *base, mu_err *err) {
    char name[PART_NAME_BYTES_MAX + 1];
    int rc = part_name_format(p->manifest.partition_id, p->manifest.lsn_min, p->manifest.lsn_max,
                              p->manifest.level, name, sizeof(name), err);
    if (rc != 0) return MU_CORRUPT(err, "manifest: bad part name fields");
    if (strcmp(base, name) != 0 && strncmp(base, "tmp_", 4) != 0)
        return MU_CORRUPT(err, "manifest: names part %s, the directory is %s", name, base);
    p->info.name = mu_arena_strndup(p->arena, name, strlen(name), err);
    return p->info.name != NULL ? 0 : MU_ENOMEM;
}

static void reader_fill_info(part *p) {
    const part__manifest *m = &p->manifest;
    part_info *info = &p->info;
    info->dir = p->dir;
    info->partition_id = m->partition_id;
    info->partition_value = m->partition_value;
    memcpy(info->table_uuid, m->table_uuid, 16);
    info->row_count = m->row_count;
    info->granule_count = m->granule_count;
    info->index_granularity = m->index_granularity;
    info->column_count = m->column_count;
    info->key_count = m->key_count;
    info->lsn_min = m->lsn_min;
    info->lsn_max = m->lsn_max;
    info->level = m->level;
    info->has_ttl = m->has_ttl;
    info->ttl_min = m->ttl_min;
    info->ttl_max = m->ttl_max;
    info->token_count = m->token_count;
    info->bytes_on_disk = p->manifest_bytes.length_bytes;
    for (uint32_t i = 0; i < m->file_count; i++) info->bytes_on_disk += m->files[i].size_bytes;
}

static int reader_load(part *p, const char *base, mu_err *err) {
    int rc = reader_read_file(p, PART_MANIFEST_FILE, &p->manifest_bytes, err);
    if (rc == 0)
        rc = part__manifest_decode(p->manifest_bytes.data, p->manifest_bytes.length_bytes,
                                   p->arena, &p->manifest, err);
    if (rc == 0) rc = reader_check_name(p, base, err);
    if (rc == 0) rc = reader_check_files(p, err);
    if (rc != 0) return rc;
    const part__file *marks = part__find_file(p, PART_MARKS_FILE);
    mu_buf_init(&p->marks_bytes, MU_MIN(marks->size_bytes, PART_MARKS_BYTES_MAX));
    rc = reader_read_file(p, PART_MARKS_FILE, &p->marks_bytes, err);
    if (rc == 0)
        rc = part__marks_decode(p->marks_bytes.data, p->marks_bytes.length_bytes, &p->manifest,
                                p->arena, &p->marks, err);
    if (rc == 0) rc = reader_check_marks_end(p, err);
    if (rc == 0) rc = reader_load_keys(p, err);
    if (rc == 0) reader_fill_info(p);
    return rc;
}

int part_open(part **part_out, const char *dir, const char *table_name, mu_err *err) {
    MU_ASSERT(part_out != NULL && dir != NULL);
    part *p = calloc(1, sizeof(*p));
    if (p == NULL) return MU_ERR(err, MU_ENOMEM, "part: out of memory");
    mu_buf_init(&p->manifest_bytes, PART_MANIFEST_BYTES_MAX);
    mu_buf_init(&p->marks_bytes, 1);
    p->dir = strdup(dir);
    p->table_name = strdup(table_name != NULL ? table_name : "?");
    char base[IO_PATH_MAX_BYTES];
    part__path_base(dir, base, sizeof(base));
    int rc = p->dir && p->table_name ? 0 : MU_ERR(err, MU_ENOMEM, "part: out of memory");
    if (rc == 0) rc = mu_arena_create(&p->arena, NULL, 16384, err);
    if (rc == 0) rc = reader_load(p, base, err);
    if (rc != 0) {
        mu_err_prefix(err, "table %s part %s", p->table_name, base);
        part_close(p);
        return rc;
    }
    MU_ASSERT(p->info.granule_count > 0 && p->info.row_count > 0);
    *part_out = p;
    return 0;
}

void part_close(part *p) {
    if (p == NULL) return;
    for (uint32_t k = 0; p->key_range != NULL && k < p->manifest.key_count; k++) {
        ty_column_destroy(p->key_range[k]);
        ty_column_destroy(p->first_keys[k]);
    }
    free(p->key_range);
    free(p->first_keys);
    mu_buf_deinit(&p->manifest_bytes);
    mu_buf_deinit(&p->marks_bytes);
    mu_arena_destroy(p->arena);
    free(p->dir);
    free(p->table_name);
    free(p);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */
/* ------------------------------------------------------------------ */

const part_info *part_get_info(const part *p) {
    MU_ASSERT(p != NULL);
    return &p->info;
}

const char *part_column_name(const part *p, uint32_t column_index) {
    MU_ASSERT(column_index < p->manifest.column_count);
    return p->manifest.columns[column_index].name;
}

const ty_type *part_column_type(const part *p, uint32_t column_index) {
    MU_ASSERT(column_index < p->manifest.column_count);
    return p->manifest.columns[column_index].type;
}

const part_codec_chain *part_column_codec(const part *p, uint32_t column_index) {
    MU_ASSERT(column_index < p->manifest.column_count);
    return &p->manifest.columns[column_index].codec;
}

bool part_column_has_minmax(const part *p, uint32_t column_index) {
    MU_ASSERT(column_index < p->manifest.column_count);
    return p->manifest.columns[column_index].minmax;
}

bool part_column_find(const part *p, const char *name, uint32_t *column_index_out) {
    MU_ASSERT(p != NULL && name != NULL);
    for (uint32_t i = 0; i < p->manifest.column_count; i++) {
        if (strcmp(p->manifest.columns[i].name, name) == 0) {
            if (column_index_out != NULL) *column_index_out = i;
            return true;
        }
    }
    return false;
}

uint32_t part_key_column(const part *p, uint32_t key_index) {
    MU_ASSERT(key_index < p->manifest.key_count);
    return p->manifest.key_columns[key_index];
}

const ty_column *part_key_range(const part *p, uint32_t key_index) {
    MU_ASSERT(key_index < p->manifest.key_count);
    return p->key_range[key_index];
}

const ty_column *part_first_keys(const part *p, uint32_t key_index) {
    MU_ASSERT(key_index < p->manifest.key_count);
    return p->first_keys[key_index];
}

uint32_t part_granule_rows(const part *p, uint32_t granule_index) {
    MU_ASSERT(granule_index < p->marks.granule_count);
    return p->marks.granule_rows[granule_index];
}

uint64_t part_granule_first_row(const part *p, uint32_t granule_index) {
    MU_ASSERT(granule_index < p->marks.granule_count);
    return p->marks.granule_first_row[granule_index];
}

const uint8_t *part_token_get(const part *p, uint32_t token_index, uint32_t *bytes_out) {
    MU_ASSERT(token_index < p->manifest.token_count && bytes_out != NULL);
    *bytes_out = p->manifest.tokens[token_index].bytes;
    return p->manifest.tokens[token_index].data;
}

/* ------------------------------------------------------------------ */
/* Reading columns                                                     */
/* ------------------------------------------------------------------ */

typedef struct reader_scan {
    const part *p;
    uint32_t column_index;
    io_file *file;
    mu_buf raw;
    part__decoder decoder;
} reader_scan;

static int reader_granule(reader_scan *s, uint32_t g, ty_column *out, mu_err *err) {
    const part *p = s->p;
    const part__column *column = &p->manifest.columns[s->column_index];
    const part__mark *mark = &p->marks.marks[(size_t)g * p->manifest.column_count +
                                             s->column_index];
    mu_buf_clear(&s->raw);
    int rc = mu_buf_reserve(&s->raw, mark->size_bytes, err);
    if (rc == 0) rc = io_pread_all(s->file, s->raw.data, mark->size_bytes, mark->offset, NULL, err);
    if (rc == 0 && mu_crc32c(0, s->raw.data, mark->size_bytes) != mark->crc32c)
        return MU_ERR(err, MU_ECHECKSUM, "table %s part %s column %.100s granule %u: checksum "
                      "mismatch in %s.bin at offset %llu", p->table_name, p->info.name,
                      column->name, g, column->file_stem, (unsigned long long)mark->offset);
    s->decoder.format_version = p->manifest.format_version;
    if (rc == 0)
        rc = part__granule_decode(&s->decoder, s->raw.data, mark->size_bytes,
                                  p->marks.granule_rows[g], out, err);
    if (rc != 0)
        mu_err_prefix(err, "table %s part %s column %.100s granule %u: %s.bin at offset %llu",
                      p->table_name, p->info.name, column->name, g, column->file_stem,
                      (unsigned long long)mark->offset);
    return rc;
}

static int reader_check_read(const part *p, uint32_t column_index, uint32_t first_granule,
                             uint32_t granule_count, const ty_column *out, mu_err *err) {
    const part__column *column = &p->manifest.columns[column_index];
    if (first_granule > p->marks.granule_count ||
        granule_count > p->marks.granule_count - first_granule)
        return MU_ERR(err, MU_EINVAL, "part %s: granules %u..+%u past the %u granules",
                      p->info.name, first_granule, granule_count, p->marks.granule_count);
    if (out->type != column->type && !ty_type_equal(out->type, column->type)) {
        char a[128], b[128];
        return MU_ERR(err, MU_ETYPE, "part %s column %.100s is %s, not %s", p->info.name,
                      column->name, ty_type_name(column->type, a, sizeof(a)),
                      ty_type_name(out->type, b, sizeof(b)));
    }
    return 0;
}

int part_read(const part *p, uint32_t column_index, uint32_t first_granule,
              uint32_t granule_count, ty_column *out, mu_err *err) {
    MU_ASSERT(p != NULL && out != NULL);
    MU_ASSERT(column_index < p->manifest.column_count);
    int rc = reader_check_read(p, column_index, first_granule, granule_count, out, err);
    if (rc != 0 || granule_count == 0) return rc;
    reader_scan s = {.p = p, .column_index = column_index};
    mu_buf_init(&s.raw, 0);
    part__decoder_init(&s.decoder);
    char name[PART_FILE_NAME_BYTES_MAX + 1], path[IO_PATH_MAX_BYTES];
    snprintf(name, sizeof(name), "%s.bin", p->manifest.columns[column_index].file_stem);
    uint32_t rows = ty_column_row_count(out);
    rc = part__path_join(path, p->dir, name, err);
    if (rc == 0) rc = io_open_read(&s.file, path, err);
    for (uint32_t g = first_granule; rc == 0 && g < first_granule + granule_count; g++)
        rc = reader_granule(&s, g, out, err);
    if (rc != 0) ty_column_truncate(out, rows);
    io_close(s.file, NULL); /* opened read-only */
    part__decoder_deinit(&s.decoder);
    mu_buf_deinit(&s.raw);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Whole-file verification                                             */
/* ------------------------------------------------------------------ */

#define READER_VERIFY_CHUNK_BYTES ((size_t)1 << 20)

static int reader_verify_file(const part *p, const part__file *file, mu_buf *chunk,
                              mu_err *err) {
    char path[IO_PATH_MAX_BYTES];
    io_file *f = NULL;
    uint64_t size = 0;
    int rc = part__path_join(path, p->dir, file->name, err);
    if (rc == 0) rc = io_open_read(&f, path, err);
    if (rc == 0) rc = io_file_size(f, &size, err);
    if (rc == 0 && size != file->size_bytes)
        rc = MU_CORRUPT(err, "%s: %llu bytes, the manifest says %llu", file->name,
                        (unsigned long long)size, (unsigned long long)file->size_bytes);
    uint32_t crc = 0;
    for (uint64_t at = 0; rc == 0 && at < size; at += READER_VERIFY_CHUNK_BYTES) {
        size_t n = (size_t)MU_MIN((uint64_t)READER_VERIFY_CHUNK_BYTES, size - at);
        rc = io_pread_all(f, chunk->data, n, at, NULL, err);
        if (rc == 0) crc = mu_crc32c(crc, chunk->data, n);
    }
    if (rc == 0 && crc != file->crc32c)
        rc = MU_ERR(err, MU_ECHECKSUM, "%s: checksum mismatch (crc32c 0x%08x, the manifest "
                    "says 0x%08x)", file->name, crc, file->crc32c);
    io_close(f, NULL); /* opened read-only */
    if (rc == MU_ENOT_FOUND) rc = MU_CORRUPT(err, "%s: missing", file->name);
    return rc;
}

int part_verify_files(const part *p, mu_err *err) {
    MU_ASSERT(p != NULL);
    mu_buf chunk;
    mu_buf_init(&chunk, 0);
    int rc = mu_buf_reserve(&chunk, READER_VERIFY_CHUNK_BYTES, err);
    for (uint32_t i = 0; rc == 0 && i < p->manifest.file_count; i++)
        rc = reader_verify_file(p, &p->manifest.files[i], &chunk, err);
    mu_buf_deinit(&chunk);
    if (rc != 0) {
        int code = rc == MU_ECHECKSUM ? MU_ECHECKSUM : MU_ECORRUPT;
        if (rc == MU_EREAD || rc == MU_EOPEN || rc == MU_ENOMEM) code = rc;
        if (err != NULL) err->code = code;
        mu_err_prefix(err, "table %s part %s", p->table_name, p->info.name);
        return code;
    }
    return 0;
}
