/* memtable_test.c: goal: the memtable stores exactly the rows appended, in
 * chunks of at most MEMTABLE_CHUNK_ROWS, publishes nothing on a failed
 * prepare, and gives lock-free readers consistent snapshots while a writer
 * appends (this test also runs under ThreadSanitizer in CI).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "storage/memtable/memtable.h"

static const char *const names[] = {"id", "name"};
static const ty_type *types[2];
static mu_arena *arena;

static int setup(void **state) {
    mu_err err;
    assert_int_equal(mu_arena_create(&arena, NULL, 0, &err), 0);
    assert_int_equal(ty_type_parse("UInt64", arena, &types[0], &err), 0);
    assert_int_equal(ty_type_parse("Nullable(String)", arena, &types[1], &err), 0);
    return 0;
}

static int teardown(void **state) {
    mu_arena_destroy(arena);
    return 0;
}

/* Rows [first, first + count): id = row, name = NULL every 5th row, else "n<row>". */
static ty_batch *make_batch(uint64_t first, uint32_t count) {
    mu_err err;
    ty_batch *b = NULL;
    ty_column *id = NULL, *name = NULL;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    assert_int_equal(ty_batch_add_column(b, names[0], types[0], &id, &err), 0);
    assert_int_equal(ty_batch_add_column(b, names[1], types[1], &name, &err), 0);
    for (uint64_t r = first; r < first + count; r++) {
        char text[32];
        int n = snprintf(text, sizeof(text), "n%llu", (unsigned long long)r);
        assert_int_equal(ty_column_append_value(id, &r, &err), 0);
        if (r % 5 == 0) assert_int_equal(ty_column_append_null(name, &err), 0);
        else assert_int_equal(ty_column_append_bytes(name, text, (size_t)n, &err), 0);
    }
    assert_int_equal(ty_batch_seal(b, &err), 0);
    return b;
}

/* Checks every row of a snapshot against make_batch's pattern; returns rows seen. */
static uint64_t check_snapshot(const memtable_snapshot *s) {
    uint64_t expected = 0;
    for (const memtable_chunk *c = memtable_snapshot_next(s, NULL); c != NULL;
         c = memtable_snapshot_next(s, c)) {
        if (c->first_row != expected || c->row_count == 0) return UINT64_MAX;
        if (c->row_count > MEMTABLE_CHUNK_ROWS) return UINT64_MAX;
        const uint64_t *ids = (const uint64_t *)(const void *)ty_column_values(c->columns[0]);
        for (uint32_t i = 0; i < c->row_count; i++) {
            uint64_t row = c->first_row + i;
            if (ids[i] != row) return UINT64_MAX;
            if ((row % 5 == 0) != ty_column_is_null(c->columns[1], i)) return UINT64_MAX;
            if (row % 5 != 0) {
                char text[32];
                size_t bytes = 0;
                int n = snprintf(text, sizeof(text), "n%llu", (unsigned long long)row);
                const uint8_t *p = ty_column_row_bytes(c->columns[1], i, &bytes);
                if (bytes != (size_t)n || memcmp(p, text, bytes) != 0) return UINT64_MAX;
            }
        }
        expected += c->row_count;
    }
    return expected;
}

static memtable *make_memtable(void) {
    mu_err err;
    memtable *m = NULL;
    memtable_schema schema = {2, names, types};
    assert_int_equal(memtable_create(&m, &schema, NULL, &err), 0);
    return m;
}

static void test_empty_snapshot(void **state) {
    memtable *m = make_memtable();
    memtable_snapshot s;
    memtable_snapshot_take(m, &s);
    assert_int_equal(s.row_count, 0);
    assert_null(memtable_snapshot_next(&s, NULL));
    assert_int_equal(memtable_max_lsn(m), 0);
    memtable_destroy(m);
}

static void test_append_splits_into_chunks(void **state) {
    mu_err err;
    memtable *m = make_memtable();
    ty_batch *b = make_batch(0, 20000);
    assert_int_equal(memtable_append(m, b, 7, &err), 0);
    ty_batch_destroy(b);
    b = make_batch(20000, 3);
    assert_int_equal(memtable_append(m, b, 9, &err), 0);
    ty_batch_destroy(b);
    memtable_snapshot s;
    memtable_snapshot_take(m, &s);
    assert_int_equal(s.row_count, 20003);
    assert_int_equal(check_snapshot(&s), 20003);
    unsigned chunks = 0;
    for (const memtable_chunk *c = memtable_snapshot_next(&s, NULL); c != NULL;
         c = memtable_snapshot_next(&s, c)) {
        chunks++;
        assert_int_equal(c->lsn, chunks <= 3 ? 7 : 9);
    }
    assert_int_equal(chunks, 4); /* 8192 + 8192 + 3616, then 3 */
    assert_int_equal(memtable_max_lsn(m), 9);
    memtable_destroy(m);
}

