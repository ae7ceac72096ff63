/* pool_test.c: goal — prove that mu_pool runs every submitted task exactly
 * once on named worker threads that block signals, that wait_idle returns
 * only when nothing is queued or running, that a full queue refuses with
 * MU_EBUSY, and that destroy runs everything still queued, refuses new work
 * with MU_ESHUTDOWN and joins. Bad inputs: zero threads, zero queue slots,
 * submitting to a full or shutting-down pool, waiting from inside a task.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "base_test_util.h"

static _Atomic int task_runs;

static void count_task(void *arg) {
    (void)arg;
    atomic_fetch_add(&task_runs, 1);
}

static void test_runs_every_task(void **state) {
    (void)state;
    mu_pool *pool = NULL;
    assert_int_equal(mu_pool_create(&pool, "cnt", 4, 64, NULL), 0);
    assert_int_equal(mu_pool_threads(pool), 4);
    atomic_store(&task_runs, 0);
    int submitted = 0;
    while (submitted < 10000) {
        mu_err err;
        int rc = mu_pool_submit(pool, count_task, NULL, &err);
        if (rc == MU_EBUSY) {
            mu_pool_wait_idle(pool);
            continue;
        }
        assert_int_equal(rc, 0);
        submitted++;
    }
    mu_pool_wait_idle(pool);
    assert_int_equal(atomic_load(&task_runs), 10000);
    mu_pool_destroy(pool);
}

typedef struct name_probe {
    char name[32];
    bool sigterm_blocked;
    bool sigsegv_blocked;
} name_probe;

static void name_task(void *arg) {
    name_probe *p = arg;
    pthread_getname_np(pthread_self(), p->name, sizeof(p->name));
    sigset_t mask;
    pthread_sigmask(SIG_SETMASK, NULL, &mask);
    p->sigterm_blocked = sigismember(&mask, SIGTERM) == 1;
    p->sigsegv_blocked = sigismember(&mask, SIGSEGV) == 1;
}

static void test_threads_are_named_and_block_signals(void **state) {
    (void)state;
    mu_pool *pool = NULL;
    assert_int_equal(mu_pool_create(&pool, "merge", 2, 8, NULL), 0);
    name_probe probe = {{0}, false, true};
    assert_int_equal(mu_pool_submit(pool, name_task, &probe, NULL), 0);
    mu_pool_wait_idle(pool);
    assert_true(strcmp(probe.name, "merge-0") == 0 || strcmp(probe.name, "merge-1") == 0);
    assert_true(probe.sigterm_blocked);
    assert_false(probe.sigsegv_blocked); /* faults still reach crash handlers */
    mu_pool_destroy(pool);
    /* Long pool names are cut to fit the 15-byte thread name limit. */
    assert_int_equal(mu_pool_create(&pool, "a-very-long-pool-name", 1, 8, NULL), 0);
    assert_int_equal(mu_pool_submit(pool, name_task, &probe, NULL), 0);
    mu_pool_wait_idle(pool);
    assert_string_equal(probe.name, "a-very-lon-0");
    mu_pool_destroy(pool);
}

/* A gate that holds tasks until the test opens it. */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool open;
    int arrived;
    int finished;
} gate;

static void gate_init(gate *g) {
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
    g->open = false;
    g->arrived = 0;
    g->finished = 0;
}

static void gate_task(void *arg) {
    gate *g = arg;
    pthread_mutex_lock(&g->lock);
    g->arrived++;
    pthread_cond_broadcast(&g->changed);
    while (!g->open) pthread_cond_wait(&g->changed, &g->lock);
    g->finished++;
    pthread_mutex_unlock(&g->lock);
}

