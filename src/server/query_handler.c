/* query_handler.c: ClickHouse's HTTP query interface on "/": the query in
 * ?query= and/or the body (for INSERT the body after the query is the
 * data, streamed into sql_execute chunk by chunk), URL parameters
 * database, default_format, param_<name> and any known setting, GET as
 * read-only. Results stream out with chunked encoding; an error before
 * the first byte is ClickHouse's error response (status from errors.def,
 * X-ClickHouse-Exception-Code), an error after it is appended to the body
 * as ClickHouse does, and the connection is closed.
 * send_progress_in_http_headers=1 (HTTP/1.1, not HEAD): the status line
 * goes out with the first progress report (http_response_open), then one
 * X-ClickHouse-Progress line per report until the rest of the head; an
 * error then keeps status 200 and gets X-ClickHouse-Exception-Code and the
 * error body, as ClickHouse's response does once its status line is sent.
 */
#include "server/server_int.h"
#include "server/http_codec.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#define QUERY_HEAD_BYTES_MAX (1u << 20) /* query text read before execution */
#define QUERY_PARAMS_MAX 64

typedef struct query_exchange {
    http_request *req;
    /* body bytes read ahead (query head) not yet given to sql */
    const uint8_t *pending;
    size_t pending_bytes;
    bool body_done;
    bool started;
    char format_header[64];
    const sql_io *io;
    /* wait_end_of_query=1: the whole body is kept here and sent with the
     * final summary once the query has succeeded. */
    bool buffered;
    bool has_output;
    char content_type[96];
    mu_buf body;
    int64_t start_ns;
    char timezone[64];
    /* send_progress_in_http_headers=1: the status line went out (opened)
     * and X-ClickHouse-Progress lines follow it until the head is complete
     * (started). */
    bool opened;
    /* Content codings: the request body's decoder and the response's
     * encoder (enable_http_compression=1 with an accepted coding). */
    http_codec *decoder;
    mu_buf decoded;            /* decoded bytes not yet handed out */
    size_t decoded_pos;
    bool raw_done;
    http_codec *encoder;
    http_coding response_coding;
    mu_buf encoded;
    /* X-ClickHouse-Exception-Tag: 16 lowercase alphanumerics that frame an
     * error written after the head (query_write_exception). */
    char exception_tag[17];
    bool exception_in_format; /* http_write_exception_in_output_format=1 (JSON formats) */
} query_exchange;

/* A fresh tag per response, so an error frame cannot be forged by data. */
static void query_exception_tag(char out[17]) {
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    uint8_t random[16];
    if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random)) {
        uint64_t a = (uint64_t)mu_clock_mono_ns() * 0x9E3779B97F4A7C15ull, b = a ^ (a >> 29);
        memcpy(random, &a, 8);
        memcpy(random + 8, &b, 8);
    }
    for (int i = 0; i < 16; i++) out[i] = alphabet[random[i] % 36];
    out[16] = '\0';
}

/* Request body bytes, decoded when the body has a Content-Encoding. */
static int body_read(query_exchange *x, void *buf, size_t capacity, size_t *read_out, mu_err *err) {
    if (x->decoder == NULL) return http_body_read(x->req, buf, capacity, read_out, err);
    while (x->decoded_pos == x->decoded.length_bytes) {
        x->decoded.length_bytes = 0;
        x->decoded_pos = 0;
        if (x->raw_done) {
            *read_out = 0;
            return 0;
        }
        uint8_t raw[64 * 1024];
        size_t got = 0;
        int rc = http_body_read(x->req, raw, sizeof(raw), &got, err);
        if (rc != 0) return rc;
        if (got == 0) {
            x->raw_done = true;
            rc = http_codec_finish(x->decoder, &x->decoded, err);
        } else {
            rc = http_codec_update(x->decoder, raw, got, &x->decoded, err);
        }
        if (rc != 0) return rc;
    }
    size_t n = x->decoded.length_bytes - x->decoded_pos;
    if (n > capacity) n = capacity;
    memcpy(buf, x->decoded.data + x->decoded_pos, n);
    x->decoded_pos += n;
    *read_out = n;
    return 0;
}

