/* buf_test.c: goal — prove that mu_buf appends bytes, strings, integers,
 * varints and formatted text exactly, grows geometrically, honours
 * max_bytes to the byte (failing with MU_ETOO_LARGE, a message naming the
 * sizes, and the buffer unchanged), consumes from the front, and can be
 * reused after deinit. Bad inputs: appends and printf past the maximum,
 * reservations that overflow size_t, consuming more than is held.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <signal.h>
#include <string.h>

#include "base/base.h"
#include "base_test_util.h"

static void test_append_kinds(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 0);
    assert_int_equal(b.max_bytes, SIZE_MAX);
    assert_int_equal(mu_buf_append(&b, "ab", 2, NULL), 0);
    assert_int_equal(mu_buf_append_str(&b, "cd", NULL), 0);
    assert_int_equal(mu_buf_append_u8(&b, 0xEE, NULL), 0);
    assert_int_equal(mu_buf_append_u32le(&b, 0x11223344u, NULL), 0);
    assert_int_equal(mu_buf_append_u64le(&b, 0x0102030405060708ULL, NULL), 0);
    assert_int_equal(mu_buf_append_varint(&b, 300, NULL), 0);
    assert_int_equal(mu_buf_append(&b, NULL, 0, NULL), 0);
    assert_int_equal(mu_buf_printf(&b, NULL, "|%d-%s|", 42, "x"), 0);
    const uint8_t expected[] = {'a', 'b', 'c', 'd', 0xEE, 0x44, 0x33, 0x22, 0x11,
                                8, 7, 6, 5, 4, 3, 2, 1, 0xAC, 0x02,
                                '|', '4', '2', '-', 'x', '|'};
    assert_int_equal(b.length_bytes, sizeof(expected));
    assert_memory_equal(b.data, expected, sizeof(expected));
    mu_buf_deinit(&b);
    assert_null(b.data);
    assert_int_equal(b.length_bytes, 0);
}

static void test_growth_is_geometric(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 0);
    int capacity_changes = 0;
    size_t last_capacity = 0;
    for (int i = 0; i < (1 << 20); i++) {
        assert_int_equal(mu_buf_append_u8(&b, (uint8_t)i, NULL), 0);
        if (b.capacity_bytes != last_capacity) {
            capacity_changes++;
            assert_true(b.capacity_bytes >= 2 * last_capacity);
            last_capacity = b.capacity_bytes;
        }
    }
    assert_true(capacity_changes <= 16);
    for (int i = 0; i < (1 << 20); i++) assert_int_equal(b.data[i], (uint8_t)i);
    mu_buf_deinit(&b);
}

static void test_max_bytes_exact(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 100);
    uint8_t chunk[60] = {0};
    assert_int_equal(mu_buf_append(&b, chunk, 60, NULL), 0);
    assert_int_equal(mu_buf_append(&b, chunk, 40, NULL), 0);
    assert_int_equal(b.length_bytes, 100);
    assert_true(b.capacity_bytes <= 100);
    mu_err err;
    assert_int_equal(mu_buf_append_u8(&b, 1, &err), MU_ETOO_LARGE);
    assert_int_equal(err.code, MU_ETOO_LARGE);
    assert_non_null(strstr(err.message, "100 bytes"));
    assert_non_null(strstr(err.message, "by 1 bytes"));
    assert_int_equal(b.length_bytes, 100);
    mu_buf_deinit(&b);
}

static void test_too_large_leaves_buffer_unchanged(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 1000);
    assert_int_equal(mu_buf_append_str(&b, "keep", NULL), 0);
    uint8_t *data = b.data;
    size_t capacity = b.capacity_bytes;
    uint8_t big[1200] = {0};
    mu_err err;
    assert_int_equal(mu_buf_append(&b, big, sizeof(big), &err), MU_ETOO_LARGE);
    assert_non_null(strstr(err.message, "4 bytes"));
    assert_non_null(strstr(err.message, "1200 bytes"));
    assert_non_null(strstr(err.message, "1000 bytes"));
    assert_int_equal(mu_buf_reserve(&b, SIZE_MAX, &err), MU_ETOO_LARGE);
    assert_int_equal(mu_buf_append_u64le(&b, 1, NULL), 0);
    assert_int_equal(mu_buf_append(&b, big, 989, &err), MU_ETOO_LARGE);
    assert_ptr_equal(b.data, data);
    assert_int_equal(b.capacity_bytes, capacity);
    assert_int_equal(b.length_bytes, 12);
    assert_memory_equal(b.data, "keep", 4);
    mu_buf_deinit(&b);
}

static void test_reserve_overflow_unbounded(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 0);
    assert_int_equal(mu_buf_append_str(&b, "x", NULL), 0);
    mu_err err;
    assert_int_equal(mu_buf_reserve(&b, SIZE_MAX, &err), MU_ETOO_LARGE);
    assert_int_equal(b.length_bytes, 1);
    mu_buf_deinit(&b);
}

static void test_printf_at_and_past_max(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 10);
    /* Exactly fills the maximum: no room for vsnprintf's NUL in the buffer. */
    assert_int_equal(mu_buf_printf(&b, NULL, "%s", "0123456789"), 0);
    assert_int_equal(b.length_bytes, 10);
    assert_memory_equal(b.data, "0123456789", 10);
    mu_err err;
    assert_int_equal(mu_buf_printf(&b, &err, "%d", 7), MU_ETOO_LARGE);
    assert_int_equal(b.length_bytes, 10);
    mu_buf_clear(&b);
    assert_int_equal(mu_buf_printf(&b, &err, "%s-%s", "abcdef", "ghijk"), MU_ETOO_LARGE);
    assert_int_equal(b.length_bytes, 0);
    assert_int_equal(mu_buf_printf(&b, &err, "%s", ""), 0);
    assert_int_equal(b.length_bytes, 0);
    mu_buf_deinit(&b);
}

