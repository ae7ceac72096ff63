/* clock_test.c: goal — prove that the monotonic clock never goes back, the
 * wall clock agrees with time(2), sleeps last at least as long as asked even
 * when signals interrupt them, and ISO 8601 formatting is exact at the
 * epoch, before it, and at both ends of the int64 nanosecond range.
 * Bad inputs: zero and negative sleeps, negative timestamps, extreme values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "base/base.h"

static void test_monotonic_never_goes_back(void **state) {
    (void)state;
    int64_t last = mu_clock_mono_ns();
    assert_true(last > 0);
    for (int i = 0; i < 100000; i++) {
        int64_t now = mu_clock_mono_ns();
        assert_true(now >= last);
        last = now;
    }
    assert_true(mu_clock_mono_ms() >= last / 1000000);
}

static void test_wall_matches_time(void **state) {
    (void)state;
    time_t before = time(NULL);
    int64_t wall = mu_clock_wall_ns();
    time_t after = time(NULL);
    assert_true(wall / 1000000000 >= (int64_t)before - 1);
    assert_true(wall / 1000000000 <= (int64_t)after + 1);
}

static void test_sleep_lasts(void **state) {
    (void)state;
    int64_t start = mu_clock_mono_ns();
    mu_sleep_ms(30);
    int64_t elapsed = mu_clock_mono_ns() - start;
    assert_true(elapsed >= 30 * 1000000LL);
    assert_true(elapsed < 5000 * 1000000LL);
}

static void test_sleep_zero_and_negative_return_at_once(void **state) {
    (void)state;
    int64_t start = mu_clock_mono_ns();
    mu_sleep_ms(0);
    mu_sleep_ms(-5);
    mu_sleep_ms(INT64_MIN);
    assert_true(mu_clock_mono_ns() - start < 50 * 1000000LL);
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig) {
    (void)sig;
    alarms++;
}

static void test_sleep_survives_signals(void **state) {
    (void)state;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm; /* no SA_RESTART: nanosleep returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    struct itimerval every_5ms = {{0, 5000}, {0, 5000}};
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &every_5ms, NULL);
    int64_t start = mu_clock_mono_ns();
    mu_sleep_ms(60);
    int64_t elapsed = mu_clock_mono_ns() - start;
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &old, NULL);
    assert_true(alarms > 0);
    assert_true(elapsed >= 60 * 1000000LL);
}

static void test_format_known_instants(void **state) {
    (void)state;
    char out[MU_TIME_ISO8601_BYTES];
    assert_string_equal(mu_time_format_iso8601(0, out), "1970-01-01T00:00:00.000Z");
    assert_string_equal(mu_time_format_iso8601(1700000000123456789LL, out),
                        "2023-11-14T22:13:20.123Z");
    assert_string_equal(mu_time_format_iso8601(951782400999999999LL, out),
                        "2000-02-29T00:00:00.999Z");
}

static void test_format_negative_and_extremes(void **state) {
    (void)state;
    char out[MU_TIME_ISO8601_BYTES];
    assert_string_equal(mu_time_format_iso8601(-1, out), "1969-12-31T23:59:59.999Z");
    assert_string_equal(mu_time_format_iso8601(-1000000000LL, out), "1969-12-31T23:59:59.000Z");
    assert_string_equal(mu_time_format_iso8601(INT64_MAX, out), "2262-04-11T23:47:16.854Z");
    assert_string_equal(mu_time_format_iso8601(INT64_MIN, out), "1677-09-21T00:12:43.145Z");
}

static void test_format_now_has_fixed_width(void **state) {
    (void)state;
    char out[MU_TIME_ISO8601_BYTES];
    mu_time_format_iso8601(mu_clock_wall_ns(), out);
    assert_int_equal(strlen(out), 24);
    assert_int_equal(out[10], 'T');
    assert_int_equal(out[23], 'Z');
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_monotonic_never_goes_back),
        cmocka_unit_test(test_wall_matches_time),
        cmocka_unit_test(test_sleep_lasts),
        cmocka_unit_test(test_sleep_zero_and_negative_return_at_once),
        cmocka_unit_test(test_sleep_survives_signals),
        cmocka_unit_test(test_format_known_instants),
        cmocka_unit_test(test_format_negative_and_extremes),
        cmocka_unit_test(test_format_now_has_fixed_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
