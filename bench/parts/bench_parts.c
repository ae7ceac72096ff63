/* bench_parts.c: the muscles half of the parts benchmark (run.sh drives
 * ClickHouse 18.16 with the same rows). It generates a seeded events data
 * set, appends it through table_append in batches from several threads
 * (each append is synced by the WAL before it returns), flushes it to
 * parts and reports insert and flush throughput and the parts' bytes on
 * disk; it reads every part back to check the rows, and can write the same
 * rows as TabSeparated for the peer. Everything it creates under --dir is
 * removed at the end. Usage: see bench_usage and bench/README.md.
 */
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io.h"
#include "storage/table.h"

#define BENCH_THREADS_MAX 64
#define BENCH_COLUMNS 7
#define BENCH_USERS 100000
#define BENCH_URL_TEMPLATES 10
#define BENCH_URL_IDS 20
#define BENCH_URLS (BENCH_URL_TEMPLATES * BENCH_URL_IDS)
#define BENCH_TS_START 1704067200u /* 2024-01-01 00:00:00 UTC */
#define BENCH_TS_SPAN_SECONDS 86400u
#define BENCH_DEFAULT_FLUSH_ROWS 1048576u /* table_options: flush_rows 0 */

/* The table, in ClickHouse's terms (run.sh creates the same one there):
 * (ts DateTime, user_id UInt64, event String, url String, status UInt16,
 *  duration_ms Float64, bytes UInt32) ORDER BY (event, ts). */
enum { COL_TS, COL_USER, COL_EVENT, COL_URL, COL_STATUS, COL_DURATION, COL_BYTES };
static const char *const bench_column_names[BENCH_COLUMNS] = {
    "ts", "user_id", "event", "url", "status", "duration_ms", "bytes"};
static const char *const bench_type_names[BENCH_COLUMNS] = {
    "DateTime", "UInt64", "String", "String", "UInt16", "Float64", "UInt32"};
static const uint32_t bench_sort_key[] = {COL_EVENT, COL_TS};
static const ty_type *bench_types[BENCH_COLUMNS];

/* Event names and their weights in percent (they add up to 100). */
static const struct {
    const char *name;
    unsigned weight;
} bench_events[] = {
    {"page_view", 30}, {"click", 18},    {"scroll", 10},         {"search", 6},
    {"add_to_cart", 5}, {"remove_from_cart", 1}, {"checkout_start", 2},
    {"checkout_complete", 1}, {"login", 3}, {"logout", 2},        {"signup", 1},
    {"video_play", 4}, {"video_pause", 3}, {"share", 1},          {"like", 4},
    {"comment", 1},    {"error", 2},      {"api_call", 4},        {"download", 1},
    {"purchase", 1}};
static const char *const bench_url_templates[BENCH_URL_TEMPLATES] = {
    "/product/%u",      "/category/%u",  "/search?page=%u",    "/api/v1/items/%u",
    "/user/%u/profile", "/cart/%u",      "/checkout/step/%u",  "/blog/post-%u",
    "/video/%u/watch",  "/help/article/%u"};
static char bench_urls[BENCH_URLS][40];

typedef struct bench_config {
    uint64_t rows;
    uint32_t batch_rows;
    unsigned threads;
    uint64_t seed;
    char dir[512];
    const char *tsv_path; /* NULL: no TSV */
    bool run_default;     /* flush_rows 0 (1 Mi rows): flushes while inserting */
    bool run_single;      /* flush_rows > rows: one flush, timed alone */
} bench_config;

/* Sums over the data set: the generator's, a part read-back's and (in
 * run.sh) ClickHouse's must agree. */
typedef struct bench_sums {
    uint64_t rows;
    uint64_t ts;
    uint64_t user_id;
    uint64_t status;
    uint64_t bytes;
    uint64_t url_length;
    uint64_t raw_bytes; /* value widths + string bytes */
} bench_sums;

/* Bytes per file name under parts/, summed over the parts ("ts.bin",
 * "marks", "idx/minmax_event.idx", ...; "flushed_lsn" is the table's). */
#define BENCH_FILE_NAMES_MAX 64
typedef struct bench_files {
    size_t prefix_bytes; /* strlen(parts_dir) + 1 */
    uint32_t count;
    char names[BENCH_FILE_NAMES_MAX][64];
    uint64_t bytes[BENCH_FILE_NAMES_MAX];
} bench_files;

