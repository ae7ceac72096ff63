/* lambda_test.c: the higher-order array functions of src/exec/lambda.c
 * through exec_expr_call_lambda, as the SQL binder builds them: a body
 * bound over inputs [parameters..., captures...], constant and column
 * arrays, several arrays, captured outer columns, nested lambdas,
 * LowCardinality and Nullable elements, lambdas that return NULL, and the
 * errors (code and message). Expected text and type names are what
 * ClickHouse prints for the same calls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/exec.h"

/* ---- harness ------------------------------------------------------- */

#define T_INPUTS_MAX 8
#define T_ARGS_MAX 8

static struct {
    mu_arena *arena;
    exec_context ctx;
    exec_builder b;
    ty_column *inputs[T_INPUTS_MAX];
    uint32_t input_count;
    uint32_t rows;
    mu_err err;
    char text[65536];
} T;

static int t_setup(void **state) {
    (void)state;
    memset(&T, 0, sizeof(T));
    mu_err err;
    if (mu_arena_create(&T.arena, NULL, 1 << 16, &err) != 0) return -1;
    T.ctx.timezone = ty_tz_utc();
    T.ctx.database = "default";
    T.ctx.version = "24.8.1.1";
    T.rows = 1;
    return exec_builder_init(&T.b, &T.ctx, T.arena, &err);
}

static int t_teardown(void **state) {
    (void)state;
    for (uint32_t i = 0; i < T.input_count; i++) ty_column_destroy(T.inputs[i]);
    exec_builder_deinit(&T.b);
    mu_arena_destroy(T.arena);
    memset(&T, 0, sizeof(T));
    return 0;
}

static const ty_type *t_type(const char *name) {
    const ty_type *t;
    mu_err err;
    if (ty_type_parse(name, T.arena, &t, &err) != 0) fail_msg("type %s: %s", name, err.message);
    return t;
}

static void t_append(ty_column *c, const char *text) {
    mu_err err;
    int rc = text ? ty_column_append_text(c, text, strlen(text), &err)
                  : ty_column_append_null(c, &err);
    if (rc != 0) fail_msg("value %s: %s", text ? text : "NULL", err.message);
}

/* A constant of `type` in ClickHouse's quoted text form. */
static exec_expr *K(const char *type, const char *text) {
    ty_column *c;
    exec_expr *e;
    mu_err err;
    assert_int_equal(ty_column_create(t_type(type), NULL, &c, &err), 0);
    t_append(c, text);
    assert_int_equal(exec_expr_const_take(&T.b, c, &e, &err), 0);
    return e;
}

/* An input column of the query (every column of a test has the same rows). */
static exec_expr *COL(const char *type, uint32_t n, const char *const *values) {
    ty_column *c;
    exec_expr *e;
    mu_err err;
    assert_true(T.input_count < T_INPUTS_MAX);
    assert_int_equal(ty_column_create(t_type(type), NULL, &c, &err), 0);
    for (uint32_t i = 0; i < n; i++) t_append(c, values[i]);
    T.rows = n;
    T.inputs[T.input_count] = c;
    assert_int_equal(exec_expr_input(&T.b, T.input_count++, c->type, &e, &err), 0);
    return e;
}

#define ARR(...) ((const char *const[]){__VA_ARGS__})
#define N(...) (sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
#define C(type, ...) COL(type, N(__VA_ARGS__), ARR(__VA_ARGS__))

/* Input `index` of a lambda body (a parameter, then the captures). */
static exec_expr *P(uint32_t index, const char *type) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_input(&T.b, index, t_type(type), &e, &err), 0);
    return e;
}

static exec_expr *U(uint64_t v) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_uint(&T.b, v, &e, &err), 0);
    return e;
}
static exec_expr *I(int64_t v) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_int(&T.b, v, &e, &err), 0);
    return e;
}
static exec_expr *S(const char *s) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_string(&T.b, s, strlen(s), &e, &err), 0);
    return e;
}
static exec_expr *NUL(void) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_null(&T.b, &e, &err), 0);
    return e;
}

