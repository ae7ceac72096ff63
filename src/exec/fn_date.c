/* fn_date.c: ClickHouse's date and time functions over Date (u16 days),
 * Date32 (i32 days), DateTime (u32 UTC seconds) and DateTime64 (i64 ticks):
 * calendar fields and their MySQL aliases (YEAR, DAYOFWEEK, ...), ISO and
 * MySQL-mode weeks (toISOWeek, toWeek, toYearWeek), rounding down
 * (toStartOf*, toStartOfInterval), calendar arithmetic (add*, subtract*,
 * date_add), dateDiff and age, toRelative*Num, now(), today(), zones
 * (toTimeZone, timezoneOf, timezoneOffset) and Unix timestamps
 * (toUnixTimestamp[64*], fromUnixTimestamp64*). A calendar is read in one
 * zone: the constant 'tz' argument, else the DateTime type's zone, else
 * (Date values) the session zone. Results follow ClickHouse's DateLUTImpl, including its
 * saturation and wrap-around at the edges of each type. Text in and out
 * (formatDateTime, parseDateTimeBestEffort) lives in fn_date_format.c; the
 * list at the end of this file registers both files' functions.
 */
#include "exec/fn_date_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ClickHouse's calendar table covers 1900-01-01 .. 2299-12-31. */
#define DATE_LUT_FIRST_DAY (-25567)
#define DATE_LUT_LAST_DAY 120529
#define DATE_DAYS_MAX 65535          /* Date: 2149-06-06 */
#define DATE_NAME_BYTES_MAX 255
/* ClickHouse adds this before dividing so that negative times round down. */
#define DATE_LUT_ADD ((int64_t)(1970 - 1900) * 366 * 86400)

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

const ty_tz *exec__date_session_zone(const exec_call *call) {
    if (call->ctx != NULL && call->ctx->timezone != NULL) return call->ctx->timezone;
    return ty_tz_default();
}

int64_t exec__date_now_us(const exec_call *call) {
    if (call->ctx != NULL) return call->ctx->now_us;
    return mu_clock_wall_ns() / 1000;
}

int exec__date_zone_arg(const exec_call *call, uint32_t index, mu_arena *arena,
                        const ty_tz **tz_out, const char **name_out, mu_err *err) {
    const char *data;
    size_t bytes;
    if (!exec__const_string(call, index, &data, &bytes)) {
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_COLUMN,
                      "Illegal column %s of time zone argument of function %s, must be a "
                      "constant string",
                      ty_type_name(call->arg_types[index], tn, sizeof(tn)), call->function->name);
    }
    if (bytes == 0)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Provided time zone must be non-empty");
    if (bytes > DATE_NAME_BYTES_MAX || memchr(data, 0, bytes) != NULL)
        return MU_ERR(err, MU_EINVAL, "Cannot load time zone %.*s", (int)MU_MIN(bytes, 64),
                      data);
    char *name = mu_arena_strndup(arena, data, bytes, err);
    if (name == NULL) return err->code;
    mu_err inner;
    if (ty_tz_get(name, tz_out, &inner) != 0)
        return MU_ERR(err, MU_EINVAL, "Cannot load time zone %s", name);
    if (name_out != NULL) *name_out = name;
    return 0;
}

static int date_type_with_zone(mu_arena *arena, ty_kind kind, unsigned precision,
                               const char *zone_name, const ty_tz *tz, const ty_type **out,
                               mu_err *err) {
    ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
    if (t == NULL) return err->code;
    t->kind = kind;
    t->precision = (uint8_t)precision;
    if (zone_name != NULL) {
        t->timezone_name = mu_arena_strndup(arena, zone_name, strlen(zone_name), err);
        if (t->timezone_name == NULL) return err->code;
        t->timezone = tz;
    }
    *out = t;
    return 0;
}

int exec__date_type_datetime(mu_arena *arena, const char *zone_name, const ty_tz *tz,
                             const ty_type **out, mu_err *err) {
    if (zone_name == NULL) {
        *out = ty_type_builtin(TY_DATETIME);
        return 0;
    }
    return date_type_with_zone(arena, TY_DATETIME, 0, zone_name, tz, out, err);
}

int exec__date_type_datetime64(mu_arena *arena, unsigned precision, const char *zone_name,
                               const ty_tz *tz, const ty_type **out, mu_err *err) {
    MU_ASSERT(precision <= TY_DATETIME64_PRECISION_MAX);
    return date_type_with_zone(arena, TY_DATETIME64, precision, zone_name, tz, out, err);
}

static bool date_kind_is_day(ty_kind k) { return k == TY_DATE || k == TY_DATE32; }

static bool date_kind_is_time(ty_kind k) {
    return k == TY_DATE || k == TY_DATE32 || k == TY_DATETIME || k == TY_DATETIME64;
}

