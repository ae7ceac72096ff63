/* exec_test_util.c: the harness shared by the exec unit tests (see
 * exec_test_util.h): per-test state, types and columns from text, the ev()
 * expression language, q() spec calls, builder helpers, date helpers and
 * the aggregate runner that checks every update and merge path agrees.
 * Everything here is test-only: a failure ends the test with fail_msg or a
 * cmocka assertion, never with an error code.
 */
#include "exec_test_util.h"

#include <ctype.h>
#include <math.h>

et_state et;
et_agg_state et_agg;

/* ---- per-test state ------------------------------------------------------ */

int et_setup(void **state) {
    (void)state;
    mu_err err;
    memset(&et, 0, sizeof(et));
    if (mu_arena_create(&et.arena, NULL, 1 << 16, &err) != 0) return -1;
    et.ctx.timezone = ty_tz_utc();
    et.ctx.database = "default";
    et.ctx.version = "24.8.1.1";
    et.ctx.hostname = "muscles-test";
    et.ctx.uptime_s = 42;
    et.rows = 1;
    return exec_builder_init(&et.b, &et.ctx, et.arena, &err);
}

int et_teardown(void **state) {
    (void)state;
    for (uint32_t i = 0; i < et.input_count; i++) ty_column_destroy(et.inputs[i]);
    exec_builder_deinit(&et.b);
    mu_arena_destroy(et.arena);
    memset(&et, 0, sizeof(et));
    return 0;
}

/* ---- types, columns, rendering ------------------------------------------- */

const ty_type *et_type_in(mu_arena *in_arena, const char *name, size_t bytes) {
    const ty_type *type;
    mu_err err;
    if (ty_type_parse_n(name, bytes, in_arena ? in_arena : et.arena, &type, &err) != 0)
        fail_msg("type %.*s: %s", (int)bytes, name, err.message);
    return type;
}

const ty_type *et_type(const char *name) {
    return et_type_in(NULL, name, strlen(name));
}

const ty_tz *et_zone(const char *name) {
    const ty_tz *tz;
    mu_err err;
    if (ty_tz_get(name, &tz, &err) != 0) fail_msg("zone %s: %s", name, err.message);
    return tz;
}

ty_column *et_column_in(mu_arena *in_arena, const char *type_name, const char *rows) {
    ty_column *c;
    mu_err err;
    const ty_type *type = et_type_in(in_arena, type_name, strlen(type_name));
    assert_int_equal(ty_column_create(type, NULL, &c, &err), 0);
    if (rows == NULL) return c;
    for (const char *p = rows;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        int rc = n == 2 && memcmp(p, "\\N", 2) == 0 ? ty_column_append_null(c, &err)
                                                     : ty_column_append_text(c, p, n, &err);
        if (rc != 0) fail_msg("row '%.*s' of %s: %s", (int)n, p, type_name, err.message);
        if (bar == NULL) break;
        p = bar + 1;
    }
    return c;
}

/* Appends one value in ClickHouse's quoted text form. */
static void et_append(ty_column *c, const char *text, const char *null_text) {
    mu_err err;
    bool is_null = text == NULL || (null_text != NULL && strcmp(text, null_text) == 0);
    int rc = is_null ? ty_column_append_null(c, &err)
                     : ty_column_append_text(c, text, strlen(text), &err);
    if (rc != 0) fail_msg("value %s: %s", text ? text : "NULL", err.message);
}

ty_column *et_column_values(const char *type_name, const char *const *texts, uint32_t n,
                            const char *null_text) {
    ty_column *c;
    mu_err err;
    assert_int_equal(ty_column_create(et_type(type_name), NULL, &c, &err), 0);
    for (uint32_t i = 0; i < n; i++) et_append(c, texts[i], null_text);
    return c;
}

void et_render_rows(const ty_column *c, uint32_t rows, const char *separator, bool hex,
                    mu_buf *out) {
    mu_err err;
    const ty_type *value_type = ty_type_strip_nullable(c->type);
    bool bytes = value_type->kind == TY_STRING || value_type->kind == TY_FIXED_STRING;
    for (uint32_t r = 0; r < rows; r++) {
        if (r > 0) assert_int_equal(mu_buf_append_str(out, separator, &err), 0);
        if (hex && bytes && !ty_column_is_null(c, r)) {
            size_t n;
            const uint8_t *p = ty_column_row_bytes(c, r, &n);
            for (size_t k = 0; k < n; k++)
                assert_int_equal(mu_buf_printf(out, &err, "%02X", p[k]), 0);
        } else {
            assert_int_equal(ty_column_render_text(c, r, 0, out, &err), 0);
        }
    }
}

