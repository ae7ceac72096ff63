/* value_parse.c: strict text -> value for every fixed-width type, as
 * ClickHouse's TabSeparated form reads values (after unescaping, which is
 * the formats' job). Strict means: the whole text is the value, no
 * surrounding spaces, range checked, no silent wrap-around. Each failure
 * is MU_EPARSE with one message shape:
 *   cannot parse "300" as UInt8: value out of range 0..255
 * The accepted forms per type are listed in README.md.
 */
#include "types/types_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VP_FLOAT_TEXT_BYTES_MAX 1024
#define VP_EXPONENT_ABS_MAX 100000

void ty__message_value(const char *text, size_t text_bytes, char *out, size_t out_bytes) {
    MU_ASSERT(out_bytes >= 8);
    size_t o = 0, limit = out_bytes - 4; /* room for "..." and NUL */
    for (size_t i = 0; i < text_bytes; i++) {
        unsigned char c = (unsigned char)text[i];
        bool plain = c >= 0x20 && c < 0x7F && c != '\\' && c != '"';
        size_t need = plain ? 1 : 4;
        if (o + need > limit) {
            memcpy(out + o, "...", 4);
            return;
        }
        if (plain) {
            out[o++] = (char)c;
        } else {
            snprintf(out + o, 5, "\\x%02x", c);
            o += 4;
        }
    }
    out[o] = 0;
}

int ty__parse_error(mu_err *err, const ty_type *type, const char *text, size_t text_bytes,
                    const char *reason_fmt, ...) {
    char shown[TY__MESSAGE_VALUE_BYTES + 8], name[128], reason[256];
    va_list ap;
    va_start(ap, reason_fmt);
    vsnprintf(reason, sizeof(reason), reason_fmt, ap);
    va_end(ap);
    ty__message_value(text, text_bytes, shown, sizeof(shown));
    /* ClickHouse's codes: dates, date-times and UUIDs have their own. */
    const ty_type *v = ty_type_strip_nullable(type);
    int code = MU_EPARSE;
    if (v->kind == TY_DATE || v->kind == TY_DATE32) code = MU_EPARSE_DATE;
    else if (v->kind == TY_DATETIME || v->kind == TY_DATETIME64) code = MU_EPARSE_DATETIME;
    else if (v->kind == TY_UUID) code = MU_EPARSE_UUID;
    return MU_ERR(err, code, "cannot parse \"%s\" as %s: %s", shown,
                  ty_type_name(type, name, sizeof(name)), reason);
}

/* ------------------------------------------------------------------ */
/* Integers                                                            */
/* ------------------------------------------------------------------ */

/* [+-]digits into sign and magnitude; false on syntax, *overflow on a
 * magnitude past UINT64_MAX. */
static bool vp_integer(const char *s, size_t n, bool *negative, uint64_t *magnitude,
                       bool *overflow) {
    size_t i = 0;
    uint64_t v = 0;
    *negative = false;
    *overflow = false;
    *magnitude = 0;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        *negative = s[0] == '-';
        i = 1;
    }
    if (i == n) return false;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) *overflow = true;
        v = v * 10 + d;
    }
    *magnitude = v;
    return true;
}

