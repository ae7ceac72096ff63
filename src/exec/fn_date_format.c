/* fn_date_format.c: date and time text in and out, as ClickHouse does it:
 * formatDateTime (alias DATE_FORMAT) and fromUnixTimestamp (FROM_UNIXTIME)
 * with MySQL-style % specifiers under current ClickHouse's default settings
 * (%M is the month name, %f prints six digits, %c %k %l keep their leading
 * zero, %e has none), and parseDateTime[64]BestEffort[US][OrNull|OrZero]
 * over the types module's best-effort reader (ty_datetime_best_effort,
 * shared with the input formats' date_time_input_format=best_effort). The
 * format string is compiled once at bind time. The functions are registered
 * through fn_date.c's list.
 */
#include "exec/fn_date_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMT_MESSAGE_VALUE_BYTES 64

static int64_t fmt_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t fmt_pow10(unsigned p) {
    int64_t r = 1;
    while (p-- > 0) r *= 10;
    return r;
}

/* Monday = 1 .. Sunday = 7. */
static int64_t fmt_iso_weekday(int64_t days) {
    int64_t r = (days + 3) % 7;
    return (r < 0 ? r + 7 : r) + 1;
}

/* A value quoted for a message as ClickHouse quotes strings, cut short.
 * A character takes at most 4 bytes; "..." and the closing quote 5 more. */
static void fmt_quote(const char *s, size_t n, char *out, size_t out_bytes) {
    MU_ASSERT(out_bytes >= 16);
    size_t o = 0;
    out[o++] = '\'';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o + 10 >= out_bytes) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        if (c == '\'' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c < 0x20) {
            o += (size_t)snprintf(out + o, out_bytes - o, "\\x%02X", c);
        } else {
            out[o++] = (char)c;
        }
    }
    out[o++] = '\'';
    out[o] = 0;
    MU_ASSERT(o < out_bytes);
}

/* ------------------------------------------------------------------ */
/* Format compilation                                                  */
/* ------------------------------------------------------------------ */

typedef enum fmt_kind {
    FMT_LITERAL,
    FMT_YEAR4, FMT_YEAR2, FMT_CENTURY, FMT_ISO_YEAR4, FMT_ISO_YEAR2, FMT_ISO_WEEK,
    FMT_MONTH, FMT_MONTH_SHORT, FMT_MONTH_LONG, FMT_DAY, FMT_DAY_NOPAD, FMT_DAY_OF_YEAR,
    FMT_DATE_US, FMT_DATE_ISO, FMT_WEEKDAY_ISO, FMT_WEEKDAY_SUNDAY0, FMT_WEEKDAY_SHORT,
    FMT_WEEKDAY_LONG, FMT_QUARTER, FMT_OFFSET, FMT_FRACTION,
    FMT_HOUR24, FMT_HOUR12, FMT_MINUTE, FMT_SECOND, FMT_AMPM, FMT_TIME12, FMT_TIME_HM,
    FMT_TIME,
} fmt_kind;

typedef struct fmt_item {
    fmt_kind kind;
    uint32_t offset;  /* FMT_LITERAL: bytes in fmt_program.literals */
    uint32_t bytes;
} fmt_item;

typedef struct fmt_program {
    fmt_item *items;
    uint32_t count;
    char *literals;
    size_t literal_bytes;
    size_t literal_capacity;
    size_t row_bytes_max;  /* longest text one row can produce */
} fmt_program;

typedef struct fmt_spec {
    char c;
    fmt_kind kind;
    uint8_t width;          /* longest output */
    const char *date_text;  /* time fields of a Date print this */
} fmt_spec;

