/* sql_ddl.c: CREATE DATABASE, CREATE TABLE [AS SELECT], DROP, TRUNCATE,
 * RENAME, ALTER. A CREATE TABLE becomes a catalog_table_def whose
 * expressions are stored as canonical SQL text (sql_ast_format), so SHOW
 * CREATE TABLE prints what parses back to the same table.
 */
#include "sql/query_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *ddl_str(sql_query *q, sql_str s, mu_err *err) {
    return mu_arena_strndup(q->arena, s.ptr ? s.ptr : "", s.ptr ? s.length : 0, err);
}

static int ddl_text(sql_query *q, const sql_node *n, const char **out, mu_err *err) {
    if (n == NULL) {
        *out = "";
        return 0;
    }
    return sql__expr_text(n, q->arena, out, err);
}

static const char *ddl_database(sql_query *q, sql_str db, mu_err *err) {
    return db.ptr ? ddl_str(q, db, err) : q->session->database;
}

/* ORDER BY (a, b) / tuple(a, b) / a: the list of elements. */
static int ddl_key_list(sql_query *q, const sql_node *n, const char *const **out,
                        uint32_t *count_out, mu_err *err) {
    *count_out = 0;
    *out = NULL;
    if (n == NULL) return 0;
    const sql_node *const *items = &n;
    size_t count = 1;
    if (n->kind == SQL_TUPLE) {
        items = (const sql_node *const *)n->array.items.items;
        count = n->array.items.count;
    } else if (n->kind == SQL_FUNC && sql_str_eq(n->func.name, "tuple")) {
        items = (const sql_node *const *)n->func.args.items;
        count = n->func.args.count;
    }
    const char **texts = mu_arena_calloc(q->arena, count + 1, sizeof(*texts), err);
    if (texts == NULL) return err->code;
    for (size_t i = 0; i < count; i++) {
        int rc = ddl_text(q, items[i], &texts[i], err);
        if (rc != 0) return rc;
    }
    *out = texts;
    *count_out = (uint32_t)count;
    return 0;
}

static int ddl_engine_params(sql_query *q, const sql_node *engine, const char **out, mu_err *err) {
    mu_buf b;
    mu_buf_init(&b, 0);
    int rc = 0;
    for (size_t i = 0; i < engine->func.args.count && rc == 0; i++) {
        if (i > 0) rc = mu_buf_append_str(&b, ", ", err);
        if (rc == 0) rc = sql_ast_format(engine->func.args.items[i], &b, err);
    }
    if (rc == 0) {
        *out = mu_arena_strndup(q->arena, b.data ? (char *)b.data : "", b.length_bytes, err);
        if (*out == NULL) rc = err->code;
    }
    mu_buf_deinit(&b);
    return rc;
}

static int ddl_codec_text(sql_query *q, const sql_node *codec, const char **out, mu_err *err) {
    if (codec == NULL) {
        *out = "";
        return 0;
    }
    return ddl_engine_params(q, codec, out, err);
}

static int ddl_column(sql_query *q, const sql_node *c, catalog_column *cc, mu_err *err);

/* Column definitions from the AST, or from a SELECT's output. */
static int ddl_columns(sql_query *q, const sql_node *stmt, catalog_column **out,
                       uint32_t *count_out, mu_err *err) {
    size_t n = stmt->create.columns.count;
    catalog_column *cols = mu_arena_calloc(q->arena, n + 1, sizeof(*cols), err);
    if (cols == NULL) return err->code;
    for (size_t i = 0; i < n; i++) {
        int rc = ddl_column(q, stmt->create.columns.items[i], &cols[i], err);
        if (rc != 0) return rc;
    }
    *out = cols;
    *count_out = (uint32_t)n;
    return 0;
}

