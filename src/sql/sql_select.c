/* sql_select.c: plans a SELECT into operators, in ClickHouse's order of
 * clauses: FROM (tables, table functions, subqueries, joins, ARRAY JOIN)
 * -> PREWHERE/WHERE -> GROUP BY / aggregates (WITH TOTALS) -> HAVING ->
 * SELECT list (+ hidden ORDER BY / LIMIT BY columns) -> DISTINCT ->
 * ORDER BY -> LIMIT BY -> LIMIT/OFFSET; UNION ALL concatenates SELECTs
 * after converting their columns to common types.
 */
#include "sql/query_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SELECT_HIDDEN_PREFIX "\x01"

static int select_name(sql_query *q, const sql_node *n, const char **out, mu_err *err) {
    if (n->alias.ptr) {
        *out = mu_arena_strndup(q->arena, n->alias.ptr, n->alias.length, err);
        return *out ? 0 : err->code;
    }
    mu_buf b;
    mu_buf_init(&b, 0);
    int rc = sql__column_name(n, &b, err);
    if (rc == 0) {
        *out = mu_arena_strndup(q->arena, b.data ? (const char *)b.data : "", b.length_bytes, err);
        if (*out == NULL) rc = err->code;
    }
    mu_buf_deinit(&b);
    return rc;
}

static char *select_strdup(sql_query *q, sql_str s, mu_err *err) {
    return mu_arena_strndup(q->arena, s.ptr ? s.ptr : "", s.length, err);
}

/* Sets every output column's qualifier. */
static void select_qualify(sql_operator *op, const char *qualifier) {
    for (uint32_t i = 0; i < op->column_count; i++) op->qualifiers[i] = qualifier;
}

/* ---- FROM ------------------------------------------------------------------- */

static int select_plan_from(sql_query *q, const sql_node *from, sql_operator **out, mu_err *err);
static int select_extend_ex(sql_query *q, sql_operator **op, exec_expr **extra,
                            uint32_t extra_count, const char *const *extra_names,
                            bool extra_no_star, mu_err *err);

static int select_plan_table(sql_query *q, const sql_node *t, sql_operator **out, mu_err *err) {
    if (t->table.database.ptr == NULL) {
        for (uint32_t i = q->cte_count; i-- > 0;) {
            const sql_node *c = q->ctes[i];
            if (c->cte.name.length != t->table.name.length ||
                memcmp(c->cte.name.ptr, t->table.name.ptr, c->cte.name.length) != 0)
                continue;
            if (q->subquery_depth > 32)
                return MU_ERR(err, MU_ETOO_DEEP, "subqueries nested deeper than 32 levels");
            q->subquery_depth++;
            int rc = sql__plan_query(q, c->cte.query, out, err);
            q->subquery_depth--;
            if (rc == 0)
                select_qualify(*out, t->alias.ptr ? select_strdup(q, t->alias, err)
                                                  : select_strdup(q, t->table.name, err));
            return rc;
        }
    }
    char *db = t->table.database.ptr ? select_strdup(q, t->table.database, err)
                                     : q->session->database;
    char *name = select_strdup(q, t->table.name, err);
    if (db == NULL || name == NULL) return err->code;
    int rc;
    if (strcmp(db, "system") == 0 || strcmp(db, "INFORMATION_SCHEMA") == 0 ||
        strcmp(db, "information_schema") == 0) {
        rc = sql__system_table(q, name, out, err);
    } else {
        storage_table *ref;
        rc = sql__check_database(q, db, err);
        if (rc != 0) return rc;
        rc = storage_table_acquire(q->engine->storage, db, name, &ref, err);
        if (rc == MU_EUNKNOWN_TABLE || rc == MU_EUNKNOWN_DATABASE) {
            /* ClickHouse's analyzer: a table expression that names nothing. */
            rc = MU_ERR(err, MU_EUNKNOWN_TABLE, "Table %s.%s does not exist", db, name);
        }
        if (rc != 0) return rc;
        table *tb = storage_table_get(ref);
        const catalog_table *def = storage_table_definition(ref);
        uint32_t n = table_column_count(tb);
        uint32_t *cols = mu_arena_calloc(q->arena, n ? n : 1, sizeof(*cols), err);
        if (cols == NULL) {
            storage_table_release(ref);
            return err->code;
        }
        /* ALIAS columns are computed from stored ones, DEFAULT expressions
         * fill columns of parts older than the column: a query naming such
         * a column reads every column. */
        bool read_all = q->needed_all;
        for (uint32_t c = 0; c < def->def.column_count && !read_all; c++) {
            catalog_default_kind kind = def->def.columns[c].default_kind;
            if (kind != CATALOG_DEFAULT_DEFAULT && kind != CATALOG_DEFAULT_MATERIALIZED) continue;
            for (uint32_t k = 0; k < q->needed_count; k++)
                if (strcmp(q->needed[k], def->def.columns[c].name) == 0) read_all = true;
        }
        uint32_t alias_count = 0;
        for (uint32_t c = 0; c < def->def.column_count; c++) {
            if (def->def.columns[c].default_kind != CATALOG_DEFAULT_ALIAS) continue;
            alias_count++;
            for (uint32_t k = 0; k < q->needed_count; k++)
                if (strcmp(q->needed[k], def->def.columns[c].name) == 0) read_all = true;
        }
        uint32_t used = 0;
        for (uint32_t i = 0; i < n; i++) {
            bool keep = read_all;
            for (uint32_t k = 0; k < q->needed_count && !keep; k++)
                keep = strcmp(q->needed[k], table_column_name(tb, i)) == 0;
            if (keep) cols[used++] = i;
        }
        if (used == 0 && n > 0) {
            /* Only the row count matters: read the narrowest column. */
            uint32_t best = 0, best_bytes = UINT32_MAX;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t w = ty_type_value_bytes(table_column_type(tb, i));
                if (w == 0) w = 1000;
                if (w < best_bytes) {
                    best = i;
                    best_bytes = w;
                }
            }
            cols[used++] = best;
        }
        rc = sql__op_table_scan(q, ref, cols, used, out, err);
        if (rc != 0) return rc;
        const char *qual = t->alias.ptr ? select_strdup(q, t->alias, err) : name;
        select_qualify(*out, qual);
        /* DEFAULT expressions for parts that predate their column. */
        bool any_default = false;
        exec_expr **defaults = mu_arena_calloc(q->arena, (*out)->column_count + 1, sizeof(*defaults), err);
        if (defaults == NULL) return err->code;
        for (uint32_t i = 0; i < (*out)->column_count && rc == 0 && read_all; i++) {
            for (uint32_t c = 0; c < def->def.column_count; c++) {
                const catalog_column *cc = &def->def.columns[c];
                if ((cc->default_kind != CATALOG_DEFAULT_DEFAULT &&
                     cc->default_kind != CATALOG_DEFAULT_MATERIALIZED) ||
                    strcmp(cc->name, (*out)->names[i]) != 0)
                    continue;
                sql_node *expr;
                rc = sql_parse_expr(cc->default_expression, strlen(cc->default_expression), q->arena,
                                    NULL, &expr, err);
                sql_scope ds = {.input = *out, .clause = "a DEFAULT expression"};
                if (rc == 0) rc = sql__bind_expr(q, &ds, expr, &defaults[i], err);
                if (rc == 0 && !ty_type_equal(defaults[i]->type, (*out)->types[i]))
                    rc = exec_expr_cast(&q->builder, defaults[i], (*out)->types[i], &defaults[i], err);
                any_default = true;
            }
        }
        if (rc == 0 && any_default) rc = sql__op_scan_set_defaults(*out, defaults, err);
        if (rc != 0) {
            sql__op_destroy(*out);
            *out = NULL;
            return rc;
        }
        /* MATERIALIZED columns are not part of SELECT *. */
        for (uint32_t i = 0; i < (*out)->column_count; i++)
            for (uint32_t c = 0; c < def->def.column_count; c++)
                if (def->def.columns[c].default_kind == CATALOG_DEFAULT_MATERIALIZED &&
                    strcmp(def->def.columns[c].name, (*out)->names[i]) == 0)
                    (*out)->no_star[i] = true;
        if (alias_count > 0 && read_all) {
            exec_expr **exprs = mu_arena_calloc(q->arena, alias_count, sizeof(*exprs), err);
            const char **names = mu_arena_calloc(q->arena, alias_count, sizeof(*names), err);
            if (exprs == NULL || names == NULL) return err->code;
            uint32_t k = 0;
            for (uint32_t c = 0; c < def->def.column_count && rc == 0; c++) {
                const catalog_column *cc = &def->def.columns[c];
                if (cc->default_kind != CATALOG_DEFAULT_ALIAS) continue;
                sql_node *expr;
                rc = sql_parse_expr(cc->default_expression, strlen(cc->default_expression), q->arena,
                                    NULL, &expr, err);
                sql_scope s = {.input = *out, .clause = "an ALIAS column"};
                if (rc == 0) rc = sql__bind_expr(q, &s, expr, &exprs[k], err);
                const ty_type *want = def->column_types[c];
                if (rc == 0 && !ty_type_equal(exprs[k]->type, want))
                    rc = exec_expr_cast(&q->builder, exprs[k], want, &exprs[k], err);
                names[k++] = cc->name;
            }
            if (rc == 0) rc = select_extend_ex(q, out, exprs, alias_count, names, true, err);
            if (rc != 0) {
                sql__op_destroy(*out); /* NULL when the extension took it */
                *out = NULL;
                return rc;
            }
            for (uint32_t i = (*out)->column_count - alias_count; i < (*out)->column_count; i++)
                (*out)->qualifiers[i] = qual;
        }
        return 0;
    }
    if (rc != 0) return rc;
    const char *qual = t->alias.ptr ? select_strdup(q, t->alias, err) : name;
    select_qualify(*out, qual);
    return 0;
}