/* An ordinary call (for bodies). */
static exec_expr *F(const char *name, uint32_t n, ...) {
    exec_expr **args = mu_arena_calloc(T.arena, n ? n : 1, sizeof(*args), NULL);
    va_list ap;
    va_start(ap, n);
    for (uint32_t i = 0; i < n; i++) args[i] = va_arg(ap, exec_expr *);
    va_end(ap);
    exec_expr *e;
    mu_err err;
    if (exec_expr_call(&T.b, name, args, n, &e, &err) != 0) fail_msg("%s: %s", name, err.message);
    return e;
}

/* name(body, arrays...) with `np` arrays followed by `nc` captures. */
static int t_lambda_v(const char *name, exec_expr *body, uint32_t np, uint32_t nc,
                      exec_expr **out, va_list ap) {
    exec_expr *arrays[T_ARGS_MAX], *captures[T_ARGS_MAX];
    assert_true(np <= T_ARGS_MAX && nc <= T_ARGS_MAX);
    for (uint32_t i = 0; i < np; i++) arrays[i] = va_arg(ap, exec_expr *);
    for (uint32_t i = 0; i < nc; i++) captures[i] = va_arg(ap, exec_expr *);
    mu_err_clear(&T.err);
    return exec_expr_call_lambda(&T.b, name, body, np, arrays, captures, nc, out, &T.err);
}

static exec_expr *L(const char *name, exec_expr *body, uint32_t np, uint32_t nc, ...) {
    va_list ap;
    va_start(ap, nc);
    exec_expr *e = NULL;
    int rc = t_lambda_v(name, body, np, nc, &e, ap);
    va_end(ap);
    if (rc != 0) fail_msg("%s: %s", name, T.err.message);
    return e;
}

static int L_ERR(const char *name, exec_expr *body, uint32_t np, uint32_t nc, ...) {
    va_list ap;
    va_start(ap, nc);
    exec_expr *e = NULL;
    int rc = t_lambda_v(name, body, np, nc, &e, ap);
    va_end(ap);
    if (rc == 0) fail_msg("%s bound without an error", name);
    return rc;
}

/* "Type: row0 | row1 | ..." of e over the test's input rows. */
static const char *EVAL(const exec_expr *e) {
    ty_column *c;
    mu_err err;
    mu_buf b;
    uint32_t rows = e->kind == EXEC_EXPR_CONST ? 1 : T.rows;
    if (exec_eval_full(e, &T.ctx, (const ty_column *const *)T.inputs, rows, &c, &err) != 0)
        fail_msg("eval: %s", err.message);
    mu_buf_init(&b, 0);
    assert_int_equal(ty_type_render(e->type, &b, &err), 0);
    assert_int_equal(mu_buf_append_str(&b, ":", &err), 0);
    assert_int_equal(ty_column_validate(c, &err), 0);
    for (uint32_t r = 0; r < ty_column_row_count(c); r++) {
        assert_int_equal(mu_buf_append_str(&b, r ? " | " : " ", &err), 0);
        assert_int_equal(ty_column_render_text(c, r, 0, &b, &err), 0);
    }
    size_t n = MU_MIN(b.length_bytes, sizeof(T.text) - 1);
    memcpy(T.text, b.data, n);
    T.text[n] = 0;
    mu_buf_deinit(&b);
    ty_column_destroy(c);
    return T.text;
}

static int EVAL_ERR(const exec_expr *e) {
    ty_column *c = NULL;
    mu_err_clear(&T.err);
    int rc = exec_eval_full(e, &T.ctx, (const ty_column *const *)T.inputs, T.rows, &c, &T.err);
    ty_column_destroy(c);
    if (rc == 0) fail_msg("evaluation succeeded");
    return rc;
}

#define EXPECT(e, text) assert_string_equal(EVAL(e), text)
#define EXPECT_ERR(code, msg, call) \
    do { \
        assert_int_equal(call, code); \
        assert_string_equal(T.err.message, msg); \
    } while (0)

/* ---- arrayMap ------------------------------------------------------ */

