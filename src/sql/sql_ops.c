/* sql_ops.c: chunks, the operator base and the streaming operators that
 * keep no state across chunks beyond a counter: values, numbers, table
 * scan (parts by granule ranges, then memtable chunks, of one table
 * version held for the scan's life), filter, project, limit, column
 * truncation and union.
 */
#include "sql/query_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- chunks ------------------------------------------------------------ */

int sql__chunk_create(uint32_t column_count, uint32_t rows, sql_chunk **out, mu_err *err) {
    sql_chunk *c = calloc(1, sizeof(*c));
    if (c) {
        c->columns = calloc(column_count ? column_count : 1, sizeof(*c->columns));
        c->owned = calloc(column_count ? column_count : 1, sizeof(*c->owned));
    }
    if (c == NULL || c->columns == NULL || c->owned == NULL) {
        sql__chunk_free(c);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a chunk of %u columns", column_count);
    }
    c->column_count = column_count;
    c->rows = rows;
    *out = c;
    return 0;
}

void sql__chunk_free(sql_chunk *c) {
    if (c == NULL) return;
    if (c->owned)
        for (uint32_t i = 0; i < c->column_count; i++) ty_column_destroy(c->owned[i]);
    free(c->owned);
    free(c->columns);
    free(c);
}

void sql__chunk_set(sql_chunk *c, uint32_t i, const ty_column *column, bool take) {
    ty_column_destroy(c->owned[i]);
    c->columns[i] = column;
    c->owned[i] = take ? (ty_column *)column : NULL;
}

/* ---- operator base ------------------------------------------------------ */

int sql__op_init(sql_operator *op, sql_query *q, const sql_operator_vt *vt, uint32_t column_count,
                 mu_err *err) {
    op->vt = vt;
    op->q = q;
    op->column_count = column_count;
    size_t n = column_count ? column_count : 1;
    op->types = mu_arena_calloc(q->arena, n, sizeof(*op->types), err);
    op->names = mu_arena_calloc(q->arena, n, sizeof(*op->names), err);
    op->qualifiers = mu_arena_calloc(q->arena, n, sizeof(*op->qualifiers), err);
    op->no_star = mu_arena_calloc(q->arena, n, sizeof(*op->no_star), err);
    if (!op->types || !op->names || !op->qualifiers || !op->no_star) return err->code;
    return 0;
}

void sql__op_destroy(sql_operator *op) {
    if (op) op->vt->destroy(op);
}

int sql__op_drain(sql_operator *op, ty_column ***columns_out, uint32_t *rows_out, mu_err *err) {
    ty_column **cols = calloc(op->column_count ? op->column_count : 1, sizeof(*cols));
    if (cols == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory collecting rows");
    int rc = 0;
    uint64_t rows = 0;
    for (uint32_t i = 0; i < op->column_count && rc == 0; i++)
        rc = ty_column_create(op->types[i], op->q->ctx.tracker, &cols[i], err);
    while (rc == 0) {
        sql_chunk *c = NULL;
        rc = sql__op_next(op, &c, err);
        if (rc != 0 || c == NULL) break;
        if (rows + c->rows > TY_COLUMN_ROWS_MAX) {
            rc = MU_ERR(err, MU_ETOO_MANY_ROWS, "more than %u rows to hold in memory",
                        TY_COLUMN_ROWS_MAX);
        }
        for (uint32_t i = 0; i < op->column_count && rc == 0; i++)
            rc = ty_column_append_rows_from(cols[i], c->columns[i], 0, c->rows, err);
        rows += c->rows;
        sql__chunk_free(c);
    }
    if (rc != 0) {
        for (uint32_t i = 0; i < op->column_count; i++) ty_column_destroy(cols[i]);
        free(cols);
        return rc;
    }
    *columns_out = cols;
    if (rows_out) *rows_out = (uint32_t)rows;
    return 0;
}

/* ---- values --------------------------------------------------------------- */

typedef struct op_values {
    sql_operator base;
    ty_column **columns;
    uint32_t rows;
    uint32_t pos;
} op_values;

static int op_values_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_values *v = (op_values *)op;
    *out = NULL;
    if (v->pos >= v->rows && !(v->rows == 0 && v->pos == 0 && op->column_count == 0)) return 0;
    if (op->column_count == 0) { /* a row count without columns (SELECT without FROM) */
        v->pos = 1;
        return 0;
    }
    uint32_t n = v->rows - v->pos;
    if (n > SQL_CHUNK_ROWS) n = SQL_CHUNK_ROWS;
    sql_chunk *c = NULL;
    int rc = sql__chunk_create(op->column_count, n, &c, err);
    if (rc != 0) return rc;
    if (v->pos == 0 && n == v->rows) {
        for (uint32_t i = 0; i < op->column_count; i++) sql__chunk_set(c, i, v->columns[i], false);
    } else {
        for (uint32_t i = 0; i < op->column_count && rc == 0; i++) {
            ty_column *col;
            rc = ty_column_create(op->types[i], op->q->ctx.tracker, &col, err);
            if (rc == 0) rc = ty_column_append_rows_from(col, v->columns[i], v->pos, n, err);
            if (rc == 0) sql__chunk_set(c, i, col, true);
            else ty_column_destroy(col);
        }
    }
    if (rc != 0) {
        sql__chunk_free(c);
        return rc;
    }
    v->pos += n;
    *out = c;
    return 0;
}

