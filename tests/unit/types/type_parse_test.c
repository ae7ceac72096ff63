/* type_parse_test.c: goal: every supported ClickHouse type name parses and
 * renders back to the canonical name ClickHouse prints (aliases and
 * spacing normalised), and malformed, unknown, illegally nested, out of
 * range and too deeply nested names fail with the right MU_E* code and
 * never crash. */
#include "types_test_util.h"

typedef struct round_trip {
    const char *input;
    const char *canonical;
} round_trip;

static const round_trip good_names[] = {
    {"UInt8", "UInt8"}, {"UInt16", "UInt16"}, {"UInt32", "UInt32"}, {"UInt64", "UInt64"},
    {"Int8", "Int8"}, {"Int16", "Int16"}, {"Int32", "Int32"}, {"Int64", "Int64"},
    {"Float32", "Float32"}, {"Float64", "Float64"}, {"Bool", "Bool"}, {"String", "String"},
    {"Date", "Date"}, {"Date32", "Date32"}, {"UUID", "UUID"},
    {"FixedString(16)", "FixedString(16)"}, {"FixedString( 1 )", "FixedString(1)"},
    {"DateTime", "DateTime"}, {"DateTime('UTC')", "DateTime('UTC')"},
    {"DateTime('Europe/Berlin')", "DateTime('Europe/Berlin')"},
    {"DateTime64", "DateTime64(3)"}, {"DateTime64(0)", "DateTime64(0)"},
    {"DateTime64(3, 'Europe/Berlin')", "DateTime64(3, 'Europe/Berlin')"},
    {"DateTime64(9,'UTC')", "DateTime64(9, 'UTC')"},
    {"Decimal(10, 2)", "Decimal(10, 2)"}, {"Decimal(10,2)", "Decimal(10, 2)"},
    {"Decimal(5)", "Decimal(5, 0)"}, {"Decimal", "Decimal(10, 0)"},
    {"Decimal32(4)", "Decimal(9, 4)"}, {"Decimal64(4)", "Decimal(18, 4)"},
    {"Decimal128(10)", "Decimal(38, 10)"}, {"Decimal(38, 38)", "Decimal(38, 38)"},
    {"Decimal(1, 0)", "Decimal(1, 0)"},
    {"Enum8('a' = 1, 'b' = 2)", "Enum8('a' = 1, 'b' = 2)"},
    {"Enum8('b' = 2, 'a' = 1)", "Enum8('a' = 1, 'b' = 2)"},
    {"Enum('a'=1,'b'=2)", "Enum8('a' = 1, 'b' = 2)"},
    {"Enum('a' = 1000)", "Enum16('a' = 1000)"},
    {"Enum8('a', 'b')", "Enum8('a' = 1, 'b' = 2)"},
    {"Enum8('it''s' = 1)", "Enum8('it\\'s' = 1)"},
    {"Enum8('back\\\\slash' = -128)", "Enum8('back\\\\slash' = -128)"},
    {"Enum16('x' = -32768, 'y' = 32767)", "Enum16('x' = -32768, 'y' = 32767)"},
    {"Nullable(String)", "Nullable(String)"},
    {"Nullable(DateTime64(3, 'Europe/Berlin'))", "Nullable(DateTime64(3, 'Europe/Berlin'))"},
    {"LowCardinality(String)", "LowCardinality(String)"},
    {"LowCardinality(Nullable(String))", "LowCardinality(Nullable(String))"},
    {"LowCardinality(FixedString(2))", "LowCardinality(FixedString(2))"},
    {"LowCardinality(UInt32)", "LowCardinality(UInt32)"},
    {"Array(Nullable(UInt8))", "Array(Nullable(UInt8))"},
    {"Array(Array(String))", "Array(Array(String))"},
    {"Map(String, UInt64)", "Map(String, UInt64)"},
    {"Map(String,Array(Nullable(Int32)))", "Map(String, Array(Nullable(Int32)))"},
    {"Map(LowCardinality(String), Map(String, String))",
     "Map(LowCardinality(String), Map(String, String))"},
    {"Array(LowCardinality(Nullable(String)))", "Array(LowCardinality(Nullable(String)))"},
    {"BOOLEAN", "Bool"}, {"boolean", "Bool"}, {"bool", "Bool"}, {"INT", "Int32"},
    {"int", "Int32"}, {"INTEGER", "Int32"}, {"BIGINT", "Int64"}, {"SMALLINT", "Int16"},
    {"TINYINT", "Int8"}, {"BIGINT UNSIGNED", "UInt64"}, {"int  unsigned", "UInt32"},
    {"TEXT", "String"}, {"VARCHAR(255)", "String"}, {"varchar", "String"},
    {"CHARACTER VARYING(10)", "String"}, {"FLOAT", "Float32"}, {"DOUBLE", "Float64"},
    {"double precision", "Float64"}, {"REAL", "Float32"}, {"TIMESTAMP", "DateTime"},
    {"TIMESTAMP('UTC')", "DateTime('UTC')"}, {"NUMERIC(10,2)", "Decimal(10, 2)"},
    {"DEC(5, 1)", "Decimal(5, 1)"}, {"BINARY(4)", "FixedString(4)"}, {"string", "String"},
    {"Nullable(  INT  )", "Nullable(Int32)"}, {"  UInt8  ", "UInt8"},
    {"Array(\n\tUInt8\n)", "Array(UInt8)"},
};

