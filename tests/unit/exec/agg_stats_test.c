/* agg_stats_test.c: goal: the statistics of agg_stats.c give ClickHouse's
 * types and values: varPop, varSamp, stddevPop, stddevSamp, covarPop,
 * covarSamp and corr (NaN where ClickHouse answers NaN, exact where its
 * sums of squares lose digits), quantile/quantiles/median with the
 * reservoir's interpolation rule, quantileExact (Low, High) with
 * ClickHouse's index rule and the argument's type, quantileTDigest with
 * its singleton rule and bounded error; over empty input, NULLs, the -If
 * combinator, dates, decimals, big inputs and bind errors (level range,
 * level count, argument types). Every state must give the same answer by
 * update_all, update, merged halves (sampled states: within their error),
 * a serialize/deserialize round trip and a merge into an empty state.
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

/* Runs name and returns the result as a number. */
static double ag_number(const char *name) {
    const char *got = ag_run(name);
    char *end;
    double v = strtod(got, &end);
    if (*end != 0) fail_msg("%s: %s is not a number", name, got);
    ag_reset();
    return v;
}

static const char *gen_number(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", i + 1);
    return text;
}

/* 1..n in a scrambled order, so sorting and sampling matter. */
static const char *gen_scrambled(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", (uint32_t)(((uint64_t)i * 7919u) % 100000u) + 1);
    return text;
}

/* ---- moments ------------------------------------------------------------------- */

static void test_variance(void **state) {
    (void)state;
    ag.loose = true; /* blocks and rows round differently in the last bits */
    ag_col("UInt8", "1|2|3|4|10");
    AG_CHECK("varPop", "10", "Float64");
    ag.loose = true;
    ag_col("UInt8", "1|2|3|4|10");
    AG_CHECK("varSamp", "12.5", "Float64");
    ag.loose = true;
    ag_col("Int32", "1|2|3|4|10");
    AG_CHECK("stddevPop", "3.1622776601683795", "Float64");
    ag.loose = true;
    ag_col("Float64", "1|2|3|4|10");
    AG_CHECK("stddevSamp", "3.5355339059327378", "Float64");
    ag_col("Float64", "5");
    AG_CHECK("varSamp", "nan", "Float64");
    ag_col("Float64", "5");
    AG_CHECK("varPop", "0", "Float64");
    ag_col("Float64", "5");
    AG_CHECK("stddevSamp", "nan", "Float64");
    ag_col("Float64", NULL);
    AG_CHECK("varPop", "nan", "Float64");
    ag_col("Float64", NULL);
    AG_CHECK("stddevPop", "nan", "Float64");
    ag_col("Decimal(9, 2)", "1.00|2.00|3.00");
    AG_CHECK("varPop", "0.6666666666666666", "Float64");
    /* large offsets: sums of squares would lose every digit */
    ag_col("Float64", "1000000001|1000000002|1000000003");
    AG_CHECK("varPop", "0.6666666666666666", "Float64");
    ag_col("Float64", "1e15|1e15|1e15");
    AG_CHECK("varSamp", "0", "Float64");
    ag_col("Nullable(Int64)", "\\N|2|\\N|4");
    AG_CHECK("varSamp", "2", "Nullable(Float64)");
    ag_col("Nullable(Int64)", "\\N|\\N");
    AG_CHECK("varPop", "\\N", "Nullable(Float64)");
    ag_col("Nullable(Nothing)", "\\N");
    AG_CHECK("varPop", "\\N", "Nullable(Nothing)");
    ag_col("Int32", "1|100|3|1000");
    ag_col("UInt8", "1|0|1|0");
    AG_CHECK("varPopIf", "1", "Float64");
    ag_col("Bool", "true|false");
    AG_CHECK("VAR_POP", "0.25", "Float64");
    ag_col("Int8", "1|3");
    AG_CHECK("STDDEV_SAMP", "1.4142135623730951", "Float64");
    ag_const("Float64", "2.5");
    ag_set_rows(4);
    AG_CHECK("varSamp", "0", "Float64");
}

static void test_variance_big(void **state) {
    (void)state;
    ag.loose = true;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    AG_CHECK("varPop", "833333333.25", "Float64");
    ag.loose = true;
    ag_col_gen("UInt32", 100000, gen_number);
    AG_CHECK("varSamp", "833341666.6666666", "Float64");
}