/* Copies b into text (at most bytes - 1 of it) and frees b. */
static const char *et_take_text(mu_buf *b, char *text, size_t bytes) {
    size_t n = MU_MIN(b->length_bytes, bytes - 1);
    if (n > 0) memcpy(text, b->data, n);
    text[n] = 0;
    mu_buf_deinit(b);
    return text;
}

const char *et_render_row(const ty_column *c, uint32_t row) {
    static char text[4096];
    mu_buf b;
    mu_err err;
    mu_buf_init(&b, 0);
    assert_int_equal(ty_column_render_text(c, row, 0, &b, &err), 0);
    return et_take_text(&b, text, sizeof(text));
}

const char *et_render(const ty_column *c) {
    mu_buf b;
    mu_buf_init(&b, 0);
    et_render_rows(c, c->row_count, "|", false, &b);
    return et_take_text(&b, et.text, sizeof(et.text));
}

const char *et_render_typed(const ty_type *type, const ty_column *c) {
    mu_buf b;
    mu_err err;
    uint32_t rows = ty_column_row_count(c);
    mu_buf_init(&b, 0);
    assert_int_equal(ty_type_render(type, &b, &err), 0);
    assert_int_equal(mu_buf_append_str(&b, rows ? ": " : ":", &err), 0);
    et_render_rows(c, rows, " | ", false, &b);
    return et_take_text(&b, et.text, sizeof(et.text));
}

void et_error_text(char *out, size_t out_bytes, const char *code_name, const char *message) {
    snprintf(out, out_bytes, "ERR %s: %s", code_name, message);
}

/* ---- ev(): a small expression language ----------------------------------- */

#define ET_EV_ARGS_MAX 300

typedef struct et_parser {
    const char *s;
    size_t pos;
    exec_builder *b;
    mu_err *err;
} et_parser;

static int et_parse_expr(et_parser *p, exec_expr **out);

static void et_parse_skip(et_parser *p) {
    while (p->s[p->pos] == ' ') p->pos++;
}

/* In "{Type:text}" from just after '{': the ':' that ends the type (outside
 * quotes and brackets) and the '}' that ends the text (outside quotes and
 * nested braces); NULL when missing. */
static void et_typed_const_bounds(const char *start, const char **colon, const char **end) {
    int depth = 0;
    bool quoted = false;
    *colon = *end = NULL;
    for (const char *c = start; *c && *colon == NULL; c++) {
        if (quoted) {
            if (*c == '\\' && c[1] != 0) c++;
            else if (*c == '\'') quoted = false;
        } else if (*c == '\'') {
            quoted = true;
        } else if (*c == '(' || *c == '{') {
            depth++;
        } else if (*c == ')' || *c == '}') {
            if (depth-- == 0) return;
        } else if (*c == ':' && depth == 0) {
            *colon = c;
        }
    }
    depth = 0;
    quoted = false;
    for (const char *c = *colon ? *colon + 1 : ""; *c && *end == NULL; c++) {
        if (quoted) {
            if (*c == '\\' && c[1] != 0) c++;
            else if (*c == '\'') quoted = false;
        } else if (*c == '\'') {
            quoted = true;
        } else if (*c == '{') {
            depth++;
        } else if (*c == '}' && depth-- == 0) {
            *end = c;
        }
    }
}

static int et_parse_typed_const(et_parser *p, exec_expr **out) {
    const char *start = p->s + p->pos + 1, *colon, *end;
    et_typed_const_bounds(start, &colon, &end);
    if (colon == NULL || end == NULL) fail_msg("bad typed constant at %s", start - 1);
    const ty_type *type = et_type_in(NULL, start, (size_t)(colon - start));
    ty_column *c;
    assert_int_equal(ty_column_create(type, NULL, &c, p->err), 0);
    size_t n = (size_t)(end - colon - 1);
    int rc = n == 4 && memcmp(colon + 1, "NULL", 4) == 0
                 ? ty_column_append_null(c, p->err)
                 : ty_column_append_text(c, colon + 1, n, p->err);
    if (rc != 0) fail_msg("constant '%.*s': %s", (int)n, colon + 1, p->err->message);
    p->pos = (size_t)(end - p->s) + 1;
    return exec_expr_const_take(p->b, c, out, p->err);
}

static int et_parse_string(et_parser *p, exec_expr **out) {
    char text[1024];
    size_t n = 0;
    p->pos++;
    while (p->s[p->pos] != '\'') {
        if (p->s[p->pos] == 0) fail_msg("unterminated string");
        if (p->s[p->pos] == '\\') p->pos++;
        if (n == sizeof(text)) {
            fail_msg("string longer than %zu bytes", sizeof(text));
            return -1; /* not reached: fail_msg ends the test */
        }
        text[n++] = p->s[p->pos++];
    }
    p->pos++;
    return exec_expr_const_string(p->b, text, n, out, p->err);
}