static void test_round_trip(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(good_names) / sizeof(good_names[0]); i++) {
        const ty_type *t = tu_type(good_names[i].input);
        assert_string_equal(tu_type_text(t), good_names[i].canonical);
        /* The canonical name parses to an equal type and renders the same. */
        const ty_type *again = tu_type(good_names[i].canonical);
        assert_true(ty_type_equal(t, again));
        assert_string_equal(tu_type_text(again), good_names[i].canonical);
    }
}

typedef struct bad_name {
    const char *input;
    int code;
} bad_name;

static const bad_name bad_names[] = {
    {"", MU_ESYNTAX}, {"   ", MU_ESYNTAX}, {"(", MU_ESYNTAX}, {"'UInt8'", MU_ESYNTAX},
    {"uint8", MU_EUNKNOWN_TYPE}, {"UINT8", MU_EUNKNOWN_TYPE}, {"Foo", MU_EUNKNOWN_TYPE},
    {"Nullable(Foo)", MU_EUNKNOWN_TYPE}, {"int8", MU_EUNKNOWN_TYPE},
    {"Int128", MU_ENOT_SUPPORTED}, {"Tuple(UInt8)", MU_ENOT_SUPPORTED},
    {"IPv4", MU_ENOT_SUPPORTED}, {"Decimal(39, 2)", MU_ENOT_SUPPORTED},
    {"Decimal256(2)", MU_ENOT_SUPPORTED},
    {"UInt8()", MU_ETYPE}, {"UInt8(1)", MU_ETYPE},
    {"Nullable(Nullable(UInt8))", MU_ETYPE}, {"Nullable(Array(UInt8))", MU_ETYPE},
    {"Nullable(Map(String, UInt8))", MU_ETYPE}, {"Nullable(LowCardinality(String))", MU_ETYPE},
    {"LowCardinality(Array(String))", MU_ETYPE}, {"LowCardinality(Decimal(10, 2))", MU_ETYPE},
    {"LowCardinality(LowCardinality(String))", MU_ETYPE},
    {"Map(Nullable(String), UInt8)", MU_ETYPE}, {"Map(Float64, UInt8)", MU_ETYPE},
    {"Map(Array(UInt8), UInt8)", MU_ETYPE},
    {"Map(String)", MU_ESYNTAX}, {"Map(String, UInt8, UInt8)", MU_ESYNTAX},
    {"Array()", MU_ESYNTAX}, {"Array", MU_ESYNTAX}, {"Array(UInt8", MU_ESYNTAX},
    {"Array(UInt8))", MU_ESYNTAX}, {"Array(UInt8, UInt8)", MU_ESYNTAX},
    {"FixedString(0)", MU_ETYPE}, {"FixedString", MU_ESYNTAX},
    {"FixedString(16777216)", MU_ETYPE}, {"FixedString(abc)", MU_ESYNTAX},
    {"FixedString(-1)", MU_ESYNTAX}, {"FixedString(99999999999999999999999)", MU_ETYPE},
    {"Decimal(0)", MU_ETYPE}, {"Decimal(10, 11)", MU_ETYPE}, {"Decimal32(10)", MU_ETYPE},
    {"Decimal32", MU_ESYNTAX}, {"Decimal(10, 2, 1)", MU_ESYNTAX},
    {"DateTime64(10)", MU_ETYPE}, {"DateTime64(3, UTC)", MU_ESYNTAX},
    {"DateTime('Nowhere/City')", MU_EINVAL}, {"DateTime('../etc/passwd')", MU_EINVAL},
    {"DateTime('/etc/passwd')", MU_EINVAL}, {"DateTime('Europe//Berlin')", MU_EINVAL},
    {"DateTime('Europe/')", MU_EINVAL}, {"DateTime('')", MU_EINVAL},
    {"DateTime('zone.tab')", MU_EINVAL}, {"DateTime('Europe')", MU_EINVAL},
    {"DateTime(UTC)", MU_ESYNTAX}, {"DateTime('UTC'", MU_ESYNTAX},
    {"DateTime('UTC", MU_ESYNTAX}, {"DateTime(1)", MU_ESYNTAX},
    {"Enum8('a' = 1, 'a' = 2)", MU_ETYPE}, {"Enum8('a' = 1, 'b' = 1)", MU_ETYPE},
    {"Enum8('a' = 128)", MU_ETYPE}, {"Enum8('a' = -129)", MU_ETYPE},
    {"Enum16('a' = 40000)", MU_ETYPE}, {"Enum8()", MU_ESYNTAX},
    {"Enum8('a' = 1, 'b')", MU_ETYPE}, {"Enum8(a = 1)", MU_ESYNTAX},
    {"Enum8('a' = )", MU_ESYNTAX}, {"Enum8('a' = 1,)", MU_ESYNTAX},
    {"UInt8 UInt8", MU_ESYNTAX}, {"UInt8,", MU_ESYNTAX}, {"Array(UInt8) x", MU_ESYNTAX},
    {"Nullable(UInt8)(", MU_ESYNTAX}, {"DOUBLE PRECISION PRECISION", MU_ESYNTAX},
};