static void test_selection_vector_is_applied(void **state) {
    mu_err err;
    memtable *m = make_memtable();
    ty_batch *b = make_batch(0, 10);
    uint32_t rows[] = {0, 1, 2};
    assert_int_equal(ty_batch_set_selection(b, rows, 3, &err), 0);
    assert_int_equal(memtable_append(m, b, 1, &err), 0);
    ty_batch_destroy(b);
    memtable_snapshot s;
    memtable_snapshot_take(m, &s);
    assert_int_equal(check_snapshot(&s), 3);
    memtable_destroy(m);
}

static void test_wrong_batch_is_refused_and_nothing_published(void **state) {
    mu_err err;
    memtable *m = make_memtable();
    ty_batch *b = NULL;
    ty_column *c = NULL;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    assert_int_equal(ty_batch_add_column(b, "id", types[0], &c, &err), 0);
    assert_int_equal(ty_batch_seal(b, &err), 0);
    assert_int_equal(memtable_append(m, b, 1, &err), MU_EINVAL); /* one column short */
    assert_non_null(strstr(err.message, "1 columns"));
    ty_batch_destroy(b);
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    assert_int_equal(ty_batch_add_column(b, "id", types[1], &c, &err), 0);
    assert_int_equal(ty_batch_add_column(b, "name", types[1], &c, &err), 0);
    assert_int_equal(ty_batch_seal(b, &err), 0);
    assert_int_equal(memtable_append(m, b, 1, &err), MU_ETYPE); /* id is not UInt64 */
    assert_non_null(strstr(err.message, "column id"));
    ty_batch_destroy(b);
    assert_int_equal(memtable_row_count(m), 0);
    memtable_destroy(m);
}

static void test_prepare_then_discard_publishes_nothing(void **state) {
    mu_err err;
    memtable *m = make_memtable();
    ty_batch *b = make_batch(0, 100);
    memtable_pending *p = NULL;
    assert_int_equal(memtable_prepare(memtable_get_schema(m), NULL, b, &p, &err), 0);
    memtable_pending_discard(p);
    assert_int_equal(memtable_row_count(m), 0);
    assert_int_equal(memtable_prepare(memtable_get_schema(m), NULL, b, &p, &err), 0);
    memtable_publish(m, p, 5);
    assert_int_equal(memtable_row_count(m), 100);
    ty_batch_destroy(b);
    memtable_destroy(m);
}

typedef struct reader_arg {
    memtable *m;
    _Atomic int *stop;
    uint64_t snapshots;
    int failed;
} reader_arg;

static void *reader_run(void *p) {
    reader_arg *a = p;
    uint64_t last = 0;
    while (!atomic_load(a->stop) || a->snapshots == 0) {
        memtable_snapshot s;
        memtable_snapshot_take(a->m, &s);
        uint64_t seen = check_snapshot(&s);
        if (seen != s.row_count || s.row_count < last) a->failed = 1;
        last = s.row_count;
        a->snapshots++;
    }
    return NULL;
}

static void test_concurrent_append_and_snapshots(void **state) {
    mu_err err;
    memtable *m = make_memtable();
    _Atomic int stop = 0;
    reader_arg args[3];
    pthread_t tids[3];
    for (int i = 0; i < 3; i++) {
        args[i] = (reader_arg){m, &stop, 0, 0};
        assert_int_equal(pthread_create(&tids[i], NULL, reader_run, &args[i]), 0);
    }
    uint64_t row = 0;
    for (uint32_t k = 0; k < 400; k++) {
        uint32_t count = 1 + (k * 37) % 700; /* small and odd sizes */
        ty_batch *b = make_batch(row, count);
        assert_int_equal(memtable_append(m, b, k + 1, &err), 0);
        ty_batch_destroy(b);
        row += count;
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < 3; i++) {
        pthread_join(tids[i], NULL);
        assert_int_equal(args[i].failed, 0);
        assert_true(args[i].snapshots > 0);
    }
    memtable_snapshot s;
    memtable_snapshot_take(m, &s);
    assert_int_equal(check_snapshot(&s), row);
    memtable_destroy(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_snapshot),
        cmocka_unit_test(test_append_splits_into_chunks),
        cmocka_unit_test(test_selection_vector_is_applied),
        cmocka_unit_test(test_wrong_batch_is_refused_and_nothing_published),
        cmocka_unit_test(test_prepare_then_discard_publishes_nothing),
        cmocka_unit_test(test_concurrent_append_and_snapshots),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
