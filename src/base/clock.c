/* clock.c: monotonic and wall clocks in nanoseconds, sleeping, and the
 * ISO 8601 UTC timestamps used by the log and by system tables.
 *
 * Durations and deadlines use the monotonic clock only; the wall clock is for
 * display and for timestamps stored in data, never for measuring intervals.
 * Everything here is thread-safe and holds no state.
 */
#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#define CLOCK_NS_PER_SECOND 1000000000LL
#define CLOCK_NS_PER_MS 1000000LL

static int64_t clock_read_ns(clockid_t id) {
    struct timespec ts;
    /* clock_gettime cannot fail for these clock ids with a valid pointer. */
    int rc = clock_gettime(id, &ts);
    MU_ASSERT(rc == 0);
    return (int64_t)ts.tv_sec * CLOCK_NS_PER_SECOND + ts.tv_nsec;
}

int64_t mu_clock_mono_ns(void) { return clock_read_ns(CLOCK_MONOTONIC); }

int64_t mu_clock_wall_ns(void) { return clock_read_ns(CLOCK_REALTIME); }

void mu_sleep_ms(int64_t ms) {
    if (ms <= 0) return;
    struct timespec want = {
        .tv_sec = (time_t)(ms / 1000),
        .tv_nsec = (long)((ms % 1000) * CLOCK_NS_PER_MS),
    };
    struct timespec left;
    /* A signal interrupts nanosleep; keep sleeping for what remains so the
     * caller gets at least the time it asked for. */
    while (nanosleep(&want, &left) != 0 && errno == EINTR) want = left;
}

char *mu_time_format_iso8601(int64_t wall_ns, char *out) {
    MU_ASSERT(out != NULL);
    /* Floor division, so instants before 1970 print the right second. */
    int64_t seconds = wall_ns / CLOCK_NS_PER_SECOND;
    int64_t rest_ns = wall_ns % CLOCK_NS_PER_SECOND;
    if (rest_ns < 0) {
        rest_ns += CLOCK_NS_PER_SECOND;
        seconds -= 1;
    }
    time_t t = (time_t)seconds;
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL) {
        snprintf(out, MU_TIME_ISO8601_BYTES, "invalid-time");
        return out;
    }
    /* An int64 of nanoseconds spans the years 1677..2262: always 24 bytes. */
    int n = snprintf(out, MU_TIME_ISO8601_BYTES, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                     tm.tm_sec, (int)(rest_ns / CLOCK_NS_PER_MS));
    MU_ASSERT(n == 24);
    return out;
}
