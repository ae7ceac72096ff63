/* column_text_test.c: goal: one row of text appends as the right value
 * and renders back as ClickHouse prints it, for every type including the
 * quoted composite forms of Array and Map with NULLs, escapes, nested
 * arrays, LowCardinality and zones; malformed composites fail with
 * MU_EPARSE; any failure, including a memory limit hit halfway through a
 * composite, leaves the column exactly as it was. */
#include "types_test_util.h"

typedef struct text_case {
    const char *type;
    const char *input;
    const char *rendered;
} text_case;

static const text_case good[] = {
    {"UInt8", "42", "42"}, {"Float64", "1e21", "1e21"}, {"Float64", "0.1", "0.1"},
    {"Float32", "0.1", "0.1"}, {"Bool", "TRUE", "true"}, {"String", "it's\ta", "it's\ta"},
    {"String", "", ""}, {"Date", "2024-02-29", "2024-02-29"},
    {"Date32", "1900-01-01", "1900-01-01"},
    {"DateTime('Europe/Berlin')", "2024-03-31 02:30:00", "2024-03-31 01:30:00"},
    {"DateTime('Europe/Berlin')", "1721044800", "2024-07-15 14:00:00"},
    {"DateTime64(3, 'UTC')", "2024-01-01 00:00:00.5", "2024-01-01 00:00:00.500"},
    {"UUID", "61F0C404-5CB3-11E7-907B-A6006AD3DBA0", "61f0c404-5cb3-11e7-907b-a6006ad3dba0"},
    {"Decimal(10, 2)", "1.50", "1.5"}, {"Decimal(38, 10)", "-0.0000000001", "-0.0000000001"},
    {"Enum8('a' = 1, 'b' = 2)", "2", "b"}, {"Nullable(UInt8)", "7", "7"},
    {"LowCardinality(String)", "x", "x"}, {"LowCardinality(Nullable(String))", "y", "y"},
    {"LowCardinality(UInt32)", "123", "123"}, {"Array(UInt8)", "[1, 2,3]", "[1,2,3]"},
    {"Array(UInt8)", "[]", "[]"}, {"Array(UInt8)", " [ ] ", "[]"},
    {"Array(String)", "['a','b\\'c']", "['a','b\\'c']"},
    {"Array(String)", "['it''s']", "['it\\'s']"},
    {"Array(Nullable(String))", "['a',NULL,null]", "['a',NULL,NULL]"},
    {"Array(Array(Int32))", "[[1],[],[2,3]]", "[[1],[],[2,3]]"},
    {"Map(String, UInt64)", "{'a':1, 'b' : 2}", "{'a':1,'b':2}"},
    {"Map(String, UInt64)", "{}", "{}"},
    {"Map(String, Array(Nullable(Int32)))", "{'k':[1,NULL]}", "{'k':[1,NULL]}"},
    {"Array(Date)", "['2024-01-01']", "['2024-01-01']"},
    {"Array(DateTime('Europe/Berlin'))", "['2024-07-15 14:00:00']", "['2024-07-15 14:00:00']"},
    {"Array(Decimal(10, 2))", "[1.5, -0.25]", "[1.5,-0.25]"},
    {"Array(Enum8('a' = 1, 'b' = 2))", "['a','b']", "['a','b']"},
    {"Array(Enum8('a' = 1, 'b' = 2))", "['1','2']", "['a','b']"},
    {"Array(DateTime('UTC'))", "[0, '1970-01-01 00:00:01']",
     "['1970-01-01 00:00:00','1970-01-01 00:00:01']"},
    {"Array(UUID)", "['61f0c404-5cb3-11e7-907b-a6006ad3dba0']",
     "['61f0c404-5cb3-11e7-907b-a6006ad3dba0']"},
    {"Array(LowCardinality(Nullable(String)))", "['a',NULL,'a']", "['a',NULL,'a']"},
    {"Array(Float64)", "[inf,-inf,nan,1e-7]", "[inf,-inf,nan,1e-7]"},
    {"Array(Bool)", "[true,false,1]", "[true,false,true]"},
    {"Array(String)", "['\\x41\\n\\\\']", "['A\\n\\\\']"},
    {"Array(FixedString(2))", "['a']", "['a\\0']"},
    {"Map(LowCardinality(String), Map(String, String))", "{'x':{'y':'z'}}", "{'x':{'y':'z'}}"},
    {"Array(Nullable(Decimal(9, 3)))", "[NULL, 1.2345]", "[NULL,1.234]"},
};

static void test_good(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ty_column *c = tu_column(good[i].type);
        mu_err err;
        if (ty_column_append_text(c, good[i].input, strlen(good[i].input), &err) != 0)
            fail_msg("%s as %s: %s", good[i].input, good[i].type, err.message);
        assert_int_equal(ty_column_validate(c, &err), 0);
        const char *got = tu_row_text(c, 0, 0);
        if (strcmp(got, good[i].rendered) != 0)
            fail_msg("%s as %s: rendered %s, want %s", good[i].input, good[i].type, got,
                     good[i].rendered);
        /* What is rendered reads back to an equal value. */
        char *again = strdup(got);
        if (strcmp(good[i].type, "Float64") != 0 || strcmp(again, "nan") != 0) {
            tu_append(c, again);
            assert_true(ty_column_equal_row(c, 0, c, 1));
        }
        free(again);
        ty_column_destroy(c);
    }
}

