/* parser_ddl.c: CREATE DATABASE, CREATE TABLE (columns with DEFAULT /
 * MATERIALIZED / ALIAS, CODEC, COMMENT, TTL; skip indexes; ENGINE and the
 * table clauses; AS SELECT) and ALTER TABLE (ADD / DROP / MODIFY COLUMN,
 * MODIFY TTL, MODIFY SETTING). Column types are kept as canonical type text
 * for ty_type_parse; nothing is checked against a catalog here.
 * Invariant: engine names and index types are SQL_FUNC nodes; `flag` on such a
 * node means it was written without parentheses.
 */
#include "sql/sql_int.h"

#include <string.h>

/* Name or Name(args) as a SQL_FUNC; a bare name sets flag. */
static int func_or_name(sql_parser *p, const char *what, sql_node **out) {
    size_t offset = p->tok.offset;
    sql_str name;
    if (p->tok.kind != SQL_TOK_WORD) return sql__fail(p, what);
    if (sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, &name) < 0) return p->rc;
    sql__advance(p);
    if (p->tok.kind == SQL_TOK_LPAREN) return sql__func_call(p, name, offset, out);
    sql_node *f = sql__node(p, SQL_FUNC, offset);
    if (f == NULL) return p->rc;
    f->func.name = name;
    f->flag = true;
    sql__finish(p, f);
    *out = f;
    return p->rc;
}

static bool column_clause_word(const sql_parser *p) {
    static const char *const words[] = {"DEFAULT", "MATERIALIZED", "ALIAS", "COMMENT",
                                        "CODEC", "TTL"};
    for (size_t i = 0; i < MU_ARRAY_LEN(words); i++)
        if (sql__is_kw(p, words[i])) return true;
    return false;
}

static int column_clauses(sql_parser *p, sql_node *c) {
    static const char *const kinds[] = {"DEFAULT", "MATERIALIZED", "ALIAS"};
    int rc = 0;
    for (int guard = 0; rc == 0 && guard < 8; guard++) {
        bool matched = false;
        for (size_t i = 0; i < MU_ARRAY_LEN(kinds) && !matched; i++) {
            if (c->column_def.default_kind == SQL_DEFAULT_NONE && sql__accept_kw(p, kinds[i])) {
                c->column_def.default_kind = (sql_default_kind)(SQL_DEFAULT_DEFAULT + i);
                rc = sql__expr(p, &c->column_def.default_expr);
                matched = true;
            }
        }
        if (matched) continue;
        if (c->column_def.comment.ptr == NULL && sql__accept_kw(p, "COMMENT")) {
            rc = sql__string_literal(p, &c->column_def.comment);
        } else if (c->column_def.codec == NULL && sql__is_kw(p, "CODEC")) {
            rc = func_or_name(p, "CODEC", &c->column_def.codec);
            if (rc == 0 && c->column_def.codec->flag) rc = sql__fail(p, "(");
        } else if (c->column_def.ttl == NULL && sql__accept_kw(p, "TTL")) {
            rc = sql__expr(p, &c->column_def.ttl);
        } else {
            break;
        }
    }
    return rc < 0 ? rc : p->rc;
}

int sql__column_def(sql_parser *p, sql_node **out) {
    sql_node *c = sql__node(p, SQL_COLUMN_DEF, p->tok.offset);
    if (c == NULL) return p->rc;
    int rc = sql__ident_word(p, "column name", &c->column_def.name);
    if (rc == 0 && !column_clause_word(p)) rc = sql__type_text(p, &c->column_def.type);
    if (rc == 0) rc = column_clauses(p, c);
    if (rc == 0 && c->column_def.type.ptr == NULL && c->column_def.default_expr == NULL)
        rc = sql__fail(p, "column type");
    if (rc < 0) return rc;
    sql__finish(p, c);
    *out = c;
    return 0;
}