static int et_parse_number(et_parser *p, exec_expr **out) {
    const char *start = p->s + p->pos;
    size_t n = strspn(start, "+-0123456789.eE");
    char text[64];
    if (n >= sizeof(text)) fail_msg("number too long at %s", start);
    memcpy(text, start, n);
    text[n] = 0;
    p->pos += n;
    if (strpbrk(text, ".eE")) return exec_expr_const_float(p->b, strtod(text, NULL), out, p->err);
    if (text[0] == '-') return exec_expr_const_int(p->b, strtoll(text, NULL, 10), out, p->err);
    return exec_expr_const_uint(p->b, strtoull(text, NULL, 10), out, p->err);
}

static int et_parse_call(et_parser *p, exec_expr **out) {
    char name[64];
    size_t n = 0;
    while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_') {
        if (n == sizeof(name) - 1) fail_msg("function name too long at %s", p->s + p->pos);
        name[n++] = p->s[p->pos++];
    }
    name[n] = 0;
    if (strcmp(name, "NULL") == 0) return exec_expr_const_null(p->b, out, p->err);
    et_parse_skip(p);
    if (p->s[p->pos] != '(') fail_msg("expected ( after %s", name);
    p->pos++;
    exec_expr **args = mu_arena_calloc(et.arena, ET_EV_ARGS_MAX, sizeof(*args), NULL);
    assert_non_null(args);
    uint32_t count = 0;
    et_parse_skip(p);
    while (p->s[p->pos] != ')') {
        if (count == ET_EV_ARGS_MAX) fail_msg("more than %d arguments", ET_EV_ARGS_MAX);
        int rc = et_parse_expr(p, &args[count++]);
        if (rc != 0) return rc;
        et_parse_skip(p);
        if (p->s[p->pos] == ',') p->pos++;
        et_parse_skip(p);
    }
    p->pos++;
    return exec_expr_call(p->b, name, args, count, out, p->err);
}

static int et_parse_expr(et_parser *p, exec_expr **out) {
    et_parse_skip(p);
    char c = p->s[p->pos];
    if (c == '\'') return et_parse_string(p, out);
    if (c == '{') return et_parse_typed_const(p, out);
    if (c == '$') {
        uint32_t i = (uint32_t)(p->s[p->pos + 1] - '0');
        p->pos += 2;
        if (i >= et.input_count) fail_msg("input $%u was not added", i);
        return exec_expr_input(p->b, i, et.inputs[i]->type, out, p->err);
    }
    if (isdigit((unsigned char)c) || c == '-' || c == '+') return et_parse_number(p, out);
    return et_parse_call(p, out);
}

void et_input(const char *type_name, const char *rows) {
    assert_true(et.input_count < ET_INPUTS_MAX);
    ty_column *c = et_column_in(NULL, type_name, rows);
    et.rows = c->row_count;
    et.inputs[et.input_count++] = c;
}

void et_input_sequence(const char *type_name, uint32_t n, bool nulls) {
    size_t cap = (size_t)n * 12 + 1;
    char *text = malloc(cap);
    size_t used = 0;
    assert_non_null(text);
    text[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *sep = i ? "|" : "";
        if (nulls && i % 7 == 3) used += (size_t)snprintf(text + used, cap - used, "%s\\N", sep);
        else used += (size_t)snprintf(text + used, cap - used, "%s%u", sep, i);
    }
    et_input(type_name, text);
    free(text);
}

static const char *et_ev_error(const mu_err *err) {
    et_error_text(et.text, sizeof(et.text), mu_code_ch_name(err->code), err->message);
    et.type_name[0] = 0;
    return et.text;
}

const char *et_ev(const char *expr) {
    exec_builder b;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(exec_builder_init(&b, &et.ctx, et.arena, &err), 0);
    et_parser p = {.s = expr, .b = &b, .err = &err};
    exec_expr *e = NULL;
    const char *result;
    if (et_parse_expr(&p, &e) != 0) {
        result = et_ev_error(&err);
    } else {
        if (p.s[p.pos] != 0) fail_msg("trailing text in %s", expr);
        ty_type_name(e->type, et.type_name, sizeof(et.type_name));
        et.is_const = e->kind == EXEC_EXPR_CONST;
        ty_column *c = NULL;
        uint32_t rows = et.input_count ? et.rows : 1;
        if (exec_eval_full(e, &et.ctx, (const ty_column *const *)et.inputs, rows, &c, &err) != 0) {
            result = et_ev_error(&err);
        } else {
            assert_int_equal(ty_column_validate(c, &err), 0);
            assert_int_equal(c->row_count, rows);
            result = et_render(c);
        }
        ty_column_destroy(c);
    }
    exec_builder_deinit(&b);
    return result;
}