static const fmt_spec fmt_specs[] = {
    {'a', FMT_WEEKDAY_SHORT, 3, NULL},    {'b', FMT_MONTH_SHORT, 3, NULL},
    {'c', FMT_MONTH, 2, NULL},            {'C', FMT_CENTURY, 2, NULL},
    {'d', FMT_DAY, 2, NULL},              {'D', FMT_DATE_US, 8, NULL},
    {'e', FMT_DAY_NOPAD, 2, NULL},        {'f', FMT_FRACTION, 6, NULL},
    {'F', FMT_DATE_ISO, 10, NULL},        {'g', FMT_ISO_YEAR2, 2, NULL},
    {'G', FMT_ISO_YEAR4, 4, NULL},        {'h', FMT_HOUR12, 2, "12"},
    {'H', FMT_HOUR24, 2, "00"},           {'i', FMT_MINUTE, 2, "00"},
    {'I', FMT_HOUR12, 2, "12"},           {'j', FMT_DAY_OF_YEAR, 3, NULL},
    {'k', FMT_HOUR24, 2, "00"},           {'l', FMT_HOUR12, 2, "12"},
    {'m', FMT_MONTH, 2, NULL},            {'M', FMT_MONTH_LONG, 9, NULL},
    {'p', FMT_AMPM, 2, "AM"},             {'Q', FMT_QUARTER, 1, NULL},
    {'r', FMT_TIME12, 8, "12:00 AM"},     {'R', FMT_TIME_HM, 5, "00:00"},
    {'s', FMT_SECOND, 2, "00"},           {'S', FMT_SECOND, 2, "00"},
    {'T', FMT_TIME, 8, "00:00:00"},       {'u', FMT_WEEKDAY_ISO, 1, NULL},
    {'V', FMT_ISO_WEEK, 2, NULL},         {'w', FMT_WEEKDAY_SUNDAY0, 1, NULL},
    {'W', FMT_WEEKDAY_LONG, 9, NULL},     {'y', FMT_YEAR2, 2, NULL},
    {'Y', FMT_YEAR4, 4, NULL},            {'z', FMT_OFFSET, 5, NULL},
    {'n', FMT_LITERAL, 1, "\n"},          {'t', FMT_LITERAL, 1, "\t"},
    {'%', FMT_LITERAL, 1, "%"},
};

static void fmt_add_literal(fmt_program *p, const char *text, size_t bytes) {
    if (bytes == 0) return;
    MU_ASSERT(p->literal_bytes + bytes <= p->literal_capacity);
    fmt_item *it = &p->items[p->count++];
    it->kind = FMT_LITERAL;
    it->offset = (uint32_t)p->literal_bytes;
    it->bytes = (uint32_t)bytes;
    memcpy(p->literals + p->literal_bytes, text, bytes);
    p->literal_bytes += bytes;
    p->row_bytes_max += bytes;
}

static int fmt_spec_error(const exec_call *call, const char *f, size_t n, char c, mu_err *err) {
    switch (c) {
    case 'U': return MU_ERR(err, MU_ENOT_SUPPORTED, "format is not supported for WEEK (Sun-Sat)");
    case 'v': return MU_ERR(err, MU_ENOT_SUPPORTED, "format is not supported for WEEK (Mon-Sun)");
    case 'x':
        return MU_ERR(err, MU_ENOT_SUPPORTED,
                      "format is not supported for YEAR for week (Mon-Sun)");
    case 'X':
        return MU_ERR(err, MU_ENOT_SUPPORTED,
                      "format is not supported for YEAR for week (Sun-Sat)");
    default:
        return MU_ERR(err, MU_EINVAL,
                      "Incorrect syntax '%.*s', symbol is not supported '%c' for function %s",
                      (int)MU_MIN(n, 200), f, c, call->function->name);
    }
}

/* Compiles a format for values of kind `kind` (Date, Date32: time fields
 * print their defaults; %z cannot be read from a day). */
static int fmt_compile(const exec_call *call, const char *f, size_t n, ty_kind kind,
                       mu_arena *arena, fmt_program *p, mu_err *err) {
    bool day_input = kind == TY_DATE || kind == TY_DATE32;
    for (size_t i = 0; i < n; i++) {
        if (f[i] != '%') continue;
        if (i + 1 >= n)
            return MU_ERR(err, MU_EINVAL, "'%%' must not be the last character in the format "
                                          "string, use '%%%%' instead");
        i++;
    }
    /* A specifier of 2 bytes prints at most 8 literal bytes ("12:00 AM"). */
    p->literal_capacity = 4 * n + 1;
    p->items = mu_arena_calloc(arena, n + 1, sizeof(*p->items), err);
    p->literals = mu_arena_alloc(arena, p->literal_capacity, err);
    if (p->items == NULL || p->literals == NULL) return err->code;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (f[i] != '%') continue;
        fmt_add_literal(p, f + start, i - start);
        char c = f[++i];
        start = i + 1;
        const fmt_spec *s = NULL;
        for (size_t k = 0; k < MU_ARRAY_LEN(fmt_specs); k++)
            if (fmt_specs[k].c == c) s = &fmt_specs[k];
        if (s == NULL) return fmt_spec_error(call, f, n, c, err);
        if (s->kind == FMT_LITERAL || (day_input && s->date_text != NULL)) {
            fmt_add_literal(p, s->date_text, strlen(s->date_text));
            continue;
        }
        if (s->kind == FMT_OFFSET && day_input)
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type %s of argument for function timezoneOffset",
                          kind == TY_DATE ? "Date" : "Date32");
        p->items[p->count++] = (fmt_item){.kind = s->kind};
        p->row_bytes_max += s->width;
    }
    fmt_add_literal(p, f + start, n - start);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Formatting one row                                                  */
