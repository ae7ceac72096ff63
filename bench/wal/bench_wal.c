/* bench_wal.c: how close group commit gets to the disk's own limit. In one
 * run it measures the raw rate of 4 KiB write + fdatasync under the bench
 * directory (the peer), then 1, 8 and 64 threads appending batch-sized
 * records to a WAL for a fixed time, and prints batches/s, rows/s, p50/p99
 * acknowledgement latency, batches per fsync and batches/s divided by the
 * raw fsync rate. Everything it creates is removed at the end.
 * Usage: bench_wal [--dir D] [--seconds S] [--batch-bytes B] [--rows R]
 *                  [--threads 1,8,64]
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"
#include "storage/wal/wal.h"

#define BENCH_THREADS_MAX 256
#define BENCH_RUNS_MAX 8
#define BENCH_SAMPLES_MAX (1u << 20) /* per thread */

typedef struct bench_config {
    char dir[512];
    double seconds;
    size_t batch_bytes;
    unsigned rows_per_batch;
    unsigned thread_counts[BENCH_RUNS_MAX];
    size_t run_count;
} bench_config;

typedef struct bench_thread {
    wal *w;
    int64_t deadline_ns;
    size_t batch_bytes;
    uint8_t *payload;
    int64_t *latencies_ns;
    size_t count;
    int error;
    mu_err err;
} bench_thread;

typedef struct bench_result {
    unsigned threads;
    double batches_per_second;
    double p50_ms;
    double p99_ms;
    double batches_per_sync;
} bench_result;

static void bench_die(const char *what, const mu_err *err) {
    fprintf(stderr, "bench_wal: %s: %s\n", what, err != NULL ? err->message : "");
    exit(1);
}

/* The peer: how many 4 KiB write + fdatasync pairs the disk does per second. */
static double bench_raw_fsync_rate(const bench_config *cfg) {
    char path[600];
    snprintf(path, sizeof(path), "%s/raw-fsync.bin", cfg->dir);
    mu_err err;
    io_file *file = NULL;
    if (io_open(&file, path, IO_OPEN_WRITE | IO_OPEN_CREATE | IO_OPEN_TRUNC, NULL, &err) != 0) {
        bench_die("open raw file", &err);
    }
    uint8_t block[4096];
    memset(block, 0xA5, sizeof(block));
    int64_t start = mu_clock_mono_ns();
    int64_t deadline = start + (int64_t)(cfg->seconds * 1e9);
    uint64_t syncs = 0;
    while (mu_clock_mono_ns() < deadline) {
        if (io_write_all(file, block, sizeof(block), NULL, &err) != 0 ||
            io_fdatasync(file, NULL, &err) != 0) {
            bench_die("raw write+fdatasync", &err);
        }
        syncs++;
    }
    double elapsed = (double)(mu_clock_mono_ns() - start) / 1e9;
    io_close(file, NULL);
    io_unlink(path, 0, NULL, NULL);
    return (double)syncs / elapsed;
}

static void *bench_appender(void *arg) {
    bench_thread *t = arg;
    wal_entry entry = {.type = 1, .payload = t->payload, .payload_bytes = t->batch_bytes};
    while (mu_clock_mono_ns() < t->deadline_ns && t->count < BENCH_SAMPLES_MAX) {
        wal_ack ack;
        int64_t begin = mu_clock_mono_ns();
        int rc = wal_append(t->w, &entry, &ack, &t->err);
        if (rc != 0) {
            t->error = rc;
            break;
        }
        t->latencies_ns[t->count++] = mu_clock_mono_ns() - begin;
    }
    return NULL;
}

static int bench_compare_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts all threads' samples together and fills the p50 and p99 latencies in ms. */
static void bench_percentiles(bench_thread *threads, unsigned count, bench_result *out) {
    size_t total = 0;
    for (unsigned i = 0; i < count; i++) total += threads[i].count;
    int64_t *all = malloc(MU_MAX(total, (size_t)1) * sizeof(*all));
    if (all == NULL) bench_die("out of memory", NULL);
    size_t k = 0;
    for (unsigned i = 0; i < count; i++) {
        memcpy(all + k, threads[i].latencies_ns, threads[i].count * sizeof(*all));
        k += threads[i].count;
    }
    qsort(all, total, sizeof(*all), bench_compare_i64);
    out->p50_ms = total > 0 ? (double)all[total / 2] / 1e6 : 0;
    out->p99_ms = total > 0 ? (double)all[MU_MIN(total - 1, total * 99 / 100)] / 1e6 : 0;
    free(all);
}

static void bench_remove_log(const char *dir) {
    io_dir_list list;
    if (io_list_dir(dir, &list, NULL) != 0) return;
    for (size_t i = 0; i < list.count; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, list.names[i]);
        io_unlink(path, 0, NULL, NULL);
    }
    io_dir_list_deinit(&list);
    io_rmdir(dir, false, NULL, NULL);
}

static wal *bench_open_log(const bench_config *cfg, unsigned threads, char *dir_out) {
    snprintf(dir_out, 600, "%s/wal-%u-threads", cfg->dir, threads);
    bench_remove_log(dir_out);
    wal_options opt;
    wal_options_init(&opt);
    opt.dir = dir_out;
    opt.name = "bench";
    opt.record_bytes_max = MU_MAX(opt.record_bytes_max, (uint64_t)cfg->batch_bytes + 1024);
    wal *w = NULL;
    mu_err err;
    if (wal_open(&w, &opt, NULL, NULL, &err) != 0) bench_die("wal_open", &err);
    return w;
}