/* Writes response body bytes through the encoder when there is one. */
static int body_write(query_exchange *x, const void *data, size_t bytes, bool finish, mu_err *err) {
    if (x->encoder == NULL) return bytes ? http_response_write(x->req, data, bytes, err) : 0;
    x->encoded.length_bytes = 0;
    int rc = bytes ? http_codec_update(x->encoder, data, bytes, &x->encoded, err) : 0;
    if (rc == 0 && finish) rc = http_codec_finish(x->encoder, &x->encoded, err);
    if (rc == 0 && x->encoded.length_bytes)
        rc = http_response_write(x->req, x->encoded.data, x->encoded.length_bytes, err);
    return rc;
}

#define QUERY_BUFFER_BYTES_MAX ((size_t)1 << 30)

/* The JSON of X-ClickHouse-Summary and X-ClickHouse-Progress: ClickHouse's
 * keys in its order, values as strings (no precision loss in JavaScript).
 * The summary has every key; a progress line only the non-zero ones, as
 * ClickHouse writes them (Progress::writeJSON, Verbose and Minimal modes).
 * muscles counts no bytes read or written yet: those stay 0 (left out). */
enum { QUERY_COUNTER_COUNT = 8 };
static const char *const query_counter_names[QUERY_COUNTER_COUNT] = {
    "read_rows", "read_bytes", "written_rows", "written_bytes",
    "total_rows_to_read", "result_rows", "result_bytes", "elapsed_ns",
};
#define QUERY_COUNTERS_JSON_BYTES 400

static void query_counters_json(const query_exchange *x, const sql_progress *p, bool every_key,
                                char *out, size_t out_bytes) {
    uint64_t values[QUERY_COUNTER_COUNT] = {
        p->read_rows, 0, p->written_rows, 0, p->total_rows_to_read, p->result_rows,
        x->body.length_bytes, (uint64_t)(mu_clock_mono_ns() - x->start_ns),
    };
    size_t n = (size_t)snprintf(out, out_bytes, "{");
    bool first = true;
    for (int i = 0; i < QUERY_COUNTER_COUNT && n < out_bytes; i++) {
        if (!every_key && values[i] == 0) continue;
        n += (size_t)snprintf(out + n, out_bytes - n, "%s\"%s\":\"%llu\"", first ? "" : ",",
                              query_counter_names[i], (unsigned long long)values[i]);
        first = false;
    }
    if (n < out_bytes) snprintf(out + n, out_bytes - n, "}");
    MU_ASSERT(n + 1 < out_bytes); /* 8 keys of at most 20 digits fit */
}

/* X-ClickHouse-Summary: the statement so far when the head goes out (sql
 * brings io's counters up to date before begin), so all of it once the
 * query ended (wait_end_of_query=1, statements without a result). */
static void query_summary(const query_exchange *x, char *out, size_t out_bytes) {
    const sql_io *io = x->io;
    sql_progress p = {0};
    if (io != NULL) {
        p.read_rows = io->rows_read;
        p.written_rows = io->rows_written;
        p.total_rows_to_read = io->total_rows_to_read;
        p.result_rows = io->result_rows;
    }
    query_counters_json(x, &p, true, out, out_bytes);
}

/* sql_io.progress: one X-ClickHouse-Progress line while the head is open. */
static int query_progress(void *ctx, const sql_progress *progress, mu_err *err) {
    query_exchange *x = ctx;
    if (x->started) return 0; /* the head is complete: no field can follow */
    int rc = 0;
    if (!x->opened) {
        rc = http_response_open(x->req, 200, err);
        x->opened = rc == 0;
    }
    char json[QUERY_COUNTERS_JSON_BYTES];
    query_counters_json(x, progress, false, json, sizeof(json));
    http_field field = {"X-ClickHouse-Progress", json};
    if (rc == 0) rc = http_response_add_field(x->req, &field, err);
    return rc;
}

