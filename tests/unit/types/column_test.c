/* column_test.c: goal: columns of every type start empty and valid; the
 * primitive appends build exactly the Arrow buffers types.h describes
 * (values, validity bits, u32 offsets, children); NULL and default rows
 * follow ClickHouse (the default of Nullable is NULL); wrong-kind appends
 * and over-long FixedStrings fail without changing the column; memory is
 * charged to the tracker and a tracker limit fails cleanly. */
#include "types_test_util.h"

static const char *all_types[] = {
    "UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64", "Float32",
    "Float64", "Bool", "String", "FixedString(3)", "Date", "Date32", "DateTime",
    "DateTime('Europe/Berlin')", "DateTime64(3)", "UUID", "Decimal(9, 2)", "Decimal(18, 2)",
    "Decimal(38, 2)", "Enum8('a' = 1)", "Enum16('a' = 1000)", "Nullable(UInt8)",
    "Nullable(String)", "LowCardinality(String)", "LowCardinality(Nullable(String))",
    "LowCardinality(FixedString(4))", "LowCardinality(UInt64)", "Array(UInt8)",
    "Array(Nullable(String))", "Array(Array(Int32))", "Map(String, UInt64)",
    "Map(LowCardinality(String), Array(Nullable(Float64)))",
};

static void test_create_every_type(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(all_types) / sizeof(all_types[0]); i++) {
        ty_column *c = tu_column(all_types[i]);
        mu_err err;
        assert_int_equal(ty_column_row_count(c), 0);
        assert_int_equal(ty_column_validate(c, &err), 0);
        /* A default row always works and keeps the column valid. */
        assert_int_equal(ty_column_append_default(c, &err), 0);
        assert_int_equal(ty_column_row_count(c), 1);
        assert_int_equal(ty_column_validate(c, &err), 0);
        ty_column_destroy(c);
    }
    ty_column_destroy(NULL);
}

static void test_fixed_width(void **state) {
    (void)state;
    ty_column *c = tu_column("UInt32");
    mu_err err;
    assert_int_equal(ty_column_reserve(c, 1000, &err), 0);
    const uint8_t *before = ty_column_values(c);
    for (uint32_t i = 0; i < 1000; i++) assert_int_equal(ty_column_append_value(c, &i, &err), 0);
    assert_ptr_equal(ty_column_values(c), before); /* reserved: no reallocation */
    const uint32_t *values = (const uint32_t *)(const void *)ty_column_values(c);
    for (uint32_t i = 0; i < 1000; i++) assert_int_equal(values[i], i);
    assert_int_equal(c->values.length_bytes, 4000);
    assert_null(ty_column_validity(c));
    assert_false(ty_column_is_null(c, 5));
    /* Wrong kinds of append are refused and change nothing. */
    assert_int_equal(ty_column_append_bytes(c, "abc", 3, &err), MU_ETYPE);
    assert_int_equal(ty_column_append_null(c, &err), MU_ETYPE);
    assert_int_equal(ty_column_append_nested_end(c, &err), MU_ETYPE);
    assert_int_equal(ty_column_row_count(c), 1000);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);
}

static void test_nullable(void **state) {
    (void)state;
    ty_column *c = tu_column("Nullable(Int64)");
    mu_err err;
    int64_t v = -7;
    for (int i = 0; i < 20; i++) {
        if (i % 3 == 0)
            assert_int_equal(ty_column_append_null(c, &err), 0);
        else if (i % 3 == 1)
            assert_int_equal(ty_column_append_value(c, &v, &err), 0);
        else
            assert_int_equal(ty_column_append_default(c, &err), 0); /* NULL too */
    }
    assert_int_equal(c->validity.length_bytes, 3);
    for (uint32_t i = 0; i < 20; i++) assert_int_equal(ty_column_is_null(c, i), i % 3 != 1);
    /* Bit set = valid: rows 1, 4, 7 -> 0b10010010; bits past row 19 are 0. */
    assert_int_equal(ty_column_validity(c)[0], 0x92);
    assert_int_equal(ty_column_validity(c)[2] >> 4, 0);
    /* NULL rows hold the default value. */
    const int64_t *values = (const int64_t *)(const void *)ty_column_values(c);
    assert_int_equal(values[0], 0);
    assert_int_equal(values[1], -7);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);
}