/* One column definition; a column without a type takes its default's. */
static int ddl_column(sql_query *q, const sql_node *c, catalog_column *cc, mu_err *err) {
    {
        cc->name = ddl_str(q, c->column_def.name, err);
        int rc = 0;
        if (c->column_def.type.ptr) {
            const ty_type *t;
            rc = ty_type_parse_n(c->column_def.type.ptr, c->column_def.type.length, q->arena, &t, err);
            if (rc == 0) {
                mu_buf b;
                mu_buf_init(&b, 0);
                rc = ty_type_render(t, &b, err);
                if (rc == 0) cc->type = mu_arena_strndup(q->arena, (char *)b.data, b.length_bytes, err);
                mu_buf_deinit(&b);
            }
        } else if (c->column_def.default_expr) {
            /* The type of the default expression. */
            sql_scope empty = {.clause = "DEFAULT"};
            exec_expr *e;
            rc = sql__bind_expr(q, &empty, c->column_def.default_expr, &e, err);
            if (rc == 0) {
                mu_buf b;
                mu_buf_init(&b, 0);
                rc = ty_type_render(e->type, &b, err);
                if (rc == 0) cc->type = mu_arena_strndup(q->arena, (char *)b.data, b.length_bytes, err);
                mu_buf_deinit(&b);
            }
        } else {
            rc = MU_ERR(err, MU_ESYNTAX, "column %s has neither a type nor a default", cc->name);
        }
        if (rc != 0) return rc;
        switch (c->column_def.default_kind) {
        case SQL_DEFAULT_DEFAULT: cc->default_kind = CATALOG_DEFAULT_DEFAULT; break;
        case SQL_DEFAULT_MATERIALIZED: cc->default_kind = CATALOG_DEFAULT_MATERIALIZED; break;
        case SQL_DEFAULT_ALIAS: cc->default_kind = CATALOG_DEFAULT_ALIAS; break;
        case SQL_DEFAULT_EPHEMERAL:
            return MU_ERR(err, MU_ENOT_SUPPORTED, "EPHEMERAL columns are not supported yet");
        default: cc->default_kind = CATALOG_DEFAULT_NONE; break;
        }
        rc = ddl_text(q, c->column_def.default_expr, &cc->default_expression, err);
        if (rc == 0) rc = ddl_codec_text(q, c->column_def.codec, &cc->codec, err);
        if (rc != 0) return rc;
        if (c->column_def.ttl)
            return MU_ERR(err, MU_ENOT_SUPPORTED, "column TTL is not supported yet (column %s)",
                          cc->name);
        cc->comment = ddl_str(q, c->column_def.comment, err);
    }
    return 0;
}

/* ---- ALTER ---------------------------------------------------------------- */

static int ddl_find_column(const catalog_column *cols, uint32_t n, sql_str name) {
    for (uint32_t i = 0; i < n; i++)
        if (strlen(cols[i].name) == name.length && memcmp(cols[i].name, name.ptr, name.length) == 0)
            return (int)i;
    return -1;
}

static bool ddl_node_is_ident(const sql_node *n, void *ctx) {
    const char *name = ctx;
    if (n->kind != SQL_IDENT) return false;
    sql_str last = n->ident.parts[n->ident.count - 1];
    return strlen(name) == last.length && memcmp(name, last.ptr, last.length) == 0;
}

/* True when the key expression `text` reads column `name` (an expression
 * that does not parse counts as reading it: refusing is the safe side). */
static bool ddl_key_mentions(sql_query *q, const char *text, const char *name) {
    if (text[0] == '\0') return false;
    sql_node *expr;
    mu_err ignored;
    if (sql_parse_expr(text, strlen(text), q->arena, NULL, &expr, &ignored) != 0) return true;
    return sql__node_any(expr, ddl_node_is_ident, (void *)name);
}

static bool ddl_is_key_column(sql_query *q, const catalog_table_def *d, const char *name) {
    for (uint32_t k = 0; k < d->order_by_count; k++)
        if (ddl_key_mentions(q, d->order_by[k], name)) return true;
    for (uint32_t k = 0; k < d->primary_key_count; k++)
        if (ddl_key_mentions(q, d->primary_key[k], name)) return true;
    return ddl_key_mentions(q, d->partition_by, name);
}

