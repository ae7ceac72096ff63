/* tokens.c: the insert-token window of a log: a chained hash set of tokens
 * plus a FIFO ring holding the last `window` durable ones.
 *
 * A token is RESERVED while its append is in flight (so a second append with
 * it waits instead of writing twice) and DURABLE once its record is synced.
 * Invariants: every DURABLE token is in the ring exactly once and in the hash
 * set; RESERVED tokens are only in the hash set; ring_count <= ring_capacity.
 * Not thread-safe: the log calls it with w->mu held.
 */
#include "storage/wal/wal_int.h"

#include <stdlib.h>
#include <string.h>

static size_t wal__tokens_bucket_count(uint64_t window) {
    size_t count = 64;
    /* Load factor at most 1/2 for the window; in-flight tokens add a little. */
    while (count < window * 2 && count < ((size_t)1 << 40)) count *= 2;
    return count;
}

int wal__tokens_init(wal__tokens *tokens, uint64_t window, mu_err *err) {
    MU_ASSERT(tokens != NULL);
    memset(tokens, 0, sizeof(*tokens));
    if (window > 100000000u) return MU_ERR(err, MU_EINVAL, "token window %llu too large",
                                           (unsigned long long)window);
    tokens->bucket_count = wal__tokens_bucket_count(window);
    tokens->buckets = calloc(tokens->bucket_count, sizeof(*tokens->buckets));
    if (window > 0) tokens->ring = calloc((size_t)window, sizeof(*tokens->ring));
    if (tokens->buckets == NULL || (window > 0 && tokens->ring == NULL)) {
        wal__tokens_deinit(tokens);
        return MU_ERR(err, MU_ENOMEM, "token window of %llu: out of memory",
                      (unsigned long long)window);
    }
    tokens->ring_capacity = (size_t)window;
    return 0;
}

void wal__tokens_deinit(wal__tokens *tokens) {
    if (tokens == NULL) return;
    for (size_t i = 0; tokens->buckets != NULL && i < tokens->bucket_count; i++) {
        wal__token *token = tokens->buckets[i];
        while (token != NULL) {
            wal__token *next = token->next_in_bucket;
            free(token);
            token = next;
        }
    }
    free(tokens->buckets);
    free(tokens->ring);
    memset(tokens, 0, sizeof(*tokens));
}

static wal__token **wal__tokens_slot(wal__tokens *tokens, uint64_t hash, const void *data,
                                     size_t length_bytes) {
    wal__token **slot = &tokens->buckets[hash & (tokens->bucket_count - 1)];
    while (*slot != NULL) {
        wal__token *token = *slot;
        if (token->hash == hash && token->length_bytes == length_bytes &&
            memcmp(token->data, data, length_bytes) == 0) {
            return slot;
        }
        slot = &token->next_in_bucket;
    }
    return slot;
}

wal__token *wal__tokens_find(wal__tokens *tokens, const void *data, size_t length_bytes) {
    MU_ASSERT(tokens != NULL);
    MU_ASSERT(length_bytes > 0 && length_bytes <= WAL_TOKEN_BYTES_MAX);
    return *wal__tokens_slot(tokens, mu_hash64(data, length_bytes), data, length_bytes);
}

/* Unlinks token from its bucket and frees it. */
static void wal__tokens_remove(wal__tokens *tokens, wal__token *token) {
    wal__token **slot = wal__tokens_slot(tokens, token->hash, token->data, token->length_bytes);
    MU_ASSERT(*slot == token);
    *slot = token->next_in_bucket;
    free(token);
}