static void op_values_destroy(sql_operator *op) {
    op_values *v = (op_values *)op;
    for (uint32_t i = 0; i < op->column_count; i++) ty_column_destroy(v->columns[i]);
    free(v->columns);
    free(v);
}

static const sql_operator_vt op_values_vt = {op_values_next, op_values_destroy};

int sql__op_values(sql_query *q, uint32_t column_count, const char *const *names,
                   const ty_type *const *types, ty_column **columns_take, uint32_t rows,
                   sql_operator **out, mu_err *err) {
    op_values *v = calloc(1, sizeof(*v));
    ty_column **cols = calloc(column_count ? column_count : 1, sizeof(*cols));
    if (v == NULL || cols == NULL) {
        free(v);
        free(cols);
        for (uint32_t i = 0; i < column_count; i++) ty_column_destroy(columns_take[i]);
        return MU_ERR(err, MU_ENOMEM, "out of memory for values");
    }
    memcpy(cols, columns_take, column_count * sizeof(*cols));
    v->columns = cols;
    v->rows = rows;
    int rc = sql__op_init(&v->base, q, &op_values_vt, column_count, err);
    if (rc != 0) {
        op_values_destroy(&v->base);
        return rc;
    }
    for (uint32_t i = 0; i < column_count; i++) {
        v->base.names[i] = mu_arena_strndup(q->arena, names[i], strlen(names[i]), err);
        v->base.types[i] = types[i];
    }
    *out = &v->base;
    return 0;
}

/* ---- numbers ------------------------------------------------------------- */

typedef struct op_numbers {
    sql_operator base;
    uint64_t next;
    uint64_t end;
    bool infinite;
} op_numbers;

static int op_numbers_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_numbers *n = (op_numbers *)op;
    *out = NULL;
    if (!n->infinite && n->next >= n->end) return 0;
    uint64_t count = n->infinite ? SQL_CHUNK_ROWS : n->end - n->next;
    if (count > op->q->max_block_rows) count = op->q->max_block_rows;
    ty_column *col;
    int rc = ty_column_create(ty_type_builtin(TY_UINT64), op->q->ctx.tracker, &col, err);
    if (rc != 0) return rc;
    void *at;
    rc = ty_column_append_fixed_uninit(col, (uint32_t)count, &at, err);
    if (rc != 0) {
        ty_column_destroy(col);
        return rc;
    }
    uint64_t *v = at;
    for (uint64_t i = 0; i < count; i++) v[i] = n->next + i;
    n->next += count;
    sql_chunk *c = NULL;
    rc = sql__count_read(op->q, count, err);
    if (rc == 0) rc = sql__chunk_create(1, (uint32_t)count, &c, err);
    if (rc != 0) {
        ty_column_destroy(col);
        return rc;
    }
    sql__chunk_set(c, 0, col, true);
    *out = c;
    return 0;
}

static void op_free_destroy(sql_operator *op) { free(op); }

static const sql_operator_vt op_numbers_vt = {op_numbers_next, op_free_destroy};

