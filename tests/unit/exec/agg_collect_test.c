/* agg_collect_test.c: goal: groupArray, groupUniqArray, uniqExact, uniq
 * (and uniqCombined), topK and groupBitAnd/Or/Xor of agg_collect.c give
 * ClickHouse's result types and values: arrays in arrival order with the
 * max_size limit, NULLs skipped and never a NULL result, exact distinct
 * counts over any type and over tuples of arguments, uniq exact below
 * 65536 distinct values and within its error above, Space-Saving's most
 * frequent values; with parameter errors worded as ClickHouse's, the -If
 * combinator, constants and big inputs. Every state must give the same
 * answer by update_all, update, merged halves, a serialize/deserialize
 * round trip and a merge into an empty state.
 */
#include "exec/exec.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- harness --------------------------------------------------------------
 * ag_col(type, "a|b|\N") adds an argument column (NULL text: no rows),
 * ag_const(type, text) a constant argument, ag_param(type, text) a
 * parameter; ag_run(name) binds and runs the aggregate over every path and
 * returns the result as ClickHouse text ("ERR <CODE>: <message>" when the
 * bind fails); ag_type holds the result type. ag.loose accepts floats that
 * differ in the last bits between paths (split sums round differently). */
#define AG_MAX 24

static struct {
    mu_arena *arena;
    exec_context ctx;
    ty_column *cols[AG_MAX];
    bool is_const[AG_MAX];
    uint32_t count;
    ty_column *params[AG_MAX];
    uint32_t param_count;
    uint32_t rows;
    bool rows_set;
    bool loose;
    bool sketch; /* sampled states: merged halves may differ from one pass */
} ag;
static char ag_type[256];
static char ag_out[1 << 20];

static int ag_setup(void **state) {
    (void)state;
    memset(&ag, 0, sizeof(ag));
    ag.ctx.timezone = ty_tz_utc();
    return mu_arena_create(&ag.arena, NULL, 1 << 16, NULL);
}

static void ag_reset(void) {
    for (uint32_t i = 0; i < ag.count; i++) ty_column_destroy(ag.cols[i]);
    for (uint32_t i = 0; i < ag.param_count; i++) ty_column_destroy(ag.params[i]);
    ag.count = ag.param_count = 0;
    ag.rows = 0;
    ag.rows_set = ag.loose = ag.sketch = false;
}

static int ag_teardown(void **state) {
    (void)state;
    ag_reset();
    mu_arena_destroy(ag.arena);
    return 0;
}

static const ty_type *ag_parse_type(const char *name) {
    const ty_type *t;
    mu_err err;
    if (ty_type_parse(name, ag.arena, &t, &err) != 0) fail_msg("type %s: %s", name, err.message);
    return t;
}

static ty_column *ag_new_column(const char *type, const char *rows) {
    ty_column *c;
    mu_err err;
    assert_int_equal(ty_column_create(ag_parse_type(type), NULL, &c, &err), 0);
    if (rows == NULL) return c;
    for (const char *p = rows;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        int rc = n == 2 && memcmp(p, "\\N", 2) == 0 ? ty_column_append_null(c, &err)
                                                     : ty_column_append_text(c, p, n, &err);
        if (rc != 0) fail_msg("value %.*s of %s: %s", (int)n, p, type, err.message);
        if (bar == NULL) break;
        p = bar + 1;
    }
    return c;
}

static void ag_add(ty_column *c, bool is_const) {
    assert_true(ag.count < AG_MAX);
    if (!is_const) {
        if (ag.rows_set) assert_int_equal(ag.rows, c->row_count);
        ag.rows = c->row_count;
        ag.rows_set = true;
    }
    ag.cols[ag.count] = c;
    ag.is_const[ag.count++] = is_const;
}

static void ag_col(const char *type, const char *rows) { ag_add(ag_new_column(type, rows), false); }
static void ag_const(const char *type, const char *text) {
    ag_add(ag_new_column(type, text), true);
}
static void ag_param(const char *type, const char *text) {
    assert_true(ag.param_count < AG_MAX);
    ag.params[ag.param_count++] = ag_new_column(type, text);
}
/* Rows when every argument is constant (count()). */
static void ag_set_rows(uint32_t rows) {
    ag.rows = rows;
    ag.rows_set = true;
}

