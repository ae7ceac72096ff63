/* fn_string.c: ClickHouse's string functions: lengths and emptiness (also of
 * Array and Map), case conversion (ASCII and UTF-8), reverse, substring and
 * left/right, concat, position search, LIKE, prefixes and suffixes, trim,
 * replace, split, repeat and padding (fn_string2.c has the rest of the
 * group: base64, hex, UTF-8 validation, format, countSubstrings and the
 * multiSearch family; both files register through the list at the end).
 *
 * Semantics follow current ClickHouse (its src/Functions): offsets are
 * 1-based with negative values counting from the end, FixedString bytes
 * include their zero padding, UTF-8 functions count code points and never
 * fail on invalid UTF-8. Kernels read String rows in place and build each
 * result row in one scratch buffer; constant patterns are compiled at bind.
 */
#include "exec/fn_string_int.h"

#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

static int str_array_of(const ty_type *element, mu_arena *arena, const ty_type **out,
                        mu_err *err) {
    ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
    if (t == NULL) return err->code;
    t->kind = TY_ARRAY;
    t->child = element;
    *out = t;
    return 0;
}

int exec__str_check_string_arg(const exec_call *call, uint32_t index, bool fixed_ok,
                               mu_err *err) {
    const ty_type *t = call->arg_types[index];
    if (t->kind == TY_STRING || (fixed_ok && t->kind == TY_FIXED_STRING)) return 0;
    return exec__error_arg_type(call, index, err);
}

int exec__str_check_int_arg(const exec_call *call, uint32_t index, mu_err *err) {
    const ty_type *t = call->arg_types[index];
    if (exec_type_is_integer(t) || t->kind == TY_BOOL) return 0;
    return exec__error_arg_type(call, index, err);
}

/* ---- UTF-8 ---------------------------------------------------------- */

static inline bool utf8_is_continuation(uint8_t b) { return (b & 0xC0) == 0x80; }

/* ClickHouse's UTF8::seqLength: the length a lead byte announces (1 for
 * continuation bytes and 0xF8..0xFF). */
static inline size_t utf8_seq_length(uint8_t b) {
    if (b < 0xC0 || b >= 0xF8) return 1;
    if (b < 0xE0) return 2;
    if (b < 0xF0) return 3;
    return 4;
}

size_t exec__str_utf8_count(const uint8_t *p, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) count += !utf8_is_continuation(p[i]);
    return count;
}

/* Skips `count` code points forward from p (seqLength steps, clamped). */
static const uint8_t *utf8_forward(const uint8_t *p, uint64_t count, const uint8_t *end) {
    for (uint64_t i = 0; i < count && p < end; i++) {
        size_t step = utf8_seq_length(*p);
        p = (size_t)(end - p) < step ? end : p + step;
    }
    return p;
}

/* Steps back `count` code points from p; *skipped_out = how many it could. */
static const uint8_t *utf8_backward(const uint8_t *p, uint64_t count, const uint8_t *begin,
                                    uint64_t *skipped_out) {
    uint64_t i = 0;
    for (; i < count && p > begin; i++) {
        --p;
        while (p > begin && utf8_is_continuation(*p)) --p;
    }
    *skipped_out = i;
    return p;
}

/* Decodes one code point at p[0..n) (n >= 1). A sequence that is not valid
 * UTF-8 (overlong, surrogate, past U+10FFFF, truncated) yields U+FFFD and
 * consumes its maximal valid prefix (at least one byte), as ICU does. */
size_t exec__str_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp_out,
                             bool *valid_out) {
    uint8_t b = p[0];
    *valid_out = true;
    if (b < 0x80) {
        *cp_out = b;
        return 1;
    }
    size_t need;
    uint8_t lo = 0x80, hi = 0xBF;
    uint32_t cp;
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
        cp = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        cp = b & 0x0F;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        cp = b & 0x07;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else {
        *cp_out = 0xFFFD;
        *valid_out = false;
        return 1;
    }
    size_t i = 1;
    for (; i <= need; i++) {
        if (i >= n || p[i] < lo || p[i] > hi) {
            *cp_out = 0xFFFD;
            *valid_out = false;
            return i;
        }
        cp = (cp << 6) | (p[i] & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    *cp_out = cp;
    return i;
}

static size_t utf8_encode(uint32_t cp, uint8_t *out) {
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* Unicode simple case mapping comes from the C library's C.UTF-8 tables,
 * loaded once per process and shared read-only by every thread. */
static pthread_once_t str_locale_once = PTHREAD_ONCE_INIT;
static locale_t str_locale;

static void str_locale_load(void) {
    str_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

int exec__str_need_unicode(const exec_call *call, mu_err *err) {
    pthread_once(&str_locale_once, str_locale_load);
    if (str_locale != (locale_t)0) return 0;
    return MU_ERR(err, MU_ENOT_SUPPORTED,
                  "function %s needs the C.UTF-8 locale for Unicode case mapping",
                  call->function->name);
}

static uint32_t str_fold(uint32_t cp) {
    return (uint32_t)towlower_l((wint_t)cp, str_locale);
}

/* Appends the case-folded (lowercase) UTF-8 of p[0..n) to out; invalid
 * bytes are kept as they are so that they still match themselves. */
int exec__str_fold_utf8(const uint8_t *p, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, n * 2 + 4, err);
    if (rc != 0) return rc;
    size_t i = 0;
    while (i < n) {
        if (p[i] < 0x80) {
            uint8_t c = p[i++];
            out->data[out->length_bytes++] = (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
            continue;
        }
        uint32_t cp;
        bool valid;
        size_t len = exec__str_utf8_decode(p + i, n - i, &cp, &valid);
        if (!valid) {
            memcpy(out->data + out->length_bytes, p + i, len);
            out->length_bytes += len;
        } else {
            uint8_t enc[4];
            size_t m = utf8_encode(str_fold(cp), enc);
            rc = mu_buf_reserve(out, m + (n - i) * 2, err);
            if (rc != 0) return rc;
            memcpy(out->data + out->length_bytes, enc, m);
            out->length_bytes += m;
        }
        i += len;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* length, empty, notEmpty, lengthUTF8                                 */
/* ------------------------------------------------------------------ */

static bool str_type_has_length(const ty_type *t) {
    return str_type_is_string(t) || t->kind == TY_ARRAY || t->kind == TY_MAP;
}

/* Element count (bytes for strings) of row r. */
static uint64_t str_size_of(const ty_column *c, uint32_t r) {
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_FIXED_STRING) return t->length;
    const uint32_t *off = ty_column_offsets(c);
    return off[r + 1] - off[r];
}

static int length_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    (void)call;
    uint64_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < rows; i++)
        dst[i] = str_size_of(args[0].column, exec_arg_row(&args[0], i));
    return 0;
}

static int length_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    if (!str_type_has_length(call->arg_types[0])) return exec__error_arg_type(call, 0, err);
    call->kernel = length_kernel;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

/* empty: a FixedString or UUID is empty when every byte is zero. */
static bool str_row_empty(const ty_column *c, uint32_t r) {
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_FIXED_STRING || t->kind == TY_UUID) {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(c, r, &n);
        for (size_t i = 0; i < n; i++)
            if (p[i] != 0) return false;
        return true;
    }
    return str_size_of(c, r) == 0;
}

static int empty_kernel_impl(const exec_arg *args, uint32_t rows, ty_column *out, bool negate,
                             mu_err *err) {
    uint8_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < rows; i++)
        dst[i] = (uint8_t)(str_row_empty(args[0].column, exec_arg_row(&args[0], i)) != negate);
    return 0;
}

static int empty_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                        ty_column *out, mu_err *err) {
    return empty_kernel_impl(args, rows, out, call->state != NULL, err);
}