static void test_map(void **state) {
    (void)state;
    exec_expr *x = P(0, "UInt8");
    exec_expr *m = L("arrayMap", F("multiply", 2, x, U(2)), 1, 0, K("Array(UInt8)", "[1,2,3]"));
    assert_int_equal(m->kind, EXEC_EXPR_CONST); /* constant arrays fold */
    EXPECT(m, "Array(UInt16): [2,4,6]");
    EXPECT(L("arrayMap", F("concat", 2, P(0, "String"), S("!")), 1, 0,
             K("Array(String)", "['a','b']")),
           "Array(String): ['a!','b!']");
    EXPECT(L("arrayMap", F("plus", 2, P(0, "UInt8"), P(1, "UInt8")), 2, 0,
             K("Array(UInt8)", "[1,2]"), K("Array(UInt8)", "[10,20]")),
           "Array(UInt16): [11,22]");
    EXPECT(L("arrayMap", U(1), 1, 0, K("Array(Nothing)", "[]")), "Array(UInt8): []");
    EXPECT(L("arrayMap", NUL(), 1, 0, K("Array(UInt8)", "[1]")),
           "Array(Nullable(Nothing)): [NULL]");
}

static void test_map_columns(void **state) {
    (void)state;
    /* arrayMap(x -> x + n, a) over rows: the capture repeats per element. */
    exec_expr *a = C("Array(UInt8)", "[1,2]", "[]", "[3]");
    exec_expr *n = C("UInt8", "10", "20", "30");
    exec_expr *body = F("plus", 2, P(0, "UInt8"), P(1, "UInt8"));
    exec_expr *m = L("arrayMap", body, 1, 1, a, n);
    assert_int_equal(m->kind, EXEC_EXPR_CALL);
    EXPECT(m, "Array(UInt16): [11,12] | [] | [33]");
    /* A constant array with a column capture. */
    EXPECT(L("arrayMap", body, 1, 1, K("Array(UInt8)", "[1,2]"), n),
           "Array(UInt16): [11,12] | [21,22] | [31,32]");
    /* Nested: arrayMap(x -> arrayMap(y -> y + x, [1, 2]), [10, 20]). */
    exec_expr *inner = L("arrayMap", F("plus", 2, P(0, "UInt8"), P(1, "UInt8")), 1, 1,
                         K("Array(UInt8)", "[1,2]"), P(0, "UInt8"));
    EXPECT(L("arrayMap", inner, 1, 0, K("Array(UInt8)", "[10,20]")),
           "Array(Array(UInt16)): [[11,12],[21,22]]");
}

static void test_map_errors(void **state) {
    (void)state;
    exec_expr *a = C("Array(UInt8)", "[1,2]", "[3]");
    exec_expr *b = C("Array(UInt8)", "[1,2]", "[]");
    exec_expr *m = L("arrayMap", F("plus", 2, P(0, "UInt8"), P(1, "UInt8")), 2, 0, a, b);
    EXPECT_ERR(MU_EARRAY_SIZES, "Arrays passed to arrayMap must have equal size. Argument 3 "
               "has size 0 which differs with the size of another argument, 1",
               EVAL_ERR(m));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Argument 2 of function arrayMap must be Array. Found UInt8 "
               "instead", L_ERR("arrayMap", P(0, "UInt8"), 1, 0, U(1)));
    EXPECT_ERR(MU_EUNKNOWN_FUNCTION, "Unknown function arrayNope",
               L_ERR("arrayNope", P(0, "UInt8"), 1, 0, a));
    assert_true(exec_function_takes_lambda("arrayMap"));
    assert_true(exec_function_takes_lambda("arrayReverseFill"));
    assert_false(exec_function_takes_lambda("arrayConcat"));
    assert_false(exec_function_takes_lambda("length"));
}

/* ---- arrayFilter, arrayExists, arrayAll, arrayCount ---------------- */

