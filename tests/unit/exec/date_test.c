/* date_test.c: goal: the date and time functions of fn_date.c and
 * fn_date_format.c give ClickHouse's result types, values and errors:
 * calendar fields and rounding in UTC, Europe/Berlin across both DST
 * changes, Asia/Kolkata (half-hour offset) and America/New_York; Date
 * edges 1970-01-01 and 2149-06-06; leap years and month clamping; every
 * formatDateTime specifier; many best-effort inputs and bad ones (CANNOT_PARSE
 * naming the value); constants and columns, NULLs, and argument errors.
 * Expected texts come from ClickHouse's documentation and source semantics
 * (DateLUTImpl) and were cross-checked with Python's zoneinfo.
 */
#define ET_STYLE_DATES
#include "exec_test_util.h"

/* 2024-05-06 07:08:09.123456 UTC, a Monday. */
#define TC_NOW_US 1714979289123456LL

/* The session zone is the process default (UTC), and now() is TC_NOW_US. */
static int tc_setup(void **state) {
    int rc = et_setup(state);
    et.ctx.timezone = NULL;
    et.ctx.now_us = TC_NOW_US;
    return rc;
}

#define DT_UTC "DateTime('UTC')"
#define DT_BERLIN "DateTime('Europe/Berlin')"
#define DT_KOLKATA "DateTime('Asia/Kolkata')"
#define DT_NY "DateTime('America/New_York')"

/* ------------------------------------------------------------------ */
/* Calendar fields                                                     */
/* ------------------------------------------------------------------ */

static void test_fields_leap_day(void **state) {
    (void)state;
    const char *t = "2024-02-29 13:45:56";
    EXPECT(CALL("toYear", V(DT_UTC, t)), "UInt16", "2024");
    EXPECT(CALL("toQuarter", V(DT_UTC, t)), "UInt8", "1");
    EXPECT(CALL("toMonth", V(DT_UTC, t)), "UInt8", "2");
    EXPECT(CALL("toDayOfYear", V(DT_UTC, t)), "UInt16", "60");
    EXPECT(CALL("toDayOfMonth", V(DT_UTC, t)), "UInt8", "29");
    EXPECT(CALL("toDayOfWeek", V(DT_UTC, t)), "UInt8", "4");
    EXPECT(CALL("toHour", V(DT_UTC, t)), "UInt8", "13");
    EXPECT(CALL("toMinute", V(DT_UTC, t)), "UInt8", "45");
    EXPECT(CALL("toSecond", V(DT_UTC, t)), "UInt8", "56");
    EXPECT(CALL("toYYYYMM", V(DT_UTC, t)), "UInt32", "202402");
    EXPECT(CALL("toYYYYMMDD", V(DT_UTC, t)), "UInt32", "20240229");
    EXPECT(CALL("toYYYYMMDDhhmmss", V(DT_UTC, t)), "UInt64", "20240229134556");
    EXPECT(CALL("toDayOfYear", V("Date", "2023-12-31")), "UInt16", "365");
    EXPECT(CALL("toDayOfYear", V("Date", "2024-12-31")), "UInt16", "366");
    EXPECT(CALL("toQuarter", V("Date32", "1900-10-01")), "UInt8", "4");
    EXPECT(CALL("toYear", V("DateTime64(3, 'UTC')", "2299-12-31 23:59:59.999")), "UInt16",
           "2299");
    EXPECT(CALL("toSecond", V("DateTime64(3, 'UTC')", "2024-01-01 00:00:07.999")), "UInt8", "7");
    EXPECT(CALL("toYYYYMMDDhhmmss", V("Date", "2024-01-02")), "UInt64", "20240102000000");
}

static void test_fields_zones(void **state) {
    (void)state;
    /* 2024-01-01 00:00:00 UTC seen from four zones. */
    EXPECT_V(CALL("toHour", V(DT_KOLKATA, "2024-01-01 05:30:00")), "5");
    EXPECT_V(CALL("toMinute", V(DT_KOLKATA, "2024-01-01 05:30:00")), "30");
    EXPECT_V(CALL("toHour", V(DT_UTC, "2024-01-01 00:00:00"), S("Asia/Kolkata")), "5");
    EXPECT_V(CALL("toMinute", V(DT_UTC, "2024-01-01 00:00:00"), S("Asia/Kolkata")), "30");
    EXPECT_V(CALL("toDayOfMonth", V(DT_UTC, "2024-01-01 00:00:00"), S("America/New_York")), "31");
    EXPECT_V(CALL("toYear", V(DT_UTC, "2024-01-01 00:00:00"), S("America/New_York")), "2023");
    EXPECT_V(CALL("toYYYYMMDD", V(DT_UTC, "2024-01-01 00:00:00"), S("Europe/Berlin")),
             "20240101");
    /* Berlin spring forward: 01:59:59 CET is followed by 03:00:00 CEST. */
    EXPECT_V(CALL("toHour", CALL("addSeconds", V(DT_BERLIN, "2024-03-31 01:59:59"), I(1))), "3");
    EXPECT_V(CALL("toHour", V(DT_UTC, "2024-03-31 01:00:00"), S("Europe/Berlin")), "3");
    /* Berlin fall back: 00:30 and 01:30 UTC are both 02:30 local. */
    EXPECT_V(CALL("toHour", V(DT_UTC, "2024-10-27 00:30:00"), S("Europe/Berlin")), "2");
    EXPECT_V(CALL("toHour", V(DT_UTC, "2024-10-27 01:30:00"), S("Europe/Berlin")), "2");
    /* New York: 2024-03-10 07:00 UTC is 03:00 EDT; a day earlier 02:00 EST. */
    EXPECT_V(CALL("toHour", V(DT_UTC, "2024-03-10 07:00:00"), S("America/New_York")), "3");
    EXPECT_V(CALL("toHour", V(DT_UTC, "2024-03-09 07:00:00"), S("America/New_York")), "2");
    /* A DateTime without a zone is read in the default zone (UTC here). */
    EXPECT_V(CALL("toHour", V("DateTime", "2024-03-09 07:00:00")), "7");
}

static void test_fields_date_edges(void **state) {
    (void)state;
    EXPECT_V(CALL("toYear", V("Date", "1970-01-01")), "1970");
    EXPECT_V(CALL("toDayOfWeek", V("Date", "1970-01-01")), "4");
    EXPECT_V(CALL("toYear", V("Date", "2149-06-06")), "2149");
    EXPECT_V(CALL("toDayOfWeek", V("Date", "2149-06-06")), "5");
    EXPECT_V(CALL("toDayOfYear", V("Date", "2149-06-06")), "157");
    EXPECT_V(CALL("toYear", V("Date32", "1900-01-01")), "1900");
    EXPECT_V(CALL("toDayOfWeek", V("Date32", "1900-01-01")), "1");
    EXPECT_V(CALL("toYYYYMMDD", V("Date32", "2299-12-31")), "22991231");
    EXPECT_V(CALL("toYear", V(DT_UTC, "2106-02-07 06:28:15")), "2106");
    /* A Date's calendar does not depend on the zone argument. */
    EXPECT_V(CALL("toDayOfMonth", V("Date", "2024-01-01"), S("Pacific/Kiritimati")), "1");
}

static void test_day_of_week_modes(void **state) {
    (void)state;
    const char *sunday = "2024-01-07", *monday = "2024-01-08";
    const char *want_sunday[4] = {"7", "6", "0", "1"}, *want_monday[4] = {"1", "0", "1", "2"};
    for (int mode = 0; mode < 4; mode++) {
        EXPECT_V(CALL("toDayOfWeek", V("Date", sunday), I(mode)), want_sunday[mode]);
        EXPECT_V(CALL("toDayOfWeek", V("Date", monday), I(mode)), want_monday[mode]);
    }
    EXPECT_V(CALL("toDayOfWeek", V(DT_UTC, "2024-01-07 23:00:00"), I(0), S("Asia/Kolkata")), "1");
    EXPECT_V(CALL("toDayOfWeek", V(DT_UTC, "2024-01-07 23:00:00"), S("Asia/Kolkata")), "1");
}

static void test_relative_numbers(void **state) {
    (void)state;
    EXPECT(CALL("toRelativeDayNum", V("Date", "2020-01-01")), "UInt32", "18262");
    EXPECT(CALL("toRelativeHourNum", V("Date", "2020-01-01")), "UInt32", "438288");
    EXPECT(CALL("toRelativeSecondNum", V("Date", "2020-01-01")), "UInt32", "1577836800");
    EXPECT(CALL("toRelativeMinuteNum", V("Date", "2020-01-01")), "UInt32", "26297280");
    EXPECT_V(CALL("toRelativeHourNum", V(DT_UTC, "2020-01-01 05:30:00")), "438293");
    /* Zones with a half-hour offset count hours of that offset, plus a day
     * (what ClickHouse prints: checked against a ClickHouse server). */
    EXPECT_V(CALL("toRelativeHourNum", V(DT_KOLKATA, "2020-01-01 05:30:00")), "438306");
    EXPECT_V(CALL("toRelativeDayNum", V(DT_KOLKATA, "2020-01-01 04:00:00")), "18262");
    EXPECT_V(CALL("toRelativeDayNum", V(DT_UTC, "2019-12-31 22:30:00")), "18261");
    EXPECT_V(CALL("toRelativeSecondNum", V("DateTime64(3, 'UTC')", "2020-01-01 00:00:00.999")),
             "1577836800");
}

/* ------------------------------------------------------------------ */
/* Rounding                                                            */
/* ------------------------------------------------------------------ */

static void test_start_of_date_results(void **state) {
    (void)state;
    const char *t = "2024-05-17 13:14:15";
    EXPECT(CALL("toStartOfMonth", V(DT_UTC, t)), "Date", "2024-05-01");
    EXPECT(CALL("toStartOfQuarter", V(DT_UTC, t)), "Date", "2024-04-01");
    EXPECT(CALL("toStartOfYear", V(DT_UTC, t)), "Date", "2024-01-01");
    EXPECT(CALL("toMonday", V(DT_UTC, t)), "Date", "2024-05-13");
    EXPECT(CALL("toStartOfWeek", V(DT_UTC, t)), "Date", "2024-05-12");
    EXPECT(CALL("toStartOfWeek", V(DT_UTC, t), I(1)), "Date", "2024-05-13");
    EXPECT_V(CALL("toStartOfWeek", V("Date", "2024-01-07")), "2024-01-07");
    EXPECT_V(CALL("toStartOfWeek", V("Date", "2024-01-07"), I(1)), "2024-01-01");
    EXPECT(CALL("toStartOfMonth", V("DateTime64(3, 'UTC')", "2024-02-29 23:59:59.999")), "Date",
           "2024-02-01");
    EXPECT(CALL("toStartOfMonth", V("Date32", "2024-02-29")), "Date", "2024-02-01");
    /* The zone decides the day: 23:30 UTC on Dec 31 is already January in Berlin. */
    EXPECT_V(CALL("toStartOfYear", V(DT_UTC, "2023-12-31 23:30:00"), S("Europe/Berlin")),
             "2024-01-01");
    EXPECT_V(CALL("toStartOfMonth", V(DT_NY, "2024-03-01 00:30:00")), "2024-03-01");
    /* Date edges saturate at 1970-01-01. */
    EXPECT_V(CALL("toMonday", V("Date", "1970-01-01")), "1970-01-01");
    EXPECT_V(CALL("toStartOfWeek", V("Date", "1970-01-03")), "1970-01-01");
    EXPECT_V(CALL("toStartOfMonth", V("Date", "2149-06-06")), "2149-06-01");
    EXPECT_V(CALL("toStartOfQuarter", V("Date", "2149-06-06")), "2149-04-01");
    /* Date32 days before 1970 are cast to Date's 16 bits, as ClickHouse does
     * without enable_extended_results_for_datetime_functions. */
    EXPECT_V(CALL("toStartOfYear", V("Date32", "1950-05-05")), "2129-06-07");
    EXPECT_V(CALL("toStartOfWeek", V("DateTime64(0, 'UTC')", "1950-05-05 00:00:00")),
             "1970-01-01");
}