static int empty_bind_common(exec_call *call, bool negate, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    if (!str_type_has_length(t) && t->kind != TY_UUID) return exec__error_arg_type(call, 0, err);
    call->kernel = empty_kernel;
    call->state = negate ? (void *)call : NULL; /* any non-NULL marks notEmpty */
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

STR_BIND_MODE(empty_bind, empty_bind_common, false)
STR_BIND_MODE(not_empty_bind, empty_bind_common, true)
static int length_utf8_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    (void)call;
    uint64_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < rows; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        dst[i] = exec__str_utf8_count(p, n);
    }
    return 0;
}

static int length_utf8_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc != 0) return rc;
    call->kernel = length_utf8_kernel;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

static const exec_function fn_length = {"length", STR_CI, length_bind};
static const exec_function fn_empty = {"empty", 0, empty_bind};
static const exec_function fn_not_empty = {"notEmpty", 0, not_empty_bind};
static const exec_function fn_length_utf8 = {"lengthUTF8", 0, length_utf8_bind};
STR_ALIAS(fn_char_length, "char_length", STR_CI, fn_length_utf8);
STR_ALIAS(fn_character_length, "character_length", STR_CI, fn_length_utf8);

/* ------------------------------------------------------------------ */
/* lower, upper (ASCII) and lowerUTF8, upperUTF8                       */
/* ------------------------------------------------------------------ */

