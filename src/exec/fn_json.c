/* fn_json.c: ClickHouse's JSON functions over String documents: JSONHas,
 * JSONLength, JSONType, JSONExtractInt/UInt/Float/Bool/String/Raw,
 * JSONExtractKeys, JSONExtractArrayRaw and isValidJSON; toJSONString (the
 * other way: any value to JSON text, through the formats module).
 *
 * A small scanner of our own, no trees: each document is first validated
 * as a whole, as ClickHouse's simdjson parser does (RFC 8259 grammar,
 * UTF-8 in strings, no unescaped control characters, no lone surrogates,
 * finite numbers, nesting up to JSON_DEPTH_MAX), then the path arguments
 * walk it in place. A path argument is a key (String; the first member of
 * that name) or a 1-based index (an integer, negative from the end; it
 * also selects the N-th member of an object). A document that is not
 * valid JSON or a path that does not exist gives the default value (0,
 * '', [], 'Null'), never an error. Numbers are classified like simdjson:
 * integers that fit Int64, else UInt64, else Double. Raw output is
 * re-serialized compactly, as ClickHouse prints it.
 */
#include "exec/exec_int.h"
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>

#define JSON_DEPTH_MAX 1024 /* simdjson's default maximum depth */

typedef enum json_kind {
    JSON_NULL, JSON_BOOL, JSON_INT64, JSON_UINT64, JSON_DOUBLE, JSON_STRING, JSON_ARRAY,
    JSON_OBJECT,
} json_kind;

/* A value in a validated document: [begin, end) holds exactly its text. */
typedef struct json_elem {
    const uint8_t *begin, *end;
} json_elem;

