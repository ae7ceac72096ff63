/* best_effort_test.c: goal: the best-effort date and time reader
 * (ty_datetime_best_effort, ClickHouse's parseDateTimeBestEffort[US]) reads
 * ISO 8601 with T/Z/offsets/fractions, RFC 1123, Unix timestamps with and
 * without milliseconds, digit runs, DD/MM and US MM/DD, month names, AM/PM
 * and a missing year (the syslog rule), in the given zone; it reports how
 * much it read and refuses what it cannot read with ClickHouse's reason.
 * ty_value_parse_opt / ty_column_append_text_opt route DateTime and
 * DateTime64 through it under TY_DATETIME_INPUT_BEST_EFFORT[_US] (whole
 * text only, DateTime saturating, DateTime64 range-checked, Date untouched,
 * quoted elements of composites too, bare ones as Unix time). */
#include "types_test_util.h"

enum { NOW_JUNE_2024 = 1717200000, NOW_JAN_10_2024 = 1704844800 };

typedef struct good_case {
    const char *text;
    bool us_style;
    int64_t seconds;
    int64_t fraction;
    unsigned digits;
} good_case;

static const good_case good_cases[] = {
    {"2024-01-15 10:30:00", false, 1705314600, 0, 0},
    {"2024-01-15T10:30:00Z", false, 1705314600, 0, 0},
    {"2024-01-15T12:30:00+02:00", false, 1705314600, 0, 0},
    {"2024-01-15T05:30:00-0500", false, 1705314600, 0, 0},
    {"2024-01-15T10:30:00.25Z", false, 1705314600, 25, 2},
    {"Mon, 15 Jan 2024 10:30:00 GMT", false, 1705314600, 0, 0},
    {"15 Jan 2024 10:30:00", false, 1705314600, 0, 0},
    {"1705314600", false, 1705314600, 0, 0},
    {"1705314600123", false, 1705314600, 123, 3},
    {"20240115103000", false, 1705314600, 0, 0},
    {"20240115", false, 1705276800, 0, 0},
    {"2024-01-15", false, 1705276800, 0, 0},
    {"15/01/2024", false, 1705276800, 0, 0},
    {"01/02/2024", false, 1706745600, 0, 0},
    {"01/02/2024", true, 1704153600, 0, 0},
    {"2024-01-15 10:30:00 AM", false, 1705314600, 0, 0},
    {"2024-01-15 12:30:00 AM", false, 1705278600, 0, 0},
    {"2024-01-15 10:30:00 PM", false, 1705357800, 0, 0},
    {"Jan 15 10:30:00", false, 1705314600, 0, 0}, /* this year: already past */
};

static void test_good(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(good_cases); i++) {
        const good_case *c = &good_cases[i];
        ty_best_effort b;
        if (!ty_datetime_best_effort(c->text, strlen(c->text), c->us_style, ty_tz_utc(),
                                     NOW_JUNE_2024, &b))
            fail_msg("[%s]: %s", c->text, b.reason);
        if (b.seconds != c->seconds || b.fraction != c->fraction ||
            b.fraction_digits != c->digits || b.used_bytes != strlen(c->text))
            fail_msg("[%s]: %lld.%lld (%u digits, %zu bytes read)", c->text,
                     (long long)b.seconds, (long long)b.fraction, b.fraction_digits,
                     b.used_bytes);
    }
}

static void test_zone_and_clock(void **state) {
    (void)state;
    ty_best_effort b;
    const ty_tz *berlin;
    mu_err err;
    assert_int_equal(ty_tz_get("Europe/Berlin", &berlin, &err), 0);
    assert_true(ty_datetime_best_effort("2024-01-15 10:30:00", 19, false, berlin, 0, &b));
    assert_int_equal(b.seconds, 1705311000);
    /* an explicit offset wins over the zone */
    assert_true(ty_datetime_best_effort("2024-01-15 10:30:00Z", 20, false, berlin, 0, &b));
    assert_int_equal(b.seconds, 1705314600);
    /* a date without a year that is still to come is last year's */
    assert_true(ty_datetime_best_effort("Jan 15 10:30:00", 15, false, ty_tz_utc(),
                                        NOW_JAN_10_2024, &b));
    assert_int_equal(b.seconds, 1673778600);
}

static void test_bad_and_prefix(void **state) {
    (void)state;
    static const char *const bad[] = {"xyz", "2024-13-01", "2024-02-30", "", "12345",
                                      "2024-01-15 10:30:00 trailing"};
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        ty_best_effort b;
        if (ty_datetime_best_effort(bad[i], strlen(bad[i]), false, ty_tz_utc(), 0, &b))
            fail_msg("[%s] was read as %lld", bad[i], (long long)b.seconds);
        assert_non_null(strstr(b.reason, "Cannot read DateTime"));
    }
    ty_best_effort b;
    assert_true(ty_datetime_best_effort("2024-01-15;x", 12, false, ty_tz_utc(), 0, &b));
    assert_int_equal(b.used_bytes, 10);
    assert_int_equal(b.seconds, 1705276800);
}