static int64_t date_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Two's complement wrap-around, as ClickHouse's unchecked integer maths. */
static int64_t date_wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t date_wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static int64_t date_clamp(int64_t v, int64_t lo, int64_t hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

static int64_t date_pow10(unsigned p) {
    int64_t r = 1;
    while (p-- > 0) r *= 10;
    return r;
}

static bool date_is_leap(int64_t year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static unsigned date_month_days(int64_t year, unsigned month) {
    static const unsigned days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && date_is_leap(year) ? 29 : days[month - 1];
}

/* Monday = 1 .. Sunday = 7 (1970-01-01 was a Thursday). */
static int64_t date_iso_weekday(int64_t days) {
    int64_t r = (days + 3) % 7;
    return (r < 0 ? r + 7 : r) + 1;
}

static int64_t date_year_of(int64_t days) {
    int64_t year;
    unsigned month, day;
    ty_civil_from_days(days, &year, &month, &day);
    return year;
}

/* ISO 8601: the year of the week's Thursday, and the Monday starting it. */
static int64_t date_iso_year(int64_t days) {
    return date_year_of(days + 4 - date_iso_weekday(days));
}

static int64_t date_iso_year_start(int64_t days) {
    int64_t jan1 = ty_days_from_civil(date_iso_year(days), 1, 1);
    int64_t w = date_iso_weekday(jan1);
    return w <= 4 ? jan1 + 1 - w : jan1 + 8 - w;
}

static int64_t date_iso_week(int64_t days) {
    return 1 + (days - (date_iso_weekday(days) - 1) - date_iso_year_start(days)) / 7;
}

/* MySQL's WEEK() as ClickHouse's DateLUTImpl::toYearWeek computes it. Mode
 * bits: 1 weeks start on Monday, 2 weeks 1..53 (else 0..53), 4 week 1 is
 * the first with a first day of week (else the first with 4 days), 8 week
 * 1 contains January 1 (overrides 2 and 4). */
enum { DATE_WEEK_MONDAY_FIRST = 1, DATE_WEEK_YEAR = 2, DATE_WEEK_FIRST_WEEKDAY = 4,
       DATE_WEEK_NEWYEAR_DAY = 8 };

static int64_t date_days_in_year(int64_t year) { return date_is_leap(year) ? 366 : 365; }

static void date_year_week(int64_t days, unsigned mode, int64_t *year_out, int64_t *week_out) {
    bool monday_first = (mode & DATE_WEEK_MONDAY_FIRST) != 0;
    if (mode & DATE_WEEK_NEWYEAR_DAY) {
        /* The year of the week's last day; weeks counted from the one
         * holding January 1. */
        int64_t year = date_year_of(days + 7 - date_iso_weekday(days + (monday_first ? 0 : 1)));
        int64_t first = ty_days_from_civil(year, 1, 1), self = days;
        if (monday_first) {
            first -= date_iso_weekday(first) - 1;
            self -= date_iso_weekday(days) - 1;
        } else {
            if (date_iso_weekday(first) != 7) first -= date_iso_weekday(first);
            if (date_iso_weekday(days) != 7) self -= date_iso_weekday(days);
        }
        *year_out = year;
        *week_out = (self - first) / 7 + 1;
        return;
    }
    unsigned format = mode & 7;
    if (!(format & DATE_WEEK_MONDAY_FIRST)) format ^= DATE_WEEK_FIRST_WEEKDAY;
    bool week_year = (format & DATE_WEEK_YEAR) != 0;
    bool first_weekday = (format & DATE_WEEK_FIRST_WEEKDAY) != 0;
    int64_t year;
    unsigned month, day;
    ty_civil_from_days(days, &year, &month, &day);
    int64_t first_day = ty_days_from_civil(year, 1, 1);
    /* Weekday of January 1: 0 for the first day of the week. */
    int64_t weekday = date_iso_weekday(first_day + (monday_first ? 0 : 1)) - 1;
    if (month == 1 && day <= 7 - weekday) {
        if (!week_year && ((first_weekday && weekday != 0) || (!first_weekday && weekday >= 4))) {
            *year_out = year;
            *week_out = 0;
            return;
        }
        week_year = true;
        year--;
        int64_t length = date_days_in_year(year);
        first_day -= length;
        weekday = (weekday + 53 * 7 - length) % 7;
    }
    int64_t n = (first_weekday && weekday != 0) || (!first_weekday && weekday >= 4)
                    ? days - (first_day + (7 - weekday))
                    : days - (first_day - weekday);
    if (week_year && n >= 52 * 7) {
        weekday = (weekday + date_days_in_year(year)) % 7;
        if ((!first_weekday && weekday < 4) || (first_weekday && weekday == 0)) {
            *year_out = year + 1;
            *week_out = 1;
            return;
        }
    }
    *year_out = year;
    *week_out = n / 7 + 1;
}

/* The instant a local day starts in tz. */
static int64_t date_day_start(const ty_tz *tz, int64_t days) {
    return ty_tz_local_to_utc(tz, days * 86400);
}

/* Wall-clock seconds of instant t in tz. Instants are first kept within
 * ±DATE_SECONDS_LIMIT so that no arithmetic on them overflows (ClickHouse
 * clamps to its table's years anyway). */
#define DATE_SECONDS_LIMIT 4000000000000LL
static int64_t date_local_seconds(const ty_tz *tz, int64_t t) {
    if (t > DATE_SECONDS_LIMIT) t = DATE_SECONDS_LIMIT;
    if (t < -DATE_SECONDS_LIMIT) t = -DATE_SECONDS_LIMIT;
    return t + ty_tz_offset_at(tz, t);
}

/* ------------------------------------------------------------------ */
/* One time argument as the kernels read it                            */
/* ------------------------------------------------------------------ */

typedef struct date_input {
    ty_kind kind;          /* Date, Date32, DateTime, DateTime64 (or a number) */
    int64_t scale;         /* DateTime64: 10^precision; else 1 */
    const ty_tz *tz;       /* the calendar's zone */
    bool whole_hours;      /* every offset since 1970 is whole hours */
    int32_t epoch_offset;  /* offset at local 1970-01-01 00:00 */
} date_input;

/* Local calendar position of a value. */
typedef struct date_civil {
    int64_t days;    /* local day number, 0 = 1970-01-01 */
    int64_t second;  /* second of the local day */
    int64_t year;
    unsigned month;
    unsigned day;
} date_civil;

/* Whole seconds of a DateTime64 the way ClickHouse's transforms see them:
 * the integer part truncated toward zero. */
static int64_t date_whole(const date_input *in, int64_t v) {
    return in->kind == TY_DATETIME64 ? v / in->scale : v;
}

static void date_civil_of(const date_input *in, int64_t v, date_civil *c) {
    if (date_kind_is_day(in->kind)) {
        c->days = v;
        c->second = 0;
    } else {
        int64_t t = date_whole(in, v);
        int64_t local = date_local_seconds(in->tz, t);
        c->days = date_floor_div(local, 86400);
        c->second = local - c->days * 86400;
    }
    MU_ASSERT(c->second >= 0 && c->second < 86400);
    /* Days outside ClickHouse's calendar table read as its first or last. */
    c->days = date_clamp(c->days, DATE_LUT_FIRST_DAY, DATE_LUT_LAST_DAY);
    ty_civil_from_days(c->days, &c->year, &c->month, &c->day);
    MU_ASSERT(c->year >= 1900 && c->year <= 2299);
}

/* Instant of a value: a day's local midnight in the input's zone. */
static int64_t date_instant(const date_input *in, int64_t v) {
    return date_kind_is_day(in->kind) ? date_day_start(in->tz, v) : date_whole(in, v);
}

/* ClickHouse's DateLUT calls a zone whole-hour when every local midnight
 * since the epoch falls on a whole UTC hour; toStartOfHour-like rounding
 * and toRelativeHourNum depend on it. The offsets in force are sampled
 * weekly through 2037 (later years repeat the same rules). */
static void date_input_zone_traits(date_input *in, bool need_whole_hours) {
    in->epoch_offset = ty_tz_offset_at(in->tz, ty_tz_local_to_utc(in->tz, 0));
    in->whole_hours = true;
    if (in->tz == ty_tz_utc() || !need_whole_hours) return;
    for (int64_t t = 0; t < 2145916800; t += 7 * 86400) {
        if (ty_tz_offset_at(in->tz, t) % 3600 != 0) {
            in->whole_hours = false;
            return;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Operations                                                          */
/* ------------------------------------------------------------------ */

typedef enum date_op {
    DATE_OP_YEAR,
    DATE_OP_QUARTER,
    DATE_OP_MONTH,
    DATE_OP_DAY_OF_YEAR,
    DATE_OP_DAY_OF_MONTH,
    DATE_OP_DAY_OF_WEEK,
    DATE_OP_HOUR,
    DATE_OP_MINUTE,
    DATE_OP_SECOND,
    DATE_OP_YYYYMM,
    DATE_OP_YYYYMMDD,
    DATE_OP_YYYYMMDDHHMMSS,
    DATE_OP_ISO_WEEK,
    DATE_OP_ISO_YEAR,
    DATE_OP_WEEK,       /* n: week mode */
    DATE_OP_YEAR_WEEK,  /* n: week mode */
    DATE_OP_TZ_OFFSET,
    DATE_OP_REL_YEAR,
    DATE_OP_REL_QUARTER,
    DATE_OP_REL_MONTH,
    DATE_OP_REL_WEEK,
    DATE_OP_REL_DAY,
    DATE_OP_REL_HOUR,
    DATE_OP_REL_MINUTE,
    DATE_OP_REL_SECOND,
    /* Date results */
    DATE_OP_START_MONTH,
    DATE_OP_START_QUARTER,
    DATE_OP_START_YEAR,
    DATE_OP_START_ISO_YEAR,
    DATE_OP_LAST_DAY_MONTH,
    DATE_OP_MONDAY,
    DATE_OP_START_WEEK,
    DATE_OP_INTERVAL_WEEK,
    DATE_OP_INTERVAL_MONTH,
    DATE_OP_INTERVAL_YEAR,
    /* DateTime results */
    DATE_OP_START_DAY,
    DATE_OP_START_HOUR,
    DATE_OP_START_MINUTES,
    DATE_OP_INTERVAL_DAY,
    DATE_OP_INTERVAL_HOUR,
    DATE_OP_INTERVAL_SECOND,
    /* UInt32 */
    DATE_OP_UNIX_TIMESTAMP,
} date_op;

typedef enum date_unit {
    DATE_UNIT_NANOSECOND,
    DATE_UNIT_MICROSECOND,
    DATE_UNIT_MILLISECOND,
    DATE_UNIT_SECOND,
    DATE_UNIT_MINUTE,
    DATE_UNIT_HOUR,
    DATE_UNIT_DAY,
    DATE_UNIT_WEEK,
    DATE_UNIT_MONTH,
    DATE_UNIT_QUARTER,
    DATE_UNIT_YEAR,
    DATE_UNIT_NONE,
} date_unit;

/* A registered function and what it computes. The exec_function comes
 * first so that bind finds its descriptor from call->function. */
typedef struct date_fn {
    exec_function fn;
    uint8_t op;     /* date_op, or a date_unit for arithmetic */
    int8_t sign;    /* arithmetic: +1 add, -1 subtract */
    uint16_t minutes; /* toStartOf*Minutes */
} date_fn;

static const date_fn *date_fn_of(const exec_call *call) {
    return (const date_fn *)(const void *)call->function;
}

typedef struct date_state {
    date_input in;
    date_op op;
    int64_t n;       /* week mode, interval length, minutes */
    bool text_input; /* toWeek('2020-01-01'): strings read best-effort */
} date_state;

static int64_t date_field(const date_state *st, int64_t v) {
    date_civil c;
    date_civil_of(&st->in, v, &c);
    switch (st->op) {
    case DATE_OP_YEAR: return c.year;
    case DATE_OP_QUARTER: return (c.month - 1) / 3 + 1;
    case DATE_OP_MONTH: return c.month;
    case DATE_OP_DAY_OF_YEAR: return c.days - ty_days_from_civil(c.year, 1, 1) + 1;
    case DATE_OP_DAY_OF_MONTH: return c.day;
    case DATE_OP_DAY_OF_WEEK: {
        int64_t d = date_iso_weekday(c.days);
        if (st->n & 2) d = d % 7 + 1;   /* weeks start on Sunday */
        if ((st->n & 3) == 1 || (st->n & 3) == 2) d--; /* zero-based */
        return d;
    }
    case DATE_OP_HOUR: return c.second / 3600;
    case DATE_OP_MINUTE: return c.second / 60 % 60;
    case DATE_OP_SECOND: return c.second % 60;
    case DATE_OP_YYYYMM: return c.year * 100 + c.month;
    case DATE_OP_YYYYMMDD: return c.year * 10000 + c.month * 100 + c.day;
    case DATE_OP_YYYYMMDDHHMMSS:
        return c.year * 10000000000LL + c.month * 100000000LL + c.day * 1000000LL +
               c.second / 3600 * 10000 + c.second / 60 % 60 * 100 + c.second % 60;
    case DATE_OP_ISO_WEEK: return date_iso_week(c.days);
    case DATE_OP_ISO_YEAR: return date_iso_year(c.days);
    case DATE_OP_WEEK:
    case DATE_OP_YEAR_WEEK: {
        int64_t year, week;
        unsigned mode = (unsigned)(uint8_t)st->n;
        if (st->op == DATE_OP_YEAR_WEEK) mode |= DATE_WEEK_YEAR;
        date_year_week(c.days, mode, &year, &week);
        return st->op == DATE_OP_WEEK ? week : year * 100 + week;
    }
    default: break;
    }
    MU_ASSERT(!"date_field: unexpected operation");
    return 0;
}

/* toRelativeHourNum: whole-hour zones count UTC hours; others count hours
 * of the offset the zone had at the epoch, plus one day (ClickHouse). */
static int64_t date_relative_hour(const date_input *in, int64_t t, bool stable) {
    if (!stable && t >= 0 && in->whole_hours) return t / 3600;
    return date_wrap_add(t, DATE_LUT_ADD + 86400 - in->epoch_offset) / 3600 - DATE_LUT_ADD / 3600;
}

/* toRelative*Num and dateDiff's unit counts. Extended precision (dateDiff)
 * keeps 64 bits; the SQL functions keep ClickHouse's narrow results. */
static int64_t date_relative(const date_input *in, date_unit unit, int64_t v, bool extended) {
    date_civil c;
    switch (unit) {
    case DATE_UNIT_YEAR: date_civil_of(in, v, &c); return c.year;
    case DATE_UNIT_QUARTER: date_civil_of(in, v, &c); return c.year * 4 + (c.month - 1) / 3;
    case DATE_UNIT_MONTH: date_civil_of(in, v, &c); return c.year * 12 + c.month;
    case DATE_UNIT_WEEK:
        date_civil_of(in, v, &c);
        return (c.days + 8 - date_iso_weekday(c.days)) / 7;
    case DATE_UNIT_DAY:
        date_civil_of(in, v, &c);
        return extended ? c.days : (uint16_t)c.days;
    case DATE_UNIT_HOUR: return date_relative_hour(in, date_instant(in, v), extended);
    case DATE_UNIT_MINUTE:
        return date_wrap_add(date_instant(in, v), DATE_LUT_ADD) / 60 - DATE_LUT_ADD / 60;
    case DATE_UNIT_SECOND: return date_instant(in, v);
    case DATE_UNIT_MILLISECOND:
    case DATE_UNIT_MICROSECOND:
    case DATE_UNIT_NANOSECOND: {
        int64_t m = unit == DATE_UNIT_MILLISECOND ? 1000
                  : unit == DATE_UNIT_MICROSECOND ? 1000000 : 1000000000;
        if (in->kind != TY_DATETIME64) return date_wrap_mul(date_instant(in, v), m);
        if (in->scale == m) return v;
        if (in->scale < m) return date_wrap_mul(v, m / in->scale);
        return v / (in->scale / m);
    }
    default: break;
    }
    MU_ASSERT(!"date_relative: unexpected unit");
    return 0;
}

/* First day of the month `months` whole months after (year, month). */
static int64_t date_month_start(int64_t year, int64_t month0) {
    return ty_days_from_civil(year + date_floor_div(month0, 12),
                              (unsigned)(month0 - date_floor_div(month0, 12) * 12) + 1, 1);
}

/* Day numbers (Date results), before the caller saturates them. */
static int64_t date_start_day_number(const date_state *st, int64_t v) {
    date_civil c;
    date_civil_of(&st->in, v, &c);
    int64_t iso = date_iso_weekday(c.days);
    switch (st->op) {
    case DATE_OP_START_MONTH: return c.days - (c.day - 1);
    case DATE_OP_START_QUARTER: return ty_days_from_civil(c.year, (c.month - 1) / 3 * 3 + 1, 1);
    case DATE_OP_START_YEAR: return ty_days_from_civil(c.year, 1, 1);
    case DATE_OP_START_ISO_YEAR: return date_iso_year_start(c.days);
    case DATE_OP_LAST_DAY_MONTH: return c.days - c.day + date_month_days(c.year, c.month);
    case DATE_OP_MONDAY: return c.days - (iso - 1);
    case DATE_OP_START_WEEK:
        if (st->n & 1) return c.days - (iso - 1);
        return iso == 7 ? c.days : c.days - iso;
    case DATE_OP_INTERVAL_WEEK:
        /* Weeks counted from Monday 1970-01-05, truncating like ClickHouse. */
        if (st->n == 1) return c.days - (iso - 1);
        return 4 + (c.days - 4) / (7 * st->n) * (7 * st->n);
    case DATE_OP_INTERVAL_MONTH: {
        /* Months counted from January 1900. */
        int64_t index = (c.year - 1900) * 12 + c.month - 1;
        return date_month_start(1900, index / st->n * st->n);
    }
    case DATE_OP_INTERVAL_YEAR: {
        int64_t year = c.year / st->n * st->n;
        return ty_days_from_civil(year < 1900 ? 1900 : year, 1, 1);
    }
    default: break;
    }
    MU_ASSERT(!"date_start_day_number: unexpected operation");
    return 0;
}

/* In a gap of tz, the first instant after `from` with a different offset. */
static int64_t date_next_change(const ty_tz *tz, int64_t from) {
    int32_t before = ty_tz_offset_at(tz, from);
    int64_t lo = from, hi = from + 2 * 86400;
    while (lo + 1 < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ty_tz_offset_at(tz, mid) == before) lo = mid;
        else hi = mid;
    }
    return hi;
}

/* toStartOfInterval(t, INTERVAL n HOUR): hours counted from local
 * midnight; a start that falls in a DST gap moves to the change. */
static int64_t date_start_hours(const ty_tz *tz, int64_t t, int64_t hours) {
    int64_t local = date_local_seconds(tz, t);
    int64_t days = date_floor_div(local, 86400);
    int64_t wall = local - days * 86400;
    int64_t target = days * 86400 + wall / (hours * 3600) * (hours * 3600);
    int64_t r = ty_tz_local_to_utc(tz, target);
    if (r + ty_tz_offset_at(tz, r) != target) r = date_next_change(tz, r);
    return r;
}

/* ClickHouse reads Date and DateTime values through a table in which a
 * day that starts before the epoch takes the next day's start. */
static int64_t date_day_start_unsigned(const ty_tz *tz, int64_t days) {
    int64_t r = date_day_start(tz, days);
    return r < 0 ? date_day_start(tz, days + 1) : r;
}

static bool date_kind_is_unsigned(ty_kind k) { return k == TY_DATE || k == TY_DATETIME; }

static int64_t date_start_instant_raw(const date_state *st, int64_t v);

/* Instants (DateTime results) for the rounding operations; unsigned
 * inputs never round below the epoch. */
static int64_t date_start_instant(const date_state *st, int64_t v) {
    const date_input *in = &st->in;
    if (st->op == DATE_OP_START_DAY || st->op == DATE_OP_INTERVAL_DAY) {
        date_civil c;
        date_civil_of(in, v, &c);
        int64_t days = st->op == DATE_OP_START_DAY ? c.days : c.days / st->n * st->n;
        return date_kind_is_unsigned(in->kind) ? date_day_start_unsigned(in->tz, days)
                                               : date_day_start(in->tz, days);
    }
    int64_t r = date_start_instant_raw(st, v);
    return r < 0 && date_kind_is_unsigned(in->kind) ? 0 : r;
}

static int64_t date_start_instant_raw(const date_state *st, int64_t v) {
    const date_input *in = &st->in;
    int64_t t = date_whole(in, v);
    switch (st->op) {
    case DATE_OP_START_HOUR: {
        int64_t local = date_local_seconds(in->tz, t);
        int64_t start = date_day_start(in->tz, date_floor_div(local, 86400));
        return start + date_floor_div(t - start, 3600) * 3600;
    }
    case DATE_OP_START_MINUTES:
        return date_floor_div(t, 60 * st->n) * 60 * st->n;
    case DATE_OP_INTERVAL_HOUR:
        return date_start_hours(in->tz, t, st->n);
    case DATE_OP_INTERVAL_SECOND: {
        if (in->whole_hours) return date_floor_div(t, st->n) * st->n;
        int64_t local = date_local_seconds(in->tz, t);
        int64_t start = date_day_start(in->tz, date_floor_div(local, 86400));
        return start + (t - start) / st->n * st->n;
    }
    default: break;
    }
    MU_ASSERT(!"date_start_instant_raw: unexpected operation");
    return 0;
}

static bool date_op_gives_day(date_op op) {
    return op >= DATE_OP_START_MONTH && op <= DATE_OP_INTERVAL_YEAR;
}

static bool date_op_gives_instant(date_op op) {
    return op >= DATE_OP_START_DAY && op <= DATE_OP_INTERVAL_SECOND;
}

/* Loads argument 0; floats (toUnixTimestamp) are truncated, with NaN and
 * out-of-range values kept defined. */
static int date_load_values(const date_state *st, const exec_arg *a, uint32_t rows,
                            int64_t *v, mu_err *err) {
    if (st->in.kind != TY_FLOAT32 && st->in.kind != TY_FLOAT64) {
        exec__load_i64(a, rows, v);
        return 0;
    }
    double *f = exec__scratch(rows, sizeof(*f), err);
    if (f == NULL) return err->code;
    exec__load_f64(a, rows, f);
    for (uint32_t i = 0; i < rows; i++) {
        double x = f[i] != f[i] ? 0 : f[i];
        v[i] = x <= -9.2e18 ? INT64_MIN : (x >= 9.2e18 ? INT64_MAX : (int64_t)x);
    }
    free(f);
    return 0;
}

/* Strings of toWeek and friends: parseDateTime64BestEffort at scale 0 in
 * the calendar's zone (the state reads them as DateTime64 with scale 1). */
static int date_load_text(const exec_call *call, const date_state *st, const exec_arg *a,
                          uint32_t rows, int64_t *v, mu_err *err) {
    for (uint32_t i = 0; i < rows; i++) {
        v[i] = 0;
        if (exec_arg_is_null_row(a, i)) continue;
        size_t bytes;
        const char *s = exec_get_str(a->column, exec_arg_row(a, i), &bytes);
        int rc = exec__date_parse_best_effort(call, s, bytes, st->in.tz, &v[i], err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* toStartOfISOYear of Date32 and DateTime64: 0 before 1970, days after
 * 2149-06-06 read as that day, the result cast to Date's 16 bits. */
static int64_t date_start_iso_year_signed(const date_state *st, int64_t v) {
    if ((date_kind_is_day(st->in.kind) ? v : date_whole(&st->in, v)) < 0) return 0;
    date_civil c;
    date_civil_of(&st->in, v, &c);
    return date_iso_year_start(MU_MIN(c.days, DATE_DAYS_MAX));
}

static date_unit date_relative_unit(date_op op) {
    switch (op) {
    case DATE_OP_REL_YEAR: return DATE_UNIT_YEAR;
    case DATE_OP_REL_QUARTER: return DATE_UNIT_QUARTER;
    case DATE_OP_REL_MONTH: return DATE_UNIT_MONTH;
    case DATE_OP_REL_WEEK: return DATE_UNIT_WEEK;
    case DATE_OP_REL_DAY: return DATE_UNIT_DAY;
    case DATE_OP_REL_HOUR: return DATE_UNIT_HOUR;
    case DATE_OP_REL_MINUTE: return DATE_UNIT_MINUTE;
    default: return DATE_UNIT_SECOND;
    }
}

static int date_kernel_unary(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    const date_state *st = call->state;
    MU_ASSERT(st != NULL && call->arg_count >= 1);
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    int load_rc = st->text_input ? date_load_text(call, st, &args[0], rows, v, err)
                                 : date_load_values(st, &args[0], rows, v, err);
    if (load_rc != 0) {
        free(v);
        return err->code;
    }
    if (date_op_gives_day(st->op)) {
        /* Date and DateTime inputs stop at 1970-01-01 (ClickHouse's saturated
         * table, and toStartOfWeek's max(res, 0) for times); Date32 and
         * DateTime64 days are cast to Date's 16 bits as ClickHouse casts them. */
        bool floor_zero = date_kind_is_unsigned(st->in.kind) ||
                          (st->op == DATE_OP_START_WEEK && st->in.kind == TY_DATETIME64);
        bool iso_signed = st->op == DATE_OP_START_ISO_YEAR && !floor_zero;
        for (uint32_t i = 0; i < rows; i++) {
            int64_t d = iso_signed ? date_start_iso_year_signed(st, v[i])
                                   : date_start_day_number(st, v[i]);
            v[i] = (uint16_t)(floor_zero && d < 0 ? 0 : d);
        }
    } else if (date_op_gives_instant(st->op)) {
        for (uint32_t i = 0; i < rows; i++) v[i] = date_start_instant(st, v[i]);
    } else if (st->op >= DATE_OP_REL_YEAR && st->op <= DATE_OP_REL_WEEK) {
        /* ClickHouse keeps 16 bits of these (UInt16 / UInt32 results). */
        date_unit unit = date_relative_unit(st->op);
        for (uint32_t i = 0; i < rows; i++)
            v[i] = (uint16_t)date_relative(&st->in, unit, v[i], true);
    } else if (st->op >= DATE_OP_REL_DAY && st->op <= DATE_OP_REL_SECOND) {
        date_unit unit = date_relative_unit(st->op);
        for (uint32_t i = 0; i < rows; i++) v[i] = date_relative(&st->in, unit, v[i], false);
    } else if (st->op == DATE_OP_TZ_OFFSET) {
        for (uint32_t i = 0; i < rows; i++) {
            int64_t t = date_clamp(date_whole(&st->in, v[i]), -DATE_SECONDS_LIMIT,
                                   DATE_SECONDS_LIMIT);
            v[i] = ty_tz_offset_at(st->in.tz, t);
        }
    } else if (st->op == DATE_OP_UNIX_TIMESTAMP) {
        for (uint32_t i = 0; i < rows; i++) v[i] = date_whole(&st->in, v[i]);
    } else {
        for (uint32_t i = 0; i < rows; i++) v[i] = date_field(st, v[i]);
    }
    int rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Binding of the one-argument families                                */
/* ------------------------------------------------------------------ */

/* Resolves the calendar zone of argument 0: an explicit zone argument,
 * else the DateTime type's zone, else the session zone. *zone_name_out is
 * the zone a DateTime result carries (NULL: none). */
static int date_bind_input(exec_call *call, int tz_index, mu_arena *arena, date_input *in,
                           const char **zone_name_out, mu_err *err) {
    const ty_type *t = call->arg_types[0];
    in->kind = t->kind;
    in->scale = t->kind == TY_DATETIME64 ? date_pow10(t->precision) : 1;
    in->tz = date_kind_is_day(t->kind) ? exec__date_session_zone(call) : ty_type_timezone(t);
    const char *name = NULL;
    if ((t->kind == TY_DATETIME || t->kind == TY_DATETIME64) && t->timezone_name != NULL)
        name = t->timezone_name;
    if (tz_index >= 0 && (uint32_t)tz_index < call->arg_count) {
        int rc = exec__date_zone_arg(call, (uint32_t)tz_index, arena, &in->tz, &name, err);
        if (rc != 0) return rc;
    }
    if (zone_name_out != NULL) *zone_name_out = name;
    return 0;
}

static date_state *date_state_new(exec_call *call, mu_arena *arena, date_op op, mu_err *err) {
    date_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return NULL;
    st->op = op;
    st->n = 1;
    call->state = st;
    call->kernel = date_kernel_unary;
    return st;
}

static int date_error_not_supported(const exec_call *call, ty_kind kind, mu_err *err) {
    return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of argument for function %s",
                  kind == TY_DATE ? "Date" : "Date32", call->function->name);
}

static ty_kind date_field_result(date_op op) {
    switch (op) {
    case DATE_OP_YEAR: case DATE_OP_DAY_OF_YEAR: case DATE_OP_ISO_YEAR:
    case DATE_OP_REL_YEAR: return TY_UINT16;
    case DATE_OP_YYYYMM: case DATE_OP_YYYYMMDD: case DATE_OP_YEAR_WEEK: return TY_UINT32;
    case DATE_OP_REL_QUARTER: case DATE_OP_REL_MONTH: case DATE_OP_REL_WEEK: return TY_UINT32;
    case DATE_OP_TZ_OFFSET: return TY_INT32;
    case DATE_OP_REL_DAY: case DATE_OP_REL_HOUR: case DATE_OP_REL_MINUTE:
    case DATE_OP_REL_SECOND: return TY_UINT32;
    case DATE_OP_YYYYMMDDHHMMSS: return TY_UINT64;
    default: return TY_UINT8;
    }
}

/* FunctionDateOrDateTimeToSomething's argument rules: (t[, 'tz']). */
static int date_check_t_tz(exec_call *call, bool result_is_date, mu_err *err) {
    if (call->arg_count < 1 || call->arg_count > 2)
        return exec__error_arg_count(call, "1 or 2", err);
    ty_kind k = call->arg_types[0]->kind;
    char tn[128];
    if (!date_kind_is_time(k))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Should be Date, Date32, "
                      "DateTime or DateTime64",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)), call->function->name);
    if (call->arg_count == 2 && call->arg_types[1]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Function %s supports 1 or 2 arguments. The optional 2nd argument must be "
                      "a constant string with a timezone name",
                      call->function->name);
    if (call->arg_count == 2 && result_is_date && date_kind_is_day(k))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "The timezone argument of function %s is allowed only when the 1st "
                      "argument has the type DateTime or DateTime64",
                      call->function->name);
    return 0;
}

static bool date_op_needs_time(date_op op) {
    return op == DATE_OP_HOUR || op == DATE_OP_MINUTE || op == DATE_OP_SECOND ||
           op == DATE_OP_START_HOUR || op == DATE_OP_START_MINUTES || op == DATE_OP_TZ_OFFSET;
}

/* toYear .. toSecond, toYYYYMM*, toRelative*Num, toStartOf{Month, Quarter,
 * Year}, toMonday, toStartOf{Day, Hour, *Minute*}. */
static int date_bind_simple(exec_call *call, mu_arena *arena, mu_err *err) {
    const date_fn *d = date_fn_of(call);
    date_op op = (date_op)d->op;
    int rc = date_check_t_tz(call, date_op_gives_day(op), err);
    if (rc != 0) return rc;
    ty_kind k = call->arg_types[0]->kind;
    if (date_op_needs_time(op) && date_kind_is_day(k))
        return date_error_not_supported(call, k, err);
    date_state *st = date_state_new(call, arena, op, err);
    if (st == NULL) return err->code;
    st->n = d->minutes ? d->minutes : 1;
    const char *zone_name;
    rc = date_bind_input(call, 1, arena, &st->in, &zone_name, err);
    if (rc != 0) return rc;
    if (op == DATE_OP_REL_HOUR) date_input_zone_traits(&st->in, true);
    if (date_op_gives_day(op)) {
        call->result_type = ty_type_builtin(TY_DATE);
        return 0;
    }
    if (date_op_gives_instant(op))
        return exec__date_type_datetime(arena, zone_name, st->in.tz, &call->result_type, err);
    call->result_type = ty_type_builtin(date_field_result(op));
    return 0;
}

/* toDayOfWeek(t[, mode[, 'tz']]) and toStartOfWeek(t[, mode[, 'tz']]). */
/* toWeek(t[, mode[, 'tz']]) and toYearWeek: IFunctionCustomWeek's rules
 * (a constant UInt8 mode; a String t is read best-effort). */
static int date_check_custom_week(exec_call *call, mu_err *err) {
    const char *name = call->function->name;
    char tn[128];
    if (call->arg_count < 1 || call->arg_count > 3)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Number of arguments for function %s doesn't match: passed %u, expected "
                      "1, 2 or 3.",
                      name, call->arg_count);
    const ty_type *t = call->arg_types[0];
    if (!date_kind_is_time(t->kind) && t->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of %sargument of function %s. Must be Date, Date32, "
                      "DateTime or DateTime64.",
                      ty_type_name(t, tn, sizeof(tn)), call->arg_count == 2 ? "1st " : "", name);
    if (call->arg_count >= 2 && call->arg_types[1]->kind != TY_UINT8)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of 2nd (optional) argument of function %s. Must be "
                      "constant UInt8 (week mode).",
                      ty_type_name(call->arg_types[1], tn, sizeof(tn)), name);
    if (call->arg_count == 3 && call->arg_types[2]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of 3rd (optional) argument of function %s. Must be "
                      "constant string (timezone name).",
                      ty_type_name(call->arg_types[2], tn, sizeof(tn)), name);
    return 0;
}

/* toDayOfWeek(t[, mode[, 'tz']]), toStartOfWeek(t[, mode[, 'tz']]), toWeek
 * and toYearWeek. */
static int date_bind_week_mode(exec_call *call, mu_arena *arena, mu_err *err) {
    const date_fn *d = date_fn_of(call);
    date_op op = (date_op)d->op;
    bool custom_week = op == DATE_OP_WEEK || op == DATE_OP_YEAR_WEEK;
    char tn[128];
    bool mode_is_zone = false;
    if (custom_week) {
        int rc = date_check_custom_week(call, err);
        if (rc != 0) return rc;
    } else {
        if (call->arg_count < 1 || call->arg_count > 3)
            return exec__error_arg_count(call, "1 or 2 or 3", err);
        if (!date_kind_is_time(call->arg_types[0]->kind))
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type %s of argument of function %s. Should be a date or a "
                          "date with time",
                          ty_type_name(call->arg_types[0], tn, sizeof(tn)), call->function->name);
        /* toDayOfWeek(t, 'tz') reads a String second argument as the zone. */
        mode_is_zone = op == DATE_OP_DAY_OF_WEEK && call->arg_count == 2 &&
                       call->arg_types[1]->kind == TY_STRING;
        bool bad = (call->arg_count >= 2 && !mode_is_zone &&
                    !exec_type_is_integer(call->arg_types[1])) ||
                   (call->arg_count == 3 && call->arg_types[2]->kind != TY_STRING);
        if (bad)
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Function %s supports 1 or 2 or 3 arguments. The 1st argument must be "
                          "of type Date or DateTime. The 2nd argument (optional) must be a "
                          "constant UInt8 with week mode. The 3rd argument (optional) must be a "
                          "constant string with timezone name",
                          call->function->name);
        if (call->arg_count == 3 && op == DATE_OP_START_WEEK &&
            date_kind_is_day(call->arg_types[0]->kind))
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "The timezone argument of function %s is allowed only when the 1st "
                          "argument has the type DateTime",
                          call->function->name);
    }
    date_state *st = date_state_new(call, arena, op, err);
    if (st == NULL) return err->code;
    st->n = 0;
    if (call->arg_count >= 2 && !mode_is_zone && !exec__const_i64(call, 1, &st->n))
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal type of argument for function %s",
                      call->function->name);
    int rc = date_bind_input(call, mode_is_zone ? 1 : 2, arena, &st->in, NULL, err);
    if (rc != 0) return rc;
    if (call->arg_types[0]->kind == TY_STRING) {
        st->text_input = true;
        st->in.kind = TY_DATETIME64;
        st->in.scale = 1;
        if (call->arg_count < 3) st->in.tz = exec__date_session_zone(call);
    }
    ty_kind result = op == DATE_OP_START_WEEK ? TY_DATE
                   : op == DATE_OP_YEAR_WEEK  ? TY_UINT32 : TY_UINT8;
    call->result_type = ty_type_builtin(result);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Units                                                               */