static void test_start_of_time_results(void **state) {
    (void)state;
    const char *t = "2024-05-06 07:08:09";
    EXPECT(CALL("toStartOfDay", V(DT_UTC, t)), "DateTime('UTC')", "2024-05-06 00:00:00");
    EXPECT(CALL("toStartOfHour", V(DT_UTC, t)), "DateTime('UTC')", "2024-05-06 07:00:00");
    EXPECT(CALL("toStartOfMinute", V(DT_UTC, t)), "DateTime('UTC')", "2024-05-06 07:08:00");
    EXPECT_V(CALL("toStartOfFiveMinutes", V(DT_UTC, t)), "2024-05-06 07:05:00");
    EXPECT_V(CALL("toStartOfFiveMinute", V(DT_UTC, t)), "2024-05-06 07:05:00");
    EXPECT_V(CALL("toStartOfTenMinutes", V(DT_UTC, t)), "2024-05-06 07:00:00");
    EXPECT_V(CALL("toStartOfFifteenMinutes", V(DT_UTC, t)), "2024-05-06 07:00:00");
    EXPECT(CALL("toStartOfDay", V("Date", "2024-05-06")), "DateTime", "2024-05-06 00:00:00");
    EXPECT(CALL("toStartOfDay", V("Date", "2024-05-06"), S("Europe/Berlin")),
           "DateTime('Europe/Berlin')", "2024-05-06 00:00:00");
    EXPECT(CALL("toStartOfDay", V(DT_UTC, "2024-05-06 23:00:00"), S("Asia/Kolkata")),
           "DateTime('Asia/Kolkata')", "2024-05-07 00:00:00");
    EXPECT(CALL("toStartOfDay", V("DateTime64(6, 'UTC')", "2024-05-06 07:08:09.5")),
           "DateTime('UTC')", "2024-05-06 00:00:00");
    EXPECT(CALL("toStartOfHour", V("DateTime", t)), "DateTime", "2024-05-06 07:00:00");
    /* Kolkata hours start at :00 local time, not at UTC hours. */
    EXPECT_V(CALL("toStartOfHour", V(DT_KOLKATA, "2024-05-06 07:59:59")), "2024-05-06 07:00:00");
    EXPECT_V(CALL("toStartOfFifteenMinutes", V(DT_KOLKATA, "2024-05-06 07:44:59")),
             "2024-05-06 07:30:00");
    /* Across DST: the day starts at its own midnight. */
    EXPECT_V(CALL("toStartOfDay", V(DT_BERLIN, "2024-03-31 12:00:00")), "2024-03-31 00:00:00");
    EXPECT_V(CALL("toStartOfDay", V(DT_BERLIN, "2024-10-27 23:59:59")), "2024-10-27 00:00:00");
    EXPECT_V(CALL("toStartOfHour", V(DT_BERLIN, "2024-03-31 03:30:00")), "2024-03-31 03:00:00");
    EXPECT_V(CALL("toStartOfHour", CALL("addSeconds", V(DT_BERLIN, "2024-10-27 02:59:59"),
                                        I(1800))),
             "2024-10-27 02:00:00");
    EXPECT_V(CALL("toStartOfDay", V(DT_NY, "2024-11-03 23:00:00")), "2024-11-03 00:00:00");
}

static void test_start_of_interval(void **state) {
    (void)state;
    const char *t = "2024-05-06 07:08:09";
    EXPECT(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("year")), "Date", "2024-01-01");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(5), S("year")), "2020-01-01");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("quarter")), "2024-04-01");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(2), S("quarter")), "2024-01-01");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("month")), "2024-05-01");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(5), S("month")), "2024-03-01");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("week")), "2024-05-06");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(2), S("week")), "2024-04-29");
    EXPECT(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("day")), "DateTime('UTC')",
           "2024-05-06 00:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(3), S("day")), "2024-05-05 00:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("hour")), "2024-05-06 07:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(4), S("hour")), "2024-05-06 04:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(20), S("minute")), "2024-05-06 07:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("second")), "2024-05-06 07:08:09");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(30), S("second")), "2024-05-06 07:08:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, t), I(7), S("second")), "2024-05-06 07:08:07");
    /* Minute buckets are counted in UTC even where the offset is a half
     * hour (ClickHouse's DateLUT); hour buckets start at local midnight. */
    EXPECT_V(CALL("toStartOfInterval", V(DT_KOLKATA, t), I(20), S("minute")),
             "2024-05-06 06:50:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_KOLKATA, t), I(2), S("hour")), "2024-05-06 06:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_KOLKATA, t), I(7), S("second")),
             "2024-05-06 07:08:03");
    /* Berlin: a two-hour bucket that would start in the gap starts at 03:00. */
    EXPECT_V(CALL("toStartOfInterval", V(DT_BERLIN, "2024-03-31 03:30:00"), I(2), S("hour")),
             "2024-03-31 03:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_BERLIN, "2024-03-31 05:30:00"), I(2), S("hour")),
             "2024-03-31 04:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_BERLIN, "2024-10-27 05:30:00"), I(3), S("hour")),
             "2024-10-27 03:00:00");
    /* Dates, DateTime64 and a zone argument. */
    EXPECT(CALL("toStartOfInterval", V("Date", "2024-05-06"), I(1), S("month")), "Date",
           "2024-05-01");
    EXPECT(CALL("toStartOfInterval", V("Date", "2024-05-06"), I(2), S("day")), "DateTime",
           "2024-05-05 00:00:00");
    EXPECT(CALL("toStartOfInterval", V("DateTime64(3, 'UTC')", "2024-05-06 07:08:09.999"), I(1),
                S("minute")),
           "DateTime('UTC')", "2024-05-06 07:08:00");
    EXPECT(CALL("toStartOfInterval", V(DT_UTC, t), I(1), S("day"), S("America/New_York")),
           "DateTime('America/New_York')", "2024-05-06 00:00:00");
    EXPECT_V(CALL("toStartOfInterval", V(DT_UTC, "2024-05-06 03:00:00"), I(1), S("DAY"),
                  S("America/New_York")),
             "2024-05-05 00:00:00");
}

