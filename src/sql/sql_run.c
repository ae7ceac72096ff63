/* sql_run.c: sql_execute: parses one statement, sets up the query (arena,
 * exec context, builder), dispatches it, and writes SELECT-like results in
 * the requested format through the caller's sink. Also the small
 * statements: SET, USE, SHOW, DESCRIBE, EXISTS, SYSTEM FLUSH, OPTIMIZE.
 */
#include "sql/query_int.h"

#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- output ---------------------------------------------------------------- */

/* A batch over a chunk's columns (owned ones moved, borrowed ones copied). */
static int run_chunk_batch(sql_query *q, const sql_operator *op, sql_chunk *c, ty_batch **out,
                           mu_err *err) {
    ty_batch *b;
    int rc = ty_batch_create(q->ctx.tracker, &b, err);
    for (uint32_t i = 0; i < op->column_count && rc == 0; i++) {
        ty_column *col = c->owned[i];
        if (col) {
            c->owned[i] = NULL;
        } else {
            rc = ty_column_create(c->columns[i]->type, q->ctx.tracker, &col, err);
            if (rc == 0) rc = ty_column_append_rows_from(col, c->columns[i], 0, c->rows, err);
            if (rc != 0) {
                ty_column_destroy(col);
                break;
            }
        }
        rc = ty_batch_add_column_take(b, op->names[i], col, err);
    }
    if (rc == 0) rc = ty_batch_seal(b, err);
    if (rc != 0) {
        ty_batch_destroy(b);
        return rc;
    }
    *out = b;
    return 0;
}

/* An empty batch with op's columns (for headers). */
static int run_header_batch(sql_query *q, const sql_operator *op, ty_batch **out, mu_err *err) {
    ty_batch *b;
    int rc = ty_batch_create(q->ctx.tracker, &b, err);
    for (uint32_t i = 0; i < op->column_count && rc == 0; i++) {
        ty_column *col;
        rc = ty_column_create(op->types[i], q->ctx.tracker, &col, err);
        if (rc == 0) rc = ty_batch_add_column_take(b, op->names[i], col, err);
    }
    if (rc == 0) rc = ty_batch_seal(b, err);
    if (rc != 0) {
        ty_batch_destroy(b);
        return rc;
    }
    *out = b;
    return 0;
}

static int run_flush(sql_io *io, mu_buf *buf, mu_err *err) {
    if (buf->length_bytes == 0) return 0;
    int rc = io->write ? io->write(io->ctx, buf->data, buf->length_bytes, err) : 0;
    buf->length_bytes = 0;
    return rc;
}

/* WITH TOTALS: the SELECT expressions over the aggregate's totals row. */
static int run_totals(sql_query *q, fmt_writer *w, mu_buf *buf, mu_err *err) {
    sql_chunk *t = NULL;
    int rc = sql__op_aggregate_totals(q->totals_source, &t, err);
    if (rc != 0 || t == NULL) return rc;
    ty_batch *b = NULL;
    rc = ty_batch_create(q->ctx.tracker, &b, err);
    for (uint32_t i = 0; i < q->totals_count && rc == 0; i++) {
        ty_column *col;
        rc = exec_eval_full(q->totals_exprs[i], &q->ctx, t->columns, t->rows, &col, err);
        if (rc == 0) rc = ty_batch_add_column_take(b, q->totals_names[i], col, err);
    }
    if (rc == 0) rc = ty_batch_seal(b, err);
    if (rc == 0) rc = fmt_writer_totals(w, b, buf, err);
    ty_batch_destroy(b);
    sql__chunk_free(t);
    return rc;
}

/* A Bool setting: 0/1 or false/true (any case), else BAD_ARGUMENTS. */
static int run_setting_bool(const sql_query *q, const char *name, bool *value, mu_err *err) {
    const char *v = sql_session_get(q->session, name);
    if (v == NULL) return 0;
    if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) *value = true;
    else if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) *value = false;
    else return MU_ERR(err, MU_EINVAL, "Setting %s: cannot parse '%s' as Bool", name, v);
    return 0;
}