static const ty_text_options best = {TY_DATETIME_INPUT_BEST_EFFORT, NOW_JUNE_2024};
static const ty_text_options best_us = {TY_DATETIME_INPUT_BEST_EFFORT_US, NOW_JUNE_2024};

static int parse_opt(const char *type, const char *text, const ty_text_options *opt,
                     void *out, mu_err *err) {
    mu_err_clear(err);
    return ty_value_parse_opt(tu_type(type), text, strlen(text), opt, out, err);
}

static void test_value_parse(void **state) {
    (void)state;
    mu_err err;
    uint32_t dt;
    int64_t dt64;
    assert_int_equal(parse_opt("DateTime('UTC')", "2024-01-15T10:30:00Z", &best, &dt, &err), 0);
    assert_int_equal(dt, 1705314600);
    assert_int_equal(parse_opt("DateTime('UTC')", "2024-01-15T10:30:00Z", NULL, &dt, &err),
                     MU_EPARSE_DATETIME);
    assert_int_equal(parse_opt("DateTime('UTC')", "01/02/2024", &best_us, &dt, &err), 0);
    assert_int_equal(dt, 1704153600);
    /* DateTime saturates as ClickHouse's does */
    assert_int_equal(parse_opt("DateTime('UTC')", "1969-12-31 23:59:59", &best, &dt, &err), 0);
    assert_int_equal(dt, 0);
    assert_int_equal(parse_opt("DateTime('UTC')", "2200-01-01 00:00:00", &best, &dt, &err), 0);
    assert_int_equal(dt, UINT32_MAX);
    assert_int_equal(parse_opt("DateTime64(3, 'UTC')", "2024-01-15T10:30:00.123456Z", &best,
                               &dt64, &err), 0);
    assert_int_equal(dt64, 1705314600123LL);
    assert_int_equal(parse_opt("DateTime64(6, 'UTC')", "1705314600123", &best, &dt64, &err), 0);
    assert_int_equal(dt64, 1705314600123000LL);
    /* the whole text, and a reason naming the value */
    assert_int_equal(parse_opt("DateTime('UTC')", "2024-01-15;", &best, &dt, &err),
                     MU_EPARSE_DATETIME);
    assert_non_null(strstr(err.message, "unexpected text after the date and time"));
    assert_int_equal(parse_opt("DateTime('UTC')", "soon", &best, &dt, &err),
                     MU_EPARSE_DATETIME);
    assert_non_null(strstr(err.message, "\"soon\""));
    /* Date is not affected (as in ClickHouse) */
    uint16_t d;
    assert_int_equal(parse_opt("Date", "2024-01-15T00:00:00Z", &best, &d, &err), MU_EPARSE_DATE);
    assert_int_equal(parse_opt("Date", "2024-01-15", &best, &d, &err), 0);
}

static void test_column_text(void **state) {
    (void)state;
    mu_err err;
    ty_column *c = tu_column("Array(DateTime('UTC'))");
    const char *text = "['2024-01-15T10:30:00Z',1705314600]";
    assert_int_equal(ty_column_append_text_opt(c, text, strlen(text), &best, &err), 0);
    assert_string_equal(tu_row_text(c, 0, 0), "['2024-01-15 10:30:00','2024-01-15 10:30:00']");
    assert_int_equal(ty_column_append_text_opt(c, text, strlen(text), NULL, &err),
                     MU_EPARSE_DATETIME);
    assert_int_equal(c->row_count, 1);
    ty_column_destroy(c);
    c = tu_column("LowCardinality(Nullable(DateTime('UTC')))");
    assert_int_equal(ty_column_append_text_opt(c, "15 Jan 2024", 11, &best, &err), 0);
    assert_string_equal(tu_row_text(c, 0, 0), "2024-01-15 00:00:00");
    ty_column_destroy(c);
    c = tu_column("Map(String, DateTime64(2, 'UTC'))");
    text = "{'a':'2024-01-15 10:30:00.5+01:00'}";
    assert_int_equal(ty_column_append_text_opt(c, text, strlen(text), &best, &err), 0);
    assert_string_equal(tu_row_text(c, 0, 0), "{'a':'2024-01-15 09:30:00.50'}");
    ty_column_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_zone_and_clock),
        cmocka_unit_test(test_bad_and_prefix),
        cmocka_unit_test_setup_teardown(test_value_parse, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_column_text, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