static void test_covariance(void **state) {
    (void)state;
    ag.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Float64", "1|2|3");
    AG_CHECK("covarPop", "0.6666666666666666", "Float64");
    ag.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Float64", "1|2|3");
    AG_CHECK("covarSamp", "1", "Float64");
    ag.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Float64", "1|2|3");
    AG_CHECK("corr", "1", "Float64");
    ag.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Int32", "3|2|1");
    AG_CHECK("CORR", "-1", "Float64");
    ag_col("Int32", "1|2|3");
    ag_col("Int32", "5|5|5");
    AG_CHECK("corr", "nan", "Float64");
    ag_col("Int32", "1");
    ag_col("Int32", "2");
    AG_CHECK("covarSamp", "nan", "Float64");
    ag_col("Int32", "1");
    ag_col("Int32", "2");
    AG_CHECK("covarPop", "0", "Float64");
    ag_col("Int32", NULL);
    ag_col("Int32", NULL);
    AG_CHECK("covarPop", "nan", "Float64");
    ag_col("Nullable(Int32)", "1|\\N|3|5");
    ag_col("Nullable(Int32)", "2|100|6|\\N");
    AG_CHECK("covarPop", "2", "Nullable(Float64)");
    ag.loose = true;
    ag_col("Decimal(9, 1)", "0.5|1.0|1.5");
    ag_col("Int8", "1|2|3");
    AG_CHECK("COVAR_SAMP", "0.5", "Float64");
}

static void test_moment_errors(void **state) {
    (void)state;
    ag_col("String", "a");
    AG_CHECK("varPop", "ERR EILLEGAL_TYPE: Illegal type String of argument for aggregate "
                       "function varPop", "");
    ag_col("Date", "2020-01-01");
    AG_CHECK("stddevSamp", "ERR EILLEGAL_TYPE: Illegal type Date of argument for aggregate "
                           "function stddevSamp", "");
    ag_col("String", "a");
    ag_col("Int32", "1");
    AG_CHECK("covarPop", "ERR EILLEGAL_TYPE: Illegal types String and Int32 of arguments for "
                         "aggregate function covarPop", "");
    ag_col("Int32", "1");
    AG_CHECK("corr", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function corr requires two "
                     "arguments", "");
    ag_col("Int32", "1");
    ag_col("Int32", "1");
    AG_CHECK("varSamp", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function varSamp requires single "
                        "argument", "");
    ag_col("Int32", "1");
    ag_param("Float64", "0.5");
    AG_CHECK("varSamp", "ERR EINVAL: Aggregate function varSamp cannot have parameters", "");
}

/* ---- quantile (reservoir) ------------------------------------------------------------ */

static void test_quantile(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|3|4|10");
    ag_param("Float64", "0.3");
    AG_CHECK("quantile", "2.2", "Float64");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("quantile", "2.5", "Float64");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("median", "2.5", "Float64");
    ag_col("UInt32", "1|1|2|3|4|5|6|7|8|9|10");
    ag_param("Float64", "0.25");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.75");
    ag_param("Float64", "0.9");
    /* (ClickHouse's documentation shows [3,5.5,8,9.5]; its servers answer this) */
    AG_CHECK("quantiles", "[2.5,5,7.5,9]", "Array(Float64)");
    ag_col("Int64", "-5|7|0");
    ag_param("UInt8", "0");
    AG_CHECK("quantile", "-5", "Float64");
    ag_col("Int64", "-5|7|0");
    ag_param("UInt8", "1");
    AG_CHECK("quantile", "7", "Float64");
    ag_col("Float64", "nan|1|3|nan");
    AG_CHECK("quantile", "2", "Float64");
    ag_col("Float32", "0.5");
    AG_CHECK("quantile", "0.5", "Float64");
    ag_col("Float64", NULL);
    AG_CHECK("quantile", "nan", "Float64");
    ag_col("Nullable(Float64)", "\\N|\\N");
    AG_CHECK("quantile", "\\N", "Nullable(Float64)");
    ag_col("Nullable(UInt8)", "\\N|10|\\N|20");
    AG_CHECK("median", "15", "Nullable(Float64)");
    ag_col("Nullable(Nothing)", "\\N");
    AG_CHECK("quantile", "\\N", "Nullable(Nothing)");
    ag_col("UInt8", "1|2|3|100");
    ag_col("UInt8", "1|1|1|0");
    AG_CHECK("quantileIf", "2", "Float64");
    ag_const("Int8", "-3");
    ag_set_rows(5);
    AG_CHECK("quantile", "-3", "Float64");
}