static const uint8_t *json_ws(const uint8_t *p, const uint8_t *e) {
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

static int json_hex4(const uint8_t *p, const uint8_t *e) {
    if (e - p < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Length of the valid UTF-8 sequence at p, 0 if it is not one. */
static size_t json_utf8_length(const uint8_t *p, const uint8_t *e) {
    uint8_t b = p[0];
    size_t need;
    uint8_t lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) need = 1;
    else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else return 0;
    if ((size_t)(e - p) <= need) return 0;
    for (size_t i = 1; i <= need; i++) {
        if (p[i] < lo || p[i] > hi) return 0;
        lo = 0x80;
        hi = 0xBF;
    }
    return need + 1;
}

/* Checks the string at p ('"'); returns the byte after its closing quote. */
static const uint8_t *json_check_string(const uint8_t *p, const uint8_t *e) {
    for (p++; p < e;) {
        uint8_t c = *p;
        if (c == '"') return p + 1;
        if (c < 0x20) return NULL;
        if (c >= 0x80) {
            size_t len = json_utf8_length(p, e);
            if (len == 0) return NULL;
            p += len;
            continue;
        }
        if (c != '\\') {
            p++;
            continue;
        }
        if (++p >= e) return NULL;
        if (strchr("\"\\/bfnrt", *p) != NULL && *p != 0) {
            p++;
            continue;
        }
        if (*p != 'u') return NULL;
        int cp = json_hex4(p + 1, e);
        if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return NULL; /* lone low surrogate */
        p += 5;
        if (cp >= 0xD800 && cp <= 0xDBFF) { /* a high surrogate needs its pair */
            if (e - p < 6 || p[0] != '\\' || p[1] != 'u') return NULL;
            int low = json_hex4(p + 2, e);
            if (low < 0xDC00 || low > 0xDFFF) return NULL;
            p += 6;
        }
    }
    return NULL;
}

/* strtod over p[0..n) (the number grammar was checked). */
static double json_strtod(const uint8_t *p, size_t n) {
    char small[64];
    char *copy = n < sizeof(small) ? small : malloc(n + 1);
    if (copy == NULL) return 0;
    memcpy(copy, p, n);
    copy[n] = 0;
    double v = strtod(copy, NULL);
    if (copy != small) free(copy);
    return v;
}

/* Checks a number at p; returns its end, NULL if malformed or infinite. */
static const uint8_t *json_check_number(const uint8_t *p, const uint8_t *e) {
    const uint8_t *b = p;
    bool fractional = false;
    if (p < e && *p == '-') p++;
    if (p >= e || *p < '0' || *p > '9') return NULL;
    if (*p == '0') p++;
    else while (p < e && *p >= '0' && *p <= '9') p++;
    if (p < e && *p == '.') {
        fractional = true;
        if (++p >= e || *p < '0' || *p > '9') return NULL;
        while (p < e && *p >= '0' && *p <= '9') p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        fractional = true;
        if (++p < e && (*p == '+' || *p == '-')) p++;
        if (p >= e || *p < '0' || *p > '9') return NULL;
        while (p < e && *p >= '0' && *p <= '9') p++;
    }
    if ((fractional || p - b > 19) && __builtin_isinf(json_strtod(b, (size_t)(p - b)))) return NULL;
    return p;
}

static const uint8_t *json_check_literal(const uint8_t *p, const uint8_t *e, const char *word) {
    size_t n = strlen(word);
    return (size_t)(e - p) >= n && memcmp(p, word, n) == 0 ? p + n : NULL;
}

/* Validates a whole document; *root_out is its top-level value. */
static bool json_validate(const uint8_t *p, size_t n, json_elem *root_out) {
    const uint8_t *e = p + n;
    uint8_t stack[JSON_DEPTH_MAX];
    size_t depth = 0;
    enum { WANT_VALUE, WANT_KEY, AFTER_VALUE } state = WANT_VALUE;
    p = json_ws(p, e);
    root_out->begin = p;
    for (;;) {
        if (state == AFTER_VALUE) {
            if (depth == 0) {
                root_out->end = p;
                return json_ws(p, e) == e;
            }
            p = json_ws(p, e);
            if (p >= e) return false;
            uint8_t top = stack[depth - 1];
            if (*p == ',') {
                p = json_ws(p + 1, e);
                state = top == '{' ? WANT_KEY : WANT_VALUE;
            } else if ((*p == '}' && top == '{') || (*p == ']' && top == '[')) {
                p++;
                depth--;
            } else {
                return false;
            }
            continue;
        }
        if (state == WANT_KEY) {
            if (p >= e || *p != '"' || (p = json_check_string(p, e)) == NULL) return false;
            p = json_ws(p, e);
            if (p >= e || *p != ':') return false;
            p = json_ws(p + 1, e);
            state = WANT_VALUE;
            continue;
        }
        if (p >= e) return false;
        uint8_t c = *p;
        state = AFTER_VALUE;
        if (c == '{' || c == '[') {
            if (depth == JSON_DEPTH_MAX) return false;
            stack[depth++] = c;
            MU_DEBUG_ASSERT(depth <= JSON_DEPTH_MAX);
            p = json_ws(p + 1, e);
            if (p < e && *p == (c == '{' ? '}' : ']')) {
                p++;
                depth--;
            } else {
                state = c == '{' ? WANT_KEY : WANT_VALUE;
            }
            continue;
        }
        if (c == '"') p = json_check_string(p, e);
        else if (c == 't') p = json_check_literal(p, e, "true");
        else if (c == 'f') p = json_check_literal(p, e, "false");
        else if (c == 'n') p = json_check_literal(p, e, "null");
        else p = json_check_number(p, e);
        if (p == NULL) return false;
    }
}

/* ---- walking a validated document ----------------------------------- */

static const uint8_t *json_skip_string(const uint8_t *p) {
    for (p++; *p != '"'; p++)
        if (*p == '\\') p++;
    return p + 1;
}

static const uint8_t *json_skip_value(const uint8_t *p, const uint8_t *e) {
    if (*p == '"') return json_skip_string(p);
    if (*p != '{' && *p != '[') {
        while (p < e && !strchr(",}] \t\n\r", *p)) p++;
        return p;
    }
    size_t depth = 0;
    for (;;) {
        uint8_t c = *p;
        if (c == '"') {
            p = json_skip_string(p);
            continue;
        }
        if (c == '{' || c == '[') depth++;
        else if ((c == '}' || c == ']') && --depth == 0) return p + 1;
        p++;
    }
}

static json_kind json_kind_of(const json_elem *x) {
    switch (*x->begin) {
    case '{': return JSON_OBJECT;
    case '[': return JSON_ARRAY;
    case '"': return JSON_STRING;
    case 't': case 'f': return JSON_BOOL;
    case 'n': return JSON_NULL;
    default: break;
    }
    for (const uint8_t *p = x->begin; p < x->end; p++)
        if (*p == '.' || *p == 'e' || *p == 'E') return JSON_DOUBLE;
    const uint8_t *p = x->begin + (*x->begin == '-');
    uint64_t v = 0;
    for (; p < x->end; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return JSON_DOUBLE;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (*x->begin == '-') return v <= (uint64_t)INT64_MAX + 1 ? JSON_INT64 : JSON_DOUBLE;
    return v <= (uint64_t)INT64_MAX ? JSON_INT64 : JSON_UINT64;
}

/* Integer value of an INT64/UINT64 element (as uint64 bits). */
static uint64_t json_integer_bits(const json_elem *x) {
    bool negative = *x->begin == '-';
    uint64_t v = 0;
    for (const uint8_t *p = x->begin + negative; p < x->end; p++) v = v * 10 + (uint64_t)(*p - '0');
    return negative ? 0 - v : v;
}

/* Iterates the members of an object or the elements of an array. */
typedef struct json_iter {
    const uint8_t *p, *e;
    bool object;
} json_iter;

static json_iter json_iter_begin(const json_elem *x) {
    json_iter it = {json_ws(x->begin + 1, x->end), x->end, *x->begin == '{'};
    return it;
}

/* Next member: *key_out (raw, between the quotes; objects only) and value. */
static bool json_iter_next(json_iter *it, json_elem *key_out, json_elem *value_out) {
    const uint8_t *p = it->p;
    MU_DEBUG_ASSERT(p < it->e);
    if (*p == '}' || *p == ']') return false;
    if (it->object) {
        const uint8_t *k = json_skip_string(p);
        key_out->begin = p + 1;
        key_out->end = k - 1;
        p = json_ws(json_ws(k, it->e) + 1, it->e);
    }
    value_out->begin = p;
    value_out->end = json_skip_value(p, it->e);
    p = json_ws(value_out->end, it->e);
    if (*p == ',') p = json_ws(p + 1, it->e);
    MU_DEBUG_ASSERT(p < it->e);
    it->p = p;
    return true;
}

static size_t json_count(const json_elem *x) {
    json_iter it = json_iter_begin(x);
    json_elem k, v;
    size_t n = 0;
    while (json_iter_next(&it, &k, &v)) n++;
    return n;
}

/* Appends the unescaped content of a raw string span. */
static int json_unescape(const uint8_t *p, const uint8_t *e, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, (size_t)(e - p), err);
    while (p < e && rc == 0) {
        const uint8_t *bs = memchr(p, '\\', (size_t)(e - p));
        const uint8_t *stop = bs ? bs : e;
        rc = mu_buf_append(out, p, (size_t)(stop - p), err);
        if (bs == NULL || rc != 0) break;
        uint8_t c = bs[1];
        p = bs + 2;
        if (c != 'u') {
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            rc = mu_buf_append_u8(out, (uint8_t)to[strchr(from, c) - from], err);
            continue;
        }
        uint32_t cp = (uint32_t)json_hex4(p, e);
        p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)json_hex4(p + 2, e) - 0xDC00);
            p += 6;
        }
        uint8_t enc[4];
        size_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (len == 1) enc[0] = (uint8_t)cp;
        else if (len == 2) {
            enc[0] = (uint8_t)(0xC0 | cp >> 6);
            enc[1] = (uint8_t)(0x80 | (cp & 0x3F));
        } else if (len == 3) {
            enc[0] = (uint8_t)(0xE0 | cp >> 12);
            enc[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
            enc[2] = (uint8_t)(0x80 | (cp & 0x3F));
        } else {
            enc[0] = (uint8_t)(0xF0 | cp >> 18);
            enc[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
            enc[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
            enc[3] = (uint8_t)(0x80 | (cp & 0x3F));
        }
        rc = mu_buf_append(out, enc, len, err);
    }
    return rc;
}

/* Does the raw key span equal `key` once unescaped? */
static bool json_key_equals(const json_elem *raw, const uint8_t *key, size_t key_bytes,
                            mu_buf *scratch) {
    size_t n = (size_t)(raw->end - raw->begin);
    if (memchr(raw->begin, '\\', n) == NULL)
        return n == key_bytes && (n == 0 || memcmp(raw->begin, key, n) == 0);
    mu_buf_clear(scratch);
    mu_err ignored;
    if (json_unescape(raw->begin, raw->end, scratch, &ignored) != 0) return false;
    return scratch->length_bytes == key_bytes &&
           (key_bytes == 0 || memcmp(scratch->data, key, key_bytes) == 0);
}

/* ---- ClickHouse's writeJSONString and jsonElementToString ------------ */

static int json_write_string(const uint8_t *p, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_append_u8(out, '"', err);
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint8_t c = p[i];
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b"
                        : c == '\f' ? "\\f" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                        : c == '\t' ? "\\t" : NULL;
        if (esc != NULL) {
            rc = mu_buf_append_str(out, esc, err);
        } else if (c <= 0x1F) {
            rc = mu_buf_printf(out, err, "\\u00%X%X", c >> 4, c & 15);
        } else if (c == 0xE2 && n - i >= 3 && p[i + 1] == 0x80 &&
                   (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
            rc = mu_buf_append_str(out, p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", err);
            i += 2; /* JavaScript's line separators */
        } else {
            rc = mu_buf_append_u8(out, c, err);
        }
    }
    if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
    return rc;
}

static int json_write_number(const json_elem *x, mu_buf *out, mu_err *err) {
    json_kind k = json_kind_of(x);
    uint64_t bits = k == JSON_DOUBLE ? 0 : json_integer_bits(x);
    if (k == JSON_INT64) return mu_buf_printf(out, err, "%lld", (long long)(int64_t)bits);
    if (k == JSON_UINT64) return mu_buf_printf(out, err, "%llu", (unsigned long long)bits);
    char text[TY_FLOAT_TEXT_BYTES];
    size_t n = ty_float64_format(json_strtod(x->begin, (size_t)(x->end - x->begin)), text);
    return mu_buf_append(out, text, n, err);
}

/* Compact re-serialization of a validated value (no recursion: a walk over
 * its tokens). */
static int json_write_raw(const json_elem *x, mu_buf *out, mu_buf *scratch, mu_err *err) {
    const uint8_t *p = x->begin, *e = x->end;
    int rc = 0;
    while (p < e && rc == 0) {
        uint8_t c = *p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            p++;
        } else if (c == '"') {
            const uint8_t *end = json_skip_string(p);
            mu_buf_clear(scratch);
            rc = json_unescape(p + 1, end - 1, scratch, err);
            if (rc == 0) rc = json_write_string(scratch->data, scratch->length_bytes, out, err);
            p = end;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            json_elem num = {p, json_skip_value(p, e)};
            rc = json_write_number(&num, out, err);
            p = num.end;
        } else {
            size_t len = c == 't' || c == 'n' ? 4 : c == 'f' ? 5 : 1;
            rc = mu_buf_append(out, p, len, err);
            p += len;
        }
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* Path moves and conversions                                          */
/* ------------------------------------------------------------------ */

/* Moves x by one key; the first member of that name wins. */
static bool json_move_key(json_elem *x, const uint8_t *key, size_t key_bytes, mu_buf *scratch) {
    if (*x->begin != '{') return false;
    json_iter it = json_iter_begin(x);
    json_elem k, v;
    while (json_iter_next(&it, &k, &v)) {
        if (json_key_equals(&k, key, key_bytes, scratch)) {
            *x = v;
            return true;
        }
    }
    return false;
}

/* Moves x by a 1-based index, as ClickHouse does it (through an int). */
static bool json_move_index(json_elem *x, int64_t raw_index) {
    if (*x->begin != '{' && *x->begin != '[') return false;
    int index = (int)raw_index;
    if (index >= 0) index--;
    else index = (int)(index + (int64_t)json_count(x));
    if (index < 0) return false;
    json_iter it = json_iter_begin(x);
    json_elem k, v;
    for (int i = 0; json_iter_next(&it, &k, &v); i++) {
        if (i == index) {
            *x = v;
            return true;
        }
    }
    return false;
}

/* Follows the path arguments 1..path_end-1 of row `row` from x. */
static bool json_follow(const exec_arg *args, uint32_t path_end, uint32_t row, json_elem *x,
                        mu_buf *scratch) {
    for (uint32_t k = 1; k < path_end; k++) {
        const exec_arg *a = &args[k];
        uint32_t r = exec_arg_row(a, row);
        bool ok;
        if (ty_type_strip_nullable(a->column->type)->kind == TY_STRING) {
            size_t n;
            const uint8_t *key = ty_column_row_bytes(a->column, r, &n);
            ok = json_move_key(x, key, n, scratch);
        } else {
            ok = json_move_index(x, exec_get_i64(a->column, r));
        }
        if (!ok) return false;
    }
    return true;
}

enum { JNUM_INT, JNUM_UINT, JNUM_FLOAT };

/* accurate::convertNumeric<Float64, T, false>: in range, then truncated. */
static bool json_double_to(double d, int target, int64_t *i, uint64_t *u, double *f) {
    if (target == JNUM_FLOAT) {
        *f = d;
        return true;
    }
    if (target == JNUM_INT) {
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return false;
        *i = (int64_t)d;
        return true;
    }
    if (!(d >= 0.0 && d < 18446744073709551616.0)) return false;
    *u = (uint64_t)d;
    return true;
}

/* A number inside a JSON string, as ClickHouse's tryReadIntText /
 * tryReadFloatText read it: the whole string must be the number. */
static bool json_string_to(const uint8_t *p, size_t n, int target, int64_t *i, uint64_t *u,
                           double *f) {
    if (n == 0 || n > 400) return false;
    if (target != JNUM_FLOAT) {
        bool negative = p[0] == '-';
        size_t k = (p[0] == '-' || p[0] == '+') ? 1 : 0;
        uint64_t v = 0;
        bool digits = k < n, overflow = false;
        for (size_t j = k; j < n && digits; j++) {
            if (p[j] < '0' || p[j] > '9') digits = false;
            else if (v > (UINT64_MAX - (uint64_t)(p[j] - '0')) / 10) overflow = true;
            else v = v * 10 + (uint64_t)(p[j] - '0');
        }
        if (digits && !overflow) {
            if (target == JNUM_UINT && !negative) {
                *u = v;
                return true;
            }
            if (target == JNUM_INT && v <= (uint64_t)INT64_MAX + negative) {
                *i = negative ? (int64_t)(0 - v) : (int64_t)v;
                return true;
            }
        }
    }
    char text[401];
    memcpy(text, p, n);
    text[n] = 0;
    if (text[0] == ' ' || text[0] == '\t' || text[0] == '\n' || strchr(text, 'x') != NULL ||
        strchr(text, 'X') != NULL)
        return false;
    char *end;
    double d = strtod(text, &end);
    if (end != text + n) return false;
    return json_double_to(d, target, i, u, f);
}

static bool json_to_number(const json_elem *x, int target, int64_t *i, uint64_t *u, double *f,
                           mu_buf *scratch) {
    json_kind k = json_kind_of(x);
    if (k == JSON_DOUBLE)
        return json_double_to(json_strtod(x->begin, (size_t)(x->end - x->begin)), target, i, u, f);
    if (k == JSON_INT64 || k == JSON_UINT64) {
        uint64_t bits = json_integer_bits(x);
        bool is_signed = k == JSON_INT64;
        if (target == JNUM_FLOAT) *f = is_signed ? (double)(int64_t)bits : (double)bits;
        else if (target == JNUM_INT && is_signed) *i = (int64_t)bits;
        else if (target == JNUM_UINT && !(is_signed && (int64_t)bits < 0)) *u = bits;
        else return false;
        return true;
    }
    if (k != JSON_STRING) return false;
    mu_buf_clear(scratch);
    mu_err ignored;
    if (json_unescape(x->begin + 1, x->end - 1, scratch, &ignored) != 0) return false;
    return json_string_to(scratch->data, scratch->length_bytes, target, i, u, f);
}

/* ------------------------------------------------------------------ */
/* The functions                                                       */
/* ------------------------------------------------------------------ */

typedef enum json_fn {
    JFN_HAS, JFN_LENGTH, JFN_TYPE, JFN_INT, JFN_UINT, JFN_FLOAT, JFN_BOOL, JFN_STRING, JFN_RAW,
    JFN_KEYS, JFN_ARRAY_RAW, JFN_VALID,
} json_fn;

static int8_t json_type_code(json_kind k) {
    static const int8_t codes[] = {
        [JSON_NULL] = 0, [JSON_BOOL] = 'b', [JSON_INT64] = 'i', [JSON_UINT64] = 'u',
        [JSON_DOUBLE] = 'd', [JSON_STRING] = '"', [JSON_ARRAY] = '[', [JSON_OBJECT] = '{',
    };
    return codes[k];
}

/* Fixed-width results: one value per row into dst. */
static void json_emit_fixed(json_fn fn, bool valid, bool found, const json_elem *x, void *dst,
                            uint32_t i, mu_buf *scratch) {
    int64_t iv = 0;
    uint64_t uv = 0;
    double fv = 0;
    switch (fn) {
    case JFN_HAS: ((uint8_t *)dst)[i] = found; return;
    case JFN_VALID: ((uint8_t *)dst)[i] = valid; return;
    case JFN_TYPE: ((int8_t *)dst)[i] = found ? json_type_code(json_kind_of(x)) : 0; return;
    case JFN_LENGTH:
        ((uint64_t *)dst)[i] = found && (*x->begin == '{' || *x->begin == '[') ? json_count(x) : 0;
        return;
    case JFN_BOOL: {
        json_kind k = found ? json_kind_of(x) : JSON_NULL;
        bool v = k == JSON_BOOL ? *x->begin == 't'
               : (k == JSON_INT64 || k == JSON_UINT64) && json_integer_bits(x) != 0;
        ((uint8_t *)dst)[i] = v;
        return;
    }
    case JFN_INT: case JFN_UINT: case JFN_FLOAT: {
        int target = fn == JFN_INT ? JNUM_INT : fn == JFN_UINT ? JNUM_UINT : JNUM_FLOAT;
        bool ok = found && json_to_number(x, target, &iv, &uv, &fv, scratch);
        if (fn == JFN_INT) ((int64_t *)dst)[i] = ok ? iv : 0;
        else if (fn == JFN_UINT) ((uint64_t *)dst)[i] = ok ? uv : 0;
        else ((double *)dst)[i] = ok ? fv : 0;
        return;
    }
    default: return;
    }
}

/* String and Array(String) results. */
static int json_emit_var(json_fn fn, bool found, const json_elem *x, ty_column *out,
                         mu_buf *text, mu_buf *scratch, mu_err *err) {
    mu_buf_clear(text);
    int rc = 0;
    if (fn == JFN_STRING || fn == JFN_RAW) {
        bool unquote = fn == JFN_STRING && *x->begin == '"';
        if (found && unquote) rc = json_unescape(x->begin + 1, x->end - 1, text, err);
        else if (found && !(fn == JFN_STRING && *x->begin == 'n'))
            rc = json_write_raw(x, text, scratch, err);
        return rc == 0 ? ty_column_append_bytes(out, text->data, text->length_bytes, err) : rc;
    }
    ty_column *dst = ty_column_child_mut(out, 0);
    bool wanted = found && *x->begin == (fn == JFN_KEYS ? '{' : '[');
    json_iter it;
    if (wanted) it = json_iter_begin(x);
    json_elem k, v;
    while (wanted && rc == 0 && json_iter_next(&it, &k, &v)) {
        mu_buf_clear(text);
        rc = fn == JFN_KEYS ? json_unescape(k.begin, k.end, text, err)
                            : json_write_raw(&v, text, scratch, err);
        if (rc == 0) rc = ty_column_append_bytes(dst, text->data, text->length_bytes, err);
    }
    return rc == 0 ? ty_column_append_nested_end(out, err) : rc;
}

static int json_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                       ty_column *out, mu_err *err) {
    json_fn fn = (json_fn)(uintptr_t)call->state;
    bool fixed = fn != JFN_STRING && fn != JFN_RAW && fn != JFN_KEYS && fn != JFN_ARRAY_RAW;
    void *dst = NULL;
    int rc = fixed ? ty_column_append_fixed_uninit(out, rows, &dst, err) : 0;
    if (rc != 0) return rc;
    mu_buf text, scratch;
    mu_buf_init(&text, 0);
    mu_buf_init(&scratch, 0);
    json_elem root = {NULL, NULL};
    bool valid = false;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        if (i == 0 || !args[0].is_const) { /* a constant document is validated once */
            size_t n;
            const uint8_t *doc = ty_column_row_bytes(args[0].column, exec_arg_row(&args[0], i), &n);
            valid = json_validate(doc, n, &root);
        }
        json_elem x = root;
        bool found = valid && json_follow(args, call->arg_count, i, &x, &scratch);
        if (fixed) json_emit_fixed(fn, valid, found, &x, dst, i, &scratch);
        else rc = json_emit_var(fn, found, &x, out, &text, &scratch, err);
    }
    mu_buf_deinit(&text);
    mu_buf_deinit(&scratch);
    return rc;
}

static const char json_type_enum[] =
    "Enum8('Null' = 0, 'String' = 34, 'Array' = 91, 'Bool' = 98, 'Double' = 100, 'Int64' = 105, "
    "'UInt64' = 117, 'Object' = 123)";

static int json_result_type(exec_call *call, mu_arena *arena, json_fn fn, mu_err *err) {
    switch (fn) {
    case JFN_HAS: case JFN_BOOL: case JFN_VALID:
        call->result_type = ty_type_builtin(TY_UINT8);
        return 0;
    case JFN_LENGTH: case JFN_UINT: call->result_type = ty_type_builtin(TY_UINT64); return 0;
    case JFN_INT: call->result_type = ty_type_builtin(TY_INT64); return 0;
    case JFN_FLOAT: call->result_type = ty_type_builtin(TY_FLOAT64); return 0;
    case JFN_STRING: case JFN_RAW: call->result_type = ty_type_builtin(TY_STRING); return 0;
    case JFN_TYPE: return ty_type_parse(json_type_enum, arena, &call->result_type, err);
    case JFN_KEYS: case JFN_ARRAY_RAW: {
        ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
        if (t == NULL) return err->code;
        t->kind = TY_ARRAY;
        t->child = ty_type_builtin(TY_STRING);
        call->result_type = t;
        return 0;
    }
    }
    return MU_ERR(err, MU_EINTERNAL, "unknown JSON function %d", (int)fn);
}

/* Path arguments must be String keys or integer indexes. */
static int json_check_path(const exec_call *call, uint32_t path_end, mu_err *err) {
    char name[128];
    for (uint32_t k = 1; k < path_end; k++) {
        const ty_type *t = call->arg_types[k];
        if (t->kind != TY_STRING && !exec_type_is_integer(t) && t->kind != TY_BOOL)
            return MU_ERR(err, MU_EILLEGAL_TYPE, "The argument %u of function %s should be a "
                          "string specifying key or an integer specifying index, illegal type: %s",
                          k + 1, call->function->name, ty_type_name(t, name, sizeof(name)));
    }
    return 0;
}

static int json_bind_common(exec_call *call, mu_arena *arena, json_fn fn, mu_err *err) {
    char name[128];
    if (call->arg_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s requires at least one argument",
                      call->function->name);
    if (fn == JFN_VALID && call->arg_count != 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s needs exactly one argument",
                      call->function->name);
    if (call->arg_types[0]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "The first argument of function %s should be a string "
                      "containing JSON or a JSON object, illegal type: %s", call->function->name,
                      ty_type_name(call->arg_types[0], name, sizeof(name)));
    int rc = json_check_path(call, call->arg_count, err);
    if (rc != 0) return rc;
    call->kernel = json_kernel;
    call->state = (void *)(uintptr_t)fn;
    return json_result_type(call, arena, fn, err);
}

/* ------------------------------------------------------------------ */
/* JSONExtract(json[, path...], 'Type')                                */
/*
 * ClickHouse's JSONExtractTree with JSONExtract's settings: conversions
 * allowed (numbers from numeric strings, strings from any value as compact
 * JSON, Bool from numbers), JSON null only into Nullable, and an element of
 * an Array or Map value that does not convert becomes the element type's
 * default, unless none converts. A value that does not convert at the top
 * gives the type's default (NULL for Nullable). LowCardinality in the type
 * is dropped (results are never LowCardinality here); the values are the
 * same. The insert walks the type, whose nesting ty_type_parse bounds by
 * TY_TYPE_DEPTH_MAX, so its recursion is bounded too.
 */
/* ------------------------------------------------------------------ */

enum { JX_INSERTED = 0, JX_FAILED = 1 }; /* jx_insert results; < 0: an error code */

/* A number as ClickHouse's tryGetNumericValueFromJSONElement reads it. */
typedef struct jx_number {
    bool is_integer;
    __int128 integer;
    double real;
} jx_number;

static bool jx_bounds(ty_kind kind, __int128 *lo, __int128 *hi) {
    static const struct { ty_kind kind; int64_t lo; uint64_t hi; } table[] = {
        {TY_UINT8, 0, UINT8_MAX},          {TY_UINT16, 0, UINT16_MAX},
        {TY_UINT32, 0, UINT32_MAX},        {TY_UINT64, 0, UINT64_MAX},
        {TY_INT8, INT8_MIN, INT8_MAX},     {TY_INT16, INT16_MIN, INT16_MAX},
        {TY_INT32, INT32_MIN, INT32_MAX},  {TY_INT64, INT64_MIN, INT64_MAX},
        {TY_BOOL, 0, UINT8_MAX},           {TY_ENUM8, INT8_MIN, INT8_MAX},
        {TY_ENUM16, INT16_MIN, INT16_MAX},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (table[i].kind != kind) continue;
        *lo = table[i].lo;
        *hi = table[i].hi;
        return true;
    }
    return false;
}

/* A whole string as an integer ([+-]digits, at most 38 digits). */
static bool jx_parse_integer(const uint8_t *p, size_t n, __int128 *out) {
    size_t k = n > 0 && (p[0] == '-' || p[0] == '+') ? 1 : 0;
    if (k == n || n - k > 38) return false;
    __int128 v = 0;
    for (size_t j = k; j < n; j++) {
        if (p[j] < '0' || p[j] > '9') return false;
        v = v * 10 + (p[j] - '0');
    }
    *out = p[0] == '-' ? -v : v;
    return true;
}

static bool jx_read_number(const json_elem *x, bool want_float, jx_number *out,
                           mu_buf *scratch) {
    json_kind k = json_kind_of(x);
    out->is_integer = true;
    switch (k) {
    case JSON_BOOL: out->integer = *x->begin == 't'; return true;
    case JSON_INT64: out->integer = (int64_t)json_integer_bits(x); return true;
    case JSON_UINT64: out->integer = json_integer_bits(x); return true;
    case JSON_DOUBLE:
        out->is_integer = false;
        out->real = json_strtod(x->begin, (size_t)(x->end - x->begin));
        return true;
    case JSON_STRING: break;
    default: return false;
    }
    mu_buf_clear(scratch);
    mu_err ignored;
    if (json_unescape(x->begin + 1, x->end - 1, scratch, &ignored) != 0) return false;
    if (!want_float && jx_parse_integer(scratch->data, scratch->length_bytes, &out->integer))
        return true;
    int64_t i;
    uint64_t u;
    out->is_integer = false;
    return json_string_to(scratch->data, scratch->length_bytes, JNUM_FLOAT, &i, &u, &out->real);
}

/* Stores a number into a value of kind `kind` (an integer, Bool or float
 * kind): integers range checked, doubles truncated toward zero. */
static bool jx_number_store(ty_kind kind, const jx_number *v, uint8_t *value) {
    if (kind == TY_FLOAT64 || kind == TY_FLOAT32) {
        double d = v->is_integer ? (double)v->integer : v->real;
        if (kind == TY_FLOAT32) {
            float f = (float)d;
            memcpy(value, &f, sizeof(f));
        } else {
            memcpy(value, &d, sizeof(d));
        }
        return true;
    }
    __int128 lo, hi, n;
    if (!jx_bounds(kind, &lo, &hi)) return false;
    if (v->is_integer) {
        n = v->integer;
        if (n < lo || n > hi) return false;
    } else {
        if (!(v->real >= (double)lo && v->real < (double)hi + 1.0)) return false;
        n = (__int128)v->real;
    }
    if (kind == TY_BOOL) n = n != 0;
    uint64_t bits = (uint64_t)n; /* little-endian host: the low bytes are the value */
    memcpy(value, &bits, ty_type_value_bytes(ty_type_builtin(kind)));
    return true;
}

static int jx_append(ty_column *col, const void *value, mu_err *err) {
    int rc = ty_column_append_value(col, value, err);
    return rc == 0 ? JX_INSERTED : rc;
}

/* Appends the unescaped string, or the compact JSON of any other value. */
static int jx_string(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *text,
                     mu_buf *scratch, mu_err *err) {
    mu_buf_clear(text);
    int rc = *x->begin == '"' ? json_unescape(x->begin + 1, x->end - 1, text, err)
                              : json_write_raw(x, text, scratch, err);
    if (rc != 0) return rc;
    if (t->kind == TY_FIXED_STRING && text->length_bytes > t->length) return JX_FAILED;
    rc = ty_column_append_bytes(col, text->data, text->length_bytes, err);
    return rc == 0 ? JX_INSERTED : rc;
}

/* Date, Date32, DateTime[64], UUID, Decimal from a JSON string, as the
 * type's text. */
static bool jx_parse_text(const ty_type *t, const json_elem *x, uint8_t *value,
                          mu_buf *scratch) {
    if (*x->begin != '"') return false;
    mu_buf_clear(scratch);
    mu_err ignored;
    if (json_unescape(x->begin + 1, x->end - 1, scratch, &ignored) != 0) return false;
    return ty_value_parse(t, (const char *)scratch->data, scratch->length_bytes, value,
                          &ignored) == 0;
}

/* value = integer * 10^scale in a Decimal or DateTime64 of `bytes` bytes;
 * false when it overflows (ClickHouse's DECIMAL_OVERFLOW). */
static bool jx_scaled(__int128 integer, unsigned scale, uint32_t bytes, uint8_t *value) {
    __int128 v;
    if (__builtin_mul_overflow(integer, ty_decimal_pow10(scale), &v)) return false;
    if (bytes == 4 && (v < INT32_MIN || v > INT32_MAX)) return false;
    if (bytes == 8 && (v < INT64_MIN || v > INT64_MAX)) return false;
    memcpy(value, &v, bytes);
    return true;
}

/* A double * 10^scale truncated (convertToDecimal from Float64). */
static bool jx_scaled_real(double d, unsigned scale, uint32_t bytes, uint8_t *value) {
    double v = d * (double)ty_decimal_pow10(scale);
    double limit = bytes == 4 ? 2147483648.0 : bytes == 8 ? 9223372036854775808.0 : 1.7e38;
    if (!(v > -limit && v < limit)) return false;
    __int128 n = (__int128)v;
    memcpy(value, &n, bytes);
    return true;
}

static int jx_decimal_overflow(const ty_type *t, mu_err *err) {
    char name[64];
    return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal convert overflow: value is out of range "
                  "of %s in function JSONExtract", ty_type_name(t, name, sizeof(name)));
}

/* Decimal and DateTime64 from numbers; strings as text. */
static int jx_decimal(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *scratch,
                      mu_err *err) {
    uint8_t value[16] = {0};
    uint32_t bytes = ty_type_value_bytes(t);
    unsigned scale = t->kind == TY_DECIMAL ? t->scale : t->precision;
    json_kind k = json_kind_of(x);
    if (k == JSON_STRING) return jx_parse_text(t, x, value, scratch) ? jx_append(col, value, err)
                                                                    : JX_FAILED;
    if (k == JSON_INT64 || k == JSON_UINT64) {
        __int128 n = k == JSON_INT64 ? (__int128)(int64_t)json_integer_bits(x)
                                     : (__int128)json_integer_bits(x);
        if (t->kind == TY_DATETIME64) { /* raw ticks */
            int64_t ticks = (int64_t)n;
            return jx_append(col, &ticks, err);
        }
        if (!jx_scaled(n, scale, bytes, value)) return jx_decimal_overflow(t, err);
        return jx_append(col, value, err);
    }
    if (k != JSON_DOUBLE) return JX_FAILED;
    mu_buf_clear(scratch);
    mu_err ignored;
    int rc = json_write_number(x, scratch, err);
    if (rc != 0) return rc;
    if (t->kind == TY_DECIMAL && ty_value_parse(t, (const char *)scratch->data,
                                                scratch->length_bytes, value, &ignored) == 0)
        return jx_append(col, value, err);
    double d = json_strtod(x->begin, (size_t)(x->end - x->begin));
    if (!jx_scaled_real(d, scale, bytes, value)) return jx_decimal_overflow(t, err);
    return jx_append(col, value, err);
}

/* Enum8/Enum16: a declared value (JSON integer) or name (JSON string). */
static int jx_enum(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *scratch,
                   mu_err *err) {
    json_kind k = json_kind_of(x);
    for (uint32_t e = 0; e < t->enum_count; e++) {
        const ty_enum_entry *entry = &t->enum_entries[e];
        bool hit = false;
        if (k == JSON_INT64 || k == JSON_UINT64) {
            bool negative = k == JSON_INT64 && (int64_t)json_integer_bits(x) < 0;
            uint64_t bits = json_integer_bits(x);
            hit = negative ? (int64_t)bits == entry->value
                           : entry->value >= 0 && bits == (uint64_t)entry->value;
        } else if (k == JSON_STRING) {
            mu_buf_clear(scratch);
            mu_err ignored;
            hit = json_unescape(x->begin + 1, x->end - 1, scratch, &ignored) == 0 &&
                  scratch->length_bytes == entry->name_bytes &&
                  (entry->name_bytes == 0 ||
                   memcmp(scratch->data, entry->name, entry->name_bytes) == 0);
        }
        if (!hit) continue;
        int8_t v8 = (int8_t)entry->value;
        int16_t v16 = entry->value;
        return jx_append(col, t->kind == TY_ENUM8 ? (const void *)&v8 : (const void *)&v16, err);
    }
    return JX_FAILED;
}

/* Scalar kinds: numbers, Bool, strings, dates, UUID, Decimal, Enum. */
static int jx_scalar(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *text,
                     mu_buf *scratch, mu_err *err) {
    uint8_t value[16] = {0};
    switch (t->kind) {
    case TY_STRING: case TY_FIXED_STRING: return jx_string(t, col, x, text, scratch, err);
    case TY_DECIMAL: case TY_DATETIME64: return jx_decimal(t, col, x, scratch, err);
    case TY_ENUM8: case TY_ENUM16: return jx_enum(t, col, x, scratch, err);
    case TY_DATE: case TY_DATE32: case TY_UUID:
        return jx_parse_text(t, x, value, scratch) ? jx_append(col, value, err) : JX_FAILED;
    case TY_DATETIME:
        if (json_kind_of(x) == JSON_UINT64) { /* only past INT64_MAX, as simdjson types it */
            uint32_t seconds = (uint32_t)json_integer_bits(x);
            return jx_append(col, &seconds, err);
        }
        return jx_parse_text(t, x, value, scratch) ? jx_append(col, value, err) : JX_FAILED;
    default: break;
    }
    jx_number v;
    bool want_float = t->kind == TY_FLOAT32 || t->kind == TY_FLOAT64;
    if (!jx_read_number(x, want_float, &v, scratch) || !jx_number_store(t->kind, &v, value))
        return JX_FAILED;
    return jx_append(col, value, err);
}

static int jx_insert(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *text,
                     mu_buf *scratch, unsigned depth, mu_err *err);

/* An element of an Array or a Map value: the default when it does not
 * convert; *valid_out tells whether it did. */
static int jx_element(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *text,
                      mu_buf *scratch, unsigned depth, bool *valid_out, mu_err *err) {
    int rc = jx_insert(t, col, x, text, scratch, depth + 1, err);
    *valid_out = rc == JX_INSERTED;
    if (rc == JX_FAILED) rc = ty_column_append_default(col, err);
    return rc;
}

static int jx_array(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *text,
                    mu_buf *scratch, unsigned depth, mu_err *err) {
    if (*x->begin != '[') return JX_FAILED;
    ty_column *elements = ty_column_child_mut(col, 0);
    uint32_t before = ty_column_row_count(elements);
    json_iter it = json_iter_begin(x);
    json_elem k, v;
    bool any_valid = false;
    int rc = 0;
    while (rc == 0 && json_iter_next(&it, &k, &v)) {
        bool valid;
        rc = jx_element(t->child, elements, &v, text, scratch, depth, &valid, err);
        any_valid = any_valid || valid;
    }
    if (rc == 0 && !any_valid && ty_column_row_count(elements) != before) rc = JX_FAILED;
    if (rc != 0) {
        ty_column_truncate(elements, before);
        return rc;
    }
    rc = ty_column_append_nested_end(col, err);
    return rc == 0 ? JX_INSERTED : rc;
}

static int jx_map(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *text,
                  mu_buf *scratch, unsigned depth, mu_err *err) {
    if (*x->begin != '{') return JX_FAILED;
    ty_column *keys = ty_column_child_mut(col, 0), *values = ty_column_child_mut(col, 1);
    uint32_t before = ty_column_row_count(keys);
    json_iter it = json_iter_begin(x);
    json_elem k, v;
    int rc = 0;
    while (rc == 0 && json_iter_next(&it, &k, &v)) {
        bool valid;
        mu_buf_clear(text);
        rc = json_unescape(k.begin, k.end, text, err);
        if (rc == 0) rc = ty_column_append_bytes(keys, text->data, text->length_bytes, err);
        if (rc == 0) rc = jx_element(t->child2, values, &v, text, scratch, depth, &valid, err);
    }
    if (rc != 0) {
        ty_column_truncate(keys, before);
        ty_column_truncate(values, MU_MIN(before, ty_column_row_count(values)));
        return rc;
    }
    rc = ty_column_append_nested_end(col, err);
    return rc == 0 ? JX_INSERTED : rc;
}

/* Inserts x converted to t into col (JX_INSERTED), leaves col unchanged
 * (JX_FAILED), or fails (< 0). */
static int jx_insert(const ty_type *t, ty_column *col, const json_elem *x, mu_buf *text,
                     mu_buf *scratch, unsigned depth, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX);
    if (t->kind == TY_NULLABLE) {
        if (*x->begin != 'n') return jx_insert(t->child, col, x, text, scratch, depth + 1, err);
        int rc = ty_column_append_null(col, err);
        return rc == 0 ? JX_INSERTED : rc;
    }
    if (*x->begin == 'n') return JX_FAILED; /* null only into Nullable */
    if (t->kind == TY_ARRAY) return jx_array(t, col, x, text, scratch, depth, err);
    if (t->kind == TY_MAP) return jx_map(t, col, x, text, scratch, depth, err);
    return jx_scalar(t, col, x, text, scratch, err);
}