typedef struct bench_result {
    const char *name;
    uint64_t flush_rows;
    uint32_t part_count;
    double append_seconds; /* first append to last append returned */
    double flush_seconds;  /* table_flush after the last append */
    uint64_t bytes_on_disk;
    uint64_t dir_bytes; /* every file under parts/ (with flushed_lsn) */
    bench_files files; /* under parts/ after the run */
} bench_result;

static void bench_die(const char *what, const mu_err *err) {
    fprintf(stderr, "bench_parts: %s: %s\n", what, err != NULL ? err->message : "");
    exit(1);
}

static double bench_seconds_since(int64_t start_ns) {
    return (double)(mu_clock_mono_ns() - start_ns) / 1e9;
}

/* ------------------------------------------------------------------ */
/* Data set                                                            */
/* ------------------------------------------------------------------ */

typedef struct bench_rng {
    uint64_t state;
} bench_rng;

/* splitmix64: small, seedable, and the same on every platform. */
static uint64_t bench_rng_next(bench_rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in (0, 1]. */
static double bench_rng_unit(bench_rng *r) {
    return (double)((bench_rng_next(r) >> 11) + 1) * 0x1.0p-53;
}

static double bench_rng_normal(bench_rng *r) {
    double u1 = bench_rng_unit(r), u2 = bench_rng_unit(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static void bench_urls_init(void) {
    for (unsigned t = 0; t < BENCH_URL_TEMPLATES; t++) {
        for (unsigned k = 0; k < BENCH_URL_IDS; k++) {
            snprintf(bench_urls[t * BENCH_URL_IDS + k], sizeof(bench_urls[0]),
                     bench_url_templates[t], 1000 + 37 * k);
        }
    }
}

static unsigned bench_pick_event(bench_rng *r) {
    unsigned x = (unsigned)(bench_rng_next(r) % 100), i = 0;
    while (x >= bench_events[i].weight) x -= bench_events[i++].weight;
    MU_ASSERT(i < MU_ARRAY_LEN(bench_events));
    return i;
}

/* Zipf-ish (density ~ 1/rank) over BENCH_USERS ranks, scattered over a
 * 9-digit id space by multiplying with a prime (a bijection mod 9e8). */
static uint64_t bench_pick_user(bench_rng *r) {
    uint64_t rank = (uint64_t)exp(bench_rng_unit(r) * log((double)BENCH_USERS));
    rank = MU_MIN(MU_MAX(rank, (uint64_t)1), (uint64_t)BENCH_USERS);
    return 100000000u + (rank * 2654435761ull) % 900000000u;
}

static uint16_t bench_pick_status(bench_rng *r) {
    unsigned x = (unsigned)(bench_rng_next(r) % 1000);
    if (x < 900) return 200;
    if (x < 940) return 304;
    if (x < 950) return 301;
    if (x < 980) return 404;
    return x < 995 ? 500 : 503;
}

/* One row's fixed-width values and strings. */
typedef struct bench_row {
    uint32_t ts;
    uint64_t user_id;
    const char *event;
    const char *url;
    uint16_t status;
    double duration_ms;
    uint32_t bytes;
} bench_row;

static void bench_make_row(const bench_config *cfg, bench_rng *r, uint64_t index,
                           bench_row *row) {
    row->ts = BENCH_TS_START + (uint32_t)(index * BENCH_TS_SPAN_SECONDS / cfg->rows) +
              (uint32_t)(bench_rng_next(r) % 8);
    row->user_id = bench_pick_user(r);
    row->event = bench_events[bench_pick_event(r)].name;
    unsigned id = (unsigned)(BENCH_URL_IDS * pow(bench_rng_unit(r), 2.0)) % BENCH_URL_IDS;
    row->url = bench_urls[(bench_rng_next(r) % BENCH_URL_TEMPLATES) * BENCH_URL_IDS + id];
    row->status = bench_pick_status(r);
    /* Milliseconds with three decimals: the same double on both sides. */
    double ms = exp(3.0 + 1.2 * bench_rng_normal(r));
    row->duration_ms = round(MU_MIN(ms, 600000.0) * 1000.0) / 1000.0;
    double bytes = exp(9.0 + 1.5 * bench_rng_normal(r));
    row->bytes = row->status == 304 ? 0 : (uint32_t)MU_MIN(bytes, 50e6);
}

static void bench_sums_add_row(bench_sums *s, const bench_row *row) {
    size_t event_bytes = strlen(row->event), url_bytes = strlen(row->url);
    s->rows++;
    s->ts += row->ts;
    s->user_id += row->user_id;
    s->status += row->status;
    s->bytes += row->bytes;
    s->url_length += url_bytes;
    s->raw_bytes += 4 + 8 + 2 + 8 + 4 + event_bytes + url_bytes;
}

static int bench_append_row(ty_column *const *c, const bench_row *row, mu_err *err) {
    int rc = ty_column_append_value(c[COL_TS], &row->ts, err);
    if (rc == 0) rc = ty_column_append_value(c[COL_USER], &row->user_id, err);
    if (rc == 0) rc = ty_column_append_bytes(c[COL_EVENT], row->event, strlen(row->event), err);
    if (rc == 0) rc = ty_column_append_bytes(c[COL_URL], row->url, strlen(row->url), err);
    if (rc == 0) rc = ty_column_append_value(c[COL_STATUS], &row->status, err);
    if (rc == 0) rc = ty_column_append_value(c[COL_DURATION], &row->duration_ms, err);
    if (rc == 0) rc = ty_column_append_value(c[COL_BYTES], &row->bytes, err);
    return rc;
}

/* Batch b holds rows [b * batch_rows, ...); its generator is seeded by
 * (seed, b), so any batch can be rebuilt on its own. */
static ty_batch *bench_build_batch(const bench_config *cfg, uint32_t b, bench_sums *sums) {
    uint64_t first = (uint64_t)b * cfg->batch_rows;
    uint64_t last = MU_MIN(first + cfg->batch_rows, cfg->rows);
    bench_rng rng = {cfg->seed * 0x100000001B3ull + b};
    mu_err err;
    ty_batch *batch = NULL;
    ty_column *c[BENCH_COLUMNS];
    int rc = ty_batch_create(NULL, &batch, &err);
    for (int i = 0; i < BENCH_COLUMNS && rc == 0; i++) {
        rc = ty_batch_add_column(batch, bench_column_names[i], bench_types[i], &c[i], &err);
        if (rc == 0) rc = ty_column_reserve(c[i], (uint32_t)(last - first), &err);
    }
    for (uint64_t i = first; i < last && rc == 0; i++) {
        bench_row row;
        bench_make_row(cfg, &rng, i, &row);
        bench_sums_add_row(sums, &row);
        rc = bench_append_row(c, &row, &err);
    }
    if (rc == 0) rc = ty_batch_seal(batch, &err);
    if (rc != 0) bench_die("build a batch", &err);
    return batch;
}

/* Writes the rows as TabSeparated, as ClickHouse parses them (DateTime in
 * UTC, the server's timezone in run.sh). */
static void bench_write_tsv(const char *path, ty_batch *const *batches, uint32_t count) {
    FILE *f = fopen(path, "w");
    if (f == NULL) bench_die(path, NULL);
    static char buffer[1 << 20];
    setvbuf(f, buffer, _IOFBF, sizeof(buffer));
    for (uint32_t b = 0; b < count; b++) {
        ty_column *const *c = batches[b]->columns;
        const uint32_t *ts = (const uint32_t *)(const void *)ty_column_values(c[COL_TS]);
        const uint64_t *user = (const uint64_t *)(const void *)ty_column_values(c[COL_USER]);
        const uint16_t *status = (const uint16_t *)(const void *)ty_column_values(c[COL_STATUS]);
        const double *ms = (const double *)(const void *)ty_column_values(c[COL_DURATION]);
        const uint32_t *bytes = (const uint32_t *)(const void *)ty_column_values(c[COL_BYTES]);
        for (uint32_t i = 0; i < batches[b]->row_count; i++) {
            int64_t year;
            unsigned month, day, s = ts[i] % 86400;
            ty_civil_from_days(ts[i] / 86400, &year, &month, &day);
            size_t event_bytes, url_bytes;
            const uint8_t *event = ty_column_row_bytes(c[COL_EVENT], i, &event_bytes);
            const uint8_t *url = ty_column_row_bytes(c[COL_URL], i, &url_bytes);
            fprintf(f, "%04" PRId64 "-%02u-%02u %02u:%02u:%02u\t%" PRIu64 "\t%.*s\t%.*s\t%u\t"
                    "%.3f\t%u\n", year, month, day, s / 3600, s / 60 % 60, s % 60, user[i],
                    (int)event_bytes, (const char *)event, (int)url_bytes, (const char *)url,
                    status[i], ms[i], bytes[i]);
        }
    }
    if (fclose(f) != 0) bench_die("write the TSV file", NULL);
}

/* ------------------------------------------------------------------ */
/* Reading the parts back                                              */
/* ------------------------------------------------------------------ */

static void bench_sum_part_columns(ty_column *const *c, uint32_t rows, bench_sums *s) {
    const uint32_t *ts = (const uint32_t *)(const void *)ty_column_values(c[COL_TS]);
    const uint64_t *user = (const uint64_t *)(const void *)ty_column_values(c[COL_USER]);
    const uint16_t *status = (const uint16_t *)(const void *)ty_column_values(c[COL_STATUS]);
    const uint32_t *bytes = (const uint32_t *)(const void *)ty_column_values(c[COL_BYTES]);
    for (uint32_t i = 0; i < rows; i++) {
        size_t event_bytes, url_bytes;
        ty_column_row_bytes(c[COL_EVENT], i, &event_bytes);
        ty_column_row_bytes(c[COL_URL], i, &url_bytes);
        s->rows++;
        s->ts += ts[i];
        s->user_id += user[i];
        s->status += status[i];
        s->bytes += bytes[i];
        s->url_length += url_bytes;
        s->raw_bytes += 4 + 8 + 2 + 8 + 4 + event_bytes + url_bytes;
        if (i == 0) continue;
        int order = ty_column_compare_rows(c[COL_EVENT], i - 1, c[COL_EVENT], i);
        if (order == 0) order = ty_column_compare_rows(c[COL_TS], i - 1, c[COL_TS], i);
        if (order > 0) bench_die("a part is not sorted by (event, ts)", NULL);
    }
}

/* Reads every column of the part (checking each granule's checksum) and
 * adds its rows to s. */
static void bench_read_part(const part *p, bench_sums *s) {
    const part_info *info = part_get_info(p);
    ty_column *c[BENCH_COLUMNS] = {0};
    mu_err err;
    for (uint32_t i = 0; i < BENCH_COLUMNS; i++) {
        if (ty_column_create(bench_types[i], NULL, &c[i], &err) != 0 ||
            part_read(p, i, 0, info->granule_count, c[i], &err) != 0) {
            bench_die("read a part back", &err);
        }
        if (ty_column_row_count(c[i]) != info->row_count) bench_die("part row count", NULL);
    }
    bench_sum_part_columns(c, (uint32_t)info->row_count, s);
    for (uint32_t i = 0; i < BENCH_COLUMNS; i++) ty_column_destroy(c[i]);
}

static bench_files bench_tree; /* nftw has no context argument */

static int bench_tree_visit(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)ftw;
    if (flag != FTW_F || strlen(path) <= bench_tree.prefix_bytes) return 0;
    const char *name = path + bench_tree.prefix_bytes;
    const char *slash = strchr(name, '/');
    if (slash != NULL) name = slash + 1; /* drop the part directory */
    uint32_t i = 0;
    while (i < bench_tree.count && strcmp(bench_tree.names[i], name) != 0) i++;
    if (i == BENCH_FILE_NAMES_MAX) return 0;
    if (i == bench_tree.count) {
        snprintf(bench_tree.names[i], sizeof(bench_tree.names[i]), "%s", name);
        bench_tree.count++;
    }
    bench_tree.bytes[i] += (uint64_t)st->st_size;
    return 0;
}

/* Sums the parts of the table's current version; every row must be in a
 * part and read back equal to what was generated. */
static void bench_measure_parts(table *t, const char *parts_dir, const bench_sums *expected,
                                bench_result *result) {
    table_version *v = table_version_acquire(t);
    bench_sums got = {0};
    for (uint32_t i = 0; i < table_version_memtable_count(v); i++) {
        if (memtable_row_count(table_version_memtable(v, i)) != 0) {
            bench_die("rows left in a memtable after table_flush", NULL);
        }
    }
    result->part_count = table_version_part_count(v);
    for (uint32_t i = 0; i < result->part_count; i++) {
        const part *p = table_version_part(v, i);
        result->bytes_on_disk += part_get_info(p)->bytes_on_disk;
        bench_read_part(p, &got);
    }
    table_version_release(v);
    if (memcmp(&got, expected, sizeof(got)) != 0) {
        bench_die("the rows read back from the parts differ from the rows inserted", NULL);
    }
    memset(&bench_tree, 0, sizeof(bench_tree));
    bench_tree.prefix_bytes = strlen(parts_dir) + 1;
    if (nftw(parts_dir, bench_tree_visit, 16, FTW_PHYS) != 0) bench_die(parts_dir, NULL);
    result->files = bench_tree;
    for (uint32_t i = 0; i < result->files.count; i++) result->dir_bytes += result->files.bytes[i];
}

/* ------------------------------------------------------------------ */
/* One run: open, append from threads, flush, measure                   */
/* ------------------------------------------------------------------ */

typedef struct bench_writer {
    table *t;
    ty_batch *const *batches;
    uint32_t batch_count;
    atomic_uint *next;
    int rc;
    mu_err err;
} bench_writer;

static void *bench_writer_run(void *arg) {
    bench_writer *w = arg;
    for (;;) {
        unsigned b = atomic_fetch_add(w->next, 1);
        if (b >= w->batch_count) break;
        table_append_result result;
        w->rc = table_append(w->t, w->batches[b], NULL, 0, &result, &w->err);
        if (w->rc != 0) break;
        MU_ASSERT(result.rows == w->batches[b]->row_count);
    }
    return NULL;
}

static table *bench_open_table(const char *dir, const char *name, uint64_t flush_rows) {
    static char wal_dir[700], parts_dir[700];
    snprintf(wal_dir, sizeof(wal_dir), "%s/wal", dir);
    snprintf(parts_dir, sizeof(parts_dir), "%s/parts", dir);
    table_options opt = {0};
    opt.name = name;
    opt.wal_dir = wal_dir;
    opt.parts_dir = parts_dir;
    memcpy(opt.uuid, "bench_parts.uuid", 16);
    opt.column_count = BENCH_COLUMNS;
    opt.column_names = bench_column_names;
    opt.column_types = bench_types;
    opt.sort_key = bench_sort_key;
    opt.sort_key_count = MU_ARRAY_LEN(bench_sort_key);
    opt.flush_rows = flush_rows;
    opt.token_window = 1000;
    mu_err err;
    table *t = NULL;
    if (table_open(&t, &opt, &err) != 0) bench_die("table_open", &err);
    return t;
}

static void bench_run(const bench_config *cfg, ty_batch *const *batches, uint32_t batch_count,
                      const bench_sums *expected, bench_result *result) {
    char dir[600], parts_dir[700];
    snprintf(dir, sizeof(dir), "%s/%s", cfg->dir, result->name);
    snprintf(parts_dir, sizeof(parts_dir), "%s/parts", dir);
    mu_err err;
    if (io_remove_tree(dir, NULL, &err) != 0) bench_die(dir, &err);
    table *t = bench_open_table(dir, "default.events", result->flush_rows);
    static bench_writer writers[BENCH_THREADS_MAX];
    pthread_t tids[BENCH_THREADS_MAX];
    atomic_uint next = 0;
    int64_t start = mu_clock_mono_ns();
    for (unsigned i = 0; i < cfg->threads; i++) {
        writers[i] = (bench_writer){t, batches, batch_count, &next, 0, {0}};
        if (pthread_create(&tids[i], NULL, bench_writer_run, &writers[i]) != 0) {
            bench_die("pthread_create", NULL);
        }
    }
    for (unsigned i = 0; i < cfg->threads; i++) pthread_join(tids[i], NULL);
    result->append_seconds = bench_seconds_since(start);
    for (unsigned i = 0; i < cfg->threads; i++) {
        if (writers[i].rc != 0) bench_die("table_append", &writers[i].err);
    }
    int64_t flush_start = mu_clock_mono_ns();
    if (table_flush(t, &err) != 0) bench_die("table_flush", &err);
    result->flush_seconds = bench_seconds_since(flush_start);
    bench_measure_parts(t, parts_dir, expected, result);
    table_close(t);
    if (io_remove_tree(dir, NULL, &err) != 0) bench_die(dir, &err);
}

/* ------------------------------------------------------------------ */
/* Command line and report                                             */
/* ------------------------------------------------------------------ */

static void bench_usage(void) {
    fprintf(stderr, "usage: bench_parts [--rows N] [--batch-rows B] [--threads T] [--seed S]\n"
                    "                   [--dir D] [--tsv PATH] [--runs default,single]\n");
    exit(2);
}

static void bench_parse_runs(bench_config *cfg, const char *text) {
    cfg->run_default = strstr(text, "default") != NULL;
    cfg->run_single = strstr(text, "single") != NULL;
    if (!cfg->run_default && !cfg->run_single) bench_usage();
}

static void bench_parse(bench_config *cfg, int argc, char **argv) {
    const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    *cfg = (bench_config){.rows = 2000000, .batch_rows = 10000, .threads = 4, .seed = 1};
    snprintf(cfg->dir, sizeof(cfg->dir), "%s/bench_parts.%d", tmp, (int)getpid());
    bench_parse_runs(cfg, "default,single");
    static const struct option options[] = {
        {"rows", required_argument, NULL, 'n'},    {"batch-rows", required_argument, NULL, 'b'},
        {"threads", required_argument, NULL, 't'}, {"seed", required_argument, NULL, 's'},
        {"dir", required_argument, NULL, 'd'},     {"tsv", required_argument, NULL, 'o'},
        {"runs", required_argument, NULL, 'r'},    {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "n:b:t:s:d:o:r:", options, NULL)) != -1) {
        if (c == 'n') cfg->rows = strtoull(optarg, NULL, 10);
        else if (c == 'b') cfg->batch_rows = (uint32_t)strtoul(optarg, NULL, 10);
        else if (c == 't') cfg->threads = (unsigned)strtoul(optarg, NULL, 10);
        else if (c == 's') cfg->seed = strtoull(optarg, NULL, 10);
        else if (c == 'd') snprintf(cfg->dir, sizeof(cfg->dir), "%s/bench_parts.%d", optarg,
                                    (int)getpid());
        else if (c == 'o') cfg->tsv_path = optarg;
        else if (c == 'r') bench_parse_runs(cfg, optarg);
        else bench_usage();
    }
    /* A single flush keeps every row in one memtable and one part. */
    if (cfg->rows == 0 || cfg->rows >= TY_COLUMN_ROWS_MAX / 2 || cfg->batch_rows == 0 ||
        cfg->batch_rows > TY_BATCH_ROWS_MAX || cfg->threads == 0 ||
        cfg->threads > BENCH_THREADS_MAX || optind != argc) {
        bench_usage();
    }
}

static void bench_print_result(const bench_config *cfg, const bench_sums *sums,
                               const bench_result *r) {
    double total = r->append_seconds + r->flush_seconds;
    double insert_rate = (double)cfg->rows / total;
    bool flush_alone = r->flush_rows > cfg->rows; /* no flush ran during the appends */
    printf("%-8s %10" PRIu64 " %6u %9.2f %8.2f %14.0f", r->name, r->flush_rows, r->part_count,
           r->append_seconds, r->flush_seconds, insert_rate);
    if (flush_alone) {
        printf(" %13.0f %11.1f", (double)cfg->rows / r->flush_seconds,
               (double)sums->raw_bytes / 1e6 / r->flush_seconds);
    } else {
        printf(" %13s %11s", "-", "-");
    }
    printf(" %14" PRIu64 " %9.2f\n", r->bytes_on_disk,
           (double)r->bytes_on_disk / (double)sums->raw_bytes);
    fflush(stdout);
}

/* Machine-readable lines for run.sh. */
static void bench_print_machine(const bench_config *cfg, const bench_sums *sums,
                                const bench_result *r) {
    bool flush_alone = r->flush_rows > cfg->rows;
    double total = r->append_seconds + r->flush_seconds;
    printf("RESULT %s flush_rows=%" PRIu64 " parts=%u insert_rows_per_s=%.0f "
           "flush_rows_per_s=%.0f flush_mb_per_s=%.1f bytes_on_disk=%" PRIu64
           " dir_bytes=%" PRIu64 " append_s=%.3f flush_s=%.3f\n",
           r->name, r->flush_rows, r->part_count, (double)cfg->rows / total,
           flush_alone ? (double)cfg->rows / r->flush_seconds : 0,
           flush_alone ? (double)sums->raw_bytes / 1e6 / r->flush_seconds : 0, r->bytes_on_disk,
           r->dir_bytes, r->append_seconds, r->flush_seconds);
    for (uint32_t i = 0; i < r->files.count; i++) {
        printf("FILE %s %s %" PRIu64 "\n", r->name, r->files.names[i], r->files.bytes[i]);
    }
}

static void bench_init_types(void) {
    mu_err err;
    static mu_arena *arena;
    if (mu_arena_create(&arena, NULL, 0, &err) != 0) bench_die("arena", &err);
    for (int i = 0; i < BENCH_COLUMNS; i++) {
        if (ty_type_parse(bench_type_names[i], arena, &bench_types[i], &err) != 0) {
            bench_die("type", &err);
        }
    }
    bench_urls_init();
}

static ty_batch **bench_build_all(const bench_config *cfg, uint32_t count, bench_sums *sums) {
    ty_batch **batches = calloc(count, sizeof(*batches));
    if (batches == NULL) bench_die("out of memory", NULL);
    int64_t start = mu_clock_mono_ns();
    for (uint32_t b = 0; b < count; b++) batches[b] = bench_build_batch(cfg, b, sums);
    printf("data: %" PRIu64 " rows in %u batches, %" PRIu64 " bytes of raw column data "
           "(%.1f B/row), generated in %.2f s\n", sums->rows, count, sums->raw_bytes,
           (double)sums->raw_bytes / (double)sums->rows, bench_seconds_since(start));
    /* Same columns and order as run.sh's ClickHouse query. */
    printf("CHECK\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
           "\n", sums->rows, sums->ts, sums->user_id, sums->status, sums->bytes,
           sums->url_length);
    return batches;
}

int main(int argc, char **argv) {
    bench_config cfg;
    bench_parse(&cfg, argc, argv);
    mu_log_set_level(MU_LOG_WARN);
    bench_init_types();
    mu_err err;
    if (io_mkdir_p(cfg.dir, NULL, &err) != 0) bench_die("create bench directory", &err);
    uint32_t count = (uint32_t)((cfg.rows + cfg.batch_rows - 1) / cfg.batch_rows);
    printf("bench_parts: rows=%" PRIu64 " batch=%u rows threads=%u seed=%" PRIu64 " dir=%s\n",
           cfg.rows, cfg.batch_rows, cfg.threads, cfg.seed, cfg.dir);
    bench_sums sums = {0};
    ty_batch **batches = bench_build_all(&cfg, count, &sums);
    printf("\n%-8s %10s %6s %9s %8s %14s %13s %11s %14s %9s\n", "run", "flush_rows", "parts",
           "append s", "flush s", "insert rows/s", "flush rows/s", "flush MB/s", "bytes on disk",
           "disk/raw");
    bench_result results[2] = {{.name = "default", .flush_rows = BENCH_DEFAULT_FLUSH_ROWS},
                               {.name = "single", .flush_rows = cfg.rows + 1}};
    bool wanted[2] = {cfg.run_default, cfg.run_single};
    for (int i = 0; i < 2; i++) {
        if (!wanted[i]) continue;
        bench_run(&cfg, batches, count, &sums, &results[i]);
        bench_print_result(&cfg, &sums, &results[i]);
    }
    printf("\n");
    for (int i = 0; i < 2; i++) {
        if (wanted[i]) bench_print_machine(&cfg, &sums, &results[i]);
    }
    if (cfg.tsv_path != NULL) bench_write_tsv(cfg.tsv_path, batches, count);
    for (uint32_t b = 0; b < count; b++) ty_batch_destroy(batches[b]);
    free(batches);
    io_rmdir(cfg.dir, false, NULL, NULL);
    return 0;
}
