/* log.c: leveled logfmt lines on stderr, one event per line:
 *   ts=2026-12-01T21:00:00.123Z level=info event=http.listen addr=127.0.0.1:8123
 *
 * Owns the process log level (an atomic, so any thread may read or set it) and
 * the write lock. Invariant: a line is built completely in memory and handed
 * to the kernel with one write(2) while the lock is held, so lines from
 * different threads never interleave; on a pipe, lines up to PIPE_BUF bytes
 * are also atomic against other processes sharing it.
 */
#include "base/base.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Most lines fit on the stack; longer ones get a heap buffer up to this cap
 * and are cut (marked truncated=true) beyond it, so one runaway value cannot
 * make logging allocate without bound. */
#define LOG_STACK_LINE_BYTES 2048
#define LOG_LINE_MAX_BYTES (64 * 1024)
#define LOG_TRUNCATED_MARK " truncated=true\n"

static _Atomic int log_level = MU_LOG_INFO;
static pthread_mutex_t log_write_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const log_level_names[] = {"debug", "info", "warn", "error"};

void mu_log_set_level(int level) {
    MU_ASSERT(level >= MU_LOG_DEBUG);
    MU_ASSERT(level <= MU_LOG_ERROR);
    atomic_store_explicit(&log_level, level, memory_order_relaxed);
}

int mu_log_get_level(void) { return atomic_load_explicit(&log_level, memory_order_relaxed); }

int mu_log_level_parse(const char *text, int *level_out) {
    MU_ASSERT(level_out != NULL);
    if (text == NULL) return MU_EINVAL;
    for (int i = 0; i < (int)MU_ARRAY_LEN(log_level_names); i++) {
        if (strcasecmp(text, log_level_names[i]) == 0) {
            *level_out = i;
            return 0;
        }
    }
    return MU_EINVAL;
}

/* Writes all of line with as few write(2) calls as the kernel allows (one,
 * unless a signal interrupts a partial write). Errors are dropped: there is
 * nowhere left to report a failure to write the log. */
