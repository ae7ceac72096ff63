/* misc_test.c: the miscellaneous functions of src/exec/fn_misc.c through
 * the public expression API (context facts, displayName, revision, toTypeName, isConstant, random
 * values, bit functions, bin/unbin, formatReadable*, throwIf), constants and
 * columns, NULLs and argument errors (code and message); the per-block functions
 * (rowNumberInBlock, blockSize, rand) also through their kernels directly.
 * Expected text is what ClickHouse prints for the same calls.
 */
#define ET_STYLE_BUILDER
#include "exec_test_util.h"

/* Binds `name` over argument types and runs its kernel on `rows` rows of
 * the given argument columns directly (for per-block functions, whose
 * zero-argument calls the evaluator runs once per block). */
static const char *KERNEL(const char *name, uint32_t rows, uint32_t n, const ty_column **cols) {
    const exec_function *fn = exec_function_find(name, strlen(name));
    assert_non_null(fn);
    exec_call call = {.function = fn, .ctx = &et.ctx, .arg_count = n};
    const ty_type *types[4];
    exec_arg args[4];
    for (uint32_t i = 0; i < n; i++) {
        types[i] = cols[i]->type;
        args[i].column = cols[i];
        args[i].is_const = false;
    }
    const ty_column *consts[4] = {NULL, NULL, NULL, NULL};
    call.arg_types = types;
    call.arg_consts = consts;
    mu_err err;
    assert_int_equal(fn->bind(&call, et.arena, &err), 0);
    ty_column *out;
    assert_int_equal(ty_column_create(call.result_type, NULL, &out, &err), 0);
    assert_int_equal(call.kernel(&call, args, rows, out, &err), 0);
    assert_int_equal(ty_column_row_count(out), rows);
    const char *text = et_render_typed(call.result_type, out);
    ty_column_destroy(out);
    return text;
}

/* ---- context facts ------------------------------------------------- */

static void test_context_facts(void **state) {
    (void)state;
    EXPECT(CALL("version", 0), "String: 24.8.1.1");
    EXPECT(CALL("currentDatabase", 0), "String: default");
    EXPECT(CALL("hostName", 0), "String: muscles-test");
    EXPECT(CALL("currentUser", 0), "String: default");
    EXPECT(CALL("uptime", 0), "UInt32: 42");
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function version doesn't match: passed 1, should be 0",
               CALL_ERR("version", 1, U(1)));
    EXPECT(CALL("VERSION", 0), "String: 24.8.1.1");
    EXPECT(CALL("database", 0), "String: default");
    EXPECT(CALL("hostname", 0), "String: muscles-test");
    EXPECT(CALL("USER", 0), "String: default");
    EXPECT_ERR(MU_EUNKNOWN_FUNCTION, "Unknown function HOSTNAME", CALL_ERR("HOSTNAME", 0));
    EXPECT_ERR(MU_EUNKNOWN_FUNCTION, "Unknown function currentdatabase",
               CALL_ERR("currentdatabase", 0));
}

/* displayName() falls back to the host name, as ClickHouse's display_name
 * does; revision() is the context's protocol revision, UInt32 (clickhouse-go
 * scans it into a uint32). */
static void test_server_facts(void **state) {
    (void)state;
    EXPECT(CALL("displayName", 0), "String: muscles-test");
    et.ctx.display_name = "muscles";
    et.ctx.revision = 54460;
    EXPECT(CALL("displayName", 0), "String: muscles");
    EXPECT(CALL("revision", 0), "UInt32: 54460");
    EXPECT(CALL("toTypeName", 1, CALL("revision", 0)), "String: UInt32");
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function revision doesn't match: passed 1, should be 0",
               CALL_ERR("revision", 1, U(1)));
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function displayName doesn't match: passed 1, should be 0",
               CALL_ERR("displayName", 1, S("a")));
    EXPECT_ERR(MU_EUNKNOWN_FUNCTION, "Unknown function displayname", CALL_ERR("displayname", 0));
}

