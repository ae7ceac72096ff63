/* value_render.c: value -> ClickHouse text for every fixed-width type:
 * integers, floats as the shortest text that reads back to the same value
 * (ClickHouse's rules: exact integers in Int64/Int32 range, plain notation
 * for decimal exponents -6 < n <= 21, else 1e21 / 1.5e-7, inf, -inf,
 * nan), Bool as true/false, dates and times in the column's zone, UUID in
 * lowercase 8-4-4-4-12, Decimal without trailing fraction zeros (or with
 * exactly S digits on request), Enum by name. No escaping happens here.
 */
#include "types/types_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VR_SECONDS_SANE 1000000000000000LL /* ~31 million years */

/* Lays out k significant digits with decimal exponent n (value =
 * 0.DIGITS x 10^n) as ECMAScript's Number::toString does, but with no '+'
 * in positive exponents, which is what ClickHouse prints. */
static size_t vr_float_layout(bool negative, const char *digits, int k, int n, char *out) {
    size_t o = 0;
    if (negative) out[o++] = '-';
    if (k <= n && n <= 21) {
        memcpy(out + o, digits, (size_t)k);
        o += (size_t)k;
        for (int i = k; i < n; i++) out[o++] = '0';
    } else if (0 < n && n <= 21) {
        memcpy(out + o, digits, (size_t)n);
        o += (size_t)n;
        out[o++] = '.';
        memcpy(out + o, digits + n, (size_t)(k - n));
        o += (size_t)(k - n);
    } else if (-6 < n && n <= 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (int i = 0; i < -n; i++) out[o++] = '0';
        memcpy(out + o, digits, (size_t)k);
        o += (size_t)k;
    } else {
        out[o++] = digits[0];
        if (k > 1) {
            out[o++] = '.';
            memcpy(out + o, digits + 1, (size_t)(k - 1));
            o += (size_t)(k - 1);
        }
        o += (size_t)snprintf(out + o, 8, "e%d", n - 1);
    }
    out[o] = 0;
    MU_ASSERT(o < TY_FLOAT_TEXT_BYTES);
    return o;
}

static size_t vr_u64(uint64_t v, char *out);

/* Speed: most doubles in tables are short decimals (12.345). The smallest
 * d in 1..15 for which m = |value| * 10^d is an integer below 2^52 and
 * m / 10^d (both exact, the quotient correctly rounded) reads back as
 * value gives its shortest form: below 2^52 one step of 10^-d is more
 * than an ulp of value, so no other d-place decimal rounds to it, and a
 * shorter form would need fewer places. Fills digits (no trailing zeros)
 * and the exponent of the first digit; false when no such d exists. */
static bool vr_float_short_decimal(double a, char *digits, int *k_out, int *exponent10) {
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    for (int d = 1; d <= 15; d++) {
        double m = a * p10[d];
        if (m >= 4503599627370496.0) return false; /* 2^52 */
        if (m < 1 || m != floor(m) || m / p10[d] != a) continue;
        int k = (int)vr_u64((uint64_t)m, digits);
        *exponent10 = k - 1 - d;
        while (k > 1 && digits[k - 1] == '0') k--;
        *k_out = k;
        return true;
    }
    return false;
}

/* Finds the fewest significant digits (1..max_digits) whose correctly
 * rounded decimal reads back to `value`, then lays them out. */
static size_t vr_float_shortest(double value, bool is_float32, char *out) {
    char text[48], digits[24];
    int fast_k, fast_exponent;
    if (!is_float32 && vr_float_short_decimal(fabs(value), digits, &fast_k, &fast_exponent))
        return vr_float_layout(signbit(value) != 0, digits, fast_k, fast_exponent + 1, out);
    int max_digits = is_float32 ? 9 : 17;
    /* Speed: start at 15 digits (6 for Float32). A value whose shortest
     * round-trip form S has at most that many digits rounds to S at that
     * precision (half an ulp is below half a step of that decimal grid),
     * so the trailing zeros stripped below leave S; only values needing
     * 16 or 17 digits (8 or 9) take more tries. Subnormals have fewer
     * significant bits than that argument needs: they start at 1. */
    bool subnormal = is_float32 ? fabs(value) < FLT_MIN : fabs(value) < DBL_MIN;
    for (int p = subnormal ? 1 : is_float32 ? 6 : 15; p <= max_digits; p++) {
        snprintf(text, sizeof(text), "%.*e", p - 1, fabs(value));
        bool same = is_float32 ? strtof(text, NULL) == (float)fabs(value)
                               : strtod(text, NULL) == fabs(value);
        if (same || p == max_digits) break;
    }
    /* text is "d.ddde[+-]xx" (or "de[+-]xx"). */
    int k = 0;
    const char *c = text;
    for (; *c != 'e'; c++) {
        if (*c != '.') digits[k++] = *c;
    }
    int exponent10 = atoi(c + 1);
    while (k > 1 && digits[k - 1] == '0') k--;
    return vr_float_layout(signbit(value) != 0, digits, k, exponent10 + 1, out);
}