static void test_filter_and_tests(void **state) {
    (void)state;
    exec_expr *even = F("equals", 2, F("modulo", 2, P(0, "UInt8"), U(2)), U(0));
    exec_expr *k = K("Array(UInt8)", "[1,2,3,4]");
    EXPECT(L("arrayFilter", even, 1, 0, k), "Array(UInt8): [2,4]");
    EXPECT(L("arrayFilter", U(0), 1, 0, K("Array(UInt8)", "[1]")), "Array(UInt8): []");
    EXPECT(L("arrayFilter", F("notEquals", 2, P(0, "String"), S("")), 1, 0,
             K("Array(String)", "['a','','b']")),
           "Array(String): ['a','b']");
    /* The lambda sees the second array; the first is filtered. */
    EXPECT(L("arrayFilter", F("greater", 2, P(1, "UInt8"), U(0)), 2, 0,
             K("Array(String)", "['a','b','c']"), K("Array(UInt8)", "[0,1,2]")),
           "Array(String): ['b','c']");
    exec_expr *gt1 = F("greater", 2, P(0, "UInt8"), U(1));
    exec_expr *a = C("Array(UInt8)", "[1,2,3]", "[]", "[0]");
    EXPECT(L("arrayExists", gt1, 1, 0, a), "UInt8: 1 | 0 | 0");
    EXPECT(L("arrayAll", gt1, 1, 0, a), "UInt8: 0 | 1 | 0");
    EXPECT(L("arrayCount", gt1, 1, 0, a), "UInt32: 2 | 0 | 0");
    EXPECT(L("arrayFilter", gt1, 1, 0, a), "Array(UInt8): [2,3] | [] | []");
}

static void test_boolean_results(void **state) {
    (void)state;
    /* A Nullable(UInt8) result: NULL counts as false. */
    exec_expr *a = K("Array(Nullable(UInt8))", "[1,NULL,3]");
    exec_expr *gt1 = F("greater", 2, P(0, "Nullable(UInt8)"), U(1));
    EXPECT(L("arrayFilter", gt1, 1, 0, a), "Array(Nullable(UInt8)): [3]");
    EXPECT(L("arrayCount", gt1, 1, 0, a), "UInt32: 1");
    /* A lambda that returns NULL (Nullable(Nothing)) is never true. */
    EXPECT(L("arrayCount", NUL(), 1, 0, K("Array(UInt8)", "[1,2]")), "UInt32: 0");
    EXPECT(L("arrayAll", NUL(), 1, 0, K("Array(UInt8)", "[1,2]")), "UInt8: 0");
    EXPECT(L("arrayFilter", K("Bool", "true"), 1, 0, K("Array(UInt8)", "[1,2]")),
           "Array(UInt8): [1,2]");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Expression for function arrayFilter must return UInt8 or "
               "Nullable(UInt8), found Float64",
               L_ERR("arrayFilter", P(0, "Float64"), 1, 0, K("Array(Float64)", "[1.5]")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Expression for function arrayCount must return UInt8 or "
               "Nullable(UInt8), found UInt16",
               L_ERR("arrayCount", P(0, "UInt16"), 1, 0, K("Array(UInt16)", "[1]")));
}

/* ---- arrayFirst, arrayLast and their Index / OrNull forms ---------- */

static void test_first_last(void **state) {
    (void)state;
    exec_expr *gt1 = F("greater", 2, P(0, "UInt8"), U(1));
    exec_expr *k = K("Array(UInt8)", "[1,2,3]");
    EXPECT(L("arrayFirst", gt1, 1, 0, k), "UInt8: 2");
    EXPECT(L("arrayLast", gt1, 1, 0, k), "UInt8: 3");
    EXPECT(L("arrayFirstIndex", gt1, 1, 0, k), "UInt32: 2");
    EXPECT(L("arrayLastIndex", gt1, 1, 0, k), "UInt32: 3");
    exec_expr *gt5 = F("greater", 2, P(0, "UInt8"), U(5));
    EXPECT(L("arrayFirst", gt5, 1, 0, k), "UInt8: 0");
    EXPECT(L("arrayFirstIndex", gt5, 1, 0, k), "UInt32: 0");
    EXPECT(L("arrayFirstOrNull", gt5, 1, 0, k), "Nullable(UInt8): \\N");
    EXPECT(L("arrayLastOrNull", gt1, 1, 0, k), "Nullable(UInt8): 3");
    exec_expr *s = C("Array(String)", "['a','b']", "[]", "['b','b']");
    exec_expr *is_b = F("equals", 2, P(0, "String"), S("b"));
    EXPECT(L("arrayFirst", is_b, 1, 0, s), "String: b |  | b");
    EXPECT(L("arrayLastIndex", is_b, 1, 0, s), "UInt32: 2 | 0 | 2");
    EXPECT(L("arrayFirstOrNull", is_b, 1, 0, s), "Nullable(String): b | \\N | b");
    /* Elements that cannot be Nullable stay as they are. */
    EXPECT(L("arrayFirstOrNull", U(1), 1, 0, K("Array(Array(UInt8))", "[[1]]")),
           "Array(UInt8): [1]");
}

