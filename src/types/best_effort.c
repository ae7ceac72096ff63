/* best_effort.c: ClickHouse's best-effort date and time reader
 * (parseDateTimeBestEffort[US]): ISO 8601 with 'T', 'Z', offsets and
 * fractions, RFC 1123 / RFC 2822, Unix timestamps (9 or 10 digits, 13 with
 * milliseconds), YYYYMMDD[hhmmss], DD/MM/YYYY (MM/DD in US style), month
 * and weekday names, AM/PM, UTC/GMT/MSK/MSD. One implementation serves the
 * exec functions parseDateTime[64]BestEffort* and the input formats under
 * date_time_input_format=best_effort (ty_value_parse_opt). No state; the
 * caller supplies the zone and the clock (for dates without a year).
 */
#include "types/types_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { BP_NEXT, BP_CONTINUE, BP_BREAK, BP_DONE, BP_ERROR };

typedef struct bp {
    const char *p;
    const char *end;
    bool us_style;
    unsigned year, month, day, hour, minute, second;
    bool has_time, has_offset, offset_negative, is_am, is_pm, comma;
    unsigned offset_hour, offset_minute;
    int64_t fraction;
    unsigned fraction_digits;
    int64_t timestamp;     /* BP_DONE: Unix seconds read directly */
    char reason[128];
} bp;

static int bp_fail(bp *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bp_fail(bp *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->reason, sizeof(b->reason), fmt, ap);
    va_end(ap);
    return BP_ERROR;
}

static size_t bp_digits(bp *b, char *d, size_t max) {
    size_t n = 0;
    while (b->p < b->end && *b->p >= '0' && *b->p <= '9' && n < max) d[n++] = (char)(*b->p++ - '0');
    return n;
}

static size_t bp_alpha(bp *b, char *a, size_t max) {
    size_t n = 0;
    while (b->p < b->end && n < max &&
           ((*b->p >= 'a' && *b->p <= 'z') || (*b->p >= 'A' && *b->p <= 'Z')))
        a[n++] = *b->p++;
    return n;
}

static int64_t bp_number(const char *d, size_t n) {
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) v = v * 10 + d[i];
    return v;
}

static bool bp_take(bp *b, char c) {
    if (b->p < b->end && *b->p == c) {
        b->p++;
        return true;
    }
    return false;
}

static bool bp_month_name(const char *a, unsigned *month) {
    static const char names[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (unsigned i = 0; i < 12; i++)
        if (strncasecmp(a, names[i], 3) == 0) {
            *month = i + 1;
            return true;
        }
    return false;
}

/* One or two more digits after a delimiter, or the error it names. */
static int bp_one_or_two(bp *b, unsigned *out, size_t *num, const char *what) {
    char d[19];
    *num = bp_digits(b, d, sizeof(d));
    if (*num == 1 || *num == 2) {
        *out = (unsigned)bp_number(d, *num);
        return BP_NEXT;
    }
    return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits after %s: %zu",
                   what, *num);
}

/* YYYY, YYYY*MM, YYYY*MM*DD (one or two digits, the same delimiter). */
static int bp_year(bp *b, size_t *num) {
    char d[19];
    if (b->p >= b->end) return BP_NEXT;
    signed char delimiter = (signed char)*b->p;
    if (delimiter < 0x20 || delimiter == ',' || delimiter == ';' || delimiter == '\'' ||
        delimiter == '"')
        return BP_BREAK;
    if (b->month) return BP_CONTINUE;
    b->p++;
    *num = bp_digits(b, d, sizeof(d));
    if (*num == 1 || *num == 2) b->month = (unsigned)bp_number(d, *num);
    else if (delimiter == ' ') return BP_CONTINUE;
    else return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits after "
                           "year: %zu", *num);
    if (!b->day && bp_take(b, (char)delimiter)) {
        *num = bp_digits(b, d, sizeof(d));
        if (*num == 1 || *num == 2) b->day = (unsigned)bp_number(d, *num);
        else if (delimiter == ' ') return BP_CONTINUE;
        else return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits after "
                               "year and month: %zu", *num);
    }
    return BP_NEXT;
}