static bool select_op_find(const sql_operator *op, const char *name, uint32_t *index_out) {
    for (uint32_t i = 0; i < op->column_count; i++)
        if (op->names[i] && strcmp(op->names[i], name) == 0) {
            *index_out = i;
            return true;
        }
    return false;
}

/* Appends computed columns to op (keeps its columns first). */
static int select_extend_ex(sql_query *q, sql_operator **op, exec_expr **extra,
                            uint32_t extra_count, const char *const *extra_names,
                            bool extra_no_star, mu_err *err) {
    if (extra_count == 0) return 0;
    sql_operator *in = *op;
    uint32_t n = in->column_count + extra_count;
    exec_expr **exprs = mu_arena_calloc(q->arena, n, sizeof(*exprs), err);
    const char **names = mu_arena_calloc(q->arena, n, sizeof(*names), err);
    if (exprs == NULL || names == NULL) return err->code;
    for (uint32_t i = 0; i < in->column_count; i++) {
        int rc = exec_expr_input(&q->builder, i, in->types[i], &exprs[i], err);
        if (rc != 0) return rc;
        names[i] = in->names[i];
    }
    for (uint32_t i = 0; i < extra_count; i++) {
        exprs[in->column_count + i] = extra[i];
        names[in->column_count + i] = extra_names[i];
    }
    const char **quals = mu_arena_calloc(q->arena, n, sizeof(*quals), err);
    bool *no_star = mu_arena_calloc(q->arena, n, sizeof(*no_star), err);
    if (quals == NULL || no_star == NULL) return err->code;
    memcpy(quals, in->qualifiers, in->column_count * sizeof(*quals));
    memcpy(no_star, in->no_star, in->column_count * sizeof(*no_star));
    for (uint32_t i = in->column_count; i < n; i++) no_star[i] = extra_no_star;
    sql_operator *p;
    int rc = sql__op_project(q, in, exprs, names, n, &p, err);
    *op = NULL;
    if (rc != 0) return rc;
    /* Input columns keep their qualifiers (and LowCardinality input stays
     * materialised by the projection). */
    for (uint32_t i = 0; i < n; i++) {
        p->qualifiers[i] = i < in->column_count ? quals[i] : NULL;
        p->no_star[i] = no_star[i];
    }
    *op = p;
    return 0;
}

static int select_extend(sql_query *q, sql_operator **op, exec_expr **extra, uint32_t extra_count,
                         const char *const *extra_names, mu_err *err) {
    return select_extend_ex(q, op, extra, extra_count, extra_names, true, err);
}

/* Splits ON into equalities left = right (other conditions fail). */
typedef struct join_keys {
    const sql_node **left;
    const sql_node **right;
    uint32_t count;
    bool filter_allowed;
    const sql_node **filters;
    uint32_t filter_count;
} join_keys;

/* 1 = resolves only in left, 2 = only right, 3 = both / neither, 0 = no columns. */
static unsigned select_side(const sql_node *n, const sql_operator *l, const sql_operator *r) {
    if (n == NULL) return 0;
    switch (n->kind) {
    case SQL_IDENT: {
        sql_scope ls = {.input = l}, rs = {.input = r};
        (void)ls;
        (void)rs;
        /* qualified or plain lookups as the binder does them */
        size_t parts = n->ident.count;
        sql_str col = n->ident.parts[parts - 1];
        unsigned side = 0;
        const sql_operator *ops[2] = {l, r};
        for (int k = 0; k < 2; k++) {
            const sql_operator *op = ops[k];
            for (uint32_t i = 0; i < op->column_count; i++) {
                bool name_ok = op->names[i] && strlen(op->names[i]) == col.length &&
                               memcmp(op->names[i], col.ptr, col.length) == 0;
                bool qual_ok = parts == 1 ||
                               (op->qualifiers[i] && strlen(op->qualifiers[i]) == n->ident.parts[parts - 2].length &&
                                memcmp(op->qualifiers[i], n->ident.parts[parts - 2].ptr,
                                       n->ident.parts[parts - 2].length) == 0);
                if (name_ok && qual_ok) {
                    side |= 1u << k;
                    break;
                }
            }
            if (parts == 1 && side) break; /* plain names prefer the left table */
        }
        return side ? side : 3;
    }
    case SQL_LITERAL: return 0;
    case SQL_FUNC: {
        unsigned s = 0;
        for (size_t i = 0; i < n->func.args.count; i++) s |= select_side(n->func.args.items[i], l, r);
        return s;
    }
    case SQL_UNARY: return select_side(n->unary.operand, l, r);
    case SQL_BINARY: return select_side(n->binary.left, l, r) | select_side(n->binary.right, l, r);
    case SQL_CAST: return select_side(n->cast.expr, l, r);
    default: return 3;
    }
}

