/* catalog_json.c: catalog.json, the catalog's one durable file (format in
 * docs/formats/catalog.md). The document is {format, version,
 * content_crc32c, content}; the checksum covers the canonical rendering of
 * content (compact, keys sorted), so it survives re-indentation but not a
 * changed value. Decoding is strict: every field is required, unknown
 * fields, wrong types and out-of-range values are MU_ECORRUPT naming the
 * file and the JSON path, and every object passes the same validation as a
 * caller's definition (catalog_def.c) before it is accepted.
 */
#include "storage/catalog_int.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define CATALOG_CANONICAL_FLAGS (JSON_COMPACT | JSON_SORT_KEYS)

/* ------------------------------------------------------------------ */
/* Encoding                                                            */
/* ------------------------------------------------------------------ */

/* Stores value under key; any failure (including value == NULL from a failed
 * constructor) clears *ok. Steals value. */
static void catalog_json_set(json_t *object, const char *key, json_t *value, bool *ok) {
    if (json_object_set_new(object, key, value) != 0) *ok = false; /* NULL object: freed */
}

static void catalog_json_append(json_t *array, json_t *value, bool *ok) {
    if (json_array_append_new(array, value) != 0) *ok = false;
}

static json_t *catalog_json_uuid(const catalog_uuid *uuid) {
    char text[CATALOG_UUID_TEXT_BYTES];
    return json_string(catalog_uuid_format(uuid, text));
}

static json_t *catalog_json_database(const catalog_database *d) {
    bool ok = true;
    json_t *o = json_object();
    catalog_json_set(o, "name", json_string(d->name), &ok);
    catalog_json_set(o, "uuid", catalog_json_uuid(&d->uuid), &ok);
    catalog_json_set(o, "engine", json_string(d->engine), &ok);
    catalog_json_set(o, "comment", json_string(d->comment), &ok);
    catalog_json_set(o, "created_at_ns", json_integer(d->created_at_ns), &ok);
    if (ok) return o;
    json_decref(o);
    return NULL;
}

static json_t *catalog_json_column(const catalog_column *c) {
    bool ok = true;
    json_t *o = json_object();
    catalog_json_set(o, "name", json_string(c->name), &ok);
    catalog_json_set(o, "type", json_string(c->type), &ok);
    catalog_json_set(o, "default_kind", json_string(catalog_default_kind_name(c->default_kind)),
                     &ok);
    catalog_json_set(o, "default_expression", json_string(c->default_expression), &ok);
    catalog_json_set(o, "codec", json_string(c->codec), &ok);
    catalog_json_set(o, "comment", json_string(c->comment), &ok);
    if (ok) return o;
    json_decref(o);
    return NULL;
}

static json_t *catalog_json_string_list(const char *const *list, uint32_t count) {
    bool ok = true;
    json_t *a = json_array();
    for (uint32_t i = 0; i < count; i++) catalog_json_append(a, json_string(list[i]), &ok);
    if (ok) return a;
    json_decref(a);
    return NULL;
}

/* The columns, settings and indexes of a table, as three arrays. */
static void catalog_json_table_lists(json_t *o, const catalog_table_def *d, bool *ok) {
    json_t *columns = json_array();
    for (uint32_t i = 0; i < d->column_count; i++) {
        catalog_json_append(columns, catalog_json_column(&d->columns[i]), ok);
    }
    catalog_json_set(o, "columns", columns, ok);
    catalog_json_set(o, "order_by", catalog_json_string_list(d->order_by, d->order_by_count), ok);
    catalog_json_set(o, "primary_key",
                     catalog_json_string_list(d->primary_key, d->primary_key_count), ok);
    catalog_json_set(o, "partition_by", json_string(d->partition_by), ok);
    catalog_json_set(o, "ttl", json_string(d->ttl), ok);
    json_t *settings = json_array();
    for (uint32_t i = 0; i < d->setting_count; i++) {
        json_t *s = json_object();
        catalog_json_set(s, "name", json_string(d->settings[i].name), ok);
        catalog_json_set(s, "value", json_string(d->settings[i].value), ok);
        catalog_json_append(settings, s, ok);
    }
    catalog_json_set(o, "settings", settings, ok);
    json_t *indexes = json_array();
    for (uint32_t i = 0; i < d->index_count; i++) {
        const catalog_index *x = &d->indexes[i];
        json_t *s = json_object();
        catalog_json_set(s, "name", json_string(x->name), ok);
        catalog_json_set(s, "expression", json_string(x->expression), ok);
        catalog_json_set(s, "type", json_string(x->type), ok);
        catalog_json_set(s, "granularity", json_integer(x->granularity), ok);
        catalog_json_append(indexes, s, ok);
    }
    catalog_json_set(o, "indexes", indexes, ok);
}

