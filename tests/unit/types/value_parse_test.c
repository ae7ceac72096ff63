/* value_parse_test.c: goal: strict text parsing of every fixed-width type
 * accepts exactly ClickHouse's TabSeparated forms with the right values at
 * every boundary (UInt64 max, Int64 min, Date/Date32/DateTime limits,
 * DateTime64 precision and truncation, Decimal(38, 10) extremes and cut
 * fraction digits, DST gaps), and refuses everything else with MU_EPARSE
 * and a message naming value, type and reason. */
#include "types_test_util.h"

#include <math.h>

static int parse(const char *type, const char *text, void *out, mu_err *err) {
    mu_err_clear(err);
    return ty_value_parse(tu_type(type), text, strlen(text), out, err);
}

/* Reads back a parsed value of any integer-like width as int64. */
static int64_t parsed_int(const ty_type *t, const uint8_t *v) {
    bool is_signed = t->kind == TY_INT8 || t->kind == TY_INT16 || t->kind == TY_INT32 ||
                     t->kind == TY_INT64 || t->kind == TY_DATE32 || t->kind == TY_DATETIME64 ||
                     t->kind == TY_ENUM8 || t->kind == TY_ENUM16 || t->kind == TY_DECIMAL;
    switch (ty_type_value_bytes(t)) {
    case 1: return is_signed ? (int8_t)v[0] : v[0];
    case 2: { uint16_t x; memcpy(&x, v, 2); return is_signed ? (int16_t)x : x; }
    case 4: { uint32_t x; memcpy(&x, v, 4); return is_signed ? (int64_t)(int32_t)x : (int64_t)x; }
    default: { int64_t x; memcpy(&x, v, 8); return x; }
    }
}

typedef struct good_int {
    const char *type;
    const char *text;
    int64_t value;
} good_int;

