/* calendar_test.c: goal: the proleptic Gregorian conversions are exact
 * for every day over +-2 million days (round trip and day-by-day
 * continuity), agree with known dates, and the fixed-field date and time
 * readers accept only real calendar values in the exact layout. */
#include "types_test_util.h"

/* ty__ helpers are private to src/types but linked into mu_types. */
bool ty__parse_date_fields(const char *p, size_t n, int64_t *days_out);
bool ty__parse_time_fields(const char *p, size_t n, int64_t *seconds_out);
size_t ty__format_date(int64_t days, char *out);
size_t ty__format_datetime(int64_t local_seconds, char *out);

static void test_known_dates(void **state) {
    (void)state;
    assert_int_equal(ty_days_from_civil(1970, 1, 1), 0);
    assert_int_equal(ty_days_from_civil(2000, 3, 1), 11017);
    assert_int_equal(ty_days_from_civil(1900, 1, 1), -25567);
    assert_int_equal(ty_days_from_civil(2149, 6, 6), 65535);
    assert_int_equal(ty_days_from_civil(2299, 12, 31), 120529);
    assert_int_equal(ty_days_from_civil(1600, 2, 29), -135081);
    assert_int_equal(ty_days_from_civil(-1, 12, 31), -719529);
}

static void test_round_trip(void **state) {
    (void)state;
    int64_t year, previous_year;
    unsigned month, day, previous_month, previous_day;
    ty_civil_from_days(-2000001, &previous_year, &previous_month, &previous_day);
    for (int64_t days = -2000000; days <= 2000000; days++) {
        ty_civil_from_days(days, &year, &month, &day);
        assert_int_equal(ty_days_from_civil(year, month, day), days);
        bool next_day = year == previous_year && month == previous_month && day == previous_day + 1;
        bool next_month = year == previous_year && month == previous_month + 1 && day == 1;
        bool next_year = year == previous_year + 1 && month == 1 && day == 1 &&
                         previous_month == 12 && previous_day == 31;
        assert_true(next_day || next_month || next_year);
        previous_year = year;
        previous_month = month;
        previous_day = day;
    }
}

static void test_fields(void **state) {
    (void)state;
    int64_t v;
    assert_true(ty__parse_date_fields("2000-02-29", 10, &v));
    assert_int_equal(v, 11016);
    assert_false(ty__parse_date_fields("1900-02-29", 10, &v));
    assert_false(ty__parse_date_fields("2001-02-29", 10, &v));
    assert_false(ty__parse_date_fields("2001-04-31", 10, &v));
    assert_false(ty__parse_date_fields("2001-04-3", 9, &v));
    assert_false(ty__parse_date_fields("2001-04-030", 11, &v));
    assert_false(ty__parse_date_fields("2001+04-03", 10, &v));
    assert_false(ty__parse_date_fields("+001-04-03", 10, &v));
    assert_true(ty__parse_time_fields("23:59:59", 8, &v));
    assert_int_equal(v, 86399);
    assert_true(ty__parse_time_fields("00:00:00", 8, &v));
    assert_false(ty__parse_time_fields("24:00:00", 8, &v));
    assert_false(ty__parse_time_fields("23:59:60", 8, &v));
    assert_false(ty__parse_time_fields("23-59-59", 8, &v));
    assert_false(ty__parse_time_fields("2:59:59", 7, &v));
    char text[40];
    ty__format_date(-25567, text);
    assert_string_equal(text, "1900-01-01");
    ty__format_datetime(-1, text);
    assert_string_equal(text, "1969-12-31 23:59:59");
    ty__format_datetime(4294967295LL, text);
    assert_string_equal(text, "2106-02-07 06:28:15");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_dates),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
