/* http_parser.c: incremental HTTP/1.1 request parser (RFC 9112). Pure: no
 * I/O, no allocation beyond the head buffer (bounded by max_header_bytes).
 * The head is collected until its blank line and then parsed in place (NULs
 * written over separators); the body is never buffered: BODY events point
 * into the caller's input. Lines end in CRLF or a bare LF; a bare CR is 400.
 *
 *   HEAD --blank line, head_parse--> HEADERS --> LENGTH ---------------> END
 *                                         \--> CHUNK_SIZE -> [CHUNK_EXT] -> CHUNK_SIZE_LF
 *     CHUNK_SIZE_LF --size>0--> CHUNK_DATA -> CHUNK_DATA_CR -> CHUNK_DATA_LF -> CHUNK_SIZE
 *     CHUNK_SIZE_LF --size=0--> TRAILER_START <-> TRAILER_NAME/VALUE/LF -> END
 *   END --next execute--> HEAD;  any --bad input--> ERROR (sticky)
 */
#include "server/http.h"

#include <string.h>

enum parser_state {
    P_HEAD,
    P_HEADERS, /* HEADERS reported; the next call sets up the body */
    P_LENGTH,
    P_CHUNK_SIZE,
    P_CHUNK_SIZE_BWS,
    P_CHUNK_EXT,
    P_CHUNK_SIZE_LF,
    P_CHUNK_DATA,
    P_CHUNK_DATA_CR,
    P_CHUNK_DATA_LF,
    P_TRAILER_START,
    P_TRAILER_NAME,
    P_TRAILER_VALUE,
    P_TRAILER_LF,
    P_TRAILER_END_LF,
    P_END, /* END pending */
    P_DONE,
    P_ERROR,
};

/* Largest Content-Length or chunk total accepted at all (2^62): keeps sums
 * far from overflow whatever the configured limit. */
#define HTTP_BODY_BYTES_MAX (UINT64_C(1) << 62)

