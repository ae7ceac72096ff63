/* part_writer.c: turns sorted rows into a part directory (format: part.h,
 * docs/formats/part.md). It owns the writer's open .bin files, the
 * encoded bytes not yet written, the partial granule (a copy of at most
 * index_granularity - 1 rows per column), and the marks, keys and minmax
 * entries built in memory until part_writer_finish. Invariants: every
 * granule but the last holds exactly index_granularity rows; a granule's
 * blocks are in its column's output before its mark is recorded; nothing
 * is fsynced before finish, and the manifest is written last, after every
 * other file is synced. State: OPEN --error--> FAILED; OPEN --finish-->
 * FINISHED. Only OPEN accepts appends. An append of several full granules
 * encodes them on worker threads (writer_run); only the calling thread
 * writes, in granule order, so the files are the bytes a serial write makes.
 */
#include "storage/part/part_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Threads that encode an append: WRITER_THREADS_ENV if it is a number in
 * 1..WRITER_THREADS_MAX (1 = the serial path, for tests and debugging),
 * else the online CPUs, at most WRITER_THREADS_DEFAULT_MAX. */
#define WRITER_THREADS_ENV "MUSCLES_PART_WRITE_THREADS"
#define WRITER_THREADS_DEFAULT_MAX 8u
#define WRITER_THREADS_MAX 64u
/* A task is one column's granules: as few as hold WRITER_TASK_ROWS_MIN rows,
 * at most WRITER_TASK_GRANULES_MAX, so that one heavy column (long strings)
 * is spread over the threads while the lock is still taken rarely. A wave
 * is WRITER_WAVE_GRANULES granules of every column. Encoded bytes are held
 * for at most WRITER_WAVES_IN_FLIGHT waves, which bounds a run's memory
 * (speed traded for memory: more waves in flight keep threads busier). */
#define WRITER_TASK_ROWS_MIN 8192u
#define WRITER_TASK_GRANULES_MAX 8u
#define WRITER_WAVE_GRANULES 64u
#define WRITER_WAVES_IN_FLIGHT 2u
/* Fails the encoding of a granule (tests of the worker error path). */
#define WRITER_FP_ENCODE "part.encode"

_Static_assert(WRITER_WAVE_GRANULES % WRITER_TASK_GRANULES_MAX == 0,
               "a full wave is whole tasks of any power-of-two size up to the maximum");

typedef struct writer_column {
    part__column def;         /* name and type are the schema's (borrowed) */
    part_codec_chain aux;     /* chain of validity, lengths, dictionaries */
    io_file *file;
    mu_buf out;               /* encoded granules not yet written */
    uint64_t flushed_bytes;   /* bytes written to the file */
    uint32_t file_crc;        /* crc32c of those bytes */
    ty_column *pending;       /* rows of the partial granule */
    mu_buf minmax;            /* encoded minmax entries, one per granule */
} writer_column;

enum writer_state { WRITER_OPEN, WRITER_FAILED, WRITER_FINISHED };

struct part_writer {
    char *dir;
    mu_mem_tracker *tracker;
    uint32_t column_count;
    writer_column *columns;
    uint32_t key_count;
    uint32_t *key_columns;
    uint32_t granularity;
    size_t flush_bytes;       /* per column, see PART__FLUSH_BUDGET_BYTES */
    uint32_t pending_rows;
    uint64_t row_count;
    uint32_t granule_count;
    mu_buf marks;             /* granule records */
    mu_buf keys;              /* per granule: u32 length + first key */
    mu_buf last_key;          /* value encoding of the last row's key */
    ty_column **previous_key; /* [key]: the last appended row, for the order check */
    const ty_column **pending_list; /* [column]: the pending columns, as granule input */
    bool has_previous;
    part__encoder encoder;    /* the calling thread's; raw_bytes counts every thread's */
    uint32_t thread_count;    /* encoding threads of an append, 1 = serial */
    enum writer_state state;
    uint64_t written_bytes;
};

static void writer_free(part_writer *w);

/* ------------------------------------------------------------------ */
/* Open                                                                */
/* ------------------------------------------------------------------ */

static int writer_compare_stems(const void *a, const void *b) {
    return strcmp((*(const writer_column *const *)a)->def.file_stem,
                  (*(const writer_column *const *)b)->def.file_stem);
}

/* Escaping is injective, so equal stems mean equal names, except for the
 * (astronomically unlikely) collision of two hashed stems. */
static int writer_check_unique(part_writer *w, mu_err *err) {
    const writer_column **sorted = malloc((size_t)w->column_count * sizeof(*sorted));
    if (sorted == NULL) return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    for (uint32_t i = 0; i < w->column_count; i++) sorted[i] = &w->columns[i];
    qsort(sorted, w->column_count, sizeof(*sorted), writer_compare_stems);
    int rc = 0;
    for (uint32_t i = 1; i < w->column_count && rc == 0; i++) {
        if (strcmp(sorted[i - 1]->def.file_stem, sorted[i]->def.file_stem) == 0)
            rc = MU_ERR(err, MU_EINVAL, "part schema: column %.100s appears twice or collides "
                        "with %.100s in file names", sorted[i]->def.name, sorted[i - 1]->def.name);
    }
    free(sorted);
    return rc;
}

static int writer_set_column(part_writer *w, uint32_t i, const part_column_def *def,
                             mu_err *err) {
    writer_column *c = &w->columns[i];
    mu_buf_init(&c->out, 0);
    mu_buf_init(&c->minmax, 0);
    size_t name_bytes = def->name != NULL ? strlen(def->name) : 0;
    if (name_bytes == 0 || name_bytes > TY_COLUMN_NAME_BYTES_MAX || def->type == NULL)
        return MU_ERR(err, MU_EINVAL, "part schema: column %u has no name, a name over %u "
                      "bytes, or no type", i, TY_COLUMN_NAME_BYTES_MAX);
    c->def.name = def->name;
    c->def.type = def->type;
    c->def.minmax = def->minmax;
    part_column_file_stem(def->name, name_bytes, c->def.file_stem);
    if (def->codec != NULL) {
        c->def.codec = *def->codec;
    } else {
        part_codec_chain_default(&c->def.codec);
    }
    int rc = part__codec_check(&c->def.codec, def->type, err);
    const ty_type *v = ty_type_strip_nullable(def->type);
    if (rc == 0 && def->minmax && (v->kind == TY_ARRAY || v->kind == TY_MAP))
        rc = MU_ERR(err, MU_EINVAL, "no minmax index on Array or Map columns");
    if (rc != 0) {
        mu_err_prefix(err, "part schema: column %.200s", def->name);
        return rc;
    }
    part__aux_chain(&c->def.codec, &c->aux);
    return ty_column_create(def->type, w->tracker, &c->pending, err);
}

