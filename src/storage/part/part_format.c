/* part_format.c: the byte formats of a part's manifest and marks files and
 * the names of parts and their files (layouts: part.h, docs/formats/
 * part.md). Encoding is for the writer; decoding treats the bytes as
 * hostile: the checksum is verified first, then every count is checked
 * against the bytes that remain before anything is allocated, and every
 * failure is MU_ECORRUPT naming the file and the byte offset.
 */
#include "storage/part/part_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

static bool format_partition_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

bool part__partition_id_valid(const char *id, size_t id_bytes) {
    if (id_bytes == 0 || id_bytes > PART_PARTITION_ID_BYTES_MAX) return false;
    for (size_t i = 0; i < id_bytes; i++) {
        if (!format_partition_char(id[i])) return false;
    }
    return true;
}

int part_name_format(const char *partition_id, uint64_t lsn_min, uint64_t lsn_max,
                     uint32_t level, char *out, size_t out_bytes, mu_err *err) {
    MU_ASSERT(out != NULL && out_bytes > 0);
    if (partition_id == NULL || !part__partition_id_valid(partition_id, strlen(partition_id)))
        return MU_ERR(err, MU_EINVAL, "partition id must be 1..%u bytes of [A-Za-z0-9_-]",
                      PART_PARTITION_ID_BYTES_MAX);
    if (lsn_min > lsn_max)
        return MU_ERR(err, MU_EINVAL, "part LSN range %llu..%llu is reversed",
                      (unsigned long long)lsn_min, (unsigned long long)lsn_max);
    int n = snprintf(out, out_bytes, "%s_%llu_%llu_%u", partition_id,
                     (unsigned long long)lsn_min, (unsigned long long)lsn_max, level);
    if (n < 0 || (size_t)n >= out_bytes)
        return MU_ERR(err, MU_EINVAL, "part name longer than %zu bytes", out_bytes - 1);
    return 0;
}

/* Parses the decimal field that ends at name[end) and starts after the
 * last '_' before it; *start_out gets the position of that '_'. */
static bool format_name_number(const char *name, size_t end, uint64_t *value, size_t *start_out) {
    size_t start = end;
    while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9') start--;
    if (start == end || end - start > 20 || start == 0 || name[start - 1] != '_') return false;
    uint64_t v = 0;
    for (size_t i = start; i < end; i++) {
        unsigned digit = (unsigned)(name[i] - '0');
        if (v > (UINT64_MAX - digit) / 10) return false;
        v = v * 10 + digit;
    }
    *value = v;
    *start_out = start - 1;
    return true;
}

int part_name_parse(const char *name, char *partition_id_out, size_t partition_id_bytes,
                    uint64_t *lsn_min_out, uint64_t *lsn_max_out, uint32_t *level_out,
                    mu_err *err) {
    MU_ASSERT(name != NULL && partition_id_out != NULL && partition_id_bytes > 0);
    size_t end = strnlen(name, PART_NAME_BYTES_MAX + 1);
    uint64_t level = 0, lsn_max = 0, lsn_min = 0;
    bool ok = end <= PART_NAME_BYTES_MAX && format_name_number(name, end, &level, &end) &&
              level <= UINT32_MAX && format_name_number(name, end, &lsn_max, &end) &&
              format_name_number(name, end, &lsn_min, &end) && lsn_min <= lsn_max &&
              part__partition_id_valid(name, end) && end < partition_id_bytes;
    if (!ok) return MU_ERR(err, MU_EINVAL, "not a part name: %.200s", name);
    memcpy(partition_id_out, name, end);
    partition_id_out[end] = '\0';
    *lsn_min_out = lsn_min;
    *lsn_max_out = lsn_max;
    *level_out = (uint32_t)level;
    return 0;
}

