/* fn_regex.c: ClickHouse's regular-expression functions on PCRE2: match,
 * extract, extractAll, regexpExtract, replaceRegexpOne, replaceRegexpAll,
 * countMatches[CaseInsensitive].
 *
 * ClickHouse uses RE2; PCRE2 is compiled here to behave like it: UTF-8
 * (subjects may hold invalid UTF-8, which never matches a character class),
 * '.' matches '\n' (ClickHouse sets RE2's dot_nl), and '$' matches only at
 * the very end (RE2 has no "before a final newline"). Remaining differences,
 * all about patterns RE2 rejects or treats differently:
 *   - PCRE2 accepts back-references, lookaround, possessive quantifiers,
 *     atomic groups, recursion and \Z, which RE2 refuses to compile;
 *   - PCRE2 backtracks: a pathological pattern can hit PCRE2's match limit
 *     (an error here) where RE2 runs in linear time;
 *   - \pN and POSIX classes follow PCRE2's Unicode tables, not RE2's;
 *   - after an empty match the replace functions step one code point, where
 *     ClickHouse steps one byte and can cut a UTF-8 sequence in two.
 * Compiled patterns live in a small per-thread cache (with JIT code), so a
 * constant pattern is compiled once per thread and a column of patterns
 * reuses the compiled form of repeated values. Bind compiles once more to
 * report a bad pattern before any row is read.
 */
#include "exec/exec_int.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define REGEX_OPTIONS (PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY)
#define REGEX_CACHE_ENTRIES 16          /* compiled patterns kept per thread */
#define REGEX_CACHE_PATTERN_BYTES_MAX 4096 /* longer patterns are compiled per call */
#define REGEX_SUBSTITUTIONS_MAX 10      /* \0 .. \9, as ClickHouse's max_captures_re2 */

/* ------------------------------------------------------------------ */
/* Compilation and the per-thread cache                                */
/* ------------------------------------------------------------------ */

typedef struct regex_entry {
    uint8_t *pattern;
    size_t pattern_bytes;
    pcre2_code *code;
    pcre2_match_data *match;
    uint32_t captures; /* capturing groups, not counting the whole match */
} regex_entry;

typedef struct regex_cache {
    regex_entry entries[REGEX_CACHE_ENTRIES];
    unsigned next_victim;
} regex_cache;

static pthread_key_t regex_cache_key;
static pthread_once_t regex_cache_once = PTHREAD_ONCE_INIT;
static bool regex_cache_key_ok;

static void regex_entry_clear(regex_entry *e) {
    pcre2_match_data_free(e->match);
    pcre2_code_free(e->code);
    free(e->pattern);
    memset(e, 0, sizeof(*e));
}

/* Runs at thread exit: the cache is private to its thread. */
static void regex_cache_destroy(void *p) {
    regex_cache *cache = p;
    for (unsigned i = 0; i < REGEX_CACHE_ENTRIES; i++) regex_entry_clear(&cache->entries[i]);
    free(cache);
}

static void regex_cache_key_create(void) {
    regex_cache_key_ok = pthread_key_create(&regex_cache_key, regex_cache_destroy) == 0;
}

static regex_cache *regex_cache_get(void) {
    pthread_once(&regex_cache_once, regex_cache_key_create);
    if (!regex_cache_key_ok) return NULL;
    regex_cache *cache = pthread_getspecific(regex_cache_key);
    if (cache != NULL) return cache;
    cache = calloc(1, sizeof(*cache));
    if (cache != NULL && pthread_setspecific(regex_cache_key, cache) != 0) {
        free(cache);
        cache = NULL;
    }
    return cache;
}

/* Compiles pattern p[0..n) (no JIT); a bad pattern is MU_EINVAL with PCRE2's
 * message, worded like ClickHouse's OptimizedRegularExpression error. */
