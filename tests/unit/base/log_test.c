/* log_test.c: goal — prove that every log line has the logfmt shape
 * `ts=<ISO 8601 ms Z> level=<name> event=<event> <pairs>\n`, that levels
 * filter, that quoting escapes what logfmt needs, that long lines stay whole
 * (or are marked truncated past the cap), and that lines written by many
 * threads at once never interleave. stderr is captured through a pipe that a
 * reader thread drains. Bad inputs: unknown level names, control bytes and
 * quotes in values, buffers too small for the quoted text, invalid levels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "base_test_util.h"

/* ---- stderr capture ---- */

typedef struct capture {
    int read_fd;
    int saved_stderr;
    pthread_t reader;
    char *text;
    size_t length_bytes;
    size_t capacity_bytes;
} capture;

static void *capture_reader_main(void *arg) {
    capture *c = arg;
    for (;;) {
        if (c->capacity_bytes - c->length_bytes < 65536) {
            c->capacity_bytes = c->capacity_bytes * 2 + 65536;
            c->text = realloc(c->text, c->capacity_bytes);
            if (c->text == NULL) abort();
        }
        ssize_t n = read(c->read_fd, c->text + c->length_bytes,
                         c->capacity_bytes - c->length_bytes - 1);
        if (n <= 0) break;
        c->length_bytes += (size_t)n;
    }
    c->text[c->length_bytes] = '\0';
    return NULL;
}

static void capture_begin(capture *c) {
    memset(c, 0, sizeof(*c));
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    c->read_fd = fds[0];
    c->saved_stderr = dup(STDERR_FILENO);
    assert_true(c->saved_stderr >= 0);
    assert_true(dup2(fds[1], STDERR_FILENO) >= 0);
    close(fds[1]);
    assert_int_equal(pthread_create(&c->reader, NULL, capture_reader_main, c), 0);
}

/* Restores stderr and returns everything written meanwhile (caller frees). */
static char *capture_end(capture *c, size_t *length_out) {
    dup2(c->saved_stderr, STDERR_FILENO);
    close(c->saved_stderr);
    pthread_join(c->reader, NULL);
    close(c->read_fd);
    if (length_out != NULL) *length_out = c->length_bytes;
    return c->text;
}

static size_t count_lines(const char *text) {
    size_t n = 0;
    for (; *text != '\0'; text++) n += *text == '\n';
    return n;
}

static int restore_level(void **state) {
    (void)state;
    mu_log_set_level(MU_LOG_INFO);
    return 0;
}

/* ---- format ---- */

static void assert_line_matches(const char *line, const char *pattern) {
    regex_t re;
    assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    int rc = regexec(&re, line, 0, NULL, 0);
    regfree(&re);
    if (rc != 0) fail_msg("line %s does not match %s", line, pattern);
}

#define TS_PATTERN "ts=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z"

static void test_line_format(void **state) {
    (void)state;
    capture c;
    capture_begin(&c);
    mu_log_info("http.listen", "addr=%s port=%d", "127.0.0.1", 8123);
    mu_log_warn("wal.slow_fsync", "ms=%d", 1200);
    mu_log_error("part.corrupt", "part=%s", "p_1_2_0");
    char *text = capture_end(&c, NULL);
    assert_int_equal(count_lines(text), 3);
    assert_line_matches(text, "^" TS_PATTERN " level=info event=http.listen "
                              "addr=127\\.0\\.0\\.1 port=8123\n" TS_PATTERN
                              " level=warn event=wal\\.slow_fsync ms=1200\n" TS_PATTERN
                              " level=error event=part\\.corrupt part=p_1_2_0\n$");
    free(text);
}

static void test_line_without_pairs_has_no_trailing_space(void **state) {
    (void)state;
    capture c;
    capture_begin(&c);
    mu_log_info("server.start", "%s", "");
    char *text = capture_end(&c, NULL);
    assert_line_matches(text, "^" TS_PATTERN " level=info event=server\\.start\n$");
    free(text);
}

static int debug_argument_calls;
static int debug_argument(void) { return ++debug_argument_calls; }

static void test_level_filters(void **state) {
    (void)state;
    capture c;
    capture_begin(&c);
    mu_log_set_level(MU_LOG_WARN);
    assert_int_equal(mu_log_get_level(), MU_LOG_WARN);
    mu_log_debug("x.debug", "n=%d", debug_argument());
    mu_log_info("x.info", "n=1");
    mu_log_warn("x.warn", "n=2");
    mu_log_error("x.error", "n=3");
    mu_log_set_level(MU_LOG_DEBUG);
    mu_log_debug("x.debug", "n=%d", debug_argument());
    mu_log_set_level(MU_LOG_ERROR);
    mu_log_warn("x.warn", "n=4");
    mu_log_set_level(MU_LOG_INFO);
    char *text = capture_end(&c, NULL);
    assert_int_equal(count_lines(text), 3);
    assert_null(strstr(text, "x.info"));
    assert_non_null(strstr(text, "level=warn event=x.warn n=2\n"));
    assert_non_null(strstr(text, "level=error event=x.error n=3\n"));
    assert_non_null(strstr(text, "level=debug event=x.debug n=1\n"));
    assert_null(strstr(text, "n=4"));
    /* The debug macro does not even evaluate its arguments when filtered. */
    assert_int_equal(debug_argument_calls, 1);
    free(text);
}