/* A column of n rows: text of row i is fmt with i substituted. */
static void ag_col_gen(const char *type, uint32_t n, const char *(*text)(uint32_t i)) {
    ty_column *c = ag_new_column(type, NULL);
    mu_err err;
    for (uint32_t i = 0; i < n; i++) {
        const char *t = text(i);
        int rc = strcmp(t, "\\N") == 0 ? ty_column_append_null(c, &err)
                                       : ty_column_append_text(c, t, strlen(t), &err);
        if (rc != 0) fail_msg("row %u: %s", i, err.message);
    }
    ag_add(c, false);
}

static void *ag_state_new(const exec_agg *g) {
    size_t bytes = (g->state_bytes + 15u) & ~(size_t)15u;
    void *s = aligned_alloc(16, bytes);
    assert_non_null(s);
    g->init(g, s);
    return s;
}

static void ag_state_free(const exec_agg *g, void *s) {
    if (g->destroy) g->destroy(g, s);
    free(s);
}

/* Arguments over rows [from, from + n) (constants stay constants). */
static void ag_args(exec_arg *args, ty_column **owned, uint32_t from, uint32_t n) {
    mu_err err;
    for (uint32_t i = 0; i < ag.count; i++) {
        owned[i] = NULL;
        args[i].is_const = ag.is_const[i];
        if (ag.is_const[i] || (from == 0 && n == ag.rows)) {
            args[i].column = ag.cols[i];
            continue;
        }
        assert_int_equal(ty_column_create(ag.cols[i]->type, NULL, &owned[i], &err), 0);
        assert_int_equal(ty_column_append_rows_from(owned[i], ag.cols[i], from, n, &err), 0);
        args[i].column = owned[i];
    }
}

static void ag_args_free(ty_column **owned) {
    for (uint32_t i = 0; i < ag.count; i++) ty_column_destroy(owned[i]);
}

static void ag_update_all(const exec_agg *g, void *s, uint32_t from, uint32_t n) {
    exec_arg args[AG_MAX];
    ty_column *owned[AG_MAX];
    mu_err err;
    ag_args(args, owned, from, n);
    if (g->update_all(g, s, args, n, &err) != 0) fail_msg("update_all: %s", err.message);
    ag_args_free(owned);
}

static void ag_update_rows(const exec_agg *g, void *s, uint32_t from, uint32_t n) {
    exec_arg args[AG_MAX];
    ty_column *owned[AG_MAX];
    mu_err err;
    void **states = calloc(n ? n : 1, sizeof(*states));
    assert_non_null(states);
    for (uint32_t r = 0; r < n; r++) states[r] = s;
    ag_args(args, owned, from, n);
    if (g->update(g, states, args, n, &err) != 0) fail_msg("update: %s", err.message);
    ag_args_free(owned);
    free(states);
}

static char *ag_finalize(const exec_agg *g, void *s) {
    ty_column *out;
    mu_err err;
    mu_buf b;
    assert_int_equal(ty_column_create(g->result_type, NULL, &out, &err), 0);
    if (g->finalize(g, s, out, &err) != 0) fail_msg("finalize: %s", err.message);
    assert_int_equal(out->row_count, 1);
    assert_int_equal(ty_column_validate(out, &err), 0);
    mu_buf_init(&b, 0);
    assert_int_equal(ty_column_render_text(out, 0, 0, &b, &err), 0);
    char *text = mu_arena_strndup(ag.arena, (const char *)b.data, b.length_bytes, &err);
    assert_non_null(text);
    mu_buf_deinit(&b);
    ty_column_destroy(out);
    return text;
}

