/* writer_test.c: goal — prove group commit and the failure rules of
 * writer.c: many concurrent appenders all get distinct LSNs, are replayed
 * exactly once, and share far fewer fdatasyncs than records; back-pressure
 * blocks without deadlock; a failed write or sync fails its group with the
 * file named, then every append fails fast with MU_ETABLE_READONLY and the
 * clear message, no sync is retried, acknowledged records still replay, and
 * wal_recover_after_failure starts a FRESH_START segment; on_durable runs in
 * LSN order before each append returns; insert tokens
 * deduplicate sequentially, concurrently, after reopen and across failures.
 * Bad inputs: invalid entries of every kind, recovery when not failed or
 * when the recovery itself fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <pthread.h>

#include "wal_test_util.h"

static void skip_unless_failpoints(void) {
    if (!mu_failpoints_compiled_in()) skip();
}

static wal *open_plain(mu_err *err) {
    wal_options opt;
    wt_options(&opt);
    wal *w = NULL;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, err), 0);
    return w;
}

/* ---- concurrency ---- */

#define CONCURRENT_THREADS 16
#define CONCURRENT_APPENDS 200

typedef struct appender {
    wal *w;
    int id;
    int appends;
    size_t payload_bytes; /* 0: the short text */
    uint64_t lsns[CONCURRENT_APPENDS];
    int results[CONCURRENT_APPENDS];
} appender;

static void *appender_main(void *arg) {
    appender *a = arg;
    char text[4096];
    for (int i = 0; i < a->appends; i++) {
        int n = snprintf(text, sizeof(text), "t%02d-%04d|", a->id, i);
        size_t length = a->payload_bytes > 0 ? a->payload_bytes : (size_t)n;
        if (length > (size_t)n) memset(text + n, 'p', length - (size_t)n);
        wal_entry entry = {.type = 1, .payload = text, .payload_bytes = length};
        wal_ack ack;
        mu_err err;
        a->results[i] = wal_append(a->w, &entry, &ack, &err);
        a->lsns[i] = a->results[i] == 0 ? ack.lsn : 0;
    }
    return NULL;
}

static void run_appenders(appender *a, int threads) {
    pthread_t tids[CONCURRENT_THREADS];
    for (int t = 0; t < threads; t++) {
        assert_int_equal(pthread_create(&tids[t], NULL, appender_main, &a[t]), 0);
    }
    for (int t = 0; t < threads; t++) pthread_join(tids[t], NULL);
}

static int compare_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static void test_concurrent_appenders_group_commit(void **state) {
    (void)state;
    /* A slow disk makes batching certain; without failpoints it is likely. */
    bool slow = mu_failpoints_compiled_in();
    if (slow) assert_int_equal(mu_failpoints_configure("wal.fsync=sleep:1", NULL), 0);
    mu_err err;
    wal *w = open_plain(&err);
    static appender a[CONCURRENT_THREADS];
    for (int t = 0; t < CONCURRENT_THREADS; t++) {
        a[t] = (appender){.w = w, .id = t, .appends = CONCURRENT_APPENDS};
    }
    run_appenders(a, CONCURRENT_THREADS);
    mu_failpoints_configure("", NULL);
    const size_t total = CONCURRENT_THREADS * CONCURRENT_APPENDS;
    uint64_t *all = malloc(total * sizeof(*all));
    size_t k = 0;
    for (int t = 0; t < CONCURRENT_THREADS; t++) {
        for (int i = 0; i < CONCURRENT_APPENDS; i++) {
            assert_int_equal(a[t].results[i], 0);
            if (i > 0) assert_true(a[t].lsns[i] > a[t].lsns[i - 1]);
            all[k++] = a[t].lsns[i];
        }
    }
    qsort(all, total, sizeof(*all), compare_u64);
    for (size_t i = 0; i < total; i++) assert_int_equal(all[i], i + 1); /* 1..N, no gap */
    free(all);
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.records, total);
    assert_int_equal(stats.syncs, stats.groups);
    print_message("group commit: %llu records, %llu syncs\n", (unsigned long long)stats.records,
                  (unsigned long long)stats.syncs);
    assert_true(stats.syncs < total);
    if (slow) assert_true(stats.syncs * 4 <= total);
    wal_close(w);
    /* Every record replays exactly once, each thread's in its order. */
    wal_options opt;
    wt_options(&opt);
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_int_equal(r.count, total);
    int next_seq[CONCURRENT_THREADS] = {0};
    for (size_t i = 0; i < r.count; i++) {
        int id = -1, seq = -1;
        assert_int_equal(sscanf((const char *)r.records[i].payload, "t%d-%d|", &id, &seq), 2);
        assert_int_equal(seq, next_seq[id]++);
        assert_int_equal(r.records[i].lsn, a[id].lsns[seq]);
    }
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_back_pressure(void **state) {
    (void)state;
    wal_options opt;
    wt_options(&opt);
    opt.queue_bytes_max = 256; /* about two records */
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    static appender a[8];
    for (int t = 0; t < 8; t++) {
        a[t] = (appender){.w = w, .id = t, .appends = 50, .payload_bytes = 100};
    }
    run_appenders(a, 8);
    for (int t = 0; t < 8; t++) {
        for (int i = 0; i < 50; i++) assert_int_equal(a[t].results[i], 0);
    }
    /* One record larger than the whole queue is still admitted. */
    char big[1000];
    memset(big, 'b', sizeof(big));
    wal_entry entry = {.type = 1, .payload = big, .payload_bytes = sizeof(big)};
    wal_ack ack;
    assert_int_equal(wal_append(w, &entry, &ack, &err), 0);
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.records, 401);
    wal_close(w);
}

