/* fn_string2.c: the second half of ClickHouse's string functions (the first
 * is fn_string.c, which registers both through exec__functions_string):
 * base64 and hex encodings, UTF-8 validation, appendTrailingCharIfAbsent,
 * format, countSubstrings and the multiSearch family.
 *
 * Same conventions as fn_string.c: current ClickHouse semantics, rows read
 * in place, one scratch buffer per kernel, constant patterns compiled at
 * bind into the query arena.
 */
#include "exec/fn_string_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* base64Encode, base64Decode, tryBase64Decode and the URL variants    */
/*
 * As ClickHouse's simdutf-based implementation: encoding pads with '='
 * (the URL alphabet '-' '_' does not pad). Decoding skips ' ', \t, \n,
 * \r, \f; the standard variant needs complete, padded quads, the URL
 * variant accepts both alphabets and a missing padding. Leftover bits in
 * the last quad are dropped. Undecodable input is an error, or '' for
 * the try- variants.
 */
/* ------------------------------------------------------------------ */

enum { B64_URL = 1, B64_DECODE = 2, B64_TRY = 4 };

static const char b64_std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64_url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int b64_encode(const uint8_t *p, size_t n, bool url, mu_buf *out, mu_err *err) {
    const char *alphabet = url ? b64_url : b64_std;
    int rc = mu_buf_reserve(out, (n + 2) / 3 * 4, err);
    if (rc != 0) return rc;
    uint8_t *d = out->data + out->length_bytes;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *d++ = (uint8_t)alphabet[v >> 18];
        *d++ = (uint8_t)alphabet[(v >> 12) & 63];
        *d++ = (uint8_t)alphabet[(v >> 6) & 63];
        *d++ = (uint8_t)alphabet[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        *d++ = (uint8_t)alphabet[v >> 18];
        *d++ = (uint8_t)alphabet[(v >> 12) & 63];
        if (i + 1 < n) *d++ = (uint8_t)alphabet[(v >> 6) & 63];
        else if (!url) *d++ = '=';
        if (!url) *d++ = '=';
    }
    out->length_bytes = (size_t)(d - out->data);
    return 0;
}

static int b64_value(uint8_t c, bool url) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || (url && c == '-')) return 62;
    if (c == '/' || (url && c == '_')) return 63;
    return -1;
}

/* Returns false when p[0..n) is not decodable. */
static bool b64_decode(const uint8_t *p, size_t n, bool url, mu_buf *out, mu_err *err,
                       int *rc_out) {
    *rc_out = mu_buf_reserve(out, n / 4 * 3 + 3, err);
    if (*rc_out != 0) return true;
    uint8_t *d = out->data + out->length_bytes;
    uint32_t acc = 0;
    size_t digits = 0, padding = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') continue;
        if (c == '=') {
            padding++;
            continue;
        }
        int v = b64_value(c, url);
        if (v < 0 || padding > 0) return false; /* padding only at the very end */
        acc = acc << 6 | (uint32_t)v;
        if (++digits % 4 == 0) {
            *d++ = (uint8_t)(acc >> 16);
            *d++ = (uint8_t)(acc >> 8);
            *d++ = (uint8_t)acc;
            acc = 0;
        }
    }
    size_t tail = digits % 4;
    if (tail == 1 || padding > 2) return false;
    if (url) {
        if (padding > 0 && tail + padding != 4 && !(tail == 2 && padding == 1)) return false;
    } else if ((tail == 0 && padding != 0) || (tail != 0 && tail + padding != 4)) {
        return false;
    }
    if (tail == 2) *d++ = (uint8_t)(acc >> 4);
    if (tail == 3) {
        *d++ = (uint8_t)(acc >> 10);
        *d++ = (uint8_t)(acc >> 2);
    }
    out->length_bytes = (size_t)(d - out->data);
    return true;
}

static int base64_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    uintptr_t mode = (uintptr_t)call->state;
    bool url = (mode & B64_URL) != 0;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        mu_buf_clear(&buf);
        if (!(mode & B64_DECODE)) {
            rc = b64_encode(p, n, url, &buf, err);
        } else if (!b64_decode(p, n, url, &buf, err, &rc)) {
            buf.length_bytes = 0;
            if (!(mode & B64_TRY) && !exec_arg_is_null_row(&args[0], i))
                rc = MU_ERR(err, MU_EINCORRECT_DATA, "Invalid %s value (%.*s), cannot be decoded",
                            call->function->name, (int)MU_MIN(n, 256), (const char *)p);
        }
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int base64_bind_common(exec_call *call, uintptr_t mode, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc != 0) return rc;
    call->kernel = base64_kernel;
    call->state = (void *)mode;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

