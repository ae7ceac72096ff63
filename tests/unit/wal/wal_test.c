/* wal_test.c: goal — prove the life cycle in wal.c: option checks, the
 * directory and first segment created on open, rolling to a new segment
 * past segment_bytes (named by its first LSN, directory synced), checkpoint
 * truncation deleting exactly the segments wholly below an LSN and never the
 * newest, statistics, and that a process killed at each crash point
 * (after write, after fsync, during roll, during truncation, during
 * recovery) reopens cleanly with every acknowledged record. Bad inputs:
 * every invalid option, truncation failing midway, LSN 0 and UINT64_MAX.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <signal.h>

#include "wal_test_util.h"

static void skip_unless_failpoints(void) {
    if (!mu_failpoints_compiled_in()) skip();
}

static void append_n(wal *w, int first, int count) {
    for (int i = first; i < first + count; i++) {
        char text[64];
        snprintf(text, sizeof(text), "rec-%04d-xxxxxxxxxxxxxxxxxxxx", i);
        wal_ack ack;
        mu_err err;
        assert_int_equal(wt_append_text(w, text, NULL, &ack, &err), 0);
    }
}

static void small_segments(wal_options *opt) {
    wt_options(opt);
    opt->segment_bytes = 256;
}

/* LSNs of the segment files, ascending; returns how many. */
static size_t segment_lsns(uint64_t *out, size_t max) {
    io_dir_list list;
    assert_int_equal(io_list_dir(wt_dir, &list, NULL), 0);
    size_t count = 0;
    for (size_t i = 0; i < list.count; i++) {
        uint64_t lsn;
        if (wal__segment_name_parse(list.names[i], &lsn) && count < max) out[count++] = lsn;
    }
    io_dir_list_deinit(&list);
    return count;
}

static void test_options_rejected(void **state) {
    (void)state;
    struct {
        const char *dir;
        uint64_t segment_bytes, record_bytes_max, queue_bytes_max, first_lsn;
    } cases[] = {
        {NULL, 1 << 20, 1 << 20, 1 << 20, 1},
        {"", 1 << 20, 1 << 20, 1 << 20, 1},
        {wt_dir, WAL_SEGMENT_HEADER_BYTES, 1 << 20, 1 << 20, 1},
        {wt_dir, 1 << 20, WAL_RECORD_HEADER_BYTES - 1, 1 << 20, 1},
        {wt_dir, 1 << 20, (uint64_t)WAL_RECORD_BYTES_LIMIT + 1, 1 << 20, 1},
        {wt_dir, 1 << 20, 1 << 20, 0, 1},
        {wt_dir, 1 << 20, 1 << 20, (uint64_t)1 << 32, 1},
        {wt_dir, 1 << 20, 1 << 20, 1 << 20, 0},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        wal_options opt;
        wal_options_init(&opt);
        opt.dir = cases[i].dir;
        opt.segment_bytes = cases[i].segment_bytes;
        opt.record_bytes_max = cases[i].record_bytes_max;
        opt.queue_bytes_max = cases[i].queue_bytes_max;
        opt.first_lsn = cases[i].first_lsn;
        wal *w = (wal *)1;
        mu_err err;
        assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), MU_EINVAL);
        assert_null(w);
    }
    assert_int_equal(wt_count_segments(), 0); /* nothing created */
    wal_options opt;
    wt_options(&opt);
    opt.token_window = 1000000000000ull;
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), MU_EINVAL);
}

static void test_open_creates_directory(void **state) {
    (void)state;
    char nested[512];
    snprintf(nested, sizeof(nested), "%s/wal/0f1e2d3c", wt_dir);
    wal_options opt;
    wal_options_init(&opt);
    opt.dir = nested;
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    assert_int_equal(wal_state_get(w, NULL), WAL_STATE_OPEN);
    wal_close(w);
    char path[600];
    snprintf(path, sizeof(path), "%s/00000000000000000001.log", nested);
    assert_int_equal(wt_file_size(path), WAL_SEGMENT_HEADER_BYTES);
    wal_close(NULL);
}

static void test_open_on_a_file_fails(void **state) {
    (void)state;
    char file[512];
    snprintf(file, sizeof(file), "%s/plain-file", wt_dir);
    wt_write_raw(file, "x", 1);
    wal_options opt;
    wal_options_init(&opt);
    opt.dir = file;
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), MU_EEXISTS);
    assert_null(w);
}

