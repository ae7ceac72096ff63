/* sql_activity.c: what the node is doing and has done: the list of running
 * queries (system.processes), the last SQL_QUERY_LOG_ROWS finished queries
 * kept in memory (system.query_log: muscles does not persist its query log;
 * it restarts empty), and counters (system.events) and gauges
 * (system.metrics). One mutex guards it all; queries touch it twice (start,
 * finish), never per row. Progress reports (sql_io.progress) read the
 * running query's own atomic counters and take no lock.
 */
#include "sql/query_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SQL_QUERY_LOG_ROWS 1000
#define SQL_ACTIVITY_QUERY_BYTES 4096

struct sql_activity {
    pthread_mutex_t lock;
    sql_process *running;          /* doubly linked */
    sql_query_log_row *log;        /* ring of SQL_QUERY_LOG_ROWS */
    uint32_t log_next;
    uint32_t log_count;
    uint64_t events[SQL_EVENT_COUNT];
    uint64_t errors[SQL_ERROR_CODES];   /* by ClickHouse error code */
};

static const char *const activity_event_names[SQL_EVENT_COUNT] = {
    [SQL_EVENT_QUERY] = "Query",
    [SQL_EVENT_SELECT_QUERY] = "SelectQuery",
    [SQL_EVENT_INSERT_QUERY] = "InsertQuery",
    [SQL_EVENT_FAILED_QUERY] = "FailedQuery",
    [SQL_EVENT_FAILED_SELECT_QUERY] = "FailedSelectQuery",
    [SQL_EVENT_FAILED_INSERT_QUERY] = "FailedInsertQuery",
    [SQL_EVENT_INSERTED_ROWS] = "InsertedRows",
    [SQL_EVENT_SELECTED_ROWS] = "SelectedRows",
};

const char *sql__event_name(sql_event e) { return activity_event_names[e]; }

int sql_activity_create(sql_activity **out, mu_err *err) {
    sql_activity *a = calloc(1, sizeof(*a));
    if (a) a->log = calloc(SQL_QUERY_LOG_ROWS, sizeof(*a->log));
    if (a == NULL || a->log == NULL) {
        if (a) free(a->log);
        free(a);
        return MU_ERR(err, MU_ENOMEM, "out of memory for the query log");
    }
    pthread_mutex_init(&a->lock, NULL);
    *out = a;
    return 0;
}

static void activity_row_free(sql_query_log_row *r) {
    free(r->query);
    free(r->exception);
    memset(r, 0, sizeof(*r));
}