static int ddl_alter(sql_query *q, const sql_node *stmt, mu_err *err) {
    const char *db = ddl_database(q, stmt->alter.database, err);
    const char *name = ddl_str(q, stmt->alter.table, err);
    catalog_snapshot *snap = catalog_snapshot_acquire(storage_catalog(q->engine->storage));
    const catalog_table *t = NULL;
    int rc = catalog_snapshot_lookup_table(snap, db, name, &t, err);
    if (rc == MU_EUNKNOWN_TABLE || rc == MU_EUNKNOWN_DATABASE)
        rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", db, name);
    if (rc != 0) {
        catalog_snapshot_release(snap);
        return rc;
    }
    const catalog_table *keep = catalog_table_acquire(t);
    catalog_snapshot_release(snap);
    catalog_table_def def = keep->def;
    uint32_t n = def.column_count;
    size_t extra = stmt->alter.commands.count;
    catalog_column *cols = mu_arena_calloc(q->arena, n + extra + 1, sizeof(*cols), err);
    catalog_setting *sets = mu_arena_calloc(q->arena, def.setting_count + 64, sizeof(*sets), err);
    if (cols == NULL || sets == NULL) {
        catalog_table_release(keep);
        return err->code;
    }
    memcpy(cols, def.columns, n * sizeof(*cols));
    if (def.setting_count) memcpy(sets, def.settings, def.setting_count * sizeof(*sets));
    uint32_t nsets = def.setting_count;
    bool changed = false;
    for (size_t i = 0; i < stmt->alter.commands.count && rc == 0; i++) {
        const sql_node *c = stmt->alter.commands.items[i];
        switch (c->alter_cmd.kind) {
        case SQL_ALTER_ADD_COLUMN: {
            if (ddl_find_column(cols, n, c->alter_cmd.column->column_def.name) >= 0) {
                if (c->alter_cmd.if_flag) break;
                rc = MU_ERR(err, MU_EDUPLICATE_COLUMN, "Cannot add column %.*s: column with this "
                            "name already exists", (int)c->alter_cmd.column->column_def.name.length,
                            c->alter_cmd.column->column_def.name.ptr);
                break;
            }
            catalog_column added;
            memset(&added, 0, sizeof(added));
            rc = ddl_column(q, c->alter_cmd.column, &added, err);
            if (rc != 0) break;
            uint32_t at = n;
            if (c->alter_cmd.first) at = 0;
            if (c->alter_cmd.after.ptr) {
                int a = ddl_find_column(cols, n, c->alter_cmd.after);
                if (a < 0) {
                    rc = MU_ERR(err, MU_EUNKNOWN_COLUMN, "Wrong column name. Cannot find column %.*s to "
                                "insert after", (int)c->alter_cmd.after.length, c->alter_cmd.after.ptr);
                    break;
                }
                at = (uint32_t)a + 1;
            }
            memmove(&cols[at + 1], &cols[at], (n - at) * sizeof(*cols));
            cols[at] = added;
            n++;
            changed = true;
            break;
        }
        case SQL_ALTER_DROP_COLUMN: {
            int k = ddl_find_column(cols, n, c->alter_cmd.name);
            if (k < 0) {
                if (c->alter_cmd.if_flag) break;
                rc = MU_ERR(err, MU_ENOT_FOUND_COLUMN, "Wrong column name. Cannot find column %.*s to drop",
                            (int)c->alter_cmd.name.length, c->alter_cmd.name.ptr);
                break;
            }
            if (ddl_is_key_column(q, &def, cols[k].name)) {
                rc = MU_ERR(err, MU_EALTER_FORBIDDEN, "Trying to ALTER key column %s", cols[k].name);
                break;
            }
            memmove(&cols[k], &cols[k + 1], (n - (uint32_t)k - 1) * sizeof(*cols));
            n--;
            changed = true;
            break;
        }
        case SQL_ALTER_MODIFY_COLUMN: {
            const sql_node *cd = c->alter_cmd.column;
            int k = ddl_find_column(cols, n, cd->column_def.name);
            if (k < 0) {
                if (c->alter_cmd.if_flag) break;
                rc = MU_ERR(err, MU_ENOT_FOUND_COLUMN, "Wrong column name. Cannot find column %.*s to modify",
                            (int)cd->column_def.name.length, cd->column_def.name.ptr);
                break;
            }
            catalog_column m;
            memset(&m, 0, sizeof(m));
            if (cd->column_def.type.ptr == NULL && cd->column_def.default_expr == NULL) {
                m = cols[k]; /* only a comment or codec */
                if (cd->column_def.comment.ptr) m.comment = ddl_str(q, cd->column_def.comment, err);
                if (cd->column_def.codec) rc = ddl_codec_text(q, cd->column_def.codec, &m.codec, err);
            } else {
                rc = ddl_column(q, cd, &m, err);
                if (rc == 0 && cd->column_def.type.ptr == NULL) m.type = cols[k].type;
                if (rc == 0 && cd->column_def.comment.ptr == NULL) m.comment = cols[k].comment;
                if (rc == 0 && cd->column_def.codec == NULL) m.codec = cols[k].codec;
            }
            if (rc == 0 && strcmp(m.type, cols[k].type) != 0 && ddl_is_key_column(q, &def, cols[k].name))
                rc = MU_ERR(err, MU_EALTER_FORBIDDEN, "Trying to ALTER key column %s", cols[k].name);
            if (rc == 0) {
                cols[k] = m;
                changed = true;
            }
            break;
        }
        case SQL_ALTER_MODIFY_TTL: {
            mu_buf b;
            mu_buf_init(&b, 0);
            for (size_t e = 0; e < c->alter_cmd.exprs.count && rc == 0; e++) {
                if (e > 0) rc = mu_buf_append_str(&b, ", ", err);
                if (rc == 0) rc = sql_ast_format(c->alter_cmd.exprs.items[e], &b, err);
            }
            if (rc == 0) {
                def.ttl = mu_arena_strndup(q->arena, b.data ? (char *)b.data : "", b.length_bytes, err);
                if (def.ttl == NULL) rc = err->code;
            }
            mu_buf_deinit(&b);
            changed = true;
            break;
        }
        case SQL_ALTER_MODIFY_SETTING:
            for (size_t e = 0; e < c->alter_cmd.exprs.count && rc == 0; e++) {
                const sql_node *st = c->alter_cmd.exprs.items[e];
                const char *sname = ddl_str(q, st->setting.name, err);
                const char *value;
                rc = ddl_text(q, st->setting.value, &value, err);
                if (rc != 0) break;
                if (strcmp(sname, "index_granularity") == 0) {
                    rc = MU_ERR(err, MU_EREADONLY, "Setting 'index_granularity' is readonly for "
                                "storage 'MergeTree'");
                    break;
                }
                uint32_t k;
                for (k = 0; k < nsets; k++)
                    if (strcmp(sets[k].name, sname) == 0) break;
                if (k == nsets) {
                    if (nsets >= def.setting_count + 64) {
                        rc = MU_ERR(err, MU_ETOO_LARGE, "too many settings");
                        break;
                    }
                    nsets++;
                }
                sets[k].name = sname;
                sets[k].value = value;
            }
            changed = true;
            break;
        }
    }
    if (rc == 0 && changed) {
        def.columns = cols;
        def.column_count = n;
        def.settings = sets;
        def.setting_count = nsets;
        def.database = NULL;
        def.name = NULL;
        rc = storage_alter_table(q->engine->storage, db, name, &def, err);
    }
    catalog_table_release(keep);
    return rc;
}