static int vp_int(const ty_type *t, const char *s, size_t n, int64_t min, uint64_t max,
                  void *out, mu_err *err) {
    bool negative, overflow;
    uint64_t m;
    if (!vp_integer(s, n, &negative, &m, &overflow))
        return ty__parse_error(err, t, s, n, "not an integer");
    bool in_range = !overflow && (negative ? m <= (uint64_t)0 - (uint64_t)min : m <= max);
    if (!in_range) {
        if (min == 0) return ty__parse_error(err, t, s, n, "value out of range 0..%llu",
                                             (unsigned long long)max);
        return ty__parse_error(err, t, s, n, "value out of range %lld..%llu", (long long)min,
                               (unsigned long long)max);
    }
    int64_t v = negative ? (int64_t)(0 - m) : (int64_t)m;
    switch (ty_type_value_bytes(t)) {
    case 1: *(uint8_t *)out = (uint8_t)v; break;
    case 2: *(uint16_t *)out = (uint16_t)v; break;
    case 4: *(uint32_t *)out = (uint32_t)v; break;
    default: *(uint64_t *)out = negative ? (uint64_t)v : m; break;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Floats and Bool                                                     */
/* ------------------------------------------------------------------ */

/* [+-] (digits [. digits] | . digits) [(e|E) [+-] digits], or inf,
 * infinity, nan in any case. Hexadecimal floats are refused. */
static bool vp_float_syntax(const char *s, size_t n) {
    size_t i = (n > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    const char *word = s + i;
    size_t rest = n - i;
    if ((rest == 3 && (strncasecmp(word, "inf", 3) == 0 || strncasecmp(word, "nan", 3) == 0)) ||
        (rest == 8 && strncasecmp(word, "infinity", 8) == 0))
        return true;
    size_t digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
    }
    if (digits == 0) return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t exponent_digits = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++, exponent_digits++;
        if (exponent_digits == 0) return false;
    }
    return i == n;
}

static int vp_float(const ty_type *t, const char *s, size_t n, void *out, mu_err *err) {
    char copy[VP_FLOAT_TEXT_BYTES_MAX + 1];
    if (n > VP_FLOAT_TEXT_BYTES_MAX) return ty__parse_error(err, t, s, n, "text too long");
    if (!vp_float_syntax(s, n)) return ty__parse_error(err, t, s, n, "not a number");
    memcpy(copy, s, n);
    copy[n] = 0;
    /* Out-of-range magnitudes read as inf or 0, as IEEE parsing does. */
    if (t->kind == TY_FLOAT32) {
        float v = strtof(copy, NULL);
        memcpy(out, &v, sizeof(v));
    } else {
        double v = strtod(copy, NULL);
        memcpy(out, &v, sizeof(v));
    }
    return 0;
}

static int vp_bool(const ty_type *t, const char *s, size_t n, uint8_t *out, mu_err *err) {
    static const char *const words_true[] = {"true", "t", "yes", "y", "on", "enable", "1"};
    static const char *const words_false[] = {"false", "f", "no", "n", "off", "disable", "0"};
    for (size_t i = 0; i < MU_ARRAY_LEN(words_true); i++) {
        if (strlen(words_true[i]) == n && strncasecmp(s, words_true[i], n) == 0) {
            *out = 1;
            return 0;
        }
        if (strlen(words_false[i]) == n && strncasecmp(s, words_false[i], n) == 0) {
            *out = 0;
            return 0;
        }
    }
    return ty__parse_error(err, t, s, n, "expected true or false");
}

/* ------------------------------------------------------------------ */
/* Dates and times                                                     */
/* ------------------------------------------------------------------ */

static int vp_date(const ty_type *t, const char *s, size_t n, void *out, mu_err *err) {
    int64_t days;
    if (!ty__parse_date_fields(s, n, &days))
        return ty__parse_error(err, t, s, n, "expected a date YYYY-MM-DD");
    if (t->kind == TY_DATE) {
        if (days < 0 || days > TY__DATE_DAYS_MAX)
            return ty__parse_error(err, t, s, n, "value out of range 1970-01-01..2149-06-06");
        *(uint16_t *)out = (uint16_t)days;
    } else {
        if (days < TY__DATE32_DAYS_MIN || days > TY__DATE32_DAYS_MAX)
            return ty__parse_error(err, t, s, n, "value out of range 1900-01-01..2299-12-31");
        *(int32_t *)out = (int32_t)days;
    }
    return 0;
}

/* "YYYY-MM-DD", "YYYY-MM-DD hh:mm:ss" or with 'T' between: the wall
 * clock in local seconds, and where the text after the seconds starts. */
static bool vp_local_datetime(const char *s, size_t n, int64_t *local_out, size_t *end_out) {
    int64_t days, seconds = 0;
    if (n < 10 || !ty__parse_date_fields(s, 10, &days)) return false;
    size_t end = 10;
    if (n > 10) {
        if ((s[10] != ' ' && s[10] != 'T') || n < 19 || !ty__parse_time_fields(s + 11, 8, &seconds))
            return false;
        end = 19;
    }
    *local_out = days * 86400 + seconds;
    *end_out = end;
    return true;
}

static bool vp_all_digits(const char *s, size_t n) {
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
    }
    return true;
}