static int case_ascii_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                             ty_column *out, mu_err *err) {
    bool upper = call->state != NULL;
    uint8_t from = upper ? 'a' : 'A';
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        mu_buf_clear(&buf);
        rc = mu_buf_reserve(&buf, n, err);
        if (rc != 0) break;
        for (size_t k = 0; k < n; k++) {
            uint8_t c = p[k];
            buf.data[k] = (uint8_t)(c - from) < 26 ? (uint8_t)(c ^ 0x20) : c;
        }
        rc = ty_column_append_bytes(out, buf.data, n, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int case_ascii_bind_common(exec_call *call, bool upper, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc != 0) return rc;
    call->kernel = case_ascii_kernel;
    call->state = upper ? (void *)call : NULL;
    call->result_type = call->arg_types[0]; /* FixedString(N) stays FixedString(N) */
    return 0;
}

STR_BIND_MODE(lower_bind, case_ascii_bind_common, false)
STR_BIND_MODE(upper_bind, case_ascii_bind_common, true)
/* Full (one-to-many) uppercase mappings of Unicode's SpecialCasing.txt
 * that ICU applies and the simple tables lack. */
typedef struct str_special_case {
    uint32_t cp;
    uint32_t to[3];
} str_special_case;

static const str_special_case str_upper_special[] = {
    {0x00DF, {0x53, 0x53, 0}},       {0x0149, {0x2BC, 0x4E, 0}},  {0x01F0, {0x4A, 0x30C, 0}},
    {0x0390, {0x399, 0x308, 0x301}}, {0x03B0, {0x3A5, 0x308, 0x301}},
    {0x0587, {0x535, 0x552, 0}},     {0x1E96, {0x48, 0x331, 0}},  {0x1E97, {0x54, 0x308, 0}},
    {0x1E98, {0x57, 0x30A, 0}},      {0x1E99, {0x59, 0x30A, 0}},  {0x1E9A, {0x41, 0x2BE, 0}},
    {0xFB00, {0x46, 0x46, 0}},       {0xFB01, {0x46, 0x49, 0}},   {0xFB02, {0x46, 0x4C, 0}},
    {0xFB03, {0x46, 0x46, 0x49}},    {0xFB04, {0x46, 0x46, 0x4C}}, {0xFB05, {0x53, 0x54, 0}},
    {0xFB06, {0x53, 0x54, 0}},       {0xFB13, {0x544, 0x546, 0}}, {0xFB14, {0x544, 0x535, 0}},
    {0xFB15, {0x544, 0x53B, 0}},     {0xFB16, {0x54E, 0x546, 0}}, {0xFB17, {0x544, 0x53D, 0}},
};

static const str_special_case *str_find_special(uint32_t cp) {
    for (size_t i = 0; i < MU_ARRAY_LEN(str_upper_special); i++)
        if (str_upper_special[i].cp == cp) return &str_upper_special[i];
    return NULL;
}

static bool str_is_cased_letter(uint32_t cp) {
    return iswalpha_l((wint_t)cp, str_locale) &&
           (towlower_l((wint_t)cp, str_locale) != (wint_t)cp ||
            towupper_l((wint_t)cp, str_locale) != (wint_t)cp);
}

static bool str_is_combining_mark(uint32_t cp) {
    return (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
           (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
           (cp >= 0xFE20 && cp <= 0xFE2F);
}

/* Unicode's Final_Sigma condition for the sigma at cps[i] of a decoded row. */
static bool str_final_sigma(const uint32_t *cps, size_t count, size_t i) {
    size_t k = i;
    bool before = false;
    while (k > 0) {
        uint32_t c = cps[--k];
        if (str_is_combining_mark(c)) continue;
        before = str_is_cased_letter(c);
        break;
    }
    if (!before) return false;
    for (k = i + 1; k < count; k++) {
        if (str_is_combining_mark(cps[k])) continue;
        return !str_is_cased_letter(cps[k]);
    }
    return true;
}

static int str_put_cp(mu_buf *out, uint32_t cp, mu_err *err) {
    uint8_t enc[4];
    return mu_buf_append(out, enc, utf8_encode(cp, enc), err);
}

/* Case-maps one non-ASCII row as ClickHouse does through ICU (root
 * locale): invalid sequences become U+FFFD and the result ends at its
 * first NUL byte. The mappings are the C library's simple ones plus the
 * one-to-many uppercase table above, İ -> i̇ and Final_Sigma; Greek
 * letters with a iota subscript get their titlecase letter where ICU
 * writes two. ClickHouse picks its ASCII path per block, this per row. */
static int case_utf8_row(const uint8_t *p, size_t n, bool upper, uint32_t *cps, mu_buf *out,
                         mu_err *err) {
    size_t count = 0, i = 0;
    while (i < n) {
        bool valid;
        i += exec__str_utf8_decode(p + i, n - i, &cps[count++], &valid);
    }
    int rc = 0;
    for (size_t k = 0; k < count && rc == 0; k++) {
        uint32_t cp = cps[k];
        if (cp == 0) break;
        if (upper) {
            const str_special_case *s = cp >= 0xDF ? str_find_special(cp) : NULL;
            if (s != NULL) {
                for (int j = 0; j < 3 && s->to[j] != 0 && rc == 0; j++)
                    rc = str_put_cp(out, s->to[j], err);
                continue;
            }
            rc = str_put_cp(out, (uint32_t)towupper_l((wint_t)cp, str_locale), err);
        } else if (cp == 0x130) {
            rc = str_put_cp(out, 'i', err);
            if (rc == 0) rc = str_put_cp(out, 0x307, err);
        } else if (cp == 0x3A3 && str_final_sigma(cps, count, k)) {
            rc = str_put_cp(out, 0x3C2, err);
        } else {
            rc = str_put_cp(out, (uint32_t)towlower_l((wint_t)cp, str_locale), err);
        }
    }
    return rc;
}

static int case_utf8_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    bool upper = call->state != NULL;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    uint32_t *cps = NULL;
    size_t cps_capacity = 0;
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        mu_buf_clear(&buf);
        size_t k = 0;
        while (k < n && p[k] < 0x80) k++;
        if (k == n) { /* ASCII rows keep ClickHouse's byte-wise fast path */
            rc = mu_buf_reserve(&buf, n, err);
            for (size_t j = 0; j < n && rc == 0; j++) {
                uint8_t c = p[j];
                bool flip = upper ? (c >= 'a' && c <= 'z') : (c >= 'A' && c <= 'Z');
                buf.data[j] = flip ? (uint8_t)(c ^ 0x20) : c;
            }
            buf.length_bytes = n;
        } else {
            if (n > cps_capacity) {
                free(cps);
                cps_capacity = n;
                cps = exec__scratch(n, sizeof(*cps), err);
                if (cps == NULL) rc = err->code;
            }
            if (rc == 0) rc = case_utf8_row(p, n, upper, cps, &buf, err);
        }
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    free(cps);
    mu_buf_deinit(&buf);
    return rc;
}

static int case_utf8_bind_common(exec_call *call, bool upper, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, false, err);
    if (rc == 0) rc = exec__str_need_unicode(call, err);
    if (rc != 0) return rc;
    call->kernel = case_utf8_kernel;
    call->state = upper ? (void *)call : NULL;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

STR_BIND_MODE(lower_utf8_bind, case_utf8_bind_common, false)
STR_BIND_MODE(upper_utf8_bind, case_utf8_bind_common, true)
static const exec_function fn_lower = {"lower", STR_CI, lower_bind};
static const exec_function fn_upper = {"upper", STR_CI, upper_bind};
STR_ALIAS(fn_lcase, "lcase", STR_CI, fn_lower);
STR_ALIAS(fn_ucase, "ucase", STR_CI, fn_upper);
static const exec_function fn_lower_utf8 = {"lowerUTF8", 0, lower_utf8_bind};
static const exec_function fn_upper_utf8 = {"upperUTF8", 0, upper_utf8_bind};

/* ------------------------------------------------------------------ */
/* reverse, reverseUTF8                                                */
/* ------------------------------------------------------------------ */

static int reverse_array_kernel(const exec_arg *args, uint32_t rows, ty_column *out,
                                mu_err *err) {
    const ty_column *in = args[0].column;
    const ty_column *elements = ty_column_child(in, 0);
    const uint32_t *off = ty_column_offsets(in);
    ty_column *dst = ty_column_child_mut(out, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        uint32_t r = exec_arg_row(&args[0], i);
        for (uint32_t k = off[r + 1]; k > off[r] && rc == 0; k--)
            rc = ty_column_append_from(dst, elements, k - 1, err);
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
    }
    return rc;
}

static int reverse_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                          ty_column *out, mu_err *err) {
    if (call->result_type->kind == TY_ARRAY) return reverse_array_kernel(args, rows, out, err);
    bool by_code_point = call->state != NULL;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        mu_buf_clear(&buf);
        rc = mu_buf_reserve(&buf, n, err);
        if (rc != 0) break;
        if (!by_code_point) {
            for (size_t k = 0; k < n; k++) buf.data[k] = p[n - 1 - k];
        } else {
            size_t k = 0;
            while (k < n) { /* each sequence keeps its byte order */
                size_t len = MU_MIN(utf8_seq_length(p[k]), n - k);
                memcpy(buf.data + (n - k - len), p + k, len);
                k += len;
            }
        }
        rc = ty_column_append_bytes(out, buf.data, n, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int reverse_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    if (!str_type_is_string(t) && t->kind != TY_ARRAY) return exec__error_arg_type(call, 0, err);
    call->kernel = reverse_kernel;
    call->result_type = t;
    return 0;
}

static int reverse_utf8_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, false, err);
    if (rc != 0) return rc;
    call->kernel = reverse_kernel;
    call->state = (void *)call;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static const exec_function fn_reverse = {"reverse", STR_CI, reverse_bind};
static const exec_function fn_reverse_utf8 = {"reverseUTF8", 0, reverse_utf8_bind};

/* ------------------------------------------------------------------ */
/* substring, substringUTF8, left, right, leftUTF8, rightUTF8          */
/*
 * ClickHouse's GatherUtils slices. With the string's size n (bytes, or
 * code points for the UTF8 variants):
 *   from_left(o, len):  o >= n: empty; else [o, o + min(len, n - o))
 *   from_right(k, len): k <= n: [n - k, n - k + min(len, k)); else the
 *                       first len - (k - n) units (empty if none are left)
 * substring(s, off, len): off > 0 is from_left(off - 1), off < 0 is
 * from_right(-off), off = 0 is empty; a negative len is first turned into
 * len + (n - (off - 1)) or len + (-off), and a length <= 0 gives empty.
 */
/* ------------------------------------------------------------------ */

typedef struct str_slice {
    const uint8_t *data;
    size_t bytes;
} str_slice;

#define STR_UNBOUNDED UINT64_MAX

static str_slice slice_bytes_left(const uint8_t *p, size_t n, uint64_t o, uint64_t len) {
    str_slice s = {p, 0};
    if (o >= n) return s;
    s.data = p + o;
    s.bytes = (size_t)MU_MIN(len, (uint64_t)(n - o));
    return s;
}

static str_slice slice_bytes_right(const uint8_t *p, size_t n, uint64_t k, uint64_t len) {
    str_slice s = {p, 0};
    if (k > n) {
        uint64_t clipped = k - n;
        s.bytes = len > clipped ? (size_t)MU_MIN(len - clipped, (uint64_t)n) : 0;
        return s;
    }
    s.data = p + (n - k);
    s.bytes = (size_t)MU_MIN(len, k);
    return s;
}

static str_slice slice_utf8_left(const uint8_t *p, size_t n, uint64_t o, uint64_t len) {
    const uint8_t *end = p + n;
    str_slice s = {p, 0};
    const uint8_t *b = utf8_forward(p, o, end);
    if (b >= end) return s;
    const uint8_t *e = utf8_forward(b, len, end);
    s.data = b;
    s.bytes = (size_t)(e - b);
    return s;
}

static str_slice slice_utf8_right(const uint8_t *p, size_t n, uint64_t k, uint64_t len) {
    const uint8_t *end = p + n;
    str_slice s = {p, 0};
    uint64_t skipped;
    const uint8_t *b = utf8_backward(end, k, p, &skipped);
    if (skipped < k) {
        uint64_t clipped = k - skipped;
        if (len <= clipped) return s;
        if (len != STR_UNBOUNDED) len -= clipped;
    }
    const uint8_t *e = utf8_forward(b, len, end);
    s.data = b;
    s.bytes = (size_t)(e - b);
    return s;
}

/* One substring: has_len false means "to the end". */
static str_slice substring_slice(const uint8_t *p, size_t n, bool utf8, int64_t off,
                                 bool has_len, int64_t len) {
    str_slice empty = {p, 0};
    if (off == 0) return empty;
    uint64_t size = STR_UNBOUNDED;
    if (has_len) {
        __int128 sz = len;
        if (sz < 0) {
            size_t units = utf8 ? exec__str_utf8_count(p, n) : n;
            sz += off > 0 ? (__int128)units - (off - 1) : -(__int128)off;
        }
        if (sz <= 0) return empty;
        size = (uint64_t)sz;
    }
    uint64_t magnitude = off > 0 ? (uint64_t)off - 1 : 0 - (uint64_t)off;
    MU_ASSERT(size > 0);
    if (off > 0) return utf8 ? slice_utf8_left(p, n, magnitude, size)
                             : slice_bytes_left(p, n, magnitude, size);
    return utf8 ? slice_utf8_right(p, n, magnitude, size)
                : slice_bytes_right(p, n, magnitude, size);
}

/* left(s, k) and right(s, k) as ClickHouse's sliceFromLeft/RightDynamicLength. */
static str_slice left_right_slice(const uint8_t *p, size_t n, bool utf8, bool right,
                                  int64_t k) {
    str_slice empty = {p, 0};
    __int128 size = k;
    if (size < 0) size += utf8 ? (__int128)exec__str_utf8_count(p, n) : (__int128)n;
    if (size <= 0) return empty;
    uint64_t u = (uint64_t)size;
    if (!right) return utf8 ? slice_utf8_left(p, n, 0, u) : slice_bytes_left(p, n, 0, u);
    return utf8 ? slice_utf8_right(p, n, u, u) : slice_bytes_right(p, n, u, u);
}

enum { SUBSTR_PLAIN = 0, SUBSTR_UTF8 = 1, SUBSTR_LEFT = 2, SUBSTR_RIGHT = 4 };

static int substring_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                            ty_column *out, mu_err *err) {
    uintptr_t mode = (uintptr_t)call->state;
    bool utf8 = (mode & SUBSTR_UTF8) != 0;
    bool has_len = call->arg_count == 3;
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        int64_t a1 = exec_get_i64(args[1].column, exec_arg_row(&args[1], i));
        str_slice s;
        if (mode & (SUBSTR_LEFT | SUBSTR_RIGHT)) {
            s = left_right_slice(p, n, utf8, (mode & SUBSTR_RIGHT) != 0, a1);
        } else {
            int64_t a2 = has_len ? exec_get_i64(args[2].column, exec_arg_row(&args[2], i)) : 0;
            s = substring_slice(p, n, utf8, a1, has_len, a2);
        }
        rc = ty_column_append_bytes(out, s.data, s.bytes, err);
    }
    return rc;
}

