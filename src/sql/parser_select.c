/* parser_select.c: SELECT queries: UNION ALL / UNION DISTINCT chains, the WITH
 * list (expressions with aliases and `name AS (subquery)`), the select list,
 * FROM with tables, table functions, subqueries and JOIN / ARRAY JOIN chains,
 * PREWHERE, WHERE, GROUP BY [WITH TOTALS], HAVING, ORDER BY, LIMIT BY, LIMIT
 * and SETTINGS. FORMAT belongs to the statement (parser_stmt.c).
 * Invariant: the join tree is left-deep and its length counts toward the
 * depth limit, like operator chains.
 */
#include "sql/sql_int.h"

#include <string.h>

bool sql__at_query_start(const sql_parser *p) {
    return sql__is_kw(p, "SELECT") || sql__is_kw(p, "WITH");
}

/* `name AS (subquery)`; returns 1 (state untouched) when the item is not one. */
static int with_cte(sql_parser *p, sql_node **out) {
    bool named = p->tok.kind == SQL_TOK_QUOTED_IDENT ||
                 (p->tok.kind == SQL_TOK_WORD &&
                  !sql_word_is_reserved(p->lx.text + p->tok.offset, p->tok.length));
    if (!named || !sql__peek_is(p, SQL_TOK_WORD, "AS")) return 1;
    sql_parser saved = *p;
    sql_node *cte = sql__node(p, SQL_CTE, p->tok.offset);
    if (cte == NULL) return p->rc;
    int rc = sql__ident_word(p, "identifier", &cte->cte.name);
    if (rc < 0) return rc;
    sql__advance(p); /* AS */
    if (p->tok.kind != SQL_TOK_LPAREN ||
        !(sql__peek_is(p, SQL_TOK_WORD, "SELECT") || sql__peek_is(p, SQL_TOK_WORD, "WITH"))) {
        *p = saved;
        return 1;
    }
    sql__advance(p);
    rc = sql__query(p, &cte->cte.query);
    if (rc == 0) rc = sql__expect(p, SQL_TOK_RPAREN);
    if (rc < 0) return rc;
    sql__finish(p, cte);
    *out = cte;
    return 0;
}

static int with_list(sql_parser *p, sql_list *out) {
    do {
        sql_node *item = NULL;
        int rc = with_cte(p, &item);
        if (rc == 1) {
            rc = sql__expr(p, &item);
            if (rc == 0) rc = sql__expect_kw(p, "AS");
            if (rc == 0) rc = sql__ident_word(p, "alias", &item->alias);
        }
        if (rc < 0) return rc;
        if (sql__list_push(p, out, item) < 0) return p->rc;
    } while (sql__accept(p, SQL_TOK_COMMA));
    return p->rc;
}

/* One FROM item: [db.]table [AS a] [FINAL], func(args) [AS a], (query) [AS a]. */
static int table_item(sql_parser *p, sql_node **out) {
    size_t offset = p->tok.offset;
    sql_node *n = NULL;
    int rc = 0;
    if (p->tok.kind == SQL_TOK_LPAREN) {
        sql__advance(p);
        if (!sql__at_query_start(p)) return sql__fail(p, "SELECT subquery");
        n = sql__node(p, SQL_SUBQUERY, offset);
        if (n == NULL) return p->rc;
        rc = sql__query(p, &n->subquery.query);
        if (rc == 0) rc = sql__expect(p, SQL_TOK_RPAREN);
    } else if (p->tok.kind == SQL_TOK_WORD && sql__peek_is(p, SQL_TOK_LPAREN, NULL) &&
               !sql_word_is_reserved(p->lx.text + p->tok.offset, p->tok.length)) {
        sql_str name;
        if (sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, &name) < 0) return p->rc;
        sql__advance(p);
        n = sql__node(p, SQL_TABLE_FUNC, offset);
        if (n == NULL) return p->rc;
        rc = sql__func_call(p, name, offset, &n->table_func.func);
    } else {
        n = sql__node(p, SQL_TABLE, offset);
        if (n == NULL) return p->rc;
        rc = sql__name_pair(p, &n->table.database, &n->table.name);
    }
    if (rc == 0) rc = sql__alias(p, true, n);
    if (rc == 0 && n->kind == SQL_TABLE) n->table.final = sql__accept_kw(p, "FINAL");
    if (rc < 0) return rc;
    sql__finish(p, n);
    *out = n;
    return p->rc;
}

static sql_strictness join_strictness(sql_parser *p) {
    static const char *const words[] = {"ANY", "ALL", "SEMI", "ANTI", "ASOF"};
    for (size_t i = 0; i < MU_ARRAY_LEN(words); i++)
        if (sql__accept_kw(p, words[i])) return (sql_strictness)(SQL_STRICT_ANY + i);
    return SQL_STRICT_NONE;
}

