/* sql_insert.c: INSERT INTO t [(columns)] VALUES ... | FORMAT name <data> |
 * SELECT ...: rows are parsed (Values tuples through the SQL expression
 * parser; the other formats through the streaming readers of src/formats),
 * completed with DEFAULT / MATERIALIZED expressions of the columns not
 * given, and stored atomically: an insert of one batch (up to 65,536 rows)
 * through table_append, a longer one through a table stage (table.h), so a
 * bad row anywhere fails the whole insert and nothing of it is stored,
 * whatever its size. The first batch is held until the second arrives or
 * the input ends. The insert_deduplication_token setting is the token of
 * the whole insert. The input_format_* settings and
 * date_time_input_format become reader flags (insert_input_read); values
 * the input left out (a missing key or header column, NULL read as
 * default) get their column's DEFAULT expression, as ClickHouse's
 * input_format_defaults_for_omitted_fields does.
 */
#include "sql/query_int.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define INSERT_READ_BYTES (1u << 20)
#define INSERT_PARSERS_MAX 8u
/* Records in flight per parser thread, in runs of about this many bytes. */
#define INSERT_SEGMENT_BYTES (1u << 20)
#define INSERT_SEGMENTS_PER_PARSER 3u

/* The input settings of one INSERT (ClickHouse's names and defaults). */
typedef struct insert_input {
    unsigned read_flags;            /* enum fmt_read_flags */
    uint64_t allow_errors_num;      /* input_format_allow_errors_num */
    double allow_errors_ratio;      /* input_format_allow_errors_ratio */
    bool null_as_default;           /* input_format_null_as_default */
    bool defaults_for_omitted;      /* input_format_defaults_for_omitted_fields */
    ty_text_options text;           /* date_time_input_format (Values) */
    uint32_t parsers;               /* input_format_parallel_parsing: threads (1 = serial) */
} insert_input;

/* Which rows of each batch column the input left out: the reader's marks
 * (FORMAT) or the Values parser's own bitmaps. */
typedef struct insert_omitted {
    const fmt_reader *reader;
    uint8_t **bits;                 /* Values: per batch column, NULL = none */
    uint32_t column_count;
} insert_omitted;

typedef struct insert_target {
    storage_table *ref;
    table *t;
    const catalog_table *def;
    uint32_t column_count;       /* columns the data gives */
    uint32_t *columns;           /* their schema indexes */
    const char *token;
    ty_batch *held;              /* the first batch, until a second one comes */
    table_stage *stage;          /* from the second batch on */
} insert_target;

/* The catalog definition of stored column k of the table. */
static const catalog_column *insert_column_def(const insert_target *tg, uint32_t k) {
    const char *name = table_column_name(tg->t, k);
    for (uint32_t c = 0; c < tg->def->def.column_count; c++)
        if (strcmp(tg->def->def.columns[c].name, name) == 0) return &tg->def->def.columns[c];
    return NULL;
}

/* A Bool setting: 0, 1, true, false (any case); `fallback` when unset. */
static int insert_setting_bool(const sql_query *q, const char *name, bool fallback, bool *out,
                               mu_err *err) {
    const char *v = sql_session_get(q->session, name);
    *out = fallback;
    if (v == NULL) return 0;
    if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) *out = true;
    else if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) *out = false;
    else return MU_ERR(err, MU_EINVAL, "Cannot parse value '%s' of setting %s as Bool", v, name);
    return 0;
}

/* date_time_input_format: basic, best_effort or best_effort_us. */
static int insert_setting_datetime(const sql_query *q, insert_input *in, mu_err *err) {
    const char *v = sql_session_get(q->session, "date_time_input_format");
    in->text.datetime_input = TY_DATETIME_INPUT_BASIC;
    if (v == NULL || strcmp(v, "basic") == 0) return 0;
    if (strcmp(v, "best_effort") == 0) {
        in->text.datetime_input = TY_DATETIME_INPUT_BEST_EFFORT;
        in->read_flags |= FMT_READ_DATETIME_BEST_EFFORT;
        return 0;
    }
    if (strcmp(v, "best_effort_us") == 0) {
        in->text.datetime_input = TY_DATETIME_INPUT_BEST_EFFORT_US;
        in->read_flags |= FMT_READ_DATETIME_BEST_EFFORT_US;
        return 0;
    }
    return MU_ERR(err, MU_EINVAL, "Unexpected value of DateTimeInputFormat: '%s' (basic, "
                  "best_effort or best_effort_us)", v);
}

/* input_format_allow_errors_num (UInt64) and _ratio (Float, not negative). */
static int insert_setting_errors(const sql_query *q, insert_input *in, mu_err *err) {
    const char *num = sql_session_get(q->session, "input_format_allow_errors_num");
    const char *ratio = sql_session_get(q->session, "input_format_allow_errors_ratio");
    char *end = NULL;
    if (num != NULL && num[0] != 0) {
        errno = 0;
        in->allow_errors_num = strtoull(num, &end, 10);
        if (*end != 0 || num[0] == '-' || errno != 0)
            return MU_ERR(err, MU_EINVAL, "Cannot parse value '%s' of setting "
                          "input_format_allow_errors_num as UInt64", num);
    }
    if (ratio != NULL && ratio[0] != 0) {
        in->allow_errors_ratio = strtod(ratio, &end);
        if (*end != 0 || !isfinite(in->allow_errors_ratio) || in->allow_errors_ratio < 0)
            return MU_ERR(err, MU_EINVAL, "Cannot parse value '%s' of setting "
                          "input_format_allow_errors_ratio as a Float of at least 0", ratio);
    }
    return 0;
}

/* input_format_parallel_parsing (default on) and max_threads (0 = the
 * machine's cores, up to INSERT_PARSERS_MAX): how many threads parse. */
static int insert_setting_parsers(const sql_query *q, insert_input *in, mu_err *err) {
    bool parallel;
    int rc = insert_setting_bool(q, "input_format_parallel_parsing", true, &parallel, err);
    if (rc != 0) return rc;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t n = cores > 0 ? (uint64_t)cores : 1;
    const char *max = sql_session_get(q->session, "max_threads");
    if (max != NULL && max[0] >= '1' && max[0] <= '9') {
        uint64_t v = strtoull(max, NULL, 10);
        if (v < n) n = v;
    }
    in->parsers = parallel ? (uint32_t)MU_MIN(n, (uint64_t)INSERT_PARSERS_MAX) : 1;
    return 0;
}