static void gate_wait_arrived(gate *g, int n) {
    pthread_mutex_lock(&g->lock);
    while (g->arrived < n) pthread_cond_wait(&g->changed, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

static void gate_open(gate *g) {
    pthread_mutex_lock(&g->lock);
    g->open = true;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static void test_full_queue_is_busy(void **state) {
    (void)state;
    gate g;
    gate_init(&g);
    mu_pool *pool = NULL;
    assert_int_equal(mu_pool_create(&pool, "busy", 1, 2, NULL), 0);
    assert_int_equal(mu_pool_submit(pool, gate_task, &g, NULL), 0);
    gate_wait_arrived(&g, 1); /* the worker is inside the first task */
    assert_int_equal(mu_pool_submit(pool, gate_task, &g, NULL), 0);
    assert_int_equal(mu_pool_submit(pool, gate_task, &g, NULL), 0);
    mu_err err;
    assert_int_equal(mu_pool_submit(pool, gate_task, &g, &err), MU_EBUSY);
    assert_int_equal(err.code, MU_EBUSY);
    assert_non_null(strstr(err.message, "busy"));
    assert_non_null(strstr(err.message, "2 tasks"));
    gate_open(&g);
    mu_pool_wait_idle(pool);
    assert_int_equal(g.finished, 3);
    assert_int_equal(mu_pool_submit(pool, gate_task, &g, NULL), 0);
    mu_pool_destroy(pool);
    assert_int_equal(g.finished, 4);
}

typedef struct resubmit {
    mu_pool *pool;
    gate *g;
    int rc;
    int accepted;
} resubmit;

/* Keeps submitting until the pool says it is shutting down; what it got in
 * before that must still run. */
static void resubmit_task(void *arg) {
    resubmit *r = arg;
    gate_task(r->g);
    for (int tries = 0; tries < 10000; tries++) {
        r->rc = mu_pool_submit(r->pool, count_task, NULL, NULL);
        if (r->rc == 0) r->accepted++;
        if (r->rc != 0 && r->rc != MU_EBUSY) return;
        mu_sleep_ms(1);
    }
}

typedef struct destroyer {
    mu_pool *pool;
} destroyer;

static void *destroyer_main(void *arg) {
    mu_pool_destroy(((destroyer *)arg)->pool);
    return NULL;
}

static void test_destroy_drains_then_refuses(void **state) {
    (void)state;
    gate g;
    gate_init(&g);
    mu_pool *pool = NULL;
    assert_int_equal(mu_pool_create(&pool, "drain", 1, 16, NULL), 0);
    atomic_store(&task_runs, 0);
    resubmit r = {.pool = pool, .g = &g, .rc = 1, .accepted = 0};
    assert_int_equal(mu_pool_submit(pool, resubmit_task, &r, NULL), 0);
    gate_wait_arrived(&g, 1);
    for (int i = 0; i < 10; i++) assert_int_equal(mu_pool_submit(pool, count_task, NULL, NULL), 0);
    /* Destroy from another thread while the first task is still held. */
    destroyer d = {.pool = pool};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, destroyer_main, &d), 0);
    mu_sleep_ms(50);
    gate_open(&g);
    pthread_join(t, NULL);
    assert_int_equal(r.rc, MU_ESHUTDOWN);
    assert_int_equal(atomic_load(&task_runs), 10 + r.accepted);
}

static void test_bad_arguments(void **state) {
    (void)state;
    mu_pool *pool = (mu_pool *)&task_runs;
    mu_err err;
    assert_int_equal(mu_pool_create(&pool, "zero", 0, 8, &err), MU_EINVAL);
    assert_null(pool);
    assert_non_null(strstr(err.message, "zero"));
    assert_int_equal(mu_pool_create(&pool, "noq", 2, 0, &err), MU_EINVAL);
    assert_null(pool);
    mu_pool_destroy(NULL);
}

static mu_pool *self_wait_pool;

static void self_wait_task(void *arg) {
    (void)arg;
    mu_pool_wait_idle(self_wait_pool);
}

static void child_self_wait(void *arg) {
    (void)arg;
    if (mu_pool_create(&self_wait_pool, "self", 1, 4, NULL) != 0) _exit(9);
    mu_pool_submit(self_wait_pool, self_wait_task, NULL, NULL);
    mu_pool_wait_idle(self_wait_pool);
    _exit(8); /* not reached: the task's self-wait aborts the process */
}

static void test_wait_from_own_task_asserts(void **state) {
    (void)state;
    char out[16384];
    int status = test_run_child(child_self_wait, NULL, out, sizeof(out));
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(out, "pool_current != pool"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_every_task),
        cmocka_unit_test(test_threads_are_named_and_block_signals),
        cmocka_unit_test(test_full_queue_is_busy),
        cmocka_unit_test(test_destroy_drains_then_refuses),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_wait_from_own_task_asserts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