static void test_printf_long(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 0);
    char big[5000];
    memset(big, 'q', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    assert_int_equal(mu_buf_printf(&b, NULL, "<%s>", big), 0);
    assert_int_equal(b.length_bytes, 5000 + 1);
    assert_int_equal(b.data[0], '<');
    assert_int_equal(b.data[5000], '>');
    mu_buf_deinit(&b);
}

static void test_consume_and_reuse(void **state) {
    (void)state;
    mu_buf b;
    mu_buf_init(&b, 0);
    mu_buf_append_str(&b, "headerbody", NULL);
    mu_buf_consume(&b, 6);
    assert_int_equal(b.length_bytes, 4);
    assert_memory_equal(b.data, "body", 4);
    mu_buf_consume(&b, 0);
    assert_int_equal(b.length_bytes, 4);
    mu_buf_consume(&b, 4);
    assert_int_equal(b.length_bytes, 0);
    mu_buf_deinit(&b);
    mu_buf_deinit(&b); /* twice is harmless */
    mu_buf_deinit(NULL);
    mu_buf_init(&b, 8);
    assert_int_equal(mu_buf_append_str(&b, "again", NULL), 0);
    assert_memory_equal(b.data, "again", 5);
    mu_buf_deinit(&b);
}

static void child_consume_too_much(void *arg) {
    (void)arg;
    mu_buf b;
    mu_buf_init(&b, 0);
    mu_buf_append_str(&b, "abc", NULL);
    mu_buf_consume(&b, 4);
}

static void test_consume_past_length_asserts(void **state) {
    (void)state;
    char out[16384];
    int status = test_run_child(child_consume_too_much, NULL, out, sizeof(out));
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(out, "n_bytes <= b->length_bytes"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_kinds),
        cmocka_unit_test(test_growth_is_geometric),
        cmocka_unit_test(test_max_bytes_exact),
        cmocka_unit_test(test_too_large_leaves_buffer_unchanged),
        cmocka_unit_test(test_reserve_overflow_unbounded),
        cmocka_unit_test(test_printf_at_and_past_max),
        cmocka_unit_test(test_printf_long),
        cmocka_unit_test(test_consume_and_reuse),
        cmocka_unit_test(test_consume_past_length_asserts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