static json_t *catalog_json_table(const catalog_table *t) {
    MU_ASSERT(t->metadata_version <= (uint64_t)CATALOG_COUNTER_MAX);
    bool ok = true;
    json_t *o = json_object();
    const catalog_table_def *d = &t->def;
    catalog_json_set(o, "uuid", catalog_json_uuid(&t->uuid), &ok);
    catalog_json_set(o, "database", json_string(d->database), &ok);
    catalog_json_set(o, "name", json_string(d->name), &ok);
    catalog_json_set(o, "engine", json_string(catalog_engine_name(d->engine)), &ok);
    catalog_json_set(o, "engine_params", json_string(d->engine_params), &ok);
    catalog_json_table_lists(o, d, &ok);
    catalog_json_set(o, "comment", json_string(d->comment), &ok);
    catalog_json_set(o, "metadata_version", json_integer((json_int_t)t->metadata_version), &ok);
    catalog_json_set(o, "created_at_ns", json_integer(t->created_at_ns), &ok);
    catalog_json_set(o, "dropped", json_boolean(t->dropped), &ok);
    catalog_json_set(o, "dropped_at_ns", json_integer(t->dropped_at_ns), &ok);
    if (ok) return o;
    json_decref(o);
    return NULL;
}

/* Databases by name, then live tables by (database, name), then dropped
 * tables by UUID: the order of the snapshot, so equal catalogs give equal
 * files. */
static json_t *catalog_json_content(const catalog_snapshot *s) {
    MU_ASSERT(s->generation <= (uint64_t)CATALOG_COUNTER_MAX);
    bool ok = true;
    json_t *o = json_object();
    catalog_json_set(o, "generation", json_integer((json_int_t)s->generation), &ok);
    json_t *databases = json_array();
    for (size_t i = 0; i < s->database_count; i++) {
        catalog_json_append(databases, catalog_json_database(&s->databases[i]->database), &ok);
    }
    catalog_json_set(o, "databases", databases, &ok);
    json_t *tables = json_array();
    for (size_t i = 0; i < s->table_count; i++) {
        catalog_json_append(tables, catalog_json_table(&s->tables[i]->table), &ok);
    }
    for (size_t i = 0; i < s->dropped_count; i++) {
        catalog_json_append(tables, catalog_json_table(&s->dropped[i]->table), &ok);
    }
    catalog_json_set(o, "tables", tables, &ok);
    if (ok) return o;
    json_decref(o);
    return NULL;
}

/* crc32c of the canonical rendering of content. */
static int catalog_json_checksum(const json_t *content, uint32_t *crc_out) {
    char *canonical = json_dumps(content, CATALOG_CANONICAL_FLAGS);
    if (canonical == NULL) return MU_ENOMEM;
    *crc_out = mu_crc32c(0, canonical, strlen(canonical));
    free(canonical);
    return 0;
}