static const good_int good_ints[] = {
    {"UInt8", "0", 0}, {"UInt8", "255", 255}, {"UInt8", "+7", 7}, {"UInt8", "007", 7},
    {"UInt8", "-0", 0}, {"UInt16", "65535", 65535}, {"UInt32", "4294967295", 4294967295LL},
    {"UInt64", "18446744073709551615", -1}, {"UInt64", "0", 0},
    {"Int8", "-128", -128}, {"Int8", "127", 127}, {"Int16", "-32768", -32768},
    {"Int16", "32767", 32767}, {"Int32", "-2147483648", -2147483648LL},
    {"Int32", "2147483647", 2147483647}, {"Int64", "-9223372036854775808", INT64_MIN},
    {"Int64", "9223372036854775807", INT64_MAX}, {"Int64", "-0", 0},
    {"Bool", "true", 1}, {"Bool", "false", 0}, {"Bool", "1", 1}, {"Bool", "0", 0},
    {"Bool", "TRUE", 1}, {"Bool", "False", 0}, {"Bool", "yes", 1}, {"Bool", "off", 0},
    {"Date", "1970-01-01", 0}, {"Date", "2149-06-06", 65535}, {"Date", "2024-02-29", 19782},
    {"Date32", "1900-01-01", -25567}, {"Date32", "2299-12-31", 120529},
    {"Date32", "1969-12-31", -1}, {"Date32", "2000-02-29", 11016},
    {"DateTime", "1970-01-01 00:00:00", 0}, {"DateTime", "2106-02-07 06:28:15", 4294967295LL},
    {"DateTime", "2024-01-01", 1704067200}, {"DateTime", "2024-01-01T12:00:00", 1704110400},
    {"DateTime", "1704067200", 1704067200}, {"DateTime", "0", 0},
    {"DateTime", "4294967295", 4294967295LL},
    {"DateTime('Europe/Berlin')", "2024-07-15 14:00:00", 1721044800},
    {"DateTime('Europe/Berlin')", "2024-03-31 02:30:00", 1711845000},
    {"DateTime('Europe/Berlin')", "2024-10-27 02:30:00", 1729989000},
    {"DateTime('Asia/Kolkata')", "2024-01-01 05:30:00", 1704067200},
    {"DateTime64(3)", "2024-01-01 00:00:00.123", 1704067200123LL},
    {"DateTime64(3)", "2024-01-01 00:00:00", 1704067200000LL},
    {"DateTime64(3)", "2024-01-01 00:00:00.1", 1704067200100LL},
    {"DateTime64(3)", "2024-01-01 00:00:00.123456", 1704067200123LL},
    {"DateTime64(3)", "1969-12-31 23:59:59.500", -500},
    {"DateTime64(3)", "1900-01-01 00:00:00", -2208988800000LL},
    {"DateTime64(3)", "2299-12-31 23:59:59.999", 10413791999999LL},
    {"DateTime64(3)", "1704067200.5", 1704067200500LL}, {"DateTime64(3)", "-1.5", -1500},
    {"DateTime64(3)", "0", 0}, {"DateTime64(0)", "2024-01-01 00:00:00.9", 1704067200},
    {"DateTime64(9)", "2262-04-11 23:47:16.854775807", INT64_MAX},
    {"DateTime64(9)", "1900-01-01 00:00:00.000000000", -2208988800000000000LL},
    {"DateTime64(6, 'Europe/Berlin')", "2024-07-15 14:00:00.000001", 1721044800000001LL},
    {"Decimal(10, 2)", "1.5", 150}, {"Decimal(10, 2)", "-1.5", -150},
    {"Decimal(10, 2)", "12345678.99", 1234567899}, {"Decimal(10, 2)", "1.239", 123},
    {"Decimal(10, 2)", "-1.239", -123}, {"Decimal(10, 2)", "0.001", 0},
    {"Decimal(10, 2)", "1e2", 10000}, {"Decimal(10, 2)", "1.5e-1", 15},
    {"Decimal(10, 2)", "+3", 300}, {"Decimal(10, 2)", ".5", 50}, {"Decimal(10, 2)", "5.", 500},
    {"Decimal(10, 2)", "00001.10", 110}, {"Decimal(10, 2)", "0", 0},
    {"Decimal(10, 2)", "-0.00", 0}, {"Decimal(10, 2)", "0e1000", 0},
    {"Decimal(10, 2)", "1e-1000000", 0}, {"Decimal(10, 2)", "0.05e1", 50},
    {"Decimal(9, 9)", "0.123456789", 123456789}, {"Decimal(9, 9)", "0.5e-20", 0},
    {"Decimal(9, 0)", "999999999", 999999999}, {"Decimal(9, 0)", "-999999999", -999999999},
    {"Decimal(18, 0)", "999999999999999999", 999999999999999999LL},
    {"Decimal(18, 18)", "-0.999999999999999999", -999999999999999999LL},
    {"Enum8('a' = 1, 'b' = 2)", "a", 1}, {"Enum8('a' = 1, 'b' = 2)", "b", 2},
    {"Enum8('a' = 1, 'b' = 2)", "2", 2}, {"Enum16('x' = -300, 'y' = 300)", "y", 300},
    {"Enum16('x' = -300, 'y' = 300)", "-300", -300}, {"Enum8('1' = 2, '2' = 1)", "1", 2},
};

static void test_good_integers_and_dates(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(good_ints) / sizeof(good_ints[0]); i++) {
        uint8_t v[16];
        mu_err err;
        const ty_type *t = tu_type(good_ints[i].type);
        if (parse(good_ints[i].type, good_ints[i].text, v, &err) != 0)
            fail_msg("%s as %s: %s", good_ints[i].text, good_ints[i].type, err.message);
        if (parsed_int(t, v) != good_ints[i].value)
            fail_msg("%s as %s: %lld, want %lld", good_ints[i].text, good_ints[i].type,
                     (long long)parsed_int(t, v), (long long)good_ints[i].value);
    }
}

typedef struct bad_text {
    const char *type;
    const char *text;
} bad_text;

