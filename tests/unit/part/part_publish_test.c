/* part_publish_test.c: goal — prove the crash and fault story of a part:
 * part_publish moves a finished tmp directory under its final name, never
 * replaces an existing part and refuses an unfinished directory; with an
 * injected failure of the Nth open, write, fsync, directory fsync, mkdir
 * or rename (once, and forever), writing + publishing either fails
 * leaving no final directory, or leaves a complete, verifiable part under
 * the final name, never half a part; a crash (SIGKILL in a child) before
 * the rename leaves only the complete tmp directory and after it the
 * complete part; abort removes the tmp directory; part_dir_remove never
 * leaves a half-deleted part under its own name.
 */
#include "part_test_util.h"

#include <signal.h>
#include <sys/wait.h>

#define ROWS 300u

static ty_column *columns[2];
static part_column_def defs[2];
static part_schema schema;

static int publish_setup(void **state) {
    int rc = pt_setup(state);
    mu_err err;
    columns[0] = pt_column("UInt64");
    for (uint64_t i = 0; i < ROWS; i++)
        pt_check(ty_column_append_value(columns[0], &i, &err), &err, "x");
    columns[1] = pt_random_column("Array(Nullable(String))", ROWS);
    static const uint32_t key = 0;
    defs[0] = (part_column_def){.name = "x", .type = columns[0]->type, .minmax = true};
    defs[1] = (part_column_def){.name = "a", .type = columns[1]->type};
    schema = (part_schema){.columns = defs, .column_count = 2, .key_columns = &key,
                           .key_count = 1, .index_granularity = 64};
    return rc;
}

static int publish_teardown(void **state) {
    ty_column_destroy(columns[0]);
    ty_column_destroy(columns[1]);
    return pt_teardown(state);
}

/* Writes tmp_p and publishes it as 202401_1_5_0. */
static int write_and_publish(mu_err *err) {
    char tmp[1024], final[1024];
    snprintf(tmp, sizeof(tmp), "%s", pt_path("tmp_p"));
    snprintf(final, sizeof(final), "%s", pt_path("202401_1_5_0"));
    int rc = pt_write_part(tmp, &schema, columns, ROWS, 100, err);
    if (rc != 0) return rc; /* pt_write_part aborted the writer */
    rc = part_publish(tmp, final, err);
    /* What the flusher does when publishing fails: drop the tmp part. */
    if (rc != 0 && pt_file_size(tmp) >= 0) {
        mu_err cleanup_err;
        mu_failpoints_configure("", NULL);
        pt_check(part_dir_remove(tmp, &cleanup_err), &cleanup_err, "remove tmp after failure");
    }
    return rc;
}

/* The final directory is absent or holds a complete, correct part. */
static bool check_final_state(void) {
    const char *final = pt_path("202401_1_5_0");
    if (pt_file_size(final) < 0) return false;
    part *p = NULL;
    mu_err err;
    pt_check(part_open(&p, final, "t", &err), &err, "open published part");
    pt_check(part_verify_files(p, &err), &err, "verify published part");
    for (uint32_t c = 0; c < 2; c++) {
        ty_column *got = pt_read_all(p, c);
        pt_assert_rows_equal(columns[c], 0, got, 0, ROWS);
        ty_column_destroy(got);
    }
    part_close(p);
    return true;
}

static void test_publish(void **state) {
    (void)state;
    mu_err err;
    pt_check(write_and_publish(&err), &err, "publish");
    assert_int_equal(pt_file_size(pt_path("tmp_p")), -1);
    assert_true(check_final_state());
    /* Never replaces a part; the tmp directory stays for the caller. */
    char tmp[1024];
    snprintf(tmp, sizeof(tmp), "%s", pt_path("tmp_p"));
    pt_check(pt_write_part(tmp, &schema, columns, ROWS, ROWS, &err), &err, "write again");
    assert_int_equal(part_publish(tmp, pt_path("202401_1_5_0"), &err), MU_EEXISTS);
    assert_true(pt_file_size(pt_path("tmp_p/manifest")) > 0);
    /* An unfinished directory is refused. */
    unlink(pt_path("tmp_p/manifest"));
    assert_int_equal(part_publish(tmp, pt_path("202401_9_9_0"), &err), MU_EINVAL);
    assert_int_equal(pt_file_size(pt_path("202401_9_9_0")), -1);
    pt_check(part_dir_remove(tmp, &err), &err, "remove tmp");
    assert_int_equal(pt_file_size(tmp), -1);
}

static void cleanup_attempt(void) {
    mu_failpoints_configure("", NULL);
    pt_remove_tree(pt_path("tmp_p"));
    pt_remove_tree(pt_path("202401_1_5_0"));
}