/* ---- toTypeName, isConstant, ignore, identity, materialize --------- */

static void test_introspection(void **state) {
    (void)state;
    EXPECT(CALL("toTypeName", 1, U(1)), "String: UInt8");
    EXPECT(CALL("toTypeName", 1, NUL()), "String: Nullable(Nothing)");
    EXPECT(CALL("toTypeName", 1, K("Array(Nullable(UInt8))", "[1,NULL]")),
           "String: Array(Nullable(UInt8))");
    EXPECT(CALL("toTypeName", 1, K("DateTime64(3, 'UTC')", "2020-01-01 00:00:00.000")),
           "String: DateTime64(3, 'UTC')");
    EXPECT(CALL("toTypeName", 1, K("Map(String, Decimal(9, 2))", "{}")),
           "String: Map(String, Decimal(9, 2))");
    exec_expr *x = C("Nullable(String)", "a", NULL);
    EXPECT(CALL("toTypeName", 1, x), "String: Nullable(String) | Nullable(String)");
    EXPECT(CALL("isConstant", 1, U(1)), "UInt8: 1");
    EXPECT(CALL("isConstant", 1, x), "UInt8: 0 | 0");
    EXPECT(CALL("isConstant", 1, CALL("materialize", 1, U(1))), "UInt8: 0 | 0");
    EXPECT(CALL("ignore", 3, U(0), S("ClickHouse"), NUL()), "UInt8: 0");
    EXPECT(CALL("ignore", 0), "UInt8: 0");
    EXPECT(CALL("ignore", 1, x), "UInt8: 0 | 0");
    EXPECT(CALL("identity", 1, x), "Nullable(String): a | \\N");
    EXPECT(CALL("identity", 1, NUL()), "Nullable(Nothing): \\N");
    EXPECT(CALL("materialize", 1, x), "Nullable(String): a | \\N");
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function toTypeName doesn't match: passed 0, should be 1",
               CALL_ERR("toTypeName", 0));
}

static void test_block_functions(void **state) {
    (void)state;
    assert_string_equal(KERNEL("rowNumberInBlock", 4, 0, NULL), "UInt64: 0 | 1 | 2 | 3");
    assert_string_equal(KERNEL("blockSize", 3, 0, NULL), "UInt64: 3 | 3 | 3");
    assert_string_equal(KERNEL("blockSize", 0, 0, NULL), "UInt64:");
    exec_expr *x = C("UInt8", "1", "2", "3");
    EXPECT(CALL("isConstant", 1, x), "UInt8: 0 | 0 | 0");
}

/* ---- random values ------------------------------------------------- */

static void test_random(void **state) {
    (void)state;
    const char *text = KERNEL("rand", 3, 0, NULL);
    assert_memory_equal(text, "UInt32: ", 8);
    text = KERNEL("rand64", 3, 0, NULL);
    assert_memory_equal(text, "UInt64: ", 8);
    /* Three draws are distinct (a 2^-32 chance of a false failure). */
    unsigned long long a, b, c;
    assert_int_equal(sscanf(text, "UInt64: %llu | %llu | %llu", &a, &b, &c), 3);
    assert_true(a != b && b != c && a != c);
    /* Arguments are evaluated and ignored, NULL included. */
    exec_expr *x = C("Nullable(String)", "a", NULL, "c");
    text = EVAL(CALL("rand", 1, x));
    assert_memory_equal(text, "UInt32: ", 8);
    EXPECT(CALL("toTypeName", 1, CALL("rand32", 1, NUL())), "String: UInt32 | UInt32 | UInt32");
    /* UUID version 4, variant 1: xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx. */
    text = EVAL(CALL("generateUUIDv4", 1, x));
    assert_memory_equal(text, "UUID: ", 6);
    for (const char *u = text + 6; u < text + strlen(text); u += 39) {
        assert_int_equal(u[14], '4');
        assert_non_null(strchr("89ab", u[19]));
    }
    /* randConstant: one value for every row of the query. */
    text = EVAL(CALL("randConstant", 1, x));
    unsigned long r0, r1, r2;
    assert_int_equal(sscanf(text, "UInt32: %lu | %lu | %lu", &r0, &r1, &r2), 3);
    assert_true(r0 == r1 && r1 == r2);
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function generateUUIDv4 doesn't match: passed 2, should "
               "be 0 to 1",
               CALL_ERR("generateUUIDv4", 2, U(1), U(2)));
}