static const bad_text bad_texts[] = {
    {"UInt8", "256"}, {"UInt8", "300"}, {"UInt8", "-1"}, {"UInt8", ""}, {"UInt8", " 1"},
    {"UInt8", "1 "}, {"UInt8", "1a"}, {"UInt8", "0x10"}, {"UInt8", "1e2"}, {"UInt8", "1.0"},
    {"UInt8", "+"}, {"UInt8", "-"}, {"UInt8", "+-1"}, {"UInt16", "65536"},
    {"UInt32", "4294967296"}, {"UInt64", "18446744073709551616"},
    {"UInt64", "99999999999999999999999"}, {"UInt64", "-1"}, {"Int8", "-129"},
    {"Int8", "128"}, {"Int16", "32768"}, {"Int32", "-2147483649"},
    {"Int64", "-9223372036854775809"}, {"Int64", "9223372036854775808"},
    {"Int64", "1_000"}, {"Float64", ""}, {"Float64", "1e"}, {"Float64", "e5"},
    {"Float64", "."}, {"Float64", "0x1p3"}, {"Float64", "1.2.3"}, {"Float64", " 1"},
    {"Float64", "1 "}, {"Float64", "--1"}, {"Float64", "nanx"}, {"Float64", "in"},
    {"Float64", "1e+"}, {"Float64", "+.e1"}, {"Float32", "1,5"}, {"Float32", "infinit"},
    {"Bool", "2"}, {"Bool", "tru"}, {"Bool", ""}, {"Bool", "truee"}, {"Bool", " true"},
    {"Date", "1969-12-31"}, {"Date", "2149-06-07"}, {"Date", "2023-02-29"},
    {"Date", "2024-13-01"}, {"Date", "2024-00-10"}, {"Date", "2024-01-32"},
    {"Date", "2024-1-01"}, {"Date", "20240101"}, {"Date", "2024-01-01 "}, {"Date", ""},
    {"Date", "abcd-ef-gh"}, {"Date", "2024/01/01"}, {"Date", "19000"},
    {"Date32", "1899-12-31"}, {"Date32", "2300-01-01"}, {"DateTime", "2106-02-07 06:28:16"},
    {"DateTime", "4294967296"}, {"DateTime", "1969-12-31 23:59:59"},
    {"DateTime", "2024-01-01 24:00:00"}, {"DateTime", "2024-01-01 12:00"},
    {"DateTime", "2024-01-01 12:00:00Z"}, {"DateTime", "2024-01-01  12:00:00"},
    {"DateTime", "-1"}, {"DateTime", ""}, {"DateTime", "2024-01-01 12:60:00"},
    {"DateTime", "2024-01-01 12:00:60"}, {"DateTime", "99999999999999999999999"},
    {"DateTime64(3)", "1899-12-31 23:59:59"}, {"DateTime64(3)", "2300-01-01 00:00:00"},
    {"DateTime64(3)", "2024-01-01 00:00:00."}, {"DateTime64(3)", "2024-01-01 00:00:00.12a"},
    {"DateTime64(3)", "2024-01-01 00:00:00,5"}, {"DateTime64(3)", "1.2.3"},
    {"DateTime64(3)", ""}, {"DateTime64(3)", "-"}, {"DateTime64(3)", ".5"},
    {"DateTime64(3)", "1234567890123456"},
    {"DateTime64(9)", "2262-04-11 23:47:16.854775808"},
    {"UUID", "61f0c404-5cb3-11e7-907b-a6006ad3dba"},
    {"UUID", "61f0c404-5cb3-11e7-907b-a6006ad3dbag"},
    {"UUID", "61f0c4045-cb3-11e7-907b-a6006ad3dba0"}, {"UUID", ""},
    {"UUID", "61f0c404-5cb3-11e7-907b-a6006ad3dba00"}, {"UUID", "{61f0c404-5cb3-11e7-907b-a6006a}"},
    {"Decimal(10, 2)", "123456789"}, {"Decimal(10, 2)", ""}, {"Decimal(10, 2)", "."},
    {"Decimal(10, 2)", "1..2"}, {"Decimal(10, 2)", "1e"}, {"Decimal(10, 2)", "abc"},
    {"Decimal(10, 2)", "1,5"}, {"Decimal(10, 2)", "1e1000"}, {"Decimal(10, 2)", "--1"},
    {"Decimal(10, 2)", "1.5 "}, {"Decimal(10, 2)", "inf"}, {"Decimal(10, 2)", "nan"},
    {"Decimal(9, 9)", "1"}, {"Decimal(38, 10)", "99999999999999999999999999999"},
    {"Decimal(38, 10)", "1e28"}, {"Decimal(10, 2)", "1e+"},
    {"Enum8('a' = 1, 'b' = 2)", "c"}, {"Enum8('a' = 1, 'b' = 2)", "3"},
    {"Enum8('a' = 1, 'b' = 2)", "A"}, {"Enum8('a' = 1, 'b' = 2)", ""},
    {"Enum8('a' = 1, 'b' = 2)", "1.0"}, {"Enum8('a' = 1, 'b' = 2)", " a"},
};