static void test_level_parse_good(void **state) {
    (void)state;
    const char *names[] = {"debug", "info", "warn", "error"};
    for (int i = 0; i < 4; i++) {
        int level = -1;
        assert_int_equal(mu_log_level_parse(names[i], &level), 0);
        assert_int_equal(level, i);
    }
    int level = -1;
    assert_int_equal(mu_log_level_parse("WARN", &level), 0);
    assert_int_equal(level, MU_LOG_WARN);
}

static void test_level_parse_bad(void **state) {
    (void)state;
    const char *bad[] = {"", "verbose", "warning", "info ", " info", "err", "3", "debugx"};
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        int level = 77;
        assert_int_equal(mu_log_level_parse(bad[i], &level), MU_EINVAL);
        assert_int_equal(level, 77);
    }
    int level = 77;
    assert_int_equal(mu_log_level_parse(NULL, &level), MU_EINVAL);
    assert_int_equal(level, 77);
}

static void child_set_bad_level(void *arg) {
    mu_log_set_level(*(int *)arg);
}

static void test_set_invalid_level_asserts(void **state) {
    (void)state;
    const int bad[] = {-1, 4, 1000};
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        char out[16384];
        int level = bad[i];
        int status = test_run_child(child_set_bad_level, &level, out, sizeof(out));
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), SIGABRT);
    }
}

/* ---- quoting ---- */

static void test_quote_plain_and_escapes(void **state) {
    (void)state;
    char out[128];
    assert_string_equal(mu_log_quote("plain text", out, sizeof(out)), "\"plain text\"");
    assert_string_equal(mu_log_quote("", out, sizeof(out)), "\"\"");
    assert_string_equal(mu_log_quote("say \"hi\"", out, sizeof(out)), "\"say \\\"hi\\\"\"");
    assert_string_equal(mu_log_quote("a\\b", out, sizeof(out)), "\"a\\\\b\"");
    assert_string_equal(mu_log_quote("l1\nl2\r\tx", out, sizeof(out)), "\"l1\\nl2\\r\\tx\"");
    assert_string_equal(mu_log_quote("bell\x07" "del\x7f", out, sizeof(out)),
                        "\"bell\\x07del\\x7f\"");
    assert_string_equal(mu_log_quote("caf\xc3\xa9", out, sizeof(out)), "\"caf\xc3\xa9\"");
}

static void test_quote_truncates_without_splitting(void **state) {
    (void)state;
    char out[12];
    /* 20 letters do not fit in 12 bytes: keep what fits, mark with ... */
    assert_string_equal(mu_log_quote("abcdefghijklmnopqrst", out, sizeof(out)),
                        "\"abcdef...\"");
    assert_int_equal(strlen(out), sizeof(out) - 1);
    /* An escape sequence is never cut in half. */
    assert_string_equal(mu_log_quote("abcdef\"hijklmn", out, sizeof(out)), "\"abcdef...\"");
    /* Nor is a UTF-8 character: e-acute is two bytes and only one fits. */
    assert_string_equal(mu_log_quote("abcde\xc3\xa9zzzzzz", out, sizeof(out)),
                        "\"abcde...\"");
    char tiny[8];
    assert_string_equal(mu_log_quote("0123456789", tiny, sizeof(tiny)), "\"01...\"");
    /* Exactly fitting text is not marked. */
    assert_string_equal(mu_log_quote("abcdefghi", out, sizeof(out)), "\"abcdefghi\"");
}

static void test_log_err_pairs(void **state) {
    (void)state;
    mu_err err;
    MU_ERR_SYS(&err, MU_ENOSPC, 28, "wal segment \"%s\" write", "1.log");
    capture c;
    capture_begin(&c);
    mu_log_err(MU_LOG_ERROR, "wal.write_failed", &err);
    mu_log_set_level(MU_LOG_ERROR);
    mu_log_err(MU_LOG_WARN, "wal.filtered", &err);
    mu_log_set_level(MU_LOG_INFO);
    MU_ERR(&err, MU_EINVAL, "bad setting");
    mu_log_err(MU_LOG_WARN, "cfg.bad", &err);
    char *text = capture_end(&c, NULL);
    assert_int_equal(count_lines(text), 2);
    assert_non_null(strstr(text, "level=error event=wal.write_failed error=\"wal segment "
                                 "\\\"1.log\\\" write: "));
    assert_non_null(strstr(text, " code=ENOSPC errno=28 at="));
    assert_non_null(strstr(text, "log_test.c:"));
    assert_non_null(strstr(text, "level=warn event=cfg.bad error=\"bad setting\" code=EINVAL at="));
    free(text);
}

