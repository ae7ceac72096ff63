/* sql_system.c: answers built from the catalog and the engine's own
 * state: SHOW DATABASES / TABLES / CREATE TABLE, DESCRIBE, EXISTS, the
 * system.* tables (one, numbers, databases, tables, columns, parts,
 * settings, functions) and the table functions numbers()/numbers_mt()/
 * zeros(). Each answer is materialised into a values operator.
 */
#include "sql/query_int.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- result builder -------------------------------------------------------- */

typedef struct sys_result {
    sql_query *q;
    uint32_t count;
    const char *names[48];
    const ty_type *types[48];
    ty_column *cols[48];
    int rc;
    mu_err *err;
} sys_result;

static void sys_init(sys_result *r, sql_query *q, mu_err *err) {
    memset(r, 0, sizeof(*r));
    r->q = q;
    r->err = err;
}

static void sys_column(sys_result *r, const char *name, const char *type_name) {
    if (r->rc != 0) return;
    const ty_type *t;
    r->rc = ty_type_parse(type_name, r->q->arena, &t, r->err);
    if (r->rc == 0) r->rc = ty_column_create(t, NULL, &r->cols[r->count], r->err);
    if (r->rc == 0) {
        r->names[r->count] = name;
        r->types[r->count++] = t;
    }
}

static void sys_str(sys_result *r, uint32_t i, const char *s) {
    if (r->rc == 0) r->rc = ty_column_append_bytes(r->cols[i], s ? s : "", s ? strlen(s) : 0, r->err);
}

static void sys_text(sys_result *r, uint32_t i, const char *s) {
    if (r->rc == 0) r->rc = ty_column_append_text(r->cols[i], s, strlen(s), r->err);
}

static void sys_u64(sys_result *r, uint32_t i, uint64_t v) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%" PRIu64, v);
    sys_text(r, i, buf);
}

static int sys_finish(sys_result *r, sql_operator **out) {
    if (r->rc != 0) {
        for (uint32_t i = 0; i < r->count; i++) ty_column_destroy(r->cols[i]);
        return r->rc;
    }
    uint32_t rows = r->count ? ty_column_row_count(r->cols[0]) : 0;
    return sql__op_values(r->q, r->count, r->names, r->types, r->cols, rows, out, r->err);
}

/* The system tables and their engine names, as system.tables lists them. */
static const char *const sys_table_names[][2] = {
    {"columns", "SystemColumns"},   {"data_skipping_indices", "SystemDataSkippingIndices"},
    {"databases", "SystemDatabases"},
    {"detached_parts", "SystemDetachedParts"}, {"events", "SystemEvents"},
    {"functions", "SystemFunctions"}, {"metrics", "SystemMetrics"},
    {"numbers", "SystemNumbers"},   {"numbers_mt", "SystemNumbers"},
    {"one", "SystemOne"},           {"parts", "SystemParts"},
    {"processes", "SystemProcesses"}, {"query_log", "SystemQueryLog"},
    {"settings", "SystemSettings"}, {"tables", "SystemTables"},
};

/* ---- CREATE TABLE text --------------------------------------------------------- */

static int sys_quote_ident(mu_buf *b, const char *name, mu_err *err) {
    int rc = mu_buf_append_u8(b, '`', err);
    for (const char *p = name; *p && rc == 0; p++) {
        if (*p == '`' || *p == '\\') rc = mu_buf_append_u8(b, '\\', err);
        if (rc == 0) rc = mu_buf_append_u8(b, (uint8_t)*p, err);
    }
    if (rc == 0) rc = mu_buf_append_u8(b, '`', err);
    return rc;
}