static void test_bad_entries(void **state) {
    (void)state;
    wal_options opt;
    wt_options(&opt);
    opt.record_bytes_max = 1024;
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    char big[2048] = {0};
    char token[WAL_TOKEN_BYTES_MAX + 1] = {0};
    struct {
        wal_entry entry;
        int code;
    } cases[] = {
        {{.type = 0, .payload = "x", .payload_bytes = 1}, MU_EINVAL},
        {{.type = 1, .payload = NULL, .payload_bytes = 3}, MU_EINVAL},
        {{.type = 1, .token = NULL, .token_bytes = 3}, MU_EINVAL},
        {{.type = 1, .token = token, .token_bytes = sizeof(token)}, MU_ETOO_LARGE},
        {{.type = 1, .payload = big, .payload_bytes = 1024 - WAL_RECORD_HEADER_BYTES + 1},
         MU_ETOO_LARGE},
        {{.type = 1, .payload = big, .payload_bytes = SIZE_MAX}, MU_ETOO_LARGE},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        wal_ack ack = {.lsn = 99};
        assert_int_equal(wal_append(w, &cases[i].entry, &ack, &err), cases[i].code);
        assert_int_equal(ack.lsn, 0);
    }
    wal_entry fits = {.type = 1, .payload = big, .payload_bytes = 1024 - WAL_RECORD_HEADER_BYTES};
    wal_ack ack;
    assert_int_equal(wal_append(w, &fits, &ack, &err), 0);
    assert_int_equal(ack.lsn, 1); /* the refused ones took no LSN */
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.records, 1);
    wal_close(w);
}

/* on_durable sees every record once, in LSN order, before its append returns. */
typedef struct durable_log {
    uint64_t last_lsn;
    uint64_t calls;
    int out_of_order;
} durable_log;

/* The appender's context around its entry, found again in the callback. */
typedef struct durable_append {
    wal_entry entry; /* first member: the callback casts back */
    uint64_t seen_lsn;
} durable_append;

static void record_durable(void *ctx, uint64_t lsn, const wal_entry *entry) {
    durable_log *d = ctx;
    if (lsn != d->last_lsn + 1) d->out_of_order++;
    d->last_lsn = lsn;
    d->calls++;
    ((durable_append *)entry)->seen_lsn = lsn; /* checked after wal_append returns */
}

typedef struct durable_appender {
    wal *w;
    int missed;
} durable_appender;

static void *durable_appender_main(void *arg) {
    durable_appender *a = arg;
    for (int i = 0; i < 100; i++) {
        durable_append append = {.entry = {.type = 1, .payload = "row", .payload_bytes = 3}};
        wal_ack ack;
        mu_err err;
        int rc = wal_append(a->w, &append.entry, &ack, &err);
        if (rc != 0 || append.seen_lsn != ack.lsn) a->missed++;
    }
    return NULL;
}

