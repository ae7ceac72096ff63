/* parser_stmt.c: statement dispatch and the statements that are not SELECT or
 * DDL with column lists: INSERT (VALUES / FORMAT data tails, INSERT SELECT),
 * DROP, TRUNCATE, RENAME, EXISTS, SHOW, DESCRIBE, USE, SET, OPTIMIZE, DELETE,
 * SYSTEM FLUSH and KILL QUERY. CREATE and ALTER are in parser_ddl.c.
 * Invariant: an INSERT with a data tail stops on its VALUES keyword or FORMAT
 * name without lexing further, so binary data is never tokenised.
 */
#include "sql/sql_int.h"

#include <string.h>

/* A SQL_IDENT of [db.]name. */
static int name_ident(sql_parser *p, sql_node **out) {
    sql_node *n = sql__node(p, SQL_IDENT, p->tok.offset);
    if (n == NULL) return p->rc;
    sql_str db = {0}, name = {0};
    int rc = sql__name_pair(p, &db, &name);
    if (rc < 0) return rc;
    n->ident.count = db.ptr != NULL ? 2 : 1;
    n->ident.parts = mu_arena_alloc(p->arena, 2 * sizeof(sql_str), p->err);
    if (n->ident.parts == NULL) return sql__oom(p);
    n->ident.parts[0] = db.ptr != NULL ? db : name;
    n->ident.parts[1] = name;
    sql__finish(p, n);
    *out = n;
    return 0;
}

/* Where INSERT data starts after FORMAT name: spaces, tabs and form feeds,
 * then at most one "\n" or "\r\n" are separators. */
static size_t insert_data_start(const sql_parser *p, size_t at) {
    const char *s = p->lx.text;
    size_t n = p->lx.length;
    while (at < n && (s[at] == ' ' || s[at] == '\t' || s[at] == '\f')) at++;
    if (at + 1 < n && s[at] == '\r' && s[at + 1] == '\n') return at + 2;
    if (at < n && s[at] == '\n') return at + 1;
    return at;
}

static int insert_source(sql_parser *p, sql_node *n) {
    if (sql__is_kw(p, "VALUES")) {
        n->insert.format = (sql_str){"Values", 6};
        n->insert.data_offset = p->tok.offset + p->tok.length;
        return 0;
    }
    sql__expect_note(p, "VALUES");
    if (sql__accept_kw(p, "FORMAT")) {
        if (p->tok.kind != SQL_TOK_WORD && p->tok.kind != SQL_TOK_QUOTED_IDENT)
            return sql__fail(p, "format name");
        sql_str name;
        if (sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, &name) < 0) return p->rc;
        n->insert.format = name;
        n->insert.data_offset = insert_data_start(p, p->tok.offset + p->tok.length);
        return 0;
    }
    if (sql__at_query_start(p)) return sql__query(p, &n->insert.select);
    sql__expect_note(p, "SELECT");
    sql__expect_note(p, "WITH");
    return sql__fail_here(p);
}

static int stmt_insert(sql_parser *p, sql_node *n) {
    n->kind = SQL_INSERT;
    int rc = sql__expect_kw(p, "INTO");
    if (rc == 0) (void)sql__accept_kw(p, "TABLE");
    if (rc == 0) rc = sql__name_pair(p, &n->insert.database, &n->insert.table);
    if (rc == 0 && sql__accept(p, SQL_TOK_LPAREN)) {
        do {
            sql_node *c = NULL;
            rc = name_ident(p, &c);
            if (rc == 0 && sql__list_push(p, &n->insert.columns, c) < 0) rc = p->rc;
        } while (rc == 0 && sql__accept(p, SQL_TOK_COMMA));
        if (rc == 0) rc = sql__expect(p, SQL_TOK_RPAREN);
    }
    if (rc == 0) rc = insert_source(p, n);
    return rc;
}