static int sys_create_query(const catalog_table *t, mu_buf *b, mu_err *err) {
    const catalog_table_def *d = &t->def;
    int rc = mu_buf_printf(b, err, "CREATE TABLE %s.%s\n(\n", d->database, d->name);
    for (uint32_t i = 0; i < d->column_count && rc == 0; i++) {
        const catalog_column *c = &d->columns[i];
        rc = mu_buf_append_str(b, "    ", err);
        if (rc == 0) rc = sys_quote_ident(b, c->name, err);
        if (rc == 0) rc = mu_buf_printf(b, err, " %s", c->type);
        if (rc == 0 && c->default_kind != CATALOG_DEFAULT_NONE)
            rc = mu_buf_printf(b, err, " %s %s", catalog_default_kind_name(c->default_kind),
                               c->default_expression);
        if (rc == 0 && c->comment[0]) {
            rc = mu_buf_append_str(b, " COMMENT '", err);
            for (const char *p = c->comment; *p && rc == 0; p++) {
                if (*p == '\'' || *p == '\\') rc = mu_buf_append_u8(b, '\\', err);
                if (rc == 0) rc = mu_buf_append_u8(b, (uint8_t)*p, err);
            }
            if (rc == 0) rc = mu_buf_append_u8(b, '\'', err);
        }
        if (rc == 0 && c->codec[0]) rc = mu_buf_printf(b, err, " CODEC(%s)", c->codec);
        if (rc == 0 && (i + 1 < d->column_count || d->index_count > 0)) rc = mu_buf_append_u8(b, ',', err);
        if (rc == 0) rc = mu_buf_append_u8(b, '\n', err);
    }
    for (uint32_t i = 0; i < d->index_count && rc == 0; i++) {
        const catalog_index *x = &d->indexes[i];
        rc = mu_buf_printf(b, err, "    INDEX %s %s TYPE %s GRANULARITY %u%s\n", x->name, x->expression,
                           x->type, x->granularity, i + 1 < d->index_count ? "," : "");
    }
    if (rc == 0) rc = mu_buf_printf(b, err, ")\nENGINE = %s", catalog_engine_name(d->engine));
    if (rc == 0 && d->engine_params[0]) rc = mu_buf_printf(b, err, "(%s)", d->engine_params);
    if (rc == 0 && d->partition_by[0]) rc = mu_buf_printf(b, err, "\nPARTITION BY %s", d->partition_by);
    if (rc == 0) {
        rc = mu_buf_append_str(b, "\nORDER BY ", err);
        if (rc == 0 && d->order_by_count != 1) rc = mu_buf_append_u8(b, '(', err);
        for (uint32_t i = 0; i < d->order_by_count && rc == 0; i++)
            rc = mu_buf_printf(b, err, "%s%s", i ? ", " : "", d->order_by[i]);
        if (rc == 0 && d->order_by_count != 1) rc = mu_buf_append_u8(b, ')', err);
    }
    if (rc == 0 && d->primary_key_count > 0) {
        rc = mu_buf_append_str(b, "\nPRIMARY KEY ", err);
        if (rc == 0 && d->primary_key_count != 1) rc = mu_buf_append_u8(b, '(', err);
        for (uint32_t i = 0; i < d->primary_key_count && rc == 0; i++)
            rc = mu_buf_printf(b, err, "%s%s", i ? ", " : "", d->primary_key[i]);
        if (rc == 0 && d->primary_key_count != 1) rc = mu_buf_append_u8(b, ')', err);
    }
    if (rc == 0 && d->ttl[0]) rc = mu_buf_printf(b, err, "\nTTL %s", d->ttl);
    bool has_granularity = false;
    for (uint32_t i = 0; i < d->setting_count; i++)
        has_granularity |= strcmp(d->settings[i].name, "index_granularity") == 0;
    if (rc == 0) rc = mu_buf_append_str(b, "\nSETTINGS ", err);
    for (uint32_t i = 0; i < d->setting_count && rc == 0; i++)
        rc = mu_buf_printf(b, err, "%s%s = %s", i ? ", " : "", d->settings[i].name, d->settings[i].value);
    if (rc == 0 && !has_granularity)
        rc = mu_buf_printf(b, err, "%sindex_granularity = 8192", d->setting_count ? ", " : "");
    if (rc == 0 && d->comment[0]) rc = mu_buf_printf(b, err, "\nCOMMENT '%s'", d->comment);
    return rc;
}

static char *sys_dup(sql_query *q, sql_str s, const char *fallback, mu_err *err) {
    if (s.ptr == NULL) return (char *)fallback;
    return mu_arena_strndup(q->arena, s.ptr, s.length, err);
}

static bool sys_like(const char *pattern, const char *s);

static bool sys_like_at(const char *p, const char *s) {
    for (;;) {
        if (*p == 0) return *s == 0;
        if (*p == '%') {
            while (*p == '%') p++;
            if (*p == 0) return true;
            for (; *s; s++)
                if (sys_like_at(p, s)) return true;
            return false;
        }
        if (*s == 0) return false;
        if (*p == '\\' && p[1]) p++;
        else if (*p == '_') {
            p++;
            s++;
            continue;
        }
        if (*p != *s) return false;
        p++;
        s++;
    }
}

static bool sys_like(const char *pattern, const char *s) { return sys_like_at(pattern, s); }