STR_BIND_MODE(b64_encode_bind, base64_bind_common, 0)
STR_BIND_MODE(b64_decode_bind, base64_bind_common, B64_DECODE)
STR_BIND_MODE(b64_try_decode_bind, base64_bind_common, B64_DECODE | B64_TRY)
STR_BIND_MODE(b64_url_encode_bind, base64_bind_common, B64_URL)
STR_BIND_MODE(b64_url_decode_bind, base64_bind_common, B64_URL | B64_DECODE)
STR_BIND_MODE(b64_url_try_decode_bind, base64_bind_common, B64_URL | B64_DECODE | B64_TRY)

const exec_function exec__fn_base64_encode = {"base64Encode", 0, b64_encode_bind};
const exec_function exec__fn_base64_decode = {"base64Decode", 0, b64_decode_bind};
const exec_function exec__fn_try_base64_decode = {"tryBase64Decode", 0, b64_try_decode_bind};
const exec_function exec__fn_base64_url_encode = {"base64URLEncode", 0, b64_url_encode_bind};
const exec_function exec__fn_base64_url_decode = {"base64URLDecode", 0, b64_url_decode_bind};
const exec_function exec__fn_try_base64_url_decode = {"tryBase64URLDecode", 0,
                                                      b64_url_try_decode_bind};
STR_ALIAS_EXTERN(exec__fn_to_base64, "TO_BASE64", STR_CI, exec__fn_base64_encode);
STR_ALIAS_EXTERN(exec__fn_from_base64, "FROM_BASE64", STR_CI, exec__fn_base64_decode);

/* ------------------------------------------------------------------ */
/* hex, unhex                                                          */
/* ------------------------------------------------------------------ */

static const char str_hex_digits[] = "0123456789ABCDEF";

static int hex_bytes(const uint8_t *p, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, n * 2, err);
    if (rc != 0) return rc;
    uint8_t *d = out->data + out->length_bytes;
    for (size_t i = 0; i < n; i++) {
        *d++ = (uint8_t)str_hex_digits[p[i] >> 4];
        *d++ = (uint8_t)str_hex_digits[p[i] & 15];
    }
    out->length_bytes += n * 2;
    return 0;
}

/* One value of a hex() argument: strings as their bytes, integers (and
 * dates) big-endian without leading zero bytes, floats as their memory
 * bytes (little-endian), as ClickHouse prints them. */
static int hex_value(const exec_arg *a, uint32_t i, mu_buf *out, mu_err *err) {
    const ty_column *c = a->column;
    const ty_type *t = ty_type_strip_nullable(c->type);
    uint32_t r = exec_arg_row(a, i);
    size_t n;
    const uint8_t *p = ty_column_row_bytes(c, r, &n);
    if (str_type_is_string(t) || exec_type_is_float(t)) return hex_bytes(p, n, out, err);
    uint8_t be[8];
    size_t k = 0;
    for (size_t b = n; b > 0; b--) be[k++] = p[b - 1];
    size_t skip = 0;
    while (skip + 1 < k && be[skip] == 0) skip++;
    return hex_bytes(be + skip, k - skip, out, err);
}

static int hex_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                      ty_column *out, mu_err *err) {
    (void)call;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        mu_buf_clear(&buf);
        rc = hex_value(&args[0], i, &buf, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int hex_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    bool ok = str_type_is_string(t) || exec_type_is_integer(t) || exec_type_is_float(t) ||
              t->kind == TY_BOOL || t->kind == TY_DATE || t->kind == TY_DATETIME;
    if (!ok) return exec__error_arg_type(call, 0, err);
    call->kernel = hex_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

/* A non-hex digit reads as 0xFF, as in ClickHouse's digit table (the
 * result is documented as implementation-defined); an odd count makes the
 * first digit a byte of its own. */
static unsigned unhex_digit(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10u;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10u;
    return 0xFF;
}

static int unhex_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                        ty_column *out, mu_err *err) {
    (void)call;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        mu_buf_clear(&buf);
        rc = mu_buf_reserve(&buf, n / 2 + 1, err);
        if (rc != 0) break;
        size_t k = 0;
        if (n % 2 == 1) buf.data[buf.length_bytes++] = (uint8_t)unhex_digit(p[k++]);
        for (; k + 1 < n; k += 2)
            buf.data[buf.length_bytes++] =
                (uint8_t)(unhex_digit(p[k]) * 16 + unhex_digit(p[k + 1]));
        rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int unhex_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc != 0) return rc;
    call->kernel = unhex_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

const exec_function exec__fn_hex = {"hex", STR_CI, hex_bind};
const exec_function exec__fn_unhex = {"unhex", STR_CI, unhex_bind};

/* ------------------------------------------------------------------ */
/* toValidUTF8, isValidUTF8                                            */
/* ------------------------------------------------------------------ */

static bool utf8_valid(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        bool valid;
        i += exec__str_utf8_decode(p + i, n - i, &cp, &valid);
        if (!valid) return false;
    }
    return true;
}