/* The writer options from the session's output_format_* settings. */
static int run_output_options(const sql_query *q, const sql_io *io, fmt_output_options *opt,
                              mu_err *err) {
    static const struct { const char *name; size_t field; } bools[] = {
        {"output_format_json_quote_64bit_integers",
         offsetof(fmt_output_options, quote_64bit_integers)},
        {"output_format_decimal_trailing_zeros",
         offsetof(fmt_output_options, decimal_trailing_zeros)},
        {"output_format_arrow_string_as_string",
         offsetof(fmt_output_options, arrow_string_as_string)},
        {"output_format_arrow_fixed_string_as_fixed_byte_array",
         offsetof(fmt_output_options, arrow_fixed_string_as_fixed_byte_array)},
        {"output_format_arrow_low_cardinality_as_dictionary",
         offsetof(fmt_output_options, arrow_low_cardinality_as_dictionary)},
        {"output_format_arrow_use_signed_indexes_for_dictionary",
         offsetof(fmt_output_options, arrow_use_signed_indexes_for_dictionary)},
        {"output_format_arrow_use_64_bit_indexes_for_dictionary",
         offsetof(fmt_output_options, arrow_use_64_bit_indexes_for_dictionary)},
        {"output_format_arrow_date_as_uint16",
         offsetof(fmt_output_options, arrow_date_as_uint16)},
        {"output_format_arrow_unsupported_types_as_binary",
         offsetof(fmt_output_options, arrow_unsupported_types_as_binary)},
        {"output_format_arrow_uuid_as_fixed_byte_array",
         offsetof(fmt_output_options, arrow_uuid_as_fixed_byte_array)},
    };
    fmt_output_options_default(opt);
    opt->client_protocol_version = io->client_protocol_version;
    for (size_t i = 0; i < sizeof(bools) / sizeof(bools[0]); i++) {
        int rc = run_setting_bool(q, bools[i].name, (bool *)((char *)opt + bools[i].field), err);
        if (rc != 0) return rc;
    }
    const char *method = sql_session_get(q->session, "output_format_arrow_compression_method");
    if (method == NULL || strcmp(method, "lz4_frame") == 0)
        opt->arrow_compression = FMT_ARROW_COMPRESSION_LZ4_FRAME;
    else if (strcmp(method, "zstd") == 0)
        opt->arrow_compression = FMT_ARROW_COMPRESSION_ZSTD;
    else if (strcmp(method, "none") == 0)
        opt->arrow_compression = FMT_ARROW_COMPRESSION_NONE;
    else
        return MU_ERR(err, MU_EINVAL, "Unexpected value of ArrowCompression: '%s'. Must be one "
                      "of ['lz4_frame', 'zstd', 'none']", method);
    return 0;
}

int sql__check_limits(sql_query *q, mu_err *err) {
    if (q->deadline_ns) {
        int64_t now = mu_clock_mono_ns();
        if (now > q->deadline_ns) {
            double elapsed = q->time_limit_s + (double)(now - q->deadline_ns) / 1e9;
            return MU_ERR(err, MU_ETIMEOUT, "Timeout exceeded: elapsed %.6g seconds, maximum: "
                          "%.6g", elapsed, q->time_limit_s);
        }
    }
    uint64_t read = q->process ? q->process->read_rows : 0;
    if (q->max_rows_to_read && read > q->max_rows_to_read)
        return MU_ERR(err, MU_ETOO_MANY_ROWS, "Limit for rows (controlled by 'max_rows_to_read' "
                      "setting) exceeded, max rows: %llu, current rows: %llu",
                      (unsigned long long)q->max_rows_to_read, (unsigned long long)read);
    return 0;
}

/* A non-negative number setting (0 when unset); MU_EINVAL names a bad one. */
static int run_setting_number(const sql_session *s, const char *name, double *out, mu_err *err) {
    const char *text = sql_session_get(s, name);
    *out = 0;
    if (text == NULL || text[0] == '\0') return 0;
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v >= 0) || v > 1e18)
        return MU_ERR(err, MU_EINVAL, "Cannot parse setting %s = '%s': a non-negative number is "
                      "expected", name, text);
    *out = v;
    return 0;
}

/* The limit settings of the query: max_execution_time, max_rows_to_read,
 * max_memory_usage (a tracker of its own for the query's columns). */