/* ---- bit functions ------------------------------------------------- */

static void test_bits(void **state) {
    (void)state;
    EXPECT(CALL("bitAnd", 2, U(12), U(10)), "UInt8: 8");
    EXPECT(CALL("bitOr", 2, U(12), U(10)), "UInt8: 14");
    EXPECT(CALL("bitXor", 2, U(12), U(10)), "UInt8: 6");
    EXPECT(CALL("bitAnd", 2, U(255), I(-1)), "Int8: -1");
    EXPECT(CALL("bitAnd", 2, K("UInt16", "1"), I(-1)), "Int16: 1");
    EXPECT(CALL("bitOr", 2, K("UInt64", "18446744073709551615"), U(0)),
           "UInt64: 18446744073709551615");
    EXPECT(CALL("bitNot", 1, U(1)), "UInt8: 254");
    EXPECT(CALL("bitNot", 1, K("Int32", "0")), "Int32: -1");
    EXPECT(CALL("bitShiftLeft", 2, U(1), U(10)), "UInt8: 0");
    EXPECT(CALL("bitShiftLeft", 2, U(1), U(7)), "UInt8: 128");
    EXPECT(CALL("bitShiftLeft", 2, U(255), K("UInt64", "1")), "UInt64: 510");
    EXPECT(CALL("bitShiftLeft", 2, U(1), U(8)), "UInt8: 0");
    EXPECT(CALL("bitShiftRight", 2, K("Int8", "-128"), U(7)), "Int8: -1");
    EXPECT(CALL("bitShiftRight", 2, K("Int8", "-1"), U(8)), "Int8: -1");
    EXPECT(CALL("bitShiftRight", 2, K("UInt32", "4294967295"), U(31)), "UInt32: 1");
    EXPECT(CALL("bitShiftLeft", 2, K("UInt64", "1"), U(63)), "UInt64: 9223372036854775808");
    EXPECT(CALL("bitShiftRight", 2, K("Int64", "-8"), U(65)), "Int64: 0");
    EXPECT(CALL("bitCount", 1, I(-1)), "UInt8: 8");
    EXPECT(CALL("bitCount", 1, K("UInt64", "18446744073709551615")), "UInt8: 64");
    EXPECT(CALL("bitCount", 1, K("Float64", "1")), "UInt8: 10");
    exec_expr *x = C("Nullable(UInt8)", "3", NULL, "240");
    EXPECT(CALL("bitAnd", 2, x, U(0x30)), "Nullable(UInt8): 0 | \\N | 48");
    EXPECT(CALL("bitCount", 1, x), "Nullable(UInt8): 2 | \\N | 4");
    EXPECT(CALL("bitShiftLeft", 2, U(1), x), "Nullable(UInt8): 8 | \\N | 0");
    EXPECT(CALL("bitAnd", 2, U(1), NUL()), "Nullable(Nothing): \\N");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Illegal types Float64 and UInt8 of arguments of function bitAnd",
               CALL_ERR("bitAnd", 2, K("Float64", "1"), U(1)));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Illegal type String of argument of function bitNot",
               CALL_ERR("bitNot", 1, S("a")));
    EXPECT_ERR(MU_EOUT_OF_BOUND, "The number of shift positions needs to be a non-negative value",
               CALL_ERR("bitShiftLeft", 2, U(1), I(-1)));
}