/* ---- q(): one call from a spec of argument letters ----------------------- */

#define ET_SPEC_SLOTS 8
#define ET_SPEC_SLOT_BYTES 4096
#define ET_SPEC_ARGS_MAX 16

static char et_spec_slots[ET_SPEC_SLOTS][ET_SPEC_SLOT_BYTES];
static unsigned et_spec_next;

/* The inputs and builder of one q() call. */
typedef struct et_spec_call {
    mu_arena *arena;
    exec_builder b;
    ty_column *inputs[ET_SPEC_ARGS_MAX];
    uint32_t input_count;
    uint32_t rows;
} et_spec_call;

/* Binds the argument of spec letter `letter`; columns become inputs. */
static void et_spec_arg(et_spec_call *call, char letter, va_list *ap, exec_expr **e) {
    mu_err err;
    int rc = 0;
    if (letter == 's') {
        const char *v = va_arg(*ap, const char *);
        rc = exec_expr_const_string(&call->b, v, strlen(v), e, &err);
    } else if (letter == 'b') {
        const char *v = va_arg(*ap, const char *);
        size_t n = va_arg(*ap, size_t);
        rc = exec_expr_const_string(&call->b, v, n, e, &err);
    } else if (letter == 'i') {
        rc = exec_expr_const_int(&call->b, va_arg(*ap, int64_t), e, &err);
    } else if (letter == 'u') {
        rc = exec_expr_const_uint(&call->b, va_arg(*ap, uint64_t), e, &err);
    } else if (letter == 'f') {
        rc = exec_expr_const_float(&call->b, va_arg(*ap, double), e, &err);
    } else if (letter == 'n') {
        rc = exec_expr_const_null(&call->b, e, &err);
    } else if (letter == 'k') {
        const char *type = va_arg(*ap, const char *);
        const char *text = va_arg(*ap, const char *);
        rc = exec_expr_const_take(&call->b, et_column_in(call->arena, type, text), e, &err);
    } else if (letter == 'c') {
        const char *type = va_arg(*ap, const char *);
        const char *text = va_arg(*ap, const char *);
        ty_column *c = et_column_in(call->arena, type, text);
        call->rows = ty_column_row_count(c);
        call->inputs[call->input_count] = c;
        rc = exec_expr_input(&call->b, call->input_count++, c->type, e, &err);
    } else {
        fail_msg("bad spec letter %c", letter);
    }
    assert_int_equal(rc, 0);
}

const char *et_call_spec(const char *fn, const char *spec, ...) {
    char *out = et_spec_slots[et_spec_next++ % ET_SPEC_SLOTS];
    et_spec_call call = {.rows = 1};
    mu_err err;
    assert_int_equal(mu_arena_create(&call.arena, NULL, 1 << 16, &err), 0);
    exec_context ctx = {.timezone = ty_tz_utc()};
    assert_int_equal(exec_builder_init(&call.b, &ctx, call.arena, &err), 0);
    exec_expr *args[ET_SPEC_ARGS_MAX];
    uint32_t argc = 0;
    va_list ap;
    va_start(ap, spec);
    for (const char *s = spec; *s; s++) {
        assert_true(argc < ET_SPEC_ARGS_MAX);
        et_spec_arg(&call, *s, &ap, &args[argc++]);
    }
    va_end(ap);
    exec_expr *e;
    ty_column *result = NULL;
    int rc = exec_expr_call(&call.b, fn, args, argc, &e, &err);
    if (rc == 0)
        rc = exec_eval_full(e, &ctx, (const ty_column *const *)call.inputs, call.rows, &result,
                            &err);
    if (rc != 0) {
        et_error_text(out, ET_SPEC_SLOT_BYTES, mu_code_name(rc), err.message);
    } else {
        ty_type_name(e->type, et.type_name, sizeof(et.type_name));
        assert_int_equal(ty_column_row_count(result), call.rows);
        assert_int_equal(ty_column_validate(result, &err), 0);
        mu_buf text;
        mu_buf_init(&text, 0);
        et_render_rows(result, call.rows, "|", et.render_hex, &text);
        snprintf(out, ET_SPEC_SLOT_BYTES, "%.*s", (int)text.length_bytes,
                 (const char *)text.data);
        mu_buf_deinit(&text);
    }
    ty_column_destroy(result);
    for (uint32_t i = 0; i < call.input_count; i++) ty_column_destroy(call.inputs[i]);
    exec_builder_deinit(&call.b);
    mu_arena_destroy(call.arena);
    return out;
}

/* ---- expressions on et.b ------------------------------------------------- */

#define ET_LAMBDA_ARGS_MAX 8