/* ------------------------------------------------------------------ */

typedef struct fmt_row {
    int64_t days;      /* local day number */
    int64_t second;    /* second of the day */
    int64_t fraction;  /* sub-second ticks, 0 <= fraction < 10^scale */
    unsigned scale;
    int32_t offset;    /* seconds east of UTC */
    int64_t year;
    unsigned month;
    unsigned day;
} fmt_row;

static char *fmt_num(char *o, int64_t v, int width) {
    char tmp[24];
    int n = snprintf(tmp, sizeof(tmp), "%0*lld", width, (long long)v);
    memcpy(o, tmp, (size_t)n);
    return o + n;
}

static char *fmt_text(char *o, const char *s) {
    size_t n = strlen(s);
    memcpy(o, s, n);
    return o + n;
}

/* ISO 8601 week-numbering year and week of a day. */
static void fmt_iso_week(int64_t days, int64_t *year_out, int64_t *week_out) {
    int64_t thursday = days + 4 - fmt_iso_weekday(days), y;
    unsigned m, d;
    ty_civil_from_days(thursday, &y, &m, &d);
    int64_t jan1 = ty_days_from_civil(y, 1, 1);
    int64_t w1 = fmt_iso_weekday(jan1);
    int64_t first_monday = w1 <= 4 ? jan1 - (w1 - 1) : jan1 + (8 - w1);
    *year_out = y;
    *week_out = 1 + (days - fmt_iso_weekday(days) + 1 - first_monday) / 7;
}

static const char *const fmt_weekdays[] = {"Monday", "Tuesday", "Wednesday", "Thursday",
                                           "Friday", "Saturday", "Sunday"};
static const char *const fmt_months[] = {"January", "February", "March", "April",
                                         "May", "June", "July", "August",
                                         "September", "October", "November", "December"};

static char *fmt_date_item(char *o, fmt_kind kind, const fmt_row *r) {
    int64_t iso_year, iso_week;
    switch (kind) {
    case FMT_YEAR4: return fmt_num(o, r->year, 4);
    case FMT_YEAR2: return fmt_num(o, r->year % 100, 2);
    case FMT_CENTURY: return fmt_num(o, r->year / 100, 2);
    case FMT_ISO_YEAR4: fmt_iso_week(r->days, &iso_year, &iso_week); return fmt_num(o, iso_year, 4);
    case FMT_ISO_YEAR2:
        fmt_iso_week(r->days, &iso_year, &iso_week);
        return fmt_num(o, iso_year % 100, 2);
    case FMT_ISO_WEEK: fmt_iso_week(r->days, &iso_year, &iso_week); return fmt_num(o, iso_week, 2);
    case FMT_MONTH: return fmt_num(o, r->month, 2);
    case FMT_MONTH_SHORT: memcpy(o, fmt_months[r->month - 1], 3); return o + 3;
    case FMT_MONTH_LONG: return fmt_text(o, fmt_months[r->month - 1]);
    case FMT_DAY: return fmt_num(o, r->day, 2);
    case FMT_DAY_NOPAD: return fmt_num(o, r->day, 1);
    case FMT_DAY_OF_YEAR: return fmt_num(o, r->days - ty_days_from_civil(r->year, 1, 1) + 1, 3);
    case FMT_DATE_US:
        o = fmt_num(o, r->month, 2);
        *o++ = '/';
        o = fmt_num(o, r->day, 2);
        *o++ = '/';
        return fmt_num(o, r->year % 100, 2);
    case FMT_DATE_ISO:
        o = fmt_num(o, r->year, 4);
        *o++ = '-';
        o = fmt_num(o, r->month, 2);
        *o++ = '-';
        return fmt_num(o, r->day, 2);
    case FMT_WEEKDAY_ISO: return fmt_num(o, fmt_iso_weekday(r->days), 1);
    case FMT_WEEKDAY_SUNDAY0: return fmt_num(o, fmt_iso_weekday(r->days) % 7, 1);
    case FMT_WEEKDAY_SHORT: memcpy(o, fmt_weekdays[fmt_iso_weekday(r->days) - 1], 3); return o + 3;
    case FMT_WEEKDAY_LONG: return fmt_text(o, fmt_weekdays[fmt_iso_weekday(r->days) - 1]);
    case FMT_QUARTER: return fmt_num(o, (r->month - 1) / 3 + 1, 1);
    default: return o;
    }
}