/* The bytes of every row of e in hex, rows separated by spaces. */
static const char *HEX(const exec_expr *e) {
    ty_column *c;
    mu_err err;
    uint32_t rows = e->kind == EXEC_EXPR_CONST ? 1 : et.rows;
    assert_int_equal(exec_eval_full(e, &et.ctx, (const ty_column *const *)et.inputs, rows, &c,
                                    &err), 0);
    size_t at = 0;
    for (uint32_t r = 0; r < ty_column_row_count(c); r++) {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(c, r, &n);
        if (r > 0) et.text[at++] = ' ';
        for (size_t i = 0; i < n && at + 3 < sizeof(et.text); i++)
            at += (size_t)snprintf(et.text + at, 3, "%02X", p[i]);
    }
    et.text[at] = 0;
    ty_column_destroy(c);
    return et.text;
}

static void test_bit_strings(void **state) {
    (void)state;
    /* The results ClickHouse documents: 06162630, 0616, 162630, 000616. */
    assert_string_equal(HEX(CALL("bitShiftLeft", 2, S("abc"), U(4))), "06162630");
    assert_string_equal(HEX(CALL("bitShiftRight", 2, S("abc"), U(12))), "0616");
    assert_string_equal(HEX(CALL("bitShiftLeft", 2, K("FixedString(3)", "abc"), U(4))), "162630");
    assert_string_equal(HEX(CALL("bitShiftRight", 2, K("FixedString(3)", "abc"), U(12))),
                        "000616");
    assert_string_equal(HEX(CALL("bitShiftLeft", 2, S("abc"), U(24))), "");
    assert_string_equal(HEX(CALL("bitShiftLeft", 2, K("FixedString(2)", "ab"), U(16))), "0000");
    assert_string_equal(HEX(CALL("bitShiftLeft", 2, S("ab"), U(8))), "616200");
    assert_string_equal(HEX(CALL("bitShiftRight", 2, S("ab"), U(8))), "61");
    assert_string_equal(HEX(CALL("bitShiftLeft", 2, K("FixedString(2)", "ab"), U(8))), "6200");
    assert_string_equal(HEX(CALL("bitAnd", 2, K("FixedString(2)", "ab"), K("FixedString(2)", "a"))),
                        "6100");
    assert_string_equal(HEX(CALL("bitXor", 2, K("FixedString(1)", "a"), K("FixedString(1)", "b"))),
                        "03");
    assert_string_equal(HEX(CALL("bitNot", 1, K("FixedString(1)", "a"))), "9E");
    exec_expr *x = C("String", "a", "", "abc");
    assert_string_equal(HEX(CALL("bitShiftRight", 2, x, U(1))), "30  30B131");
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Illegal types FixedString(2) and FixedString(3) of arguments of function bitOr",
               CALL_ERR("bitOr", 2, K("FixedString(2)", "a"), K("FixedString(3)", "a")));
}

/* ---- formatReadable* ----------------------------------------------- */