/* ------------------------------------------------------------------ */

typedef struct date_unit_name {
    const char *name;
    date_unit unit;
} date_unit_name;

/* dateDiff's spellings (ClickHouse lower-cases the argument first). */
static const date_unit_name date_diff_units[] = {
    {"year", DATE_UNIT_YEAR},           {"years", DATE_UNIT_YEAR},
    {"yy", DATE_UNIT_YEAR},             {"yyyy", DATE_UNIT_YEAR},
    {"quarter", DATE_UNIT_QUARTER},     {"quarters", DATE_UNIT_QUARTER},
    {"qq", DATE_UNIT_QUARTER},          {"q", DATE_UNIT_QUARTER},
    {"month", DATE_UNIT_MONTH},         {"months", DATE_UNIT_MONTH},
    {"mm", DATE_UNIT_MONTH},            {"m", DATE_UNIT_MONTH},
    {"week", DATE_UNIT_WEEK},           {"weeks", DATE_UNIT_WEEK},
    {"wk", DATE_UNIT_WEEK},             {"ww", DATE_UNIT_WEEK},
    {"day", DATE_UNIT_DAY},             {"days", DATE_UNIT_DAY},
    {"dd", DATE_UNIT_DAY},              {"d", DATE_UNIT_DAY},
    {"hour", DATE_UNIT_HOUR},           {"hours", DATE_UNIT_HOUR},
    {"hh", DATE_UNIT_HOUR},             {"h", DATE_UNIT_HOUR},
    {"minute", DATE_UNIT_MINUTE},       {"minutes", DATE_UNIT_MINUTE},
    {"mi", DATE_UNIT_MINUTE},           {"n", DATE_UNIT_MINUTE},
    {"second", DATE_UNIT_SECOND},       {"seconds", DATE_UNIT_SECOND},
    {"ss", DATE_UNIT_SECOND},           {"s", DATE_UNIT_SECOND},
    {"millisecond", DATE_UNIT_MILLISECOND}, {"milliseconds", DATE_UNIT_MILLISECOND},
    {"ms", DATE_UNIT_MILLISECOND},      {"microsecond", DATE_UNIT_MICROSECOND},
    {"microseconds", DATE_UNIT_MICROSECOND}, {"us", DATE_UNIT_MICROSECOND},
    {"u", DATE_UNIT_MICROSECOND},       {"nanosecond", DATE_UNIT_NANOSECOND},
    {"nanoseconds", DATE_UNIT_NANOSECOND}, {"ns", DATE_UNIT_NANOSECOND},
};