static int index_def(sql_parser *p, sql_node **out) {
    sql_node *x = sql__node(p, SQL_INDEX_DEF, p->tok.offset);
    if (x == NULL) return p->rc;
    sql__advance(p); /* INDEX */
    int rc = sql__ident_word(p, "index name", &x->index_def.name);
    if (rc == 0) rc = sql__expr(p, &x->index_def.expr);
    if (rc == 0) rc = sql__expect_kw(p, "TYPE");
    if (rc == 0) rc = func_or_name(p, "index type", &x->index_def.type);
    if (rc == 0 && sql__accept_kw(p, "GRANULARITY")) {
        rc = sql__expr_bp(p, SQL_BP_POSTFIX - 1, &x->index_def.granularity);
        if (rc == 0 && x->index_def.granularity->kind != SQL_LITERAL)
            rc = sql__fail(p, "number");
    }
    if (rc < 0) return rc;
    sql__finish(p, x);
    *out = x;
    return 0;
}

static int table_elements(sql_parser *p, sql_node *n) {
    do {
        sql_node *e = NULL;
        bool is_index = sql__is_kw(p, "INDEX") && !sql__peek_is(p, SQL_TOK_COMMA, NULL);
        int rc = is_index ? index_def(p, &e) : sql__column_def(p, &e);
        if (rc < 0) return rc;
        sql_list *list = is_index ? &n->create.indexes : &n->create.columns;
        if (sql__list_push(p, list, e) < 0) return p->rc;
    } while (sql__accept(p, SQL_TOK_COMMA));
    return sql__expect(p, SQL_TOK_RPAREN);
}

static int table_clause_one(sql_parser *p, sql_node *n, bool *matched) {
    *matched = true;
    if (n->create.order_by == NULL && sql__accept_kw(p, "ORDER")) {
        int rc = sql__expect_kw(p, "BY");
        return rc == 0 ? sql__expr(p, &n->create.order_by) : rc;
    }
    if (n->create.partition_by == NULL && sql__accept_kw(p, "PARTITION")) {
        int rc = sql__expect_kw(p, "BY");
        return rc == 0 ? sql__expr(p, &n->create.partition_by) : rc;
    }
    if (n->create.primary_key == NULL && sql__accept_kw(p, "PRIMARY")) {
        int rc = sql__expect_kw(p, "KEY");
        return rc == 0 ? sql__expr(p, &n->create.primary_key) : rc;
    }
    if (n->create.ttl.count == 0 && sql__accept_kw(p, "TTL"))
        return sql__expr_list(p, false, &n->create.ttl);
    if (n->create.settings.count == 0 && sql__accept_kw(p, "SETTINGS"))
        return sql__settings(p, &n->create.settings);
    if (n->create.comment.ptr == NULL && sql__accept_kw(p, "COMMENT"))
        return sql__string_literal(p, &n->create.comment);
    *matched = false;
    return p->rc;
}

/* ENGINE [=] Name[(args)], then the table clauses in any order, once each. */
static int engine_clauses(sql_parser *p, sql_node *n) {
    int rc = 0;
    if (sql__accept_kw(p, "ENGINE")) {
        (void)sql__accept(p, SQL_TOK_EQ);
        rc = func_or_name(p, "engine name", &n->create.engine);
    }
    bool matched = true;
    for (int guard = 0; rc == 0 && matched && guard < 8; guard++)
        rc = table_clause_one(p, n, &matched);
    return rc;
}

static int create_table(sql_parser *p, sql_node *n) {
    n->kind = SQL_CREATE_TABLE;
    int rc = sql__name_pair(p, &n->create.database, &n->create.name);
    if (rc == 0 && sql__accept(p, SQL_TOK_LPAREN)) rc = table_elements(p, n);
    if (rc == 0) rc = engine_clauses(p, n);
    if (rc == 0 && sql__accept_kw(p, "AS")) {
        if (!sql__at_query_start(p)) return sql__fail(p, "SELECT");
        rc = sql__query(p, &n->create.as_select);
    }
    if (rc < 0) return rc;
    if (n->create.columns.count == 0 && n->create.as_select == NULL)
        return sql__fail(p, "AS SELECT");
    return 0;
}

