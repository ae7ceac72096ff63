/* query_int.h: private to src/sql: the query engine behind sql_execute.
 * A statement runs inside one sql_query (arena, exec builder, context).
 * SELECT becomes a tree of pull operators (sql_operator) that pass sql_chunks of
 * at most SQL_CHUNK_ROWS rows; expressions are exec_expr trees bound by
 * sql_bind.c against a scope of named input columns. Operators keep no
 * global state, so the performance issue can run copies of a pipeline on
 * several workers.
 */
#ifndef MUSCLES_SQL_QUERY_INT_H
#define MUSCLES_SQL_QUERY_INT_H

#include <stdatomic.h>

#include "exec/exec.h"
#include "formats/formats.h"
#include "sql/sql.h"
#include "storage/storage.h"

#define SQL_CHUNK_ROWS 65536u

typedef struct sql_operator sql_operator;

/* ---- chunks ---------------------------------------------------------- */

/* Rows flowing between operators. columns[i] is read-only; owned[i] is
 * the same column when the chunk owns it (else it is borrowed from
 * something the producing operator keeps alive until it is destroyed). */
typedef struct sql_chunk {
    uint32_t rows;
    uint32_t column_count;
    const ty_column **columns;
    ty_column **owned;
} sql_chunk;

int sql__chunk_create(uint32_t column_count, uint32_t rows, sql_chunk **out, mu_err *err);
void sql__chunk_free(sql_chunk *c); /* accepts NULL */
/* Sets column i; take = the chunk owns it from now on. */
void sql__chunk_set(sql_chunk *c, uint32_t i, const ty_column *column, bool take);

/* ---- activity (sql_activity.c) ---------------------------------------- */

#define SQL_ERROR_CODES 1024 /* ClickHouse error codes counted for /metrics */

typedef enum sql_event {
    SQL_EVENT_QUERY, SQL_EVENT_SELECT_QUERY, SQL_EVENT_INSERT_QUERY, SQL_EVENT_FAILED_QUERY,
    SQL_EVENT_FAILED_SELECT_QUERY, SQL_EVENT_FAILED_INSERT_QUERY, SQL_EVENT_INSERTED_ROWS,
    SQL_EVENT_SELECTED_ROWS, SQL_EVENT_COUNT
} sql_event;

/* A running query. */
typedef struct sql_process {
    struct sql_process *prev, *next;
    char query_id[64];
    char user[64];
    char database[256];
    char *query;
    int64_t start_us;
    _Atomic uint64_t read_rows;
    _Atomic uint64_t written_rows;
    _Atomic uint64_t result_rows;
    _Atomic uint64_t total_rows_to_read; /* rows of the sources opened so far */
    _Atomic bool cancelled;          /* KILL QUERY: operators stop at the next chunk */
} sql_process;

typedef struct sql_query_log_row {
    const char *type;
    int64_t event_time_us;
    int64_t start_us;
    char query_id[64];
    char user[64];
    char database[256];
    char *query;
    uint64_t read_rows, written_rows, result_rows;
    int exception_code;
    char *exception;
} sql_query_log_row;

void sql__activity_start(sql_activity *a, sql_process *p, const char *query, size_t query_bytes);
void sql__activity_finish(sql_activity *a, sql_process *p, int rc, const mu_err *err);
void sql__activity_count(sql_activity *a, sql_event e, uint64_t n);
const char *sql__event_name(sql_event e);
/* Calls fn under the lock for each running query (process), each log row
 * (log) and each counter (name, value). */
typedef int (*sql_activity_visit_fn)(void *ctx, const sql_process *process,
                                     const sql_query_log_row *log, const char *event,
                                     uint64_t value, int64_t now_us);
int sql__activity_snapshot(sql_activity *a, sql_activity_visit_fn fn, void *ctx);
/* Marks the running query query_id cancelled; false if none runs. */
bool sql__activity_cancel(sql_activity *a, const char *query_id);

/* ---- the query ------------------------------------------------------- */