static int to_valid_utf8_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    (void)call;
    static const uint8_t replacement[3] = {0xEF, 0xBF, 0xBD};
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n, k = 0;
        const uint8_t *p = str_row(&args[0], i, &n);
        mu_buf_clear(&buf);
        bool in_bad_run = false;
        while (k < n && rc == 0) {
            uint32_t cp;
            bool valid = true;
            size_t len = p[k] < 0x80 ? 1 : exec__str_utf8_decode(p + k, n - k, &cp, &valid);
            if (valid) rc = mu_buf_append(&buf, p + k, len, err);
            else if (!in_bad_run) rc = mu_buf_append(&buf, replacement, 3, err);
            in_bad_run = !valid; /* a run of bad sequences becomes one U+FFFD */
            k += len;
        }
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int is_valid_utf8_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    (void)call;
    uint8_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < rows; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        dst[i] = utf8_valid(p, n);
    }
    return 0;
}

static int to_valid_utf8_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, false, err);
    if (rc != 0) return rc;
    call->kernel = to_valid_utf8_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int is_valid_utf8_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc != 0) return rc;
    call->kernel = is_valid_utf8_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

const exec_function exec__fn_to_valid_utf8 = {"toValidUTF8", 0, to_valid_utf8_bind};
const exec_function exec__fn_is_valid_utf8 = {"isValidUTF8", 0, is_valid_utf8_bind};

/* ------------------------------------------------------------------ */
/* appendTrailingCharIfAbsent                                          */
/* ------------------------------------------------------------------ */

static int append_trailing_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                  ty_column *out, mu_err *err) {
    uint8_t c = *(const uint8_t *)call->state;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        mu_buf_clear(&buf);
        rc = mu_buf_append(&buf, p, n, err);
        if (rc == 0 && n > 0 && p[n - 1] != c) rc = mu_buf_append_u8(&buf, c, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

/* The character must be a constant of exactly one byte; an empty string
 * stays empty, as in ClickHouse. */
static int append_trailing_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, false, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 1, false, err);
    if (rc != 0) return rc;
    const char *c;
    size_t n;
    if (!exec__const_string(call, 1, &c, &n))
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "Second argument of function %s must be a "
                      "constant string", call->function->name);
    if (n != 1)
        return MU_ERR(err, MU_EINVAL, "Second argument of function %s must be a one-character "
                      "string", call->function->name);
    uint8_t *state = mu_arena_alloc(arena, 1, err);
    if (state == NULL) return err->code;
    *state = (uint8_t)c[0];
    call->kernel = append_trailing_kernel;
    call->state = state;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

const exec_function exec__fn_append_trailing_char = {"appendTrailingCharIfAbsent", 0,
                                                     append_trailing_bind};

/* ------------------------------------------------------------------ */
/* format                                                              */
/*
 * The constant pattern compiles at bind into pieces: a literal (with {{
 * and }} already unescaped) followed by the argument that fills the next
 * placeholder. `{}` numbers placeholders automatically, `{N}` names
 * argument N (0-based); mixing the two, unbalanced braces and indexes past
 * the arguments are BAD_ARGUMENTS with ClickHouse's messages. Arguments of
 * any type are rendered as their text, String and FixedString as bytes.
 */
/* ------------------------------------------------------------------ */

#define FORMAT_NO_ARG UINT32_MAX

typedef struct format_piece {
    uint32_t literal_offset;
    uint32_t literal_bytes;
    uint32_t arg; /* 1-based argument index, FORMAT_NO_ARG after the last literal */
} format_piece;

typedef struct format_program {
    const uint8_t *literals;
    const format_piece *pieces;
    uint32_t piece_count;
} format_program;

typedef struct format_parser {
    mu_buf literals;
    mu_buf pieces;
    uint32_t literal_start; /* where the current piece's literal begins */
} format_parser;

static int format_push_piece(format_parser *fp, uint32_t arg, mu_err *err) {
    format_piece piece = {fp->literal_start,
                          (uint32_t)fp->literals.length_bytes - fp->literal_start, arg};
    fp->literal_start = (uint32_t)fp->literals.length_bytes;
    return mu_buf_append(&fp->pieces, &piece, sizeof(piece), err);
}