static int json_extract_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                               ty_column *out, mu_err *err) {
    mu_buf text, scratch;
    mu_buf_init(&text, 0);
    mu_buf_init(&scratch, 0);
    json_elem root = {NULL, NULL};
    bool valid = false;
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        if (i == 0 || !args[0].is_const) {
            size_t n;
            const uint8_t *doc = ty_column_row_bytes(args[0].column, exec_arg_row(&args[0], i), &n);
            valid = json_validate(doc, n, &root);
        }
        json_elem x = root;
        rc = JX_FAILED;
        if (valid && json_follow(args, call->arg_count - 1, i, &x, &scratch))
            rc = jx_insert(call->result_type, out, &x, &text, &scratch, 0, err);
        if (rc == JX_FAILED) rc = ty_column_append_default(out, err);
    }
    mu_buf_deinit(&text);
    mu_buf_deinit(&scratch);
    return rc;
}

/* The result type: `t` without LowCardinality, checked to be one the
 * inserts handle (ClickHouse's buildJSONExtractTree). */
static int jx_result_type(const exec_call *call, const ty_type *t, mu_arena *arena,
                          const ty_type **out, mu_err *err) {
    char name[256];
    const ty_type *inner[2] = {t->child, t->child2};
    const ty_type *fixed[2] = {NULL, NULL};
    switch (t->kind) {
    case TY_NOTHING:
        return MU_ERR(err, MU_EILLEGAL_TYPE, "%s doesn't support the return type schema: %s",
                      call->function->name, ty_type_name(t, name, sizeof(name)));
    case TY_LOW_CARDINALITY: return jx_result_type(call, t->child, arena, out, err);
    case TY_MAP:
        if (ty_type_strip_nullable(t->child)->kind != TY_STRING &&
            !(t->child->kind == TY_LOW_CARDINALITY && t->child->child->kind == TY_STRING))
            return MU_ERR(err, MU_EILLEGAL_TYPE, "%s doesn't support the return type schema: %s "
                          "with key type not String", call->function->name,
                          ty_type_name(t, name, sizeof(name)));
        break;
    case TY_NULLABLE: case TY_ARRAY: break;
    default: *out = t; return 0;
    }
    for (int k = 0; k < 2; k++) {
        if (inner[k] == NULL) continue;
        int rc = jx_result_type(call, inner[k], arena, &fixed[k], err);
        if (rc != 0) return rc;
    }
    if (fixed[0] == t->child && fixed[1] == t->child2) {
        *out = t;
        return 0;
    }
    ty_type *copy = mu_arena_alloc(arena, sizeof(*copy), err);
    if (copy == NULL) return err->code;
    *copy = *t;
    copy->child = fixed[0];
    copy->child2 = fixed[1];
    *out = copy;
    return 0;
}

