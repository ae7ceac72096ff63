/* failpoint_test.c: goal — prove that failpoint specs parse exactly as
 * base.h documents (ACTION[@N][xK]), fire on the right hits, crash with
 * SIGKILL, sleep, count hits under concurrency and survive reconfiguration
 * while being evaluated; and that a build without MUSCLES_FAILPOINTS refuses
 * any non-empty spec with a message saying how to get them. Bad inputs: a
 * long list of malformed entries, each rejected with a message naming it,
 * leaving the previous table in force.
 * When the library was built without failpoints only the refusal is tested.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base_test_util.h"

static void skip_unless_compiled_in(void) {
    if (!mu_failpoints_compiled_in()) skip();
}

static int clear_table(void **state) {
    (void)state;
    mu_failpoints_configure("", NULL);
    return 0;
}

/* ---- builds without failpoints ---- */

static void test_refused_when_not_compiled_in(void **state) {
    (void)state;
    if (mu_failpoints_compiled_in()) skip();
    mu_err err;
    assert_int_equal(mu_failpoints_configure("wal.fsync=error", &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "compiled only into test builds"));
    assert_non_null(strstr(err.message, "-DMUSCLES_FAILPOINTS=ON"));
    /* Even a malformed spec gets the same answer, not a parse error. */
    assert_int_equal(mu_failpoints_configure("???", &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "compiled only into test builds"));
    assert_int_equal(mu_failpoints_configure("", &err), 0);
    assert_int_equal(mu_failpoints_configure(" , ", &err), 0);
    assert_int_equal(mu_failpoints_configure(NULL, &err), 0);
    assert_int_equal(mu_failpoint_eval("wal.fsync"), 0);
    assert_int_equal(mu_failpoint_hits("wal.fsync"), 0);
    setenv("MUSCLES_FAILPOINTS", "x=crash", 1);
    assert_int_equal(mu_failpoints_configure_from_env(&err), MU_EINVAL);
    assert_non_null(strstr(err.message, "MUSCLES_FAILPOINTS: "));
    unsetenv("MUSCLES_FAILPOINTS");
    assert_int_equal(mu_failpoints_configure_from_env(&err), 0);
}

/* ---- good specs ---- */

static void test_error_actions(void **state) {
    (void)state;
    skip_unless_compiled_in();
    assert_int_equal(mu_failpoints_configure("a=error,b=error:EIO,c=error:ENOSPC,"
                                             "d=error:SHORT", NULL), 0);
    assert_int_equal(mu_failpoint_eval("a"), EIO);
    assert_int_equal(mu_failpoint_eval("b"), EIO);
    assert_int_equal(mu_failpoint_eval("c"), ENOSPC);
    assert_int_equal(mu_failpoint_eval("d"), MU_FAILPOINT_SHORT);
    assert_int_equal(mu_failpoint_eval("a"), EIO); /* forever by default */
    assert_int_equal(mu_failpoint_hits("a"), 2);
    assert_int_equal(mu_failpoint_eval("unconfigured"), 0);
    assert_int_equal(mu_failpoint_hits("unconfigured"), 0);
    assert_int_equal(MU_FAILPOINT("c"), ENOSPC);
    MU_CRASHPOINT("a"); /* an error action at a crash point does nothing */
}

static void test_first_hit_and_count(void **state) {
    (void)state;
    skip_unless_compiled_in();
    assert_int_equal(mu_failpoints_configure("at3=error@3, twice=error:ENOSPC@2x2, once=errorx1",
                                             NULL), 0);
    const int at3[] = {0, 0, EIO, EIO, EIO};
    const int twice[] = {0, ENOSPC, ENOSPC, 0, 0};
    const int once[] = {EIO, 0, 0, 0, 0};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(mu_failpoint_eval("at3"), at3[i]);
        assert_int_equal(mu_failpoint_eval("twice"), twice[i]);
        assert_int_equal(mu_failpoint_eval("once"), once[i]);
    }
    assert_int_equal(mu_failpoint_hits("twice"), 5);
}

