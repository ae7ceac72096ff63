/* type_test.c: goal: descriptor utilities are right: builtins exist
 * exactly for parameterless kinds, value widths follow the storage rules
 * (Decimal32/64/128 by precision, FixedString N, LowCardinality index),
 * equality sees every parameter (zone, scale, enum names), clones are
 * deep and equal, and names are cut safely in small buffers. */
#include "types_test_util.h"

static void test_builtins(void **state) {
    (void)state;
    const ty_kind plain[] = {TY_UINT8, TY_UINT16, TY_UINT32, TY_UINT64, TY_INT8, TY_INT16,
                             TY_INT32, TY_INT64, TY_FLOAT32, TY_FLOAT64, TY_BOOL, TY_STRING,
                             TY_DATE, TY_DATE32, TY_DATETIME, TY_UUID};
    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
        const ty_type *t = ty_type_builtin(plain[i]);
        assert_non_null(t);
        assert_int_equal(t->kind, plain[i]);
    }
    const ty_kind parameterised[] = {TY_FIXED_STRING, TY_DATETIME64, TY_DECIMAL, TY_ENUM8,
                                     TY_ENUM16, TY_NULLABLE, TY_LOW_CARDINALITY, TY_ARRAY,
                                     TY_MAP, TY_KIND_COUNT};
    for (size_t i = 0; i < sizeof(parameterised) / sizeof(parameterised[0]); i++)
        assert_null(ty_type_builtin(parameterised[i]));
    assert_true(ty_type_equal(ty_type_builtin(TY_UINT64), tu_type("UInt64")));
    assert_string_equal(tu_type_text(ty_type_builtin(TY_DATETIME)), "DateTime");
}

static void test_value_bytes(void **state) {
    (void)state;
    const struct {
        const char *name;
        uint32_t bytes;
    } cases[] = {
        {"UInt8", 1},          {"Int16", 2},          {"UInt32", 4},        {"Int64", 8},
        {"Float32", 4},        {"Float64", 8},        {"Bool", 1},          {"Date", 2},
        {"Date32", 4},         {"DateTime", 4},       {"DateTime64(9)", 8}, {"UUID", 16},
        {"Decimal(9, 2)", 4},  {"Decimal(10, 2)", 8}, {"Decimal(18, 0)", 8},
        {"Decimal(19, 0)", 16}, {"Decimal(38, 10)", 16}, {"FixedString(7)", 7},
        {"Enum8('a' = 1)", 1}, {"Enum16('a' = 1)", 2}, {"Nullable(Int32)", 4},
        {"LowCardinality(String)", 4}, {"String", 0}, {"Array(UInt8)", 0},
        {"Map(String, String)", 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_int_equal(ty_type_value_bytes(tu_type(cases[i].name)), cases[i].bytes);
}

static void test_equality(void **state) {
    (void)state;
    const char *distinct[] = {
        "DateTime", "DateTime('UTC')", "DateTime('Europe/Berlin')", "DateTime64(3)",
        "DateTime64(6)", "DateTime64(3, 'UTC')", "Decimal(10, 2)", "Decimal(10, 3)",
        "Decimal(11, 2)", "Enum8('a' = 1)", "Enum8('b' = 1)", "Enum8('a' = 2)",
        "Enum16('a' = 1)", "Enum8('a' = 1, 'b' = 2)", "FixedString(3)", "FixedString(4)",
        "String", "Nullable(String)", "LowCardinality(String)", "Array(String)",
        "Map(String, String)", "Map(String, UInt8)", "Array(Nullable(String))",
    };
    size_t n = sizeof(distinct) / sizeof(distinct[0]);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            bool equal = ty_type_equal(tu_type(distinct[i]), tu_type(distinct[j]));
            if (equal != (i == j)) fail_msg("%s vs %s", distinct[i], distinct[j]);
        }
    }
    assert_false(ty_type_equal(tu_type("UInt8"), NULL));
}

static void test_clone(void **state) {
    (void)state;
    const char *names[] = {"Map(LowCardinality(String), Array(Nullable(DateTime64(3, 'UTC'))))",
                           "Enum16('x' = -3, 'y' = 700)", "Decimal(38, 10)",
                           "DateTime('Europe/Berlin')"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        mu_arena *other;
        mu_err err;
        assert_int_equal(mu_arena_create(&other, NULL, 1024, &err), 0);
        const ty_type *original = tu_type(names[i]), *copy;
        assert_int_equal(ty_type_clone(original, other, &copy, &err), 0);
        assert_ptr_not_equal(original, copy);
        assert_true(ty_type_equal(original, copy));
        assert_string_equal(tu_type_text(copy), names[i]);
        mu_arena_destroy(other);
    }
}

/* Regression (fuzz_type_parse): enum names with NUL bytes were cloned as
 * C strings, leaving name_bytes past the copied memory. */
static void test_clone_enum_name_with_nul(void **state) {
    (void)state;
    const ty_type *original = tu_type("Enum8('a\\0b' = 1, '\\0' = 2)"), *copy;
    mu_err err;
    assert_int_equal(original->enum_entries[0].name_bytes, 3);
    assert_int_equal(ty_type_clone(original, tu_arena, &copy, &err), 0);
    assert_true(ty_type_equal(original, copy));
    assert_memory_equal(copy->enum_entries[0].name, "a\0b", 3);
    assert_string_equal(tu_type_text(copy), "Enum8('a\\0b' = 1, '\\0' = 2)");
}

static void test_name_truncation(void **state) {
    (void)state;
    char small[12];
    const ty_type *t = tu_type("Map(String, Array(Nullable(UInt64)))");
    assert_string_equal(ty_type_name(t, small, sizeof(small)), "Map(Stri...");
    char exact[8];
    assert_string_equal(ty_type_name(tu_type("String"), exact, sizeof(exact)), "String");
}

static void test_helpers(void **state) {
    (void)state;
    assert_true(ty_type_is_nullable(tu_type("Nullable(UInt8)")));
    assert_false(ty_type_is_nullable(tu_type("LowCardinality(Nullable(String))")));
    assert_int_equal(ty_type_strip_nullable(tu_type("Nullable(Date)"))->kind, TY_DATE);
    assert_int_equal(ty_type_strip_nullable(tu_type("Date"))->kind, TY_DATE);
    assert_ptr_equal(ty_type_timezone(tu_type("DateTime")), ty_tz_default());
    assert_string_equal(ty_tz_name(ty_type_timezone(tu_type("DateTime('Asia/Tokyo')"))),
                        "Asia/Tokyo");
    assert_true(ty_decimal_pow10(0) == 1);
    assert_true(ty_decimal_pow10(18) == (__int128)1000000000000000000LL);
    assert_true(ty_decimal_pow10(38) / ty_decimal_pow10(19) == ty_decimal_pow10(19));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_builtins, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_value_bytes, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_equality, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_clone, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_clone_enum_name_with_nul, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_name_truncation, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_helpers, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