static int run_limits(sql_query *q, mu_err *err) {
    mu_mem_tracker *tracker = &q->limit_tracker;
    double seconds = 0, rows = 0, memory = 0;
    int rc = run_setting_number(q->session, "max_execution_time", &seconds, err);
    if (rc == 0) rc = run_setting_number(q->session, "max_rows_to_read", &rows, err);
    if (rc == 0) rc = run_setting_number(q->session, "max_memory_usage", &memory, err);
    if (rc != 0) return rc;
    if (seconds > 0) {
        q->time_limit_s = seconds;
        q->deadline_ns = mu_clock_mono_ns() + (int64_t)(seconds * 1e9);
    }
    q->max_rows_to_read = (uint64_t)rows;
    if (memory > 0 && q->ctx.tracker == tracker) {
        tracker->limit_bytes = (int64_t)memory; /* SETTINGS of the query: same tracker */
    } else if (memory > 0) {
        mu_mem_tracker_init(tracker, "query (max_memory_usage)", mu_mem_tracker_global(),
                            (int64_t)memory);
        q->ctx.tracker = tracker;
    }
    return 0;
}

/* Bytes a column's buffers hold (what max_result_bytes counts). */
static uint64_t run_column_bytes(const ty_column *c) {
    if (c == NULL) return 0;
    return c->validity.length_bytes + c->values.length_bytes + c->offsets.length_bytes +
           run_column_bytes(c->children[0]) + run_column_bytes(c->children[1]);
}

/* max_result_rows / max_result_bytes: 1 when the result is cut here
 * (result_overflow_mode = break), an error when it throws. */
static int run_result_limit(sql_query *q, const sql_chunk *c, uint64_t rows, uint64_t *bytes,
                            mu_err *err) {
    double max_rows = 0, max_bytes = 0;
    int rc = run_setting_number(q->session, "max_result_rows", &max_rows, err);
    if (rc == 0) rc = run_setting_number(q->session, "max_result_bytes", &max_bytes, err);
    if (rc != 0 || (max_rows == 0 && max_bytes == 0)) return rc;
    for (uint32_t i = 0; i < c->column_count; i++) *bytes += run_column_bytes(c->columns[i]);
    bool over_rows = max_rows > 0 && (double)rows > max_rows;
    bool over_bytes = max_bytes > 0 && (double)*bytes > max_bytes;
    if (!over_rows && !over_bytes) return 0;
    const char *mode = sql_session_get(q->session, "result_overflow_mode");
    if (mode && strcmp(mode, "break") == 0) return 1;
    if (mode && mode[0] && strcmp(mode, "throw") != 0)
        return MU_ERR(err, MU_EINVAL, "Unexpected value of OverflowMode: '%s'. Must be one of "
                      "['throw', 'break']", mode);
    if (over_rows)
        return MU_ERR(err, MU_ETOO_MANY_RESULT_ROWS, "Limit for result exceeded, max rows: "
                      "%.0f, current rows: %llu", max_rows, (unsigned long long)rows);
    return MU_ERR(err, MU_ETOO_MANY_RESULT_ROWS, "Limit for result exceeded, max bytes: %.0f, "
                  "current bytes: %llu", max_bytes, (unsigned long long)*bytes);
}

/* io->begin, with io's read counters brought up to date first: the caller
 * may describe the statement so far in the head it sends now (ClickHouse's
 * X-ClickHouse-Summary is written when its head is). */
static int run_begin(sql_query *q, sql_io *io, fmt_kind kind, mu_err *err) {
    if (io->begin == NULL) return 0;
    if (q->process != NULL) {
        io->rows_read = atomic_load(&q->process->read_rows);
        io->total_rows_to_read = atomic_load(&q->process->total_rows_to_read);
    }
    return io->begin(io->ctx, fmt_name(kind), fmt_content_type(kind), err);
}