int sql__plan_show(sql_query *q, const sql_node *stmt, sql_operator **out, mu_err *err) {
    catalog_snapshot *snap = catalog_snapshot_acquire(storage_catalog(q->engine->storage));
    sys_result r;
    sys_init(&r, q, err);
    switch (stmt->kind) {
    case SQL_SHOW_DATABASES: {
        char *like = sys_dup(q, stmt->show.like, NULL, err);
        sys_column(&r, "name", "String");
        bool system_done = false;
        size_t n = catalog_snapshot_database_count(snap);
        for (size_t i = 0; i <= n; i++) {
            const char *name = i < n ? catalog_snapshot_database_at(snap, i)->name : NULL;
            if (!system_done && (name == NULL || strcmp(name, "system") > 0)) {
                system_done = true;
                if (!like || sys_like(like, "system") != stmt->show.not_like) sys_str(&r, 0, "system");
            }
            if (name && (!like || sys_like(like, name) != stmt->show.not_like)) sys_str(&r, 0, name);
        }
        break;
    }
    case SQL_SHOW_TABLES: {
        const char *db = sys_dup(q, stmt->show.from_database, q->session->database, err);
        char *like = sys_dup(q, stmt->show.like, NULL, err);
        sys_column(&r, "name", "String");
        if (strcmp(db, "system") == 0) {
            for (size_t i = 0; i < sizeof(sys_table_names) / sizeof(sys_table_names[0]); i++)
                if (!like || sys_like(like, sys_table_names[i][0]) != stmt->show.not_like)
                    sys_str(&r, 0, sys_table_names[i][0]);
            break;
        }
        if (catalog_snapshot_find_database(snap, db) == NULL) {
            r.rc = MU_ERR(err, MU_EUNKNOWN_DATABASE, "Database %s does not exist", db);
            break;
        }
        size_t first, count = catalog_snapshot_tables_of(snap, db, &first);
        for (size_t i = 0; i < count; i++) {
            const char *name = catalog_snapshot_table_at(snap, first + i)->def.name;
            if (!like || sys_like(like, name) != stmt->show.not_like) sys_str(&r, 0, name);
        }
        break;
    }
    case SQL_SHOW_CREATE:
    case SQL_DESCRIBE:
    case SQL_EXISTS: {
        const char *db = sys_dup(q, stmt->object.database, q->session->database, err);
        const char *name = sys_dup(q, stmt->object.name, "", err);
        if (stmt->kind == SQL_EXISTS) {
            sys_column(&r, "result", "UInt8");
            bool found = stmt->object.is_database
                             ? (catalog_snapshot_find_database(snap, name) != NULL ||
                                strcmp(name, "system") == 0)
                             : catalog_snapshot_find_table(snap, db, name) != NULL;
            sys_u64(&r, 0, found);
            break;
        }
        if (stmt->kind == SQL_SHOW_CREATE && stmt->object.is_database) {
            sys_column(&r, "statement", "String");
            if (catalog_snapshot_find_database(snap, name) == NULL) {
                r.rc = MU_ERR(err, MU_EUNKNOWN_DATABASE, "Database %s does not exist", name);
                break;
            }
            char text[600];
            snprintf(text, sizeof(text), "CREATE DATABASE %s\nENGINE = Atomic", name);
            sys_str(&r, 0, text);
            break;
        }
        const catalog_table *t = NULL;
        r.rc = catalog_snapshot_lookup_table(snap, db, name, &t, err);
        if (r.rc == MU_EUNKNOWN_TABLE && stmt->kind == SQL_SHOW_CREATE)
            r.rc = MU_ERR(err, MU_ECREATE_QUERY, "Table %s.%s does not exist", db, name);
        else if (r.rc == MU_EUNKNOWN_TABLE)
            r.rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", db, name);
        if (r.rc != 0) break;
        if (stmt->kind == SQL_SHOW_CREATE) {
            sys_column(&r, "statement", "String");
            mu_buf b;
            mu_buf_init(&b, 0);
            r.rc = sys_create_query(t, &b, err);
            if (r.rc == 0) r.rc = mu_buf_append_u8(&b, 0, err);
            if (r.rc == 0) sys_str(&r, 0, (const char *)b.data);
            mu_buf_deinit(&b);
            break;
        }
        sys_column(&r, "name", "String");
        sys_column(&r, "type", "String");
        sys_column(&r, "default_type", "String");
        sys_column(&r, "default_expression", "String");
        sys_column(&r, "comment", "String");
        sys_column(&r, "codec_expression", "String");
        sys_column(&r, "ttl_expression", "String");
        for (uint32_t i = 0; i < t->def.column_count; i++) {
            const catalog_column *c = &t->def.columns[i];
            sys_str(&r, 0, c->name);
            sys_str(&r, 1, c->type);
            sys_str(&r, 2, catalog_default_kind_name(c->default_kind));
            sys_str(&r, 3, c->default_expression);
            sys_str(&r, 4, c->comment);
            sys_str(&r, 5, c->codec);
            sys_str(&r, 6, "");
        }
        break;
    }
    default:
        r.rc = MU_ERR(err, MU_EINTERNAL, "not a SHOW statement");
    }
    catalog_snapshot_release(snap);
    return sys_finish(&r, out);
}

/* ---- system tables ---------------------------------------------------------------- */


