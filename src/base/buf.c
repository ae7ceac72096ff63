/* buf.c: mu_buf, a growable byte buffer with a hard maximum, used to build
 * WAL records, HTTP bodies and encoded blocks.
 *
 * Invariants: length_bytes <= capacity_bytes, and length_bytes never passes
 * max_bytes (growth past it fails with MU_ETOO_LARGE and leaves the buffer
 * as it was). Any call that may grow the buffer may move `data`: pointers
 * into it are invalid after an append. Not thread-safe; the owner frees it.
 */
#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_MIN_CAPACITY_BYTES 64

void mu_buf_init(mu_buf *b, size_t max_bytes) {
    MU_ASSERT(b != NULL);
    b->data = NULL;
    b->length_bytes = 0;
    b->capacity_bytes = 0;
    b->max_bytes = max_bytes == 0 ? SIZE_MAX : max_bytes;
}

void mu_buf_deinit(mu_buf *b) {
    if (b == NULL) return;
    free(b->data);
    b->data = NULL;
    b->length_bytes = 0;
    b->capacity_bytes = 0;
}

int mu_buf_reserve(mu_buf *b, size_t extra_bytes, mu_err *err) {
    MU_ASSERT(b != NULL);
    MU_ASSERT(b->length_bytes <= b->capacity_bytes);
    size_t need;
    if (!mu_size_add(b->length_bytes, extra_bytes, &need) || need > b->max_bytes) {
        return MU_ERR(err, MU_ETOO_LARGE,
                      "buffer of %zu bytes cannot grow by %zu bytes: its maximum is %zu bytes",
                      b->length_bytes, extra_bytes, b->max_bytes);
    }
    if (need <= b->capacity_bytes) return 0;
    /* Doubling keeps appends amortised O(1); the cap keeps the last step
     * from overshooting the maximum. */
    size_t capacity = MU_MAX(b->capacity_bytes, (size_t)BUF_MIN_CAPACITY_BYTES);
    while (capacity < need) {
        if (capacity > SIZE_MAX / 2) {
            capacity = need;
            break;
        }
        capacity *= 2;
    }
    capacity = MU_MIN(capacity, b->max_bytes);
    uint8_t *data = realloc(b->data, capacity);
    if (data == NULL) {
        return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "cannot grow buffer from %zu to %zu bytes",
                          b->capacity_bytes, capacity);
    }
    b->data = data;
    b->capacity_bytes = capacity;
    MU_ASSERT(b->capacity_bytes >= need);
    return 0;
}

int mu__buf_append_grow(mu_buf *b, const void *data, size_t length_bytes, mu_err *err) {
    MU_ASSERT(data != NULL || length_bytes == 0);
    int rc = mu_buf_reserve(b, length_bytes, err);
    if (rc != 0) return rc;
    if (length_bytes > 0) memcpy(b->data + b->length_bytes, data, length_bytes);
    b->length_bytes += length_bytes;
    return 0;
}

int mu_buf_append_str(mu_buf *b, const char *s, mu_err *err) {
    MU_ASSERT(s != NULL);
    return mu_buf_append(b, s, strlen(s), err);
}


int mu_buf_append_u32le(mu_buf *b, uint32_t v, mu_err *err) {
    uint8_t bytes[4];
    mu_store_u32le(bytes, v);
    return mu_buf_append(b, bytes, sizeof(bytes), err);
}

int mu_buf_append_u64le(mu_buf *b, uint64_t v, mu_err *err) {
    uint8_t bytes[8];
    mu_store_u64le(bytes, v);
    return mu_buf_append(b, bytes, sizeof(bytes), err);
}

int mu_buf_append_varint(mu_buf *b, uint64_t v, mu_err *err) {
    uint8_t bytes[MU_VARINT_MAX_BYTES];
    size_t n = mu_varint_encode(v, bytes);
    return mu_buf_append(b, bytes, n, err);
}

int mu_buf_printf(mu_buf *b, mu_err *err, const char *fmt, ...) {
    MU_ASSERT(b != NULL);
    va_list ap;
    va_start(ap, fmt);
    int needed = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (needed < 0) return MU_ERR(err, MU_EINVAL, "buffer printf: cannot format \"%s\"", fmt);
    size_t n = (size_t)needed;
    int rc = mu_buf_reserve(b, n, err);
    if (rc != 0) return rc;
    /* vsnprintf needs room for a NUL that is not part of the content. When
     * the buffer is full to its maximum there is none, so format aside. */
    char *target = NULL;
    char *aside = NULL;
    if (b->capacity_bytes - b->length_bytes >= n + 1) {
        target = (char *)b->data + b->length_bytes;
    } else {
        aside = malloc(n + 1);
        if (aside == NULL) {
            return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "buffer printf: cannot allocate %zu bytes",
                              n + 1);
        }
        target = aside;
    }
    va_start(ap, fmt);
    vsnprintf(target, n + 1, fmt, ap);
    va_end(ap);
    if (aside != NULL) {
        if (n > 0) memcpy(b->data + b->length_bytes, aside, n);
        free(aside);
    }
    b->length_bytes += n;
    return 0;
}

void mu_buf_consume(mu_buf *b, size_t n_bytes) {
    MU_ASSERT(b != NULL);
    MU_ASSERT(n_bytes <= b->length_bytes);
    size_t rest = b->length_bytes - n_bytes;
    if (rest > 0 && n_bytes > 0) memmove(b->data, b->data + n_bytes, rest);
    b->length_bytes = rest;
}
