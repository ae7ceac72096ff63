/* part_sort_test.c: goal — prove that part_sort_permutation returns a
 * permutation that orders rows by the key columns under
 * ty_column_compare_rows and is stable, for every fast path (unsigned,
 * signed, 8-byte, float with NaN/-0/NULL, LowCardinality ranks, String
 * prefixes with long common prefixes) and for the generic one (Decimal128,
 * UUID, Array, nullable 8-byte integers, multi-column keys); that NULLs
 * sort last and NaN after +inf; and that trivial inputs (no rows, one row,
 * no key, already sorted, reversed) are handled; also the radix path
 * (keys packed into 64 bits) against the same checks, Strings of few
 * distinct values ranked exactly and of many by their prefixes.
 */
#include "part_test_util.h"

/* perm is a permutation, sorted by the keys, and stable. */
static void check_permutation(ty_column *const *columns, const uint32_t *keys, uint32_t key_count,
                              uint32_t rows, const uint32_t *perm) {
    uint8_t *seen = calloc(rows + 1, 1);
    for (uint32_t i = 0; i < rows; i++) {
        assert_true(perm[i] < rows && !seen[perm[i]]);
        seen[perm[i]] = 1;
    }
    free(seen);
    for (uint32_t i = 1; i < rows; i++) {
        int c = 0;
        for (uint32_t k = 0; k < key_count && c == 0; k++)
            c = ty_column_compare_rows(columns[keys[k]], perm[i - 1], columns[keys[k]], perm[i]);
        if (c > 0) fail_msg("rows %u and %u out of order at %u", perm[i - 1], perm[i], i);
        if (c == 0 && perm[i - 1] > perm[i]) fail_msg("unstable at %u", i);
    }
}

static void sort_and_check(ty_column *const *columns, const uint32_t *keys, uint32_t key_count,
                           uint32_t rows) {
    uint32_t *perm = malloc((rows + 1) * sizeof(uint32_t));
    mu_err err;
    pt_check(part_sort_permutation((const ty_column *const *)columns, keys, key_count, rows, perm,
                                   &err),
             &err, "sort");
    check_permutation(columns, keys, key_count, rows, perm);
    free(perm);
}

static void test_single_keys(void **state) {
    (void)state;
    static const char *types[] = {
        "UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int32", "Int64", "Nullable(Int64)",
        "Nullable(UInt64)", "Nullable(Int32)", "Float32", "Nullable(Float64)", "Date32",
        "DateTime64(3)", "Decimal(9, 2)", "Decimal(18, 2)", "Nullable(Decimal(18, 2))",
        "Decimal(38, 2)", "UUID", "Bool", "Enum8('a' = -5, 'b' = 3)", "String",
        "Nullable(String)", "FixedString(3)", "LowCardinality(String)",
        "LowCardinality(Nullable(String))", "LowCardinality(UInt16)", "Array(Int32)",
        "Map(String, UInt8)"};
    for (size_t t = 0; t < MU_ARRAY_LEN(types); t++) {
        ty_column *c = pt_random_column(types[t], 3000);
        uint32_t key = 0;
        sort_and_check(&c, &key, 1, 3000);
        sort_and_check(&c, &key, 1, 17); /* a prefix of the rows */
        ty_column_destroy(c);
    }
}

static void test_multi_column_keys(void **state) {
    (void)state;
    ty_column *c[4] = {pt_random_column("LowCardinality(String)", 5000),
                       pt_random_column("UInt8", 5000),
                       pt_random_column("Nullable(String)", 5000),
                       pt_random_column("Int64", 5000)};
    uint32_t keys_a[3] = {0, 1, 3}, keys_b[2] = {2, 1}, keys_c[2] = {1, 0};
    uint32_t keys_d[4] = {1, 2, 0, 3}, keys_e[5] = {1, 0, 1, 2, 3};
    sort_and_check(c, keys_a, 3, 5000);
    sort_and_check(c, keys_b, 2, 5000);
    sort_and_check(c, keys_c, 2, 5000);
    sort_and_check(c, keys_d, 4, 5000); /* an inexact (String prefix) second key */
    sort_and_check(c, keys_e, 5, 5000); /* more keys than are normalized */
    for (int i = 0; i < 4; i++) ty_column_destroy(c[i]);
}