exec_expr *et_const_text(const char *type_name, const char *text, const char *null_text) {
    ty_column *c;
    exec_expr *e;
    mu_err err;
    assert_int_equal(ty_column_create(et_type(type_name), NULL, &c, &err), 0);
    et_append(c, text, null_text);
    assert_int_equal(exec_expr_const_take(&et.b, c, &e, &err), 0);
    return e;
}

exec_expr *et_const_uint(uint64_t v) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_uint(&et.b, v, &e, &err), 0);
    return e;
}

exec_expr *et_const_int(int64_t v) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_int(&et.b, v, &e, &err), 0);
    return e;
}

exec_expr *et_const_float(double v) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_float(&et.b, v, &e, &err), 0);
    return e;
}

exec_expr *et_const_string(const char *s) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_string(&et.b, s, strlen(s), &e, &err), 0);
    return e;
}

exec_expr *et_const_null(void) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_const_null(&et.b, &e, &err), 0);
    return e;
}

exec_expr *et_param(uint32_t index, const char *type_name) {
    exec_expr *e;
    mu_err err;
    assert_int_equal(exec_expr_input(&et.b, index, et_type(type_name), &e, &err), 0);
    return e;
}

exec_expr *et_input_values(const char *type_name, uint32_t n, const char *const *values) {
    exec_expr *e;
    mu_err err;
    assert_true(et.input_count < ET_INPUTS_MAX);
    ty_column *c = et_column_values(type_name, values, n, NULL);
    et.rows = n;
    et.inputs[et.input_count] = c;
    assert_int_equal(exec_expr_input(&et.b, et.input_count++, c->type, &e, &err), 0);
    return e;
}

int et_call_array(const char *name, exec_expr *const *args, uint32_t n, exec_expr **out,
                  mu_err *err) {
    exec_expr **copy = mu_arena_calloc(et.arena, n ? n : 1, sizeof(*copy), err);
    assert_non_null(copy);
    if (n) memcpy(copy, args, n * sizeof(*copy));
    mu_err_clear(err);
    return exec_expr_call(&et.b, name, copy, n, out, err);
}

exec_expr *et_call_array_ok(const char *name, exec_expr *const *args, uint32_t n) {
    exec_expr *e = NULL;
    mu_err err;
    if (et_call_array(name, args, n, &e, &err) != 0) fail_msg("%s: %s", name, err.message);
    return e;
}

/* name(n arguments from ap) with its failure in et.err. */
static int et_call_v(const char *name, uint32_t n, va_list ap, exec_expr **out) {
    exec_expr **args = mu_arena_calloc(et.arena, n ? n : 1, sizeof(*args), NULL);
    assert_non_null(args);
    for (uint32_t i = 0; i < n; i++) args[i] = va_arg(ap, exec_expr *);
    mu_err_clear(&et.err);
    return exec_expr_call(&et.b, name, args, n, out, &et.err);
}

exec_expr *et_call(const char *name, uint32_t n, ...) {
    va_list ap;
    va_start(ap, n);
    exec_expr *e = NULL;
    int rc = et_call_v(name, n, ap, &e);
    va_end(ap);
    if (rc != 0) fail_msg("%s: %s", name, et.err.message);
    return e;
}

int et_call_err(const char *name, uint32_t n, ...) {
    va_list ap;
    va_start(ap, n);
    exec_expr *e = NULL;
    int rc = et_call_v(name, n, ap, &e);
    va_end(ap);
    if (rc == 0) fail_msg("%s bound without an error", name);
    return rc;
}

/* name(body, np arrays, nc captures from ap) with its failure in et.err. */
static int et_lambda_v(const char *name, exec_expr *body, uint32_t np, uint32_t nc,
                       va_list ap, exec_expr **out) {
    exec_expr *arrays[ET_LAMBDA_ARGS_MAX], *captures[ET_LAMBDA_ARGS_MAX];
    assert_true(np <= ET_LAMBDA_ARGS_MAX);
    assert_true(nc <= ET_LAMBDA_ARGS_MAX);
    for (uint32_t i = 0; i < np; i++) arrays[i] = va_arg(ap, exec_expr *);
    for (uint32_t i = 0; i < nc; i++) captures[i] = va_arg(ap, exec_expr *);
    mu_err_clear(&et.err);
    return exec_expr_call_lambda(&et.b, name, body, np, arrays, captures, nc, out, &et.err);
}

exec_expr *et_lambda(const char *name, exec_expr *body, uint32_t np, uint32_t nc, ...) {
    va_list ap;
    va_start(ap, nc);
    exec_expr *e = NULL;
    int rc = et_lambda_v(name, body, np, nc, ap, &e);
    va_end(ap);
    if (rc != 0) fail_msg("%s: %s", name, et.err.message);
    return e;
}

