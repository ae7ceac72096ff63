/* wal_driver.c: a small program around table_append for crash tests. The
 * harness (tests/fault/test_write_path.py) kills it with SIGKILL at random
 * moments or through failpoints, then checks what a restart finds.
 *
 *   wal_driver append DIR THREADS BATCHES ROWS
 *     THREADS appenders each store BATCHES batches of ROWS rows; batch ids
 *     are thread * 1000000 + k, each with the insert token "b<id>". Prints
 *     "ack <id>" once table_append returned (the acknowledgement) and
 *     "err <id> <CODE> <message>" for a refused batch.
 *   wal_driver read DIR
 *     Reads every granule of every part column by column; prints one
 *     "read-error ..." line per failing granule and a summary.
 *   wal_driver count DIR LO HI
 *     Counts rows with LO <= batch_id <= HI in the parts, skipping
 *     granules by the minmax index; prints the count and granules read.
 *   (WAL_DRIVER_FLUSH_ROWS / WAL_DRIVER_FLUSH_INTERVAL_MS set the flush
 *     thresholds; the table is PARTITION BY batch_id % 3, ORDER BY
 *     (batch_id, row_index), 256-row granules, under DIR/wal and DIR/parts.)
 *     Reopens the table and checks: every batch present is whole and exact
 *     (ROWS rows, each row index once, the expected payloads), every id in
 *     ACKED_FILE is present, and re-appending every present batch with its
 *     token answers "already stored" and stores nothing. Prints
 *     "verify ok batches=N rows=M" or "verify FAIL ..." and exits 1.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/table.h"

#define DRIVER_BATCH_ID_STRIDE 1000000u
#define DRIVER_IDS_MAX 1000000u

static const char *const column_names[] = {"batch_id", "row_index", "payload", "note"};
static const ty_type *column_types[4];
static mu_arena *type_arena;

static void die(const char *what, const mu_err *err) {
    fprintf(stderr, "wal_driver: %s: %s (%s)\n", what, err->message, mu_code_name(err->code));
    exit(2);
}

/* Rows flushed to parts once the memtable holds this many (many small
 * flushes, so kills land in every step of a flush). */
static uint64_t driver_flush_rows = 3000;
static uint64_t driver_flush_interval_ms = 50;
/* Thread numbers (and so batch ids) start here: WAL_DRIVER_THREAD_BASE. */
static unsigned driver_thread_base = 0;

/* PARTITION BY batch_id % 3: each flush writes up to three parts. */
/* Computed key 0, the partition: "p<id % 3>". */
static int partition_of(void *ctx, uint32_t key, const ty_column *const *columns, uint32_t rows,
                        ty_column **out, mu_err *err) {
    (void)ctx;
    (void)key;
    const uint64_t *ids = (const uint64_t *)(const void *)ty_column_values(columns[0]);
    int rc = ty_column_create(ty_type_builtin(TY_STRING), NULL, out, err);
    for (uint32_t row = 0; row < rows && rc == 0; row++) {
        char text[32];
        int n = snprintf(text, sizeof(text), "p%llu", (unsigned long long)(ids[row] % 3));
        rc = ty_column_append_bytes(*out, text, (size_t)n, err);
    }
    return rc;
}

static void open_table(const char *dir, table **out) {
    mu_err err;
    const char *names[] = {"UInt64", "UInt32", "String", "Nullable(String)"};
    if (mu_arena_create(&type_arena, NULL, 0, &err) != 0) die("arena", &err);
    for (int i = 0; i < 4; i++) {
        if (ty_type_parse(names[i], type_arena, &column_types[i], &err) != 0) die("type", &err);
    }
    static char wal_dir[4096], parts_dir[4096];
    static const uint32_t sort_key[] = {0, 1};
    snprintf(wal_dir, sizeof(wal_dir), "%s/wal", dir);
    snprintf(parts_dir, sizeof(parts_dir), "%s/parts", dir);
    table_options opt = {0};
    opt.name = "default.crash_test";
    opt.wal_dir = wal_dir;
    opt.parts_dir = parts_dir;
    opt.sort_key = sort_key;
    opt.sort_key_count = 2;
    opt.partitioned = true;
    opt.partition_key = 4; /* computed key 0 */
    opt.computed_key_count = 1;
    opt.key_fn = partition_of;
    opt.index_granularity = 256;
    opt.flush_rows = driver_flush_rows;
    opt.flush_interval_ms = driver_flush_interval_ms;
    opt.column_count = 4;
    opt.column_names = column_names;
    opt.column_types = column_types;
    opt.wal_segment_bytes = 256 * 1024; /* small, so runs cross segment rolls */
    opt.token_window = 100000;
    if (table_open(out, &opt, &err) != 0) die("table_open", &err);
}