static void test_sleep_action(void **state) {
    (void)state;
    skip_unless_compiled_in();
    assert_int_equal(mu_failpoints_configure("slow=sleep:40x1", NULL), 0);
    int64_t start = mu_clock_mono_ns();
    assert_int_equal(mu_failpoint_eval("slow"), 0);
    assert_true(mu_clock_mono_ns() - start >= 40 * 1000000LL);
    start = mu_clock_mono_ns();
    assert_int_equal(mu_failpoint_eval("slow"), 0);
    assert_true(mu_clock_mono_ns() - start < 30 * 1000000LL);
}

static void child_crash(void *arg) {
    (void)arg;
    mu_err err;
    if (mu_failpoints_configure("wal.after_write_before_fsync=crash@2", &err) != 0) _exit(7);
    MU_CRASHPOINT("wal.after_write_before_fsync");
    fprintf(stderr, "survived first hit\n");
    MU_CRASHPOINT("wal.after_write_before_fsync");
    _exit(6); /* not reached */
}

static void test_crash_action_kills(void **state) {
    (void)state;
    skip_unless_compiled_in();
    char out[16384];
    int status = test_run_child(child_crash, NULL, out, sizeof(out));
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
    assert_non_null(strstr(out, "survived first hit"));
    assert_non_null(strstr(out, "event=failpoint.crash name=wal.after_write_before_fsync"));
}

static void test_reconfigure_replaces_and_clears(void **state) {
    (void)state;
    skip_unless_compiled_in();
    assert_int_equal(mu_failpoints_configure("old=error", NULL), 0);
    assert_int_equal(mu_failpoint_eval("old"), EIO);
    assert_int_equal(mu_failpoints_configure("new=error:ENOSPC", NULL), 0);
    assert_int_equal(mu_failpoint_eval("old"), 0);
    assert_int_equal(mu_failpoint_hits("old"), 0);
    assert_int_equal(mu_failpoint_eval("new"), ENOSPC);
    assert_int_equal(mu_failpoints_configure("  ", NULL), 0);
    assert_int_equal(mu_failpoint_eval("new"), 0);
    setenv("MUSCLES_FAILPOINTS", "env.point=error@2", 1);
    assert_int_equal(mu_failpoints_configure_from_env(NULL), 0);
    unsetenv("MUSCLES_FAILPOINTS");
    assert_int_equal(mu_failpoint_eval("env.point"), 0);
    assert_int_equal(mu_failpoint_eval("env.point"), EIO);
    /* Unset variable: the table stays as it is. */
    assert_int_equal(mu_failpoints_configure_from_env(NULL), 0);
    assert_int_equal(mu_failpoint_eval("env.point"), EIO);
}

/* ---- bad specs ---- */

static void test_bad_specs_rejected_and_named(void **state) {
    (void)state;
    skip_unless_compiled_in();
    static const char *const bad[] = {
        "a", "=error", "a=", "a=bogus", "a=error:EFOO", "a=error:", "a=error:eio",
        "a=sleep", "a=sleep:", "a=sleep:abc", "a=sleep:-5", "a=sleep:99999999",
        "a=error@0", "a=error@", "a=error@x", "a=errorx0", "a=errorx", "a=error@1@2",
        "a=errorx2@1", "a b=error", "a=crashy", "a=error@99999999999999999999999",
        "a=error x2", "a=ERROR", "a/b=error", "a=crash,b=nope",
    };
    assert_int_equal(mu_failpoints_configure("keep=error", NULL), 0);
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        mu_err err;
        mu_err_clear(&err);
        if (mu_failpoints_configure(bad[i], &err) != MU_EINVAL) fail_msg("accepted %s", bad[i]);
        assert_int_equal(err.code, MU_EINVAL);
        const char *entry = strrchr(bad[i], ',') != NULL ? strrchr(bad[i], ',') + 1 : bad[i];
        char quoted[128];
        snprintf(quoted, sizeof(quoted), "\"%s\"", entry);
        if (strstr(err.message, quoted) == NULL) fail_msg("%s: message %s", bad[i], err.message);
        assert_non_null(strstr(err.message, "allowed: "));
        assert_non_null(strstr(err.message, "sleep:MS"));
    }
    /* The previous table is still in force after every refusal. */
    assert_int_equal(mu_failpoint_eval("keep"), EIO);
    assert_int_equal(mu_failpoint_eval("a"), 0);
}

