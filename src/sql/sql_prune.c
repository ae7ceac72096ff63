/* sql_prune.c: the key range a WHERE implies for a table scan. Conjuncts
 * of the form key = c, key < c, key <= c, key > c, key >= c (either side)
 * and key BETWEEN a AND b on the table's first ORDER BY column narrow
 * [lo, hi]; the scan then skips parts and granules outside it (using the
 * parts' key ranges and minmax indexes). Pruning only ever removes rows
 * the WHERE would drop: a constant that does not convert exactly to the
 * key's type contributes nothing, and the filter still runs on every row
 * read.
 */
#include "sql/query_int.h"

#include <string.h>

typedef struct prune_state {
    const char *key;
    const char *qualifier;
    const ty_type *type;
    ty_column *lo;
    ty_column *hi;
} prune_state;

static bool prune_is_key(const prune_state *st, const sql_node *n) {
    if (n->kind != SQL_IDENT) return false;
    sql_str last = n->ident.parts[n->ident.count - 1];
    if (strlen(st->key) != last.length || memcmp(st->key, last.ptr, last.length) != 0) return false;
    if (n->ident.count == 1) return true;
    sql_str q = n->ident.parts[n->ident.count - 2];
    return st->qualifier && strlen(st->qualifier) == q.length && memcmp(st->qualifier, q.ptr, q.length) == 0;
}

/* The constant as a 1-row column of the key's type, or NULL when it does
 * not convert exactly. */
static ty_column *prune_value(sql_query *q, const prune_state *st, const sql_node *n) {
    mu_err ignored;
    const ty_column *c;
    if (sql__eval_const(q, n, &c, &ignored) != 0) return NULL;
    if (ty_column_is_null(c, 0)) return NULL;
    const ty_type *ct = ty_type_strip_nullable(c->type), *kt = st->type;
    ty_column *out;
    if (ty_column_create(kt, NULL, &out, &ignored) != 0) return NULL;
    int rc = -1;
    if (ty_type_equal(ct, kt)) {
        rc = ty_column_append_from(out, c, 0, &ignored);
    } else if (exec_type_is_integer(kt) && exec_type_is_integer(ct)) {
        bool neg = exec_type_is_signed(ct) && exec_get_i64(c, 0) < 0;
        uint64_t u = exec_get_u64(c, 0);
        int64_t i = exec_get_i64(c, 0);
        unsigned bytes = ty_type_value_bytes(kt);
        bool fits;
        if (exec_type_is_signed(kt)) {
            int64_t lim = bytes >= 8 ? INT64_MAX : (int64_t)((1ull << (bytes * 8 - 1)) - 1);
            fits = neg ? (bytes >= 8 || i >= -lim - 1) : u <= (uint64_t)lim;
        } else {
            uint64_t lim = bytes >= 8 ? UINT64_MAX : (1ull << (bytes * 8)) - 1;
            fits = !neg && u <= lim;
        }
        if (fits) {
            uint8_t buf[8];
            memcpy(buf, neg ? (const void *)&i : (const void *)&u, 8); /* little-endian truncation */
            rc = ty_column_append_value(out, buf, &ignored);
        }
    } else if (kt->kind == TY_FLOAT64 && exec_type_is_number(ct) && ct->kind != TY_DECIMAL) {
        double d = exec_get_f64(c, 0);
        rc = ty_column_append_value(out, &d, &ignored);
    } else if ((exec_type_is_date_or_time(kt) || kt->kind == TY_UUID) && ct->kind == TY_STRING) {
        size_t nb;
        const uint8_t *p = ty_column_row_bytes(c, 0, &nb);
        rc = ty_column_append_text(out, (const char *)p, nb, &ignored);
    }
    if (rc != 0) {
        ty_column_destroy(out);
        return NULL;
    }
    return out;
}

static void prune_tighten(prune_state *st, ty_column *v, bool lower) {
    ty_column **slot = lower ? &st->lo : &st->hi;
    if (*slot == NULL) {
        *slot = v;
        return;
    }
    int c = ty_column_compare_rows(v, 0, *slot, 0);
    if ((lower && c > 0) || (!lower && c < 0)) {
        ty_column_destroy(*slot);
        *slot = v;
    } else {
        ty_column_destroy(v);
    }
}