/* Decimal text of v into out (no NUL); returns the length. Speed: integer
 * columns are the bulk of text output, and printf costs several times
 * this. */
static size_t vr_u64(uint64_t v, char *out) {
    char reversed[24];
    size_t n = 0;
    do {
        reversed[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    for (size_t i = 0; i < n; i++) out[i] = reversed[n - 1 - i];
    return n;
}

static size_t vr_i64(int64_t v, char *out) {
    if (v >= 0) return vr_u64((uint64_t)v, out);
    out[0] = '-';
    return 1 + vr_u64((uint64_t)0 - (uint64_t)v, out + 1);
}

static size_t vr_float_special(double value, char *out) {
    const char *text = isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
    size_t n = strlen(text);
    memcpy(out, text, n + 1);
    return n;
}

size_t ty_float64_format(double value, char *out) {
    if (!isfinite(value)) return vr_float_special(value, out);
    /* Integers below 2^53 print all their digits, which is also their
     * shortest form; larger ones take the shortest round-trip form, as
     * ClickHouse prints them (72057594037927950, not ...952). */
    if (value == floor(value) && fabs(value) < 9007199254740992.0 &&
        !(value == 0 && signbit(value)))
    {
        size_t n = vr_i64((int64_t)value, out);
        out[n] = '\0';
        return n;
    }
    return vr_float_shortest(value, false, out);
}

size_t ty_float32_format(float value, char *out) {
    if (!isfinite(value)) return vr_float_special(value, out);
    if (value == floorf(value) && fabsf(value) < 16777216.0f &&
        !(value == 0 && signbit(value)))
    {
        size_t n = vr_i64((int64_t)value, out);
        out[n] = '\0';
        return n;
    }
    return vr_float_shortest(value, true, out);
}

/* Decimal digits of an unsigned 128-bit integer; returns the length. */
static size_t vr_u128(unsigned __int128 v, char *out) {
    char reversed[48];
    size_t n = 0;
    do {
        reversed[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    for (size_t i = 0; i < n; i++) out[i] = reversed[n - 1 - i];
    out[n] = 0;
    return n;
}

static int vr_decimal(const ty_type *t, const void *value, unsigned flags, mu_buf *out,
                      mu_err *err) {
    __int128 v;
    uint32_t width = ty_type_value_bytes(t);
    if (width == 4) {
        int32_t x;
        memcpy(&x, value, 4);
        v = x;
    } else if (width == 8) {
        int64_t x;
        memcpy(&x, value, 8);
        v = x;
    } else {
        memcpy(&v, value, 16);
    }
    char text[96];
    size_t o = 0;
    unsigned __int128 magnitude = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
    unsigned __int128 unit = (unsigned __int128)ty_decimal_pow10(t->scale);
    if (v < 0) text[o++] = '-';
    o += vr_u128(magnitude / unit, text + o);
    if (t->scale > 0) {
        char fraction[48];
        size_t digits = vr_u128(magnitude % unit + unit, fraction); /* leading '1' pads */
        size_t keep = digits - 1;
        if (!(flags & TY_RENDER_DECIMAL_TRAILING_ZEROS)) {
            while (keep > 0 && fraction[keep] == '0') keep--;
        }
        if (keep > 0) {
            text[o++] = '.';
            memcpy(text + o, fraction + 1, keep);
            o += keep;
        }
    }
    return mu_buf_append(out, text, o, err);
}

static size_t vr_datetime64(const ty_type *t, int64_t ticks, char *out) {
    int64_t scale = ty__pow10_i64(t->precision);
    int64_t seconds = ty__floor_div(ticks, scale), fraction = ty__floor_mod(ticks, scale);
    /* Zone offsets mean nothing millions of years away; skipping them
     * there also keeps the sum from overflowing. */
    bool sane = seconds > -VR_SECONDS_SANE && seconds < VR_SECONDS_SANE;
    int64_t local = seconds + (sane ? ty_tz_offset_at(ty_type_timezone(t), seconds) : 0);
    size_t n = ty__format_datetime(local, out);
    if (t->precision > 0)
        n += (size_t)snprintf(out + n, 16, ".%0*lld", (int)t->precision, (long long)fraction);
    return n;
}

static size_t vr_uuid(const uint8_t *bytes, char *out) {
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (unsigned i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = hex[bytes[i] >> 4];
        out[o++] = hex[bytes[i] & 15];
    }
    out[o] = 0;
    return o;
}

/* Enum entries are sorted by value: binary search. */
const ty_enum_entry *ty__enum_find_value(const ty_type *t, int16_t value) {
    uint32_t lo = 0, hi = t->enum_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->enum_entries[mid].value < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->enum_count && t->enum_entries[lo].value == value ? &t->enum_entries[lo] : NULL;
}

/* Text of kinds that ClickHouse quotes inside composites. */
static int vr_quotable(const ty_type *t, const void *value, unsigned flags, mu_buf *out,
                       mu_err *err) {
    char text[64];
    size_t n = 0;
    switch (t->kind) {
    case TY_DATE: n = ty__format_date(*(const uint16_t *)value, text); break;
    case TY_DATE32: n = ty__format_date(*(const int32_t *)value, text); break;
    case TY_DATETIME: {
        uint32_t utc = *(const uint32_t *)value;
        n = ty__format_datetime(utc + (int64_t)ty_tz_offset_at(ty_type_timezone(t), utc), text);
        break;
    }
    case TY_DATETIME64: n = vr_datetime64(t, *(const int64_t *)value, text); break;
    case TY_UUID: n = vr_uuid(value, text); break;
    default: {
        int16_t v = t->kind == TY_ENUM8 ? *(const int8_t *)value : *(const int16_t *)value;
        const ty_enum_entry *e = ty__enum_find_value(t, v);
        if (e == NULL) return mu_buf_printf(out, err, "%d", v); /* not declared: its number */
        if (flags & TY_RENDER_QUOTED)
            return ty__render_quoted_bytes((const uint8_t *)e->name, e->name_bytes, out, err);
        return mu_buf_append(out, e->name, e->name_bytes, err);
    }
    }
    if (flags & TY_RENDER_QUOTED) return ty__render_quoted_bytes((uint8_t *)text, n, out, err);
    return mu_buf_append(out, text, n, err);
}

int ty_value_render(const ty_type *type, const void *value, unsigned flags, mu_buf *out,
                    mu_err *err) {
    MU_ASSERT(type != NULL && value != NULL);
    const ty_type *t = ty_type_strip_nullable(type);
    char text[TY_FLOAT_TEXT_BYTES];
    size_t n;
    switch (t->kind) {
    case TY_UINT8: return mu_buf_append(out, text, vr_u64(*(const uint8_t *)value, text), err);
    case TY_UINT16: return mu_buf_append(out, text, vr_u64(*(const uint16_t *)value, text), err);
    case TY_UINT32: return mu_buf_append(out, text, vr_u64(*(const uint32_t *)value, text), err);
    case TY_UINT64: return mu_buf_append(out, text, vr_u64(*(const uint64_t *)value, text), err);
    case TY_INT8: return mu_buf_append(out, text, vr_i64(*(const int8_t *)value, text), err);
    case TY_INT16: return mu_buf_append(out, text, vr_i64(*(const int16_t *)value, text), err);
    case TY_INT32: return mu_buf_append(out, text, vr_i64(*(const int32_t *)value, text), err);
    case TY_INT64: return mu_buf_append(out, text, vr_i64(*(const int64_t *)value, text), err);
    case TY_FLOAT32:
        n = ty_float32_format(*(const float *)value, text);
        return mu_buf_append(out, text, n, err);
    case TY_FLOAT64:
        n = ty_float64_format(*(const double *)value, text);
        return mu_buf_append(out, text, n, err);
    case TY_BOOL:
        return mu_buf_append_str(out, *(const uint8_t *)value ? "true" : "false", err);
    case TY_DECIMAL: return vr_decimal(t, value, flags, out, err);
    case TY_DATE: case TY_DATE32: case TY_DATETIME: case TY_DATETIME64:
    case TY_UUID: case TY_ENUM8: case TY_ENUM16:
        return vr_quotable(t, value, flags, out, err);
    case TY_NOTHING:
        /* Nothing has no values (queries only ever hold NULL of it): its
         * placeholder byte renders as nothing. */
        return 0;
    default: break;
    }
    char name[128];
    return MU_ERR(err, MU_ETYPE, "%s is not a fixed-width type", ty_type_name(type, name, 128));
}
