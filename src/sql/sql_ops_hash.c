/* sql_ops_hash.c: the operators built on the row-key map: hash aggregation
 * (GROUP BY, WITH TOTALS, the no-key single-state path), DISTINCT, LIMIT BY
 * and the hash join. Aggregation and the join's build side hold their
 * state in memory; spilling comes with the query governor.
 */
#include "sql/query_int.h"
#include "sql/sql_keys.h"

#include <stdlib.h>
#include <string.h>

/* ---- aggregate ------------------------------------------------------------ */

#define AGG_STATES_PER_BLOCK 4096u

typedef struct op_agg {
    sql_operator base;
    sql_operator *input;
    exec_expr **keys;
    uint32_t key_count;
    sql_agg_spec *aggs;
    uint32_t agg_count;
    bool with_totals;
    size_t row_bytes;          /* all aggregate states of one group */
    size_t *offsets;           /* state offset of aggregate j in a group row */
    sql_keymap map;
    ty_column **key_columns;   /* one row per group */
    uint8_t **blocks;          /* group states, AGG_STATES_PER_BLOCK groups each */
    uint32_t block_count;
    uint32_t group_count;
    uint8_t *totals;           /* WITH TOTALS: one more state row */
    bool built;
    bool emitted_single;
    uint32_t emit_pos;
} op_agg;

static uint8_t *agg_group_states(op_agg *a, uint32_t group) {
    return a->blocks[group / AGG_STATES_PER_BLOCK] + (size_t)(group % AGG_STATES_PER_BLOCK) * a->row_bytes;
}

static void agg_init_row(op_agg *a, uint8_t *row) {
    for (uint32_t j = 0; j < a->agg_count; j++) {
        const exec_agg *g = &a->aggs[j].agg;
        g->init(g, row + a->offsets[j]);
    }
}