static void test_quantile_value_types(void **state) {
    (void)state;
    ag_col("Date", "2020-01-01|2020-01-02|2020-01-03|2020-01-04|2020-01-11");
    ag_param("Float64", "0.3");
    AG_CHECK("quantile", "2020-01-02", "Date");
    ag_col("DateTime", "2020-01-01 00:00:00|2020-01-01 00:00:03");
    AG_CHECK("quantile", "2020-01-01 00:00:01", "DateTime");
    ag_col("Decimal(9, 2)", "1.00|2.00");
    AG_CHECK("quantile", "1.5", "Decimal(9, 2)");
    ag_col("Decimal(38, 2)", "-1.01|-1.02");
    AG_CHECK("quantile", "-1.01", "Decimal(38, 2)");
    ag_col("DateTime64(3)", "2020-01-01 00:00:00.000|2020-01-01 00:00:00.003");
    AG_CHECK("quantile", "2020-01-01 00:00:00.001", "DateTime64(3)");
    ag_col("Date", NULL);
    AG_CHECK("quantile", "1970-01-01", "Date");
    ag_col("Date", NULL);
    ag_param("Float64", "0.5");
    AG_CHECK("quantiles", "['1970-01-01']", "Array(Date)");
    ag_col("Nullable(Date)", "\\N|2021-05-05");
    ag_param("Float64", "0.1");
    ag_param("Float64", "0.9");
    AG_CHECK("quantiles", "['2021-05-05','2021-05-05']", "Array(Date)");
}

static void test_quantiles_nulls(void **state) {
    (void)state;
    ag_col("Nullable(Float64)", "\\N|\\N");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.1");
    AG_CHECK("quantiles", "[nan,nan]", "Array(Float64)");
    ag_col("Nullable(Int32)", "\\N|4|\\N|2");
    ag_param("Float64", "0.5");
    AG_CHECK("quantiles", "[3]", "Array(Float64)");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "0|1|1|0");
    ag_param("Float64", "1");
    ag_param("Float64", "0");
    AG_CHECK("quantilesIf", "[3,2]", "Array(Float64)");
}

static void test_quantile_errors(void **state) {
    (void)state;
    ag_col("UInt8", "1");
    ag_param("Float64", "1.5");
    AG_CHECK("quantile", "ERR EPARAMETER_OUT_OF_BOUND: Quantile level is out of range [0..1]", "");
    ag_col("UInt8", "1");
    ag_param("Int8", "-1");
    AG_CHECK("quantileExact",
             "ERR EPARAMETER_OUT_OF_BOUND: Quantile level is out of range [0..1]", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "nan");
    AG_CHECK("quantiles", "ERR EPARAMETER_OUT_OF_BOUND: Quantile level is out of range [0..1]", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "0.1");
    ag_param("Float64", "0.2");
    AG_CHECK("quantile", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function quantile requires one "
                         "level parameter or less", "");
    ag_col("UInt8", "1");
    AG_CHECK("quantiles", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function for calculation of "
                          "multiple quantiles require at least one parameter", "");
    ag_col("UInt8", "1");
    ag_param("String", "a");
    AG_CHECK("quantile", "ERR ECANNOT_CONVERT: Cannot convert String to Float64", "");
    ag_col("String", "a");
    AG_CHECK("quantile", "ERR EILLEGAL_TYPE: Illegal type String of argument for aggregate "
                         "function quantile", "");
    ag_col("Date32", "2020-01-01");
    AG_CHECK("median", "ERR EILLEGAL_TYPE: Illegal type Date32 of argument for aggregate "
                       "function median", "");
    ag_col("Decimal(9, 2)", "1");
    AG_CHECK("quantileTDigest", "ERR EILLEGAL_TYPE: Illegal type Decimal(9, 2) of argument for "
                                "aggregate function quantileTDigest", "");
    AG_CHECK("quantile", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function quantile requires at "
                         "least one argument", "");
    ag_col("UInt8", "1");
    ag_col("UInt8", "1");
    AG_CHECK("quantile", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function quantile requires single "
                         "argument", "");
}

