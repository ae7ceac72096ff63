/* http_url.c: request-target helpers for handlers: path/query split,
 * percent-decoding (RFC 3986 section 2.1) and application/x-www-form-
 * urlencoded query parameters ('+' is a space there, not in paths), which
 * the ClickHouse handler reads (?query=...&database=...). Pure functions;
 * decoded output is never longer than its input.
 */
#include "server/http.h"

#include <string.h>

static bool starts_with_nocase(const char *s, size_t n, const char *prefix) {
    size_t k = strlen(prefix);
    return n >= k && http_token_equal(s, k, prefix);
}

void http_target_split(const char *target, size_t target_bytes, http_slice *path_out,
                       http_slice *query_out) {
    MU_ASSERT(target != NULL || target_bytes == 0);
    const char *p = target;
    const char *end = target + target_bytes;
    /* absolute-form (RFC 9112 section 3.2.2): skip scheme and authority. */
    size_t scheme = starts_with_nocase(p, target_bytes, "http://")    ? 7
                    : starts_with_nocase(p, target_bytes, "https://") ? 8
                                                                       : 0;
    if (scheme > 0) {
        p += scheme;
        while (p < end && *p != '/' && *p != '?' && *p != '#') p++;
    }
    const char *hash = memchr(p, '#', (size_t)(end - p));
    if (hash != NULL) end = hash;
    const char *question = memchr(p, '?', (size_t)(end - p));
    const char *path_end = question != NULL ? question : end;
    path_out->data = p;
    path_out->length_bytes = (size_t)(path_end - p);
    query_out->data = question != NULL ? question + 1 : end;
    query_out->length_bytes = question != NULL ? (size_t)(end - question - 1) : 0;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int http_url_decode(const char *in, size_t in_bytes, bool plus_is_space, char *out,
                    size_t *out_bytes) {
    MU_ASSERT(in != NULL || in_bytes == 0);
    MU_ASSERT(out != NULL || in_bytes == 0);
    MU_ASSERT(out_bytes != NULL);
    size_t o = 0;
    for (size_t i = 0; i < in_bytes; i++) {
        char c = in[i];
        if (c == '%') {
            if (in_bytes - i < 3) return MU_EINVAL;
            int h = hex_digit(in[i + 1]);
            int l = hex_digit(in[i + 2]);
            if (h < 0 || l < 0) return MU_EINVAL;
            out[o++] = (char)((h << 4) | l);
            i += 2;
        } else if (c == '+' && plus_is_space) {
            out[o++] = ' ';
        } else {
            out[o++] = c;
        }
    }
    MU_ASSERT(o <= in_bytes);
    *out_bytes = o;
    return 0;
}

bool http_query_next(http_slice *cursor, http_slice *name_out, http_slice *value_out) {
    const char *p = cursor->data;
    const char *end = p + cursor->length_bytes;
    while (p < end && *p == '&') p++;
    if (p == end) {
        cursor->data = end;
        cursor->length_bytes = 0;
        return false;
    }
    const char *amp = memchr(p, '&', (size_t)(end - p));
    const char *piece_end = amp != NULL ? amp : end;
    const char *eq = memchr(p, '=', (size_t)(piece_end - p));
    name_out->data = p;
    name_out->length_bytes = (size_t)((eq != NULL ? eq : piece_end) - p);
    value_out->data = eq != NULL ? eq + 1 : piece_end;
    value_out->length_bytes = eq != NULL ? (size_t)(piece_end - eq - 1) : 0;
    cursor->data = piece_end;
    cursor->length_bytes = (size_t)(end - piece_end);
    return true;
}

/* Decoded names are compared without a copy: walk both strings at once. */
static int name_matches(http_slice raw, const char *name, bool *match_out) {
    size_t k = 0;
    size_t name_bytes = strlen(name);
    for (size_t i = 0; i < raw.length_bytes; i++) {
        char c = raw.data[i];
        if (c == '%') {
            if (raw.length_bytes - i < 3) return MU_EINVAL;
            int h = hex_digit(raw.data[i + 1]);
            int l = hex_digit(raw.data[i + 2]);
            if (h < 0 || l < 0) return MU_EINVAL;
            c = (char)((h << 4) | l);
            i += 2;
        } else if (c == '+') {
            c = ' ';
        }
        if (k >= name_bytes || name[k] != c) {
            *match_out = false;
            return 0;
        }
        k++;
    }
    *match_out = k == name_bytes;
    return 0;
}

int http_query_get(http_slice query, const char *name, mu_buf *value_out, mu_err *err) {
    MU_ASSERT(name != NULL && value_out != NULL);
    http_slice cursor = query, key, value;
    while (http_query_next(&cursor, &key, &value)) {
        bool match = false;
        if (name_matches(key, name, &match) != 0) {
            return MU_ERR(err, MU_EINVAL, "bad %%-escape in URL parameter name \"%.*s\"",
                          (int)MU_MIN(key.length_bytes, 64), key.data);
        }
        if (!match) continue;
        if (value.length_bytes == 0) return 1;
        int rc = mu_buf_reserve(value_out, value.length_bytes, err);
        if (rc != 0) return rc;
        size_t decoded = 0;
        char *dst = (char *)value_out->data + value_out->length_bytes;
        if (http_url_decode(value.data, value.length_bytes, true, dst, &decoded) != 0) {
            return MU_ERR(err, MU_EINVAL, "bad %%-escape in URL parameter \"%s\"", name);
        }
        value_out->length_bytes += decoded;
        return 1;
    }
    return 0;
}