typedef struct first_records {
    int mismatches;
    int checked;
} first_records;

/* A record at the start of a segment has the LSN in the file name. */
static int check_first_record(void *ctx, const wal_record *record, mu_err *err) {
    (void)err;
    first_records *f = ctx;
    if (record->offset != WAL_SEGMENT_HEADER_BYTES) return 0;
    const char *name = strrchr(record->segment_path, '/') + 1;
    uint64_t lsn = 0;
    f->checked++;
    if (!wal__segment_name_parse(name, &lsn) || lsn != record->lsn) f->mismatches++;
    return 0;
}

static void test_roll_at_segment_bytes(void **state) {
    (void)state;
    wal_options opt;
    small_segments(&opt);
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    append_n(w, 0, 40);
    wal_stats stats;
    wal_stats_get(w, &stats);
    wal_close(w);
    uint64_t lsns[64];
    size_t count = segment_lsns(lsns, 64);
    assert_true(count >= 6);
    assert_int_equal(stats.segments_rolled, count - 1);
    for (size_t i = 0; i < count; i++) {
        char path[512];
        wt_segment_path(lsns[i], path, sizeof(path));
        /* A segment passes segment_bytes by at most one group. */
        assert_true(wt_file_size(path) < 256 + 64);
    }
    first_records f = {0};
    assert_int_equal(wal_open(&w, &opt, check_first_record, &f, &err), 0);
    assert_int_equal(f.checked, (int)count);
    assert_int_equal(f.mismatches, 0);
    wal_stats_get(w, &stats);
    assert_int_equal(stats.replayed_records, 40);
    wal_close(w);
}

static void test_truncate_before(void **state) {
    (void)state;
    wal_options opt;
    small_segments(&opt);
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    append_n(w, 0, 40);
    uint64_t lsns[64];
    size_t count = segment_lsns(lsns, 64);
    assert_true(count >= 4);
    assert_int_equal(wal_truncate_before(w, 0, &err), 0);
    assert_int_equal(wal_truncate_before(w, lsns[1] - 1, &err), 0); /* segment 0 not all below */
    assert_int_equal(segment_lsns(lsns, 64), count);
    assert_int_equal(wal_truncate_before(w, lsns[2], &err), 0);
    uint64_t after[64];
    assert_int_equal(segment_lsns(after, 64), count - 2);
    assert_int_equal(after[0], lsns[2]);
    assert_int_equal(wal_truncate_before(w, lsns[2], &err), 0); /* idempotent */
    assert_int_equal(segment_lsns(after, 64), count - 2);
    assert_int_equal(wal_truncate_before(w, UINT64_MAX, &err), 0);
    assert_int_equal(segment_lsns(after, 64), 1); /* never the newest */
    assert_int_equal(after[0], lsns[count - 1]);
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.segments_deleted, count - 1);
    append_n(w, 40, 1);
    wal_close(w);
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_true(r.count >= 1);
    assert_int_equal(r.records[0].lsn, lsns[count - 1]);
    assert_int_equal(r.records[r.count - 1].lsn, 41);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_truncate_failure_keeps_files(void **state) {
    (void)state;
    skip_unless_failpoints();
    wal_options opt;
    small_segments(&opt);
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    append_n(w, 0, 30);
    uint64_t lsns[64];
    size_t count = segment_lsns(lsns, 64);
    assert_int_equal(mu_failpoints_configure("io.unlink=error:EIO@2x1", &err), 0);
    assert_int_equal(wal_truncate_before(w, UINT64_MAX, &err), MU_EIO);
    assert_non_null(strstr(err.message, "unlink"));
    assert_int_equal(segment_lsns(lsns, 64), count - 1); /* the first went, the rest stay */
    mu_failpoints_configure("", NULL);
    assert_int_equal(wal_truncate_before(w, UINT64_MAX, &err), 0);
    assert_int_equal(segment_lsns(lsns, 64), 1);
    wal_close(w);
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    wal_close(w);
}

