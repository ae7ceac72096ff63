/* base.h: the foundation every other module builds on, and its whole
 * interface. It owns no global state beyond the log level, the failpoint
 * table and the CPU feature probe for crc32c, all set up once at start.
 *
 * Contents: error type and codes (errors.def), assertions, leveled key=value
 * logging, crc32c, 64-bit hashing (XXH64), varint/LEB128 and zigzag, memory
 * trackers and arenas, growable byte buffers, a fixed worker pool, clocks,
 * and named failpoints (compiled in only with MUSCLES_FAILPOINTS).
 * Rules for this folder: src/base/README.md.
 */
#ifndef MUSCLES_BASE_H
#define MUSCLES_BASE_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Errors                                                             */
/* ------------------------------------------------------------------ */

enum mu_code {
    MU_OK = 0,
#define X(name, value, ch_code, ch_name, http_status, description) MU_##name = (value),
#include "base/errors.def"
#undef X
};

#define MU_ERR_MSG_BYTES 512

/* Filled once, where a failure happens. code is a MU_E* value, sys_errno the
 * saved errno (0 if none), message names the object (file, offset, table,
 * column, byte position). file/line locate the code that set it. */
typedef struct mu_err {
    int code;
    int sys_errno;
    const char *file;
    int line;
    char message[MU_ERR_MSG_BYTES];
} mu_err;

void mu_err_clear(mu_err *err);
/* Sets err (which may be NULL) and returns code, so callers can write
 * `return MU_ERR(err, MU_EINVAL, "bad %s", x);`. */
