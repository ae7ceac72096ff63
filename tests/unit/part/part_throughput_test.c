/* part_throughput_test.c: goal — measure, and bound loosely, the write
 * and read throughput of parts on a log-like table of 1M rows (UInt64 ts
 * increasing as the sort key, String message, Float64 value,
 * LowCardinality(String) service) with the default granularity and LZ4,
 * including every fsync; and check the round trip of all rows. Numbers
 * are printed (rows/s, MB/s of raw stream bytes) for the Release build;
 * the assertion only guards against pathological slowness.
 * MUSCLES_PART_BENCH_ROWS overrides the row count.
 */
#include "part_test_util.h"

static const char *words[] = {"GET", "POST", "/api/v1/users", "/health", "status=200",
                              "status=500", "took", "ms", "user_id", "request", "timeout",
                              "connection", "reset", "cache", "miss", "hit", "db", "query"};

static ty_column *columns[4];
static uint32_t rows;

static void build_rows(void) {
    const char *env = getenv("MUSCLES_PART_BENCH_ROWS");
    rows = env != NULL ? (uint32_t)strtoul(env, NULL, 10) : 1000000u;
    columns[0] = pt_column("UInt64");
    columns[1] = pt_column("String");
    columns[2] = pt_column("Float64");
    columns[3] = pt_column("LowCardinality(String)");
    mu_err err;
    pt_check(ty_column_reserve(columns[0], rows, &err), &err, "reserve");
    uint64_t ts = 1700000000000ull;
    for (uint32_t r = 0; r < rows; r++) {
        ts += pt_rand() % 3;
        char text[256], service[32];
        int n = 0;
        int word_count = 4 + (int)(pt_rand() % 8);
        for (int w = 0; w < word_count; w++)
            n += snprintf(text + n, sizeof(text) - (size_t)n, "%s%s", w ? " " : "",
                          words[pt_rand() % MU_ARRAY_LEN(words)]);
        double value = (double)(pt_rand() % 100000) / 100.0;
        int s = snprintf(service, sizeof(service), "service-%u", (unsigned)(pt_rand() % 40));
        pt_check(ty_column_append_value(columns[0], &ts, &err), &err, "ts");
        pt_check(ty_column_append_bytes(columns[1], text, (size_t)n, &err), &err, "message");
        pt_check(ty_column_append_value(columns[2], &value, &err), &err, "value");
        pt_check(ty_column_append_bytes(columns[3], service, (size_t)s, &err), &err, "service");
    }
}

static double seconds_since(int64_t start_ns) {
    return (double)(mu_clock_mono_ns() - start_ns) / 1e9;
}

static void test_throughput(void **state) {
    (void)state;
    build_rows();
    static const uint32_t key = 0;
    part_column_def defs[4] = {{.name = "ts", .type = columns[0]->type, .minmax = true},
                               {.name = "message", .type = columns[1]->type},
                               {.name = "value", .type = columns[2]->type},
                               {.name = "service", .type = columns[3]->type}};
    part_schema schema = {.columns = defs, .column_count = 4, .key_columns = &key, .key_count = 1};
    mu_err err;
    uint32_t *perm = malloc((size_t)rows * sizeof(uint32_t));
    int64_t start = mu_clock_mono_ns();
    pt_check(part_sort_permutation((const ty_column *const *)columns, &key, 1, rows, perm, &err),
             &err, "sort");
    double sort_seconds = seconds_since(start);
    free(perm);
    start = mu_clock_mono_ns();
    part_writer *w = NULL;
    pt_check(part_writer_open(&w, pt_path("tmp_bench"), &schema, NULL, &err), &err, "open");
    for (uint32_t from = 0; from < rows; from += 65536)
        pt_check(part_writer_append(w, (const ty_column *const *)columns, from,
                                    MU_MIN(65536u, rows - from), &err),
                 &err, "append");
    part_meta meta = pt_meta();
    pt_check(part_writer_finish(w, &meta, &err), &err, "finish");
    double write_seconds = seconds_since(start);
    part_writer_stats stats;
    part_writer_get_stats(w, &stats);
    part_writer_close(w);
    part *p = NULL;
    start = mu_clock_mono_ns();
    pt_check(part_open(&p, pt_path("tmp_bench"), "bench", &err), &err, "open part");
    ty_column *got[4];
    for (uint32_t c = 0; c < 4; c++) got[c] = pt_read_all(p, c);
    double read_seconds = seconds_since(start);
    double raw_mb = (double)stats.raw_bytes / 1e6;
    printf("part throughput: %u rows, %.1f MB raw streams, %.1f MB on disk (ratio %.2f)\n", rows,
           raw_mb, (double)stats.written_bytes / 1e6,
           (double)stats.raw_bytes / (double)stats.written_bytes);
    printf("  write+fsync: %.3f s, %.2f M rows/s, %.0f MB/s raw\n", write_seconds,
           rows / write_seconds / 1e6, raw_mb / write_seconds);
    printf("  read all:    %.3f s, %.2f M rows/s, %.0f MB/s raw\n", read_seconds,
           rows / read_seconds / 1e6, raw_mb / read_seconds);
    printf("  sort check of sorted keys: %.3f s\n", sort_seconds);
    for (uint32_t c = 0; c < 4; c++) {
        pt_assert_rows_equal(columns[c], 0, got[c], 0, rows);
        ty_column_destroy(got[c]);
        ty_column_destroy(columns[c]);
    }
    part_close(p);
    assert_true(write_seconds < 120 && read_seconds < 120);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_throughput, pt_setup, pt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
