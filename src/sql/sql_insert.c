/* sql_insert.c: INSERT INTO t [(columns)] VALUES ... | FORMAT name <data> |
 * SELECT ...: rows are parsed (Values tuples through the SQL expression
 * parser; the other formats through the streaming readers of src/formats),
 * completed with DEFAULT / MATERIALIZED expressions of the columns not
 * given, and stored atomically: an insert of one batch (up to 65,536 rows)
 * through table_append, a longer one through a table stage (table.h), so a
 * bad row anywhere fails the whole insert and nothing of it is stored,
 * whatever its size. The first batch is held until the second arrives or
 * the input ends. The insert_deduplication_token setting is the token of
 * the whole insert.
 */
#include "sql/query_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INSERT_READ_BYTES (1u << 20)

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

/* Adds the DEFAULT / MATERIALIZED columns the data did not give. */
static int insert_complete(sql_query *q, insert_target *tg, ty_batch *b, mu_err *err) {
    uint32_t n = table_column_count(tg->t);
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
    uint32_t given = b->column_count;
    for (uint32_t k = 0; k < n; k++) {
        const catalog_column *cc = insert_column_def(tg, k);
        if (cc == NULL || (cc->default_kind != CATALOG_DEFAULT_DEFAULT &&
                           cc->default_kind != CATALOG_DEFAULT_MATERIALIZED))
            continue;
        bool present = false;
        for (uint32_t i = 0; i < tg->column_count; i++) present |= tg->columns[i] == k;
        if (present) continue;
        sql_node *expr;
        int rc = sql_parse_expr(cc->default_expression, strlen(cc->default_expression), q->arena,
                                NULL, &expr, err);
        sql_scope scope = {.input = &fake, .clause = "a DEFAULT expression"};
        exec_expr *e;
        if (rc == 0) rc = sql__bind_expr(q, &scope, expr, &e, err);
        const ty_type *want = table_column_type(tg->t, k);
        if (rc == 0 && !ty_type_equal(e->type, want)) rc = exec_expr_cast(&q->builder, e, want, &e, err);
        ty_column *col = NULL;
        if (rc == 0)
            rc = exec_eval_full(e, &q->ctx, (const ty_column *const *)b->columns, b->row_count, &col, err);
        if (rc == 0) rc = ty_batch_add_column_take(b, table_column_name(tg->t, k), col, err);
        if (rc != 0) {
            mu_err_prefix(err, "column %s", cc->name);
            return rc;
        }
    }
    (void)given;
    return ty_batch_seal(b, err);
}