static bool is_tchar(uint8_t c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool is_field_byte(uint8_t c) {
    return c == '\t' || (c >= 0x20 && c != 0x7f);
}

static uint8_t ascii_lower(uint8_t c) {
    return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

bool http_token_equal(const char *a, size_t a_bytes, const char *b) {
    size_t b_bytes = strlen(b);
    if (a_bytes != b_bytes) return false;
    for (size_t i = 0; i < a_bytes; i++) {
        if (ascii_lower((uint8_t)a[i]) != ascii_lower((uint8_t)b[i])) return false;
    }
    return true;
}

static size_t set_error(http_parser *p, int status, const char *message, size_t consumed,
                        http_event *ev) {
    p->state = P_ERROR;
    p->error_status = status;
    p->error_message = message;
    ev->type = HTTP_EVENT_ERROR;
    ev->status = status;
    ev->message = message;
    return consumed;
}

static void start_message(http_parser *p) {
    mu_buf_clear(&p->head_storage);
    memset(&p->head, 0, sizeof p->head);
    p->state = P_HEAD;
    p->line_has_bytes = false;
    p->body_limit_bytes = p->limits.max_body_bytes;
    p->body_remaining_bytes = 0;
    p->body_received_bytes = 0;
    p->chunk_size = 0;
    p->chunk_size_digits = 0;
    p->aux_bytes = 0;
    p->connection_close = false;
    p->connection_keep_alive = false;
}

void http_parser_init(http_parser *p, const http_parser_limits *limits) {
    MU_ASSERT(p != NULL);
    MU_ASSERT(limits->max_header_count <= HTTP_HEADER_COUNT_MAX);
    memset(p, 0, sizeof *p);
    p->limits = *limits;
    mu_buf_init(&p->head_storage, limits->max_header_bytes);
    start_message(p);
}

void http_parser_deinit(http_parser *p) {
    if (p == NULL) return;
    mu_buf_deinit(&p->head_storage);
}

void http_parser_set_body_limit(http_parser *p, uint64_t max_body_bytes) {
    MU_ASSERT(p->state == P_HEADERS);
    p->body_limit_bytes = max_body_bytes;
}

const http_head *http_parser_head(const http_parser *p) { return &p->head; }

void http_parser_take_head(http_parser *p, http_head *head_out, mu_buf *storage_out) {
    MU_ASSERT(p->state != P_HEAD && p->state != P_ERROR);
    *head_out = p->head;
    *storage_out = p->head_storage;
    /* p->head keeps its framing fields for the body; its strings now belong
     * to the caller. */
    mu_buf_init(&p->head_storage, p->limits.max_header_bytes);
}

bool http_parser_in_message(const http_parser *p) {
    if (p->state == P_HEAD) return p->head_storage.length_bytes > 0;
    return p->state != P_DONE;
}

bool http_parser_in_body(const http_parser *p) {
    return p->state != P_HEAD && p->state != P_DONE && p->state != P_ERROR;
}

const char *http_head_find(const http_head *head, const char *name) {
    for (size_t i = 0; i < head->header_count; i++) {
        const http_header *h = &head->headers[i];
        if (http_token_equal(h->name, strlen(h->name), name)) return h->value;
    }
    return NULL;
}

/* ---- Head ---------------------------------------------------------- */

/* Parses "HTTP/x.y" exactly. Returns 0, or the status of the failure. */
static int parse_version(const char *s, size_t n, int *version_out) {
    if (n != 8 || memcmp(s, "HTTP/", 5) != 0) return 400;
    if (s[5] < '0' || s[5] > '9' || s[6] != '.' || s[7] < '0' || s[7] > '9') return 400;
    if (s[5] != '1') return 505;
    /* RFC 9110 section 6.2: a higher minor version is answered as 1.1. */
    *version_out = s[7] == '0' ? HTTP_VERSION_1_0 : HTTP_VERSION_1_1;
    return 0;
}

/* method SP request-target SP HTTP-version, single spaces, nothing else. */
static int parse_request_line(http_parser *p, char *line, size_t n, const char **message) {
    size_t i = 0;
    while (i < n && is_tchar((uint8_t)line[i])) i++;
    if (i == 0 || i == n || line[i] != ' ') {
        *message = "malformed request line: bad method";
        return 400;
    }
    line[i] = '\0';
    p->head.method = line;
    size_t target_start = ++i;
    while (i < n && (uint8_t)line[i] > 0x20 && (uint8_t)line[i] < 0x7f) i++;
    if (i == target_start || i == n || line[i] != ' ') {
        *message = "malformed request line: bad request-target";
        return 400;
    }
    line[i] = '\0';
    p->head.target = line + target_start;
    p->head.target_bytes = i - target_start;
    i++;
    int status = parse_version(line + i, n - i, &p->head.version);
    if (status != 0) {
        *message = status == 505 ? "HTTP version not supported"
                                 : "malformed request line: bad HTTP version";
        return status;
    }
    line[n] = '\0';
    return 0;
}

/* Content-Length: 1*DIGIT, no sign, no list; repeats must agree. */
static int parse_content_length(http_parser *p, const char *v, size_t n, const char **message) {
    uint64_t value = 0;
    if (n == 0) goto bad;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9') goto bad;
        /* Checked before multiplying, so the product cannot wrap. */
        if (value > HTTP_BODY_BYTES_MAX / 10 ||
            value * 10 + (uint64_t)(v[i] - '0') > HTTP_BODY_BYTES_MAX) {
            *message = "Content-Length is too large";
            return 400;
        }
        value = value * 10 + (uint64_t)(v[i] - '0');
    }
    if (p->head.has_content_length && p->head.content_length != value) {
        *message = "conflicting Content-Length fields";
        return 400;
    }
    p->head.has_content_length = true;
    p->head.content_length = value;
    return 0;
bad:
    *message = "Content-Length is not a decimal number";
    return 400;
}

/* Calls fn for each non-empty element of a comma-separated list, trimmed. */
typedef int (*list_fn)(http_parser *p, const char *item, size_t n, const char **message);

static int for_each_list_item(http_parser *p, const char *v, size_t n, list_fn fn,
                              const char **message) {
    size_t i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ',')) i++;
        size_t start = i;
        while (i < n && v[i] != ',') i++;
        size_t end = i;
        while (end > start && (v[end - 1] == ' ' || v[end - 1] == '\t')) end--;
        if (end == start) continue;
        int status = fn(p, v + start, end - start, message);
        if (status != 0) return status;
    }
    return 0;
}