int sql__create(sql_parser *p, size_t offset, sql_node **out) {
    sql_node *n = sql__node(p, SQL_CREATE_TABLE, offset);
    if (n == NULL) return p->rc;
    *out = n;
    int rc = sql__expect_kw(p, "CREATE");
    bool database = rc == 0 && sql__accept_kw(p, "DATABASE");
    if (rc == 0 && !database) rc = sql__expect_kw(p, "TABLE");
    if (rc == 0 && sql__is_kw(p, "IF")) {
        sql__advance(p);
        rc = sql__expect_kw(p, "NOT");
        if (rc == 0) rc = sql__expect_kw(p, "EXISTS");
        n->create.if_not_exists = true;
    }
    if (rc < 0) return rc;
    if (database) {
        n->kind = SQL_CREATE_DATABASE;
        rc = sql__ident_word(p, "database name", &n->create.name);
        if (rc == 0 && sql__accept_kw(p, "ENGINE")) {
            (void)sql__accept(p, SQL_TOK_EQ);
            rc = func_or_name(p, "engine name", &n->create.engine);
        }
        if (rc == 0 && sql__accept_kw(p, "COMMENT"))
            rc = sql__string_literal(p, &n->create.comment);
    } else {
        rc = create_table(p, n);
    }
    if (rc < 0) return rc;
    sql__finish(p, n);
    return 0;
}

/* [IF [NOT] EXISTS] after ADD/DROP/MODIFY COLUMN. */
static void alter_if(sql_parser *p, sql_node *c, bool with_not) {
    if (!sql__is_kw(p, "IF")) return;
    if (with_not ? !sql__peek_is(p, SQL_TOK_WORD, "NOT") : !sql__peek_is(p, SQL_TOK_WORD, "EXISTS"))
        return;
    sql__advance(p);
    if (with_not) sql__advance(p);
    if (sql__expect_kw(p, "EXISTS") == 0) c->alter_cmd.if_flag = true;
}

static int alter_cmd(sql_parser *p, sql_node *c) {
    int rc = 0;
    if (sql__accept_kw(p, "ADD")) {
        c->alter_cmd.kind = SQL_ALTER_ADD_COLUMN;
        rc = sql__expect_kw(p, "COLUMN");
        if (rc == 0) alter_if(p, c, true);
        if (rc == 0) rc = sql__column_def(p, &c->alter_cmd.column);
        if (rc == 0 && sql__accept_kw(p, "AFTER"))
            rc = sql__ident_word(p, "column name", &c->alter_cmd.after);
        else if (rc == 0)
            c->alter_cmd.first = sql__accept_kw(p, "FIRST");
    } else if (sql__accept_kw(p, "DROP")) {
        c->alter_cmd.kind = SQL_ALTER_DROP_COLUMN;
        rc = sql__expect_kw(p, "COLUMN");
        if (rc == 0) alter_if(p, c, false);
        if (rc == 0) rc = sql__ident_word(p, "column name", &c->alter_cmd.name);
    } else if (sql__accept_kw(p, "MODIFY")) {
        if (sql__accept_kw(p, "COLUMN")) {
            c->alter_cmd.kind = SQL_ALTER_MODIFY_COLUMN;
            alter_if(p, c, false);
            rc = sql__column_def(p, &c->alter_cmd.column);
        } else if (sql__accept_kw(p, "TTL")) {
            c->alter_cmd.kind = SQL_ALTER_MODIFY_TTL;
            rc = sql__expr_list(p, false, &c->alter_cmd.exprs);
        } else if (sql__accept_kw(p, "SETTING")) {
            c->alter_cmd.kind = SQL_ALTER_MODIFY_SETTING;
            rc = sql__settings(p, &c->alter_cmd.exprs);
        } else {
            rc = sql__fail_here(p);
        }
    } else {
        rc = sql__fail_here(p);
    }
    return rc < 0 ? rc : p->rc;
}

int sql__alter(sql_parser *p, size_t offset, sql_node **out) {
    sql_node *n = sql__node(p, SQL_ALTER, offset);
    if (n == NULL) return p->rc;
    *out = n;
    int rc = sql__expect_kw(p, "ALTER");
    if (rc == 0) rc = sql__expect_kw(p, "TABLE");
    if (rc == 0) rc = sql__name_pair(p, &n->alter.database, &n->alter.table);
    do {
        sql_node *c = rc == 0 ? sql__node(p, SQL_ALTER_CMD, p->tok.offset) : NULL;
        if (c == NULL) return rc < 0 ? rc : p->rc;
        rc = alter_cmd(p, c);
        if (rc < 0) return rc;
        sql__finish(p, c);
        if (sql__list_push(p, &n->alter.commands, c) < 0) return p->rc;
    } while (sql__accept(p, SQL_TOK_COMMA));
    sql__finish(p, n);
    return p->rc;
}