static int agg_new_group(op_agg *a, mu_err *err) {
    uint32_t g = a->group_count;
    if (g / AGG_STATES_PER_BLOCK >= a->block_count) {
        uint8_t **grown = realloc(a->blocks, (a->block_count + 1) * sizeof(*grown));
        if (grown == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for groups");
        a->blocks = grown;
        uint8_t *block = aligned_alloc(16, AGG_STATES_PER_BLOCK * a->row_bytes);
        if (block == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for aggregate states");
        a->blocks[a->block_count++] = block;
    }
    agg_init_row(a, agg_group_states(a, g));
    a->group_count++;
    return 0;
}

static int agg_eval_args(op_agg *a, sql_chunk *in, exec_value *vals, exec_arg *args,
                         uint32_t j, mu_err *err) {
    for (uint32_t k = 0; k < a->aggs[j].arg_count; k++) {
        int rc = exec_eval(a->aggs[j].args[k], &a->base.q->ctx, in->columns, in->rows, &vals[k],
                           err);
        if (rc != 0) return rc;
        args[k].column = vals[k].column;
        args[k].is_const = vals[k].is_const;
    }
    return 0;
}

static int agg_consume(op_agg *a, sql_chunk *in, mu_err *err) {
    int rc = 0;
    uint32_t rows = in->rows;
    void **states = NULL;
    const ty_column **key_cols = NULL;
    ty_column **key_full = NULL;
    mu_buf key;
    mu_buf_init(&key, 0);
    uint32_t *group_of = NULL;
    if (a->key_count > 0) {
        key_cols = calloc(a->key_count, sizeof(*key_cols));
        key_full = calloc(a->key_count, sizeof(*key_full));
        group_of = malloc(rows * sizeof(*group_of));
        if (!key_cols || !key_full || !group_of) {
            rc = MU_ERR(err, MU_ENOMEM, "out of memory aggregating");
            goto done;
        }
        for (uint32_t k = 0; k < a->key_count && rc == 0; k++) {
            rc = exec_eval_full(a->keys[k], &a->base.q->ctx, in->columns, rows, &key_full[k], err);
            key_cols[k] = key_full[k];
        }
        for (uint32_t r = 0; r < rows && rc == 0; r++) {
            key.length_bytes = 0;
            rc = sql__key_encode(key_cols, a->key_count, r, &key, err);
            uint32_t g;
            bool inserted;
            if (rc == 0)
                rc = sql__keymap_find_or_insert(&a->map, key.data, key.length_bytes, &g, &inserted,
                                                err);
            if (rc == 0 && inserted) {
                rc = agg_new_group(a, err);
                for (uint32_t k = 0; k < a->key_count && rc == 0; k++)
                    rc = ty_column_append_from(a->key_columns[k], key_cols[k], r, err);
            }
            group_of[r] = g;
        }
        if (rc != 0) goto done;
    }
    states = malloc((rows ? rows : 1) * sizeof(*states));
    if (states == NULL) {
        rc = MU_ERR(err, MU_ENOMEM, "out of memory aggregating");
        goto done;
    }
    for (uint32_t j = 0; j < a->agg_count && rc == 0; j++) {
        const exec_agg *g = &a->aggs[j].agg;
        exec_value vals[16];
        exec_arg args[16];
        memset(vals, 0, sizeof(vals));
        if (a->aggs[j].arg_count > 16) {
            rc = MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "aggregate %s: more than 16 arguments",
                        a->aggs[j].name);
            break;
        }
        rc = agg_eval_args(a, in, vals, args, j, err);
        if (rc == 0) {
            if (a->key_count == 0) {
                rc = g->update_all(g, agg_group_states(a, 0) + a->offsets[j], args, rows, err);
            } else {
                for (uint32_t r = 0; r < rows; r++)
                    states[r] = agg_group_states(a, group_of[r]) + a->offsets[j];
                rc = g->update(g, states, args, rows, err);
            }
        }
        if (rc == 0 && a->totals)
            rc = g->update_all(g, a->totals + a->offsets[j], args, rows, err);
        for (uint32_t k = 0; k < a->aggs[j].arg_count; k++) exec_value_release(&vals[k]);
    }
done:
    if (key_full)
        for (uint32_t k = 0; k < a->key_count; k++) ty_column_destroy(key_full[k]);
    free(key_full);
    free(key_cols);
    free(group_of);
    free(states);
    mu_buf_deinit(&key);
    return rc;
}

static int agg_finalize_rows(op_agg *a, uint32_t first, uint32_t count, uint8_t *single,
                             sql_chunk **out, mu_err *err) {
    sql_chunk *c;
    int rc = sql__chunk_create(a->base.column_count, count, &c, err);
    if (rc != 0) return rc;
    for (uint32_t k = 0; k < a->key_count && rc == 0; k++) {
        ty_column *col;
        rc = ty_column_create(a->base.types[k], a->base.q->ctx.tracker, &col, err);
        if (rc == 0 && single == NULL)
            rc = ty_column_append_rows_from(col, a->key_columns[k], first, count, err);
        else if (rc == 0)
            rc = ty_column_append_default(col, err); /* totals: keys at their defaults */
        if (rc == 0) sql__chunk_set(c, k, col, true);
        else ty_column_destroy(col);
    }
    for (uint32_t j = 0; j < a->agg_count && rc == 0; j++) {
        const exec_agg *g = &a->aggs[j].agg;
        ty_column *col;
        rc = ty_column_create(g->result_type, a->base.q->ctx.tracker, &col, err);
        for (uint32_t r = 0; r < count && rc == 0; r++) {
            uint8_t *row = single ? single : agg_group_states(a, first + r);
            rc = g->finalize(g, row + a->offsets[j], col, err);
        }
        if (rc == 0) sql__chunk_set(c, a->key_count + j, col, true);
        else ty_column_destroy(col);
    }
    if (rc != 0) {
        sql__chunk_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

static int op_agg_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_agg *a = (op_agg *)op;
    *out = NULL;
    if (!a->built) {
        for (;;) {
            sql_chunk *in = NULL;
            int rc = sql__op_next(a->input, &in, err);
            if (rc != 0) return rc;
            if (in == NULL) break;
            rc = agg_consume(a, in, err);
            sql__chunk_free(in);
            if (rc != 0) return rc;
        }
        a->built = true;
    }
    if (a->key_count == 0) {
        if (a->emitted_single) return 0;
        a->emitted_single = true;
        return agg_finalize_rows(a, 0, 1, NULL, out, err);
    }
    if (a->emit_pos >= a->group_count) return 0;
    uint32_t n = a->group_count - a->emit_pos;
    if (n > SQL_CHUNK_ROWS) n = SQL_CHUNK_ROWS;
    int rc = agg_finalize_rows(a, a->emit_pos, n, NULL, out, err);
    if (rc == 0) a->emit_pos += n;
    return rc;
}

int sql__op_aggregate_totals(sql_operator *aggregate, sql_chunk **out, mu_err *err) {
    op_agg *a = (op_agg *)aggregate;
    *out = NULL;
    if (!a->with_totals) return 0;
    if (a->key_count == 0) /* totals of the single row are the row itself */
        return agg_finalize_rows(a, 0, 1, agg_group_states(a, 0), out, err);
    if (a->totals == NULL) return 0;
    return agg_finalize_rows(a, 0, 1, a->totals, out, err);
}

static void agg_destroy_row(op_agg *a, uint8_t *row) {
    for (uint32_t j = 0; j < a->agg_count; j++) {
        const exec_agg *g = &a->aggs[j].agg;
        if (g->destroy) g->destroy(g, row + a->offsets[j]);
    }
}

static void op_agg_destroy(sql_operator *op) {
    op_agg *a = (op_agg *)op;
    sql__op_destroy(a->input);
    for (uint32_t g = 0; g < a->group_count; g++) agg_destroy_row(a, agg_group_states(a, g));
    for (uint32_t b = 0; b < a->block_count; b++) free(a->blocks[b]);
    free(a->blocks);
    if (a->totals) {
        agg_destroy_row(a, a->totals);
        free(a->totals);
    }
    if (a->key_columns)
        for (uint32_t k = 0; k < a->key_count; k++) ty_column_destroy(a->key_columns[k]);
    free(a->key_columns);
    free(a->offsets);
    sql__keymap_deinit(&a->map);
    free(a);
}

static const sql_operator_vt op_agg_vt = {op_agg_next, op_agg_destroy};

int sql__op_aggregate(sql_query *q, sql_operator *input, exec_expr **keys, const char *const *key_names,
                      uint32_t key_count, sql_agg_spec *aggs, uint32_t agg_count,
                      bool with_totals, sql_operator **out, mu_err *err) {
    op_agg *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory for an aggregation");
    }
    a->input = input;
    a->keys = keys;
    a->key_count = key_count;
    a->aggs = aggs;
    a->agg_count = agg_count;
    a->with_totals = with_totals;
    int rc = sql__op_init(&a->base, q, &op_agg_vt, key_count + agg_count, err);
    if (rc == 0) rc = sql__keymap_init(&a->map, err);
    if (rc != 0) {
        op_agg_destroy(&a->base);
        return rc;
    }
    a->offsets = calloc(agg_count ? agg_count : 1, sizeof(*a->offsets));
    a->key_columns = calloc(key_count ? key_count : 1, sizeof(*a->key_columns));
    if (a->offsets == NULL || a->key_columns == NULL) rc = MU_ERR(err, MU_ENOMEM, "out of memory");
    size_t off = 0;
    for (uint32_t j = 0; j < agg_count && rc == 0; j++) {
        a->offsets[j] = off;
        off += (aggs[j].agg.state_bytes + 15u) & ~(size_t)15u;
        a->base.types[key_count + j] = aggs[j].agg.result_type;
        a->base.names[key_count + j] = aggs[j].name;
    }
    a->row_bytes = off ? off : 16;
    for (uint32_t k = 0; k < key_count && rc == 0; k++) {
        /* A LowCardinality column as the key stays LowCardinality in the
         * result, as in ClickHouse (its values come in plain). */
        const ty_type *kt = keys[k]->type, *own = keys[k]->input_type;
        if (keys[k]->kind == EXEC_EXPR_INPUT && own != NULL &&
            own->kind == TY_LOW_CARDINALITY && ty_type_equal(own->child, kt))
            kt = own;
        a->base.types[k] = kt;
        a->base.names[k] = key_names[k];
        rc = ty_column_create(kt, q->ctx.tracker, &a->key_columns[k], err);
    }
    if (rc == 0 && key_count == 0) rc = agg_new_group(a, err);
    if (rc == 0 && with_totals && key_count > 0) {
        a->totals = aligned_alloc(16, a->row_bytes);
        if (a->totals == NULL) rc = MU_ERR(err, MU_ENOMEM, "out of memory");
        else agg_init_row(a, a->totals);
    }
    if (rc != 0) {
        op_agg_destroy(&a->base);
        return rc;
    }
    *out = &a->base;
    return 0;
}

/* ---- DISTINCT and LIMIT BY ---------------------------------------------------- */

typedef struct op_distinct {
    sql_operator base;
    sql_operator *input;
    uint32_t key_count;      /* leading columns that form the key */
    uint64_t limit;          /* LIMIT BY: rows per key kept (DISTINCT: 1) */
    uint64_t offset;
    uint64_t *seen;          /* rows seen per key */
    uint32_t seen_capacity;
    sql_keymap map;
    const uint32_t *columns; /* LIMIT BY key columns (NULL: the first key_count) */
    uint32_t *selection;
} op_distinct;

static int op_distinct_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_distinct *d = (op_distinct *)op;
    *out = NULL;
    mu_buf key;
    mu_buf_init(&key, 0);
    const ty_column *cols[64];
    for (;;) {
        sql_chunk *in = NULL;
        int rc = sql__op_next(d->input, &in, err);
        if (rc != 0 || in == NULL) {
            mu_buf_deinit(&key);
            return rc;
        }
        for (uint32_t k = 0; k < d->key_count; k++)
            cols[k] = in->columns[d->columns ? d->columns[k] : k];
        uint32_t n = 0;
        for (uint32_t r = 0; r < in->rows && rc == 0; r++) {
            key.length_bytes = 0;
            rc = sql__key_encode(cols, d->key_count, r, &key, err);
            uint32_t g;
            bool inserted;
            if (rc == 0)
                rc = sql__keymap_find_or_insert(&d->map, key.data, key.length_bytes, &g,
                                                &inserted, err);
            if (rc != 0) break;
            if (g >= d->seen_capacity) {
                uint32_t cap = d->seen_capacity ? d->seen_capacity * 2 : 1024;
                while (cap <= g) cap *= 2;
                uint64_t *grown = realloc(d->seen, cap * sizeof(*grown));
                if (grown == NULL) {
                    rc = MU_ERR(err, MU_ENOMEM, "out of memory");
                    break;
                }
                memset(grown + d->seen_capacity, 0, (cap - d->seen_capacity) * sizeof(*grown));
                d->seen = grown;
                d->seen_capacity = cap;
            }
            uint64_t seen = d->seen[g]++;
            if (seen >= d->offset && seen < d->offset + d->limit) d->selection[n++] = r;
        }
        if (rc != 0) {
            sql__chunk_free(in);
            mu_buf_deinit(&key);
            return rc;
        }
        if (n == 0) {
            sql__chunk_free(in);
            continue;
        }
        if (n == in->rows) {
            *out = in;
            mu_buf_deinit(&key);
            return 0;
        }
        sql_chunk *c;
        rc = sql__chunk_create(in->column_count, n, &c, err);
        for (uint32_t i = 0; i < in->column_count && rc == 0; i++) {
            ty_column *col;
            rc = ty_column_create(in->columns[i]->type, op->q->ctx.tracker, &col, err);
            if (rc == 0) rc = ty_column_append_gather(col, in->columns[i], d->selection, n, err);
            if (rc == 0) sql__chunk_set(c, i, col, true);
            else ty_column_destroy(col);
        }
        sql__chunk_free(in);
        mu_buf_deinit(&key);
        if (rc != 0) {
            sql__chunk_free(c);
            return rc;
        }
        *out = c;
        return 0;
    }
}

