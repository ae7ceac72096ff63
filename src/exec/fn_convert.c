/* fn_convert.c: type conversion, as ClickHouse's CAST and to<Type> family
 * do it: the internal _CAST(x, 'T') that exec_expr_cast binds, the
 * user-visible CAST(x, 'T'), toInt32/toFloat64/toDecimal64(x, S)/toString/
 * toFixedString/toUUID/toDate/toDate32/toDateTime(x[, 'tz'])/toDateTime64(x,
 * P[, 'tz'])/toBool and the *OrZero / *OrNull forms that read Strings.
 * Rules (ClickHouse's non-accurate CAST): integers wrap, floats truncate
 * toward zero (NaN and inf into an integer are an error), Decimals check
 * their storage range (DECIMAL_OVERFLOW), Strings are parsed strictly by
 * ty_value_parse / ty_column_append_text (dates also as ClickHouse's
 * readDateText takes them: any delimiters, YYYYMMDD, out-of-range parts
 * as makeDayNum treats them; unparsable dates, times and UUIDs fail with
 * CANNOT_PARSE_DATE / _DATETIME / _UUID), anything becomes a String through
 * ClickHouse's text rendering, numbers become dates by days or seconds
 * (with ClickHouse's saturation), Arrays and Maps convert element-wise,
 * a LowCardinality target yields its dictionary type, and NULL reaches a
 * non-Nullable target only as an error. A zone-less DateTime is read and
 * written in the session zone (exec_context.timezone).
 * The converter is also used by fn_null.c and fn_math.c (coalesce,
 * greatest, ...) through exec__convert_check / exec__convert_arg.
 */
#include "exec/exec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shared with fn_null.c and fn_math.c, which declare them too (they
 * belong in exec_int.h; see the report of this change).
 *   exec__convert_check: MU_ECANNOT_CONVERT / MU_ENOT_SUPPORTED unless a
 *     CAST from `from` to `to` exists.
 *   exec__convert_into: appends `rows` rows of the argument converted to
 *     out's type, as CAST does; with nulls_as_default a NULL row becomes
 *     the default value (never an error).
 *   exec__convert_arg: the same into a new column of type `to`.
 *   exec__pick_rows: appends row r of cols[pick[r]] for every r (pick -1:
 *     NULL); every column holds rows rows whose type is out's type without
 *     Nullable, or that type made Nullable. */
int exec__convert_check(const ty_type *from, const ty_type *to, mu_err *err);
int exec__convert_into(const exec_call *call, const exec_arg *arg, uint32_t rows,
                       bool nulls_as_default, ty_column *out, mu_err *err);
int exec__convert_arg(const exec_call *call, const exec_arg *arg, uint32_t rows,
                      const ty_type *to, bool nulls_as_default, ty_column **out, mu_err *err);
int exec__pick_rows(ty_column *out, const ty_column *const *cols, const int32_t *pick,
                    uint32_t rows, mu_err *err);

enum cv_mode {
    CV_THROW, /* a value that does not convert is an error */
    CV_ZERO,  /* ... becomes the type's zero (toInt32OrZero) */
    CV_NULL,  /* ... becomes NULL (toInt32OrNull; the target is Nullable) */
};

/* Timestamp limits of ClickHouse's conversions (seconds since the epoch). */
#define CV_DATETIME_MAX 4294967295LL       /* 2106-02-07 06:28:15 */
#define CV_DATE_TIMESTAMP_MAX 5662310399LL /* 2149-06-06 23:59:59 */
#define CV_DT64_MIN (-2208988800LL)        /* 1900-01-01 00:00:00 */
#define CV_DT64_MAX 10413791999LL          /* 2299-12-31 23:59:59 */
#define CV_DATE32_MIN (-25567)             /* 1900-01-01 in days */
#define CV_DATE32_SPAN_END 120530          /* below this a number is days */
#define CV_DATE_DAYS_MAX 65535

/* One conversion: the query context (session zone), the error mode, an
 * optional zone that overrides the source's (toDate(x, 'tz'),
 * toString(x, 'tz')), and whether NULL rows of the source are the
 * framework's business (default NULL handling: the kernel ignores them). */
typedef struct cv_run {
    const exec_context *ctx;
    unsigned mode;
    const ty_tz *zone_override;
    bool nulls_by_framework;
} cv_run;

static int cv_convert(const cv_run *run, const ty_column *src, uint32_t first, uint32_t count,
                      ty_column *dst, mu_err *err);

/* ------------------------------------------------------------------ */
/* Kinds and zones                                                     */
/* ------------------------------------------------------------------ */

static bool cv_is_int_like(ty_kind k) {
    return (k >= TY_UINT8 && k <= TY_INT64) || k == TY_BOOL || k == TY_DATE || k == TY_DATE32 ||
           k == TY_DATETIME || k == TY_ENUM8 || k == TY_ENUM16;
}
static bool cv_is_unsigned_like(ty_kind k) {
    return (k >= TY_UINT8 && k <= TY_UINT64) || k == TY_BOOL || k == TY_DATE || k == TY_DATETIME;
}
static bool cv_is_float(ty_kind k) { return k == TY_FLOAT32 || k == TY_FLOAT64; }
static bool cv_is_string(ty_kind k) { return k == TY_STRING || k == TY_FIXED_STRING; }
static bool cv_is_date_like(ty_kind k) {
    return k == TY_DATE || k == TY_DATE32 || k == TY_DATETIME || k == TY_DATETIME64;
}
static bool cv_is_number(ty_kind k) {
    return (k >= TY_UINT8 && k <= TY_FLOAT64) || k == TY_BOOL;
}
static bool cv_is_enum(ty_kind k) { return k == TY_ENUM8 || k == TY_ENUM16; }

static const ty_tz *cv_session_zone(const cv_run *run) {
    return run->ctx && run->ctx->timezone ? run->ctx->timezone : ty_tz_default();
}

/* The zone a DateTime(64) of this type is read and written in. */
static const ty_tz *cv_type_zone(const cv_run *run, const ty_type *t) {
    return t->timezone ? t->timezone : cv_session_zone(run);
}

/* A source DateTime's zone for rendering it or taking its date. */
static const ty_tz *cv_source_zone(const cv_run *run, const ty_type *t) {
    return run->zone_override ? run->zone_override : cv_type_zone(run, t);
}

static int64_t cv_day_of(const ty_tz *zone, int64_t utc_seconds) {
    int64_t local = utc_seconds + ty_tz_offset_at(zone, utc_seconds);
    int64_t q = local / 86400;
    return (local % 86400 != 0 && local < 0) ? q - 1 : q;
}

static int64_t cv_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* A copy of t carrying an explicit zone (for the ty_value_* calls). */
static ty_type cv_with_zone(const ty_type *t, const ty_tz *zone) {
    ty_type copy = *t;
    copy.timezone = zone;
    copy.timezone_name = ty_tz_name(zone);
    return copy;
}

static bool cv_null_at(const ty_column *c, uint32_t row) { return ty_column_is_null(c, row); }

/* ------------------------------------------------------------------ */
/* Which conversions exist (bind time)                                 */
/* ------------------------------------------------------------------ */

static int cv_unsupported(const ty_type *from, const ty_type *to, mu_err *err) {
    char a[128], b[128];
    ty_type_name(from, a, sizeof(a));
    ty_type_name(to, b, sizeof(b));
    if (to->kind == TY_FIXED_STRING)
        return MU_ERR(err, MU_ENOT_SUPPORTED,
                      "CAST AS FixedString is only implemented for types String and FixedString");
    if ((from->kind == TY_UUID) != (to->kind == TY_UUID) && !cv_is_string(from->kind) &&
        !cv_is_string(to->kind))
        return MU_ERR(err, MU_ENOT_SUPPORTED,
                      "Conversion between numeric types and UUID is not supported. Probably the "
                      "passed UUID is unquoted");
    return MU_ERR(err, MU_ECANNOT_CONVERT, "Conversion from %s to %s is not supported", a, b);
}

/* Recursion follows the type tree (depth <= TY_TYPE_DEPTH_MAX). */
static bool cv_supported(const ty_type *from, const ty_type *to) {
    from = ty_type_strip_nullable(from);
    to = ty_type_strip_nullable(to);
    ty_kind f = from->kind, t = to->kind;
    if (f == TY_NOTHING) return true;
    if (t == TY_NOTHING) return false;
    if (f == t && (f == TY_ARRAY || f == TY_MAP)) {
        if (!cv_supported(from->child, to->child)) return false;
        return f == TY_ARRAY || cv_supported(from->child2, to->child2);
    }
    if (t == TY_STRING || ty_type_equal(from, to)) return true;
    if (cv_is_string(f)) return true;
    if (t == TY_FIXED_STRING || f == TY_ARRAY || f == TY_MAP || t == TY_ARRAY || t == TY_MAP)
        return false;
    if (f == TY_UUID || t == TY_UUID) return f == t;
    bool f_num = cv_is_number(f) || f == TY_DECIMAL;
    if (t == TY_DECIMAL) return f_num || cv_is_enum(f) || f == TY_DATETIME64;
    if (cv_is_enum(t)) return cv_is_int_like(f) && !cv_is_date_like(f);
    if (cv_is_date_like(t)) return cv_is_number(f) || cv_is_date_like(f);
    if (cv_is_number(t)) return f_num || cv_is_date_like(f) || cv_is_enum(f);
    return false;
}