int sql__op_numbers(sql_query *q, uint64_t start, uint64_t count, bool infinite, sql_operator **out,
                    mu_err *err) {
    op_numbers *n = calloc(1, sizeof(*n));
    if (n == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory");
    int rc = sql__op_init(&n->base, q, &op_numbers_vt, 1, err);
    if (rc != 0) {
        free(n);
        return rc;
    }
    n->base.names[0] = "number";
    n->base.types[0] = ty_type_builtin(TY_UINT64);
    n->next = start;
    n->end = start + count;
    n->infinite = infinite;
    if (!infinite) sql__count_total(q, count);
    *out = &n->base;
    return 0;
}

/* ---- table scan ---------------------------------------------------------- */

#define SCAN_GRANULES_PER_CHUNK 8u

typedef struct op_scan {
    sql_operator base;
    storage_table *ref;
    table *t;
    table_version *version;
    uint32_t *columns;       /* schema indexes */
    uint32_t part_index;
    uint32_t granule;
    uint32_t memtable_index;
    memtable_snapshot snap;
    const memtable_chunk *chunk;
    bool memtable_started;
    /* Key range pruning: rows outside [lo, hi] of range_column (a schema
     * index) cannot pass the WHERE; NULL bound = open. */
    bool has_range;
    uint32_t range_column;
    ty_column *range_lo;
    ty_column *range_hi;
    uint8_t *keep;             /* granules of the current part to read */
    /* Parts written before an ALTER: a column of another type is read in
     * its type and converted (cast_from/cast_expr cache the last one); a
     * column the part lacks gets its DEFAULT expression (defaults[i], over
     * the scan's columns) or its type's default. */
    const ty_type **cast_from;
    exec_expr **cast_expr;
    exec_expr **defaults;
    uint32_t keep_part;        /* part index keep belongs to, +1 (0 = none) */
    uint64_t granules_skipped;
} op_scan;

/* Marks the granules of part p that may hold rows in range. */
static int scan_prune_part(op_scan *s, const part *p, mu_err *err) {
    const part_info *info = part_get_info(p);
    free(s->keep);
    s->keep = malloc(info->granule_count ? info->granule_count : 1);
    if (s->keep == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for granule flags");
    memset(s->keep, 1, info->granule_count);
    s->keep_part = s->part_index + 1;
    if (!s->has_range) return 0;
    uint32_t pc;
    const ty_type *type = table_column_type(s->t, s->range_column);
    if (!part_column_find(p, table_column_name(s->t, s->range_column), &pc) ||
        !ty_type_equal(part_column_type(p, pc), type))
        return 0;
    uint32_t key_index = UINT32_MAX;
    for (uint32_t k = 0; k < info->key_count; k++)
        if (part_key_column(p, k) == pc) key_index = k;
    ty_column *bounds;
    int rc = ty_column_create(type, NULL, &bounds, err);
    if (rc != 0) return rc;
    const ty_column *kr = key_index != UINT32_MAX ? part_key_range(p, key_index) : NULL;
    if (s->range_lo) rc = ty_column_append_from(bounds, s->range_lo, 0, err);
    else if (kr) rc = ty_column_append_from(bounds, kr, 0, err);
    else rc = 1;
    if (rc == 0) {
        if (s->range_hi) rc = ty_column_append_from(bounds, s->range_hi, 0, err);
        else if (kr) rc = ty_column_append_from(bounds, kr, 1, err);
        else rc = 1;
    }
    if (rc == 0) {
        if (kr && (ty_column_compare_rows(kr, 1, bounds, 0) < 0 ||
                   ty_column_compare_rows(kr, 0, bounds, 1) > 0)) {
            memset(s->keep, 0, info->granule_count); /* the whole part is outside */
        } else {
            rc = table_part_prune(p, pc, bounds, s->keep, err);
        }
    }
    ty_column_destroy(bounds);
    if (rc > 0) rc = 0; /* no usable bounds: read everything */
    for (uint32_t g = 0; g < info->granule_count; g++) s->granules_skipped += !s->keep[g];
    return rc;
}

#define SCAN_MISSING_MAX 4096u

/* Converts *col (read in an older type) to the table's type of column i. */
static int scan_convert(op_scan *s, uint32_t i, ty_column **col, mu_err *err) {
    sql_query *q = s->base.q;
    if (s->cast_from == NULL) {
        s->cast_from = calloc(s->base.column_count, sizeof(*s->cast_from));
        s->cast_expr = calloc(s->base.column_count, sizeof(*s->cast_expr));
        if (s->cast_from == NULL || s->cast_expr == NULL)
            return MU_ERR(err, MU_ENOMEM, "out of memory converting a column");
    }
    if (s->cast_from[i] == NULL || !ty_type_equal(s->cast_from[i], (*col)->type)) {
        exec_expr *in;
        int rc = exec_expr_input(&q->builder, 0, (*col)->type, &in, err);
        if (rc == 0)
            rc = exec_expr_cast(&q->builder, in, table_column_type(s->t, s->columns[i]),
                                &s->cast_expr[i], err);
        if (rc != 0) return rc;
        s->cast_from[i] = (*col)->type;
    }
    const ty_column *inputs[1] = {*col};
    ty_column *out;
    int rc = exec_eval_full(s->cast_expr[i], &q->ctx, inputs, ty_column_row_count(*col), &out, err);
    if (rc != 0) {
        mu_err_prefix(err, "converting column %s of an older part", table_column_name(s->t, s->columns[i]));
        return rc;
    }
    ty_column_destroy(*col);
    *col = out;
    return 0;
}

static int scan_part_chunk(op_scan *s, const part *p, sql_chunk **out, mu_err *err) {
    const part_info *info = part_get_info(p);
    uint32_t count = 0;
    while (s->granule + count < info->granule_count && count < SCAN_GRANULES_PER_CHUNK &&
           s->keep[s->granule + count])
        count++;
    uint32_t rows = 0;
    for (uint32_t g = 0; g < count; g++) rows += part_granule_rows(p, s->granule + g);
    sql_chunk *c = NULL;
    int rc = sql__chunk_create(s->base.column_count, rows, &c, err);
    if (rc != 0) return rc;
    bool any_missing = false;
    uint8_t missing[SCAN_MISSING_MAX] = {0};
    for (uint32_t i = 0; i < s->base.column_count && rc == 0; i++) {
        ty_column *col;
        const ty_type *type = table_column_type(s->t, s->columns[i]);
        uint32_t pc;
        bool present = part_column_find(p, table_column_name(s->t, s->columns[i]), &pc);
        const ty_type *stored = present ? part_column_type(p, pc) : type;
        rc = ty_column_create(stored, s->base.q->ctx.tracker, &col, err);
        if (rc != 0) break;
        if (present) {
            rc = part_read(p, pc, s->granule, count, col, err);
            if (rc == 0 && !ty_type_equal(stored, type)) rc = scan_convert(s, i, &col, err);
        } else {
            /* A column added after the part was written. */
            for (uint32_t r = 0; r < rows && rc == 0; r++) rc = ty_column_append_default(col, err);
            if (i < SCAN_MISSING_MAX && s->defaults && s->defaults[i]) {
                missing[i] = 1;
                any_missing = true;
            }
        }
        if (rc == 0) sql__chunk_set(c, i, col, true);
        else ty_column_destroy(col);
    }
    for (uint32_t i = 0; rc == 0 && any_missing && i < s->base.column_count && i < SCAN_MISSING_MAX; i++) {
        if (!missing[i]) continue;
        ty_column *col;
        rc = exec_eval_full(s->defaults[i], &s->base.q->ctx, c->columns, c->rows, &col, err);
        if (rc == 0) sql__chunk_set(c, i, col, true);
    }
    if (rc != 0) {
        sql__chunk_free(c);
        return rc;
    }
    s->granule += count;
    *out = c;
    return 0;
}

static int op_scan_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_scan *s = (op_scan *)op;
    *out = NULL;
    while (s->part_index < table_version_part_count(s->version)) {
        const part *p = table_version_part(s->version, s->part_index);
        if (s->keep_part != s->part_index + 1) {
            int rc = scan_prune_part(s, p, err);
            if (rc != 0) return rc;
        }
        uint32_t granules = part_get_info(p)->granule_count;
        while (s->granule < granules && !s->keep[s->granule]) s->granule++;
        if (s->granule < granules) {
            int rc = scan_part_chunk(s, p, out, err);
            if (rc == 0 && *out) rc = sql__count_read(op->q, (*out)->rows, err);
            if (rc != 0) {
                sql__chunk_free(*out);
                *out = NULL;
            }
            return rc;
        }
        s->part_index++;
        s->granule = 0;
    }
    while (s->memtable_index < table_version_memtable_count(s->version)) {
        if (!s->memtable_started) {
            memtable_snapshot_take(table_version_memtable(s->version, s->memtable_index), &s->snap);
            s->chunk = memtable_snapshot_next(&s->snap, NULL);
            s->memtable_started = true;
        } else if (s->chunk) {
            s->chunk = memtable_snapshot_next(&s->snap, s->chunk);
        }
        if (s->chunk == NULL) {
            s->memtable_index++;
            s->memtable_started = false;
            continue;
        }
        const memtable_chunk *mc = s->chunk;
        uint32_t rows = mc->row_count;
        if (mc->first_row + rows > s->snap.row_count)
            rows = (uint32_t)(s->snap.row_count - mc->first_row);
        if (rows == 0) continue;
        sql_chunk *c = NULL;
        int rc = sql__chunk_create(op->column_count, rows, &c, err);
        if (rc != 0) return rc;
        for (uint32_t i = 0; i < op->column_count && rc == 0; i++) {
            const ty_column *src = mc->columns[s->columns[i]];
            if (rows == ty_column_row_count(src)) {
                sql__chunk_set(c, i, src, false);
            } else {
                ty_column *col;
                rc = ty_column_create(src->type, op->q->ctx.tracker, &col, err);
                if (rc == 0) rc = ty_column_append_rows_from(col, src, 0, rows, err);
                if (rc == 0) sql__chunk_set(c, i, col, true);
                else ty_column_destroy(col);
            }
        }
        if (rc == 0) rc = sql__count_read(op->q, rows, err);
        if (rc != 0) {
            sql__chunk_free(c);
            return rc;
        }
        *out = c;
        return 0;
    }
    return 0;
}

static void op_scan_destroy(sql_operator *op) {
    op_scan *s = (op_scan *)op;
    table_version_release(s->version);
    storage_table_release(s->ref);
    ty_column_destroy(s->range_lo);
    ty_column_destroy(s->range_hi);
    free(s->keep);
    free(s->cast_from);
    free(s->cast_expr);
    free(s->defaults);
    free(s->columns);
    free(s);
}

static const sql_operator_vt op_scan_vt = {op_scan_next, op_scan_destroy};

int sql__op_table_scan(sql_query *q, storage_table *ref_take, const uint32_t *columns,
                       uint32_t column_count, sql_operator **out, mu_err *err) {
    op_scan *s = calloc(1, sizeof(*s));
    uint32_t *cols = calloc(column_count ? column_count : 1, sizeof(*cols));
    if (s == NULL || cols == NULL) {
        free(s);
        free(cols);
        storage_table_release(ref_take);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a scan");
    }
    s->ref = ref_take;
    s->t = storage_table_get(ref_take);
    s->columns = cols;
    memcpy(cols, columns, column_count * sizeof(*cols));
    int rc = sql__op_init(&s->base, q, &op_scan_vt, column_count, err);
    if (rc != 0) {
        op_scan_destroy(&s->base);
        return rc;
    }
    for (uint32_t i = 0; i < column_count; i++) {
        s->base.names[i] = table_column_name(s->t, columns[i]);
        s->base.types[i] = table_column_type(s->t, columns[i]);
    }
    s->version = table_version_acquire(s->t);
    /* What the table holds when the scan opens: key ranges may prune some
     * of it, rows inserted meanwhile may add some (ClickHouse's
     * total_rows_to_read is an estimate too). */
    uint64_t total = 0;
    for (uint32_t i = 0; i < table_version_part_count(s->version); i++)
        total += part_get_info(table_version_part(s->version, i))->row_count;
    for (uint32_t i = 0; i < table_version_memtable_count(s->version); i++)
        total += memtable_row_count(table_version_memtable(s->version, i));
    sql__count_total(q, total);
    *out = &s->base;
    return 0;
}

bool sql__op_is_scan(const sql_operator *op) { return op->vt == &op_scan_vt; }

const char *sql__op_scan_table_key(const sql_operator *op, uint32_t *schema_column_out) {
    const op_scan *s = (const op_scan *)op;
    const catalog_table *def = storage_table_definition(s->ref);
    if (def->def.order_by_count == 0) return NULL;
    const char *key = def->def.order_by[0];
    for (uint32_t i = 0; i < table_column_count(s->t); i++)
        if (strcmp(table_column_name(s->t, i), key) == 0) {
            *schema_column_out = i;
            return key;
        }
    return NULL;
}

int sql__op_scan_set_defaults(sql_operator *op, exec_expr **defaults_by_column, mu_err *err) {
    op_scan *s = (op_scan *)op;
    s->defaults = calloc(op->column_count ? op->column_count : 1, sizeof(*s->defaults));
    if (s->defaults == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory");
    memcpy(s->defaults, defaults_by_column, op->column_count * sizeof(*s->defaults));
    return 0;
}

void sql__op_scan_set_range(sql_operator *op, uint32_t schema_column, ty_column *lo_take,
                            ty_column *hi_take) {
    op_scan *s = (op_scan *)op;
    s->has_range = true;
    s->range_column = schema_column;
    ty_column_destroy(s->range_lo);
    ty_column_destroy(s->range_hi);
    s->range_lo = lo_take;
    s->range_hi = hi_take;
}

/* ---- filter ---------------------------------------------------------------- */

typedef struct op_filter {
    sql_operator base;
    sql_operator *input;
    exec_expr *predicate;
    uint32_t *selection;
} op_filter;

static int filter_gather(sql_query *q, sql_chunk *in, const uint32_t *sel, uint32_t count,
                         sql_chunk **out, mu_err *err) {
    sql_chunk *c = NULL;
    int rc = sql__chunk_create(in->column_count, count, &c, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < in->column_count && rc == 0; i++) {
        ty_column *col;
        rc = ty_column_create(in->columns[i]->type, q->ctx.tracker, &col, err);
        if (rc == 0) rc = ty_column_append_gather(col, in->columns[i], sel, count, err);
        if (rc == 0) sql__chunk_set(c, i, col, true);
        else ty_column_destroy(col);
    }
    if (rc != 0) {
        sql__chunk_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

static int op_filter_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_filter *f = (op_filter *)op;
    *out = NULL;
    for (;;) {
        sql_chunk *in = NULL;
        int rc = sql__op_next(f->input, &in, err);
        if (rc != 0 || in == NULL) return rc;
        exec_value v;
        rc = exec_eval(f->predicate, &op->q->ctx, in->columns, in->rows, &v, err);
        uint32_t count = 0;
        if (rc == 0) rc = exec_value_to_selection(&v, in->rows, f->selection, &count, err);
        exec_value_release(&v);
        if (rc != 0) {
            sql__chunk_free(in);
            return rc;
        }
        if (count == 0) {
            sql__chunk_free(in);
            continue;
        }
        if (count == in->rows) {
            *out = in;
            return 0;
        }
        rc = filter_gather(op->q, in, f->selection, count, out, err);
        sql__chunk_free(in);
        return rc;
    }
}

static void op_filter_destroy(sql_operator *op) {
    op_filter *f = (op_filter *)op;
    sql__op_destroy(f->input);
    free(f->selection);
    free(f);
}

static const sql_operator_vt op_filter_vt = {op_filter_next, op_filter_destroy};

static void op_copy_schema(sql_operator *dst, const sql_operator *src) {
    for (uint32_t i = 0; i < src->column_count && i < dst->column_count; i++) {
        dst->types[i] = src->types[i];
        dst->names[i] = src->names[i];
        dst->qualifiers[i] = src->qualifiers[i];
        dst->no_star[i] = src->no_star[i];
    }
}

int sql__op_filter(sql_query *q, sql_operator *input, exec_expr *predicate, sql_operator **out,
                   mu_err *err) {
    op_filter *f = calloc(1, sizeof(*f));
    uint32_t *sel = malloc(SQL_CHUNK_ROWS * sizeof(*sel));
    if (f == NULL || sel == NULL) {
        free(f);
        free(sel);
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a filter");
    }
    f->input = input;
    f->predicate = predicate;
    f->selection = sel;
    int rc = sql__op_init(&f->base, q, &op_filter_vt, input->column_count, err);
    if (rc != 0) {
        op_filter_destroy(&f->base);
        return rc;
    }
    op_copy_schema(&f->base, input);
    *out = &f->base;
    return 0;
}

/* ---- project ----------------------------------------------------------------- */

typedef struct op_project {
    sql_operator base;
    sql_operator *input;
    exec_expr **exprs;
    bool input_done;
    bool keep_lowcard;   /* LowCardinality columns pass through as they are */
} op_project;

static int op_project_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_project *p = (op_project *)op;
    *out = NULL;
    sql_chunk *in = NULL;
    int rc = sql__op_next(p->input, &in, err);
    if (rc != 0 || in == NULL) return rc;
    sql_chunk *c = NULL;
    rc = sql__chunk_create(op->column_count, in->rows, &c, err);
    for (uint32_t i = 0; i < op->column_count && rc == 0; i++) {
        const exec_expr *e = p->exprs[i];
        if (e->kind == EXEC_EXPR_INPUT &&
            (p->keep_lowcard || in->columns[e->input_index]->type->kind != TY_LOW_CARDINALITY)) {
            /* Pass the column through: move it if the input owns it. */
            uint32_t k = e->input_index;
            bool owned = in->owned[k] != NULL;
            sql__chunk_set(c, i, in->columns[k], owned);
            if (owned) {
                /* Another output may use the same input column: keep a
                 * borrowed view in the input and let the output own it. */
                in->owned[k] = NULL;
                /* keep it alive until `c` is freed: ownership moved */
            }
            continue;
        }
        ty_column *col;
        rc = exec_eval_full(e, &op->q->ctx, in->columns, in->rows, &col, err);
        if (rc == 0) sql__chunk_set(c, i, col, true);
    }
    if (rc != 0) {
        sql__chunk_free(c);
        sql__chunk_free(in);
        return rc;
    }
    /* Inputs whose ownership moved to c are still referenced by c. The
     * borrowed ones (memtable chunks) live as long as the scan. */
    sql__chunk_free(in);
    *out = c;
    return 0;
}

static void op_project_destroy(sql_operator *op) {
    op_project *p = (op_project *)op;
    sql__op_destroy(p->input);
    free(p);
}

static const sql_operator_vt op_project_vt = {op_project_next, op_project_destroy};

void sql__op_project_keep_lowcard(sql_operator *op) {
    MU_ASSERT(op->vt == &op_project_vt);
    op_project *p = (op_project *)op;
    p->keep_lowcard = true;
    for (uint32_t i = 0; i < op->column_count; i++)
        if (p->exprs[i]->kind == EXEC_EXPR_INPUT)
            op->types[i] = p->input->types[p->exprs[i]->input_index];
}

int sql__op_project(sql_query *q, sql_operator *input, exec_expr **exprs, const char *const *names,
                    uint32_t count, sql_operator **out, mu_err *err) {
    op_project *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a projection");
    }
    p->input = input;
    p->exprs = exprs;
    int rc = sql__op_init(&p->base, q, &op_project_vt, count, err);
    if (rc != 0) {
        op_project_destroy(&p->base);
        return rc;
    }
    for (uint32_t i = 0; i < count; i++) {
        p->base.types[i] = exprs[i]->type;
        p->base.names[i] = names[i];
        if (exprs[i]->kind == EXEC_EXPR_INPUT) {
            p->base.qualifiers[i] = input->qualifiers[exprs[i]->input_index];
            p->base.no_star[i] = input->no_star[exprs[i]->input_index];
        }
    }
    *out = &p->base;
    return 0;
}

/* ---- limit ------------------------------------------------------------------- */

typedef struct op_limit {
    sql_operator base;
    sql_operator *input;
    uint64_t limit;
    uint64_t offset;
    uint64_t seen;
    uint64_t emitted;
} op_limit;

static int op_limit_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_limit *l = (op_limit *)op;
    *out = NULL;
    while (l->emitted < l->limit) {
        sql_chunk *in = NULL;
        int rc = sql__op_next(l->input, &in, err);
        if (rc != 0 || in == NULL) return rc;
        uint64_t start = 0;
        if (l->seen < l->offset) {
            uint64_t skip = l->offset - l->seen;
            start = skip < in->rows ? skip : in->rows;
        }
        l->seen += in->rows;
        uint64_t avail = in->rows - start;
        uint64_t take = l->limit - l->emitted;
        if (take > avail) take = avail;
        if (take == 0) {
            sql__chunk_free(in);
            continue;
        }
        if (start == 0 && take == in->rows) {
            l->emitted += take;
            *out = in;
            return 0;
        }
        sql_chunk *c = NULL;
        rc = sql__chunk_create(in->column_count, (uint32_t)take, &c, err);
        for (uint32_t i = 0; i < in->column_count && rc == 0; i++) {
            ty_column *col;
            rc = ty_column_create(in->columns[i]->type, op->q->ctx.tracker, &col, err);
            if (rc == 0)
                rc = ty_column_append_rows_from(col, in->columns[i], (uint32_t)start,
                                                (uint32_t)take, err);
            if (rc == 0) sql__chunk_set(c, i, col, true);
            else ty_column_destroy(col);
        }
        sql__chunk_free(in);
        if (rc != 0) {
            sql__chunk_free(c);
            return rc;
        }
        l->emitted += take;
        *out = c;
        return 0;
    }
    return 0;
}