static void log_write_line(const char *line, size_t length_bytes) {
    int saved_errno = errno;
    pthread_mutex_lock(&log_write_lock);
    while (length_bytes > 0) {
        ssize_t n = write(STDERR_FILENO, line, length_bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        line += n;
        length_bytes -= (size_t)n;
    }
    pthread_mutex_unlock(&log_write_lock);
    errno = saved_errno;
}

/* Formats "ts=... level=... event=... <pairs>" (no newline) into out, NUL
 * included, within out_bytes; returns the length the line needs, which is
 * out_bytes - 1 or more when it did not fit. */
static size_t log_format_line(char *out, size_t out_bytes, int level, const char *event,
                              const char *fmt, va_list ap) {
    char ts[MU_TIME_ISO8601_BYTES];
    mu_time_format_iso8601(mu_clock_wall_ns(), ts);
    int head = snprintf(out, out_bytes, "ts=%s level=%s event=%s", ts, log_level_names[level],
                        event);
    MU_ASSERT(head > 0);
    MU_ASSERT((size_t)head < out_bytes);
    size_t used = (size_t)head;
    if (fmt[0] != '\0') {
        out[used++] = ' ';
        int body = vsnprintf(out + used, out_bytes - used, fmt, ap);
        if (body <= 0) {
            used--; /* no pairs: no separating space either */
        } else {
            used += (size_t)body;
        }
    }
    /* The newline is added by the caller once it knows the line fit. */
    return used;
}

static void log_emit(int level, const char *event, const char *fmt, va_list ap) {
    char stack_line[LOG_STACK_LINE_BYTES];
    va_list again;
    va_copy(again, ap);
    size_t needed = log_format_line(stack_line, sizeof(stack_line) - 1, level, event, fmt, ap);
    if (needed < sizeof(stack_line) - 1) {
        stack_line[needed] = '\n';
        log_write_line(stack_line, needed + 1);
        va_end(again);
        return;
    }
    size_t heap_bytes = MU_MIN(needed + 2, (size_t)LOG_LINE_MAX_BYTES);
    char *line = malloc(heap_bytes);
    char *target = line != NULL ? line : stack_line;
    size_t target_bytes = line != NULL ? heap_bytes : sizeof(stack_line);
    needed = log_format_line(target, target_bytes - 1, level, event, fmt, again);
    va_end(again);
    if (needed < target_bytes - 1) {
        target[needed] = '\n';
        log_write_line(target, needed + 1);
    } else {
        size_t mark = strlen(LOG_TRUNCATED_MARK);
        size_t keep = target_bytes - 1 - mark;
        /* Do not leave half of a UTF-8 sequence before the mark. */
        while (keep > 0 && ((unsigned char)target[keep] & 0xC0) == 0x80) keep--;
        memcpy(target + keep, LOG_TRUNCATED_MARK, mark);
        log_write_line(target, keep + mark);
    }
    free(line);
}

void mu_log_at(int level, const char *event, const char *fmt, ...) {
    MU_ASSERT(level >= MU_LOG_DEBUG);
    MU_ASSERT(level <= MU_LOG_ERROR);
    MU_ASSERT(event != NULL);
    MU_ASSERT(fmt != NULL);
    if (level < mu_log_get_level()) return;
    va_list ap;
    va_start(ap, fmt);
    log_emit(level, event, fmt, ap);
    va_end(ap);
}

static void log_emit_fmt(int level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void log_emit_fmt(int level, const char *event, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_emit(level, event, fmt, ap);
    va_end(ap);
}

void mu_log_err(int level, const char *event, const mu_err *err) {
    MU_ASSERT(err != NULL);
    if (level < mu_log_get_level()) return;
    char quoted[2 * MU_ERR_MSG_BYTES + 8];
    mu_log_quote(err->message, quoted, sizeof(quoted));
    const char *file = err->file != NULL ? err->file : "?";
    if (err->sys_errno != 0) {
        log_emit_fmt(level, event, "error=%s code=%s errno=%d at=%s:%d", quoted,
                     mu_code_name(err->code), err->sys_errno, file, err->line);
    } else {
        log_emit_fmt(level, event, "error=%s code=%s at=%s:%d", quoted, mu_code_name(err->code),
                     file, err->line);
    }
}

/* The escaped form of one byte: itself, a two-character escape, or \xHH. */
static size_t log_quote_escape(unsigned char c, char escaped[5]) {
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': memcpy(escaped, "\\\"", 2); return 2;
    case '\\': memcpy(escaped, "\\\\", 2); return 2;
    case '\n': memcpy(escaped, "\\n", 2); return 2;
    case '\r': memcpy(escaped, "\\r", 2); return 2;
    case '\t': memcpy(escaped, "\\t", 2); return 2;
    default: break;
    }
    if (c < 0x20 || c == 0x7f) {
        escaped[0] = '\\';
        escaped[1] = 'x';
        escaped[2] = hex[c >> 4];
        escaped[3] = hex[c & 0xf];
        return 4;
    }
    escaped[0] = (char)c;
    return 1;
}

char *mu_log_quote(const char *text, char *out, size_t out_bytes) {
    MU_ASSERT(text != NULL);
    MU_ASSERT(out != NULL);
    MU_ASSERT(out_bytes >= 8);
    size_t total = 2; /* both quotes */
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        char escaped[5];
        total += log_quote_escape(*p, escaped);
    }
    /* When it does not fit, keep room for `..."` and the NUL. */
    bool truncate = total + 1 > out_bytes;
    size_t limit = truncate ? out_bytes - 5 : out_bytes - 2;
    size_t used = 0;
    out[used++] = '"';
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        char escaped[5];
        size_t n = log_quote_escape(*p, escaped);
        if (used + n > limit) break;
        memcpy(out + used, escaped, n);
        used += n;
    }
    if (truncate) {
        while (used > 1 && ((unsigned char)out[used - 1] & 0xC0) == 0x80) used--;
        if (used > 1 && (unsigned char)out[used - 1] >= 0xC0) used--;
        memcpy(out + used, "...", 3);
        used += 3;
    }
    out[used++] = '"';
    out[used] = '\0';
    return out;
}