static int ddl_create_table(sql_query *q, const sql_node *stmt, sql_io *io, mu_err *err) {
    catalog_table_def def;
    memset(&def, 0, sizeof(def));
    def.database = ddl_database(q, stmt->create.database, err);
    def.name = ddl_str(q, stmt->create.name, err);
    if (def.database == NULL || def.name == NULL) return err->code;
    int rc = 0;
    sql_operator *select_op = NULL;
    if (stmt->create.as_select) {
        if (stmt->create.columns.count > 0)
            return MU_ERR(err, MU_ENOT_SUPPORTED, "CREATE TABLE with both columns and AS SELECT is "
                          "not supported yet");
        rc = sql__plan_query(q, stmt->create.as_select, &select_op, err);
        if (rc != 0) return rc;
        catalog_column *cols = mu_arena_calloc(q->arena, select_op->column_count + 1, sizeof(*cols), err);
        if (cols == NULL) rc = err->code;
        for (uint32_t i = 0; i < select_op->column_count && rc == 0; i++) {
            cols[i].name = select_op->names[i];
            mu_buf b;
            mu_buf_init(&b, 0);
            const ty_type *t = select_op->types[i];
            rc = ty_type_render(t, &b, err);
            if (rc == 0) cols[i].type = mu_arena_strndup(q->arena, (char *)b.data, b.length_bytes, err);
            mu_buf_deinit(&b);
            cols[i].default_expression = "";
            cols[i].codec = "";
            cols[i].comment = "";
        }
        def.columns = cols;
        def.column_count = select_op->column_count;
    } else {
        catalog_column *cols = NULL;
        rc = ddl_columns(q, stmt, &cols, &def.column_count, err);
        def.columns = cols;
    }
    const sql_node *engine = stmt->create.engine;
    if (rc == 0 && engine) {
        char name[64];
        snprintf(name, sizeof(name), "%.*s", (int)engine->func.name.length, engine->func.name.ptr);
        rc = catalog_engine_parse(name, &def.engine, err);
        if (rc != 0) rc = MU_ERR(err, MU_EUNKNOWN_STORAGE, "Unknown table engine %s", name);
        if (rc == 0) rc = ddl_engine_params(q, engine, &def.engine_params, err);
    } else if (rc == 0) {
        def.engine = CATALOG_ENGINE_MERGE_TREE;
        def.engine_params = "";
    }
    if (rc == 0) rc = ddl_key_list(q, stmt->create.order_by, &def.order_by, &def.order_by_count, err);
    if (rc == 0) rc = ddl_key_list(q, stmt->create.primary_key, &def.primary_key,
                                   &def.primary_key_count, err);
    if (rc == 0 && stmt->create.order_by == NULL) {
        if (stmt->create.primary_key) {
            def.order_by = def.primary_key;
            def.order_by_count = def.primary_key_count;
        } else {
            rc = MU_ERR(err, MU_EINCORRECT_QUERY, "Table engine %s requires ORDER BY or PRIMARY KEY "
                        "clause", catalog_engine_name(def.engine));
        }
    }
    if (rc == 0) rc = ddl_text(q, stmt->create.partition_by, &def.partition_by, err);
    /* Table TTL is kept in the definition; expired rows are removed by
     * merges (a later issue), as ClickHouse removes them only on merges. */
    def.ttl = "";
    if (rc == 0 && stmt->create.ttl.count > 0) {
        mu_buf b;
        mu_buf_init(&b, 0);
        for (size_t i = 0; i < stmt->create.ttl.count && rc == 0; i++) {
            if (i > 0) rc = mu_buf_append_str(&b, ", ", err);
            if (rc == 0) rc = sql_ast_format(stmt->create.ttl.items[i], &b, err);
        }
        if (rc == 0) {
            def.ttl = mu_arena_strndup(q->arena, (const char *)b.data, b.length_bytes, err);
            if (def.ttl == NULL) rc = err->code;
        }
        mu_buf_deinit(&b);
    }
    if (rc == 0 && stmt->create.settings.count > 0) {
        catalog_setting *s = mu_arena_calloc(q->arena, stmt->create.settings.count, sizeof(*s), err);
        if (s == NULL) rc = err->code;
        for (size_t i = 0; i < stmt->create.settings.count && rc == 0; i++) {
            const sql_node *st = stmt->create.settings.items[i];
            s[i].name = ddl_str(q, st->setting.name, err);
            rc = ddl_text(q, st->setting.value, &s[i].value, err);
        }
        def.settings = s;
        def.setting_count = (uint32_t)stmt->create.settings.count;
    }
    if (rc == 0 && stmt->create.indexes.count > 0) {
        catalog_index *ix = mu_arena_calloc(q->arena, stmt->create.indexes.count, sizeof(*ix), err);
        if (ix == NULL) rc = err->code;
        for (size_t i = 0; i < stmt->create.indexes.count && rc == 0; i++) {
            const sql_node *d = stmt->create.indexes.items[i];
            ix[i].name = ddl_str(q, d->index_def.name, err);
            const sql_node *ty = d->index_def.type;
            static const char *known[] = {"minmax", "set", "bloom_filter", "tokenbf_v1",
                                          "ngrambf_v1"};
            bool ok = false;
            for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
                if (ty && ty->kind == SQL_FUNC && sql_str_eq(ty->func.name, known[k])) ok = true;
            if (!ok) {
                rc = MU_ERR(err, MU_EINCORRECT_QUERY, "Unknown Index type '%.*s'",
                            ty && ty->kind == SQL_FUNC ? (int)ty->func.name.length : 1,
                            ty && ty->kind == SQL_FUNC ? ty->func.name.ptr : "?");
                break;
            }
            rc = ddl_text(q, d->index_def.expr, &ix[i].expression, err);
            if (rc == 0) rc = ddl_text(q, d->index_def.type, &ix[i].type, err);
            ix[i].granularity = 1;
            if (rc == 0 && d->index_def.granularity)
                ix[i].granularity = (uint32_t)d->index_def.granularity->literal.u64;
        }
        def.indexes = ix;
        def.index_count = (uint32_t)stmt->create.indexes.count;
    }
    def.comment = ddl_str(q, stmt->create.comment, err);
    if (rc == 0) rc = storage_create_table(q->engine->storage, &def, stmt->create.if_not_exists, err);
    if (rc == MU_EEXISTS)
        rc = MU_ERR(err, MU_EEXISTS, "Table %s.%s already exists", def.database, def.name);
    if (rc == 0 && select_op) {
        /* Fill it from the SELECT. */
        sql_node insert;
        memset(&insert, 0, sizeof(insert));
        insert.kind = SQL_INSERT;
        insert.insert.database.ptr = def.database;
        insert.insert.database.length = strlen(def.database);
        insert.insert.table.ptr = def.name;
        insert.insert.table.length = strlen(def.name);
        rc = sql__insert_from_op(q, &insert, select_op, io, err);
        select_op = NULL;
    }
    sql__op_destroy(select_op);
    return rc;
}