/* system.functions: ClickHouse's columns (Grafana's SQL editor reads them
 * all for autocompletion). muscles keeps no documentation per function,
 * so description .. categories are empty, as ClickHouse leaves them for
 * undocumented functions; every function is a built-in ('System'). */
static const char *const sys_functions_columns[][2] = {
    {"name", "String"},           {"is_aggregate", "UInt8"},   {"case_insensitive", "UInt8"},
    {"alias_to", "String"},       {"create_query", "String"},
    {"origin", "Enum8('System' = 0, 'SQLUserDefined' = 1, 'ExecutableUserDefined' = 2)"},
    {"description", "String"},    {"syntax", "String"},        {"arguments", "String"},
    {"returned_value", "String"}, {"examples", "String"},      {"categories", "String"},
};

static void sys_functions_row(void *ctx, const char *name, bool is_aggregate, bool case_insensitive) {
    sys_result *r = ctx;
    sys_str(r, 0, name);
    sys_u64(r, 1, is_aggregate);
    sys_u64(r, 2, case_insensitive);
    sys_text(r, 5, "System");
    for (uint32_t i = 3; i < MU_ARRAY_LEN(sys_functions_columns); i++)
        if (i != 5) sys_str(r, i, "");
}

static void sys_key_flags(const catalog_table *t, const char *column, bool *partition,
                          bool *sorting, bool *primary) {
    *sorting = *primary = false;
    for (uint32_t k = 0; k < t->def.order_by_count; k++)
        if (strcmp(t->def.order_by[k], column) == 0) *sorting = true;
    uint32_t pk = t->def.primary_key_count ? t->def.primary_key_count : t->def.order_by_count;
    const char *const *keys = t->def.primary_key_count ? t->def.primary_key : t->def.order_by;
    for (uint32_t k = 0; k < pk; k++)
        if (strcmp(keys[k], column) == 0) *primary = true;
    *partition = t->def.partition_by[0] && strstr(t->def.partition_by, column) != NULL;
}

static void sys_key_text(const char *const *keys, uint32_t count, char *out, size_t out_bytes) {
    size_t used = 0;
    out[0] = 0;
    for (uint32_t i = 0; i < count; i++) {
        int w = snprintf(out + used, out_bytes - used, "%s%s", i ? ", " : "", keys[i]);
        if (w < 0 || (size_t)w >= out_bytes - used) break;
        used += (size_t)w;
    }
}

static void sys_table_sizes(sql_query *q, const catalog_table *t, uint64_t *rows, uint64_t *bytes) {
    *rows = *bytes = 0;
    storage_table *ref;
    mu_err ignored;
    if (storage_table_acquire(q->engine->storage, t->def.database, t->def.name, &ref, &ignored) != 0)
        return;
    table_version *v = table_version_acquire(storage_table_get(ref));
    for (uint32_t i = 0; i < table_version_part_count(v); i++) {
        const part_info *info = part_get_info(table_version_part(v, i));
        *rows += info->row_count;
        *bytes += info->bytes_on_disk;
    }
    for (uint32_t i = 0; i < table_version_memtable_count(v); i++) {
        memtable_snapshot s;
        memtable_snapshot_take(table_version_memtable(v, i), &s);
        *rows += s.row_count;
    }
    table_version_release(v);
    storage_table_release(ref);
}

static int sys_count_running(void *ctx, const sql_process *p, const sql_query_log_row *log,
                             const char *event, uint64_t value, int64_t now_us) {
    (void)log;
    (void)event;
    (void)value;
    (void)now_us;
    if (p) (*(uint64_t *)ctx)++;
    return 0;
}

static uint64_t sys_running_queries(sql_activity *a) {
    uint64_t n = 0;
    sql__activity_snapshot(a, sys_count_running, &n);
    return n;
}

/* Damaged parts moved aside at start-up: <data dir>/detached/<name>. */
static void sys_detached(sys_result *r, const catalog_table *t, const char *data_dir) {
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/detached", data_dir);
    DIR *d = opendir(dir);
    if (d == NULL) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && r->rc == 0) {
        if (e->d_name[0] == '.') continue;
        char path[4400];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        sys_str(r, 0, t->def.database);
        sys_str(r, 1, t->def.name);
        char pid[256];
        const char *us = strchr(e->d_name, '_');
        if (us) {
            snprintf(pid, sizeof(pid), "%.*s", (int)(us - e->d_name), e->d_name);
            sys_str(r, 2, pid);
        } else if (r->rc == 0) {
            r->rc = ty_column_append_null(r->cols[2], r->err);
        }
        sys_str(r, 3, e->d_name);
        sys_str(r, 4, "broken");
        sys_str(r, 5, path);
    }
    closedir(d);
}