/* Interval kinds as ClickHouse's SQL parser spells them (date_add) and the
 * plain names the binder passes to toStartOfInterval. */
static const date_unit_name date_interval_units[] = {
    {"second", DATE_UNIT_SECOND},   {"seconds", DATE_UNIT_SECOND},  {"ss", DATE_UNIT_SECOND},
    {"s", DATE_UNIT_SECOND},        {"sql_tsi_second", DATE_UNIT_SECOND},
    {"minute", DATE_UNIT_MINUTE},   {"minutes", DATE_UNIT_MINUTE},  {"mi", DATE_UNIT_MINUTE},
    {"n", DATE_UNIT_MINUTE},        {"sql_tsi_minute", DATE_UNIT_MINUTE},
    {"hour", DATE_UNIT_HOUR},       {"hours", DATE_UNIT_HOUR},      {"hh", DATE_UNIT_HOUR},
    {"h", DATE_UNIT_HOUR},          {"sql_tsi_hour", DATE_UNIT_HOUR},
    {"day", DATE_UNIT_DAY},         {"days", DATE_UNIT_DAY},        {"dd", DATE_UNIT_DAY},
    {"d", DATE_UNIT_DAY},           {"sql_tsi_day", DATE_UNIT_DAY},
    {"week", DATE_UNIT_WEEK},       {"weeks", DATE_UNIT_WEEK},      {"wk", DATE_UNIT_WEEK},
    {"ww", DATE_UNIT_WEEK},         {"sql_tsi_week", DATE_UNIT_WEEK},
    {"month", DATE_UNIT_MONTH},     {"months", DATE_UNIT_MONTH},    {"mm", DATE_UNIT_MONTH},
    {"m", DATE_UNIT_MONTH},         {"sql_tsi_month", DATE_UNIT_MONTH},
    {"quarter", DATE_UNIT_QUARTER}, {"quarters", DATE_UNIT_QUARTER}, {"qq", DATE_UNIT_QUARTER},
    {"q", DATE_UNIT_QUARTER},       {"sql_tsi_quarter", DATE_UNIT_QUARTER},
    {"year", DATE_UNIT_YEAR},       {"years", DATE_UNIT_YEAR},      {"yyyy", DATE_UNIT_YEAR},
    {"yy", DATE_UNIT_YEAR},         {"sql_tsi_year", DATE_UNIT_YEAR},
};

/* toStartOfInterval's sub-second kinds, for DateTime64 only (ClickHouse's
 * parser spellings; date_add and the others do not take them yet). */
static const date_unit_name date_subsecond_units[] = {
    {"millisecond", DATE_UNIT_MILLISECOND}, {"milliseconds", DATE_UNIT_MILLISECOND},
    {"ms", DATE_UNIT_MILLISECOND},          {"sql_tsi_millisecond", DATE_UNIT_MILLISECOND},
    {"microsecond", DATE_UNIT_MICROSECOND}, {"microseconds", DATE_UNIT_MICROSECOND},
    {"mcs", DATE_UNIT_MICROSECOND},         {"sql_tsi_microsecond", DATE_UNIT_MICROSECOND},
    {"nanosecond", DATE_UNIT_NANOSECOND},   {"nanoseconds", DATE_UNIT_NANOSECOND},
    {"ns", DATE_UNIT_NANOSECOND},           {"sql_tsi_nanosecond", DATE_UNIT_NANOSECOND},
};

static date_unit date_unit_find(const date_unit_name *names, size_t count, const char *text,
                                size_t bytes) {
    for (size_t i = 0; i < count; i++)
        if (strlen(names[i].name) == bytes && strncasecmp(names[i].name, text, bytes) == 0)
            return names[i].unit;
    return DATE_UNIT_NONE;
}

/* The unit argument as a short printable string for messages. */
static const char *date_unit_text(const char *data, size_t bytes, char *out, size_t out_bytes) {
    size_t n = MU_MIN(bytes, out_bytes - 1);
    for (size_t i = 0; i < n; i++) {
        char c = data[i];
        out[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : (c < 0x20 ? '?' : c);
    }
    out[n] = 0;
    return out;
}

/* ------------------------------------------------------------------ */
/* toStartOfInterval(t, n, 'unit'[, 'tz'])                             */
/* ------------------------------------------------------------------ */

static const char *const date_unit_titles[] = {
    "Nanosecond", "Microsecond", "Millisecond", "Second", "Minute", "Hour",
    "Day",        "Week",        "Month",       "Quarter", "Year",
};

/* Maps unit and length to an operation; quarters are three months. */
static date_op date_interval_op(date_unit unit, int64_t *n) {
    switch (unit) {
    case DATE_UNIT_YEAR: return *n == 1 ? DATE_OP_START_YEAR : DATE_OP_INTERVAL_YEAR;
    case DATE_UNIT_QUARTER:
        if (*n == 1) return DATE_OP_START_QUARTER;
        *n *= 3;
        return DATE_OP_INTERVAL_MONTH;
    case DATE_UNIT_MONTH: return *n == 1 ? DATE_OP_START_MONTH : DATE_OP_INTERVAL_MONTH;
    case DATE_UNIT_WEEK: return DATE_OP_INTERVAL_WEEK;
    case DATE_UNIT_DAY: return DATE_OP_INTERVAL_DAY;
    case DATE_UNIT_HOUR: return *n == 1 ? DATE_OP_START_HOUR : DATE_OP_INTERVAL_HOUR;
    case DATE_UNIT_MINUTE: return DATE_OP_START_MINUTES;
    default:
        if (*n % 60 == 0) {
            *n /= 60;
            return DATE_OP_START_MINUTES;
        }
        return DATE_OP_INTERVAL_SECOND;
    }
}

static int date_interval_args(exec_call *call, date_unit *unit_out, int64_t *n_out,
                              mu_err *err) {
    const char *name = call->function->name;
    char tn[128];
    if (call->arg_count < 3 || call->arg_count > 4)
        return exec__error_arg_count(call, "2 or 3", err);
    if (!date_kind_is_time(call->arg_types[0]->kind))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Should be a date or a date "
                      "with time",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)), name);
    const char *text;
    size_t bytes;
    if (!exec_type_is_integer(call->arg_types[1]) || !exec__const_i64(call, 1, n_out) ||
        !exec__const_string(call, 2, &text, &bytes))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Should be an interval of time",
                      ty_type_name(call->arg_types[1], tn, sizeof(tn)), name);
    *unit_out = date_unit_find(date_interval_units, MU_ARRAY_LEN(date_interval_units), text,
                               bytes);
    if (*unit_out == DATE_UNIT_NONE)
        *unit_out = date_unit_find(date_subsecond_units, MU_ARRAY_LEN(date_subsecond_units),
                                   text, bytes);
    if (*unit_out == DATE_UNIT_NONE)
        return MU_ERR(err, MU_EINVAL, "Unknown interval unit '%s' of function %s",
                      date_unit_text(text, bytes, tn, 64), name);
    if (*n_out <= 0)
        return MU_ERR(err, MU_EOUT_OF_BOUND,
                      "Value for second argument of function %s must be positive", name);
    if (call->arg_count == 4 && call->arg_types[3]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. This argument is optional "
                      "and must be a constant string with timezone name",
                      ty_type_name(call->arg_types[3], tn, sizeof(tn)), name);
    return 0;
}

/* toStartOfInterval(DateTime64, INTERVAL n MILLISECOND | MICROSECOND |
 * NANOSECOND): DateTime64(3 | 6 | 9) rounded down (towards minus
 * infinity) to a multiple of n units since the epoch, whatever the input
 * precision; a value that does not fit the finer unit is DECIMAL_OVERFLOW
 * as in ClickHouse. */
