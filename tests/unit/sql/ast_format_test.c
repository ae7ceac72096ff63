/* ast_format_test.c: goal — the printer renders the canonical SQL the README
 * promises (keyword case, spacing, minimal parentheses by binding power,
 * quoting of identifiers only when needed, string escapes including NUL and
 * control bytes), its output re-parses to the same AST, and it fails cleanly
 * (TOO_DEEP_AST, buffer limit) instead of overflowing.
 */
#include "sql_test_util.h"

typedef struct canon_case {
    const char *in;
    const char *out;
} canon_case;

static const canon_case canon_cases[] = {
    {"select 1", "SELECT 1"},
    {"select  a,b  from  t", "SELECT a, b FROM t"},
    {"SELECT (1 + 2) * 3, 1 + (2 * 3), (1 + 2) + 3, 1 + (2 + 3)",
     "SELECT (1 + 2) * 3, 1 + 2 * 3, 1 + 2 + 3, 1 + (2 + 3)"},
    {"SELECT ((a)), (a AND b) OR c, a AND (b OR c)", "SELECT a, a AND b OR c, a AND (b OR c)"},
    {"SELECT -(-1), - - 1, -(a+b), - a", "SELECT -(-1), -(-1), -(a + b), -a"},
    {"SELECT NOT (a = b), (NOT a) = b", "SELECT NOT a = b, (NOT a) = b"},
    {"SELECT a <> b, a == b", "SELECT a != b, a = b"},
    {"SELECT x -> (x + 1), (x, y) -> x", "SELECT x -> x + 1, (x, y) -> x"},
    {"SELECT a ? b : (c ? d : e), (a ? b : c) ? d : e",
     "SELECT a ? b : c ? d : e, (a ? b : c) ? d : e"},
    {"SELECT 'it''s', 'tab\there', 'nl\\n', '\\x01\\x7F'",
     "SELECT 'it\\'s', 'tab\\there', 'nl\\n', '\\x01\\x7F'"},
    {"SELECT `a`, `a b`, \"select\", `1x`, `x$`", "SELECT a, `a b`, `select`, `1x`, `x$`"},
    {"SELECT a AS `b`, c d", "SELECT a AS b, c AS d"},
    {"SELECT count(distinct x), quantile(0.5)(y)", "SELECT count(DISTINCT x), quantile(0.5)(y)"},
    {"select cast(x as Decimal( 10 ,2 ))", "SELECT CAST(x AS Decimal(10, 2))"},
    {"SELECT x::Nullable( String )", "SELECT x::Nullable(String)"},
    {"SELECT interval 2 days", "SELECT INTERVAL 2 DAY"},
    {"SELECT extract(year from d)", "SELECT EXTRACT(YEAR FROM d)"},
    {"SELECT case when a then b else c end", "SELECT CASE WHEN a THEN b ELSE c END"},
    {"SELECT (1), (1,), (1, 2)", "SELECT 1, (1,), (1, 2)"},
    {"SELECT * FROM a left outer join b using x",
     "SELECT * FROM a LEFT JOIN b USING (x)"},
    {"SELECT * FROM a join b on a.x = b.x", "SELECT * FROM a INNER JOIN b ON a.x = b.x"},
    {"SELECT * FROM t final", "SELECT * FROM t FINAL"},
    {"SELECT a FROM t ORDER BY a asc, b desc nulls first",
     "SELECT a FROM t ORDER BY a, b DESC NULLS FIRST"},
    {"SELECT a FROM t LIMIT 5, 10", "SELECT a FROM t LIMIT 10 OFFSET 5"},
    {"select 1 union all select 2 format JSON", "SELECT 1 UNION ALL SELECT 2 FORMAT JSON"},
    {"WITH x AS (select 1) SELECT * FROM x", "WITH x AS (SELECT 1) SELECT * FROM x"},
    {"insert into t(a,b) values (1,2)", "INSERT INTO t (a, b) VALUES"},
    {"insert into t format CSV\n1,2", "INSERT INTO t FORMAT CSV"},
    {"create table t (a UInt8) engine=MergeTree() order by a",
     "CREATE TABLE t (a UInt8) ENGINE = MergeTree() ORDER BY a"},
    {"create table t (a UInt8) engine=MergeTree order by a partition by a",
     "CREATE TABLE t (a UInt8) ENGINE = MergeTree PARTITION BY a ORDER BY a"},
    {"create table t (`index` UInt8, `default` String) engine=Memory",
     "CREATE TABLE t (`index` UInt8, `default` String) ENGINE = Memory"},
    {"desc t", "DESCRIBE TABLE t"},
    {"exists t", "EXISTS TABLE t"},
    {"truncate t", "TRUNCATE TABLE t"},
    {"show create t", "SHOW CREATE TABLE t"},
    {"system flush t", "SYSTEM FLUSH TABLE t"},
    {"set a=1,b='x'", "SET a = 1, b = 'x'"},
    {"SELECT true, FALSE, null, Inf, NaN", "SELECT true, false, NULL, Inf, NaN"},
    {"SELECT 0x1F, 1e3, .5", "SELECT 0x1F, 1e3, .5"},
    {"SELECT a.b.c, t.*, t.1", "SELECT a.b.c, t.*, t.1"},
    {"SELECT ('a').1, (1).1", "SELECT ('a').1, (1).1"},
    {"SELECT a IN ('x'), a IN t, a IN (SELECT 1), a IN (1, 2)",
     "SELECT a IN ('x'), a IN t, a IN (SELECT 1), a IN (1, 2)"},
    {"SELECT * FROM system.settings", "SELECT * FROM system.settings"},
    {"SELECT substring(s FROM 2 FOR 3), SUBSTRING(s FROM 2), substring(s, 1, 2)",
     "SELECT substring(s, 2, 3), SUBSTRING(s, 2), substring(s, 1, 2)"},
    {"SELECT t.`from`, t.`1`, `select`.x FROM t", "SELECT t.from, t.`1`, `select`.x FROM t"},
};