static void op_distinct_destroy(sql_operator *op) {
    op_distinct *d = (op_distinct *)op;
    sql__op_destroy(d->input);
    sql__keymap_deinit(&d->map);
    free(d->seen);
    free(d->selection);
    free(d);
}

static const sql_operator_vt op_distinct_vt = {op_distinct_next, op_distinct_destroy};

static int distinct_create(sql_query *q, sql_operator *input, uint32_t key_count,
                           const uint32_t *columns, uint64_t limit, uint64_t offset,
                           sql_operator **out, mu_err *err) {
    if (key_count > 64) {
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOT_SUPPORTED, "DISTINCT / LIMIT BY over more than 64 columns is "
                      "not supported yet");
    }
    op_distinct *d = calloc(1, sizeof(*d));
    uint32_t *sel = malloc(SQL_CHUNK_ROWS * sizeof(*sel));
    if (d == NULL || sel == NULL) {
        free(d);
        free(sel);
        sql__op_destroy(input);
        return MU_ERR(err, MU_ENOMEM, "out of memory");
    }
    d->input = input;
    d->selection = sel;
    d->key_count = key_count;
    d->limit = limit;
    d->offset = offset;
    if (columns) {
        uint32_t *copy = mu_arena_calloc(q->arena, key_count ? key_count : 1, sizeof(*copy), err);
        if (copy == NULL) {
            op_distinct_destroy(&d->base);
            return err->code;
        }
        memcpy(copy, columns, key_count * sizeof(*copy));
        d->columns = copy;
    }
    int rc = sql__keymap_init(&d->map, err);
    if (rc == 0) rc = sql__op_init(&d->base, q, &op_distinct_vt, input->column_count, err);
    if (rc != 0) {
        op_distinct_destroy(&d->base);
        return rc;
    }
    for (uint32_t i = 0; i < input->column_count; i++) {
        d->base.types[i] = input->types[i];
        d->base.names[i] = input->names[i];
        d->base.qualifiers[i] = input->qualifiers[i];
        d->base.no_star[i] = input->no_star[i];
    }
    *out = &d->base;
    return 0;
}