/* The session's input settings, checked before any row is read. */
static int insert_input_read(const sql_query *q, insert_input *in, mu_err *err) {
    memset(in, 0, sizeof(*in));
    bool skip_unknown, names_header, types_header;
    int rc = insert_setting_bool(q, "input_format_null_as_default", true, &in->null_as_default,
                                 err);
    if (rc == 0) rc = insert_setting_bool(q, "input_format_skip_unknown_fields", true,
                                          &skip_unknown, err);
    if (rc == 0) rc = insert_setting_bool(q, "input_format_with_names_use_header", true,
                                          &names_header, err);
    if (rc == 0) rc = insert_setting_bool(q, "input_format_with_types_use_header", true,
                                          &types_header, err);
    if (rc == 0) rc = insert_setting_bool(q, "input_format_defaults_for_omitted_fields", true,
                                          &in->defaults_for_omitted, err);
    if (rc == 0) rc = insert_setting_datetime(q, in, err);
    if (rc == 0) rc = insert_setting_errors(q, in, err);
    if (rc == 0) rc = insert_setting_parsers(q, in, err);
    if (rc != 0) return rc;
    if (in->null_as_default) in->read_flags |= FMT_READ_NULL_AS_DEFAULT;
    if (!skip_unknown) in->read_flags |= FMT_READ_UNKNOWN_FIELDS_ERROR;
    if (!names_header) in->read_flags |= FMT_READ_HEADER_NAMES_IGNORED;
    if (!types_header) in->read_flags |= FMT_READ_HEADER_TYPES_IGNORED;
    in->text.now_seconds = mu_clock_wall_ns() / 1000000000;
    return 0;
}

static bool omitted_any(const insert_omitted *o, uint32_t col) {
    if (o == NULL) return false;
    if (o->reader != NULL) return fmt_reader_column_has_missing(o->reader, col);
    return col < o->column_count && o->bits != NULL && o->bits[col] != NULL;
}

static bool omitted_row(const insert_omitted *o, uint32_t col, uint32_t row) {
    if (o->reader != NULL) return fmt_reader_missing(o->reader, col, row);
    return (o->bits[col][row >> 3] >> (row & 7)) & 1;
}

static int insert_open(sql_query *q, const sql_node *stmt, insert_target *tg, mu_err *err) {
    memset(tg, 0, sizeof(*tg));
    char db[256], name[256];
    if (stmt->insert.database.ptr)
        snprintf(db, sizeof(db), "%.*s", (int)stmt->insert.database.length, stmt->insert.database.ptr);
    else
        snprintf(db, sizeof(db), "%s", q->session->database);
    snprintf(name, sizeof(name), "%.*s", (int)stmt->insert.table.length, stmt->insert.table.ptr);
    int rc = sql__check_database(q, db, err);
    if (rc != 0) return rc;
    rc = storage_table_acquire(q->engine->storage, db, name, &tg->ref, err);
    if (rc == MU_EUNKNOWN_TABLE) rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", db, name);
    if (rc != 0) return rc;
    tg->t = storage_table_get(tg->ref);
    tg->def = storage_table_definition(tg->ref);
    uint32_t n = table_column_count(tg->t);
    tg->columns = mu_arena_calloc(q->arena, n + 1, sizeof(*tg->columns), err);
    if (tg->columns == NULL) return err->code;
    if (stmt->insert.columns.count > 0) {
        for (size_t i = 0; i < stmt->insert.columns.count; i++) {
            const sql_node *c = stmt->insert.columns.items[i];
            sql_str cn = c->ident.parts[c->ident.count - 1];
            uint32_t k;
            for (k = 0; k < n; k++) {
                const char *tn = table_column_name(tg->t, k);
                if (strlen(tn) == cn.length && memcmp(tn, cn.ptr, cn.length) == 0) break;
            }
            if (k == n)
                return MU_ERR(err, MU_EUNKNOWN_COLUMN, "No such column %.*s in table %s.%s",
                              (int)cn.length, cn.ptr, db, name);
            for (uint32_t j = 0; j < tg->column_count; j++)
                if (tg->columns[j] == k)
                    return MU_ERR(err, MU_EDUPLICATE_COLUMN, "Column %.*s in table %s.%s specified more than once",
                                  (int)cn.length, cn.ptr, db, name);
            tg->columns[tg->column_count++] = k;
        }
    } else {
        for (uint32_t k = 0; k < n; k++) {
            const catalog_column *cc = insert_column_def(tg, k);
            if (cc && cc->default_kind != CATALOG_DEFAULT_MATERIALIZED)
                tg->columns[tg->column_count++] = k;
        }
    }
    const char *tok = sql_session_get(q->session, "insert_deduplication_token");
    tg->token = tok && tok[0] ? tok : NULL;
    return 0;
}

static int insert_batch_create(sql_query *q, insert_target *tg, ty_batch **out, mu_err *err) {
    ty_batch *b;
    int rc = ty_batch_create(q->ctx.tracker, &b, err);
    for (uint32_t i = 0; i < tg->column_count && rc == 0; i++)
        rc = ty_batch_add_column(b, table_column_name(tg->t, tg->columns[i]),
                                 table_column_type(tg->t, tg->columns[i]), NULL, err);
    if (rc != 0) {
        ty_batch_destroy(b);
        return rc;
    }
    *out = b;
    return 0;
}

/* The DEFAULT / MATERIALIZED expression of table column k (definition
 * cc) evaluated over the rows of b, as a column of k's type. */
static int insert_default_values(sql_query *q, insert_target *tg, ty_batch *b, uint32_t k,
                                 const catalog_column *cc, ty_column **out, mu_err *err) {
    sql_operator fake;
    memset(&fake, 0, sizeof(fake));
    fake.q = q;
    fake.column_count = b->column_count;
    fake.names = (const char **)b->names;
    const ty_type **types = mu_arena_calloc(q->arena, b->column_count + 1, sizeof(*types), err);
    const char **quals = mu_arena_calloc(q->arena, b->column_count + 1, sizeof(*quals), err);
    if (types == NULL || quals == NULL) return err->code;
    for (uint32_t i = 0; i < b->column_count; i++) types[i] = b->columns[i]->type;
    fake.types = types;
    fake.qualifiers = quals;
    sql_node *expr;
    int rc = sql_parse_expr(cc->default_expression, strlen(cc->default_expression), q->arena,
                            NULL, &expr, err);
    sql_scope scope = {.input = &fake, .clause = "a DEFAULT expression"};
    exec_expr *e;
    if (rc == 0) rc = sql__bind_expr(q, &scope, expr, &e, err);
    const ty_type *want = table_column_type(tg->t, k);
    if (rc == 0 && !ty_type_equal(e->type, want))
        rc = exec_expr_cast(&q->builder, e, want, &e, err);
    if (rc == 0)
        rc = exec_eval_full(e, &q->ctx, (const ty_column *const *)b->columns, b->row_count, out,
                            err);
    if (rc != 0) mu_err_prefix(err, "column %s", cc->name);
    return rc;
}