/* The argument a closed placeholder p[open..close) names (0-based). */
static int format_placeholder(const uint8_t *p, size_t open, size_t close, uint32_t args,
                              int *numbering, uint32_t *next_auto, uint32_t *arg_out,
                              mu_err *err) {
    if (open == close) { /* {} */
        if (*numbering == 2)
            return MU_ERR(err, MU_EINVAL, "Cannot switch from automatic field numbering to "
                          "manual field specification");
        *numbering = 1;
        if (*next_auto >= args)
            return MU_ERR(err, MU_EINVAL, "Not enough arguments to fill the placeholders in "
                          "the format string");
        *arg_out = (*next_auto)++;
        return 0;
    }
    if (*numbering == 1)
        return MU_ERR(err, MU_EINVAL, "Cannot switch from automatic field numbering to manual "
                      "field specification");
    *numbering = 2;
    uint64_t v = 0;
    for (size_t k = open; k < close; k++) {
        if (p[k] < '0' || p[k] > '9')
            return MU_ERR(err, MU_EINVAL, "Not a number in curly braces at position %zu", k);
        v = v * 10 + (uint64_t)(p[k] - '0');
        if (v >= args)
            return MU_ERR(err, MU_EINVAL, "Too big number for arguments, must be at most %u",
                          args - 1);
    }
    *arg_out = (uint32_t)v;
    return 0;
}

/* ClickHouse's Format::init over pattern p[0..n) for `args` arguments. */
static int format_parse(const uint8_t *p, size_t n, uint32_t args, format_parser *fp,
                        mu_err *err) {
    bool open = false;
    size_t open_at = 0;
    int numbering = 0; /* 0 unknown, 1 automatic, 2 manual */
    uint32_t next_auto = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint8_t c = p[i];
        bool doubled = i + 1 < n && p[i + 1] == c;
        if (c == '{' && doubled) { /* an escaped brace, also inside a placeholder */
            if (!open) rc = mu_buf_append_u8(&fp->literals, '{', err);
            i++;
        } else if (c == '{') {
            if (open)
                return MU_ERR(err, MU_EINVAL, "Two open curly braces without close one at "
                              "position %zu", i);
            open = true;
            open_at = i + 1;
        } else if (c == '}' && !open && doubled) {
            rc = mu_buf_append_u8(&fp->literals, '}', err);
            i++;
        } else if (c == '}') {
            if (!open)
                return MU_ERR(err, MU_EINVAL, "Closed curly brace without open one at "
                              "position %zu", i);
            open = false;
            uint32_t arg = 0;
            rc = format_placeholder(p, open_at, i, args, &numbering, &next_auto, &arg, err);
            if (rc == 0) rc = format_push_piece(fp, arg + 1, err);
        } else if (!open) {
            rc = mu_buf_append_u8(&fp->literals, c, err);
        }
        if (fp->literals.length_bytes > UINT32_MAX / 2)
            return MU_ERR(err, MU_ETOO_LARGE, "format pattern too long");
    }
    if (rc == 0 && open) return MU_ERR(err, MU_EINVAL, "Last open curly brace is not closed");
    if (rc == 0) rc = format_push_piece(fp, FORMAT_NO_ARG, err);
    return rc;
}

/* Appends argument a's row: String/FixedString bytes, else its text. */
static int format_append_arg(const exec_arg *a, uint32_t i, mu_buf *out, mu_err *err) {
    if (str_type_is_string(ty_type_strip_nullable(a->column->type))) {
        size_t n;
        const uint8_t *p = str_row(a, i, &n);
        return mu_buf_append(out, p, n, err);
    }
    return ty_column_render_text(a->column, exec_arg_row(a, i), 0, out, err);
}

static int format_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    const format_program *pg = call->state;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        mu_buf_clear(&buf);
        for (uint32_t k = 0; k < pg->piece_count && rc == 0; k++) {
            const format_piece *piece = &pg->pieces[k];
            rc = mu_buf_append(&buf, pg->literals + piece->literal_offset, piece->literal_bytes,
                               err);
            if (rc == 0 && piece->arg != FORMAT_NO_ARG)
                rc = format_append_arg(&args[piece->arg], i, &buf, err);
        }
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

/* Copies the parser's buffers into the arena as the call's program. */
static int format_program_make(const format_parser *fp, mu_arena *arena, format_program **out,
                               mu_err *err) {
    format_program *pg = mu_arena_calloc(arena, 1, sizeof(*pg), err);
    uint8_t *literals = pg ? mu_arena_alloc(arena, fp->literals.length_bytes + 1, err) : NULL;
    format_piece *pieces = literals ? mu_arena_alloc(arena, fp->pieces.length_bytes, err) : NULL;
    if (pieces == NULL) return err->code;
    if (fp->literals.length_bytes > 0)
        memcpy(literals, fp->literals.data, fp->literals.length_bytes);
    memcpy(pieces, fp->pieces.data, fp->pieces.length_bytes);
    pg->literals = literals;
    pg->pieces = pieces;
    pg->piece_count = (uint32_t)(fp->pieces.length_bytes / sizeof(format_piece));
    MU_ASSERT(pg->piece_count >= 1);
    *out = pg;
    return 0;
}