static int writer_set_key(part_writer *w, const part_schema *schema, mu_err *err) {
    if (schema->key_count > PART_KEY_COLUMNS_MAX || schema->key_count > schema->column_count)
        return MU_ERR(err, MU_EINVAL, "part schema: %u key columns", schema->key_count);
    w->key_columns = calloc(schema->key_count + 1, sizeof(uint32_t));
    w->previous_key = calloc(schema->key_count + 1, sizeof(ty_column *));
    if (w->key_columns == NULL || w->previous_key == NULL)
        return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    w->key_count = schema->key_count;
    for (uint32_t k = 0; k < schema->key_count; k++) {
        uint32_t index = schema->key_columns[k];
        for (uint32_t j = 0; j < k; j++) {
            if (w->key_columns[j] == index) index = UINT32_MAX;
        }
        if (index >= schema->column_count)
            return MU_ERR(err, MU_EINVAL, "part schema: key column %u is out of range or "
                          "repeated", k);
        w->key_columns[k] = index;
        int rc = ty_column_create(schema->columns[index].type, w->tracker, &w->previous_key[k],
                                  err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int writer_set_schema(part_writer *w, const part_schema *schema, mu_err *err) {
    if (schema->column_count == 0 || schema->column_count > PART_COLUMNS_MAX)
        return MU_ERR(err, MU_EINVAL, "part schema: %u columns (1..%u)", schema->column_count,
                      PART_COLUMNS_MAX);
    w->granularity = schema->index_granularity != 0 ? schema->index_granularity
                                                    : PART_INDEX_GRANULARITY_DEFAULT;
    if (w->granularity > PART_INDEX_GRANULARITY_MAX)
        return MU_ERR(err, MU_EINVAL, "part schema: index granularity %u is over %u",
                      w->granularity, PART_INDEX_GRANULARITY_MAX);
    w->columns = calloc(schema->column_count, sizeof(writer_column));
    w->pending_list = calloc(schema->column_count, sizeof(ty_column *));
    if (w->columns == NULL || w->pending_list == NULL)
        return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    w->column_count = schema->column_count;
    w->flush_bytes = MU_MAX(PART__FLUSH_BYTES_MIN,
                            MU_MIN(PART__FLUSH_BYTES_MAX,
                                   PART__FLUSH_BUDGET_BYTES / schema->column_count));
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < schema->column_count; i++) {
        rc = writer_set_column(w, i, &schema->columns[i], err);
        w->pending_list[i] = w->columns[i].pending;
    }
    if (rc == 0) rc = writer_check_unique(w, err);
    return rc ? rc : writer_set_key(w, schema, err);
}

/* Creates the directory (which must not exist) and the .bin files. */
static int writer_create_files(part_writer *w, mu_err *err) {
    io_dir_list list;
    int rc = io_list_dir(w->dir, &list, NULL);
    if (rc == 0) {
        io_dir_list_deinit(&list);
        return MU_ERR(err, MU_EEXISTS, "part writer: %s already exists", w->dir);
    }
    rc = io_mkdir_p(w->dir, PART_FP_MKDIR, err);
    for (uint32_t i = 0; rc == 0 && i < w->column_count; i++) {
        char name[PART_FILE_STEM_BYTES_MAX + 8], path[IO_PATH_MAX_BYTES];
        snprintf(name, sizeof(name), "%s.bin", w->columns[i].def.file_stem);
        rc = part__path_join(path, w->dir, name, err);
        if (rc == 0)
            rc = io_open(&w->columns[i].file, path, IO_OPEN_WRITE | IO_OPEN_CREATE | IO_OPEN_EXCL,
                         PART_FP_OPEN, err);
    }
    return rc;
}

static uint32_t writer_thread_count(void) {
    const char *text = getenv(WRITER_THREADS_ENV);
    if (text != NULL) {
        char *end = NULL;
        errno = 0;
        unsigned long n = strtoul(text, &end, 10);
        if (errno == 0 && end != text && *end == '\0' && n >= 1 && n <= WRITER_THREADS_MAX)
            return (uint32_t)n;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : (uint32_t)MU_MIN((unsigned long)cpus, WRITER_THREADS_DEFAULT_MAX);
}

int part_writer_open(part_writer **writer_out, const char *tmp_dir, const part_schema *schema,
                     mu_mem_tracker *tracker, mu_err *err) {
    MU_ASSERT(writer_out != NULL && tmp_dir != NULL && schema != NULL);
    MU_ASSERT(schema->columns != NULL || schema->column_count == 0);
    part_writer *w = calloc(1, sizeof(*w));
    if (w == NULL) return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    w->tracker = tracker;
    w->state = WRITER_FAILED; /* until open succeeds; close then removes nothing made */
    mu_buf_init(&w->marks, PART_MARKS_BYTES_MAX);
    mu_buf_init(&w->keys, PART_MARKS_BYTES_MAX);
    mu_buf_init(&w->last_key, PART_MANIFEST_BYTES_MAX);
    part__encoder_init(&w->encoder);
    w->thread_count = writer_thread_count();
    w->dir = strdup(tmp_dir);
    int rc = w->dir != NULL ? 0 : MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    if (rc == 0) rc = writer_set_schema(w, schema, err);
    bool created = false;
    if (rc == 0) {
        rc = writer_create_files(w, err);
        created = rc != MU_EEXISTS;
    }
    if (rc != 0) {
        if (created) {
            part_writer_abort(w); /* removes what writer_create_files made */
        } else {
            writer_free(w);
        }
        return rc;
    }
    w->state = WRITER_OPEN;
    *writer_out = w;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Append                                                              */
/* ------------------------------------------------------------------ */

/* Rows must not decrease, also across calls (previous_key). */
static int writer_check_order(part_writer *w, const ty_column *const *columns, uint32_t from,
                              uint32_t count, mu_err *err) {
    if (w->key_count == 0) return 0;
    if (w->has_previous) {
        for (uint32_t k = 0; k < w->key_count; k++) {
            uint32_t i = w->key_columns[k];
            int c = ty_column_compare_rows(w->previous_key[k], 0, columns[i], from);
            if (c < 0) break;
            if (c > 0)
                return MU_ERR(err, MU_EINVAL, "part writer: row %u sorts before the previous "
                              "call's last row (column %.100s)", from, w->columns[i].def.name);
        }
    }
    uint32_t row = part__first_unsorted(columns, w->key_columns, w->key_count, from, count);
    if (row != UINT32_MAX)
        return MU_ERR(err, MU_EINVAL, "part writer: rows are not sorted by the key: row %u "
                      "sorts before row %u", row, row - 1);
    return 0;
}

static int writer_check_input(part_writer *w, const ty_column *const *columns, uint32_t from,
                              uint32_t count, mu_err *err) {
    for (uint32_t i = 0; i < w->column_count; i++) {
        const ty_column *c = columns[i];
        char a[128], b[128];
        if (c == NULL || (c->type != w->columns[i].def.type &&
                          !ty_type_equal(c->type, w->columns[i].def.type)))
            return MU_ERR(err, MU_ETYPE, "part writer: column %.100s needs %s, got %s",
                          w->columns[i].def.name, ty_type_name(w->columns[i].def.type, a, 128),
                          c ? ty_type_name(c->type, b, sizeof(b)) : "no column");
        if (from > ty_column_row_count(c) || count > ty_column_row_count(c) - from)
            return MU_ERR(err, MU_EINVAL, "part writer: rows %u..+%u past column %.100s of %u "
                          "rows", from, count, w->columns[i].def.name, ty_column_row_count(c));
    }
    return writer_check_order(w, columns, from, count, err);
}

/* Writes bytes at the end of c's file (after c->out, which must be empty). */
static int writer_write_column(part_writer *w, writer_column *c, const uint8_t *data,
                               size_t bytes, mu_err *err) {
    MU_ASSERT(c->out.length_bytes == 0 || data == c->out.data);
    if (bytes == 0) return 0;
    int rc = io_write_all(c->file, data, bytes, PART_FP_WRITE, err);
    if (rc != 0) return rc;
    c->file_crc = mu_crc32c(c->file_crc, data, bytes);
    c->flushed_bytes += bytes;
    w->written_bytes += bytes;
    return 0;
}

static int writer_flush_column(part_writer *w, writer_column *c, mu_err *err) {
    int rc = writer_write_column(w, c, c->out.data, c->out.length_bytes, err);
    if (rc == 0) mu_buf_clear(&c->out);
    return rc;
}

/* Appends encoded granules to c's output; once flush_bytes are pending they
 * are written, a large run of them straight from data. */
static int writer_column_put(part_writer *w, writer_column *c, const uint8_t *data,
                             size_t bytes, mu_err *err) {
    if (c->out.length_bytes + bytes < w->flush_bytes)
        return mu_buf_append(&c->out, data, bytes, err);
    int rc = writer_flush_column(w, c, err);
    return rc ? rc : writer_write_column(w, c, data, bytes, err);
}

/* Appends the blocks of one column's rows [from, from + count) to out and
 * describes them: their size and crc32c. Safe on any thread with its own
 * encoder and out: it only reads c and source. */
static int writer_encode_granule(part__encoder *e, const writer_column *c,
                                 const ty_column *source, uint32_t from, uint32_t count,
                                 mu_buf *out, uint32_t *size_out, uint32_t *crc_out,
                                 mu_err *err) {
    int injected = MU_FAILPOINT(WRITER_FP_ENCODE);
    if (injected != 0) {
        injected = injected > 0 ? injected : EIO;
        return MU_ERR_SYS(err, mu_code_from_errno(injected, MU_EIO), injected,
                          "part writer: column %.100s: injected encode failure", c->def.name);
    }
    size_t start = out->length_bytes;
    int rc = part__granule_encode(e, source, &c->def.codec, &c->aux, from, count, out, err);
    if (rc != 0) return rc;
    size_t size = out->length_bytes - start;
    if (size > UINT32_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "part writer: column %.100s granule of %zu bytes",
                      c->def.name, size);
    *size_out = (uint32_t)size;
    *crc_out = mu_crc32c(0, out->data + start, size);
    return 0;
}

static int writer_mark(part_writer *w, uint64_t offset, uint32_t size, uint32_t crc,
                       mu_err *err) {
    uint8_t mark[PART__MARK_BYTES];
    mu_store_u64le(mark, offset);
    mu_store_u32le(mark + 8, size);
    mu_store_u32le(mark + 12, crc);
    return mu_buf_append(&w->marks, mark, sizeof(mark), err);
}

/* Encodes one column's part of a granule and appends its mark. */
static int writer_granule_column(part_writer *w, writer_column *c, const ty_column *source,
                                 uint32_t from, uint32_t count, mu_err *err) {
    size_t start = c->out.length_bytes;
    uint32_t size = 0, crc = 0;
    int rc = writer_encode_granule(&w->encoder, c, source, from, count, &c->out, &size, &crc,
                                   err);
    if (rc == 0) rc = writer_mark(w, c->flushed_bytes + start, size, crc, err);
    if (rc == 0 && c->def.minmax) rc = part__minmax_granule(&c->minmax, source, from, count, err);
    if (rc == 0 && c->out.length_bytes >= w->flush_bytes) rc = writer_flush_column(w, c, err);
    return rc;
}

/* Ends a granule whose marks are recorded: its first key, the counts. */
static int writer_granule_end(part_writer *w, const ty_column *const *columns, uint32_t from,
                              uint32_t count, mu_err *err) {
    size_t at = w->keys.length_bytes;
    int rc = mu_buf_append_u32le(&w->keys, 0, err); /* key length, patched */
    for (uint32_t k = 0; rc == 0 && k < w->key_count; k++)
        rc = part__value_encode(columns[w->key_columns[k]], from, &w->keys, err);
    if (rc != 0) return rc;
    mu_store_u32le(w->keys.data + at, (uint32_t)(w->keys.length_bytes - at - 4));
    if (w->granule_count == UINT32_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "part writer: too many granules");
    w->granule_count++;
    w->row_count += count;
    return 0;
}

static int writer_granule(part_writer *w, const ty_column *const *columns, uint32_t from,
                          uint32_t count, mu_err *err) {
    MU_ASSERT(count > 0 && count <= w->granularity);
    int rc = mu_buf_append_u32le(&w->marks, count, err);
    for (uint32_t i = 0; rc == 0 && i < w->column_count; i++)
        rc = writer_granule_column(w, &w->columns[i], columns[i], from, count, err);
    return rc ? rc : writer_granule_end(w, columns, from, count, err);
}

static int writer_granule_from_pending(part_writer *w, mu_err *err) {
    int rc = writer_granule(w, w->pending_list, 0, w->pending_rows, err);
    for (uint32_t i = 0; rc == 0 && i < w->column_count; i++)
        ty_column_clear(w->columns[i].pending);
    if (rc == 0) w->pending_rows = 0;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Parallel encode                                                     */
/* ------------------------------------------------------------------ */

/* A run encodes full granules [0, granule_count) of one append, granule g
 * being rows from + g * granularity. Its tasks are numbered wave by wave,
 * within a wave column by column, each column's in granule order. Worker
 * threads (writer_helper_main) and the calling thread take tasks in that
 * order; a task of wave k may start once waves_placed > k -
 * WRITER_WAVES_IN_FLIGHT, so it reuses the slot of a placed wave. The
 * calling thread alone places waves (writer_place_wave): bytes, minmax
 * entries, marks and keys in exactly the serial writer's order. */
typedef struct writer_task {
    uint32_t column;
    uint32_t first;                          /* granule index in the run */
    uint32_t count;                          /* 1..run->task_granules granules */
    uint64_t file_offset;                    /* of bytes in the column's file, once placed */
    mu_buf bytes;                            /* the granules' blocks, back to back */
    mu_buf minmax;                           /* their minmax entries, if the column has them */
    size_t at[WRITER_TASK_GRANULES_MAX];     /* each granule's offset in bytes */
    uint32_t size[WRITER_TASK_GRANULES_MAX]; /* its size and crc32c, as in its mark */
    uint32_t crc[WRITER_TASK_GRANULES_MAX];
} writer_task;

typedef struct writer_run {
    part_writer *w;
    const ty_column *const *columns;
    uint32_t from;
    uint32_t granule_count;
    uint32_t task_granules;   /* see writer_task_granules */
    uint32_t wave_count;
    uint64_t wave_tasks;      /* tasks of a full wave (every wave but the last) */
    uint64_t task_count;
    writer_task *tasks;       /* [slot * wave_tasks + i]: wave k in slot k % IN_FLIGHT */
    pthread_mutex_t lock;     /* guards the fields below, not the tasks */
    pthread_cond_t wave_done; /* a wave's last task finished, or stop */
    pthread_cond_t slot_free; /* waves_placed grew, or stop */
    uint64_t next_task;
    uint32_t waves_placed;
    uint64_t finished[WRITER_WAVES_IN_FLIGHT]; /* tasks done of the wave in each slot */
    bool stop;                /* a task or a placement failed: take no more tasks */
    int rc;                   /* the failed task with the lowest index, or 0 */
    uint64_t failed_task;
    mu_err err;
} writer_run;

typedef struct writer_helper {
    writer_run *run;
    part__encoder encoder;
} writer_helper;

/* Granules per task: a power of two, so that it divides a wave. */
static uint32_t writer_task_granules(const part_writer *w) {
    uint32_t granules = 1;
    while (granules < WRITER_TASK_GRANULES_MAX &&
           (uint64_t)granules * w->granularity < WRITER_TASK_ROWS_MIN)
        granules *= 2;
    return granules;
}

static uint32_t run_wave_granules(const writer_run *run, uint32_t wave) {
    return MU_MIN(WRITER_WAVE_GRANULES, run->granule_count - wave * WRITER_WAVE_GRANULES);
}

static uint32_t run_tasks_per_column(const writer_run *run, uint32_t wave) {
    return (run_wave_granules(run, wave) + run->task_granules - 1) / run->task_granules;
}

static uint64_t run_wave_tasks(const writer_run *run, uint32_t wave) {
    return (uint64_t)run->w->column_count * run_tasks_per_column(run, wave);
}

/* Task index t's slot, filled with its column and granules. */
static writer_task *run_task(writer_run *run, uint64_t t) {
    uint32_t wave = (uint32_t)(t / run->wave_tasks);
    uint64_t i = t % run->wave_tasks;
    uint32_t per_column = run_tasks_per_column(run, wave);
    MU_ASSERT(i < run_wave_tasks(run, wave));
    writer_task *task = &run->tasks[(wave % WRITER_WAVES_IN_FLIGHT) * run->wave_tasks + i];
    uint32_t chunk = (uint32_t)(i % per_column);
    task->column = (uint32_t)(i / per_column);
    task->first = wave * WRITER_WAVE_GRANULES + chunk * run->task_granules;
    task->count = MU_MIN(run->task_granules,
                         run_wave_granules(run, wave) - chunk * run->task_granules);
    return task;
}

static int writer_task_encode(writer_run *run, writer_task *task, part__encoder *e,
                              mu_err *err) {
    const part_writer *w = run->w;
    const writer_column *c = &w->columns[task->column];
    const ty_column *source = run->columns[task->column];
    mu_buf_clear(&task->bytes);
    mu_buf_clear(&task->minmax);
    int rc = 0;
    for (uint32_t g = 0; rc == 0 && g < task->count; g++) {
        uint32_t from = run->from + (task->first + g) * w->granularity;
        task->at[g] = task->bytes.length_bytes;
        rc = writer_encode_granule(e, c, source, from, w->granularity, &task->bytes,
                                   &task->size[g], &task->crc[g], err);
        if (rc == 0 && c->def.minmax)
            rc = part__minmax_granule(&task->minmax, source, from, w->granularity, err);
    }
    return rc;
}

/* Takes the next task and encodes it without the lock (held on entry and
 * on return); records a failure and stops the run. */
static void writer_run_one(writer_run *run, part__encoder *e) {
    uint64_t t = run->next_task++;
    writer_task *task = run_task(run, t);
    pthread_mutex_unlock(&run->lock);
    mu_err err;
    mu_err_clear(&err);
    int rc = writer_task_encode(run, task, e, &err);
    pthread_mutex_lock(&run->lock);
    uint32_t wave = (uint32_t)(t / run->wave_tasks);
    if (rc != 0 && (run->rc == 0 || t < run->failed_task)) {
        run->rc = rc;
        run->failed_task = t;
        run->err = err;
    }
    if (rc != 0 && !run->stop) {
        run->stop = true;
        pthread_cond_broadcast(&run->slot_free);
    }
    uint64_t done = ++run->finished[wave % WRITER_WAVES_IN_FLIGHT];
    if (rc != 0 || done == run_wave_tasks(run, wave)) pthread_cond_broadcast(&run->wave_done);
}

/* Whether the next task may start now (lock held). */
static bool writer_run_can_take(const writer_run *run) {
    return !run->stop && run->next_task < run->task_count &&
           run->next_task / run->wave_tasks < (uint64_t)run->waves_placed + WRITER_WAVES_IN_FLIGHT;
}

/* A worker: takes tasks until none are left or the run stops. */
static void writer_helper_main(void *arg) {
    writer_helper *helper = arg;
    writer_run *run = helper->run;
    pthread_mutex_lock(&run->lock);
    while (!run->stop && run->next_task < run->task_count) {
        if (writer_run_can_take(run)) {
            writer_run_one(run, &helper->encoder);
        } else {
            pthread_cond_wait(&run->slot_free, &run->lock);
        }
    }
    pthread_mutex_unlock(&run->lock);
}

/* The calling thread: takes tasks until every task of `wave` is done.
 * False if the run stopped. */
static bool writer_run_wait_wave(writer_run *run, uint32_t wave) {
    MU_ASSERT(wave < run->wave_count);
    uint64_t need = run_wave_tasks(run, wave);
    uint64_t *finished = &run->finished[wave % WRITER_WAVES_IN_FLIGHT];
    pthread_mutex_lock(&run->lock);
    while (!run->stop && *finished < need) {
        if (writer_run_can_take(run)) {
            writer_run_one(run, &run->w->encoder);
        } else {
            pthread_cond_wait(&run->wave_done, &run->lock);
        }
    }
    bool ok = !run->stop;
    pthread_mutex_unlock(&run->lock);
    return ok;
}

/* Writes a finished wave: each column's tasks in granule order (bytes and
 * minmax entries), then per granule its record of marks and its key. The
 * workers touch no task of this slot until waves_placed grows. */
static int writer_place_wave(writer_run *run, uint32_t wave, mu_err *err) {
    part_writer *w = run->w;
    uint32_t granules = run_wave_granules(run, wave), per_column = run_tasks_per_column(run, wave);
    writer_task *tasks = &run->tasks[(wave % WRITER_WAVES_IN_FLIGHT) * run->wave_tasks];
    MU_ASSERT(wave == run->waves_placed); /* only this thread changes it */
    MU_ASSERT(w->pending_rows == 0);
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < w->column_count; i++) {
        writer_column *c = &w->columns[i];
        for (uint32_t j = 0; rc == 0 && j < per_column; j++) {
            writer_task *task = &tasks[(size_t)i * per_column + j];
            MU_ASSERT(task->column == i);
            MU_ASSERT(task->first == wave * WRITER_WAVE_GRANULES + j * run->task_granules);
            task->file_offset = c->flushed_bytes + c->out.length_bytes;
            rc = writer_column_put(w, c, task->bytes.data, task->bytes.length_bytes, err);
            if (rc == 0 && c->def.minmax)
                rc = mu_buf_append(&c->minmax, task->minmax.data, task->minmax.length_bytes,
                                   err);
        }
    }
    for (uint32_t g = 0; rc == 0 && g < granules; g++) {
        rc = mu_buf_append_u32le(&w->marks, w->granularity, err);
        for (uint32_t i = 0; rc == 0 && i < w->column_count; i++) {
            const writer_task *task =
                &tasks[(size_t)i * per_column + g / run->task_granules];
            uint32_t k = g % run->task_granules;
            MU_ASSERT(k < task->count);
            rc = writer_mark(w, task->file_offset + task->at[k], task->size[k], task->crc[k],
                             err);
        }
        uint32_t from = run->from + (wave * WRITER_WAVE_GRANULES + g) * w->granularity;
        if (rc == 0) rc = writer_granule_end(w, run->columns, from, w->granularity, err);
    }
    return rc;
}

static int writer_run_init(writer_run *run, part_writer *w, const ty_column *const *columns,
                           uint32_t from, uint32_t granule_count, mu_err *err) {
    memset(run, 0, sizeof(*run));
    run->w = w;
    run->columns = columns;
    run->from = from;
    run->granule_count = granule_count;
    run->task_granules = writer_task_granules(w);
    run->wave_count = (granule_count + WRITER_WAVE_GRANULES - 1) / WRITER_WAVE_GRANULES;
    run->wave_tasks = run_wave_tasks(run, 0);
    run->task_count = (run->wave_count - 1) * run->wave_tasks +
                      run_wave_tasks(run, run->wave_count - 1);
    size_t slots = MU_MIN(run->wave_count, WRITER_WAVES_IN_FLIGHT);
    run->tasks = calloc(slots * run->wave_tasks, sizeof(*run->tasks));
    if (run->tasks == NULL) return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    for (size_t i = 0; i < slots * run->wave_tasks; i++) {
        mu_buf_init(&run->tasks[i].bytes, 0);
        mu_buf_init(&run->tasks[i].minmax, 0);
    }
    pthread_mutex_init(&run->lock, NULL);
    pthread_cond_init(&run->wave_done, NULL);
    pthread_cond_init(&run->slot_free, NULL);
    return 0;
}

static void writer_run_deinit(writer_run *run) {
    size_t slots = MU_MIN(run->wave_count, WRITER_WAVES_IN_FLIGHT);
    for (size_t i = 0; i < slots * run->wave_tasks; i++) {
        mu_buf_deinit(&run->tasks[i].bytes);
        mu_buf_deinit(&run->tasks[i].minmax);
    }
    free(run->tasks);
    pthread_cond_destroy(&run->slot_free);
    pthread_cond_destroy(&run->wave_done);
    pthread_mutex_destroy(&run->lock);
}

/* Starts up to `count` workers on the run. Without threads or memory for
 * them the calling thread encodes alone: slower, never wrong. */
static mu_pool *writer_start_helpers(writer_run *run, writer_helper *helpers, uint32_t count) {
    mu_pool *pool = NULL;
    if (helpers == NULL || count == 0 ||
        mu_pool_create(&pool, "part-write", count, count, NULL) != 0)
        return NULL;
    for (uint32_t i = 0; i < count; i++) {
        helpers[i].run = run;
        if (mu_pool_submit(pool, writer_helper_main, &helpers[i], NULL) != 0) break;
    }
    return pool;
}

/* Encodes granule_count >= 2 full granules from row `from` on the calling
 * thread and thread_count - 1 workers, and places them as writer_granule
 * would, one after another. */
static int writer_encode_parallel(part_writer *w, const ty_column *const *columns, uint32_t from,
                                  uint32_t granule_count, mu_err *err) {
    MU_ASSERT(w->pending_rows == 0);
    MU_ASSERT(granule_count >= 2);
    writer_run run;
    int rc = writer_run_init(&run, w, columns, from, granule_count, err);
    if (rc != 0) return rc;
    uint32_t helper_count = (uint32_t)MU_MIN(w->thread_count - 1, run.task_count - 1);
    writer_helper *helpers = calloc(MU_MAX(helper_count, 1), sizeof(*helpers));
    for (uint32_t i = 0; helpers != NULL && i < helper_count; i++)
        part__encoder_init(&helpers[i].encoder);
    mu_pool *pool = writer_start_helpers(&run, helpers, helper_count);
    uint64_t granules_before = w->granule_count;
    for (uint32_t wave = 0; rc == 0 && wave < run.wave_count; wave++) {
        if (!writer_run_wait_wave(&run, wave)) break;
        rc = writer_place_wave(&run, wave, err);
        pthread_mutex_lock(&run.lock);
        run.finished[wave % WRITER_WAVES_IN_FLIGHT] = 0;
        run.waves_placed++;
        run.stop = run.stop || rc != 0;
        pthread_cond_broadcast(&run.slot_free);
        pthread_mutex_unlock(&run.lock);
    }
    mu_pool_destroy(pool); /* joins the workers */
    for (uint32_t i = 0; helpers != NULL && i < helper_count; i++) {
        w->encoder.raw_bytes += helpers[i].encoder.raw_bytes;
        part__encoder_deinit(&helpers[i].encoder);
    }
    free(helpers);
    if (rc == 0 && run.rc != 0) {
        rc = run.rc;
        if (err != NULL) *err = run.err;
    }
    MU_ASSERT(rc != 0 || w->granule_count == granules_before + granule_count);
    writer_run_deinit(&run);
    return rc;
}

/* Full granules straight from the caller's columns (several at once on
 * the workers when there are enough); the rest through the pending copy. */
static int writer_cut_granules(part_writer *w, const ty_column *const *columns, uint32_t from,
                               uint32_t count, mu_err *err) {
    int rc = 0;
    while (rc == 0 && count > 0) {
        uint32_t full = count / w->granularity;
        if (w->pending_rows == 0 && full >= 2 && w->thread_count > 1 &&
            (w->column_count > 1 || full > writer_task_granules(w))) {
            rc = writer_encode_parallel(w, columns, from, full, err);
            from += full * w->granularity;
            count -= full * w->granularity;
            continue;
        }
        if (w->pending_rows == 0 && full > 0) {
            rc = writer_granule(w, columns, from, w->granularity, err);
            from += w->granularity;
            count -= w->granularity;
            continue;
        }
        uint32_t take = MU_MIN(count, w->granularity - w->pending_rows);
        for (uint32_t i = 0; rc == 0 && i < w->column_count; i++)
            rc = ty_column_append_rows_from(w->columns[i].pending, columns[i], from, take, err);
        if (rc != 0) break;
        w->pending_rows += take;
        from += take;
        count -= take;
        if (w->pending_rows == w->granularity) rc = writer_granule_from_pending(w, err);
    }
    return rc;
}

/* Remembers the last row's key: for the order check and the key range. */
static int writer_remember_last(part_writer *w, const ty_column *const *columns, uint32_t row,
                                mu_err *err) {
    mu_buf_clear(&w->last_key);
    int rc = 0;
    for (uint32_t k = 0; rc == 0 && k < w->key_count; k++) {
        const ty_column *source = columns[w->key_columns[k]];
        ty_column_clear(w->previous_key[k]);
        rc = ty_column_append_from(w->previous_key[k], source, row, err);
        if (rc == 0) rc = part__value_encode(source, row, &w->last_key, err);
    }
    w->has_previous = rc == 0;
    return rc;
}

int part_writer_append(part_writer *w, const ty_column *const *columns, uint32_t from,
                       uint32_t count, mu_err *err) {
    MU_ASSERT(w != NULL && columns != NULL);
    if (w->state != WRITER_OPEN)
        return MU_ERR(err, MU_EINVAL, "part writer for %s is %s", w->dir,
                      w->state == WRITER_FAILED ? "broken by an earlier error" : "finished");
    if (count == 0) return 0;
    int rc = writer_check_input(w, columns, from, count, err);
    if (rc != 0) return rc; /* nothing was written: the writer stays usable */
    uint64_t rows_before = w->row_count + w->pending_rows;
    rc = writer_cut_granules(w, columns, from, count, err);
    if (rc == 0) rc = writer_remember_last(w, columns, from + count - 1, err);
    if (rc != 0) {
        w->state = WRITER_FAILED;
        mu_err_prefix(err, "part writer %s", w->dir);
        return rc;
    }
    MU_ASSERT(w->row_count + w->pending_rows == rows_before + count);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Finish                                                              */
/* ------------------------------------------------------------------ */

static int writer_check_meta(const part_meta *meta, mu_err *err) {
    char name[PART_NAME_BYTES_MAX + 1];
    int rc = part_name_format(meta->partition_id, meta->lsn_min, meta->lsn_max, meta->level, name,
                              sizeof(name), err);
    if (rc != 0) return rc;
    if (meta->partition_value != NULL &&
        strlen(meta->partition_value) > PART_PARTITION_VALUE_BYTES_MAX)
        return MU_ERR(err, MU_EINVAL, "partition value over %u bytes",
                      PART_PARTITION_VALUE_BYTES_MAX);
    if (meta->has_ttl && meta->ttl_min > meta->ttl_max)
        return MU_ERR(err, MU_EINVAL, "TTL range is reversed");
    if (meta->token_count > PART_TOKENS_MAX || (meta->token_count > 0 && meta->tokens == NULL))
        return MU_ERR(err, MU_EINVAL, "%u insert tokens (at most %u)", meta->token_count,
                      PART_TOKENS_MAX);
    for (uint32_t i = 0; i < meta->token_count; i++) {
        if (meta->tokens[i].bytes == 0 || meta->tokens[i].bytes > PART_TOKEN_BYTES_MAX ||
            meta->tokens[i].data == NULL)
            return MU_ERR(err, MU_EINVAL, "insert token %u is empty or over %u bytes", i,
                          PART_TOKEN_BYTES_MAX);
    }
    return 0;
}

/* Flushes, syncs and closes every .bin file; lists them in files. */
static int writer_close_columns(part_writer *w, part__file *files, char (*names)[256],
                                mu_err *err) {
    for (uint32_t i = 0; i < w->column_count; i++) {
        writer_column *c = &w->columns[i];
        int rc = writer_flush_column(w, c, err);
        if (rc == 0) rc = io_fsync(c->file, PART_FP_FSYNC, err);
        io_file *file = c->file;
        c->file = NULL;
        int close_rc = io_close(file, rc == 0 ? err : NULL);
        if (rc == 0) rc = close_rc;
        if (rc != 0) return rc;
        snprintf(names[i], 256, "%s.bin", c->def.file_stem);
        files[i] = (part__file){names[i], c->flushed_bytes, c->file_crc};
    }
    return 0;
}

/* Writes idx/minmax_<col>.idx for each minmax column, then syncs idx/. */
static int writer_write_minmax(part_writer *w, part__file *files, uint32_t *file_count,
                               char (*names)[256], mu_err *err) {
    char dir[IO_PATH_MAX_BYTES], path[IO_PATH_MAX_BYTES];
    bool any = false;
    int rc = part__path_join(dir, w->dir, PART_INDEX_DIR, err);
    mu_buf bytes;
    mu_buf_init(&bytes, PART_MINMAX_BYTES_MAX);
    for (uint32_t i = 0; rc == 0 && i < w->column_count; i++) {
        writer_column *c = &w->columns[i];
        if (!c->def.minmax) continue;
        if (!any) rc = io_mkdir_p(dir, PART_FP_MKDIR, err);
        any = true;
        mu_buf_clear(&bytes);
        if (rc == 0) rc = part__minmax_file_encode(&c->minmax, w->granule_count, &bytes, err);
        snprintf(names[*file_count], 256, PART_INDEX_DIR "/minmax_%s.idx", c->def.file_stem);
        if (rc == 0) rc = part__path_join(path, w->dir, names[*file_count], err);
        if (rc == 0) rc = part__file_write_synced(path, bytes.data, bytes.length_bytes, err);
        if (rc != 0) break;
        files[*file_count] = (part__file){names[*file_count], bytes.length_bytes,
                                          mu_crc32c(0, bytes.data, bytes.length_bytes)};
        (*file_count)++;
        w->written_bytes += bytes.length_bytes;
    }
    if (rc == 0 && any) rc = io_fsync_dir(dir, PART_FP_FSYNC_DIR, err);
    mu_buf_deinit(&bytes);
    return rc;
}

static int writer_write_marks(part_writer *w, part__file *file, mu_err *err) {
    uint8_t header[PART__MARKS_HEADER_BYTES];
    part__marks_header(header, PART_FORMAT_VERSION, w->granule_count, w->column_count, w->key_count, w->row_count);
    mu_buf bytes;
    mu_buf_init(&bytes, PART_MARKS_BYTES_MAX);
    char path[IO_PATH_MAX_BYTES];
    int rc = mu_buf_append(&bytes, header, sizeof(header), err);
    if (rc == 0) rc = mu_buf_append(&bytes, w->marks.data, w->marks.length_bytes, err);
    if (rc == 0) rc = mu_buf_append(&bytes, w->keys.data, w->keys.length_bytes, err);
    if (rc == 0) rc = mu_buf_append_u32le(&bytes, mu_crc32c(0, bytes.data, bytes.length_bytes),
                                          err);
    if (rc == 0) rc = part__path_join(path, w->dir, PART_MARKS_FILE, err);
    if (rc == 0) rc = part__file_write_synced(path, bytes.data, bytes.length_bytes, err);
    if (rc == 0) {
        *file = (part__file){PART_MARKS_FILE, bytes.length_bytes,
                             mu_crc32c(0, bytes.data, bytes.length_bytes)};
        w->written_bytes += bytes.length_bytes;
    }
    mu_buf_deinit(&bytes);
    return rc;
}

static int writer_write_manifest(part_writer *w, const part_meta *meta, part__file *files,
                                 uint32_t file_count, mu_err *err) {
    part__column *columns = malloc((size_t)w->column_count * sizeof(*columns));
    if (columns == NULL) return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    for (uint32_t i = 0; i < w->column_count; i++) columns[i] = w->columns[i].def;
    part__manifest m = {
        .partition_id = meta->partition_id, .partition_value = meta->partition_value,
        .lsn_min = meta->lsn_min, .lsn_max = meta->lsn_max, .level = meta->level,
        .row_count = w->row_count, .granule_count = w->granule_count,
        .index_granularity = w->granularity, .has_ttl = meta->has_ttl,
        .ttl_min = meta->has_ttl ? meta->ttl_min : 0, .ttl_max = meta->has_ttl ? meta->ttl_max : 0,
        .column_count = w->column_count, .columns = columns, .key_count = w->key_count,
        .key_columns = w->key_columns, .key_first = w->keys.data + 4,
        .key_first_bytes = mu_load_u32le(w->keys.data), .key_last = w->last_key.data,
        .key_last_bytes = (uint32_t)w->last_key.length_bytes, .token_count = meta->token_count,
        .tokens = meta->tokens, .file_count = file_count, .files = files};
    memcpy(m.table_uuid, meta->table_uuid, 16);
    mu_buf bytes;
    mu_buf_init(&bytes, PART_MANIFEST_BYTES_MAX);
    char path[IO_PATH_MAX_BYTES];
    int rc = part__manifest_encode(&m, &bytes, err);
    if (rc == 0) rc = part__path_join(path, w->dir, PART_MANIFEST_FILE, err);
    if (rc == 0) rc = part__file_write_synced(path, bytes.data, bytes.length_bytes, err);
    if (rc == 0) w->written_bytes += bytes.length_bytes;
    mu_buf_deinit(&bytes);
    free(columns);
    return rc;
}

static int writer_finish_files(part_writer *w, const part_meta *meta, mu_err *err) {
    uint32_t capacity = 2 * w->column_count + 1, count = w->column_count;
    part__file *files = calloc(capacity, sizeof(*files));
    char (*names)[256] = calloc(capacity, 256);
    int rc = files && names ? 0 : MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
    if (rc == 0) rc = writer_close_columns(w, files, names, err);
    if (rc == 0) rc = writer_write_minmax(w, files, &count, names, err);
    if (rc == 0) rc = writer_write_marks(w, &files[count], err);
    if (rc == 0) rc = writer_write_manifest(w, meta, files, count + 1, err);
    if (rc == 0) rc = io_fsync_dir(w->dir, PART_FP_FSYNC_DIR, err);
    free(names);
    free(files);
    return rc;
}

int part_writer_finish(part_writer *w, const part_meta *meta, mu_err *err) {
    MU_ASSERT(w != NULL && meta != NULL);
    if (w->state != WRITER_OPEN)
        return MU_ERR(err, MU_EINVAL, "part writer for %s is %s", w->dir,
                      w->state == WRITER_FAILED ? "broken by an earlier error" : "finished");
    int rc = writer_check_meta(meta, err);
    if (rc == 0 && w->pending_rows > 0) rc = writer_granule_from_pending(w, err);
    if (rc == 0 && w->granule_count == 0)
        rc = MU_ERR(err, MU_EINVAL, "part writer: no rows were appended");
    if (rc == 0) rc = writer_finish_files(w, meta, err);
    if (rc != 0) {
        w->state = WRITER_FAILED;
        mu_err_prefix(err, "part writer %s", w->dir);
        return rc;
    }
    w->state = WRITER_FINISHED;
    MU_ASSERT(w->pending_rows == 0 && w->row_count > 0);
    return 0;
}

void part_writer_get_stats(const part_writer *w, part_writer_stats *stats_out) {
    MU_ASSERT(w != NULL && stats_out != NULL);
    stats_out->row_count = w->row_count + w->pending_rows;
    stats_out->granule_count = w->granule_count;
    stats_out->raw_bytes = w->encoder.raw_bytes;
    stats_out->written_bytes = w->written_bytes;
}

/* ------------------------------------------------------------------ */
/* Close and abort                                                     */
/* ------------------------------------------------------------------ */

static void writer_free(part_writer *w) {
    for (uint32_t i = 0; w->columns != NULL && i < w->column_count; i++) {
        writer_column *c = &w->columns[i];
        io_close(c->file, NULL); /* abandoned: the directory is removed or unused */
        mu_buf_deinit(&c->out);
        mu_buf_deinit(&c->minmax);
        ty_column_destroy(c->pending);
    }
    for (uint32_t k = 0; w->previous_key != NULL && k < w->key_count; k++)
        ty_column_destroy(w->previous_key[k]);
    free(w->previous_key);
    free(w->pending_list);
    free(w->key_columns);
    free(w->columns);
    mu_buf_deinit(&w->marks);
    mu_buf_deinit(&w->keys);
    mu_buf_deinit(&w->last_key);
    part__encoder_deinit(&w->encoder);
    free(w->dir);
    free(w);
}

void part_writer_abort(part_writer *w) {
    if (w == NULL) return;
    for (uint32_t i = 0; w->columns != NULL && i < w->column_count; i++) {
        io_close(w->columns[i].file, NULL);
        w->columns[i].file = NULL;
    }
    mu_err err;
    mu_err_clear(&err);
    if (w->dir != NULL && part_dir_remove(w->dir, &err) != 0 && err.code != MU_ENOT_FOUND)
        mu_log_err(MU_LOG_WARN, "part.abort_remove_failed", &err);
    writer_free(w);
}

void part_writer_close(part_writer *w) {
    if (w == NULL) return;
    if (w->state == WRITER_FINISHED) {
        writer_free(w);
    } else if (w->state == WRITER_OPEN || w->state == WRITER_FAILED) {
        part_writer_abort(w);
    }
}