static void payload_text(uint64_t id, uint32_t row, char *out, size_t out_bytes) {
    snprintf(out, out_bytes, "payload-%" PRIu64 "-%u-%0*u", id, row, (int)(row % 40), 0u);
}

/* Rows [from, from + rows) of batch id. */
static int build_batch_range(uint64_t id, uint32_t from, uint32_t rows, ty_batch **out,
                             mu_err *err) {
    ty_batch *b = NULL;
    ty_column *c[4];
    int rc = ty_batch_create(NULL, &b, err);
    for (int i = 0; i < 4 && rc == 0; i++) {
        rc = ty_batch_add_column(b, column_names[i], column_types[i], &c[i], err);
    }
    for (uint32_t r = from; r < from + rows && rc == 0; r++) {
        char text[96];
        uint32_t row = r;
        payload_text(id, r, text, sizeof(text));
        rc = ty_column_append_value(c[0], &id, err);
        if (rc == 0) rc = ty_column_append_value(c[1], &row, err);
        if (rc == 0) rc = ty_column_append_bytes(c[2], text, strlen(text), err);
        if (rc == 0 && r % 7 == 0) rc = ty_column_append_null(c[3], err);
        else if (rc == 0) rc = ty_column_append_bytes(c[3], text, 6, err);
    }
    if (rc == 0) rc = ty_batch_seal(b, err);
    if (rc != 0) ty_batch_destroy(b);
    else *out = b;
    return rc;
}

static int build_batch(uint64_t id, uint32_t rows, ty_batch **out, mu_err *err) {
    return build_batch_range(id, 0, rows, out, err);
}

/* WAL_DRIVER_FLUSH_EVERY=k: each appender asks for a flush after every
 * k batches. */
static unsigned driver_flush_every;

/* WAL_DRIVER_STAGE=1: every other batch is stored through a table stage in
 * three pieces (an atomic multi-batch insert) instead of one append. */
static bool driver_stage;

static int stage_batch(table *t, uint64_t id, uint32_t rows, const char *token,
                       size_t token_bytes, table_append_result *result, mu_err *err) {
    table_stage *stage = NULL;
    int rc = table_stage_open(t, token, token_bytes, &stage, err);
    uint32_t piece = rows / 3 + 1;
    for (uint32_t from = 0; from < rows && rc == 0; from += piece) {
        ty_batch *b = NULL;
        rc = build_batch_range(id, from, MU_MIN(piece, rows - from), &b, err);
        if (rc == 0) rc = table_stage_append(stage, b, err);
        ty_batch_destroy(b);
    }
    if (rc == 0) rc = table_stage_commit(stage, result, err);
    table_stage_close(stage);
    return rc;
}

typedef struct appender {
    table *t;
    unsigned thread;
    unsigned batches;
    uint32_t rows;
} appender;

/* One line per write(2) so lines of concurrent threads never interleave. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t len = MU_MIN((size_t)n, sizeof(line) - 1);
    if (write(STDOUT_FILENO, line, len) != (ssize_t)len) _exit(3);
}

static void *appender_run(void *arg) {
    appender *a = arg;
    for (unsigned k = 0; k < a->batches; k++) {
        uint64_t id = (uint64_t)a->thread * DRIVER_BATCH_ID_STRIDE + k;
        char token[32];
        int token_bytes = snprintf(token, sizeof(token), "b%" PRIu64, id);
        ty_batch *b = NULL;
        mu_err err;
        table_append_result result;
        int rc;
        if (driver_stage && k % 2 == 1) {
            rc = stage_batch(a->t, id, a->rows, token, (size_t)token_bytes, &result, &err);
        } else {
            rc = build_batch(id, a->rows, &b, &err);
            if (rc == 0) rc = table_append(a->t, b, token, (size_t)token_bytes, &result, &err);
            ty_batch_destroy(b);
        }
        if (rc == 0) say("ack %" PRIu64 "\n", id);
        else say("err %" PRIu64 " %s %s\n", id, mu_code_name(rc), err.message);
        if (driver_flush_every > 0 && (k + 1) % driver_flush_every == 0) {
            /* A flush round now and then whatever the machine's speed, so a
             * crash point in the flush is reached a known number of times. */
            mu_err flush_err;
            (void)table_flush(a->t, &flush_err);
        }
    }
    return NULL;
}