static int ddl_drop(sql_query *q, const sql_node *stmt, mu_err *err) {
    catalog *cat = storage_catalog(q->engine->storage);
    const char *name = ddl_str(q, stmt->object.name, err);
    if (stmt->object.is_database) {
        if (strcmp(name, "system") == 0)
            return MU_ERR(err, MU_EINVAL, "Cannot drop the database system");
        /* Drop the tables through storage (their files go), then the database. */
        catalog_snapshot *snap = catalog_snapshot_acquire(cat);
        if (catalog_snapshot_find_database(snap, name) == NULL) {
            catalog_snapshot_release(snap);
            if (stmt->object.if_exists) return 0;
            return MU_ERR(err, MU_EUNKNOWN_DATABASE, "Database %s does not exist", name);
        }
        size_t first, count = catalog_snapshot_tables_of(snap, name, &first);
        char **names = calloc(count + 1, sizeof(*names));
        for (size_t i = 0; names && i < count; i++)
            names[i] = strdup(catalog_snapshot_table_at(snap, first + i)->def.name);
        catalog_snapshot_release(snap);
        int rc = names ? 0 : MU_ERR(err, MU_ENOMEM, "out of memory");
        for (size_t i = 0; i < count && rc == 0; i++)
            rc = storage_drop_table(q->engine->storage, name, names[i], true, err);
        for (size_t i = 0; names && i < count; i++) free(names[i]);
        free(names);
        if (rc == 0) rc = catalog_drop_database(cat, name, stmt->object.if_exists, true, err);
        if (rc == 0 && strcmp(q->session->database, name) == 0)
            snprintf(q->session->database, sizeof(q->session->database), "default");
        return rc;
    }
    const char *db = ddl_database(q, stmt->object.database, err);
    int rc = storage_drop_table(q->engine->storage, db, name, stmt->object.if_exists, err);
    if (rc == MU_EUNKNOWN_TABLE)
        rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", db, name);
    return rc;
}