static bool ag_same(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return true;
    if (!ag.loose) return false;
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    if (*ea || *eb) return false;
    return fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

/* Serializes s, checks every strict prefix is rejected and damaged bytes
 * are survived, deserializes into a new state and checks it serializes to
 * the same bytes. */
static void *ag_round_trip(const exec_agg *g, const void *s) {
    mu_buf a, b;
    mu_err err;
    size_t used = 0;
    mu_buf_init(&a, 0);
    mu_buf_init(&b, 0);
    if (g->serialize(g, s, &a, &err) != 0) fail_msg("serialize: %s", err.message);
    size_t step = a.length_bytes > 4096 ? a.length_bytes / 97 + 1 : 1;
    for (size_t n = 0; n < a.length_bytes; n += step) {
        void *t = ag_state_new(g);
        if (g->deserialize(g, t, a.data, n, &used, &err) == 0)
            fail_msg("a %zu-byte prefix of a %zu-byte state was accepted", n, a.length_bytes);
        ag_state_free(g, t);
    }
    /* Damaged bytes: rejected, or read as some state that finalizes
     * without crashing (the sanitizer build checks memory). */
    for (size_t n = 0; a.length_bytes <= 4096 && n < a.length_bytes; n++) {
        void *t = ag_state_new(g);
        ty_column *out;
        a.data[n] ^= 0xA5;
        if (g->deserialize(g, t, a.data, a.length_bytes, &used, &err) == 0) {
            assert_true(used <= a.length_bytes);
            assert_int_equal(ty_column_create(g->result_type, NULL, &out, &err), 0);
            (void)g->finalize(g, t, out, &err);
            ty_column_destroy(out);
        }
        a.data[n] ^= 0xA5;
        ag_state_free(g, t);
    }
    void *d = ag_state_new(g);
    if (g->deserialize(g, d, a.data, a.length_bytes, &used, &err) != 0)
        fail_msg("deserialize: %s", err.message);
    assert_int_equal(used, a.length_bytes);
    assert_int_equal(g->serialize(g, d, &b, &err), 0);
    assert_int_equal(a.length_bytes, b.length_bytes);
    assert_memory_equal(a.data, b.data, a.length_bytes);
    mu_buf_deinit(&a);
    mu_buf_deinit(&b);
    return d;
}

static const char *ag_run(const char *name) {
    exec_agg g;
    mu_err err;
    const ty_type *types[AG_MAX];
    mu_err_clear(&err);
    for (uint32_t i = 0; i < ag.count; i++) types[i] = ag.cols[i]->type;
    if (exec_agg_bind(&ag.ctx, ag.arena, name, types, ag.count,
                      (const ty_column *const *)ag.params, ag.param_count, &g, &err) != 0) {
        snprintf(ag_out, sizeof(ag_out), "ERR %s: %s", mu_code_name(err.code), err.message);
        ag_type[0] = 0;
        return ag_out;
    }
    ty_type_name(g.result_type, ag_type, sizeof(ag_type));
    uint32_t rows = ag.rows, half = rows / 2;
    void *s_all = ag_state_new(&g), *s_rows = ag_state_new(&g);
    void *s_left = ag_state_new(&g), *s_right = ag_state_new(&g), *s_empty = ag_state_new(&g);
    ag_update_all(&g, s_all, 0, rows);
    ag_update_rows(&g, s_rows, 0, rows);
    ag_update_all(&g, s_left, 0, half);
    ag_update_rows(&g, s_right, half, rows - half);
    assert_int_equal(g.merge(&g, s_left, s_right, &err), 0);
    void *s_copy = ag_round_trip(&g, s_all);
    assert_int_equal(g.merge(&g, s_empty, s_copy, &err), 0);
    const char *texts[5] = {ag_finalize(&g, s_all), ag_finalize(&g, s_rows),
                            ag_finalize(&g, s_left), ag_finalize(&g, s_copy),
                            ag_finalize(&g, s_empty)};
    static const char *const paths[5] = {"update_all", "update", "merged halves",
                                         "round trip", "merged into empty"};
    for (int i = 1; i < 5; i++)
        if (!(ag.sketch && i == 2) && !ag_same(texts[0], texts[i]))
            fail_msg("%s: %s gives %s, %s gives %s", name, paths[0], texts[0], paths[i],
                     texts[i]);
    ag_state_free(&g, s_all);
    ag_state_free(&g, s_rows);
    ag_state_free(&g, s_left);
    ag_state_free(&g, s_right);
    ag_state_free(&g, s_copy);
    ag_state_free(&g, s_empty);
    snprintf(ag_out, sizeof(ag_out), "%s", texts[0]);
    return ag_out;
}

#define AG_EQ(name, expected, type)                                                       \
    do {                                                                                  \
        const char *got_ = ag_run(name);                                                  \
        if (strcmp(got_, expected) != 0) fail_msg("%s: got %s, want %s", name, got_, expected); \
        if ((type) != NULL && strcmp(ag_type, (type) ? (type) : "") != 0)                 \
            fail_msg("%s: type %s, want %s", name, ag_type, (type) ? (type) : "");        \
    } while (0)
#define AG_CHECK(name, expected, type)                                                    \
    do {                                                                                  \
        AG_EQ(name, expected, type);                                                      \
        ag_reset();                                                                       \
    } while (0)

static const char *gen_number(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", i + 1);
    return text;
}

/* ---- groupArray ------------------------------------------------------------------- */

static void test_group_array(void **state) {
    (void)state;
    ag_col("UInt8", "3|1|2");
    AG_CHECK("groupArray", "[3,1,2]", "Array(UInt8)");
    ag_col("String", "b|a|b");
    AG_CHECK("groupArray", "['b','a','b']", "Array(String)");
    ag_col("Nullable(Int32)", "\\N|5|\\N|-1");
    AG_CHECK("groupArray", "[5,-1]", "Array(Int32)");
    ag_col("Nullable(Int32)", "\\N|\\N");
    AG_CHECK("groupArray", "[]", "Array(Int32)");
    ag_col("Float64", NULL);
    AG_CHECK("groupArray", "[]", "Array(Float64)");
    ag_col("Nullable(Nothing)", "\\N");
    AG_CHECK("groupArray", "[]", "Array(Nothing)");
    ag_col("Array(UInt8)", "[1]|[]|[2,3]");
    AG_CHECK("groupArray", "[[1],[],[2,3]]", "Array(Array(UInt8))");
    ag_col("Map(String, UInt8)", "{'a':1}|{}");
    AG_CHECK("groupArray", "[{'a':1},{}]", "Array(Map(String, UInt8))");
    ag_col("Date", "2020-01-02|2020-01-01");
    AG_CHECK("array_agg", "['2020-01-02','2020-01-01']", "Array(Date)");
    ag_col("Decimal(20, 2)", "1.5|-2");
    AG_CHECK("ARRAY_AGG", "[1.5,-2]", "Array(Decimal(20, 2))");
    ag_col("UInt8", "1|2|3|4|5");
    ag_param("UInt8", "3");
    AG_CHECK("groupArray", "[1,2,3]", "Array(UInt8)");
    ag_col("UInt8", "1|2|3|4|5");
    ag_param("UInt64", "100");
    AG_CHECK("groupArray", "[1,2,3,4,5]", "Array(UInt8)");
    ag_col("Nullable(String)", "\\N|a|\\N|b|c");
    ag_param("UInt8", "2");
    AG_CHECK("groupArray", "['a','b']", "Array(String)");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "0|1|0|1");
    AG_CHECK("groupArrayIf", "[2,4]", "Array(Int32)");
    ag_const("String", "k");
    ag_set_rows(3);
    AG_CHECK("groupArray", "['k','k','k']", "Array(String)");
    ag_const("String", "k");
    ag_set_rows(3);
    ag_param("UInt8", "2");
    AG_CHECK("groupArray", "['k','k']", "Array(String)");
}