static int substring_bind_common(exec_call *call, uintptr_t mode, mu_err *err) {
    bool left_right = (mode & (SUBSTR_LEFT | SUBSTR_RIGHT)) != 0;
    int rc = left_right ? exec__check_arg_count(call, 2, 2, err)
                        : exec__check_arg_count(call, 2, 3, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, (mode & SUBSTR_UTF8) == 0, err);
    for (uint32_t i = 1; i < call->arg_count && rc == 0; i++) {
        const ty_type *t = call->arg_types[i];
        if (!exec_type_is_integer(t) && !exec_type_is_float(t))
            rc = exec__error_arg_type(call, i, err);
    }
    if (rc != 0) return rc;
    call->kernel = substring_kernel;
    call->state = (void *)mode;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

STR_BIND_MODE(substring_bind, substring_bind_common, SUBSTR_PLAIN)
STR_BIND_MODE(substring_utf8_bind, substring_bind_common, SUBSTR_UTF8)
STR_BIND_MODE(left_bind, substring_bind_common, SUBSTR_LEFT)
STR_BIND_MODE(right_bind, substring_bind_common, SUBSTR_RIGHT)
STR_BIND_MODE(left_utf8_bind, substring_bind_common, SUBSTR_LEFT | SUBSTR_UTF8)
STR_BIND_MODE(right_utf8_bind, substring_bind_common, SUBSTR_RIGHT | SUBSTR_UTF8)

static const exec_function fn_substring = {"substring", STR_CI, substring_bind};
STR_ALIAS(fn_substr, "substr", STR_CI, fn_substring);
STR_ALIAS(fn_mid, "mid", STR_CI, fn_substring);
static const exec_function fn_substring_utf8 = {"substringUTF8", 0, substring_utf8_bind};
static const exec_function fn_left = {"left", STR_CI, left_bind};
static const exec_function fn_right = {"right", STR_CI, right_bind};
static const exec_function fn_left_utf8 = {"leftUTF8", 0, left_utf8_bind};
static const exec_function fn_right_utf8 = {"rightUTF8", 0, right_utf8_bind};

/* ------------------------------------------------------------------ */
/* concat, concatWithSeparator                                         */
/* ------------------------------------------------------------------ */

/* Appends argument a's row as text: String/FixedString bytes as they are,
 * anything else in ClickHouse's default text form (what concat does). */
static int str_append_text(const exec_arg *a, uint32_t i, mu_buf *out, mu_err *err) {
    const ty_type *t = ty_type_strip_nullable(a->column->type);
    uint32_t r = exec_arg_row(a, i);
    if (str_type_is_string(t)) {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(a->column, r, &n);
        return mu_buf_append(out, p, n, err);
    }
    return ty_column_render_text(a->column, r, 0, out, err);
}

static int concat_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    bool with_separator = call->state != NULL;
    uint32_t first = with_separator ? 1 : 0;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        mu_buf_clear(&buf);
        for (uint32_t k = first; k < call->arg_count && rc == 0; k++) {
            if (with_separator && k > first) rc = str_append_text(&args[0], i, &buf, err);
            if (rc == 0) rc = str_append_text(&args[k], i, &buf, err);
        }
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

/* concat of only Arrays (Maps) is arrayConcat (mapConcat), as in ClickHouse. */
static int concat_delegate(exec_call *call, mu_arena *arena, const char *name, mu_err *err) {
    const exec_function *f = exec_function_find(name, strlen(name));
    if (f == NULL)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "concat of %s needs function %s",
                      strcmp(name, "arrayConcat") == 0 ? "arrays" : "maps", name);
    call->function = f;
    return f->bind(call, arena, err);
}

static int concat_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    uint32_t arrays = 0, maps = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        arrays += call->arg_types[i]->kind == TY_ARRAY;
        maps += call->arg_types[i]->kind == TY_MAP;
    }
    if (call->arg_count >= 2 && arrays == call->arg_count)
        return concat_delegate(call, arena, "arrayConcat", err);
    if (call->arg_count >= 2 && maps == call->arg_count)
        return concat_delegate(call, arena, "mapConcat", err);
    call->kernel = concat_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int concat_ws_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, UINT32_MAX, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc != 0) return rc;
    call->kernel = concat_kernel;
    call->state = (void *)call;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static const exec_function fn_concat = {"concat", STR_CI, concat_bind};
static const exec_function fn_concat_ws = {"concatWithSeparator", 0, concat_ws_bind};
STR_ALIAS(fn_concat_ws_alias, "concat_ws", STR_CI, fn_concat_ws);

/* ------------------------------------------------------------------ */
/* position, locate, positionCaseInsensitive[UTF8], positionUTF8       */
/* ------------------------------------------------------------------ */

enum { POS_CASELESS = 1, POS_UTF8 = 2, POS_NEEDLE_FIRST = 4 };

/* ClickHouse's advancePos: n bytes, or n code points for UTF8. */
size_t exec__str_pos_advance(const uint8_t *p, size_t len, uint64_t n, bool utf8) {
    if (!utf8) return (size_t)MU_MIN(n, (uint64_t)len);
    for (size_t i = 0; i < len; i++) {
        if (utf8_is_continuation(p[i])) continue;
        if (n == 0) return i;
        n--;
    }
    return len;
}

static void pos_fold_ascii(const uint8_t *p, size_t n, uint8_t *out) {
    for (size_t i = 0; i < n; i++)
        out[i] = (p[i] >= 'A' && p[i] <= 'Z') ? (uint8_t)(p[i] + 32) : p[i];
}

/* One row: 1-based position of needle in haystack at or after start. */
static int pos_row(uintptr_t mode, const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn,
                   uint64_t start, mu_buf *fold_h, mu_buf *fold_n, uint64_t *out, mu_err *err) {
    bool utf8 = (mode & POS_UTF8) != 0;
    if (start < 1) start = 1;
    if (mode & POS_CASELESS) { /* search folded copies; counts stay per code point */
        mu_buf_clear(fold_h);
        mu_buf_clear(fold_n);
        int rc = 0;
        if (utf8) {
            rc = exec__str_fold_utf8(h, hn, fold_h, err);
            if (rc == 0) rc = exec__str_fold_utf8(nd, nn, fold_n, err);
        } else {
            rc = mu_buf_reserve(fold_h, hn, err);
            if (rc == 0) rc = mu_buf_reserve(fold_n, nn, err);
            if (rc == 0) {
                pos_fold_ascii(h, hn, fold_h->data);
                pos_fold_ascii(nd, nn, fold_n->data);
                fold_h->length_bytes = hn;
                fold_n->length_bytes = nn;
            }
        }
        if (rc != 0) return rc;
        h = fold_h->data;
        hn = fold_h->length_bytes;
        nd = fold_n->data;
        nn = fold_n->length_bytes;
    }
    uint64_t chars = utf8 ? exec__str_utf8_count(h, hn) : hn;
    if (nn == 0) {
        *out = start <= chars + 1 ? start : 0;
        return 0;
    }
    size_t from = exec__str_pos_advance(h, hn, start - 1, utf8);
    const uint8_t *m = hn - from >= nn ? memmem(h + from, hn - from, nd, nn) : NULL;
    size_t at = m == NULL ? 0 : (size_t)(m - h);
    *out = m == NULL ? 0 : 1 + (utf8 ? exec__str_utf8_count(h, at) : (uint64_t)at);
    return 0;
}