/* ---- arraySort, arrayReverseSort, arrayCompact --------------------- */

static void test_sort(void **state) {
    (void)state;
    exec_expr *neg = F("negate", 1, P(0, "UInt8"));
    EXPECT(L("arraySort", neg, 1, 0, K("Array(UInt8)", "[1,3,2]")), "Array(UInt8): [3,2,1]");
    EXPECT(L("arrayReverseSort", neg, 1, 0, K("Array(UInt8)", "[1,3,2]")),
           "Array(UInt8): [1,2,3]");
    /* Sorted by the second array. */
    EXPECT(L("arraySort", P(1, "UInt8"), 2, 0, K("Array(String)", "['a','b','c']"),
             K("Array(UInt8)", "[3,1,2]")),
           "Array(String): ['b','c','a']");
    EXPECT(L("arrayReverseSort", P(1, "String"), 2, 0, K("Array(UInt8)", "[4,3,5]"),
             K("Array(String)", "['a','b','c']")),
           "Array(UInt8): [5,3,4]");
    /* NaN and NULL keys last in both directions; equal keys keep their order. */
    exec_expr *f = K("Array(Nullable(Float64))", "[3,NULL,1,nan,1]");
    EXPECT(L("arraySort", P(0, "Nullable(Float64)"), 1, 0, f),
           "Array(Nullable(Float64)): [1,1,3,nan,NULL]");
    EXPECT(L("arrayReverseSort", P(0, "Nullable(Float64)"), 1, 0, f),
           "Array(Nullable(Float64)): [3,1,1,nan,NULL]");
    exec_expr *c = C("Array(Int8)", "[1,-5,3]", "[]", "[2,-2]");
    EXPECT(L("arraySort", F("abs", 1, P(0, "Int8")), 1, 0, c),
           "Array(Int8): [1,3,-5] | [] | [2,-2]");
    EXPECT(L("arrayCompact", F("abs", 1, P(0, "Int8")), 1, 0, c),
           "Array(Int8): [1,-5,3] | [] | [2]");
    EXPECT(L("arrayCompact", F("intDiv", 2, P(0, "UInt8"), U(10)), 1, 0,
             K("Array(UInt8)", "[1,5,12,19,3]")),
           "Array(UInt8): [1,12,3]");
}

/* ---- arraySplit, arrayFill ----------------------------------------- */

static void test_split_fill(void **state) {
    (void)state;
    exec_expr *a = K("Array(UInt8)", "[1,2,3,4,5]"), *cut = K("Array(UInt8)", "[1,0,0,1,0]");
    EXPECT(L("arraySplit", P(1, "UInt8"), 2, 0, a, cut),
           "Array(Array(UInt8)): [[1,2,3],[4,5]]");
    EXPECT(L("arrayReverseSplit", P(1, "UInt8"), 2, 0, a, cut),
           "Array(Array(UInt8)): [[1],[2,3,4],[5]]");
    EXPECT(L("arraySplit", U(1), 1, 0, K("Array(UInt8)", "[1,2]")),
           "Array(Array(UInt8)): [[1],[2]]");
    EXPECT(L("arraySplit", U(0), 1, 0, K("Array(UInt8)", "[1,2]")), "Array(Array(UInt8)): [[1,2]]");
    EXPECT(L("arraySplit", U(1), 1, 0, K("Array(UInt8)", "[]")), "Array(Array(UInt8)): []");
    exec_expr *n = K("Array(Nullable(UInt8))", "[1,NULL,2,NULL]");
    exec_expr *not_null = F("isNotNull", 1, P(0, "Nullable(UInt8)"));
    EXPECT(L("arrayFill", not_null, 1, 0, n), "Array(Nullable(UInt8)): [1,1,2,2]");
    EXPECT(L("arrayReverseFill", not_null, 1, 0, n), "Array(Nullable(UInt8)): [1,2,2,NULL]");
    exec_expr *lead = K("Array(Nullable(UInt8))", "[NULL,NULL,3]");
    EXPECT(L("arrayFill", not_null, 1, 0, lead), "Array(Nullable(UInt8)): [NULL,NULL,3]");
    EXPECT(L("arrayReverseFill", not_null, 1, 0, lead), "Array(Nullable(UInt8)): [3,3,3]");
    exec_expr *c = C("Array(String)", "['a','','b','']", "[]", "['']");
    exec_expr *nonempty = F("notEmpty", 1, P(0, "String"));
    EXPECT(L("arrayFill", nonempty, 1, 0, c), "Array(String): ['a','a','b','b'] | [] | ['']");
    EXPECT(L("arraySplit", nonempty, 1, 0, c),
           "Array(Array(String)): [['a',''],['b','']] | [] | [['']]");
}