/* The words before JOIN: [GLOBAL] [strictness] [kind [OUTER]] [strictness]. */
static int join_head(sql_parser *p, sql_node *j) {
    j->join.global = sql__accept_kw(p, "GLOBAL");
    j->join.strictness = join_strictness(p);
    if (sql__accept_kw(p, "INNER")) j->join.kind = SQL_JOIN_INNER;
    else if (sql__accept_kw(p, "LEFT")) j->join.kind = SQL_JOIN_LEFT;
    else if (sql__accept_kw(p, "RIGHT")) j->join.kind = SQL_JOIN_RIGHT;
    else if (sql__accept_kw(p, "FULL")) j->join.kind = SQL_JOIN_FULL;
    else if (sql__accept_kw(p, "CROSS")) j->join.kind = SQL_JOIN_CROSS;
    else j->join.kind = SQL_JOIN_INNER;
    if (j->join.kind == SQL_JOIN_LEFT || j->join.kind == SQL_JOIN_RIGHT ||
        j->join.kind == SQL_JOIN_FULL)
        (void)sql__accept_kw(p, "OUTER");
    if (j->join.strictness == SQL_STRICT_NONE && j->join.kind != SQL_JOIN_CROSS)
        j->join.strictness = join_strictness(p);
    return sql__expect_kw(p, "JOIN");
}

static int join_constraint(sql_parser *p, sql_node *j) {
    if (j->join.kind == SQL_JOIN_CROSS) return p->rc;
    if (sql__accept_kw(p, "ON")) return sql__expr(p, &j->join.on);
    if (!sql__accept_kw(p, "USING")) return sql__fail_here(p);
    if (sql__accept(p, SQL_TOK_LPAREN)) {
        int rc = sql__expr_list(p, false, &j->join.using_list);
        return rc == 0 ? sql__expect(p, SQL_TOK_RPAREN) : rc;
    }
    return sql__expr_list(p, false, &j->join.using_list);
}

static bool at_join(sql_parser *p) {
    static const char *const words[] = {"GLOBAL", "ANY", "ALL", "SEMI", "ANTI", "ASOF",
                                        "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "JOIN",
                                        "ARRAY"};
    for (size_t i = 0; i < MU_ARRAY_LEN(words); i++) {
        if (sql__is_kw(p, words[i])) return true;
        sql__expect_note(p, words[i]);
    }
    return p->tok.kind == SQL_TOK_COMMA;
}

/* One link of the FROM chain after `left`. */
static int join_link(sql_parser *p, sql_node *j) {
    if (sql__accept(p, SQL_TOK_COMMA)) {
        j->join.kind = SQL_JOIN_COMMA;
        return table_item(p, &j->join.right);
    }
    if (sql__is_kw(p, "ARRAY") ||
        (sql__is_kw(p, "LEFT") && sql__peek_is(p, SQL_TOK_WORD, "ARRAY"))) {
        j->join.kind = sql__accept_kw(p, "LEFT") ? SQL_JOIN_LEFT_ARRAY : SQL_JOIN_ARRAY;
        int rc = sql__expect_kw(p, "ARRAY");
        if (rc == 0) rc = sql__expect_kw(p, "JOIN");
        if (rc == 0) rc = sql__expr_list(p, true, &j->join.using_list);
        return rc;
    }
    int rc = join_head(p, j);
    if (rc == 0) rc = table_item(p, &j->join.right);
    if (rc == 0) rc = join_constraint(p, j);
    return rc;
}

static int from_clause(sql_parser *p, sql_node **out) {
    sql_node *left = NULL;
    int rc = table_item(p, &left);
    unsigned stacked = 0;
    while (rc == 0 && at_join(p)) {
        if (p->depth + ++stacked > p->depth_max) {
            p->rc = MU_ERR(p->err, MU_ETOO_DEEP,
                           "Maximum parse depth (%u) exceeded at position %zu (TOO_DEEP_AST)",
                           p->depth_max, p->tok.offset + 1);
            return p->rc;
        }
        sql_node *j = sql__node(p, SQL_JOIN, left->offset);
        if (j == NULL) return p->rc;
        j->join.left = left;
        rc = join_link(p, j);
        sql__finish(p, j);
        left = j;
    }
    if (rc < 0) return rc;
    MU_ASSERT(left != NULL);
    *out = left;
    return 0;
}

static int order_by(sql_parser *p, sql_list *out) {
    do {
        sql_node *item = sql__node(p, SQL_ORDER_ITEM, p->tok.offset);
        if (item == NULL) return p->rc;
        int rc = sql__expr(p, &item->order_item.expr);
        if (rc < 0) return rc;
        if (sql__accept_kw(p, "DESC") || sql__accept_kw(p, "DESCENDING"))
            item->order_item.desc = true;
        else if (!sql__accept_kw(p, "ASC"))
            (void)sql__accept_kw(p, "ASCENDING");
        if (sql__accept_kw(p, "NULLS")) {
            if (sql__accept_kw(p, "FIRST")) item->order_item.nulls = SQL_NULLS_FIRST;
            else if (sql__accept_kw(p, "LAST")) item->order_item.nulls = SQL_NULLS_LAST;
            else return sql__fail_here(p);
        }
        sql__finish(p, item);
        if (sql__list_push(p, out, item) < 0) return p->rc;
    } while (sql__accept(p, SQL_TOK_COMMA));
    return p->rc;
}