static void test_group_array_errors(void **state) {
    (void)state;
    ag_col("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("groupArray", "ERR EINVAL: Parameter for aggregate function groupArray should be "
                           "positive number", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "1.5");
    AG_CHECK("groupArray", "ERR EINVAL: Parameter for aggregate function groupArray should be "
                           "positive number", "");
    ag_col("UInt8", "1");
    ag_param("Int8", "-2");
    AG_CHECK("groupArray", "ERR EINVAL: Parameter for aggregate function groupArray should be "
                           "positive number", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "1");
    AG_CHECK("groupArray", "ERR ENUMBER_OF_ARGUMENTS: Incorrect number of parameters for "
                           "aggregate function groupArray, should be 0 or 1", "");
    ag_col("UInt8", "1");
    ag_col("UInt8", "1");
    AG_CHECK("groupArray", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function groupArray requires "
                           "single argument", "");
}

static void test_group_array_big(void **state) {
    (void)state;
    ag_col_gen("UInt32", 70000, gen_number);
    ag_param("UInt32", "3");
    AG_CHECK("groupArray", "[1,2,3]", "Array(UInt32)");
    /* 70000 rows: the serialized state spans two batches */
    ag_col_gen("UInt32", 70000, gen_number);
    const char *got = ag_run("groupArray");
    assert_int_equal(strncmp(got, "[1,2,3,", 7), 0);
    assert_non_null(strstr(got, ",69999,70000]"));
    ag_reset();
}