typedef struct sys_activity_ctx {
    sys_result *r;
    int which; /* 0 processes, 1 query_log, 2 events */
} sys_activity_ctx;

static void sys_time(sys_result *r, uint32_t i, int64_t us) {
    char ts[32];
    snprintf(ts, sizeof(ts), "%lld", (long long)(us / 1000000));
    sys_text(r, i, ts);
}

static int sys_activity_row(void *ctx, const sql_process *p, const sql_query_log_row *log,
                            const char *event, uint64_t value, int64_t now_us) {
    sys_activity_ctx *c = ctx;
    sys_result *r = c->r;
    if (c->which == 0 && p) {
        char elapsed[48];
        snprintf(elapsed, sizeof(elapsed), "%.6f", (double)(now_us - p->start_us) / 1e6);
        sys_u64(r, 0, 1);
        sys_str(r, 1, p->user);
        sys_str(r, 2, p->query_id);
        sys_text(r, 3, elapsed);
        sys_u64(r, 4, p->read_rows);
        sys_u64(r, 5, p->written_rows);
        sys_u64(r, 6, 0);
        sys_str(r, 7, p->query);
        sys_str(r, 8, p->database);
    } else if (c->which == 1 && log) {
        sys_str(r, 0, log->type);
        sys_time(r, 1, log->event_time_us);
        sys_time(r, 2, log->start_us);
        sys_u64(r, 3, (uint64_t)((log->event_time_us - log->start_us) / 1000));
        sys_u64(r, 4, log->read_rows);
        sys_u64(r, 5, log->written_rows);
        sys_u64(r, 6, log->result_rows);
        sys_str(r, 7, log->query);
        char code[16];
        snprintf(code, sizeof(code), "%d", log->exception_code);
        sys_text(r, 8, code);
        sys_str(r, 9, log->exception);
        sys_str(r, 10, log->query_id);
        sys_str(r, 11, log->user);
        sys_str(r, 12, log->database);
    } else if (c->which == 2 && event) {
        sys_str(r, 0, event);
        sys_u64(r, 1, value);
        sys_str(r, 2, "");
    }
    return r->rc;
}