/* [IF EXISTS] [db.]name into n->object. */
static int object_name(sql_parser *p, sql_node *n, bool allow_if_exists) {
    if (allow_if_exists && sql__is_kw(p, "IF") && sql__peek_is(p, SQL_TOK_WORD, "EXISTS")) {
        sql__advance(p);
        sql__advance(p);
        n->object.if_exists = true;
    }
    if (n->object.is_database) return sql__ident_word(p, "database name", &n->object.name);
    return sql__name_pair(p, &n->object.database, &n->object.name);
}

static int stmt_drop(sql_parser *p, sql_node *n) {
    n->kind = SQL_DROP;
    if (sql__accept_kw(p, "DATABASE")) n->object.is_database = true;
    else if (!sql__accept_kw(p, "TABLE")) return sql__fail_here(p);
    int rc = object_name(p, n, true);
    if (rc == 0) n->flag = sql__accept_kw(p, "SYNC");
    return rc;
}

static int stmt_rename(sql_parser *p, sql_node *n) {
    n->kind = SQL_RENAME;
    int rc = sql__expect_kw(p, "TABLE");
    do {
        sql_node *from = NULL, *to = NULL;
        if (rc == 0) rc = name_ident(p, &from);
        if (rc == 0) rc = sql__expect_kw(p, "TO");
        if (rc == 0) rc = name_ident(p, &to);
        if (rc == 0 && sql__list_push(p, &n->rename.from, from) < 0) rc = p->rc;
        if (rc == 0 && sql__list_push(p, &n->rename.to, to) < 0) rc = p->rc;
    } while (rc == 0 && sql__accept(p, SQL_TOK_COMMA));
    return rc;
}

static int stmt_show(sql_parser *p, sql_node *n) {
    int rc = 0;
    if (sql__accept_kw(p, "DATABASES")) {
        n->kind = SQL_SHOW_DATABASES;
    } else if (sql__accept_kw(p, "TABLES")) {
        n->kind = SQL_SHOW_TABLES;
        if (sql__accept_kw(p, "FROM") || sql__accept_kw(p, "IN"))
            rc = sql__ident_word(p, "database name", &n->show.from_database);
    } else if (sql__accept_kw(p, "CREATE")) {
        n->kind = SQL_SHOW_CREATE;
        (void)sql__accept_kw(p, "TABLE");
        return object_name(p, n, false);
    } else {
        return sql__fail_here(p);
    }
    if (rc == 0 && sql__is_kw(p, "NOT") && sql__peek_is(p, SQL_TOK_WORD, "LIKE")) {
        sql__advance(p);
        n->show.not_like = true;
        rc = sql__expect_kw(p, "LIKE");
        if (rc == 0) rc = sql__string_literal(p, &n->show.like);
    } else if (rc == 0 && sql__accept_kw(p, "LIKE")) {
        rc = sql__string_literal(p, &n->show.like);
    }
    return rc;
}

static int stmt_system(sql_parser *p, sql_node *n) {
    int rc = sql__expect_kw(p, "FLUSH");
    if (rc < 0) return rc;
    if (sql__accept_kw(p, "LOGS")) {
        n->kind = SQL_SYSTEM_FLUSH_LOGS;
        return p->rc;
    }
    n->kind = SQL_SYSTEM_FLUSH_TABLE;
    (void)sql__accept_kw(p, "TABLE");
    return object_name(p, n, false);
}

static int stmt_kill(sql_parser *p, sql_node *n) {
    n->kind = SQL_KILL_QUERY;
    int rc = sql__expect_kw(p, "QUERY");
    if (rc == 0) rc = sql__expect_kw(p, "WHERE");
    if (rc == 0) rc = sql__expr(p, &n->kill.where);
    if (rc < 0) return rc;
    static const char *const modes[] = {"SYNC", "ASYNC", "TEST"};
    for (size_t i = 0; i < MU_ARRAY_LEN(modes); i++) {
        if (sql__accept_kw(p, modes[i])) {
            n->kill.mode = (sql_str){modes[i], strlen(modes[i])};
            break;
        }
    }
    return p->rc;
}