static void op_limit_destroy(sql_operator *op) {
    op_limit *l = (op_limit *)op;
    sql__op_destroy(l->input);
    free(l);
}

static const sql_operator_vt op_limit_vt = {op_limit_next, op_limit_destroy};

uint64_t sql__op_limit_seen(const sql_operator *op) { return ((const op_limit *)op)->seen; }

int sql__op_limit(sql_query *q, sql_operator *input, uint64_t limit, uint64_t offset, sql_operator **out,
                  mu_err *err) {
    op_limit *l = calloc(1, sizeof(*l));
    if (l == NULL) {
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a limit");
    }
    l->input = input;
    l->limit = limit;
    l->offset = offset;
    int rc = sql__op_init(&l->base, q, &op_limit_vt, input->column_count, err);
    if (rc != 0) {
        op_limit_destroy(&l->base);
        return rc;
    }
    op_copy_schema(&l->base, input);
    *out = &l->base;
    return 0;
}

/* ---- truncate columns ----------------------------------------------------------- */

typedef struct op_truncate {
    sql_operator base;
    sql_operator *input;
} op_truncate;

static int op_truncate_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_truncate *t = (op_truncate *)op;
    *out = NULL;
    sql_chunk *in = NULL;
    int rc = sql__op_next(t->input, &in, err);
    if (rc != 0 || in == NULL) return rc;
    for (uint32_t i = op->column_count; i < in->column_count; i++) {
        ty_column_destroy(in->owned[i]);
        in->owned[i] = NULL;
    }
    in->column_count = op->column_count;
    *out = in;
    return 0;
}

