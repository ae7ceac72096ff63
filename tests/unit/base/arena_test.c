/* arena_test.c: goal — prove that memory trackers charge up the parent
 * chain, refuse past a limit without leaving any trace, track peaks and stay
 * exact under concurrent charging; and that arenas return 16-byte aligned,
 * non-overlapping memory, give big requests their own block, charge every
 * block to the tracker, keep only the first block on reset and give
 * everything back on destroy. Bad inputs: charges past limits, a tracker too
 * small for the first block, overflowing calloc and huge requests, and
 * releasing more than was charged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base_test_util.h"

static int64_t used(mu_mem_tracker *t) { return atomic_load(&t->used_bytes); }
static int64_t peak(mu_mem_tracker *t) { return atomic_load(&t->peak_bytes); }

/* ---- trackers ---- */

static void test_tracker_charges_up_the_chain(void **state) {
    (void)state;
    mu_mem_tracker root, query, op;
    mu_mem_tracker_init(&root, "server", NULL, 0);
    mu_mem_tracker_init(&query, "query-1", &root, 1000);
    mu_mem_tracker_init(&op, "sort", &query, 0);
    assert_int_equal(mu_mem_tracker_charge(&op, 300, NULL), 0);
    assert_int_equal(used(&op), 300);
    assert_int_equal(used(&query), 300);
    assert_int_equal(used(&root), 300);
    assert_int_equal(mu_mem_tracker_charge(&query, 700, NULL), 0);
    assert_int_equal(used(&query), 1000);
    mu_mem_tracker_release(&op, 300);
    mu_mem_tracker_release(&query, 700);
    assert_int_equal(used(&root), 0);
    assert_int_equal(peak(&query), 1000);
    assert_int_equal(peak(&op), 300);
    assert_int_equal(peak(&root), 1000);
}

static void test_tracker_refusal_leaves_no_trace(void **state) {
    (void)state;
    mu_mem_tracker root, query, op;
    mu_mem_tracker_init(&root, "server", NULL, 5000);
    mu_mem_tracker_init(&query, "query-7", &root, 1000);
    mu_mem_tracker_init(&op, "hash-join", &query, 0);
    assert_int_equal(mu_mem_tracker_charge(&op, 900, NULL), 0);
    mu_err err;
    assert_int_equal(mu_mem_tracker_charge(&op, 101, &err), MU_EMEMLIMIT);
    assert_int_equal(err.code, MU_EMEMLIMIT);
    assert_non_null(strstr(err.message, "query-7"));
    assert_non_null(strstr(err.message, "1001"));
    assert_non_null(strstr(err.message, "1000"));
    assert_non_null(strstr(err.message, "hash-join"));
    assert_int_equal(used(&op), 900);
    assert_int_equal(used(&query), 900);
    assert_int_equal(used(&root), 900);
    assert_int_equal(peak(&op), 900);
    /* The root refuses: the two nodes below it are rolled back. */
    mu_mem_tracker other;
    mu_mem_tracker_init(&other, "query-8", &root, 0);
    assert_int_equal(mu_mem_tracker_charge(&other, 4101, &err), MU_EMEMLIMIT);
    assert_non_null(strstr(err.message, "server"));
    assert_int_equal(used(&other), 0);
    assert_int_equal(peak(&other), 0);
    assert_int_equal(used(&root), 900);
    assert_int_equal(mu_mem_tracker_charge(&other, 4100, &err), 0);
    assert_int_equal(used(&root), 5000);
    mu_mem_tracker_release(&other, 4100);
    mu_mem_tracker_release(&op, 900);
    assert_int_equal(used(&root), 0);
}

static void test_tracker_absurd_charge(void **state) {
    (void)state;
    mu_mem_tracker t;
    mu_mem_tracker_init(&t, "t", NULL, 0);
    mu_err err;
    assert_int_equal(mu_mem_tracker_charge(&t, SIZE_MAX, &err), MU_EMEMLIMIT);
    assert_int_equal(used(&t), 0);
    assert_int_equal(mu_mem_tracker_charge(&t, 0, &err), 0);
    assert_int_equal(used(&t), 0);
}

static void test_tracker_global_exists(void **state) {
    (void)state;
    mu_mem_tracker *g = mu_mem_tracker_global();
    assert_non_null(g);
    assert_ptr_equal(g, mu_mem_tracker_global());
    assert_null(g->parent);
    assert_string_equal(g->name, "global");
    int64_t before = used(g);
    assert_int_equal(mu_mem_tracker_charge(g, 10, NULL), 0);
    assert_int_equal(used(g), before + 10);
    mu_mem_tracker_release(g, 10);
}