int sql__emit(sql_query *q, sql_operator *op, const char *format, sql_io *io, mu_err *err) {
    fmt_kind kind = fmt_find(format);
    if (kind == FMT_UNKNOWN) {
        static const char *later[] = {"Parquet", "ORC", "Avro",
                                      "CapnProto", "Protobuf", "MsgPack", "XML", "Template",
                                      "CustomSeparated", "LineAsString", "RawBLOB"};
        for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++)
            if (strcmp(format, later[i]) == 0)
                return MU_ERR(err, MU_ENOT_SUPPORTED, "output format %s is not supported yet",
                              format);
        return MU_ERR(err, MU_EUNKNOWN_FORMAT, "Unknown format %s", format);
    }
    /* Null: the query runs, nothing is written. */
    bool null_format = kind == FMT_NULL;
    fmt_writer *w = NULL;
    fmt_output_options opt;
    int rc = run_output_options(q, io, &opt, err);
    if (rc == 0 && !null_format) rc = fmt_writer_create(kind, &opt, &w, err);
    if (rc != 0) return rc;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    ty_batch *h = NULL;
    /* The response starts (status 200, headers) only with the first bytes
     * sent, so an error before them is still a proper error response. */
    bool begun = false;
    if (rc == 0 && w) {
        rc = run_header_batch(q, op, &h, err);
        if (rc == 0) rc = fmt_writer_begin(w, h, &buf, err);
    }
    uint64_t result_bytes = 0;
    bool cut = false;
    while (rc == 0 && !cut) {
        sql_chunk *c = NULL;
        rc = sql__op_next(op, &c, err);
        if (rc != 0 || c == NULL) break;
        io->result_rows += c->rows;
        rc = run_result_limit(q, c, io->result_rows, &result_bytes, err);
        if (rc == 1) {
            /* break: this block is the last one, as ClickHouse rounds to blocks. */
            cut = true;
            rc = 0;
        }
        if (rc == 0 && w) {
            ty_batch *b = NULL;
            rc = run_chunk_batch(q, op, c, &b, err);
            if (rc == 0) rc = fmt_writer_rows(w, b, &buf, err);
            ty_batch_destroy(b);
        }
        sql__chunk_free(c);
        if (rc == 0 && buf.length_bytes >= (1u << 20)) {
            if (!begun) rc = run_begin(q, io, kind, err);
            begun = true;
            if (rc == 0) rc = run_flush(io, &buf, err);
        }
    }
    if (rc == 0 && q->totals_source && w) rc = run_totals(q, w, &buf, err);
    if (rc == 0 && w) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        int64_t now_us = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
        fmt_result_info info = {0};
        info.elapsed_s = (double)(now_us - q->ctx.now_us) / 1e6;
        info.rows_read = q->process ? q->process->read_rows : 0;
        if (q->limit_op) {
            info.has_rows_before_limit = true;
            info.rows_before_limit = q->limit_sort ? sql__op_sort_rows(q->limit_sort)
                                                   : sql__op_limit_seen(q->limit_op);
        }
        rc = fmt_writer_end(w, &info, &buf, err);
    }
    if (rc == 0 && !begun) rc = run_begin(q, io, kind, err);
    if (rc == 0) rc = run_flush(io, &buf, err);
    if (rc != 0 && begun && w && io->exception_in_format) {
        /* Rows were sent: a JSON format ends its document with the error
         * after the rows formatted so far (the caller still reports rc,
         * without writing it again). */
        char text[MU_ERR_MSG_BYTES + 200];
        mu_err ignored;
        mu_err_clickhouse_text(err, text, sizeof(text));
        if (fmt_writer_exception(w, text, &buf, &ignored) == 1 &&
            run_flush(io, &buf, &ignored) == 0)
            io->exception_written = true;
    }
    fmt_writer_destroy(w);
    ty_batch_destroy(h);
    mu_buf_deinit(&buf);
    return rc;
}

/* ---- small statements ---------------------------------------------------------- */

static int run_setting_value(sql_query *q, const sql_node *value, char *out, size_t out_bytes,
                             mu_err *err) {
    const ty_column *c;
    int rc = sql__eval_const(q, value, &c, err);
    if (rc != 0) return rc;
    mu_buf b;
    mu_buf_init(&b, 0);
    rc = ty_column_render_text(c, 0, 0, &b, err);
    if (rc == 0) snprintf(out, out_bytes, "%.*s", (int)b.length_bytes, b.data ? (char *)b.data : "");
    mu_buf_deinit(&b);
    return rc;
}