static int position_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    uintptr_t mode = (uintptr_t)call->state;
    const exec_arg *ha = &args[(mode & POS_NEEDLE_FIRST) ? 1 : 0];
    const exec_arg *na = &args[(mode & POS_NEEDLE_FIRST) ? 0 : 1];
    uint64_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    mu_buf fold_h, fold_n;
    mu_buf_init(&fold_h, 0);
    mu_buf_init(&fold_n, 0);
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t hn, nn;
        const uint8_t *h = str_row(ha, i, &hn);
        const uint8_t *nd = str_row(na, i, &nn);
        uint64_t start = 1;
        if (call->arg_count == 3) start = exec_get_u64(args[2].column, exec_arg_row(&args[2], i));
        rc = pos_row(mode, h, hn, nd, nn, start, &fold_h, &fold_n, &dst[i], err);
    }
    mu_buf_deinit(&fold_h);
    mu_buf_deinit(&fold_n);
    return rc;
}

static int position_bind_common(exec_call *call, uintptr_t mode, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 3, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 1, true, err);
    if (rc == 0 && call->arg_count == 3) rc = exec__str_check_int_arg(call, 2, err);
    if (rc == 0 && (mode & POS_CASELESS) && (mode & POS_UTF8))
        rc = exec__str_need_unicode(call, err);
    if (rc != 0) return rc;
    call->kernel = position_kernel;
    call->state = (void *)mode;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

STR_BIND_MODE(position_bind, position_bind_common, 0)
STR_BIND_MODE(locate_bind, position_bind_common, POS_NEEDLE_FIRST)
STR_BIND_MODE(position_ci_bind, position_bind_common, POS_CASELESS)
STR_BIND_MODE(position_utf8_bind, position_bind_common, POS_UTF8)
STR_BIND_MODE(position_ci_utf8_bind, position_bind_common, POS_CASELESS | POS_UTF8)

static const exec_function fn_position = {"position", STR_CI, position_bind};
/* locate(needle, haystack[, start]): MySQL's argument order, ClickHouse's
 * default since 24.3 (function_locate_has_mysql_compatible_argument_order). */
static const exec_function fn_locate = {"locate", STR_CI, locate_bind};
static const exec_function fn_position_ci = {"positionCaseInsensitive", 0, position_ci_bind};
static const exec_function fn_position_utf8 = {"positionUTF8", 0, position_utf8_bind};
static const exec_function fn_position_ci_utf8 = {"positionCaseInsensitiveUTF8", 0,
                                                  position_ci_utf8_bind};

/* ------------------------------------------------------------------ */
/* like, notLike, ilike, notILike                                      */
/*
 * A pattern compiles into tokens: literal bytes, '_' (one code point, as
 * RE2's UTF-8 '.' with DOT_NL) and '%' (any run, repeats collapsed).
 * Backslash escapes %, _ and itself; before any other byte it is a literal
 * backslash; at the end of the pattern it is an error. ilike folds both
 * sides to lowercase code points. Common shapes skip the general matcher.
 */
/* ------------------------------------------------------------------ */

enum { LIKE_LITERAL = 0, LIKE_ONE = 1, LIKE_ANY = 2 };

typedef enum like_shape {
    LIKE_GENERAL,
    LIKE_EVERYTHING, /* '%' */
    LIKE_EXACT,      /* 'abc' */
    LIKE_PREFIX,     /* 'abc%' */
    LIKE_SUFFIX,     /* '%abc' */
    LIKE_CONTAINS,   /* '%abc%' */
} like_shape;

typedef struct like_pattern {
    like_shape shape;
    const uint8_t *bytes; /* token bytes; for the shortcuts, the literal */
    const uint8_t *kinds;
    size_t count;
} like_pattern;

typedef struct like_state {
    bool caseless;
    bool negate;
    bool has_const;
    like_pattern pattern; /* when the pattern is a constant */
} like_state;

static int like_flush_literal(mu_buf *lit, bool caseless, mu_buf *bytes, mu_buf *kinds,
                              mu_buf *tmp, mu_err *err) {
    if (lit->length_bytes == 0) return 0;
    const uint8_t *p = lit->data;
    size_t n = lit->length_bytes;
    int rc = 0;
    if (caseless) {
        mu_buf_clear(tmp);
        rc = exec__str_fold_utf8(p, n, tmp, err);
        p = tmp->data;
        n = tmp->length_bytes;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = mu_buf_append_u8(bytes, p[i], err);
        if (rc == 0) rc = mu_buf_append_u8(kinds, LIKE_LITERAL, err);
    }
    mu_buf_clear(lit);
    return rc;
}

static int like_tokenize(const exec_call *call, const uint8_t *p, size_t n, bool caseless,
                         mu_buf *bytes, mu_buf *kinds, mu_err *err) {
    mu_buf lit, tmp;
    mu_buf_init(&lit, 0);
    mu_buf_init(&tmp, 0);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint8_t c = p[i];
        if (c == '\\') {
            if (i + 1 == n) {
                rc = MU_ERR(err, MU_EESCAPE, "Invalid escape sequence at the end of LIKE pattern "
                            "'%.*s' (function %s)", (int)MU_MIN(n, 200), (const char *)p,
                            call->function->name);
                break;
            }
            uint8_t next = p[i + 1];
            if (next == '%' || next == '_' || next == '\\') i++;
            rc = mu_buf_append_u8(&lit, next == '%' || next == '_' || next == '\\' ? next : c, err);
        } else if (c == '%' || c == '_') {
            rc = like_flush_literal(&lit, caseless, bytes, kinds, &tmp, err);
            bool repeat = c == '%' && kinds->length_bytes > 0 &&
                          kinds->data[kinds->length_bytes - 1] == LIKE_ANY;
            if (rc == 0 && !repeat) rc = mu_buf_append_u8(bytes, c, err);
            if (rc == 0 && !repeat)
                rc = mu_buf_append_u8(kinds, c == '%' ? LIKE_ANY : LIKE_ONE, err);
        } else {
            rc = mu_buf_append_u8(&lit, c, err);
        }
    }
    if (rc == 0) rc = like_flush_literal(&lit, caseless, bytes, kinds, &tmp, err);
    mu_buf_deinit(&lit);
    mu_buf_deinit(&tmp);
    return rc;
}

/* Recognises the shapes with a single literal and only leading/trailing %. */
static void like_classify(like_pattern *pat, bool caseless) {
    const uint8_t *k = pat->kinds;
    size_t n = pat->count, lo = 0, hi = n;
    pat->shape = LIKE_GENERAL;
    if (caseless) return;
    bool lead = n > 0 && k[0] == LIKE_ANY, trail = n > 0 && k[n - 1] == LIKE_ANY;
    if (lead) lo = 1;
    if (trail && hi > lo) hi--;
    for (size_t i = lo; i < hi; i++)
        if (k[i] != LIKE_LITERAL) return;
    if (n > 0 && lo == hi && lead) {
        pat->shape = LIKE_EVERYTHING;
        return;
    }
    pat->bytes += lo;
    pat->count = hi - lo;
    pat->shape = lead && trail ? LIKE_CONTAINS
                 : lead        ? LIKE_SUFFIX
                 : trail       ? LIKE_PREFIX
                               : LIKE_EXACT;
}

static bool like_match_general(const uint8_t *s, size_t n, const like_pattern *pat) {
    const uint8_t *pb = pat->bytes, *pk = pat->kinds;
    MU_ASSERT(pat->count == 0 || (pb != NULL && pk != NULL));
    size_t m = pat->count, si = 0, pi = 0, star_pi = SIZE_MAX, star_si = 0;
    while (si < n) {
        if (pi < m && pk[pi] == LIKE_LITERAL && s[si] == pb[pi]) {
            si++;
            pi++;
        } else if (pi < m && pk[pi] == LIKE_ONE) {
            si += MU_MIN(utf8_seq_length(s[si]), n - si);
            pi++;
        } else if (pi < m && pk[pi] == LIKE_ANY) {
            star_pi = pi++;
            star_si = si;
        } else if (star_pi != SIZE_MAX) { /* let the last % take one more code point */
            star_si += MU_MIN(utf8_seq_length(s[star_si]), n - star_si);
            si = star_si;
            pi = star_pi + 1;
        } else {
            return false;
        }
    }
    while (pi < m && pk[pi] == LIKE_ANY) pi++;
    return pi == m;
}