typedef struct charge_worker {
    mu_mem_tracker *t;
    int refused;
} charge_worker;

static void *charge_worker_main(void *arg) {
    charge_worker *w = arg;
    for (int i = 0; i < 20000; i++) {
        if (mu_mem_tracker_charge(w->t, 64, NULL) != 0) {
            w->refused++;
            continue;
        }
        int64_t now = atomic_load(&w->t->used_bytes);
        if (now > w->t->limit_bytes) abort(); /* the limit must never be passed */
        mu_mem_tracker_release(w->t, 64);
    }
    return NULL;
}

static void test_tracker_concurrent_never_passes_limit(void **state) {
    (void)state;
    mu_mem_tracker root, child;
    mu_mem_tracker_init(&root, "root", NULL, 64 * 3);
    mu_mem_tracker_init(&child, "child", &root, 64 * 4);
    charge_worker workers[4];
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        workers[i] = (charge_worker){.t = &child};
        assert_int_equal(pthread_create(&threads[i], NULL, charge_worker_main, &workers[i]), 0);
    }
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    assert_int_equal(used(&child), 0);
    assert_int_equal(used(&root), 0);
    assert_true(peak(&root) <= 64 * 3);
    assert_true(peak(&child) <= 64 * 4);
    assert_true(peak(&root) >= 64);
}

static void child_release_too_much(void *arg) {
    (void)arg;
    mu_mem_tracker t;
    mu_mem_tracker_init(&t, "t", NULL, 0);
    mu_mem_tracker_charge(&t, 10, NULL);
    mu_mem_tracker_release(&t, 11);
}

static void test_tracker_over_release_asserts(void **state) {
    (void)state;
    char out[16384];
    int status = test_run_child(child_release_too_much, NULL, out, sizeof(out));
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(out, "arena.c"));
}

/* ---- arenas ---- */

static void test_arena_alignment_and_contents(void **state) {
    (void)state;
    mu_mem_tracker t;
    mu_mem_tracker_init(&t, "q", NULL, 0);
    mu_arena *arena = NULL;
    assert_int_equal(mu_arena_create(&arena, &t, 4096, NULL), 0);
    enum { N = 2000 };
    static uint8_t *ptrs[N];
    static size_t sizes[N];
    for (int i = 0; i < N; i++) {
        sizes[i] = (size_t)((i * 7919) % 700);
        ptrs[i] = mu_arena_alloc(arena, sizes[i], NULL);
        assert_non_null(ptrs[i]);
        assert_int_equal((uintptr_t)ptrs[i] % 16, 0);
        memset(ptrs[i], i & 0xff, sizes[i]);
    }
    for (int i = 0; i < N; i++) {
        for (size_t j = 0; j < sizes[i]; j++) assert_int_equal(ptrs[i][j], i & 0xff);
    }
    assert_true(mu_arena_used_bytes(arena) >= 700 * (N / 2));
    mu_arena_destroy(arena);
    assert_int_equal(used(&t), 0);
}

static void test_arena_charges_blocks_and_big_allocations(void **state) {
    (void)state;
    mu_mem_tracker t;
    mu_mem_tracker_init(&t, "q", NULL, 0);
    mu_arena *arena = NULL;
    assert_int_equal(mu_arena_create(&arena, &t, 4096, NULL), 0);
    int64_t first_block = used(&t);
    assert_true(first_block >= 4096);
    assert_true(first_block < 4096 + 256);
    uint8_t *small = mu_arena_alloc(arena, 100, NULL);
    assert_int_equal(used(&t), first_block); /* fits in the first block */
    uint8_t *big = mu_arena_alloc(arena, 1 << 20, NULL);
    assert_non_null(big);
    assert_true(used(&t) >= first_block + (1 << 20));
    memset(big, 0xAB, 1 << 20);
    /* The head still serves small requests after a dedicated block. */
    uint8_t *small2 = mu_arena_alloc(arena, 100, NULL);
    assert_ptr_equal(small2, small + 112);
    mu_arena_reset(arena);
    assert_int_equal(used(&t), first_block);
    assert_int_equal(mu_arena_used_bytes(arena), 0);
    /* After reset the first block is reused from its start. */
    assert_ptr_equal(mu_arena_alloc(arena, 8, NULL), small);
    for (int i = 0; i < 100; i++) assert_non_null(mu_arena_alloc(arena, 1000, NULL));
    assert_true(used(&t) > first_block);
    mu_arena_destroy(arena);
    assert_int_equal(used(&t), 0);
    assert_true(peak(&t) >= first_block + (1 << 20));
}