typedef struct date_subsecond_state {
    int64_t up;    /* multiply the input ticks by this (>= 1) ... */
    int64_t down;  /* ... or divide them by this (>= 1), rounding down */
    int64_t n;     /* units per interval */
} date_subsecond_state;

static int date_kernel_start_subsecond(const exec_call *call, const exec_arg *args,
                                       uint32_t rows, ty_column *out, mu_err *err) {
    const date_subsecond_state *st = call->state;
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_i64(&args[0], rows, v);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        int64_t t = v[i];
        bool overflow = __builtin_mul_overflow(t, st->up, &t);
        int64_t intervals = date_floor_div(date_floor_div(t, st->down), st->n);
        overflow = overflow || __builtin_mul_overflow(intervals, st->n, &t);
        if (overflow && !exec_arg_is_null_row(&args[0], i))
            rc = MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal overflow in %s",
                        call->function->name);
        v[i] = overflow ? 0 : t;
    }
    if (rc == 0) rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

static int date_bind_start_subsecond(exec_call *call, mu_arena *arena, date_unit unit, int64_t n,
                                     mu_err *err) {
    ty_kind k = call->arg_types[0]->kind;
    if (k != TY_DATETIME64)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal interval kind for argument data type %s",
                      date_kind_is_day(k) ? "Date" : "DateTime");
    date_subsecond_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    unsigned precision = unit == DATE_UNIT_MILLISECOND ? 3 : unit == DATE_UNIT_MICROSECOND ? 6 : 9;
    unsigned from = call->arg_types[0]->precision;
    st->up = from < precision ? date_pow10(precision - from) : 1;
    st->down = from > precision ? date_pow10(from - precision) : 1;
    st->n = n;
    call->state = st;
    call->kernel = date_kernel_start_subsecond;
    date_input in;
    const char *zone_name;
    int rc = date_bind_input(call, 3, arena, &in, &zone_name, err);
    if (rc != 0) return rc;
    return exec__date_type_datetime64(arena, precision, zone_name, in.tz, &call->result_type,
                                      err);
}

static int date_bind_start_of_interval(exec_call *call, mu_arena *arena, mu_err *err) {
    date_unit unit = DATE_UNIT_NONE;
    int64_t n = 0;
    int rc = date_interval_args(call, &unit, &n, err);
    if (rc != 0) return rc;
    if (unit < DATE_UNIT_SECOND) return date_bind_start_subsecond(call, arena, unit, n, err);
    ty_kind k = call->arg_types[0]->kind;
    bool gives_date = unit >= DATE_UNIT_WEEK;
    if (call->arg_count == 4 && gives_date && date_kind_is_day(k))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "The timezone argument of function %s with interval type %s is allowed "
                      "only when the 1st argument has the type DateTime or DateTime64",
                      call->function->name, date_unit_titles[unit]);
    if (unit < DATE_UNIT_DAY && date_kind_is_day(k)) return date_error_not_supported(call, k, err);
    date_state *st = date_state_new(call, arena, DATE_OP_START_YEAR, err);
    if (st == NULL) return err->code;
    st->op = date_interval_op(unit, &n);
    st->n = n;
    const char *zone_name;
    rc = date_bind_input(call, 3, arena, &st->in, &zone_name, err);
    if (rc != 0) return rc;
    if (st->op == DATE_OP_INTERVAL_SECOND) date_input_zone_traits(&st->in, true);
    if (gives_date) {
        call->result_type = ty_type_builtin(TY_DATE);
        return 0;
    }
    return exec__date_type_datetime(arena, zone_name, st->in.tz, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* Calendar arithmetic: add*, subtract*, date_add, date_sub            */
/* ------------------------------------------------------------------ */

/* ClickHouse's addMonths: the day of the month is clamped to the target
 * month; results outside 1900..2299 stick to the table's first or last
 * day. Returns the target day number. */
static int64_t date_add_months_day(int64_t days, int64_t months) {
    int64_t year;
    unsigned month, day;
    ty_civil_from_days(days, &year, &month, &day);
    int64_t total = date_wrap_add(year * 12 + (month - 1), months);
    int64_t y = date_floor_div(total, 12);
    unsigned m = (unsigned)(total - y * 12) + 1;
    if (y < 1900) return DATE_LUT_FIRST_DAY;
    if (y > 2299) return DATE_LUT_LAST_DAY;
    unsigned last = date_month_days(y, m);
    return ty_days_from_civil(y, m, day > last ? last : day);
}

static int64_t date_add_years_day(int64_t days, int64_t years) {
    int64_t year;
    unsigned month, day;
    ty_civil_from_days(days, &year, &month, &day);
    int64_t y = date_wrap_add(year, years);
    if (y < 1900) return DATE_LUT_FIRST_DAY;
    if (y > 2299) return DATE_LUT_LAST_DAY;
    if (month == 2 && day == 29 && !date_is_leap(y)) day = 28;
    return ty_days_from_civil(y, month, day);
}

/* The target day of a calendar step of `delta` units from `days`. */
static int64_t date_step_days(date_unit unit, int64_t days, int64_t delta) {
    switch (unit) {
    case DATE_UNIT_DAY: return date_wrap_add(days, delta);
    case DATE_UNIT_WEEK: return date_wrap_add(days, date_wrap_mul(delta, 7));
    case DATE_UNIT_MONTH: return date_add_months_day(days, delta);
    case DATE_UNIT_QUARTER: return date_add_months_day(days, date_wrap_mul(delta, 3));
    default: return date_add_years_day(days, delta);
    }
}

/* The same wall-clock time `delta` units later (seconds). */
static int64_t date_step_instant(const ty_tz *tz, date_unit unit, int64_t t, int64_t delta) {
    int64_t local = date_local_seconds(tz, t);
    int64_t days = date_floor_div(local, 86400);
    int64_t target = date_step_days(unit, days, delta);
    target = date_clamp(target, DATE_LUT_FIRST_DAY, DATE_LUT_LAST_DAY);
    return ty_tz_local_to_utc(tz, target * 86400 + (local - days * 86400));
}

static int64_t date_unit_seconds(date_unit unit) {
    return unit == DATE_UNIT_HOUR ? 3600 : (unit == DATE_UNIT_MINUTE ? 60 : 1);
}

/* One row of add<unit>(v, delta) for input kind in->kind. */
static int64_t date_add_one(const date_input *in, date_unit unit, int64_t v, int64_t delta) {
    bool sub_day = unit <= DATE_UNIT_HOUR;
    int64_t step = date_wrap_mul(delta, date_unit_seconds(unit));
    switch (in->kind) {
    case TY_DATE:
        if (sub_day) return date_wrap_add(date_day_start_unsigned(in->tz, v), step);
        if (unit <= DATE_UNIT_WEEK)
            return date_clamp(date_step_days(unit, v, delta), 0, DATE_DAYS_MAX);
        /* Months and years: below 1970 sticks to 0, above 2149 wraps. */
        return (uint16_t)MU_MAX(date_step_days(unit, v, delta), 0);
    case TY_DATE32:
        if (sub_day) return date_wrap_mul(date_wrap_add(date_day_start(in->tz, v), step), 1000);
        if (unit <= DATE_UNIT_WEEK)
            return MU_MAX(date_step_days(unit, v, delta), DATE_LUT_FIRST_DAY);
        return date_step_days(unit, v, delta);
    case TY_DATETIME: {
        if (sub_day) return date_wrap_add(v, step);
        int64_t r = date_step_instant(in->tz, unit, v, delta);
        return unit >= DATE_UNIT_MONTH && r < 0 ? 0 : r;
    }
    default: {
        if (sub_day) return date_wrap_add(v, date_wrap_mul(step, in->scale));
        int64_t whole = v / in->scale, fraction = v % in->scale;
        int64_t r = date_step_instant(in->tz, unit, whole, delta);
        return date_wrap_add(date_wrap_mul(r, in->scale), fraction);
    }
    }
}

typedef struct date_add_state {
    date_input in;
    date_unit unit;
    int8_t sign;
    uint32_t time_index;  /* argument positions */
    uint32_t delta_index;
} date_add_state;

/* The delta column as Int64, ClickHouse's "Numeric overflow" when a value
 * does not fit. */
static int date_load_delta(const exec_call *call, const exec_arg *a, uint32_t rows,
                           int64_t *out, mu_err *err) {
    const ty_type *t = ty_type_strip_nullable(a->column->type);
    if (exec_type_is_float(t)) {
        double *f = exec__scratch(rows, sizeof(*f), err);
        if (f == NULL) return err->code;
        exec__load_f64(a, rows, f);
        for (uint32_t i = 0; i < rows; i++) {
            bool ok = f[i] > -9223372036854775808.0 && f[i] < 9223372036854775808.0;
            if (!ok && !exec_arg_is_null_row(a, i)) {
                free(f);
                return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Numeric overflow in function %s",
                              call->function->name);
            }
            out[i] = ok ? (int64_t)f[i] : 0;
        }
        free(f);
        return 0;
    }
    exec__load_i64(a, rows, out);
    if (t->kind != TY_UINT64) return 0;
    for (uint32_t i = 0; i < rows; i++)
        if (out[i] < 0 && !exec_arg_is_null_row(a, i))
            return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Numeric overflow in function %s",
                          call->function->name);
    return 0;
}

static int date_kernel_add(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    const date_add_state *st = call->state;
    MU_ASSERT(st != NULL && st->time_index < call->arg_count && st->delta_index < call->arg_count);
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    int64_t *delta = v ? exec__scratch(rows, sizeof(*delta), err) : NULL;
    int rc = delta ? 0 : err->code;
    if (rc == 0) rc = date_load_delta(call, &args[st->delta_index], rows, delta, err);
    if (rc == 0) {
        exec__load_i64(&args[st->time_index], rows, v);
        for (uint32_t i = 0; i < rows; i++) {
            int64_t d = st->sign > 0 ? delta[i] : date_wrap_mul(delta[i], -1);
            v[i] = date_add_one(&st->in, st->unit, v[i], d);
        }
        rc = exec__store_i64(out, v, rows, err);
    }
    free(v);
    free(delta);
    return rc;
}

/* Result type of add<unit> on kind: Date stays Date for days and longer
 * and becomes DateTime for shorter steps; Date32 becomes DateTime64(3). */
static int date_add_result(exec_call *call, mu_arena *arena, const date_add_state *st,
                           const char *zone_name, mu_err *err) {
    const ty_type *t = call->arg_types[st->time_index];
    bool sub_day = st->unit <= DATE_UNIT_HOUR;
    switch (t->kind) {
    case TY_DATE:
        if (!sub_day) {
            call->result_type = ty_type_builtin(TY_DATE);
            return 0;
        }
        return exec__date_type_datetime(arena, zone_name, st->in.tz, &call->result_type, err);
    case TY_DATE32:
        if (!sub_day) {
            call->result_type = ty_type_builtin(TY_DATE32);
            return 0;
        }
        return exec__date_type_datetime64(arena, 3, zone_name, st->in.tz, &call->result_type,
                                          err);
    case TY_DATETIME:
        return exec__date_type_datetime(arena, zone_name, st->in.tz, &call->result_type, err);
    default:
        return exec__date_type_datetime64(arena, t->precision, zone_name, st->in.tz,
                                          &call->result_type, err);
    }
}

static int date_add_bind_common(exec_call *call, mu_arena *arena, date_unit unit, int sign,
                                uint32_t time_index, uint32_t delta_index, int tz_index,
                                mu_err *err) {
    date_add_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->unit = unit;
    st->sign = (int8_t)sign;
    st->time_index = time_index;
    st->delta_index = delta_index;
    const ty_type *t = call->arg_types[time_index];
    st->in.kind = t->kind;
    st->in.scale = t->kind == TY_DATETIME64 ? date_pow10(t->precision) : 1;
    st->in.tz = date_kind_is_day(t->kind) ? exec__date_session_zone(call) : ty_type_timezone(t);
    const char *zone_name = (t->kind == TY_DATETIME || t->kind == TY_DATETIME64)
                                ? t->timezone_name : NULL;
    if (tz_index >= 0) {
        int rc = exec__date_zone_arg(call, (uint32_t)tz_index, arena, &st->in.tz, &zone_name,
                                     err);
        if (rc != 0) return rc;
    }
    call->state = st;
    call->kernel = date_kernel_add;
    return date_add_result(call, arena, st, zone_name, err);
}