static char *fmt_time_item(char *o, fmt_kind kind, const fmt_row *r) {
    int64_t h = r->second / 3600, mi = r->second / 60 % 60, s = r->second % 60;
    int64_t h12 = h == 0 ? 12 : (h > 12 ? h - 12 : h);
    switch (kind) {
    case FMT_HOUR24: return fmt_num(o, h, 2);
    case FMT_HOUR12: return fmt_num(o, h12, 2);
    case FMT_MINUTE: return fmt_num(o, mi, 2);
    case FMT_SECOND: return fmt_num(o, s, 2);
    case FMT_AMPM: return fmt_text(o, h >= 12 ? "PM" : "AM");
    case FMT_TIME12:
        o = fmt_num(o, h12, 2);
        *o++ = ':';
        o = fmt_num(o, mi, 2);
        return fmt_text(o, h >= 12 ? " PM" : " AM");
    case FMT_TIME_HM:
        o = fmt_num(o, h, 2);
        *o++ = ':';
        return fmt_num(o, mi, 2);
    case FMT_TIME:
        o = fmt_num(o, h, 2);
        *o++ = ':';
        o = fmt_num(o, mi, 2);
        *o++ = ':';
        return fmt_num(o, s, 2);
    case FMT_OFFSET: {
        int32_t off = r->offset < 0 ? -r->offset : r->offset;
        *o++ = r->offset < 0 ? '-' : '+';
        o = fmt_num(o, off / 3600, 2);
        return fmt_num(o, off % 3600 / 60, 2);
    }
    case FMT_FRACTION: {
        /* Always six digits: extra digits are cut, missing ones are 0. */
        int64_t f = r->fraction;
        unsigned scale = r->scale;
        for (; scale > 6; scale--) f /= 10;
        return fmt_num(o, f * fmt_pow10(6 - scale), 6);
    }
    default: return fmt_date_item(o, kind, r);
    }
}

static size_t fmt_run(const fmt_program *p, const fmt_row *r, char *out) {
    char *o = out;
    for (uint32_t i = 0; i < p->count; i++) {
        const fmt_item *it = &p->items[i];
        if (it->kind == FMT_LITERAL) {
            memcpy(o, p->literals + it->offset, it->bytes);
            o += it->bytes;
        } else {
            o = fmt_time_item(o, it->kind, r);
        }
    }
    return (size_t)(o - out);
}

/* ------------------------------------------------------------------ */
/* formatDateTime and fromUnixTimestamp                                */
/* ------------------------------------------------------------------ */

typedef struct fmt_state {
    fmt_program program;
    ty_kind kind;        /* Date, Date32, DateTime, DateTime64, or an integer kind */
    int64_t scale;       /* DateTime64: 10^precision */
    unsigned precision;
    const ty_tz *tz;
    ty_kind int_kind;    /* integer inputs: their kind */
} fmt_state;

/* The value of a row as seconds (or days) and fraction, as ClickHouse
 * reads it: DateTime64 rounded toward -inf, 32-bit and narrower integers
 * as UInt32, 64-bit ones as they are. */