static void test_on_durable_in_lsn_order(void **state) {
    (void)state;
    durable_log d = {0};
    wal_options opt;
    wt_options(&opt);
    opt.on_durable = record_durable;
    opt.on_durable_ctx = &d;
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    durable_appender a[8];
    pthread_t tids[8];
    for (int t = 0; t < 8; t++) {
        a[t] = (durable_appender){.w = w};
        pthread_create(&tids[t], NULL, durable_appender_main, &a[t]);
    }
    for (int t = 0; t < 8; t++) {
        pthread_join(tids[t], NULL);
        assert_int_equal(a[t].missed, 0);
    }
    assert_int_equal(d.calls, 800);
    assert_int_equal(d.out_of_order, 0);
    assert_int_equal(d.last_lsn, 800);
    /* Not called for "already stored" answers. */
    durable_append append = {.entry = {.type = 1, .token = "k", .token_bytes = 1}};
    wal_ack ack;
    assert_int_equal(wal_append(w, &append.entry, &ack, &err), 0);
    assert_int_equal(wal_append(w, &append.entry, &ack, &err), 0);
    assert_true(ack.already_stored);
    assert_int_equal(d.calls, 801);
    wal_close(w);
}

/* ---- failures ---- */

static void segment1_path(char *out, size_t out_bytes) { wt_segment_path(1, out, out_bytes); }

static void test_fsync_failure_fails_fast_after(void **state) {
    (void)state;
    skip_unless_failpoints();
    mu_err err;
    wal *w = open_plain(&err);
    char path[512];
    segment1_path(path, sizeof(path));
    assert_int_equal(mu_failpoints_configure("wal.fsync=error:EIO@2x1", &err), 0);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "acked", "tok-a", &ack, &err), 0);
    assert_int_equal(wt_append_text(w, "failed", "tok-b", &ack, &err), MU_EFSYNC);
    assert_int_equal(err.sys_errno, EIO);
    assert_non_null(strstr(err.message, "write-ahead log of t"));
    assert_non_null(strstr(err.message, "fdatasync"));
    assert_non_null(strstr(err.message, path));
    assert_int_equal(wt_append_text(w, "refused", NULL, &ack, &err), MU_ETABLE_READONLY);
    assert_non_null(strstr(err.message, "write-ahead log of t failed at"));
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "writes resume after every row is in a synced part"));
    /* The failed descriptor is never synced again. */
    assert_int_equal(mu_failpoint_hits("wal.fsync"), 2);
    mu_err reason;
    assert_int_equal(wal_state_get(w, &reason), WAL_STATE_FAILED);
    assert_int_equal(reason.code, MU_EFSYNC);
    assert_true(wal_token_seen(w, "tok-a", 5, NULL));
    assert_false(wal_token_seen(w, "tok-b", 5, NULL));
    assert_int_equal(wt_append_text(w, "retry", "tok-b", &ack, &err), MU_ETABLE_READONLY);
    wal_close(w);
    mu_failpoints_configure("", NULL);
    wal_options opt;
    wt_options(&opt);
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    /* The acknowledged record is there; the failed one may be (it reached
     * the page cache), which a client with a token retries safely. */
    assert_true(r.count >= 1 && r.count <= 2);
    assert_memory_equal(r.records[0].payload, "acked", 5);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_short_write_failure(void **state) {
    (void)state;
    skip_unless_failpoints();
    mu_err err;
    wal *w = open_plain(&err);
    assert_int_equal(mu_failpoints_configure("wal.write=error:SHORT@2x1", &err), 0);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "acked-record", NULL, &ack, &err), 0);
    assert_int_equal(wt_append_text(w, "half-written-record", NULL, &ack, &err), MU_EWRITE);
    assert_non_null(strstr(err.message, "short write"));
    assert_int_equal(wt_append_text(w, "x", NULL, &ack, &err), MU_ETABLE_READONLY);
    wal_close(w);
    mu_failpoints_configure("", NULL);
    wal_options opt;
    wt_options(&opt);
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_int_equal(r.count, 1); /* the half record was a torn tail */
    assert_int_equal(wt_append_text(w, "after", NULL, &ack, &err), 0);
    assert_int_equal(ack.lsn, 2);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_enospc_failure(void **state) {
    (void)state;
    skip_unless_failpoints();
    mu_err err;
    wal *w = open_plain(&err);
    assert_int_equal(mu_failpoints_configure("wal.write=error:ENOSPC", &err), 0);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "x", NULL, &ack, &err), MU_ENOSPC);
    assert_int_equal(wt_append_text(w, "y", NULL, &ack, &err), MU_ETABLE_READONLY);
    assert_non_null(strstr(err.message, "No space left on device"));
    wal_close(w);
}