/* addSeconds(t, n[, 'tz']) .. subtractYears. */
static int date_bind_add(exec_call *call, mu_arena *arena, mu_err *err) {
    const date_fn *d = date_fn_of(call);
    const char *name = call->function->name;
    char tn[128];
    if (call->arg_count != 2 && call->arg_count != 3)
        return exec__error_arg_count(call, "2 or 3", err);
    const ty_type *delta = call->arg_types[1];
    if (!exec_type_is_integer(delta) && !exec_type_is_float(delta))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Second argument for function %s (delta) must be number", name);
    ty_kind k = call->arg_types[0]->kind;
    if (call->arg_count == 2 && !date_kind_is_time(k))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of first argument of function %s. Should be a date or a "
                      "date with time",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)), name);
    if (call->arg_count == 3 && (k != TY_DATETIME || call->arg_types[2]->kind != TY_STRING))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Function %s supports 2 or 3 arguments. The 1st argument must be of type "
                      "Date or DateTime. The 2nd argument must be number. The 3rd argument "
                      "(optional) must be a constant string with timezone name. The timezone "
                      "argument is allowed only when the 1st argument has the type DateTime",
                      name);
    return date_add_bind_common(call, arena, (date_unit)d->op, d->sign, 0, 1,
                                call->arg_count == 3 ? 2 : -1, err);
}

/* date_add('unit', n, t) and date_add(t, n, 'unit'), likewise date_sub,
 * timestamp_add and timestamp_sub: ClickHouse's parser turns them into
 * t + INTERVAL n unit. */
static int date_bind_date_add(exec_call *call, mu_arena *arena, mu_err *err) {
    const date_fn *d = date_fn_of(call);
    const char *name = call->function->name;
    char tn[128];
    if (call->arg_count != 3) return exec__error_arg_count(call, "3", err);
    bool unit_first = call->arg_types[0]->kind == TY_STRING;
    uint32_t unit_index = unit_first ? 0 : 2, time_index = unit_first ? 2 : 0;
    const char *text;
    size_t bytes;
    if (!exec__const_string(call, unit_index, &text, &bytes))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Function %s expects a constant unit string, the number of units and a "
                      "date or a date with time",
                      name);
    date_unit unit = date_unit_find(date_interval_units, MU_ARRAY_LEN(date_interval_units),
                                    text, bytes);
    if (unit == DATE_UNIT_NONE)
        return MU_ERR(err, MU_EINVAL, "Unknown interval unit '%s' of function %s",
                      date_unit_text(text, bytes, tn, 64), name);
    const ty_type *delta = call->arg_types[1];
    if (!exec_type_is_integer(delta) && !exec_type_is_float(delta))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Second argument for function %s (delta) must be number", name);
    if (!date_kind_is_time(call->arg_types[time_index]->kind))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Should be a date or a date "
                      "with time",
                      ty_type_name(call->arg_types[time_index], tn, sizeof(tn)), name);
    return date_add_bind_common(call, arena, unit, d->sign, time_index, 1, -1, err);
}

/* ------------------------------------------------------------------ */
/* dateDiff('unit', a, b[, 'tz'])                                      */
/* ------------------------------------------------------------------ */

typedef struct date_diff_state {
    date_input a;
    date_input b;
    date_unit unit;
    bool full_units;  /* age(): whole units only */
} date_diff_state;

/* A value's calendar fields from the unit below a year downward, for
 * age(): month, day, hour, minute, second, then the fraction as ClickHouse
 * splits it into milli-, micro- and nanoseconds (DateTime64 read with its
 * fraction counted forward from the second before). */
typedef struct date_age_parts {
    int64_t field[9]; /* month, day, hour, minute, second, ms, us, ns; [8]: weekday */
} date_age_parts;

static void date_age_parts_of(const date_input *in, int64_t v, date_age_parts *p) {
    int64_t fraction = 0;
    date_input whole_in = *in;
    if (in->kind == TY_DATETIME64) {
        int64_t whole = date_floor_div(v, in->scale);
        fraction = v - whole * in->scale;
        whole_in.kind = TY_DATETIME;
        v = whole;
    }
    date_civil c;
    date_civil_of(&whole_in, v, &c);
    int64_t ms_div = MU_MAX(1000 * in->scale / 1000000, 1), ns_div = MU_MAX(in->scale / 1000000, 1);
    int64_t f[9] = {c.month, c.day, c.second / 3600, c.second / 60 % 60, c.second % 60,
                    fraction / ms_div, fraction % ms_div / ns_div, fraction % ns_div,
                    date_iso_weekday(c.days)};
    memcpy(p->field, f, sizeof(f));
}

/* age(): the boundary count of dateDiff, less one when the later value's
 * remaining fields have not yet reached the earlier one's. */
static int64_t date_age_adjust(const date_diff_state *st, int64_t x, int64_t y, int64_t res) {
    /* The first field compared for each unit (weeks: the weekday, then time). */
    static const int8_t first_field[] = {
        [DATE_UNIT_NANOSECOND] = 8, [DATE_UNIT_MICROSECOND] = 7, [DATE_UNIT_MILLISECOND] = 6,
        [DATE_UNIT_SECOND] = 5,     [DATE_UNIT_MINUTE] = 4,      [DATE_UNIT_HOUR] = 3,
        [DATE_UNIT_DAY] = 2,        [DATE_UNIT_WEEK] = -1,       [DATE_UNIT_MONTH] = 1,
        [DATE_UNIT_QUARTER] = 0,    [DATE_UNIT_YEAR] = 0,
    };
    if (st->unit == DATE_UNIT_NANOSECOND) return res;
    bool forward = date_relative(&st->a, DATE_UNIT_NANOSECOND, x, true) <=
                   date_relative(&st->b, DATE_UNIT_NANOSECOND, y, true);
    date_age_parts pa, pb;
    date_age_parts_of(forward ? &st->a : &st->b, forward ? x : y, &pa);
    date_age_parts_of(forward ? &st->b : &st->a, forward ? y : x, &pb);
    if (st->unit == DATE_UNIT_QUARTER) {
        pa.field[0] = (pa.field[0] - 1) % 3;
        pb.field[0] = (pb.field[0] - 1) % 3;
    }
    int first = first_field[st->unit];
    if (first < 0) { /* weeks: the weekday first, then the time of day */
        if (pa.field[8] > pb.field[8]) return date_wrap_add(res, forward ? -1 : 1);
        if (pa.field[8] < pb.field[8]) return res;
        first = 2;
    }
    for (int i = first; i < 8; i++) {
        if (pa.field[i] > pb.field[i]) return date_wrap_add(res, forward ? -1 : 1);
        if (pa.field[i] < pb.field[i]) break;
    }
    return res;
}

static int date_kernel_diff(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    const date_diff_state *st = call->state;
    MU_ASSERT(st != NULL && call->arg_count >= 3);
    int64_t *a = exec__scratch(rows, sizeof(*a), err);
    int64_t *b = a ? exec__scratch(rows, sizeof(*b), err) : NULL;
    if (b == NULL) {
        free(a);
        return err->code;
    }
    exec__load_i64(&args[1], rows, a);
    exec__load_i64(&args[2], rows, b);
    for (uint32_t i = 0; i < rows; i++) {
        int64_t res = (int64_t)((uint64_t)date_relative(&st->b, st->unit, b[i], true) -
                                (uint64_t)date_relative(&st->a, st->unit, a[i], true));
        a[i] = st->full_units ? date_age_adjust(st, a[i], b[i], res) : res;
    }
    int rc = exec__store_i64(out, a, rows, err);
    free(a);
    free(b);
    return rc;
}

static int date_diff_side(const exec_call *call, uint32_t index, const ty_tz *zone,
                          date_input *in) {
    const ty_type *t = call->arg_types[index];
    in->kind = t->kind;
    in->scale = t->kind == TY_DATETIME64 ? date_pow10(t->precision) : 1;
    in->tz = zone ? zone
                  : (date_kind_is_day(t->kind) ? exec__date_session_zone(call)
                                               : ty_type_timezone(t));
    date_input_zone_traits(in, false); /* dateDiff's hours ignore whole_hours */
    return 0;
}

static int date_bind_diff(exec_call *call, mu_arena *arena, mu_err *err) {
    static const char *const arg_names[] = {"unit", "startdate", "enddate", "timezone"};
    const char *name = call->function->name;
    char tn[128];
    if (call->arg_count != 3 && call->arg_count != 4)
        return exec__error_arg_count(call, "3 or 4", err);
    for (uint32_t i = 0; i < call->arg_count; i++) {
        bool ok = (i == 1 || i == 2) ? date_kind_is_time(call->arg_types[i]->kind)
                                     : call->arg_types[i]->kind == TY_STRING;
        if (!ok)
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type %s of argument #%u '%s' of function %s, expected %s",
                          ty_type_name(call->arg_types[i], tn, sizeof(tn)), i + 1, arg_names[i],
                          name, (i == 1 || i == 2) ? "Date[32] or DateTime[64]" : "String");
    }
    const char *text;
    size_t bytes;
    if (!exec__const_string(call, 0, &text, &bytes))
        return MU_ERR(err, MU_EILLEGAL_COLUMN,
                      "First argument for function %s must be constant String", name);
    date_diff_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->unit = date_unit_find(date_diff_units, MU_ARRAY_LEN(date_diff_units), text, bytes);
    if (st->unit == DATE_UNIT_NONE)
        return MU_ERR(err, MU_EINVAL, "Function %s does not support '%s' unit", name,
                      date_unit_text(text, bytes, tn, 64));
    const ty_tz *zone = NULL;
    if (call->arg_count == 4) {
        int rc = exec__date_zone_arg(call, 3, arena, &zone, NULL, err);
        if (rc != 0) return rc;
    }
    date_diff_side(call, 1, zone, &st->a);
    date_diff_side(call, 2, zone, &st->b);
    st->full_units = date_fn_of(call)->sign != 0;
    call->state = st;
    call->kernel = date_kernel_diff;
    call->result_type = ty_type_builtin(TY_INT64);
    return 0;
}

/* ------------------------------------------------------------------ */
/* now, now64, today, yesterday, timezone                              */
/* ------------------------------------------------------------------ */

typedef struct date_now_state {
    int64_t value;        /* what every row gets */
    const char *text;     /* timezone(): the zone's name */
} date_now_state;

static int date_kernel_now(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    (void)args;
    const date_now_state *st = call->state;
    if (st->text != NULL) {
        for (uint32_t i = 0; i < rows; i++) {
            int rc = ty_column_append_bytes(out, st->text, strlen(st->text), err);
            if (rc != 0) return rc;
        }
        return 0;
    }
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    for (uint32_t i = 0; i < rows; i++) v[i] = st->value;
    int rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

static date_now_state *date_now_state_new(exec_call *call, mu_arena *arena, mu_err *err) {
    date_now_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return NULL;
    call->state = st;
    call->kernel = date_kernel_now;
    return st;
}

static int date_bind_now(exec_call *call, mu_arena *arena, mu_err *err) {
    char tn[128];
    if (call->arg_count > 1) return exec__error_arg_count(call, "0 or 1", err);
    if (call->arg_count == 1 && call->arg_types[0]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Expected const String.",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)), call->function->name);
    date_now_state *st = date_now_state_new(call, arena, err);
    if (st == NULL) return err->code;
    st->value = date_floor_div(exec__date_now_us(call), 1000000);
    const ty_tz *tz = NULL;
    const char *zone_name = NULL;
    if (call->arg_count == 1) {
        int rc = exec__date_zone_arg(call, 0, arena, &tz, &zone_name, err);
        if (rc != 0) return rc;
    }
    return exec__date_type_datetime(arena, zone_name, tz, &call->result_type, err);
}

static int date_bind_now64(exec_call *call, mu_arena *arena, mu_err *err) {
    char tn[128];
    if (call->arg_count > 2) return exec__error_arg_count(call, "0, 1 or 2", err);
    int64_t precision = 3;
    if (call->arg_count >= 1) {
        if (!exec_type_is_integer(call->arg_types[0]) || !exec__const_i64(call, 0, &precision))
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type %s of argument of function %s. Expected const integer.",
                          ty_type_name(call->arg_types[0], tn, sizeof(tn)), call->function->name);
        if (precision < 0 || precision > TY_DATETIME64_PRECISION_MAX)
            return MU_ERR(err, MU_EOUT_OF_BOUND,
                          "Scale %lld is too large for DateTime64. Maximum is up to 9.",
                          (long long)precision);
    }
    if (call->arg_count == 2 && call->arg_types[1]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Expected const String.",
                      ty_type_name(call->arg_types[1], tn, sizeof(tn)), call->function->name);
    date_now_state *st = date_now_state_new(call, arena, err);
    if (st == NULL) return err->code;
    int64_t us = exec__date_now_us(call);
    st->value = precision >= 6 ? us * date_pow10((unsigned)precision - 6)
                               : date_floor_div(us, date_pow10(6 - (unsigned)precision));
    const ty_tz *tz = NULL;
    const char *zone_name = NULL;
    if (call->arg_count == 2) {
        int rc = exec__date_zone_arg(call, 1, arena, &tz, &zone_name, err);
        if (rc != 0) return rc;
    }
    return exec__date_type_datetime64(arena, (unsigned)precision, zone_name, tz,
                                      &call->result_type, err);
}

/* today() and yesterday(): the session zone's current date. */
static int date_bind_today(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count != 0) return exec__error_arg_count(call, "0", err);
    date_now_state *st = date_now_state_new(call, arena, err);
    if (st == NULL) return err->code;
    const ty_tz *tz = exec__date_session_zone(call);
    int64_t t = date_floor_div(exec__date_now_us(call), 1000000);
    st->value = date_floor_div(date_local_seconds(tz, t), 86400) - date_fn_of(call)->op;
    call->result_type = ty_type_builtin(TY_DATE);
    return 0;
}