static int json_extract_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    char name[128];
    if (call->arg_count < 2)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Function %s requires at least two arguments",
                      call->function->name);
    if (call->arg_types[0]->kind != TY_STRING)
        return MU_ERR(err, MU_EILLEGAL_TYPE, "The first argument of function %s should be a string "
                      "containing JSON or a JSON object, illegal type: %s", call->function->name,
                      ty_type_name(call->arg_types[0], name, sizeof(name)));
    const char *type_name;
    size_t type_name_bytes;
    if (!exec__const_string(call, call->arg_count - 1, &type_name, &type_name_bytes))
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "The last argument of function %s should be a "
                      "constant string specifying the return data type", call->function->name);
    const ty_type *type;
    int rc = json_check_path(call, call->arg_count - 1, err);
    if (rc == 0) rc = ty_type_parse_n(type_name, type_name_bytes, arena, &type, err);
    if (rc == 0) rc = jx_result_type(call, type, arena, &call->result_type, err);
    if (rc != 0) return rc;
    call->kernel = json_extract_kernel;
    return 0;
}

static const exec_function fn_json_extract = {"JSONExtract", EXEC_FN_RESULT_NULLABLE_OK,
                                              json_extract_bind};

/* toJSONString(x): any value as the JSON formats write it (the formats
 * module's encoder, so the two never differ). A NULL argument gives NULL
 * (the default NULL handling); NULLs inside arrays and maps are null. */
