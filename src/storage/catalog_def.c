/* catalog_def.c: what a valid catalog object is, and the entries that hold
 * one. Every table and database definition passes through the builders
 * here, whether it comes from a caller or from catalog.json, so a stored
 * entry always satisfies the same rules: names non-empty, at most
 * CATALOG_NAME_BYTES_MAX bytes, valid UTF-8 (database and table names
 * without '/'), column/setting/index names unique, types canonical, the
 * primary key a prefix of the sort key. Also UUIDs and table paths.
 */
#include "storage/catalog_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define CATALOG_ENTRY_ARENA_BYTES 1024 /* most definitions fit one or two blocks */
#define CATALOG_MESSAGE_NAME_BYTES 96 /* how much of a bad name a message shows */

/* ------------------------------------------------------------------ */
/* UUIDs                                                               */
/* ------------------------------------------------------------------ */

char *catalog_uuid_format(const catalog_uuid *uuid, char out[CATALOG_UUID_TEXT_BYTES]) {
    static const char digits[] = "0123456789abcdef";
    MU_ASSERT(uuid != NULL);
    size_t at = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[at++] = '-';
        out[at++] = digits[uuid->bytes[i] >> 4];
        out[at++] = digits[uuid->bytes[i] & 15];
    }
    out[at] = '\0';
    MU_ASSERT(at == CATALOG_UUID_TEXT_BYTES - 1);
    return out;
}

static int catalog_hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int catalog_uuid_parse(const char *text, catalog_uuid *uuid_out, mu_err *err) {
    MU_ASSERT(text != NULL);
    MU_ASSERT(uuid_out != NULL);
    size_t length = strnlen(text, CATALOG_UUID_TEXT_BYTES);
    if (length != CATALOG_UUID_TEXT_BYTES - 1) goto bad;
    catalog_uuid uuid;
    size_t at = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            if (text[at++] != '-') goto bad;
        }
        int high = catalog_hex_value(text[at++]);
        int low = catalog_hex_value(text[at++]);
        if (high < 0 || low < 0) goto bad;
        uuid.bytes[i] = (uint8_t)(high << 4 | low);
    }
    *uuid_out = uuid;
    return 0;
bad:
    return MU_ERR(err, MU_EINVAL,
                  "bad UUID \"%.*s\": expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
                  CATALOG_MESSAGE_NAME_BYTES, text);
}