/* LIMIT n [OFFSET m] | LIMIT m, n, then BY list for LIMIT BY. The first LIMIT
 * may be a LIMIT BY followed by a plain LIMIT. */
static int limit_clauses(sql_parser *p, sql_node *s) {
    for (int round = 0; round < 2 && sql__accept_kw(p, "LIMIT"); round++) {
        sql_node *count = NULL, *offset = NULL;
        int rc = sql__expr(p, &count);
        if (rc == 0 && sql__accept(p, SQL_TOK_COMMA)) {
            offset = count;
            rc = sql__expr(p, &count);
        } else if (rc == 0 && sql__accept_kw(p, "OFFSET")) {
            rc = sql__expr(p, &offset);
        }
        if (rc < 0) return rc;
        if (round == 0 && sql__accept_kw(p, "BY")) {
            s->select.limit_by_count = count;
            s->select.limit_by_offset = offset;
            rc = sql__expr_list(p, false, &s->select.limit_by);
            if (rc < 0) return rc;
            continue;
        }
        s->select.limit = count;
        s->select.offset = offset;
        break;
    }
    return p->rc;
}

static int select_tail(sql_parser *p, sql_node *s) {
    int rc = 0;
    if (sql__accept_kw(p, "FROM")) rc = from_clause(p, &s->select.from);
    if (rc == 0 && sql__accept_kw(p, "PREWHERE")) rc = sql__expr(p, &s->select.prewhere);
    if (rc == 0 && sql__accept_kw(p, "WHERE")) rc = sql__expr(p, &s->select.where);
    if (rc == 0 && sql__accept_kw(p, "GROUP")) {
        rc = sql__expect_kw(p, "BY");
        if (rc == 0) rc = sql__expr_list(p, false, &s->select.group_by);
    }
    /* WITH TOTALS also stands without GROUP BY (totals of an aggregation
     * over the whole input), as in ClickHouse. */
    if (rc == 0 && sql__is_kw(p, "WITH") && sql__peek_is(p, SQL_TOK_WORD, "TOTALS")) {
        sql__advance(p);
        sql__advance(p);
        s->select.with_totals = true;
    }
    if (rc == 0 && sql__accept_kw(p, "HAVING")) rc = sql__expr(p, &s->select.having);
    if (rc == 0 && sql__accept_kw(p, "ORDER")) {
        rc = sql__expect_kw(p, "BY");
        if (rc == 0) rc = order_by(p, &s->select.order_by);
    }
    if (rc == 0) rc = limit_clauses(p, s);
    if (rc == 0 && sql__accept_kw(p, "SETTINGS")) rc = sql__settings(p, &s->select.settings);
    return rc < 0 ? rc : p->rc;
}

static int select_core(sql_parser *p, sql_node **out) {
    sql_node *s = sql__node(p, SQL_SELECT, p->tok.offset);
    if (s == NULL) return p->rc;
    int rc = 0;
    if (sql__accept_kw(p, "WITH")) rc = with_list(p, &s->select.with);
    if (rc == 0) rc = sql__expect_kw(p, "SELECT");
    if (rc == 0) {
        if (sql__accept_kw(p, "DISTINCT")) s->select.distinct = true;
        else (void)sql__accept_kw(p, "ALL");
        rc = sql__expr_list(p, true, &s->select.columns);
    }
    if (rc == 0) rc = select_tail(p, s);
    if (rc < 0) return rc;
    sql__finish(p, s);
    *out = s;
    return 0;
}

static int query_inner(sql_parser *p, sql_node *q) {
    bool union_distinct = false;
    for (;;) {
        sql_node *s = NULL;
        int rc = select_core(p, &s);
        if (rc < 0) return rc;
        s->select.union_distinct = union_distinct;
        if (sql__list_push(p, &q->query.selects, s) < 0) return p->rc;
        if (!sql__accept_kw(p, "UNION")) break;
        if (q->query.selects.count >= p->depth_max) {
            p->rc = MU_ERR(p->err, MU_ETOO_DEEP, "UNION chain longer than %u (TOO_DEEP_AST)",
                           p->depth_max);
            return p->rc;
        }
        if (sql__accept_kw(p, "ALL")) union_distinct = false;
        else if (sql__accept_kw(p, "DISTINCT")) union_distinct = true;
        else return sql__fail_here(p);
    }
    return p->rc;
}

int sql__query(sql_parser *p, sql_node **out) {
    int rc = sql__enter(p);
    if (rc < 0) return rc;
    sql_node *q = sql__node(p, SQL_QUERY, p->tok.offset);
    rc = q == NULL ? p->rc : query_inner(p, q);
    sql__leave(p);
    if (rc < 0) return rc;
    MU_ASSERT(q->query.selects.count > 0);
    sql__finish(p, q);
    *out = q;
    return 0;
}