static void test_bad_texts(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(bad_texts) / sizeof(bad_texts[0]); i++) {
        uint8_t v[16];
        mu_err err;
        int rc = parse(bad_texts[i].type, bad_texts[i].text, v, &err);
        if (rc != MU_EPARSE && rc != MU_EPARSE_DATE && rc != MU_EPARSE_DATETIME && rc != MU_EPARSE_UUID)
            fail_msg("\"%s\" as %s: got %d, want a parse error", bad_texts[i].text,
                     bad_texts[i].type, rc);
        assert_non_null(strstr(err.message, "cannot parse \""));
        assert_non_null(strstr(err.message, tu_type_text(tu_type(bad_texts[i].type))));
    }
}

static void test_message_shape(void **state) {
    (void)state;
    uint8_t v[16];
    mu_err err;
    assert_int_equal(parse("UInt8", "300", v, &err), MU_EPARSE);
    assert_string_equal(err.message, "cannot parse \"300\" as UInt8: value out of range 0..255");
    assert_int_equal(parse("Int8", "-129", v, &err), MU_EPARSE);
    assert_string_equal(err.message,
                        "cannot parse \"-129\" as Int8: value out of range -128..127");
    assert_int_equal(parse("Nullable(Date)", "2024-02-30", v, &err), MU_EPARSE_DATE);
    assert_non_null(strstr(err.message, "as Date:"));
    assert_int_equal(parse("DateTime", "2024-02-30 00:00:00", v, &err), MU_EPARSE_DATETIME);
    assert_int_equal(parse("UUID", "x", v, &err), MU_EPARSE_UUID);
    /* Control bytes and long values are shown safely. */
    char long_text[300];
    memset(long_text, '9', sizeof(long_text) - 1);
    long_text[sizeof(long_text) - 1] = 0;
    long_text[0] = '\n';
    assert_int_equal(parse("UInt8", long_text, v, &err), MU_EPARSE);
    assert_non_null(strstr(err.message, "\\x0a99"));
    assert_non_null(strstr(err.message, "...\""));
    assert_true(strlen(err.message) < 200);
}

static void test_floats(void **state) {
    (void)state;
    const struct {
        const char *text;
        double value;
    } cases[] = {
        {"0.1", 0.1}, {"-1.5e-3", -1.5e-3}, {"1e308", 1e308}, {"inf", INFINITY},
        {"-inf", -INFINITY}, {"+inf", INFINITY}, {"INF", INFINITY}, {"infinity", INFINITY},
        {".5", 0.5}, {"5.", 5.0}, {"1E5", 1e5}, {"1e400", INFINITY}, {"4.9e-324", 4.9e-324},
        {"-0", -0.0}, {"+1.25", 1.25}, {"1e-400", 0.0},
        {"123456789012345678901234567890", 1.2345678901234568e29},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double d;
        mu_err err;
        assert_int_equal(parse("Float64", cases[i].text, &d, &err), 0);
        if (d != cases[i].value) fail_msg("%s: %.17g", cases[i].text, d);
    }
    double d;
    float f;
    mu_err err;
    assert_int_equal(parse("Float64", "nan", &d, &err), 0);
    assert_true(isnan(d));
    assert_int_equal(parse("Float64", "-NaN", &d, &err), 0);
    assert_true(isnan(d));
    assert_int_equal(parse("Float32", "3.4028235e38", &f, &err), 0);
    assert_true(f == 3.4028235e38f);
    assert_int_equal(parse("Float32", "0.1", &f, &err), 0);
    assert_true(f == 0.1f); /* read as float directly, not rounded twice */
    assert_int_equal(parse("Float32", "1e39", &f, &err), 0);
    assert_true(isinf(f));
}