int sql__op_distinct(sql_query *q, sql_operator *input, uint32_t count, sql_operator **out, mu_err *err) {
    return distinct_create(q, input, count, NULL, 1, 0, out, err);
}

int sql__op_limit_by(sql_query *q, sql_operator *input, const uint32_t *columns, uint32_t count,
                     uint64_t limit, uint64_t offset, sql_operator **out, mu_err *err) {
    return distinct_create(q, input, count, columns, limit, offset, out, err);
}

/* ---- hash join ---------------------------------------------------------------- */

typedef struct op_join {
    sql_operator base;
    sql_operator *left;
    sql_operator *right;
    sql_join_type type;
    uint32_t *left_keys;
    uint32_t *right_keys;
    uint32_t key_count;
    bool built;
    ty_column **rcols;        /* the right side, whole */
    uint32_t right_rows;
    sql_keymap map;           /* right keys */
    uint32_t *first;          /* key -> first right row (chain head) */
    uint32_t *next_row;       /* right row -> next right row with the same key */
    uint8_t *matched;         /* right rows matched (RIGHT/FULL) */
    bool left_done;
    bool tail_done;
    bool coalesce_keys;       /* USING: a missing left row takes the right key */
    sql_join_strictness strictness;
    bool use_nulls;
} op_join;