typedef struct sql_query {
    const sql_engine *engine;
    sql_session *session;
    mu_arena *arena;
    exec_context ctx;
    exec_builder builder;
    const sql_query_params *params;
    sql_process *process;
    const char *allowed_databases;   /* the user's databases (comma list) or NULL */
    uint32_t subquery_depth;
    uint64_t max_block_rows;
    /* WITH TOTALS of the top-level SELECT: the aggregate operator and the
     * SELECT expressions to evaluate over its totals row. */
    sql_operator *totals_source;
    exec_expr **totals_exprs;
    const char **totals_names;
    uint32_t totals_count;
    /* LIMIT of the top-level SELECT, for JSON's rows_before_limit_at_least:
     * the sort before it (all its input rows) or the limit (rows it saw). */
    sql_operator *limit_sort;
    sql_operator *limit_op;
    /* Limits from the settings (0: none): max_execution_time as a
     * deadline on CLOCK_MONOTONIC, max_rows_to_read. */
    int64_t deadline_ns;
    double time_limit_s;
    uint64_t max_rows_to_read;
    mu_mem_tracker limit_tracker;     /* max_memory_usage: ctx.tracker when set */
    /* WITH name AS (subquery) definitions visible to table references. */
    const sql_node *ctes[64];
    uint32_t cte_count;
    /* Column names the SELECT being planned mentions (for scans to read
     * only those); all_columns when it has a * or is unknown. */
    const char **needed;
    uint32_t needed_count;
    bool needed_all;
    /* Progress reports (sql_io.progress); io is NULL outside sql_execute. */
    sql_io *io;
    int64_t progress_due_ns;          /* mu_clock_mono_ns of the next report */
    uint64_t progress_reported_rows;  /* read + written rows of the last one */
} sql_query;

/* ---- progress (sql_activity.c) ---------------------------------------- */

/* Longer intervals are taken as this one (a week): no overflow in ns. */
#define SQL_PROGRESS_INTERVAL_MS_MAX ((uint64_t)7 * 24 * 3600 * 1000)

/* Calls io->progress if a report is due; only through the counters below. */
int sql__progress_report(sql_query *q, mu_err *err);

/* Counts rows a source read (numbers(), a table scan) and reports progress
 * when due; costs an atomic add when nobody asked for reports. */
static inline int sql__count_read(sql_query *q, uint64_t rows, mu_err *err) {
    if (q->process == NULL) return 0;
    atomic_fetch_add(&q->process->read_rows, rows);
    return q->io != NULL && q->io->progress != NULL ? sql__progress_report(q, err) : 0;
}

/* Counts rows an INSERT took (staged, stored at its end); as above. */
static inline int sql__count_written(sql_query *q, uint64_t rows, mu_err *err) {
    if (q->process == NULL) return 0;
    atomic_fetch_add(&q->process->written_rows, rows);
    return q->io != NULL && q->io->progress != NULL ? sql__progress_report(q, err) : 0;
}

/* A source that knows its size (numbers(N), a table's rows) adds it. */
static inline void sql__count_total(sql_query *q, uint64_t rows) {
    if (q->process != NULL) atomic_fetch_add(&q->process->total_rows_to_read, rows);
}

/* ---- operators ------------------------------------------------------- */


typedef struct sql_operator_vt {
    /* *out = next chunk (owned by the caller), or NULL at the end. */
    int (*next)(sql_operator *op, sql_chunk **out, mu_err *err);
    void (*destroy)(sql_operator *op);
} sql_operator_vt;

/* Output columns: names as ClickHouse names them; qualifier = the table
 * alias or name they can be qualified with (NULL for computed columns). */
struct sql_operator {
    const sql_operator_vt *vt;
    sql_query *q;
    uint32_t column_count;
    const ty_type **types;
    const char **names;
    const char **qualifiers;
    /* Columns `SELECT *` leaves out (MATERIALIZED, ALIAS, hidden keys). */
    bool *no_star;
};

int sql__op_init(sql_operator *op, sql_query *q, const sql_operator_vt *vt, uint32_t column_count,
                 mu_err *err);
