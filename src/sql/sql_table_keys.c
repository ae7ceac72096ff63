/* sql_table_keys.c: the storage engine's key compiler (storage.h): PARTITION
 * BY and ORDER BY expressions parsed, bound against a table's stored
 * columns and evaluated by the executor. Each compiled key owns a query-
 * like context (arena, builder, exec context) for the table's lifetime;
 * evaluation is serialised by the key's mutex because kernels may keep
 * per-call scratch state. Keys must be deterministic (their value is
 * computed at insert and again at flush): aggregates, subqueries, query
 * parameters and functions flagged volatile or not deterministic (now,
 * today, rand, ...) are refused, as ClickHouse refuses them.
 */
#include "sql/query_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct storage_key_expr {
    pthread_mutex_t lock;
    sql_query q;               /* arena, builder and context of the expression */
    exec_expr *expr;
};

typedef struct key_check {
    const char *bad;           /* what was found */
    sql_str name;              /* the function, when one is */
} key_check;

static bool key_node_refused(const sql_node *n, void *ctx) {
    key_check *c = ctx;
    switch (n->kind) {
    case SQL_SUBQUERY: c->bad = "a subquery"; return true;
    case SQL_PARAM: c->bad = "a query parameter"; return true;
    case SQL_FUNC: {
        if (exec_is_aggregate_name(n->func.name.ptr, n->func.name.length)) {
            c->bad = "an aggregate function";
            c->name = n->func.name;
            return true;
        }
        const exec_function *f = exec_function_find(n->func.name.ptr, n->func.name.length);
        if (f && (f->flags & (EXEC_FN_VOLATILE | EXEC_FN_NOT_DETERMINISTIC))) {
            c->bad = "a non-deterministic function";
            c->name = n->func.name;
            return true;
        }
        return false;
    }
    default: return false;
    }
}

static void key_destroy(storage_key_expr *k) {
    if (k == NULL) return;
    exec_builder_deinit(&k->q.builder);
    mu_arena_destroy(k->q.arena);
    pthread_mutex_destroy(&k->lock);
    free(k);
}

static int key_compile(void *ctx, const char *clause, const char *text, uint32_t column_count,
                       const char *const *names, const ty_type *const *types,
                       storage_key_expr **out, mu_err *err) {
    (void)ctx;
    storage_key_expr *k = calloc(1, sizeof(*k));
    if (k == NULL) return MU_ERR(err, MU_ENOMEM, "cannot compile %s %s", clause, text);
    pthread_mutex_init(&k->lock, NULL);
    sql_query *q = &k->q;
    int rc = mu_arena_create(&q->arena, NULL, 16 * 1024, err);
    if (rc != 0) {
        pthread_mutex_destroy(&k->lock);
        free(k);
        return rc;
    }
    /* The server's time zone, as ClickHouse evaluates keys of DateTime
     * columns without their own zone. */
    q->ctx.timezone = ty_tz_default();
    q->ctx.database = "";
    q->max_block_rows = SQL_CHUNK_ROWS;
    rc = exec_builder_init(&q->builder, &q->ctx, q->arena, err);
    sql_node *node = NULL;
    if (rc == 0) rc = sql_parse_expr(text, strlen(text), q->arena, NULL, &node, err);
    key_check check = {0};
    if (rc == 0 && sql__node_any(node, key_node_refused, &check)) {
        rc = MU_ERR(err, MU_EINVAL, "%s expression cannot contain %s%s%.*s", clause, check.bad,
                    check.name.length ? ": " : "", (int)check.name.length,
                    check.name.ptr ? check.name.ptr : "");
    }
    sql_operator input;
    memset(&input, 0, sizeof(input));
    const char **qualifiers = NULL;
    if (rc == 0) {
        qualifiers = mu_arena_calloc(q->arena, column_count + 1, sizeof(*qualifiers), err);
        if (qualifiers == NULL) rc = err->code;
    }
    if (rc == 0) {
        input.q = q;
        input.column_count = column_count;
        input.names = (const char **)names;
        input.types = (const ty_type **)types;
        input.qualifiers = qualifiers;
        sql_scope scope = {.input = &input, .clause = clause, .no_aggregates = true};
        rc = sql__bind_expr(q, &scope, node, &k->expr, err);
    }
    if (rc != 0) {
        key_destroy(k);
        return rc;
    }
    *out = k;
    return 0;
}

static int key_eval(storage_key_expr *k, const ty_column *const *columns, uint32_t rows,
                    ty_column **out, mu_err *err) {
    pthread_mutex_lock(&k->lock);
    int rc = exec_eval_full(k->expr, &k->q.ctx, columns, rows, out, err);
    pthread_mutex_unlock(&k->lock);
    return rc;
}

static const storage_key_compiler sql_key_compiler_instance = {key_compile, key_eval, key_destroy,
                                                               NULL};

const storage_key_compiler *sql_key_compiler(void) { return &sql_key_compiler_instance; }