static void test_start_of_interval_errors(void **state) {
    (void)state;
    EXPECT_ERROR(MU_EOUT_OF_BOUND, "Value for second argument of function toStartOfInterval must "
                                   "be positive", "toStartOfInterval",
                 V(DT_UTC, "2024-05-06 07:08:09"), I(0), S("hour"));
    EXPECT_ERROR(MU_EINVAL, "Unknown interval unit 'fortnight'", "toStartOfInterval",
                 V(DT_UTC, "2024-05-06 07:08:09"), I(1), S("fortnight"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date of argument for function toStartOfInterval",
                 "toStartOfInterval", V("Date", "2024-05-06"), I(1), S("hour"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "with interval type Month is allowed only when the 1st "
                                   "argument has the type DateTime or DateTime64",
                 "toStartOfInterval", V("Date", "2024-05-06"), I(1), S("month"), S("UTC"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type String of argument of function "
                                   "toStartOfInterval. Should be a date or a date with time",
                 "toStartOfInterval", S("x"), I(1), S("hour"));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "Number of arguments for function toStartOfInterval "
                                          "doesn't match: passed 2",
                 "toStartOfInterval", V(DT_UTC, "2024-05-06 07:08:09"), I(1));
}

/* Sub-second intervals (Grafana's $__timeInterval_ms): DateTime64 of the
 * unit's precision whatever the input's, rounded towards minus infinity. */
static void test_start_of_interval_subsecond(void **state) {
    (void)state;
    const char *dt64 = "DateTime64(3, 'UTC')";
    EXPECT(CALL("toStartOfInterval", V(dt64, "2024-05-06 07:08:09.777"), I(500), S("millisecond")),
           "DateTime64(3, 'UTC')", "2024-05-06 07:08:09.500");
    EXPECT_V(CALL("toStartOfInterval", V(dt64, "2024-05-06 07:08:09.777"), I(30000), S("ms")),
             "2024-05-06 07:08:00.000");
    EXPECT_V(CALL("toStartOfInterval", V(dt64, "2024-05-06 07:08:09.777"), I(1),
                  S("MILLISECONDS")),
             "2024-05-06 07:08:09.777");
    EXPECT(CALL("toStartOfInterval", V("DateTime64(6, 'UTC')", "2024-05-06 07:08:09.777777"), I(2),
                S("millisecond")),
           "DateTime64(3, 'UTC')", "2024-05-06 07:08:09.776");
    EXPECT(CALL("toStartOfInterval", V("DateTime64(1, 'UTC')", "2024-05-06 07:08:09.7"), I(10),
                S("microsecond")),
           "DateTime64(6, 'UTC')", "2024-05-06 07:08:09.700000");
    EXPECT(CALL("toStartOfInterval", V("DateTime64(9, 'UTC')", "2024-05-06 07:08:09.123456789"),
                I(1000), S("ns")),
           "DateTime64(9, 'UTC')", "2024-05-06 07:08:09.123456000");
    EXPECT_V(CALL("toStartOfInterval", V("DateTime64(9, 'UTC')", "2024-05-06 07:08:09.123456789"),
                  I(7), S("mcs")),
             "2024-05-06 07:08:09.123450");
    /* Before the epoch the bucket starts earlier, not at zero. */
    EXPECT_V(CALL("toStartOfInterval", V(dt64, "1969-12-31 23:59:59.999"), I(5), S("millisecond")),
             "1969-12-31 23:59:59.995");
    EXPECT_V(CALL("toStartOfInterval", V("DateTime64(6, 'UTC')", "1969-12-31 23:59:59.999999"),
                  I(1), S("millisecond")),
             "1969-12-31 23:59:59.999");
    /* The zone argument names the result's zone; the buckets do not move. */
    EXPECT(CALL("toStartOfInterval", V(dt64, "2024-05-06 07:08:09.777"), I(250), S("millisecond"),
                S("Asia/Tokyo")),
           "DateTime64(3, 'Asia/Tokyo')", "2024-05-06 16:08:09.750");
    EXPECT(CALL("toStartOfInterval", V("DateTime64(3)", "2024-05-06 07:08:09.777"), I(100),
                S("millisecond")),
           "DateTime64(3)", "2024-05-06 07:08:09.700");

    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal interval kind for argument data type DateTime",
                 "toStartOfInterval", V(DT_UTC, "2024-05-06 07:08:09"), I(5), S("millisecond"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal interval kind for argument data type Date",
                 "toStartOfInterval", V("Date", "2024-05-06"), I(5), S("nanosecond"));
    EXPECT_ERROR(MU_EOUT_OF_BOUND, "Value for second argument of function toStartOfInterval must "
                                   "be positive",
                 "toStartOfInterval", V(dt64, "2024-05-06 07:08:09.777"), I(-5), S("ms"));
    EXPECT_ERROR(MU_EDECIMAL_OVERFLOW, "Decimal overflow in toStartOfInterval",
                 "toStartOfInterval", V("DateTime64(0, 'UTC')", "2299-12-31 23:59:59"), I(1),
                 S("nanosecond"));
}

/* ------------------------------------------------------------------ */
/* Arithmetic                                                          */
/* ------------------------------------------------------------------ */

static void test_add_dates(void **state) {
    (void)state;
    EXPECT(CALL("addMonths", V("Date", "2024-01-31"), I(1)), "Date", "2024-02-29");
    EXPECT_V(CALL("addMonths", V("Date", "2023-01-31"), I(1)), "2023-02-28");
    EXPECT_V(CALL("addMonths", V("Date", "2024-05-31"), I(-13)), "2023-04-30");
    EXPECT_V(CALL("subtractMonths", V("Date", "2024-03-31"), I(1)), "2024-02-29");
    EXPECT_V(CALL("addQuarters", V("Date", "2023-11-30"), I(1)), "2024-02-29");
    EXPECT_V(CALL("addYears", V("Date", "2024-02-29"), I(1)), "2025-02-28");
    EXPECT_V(CALL("addYears", V("Date", "2024-02-29"), I(4)), "2028-02-29");
    EXPECT_V(CALL("subtractYears", V("Date", "2024-02-29"), I(100)), "1970-01-01");
    EXPECT_V(CALL("addDays", V("Date", "2024-02-28"), I(1)), "2024-02-29");
    EXPECT_V(CALL("addWeeks", V("Date", "2024-02-26"), I(1)), "2024-03-04");
    EXPECT_V(CALL("subtractWeeks", V("Date", "2024-03-04"), I(1)), "2024-02-26");
    /* Date edges: days saturate, month arithmetic wraps past 2149 as ClickHouse. */
    EXPECT_V(CALL("addDays", V("Date", "2149-06-06"), I(1)), "2149-06-06");
    EXPECT_V(CALL("subtractDays", V("Date", "1970-01-01"), I(1)), "1970-01-01");
    EXPECT_V(CALL("subtractMonths", V("Date", "1970-01-31"), I(1)), "1970-01-01");
    EXPECT_V(CALL("addMonths", V("Date", "2149-06-06"), I(1)), "1970-01-30");
    /* Date plus a sub-day unit is a DateTime at the session zone's midnight. */
    EXPECT(CALL("addHours", V("Date", "2024-01-01"), I(25)), "DateTime", "2024-01-02 01:00:00");
    EXPECT(CALL("addMinutes", V("Date", "2024-01-01"), I(-1)), "DateTime", "2023-12-31 23:59:00");
    EXPECT(CALL("subtractSeconds", V("Date", "2024-01-01"), I(1)), "DateTime",
           "2023-12-31 23:59:59");
    /* Date32 */
    EXPECT(CALL("addDays", V("Date32", "1900-01-01"), I(-1)), "Date32", "1900-01-01");
    EXPECT(CALL("addMonths", V("Date32", "1960-01-31"), I(1)), "Date32", "1960-02-29");
    EXPECT(CALL("addSeconds", V("Date32", "1960-01-01"), I(1)), "DateTime64(3)",
           "1960-01-01 00:00:01.000");
}

static void test_add_datetimes(void **state) {
    (void)state;
    EXPECT(CALL("addSeconds", V(DT_UTC, "2024-01-01 00:00:00"), I(-1)), "DateTime('UTC')",
           "2023-12-31 23:59:59");
    EXPECT(CALL("addMonths", V(DT_UTC, "2024-01-31 10:00:00"), I(1)), "DateTime('UTC')",
           "2024-02-29 10:00:00");
    EXPECT_V(CALL("addYears", V(DT_UTC, "2024-02-29 10:00:00"), I(-1)), "2023-02-28 10:00:00");
    EXPECT_V(CALL("subtractQuarters", V(DT_UTC, "2024-05-31 10:00:00"), I(1)),
             "2024-02-29 10:00:00");
    /* Days keep the wall clock across DST; hours count real time. */
    EXPECT_V(CALL("addDays", V(DT_BERLIN, "2024-03-30 12:00:00"), I(1)), "2024-03-31 12:00:00");
    EXPECT_V(CALL("toUnixTimestamp", CALL("addDays", V(DT_BERLIN, "2024-03-30 12:00:00"), I(1))),
             "1711879200");
    EXPECT_V(CALL("addDays", V(DT_BERLIN, "2024-03-30 02:30:00"), I(1)), "2024-03-31 01:30:00");
    EXPECT_V(CALL("addHours", V(DT_BERLIN, "2024-03-31 01:30:00"), I(1)), "2024-03-31 03:30:00");
    EXPECT_V(CALL("addWeeks", V(DT_NY, "2024-03-03 02:30:00"), I(1)), "2024-03-10 01:30:00");
    EXPECT_V(CALL("addDays", V(DT_BERLIN, "2024-10-26 02:30:00"), I(1)), "2024-10-27 02:30:00");
    EXPECT_V(CALL("toUnixTimestamp", CALL("addDays", V(DT_BERLIN, "2024-10-26 02:30:00"), I(1))),
             "1729989000");
    EXPECT_V(CALL("addMonths", V(DT_KOLKATA, "2024-01-31 23:45:00"), I(1)), "2024-02-29 23:45:00");
    /* A zone argument changes the calendar and the result type. */
    EXPECT(CALL("addDays", V(DT_UTC, "2024-03-30 23:30:00"), I(1), S("Europe/Berlin")),
           "DateTime('Europe/Berlin')", "2024-04-01 00:30:00");
    /* DateTime64 keeps its fraction. */
    EXPECT(CALL("addMonths", V("DateTime64(3, 'UTC')", "2024-01-31 10:00:00.250"), I(1)),
           "DateTime64(3, 'UTC')", "2024-02-29 10:00:00.250");
    EXPECT_V(CALL("addHours", V("DateTime64(3, 'UTC')", "2024-01-31 10:00:00.250"), I(-2)),
             "2024-01-31 08:00:00.250");
    EXPECT_V(CALL("addDays", V("DateTime64(6, 'Europe/Berlin')", "2024-03-30 12:00:00.000001"),
                  I(1)),
             "2024-03-31 12:00:00.000001");
    /* A float delta is truncated. */
    EXPECT_V(CALL("addDays", V("Date", "2024-01-01"), F(1.9)), "2024-01-02");
}

static void test_date_add_family(void **state) {
    (void)state;
    EXPECT(CALL("date_add", S("month"), I(1), V("Date", "2024-01-31")), "Date", "2024-02-29");
    EXPECT_V(CALL("DATE_ADD", S("DAY"), I(2), V("Date", "2024-02-28")), "2024-03-01");
    EXPECT_V(CALL("dateAdd", S("hour"), I(1), V(DT_UTC, "2024-02-28 23:30:00")),
             "2024-02-29 00:30:00");
    EXPECT_V(CALL("date_sub", S("year"), I(1), V("Date", "2024-02-29")), "2023-02-28");
    EXPECT_V(CALL("DATE_SUB", S("minute"), I(90), V(DT_UTC, "2024-01-01 01:00:00")),
             "2023-12-31 23:30:00");
    EXPECT_V(CALL("timestamp_add", V(DT_UTC, "2024-01-01 00:00:00"), I(5), S("second")),
             "2024-01-01 00:00:05");
    EXPECT_V(CALL("TIMESTAMP_ADD", S("week"), I(1), V("Date", "2024-01-01")), "2024-01-08");
    EXPECT_V(CALL("timestamp_sub", S("quarter"), I(1), V("Date", "2024-05-31")), "2024-02-29");
    EXPECT_V(CALL("timestampSub", V("Date", "2024-05-31"), I(1), S("mm")), "2024-04-30");
    EXPECT_ERROR(MU_EINVAL, "Unknown interval unit 'fortnight' of function date_add", "date_add",
                 S("fortnight"), I(1), V("Date", "2024-01-01"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "(delta) must be number", "date_add", S("day"), S("1"),
                 V("Date", "2024-01-01"));
}

static void test_add_columns_and_errors(void **state) {
    (void)state;
    const char *days[] = {"2024-01-31", "NULL", "2023-01-31", "2149-06-06"};
    const char *deltas[] = {"1", "5", "NULL", "-1"};
    const ty_column *inputs[2] = {COLUMN("Nullable(Date)", days, 4),
                                  COLUMN("Nullable(Int32)", deltas, 4)};
    exec_expr *e = CALL("addMonths", IN(0, "Nullable(Date)"), IN(1, "Nullable(Int32)"));
    assert_string_equal(et_type_text(e), "Nullable(Date)");
    assert_string_equal(et_rows(e, inputs, 4), "2024-02-29|\\N|\\N|2149-05-06");
    exec_expr *c = CALL("addDays", V("Date", "2024-01-01"), IN(1, "Nullable(Int32)"));
    assert_string_equal(et_rows(c, inputs, 4), "2024-01-02|2024-01-06|\\N|2023-12-31");
    ty_column_destroy((ty_column *)inputs[0]);
    ty_column_destroy((ty_column *)inputs[1]);

    const char *big[] = {"18446744073709551615"};
    const ty_column *big_input[1] = {COLUMN("UInt64", big, 1)};
    exec_expr *o = CALL("addDays", V("Date", "2024-01-01"), IN(0, "UInt64"));
    mu_err err;
    assert_int_equal(et_rows_error(o, big_input, 1, &err), MU_EDECIMAL_OVERFLOW);
    assert_non_null(strstr(err.message, "Numeric overflow"));
    ty_column_destroy((ty_column *)big_input[0]);

    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Second argument for function addDays (delta) must be number",
                 "addDays", V("Date", "2024-01-01"), S("1"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type String of first argument of function addDays. "
                                   "Should be a date or a date with time",
                 "addDays", S("2024-01-01"), I(1));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "The timezone argument is allowed only when the 1st argument "
                                   "has the type DateTime",
                 "addDays", V("Date", "2024-01-01"), I(1), S("UTC"));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "Number of arguments for function addDays doesn't "
                                          "match: passed 1, should be 2 or 3",
                 "addDays", V("Date", "2024-01-01"));
}

/* ------------------------------------------------------------------ */
/* dateDiff                                                            */
/* ------------------------------------------------------------------ */

static void test_date_diff(void **state) {
    (void)state;
    EXPECT(CALL("dateDiff", S("day"), V("Date", "2024-01-01"), V("Date", "2024-03-01")), "Int64",
           "60");
    EXPECT_V(CALL("dateDiff", S("day"), V("Date", "2023-01-01"), V("Date", "2023-03-01")), "59");
    /* Boundaries crossed, not whole units. */
    EXPECT_V(CALL("dateDiff", S("month"), V("Date", "2024-01-31"), V("Date", "2024-02-01")), "1");
    EXPECT_V(CALL("dateDiff", S("year"), V(DT_UTC, "2023-12-31 23:59:59"),
                  V(DT_UTC, "2024-01-01 00:00:00")),
             "1");
    EXPECT_V(CALL("dateDiff", S("quarter"), V("Date", "2024-03-31"), V("Date", "2024-04-01")), "1");
    EXPECT_V(CALL("dateDiff", S("week"), V("Date", "2024-01-07"), V("Date", "2024-01-08")), "1");
    EXPECT_V(CALL("dateDiff", S("week"), V("Date", "2024-01-08"), V("Date", "2024-01-14")), "0");
    EXPECT_V(CALL("dateDiff", S("hour"), V(DT_BERLIN, "2024-03-31 01:00:00"),
                  V(DT_BERLIN, "2024-03-31 04:00:00")),
             "2");
    EXPECT_V(CALL("dateDiff", S("day"), V(DT_BERLIN, "2024-03-30 12:00:00"),
                  V(DT_BERLIN, "2024-03-31 11:00:00")),
             "1");
    EXPECT_V(CALL("dateDiff", S("minute"), V(DT_UTC, "2024-01-01 00:00:59"),
                  V(DT_UTC, "2024-01-01 00:01:00")),
             "1");
    EXPECT_V(CALL("dateDiff", S("second"), V("Date", "2024-01-01"),
                  V(DT_UTC, "2024-01-01 00:01:00")),
             "60");
    EXPECT_V(CALL("dateDiff", S("ms"), V("DateTime64(3, 'UTC')", "2024-01-01 00:00:00.250"),
                  V("DateTime64(6, 'UTC')", "2024-01-01 00:00:01.000999")),
             "750");
    EXPECT_V(CALL("dateDiff", S("DAY"), V("Date", "2024-03-01"), V("Date", "2024-01-01")), "-60");
    EXPECT_V(CALL("DATEDIFF", S("yy"), V("Date32", "1900-01-01"), V("Date", "2149-06-06")), "249");
    EXPECT_V(CALL("date_diff", S("days"), V("Date", "1970-01-01"), V("Date", "2149-06-06")),
             "65535");
    EXPECT_V(CALL("timestampDiff", S("hh"), V(DT_KOLKATA, "2024-01-01 00:00:00"),
                  V(DT_UTC, "2024-01-01 00:00:00")),
             "11");
    /* A zone argument applies to both sides. */
    EXPECT_V(CALL("dateDiff", S("day"), V(DT_UTC, "2024-01-01 18:00:00"),
                  V(DT_UTC, "2024-01-01 19:00:00"), S("America/New_York")),
             "0");
    EXPECT_V(CALL("dateDiff", S("day"), V(DT_UTC, "2024-01-01 18:00:00"),
                  V(DT_UTC, "2024-01-01 19:00:00"), S("Asia/Kolkata")),
             "1");
    /* age(): whole units only. */
    EXPECT(CALL("age", S("year"), V("Date", "2023-05-06"), V("Date", "2024-05-05")), "Int64", "0");
    EXPECT_V(CALL("age", S("year"), V("Date", "2023-05-06"), V("Date", "2024-05-06")), "1");
    EXPECT_V(CALL("age", S("month"), V("Date", "2024-01-31"), V("Date", "2024-02-29")), "0");
    EXPECT_V(CALL("age", S("month"), V("Date", "2024-01-29"), V("Date", "2024-02-29")), "1");
    EXPECT_V(CALL("age", S("quarter"), V("Date", "2024-01-15"), V("Date", "2024-04-14")), "0");
    EXPECT_V(CALL("age", S("day"), V(DT_UTC, "2024-01-01 12:00:00"),
                  V(DT_UTC, "2024-01-02 11:59:59")),
             "0");
    EXPECT_V(CALL("age", S("day"), V(DT_UTC, "2024-01-02 11:59:59"),
                  V(DT_UTC, "2024-01-01 12:00:00")),
             "0");
    EXPECT_V(CALL("age", S("day"), V(DT_UTC, "2024-01-03 12:00:00"),
                  V(DT_UTC, "2024-01-01 12:00:00")),
             "-2");
    EXPECT_V(CALL("age", S("week"), V(DT_UTC, "2024-01-08 10:00:00"),
                  V(DT_UTC, "2024-01-15 09:00:00")),
             "0");
    EXPECT_V(CALL("age", S("hour"), V(DT_UTC, "2024-01-08 10:30:00"),
                  V(DT_UTC, "2024-01-08 12:29:59")),
             "1");
    EXPECT_V(CALL("age", S("ms"), V("DateTime64(3, 'UTC')", "2024-01-01 00:00:00.100"),
                  V("DateTime64(6, 'UTC')", "2024-01-01 00:00:00.200999")),
             "100");
    EXPECT_V(CALL("AGE", S("second"), V("DateTime64(3, 'UTC')", "2024-01-01 00:00:00.900"),
                  V("DateTime64(3, 'UTC')", "2024-01-01 00:00:01.100")),
             "0");
    EXPECT_ERROR(MU_EINVAL, "Function dateDiff does not support 'fortnight' unit", "dateDiff",
                 S("FortNight"), V("Date", "2024-01-01"), V("Date", "2024-01-02"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type String of argument #2 'startdate' of function "
                                   "dateDiff, expected Date[32] or DateTime[64]",
                 "dateDiff", S("day"), S("2024-01-01"), V("Date", "2024-01-02"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type UInt8 of argument #1 'unit'", "dateDiff", I(1),
                 V("Date", "2024-01-01"), V("Date", "2024-01-02"));
}

/* ------------------------------------------------------------------ */
/* now, today, timezone, Unix timestamps                               */
/* ------------------------------------------------------------------ */

static void test_now_and_today(void **state) {
    (void)state;
    EXPECT(CALL0("now"), "DateTime", "2024-05-06 07:08:09");
    EXPECT(CALL0("NOW"), "DateTime", "2024-05-06 07:08:09");
    EXPECT(CALL("now", S("Asia/Kolkata")), "DateTime('Asia/Kolkata')", "2024-05-06 12:38:09");
    EXPECT(CALL0("now64"), "DateTime64(3)", "2024-05-06 07:08:09.123");
    EXPECT(CALL("now64", I(6)), "DateTime64(6)", "2024-05-06 07:08:09.123456");
    EXPECT(CALL("now64", I(9)), "DateTime64(9)", "2024-05-06 07:08:09.123456000");
    EXPECT(CALL("now64", I(0), S("America/New_York")), "DateTime64(0, 'America/New_York')",
           "2024-05-06 03:08:09");
    EXPECT(CALL0("today"), "Date", "2024-05-06");
    EXPECT(CALL0("yesterday"), "Date", "2024-05-05");
    EXPECT(CALL0("timezone"), "String", "UTC");
    EXPECT(CALL0("timeZone"), "String", "UTC");
    /* A session zone moves today() and timezone(). */
    et.ctx.timezone = et_zone("Asia/Kolkata");
    et.ctx.now_us = 1715025600000000LL; /* 2024-05-06 20:00:00 UTC */
    EXPECT_V(CALL0("today"), "2024-05-07");
    EXPECT_V(CALL0("timezone"), "Asia/Kolkata");
    EXPECT_V(CALL("toDayOfMonth", V("Date", "2024-05-06")), "6");
    EXPECT(CALL("addHours", V("Date", "2024-01-01"), I(0)), "DateTime", "2023-12-31 18:30:00");
    et.ctx.timezone = NULL;
    et.ctx.now_us = TC_NOW_US;
    EXPECT_ERROR(MU_EOUT_OF_BOUND, "Scale 10 is too large for DateTime64", "now64", I(10));
    EXPECT_ERROR(MU_EINVAL, "Cannot load time zone Mars/Olympus", "now", S("Mars/Olympus"));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "passed 1, should be 0", "today", I(1));
}

static void test_unix_timestamps(void **state) {
    (void)state;
    EXPECT(CALL("toUnixTimestamp", V(DT_BERLIN, "2024-01-01 01:00:00")), "UInt32", "1704067200");
    EXPECT_V(CALL("toUnixTimestamp", S("2017-11-05 08:07:47"), S("Asia/Tokyo")), "1509836867");
    EXPECT_V(CALL("toUnixTimestamp", S("2017-11-05 08:07:47")), "1509869267");
    EXPECT_V(CALL("toUnixTimestamp", V("DateTime64(3, 'UTC')", "2024-01-01 00:00:00.999")),
             "1704067200");
    EXPECT_V(CALL("toUnixTimestamp", I(1234)), "1234");
    EXPECT_V(CALL("toUnixTimestamp", F(1234.9)), "1234");
    EXPECT_V(CALL("toUnixTimestamp", F(0.0 / 0.0)), "0");
    EXPECT_ERROR(MU_EILLEGAL_COLUMN, "Illegal type Date of first argument of function "
                                     "toUnixTimestamp",
                 "toUnixTimestamp", V("Date", "2024-01-01"));
    /* No value at all: CANNOT_PARSE_DATETIME; a value and more text:
     * incompletely parsed, CANNOT_PARSE_TEXT. */
    EXPECT_ERROR(MU_EPARSE_DATETIME, "junk", "toUnixTimestamp", S("junk"));
    EXPECT_ERROR(MU_EPARSE, "2017-11-05 08:07:47x", "toUnixTimestamp",
                 S("2017-11-05 08:07:47x"));
    EXPECT_ERROR(MU_EPARSE, "2017-11-05x", "toUnixTimestamp", S("2017-11-05x"));
    EXPECT_ERROR(MU_EPARSE, "1234z", "toUnixTimestamp", S("1234z"));
    EXPECT(CALL("fromUnixTimestamp", I(423543535)), "DateTime", "1983-06-04 02:58:55");
    EXPECT_V(CALL("fromUnixTimestamp", I(-5)), "1970-01-01 00:00:00");
    EXPECT(CALL("FROM_UNIXTIME", I(1234334543), S("%Y-%m-%d %R:%S"), S("Asia/Shanghai")),
           "String", "2009-02-11 14:42:23");
    EXPECT_V(CALL("from_unixtime", I(1234334543), S("%F %T")), "2009-02-11 06:42:23");
    EXPECT_V(CALL("fromUnixTimestamp", V("Int64", "-1"), S("%F %T")), "1969-12-31 23:59:59");
    /* Far instants stick to the ends of ClickHouse's calendar (1900..2299). */
    EXPECT_V(CALL("fromUnixTimestamp", V("Int64", "1000000000000000"), S("%Y")), "2299");
    EXPECT_V(CALL("fromUnixTimestamp", V("Int64", "-9223372036854775808"), S("%Y")), "1900");
    EXPECT_V(CALL("toYear", CALL("addSeconds", V("DateTime64(0, 'UTC')", "2024-01-01 00:00:00"),
                                 V("Int64", "9000000000000000000"))),
             "2299");
    EXPECT_V(CALL("toYear", CALL("addDays", V("Date32", "2024-01-01"), V("Int64", "2000000000"))),
             "2299");
    EXPECT_V(CALL("fromUnixTimestamp", V(DT_KOLKATA, "2024-01-01 10:00:00"), S("%H:%i")), "10:00");
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "when arguments size is 1. Should be integer",
                 "fromUnixTimestamp", S("1"));
}

/* ------------------------------------------------------------------ */
/* Weeks: ISO 8601 and MySQL's modes                                   */
/* ------------------------------------------------------------------ */

static void test_iso_weeks(void **state) {
    (void)state;
    EXPECT(CALL("toISOWeek", V("Date", "2016-12-27")), "UInt8", "52");
    EXPECT_V(CALL("toISOWeek", V("Date", "2017-01-01")), "52");
    EXPECT_V(CALL("toISOWeek", V("Date", "2017-01-02")), "1");
    EXPECT_V(CALL("toISOWeek", V("Date32", "2021-01-03")), "53");
    EXPECT_V(CALL("toISOWeek", V("Date", "2024-12-30")), "1");
    EXPECT(CALL("toISOYear", V("Date", "2021-01-03")), "UInt16", "2020");
    EXPECT_V(CALL("toISOYear", V("Date", "2024-12-30")), "2025");
    EXPECT_V(CALL("toISOYear", V("DateTime64(3, 'UTC')", "2017-01-01 12:00:00.000")), "2016");
    EXPECT(CALL("toStartOfISOYear", V("Date", "2017-01-01")), "Date", "2016-01-04");
    EXPECT_V(CALL("toStartOfISOYear", V(DT_UTC, "2024-12-31 23:00:00")), "2024-12-30");
    /* The zone decides the day: 23:00 UTC on Sunday is Monday in Kolkata. */
    EXPECT_V(CALL("toISOWeek", V(DT_UTC, "2017-01-01 23:00:00")), "52");
    EXPECT_V(CALL("toISOWeek", V(DT_UTC, "2017-01-01 23:00:00"), S("Asia/Kolkata")), "1");
    /* ISO 1970 starts on 1969-12-29: Date stops at 1970-01-01; DateTime64
     * days are cast to Date's 16 bits (ToStartOfISOYearImpl), Date32 and
     * DateTime64 before 1970 give 1970-01-01. */
    EXPECT_V(CALL("toStartOfISOYear", V("Date", "1970-01-05")), "1970-01-01");
    EXPECT_V(CALL("toStartOfISOYear", V("DateTime64(3, 'UTC')", "1970-01-02 00:00:00")),
             "2149-06-04");
    EXPECT_V(CALL("toStartOfISOYear", V("Date32", "1960-05-05")), "1970-01-01");
    EXPECT_V(CALL("toStartOfISOYear", V("Date32", "2000-05-05")), "2000-01-03");
    /* EXTRACT(WEEK FROM d) binds to toISOWeek. */
    EXPECT_V(CALL("toISOWeek", V("Date", "2020-01-01")), "1");
}

static void test_custom_weeks(void **state) {
    (void)state;
    exec_expr *m1 = V("UInt8", "1"), *m9 = V("UInt8", "9");
    /* ClickHouse's documented examples. */
    EXPECT(CALL("toWeek", V("Date", "2016-12-27")), "UInt8", "52");
    EXPECT_V(CALL("toWeek", V("Date", "2016-12-27"), m1), "52");
    EXPECT_V(CALL("toWeek", V("Date", "2016-12-27"), m9), "1");
    EXPECT(CALL("toYearWeek", V("Date", "2016-12-27")), "UInt32", "201652");
    EXPECT_V(CALL("toYearWeek", V("Date", "2016-12-27"), m1), "201652");
    EXPECT_V(CALL("toYearWeek", V("Date", "2016-12-27"), m9), "201701");
    /* MySQL's documented WEEK() and YEARWEEK() examples. */
    EXPECT_V(CALL("toWeek", V("Date", "2008-02-20")), "7");
    EXPECT_V(CALL("toWeek", V("Date", "2008-02-20"), m1), "8");
    EXPECT_V(CALL("toWeek", V("Date", "2008-12-31"), m1), "53");
    EXPECT_V(CALL("toWeek", V("Date", "2000-01-01")), "0");
    EXPECT_V(CALL("toWeek", V("Date", "2000-01-01"), V("UInt8", "2")), "52");
    EXPECT_V(CALL("toYearWeek", V("Date", "1987-01-01")), "198652");
    EXPECT_V(CALL("toYearWeek", V("Date", "2000-01-01")), "199952");
    /* Every mode on 2021-01-01 (a Friday) and 2024-12-31 (a Tuesday);
     * checked against MySQL's definitions of the modes. */
    static const char *const jan1[10] = {"0", "0", "52", "53", "0", "0", "53", "52", "1", "1"};
    static const char *const dec31[10] = {"52", "53", "52", "1", "53", "53", "1", "53", "1", "1"};
    static const char *const yw_dec31[10] = {"202452", "202501", "202452", "202501", "202501",
                                             "202453", "202501", "202453", "202501", "202501"};
    for (int mode = 0; mode < 10; mode++) {
        char m[4];
        snprintf(m, sizeof(m), "%d", mode);
        EXPECT_V(CALL("toWeek", V("Date", "2021-01-01"), V("UInt8", m)), jan1[mode]);
        EXPECT_V(CALL("toWeek", V("Date32", "2024-12-31"), V("UInt8", m)), dec31[mode]);
        EXPECT_V(CALL("toYearWeek", V("Date", "2024-12-31"), V("UInt8", m)), yw_dec31[mode]);
    }
    /* Times are read in their zone, or in the third argument's. */
    EXPECT_V(CALL("toWeek", V(DT_UTC, "2017-01-01 00:30:00")), "1");
    EXPECT_V(CALL("toWeek", V(DT_UTC, "2017-01-01 00:30:00"), V("UInt8", "0"),
                  S("America/New_York")),
             "52");
    EXPECT_V(CALL("toYearWeek", V("DateTime64(3, 'UTC')", "2016-12-27 10:00:00.5"), m9),
             "201701");
    /* Strings are read best-effort (ClickHouse's value_may_be_string). */
    EXPECT_V(CALL("toWeek", S("2016-12-27")), "52");
    EXPECT_V(CALL("toYearWeek", S("2016-12-27 10:00:00"), m9), "201701");
    EXPECT_V(CALL("toWeek", S("2017-01-01 00:30:00"), V("UInt8", "0"), S("Asia/Tokyo")), "1");
    EXPECT_ERROR(MU_EPARSE_DATETIME, "Cannot read DateTime", "toWeek", S("1/2/3/4"));
    /* Aliases, any case. */
    EXPECT_V(CALL("WEEK", V("Date", "2016-12-27"), m9), "1");
    EXPECT_V(CALL("yearWeek", V("Date", "2016-12-27")), "201652");
    /* IFunctionCustomWeek's argument rules. */
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Int8 of 2nd (optional) argument of function "
                                   "toWeek. Must be constant UInt8 (week mode).",
                 "toWeek", V("Date", "2016-12-27"), I(-1));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type UInt8 of argument of function toYearWeek. Must "
                                   "be Date, Date32, DateTime or DateTime64.",
                 "toYearWeek", V("UInt8", "1"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type UInt8 of 3rd (optional) argument of function "
                                   "toWeek. Must be constant string (timezone name).",
                 "toWeek", V("Date", "2016-12-27"), m1, m1);
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "passed 0, expected 1, 2 or 3", "toWeek");
    EXPECT_ERROR(MU_EILLEGAL_COLUMN, "Illegal type of argument for function toWeek", "toWeek",
                 V("Date", "2016-12-27"), IN(0, "UInt8"));
}

