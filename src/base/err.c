/* err.c: the mu_err record, the lookups generated from errors.def, the
 * errno-to-code map and the panic path behind MU_ASSERT.
 *
 * errors.def is the single source of every code: the row table and the switch
 * that finds a row are both generated from it, so a code added there is known
 * everywhere, and a duplicated value fails to compile (duplicate case label).
 * mu_panic_at bypasses stdio and the log lock (snprintf to the stack, then
 * write(2)), so it still reports when the heap or the log is in a bad state.
 */
#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* glibc has backtrace(); a libc without it (musl) still gets the location. */
#if __has_include(<execinfo.h>)
#include <execinfo.h>
#define ERR_HAVE_BACKTRACE 1
#else
#define ERR_HAVE_BACKTRACE 0
#endif

typedef struct err_row {
    int code;
    const char *name;
    int ch_number;
    const char *ch_name;
    int http_status;
    const char *description;
} err_row;

#define X(name, value, ch_code, ch_name, http_status, description) \
    _Static_assert((value) < 0, "error code " #name " must be negative");
#include "base/errors.def"
#undef X

enum err_row_index {
#define X(name, value, ch_code, ch_name, http_status, description) ERR_ROW_##name,
#include "base/errors.def"
#undef X
    ERR_ROW_COUNT
};

static const err_row err_rows[ERR_ROW_COUNT] = {
#define X(name, value, ch_code, ch_name, http_status, description) \
    [ERR_ROW_##name] = {(value), #name, (ch_code), #ch_name, (http_status), description},
#include "base/errors.def"
#undef X
};

/* MU_OK is not an error and has no row in errors.def; it answers for itself
 * so that logging a success status does not claim an internal error. */
static const err_row err_row_ok = {MU_OK, "OK", 0, "OK", 200, "success"};

static const err_row *err_row_find(int code) {
    switch (code) {
    case MU_OK:
        return &err_row_ok;
#define X(name, value, ch_code, ch_name, http_status, description) \
    case (value):                                                  \
        return &err_rows[ERR_ROW_##name];
#include "base/errors.def"
#undef X
    default:
        return &err_rows[ERR_ROW_EINTERNAL];
    }
}

const char *mu_code_name(int code) { return err_row_find(code)->name; }
const char *mu_code_description(int code) { return err_row_find(code)->description; }
int mu_code_ch_number(int code) { return err_row_find(code)->ch_number; }
const char *mu_code_ch_name(int code) { return err_row_find(code)->ch_name; }
int mu_code_http_status(int code) { return err_row_find(code)->http_status; }

size_t mu_err_clickhouse_text(const mu_err *e, char *out, size_t out_bytes) {
    MU_ASSERT(out_bytes > 0);
    int code = e->code < 0 ? e->code : MU_EINTERNAL;
    const char *message = e->message[0] != '\0' ? e->message : mu_code_description(code);
    size_t n = strlen(message);
    bool has_dot = n > 0 && message[n - 1] == '.';
    int length = snprintf(out, out_bytes, "Code: %d. DB::Exception: %s%s (%s) (version %s)",
                          mu_code_ch_number(code), message, has_dot ? "" : ".",
                          mu_code_ch_name(code), MUSCLES_VERSION);
    if (length < 0) length = 0;
    return MU_MIN((size_t)length, out_bytes - 1);
}

void mu_err_clear(mu_err *err) {
    if (err == NULL) return;
    err->code = MU_OK;
    err->sys_errno = 0;
    err->file = NULL;
    err->line = 0;
    err->message[0] = '\0';
}

/* Thread-safe strerror over both strerror_r flavours. */
static const char *err_strerror(int sys_errno, char *scratch, size_t scratch_bytes) {
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
    return strerror_r(sys_errno, scratch, scratch_bytes); /* may not use scratch */
#else
    if (strerror_r(sys_errno, scratch, scratch_bytes) != 0) {
        snprintf(scratch, scratch_bytes, "errno %d", sys_errno);
    }
    return scratch;
#endif
}

int mu_err_set_at(mu_err *err, int code, int sys_errno, const char *file, int line,
                  const char *fmt, ...) {
    MU_ASSERT(code < 0);
    if (err == NULL) return code;
    int saved_errno = errno;
    err->code = code;
    err->sys_errno = sys_errno;
    err->file = file;
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    int written = vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    if (written < 0) {
        snprintf(err->message, sizeof(err->message), "%s", mu_code_description(code));
        written = (int)strlen(err->message);
    }
    size_t used = MU_MIN((size_t)written, sizeof(err->message) - 1);
    if (sys_errno != 0 && used < sizeof(err->message) - 1) {
        char sys_text[128];
        snprintf(err->message + used, sizeof(err->message) - used, ": %s",
                 err_strerror(sys_errno, sys_text, sizeof(sys_text)));
    }
    errno = saved_errno;
    return code;
}

void mu_err_prefix(mu_err *err, const char *fmt, ...) {
    if (err == NULL) return;
    char combined[MU_ERR_MSG_BYTES];
    va_list ap;
    va_start(ap, fmt);
    int written = vsnprintf(combined, sizeof(combined), fmt, ap);
    va_end(ap);
    if (written <= 0) return;
    /* The result is cut at MU_ERR_MSG_BYTES - 1; the start of the original
     * message survives as long as the prefix is short. */
    size_t used = MU_MIN((size_t)written, sizeof(combined) - 1);
    size_t message_bytes = strlen(err->message);
    if (message_bytes > 0) {
        const char *pieces[2] = {": ", err->message};
        size_t piece_bytes[2] = {2, message_bytes};
        for (int i = 0; i < 2; i++) {
            size_t n = MU_MIN(piece_bytes[i], sizeof(combined) - 1 - used);
            memcpy(combined + used, pieces[i], n);
            used += n;
        }
    }
    combined[used] = '\0';
    memcpy(err->message, combined, used + 1);
}

int mu_code_from_errno(int sys_errno, int fallback_code) {
    MU_ASSERT(fallback_code < 0);
    /* Only errno values whose meaning does not depend on the call are mapped:
     * EACCES on a data file is the server's problem, not the client's
     * ACCESS_DENIED, so it keeps the caller's fallback (EOPEN, EWRITE...). */
    switch (sys_errno) {
    case ENOMEM:
        return MU_ENOMEM;
    case ENOSPC:
    case EDQUOT:
        return MU_ENOSPC;
    case EIO:
        return MU_EIO;
    case ENOENT:
        return MU_ENOT_FOUND;
    case EEXIST:
        return MU_EEXISTS;
    case ETIMEDOUT:
        return MU_ETIMEOUT;
    case ECANCELED:
        return MU_ECANCELLED;
    case ENOSYS:
    case EOPNOTSUPP:
        return MU_ENOT_SUPPORTED;
    default:
        return fallback_code;
    }
}

static void panic_write(const char *text, size_t length_bytes) {
    while (length_bytes > 0) {
        ssize_t n = write(STDERR_FILENO, text, length_bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text += n;
        length_bytes -= (size_t)n;
    }
}

_Noreturn void mu_panic_at(const char *file, int line, const char *what) {
    char head[1024];
    int n = snprintf(head, sizeof(head), "muscles: assertion failed at %s:%d: %s\nbacktrace:\n",
                     file != NULL ? file : "?", line, what != NULL ? what : "?");
    if (n > 0) panic_write(head, MU_MIN((size_t)n, sizeof(head) - 1));
#if ERR_HAVE_BACKTRACE
    void *frames[64];
    int frame_count = backtrace(frames, (int)MU_ARRAY_LEN(frames));
    backtrace_symbols_fd(frames, frame_count, STDERR_FILENO);
#else
    panic_write("(not available on this libc)\n", 29);
#endif
    abort();
}