static void test_uuid(void **state) {
    (void)state;
    const uint8_t expected[16] = {0x61, 0xf0, 0xc4, 0x04, 0x5c, 0xb3, 0x11, 0xe7,
                                  0x90, 0x7b, 0xa6, 0x00, 0x6a, 0xd3, 0xdb, 0xa0};
    const char *forms[] = {"61f0c404-5cb3-11e7-907b-a6006ad3dba0",
                           "61F0C404-5CB3-11E7-907B-A6006AD3DBA0",
                           "61f0c4045cb311e7907ba6006ad3dba0"};
    for (size_t i = 0; i < 3; i++) {
        uint8_t v[16];
        mu_err err;
        assert_int_equal(parse("UUID", forms[i], v, &err), 0);
        assert_memory_equal(v, expected, 16);
    }
}

static void test_decimal128_extremes(void **state) {
    (void)state;
    __int128 v, max = ty_decimal_pow10(38) - 1;
    mu_err err;
    assert_int_equal(parse("Decimal(38, 10)",
                           "9999999999999999999999999999.9999999999", &v, &err),
                     0);
    assert_true(v == max);
    assert_int_equal(parse("Decimal(38, 10)",
                           "-9999999999999999999999999999.9999999999", &v, &err),
                     0);
    assert_true(v == -max);
    assert_int_equal(parse("Decimal(38, 10)",
                           "-9999999999999999999999999999.99999999999", &v, &err),
                     0);
    assert_true(v == -max); /* the 11th fraction digit is cut */
    assert_int_equal(parse("Decimal(38, 0)",
                           "99999999999999999999999999999999999999", &v, &err),
                     0);
    assert_true(v == max);
    assert_int_equal(parse("Decimal(38, 38)",
                           "0.00000000000000000000000000000000000001", &v, &err),
                     0);
    assert_true(v == 1);
    assert_int_equal(parse("Decimal(38, 0)", "100000000000000000000000000000000000000", &v, &err),
                     MU_EPARSE);
    assert_int_equal(parse("Decimal(20, 2)", "1e17", &v, &err), 0);
    assert_true(v == ty_decimal_pow10(19));
}

/* Regression (fuzz_column_text, UBSan): empty text may come as a NULL
 * pointer with length 0 and must not reach memcmp/memcpy. */
static void test_empty_text_without_pointer(void **state) {
    (void)state;
    int8_t v;
    mu_err err;
    assert_int_equal(ty_value_parse(tu_type("Enum8('' = 1, 'a' = 2)"), NULL, 0, &v, &err), 0);
    assert_int_equal(v, 1);
    assert_int_equal(ty_value_parse(tu_type("UInt8"), NULL, 0, &v, &err), MU_EPARSE);
    const char *types[] = {"String", "LowCardinality(FixedString(2))", "FixedString(2)",
                           "LowCardinality(String)"};
    for (size_t i = 0; i < 4; i++) {
        ty_column *c = tu_column(types[i]);
        assert_int_equal(ty_column_append_text(c, NULL, 0, &err), 0);
        assert_int_equal(ty_column_append_bytes(c, NULL, 0, &err), 0);
        assert_int_equal(ty_column_row_count(c), 2);
        ty_column_destroy(c);
    }
}

static void test_not_fixed_width(void **state) {
    (void)state;
    uint8_t v[16];
    mu_err err;
    const char *types[] = {"String", "Array(UInt8)", "Map(String, UInt8)", "LowCardinality(String)",
                           "FixedString(3)"};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        assert_int_equal(parse(types[i], "1", v, &err), MU_ETYPE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_good_integers_and_dates, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_bad_texts, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_message_shape, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_floats, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_uuid, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_decimal128_extremes, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_empty_text_without_pointer, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_not_fixed_width, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
