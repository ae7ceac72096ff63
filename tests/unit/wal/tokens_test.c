/* tokens_test.c: goal — prove that the token window keeps exactly the last
 * `window` durable tokens in FIFO order, that reserved tokens are found but
 * never evicted, that an aborted reservation disappears, that a window of 0
 * remembers nothing durable, and that many tokens with colliding buckets
 * stay correct. Bad inputs: empty and over-long tokens, tokens differing
 * only in length or in one byte, absurd window sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "storage/wal/wal_int.h"

static void name_of(int i, char *out, size_t out_bytes) { snprintf(out, out_bytes, "tok-%d", i); }

static void test_reserve_commit_find(void **state) {
    (void)state;
    wal__tokens t;
    mu_err err;
    assert_int_equal(wal__tokens_init(&t, 4, &err), 0);
    assert_null(wal__tokens_find(&t, "a", 1));
    wal__token *a = NULL;
    assert_int_equal(wal__tokens_reserve(&t, "a", 1, &a, &err), 0);
    assert_ptr_equal(wal__tokens_find(&t, "a", 1), a);
    assert_int_equal(a->state, WAL__TOKEN_RESERVED);
    assert_int_equal(t.reserved_count, 1);
    wal__tokens_commit(&t, a, 17);
    assert_int_equal(a->state, WAL__TOKEN_DURABLE);
    assert_int_equal(a->lsn, 17);
    assert_int_equal(t.ring_count, 1);
    assert_int_equal(t.reserved_count, 0);
    wal__token *b = NULL;
    assert_int_equal(wal__tokens_reserve(&t, "b", 1, &b, &err), 0);
    wal__tokens_abort(&t, b);
    assert_null(wal__tokens_find(&t, "b", 1));
    assert_int_equal(t.ring_count, 1);
    wal__tokens_deinit(&t);
    wal__tokens_deinit(&t); /* safe twice */
}

static void test_window_evicts_oldest(void **state) {
    (void)state;
    wal__tokens t;
    mu_err err;
    assert_int_equal(wal__tokens_init(&t, 3, &err), 0);
    for (int i = 0; i < 5; i++) {
        char name[32];
        name_of(i, name, sizeof(name));
        assert_int_equal(wal__tokens_add_durable(&t, name, strlen(name), (uint64_t)i + 1, &err),
                         0);
    }
    for (int i = 0; i < 5; i++) {
        char name[32];
        name_of(i, name, sizeof(name));
        wal__token *found = wal__tokens_find(&t, name, strlen(name));
        if (i < 2) {
            assert_null(found);
        } else {
            assert_non_null(found);
            assert_int_equal(found->lsn, (uint64_t)i + 1);
        }
    }
    /* A reserved token is not in the ring and survives any number of commits. */
    wal__token *held = NULL;
    assert_int_equal(wal__tokens_reserve(&t, "held", 4, &held, &err), 0);
    for (int i = 5; i < 20; i++) {
        wal__token *tok = NULL;
        char name[32];
        name_of(i, name, sizeof(name));
        assert_int_equal(wal__tokens_reserve(&t, name, strlen(name), &tok, &err), 0);
        wal__tokens_commit(&t, tok, (uint64_t)i + 1);
    }
    assert_ptr_equal(wal__tokens_find(&t, "held", 4), held);
    assert_int_equal(t.ring_count, 3);
    wal__tokens_commit(&t, held, 100);
    assert_non_null(wal__tokens_find(&t, "held", 4));
    assert_null(wal__tokens_find(&t, "tok-17", 6)); /* pushed out by "held" */
    wal__tokens_deinit(&t);
}

static void test_window_zero_remembers_nothing(void **state) {
    (void)state;
    wal__tokens t;
    mu_err err;
    assert_int_equal(wal__tokens_init(&t, 0, &err), 0);
    wal__token *a = NULL;
    assert_int_equal(wal__tokens_reserve(&t, "a", 1, &a, &err), 0);
    assert_non_null(wal__tokens_find(&t, "a", 1)); /* in flight: still deduplicated */
    wal__tokens_commit(&t, a, 1);
    assert_null(wal__tokens_find(&t, "a", 1));
    assert_int_equal(wal__tokens_add_durable(&t, "b", 1, 2, &err), 0);
    assert_null(wal__tokens_find(&t, "b", 1));
    wal__tokens_deinit(&t);
}

static void test_duplicate_add_keeps_newest_lsn(void **state) {
    (void)state;
    wal__tokens t;
    mu_err err;
    assert_int_equal(wal__tokens_init(&t, 8, &err), 0);
    assert_int_equal(wal__tokens_add_durable(&t, "x", 1, 5, &err), 0);
    assert_int_equal(wal__tokens_add_durable(&t, "x", 1, 9, &err), 0);
    assert_int_equal(wal__tokens_add_durable(&t, "x", 1, 3, &err), 0);
    assert_int_equal(wal__tokens_find(&t, "x", 1)->lsn, 9);
    assert_int_equal(t.ring_count, 1);
    wal__tokens_deinit(&t);
}

static void test_many_tokens(void **state) {
    (void)state;
    wal__tokens t;
    mu_err err;
    assert_int_equal(wal__tokens_init(&t, 1000, &err), 0);
    for (int i = 0; i < 5000; i++) {
        char name[32];
        name_of(i, name, sizeof(name));
        assert_int_equal(wal__tokens_add_durable(&t, name, strlen(name), (uint64_t)i + 1, &err),
                         0);
    }
    int present = 0;
    for (int i = 0; i < 5000; i++) {
        char name[32];
        name_of(i, name, sizeof(name));
        wal__token *found = wal__tokens_find(&t, name, strlen(name));
        if (found != NULL) {
            present++;
            assert_true(i >= 4000);
        }
    }
    assert_int_equal(present, 1000);
    wal__tokens_deinit(&t);
}

static void test_bad_tokens(void **state) {
    (void)state;
    wal__tokens t;
    mu_err err;
    assert_int_equal(wal__tokens_init(&t, 4, &err), 0);
    char long_token[WAL_TOKEN_BYTES_MAX + 1];
    memset(long_token, 'q', sizeof(long_token));
    assert_int_equal(wal__tokens_add_durable(&t, "", 0, 1, &err), MU_EINVAL);
    assert_int_equal(wal__tokens_add_durable(&t, long_token, sizeof(long_token), 1, &err),
                     MU_EINVAL);
    assert_non_null(strstr(err.message, "257 bytes"));
    assert_int_equal(wal__tokens_add_durable(&t, long_token, WAL_TOKEN_BYTES_MAX, 1, &err), 0);
    /* Prefixes and one-byte differences are different tokens. */
    assert_int_equal(wal__tokens_add_durable(&t, "abc", 3, 1, &err), 0);
    assert_null(wal__tokens_find(&t, "ab", 2));
    assert_null(wal__tokens_find(&t, "abd", 3));
    assert_null(wal__tokens_find(&t, "abcd", 4));
    assert_non_null(wal__tokens_find(&t, "abc", 3));
    wal__tokens_deinit(&t);
    assert_int_equal(wal__tokens_init(&t, 1000000000000ull, &err), MU_EINVAL);
    wal__tokens_deinit(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserve_commit_find),
        cmocka_unit_test(test_window_evicts_oldest),
        cmocka_unit_test(test_window_zero_remembers_nothing),
        cmocka_unit_test(test_duplicate_add_keeps_newest_lsn),
        cmocka_unit_test(test_many_tokens),
        cmocka_unit_test(test_bad_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