static void prune_walk(sql_query *q, prune_state *st, const sql_node *n) {
    if (n == NULL) return;
    if (n->kind == SQL_BINARY && n->binary.op == SQL_OP_AND) {
        prune_walk(q, st, n->binary.left);
        prune_walk(q, st, n->binary.right);
        return;
    }
    if (n->kind == SQL_FUNC && sql_str_eq(n->func.name, "and")) {
        for (size_t i = 0; i < n->func.args.count; i++) prune_walk(q, st, n->func.args.items[i]);
        return;
    }
    if (n->kind == SQL_BETWEEN && !n->between.negated && prune_is_key(st, n->between.expr)) {
        ty_column *lo = prune_value(q, st, n->between.low), *hi = prune_value(q, st, n->between.high);
        if (lo) prune_tighten(st, lo, true);
        if (hi) prune_tighten(st, hi, false);
        return;
    }
    if (n->kind != SQL_BINARY) return;
    sql_op op = n->binary.op;
    const sql_node *key = n->binary.left, *val = n->binary.right;
    if (!prune_is_key(st, key)) {
        key = n->binary.right;
        val = n->binary.left;
        if (!prune_is_key(st, key)) return;
        /* c < key is key > c */
        if (op == SQL_OP_LT) op = SQL_OP_GT;
        else if (op == SQL_OP_LE) op = SQL_OP_GE;
        else if (op == SQL_OP_GT) op = SQL_OP_LT;
        else if (op == SQL_OP_GE) op = SQL_OP_LE;
    }
    if (op != SQL_OP_EQ && op != SQL_OP_LT && op != SQL_OP_LE && op != SQL_OP_GT && op != SQL_OP_GE)
        return;
    if (val->kind == SQL_IDENT) return;
    ty_column *v = prune_value(q, st, val);
    if (v == NULL) return;
    if (op == SQL_OP_EQ) {
        ty_column *v2 = NULL;
        mu_err ignored;
        if (ty_column_create(v->type, NULL, &v2, &ignored) == 0 &&
            ty_column_append_from(v2, v, 0, &ignored) == 0) {
            prune_tighten(st, v, true);
            prune_tighten(st, v2, false);
        } else {
            ty_column_destroy(v);
            ty_column_destroy(v2);
        }
        return;
    }
    prune_tighten(st, v, op == SQL_OP_GT || op == SQL_OP_GE);
}

static bool prune_aliased(const sql_list *l, const char *key) {
    for (size_t i = 0; i < l->count; i++) {
        sql_str a = l->items[i]->alias;
        if (a.ptr && strlen(key) == a.length && memcmp(key, a.ptr, a.length) == 0) return true;
    }
    return false;
}

int sql__prune_scan(sql_query *q, sql_operator *scan, const sql_node *sel, const sql_node *where,
                    mu_err *err) {
    (void)err;
    if (where == NULL || !sql__op_is_scan(scan)) return 0;
    uint32_t col;
    const char *key = sql__op_scan_table_key(scan, &col);
    if (key == NULL) return 0;
    /* An alias of the same name would mean something else in WHERE. */
    if (prune_aliased(&sel->select.columns, key) || prune_aliased(&sel->select.with, key)) return 0;
    uint32_t out_index = UINT32_MAX;
    for (uint32_t i = 0; i < scan->column_count; i++)
        if (strcmp(scan->names[i], key) == 0) out_index = i;
    if (out_index == UINT32_MAX) return 0;
    const ty_type *type = scan->types[out_index];
    if (type->kind == TY_NULLABLE || type->kind == TY_LOW_CARDINALITY || type->kind == TY_ARRAY ||
        type->kind == TY_MAP)
        return 0;
    prune_state st = {.key = key, .qualifier = scan->qualifiers[out_index], .type = type};
    prune_walk(q, &st, where);
    if (st.lo == NULL && st.hi == NULL) return 0;
    sql__op_scan_set_range(scan, col, st.lo, st.hi);
    return 0;
}