static int transfer_coding_item(http_parser *p, const char *item, size_t n, const char **message) {
    if (!http_token_equal(item, n, "chunked")) {
        *message = "unsupported Transfer-Encoding (only chunked is implemented)";
        return 501;
    }
    if (p->head.chunked) {
        *message = "chunked applied twice in Transfer-Encoding";
        return 400;
    }
    p->head.chunked = true;
    return 0;
}

static int connection_item(http_parser *p, const char *item, size_t n, const char **message) {
    (void)message;
    if (http_token_equal(item, n, "close")) p->connection_close = true;
    if (http_token_equal(item, n, "keep-alive")) p->connection_keep_alive = true;
    return 0;
}

/* Reacts to the fields that change framing or connection handling. */
static int interpret_field(http_parser *p, const http_header *h, int *host_count,
                           const char **message) {
    size_t name_bytes = strlen(h->name);
    if (http_token_equal(h->name, name_bytes, "content-length")) {
        return parse_content_length(p, h->value, h->value_bytes, message);
    }
    if (http_token_equal(h->name, name_bytes, "transfer-encoding")) {
        if (p->head.version == HTTP_VERSION_1_0 || h->value_bytes == 0) {
            *message = p->head.version == HTTP_VERSION_1_0
                           ? "Transfer-Encoding in an HTTP/1.0 request"
                           : "empty Transfer-Encoding";
            return 400;
        }
        return for_each_list_item(p, h->value, h->value_bytes, transfer_coding_item, message);
    }
    if (http_token_equal(h->name, name_bytes, "connection")) {
        return for_each_list_item(p, h->value, h->value_bytes, connection_item, message);
    }
    if (http_token_equal(h->name, name_bytes, "expect") &&
        p->head.version == HTTP_VERSION_1_1) {
        if (!http_token_equal(h->value, h->value_bytes, "100-continue")) {
            *message = "unsupported expectation";
            return 417;
        }
        p->head.expect_continue = true;
        return 0;
    }
    if (http_token_equal(h->name, name_bytes, "host") && ++*host_count > 1) {
        *message = "more than one Host field";
        return 400;
    }
    return 0;
}

/* field-name ":" OWS field-value OWS; no space before the colon, no folding. */
static int parse_field_line(http_parser *p, char *line, size_t n, const char **message) {
    if (line[0] == ' ' || line[0] == '\t') {
        *message = "obsolete line folding or whitespace before a field name";
        return 400;
    }
    size_t i = 0;
    while (i < n && is_tchar((uint8_t)line[i])) i++;
    if (i == 0 || i == n || line[i] != ':') {
        *message = "malformed header field name";
        return 400;
    }
    if (p->head.header_count >= p->limits.max_header_count) {
        *message = "too many header fields";
        return 431;
    }
    line[i] = '\0';
    size_t start = i + 1;
    while (start < n && (line[start] == ' ' || line[start] == '\t')) start++;
    size_t end = n;
    while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\t')) end--;
    for (size_t k = start; k < end; k++) {
        if (!is_field_byte((uint8_t)line[k])) {
            *message = "invalid byte in a header field value";
            return 400;
        }
    }
    line[end] = '\0';
    http_header *h = &p->head.headers[p->head.header_count++];
    h->name = line;
    h->value = line + start;
    h->value_bytes = end - start;
    return 0;
}

/* Framing and persistence once every field is known (RFC 9112 sections 6, 9.3). */
static int finish_head(http_parser *p, const char **message) {
    if (p->head.chunked && p->head.has_content_length) {
        *message = "both Content-Length and Transfer-Encoding";
        return 400;
    }
    if (p->head.version == HTTP_VERSION_1_1) {
        p->head.keep_alive = !p->connection_close;
    } else {
        p->head.keep_alive = p->connection_keep_alive && !p->connection_close;
    }
    return 0;
}