static int wal__tokens_insert(wal__tokens *tokens, const void *data, size_t length_bytes,
                              int state, wal__token **token_out, mu_err *err) {
    uint64_t hash = mu_hash64(data, length_bytes);
    wal__token **slot = wal__tokens_slot(tokens, hash, data, length_bytes);
    MU_ASSERT(*slot == NULL);
    wal__token *token = malloc(sizeof(*token) + length_bytes);
    if (token == NULL) return MU_ERR(err, MU_ENOMEM, "insert token: out of memory");
    token->next_in_bucket = NULL;
    token->hash = hash;
    token->lsn = 0;
    token->state = state;
    token->length_bytes = (uint16_t)length_bytes;
    memcpy(token->data, data, length_bytes);
    *slot = token;
    *token_out = token;
    return 0;
}

int wal__tokens_reserve(wal__tokens *tokens, const void *data, size_t length_bytes,
                        wal__token **token_out, mu_err *err) {
    MU_ASSERT(tokens != NULL);
    MU_ASSERT(length_bytes > 0 && length_bytes <= WAL_TOKEN_BYTES_MAX);
    int rc = wal__tokens_insert(tokens, data, length_bytes, WAL__TOKEN_RESERVED, token_out, err);
    if (rc == 0) tokens->reserved_count++;
    return rc;
}

/* Puts a DURABLE token at the young end of the ring, evicting the oldest
 * when full; with a window of 0 the token is dropped at once. */
static void wal__tokens_ring_push(wal__tokens *tokens, wal__token *token) {
    MU_ASSERT(token->state == WAL__TOKEN_DURABLE);
    if (tokens->ring_capacity == 0) {
        wal__tokens_remove(tokens, token);
        return;
    }
    if (tokens->ring_count == tokens->ring_capacity) {
        wal__token *oldest = tokens->ring[tokens->ring_head];
        tokens->ring_head = (tokens->ring_head + 1) % tokens->ring_capacity;
        tokens->ring_count--;
        wal__tokens_remove(tokens, oldest);
    }
    size_t tail = (tokens->ring_head + tokens->ring_count) % tokens->ring_capacity;
    tokens->ring[tail] = token;
    tokens->ring_count++;
    MU_ASSERT(tokens->ring_count <= tokens->ring_capacity);
}

void wal__tokens_commit(wal__tokens *tokens, wal__token *token, uint64_t lsn) {
    MU_ASSERT(token != NULL);
    MU_ASSERT(token->state == WAL__TOKEN_RESERVED);
    MU_ASSERT(tokens->reserved_count > 0);
    tokens->reserved_count--;
    token->state = WAL__TOKEN_DURABLE;
    token->lsn = lsn;
    wal__tokens_ring_push(tokens, token);
}

void wal__tokens_abort(wal__tokens *tokens, wal__token *token) {
    MU_ASSERT(token != NULL);
    MU_ASSERT(token->state == WAL__TOKEN_RESERVED);
    MU_ASSERT(tokens->reserved_count > 0);
    tokens->reserved_count--;
    wal__tokens_remove(tokens, token);
}

int wal__tokens_add_durable(wal__tokens *tokens, const void *data, size_t length_bytes,
                            uint64_t lsn, mu_err *err) {
    MU_ASSERT(tokens != NULL);
    if (length_bytes == 0 || length_bytes > WAL_TOKEN_BYTES_MAX) {
        return MU_ERR(err, MU_EINVAL, "insert token of %zu bytes (1..%d allowed)", length_bytes,
                      WAL_TOKEN_BYTES_MAX);
    }
    if (tokens->ring_capacity == 0) return 0;
    wal__token *token = wal__tokens_find(tokens, data, length_bytes);
    if (token != NULL) {
        /* Known already (durable, or reserved by an append in flight, which
         * will report its own outcome): keep the newest LSN, keep its place. */
        if (token->state == WAL__TOKEN_DURABLE && lsn > token->lsn) token->lsn = lsn;
        return 0;
    }
    int rc = wal__tokens_insert(tokens, data, length_bytes, WAL__TOKEN_DURABLE, &token, err);
    if (rc != 0) return rc;
    token->lsn = lsn;
    wal__tokens_ring_push(tokens, token);
    return 0;
}
