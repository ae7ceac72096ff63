/* value_render_test.c: goal: values render exactly as ClickHouse prints
 * them in text formats: shortest round-trip floats with its notation
 * thresholds, Decimal with trimmed (or, on request, exact) fraction
 * digits, dates and times in the column's zone, lowercase UUIDs, Enum
 * names, quoted forms for composites; and every float rendering reads
 * back to the same bits. */
#include "types_test_util.h"

#include <math.h>

static const char *render(const char *type, const void *value, unsigned flags) {
    mu_buf b;
    mu_err err;
    mu_buf_init(&b, 0);
    if (ty_value_render(tu_type(type), value, flags, &b, &err) != 0)
        fail_msg("render %s: %s", type, err.message);
    const char *text = tu_buf_text(&b);
    mu_buf_deinit(&b);
    return text;
}

static void test_float64(void **state) {
    (void)state;
    const struct {
        double value;
        const char *text;
    } cases[] = {
        {0.1, "0.1"}, {1e21, "1e21"}, {1e20, "100000000000000000000"}, {1e-7, "1e-7"},
        {1e-6, "0.000001"}, {0.000001234, "0.000001234"}, {1.5e-7, "1.5e-7"},
        {123.456, "123.456"}, {-0.0, "-0"}, {0.0, "0"}, {1.0, "1"}, {-1.0, "-1"},
        {9223372036854775808.0, "9223372036854776000"},
        {1152921504606846976.0, "1152921504606847000"}, {9007199254740991.0, "9007199254740991"},
        {-9223372036854775807.0, "-9223372036854776000"},
        {1.7976931348623157e308, "1.7976931348623157e308"}, {5e-324, "5e-324"},
        {INFINITY, "inf"}, {-INFINITY, "-inf"}, {6e-9, "6e-9"},
        {6.000000000000001e-9, "6.000000000000001e-9"}, {0.1 + 0.2, "0.30000000000000004"},
        {1.0 / 3, "0.3333333333333333"}, {100.5, "100.5"}, {1e15 + 0.3, "1000000000000000.2"},
        {-2.5e-5, "-0.000025"}, {1.0000000000000002e-6, "0.0000010000000000000002"},
        {1.5e300, "1.5e300"}, {-1e22, "-1e22"}, {123456789012345680000.0, "123456789012345680000"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *got = render("Float64", &cases[i].value, 0);
        if (strcmp(got, cases[i].text) != 0)
            fail_msg("%.17g: got %s, want %s", cases[i].value, got, cases[i].text);
    }
    double nan_value = NAN;
    assert_string_equal(render("Float64", &nan_value, 0), "nan");
}

static void test_float32(void **state) {
    (void)state;
    const struct {
        float value;
        const char *text;
    } cases[] = {
        {0.1f, "0.1"}, {1.0f / 3, "0.33333334"}, {16777216.0f, "16777216"},
        {3.4028235e38f, "3.4028235e38"}, {1e-7f, "1e-7"}, {2147483648.0f, "2147483600"},
        {-2147483648.0f, "-2147483600"}, {16777215.0f, "16777215"}, {-2147483904.0f, "-2147484000"},
        {123456792.0f, "123456790"}, {1.5f, "1.5"},
        {-0.0f, "-0"}, {INFINITY, "inf"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *got = render("Float32", &cases[i].value, 0);
        if (strcmp(got, cases[i].text) != 0)
            fail_msg("%.9g: got %s, want %s", cases[i].value, got, cases[i].text);
    }
}

/* Random bit patterns: render, parse back, same bits. */
static void test_float_round_trip(void **state) {
    (void)state;
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double d;
        float f;
        uint32_t x32 = (uint32_t)(x >> 32);
        memcpy(&d, &x, 8);
        memcpy(&f, &x32, 4);
        char text[TY_FLOAT_TEXT_BYTES];
        mu_err err;
        double d2;
        float f2;
        if (!isnan(d)) {
            size_t n = ty_float64_format(d, text);
            assert_int_equal(ty_value_parse(tu_type("Float64"), text, n, &d2, &err), 0);
            if (memcmp(&d, &d2, 8) != 0) fail_msg("%.17g rendered %s", d, text);
        }
        if (!isnan(f)) {
            size_t n = ty_float32_format(f, text);
            assert_int_equal(ty_value_parse(tu_type("Float32"), text, n, &f2, &err), 0);
            if (memcmp(&f, &f2, 4) != 0) fail_msg("%.9g rendered %s", f, text);
        }
    }
}

static void test_integers_and_bool(void **state) {
    (void)state;
    uint64_t u64 = UINT64_MAX;
    int64_t i64 = INT64_MIN;
    int8_t i8 = -128;
    uint8_t u8 = 255, t = 1, f = 0;
    assert_string_equal(render("UInt64", &u64, 0), "18446744073709551615");
    assert_string_equal(render("Int64", &i64, 0), "-9223372036854775808");
    assert_string_equal(render("Int8", &i8, 0), "-128");
    assert_string_equal(render("UInt8", &u8, 0), "255");
    assert_string_equal(render("Bool", &t, 0), "true");
    assert_string_equal(render("Bool", &f, TY_RENDER_QUOTED), "false");
    assert_string_equal(render("Nullable(UInt8)", &u8, 0), "255");
}

static void test_decimal(void **state) {
    (void)state;
    int32_t d32[] = {150, 100, -150, 5, -5, 0, 123456789};
    const char *trimmed[] = {"1.5", "1", "-1.5", "0.05", "-0.05", "0", "1234567.89"};
    const char *exact[] = {"1.50", "1.00", "-1.50", "0.05", "-0.05", "0.00", "1234567.89"};
    for (size_t i = 0; i < sizeof(d32) / sizeof(d32[0]); i++) {
        assert_string_equal(render("Decimal(9, 2)", &d32[i], 0), trimmed[i]);
        assert_string_equal(render("Decimal(9, 2)", &d32[i], TY_RENDER_DECIMAL_TRAILING_ZEROS),
                            exact[i]);
    }
    int64_t d64 = -999999999999999999LL;
    assert_string_equal(render("Decimal(18, 18)", &d64, 0), "-0.999999999999999999");
    assert_string_equal(render("Decimal(18, 0)", &d64, 0), "-999999999999999999");
    __int128 max = ty_decimal_pow10(38) - 1, min = -max, tenth = ty_decimal_pow10(9);
    assert_string_equal(render("Decimal(38, 10)", &max, 0),
                        "9999999999999999999999999999.9999999999");
    assert_string_equal(render("Decimal(38, 10)", &min, 0),
                        "-9999999999999999999999999999.9999999999");
    assert_string_equal(render("Decimal(38, 10)", &tenth, 0), "0.1");
    assert_string_equal(render("Decimal(38, 10)", &tenth, TY_RENDER_DECIMAL_TRAILING_ZEROS),
                        "0.1000000000");
    assert_string_equal(render("Decimal(38, 38)", &max, 0),
                        "0.99999999999999999999999999999999999999");
}

static void test_dates_and_times(void **state) {
    (void)state;
    uint16_t date = 0, date_max = 65535;
    int32_t date32 = -25567, date32_max = 120529;
    uint32_t dt = 0, dt_max = 4294967295u, berlin_summer = 1721044800, berlin_gap = 1711845000;
    int64_t ticks = -500, ticks_max = INT64_MAX, ticks_zero = 1704067200;
    assert_string_equal(render("Date", &date, 0), "1970-01-01");
    assert_string_equal(render("Date", &date_max, 0), "2149-06-06");
    assert_string_equal(render("Date", &date, TY_RENDER_QUOTED), "'1970-01-01'");
    assert_string_equal(render("Date32", &date32, 0), "1900-01-01");
    assert_string_equal(render("Date32", &date32_max, 0), "2299-12-31");
    assert_string_equal(render("DateTime", &dt, 0), "1970-01-01 00:00:00");
    assert_string_equal(render("DateTime", &dt_max, 0), "2106-02-07 06:28:15");
    assert_string_equal(render("DateTime('Europe/Berlin')", &berlin_summer, 0),
                        "2024-07-15 14:00:00");
    assert_string_equal(render("DateTime('Europe/Berlin')", &berlin_gap, 0),
                        "2024-03-31 01:30:00");
    assert_string_equal(render("DateTime('Asia/Kolkata')", &dt, TY_RENDER_QUOTED),
                        "'1970-01-01 05:30:00'");
    assert_string_equal(render("DateTime64(3)", &ticks, 0), "1969-12-31 23:59:59.500");
    assert_string_equal(render("DateTime64(9)", &ticks_max, 0), "2262-04-11 23:47:16.854775807");
    assert_string_equal(render("DateTime64(0)", &ticks_zero, 0), "2024-01-01 00:00:00");
    assert_string_equal(render("DateTime64(1, 'Europe/Berlin')", &ticks, 0),
                        "1970-01-01 00:59:10.0");
}

/* Values far outside the calendar range a column accepts (possible in
 * decoded data) still render, without overflow. */
static void test_extreme_ticks(void **state) {
    (void)state;
    const int64_t extremes[] = {INT64_MIN, INT64_MAX, INT64_MIN + 1, -1};
    const char *types[] = {"DateTime64(0, 'Europe/Berlin')", "DateTime64(3)", "DateTime64(9)"};
    for (size_t t = 0; t < 3; t++) {
        for (size_t i = 0; i < 4; i++) {
            const char *text = render(types[t], &extremes[i], 0);
            assert_true(strlen(text) >= 19);
        }
    }
    int64_t min = INT64_MIN;
    assert_string_equal(render("DateTime64(9)", &min, 0), "1677-09-21 00:12:43.145224192");
}

static void test_uuid_and_enum(void **state) {
    (void)state;
    const uint8_t uuid[16] = {0x61, 0xF0, 0xC4, 0x04, 0x5C, 0xB3, 0x11, 0xE7,
                              0x90, 0x7B, 0xA6, 0x00, 0x6A, 0xD3, 0xDB, 0xA0};
    assert_string_equal(render("UUID", uuid, 0), "61f0c404-5cb3-11e7-907b-a6006ad3dba0");
    assert_string_equal(render("UUID", uuid, TY_RENDER_QUOTED),
                        "'61f0c404-5cb3-11e7-907b-a6006ad3dba0'");
    int8_t a = 1, undeclared = 7;
    int16_t y = -300;
    assert_string_equal(render("Enum8('a' = 1, 'b' = 2)", &a, 0), "a");
    assert_string_equal(render("Enum8('it''s' = 1)", &a, TY_RENDER_QUOTED), "'it\\'s'");
    assert_string_equal(render("Enum8('a' = 1)", &undeclared, 0), "7");
    assert_string_equal(render("Enum16('x' = -300, 'y' = 300)", &y, 0), "x");
}

static void test_not_fixed_width(void **state) {
    (void)state;
    mu_buf b;
    mu_err err;
    uint8_t v[16] = {0};
    mu_buf_init(&b, 0);
    assert_int_equal(ty_value_render(tu_type("String"), v, 0, &b, &err), MU_ETYPE);
    assert_int_equal(ty_value_render(tu_type("Array(UInt8)"), v, 0, &b, &err), MU_ETYPE);
    mu_buf_deinit(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_float64, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_float32, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_float_round_trip, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_integers_and_bool, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_decimal, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_dates_and_times, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_extreme_ticks, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_uuid_and_enum, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_not_fixed_width, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