static int format_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    if (call->arg_count < 2)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Number of arguments for function %s "
                      "doesn't match: passed %u, should be at least 2", call->function->name,
                      call->arg_count);
    const char *pattern;
    size_t pattern_bytes;
    if (!exec__const_string(call, 0, &pattern, &pattern_bytes))
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "First argument of function %s must be constant "
                      "string", call->function->name);
    format_parser fp = {.literal_start = 0};
    mu_buf_init(&fp.literals, 0);
    mu_buf_init(&fp.pieces, 0);
    format_program *pg = NULL;
    int rc = format_parse((const uint8_t *)pattern, pattern_bytes, call->arg_count - 1, &fp,
                          err);
    if (rc == 0) rc = format_program_make(&fp, arena, &pg, err);
    mu_buf_deinit(&fp.literals);
    mu_buf_deinit(&fp.pieces);
    if (rc != 0) return rc;
    call->kernel = format_kernel;
    call->state = pg;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

const exec_function exec__fn_format = {"format", 0, format_bind};

/* ------------------------------------------------------------------ */
/* Case folding shared by countSubstrings and multiSearch*              */
/* ------------------------------------------------------------------ */

enum { SEARCH_CASELESS = 1, SEARCH_UTF8 = 2 };

/* Appends p[0..n) to out as the searchers compare it: as is, ASCII
 * lowercased (CaseInsensitive) or Unicode lowercased (CaseInsensitiveUTF8).
 * Folding keeps one code point per code point, so positions counted in
 * code points are the same in the folded text. */
static int search_fold(unsigned mode, const uint8_t *p, size_t n, mu_buf *out, mu_err *err) {
    if ((mode & SEARCH_CASELESS) && (mode & SEARCH_UTF8))
        return exec__str_fold_utf8(p, n, out, err);
    int rc = mu_buf_reserve(out, n, err);
    if (rc != 0) return rc;
    uint8_t *d = out->data + out->length_bytes;
    bool ascii_fold = (mode & SEARCH_CASELESS) != 0;
    for (size_t i = 0; i < n; i++)
        d[i] = ascii_fold && p[i] >= 'A' && p[i] <= 'Z' ? (uint8_t)(p[i] + 32) : p[i];
    out->length_bytes += n;
    return 0;
}

/* 1-based position (bytes, or code points for UTF-8) of byte offset `at`. */
static uint64_t search_position(unsigned mode, const uint8_t *h, size_t at) {
    return 1 + ((mode & SEARCH_UTF8) ? exec__str_utf8_count(h, at) : at);
}

/* ------------------------------------------------------------------ */
/* countSubstrings, countSubstringsCaseInsensitive[UTF8]               */
/*
 * Non-overlapping occurrences from left to right; an empty needle counts
 * 0. With a start position (1-based, in bytes or code points) ClickHouse
 * behaves two ways: a constant needle over a column of haystacks scans
 * each row from its beginning and counts the occurrences that start at or
 * after the position; otherwise the scan itself starts there. The two
 * differ only when an occurrence before the position overlaps one after.
 */
/* ------------------------------------------------------------------ */

static uint64_t count_row(unsigned mode, const uint8_t *h, size_t hn, const uint8_t *nd,
                          size_t nn, uint64_t start, bool scan_from_row_start) {
    if (nn == 0) return 0;
    bool utf8 = (mode & SEARCH_UTF8) != 0;
    uint64_t skip = start > 0 ? start - 1 : 0;
    size_t at = scan_from_row_start ? 0 : exec__str_pos_advance(h, hn, skip, utf8);
    uint64_t count = 0;
    while (hn - at >= nn) {
        const uint8_t *m = memmem(h + at, hn - at, nd, nn);
        if (m == NULL) break;
        size_t offset = (size_t)(m - h);
        if (!scan_from_row_start || search_position(mode, h, offset) - 1 >= skip) count++;
        at = offset + nn;
    }
    return count;
}

static int count_substrings_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                   ty_column *out, mu_err *err) {
    unsigned mode = (unsigned)(uintptr_t)call->state;
    bool scan_from_row_start = args[1].is_const && !args[0].is_const;
    uint64_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    mu_buf fh, fn;
    mu_buf_init(&fh, 0);
    mu_buf_init(&fn, 0);
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t hn, nn;
        const uint8_t *h = str_row(&args[0], i, &hn);
        const uint8_t *nd = str_row(&args[1], i, &nn);
        uint64_t start = 0;
        if (call->arg_count == 3) start = exec_get_u64(args[2].column, exec_arg_row(&args[2], i));
        if (mode & SEARCH_CASELESS) {
            mu_buf_clear(&fh);
            mu_buf_clear(&fn);
            rc = search_fold(mode, h, hn, &fh, err);
            if (rc == 0) rc = search_fold(mode, nd, nn, &fn, err);
            if (rc != 0) break;
            h = fh.data;
            hn = fh.length_bytes;
            nd = fn.data;
            nn = fn.length_bytes;
        }
        dst[i] = count_row(mode, h, hn, nd, nn, start, scan_from_row_start);
    }
    mu_buf_deinit(&fh);
    mu_buf_deinit(&fn);
    return rc;
}