static int run_apply_settings(sql_query *q, const sql_list *settings, sql_session *target,
                              mu_err *err) {
    for (size_t i = 0; i < settings->count; i++) {
        const sql_node *s = settings->items[i];
        char name[SQL_SETTING_NAME_BYTES], value[SQL_SETTING_VALUE_BYTES];
        snprintf(name, sizeof(name), "%.*s", (int)s->setting.name.length, s->setting.name.ptr);
        int rc = run_setting_value(q, s->setting.value, value, sizeof(value), err);
        if (rc == 0) rc = sql_session_set(target, name, value, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int run_use(sql_query *q, const sql_node *stmt, mu_err *err) {
    char name[256];
    snprintf(name, sizeof(name), "%.*s", (int)stmt->object.name.length, stmt->object.name.ptr);
    int rc = sql__check_database(q, name, err);
    if (rc != 0) return rc;
    if (strcmp(name, "system") != 0) {
        catalog_snapshot *snap = catalog_snapshot_acquire(storage_catalog(q->engine->storage));
        bool found = catalog_snapshot_find_database(snap, name) != NULL;
        catalog_snapshot_release(snap);
        if (!found) return MU_ERR(err, MU_EUNKNOWN_DATABASE, "Database %s does not exist", name);
    }
    snprintf(q->session->database, sizeof(q->session->database), "%s", name);
    return 0;
}

static int run_flush_table(sql_query *q, const sql_node *stmt, mu_err *err) {
    char db[256], name[256];
    snprintf(db, sizeof(db), "%.*s", (int)(stmt->object.database.ptr ? stmt->object.database.length : strlen(q->session->database)),
             stmt->object.database.ptr ? stmt->object.database.ptr : q->session->database);
    snprintf(name, sizeof(name), "%.*s", (int)stmt->object.name.length, stmt->object.name.ptr);
    storage_table *ref;
    int rc = sql__check_database(q, db, err);
    if (rc == 0) rc = storage_table_acquire(q->engine->storage, db, name, &ref, err);
    if (rc != 0) return rc;
    rc = table_flush(storage_table_get(ref), err);
    storage_table_release(ref);
    return rc;
}

/* KILL QUERY WHERE <condition over system.processes> [SYNC|ASYNC|TEST]:
 * marks the matching queries cancelled (they stop at their next block) and
 * answers ClickHouse's table kill_status, query_id, user, query. SYNC waits
 * up to 10 s for them to end. The KILL query never matches itself. */
static int run_kill(sql_query *q, const sql_node *stmt, sql_io *io, mu_err *err) {
    sql_operator *procs;
    int rc = sql__system_table(q, "processes", &procs, err);
    if (rc != 0) return rc;
    sql_scope scope = {.input = procs, .clause = "KILL QUERY WHERE"};
    exec_expr *pred;
    rc = sql__bind_expr(q, &scope, stmt->kill.where, &pred, err);
    if (rc == 0) rc = sql__op_filter(q, procs, pred, &procs, err);
    else sql__op_destroy(procs);
    if (rc != 0) return rc;
    uint32_t id_col = UINT32_MAX, user_col = UINT32_MAX, query_col = UINT32_MAX;
    for (uint32_t i = 0; i < procs->column_count; i++) {
        if (strcmp(procs->names[i], "query_id") == 0) id_col = i;
        if (strcmp(procs->names[i], "user") == 0) user_col = i;
        if (strcmp(procs->names[i], "query") == 0) query_col = i;
    }
    ty_column **rows_cols = NULL;
    uint32_t rows = 0;
    rc = sql__op_drain(procs, &rows_cols, &rows, err);
    uint32_t ncols = procs->column_count;
    sql__op_destroy(procs);
    if (rc != 0) return rc;
    bool test = stmt->kill.mode.ptr && sql_str_eq(stmt->kill.mode, "TEST");
    bool sync = stmt->kill.mode.ptr && sql_str_eq(stmt->kill.mode, "SYNC");
    ty_column *out[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < 4 && rc == 0; i++) rc = ty_column_create(ty_type_builtin(TY_STRING), NULL, &out[i], err);
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        size_t n;
        const uint8_t *id = ty_column_row_bytes(rows_cols[id_col], r, &n);
        char query_id[128];
        snprintf(query_id, sizeof(query_id), "%.*s", (int)n, (const char *)id);
        if (q->process && strcmp(query_id, q->process->query_id) == 0) continue;
        const char *status = "waiting";
        if (!test && sql__activity_cancel(q->engine->activity, query_id) && sync) {
            for (int waited = 0; waited < 1000; waited++) {
                struct timespec pause = {0, 10000000};
                nanosleep(&pause, NULL);
                if (!sql__activity_cancel(q->engine->activity, query_id)) {
                    status = "finished";
                    break;
                }
            }
        }
        const uint8_t *user = ty_column_row_bytes(rows_cols[user_col], r, &n);
        size_t un = n;
        const uint8_t *text = ty_column_row_bytes(rows_cols[query_col], r, &n);
        rc = ty_column_append_bytes(out[0], status, strlen(status), err);
        if (rc == 0) rc = ty_column_append_bytes(out[1], query_id, strlen(query_id), err);
        if (rc == 0) rc = ty_column_append_bytes(out[2], user, un, err);
        if (rc == 0) rc = ty_column_append_bytes(out[3], text, n, err);
    }
    for (uint32_t i = 0; i < ncols; i++) ty_column_destroy(rows_cols[i]);
    free(rows_cols);
    if (rc != 0) {
        for (int i = 0; i < 4; i++) ty_column_destroy(out[i]);
        return rc;
    }
    const char *names[4] = {"kill_status", "query_id", "user", "query"};
    const ty_type *types[4];
    for (int i = 0; i < 4; i++) types[i] = ty_type_builtin(TY_STRING);
    sql_operator *result;
    rc = sql__op_values(q, 4, names, types, out, ty_column_row_count(out[0]), &result, err);
    if (rc != 0) return rc;
    rc = sql__emit(q, result, io->default_format ? io->default_format : "TabSeparated", io, err);
    sql__op_destroy(result);
    return rc;
}

int sql__check_database(const sql_query *q, const char *db, mu_err *err) {
    if (q->allowed_databases == NULL || strcmp(db, "system") == 0) return 0;
    size_t n = strlen(db);
    for (const char *p = q->allowed_databases; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && memcmp(p, db, n) == 0) return 0;
        p += len;
        if (*p == ',') p++;
    }
    return MU_ERR(err, MU_EACCESS, "%s: Not enough privileges: the user may not use database %s",
                  q->process ? q->process->user : "user", db);
}

/* ---- sql_execute ---------------------------------------------------------------- */

static int run_setting_u64(const sql_session *s, const char *name, uint64_t *out, mu_err *err) {
    const char *text = sql_session_get(s, name);
    *out = 0;
    if (text == NULL || text[0] == 0) return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] == '-' || errno != 0 || end == text || *end != 0)
        return MU_ERR(err, MU_EPARSE, "Cannot parse value '%s' of setting %s as UInt64", text,
                      name);
    *out = v;
    return 0;
}