static int ddl_truncate(sql_query *q, const sql_node *stmt, mu_err *err) {
    const char *db = ddl_database(q, stmt->object.database, err);
    const char *name = ddl_str(q, stmt->object.name, err);
    catalog *cat = storage_catalog(q->engine->storage);
    catalog_snapshot *snap = catalog_snapshot_acquire(cat);
    const catalog_table *t = catalog_snapshot_find_table(snap, db, name);
    if (t == NULL) {
        catalog_snapshot_release(snap);
        if (stmt->object.if_exists) return 0;
        return MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", db, name);
    }
    /* A new, empty table with the same definition replaces it. */
    const catalog_table *keep = catalog_table_acquire(t);
    catalog_snapshot_release(snap);
    catalog_table_def def = keep->def;
    int rc = storage_drop_table(q->engine->storage, db, name, false, err);
    if (rc == 0) rc = storage_create_table(q->engine->storage, &def, false, err);
    catalog_table_release(keep);
    return rc;
}

static int ddl_rename(sql_query *q, const sql_node *stmt, mu_err *err) {
    catalog *cat = storage_catalog(q->engine->storage);
    for (size_t i = 0; i < stmt->rename.from.count; i++) {
        const sql_node *f = stmt->rename.from.items[i], *t = stmt->rename.to.items[i];
        sql_str fdb = f->ident.count > 1 ? f->ident.parts[0] : (sql_str){0};
        sql_str tdb = t->ident.count > 1 ? t->ident.parts[0] : (sql_str){0};
        const char *from_db = ddl_database(q, fdb, err);
        const char *to_db = ddl_database(q, tdb, err);
        const char *from = ddl_str(q, f->ident.parts[f->ident.count - 1], err);
        const char *to = ddl_str(q, t->ident.parts[t->ident.count - 1], err);
        int rc = catalog_rename_table(cat, from_db, from, to_db, to, err);
        if (rc == MU_EUNKNOWN_TABLE)
            rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", from_db, from);
        if (rc == MU_EEXISTS)
            rc = MU_ERR(err, MU_EEXISTS, "Table %s.%s already exists", to_db, to);
        if (rc != 0) return rc;
    }
    return 0;
}

