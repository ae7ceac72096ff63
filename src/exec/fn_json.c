/* fn_json.c: ClickHouse's JSON functions over String documents: JSONHas,
 * JSONLength, JSONType, JSONExtractInt/UInt/Float/Bool/String/Raw,
 * JSONExtractKeys, JSONExtractArrayRaw and isValidJSON.
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

static bool json_follow(const exec_call *call, const exec_arg *args, uint32_t row,
                        json_elem *x, mu_buf *scratch) {
    for (uint32_t k = 1; k < call->arg_count; k++) {
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
        bool found = valid && json_follow(call, args, i, &x, &scratch);
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
    for (uint32_t k = 1; k < call->arg_count; k++) {
        const ty_type *t = call->arg_types[k];
        if (t->kind != TY_STRING && !exec_type_is_integer(t) && t->kind != TY_BOOL)
            return MU_ERR(err, MU_EILLEGAL_TYPE, "The argument %u of function %s should be a "
                          "string specifying key or an integer specifying index, illegal type: %s",
                          k + 1, call->function->name, ty_type_name(t, name, sizeof(name)));
    }
    call->kernel = json_kernel;
    call->state = (void *)(uintptr_t)fn;
    return json_result_type(call, arena, fn, err);
}

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
    &fn_json_array_raw, &fn_is_valid_json, NULL,
};