static int vp_datetime(const ty_type *t, const char *s, size_t n, uint32_t *out, mu_err *err) {
    int64_t utc, local;
    size_t end;
    if (vp_all_digits(s, n)) { /* a Unix timestamp */
        bool negative, overflow;
        uint64_t m;
        vp_integer(s, n, &negative, &m, &overflow);
        if (overflow || m > TY__DATETIME_SECONDS_MAX)
            return ty__parse_error(err, t, s, n, "value out of range 0..4294967295");
        *out = (uint32_t)m;
        return 0;
    }
    if (!vp_local_datetime(s, n, &local, &end) || end != n)
        return ty__parse_error(err, t, s, n, "expected YYYY-MM-DD hh:mm:ss or a Unix timestamp");
    utc = ty_tz_local_to_utc(ty_type_timezone(t), local);
    if (utc < 0 || utc > TY__DATETIME_SECONDS_MAX)
        return ty__parse_error(err, t, s, n,
                               "value out of range 1970-01-01 00:00:00..2106-02-07 06:28:15 UTC");
    *out = (uint32_t)utc;
    return 0;
}

/* ".digits" after the seconds: the first `precision` digits are kept,
 * further digits are cut (truncated toward the past), as ClickHouse does. */
static bool vp_fraction(const char *s, size_t n, unsigned precision, int64_t *ticks_out) {
    int64_t ticks = 0;
    size_t i = 0;
    if (n == 0) {
        *ticks_out = 0;
        return true;
    }
    if (s[0] != '.' || n == 1) return false;
    for (i = 1; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        if (i <= precision) ticks = ticks * 10 + (s[i] - '0');
    }
    for (; i <= precision; i++) ticks *= 10; /* fewer digits than precision */
    *ticks_out = ticks;
    return true;
}

static int vp_datetime64(const ty_type *t, const char *s, size_t n, int64_t *out, mu_err *err) {
    int64_t seconds, fraction, scale = ty__pow10_i64(t->precision);
    size_t end = 0;
    bool negative = n > 0 && s[0] == '-';
    if (vp_local_datetime(s, n, &seconds, &end)) {
        seconds = ty_tz_local_to_utc(ty_type_timezone(t), seconds);
    } else { /* Unix seconds with an optional fraction */
        size_t i = negative ? 1 : 0;
        while (i + end < n && s[i + end] >= '0' && s[i + end] <= '9' && end < 12) end++;
        if (end == 0) goto bad;
        bool overflow, neg;
        uint64_t m;
        vp_integer(s + i, end, &neg, &m, &overflow);
        seconds = (int64_t)m;
        end += i;
    }
    if (!vp_fraction(s + end, n - end, t->precision, &fraction)) goto bad;
    /* The text form has signed seconds and a fraction that counts forward;
     * the numeric form was read as a magnitude. */
    __int128 ticks = (__int128)seconds * scale + fraction;
    if (negative) ticks = -ticks;
    static const int64_t min_seconds = -2208988800LL, max_seconds = 10413791999LL;
    if (ticks < (__int128)min_seconds * scale || ticks >= (__int128)(max_seconds + 1) * scale ||
        ticks > INT64_MAX)
        return ty__parse_error(err, t, s, n, "value out of range 1900-01-01..2299-12-31 UTC");
    *out = (int64_t)ticks;
    return 0;
bad:
    return ty__parse_error(err, t, s, n,
                           "expected YYYY-MM-DD hh:mm:ss[.fraction] or Unix seconds");
}

/* date_time_input_format=best_effort[_us]: the whole text through the
 * best-effort reader in the type's zone. A DateTime saturates into its
 * range (ClickHouse clamps); a DateTime64 gets the basic range check. */
