/* http_url_test.c: goal — the request-target helpers (src/server/http_url.c)
 * split origin- and absolute-form targets, decode %XX and '+' exactly as
 * form-urlencoded query strings need (the ClickHouse handler reads
 * ?query=...&database=... with them), and reject every malformed escape.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "server/http.h"

static void split(const char *target, const char *path, const char *query) {
    http_slice p, q;
    http_target_split(target, strlen(target), &p, &q);
    assert_int_equal(p.length_bytes, strlen(path));
    assert_memory_equal(p.data, path, p.length_bytes);
    assert_int_equal(q.length_bytes, strlen(query));
    assert_memory_equal(q.data, query, q.length_bytes);
}

static void test_target_split(void **state) {
    (void)state;
    split("/ping", "/ping", "");
    split("/?query=SELECT%201", "/", "query=SELECT%201");
    split("/?", "/", "");
    split("/a?b?c", "/a", "b?c");
    split("/a#frag", "/a", "");
    split("/a?x=1#frag", "/a", "x=1");
    split("http://host:8123/ping?x=1", "/ping", "x=1");
    split("HTTPS://host", "", "");
    split("?query=1", "", "query=1");
    split("*", "*", "");
}

static void decode_ok(const char *in, bool plus, const char *want) {
    char out[256];
    size_t n = 0;
    assert_int_equal(http_url_decode(in, strlen(in), plus, out, &n), 0);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(out, want, n);
}

static void test_url_decode(void **state) {
    (void)state;
    decode_ok("SELECT%201", true, "SELECT 1");
    decode_ok("a+b", true, "a b");
    decode_ok("a+b", false, "a+b");
    decode_ok("%2b%2B%41%7e", true, "++A~");
    decode_ok("", true, "");
    decode_ok("%e4%b8%ad", true, "\xe4\xb8\xad");
    char out[8];
    size_t n = 0;
    assert_int_equal(http_url_decode("%00x", 4, true, out, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(out[0], 0);
    /* In place works: output is never longer than input. */
    char buf[] = "a%20b";
    assert_int_equal(http_url_decode(buf, 5, false, buf, &n), 0);
    assert_int_equal(n, 3);
    assert_memory_equal(buf, "a b", 3);
}

static void test_url_decode_bad(void **state) {
    (void)state;
    static const char *const bad[] = {"%", "%4", "%zz", "%4g", "abc%", "%%41", "%-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char out[16];
        size_t n = 0;
        assert_int_equal(http_url_decode(bad[i], strlen(bad[i]), true, out, &n), MU_EINVAL);
    }
}

static int get_param(const char *query, const char *name, char *out, size_t cap) {
    mu_buf value;
    mu_buf_init(&value, 64);
    mu_err err;
    http_slice q = {query, strlen(query)};
    int rc = http_query_get(q, name, &value, &err);
    if (rc == 1) snprintf(out, cap, "%.*s", (int)value.length_bytes, (char *)value.data);
    mu_buf_deinit(&value);
    return rc;
}

static void test_query_params(void **state) {
    (void)state;
    char v[128];
    const char *q = "query=SELECT+1%2C%202&database=db1&&flag&empty=&param_x=a%26b";
    assert_int_equal(get_param(q, "query", v, sizeof v), 1);
    assert_string_equal(v, "SELECT 1, 2");
    assert_int_equal(get_param(q, "database", v, sizeof v), 1);
    assert_string_equal(v, "db1");
    assert_int_equal(get_param(q, "flag", v, sizeof v), 1);
    assert_string_equal(v, "");
    assert_int_equal(get_param(q, "empty", v, sizeof v), 1);
    assert_string_equal(v, "");
    assert_int_equal(get_param(q, "param_x", v, sizeof v), 1);
    assert_string_equal(v, "a&b");
    assert_int_equal(get_param(q, "missing", v, sizeof v), 0);
    assert_int_equal(get_param(q, "quer", v, sizeof v), 0);
    assert_int_equal(get_param("", "query", v, sizeof v), 0);
    /* Names are compared decoded; the first occurrence wins. */
    assert_int_equal(get_param("da%74abase=x&database=y", "database", v, sizeof v), 1);
    assert_string_equal(v, "x");
    /* Iteration yields raw pieces, skipping empty ones. */
    http_slice cursor = {"&a=1&&b&", 8}, name, value;
    assert_true(http_query_next(&cursor, &name, &value));
    assert_int_equal(name.length_bytes, 1);
    assert_int_equal(value.length_bytes, 1);
    assert_true(http_query_next(&cursor, &name, &value));
    assert_memory_equal(name.data, "b", 1);
    assert_int_equal(value.length_bytes, 0);
    assert_false(http_query_next(&cursor, &name, &value));
}

static void test_query_params_bad(void **state) {
    (void)state;
    char v[128];
    assert_int_equal(get_param("query=%zz", "query", v, sizeof v), MU_EINVAL);
    assert_int_equal(get_param("qu%ery=1", "query", v, sizeof v), MU_EINVAL);
    assert_int_equal(get_param("query=%4", "query", v, sizeof v), MU_EINVAL);
    /* value_out's maximum (64 bytes) is enforced. */
    char long_query[200];
    snprintf(long_query, sizeof long_query, "query=%0100d", 7);
    assert_int_equal(get_param(long_query, "query", v, sizeof v), MU_ETOO_LARGE);
    /* Only the pieces compared are decoded: a bad escape in another
     * parameter is the business of whoever reads that one. */
    assert_int_equal(get_param("x%=1&query=2", "query", v, sizeof v), 1);
    assert_string_equal(v, "2");
    assert_int_equal(get_param("query%=1&query=2", "query", v, sizeof v), MU_EINVAL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_target_split),
        cmocka_unit_test(test_url_decode),
        cmocka_unit_test(test_url_decode_bad),
        cmocka_unit_test(test_query_params),
        cmocka_unit_test(test_query_params_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