/* ---- groupUniqArray ------------------------------------------------------------- */

static void test_group_uniq_array(void **state) {
    (void)state;
    /* first-seen order (ClickHouse's is its hash table's order) */
    ag_col("UInt8", "3|1|2|3|1|5");
    AG_CHECK("groupUniqArray", "[3,1,2,5]", "Array(UInt8)");
    ag_col("String", "x|y|x|z|y");
    AG_CHECK("groupUniqArray", "['x','y','z']", "Array(String)");
    ag_col("Float64", "nan|nan|0|-0|1");
    AG_CHECK("groupUniqArray", "[nan,0,1]", "Array(Float64)");
    ag_col("Nullable(Int8)", "\\N|1|\\N|1");
    AG_CHECK("groupUniqArray", "[1]", "Array(Int8)");
    ag_col("Array(String)", "['a']|[]|['a']|['a','b']");
    AG_CHECK("groupUniqArray", "[['a'],[],['a','b']]", "Array(Array(String))");
    ag_col("UInt8", "3|1|2|3|1|5");
    ag_param("UInt8", "2");
    AG_CHECK("groupUniqArray", "[3,1]", "Array(UInt8)");
    ag_col("UInt8", NULL);
    AG_CHECK("groupUniqArray", "[]", "Array(UInt8)");
    ag_col("UInt8", "1|2|1|3");
    ag_col("UInt8", "1|1|1|0");
    AG_CHECK("groupUniqArrayIf", "[1,2]", "Array(UInt8)");
    ag_col("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("groupUniqArray", "ERR EINVAL: Parameter for aggregate function groupUniqArray "
                               "should be positive number", "");
}

static const char *gen_mod(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "v%u", (i * 7u) % 1000u);
    return text;
}

static void test_group_uniq_array_big(void **state) {
    (void)state;
    ag_col_gen("String", 20000, gen_mod);
    ag_param("UInt8", "4");
    AG_CHECK("groupUniqArray", "['v0','v7','v14','v21']", "Array(String)");
    ag_col_gen("String", 20000, gen_mod);
    const char *got = ag_run("groupUniqArray");
    size_t commas = 0;
    for (const char *p = got; *p; p++) commas += *p == ',';
    assert_int_equal(commas, 999);
    ag_reset();
}

/* ---- uniqExact, uniq ------------------------------------------------------------ */