/* Parses the complete head in head_storage (it ends with the blank line). */
static int head_parse(http_parser *p, const char **message) {
    char *buf = (char *)p->head_storage.data;
    size_t total = p->head_storage.length_bytes;
    size_t pos = 0;
    int host_count = 0;
    for (size_t line_index = 0;; line_index++) {
        char *lf = memchr(buf + pos, '\n', total - pos);
        MU_ASSERT(lf != NULL); /* the scanner saw the blank line */
        size_t n = (size_t)(lf - (buf + pos));
        char *line = buf + pos;
        pos += n + 1;
        if (n > 0 && line[n - 1] == '\r') n--;
        if (memchr(line, '\r', n) != NULL) {
            *message = "bare CR in the request head";
            return 400;
        }
        if (n == 0) break;
        int status = line_index == 0 ? parse_request_line(p, line, n, message)
                                     : parse_field_line(p, line, n, message);
        if (status != 0) return status;
        if (line_index > 0) {
            status = interpret_field(p, &p->head.headers[p->head.header_count - 1],
                                     &host_count, message);
            if (status != 0) return status;
        }
    }
    MU_ASSERT(pos == total);
    return finish_head(p, message);
}

/* Collects head bytes up to the blank line, then parses them. */
static size_t head_feed(http_parser *p, const uint8_t *data, size_t length_bytes,
                        http_event *ev) {
    size_t i = 0;
    if (p->head_storage.length_bytes == 0) {
        /* RFC 9112 section 2.2: ignore empty lines before the request line. */
        while (i < length_bytes && (data[i] == '\r' || data[i] == '\n')) i++;
    }
    size_t start = i;
    bool complete = false;
    for (; i < length_bytes; i++) {
        uint8_t c = data[i];
        if (c == '\n') {
            if (!p->line_has_bytes) {
                complete = true;
                i++;
                break;
            }
            p->line_has_bytes = false;
        } else if (c != '\r') {
            p->line_has_bytes = true;
        }
    }
    size_t n = i - start;
    if (n > p->limits.max_header_bytes - p->head_storage.length_bytes) {
        return set_error(p, 431, "request line and headers exceed http.max_header_bytes", i, ev);
    }
    if (n > 0 && mu_buf_append(&p->head_storage, data + start, n, NULL) != 0) {
        return set_error(p, 503, "out of memory for the request head", i, ev);
    }
    if (!complete) return i;
    const char *message = NULL;
    int status = head_parse(p, &message);
    if (status != 0) return set_error(p, status, message, i, ev);
    p->state = P_HEADERS;
    ev->type = HTTP_EVENT_HEADERS;
    return i;
}

/* ---- Body ---------------------------------------------------------- */

static size_t body_begin(http_parser *p, http_event *ev) {
    if (p->head.chunked) {
        p->state = P_CHUNK_SIZE;
        return 0;
    }
    if (p->head.content_length > p->body_limit_bytes) {
        return set_error(p, 413, "request body exceeds the size limit", 0, ev);
    }
    p->body_remaining_bytes = p->head.content_length;
    p->state = p->body_remaining_bytes > 0 ? P_LENGTH : P_END;
    return 0;
}

static size_t emit_body(http_parser *p, const uint8_t *data, size_t available, size_t consumed,
                        http_event *ev) {
    size_t n = (size_t)MU_MIN((uint64_t)available, p->body_remaining_bytes);
    p->body_remaining_bytes -= n;
    p->body_received_bytes += n;
    ev->type = HTTP_EVENT_BODY;
    ev->data = data;
    ev->length_bytes = n;
    return consumed + n;
}

/* Chunk data: the chunk's CRLF follows its last byte. */
static size_t emit_chunk_data(http_parser *p, const uint8_t *data, size_t available,
                              size_t consumed, http_event *ev) {
    size_t total = emit_body(p, data, available, consumed, ev);
    if (p->body_remaining_bytes == 0) p->state = P_CHUNK_DATA_CR;
    return total;
}