static bool like_match(const uint8_t *s, size_t n, const like_pattern *pat) {
    const uint8_t *lit = pat->bytes;
    size_t m = pat->count;
    switch (pat->shape) {
    case LIKE_EVERYTHING: return true;
    case LIKE_EXACT: return n == m && (m == 0 || memcmp(s, lit, m) == 0);
    case LIKE_PREFIX: return n >= m && (m == 0 || memcmp(s, lit, m) == 0);
    case LIKE_SUFFIX: return n >= m && (m == 0 || memcmp(s + n - m, lit, m) == 0);
    case LIKE_CONTAINS: return m == 0 || (n >= m && memmem(s, n, lit, m) != NULL);
    case LIKE_GENERAL: break;
    }
    return like_match_general(s, n, pat);
}

/* Compiles p into bytes/kinds (owned by the caller) and describes it in pat. */
static int like_compile(const exec_call *call, const uint8_t *p, size_t n, bool caseless,
                        mu_buf *bytes, mu_buf *kinds, like_pattern *pat, mu_err *err) {
    mu_buf_clear(bytes);
    mu_buf_clear(kinds);
    int rc = like_tokenize(call, p, n, caseless, bytes, kinds, err);
    if (rc != 0) return rc;
    pat->bytes = bytes->data;
    pat->kinds = kinds->data;
    pat->count = bytes->length_bytes;
    like_classify(pat, caseless);
    return 0;
}

static int like_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                       ty_column *out, mu_err *err) {
    const like_state *st = call->state;
    uint8_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    mu_buf bytes, kinds, folded;
    mu_buf_init(&bytes, 0);
    mu_buf_init(&kinds, 0);
    mu_buf_init(&folded, 0);
    like_pattern row_pat = st->pattern;
    const uint8_t *last = NULL;
    size_t last_n = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n, pn;
        const uint8_t *s = str_row(&args[0], i, &n);
        if (!st->has_const) { /* recompile only when the pattern changes */
            const uint8_t *p = str_row(&args[1], i, &pn);
            if (last == NULL || pn != last_n || memcmp(p, last, pn) != 0) {
                rc = like_compile(call, p, pn, st->caseless, &bytes, &kinds, &row_pat, err);
                last = p;
                last_n = pn;
            }
        }
        if (rc == 0 && st->caseless) {
            mu_buf_clear(&folded);
            rc = exec__str_fold_utf8(s, n, &folded, err);
            s = folded.data;
            n = folded.length_bytes;
        }
        if (rc == 0) dst[i] = (uint8_t)(like_match(s, n, &row_pat) != st->negate);
    }
    mu_buf_deinit(&bytes);
    mu_buf_deinit(&kinds);
    mu_buf_deinit(&folded);
    return rc;
}

static int like_bind_common(exec_call *call, mu_arena *arena, bool caseless, bool negate,
                            mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 1, true, err);
    if (rc == 0 && caseless) rc = exec__str_need_unicode(call, err);
    if (rc != 0) return rc;
    like_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->caseless = caseless;
    st->negate = negate;
    const char *p;
    size_t n;
    if (exec__const_string(call, 1, &p, &n)) { /* compile once; tokens live in the arena */
        mu_buf bytes, kinds;
        mu_buf_init(&bytes, 0);
        mu_buf_init(&kinds, 0);
        like_pattern pat;
        rc = like_compile(call, (const uint8_t *)p, n, caseless, &bytes, &kinds, &pat, err);
        uint8_t *copy = NULL;
        if (rc == 0) copy = mu_arena_alloc(arena, bytes.length_bytes * 2 + 1, err);
        if (rc == 0 && copy == NULL) rc = err->code;
        if (rc == 0) {
            if (bytes.length_bytes > 0) {
                memcpy(copy, bytes.data, bytes.length_bytes);
                memcpy(copy + bytes.length_bytes, kinds.data, kinds.length_bytes);
            }
            st->pattern = pat;
            st->pattern.bytes = copy + (pat.bytes - bytes.data);
            st->pattern.kinds = copy + bytes.length_bytes + (pat.kinds - kinds.data);
            st->has_const = true;
        }
        mu_buf_deinit(&bytes);
        mu_buf_deinit(&kinds);
        if (rc != 0) return rc;
    }
    call->kernel = like_kernel;
    call->state = st;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

STR_BIND_ARENA(like_bind, like_bind_common, false, false)
STR_BIND_ARENA(not_like_bind, like_bind_common, false, true)
STR_BIND_ARENA(ilike_bind, like_bind_common, true, false)
STR_BIND_ARENA(not_ilike_bind, like_bind_common, true, true)

static const exec_function fn_like = {"like", 0, like_bind};
static const exec_function fn_not_like = {"notLike", 0, not_like_bind};
static const exec_function fn_ilike = {"ilike", 0, ilike_bind};
static const exec_function fn_not_ilike = {"notILike", 0, not_ilike_bind};

/* ------------------------------------------------------------------ */
/* startsWith, endsWith                                                */
/* ------------------------------------------------------------------ */

static int starts_ends_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    bool ends = call->state != NULL;
    uint8_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < rows; i++) {
        size_t n, m;
        const uint8_t *s = str_row(&args[0], i, &n);
        const uint8_t *x = str_row(&args[1], i, &m);
        dst[i] = (uint8_t)(m <= n && (m == 0 || memcmp(ends ? s + n - m : s, x, m) == 0));
    }
    return 0;
}

static int starts_ends_bind_common(exec_call *call, bool ends, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 1, true, err);
    if (rc != 0) return rc;
    call->kernel = starts_ends_kernel;
    call->state = ends ? (void *)call : NULL;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

STR_BIND_MODE(starts_with_bind, starts_ends_bind_common, false)
STR_BIND_MODE(ends_with_bind, starts_ends_bind_common, true)
static const exec_function fn_starts_with = {"startsWith", 0, starts_with_bind};
static const exec_function fn_ends_with = {"endsWith", 0, ends_with_bind};

/* ------------------------------------------------------------------ */
/* trimLeft, trimRight, trimBoth                                       */
/* ------------------------------------------------------------------ */

typedef struct trim_state {
    bool left, right;
    bool table[256]; /* bytes to strip: ' ' unless a constant set is given */
} trim_state;

static int trim_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                       ty_column *out, mu_err *err) {
    const trim_state *st = call->state;
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        const uint8_t *b = p, *e = p + n;
        if (st->left)
            while (b < e && st->table[*b]) b++;
        if (st->right)
            while (e > b && st->table[e[-1]]) e--;
        rc = ty_column_append_bytes(out, b, (size_t)(e - b), err);
    }
    return rc;
}

static int trim_bind_common(exec_call *call, mu_arena *arena, bool left, bool right,
                            mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 2, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0 && call->arg_count == 2) rc = exec__str_check_string_arg(call, 1, false, err);
    if (rc != 0) return rc;
    trim_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->left = left;
    st->right = right;
    if (call->arg_count == 2) {
        const char *set;
        size_t n;
        if (!exec__const_string(call, 1, &set, &n))
            return MU_ERR(err, MU_EILLEGAL_COLUMN,
                          "Illegal column of argument 2 of function %s: must be a constant String",
                          call->function->name);
        for (size_t i = 0; i < n; i++) st->table[(uint8_t)set[i]] = true;
    } else {
        st->table[' '] = true;
    }
    call->kernel = trim_kernel;
    call->state = st;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

STR_BIND_ARENA(trim_left_bind, trim_bind_common, true, false)
STR_BIND_ARENA(trim_right_bind, trim_bind_common, false, true)
STR_BIND_ARENA(trim_both_bind, trim_bind_common, true, true)