static void test_recover_after_failure(void **state) {
    (void)state;
    skip_unless_failpoints();
    mu_err err;
    wal *w = open_plain(&err);
    assert_int_equal(wal_recover_after_failure(w, &err), MU_EINVAL); /* not failed */
    assert_int_equal(mu_failpoints_configure("wal.fsync=error@2x1", &err), 0);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "a", NULL, &ack, &err), 0);
    assert_int_equal(wt_append_text(w, "b", NULL, &ack, &err), MU_EFSYNC);
    /* A recovery that fails leaves the log FAILED. */
    assert_int_equal(mu_failpoints_configure("wal.segment=error", &err), 0);
    assert_int_not_equal(wal_recover_after_failure(w, &err), 0);
    assert_int_equal(wal_state_get(w, NULL), WAL_STATE_FAILED);
    assert_int_equal(wt_append_text(w, "c", NULL, &ack, &err), MU_ETABLE_READONLY);
    mu_failpoints_configure("", NULL);
    assert_int_equal(wal_recover_after_failure(w, &err), 0);
    assert_int_equal(wal_state_get(w, NULL), WAL_STATE_OPEN);
    char old_path[512], new_path[512];
    wt_segment_path(1, old_path, sizeof(old_path));
    wt_segment_path(3, new_path, sizeof(new_path)); /* LSN 2 was burned by the failure */
    assert_int_equal(wt_file_size(old_path), -1);
    assert_int_equal(wt_file_size(new_path), WAL_SEGMENT_HEADER_BYTES);
    assert_int_equal(wt_append_text(w, "d", NULL, &ack, &err), 0);
    assert_int_equal(ack.lsn, 3);
    wal_close(w);
    wal_options opt;
    wt_options(&opt);
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_int_equal(r.count, 1); /* "a" lives in parts now, by the contract */
    assert_int_equal(r.records[0].lsn, 3);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_concurrent_failure(void **state) {
    (void)state;
    skip_unless_failpoints();
    mu_err err;
    wal *w = open_plain(&err);
    assert_int_equal(mu_failpoints_configure("wal.fsync=error@5x1", &err), 0);
    static appender a[8];
    for (int t = 0; t < 8; t++) a[t] = (appender){.w = w, .id = t, .appends = 40};
    run_appenders(a, 8);
    mu_failpoints_configure("", NULL);
    int ok = 0, efsync = 0, refused = 0;
    uint64_t max_acked = 0;
    for (int t = 0; t < 8; t++) {
        bool failed = false;
        for (int i = 0; i < 40; i++) {
            int rc = a[t].results[i];
            if (rc == 0) {
                assert_false(failed); /* nothing succeeds after the failure */
                ok++;
                max_acked = MU_MAX(max_acked, a[t].lsns[i]);
            } else {
                failed = true;
                if (rc == MU_EFSYNC) efsync++;
                if (rc == MU_ETABLE_READONLY) refused++;
            }
        }
    }
    assert_true(efsync >= 1);
    assert_int_equal(ok + efsync + refused, 8 * 40);
    wal_close(w);
    wal_options opt;
    wt_options(&opt);
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_true(r.count >= (size_t)ok);
    for (int t = 0; t < 8; t++) {
        for (int i = 0; i < 40; i++) {
            if (a[t].results[i] != 0) continue;
            uint64_t lsn = a[t].lsns[i];
            assert_true(lsn <= r.count);
            char prefix[16];
            snprintf(prefix, sizeof(prefix), "t%02d-%04d|", t, i);
            assert_memory_equal(r.records[lsn - 1].payload, prefix, strlen(prefix));
        }
    }
    wal_close(w);
    wt_replay_reset(&r);
}

/* ---- tokens ---- */

static void test_token_dedupe_and_reopen(void **state) {
    (void)state;
    mu_err err;
    wal *w = open_plain(&err);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "one", "t1", &ack, &err), 0);
    assert_int_equal(ack.lsn, 1);
    assert_int_equal(wt_append_text(w, "one again", "t1", &ack, &err), 0);
    assert_true(ack.already_stored);
    assert_int_equal(ack.lsn, 1);
    assert_int_equal(wt_append_text(w, "two", "t2", &ack, &err), 0);
    assert_int_equal(ack.lsn, 2);
    uint64_t lsn = 0;
    assert_true(wal_token_seen(w, "t1", 2, &lsn));
    assert_int_equal(lsn, 1);
    assert_false(wal_token_seen(w, "t3", 2, &lsn));
    assert_false(wal_token_seen(w, NULL, 0, &lsn));
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.records, 2);
    assert_int_equal(stats.tokens_deduplicated, 1);
    wal_close(w);
    w = open_plain(&err);
    assert_true(wal_token_seen(w, "t2", 2, &lsn));
    assert_int_equal(lsn, 2);
    assert_int_equal(wt_append_text(w, "two again", "t2", &ack, &err), 0);
    assert_true(ack.already_stored);
    assert_int_equal(ack.lsn, 2);
    wal_close(w);
}