/* max_execution_time and max_rows_to_read, checked between chunks. */
int sql__check_limits(sql_query *q, mu_err *err);
static inline int sql__op_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    if (op->q->process && atomic_load(&op->q->process->cancelled)) {
        *out = NULL;
        return MU_ERR(err, MU_ECANCELLED, "Query was cancelled");
    }
    int rc = op->vt->next(op, out, err);
    if (rc == 0 && (op->q->deadline_ns || op->q->max_rows_to_read)) {
        rc = sql__check_limits(op->q, err);
        if (rc != 0 && *out != NULL) {
            sql__chunk_free(*out);
            *out = NULL;
        }
    }
    return rc;
}
void sql__op_destroy(sql_operator *op); /* accepts NULL */
/* Runs op to the end, collecting every row into columns of its types
 * (rows_out may be NULL). */
int sql__op_drain(sql_operator *op, ty_column ***columns_out, uint32_t *rows_out, mu_err *err);

/* Sources. */
int sql__op_values(sql_query *q, uint32_t column_count, const char *const *names,
                   const ty_type *const *types, ty_column **columns_take, uint32_t rows,
                   sql_operator **out, mu_err *err);
int sql__op_numbers(sql_query *q, uint64_t start, uint64_t count, bool infinite,
                    sql_operator **out, mu_err *err);
/* Scans `columns` (indexes into the table's schema) of a table. */
int sql__op_table_scan(sql_query *q, storage_table *ref_take, const uint32_t *columns,
                       uint32_t column_count, sql_operator **out, mu_err *err);
/* Key range pruning of a table scan (see sql_prune.c). */
bool sql__op_is_scan(const sql_operator *op);
/* The first ORDER BY key of the scanned table when it is a plain column. */
const char *sql__op_scan_table_key(const sql_operator *op, uint32_t *schema_column_out);
/* DEFAULT / MATERIALIZED expressions (over the scan's columns; NULL
 * entries: none) for parts written before the column existed. */
int sql__op_scan_set_defaults(sql_operator *scan, exec_expr **defaults_by_column, mu_err *err);
/* Rows whose key column lies outside [lo, hi] (1-row columns of its type,
 * taken; NULL = unbounded) are not read. */
void sql__op_scan_set_range(sql_operator *op, uint32_t schema_column, ty_column *lo_take,
                            ty_column *hi_take);
/* Derives a key range for a scan from a WHERE (conjuncts key op constant). */
int sql__prune_scan(sql_query *q, sql_operator *scan, const sql_node *select,
                    const sql_node *where, mu_err *err);
/* Transformations (each takes its input). */
int sql__op_filter(sql_query *q, sql_operator *input, exec_expr *predicate, sql_operator **out,
                   mu_err *err);
/* Evaluates exprs over input rows; output names are names. */
int sql__op_project(sql_query *q, sql_operator *input, exec_expr **exprs, const char *const *names,
                    uint32_t count, sql_operator **out, mu_err *err);
/* The columns a projection passes through keep a LowCardinality type (by
 * default they leave it materialised, as every expression sees them): for
 * the SELECT list, so results carry ClickHouse's types. */
void sql__op_project_keep_lowcard(sql_operator *op);
typedef struct sql_agg_spec {
    exec_agg agg;
    exec_expr **args;
    uint32_t arg_count;
    const char *name;
} sql_agg_spec;
/* GROUP BY keys (exprs over input) and aggregates; output = keys then
 * aggregate results. with_totals: a totals row is kept for sql__op_totals. */
int sql__op_aggregate(sql_query *q, sql_operator *input, exec_expr **keys, const char *const *key_names,
                      uint32_t key_count, sql_agg_spec *aggs, uint32_t agg_count,
                      bool with_totals, sql_operator **out, mu_err *err);
/* After the aggregate drained: the totals row (1 row), or NULL if none. */
int sql__op_aggregate_totals(sql_operator *aggregate, sql_chunk **out, mu_err *err);
typedef struct sql_sort_key {
    uint32_t column;
    bool desc;
    bool nulls_first;
} sql_sort_key;
/* Sorts by key columns; limit (0 = none) lets it keep only the first rows. */
int sql__op_sort(sql_query *q, sql_operator *input, const sql_sort_key *keys, uint32_t key_count,
                 uint64_t limit, sql_operator **out, mu_err *err);