/* Batch column i (table column k) where the input left rows out: those
 * rows take the column's DEFAULT expression, the others stay. */
static int insert_blend_default(sql_query *q, insert_target *tg, ty_batch *b, uint32_t i,
                                const insert_omitted *o, mu_err *err) {
    uint32_t k = tg->columns[i];
    const catalog_column *cc = insert_column_def(tg, k);
    if (cc == NULL || cc->default_kind != CATALOG_DEFAULT_DEFAULT) return 0;
    ty_column *defaults = NULL, *blended = NULL;
    int rc = insert_default_values(q, tg, b, k, cc, &defaults, err);
    if (rc == 0) rc = ty_column_create(b->columns[i]->type, b->tracker, &blended, err);
    for (uint32_t row = 0; rc == 0 && row < b->row_count; row++)
        rc = ty_column_append_from(blended, omitted_row(o, i, row) ? defaults : b->columns[i],
                                   row, err);
    ty_column_destroy(defaults);
    if (rc != 0) {
        ty_column_destroy(blended);
        return rc;
    }
    MU_ASSERT(blended->row_count == b->columns[i]->row_count);
    ty_column_destroy(b->columns[i]);
    b->columns[i] = blended;
    return 0;
}

/* Adds the DEFAULT / MATERIALIZED columns the data did not give. */
static int insert_complete(sql_query *q, insert_target *tg, ty_batch *b, mu_err *err) {
    uint32_t n = table_column_count(tg->t);
    for (uint32_t k = 0; k < n; k++) {
        const catalog_column *cc = insert_column_def(tg, k);
        if (cc == NULL || (cc->default_kind != CATALOG_DEFAULT_DEFAULT &&
                           cc->default_kind != CATALOG_DEFAULT_MATERIALIZED))
            continue;
        bool present = false;
        for (uint32_t i = 0; i < tg->column_count; i++) present |= tg->columns[i] == k;
        if (present) continue;
        ty_column *col = NULL;
        int rc = insert_default_values(q, tg, b, k, cc, &col, err);
        if (rc == 0) rc = ty_batch_add_column_take(b, table_column_name(tg->t, k), col, err);
        if (rc != 0) return rc;
    }
    return ty_batch_seal(b, err);
}

/* Seals the batch, fills omitted values with DEFAULT expressions (in
 * table order, so a later default sees the filled earlier ones), adds the
 * columns not given, then holds it (the first batch: *bp becomes NULL) or
 * stages it; insert_finish stores the whole insert. */
static int insert_append(sql_query *q, insert_target *tg, ty_batch **bp, const insert_omitted *o,
                         mu_err *err) {
    ty_batch *b = *bp;
    int rc = ty_batch_seal(b, err);
    for (uint32_t i = 0; rc == 0 && i < b->column_count && b->row_count > 0; i++)
        if (omitted_any(o, i)) rc = insert_blend_default(q, tg, b, i, o, err);
    if (rc == 0) rc = insert_complete(q, tg, b, err);
    if (rc != 0 || b->row_count == 0) return rc;
    uint64_t rows = b->row_count;
    if (tg->stage == NULL && tg->held == NULL) {
        tg->held = b;
        *bp = NULL;
        return sql__count_written(q, rows, err);
    }
    size_t token_bytes = tg->token ? strlen(tg->token) : 0;
    if (tg->stage == NULL) {
        rc = table_stage_open(tg->t, tg->token, token_bytes, &tg->stage, err);
        if (rc == 0) rc = table_stage_append(tg->stage, tg->held, err);
        ty_batch_destroy(tg->held);
        tg->held = NULL;
        if (rc != 0) return rc;
    }
    rc = table_stage_append(tg->stage, b, err);
    /* Progress counts rows taken (the whole INSERT is stored at its end);
     * sql_execute sets the final written_rows to those stored. */
    if (rc == 0) rc = sql__count_written(q, rows, err);
    return rc;
}

/* Stores what insert_append collected: one durable step for the whole
 * insert. */
static int insert_finish(insert_target *tg, sql_io *io, mu_err *err) {
    table_append_result res = {0};
    int rc = 0;
    if (tg->stage != NULL) rc = table_stage_commit(tg->stage, &res, err);
    else if (tg->held != NULL)
        rc = table_append(tg->t, tg->held, tg->token, tg->token ? strlen(tg->token) : 0, &res, err);
    if (rc == 0) io->rows_written += res.rows;
    return rc;
}

/* Drops an uncommitted stage (its parts) and the held batch; releases the
 * table. */
static void insert_close(insert_target *tg) {
    table_stage_close(tg->stage);
    ty_batch_destroy(tg->held);
    tg->stage = NULL;
    tg->held = NULL;
    storage_table_release(tg->ref);
    tg->ref = NULL;
}

/* ---- INSERT ... SELECT ------------------------------------------------------- */