/* ------------------------------------------------------------------ */
/* More fields, relative numbers, zones and Unix timestamps            */
/* ------------------------------------------------------------------ */

static void test_more_fields(void **state) {
    (void)state;
    EXPECT(CALL("timezoneOffset", V("DateTime('America/New_York')", "2021-04-21 10:20:30")),
           "Int32", "-14400");
    EXPECT_V(CALL("timeZoneOffset", V(DT_BERLIN, "2024-01-15 12:00:00")), "3600");
    EXPECT_V(CALL("timezoneOffset", V(DT_UTC, "2024-07-15 12:00:00"), S("Europe/Berlin")), "7200");
    EXPECT_V(CALL("timezoneOffset", V("DateTime64(3, 'Asia/Kolkata')", "2024-01-01 00:00:00")),
             "19800");
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date of argument for function timezoneOffset",
                 "timezoneOffset", V("Date", "2024-01-01"));
    /* ClickHouse's documented toRelative*Num examples. */
    EXPECT(CALL("toRelativeYearNum", V("Date", "2002-12-08")), "UInt16", "2002");
    EXPECT(CALL("toRelativeQuarterNum", V("Date", "1993-11-25")), "UInt32", "7975");
    EXPECT(CALL("toRelativeMonthNum", V("Date", "2001-11-30")), "UInt32", "24023");
    EXPECT(CALL("toRelativeWeekNum", V("Date", "2000-02-29")), "UInt32", "1574");
    EXPECT_V(CALL("toRelativeWeekNum", V(DT_UTC, "2000-02-29 10:00:00")), "1574");
    /* Before 1970 the week number is negative and keeps 16 bits. */
    EXPECT_V(CALL("toRelativeWeekNum", V("Date32", "1960-01-01")), "65015");
    EXPECT_V(CALL("toRelativeYearNum", V("Date32", "1960-01-01")), "1960");
    EXPECT(CALL("toLastDayOfMonth", V("Date", "2024-02-10")), "Date", "2024-02-29");
    EXPECT_V(CALL("toLastDayOfMonth", V("Date", "2023-02-10")), "2023-02-28");
    EXPECT_V(CALL("LAST_DAY", V("DateTime64(3, 'UTC')", "2023-12-31 23:59:59.999")), "2023-12-31");
    EXPECT_V(CALL("last_day", V(DT_UTC, "2024-04-30 23:00:00"), S("Asia/Tokyo")), "2024-05-31");
    /* MySQL-style aliases. */
    const char *t = "2024-02-29 13:45:56";
    EXPECT(CALL("YEAR", V(DT_UTC, t)), "UInt16", "2024");
    EXPECT_V(CALL("quarter", V(DT_UTC, t)), "1");
    EXPECT_V(CALL("Month", V(DT_UTC, t)), "2");
    EXPECT_V(CALL("DAY", V(DT_UTC, t)), "29");
    EXPECT_V(CALL("dayofmonth", V(DT_UTC, t)), "29");
    EXPECT_V(CALL("DAYOFYEAR", V(DT_UTC, t)), "60");
    EXPECT_V(CALL("DAYOFWEEK", V(DT_UTC, t)), "4");
    EXPECT_V(CALL("DAYOFWEEK", V(DT_UTC, t), I(3)), "5");
    EXPECT_V(CALL("hour", V(DT_UTC, t)), "13");
    EXPECT_V(CALL("MINUTE", V(DT_UTC, t)), "45");
    EXPECT_V(CALL("second", V(DT_UTC, t)), "56");
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date of argument for function HOUR", "HOUR",
                 V("Date", "2024-01-01"));
}