static void test_strings(void **state) {
    (void)state;
    ty_column *c = tu_column("String");
    mu_err err;
    assert_int_equal(ty_column_append_bytes(c, "hello", 5, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "", 0, &err), 0);
    assert_int_equal(ty_column_append_default(c, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "a\0b", 3, &err), 0);
    /* Regression (fuzz_type_parse, UBSan): rows of a column holding only
     * empty strings have no bytes buffer at all. */
    ty_column *empty = tu_column("String");
    assert_int_equal(ty_column_append_bytes(empty, "", 0, &err), 0);
    size_t empty_bytes;
    assert_non_null(ty_column_row_bytes(empty, 0, &empty_bytes));
    assert_int_equal(empty_bytes, 0);
    ty_column_destroy(empty);
    const uint32_t expected_offsets[] = {0, 5, 5, 5, 8};
    assert_memory_equal(ty_column_offsets(c), expected_offsets, sizeof(expected_offsets));
    assert_memory_equal(ty_column_values(c), "helloa\0b", 8);
    size_t n;
    const uint8_t *row = ty_column_row_bytes(c, 3, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(row, "a\0b", 3);
    assert_int_equal(ty_column_append_value(c, "x", &err), MU_ETYPE);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);

    c = tu_column("FixedString(4)");
    assert_int_equal(ty_column_append_bytes(c, "ab", 2, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "abcd", 4, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "abcde", 5, &err), MU_EPARSE);
    assert_non_null(strstr(err.message, "FixedString(4)"));
    assert_int_equal(ty_column_append_value(c, "wxyz", &err), 0);
    assert_int_equal(ty_column_row_count(c), 3);
    assert_memory_equal(ty_column_values(c), "ab\0\0abcdwxyz", 12);
    ty_column_destroy(c);
}

static void test_arrays_and_maps(void **state) {
    (void)state;
    ty_column *a = tu_column("Array(Nullable(UInt8))");
    mu_err err;
    uint8_t one = 1;
    ty_column *elements = ty_column_child_mut(a, 0);
    assert_int_equal(ty_column_append_value(elements, &one, &err), 0);
    assert_int_equal(ty_column_append_null(elements, &err), 0);
    assert_int_equal(ty_column_append_nested_end(a, &err), 0); /* [1, NULL] */
    assert_int_equal(ty_column_append_nested_end(a, &err), 0); /* [] */
    assert_int_equal(ty_column_append_default(a, &err), 0);    /* [] */
    const uint32_t offsets[] = {0, 2, 2, 2};
    assert_memory_equal(ty_column_offsets(a), offsets, sizeof(offsets));
    assert_int_equal(ty_column_row_count(ty_column_child(a, 0)), 2);
    assert_int_equal(ty_column_append_null(a, &err), MU_ETYPE);
    assert_int_equal(ty_column_validate(a, &err), 0);
    ty_column_destroy(a);

    ty_column *m = tu_column("Map(String, UInt64)");
    uint64_t v = 42;
    assert_int_equal(ty_column_append_bytes(ty_column_child_mut(m, 0), "k", 1, &err), 0);
    assert_int_equal(ty_column_append_nested_end(m, &err), MU_EINVAL); /* key without value */
    assert_int_equal(ty_column_row_count(m), 0);
    assert_int_equal(ty_column_append_value(ty_column_child_mut(m, 1), &v, &err), 0);
    assert_int_equal(ty_column_append_nested_end(m, &err), 0);
    assert_int_equal(ty_column_row_count(m), 1);
    assert_int_equal(ty_column_validate(m, &err), 0);
    ty_column_destroy(m);
}

static void test_clear(void **state) {
    (void)state;
    ty_column *c = tu_column("Array(String)");
    mu_err err;
    for (int i = 0; i < 100; i++) tu_append(c, "['x','yy']");
    size_t capacity = c->offsets.capacity_bytes;
    ty_column_clear(c);
    assert_int_equal(ty_column_row_count(c), 0);
    assert_int_equal(ty_column_row_count(ty_column_child(c, 0)), 0);
    assert_int_equal(c->offsets.capacity_bytes, capacity);
    assert_int_equal(ty_column_validate(c, &err), 0);
    tu_append(c, "['z']");
    assert_string_equal(tu_row_text(c, 0, 0), "['z']");
    ty_column_destroy(c);
}

static void test_tracker(void **state) {
    (void)state;
    mu_mem_tracker tracker;
    mu_mem_tracker_init(&tracker, "test", NULL, 0);
    ty_column *c;
    mu_err err;
    assert_int_equal(ty_column_create(tu_type("Nullable(String)"), &tracker, &c, &err), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(ty_column_append_bytes(c, "0123456789", 10, &err), 0);
    assert_true(atomic_load(&tracker.used_bytes) >= 10000 + 4004 + 125);
    ty_column_destroy(c);
    assert_int_equal(atomic_load(&tracker.used_bytes), 0);

    mu_mem_tracker limited;
    mu_mem_tracker_init(&limited, "limited", NULL, 4096);
    assert_int_equal(ty_column_create(tu_type("String"), &limited, &c, &err), 0);
    int rc = 0;
    uint32_t rows = 0;
    while (rc == 0) {
        rc = ty_column_append_bytes(c, "0123456789abcdef", 16, &err);
        if (rc == 0) rows++;
    }
    assert_int_equal(rc, MU_EMEMLIMIT);
    assert_int_equal(ty_column_row_count(c), rows);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);
    assert_int_equal(atomic_load(&limited.used_bytes), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_every_type, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_fixed_width, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_nullable, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_strings, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_arrays_and_maps, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_clear, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_tracker, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