static int select_collect_on(sql_query *q, const sql_node *on, const sql_operator *l, const sql_operator *r,
                             join_keys *keys, mu_err *err) {
    if (on->kind == SQL_BINARY && on->binary.op == SQL_OP_AND) {
        int rc = select_collect_on(q, on->binary.left, l, r, keys, err);
        return rc != 0 ? rc : select_collect_on(q, on->binary.right, l, r, keys, err);
    }
    if (keys->filter_allowed && !(on->kind == SQL_BINARY && on->binary.op == SQL_OP_EQ &&
                                  ((select_side(on->binary.left, l, r) == 1 &&
                                    select_side(on->binary.right, l, r) == 2) ||
                                   (select_side(on->binary.left, l, r) == 2 &&
                                    select_side(on->binary.right, l, r) == 1)))) {
        /* INNER JOIN: a condition that is not a key equality filters the
         * joined rows, which is what it means there. */
        keys->filters[keys->filter_count++] = on;
        return 0;
    }
    if (on->kind == SQL_BINARY && on->binary.op == SQL_OP_EQ) {
        unsigned a = select_side(on->binary.left, l, r), b = select_side(on->binary.right, l, r);
        const sql_node *ln = NULL, *rn = NULL;
        if (a == 1 && b == 2) {
            ln = on->binary.left;
            rn = on->binary.right;
        } else if (a == 2 && b == 1) {
            ln = on->binary.right;
            rn = on->binary.left;
        }
        if (ln) {
            keys->left[keys->count] = ln;
            keys->right[keys->count++] = rn;
            return 0;
        }
    }
    return MU_ERR(err, MU_ENOT_SUPPORTED, "JOIN ON supports only equalities between a column of "
                  "each side joined with AND; other conditions are not supported yet");
}

static int select_count_conjuncts(const sql_node *on) {
    if (on->kind == SQL_BINARY && on->binary.op == SQL_OP_AND)
        return select_count_conjuncts(on->binary.left) + select_count_conjuncts(on->binary.right);
    return 1;
}

static int select_plan_join(sql_query *q, const sql_node *j, sql_operator **out, mu_err *err) {
    sql_operator *left = NULL, *right = NULL;
    int rc = select_plan_from(q, j->join.left, &left, err);
    if (rc != 0) return rc;
    if (j->join.kind == SQL_JOIN_ARRAY || j->join.kind == SQL_JOIN_LEFT_ARRAY) {
        /* ARRAY JOIN expr [AS name], ...: one array at a time. */
        for (size_t i = 0; i < j->join.using_list.count && rc == 0; i++) {
            const sql_node *e = j->join.using_list.items[i];
            uint32_t col = 0;
            if (e->kind == SQL_IDENT && e->ident.count == 1 && e->alias.ptr == NULL) {
                char *nm = select_strdup(q, e->ident.parts[0], err);
                if (nm == NULL) rc = err->code;
                else if (!select_op_find(left, nm, &col))
                    rc = MU_ERR(err, MU_EUNKNOWN_IDENTIFIER, "Unknown expression identifier `%s` "
                                "in ARRAY JOIN", nm);
            } else {
                sql_scope s = {.input = left, .clause = "ARRAY JOIN"};
                exec_expr *x;
                const char *nm;
                rc = sql__bind_expr(q, &s, e, &x, err);
                if (rc == 0) rc = select_name(q, e, &nm, err);
                if (rc == 0) rc = select_extend_ex(q, &left, &x, 1, &nm, false, err);
                col = left ? left->column_count - 1 : 0;
            }
            if (rc == 0) rc = sql__op_array_join(q, left, col, j->join.kind == SQL_JOIN_LEFT_ARRAY,
                                                 &left, err);
            if (rc != 0) left = NULL;
        }
        if (rc != 0) {
            sql__op_destroy(left);
            return rc;
        }
        *out = left;
        return 0;
    }
    rc = select_plan_from(q, j->join.right, &right, err);
    if (rc != 0) {
        sql__op_destroy(left);
        return rc;
    }
    sql_join_type type;
    switch (j->join.kind) {
    case SQL_JOIN_LEFT: type = SQL__JOIN_LEFT; break;
    case SQL_JOIN_RIGHT: type = SQL__JOIN_RIGHT; break;
    case SQL_JOIN_FULL: type = SQL__JOIN_FULL; break;
    case SQL_JOIN_CROSS: case SQL_JOIN_COMMA: type = SQL__JOIN_CROSS; break;
    default: type = SQL__JOIN_INNER; break;
    }
    sql_join_strictness strict = SQL__JOIN_ALL;
    if (j->join.strictness == SQL_STRICT_ANY) strict = SQL__JOIN_ANY;
    else if (j->join.strictness == SQL_STRICT_SEMI) strict = SQL__JOIN_SEMI;
    else if (j->join.strictness == SQL_STRICT_ANTI) strict = SQL__JOIN_ANTI;
    else if (j->join.strictness == SQL_STRICT_ASOF)
        rc = MU_ERR(err, MU_ENOT_SUPPORTED, "ASOF joins are not supported yet");
    if (rc == 0 && (strict == SQL__JOIN_SEMI || strict == SQL__JOIN_ANTI) &&
        type != SQL__JOIN_LEFT && type != SQL__JOIN_INNER)
        rc = MU_ERR(err, MU_ENOT_SUPPORTED, "SEMI and ANTI joins are supported as LEFT joins only");
    join_keys keys = {0};
    keys.filter_allowed = type == SQL__JOIN_INNER && strict == SQL__JOIN_ALL;
    uint32_t nkeys = 0;
    uint32_t *lk = NULL, *rk = NULL, *rk_visible = NULL;
    bool using_keys = j->join.using_list.count > 0;
    if (rc == 0 && type != SQL__JOIN_CROSS) {
        size_t max = using_keys ? j->join.using_list.count
                                : (j->join.on ? (size_t)select_count_conjuncts(j->join.on) : 0);
        if (max == 0) {
            rc = MU_ERR(err, MU_ESYNTAX, "JOIN needs ON or USING");
        } else {
            keys.left = mu_arena_calloc(q->arena, max, sizeof(*keys.left), err);
            keys.right = mu_arena_calloc(q->arena, max, sizeof(*keys.right), err);
            keys.filters = mu_arena_calloc(q->arena, max, sizeof(*keys.filters), err);
            if (keys.filters == NULL) rc = err->code;
            lk = mu_arena_calloc(q->arena, max, sizeof(*lk), err);
            rk = mu_arena_calloc(q->arena, max, sizeof(*rk), err);
            if (!keys.left || !keys.right || !lk || !rk) rc = err->code;
        }
        if (rc == 0 && using_keys) {
            for (size_t i = 0; i < max && rc == 0; i++) {
                const sql_node *u = j->join.using_list.items[i];
                char *nm = u->kind == SQL_IDENT ? select_strdup(q, u->ident.parts[u->ident.count - 1], err) : NULL;
                if (nm == NULL || !select_op_find(left, nm, &lk[i]) || !select_op_find(right, nm, &rk[i]))
                    rc = MU_ERR(err, MU_EUNKNOWN_IDENTIFIER, "USING column %s is not in both tables",
                                nm ? nm : "?");
            }
            nkeys = (uint32_t)max;
            rk_visible = mu_arena_calloc(q->arena, nkeys + 1, sizeof(*rk_visible), err);
            if (rk_visible == NULL) rc = err->code;
            else memcpy(rk_visible, rk, nkeys * sizeof(*rk));
            /* Keys of different types are compared in their common type:
             * cast copies become hidden key columns on each side. */
            for (uint32_t i = 0; i < nkeys && rc == 0; i++) {
                const ty_type *lt = left->types[lk[i]], *rt = right->types[rk[i]];
                if (ty_type_equal(lt, rt)) continue;
                const ty_type *both[2] = {lt, rt}, *st;
                exec_expr *lx, *rx;
                char *hidden = mu_arena_alloc(q->arena, 24, err);
                if (hidden == NULL) {
                    rc = err->code;
                    break;
                }
                snprintf(hidden, 24, SELECT_HIDDEN_PREFIX "ukey%u", i);
                const char *hn = hidden;
                rc = exec_type_supertype(both, 2, q->arena, &st, err);
                if (rc == 0) rc = exec_expr_input(&q->builder, lk[i], lt, &lx, err);
                if (rc == 0 && !ty_type_equal(lt, st)) rc = exec_expr_cast(&q->builder, lx, st, &lx, err);
                if (rc == 0) rc = exec_expr_input(&q->builder, rk[i], rt, &rx, err);
                if (rc == 0 && !ty_type_equal(rt, st)) rc = exec_expr_cast(&q->builder, rx, st, &rx, err);
                if (rc == 0) rc = select_extend(q, &left, &lx, 1, &hn, err);
                if (rc == 0) rc = select_extend(q, &right, &rx, 1, &hn, err);
                if (rc == 0) {
                    lk[i] = left->column_count - 1;
                    rk[i] = right->column_count - 1;
                }
            }
        } else if (rc == 0) {
            rc = select_collect_on(q, j->join.on, left, right, &keys, err);
            nkeys = keys.count;
            /* Key expressions become extra columns on each side. */
            exec_expr **lx = mu_arena_calloc(q->arena, nkeys + 1, sizeof(*lx), err);
            exec_expr **rx = mu_arena_calloc(q->arena, nkeys + 1, sizeof(*rx), err);
            const char **ln = mu_arena_calloc(q->arena, nkeys + 1, sizeof(*ln), err);
            if (!lx || !rx || !ln) rc = err->code;
            uint32_t lbase = left->column_count, rbase = right->column_count;
            for (uint32_t i = 0; i < nkeys && rc == 0; i++) {
                sql_scope ls = {.input = left, .clause = "JOIN ON"};
                sql_scope rs = {.input = right, .clause = "JOIN ON"};
                rc = sql__bind_expr(q, &ls, keys.left[i], &lx[i], err);
                if (rc == 0) rc = sql__bind_expr(q, &rs, keys.right[i], &rx[i], err);
                if (rc != 0) break;
                if (!ty_type_equal(lx[i]->type, rx[i]->type)) {
                    const ty_type *both[2] = {lx[i]->type, rx[i]->type}, *st;
                    rc = exec_type_supertype(both, 2, q->arena, &st, err);
                    if (rc == 0 && !ty_type_equal(lx[i]->type, st))
                        rc = exec_expr_cast(&q->builder, lx[i], st, &lx[i], err);
                    if (rc == 0 && !ty_type_equal(rx[i]->type, st))
                        rc = exec_expr_cast(&q->builder, rx[i], st, &rx[i], err);
                }
                char *hidden = mu_arena_alloc(q->arena, 24, err);
                if (hidden == NULL) rc = err->code;
                else snprintf(hidden, 24, SELECT_HIDDEN_PREFIX "key%u", i);
                ln[i] = hidden;
                lk[i] = lbase + i;
                rk[i] = rbase + i;
            }
            if (rc == 0) rc = select_extend(q, &left, lx, nkeys, ln, err);
            if (rc == 0) rc = select_extend(q, &right, rx, nkeys, ln, err);
        }
    }
    if (rc != 0) {
        sql__op_destroy(left);
        sql__op_destroy(right);
        return rc;
    }
    if (rc == 0 && type != SQL__JOIN_CROSS && !using_keys && nkeys == 0)
        rc = MU_ERR(err, MU_EINVALID_JOIN_ON, "Cannot get JOIN keys from JOIN ON section: no "
                    "equality between a column of each side");
    if (rc != 0) {
        sql__op_destroy(left);
        sql__op_destroy(right);
        return rc;
    }
    const char *use_nulls = sql_session_get(q->session, "join_use_nulls");
    bool nulls = use_nulls && strcmp(use_nulls, "1") == 0;
    uint32_t lcount = left->column_count;
    rc = sql__op_join(q, left, right, type, strict, nulls, lk, rk, nkeys, using_keys, out, err);
    if (rc != 0) return rc;
    for (uint32_t f = 0; f < keys.filter_count; f++) {
        sql_scope fs = {.input = *out, .clause = "JOIN ON"};
        exec_expr *pred;
        rc = sql__bind_expr(q, &fs, keys.filters[f], &pred, err);
        if (rc == 0) rc = sql__op_filter(q, *out, pred, out, err);
        if (rc != 0) {
            if (*out) sql__op_destroy(*out);
            *out = NULL;
            return rc;
        }
    }
    if (using_keys) {
        /* USING: one column per key (the right copy is hidden). */
        for (uint32_t i = 0; i < nkeys; i++) {
            char *hidden = mu_arena_alloc(q->arena, 24, err);
            if (hidden == NULL) return err->code;
            snprintf(hidden, 24, SELECT_HIDDEN_PREFIX "using%u", i);
            (*out)->names[lcount + rk_visible[i]] = hidden;
        }
    }
    return 0;
}