static void test_time_zones_and_unix64(void **state) {
    (void)state;
    EXPECT(CALL("toTimeZone", V(DT_UTC, "2020-05-06 07:08:09"), S("Asia/Tokyo")),
           "DateTime('Asia/Tokyo')", "2020-05-06 16:08:09");
    EXPECT(CALL("toTimezone", V("DateTime64(3, 'UTC')", "2020-05-06 07:08:09.123"),
                S("America/New_York")),
           "DateTime64(3, 'America/New_York')", "2020-05-06 03:08:09.123");
    EXPECT_V(CALL("toUnixTimestamp", CALL("toTimeZone", V(DT_UTC, "2020-05-06 07:08:09"),
                                          S("Asia/Tokyo"))),
             "1588748889");
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date of argument of function toTimeZone. Should "
                                   "be DateTime or DateTime64",
                 "toTimeZone", V("Date", "2020-05-06"), S("UTC"));
    EXPECT_ERROR(MU_EINVAL, "Cannot load time zone Mars/Base", "toTimeZone",
                 V(DT_UTC, "2020-05-06 07:08:09"), S("Mars/Base"));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "toTimeZone", "toTimeZone",
                 V(DT_UTC, "2020-05-06 07:08:09"));
    EXPECT(CALL("timezoneOf", V("DateTime('Asia/Tokyo')", "2020-05-06 07:08:09")), "String",
           "Asia/Tokyo");
    EXPECT(CALL("timeZoneOf", V("Nullable(DateTime64(3, 'Europe/Berlin'))", "NULL")), "String",
           "Europe/Berlin");
    EXPECT_V(CALL("timezoneOf", V("DateTime", "2020-05-06 07:08:09")), "UTC");
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date of argument of function timezoneOf",
                 "timezoneOf", V("Date", "2020-05-06"));

    const char *dt64 = "DateTime64(3, 'UTC')";
    EXPECT(CALL("toUnixTimestamp64Milli", V(dt64, "2025-02-13 23:31:31.011")), "Int64",
           "1739489491011");
    EXPECT_V(CALL("toUnixTimestamp64Second", V(dt64, "2025-02-13 23:31:31.011")), "1739489491");
    EXPECT_V(CALL("toUnixTimestamp64Micro", V(dt64, "2025-02-13 23:31:31.011")),
             "1739489491011000");
    EXPECT_V(CALL("toUnixTimestamp64Nano", V(dt64, "2025-02-13 23:31:31.011")),
             "1739489491011000000");
    EXPECT_V(CALL("toUnixTimestamp64Milli", V("DateTime64(6, 'UTC')", "2025-02-13 23:31:31.011999")),
             "1739489491011");
    /* Dividing truncates toward zero, as ClickHouse's Int64 division. */
    EXPECT_V(CALL("toUnixTimestamp64Second", V(dt64, "1969-12-31 23:59:59.500")), "0");
    EXPECT_V(CALL("toUnixTimestamp64Milli", V(dt64, "1969-12-31 23:59:59.500")), "-500");
    EXPECT_ERROR(MU_EDECIMAL_OVERFLOW, "Decimal overflow in toUnixTimestamp64Nano",
                 "toUnixTimestamp64Nano", V("DateTime64(0, 'UTC')", "2299-12-31 23:59:59"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "The only argument for function toUnixTimestamp64Milli must be "
                                   "DateTime64",
                 "toUnixTimestamp64Milli", V(DT_UTC, "2025-02-13 23:31:31"));
    EXPECT(CALL("fromUnixTimestamp64Milli", I(1739489491011), S("UTC")), "DateTime64(3, 'UTC')",
           "2025-02-13 23:31:31.011");
    EXPECT(CALL("fromUnixTimestamp64Micro", I(1739489491011123), S("Asia/Tokyo")),
           "DateTime64(6, 'Asia/Tokyo')", "2025-02-14 08:31:31.011123");
    EXPECT(CALL("fromUnixTimestamp64Nano", I(1)), "DateTime64(9)", "1970-01-01 00:00:00.000000001");
    EXPECT(CALL("fromUnixTimestamp64Second", I(-1)), "DateTime64(0)", "1969-12-31 23:59:59");
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "The first argument for function fromUnixTimestamp64Milli must "
                                   "be integer",
                 "fromUnixTimestamp64Milli", S("1"));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "Function fromUnixTimestamp64Milli takes one or two "
                                          "arguments",
                 "fromUnixTimestamp64Milli", I(1), S("UTC"), S("UTC"));
    /* Columns with NULLs. */
    const char *rows[] = {"2025-02-13 23:31:31.011", "NULL", "1970-01-01 00:00:00.001"};
    const ty_column *inputs[1] = {COLUMN("Nullable(DateTime64(3, 'UTC'))", rows, 3)};
    exec_expr *ms = CALL("toUnixTimestamp64Milli", IN(0, "Nullable(DateTime64(3, 'UTC'))"));
    assert_string_equal(et_type_text(ms), "Nullable(Int64)");
    assert_string_equal(et_rows(ms, inputs, 3), "1739489491011|\\N|1");
    exec_expr *tz = CALL("toTimeZone", IN(0, "Nullable(DateTime64(3, 'UTC'))"), S("Asia/Tokyo"));
    assert_string_equal(et_type_text(tz), "Nullable(DateTime64(3, 'Asia/Tokyo'))");
    assert_string_equal(et_rows(tz, inputs, 3),
                        "2025-02-14 08:31:31.011|\\N|1970-01-01 09:00:00.001");
    exec_expr *of = CALL("timezoneOf", IN(0, "Nullable(DateTime64(3, 'UTC'))"));
    assert_string_equal(et_rows(of, inputs, 3), "UTC|UTC|UTC");
    ty_column_destroy((ty_column *)inputs[0]);
}