static void test_quantile_big(void **state) {
    (void)state;
    /* 100000 values: a reservoir of 8192 answers within a few percent. */
    ag.sketch = true;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    double median = ag_number("quantile");
    if (fabs(median - 50000) > 2500) fail_msg("sampled median %g", median);
    ag.sketch = true;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    ag_param("Float64", "0.99");
    double p99 = ag_number("quantile");
    if (fabs(p99 - 99000) > 1000) fail_msg("sampled p99 %g", p99);
    /* up to 8192 values the reservoir holds them all: exact */
    ag_col_gen("UInt32", 8192, gen_number);
    AG_CHECK("quantile", "4096.5", "Float64");
}

/* ---- quantileExact ------------------------------------------------------------------ */

static void test_quantile_exact(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|3|4|10");
    ag_param("Float64", "0.3");
    AG_CHECK("quantileExact", "2", "UInt8");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("quantileExact", "3", "UInt8");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("medianExact", "3", "UInt8");
    ag_col("Int32", "4|1|3|2");
    AG_CHECK("quantileExactLow", "2", "Int32");
    ag_col("Int32", "4|1|3|2");
    AG_CHECK("medianExactHigh", "3", "Int32");
    ag_col("Int32", "3|1|2");
    AG_CHECK("medianExactLow", "2", "Int32");
    ag_col("Int32", "3|1|2");
    AG_CHECK("quantileExactHigh", "2", "Int32");
    ag_col("Int32", "4|1|3|2");
    ag_param("Float64", "0.25");
    AG_CHECK("quantileExactLow", "2", "Int32");
    ag_col("Int64", "9223372036854775807|-9223372036854775808|0");
    ag_param("UInt8", "1");
    AG_CHECK("quantileExact", "9223372036854775807", "Int64");
    ag_col("UInt64", "18446744073709551615|18446744073709551614");
    ag_param("UInt8", "0");
    AG_CHECK("quantileExact", "18446744073709551614", "UInt64");
    ag_col("Float32", "0.5|-1.25|nan");
    ag_param("UInt8", "0");
    AG_CHECK("quantileExact", "-1.25", "Float32");
    ag_col("Decimal(38, 2)", "123456789012345678901234567890123456.78|-5.01|0");
    ag_param("UInt8", "1");
    AG_CHECK("quantileExact", "123456789012345678901234567890123456.78", "Decimal(38, 2)");
    ag_col("Decimal(18, 3)", "1.5|-2.25|7");
    AG_CHECK("quantileExact", "1.5", "Decimal(18, 3)");
    ag_col("Date", "2020-03-01|2020-01-01|2020-02-01");
    AG_CHECK("quantileExact", "2020-02-01", "Date");
    ag_col("Bool", "true|false|true");
    AG_CHECK("quantileExact", "true", "Bool");
    ag_col("Float64", NULL);
    AG_CHECK("quantileExact", "nan", "Float64");
    ag_col("Int16", NULL);
    AG_CHECK("quantileExact", "0", "Int16");
    ag_col("Float64", NULL);
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesExact", "[0]", "Array(Float64)");
    ag_col("Int32", "5|1|4|2|3");
    ag_param("Float64", "0.9");
    ag_param("Float64", "0.1");
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesExact", "[5,1,3]", "Array(Int32)");
    ag_col("Int32", "5|1|4|2");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.25");
    AG_CHECK("quantilesExactLow", "[2,2]", "Array(Int32)");
    ag_col("Int32", "5|1|4|2");
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesExactHigh", "[4]", "Array(Int32)");
    ag_col("Nullable(Int32)", "\\N|7|\\N");
    AG_CHECK("quantileExact", "7", "Nullable(Int32)");
}

static void test_quantile_exact_big(void **state) {
    (void)state;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    AG_CHECK("quantileExact", "50001", "UInt32");
    ag_col_gen("UInt32", 100000, gen_scrambled);
    ag_param("Float64", "0.999");
    AG_CHECK("quantileExact", "99901", "UInt32");
}

/* ---- quantileTDigest ------------------------------------------------------------------- */