int et_lambda_err(const char *name, exec_expr *body, uint32_t np, uint32_t nc, ...) {
    va_list ap;
    va_start(ap, nc);
    exec_expr *e = NULL;
    int rc = et_lambda_v(name, body, np, nc, ap, &e);
    va_end(ap);
    if (rc == 0) fail_msg("%s bound without an error", name);
    return rc;
}

const char *et_eval(const exec_expr *e) {
    ty_column *c;
    mu_err err;
    uint32_t rows = e->kind == EXEC_EXPR_CONST ? 1 : et.rows;
    if (exec_eval_full(e, &et.ctx, (const ty_column *const *)et.inputs, rows, &c, &err) != 0)
        fail_msg("eval: %s", err.message);
    assert_int_equal(ty_column_validate(c, &err), 0);
    const char *text = et_render_typed(e->type, c);
    ty_column_destroy(c);
    return text;
}

int et_eval_err(const exec_expr *e) {
    ty_column *c = NULL;
    mu_err_clear(&et.err);
    int rc = exec_eval_full(e, &et.ctx, (const ty_column *const *)et.inputs, et.rows, &c,
                            &et.err);
    ty_column_destroy(c);
    if (rc == 0) fail_msg("evaluation succeeded");
    return rc;
}

/* ---- dates: constants folded at bind time, columns passed in ------------- */

const char *et_type_text(const exec_expr *e) {
    static char text[256];
    return ty_type_name(e->type, text, sizeof(text));
}

const char *et_text(const exec_expr *e) {
    static char text[4096];
    ty_column *c;
    mu_err err;
    if (exec_eval_full(e, &et.ctx, NULL, 1, &c, &err) != 0) fail_msg("eval: %s", err.message);
    snprintf(text, sizeof(text), "%s", et_render_row(c, 0));
    ty_column_destroy(c);
    return text;
}

const char *et_rows(const exec_expr *e, const ty_column *const *inputs, uint32_t rows) {
    static char text[8192];
    ty_column *c;
    mu_err err;
    mu_buf b;
    if (exec_eval_full(e, &et.ctx, inputs, rows, &c, &err) != 0) fail_msg("eval: %s", err.message);
    mu_buf_init(&b, 0);
    et_render_rows(c, rows, "|", false, &b);
    ty_column_destroy(c);
    return et_take_text(&b, text, sizeof(text));
}

int et_rows_error(const exec_expr *e, const ty_column *const *inputs, uint32_t rows,
                  mu_err *err) {
    ty_column *c = NULL;
    int rc = exec_eval_full(e, &et.ctx, inputs, rows, &c, err);
    ty_column_destroy(c);
    return rc;
}

void et_expect_call_error(const char *name, exec_expr *const *args, uint32_t n, int code,
                          const char *fragment, int line) {
    exec_expr *e = NULL;
    mu_err err;
    int rc = et_call_array(name, args, n, &e, &err);
    if (rc == 0) fail_msg("line %d: %s succeeded, wanted code %d", line, name, code);
    if (rc != code)
        fail_msg("line %d: %s: code %d (%s), wanted %d", line, name, rc, err.message, code);
    if (strstr(err.message, fragment) == NULL)
        fail_msg("line %d: %s: message \"%s\" lacks \"%s\"", line, name, err.message, fragment);
}

/* ---- aggregates ---------------------------------------------------------- */

int et_agg_setup(void **state) {
    memset(&et_agg, 0, sizeof(et_agg));
    return et_setup(state);
}

void et_agg_reset(void) {
    for (uint32_t i = 0; i < et_agg.count; i++) ty_column_destroy(et_agg.cols[i]);
    for (uint32_t i = 0; i < et_agg.param_count; i++) ty_column_destroy(et_agg.params[i]);
    et_agg.count = et_agg.param_count = 0;
    et_agg.rows = 0;
    et_agg.rows_set = et_agg.loose = et_agg.sketch = false;
}

int et_agg_teardown(void **state) {
    et_agg_reset();
    return et_teardown(state);
}

static void et_agg_add(ty_column *c, bool is_const) {
    assert_true(et_agg.count < ET_AGG_MAX);
    if (!is_const) {
        if (et_agg.rows_set) assert_int_equal(et_agg.rows, c->row_count);
        et_agg.rows = c->row_count;
        et_agg.rows_set = true;
    }
    et_agg.cols[et_agg.count] = c;
    et_agg.is_const[et_agg.count++] = is_const;
}

void et_agg_col(const char *type_name, const char *rows) {
    et_agg_add(et_column_in(NULL, type_name, rows), false);
}

void et_agg_const(const char *type_name, const char *text) {
    et_agg_add(et_column_in(NULL, type_name, text), true);
}