/* The settings limit and offset cut a SELECT's result as if the query
 * were wrapped in SELECT * FROM (query) LIMIT limit OFFSET offset, as in
 * ClickHouse since 21.1. Grafana sends limit=<row limit> with every
 * request when its row limit is on. */
static int run_limit_settings(sql_query *q, sql_operator **op, mu_err *err) {
    uint64_t limit, offset;
    int rc = run_setting_u64(q->session, "limit", &limit, err);
    if (rc == 0) rc = run_setting_u64(q->session, "offset", &offset, err);
    if (rc != 0) {
        sql__op_destroy(*op);
        *op = NULL;
        return rc;
    }
    if (limit == 0 && offset == 0) return 0;
    /* sql__op_limit takes the input: on failure it is already destroyed. */
    rc = sql__op_limit(q, *op, limit ? limit : UINT64_MAX, offset, op, err);
    if (rc != 0) {
        *op = NULL;
        return rc;
    }
    if (q->limit_op == NULL) q->limit_op = *op;
    return 0;
}

static int run_statement(sql_query *q, const sql_node *stmt, const char *text, size_t text_bytes,
                         sql_io *io, mu_err *err) {
    const char *default_format = io->default_format ? io->default_format : "TabSeparated";
    char format[64];
    switch (stmt->kind) {
    case SQL_QUERY: {
        sql_session local = *q->session;
        for (size_t i = 0; i < stmt->query.selects.count; i++) {
            int rc = run_apply_settings(q, &stmt->query.selects.items[i]->select.settings, &local, err);
            if (rc != 0) return rc;
        }
        /* SETTINGS of the query apply to it only. */
        sql_session *outer = q->session;
        q->session = &local;
        sql_operator *op;
        int rc = run_limits(q, err);
        if (rc == 0) rc = sql__plan_query(q, stmt, &op, err);
        if (rc == 0) rc = run_limit_settings(q, &op, err);
        if (rc == 0) {
            snprintf(format, sizeof(format), "%.*s",
                     (int)(stmt->query.format.ptr ? stmt->query.format.length : strlen(default_format)),
                     stmt->query.format.ptr ? stmt->query.format.ptr : default_format);
            rc = sql__emit(q, op, format, io, err);
            sql__op_destroy(op);
        }
        q->session = outer;
        return rc;
    }
    case SQL_SHOW_DATABASES:
    case SQL_SHOW_TABLES:
    case SQL_SHOW_CREATE:
    case SQL_DESCRIBE:
    case SQL_EXISTS: {
        sql_operator *op;
        int rc = sql__plan_show(q, stmt, &op, err);
        if (rc != 0) return rc;
        snprintf(format, sizeof(format), "%.*s",
                 (int)(stmt->format.ptr ? stmt->format.length : strlen(default_format)),
                 stmt->format.ptr ? stmt->format.ptr : default_format);
        rc = sql__emit(q, op, format, io, err);
        sql__op_destroy(op);
        return rc;
    }
    case SQL_SET:
    case SQL_USE:
        /* Without a session there is nothing for them to change, and
         * ClickHouse says so rather than ignoring them. */
        if (!io->has_session)
            return MU_ERR(err, MU_ENO_SESSION, "There is no session or session context has "
                          "expired (SET and USE need session_id)");
        if (stmt->kind == SQL_SET) return run_apply_settings(q, &stmt->set.settings, q->session, err);
        return run_use(q, stmt, err);
    case SQL_INSERT: return sql__run_insert(q, stmt, text, text_bytes, io, err);
    case SQL_SYSTEM_FLUSH_TABLE: return run_flush_table(q, stmt, err);
    case SQL_SYSTEM_FLUSH_LOGS: return 0; /* query_log is written synchronously */
    case SQL_OPTIMIZE:
        /* Parts are never merged yet; there is nothing OPTIMIZE could do
         * that changes a result, so it succeeds (merges: a later issue). */
        return 0;
    case SQL_DELETE:
        return MU_ERR(err, MU_ENOT_SUPPORTED, "DELETE is parsed but not supported yet "
                      "(deletion vectors come with merges)");
    case SQL_KILL_QUERY: return run_kill(q, stmt, io, err);
    default: return sql__run_ddl(q, stmt, io, err);
    }
}