static int command_append(const char *dir, unsigned threads, unsigned batches, uint32_t rows) {
    table *t = NULL;
    open_table(dir, &t);
    say("ready\n");
    pthread_t tids[256];
    appender args[256];
    threads = MU_MIN(threads, 256u);
    for (unsigned i = 0; i < threads; i++) {
        args[i] = (appender){t, driver_thread_base + i, batches, rows};
        if (pthread_create(&tids[i], NULL, appender_run, &args[i]) != 0) return 2;
    }
    for (unsigned i = 0; i < threads; i++) pthread_join(tids[i], NULL);
    const char *final_flush = getenv("WAL_DRIVER_FINAL_FLUSH");
    if (final_flush != NULL && strcmp(final_flush, "1") == 0) {
        /* A round now (it also ends a failed round's back-off), so what the
         * test expects of a retried flush does not depend on timing. */
        mu_err err;
        if (table_flush(t, &err) != 0) say("final flush failed: %s\n", err.message);
    }
    table_close(t);
    say("done\n");
    return 0;
}

typedef struct row_key {
    uint64_t id;
    uint32_t row;
} row_key;

static int row_key_compare(const void *a, const void *b) {
    const row_key *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Checks one row's payload and note against what build_batch wrote. */
static int check_row(ty_column *const *columns, uint32_t i, uint64_t id, uint32_t row) {
    char text[96];
    size_t bytes = 0;
    payload_text(id, row, text, sizeof(text));
    const uint8_t *p = ty_column_row_bytes(columns[2], i, &bytes);
    if (bytes != strlen(text) || memcmp(p, text, bytes) != 0) return -1;
    const ty_column *note = columns[3];
    if (row % 7 == 0) return ty_column_is_null(note, i) ? 0 : -1;
    if (ty_column_is_null(note, i)) return -1;
    p = ty_column_row_bytes(note, i, &bytes);
    return bytes == 6 && memcmp(p, text, 6) == 0 ? 0 : -1;
}

/* Adds rows [0, count) of columns to keys, checking each row's payload. */
static void collect_columns(ty_column *const *columns, uint32_t count, row_key *keys,
                            uint64_t *n) {
    const uint64_t *ids = (const uint64_t *)(const void *)ty_column_values(columns[0]);
    const uint32_t *rows = (const uint32_t *)(const void *)ty_column_values(columns[1]);
    for (uint32_t i = 0; i < count; i++) {
        if (check_row(columns, i, ids[i], rows[i]) != 0) {
            say("verify FAIL batch %" PRIu64 " row %u: wrong payload\n", ids[i], rows[i]);
            exit(1);
        }
        keys[(*n)++] = (row_key){ids[i], rows[i]};
    }
}

/* Reads a whole part back, checking every granule's checksum. */
static void collect_part(const part *p, row_key **keys, uint64_t *n, uint64_t *capacity) {
    const part_info *info = part_get_info(p);
    if (*n + info->row_count > *capacity) {
        *capacity = (*n + info->row_count) * 2;
        *keys = realloc(*keys, *capacity * sizeof(**keys));
    }
    ty_column *columns[4];
    mu_err err;
    for (uint32_t c = 0; c < 4; c++) {
        if (ty_column_create(column_types[c], NULL, &columns[c], &err) != 0 ||
            part_read(p, c, 0, info->granule_count, columns[c], &err) != 0) {
            say("verify FAIL part %s: %s\n", info->name, err.message);
            exit(1);
        }
    }
    collect_columns(columns, (uint32_t)info->row_count, *keys, n);
    for (uint32_t c = 0; c < 4; c++) ty_column_destroy(columns[c]);
}

/* Collects every stored row (parts, then memtables) as (batch id, row). */
static row_key *collect_rows(table *t, uint64_t *count_out, uint32_t *parts_out) {
    table_version *v = table_version_acquire(t);
    uint64_t capacity = 1024, n = 0;
    row_key *keys = malloc(capacity * sizeof(*keys));
    for (uint32_t i = 0; i < table_version_part_count(v); i++) {
        collect_part(table_version_part(v, i), &keys, &n, &capacity);
    }
    for (uint32_t m = 0; m < table_version_memtable_count(v); m++) {
        memtable_snapshot snap;
        memtable_snapshot_take(table_version_memtable(v, m), &snap);
        if (n + snap.row_count > capacity) {
            capacity = (n + snap.row_count) * 2;
            keys = realloc(keys, capacity * sizeof(*keys));
        }
        for (const memtable_chunk *c = memtable_snapshot_next(&snap, NULL); c != NULL;
             c = memtable_snapshot_next(&snap, c)) {
            collect_columns(c->columns, c->row_count, keys, &n);
        }
    }
    *parts_out = table_version_part_count(v);
    table_version_release(v);
    *count_out = n;
    return keys;
}

/* Every batch whole and exact; returns the sorted distinct ids. */
static uint64_t *check_batches(row_key *keys, uint64_t n, uint32_t rows, uint64_t *ids_count) {
    qsort(keys, n, sizeof(*keys), row_key_compare);
    uint64_t *ids = malloc((n / (rows ? rows : 1) + 1) * sizeof(*ids));
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; i += rows) {
        for (uint32_t r = 0; r < rows; r++) {
            if (i + r >= n || keys[i + r].id != keys[i].id || keys[i + r].row != r) {
                say("verify FAIL batch %" PRIu64 ": not whole or duplicated near row %u\n",
                    keys[i].id, r);
                exit(1);
            }
        }
        if (count > 0 && ids[count - 1] == keys[i].id) {
            say("verify FAIL batch %" PRIu64 " stored twice\n", keys[i].id);
            exit(1);
        }
        ids[count++] = keys[i].id;
    }
    *ids_count = count;
    return ids;
}