int sql__insert_from_op(sql_query *q, const sql_node *stmt, sql_operator *op, sql_io *io, mu_err *err) {
    insert_target tg;
    int rc = insert_open(q, stmt, &tg, err);
    if (rc == 0 && op->column_count != tg.column_count)
        rc = MU_ERR(err, MU_ECOLUMN_COUNT, "Number of columns doesn't match: the SELECT gives %u, "
                    "the table takes %u", op->column_count, tg.column_count);
    while (rc == 0) {
        sql_chunk *c = NULL;
        rc = sql__op_next(op, &c, err);
        if (rc != 0 || c == NULL) break;
        ty_batch *b;
        rc = ty_batch_create(q->ctx.tracker, &b, err);
        for (uint32_t i = 0; i < tg.column_count && rc == 0; i++) {
            ty_column *col;
            const ty_type *want = table_column_type(tg.t, tg.columns[i]);
            const ty_column *src = c->columns[i];
            if (ty_type_equal(src->type, want)) {
                rc = ty_column_create(want, q->ctx.tracker, &col, err);
                if (rc == 0) rc = ty_column_append_rows_from(col, src, 0, c->rows, err);
            } else {
                /* Convert like CAST does. */
                exec_expr *in, *cast;
                rc = exec_expr_input(&q->builder, i, src->type, &in, err);
                if (rc == 0) rc = exec_expr_cast(&q->builder, in, want, &cast, err);
                if (rc == 0) rc = exec_eval_full(cast, &q->ctx, c->columns, c->rows, &col, err);
            }
            if (rc == 0) rc = ty_batch_add_column_take(b, table_column_name(tg.t, tg.columns[i]), col, err);
        }
        if (rc == 0) rc = insert_append(q, &tg, &b, NULL, err);
        ty_batch_destroy(b);
        sql__chunk_free(c);
    }
    if (rc == 0) rc = insert_finish(&tg, io, err);
    sql__op_destroy(op);
    insert_close(&tg);
    return rc;
}

/* ---- VALUES ----------------------------------------------------------------- */

/* Reads the rest of the input into buf (after `head` bytes of the text). */
static int insert_read_all(sql_io *io, mu_buf *buf, mu_err *err) {
    if (io->read == NULL) return 0;
    for (;;) {
        int rc = mu_buf_reserve(buf, INSERT_READ_BYTES, err);
        if (rc != 0) return rc;
        size_t got = 0;
        rc = io->read(io->ctx, buf->data + buf->length_bytes, INSERT_READ_BYTES, &got, err);
        if (rc != 0) return rc;
        if (got == 0) return 0;
        buf->length_bytes += got;
    }
}

/* One Values field into col. A NULL for a column that is not Nullable is
 * its default with input_format_null_as_default (*omitted set, so the
 * column's DEFAULT expression replaces it), else TYPE_MISMATCH as in
 * ClickHouse; a string into a DateTime follows date_time_input_format. */
static int insert_value(sql_query *q, const insert_input *in, ty_column *col, const char *text,
                        size_t len, uint64_t row, const char *column_name, bool *omitted,
                        mu_err *err) {
    sql_node *expr;
    int rc = sql_parse_expr(text, len, q->arena, NULL, &expr, err);
    if (rc != 0) return rc;
    /* A number literal goes into a numeric column as text, like
     * ClickHouse's Values reader: -0 stays -0.0, 1e300 stays exact. */
    const sql_node *lit = expr->kind == SQL_UNARY && expr->unary.op == SQL_OP_NEG ? expr->unary.operand : expr;
    const ty_type *ct = ty_type_strip_nullable(col->type);
    /* So does an array literal into an Array (its elements then keep
     * their own text: [0.1] into Array(Decimal) stays exact). */
    bool composite = ct->kind == TY_ARRAY && lit->kind == SQL_ARRAY;
    if (composite || (lit->kind == SQL_LITERAL &&
                      (lit->literal.kind == SQL_LIT_UINT || lit->literal.kind == SQL_LIT_FLOAT) &&
                      (exec_type_is_float(ct) || exec_type_is_integer(ct) || ct->kind == TY_DECIMAL))) {
        while (len > 0 && (*text == ' ' || *text == '\n' || *text == '\t' || *text == '\r')) {
            text++;
            len--;
        }
        while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\n' || text[len - 1] == '\t' ||
                           text[len - 1] == '\r'))
            len--;
        mu_err ignored;
        if (ty_column_append_text(col, text, len, &ignored) == 0) return 0;
    }
    sql_scope empty = {.clause = "VALUES"};
    exec_expr *e;
    rc = sql__bind_expr(q, &empty, expr, &e, err);
    if (rc == 0 && e->kind != EXEC_EXPR_CONST)
        rc = MU_ERR(err, MU_EILLEGAL_COLUMN, "value is not a constant");
    if (rc == 0) {
        const ty_column *v = e->constant;
        const ty_type *vt = ty_type_strip_nullable(v->type);
        if (ty_type_equal(v->type, col->type)) {
            rc = ty_column_append_from(col, v, 0, err);
        } else if (ty_column_is_null(v, 0) && col->nullable) {
            rc = ty_column_append_null(col, err);
        } else if (ty_column_is_null(v, 0) && in->null_as_default) {
            rc = ty_column_append_default(col, err);
            *omitted = rc == 0;
        } else if (ty_column_is_null(v, 0)) {
            char tn[128];
            rc = MU_ERR(err, MU_ETYPE, "Cannot insert NULL value into a column of type '%s'",
                        ty_type_name(col->type, tn, sizeof(tn)));
        } else if (vt->kind == TY_STRING && ty_type_strip_nullable(col->type)->kind != TY_STRING) {
            size_t nb;
            const uint8_t *p = ty_column_row_bytes(v, 0, &nb);
            rc = ty_column_append_text_opt(col, (const char *)p, nb, &in->text, err);
        } else {
            exec_expr *cast;
            rc = exec_expr_cast(&q->builder, e, col->type, &cast, err);
            if (rc == 0 && cast->kind != EXEC_EXPR_CONST)
                rc = MU_ERR(err, MU_EINTERNAL, "cast of a constant is not constant");
            if (rc == 0 && ty_type_equal(cast->constant->type, col->type)) {
                rc = ty_column_append_from(col, cast->constant, 0, err);
            } else if (rc == 0) {
                /* The cast's type lacks a LowCardinality of the column's
                 * (the functions work on plain values): through its text. */
                mu_buf text_form;
                mu_buf_init(&text_form, 0);
                rc = ty_column_render_text(cast->constant, 0, 0, &text_form, err);
                if (rc == 0)
                    rc = ty_column_append_text(col, (const char *)text_form.data,
                                               text_form.length_bytes, err);
                mu_buf_deinit(&text_form);
            }
        }
    }
    if (rc != 0)
        mu_err_prefix(err, "Cannot parse VALUES: row %llu, column %s", (unsigned long long)row,
                      column_name);
    return rc;
}