static void test_canonical(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(canon_cases); i++) {
        char out[2048];
        mu_err err;
        mu_err_clear(&err);
        int rc = sqlt_format(canon_cases[i].in, out, sizeof(out), &err);
        if (rc != 0) fail_msg("%s: %s", canon_cases[i].in, err.message);
        if (strcmp(out, canon_cases[i].out) != 0)
            fail_msg("%s\n  got:  %s\n  want: %s", canon_cases[i].in, out, canon_cases[i].out);
        sqlt_round_trip(canon_cases[i].in);
    }
}

/* A string literal holding every byte value formats and re-parses to the
 * same bytes. */
static void test_string_bytes(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    char bytes[256];
    for (int i = 0; i < 256; i++) bytes[i] = (char)i;
    sql_node lit;
    memset(&lit, 0, sizeof(lit));
    lit.kind = SQL_LITERAL;
    lit.literal.kind = SQL_LIT_STRING;
    lit.literal.text = (sql_str){bytes, sizeof(bytes)};
    sql_node *col = &lit;
    sql_node sel;
    memset(&sel, 0, sizeof(sel));
    sel.kind = SQL_SELECT;
    sel.select.columns = (sql_list){&col, 1};
    mu_buf out;
    mu_buf_init(&out, 0);
    mu_err err;
    assert_int_equal(sql_ast_format(&sel, &out, &err), 0);
    sql_node *stmt = NULL;
    assert_int_equal(sql_parse((const char *)out.data, out.length_bytes, arena, NULL, &stmt, &err),
                     0);
    sql_node *back = stmt->query.selects.items[0]->select.columns.items[0];
    assert_int_equal(back->literal.text.length, 256);
    assert_memory_equal(back->literal.text.ptr, bytes, 256);
    /* Identifiers too. */
    sql_str parts[1] = {{bytes + 1, 255}};
    sql_node id;
    memset(&id, 0, sizeof(id));
    id.kind = SQL_IDENT;
    id.ident.parts = parts;
    id.ident.count = 1;
    col = &id;
    mu_buf_clear(&out);
    assert_int_equal(sql_ast_format(&sel, &out, &err), 0);
    assert_int_equal(sql_parse((const char *)out.data, out.length_bytes, arena, NULL, &stmt, &err),
                     0);
    back = stmt->query.selects.items[0]->select.columns.items[0];
    assert_int_equal(back->ident.parts[0].length, 255);
    assert_memory_equal(back->ident.parts[0].ptr, bytes + 1, 255);
    mu_buf_deinit(&out);
    mu_arena_destroy(arena);
}

static void test_too_deep(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    mu_err err;
    /* A hand-built chain far deeper than the parser would produce. */
    sql_node *leaf = mu_arena_calloc(arena, 1, sizeof(sql_node), &err);
    leaf->kind = SQL_LITERAL;
    leaf->literal.kind = SQL_LIT_UINT;
    leaf->literal.text = (sql_str){"1", 1};
    sql_node *top = leaf;
    for (int i = 0; i < 20000; i++) {
        sql_node *n = mu_arena_calloc(arena, 1, sizeof(sql_node), &err);
        n->kind = SQL_UNARY;
        n->unary.op = SQL_OP_NOT;
        n->unary.operand = top;
        top = n;
    }
    mu_buf out;
    mu_buf_init(&out, 0);
    assert_int_equal(sql_ast_format(top, &out, &err), MU_ETOO_DEEP);
    mu_buf_deinit(&out);
    mu_arena_destroy(arena);
}

static void test_buffer_limit(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    sql_node *stmt = NULL;
    mu_err err;
    const char *sql = "SELECT aaaaaaaaaa, bbbbbbbbbb, cccccccccc FROM t";
    assert_int_equal(sql_parse(sql, strlen(sql), arena, NULL, &stmt, &err), 0);
    mu_buf out;
    mu_buf_init(&out, 16);
    assert_int_equal(sql_ast_format(stmt, &out, &err), MU_ETOO_LARGE);
    mu_buf_deinit(&out);
    mu_arena_destroy(arena);
}

static void test_names(void **state) {
    (void)state;
    for (int k = 1; k < SQL_KIND_COUNT; k++)
        assert_string_not_equal(sql_kind_name((sql_kind)k), "?");
    assert_string_equal(sql_kind_name(SQL_KIND_COUNT), "?");
    for (int op = 1; op < SQL_OP_COUNT; op++) assert_string_not_equal(sql_op_text((sql_op)op), "?");
    assert_string_equal(sql_op_text(SQL_OP_NOT_ILIKE), "NOT ILIKE");
    assert_true(sql_word_is_reserved("select", 6));
    assert_true(sql_word_is_reserved("FROM", 4));
    assert_false(sql_word_is_reserved("fromage", 7));
    assert_false(sql_word_is_reserved("number", 6));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical),
        cmocka_unit_test(test_string_bytes),
        cmocka_unit_test(test_too_deep),
        cmocka_unit_test(test_buffer_limit),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