static void test_bad_lists_rejected(void **state) {
    (void)state;
    skip_unless_compiled_in();
    mu_err err;
    assert_int_equal(mu_failpoints_configure("dup=error,dup=crash", &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "dup is configured twice"));
    char name[80];
    memset(name, 'n', 64);
    strcpy(name + 64, "=error");
    assert_int_equal(mu_failpoints_configure(name, &err), MU_EINVAL);
    strcpy(name + 63, "=error");
    assert_int_equal(mu_failpoints_configure(name, &err), 0); /* 63 bytes is the limit */
    char many[1024] = "";
    for (int i = 0; i < 70; i++) {
        char entry[16];
        snprintf(entry, sizeof(entry), "p%d=error,", i);
        strcat(many, entry);
    }
    assert_int_equal(mu_failpoints_configure(many, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "entries"));
    char *huge = malloc(5000);
    memset(huge, ',', 4999);
    huge[4999] = '\0';
    assert_int_equal(mu_failpoints_configure(huge, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "4999 bytes"));
    free(huge);
}

/* ---- concurrency ---- */

static void *eval_main(void *arg) {
    _Atomic int *fired = arg;
    for (int i = 0; i < 5000; i++) {
        if (mu_failpoint_eval("race") != 0) atomic_fetch_add(fired, 1);
    }
    return NULL;
}

static void test_concurrent_hits_are_exact(void **state) {
    (void)state;
    skip_unless_compiled_in();
    assert_int_equal(mu_failpoints_configure("race=error@10x100", NULL), 0);
    _Atomic int fired = 0;
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, eval_main, &fired);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    assert_int_equal(atomic_load(&fired), 100);
    assert_int_equal(mu_failpoint_hits("race"), 20000);
}

static _Atomic bool reconfig_stop;

static void *reconfig_eval_main(void *arg) {
    (void)arg;
    while (!atomic_load(&reconfig_stop)) {
        int rc = mu_failpoint_eval("flip");
        if (rc != 0 && rc != EIO && rc != ENOSPC) abort();
    }
    return NULL;
}

static void test_reconfigure_while_evaluating(void **state) {
    (void)state;
    skip_unless_compiled_in();
    atomic_store(&reconfig_stop, false);
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, reconfig_eval_main, NULL);
    for (int i = 0; i < 2000; i++) {
        const char *spec = i % 3 == 0 ? "flip=error" : i % 3 == 1 ? "flip=error:ENOSPC" : "";
        assert_int_equal(mu_failpoints_configure(spec, NULL), 0);
    }
    atomic_store(&reconfig_stop, true);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_when_not_compiled_in),
        cmocka_unit_test_teardown(test_error_actions, clear_table),
        cmocka_unit_test_teardown(test_first_hit_and_count, clear_table),
        cmocka_unit_test_teardown(test_sleep_action, clear_table),
        cmocka_unit_test_teardown(test_crash_action_kills, clear_table),
        cmocka_unit_test_teardown(test_reconfigure_replaces_and_clears, clear_table),
        cmocka_unit_test_teardown(test_bad_specs_rejected_and_named, clear_table),
        cmocka_unit_test_teardown(test_bad_lists_rejected, clear_table),
        cmocka_unit_test_teardown(test_concurrent_hits_are_exact, clear_table),
        cmocka_unit_test_teardown(test_reconfigure_while_evaluating, clear_table),
    };
    printf("failpoints %s in mu_base\n",
           mu_failpoints_compiled_in() ? "compiled" : "NOT compiled (only the refusal is tested)");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