static int date_bind_timezone(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count != 0) return exec__error_arg_count(call, "0", err);
    date_now_state *st = date_now_state_new(call, arena, err);
    if (st == NULL) return err->code;
    st->text = ty_tz_name(exec__date_session_zone(call));
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

/* ------------------------------------------------------------------ */
/* toUnixTimestamp(t | string | number[, 'tz'])                        */
/* ------------------------------------------------------------------ */

typedef struct date_unix_state {
    date_state base;          /* DateTime, DateTime64 and numbers */
    const ty_type *text_type; /* strings: DateTime('zone') to parse with */
} date_unix_state;

/* ClickHouse's codes for a String that is not a DateTime: one that starts
 * with a date, a date and time or a Unix timestamp and goes on is
 * incompletely parsed (CANNOT_PARSE_TEXT); anything else is
 * CANNOT_PARSE_DATETIME. err holds the reader's message. */
static int date_unix_text_error(const ty_type *type, const char *s, size_t n, mu_err *err) {
    size_t digits = 0;
    while (digits < n && s[digits] >= '0' && s[digits] <= '9') digits++;
    const size_t prefixes[3] = {19, 10, digits};
    int code = MU_EPARSE_DATETIME;
    for (size_t i = 0; i < MU_ARRAY_LEN(prefixes); i++) {
        uint32_t seconds;
        mu_err ignored;
        if (prefixes[i] > 0 && prefixes[i] < n &&
            ty_value_parse(type, s, prefixes[i], &seconds, &ignored) == 0)
            code = MU_EPARSE;
    }
    err->code = code;
    return code;
}

static int date_kernel_unix_text(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    const date_unix_state *st = call->state;
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        uint32_t seconds = 0;
        size_t bytes;
        const char *s = exec_get_str(args[0].column, exec_arg_row(&args[0], i), &bytes);
        while (args[0].column->type->kind != TY_STRING && bytes > 0 && s[bytes - 1] == 0) bytes--;
        if (!exec_arg_is_null_row(&args[0], i) &&
            ty_value_parse(st->text_type, s, bytes, &seconds, err) != 0)
            rc = date_unix_text_error(st->text_type, s, bytes, err);
        v[i] = seconds;
    }
    if (rc == 0) rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

static int date_bind_unix_timestamp(exec_call *call, mu_arena *arena, mu_err *err) {
    char tn[128];
    if (call->arg_count < 1 || call->arg_count > 2)
        return exec__error_arg_count(call, "1 or 2", err);
    const ty_type *t = call->arg_types[0];
    if (date_kind_is_day(t->kind))
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal type %s of first argument of function %s",
                      ty_type_name(t, tn, sizeof(tn)), call->function->name);
    if (!exec_type_is_string(t) && t->kind != TY_DATETIME && t->kind != TY_DATETIME64 &&
        !exec_type_is_integer(t) && !exec_type_is_float(t))
        return exec__error_arg_type(call, 0, err);
    if (call->arg_count == 2 && call->arg_types[1]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of 2nd argument of function %s",
                      ty_type_name(call->arg_types[1], tn, sizeof(tn)), call->function->name);
    date_unix_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    call->state = st;
    call->result_type = ty_type_builtin(TY_UINT32);
    st->base.op = DATE_OP_UNIX_TIMESTAMP;
    st->base.in.kind = t->kind;
    st->base.in.scale = t->kind == TY_DATETIME64 ? date_pow10(t->precision) : 1;
    if (!exec_type_is_string(t)) {
        call->kernel = date_kernel_unary;
        if (call->arg_count == 2) /* checked, then ignored, as ClickHouse */
            return exec__date_zone_arg(call, 1, arena, &st->base.in.tz, NULL, err);
        return 0;
    }
    const ty_tz *tz = exec__date_session_zone(call);
    const char *zone_name = ty_tz_name(tz);
    if (call->arg_count == 2) {
        int rc = exec__date_zone_arg(call, 1, arena, &tz, &zone_name, err);
        if (rc != 0) return rc;
    }
    call->kernel = date_kernel_unix_text;
    return exec__date_type_datetime(arena, zone_name, tz, &st->text_type, err);
}

/* ------------------------------------------------------------------ */
/* toTimeZone, timezoneOf, toUnixTimestamp64*, fromUnixTimestamp64*    */
/* ------------------------------------------------------------------ */

/* The values unchanged (the result type carries another zone). */
static int date_kernel_copy(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    (void)call;
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_i64(&args[0], rows, v);
    int rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

/* toTimeZone(t, 'zone') (toTimezone): DateTime[64] in another zone. */
static int date_bind_to_timezone(exec_call *call, mu_arena *arena, mu_err *err) {
    char tn[128];
    if (call->arg_count != 2) return exec__error_arg_count(call, "2", err);
    const ty_type *t = call->arg_types[0];
    if (t->kind != TY_DATETIME && t->kind != TY_DATETIME64)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Should be DateTime or "
                      "DateTime64",
                      ty_type_name(t, tn, sizeof(tn)), call->function->name);
    const ty_tz *tz;
    const char *zone_name;
    int rc = exec__date_zone_arg(call, 1, arena, &tz, &zone_name, err);
    if (rc != 0) return rc;
    call->kernel = date_kernel_copy;
    if (t->kind == TY_DATETIME)
        return exec__date_type_datetime(arena, zone_name, tz, &call->result_type, err);
    return exec__date_type_datetime64(arena, t->precision, zone_name, tz, &call->result_type,
                                      err);
}

/* timezoneOf(t): the zone t's type reads its values in; NULLs too. */
static int date_bind_timezone_of(exec_call *call, mu_arena *arena, mu_err *err) {
    char tn[128];
    if (call->arg_count != 1) return exec__error_arg_count(call, "1", err);
    const ty_type *t = ty_type_strip_nullable(call->arg_types[0]);
    if (t->kind != TY_DATETIME && t->kind != TY_DATETIME64)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument of function %s. Should be DateTime or "
                      "DateTime64",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)), call->function->name);
    date_now_state *st = date_now_state_new(call, arena, err);
    if (st == NULL) return err->code;
    st->text = t->timezone_name != NULL ? t->timezone_name : ty_tz_name(ty_type_timezone(t));
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

typedef struct date_unix64_state {
    int64_t factor;  /* multiply by (> 0) or divide by (< 0) */
} date_unix64_state;

static int date_kernel_to_unix64(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    const date_unix64_state *st = call->state;
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_i64(&args[0], rows, v);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        if (st->factor < 0) {
            v[i] /= -st->factor;
        } else if (__builtin_mul_overflow(v[i], st->factor, &v[i])) {
            if (!exec_arg_is_null_row(&args[0], i))
                rc = MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal overflow in %s",
                            call->function->name);
            v[i] = 0;
        }
    }
    if (rc == 0) rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

/* toUnixTimestamp64{Second,Milli,Micro,Nano}(DateTime64) -> Int64. */
static int date_bind_to_unix64(exec_call *call, mu_arena *arena, mu_err *err) {
    unsigned target = date_fn_of(call)->op;
    if (call->arg_count != 1) return exec__error_arg_count(call, "1", err);
    const ty_type *t = call->arg_types[0];
    if (t->kind != TY_DATETIME64)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "The only argument for function %s must be DateTime64",
                      call->function->name);
    date_unix64_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->factor = t->precision >= target ? -date_pow10(t->precision - target)
                                        : date_pow10(target - t->precision);
    if (st->factor == -1) st->factor = 1;
    call->state = st;
    call->kernel = date_kernel_to_unix64;
    call->result_type = ty_type_builtin(TY_INT64);
    return 0;
}

/* fromUnixTimestamp64{Second,Milli,Micro,Nano}(integer[, 'zone']): the
 * integer taken as ticks of DateTime64(0|3|6|9[, zone]). */
static int date_bind_from_unix64(exec_call *call, mu_arena *arena, mu_err *err) {
    unsigned target = date_fn_of(call)->op;
    if (call->arg_count < 1 || call->arg_count > 2)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s takes one or two arguments",
                      call->function->name);
    if (!exec_type_is_integer(call->arg_types[0]))
        return MU_ERR(err, MU_EILLEGAL_TYPE, "The first argument for function %s must be integer",
                      call->function->name);
    const ty_tz *tz = NULL;
    const char *zone_name = NULL;
    if (call->arg_count == 2) {
        int rc = exec__date_zone_arg(call, 1, arena, &tz, &zone_name, err);
        if (rc != 0) return rc;
    }
    call->kernel = date_kernel_copy;
    return exec__date_type_datetime64(arena, target, zone_name, tz, &call->result_type, err);
}

/* ------------------------------------------------------------------ */
/* Registry                                                            */
/* ------------------------------------------------------------------ */

#define DATE_SIMPLE(var, fname, opcode)                                                     \
    static const date_fn var = {{fname, 0, date_bind_simple}, opcode, 0, 0}
/* ClickHouse's MySQL-style aliases (YEAR, DAYOFMONTH, ...) match any case. */
#define DATE_SIMPLE_CI(var, fname, opcode)                                                  \
    static const date_fn var = {{fname, EXEC_FN_CASE_INSENSITIVE, date_bind_simple}, opcode, 0, 0}
#define DATE_WEEK_MODE(var, fname, flags, opcode)                                           \
    static const date_fn var = {{fname, flags, date_bind_week_mode}, opcode, 0, 0}
#define DATE_UNIX64(var, fname, bind, scale)                                                \
    static const date_fn var = {{fname, 0, bind}, scale, 0, 0}
#define DATE_MINUTES(var, fname, count)                                                     \
    static const date_fn var = {{fname, 0, date_bind_simple}, DATE_OP_START_MINUTES, 0, count}
#define DATE_ADD(var, fname, unit, sign)                                                    \
    static const date_fn var = {{fname, 0, date_bind_add}, unit, sign, 0}
#define DATE_ADD_SQL(var, fname, sign)                                                      \
    static const date_fn var = {                                                            \
        {fname, EXEC_FN_CASE_INSENSITIVE, date_bind_date_add}, DATE_UNIT_NONE, sign, 0}
#define DATE_DIFF(var, fname, full_units)                                                   \
    static const date_fn var = {                                                            \
        {fname, EXEC_FN_CASE_INSENSITIVE, date_bind_diff}, 0, full_units, 0}

DATE_SIMPLE(date_to_year, "toYear", DATE_OP_YEAR);
DATE_SIMPLE(date_to_quarter, "toQuarter", DATE_OP_QUARTER);
DATE_SIMPLE(date_to_month, "toMonth", DATE_OP_MONTH);
DATE_SIMPLE(date_to_day_of_year, "toDayOfYear", DATE_OP_DAY_OF_YEAR);
DATE_SIMPLE(date_to_day_of_month, "toDayOfMonth", DATE_OP_DAY_OF_MONTH);
DATE_SIMPLE(date_to_hour, "toHour", DATE_OP_HOUR);
DATE_SIMPLE(date_to_minute, "toMinute", DATE_OP_MINUTE);
DATE_SIMPLE(date_to_second, "toSecond", DATE_OP_SECOND);
DATE_SIMPLE(date_to_yyyymm, "toYYYYMM", DATE_OP_YYYYMM);
DATE_SIMPLE(date_to_yyyymmdd, "toYYYYMMDD", DATE_OP_YYYYMMDD);
DATE_SIMPLE(date_to_yyyymmddhhmmss, "toYYYYMMDDhhmmss", DATE_OP_YYYYMMDDHHMMSS);
DATE_SIMPLE(date_rel_day, "toRelativeDayNum", DATE_OP_REL_DAY);
DATE_SIMPLE(date_rel_hour, "toRelativeHourNum", DATE_OP_REL_HOUR);
DATE_SIMPLE(date_rel_minute, "toRelativeMinuteNum", DATE_OP_REL_MINUTE);
DATE_SIMPLE(date_rel_second, "toRelativeSecondNum", DATE_OP_REL_SECOND);
DATE_SIMPLE(date_start_month, "toStartOfMonth", DATE_OP_START_MONTH);
DATE_SIMPLE(date_start_quarter, "toStartOfQuarter", DATE_OP_START_QUARTER);
DATE_SIMPLE(date_start_year, "toStartOfYear", DATE_OP_START_YEAR);
DATE_SIMPLE(date_monday, "toMonday", DATE_OP_MONDAY);
DATE_SIMPLE(date_start_day, "toStartOfDay", DATE_OP_START_DAY);
DATE_SIMPLE(date_start_hour, "toStartOfHour", DATE_OP_START_HOUR);
DATE_MINUTES(date_start_minute, "toStartOfMinute", 1);
DATE_MINUTES(date_start_five, "toStartOfFiveMinutes", 5);
DATE_MINUTES(date_start_five_alias, "toStartOfFiveMinute", 5);
DATE_MINUTES(date_start_ten, "toStartOfTenMinutes", 10);
DATE_MINUTES(date_start_fifteen, "toStartOfFifteenMinutes", 15);