/* Fails the Nth call of `failpoint` for N = 1, 2, ... until the whole
 * write + publish goes through; checks the final state after each try. */
static void fault_loop(const char *failpoint, const char *action, bool forever) {
    for (int n = 1; n < 10000; n++) {
        char spec[128];
        snprintf(spec, sizeof(spec), "%s=%s@%d%s", failpoint, action, n, forever ? "" : "x1");
        mu_err err;
        pt_check(mu_failpoints_configure(spec, &err), &err, "configure");
        mu_err_clear(&err);
        int rc = write_and_publish(&err);
        uint64_t hits = mu_failpoint_hits(failpoint);
        mu_failpoints_configure("", NULL);
        bool published = check_final_state();
        if (rc == 0) {
            assert_true(published);
            assert_true((uint64_t)n > hits); /* nothing was injected */
            cleanup_attempt();
            return;
        }
        /* A failure after the rename (parent fsync) leaves a whole part. */
        if (published) assert_true(strstr(failpoint, "fsync") != NULL);
        assert_int_equal(pt_file_size(pt_path("tmp_p")), -1); /* abort removed it */
        cleanup_attempt();
    }
    fail_msg("%s never succeeded", failpoint);
}

static void test_io_faults(void **state) {
    (void)state;
    static const char *points[] = {IO_FP_OPEN, IO_FP_WRITE, IO_FP_FSYNC, IO_FP_FSYNC_DIR,
                                   IO_FP_MKDIR, IO_FP_RENAME};
    for (size_t i = 0; i < MU_ARRAY_LEN(points); i++) {
        fault_loop(points[i], "error:EIO", false);
        fault_loop(points[i], "error:ENOSPC", true);
    }
    fault_loop(IO_FP_WRITE, "error:SHORT", false);
}

/* Runs write + publish in a child killed at crash point `point`. */
static void crash_at(const char *point) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char spec[128];
        snprintf(spec, sizeof(spec), "%s=crash", point);
        mu_failpoints_configure(spec, NULL);
        mu_err err;
        write_and_publish(&err);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static void test_crash_points(void **state) {
    (void)state;
    crash_at(PART_CP_BEFORE_RENAME);
    assert_false(check_final_state());
    part *p = NULL;
    mu_err err;
    pt_check(part_open(&p, pt_path("tmp_p"), "t", &err), &err, "complete tmp part");
    pt_check(part_verify_files(p, &err), &err, "verify tmp part");
    part_close(p);
    pt_check(part_dir_remove(pt_path("tmp_p"), &err), &err, "startup cleanup");
    crash_at(PART_CP_AFTER_RENAME);
    assert_true(check_final_state());
    assert_int_equal(pt_file_size(pt_path("tmp_p")), -1);
}

static void test_dir_remove(void **state) {
    (void)state;
    mu_err err;
    pt_check(write_and_publish(&err), &err, "publish");
    /* A failing unlink leaves the part renamed away, never half of it. */
    pt_check(mu_failpoints_configure(IO_FP_UNLINK "=error@2x1", &err), &err, "configure");
    assert_int_equal(part_dir_remove(pt_path("202401_1_5_0"), &err), MU_EIO);
    mu_failpoints_configure("", NULL);
    assert_int_equal(pt_file_size(pt_path("202401_1_5_0")), -1);
    assert_true(pt_file_size(pt_path("tmp_delete_202401_1_5_0")) >= 0);
    pt_check(part_dir_remove(pt_path("tmp_delete_202401_1_5_0"), &err), &err, "finish removal");
    assert_int_equal(pt_file_size(pt_path("tmp_delete_202401_1_5_0")), -1);
    pt_check(write_and_publish(&err), &err, "publish again");
    pt_check(part_dir_remove(pt_path("202401_1_5_0/"), &err), &err, "remove");
    assert_int_equal(pt_file_size(pt_path("202401_1_5_0")), -1);
    assert_int_equal(part_dir_remove(pt_path("202401_1_5_0"), &err), MU_ENOT_FOUND);
}

int main(void) {
    if (!mu_failpoints_compiled_in()) {
        printf("part_publish_test: skipped, needs -DMUSCLES_FAILPOINTS=ON\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_publish, publish_setup, publish_teardown),
        cmocka_unit_test_setup_teardown(test_io_faults, publish_setup, publish_teardown),
        cmocka_unit_test_setup_teardown(test_crash_points, publish_setup, publish_teardown),
        cmocka_unit_test_setup_teardown(test_dir_remove, publish_setup, publish_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
