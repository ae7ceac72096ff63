/* err_test.c: goal — prove that every row of errors.def is reachable through
 * the lookups, that mu_err is filled once with code, errno, location and a
 * bounded message, that prefixes compose, that errno maps to the right codes,
 * and that MU_ASSERT prints its location and a backtrace and then aborts.
 * Bad inputs: unknown codes, oversized messages, unmapped errno values,
 * failed assertions, non-negative codes passed as errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "base_test_util.h"

static void test_lookup_known_codes(void **state) {
    (void)state;
    assert_string_equal(mu_code_name(MU_EINVAL), "EINVAL");
    assert_string_equal(mu_code_description(MU_EINVAL), "invalid argument");
    assert_int_equal(mu_code_ch_number(MU_EINVAL), 36);
    assert_string_equal(mu_code_ch_name(MU_EINVAL), "BAD_ARGUMENTS");
    assert_int_equal(mu_code_http_status(MU_EINVAL), 400);
    assert_int_equal(mu_code_ch_number(MU_ESYNTAX), 62);
    assert_int_equal(mu_code_ch_number(MU_EUNKNOWN_TABLE), 60);
    assert_int_equal(mu_code_http_status(MU_EUNKNOWN_TABLE), 404);
    assert_int_equal(mu_code_ch_number(MU_EMEMLIMIT), 241);
    assert_string_equal(mu_code_ch_name(MU_EMEMLIMIT), "MEMORY_LIMIT_EXCEEDED");
    assert_int_equal(mu_code_ch_number(MU_ENOSPC), 243);
    assert_int_equal(mu_code_http_status(MU_ENOSPC), 500);
    assert_int_equal(mu_code_ch_number(MU_ECHECKSUM), 40);
    assert_string_equal(mu_code_ch_name(MU_ECHECKSUM), "CHECKSUM_DOESNT_MATCH");
}

/* Every row of the table, read through the same X-macro, answers for itself. */
static void test_lookup_every_row(void **state) {
    (void)state;
    int rows = 0;
#define X(name, value, ch_code, ch_name, http_status, description)        \
    assert_true((value) < 0);                                             \
    assert_int_equal(MU_##name, (value));                                 \
    assert_string_equal(mu_code_name(value), #name);                      \
    assert_string_equal(mu_code_description(value), description);       \
    assert_int_equal(mu_code_ch_number(value), ch_code);                  \
    assert_string_equal(mu_code_ch_name(value), #ch_name);                \
    assert_int_equal(mu_code_http_status(value), http_status);            \
    assert_true((http_status) >= 400 && (http_status) < 600);             \
    rows++;
#include "base/errors.def"
#undef X
    assert_true(rows >= 35);
}

static void test_lookup_ok_code(void **state) {
    (void)state;
    assert_string_equal(mu_code_name(MU_OK), "OK");
    assert_int_equal(mu_code_ch_number(MU_OK), 0);
    assert_int_equal(mu_code_http_status(MU_OK), 200);
}

static void test_lookup_unknown_codes_map_to_internal(void **state) {
    (void)state;
    const int unknown[] = {-999, -1000, 1, 17, 123456, -2147483647 - 1};
    for (size_t i = 0; i < MU_ARRAY_LEN(unknown); i++) {
        assert_string_equal(mu_code_name(unknown[i]), "EINTERNAL");
        assert_string_equal(mu_code_ch_name(unknown[i]), "LOGICAL_ERROR");
        assert_int_equal(mu_code_ch_number(unknown[i]), 49);
        assert_int_equal(mu_code_http_status(unknown[i]), 500);
        assert_string_equal(mu_code_description(unknown[i]), "internal invariant broken");
    }
}

static void test_err_set_fills_once(void **state) {
    (void)state;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(err.code, 0);
    assert_string_equal(err.message, "");
    int line = __LINE__ + 1;
    int rc = MU_ERR(&err, MU_EUNKNOWN_TABLE, "table %s.%s does not exist", "db", "t");
    assert_int_equal(rc, MU_EUNKNOWN_TABLE);
    assert_int_equal(err.code, MU_EUNKNOWN_TABLE);
    assert_int_equal(err.sys_errno, 0);
    assert_string_equal(err.message, "table db.t does not exist");
    assert_non_null(strstr(err.file, "err_test.c"));
    assert_int_equal(err.line, line);
    mu_err_clear(&err);
    assert_int_equal(err.code, 0);
    assert_null(err.file);
}

static void test_err_null_err_returns_code(void **state) {
    (void)state;
    assert_int_equal(MU_ERR(NULL, MU_EIO, "nothing to fill %d", 1), MU_EIO);
    assert_int_equal(MU_CORRUPT(NULL, "bad block at %d", 7), MU_ECORRUPT);
    mu_err_prefix(NULL, "ignored");
    mu_err_clear(NULL);
}

static void test_err_sys_appends_strerror_and_keeps_errno(void **state) {
    (void)state;
    mu_err err;
    errno = EAGAIN;
    int rc = MU_ERR_SYS(&err, MU_EOPEN, ENOENT, "cannot open %s", "/data/wal/1.log");
    assert_int_equal(rc, MU_EOPEN);
    assert_int_equal(errno, EAGAIN);
    assert_int_equal(err.sys_errno, ENOENT);
    char expected[256];
    snprintf(expected, sizeof(expected), "cannot open /data/wal/1.log: %s", strerror(ENOENT));
    assert_string_equal(err.message, expected);
}

static void test_err_corrupt_records_location(void **state) {
    (void)state;
    mu_err err;
    int rc = MU_CORRUPT(&err, "part p1 column c granule %d: length %u past end", 3, 99u);
    assert_int_equal(rc, MU_ECORRUPT);
    assert_int_equal(err.code, MU_ECORRUPT);
    assert_true(err.line > 0);
    assert_string_equal(err.message, "part p1 column c granule 3: length 99 past end");
}

static void test_err_long_message_is_truncated(void **state) {
    (void)state;
    char big[2000];
    memset(big, 'z', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    mu_err err;
    MU_ERR_SYS(&err, MU_EIO, EIO, "%s", big);
    assert_int_equal(strlen(err.message), MU_ERR_MSG_BYTES - 1);
    assert_int_equal(err.message[0], 'z');
    assert_int_equal(err.message[MU_ERR_MSG_BYTES - 2], 'z');
}

static void test_err_prefix_composes(void **state) {
    (void)state;
    mu_err err;
    MU_ERR(&err, MU_ENOSPC, "disk full");
    mu_err_prefix(&err, "table %s", "events");
    assert_string_equal(err.message, "table events: disk full");
    mu_err_prefix(&err, "insert");
    assert_string_equal(err.message, "insert: table events: disk full");
    assert_int_equal(err.code, MU_ENOSPC);
}

static void test_err_prefix_on_empty_and_long(void **state) {
    (void)state;
    mu_err err;
    mu_err_clear(&err);
    err.code = MU_EIO;
    mu_err_prefix(&err, "wal");
    assert_string_equal(err.message, "wal");
    char big[600];
    memset(big, 'm', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    MU_ERR(&err, MU_EIO, "%s", big);
    mu_err_prefix(&err, "ctx");
    assert_int_equal(strlen(err.message), MU_ERR_MSG_BYTES - 1);
    assert_memory_equal(err.message, "ctx: mmm", 8);
    mu_err_prefix(&err, "%s", big); /* a prefix longer than the message space */
    assert_int_equal(strlen(err.message), MU_ERR_MSG_BYTES - 1);
}

static void test_code_from_errno_maps(void **state) {
    (void)state;
    assert_int_equal(mu_code_from_errno(ENOSPC, MU_EWRITE), MU_ENOSPC);
    assert_int_equal(mu_code_from_errno(EDQUOT, MU_EWRITE), MU_ENOSPC);
    assert_int_equal(mu_code_from_errno(ENOMEM, MU_EWRITE), MU_ENOMEM);
    assert_int_equal(mu_code_from_errno(EIO, MU_EFSYNC), MU_EIO);
    assert_int_equal(mu_code_from_errno(ENOENT, MU_EOPEN), MU_ENOT_FOUND);
    assert_int_equal(mu_code_from_errno(EEXIST, MU_EOPEN), MU_EEXISTS);
    assert_int_equal(mu_code_from_errno(ETIMEDOUT, MU_EIO), MU_ETIMEOUT);
}

static void test_code_from_errno_unmapped_keeps_fallback(void **state) {
    (void)state;
    assert_int_equal(mu_code_from_errno(0, MU_EREAD), MU_EREAD);
    assert_int_equal(mu_code_from_errno(EACCES, MU_EOPEN), MU_EOPEN);
    assert_int_equal(mu_code_from_errno(EPERM, MU_EOPEN), MU_EOPEN);
    assert_int_equal(mu_code_from_errno(EINTR, MU_EWRITE), MU_EWRITE);
    assert_int_equal(mu_code_from_errno(-5, MU_EWRITE), MU_EWRITE);
    assert_int_equal(mu_code_from_errno(99999, MU_EINTERNAL), MU_EINTERNAL);
}

static void child_assert_fails(void *arg) {
    int one = *(int *)arg;
    MU_ASSERT(one == 2);
}

static void test_assert_failure_prints_and_aborts(void **state) {
    (void)state;
    char out[16384];
    int one = 1;
    int status = test_run_child(child_assert_fails, &one, out, sizeof(out));
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(out, "assertion failed at"));
    assert_non_null(strstr(out, "err_test.c:"));
    assert_non_null(strstr(out, "one == 2"));
    assert_non_null(strstr(out, "backtrace:"));
}

static void child_assert_passes(void *arg) {
    int one = *(int *)arg;
    MU_ASSERT(one == 1);
    MU_DEBUG_ASSERT(one == 1);
    if (!MU_ALWAYS(one == 1)) _exit(4);
    if (MU_NEVER(one == 2)) _exit(5);
}

static void test_assert_success_is_silent(void **state) {
    (void)state;
    char out[4096];
    int one = 1;
    int status = test_run_child(child_assert_passes, &one, out, sizeof(out));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_string_equal(out, "");
}

static void child_never_fires(void *arg) {
    int one = *(int *)arg;
    if (MU_NEVER(one == 1)) _exit(3); /* the release fallback */
}

static void test_never_in_debug_aborts_release_falls_back(void **state) {
    (void)state;
    char out[16384];
    int one = 1;
    int status = test_run_child(child_never_fires, &one, out, sizeof(out));
#ifdef NDEBUG
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 3);
#else
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(out, "NEVER(one == 1)"));
#endif
}

static void child_err_with_success_code(void *arg) {
    (void)arg;
    mu_err err;
    MU_ERR(&err, MU_OK, "not an error");
}

static void test_err_rejects_non_negative_code(void **state) {
    (void)state;
    char out[16384];
    int status = test_run_child(child_err_with_success_code, NULL, out, sizeof(out));
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(out, "code < 0"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookup_known_codes),
        cmocka_unit_test(test_lookup_every_row),
        cmocka_unit_test(test_lookup_ok_code),
        cmocka_unit_test(test_lookup_unknown_codes_map_to_internal),
        cmocka_unit_test(test_err_set_fills_once),
        cmocka_unit_test(test_err_null_err_returns_code),
        cmocka_unit_test(test_err_sys_appends_strerror_and_keeps_errno),
        cmocka_unit_test(test_err_corrupt_records_location),
        cmocka_unit_test(test_err_long_message_is_truncated),
        cmocka_unit_test(test_err_prefix_composes),
        cmocka_unit_test(test_err_prefix_on_empty_and_long),
        cmocka_unit_test(test_code_from_errno_maps),
        cmocka_unit_test(test_code_from_errno_unmapped_keeps_fallback),
        cmocka_unit_test(test_assert_failure_prints_and_aborts),
        cmocka_unit_test(test_assert_success_is_silent),
        cmocka_unit_test(test_never_in_debug_aborts_release_falls_back),
        cmocka_unit_test(test_err_rejects_non_negative_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