static void test_tdigest(void **state) {
    (void)state;
    /* Below ~200 values every value is its own centroid: order statistics
     * by ClickHouse's singleton rule (numbers(10): 4, numbers(100): [24,49,74]). */
    ag_col_gen("UInt32", 10, gen_number);
    AG_CHECK("quantileTDigest", "5", "Float32");
    ag_col_gen("UInt32", 10, gen_number);
    ag_param("Float64", "0.1");
    AG_CHECK("quantileTDigest", "1", "Float32");
    ag_col_gen("UInt32", 10, gen_number);
    ag_param("Float64", "0.9");
    AG_CHECK("medianTDigest", "9", "Float32");
    ag_col_gen("UInt32", 100, gen_scrambled);
    ag_reset();
    ag_col_gen("UInt32", 100, gen_number);
    ag_param("Float64", "0.25");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.75");
    AG_CHECK("quantilesTDigest", "[25,50,75]", "Array(Float32)");
    /* two singletons: the median is the lower one (releases before the
     * singleton rule interpolated 1.5) */
    ag_col("Float64", "1|2");
    AG_CHECK("quantileTDigest", "1", "Float32");
    ag_col("Float64", "7");
    AG_CHECK("quantileTDigest", "7", "Float32");
    ag_col("Float64", NULL);
    AG_CHECK("quantileTDigest", "nan", "Float32");
    ag_col("Float64", "nan|nan");
    AG_CHECK("quantileTDigest", "nan", "Float32");
    ag_col("Date", "2020-01-01|2020-01-02|2020-01-05");
    AG_CHECK("quantileTDigest", "2020-01-02", "Date");
    ag_col("Nullable(Int32)", "\\N|3|\\N");
    AG_CHECK("quantileTDigest", "3", "Nullable(Float32)");
    ag_col("Nullable(Int32)", "\\N|\\N");
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesTDigest", "[nan]", "Array(Float32)");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "1|0|0|0");
    AG_CHECK("quantileTDigestIf", "1", "Float32");
}

static const char *gen_index(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", i);
    return text;
}

/* ClickHouse's test 00273_quantiles over numbers 0..1000 (its reference
 * answers, from a release with the t-digest singleton rule). */
static void test_clickhouse_00273(void **state) {
    (void)state;
    static const char *const levels[] = {"0",   "0.001", "0.01", "0.05", "0.1", "0.2",
                                         "0.3", "0.4",   "0.5",  "0.6",  "0.7", "0.8",
                                         "0.9", "0.95",  "0.99", "0.999", "1"};
    static const struct {
        const char *name, *want;
    } cases[] = {
        {"quantiles", "[0,1,10,50,100,200,300,400,500,600,700,800,900,950,990,999,1000]"},
        {"quantilesExact", "[0,1,10,50,100,200,300,400,500,600,700,800,900,950,990,999,1000]"},
        {"quantilesTDigest",
         "[0,1,10,50,99.6,199.7,299.8,399.9,500,600.1,700.2,800.3,900.4,950,990,999,1000]"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        ag_col_gen("UInt64", 1001, gen_index);
        for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
            ag_param("Float64", levels[i]);
        AG_EQ(cases[c].name, cases[c].want, NULL);
        ag_reset();
        ag_col_gen("UInt64", 1001, gen_index);
        ag_param("Float64", "0.5");
        AG_CHECK(cases[c].name, "[500]", NULL);
    }
}

static void test_tdigest_big(void **state) {
    (void)state;
    /* ~1% rank error near the median, less in the tails. */
    static const double levels[] = {0.01, 0.1, 0.5, 0.9, 0.99};
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        char text[32];
        snprintf(text, sizeof(text), "%g", levels[i]);
        ag.sketch = true;
        ag.loose = true;
        ag_col_gen("UInt32", 100000, gen_scrambled);
        ag_param("Float64", text);
        double v = ag_number("quantileTDigest"), want = levels[i] * 100000;
        double bound = 100000 * (0.002 + 0.04 * levels[i] * (1 - levels[i]));
        if (fabs(v - want) > bound)
            fail_msg("t-digest q%g = %g, want %g +- %g", levels[i], v, want, bound);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_variance, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_variance_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_covariance, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_moment_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_value_types, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantiles_nulls, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_exact, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_exact_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_tdigest, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_tdigest_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_clickhouse_00273, ag_setup, ag_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