void et_agg_param(const char *type_name, const char *text) {
    assert_true(et_agg.param_count < ET_AGG_MAX);
    et_agg.params[et_agg.param_count++] = et_column_in(NULL, type_name, text);
}

void et_agg_set_rows(uint32_t rows) {
    et_agg.rows = rows;
    et_agg.rows_set = true;
}

void et_agg_col_gen(const char *type_name, uint32_t n, const char *(*text)(uint32_t i)) {
    ty_column *c = et_column_in(NULL, type_name, NULL);
    for (uint32_t i = 0; i < n; i++) et_append(c, text(i), "\\N");
    et_agg_add(c, false);
}

const char *et_agg_gen_number(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", i + 1);
    return text;
}

static void *et_agg_state_new(const exec_agg *g) {
    size_t bytes = (g->state_bytes + 15u) & ~(size_t)15u;
    void *s = aligned_alloc(16, bytes);
    assert_non_null(s);
    g->init(g, s);
    return s;
}

static void et_agg_state_free(const exec_agg *g, void *s) {
    if (g->destroy) g->destroy(g, s);
    free(s);
}

/* Arguments over rows [from, from + n) (constants stay constants). */
static void et_agg_args(exec_arg *args, ty_column **owned, uint32_t from, uint32_t n) {
    mu_err err;
    for (uint32_t i = 0; i < et_agg.count; i++) {
        owned[i] = NULL;
        args[i].is_const = et_agg.is_const[i];
        if (et_agg.is_const[i] || (from == 0 && n == et_agg.rows)) {
            args[i].column = et_agg.cols[i];
            continue;
        }
        assert_int_equal(ty_column_create(et_agg.cols[i]->type, NULL, &owned[i], &err), 0);
        assert_int_equal(ty_column_append_rows_from(owned[i], et_agg.cols[i], from, n, &err), 0);
        args[i].column = owned[i];
    }
}

static void et_agg_args_free(ty_column **owned) {
    for (uint32_t i = 0; i < et_agg.count; i++) ty_column_destroy(owned[i]);
}

static void et_agg_update_all(const exec_agg *g, void *s, uint32_t from, uint32_t n) {
    exec_arg args[ET_AGG_MAX];
    ty_column *owned[ET_AGG_MAX];
    mu_err err;
    et_agg_args(args, owned, from, n);
    if (g->update_all(g, s, args, n, &err) != 0) fail_msg("update_all: %s", err.message);
    et_agg_args_free(owned);
}

static void et_agg_update_rows(const exec_agg *g, void *s, uint32_t from, uint32_t n) {
    exec_arg args[ET_AGG_MAX];
    ty_column *owned[ET_AGG_MAX];
    mu_err err;
    void **states = calloc(n ? n : 1, sizeof(*states));
    assert_non_null(states);
    for (uint32_t r = 0; r < n; r++) states[r] = s;
    et_agg_args(args, owned, from, n);
    if (g->update(g, states, args, n, &err) != 0) fail_msg("update: %s", err.message);
    et_agg_args_free(owned);
    free(states);
}

static char *et_agg_finalize(const exec_agg *g, void *s) {
    ty_column *out;
    mu_err err;
    mu_buf b;
    assert_int_equal(ty_column_create(g->result_type, NULL, &out, &err), 0);
    if (g->finalize(g, s, out, &err) != 0) fail_msg("finalize: %s", err.message);
    assert_int_equal(out->row_count, 1);
    assert_int_equal(ty_column_validate(out, &err), 0);
    mu_buf_init(&b, 0);
    assert_int_equal(ty_column_render_text(out, 0, 0, &b, &err), 0);
    char *text = mu_arena_strndup(et.arena, (const char *)b.data, b.length_bytes, &err);
    assert_non_null(text);
    mu_buf_deinit(&b);
    ty_column_destroy(out);
    return text;
}