static void fmt_row_of(const fmt_state *st, const ty_column *c, uint32_t row, fmt_row *r) {
    int64_t v = exec_get_i64(c, row), t;
    r->fraction = 0;
    r->scale = 0;
    r->offset = 0;
    if (st->kind == TY_DATE || st->kind == TY_DATE32) {
        r->days = v;
        r->second = 0;
    } else {
        if (st->kind == TY_DATETIME64) {
            t = fmt_floor_div(v, st->scale);
            r->fraction = v - t * st->scale;
            r->scale = st->precision;
        } else if (st->kind == TY_UINT64 || st->kind == TY_INT64 || st->kind == TY_DATETIME) {
            t = v;
        } else {
            t = (uint32_t)v;
        }
        /* ClickHouse's calendar table ends at 1900 and 2299: days beyond
         * stick to its first and last day, which keeps %Y four digits. */
        t = t < -2208988800LL ? -2208988800LL : (t > 10413791999LL ? 10413791999LL : t);
        r->offset = ty_tz_offset_at(st->tz, t);
        int64_t local = t + r->offset;
        r->days = fmt_floor_div(local, 86400);
        r->second = local - r->days * 86400;
    }
    if (r->days < -25567) r->days = -25567;
    if (r->days > 120529) r->days = 120529;
    ty_civil_from_days(r->days, &r->year, &r->month, &r->day);
}

static int fmt_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                      ty_column *out, mu_err *err) {
    const fmt_state *st = call->state;
    MU_ASSERT(st != NULL && st->program.literal_bytes <= st->program.literal_capacity);
    char *text = malloc(st->program.row_bytes_max + 1);
    if (text == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory in %s", call->function->name);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        fmt_row r;
        fmt_row_of(st, args[0].column, exec_arg_row(&args[0], i), &r);
        size_t n = fmt_run(&st->program, &r, text);
        MU_ASSERT(n <= st->program.row_bytes_max);
        rc = ty_column_append_bytes(out, text, n, err);
    }
    free(text);
    return rc;
}

/* fromUnixTimestamp(n): an integer as DateTime, clamped to its range. */
static int fmt_kernel_to_datetime(const exec_call *call, const exec_arg *args, uint32_t rows,
                                  ty_column *out, mu_err *err) {
    (void)call;
    int64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_i64(&args[0], rows, v);
    bool is_unsigned_64 = ty_type_strip_nullable(args[0].column->type)->kind == TY_UINT64;
    for (uint32_t i = 0; i < rows; i++) {
        if (is_unsigned_64 && v[i] < 0) v[i] = UINT32_MAX;
        v[i] = v[i] < 0 ? 0 : (v[i] > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : v[i]);
    }
    int rc = exec__store_i64(out, v, rows, err);
    free(v);
    return rc;
}

static bool fmt_kind_is_time(ty_kind k) {
    return k == TY_DATE || k == TY_DATE32 || k == TY_DATETIME || k == TY_DATETIME64;
}

/* Checks the argument list of formatDateTime (integers: fromUnixTimestamp). */
static int fmt_check_args(exec_call *call, bool integers, mu_err *err) {
    const char *name = call->function->name;
    char tn[128];
    const ty_type *t = call->arg_types[0];
    if (!integers && (call->arg_count < 2 || call->arg_count > 3))
        return exec__error_arg_count(call, "2 or 3", err);
    if (integers && call->arg_count > 3) return exec__error_arg_count(call, "1, 2 or 3", err);
    if (integers && call->arg_count == 1 && !exec_type_is_integer(t))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of first argument of function %s when arguments size is "
                      "1. Should be integer",
                      ty_type_name(t, tn, sizeof(tn)), name);
    if (integers && call->arg_count > 1 && !exec_type_is_integer(t) && !fmt_kind_is_time(t->kind))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of first argument of function %s when arguments size is "
                      "2 or 3. Should be a integer or a date with time",
                      ty_type_name(t, tn, sizeof(tn)), name);
    if (!integers && !fmt_kind_is_time(t->kind))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of first argument of function %s. Should be a date or a "
                      "date with time",
                      ty_type_name(t, tn, sizeof(tn)), name);
    for (uint32_t i = 1; i < call->arg_count; i++)
        if (call->arg_types[i]->kind != TY_STRING)
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type %s of %s argument of function %s. Must be String.",
                          ty_type_name(call->arg_types[i], tn, sizeof(tn)),
                          i == 1 ? "second" : "third", name);
    return 0;
}