static bool format_plain_char(uint8_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

char *part_column_file_stem(const char *column_name, size_t name_bytes, char *out) {
    MU_ASSERT(column_name != NULL && out != NULL);
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (size_t i = 0; i < name_bytes && n <= PART_FILE_STEM_BYTES_MAX; i++) {
        uint8_t c = (uint8_t)column_name[i];
        if (format_plain_char(c)) {
            if (n + 1 > PART_FILE_STEM_BYTES_MAX) { n = PART_FILE_STEM_BYTES_MAX + 1; break; }
            out[n++] = (char)c;
        } else {
            if (n + 3 > PART_FILE_STEM_BYTES_MAX) { n = PART_FILE_STEM_BYTES_MAX + 1; break; }
            out[n++] = '%';
            out[n++] = hex[c >> 4];
            out[n++] = hex[c & 15];
        }
    }
    if (n > PART_FILE_STEM_BYTES_MAX) {
        /* '~' is never produced by escaping, so hashed stems cannot collide
         * with escaped ones. */
        snprintf(out, PART_FILE_STEM_BYTES_MAX + 1, "~%016llx",
                 (unsigned long long)mu_xxhash64(column_name, name_bytes, 0));
        return out;
    }
    out[n] = '\0';
    return out;
}

/* ------------------------------------------------------------------ */
/* Codec chains                                                        */
/* ------------------------------------------------------------------ */

static bool format_is_compressor(uint8_t id) {
    return id == PART_CODEC_NONE || id == PART_CODEC_LZ4 || id == PART_CODEC_LZ4HC ||
           id == PART_CODEC_ZSTD;
}

void part__aux_chain(const part_codec_chain *chain, part_codec_chain *aux_out) {
    part_codec_chain_default(aux_out);
    for (unsigned i = 0; i < chain->step_count; i++) {
        if (!format_is_compressor(chain->steps[i].id)) continue;
        memset(aux_out, 0, sizeof(*aux_out));
        aux_out->step_count = 1;
        aux_out->steps[0] = chain->steps[i];
    }
    MU_ASSERT(aux_out->step_count == 1);
}

int part__codec_check(const part_codec_chain *chain, const ty_type *type, mu_err *err) {
    char name[128], chain_name[96];
    int rc = part_codec_chain_check(chain, err);
    if (rc != 0) return rc;
    mu_buf text;
    mu_buf_init(&text, 0);
    part_codec_chain parsed;
    rc = part_codec_chain_render(chain, &text, err);
    if (rc == 0)
        rc = part_codec_chain_parse((const char *)text.data, text.length_bytes,
                                    ty_type_value_bytes(type), &parsed, NULL);
    if (rc == MU_ENOMEM) rc = MU_ERR(err, MU_ENOMEM, "codec check: out of memory");
    if (rc == 0 && !part_codec_chain_equal(&parsed, chain)) rc = MU_EINVAL;
    if (rc != 0 && rc != MU_ENOMEM)
        rc = MU_ERR(err, MU_EINVAL, "codec %s does not apply to %s",
                    part_codec_chain_name(chain, chain_name, sizeof(chain_name)),
                    ty_type_name(type, name, sizeof(name)));
    mu_buf_deinit(&text);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Manifest encode                                                     */
/* ------------------------------------------------------------------ */

static int format_put_bytes(mu_buf *out, const void *data, size_t bytes, mu_err *err) {
    if (bytes > UINT32_MAX) return MU_ERR(err, MU_ETOO_LARGE, "manifest field over 4 GiB");
    int rc = mu_buf_append_u32le(out, (uint32_t)bytes, err);
    return rc ? rc : mu_buf_append(out, data, bytes, err);
}

static int format_put_str(mu_buf *out, const char *s, mu_err *err) {
    return format_put_bytes(out, s, s != NULL ? strlen(s) : 0, err);
}

static int format_put_column(mu_buf *out, const part__column *c, mu_err *err) {
    int rc = format_put_str(out, c->name, err);
    size_t at = out->length_bytes;
    if (rc == 0) rc = mu_buf_append_u32le(out, 0, err); /* type name length, patched */
    if (rc == 0) rc = ty_type_render(c->type, out, err);
    if (rc == 0) mu_store_u32le(out->data + at, (uint32_t)(out->length_bytes - at - 4));
    at = out->length_bytes;
    if (rc == 0) rc = mu_buf_append_u32le(out, 0, err); /* codec text length, patched */
    if (rc == 0) rc = part_codec_chain_render(&c->codec, out, err);
    if (rc == 0) mu_store_u32le(out->data + at, (uint32_t)(out->length_bytes - at - 4));
    return rc ? rc : mu_buf_append_u8(out, c->minmax ? 1 : 0, err);
}

static int format_put_head(mu_buf *out, const part__manifest *m, mu_err *err) {
    int rc = mu_buf_append(out, m->table_uuid, 16, err);
    if (rc == 0) rc = format_put_str(out, m->partition_id, err);
    if (rc == 0) rc = format_put_str(out, m->partition_value, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, m->lsn_min, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, m->lsn_max, err);
    if (rc == 0) rc = mu_buf_append_u32le(out, m->level, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, m->row_count, err);
    if (rc == 0) rc = mu_buf_append_u32le(out, m->granule_count, err);
    if (rc == 0) rc = mu_buf_append_u32le(out, m->index_granularity, err);
    if (rc == 0) rc = mu_buf_append_u8(out, m->has_ttl ? 1 : 0, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, m->ttl_min, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, m->ttl_max, err);
    return rc;
}

static int format_put_lists(mu_buf *out, const part__manifest *m, mu_err *err) {
    int rc = mu_buf_append_u32le(out, m->column_count, err);
    for (uint32_t i = 0; rc == 0 && i < m->column_count; i++)
        rc = format_put_column(out, &m->columns[i], err);
    if (rc == 0) rc = mu_buf_append_u32le(out, m->key_count, err);
    for (uint32_t i = 0; rc == 0 && i < m->key_count; i++)
        rc = mu_buf_append_u32le(out, m->key_columns[i], err);
    if (rc == 0) rc = format_put_bytes(out, m->key_first, m->key_first_bytes, err);
    if (rc == 0) rc = format_put_bytes(out, m->key_last, m->key_last_bytes, err);
    if (rc == 0) rc = mu_buf_append_u32le(out, m->token_count, err);
    for (uint32_t i = 0; rc == 0 && i < m->token_count; i++)
        rc = format_put_bytes(out, m->tokens[i].data, m->tokens[i].bytes, err);
    if (rc == 0) rc = mu_buf_append_u32le(out, m->file_count, err);
    for (uint32_t i = 0; rc == 0 && i < m->file_count; i++) {
        rc = format_put_str(out, m->files[i].name, err);
        if (rc == 0) rc = mu_buf_append_u64le(out, m->files[i].size_bytes, err);
        if (rc == 0) rc = mu_buf_append_u32le(out, m->files[i].crc32c, err);
    }
    return rc;
}

int part__manifest_encode(const part__manifest *m, mu_buf *out, mu_err *err) {
    MU_ASSERT(m != NULL && out != NULL);
    MU_ASSERT(m->column_count > 0 && m->granule_count > 0);
    size_t start = out->length_bytes;
    uint8_t header[PART__MANIFEST_HEADER_BYTES];
    memcpy(header, PART__MANIFEST_MAGIC, 4);
    mu_store_u16le(header + 4, PART_FORMAT_VERSION);
    mu_store_u16le(header + 6, 0);
    mu_store_u32le(header + 8, 0); /* body length, patched below */
    int rc = mu_buf_append(out, header, sizeof(header), err);
    if (rc == 0) rc = format_put_head(out, m, err);
    if (rc == 0) rc = format_put_lists(out, m, err);
    size_t body = out->length_bytes - start - PART__MANIFEST_HEADER_BYTES;
    if (rc == 0 && body + 16 > PART_MANIFEST_BYTES_MAX)
        rc = MU_ERR(err, MU_ETOO_LARGE, "manifest of %zu bytes is over the maximum", body);
    if (rc == 0) {
        mu_store_u32le(out->data + start + 8, (uint32_t)body);
        uint32_t crc = mu_crc32c(0, out->data + start, out->length_bytes - start);
        rc = mu_buf_append_u32le(out, crc, err);
    }
    if (rc != 0) out->length_bytes = start;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decoding helpers                                                    */
/* ------------------------------------------------------------------ */

typedef struct format_reader {
    const uint8_t *p;
    size_t n;
    size_t pos;
    const char *file;
    mu_err *err;
} format_reader;

static int format_corrupt(format_reader *r, const char *what) {
    return MU_CORRUPT(r->err, "%s: %s at byte %zu", r->file, what, r->pos);
}

static int format_need(format_reader *r, size_t count, size_t size) {
    size_t bytes;
    if (!mu_size_mul(count, size, &bytes) || bytes > r->n - r->pos)
        return format_corrupt(r, "truncated");
    return 0;
}

static int format_u8(format_reader *r, uint8_t *v) {
    if (format_need(r, 1, 1) != 0) return MU_ECORRUPT;
    *v = r->p[r->pos++];
    return 0;
}

static int format_u32(format_reader *r, uint32_t *v) {
    if (format_need(r, 1, 4) != 0) return MU_ECORRUPT;
    *v = mu_load_u32le(r->p + r->pos);
    r->pos += 4;
    return 0;
}

static int format_u64(format_reader *r, uint64_t *v) {
    if (format_need(r, 1, 8) != 0) return MU_ECORRUPT;
    *v = mu_load_u64le(r->p + r->pos);
    r->pos += 8;
    return 0;
}

/* u32 length + bytes, the length at most max_bytes; points into input. */
static int format_bytes(format_reader *r, uint32_t max_bytes, const uint8_t **data,
                        uint32_t *bytes) {
    size_t at = r->pos;
    int rc = format_u32(r, bytes);
    if (rc == 0 && *bytes > max_bytes) {
        r->pos = at;
        return format_corrupt(r, "field too long");
    }
    if (rc == 0) rc = format_need(r, *bytes, 1);
    if (rc != 0) return rc;
    *data = r->p + r->pos;
    r->pos += *bytes;
    return 0;
}

/* As format_bytes, copied into arena as a NUL-terminated string that must
 * not hold a NUL itself. */
static int format_str(format_reader *r, mu_arena *arena, uint32_t max_bytes, bool allow_empty,
                      const char **out) {
    const uint8_t *data = NULL;
    uint32_t bytes = 0;
    size_t at = r->pos;
    int rc = format_bytes(r, max_bytes, &data, &bytes);
    if (rc != 0) return rc;
    if ((bytes == 0 && !allow_empty) || (bytes > 0 && memchr(data, 0, bytes) != NULL)) {
        r->pos = at;
        return format_corrupt(r, "empty string or NUL byte");
    }
    char *s = mu_arena_strndup(arena, (const char *)data, bytes, r->err);
    if (s == NULL) return MU_ENOMEM;
    *out = s;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Manifest decode                                                     */
/* ------------------------------------------------------------------ */

static int format_get_head(format_reader *r, mu_arena *arena, part__manifest *m) {
    uint8_t has_ttl = 0;
    int rc = format_need(r, 16, 1);
    if (rc != 0) return rc;
    memcpy(m->table_uuid, r->p + r->pos, 16);
    r->pos += 16;
    size_t at = r->pos;
    rc = format_str(r, arena, PART_PARTITION_ID_BYTES_MAX, false, &m->partition_id);
    if (rc == 0 && !part__partition_id_valid(m->partition_id, strlen(m->partition_id))) {
        r->pos = at;
        return format_corrupt(r, "bad partition id");
    }
    if (rc == 0)
        rc = format_str(r, arena, PART_PARTITION_VALUE_BYTES_MAX, true, &m->partition_value);
    if (rc == 0) rc = format_u64(r, &m->lsn_min);
    if (rc == 0) rc = format_u64(r, &m->lsn_max);
    if (rc == 0) rc = format_u32(r, &m->level);
    if (rc == 0) rc = format_u64(r, &m->row_count);
    if (rc == 0) rc = format_u32(r, &m->granule_count);
    if (rc == 0) rc = format_u32(r, &m->index_granularity);
    if (rc == 0) rc = format_u8(r, &has_ttl);
    if (rc == 0) rc = format_u64(r, &m->ttl_min);
    if (rc == 0) rc = format_u64(r, &m->ttl_max);
    if (rc != 0) return rc;
    m->has_ttl = has_ttl == 1;
    if (m->lsn_min > m->lsn_max) return format_corrupt(r, "reversed LSN range");
    if (has_ttl > 1 || (m->has_ttl && m->ttl_min > m->ttl_max) ||
        (!m->has_ttl && (m->ttl_min != 0 || m->ttl_max != 0)))
        return format_corrupt(r, "bad TTL range");
    if (m->index_granularity == 0 || m->index_granularity > PART_INDEX_GRANULARITY_MAX ||
        m->row_count == 0 || m->granule_count == 0 || m->granule_count > m->row_count ||
        (uint64_t)m->granule_count * m->index_granularity < m->row_count)
        return format_corrupt(r, "bad row, granule or granularity count");
    return 0;
}

/* The type must parse and be exactly its canonical rendering. */
static int format_get_type(format_reader *r, mu_arena *arena, const ty_type **type_out) {
    const uint8_t *text = NULL;
    uint32_t bytes = 0;
    int rc = format_bytes(r, TY_TYPE_NAME_BYTES_MAX, &text, &bytes);
    if (rc != 0) return rc;
    size_t at = r->pos - bytes;
    mu_err parse_err;
    rc = ty_type_parse_n((const char *)text, bytes, arena, type_out, &parse_err);
    if (rc == MU_ENOMEM || rc == MU_EMEMLIMIT) return MU_ERR(r->err, rc, "%s", parse_err.message);
    mu_buf canonical;
    mu_buf_init(&canonical, 0);
    if (rc == 0) rc = ty_type_render(*type_out, &canonical, NULL);
    if (rc == 0 && (canonical.length_bytes != bytes || memcmp(canonical.data, text, bytes) != 0))
        rc = MU_ECORRUPT;
    mu_buf_deinit(&canonical);
    if (rc != 0) {
        r->pos = at;
        return format_corrupt(r, "bad or non-canonical type name");
    }
    return 0;
}

static int format_get_codec(format_reader *r, const ty_type *type, part_codec_chain *chain) {
    const uint8_t *text = NULL;
    uint32_t bytes = 0;
    int rc = format_bytes(r, 1024, &text, &bytes);
    if (rc != 0) return rc;
    size_t at = r->pos - bytes;
    rc = part_codec_chain_parse((const char *)text, bytes, ty_type_value_bytes(type), chain, NULL);
    mu_buf canonical;
    mu_buf_init(&canonical, 0);
    if (rc == 0) rc = part_codec_chain_render(chain, &canonical, NULL);
    if (rc == 0 && (canonical.length_bytes != bytes || memcmp(canonical.data, text, bytes) != 0))
        rc = MU_ECORRUPT;
    mu_buf_deinit(&canonical);
    if (rc != 0) {
        r->pos = at;
        return format_corrupt(r, "bad or non-canonical codec");
    }
    return 0;
}

static int format_get_column(format_reader *r, mu_arena *arena, part__column *c) {
    uint8_t flags = 0;
    int rc = format_str(r, arena, TY_COLUMN_NAME_BYTES_MAX, false, &c->name);
    if (rc == 0) rc = format_get_type(r, arena, &c->type);
    if (rc == 0) rc = format_get_codec(r, c->type, &c->codec);
    if (rc == 0) rc = format_u8(r, &flags);
    if (rc != 0) return rc;
    const ty_type *v = ty_type_strip_nullable(c->type);
    if (flags > 1 || (flags == 1 && (v->kind == TY_ARRAY || v->kind == TY_MAP))) {
        r->pos--;
        return format_corrupt(r, "bad column flags");
    }
    c->minmax = flags == 1;
    part_column_file_stem(c->name, strlen(c->name), c->file_stem);
    return 0;
}

static int format_compare_names(const void *a, const void *b) {
    return strcmp((*(const part__column *const *)a)->name, (*(const part__column *const *)b)->name);
}

/* Column names must be unique (sorted copy of pointers, then neighbours). */
static int format_check_unique(format_reader *r, const part__manifest *m) {
    const part__column **sorted = malloc((size_t)m->column_count * sizeof(*sorted));
    if (sorted == NULL) return MU_ERR(r->err, MU_ENOMEM, "manifest: out of memory");
    for (uint32_t i = 0; i < m->column_count; i++) sorted[i] = &m->columns[i];
    qsort(sorted, m->column_count, sizeof(*sorted), format_compare_names);
    int rc = 0;
    for (uint32_t i = 1; i < m->column_count && rc == 0; i++) {
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0 ||
            strcmp(sorted[i - 1]->file_stem, sorted[i]->file_stem) == 0)
            rc = format_corrupt(r, "duplicate column name");
    }
    free(sorted);
    return rc;
}

static int format_get_columns(format_reader *r, mu_arena *arena, part__manifest *m) {
    int rc = format_u32(r, &m->column_count);
    if (rc != 0) return rc;
    /* The smallest column entry is 13 bytes. */
    if (m->column_count == 0 || m->column_count > PART_COLUMNS_MAX ||
        (size_t)m->column_count * 13 > r->n - r->pos) {
        r->pos -= 4;
        return format_corrupt(r, "bad column count");
    }
    m->columns = mu_arena_calloc(arena, m->column_count, sizeof(part__column), r->err);
    if (m->columns == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; rc == 0 && i < m->column_count; i++)
        rc = format_get_column(r, arena, &m->columns[i]);
    return rc ? rc : format_check_unique(r, m);
}

static int format_get_key(format_reader *r, mu_arena *arena, part__manifest *m) {
    int rc = format_u32(r, &m->key_count);
    if (rc == 0 && (m->key_count > PART_KEY_COLUMNS_MAX || m->key_count > m->column_count))
        return format_corrupt(r, "bad key column count");
    if (rc == 0) rc = format_need(r, m->key_count, 4);
    if (rc != 0) return rc;
    m->key_columns = mu_arena_calloc(arena, m->key_count + 1, sizeof(uint32_t), r->err);
    if (m->key_columns == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; i < m->key_count; i++) {
        uint32_t index = mu_load_u32le(r->p + r->pos);
        for (uint32_t j = 0; j < i; j++) {
            if (m->key_columns[j] == index) index = UINT32_MAX;
        }
        if (index >= m->column_count) return format_corrupt(r, "bad key column");
        m->key_columns[i] = index;
        r->pos += 4;
    }
    rc = format_bytes(r, UINT32_MAX, &m->key_first, &m->key_first_bytes);
    if (rc == 0) rc = format_bytes(r, UINT32_MAX, &m->key_last, &m->key_last_bytes);
    return rc;
}

static int format_get_tokens(format_reader *r, mu_arena *arena, part__manifest *m) {
    int rc = format_u32(r, &m->token_count);
    /* The smallest token entry is 5 bytes. */
    if (rc == 0 && (m->token_count > PART_TOKENS_MAX ||
                    (size_t)m->token_count * 5 > r->n - r->pos))
        return format_corrupt(r, "bad token count");
    if (rc != 0) return rc;
    part_token *tokens = mu_arena_calloc(arena, m->token_count + 1, sizeof(part_token), r->err);
    if (tokens == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; rc == 0 && i < m->token_count; i++) {
        rc = format_bytes(r, PART_TOKEN_BYTES_MAX, &tokens[i].data, &tokens[i].bytes);
        if (rc == 0 && tokens[i].bytes == 0) rc = format_corrupt(r, "empty token");
    }
    m->tokens = tokens;
    return rc;
}

static int format_get_files(format_reader *r, mu_arena *arena, part__manifest *m) {
    int rc = format_u32(r, &m->file_count);
    /* The smallest file entry is 17 bytes. */
    if (rc == 0 && (m->file_count > 2 * m->column_count + 1 ||
                    (size_t)m->file_count * 17 > r->n - r->pos))
        return format_corrupt(r, "bad file count");
    if (rc != 0) return rc;
    m->files = mu_arena_calloc(arena, m->file_count + 1, sizeof(part__file), r->err);
    if (m->files == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; rc == 0 && i < m->file_count; i++) {
        rc = format_str(r, arena, PART_FILE_NAME_BYTES_MAX, false, &m->files[i].name);
        if (rc == 0) rc = format_u64(r, &m->files[i].size_bytes);
        if (rc == 0) rc = format_u32(r, &m->files[i].crc32c);
    }
    return rc;
}

static int format_get_envelope(format_reader *r, size_t *body_bytes, uint16_t *version_out) {
    if (r->n < PART__MANIFEST_HEADER_BYTES + 4) return format_corrupt(r, "truncated file");
    uint32_t stored = mu_load_u32le(r->p + r->n - 4);
    if (mu_crc32c(0, r->p, r->n - 4) != stored) {
        r->pos = r->n - 4;
        return format_corrupt(r, "checksum mismatch");
    }
    if (memcmp(r->p, PART__MANIFEST_MAGIC, 4) != 0) return format_corrupt(r, "bad magic");
    r->pos = 4;
    *version_out = mu_load_u16le(r->p + 4);
    if (*version_out < PART_FORMAT_VERSION_MIN || *version_out > PART_FORMAT_VERSION)
        return format_corrupt(r, "unknown format version");
    r->pos = 6;
    if (mu_load_u16le(r->p + 6) != 0) return format_corrupt(r, "unknown flags");
    r->pos = 8;
    *body_bytes = mu_load_u32le(r->p + 8);
    if (*body_bytes != r->n - PART__MANIFEST_HEADER_BYTES - 4)
        return format_corrupt(r, "body length does not match the file size");
    r->pos = PART__MANIFEST_HEADER_BYTES;
    r->n -= 4; /* the body ends before the checksum */
    return 0;
}

int part__manifest_decode(const uint8_t *bytes, size_t length_bytes, mu_arena *arena,
                          part__manifest *m, mu_err *err) {
    MU_ASSERT(bytes != NULL || length_bytes == 0);
    MU_ASSERT(arena != NULL && m != NULL);
    memset(m, 0, sizeof(*m));
    format_reader r = {.p = bytes, .n = length_bytes, .file = PART_MANIFEST_FILE, .err = err};
    size_t body = 0;
    int rc = format_get_envelope(&r, &body, &m->format_version);
    if (rc == 0) rc = format_get_head(&r, arena, m);
    if (rc == 0) rc = format_get_columns(&r, arena, m);
    if (rc == 0) rc = format_get_key(&r, arena, m);
    if (rc == 0) rc = format_get_tokens(&r, arena, m);
    if (rc == 0) rc = format_get_files(&r, arena, m);
    if (rc == 0 && r.pos != r.n) rc = format_corrupt(&r, "unexpected bytes after the file list");
    MU_ASSERT(rc != 0 || r.pos == PART__MANIFEST_HEADER_BYTES + body);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Marks                                                               */
/* ------------------------------------------------------------------ */

void part__marks_header(uint8_t out[PART__MARKS_HEADER_BYTES], uint16_t format_version,
                        uint32_t granule_count,
                        uint32_t column_count, uint32_t key_count, uint64_t row_count) {
    memcpy(out, PART__MARKS_MAGIC, 4);
    mu_store_u16le(out + 4, format_version);
    mu_store_u16le(out + 6, 0);
    mu_store_u32le(out + 8, granule_count);
    mu_store_u32le(out + 12, column_count);
    mu_store_u32le(out + 16, key_count);
    mu_store_u32le(out + 20, 0);
    mu_store_u64le(out + 24, row_count);
}

static int format_marks_header(format_reader *r, const part__manifest *m) {
    if (r->n < PART__MARKS_HEADER_BYTES + 4) return format_corrupt(r, "truncated file");
    uint32_t stored = mu_load_u32le(r->p + r->n - 4);
    if (mu_crc32c(0, r->p, r->n - 4) != stored) {
        r->pos = r->n - 4;
        return format_corrupt(r, "checksum mismatch");
    }
    r->n -= 4;
    uint8_t expected[PART__MARKS_HEADER_BYTES];
    part__marks_header(expected, m->format_version, m->granule_count, m->column_count, m->key_count, m->row_count);
    for (r->pos = 0; r->pos < PART__MARKS_HEADER_BYTES; r->pos++) {
        if (r->p[r->pos] != expected[r->pos])
            return format_corrupt(r, "header does not match the manifest");
    }
    return 0;
}

static int format_marks_alloc(format_reader *r, const part__manifest *m, mu_arena *arena,
                              part__marks *k) {
    size_t record = 4 + (size_t)PART__MARK_BYTES * m->column_count;
    int rc = format_need(r, m->granule_count, record);
    if (rc != 0) return rc;
    uint32_t g = m->granule_count;
    k->granule_count = g;
    k->column_count = m->column_count;
    k->row_count = m->row_count;
    k->granule_rows = mu_arena_calloc(arena, g, sizeof(uint32_t), r->err);
    k->granule_first_row = mu_arena_calloc(arena, g, sizeof(uint64_t), r->err);
    k->marks = mu_arena_calloc(arena, (size_t)g * m->column_count, sizeof(part__mark), r->err);
    k->keys = mu_arena_calloc(arena, g, sizeof(uint8_t *), r->err);
    k->key_bytes = mu_arena_calloc(arena, g, sizeof(uint32_t), r->err);
    if (!k->granule_rows || !k->granule_first_row || !k->marks || !k->keys || !k->key_bytes)
        return MU_ENOMEM;
    return 0;
}

/* Granule records: rows in 1..granularity adding up to the row count,
 * each column's granules back to back from offset 0. */
static int format_marks_records(format_reader *r, const part__manifest *m, part__marks *k) {
    uint64_t rows = 0;
    for (uint32_t g = 0; g < k->granule_count; g++) {
        uint32_t n = mu_load_u32le(r->p + r->pos);
        if (n == 0 || n > m->index_granularity || n > m->row_count - rows)
            return format_corrupt(r, "bad granule row count");
        k->granule_rows[g] = n;
        k->granule_first_row[g] = rows;
        rows += n;
        r->pos += 4;
        for (uint32_t c = 0; c < k->column_count; c++) {
            part__mark *mark = &k->marks[(size_t)g * k->column_count + c];
            mark->offset = mu_load_u64le(r->p + r->pos);
            mark->size_bytes = mu_load_u32le(r->p + r->pos + 8);
            mark->crc32c = mu_load_u32le(r->p + r->pos + 12);
            uint64_t expected = g == 0 ? 0 : mark[-(ptrdiff_t)k->column_count].offset +
                                             mark[-(ptrdiff_t)k->column_count].size_bytes;
            if (mark->offset != expected || mark->size_bytes == 0)
                return format_corrupt(r, "granules not back to back");
            r->pos += PART__MARK_BYTES;
        }
    }
    if (rows != m->row_count) return format_corrupt(r, "granule rows do not add up");
    return 0;
}

int part__marks_decode(const uint8_t *bytes, size_t length_bytes, const part__manifest *m,
                       mu_arena *arena, part__marks *marks, mu_err *err) {
    MU_ASSERT(bytes != NULL || length_bytes == 0);
    MU_ASSERT(m != NULL && arena != NULL && marks != NULL);
    memset(marks, 0, sizeof(*marks));
    format_reader r = {.p = bytes, .n = length_bytes, .file = PART_MARKS_FILE, .err = err};
    int rc = format_marks_header(&r, m);
    if (rc == 0) rc = format_marks_alloc(&r, m, arena, marks);
    if (rc == 0) rc = format_marks_records(&r, m, marks);
    for (uint32_t g = 0; rc == 0 && g < marks->granule_count; g++)
        rc = format_bytes(&r, UINT32_MAX, &marks->keys[g], &marks->key_bytes[g]);
    if (rc == 0 && r.pos != r.n) rc = format_corrupt(&r, "unexpected bytes after the keys");
    return rc;
}