static void op_truncate_destroy(sql_operator *op) {
    op_truncate *t = (op_truncate *)op;
    sql__op_destroy(t->input);
    free(t);
}

static const sql_operator_vt op_truncate_vt = {op_truncate_next, op_truncate_destroy};

int sql__op_truncate_columns(sql_query *q, sql_operator *input, uint32_t count, sql_operator **out,
                             mu_err *err) {
    if (count == input->column_count) {
        *out = input;
        return 0;
    }
    op_truncate *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory");
    }
    t->input = input;
    int rc = sql__op_init(&t->base, q, &op_truncate_vt, count, err);
    if (rc != 0) {
        op_truncate_destroy(&t->base);
        return rc;
    }
    op_copy_schema(&t->base, input);
    *out = &t->base;
    return 0;
}

/* ---- union ------------------------------------------------------------------------ */

typedef struct op_union {
    sql_operator base;
    sql_operator **inputs;
    uint32_t count;
    uint32_t current;
} op_union;

static int op_union_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_union *u = (op_union *)op;
    *out = NULL;
    while (u->current < u->count) {
        int rc = sql__op_next(u->inputs[u->current], out, err);
        if (rc != 0) return rc;
        if (*out) return 0;
        u->current++;
    }
    return 0;
}

static void op_union_destroy(sql_operator *op) {
    op_union *u = (op_union *)op;
    for (uint32_t i = 0; i < u->count; i++) sql__op_destroy(u->inputs[i]);
    free(u->inputs);
    free(u);
}

static const sql_operator_vt op_union_vt = {op_union_next, op_union_destroy};

int sql__op_union(sql_query *q, sql_operator **inputs_take, uint32_t count, sql_operator **out,
                  mu_err *err) {
    op_union *u = calloc(1, sizeof(*u));
    sql_operator **inputs = calloc(count, sizeof(*inputs));
    if (u == NULL || inputs == NULL) {
        free(u);
        free(inputs);
        for (uint32_t i = 0; i < count; i++) sql__op_destroy(inputs_take[i]);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a union");
    }
    memcpy(inputs, inputs_take, count * sizeof(*inputs));
    u->inputs = inputs;
    u->count = count;
    int rc = sql__op_init(&u->base, q, &op_union_vt, inputs[0]->column_count, err);
    if (rc != 0) {
        op_union_destroy(&u->base);
        return rc;
    }
    op_copy_schema(&u->base, inputs[0]);
    *out = &u->base;
    return 0;
}