static int id_compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void check_acked(const char *acked_path, const uint64_t *ids, uint64_t count) {
    FILE *f = fopen(acked_path, "r");
    if (f == NULL) {
        say("verify FAIL cannot read %s\n", acked_path);
        exit(1);
    }
    uint64_t id;
    while (fscanf(f, "%" SCNu64, &id) == 1) {
        if (bsearch(&id, ids, count, sizeof(*ids), id_compare) == NULL) {
            say("verify FAIL acknowledged batch %" PRIu64 " is missing\n", id);
            exit(1);
        }
    }
    fclose(f);
}

/* Retries every stored batch with its token: each must be "already stored". */
static void check_tokens(table *t, const uint64_t *ids, uint64_t count, uint32_t rows) {
    for (uint64_t i = 0; i < count; i++) {
        char token[32];
        int token_bytes = snprintf(token, sizeof(token), "b%" PRIu64, ids[i]);
        ty_batch *b = NULL;
        mu_err err;
        table_append_result result;
        int rc = build_batch(ids[i], rows, &b, &err);
        if (rc == 0) rc = table_append(t, b, token, (size_t)token_bytes, &result, &err);
        ty_batch_destroy(b);
        if (rc != 0 || !result.already_stored) {
            say("verify FAIL retry of batch %" PRIu64 " with its token %s\n", ids[i],
                rc != 0 ? err.message : "was stored again");
            exit(1);
        }
    }
}

static int command_verify(const char *dir, uint32_t rows, const char *acked_path) {
    table *t = NULL;
    open_table(dir, &t);
    uint64_t n = 0, id_count = 0;
    uint32_t parts = 0;
    row_key *keys = collect_rows(t, &n, &parts);
    if (keys == NULL) return 2;
    uint64_t *ids = check_batches(keys, n, rows, &id_count);
    check_acked(acked_path, ids, id_count);
    mu_err state;
    if (table_write_state(t, &state) == 0) {
        check_tokens(t, ids, id_count, rows);
        uint64_t after = 0;
        uint32_t parts_after = 0;
        free(collect_rows(t, &after, &parts_after));
        if (after != n) {
            say("verify FAIL token retries stored rows: %" PRIu64 " -> %" PRIu64 "\n", n,
                after);
            return 1;
        }
    } else {
        say("note table refuses writes: %s\n", state.message);
    }
    say("verify ok batches=%" PRIu64 " rows=%" PRIu64 " parts=%u\n", id_count, n, parts);
    free(ids);
    free(keys);
    table_close(t);
    mu_arena_destroy(type_arena);
    return 0;
}

/* Reads every granule of every column of every part, one at a time, and
 * reports each failure; a damaged block must fail only its own granule. */