DATE_SIMPLE(date_iso_week_fn, "toISOWeek", DATE_OP_ISO_WEEK);
DATE_SIMPLE(date_iso_year_fn, "toISOYear", DATE_OP_ISO_YEAR);
DATE_SIMPLE(date_start_iso_year, "toStartOfISOYear", DATE_OP_START_ISO_YEAR);
DATE_SIMPLE(date_last_day_month, "toLastDayOfMonth", DATE_OP_LAST_DAY_MONTH);
DATE_SIMPLE(date_tz_offset, "timezoneOffset", DATE_OP_TZ_OFFSET);
DATE_SIMPLE(date_tz_offset2, "timeZoneOffset", DATE_OP_TZ_OFFSET);
DATE_SIMPLE(date_rel_year, "toRelativeYearNum", DATE_OP_REL_YEAR);
DATE_SIMPLE(date_rel_quarter, "toRelativeQuarterNum", DATE_OP_REL_QUARTER);
DATE_SIMPLE(date_rel_month, "toRelativeMonthNum", DATE_OP_REL_MONTH);
DATE_SIMPLE(date_rel_week, "toRelativeWeekNum", DATE_OP_REL_WEEK);
DATE_SIMPLE_CI(date_alias_year, "YEAR", DATE_OP_YEAR);
DATE_SIMPLE_CI(date_alias_quarter, "QUARTER", DATE_OP_QUARTER);
DATE_SIMPLE_CI(date_alias_month, "MONTH", DATE_OP_MONTH);
DATE_SIMPLE_CI(date_alias_day, "DAY", DATE_OP_DAY_OF_MONTH);
DATE_SIMPLE_CI(date_alias_day_of_month, "DAYOFMONTH", DATE_OP_DAY_OF_MONTH);
DATE_SIMPLE_CI(date_alias_day_of_year, "DAYOFYEAR", DATE_OP_DAY_OF_YEAR);
DATE_SIMPLE_CI(date_alias_hour, "HOUR", DATE_OP_HOUR);
DATE_SIMPLE_CI(date_alias_minute, "MINUTE", DATE_OP_MINUTE);
DATE_SIMPLE_CI(date_alias_second, "SECOND", DATE_OP_SECOND);
DATE_SIMPLE_CI(date_alias_last_day, "LAST_DAY", DATE_OP_LAST_DAY_MONTH);

DATE_WEEK_MODE(date_day_of_week, "toDayOfWeek", 0, DATE_OP_DAY_OF_WEEK);
DATE_WEEK_MODE(date_alias_day_of_week, "DAYOFWEEK", EXEC_FN_CASE_INSENSITIVE,
               DATE_OP_DAY_OF_WEEK);
DATE_WEEK_MODE(date_start_week, "toStartOfWeek", 0, DATE_OP_START_WEEK);
DATE_WEEK_MODE(date_week, "toWeek", 0, DATE_OP_WEEK);
DATE_WEEK_MODE(date_alias_week, "week", EXEC_FN_CASE_INSENSITIVE, DATE_OP_WEEK);
DATE_WEEK_MODE(date_year_week_fn, "toYearWeek", 0, DATE_OP_YEAR_WEEK);
DATE_WEEK_MODE(date_alias_year_week, "yearweek", EXEC_FN_CASE_INSENSITIVE, DATE_OP_YEAR_WEEK);

static const date_fn date_to_timezone = {{"toTimeZone", 0, date_bind_to_timezone}, 0, 0, 0};
static const date_fn date_to_timezone2 = {{"toTimezone", 0, date_bind_to_timezone}, 0, 0, 0};
static const date_fn date_timezone_of = {
    {"timezoneOf", EXEC_FN_NULLS_CUSTOM, date_bind_timezone_of}, 0, 0, 0};
static const date_fn date_timezone_of2 = {
    {"timeZoneOf", EXEC_FN_NULLS_CUSTOM, date_bind_timezone_of}, 0, 0, 0};
DATE_UNIX64(date_to_unix64_s, "toUnixTimestamp64Second", date_bind_to_unix64, 0);
DATE_UNIX64(date_to_unix64_ms, "toUnixTimestamp64Milli", date_bind_to_unix64, 3);
DATE_UNIX64(date_to_unix64_us, "toUnixTimestamp64Micro", date_bind_to_unix64, 6);
DATE_UNIX64(date_to_unix64_ns, "toUnixTimestamp64Nano", date_bind_to_unix64, 9);
DATE_UNIX64(date_from_unix64_s, "fromUnixTimestamp64Second", date_bind_from_unix64, 0);
DATE_UNIX64(date_from_unix64_ms, "fromUnixTimestamp64Milli", date_bind_from_unix64, 3);
DATE_UNIX64(date_from_unix64_us, "fromUnixTimestamp64Micro", date_bind_from_unix64, 6);
DATE_UNIX64(date_from_unix64_ns, "fromUnixTimestamp64Nano", date_bind_from_unix64, 9);
static const date_fn date_start_interval = {
    {"toStartOfInterval", 0, date_bind_start_of_interval}, 0, 0, 0};

DATE_ADD(date_add_seconds, "addSeconds", DATE_UNIT_SECOND, 1);
DATE_ADD(date_add_minutes, "addMinutes", DATE_UNIT_MINUTE, 1);
DATE_ADD(date_add_hours, "addHours", DATE_UNIT_HOUR, 1);
DATE_ADD(date_add_days, "addDays", DATE_UNIT_DAY, 1);
DATE_ADD(date_add_weeks, "addWeeks", DATE_UNIT_WEEK, 1);
DATE_ADD(date_add_months, "addMonths", DATE_UNIT_MONTH, 1);
DATE_ADD(date_add_quarters, "addQuarters", DATE_UNIT_QUARTER, 1);
DATE_ADD(date_add_years, "addYears", DATE_UNIT_YEAR, 1);
DATE_ADD(date_sub_seconds, "subtractSeconds", DATE_UNIT_SECOND, -1);
DATE_ADD(date_sub_minutes, "subtractMinutes", DATE_UNIT_MINUTE, -1);
DATE_ADD(date_sub_hours, "subtractHours", DATE_UNIT_HOUR, -1);
DATE_ADD(date_sub_days, "subtractDays", DATE_UNIT_DAY, -1);
DATE_ADD(date_sub_weeks, "subtractWeeks", DATE_UNIT_WEEK, -1);
DATE_ADD(date_sub_months, "subtractMonths", DATE_UNIT_MONTH, -1);
DATE_ADD(date_sub_quarters, "subtractQuarters", DATE_UNIT_QUARTER, -1);
DATE_ADD(date_sub_years, "subtractYears", DATE_UNIT_YEAR, -1);
DATE_ADD_SQL(date_sql_date_add, "date_add", 1);
DATE_ADD_SQL(date_sql_date_add2, "dateAdd", 1);
DATE_ADD_SQL(date_sql_date_sub, "date_sub", -1);
DATE_ADD_SQL(date_sql_date_sub2, "dateSub", -1);
DATE_ADD_SQL(date_sql_ts_add, "timestamp_add", 1);
DATE_ADD_SQL(date_sql_ts_add2, "timestampAdd", 1);
DATE_ADD_SQL(date_sql_ts_sub, "timestamp_sub", -1);
DATE_ADD_SQL(date_sql_ts_sub2, "timestampSub", -1);
DATE_DIFF(date_diff, "dateDiff", 0);
DATE_DIFF(date_diff2, "date_diff", 0);
DATE_DIFF(date_diff3, "timestampDiff", 0);
DATE_DIFF(date_diff4, "timestamp_diff", 0);
DATE_DIFF(date_age, "age", 1);

static const date_fn date_now = {{"now", EXEC_FN_CASE_INSENSITIVE | EXEC_FN_NOT_DETERMINISTIC, date_bind_now}, 0, 0, 0};
static const date_fn date_now64 = {{"now64", EXEC_FN_CASE_INSENSITIVE | EXEC_FN_NOT_DETERMINISTIC, date_bind_now64}, 0, 0, 0};
static const date_fn date_today = {{"today", EXEC_FN_CASE_INSENSITIVE | EXEC_FN_NOT_DETERMINISTIC, date_bind_today}, 0, 0, 0};
static const date_fn date_yesterday = {{"yesterday", EXEC_FN_NOT_DETERMINISTIC, date_bind_today}, 1, 0, 0};
static const date_fn date_timezone = {{"timezone", 0, date_bind_timezone}, 0, 0, 0};
static const date_fn date_timezone2 = {{"timeZone", 0, date_bind_timezone}, 0, 0, 0};
static const date_fn date_unix_timestamp = {
    {"toUnixTimestamp", 0, date_bind_unix_timestamp}, 0, 0, 0};

const exec_function *const exec__functions_date[] = {
    &date_to_year.fn, &date_to_quarter.fn, &date_to_month.fn, &date_to_day_of_year.fn,
    &date_to_day_of_month.fn, &date_day_of_week.fn, &date_to_hour.fn, &date_to_minute.fn,
    &date_to_second.fn, &date_to_yyyymm.fn, &date_to_yyyymmdd.fn, &date_to_yyyymmddhhmmss.fn,
    &date_rel_day.fn, &date_rel_hour.fn, &date_rel_minute.fn, &date_rel_second.fn,
    &date_start_month.fn, &date_start_quarter.fn, &date_start_year.fn, &date_monday.fn,
    &date_start_week.fn, &date_start_day.fn, &date_start_hour.fn, &date_start_minute.fn,
    &date_start_five.fn, &date_start_five_alias.fn, &date_start_ten.fn,
    &date_start_fifteen.fn, &date_start_interval.fn,
    &date_add_seconds.fn, &date_add_minutes.fn, &date_add_hours.fn, &date_add_days.fn,
    &date_add_weeks.fn, &date_add_months.fn, &date_add_quarters.fn, &date_add_years.fn,
    &date_sub_seconds.fn, &date_sub_minutes.fn, &date_sub_hours.fn, &date_sub_days.fn,
    &date_sub_weeks.fn, &date_sub_months.fn, &date_sub_quarters.fn, &date_sub_years.fn,
    &date_sql_date_add.fn, &date_sql_date_add2.fn, &date_sql_date_sub.fn,
    &date_sql_date_sub2.fn, &date_sql_ts_add.fn, &date_sql_ts_add2.fn, &date_sql_ts_sub.fn,
    &date_sql_ts_sub2.fn, &date_diff.fn, &date_diff2.fn, &date_diff3.fn, &date_diff4.fn,
    &date_age.fn,
    &date_now.fn, &date_now64.fn, &date_today.fn, &date_yesterday.fn, &date_timezone.fn,
    &date_timezone2.fn, &date_unix_timestamp.fn,
    &date_iso_week_fn.fn, &date_iso_year_fn.fn, &date_start_iso_year.fn, &date_last_day_month.fn,
    &date_tz_offset.fn, &date_tz_offset2.fn, &date_rel_year.fn, &date_rel_quarter.fn,
    &date_rel_month.fn, &date_rel_week.fn, &date_alias_year.fn, &date_alias_quarter.fn,
    &date_alias_month.fn, &date_alias_day.fn, &date_alias_day_of_month.fn,
    &date_alias_day_of_year.fn, &date_alias_hour.fn, &date_alias_minute.fn,
    &date_alias_second.fn, &date_alias_last_day.fn, &date_alias_day_of_week.fn, &date_week.fn,
    &date_alias_week.fn, &date_year_week_fn.fn, &date_alias_year_week.fn,
    &date_to_timezone.fn, &date_to_timezone2.fn, &date_timezone_of.fn, &date_timezone_of2.fn,
    &date_to_unix64_s.fn, &date_to_unix64_ms.fn, &date_to_unix64_us.fn, &date_to_unix64_ns.fn,
    &date_from_unix64_s.fn, &date_from_unix64_ms.fn, &date_from_unix64_us.fn,
    &date_from_unix64_ns.fn,
    &exec__date_fn_format_datetime, &exec__date_fn_date_format, &exec__date_fn_from_unixtime,
    &exec__date_fn_from_unix_timestamp,
    &exec__date_fn_parse[0], &exec__date_fn_parse[1], &exec__date_fn_parse[2],
    &exec__date_fn_parse[3], &exec__date_fn_parse[4], &exec__date_fn_parse[5],
    &exec__date_fn_parse[6], &exec__date_fn_parse[7], &exec__date_fn_parse[8],
    &exec__date_fn_parse[9], &exec__date_fn_parse[10], &exec__date_fn_parse[11],
    NULL,
};