typedef struct same_token {
    wal *w;
    pthread_barrier_t *barrier;
    wal_ack ack;
    int rc;
} same_token;

static void *same_token_main(void *arg) {
    same_token *s = arg;
    pthread_barrier_wait(s->barrier);
    mu_err err;
    s->rc = wt_append_text(s->w, "batch", "shared-token", &s->ack, &err);
    return NULL;
}

static void test_token_concurrent_same_token(void **state) {
    (void)state;
    if (mu_failpoints_compiled_in()) mu_failpoints_configure("wal.fsync=sleep:5", NULL);
    mu_err err;
    wal *w = open_plain(&err);
    enum { THREADS = 8 };
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, THREADS);
    same_token s[THREADS];
    pthread_t tids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        s[t] = (same_token){.w = w, .barrier = &barrier};
        pthread_create(&tids[t], NULL, same_token_main, &s[t]);
    }
    int stored = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(tids[t], NULL);
        assert_int_equal(s[t].rc, 0);
        assert_int_equal(s[t].ack.lsn, 1);
        stored += !s[t].ack.already_stored;
    }
    pthread_barrier_destroy(&barrier);
    mu_failpoints_configure("", NULL);
    assert_int_equal(stored, 1);
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.records, 1);
    wal_close(w);
}

static void test_token_window_across_reopen(void **state) {
    (void)state;
    wal_options opt;
    wt_options(&opt);
    opt.token_window = 2;
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "a", "ta", &ack, &err), 0);
    assert_int_equal(wt_append_text(w, "b", "tb", &ack, &err), 0);
    assert_int_equal(wt_append_text(w, "c", "tc", &ack, &err), 0);
    assert_false(wal_token_seen(w, "ta", 2, NULL));
    wal_close(w);
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    assert_false(wal_token_seen(w, "ta", 2, NULL));
    assert_true(wal_token_seen(w, "tb", 2, NULL));
    assert_true(wal_token_seen(w, "tc", 2, NULL));
    /* Past the window a token is new again: documented, not a bug. */
    assert_int_equal(wt_append_text(w, "a again", "ta", &ack, &err), 0);
    assert_false(ack.already_stored);
    wal_close(w);
}

static void test_token_failed_then_retried(void **state) {
    (void)state;
    skip_unless_failpoints();
    mu_err err;
    wal *w = open_plain(&err);
    assert_int_equal(mu_failpoints_configure("wal.fsync=error@1x1", &err), 0);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "x", "tok", &ack, &err), MU_EFSYNC);
    assert_false(wal_token_seen(w, "tok", 3, NULL));
    assert_int_equal(wal_recover_after_failure(w, &err), 0);
    assert_int_equal(wt_append_text(w, "x", "tok", &ack, &err), 0);
    assert_false(ack.already_stored);
    assert_int_equal(wt_append_text(w, "x", "tok", &ack, &err), 0);
    assert_true(ack.already_stored);
    wal_close(w);
}

static void test_token_remember(void **state) {
    (void)state;
    mu_err err;
    wal *w = open_plain(&err);
    assert_int_equal(wal_token_remember(w, "from-manifest", 13, 77, &err), 0);
    uint64_t lsn = 0;
    assert_true(wal_token_seen(w, "from-manifest", 13, &lsn));
    assert_int_equal(lsn, 77);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "dup", "from-manifest", &ack, &err), 0);
    assert_true(ack.already_stored);
    assert_int_equal(ack.lsn, 77);
    assert_int_equal(wal_token_remember(w, NULL, 3, 1, &err), MU_EINVAL);
    assert_int_equal(wal_token_remember(w, "x", 0, 1, &err), MU_EINVAL);
    char long_token[WAL_TOKEN_BYTES_MAX + 1] = {0};
    assert_int_equal(wal_token_remember(w, long_token, sizeof(long_token), 1, &err), MU_EINVAL);
    wal_close(w);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, wt_setup, wt_teardown)
    const struct CMUnitTest tests[] = {
        T(test_concurrent_appenders_group_commit),
        T(test_back_pressure),
        T(test_bad_entries),
        T(test_on_durable_in_lsn_order),
        T(test_fsync_failure_fails_fast_after),
        T(test_short_write_failure),
        T(test_enospc_failure),
        T(test_recover_after_failure),
        T(test_concurrent_failure),
        T(test_token_dedupe_and_reopen),
        T(test_token_concurrent_same_token),
        T(test_token_window_across_reopen),
        T(test_token_failed_then_retried),
        T(test_token_remember),
    };
#undef T
    mu_log_set_level(MU_LOG_ERROR);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