static int regex_compile(const exec_call *call, const uint8_t *p, size_t n, pcre2_code **out,
                         mu_err *err) {
    int code;
    PCRE2_SIZE offset;
    *out = pcre2_compile((PCRE2_SPTR)(n ? (const char *)p : ""), n, REGEX_OPTIONS, &code, &offset,
                         NULL);
    if (*out != NULL) return 0;
    if (code == PCRE2_ERROR_NOMEMORY)
        return MU_ERR(err, MU_ENOMEM, "out of memory compiling a regexp of function %s",
                      call->function->name);
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code, message, sizeof(message));
    return MU_ERR(err, MU_EREGEXP,
                  "OptimizedRegularExpression: cannot compile re2: %.*s, error: %s at offset %zu "
                  "(function %s). Look at https://github.com/google/re2/wiki/Syntax for reference",
                  (int)MU_MIN(n, 300), (const char *)p, (const char *)message, (size_t)offset,
                  call->function->name);
}

static int regex_entry_fill(const exec_call *call, regex_entry *e, const uint8_t *p, size_t n,
                            mu_err *err) {
    int rc = regex_compile(call, p, n, &e->code, err);
    if (rc != 0) return rc;
    (void)pcre2_jit_compile(e->code, PCRE2_JIT_COMPLETE); /* without JIT: interpreted */
    uint32_t captures = 0;
    pcre2_pattern_info(e->code, PCRE2_INFO_CAPTURECOUNT, &captures);
    e->captures = captures;
    e->match = pcre2_match_data_create_from_pattern(e->code, NULL);
    e->pattern = malloc(n ? n : 1);
    if (e->match == NULL || e->pattern == NULL) {
        regex_entry_clear(e);
        return MU_ERR(err, MU_ENOMEM, "out of memory compiling a regexp of function %s",
                      call->function->name);
    }
    if (n > 0) memcpy(e->pattern, p, n);
    e->pattern_bytes = n;
    return 0;
}

/* A compiled form of p for this thread: from the cache, or compiled into
 * `spare` (which the caller clears) when the cache cannot hold it. */
static int regex_lookup(const exec_call *call, const uint8_t *p, size_t n, regex_entry *spare,
                        regex_entry **out, mu_err *err) {
    regex_cache *cache = n <= REGEX_CACHE_PATTERN_BYTES_MAX ? regex_cache_get() : NULL;
    if (cache == NULL) {
        regex_entry_clear(spare);
        *out = spare;
        return regex_entry_fill(call, spare, p, n, err);
    }
    for (unsigned i = 0; i < REGEX_CACHE_ENTRIES; i++) {
        regex_entry *e = &cache->entries[i];
        if (e->code != NULL && e->pattern_bytes == n && (n == 0 || memcmp(e->pattern, p, n) == 0)) {
            *out = e;
            return 0;
        }
    }
    regex_entry *victim = &cache->entries[cache->next_victim];
    cache->next_victim = (cache->next_victim + 1) % REGEX_CACHE_ENTRIES;
    regex_entry_clear(victim);
    *out = victim;
    return regex_entry_fill(call, victim, p, n, err);
}

/* Runs e on s[0..n) from byte `from`; true on a match (ovector filled). */
static int regex_run(const exec_call *call, regex_entry *e, const uint8_t *s, size_t n,
                     size_t from, bool *matched, mu_err *err) {
    MU_ASSERT(e->code != NULL && e->match != NULL);
    MU_ASSERT(from <= n);
    PCRE2_SPTR subject = (PCRE2_SPTR)(n ? (const char *)s : "");
    int rc = pcre2_match(e->code, subject, n, from, 0, e->match, NULL);
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT) /* the interpreter has no such small stack */
        rc = pcre2_match(e->code, subject, n, from, PCRE2_NO_JIT, e->match, NULL);
    *matched = rc >= 0;
    if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) return 0;
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(rc, message, sizeof(message));
    return MU_ERR(err, MU_EINVAL, "regexp match failed in function %s: %s", call->function->name,
                  (const char *)message);
}