static void test_nulls_and_fixed_string(void **state) {
    (void)state;
    ty_column *c = tu_column("Nullable(String)");
    mu_err err;
    assert_int_equal(ty_column_append_null(c, &err), 0);
    tu_append(c, "\\N"); /* a string, not NULL: null markers belong to formats */
    assert_string_equal(tu_row_text(c, 0, 0), "\\N");
    assert_string_equal(tu_row_text(c, 0, TY_RENDER_QUOTED), "NULL");
    assert_false(ty_column_is_null(c, 1));
    assert_string_equal(tu_row_text(c, 1, TY_RENDER_QUOTED), "'\\\\N'");
    ty_column_destroy(c);

    c = tu_column("FixedString(4)");
    tu_append(c, "ab");
    mu_buf b;
    mu_buf_init(&b, 0);
    assert_int_equal(ty_column_render_text(c, 0, 0, &b, &err), 0);
    assert_int_equal(b.length_bytes, 4);
    assert_memory_equal(b.data, "ab\0\0", 4);
    mu_buf_deinit(&b);
    assert_int_equal(ty_column_append_text(c, "abcde", 5, &err), MU_EPARSE);
    assert_int_equal(ty_column_row_count(c), 1);
    ty_column_destroy(c);

    c = tu_column("Decimal(9, 2)");
    tu_append(c, "3");
    assert_string_equal(tu_row_text(c, 0, TY_RENDER_DECIMAL_TRAILING_ZEROS), "3.00");
    ty_column_destroy(c);
}

typedef struct bad_case {
    const char *type;
    const char *input;
} bad_case;

static const bad_case bad[] = {
    {"Array(UInt8)", ""}, {"Array(UInt8)", "["}, {"Array(UInt8)", "]"}, {"Array(UInt8)", "[1,"},
    {"Array(UInt8)", "[1,]"}, {"Array(UInt8)", "[,1]"}, {"Array(UInt8)", "[1 2]"},
    {"Array(UInt8)", "[300]"}, {"Array(UInt8)", "[1]x"}, {"Array(UInt8)", "1,2"},
    {"Array(UInt8)", "[NULL]"}, {"Array(UInt8)", "[[1]]"}, {"Array(UInt8)", "{1}"},
    {"Array(String)", "[a]"}, {"Array(String)", "['a]"}, {"Array(String)", "['a' 'b']"},
    {"Array(String)", "['a\\"}, {"Array(FixedString(1))", "['ab']"},
    {"Map(String, UInt8)", "{'a'}"}, {"Map(String, UInt8)", "{'a':}"},
    {"Map(String, UInt8)", "{'a':1,}"}, {"Map(String, UInt8)", "{:1}"},
    {"Map(String, UInt8)", "{'a':1"}, {"Map(String, UInt8)", "['a':1]"},
    {"Map(String, UInt8)", "{'a':1}}"}, {"Map(String, UInt8)", "{'a':256}"},
    {"Array(Array(UInt8))", "[[1],[2]"}, {"Array(Array(UInt8))", "[[1],2]"},
    {"Array(Date)", "['2024-02-30']"}, {"Array(Date)", "[2024-01-01]"},
    {"Array(Enum8('a' = 1))", "['b']"}, {"Array(Enum8('a' = 1))", "[1]"},
    {"Array(UUID)", "[61f0c404-5cb3-11e7-907b-a6006ad3dba0]"},
    {"Array(Nullable(UInt8))", "[NULLX]"},
    {"Array(Nullable(UInt8))", "[NUL]"}, {"UInt8", "[1]"}, {"Date", "2024-01-01x"},
    {"LowCardinality(UInt32)", "-1"}, {"LowCardinality(FixedString(2))", "abc"},
    {"Enum8('a' = 1)", "b"},
};

static void test_bad(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ty_column *c = tu_column(bad[i].type);
        mu_err err;
        assert_int_equal(ty_column_append_default(c, &err), 0);
        int rc = ty_column_append_text(c, bad[i].input, strlen(bad[i].input), &err);
        if (rc != MU_EPARSE && rc != MU_EPARSE_DATE && rc != MU_EPARSE_DATETIME && rc != MU_EPARSE_UUID)
            fail_msg("%s as %s: got %d, want a parse error", bad[i].input, bad[i].type, rc);
        assert_int_equal(ty_column_row_count(c), 1);
        assert_int_equal(ty_column_validate(c, &err), 0);
        ty_column_destroy(c);
    }
}

/* The allocation-failure loop: every memory limit either lets the append
 * through or fails it with the column untouched. */
static void test_memory_limit_loop(void **state) {
    (void)state;
    const char *input = "{'key':[1,NULL,3],'other':[],'third':[NULL]}";
    const ty_type *type = tu_type("Map(LowCardinality(String), Array(Nullable(Int32)))");
    int successes = 0, failures = 0;
    for (int64_t limit = 0; limit < 16384; limit += 16) {
        mu_mem_tracker tracker;
        mu_mem_tracker_init(&tracker, "loop", NULL, limit);
        ty_column *c;
        mu_err err;
        if (ty_column_create(type, &tracker, &c, &err) != 0) {
            assert_int_equal(atomic_load(&tracker.used_bytes), 0);
            continue;
        }
        for (int round = 0; round < 4; round++) {
            uint32_t rows = ty_column_row_count(c);
            int rc = ty_column_append_text(c, input, strlen(input), &err);
            if (rc == 0) {
                successes++;
                continue;
            }
            failures++;
            assert_int_equal(rc, MU_EMEMLIMIT);
            assert_int_equal(ty_column_row_count(c), rows);
            assert_int_equal(ty_column_validate(c, &err), 0);
        }
        for (uint32_t r = 0; r < ty_column_row_count(c); r++)
            assert_string_equal(tu_row_text(c, r, 0), input);
        ty_column_destroy(c);
        assert_int_equal(atomic_load(&tracker.used_bytes), 0);
    }
    assert_true(successes > 0);
    assert_true(failures > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_good, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_nulls_and_fixed_string, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_bad, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_memory_limit_loop, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