int mu_err_set_at(mu_err *err, int code, int sys_errno, const char *file, int line,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define MU_ERR(err, code, ...) mu_err_set_at((err), (code), 0, __FILE__, __LINE__, __VA_ARGS__)
/* Like MU_ERR, also recording errno and appending ": strerror(errno)". */
#define MU_ERR_SYS(err, code, sys_errno, ...) \
    mu_err_set_at((err), (code), (sys_errno), __FILE__, __LINE__, __VA_ARGS__)
/* Corruption is an expected input: report it with its location. */
#define MU_CORRUPT(err, ...) mu_err_set_at((err), MU_ECORRUPT, 0, __FILE__, __LINE__, __VA_ARGS__)
/* Prefix the message of an already filled err with context ("table t: ..."). */
void mu_err_prefix(mu_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Lookups from errors.def. Unknown codes map to EINTERNAL's row. */
const char *mu_code_name(int code);        /* "EINVAL" */
const char *mu_code_description(int code); /* "invalid argument" */
int mu_code_ch_number(int code);           /* 36 */
const char *mu_code_ch_name(int code);     /* "BAD_ARGUMENTS" */
int mu_code_http_status(int code);         /* 400 */
/* The text ClickHouse gives an exception, from an error (no line end):
 * "Code: 36. DB::Exception: <message>. (BAD_ARGUMENTS) (version V)".
 * Returns its length (cut to fit out). */
size_t mu_err_clickhouse_text(const mu_err *e, char *out, size_t out_bytes);
/* Maps an errno from a failed system call to the closest MU_E* code. */
int mu_code_from_errno(int sys_errno, int fallback_code);

/* ------------------------------------------------------------------ */
/* Assertions (see STYLE.md): on in release, print location + backtrace */
/* ------------------------------------------------------------------ */

_Noreturn void mu_panic_at(const char *file, int line, const char *what);
#define MU_ASSERT(x) ((x) ? (void)0 : mu_panic_at(__FILE__, __LINE__, #x))
#ifdef NDEBUG
#define MU_DEBUG_ASSERT(x) ((void)0)
#define MU_ALWAYS(x) (!!(x))
#define MU_NEVER(x) (!!(x))
#else
#define MU_DEBUG_ASSERT(x) MU_ASSERT(x)
#define MU_ALWAYS(x) ((x) ? 1 : (mu_panic_at(__FILE__, __LINE__, "ALWAYS(" #x ")"), 0))
#define MU_NEVER(x) ((x) ? (mu_panic_at(__FILE__, __LINE__, "NEVER(" #x ")"), 1) : 0)
#endif
#define MU_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MU_MIN(a, b) ((a) < (b) ? (a) : (b))
#define MU_MAX(a, b) ((a) > (b) ? (a) : (b))

/* ------------------------------------------------------------------ */
/* Logging: one line per event to stderr, written with a single write(2):
 *   ts=2026-12-01T21:00:00.123Z level=info event=http.listen addr=127.0.0.1:8123
 * `event` is a dotted name; the format string supplies further key=value
 * pairs. Values with spaces are the caller's to quote (mu_log_quote). */
/* ------------------------------------------------------------------ */

enum mu_log_level { MU_LOG_DEBUG = 0, MU_LOG_INFO = 1, MU_LOG_WARN = 2, MU_LOG_ERROR = 3 };

void mu_log_set_level(int level);
int mu_log_get_level(void);
/* Parses "debug|info|warn|error"; returns MU_EINVAL for anything else. */
int mu_log_level_parse(const char *text, int *level_out);
void mu_log_at(int level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define mu_log_debug(event, ...) \
    (mu_log_get_level() <= MU_LOG_DEBUG ? mu_log_at(MU_LOG_DEBUG, event, __VA_ARGS__) : (void)0)
#define mu_log_info(event, ...) mu_log_at(MU_LOG_INFO, event, __VA_ARGS__)
#define mu_log_warn(event, ...) mu_log_at(MU_LOG_WARN, event, __VA_ARGS__)
#define mu_log_error(event, ...) mu_log_at(MU_LOG_ERROR, event, __VA_ARGS__)
/* Logs an mu_err as error="..." code=NAME at the given level. */
void mu_log_err(int level, const char *event, const mu_err *err);
/* Writes `text` as a double-quoted logfmt value into out (escaping " \ and
 * control bytes), truncating to out_bytes; returns out. */
char *mu_log_quote(const char *text, char *out, size_t out_bytes);

/* ------------------------------------------------------------------ */
/* Checksums and hashes                                               */
/* ------------------------------------------------------------------ */

/* CRC-32C (Castagnoli). Start with crc = 0; feed the previous result to
 * extend: mu_crc32c(mu_crc32c(0, a, n), b, m) == crc of a||b. Uses the SSE4.2
 * instruction where the CPU has it, a slicing table otherwise. */
uint32_t mu_crc32c(uint32_t crc, const void *data, size_t length_bytes);
/* The portable table implementation, exposed so tests compare both. */
uint32_t mu_crc32c_portable(uint32_t crc, const void *data, size_t length_bytes);
bool mu_crc32c_hardware(void);

/* XXH64 as specified by its author; equals ClickHouse's xxHash64 output. */
uint64_t mu_xxhash64(const void *data, size_t length_bytes, uint64_t seed);
/* Default 64-bit hash for in-memory tables (XXH64, seed 0). */
static inline uint64_t mu_hash64(const void *data, size_t length_bytes) {
    return mu_xxhash64(data, length_bytes, 0);
}
/* Finaliser-quality mix of one 64-bit key (for integer hash tables). */
static inline uint64_t mu_hash_u64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ------------------------------------------------------------------ */
/* Varint (unsigned LEB128, at most 10 bytes for u64) and zigzag      */
/* ------------------------------------------------------------------ */

#define MU_VARINT_MAX_BYTES 10
/* Writes v into out and returns the number of bytes written (1..10). */
size_t mu_varint_encode(uint64_t v, uint8_t out[MU_VARINT_MAX_BYTES]);
/* Decodes from p[0..length_bytes). Returns bytes consumed (>0), or 0 when the
 * input is truncated, longer than 10 bytes, or overflows 64 bits. */
size_t mu_varint_decode(const uint8_t *p, size_t length_bytes, uint64_t *value_out);
size_t mu_varint_size(uint64_t v);
static inline uint64_t mu_zigzag_encode(int64_t v) {
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t mu_zigzag_decode(uint64_t v) {
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Little-endian fixed-width loads/stores (all on-disk formats are LE). */
static inline void mu_store_u16le(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
}
static inline void mu_store_u32le(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void mu_store_u64le(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t mu_load_u16le(const uint8_t *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t mu_load_u32le(const uint8_t *p) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static inline uint64_t mu_load_u64le(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* Overflow-checked size arithmetic: return false on overflow. */
static inline bool mu_size_add(size_t a, size_t b, size_t *out) {
    return !__builtin_add_overflow(a, b, out);
}
static inline bool mu_size_mul(size_t a, size_t b, size_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}

/* ------------------------------------------------------------------ */
/* Memory accounting and arenas                                        */
/* ------------------------------------------------------------------ */

/* A tracker counts bytes charged to it and to every ancestor; a charge that
 * would pass limit_bytes (0 = unlimited) anywhere up the chain fails and
 * leaves every tracker unchanged. Thread-safe. */
typedef struct mu_mem_tracker {
    const char *name;
    struct mu_mem_tracker *parent;
    int64_t limit_bytes;
    _Atomic int64_t used_bytes;
    _Atomic int64_t peak_bytes;
} mu_mem_tracker;

void mu_mem_tracker_init(mu_mem_tracker *t, const char *name, mu_mem_tracker *parent,
                         int64_t limit_bytes);
/* Returns 0, or MU_EMEMLIMIT naming the tracker whose limit would be passed. */
int mu_mem_tracker_charge(mu_mem_tracker *t, size_t bytes, mu_err *err);
void mu_mem_tracker_release(mu_mem_tracker *t, size_t bytes);
/* The process-wide root tracker (no limit unless set at start-up). */
mu_mem_tracker *mu_mem_tracker_global(void);

/* An arena hands out memory that is freed all at once (reset or destroy).
 * Blocks are charged to the tracker given at creation. Not thread-safe. */
typedef struct mu_arena mu_arena;

int mu_arena_create(mu_arena **arena_out, mu_mem_tracker *tracker, size_t block_bytes,
                    mu_err *err);
void mu_arena_destroy(mu_arena *arena); /* accepts NULL */
/* 16-byte aligned memory, or NULL (and err filled) on OOM or tracker limit. */
void *mu_arena_alloc(mu_arena *arena, size_t bytes, mu_err *err);
void *mu_arena_calloc(mu_arena *arena, size_t count, size_t size, mu_err *err);
char *mu_arena_strndup(mu_arena *arena, const char *s, size_t length_bytes, mu_err *err);
/* Frees every block but the first; previous allocations become invalid. */
void mu_arena_reset(mu_arena *arena);
size_t mu_arena_used_bytes(const mu_arena *arena);

/* ------------------------------------------------------------------ */
/* Growable byte buffer with a maximum size                            */
/* ------------------------------------------------------------------ */

typedef struct mu_buf {
    uint8_t *data;
    size_t length_bytes;
    size_t capacity_bytes;
    size_t max_bytes; /* growth past this fails with MU_ETOO_LARGE; 0 = SIZE_MAX */
} mu_buf;

void mu_buf_init(mu_buf *b, size_t max_bytes);
void mu_buf_deinit(mu_buf *b); /* frees data; b may be reused after init */
/* Ensures room for `extra` more bytes (growing geometrically). */
int mu_buf_reserve(mu_buf *b, size_t extra_bytes, mu_err *err);
/* The growing path of mu_buf_append (buf.c). */
int mu__buf_append_grow(mu_buf *b, const void *data, size_t length_bytes, mu_err *err);
/* Appends length_bytes of data. Speed: inline when it fits the capacity
 * (text output appends a few bytes at a time). */
static inline int mu_buf_append(mu_buf *b, const void *data, size_t length_bytes, mu_err *err) {
    if (length_bytes <= b->capacity_bytes - b->length_bytes) {
        if (length_bytes > 0) memcpy(b->data + b->length_bytes, data, length_bytes);
        b->length_bytes += length_bytes;
        return 0;
    }
    return mu__buf_append_grow(b, data, length_bytes, err);
}
int mu_buf_append_str(mu_buf *b, const char *s, mu_err *err);
static inline int mu_buf_append_u8(mu_buf *b, uint8_t v, mu_err *err) {
    return mu_buf_append(b, &v, 1, err);
}
int mu_buf_append_u32le(mu_buf *b, uint32_t v, mu_err *err);
int mu_buf_append_u64le(mu_buf *b, uint64_t v, mu_err *err);
int mu_buf_append_varint(mu_buf *b, uint64_t v, mu_err *err);
int mu_buf_printf(mu_buf *b, mu_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Drops the first n bytes, moving the rest to the front. */
void mu_buf_consume(mu_buf *b, size_t n_bytes);
static inline void mu_buf_clear(mu_buf *b) { b->length_bytes = 0; }

/* ------------------------------------------------------------------ */
/* Fixed worker pool                                                   */
/* ------------------------------------------------------------------ */

typedef void (*mu_pool_fn)(void *arg);
typedef struct mu_pool mu_pool;

/* Starts `threads` workers named "<name>-<i>" with a bounded queue of
 * queue_max pending tasks. */
int mu_pool_create(mu_pool **pool_out, const char *name, unsigned threads, size_t queue_max,
                   mu_err *err);
/* Queues fn(arg). Fails with MU_EBUSY when the queue is full and with
 * MU_ESHUTDOWN after mu_pool_destroy has begun. */
int mu_pool_submit(mu_pool *pool, mu_pool_fn fn, void *arg, mu_err *err);
/* Blocks until the queue is empty and no task is running. */
void mu_pool_wait_idle(mu_pool *pool);
unsigned mu_pool_threads(const mu_pool *pool);
/* Runs every queued task, joins the workers, frees the pool. Accepts NULL. */
void mu_pool_destroy(mu_pool *pool);

/* ------------------------------------------------------------------ */
/* Clocks                                                              */
/* ------------------------------------------------------------------ */

int64_t mu_clock_mono_ns(void); /* CLOCK_MONOTONIC */
int64_t mu_clock_wall_ns(void); /* CLOCK_REALTIME, ns since the Unix epoch */
static inline int64_t mu_clock_mono_ms(void) { return mu_clock_mono_ns() / 1000000; }
void mu_sleep_ms(int64_t ms);
/* Formats wall-clock ns as "2026-12-01T21:00:00.123Z" (UTC, ms precision);
 * out must hold MU_TIME_ISO8601_BYTES. */
#define MU_TIME_ISO8601_BYTES 32
char *mu_time_format_iso8601(int64_t wall_ns, char *out);

/* ------------------------------------------------------------------ */
/* Failpoints
 *
 * A failpoint is a named place in the code where a test can inject a fault.
 * They are configured by MUSCLES_FAILPOINTS="name=SPEC,name=SPEC" or
 * mu_failpoints_configure(), where SPEC is
 *     ACTION[@N][xK]
 *     ACTION = error | error:EIO | error:ENOSPC | error:SHORT | crash | sleep:MS
 * @N: first fire at the Nth hit (1-based, default 1); xK: fire K times then
 * stay off (default: forever). `crash` raises SIGKILL, like `kill -9`.
 * `error` makes MU_FAILPOINT() return the errno to inject (EIO by default,
 * ENOSPC, or MU_FAILPOINT_SHORT for a short write). Only test builds
 * (MUSCLES_FAILPOINTS defined) compile the checks in; elsewhere the macros
 * are constant 0 and configuring a failpoint is refused. */
/* ------------------------------------------------------------------ */

#define MU_FAILPOINT_SHORT (-1)

/* Parses and installs a spec list, replacing the previous one. On a bad spec
 * returns MU_EINVAL naming it and leaves the previous table in place. */
int mu_failpoints_configure(const char *spec_list, mu_err *err);
/* Reads MUSCLES_FAILPOINTS if set. */
int mu_failpoints_configure_from_env(mu_err *err);
bool mu_failpoints_compiled_in(void);
/* Evaluates failpoint `name`: sleeps or crashes per its action, returns 0
 * when nothing is injected, else the errno to inject (or MU_FAILPOINT_SHORT). */
int mu_failpoint_eval(const char *name);
/* How many times the named failpoint was evaluated (for tests). */
uint64_t mu_failpoint_hits(const char *name);

#ifdef MUSCLES_FAILPOINTS
#define MU_FAILPOINT(name) mu_failpoint_eval(name)
#define MU_CRASHPOINT(name) ((void)mu_failpoint_eval(name))
#else
#define MU_FAILPOINT(name) 0
#define MU_CRASHPOINT(name) ((void)0)
#endif

#endif /* MUSCLES_BASE_H */