/* Per-kernel access to the pattern of row i, recompiling only on change. */
typedef struct regex_cursor {
    const exec_call *call;
    const exec_arg *arg;
    regex_entry spare;
    regex_entry *current;
    const uint8_t *last;
    size_t last_bytes;
} regex_cursor;

static int regex_cursor_at(regex_cursor *c, uint32_t i, regex_entry **out, mu_err *err) {
    size_t n;
    const uint8_t *p = ty_column_row_bytes(c->arg->column, exec_arg_row(c->arg, i), &n);
    bool same = c->current != NULL && n == c->last_bytes &&
                (p == c->last || n == 0 || memcmp(p, c->last, n) == 0);
    if (!same) {
        c->current = NULL;
        int rc = regex_lookup(c->call, p, n, &c->spare, &c->current, err);
        if (rc != 0) return rc;
        c->last = p;
        c->last_bytes = n;
    }
    *out = c->current;
    return 0;
}

static void regex_cursor_deinit(regex_cursor *c) { regex_entry_clear(&c->spare); }

/* Checks at bind that a constant pattern compiles; *captures_out gets its
 * group count (0 for a column of patterns). */
static int regex_check_const(const exec_call *call, uint32_t index, uint32_t *captures_out,
                             mu_err *err) {
    const char *p;
    size_t n;
    *captures_out = 0;
    if (!exec__const_string(call, index, &p, &n)) return 0;
    pcre2_code *code;
    int rc = regex_compile(call, (const uint8_t *)p, n, &code, err);
    if (rc != 0) return rc;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, captures_out);
    pcre2_code_free(code);
    return 0;
}

/* Haystack (String, or FixedString if fixed_ok), pattern String, then a
 * String replacement or (index_third) an integer group index. */
static int regex_check_args(const exec_call *call, uint32_t min, uint32_t max, bool fixed_ok,
                            bool index_third, mu_err *err) {
    int rc = exec__check_arg_count(call, min, max, err);
    if (rc != 0) return rc;
    const ty_type *h = call->arg_types[0];
    if (h->kind != TY_STRING && !(fixed_ok && h->kind == TY_FIXED_STRING))
        return exec__error_arg_type(call, 0, err);
    for (uint32_t i = 1; i < call->arg_count; i++) {
        const ty_type *t = call->arg_types[i];
        bool ok = i == 2 && index_third ? exec_type_is_integer(t)
                                        : t->kind == TY_STRING || t->kind == TY_FIXED_STRING;
        if (!ok) return exec__error_arg_type(call, i, err);
    }
    return 0;
}

static const uint8_t *regex_row(const exec_arg *a, uint32_t i, size_t *n) {
    return ty_column_row_bytes(a->column, exec_arg_row(a, i), n);
}

/* ------------------------------------------------------------------ */
/* match                                                               */
/* ------------------------------------------------------------------ */

static int match_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                        ty_column *out, mu_err *err) {
    uint8_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    regex_cursor cur = {.call = call, .arg = &args[1]};
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        regex_entry *e;
        size_t n;
        const uint8_t *s = regex_row(&args[0], i, &n);
        bool matched = false;
        rc = regex_cursor_at(&cur, i, &e, err);
        if (rc == 0) rc = regex_run(call, e, s, n, 0, &matched, err);
        dst[i] = matched;
    }
    regex_cursor_deinit(&cur);
    return rc;
}

static int match_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    uint32_t captures;
    int rc = regex_check_args(call, 2, 2, true, false, err);
    if (rc == 0) rc = regex_check_const(call, 1, &captures, err);
    if (rc != 0) return rc;
    call->kernel = match_kernel;
    call->result_type = ty_type_builtin(TY_UINT8);
    return 0;
}

/* ------------------------------------------------------------------ */
/* extract, regexpExtract, extractAll                                  */
/* ------------------------------------------------------------------ */

/* extract: group 1 if the pattern has groups, else the whole match;
 * regexpExtract: the group of argument 3 (default 1), which must exist. */