static int query_send_headers(query_exchange *x, const char *content_type, int64_t length,
                              mu_err *err) {
    char summary[QUERY_COUNTERS_JSON_BYTES];
    query_summary(x, summary, sizeof(summary));
    http_field fields[7];
    size_t n = 0;
    if (x->encoder) fields[n++] = (http_field){"Content-Encoding", http_coding_name(x->response_coding)};
    fields[n++] = (http_field){"X-ClickHouse-Exception-Tag", x->exception_tag};
    fields[n++] = (http_field){"X-ClickHouse-Query-Id", x->io->query_id_out};
    fields[n++] = (http_field){"X-ClickHouse-Server-Display-Name", SERVER_DISPLAY_NAME};
    if (x->has_output) {
        fields[n++] = (http_field){"X-ClickHouse-Format", x->format_header};
        fields[n++] = (http_field){"X-ClickHouse-Timezone", x->timezone};
    }
    fields[n++] = (http_field){"X-ClickHouse-Summary", summary};
    int rc = http_response_begin(x->req, 200, content_type, fields, n, length, err);
    if (rc == 0) x->started = true;
    return rc;
}

static int query_read(void *ctx, void *buf, size_t capacity, size_t *read_out, mu_err *err) {
    query_exchange *x = ctx;
    if (x->pending_bytes > 0) {
        size_t n = x->pending_bytes < capacity ? x->pending_bytes : capacity;
        memcpy(buf, x->pending, n);
        x->pending += n;
        x->pending_bytes -= n;
        *read_out = n;
        return 0;
    }
    if (x->body_done) {
        *read_out = 0;
        return 0;
    }
    int rc = body_read(x, buf, capacity, read_out, err);
    if (rc == 0 && *read_out == 0) x->body_done = true;
    return rc;
}

static int query_begin(void *ctx, const char *format_name, const char *content_type, mu_err *err) {
    query_exchange *x = ctx;
    snprintf(x->format_header, sizeof(x->format_header), "%s", format_name);
    snprintf(x->content_type, sizeof(x->content_type), "%s", content_type);
    x->has_output = true;
    if (x->buffered) return 0;
    return query_send_headers(x, content_type, HTTP_LENGTH_UNKNOWN, err);
}

static int query_write(void *ctx, const void *data, size_t bytes, mu_err *err) {
    query_exchange *x = ctx;
    if (x->buffered) {
        if (x->body.length_bytes + bytes > QUERY_BUFFER_BYTES_MAX)
            return MU_ERR(err, MU_ETOO_LARGE, "wait_end_of_query: the result is larger than %zu "
                          "bytes; ask without wait_end_of_query", QUERY_BUFFER_BYTES_MAX);
        return mu_buf_append(&x->body, data, bytes, err);
    }
    x->body.length_bytes += bytes; /* counted for the summary, not kept */
    return body_write(x, data, bytes, false, err);
}

/* send_progress_in_http_headers (Bool) and http_headers_progress_interval_ms
 * (UInt64) from the session; malformed values are BAD_ARGUMENTS. */
static int query_progress_settings(const sql_session *session, bool *on, uint64_t *interval_ms,
                                   mu_err *err) {
    const char *v = sql_session_get(session, "send_progress_in_http_headers");
    if (v == NULL || strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) {
        *on = false;
    } else if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) {
        *on = true;
    } else {
        return MU_ERR(err, MU_EINVAL, "Setting send_progress_in_http_headers: cannot parse '%s' "
                      "as Bool", v);
    }
    v = sql_session_get(session, "http_headers_progress_interval_ms");
    if (v == NULL) return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long ms = strtoull(v, &end, 10);
    if (v[0] < '0' || v[0] > '9' || *end != 0 || errno != 0) {
        return MU_ERR(err, MU_EINVAL, "Setting http_headers_progress_interval_ms: cannot parse "
                      "'%s' as UInt64", v);
    }
    *interval_ms = ms;
    return 0;
}

/* Decoded URL parameter `name` into out; false if absent. */
static bool query_param(http_request *req, const char *name, mu_buf *out, mu_err *err, int *rc) {
    out->length_bytes = 0;
    int found = http_query_get(http_request_query(req), name, out, err);
    if (found < 0) {
        *rc = found;
        return false;
    }
    if (found == 0) return false;
    *rc = mu_buf_append_u8(out, 0, err);
    out->length_bytes--;
    return *rc == 0;
}