static void test_stats(void **state) {
    (void)state;
    wal_options opt;
    wt_options(&opt);
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    append_n(w, 0, 3);
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.records, 3);
    assert_int_equal(stats.groups, 3);
    assert_int_equal(stats.syncs, 3);
    assert_int_equal(stats.record_bytes, 3 * wal__record_bytes(0, 29));
    assert_int_equal(stats.next_lsn, 4);
    assert_int_equal(stats.durable_lsn, 3);
    assert_int_equal(stats.segments_rolled, 0);
    wal_close(w);
}

/* ---- crash points: the child is killed there, the parent reopens ---- */

typedef struct crash_plan {
    const char *spec;
    int appends;
    bool truncate_all;
    bool fail_then_recover;
} crash_plan;

static void crash_child(void *arg) {
    const crash_plan *plan = arg;
    wal_options opt;
    small_segments(&opt);
    wal *w = NULL;
    mu_err err;
    if (wal_open(&w, &opt, NULL, NULL, &err) != 0) _exit(3);
    for (int i = 0; i < 12; i++) { /* an acknowledged prefix */
        wal_ack ack;
        if (wt_append_text(w, "acknowledged-record-----", NULL, &ack, &err) != 0) _exit(4);
    }
    if (plan->fail_then_recover) {
        mu_failpoints_configure("wal.fsync=error", NULL);
        wal_ack ack;
        wt_append_text(w, "fails", NULL, &ack, &err);
    }
    if (mu_failpoints_configure(plan->spec, &err) != 0) _exit(5);
    for (int i = 0; i < plan->appends; i++) {
        wal_ack ack;
        wt_append_text(w, "after-the-crash-point---", NULL, &ack, &err);
    }
    if (plan->truncate_all) wal_truncate_before(w, UINT64_MAX, &err);
    if (plan->fail_then_recover) wal_recover_after_failure(w, &err);
    _exit(0); /* the crash point did not fire */
}

static void run_crash(const crash_plan *plan, size_t min_records) {
    int status = wt_run_child(crash_child, (void *)plan);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
    wal_options opt;
    small_segments(&opt);
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    int rc = wal_open(&w, &opt, wt_collect, &r, &err);
    if (rc != 0) print_error("%s: %s\n", plan->spec, err.message);
    assert_int_equal(rc, 0);
    assert_true(r.count >= min_records);
    for (size_t i = 1; i < r.count; i++) {
        assert_int_equal(r.records[i].lsn, r.records[i - 1].lsn + 1);
    }
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "after-restart", NULL, &ack, &err), 0);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_crash_after_write_before_fsync(void **state) {
    (void)state;
    skip_unless_failpoints();
    run_crash(&(crash_plan){.spec = WAL_CP_AFTER_WRITE "=crash", .appends = 1}, 12);
}

static void test_crash_after_fsync_before_ack(void **state) {
    (void)state;
    skip_unless_failpoints();
    run_crash(&(crash_plan){.spec = WAL_CP_AFTER_FSYNC "=crash", .appends = 1}, 13);
}

static void test_crash_during_roll(void **state) {
    (void)state;
    skip_unless_failpoints();
    run_crash(&(crash_plan){.spec = WAL_CP_ROLL "=crash", .appends = 20}, 12);
}

static void test_crash_during_truncate(void **state) {
    (void)state;
    skip_unless_failpoints();
    run_crash(&(crash_plan){.spec = WAL_CP_TRUNCATE "=crash", .truncate_all = true}, 1);
}

static void test_crash_during_recovery(void **state) {
    (void)state;
    skip_unless_failpoints();
    run_crash(&(crash_plan){.spec = WAL_CP_RECOVER "=crash", .fail_then_recover = true}, 12);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, wt_setup, wt_teardown)
    const struct CMUnitTest tests[] = {
        T(test_options_rejected),
        T(test_open_creates_directory),
        T(test_open_on_a_file_fails),
        T(test_roll_at_segment_bytes),
        T(test_truncate_before),
        T(test_truncate_failure_keeps_files),
        T(test_stats),
        T(test_crash_after_write_before_fsync),
        T(test_crash_after_fsync_before_ack),
        T(test_crash_during_roll),
        T(test_crash_during_truncate),
        T(test_crash_during_recovery),
    };
#undef T
    mu_log_set_level(MU_LOG_ERROR);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