int sql__system_table(sql_query *q, const char *name, sql_operator **out, mu_err *err) {
    if (strcmp(name, "numbers") == 0) return sql__op_numbers(q, 0, 0, true, out, err);
    if (strcmp(name, "numbers_mt") == 0) return sql__op_numbers(q, 0, 0, true, out, err);
    sys_result r;
    sys_init(&r, q, err);
    catalog_snapshot *snap = catalog_snapshot_acquire(storage_catalog(q->engine->storage));
    if (strcmp(name, "one") == 0) {
        sys_column(&r, "dummy", "UInt8");
        sys_u64(&r, 0, 0);
    } else if (strcmp(name, "databases") == 0) {
        sys_column(&r, "name", "String");
        sys_column(&r, "engine", "String");
        sys_column(&r, "data_path", "String");
        sys_column(&r, "metadata_path", "String");
        sys_column(&r, "uuid", "UUID");
        sys_column(&r, "engine_full", "String");
        sys_column(&r, "comment", "String");
        size_t n = catalog_snapshot_database_count(snap);
        for (size_t i = 0; i <= n; i++) {
            bool system = i == n;
            const catalog_database *d = system ? NULL : catalog_snapshot_database_at(snap, i);
            char uuid[CATALOG_UUID_TEXT_BYTES] = "00000000-0000-0000-0000-000000000000";
            if (d) catalog_uuid_format(&d->uuid, uuid);
            sys_str(&r, 0, system ? "system" : d->name);
            sys_str(&r, 1, system ? "Memory" : d->engine);
            sys_str(&r, 2, "");
            sys_str(&r, 3, "");
            sys_text(&r, 4, uuid);
            sys_str(&r, 5, system ? "Memory" : d->engine);
            sys_str(&r, 6, system ? "" : d->comment);
        }
    } else if (strcmp(name, "tables") == 0) {
        const char *cols[][2] = {{"database", "String"}, {"name", "String"}, {"uuid", "UUID"},
                                 {"engine", "String"}, {"is_temporary", "UInt8"},
                                 {"metadata_modification_time", "DateTime"},
                                 {"create_table_query", "String"}, {"engine_full", "String"},
                                 {"partition_key", "String"}, {"sorting_key", "String"},
                                 {"primary_key", "String"}, {"total_rows", "Nullable(UInt64)"},
                                 {"total_bytes", "Nullable(UInt64)"}, {"comment", "String"}};
        for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) sys_column(&r, cols[i][0], cols[i][1]);
        for (size_t i = 0; i < sizeof(sys_table_names) / sizeof(sys_table_names[0]); i++) {
            sys_str(&r, 0, "system");
            sys_str(&r, 1, sys_table_names[i][0]);
            sys_text(&r, 2, "00000000-0000-0000-0000-000000000000");
            sys_str(&r, 3, sys_table_names[i][1]);
            sys_u64(&r, 4, 0);
            sys_text(&r, 5, "0");
            for (uint32_t c = 6; c <= 10; c++) sys_str(&r, c, c == 7 ? sys_table_names[i][1] : "");
            if (r.rc == 0) r.rc = ty_column_append_null(r.cols[11], err);
            if (r.rc == 0) r.rc = ty_column_append_null(r.cols[12], err);
            sys_str(&r, 13, "");
        }
        size_t n = catalog_snapshot_table_count(snap);
        for (size_t i = 0; i < n && r.rc == 0; i++) {
            const catalog_table *t = catalog_snapshot_table_at(snap, i);
            char uuid[CATALOG_UUID_TEXT_BYTES], key[1024], ts[32];
            catalog_uuid_format(&t->uuid, uuid);
            sys_str(&r, 0, t->def.database);
            sys_str(&r, 1, t->def.name);
            sys_text(&r, 2, uuid);
            sys_str(&r, 3, catalog_engine_name(t->def.engine));
            sys_u64(&r, 4, 0);
            snprintf(ts, sizeof(ts), "%lld", (long long)(t->created_at_ns / 1000000000));
            sys_text(&r, 5, ts);
            mu_buf b;
            mu_buf_init(&b, 0);
            r.rc = r.rc ? r.rc : sys_create_query(t, &b, err);
            if (r.rc == 0) r.rc = mu_buf_append_u8(&b, 0, err);
            if (r.rc == 0) sys_str(&r, 6, (const char *)b.data);
            mu_buf_deinit(&b);
            sys_str(&r, 7, catalog_engine_name(t->def.engine));
            sys_str(&r, 8, t->def.partition_by);
            sys_key_text(t->def.order_by, t->def.order_by_count, key, sizeof(key));
            sys_str(&r, 9, key);
            if (t->def.primary_key_count)
                sys_key_text(t->def.primary_key, t->def.primary_key_count, key, sizeof(key));
            sys_str(&r, 10, key);
            uint64_t rows, bytes;
            sys_table_sizes(q, t, &rows, &bytes);
            sys_u64(&r, 11, rows);
            sys_u64(&r, 12, bytes);
            sys_str(&r, 13, t->def.comment);
        }
    } else if (strcmp(name, "columns") == 0) {
        const char *cols[][2] = {{"database", "String"}, {"table", "String"}, {"name", "String"},
                                 {"type", "String"}, {"position", "UInt64"},
                                 {"default_kind", "String"}, {"default_expression", "String"},
                                 {"data_compressed_bytes", "UInt64"},
                                 {"data_uncompressed_bytes", "UInt64"}, {"marks_bytes", "UInt64"},
                                 {"comment", "String"}, {"is_in_partition_key", "UInt8"},
                                 {"is_in_sorting_key", "UInt8"}, {"is_in_primary_key", "UInt8"},
                                 {"is_in_sampling_key", "UInt8"}, {"compression_codec", "String"}};
        for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) sys_column(&r, cols[i][0], cols[i][1]);
        size_t n = catalog_snapshot_table_count(snap);
        for (size_t i = 0; i < n; i++) {
            const catalog_table *t = catalog_snapshot_table_at(snap, i);
            for (uint32_t c = 0; c < t->def.column_count; c++) {
                const catalog_column *cc = &t->def.columns[c];
                bool in_partition, sort, pk;
                sys_key_flags(t, cc->name, &in_partition, &sort, &pk);
                sys_str(&r, 0, t->def.database);
                sys_str(&r, 1, t->def.name);
                sys_str(&r, 2, cc->name);
                sys_str(&r, 3, cc->type);
                sys_u64(&r, 4, c + 1);
                sys_str(&r, 5, catalog_default_kind_name(cc->default_kind));
                sys_str(&r, 6, cc->default_expression);
                sys_u64(&r, 7, 0);
                sys_u64(&r, 8, 0);
                sys_u64(&r, 9, 0);
                sys_str(&r, 10, cc->comment);
                sys_u64(&r, 11, in_partition);
                sys_u64(&r, 12, sort);
                sys_u64(&r, 13, pk);
                sys_u64(&r, 14, 0);
                char codec[600];
                snprintf(codec, sizeof(codec), cc->codec[0] ? "CODEC(%s)" : "%s", cc->codec);
                sys_str(&r, 15, codec);
            }
        }
    } else if (strcmp(name, "parts") == 0) {
        const char *cols[][2] = {{"partition", "String"}, {"name", "String"}, {"part_type", "String"},
                                 {"active", "UInt8"}, {"marks", "UInt64"}, {"rows", "UInt64"},
                                 {"bytes_on_disk", "UInt64"}, {"min_block_number", "Int64"},
                                 {"max_block_number", "Int64"}, {"level", "UInt32"},
                                 {"database", "String"}, {"table", "String"}, {"engine", "String"},
                                 {"path", "String"}, {"partition_id", "String"}};
        for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) sys_column(&r, cols[i][0], cols[i][1]);
        size_t n = catalog_snapshot_table_count(snap);
        for (size_t i = 0; i < n && r.rc == 0; i++) {
            const catalog_table *t = catalog_snapshot_table_at(snap, i);
            storage_table *ref;
            mu_err ignored;
            if (storage_table_acquire(q->engine->storage, t->def.database, t->def.name, &ref, &ignored) != 0)
                continue;
            table_version *v = table_version_acquire(storage_table_get(ref));
            for (uint32_t p = 0; p < table_version_part_count(v); p++) {
                const part_info *info = part_get_info(table_version_part(v, p));
                sys_str(&r, 0, info->partition_value);
                sys_str(&r, 1, info->name);
                sys_str(&r, 2, "Wide");
                sys_u64(&r, 3, 1);
                sys_u64(&r, 4, info->granule_count);
                sys_u64(&r, 5, info->row_count);
                sys_u64(&r, 6, info->bytes_on_disk);
                sys_u64(&r, 7, info->lsn_min);
                sys_u64(&r, 8, info->lsn_max);
                sys_u64(&r, 9, info->level);
                sys_str(&r, 10, t->def.database);
                sys_str(&r, 11, t->def.name);
                sys_str(&r, 12, catalog_engine_name(t->def.engine));
                sys_str(&r, 13, info->dir);
                sys_str(&r, 14, info->partition_id);
            }
            table_version_release(v);
            storage_table_release(ref);
        }
    } else if (strcmp(name, "settings") == 0) {
        sys_column(&r, "name", "String");
        sys_column(&r, "value", "String");
        sys_column(&r, "changed", "UInt8");
        sys_column(&r, "description", "String");
        sys_column(&r, "type", "String");
        for (size_t i = 0; i < sql__setting_count(); i++) {
            const sql_setting_info *s = sql__setting_at(i);
            const char *v = sql_session_get(q->session, s->name);
            sys_str(&r, 0, s->name);
            sys_str(&r, 1, v ? v : s->default_value);
            sys_u64(&r, 2, v != NULL);
            sys_str(&r, 3, s->description);
            sys_str(&r, 4, s->type);
        }
    } else if (strcmp(name, "functions") == 0) {
        for (size_t i = 0; i < MU_ARRAY_LEN(sys_functions_columns); i++)
            sys_column(&r, sys_functions_columns[i][0], sys_functions_columns[i][1]);
        exec_function_foreach(sys_functions_row, &r);
    } else if (strcmp(name, "data_skipping_indices") == 0) {
        const char *cols[][2] = {{"database", "String"}, {"table", "String"}, {"name", "String"},
                                 {"type", "String"}, {"type_full", "String"}, {"expr", "String"},
                                 {"granularity", "UInt64"}};
        for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) sys_column(&r, cols[i][0], cols[i][1]);
        size_t n = catalog_snapshot_table_count(snap);
        for (size_t i = 0; i < n && r.rc == 0; i++) {
            const catalog_table *t = catalog_snapshot_table_at(snap, i);
            for (uint32_t x = 0; x < t->def.index_count; x++) {
                const catalog_index *ix = &t->def.indexes[x];
                char type[256];
                size_t len = strcspn(ix->type, "(");
                snprintf(type, sizeof(type), "%.*s", (int)len, ix->type);
                sys_str(&r, 0, t->def.database);
                sys_str(&r, 1, t->def.name);
                sys_str(&r, 2, ix->name);
                sys_str(&r, 3, type);
                sys_str(&r, 4, ix->type);
                sys_str(&r, 5, ix->expression);
                sys_u64(&r, 6, ix->granularity);
            }
        }
    } else if (strcmp(name, "processes") == 0) {
        const char *cols[][2] = {{"is_initial_query", "UInt8"}, {"user", "String"},
                                 {"query_id", "String"}, {"elapsed", "Float64"},
                                 {"read_rows", "UInt64"}, {"written_rows", "UInt64"},
                                 {"memory_usage", "Int64"}, {"query", "String"},
                                 {"current_database", "String"}};
        for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) sys_column(&r, cols[i][0], cols[i][1]);
        sys_activity_ctx c = {&r, 0};
        if (r.rc == 0) sql__activity_snapshot(q->engine->activity, sys_activity_row, &c);
    } else if (strcmp(name, "query_log") == 0) {
        const char *cols[][2] = {{"type", "String"}, {"event_time", "DateTime"},
                                 {"query_start_time", "DateTime"}, {"query_duration_ms", "UInt64"},
                                 {"read_rows", "UInt64"}, {"written_rows", "UInt64"},
                                 {"result_rows", "UInt64"}, {"query", "String"},
                                 {"exception_code", "Int32"}, {"exception", "String"},
                                 {"query_id", "String"}, {"user", "String"},
                                 {"current_database", "String"}};
        for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) sys_column(&r, cols[i][0], cols[i][1]);
        sys_activity_ctx c = {&r, 1};
        if (r.rc == 0) sql__activity_snapshot(q->engine->activity, sys_activity_row, &c);
    } else if (strcmp(name, "events") == 0) {
        sys_column(&r, "event", "String");
        sys_column(&r, "value", "UInt64");
        sys_column(&r, "description", "String");
        sys_activity_ctx c = {&r, 2};
        if (r.rc == 0) sql__activity_snapshot(q->engine->activity, sys_activity_row, &c);
    } else if (strcmp(name, "metrics") == 0) {
        sys_column(&r, "metric", "String");
        sys_column(&r, "value", "Int64");
        sys_column(&r, "description", "String");
        uint64_t running = sys_running_queries(q->engine->activity);
        sys_str(&r, 0, "Query");
        sys_u64(&r, 1, running);
        sys_str(&r, 2, "Number of executing queries");
        sys_str(&r, 0, "TableCount");
        sys_u64(&r, 1, storage_table_count(q->engine->storage));
        sys_str(&r, 2, "Number of open tables");
    } else if (strcmp(name, "detached_parts") == 0) {
        const char *cols[][2] = {{"database", "String"}, {"table", "String"},
                                 {"partition_id", "Nullable(String)"}, {"name", "String"},
                                 {"reason", "String"}, {"path", "String"}};
        for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) sys_column(&r, cols[i][0], cols[i][1]);
        size_t n = catalog_snapshot_table_count(snap);
        for (size_t i = 0; i < n && r.rc == 0; i++) {
            const catalog_table *t = catalog_snapshot_table_at(snap, i);
            storage_table *ref;
            mu_err ignored;
            if (storage_table_acquire(q->engine->storage, t->def.database, t->def.name, &ref, &ignored) != 0)
                continue;
            sys_detached(&r, t, storage_table_data_dir(ref));
            storage_table_release(ref);
        }
    } else {
        r.rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "Table system.%s does not exist", name);
    }
    catalog_snapshot_release(snap);
    return sys_finish(&r, out);
}