static int query_apply_params(http_request *req, sql_session *session, mu_buf *scratch,
                              char **param_names, char **param_values, uint32_t *param_count,
                              mu_err *err) {
    http_slice cursor = http_request_query(req), name, value;
    int rc = 0;
    while (rc == 0 && http_query_next(&cursor, &name, &value)) {
        char key[128];
        size_t key_bytes;
        if (name.length_bytes >= sizeof(key)) continue;
        if (http_url_decode(name.data, name.length_bytes, true, key, &key_bytes) != 0) continue;
        key[key_bytes] = 0;
        if (strcmp(key, "query") == 0 || strcmp(key, "database") == 0 ||
            strcmp(key, "default_format") == 0 || strcmp(key, "user") == 0 ||
            strcmp(key, "password") == 0 || strcmp(key, "query_id") == 0 ||
            strcmp(key, "session_id") == 0 || strcmp(key, "session_timeout") == 0 ||
            strcmp(key, "session_check") == 0 || strcmp(key, "compress") == 0 ||
            strcmp(key, "decompress") == 0 || strcmp(key, "quota_key") == 0 ||
            strcmp(key, "client_protocol_version") == 0)
            continue;
        scratch->length_bytes = 0;
        rc = mu_buf_reserve(scratch, value.length_bytes + 1, err);
        if (rc != 0) break;
        size_t vb;
        if (http_url_decode(value.data, value.length_bytes, true, (char *)scratch->data, &vb) != 0) {
            rc = MU_ERR(err, MU_EINVAL, "bad %%-escape in URL parameter %s", key);
            break;
        }
        scratch->data[vb] = 0;
        if (strncmp(key, "param_", 6) == 0) {
            if (*param_count >= QUERY_PARAMS_MAX) {
                rc = MU_ERR(err, MU_EINVAL, "more than %d query parameters", QUERY_PARAMS_MAX);
                break;
            }
            param_names[*param_count] = strdup(key + 6);
            param_values[*param_count] = strdup((char *)scratch->data);
            if (!param_names[*param_count] || !param_values[*param_count]) {
                free(param_names[*param_count]);
                free(param_values[*param_count]);
                rc = MU_ERR(err, MU_ENOMEM, "out of memory");
                break;
            }
            (*param_count)++;
            continue;
        }
        rc = sql_session_set(session, key, (char *)scratch->data, err);
    }
    return rc;
}

/* Takes session `id` for this request (creating it unless check), copying
 * its state into *out; *slot_out is released by session_release. */
static int session_acquire(server_query_state *st, const char *id, bool check,
                           server_session **slot_out, sql_session *out, mu_err *err) {
    if (strlen(id) >= SERVER_SESSION_ID_BYTES)
        return MU_ERR(err, MU_EINVAL, "session_id is longer than %d bytes", SERVER_SESSION_ID_BYTES - 1);
    int64_t now = mu_clock_mono_ms();
    int rc = 0;
    server_session *found = NULL, *free_slot = NULL;
    pthread_mutex_lock(&st->sessions_lock);
    for (int i = 0; i < SERVER_SESSIONS_MAX; i++) {
        server_session *x = &st->sessions[i];
        if (x->expires_ms != 0 && !x->busy && x->expires_ms < now) x->expires_ms = 0; /* expired */
        if (x->expires_ms == 0) {
            if (free_slot == NULL) free_slot = x;
            continue;
        }
        if (strcmp(x->id, id) == 0) found = x;
    }
    if (found && found->busy) {
        rc = MU_ERR(err, MU_ESESSION_LOCKED, "Session %s is locked by a concurrent client", id);
    } else if (found == NULL && check) {
        rc = MU_ERR(err, MU_ESESSION_NOT_FOUND, "Session %s not found", id);
    } else if (found == NULL && free_slot == NULL) {
        rc = MU_ERR(err, MU_EBUSY, "too many sessions (%d)", SERVER_SESSIONS_MAX);
    } else if (found == NULL) {
        found = free_slot;
        snprintf(found->id, sizeof(found->id), "%s", id);
        sql_session_init(&found->sql);
    }
    if (rc == 0) {
        found->busy = true;
        found->expires_ms = now + 60000;
        *out = found->sql;
        *slot_out = found;
    }
    pthread_mutex_unlock(&st->sessions_lock);
    return rc;
}