int catalog_uuid_generate(catalog_uuid *uuid_out, mu_err *err) {
    MU_ASSERT(uuid_out != NULL);
    catalog_uuid uuid;
    size_t got = 0;
    /* getrandom on 16 bytes returns them all unless interrupted; the bound
     * only guards against a kernel that keeps returning short reads. */
    for (int attempt = 0; attempt < 16 && got < sizeof(uuid.bytes); attempt++) {
        ssize_t n = getrandom(uuid.bytes + got, sizeof(uuid.bytes) - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return MU_ERR_SYS(err, MU_EIO, errno, "getrandom for a UUID");
        got += (size_t)n;
    }
    if (got != sizeof(uuid.bytes)) return MU_ERR(err, MU_EIO, "getrandom: short read for a UUID");
    uuid.bytes[6] = (uint8_t)((uuid.bytes[6] & 0x0f) | 0x40); /* version 4 */
    uuid.bytes[8] = (uint8_t)((uuid.bytes[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    *uuid_out = uuid;
    return 0;
}

bool catalog_uuid_equal(const catalog_uuid *a, const catalog_uuid *b) {
    return memcmp(a->bytes, b->bytes, sizeof(a->bytes)) == 0;
}

bool catalog_uuid_is_nil(const catalog_uuid *uuid) {
    static const catalog_uuid nil;
    return catalog_uuid_equal(uuid, &nil);
}

/* ------------------------------------------------------------------ */
/* Enumerations and names                                              */
/* ------------------------------------------------------------------ */

static const char *const catalog_engine_names[CATALOG_ENGINE_COUNT] = {
    [CATALOG_ENGINE_MERGE_TREE] = "MergeTree",
    [CATALOG_ENGINE_REPLACING_MERGE_TREE] = "ReplacingMergeTree",
    [CATALOG_ENGINE_SUMMING_MERGE_TREE] = "SummingMergeTree",
    [CATALOG_ENGINE_AGGREGATING_MERGE_TREE] = "AggregatingMergeTree",
};

const char *catalog_engine_name(catalog_engine engine) {
    if ((unsigned)engine >= CATALOG_ENGINE_COUNT) return NULL;
    return catalog_engine_names[engine];
}

int catalog_engine_parse(const char *name, catalog_engine *engine_out, mu_err *err) {
    MU_ASSERT(name != NULL);
    for (unsigned i = 0; i < CATALOG_ENGINE_COUNT; i++) {
        if (strcmp(name, catalog_engine_names[i]) == 0) {
            *engine_out = (catalog_engine)i;
            return 0;
        }
    }
    return MU_ERR(err, MU_EINVAL, "unknown table engine \"%.*s\": expected MergeTree, "
                  "ReplacingMergeTree, SummingMergeTree or AggregatingMergeTree",
                  CATALOG_MESSAGE_NAME_BYTES, name);
}

static const char *const catalog_default_kind_names[CATALOG_DEFAULT_KIND_COUNT] = {
    [CATALOG_DEFAULT_NONE] = "",
    [CATALOG_DEFAULT_DEFAULT] = "DEFAULT",
    [CATALOG_DEFAULT_MATERIALIZED] = "MATERIALIZED",
    [CATALOG_DEFAULT_ALIAS] = "ALIAS",
};

const char *catalog_default_kind_name(catalog_default_kind kind) {
    if ((unsigned)kind >= CATALOG_DEFAULT_KIND_COUNT) return NULL;
    return catalog_default_kind_names[kind];
}

bool catalog_database_name_reserved(const char *name) {
    MU_ASSERT(name != NULL);
    return strcmp(name, "system") == 0 || strcmp(name, "information_schema") == 0 ||
           strcmp(name, "INFORMATION_SCHEMA") == 0;
}

bool catalog__utf8_valid(const char *bytes, size_t length_bytes) {
    const uint8_t *p = (const uint8_t *)bytes;
    size_t i = 0;
    while (i < length_bytes) {
        uint8_t c = p[i];
        size_t extra;
        uint32_t cp;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xc2 && c <= 0xdf) { extra = 1; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { extra = 2; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { extra = 3; cp = c & 0x07; }
        else return false;
        if (length_bytes - i <= extra) return false;
        for (size_t k = 1; k <= extra; k++) {
            if ((p[i + k] & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        /* Overlong forms, UTF-16 surrogates and values past U+10FFFF. */
        if ((extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000)) return false;
        if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return false;
        i += extra + 1;
    }
    return true;
}

int catalog__name_check(const char *what, const char *name, bool path_safe, mu_err *err) {
    MU_ASSERT(what != NULL);
    if (name == NULL || name[0] == '\0') return MU_ERR(err, MU_EINVAL, "empty %s name", what);
    size_t length = strnlen(name, CATALOG_NAME_BYTES_MAX + 1);
    if (length > CATALOG_NAME_BYTES_MAX) {
        return MU_ERR(err, MU_EINVAL, "%s name \"%.*s...\" is longer than %d bytes", what,
                      CATALOG_MESSAGE_NAME_BYTES, name, CATALOG_NAME_BYTES_MAX);
    }
    if (!catalog__utf8_valid(name, length)) {
        return MU_ERR(err, MU_EINVAL, "%s name \"%s\" is not valid UTF-8", what, name);
    }
    if (path_safe && strchr(name, '/') != NULL) {
        return MU_ERR(err, MU_EINVAL, "%s name \"%s\" contains '/'", what, name);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Copying checked text into an entry                                  */
/* ------------------------------------------------------------------ */

/* Checks SQL or comment text (NULL means "") and copies it into arena. */
static int catalog_text_copy(mu_arena *arena, const char *what, const char *text, bool required,
                             const char **out, mu_err *err) {
    if (text == NULL) text = "";
    size_t length = strnlen(text, CATALOG_TEXT_BYTES_MAX + 1);
    if (required && length == 0) return MU_ERR(err, MU_EINVAL, "%s is empty", what);
    if (length > CATALOG_TEXT_BYTES_MAX) {
        return MU_ERR(err, MU_EINVAL, "%s is longer than %u bytes", what, CATALOG_TEXT_BYTES_MAX);
    }
    if (!catalog__utf8_valid(text, length)) {
        return MU_ERR(err, MU_EINVAL, "%s is not valid UTF-8", what);
    }
    char *copy = mu_arena_strndup(arena, text, length, err);
    if (copy == NULL) return MU_ENOMEM;
    *out = copy;
    return 0;
}

static int catalog_name_copy(mu_arena *arena, const char *what, const char *name, bool path_safe,
                             const char **out, mu_err *err) {
    int rc = catalog__name_check(what, name, path_safe, err);
    if (rc != 0) return rc;
    char *copy = mu_arena_strndup(arena, name, strlen(name), err);
    if (copy == NULL) return MU_ENOMEM;
    *out = copy;
    return 0;
}

static int catalog_compare_strings(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* names[0..count) are already checked; MU_EINVAL names the first duplicate.
 * Sorting a copy keeps this O(n log n) for the widest tables. */
static int catalog_unique_check(const char *what, const char *const *names, uint32_t count,
                                mu_err *err) {
    if (count < 2) return 0;
    const char **sorted = malloc(sizeof(*sorted) * count);
    if (sorted == NULL) return MU_ERR(err, MU_ENOMEM, "checking %s names: out of memory", what);
    memcpy(sorted, names, sizeof(*sorted) * count);
    qsort(sorted, count, sizeof(*sorted), catalog_compare_strings);
    int rc = 0;
    for (uint32_t i = 1; i < count && rc == 0; i++) {
        if (strcmp(sorted[i - 1], sorted[i]) == 0) {
            rc = MU_ERR(err, strcmp(what, "column") == 0 ? MU_EDUPLICATE_COLUMN : MU_EINVAL,
                        "duplicate %s name \"%s\"", what, sorted[i]);
        }
    }
    free(sorted);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Table definitions                                                   */
/* ------------------------------------------------------------------ */

/* Parses the column's type into arena (ty_type_parse's error, prefixed with
 * the column) and stores its canonical rendering, after checking that the
 * rendering parses back to the same type: a stored type that no longer
 * parsed would make the catalog unloadable after a restart. */
static int catalog_column_type_copy(mu_arena *arena, const char *type_text, catalog_column *out,
                                    const ty_type **type_out, mu_err *err) {
    if (type_text == NULL || type_text[0] == '\0') {
        return MU_ERR(err, MU_EINVAL, "column %s: empty type", out->name);
    }
    int rc = ty_type_parse(type_text, arena, type_out, err);
    if (rc != 0) {
        mu_err_prefix(err, "column %s", out->name);
        return rc;
    }
    mu_buf canonical;
    mu_buf_init(&canonical, CATALOG_TEXT_BYTES_MAX);
    rc = ty_type_render(*type_out, &canonical, err);
    if (rc == 0) rc = mu_buf_append_u8(&canonical, 0, err);
    if (rc == 0) {
        rc = catalog_text_copy(arena, "column type", (const char *)canonical.data, true,
                               &out->type, err);
    }
    const ty_type *again = NULL;
    if (rc == 0 && (ty_type_parse(out->type, arena, &again, NULL) != 0 ||
                    !ty_type_equal(again, *type_out))) {
        rc = MU_ERR(err, MU_ENOT_SUPPORTED, "type %.*s cannot be stored: its canonical form "
                    "does not parse back to it", CATALOG_MESSAGE_NAME_BYTES, out->type);
    }
    if (rc != 0) mu_err_prefix(err, "column %s", out->name);
    mu_buf_deinit(&canonical);
    return rc;
}

static int catalog_column_copy(mu_arena *arena, const catalog_column *in, catalog_column *out,
                               const ty_type **type_out, mu_err *err) {
    int rc = catalog_name_copy(arena, "column", in->name, false, &out->name, err);
    if (rc != 0) return rc;
    rc = catalog_column_type_copy(arena, in->type, out, type_out, err);
    if (rc != 0) return rc;
    if ((unsigned)in->default_kind >= CATALOG_DEFAULT_KIND_COUNT) {
        return MU_ERR(err, MU_EINVAL, "column %s: bad default kind %d", out->name,
                      (int)in->default_kind);
    }
    out->default_kind = in->default_kind;
    bool has_default = in->default_kind != CATALOG_DEFAULT_NONE;
    if (!has_default && in->default_expression != NULL && in->default_expression[0] != '\0') {
        return MU_ERR(err, MU_EINVAL, "column %s: default expression without a default kind",
                      out->name);
    }
    rc = catalog_text_copy(arena, "default expression", in->default_expression, has_default,
                           &out->default_expression, err);
    if (rc == 0) rc = catalog_text_copy(arena, "codec", in->codec, false, &out->codec, err);
    if (rc == 0) rc = catalog_text_copy(arena, "comment", in->comment, false, &out->comment, err);
    if (rc != 0) mu_err_prefix(err, "column %s", out->name);
    return rc;
}

static int catalog_columns_copy(mu_arena *arena, const catalog_table_def *in, catalog_table *out,
                                mu_err *err) {
    uint32_t count = in->column_count;
    if (count == 0 || in->columns == NULL) return MU_ERR(err, MU_EINVAL, "table has no columns");
    if (count > CATALOG_COLUMNS_MAX) {
        return MU_ERR(err, MU_EINVAL, "table has %u columns, more than %d", count,
                      CATALOG_COLUMNS_MAX);
    }
    catalog_column *columns = mu_arena_calloc(arena, count, sizeof(*columns), err);
    const char **names = mu_arena_calloc(arena, count, sizeof(*names), err);
    const ty_type **types = mu_arena_calloc(arena, count, sizeof(*types), err);
    if (columns == NULL || names == NULL || types == NULL) return MU_ENOMEM;
    uint32_t physical = 0;
    for (uint32_t i = 0; i < count; i++) {
        int rc = catalog_column_copy(arena, &in->columns[i], &columns[i], &types[i], err);
        if (rc != 0) return rc;
        names[i] = columns[i].name;
        if (columns[i].default_kind != CATALOG_DEFAULT_ALIAS) physical++;
    }
    int rc = catalog_unique_check("column", names, count, err);
    if (rc != 0) return rc;
    if (physical == 0) return MU_ERR(err, MU_EINVAL, "table has only ALIAS columns");
    out->def.columns = columns;
    out->def.column_count = count;
    out->column_names = names;
    out->column_types = types;
    return 0;
}

static int catalog_text_list_copy(mu_arena *arena, const char *what, const char *const *in,
                                  uint32_t count, const char *const **out, mu_err *err) {
    if (count > CATALOG_KEY_ELEMENTS_MAX) {
        return MU_ERR(err, MU_EINVAL, "%s has %u elements, more than %d", what, count,
                      CATALOG_KEY_ELEMENTS_MAX);
    }
    if (count > 0 && in == NULL) return MU_ERR(err, MU_EINVAL, "%s: elements missing", what);
    const char **list = mu_arena_calloc(arena, MU_MAX(count, 1u), sizeof(*list), err);
    if (list == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; i < count; i++) {
        int rc = catalog_text_copy(arena, "expression", in[i], true, &list[i], err);
        if (rc != 0) {
            mu_err_prefix(err, "%s element %u", what, i + 1);
            return rc;
        }
    }
    *out = list;
    return 0;
}

/* ORDER BY, PRIMARY KEY (a prefix of ORDER BY, compared as text), PARTITION
 * BY and TTL. */
static int catalog_keys_copy(mu_arena *arena, const catalog_table_def *in, catalog_table *out,
                             mu_err *err) {
    catalog_table_def *def = &out->def;
    int rc = catalog_text_list_copy(arena, "ORDER BY", in->order_by, in->order_by_count,
                                    &def->order_by, err);
    if (rc == 0) {
        rc = catalog_text_list_copy(arena, "PRIMARY KEY", in->primary_key, in->primary_key_count,
                                    &def->primary_key, err);
    }
    if (rc != 0) return rc;
    def->order_by_count = in->order_by_count;
    def->primary_key_count = in->primary_key_count;
    if (def->primary_key_count > def->order_by_count) {
        return MU_ERR(err, MU_EINVAL, "PRIMARY KEY has %u elements, ORDER BY only %u: the "
                      "primary key must be a prefix of the sorting key",
                      def->primary_key_count, def->order_by_count);
    }
    for (uint32_t i = 0; i < def->primary_key_count; i++) {
        if (strcmp(def->primary_key[i], def->order_by[i]) != 0) {
            return MU_ERR(err, MU_EINVAL, "PRIMARY KEY element %u (%.*s) differs from ORDER BY "
                          "element %u (%.*s): the primary key must be a prefix of the sorting "
                          "key", i + 1, CATALOG_MESSAGE_NAME_BYTES, def->primary_key[i], i + 1,
                          CATALOG_MESSAGE_NAME_BYTES, def->order_by[i]);
        }
    }
    rc = catalog_text_copy(arena, "PARTITION BY", in->partition_by, false, &def->partition_by,
                           err);
    if (rc == 0) rc = catalog_text_copy(arena, "TTL", in->ttl, false, &def->ttl, err);
    return rc;
}

static int catalog_settings_copy(mu_arena *arena, const catalog_table_def *in,
                                 catalog_table *out, mu_err *err) {
    uint32_t count = in->setting_count;
    if (count > CATALOG_SETTINGS_MAX) {
        return MU_ERR(err, MU_EINVAL, "%u SETTINGS, more than %d", count, CATALOG_SETTINGS_MAX);
    }
    if (count > 0 && in->settings == NULL) return MU_ERR(err, MU_EINVAL, "SETTINGS missing");
    catalog_setting *settings = mu_arena_calloc(arena, MU_MAX(count, 1u), sizeof(*settings), err);
    const char **names = mu_arena_calloc(arena, MU_MAX(count, 1u), sizeof(*names), err);
    if (settings == NULL || names == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; i < count; i++) {
        const catalog_setting *s = &in->settings[i];
        int rc = catalog_name_copy(arena, "setting", s->name, false, &settings[i].name, err);
        if (rc != 0) return rc;
        rc = catalog_text_copy(arena, "value", s->value, true, &settings[i].value, err);
        if (rc != 0) {
            mu_err_prefix(err, "setting %s", settings[i].name);
            return rc;
        }
        names[i] = settings[i].name;
    }
    out->def.settings = settings;
    out->def.setting_count = count;
    return catalog_unique_check("setting", names, count, err);
}

static int catalog_indexes_copy(mu_arena *arena, const catalog_table_def *in,
                                catalog_table *out, mu_err *err) {
    uint32_t count = in->index_count;
    if (count > CATALOG_INDEXES_MAX) {
        return MU_ERR(err, MU_EINVAL, "%u indexes, more than %d", count, CATALOG_INDEXES_MAX);
    }
    if (count > 0 && in->indexes == NULL) return MU_ERR(err, MU_EINVAL, "indexes missing");
    catalog_index *indexes = mu_arena_calloc(arena, MU_MAX(count, 1u), sizeof(*indexes), err);
    const char **names = mu_arena_calloc(arena, MU_MAX(count, 1u), sizeof(*names), err);
    if (indexes == NULL || names == NULL) return MU_ENOMEM;
    for (uint32_t i = 0; i < count; i++) {
        const catalog_index *x = &in->indexes[i];
        catalog_index *y = &indexes[i];
        int rc = catalog_name_copy(arena, "index", x->name, false, &y->name, err);
        if (rc != 0) return rc;
        rc = catalog_text_copy(arena, "expression", x->expression, true, &y->expression, err);
        if (rc == 0) rc = catalog_text_copy(arena, "type", x->type, true, &y->type, err);
        if (rc == 0 && x->granularity == 0) {
            rc = MU_ERR(err, MU_EINVAL, "GRANULARITY must be at least 1");
        }
        if (rc != 0) {
            mu_err_prefix(err, "index %s", y->name);
            return rc;
        }
        y->granularity = x->granularity;
        names[i] = y->name;
    }
    out->def.indexes = indexes;
    out->def.index_count = count;
    return catalog_unique_check("index", names, count, err);
}

static int catalog_engine_copy(mu_arena *arena, const catalog_table_def *in, catalog_table *out,
                               mu_err *err) {
    const char *name = catalog_engine_name(in->engine);
    if (name == NULL) return MU_ERR(err, MU_EINVAL, "bad table engine %d", (int)in->engine);
    int rc = catalog_text_copy(arena, "engine parameters", in->engine_params, false,
                               &out->def.engine_params, err);
    if (rc != 0) return rc;
    bool takes_params = in->engine == CATALOG_ENGINE_REPLACING_MERGE_TREE ||
                        in->engine == CATALOG_ENGINE_SUMMING_MERGE_TREE;
    if (!takes_params && out->def.engine_params[0] != '\0') {
        return MU_ERR(err, MU_EINVAL, "engine %s takes no parameters, got (%.*s)", name,
                      CATALOG_MESSAGE_NAME_BYTES, out->def.engine_params);
    }
    out->def.engine = in->engine;
    return 0;
}

static int catalog_table_def_copy(mu_arena *arena, const catalog_table_def *in,
                                  catalog_table *out, mu_err *err) {
    int rc = catalog_name_copy(arena, "database", in->database, true, &out->def.database, err);
    if (rc == 0) rc = catalog_name_copy(arena, "table", in->name, true, &out->def.name, err);
    if (rc != 0) return rc;
    rc = catalog_engine_copy(arena, in, out, err);
    if (rc == 0) rc = catalog_columns_copy(arena, in, out, err);
    if (rc == 0) rc = catalog_keys_copy(arena, in, out, err);
    if (rc == 0) rc = catalog_settings_copy(arena, in, out, err);
    if (rc == 0) rc = catalog_indexes_copy(arena, in, out, err);
    if (rc == 0) rc = catalog_text_copy(arena, "comment", in->comment, false, &out->def.comment,
                                        err);
    if (rc != 0) mu_err_prefix(err, "table %s.%s", out->def.database, out->def.name);
    return rc;
}

int catalog__table_entry_build(const catalog_table_def *def, const catalog__table_state *state,
                               catalog__table_entry **entry_out, mu_err *err) {
    MU_ASSERT(def != NULL);
    MU_ASSERT(state != NULL);
    *entry_out = NULL;
    mu_arena *arena = NULL;
    int rc = mu_arena_create(&arena, NULL, CATALOG_ENTRY_ARENA_BYTES, err);
    if (rc != 0) return rc;
    catalog__table_entry *entry = mu_arena_calloc(arena, 1, sizeof(*entry), err);
    if (entry == NULL) {
        rc = MU_ENOMEM;
        goto fail;
    }
    /* Names of messages before the copy reaches them. */
    entry->table.def.database = "?";
    entry->table.def.name = "?";
    rc = catalog_table_def_copy(arena, def, &entry->table, err);
    if (rc != 0) goto fail;
    entry->arena = arena;
    atomic_init(&entry->refs, 1);
    entry->table.uuid = state->uuid;
    entry->table.metadata_version = state->metadata_version;
    entry->table.created_at_ns = state->created_at_ns;
    entry->table.dropped = state->dropped;
    entry->table.dropped_at_ns = state->dropped_at_ns;
    *entry_out = entry;
    return 0;
fail:
    mu_arena_destroy(arena);
    return rc;
}

int catalog__database_entry_build(const catalog_database_def *def, const catalog_uuid *uuid,
                                  int64_t created_at_ns, catalog__database_entry **entry_out,
                                  mu_err *err) {
    MU_ASSERT(def != NULL);
    MU_ASSERT(uuid != NULL);
    *entry_out = NULL;
    if (def->engine != NULL && strcmp(def->engine, "Atomic") != 0) {
        return MU_ERR(err, MU_ENOT_SUPPORTED, "database engine \"%.*s\" is not supported: only "
                      "Atomic", CATALOG_MESSAGE_NAME_BYTES, def->engine);
    }
    mu_arena *arena = NULL;
    int rc = mu_arena_create(&arena, NULL, 512, err);
    if (rc != 0) return rc;
    catalog__database_entry *entry = mu_arena_calloc(arena, 1, sizeof(*entry), err);
    if (entry == NULL) {
        rc = MU_ENOMEM;
        goto fail;
    }
    rc = catalog_name_copy(arena, "database", def->name, true, &entry->database.name, err);
    if (rc == 0) {
        rc = catalog_text_copy(arena, "comment", def->comment, false, &entry->database.comment,
                               err);
        if (rc != 0) mu_err_prefix(err, "database %s", entry->database.name);
    }
    if (rc != 0) goto fail;
    entry->arena = arena;
    atomic_init(&entry->refs, 1);
    entry->database.engine = "Atomic";
    entry->database.uuid = *uuid;
    entry->database.created_at_ns = created_at_ns;
    *entry_out = entry;
    return 0;
fail:
    mu_arena_destroy(arena);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Entry references                                                    */
/* ------------------------------------------------------------------ */

catalog__table_entry *catalog__table_entry_of(const catalog_table *table) {
    MU_ASSERT(table != NULL);
    return (catalog__table_entry *)((char *)(uintptr_t)table -
                                    offsetof(catalog__table_entry, table));
}

void catalog__table_entry_retain(catalog__table_entry *entry) {
    uint32_t before = atomic_fetch_add_explicit(&entry->refs, 1, memory_order_relaxed);
    MU_ASSERT(before > 0);
}

void catalog__table_entry_release(catalog__table_entry *entry) {
    if (entry == NULL) return;
    uint32_t before = atomic_fetch_sub_explicit(&entry->refs, 1, memory_order_acq_rel);
    MU_ASSERT(before > 0);
    if (before == 1) mu_arena_destroy(entry->arena); /* the entry lives in its arena */
}

void catalog__database_entry_retain(catalog__database_entry *entry) {
    uint32_t before = atomic_fetch_add_explicit(&entry->refs, 1, memory_order_relaxed);
    MU_ASSERT(before > 0);
}

void catalog__database_entry_release(catalog__database_entry *entry) {
    if (entry == NULL) return;
    uint32_t before = atomic_fetch_sub_explicit(&entry->refs, 1, memory_order_acq_rel);
    MU_ASSERT(before > 0);
    if (before == 1) mu_arena_destroy(entry->arena);
}

const catalog_table *catalog_table_acquire(const catalog_table *table) {
    catalog__table_entry_retain(catalog__table_entry_of(table));
    return table;
}

void catalog_table_release(const catalog_table *table) {
    if (table == NULL) return;
    catalog__table_entry_release(catalog__table_entry_of(table));
}

/* ------------------------------------------------------------------ */
/* Table directories                                                   */
/* ------------------------------------------------------------------ */

static int catalog_path_join(const char *dir, const char *uuid_text, char *out, mu_err *err) {
    if (dir == NULL || dir[0] == '\0') return MU_ERR(err, MU_EINVAL, "empty directory path");
    size_t length = strlen(dir);
    while (length > 1 && dir[length - 1] == '/') length--;
    const char *separator = dir[length - 1] == '/' ? "" : "/";
    int n = snprintf(out, IO_PATH_MAX_BYTES, "%.*s%s%s", (int)MU_MIN(length, (size_t)INT32_MAX),
                     dir, separator, uuid_text);
    if (n < 0 || (size_t)n >= IO_PATH_MAX_BYTES) {
        return MU_ERR(err, MU_EINVAL, "table directory under %.64s... is longer than %d bytes",
                      dir, IO_PATH_MAX_BYTES - 1);
    }
    return 0;
}

int catalog_table_paths_format(const char *parts_dir, const char *wal_dir,
                               const catalog_uuid *uuid, catalog_table_paths *paths_out,
                               mu_err *err) {
    MU_ASSERT(uuid != NULL);
    MU_ASSERT(paths_out != NULL);
    char uuid_text[CATALOG_UUID_TEXT_BYTES];
    catalog_uuid_format(uuid, uuid_text);
    int rc = catalog_path_join(parts_dir, uuid_text, paths_out->data_dir, err);
    if (rc == 0) rc = catalog_path_join(wal_dir, uuid_text, paths_out->wal_dir, err);
    return rc;
}