static int join_build(op_join *j, mu_err *err) {
    int rc = sql__op_drain(j->right, &j->rcols, &j->right_rows, err);
    if (rc != 0) return rc;
    uint32_t n = j->right_rows;
    j->next_row = malloc((n ? n : 1) * sizeof(*j->next_row));
    j->matched = calloc(n ? n : 1, 1);
    if (!j->next_row || !j->matched) return MU_ERR(err, MU_ENOMEM, "out of memory for a join");
    if (j->type == SQL__JOIN_CROSS) return 0;
    rc = sql__keymap_init(&j->map, err);
    if (rc != 0) return rc;
    const ty_column *cols[64];
    for (uint32_t k = 0; k < j->key_count; k++) cols[k] = j->rcols[j->right_keys[k]];
    mu_buf key;
    mu_buf_init(&key, 0);
    uint32_t first_capacity = 0;
    for (uint32_t r = n; r-- > 0 && rc == 0;) { /* reverse, so chains run in row order */
        j->next_row[r] = UINT32_MAX;
        if (sql__key_has_null(cols, j->key_count, r)) continue;
        key.length_bytes = 0;
        rc = sql__key_encode(cols, j->key_count, r, &key, err);
        uint32_t g;
        bool inserted;
        if (rc == 0)
            rc = sql__keymap_find_or_insert(&j->map, key.data, key.length_bytes, &g, &inserted,
                                            err);
        if (rc != 0) break;
        if (g >= first_capacity) {
            uint32_t cap = first_capacity ? first_capacity * 2 : 1024;
            while (cap <= g) cap *= 2;
            uint32_t *grown = realloc(j->first, cap * sizeof(*grown));
            if (grown == NULL) {
                rc = MU_ERR(err, MU_ENOMEM, "out of memory for a join");
                break;
            }
            j->first = grown;
            first_capacity = cap;
        }
        j->next_row[r] = inserted ? UINT32_MAX : j->first[g];
        j->first[g] = r;
    }
    mu_buf_deinit(&key);
    return rc;
}