static void session_release(server_query_state *st, server_session *slot, const sql_session *s,
                            uint64_t timeout_s) {
    pthread_mutex_lock(&st->sessions_lock);
    slot->sql = *s;
    slot->busy = false;
    slot->expires_ms = mu_clock_mono_ms() + (int64_t)timeout_s * 1000;
    pthread_mutex_unlock(&st->sessions_lock);
}

/* "Basic base64(user:password)" into user and password. */
static int query_basic_auth(const char *b64, char *user, size_t user_bytes, char *password,
                            size_t password_bytes, mu_err *err) {
    while (*b64 == ' ') b64++;
    size_t n = strcspn(b64, " \r\n");
    if (n == 0 || n % 4 != 0 || n > 1024)
        return MU_ERR(err, MU_EAUTH, "malformed HTTP Basic credentials");
    unsigned char decoded[800];
    int len = EVP_DecodeBlock(decoded, (const unsigned char *)b64, (int)n);
    if (len < 0) return MU_ERR(err, MU_EAUTH, "malformed HTTP Basic credentials");
    if (n >= 1 && b64[n - 1] == '=') len--;
    if (n >= 2 && b64[n - 2] == '=') len--;
    decoded[len] = 0;
    char *colon = memchr(decoded, ':', (size_t)len);
    if (colon == NULL) return MU_ERR(err, MU_EAUTH, "malformed HTTP Basic credentials (no ':')");
    *colon = 0;
    size_t ul = strlen((char *)decoded), pl = strlen(colon + 1);
    if (ul >= user_bytes || pl >= password_bytes)
        return MU_ERR(err, MU_EAUTH, "HTTP Basic credentials too long");
    memcpy(user, decoded, ul + 1);
    memcpy(password, colon + 1, pl + 1);
    explicit_bzero(decoded, sizeof(decoded));
    return 0;
}