static int json_to_string_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    (void)call;
    mu_buf text, scratch;
    mu_buf_init(&text, 0);
    mu_buf_init(&scratch, 0);
    int rc = 0;
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        mu_buf_clear(&text);
        rc = fmt_json_value(args[0].column, exec_arg_row(&args[0], r), &scratch, &text, err);
        if (rc == 0) rc = ty_column_append_bytes(out, text.data, text.length_bytes, err);
    }
    mu_buf_deinit(&scratch);
    mu_buf_deinit(&text);
    return rc;
}

static int json_to_string_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    call->kernel = json_to_string_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static const exec_function fn_to_json_string = {"toJSONString", 0, json_to_string_bind};

#define JSON_FUNCTION(var, fname, fn)                                                     \
    static int var##_bind(exec_call *call, mu_arena *arena, mu_err *err) {                \
        return json_bind_common(call, arena, fn, err);                                    \
    }                                                                                     \
    static const exec_function var = {fname, 0, var##_bind}

JSON_FUNCTION(fn_json_has, "JSONHas", JFN_HAS);
JSON_FUNCTION(fn_json_length, "JSONLength", JFN_LENGTH);
JSON_FUNCTION(fn_json_type, "JSONType", JFN_TYPE);
JSON_FUNCTION(fn_json_int, "JSONExtractInt", JFN_INT);
JSON_FUNCTION(fn_json_uint, "JSONExtractUInt", JFN_UINT);
JSON_FUNCTION(fn_json_float, "JSONExtractFloat", JFN_FLOAT);
JSON_FUNCTION(fn_json_bool, "JSONExtractBool", JFN_BOOL);
JSON_FUNCTION(fn_json_string, "JSONExtractString", JFN_STRING);
JSON_FUNCTION(fn_json_raw, "JSONExtractRaw", JFN_RAW);
JSON_FUNCTION(fn_json_keys, "JSONExtractKeys", JFN_KEYS);
JSON_FUNCTION(fn_json_array_raw, "JSONExtractArrayRaw", JFN_ARRAY_RAW);
JSON_FUNCTION(fn_is_valid_json, "isValidJSON", JFN_VALID);

const exec_function *const exec__functions_json[] = {
    &fn_json_has,  &fn_json_length, &fn_json_type, &fn_json_int,  &fn_json_uint,
    &fn_json_float, &fn_json_bool,  &fn_json_string, &fn_json_raw, &fn_json_keys,
    &fn_json_array_raw, &fn_is_valid_json, &fn_json_extract, &fn_to_json_string, NULL,
};