static void test_uniq_exact(void **state) {
    (void)state;
    static const char *const names[] = {"uniqExact", "uniq", "uniqCombined"};
    for (size_t n = 0; n < 3; n++) {
        ag_col("UInt8", "1|2|2|3");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("String", "a|b|a||");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("Float64", "0|-0|nan|nan|1");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("UInt64", "0|0|18446744073709551615");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Nullable(Int32)", "\\N|1|\\N|2|1");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Nullable(Int32)", "\\N|\\N");
        AG_CHECK(names[n], "0", "UInt64");
        ag_col("Nullable(Nothing)", "\\N|\\N");
        AG_CHECK(names[n], "0", "UInt64");
        ag_col("Int32", NULL);
        AG_CHECK(names[n], "0", "UInt64");
        /* tuples: (1,'a') (1,'b') (2,'a') (1,'a') */
        ag_col("UInt8", "1|1|2|1");
        ag_col("String", "a|b|a|a");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("UInt8", "1|1|2");
        ag_col("Nullable(String)", "a|\\N|a");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("UUID", "00000000-0000-0000-0000-000000000001|00000000-0000-0000-0000-000000000001"
                       "|00000000-0000-0000-0000-000000000002");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Decimal(38, 2)", "1.5|1.50|-1.5");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Array(UInt8)", "[1,2]|[1]|[2]|[1,2]");
        AG_CHECK(names[n], "3", "UInt64");
        ag_const("String", "x");
        ag_set_rows(4);
        AG_CHECK(names[n], "1", "UInt64");
    }
    ag_col("UInt8", "1|2|3|4");
    ag_col("UInt8", "1|0|1|0");
    AG_CHECK("uniqExactIf", "2", "UInt64");
    AG_CHECK("uniqExact", "ERR ENUMBER_OF_ARGUMENTS: Incorrect number of arguments for aggregate "
                          "function uniqExact", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    AG_CHECK("uniq", "ERR EINVAL: Aggregate function uniq cannot have parameters", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "17");
    AG_CHECK("uniqCombined", "1", "UInt64");
    ag_col("UInt8", "1");
    ag_param("UInt8", "5");
    AG_CHECK("uniqCombined64", "ERR EOUT_OF_BOUND: Parameter for aggregate function "
                               "uniqCombined64 is out of range: [12, 20].", "");
}

static const char *gen_repeat(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", (i * 7919u) % 60000u); /* 7919 is prime to 60000 */
    return text;
}

static const char *gen_wide(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "s%u", i * 3u);
    return text;
}

static void test_uniq_big(void **state) {
    (void)state;
    /* 60000 distinct values among 120000 rows: below 65536, exact */
    ag_col_gen("UInt32", 120000, gen_repeat);
    AG_CHECK("uniqExact", "60000", "UInt64");
    ag_col_gen("UInt32", 120000, gen_repeat);
    AG_CHECK("uniq", "60000", "UInt64");
    /* 300000 distinct: sampled, within 2% (merged halves reach the same state) */
    ag_col_gen("String", 300000, gen_wide);
    const char *got = ag_run("uniq");
    double v = strtod(got, NULL);
    if (fabs(v - 300000) > 6000) fail_msg("uniq of 300000 distinct values: %s", got);
    ag_reset();
    ag_col_gen("String", 300000, gen_wide);
    AG_CHECK("uniqExact", "300000", "UInt64");
}

/* ---- topK ------------------------------------------------------------------------ */

static void test_top_k(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|2|3|3|4");
    ag_param("UInt8", "2");
    AG_CHECK("topK", "[2,3]", "Array(UInt8)");
    ag_col("String", "a|b|b|c|c|c|d");
    AG_CHECK("topK", "['c','b','a','d']", "Array(String)");
    ag_col("String", "a|b|b|c|c|c|d");
    ag_param("UInt8", "1");
    AG_CHECK("topK", "['c']", "Array(String)");
    ag_col("Nullable(Int32)", "\\N|\\N|\\N|5|6|6");
    AG_CHECK("topK", "[6,5]", "Array(Int32)");
    ag_col("Nullable(Int32)", "\\N");
    AG_CHECK("topK", "[]", "Array(Int32)");
    ag_col("Array(UInt8)", "[1]|[2]|[2]");
    AG_CHECK("topK", "[[2],[1]]", "Array(Array(UInt8))");
    ag_col("Int32", "1|2|2|3");
    ag_col("UInt8", "1|0|0|1");
    AG_CHECK("topKIf", "[1,3]", "Array(Int32)");
    ag_const("UInt8", "9");
    ag_set_rows(3);
    AG_CHECK("topK", "[9]", "Array(UInt8)");
    ag_col("UInt8", "1|2|2|3|3|3");
    ag_param("UInt8", "2");
    ag_param("UInt8", "1");
    AG_CHECK("topK", "[3,2]", "Array(UInt8)");
}