static int extract_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                          ty_column *out, mu_err *err) {
    bool by_index = call->state != NULL;
    regex_cursor cur = {.call = call, .arg = &args[1]};
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        regex_entry *e;
        size_t n;
        const uint8_t *s = regex_row(&args[0], i, &n);
        bool matched = false;
        rc = regex_cursor_at(&cur, i, &e, err);
        if (rc != 0) break;
        int64_t group = e->captures > 0 ? 1 : 0;
        if (by_index) {
            group = 1;
            if (call->arg_count == 3)
                group = exec_get_i64(args[2].column, exec_arg_row(&args[2], i));
            if ((group < 0 || group > (int64_t)e->captures) && !exec_arg_is_null_row(&args[0], i)) {
                rc = MU_ERR(err, MU_EOUT_OF_BOUND, "Index value %lld is out of range, should be in "
                            "[0, %u)", (long long)group, e->captures + 1);
                break;
            }
            if (group < 0 || group > (int64_t)e->captures) group = 0;
        }
        rc = regex_run(call, e, s, n, 0, &matched, err);
        const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->match);
        const uint8_t *b = s;
        size_t len = 0;
        if (rc == 0 && matched && ov[2 * group] != PCRE2_UNSET) {
            b = s + ov[2 * group];
            len = ov[2 * group + 1] - ov[2 * group];
        }
        if (rc == 0) rc = ty_column_append_bytes(out, b, len, err);
    }
    regex_cursor_deinit(&cur);
    return rc;
}

static int extract_bind_common(exec_call *call, bool by_index, mu_err *err) {
    uint32_t captures;
    int rc = regex_check_args(call, 2, by_index ? 3 : 2, true, by_index, err);
    if (rc == 0) rc = regex_check_const(call, 1, &captures, err);
    const char *pattern;
    size_t pattern_bytes;
    int64_t index = 1;
    bool known = exec__const_string(call, 1, &pattern, &pattern_bytes) &&
                 (call->arg_count < 3 || exec__const_i64(call, 2, &index));
    if (rc == 0 && by_index && known && (index < 0 || index > (int64_t)captures))
        rc = MU_ERR(err, MU_EOUT_OF_BOUND, "Index value %lld is out of range, should be in [0, %u)",
                    (long long)index, captures + 1);
    if (rc != 0) return rc;
    call->kernel = extract_kernel;
    call->state = by_index ? (void *)call : NULL;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int extract_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return extract_bind_common(call, false, err);
}

static int regexp_extract_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return extract_bind_common(call, true, err);
}

/* All matches from left to right (group 1 if any, else the whole match);
 * stops at the first empty whole match, as ClickHouse does. */
static int extract_all_row(const exec_call *call, regex_entry *e, const uint8_t *s, size_t n,
                           ty_column *dst, mu_err *err) {
    size_t pos = 0;
    uint32_t group = e->captures > 0 ? 1 : 0;
    int rc = 0;
    while (pos <= n && rc == 0) {
        bool matched;
        rc = regex_run(call, e, s, n, pos, &matched, err);
        if (rc != 0 || !matched) break;
        const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->match);
        if (ov[1] == ov[0]) break;
        size_t b = ov[2 * group] == PCRE2_UNSET ? pos : ov[2 * group];
        size_t len = ov[2 * group] == PCRE2_UNSET ? 0 : ov[2 * group + 1] - ov[2 * group];
        rc = ty_column_append_bytes(dst, s + b, len, err);
        pos = ov[1];
    }
    return rc;
}

static int extract_all_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err) {
    regex_cursor cur = {.call = call, .arg = &args[1]};
    ty_column *dst = ty_column_child_mut(out, 0);
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        regex_entry *e;
        size_t n;
        const uint8_t *s = regex_row(&args[0], i, &n);
        rc = regex_cursor_at(&cur, i, &e, err);
        if (rc == 0) rc = extract_all_row(call, e, s, n, dst, err);
        if (rc == 0) rc = ty_column_append_nested_end(out, err);
    }
    regex_cursor_deinit(&cur);
    return rc;
}