int sql__op_limit(sql_query *q, sql_operator *input, uint64_t limit, uint64_t offset, sql_operator **out,
                  mu_err *err);
/* Rows a limit operator has received so far / a sort has collected. */
uint64_t sql__op_limit_seen(const sql_operator *limit);
uint64_t sql__op_sort_rows(const sql_operator *sort);
/* LIMIT n [OFFSET m] BY columns. */
int sql__op_limit_by(sql_query *q, sql_operator *input, const uint32_t *columns, uint32_t count,
                     uint64_t limit, uint64_t offset, sql_operator **out, mu_err *err);
/* DISTINCT over the first `count` columns (the rest are carried along). */
int sql__op_distinct(sql_query *q, sql_operator *input, uint32_t count, sql_operator **out, mu_err *err);
/* Keeps the first `count` columns. */
int sql__op_truncate_columns(sql_query *q, sql_operator *input, uint32_t count, sql_operator **out,
                             mu_err *err);
/* Concatenates inputs whose column types are equal. */
int sql__op_union(sql_query *q, sql_operator **inputs_take, uint32_t count, sql_operator **out,
                  mu_err *err);
typedef enum sql_join_type {
    SQL__JOIN_INNER, SQL__JOIN_LEFT, SQL__JOIN_RIGHT, SQL__JOIN_FULL, SQL__JOIN_CROSS,
} sql_join_type;
typedef enum sql_join_strictness {
    SQL__JOIN_ALL, /* every matching pair */
    SQL__JOIN_ANY, /* the first matching right row of each left row */
    SQL__JOIN_SEMI, /* LEFT SEMI: left rows with a match (with their first match) */
    SQL__JOIN_ANTI, /* LEFT ANTI: left rows without a match */
} sql_join_strictness;
/* Hash join on left_keys[i] == right_keys[i] (column indexes of equal
 * types); output = every left column then every right column. Rows
 * without a match get default values (join_use_nulls = 0); with
 * coalesce_keys (USING) a left key of a right-only row is the right key.
 * use_nulls (join_use_nulls = 1): the columns of the side that may be
 * missing are Nullable and NULL there. */
int sql__op_join(sql_query *q, sql_operator *left, sql_operator *right, sql_join_type type,
                 sql_join_strictness strictness, bool use_nulls, const uint32_t *left_keys, const uint32_t *right_keys, uint32_t key_count,
                 bool coalesce_keys, sql_operator **out, mu_err *err);
/* ARRAY JOIN / arrayJoin: unfolds Array column `column`; output has the
 * element in place of the array. */
int sql__op_array_join(sql_query *q, sql_operator *input, uint32_t column, bool left, sql_operator **out,
                       mu_err *err);

/* ---- binding --------------------------------------------------------- */

typedef struct sql_agg_ctx sql_agg_ctx;

/* What names mean while binding: the input operator's columns, the
 * query's aliases (SELECT items and WITH expressions, usable anywhere in
 * the query as in ClickHouse), and after GROUP BY the aggregation context
 * that maps key expressions and aggregate calls to the aggregate's output. */
typedef struct sql_scope {
    const sql_operator *input;
    uint32_t alias_count;
    const char **alias_names;
    const sql_node **alias_exprs;
    uint8_t *alias_busy;       /* recursion guard while expanding */
    sql_agg_ctx *agg;          /* post-aggregation binding, or NULL */
    struct sql_lambda_ctx *lambda; /* binding a lambda body, or NULL */
    /* arrayJoin(x) calls already unfolded by the planner: call text ->
     * input column. */
    uint32_t array_join_count;
    const char **array_join_texts;
    uint32_t *array_join_columns;
    bool no_aggregates;        /* WHERE, PREWHERE, GROUP BY: aggregates are illegal */
    const char *clause;        /* for messages: "WHERE", ... */
} sql_scope;