static int command_read(const char *dir) {
    table *t = NULL;
    open_table(dir, &t);
    table_version *v = table_version_acquire(t);
    uint64_t granules_ok = 0, errors = 0;
    for (uint32_t i = 0; i < table_version_part_count(v); i++) {
        const part *p = table_version_part(v, i);
        const part_info *info = part_get_info(p);
        for (uint32_t c = 0; c < 4; c++) {
            for (uint32_t g = 0; g < info->granule_count; g++) {
                ty_column *col = NULL;
                mu_err err;
                int rc = ty_column_create(column_types[c], NULL, &col, &err);
                if (rc == 0) rc = part_read(p, c, g, 1, col, &err);
                if (rc == 0) granules_ok++;
                else errors++, say("read-error %s %s\n", mu_code_name(rc), err.message);
                ty_column_destroy(col);
            }
        }
    }
    say("read granules_ok=%" PRIu64 " errors=%" PRIu64 "\n", granules_ok, errors);
    table_version_release(v);
    table_close(t);
    return 0;
}

/* Counts rows with lo <= batch_id <= hi, pruning granules by the minmax
 * index of batch_id; prints the count and how many granules it read. */
static int command_count(const char *dir, uint64_t lo, uint64_t hi) {
    table *t = NULL;
    open_table(dir, &t);
    mu_err err;
    ty_column *bounds = NULL;
    if (ty_column_create(column_types[0], NULL, &bounds, &err) != 0 ||
        ty_column_append_value(bounds, &lo, &err) != 0 ||
        ty_column_append_value(bounds, &hi, &err) != 0) {
        die("bounds", &err);
    }
    table_version *v = table_version_acquire(t);
    uint64_t count = 0, read = 0, total = 0;
    for (uint32_t i = 0; i < table_version_part_count(v); i++) {
        const part *p = table_version_part(v, i);
        uint32_t granules = part_get_info(p)->granule_count;
        uint8_t *keep = malloc(granules);
        if (keep == NULL || table_part_prune(p, 0, bounds, keep, &err) != 0) die("prune", &err);
        for (uint32_t g = 0; g < granules; g++) {
            total++;
            if (!keep[g]) continue;
            read++;
            ty_column *ids = NULL;
            if (ty_column_create(column_types[0], NULL, &ids, &err) != 0 ||
                part_read(p, 0, g, 1, ids, &err) != 0) {
                die("read", &err);
            }
            const uint64_t *values = (const uint64_t *)(const void *)ty_column_values(ids);
            for (uint32_t r = 0; r < ty_column_row_count(ids); r++) {
                count += values[r] >= lo && values[r] <= hi;
            }
            ty_column_destroy(ids);
        }
        free(keep);
    }
    say("count %" PRIu64 " granules_read=%" PRIu64 " granules_total=%" PRIu64 "\n", count,
        read, total);
    table_version_release(v);
    ty_column_destroy(bounds);
    table_close(t);
    return 0;
}

int main(int argc, char **argv) {
    mu_err err;
    if (mu_failpoints_configure_from_env(&err) != 0) die("failpoints", &err);
    const char *flush_every = getenv("WAL_DRIVER_FLUSH_EVERY");
    if (flush_every != NULL) driver_flush_every = (unsigned)atoi(flush_every);
    const char *stage = getenv("WAL_DRIVER_STAGE");
    driver_stage = stage != NULL && strcmp(stage, "1") == 0;
    const char *flush_rows = getenv("WAL_DRIVER_FLUSH_ROWS");
    if (flush_rows != NULL) driver_flush_rows = strtoull(flush_rows, NULL, 10);
    const char *base = getenv("WAL_DRIVER_THREAD_BASE");
    if (base != NULL) driver_thread_base = (unsigned)strtoul(base, NULL, 10);
    const char *interval = getenv("WAL_DRIVER_FLUSH_INTERVAL_MS");
    if (interval != NULL) driver_flush_interval_ms = strtoull(interval, NULL, 10);
    if (argc == 6 && strcmp(argv[1], "append") == 0) {
        return command_append(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]),
                              (uint32_t)atoi(argv[5]));
    }
    if (argc == 5 && strcmp(argv[1], "verify") == 0) {
        return command_verify(argv[2], (uint32_t)atoi(argv[3]), argv[4]);
    }
    if (argc == 3 && strcmp(argv[1], "read") == 0) return command_read(argv[2]);
    if (argc == 5 && strcmp(argv[1], "count") == 0) {
        return command_count(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
    }
    fprintf(stderr, "usage: wal_driver append DIR THREADS BATCHES ROWS\n"
                    "       wal_driver read DIR\n"
                    "       wal_driver count DIR LO HI\n"
                    "       wal_driver verify DIR ROWS ACKED_FILE\n");
    return 2;
}