/* ---- the plain functions over the lambda's results ----------------- */

static void test_plain_over_results(void **state) {
    (void)state;
    exec_expr *sq = F("multiply", 2, P(0, "UInt8"), P(0, "UInt8"));
    exec_expr *k = K("Array(UInt8)", "[1,2,3]");
    EXPECT(L("arraySum", sq, 1, 0, k), "UInt64: 14");
    EXPECT(L("arrayAvg", sq, 1, 0, k), "Float64: 4.666666666666667");
    EXPECT(L("arrayProduct", sq, 1, 0, k), "Float64: 36");
    EXPECT(L("arrayMin", F("negate", 1, P(0, "UInt8")), 1, 0, k), "Int16: -3");
    EXPECT(L("arrayMax", sq, 1, 0, k), "UInt16: 9");
    EXPECT(L("arrayCumSum", sq, 1, 0, k), "Array(UInt64): [1,5,14]");
    EXPECT(L("arrayDifference", sq, 1, 0, k), "Array(Int32): [0,3,5]");
    EXPECT(L("arrayCumSumNonNegative", F("plus", 2, P(0, "UInt8"), I(-2)), 1, 0, k),
           "Array(Int64): [0,0,1]");
    EXPECT(L("arraySum", F("divide", 2, P(0, "UInt8"), P(1, "UInt8")), 2, 0,
             K("Array(UInt8)", "[4,8]"), K("Array(UInt8)", "[1,2]")),
           "Float64: 8");
    exec_expr *c = C("Array(Int16)", "[1,-2]", "[]");
    EXPECT(L("arraySum", F("abs", 1, P(0, "Int16")), 1, 0, c), "UInt64: 3 | 0");
    EXPECT(L("arrayMax", P(0, "Int16"), 1, 0, c), "Int16: 1 | 0");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "array aggregation function cannot be performed on type String",
               L_ERR("arraySum", S("x"), 1, 0, k));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "arrayCumSum cannot add values of type String",
               L_ERR("arrayCumSum", S("x"), 1, 0, k));
}

/* ---- LowCardinality elements --------------------------------------- */

static void test_low_cardinality(void **state) {
    (void)state;
    exec_expr *a = C("Array(LowCardinality(String))", "['b','','a']", "['c']");
    exec_expr *nonempty = F("notEmpty", 1, P(0, "LowCardinality(String)"));
    EXPECT(L("arrayFilter", nonempty, 1, 0, a), "Array(String): ['b','a'] | ['c']");
    EXPECT(L("arraySort", P(0, "LowCardinality(String)"), 1, 0, a),
           "Array(String): ['','a','b'] | ['c']");
    EXPECT(L("arrayFirst", nonempty, 1, 0, a), "String: b | c");
    EXPECT(L("arrayMap", F("length", 1, P(0, "LowCardinality(String)")), 1, 0, a),
           "Array(UInt64): [1,0,1] | [1]");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_map, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_map_columns, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_map_errors, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_filter_and_tests, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_boolean_results, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_first_last, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_sort, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_split_fill, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_plain_over_results, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_low_cardinality, t_setup, t_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