static const exec_function fn_trim_left = {"trimLeft", 0, trim_left_bind};
static const exec_function fn_trim_right = {"trimRight", 0, trim_right_bind};
static const exec_function fn_trim_both = {"trimBoth", 0, trim_both_bind};
STR_ALIAS(fn_ltrim, "ltrim", STR_CI, fn_trim_left);
STR_ALIAS(fn_rtrim, "rtrim", STR_CI, fn_trim_right);
STR_ALIAS(fn_trim, "trim", STR_CI, fn_trim_both);

/* ------------------------------------------------------------------ */
/* replaceAll, replaceOne                                              */
/* ------------------------------------------------------------------ */

static int replace_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                          ty_column *out, mu_err *err) {
    bool only_first = call->state != NULL;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n, nn, rn;
        const uint8_t *h = str_row(&args[0], i, &n);
        const uint8_t *nd = str_row(&args[1], i, &nn);
        const uint8_t *rep = str_row(&args[2], i, &rn);
        mu_buf_clear(&buf);
        size_t at = 0;
        while (nn > 0 && at < n && rc == 0) {
            const uint8_t *m = n - at >= nn ? memmem(h + at, n - at, nd, nn) : NULL;
            if (m == NULL) break;
            rc = mu_buf_append(&buf, h + at, (size_t)(m - (h + at)), err);
            if (rc == 0) rc = mu_buf_append(&buf, rep, rn, err);
            at = (size_t)(m - h) + nn;
            if (only_first) break;
        }
        if (rc == 0) rc = mu_buf_append(&buf, h + at, n - at, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int replace_bind_common(exec_call *call, bool only_first, mu_err *err) {
    int rc = exec__check_arg_count(call, 3, 3, err);
    for (uint32_t k = 0; k < 3 && rc == 0; k++) rc = exec__str_check_string_arg(call, k, true, err);
    if (rc != 0) return rc;
    call->kernel = replace_kernel;
    call->state = only_first ? (void *)call : NULL;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

STR_BIND_MODE(replace_all_bind, replace_bind_common, false)
STR_BIND_MODE(replace_one_bind, replace_bind_common, true)
static const exec_function fn_replace_all = {"replaceAll", 0, replace_all_bind};
static const exec_function fn_replace_one = {"replaceOne", 0, replace_one_bind};
STR_ALIAS(fn_replace, "replace", STR_CI, fn_replace_all);

/* ------------------------------------------------------------------ */
/* splitByChar, splitByString, splitByWhitespace                       */
/* ------------------------------------------------------------------ */

enum { SPLIT_CHAR, SPLIT_STRING, SPLIT_WHITESPACE };

typedef struct split_state {
    int kind;
    const uint8_t *separator;
    size_t separator_bytes;
    uint64_t max_tokens; /* 0: no limit (ClickHouse drops the remainder past it) */
} split_state;

static bool split_is_space(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int split_row(const split_state *st, const uint8_t *p, size_t n, ty_column *dst,
                     mu_err *err) {
    uint64_t tokens = 0;
    size_t at = 0;
    int rc = 0;
    if (st->kind == SPLIT_WHITESPACE) {
        while (rc == 0) {
            while (at < n && split_is_space(p[at])) at++;
            if (at == n || (st->max_tokens && tokens == st->max_tokens)) break;
            size_t b = at;
            while (at < n && !split_is_space(p[at])) at++;
            rc = ty_column_append_bytes(dst, p + b, at - b, err);
            tokens++;
        }
        return rc;
    }
    if (st->separator_bytes == 0) { /* splitByString(''): one token per byte */
        for (; at < n && rc == 0 && !(st->max_tokens && tokens == st->max_tokens); at++, tokens++)
            rc = ty_column_append_bytes(dst, p + at, 1, err);
        return rc;
    }
    bool more = true;
    while (more && rc == 0 && !(st->max_tokens && tokens == st->max_tokens)) {
        const uint8_t *m = n - at >= st->separator_bytes
                               ? memmem(p + at, n - at, st->separator, st->separator_bytes)
                               : NULL;
        size_t end = m ? (size_t)(m - p) : n;
        rc = ty_column_append_bytes(dst, p + at, end - at, err);
        tokens++;
        more = m != NULL;
        at = end + st->separator_bytes;
    }
    return rc;
}

static int split_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                        ty_column *out, mu_err *err) {
    const split_state *st = call->state;
    const exec_arg *s = &args[st->kind == SPLIT_WHITESPACE ? 0 : 1];
    ty_column *dst = ty_column_child_mut(out, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(s, i, &n);
        rc = split_row(st, p, n, dst, err);
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
    }
    return rc;
}

static int split_bind_common(exec_call *call, mu_arena *arena, int kind, mu_err *err) {
    uint32_t s_index = kind == SPLIT_WHITESPACE ? 0 : 1;
    int rc = exec__check_arg_count(call, s_index + 1, s_index + 2, err);
    if (rc == 0 && kind != SPLIT_WHITESPACE) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, s_index, false, err);
    if (rc == 0 && call->arg_count == s_index + 2)
        rc = exec__str_check_int_arg(call, s_index + 1, err);
    if (rc != 0) return rc;
    split_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    if (st == NULL) return err->code;
    st->kind = kind;
    if (kind != SPLIT_WHITESPACE) {
        const char *sep;
        if (!exec__const_string(call, 0, &sep, &st->separator_bytes))
            return MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal column of first argument of "
                          "function %s. Must be constant string.", call->function->name);
        if (kind == SPLIT_CHAR && st->separator_bytes != 1)
            return MU_ERR(err, MU_EINVAL, "Illegal separator for function splitByChar. "
                          "Must be exactly one byte.");
        st->separator = (const uint8_t *)sep;
    }
    if (call->arg_count == s_index + 2) {
        int64_t max;
        if (!exec__const_i64(call, s_index + 1, &max))
            return MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal column of argument %u of function %s. "
                          "Must be a constant integer.", s_index + 2, call->function->name);
        st->max_tokens = max > 0 ? (uint64_t)max : 0;
    }
    call->kernel = split_kernel;
    call->state = st;
    return str_array_of(ty_type_builtin(TY_STRING), arena, &call->result_type, err);
}

STR_BIND_ARENA(split_by_char_bind, split_bind_common, SPLIT_CHAR)
STR_BIND_ARENA(split_by_string_bind, split_bind_common, SPLIT_STRING)
STR_BIND_ARENA(split_by_whitespace_bind, split_bind_common, SPLIT_WHITESPACE)

static const exec_function fn_split_by_char = {"splitByChar", 0, split_by_char_bind};
static const exec_function fn_split_by_string = {"splitByString", 0, split_by_string_bind};
static const exec_function fn_split_by_whitespace = {"splitByWhitespace", 0,
                                                     split_by_whitespace_bind};

/* ------------------------------------------------------------------ */
/* repeat, leftPad, rightPad, leftPadUTF8, rightPadUTF8                */
/* ------------------------------------------------------------------ */

#define STR_REPEAT_TIMES_MAX 1000000ull /* ClickHouse's repeat limits */
#define STR_REPEAT_BYTES_MAX (1ull << 30)
#define STR_PAD_LENGTH_MAX 1000000ull /* ClickHouse's padString MAX_NEW_LENGTH */

static int repeat_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    (void)call;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = str_row(&args[0], i, &n);
        const ty_column *c = args[1].column;
        uint32_t r = exec_arg_row(&args[1], i);
        bool is_signed = exec_type_is_signed(ty_type_strip_nullable(c->type));
        int64_t s_times = is_signed ? exec_get_i64(c, r) : 0;
        uint64_t times = is_signed ? (s_times < 0 ? 0 : (uint64_t)s_times) : exec_get_u64(c, r);
        if (times > STR_REPEAT_TIMES_MAX) {
            rc = MU_ERR(err, MU_ETOO_LARGE, "Too many times to repeat (%llu), maximum is: %llu",
                        (unsigned long long)times, STR_REPEAT_TIMES_MAX);
            break;
        }
        if ((uint64_t)n * times > STR_REPEAT_BYTES_MAX) {
            rc = MU_ERR(err, MU_ETOO_LARGE, "Too large string size (%llu) in function repeat, "
                        "maximum is: %llu", (unsigned long long)((uint64_t)n * times),
                        STR_REPEAT_BYTES_MAX);
            break;
        }
        mu_buf_clear(&buf);
        for (uint64_t k = 0; k < times && n > 0 && rc == 0; k++)
            rc = mu_buf_append(&buf, p, n, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int repeat_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 2, 2, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0) rc = exec__str_check_int_arg(call, 1, err);
    if (rc != 0) return rc;
    call->kernel = repeat_kernel;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

