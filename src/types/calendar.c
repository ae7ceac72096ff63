/* calendar.c: proleptic Gregorian date arithmetic (days since 1970-01-01
 * <-> year, month, day) and the fixed-field date and time text forms
 * "YYYY-MM-DD" and "hh:mm:ss" that Date, Date32, DateTime and DateTime64
 * read and write. Pure functions; no time zone knowledge (tz.c has it).
 */
#include "types/types_int.h"

#include <stdio.h>

/* Shifted-year formulation: years start on March 1, so the leap day is the
 * last day of a year and month lengths follow a 153-day five-month cycle;
 * eras of 400 years make the arithmetic exact for negative years too. */
int64_t ty_days_from_civil(int64_t year, unsigned month, unsigned day) {
    MU_ASSERT(month >= 1 && month <= 12);
    int64_t y = year - (month <= 2 ? 1 : 0);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t year_of_era = y - era * 400;
    unsigned shifted_month = month > 2 ? month - 3 : month + 9;
    int64_t day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

void ty_civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day) {
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t day_of_era = z - era * 146097;
    int64_t year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t shifted_month = (5 * day_of_year + 2) / 153;
    *day = (unsigned)(day_of_year - (153 * shifted_month + 2) / 5 + 1);
    *month = (unsigned)(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
    *year = year_of_era + era * 400 + (*month <= 2 ? 1 : 0);
    MU_ASSERT(*month >= 1 && *month <= 12);
}

static bool calendar_is_leap(int64_t year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static unsigned calendar_month_days(int64_t year, unsigned month) {
    static const unsigned days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && calendar_is_leap(year) ? 29 : days[month - 1];
}

static bool calendar_digits(const char *p, size_t n, unsigned *value_out) {
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') return false;
        v = v * 10 + (unsigned)(p[i] - '0');
    }
    *value_out = v;
    return true;
}

/* Exactly "YYYY-MM-DD" with a real calendar day (no 02-30). */
bool ty__parse_date_fields(const char *p, size_t n, int64_t *days_out) {
    unsigned year, month, day;
    if (n != 10 || p[4] != '-' || p[7] != '-') return false;
    if (!calendar_digits(p, 4, &year) || !calendar_digits(p + 5, 2, &month) ||
        !calendar_digits(p + 8, 2, &day))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > calendar_month_days(year, month)) return false;
    *days_out = ty_days_from_civil(year, month, day);
    return true;
}

/* Exactly "hh:mm:ss", 00:00:00..23:59:59 (no leap second). */
bool ty__parse_time_fields(const char *p, size_t n, int64_t *seconds_out) {
    unsigned hour, minute, second;
    if (n != 8 || p[2] != ':' || p[5] != ':') return false;
    if (!calendar_digits(p, 2, &hour) || !calendar_digits(p + 3, 2, &minute) ||
        !calendar_digits(p + 6, 2, &second))
        return false;
    if (hour > 23 || minute > 59 || second > 59) return false;
    *seconds_out = (int64_t)hour * 3600 + minute * 60 + second;
    return true;
}

/* Two decimal digits of v (0..99). */
static void calendar_put2(char *out, unsigned v) {
    out[0] = (char)('0' + v / 10);
    out[1] = (char)('0' + v % 10);
}

size_t ty__format_date(int64_t days, char *out) {
    int64_t year;
    unsigned month, day;
    ty_civil_from_days(days, &year, &month, &day);
    if (year < 0 || year > 9999) { /* rare: the general form */
        int n = snprintf(out, 24, "%04lld-%02u-%02u", (long long)year, month, day);
        MU_ASSERT(n > 0 && n < 24);
        return (size_t)n;
    }
    /* Speed: dates are the bulk of DateTime output; no snprintf. */
    calendar_put2(out, (unsigned)(year / 100));
    calendar_put2(out + 2, (unsigned)(year % 100));
    out[4] = '-';
    calendar_put2(out + 5, month);
    out[7] = '-';
    calendar_put2(out + 8, day);
    out[10] = '\0';
    return 10;
}

size_t ty__format_datetime(int64_t local_seconds, char *out) {
    int64_t days = ty__floor_div(local_seconds, 86400);
    int64_t second_of_day = ty__floor_mod(local_seconds, 86400);
    size_t n = ty__format_date(days, out);
    char *t = out + n;
    t[0] = ' ';
    calendar_put2(t + 1, (unsigned)(second_of_day / 3600));
    t[3] = ':';
    calendar_put2(t + 4, (unsigned)(second_of_day / 60 % 60));
    t[6] = ':';
    calendar_put2(t + 7, (unsigned)(second_of_day % 60));
    t[9] = '\0';
    return n + 9;
}