/* ---- long lines ---- */

static void test_long_line_is_whole(void **state) {
    (void)state;
    size_t n = 20000;
    char *value = malloc(n + 1);
    memset(value, 'v', n);
    value[n] = '\0';
    capture c;
    capture_begin(&c);
    mu_log_info("big.value", "v=%s end=1", value);
    size_t length = 0;
    char *text = capture_end(&c, &length);
    assert_int_equal(count_lines(text), 1);
    assert_non_null(strstr(text, value));
    assert_non_null(strstr(text, " end=1\n"));
    free(text);
    free(value);
}

static void test_huge_line_is_cut_and_marked(void **state) {
    (void)state;
    size_t n = 200000;
    char *value = malloc(n + 1);
    memset(value, 'w', n);
    value[n] = '\0';
    capture c;
    capture_begin(&c);
    mu_log_info("huge.value", "v=%s", value);
    size_t length = 0;
    char *text = capture_end(&c, &length);
    assert_int_equal(count_lines(text), 1);
    assert_true(length <= 64 * 1024);
    assert_true(length > 60 * 1024);
    const char *mark = " truncated=true\n";
    assert_string_equal(text + length - strlen(mark), mark);
    free(text);
    free(value);
}

/* ---- concurrency: lines from many threads never interleave ---- */

#define CONC_THREADS 8
#define CONC_LINES 250

static size_t conc_pad_bytes(int thread, int seq) {
    /* Mostly short lines, some longer than PIPE_BUF and the stack buffer. */
    if (seq % 37 == 0) return 9000 + (size_t)thread * 100;
    return (size_t)((thread * 131 + seq * 17) % 1500);
}

static void *conc_main(void *arg) {
    int thread = (int)(intptr_t)arg;
    char *pad = malloc(10000);
    for (int seq = 0; seq < CONC_LINES; seq++) {
        size_t n = conc_pad_bytes(thread, seq);
        memset(pad, 'a' + thread, n);
        pad[n] = '\0';
        mu_log_info("conc.line", "t=%d seq=%d pad=%s", thread, seq, pad);
    }
    free(pad);
    return NULL;
}

static void check_conc_line(const char *line, size_t length_bytes, int next_seq[]) {
    const char *t = strstr(line, " event=conc.line t=");
    assert_non_null(t);
    assert_true(t < line + length_bytes);
    assert_memory_equal(line, "ts=", 3);
    int thread = -1, seq = -1, consumed = 0;
    assert_int_equal(sscanf(t, " event=conc.line t=%d seq=%d pad=%n", &thread, &seq, &consumed),
                     2);
    assert_true(thread >= 0 && thread < CONC_THREADS);
    assert_int_equal(seq, next_seq[thread]);
    next_seq[thread]++;
    const char *pad = t + consumed;
    size_t pad_bytes = (size_t)(line + length_bytes - pad);
    assert_int_equal(pad_bytes, conc_pad_bytes(thread, seq));
    for (size_t i = 0; i < pad_bytes; i++) assert_int_equal(pad[i], 'a' + thread);
}

static void test_concurrent_lines_never_interleave(void **state) {
    (void)state;
    capture c;
    capture_begin(&c);
    pthread_t threads[CONC_THREADS];
    for (int i = 0; i < CONC_THREADS; i++) {
        assert_int_equal(pthread_create(&threads[i], NULL, conc_main, (void *)(intptr_t)i), 0);
    }
    for (int i = 0; i < CONC_THREADS; i++) pthread_join(threads[i], NULL);
    char *text = capture_end(&c, NULL);
    int next_seq[CONC_THREADS] = {0};
    size_t lines = 0;
    for (char *line = text; *line != '\0';) {
        char *nl = strchr(line, '\n');
        assert_non_null(nl);
        check_conc_line(line, (size_t)(nl - line), next_seq);
        lines++;
        line = nl + 1;
    }
    assert_int_equal(lines, CONC_THREADS * CONC_LINES);
    for (int i = 0; i < CONC_THREADS; i++) assert_int_equal(next_seq[i], CONC_LINES);
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_line_format, restore_level),
        cmocka_unit_test_teardown(test_line_without_pairs_has_no_trailing_space, restore_level),
        cmocka_unit_test_teardown(test_level_filters, restore_level),
        cmocka_unit_test(test_level_parse_good),
        cmocka_unit_test(test_level_parse_bad),
        cmocka_unit_test(test_set_invalid_level_asserts),
        cmocka_unit_test(test_quote_plain_and_escapes),
        cmocka_unit_test(test_quote_truncates_without_splitting),
        cmocka_unit_test_teardown(test_log_err_pairs, restore_level),
        cmocka_unit_test(test_long_line_is_whole),
        cmocka_unit_test(test_huge_line_is_cut_and_marked),
        cmocka_unit_test(test_concurrent_lines_never_interleave),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