/* Takes the batch (*b becomes NULL when it is held). */
static int insert_append(sql_query *q, insert_target *tg, ty_batch **b, mu_err *err) {
    int rc = ty_batch_seal(*b, err);
    if (rc == 0) rc = insert_complete(q, tg, *b, err);
    if (rc != 0 || (*b)->row_count == 0) return rc;
    uint64_t rows = (*b)->row_count;
    if (tg->stage == NULL && tg->held == NULL) {
        tg->held = *b;
        *b = NULL;
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
    rc = table_stage_append(tg->stage, *b, err);
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
        if (rc == 0) rc = insert_append(q, &tg, &b, err);
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

static int insert_value(sql_query *q, ty_column *col, const char *text, size_t len, uint64_t row,
                        const char *column_name, mu_err *err) {
    sql_node *expr;
    int rc = sql_parse_expr(text, len, q->arena, NULL, &expr, err);
    if (rc != 0) return rc;
    /* A number literal goes into a numeric column as text, like
     * ClickHouse's Values reader: -0 stays -0.0, 1e300 stays exact. */
    const sql_node *lit = expr->kind == SQL_UNARY && expr->unary.op == SQL_OP_NEG ? expr->unary.operand : expr;
    const ty_type *ct = ty_type_strip_nullable(col->type);
    if (lit->kind == SQL_LITERAL && (lit->literal.kind == SQL_LIT_UINT || lit->literal.kind == SQL_LIT_FLOAT) &&
        (exec_type_is_float(ct) || exec_type_is_integer(ct) || ct->kind == TY_DECIMAL)) {
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
        } else if (ty_column_is_null(v, 0)) {
            rc = ty_column_is_null(v, 0) && col->nullable ? ty_column_append_null(col, err)
                                                          : ty_column_append_default(col, err);
        } else if (vt->kind == TY_STRING && ty_type_strip_nullable(col->type)->kind != TY_STRING) {
            size_t nb;
            const uint8_t *p = ty_column_row_bytes(v, 0, &nb);
            rc = ty_column_append_text(col, (const char *)p, nb, err);
        } else {
            exec_expr *cast;
            rc = exec_expr_cast(&q->builder, e, col->type, &cast, err);
            if (rc == 0 && cast->kind == EXEC_EXPR_CONST) rc = ty_column_append_from(col, cast->constant, 0, err);
            else if (rc == 0) rc = MU_ERR(err, MU_EINTERNAL, "cast of a constant is not constant");
        }
    }
    if (rc != 0)
        mu_err_prefix(err, "Cannot parse VALUES: row %llu, column %s", (unsigned long long)row,
                      column_name);
    return rc;
}

static int insert_values(sql_query *q, insert_target *tg, const char *data, size_t len,
                         sql_io *io, mu_err *err) {
    ty_batch *b;
    int rc = insert_batch_create(q, tg, &b, err);
    if (rc != 0) return rc;
    sql_lexer lx;
    sql_lexer_init(&lx, data, len);
    sql_token tok;
    uint64_t row = 0;
    for (;;) {
        rc = sql_lexer_next(&lx, &tok, err);
        if (rc != 0) break;
        if (tok.kind == SQL_TOK_EOF) break;
        if (tok.kind == SQL_TOK_SEMICOLON) continue;
        if (row > 0 && tok.kind == SQL_TOK_COMMA) {
            rc = sql_lexer_next(&lx, &tok, err);
            if (rc != 0) break;
        }
        if (tok.kind != SQL_TOK_LPAREN) {
            rc = MU_ERR(err, MU_ESYNTAX, "Cannot parse VALUES: expected ( at position %zu",
                        tok.offset);
            break;
        }
        row++;
        uint32_t field = 0;
        int depth = 0;
        size_t start = tok.offset + 1;
        for (;;) {
            rc = sql_lexer_next(&lx, &tok, err);
            if (rc != 0) break;
            if (tok.kind == SQL_TOK_EOF) {
                rc = MU_ERR(err, MU_ESYNTAX, "Cannot parse VALUES: unterminated row %llu",
                            (unsigned long long)row);
                break;
            }
            if (tok.kind == SQL_TOK_LPAREN || tok.kind == SQL_TOK_LBRACKET || tok.kind == SQL_TOK_LBRACE)
                depth++;
            else if ((tok.kind == SQL_TOK_RPAREN || tok.kind == SQL_TOK_RBRACKET ||
                      tok.kind == SQL_TOK_RBRACE) && depth > 0)
                depth--;
            else if (depth == 0 && (tok.kind == SQL_TOK_COMMA || tok.kind == SQL_TOK_RPAREN)) {
                if (field >= tg->column_count) {
                    rc = MU_ERR(err, MU_EINCORRECT_QUERY, "Cannot parse VALUES: row %llu has more "
                                "than %u values", (unsigned long long)row, tg->column_count);
                    break;
                }
                rc = insert_value(q, b->columns[field], data + start, tok.offset - start, row,
                                  b->names[field], err);
                if (rc != 0) break;
                field++;
                start = tok.offset + 1;
                if (tok.kind == SQL_TOK_RPAREN) break;
            }
        }
        if (rc != 0) break;
        if (field != tg->column_count) {
            rc = MU_ERR(err, MU_EINCORRECT_QUERY, "Cannot parse VALUES: row %llu has %u values, "
                        "expected %u", (unsigned long long)row, field, tg->column_count);
            break;
        }
        if (ty_column_row_count(b->columns[0]) >= TY_BATCH_ROWS_MAX) {
            rc = insert_append(q, tg, &b, err);
            ty_batch_destroy(b);
            b = NULL;
            if (rc == 0) rc = insert_batch_create(q, tg, &b, err);
            if (rc != 0) break;
        }
    }
    if (rc == 0 && b) rc = insert_append(q, tg, &b, err);
    ty_batch_destroy(b);
    if (rc == 0) rc = insert_finish(tg, io, err);
    return rc;
}

/* ---- FORMAT ---------------------------------------------------------------------- */

static int insert_format(sql_query *q, insert_target *tg, fmt_kind kind, const char *head,
                         size_t head_bytes, sql_io *io, mu_err *err) {
    ty_batch *b;
    int rc = insert_batch_create(q, tg, &b, err);
    if (rc != 0) return rc;
    fmt_reader r;
    const char *nad = sql_session_get(q->session, "input_format_null_as_default");
    unsigned flags = (nad == NULL || strcmp(nad, "0") != 0) ? FMT_READ_NULL_AS_DEFAULT : 0;
    rc = fmt_reader_init(&r, kind, b, flags, 0, err);
    if (rc != 0) {
        ty_batch_destroy(b);
        return rc;
    }
    char *chunk = malloc(INSERT_READ_BYTES);
    if (chunk == NULL) rc = MU_ERR(err, MU_ENOMEM, "out of memory for INSERT data");
    const char *data = head;
    size_t len = head_bytes;
    bool input_done = io->read == NULL;
    bool finished = false;
    while (rc == 0 && !finished) {
        int fr;
        if (len > 0 || !input_done) fr = fmt_reader_feed(&r, data, len, err);
        else {
            fr = fmt_reader_finish(&r, err);
            if (fr == 0) finished = true;
        }
        data = NULL;
        len = 0;
        if (fr < 0) {
            rc = fr;
            break;
        }
        if (fr == 1 || finished) {
            rc = insert_append(q, tg, &b, err);
            ty_batch_destroy(b);
            b = NULL;
            if (rc == 0 && !finished) {
                rc = insert_batch_create(q, tg, &b, err);
                if (rc == 0) r.batch = b;
            }
            if (fr == 1) continue;
        }
        if (!finished && !input_done) {
            size_t got = 0;
            rc = io->read(io->ctx, chunk, INSERT_READ_BYTES, &got, err);
            if (rc == 0 && got == 0) input_done = true;
            data = chunk;
            len = got;
        }
    }
    free(chunk);
    r.batch = b;
    fmt_reader_deinit(&r);
    ty_batch_destroy(b);
    if (rc == 0) rc = insert_finish(tg, io, err);
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
    const char *data = text + stmt->insert.data_offset;
    size_t data_bytes = text_bytes > stmt->insert.data_offset ? text_bytes - stmt->insert.data_offset : 0;
    char format[64];
    snprintf(format, sizeof(format), "%.*s", (int)stmt->insert.format.length, stmt->insert.format.ptr);
    if (strcmp(format, "Values") == 0) {
        mu_buf all;
        mu_buf_init(&all, 0);
        rc = mu_buf_append(&all, data, data_bytes, err);
        if (rc == 0) rc = insert_read_all(io, &all, err);
        if (rc == 0) rc = insert_values(q, &tg, all.data ? (char *)all.data : "", all.length_bytes, io, err);
        mu_buf_deinit(&all);
    } else {
        fmt_kind kind = fmt_find(format);
        if (kind == FMT_UNKNOWN) rc = MU_ERR(err, MU_EUNKNOWN_FORMAT, "Unknown format %s", format);
        else if (!fmt_can_read(kind))
            rc = MU_ERR(err, MU_ENOT_SUPPORTED, "input format %s is not supported yet", format);
        else {
            /* The parser's data_offset is already past the separator after
             * the format name (spaces, then at most one line end). */
            rc = insert_format(q, &tg, kind, data, data_bytes, io, err);
        }
    }
    insert_close(&tg);
    return rc;
}