int exec__convert_check(const ty_type *from, const ty_type *to, mu_err *err) {
    /* Report the innermost pair that fails, as ClickHouse names it. */
    const ty_type *f = ty_type_strip_nullable(from), *t = ty_type_strip_nullable(to);
    for (unsigned depth = 0; depth < TY_TYPE_DEPTH_MAX; depth++) {
        if (cv_supported(f, t)) return 0;
        bool nested = f->kind == t->kind && f->kind == TY_ARRAY;
        if (!nested) return cv_unsupported(f, t, err);
        f = ty_type_strip_nullable(f->child);
        t = ty_type_strip_nullable(t->child);
    }
    return cv_unsupported(from, to, err);
}

/* ------------------------------------------------------------------ */
/* Loads with a row offset (Array elements start anywhere): util.c     */
/* ------------------------------------------------------------------ */

void exec__load_f64_at(const ty_column *column, uint32_t first, uint32_t count, double *out);
void exec__load_i64_at(const ty_column *column, uint32_t first, uint32_t count, int64_t *out);
void exec__load_u64_at(const ty_column *column, uint32_t first, uint32_t count, uint64_t *out);

/* A Decimal (or DateTime64 tick count) of storage width 4, 8 or 16. */
static __int128 cv_decimal_get(const ty_column *src, uint32_t width, uint32_t row) {
    const uint8_t *p = ty_column_values(src) + (size_t)row * width;
    if (width == 4) {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    if (width == 8) {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    __int128 v;
    memcpy(&v, p, 16);
    return v;
}

static void cv_decimal_put(uint8_t *at, uint32_t width, __int128 v) {
    if (width == 4) {
        int32_t x = (int32_t)v;
        memcpy(at, &x, 4);
    } else if (width == 8) {
        int64_t x = (int64_t)v;
        memcpy(at, &x, 8);
    } else {
        memcpy(at, &v, 16);
    }
}

static __int128 cv_storage_max(uint32_t width) {
    if (width == 4) return INT32_MAX;
    if (width == 8) return INT64_MAX;
    return (__int128)(((unsigned __int128)1 << 127) - 1);
}

/* Scale and storage width of a Decimal or of DateTime64 ticks. */
static void cv_decimal_shape(const ty_type *t, unsigned *scale, uint32_t *width) {
    *scale = t->kind == TY_DATETIME64 ? t->precision : t->scale;
    *width = t->kind == TY_DATETIME64 ? 8 : ty_type_value_bytes(t);
}

/* A row of an integer-like column as a wide signed value. */
static __int128 cv_int_get(const ty_column *src, uint32_t row) {
    const ty_type *t = ty_type_strip_nullable(src->type);
    if (cv_is_unsigned_like(t->kind)) return (__int128)exec_get_u64(src, row);
    return (__int128)exec_get_i64(src, row);
}

static void cv_int_range(ty_kind k, __int128 *min, __int128 *max) {
    switch (k) {
    case TY_UINT8: *min = 0; *max = UINT8_MAX; return;
    case TY_UINT16: *min = 0; *max = UINT16_MAX; return;
    case TY_UINT32: *min = 0; *max = UINT32_MAX; return;
    case TY_UINT64: *min = 0; *max = UINT64_MAX; return;
    case TY_INT8: *min = INT8_MIN; *max = INT8_MAX; return;
    case TY_INT16: *min = INT16_MIN; *max = INT16_MAX; return;
    case TY_INT32: *min = INT32_MIN; *max = INT32_MAX; return;
    default: *min = INT64_MIN; *max = INT64_MAX; return;
    }
}

/* ------------------------------------------------------------------ */
/* Numbers to numbers                                                  */
/* ------------------------------------------------------------------ */

/* A finite float into an integer kind as ClickHouse's static_cast does
 * on x86-64 (cvttsd2si): narrow kinds go through Int32, UInt32 and Int64
 * through Int64, UInt64 through the unsigned sequence; out of range gives
 * the "integer indefinite" value, then wraps to the width. */
static int64_t cv_float_to_int(double v, ty_kind k) {
    if (k == TY_UINT8 || k == TY_UINT16 || k == TY_INT8 || k == TY_INT16 || k == TY_INT32)
        return (v > -2147483649.0 && v < 2147483648.0) ? (int64_t)(int32_t)v : INT32_MIN;
    bool in_int64 = v >= -9223372036854775808.0 && v < 9223372036854775808.0;
    if (k != TY_UINT64) return in_int64 ? (int64_t)v : INT64_MIN;
    if (in_int64) return (int64_t)v;
    if (v >= 0 && v < 18446744073709551616.0) return (int64_t)(uint64_t)v;
    return v >= 0 ? 0 : INT64_MIN;
}

static int cv_numbers(const ty_column *src, uint32_t first, uint32_t count, ty_column *dst,
                      mu_err *err) {
    ty_kind s = ty_type_strip_nullable(src->type)->kind, d = dst->type->kind;
    void *buffer = exec__scratch(count, 8, err);
    if (buffer == NULL) return err->code;
    int rc = 0;
    if (cv_is_float(s)) {
        double *v = buffer;
        exec__load_f64_at(src, first, count, v);
        int64_t *w = cv_is_float(d) || d == TY_BOOL ? NULL : exec__scratch(count, 8, err);
        if (cv_is_float(d) || d == TY_BOOL) {
            rc = exec__store_f64(dst, v, count, err);
        } else if (w == NULL) {
            rc = err->code;
        } else {
            for (uint32_t i = 0; i < count && rc == 0; i++) {
                if (!isfinite(v[i]) && !cv_null_at(src, first + i))
                    rc = MU_ERR(err, MU_ECANNOT_CONVERT,
                                "Unexpected inf or nan to integer conversion");
                w[i] = isfinite(v[i]) ? cv_float_to_int(v[i], d) : 0;
            }
            if (rc == 0) rc = exec__store_i64(dst, w, count, err);
        }
        free(w);
    } else if (cv_is_unsigned_like(s)) {
        exec__load_u64_at(src, first, count, buffer);
        rc = exec__store_u64(dst, buffer, count, err);
    } else {
        exec__load_i64_at(src, first, count, buffer);
        rc = exec__store_i64(dst, buffer, count, err);
    }
    free(buffer);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decimals                                                            */
/* ------------------------------------------------------------------ */

static int cv_decimal_overflow(mu_err *err, const char *why) {
    return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal convert overflow%s", why);
}

/* Rescales v from scale `from` to scale `to` (dividing truncates toward
 * zero); false on overflow of the 128-bit intermediate. */
static bool cv_rescale(__int128 v, unsigned from, unsigned to, __int128 *out) {
    if (to >= from) return !__builtin_mul_overflow(v, ty_decimal_pow10(to - from), out);
    *out = v / ty_decimal_pow10(from - to);
    return true;
}

/* One value into a Decimal of `scale` and storage `width`. */
static int cv_decimal_value(const ty_column *src, uint32_t row, unsigned scale, uint32_t width,
                            __int128 *out, mu_err *err) {
    const ty_type *s = ty_type_strip_nullable(src->type);
    __int128 max = cv_storage_max(width), v;
    if (cv_is_float(s->kind)) {
        double x = exec_get_f64(src, row), scaled;
        if (!isfinite(x))
            return cv_decimal_overflow(err, ". Cannot convert infinity or NaN to decimal");
        /* In the source's own precision, as ClickHouse multiplies. */
        if (s->kind == TY_FLOAT32)
            scaled = (float)x * (float)ty_decimal_pow10(scale);
        else
            scaled = x * (double)ty_decimal_pow10(scale);
        if (scaled <= -(double)max - 1.0 || scaled >= (double)max)
            return cv_decimal_overflow(err, ". Float is out of Decimal range");
        *out = (__int128)scaled;
        return 0;
    }
    if (s->kind == TY_DECIMAL || s->kind == TY_DATETIME64) {
        unsigned from_scale;
        uint32_t from_width;
        cv_decimal_shape(s, &from_scale, &from_width);
        if (!cv_rescale(cv_decimal_get(src, from_width, row), from_scale, scale, &v))
            return cv_decimal_overflow(err, "");
    } else if (!cv_rescale(cv_int_get(src, row), 0, scale, &v)) {
        return cv_decimal_overflow(err, "");
    }
    if (v > max || v < -max - 1) return cv_decimal_overflow(err, "");
    *out = v;
    return 0;
}

static int cv_to_decimal(const ty_column *src, uint32_t first, uint32_t count, ty_column *dst,
                         mu_err *err) {
    unsigned scale;
    uint32_t width;
    cv_decimal_shape(dst->type, &scale, &width);
    void *at;
    int rc = ty_column_append_fixed_uninit(dst, count, &at, err);
    if (rc != 0) return rc;
    uint8_t *out = at;
    for (uint32_t i = 0; i < count; i++) {
        __int128 v = 0;
        if (!cv_null_at(src, first + i))
            rc = cv_decimal_value(src, first + i, scale, width, &v, err);
        if (rc != 0) return rc;
        cv_decimal_put(out + (size_t)i * width, width, v);
    }
    return 0;
}

/* Decimal (or DateTime64 ticks) into an integer, float or Bool. */
static int cv_from_decimal(const ty_column *src, uint32_t first, uint32_t count, ty_column *dst,
                           mu_err *err) {
    unsigned scale;
    uint32_t width;
    cv_decimal_shape(ty_type_strip_nullable(src->type), &scale, &width);
    ty_kind d = dst->type->kind;
    __int128 unit = ty_decimal_pow10(scale), min, max;
    cv_int_range(d, &min, &max);
    void *buffer = exec__scratch(count, 8, err);
    if (buffer == NULL) return err->code;
    double *f = buffer;
    int64_t *w = buffer;
    int rc = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        __int128 v = cv_decimal_get(src, width, first + i);
        if (cv_is_float(d)) {
            f[i] = d == TY_FLOAT32 ? (double)((float)v / (float)unit) : (double)v / (double)unit;
        } else if (d == TY_BOOL) {
            w[i] = v != 0;
        } else {
            __int128 whole = v / unit;
            if ((whole < min || whole > max) && !cv_null_at(src, first + i))
                rc = MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Convert overflow");
            w[i] = (int64_t)(uint64_t)(unsigned __int128)whole;
        }
    }
    if (rc == 0)
        rc = cv_is_float(d) ? exec__store_f64(dst, f, count, err)
                            : exec__store_i64(dst, w, count, err);
    free(buffer);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Dates and times                                                     */
/* ------------------------------------------------------------------ */

/* A number as a Date, ClickHouse's way: small values are days, larger
 * ones Unix seconds whose date is taken in the session zone. */
static int64_t cv_number_to_date(const cv_run *run, ty_kind s, double f, __int128 v) {
    const ty_tz *zone = cv_session_zone(run);
    if (cv_is_float(s)) {
        if (isnan(f) || f < 0) return 0;
        if (f <= CV_DATE_DAYS_MAX) return (int64_t)f;
        v = (__int128)(f < (double)CV_DATE_TIMESTAMP_MAX ? f : (double)CV_DATE_TIMESTAMP_MAX);
    }
    if (v < 0) return 0;
    if (v <= CV_DATE_DAYS_MAX) return (int64_t)v;
    bool big_unsigned = s == TY_UINT32 || s == TY_UINT64;
    __int128 limit = big_unsigned ? CV_DATETIME_MAX : CV_DATE_TIMESTAMP_MAX;
    int64_t day = cv_day_of(zone, (int64_t)(v < limit ? v : limit));
    return day > CV_DATE_DAYS_MAX ? CV_DATE_DAYS_MAX : day;
}

static int64_t cv_number_to_date32(const cv_run *run, ty_kind s, double f, __int128 v) {
    bool small = s == TY_UINT8 || s == TY_UINT16 || s == TY_INT8 || s == TY_INT16 ||
                 s == TY_BOOL;
    if (small) return (int64_t)v;
    if (cv_is_float(s)) {
        if (isnan(f)) return 0;
        if (f < CV_DATE32_MIN) return CV_DATE32_MIN;
        if (f < CV_DATE32_SPAN_END) return (int64_t)f;
        v = (__int128)(f < (double)CV_DT64_MAX ? f : (double)CV_DT64_MAX);
    }
    if (v < CV_DATE32_MIN) return CV_DATE32_MIN;
    if (v < CV_DATE32_SPAN_END) return (int64_t)v;
    return cv_day_of(cv_session_zone(run), (int64_t)(v < CV_DT64_MAX ? v : CV_DT64_MAX));
}

static int64_t cv_number_to_datetime(ty_kind s, double f, __int128 v) {
    if (cv_is_float(s)) {
        if (isnan(f) || f < 0) return 0;
        return f < (double)CV_DATETIME_MAX ? (int64_t)f : CV_DATETIME_MAX;
    }
    if (v < 0) return 0;
    return v < CV_DATETIME_MAX ? (int64_t)v : CV_DATETIME_MAX;
}

static int cv_number_to_datetime64(ty_kind s, double f, __int128 v, unsigned precision,
                                   int64_t *out, mu_err *err) {
    int64_t unit = (int64_t)ty_decimal_pow10(precision);
    if (cv_is_float(s)) {
        if (isnan(f))
            return cv_decimal_overflow(err, ". Cannot convert infinity or NaN to decimal");
        f = f < (double)CV_DT64_MIN ? (double)CV_DT64_MIN : f;
        f = f > (double)CV_DT64_MAX ? (double)CV_DT64_MAX : f;
        double scaled = s == TY_FLOAT32 ? (double)((float)f * (float)unit) : f * (double)unit;
        if (scaled <= -9223372036854775808.0 || scaled >= 9223372036854775807.0)
            return cv_decimal_overflow(err, ". Float is out of Decimal range");
        *out = (int64_t)scaled;
        return 0;
    }
    v = v < CV_DT64_MIN ? CV_DT64_MIN : v > CV_DT64_MAX ? CV_DT64_MAX : v;
    *out = (int64_t)(uint64_t)(unsigned __int128)(v * unit); /* wraps at P = 9, as ClickHouse */
    return 0;
}

/* A date-like source as (utc seconds, sub-second ticks, scale) or days. */
static int64_t cv_date_days(const cv_run *run, const ty_column *src, uint32_t row) {
    const ty_type *s = ty_type_strip_nullable(src->type);
    switch (s->kind) {
    case TY_DATE: case TY_DATE32: return exec_get_i64(src, row);
    case TY_DATETIME: return cv_day_of(cv_source_zone(run, s), (int64_t)exec_get_u64(src, row));
    default: {
        int64_t unit = (int64_t)ty_decimal_pow10(s->precision);
        return cv_day_of(cv_source_zone(run, s), cv_floor_div(exec_get_i64(src, row), unit));
    }
    }
}

/* Date-like to date-like: days or seconds, in the target's zone. */
static int cv_date_to_date(const cv_run *run, const ty_column *src, uint32_t row,
                           const ty_type *d, int64_t *out, mu_err *err) {
    const ty_type *s = ty_type_strip_nullable(src->type);
    (void)err;
    bool from_days = s->kind == TY_DATE || s->kind == TY_DATE32;
    if (d->kind == TY_DATE || d->kind == TY_DATE32) {
        int64_t days = cv_date_days(run, src, row);
        if (d->kind == TY_DATE) days = days < 0 ? 0 : MU_MIN(days, (int64_t)CV_DATE_DAYS_MAX);
        *out = days;
        return 0;
    }
    __int128 ticks; /* DateTime64 target ticks, or DateTime seconds */
    unsigned to_precision = d->kind == TY_DATETIME64 ? d->precision : 0;
    if (from_days) {
        int64_t local = exec_get_i64(src, row) * 86400;
        ticks = (__int128)ty_tz_local_to_utc(cv_type_zone(run, d), local) *
                ty_decimal_pow10(to_precision);
    } else if (s->kind == TY_DATETIME) {
        ticks = (__int128)exec_get_u64(src, row) * ty_decimal_pow10(to_precision);
    } else {
        __int128 v = exec_get_i64(src, row);
        if (to_precision >= s->precision)
            ticks = v * ty_decimal_pow10(to_precision - s->precision);
        else if (d->kind == TY_DATETIME64)
            ticks = v / ty_decimal_pow10(s->precision - to_precision);
        else
            ticks = cv_floor_div((int64_t)v, (int64_t)ty_decimal_pow10(s->precision));
    }
    *out = d->kind == TY_DATETIME ? (int64_t)(uint32_t)(uint64_t)(unsigned __int128)ticks
                                  : (int64_t)(uint64_t)(unsigned __int128)ticks;
    return 0;
}

static int cv_to_date(const cv_run *run, const ty_column *src, uint32_t first, uint32_t count,
                      ty_column *dst, mu_err *err) {
    const ty_type *s = ty_type_strip_nullable(src->type), *d = dst->type;
    int64_t *v = exec__scratch(count, sizeof(int64_t), err);
    if (v == NULL) return err->code;
    int rc = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        uint32_t row = first + i;
        if (cv_null_at(src, row)) {
            v[i] = 0;
            continue;
        }
        if (cv_is_date_like(s->kind)) {
            rc = cv_date_to_date(run, src, row, d, &v[i], err);
            continue;
        }
        double f = cv_is_float(s->kind) ? exec_get_f64(src, row) : 0;
        __int128 n = cv_is_float(s->kind) ? 0 : cv_int_get(src, row);
        switch (d->kind) {
        case TY_DATE: v[i] = cv_number_to_date(run, s->kind, f, n); break;
        case TY_DATE32: v[i] = cv_number_to_date32(run, s->kind, f, n); break;
        case TY_DATETIME: v[i] = cv_number_to_datetime(s->kind, f, n); break;
        default: rc = cv_number_to_datetime64(s->kind, f, n, d->precision, &v[i], err); break;
        }
    }
    if (rc == 0) rc = exec__store_i64(dst, v, count, err);
    free(v);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Enums                                                               */
/* ------------------------------------------------------------------ */

static const ty_enum_entry *cv_enum_by_value(const ty_type *t, int64_t value) {
    uint32_t lo = 0, hi = t->enum_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->enum_entries[mid].value < value) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->enum_count && t->enum_entries[lo].value == value ? &t->enum_entries[lo] : NULL;
}

static const ty_enum_entry *cv_enum_by_name(const ty_type *t, const char *name, size_t bytes) {
    for (uint32_t i = 0; i < t->enum_count; i++) {
        const ty_enum_entry *e = &t->enum_entries[i];
        if (e->name_bytes == bytes && memcmp(e->name, name, bytes) == 0) return e;
    }
    return NULL;
}

/* An integer (its value must be declared) or another Enum (by name). */
static int cv_to_enum(const ty_column *src, uint32_t first, uint32_t count, ty_column *dst,
                      mu_err *err) {
    const ty_type *s = ty_type_strip_nullable(src->type), *d = dst->type;
    uint32_t width = ty_type_value_bytes(d);
    void *at;
    int rc = ty_column_append_fixed_uninit(dst, count, &at, err);
    if (rc != 0) return rc;
    char name[128];
    for (uint32_t i = 0; i < count; i++) {
        uint32_t row = first + i;
        int64_t value = d->enum_entries[0].value;
        if (!cv_null_at(src, row)) {
            int64_t v = (int64_t)cv_int_get(src, row);
            const ty_enum_entry *e = NULL;
            if (cv_is_enum(s->kind)) {
                const ty_enum_entry *from = cv_enum_by_value(s, v);
                if (from != NULL) e = cv_enum_by_name(d, from->name, from->name_bytes);
                if (e == NULL)
                    return MU_ERR(err, MU_EINVAL, "Unknown element '%.*s' for enum %s",
                                  from ? (int)MU_MIN(from->name_bytes, 64u) : 0,
                                  from ? from->name : "", ty_type_name(d, name, sizeof(name)));
            } else if ((e = cv_enum_by_value(d, v)) == NULL) {
                return MU_ERR(err, MU_EINVAL, "Unexpected value %lld in enum",
                              (long long)v);
            }
            value = e->value;
        }
        if (width == 1) ((int8_t *)at)[i] = (int8_t)value;
        else ((int16_t *)at)[i] = (int16_t)value;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* To and from text                                                    */
/* ------------------------------------------------------------------ */

/* The rendering type of a source: zone-less DateTime(64) in the session
 * (or overriding) zone. */
static ty_type cv_render_type(const cv_run *run, const ty_type *s) {
    if (s->kind == TY_DATETIME || s->kind == TY_DATETIME64)
        return cv_with_zone(s, cv_source_zone(run, s));
    return *s;
}

static int cv_to_string(const cv_run *run, const ty_column *src, uint32_t first, uint32_t count,
                        ty_column *dst, mu_err *err) {
    const ty_type *s = ty_type_strip_nullable(src->type);
    ty_type render = cv_render_type(run, s);
    mu_buf text;
    mu_buf_init(&text, 0);
    int rc = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        uint32_t row = first + i;
        mu_buf_clear(&text);
        size_t bytes = 0;
        const uint8_t *data = NULL;
        if (cv_null_at(src, row) || s->kind == TY_NOTHING) {
            /* an empty payload: the NULL is the caller's */
        } else if (cv_is_string(s->kind)) {
            data = ty_column_row_bytes(src, row, &bytes);
            while (s->kind == TY_FIXED_STRING && bytes > 0 && data[bytes - 1] == 0) bytes--;
        } else if (s->kind == TY_ARRAY || s->kind == TY_MAP) {
            rc = ty_column_render_text(src, row, 0, &text, err);
        } else {
            rc = ty_value_render(&render, ty_column_row_bytes(src, row, &bytes), 0, &text, err);
        }
        if (data == NULL) {
            data = text.data;
            bytes = text.length_bytes;
        }
        if (rc == 0) rc = ty_column_append_bytes(dst, data, bytes, err);
    }
    mu_buf_deinit(&text);
    return rc;
}

/* The type a String is parsed as: zone-less DateTime(64) in the session
 * zone; a Decimal with its storage's full precision (ClickHouse checks
 * only that the value fits the storage). */
static ty_type cv_parse_type(const cv_run *run, const ty_type *d) {
    ty_type t = *d;
    if (d->kind == TY_DATETIME || d->kind == TY_DATETIME64)
        t = cv_with_zone(d, cv_type_zone(run, d));
    if (d->kind == TY_DECIMAL) {
        uint32_t width = ty_type_value_bytes(d);
        t.precision = width == 4 ? 9 : width == 8 ? 18 : 38;
    }
    return t;
}

/* Date and Date32 also read "YYYY-MM-DD hh:mm:ss[.fraction]" (the time is
 * dropped), as ClickHouse does. */
static bool cv_date_with_time(const char *s, size_t n) {
    if (n < 19 || (s[10] != ' ' && s[10] != 'T')) return false;
    if (n == 19) return true;
    if (n < 21 || s[19] != '.') return false;
    for (size_t i = 20; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static bool cv_digits(const char *s, size_t from, size_t to) {
    for (size_t i = from; i < to; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

/* ClickHouse's date reader (readDateText): four digits of year, then
 * either four digits (YYYYMMDD) or a non-digit, one or two digits of
 * month, a non-digit and one or two digits of day. *used_out is how much
 * it read; false when the text is not a date. */
static bool cv_read_date(const char *s, size_t n, unsigned *year, unsigned *month, unsigned *day,
                         size_t *used_out) {
    if (n < 5 || !cv_digits(s, 0, 4)) return false;
    *year = (unsigned)((s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0'));
    if (cv_digits(s, 4, 5)) {
        if (n < 8 || !cv_digits(s, 4, 8)) return false;
        *month = (unsigned)((s[4] - '0') * 10 + (s[5] - '0'));
        *day = (unsigned)((s[6] - '0') * 10 + (s[7] - '0'));
        *used_out = 8;
        return true;
    }
    size_t i = 5;
    unsigned parts[2];
    for (unsigned k = 0; k < 2; k++) {
        if (i >= n || !cv_digits(s, i, i + 1)) return false;
        parts[k] = (unsigned)(s[i++] - '0');
        if (i < n && cv_digits(s, i, i + 1)) parts[k] = parts[k] * 10 + (unsigned)(s[i++] - '0');
        if (k == 0) {
            if (i >= n) return false;
            i++; /* the delimiter: a non-digit */
        }
    }
    *month = parts[0];
    *day = parts[1];
    *used_out = i;
    return true;
}

/* Whether s starts with a date (as cv_read_date reads it) and has more
 * after it. */
static bool cv_date_then_more(const char *s, size_t n) {
    unsigned y, m, d;
    size_t used;
    return cv_read_date(s, n, &y, &m, &d, &used) && used < n;
}

/* A date text ty_value_parse refused, read as ClickHouse reads it: any
 * delimiters, one-digit month and day, YYYYMMDD; a month or day out of
 * 1..12 / 1..31 (or a year before 1900) is the type's default (1970-01-01,
 * Date32 1900-01-01), a day past the month's end runs into the next
 * month, and Date saturates at its bounds (makeDayNum). True when the
 * whole text was such a date; *days_out is the day number. */
static bool cv_date_lenient(const ty_type *d, const char *s, size_t n, int64_t *days_out) {
    unsigned year, month, day;
    size_t used;
    if (!cv_read_date(s, n, &year, &month, &day, &used) || used != n) return false;
    bool is_date32 = d->kind == TY_DATE32;
    int64_t days;
    if (year < 1900 || month < 1 || month > 12 || day < 1 || day > 31)
        days = is_date32 ? CV_DATE32_MIN : 0;
    else
        days = ty_days_from_civil(year, month, 1) + (int64_t)day - 1;
    if (!is_date32) days = days < 0 ? 0 : days > CV_DATE_DAYS_MAX ? CV_DATE_DAYS_MAX : days;
    *days_out = days;
    return true;
}

/* A String that does not parse as a date, a time or a UUID fails with
 * ClickHouse's reader's code (CANNOT_PARSE_DATE, CANNOT_PARSE_DATETIME,
 * CANNOT_PARSE_UUID); one whose value parses but is followed by more text
 * stays CANNOT_PARSE_TEXT ("incompletely parsed value"), or with
 * whole_value (a constant compared with a column: convertFieldToType)
 * is TYPE_MISMATCH. */
int exec__text_parse_error(const ty_type *d, const char *s, size_t n, int rc, bool whole_value,
                           mu_err *err);
int exec__text_parse_error(const ty_type *d, const char *s, size_t n, int rc, bool whole_value,
                           mu_err *err) {
    bool parse_error = rc == MU_EPARSE || rc == MU_EPARSE_DATE || rc == MU_EPARSE_DATETIME ||
                       rc == MU_EPARSE_UUID;
    if (!parse_error) return rc;
    bool more = false; /* the value parses and more text follows */
    int code = rc;
    switch (d->kind) {
    case TY_DATE:
    case TY_DATE32:
        more = cv_date_then_more(s, n);
        code = MU_EPARSE_DATE;
        break;
    case TY_DATETIME:
    case TY_DATETIME64:
        more = n > 19 && cv_date_then_more(s, n) && cv_digits(s, 11, 13) &&
               cv_digits(s, 14, 16) && cv_digits(s, 17, 19);
        /* Digits only are a Unix timestamp: an overflow stays a text error. */
        code = n > 0 && cv_digits(s, 0, n) ? MU_EPARSE : MU_EPARSE_DATETIME;
        break;
    case TY_UUID: {
        mu_err ignored;
        uint8_t value[16];
        more = n > 36 && ty_value_parse(d, s, 36, value, &ignored) == 0;
        code = MU_EPARSE_UUID;
        break;
    }
    default:
        return rc;
    }
    if (more && whole_value) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "Cannot convert string '%.*s' to type %s",
                      (int)MU_MIN(n, 200u), s, ty_type_name(d, name, sizeof(name)));
    }
    err->code = more ? MU_EPARSE : code;
    return err->code;
}

static bool cv_is_value_error(int rc) {
    return rc == MU_EPARSE || rc == MU_ETOO_LARGE || rc == MU_EDECIMAL_OVERFLOW ||
           rc == MU_EPARSE_DATE || rc == MU_EPARSE_DATETIME || rc == MU_EPARSE_UUID;
}

static int cv_parse_one(const ty_type *parse, ty_column *dst, const char *s, size_t n,
                        mu_err *err) {
    const ty_type *d = dst->type;
    uint8_t value[16];
    char name[128];
    switch (d->kind) {
    case TY_FIXED_STRING:
        if (n > d->length)
            return MU_ERR(err, MU_ETOO_LARGE, "String too long for type %s",
                          ty_type_name(d, name, sizeof(name)));
        return ty_column_append_bytes(dst, s, n, err);
    case TY_ARRAY:
    case TY_MAP:
        return ty_column_append_text(dst, s, n, err);
    default:
        break;
    }
    if (exec_type_is_integer(d)) {
        /* ClickHouse reads integers without a range check: '300' as UInt8
         * is 44. The syntax stays strict; the message names the target. */
        bool negative = n > 0 && s[0] == '-';
        int64_t wide;
        mu_err ignored;
        const ty_type *as = ty_type_builtin(negative ? TY_INT64 : TY_UINT64);
        if (ty_value_parse(as, s, n, &wide, &ignored) == 0)
            return exec__store_i64(dst, &wide, 1, err);
    }
    int rc = ty_value_parse(parse, s, n, value, err);
    if (rc != 0 && (d->kind == TY_DATE || d->kind == TY_DATE32) && cv_date_with_time(s, n)) {
        mu_err second;
        if (ty_value_parse(parse, s, 10, value, &second) == 0) rc = 0;
    }
    int64_t days;
    if (rc != 0 && (d->kind == TY_DATE || d->kind == TY_DATE32) &&
        cv_date_lenient(d, s, n, &days)) {
        if (d->kind == TY_DATE) {
            uint16_t v16 = (uint16_t)days;
            return ty_column_append_value(dst, &v16, err);
        }
        int32_t v32 = (int32_t)days;
        return ty_column_append_value(dst, &v32, err);
    }
    if (rc != 0) return exec__text_parse_error(d, s, n, rc, false, err);
    return ty_column_append_value(dst, value, err);
}

/* The value an unparsable String becomes with OrZero / OrNull. */
static int cv_append_zero(ty_column *dst, mu_err *err) {
    if (dst->type->kind == TY_DATE32) {
        int32_t min = CV_DATE32_MIN;
        return ty_column_append_value(dst, &min, err);
    }
    return ty_column_append_default(dst, err);
}

static int cv_from_string(const cv_run *run, const ty_column *src, uint32_t first,
                          uint32_t count, ty_column *dst, uint8_t *failed, mu_err *err) {
    bool fixed = ty_type_strip_nullable(src->type)->kind == TY_FIXED_STRING;
    ty_type parse = cv_parse_type(run, dst->type);
    int rc = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        uint32_t row = first + i;
        if (cv_null_at(src, row)) {
            rc = cv_append_zero(dst, err);
            continue;
        }
        size_t n;
        const char *s = (const char *)ty_column_row_bytes(src, row, &n);
        while (fixed && n > 0 && s[n - 1] == 0) n--;
        rc = cv_parse_one(&parse, dst, s, n, err);
        if (rc != 0 && cv_is_value_error(rc) && run->mode != CV_THROW) {
            rc = cv_append_zero(dst, err);
            if (failed != NULL) failed[i >> 3] |= (uint8_t)(1u << (i & 7));
        }
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* Copies, arrays, maps                                                */
/* ------------------------------------------------------------------ */

/* Same representation (equal types, or DateTimes differing in zone):
 * the values move as they are. */
static int cv_copy(const ty_column *src, uint32_t first, uint32_t count, ty_column *dst,
                   mu_err *err) {
    const ty_type *d = dst->type;
    if (d->kind == TY_STRING) {
        int rc = 0;
        for (uint32_t i = 0; i < count && rc == 0; i++) {
            size_t n;
            const uint8_t *s = ty_column_row_bytes(src, first + i, &n);
            rc = ty_column_append_bytes(dst, s, n, err);
        }
        return rc;
    }
    if (d->kind == TY_ARRAY || d->kind == TY_MAP)
        return ty_column_append_rows_from(dst, src, first, count, err);
    uint32_t width = ty_type_value_bytes(d);
    void *at;
    int rc = ty_column_append_fixed_uninit(dst, count, &at, err);
    if (rc == 0 && count > 0)
        memcpy(at, ty_column_values(src) + (size_t)first * width, (size_t)count * width);
    return rc;
}

static bool cv_same_representation(const ty_type *s, const ty_type *d) {
    if (ty_type_equal(s, d)) return true;
    if (s->kind == TY_DATETIME && d->kind == TY_DATETIME) return true;
    return s->kind == TY_DATETIME64 && d->kind == TY_DATETIME64 && s->precision == d->precision;
}

/* Element-wise: children converted as one range, then the row lengths.
 * Recursion follows the type tree (depth <= TY_TYPE_DEPTH_MAX). */
static int cv_nested(const cv_run *run, const ty_column *src, uint32_t first, uint32_t count,
                     ty_column *dst, mu_err *err) {
    cv_run inner = {.ctx = run->ctx, .mode = CV_THROW, .zone_override = run->zone_override};
    const uint32_t *offsets = ty_column_offsets(src);
    uint32_t start = offsets[first], end = offsets[first + count];
    unsigned children = ty_type_strip_nullable(src->type)->kind == TY_MAP ? 2 : 1;
    uint32_t before[2] = {dst->children[0]->row_count,
                          children == 2 ? dst->children[1]->row_count : 0};
    int rc = 0;
    for (unsigned c = 0; c < children && rc == 0; c++)
        rc = cv_convert(&inner, src->children[c], start, end - start, ty_column_child_mut(dst, c),
                        err);
    uint32_t *lengths = rc == 0 ? exec__scratch(count, sizeof(uint32_t), err) : NULL;
    if (rc == 0 && lengths == NULL) rc = err->code;
    for (uint32_t i = 0; rc == 0 && i < count; i++)
        lengths[i] = offsets[first + i + 1] - offsets[first + i];
    if (rc == 0) rc = ty_column_append_nested_raw(dst, lengths, count, err);
    free(lengths);
    if (rc != 0)
        for (unsigned c = 0; c < children; c++)
            ty_column_truncate(ty_column_child_mut(dst, c), before[c]);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The conversion                                                      */
/* ------------------------------------------------------------------ */

/* Rows [first, first + count) of src into dst (not Nullable). NULL rows
 * of src become the default and never fail. With a mode other than
 * CV_THROW a String that does not parse becomes the zero value and, if
 * `failed` is given, sets its bit. */
static int cv_values(const cv_run *run, const ty_column *src, uint32_t first, uint32_t count,
                     ty_column *dst, uint8_t *failed, mu_err *err) {
    const ty_type *s = ty_type_strip_nullable(src->type), *d = dst->type;
    MU_ASSERT(!dst->nullable);
    MU_ASSERT(failed == NULL || run->mode == CV_NULL);
    if (s->kind == TY_NOTHING) {
        int rc = 0;
        for (uint32_t i = 0; i < count && rc == 0; i++) rc = ty_column_append_default(dst, err);
        return rc;
    }
    if (d->kind == TY_STRING && s->kind != TY_STRING)
        return cv_to_string(run, src, first, count, dst, err);
    if (cv_same_representation(s, d)) return cv_copy(src, first, count, dst, err);
    if (cv_is_string(s->kind)) return cv_from_string(run, src, first, count, dst, failed, err);
    if (s->kind == TY_ARRAY || s->kind == TY_MAP)
        return cv_nested(run, src, first, count, dst, err);
    if (d->kind == TY_DECIMAL) return cv_to_decimal(src, first, count, dst, err);
    if (cv_is_date_like(d->kind)) return cv_to_date(run, src, first, count, dst, err);
    if (cv_is_enum(d->kind)) return cv_to_enum(src, first, count, dst, err);
    if (s->kind == TY_DECIMAL || s->kind == TY_DATETIME64)
        return cv_from_decimal(src, first, count, dst, err);
    if (cv_is_number(d->kind)) return cv_numbers(src, first, count, dst, err);
    return cv_unsupported(s, d, err);
}

static int cv_null_error(mu_err *err) {
    return MU_ERR(err, MU_EINSERT_NULL, "Cannot convert NULL value to non-Nullable type");
}

/* Into a Nullable target: convert into the inner type, then mark the
 * source's NULL rows and (CV_NULL) the rows that did not parse. */
static int cv_into_nullable(const cv_run *run, const ty_column *src, uint32_t first,
                            uint32_t count, ty_column *dst, mu_err *err) {
    MU_ASSERT(dst->nullable && dst->type->kind == TY_NULLABLE);
    size_t bitmap_bytes = ((size_t)count + 7) / 8;
    uint8_t *failed = calloc(bitmap_bytes ? bitmap_bytes : 1, 1);
    uint8_t *valid = calloc(bitmap_bytes ? bitmap_bytes : 1, 1);
    ty_column *inner = NULL;
    int rc = failed && valid ? 0 : MU_ERR(err, MU_ENOMEM, "out of memory converting a column");
    if (rc == 0) rc = ty_column_create(dst->type->child, dst->tracker, &inner, err);
    if (rc == 0)
        rc = cv_values(run, src, first, count, inner, run->mode == CV_NULL ? failed : NULL, err);
    for (uint32_t i = 0; rc == 0 && i < count; i++) {
        bool ok = !cv_null_at(src, first + i) && !(failed[i >> 3] & (1u << (i & 7)));
        if (ok) valid[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    if (rc == 0) rc = ty_column_make_nullable(inner, dst->type, valid, err);
    if (rc == 0) rc = ty_column_append_rows_from(dst, inner, 0, count, err);
    ty_column_destroy(inner);
    free(failed);
    free(valid);
    return rc;
}

/* Rows [first, first + count) of src (any type the conversion matrix
 * allows) appended to dst. On failure dst is left as it was. */
static int cv_convert(const cv_run *run, const ty_column *src, uint32_t first, uint32_t count,
                      ty_column *dst, mu_err *err) {
    MU_ASSERT((uint64_t)first + count <= src->row_count);
    uint32_t before = dst->row_count;
    const ty_type *s = ty_type_strip_nullable(src->type);
    int rc = 0;
    if (dst->nullable && s->kind == TY_NOTHING) {
        for (uint32_t i = 0; i < count && rc == 0; i++) rc = ty_column_append_null(dst, err);
    } else if (dst->nullable) {
        rc = cv_into_nullable(run, src, first, count, dst, err);
    } else {
        bool check = (src->nullable || s->kind == TY_NOTHING) && !run->nulls_by_framework;
        for (uint32_t i = 0; check && i < count && rc == 0; i++)
            if (s->kind == TY_NOTHING || cv_null_at(src, first + i)) rc = cv_null_error(err);
        if (rc == 0) rc = cv_values(run, src, first, count, dst, NULL, err);
    }
    if (rc != 0) ty_column_truncate(dst, before);
    MU_ASSERT(rc != 0 || dst->row_count == before + count);
    return rc;
}

/* An argument (a constant is converted once, then repeated). */
static int cv_convert_arg(const cv_run *run, const exec_arg *a, uint32_t rows, ty_column *out,
                          mu_err *err) {
    if (!a->is_const || rows == 1) return cv_convert(run, a->column, 0, rows, out, err);
    ty_column *one;
    int rc = ty_column_create(out->type, out->tracker, &one, err);
    if (rc != 0) return rc;
    rc = cv_convert(run, a->column, 0, 1, one, err);
    uint32_t *zeros = rc == 0 ? calloc(rows ? rows : 1, sizeof(uint32_t)) : NULL;
    if (rc == 0 && zeros == NULL)
        rc = MU_ERR(err, MU_ENOMEM, "out of memory converting a constant");
    if (rc == 0) rc = ty_column_append_gather(out, one, zeros, rows, err);
    free(zeros);
    ty_column_destroy(one);
    return rc;
}

int exec__convert_into(const exec_call *call, const exec_arg *arg, uint32_t rows,
                       bool nulls_as_default, ty_column *out, mu_err *err) {
    cv_run run = {.ctx = call->ctx, .mode = CV_THROW, .nulls_by_framework = nulls_as_default};
    return cv_convert_arg(&run, arg, rows, out, err);
}

int exec__convert_arg(const exec_call *call, const exec_arg *arg, uint32_t rows,
                      const ty_type *to, bool nulls_as_default, ty_column **out, mu_err *err) {
    ty_column *c;
    int rc = ty_column_create(to, call->ctx ? call->ctx->tracker : NULL, &c, err);
    if (rc != 0) return rc;
    rc = exec__convert_into(call, arg, rows, nulls_as_default, c, err);
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* Values of the picked rows into dst (not Nullable): fixed-width values
 * are copied without a call per row. */
static int cv_pick_values(ty_column *dst, const ty_column *const *cols, const int32_t *pick,
                          uint32_t rows, mu_err *err) {
    const ty_type *t = dst->type;
    if (t->kind == TY_STRING || t->kind == TY_ARRAY || t->kind == TY_MAP) {
        int rc = 0;
        for (uint32_t r = 0; r < rows && rc == 0; r++) {
            size_t n = 0;
            const uint8_t *s = pick[r] >= 0 ? ty_column_row_bytes(cols[pick[r]], r, &n) : NULL;
            if (t->kind == TY_STRING) rc = ty_column_append_bytes(dst, s, n, err);
            else if (MU_ALWAYS(pick[r] >= 0))
                rc = ty_column_append_from(dst, cols[pick[r]], r, err);
            else rc = ty_column_append_default(dst, err);
        }
        return rc;
    }
    uint32_t width = ty_type_value_bytes(t);
    void *at;
    int rc = ty_column_append_fixed_uninit(dst, rows, &at, err);
    if (rc != 0) return rc;
    uint8_t *out = at;
    for (uint32_t r = 0; r < rows; r++) {
        uint8_t *to = out + (size_t)r * width;
        /* A NULL row's payload is reset to the default by make_nullable. */
        if (pick[r] >= 0) memcpy(to, ty_column_values(cols[pick[r]]) + (size_t)r * width, width);
        else memset(to, 0, width);
    }
    return 0;
}

int exec__pick_rows(ty_column *out, const ty_column *const *cols, const int32_t *pick,
                    uint32_t rows, mu_err *err) {
    MU_ASSERT(out != NULL && pick != NULL);
    if (!out->nullable) {
        for (uint32_t r = 0; r < rows; r++)
            if (pick[r] < 0)
                return MU_ERR(err, MU_EINTERNAL, "a NULL row for a non-Nullable result");
        return cv_pick_values(out, cols, pick, rows, err);
    }
    size_t bitmap_bytes = ((size_t)rows + 7) / 8;
    uint8_t *valid = calloc(bitmap_bytes ? bitmap_bytes : 1, 1);
    ty_column *inner = NULL;
    int rc = valid ? 0 : MU_ERR(err, MU_ENOMEM, "out of memory picking rows");
    if (rc == 0) rc = ty_column_create(out->type->child, out->tracker, &inner, err);
    if (rc == 0) rc = cv_pick_values(inner, cols, pick, rows, err);
    for (uint32_t r = 0; rc == 0 && r < rows; r++)
        if (pick[r] >= 0) valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    if (rc == 0) rc = ty_column_make_nullable(inner, out->type, valid, err);
    if (rc == 0) rc = ty_column_append_rows_from(out, inner, 0, rows, err);
    ty_column_destroy(inner);
    free(valid);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Functions: declarations                                             */
/* ------------------------------------------------------------------ */

/* How a to<Type> function reads its arguments after the value. */
typedef enum cv_params {
    CV_PARAMS_NONE,   /* toInt32(x) */
    CV_PARAMS_ZONE,   /* toDateTime(x[, 'tz']): the result's zone */
    CV_PARAMS_SCALE,  /* toDecimal32(x, S) */
    CV_PARAMS_DT64,   /* toDateTime64(x, P[, 'tz']) */
    CV_PARAMS_FIXED,  /* toFixedString(s, N) */
    CV_PARAMS_SOURCE_ZONE, /* toString(x[, 'tz']), toDate(x[, 'tz']): the source's zone */
} cv_params;

/* A conversion function: the registry entry first (the registry hands
 * bind a pointer to it), then what it converts to. */
typedef struct cv_function {
    exec_function base;
    ty_kind kind;       /* target kind */
    uint8_t mode;       /* enum cv_mode */
    uint8_t params;     /* enum cv_params */
    uint8_t decimal_precision; /* toDecimal32/64/128: 9, 18, 38 */
} cv_function;

/* What a bound conversion needs at run time. */
typedef struct cv_state {
    unsigned mode;
    const ty_tz *zone_override;
    bool nulls_by_framework;
} cv_state;

static int cv_kernel(const exec_call *call, const exec_arg *args, uint32_t rows, ty_column *out,
                     mu_err *err) {
    const cv_state *st = call->state;
    MU_ASSERT(st != NULL && ty_type_equal(out->type, call->result_type));
    cv_run run = {.ctx = call->ctx, .mode = st->mode, .zone_override = st->zone_override,
                  .nulls_by_framework = st->nulls_by_framework};
    return cv_convert_arg(&run, &args[0], rows, out, err);
}

static int cv_set_kernel(exec_call *call, mu_arena *arena, const ty_type *result, unsigned mode,
                         const ty_tz *zone_override, mu_err *err) {
    cv_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->mode = mode;
    st->zone_override = zone_override;
    st->nulls_by_framework = !(call->function->flags & EXEC_FN_NULLS_CUSTOM);
    call->state = st;
    call->kernel = cv_kernel;
    call->result_type = result;
    return 0;
}

/* ------------------------------------------------------------------ */
/* CAST and _CAST                                                      */
/* ------------------------------------------------------------------ */

/* LowCardinality is a storage detail inside queries: the target of a
 * CAST is its dictionary type, at every level. Recursion follows the type
 * tree (depth <= TY_TYPE_DEPTH_MAX). */
static int cv_strip_lowcard(const ty_type *t, mu_arena *arena, const ty_type **out,
                            mu_err *err) {
    if (t->kind == TY_LOW_CARDINALITY) return cv_strip_lowcard(t->child, arena, out, err);
    if (t->kind != TY_ARRAY && t->kind != TY_MAP && t->kind != TY_NULLABLE) {
        *out = t;
        return 0;
    }
    const ty_type *child = t->child, *child2 = t->child2;
    int rc = cv_strip_lowcard(t->child, arena, &child, err);
    if (rc == 0 && t->child2 != NULL) rc = cv_strip_lowcard(t->child2, arena, &child2, err);
    if (rc != 0) return rc;
    if (child == t->child && child2 == t->child2) {
        *out = t;
        return 0;
    }
    ty_type *copy = mu_arena_alloc(arena, sizeof(*copy), err);
    if (copy == NULL) return err->code;
    *copy = *t;
    copy->child = child;
    copy->child2 = child2;
    *out = copy;
    return 0;
}

static int cv_bind_cast(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc != 0) return rc;
    const char *name;
    size_t bytes;
    char type_name[128];
    if (call->arg_consts[1] == NULL)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Second argument to %s must be a constant string describing type. Instead "
                      "there is non-constant column of type %s",
                      call->function->name,
                      ty_type_name(call->arg_types[1], type_name, sizeof(type_name)));
    if (!exec__const_string(call, 1, &name, &bytes))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Second argument to %s must be a constant string describing type. Instead "
                      "there is a constant of type %s",
                      call->function->name,
                      ty_type_name(call->arg_types[1], type_name, sizeof(type_name)));
    const ty_type *to;
    rc = ty_type_parse_n(name, bytes, arena, &to, err);
    if (rc == 0) rc = cv_strip_lowcard(to, arena, &to, err);
    if (rc != 0) return rc;
    const ty_type *from = call->arg_types[0];
    if (exec_type_is_nothing(from) && to->kind != TY_NULLABLE)
        return MU_ERR(err, MU_EINSERT_NULL, "Cannot convert NULL value to non-Nullable type");
    rc = exec__convert_check(from, to, err);
    if (rc != 0) return rc;
    return cv_set_kernel(call, arena, to, CV_THROW, NULL, err);
}

static const exec_function cv_fn_cast_internal = {
    "_CAST", EXEC_FN_NULLS_CUSTOM | EXEC_FN_CASE_INSENSITIVE, cv_bind_cast};
static const exec_function cv_fn_cast = {
    "CAST", EXEC_FN_NULLS_CUSTOM | EXEC_FN_CASE_INSENSITIVE, cv_bind_cast};

/* ------------------------------------------------------------------ */
/* The to<Type> family                                                 */
/* ------------------------------------------------------------------ */

static const char *cv_arg_ordinal(uint32_t index) {
    return index == 1 ? "Second" : "Third";
}

/* A constant unsigned integer parameter (scale, precision, length). */
static int cv_const_uint(const exec_call *call, uint32_t index, const char *what,
                         uint64_t *out, mu_err *err) {
    const ty_type *t = ty_type_strip_nullable(call->arg_types[index]);
    char name[128];
    if (!(t->kind >= TY_UINT8 && t->kind <= TY_UINT64))
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Illegal type of %s %s", what,
                      ty_type_name(call->arg_types[index], name, sizeof(name)));
    const ty_column *c = call->arg_consts[index];
    if (c == NULL || ty_column_is_null(c, 0))
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "%s argument for function %s must be constant",
                      cv_arg_ordinal(index), call->function->name);
    *out = exec_get_u64(c, 0);
    return 0;
}

/* A constant time zone name parameter. */
static int cv_const_zone(const exec_call *call, uint32_t index, const ty_tz **zone,
                         const char **zone_name, mu_arena *arena, mu_err *err) {
    const char *data;
    size_t bytes;
    char name[128];
    if (!exec_type_is_string(ty_type_strip_nullable(call->arg_types[index])))
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument %u of function %s. Expected const String",
                      ty_type_name(call->arg_types[index], name, sizeof(name)), index + 1,
                      call->function->name);
    if (!exec__const_string(call, index, &data, &bytes))
        return MU_ERR(err, MU_EILLEGAL_COLUMN,
                      "Argument %u of function %s must be a constant string with a time zone "
                      "name", index + 1, call->function->name);
    if (bytes == 0)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "Provided time zone must be non-empty");
    char *text = mu_arena_strndup(arena, data, bytes, err);
    if (text == NULL) return err->code;
    int rc = ty_tz_get(text, zone, err);
    if (rc != 0) return MU_ERR(err, MU_EINVAL, "Cannot load time zone %.64s", text);
    *zone_name = text;
    return 0;
}

static int cv_scale_check(unsigned scale, unsigned max, mu_err *err) {
    if (scale <= max) return 0;
    return MU_ERR(err, MU_EOUT_OF_BOUND, "Scale %u is out of bounds (max scale: %u)", scale, max);
}

static int cv_count_for(const exec_call *call, cv_params params, mu_err *err) {
    switch (params) {
    case CV_PARAMS_NONE: return exec__check_arg_count(call, 1, 1, err);
    case CV_PARAMS_ZONE: case CV_PARAMS_SOURCE_ZONE: return exec__check_arg_count(call, 1, 2, err);
    case CV_PARAMS_SCALE: case CV_PARAMS_FIXED: return exec__check_arg_count(call, 2, 2, err);
    default: return exec__check_arg_count(call, 2, 3, err);
    }
}

/* The target type of a to<Type> call, from its kind and parameters. */
static int cv_target(const exec_call *call, const cv_function *f, mu_arena *arena,
                     const ty_type **out, const ty_tz **source_zone, mu_err *err) {
    const ty_type *builtin = ty_type_builtin(f->kind);
    uint64_t n = 0;
    int rc = 0;
    *source_zone = NULL;
    if (f->params == CV_PARAMS_NONE || (call->arg_count == 1 && builtin != NULL)) {
        *out = builtin;
        return 0;
    }
    ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
    if (t == NULL) return err->code;
    t->kind = f->kind;
    switch (f->params) {
    case CV_PARAMS_SCALE:
        rc = cv_const_uint(call, 1, "toDecimal() scale", &n, err);
        if (rc == 0) rc = cv_scale_check(n > 255 ? 255 : (unsigned)n, f->decimal_precision, err);
        t->precision = f->decimal_precision;
        t->scale = (uint8_t)n;
        break;
    case CV_PARAMS_DT64:
        rc = cv_const_uint(call, 1, "toDateTime64() scale", &n, err);
        if (rc == 0) rc = cv_scale_check(n > 255 ? 255 : (unsigned)n, 9, err);
        t->precision = (uint8_t)n;
        if (rc == 0 && call->arg_count == 3)
            rc = cv_const_zone(call, 2, &t->timezone, &t->timezone_name, arena, err);
        break;
    case CV_PARAMS_FIXED:
        rc = cv_const_uint(call, 1, "toFixedString() length", &n, err);
        if (rc == 0 && (n == 0 || n > TY_FIXED_STRING_BYTES_MAX))
            rc = MU_ERR(err, MU_EOUT_OF_BOUND, "FixedString size %llu is out of bounds",
                        (unsigned long long)n);
        t->length = (uint32_t)n;
        break;
    case CV_PARAMS_ZONE:
        rc = cv_const_zone(call, 1, &t->timezone, &t->timezone_name, arena, err);
        break;
    default: { /* CV_PARAMS_SOURCE_ZONE */
        const char *ignored;
        rc = cv_const_zone(call, 1, source_zone, &ignored, arena, err);
        *t = *builtin;
        break;
    }
    }
    *out = t;
    return rc;
}

static int cv_check_source(const exec_call *call, const cv_function *f, const ty_type *from,
                           const ty_type *to, mu_err *err) {
    char name[128];
    const ty_type *s = ty_type_strip_nullable(from);
    if (f->mode != CV_THROW && !exec_type_is_string(s) && s->kind != TY_NOTHING)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of first argument of function %s. Conversion functions "
                      "with postfix 'OrZero' or 'OrNull' should take String argument",
                      ty_type_name(from, name, sizeof(name)), call->function->name);
    if (f->params == CV_PARAMS_FIXED && !exec_type_is_string(s) && s->kind != TY_NOTHING)
        return exec__error_arg_type(call, 0, err);
    bool zoned = s->kind == TY_DATETIME || s->kind == TY_DATETIME64 ||
                 (f->kind == TY_DATE && (s->kind == TY_DATE || s->kind == TY_DATE32 ||
                                         exec_type_is_string(s)));
    if (f->params == CV_PARAMS_SOURCE_ZONE && call->arg_count == 2 && !zoned)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument 1 of function %s. The time zone argument "
                      "only makes sense for DateTime and DateTime64",
                      ty_type_name(from, name, sizeof(name)), call->function->name);
    return exec__convert_check(s, to, err);
}

static int cv_bind_to(exec_call *call, mu_arena *arena, mu_err *err) {
    const cv_function *f = (const cv_function *)(const void *)call->function;
    int rc = cv_count_for(call, (cv_params)f->params, err);
    const ty_type *to = NULL, *result;
    const ty_tz *source_zone = NULL;
    if (rc == 0) rc = cv_target(call, f, arena, &to, &source_zone, err);
    if (rc == 0) rc = cv_check_source(call, f, call->arg_types[0], to, err);
    if (rc != 0) return rc;
    result = to;
    if (f->mode == CV_NULL) {
        rc = exec_type_make_nullable(to, arena, &result, err);
        if (rc != 0) return rc;
    }
    return cv_set_kernel(call, arena, result, f->mode, source_zone, err);
}

/* One declaration per function. The OrNull forms see NULLs themselves
 * (their result is Nullable already); the others use the default. */
#define CV_FN(id, fname, kind, mode, params, precision)                                    \
    static const cv_function cv_fn_##id = {                                                \
        {fname, (mode) == CV_NULL ? EXEC_FN_NULLS_CUSTOM : 0u, cv_bind_to}, kind, mode,     \
        params, precision};

#define CV_NUMBER_FNS(X, id, name, kind)                                                   \
    X(id, name, kind, CV_THROW, CV_PARAMS_NONE, 0)                                         \
    X(id##_or_zero, name "OrZero", kind, CV_ZERO, CV_PARAMS_NONE, 0)                        \
    X(id##_or_null, name "OrNull", kind, CV_NULL, CV_PARAMS_NONE, 0)

#define CV_DECIMAL_FNS(X, id, name, precision)                                             \
    X(id, name, TY_DECIMAL, CV_THROW, CV_PARAMS_SCALE, precision)                          \
    X(id##_or_zero, name "OrZero", TY_DECIMAL, CV_ZERO, CV_PARAMS_SCALE, precision)         \
    X(id##_or_null, name "OrNull", TY_DECIMAL, CV_NULL, CV_PARAMS_SCALE, precision)

#define CV_FUNCTIONS(X)                                                                    \
    CV_NUMBER_FNS(X, to_uint8, "toUInt8", TY_UINT8)                                        \
    CV_NUMBER_FNS(X, to_uint16, "toUInt16", TY_UINT16)                                     \
    CV_NUMBER_FNS(X, to_uint32, "toUInt32", TY_UINT32)                                     \
    CV_NUMBER_FNS(X, to_uint64, "toUInt64", TY_UINT64)                                     \
    CV_NUMBER_FNS(X, to_int8, "toInt8", TY_INT8)                                           \
    CV_NUMBER_FNS(X, to_int16, "toInt16", TY_INT16)                                        \
    CV_NUMBER_FNS(X, to_int32, "toInt32", TY_INT32)                                        \
    CV_NUMBER_FNS(X, to_int64, "toInt64", TY_INT64)                                        \
    CV_NUMBER_FNS(X, to_float32, "toFloat32", TY_FLOAT32)                                  \
    CV_NUMBER_FNS(X, to_float64, "toFloat64", TY_FLOAT64)                                  \
    CV_NUMBER_FNS(X, to_uuid, "toUUID", TY_UUID)                                           \
    CV_NUMBER_FNS(X, to_date32, "toDate32", TY_DATE32)                                     \
    CV_DECIMAL_FNS(X, to_decimal32, "toDecimal32", 9)                                      \
    CV_DECIMAL_FNS(X, to_decimal64, "toDecimal64", 18)                                     \
    CV_DECIMAL_FNS(X, to_decimal128, "toDecimal128", 38)                                   \
    X(to_date, "toDate", TY_DATE, CV_THROW, CV_PARAMS_SOURCE_ZONE, 0)                      \
    X(to_date_or_zero, "toDateOrZero", TY_DATE, CV_ZERO, CV_PARAMS_NONE, 0)                \
    X(to_date_or_null, "toDateOrNull", TY_DATE, CV_NULL, CV_PARAMS_NONE, 0)                \
    X(to_datetime, "toDateTime", TY_DATETIME, CV_THROW, CV_PARAMS_ZONE, 0)                 \
    X(to_datetime_or_zero, "toDateTimeOrZero", TY_DATETIME, CV_ZERO, CV_PARAMS_ZONE, 0)    \
    X(to_datetime_or_null, "toDateTimeOrNull", TY_DATETIME, CV_NULL, CV_PARAMS_ZONE, 0)    \
    X(to_datetime64, "toDateTime64", TY_DATETIME64, CV_THROW, CV_PARAMS_DT64, 0)           \
    X(to_datetime64_or_zero, "toDateTime64OrZero", TY_DATETIME64, CV_ZERO, CV_PARAMS_DT64, 0) \
    X(to_datetime64_or_null, "toDateTime64OrNull", TY_DATETIME64, CV_NULL, CV_PARAMS_DT64, 0) \
    X(to_string, "toString", TY_STRING, CV_THROW, CV_PARAMS_SOURCE_ZONE, 0)                \
    X(to_fixed_string, "toFixedString", TY_FIXED_STRING, CV_THROW, CV_PARAMS_FIXED, 0)     \
    X(to_bool, "toBool", TY_BOOL, CV_THROW, CV_PARAMS_NONE, 0)

CV_FUNCTIONS(CV_FN)

#define CV_LIST_ENTRY(id, fname, kind, mode, params, precision) &cv_fn_##id.base,

const exec_function *const exec__functions_convert[] = {
    &cv_fn_cast_internal,
    &cv_fn_cast,
    CV_FUNCTIONS(CV_LIST_ENTRY)
    NULL,
};