/* DD/MM[/YY[YY]], DD-Mon, MM/DD (US style), after the first number. */
static int bp_day_month(bp *b, unsigned v, size_t *num) {
    char d[19];
    if (b->day) return bp_fail(b, "Cannot read DateTime: day of month is duplicated");
    if (b->month) return bp_fail(b, "Cannot read DateTime: month is duplicated");
    if (b->us_style) {
        b->month = v;
        if (bp_one_or_two(b, &b->day, num, "month") == BP_ERROR) return BP_ERROR;
    } else {
        b->day = v;
        *num = bp_digits(b, d, sizeof(d));
        if (*num == 1 || *num == 2) {
            b->month = (unsigned)bp_number(d, *num);
        } else if (*num == 0) {
            char a[9];
            size_t n = bp_alpha(b, a, sizeof(a));
            if (n < 3)
                return bp_fail(b, "Cannot read DateTime: unexpected number of alphabetical "
                                  "characters after day of month: %zu", n);
            if (!bp_month_name(a, &b->month))
                return bp_fail(b, "Cannot read DateTime: alphabetical characters after day of "
                                  "month don't look like month: %.3s", a);
        } else {
            return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits after "
                              "day of month: %zu", *num);
        }
    }
    if (b->month > 12) {
        unsigned t = b->month;
        b->month = b->day;
        b->day = t;
    }
    if (bp_take(b, '/') || bp_take(b, '.') || bp_take(b, '-')) {
        if (b->year) return bp_fail(b, "Cannot read DateTime: year component is duplicated");
        *num = bp_digits(b, d, sizeof(d));
        if (*num == 4) b->year = (unsigned)bp_number(d, 4);
        else if (*num == 2) b->year = (unsigned)(bp_number(d, 2) + (d[0] >= 7 ? 1900 : 2000));
        else return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits after "
                               "day of month and month: %zu", *num);
    }
    return BP_NEXT;
}

/* hh:mm[:ss], DD/MM/YYYY and friends, or a lone day or hour. */
static int bp_small(bp *b, unsigned v, size_t *num) {
    if (bp_take(b, ':')) {
        if (b->has_time) return bp_fail(b, "Cannot read DateTime: time component is duplicated");
        b->hour = v;
        b->has_time = true;
        if (bp_one_or_two(b, &b->minute, num, "hour") == BP_ERROR) return BP_ERROR;
        if (bp_take(b, ':') && bp_one_or_two(b, &b->second, num, "hour and minute") == BP_ERROR)
            return BP_ERROR;
        return BP_NEXT;
    }
    if (bp_take(b, ',')) {
        if (b->month && !b->day) b->day = v;
        return BP_NEXT;
    }
    if (bp_take(b, '/') || bp_take(b, '.') || bp_take(b, '-')) return bp_day_month(b, v, num);
    if (b->day) b->hour = v;
    else b->day = v;
    return BP_NEXT;
}

static int bp_numbers(bp *b, size_t *num) {
    char d[19];
    size_t n = bp_digits(b, d, sizeof(d));
    *num = n;
    if (!b->year && !b->has_time) {
        if (n == 13) {
            b->timestamp = bp_number(d, 10);
            b->fraction = bp_number(d + 10, 3);
            b->fraction_digits = 3;
            return BP_DONE;
        }
        if (n == 10 || n == 9) {
            b->timestamp = bp_number(d, n);
            return BP_DONE;
        }
        if (n == 14) {
            b->year = (unsigned)bp_number(d, 4);
            b->month = (unsigned)bp_number(d + 4, 2);
            b->day = (unsigned)bp_number(d + 6, 2);
            b->hour = (unsigned)bp_number(d + 8, 2);
            b->minute = (unsigned)bp_number(d + 10, 2);
            b->second = (unsigned)bp_number(d + 12, 2);
            b->has_time = true;
            return BP_NEXT;
        }
    }
    if (n == 8 && !b->year) {
        b->year = (unsigned)bp_number(d, 4);
        b->month = (unsigned)bp_number(d + 4, 2);
        b->day = (unsigned)bp_number(d + 6, 2);
    } else if (n == 6) {
        if (!b->year && !b->month) {
            b->year = (unsigned)bp_number(d, 4);
            b->month = (unsigned)bp_number(d + 4, 2);
        } else if (!b->has_time) {
            b->hour = (unsigned)bp_number(d, 2);
            b->minute = (unsigned)bp_number(d + 2, 2);
            b->second = (unsigned)bp_number(d + 4, 2);
            b->has_time = true;
        } else {
            return bp_fail(b, "Cannot read DateTime: ambiguous 6 digits, it can be YYYYMM or "
                              "hhmmss");
        }
    } else if (n == 4 && !b->year) {
        b->year = (unsigned)bp_number(d, 4);
        return bp_year(b, num);
    } else if (n == 1 || n == 2) {
        return bp_small(b, (unsigned)bp_number(d, n), num);
    } else if (n != 0) {
        return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits: %zu", n);
    }
    return BP_NEXT;
}