void sql_activity_destroy(sql_activity *a) {
    if (a == NULL) return;
    for (uint32_t i = 0; i < SQL_QUERY_LOG_ROWS; i++) activity_row_free(&a->log[i]);
    free(a->log);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

static int64_t activity_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void sql__activity_start(sql_activity *a, sql_process *p, const char *query, size_t query_bytes) {
    p->start_us = activity_now_us();
    size_t n = query_bytes < SQL_ACTIVITY_QUERY_BYTES ? query_bytes : SQL_ACTIVITY_QUERY_BYTES;
    p->query = malloc(n + 1);
    if (p->query) {
        memcpy(p->query, query, n);
        p->query[n] = 0;
    }
    if (a == NULL) return;
    pthread_mutex_lock(&a->lock);
    p->prev = NULL;
    p->next = a->running;
    if (a->running) a->running->prev = p;
    a->running = p;
    a->events[SQL_EVENT_QUERY]++;
    pthread_mutex_unlock(&a->lock);
}

void sql__activity_count(sql_activity *a, sql_event e, uint64_t n) {
    if (a == NULL) return;
    pthread_mutex_lock(&a->lock);
    a->events[e] += n;
    pthread_mutex_unlock(&a->lock);
}

void sql__activity_finish(sql_activity *a, sql_process *p, int rc, const mu_err *err) {
    if (a != NULL) {
        pthread_mutex_lock(&a->lock);
        if (p->prev) p->prev->next = p->next;
        else if (a->running == p) a->running = p->next;
        if (p->next) p->next->prev = p->prev;
        sql_query_log_row *r = &a->log[a->log_next];
        activity_row_free(r);
        r->type = rc == 0 ? "QueryFinish" : "ExceptionWhileProcessing";
        r->event_time_us = activity_now_us();
        r->start_us = p->start_us;
        snprintf(r->query_id, sizeof(r->query_id), "%s", p->query_id);
        snprintf(r->user, sizeof(r->user), "%s", p->user);
        snprintf(r->database, sizeof(r->database), "%s", p->database);
        r->query = p->query;
        p->query = NULL;
        r->read_rows = p->read_rows;
        r->written_rows = p->written_rows;
        r->result_rows = p->result_rows;
        r->exception_code = rc == 0 ? 0 : mu_code_ch_number(rc);
        r->exception = rc == 0 ? NULL : strdup(err->message);
        a->log_next = (a->log_next + 1) % SQL_QUERY_LOG_ROWS;
        if (a->log_count < SQL_QUERY_LOG_ROWS) a->log_count++;
        if (rc != 0) a->events[SQL_EVENT_FAILED_QUERY]++;
        int code = rc == 0 ? 0 : mu_code_ch_number(rc);
        if (code > 0 && code < SQL_ERROR_CODES) a->errors[code]++;
        pthread_mutex_unlock(&a->lock);
    }
    free(p->query);
    p->query = NULL;
}

int sql__progress_report(sql_query *q, mu_err *err) {
    MU_ASSERT(q->io != NULL && q->io->progress != NULL);
    MU_ASSERT(q->process != NULL);
    sql_progress p = {
        .read_rows = atomic_load(&q->process->read_rows),
        .written_rows = atomic_load(&q->process->written_rows),
        .total_rows_to_read = atomic_load(&q->process->total_rows_to_read),
        .result_rows = q->io->result_rows,
    };
    /* Counters only grow, so an unchanged sum means nothing moved. */
    uint64_t rows = p.read_rows + p.written_rows;
    if (rows == q->progress_reported_rows) return 0;
    int64_t now = mu_clock_mono_ns();
    if (now < q->progress_due_ns) return 0;
    uint64_t interval_ms = MU_MIN(q->io->progress_interval_ms, SQL_PROGRESS_INTERVAL_MS_MAX);
    q->progress_due_ns = now + (int64_t)interval_ms * 1000000;
    q->progress_reported_rows = rows;
    return q->io->progress(q->io->ctx, &p, err);
}

int sql__activity_snapshot(sql_activity *a, sql_activity_visit_fn fn, void *ctx) {
    if (a == NULL) return 0;
    pthread_mutex_lock(&a->lock);
    int rc = 0;
    int64_t now = activity_now_us();
    for (sql_process *p = a->running; p && rc == 0; p = p->next) rc = fn(ctx, p, NULL, NULL, 0, now);
    for (uint32_t i = 0; i < a->log_count && rc == 0; i++) {
        uint32_t at = (a->log_next + SQL_QUERY_LOG_ROWS - a->log_count + i) % SQL_QUERY_LOG_ROWS;
        rc = fn(ctx, NULL, &a->log[at], NULL, 0, now);
    }
    for (int e = 0; e < SQL_EVENT_COUNT && rc == 0; e++)
        rc = fn(ctx, NULL, NULL, activity_event_names[e], a->events[e], now);
    pthread_mutex_unlock(&a->lock);
    return rc;
}

/* ---- Prometheus exposition (/metrics) ------------------------------------ */

static const char *const activity_metric_names[SQL_EVENT_COUNT] = {
    [SQL_EVENT_QUERY] = "muscles_queries_total",
    [SQL_EVENT_SELECT_QUERY] = "muscles_select_queries_total",
    [SQL_EVENT_INSERT_QUERY] = "muscles_insert_queries_total",
    [SQL_EVENT_FAILED_QUERY] = "muscles_failed_queries_total",
    [SQL_EVENT_FAILED_SELECT_QUERY] = "muscles_failed_select_queries_total",
    [SQL_EVENT_FAILED_INSERT_QUERY] = "muscles_failed_insert_queries_total",
    [SQL_EVENT_INSERTED_ROWS] = "muscles_inserted_rows_total",
    [SQL_EVENT_SELECTED_ROWS] = "muscles_read_rows_total",
};

int sql_metrics_prometheus(const sql_engine *engine, mu_buf *out, mu_err *err) {
    sql_activity *a = engine->activity;
    uint64_t events[SQL_EVENT_COUNT] = {0}, running = 0;
    uint64_t *errors = calloc(SQL_ERROR_CODES, sizeof(*errors));
    if (errors == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for /metrics");
    if (a) {
        pthread_mutex_lock(&a->lock);
        memcpy(events, a->events, sizeof(events));
        memcpy(errors, a->errors, SQL_ERROR_CODES * sizeof(*errors));
        for (sql_process *p = a->running; p; p = p->next) running++;
        pthread_mutex_unlock(&a->lock);
    }
    int rc = 0;
    for (int e = 0; e < SQL_EVENT_COUNT && rc == 0; e++)
        rc = mu_buf_printf(out, err, "# TYPE %s counter\n%s %llu\n", activity_metric_names[e],
                           activity_metric_names[e], (unsigned long long)events[e]);
    if (rc == 0)
        rc = mu_buf_printf(out, err, "# TYPE muscles_running_queries gauge\nmuscles_running_queries %llu\n",
                           (unsigned long long)running);
    if (rc == 0) rc = mu_buf_append_str(out, "# TYPE muscles_errors_total counter\n", err);
    for (int c = 1; c < SQL_ERROR_CODES && rc == 0; c++)
        if (errors[c])
            rc = mu_buf_printf(out, err, "muscles_errors_total{code=\"%d\"} %llu\n", c,
                               (unsigned long long)errors[c]);
    free(errors);
    /* Tables, parts, rows and bytes on disk, from the current versions. */
    uint64_t tables = 0, parts = 0, rows = 0, bytes = 0, memtable_rows = 0;
    if (rc == 0 && engine->storage) {
        catalog_snapshot *snap = catalog_snapshot_acquire(storage_catalog(engine->storage));
        size_t n = catalog_snapshot_table_count(snap);
        for (size_t i = 0; i < n; i++) {
            const catalog_table *t = catalog_snapshot_table_at(snap, i);
            storage_table *ref;
            mu_err ignored;
            if (storage_table_acquire(engine->storage, t->def.database, t->def.name, &ref, &ignored) != 0)
                continue;
            tables++;
            table_version *v = table_version_acquire(storage_table_get(ref));
            for (uint32_t k = 0; k < table_version_part_count(v); k++) {
                const part_info *info = part_get_info(table_version_part(v, k));
                parts++;
                rows += info->row_count;
                bytes += info->bytes_on_disk;
            }
            for (uint32_t k = 0; k < table_version_memtable_count(v); k++)
                memtable_rows += memtable_row_count(table_version_memtable(v, k));
            table_version_release(v);
            storage_table_release(ref);
        }
        catalog_snapshot_release(snap);
        rc = mu_buf_printf(out, err,
                           "# TYPE muscles_tables gauge\nmuscles_tables %llu\n"
                           "# TYPE muscles_parts gauge\nmuscles_parts %llu\n"
                           "# TYPE muscles_part_rows gauge\nmuscles_part_rows %llu\n"
                           "# TYPE muscles_part_bytes gauge\nmuscles_part_bytes %llu\n"
                           "# TYPE muscles_memtable_rows gauge\nmuscles_memtable_rows %llu\n",
                           (unsigned long long)tables, (unsigned long long)parts,
                           (unsigned long long)rows, (unsigned long long)bytes,
                           (unsigned long long)memtable_rows);
    }
    return rc;
}

bool sql__activity_cancel(sql_activity *a, const char *query_id) {
    if (a == NULL) return false;
    bool found = false;
    pthread_mutex_lock(&a->lock);
    for (sql_process *p = a->running; p; p = p->next)
        if (strcmp(p->query_id, query_id) == 0) {
            atomic_store(&p->cancelled, true);
            found = true;
        }
    pthread_mutex_unlock(&a->lock);
    return found;
}