static int vp_best_effort(const ty_type *t, const char *s, size_t n, const ty_text_options *opt,
                          void *out, mu_err *err) {
    ty_best_effort b;
    bool us = opt->datetime_input == TY_DATETIME_INPUT_BEST_EFFORT_US;
    if (!ty_datetime_best_effort(s, n, us, ty_type_timezone(t), opt->now_seconds, &b))
        return ty__parse_error(err, t, s, n, "%s", b.reason);
    if (b.used_bytes != n)
        return ty__parse_error(err, t, s, n, "unexpected text after the date and time at "
                               "position %zu", b.used_bytes + 1);
    if (t->kind == TY_DATETIME) {
        int64_t v = MU_MAX(b.seconds, (int64_t)0);
        *(uint32_t *)out = (uint32_t)MU_MIN(v, TY__DATETIME_SECONDS_MAX);
        return 0;
    }
    int64_t fraction = b.fraction;
    if (t->precision < b.fraction_digits)
        fraction /= ty__pow10_i64(b.fraction_digits - t->precision);
    else
        fraction *= ty__pow10_i64(t->precision - b.fraction_digits);
    __int128 ticks = (__int128)b.seconds * ty__pow10_i64(t->precision) + fraction;
    static const int64_t min_seconds = -2208988800LL, max_seconds = 10413791999LL;
    __int128 scale = ty__pow10_i64(t->precision);
    if (ticks < (__int128)min_seconds * scale || ticks >= (__int128)(max_seconds + 1) * scale ||
        ticks > INT64_MAX)
        return ty__parse_error(err, t, s, n, "value out of range 1900-01-01..2299-12-31 UTC");
    *(int64_t *)out = (int64_t)ticks;
    return 0;
}

/* ------------------------------------------------------------------ */
/* UUID, Decimal, Enum                                                 */
/* ------------------------------------------------------------------ */

static int vp_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* 8-4-4-4-12 hex digits, or 32 hex digits without dashes; any case. */
static int vp_uuid(const ty_type *t, const char *s, size_t n, uint8_t out[16], mu_err *err) {
    bool dashed = n == 36;
    if (n != 36 && n != 32) return ty__parse_error(err, t, s, n, "expected 8-4-4-4-12 hex digits");
    size_t i = 0;
    for (unsigned byte = 0; byte < 16; byte++) {
        if (dashed && (i == 8 || i == 13 || i == 18 || i == 23)) {
            if (s[i] != '-') return ty__parse_error(err, t, s, n, "expected '-' at %zu", i);
            i++;
        }
        int hi = vp_hex(s[i]), lo = vp_hex(s[i + 1]);
        if (hi < 0 || lo < 0) return ty__parse_error(err, t, s, n, "bad hex digit at %zu", i);
        out[byte] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    return 0;
}

typedef struct vp_decimal_text {
    const char *int_digits; /* digits before the point */
    size_t int_count;
    const char *frac_digits; /* digits after the point */
    size_t frac_count;
    int64_t exponent;
    bool negative;
} vp_decimal_text;

static bool vp_decimal_syntax(const char *s, size_t n, vp_decimal_text *d) {
    size_t i = 0;
    memset(d, 0, sizeof(*d));
    if (n > 0 && (s[0] == '+' || s[0] == '-')) d->negative = s[i++] == '-';
    d->int_digits = s + i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, d->int_count++;
    d->frac_digits = s + i;
    if (i < n && s[i] == '.') {
        d->frac_digits = s + ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++, d->frac_count++;
    }
    if (d->int_count + d->frac_count == 0) return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        bool negative, overflow;
        uint64_t m;
        size_t start = ++i;
        while (i < n && s[i] != 0) i++;
        if (!vp_integer(s + start, i - start, &negative, &m, &overflow)) return false;
        m = overflow || m > VP_EXPONENT_ABS_MAX ? VP_EXPONENT_ABS_MAX : m;
        d->exponent = negative ? -(int64_t)m : (int64_t)m;
    }
    return i == n;
}

/* Digit j of int_digits || frac_digits. */
static int vp_decimal_digit(const vp_decimal_text *d, size_t j) {
    return j < d->int_count ? d->int_digits[j] - '0' : d->frac_digits[j - d->int_count] - '0';
}

/* Exact scale: digits past S fraction digits are cut (toward zero), as
 * ClickHouse's readDecimalText does; more than P - S integer digits is an
 * error. An exponent is accepted ("1.5e3"). */