/* +hh[:mm], +hhmm, -h, or hhmmss after a date. */
static int bp_sign(bp *b, char sign) {
    char d[19];
    size_t n = bp_digits(b, d, sizeof(d));
    if (n == 6 && !b->has_time && b->year && b->month && b->day) {
        b->hour = (unsigned)bp_number(d, 2);
        b->minute = (unsigned)bp_number(d + 2, 2);
        b->second = (unsigned)bp_number(d + 4, 2);
        b->has_time = true;
        return BP_NEXT;
    }
    b->has_offset = true;
    b->offset_negative = sign == '-';
    if (n == 4 || n == 3) {
        b->offset_hour = (unsigned)bp_number(d, n - 2);
        b->offset_minute = (unsigned)bp_number(d + n - 2, 2);
    } else if (n == 2 || n == 1) {
        b->offset_hour = (unsigned)bp_number(d, n);
    } else {
        return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits for time "
                          "zone offset: %zu", n);
    }
    if (n < 3 && bp_take(b, ':')) {
        n = bp_digits(b, d, sizeof(d));
        if (n != 1 && n != 2)
            return bp_fail(b, "Cannot read DateTime: unexpected number of decimal digits for "
                              "time zone offset in minutes: %zu", n);
        b->offset_minute = (unsigned)bp_number(d, n);
    }
    return BP_NEXT;
}

/* AM/PM, month and weekday names, UTC/GMT/MSK/MSD. */
static int bp_word(bp *b) {
    char a[3];
    size_t n = bp_alpha(b, a, sizeof(a));
    if (n == 0) return BP_BREAK;
    if (n == 1) return bp_fail(b, "Cannot read DateTime: unexpected alphabetical character");
    if (n == 2) {
        bool m = a[1] == 'M' || a[1] == 'm';
        if (m && (a[0] == 'A' || a[0] == 'a')) b->is_am = true;
        else if (m && (a[0] == 'P' || a[0] == 'p')) b->is_pm = true;
        else return bp_fail(b, "Cannot read DateTime: unexpected word");
        return BP_NEXT;
    }
    static const char weekdays[7][4] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    bool weekday = false;
    if (bp_month_name(a, &b->month)) {
    } else if (strncasecmp(a, "UTC", 3) == 0 || strncasecmp(a, "GMT", 3) == 0) {
        b->has_offset = true;
    } else if (strncasecmp(a, "MSK", 3) == 0 || strncasecmp(a, "MSD", 3) == 0) {
        b->has_offset = true;
        b->offset_hour = (a[2] == 'K' || a[2] == 'k') ? 3 : 4;
    } else {
        for (unsigned i = 0; i < 7; i++)
            if (strncasecmp(a, weekdays[i], 3) == 0) weekday = true;
        if (!weekday) return bp_fail(b, "Cannot read DateTime: unexpected word");
    }
    while (b->p < b->end && ((*b->p >= 'a' && *b->p <= 'z') || (*b->p >= 'A' && *b->p <= 'Z')))
        b->p++;
    if (weekday) bp_take(b, ','); /* RFC 2822 */
    return BP_NEXT;
}

static int bp_symbol(bp *b) {
    if (b->p >= b->end) return BP_BREAK;
    char c = *b->p;
    if (c == ' ' || (c == 'T' && b->year && !b->has_time)) {
        b->p++;
    } else if (c == 'Z') {
        b->p++;
        b->has_offset = true;
    } else if (c == '.') {
        /* No comma: it would clash with CSV. */
        if (!b->has_time) return bp_fail(b, "Cannot read DateTime: unexpected point symbol");
        b->p++;
        char d[19];
        size_t n = bp_digits(b, d, sizeof(d));
        b->fraction_digits = (unsigned)MU_MIN(n, 18);
        b->fraction = bp_number(d, b->fraction_digits);
    } else if (c == '+' || c == '-') {
        b->p++;
        return bp_sign(b, c);
    } else {
        return bp_word(b);
    }
    return BP_NEXT;
}