/* ---- table functions ------------------------------------------------------------------- */

int sql__table_function(sql_query *q, const sql_node *func, sql_operator **out, mu_err *err) {
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)func->func.name.length, func->func.name.ptr);
    uint64_t a[2] = {0, 0};
    size_t n = func->func.args.count;
    for (size_t i = 0; i < n && i < 2; i++) {
        const ty_column *c;
        int rc = sql__eval_const(q, func->func.args.items[i], &c, err);
        if (rc != 0) return rc;
        const ty_type *t = ty_type_strip_nullable(c->type);
        if (!exec_type_is_integer(t) || (exec_type_is_signed(t) && exec_get_i64(c, 0) < 0))
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type of argument %zu of table function %s: "
                          "a non-negative integer is expected", i + 1, name);
        a[i] = exec_get_u64(c, 0);
    }
    if (strcmp(name, "numbers") == 0 || strcmp(name, "numbers_mt") == 0) {
        if (n == 1) return sql__op_numbers(q, 0, a[0], false, out, err);
        if (n == 2) return sql__op_numbers(q, a[0], a[1], false, out, err);
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Table function '%s' requires 'length' or "
                      "'offset, length'", name);
    }
    if (strcmp(name, "zeros") == 0 || strcmp(name, "zeros_mt") == 0) {
        if (n != 1)
            return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Table function '%s' requires 1 argument", name);
        sql_operator *nums;
        int rc = sql__op_numbers(q, 0, a[0], false, &nums, err);
        if (rc != 0) return rc;
        exec_expr **e = mu_arena_calloc(q->arena, 1, sizeof(*e), err);
        const char **names = mu_arena_calloc(q->arena, 1, sizeof(*names), err);
        if (e == NULL || names == NULL) {
            sql__op_destroy(nums);
            return err->code;
        }
        rc = exec_expr_const_uint(&q->builder, 0, &e[0], err);
        names[0] = "zero";
        if (rc != 0) {
            sql__op_destroy(nums);
            return rc;
        }
        return sql__op_project(q, nums, e, names, 1, out, err);
    }
    return MU_ERR(err, MU_EUNKNOWN_TABLE_FUNCTION, "Unknown table function %s", name);
}