static void test_top_k_errors(void **state) {
    (void)state;
    ag_col("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("topK", "ERR EOUT_OF_BOUND: Parameter 0 is illegal for aggregate function 'topK'",
             "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("topK", "ERR EOUT_OF_BOUND: Too small parameter 'load_factor' for aggregate "
                     "function 'topK' (got 0, minimum is 1)", "");
    ag_col("UInt8", "1");
    ag_param("UInt32", "20000000");
    AG_CHECK("topK", "ERR EOUT_OF_BOUND: Too large parameter(s) for aggregate function 'topK' "
                     "(maximum is 16777215)", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "2");
    ag_param("String", "counts");
    AG_CHECK("topK", "ERR ENOT_SUPPORTED: topK with 'counts' is not supported yet", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "2");
    ag_param("String", "x");
    AG_CHECK("topK", "ERR EINVAL: Aggregate function topK doesn't support a parameter: x", "");
    ag_col("UInt8", "1");
    for (int i = 0; i < 4; i++) ag_param("UInt8", "1");
    AG_CHECK("topK", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function 'topK' requires three "
                     "parameters or less", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "2.5");
    AG_CHECK("topK", "ERR ECANNOT_CONVERT: Cannot convert Float64 to UInt64", "");
}

/* Heavy hitters among 100000 rows of mostly distinct values: 1 in 1/7 of
 * the rows, 2 in about 8%, the rest spread over 5000 values. */
static const char *gen_skewed(uint32_t i) {
    static char text[32];
    uint32_t v = i % 7 == 0 ? 1 : i % 11 == 0 ? 2 : 1000 + (i * 2654435761u) % 5000u;
    snprintf(text, sizeof(text), "%u", v);
    return text;
}

static void test_top_k_big(void **state) {
    (void)state;
    ag_col_gen("UInt32", 100000, gen_skewed);
    ag_param("UInt8", "2");
    ag_param("UInt8", "10");
    AG_CHECK("topK", "[1,2]", "Array(UInt32)");
    /* every value counted exactly while distinct values fit the counters */
    ag_col_gen("UInt32", 100000, gen_skewed);
    ag_param("UInt8", "2");
    ag_param("UInt16", "3000");
    AG_CHECK("topK", "[1,2]", "Array(UInt32)");
}

/* ---- groupBit* ----------------------------------------------------------------------- */

static void test_group_bit(void **state) {
    (void)state;
    ag_col("UInt8", "1|3|5");
    AG_CHECK("groupBitAnd", "1", "UInt8");
    ag_col("UInt8", "1|3|5");
    AG_CHECK("groupBitOr", "7", "UInt8");
    ag_col("UInt8", "1|3|5");
    AG_CHECK("groupBitXor", "7", "UInt8");
    ag_col("UInt8", NULL);
    AG_CHECK("groupBitAnd", "255", "UInt8");
    ag_col("UInt64", NULL);
    AG_CHECK("BIT_AND", "18446744073709551615", "UInt64");
    ag_col("Int8", "-1|1");
    AG_CHECK("groupBitAnd", "1", "Int8");
    ag_col("Int16", "-2|1");
    AG_CHECK("bit_or", "-1", "Int16");
    ag_col("Bool", "true|true");
    AG_CHECK("groupBitXor", "0", "UInt8");
    ag_col("Nullable(UInt32)", "\\N|12|\\N|10");
    AG_CHECK("groupBitAnd", "8", "Nullable(UInt32)");
    ag_col("Nullable(UInt32)", "\\N");
    AG_CHECK("groupBitOr", "\\N", "Nullable(UInt32)");
    ag_col("UInt8", "1|2|4");
    ag_col("UInt8", "1|0|1");
    AG_CHECK("groupBitOrIf", "5", "UInt8");
    ag_col("Float64", "1");
    AG_CHECK("groupBitOr", "ERR EILLEGAL_TYPE: The type Float64 of argument for aggregate "
                           "function groupBitOr is illegal, because it cannot be used in "
                           "bitwise operations", "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_group_array, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_array_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_array_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_uniq_array, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_uniq_array_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_uniq_exact, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_uniq_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_top_k, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_top_k_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_top_k_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_bit, ag_setup, ag_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