/* A lambda body sees its parameters as inputs 0..param_count-1 and every
 * outer column it uses as a capture after them. */
typedef struct sql_lambda_ctx {
    sql_scope *outer;
    uint32_t param_count;
    const char **param_names;
    const ty_type **param_types;
    exec_expr **captures;
    uint32_t capture_count;
    uint32_t capture_capacity;
} sql_lambda_ctx;

struct sql_agg_ctx {
    sql_scope *pre;            /* scope of the aggregate's input */
    uint32_t key_count;
    const char **key_texts;
    exec_expr **key_exprs;     /* over the input */
    const char **key_names;
    sql_agg_spec *aggs;
    const char **agg_texts;
    uint32_t agg_count;
    uint32_t agg_capacity;
};

/* True when the expression (not looking into subqueries) calls an
 * aggregate function. */
bool sql__has_aggregate(const sql_node *node);
/* True when pred holds for the node or any expression under it (function
 * parameters and arguments, operands, lambda bodies; a subquery node is
 * visited, its query is not). */
typedef bool (*sql_node_pred)(const sql_node *node, void *ctx);
bool sql__node_any(const sql_node *node, sql_node_pred pred, void *ctx);
/* Maps an operator to its ClickHouse function name ("plus", "equals"). */
const char *sql__binary_function(sql_op op);

/* Binds an expression AST against a scope (see sql_bind.c). */
int sql__bind_expr(sql_query *q, sql_scope *scope, const sql_node *node, exec_expr **out,
                   mu_err *err);
/* ClickHouse's column name of an expression (alias not included). */
int sql__column_name(const sql_node *node, mu_buf *out, mu_err *err);
/* Canonical text of an expression without its top-level alias. */
int sql__expr_text(const sql_node *node, mu_arena *arena, const char **out, mu_err *err);

/* ACCESS_DENIED unless the query's user may use database db. */
int sql__check_database(const sql_query *q, const char *db, mu_err *err);

/* Plans a SELECT query (SQL_QUERY node). */
int sql__plan_query(sql_query *q, const sql_node *query, sql_operator **out, mu_err *err);
/* Evaluates a constant expression AST (no columns) to a 1-row column
 * owned by the query's builder. */
int sql__eval_const(sql_query *q, const sql_node *node, const ty_column **out, mu_err *err);

/* ---- statements and output ------------------------------------------- */

/* Writes op's rows in `format` to the sink. */
int sql__emit(sql_query *q, sql_operator *op, const char *format, sql_io *io, mu_err *err);
/* Statements other than SELECT. */
int sql__run_ddl(sql_query *q, const sql_node *stmt, sql_io *io, mu_err *err);
/* Inserts every row of op (taken) into the table stmt->insert names. */
int sql__insert_from_op(sql_query *q, const sql_node *stmt, sql_operator *op, sql_io *io, mu_err *err);
int sql__run_insert(sql_query *q, const sql_node *stmt, const char *text, size_t text_bytes,
                    sql_io *io, mu_err *err);
/* SHOW/DESCRIBE/EXISTS: builds the answer as an operator. */
int sql__plan_show(sql_query *q, const sql_node *stmt, sql_operator **out, mu_err *err);
/* system.<name> as an operator; MU_EUNKNOWN_TABLE if none. */
int sql__system_table(sql_query *q, const char *name, sql_operator **out, mu_err *err);
/* A table function (numbers, numbers_mt, zeros, one...). */
int sql__table_function(sql_query *q, const sql_node *func, sql_operator **out, mu_err *err);

/* Settings known to SET / SETTINGS / URL parameters (sql_settings.c). */
typedef struct sql_setting_info {
    const char *name;
    const char *type;
    const char *default_value;
    const char *description;
} sql_setting_info;
size_t sql__setting_count(void);
const sql_setting_info *sql__setting_at(size_t index);
const sql_setting_info *sql__setting_find(const char *name);

#endif /* MUSCLES_SQL_QUERY_INT_H */