static int hex_value(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = ascii_lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* The chunk-size line is complete: start the data or the trailer section. */
static size_t chunk_size_done(http_parser *p, size_t consumed, http_event *ev) {
    if (p->chunk_size == 0) {
        p->state = P_TRAILER_START;
        p->aux_bytes = 0;
        return consumed;
    }
    if (p->chunk_size > p->body_limit_bytes - MU_MIN(p->body_limit_bytes, p->body_received_bytes)) {
        return set_error(p, 413, "request body exceeds the size limit", consumed, ev);
    }
    if (p->chunk_size > HTTP_BODY_BYTES_MAX - p->body_received_bytes) {
        return set_error(p, 400, "chunked body is too large", consumed, ev);
    }
    p->body_remaining_bytes = p->chunk_size;
    p->state = P_CHUNK_DATA;
    return consumed;
}

/* One byte of a chunk-size line. Returns 0 to continue, or an HTTP status. */
static int chunk_size_byte(http_parser *p, uint8_t c, const char **message) {
    switch (p->state) {
    case P_CHUNK_SIZE:
        if (hex_value(c) >= 0) {
            if (p->chunk_size > (UINT64_MAX >> 4)) {
                *message = "chunk size overflows";
                return 400;
            }
            p->chunk_size = (p->chunk_size << 4) | (uint64_t)hex_value(c);
            p->chunk_size_digits++;
            return 0;
        }
        if (p->chunk_size_digits == 0) {
            *message = "chunk size is not a hexadecimal number";
            return 400;
        }
        p->state = P_CHUNK_SIZE_BWS; /* this byte ends the digits */
        /* fall through */
    case P_CHUNK_SIZE_BWS:
        if (c == ' ' || c == '\t') return 0;
        if (c == ';') {
            p->state = P_CHUNK_EXT;
        } else if (c == '\r') {
            p->state = P_CHUNK_SIZE_LF;
        } else {
            *message = "malformed chunk size line";
            return 400;
        }
        return 0;
    case P_CHUNK_EXT:
        if (++p->aux_bytes > HTTP_CHUNK_EXT_MAX_BYTES) {
            *message = "chunk extension too long";
            return 400;
        }
        if (c == '\r') {
            p->state = P_CHUNK_SIZE_LF;
        } else if (!is_field_byte(c)) {
            *message = "invalid byte in a chunk extension";
            return 400;
        }
        return 0;
    default:
        MU_ASSERT(p->state == P_CHUNK_SIZE_LF);
        *message = "chunk size line not ended by CRLF";
        return 400;
    }
}

/* One byte of the trailer section (parsed, checked, discarded). */
static int trailer_byte(http_parser *p, uint8_t c, const char **message) {
    if (++p->aux_bytes > p->limits.max_header_bytes) {
        *message = "trailer section exceeds http.max_header_bytes";
        return 431;
    }
    switch (p->state) {
    case P_TRAILER_START:
        if (c == '\r') p->state = P_TRAILER_END_LF;
        else if (is_tchar(c)) p->state = P_TRAILER_NAME;
        else break;
        return 0;
    case P_TRAILER_NAME:
        if (c == ':') p->state = P_TRAILER_VALUE;
        else if (!is_tchar(c)) break;
        return 0;
    case P_TRAILER_VALUE:
        if (c == '\r') p->state = P_TRAILER_LF;
        else if (!is_field_byte(c)) break;
        return 0;
    default:
        break; /* a CR not followed by LF */
    }
    *message = "malformed trailer field";
    return 400;
}

static bool is_chunk_line_state(int state) {
    return state == P_CHUNK_SIZE || state == P_CHUNK_SIZE_BWS || state == P_CHUNK_EXT ||
           state == P_CHUNK_SIZE_LF;
}

/* Handles a LF in the chunk framing; returns true if it was one. */
static bool chunk_line_feed(http_parser *p) {
    switch (p->state) {
    case P_CHUNK_SIZE:
        if (p->chunk_size_digits == 0) return false;
        /* fall through */
    case P_CHUNK_SIZE_BWS:
    case P_CHUNK_EXT:
    case P_CHUNK_SIZE_LF:
        return true; /* caller runs chunk_size_done */
    case P_CHUNK_DATA_CR:
    case P_CHUNK_DATA_LF:
        p->state = P_CHUNK_SIZE;
        p->chunk_size = 0;
        p->chunk_size_digits = 0;
        p->aux_bytes = 0;
        return true;
    case P_TRAILER_START:
    case P_TRAILER_END_LF:
        p->state = P_END;
        return true;
    case P_TRAILER_VALUE:
    case P_TRAILER_LF:
        p->state = P_TRAILER_START;
        return true;
    default:
        return false;
    }
}

static size_t chunked_feed(http_parser *p, const uint8_t *data, size_t length_bytes,
                           http_event *ev) {
    const char *message = "malformed chunked body";
    for (size_t i = 0; i < length_bytes; i++) {
        if (p->state == P_CHUNK_DATA) return emit_chunk_data(p, data + i, length_bytes - i, i, ev);
        uint8_t c = data[i];
        if (c == '\n') {
            bool size_line = is_chunk_line_state(p->state);
            if (!chunk_line_feed(p)) return set_error(p, 400, message, i, ev);
            if (size_line) {
                size_t consumed = chunk_size_done(p, i + 1, ev);
                if (p->state == P_ERROR) return consumed;
            }
            if (p->state == P_END) {
                p->state = P_DONE;
                ev->type = HTTP_EVENT_END;
                return i + 1;
            }
            continue;
        }
        int status = 0;
        if (is_chunk_line_state(p->state)) {
            status = chunk_size_byte(p, c, &message);
        } else if (p->state == P_CHUNK_DATA_CR && c == '\r') {
            p->state = P_CHUNK_DATA_LF;
        } else if (p->state >= P_TRAILER_START && p->state <= P_TRAILER_VALUE) {
            status = trailer_byte(p, c, &message);
        } else {
            status = 400; /* data not followed by CRLF, or CR then not LF */
        }
        if (status != 0) return set_error(p, status, message, i, ev);
    }
    return length_bytes;
}

size_t http_parser_execute(http_parser *p, const uint8_t *data, size_t length_bytes,
                           http_event *ev) {
    MU_ASSERT(p != NULL && ev != NULL);
    MU_ASSERT(data != NULL || length_bytes == 0);
    memset(ev, 0, sizeof *ev);
    if (p->state == P_HEADERS) {
        size_t consumed = body_begin(p, ev);
        if (ev->type != HTTP_EVENT_NONE) return consumed;
        MU_ASSERT(p->state != P_HEADERS);
    }
    switch (p->state) {
    case P_ERROR:
        return set_error(p, p->error_status, p->error_message, 0, ev);
    case P_DONE:
        start_message(p);
        /* fall through */
    case P_HEAD:
        return head_feed(p, data, length_bytes, ev);
    case P_END:
        p->state = P_DONE;
        ev->type = HTTP_EVENT_END;
        return 0;
    case P_LENGTH: {
        if (length_bytes == 0) return 0;
        size_t consumed = emit_body(p, data, length_bytes, 0, ev);
        if (p->body_remaining_bytes == 0) p->state = P_END;
        return consumed;
    }
    case P_CHUNK_DATA:
        if (length_bytes == 0) return 0;
        return emit_chunk_data(p, data, length_bytes, 0, ev);
    default:
        return chunked_feed(p, data, length_bytes, ev);
    }
}

/* ---- Small tables -------------------------------------------------- */

unsigned http_method_bit(const char *method) {
    static const struct {
        const char *name;
        unsigned bit;
    } methods[] = {
        {"GET", HTTP_METHOD_GET},         {"HEAD", HTTP_METHOD_HEAD},
        {"POST", HTTP_METHOD_POST},       {"PUT", HTTP_METHOD_PUT},
        {"DELETE", HTTP_METHOD_DELETE},   {"OPTIONS", HTTP_METHOD_OPTIONS},
        {"PATCH", HTTP_METHOD_PATCH},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(methods); i++) {
        if (strcmp(method, methods[i].name) == 0) return methods[i].bit;
    }
    return HTTP_METHOD_OTHER;
}

const char *http_status_reason(int status) {
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 417: return "Expectation Failed";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    case 507: return "Insufficient Storage";
    default: return "Unknown";
    }
}