int sql_execute(const sql_engine *engine, sql_session *session, const char *text,
                size_t text_bytes, sql_io *io, mu_err *err) {
    mu_arena *arena;
    int rc = mu_arena_create(&arena, NULL, 64 * 1024, err);
    if (rc != 0) return rc;
    sql_node *stmt;
    size_t start = 0;
    while (start < text_bytes && (text[start] == ' ' || text[start] == '\n' || text[start] == '\t' ||
                                  text[start] == '\r'))
        start++;
    if (start == text_bytes) {
        mu_arena_destroy(arena);
        return MU_ERR(err, MU_EEMPTY_QUERY, "Empty query");
    }
    rc = sql_parse(text, text_bytes, arena, NULL, &stmt, err);
    if (rc != 0) {
        mu_arena_destroy(arena);
        return rc;
    }
    const char *readonly_setting = sql_session_get(session, "readonly");
    if (io->readonly || (readonly_setting && readonly_setting[0] &&
                         strcmp(readonly_setting, "0") != 0)) {
        sql_kind k = stmt->kind;
        bool reads = k == SQL_QUERY || k == SQL_SHOW_DATABASES || k == SQL_SHOW_TABLES ||
                     k == SQL_SHOW_CREATE || k == SQL_DESCRIBE || k == SQL_EXISTS || k == SQL_SET ||
                     k == SQL_USE;
        if (!reads) {
            mu_arena_destroy(arena);
            return MU_ERR(err, MU_EREADONLY, "Cannot execute query in readonly mode. For queries "
                          "over HTTP, method GET implies readonly. You should use method POST for "
                          "modifying queries");
        }
    }
    sql_query q;
    memset(&q, 0, sizeof(q));
    q.engine = engine;
    q.session = session;
    q.arena = arena;
    q.params = io->params;
    q.allowed_databases = io->allowed_databases;
    q.max_block_rows = SQL_CHUNK_ROWS;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    q.ctx.now_us = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
    q.ctx.timezone = ty_tz_default();
    const char *tz_name = sql_session_get(session, "session_timezone");
    if (tz_name == NULL || !tz_name[0]) tz_name = sql_session_get(session, "timezone");
    if (tz_name && tz_name[0]) {
        const ty_tz *tz;
        rc = ty_tz_get(tz_name, &tz, err);
        if (rc != 0) {
            mu_arena_destroy(arena);
            return rc;
        }
        q.ctx.timezone = tz;
    }
    q.ctx.database = session->database;
    q.ctx.version = engine->version;
    q.ctx.hostname = engine->hostname;
    q.ctx.display_name = engine->display_name;
    q.ctx.revision = FMT_NATIVE_REVISION;
    q.ctx.user = io->user ? io->user : "default";
    q.ctx.uptime_s = now.tv_sec - engine->start_time_s;
    const char *mbs = sql_session_get(session, "max_block_size");
    if (mbs) {
        unsigned long long v = strtoull(mbs, NULL, 10);
        if (v > 0 && v < SQL_CHUNK_ROWS) q.max_block_rows = v;
    }
    sql_process process;
    memset(&process, 0, sizeof(process));
    if (io->query_id && io->query_id[0]) {
        snprintf(process.query_id, sizeof(process.query_id), "%s", io->query_id);
    } else {
        catalog_uuid id;
        if (catalog_uuid_generate(&id, err) == 0) {
            char t[CATALOG_UUID_TEXT_BYTES];
            snprintf(process.query_id, sizeof(process.query_id), "%s", catalog_uuid_format(&id, t));
        }
    }
    snprintf(io->query_id_out, sizeof(io->query_id_out), "%s", process.query_id);
    snprintf(process.user, sizeof(process.user), "%s", io->user ? io->user : "default");
    snprintf(process.database, sizeof(process.database), "%s", session->database);
    q.process = &process;
    q.io = io;
    if (io->progress != NULL) {
        uint64_t interval_ms = MU_MIN(io->progress_interval_ms, SQL_PROGRESS_INTERVAL_MS_MAX);
        q.progress_due_ns = mu_clock_mono_ns() + (int64_t)interval_ms * 1000000;
    }
    rc = run_limits(&q, err);
    if (rc != 0) {
        mu_arena_destroy(arena);
        return rc;
    }
    sql__activity_start(engine->activity, &process, text, text_bytes);
    if (stmt->kind == SQL_QUERY) sql__activity_count(engine->activity, SQL_EVENT_SELECT_QUERY, 1);
    if (stmt->kind == SQL_INSERT) sql__activity_count(engine->activity, SQL_EVENT_INSERT_QUERY, 1);
    rc = exec_builder_init(&q.builder, &q.ctx, arena, err);
    if (rc == 0) rc = run_statement(&q, stmt, text, text_bytes, io, err);
    process.written_rows = io->rows_written;
    process.result_rows = io->result_rows;
    io->rows_read = process.read_rows;
    io->total_rows_to_read = process.total_rows_to_read;
    if (rc != 0 && stmt->kind == SQL_QUERY)
        sql__activity_count(engine->activity, SQL_EVENT_FAILED_SELECT_QUERY, 1);
    if (rc != 0 && stmt->kind == SQL_INSERT)
        sql__activity_count(engine->activity, SQL_EVENT_FAILED_INSERT_QUERY, 1);
    if (io->rows_written) sql__activity_count(engine->activity, SQL_EVENT_INSERTED_ROWS, io->rows_written);
    if (process.read_rows) sql__activity_count(engine->activity, SQL_EVENT_SELECTED_ROWS, process.read_rows);
    sql__activity_finish(engine->activity, &process, rc, err);
    exec_builder_deinit(&q.builder);
    mu_arena_destroy(arena);
    return rc;
}