static int fmt_bind_common(exec_call *call, mu_arena *arena, bool integers, mu_err *err) {
    int rc = fmt_check_args(call, integers, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    if (call->arg_count == 1) { /* fromUnixTimestamp(n) */
        call->kernel = fmt_kernel_to_datetime;
        call->result_type = ty_type_builtin(TY_DATETIME);
        return 0;
    }
    const char *f;
    size_t n;
    if (!exec__const_string(call, 1, &f, &n))
        return MU_ERR(err, MU_EILLEGAL_COLUMN,
                      "Illegal column %s of second ('format') argument of function %s. Must be "
                      "constant string.",
                      "String", call->function->name);
    fmt_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->kind = t->kind;
    st->precision = t->kind == TY_DATETIME64 ? t->precision : 0;
    st->scale = fmt_pow10(st->precision);
    st->tz = (t->kind == TY_DATETIME || t->kind == TY_DATETIME64) ? ty_type_timezone(t)
                                                                 : exec__date_session_zone(call);
    if (call->arg_count == 3) {
        rc = exec__date_zone_arg(call, 2, arena, &st->tz, NULL, err);
        if (rc != 0) return rc;
    }
    rc = fmt_compile(call, f, n, t->kind, arena, &st->program, err);
    if (rc != 0) return rc;
    call->state = st;
    call->kernel = fmt_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int fmt_bind_format(exec_call *call, mu_arena *arena, mu_err *err) {
    return fmt_bind_common(call, arena, false, err);
}

static int fmt_bind_from_unix(exec_call *call, mu_arena *arena, mu_err *err) {
    return fmt_bind_common(call, arena, true, err);
}

const exec_function exec__date_fn_format_datetime = {"formatDateTime", 0, fmt_bind_format};
const exec_function exec__date_fn_date_format = {"DATE_FORMAT", EXEC_FN_CASE_INSENSITIVE,
                                                 fmt_bind_format};
const exec_function exec__date_fn_from_unix_timestamp = {"fromUnixTimestamp", 0,
                                                         fmt_bind_from_unix};
const exec_function exec__date_fn_from_unixtime = {"FROM_UNIXTIME", EXEC_FN_CASE_INSENSITIVE,
                                                   fmt_bind_from_unix};

/* ------------------------------------------------------------------ */
/* parseDateTime[64]BestEffort[US][OrNull|OrZero]                      */
/* ------------------------------------------------------------------ */

enum { BP_THROW, BP_OR_NULL, BP_OR_ZERO };

/* What exec__date_fn_parse[index] is: index = 6 * is_64 + 3 * us_style
 * + on_error. */
typedef struct bp_fn {
    bool is_64;
    bool us_style;
    uint8_t on_error;
} bp_fn;

static bp_fn bp_fn_of(const exec_call *call) {
    ptrdiff_t index = call->function - exec__date_fn_parse;
    MU_ASSERT(index >= 0 && index < 12);
    return (bp_fn){.is_64 = index >= 6, .us_style = index % 6 >= 3,
                   .on_error = (uint8_t)(index % 3)};
}

/* How the reader is called: ClickHouse's parseDateTimeBestEffort[US]
 * (types/best_effort.c). */
typedef struct bp_options {
    bool us_style;
    const ty_tz *local;
    int64_t now_seconds;
} bp_options;

typedef struct bp_state {
    bp_options options;
    bool is_64;
    uint8_t on_error;
    unsigned precision;
    int64_t scale;
    const ty_type *value_type;  /* without Nullable, for messages */
} bp_state;

/* The value of one string, or an error (the caller decides what it means). */
static int bp_value(const exec_call *call, const bp_state *st, const char *s, size_t n,
                    int64_t *out, mu_err *err) {
    ty_best_effort b;
    char quoted[FMT_MESSAGE_VALUE_BYTES + 16], tn[128];
    fmt_quote(s, n, quoted, sizeof(quoted));
    ty_type_name(st->value_type, tn, sizeof(tn));
    const bp_options *o = &st->options;
    if (!ty_datetime_best_effort(s, n, o->us_style, o->local, o->now_seconds, &b))
        return MU_ERR(err, MU_EPARSE_DATETIME, "%s: while parsing %s as %s in function %s",
                      b.reason, quoted, tn, call->function->name);
    if (b.used_bytes != n) {
        char parsed[FMT_MESSAGE_VALUE_BYTES + 16];
        fmt_quote(s, b.used_bytes, parsed, sizeof(parsed));
        if (b.used_bytes == 0)
            return MU_ERR(err, MU_EPARSE, "Cannot parse string %s as %s: syntax error at begin "
                                          "of string", quoted, tn);
        return MU_ERR(err, MU_EPARSE, "Cannot parse string %s as %s: syntax error at position "
                                      "%zu (parsed just %s)", quoted, tn, b.used_bytes, parsed);
    }
    int64_t seconds = b.seconds;
    if (!st->is_64) {
        *out = seconds < 0 ? 0 : (seconds > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : seconds);
        return 0;
    }
    int64_t fraction = b.fraction;
    if (st->precision < b.fraction_digits) fraction /= fmt_pow10(b.fraction_digits - st->precision);
    else fraction *= fmt_pow10(st->precision - b.fraction_digits);
    int64_t ticks;
    if (__builtin_mul_overflow(seconds, st->scale, &ticks) ||
        __builtin_add_overflow(ticks, fraction, &ticks))
        return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal math overflow: while parsing %s as %s",
                      quoted, tn);
    *out = ticks;
    return 0;
}

int exec__date_parse_best_effort(const exec_call *call, const char *s, size_t n,
                                 const ty_tz *local, int64_t *seconds_out, mu_err *err) {
    ty_best_effort b;
    int64_t now = fmt_floor_div(exec__date_now_us(call), 1000000);
    if (ty_datetime_best_effort(s, n, false, local, now, &b)) {
        *seconds_out = b.seconds;
        return 0;
    }
    char quoted[FMT_MESSAGE_VALUE_BYTES + 16];
    fmt_quote(s, n, quoted, sizeof(quoted));
    return MU_ERR(err, MU_EPARSE_DATETIME, "%s: while parsing %s in function %s", b.reason,
                  quoted, call->function->name);
}

static int bp_append(ty_column *out, bool is_64, bool is_null, int64_t v, mu_err *err) {
    if (is_null) return ty_column_append_null(out, err);
    if (is_64) return ty_column_append_value(out, &v, err);
    uint32_t u = (uint32_t)v;
    return ty_column_append_value(out, &u, err);
}

static int bp_kernel(const exec_call *call, const exec_arg *args, uint32_t rows, ty_column *out,
                     mu_err *err) {
    const bp_state *st = call->state;
    bool text_input = exec_type_is_string(ty_type_strip_nullable(args[0].column->type));
    for (uint32_t i = 0; i < rows; i++) {
        int64_t v = 0;
        bool is_null = exec_arg_is_null_row(&args[0], i) || !text_input;
        if (!is_null) {
            size_t n;
            const char *s = exec_get_str(args[0].column, exec_arg_row(&args[0], i), &n);
            if (ty_type_strip_nullable(args[0].column->type)->kind == TY_FIXED_STRING)
                while (n > 0 && s[n - 1] == 0) n--;
            mu_err row_err;
            int rc = bp_value(call, st, s, n, &v, st->on_error == BP_THROW ? err : &row_err);
            if (rc != 0 && st->on_error == BP_THROW) return rc;
            if (rc != 0) {
                v = 0;
                is_null = st->on_error == BP_OR_NULL;
            }
        }
        /* A NULL input stays NULL in OrNull; elsewhere the framework sets it. */
        int rc = bp_append(out, st->is_64, is_null && st->on_error == BP_OR_NULL, v, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int bp_check_args(exec_call *call, const bp_fn *f, uint32_t *tz_index, mu_err *err) {
    char tn[128];
    const char *name = call->function->name;
    uint32_t max = f->is_64 ? 3 : 2;
    if (call->arg_count < 1 || call->arg_count > max)
        return exec__error_arg_count(call, f->is_64 ? "1, 2 or 3" : "1 or 2", err);
    const ty_type *t = ty_type_strip_nullable(call->arg_types[0]);
    if (!exec_type_is_string(t) && t->kind != TY_NOTHING) {
        if (f->on_error != BP_THROW)
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type %s of first argument of function %s. Conversion "
                          "functions with postfix 'OrZero' or 'OrNull' should take String "
                          "argument",
                          ty_type_name(call->arg_types[0], tn, sizeof(tn)), name);
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of first argument of function %s",
                      ty_type_name(call->arg_types[0], tn, sizeof(tn)), name);
    }
    *tz_index = UINT32_MAX;
    for (uint32_t i = 1; i < call->arg_count; i++) {
        const ty_type *a = ty_type_strip_nullable(call->arg_types[i]);
        if (f->is_64 && i == 1 && exec_type_is_integer(a)) continue;
        if (a->kind != TY_STRING)
            return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type %s of %s argument of function %s",
                          ty_type_name(call->arg_types[i], tn, sizeof(tn)),
                          i == 1 ? "second" : "third", name);
        if (f->is_64 && i == 1 && call->arg_count == 3)
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type String of second argument of function %s. Expected "
                          "const integer (scale)", name);
        *tz_index = i;
    }
    return 0;
}