static int vp_decimal(const ty_type *t, const char *s, size_t n, void *out, mu_err *err) {
    vp_decimal_text d;
    if (!vp_decimal_syntax(s, n, &d)) return ty__parse_error(err, t, s, n, "not a number");
    size_t total = d.int_count + d.frac_count, zeros = 0;
    while (zeros < total && vp_decimal_digit(&d, zeros) == 0) zeros++;
    /* Significant digits are [zeros, total); the point sits after `point` of them. */
    int64_t point = (int64_t)d.int_count - (int64_t)zeros + d.exponent;
    __int128 value = 0;
    if (zeros < total) {
        int64_t int_digits = MU_MAX(point, 0);
        if (int_digits > t->precision - t->scale)
            return ty__parse_error(err, t, s, n, "too many digits (%lld > %d) before the point",
                                   (long long)int_digits, t->precision - t->scale);
        int64_t used = point + t->scale; /* digits of the scaled integer, <= precision */
        for (int64_t j = 0; j < used; j++) {
            size_t at = zeros + (size_t)j;
            value = value * 10 + (at < total ? vp_decimal_digit(&d, at) : 0);
        }
    }
    if (d.negative) value = -value;
    uint32_t width = ty_type_value_bytes(t);
    if (width == 4) {
        int32_t v = (int32_t)value;
        memcpy(out, &v, 4);
    } else if (width == 8) {
        int64_t v = (int64_t)value;
        memcpy(out, &v, 8);
    } else {
        memcpy(out, &value, 16);
    }
    return 0;
}

static int vp_enum(const ty_type *t, const char *s, size_t n, void *out, mu_err *err) {
    int64_t value = 0;
    bool found = false;
    for (uint32_t i = 0; i < t->enum_count && !found; i++) {
        const ty_enum_entry *e = &t->enum_entries[i];
        if (e->name_bytes == n && (n == 0 || memcmp(e->name, s, n) == 0)) {
            value = e->value;
            found = true;
        }
    }
    bool negative, overflow;
    uint64_t m;
    if (!found && vp_integer(s, n, &negative, &m, &overflow) && !overflow && m <= 32768) {
        value = negative ? -(int64_t)m : (int64_t)m;
        found = value >= INT16_MIN && value <= INT16_MAX &&
                ty__enum_find_value(t, (int16_t)value) != NULL;
    }
    if (!found) return ty__parse_error(err, t, s, n, "unknown element of the Enum");
    if (t->kind == TY_ENUM8)
        *(int8_t *)out = (int8_t)value;
    else
        *(int16_t *)out = (int16_t)value;
    return 0;
}

int ty_value_parse(const ty_type *type, const char *text, size_t n, void *out, mu_err *err) {
    return ty_value_parse_opt(type, text, n, NULL, out, err);
}

int ty_value_parse_opt(const ty_type *type, const char *text, size_t n,
                       const ty_text_options *opt, void *out, mu_err *err) {
    MU_ASSERT(type != NULL && out != NULL && (text != NULL || n == 0));
    if (text == NULL) text = "";
    const ty_type *t = ty_type_strip_nullable(type);
    if (opt != NULL && opt->datetime_input != TY_DATETIME_INPUT_BASIC &&
        (t->kind == TY_DATETIME || t->kind == TY_DATETIME64))
        return vp_best_effort(t, text, n, opt, out, err);
    switch (t->kind) {
    case TY_UINT8: return vp_int(t, text, n, 0, UINT8_MAX, out, err);
    case TY_UINT16: return vp_int(t, text, n, 0, UINT16_MAX, out, err);
    case TY_UINT32: return vp_int(t, text, n, 0, UINT32_MAX, out, err);
    case TY_UINT64: return vp_int(t, text, n, 0, UINT64_MAX, out, err);
    case TY_INT8: return vp_int(t, text, n, INT8_MIN, INT8_MAX, out, err);
    case TY_INT16: return vp_int(t, text, n, INT16_MIN, INT16_MAX, out, err);
    case TY_INT32: return vp_int(t, text, n, INT32_MIN, INT32_MAX, out, err);
    case TY_INT64: return vp_int(t, text, n, INT64_MIN, INT64_MAX, out, err);
    case TY_FLOAT32:
    case TY_FLOAT64: return vp_float(t, text, n, out, err);
    case TY_BOOL: return vp_bool(t, text, n, out, err);
    case TY_DATE:
    case TY_DATE32: return vp_date(t, text, n, out, err);
    case TY_DATETIME: return vp_datetime(t, text, n, out, err);
    case TY_DATETIME64: return vp_datetime64(t, text, n, out, err);
    case TY_UUID: return vp_uuid(t, text, n, out, err);
    case TY_DECIMAL: return vp_decimal(t, text, n, out, err);
    case TY_ENUM8:
    case TY_ENUM16: return vp_enum(t, text, n, out, err);
    default: break;
    }
    char name[128];
    return MU_ERR(err, MU_ETYPE, "%s is not a fixed-width type", ty_type_name(type, name, 128));
}