static int extract_all_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    uint32_t captures;
    int rc = regex_check_args(call, 2, 2, false, false, err);
    if (rc == 0) rc = regex_check_const(call, 1, &captures, err);
    if (rc != 0) return rc;
    ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
    if (t == NULL) return err->code;
    t->kind = TY_ARRAY;
    t->child = ty_type_builtin(TY_STRING);
    call->kernel = extract_all_kernel;
    call->result_type = t;
    return 0;
}

/* ------------------------------------------------------------------ */
/* replaceRegexpOne, replaceRegexpAll                                  */
/*
 * The replacement is a sequence of literals and substitutions: \0-\9 put
 * the whole match or a group (an unset group puts nothing), a backslash
 * before any other byte keeps that byte, a trailing backslash stays.
 */
/* ------------------------------------------------------------------ */

typedef struct replace_program {
    mu_buf literal;  /* all literal bytes */
    mu_buf steps;    /* per step: u8 group (0xFF = literal) + u32 offset + u32 length */
    int max_group;   /* highest \N used, -1 if none */
} replace_program;

static int replace_step(replace_program *pg, uint8_t group, size_t from, size_t len,
                        mu_err *err) {
    uint8_t step[9];
    step[0] = group;
    mu_store_u32le(step + 1, (uint32_t)from);
    mu_store_u32le(step + 5, (uint32_t)len);
    return mu_buf_append(&pg->steps, step, sizeof(step), err);
}

static int replace_parse(const uint8_t *r, size_t n, replace_program *pg, mu_err *err) {
    mu_buf_clear(&pg->literal);
    mu_buf_clear(&pg->steps);
    pg->max_group = -1;
    size_t run = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (r[i] == '\\' && i + 1 < n) {
            if (r[i + 1] >= '0' && r[i + 1] <= '9') {
                if (pg->literal.length_bytes > run)
                    rc = replace_step(pg, 0xFF, run, pg->literal.length_bytes - run, err);
                run = pg->literal.length_bytes;
                if (rc == 0) rc = replace_step(pg, (uint8_t)(r[i + 1] - '0'), 0, 0, err);
                pg->max_group = MU_MAX(pg->max_group, r[i + 1] - '0');
            } else {
                rc = mu_buf_append_u8(&pg->literal, r[i + 1], err);
            }
            i++;
        } else {
            rc = mu_buf_append_u8(&pg->literal, r[i], err);
        }
    }
    if (rc == 0 && pg->literal.length_bytes > run)
        rc = replace_step(pg, 0xFF, run, pg->literal.length_bytes - run, err);
    return rc;
}

static int replace_emit(const replace_program *pg, const uint8_t *s, const PCRE2_SIZE *ov,
                        mu_buf *out, mu_err *err) {
    int rc = 0;
    for (size_t k = 0; k + 9 <= pg->steps.length_bytes && rc == 0; k += 9) {
        const uint8_t *step = pg->steps.data + k;
        if (step[0] == 0xFF) {
            rc = mu_buf_append(out, pg->literal.data + mu_load_u32le(step + 1),
                               mu_load_u32le(step + 5), err);
        } else if (ov[2 * step[0]] != PCRE2_UNSET) {
            const PCRE2_SIZE *g = ov + 2 * step[0];
            rc = mu_buf_append(out, s + g[0], g[1] - g[0], err);
        }
    }
    return rc;
}