/* Keys whose ranges pack into 64 bits (the radix path), with many ties
 * (stability), negative values and a constant key; and keys just past 64
 * bits (the merge path). */
static void test_packed_keys(void **state) {
    (void)state;
    enum { ROWS = 20000 };
    ty_column *c[5] = {pt_column("UInt16"), pt_column("DateTime('UTC')"), pt_column("Int8"),
                       pt_column("UInt8"), pt_column("Int64")};
    mu_err err;
    for (uint32_t i = 0; i < ROWS; i++) {
        uint16_t a = (uint16_t)(i % 7);
        uint32_t b = 1700000000u + (i * 37u) % 1000u;
        int8_t k = (int8_t)((int)(i % 5) - 2);
        uint8_t constant = 9;
        int64_t wide = (int64_t)((i * 2654435761u) % 100000u) * ((i % 2) ? 1 : -1) * 90000000000LL;
        pt_check(ty_column_append_value(c[0], &a, &err), &err, "a");
        pt_check(ty_column_append_value(c[1], &b, &err), &err, "b");
        pt_check(ty_column_append_value(c[2], &k, &err), &err, "k");
        pt_check(ty_column_append_value(c[3], &constant, &err), &err, "constant");
        pt_check(ty_column_append_value(c[4], &wide, &err), &err, "wide");
    }
    uint32_t keys_a[3] = {0, 1, 2}, keys_b[2] = {2, 0}, keys_c[2] = {3, 2}, keys_d[2] = {4, 0};
    uint32_t keys_e[1] = {4};
    sort_and_check(c, keys_a, 3, ROWS); /* 3 + 10 + 3 bits */
    sort_and_check(c, keys_b, 2, ROWS); /* many ties: stability */
    sort_and_check(c, keys_c, 2, ROWS); /* a constant first key */
    sort_and_check(c, keys_d, 2, ROWS); /* 64 + 3 bits: the merge sort */
    sort_and_check(c, keys_e, 1, ROWS); /* one key of (almost) 64 bits */
    for (int i = 0; i < 5; i++) ty_column_destroy(c[i]);
}

/* Strings sharing long prefixes: the 8-byte prefix ties, the full
 * comparison decides. */
static void test_string_prefix_ties(void **state) {
    (void)state;
    ty_column *c = pt_column("Nullable(String)");
    mu_err err;
    for (int i = 0; i < 2000; i++) {
        char text[32];
        int n = snprintf(text, sizeof(text), "prefix__%d", (int)(pt_rand() % 500));
        if (i % 9 == 0) {
            pt_check(ty_column_append_null(c, &err), &err, "null");
        } else if (i % 13 == 0) {
            pt_check(ty_column_append_bytes(c, "\xff\xff\xff\xff\xff\xff\xff\xff\xff", 9, &err),
                     &err, "ff");
        } else {
            pt_check(ty_column_append_bytes(c, text, (size_t)(i % 7 == 0 ? 6 : n), &err), &err,
                     "s");
        }
    }
    uint32_t key = 0;
    sort_and_check(&c, &key, 1, 2000);
    ty_column_destroy(c);
}

/* Strings of few distinct values are ranked exactly (then packed with a
 * time key for the radix path); past 4096 distinct values the prefix form
 * is used. Both with empty strings, embedded NULs, 0xff bytes and NULLs. */