static int bp_scan(bp *b) {
    while (b->p < b->end) {
        if (((b->year && !b->has_time) || (!b->year && b->has_time)) && *b->p == ',') {
            b->comma = true;
            b->p++;
            if (b->p >= b->end) break;
        }
        size_t num = 0;
        if (!b->year || !b->has_time) {
            int r = bp_numbers(b, &num);
            if (r == BP_ERROR || r == BP_DONE) return r;
            if (r == BP_BREAK) break;
            if (r == BP_CONTINUE) continue;
        }
        if (num == 0) {
            int r = bp_symbol(b);
            if (r == BP_ERROR) return r;
            if (r == BP_BREAK) break;
        }
    }
    return BP_NEXT;
}

/* The year of a date given without one (the syslog rule): this year in
 * zone `local`, unless that date is still to come, then the year before. */
static unsigned bp_default_year(const bp *b, const ty_tz *local, int64_t now_seconds) {
    int64_t y;
    unsigned m, d;
    int64_t today = ty__floor_div(now_seconds + ty_tz_offset_at(local, now_seconds), 86400);
    ty_civil_from_days(today, &y, &m, &d);
    int64_t day = (b->month <= 12 && b->day <= 31) ? ty_days_from_civil(y, b->month, b->day) : 0;
    return (unsigned)(day <= today ? y : y - 1);
}

/* Checks the fields read and turns them into Unix seconds. */
static bool bp_finish(bp *b, const ty_tz *local, int64_t now_seconds, int64_t *seconds_out) {
    if (b->comma && (!b->has_time || !b->year || !b->month || !b->day))
        return bp_fail(b, "Cannot read DateTime: unexpected word after Date"), false;
    if (!b->year && !b->month && !b->day && !b->has_time)
        return bp_fail(b, "Cannot read DateTime: neither Date nor Time was parsed successfully"),
               false;
    if (!b->day) b->day = 1;
    if (!b->month) b->month = 1;
    if (!b->year) b->year = bp_default_year(b, local, now_seconds);
    bool leap = (b->year % 4 == 0 && b->year % 100 != 0) || b->year % 400 == 0;
    static const unsigned month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (b->month < 1 || b->month > 12 || b->day < 1 ||
        b->day > month_days[b->month - 1] + (b->month == 2 && leap ? 1 : 0))
        return bp_fail(b, "Cannot read DateTime: unexpected date: %u-%u-%u", b->year, b->month,
                       b->day), false;
    if (b->is_am && b->hour == 12) b->hour = 0;
    if (b->is_pm && b->hour < 12) b->hour += 12;
    /* Years outside ClickHouse's calendar table stick to its ends. */
    int64_t days = b->year < 1900 ? -25567
                 : b->year > 2299 ? 120529 : ty_days_from_civil(b->year, b->month, b->day);
    int64_t wall = days * 86400 + b->hour * 3600 + b->minute * 60 + b->second;
    if (!b->has_offset) {
        *seconds_out = ty_tz_local_to_utc(local, wall);
        return true;
    }
    int64_t offset = b->offset_hour * 3600 + b->offset_minute * 60;
    *seconds_out = b->offset_negative ? wall + offset : wall - offset;
    return true;
}

bool ty_datetime_best_effort(const char *s, size_t n, bool us_style, const ty_tz *local,
                             int64_t now_seconds, ty_best_effort *out) {
    MU_ASSERT(out != NULL && local != NULL && (s != NULL || n == 0));
    bp b;
    memset(&b, 0, sizeof(b));
    memset(out, 0, sizeof(*out));
    if (s == NULL) s = "";
    b.p = s;
    b.end = s + n;
    b.us_style = us_style;
    int r = bp_scan(&b);
    MU_ASSERT(b.p >= s && b.p <= b.end);
    out->used_bytes = (size_t)(b.p - s);
    bool ok = r != BP_ERROR;
    if (ok && r == BP_DONE) out->seconds = b.timestamp;
    else if (ok) ok = bp_finish(&b, local, now_seconds, &out->seconds);
    if (!ok) {
        snprintf(out->reason, sizeof(out->reason), "%s", b.reason);
        return false;
    }
    out->fraction = b.fraction;
    out->fraction_digits = b.fraction_digits;
    MU_ASSERT(out->fraction_digits <= 18);
    return true;
}