/* Marks row `row` of batch column `col` omitted in Values' own bitmaps. */
static int insert_omit(insert_omitted *o, uint32_t col, uint32_t row, mu_err *err) {
    MU_ASSERT(col < o->column_count && row < TY_BATCH_ROWS_MAX);
    if (o->bits[col] == NULL) o->bits[col] = calloc(TY_BATCH_ROWS_MAX / 8, 1);
    if (o->bits[col] == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for VALUES");
    o->bits[col][row >> 3] |= (uint8_t)(1u << (row & 7));
    return 0;
}

static void insert_omitted_clear(insert_omitted *o) {
    for (uint32_t i = 0; i < o->column_count; i++) {
        free(o->bits[i]);
        o->bits[i] = NULL;
    }
}

/* The fields of one VALUES row, after its '(' (at offset `open`), into the
 * batch's columns. */
static int insert_values_row(sql_query *q, insert_target *tg, const insert_input *in,
                             sql_lexer *lx, const char *data, size_t open, uint64_t row,
                             ty_batch *b, insert_omitted *omitted, mu_err *err) {
    sql_token tok;
    uint32_t field = 0;
    int depth = 0, rc = 0;
    size_t start = open + 1;
    for (;;) {
        rc = sql_lexer_next(lx, &tok, err);
        if (rc != 0) return rc;
        if (tok.kind == SQL_TOK_EOF)
            return MU_ERR(err, MU_ESYNTAX, "Cannot parse VALUES: unterminated row %llu",
                          (unsigned long long)row);
        if (tok.kind == SQL_TOK_LPAREN || tok.kind == SQL_TOK_LBRACKET ||
            tok.kind == SQL_TOK_LBRACE)
            depth++;
        else if ((tok.kind == SQL_TOK_RPAREN || tok.kind == SQL_TOK_RBRACKET ||
                  tok.kind == SQL_TOK_RBRACE) && depth > 0)
            depth--;
        else if (depth == 0 && (tok.kind == SQL_TOK_COMMA || tok.kind == SQL_TOK_RPAREN)) {
            if (field >= tg->column_count)
                return MU_ERR(err, MU_EINCORRECT_QUERY, "Cannot parse VALUES: row %llu has more "
                              "than %u values", (unsigned long long)row, tg->column_count);
            bool left_out = false;
            uint32_t at = b->columns[field]->row_count;
            rc = insert_value(q, in, b->columns[field], data + start, tok.offset - start, row,
                              b->names[field], &left_out, err);
            if (rc == 0 && left_out) rc = insert_omit(omitted, field, at, err);
            if (rc != 0) return rc;
            field++;
            start = tok.offset + 1;
            if (tok.kind == SQL_TOK_RPAREN) break;
        }
    }
    if (field != tg->column_count)
        return MU_ERR(err, MU_EINCORRECT_QUERY, "Cannot parse VALUES: row %llu has %u values, "
                      "expected %u", (unsigned long long)row, field, tg->column_count);
    return 0;
}

static int insert_values(sql_query *q, insert_target *tg, const insert_input *in,
                         const char *data, size_t len, sql_io *io, mu_err *err) {
    ty_batch *b = NULL;
    insert_omitted omitted = {.column_count = tg->column_count};
    omitted.bits = calloc(tg->column_count + 1, sizeof(uint8_t *));
    if (omitted.bits == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for VALUES");
    const insert_omitted *use = in->defaults_for_omitted ? &omitted : NULL;
    int rc = insert_batch_create(q, tg, &b, err);
    sql_lexer lx;
    sql_lexer_init(&lx, data, len);
    sql_token tok;
    uint64_t row = 0;
    while (rc == 0) {
        rc = sql_lexer_next(&lx, &tok, err);
        if (rc != 0 || tok.kind == SQL_TOK_EOF) break;
        if (tok.kind == SQL_TOK_SEMICOLON) continue;
        if (row > 0 && tok.kind == SQL_TOK_COMMA) rc = sql_lexer_next(&lx, &tok, err);
        if (rc == 0 && tok.kind != SQL_TOK_LPAREN)
            rc = MU_ERR(err, MU_ESYNTAX, "Cannot parse VALUES: expected ( at position %zu",
                        tok.offset);
        if (rc == 0)
            rc = insert_values_row(q, tg, in, &lx, data, tok.offset, ++row, b, &omitted, err);
        if (rc != 0 || ty_column_row_count(b->columns[0]) < TY_BATCH_ROWS_MAX) continue;
        rc = insert_append(q, tg, &b, use, err);
        insert_omitted_clear(&omitted);
        ty_batch_destroy(b);
        b = NULL;
        if (rc == 0) rc = insert_batch_create(q, tg, &b, err);
    }
    if (rc == 0 && b) rc = insert_append(q, tg, &b, use, err);
    ty_batch_destroy(b);
    insert_omitted_clear(&omitted);
    free(omitted.bits);
    if (rc == 0) rc = insert_finish(tg, io, err);
    return rc;
}

/* ---- FORMAT ---------------------------------------------------------------------- */

/* Takes the reader's rows out of b (appended to the table), then gives the
 * reader a fresh batch unless the input is finished. */
static int insert_format_flush(sql_query *q, insert_target *tg, fmt_reader *r,
                               const insert_input *in, bool finished, mu_err *err) {
    insert_omitted omitted = {.reader = r};
    ty_batch *b = r->batch;
    int rc = insert_append(q, tg, &b, in->defaults_for_omitted ? &omitted : NULL, err);
    fmt_reader_missing_clear(r);
    ty_batch_destroy(b);
    r->batch = NULL;
    if (rc == 0 && !finished) rc = insert_batch_create(q, tg, &r->batch, err);
    return rc;
}

/* Feeds bytes to the reader, appending each batch it fills. */
static int insert_feed(sql_query *q, insert_target *tg, fmt_reader *r, const insert_input *in,
                       const void *data, size_t len, mu_err *err) {
    for (;;) {
        int fr = fmt_reader_feed(r, data, len, err);
        data = NULL;
        len = 0;
        if (fr <= 0) return fr;
        int rc = insert_format_flush(q, tg, r, in, false, err);
        if (rc != 0) return rc;
    }
}

/* ---- Parallel parsing ------------------------------------------------------------ */

/* Once the first chunk went through the reader serially (headers, a BOM,
 * how JSON rows are separated), the rest of the input is cut into
 * segments at likely record ends (fmt_reader_cut) that parser threads
 * read with readers of their own, resumed from the first one. The
 * request thread reads the body, cuts it, and appends the parsed batches
 * in input order, so the insert is the one a serial read gives. A segment
 * that fails to parse, or whose reader did not end between records (a
 * cut inside a record), stops the parsers: that segment and everything
 * after it go through the first reader serially, which reports an error
 * with its true row number. */

typedef struct insert_piece {
    ty_batch *batch;
    uint8_t **missing;           /* per batch column: omitted rows, NULL = none */
} insert_piece;

typedef struct insert_segment {
    uint8_t *data;
    size_t bytes;
    insert_piece *pieces;
    uint32_t piece_count;
    uint64_t rows;
    int rc;                      /* < 0: parse it again serially */
    bool done;
    struct insert_segment *next_queued;
    struct insert_segment *next;  /* input order */
} insert_segment;

typedef struct insert_parser {
    struct insert_parallel *pp;
    fmt_reader reader;
    bool reader_open;            /* reader is initialised (its batch is its own) */
    bool ready;                  /* and may parse */
    pthread_t thread;
    bool started;
} insert_parser;

typedef struct insert_parallel {
    sql_query *q;
    insert_target *tg;
    uint32_t column_count;
    pthread_mutex_t lock;
    pthread_cond_t wake;         /* parsers: a segment queued, or stop */
    pthread_cond_t parsed;       /* request thread: a segment is done */
    insert_segment *queue_head, *queue_tail;  /* waiting for a parser */
    insert_segment *head, *tail;              /* not yet appended, input order */
    uint32_t in_flight;
    bool stop;
    bool failed;                 /* a segment failed: the others are not parsed */
    insert_parser parsers[INSERT_PARSERS_MAX];
    uint32_t parser_count;
} insert_parallel;

static void insert_piece_free(insert_piece *piece, uint32_t columns) {
    ty_batch_destroy(piece->batch);
    for (uint32_t c = 0; piece->missing != NULL && c < columns; c++) free(piece->missing[c]);
    free(piece->missing);
    piece->batch = NULL;
    piece->missing = NULL;
}

static void insert_segment_free(insert_segment *seg, uint32_t columns) {
    if (seg == NULL) return;
    for (uint32_t i = 0; i < seg->piece_count; i++) insert_piece_free(&seg->pieces[i], columns);
    free(seg->pieces);
    free(seg->data);
    free(seg);
}

/* Takes the reader's batch (and its marks) into the segment and gives the
 * reader a fresh batch. */
static int insert_take_piece(insert_parallel *pp, fmt_reader *r, insert_segment *seg,
                             mu_err *err) {
    insert_piece *grown = realloc(seg->pieces, (seg->piece_count + 1) * sizeof(*grown));
    if (grown == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for INSERT data");
    seg->pieces = grown;
    insert_piece *piece = &seg->pieces[seg->piece_count];
    piece->missing = calloc(pp->column_count, sizeof(uint8_t *));
    if (piece->missing == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for INSERT data");
    fmt_reader_missing_take(r, piece->missing);
    piece->batch = r->batch;
    seg->piece_count++;
    seg->rows += r->batch->columns[0]->row_count;
    r->batch = NULL;
    return insert_batch_create(pp->q, pp->tg, &r->batch, err);
}

static int insert_parse_segment(insert_parallel *pp, fmt_reader *r, insert_segment *seg) {
    mu_err err;
    mu_err_clear(&err);
    const uint8_t *data = seg->data;
    size_t len = seg->bytes;
    for (;;) {
        int fr = fmt_reader_feed(r, data, len, &err);
        data = NULL;
        len = 0;
        if (fr < 0) return fr;
        if (fr == 1 || r->batch->columns[0]->row_count > 0) {
            int rc = insert_take_piece(pp, r, seg, &err);
            if (rc != 0) return rc;
        }
        /* Cut inside a record (or the data ended inside the run): the
         * serial reader reads it from here. */
        if (fr == 0) return fmt_reader_at_boundary(r) ? 0 : MU_ECANCELLED;
    }
}

static void *insert_parser_main(void *arg) {
    insert_parser *self = arg;
    insert_parallel *pp = self->pp;
    pthread_mutex_lock(&pp->lock);
    for (;;) {
        while (!pp->stop && pp->queue_head == NULL) pthread_cond_wait(&pp->wake, &pp->lock);
        insert_segment *seg = pp->queue_head;
        if (seg == NULL) break; /* stopping */
        pp->queue_head = seg->next_queued;
        if (pp->queue_head == NULL) pp->queue_tail = NULL;
        bool skip = pp->failed || pp->stop;
        pthread_mutex_unlock(&pp->lock);
        /* After a failure the reader's state is unknown: it parses no more. */
        seg->rc = skip || !self->ready ? MU_ECANCELLED : insert_parse_segment(pp, &self->reader,
                                                                              seg);
        pthread_mutex_lock(&pp->lock);
        if (seg->rc != 0) {
            pp->failed = true;
            self->ready = false;
        }
        seg->done = true;
        pthread_cond_broadcast(&pp->parsed);
    }
    pthread_mutex_unlock(&pp->lock);
    return NULL;
}

/* Stops and joins the parsers; frees their readers and every segment not
 * yet appended unless `keep` (the caller re-reads them serially). */
static void insert_parallel_stop(insert_parallel *pp) {
    pthread_mutex_lock(&pp->lock);
    pp->stop = true;
    pthread_cond_broadcast(&pp->wake);
    pthread_mutex_unlock(&pp->lock);
    for (uint32_t i = 0; i < pp->parser_count; i++) {
        insert_parser *p = &pp->parsers[i];
        if (p->started) pthread_join(p->thread, NULL);
        p->started = false;
        if (!p->reader_open) continue;
        ty_batch_destroy(p->reader.batch);
        p->reader.batch = NULL;
        fmt_reader_deinit(&p->reader);
        p->reader_open = false;
    }
    pp->parser_count = 0;
}

static int insert_parallel_start(insert_parallel *pp, const fmt_reader *first,
                                 const insert_input *in, mu_err *err) {
    pthread_mutex_init(&pp->lock, NULL);
    pthread_cond_init(&pp->wake, NULL);
    pthread_cond_init(&pp->parsed, NULL);
    int rc = 0;
    for (uint32_t i = 0; i < in->parsers && rc == 0; i++) {
        insert_parser *p = &pp->parsers[i];
        p->pp = pp;
        pp->parser_count = i + 1;
        ty_batch *b = NULL;
        rc = insert_batch_create(pp->q, pp->tg, &b, err);
        if (rc == 0) {
            rc = fmt_reader_init(&p->reader, first->kind, b, in->read_flags, 0, err);
            if (rc != 0) ty_batch_destroy(b);
            p->reader_open = rc == 0;
        }
        if (rc == 0) rc = fmt_reader_resume(&p->reader, first, err);
        p->ready = rc == 0;
        if (rc == 0 && pthread_create(&p->thread, NULL, insert_parser_main, p) != 0)
            rc = MU_ERR(err, MU_ENOMEM, "cannot start an INSERT parser thread");
        p->started = rc == 0;
    }
    return rc;
}

/* Appends the rows of the oldest segment once it is parsed; *failed when
 * it failed to parse (it stays first in line). Waits when `wait`. */
static int insert_parallel_take(insert_parallel *pp, const insert_input *in, fmt_reader *first,
                                bool wait, bool *failed, bool *took, mu_err *err) {
    *took = *failed = false;
    pthread_mutex_lock(&pp->lock);
    while (wait && pp->head != NULL && !pp->head->done) pthread_cond_wait(&pp->parsed, &pp->lock);
    insert_segment *seg = pp->head != NULL && pp->head->done ? pp->head : NULL;
    pthread_mutex_unlock(&pp->lock);
    if (seg == NULL) return 0;
    if (seg->rc != 0) {
        *failed = true;
        return 0;
    }
    pp->head = seg->next;
    if (pp->head == NULL) pp->tail = NULL;
    pp->in_flight--;
    *took = true;
    int rc = 0;
    for (uint32_t i = 0; i < seg->piece_count && rc == 0; i++) {
        insert_omitted omitted = {.bits = seg->pieces[i].missing, .column_count = pp->column_count};
        rc = insert_append(pp->q, pp->tg, &seg->pieces[i].batch,
                           in->defaults_for_omitted ? &omitted : NULL, err);
    }
    first->row_number += seg->rows;
    insert_segment_free(seg, pp->column_count);
    return rc;
}

static int insert_parallel_submit(insert_parallel *pp, mu_buf *buf, size_t cut, mu_err *err) {
    insert_segment *seg = calloc(1, sizeof(*seg));
    uint8_t *rest = buf->length_bytes > cut ? malloc(MU_MAX(buf->length_bytes - cut,
                                                             (size_t)INSERT_SEGMENT_BYTES))
                                            : NULL;
    if (seg == NULL || (buf->length_bytes > cut && rest == NULL)) {
        free(seg);
        free(rest);
        return MU_ERR(err, MU_ENOMEM, "out of memory for INSERT data");
    }
    /* The segment keeps the buffer; the bytes after the cut move on. */
    size_t left = buf->length_bytes - cut;
    if (left > 0) memcpy(rest, buf->data + cut, left);
    seg->data = buf->data;
    seg->bytes = cut;
    buf->data = rest;
    buf->length_bytes = left;
    buf->capacity_bytes = rest != NULL ? MU_MAX(left, (size_t)INSERT_SEGMENT_BYTES) : 0;
    pthread_mutex_lock(&pp->lock);
    if (pp->queue_tail != NULL) pp->queue_tail->next_queued = seg;
    else pp->queue_head = seg;
    pp->queue_tail = seg;
    if (pp->tail != NULL) pp->tail->next = seg;
    else pp->head = seg;
    pp->tail = seg;
    pp->in_flight++;
    pthread_cond_signal(&pp->wake);
    pthread_mutex_unlock(&pp->lock);
    return 0;
}

/* Reads the rest of the input (after `tail`, the bytes the first reader
 * had not parsed) in parallel. On return every byte read went through
 * the parsers and was appended, or was fed to `first` (the serial
 * fallback); *input_done says whether io is at its end. */
static int insert_parallel_run(sql_query *q, insert_target *tg, fmt_reader *first,
                               const insert_input *in, mu_buf *buf, sql_io *io,
                               bool *input_done, mu_err *err) {
    insert_parallel *pp = calloc(1, sizeof(*pp));
    if (pp == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for INSERT data");
    pp->q = q;
    pp->tg = tg;
    pp->column_count = first->batch->column_count;
    int rc = insert_parallel_start(pp, first, in, err);
    bool failed = false, serial = false;  /* serial: the rest goes through `first` */
    uint32_t max_in_flight = pp->parser_count * INSERT_SEGMENTS_PER_PARSER;
    uint64_t parsed = 0;         /* segments appended from the parsers */
    size_t want = INSERT_SEGMENT_BYTES;
    while (rc == 0 && !failed && !serial) {
        /* Read until a segment's worth is there (or the input ends). */
        while (rc == 0 && !*input_done && buf->length_bytes < want) {
            rc = mu_buf_reserve(buf, INSERT_SEGMENT_BYTES, err);
            size_t got = 0;
            if (rc == 0)
                rc = io->read(io->ctx, buf->data + buf->length_bytes,
                              buf->capacity_bytes - buf->length_bytes, &got, err);
            if (rc == 0 && got == 0) *input_done = true;
            buf->length_bytes += got;
        }
        if (rc != 0 || buf->length_bytes == 0) break;
        size_t cut = fmt_reader_cut(first->kind, buf->data, buf->length_bytes);
        want = INSERT_SEGMENT_BYTES;
        if (cut > 0) rc = insert_parallel_submit(pp, buf, cut, err);
        else if (*input_done || buf->length_bytes > first->max_record_bytes)
            serial = true; /* a last record without a line end, or no cut in sight */
        else
            want = buf->length_bytes + INSERT_SEGMENT_BYTES; /* a record longer than that */
        if (*input_done && buf->length_bytes > 0) serial = true;
        /* Append what is parsed; wait while the parsers are full. */
        bool took = true;
        while (rc == 0 && !failed && took) {
            rc = insert_parallel_take(pp, in, first, pp->in_flight >= max_in_flight, &failed,
                                      &took, err);
            parsed += took;
        }
        if (rc == 0 && !failed && *input_done && buf->length_bytes == 0) break;
    }
    while (rc == 0 && !failed && pp->head != NULL) {
        bool took;
        rc = insert_parallel_take(pp, in, first, true, &failed, &took, err);
        parsed += took;
    }
    insert_parallel_stop(pp);
    mu_log_debug("sql.insert.parallel_parsing", "format=%s parsers=%u segments=%llu serial_after=%s",
                 fmt_name(first->kind), in->parsers, (unsigned long long)parsed,
                 failed ? "failed_segment" : serial ? "uncut_input" : "none");
    /* Serially: the failed segment and those after it, then what was read
     * but not cut. */
    for (insert_segment *seg = pp->head; seg != NULL;) {
        insert_segment *next = seg->next;
        if (rc == 0) rc = insert_feed(q, tg, first, in, seg->data, seg->bytes, err);
        insert_segment_free(seg, pp->column_count);
        seg = next;
    }
    if (rc == 0 && buf->length_bytes > 0)
        rc = insert_feed(q, tg, first, in, buf->data, buf->length_bytes, err);
    mu_buf_clear(buf);
    pthread_mutex_destroy(&pp->lock);
    pthread_cond_destroy(&pp->wake);
    pthread_cond_destroy(&pp->parsed);
    free(pp);
    return rc;
}

/* Feeds the data to the reader chunk by chunk, appending each full batch;
 * after the first chunk, the rest goes through the parallel parsers when
 * the format and settings allow it. */
static int insert_format_run(sql_query *q, insert_target *tg, fmt_reader *r,
                             const insert_input *in, const char *head, size_t head_bytes,
                             sql_io *io, mu_err *err) {
    char *chunk = malloc(INSERT_READ_BYTES);
    if (chunk == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for INSERT data");
    const char *data = head;
    size_t len = head_bytes;
    bool input_done = io->read == NULL;
    bool finished = false, parallel_tried = in->parsers < 2 || !fmt_can_cut(r->kind);
    int rc = 0;
    while (rc == 0 && !finished) {
        int fr;
        if (len > 0 || !input_done) {
            fr = fmt_reader_feed(r, data, len, err);
        } else {
            fr = fmt_reader_finish(r, err);
            finished = fr == 0;
        }
        bool fed_chunk = data == chunk;
        data = NULL;
        len = 0;
        if (fr < 0) {
            rc = fr;
            break;
        }
        if (fr == 1 || finished) rc = insert_format_flush(q, tg, r, in, finished, err);
        if (fr == 1 || finished || rc != 0 || input_done) continue;
        if (fed_chunk && !parallel_tried) {
            /* The rows read so far are appended first: input order. */
            parallel_tried = true;
            if (r->batch->columns[0]->row_count > 0)
                rc = insert_format_flush(q, tg, r, in, false, err);
            mu_buf tail;
            mu_buf_init(&tail, 0);
            if (rc == 0 && fmt_reader_detach(r, &tail, err))
                rc = insert_parallel_run(q, tg, r, in, &tail, io, &input_done, err);
            mu_buf_deinit(&tail);
            if (rc != 0 || input_done) continue;
        }
        size_t got = 0;
        rc = io->read(io->ctx, chunk, INSERT_READ_BYTES, &got, err);
        if (rc == 0 && got == 0) input_done = true;
        data = chunk;
        len = got;
    }
    free(chunk);
    return rc;
}

static int insert_format(sql_query *q, insert_target *tg, const insert_input *in, fmt_kind kind,
                         const char *head, size_t head_bytes, sql_io *io, mu_err *err) {
    ty_batch *b;
    int rc = insert_batch_create(q, tg, &b, err);
    if (rc != 0) return rc;
    fmt_reader r;
    rc = fmt_reader_init(&r, kind, b, in->read_flags, 0, err);
    if (rc != 0) {
        ty_batch_destroy(b);
        return rc;
    }
    rc = fmt_reader_allow_errors(&r, in->allow_errors_num, in->allow_errors_ratio, err);
    if (rc == 0) rc = insert_format_run(q, tg, &r, in, head, head_bytes, io, err);
    if (rc == 0) rc = insert_finish(tg, io, err);
    /* ClickHouse logs the rows it skipped (IRowInputFormat) at debug level. */
    if (r.rows_skipped > 0)
            mu_log_debug("sql.insert.rows_skipped", "table=%s.%s format=%s rows=%llu skipped=%llu",
                     tg->def->def.database, tg->def->def.name, fmt_name(kind),
                     (unsigned long long)r.row_number, (unsigned long long)r.rows_skipped);
    ty_batch_destroy(r.batch);
    r.batch = NULL;
    fmt_reader_deinit(&r);
    return rc;
}

int sql__run_insert(sql_query *q, const sql_node *stmt, const char *text, size_t text_bytes,
                    sql_io *io, mu_err *err) {
    if (stmt->insert.select) {
        sql_operator *op;
        int rc = sql__plan_query(q, stmt->insert.select, &op, err);
        if (rc != 0) return rc;
        return sql__insert_from_op(q, stmt, op, io, err);
    }
    insert_target tg;
    int rc = insert_open(q, stmt, &tg, err);
    if (rc != 0) {
        storage_table_release(tg.ref);
        return rc;
    }
    insert_input in;
    rc = insert_input_read(q, &in, err);
    if (rc != 0) {
        storage_table_release(tg.ref);
        return rc;
    }
    const char *data = text + stmt->insert.data_offset;
    size_t data_bytes = text_bytes > stmt->insert.data_offset ? text_bytes - stmt->insert.data_offset : 0;
    char format[64];
    snprintf(format, sizeof(format), "%.*s", (int)stmt->insert.format.length, stmt->insert.format.ptr);
    if (strcmp(format, "Values") == 0) {
        mu_buf all;
        mu_buf_init(&all, 0);
        rc = mu_buf_append(&all, data, data_bytes, err);
        if (rc == 0) rc = insert_read_all(io, &all, err);
        if (rc == 0)
            rc = insert_values(q, &tg, &in, all.data ? (char *)all.data : "", all.length_bytes, io,
                               err);
        mu_buf_deinit(&all);
    } else {
        fmt_kind kind = fmt_find(format);
        if (kind == FMT_UNKNOWN) rc = MU_ERR(err, MU_EUNKNOWN_FORMAT, "Unknown format %s", format);
        else if (!fmt_can_read(kind))
            rc = MU_ERR(err, MU_ENOT_SUPPORTED, "input format %s is not supported yet", format);
        else {
            /* The parser's data_offset is already past the separator after
             * the format name (spaces, then at most one line end). */
            rc = insert_format(q, &tg, &in, kind, data, data_bytes, io, err);
        }
    }
    insert_close(&tg);
    return rc;
}