static void test_bin_unbin(void **state) {
    (void)state;
    EXPECT(CALL("bin", 1, U(5)), "String: 00000101");
    EXPECT(CALL("bin", 1, U(255)), "String: 11111111");
    EXPECT(CALL("bin", 1, U(0)), "String: 00000000");
    EXPECT(CALL("bin", 1, U(256)), "String: 0000000100000000");
    EXPECT(CALL("bin", 1, I(-1)), "String: 11111111");
    EXPECT(CALL("bin", 1, K("Int32", "-2")), "String: 11111111111111111111111111111110");
    EXPECT(CALL("BIN", 1, S("ab")), "String: 0110000101100010");
    EXPECT(CALL("bin", 1, K("FixedString(2)", "a")), "String: 0110000100000000");
    /* Floats and Decimals as their little-endian memory bytes. */
    EXPECT(CALL("bin", 1, K("Float32", "1")), "String: 00000000000000001000000000111111");
    EXPECT(CALL("bin", 1, K("Decimal(9, 1)", "0.1")), "String: 00000001000000000000000000000000");
    EXPECT(CALL("bin", 1, K("Date", "1970-01-02")), "String: 00000001");
    EXPECT(CALL("bin", 1, K("Bool", "true")), "String: 00000001");
    EXPECT(CALL("bin", 1, C("Nullable(UInt16)", "1", NULL, "513")),
           "Nullable(String): 00000001 | \\N | 0000001000000001");
    EXPECT(CALL("unbin", 1, S("1100001")), "String: a");
    EXPECT(CALL("unbin", 1, S("0110000101100010")), "String: ab");
    EXPECT(CALL("unbin", 1, S("")), "String: ");
    /* The leading (length % 8) digits are a byte of their own, dropped when
     * zero unless it is all there is. */
    assert_string_equal(HEX(CALL("unbin", 1, S("101"))), "05");
    assert_string_equal(HEX(CALL("unbin", 1, S("0"))), "00");
    assert_string_equal(HEX(CALL("unbin", 1, S("000000001"))), "01");
    assert_string_equal(HEX(CALL("unbin", 1, S("100000001"))), "0101");
    assert_string_equal(HEX(CALL("unbin", 1, S("2x"))), "03");
    EXPECT(CALL("unbin", 1, CALL("bin", 1, S("abc"))), "String: abc");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Illegal type Array(UInt8) of argument of function bin",
               CALL_ERR("bin", 1, K("Array(UInt8)", "[1]")));
    EXPECT_ERR(MU_EILLEGAL_COLUMN, "Illegal column DateTime64(3) of argument of function bin",
               CALL_ERR("bin", 1, K("DateTime64(3)", "2020-01-01 00:00:00")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Illegal type FixedString(1) of argument of function unbin",
               CALL_ERR("unbin", 1, K("FixedString(1)", "1")));
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function bin doesn't match: passed 2, should be 1",
               CALL_ERR("bin", 2, U(1), U(1)));
}

static void test_format_readable(void **state) {
    (void)state;
    exec_expr *x = C("Float64", "0", "1023", "1024", "1536", "1572864", "-1024", "0.125",
                     "0.375", "1e30", "18446744073709551615", "1e90", "inf", "nan");
    EXPECT(CALL("formatReadableSize", 1, x),
           "String: 0.00 B | 1023.00 B | 1.00 KiB | 1.50 KiB | 1.50 MiB | -1.00 KiB | 0.13 B | "
           "0.38 B | 827180.61 YiB | 16.00 EiB | 8.2718061255302765e65 YiB | inf YiB | nan B");
    EXPECT(CALL("formatReadableDecimalSize", 1, x),
           "String: 0.00 B | 1.02 KB | 1.02 KB | 1.54 KB | 1.57 MB | -1.02 KB | 0.13 B | 0.38 B | "
           "1000000.00 YB | 18.45 EB | 1.0000000000000001e66 YB | inf YB | nan B");
    EXPECT(CALL("formatReadableQuantity", 1, x),
           "String: 0.00 | 1.02 thousand | 1.02 thousand | 1.54 thousand | 1.57 million | -1.02 "
           "thousand | 0.13 | 0.38 | 1.00 nonillion | 18.45 quintillion | "
           "1000000000000000288165462016.00 "
           "vigintillion | inf vigintillion | nan");
    EXPECT(CALL("formatReadableSize", 1, K("UInt64", "1024")), "String: 1.00 KiB");
    EXPECT(CALL("formatReadableSize", 1, C("Nullable(Int32)", "2048", NULL)),
           "Nullable(String): 2.00 KiB | \\N");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Cannot format String because it's not a native numeric type",
               CALL_ERR("formatReadableSize", 1, S("1")));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Cannot format Decimal(9, 2) because it's not a native numeric type",
               CALL_ERR("formatReadableQuantity", 1, K("Decimal(9, 2)", "1")));
}