static int replace_row(const exec_call *call, regex_entry *e, const replace_program *pg,
                       bool all, const uint8_t *s, size_t n, mu_buf *out, mu_err *err) {
    size_t copy_pos = 0, match_pos = 0;
    int rc = 0;
    while (match_pos < n && rc == 0) {
        bool matched, finish = false;
        rc = regex_run(call, e, s, n, match_pos, &matched, err);
        if (rc != 0) break;
        if (matched) {
            const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->match);
            rc = mu_buf_append(out, s + copy_pos, ov[0] - copy_pos, err);
            copy_pos = match_pos = ov[1];
            if (rc == 0) rc = replace_emit(pg, s, ov, out, err);
            finish = !all;
            if (ov[0] == ov[1]) { /* step over one code point, never into one */
                uint8_t lead = s[match_pos];
                size_t step = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
                match_pos += MU_MIN(step, n - match_pos);
                finish = finish || match_pos >= n;
            }
        } else {
            finish = true;
        }
        if (finish) match_pos = n;
    }
    if (rc == 0) rc = mu_buf_append(out, s + copy_pos, n - copy_pos, err);
    return rc;
}

static int replace_regexp_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                 ty_column *out, mu_err *err) {
    bool all = call->state != NULL;
    regex_cursor cur = {.call = call, .arg = &args[1]};
    replace_program pg;
    mu_buf_init(&pg.literal, 0);
    mu_buf_init(&pg.steps, 0);
    mu_buf buf;
    mu_buf_init(&buf, 0);
    const uint8_t *last = NULL;
    size_t last_n = 0;
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        regex_entry *e;
        size_t n, rn;
        const uint8_t *s = regex_row(&args[0], i, &n);
        const uint8_t *r = regex_row(&args[2], i, &rn);
        rc = regex_cursor_at(&cur, i, &e, err);
        if (rc == 0 && (last == NULL || rn != last_n || (rn > 0 && memcmp(r, last, rn) != 0))) {
            rc = replace_parse(r, rn, &pg, err);
            last = r;
            last_n = rn;
        }
        if (rc == 0 && pg.max_group > (int)MU_MIN(e->captures, REGEX_SUBSTITUTIONS_MAX - 1) &&
            !exec_arg_is_null_row(&args[0], i))
            rc = MU_ERR(err, MU_EINVAL, "Id %d in replacement string is an invalid substitution, "
                        "regexp has only %u capturing groups", pg.max_group,
                        (unsigned)MU_MIN(e->captures, REGEX_SUBSTITUTIONS_MAX - 1));
        mu_buf_clear(&buf);
        if (rc == 0 && pg.max_group <= (int)e->captures)
            rc = replace_row(call, e, &pg, all, s, n, &buf, err);
        if (rc == 0) rc = ty_column_append_bytes(out, buf.data, buf.length_bytes, err);
    }
    regex_cursor_deinit(&cur);
    mu_buf_deinit(&pg.literal);
    mu_buf_deinit(&pg.steps);
    mu_buf_deinit(&buf);
    return rc;
}

static int replace_regexp_bind_common(exec_call *call, bool all, mu_err *err) {
    uint32_t captures;
    int rc = regex_check_args(call, 3, 3, true, false, err);
    if (rc == 0) rc = regex_check_const(call, 1, &captures, err);
    if (rc != 0) return rc;
    call->kernel = replace_regexp_kernel;
    call->state = all ? (void *)call : NULL;
    call->result_type = ty_type_builtin(TY_STRING);
    return 0;
}

static int replace_regexp_one_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return replace_regexp_bind_common(call, false, err);
}

static int replace_regexp_all_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return replace_regexp_bind_common(call, true, err);
}

/* ------------------------------------------------------------------ */
/* countMatches, countMatchesCaseInsensitive                           */
/*
 * Non-overlapping matches from left to right; each search runs on the
 * rest of the subject as a new subject (so ^ matches where it starts, as
 * ClickHouse passes the remaining range to RE2), and an empty match ends
 * the count. The pattern must be a constant; the case-insensitive variant
 * compiles it behind (?i), RE2's flag syntax.
 */
/* ------------------------------------------------------------------ */

typedef struct count_matches_state {
    const uint8_t *pattern;
    size_t pattern_bytes;
} count_matches_state;