enum { PAD_LEFT = 1, PAD_UTF8 = 2 };

/* Pads (or truncates) one row to `length` units (bytes or code points). */
static int pad_row(bool left, bool utf8, const uint8_t *p, size_t n, uint64_t length,
                   const uint8_t *pad, size_t pad_n, mu_buf *out, mu_err *err) {
    size_t units = utf8 ? exec__str_utf8_count(p, n) : n;
    if (length <= units) {
        size_t keep = utf8 ? (size_t)(utf8_forward(p, length, p + n) - p) : (size_t)length;
        return mu_buf_append(out, p, keep, err);
    }
    int rc = left ? 0 : mu_buf_append(out, p, n, err);
    uint64_t missing = length - units;
    while (missing > 0 && rc == 0) { /* whole copies of pad, then a prefix of it */
        size_t pad_units = utf8 ? exec__str_utf8_count(pad, pad_n) : pad_n;
        if (pad_units == 0) break;
        if (missing >= pad_units) {
            rc = mu_buf_append(out, pad, pad_n, err);
            missing -= pad_units;
        } else {
            size_t b = utf8 ? (size_t)(utf8_forward(pad, missing, pad + pad_n) - pad)
                            : (size_t)missing;
            rc = mu_buf_append(out, pad, b, err);
            missing = 0;
        }
    }
    if (rc == 0 && left) rc = mu_buf_append(out, p, n, err);
    return rc;
}

static int pad_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                      ty_column *out, mu_err *err) {
    uintptr_t mode = (uintptr_t)call->state;
    mu_buf buf;
    mu_buf_init(&buf, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n, pad_n = 1;
        const uint8_t *p = str_row(&args[0], i, &n);
        const uint8_t *pad = (const uint8_t *)" ";
        if (call->arg_count == 3) pad = str_row(&args[2], i, &pad_n);
        if (pad_n == 0) { /* an empty pad string pads with spaces */
            pad = (const uint8_t *)" ";
            pad_n = 1;
        }
        int64_t length = exec_get_i64(args[1].column, exec_arg_row(&args[1], i));
        if (length > (int64_t)STR_PAD_LENGTH_MAX) {
            rc = MU_ERR(err, MU_ETOO_LARGE, "New padded length (%lld) is too big, maximum is: %llu",
                        (long long)length, STR_PAD_LENGTH_MAX);
            break;
        }
        if (length < 0) {
            rc = MU_ERR(err, MU_EOUT_OF_BOUND, "New padded length (%lld) is negative",
                        (long long)length);
            break;
        }
        mu_buf_clear(&buf);
        rc = pad_row((mode & PAD_LEFT) != 0, (mode & PAD_UTF8) != 0, p, n, (uint64_t)length, pad,
                     pad_n, &buf, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    mu_buf_deinit(&buf);
    return rc;
}

static int pad_bind_common(exec_call *call, uintptr_t mode, mu_err *err) {
    int rc = exec__check_arg_count(call, 2, 3, err);
    if (rc == 0) rc = exec__str_check_string_arg(call, 0, true, err);
    if (rc == 0) rc = exec__str_check_int_arg(call, 1, err);
    if (rc == 0 && call->arg_count == 3) rc = exec__str_check_string_arg(call, 2, false, err);
    const char *pad;
    size_t pad_n;
    if (rc == 0 && call->arg_count == 3 && !exec__const_string(call, 2, &pad, &pad_n))
        rc = MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal column, third argument of function %s "
                    "must be a constant string", call->function->name);
    if (rc != 0) return rc;
    call->kernel = pad_kernel;
    call->state = (void *)mode;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

STR_BIND_MODE(left_pad_bind, pad_bind_common, PAD_LEFT)
STR_BIND_MODE(right_pad_bind, pad_bind_common, 0)
STR_BIND_MODE(left_pad_utf8_bind, pad_bind_common, PAD_LEFT | PAD_UTF8)
STR_BIND_MODE(right_pad_utf8_bind, pad_bind_common, PAD_UTF8)

static const exec_function fn_repeat = {"repeat", STR_CI, repeat_bind};
static const exec_function fn_left_pad = {"leftPad", 0, left_pad_bind};
static const exec_function fn_right_pad = {"rightPad", 0, right_pad_bind};
STR_ALIAS(fn_lpad, "lpad", STR_CI, fn_left_pad);
STR_ALIAS(fn_rpad, "rpad", STR_CI, fn_right_pad);
static const exec_function fn_left_pad_utf8 = {"leftPadUTF8", 0, left_pad_utf8_bind};
static const exec_function fn_right_pad_utf8 = {"rightPadUTF8", 0, right_pad_utf8_bind};

/* ------------------------------------------------------------------ */

const exec_function *const exec__functions_string[] = {
    &fn_length, &fn_empty, &fn_not_empty, &fn_length_utf8, &fn_char_length,
    &fn_character_length, &fn_lower, &fn_upper, &fn_lcase, &fn_ucase, &fn_lower_utf8,
    &fn_upper_utf8, &fn_reverse, &fn_reverse_utf8, &fn_substring, &fn_substr, &fn_mid,
    &fn_substring_utf8, &fn_left, &fn_right, &fn_left_utf8, &fn_right_utf8, &fn_concat,
    &fn_concat_ws, &fn_concat_ws_alias, &fn_position, &fn_locate, &fn_position_ci,
    &fn_position_utf8, &fn_position_ci_utf8, &fn_like, &fn_not_like, &fn_ilike, &fn_not_ilike,
    &fn_starts_with, &fn_ends_with, &fn_trim_left, &fn_trim_right, &fn_trim_both, &fn_ltrim,
    &fn_rtrim, &fn_trim, &fn_replace_all, &fn_replace_one, &fn_replace, &fn_split_by_char,
    &fn_split_by_string, &fn_split_by_whitespace, &fn_repeat, &fn_left_pad, &fn_right_pad,
    &fn_lpad, &fn_rpad, &fn_left_pad_utf8, &fn_right_pad_utf8,
    /* fn_string2.c */
    &exec__fn_base64_encode, &exec__fn_base64_decode, &exec__fn_try_base64_decode,
    &exec__fn_base64_url_encode, &exec__fn_base64_url_decode, &exec__fn_try_base64_url_decode,
    &exec__fn_to_base64, &exec__fn_from_base64, &exec__fn_hex, &exec__fn_unhex,
    &exec__fn_to_valid_utf8, &exec__fn_is_valid_utf8, &exec__fn_append_trailing_char,
    &exec__fn_format, &exec__fn_count_substrings, &exec__fn_count_substrings_ci,
    &exec__fn_count_substrings_ci_utf8, &exec__fn_multi_search_any,
    &exec__fn_multi_search_any_ci, &exec__fn_multi_search_any_utf8,
    &exec__fn_multi_search_any_ci_utf8, &exec__fn_multi_search_first_position,
    &exec__fn_multi_search_first_position_ci, &exec__fn_multi_search_first_position_utf8,
    &exec__fn_multi_search_first_position_ci_utf8, &exec__fn_multi_search_first_index,
    &exec__fn_multi_search_first_index_ci, &exec__fn_multi_search_first_index_utf8,
    &exec__fn_multi_search_first_index_ci_utf8, &exec__fn_multi_search_all_positions,
    &exec__fn_multi_search_all_positions_ci, &exec__fn_multi_search_all_positions_utf8,
    &exec__fn_multi_search_all_positions_ci_utf8, NULL,
};