static int count_substrings_bind_common(exec_call *call, unsigned mode, mu_err *err) {
    if (call->arg_count < 2 || call->arg_count > 3)
        return exec__error_arg_count(call, "2 or 3", err);
    int rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 1, false, err);
    if (rc == 0 && call->arg_count == 3 &&
        !(exec_type_is_integer(call->arg_types[2]) && !exec_type_is_signed(call->arg_types[2])))
        rc = exec__error_arg_type(call, 2, err);
    if (rc == 0 && (mode & SEARCH_CASELESS) && (mode & SEARCH_UTF8))
        rc = exec__str_need_unicode(call, err);
    if (rc != 0) return rc;
    if (call->arg_types[0]->kind == TY_FIXED_STRING)
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "Function '%s' doesn't support FixedString "
                      "haystack argument", call->function->name);
    call->kernel = count_substrings_kernel;
    call->state = (void *)(uintptr_t)mode;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

STR_BIND_MODE(count_substrings_bind, count_substrings_bind_common, 0)
STR_BIND_MODE(count_substrings_ci_bind, count_substrings_bind_common, SEARCH_CASELESS)
STR_BIND_MODE(count_substrings_ci_utf8_bind, count_substrings_bind_common,
              SEARCH_CASELESS | SEARCH_UTF8)

const exec_function exec__fn_count_substrings = {"countSubstrings", 0, count_substrings_bind};
const exec_function exec__fn_count_substrings_ci = {"countSubstringsCaseInsensitive", 0,
                                                    count_substrings_ci_bind};
const exec_function exec__fn_count_substrings_ci_utf8 = {"countSubstringsCaseInsensitiveUTF8", 0,
                                                         count_substrings_ci_utf8_bind};

/* ------------------------------------------------------------------ */
/* multiSearchAny, multiSearchFirstPosition, multiSearchFirstIndex,    */
/* multiSearchAllPositions and their CaseInsensitive / UTF8 variants    */
/*
 * Each needle is looked up once per row (its first occurrence). An empty
 * needle occurs at position 1 of a non-empty haystack and nowhere in an
 * empty one, as ClickHouse's fallback searcher finds it. FirstIndex is the
 * smallest 1-based index of a needle that occurs anywhere (ClickHouse's
 * searchOneFirstIndex), FirstPosition the leftmost position of any needle.
 * At most 255 needles per row, ClickHouse's limit.
 */
/* ------------------------------------------------------------------ */

#define MULTI_SEARCH_NEEDLES_MAX 255u

enum { MS_ANY, MS_FIRST_POSITION, MS_FIRST_INDEX, MS_ALL_POSITIONS };

typedef struct multi_search_state {
    unsigned mode;                  /* SEARCH_CASELESS | SEARCH_UTF8 */
    int kind;                       /* MS_* */
    bool has_const;                 /* needles folded at bind: */
    uint32_t needle_count;
    const uint8_t *const *needles;
    const size_t *needle_bytes;
} multi_search_state;

/* The needles of one row, folded into `fold` (offsets kept in `spans`). */
typedef struct multi_search_row {
    uint32_t count;
    mu_buf fold;
    mu_buf spans; /* size_t pairs: offset, bytes */
} multi_search_row;

static int multi_search_too_many(const exec_call *call, uint64_t count, mu_err *err) {
    return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Number of arguments for function %s doesn't "
                  "match: passed %llu, should be at most %u", call->function->name,
                  (unsigned long long)count, MULTI_SEARCH_NEEDLES_MAX);
}

/* Folds the needles of row r of an Array(String) column into row. */
static int multi_search_load(const exec_call *call, unsigned mode, const ty_column *array,
                             uint32_t r, multi_search_row *row, mu_err *err) {
    const uint32_t *off = ty_column_offsets(array);
    const ty_column *strings = ty_column_child(array, 0);
    uint32_t count = off[r + 1] - off[r];
    if (count > MULTI_SEARCH_NEEDLES_MAX) return multi_search_too_many(call, count, err);
    mu_buf_clear(&row->fold);
    mu_buf_clear(&row->spans);
    int rc = 0;
    for (uint32_t k = 0; k < count && rc == 0; k++) {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(strings, off[r] + k, &n);
        size_t span[2] = {row->fold.length_bytes, 0};
        rc = search_fold(mode, p, n, &row->fold, err);
        span[1] = row->fold.length_bytes - span[0];
        if (rc == 0) rc = mu_buf_append(&row->spans, span, sizeof(span), err);
    }
    row->count = count;
    return rc;
}