static int count_matches_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                                ty_column *out, mu_err *err) {
    const count_matches_state *st = call->state;
    uint64_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    regex_entry spare = {0}, *e = NULL;
    rc = regex_lookup(call, st->pattern, st->pattern_bytes, &spare, &e, err);
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n, pos = 0;
        const uint8_t *s = regex_row(&args[0], i, &n);
        uint64_t count = 0;
        while (pos < n && rc == 0) {
            bool matched;
            rc = regex_run(call, e, s + pos, n - pos, 0, &matched, err);
            if (rc != 0 || !matched) break;
            const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->match);
            if (ov[1] == ov[0]) break;
            pos += ov[1];
            count++;
        }
        dst[i] = count;
    }
    regex_entry_clear(&spare);
    return rc;
}

static int count_matches_bind_common(exec_call *call, mu_arena *arena, bool caseless,
                                     mu_err *err) {
    int rc = regex_check_args(call, 2, 2, true, false, err);
    if (rc == 0 && call->arg_types[1]->kind != TY_STRING) rc = exec__error_arg_type(call, 1, err);
    if (rc != 0) return rc;
    const char *p;
    size_t n;
    if (!exec__const_string(call, 1, &p, &n))
        return MU_ERR(err, MU_EILLEGAL_COLUMN, "Illegal type of argument 2 of function %s: "
                      "expected constant String", call->function->name);
    count_matches_state *st = mu_arena_calloc(arena, 1, sizeof(*st), err);
    uint8_t *pattern = st ? mu_arena_alloc(arena, n + 5, err) : NULL;
    if (pattern == NULL) return err->code;
    size_t prefix = caseless ? 4 : 0;
    memcpy(pattern, "(?i)", prefix);
    if (n > 0) memcpy(pattern + prefix, p, n);
    st->pattern = pattern;
    st->pattern_bytes = n + prefix;
    pcre2_code *code;
    rc = regex_compile(call, st->pattern, st->pattern_bytes, &code, err);
    if (rc != 0) return rc;
    pcre2_code_free(code); /* compiled here to report a bad pattern at bind */
    call->kernel = count_matches_kernel;
    call->state = st;
    call->result_type = ty_type_builtin(TY_UINT64);
    return 0;
}

static int count_matches_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    return count_matches_bind_common(call, arena, false, err);
}

static int count_matches_ci_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    return count_matches_bind_common(call, arena, true, err);
}

static const exec_function fn_match = {"match", 0, match_bind};
static const exec_function fn_extract = {"extract", 0, extract_bind};
static const exec_function fn_regexp_extract = {"regexpExtract", 0, regexp_extract_bind};
static const exec_function fn_extract_all = {"extractAll", 0, extract_all_bind};
static const exec_function fn_replace_regexp_one = {"replaceRegexpOne", 0, replace_regexp_one_bind};
static const exec_function fn_replace_regexp_all = {"replaceRegexpAll", 0, replace_regexp_all_bind};
static const exec_function fn_count_matches = {"countMatches", 0, count_matches_bind};
static const exec_function fn_count_matches_ci = {"countMatchesCaseInsensitive", 0,
                                                  count_matches_ci_bind};

static int regexp_replace_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    call->function = &fn_replace_regexp_all;
    return replace_regexp_all_bind(call, arena, err);
}

static int regexp_extract_alias_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    call->function = &fn_regexp_extract;
    return regexp_extract_bind(call, arena, err);
}

static const exec_function fn_regexp_replace = {"REGEXP_REPLACE", EXEC_FN_CASE_INSENSITIVE,
                                                regexp_replace_bind};
static const exec_function fn_regexp_extract_alias = {"REGEXP_EXTRACT", EXEC_FN_CASE_INSENSITIVE,
                                                      regexp_extract_alias_bind};

const exec_function *const exec__functions_regex[] = {
    &fn_match, &fn_extract, &fn_regexp_extract, &fn_extract_all, &fn_replace_regexp_one,
    &fn_replace_regexp_all, &fn_regexp_replace, &fn_regexp_extract_alias, &fn_count_matches,
    &fn_count_matches_ci, NULL,
};