static int stmt_simple(sql_parser *p, sql_node *n) {
    if (sql__accept_kw(p, "TRUNCATE")) {
        n->kind = SQL_TRUNCATE;
        (void)sql__accept_kw(p, "TABLE");
        return object_name(p, n, true);
    }
    if (sql__accept_kw(p, "EXISTS")) {
        n->kind = SQL_EXISTS;
        if (sql__accept_kw(p, "DATABASE")) n->object.is_database = true;
        else (void)sql__accept_kw(p, "TABLE");
        int rc = object_name(p, n, false);
        return rc == 0 ? sql__format_clause(p, &n->format) : rc;
    }
    if (sql__accept_kw(p, "DESCRIBE") || sql__accept_kw(p, "DESC")) {
        n->kind = SQL_DESCRIBE;
        (void)sql__accept_kw(p, "TABLE");
        int rc = object_name(p, n, false);
        return rc == 0 ? sql__format_clause(p, &n->format) : rc;
    }
    if (sql__accept_kw(p, "USE")) {
        n->kind = SQL_USE;
        n->object.is_database = true;
        return object_name(p, n, false);
    }
    if (sql__accept_kw(p, "SET")) {
        n->kind = SQL_SET;
        return sql__settings(p, &n->set.settings);
    }
    if (sql__accept_kw(p, "OPTIMIZE")) {
        n->kind = SQL_OPTIMIZE;
        int rc = sql__expect_kw(p, "TABLE");
        if (rc == 0) rc = object_name(p, n, false);
        if (rc == 0) n->flag = sql__accept_kw(p, "FINAL");
        return rc;
    }
    if (sql__accept_kw(p, "DELETE")) {
        n->kind = SQL_DELETE;
        int rc = sql__expect_kw(p, "FROM");
        if (rc == 0) rc = sql__name_pair(p, &n->delete_stmt.database, &n->delete_stmt.table);
        if (rc == 0) rc = sql__expect_kw(p, "WHERE");
        if (rc == 0) rc = sql__expr(p, &n->delete_stmt.where);
        return rc;
    }
    return 1;
}

static int stmt_dispatch(sql_parser *p, sql_node *n, sql_node **out) {
    size_t offset = p->tok.offset;
    if (sql__at_query_start(p)) {
        int rc = sql__query(p, out);
        return rc == 0 ? sql__format_clause(p, &(*out)->query.format) : rc;
    }
    sql__expect_note(p, "SELECT");
    sql__expect_note(p, "WITH");
    if (sql__accept_kw(p, "INSERT")) return stmt_insert(p, n);
    if (sql__is_kw(p, "CREATE")) return sql__create(p, offset, out);
    if (sql__is_kw(p, "ALTER")) return sql__alter(p, offset, out);
    if (sql__accept_kw(p, "DROP")) return stmt_drop(p, n);
    if (sql__accept_kw(p, "RENAME")) return stmt_rename(p, n);
    if (sql__accept_kw(p, "SHOW")) {
        int rc = stmt_show(p, n);
        return rc == 0 ? sql__format_clause(p, &n->format) : rc;
    }
    if (sql__accept_kw(p, "SYSTEM")) return stmt_system(p, n);
    if (sql__accept_kw(p, "KILL")) return stmt_kill(p, n);
    int rc = stmt_simple(p, n);
    if (rc != 1) return rc;
    static const char *const more[] = {"EXISTS", "DESCRIBE", "DESC", "USE", "SET", "OPTIMIZE",
                                       "DELETE", "TRUNCATE"};
    for (size_t i = 0; i < MU_ARRAY_LEN(more); i++) sql__expect_note(p, more[i]);
    return sql__fail_here(p);
}

int sql__statement(sql_parser *p, sql_node **out) {
    sql_node *n = sql__node(p, SQL_USE, p->tok.offset);
    if (n == NULL) return p->rc;
    *out = n;
    int rc = stmt_dispatch(p, n, out);
    if (rc < 0) return rc;
    if (p->rc < 0) return p->rc;
    if (*out == n) sql__finish(p, n);
    if (n->kind == SQL_INSERT && n->insert.format.ptr != NULL)
        n->length = n->insert.data_offset > n->offset ? n->insert.data_offset - n->offset : 0;
    MU_ASSERT((*out)->kind > 0 && (*out)->kind < SQL_KIND_COUNT);
    return 0;
}