/* ------------------------------------------------------------------ */
/* formatDateTime                                                      */
/* ------------------------------------------------------------------ */

static void test_format_every_specifier(void **state) {
    (void)state;
    static const struct {
        const char *format;
        const char *want;
    } cases[] = {
        {"%a", "Tue"},        {"%b", "Jan"},     {"%c", "01"},         {"%C", "20"},
        {"%d", "02"},         {"%D", "01/02/18"}, {"%e", "2"},         {"%f", "000000"},
        {"%F", "2018-01-02"}, {"%g", "18"},      {"%G", "2018"},       {"%h", "10"},
        {"%H", "22"},         {"%i", "33"},      {"%I", "10"},         {"%j", "002"},
        {"%k", "22"},         {"%l", "10"},      {"%m", "01"},         {"%M", "January"},
        {"%n", "\n"},         {"%p", "PM"},      {"%Q", "1"},          {"%r", "10:33 PM"},
        {"%R", "22:33"},      {"%s", "44"},      {"%S", "44"},         {"%t", "\t"},
        {"%T", "22:33:44"},   {"%u", "2"},       {"%V", "01"},         {"%w", "2"},
        {"%W", "Tuesday"},    {"%y", "18"},      {"%Y", "2018"},       {"%z", "+0000"},
        {"%%", "%"},          {"", ""},          {"no specifiers", "no specifiers"},
        {"%Y%m%d%H%i%S", "20180102223344"},      {"[%e]", "[2]"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        exec_expr *e = CALL("formatDateTime", V(DT_UTC, "2018-01-02 22:33:44"),
                            S(cases[i].format));
        assert_string_equal(et_type_text(e), "String");
        if (strcmp(et_text(e), cases[i].want) != 0)
            fail_msg("%s: got '%s', want '%s'", cases[i].format, et_text(e), cases[i].want);
    }
    EXPECT_V(CALL("DATE_FORMAT", V(DT_UTC, "2018-01-02 22:33:44"), S("%F")), "2018-01-02");
}

static void test_format_values(void **state) {
    (void)state;
    /* A Date prints time fields as their defaults. */
    EXPECT_V(CALL("formatDateTime", V("Date", "2018-01-02"),
                  S("%F %T|%H|%i|%S|%p|%r|%R|%h|%I|%k|%l")),
             "2018-01-02 00:00:00|00|00|00|AM|12:00 AM|00:00|12|12|00|12");
    EXPECT_V(CALL("formatDateTime", V("Date32", "1900-01-01"), S("%Y %a %j %f")),
             "1900 Mon 001 000000");
    EXPECT_V(CALL("formatDateTime", V("Date", "2149-06-06"), S("%D %W")), "06/06/49 Friday");
    EXPECT_V(CALL("formatDateTime", V("Date", "2149-06-06"), S("%r%r%r%r%T%T")),
             "12:00 AM12:00 AM12:00 AM12:00 AM00:00:0000:00:00");
    /* Noon and midnight on a 12-hour clock. */
    EXPECT_V(CALL("formatDateTime", V(DT_UTC, "2018-01-02 00:05:00"), S("%h %I %l %p %r")),
             "12 12 12 AM 12:05 AM");
    EXPECT_V(CALL("formatDateTime", V(DT_UTC, "2018-01-02 12:05:00"), S("%h %p %r")),
             "12 PM 12:05 PM");
    EXPECT_V(CALL("formatDateTime", V(DT_UTC, "2018-01-02 09:05:00"), S("%h %k %e %c")),
             "09 09 2 01");
    /* ISO weeks at year ends. */
    EXPECT_V(CALL("formatDateTime", V("Date", "2021-01-03"), S("%V %G %g %u %w")),
             "53 2020 20 7 0");
    EXPECT_V(CALL("formatDateTime", V("Date", "2024-12-30"), S("%V %G %g")), "01 2025 25");
    /* Fractions: always six digits. */
    EXPECT_V(CALL("formatDateTime", V("DateTime64(6, 'UTC')", "2010-01-04 12:34:56.123456"),
                  S("%f")),
             "123456");
    EXPECT_V(CALL("formatDateTime", V("DateTime64(7, 'UTC')", "2010-01-04 12:34:56.1234567"),
                  S("%f")),
             "123456");
    EXPECT_V(CALL("formatDateTime", V("DateTime64(3, 'UTC')", "2010-01-04 12:34:56.123"),
                  S("%S.%f")),
             "56.123000");
    EXPECT_V(CALL("formatDateTime", V("DateTime64(3, 'UTC')", "1969-12-31 23:59:59.500"),
                  S("%F %T.%f")),
             "1969-12-31 23:59:59.500000");
    /* Zones: the type's, or the third argument. */
    EXPECT_V(CALL("formatDateTime", V(DT_KOLKATA, "2024-01-01 10:00:00"), S("%T %z")),
             "10:00:00 +0530");
    EXPECT_V(CALL("formatDateTime", V(DT_NY, "2024-01-01 10:00:00"), S("%z")), "-0500");
    EXPECT_V(CALL("formatDateTime", V(DT_NY, "2024-07-01 10:00:00"), S("%z")), "-0400");
    EXPECT_V(CALL("formatDateTime", V(DT_UTC, "2024-03-31 01:30:00"), S("%F %T %z"),
                  S("Europe/Berlin")),
             "2024-03-31 03:30:00 +0200");
    EXPECT_V(CALL("formatDateTime", V(DT_UTC, "2024-10-27 01:30:00"), S("%T %z"),
                  S("Europe/Berlin")),
             "02:30:00 +0100");
    /* Columns with NULLs. */
    const char *rows[] = {"2024-01-01 00:00:00", "NULL", "2024-12-31 23:59:59"};
    const ty_column *inputs[1] = {COLUMN("Nullable(DateTime('UTC'))", rows, 3)};
    exec_expr *e = CALL("formatDateTime", IN(0, "Nullable(DateTime('UTC'))"), S("%d.%m.%Y"));
    assert_string_equal(et_type_text(e), "Nullable(String)");
    assert_string_equal(et_rows(e, inputs, 3), "01.01.2024|\\N|31.12.2024");
    ty_column_destroy((ty_column *)inputs[0]);
}

static void test_format_errors(void **state) {
    (void)state;
    exec_expr *t = V(DT_UTC, "2018-01-02 22:33:44");
    EXPECT_ERROR(MU_EINVAL, "'%' must not be the last character in the format string, use '%%' "
                            "instead", "formatDateTime", t, S("%Y%"));
    EXPECT_ERROR(MU_EINVAL, "Incorrect syntax '%Y-%K', symbol is not supported 'K' for function "
                            "formatDateTime", "formatDateTime", t, S("%Y-%K"));
    EXPECT_ERROR(MU_ENOT_SUPPORTED, "format is not supported for WEEK (Sun-Sat)", "formatDateTime",
                 t, S("%U"));
    EXPECT_ERROR(MU_ENOT_SUPPORTED, "format is not supported for YEAR for week (Mon-Sun)",
                 "formatDateTime", t, S("%x"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type String of first argument of function "
                                   "formatDateTime. Should be a date or a date with time",
                 "formatDateTime", S("2018-01-02"), S("%F"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type UInt8 of second argument of function "
                                   "formatDateTime. Must be String.",
                 "formatDateTime", t, I(1));
    EXPECT_ERROR(MU_EILLEGAL_COLUMN, "of second ('format') argument of function formatDateTime. "
                                     "Must be constant string.",
                 "formatDateTime", t, IN(0, "String"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date of argument for function timezoneOffset",
                 "formatDateTime", V("Date", "2018-01-02"), S("%z"));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "passed 1, should be 2 or 3", "formatDateTime", t);
    EXPECT_ERROR(MU_EINVAL, "Cannot load time zone Nowhere/City", "formatDateTime", t, S("%F"),
                 S("Nowhere/City"));
    EXPECT_ERROR(MU_EILLEGAL_COLUMN, "time zone argument of function formatDateTime",
                 "formatDateTime", t, S("%F"), IN(0, "String"));
}

/* ------------------------------------------------------------------ */
/* parseDateTimeBestEffort                                             */
/* ------------------------------------------------------------------ */

static void test_parse_best_effort(void **state) {
    (void)state;
    static const struct {
        const char *text;
        const char *want;
    } cases[] = {
        {"2024-01-15 10:30:00", "2024-01-15 10:30:00"},
        {"2024-01-15T10:30:00Z", "2024-01-15 10:30:00"},
        {"2024-01-15T10:00:00.123+05:30", "2024-01-15 04:30:00"},
        {"2024-01-15T10:00:00-0800", "2024-01-15 18:00:00"},
        {"2024-01-15 10:00:00 -3", "2024-01-15 13:00:00"},
        {"2024-01-15 10:00:00+0530", "2024-01-15 04:30:00"},
        {"Tue, 01 Dec 2026 10:00:00 GMT", "2026-12-01 10:00:00"},
        {"Sat, 06 Apr 2024 21:05:07 +0200", "2024-04-06 19:05:07"},
        {"20240115103000", "2024-01-15 10:30:00"},
        {"20240115", "2024-01-15 00:00:00"},
        {"202401", "2024-01-01 00:00:00"},
        {"2024", "2024-01-01 00:00:00"},
        {"2024-01", "2024-01-01 00:00:00"},
        {"2024/1/5", "2024-01-05 00:00:00"},
        {"2024 01 05", "2024-01-05 00:00:00"},
        {"1700000000", "2023-11-14 22:13:20"},
        {"170000000", "1975-05-22 14:13:20"},
        {"1700000000123", "2023-11-14 22:13:20"},
        {"15/01/2024", "2024-01-15 00:00:00"},
        {"01/15/2024", "2024-01-15 00:00:00"},
        {"15.01.24", "2024-01-15 00:00:00"},
        {"15-01-70", "1970-01-15 00:00:00"},
        {"15-Jan-2024", "2024-01-15 00:00:00"},
        {"15 Jan 2024 10:00:00", "2024-01-15 10:00:00"},
        {"Jan 15 2024 10:00 PM", "2024-01-15 22:00:00"},
        {"March 5, 2024", "2024-03-05 00:00:00"},
        {"12:00 AM 2024-01-15", "2024-01-15 00:00:00"},
        {"2024-01-15 12:30:00 pm", "2024-01-15 12:30:00"},
        {"2024-01-15 10:30:00 MSK", "2024-01-15 07:30:00"},
        {"2024-01-15 10:30:00 UTC", "2024-01-15 10:30:00"},
        {"2024-01-15, 10:30:00", "2024-01-15 10:30:00"},
        {"  2024-01-15 10:30:00  ", "2024-01-15 10:30:00"},
        {"2024-01-15 10:30", "2024-01-15 10:30:00"},
        {"2024-01-15 7:5:3", "2024-01-15 07:05:03"},
        {"2024-02-29", "2024-02-29 00:00:00"},
        {"2000-02-29 23:59:59", "2000-02-29 23:59:59"},
        {"1970-01-01 00:00:00", "1970-01-01 00:00:00"},
        {"1969-12-31 23:59:59", "1970-01-01 00:00:00"},
        {"2106-02-07 06:28:15", "2106-02-07 06:28:15"},
        {"2200-01-01 00:00:00", "2106-02-07 06:28:15"},
        {"10:30:00", "2024-01-01 10:30:00"},
        {"Dec 25 10:00:00", "2023-12-25 10:00:00"},
        {"May 6 06:00:00", "2024-05-06 06:00:00"},
        {"Monday, 2024-05-06", "2024-05-06 00:00:00"},
        {"2024-01-15T10:30:00.123456789Z", "2024-01-15 10:30:00"},
        /* "jun" is a month name: June 1st of the last year it was reached. */
        {"junk", "2023-06-01 00:00:00"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        exec_expr *e = CALL("parseDateTimeBestEffort", S(cases[i].text));
        assert_string_equal(et_type_text(e), "DateTime");
        if (strcmp(et_text(e), cases[i].want) != 0)
            fail_msg("'%s': got %s, want %s", cases[i].text, et_text(e), cases[i].want);
    }
}

static void test_parse_best_effort_variants(void **state) {
    (void)state;
    EXPECT(CALL("parseDateTimeBestEffort", S("2024-01-15 10:30:00"), S("Europe/Berlin")),
           "DateTime('Europe/Berlin')", "2024-01-15 10:30:00");
    EXPECT_V(CALL("toUnixTimestamp", CALL("parseDateTimeBestEffort", S("2024-01-15 10:30:00"),
                                          S("Asia/Kolkata"))),
             "1705294800");
    /* A DST gap in the local zone reads with the later offset. */
    EXPECT_V(CALL("toUnixTimestamp", CALL("parseDateTimeBestEffort", S("2024-03-31 02:30:00"),
                                          S("Europe/Berlin"))),
             "1711845000");
    EXPECT_V(CALL("parseDateTimeBestEffort", S("2024-03-10 12:00:00Z"), S("America/New_York")),
             "2024-03-10 08:00:00");
    EXPECT_V(CALL("parseDateTimeBestEffortUS", S("01/02/2024")), "2024-01-02 00:00:00");
    EXPECT_V(CALL("parseDateTimeBestEffort", S("01/02/2024")), "2024-02-01 00:00:00");
    EXPECT_V(CALL("parseDateTimeBestEffortUS", S("13/02/2024")), "2024-02-13 00:00:00");
    EXPECT(CALL("parseDateTime64BestEffort", S("2024-01-15 10:30:00.123456")), "DateTime64(3)",
           "2024-01-15 10:30:00.123");
    EXPECT(CALL("parseDateTime64BestEffort", S("2024-01-15 10:30:00.123456"), I(6)),
           "DateTime64(6)", "2024-01-15 10:30:00.123456");
    EXPECT(CALL("parseDateTime64BestEffort", S("2024-01-15 10:30:00.5"), I(6), S("Asia/Kolkata")),
           "DateTime64(6, 'Asia/Kolkata')", "2024-01-15 10:30:00.500000");
    EXPECT_V(CALL("parseDateTime64BestEffort", S("1700000000123")), "2023-11-14 22:13:20.123");
    EXPECT_V(CALL("parseDateTime64BestEffort", S("1950-06-01 00:00:00.25"), I(2)),
             "1950-06-01 00:00:00.25");
    EXPECT_V(CALL("parseDateTime64BestEffort", S("1850-06-01 00:00:00")),
             "1900-01-01 00:00:00.000");
    EXPECT(CALL("parseDateTimeBestEffortOrNull", S("xyz")), "Nullable(DateTime)", "\\N");
    EXPECT(CALL("parseDateTimeBestEffortOrNull", S("2024-01-15")), "Nullable(DateTime)",
           "2024-01-15 00:00:00");
    EXPECT(CALL("parseDateTimeBestEffortOrNull", NUL()), "Nullable(DateTime)", "\\N");
    EXPECT(CALL("parseDateTimeBestEffortOrZero", S("xyz")), "DateTime", "1970-01-01 00:00:00");
    EXPECT(CALL("parseDateTime64BestEffortOrNull", S("2024-13-01")), "Nullable(DateTime64(3))",
           "\\N");
    EXPECT(CALL("parseDateTime64BestEffortOrZero", S(""), I(1)), "DateTime64(1)",
           "1970-01-01 00:00:00.0");
    EXPECT_V(CALL("parseDateTimeBestEffortUSOrZero", S("02/30/2024")), "1970-01-01 00:00:00");
    EXPECT_V(CALL("parseDateTime64BestEffortUSOrNull", S("02/29/2024 1:02:03.5 PM")),
             "2024-02-29 13:02:03.500");
    EXPECT(CALL("parseDateTimeBestEffort", V("FixedString(12)", "2024-01-15")), "DateTime",
           "2024-01-15 00:00:00");
    /* Columns: NULLs, good and bad rows. */
    const char *rows[] = {"2024-01-15 10:30:00", "NULL", "bad", "20240115"};
    const ty_column *inputs[1] = {COLUMN("Nullable(String)", rows, 4)};
    exec_expr *n = CALL("parseDateTimeBestEffortOrNull", IN(0, "Nullable(String)"));
    assert_string_equal(et_type_text(n), "Nullable(DateTime)");
    assert_string_equal(et_rows(n, inputs, 4), "2024-01-15 10:30:00|\\N|\\N|2024-01-15 00:00:00");
    exec_expr *z = CALL("parseDateTimeBestEffortOrZero", IN(0, "Nullable(String)"));
    assert_string_equal(et_type_text(z), "Nullable(DateTime)");
    assert_string_equal(et_rows(z, inputs, 4),
                        "2024-01-15 10:30:00|\\N|1970-01-01 00:00:00|2024-01-15 00:00:00");
    exec_expr *t = CALL("parseDateTimeBestEffort", IN(0, "Nullable(String)"));
    mu_err err;
    assert_int_equal(et_rows_error(t, inputs, 4, &err), MU_EPARSE_DATETIME);
    assert_non_null(strstr(err.message, "'bad'"));
    const char *good[] = {"2024-01-15 10:30:00", "NULL"};
    const ty_column *good_inputs[1] = {COLUMN("Nullable(String)", good, 2)};
    assert_string_equal(et_rows(t, good_inputs, 2), "2024-01-15 10:30:00|\\N");
    ty_column_destroy((ty_column *)inputs[0]);
    ty_column_destroy((ty_column *)good_inputs[0]);
}

static void test_parse_best_effort_errors(void **state) {
    (void)state;
    static const struct {
        const char *text;
        const char *fragment;
    } cases[] = {
        {"abc", "Cannot read DateTime: unexpected word: while parsing 'abc' as DateTime"},
        {"", "Cannot read DateTime: neither Date nor Time was parsed successfully"},
        {"2024-01-15 xyz", "unexpected word: while parsing '2024-01-15 xyz'"},
        {"2024-01-15 10:30:00 !!", "Cannot parse string '2024-01-15 10:30:00 !!' as DateTime: "
                                   "syntax error at position 20 (parsed just "
                                   "'2024-01-15 10:30:00 ')"},
        {"!2024", "Cannot read DateTime: neither Date nor Time was parsed successfully"},
        {"123", "Cannot read DateTime: unexpected number of decimal digits: 3"},
        {"2023-02-29", "Cannot read DateTime: unexpected date: 2023-2-29"},
        {"2024/13/45", "Cannot read DateTime: unexpected date: 2024-13-45"},
        {"2024-1x", "unexpected alphabetical character"},
        {"2024-123", "unexpected number of decimal digits after year: 3"},
        {"10:30 10:31", "time component is duplicated"},
        {"2024 Z 15/01/2025", "year component is duplicated"},
        {"15-Ja", "unexpected number of alphabetical characters after day of month: 2"},
        {"15-Foo", "don't look like month: Foo"},
        {"2024-01-15 10:30:00 +12345", "decimal digits for time zone offset: 5"},
        {"2024-01-15 10:30:00 +1:", "time zone offset in minutes: 0"},
        {".5", "unexpected point symbol"},
        {"2024/01/15,", "unexpected word after Date"},
        {"2024-01-15 XY", "unexpected word"},
        {"201401151030", "unexpected number of decimal digits: 12"},
        {"2024-01-15\t10:00", "syntax error at position 10"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        exec_expr *e = NULL;
        mu_err err;
        exec_expr *arg = S(cases[i].text);
        int rc = et_call_array("parseDateTimeBestEffort", &arg, 1, &e, &err);
        if (rc != MU_EPARSE && rc != MU_EPARSE_DATETIME)
            fail_msg("'%s': rc %d (%s)", cases[i].text, rc, rc ? err.message : et_text(e));
        if (strstr(err.message, cases[i].fragment) == NULL)
            fail_msg("'%s': message \"%s\" lacks \"%s\"", cases[i].text, err.message,
                     cases[i].fragment);
    }
    EXPECT_ERROR(MU_EPARSE_DATETIME, "as DateTime64(3)", "parseDateTime64BestEffort", S("x 2024"));
    /* Values in messages are quoted, escaped and cut. */
    EXPECT_ERROR(MU_EPARSE_DATETIME, "while parsing '\\'it\\'s\\x01'", "parseDateTimeBestEffort",
                 S("'it's\x01"));
    char long_text[200];
    memset(long_text, '!', sizeof(long_text) - 1);
    memcpy(long_text, "2024-01-01 ", 11);
    long_text[sizeof(long_text) - 1] = 0;
    EXPECT_ERROR(MU_EPARSE, "Cannot parse string '2024-01-01 !!!!", "parseDateTimeBestEffort",
                 S(long_text));
    EXPECT_ERROR(MU_EPARSE, "!!!...' as DateTime: syntax error at position 11 (parsed just "
                            "'2024-01-01 ')",
                 "parseDateTimeBestEffort", S(long_text));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type UInt8 of first argument of function "
                                   "parseDateTimeBestEffort",
                 "parseDateTimeBestEffort", I(1));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "postfix 'OrZero' or 'OrNull' should take String",
                 "parseDateTimeBestEffortOrNull", I(1));
    EXPECT_ERROR(MU_EOUT_OF_BOUND, "Scale 10 is too large", "parseDateTime64BestEffort",
                 S("2024-01-01"), I(10));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "passed 3, should be 1 or 2", "parseDateTimeBestEffort",
                 S("2024-01-01"), S("UTC"), S("UTC"));
    EXPECT_ERROR(MU_EINVAL, "Cannot load time zone Europe/Atlantis", "parseDateTimeBestEffort",
                 S("2024-01-01"), S("Europe/Atlantis"));
}

/* ------------------------------------------------------------------ */
/* Argument errors and NULLs of the calendar functions                 */
/* ------------------------------------------------------------------ */

static void test_argument_errors(void **state) {
    (void)state;
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type String of argument of function toYear. Should "
                                   "be Date, Date32, DateTime or DateTime64",
                 "toYear", S("2024-01-01"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Function toYear supports 1 or 2 arguments. The optional 2nd "
                                   "argument must be a constant string with a timezone name",
                 "toYear", V("Date", "2024-01-01"), I(1));
    EXPECT_ERROR(MU_ENUMBER_OF_ARGUMENTS, "Number of arguments for function toMonth doesn't "
                                          "match: passed 3, should be 1 or 2",
                 "toMonth", V("Date", "2024-01-01"), S("UTC"), S("UTC"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date of argument for function toHour", "toHour",
                 V("Date", "2024-01-01"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Illegal type Date32 of argument for function toStartOfMinute",
                 "toStartOfMinute", V("Date32", "2024-01-01"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "The timezone argument of function toStartOfMonth is allowed "
                                   "only when the 1st argument has the type DateTime or "
                                   "DateTime64",
                 "toStartOfMonth", V("Date", "2024-01-01"), S("UTC"));
    EXPECT_ERROR(MU_EINVAL, "Cannot load time zone Mars/Base", "toYear",
                 V(DT_UTC, "2024-01-01 00:00:00"), S("Mars/Base"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "Provided time zone must be non-empty", "toYear",
                 V(DT_UTC, "2024-01-01 00:00:00"), S(""));
    EXPECT_ERROR(MU_EILLEGAL_COLUMN, "Illegal column String of time zone argument of function "
                                     "toYear, must be a constant string",
                 "toYear", V(DT_UTC, "2024-01-01 00:00:00"), IN(0, "String"));
    EXPECT_ERROR(MU_EILLEGAL_TYPE, "The 2nd argument (optional) must be a constant UInt8 with "
                                   "week mode",
                 "toStartOfWeek", V("Date", "2024-01-01"), S("UTC"));
    EXPECT_ERROR(MU_EILLEGAL_COLUMN, "Illegal type of argument for function toDayOfWeek",
                 "toDayOfWeek", V("Date", "2024-01-01"), IN(0, "UInt8"));
    EXPECT_ERROR(MU_EUNKNOWN_FUNCTION, "Unknown function toyear", "toyear",
                 V("Date", "2024-01-01"));
}

static void test_nulls_and_columns(void **state) {
    (void)state;
    const char *rows[] = {"2024-02-29 13:45:56", "NULL", "1970-01-01 01:00:00"};
    const ty_column *inputs[1] = {COLUMN("Nullable(DateTime('Europe/Berlin'))", rows, 3)};
    exec_expr *y = CALL("toYear", IN(0, "Nullable(DateTime('Europe/Berlin'))"));
    assert_string_equal(et_type_text(y), "Nullable(UInt16)");
    assert_string_equal(et_rows(y, inputs, 3), "2024|\\N|1970");
    exec_expr *h = CALL("toHour", IN(0, "Nullable(DateTime('Europe/Berlin'))"), S("UTC"));
    assert_string_equal(et_rows(h, inputs, 3), "12|\\N|0");
    exec_expr *d = CALL("toStartOfDay", IN(0, "Nullable(DateTime('Europe/Berlin'))"));
    assert_string_equal(et_type_text(d), "Nullable(DateTime('Europe/Berlin'))");
    /* Berlin's 1970-01-01 starts before the epoch: ClickHouse's saturated
     * table gives the next day's start. */
    assert_string_equal(et_rows(d, inputs, 3), "2024-02-29 00:00:00|\\N|1970-01-02 00:00:00");
    exec_expr *m = CALL("toStartOfMonth", IN(0, "Nullable(DateTime('Europe/Berlin'))"));
    assert_string_equal(et_rows(m, inputs, 3), "2024-02-01|\\N|1970-01-01");
    exec_expr *diff = CALL("dateDiff", S("hour"), IN(0, "Nullable(DateTime('Europe/Berlin'))"),
                           V(DT_UTC, "2024-03-01 00:00:00"));
    assert_string_equal(et_rows(diff, inputs, 3), "13|\\N|474793");
    ty_column_destroy((ty_column *)inputs[0]);
    /* A NULL constant makes the whole call NULL. */
    EXPECT(CALL("toYear", NUL()), "Nullable(Nothing)", "\\N");
    EXPECT(CALL("toYear", V("Nullable(Date)", "NULL")), "Nullable(UInt16)", "\\N");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fields_leap_day, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_fields_zones, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_fields_date_edges, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_day_of_week_modes, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_relative_numbers, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_start_of_date_results, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_start_of_time_results, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_start_of_interval, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_start_of_interval_errors, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_start_of_interval_subsecond, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_add_dates, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_add_datetimes, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_date_add_family, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_add_columns_and_errors, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_date_diff, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_now_and_today, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_unix_timestamps, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_iso_weeks, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_custom_weeks, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_more_fields, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_time_zones_and_unix64, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_format_every_specifier, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_format_values, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_format_errors, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_parse_best_effort, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_parse_best_effort_variants, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_parse_best_effort_errors, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_argument_errors, tc_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_nulls_and_columns, tc_setup, et_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