static bool et_agg_same(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return true;
    if (!et_agg.loose) return false;
    char *end_a, *end_b;
    double x = strtod(a, &end_a), y = strtod(b, &end_b);
    if (*end_a || *end_b) return false;
    return fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

/* Damaged bytes: rejected, or read as some state that finalizes without
 * crashing (the sanitizer build checks memory). */
static void et_agg_damage(const exec_agg *g, mu_buf *a) {
    mu_err err;
    size_t used = 0;
    for (size_t n = 0; a->length_bytes <= 4096 && n < a->length_bytes; n++) {
        void *t = et_agg_state_new(g);
        ty_column *out;
        a->data[n] ^= 0xA5;
        if (g->deserialize(g, t, a->data, a->length_bytes, &used, &err) == 0) {
            assert_true(used <= a->length_bytes);
            assert_int_equal(ty_column_create(g->result_type, NULL, &out, &err), 0);
            (void)g->finalize(g, t, out, &err);
            ty_column_destroy(out);
        }
        a->data[n] ^= 0xA5;
        et_agg_state_free(g, t);
    }
}

/* Serializes s, checks every strict prefix is rejected and damaged bytes
 * are survived, deserializes into a new state and checks it serializes to
 * the same bytes. */
static void *et_agg_round_trip(const exec_agg *g, const void *s) {
    mu_buf a, b;
    mu_err err;
    size_t used = 0;
    mu_buf_init(&a, 0);
    mu_buf_init(&b, 0);
    if (g->serialize(g, s, &a, &err) != 0) fail_msg("serialize: %s", err.message);
    size_t step = a.length_bytes > 4096 ? a.length_bytes / 97 + 1 : 1;
    for (size_t n = 0; n < a.length_bytes; n += step) {
        void *t = et_agg_state_new(g);
        if (g->deserialize(g, t, a.data, n, &used, &err) == 0)
            fail_msg("a %zu-byte prefix of a %zu-byte state was accepted", n, a.length_bytes);
        et_agg_state_free(g, t);
    }
    et_agg_damage(g, &a);
    void *d = et_agg_state_new(g);
    if (g->deserialize(g, d, a.data, a.length_bytes, &used, &err) != 0)
        fail_msg("deserialize: %s", err.message);
    assert_int_equal(used, a.length_bytes);
    assert_int_equal(g->serialize(g, d, &b, &err), 0);
    assert_int_equal(a.length_bytes, b.length_bytes);
    assert_memory_equal(a.data, b.data, a.length_bytes);
    mu_buf_deinit(&a);
    mu_buf_deinit(&b);
    return d;
}

/* Runs g by every path and fails unless they finalize to the same text;
 * returns the text of update_all. */
static const char *et_agg_run_paths(const char *name, const exec_agg *g) {
    static const char *const paths[5] = {"update_all", "update", "merged halves",
                                         "round trip", "merged into empty"};
    mu_err err;
    uint32_t rows = et_agg.rows, half = rows / 2;
    void *s_all = et_agg_state_new(g), *s_rows = et_agg_state_new(g);
    void *s_left = et_agg_state_new(g), *s_right = et_agg_state_new(g);
    void *s_empty = et_agg_state_new(g);
    et_agg_update_all(g, s_all, 0, rows);
    et_agg_update_rows(g, s_rows, 0, rows);
    et_agg_update_all(g, s_left, 0, half);
    et_agg_update_rows(g, s_right, half, rows - half);
    assert_int_equal(g->merge(g, s_left, s_right, &err), 0);
    void *s_copy = et_agg_round_trip(g, s_all);
    assert_int_equal(g->merge(g, s_empty, s_copy, &err), 0);
    const char *texts[5] = {et_agg_finalize(g, s_all), et_agg_finalize(g, s_rows),
                            et_agg_finalize(g, s_left), et_agg_finalize(g, s_copy),
                            et_agg_finalize(g, s_empty)};
    for (int i = 1; i < 5; i++)
        if (!(et_agg.sketch && i == 2) && !et_agg_same(texts[0], texts[i]))
            fail_msg("%s: %s gives %s, %s gives %s", name, paths[0], texts[0], paths[i],
                     texts[i]);
    et_agg_state_free(g, s_all);
    et_agg_state_free(g, s_rows);
    et_agg_state_free(g, s_left);
    et_agg_state_free(g, s_right);
    et_agg_state_free(g, s_copy);
    et_agg_state_free(g, s_empty);
    return texts[0];
}

const char *et_agg_run(const char *name) {
    static char out[1 << 20];
    exec_agg g;
    mu_err err;
    const ty_type *types[ET_AGG_MAX];
    mu_err_clear(&err);
    for (uint32_t i = 0; i < et_agg.count; i++) types[i] = et_agg.cols[i]->type;
    if (exec_agg_bind(&et.ctx, et.arena, name, types, et_agg.count,
                      (const ty_column *const *)et_agg.params, et_agg.param_count, &g,
                      &err) != 0) {
        et_error_text(out, sizeof(out), mu_code_name(err.code), err.message);
        et_agg.type_name[0] = 0;
        return out;
    }
    ty_type_name(g.result_type, et_agg.type_name, sizeof(et_agg.type_name));
    snprintf(out, sizeof(out), "%s", et_agg_run_paths(name, &g));
    return out;
}

double et_agg_number(const char *name) {
    const char *got = et_agg_run(name);
    char *end;
    double v = strtod(got, &end);
    if (*end != 0) fail_msg("%s: %s is not a number", name, got);
    et_agg_reset();
    return v;
}