static void test_arena_limit_fails_cleanly(void **state) {
    (void)state;
    mu_mem_tracker t;
    mu_mem_tracker_init(&t, "query-9", NULL, 16 * 1024);
    mu_arena *arena = NULL;
    assert_int_equal(mu_arena_create(&arena, &t, 4096, NULL), 0);
    int64_t first_block = used(&t);
    mu_err err;
    assert_null(mu_arena_alloc(arena, 64 * 1024, &err));
    assert_int_equal(err.code, MU_EMEMLIMIT);
    assert_non_null(strstr(err.message, "query-9"));
    assert_int_equal(used(&t), first_block);
    /* Still usable for requests that fit. */
    assert_non_null(mu_arena_alloc(arena, 100, &err));
    mu_arena_destroy(arena);
    assert_int_equal(used(&t), 0);
}

static void test_arena_create_refused_by_tracker(void **state) {
    (void)state;
    mu_mem_tracker t;
    mu_mem_tracker_init(&t, "tiny", NULL, 1000);
    mu_arena *arena = (mu_arena *)&t; /* must be reset to NULL */
    mu_err err;
    assert_int_equal(mu_arena_create(&arena, &t, 4096, &err), MU_EMEMLIMIT);
    assert_null(arena);
    assert_int_equal(used(&t), 0);
}

static void test_arena_huge_and_overflowing_requests(void **state) {
    (void)state;
    mu_arena *arena = NULL;
    assert_int_equal(mu_arena_create(&arena, NULL, 0, NULL), 0);
    mu_err err;
    assert_null(mu_arena_alloc(arena, SIZE_MAX, &err));
    assert_int_equal(err.code, MU_ENOMEM);
    assert_null(mu_arena_alloc(arena, SIZE_MAX - 40, &err));
    assert_int_equal(err.code, MU_ENOMEM);
    assert_null(mu_arena_calloc(arena, SIZE_MAX / 2, 3, &err));
    assert_int_equal(err.code, MU_ENOMEM);
    assert_non_null(strstr(err.message, "overflows"));
    assert_non_null(mu_arena_alloc(arena, 0, NULL));
    mu_arena_destroy(arena);
}

static void test_arena_calloc_and_strndup(void **state) {
    (void)state;
    mu_arena *arena = NULL;
    assert_int_equal(mu_arena_create(&arena, NULL, 256, NULL), 0);
    uint8_t *dirty = mu_arena_alloc(arena, 64, NULL);
    memset(dirty, 0xFF, 64);
    mu_arena_reset(arena);
    uint32_t *zeros = mu_arena_calloc(arena, 16, sizeof(uint32_t), NULL);
    for (int i = 0; i < 16; i++) assert_int_equal(zeros[i], 0);
    char *s = mu_arena_strndup(arena, "hello world", 5, NULL);
    assert_string_equal(s, "hello");
    s = mu_arena_strndup(arena, "ab\0cd", 5, NULL);
    assert_string_equal(s, "ab");
    s = mu_arena_strndup(arena, NULL, 0, NULL);
    assert_string_equal(s, "");
    mu_arena_destroy(arena);
    mu_arena_destroy(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracker_charges_up_the_chain),
        cmocka_unit_test(test_tracker_refusal_leaves_no_trace),
        cmocka_unit_test(test_tracker_absurd_charge),
        cmocka_unit_test(test_tracker_global_exists),
        cmocka_unit_test(test_tracker_concurrent_never_passes_limit),
        cmocka_unit_test(test_tracker_over_release_asserts),
        cmocka_unit_test(test_arena_alignment_and_contents),
        cmocka_unit_test(test_arena_charges_blocks_and_big_allocations),
        cmocka_unit_test(test_arena_limit_fails_cleanly),
        cmocka_unit_test(test_arena_create_refused_by_tracker),
        cmocka_unit_test(test_arena_huge_and_overflowing_requests),
        cmocka_unit_test(test_arena_calloc_and_strndup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