static void test_format_time_delta(void **state) {
    (void)state;
    exec_expr *x = C("Float64", "100", "12345", "432546534", "0", "-90", "1.5", "inf");
    EXPECT(CALL("formatReadableTimeDelta", 1, x),
           "String: 1 minute and 40 seconds | 3 hours, 25 minutes and 45 seconds | 13 years, 8 "
           "months, 17 days, 7 hours, 48 minutes and 54 seconds | 0 seconds | -1 minute and 30 "
           "seconds | 1 second | inf");
    EXPECT(CALL("formatReadableTimeDelta", 2, x, S("minutes")),
           "String: 1 minute and 40 seconds | 205 minutes and 45 seconds | 7209108 minutes and 54 "
           "seconds | 0 seconds | -1 minute and 30 seconds | 1 second | inf");
    EXPECT(CALL("formatReadableTimeDelta", 3, K("Float64", "432546534.00000006"), S("minutes"),
                S("nanoseconds")), "String: 7209108 minutes, 54 seconds and 60 nanoseconds");
    EXPECT(CALL("formatReadableTimeDelta", 3, K("Float64", "1.5"), S("seconds"),
                S("milliseconds")), "String: 1 second and 500 milliseconds");
    EXPECT(CALL("formatReadableTimeDelta", 2, K("Float64", "0.5"), S("milliseconds")),
           "String: 500 milliseconds");
    EXPECT(CALL("formatReadableTimeDelta", 3, K("Float64", "90061"), S("days"), S("hours")),
           "String: 1 day and 1 hour");
    EXPECT_ERR(MU_EINVAL,
               "Unexpected value of maximum unit argument (weeks) for function "
               "formatReadableTimeDelta, the only allowed values are: 'nanoseconds', "
               "'microseconds', 'nanoseconds', 'seconds', 'minutes', 'hours', 'days', 'months', "
               "'years'.",
               CALL_ERR("formatReadableTimeDelta", 2, U(1), S("weeks")));
    EXPECT_ERR(MU_EINVAL,
               "Explicitly specified value of minimum unit argument (days) for function "
               "formatReadableTimeDelta must not be greater than maximum unit value (hours).",
               CALL_ERR("formatReadableTimeDelta", 3, U(1), S("hours"), S("days")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Cannot format String as time delta",
               CALL_ERR("formatReadableTimeDelta", 1, S("1")));
    EXPECT_ERR(MU_EILLEGAL_COLUMN,
               "Argument at index 1 for function formatReadableTimeDelta must be constant",
               CALL_ERR("formatReadableTimeDelta", 2, U(1), C("String", "days")));
}

/* ---- throwIf ------------------------------------------------------- */

static void test_throw_if(void **state) {
    (void)state;
    exec_expr *x = C("Nullable(UInt8)", "0", NULL, "0");
    EXPECT(CALL("throwIf", 1, x), "Nullable(UInt8): 0 | \\N | 0");
    EXPECT(CALL("throwIf", 1, U(0)), "UInt8: 0 | 0 | 0");
    EXPECT_ERR(MU_ETHROW_IF, "Value passed to 'throwIf' function is non zero",
               EVAL_ERR(CALL("throwIf", 1, C("Int32", "0", "7"))));
    EXPECT_ERR(MU_ETHROW_IF, "custom failure",
               EVAL_ERR(CALL("throwIf", 2, C("Float64", "-0"), S("custom failure"))));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Argument for function throwIf must be number",
               CALL_ERR("throwIf", 1, S("a")));
    EXPECT_ERR(MU_EILLEGAL_COLUMN, "Second argument for function throwIf must be constant String",
               CALL_ERR("throwIf", 2, U(0), C("String", "a", "b")));
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function throwIf doesn't match: passed 0, should be 1 or 2",
               CALL_ERR("throwIf", 0));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_context_facts, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_server_facts, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_introspection, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_block_functions, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_random, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_bits, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_bit_strings, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_bin_unbin, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_format_readable, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_format_time_delta, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_throw_if, et_setup, et_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