static int ddl_check_access(sql_query *q, const sql_node *stmt, mu_err *err) {
    const char *db = NULL;
    switch (stmt->kind) {
    case SQL_CREATE_DATABASE: db = ddl_str(q, stmt->create.name, err); break;
    case SQL_CREATE_TABLE: db = ddl_database(q, stmt->create.database, err); break;
    case SQL_DROP:
    case SQL_TRUNCATE:
        db = stmt->object.is_database ? ddl_str(q, stmt->object.name, err)
                                      : ddl_database(q, stmt->object.database, err);
        break;
    case SQL_ALTER: db = ddl_database(q, stmt->alter.database, err); break;
    case SQL_RENAME:
        for (size_t i = 0; i < stmt->rename.from.count; i++) {
            const sql_node *nodes[2] = {stmt->rename.from.items[i], stmt->rename.to.items[i]};
            for (int k = 0; k < 2; k++) {
                sql_str d = nodes[k]->ident.count > 1 ? nodes[k]->ident.parts[0] : (sql_str){0};
                int rc = sql__check_database(q, ddl_database(q, d, err), err);
                if (rc != 0) return rc;
            }
        }
        return 0;
    default: return 0;
    }
    return db ? sql__check_database(q, db, err) : 0;
}

int sql__run_ddl(sql_query *q, const sql_node *stmt, sql_io *io, mu_err *err) {
    int access = ddl_check_access(q, stmt, err);
    if (access != 0) return access;
    switch (stmt->kind) {
    case SQL_CREATE_DATABASE: {
        catalog_database_def def = {0};
        def.name = ddl_str(q, stmt->create.name, err);
        if (def.name == NULL) return err->code;
        if (stmt->create.engine) {
            char *engine = ddl_str(q, stmt->create.engine->func.name, err);
            def.engine = engine;
        }
        def.comment = ddl_str(q, stmt->create.comment, err);
        int rc = catalog_create_database(storage_catalog(q->engine->storage), &def,
                                         stmt->create.if_not_exists, err);
        if (rc == MU_EDATABASE_EXISTS)
            rc = MU_ERR(err, MU_EDATABASE_EXISTS, "Database %s already exists", def.name);
        return rc;
    }
    case SQL_CREATE_TABLE: return ddl_create_table(q, stmt, io, err);
    case SQL_DROP: return ddl_drop(q, stmt, err);
    case SQL_TRUNCATE: return ddl_truncate(q, stmt, err);
    case SQL_RENAME: return ddl_rename(q, stmt, err);
    case SQL_ALTER: return ddl_alter(q, stmt, err);
    default:
        return MU_ERR(err, MU_ENOT_SUPPORTED, "statement %s is not supported yet",
                      sql_kind_name(stmt->kind));
    }
}