int catalog__json_encode(const catalog_snapshot *s, mu_buf *out, mu_err *err) {
    MU_ASSERT(s != NULL);
    MU_ASSERT(out != NULL);
    json_t *content = catalog_json_content(s);
    uint32_t crc = 0;
    if (content == NULL || catalog_json_checksum(content, &crc) != 0) {
        json_decref(content);
        return MU_ERR(err, MU_ENOMEM, "encoding the catalog: out of memory");
    }
    bool ok = true;
    json_t *doc = json_object();
    catalog_json_set(doc, "format", json_string(CATALOG_FORMAT_NAME), &ok);
    catalog_json_set(doc, "version", json_integer(CATALOG_FORMAT_VERSION), &ok);
    catalog_json_set(doc, "content_crc32c", json_integer(crc), &ok);
    catalog_json_set(doc, "content", content, &ok);
    char *text = ok ? json_dumps(doc, JSON_INDENT(2)) : NULL;
    json_decref(doc);
    if (text == NULL) return MU_ERR(err, MU_ENOMEM, "encoding the catalog: out of memory");
    int rc = mu_buf_append_str(out, text, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    free(text);
    if (rc != 0) mu_err_prefix(err, "encoding the catalog");
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decoding                                                            */
/* ------------------------------------------------------------------ */

typedef struct catalog_reader {
    const char *path;  /* the file, for messages */
    char where[96];    /* JSON path of the object being read, "" at the top */
    mu_arena *scratch; /* one table's definition arrays; reset per table */
    mu_err *err;
} catalog_reader;

static int catalog_reader_fail(catalog_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int catalog_reader_fail(catalog_reader *r, const char *fmt, ...) {
    char detail[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    return MU_CORRUPT(r->err, "catalog file %s is corrupt: %s%s%s", r->path, r->where,
                      r->where[0] != '\0' ? ": " : "", detail);
}

/* object must hold exactly the given keys: a missing field is damage, and
 * so is an unknown one (a rewrite would silently drop it). */
static int catalog_reader_fields(catalog_reader *r, json_t *object, const char *const *keys,
                                 size_t key_count) {
    if (!json_is_object(object)) return catalog_reader_fail(r, "expected an object");
    const char *key;
    json_t *value;
    json_object_foreach(object, key, value) {
        size_t i = 0;
        while (i < key_count && strcmp(keys[i], key) != 0) i++;
        if (i == key_count) return catalog_reader_fail(r, "unknown field \"%.64s\"", key);
    }
    for (size_t i = 0; i < key_count; i++) {
        if (json_object_get(object, keys[i]) == NULL) {
            return catalog_reader_fail(r, "field \"%s\" is missing", keys[i]);
        }
    }
    return 0;
}

static int catalog_reader_string(catalog_reader *r, json_t *object, const char *key,
                                 const char **out) {
    json_t *value = json_object_get(object, key);
    if (!json_is_string(value)) return catalog_reader_fail(r, "\"%s\" is not a string", key);
    *out = json_string_value(value);
    return 0;
}

static int catalog_reader_integer(catalog_reader *r, json_t *object, const char *key,
                                  int64_t min, int64_t max, int64_t *out) {
    json_t *value = json_object_get(object, key);
    if (!json_is_integer(value)) return catalog_reader_fail(r, "\"%s\" is not an integer", key);
    json_int_t v = json_integer_value(value);
    if (v < min || v > max) {
        return catalog_reader_fail(r, "\"%s\" is %lld, outside %lld..%lld", key, (long long)v,
                                   (long long)min, (long long)max);
    }
    *out = (int64_t)v;
    return 0;
}

static int catalog_reader_array(catalog_reader *r, json_t *object, const char *key, size_t max,
                                json_t **out) {
    json_t *value = json_object_get(object, key);
    if (!json_is_array(value)) return catalog_reader_fail(r, "\"%s\" is not an array", key);
    if (json_array_size(value) > max) {
        return catalog_reader_fail(r, "\"%s\" has %zu elements, more than %zu", key,
                                   json_array_size(value), max);
    }
    *out = value;
    return 0;
}

static int catalog_reader_uuid(catalog_reader *r, json_t *object, const char *key,
                               catalog_uuid *out) {
    const char *text = NULL;
    int rc = catalog_reader_string(r, object, key, &text);
    if (rc != 0) return rc;
    if (catalog_uuid_parse(text, out, NULL) != 0 || catalog_uuid_is_nil(out)) {
        return catalog_reader_fail(r, "\"%s\" is not a UUID: \"%.40s\"", key, text);
    }
    return 0;
}

/* Sets r->where to "<prefix>[index]" under the current path, returning the
 * length to restore afterwards. */
static size_t catalog_reader_enter(catalog_reader *r, const char *prefix, size_t index) {
    size_t saved = strlen(r->where);
    snprintf(r->where + saved, sizeof(r->where) - saved, "%s%s[%zu]", saved > 0 ? "." : "",
             prefix, index);
    return saved;
}

static void catalog_reader_leave(catalog_reader *r, size_t saved) { r->where[saved] = '\0'; }

/* Allocation failures stay what they are; anything a definition check
 * refuses in a stored object is damage. */
static int catalog_reader_wrap(catalog_reader *r, int rc, const mu_err *inner) {
    if (rc == MU_ENOMEM || rc == MU_EMEMLIMIT) {
        if (r->err != NULL) *r->err = *inner;
        return rc;
    }
    return catalog_reader_fail(r, "%s", inner->message);
}

static const char *const catalog_column_keys[] = {
    "name", "type", "default_kind", "default_expression", "codec", "comment",
};

static int catalog_read_column(catalog_reader *r, json_t *o, catalog_column *c) {
    int rc = catalog_reader_fields(r, o, catalog_column_keys, MU_ARRAY_LEN(catalog_column_keys));
    const char *kind = NULL;
    if (rc == 0) rc = catalog_reader_string(r, o, "name", &c->name);
    if (rc == 0) rc = catalog_reader_string(r, o, "type", &c->type);
    if (rc == 0) rc = catalog_reader_string(r, o, "default_kind", &kind);
    if (rc == 0) rc = catalog_reader_string(r, o, "default_expression", &c->default_expression);
    if (rc == 0) rc = catalog_reader_string(r, o, "codec", &c->codec);
    if (rc == 0) rc = catalog_reader_string(r, o, "comment", &c->comment);
    if (rc != 0) return rc;
    for (unsigned k = 0; k < CATALOG_DEFAULT_KIND_COUNT; k++) {
        if (strcmp(kind, catalog_default_kind_name((catalog_default_kind)k)) == 0) {
            c->default_kind = (catalog_default_kind)k;
            return 0;
        }
    }
    return catalog_reader_fail(r, "unknown default_kind \"%.32s\"", kind);
}

static int catalog_read_columns(catalog_reader *r, json_t *table, catalog_table_def *def) {
    json_t *array = NULL;
    int rc = catalog_reader_array(r, table, "columns", CATALOG_COLUMNS_MAX, &array);
    if (rc != 0) return rc;
    size_t count = json_array_size(array);
    catalog_column *columns = mu_arena_calloc(r->scratch, MU_MAX(count, (size_t)1),
                                              sizeof(*columns), r->err);
    if (columns == NULL) return MU_ENOMEM;
    for (size_t i = 0; i < count && rc == 0; i++) {
        size_t saved = catalog_reader_enter(r, "columns", i);
        rc = catalog_read_column(r, json_array_get(array, i), &columns[i]);
        catalog_reader_leave(r, saved);
    }
    def->columns = columns;
    def->column_count = (uint32_t)count;
    return rc;
}

static int catalog_read_string_list(catalog_reader *r, json_t *table, const char *key,
                                    const char *const **list_out, uint32_t *count_out) {
    json_t *array = NULL;
    int rc = catalog_reader_array(r, table, key, CATALOG_KEY_ELEMENTS_MAX, &array);
    if (rc != 0) return rc;
    size_t count = json_array_size(array);
    const char **list = mu_arena_calloc(r->scratch, MU_MAX(count, (size_t)1), sizeof(*list),
                                        r->err);
    if (list == NULL) return MU_ENOMEM;
    for (size_t i = 0; i < count; i++) {
        json_t *value = json_array_get(array, i);
        if (!json_is_string(value)) {
            return catalog_reader_fail(r, "%s[%zu] is not a string", key, i);
        }
        list[i] = json_string_value(value);
    }
    *list_out = list;
    *count_out = (uint32_t)count;
    return 0;
}

static const char *const catalog_setting_keys[] = {"name", "value"};

static int catalog_read_settings(catalog_reader *r, json_t *table, catalog_table_def *def) {
    json_t *array = NULL;
    int rc = catalog_reader_array(r, table, "settings", CATALOG_SETTINGS_MAX, &array);
    if (rc != 0) return rc;
    size_t count = json_array_size(array);
    catalog_setting *settings = mu_arena_calloc(r->scratch, MU_MAX(count, (size_t)1),
                                                sizeof(*settings), r->err);
    if (settings == NULL) return MU_ENOMEM;
    for (size_t i = 0; i < count && rc == 0; i++) {
        size_t saved = catalog_reader_enter(r, "settings", i);
        json_t *o = json_array_get(array, i);
        rc = catalog_reader_fields(r, o, catalog_setting_keys, MU_ARRAY_LEN(catalog_setting_keys));
        if (rc == 0) rc = catalog_reader_string(r, o, "name", &settings[i].name);
        if (rc == 0) rc = catalog_reader_string(r, o, "value", &settings[i].value);
        catalog_reader_leave(r, saved);
    }
    def->settings = settings;
    def->setting_count = (uint32_t)count;
    return rc;
}

static const char *const catalog_index_keys[] = {"name", "expression", "type", "granularity"};

static int catalog_read_indexes(catalog_reader *r, json_t *table, catalog_table_def *def) {
    json_t *array = NULL;
    int rc = catalog_reader_array(r, table, "indexes", CATALOG_INDEXES_MAX, &array);
    if (rc != 0) return rc;
    size_t count = json_array_size(array);
    catalog_index *indexes = mu_arena_calloc(r->scratch, MU_MAX(count, (size_t)1),
                                             sizeof(*indexes), r->err);
    if (indexes == NULL) return MU_ENOMEM;
    for (size_t i = 0; i < count && rc == 0; i++) {
        size_t saved = catalog_reader_enter(r, "indexes", i);
        json_t *o = json_array_get(array, i);
        int64_t granularity = 0;
        rc = catalog_reader_fields(r, o, catalog_index_keys, MU_ARRAY_LEN(catalog_index_keys));
        if (rc == 0) rc = catalog_reader_string(r, o, "name", &indexes[i].name);
        if (rc == 0) rc = catalog_reader_string(r, o, "expression", &indexes[i].expression);
        if (rc == 0) rc = catalog_reader_string(r, o, "type", &indexes[i].type);
        if (rc == 0) rc = catalog_reader_integer(r, o, "granularity", 1, UINT32_MAX, &granularity);
        indexes[i].granularity = (uint32_t)granularity;
        catalog_reader_leave(r, saved);
    }
    def->indexes = indexes;
    def->index_count = (uint32_t)count;
    return rc;
}

static int catalog_read_table_def(catalog_reader *r, json_t *o, catalog_table_def *def) {
    const char *engine = NULL;
    int rc = catalog_reader_string(r, o, "database", &def->database);
    if (rc == 0) rc = catalog_reader_string(r, o, "name", &def->name);
    if (rc == 0) rc = catalog_reader_string(r, o, "engine", &engine);
    if (rc == 0) rc = catalog_reader_string(r, o, "engine_params", &def->engine_params);
    if (rc == 0) rc = catalog_reader_string(r, o, "partition_by", &def->partition_by);
    if (rc == 0) rc = catalog_reader_string(r, o, "ttl", &def->ttl);
    if (rc == 0) rc = catalog_reader_string(r, o, "comment", &def->comment);
    if (rc == 0) rc = catalog_read_columns(r, o, def);
    if (rc == 0) {
        rc = catalog_read_string_list(r, o, "order_by", &def->order_by, &def->order_by_count);
    }
    if (rc == 0) {
        rc = catalog_read_string_list(r, o, "primary_key", &def->primary_key,
                                      &def->primary_key_count);
    }
    if (rc == 0) rc = catalog_read_settings(r, o, def);
    if (rc == 0) rc = catalog_read_indexes(r, o, def);
    if (rc == 0 && catalog_engine_parse(engine, &def->engine, NULL) != 0) {
        rc = catalog_reader_fail(r, "unknown engine \"%.64s\"", engine);
    }
    return rc;
}

static int catalog_read_table_state(catalog_reader *r, json_t *o, catalog__table_state *state) {
    int64_t version = 0;
    int rc = catalog_reader_uuid(r, o, "uuid", &state->uuid);
    if (rc == 0) {
        rc = catalog_reader_integer(r, o, "metadata_version", 1, CATALOG_COUNTER_MAX, &version);
    }
    if (rc == 0) {
        rc = catalog_reader_integer(r, o, "created_at_ns", 0, INT64_MAX, &state->created_at_ns);
    }
    if (rc == 0) {
        rc = catalog_reader_integer(r, o, "dropped_at_ns", 0, INT64_MAX, &state->dropped_at_ns);
    }
    if (rc != 0) return rc;
    json_t *dropped = json_object_get(o, "dropped");
    if (!json_is_boolean(dropped)) return catalog_reader_fail(r, "\"dropped\" is not a boolean");
    state->dropped = json_is_true(dropped);
    state->metadata_version = (uint64_t)version;
    if (!state->dropped && state->dropped_at_ns != 0) {
        return catalog_reader_fail(r, "a live table has dropped_at_ns %lld",
                                   (long long)state->dropped_at_ns);
    }
    return 0;
}

static const char *const catalog_table_keys[] = {
    "uuid", "database", "name", "engine", "engine_params", "columns", "order_by",
    "primary_key", "partition_by", "ttl", "settings", "indexes", "comment",
    "metadata_version", "created_at_ns", "dropped", "dropped_at_ns",
};

static int catalog_read_table(catalog_reader *r, json_t *o, catalog_snapshot *s) {
    mu_arena_reset(r->scratch);
    catalog_table_def def;
    memset(&def, 0, sizeof(def));
    catalog__table_state state;
    memset(&state, 0, sizeof(state));
    int rc = catalog_reader_fields(r, o, catalog_table_keys, MU_ARRAY_LEN(catalog_table_keys));
    if (rc == 0) rc = catalog_read_table_state(r, o, &state);
    if (rc == 0) rc = catalog_read_table_def(r, o, &def);
    if (rc != 0) return rc;
    catalog__table_entry *entry = NULL;
    mu_err inner;
    mu_err_clear(&inner);
    rc = catalog__table_entry_build(&def, &state, &entry, &inner);
    if (rc != 0) return catalog_reader_wrap(r, rc, &inner);
    if (entry->table.dropped) return catalog__snapshot_push_dropped_take(s, entry, r->err);
    return catalog__snapshot_push_table_take(s, entry, r->err);
}

static const char *const catalog_database_keys[] = {
    "name", "uuid", "engine", "comment", "created_at_ns",
};

static int catalog_read_database(catalog_reader *r, json_t *o, catalog_snapshot *s) {
    catalog_database_def def;
    memset(&def, 0, sizeof(def));
    catalog_uuid uuid;
    int64_t created_at_ns = 0;
    int rc = catalog_reader_fields(r, o, catalog_database_keys,
                                   MU_ARRAY_LEN(catalog_database_keys));
    if (rc == 0) rc = catalog_reader_string(r, o, "name", &def.name);
    if (rc == 0) rc = catalog_reader_uuid(r, o, "uuid", &uuid);
    if (rc == 0) rc = catalog_reader_string(r, o, "engine", &def.engine);
    if (rc == 0) rc = catalog_reader_string(r, o, "comment", &def.comment);
    if (rc == 0) rc = catalog_reader_integer(r, o, "created_at_ns", 0, INT64_MAX, &created_at_ns);
    if (rc != 0) return rc;
    if (catalog_database_name_reserved(def.name)) {
        return catalog_reader_fail(r, "database name %s is reserved", def.name);
    }
    catalog__database_entry *entry = NULL;
    mu_err inner;
    mu_err_clear(&inner);
    rc = catalog__database_entry_build(&def, &uuid, created_at_ns, &entry, &inner);
    if (rc != 0) return catalog_reader_wrap(r, rc, &inner);
    return catalog__snapshot_push_database_take(s, entry, r->err);
}

static const char *const catalog_content_keys[] = {"generation", "databases", "tables"};

static int catalog_read_content(catalog_reader *r, json_t *content, catalog_snapshot **out) {
    snprintf(r->where, sizeof(r->where), "content");
    json_t *databases = NULL;
    json_t *tables = NULL;
    int64_t generation = 0;
    int rc = catalog_reader_fields(r, content, catalog_content_keys,
                                   MU_ARRAY_LEN(catalog_content_keys));
    if (rc == 0) {
        rc = catalog_reader_integer(r, content, "generation", 1, CATALOG_COUNTER_MAX, &generation);
    }
    if (rc == 0) {
        rc = catalog_reader_array(r, content, "databases", CATALOG_DATABASES_MAX, &databases);
    }
    if (rc == 0) rc = catalog_reader_array(r, content, "tables", CATALOG_TABLES_MAX, &tables);
    if (rc != 0) return rc;
    catalog_snapshot *s = NULL;
    rc = catalog__snapshot_create((uint64_t)generation, &s, r->err);
    if (rc != 0) return rc;
    for (size_t i = 0; i < json_array_size(databases) && rc == 0; i++) {
        snprintf(r->where, sizeof(r->where), "databases[%zu]", i);
        rc = catalog_read_database(r, json_array_get(databases, i), s);
    }
    for (size_t i = 0; i < json_array_size(tables) && rc == 0; i++) {
        snprintf(r->where, sizeof(r->where), "tables[%zu]", i);
        rc = catalog_read_table(r, json_array_get(tables, i), s);
    }
    if (rc == 0) {
        rc = catalog__snapshot_finish(s, r->err);
        if (rc == MU_ECORRUPT) mu_err_prefix(r->err, "catalog file %s is corrupt", r->path);
    }
    if (rc != 0) {
        catalog_snapshot_release(s);
        return rc;
    }
    *out = s;
    return 0;
}

static const char *const catalog_document_keys[] = {
    "format", "version", "content_crc32c", "content",
};

/* Format name, version (a newer one is MU_ENOT_SUPPORTED: valid, just not
 * ours to read), the field set, and the checksum, in that order, so a flip
 * anywhere in content is reported as a checksum mismatch. */
static int catalog_read_document(catalog_reader *r, json_t *doc, json_t **content_out) {
    if (!json_is_object(doc)) return catalog_reader_fail(r, "the document is not an object");
    json_t *format = json_object_get(doc, "format");
    if (!json_is_string(format) || strcmp(json_string_value(format), CATALOG_FORMAT_NAME) != 0) {
        return catalog_reader_fail(r, "\"format\" is not \"%s\"", CATALOG_FORMAT_NAME);
    }
    int64_t version = 0;
    int rc = catalog_reader_integer(r, doc, "version", 1, INT32_MAX, &version);
    if (rc != 0) return rc;
    if (version > CATALOG_FORMAT_VERSION) {
        return MU_ERR(r->err, MU_ENOT_SUPPORTED, "catalog file %s has format version %lld; this "
                      "build reads version %d (was it written by a newer muscles?)", r->path,
                      (long long)version, CATALOG_FORMAT_VERSION);
    }
    rc = catalog_reader_fields(r, doc, catalog_document_keys, MU_ARRAY_LEN(catalog_document_keys));
    int64_t stored = 0;
    if (rc == 0) rc = catalog_reader_integer(r, doc, "content_crc32c", 0, UINT32_MAX, &stored);
    if (rc != 0) return rc;
    json_t *content = json_object_get(doc, "content");
    if (!json_is_object(content)) return catalog_reader_fail(r, "\"content\" is not an object");
    uint32_t computed = 0;
    if (catalog_json_checksum(content, &computed) != 0) {
        return MU_ERR(r->err, MU_ENOMEM, "reading catalog file %s: out of memory", r->path);
    }
    if ((uint32_t)stored != computed) {
        return catalog_reader_fail(r, "checksum mismatch: content_crc32c is %08x, the content "
                                   "hashes to %08x", (uint32_t)stored, computed);
    }
    *content_out = content;
    return 0;
}

int catalog__json_decode(const char *path, const uint8_t *data, size_t length_bytes,
                         catalog_snapshot **snapshot_out, mu_err *err) {
    MU_ASSERT(path != NULL);
    MU_ASSERT(snapshot_out != NULL);
    *snapshot_out = NULL;
    catalog_reader r = {.path = path, .err = err};
    json_error_t parse_error;
    json_t *doc = json_loadb((const char *)data, length_bytes, JSON_REJECT_DUPLICATES,
                             &parse_error);
    if (doc == NULL) {
        return MU_CORRUPT(err, "catalog file %s is corrupt: not valid JSON at line %d column "
                          "%d: %s", path, parse_error.line, parse_error.column, parse_error.text);
    }
    json_t *content = NULL;
    int rc = catalog_read_document(&r, doc, &content);
    if (rc == 0) rc = mu_arena_create(&r.scratch, NULL, 0, err);
    if (rc == 0) rc = catalog_read_content(&r, content, snapshot_out);
    mu_arena_destroy(r.scratch);
    json_decref(doc);
    MU_ASSERT((rc == 0) == (*snapshot_out != NULL));
    return rc;
}