/* Appends pairs (left row l, right row r or UINT32_MAX = defaults). */
static int join_emit(op_join *j, const sql_chunk *in, const uint32_t *lrows,
                     const uint32_t *rrows, uint32_t n, sql_chunk **out, mu_err *err) {
    uint32_t lc = j->left->column_count, rcn = j->right->column_count;
    sql_chunk *c;
    int rc = sql__chunk_create(lc + rcn, n, &c, err);
    uint8_t *valid = malloc((n + 7) / 8 + 1);
    if (valid == NULL) rc = MU_ERR(err, MU_ENOMEM, "out of memory for a join");
    for (uint32_t i = 0; i < lc && rc == 0; i++) {
        ty_column *col;
        rc = ty_column_create(j->left->types[i], j->base.q->ctx.tracker, &col, err);
        const ty_column *right_key = NULL;
        for (uint32_t k = 0; k < j->key_count && j->coalesce_keys; k++)
            if (j->left_keys[k] == i && ty_type_equal(j->left->types[i], j->right->types[j->right_keys[k]]))
                right_key = j->rcols[j->right_keys[k]];
        for (uint32_t k = 0; k < n && rc == 0; k++) {
            if (lrows[k] == UINT32_MAX || in == NULL) {
                if (right_key && rrows[k] != UINT32_MAX)
                    rc = ty_column_append_from(col, right_key, rrows[k], err);
                else
                    rc = ty_column_append_default(col, err);
            } else {
                rc = ty_column_append_from(col, in->columns[i], lrows[k], err);
            }
        }
        if (rc == 0 && !ty_type_equal(j->base.types[i], j->left->types[i])) {
            memset(valid, 0, (n + 7) / 8 + 1);
            for (uint32_t k = 0; k < n; k++)
                if (lrows[k] != UINT32_MAX && in != NULL) valid[k >> 3] |= (uint8_t)(1u << (k & 7));
                else if (right_key && rrows[k] != UINT32_MAX) valid[k >> 3] |= (uint8_t)(1u << (k & 7));
            rc = ty_column_make_nullable(col, j->base.types[i], valid, err);
        }
        if (rc == 0) sql__chunk_set(c, i, col, true);
        else ty_column_destroy(col);
    }
    for (uint32_t i = 0; i < rcn && rc == 0; i++) {
        ty_column *col;
        rc = ty_column_create(j->right->types[i], j->base.q->ctx.tracker, &col, err);
        for (uint32_t k = 0; k < n && rc == 0; k++) {
            if (rrows[k] == UINT32_MAX) rc = ty_column_append_default(col, err);
            else rc = ty_column_append_from(col, j->rcols[i], rrows[k], err);
        }
        if (rc == 0 && !ty_type_equal(j->base.types[lc + i], j->right->types[i])) {
            memset(valid, 0, (n + 7) / 8 + 1);
            for (uint32_t k = 0; k < n; k++)
                if (rrows[k] != UINT32_MAX) valid[k >> 3] |= (uint8_t)(1u << (k & 7));
            rc = ty_column_make_nullable(col, j->base.types[lc + i], valid, err);
        }
        if (rc == 0) sql__chunk_set(c, lc + i, col, true);
        else ty_column_destroy(col);
    }
    free(valid);
    if (rc != 0) {
        sql__chunk_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

typedef struct join_pairs {
    uint32_t *l;
    uint32_t *r;
    uint32_t count;
    uint32_t capacity;
} join_pairs;

static int join_pairs_push(join_pairs *p, uint32_t l, uint32_t r, mu_err *err) {
    if (p->count == p->capacity) {
        uint32_t cap = p->capacity ? p->capacity * 2 : 1024;
        uint32_t *nl = realloc(p->l, cap * sizeof(*nl));
        if (nl == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a join");
        p->l = nl;
        uint32_t *nr = realloc(p->r, cap * sizeof(*nr));
        if (nr == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a join");
        p->r = nr;
        p->capacity = cap;
    }
    p->l[p->count] = l;
    p->r[p->count++] = r;
    return 0;
}

static int op_join_next(sql_operator *op, sql_chunk **out, mu_err *err) {
    op_join *j = (op_join *)op;
    *out = NULL;
    int rc = 0;
    if (!j->built) {
        rc = join_build(j, err);
        if (rc != 0) return rc;
        j->built = true;
    }
    join_pairs pairs = {0};
    mu_buf key;
    mu_buf_init(&key, 0);
    while (!j->left_done) {
        sql_chunk *in = NULL;
        rc = sql__op_next(j->left, &in, err);
        if (rc != 0) break;
        if (in == NULL) {
            j->left_done = true;
            break;
        }
        pairs.count = 0;
        const ty_column *cols[64];
        for (uint32_t k = 0; k < j->key_count; k++) cols[k] = in->columns[j->left_keys[k]];
        for (uint32_t l = 0; l < in->rows && rc == 0; l++) {
            if (j->type == SQL__JOIN_CROSS) {
                for (uint32_t r = 0; r < j->right_rows && rc == 0; r++)
                    rc = join_pairs_push(&pairs, l, r, err);
                continue;
            }
            uint32_t g = UINT32_MAX;
            if (!sql__key_has_null(cols, j->key_count, l)) {
                key.length_bytes = 0;
                rc = sql__key_encode(cols, j->key_count, l, &key, err);
                if (rc == 0) sql__keymap_find(&j->map, key.data, key.length_bytes, &g);
            }
            if (rc != 0) break;
            if (g == UINT32_MAX) {
                if (j->type == SQL__JOIN_LEFT || j->type == SQL__JOIN_FULL ||
                    j->strictness == SQL__JOIN_ANTI)
                    rc = join_pairs_push(&pairs, l, UINT32_MAX, err);
                continue;
            }
            if (j->strictness == SQL__JOIN_ANTI) continue;
            if (j->strictness != SQL__JOIN_ALL) { /* ANY, SEMI: the first match */
                j->matched[j->first[g]] = 1;
                rc = join_pairs_push(&pairs, l, j->first[g], err);
                continue;
            }
            for (uint32_t r = j->first[g]; r != UINT32_MAX && rc == 0; r = j->next_row[r]) {
                j->matched[r] = 1;
                rc = join_pairs_push(&pairs, l, r, err);
            }
        }
        if (rc == 0 && pairs.count > 0) rc = join_emit(j, in, pairs.l, pairs.r, pairs.count, out, err);
        sql__chunk_free(in);
        if (rc != 0 || *out) break;
    }
    if (rc == 0 && *out == NULL && j->left_done && !j->tail_done) {
        j->tail_done = true;
        if (j->type == SQL__JOIN_RIGHT || j->type == SQL__JOIN_FULL) {
            pairs.count = 0;
            for (uint32_t r = 0; r < j->right_rows && rc == 0; r++)
                if (!j->matched[r]) rc = join_pairs_push(&pairs, UINT32_MAX, r, err);
            if (rc == 0 && pairs.count > 0)
                rc = join_emit(j, NULL, pairs.l, pairs.r, pairs.count, out, err);
        }
    }
    free(pairs.l);
    free(pairs.r);
    mu_buf_deinit(&key);
    return rc;
}

static void op_join_destroy(sql_operator *op) {
    op_join *j = (op_join *)op;
    sql__op_destroy(j->left);
    if (j->rcols)
        for (uint32_t i = 0; i < j->right->column_count; i++) ty_column_destroy(j->rcols[i]);
    free(j->rcols);
    sql__op_destroy(j->right);
    sql__keymap_deinit(&j->map);
    free(j->first);
    free(j->next_row);
    free(j->matched);
    free(j);
}

static const sql_operator_vt op_join_vt = {op_join_next, op_join_destroy};

int sql__op_join(sql_query *q, sql_operator *left, sql_operator *right, sql_join_type type,
                 sql_join_strictness strictness, bool use_nulls, const uint32_t *left_keys,
                 const uint32_t *right_keys, uint32_t key_count, bool coalesce_keys,
                 sql_operator **out, mu_err *err) {
    op_join *j = calloc(1, sizeof(*j));
    if (j == NULL || key_count > 64) {
        free(j);
        sql__op_destroy(left);
        sql__op_destroy(right);
        return key_count > 64 ? MU_ERR(err, MU_ENOT_SUPPORTED, "joins on more than 64 keys are "
                                       "not supported yet")
                              : MU_ERR(err, MU_ENOMEM, "out of memory for a join");
    }
    j->left = left;
    j->right = right;
    j->type = type;
    j->key_count = key_count;
    j->coalesce_keys = coalesce_keys;
    j->strictness = strictness;
    j->use_nulls = use_nulls;
    j->left_keys = mu_arena_calloc(q->arena, key_count + 1, sizeof(uint32_t), err);
    j->right_keys = mu_arena_calloc(q->arena, key_count + 1, sizeof(uint32_t), err);
    int rc = (j->left_keys && j->right_keys) ? 0 : err->code;
    if (rc == 0) {
        if (key_count > 0) {
            memcpy(j->left_keys, left_keys, key_count * sizeof(uint32_t));
            memcpy(j->right_keys, right_keys, key_count * sizeof(uint32_t));
        }
        rc = sql__op_init(&j->base, q, &op_join_vt, left->column_count + right->column_count,
                          err);
    }
    if (rc != 0) {
        op_join_destroy(&j->base);
        return rc;
    }
    bool left_may_miss = use_nulls && (type == SQL__JOIN_RIGHT || type == SQL__JOIN_FULL);
    bool right_may_miss = use_nulls && (type == SQL__JOIN_LEFT || type == SQL__JOIN_FULL ||
                                        strictness == SQL__JOIN_ANTI);
    for (uint32_t i = 0; i < left->column_count && rc == 0; i++) {
        j->base.types[i] = left->types[i];
        if (left_may_miss) rc = exec_type_make_nullable(left->types[i], q->arena, &j->base.types[i], err);
        j->base.names[i] = left->names[i];
        j->base.qualifiers[i] = left->qualifiers[i];
        j->base.no_star[i] = left->no_star[i];
    }
    for (uint32_t i = 0; i < right->column_count && rc == 0; i++) {
        j->base.types[left->column_count + i] = right->types[i];
        if (right_may_miss)
            rc = exec_type_make_nullable(right->types[i], q->arena, &j->base.types[left->column_count + i], err);
        j->base.names[left->column_count + i] = right->names[i];
        j->base.qualifiers[left->column_count + i] = right->qualifiers[i];
        j->base.no_star[left->column_count + i] = right->no_star[i];
    }
    if (rc != 0) {
        op_join_destroy(&j->base);
        return rc;
    }
    *out = &j->base;
    return 0;
}