static void test_string_ranks_and_prefixes(void **state) {
    (void)state;
    enum { ROWS = 20000 };
    ty_column *c[3] = {pt_column("String"), pt_column("Nullable(String)"),
                       pt_column("DateTime('UTC')")};
    static const char *few[] = {"", "a", "ab", "a\0", "a\0b", "\xff", "\xff\xff", "zz",
                                "inventory", "inventorx", "notifier", "notifier-long-name"};
    static const size_t few_bytes[] = {0, 1, 2, 2, 3, 1, 2, 2, 9, 9, 8, 18};
    mu_err err;
    for (uint32_t i = 0; i < ROWS; i++) {
        char text[32];
        int n = snprintf(text, sizeof(text), "prefix__%u", (unsigned)(pt_rand() % 5000));
        pt_check(ty_column_append_bytes(c[0], text, (size_t)n, &err), &err, "many");
        uint32_t f = (uint32_t)(pt_rand() % (MU_ARRAY_LEN(few) + 1));
        if (f == MU_ARRAY_LEN(few))
            pt_check(ty_column_append_null(c[1], &err), &err, "null");
        else
            pt_check(ty_column_append_bytes(c[1], few[f], few_bytes[f], &err), &err, "few");
        uint32_t t = 1700000000u + (uint32_t)(pt_rand() % 86400u);
        pt_check(ty_column_append_value(c[2], &t, &err), &err, "t");
    }
    uint32_t keys_a[2] = {1, 2}, keys_b[1] = {0}, keys_c[2] = {1, 0}, keys_d[3] = {2, 1, 0};
    sort_and_check(c, keys_a, 2, ROWS); /* ranks + time: the radix path */
    sort_and_check(c, keys_b, 1, ROWS); /* 5000 distinct: prefixes */
    sort_and_check(c, keys_c, 2, ROWS);
    sort_and_check(c, keys_d, 3, ROWS);
    for (int i = 0; i < 3; i++) ty_column_destroy(c[i]);
}

static void test_special_values_order(void **state) {
    (void)state;
    ty_column *c = pt_column("Nullable(Float64)");
    mu_err err;
    const double values[] = {NAN, 1.0, -0.0, INFINITY, 0.0, -INFINITY, NAN, -1.0};
    for (int i = 0; i < 8; i++) pt_check(ty_column_append_value(c, &values[i], &err), &err, "v");
    pt_check(ty_column_append_null(c, &err), &err, "null");
    pt_check(ty_column_append_value(c, &values[0], &err), &err, "nan");
    uint32_t perm[10], key = 0;
    pt_check(part_sort_permutation((const ty_column *const *)&c, &key, 1, 10, perm, &err), &err,
             "sort");
    /* -inf, -1, -0 and +0 in input order, 1, +inf, the NaNs in order, NULL. */
    const uint32_t expected[10] = {5, 7, 2, 4, 1, 3, 0, 6, 9, 8};
    assert_memory_equal(perm, expected, sizeof(expected));
    ty_column_destroy(c);
}

static void test_trivial_inputs(void **state) {
    (void)state;
    ty_column *c = pt_column("Int32");
    mu_err err;
    for (int32_t i = 0; i < 100; i++) {
        int32_t v = 100 - i;
        pt_check(ty_column_append_value(c, &v, &err), &err, "v");
    }
    uint32_t perm[100], key = 0;
    assert_int_equal(part_sort_permutation((const ty_column *const *)&c, &key, 1, 0, perm, &err),
                     0);
    pt_check(part_sort_permutation((const ty_column *const *)&c, &key, 1, 1, perm, &err), &err,
             "one row");
    assert_int_equal(perm[0], 0);
    pt_check(part_sort_permutation((const ty_column *const *)&c, &key, 0, 100, perm, &err), &err,
             "no key");
    for (uint32_t i = 0; i < 100; i++) assert_int_equal(perm[i], i);
    pt_check(part_sort_permutation((const ty_column *const *)&c, &key, 1, 100, perm, &err), &err,
             "reversed");
    for (uint32_t i = 0; i < 100; i++) assert_int_equal(perm[i], 99 - i);
    ty_column *sorted = pt_column("Int32");
    for (int32_t i = 0; i < 100; i++) pt_check(ty_column_append_value(sorted, &i, &err), &err, "v");
    pt_check(part_sort_permutation((const ty_column *const *)&sorted, &key, 1, 100, perm, &err),
             &err, "sorted");
    for (uint32_t i = 0; i < 100; i++) assert_int_equal(perm[i], i);
    ty_column_destroy(c);
    ty_column_destroy(sorted);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_single_keys, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_multi_column_keys, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_packed_keys, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_string_prefix_ties, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_string_ranks_and_prefixes, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_special_values_order, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_trivial_inputs, pt_setup, pt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