/* Byte offset of the first occurrence of nd in h, SIZE_MAX if none. */
static size_t multi_search_find(const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn) {
    if (nn == 0) return hn > 0 ? 0 : SIZE_MAX;
    const uint8_t *m = hn >= nn ? memmem(h, hn, nd, nn) : NULL;
    return m == NULL ? SIZE_MAX : (size_t)(m - h);
}

/* One row's result: fixed kinds into dst[i], AllPositions into out. */
static int multi_search_row_eval(const multi_search_state *st, const uint8_t *h, size_t hn,
                                 const uint8_t *const *needles, const size_t *needle_bytes,
                                 uint32_t count, void *dst, uint32_t i, ty_column *out,
                                 mu_err *err) {
    size_t best = SIZE_MAX;
    uint64_t index = 0;
    int rc = 0;
    for (uint32_t k = 0; k < count && rc == 0; k++) {
        size_t at = multi_search_find(h, hn, needles[k], needle_bytes[k]);
        if (st->kind == MS_ALL_POSITIONS) {
            uint64_t pos = at == SIZE_MAX ? 0 : search_position(st->mode, h, at);
            rc = ty_column_append_value(ty_column_child_mut(out, 0), &pos, err);
            continue;
        }
        if (at != SIZE_MAX && index == 0) index = k + 1;
        if (at < best) best = at;
        if (st->kind != MS_FIRST_POSITION && index != 0) break;
    }
    if (rc != 0) return rc;
    if (st->kind == MS_ALL_POSITIONS) return ty_column_append_nested_end(out, err);
    if (st->kind == MS_ANY) ((uint8_t *)dst)[i] = index != 0;
    else if (st->kind == MS_FIRST_INDEX) ((uint64_t *)dst)[i] = index;
    else ((uint64_t *)dst)[i] = best == SIZE_MAX ? 0 : search_position(st->mode, h, best);
    return 0;
}

static int multi_search_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                               ty_column *out, mu_err *err) {
    const multi_search_state *st = call->state;
    void *dst = NULL;
    int rc = 0;
    if (st->kind != MS_ALL_POSITIONS) rc = ty_column_append_fixed_uninit(out, rows, &dst, err);
    if (rc != 0) return rc;
    multi_search_row row = {.count = 0};
    mu_buf haystack;
    mu_buf_init(&row.fold, 0);
    mu_buf_init(&row.spans, 0);
    mu_buf_init(&haystack, 0);
    const uint8_t *needles[MULTI_SEARCH_NEEDLES_MAX];
    size_t needle_bytes[MULTI_SEARCH_NEEDLES_MAX];
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t hn;
        const uint8_t *h = str_row(&args[0], i, &hn);
        mu_buf_clear(&haystack);
        rc = search_fold(st->mode, h, hn, &haystack, err);
        if (rc == 0 && !st->has_const)
            rc = multi_search_load(call, st->mode, args[1].column, exec_arg_row(&args[1], i),
                                   &row, err);
        if (rc != 0) break;
        uint32_t count = st->needle_count;
        const uint8_t *const *np = st->needles;
        const size_t *nb = st->needle_bytes;
        if (!st->has_const) {
            const size_t *spans = (const size_t *)(const void *)row.spans.data;
            for (uint32_t k = 0; k < row.count; k++) {
                needles[k] = row.fold.data + spans[2 * k];
                needle_bytes[k] = spans[2 * k + 1];
            }
            count = row.count;
            np = needles;
            nb = needle_bytes;
        }
        rc = multi_search_row_eval(st, haystack.data, haystack.length_bytes, np, nb, count, dst, i,
                                   out, err);
    }
    mu_buf_deinit(&row.fold);
    mu_buf_deinit(&row.spans);
    mu_buf_deinit(&haystack);
    return rc;
}