static int bp_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    bp_fn fn = bp_fn_of(call);
    const bp_fn *f = &fn;
    uint32_t tz_index = UINT32_MAX;
    int rc = bp_check_args(call, f, &tz_index, err);
    if (rc != 0) return rc;
    bp_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->is_64 = f->is_64;
    st->on_error = f->on_error;
    st->options.us_style = f->us_style;
    st->options.local = exec__date_session_zone(call);
    st->options.now_seconds = fmt_floor_div(exec__date_now_us(call), 1000000);
    int64_t precision = 3;
    if (f->is_64 && call->arg_count >= 2 &&
        exec_type_is_integer(ty_type_strip_nullable(call->arg_types[1]))) {
        if (!exec__const_i64(call, 1, &precision))
            return MU_ERR(err, MU_EILLEGAL_COLUMN, "Scale argument of function %s must be constant",
                          call->function->name);
        if (precision < 0 || precision > TY_DATETIME64_PRECISION_MAX)
            return MU_ERR(err, MU_EOUT_OF_BOUND,
                          "Scale %lld is too large for DateTime64. Maximum is up to 9.",
                          (long long)precision);
    }
    st->precision = (unsigned)precision;
    st->scale = fmt_pow10(st->precision);
    const char *zone_name = NULL;
    const ty_tz *tz = NULL;
    if (tz_index != UINT32_MAX) {
        rc = exec__date_zone_arg(call, tz_index, arena, &tz, &zone_name, err);
        if (rc != 0) return rc;
        st->options.local = tz;
    }
    rc = f->is_64 ? exec__date_type_datetime64(arena, st->precision, zone_name, tz,
                                               &st->value_type, err)
                  : exec__date_type_datetime(arena, zone_name, tz, &st->value_type, err);
    if (rc != 0) return rc;
    call->state = st;
    call->kernel = bp_kernel;
    call->result_type = st->value_type;
    if (f->on_error == BP_OR_NULL)
        return exec_type_make_nullable(st->value_type, arena, &call->result_type, err);
    return 0;
}

/* The OrNull variants see NULL inputs themselves: the framework cannot
 * merge input NULLs into a result that is already Nullable. */
const exec_function exec__date_fn_parse[12] = {
    {"parseDateTimeBestEffort", 0, bp_bind},
    {"parseDateTimeBestEffortOrNull", EXEC_FN_NULLS_CUSTOM, bp_bind},
    {"parseDateTimeBestEffortOrZero", 0, bp_bind},
    {"parseDateTimeBestEffortUS", 0, bp_bind},
    {"parseDateTimeBestEffortUSOrNull", EXEC_FN_NULLS_CUSTOM, bp_bind},
    {"parseDateTimeBestEffortUSOrZero", 0, bp_bind},
    {"parseDateTime64BestEffort", 0, bp_bind},
    {"parseDateTime64BestEffortOrNull", EXEC_FN_NULLS_CUSTOM, bp_bind},
    {"parseDateTime64BestEffortOrZero", 0, bp_bind},
    {"parseDateTime64BestEffortUS", 0, bp_bind},
    {"parseDateTime64BestEffortUSOrNull", EXEC_FN_NULLS_CUSTOM, bp_bind},
    {"parseDateTime64BestEffortUSOrZero", 0, bp_bind},
};