static bench_result bench_run(const bench_config *cfg, unsigned thread_count) {
    char dir[600];
    wal *w = bench_open_log(cfg, thread_count, dir);
    static bench_thread threads[BENCH_THREADS_MAX];
    pthread_t tids[BENCH_THREADS_MAX];
    int64_t start = mu_clock_mono_ns();
    for (unsigned i = 0; i < thread_count; i++) {
        threads[i] = (bench_thread){.w = w, .batch_bytes = cfg->batch_bytes,
                                    .deadline_ns = start + (int64_t)(cfg->seconds * 1e9)};
        threads[i].payload = malloc(cfg->batch_bytes);
        threads[i].latencies_ns = malloc(BENCH_SAMPLES_MAX * sizeof(int64_t));
        if (threads[i].payload == NULL || threads[i].latencies_ns == NULL) {
            bench_die("out of memory", NULL);
        }
        for (size_t b = 0; b < cfg->batch_bytes; b++) threads[i].payload[b] = (uint8_t)(b * 31);
        if (pthread_create(&tids[i], NULL, bench_appender, &threads[i]) != 0) {
            bench_die("pthread_create", NULL);
        }
    }
    for (unsigned i = 0; i < thread_count; i++) pthread_join(tids[i], NULL);
    double elapsed = (double)(mu_clock_mono_ns() - start) / 1e9;
    wal_stats stats;
    wal_stats_get(w, &stats);
    wal_close(w);
    bench_result result = {.threads = thread_count};
    result.batches_per_second = (double)stats.records / elapsed;
    result.batches_per_sync = stats.syncs > 0 ? (double)stats.records / (double)stats.syncs : 0;
    bench_percentiles(threads, thread_count, &result);
    for (unsigned i = 0; i < thread_count; i++) {
        if (threads[i].error != 0) bench_die("wal_append", &threads[i].err);
        free(threads[i].payload);
        free(threads[i].latencies_ns);
    }
    bench_remove_log(dir);
    return result;
}

static void bench_usage(void) {
    fprintf(stderr, "usage: bench_wal [--dir D] [--seconds S] [--batch-bytes B] [--rows R] "
                    "[--threads 1,8,64]\n");
    exit(2);
}

static void bench_parse_threads(bench_config *cfg, const char *text) {
    cfg->run_count = 0;
    char copy[128];
    snprintf(copy, sizeof(copy), "%s", text);
    for (char *save = NULL, *part = strtok_r(copy, ",", &save); part != NULL;
         part = strtok_r(NULL, ",", &save)) {
        long n = strtol(part, NULL, 10);
        if (n < 1 || n > BENCH_THREADS_MAX || cfg->run_count == BENCH_RUNS_MAX) bench_usage();
        cfg->thread_counts[cfg->run_count++] = (unsigned)n;
    }
    if (cfg->run_count == 0) bench_usage();
}

static void bench_parse(bench_config *cfg, int argc, char **argv) {
    const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(cfg->dir, sizeof(cfg->dir), "%s/bench_wal.%d", tmp, (int)getpid());
    cfg->seconds = 5;
    cfg->batch_bytes = 60000; /* ~1000 rows of ~60 bytes, encoded */
    cfg->rows_per_batch = 1000;
    bench_parse_threads(cfg, "1,8,64");
    static const struct option options[] = {
        {"dir", required_argument, NULL, 'd'},     {"seconds", required_argument, NULL, 's'},
        {"batch-bytes", required_argument, NULL, 'b'}, {"rows", required_argument, NULL, 'r'},
        {"threads", required_argument, NULL, 't'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "d:s:b:r:t:", options, NULL)) != -1) {
        if (c == 'd') snprintf(cfg->dir, sizeof(cfg->dir), "%s/bench_wal.%d", optarg,
                               (int)getpid());
        else if (c == 's') cfg->seconds = strtod(optarg, NULL);
        else if (c == 'b') cfg->batch_bytes = strtoull(optarg, NULL, 10);
        else if (c == 'r') cfg->rows_per_batch = (unsigned)strtoul(optarg, NULL, 10);
        else if (c == 't') bench_parse_threads(cfg, optarg);
        else bench_usage();
    }
    if (cfg->seconds <= 0 || cfg->seconds > 60 || cfg->batch_bytes == 0 ||
        cfg->batch_bytes > (64u << 20) || cfg->rows_per_batch == 0) {
        bench_usage();
    }
}

int main(int argc, char **argv) {
    bench_config cfg;
    bench_parse(&cfg, argc, argv);
    mu_err err;
    if (io_mkdir_p(cfg.dir, NULL, &err) != 0) bench_die("create bench directory", &err);
    printf("bench_wal: dir=%s batch=%zu bytes (%u rows) %.1f s per run\n", cfg.dir,
           cfg.batch_bytes, cfg.rows_per_batch, cfg.seconds);
    double raw = bench_raw_fsync_rate(&cfg);
    printf("raw 4 KiB write+fdatasync: %.0f/s\n\n", raw);
    printf("%8s %12s %14s %10s %10s %14s %12s\n", "threads", "batches/s", "rows/s", "p50 ms",
           "p99 ms", "batches/fsync", "vs raw fsync");
    for (size_t i = 0; i < cfg.run_count; i++) {
        bench_result r = bench_run(&cfg, cfg.thread_counts[i]);
        printf("%8u %12.0f %14.0f %10.2f %10.2f %14.1f %11.2fx\n", r.threads,
               r.batches_per_second, r.batches_per_second * cfg.rows_per_batch, r.p50_ms,
               r.p99_ms, r.batches_per_sync, r.batches_per_second / raw);
        fflush(stdout);
    }
    io_rmdir(cfg.dir, false, NULL, NULL);
    return 0;
}