/* Folds a constant needle array into the arena once. */
static int multi_search_const(const exec_call *call, multi_search_state *st, mu_arena *arena,
                              mu_err *err) {
    multi_search_row row = {.count = 0};
    mu_buf_init(&row.fold, 0);
    mu_buf_init(&row.spans, 0);
    int rc = multi_search_load(call, st->mode, call->arg_consts[1], 0, &row, err);
    uint8_t *copy = NULL;
    const uint8_t **needles = NULL;
    size_t *bytes = NULL;
    if (rc == 0) {
        copy = mu_arena_alloc(arena, row.fold.length_bytes + 1, err);
        needles = copy ? mu_arena_calloc(arena, row.count + 1, sizeof(*needles), err) : NULL;
        bytes = needles ? mu_arena_calloc(arena, row.count + 1, sizeof(*bytes), err) : NULL;
        if (bytes == NULL) rc = err->code;
    }
    if (rc == 0) {
        if (row.fold.length_bytes > 0) memcpy(copy, row.fold.data, row.fold.length_bytes);
        const size_t *spans = (const size_t *)(const void *)row.spans.data;
        for (uint32_t k = 0; k < row.count; k++) {
            needles[k] = copy + spans[2 * k];
            bytes[k] = spans[2 * k + 1];
        }
        st->needle_count = row.count;
        st->needles = needles;
        st->needle_bytes = bytes;
        st->has_const = true;
    }
    mu_buf_deinit(&row.fold);
    mu_buf_deinit(&row.spans);
    return rc;
}

static int multi_search_bind_common(exec_call *call, mu_arena *arena, int kind, unsigned mode,
                                    mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, false, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[1];
    if (t->kind != TY_ARRAY || t->child->kind != TY_STRING)
        return exec__error_arg_type(call, 1, err);
    if ((mode & SEARCH_CASELESS) && (mode & SEARCH_UTF8)) rc = exec__str_need_unicode(call, err);
    multi_search_state *st = rc == 0 ? mu_arena_calloc(arena, 1, sizeof(*st), err) : NULL;
    if (st == NULL) return rc != 0 ? rc : err->code;
    st->mode = mode;
    st->kind = kind;
    if (call->arg_consts != NULL && call->arg_consts[1] != NULL)
        rc = multi_search_const(call, st, arena, err);
    if (rc != 0) return rc;
    call->kernel = multi_search_kernel;
    call->state = st;
    if (kind == MS_ANY) call->result_type = ty_type_builtin(TY_UINT8);
    else if (kind != MS_ALL_POSITIONS) call->result_type = ty_type_builtin(TY_UINT64);
    else {
        ty_type *array = mu_arena_calloc(arena, 1, sizeof(*array), err);
        if (array == NULL) return err->code;
        array->kind = TY_ARRAY;
        array->child = ty_type_builtin(TY_UINT64);
        call->result_type = array;
    }
    return 0;
}

#define MULTI_SEARCH_FUNCTION(var, name, kind, mode)                                      \
    STR_BIND_ARENA(var##_bind, multi_search_bind_common, kind, mode)                      \
    const exec_function var = {name, 0, var##_bind}

MULTI_SEARCH_FUNCTION(exec__fn_multi_search_any, "multiSearchAny", MS_ANY, 0);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_any_ci, "multiSearchAnyCaseInsensitive", MS_ANY,
                      SEARCH_CASELESS);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_any_utf8, "multiSearchAnyUTF8", MS_ANY, SEARCH_UTF8);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_any_ci_utf8, "multiSearchAnyCaseInsensitiveUTF8",
                      MS_ANY, SEARCH_CASELESS | SEARCH_UTF8);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_position, "multiSearchFirstPosition",
                      MS_FIRST_POSITION, 0);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_position_ci,
                      "multiSearchFirstPositionCaseInsensitive", MS_FIRST_POSITION,
                      SEARCH_CASELESS);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_position_utf8, "multiSearchFirstPositionUTF8",
                      MS_FIRST_POSITION, SEARCH_UTF8);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_position_ci_utf8,
                      "multiSearchFirstPositionCaseInsensitiveUTF8", MS_FIRST_POSITION,
                      SEARCH_CASELESS | SEARCH_UTF8);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_index, "multiSearchFirstIndex", MS_FIRST_INDEX,
                      0);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_index_ci, "multiSearchFirstIndexCaseInsensitive",
                      MS_FIRST_INDEX, SEARCH_CASELESS);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_index_utf8, "multiSearchFirstIndexUTF8",
                      MS_FIRST_INDEX, SEARCH_UTF8);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_first_index_ci_utf8,
                      "multiSearchFirstIndexCaseInsensitiveUTF8", MS_FIRST_INDEX,
                      SEARCH_CASELESS | SEARCH_UTF8);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_all_positions, "multiSearchAllPositions",
                      MS_ALL_POSITIONS, 0);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_all_positions_ci,
                      "multiSearchAllPositionsCaseInsensitive", MS_ALL_POSITIONS, SEARCH_CASELESS);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_all_positions_utf8, "multiSearchAllPositionsUTF8",
                      MS_ALL_POSITIONS, SEARCH_UTF8);
MULTI_SEARCH_FUNCTION(exec__fn_multi_search_all_positions_ci_utf8,
                      "multiSearchAllPositionsCaseInsensitiveUTF8", MS_ALL_POSITIONS,
                      SEARCH_CASELESS | SEARCH_UTF8);