static int select_plan_from(sql_query *q, const sql_node *from, sql_operator **out, mu_err *err) {
    int rc;
    switch (from->kind) {
    case SQL_TABLE: return select_plan_table(q, from, out, err);
    case SQL_TABLE_FUNC:
        rc = sql__table_function(q, from->table_func.func, out, err);
        if (rc == 0) {
            const char *qual = from->alias.ptr ? select_strdup(q, from->alias, err) : NULL;
            select_qualify(*out, qual);
        }
        return rc;
    case SQL_SUBQUERY:
        if (q->subquery_depth > 32)
            return MU_ERR(err, MU_ETOO_DEEP, "subqueries nested deeper than 32 levels");
        q->subquery_depth++;
        rc = sql__plan_query(q, from->subquery.query, out, err);
        q->subquery_depth--;
        if (rc == 0) select_qualify(*out, from->alias.ptr ? select_strdup(q, from->alias, err) : NULL);
        return rc;
    case SQL_JOIN: return select_plan_join(q, from, out, err);
    default:
        return MU_ERR(err, MU_EINTERNAL, "unexpected FROM element %s", sql_kind_name(from->kind));
    }
}

static int select_dummy_source(sql_query *q, sql_operator **out, mu_err *err) {
    ty_column *c;
    uint8_t zero = 0;
    int rc = ty_column_create(ty_type_builtin(TY_UINT8), NULL, &c, err);
    if (rc == 0) rc = ty_column_append_value(c, &zero, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    const char *names[1] = {"dummy"};
    const ty_type *types[1] = {ty_type_builtin(TY_UINT8)};
    return sql__op_values(q, 1, names, types, &c, 1, out, err);
}

/* ---- columns a SELECT mentions ---------------------------------------------------- */

typedef struct select_names {
    const char **names;
    uint32_t count;
    uint32_t capacity;
    bool all;
} select_names;

static int select_names_add(sql_query *q, select_names *s, sql_str name, mu_err *err) {
    for (uint32_t i = 0; i < s->count; i++)
        if (strlen(s->names[i]) == name.length && memcmp(s->names[i], name.ptr, name.length) == 0)
            return 0;
    if (s->count == s->capacity) {
        uint32_t cap = s->capacity ? s->capacity * 2 : 16;
        const char **g = mu_arena_calloc(q->arena, cap, sizeof(*g), err);
        if (g == NULL) return err->code;
        if (s->count) memcpy(g, s->names, s->count * sizeof(*g));
        s->names = g;
        s->capacity = cap;
    }
    s->names[s->count] = select_strdup(q, name, err);
    return s->names[s->count++] ? 0 : err->code;
}

static int select_walk_names(sql_query *q, const sql_node *n, select_names *s, mu_err *err);

static int select_walk_list(sql_query *q, const sql_list *l, select_names *s, mu_err *err) {
    for (size_t i = 0; i < l->count; i++) {
        int rc = select_walk_names(q, l->items[i], s, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int select_walk_names(sql_query *q, const sql_node *n, select_names *s, mu_err *err) {
    if (n == NULL || s->all) return 0;
    int rc = 0;
    switch (n->kind) {
    case SQL_IDENT:
        for (size_t i = 0; i < n->ident.count && rc == 0; i++)
            rc = select_names_add(q, s, n->ident.parts[i], err);
        return rc;
    case SQL_STAR: s->all = true; return 0;
    case SQL_FUNC:
        rc = select_walk_list(q, &n->func.args, s, err);
        return rc ? rc : select_walk_list(q, &n->func.params, s, err);
    case SQL_UNARY: return select_walk_names(q, n->unary.operand, s, err);
    case SQL_BINARY:
        rc = select_walk_names(q, n->binary.left, s, err);
        return rc ? rc : select_walk_names(q, n->binary.right, s, err);
    case SQL_BETWEEN:
        rc = select_walk_names(q, n->between.expr, s, err);
        if (rc == 0) rc = select_walk_names(q, n->between.low, s, err);
        return rc ? rc : select_walk_names(q, n->between.high, s, err);
    case SQL_IS_NULL: return select_walk_names(q, n->is_null.expr, s, err);
    case SQL_TERNARY:
        rc = select_walk_names(q, n->ternary.cond, s, err);
        if (rc == 0) rc = select_walk_names(q, n->ternary.then_expr, s, err);
        return rc ? rc : select_walk_names(q, n->ternary.else_expr, s, err);
    case SQL_CASE:
        rc = select_walk_names(q, n->case_expr.operand, s, err);
        if (rc == 0) rc = select_walk_list(q, &n->case_expr.whens, s, err);
        if (rc == 0) rc = select_walk_list(q, &n->case_expr.thens, s, err);
        return rc ? rc : select_walk_names(q, n->case_expr.else_expr, s, err);
    case SQL_CAST: return select_walk_names(q, n->cast.expr, s, err);
    case SQL_INTERVAL: return select_walk_names(q, n->interval.value, s, err);
    case SQL_ARRAY: case SQL_TUPLE: return select_walk_list(q, &n->array.items, s, err);
    case SQL_LAMBDA: return select_walk_names(q, n->lambda.body, s, err);
    case SQL_ELEMENT: case SQL_TUPLE_ELEMENT:
        rc = select_walk_names(q, n->element.expr, s, err);
        return rc ? rc : select_walk_names(q, n->element.index, s, err);
    case SQL_EXTRACT: return select_walk_names(q, n->extract.expr, s, err);
    case SQL_ORDER_ITEM: return select_walk_names(q, n->order_item.expr, s, err);
    case SQL_CTE: return 0;
    case SQL_SUBQUERY: return 0; /* its own SELECT */
    case SQL_JOIN:
        rc = select_walk_names(q, n->join.on, s, err);
        if (rc == 0) rc = select_walk_list(q, &n->join.using_list, s, err);
        if (rc == 0 && n->join.left->kind == SQL_JOIN) rc = select_walk_names(q, n->join.left, s, err);
        if (rc == 0 && n->join.right && n->join.right->kind == SQL_JOIN)
            rc = select_walk_names(q, n->join.right, s, err);
        return rc;
    default: return 0;
    }
}

static int select_needed(sql_query *q, const sql_node *sel, mu_err *err) {
    select_names s = {0};
    const sql_node *singles[] = {sel->select.from, sel->select.prewhere, sel->select.where,
                                 sel->select.having};
    int rc = 0;
    for (size_t i = 0; i < 4 && rc == 0; i++) rc = select_walk_names(q, singles[i], &s, err);
    const sql_list *lists[] = {&sel->select.with, &sel->select.columns, &sel->select.group_by,
                               &sel->select.order_by, &sel->select.limit_by};
    for (size_t i = 0; i < 5 && rc == 0; i++) rc = select_walk_list(q, lists[i], &s, err);
    if (rc != 0) return rc;
    q->needed = s.names;
    q->needed_count = s.count;
    q->needed_all = s.all;
    return 0;
}

/* ---- arrayJoin ----------------------------------------------------------------- */

typedef struct select_array_joins {
    const sql_node **calls;
    const char **texts;
    uint32_t count;
    uint32_t capacity;
} select_array_joins;

static int select_collect_array_joins(sql_query *q, const sql_node *n, select_array_joins *aj,
                                      mu_err *err) {
    if (n == NULL) return 0;
    int rc = 0;
    switch (n->kind) {
    case SQL_FUNC:
        if (sql_str_eq(n->func.name, "arrayJoin")) {
            const char *text;
            rc = sql__expr_text(n, q->arena, &text, err);
            if (rc != 0) return rc;
            for (uint32_t i = 0; i < aj->count; i++)
                if (strcmp(aj->texts[i], text) == 0) return 0;
            if (aj->count == aj->capacity) {
                uint32_t cap = aj->capacity ? aj->capacity * 2 : 4;
                const sql_node **c = mu_arena_calloc(q->arena, cap, sizeof(*c), err);
                const char **t = mu_arena_calloc(q->arena, cap, sizeof(*t), err);
                if (!c || !t) return err->code;
                if (aj->count) {
                    memcpy(c, aj->calls, aj->count * sizeof(*c));
                    memcpy(t, aj->texts, aj->count * sizeof(*t));
                }
                aj->calls = c;
                aj->texts = t;
                aj->capacity = cap;
            }
            aj->calls[aj->count] = n;
            aj->texts[aj->count++] = text;
            return 0;
        }
        for (size_t i = 0; i < n->func.args.count && rc == 0; i++)
            rc = select_collect_array_joins(q, n->func.args.items[i], aj, err);
        return rc;
    case SQL_UNARY: return select_collect_array_joins(q, n->unary.operand, aj, err);
    case SQL_BINARY:
        rc = select_collect_array_joins(q, n->binary.left, aj, err);
        return rc ? rc : select_collect_array_joins(q, n->binary.right, aj, err);
    case SQL_TERNARY:
        rc = select_collect_array_joins(q, n->ternary.cond, aj, err);
        if (rc == 0) rc = select_collect_array_joins(q, n->ternary.then_expr, aj, err);
        return rc ? rc : select_collect_array_joins(q, n->ternary.else_expr, aj, err);
    case SQL_CAST: return select_collect_array_joins(q, n->cast.expr, aj, err);
    case SQL_ELEMENT:
        rc = select_collect_array_joins(q, n->element.expr, aj, err);
        return rc ? rc : select_collect_array_joins(q, n->element.index, aj, err);
    case SQL_IS_NULL: return select_collect_array_joins(q, n->is_null.expr, aj, err);
    default: return 0;
    }
}

/* ---- the SELECT -------------------------------------------------------------- */

static bool select_is_hidden(const char *name) { return name && name[0] == '\x01'; }

static int select_u64_const(sql_query *q, const sql_node *n, const char *what, uint64_t *out,
                            mu_err *err) {
    const ty_column *c;
    int rc = sql__eval_const(q, n, &c, err);
    if (rc != 0) return rc;
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (!exec_type_is_integer(t) || ty_column_is_null(c, 0))
        return MU_ERR(err, MU_EINVAL, "%s must be a non-negative integer constant", what);
    if (exec_type_is_signed(t) && exec_get_i64(c, 0) < 0)
        return MU_ERR(err, MU_EINVAL, "%s must not be negative", what);
    *out = exec_get_u64(c, 0);
    return 0;
}

/* Resolves a GROUP BY / ORDER BY element: a positional number or an alias
 * of a SELECT item stands for that item's expression. */
static const sql_node *select_resolve_item(const sql_node *n, const sql_list *items) {
    if (n->kind == SQL_LITERAL && n->literal.kind == SQL_LIT_UINT && n->literal.u64 >= 1 &&
        n->literal.u64 <= items->count && items->items[n->literal.u64 - 1]->kind != SQL_STAR)
        return items->items[n->literal.u64 - 1];
    if (n->kind == SQL_IDENT && n->ident.count == 1) {
        for (size_t i = 0; i < items->count; i++) {
            const sql_node *it = items->items[i];
            if (it->alias.ptr && it->alias.length == n->ident.parts[0].length &&
                memcmp(it->alias.ptr, n->ident.parts[0].ptr, it->alias.length) == 0)
                return it;
        }
    }
    return n;
}

/* One ORDER BY key. A tuple sorts as its elements one after another with
 * the tuple's direction (tuples compare element by element): ORDER BY
 * (a, b) DESC is ORDER BY a DESC, b DESC. Grafana's logs query builder
 * writes ORDER BY (TimestampTime, timestamp) DESC. */
typedef struct select_order_key {
    const sql_node *expr;
    bool desc;
    sql_nulls nulls;
} select_order_key;

static bool select_order_is_tuple(const sql_node *e) {
    return e->kind == SQL_TUPLE && e->alias.ptr == NULL;
}

static int select_order_keys(sql_query *q, const sql_list *order_by, select_order_key **out,
                             size_t *count_out, mu_err *err) {
    size_t n = 0;
    for (size_t i = 0; i < order_by->count; i++) {
        const sql_node *e = order_by->items[i]->order_item.expr;
        n += select_order_is_tuple(e) ? e->array.items.count : 1;
    }
    select_order_key *keys = mu_arena_calloc(q->arena, n + 1, sizeof(*keys), err);
    if (keys == NULL) return err->code;
    size_t k = 0;
    for (size_t i = 0; i < order_by->count; i++) {
        const sql_node *oi = order_by->items[i];
        const sql_node *e = oi->order_item.expr;
        bool tuple = select_order_is_tuple(e);
        size_t parts = tuple ? e->array.items.count : 1;
        for (size_t j = 0; j < parts; j++) {
            keys[k].expr = tuple ? e->array.items.items[j] : e;
            keys[k].desc = oi->order_item.desc;
            keys[k++].nulls = oi->order_item.nulls;
        }
    }
    MU_ASSERT(k == n);
    *out = keys;
    *count_out = n;
    return 0;
}

typedef struct select_list {
    exec_expr **exprs;
    const char **names;
    const char **texts;
    uint32_t count;
    uint32_t capacity;
} select_list;

static int select_list_push(sql_query *q, select_list *l, exec_expr *e, const char *name,
                            const char *text, mu_err *err) {
    if (l->count == l->capacity) {
        uint32_t cap = l->capacity ? l->capacity * 2 : 16;
        exec_expr **ne = mu_arena_calloc(q->arena, cap, sizeof(*ne), err);
        const char **nn = mu_arena_calloc(q->arena, cap, sizeof(*nn), err);
        const char **nt = mu_arena_calloc(q->arena, cap, sizeof(*nt), err);
        if (!ne || !nn || !nt) return err->code;
        if (l->count) {
            memcpy(ne, l->exprs, l->count * sizeof(*ne));
            memcpy(nn, l->names, l->count * sizeof(*nn));
            memcpy(nt, l->texts, l->count * sizeof(*nt));
        }
        l->exprs = ne;
        l->names = nn;
        l->texts = nt;
        l->capacity = cap;
    }
    l->exprs[l->count] = e;
    l->names[l->count] = name;
    l->texts[l->count++] = text;
    return 0;
}

static int select_plan_one(sql_query *q, const sql_node *sel, sql_operator **out, mu_err *err) {
    sql_operator *op = NULL;
    for (size_t i = 0; i < sel->select.with.count; i++) {
        const sql_node *w = sel->select.with.items[i];
        if (w->kind != SQL_CTE) continue;
        if (q->cte_count >= 64) return MU_ERR(err, MU_ETOO_LARGE, "more than 64 WITH subqueries");
        q->ctes[q->cte_count++] = w;
    }
    int rc = select_needed(q, sel, err);
    if (rc != 0) return rc;
    rc = sel->select.from ? select_plan_from(q, sel->select.from, &op, err)
                              : select_dummy_source(q, &op, err);
    if (rc != 0) return rc;

    /* Aliases: WITH expressions and SELECT items. */
    sql_scope scope = {.input = op};
    size_t alias_max = sel->select.with.count + sel->select.columns.count;
    scope.alias_names = mu_arena_calloc(q->arena, alias_max + 1, sizeof(char *), err);
    scope.alias_exprs = mu_arena_calloc(q->arena, alias_max + 1, sizeof(sql_node *), err);
    scope.alias_busy = mu_arena_calloc(q->arena, alias_max + 1, 1, err);
    if (!scope.alias_names || !scope.alias_exprs || !scope.alias_busy) {
        rc = err->code;
        goto fail;
    }
    for (size_t i = 0; i < sel->select.with.count; i++) {
        const sql_node *w = sel->select.with.items[i];
        if (w->kind == SQL_CTE) continue;
        if (w->alias.ptr) {
            scope.alias_names[scope.alias_count] = select_strdup(q, w->alias, err);
            scope.alias_exprs[scope.alias_count++] = w;
        }
    }
    for (size_t i = 0; i < sel->select.columns.count; i++) {
        const sql_node *c = sel->select.columns.items[i];
        if (c->alias.ptr) {
            scope.alias_names[scope.alias_count] = select_strdup(q, c->alias, err);
            scope.alias_exprs[scope.alias_count++] = c;
        }
    }

    /* Key range of the scan implied by WHERE / PREWHERE. */
    if (op && sel->select.where) rc = sql__prune_scan(q, op, sel, sel->select.where, err);
    if (rc == 0 && op && sel->select.prewhere) rc = sql__prune_scan(q, op, sel, sel->select.prewhere, err);
    if (rc != 0) goto fail;

    /* arrayJoin(...) in the SELECT list or WHERE: unfold before filtering. */
    select_array_joins aj = {0};
    for (size_t i = 0; i < sel->select.columns.count && rc == 0; i++)
        rc = select_collect_array_joins(q, sel->select.columns.items[i], &aj, err);
    if (rc == 0) rc = select_collect_array_joins(q, sel->select.where, &aj, err);
    if (rc != 0) goto fail;
    if (aj.count > 0) {
        scope.array_join_texts = aj.texts;
        scope.array_join_columns = mu_arena_calloc(q->arena, aj.count, sizeof(uint32_t), err);
        if (scope.array_join_columns == NULL) {
            rc = err->code;
            goto fail;
        }
        for (uint32_t i = 0; i < aj.count; i++) {
            const sql_node *call = aj.calls[i];
            if (call->func.args.count != 1) {
                rc = MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function arrayJoin requires exactly one "
                            "argument");
                goto fail;
            }
            scope.input = op;
            scope.clause = "arrayJoin";
            exec_expr *x;
            const char *hidden = SELECT_HIDDEN_PREFIX "arrayJoin";
            rc = sql__bind_expr(q, &scope, call->func.args.items[0], &x, err);
            if (rc == 0) rc = select_extend(q, &op, &x, 1, &hidden, err);
            if (rc != 0) goto fail;
            uint32_t col = op->column_count - 1;
            rc = sql__op_array_join(q, op, col, false, &op, err);
            if (rc != 0) {
                op = NULL;
                goto fail;
            }
            scope.array_join_columns[i] = col;
            scope.array_join_count = i + 1;
        }
        scope.input = op;
    }

    /* WHERE / PREWHERE */
    const sql_node *filters[2] = {sel->select.prewhere, sel->select.where};
    for (int k = 0; k < 2; k++) {
        if (filters[k] == NULL) continue;
        scope.input = op;
        scope.clause = k == 0 ? "PREWHERE" : "WHERE";
        scope.no_aggregates = true;
        exec_expr *pred;
        rc = sql__bind_expr(q, &scope, filters[k], &pred, err);
        if (rc != 0) goto fail;
        rc = sql__op_filter(q, op, pred, &op, err);
        if (rc != 0) {
            op = NULL;
            goto fail;
        }
    }
    scope.no_aggregates = false;

    /* Aggregation? */
    bool aggregating = sel->select.group_by.count > 0 || sql__has_aggregate(sel->select.having);
    for (size_t i = 0; i < sel->select.columns.count && !aggregating; i++)
        aggregating = sql__has_aggregate(sel->select.columns.items[i]);
    for (size_t i = 0; i < sel->select.order_by.count && !aggregating; i++)
        aggregating = sql__has_aggregate(sel->select.order_by.items[i]->order_item.expr);
    sql_scope pre = scope;
    pre.input = op;
    sql_agg_ctx agg = {0};
    sql_scope post = scope;
    sql_operator *agg_op = NULL;
    if (aggregating) {
        uint32_t nk = (uint32_t)sel->select.group_by.count;
        agg.pre = &pre;
        agg.key_count = nk;
        agg.key_texts = mu_arena_calloc(q->arena, nk + 1, sizeof(char *), err);
        agg.key_exprs = mu_arena_calloc(q->arena, nk + 1, sizeof(exec_expr *), err);
        agg.key_names = mu_arena_calloc(q->arena, nk + 1, sizeof(char *), err);
        if (!agg.key_texts || !agg.key_exprs || !agg.key_names) {
            rc = err->code;
            goto fail;
        }
        pre.clause = "GROUP BY";
        pre.no_aggregates = true;
        for (uint32_t k = 0; k < nk; k++) {
            const sql_node *g = select_resolve_item(sel->select.group_by.items[k], &sel->select.columns);
            rc = sql__bind_expr(q, &pre, g, &agg.key_exprs[k], err);
            if (rc == 0) rc = sql__expr_text(g, q->arena, &agg.key_texts[k], err);
            if (rc == 0) rc = select_name(q, g, &agg.key_names[k], err);
            if (rc != 0) goto fail;
        }
        pre.clause = "an aggregate function's argument";
        post.input = NULL;
        post.agg = &agg;
        post.clause = "SELECT";
    }
    sql_scope *bind_scope = aggregating ? &post : &scope;
    bind_scope->input = aggregating ? NULL : op;

    /* SELECT list (stars expanded). */
    select_list list = {0};
    for (size_t i = 0; i < sel->select.columns.count; i++) {
        const sql_node *c = sel->select.columns.items[i];
        if (c->kind == SQL_STAR) {
            if (aggregating) {
                rc = MU_ERR(err, MU_ENOT_AGGREGATE, "* cannot be used with GROUP BY or aggregates");
                goto fail;
            }
            const char *qual = NULL;
            if (c->star.qualifier) {
                const sql_node *qn = c->star.qualifier;
                qual = select_strdup(q, qn->ident.parts[qn->ident.count - 1], err);
            }
            for (uint32_t k = 0; k < op->column_count; k++) {
                if (select_is_hidden(op->names[k]) || op->no_star[k]) continue;
                if (qual && (op->qualifiers[k] == NULL || strcmp(op->qualifiers[k], qual) != 0))
                    continue;
                exec_expr *e;
                rc = exec_expr_input(&q->builder, k, op->types[k], &e, err);
                if (rc == 0) rc = select_list_push(q, &list, e, op->names[k], op->names[k], err);
                if (rc != 0) goto fail;
            }
            continue;
        }
        exec_expr *e;
        const char *name, *text;
        rc = sql__bind_expr(q, bind_scope, c, &e, err);
        if (rc == 0) rc = select_name(q, c, &name, err);
        if (rc == 0) rc = sql__expr_text(c, q->arena, &text, err);
        if (rc == 0) rc = select_list_push(q, &list, e, name, text, err);
        if (rc != 0) goto fail;
    }
    uint32_t visible = list.count;
    if (visible == 0) {
        rc = MU_ERR(err, MU_EINCORRECT_ELEMENT, "Empty list of columns in SELECT query");
        goto fail;
    }

    /* HAVING */
    exec_expr *having = NULL;
    if (sel->select.having) {
        if (!aggregating) {
            rc = MU_ERR(err, MU_EILLEGAL_AGGREGATION, "HAVING clause without aggregation");
            goto fail;
        }
        post.clause = "HAVING";
        rc = sql__bind_expr(q, &post, sel->select.having, &having, err);
        if (rc != 0) goto fail;
    }

    /* ORDER BY and LIMIT BY expressions: reuse a SELECT item or add a hidden one. */
    select_order_key *order_keys = NULL;
    size_t no = 0, nlb = sel->select.limit_by.count;
    rc = select_order_keys(q, &sel->select.order_by, &order_keys, &no, err);
    if (rc != 0) goto fail;
    sql_sort_key *sort_keys = mu_arena_calloc(q->arena, no + 1, sizeof(*sort_keys), err);
    uint32_t *limit_by_cols = mu_arena_calloc(q->arena, nlb + 1, sizeof(*limit_by_cols), err);
    if (!sort_keys || !limit_by_cols) {
        rc = err->code;
        goto fail;
    }
    for (size_t i = 0; i < no + nlb; i++) {
        const sql_node *item = i < no ? order_keys[i].expr : sel->select.limit_by.items[i - no];
        const sql_node *resolved = select_resolve_item(item, &sel->select.columns);
        const char *text;
        rc = sql__expr_text(resolved, q->arena, &text, err);
        if (rc != 0) goto fail;
        uint32_t col = UINT32_MAX;
        for (uint32_t k = 0; k < list.count; k++)
            if (strcmp(list.texts[k], text) == 0) {
                col = k;
                break;
            }
        if (col == UINT32_MAX) {
            exec_expr *e;
            bind_scope->clause = i < no ? "ORDER BY" : "LIMIT BY";
            rc = sql__bind_expr(q, bind_scope, resolved, &e, err);
            if (rc == 0) rc = select_list_push(q, &list, e, SELECT_HIDDEN_PREFIX "order", text, err);
            if (rc != 0) goto fail;
            col = list.count - 1;
        }
        if (i < no) {
            sort_keys[i].column = col;
            sort_keys[i].desc = order_keys[i].desc;
            sort_keys[i].nulls_first = order_keys[i].nulls == SQL_NULLS_FIRST;
        } else {
            limit_by_cols[i - no] = col;
        }
    }

    if (aggregating) {
        rc = sql__op_aggregate(q, op, agg.key_exprs, agg.key_names, agg.key_count, agg.aggs,
                               agg.agg_count, sel->select.with_totals, &op, err);
        if (rc != 0) {
            op = NULL;
            goto fail;
        }
        agg_op = op;
        if (having) {
            rc = sql__op_filter(q, op, having, &op, err);
            if (rc != 0) {
                op = NULL;
                goto fail;
            }
        }
    }
    sql_operator *pre_project = op;
    rc = sql__op_project(q, op, list.exprs, list.names, list.count, &op, err);
    if (rc != 0) {
        op = NULL;
        goto fail;
    }
    sql__op_project_keep_lowcard(op);
    (void)pre_project;
    if (sel->select.distinct) {
        rc = sql__op_distinct(q, op, visible, &op, err);
        if (rc != 0) {
            op = NULL;
            goto fail;
        }
    }
    uint64_t limit = UINT64_MAX, offset = 0;
    if (sel->select.limit) {
        rc = select_u64_const(q, sel->select.limit, "LIMIT", &limit, err);
        if (rc == 0 && sel->select.offset)
            rc = select_u64_const(q, sel->select.offset, "OFFSET", &offset, err);
        if (rc != 0) goto fail;
    }
    sql_operator *sort_op = NULL;
    if (no > 0) {
        uint64_t top = (limit != UINT64_MAX && nlb == 0) ? limit + offset : 0;
        rc = sql__op_sort(q, op, sort_keys, (uint32_t)no, top, &op, err);
        if (rc != 0) {
            op = NULL;
            goto fail;
        }
        sort_op = op;
    }
    if (nlb > 0) {
        uint64_t lb = 0, lbo = 0;
        rc = select_u64_const(q, sel->select.limit_by_count, "LIMIT BY", &lb, err);
        if (rc == 0 && sel->select.limit_by_offset)
            rc = select_u64_const(q, sel->select.limit_by_offset, "LIMIT BY OFFSET", &lbo, err);
        if (rc == 0) rc = sql__op_limit_by(q, op, limit_by_cols, (uint32_t)nlb, lb, lbo, &op, err);
        if (rc != 0) {
            if (rc != 0 && op) op = NULL;
            goto fail;
        }
    }
    if (limit != UINT64_MAX || offset > 0) {
        rc = sql__op_limit(q, op, limit, offset, &op, err);
        if (rc != 0) {
            op = NULL;
            goto fail;
        }
        if (q->subquery_depth == 0 && q->limit_op == NULL && nlb == 0) {
            q->limit_op = op;
            q->limit_sort = sort_op;
        }
    }
    rc = sql__op_truncate_columns(q, op, visible, &op, err);
    if (rc != 0) {
        op = NULL;
        goto fail;
    }
    if (agg_op && sel->select.with_totals && q->subquery_depth == 0 && q->totals_source == NULL) {
        q->totals_source = agg_op;
        q->totals_exprs = list.exprs;
        q->totals_names = list.names;
        q->totals_count = visible;
    }
    *out = op;
    return 0;
fail:
    sql__op_destroy(op);
    return rc;
}

static int select_convert(sql_query *q, sql_operator **op, const ty_type *const *types, mu_err *err) {
    sql_operator *in = *op;
    bool same = true;
    for (uint32_t i = 0; i < in->column_count; i++)
        if (!ty_type_equal(in->types[i], types[i])) same = false;
    if (same) return 0;
    exec_expr **exprs = mu_arena_calloc(q->arena, in->column_count, sizeof(*exprs), err);
    if (exprs == NULL) return err->code;
    for (uint32_t i = 0; i < in->column_count; i++) {
        int rc = exec_expr_input(&q->builder, i, in->types[i], &exprs[i], err);
        if (rc == 0 && !ty_type_equal(exprs[i]->type, types[i]))
            rc = exec_expr_cast(&q->builder, exprs[i], types[i], &exprs[i], err);
        if (rc != 0) return rc;
    }
    *op = NULL;
    return sql__op_project(q, in, exprs, in->names, in->column_count, op, err);
}

static int select_plan_query(sql_query *q, const sql_node *query, sql_operator **out, mu_err *err);

int sql__plan_query(sql_query *q, const sql_node *query, sql_operator **out, mu_err *err) {
    /* A nested query has its own column needs; the caller's are restored. */
    const char **needed = q->needed;
    uint32_t needed_count = q->needed_count;
    bool needed_all = q->needed_all;
    int rc = select_plan_query(q, query, out, err);
    q->needed = needed;
    q->needed_count = needed_count;
    q->needed_all = needed_all;
    return rc;
}

static int select_plan_query(sql_query *q, const sql_node *query, sql_operator **out, mu_err *err) {
    size_t n = query->query.selects.count;
    sql_operator **parts = mu_arena_calloc(q->arena, n, sizeof(*parts), err);
    if (parts == NULL) return err->code;
    int rc = 0;
    size_t planned = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const sql_node *s = query->query.selects.items[i];
        if (s->select.union_distinct) {
            rc = MU_ERR(err, MU_ENOT_SUPPORTED, "UNION DISTINCT is not supported yet");
            break;
        }
        if (i > 0) q->subquery_depth++; /* totals only from the first SELECT */
        rc = select_plan_one(q, s, &parts[i], err);
        if (i > 0) q->subquery_depth--;
        if (rc == 0) planned++;
    }
    if (rc == 0 && n > 1) {
        uint32_t cols = parts[0]->column_count;
        for (size_t i = 1; i < n && rc == 0; i++)
            if (parts[i]->column_count != cols)
                rc = MU_ERR(err, MU_ETYPE, "UNION ALL of SELECTs with different numbers of columns: "
                            "%u and %u", cols, parts[i]->column_count);
        const ty_type **types = mu_arena_calloc(q->arena, cols + 1, sizeof(*types), err);
        const ty_type **each = mu_arena_calloc(q->arena, n, sizeof(*each), err);
        if (!types || !each) rc = err->code;
        for (uint32_t c = 0; c < cols && rc == 0; c++) {
            for (size_t i = 0; i < n; i++) each[i] = parts[i]->types[c];
            rc = exec_type_supertype(each, (uint32_t)n, q->arena, &types[c], err);
            /* Conversions give plain values: a LowCardinality result only
             * when every SELECT has that very type. */
            bool all_same = true;
            for (size_t i = 0; rc == 0 && i < n; i++)
                all_same = all_same && ty_type_equal(each[i], types[c]);
            if (rc == 0 && !all_same && types[c]->kind == TY_LOW_CARDINALITY)
                types[c] = types[c]->child;
        }
        for (size_t i = 0; i < n && rc == 0; i++) {
            rc = select_convert(q, &parts[i], types, err);
            if (rc != 0) parts[i] = NULL;
        }
        if (rc == 0) {
            rc = sql__op_union(q, parts, (uint32_t)n, out, err);
            return rc;
        }
    }
    if (rc != 0) {
        for (size_t i = 0; i < planned; i++) sql__op_destroy(parts[i]);
        return rc;
    }
    *out = parts[0];
    return 0;
}