static void test_bad_names(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
        const ty_type *t = NULL;
        mu_err err;
        mu_err_clear(&err);
        int rc = ty_type_parse(bad_names[i].input, tu_arena, &t, &err);
        if (rc != bad_names[i].code)
            fail_msg("%s: got %d (%s), want %d", bad_names[i].input, rc, err.message,
                     bad_names[i].code);
        assert_true(err.message[0] != 0);
    }
}

static void test_messages_follow_clickhouse(void **state) {
    (void)state;
    const ty_type *t;
    mu_err err;
    assert_int_equal(ty_type_parse("Nullable(Array(UInt8))", tu_arena, &t, &err), MU_ETYPE);
    assert_non_null(strstr(err.message, "Nested type Array(UInt8) cannot be inside Nullable type"));
    assert_int_equal(ty_type_parse("Frobnicate", tu_arena, &t, &err), MU_EUNKNOWN_TYPE);
    assert_non_null(strstr(err.message, "unknown data type 'Frobnicate'"));
}

static char *nested_arrays(unsigned levels) {
    char *text = malloc(levels * 7 + 16);
    size_t o = 0;
    for (unsigned i = 0; i < levels; i++) o += (size_t)sprintf(text + o, "Array(");
    o += (size_t)sprintf(text + o, "UInt8");
    for (unsigned i = 0; i < levels; i++) text[o++] = ')';
    text[o] = 0;
    return text;
}

static void test_depth_limit(void **state) {
    (void)state;
    char *ok = nested_arrays(TY_TYPE_DEPTH_MAX - 1), *deep = nested_arrays(TY_TYPE_DEPTH_MAX);
    char *very_deep = nested_arrays(100000);
    const ty_type *t;
    mu_err err;
    assert_int_equal(ty_type_parse(ok, tu_arena, &t, &err), 0);
    assert_int_equal(ty_type_parse(deep, tu_arena, &t, &err), MU_ETOO_DEEP);
    assert_int_equal(ty_type_parse(very_deep, tu_arena, &t, &err), MU_ETOO_DEEP);
    free(ok);
    free(deep);
    free(very_deep);
}

static void test_too_long_and_not_terminated(void **state) {
    (void)state;
    const ty_type *t;
    mu_err err;
    size_t n = TY_TYPE_NAME_BYTES_MAX + 1;
    char *text = malloc(n);
    memset(text, ' ', n);
    assert_int_equal(ty_type_parse_n(text, n, tu_arena, &t, &err), MU_ETOO_LARGE);
    /* A length-bounded name is read only within its bytes. */
    memcpy(text, "UInt8X", 6);
    assert_int_equal(ty_type_parse_n(text, 5, tu_arena, &t, &err), 0);
    assert_int_equal(t->kind, TY_UINT8);
    assert_int_equal(ty_type_parse_n("DateTime('UTC')", 12, tu_arena, &t, &err), MU_ESYNTAX);
    free(text);
}

static void test_descriptor_fields(void **state) {
    (void)state;
    const ty_type *t = tu_type("Nullable(DateTime64(3, 'Europe/Berlin'))");
    assert_int_equal(t->kind, TY_NULLABLE);
    assert_int_equal(t->child->kind, TY_DATETIME64);
    assert_int_equal(t->child->precision, 3);
    assert_string_equal(t->child->timezone_name, "Europe/Berlin");
    assert_non_null(t->child->timezone);
    assert_string_equal(ty_tz_name(t->child->timezone), "Europe/Berlin");
    t = tu_type("Decimal(20, 4)");
    assert_int_equal(t->precision, 20);
    assert_int_equal(t->scale, 4);
    t = tu_type("Enum16('b' = 300, 'a' = -5)");
    assert_int_equal(t->enum_count, 2);
    assert_int_equal(t->enum_entries[0].value, -5);
    assert_memory_equal(t->enum_entries[0].name, "a", 1);
    assert_int_equal(t->kind, TY_ENUM16);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_bad_names, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_messages_follow_clickhouse, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_depth_limit, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_too_long_and_not_terminated, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_descriptor_fields, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