int server__handle_query(http_request *req, void *ctx, mu_err *err) {
    server_query_state *state = ctx;
    storage *engine_storage = atomic_load(&state->storage);
    if (engine_storage == NULL) {
        mu_err e;
        MU_ERR(&e, MU_ESHUTDOWN, "the server is starting: storage is not open yet");
        return http_response_send_error(req, &e, err);
    }
    sql_engine engine = state->engine;
    engine.storage = engine_storage;
    bool is_get = strcmp(http_request_head(req)->method, "GET") == 0;
    sql_session session;
    sql_session_init(&session);
    mu_buf text, value, head;
    mu_buf_init(&text, 0);
    mu_buf_init(&value, 0);
    mu_buf_init(&head, QUERY_HEAD_BYTES_MAX + 1);
    char *param_names[QUERY_PARAMS_MAX], *param_values[QUERY_PARAMS_MAX];
    uint32_t param_count = 0;
    char default_format[64] = "", query_id[64] = "", user[64] = "default";
    query_exchange x = {.req = req};
    mu_buf_init(&x.body, 0);
    mu_buf_init(&x.decoded, 0);
    mu_buf_init(&x.encoded, 0);
    x.start_ns = mu_clock_mono_ns();
    mu_err qerr;
    memset(&qerr, 0, sizeof(qerr));
    int rc = 0;
    server_session *session_slot = NULL;
    uint64_t session_timeout_s = 60;
    if (query_param(req, "session_id", &value, &qerr, &rc) && value.length_bytes > 0) {
        char id[SERVER_SESSION_ID_BYTES + 1];
        snprintf(id, sizeof(id), "%s", (char *)value.data);
        bool check = false;
        if (query_param(req, "session_check", &value, &qerr, &rc)) check = strcmp((char *)value.data, "1") == 0;
        if (rc == 0 && query_param(req, "session_timeout", &value, &qerr, &rc)) {
            char *end;
            unsigned long long t = strtoull((char *)value.data, &end, 10);
            if (*end != 0 || t > 3600)
                rc = MU_ERR(&qerr, MU_EINVAL, "session_timeout must be a number of seconds up to 3600");
            else
                session_timeout_s = t;
        }
        if (rc == 0) rc = session_acquire(state, id, check, &session_slot, &session, &qerr);
    }
    if (rc == 0 && query_param(req, "database", &value, &qerr, &rc))
        snprintf(session.database, sizeof(session.database), "%s", (char *)value.data);
    if (rc == 0 && query_param(req, "default_format", &value, &qerr, &rc))
        snprintf(default_format, sizeof(default_format), "%s", (char *)value.data);
    if (rc == 0 && query_param(req, "query_id", &value, &qerr, &rc))
        snprintf(query_id, sizeof(query_id), "%s", (char *)value.data);
    if (rc == 0 && !query_id[0] && http_request_header(req, "X-ClickHouse-Query-Id"))
        snprintf(query_id, sizeof(query_id), "%s", http_request_header(req, "X-ClickHouse-Query-Id"));
    /* Credentials: HTTP Basic, else X-ClickHouse-User/-Key, else the user
     * and password URL parameters (ClickHouse's three ways). */
    char password[256] = "";
    const char *basic = http_request_header(req, "Authorization");
    if (rc == 0 && basic && strncasecmp(basic, "Basic ", 6) == 0) {
        rc = query_basic_auth(basic + 6, user, sizeof(user), password, sizeof(password), &qerr);
    } else if (rc == 0 && http_request_header(req, "X-ClickHouse-User")) {
        snprintf(user, sizeof(user), "%s", http_request_header(req, "X-ClickHouse-User"));
        const char *key = http_request_header(req, "X-ClickHouse-Key");
        snprintf(password, sizeof(password), "%s", key ? key : "");
    } else if (rc == 0) {
        if (query_param(req, "user", &value, &qerr, &rc))
            snprintf(user, sizeof(user), "%s", (char *)value.data);
        if (rc == 0 && query_param(req, "password", &value, &qerr, &rc))
            snprintf(password, sizeof(password), "%s", (char *)value.data);
    }
    const server_user *account = NULL;
    if (rc == 0) rc = server__users_authenticate(&state->users, user, password, &account, &qerr);
    explicit_bzero(password, sizeof(password));
    /* The user's limits before any setting of the request, which may
     * lower them but not raise them. */
    for (uint32_t i = 0; rc == 0 && i < account->limit_count; i++)
        rc = sql_session_limit(&session, account->limits[i].name, account->limits[i].value, &qerr);
    if (rc == 0)
        rc = query_apply_params(req, &session, &value, param_names, param_values, &param_count, &qerr);
    if (rc == 0) {
        http_coding in;
        rc = http_coding_parse(http_request_header(req, "Content-Encoding"), &in, &qerr);
        if (rc == 0 && in != HTTP_CODING_IDENTITY) rc = http_codec_create(in, true, 0, &x.decoder, &qerr);
    }
    const char *compress = sql_session_get(&session, "enable_http_compression");
    if (rc == 0 && compress && strcmp(compress, "1") == 0) {
        x.response_coding = http_coding_accepted(http_request_header(req, "Accept-Encoding"));
        const char *lvl = sql_session_get(&session, "http_zlib_compression_level");
        if (x.response_coding != HTTP_CODING_IDENTITY)
            rc = http_codec_create(x.response_coding, false, lvl ? atoi(lvl) : 3, &x.encoder, &qerr);
    }
    query_exception_tag(x.exception_tag);
    const char *in_format = sql_session_get(&session, "http_write_exception_in_output_format");
    x.exception_in_format = in_format == NULL || /* ClickHouse's default: 1 */
                            (strcmp(in_format, "0") != 0 && strcasecmp(in_format, "false") != 0);
    const char *wait_end = sql_session_get(&session, "wait_end_of_query");
    x.buffered = wait_end && strcmp(wait_end, "1") == 0;
    bool progress = false;
    uint64_t progress_interval_ms = 100;
    if (rc == 0) rc = query_progress_settings(&session, &progress, &progress_interval_ms, &qerr);
    const char *token = http_request_header(req, "X-Muscles-Insert-Token");
    if (rc == 0 && token) rc = sql_session_set(&session, "insert_deduplication_token", token, &qerr);
    {
        const char *tz = sql_session_get(&session, "session_timezone");
        snprintf(x.timezone, sizeof(x.timezone), "%s", tz && tz[0] ? tz : ty_tz_name(ty_tz_default()));
    }
    bool has_query_param = false;
    if (rc == 0 && query_param(req, "query", &value, &qerr, &rc)) {
        has_query_param = true;
        rc = mu_buf_append(&text, value.data, value.length_bytes, &qerr);
    }
    if (rc == 0 && is_get) x.body_done = true;
    if (rc == 0 && !is_get) {
        /* Read the head of the body: the whole body when it is small, the
         * query text plus the start of the data otherwise. */
        while (rc == 0 && head.length_bytes < QUERY_HEAD_BYTES_MAX) {
            /* Never ask past the head's limit: reads may end anywhere. */
            rc = mu_buf_reserve(&head, MU_MIN((size_t)64 * 1024,
                                              QUERY_HEAD_BYTES_MAX - head.length_bytes), &qerr);
            if (rc != 0) break;
            size_t room = head.capacity_bytes - head.length_bytes, got = 0;
            if (room > QUERY_HEAD_BYTES_MAX - head.length_bytes) room = QUERY_HEAD_BYTES_MAX - head.length_bytes;
            rc = body_read(&x, head.data + head.length_bytes, room, &got, &qerr);
            if (rc != 0) break;
            if (got == 0) {
                x.body_done = true;
                break;
            }
            head.length_bytes += got;
        }
    }
    if (rc == 0 && !has_query_param) {
        /* The body holds the query (and any INSERT data after it). */
        rc = mu_buf_append(&text, head.data, head.length_bytes, &qerr);
    } else if (rc == 0) {
        /* The body is the INSERT data, or the rest of the query text. */
        x.pending = head.data;
        x.pending_bytes = head.length_bytes;
        bool insert = false;
        const char *t = (const char *)text.data;
        size_t i = 0;
        while (i < text.length_bytes && (t[i] == ' ' || t[i] == '\n' || t[i] == '\t' || t[i] == '\r')) i++;
        if (text.length_bytes - i >= 6 && strncasecmp(t + i, "INSERT", 6) == 0) insert = true;
        if (!insert && head.length_bytes > 0) {
            rc = mu_buf_append_u8(&text, ' ', &qerr);
            if (rc == 0) rc = mu_buf_append(&text, head.data, head.length_bytes, &qerr);
            x.pending_bytes = 0;
            if (rc == 0 && !x.body_done)
                rc = MU_ERR(&qerr, MU_EQUERY_TOO_LARGE, "query text longer than %u bytes", QUERY_HEAD_BYTES_MAX);
        }
    }
    if (rc == 0 && text.length_bytes == 0)
        rc = MU_ERR(&qerr, MU_EEMPTY_QUERY, "Empty query");
    sql_query_params params = {param_count, (const char *const *)param_names,
                               (const char *const *)param_values};
    sql_io io = {0};
    x.io = &io;
    if (rc == 0) {
        io.query_id = query_id;
        io.user = user;
        io.ctx = &x;
        io.read = x.body_done && x.pending_bytes == 0 ? NULL : query_read;
        io.begin = query_begin;
        io.write = query_write;
        io.default_format = default_format[0] ? default_format : NULL;
        io.params = &params;
        io.readonly = is_get || account->readonly;
        io.allowed_databases = account->databases[0] ? account->databases : NULL;
        io.has_session = session_slot != NULL;
        io.exception_in_format = x.exception_in_format;
        if (progress && http_response_can_open(req)) { /* else as ClickHouse: none */
            io.progress = query_progress;
            io.progress_interval_ms = progress_interval_ms;
        }
        if (query_param(req, "client_protocol_version", &value, &qerr, &rc))
            io.client_protocol_version = strtoull((const char *)value.data, NULL, 10);
        rc = sql_execute(&engine, &session, (const char *)text.data, text.length_bytes, &io, &qerr);
        /* Unread body bytes (a failed INSERT) are drained so the connection
         * can carry the next request. */
        if (!x.body_done && rc == 0) {
            char sink[4096];
            size_t got = 1;
            while (got > 0 && body_read(&x, sink, sizeof(sink), &got, err) == 0) {
            }
        }
    }
    int out;
    if (rc != 0) {
        if (!x.started) {
            out = http_response_send_error(req, &qerr, err);
        } else {
            /* The head is gone: the error goes at the end of the body, as
             * current ClickHouse writes it: a JSON format ended it with an
             * "exception" (http_write_exception_in_output_format=1, sql
             * says so in io.exception_written); any other is framed with
             * the response's tag (X-ClickHouse-Exception-Tag). */
            char msg[MU_ERR_MSG_BYTES + 200], frame[MU_ERR_MSG_BYTES + 300];
            int n = (int)mu_err_clickhouse_text(&qerr, msg, sizeof(msg));
            if (io.exception_written)
                n = 0;
            else
                n = snprintf(frame, sizeof(frame),
                             "\r\n__exception__\r\n%s\r\n%s\r\n%d %s\r\n__exception__\r\n",
                             x.exception_tag, msg, n, x.exception_tag);
            out = body_write(&x, frame, (size_t)MU_MIN(n, (int)sizeof(frame) - 1), true, err);
            if (out == 0) out = http_response_end(req, err);
        }
    } else if (!x.started) {
        /* No output yet: a statement without a result, or a buffered one. */
        const char *ct = x.has_output ? x.content_type : "text/plain; charset=UTF-8";
        mu_buf packed;
        mu_buf_init(&packed, 0);
        const mu_buf *send = &x.body;
        out = 0;
        if (x.encoder) { /* the whole body, compressed, with its length */
            out = http_codec_update(x.encoder, x.body.data, x.body.length_bytes, &packed, err);
            if (out == 0) out = http_codec_finish(x.encoder, &packed, err);
            send = &packed;
        }
        if (out == 0) out = query_send_headers(&x, ct, (int64_t)send->length_bytes, err);
        if (out == 0 && send->length_bytes > 0)
            out = http_response_write(req, send->data, send->length_bytes, err);
        if (out == 0) out = http_response_end(req, err);
        mu_buf_deinit(&packed);
    } else {
        out = body_write(&x, NULL, 0, true, err);
        if (out == 0) out = http_response_end(req, err);
    }
    if (session_slot) session_release(state, session_slot, &session, session_timeout_s);
    for (uint32_t i = 0; i < param_count; i++) {
        free(param_names[i]);
        free(param_values[i]);
    }
    mu_buf_deinit(&text);
    mu_buf_deinit(&value);
    mu_buf_deinit(&head);
    mu_buf_deinit(&x.body);
    mu_buf_deinit(&x.decoded);
    mu_buf_deinit(&x.encoded);
    http_codec_destroy(x.decoder);
    http_codec_destroy(x.encoder);
    return out;
}

int server__handle_metrics(http_request *req, void *ctx, mu_err *err) {
    server_query_state *state = ctx;
    sql_engine engine = state->engine;
    engine.storage = atomic_load(&state->storage);
    mu_buf out;
    mu_buf_init(&out, 0);
    mu_err qerr;
    int rc = sql_metrics_prometheus(&engine, &out, &qerr);
    int sent = rc == 0 ? http_response_send(req, 200, "text/plain; version=0.0.4; charset=utf-8",
                                            out.data ? (const char *)out.data : "", out.length_bytes, err)
                       : http_response_send_error(req, &qerr, err);
    mu_buf_deinit(&out);
    return sent;
}
